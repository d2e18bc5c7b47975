//! The simulation commands: simulate, compare, merge, battle.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn cli() -> Command {
    Command::cargo_bin("caesar-workbench").unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = cli()
        .args(args)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
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
