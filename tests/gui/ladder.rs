//! The strength ladder in the Simulate tab: its controls, and a finished
//! ladder's chart and verdict.

use caesar_workbench::ai::AiSpec;
use caesar_workbench::app::{RunOutcome, Tab, WorkbenchApp};
use caesar_workbench::sim::Progress;
use caesar_workbench::sim::questions::ladder::LadderOptions;
use caesar_workbench::sim::questions::ladder::ladder;
use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn simulate_tab() -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 1000.0))
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(None, "rules-2.0"),
        );
    h.run();
    h.state_mut().set_tab(Tab::Simulation);
    h.run();
    h
}

#[test]
fn the_ladder_controls_are_in_the_simulate_tab() {
    let h = simulate_tab();
    h.get_by_label("Strength ladder");
    h.get_by_label("Run ladder");
    h.get_by_role_and_label(Role::SpinButton, "Games per rung");
    for rung in ["random", "search:16", "search:64"] {
        h.get_by_role_and_label(Role::CheckBox, rung);
    }
}

#[test]
fn a_finished_ladder_shows_its_chart_and_verdict() {
    // Two rungs, two games, two rule sets, played by the library.
    let (a, b) = (
        crate::common::published("rules-2.0"),
        crate::common::published("rules-1.1"),
    );
    let options = LadderOptions {
        players: vec![AiSpec::Random, AiSpec::Heuristic],
        games: 2,
        seed: 1,
        omniscient: false,
        shard: None,
    };
    let report = ladder(
        &[&a, &b],
        &["rules-2.0", "rules-1.1"],
        &options,
        &Progress::new(),
    )
    .unwrap();
    let verdict = format!("Verdict: {}", report.verdict.text);
    let top = format!(
        "Strongest rungs: {}",
        report.top_rungs.as_ref().unwrap().text
    );
    let rate = report.rungs[1].caesar_win_rate[1];
    let shown = format!(
        "{:.1}% ({:.1}–{:.1}%)",
        rate.estimate * 100.0,
        rate.ci95[0] * 100.0,
        rate.ci95[1] * 100.0
    );
    let mut h = simulate_tab();
    h.state_mut().sim_panel().result = Some(Ok(RunOutcome::Ladder(Box::new(report))));
    h.run();
    h.get_by_label("Caesar's win rate by rung (mirror matches, 95% intervals)");
    h.get_by_label(&verdict);
    h.get_by_label(&top);
    // The chart's legend names both rule sets; the table both players.
    assert!(h.query_all_by_label_contains("rules-1.1").count() >= 1);
    assert!(h.query_all_by_label(&shown).count() >= 1, "{shown}");
    h.get_by_label_contains("Ratings from cross-play under rules-2.0");
}

#[test]
fn a_ladder_runs_in_the_background_from_the_panel() {
    let mut h = simulate_tab();
    h.get_by_role_and_label(Role::SpinButton, "Games per rung")
        .set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Run ladder").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    match &h.state_mut().sim_panel().result {
        Some(Ok(RunOutcome::Ladder(r))) => {
            assert_eq!(r.players, ["random", "heuristic"]);
            assert_eq!(r.games_per_match, 2);
        }
        _ => panic!("no ladder"),
    }
    h.get_by_label_contains("Verdict: ");
}
