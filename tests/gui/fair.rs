//! The Balance tab's Make it fair: the answer the command line reports for
//! the same run, carried out as an undoable edit, and kept for the Setup
//! tab's line.

use caesar_workbench::app::{Tab, WorkbenchApp};
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::Value;

/// A run small enough for a test: two players a side, no rounds.
const PLAYERS: &str = "heuristic,random";

fn window(
    scenario: Option<std::path::PathBuf>,
    folder: &std::path::Path,
) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 2400.0))
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(scenario, "rules-2.0"),
        );
    h.run();
    h.state_mut().set_tab(Tab::Balance);
    h.run();
    let panel = h.state_mut().balance_panel();
    panel.players = PLAYERS.to_string();
    panel.only_named = true;
    panel.rounds = 0;
    panel.games = 8;
    panel.first_games = 8;
    panel.seed = 3;
    panel.folder = folder.display().to_string();
    h.run();
    h
}

/// Make it fair with one knob, run from its button to its end.
fn find_change(h: &mut Harness<'static, WorkbenchApp>, knob: (&str, &str)) {
    h.get_by_label("Make it fair").click();
    h.run();
    {
        let fair = &mut h.state_mut().balance_panel().fair;
        fair.knobs = vec![(knob.0.to_string(), knob.1.to_string())];
        fair.target_percent = 30.0;
        fair.tolerance_points = 44.0;
        fair.check_rounds = 0;
    }
    h.run();
    h.get_by_label("Find the smallest change").click();
    h.step();
    h.state_mut().balance_panel().fair.wait();
    h.run();
}

/// What both shells must agree on: the answer and every figure behind it.
fn answer_of(report: &Value) -> Value {
    serde_json::json!({
        "base": report["base"],
        "population": report["population"],
        "knobs": report["knobs"],
        "answer": report["answer"],
        "games_played": report["games_played"],
    })
}

#[test]
fn make_it_fair_answers_as_the_command_line_does_and_its_change_is_undoable() {
    let folder = tempfile::tempdir().unwrap();
    let mut h = window(None, folder.path());
    // The bid of the side below even is offered before anything is typed.
    h.get_by_label("Make it fair").click();
    h.run();
    let offered = h.state_mut().balance_panel().fair.knobs.clone();
    assert!(
        offered
            .iter()
            .any(|(k, v)| k.ends_with("_first_levy_bonus") && v == "0..10"),
        "{offered:?}"
    );
    find_change(&mut h, ("vp_to_win", "11,12"));
    let window = match &h.state_mut().balance_panel().fair.result {
        Some(Ok(report)) => serde_json::to_value(report).unwrap(),
        other => panic!("no answer: {other:?}"),
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caesar-workbench"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "fair",
            "--only-named",
            "--players",
            PLAYERS,
            "--rounds",
            "0",
            "--check-rounds",
            "0",
            "--games",
            "8",
            "--first-games",
            "8",
            "--seed",
            "3",
            "--vary",
            "vp_to_win=11,12",
            "--target",
            "30",
            "--tolerance",
            "44",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer_of(&window), answer_of(&cli));
    assert_eq!(cli["answer"]["value"], 11, "{cli}");
    // The verdict in words, then the change carried out and taken back.
    h.get_by_label_contains("Set vp_to_win to 11: at equilibrium Caesar wins");
    assert_eq!(h.state().rules().unwrap().vp_to_win, 10);
    h.get_by_label("Use this change").click();
    h.run();
    assert_eq!(h.state().rules().unwrap().vp_to_win, 11);
    assert!(h.state_mut().undo());
    h.run();
    assert_eq!(h.state().rules().unwrap().vp_to_win, 10);
    h.get_by_label("Save as variant…");
    // The run's report stays in the folder: a resume goes on from it.
    assert!(folder.path().join("fair.json").is_file());
    h.get_by_label("Resume");
}

#[test]
fn an_answer_kept_for_a_saved_setup_is_said_on_its_setup_tab() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mine.ron");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/free-deployment-example.ron"
    );
    std::fs::copy(example, &scenario).unwrap();
    let mut h = window(Some(scenario), &dir.path().join("run"));
    h.get_by_label("Run balance").click();
    h.step();
    h.state_mut().balance_panel().wait();
    h.run();
    h.get_by_label("Keep as this setup's balance").click();
    h.run();
    find_change(&mut h, ("vp_to_win", "11,12"));
    h.get_by_label("Keep as this setup's answer").click();
    h.run();
    assert!(dir.path().join("mine.players/fair.json").is_file());
    h.state_mut().set_tab(Tab::Setup);
    h.run();
    h.get_by_label_contains("to make it even: set vp_to_win to 11");
}
