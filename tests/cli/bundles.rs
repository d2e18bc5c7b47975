//! Bundles prove what they hold: a rating is used only for the player,
//! scenario and rule set it was measured on; figures are range-checked;
//! ratings files are merged into, never replaced; a fresh fit refuses a
//! folder that holds anything; a fit resumes after a kill in any stage.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use predicates::prelude::*;

use super::{bin, cli};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A bundle in `dir/b.players` of one rating, `heuristic:p.ron` against the
/// default heuristic, measured by `players --measure` from the bundle's
/// folder (so it names the file from there).
fn measured_bundle(dir: &Path) -> PathBuf {
    let bundle = dir.join("b.players");
    std::fs::create_dir(&bundle).unwrap();
    write(&bundle, "p.ron", "(attack_ratio: 2.0)");
    cli()
        .current_dir(&bundle)
        .args(["players", "--measure", "--players", "heuristic:p.ron"])
        .args(["--games", "2", "--threads", "1", "--out", "ratings.ron"])
        .assert()
        .code(0);
    bundle
}

fn simulate_best(bundle: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    cli()
        .args(["simulate", "--games", "1", "--threads", "1"])
        .args(["--caesar-ai", "best", "--pompey-ai", "heuristic"])
        .args(["--players", bundle.to_str().unwrap()])
        .args(extra)
        .assert()
}

#[test]
fn a_bundle_rating_follows_the_players_content_not_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = measured_bundle(dir.path());
    let text = std::fs::read_to_string(bundle.join("ratings.ron")).unwrap();
    assert!(text.contains("player_digest"), "{text}");
    simulate_best(&bundle, &[])
        .code(0)
        .stderr(predicate::str::contains("the fit's choice for this setup"))
        .stderr(predicate::str::contains("p.ron"));
    // The file replaced in place: its old figure is not taken for it.
    write(&bundle, "p.ron", "(attack_ratio: 3.0)");
    simulate_best(&bundle, &[])
        .code(0)
        .stderr(predicate::str::contains("the fit's choice").not())
        .stderr(predicate::str::contains(format!(
            "your fit in {} was made for another version of this setup",
            bundle.display()
        )))
        .stderr(predicate::str::contains("player files changed"));
}

#[test]
fn a_bundle_for_another_rule_set_or_scenario_is_named_in_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = measured_bundle(dir.path());
    let report = dir.path().join("r.txt");
    simulate_best(
        &bundle,
        &["--variant", "rules-1.1", "--out", report.to_str().unwrap()],
    )
    .code(0);
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(
        text.contains("was made for another version of this setup (the rule set"),
        "{text}"
    );
    let scenario = write(
        dir.path(),
        "s.ron",
        "Scenario(name: \"Mine\", extends: \"historical.ron\")",
    );
    simulate_best(&bundle, &["--scenario", scenario.to_str().unwrap()])
        .code(0)
        .stderr(predicate::str::contains("(the scenario"));
}

#[test]
fn a_bundle_beside_a_renamed_scenario_is_named_not_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bundle = d.join("old.players");
    std::fs::create_dir(&bundle).unwrap();
    write(
        d,
        "old.ron",
        "Scenario(name: \"Mine\", extends: \"historical.ron\")",
    );
    write(&bundle, "p.ron", "(attack_ratio: 2.0)");
    cli()
        .current_dir(&bundle)
        .args(["players", "--measure", "--players", "heuristic:p.ron"])
        .args(["--scenario", "../old.ron", "--games", "1", "--threads", "1"])
        .args(["--out", "ratings.ron"])
        .assert()
        .code(0);
    std::fs::rename(d.join("old.ron"), d.join("new.ron")).unwrap();
    cli()
        .current_dir(d)
        .args(["simulate", "--games", "1", "--threads", "1"])
        .args(["--scenario", "new.ron", "--caesar-ai", "best"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "your fit in ./old.players was made for this setup under another file name",
        ))
        .stderr(predicate::str::contains("rename the folder to new.players"));
}

/// A bundle in `dir/x.players` of one rating of `player` with the
/// estimate `estimate`.
fn bundle_with(dir: &Path, player: &str, estimate: &str) -> PathBuf {
    let bundle = dir.join("x.players");
    std::fs::create_dir_all(&bundle).unwrap();
    write(
        &bundle,
        "ratings.ron",
        &format!(
            "[(variant: \"rules-2.0\", player: \"{player}\", against: \"heuristic\", score: (estimate: {estimate}, ci95: (0.0, 1.0)), games_each_way: 10, as_caesar: 0.5, as_pompey: 0.5, cpu_seconds_per_game: 0.001, measured: \"by hand\")]"
        ),
    );
    bundle
}

#[test]
fn bundle_figures_are_range_checked_and_players_must_parse() {
    let dir = tempfile::tempdir().unwrap();
    for (player, estimate, message) in [
        ("heuristic", "7.5", "`estimate` is 7.5"),
        ("heuristic", "NaN", "`estimate` is NaN"),
        ("heuristic", "-0.1", "from 0 to 1"),
        ("banana", "0.5", "not a player"),
    ] {
        let bundle = bundle_with(dir.path(), player, estimate);
        simulate_best(&bundle, &[])
            .code(2)
            .stderr(predicate::str::contains(message))
            .stderr(predicate::str::contains("ratings.ron:1:"));
    }
}

#[test]
fn players_measure_merges_into_a_ratings_file_and_replaces_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/players/ratings.ron"
    ))
    .unwrap();
    let out = write(dir.path(), "ratings.ron", &shipped);
    let entries = |text: &str| text.matches("measured:").count();
    let before = entries(&shipped);
    let measure = || {
        cli()
            .args(["players", "--measure", "--players", "search:1"])
            .args(["--games", "1", "--threads", "1"])
            .args(["--out", out.to_str().unwrap()])
            .assert()
            .code(0);
        std::fs::read_to_string(&out).unwrap()
    };
    let once = measure();
    assert_eq!(entries(&once), before + 1, "merged, not replaced");
    assert!(once.starts_with("// How strong each shipped player measured"));
    let twice = measure();
    assert_eq!(entries(&twice), before + 1, "measured again: replaced");
    // Anything else at --out is refused before a game, and kept.
    let notes = write(dir.path(), "notes.txt", "my notes");
    cli()
        .args(["players", "--measure", "--players", "random"])
        .args(["--games", "2", "--out", notes.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a ratings file"));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
}

#[test]
fn a_fresh_fit_refuses_a_folder_that_holds_anything() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    std::fs::create_dir(&out).unwrap();
    write(&out, "value.ron", "()");
    cli()
        .args(["fit", "--out", out.to_str().unwrap(), "--budget", "0.1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not empty"));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    assert_eq!(
        std::fs::read_to_string(out.join("value.ron")).unwrap(),
        "()"
    );
}

#[test]
fn a_fit_begun_before_fit_ron_recorded_its_setup_is_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("old.players");
    std::fs::create_dir(&bundle).unwrap();
    write(
        &bundle,
        "fit.ron",
        "(request: (scenario: None, variant: \"rules-2.0\", budget_minutes: 1.0, seed: 1), plan: (tune_games_per_side: 400, learn_games: 100, measure_games_each_way: 10))",
    );
    cli()
        .args(["fit", "--resume", bundle.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("begun by an older version"));
    assert_eq!(std::fs::read_dir(&bundle).unwrap().count(), 1);
}

#[test]
fn a_fit_budget_outside_a_sane_range_is_refused_before_anything() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    for budget in ["0.0000001", "1e308", "NaN", "0", "1441"] {
        cli()
            .args(["fit", "--out", out.to_str().unwrap(), "--budget", budget])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("from 0.1 to 1440"));
        assert!(!out.exists(), "{budget}: nothing made");
    }
}

/// Runs `fit` with `args` in `dir`, killed as soon as a line of its
/// standard error contains `at` (after `skip` such lines); `None` runs it
/// to the end, which must succeed. What it said on standard error.
fn fit_until(dir: &Path, args: &[&str], at: Option<(&str, usize)>) -> Vec<String> {
    let mut child = std::process::Command::new(bin())
        .current_dir(dir)
        .arg("fit")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = 0;
    let mut said = Vec::new();
    for line in stderr.lines() {
        let line = line.unwrap();
        said.push(line.clone());
        if let Some((text, skip)) = at
            && line.contains(text)
        {
            if seen == skip {
                child.kill().unwrap();
                child.wait().unwrap();
                return said;
            }
            seen += 1;
        }
    }
    let status = child.wait().unwrap();
    assert!(at.is_none(), "never saw {at:?}: {said:#?}");
    assert!(status.success(), "{said:#?}");
    said
}

/// Runs `fit` with `args` in `dir` and kills it after `millis`
/// milliseconds, whatever it is doing then (a write, a game).
fn fit_killed_after(dir: &Path, args: &[&str], millis: u64) {
    let mut child = std::process::Command::new(bin())
        .current_dir(dir)
        .arg("fit")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(millis));
    let _ = child.kill();
    child.wait().unwrap();
}

/// Every file of a bundle, timings taken out (the cost a game, which a
/// resumed fit measures again).
fn bundle_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let kept: Vec<String> = text
                .lines()
                .filter(|l| !l.contains("cpu_seconds_per_game"))
                .map(|l| match l.find("; ") {
                    // report.md: "…; 0.004 CPU s a game)"
                    Some(_) if l.contains("CPU s a game") => l
                        .split("; ")
                        .filter(|part| !part.contains("CPU s a game"))
                        .collect::<Vec<_>>()
                        .join("; "),
                    _ => l.to_string(),
                })
                .collect();
            (
                e.file_name().to_string_lossy().into_owned(),
                kept.join("\n"),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_fit_killed_in_each_stage_resumes_to_the_same_bundle() {
    // Two copies of one setup, each with its bundle beside it.
    let root = tempfile::tempdir().unwrap();
    let (killed, whole) = (root.path().join("killed"), root.path().join("whole"));
    for dir in [&killed, &whole] {
        std::fs::create_dir(dir).unwrap();
        write(
            dir,
            "s.ron",
            "Scenario(name: \"Mine\", extends: \"historical.ron\")",
        );
    }
    let start = [
        "--scenario",
        "s.ron",
        // Its best player is cheap to measure against.
        "--variant",
        "rules-1.1",
        "--out",
        "s.players",
        "--budget",
        "0.1",
        "--seed",
        "3",
        "--threads",
        "2",
    ];
    // Killed once the plan is written; the plan made the least there is,
    // to keep the test short, and given to both copies.
    fit_until(&killed, &start, Some(("fit: plan", 0)));
    let state = killed.join("s.players/fit.ron");
    let text = std::fs::read_to_string(&state).unwrap();
    let mut least = Vec::new();
    for line in text.lines() {
        let set = |field: &str, value: &str| {
            line.trim_start()
                .starts_with(field)
                .then(|| format!("        {field}: {value},"))
        };
        least.push(
            set("tune_games_per_side", "400")
                .or_else(|| set("learn_games", "100"))
                .or_else(|| set("measure_games_each_way", "3"))
                .unwrap_or_else(|| line.to_string()),
        );
    }
    std::fs::write(&state, least.join("\n")).unwrap();
    std::fs::create_dir(whole.join("s.players")).unwrap();
    std::fs::copy(&state, whole.join("s.players/fit.ron")).unwrap();
    assert!(
        least
            .iter()
            .any(|l| l.contains("scenario: Some(\"../s.ron\")")),
        "fit.ron names the scenario from the bundle: {least:#?}"
    );
    // A link among the bundle's files is refused before the first game.
    let link = killed.join("s.players/ratings.ron");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.path().join("elsewhere.ron"), &link).unwrap();
        cli()
            .current_dir(&killed)
            .args(["fit", "--resume", "s.players"])
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is a link"));
        std::fs::remove_file(&link).unwrap();
    }
    let resume = ["--resume", "s.players", "--threads", "2"];
    fit_until(&whole, &resume, None);
    for at in [
        ("fit: tuning Caesar", 0),
        ("fit: tuning Pompey", 0),
        ("fit: learning", 0),
        ("fit: measuring", 0),
        ("fit: measuring", 1),
        ("fit: measuring", 4),
    ] {
        fit_until(&killed, &resume, Some(at));
    }
    // And at moments that fall where they may.
    for millis in [150, 400, 900] {
        fit_killed_after(&killed, &resume, millis);
    }
    fit_until(&killed, &resume, None);
    let (a, b) = (
        bundle_files(&killed.join("s.players")),
        bundle_files(&whole.join("s.players")),
    );
    assert_eq!(
        a.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        b.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert_eq!(x, y, "{name}");
    }
    // The bundle moved whole with its setup resumes there, and is used.
    let moved = root.path().join("moved");
    std::fs::rename(&whole, &moved).unwrap();
    let said = fit_until(&moved, &resume, None);
    assert!(
        !said.iter().any(|l| l.contains("fit: measuring")),
        "nothing measured again: {said:#?}"
    );
    assert_eq!(bundle_files(&moved.join("s.players")), b);
    // The scenario edited since: the fit refuses to go on.
    write(
        &moved,
        "s.ron",
        "Scenario(name: \"Mine, edited\", extends: \"historical.ron\")",
    );
    cli()
        .current_dir(&moved)
        .args(["fit", "--resume", "s.players"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "was made for another version of this setup (the scenario changed",
        ));
}
