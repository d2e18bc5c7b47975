//! The program runs from any folder: its shipped players, values and
//! ratings are built into it, never found through the source tree's path,
//! and a fit's bundle is read from its own folder only.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use super::bin;

/// A copy of the binary under test in a folder of its own, with a working
/// folder and a home of their own, all outside the source tree.
struct Elsewhere {
    _root: tempfile::TempDir,
    binary: PathBuf,
    work: PathBuf,
    home: PathBuf,
}

impl Elsewhere {
    fn new() -> Elsewhere {
        let root = tempfile::tempdir().unwrap();
        let (bin_dir, work, home) = (
            root.path().join("bin"),
            root.path().join("work"),
            root.path().join("home"),
        );
        for dir in [&bin_dir, &work, &home] {
            std::fs::create_dir(dir).unwrap();
        }
        let binary = bin_dir.join("caesar-workbench");
        std::fs::copy(bin(), &binary).unwrap();
        assert!(
            !work.starts_with(env!("CARGO_MANIFEST_DIR")),
            "the working folder is outside the source tree"
        );
        Elsewhere {
            _root: root,
            binary,
            work,
            home,
        }
    }

    /// The copied binary, run in the working folder with `HOME` and `PWD`
    /// there, no variable naming the source tree, and, where the system
    /// lets a test (Linux, a private mount namespace), the source tree
    /// hidden under an empty folder for the run.
    fn run(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        let mut command = match hidden_tree_runner() {
            Some(unshare) => {
                let mut command = assert_cmd::Command::new(unshare);
                command
                    .args(["-m", "--propagation", "private", "sh", "-c"])
                    .arg(r#"mount -t tmpfs none "$1" && shift && exec "$@""#)
                    .arg("sh")
                    .arg(env!("CARGO_MANIFEST_DIR"))
                    .arg(&self.binary);
                command
            }
            None => assert_cmd::Command::new(&self.binary),
        };
        command
            .args(args)
            .current_dir(&self.work)
            .env_clear()
            .env("HOME", &self.home)
            .env("PWD", &self.work)
            .env("PATH", "/usr/bin:/bin")
            .timeout(std::time::Duration::from_secs(300));
        command.assert()
    }
}

/// `unshare`, when it can hide the source tree from a command (a private
/// mount namespace with an empty folder mounted over the tree: root on
/// Linux); `None` elsewhere, where the byte check below stands alone.
fn hidden_tree_runner() -> Option<&'static str> {
    static RUNNER: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *RUNNER.get_or_init(|| {
        let unshare = "/usr/bin/unshare";
        let hidden = std::process::Command::new(unshare)
            .args(["-m", "--propagation", "private", "sh", "-c"])
            .arg(r#"mount -t tmpfs none "$1" && test ! -e "$1/Cargo.toml""#)
            .arg("sh")
            .arg(env!("CARGO_MANIFEST_DIR"))
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        hidden.then_some(unshare)
    })
}

#[test]
fn the_binary_holds_no_path_into_the_source_tree() {
    let bytes = std::fs::read(bin()).unwrap();
    for needle in [
        format!("{}/variants", env!("CARGO_MANIFEST_DIR")),
        format!("{}/scenarios", env!("CARGO_MANIFEST_DIR")),
    ] {
        assert!(
            memchr::memmem::find(&bytes, needle.as_bytes()).is_none(),
            "the binary names {needle}: it would read the source tree's files"
        );
    }
}

#[test]
fn every_command_plays_best_and_fast_from_a_folder_outside_the_source_tree() {
    let here = Elsewhere::new();
    // The default players are `fast` on both sides.
    here.run(&["simulate", "--games", "2", "--threads", "1"])
        .code(0)
        .stderr(predicate::str::contains(
            "fast = heuristic:variants/players/",
        ));
    here.run(&[
        "simulate",
        "--games",
        "2",
        "--threads",
        "1",
        "--caesar-ai",
        "best",
        // A shipped balance report, as the equilibrium it measured.
        "--pompey-ai",
        "equilibrium:variants/players/balance-rules-2.0.json",
    ])
    .code(0)
    .stderr(predicate::str::contains("best = mcts:64@variants/players/"));
    here.run(&[
        "play",
        "--seed",
        "3",
        "--caesar-ai",
        "fast",
        "--pompey-ai",
        "best",
    ])
    .code(0);
    here.run(&[
        "explain",
        "--variant",
        "rules-1.1",
        "--variant",
        "rules-2.0",
        "--games",
        "10",
        "--threads",
        "1",
        "--caesar-ai",
        "fast",
        "--pompey-ai",
        "fast",
    ])
    .code(0);
    // The balance's population is every shipped player: all read from
    // inside the program (the dry run resolves them), and a small table played.
    here.run(&["balance", "--dry-run", "--rounds", "0"])
        .code(0)
        .stdout(predicate::str::contains("players a side"));
    here.run(&[
        "balance",
        "--only-named",
        "--players",
        "heuristic,heuristic:variants/players/tuned-sides-rules-2.0.ron",
        "--rounds",
        "0",
        "--games",
        "4",
        "--first-games",
        "4",
        "--threads",
        "1",
    ])
    .code(0)
    .stdout(predicate::str::contains("At equilibrium Caesar wins"));
    here.run(&["players", "--variant", "rules-1.1"])
        .code(0)
        .stdout(predicate::str::contains(
            "variants/players/tuned-rules-1.1.ron",
        ));
    // A shipped file named by its shipped path plays from here too.
    here.run(&[
        "simulate",
        "--games",
        "2",
        "--caesar-ai",
        "search:2@variants/players/search-base-rules-2.0.ron+variants/players/value-rules-2.0.ron",
        "--pompey-ai",
        "heuristic:variants/players/tuned-sides-rules-2.0.ron",
    ])
    .code(0);
    assert_eq!(
        std::fs::read_dir(&here.work).unwrap().count(),
        0,
        "nothing was written to the working folder"
    );
    if hidden_tree_runner().is_some() {
        // The runs above saw no source tree: a file of it is not there.
        here.run(&[
            "simulate",
            "--games",
            "1",
            "--scenario",
            concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/historical.ron"),
        ])
        .code(2)
        .stderr(predicate::str::contains("historical.ron"));
    }
}

/// A bundle of one rating for the published game under rules 2.0 playing
/// `player`, in `dir`.
fn bundle(dir: &Path, player: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("ratings.ron"),
        format!(
            "[(variant: \"rules-2.0\", player: \"{player}\", against: \"heuristic\", score: (estimate: 0.6, ci95: (0.5, 0.7)), games_each_way: 10, as_caesar: 0.5, as_pompey: 0.7, cpu_seconds_per_game: 0.001, measured: \"by hand\")]"
        ),
    )
    .unwrap();
}

#[test]
fn a_file_a_bundle_names_but_does_not_hold_is_an_error_naming_the_bundle() {
    let here = Elsewhere::new();
    let players = here.work.join("b.players");
    bundle(&players, "heuristic:fitted.ron");
    // The file is beside the bundle, in the working folder: never read.
    std::fs::write(here.work.join("fitted.ron"), "(attack_ratio: 2.0)").unwrap();
    here.run(&[
        "simulate",
        "--games",
        "2",
        "--caesar-ai",
        "best",
        "--players",
        players.to_str().unwrap(),
    ])
    .code(2)
    .stderr(predicate::str::contains(format!(
        "the fit's bundle {}",
        players.display()
    )))
    .stderr(predicate::str::contains("fitted.ron"));
    bundle(&players, "heuristic:../fitted.ron");
    here.run(&[
        "simulate",
        "--games",
        "2",
        "--players",
        players.to_str().unwrap(),
    ])
    .code(2)
    .stderr(predicate::str::contains("which is outside it"));
}
