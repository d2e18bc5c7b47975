//! The balance sweep in the Simulate tab: its controls, a sweep run from the
//! panel in the background, and a point's settings made the rule set in force.

use caesar_workbench::app::{RunOutcome, Tab, WorkbenchApp};
use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn simulate_tab() -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 1400.0))
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
fn a_sweep_runs_from_the_panel_and_a_point_becomes_the_rule_set() {
    let mut h = simulate_tab();
    h.get_by_label("Balance sweep");
    h.get_by_role_and_label(Role::SpinButton, "Games per point")
        .set_value_accesskit(3.0);
    h.run();
    {
        let panel = h.state_mut().sim_panel();
        panel.caesar = caesar_workbench::ai::AiSpec::Random;
        panel.pompey = caesar_workbench::ai::AiSpec::Random;
        panel.sweep.axes = vec![("vp_to_win".to_string(), "8..10".to_string())];
    }
    h.run();
    h.get_by_label("Run sweep").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    match &h.state_mut().sim_panel().result {
        Some(Ok(RunOutcome::Sweep(r))) => {
            assert_eq!(r.points.len(), 3);
            assert_eq!(r.games_per_point, 3);
            assert!(r.balance_point.is_some());
        }
        Some(Err(e)) => panic!("the sweep failed: {e}"),
        _ => panic!("no sweep"),
    }
    h.get_by_label("Caesar's win rate at each point (95% band)");
    h.get_by_label_contains("Balance point (nearest an even game)");
    assert_eq!(h.state().rules().unwrap().vp_to_win, 10);
    h.get_by_label("Use point 1").click();
    h.run();
    assert_eq!(h.state().rules().unwrap().vp_to_win, 8);
    // Everything else is as it was.
    assert!(h.state().rules().unwrap().caesar_player1_first_turn);
}

#[test]
fn a_sweep_the_validator_refuses_says_why() {
    let mut h = simulate_tab();
    h.state_mut().sim_panel().sweep.axes = vec![("battle_rounds".to_string(), "1,4".to_string())];
    h.run();
    h.get_by_label("Run sweep").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    h.get_by_label_contains("too-few-battle-rounds");
}
