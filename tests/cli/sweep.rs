//! `sweep`: balance curves over rule-set fields and scenario tweaks.

use super::{cli, stdout_of_success};
use predicates::prelude::*;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of_success(args)).unwrap()
}

const RUN: [&str; 8] = [
    "--games",
    "12",
    "--seed",
    "4",
    "--caesar-ai",
    "random",
    "--pompey-ai",
    "random",
];

#[test]
fn a_sweep_reports_every_point_and_its_balance_point() {
    let mut args = vec![
        "sweep",
        "--set",
        "vp_to_win=8..10",
        "--set",
        "caesar_player1_first_turn=true,false",
        "--json",
    ];
    args.extend(RUN);
    let report = json(&args);
    assert_eq!(report["kind"], "sweep");
    let points = report["points"].as_array().unwrap();
    assert_eq!(points.len(), 6);
    assert_eq!(
        points[1]["settings"],
        serde_json::json!({"vp_to_win": 8, "caesar_player1_first_turn": false})
    );
    for p in points {
        let rate = &p["caesar_win_rate"];
        let (e, lo, hi) = (
            rate["estimate"].as_f64().unwrap(),
            rate["ci95"][0].as_f64().unwrap(),
            rate["ci95"][1].as_f64().unwrap(),
        );
        assert!(lo <= e && e <= hi, "{rate}");
        assert_eq!(p["run"]["games"], 12);
        assert_eq!(p["run"]["seed"], 4);
    }
    // The balance point is the point with the smallest |P(Caesar) − P(Pompey)|.
    let smallest = points
        .iter()
        .map(|p| p["balance"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    let b = &report["balance_point"];
    let i = b["point"].as_u64().unwrap() as usize;
    assert_eq!(points[i]["balance"].as_f64().unwrap(), smallest);
    assert_eq!(b["settings"], points[i]["settings"]);
    let text = stdout_of_success(&[&["sweep", "--set", "hand_size=5,6"][..], &RUN].concat());
    assert!(text.contains("hand_size=5"), "{text}");
    assert!(text.contains("Balance point"), "{text}");
}

#[test]
fn sweep_shards_merge_into_the_whole_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let mut base = vec!["sweep", "--set", "hand_size=5,6", "--json"];
    base.extend(RUN);
    let whole = json(&base);
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let path = dir.path().join(format!("sweep-{}.json", &shard[..1]));
        let mut args = base.clone();
        args.extend(["--shard", shard, "--out"]);
        cli()
            .args(&args)
            .arg(&path)
            .assert()
            .code(0)
            .stdout(predicate::str::is_empty());
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
    for (m, w) in merged["points"]
        .as_array()
        .unwrap()
        .iter()
        .zip(whole["points"].as_array().unwrap())
    {
        assert_eq!(m["settings"], w["settings"]);
        assert_eq!(m["caesar_win_rate"], w["caesar_win_rate"]);
        assert_eq!(
            m["run"]["raw"]["caesar_wins"],
            w["run"]["raw"]["caesar_wins"]
        );
        assert_eq!(m["run"]["game_ranges"], w["run"]["game_ranges"]);
    }
    assert_eq!(merged["balance_point"], whole["balance_point"]);
    // The same shard twice overlaps.
    cli()
        .arg("merge")
        .args([&files[0], &files[0]])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("overlap"));
}

#[test]
fn sweep_errors_name_the_field_and_the_validators_finding() {
    cli()
        .args(["sweep", "--set", "vp_to_wim=8..12", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean \"vp_to_win\""));
    cli()
        .args(["sweep", "--set", "battle_rounds=1,2", "--games", "2"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("too-few-battle-rounds")
                .and(predicate::str::contains("battle_rounds=1")),
        );
    cli()
        .args(["sweep", "--set", "vp_to_win=12..8", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty"));
}
