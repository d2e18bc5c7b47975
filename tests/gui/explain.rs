//! The Rules tab's "Explain the differences": an explanation run in the
//! window between two rule sets that differ in known fields, its chart,
//! the report's sentences, its exports, and a field's name that shows the
//! field in the rule table.

use std::path::PathBuf;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::app::{
    FileDialogs, FileRequest, NativeDialog, RuleChoice, Tab, WorkbenchApp,
};
use egui::accesskit::{Role, Toggled};
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

/// A desktop dialog where the user picks the next of these paths.
struct PicksInTurn(Vec<PathBuf>);

impl NativeDialog for PicksInTurn {
    fn ask(&mut self, _: &FileRequest) -> Option<PathBuf> {
        (!self.0.is_empty()).then(|| self.0.remove(0))
    }
}

fn rules_tab(app: WorkbenchApp) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1600.0, 1400.0))
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    h.run();
    h.state_mut().set_tab(Tab::Rules);
    h.run();
    h
}

#[test]
fn an_explanation_runs_in_the_window_and_a_field_shows_in_the_rule_table() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("e.csv"), dir.path().join("e.svg"));
    let dialogs = FileDialogs::with_native(Box::new(PicksInTurn(vec![csv.clone(), svg.clone()])));
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0").with_file_dialogs(dialogs));
    // B: rules 2.0 with two fields changed in the rule table; A: rules 2.0.
    let mut changed = h.state().rules().unwrap().clone();
    changed.caesar_player1_first_turn = false;
    changed.vp_to_win = 9;
    h.state_mut().set_rules(changed);
    {
        let panel = h.state_mut().explain_panel();
        panel.set_rule_sets(RuleChoice::Named("rules-2.0".into()), RuleChoice::InForce);
        panel.set_players(AiSpec::Random, AiSpec::Random);
    }
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "Games per rule set")
        .set_value_accesskit(16.0);
    h.run();
    h.get_by_role_and_label(Role::Button, "Explain the differences")
        .click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    let report = h
        .state_mut()
        .explain_panel()
        .report()
        .unwrap_or_else(|| panic!("no explanation"))
        .clone();
    assert_eq!(report.run_games, 16);
    assert_eq!(report.variants[0], "rules-2.0");
    let mut names: Vec<&str> = report.fields.iter().map(|f| f.field.as_str()).collect();
    names.sort();
    assert_eq!(names, ["caesar_player1_first_turn", "vp_to_win"]);
    h.get_by_label("Each field's effect on Caesar's share (points, 95% intervals)");
    // The report's own sentences; the window's font draws no "→".
    let shown = |text: String| text.replace('→', "->");
    h.get_by_label(&shown(report.headline()));
    h.get_by_label(&shown(report.whole_sentence()));
    for (field, effect) in report.ranked() {
        h.get_by_label(&shown(report.field_sentence(field, &effect)));
    }
    h.get_by_label(&shown(report.sum_sentence()));

    // A field's sentence in the explanation selects it in the rule table.
    assert_eq!(h.state().highlighted_rule_field(), None);
    let (vp_field, vp_effect) = report
        .ranked()
        .into_iter()
        .find(|(f, _)| f.field == "vp_to_win")
        .unwrap();
    h.get_by_label(&shown(report.field_sentence(vp_field, &vp_effect)))
        .click();
    h.run();
    assert_eq!(h.state().highlighted_rule_field(), Some("vp_to_win"));
    let in_table = h.get_by_role_and_label(Role::Button, "vp_to_win");
    assert_eq!(in_table.accesskit_node().toggled(), Some(Toggled::True));

    // The exports: the library's CSV, and the chart as an SVG image.
    h.get_by_label("Export CSV…").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), report.csv());
    h.get_by_label("Export chart (SVG)…").click();
    h.run();
    let image = std::fs::read_to_string(&svg).unwrap();
    assert!(image.starts_with("<svg"), "{image}");
    for name in ["vp_to_win", "caesar_player1_first_turn", "whole difference"] {
        assert!(image.contains(name), "{name} in {image}");
    }
}

#[test]
fn two_rule_sets_that_play_alike_are_not_explained() {
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    h.state_mut()
        .explain_panel()
        .set_rule_sets(RuleChoice::Named("rules-2.0".into()), RuleChoice::InForce);
    h.run();
    h.get_by_role_and_label(Role::Button, "Explain the differences")
        .click();
    h.run();
    assert!(!h.state_mut().sim_panel().is_running());
    h.get_by_label_contains("play the same game: there is no difference to explain");
}

#[test]
fn an_explanation_shows_its_progress_and_can_be_cancelled() {
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    {
        let panel = h.state_mut().explain_panel();
        panel.set_rule_sets(RuleChoice::Named("rules-1.1".into()), RuleChoice::InForce);
        // Far more than the test waits for.
        panel.games = 1_000_000;
    }
    h.run();
    h.get_by_role_and_label(Role::Button, "Explain the differences")
        .click();
    h.step();
    h.step();
    assert!(h.state_mut().sim_panel().is_running());
    h.get_by_label_contains(" / 24000000 games");
    h.get_by_label("Cancel explanation").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    h.get_by_label("The explanation stopped: cancelled");
    assert!(h.state_mut().explain_panel().report().is_none());
}

#[test]
fn an_explanation_that_ends_on_the_simulate_tab_is_shown_in_the_rules_tab() {
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    {
        let panel = h.state_mut().explain_panel();
        panel.set_rule_sets(
            RuleChoice::Named("rules-2.0".into()),
            RuleChoice::Named("rules-2.0-no-first-turn-exception".into()),
        );
        panel.games = 4;
        panel.set_players(AiSpec::Random, AiSpec::Random);
    }
    h.run();
    h.get_by_role_and_label(Role::Button, "Explain the differences")
        .click();
    h.step();
    h.state_mut().set_tab(Tab::Simulation);
    h.state_mut().sim_panel().wait();
    h.run();
    h.get_by_label_contains(
        "The explanation of rules-2.0-no-first-turn-exception against rules-2.0 is done",
    );
    h.get_by_label("Show it in the Rules tab").click();
    h.run();
    assert_eq!(h.state().tab(), Tab::Rules);
    let report = h.state_mut().explain_panel().report().cloned();
    let fields: Vec<String> = report
        .unwrap()
        .fields
        .into_iter()
        .map(|f| f.field)
        .collect();
    assert_eq!(fields, ["caesar_player1_first_turn"]);
}

#[test]
fn the_players_are_fast_for_rule_set_a_until_one_is_picked() {
    // As `caesar-workbench explain`: both sides play `fast` for A, the
    // strongest shipped player under the fast budget for that rule set.
    let fast = |variant: &str| {
        let lineage = caesar_workbench::scenario::rules::RuleSet::lineage(variant).unwrap();
        caesar_workbench::sim::ratings::fast_for(&lineage, None, &[])
            .unwrap()
            .spec
    };
    assert_ne!(
        fast("rules-1.1"),
        fast("rules-2.0"),
        "the test needs two fast players"
    );
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    for a in ["rules-1.1", "rules-2.0"] {
        h.state_mut()
            .explain_panel()
            .set_rule_sets(RuleChoice::Named(a.into()), RuleChoice::InForce);
        h.run();
        let players = h.state_mut().explain_panel().players().map(Clone::clone);
        assert_eq!(players, [fast(a), fast(a)], "A is {a}");
    }
    // A player picked stays when A changes.
    h.state_mut()
        .explain_panel()
        .set_players(AiSpec::Random, AiSpec::Heuristic);
    h.state_mut()
        .explain_panel()
        .set_rule_sets(RuleChoice::Named("rules-1.1".into()), RuleChoice::InForce);
    h.run();
    let players = h.state_mut().explain_panel().players().map(Clone::clone);
    assert_eq!(players, [AiSpec::Random, AiSpec::Heuristic]);
}
