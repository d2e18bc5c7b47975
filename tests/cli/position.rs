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
            "stage: Caesar's command phase (Player 1): 3 moves and 1 levy left",
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

#[test]
fn position_view_shows_the_other_sides_applied_moves_as_the_viewer_may_know_them() {
    // Caesar's moves through the pinning example, seen by Pompey: where a
    // block goes, not which block (blocks stand face down until a battle).
    let moves = [
        "--apply",
        "Group move from Genua",
        "--apply",
        "Move Legio 11 to Roma",
    ];
    let out = cli()
        .args(["position", PINNING])
        .args(moves)
        .args(["--view", "pompey"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("applied: Group move from Genua\napplied: Move a block from Genua to Roma\n"),
        "{text}"
    );
    assert!(!text.contains("Legio 11"), "Legio 11 leaks: {text}");
    let json = cli()
        .args(["position", PINNING])
        .args(moves)
        .args(["--view", "pompey", "--json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        report["applied"],
        serde_json::json!(["Group move from Genua", "Move a block from Genua to Roma"])
    );
    // Caesar's own view, and the whole position, name his block.
    for view in [&["--view", "caesar"][..], &[]] {
        let out = cli()
            .args(["position", PINNING])
            .args(moves)
            .args(view)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("applied: Move Legio 11 to Roma\n"), "{text}");
    }
}

#[test]
fn rule_2_1_position_view_hides_the_card_the_other_side_plays_face_down() {
    // 2.1: Caesar's card stays face down until Pompey has played his.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "cards.ron",
        r#"(
    hands: (caesar: ["Mars", "2/1"], pompey: ["3/2"]),
    blocks: (caesar: [(block: "Legio 13", at: "Ravenna")], pompey: [(block: "Legio 1", at: "Roma")]),
)
"#,
    );
    let out = cli()
        .args([
            "position",
            &file,
            "--apply",
            "Play Mars",
            "--view",
            "pompey",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("applied: Play a card (face down)\n"),
        "{text}"
    );
    assert!(!text.contains("Mars"), "Mars leaks: {text}");
}

#[test]
fn rule_jupiter_a_leader_or_navis_never_defects_so_a_position_refuses_one() {
    // 2.0 and 1.1, Jupiter: "A Leader or Navis does not defect"; Cleopatra
    // "is not a leader and may defect", like any other block.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "defectors.ron",
        r#"(
    hands: (caesar: ["2/1"], pompey: ["3/2"]),
    blocks: (
        caesar: [
            (block: "Legio 13", at: "Ravenna"),
            (block: "Cleopatra", at: "Ravenna"),
        ],
        pompey: [
            (block: "Legio 1", at: "Roma"),
            (block: "Antonius", at: "Roma"),
            (block: "Legio 8", at: "Roma"),
        ],
    ),
)
"#,
    );
    let assert = cli().args(["position", &file]).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains(
            "defectors.ron:10:14: error: Antonius cannot fight for Pompey: a leader does not defect (Jupiter)"
        ),
        "{stderr}"
    );
    // Both sides name their navis alike, so a file cannot list one as a
    // defector; the engine refuses it (src/engine/position.rs).
    assert!(!stderr.contains("Cleopatra"), "{stderr}");
    assert!(!stderr.contains("Legio 8"), "{stderr}");
    assert_eq!(
        stderr.matches("error:").count(),
        2,
        "one error under the heading: {stderr}"
    );
}

#[test]
fn rule_2_1_a_position_counts_the_cards_last_played_against_the_deck() {
    // 2.1: the card each side played last turn (or the Apollo that copied
    // it) is a card of the deck: on a later turn of the year it is in no
    // hand, and the two sides played two cards.
    let dir = tempfile::tempdir().unwrap();
    let position = |turn: u8, hands: &str, last: &str| {
        format!(
            "(\n    turn: {turn},\n    hands: {hands},\n    last_played: {last},\n    blocks: (caesar: [(block: \"Legio 13\", at: \"Ravenna\")], pompey: [(block: \"Legio 1\", at: \"Roma\")]),\n)\n"
        )
    };
    let both_apollo = write(
        &dir,
        "both.ron",
        &position(
            3,
            r#"(caesar: ["2/1"], pompey: ["3/2"])"#,
            r#"(caesar: "Apollo", pompey: "Apollo")"#,
        ),
    );
    cli()
        .args(["position", &both_apollo])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "both.ron:4:37: error: Pompey last played Apollo, but no copy of it",
        ));
    // Jupiter is in Caesar's hand and Apollo in Pompey's: Pompey cannot
    // have played either last turn.
    let in_hand = write(
        &dir,
        "hand.ron",
        &position(
            2,
            r#"(caesar: ["Jupiter"], pompey: ["Apollo", "3/2"])"#,
            r#"(pompey: "Jupiter")"#,
        ),
    );
    cli()
        .args(["position", &in_hand])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "hand.ron:4:19: error: Pompey last played Jupiter, but no copy of it (nor an Apollo that copied it) is left",
        ));
    // With Apollo out of the hands, Pompey's Apollo may have copied Jupiter;
    // on a year's first turn the cards of last year are shuffled back in.
    for (name, turn, hands) in [
        ("apollo.ron", 2, r#"(caesar: ["Jupiter"], pompey: ["3/2"])"#),
        (
            "new-year.ron",
            1,
            r#"(caesar: ["Jupiter"], pompey: ["Apollo", "3/2"])"#,
        ),
    ] {
        let file = write(&dir, name, &position(turn, hands, r#"(pompey: "Jupiter")"#));
        cli().args(["position", &file]).assert().code(0);
    }
    let new_year_apollos = write(
        &dir,
        "new-year-both.ron",
        &position(
            1,
            r#"(caesar: ["2/1"], pompey: ["3/2"])"#,
            r#"(caesar: "Apollo", pompey: "Apollo")"#,
        ),
    );
    cli()
        .args(["position", &new_year_apollos])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("Pompey last played Apollo"));
}

#[test]
fn position_locates_a_duplicate_eliminated_block_on_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "twice.ron",
        r#"(
    hands: (caesar: ["2/1"], pompey: ["3/2"]),
    blocks: (
        caesar: [(block: "Legio 13", at: "Ravenna")],
        pompey: [(block: "Legio 1", at: "Roma")],
    ),
    eliminated: (
        caesar: ["Legio 8", "Legio 13"],
    ),
)
"#,
    );
    cli()
        .args(["position", &file])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "twice.ron:8:29: error: Legio 13 is placed twice",
        ));
}
