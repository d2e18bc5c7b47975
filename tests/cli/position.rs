//! `position`: position files, legal actions in words, `--apply`, `--view`.

use assert_cmd::Command;
use predicates::prelude::*;

const PINNING: &str = "scenarios/positions/pinning-example.ron";

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_caesar-workbench"))
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn position_lists_whose_decision_it_is_and_the_legal_actions() {
    cli()
        .args(["position", PINNING])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "stage: Caesar's command phase (Player 1): 3 moves and 1 levies left",
        ))
        .stdout(predicate::str::contains(
            "Caesar to decide; legal actions:\n  Group move from Ravenna\n  Group move from Genua\n  End moves\n",
        ))
        .stdout(predicate::str::contains(
            "Roma: Legio 1 4, Legio 3 3, Auxilia 1 4, Auxilia 2 4, Auxilia 3 3",
        ));
}

#[test]
fn position_applies_actions_given_in_words_and_answers_a_rules_question() {
    // 6.11: four blocks may take a major road; the fifth may not.
    let out = cli()
        .args(["position", PINNING, "--apply", "group move from GENUA"])
        .args(["--apply", "Move Legio 11 to Roma"])
        .args(["--apply", "Move Legio 12 to Roma"])
        .args(["--apply", "Move Legio 13 to Roma"])
        .args(["--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let legal: Vec<&str> = report["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(legal.contains(&"Move Legio 14 to Roma"), "{legal:?}");
    assert_eq!(report["applied"].as_array().unwrap().len(), 4);
    cli()
        .args(["position", PINNING, "--apply", "Group move from Genua"])
        .args(["--apply", "Move Legio 11 to Roma"])
        .args(["--apply", "Move Legio 11 to Ravenna"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "\"Move Legio 11 to Ravenna\" is not a legal action now",
        ))
        .stderr(predicate::str::contains("the legal actions are:"));
}

#[test]
fn position_view_shows_only_what_one_side_may_know() {
    let out = cli()
        .args(["position", PINNING, "--view", "pompey"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Genua: 4 hidden blocks"), "{text}");
    assert!(text.contains("Caesar hand: 4 cards, unseen"), "{text}");
    assert!(text.contains("Caesar to decide (unseen)"), "{text}");
    for secret in ["Legio 11", "Mars", "Group move"] {
        assert!(!text.contains(secret), "{secret} leaks: {text}");
    }
    assert!(
        text.contains("Pompey hand: Jupiter, 3/2, 2/1, 1/3"),
        "{text}"
    );
}

#[test]
fn position_refuses_impossible_positions_at_their_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "bad.ron",
        r#"(
    stage: Command,
    player1: Pompey,
    played: (caesar: "3/1", pompey: "2/2"),
    blocks: (
        caesar: [
            (block: "Legio 11", at: "Genua", strength: 5),
            (block: "Legio 11", at: "Roma"),
            (block: "Navis 1", at: "Lugdunum"),
            (block: "Legio 12", at: "Roma"),
        ],
        pompey: [(block: "Legio 1", at: "Roma")],
    ),
    dice: [3, 7],
)
"#,
    );
    cli()
        .args(["position", &file])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "bad.ron:7:46: error: Legio 11 at 5 steps",
        ))
        .stderr(predicate::str::contains(
            "bad.ron:8:14: error: Legio 11 is placed twice",
        ))
        .stderr(predicate::str::contains(
            "bad.ron:9:32: error: Navis 1 cannot stand in Lugdunum",
        ))
        .stderr(predicate::str::contains(
            "bad.ron:12:37: error: both sides hold Roma",
        ))
        .stderr(predicate::str::contains(
            "bad.ron:14:15: error: a die shows 1 to 6, not 7",
        ));
}

#[test]
fn position_names_unknown_blocks_spaces_and_cards_with_the_nearest() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "typos.ron",
        r#"(
    hands: (caesar: ["Jupitter"], pompey: ["2/1"]),
    blocks: (caesar: [(block: "Legio 31", at: "Ravena")]),
)
"#,
    );
    cli()
        .args(["position", &file])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "typos.ron:2:22: error: no card \"Jupitter\" in the deck (did you mean \"Jupiter\"?)",
        ))
        .stderr(predicate::str::contains(
            "no Caesar block named \"Legio 31\" (did you mean \"Legio 11\"?)",
        ))
        .stderr(predicate::str::contains(
            "unknown space \"Ravena\" (did you mean \"Ravenna\"?)",
        ));
    let file = write(
        &dir,
        "field.ron",
        "(blocks: (caesar: [(block: \"x\", at: \"y\", strenth: 3)]))",
    );
    cli()
        .args(["position", &file])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `strength`?"));
}

#[test]
fn position_checks_player_1_against_the_cards_played() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "p1.ron",
        r#"(
    variant: "rules-1.1",
    turn: 2,
    stage: Command,
    player1: Caesar,
    played: (caesar: "2/1", pompey: "3/1"),
    blocks: (caesar: [(block: "Caesar", at: "Ravenna")]),
)
"#,
    );
    cli()
        .args(["position", &file])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "p1.ron:5:5: error: the position says Caesar is Player 1, but the cards played make Pompey Player 1",
        ));
}
