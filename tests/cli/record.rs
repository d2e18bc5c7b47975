//! Game records: `play --record`, `replay`, and recording a simulated game.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use caesar_workbench::games::record::RecordFile;
use predicates::prelude::*;

fn bin() -> PathBuf {
    std::env::var_os("CAESAR_WORKBENCH_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_caesar-workbench").into(), Into::into)
}

fn cli() -> Command {
    Command::new(bin())
}

fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().code(0).get_output().stdout.clone()).unwrap()
}

/// Plays one game with `extra` options, writing its record to `record`;
/// returns what `play` printed.
fn play_recorded(record: &Path, extra: &[&str]) -> String {
    stdout_of(cli().arg("play").args(extra).arg("--record").arg(record))
}

#[test]
fn a_recorded_game_replays_as_it_was_played_under_both_rulebooks() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, seed) in [("rules-1.1", "4"), ("rules-2.0", "5")] {
        let record = dir.path().join(format!("{variant}.ron"));
        let played = play_recorded(
            &record,
            &[
                "--variant",
                variant,
                "--seed",
                seed,
                "--pompey-ai",
                "random",
            ],
        );
        let replayed = stdout_of(cli().arg("replay").arg(&record));
        let (body, last) = replayed.trim_end().rsplit_once('\n').unwrap();
        assert_eq!(body, played.trim_end(), "{variant}: the same printed game");
        assert!(last.starts_with("replay matches the record"), "{last}");
        let file = RecordFile::read(&record).unwrap();
        assert_eq!(file.variant.name, variant);
        assert_eq!(file.scenario.path, "built-in");
        assert_eq!(file.action_count as usize, file.actions.len());
        let quiet = stdout_of(cli().arg("replay").arg(&record).arg("--quiet"));
        assert_eq!(quiet.trim_end(), last);
    }
}

#[test]
fn an_action_edited_to_an_illegal_one_is_refused_at_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.ron");
    play_recorded(&record, &["--seed", "2"]);
    let mut file = RecordFile::read(&record).unwrap();
    let k = file
        .actions
        .iter()
        .position(|a| a.action.starts_with("Move "))
        .expect("a game moves some block");
    file.actions[k].action = "Move Legio 13 to Alexandria".to_string();
    let edited = dir.path().join("edited.ron");
    file.write(&edited).unwrap();
    cli()
        .arg("replay")
        .arg(&edited)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "step {}: the recorded action \"Move Legio 13 to Alexandria\" is not legal there",
            k + 1
        )))
        .stderr(predicate::str::contains("the legal actions are:"))
        .stderr(predicate::str::contains("edited.ron:"));
}

#[test]
fn a_changed_or_missing_variant_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let variant = dir.path().join("mine.ron");
    std::fs::write(&variant, "(extends: \"rules-2.0\")\n").unwrap();
    let variant_arg = variant.to_str().unwrap();
    // The record is never written over an input file.
    cli()
        .args(["play", "--variant", variant_arg, "--record", variant_arg])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to write"));
    let record = dir.path().join("game.ron");
    play_recorded(&record, &["--variant", variant_arg, "--seed", "6"]);
    // A comment is no change: the digest is over the rules, not the layout.
    std::fs::write(
        &variant,
        "// the same rules\n(\n  extends: \"rules-2.0\",\n)\n",
    )
    .unwrap();
    cli()
        .arg("replay")
        .arg(&record)
        .arg("--quiet")
        .assert()
        .code(0);
    std::fs::write(
        &variant,
        "// more\n(extends: \"rules-2.0\", vp_to_win: 11)\n",
    )
    .unwrap();
    cli()
        .arg("replay")
        .arg(&record)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "the variant {variant_arg} has changed since the record was written (digest "
        )));
    std::fs::remove_file(&variant).unwrap();
    cli()
        .arg("replay")
        .arg(&record)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "the variant {variant_arg} named by the record is missing"
        )));
}

#[test]
fn a_truncated_or_malformed_record_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.ron");
    play_recorded(&record, &["--seed", "8"]);
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let truncated = dir.path().join("truncated.ron");
    std::fs::write(&truncated, lines[..lines.len() / 2].join("\n")).unwrap();
    let malformed = dir.path().join("malformed.ron");
    std::fs::write(&malformed, text.replace("seed: 8,", "seed: eight,")).unwrap();
    let dropped = dir.path().join("dropped.ron");
    let end_moves = text
        .find("        (\"End moves\", \"")
        .expect("a game ends some moves");
    let line_end = end_moves + text[end_moves..].find('\n').unwrap() + 1;
    std::fs::write(
        &dropped,
        format!("{}{}", &text[..end_moves], &text[line_end..]),
    )
    .unwrap();
    for (file, message) in [
        (&truncated, ""),
        (&malformed, ""),
        (&dropped, "action_count is"),
    ] {
        let name = file.file_name().unwrap().to_str().unwrap();
        let assert = cli().arg("replay").arg(file).assert().code(2).stdout("");
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        let located = regex_like_location(&stderr, name);
        assert!(located, "{name}: no file:line:column in {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}

/// Whether `stderr` says `error: <…name>:<line>:<column>: …`.
fn regex_like_location(stderr: &str, name: &str) -> bool {
    stderr.find(&format!("{name}:")).is_some_and(|at| {
        let rest = &stderr[at + name.len() + 1..];
        let mut parts = rest.splitn(3, ':');
        let line = parts.next().unwrap_or("");
        let column = parts.next().unwrap_or("");
        !line.is_empty()
            && !column.is_empty()
            && line.chars().all(|c| c.is_ascii_digit())
            && column.chars().all(|c| c.is_ascii_digit())
    })
}

#[test]
fn play_run_seed_and_game_reproduce_a_simulated_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    cli()
        .args(["simulate", "--games", "3", "--seed", "7", "--threads", "1"])
        .args([
            "--caesar-ai",
            "heuristic",
            "--pompey-ai",
            "heuristic",
            "--csv",
        ])
        .arg(&csv)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let column = |row: &[&str], name: &str| -> String {
        row[header.iter().position(|h| *h == name).unwrap()].to_string()
    };
    for game in [0, 2] {
        let row: Vec<&str> = text.lines().nth(game + 1).unwrap().split(',').collect();
        let record = dir.path().join(format!("game{game}.ron"));
        play_recorded(
            &record,
            &[
                "--run-seed",
                "7",
                "--game",
                &game.to_string(),
                "--caesar-ai",
                "heuristic",
                "--pompey-ai",
                "heuristic",
            ],
        );
        let file = RecordFile::read(&record).unwrap();
        let outcome = file.outcome.expect("a finished game");
        let winner = outcome.winner.map_or("none".to_string(), |s| s.to_string());
        assert_eq!(column(&row, "seed"), file.seed.to_string());
        assert_eq!(column(&row, "winner"), winner);
        assert_eq!(column(&row, "how"), format!("{:?}", outcome.how));
        assert_eq!(column(&row, "year"), outcome.year.to_string());
        assert_eq!(column(&row, "caesar_vp"), outcome.vp.0.to_string());
        assert_eq!(column(&row, "pompey_vp"), outcome.vp.1.to_string());
        assert_eq!(column(&row, "actions"), file.action_count.to_string());
    }
}

/// Plays a game of random players in `dir` with `args`, recorded to r.ron.
fn play_random_in(dir: &Path, args: &[&str]) {
    cli()
        .current_dir(dir)
        .arg("play")
        .args(args)
        .args(["--caesar-ai", "random", "--pompey-ai", "random"])
        .args(["--record", "r.ron"])
        .assert()
        .code(0);
}

#[test]
fn a_record_moved_with_its_scenario_and_variant_still_replays() {
    // Written in one folder with relative paths, replayed from another: the
    // files are found beside the record.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("scenarios/historical.ron", dir.path().join("mine.ron")).unwrap();
    std::fs::write(
        dir.path().join("house.ron"),
        "(extends: \"rules-2.0\", name: \"House\", hand_size: 7)",
    )
    .unwrap();
    play_random_in(
        dir.path(),
        &[
            "--seed",
            "2",
            "--scenario",
            "mine.ron",
            "--variant",
            "house.ron",
        ],
    );
    cli()
        .arg("replay")
        .arg(dir.path().join("r.ron"))
        .arg("--quiet")
        .assert()
        .code(0);
}

#[test]
fn a_changed_scenario_is_refused_by_name_and_a_comment_is_no_change() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mine.ron");
    let original = std::fs::read_to_string("scenarios/historical.ron").unwrap();
    std::fs::write(&scenario, &original).unwrap();
    play_random_in(dir.path(), &["--seed", "3", "--scenario", "mine.ron"]);
    let replay = || {
        let mut cmd = cli();
        cmd.current_dir(dir.path())
            .args(["replay", "r.ron", "--quiet"]);
        cmd
    };
    // A comment and a blank line change no value.
    std::fs::write(&scenario, format!("// my copy\n\n{original}")).unwrap();
    replay().assert().code(0);
    // Legio 13 at firepower 4: a value changed.
    let edited = original.replacen(
        "name: \"Legio 13\", kind: Legion, initiative: C, firepower: 3",
        "name: \"Legio 13\", kind: Legion, initiative: C, firepower: 4",
        1,
    );
    assert_ne!(edited, original);
    std::fs::write(&scenario, edited).unwrap();
    replay()
        .assert()
        .code(1)
        .stderr(predicate::str::contains("scenario"))
        .stderr(predicate::str::contains(
            "has changed since the record was written",
        ));
}

/// `play --seed 3` recorded, and its record as read.
fn seed_3_record(dir: &Path) -> (PathBuf, RecordFile) {
    let record = dir.join("r.ron");
    play_recorded(&record, &["--seed", "3"]);
    let file = RecordFile::read(&record).unwrap();
    (record, file)
}

#[test]
fn replay_refuses_a_deleted_action_the_game_still_plays_to_the_same_end() {
    // The case: of the single deletions of `play --seed 3`'s record
    // (action_count corrected), some are legal at every step and end as
    // recorded. The digest beside each action names the step.
    let dir = tempfile::tempdir().unwrap();
    let (_, file) = seed_3_record(dir.path());
    let game = crate::common::published("rules-2.0");
    let same_end = |record: &RecordFile| {
        let mut state = caesar_workbench::engine::State::new(&game, record.seed);
        for step in &record.actions {
            match caesar_workbench::games::record::find_action(&game, &state, &step.action) {
                Ok(a) if !state.is_over() => state.apply(&game, a),
                _ => return false,
            }
        }
        state
            .outcome()
            .map(caesar_workbench::games::record::RecordedOutcome::from)
            == record.outcome
    };
    let (k, tampered) = (0..file.actions.len())
        .find_map(|k| {
            let mut t = file.clone();
            t.actions.remove(k);
            t.action_count -= 1;
            same_end(&t).then_some((k, t))
        })
        .expect("a deletion the engine plays to the same end");
    let edited = dir.path().join("deleted.ron");
    tampered.write(&edited).unwrap();
    cli()
        .arg("replay")
        .arg(&edited)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(format!("step {}", k + 1)))
        .stderr(predicate::str::contains("is not the one the record proves"))
        .stderr(predicate::str::contains("deleted.ron:"));
}

#[test]
fn replay_refuses_edited_players_their_seeds_and_omniscient() {
    let dir = tempfile::tempdir().unwrap();
    let (record, _) = seed_3_record(dir.path());
    let text = std::fs::read_to_string(&record).unwrap();
    for (what, from, to) in [
        ("player", "player: \"heuristic\",", "player: \"random\","),
        ("AI seed", "seed: Some(7),", "seed: Some(70),"),
        ("omniscient", "omniscient: false,", "omniscient: true,"),
    ] {
        assert!(text.contains(from), "{what}");
        let edited = dir.path().join("edited.ron");
        std::fs::write(&edited, text.replacen(from, to, 1)).unwrap();
        cli()
            .arg("replay")
            .arg(&edited)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(
                "the game's start is not the one the record proves",
            ));
    }
}

#[test]
fn a_format_1_record_is_refused_saying_it_cannot_prove_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let (record, file) = seed_3_record(dir.path());
    // The same game as format 1 wrote it: no start digest, bare actions.
    let text = std::fs::read_to_string(&record).unwrap();
    let mut old = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("start:") {
            continue;
        }
        if trimmed.starts_with("(\"") {
            let words = trimmed.split("\", \"").next().unwrap();
            old.push_str(&format!("        {}\",\n", &words[1..]));
        } else {
            old.push_str(&line.replace("format: 2,", "format: 1,"));
            old.push('\n');
        }
    }
    assert!(old.contains(&format!("\"{}\",", file.actions[0].action)));
    let old_file = dir.path().join("old.ron");
    std::fs::write(&old_file, old).unwrap();
    let assert = cli().arg("replay").arg(&old_file).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("old.ron:2:"), "{stderr}");
    assert!(
        stderr.contains("record format 1 is not one this program reads (it reads format 2)"),
        "{stderr}"
    );
    assert!(stderr.contains("cannot prove its game"), "{stderr}");
}

#[test]
fn a_record_replays_from_any_folder_its_paths_relative_to_itself() {
    // Played from one folder with paths relative to it, the record written
    // into another; replayed from a third that holds a different file of
    // the same relative name.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for sub in ["game", "game/sub", "game/out", "elsewhere/sub"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
    }
    let original = std::fs::read_to_string("scenarios/historical.ron").unwrap();
    std::fs::write(root.join("game/sub/mine.ron"), &original).unwrap();
    std::fs::write(
        root.join("game/sub/house.ron"),
        "(extends: \"rules-2.0\", name: \"House\", hand_size: 7)",
    )
    .unwrap();
    let decoy = original.replacen(
        "name: \"Legio 13\", kind: Legion, initiative: C, firepower: 3",
        "name: \"Legio 13\", kind: Legion, initiative: C, firepower: 4",
        1,
    );
    assert_ne!(decoy, original);
    std::fs::write(root.join("elsewhere/sub/mine.ron"), decoy).unwrap();
    std::fs::write(
        root.join("elsewhere/sub/house.ron"),
        "(extends: \"rules-2.0\", name: \"House\", hand_size: 5)",
    )
    .unwrap();
    cli()
        .current_dir(root.join("game"))
        .args(["play", "--seed", "2", "--caesar-ai", "random"])
        .args(["--scenario", "sub/mine.ron", "--variant", "sub/house.ron"])
        .args(["--record", "out/r.ron"])
        .assert()
        .code(0);
    let file = RecordFile::read(&root.join("game/out/r.ron")).unwrap();
    assert_eq!(file.scenario.path, "../sub/mine.ron");
    assert_eq!(file.variant.name, "../sub/house.ron");
    for cwd in ["elsewhere", "elsewhere/sub", "game"] {
        cli()
            .current_dir(root.join(cwd))
            .arg("replay")
            .arg(root.join("game/out/r.ron"))
            .arg("--quiet")
            .assert()
            .code(0);
    }
    // Relative to the record, not the current folder: from `game`, the
    // record's folder read as `out/r.ron`.
    cli()
        .current_dir(root.join("game"))
        .args(["replay", "out/r.ron", "--quiet"])
        .assert()
        .code(0);
}
