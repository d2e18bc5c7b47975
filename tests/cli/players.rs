//! `players` and `--caesar-ai best`: the strongest measured player, named
//! and played.

use super::cli;
use predicates::prelude::*;
use serde_json::Value;

fn shipped(variant: &str) -> Vec<Value> {
    let out = cli()
        .args(["players", "--variant", variant, "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice::<Vec<Value>>(&out).unwrap()
}

#[test]
fn players_lists_the_shipped_ratings_strongest_first_with_how_they_were_measured() {
    let rated = shipped("rules-2.0");
    assert!(rated.len() >= 3, "{rated:?}");
    let scores: Vec<f64> = rated
        .iter()
        .map(|r| r["score"]["estimate"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(rated.iter().all(|r| {
        r["measured"]
            .as_str()
            .unwrap()
            .contains("players --measure")
    }));
    cli()
        .args(["players", "--variant", "rules-2.0"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("best").and(predicate::str::contains("CPU s/game")));
}

#[test]
fn best_plays_the_first_player_players_lists() {
    let first = shipped("rules-2.0")[0]["player"]
        .as_str()
        .unwrap()
        .to_string();
    let out = cli()
        .args(["simulate", "--games", "1", "--seed", "4", "--json"])
        .args(["--caesar-ai", "best", "--pompey-ai", "heuristic"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(report["caesar_ai"].as_str().unwrap(), first);
}

#[test]
fn players_measure_plays_the_named_players_and_a_typo_is_refused() {
    let out = cli()
        .args([
            "players",
            "--measure",
            "--players",
            "random",
            "--games",
            "6",
            "--json",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let rated: Vec<Value> = serde_json::from_slice(&out).unwrap();
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0]["player"], "random");
    assert_eq!(rated[0]["games_each_way"], 6);
    cli()
        .args(["simulate", "--games", "1", "--caesar-ai", "bset"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("or best"));
}
