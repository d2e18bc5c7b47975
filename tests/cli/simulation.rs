//! The simulation commands: simulate, compare, merge, battle.

use std::path::{Path, PathBuf};

use super::{bin, cli, stdout_of_success};
use predicates::prelude::*;
use serde_json::Value;

/// Writes the `--json` report of a random-vs-random run of `games` (`extra` options
/// added) to `dir/name` and returns its path.
fn report_file(dir: &Path, name: &str, command: &str, games: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec![command, "--games", games, "--seed", "1", "--json"];
    args.extend(["--caesar-ai", "random", "--pompey-ai", "random"]);
    if command == "compare" {
        args.extend(["--variant", "rules-1.1", "--variant", "rules-2.0"]);
    }
    args.extend(extra);
    let path = dir.join(name);
    std::fs::write(&path, stdout_of_success(&args)).unwrap();
    path
}

fn shard(dir: &Path, command: &str, shard: &str) -> PathBuf {
    let name = format!("{command}-{}.json", shard.replace('/', "-of-"));
    report_file(dir, &name, command, "40", &["--shard", shard])
}

fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of_success(args)).unwrap()
}

#[test]
fn simulate_json_has_the_documented_fields() {
    let v = json(&[
        "simulate",
        "--games",
        "12",
        "--seed",
        "5",
        "--caesar-ai",
        "heuristic",
        "--pompey-ai",
        "random",
        "--json",
    ]);
    assert_eq!(v["games"], 12);
    let wins = v["caesar_wins"].as_u64().unwrap()
        + v["pompey_wins"].as_u64().unwrap()
        + v["draws"].as_u64().unwrap();
    assert_eq!(wins, 12);
    let rate = &v["caesar_win_rate"];
    let (p, lo, hi) = (
        rate["estimate"].as_f64().unwrap(),
        rate["ci95"][0].as_f64().unwrap(),
        rate["ci95"][1].as_f64().unwrap(),
    );
    assert!(lo <= p && p <= hi);
    assert!(v["first_turn_player1_caesar"].as_f64().is_some());
    assert!(v["games_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(v["vp_by_year"].as_array().unwrap()[0]["year"], 1);
}

#[test]
fn simulate_text_summary_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    cli()
        .args(["simulate", "--games", "8", "--csv"])
        .arg(&csv)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Caesar wins"))
        .stdout(predicate::str::contains("95% CI"))
        .stdout(predicate::str::contains("games/s"));
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9);
    assert!(lines[0].starts_with("game,seed,winner"));
    assert!(lines[1].starts_with("0,"));
}

#[test]
fn shards_merge_to_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["simulate", "--games", "9", "--seed", "3", "--json"];
    let whole = json(&base);
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let mut args = base.to_vec();
        args.extend(["--shard", shard]);
        let out = cli()
            .args(&args)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        let path = dir.path().join(format!("part{}.json", files.len()));
        std::fs::write(&path, out).unwrap();
        files.push(path);
    }
    let out = cli()
        .arg("merge")
        .args(&files)
        .arg("--json")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let merged: Value = serde_json::from_slice(&out).unwrap();
    for key in [
        "games",
        "caesar_wins",
        "pompey_wins",
        "draws",
        "caesar_win_rate",
        "vp_by_year",
        "endings",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    assert_eq!(
        merged["game_ranges"],
        serde_json::json!([{"start": 0, "end": 9}])
    );
    assert_eq!(merged["game_ranges"], whole["game_ranges"]);
}

#[test]
fn merge_rejects_a_file_that_is_not_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, "{\n  \"games\": \"many\"\n}").unwrap();
    cli()
        .arg("merge")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.json:"));
}

#[test]
fn compare_reports_a_difference_with_interval_and_p_value() {
    let v = json(&[
        "compare",
        "--variant",
        "rules-1.1",
        "--variant",
        "rules-2.0",
        "--games",
        "10",
        "--caesar-ai",
        "heuristic",
        "--pompey-ai",
        "random",
        "--json",
    ]);
    let d = &v["caesar_win_rate_difference"];
    assert!(d["ci95"][0].as_f64().unwrap() <= d["ci95"][1].as_f64().unwrap());
    let p = d["p_value"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    assert_eq!(v["a"]["games"], 10);
    assert_eq!(v["b"]["games"], 10);
}

#[test]
fn compare_needs_two_variants() {
    cli()
        .args(["compare", "--variant", "rules-2.0", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exactly two"));
}

#[test]
fn battle_prints_exact_odds() {
    let v = json(&[
        "battle",
        "--attacker",
        "caesar",
        "--attacking",
        "Legio 13=3,Caesar=3",
        "--defending",
        "Legio 1=4",
        "--json",
    ]);
    let sum = v["attacker_wins"].as_f64().unwrap()
        + v["defender_holds"].as_f64().unwrap()
        + v["both_eliminated"].as_f64().unwrap();
    assert!((sum - 1.0).abs() < 1e-9);
    cli()
        .args([
            "battle",
            "--attacker",
            "pompey",
            "--attacking",
            "Pompey",
            "--defending",
            "Caesar=2",
            "--surprise",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("attacker wins"))
        .stdout(predicate::str::contains("expected steps lost"));
}

#[test]
fn battle_errors_name_the_problem() {
    for (attacker, attacking, expected) in [
        ("caesar", "Legio 31=3", "did you mean"),
        ("caesar", "Caesar=7", "cannot be at strength 7"),
        ("caesar", "Pompey", "is a block of Pompey"),
        ("brutus", "Caesar", "caesar or pompey"),
    ] {
        cli()
            .args(["battle", "--attacker", attacker, "--attacking", attacking])
            .args(["--defending", "Legio 1"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(expected));
    }
}

#[test]
fn simulate_rejects_a_variant_that_does_not_parse() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ron");
    std::fs::write(
        &path,
        "RuleSetPatch(\n  extends: \"rules-2.0\",\n  years: banana,\n)",
    )
    .unwrap();
    cli()
        .args(["simulate", "--games", "2", "--variant"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("broken.ron:3:"));
}

#[test]
fn simulate_rejects_unknown_ai_and_bad_shard() {
    cli()
        .args(["simulate", "--games", "2", "--caesar-ai", "heuristik"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean \"heuristic\""));
    cli()
        .args(["simulate", "--games", "2", "--shard", "3/2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a shard"));
}

#[test]
fn play_prints_a_game_record_that_repeats_with_its_seed() {
    let run = || {
        cli()
            .args(["play", "--seed", "11", "--variant", "rules-1.1"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("Player 1 is"))
            .stdout(predicate::str::contains("Winter of year 1"))
            .get_output()
            .stdout
            .clone()
    };
    assert_eq!(run(), run());
}

#[test]
fn merge_refuses_overlapping_shards_and_names_the_games_counted_twice() {
    // 1/2 holds games 0–19, 2/4 games 10–19, 4/4 games 30–39: once merged
    // into a "complete" run counting 10–19 twice and missing 20–29.
    let dir = tempfile::tempdir().unwrap();
    for command in ["simulate", "compare"] {
        let files: Vec<PathBuf> = ["1/2", "2/4", "4/4"]
            .iter()
            .map(|s| shard(dir.path(), command, s))
            .collect();
        let assert = cli().arg("merge").args(&files).assert().code(2).stdout("");
        let err = stderr_of(&assert);
        assert!(err.contains("overlap in games 10–19"), "{err}");
        assert!(
            err.contains(&format!("{command}-1-of-2.json (games 0–19)")),
            "{err}"
        );
        assert!(
            err.contains(&format!("{command}-2-of-4.json (games 10–19)")),
            "{err}"
        );
        // The same file twice is the same overlap.
        cli()
            .arg("merge")
            .args([&files[1], &files[1]])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("overlap in games 10–19"));
    }
}

#[test]
fn an_incomplete_merge_names_the_missing_games() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["simulate", "compare"] {
        let files = [
            shard(dir.path(), command, "1/4"),
            shard(dir.path(), command, "4/4"),
        ];
        let assert = cli()
            .arg("merge")
            .args(&files)
            .arg("--json")
            .assert()
            .code(0);
        let err = stderr_of(&assert);
        assert!(
            err.contains("the reports hold 20 of the run's 40 games; missing: games 10–29"),
            "{err}"
        );
        let merged: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
        let merged = if command == "compare" {
            &merged["a"]
        } else {
            &merged
        };
        assert_eq!(
            merged["game_ranges"],
            serde_json::json!([{"start": 0, "end": 10}, {"start": 30, "end": 40}])
        );
    }
}

#[test]
fn compare_shards_of_one_game_merge() {
    // With one pair the paired intervals are unbounded: written as null.
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = ["1/2", "2/2"]
        .iter()
        .map(|s| {
            let name = format!("one-{}.json", s.replace('/', "-of-"));
            report_file(dir.path(), &name, "compare", "2", &["--shard", s])
        })
        .collect();
    let out = cli()
        .arg("merge")
        .args(&files)
        .arg("--json")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let merged: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(merged["raw_paired"]["pairs"], 2);
}

#[test]
fn a_shard_that_would_hold_no_game_is_refused() {
    cli()
        .args(["simulate", "--games", "20", "--shard", "1/30"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("at most 20 shards"));
    cli()
        .args(["simulate", "--games", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--games"));
}

#[test]
fn hand_edited_reports_are_refused_with_the_file_and_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let first = shard(dir.path(), "simulate", "1/2");
    let second = shard(dir.path(), "simulate", "2/2");
    let original: Value = serde_json::from_slice(&std::fs::read(&second).unwrap()).unwrap();
    type Edit = fn(&mut Value);
    let edits: [(&str, Edit); 5] = [
        // More wins than games: once a win rate of over 100%.
        ("do not add up to its 20 games", |v| {
            v["caesar_wins"] = 50.into();
            v["raw"]["caesar_wins"] = 50.into();
        }),
        ("the raw counts say", |v| v["pompey_wins"] = 0.into()),
        ("more than its run's", |v| v["run_games"] = 10.into()),
        ("outside the run's 40 games", |v| {
            v["game_ranges"] = serde_json::json!([{"start": 30, "end": 50}]);
        }),
        ("raw.battles counts", |v| {
            let counts = v["raw"]["battles"]["counts"].as_array_mut().unwrap();
            counts[0] = (counts[0].as_u64().unwrap() + 7).into();
        }),
    ];
    for (expected, edit) in edits {
        let mut report = original.clone();
        edit(&mut report);
        let edited = dir.path().join("edited.json");
        std::fs::write(&edited, serde_json::to_string(&report).unwrap()).unwrap();
        let assert = cli()
            .arg("merge")
            .args([&first, &edited])
            .assert()
            .code(2)
            .stdout("");
        let err = stderr_of(&assert);
        assert!(err.contains("edited.json: "), "{expected}: {err}");
        assert!(err.contains(expected), "{expected}: {err}");
    }
    // A compare report gets the same checks, on either run.
    let compared = shard(dir.path(), "compare", "2/2");
    let mut report: Value = serde_json::from_slice(&std::fs::read(&compared).unwrap()).unwrap();
    report["b"]["draws"] = 99.into();
    report["b"]["raw"]["draws"] = 99.into();
    let edited = dir.path().join("edited-compare.json");
    std::fs::write(&edited, serde_json::to_string(&report).unwrap()).unwrap();
    cli()
        .arg("merge")
        .arg(&edited)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("edited-compare.json: run B: "));
}

#[cfg(unix)]
#[test]
fn merge_reads_no_more_than_a_report_can_be() {
    cli()
        .args(["merge", "/dev/zero"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/dev/zero: larger than 64 MiB"));
}

#[test]
fn thousands_of_threads_are_refused() {
    cli()
        .args(["simulate", "--games", "2", "--threads", "10000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("from 1 to 256"));
    cli()
        .args(["simulate", "--games", "2", "--threads", "0"])
        .assert()
        .code(2);
}

#[cfg(target_os = "linux")]
#[test]
fn a_csv_that_cannot_be_written_keeps_the_report() {
    // 300 rows are more than the CSV's buffer: the writes fail during the run.
    let assert = cli()
        .args(["simulate", "--games", "300", "--caesar-ai", "random"])
        .args(["--pompey-ai", "random", "--csv", "/dev/full", "--json"])
        .assert()
        .code(2);
    let report: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(report["games"], 300);
    let err = stderr_of(&assert);
    assert!(
        err.contains("cannot write the CSV file /dev/full: No space left on device"),
        "{err}"
    );
}

#[test]
fn no_output_is_written_over_an_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("s.ron");
    std::fs::copy("scenarios/historical.ron", &scenario).unwrap();
    let variant = dir.path().join("v.ron");
    std::fs::write(&variant, "(extends: \"rules-2.0\")\n").unwrap();
    let link = dir.path().join("link.ron");
    std::fs::hard_link(&scenario, &link).unwrap();
    let before = std::fs::read(&scenario).unwrap();
    let variant_before = std::fs::read(&variant).unwrap();
    for csv in [&scenario, &variant, &link] {
        cli()
            .args(["simulate", "--games", "2", "--scenario"])
            .arg(&scenario)
            .arg("--variant")
            .arg(&variant)
            .arg("--csv")
            .arg(csv)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("refusing to write"));
    }
    assert_eq!(std::fs::read(&scenario).unwrap(), before);
    assert_eq!(std::fs::read(&variant).unwrap(), variant_before);
}

#[cfg(unix)]
#[test]
fn standard_output_appended_to_an_input_is_refused() {
    // As `merge part.json other.json >> part.json`.
    let dir = tempfile::tempdir().unwrap();
    let part = shard(dir.path(), "simulate", "1/2");
    let before = std::fs::read(&part).unwrap();
    let append = std::fs::OpenOptions::new()
        .append(true)
        .open(&part)
        .unwrap();
    let out = std::process::Command::new(bin())
        .arg("merge")
        .arg(&part)
        .stdout(append)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to write the standard output"));
    assert_eq!(std::fs::read(&part).unwrap(), before);
}

#[test]
fn merge_and_simulate_into_a_closed_pipe_end_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let part = shard(dir.path(), "simulate", "1/2");
    let csv_to_stdout: &[&str] = &["simulate", "--games", "20", "--csv", "/dev/stdout"];
    for args in [
        &["merge", part.to_str().unwrap()][..],
        &["simulate", "--games", "4"],
        csv_to_stdout,
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = std::process::Command::new(bin())
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A tiny two-variant ladder (random and heuristic rungs) as JSON, written
/// to `dir/name` when given.
fn ladder_json(extra: &[&str]) -> Vec<u8> {
    let mut args = vec!["ladder", "--variant", "rules-1.1", "--variant", "rules-2.0"];
    args.extend([
        "--players",
        "random,heuristic",
        "--games",
        "4",
        "--seed",
        "3",
    ]);
    args.push("--json");
    args.extend(extra);
    cli()
        .args(&args)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone()
}

#[test]
fn ladder_reports_rates_per_rung_ratings_and_a_verdict() {
    let v: Value = serde_json::from_slice(&ladder_json(&["--threads", "1"])).unwrap();
    assert_eq!(v["kind"], "ladder");
    let rungs = v["rungs"].as_array().unwrap();
    assert_eq!(rungs.len(), 2);
    for (rung, player) in rungs.iter().zip(["random", "heuristic"]) {
        assert_eq!(rung["player"], player);
        let rates = rung["caesar_win_rate"].as_array().unwrap();
        assert_eq!(rates.len(), 2, "one rate per rule set");
        for r in rates {
            let (p, lo, hi) = (
                r["estimate"].as_f64().unwrap(),
                r["ci95"][0].as_f64().unwrap(),
                r["ci95"][1].as_f64().unwrap(),
            );
            assert!(lo <= p && p <= hi);
        }
        assert!(rung["difference"]["p_value"].as_f64().is_some());
    }
    assert_eq!(v["cross_play"].as_array().unwrap().len(), 2);
    assert_eq!(v["ratings"]["players"][0]["elo"], 0.0);
    let kind = v["verdict"]["kind"].as_str().unwrap();
    assert!(
        [
            "holds_at_every_rung",
            "depends_on_strength",
            "no_significant_difference"
        ]
        .contains(&kind),
        "{kind}"
    );
    assert!(!v["verdict"]["text"].as_str().unwrap().is_empty());
    // What the strongest two rungs say, and whether they agree.
    let top = &v["top_rungs"];
    assert_eq!(top["players"][0], "random");
    assert_eq!(top["players"][1], "heuristic");
    assert_eq!(top["mirror_gap"].as_array().unwrap().len(), 2);
    assert!(top["difference_gap"]["p_value"].as_f64().is_some());
    assert!(top["settled"].is_boolean());
    // The same on two threads.
    let two: Value = serde_json::from_slice(&ladder_json(&["--threads", "2"])).unwrap();
    assert_eq!(
        two["rungs"][1]["caesar_win_rate"],
        v["rungs"][1]["caesar_win_rate"]
    );
    assert_eq!(two["ratings"], v["ratings"]);
    // The text names the rungs and the verdict.
    cli()
        .args(["ladder", "--players", "random,heuristic", "--games", "2"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("heuristic"))
        .stdout(predicate::str::contains("Verdict: "))
        .stdout(predicate::str::contains("Strongest rungs: "));
}

#[test]
fn ladder_shards_merge_to_the_whole_ladder_and_overlaps_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let whole: Value = serde_json::from_slice(&ladder_json(&[])).unwrap();
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let path = dir.path().join(format!("ladder-{}.json", &shard[..1]));
        std::fs::write(&path, ladder_json(&["--shard", shard])).unwrap();
        files.push(path);
    }
    let out = cli()
        .arg("merge")
        .args(&files)
        .arg("--json")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let merged: Value = serde_json::from_slice(&out).unwrap();
    for key in ["game_ranges", "shards", "ratings", "verdict", "players"] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    for i in 0..2 {
        for key in ["caesar_win_rate", "difference"] {
            assert_eq!(merged["rungs"][i][key], whole["rungs"][i][key], "{key}");
        }
    }
    let whole_file = dir.path().join("whole.json");
    std::fs::write(&whole_file, serde_json::to_vec(&whole).unwrap()).unwrap();
    cli()
        .arg("merge")
        .arg(&files[0])
        .arg(&whole_file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("overlap in games 0–1"));
    // A ladder report does not merge with a simulate report.
    let sim = report_file(dir.path(), "sim.json", "simulate", "4", &[]);
    cli()
        .arg("merge")
        .arg(&files[0])
        .arg(&sim)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("ladder report"));
}

#[test]
fn ladder_refuses_a_player_twice_and_three_variants() {
    cli()
        .args(["ladder", "--players", "random,random", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("twice"));
    cli()
        .args(["ladder", "--players", "random", "--games", "2"])
        .args(["--variant", "rules-1.1", "--variant", "rules-2.0"])
        .args(["--variant", "rules-2.0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("one or two"));
}

#[test]
fn ladder_then_adds_reserve_rungs_and_says_why_it_stopped() {
    let v = json(&[
        "ladder",
        "--players",
        "random",
        "--then",
        "heuristic",
        "--games",
        "6",
        "--seed",
        "2",
        "--json",
    ]);
    assert_eq!(v["players"], serde_json::json!(["random", "heuristic"]));
    assert_eq!(v["climb"]["added"], serde_json::json!(["heuristic"]));
    assert!(
        v["climb"]["text"]
            .as_str()
            .unwrap()
            .contains("stopped because")
    );
    let plain = json(&[
        "ladder",
        "--players",
        "random,heuristic",
        "--games",
        "6",
        "--seed",
        "2",
        "--json",
    ]);
    assert!(
        plain.get("climb").is_none(),
        "a ladder of given rungs says nothing of climbing"
    );
    assert_eq!(
        v["rungs"][1]["caesar_win_rate"],
        plain["rungs"][1]["caesar_win_rate"]
    );
    let sharded = cli()
        .args([
            "ladder",
            "--players",
            "random",
            "--then",
            "heuristic",
            "--games",
            "4",
        ])
        .args(["--shard", "1/2"])
        .assert()
        .code(2);
    assert!(stderr_of(&sharded).contains("--then"));
    let twice = cli()
        .args([
            "ladder",
            "--players",
            "random",
            "--then",
            "random",
            "--games",
            "2",
        ])
        .assert()
        .code(2);
    assert!(stderr_of(&twice).contains("listed twice"));
}

// ---- tune and heuristic:FILE ----

fn tune_into(path: &Path, seed: &str) -> Value {
    json(&[
        "tune",
        "--variant",
        "rules-2.0",
        "--budget",
        "16",
        "--games-per-candidate",
        "4",
        "--population",
        "4",
        "--check-games",
        "4",
        "--seed",
        seed,
        "--json",
        "--out",
        path.to_str().unwrap(),
    ])
}

#[test]
fn tune_writes_a_player_file_that_simulate_plays_and_a_seed_reproduces() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ron"), dir.path().join("b.ron"));
    let report = tune_into(&a, "4");
    tune_into(&b, "4");
    assert_eq!(report["generations"].as_array().unwrap().len(), 1);
    assert_eq!(report["games_played"], 16 + 8);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "same seed");
    assert!(text.contains("attack_ratio:"), "{text}");
    let spec = format!("heuristic:{}", a.display());
    let played = json(&[
        "simulate",
        "--games",
        "4",
        "--seed",
        "2",
        "--json",
        "--caesar-ai",
        &spec,
        "--pompey-ai",
        "heuristic",
    ]);
    assert_eq!(played["caesar_ai"], spec);
    assert!(played["player_files"][0]["attack_ratio"].is_number());
    assert!(played["player_files"][1].is_null(), "Pompey plays no file");
    assert_eq!(played["games"], 4);
}

#[test]
fn tune_side_fits_one_sides_numbers_and_a_seat_plays_its_own_sides() {
    let dir = tempfile::tempdir().unwrap();
    let (start, out) = (dir.path().join("start.ron"), dir.path().join("p.ron"));
    std::fs::write(
        &start,
        "(caesar: (attack_ratio: 2.0), pompey: (garrison: 3.0))\n",
    )
    .unwrap();
    let (start_arg, out_arg) = (start.to_str().unwrap(), out.to_str().unwrap());
    let common = ["tune", "--variant", "rules-2.0", "--budget", "16"];
    let small = ["--games-per-candidate", "4", "--population", "4"];
    let both = cli()
        .args(common)
        .args(small)
        .args(["--start", start_arg, "--out", out_arg])
        .assert()
        .code(2);
    assert!(
        stderr_of(&both).contains("--side"),
        "numbers per side, one side at a time"
    );
    let report = json(
        &[&common[..], &small[..]]
            .concat()
            .into_iter()
            .chain(["--check-games", "4", "--side", "pompey", "--json"])
            .chain(["--start", start_arg, "--out", out_arg])
            .collect::<Vec<_>>(),
    );
    assert_eq!(report["options"]["side"], "Pompey");
    assert_eq!(
        report["tuned"]["caesar"]["attack_ratio"], 2.0,
        "Caesar's stay"
    );
    assert_ne!(report["tuned"]["pompey"]["garrison"], 3.0, "Pompey's moved");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("pompey: ("), "{text}");
    let spec = format!("heuristic:{out_arg}");
    let played = json(&[
        "simulate",
        "--games",
        "2",
        "--seed",
        "2",
        "--json",
        "--caesar-ai",
        &spec,
        "--pompey-ai",
        &spec,
    ]);
    assert_eq!(played["player_files"][0]["attack_ratio"], 2.0);
    assert_eq!(played["player_files"][1], report["tuned"]["pompey"]);
}

#[test]
fn a_player_file_with_a_misspelt_number_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.ron");
    std::fs::write(&path, "(\n  attack_ratio: 1.0,\n  atack_ratio: 2.0,\n)\n").unwrap();
    let spec = format!("heuristic:{}", path.display());
    let assert = cli()
        .args(["simulate", "--games", "2", "--caesar-ai", &spec])
        .assert()
        .code(2);
    let err = stderr_of(&assert);
    assert!(err.contains("p.ron:3:"), "{err}");
    assert!(err.contains("did you mean `attack_ratio`"), "{err}");
    let missing = cli()
        .args([
            "simulate",
            "--games",
            "2",
            "--pompey-ai",
            "heuristic:nowhere.ron",
        ])
        .assert()
        .code(2);
    assert!(stderr_of(&missing).contains("nowhere.ron"));
}

fn learn_into(path: &Path, seed: &str, held_out: &str) -> assert_cmd::assert::Assert {
    cli()
        .args([
            "learn",
            "--variant",
            "rules-2.0",
            "--games",
            "40",
            "--seed",
            seed,
        ])
        .args(["--held-out", held_out, "--json", "--out"])
        .arg(path)
        .assert()
}

#[test]
fn learn_writes_a_value_file_a_search_plays_with_and_a_seed_reproduces() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ron"), dir.path().join("b.ron"));
    let out = learn_into(&a, "6", "0.25")
        .code(0)
        .get_output()
        .stdout
        .clone();
    learn_into(&b, "6", "0.25").code(0);
    let report: Value = serde_json::from_slice(&out).unwrap();
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "same seed");
    assert!(
        text.contains("caesar-workbench learn --variant rules-2.0 --games 40 --seed 6"),
        "{text}"
    );
    for side in report["sides"].as_array().unwrap() {
        let held_out = &side["held_out"];
        assert_eq!(held_out["games"], 10);
        // 30 fitted games over-fit (the library's test fits enough to beat a
        // constant chance): here only the figures' sense is checked.
        let brier = held_out["brier"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&brier), "{held_out}");
        let deciles = held_out["deciles"].as_array().unwrap();
        assert_eq!(deciles.len(), 10);
        let counted: u64 = deciles
            .iter()
            .map(|d| d["positions"].as_u64().unwrap())
            .sum();
        assert_eq!(held_out["positions"], counted);
    }
    let numbers = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/players/tuned-rules-2.0.ron"
    );
    let spec = format!("search:4@{numbers}+{}", a.display());
    let played = json(&[
        "simulate",
        "--games",
        "2",
        "--seed",
        "2",
        "--json",
        "--caesar-ai",
        &spec,
    ]);
    assert_eq!(played["caesar_ai"], spec);
    assert_eq!(played["value_files"][0]["horizon_turns"], 5);
    assert!(
        played["value_files"][1].is_null(),
        "Pompey searches with no value"
    );
}

#[test]
fn learn_refuses_a_held_out_share_that_leaves_nothing_to_fit_or_judge() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.ron");
    for share in ["0", "1", "0.001"] {
        let assert = learn_into(&path, "1", share).code(2);
        let stderr = stderr_of(&assert);
        assert!(stderr.contains("--held-out"), "{share}: {stderr}");
    }
    assert!(!path.exists(), "nothing written");
}

#[test]
fn tune_search_takes_a_tree_search_on_a_player_file_and_nothing_for_the_heuristic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.ron");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/players/tuned-rules-2.0.ron"
    );
    let refused = |search: &str, extra: &[&str], says: &str| {
        let assert = cli()
            .args(["tune", "--search", search, "--budget", "4", "--out"])
            .arg(&out)
            .args(extra)
            .assert()
            .code(2);
        let stderr = stderr_of(&assert);
        assert!(stderr.contains(says), "{search} {extra:?}: {stderr}");
    };
    refused(&format!("search:4@{file}"), &[], "mcts:N@FILE");
    refused("mcts:4", &[], "mcts:N@FILE");
    refused(&format!("mcts:4@{file}"), &["--side", "caesar"], "--side");
    assert!(!out.exists(), "nothing written");
}

/// `explain` from rules 1.1 to 2.0, options to follow.
fn explain_1_1_to_2_0() -> assert_cmd::Command {
    let mut command = cli();
    command.args([
        "explain",
        "--variant",
        "rules-1.1",
        "--variant",
        "rules-2.0",
    ]);
    command
}

/// `explain`'s arguments for A against B as the JSON tests run it, with
/// `extra` options.
fn explain_json_args<'a>(a: &'a str, b: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["explain", "--variant", a, "--variant", b];
    args.extend(["--games", "60", "--seed", "3", "--json"]);
    args.extend(["--caesar-ai", "heuristic", "--pompey-ai", "heuristic"]);
    args.extend(extra);
    args
}

/// `explain`'s JSON report of A against B, with `extra` options.
fn explain_json(a: &str, b: &str, extra: &[&str]) -> serde_json::Value {
    json(&explain_json_args(a, b, extra))
}

#[test]
fn explain_of_a_variant_that_changes_one_field_names_that_field_alone() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("v.ron");
    std::fs::write(
        &v,
        "(name: \"no exception\", extends: \"rules-2.0\", caesar_player1_first_turn: false)",
    )
    .unwrap();
    let report = explain_json("rules-2.0", v.to_str().unwrap(), &[]);
    let fields = report["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 1, "{fields:?}");
    assert_eq!(fields[0]["field"], "caesar_player1_first_turn");
    assert_eq!(fields[0]["at_a"]["pairs"], 60);
    // Switched alone at A, the field is the whole difference: same games.
    assert_eq!(fields[0]["at_a"], report["total"]);
    let moved = fields[0]["at_a"]["caesar_only_first"].as_u64().unwrap()
        + fields[0]["at_a"]["caesar_only_second"].as_u64().unwrap();
    assert!(moved > 0, "the first-turn exception changes some games");
}

#[test]
fn explain_shards_merge_to_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = explain_json("rules-1.1", "rules-2.0", &[]);
    let mut shards = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.path().join(format!("s{}.json", shards.len()));
        explain_1_1_to_2_0()
            .args([
                "--games",
                "60",
                "--seed",
                "3",
                "--json",
                "--caesar-ai",
                "heuristic",
            ])
            .args(["--pompey-ai", "heuristic", "--shard", shard, "--out"])
            .arg(&out)
            .assert()
            .code(0);
        shards.push(out);
    }
    let mut args = vec!["merge", "--json"];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    let merged = json(&args);
    assert_eq!(merged["total"], whole["total"]);
    assert_eq!(merged["fields"], whole["fields"]);
    assert_eq!(
        merged, whole,
        "the whole run's report, as one machine writes it"
    );
}

#[test]
fn explain_pairs_sets_two_fields_together_against_each_alone() {
    let pair = "caesar_player1_first_turn+mars_group_move";
    let report = explain_json("rules-1.1", "rules-2.0", &["--pairs", pair]);
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        pairs[0]["fields"],
        serde_json::json!(["caesar_player1_first_turn", "mars_group_move"])
    );
    for counts in [
        "together_at_a",
        "together_at_b",
        "interaction_at_a",
        "interaction_at_b",
    ] {
        assert_eq!(pairs[0][counts]["pairs"], 60, "{counts}");
    }
    // The fields alone are as without --pairs: the same games.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("fields.csv");
    let without = explain_json("rules-1.1", "rules-2.0", &["--csv", csv.to_str().unwrap()]);
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.starts_with("field,rule,a_value,b_value,points,low,high,"),
        "{rows}"
    );
    assert_eq!(
        rows.lines().count(),
        1 + 11 + 2,
        "a row per field, the whole, the sum: {rows}"
    );
    assert_eq!(report["fields"], without["fields"]);
    assert!(
        without.get("pairs").is_none(),
        "no pairs asked, none written"
    );
    let assert = explain_1_1_to_2_0()
        .args(["--games", "10", "--pairs", "mars_group_move+mars_grup_move"])
        .assert()
        .code(2);
    let stderr = stderr_of(&assert);
    assert!(
        stderr.contains("mars_grup_move is not a field in which the two rule sets differ"),
        "{stderr}"
    );
    assert!(stderr.contains("mars_group_move"), "did you mean: {stderr}");
}

#[test]
fn explain_set_explains_a_change_to_the_setup_as_one_more_field() {
    let set = ["--set", "deploy:pompey:Legio 3=Roma"];
    let report = explain_json("rules-2.0", "rules-2.0-no-first-turn-exception", &set);
    let fields = report["fields"].as_array().unwrap();
    let names: Vec<&str> = fields
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["caesar_player1_first_turn", "deploy:pompey:Legio 3"]
    );
    let change = &fields[1];
    assert_eq!(change["rule"], "setup");
    assert_eq!(change["b_value"], "Roma");
    assert_ne!(
        change["a_value"], "Roma",
        "where Legio 3 starts in the published game"
    );
    assert_eq!(change["at_a"]["pairs"], 60);
    assert_eq!(
        report["setup_changes"],
        serde_json::json!(["deploy:pompey:Legio 3=Roma"])
    );
    // A rule field belongs in B, not in --set.
    let assert = explain_1_1_to_2_0()
        .args(["--games", "10", "--set", "vp_to_win=9"])
        .assert()
        .code(2);
    assert!(stderr_of(&assert).contains("a rule field belongs in rule set B"));
}

#[test]
fn explain_shards_with_pairs_and_setup_changes_merge_to_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let extra = [
        "--pairs",
        "caesar_player1_first_turn+pluto_attacks_only",
        "--set",
        "strength:caesar:Legio 13=2",
    ];
    let whole = explain_json("rules-1.1", "rules-2.0", &extra);
    let mut args = vec!["merge".to_string(), "--json".to_string()];
    for shard in ["1/2", "2/2"] {
        let out = dir.path().join(format!("s{}.json", args.len()));
        let mut run: Vec<&str> = vec!["--shard", shard, "--out", out.to_str().unwrap()];
        run.extend(extra);
        explain_json_to_file("rules-1.1", "rules-2.0", &run);
        args.push(out.to_str().unwrap().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(
        json(&args),
        whole,
        "the whole run's report, pairs and setup changes too"
    );
}

/// `explain` as [`explain_json`] runs it, writing its report with `--out`.
fn explain_json_to_file(a: &str, b: &str, extra: &[&str]) {
    cli().args(explain_json_args(a, b, extra)).assert().code(0);
}

#[test]
fn explain_ladder_repeats_the_explanation_at_the_two_strongest_rungs() {
    // The tuned heuristic as the strongest rung: two cheap rungs that differ.
    let tuned = format!(
        "heuristic:{}/variants/players/tuned-rules-2.0.ron",
        env!("CARGO_MANIFEST_DIR")
    );
    let rungs = format!("random,heuristic,{tuned}");
    let mut args = vec!["explain", "--variant", "rules-2.0", "--variant"];
    args.extend([
        "rules-2.0-no-first-turn-exception",
        "--games",
        "12",
        "--seed",
        "3",
    ]);
    args.extend(["--ladder", rungs.as_str()]);
    // The whole report, written as JSON: its rungs, and merge says how to
    // spread a rung instead. The rungs' players play, not `fast`: nothing
    // is said about it.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ladder.json");
    let written = cli()
        .args(&args)
        .arg("--json")
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    assert!(
        !stderr_of(&written).contains("fast ="),
        "{}",
        stderr_of(&written)
    );
    let ladder: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(ladder["kind"], "explain-ladder");
    assert_eq!(ladder["players"], serde_json::json!(["heuristic", tuned]));
    assert_eq!(ladder["rungs"][0]["caesar_ai"], "heuristic");
    assert_eq!(ladder["rungs"][1]["pompey_ai"], tuned.as_str());
    let assert = cli().arg("merge").arg(&out).assert().code(2);
    assert!(
        stderr_of(&assert).contains("does not merge"),
        "{}",
        stderr_of(&assert)
    );
    let text = stdout_of_success(&args);
    assert!(
        text.contains(&format!(
            "Does each field's effect agree between heuristic and {tuned}?"
        )),
        "{text}"
    );
    assert!(text.contains("caesar_player1_first_turn: "), "{text}");
}

#[test]
fn explain_marks_two_fields_that_interact_and_pairs_measures_them_together() {
    // Fewer years and fewer VP to win: each alone costs Caesar games, but
    // together less than the sum (a short game reaches few VP).
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("short.ron");
    let variant = "(name: \"short and low\", extends: \"rules-2.0\", vp_to_win: 6, years: 2)";
    std::fs::write(&v, variant).unwrap();
    let (a, b) = ("rules-2.0", v.to_str().unwrap());
    let mut args = vec!["explain", "--variant", a, "--variant", b, "--games", "400"];
    args.extend([
        "--seed",
        "3",
        "--caesar-ai",
        "heuristic",
        "--pompey-ai",
        "heuristic",
    ]);
    let out = cli().args(&args).args(["--pairs"]).assert().code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for field in ["vp_to_win (1.2: 10 → 6)", "years (1.2: 5 → 2)"] {
        let line = text.lines().find(|l| l.starts_with(field)).unwrap();
        assert!(line.contains("; interacts (at rules-2.0 "), "{line}");
    }
    assert!(
        text.contains("they disagree beyond their intervals"),
        "{text}"
    );
    assert!(text.contains("years + vp_to_win: together "), "{text}");
    assert!(text.contains("they interact"), "{text}");
    let report = json(&[&args[..], &["--pairs", "--json"]].concat());
    let pair = &report["pairs"][0];
    // Two fields only: A with both of B's values is B, A with one is B
    // without the other, so both sides count the very same games.
    assert_eq!(pair["interaction_at_a"], pair["interaction_at_b"]);
    assert_eq!(pair["together_at_a"], report["total"]);
    assert!(
        pair["interaction_at_a"]["sum"].as_i64().unwrap() > 0,
        "{pair}"
    );
}
