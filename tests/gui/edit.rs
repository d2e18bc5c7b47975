//! The workbench as an editor, driven headless with egui_kittest: select and
//! change, undo, drag blocks, free deployment (5.3), rules, files.

use std::path::PathBuf;

use caesar_workbench::app::{
    Answer, ExportKind, FileDialogs, FilePurpose, FileRequest, NativeDialog, Pending, Request, Tab,
    WorkbenchApp, theme,
};
use caesar_workbench::scenario::edit::{Edit, Item};
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::RuleSet;
use egui::accesskit::Role;
use egui::{Event, Key, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness(app: WorkbenchApp) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 900.0))
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    h.run();
    h
}

fn built_in() -> Harness<'static, WorkbenchApp> {
    harness(WorkbenchApp::new(None, "rules-2.0"))
}

fn vp(h: &Harness<'_, WorkbenchApp>, space: &str) -> u8 {
    let w = h.state().document().expect("open").working();
    w.map.spaces[w.space_index(space).expect("space")].vp
}

/// Presses at `from`, moves to `to` over a few frames, releases there.
fn drag(h: &mut Harness<'_, WorkbenchApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.run();
    for k in 1..=6 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 6.0)));
        h.run();
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    h.run();
}

fn centre_of(h: &Harness<'_, WorkbenchApp>, label: &str) -> Pos2 {
    h.get_by_label(label).rect().center()
}

/// The middle of a city's marker: its node spans marker and name, and the
/// marker is the end away from the name.
fn marker_of(h: &Harness<'_, WorkbenchApp>, city: &str) -> Pos2 {
    let report = h.state().report().expect("loaded");
    let board = &report.scenario.board;
    let pos = board.space(board.find(city).expect("city")).pos;
    h.state().view().to_screen(egui::pos2(pos.0, pos.1))
}

#[test]
fn select_a_city_change_its_vp_and_undo() {
    let mut h = built_in();
    h.get_by_label("Roma").click();
    h.run();
    assert_eq!(h.state().selection(), Some(&Item::Space("Roma".into())));
    h.get_by_role_and_label(Role::SpinButton, "VP")
        .set_value_accesskit(3.0);
    h.run();
    assert_eq!(vp(&h, "Roma"), 3);
    h.get_by_label("unsaved");
    // 4.2: the published map has 13 VP; now it has 14.
    h.get_by_label("1 warning");
    h.get_by_label_contains("carry 14 VP");
    assert!(h.state().window_title().ends_with('•'));

    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(vp(&h, "Roma"), 2);
    h.get_by_label("0 warnings");
    assert!(h.query_by_label("unsaved").is_none());
    assert!(!h.state().window_title().ends_with('•'));
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(vp(&h, "Roma"), 3);
}

#[test]
fn ctrl_z_undoes_and_ctrl_shift_z_redoes() {
    let mut h = built_in();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 4,
        })
        .unwrap();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(vp(&h, "Roma"), 2);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(vp(&h, "Roma"), 4);
}

#[test]
fn dragging_a_space_moves_it_and_undo_puts_it_back() {
    let mut h = built_in();
    let before = h
        .state()
        .document()
        .unwrap()
        .working()
        .map
        .spaces
        .iter()
        .find(|s| s.name == "Lugdunum")
        .unwrap()
        .at;
    let from = marker_of(&h, "Lugdunum");
    drag(&mut h, from, from + vec2(40.0, 30.0));
    let w = h.state().document().unwrap().working();
    let after = w.map.spaces[w.space_index("Lugdunum").unwrap()].at;
    let zoom = h.state().view().zoom();
    assert!(
        ((after.0 - before.0) * zoom - 40.0).abs() < 12.0
            && ((after.1 - before.1) * zoom - 30.0).abs() < 12.0,
        "{before:?} -> {after:?} at zoom {zoom}"
    );
    assert!(h.state_mut().undo());
    let w = h.state().document().unwrap().working();
    assert_eq!(w.map.spaces[w.space_index("Lugdunum").unwrap()].at, before);
}

#[test]
fn rule_5_3_moving_a_block_in_free_deployment_shows_the_count_warning() {
    let mut h = built_in();
    h.get_by_label("Deployment").click();
    h.run();
    assert_eq!(h.state().tab(), Tab::Deployment);
    h.get_by_label("Free (5.3)").click();
    h.run();
    h.get_by_label_contains("every city holds as many blocks");
    assert!(!h.state().report().unwrap().has("free-deployment-count"));

    let from = centre_of(&h, "Legio 13 (Caesar)");
    let to = marker_of(&h, "Genua");
    drag(&mut h, from, to);
    let doc = h.state().document().unwrap();
    assert_eq!(
        doc.working().block_location(Side::Caesar, "Legio 13"),
        Some("Genua")
    );
    assert!(h.state().report().unwrap().has("free-deployment-count"));
    h.get_by_label("Caesar in Genua: 4 of 3 (1 too many)");
    h.get_by_label("Caesar in Ravenna: 2 of 3 (1 too few)");
    assert_eq!(
        h.query_all_by_label("error[free-deployment-count]").count(),
        2
    );
    // The order of battle itself is untouched.
    assert_eq!(
        doc.working()
            .order_of_battle
            .caesar
            .iter()
            .find(|(c, _)| c == "Ravenna")
            .map(|(_, b)| b.len()),
        Some(3)
    );
}

#[test]
fn rule_4_1_a_navis_dropped_inland_is_refused_with_a_reason() {
    let mut h = built_in();
    h.state_mut().set_tab(Tab::Deployment);
    h.run();
    let before = h.state().document().unwrap().working().clone();
    let from = centre_of(&h, "Navis 2 (Caesar)");
    let to = marker_of(&h, "Lugdunum");
    drag(&mut h, from, to);
    assert_eq!(h.state().document().unwrap().working(), &before);
    let status = h.state().status().expect("a reason").to_string();
    assert!(status.contains("inland city Lugdunum"), "{status}");
    assert!(status.contains("4.1"), "{status}");
    h.get_by_label_contains("Navis stay at sea or in ports");
}

#[test]
fn a_block_dragged_to_its_pool_leaves_the_map() {
    let mut h = built_in();
    h.state_mut().set_tab(Tab::Deployment);
    h.run();
    h.get_by_label("Caesar's levy pool (17)");
    let from = centre_of(&h, "Legio 13 (Caesar)");
    // The first block of the pool lies inside the pool's frame.
    let to = centre_of(&h, "Octavian (Caesar)");
    drag(&mut h, from, to);
    h.get_by_label("Caesar's levy pool (18)");
    assert_eq!(
        h.state()
            .document()
            .unwrap()
            .working()
            .block_location(Side::Caesar, "Legio 13"),
        None
    );
    // And from the pool back onto the map.
    let from = centre_of(&h, "Legio 13 (Caesar)");
    let to = marker_of(&h, "Ravenna");
    drag(&mut h, from, to);
    h.get_by_label("Caesar's levy pool (17)");
}

#[test]
fn switching_rules_1_1_and_2_0_and_changing_a_switch() {
    let mut h = built_in();
    h.get_by_label("Variant").click();
    h.run();
    h.get_by_label("rules-1.1").click();
    h.run();
    assert_eq!(h.state().variant(), "rules-1.1");
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_label("Rules 1.1 (2010)");
    // Compared with 2.0 by default: only the 13 switches that differ.
    // Choices in words (issue 45), not as the file spells them.
    h.get_by_label("First road used");
    h.get_by_label("Any cities by attack roads");
    assert!(h.query_by_label("FirstRoadUsed").is_none());
    assert_eq!(
        h.query_all_by_label("6.12, 7.3").count(),
        2,
        "table and difference"
    );
    assert_eq!(
        h.query_all_by_label("1.2").count(),
        2,
        "years and vp_to_win: table only"
    );
    h.state_mut().set_variant("rules-2.0");
    h.run();
    h.get_by_label("Rules 2.0 (2023)");
    h.state_mut().set_variant("rules-1.1");
    h.run();
    assert!(!h.state().rules().unwrap().caesar_player1_first_turn);

    h.get_by_role_and_label(Role::CheckBox, "caesar_player1_first_turn")
        .click();
    h.run();
    assert!(h.state().rules().unwrap().caesar_player1_first_turn);
    h.get_by_label("1 field changed from rules-1.1");
    h.get_by_role_and_label(Role::SpinButton, "hand_size")
        .set_value_accesskit(3.0);
    h.run();
    // 2.1: a deck of 27 is enough for hands of 3; still no error.
    assert_eq!(h.state().rules().unwrap().hand_size, 3);
    h.get_by_label("2 fields changed from rules-1.1");
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(h.state().rules().unwrap(), &RuleSet::builtin("rules-1.1"));
}

#[test]
fn a_rule_change_revalidates_the_scenario() {
    let mut h = built_in();
    let mut rules = RuleSet::builtin("rules-2.0");
    rules.hand_size = 14;
    h.state_mut().set_rules(rules);
    h.run();
    // 2.1: 27 cards cannot deal two hands of 14.
    assert!(h.state().report().unwrap().has("deck-too-small"));
    h.get_by_label("1 error");
}

#[test]
fn the_switches_save_as_a_variant_that_extends_the_base() {
    let mut h = built_in();
    let mut rules = RuleSet::builtin("rules-2.0");
    rules.battle_rounds = 3;
    h.state_mut().set_rules(rules.clone());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three-rounds.ron");
    h.state_mut()
        .save_variant_to(&path, "Three battle rounds")
        .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("extends: \"rules-2.0\""), "{text}");
    assert!(text.contains("battle_rounds: 3"), "{text}");
    let fields = text.lines().filter(|l| l.starts_with("    ")).count();
    assert_eq!(fields, 3, "name, extends and only what differs: {text}");
    let loaded = RuleSet::load(path.to_str().unwrap()).unwrap();
    rules.name = "Three battle rounds".into();
    assert_eq!(loaded, rules);
}

#[test]
fn clicking_a_finding_selects_and_centres_its_item() {
    let mut h = built_in();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Mare Tyrrhenum".into(),
            vp: 1,
        })
        .unwrap();
    h.run();
    h.get_by_label("error[sea-with-vp]");
    h.get_by_label_contains("sea \"Mare Tyrrhenum\" has 1 VP")
        .click();
    h.run();
    assert_eq!(
        h.state().selection(),
        Some(&Item::Space("Mare Tyrrhenum".into()))
    );
    let centre = marker_of(&h, "Mare Tyrrhenum");
    let area = h.state().view().area();
    assert!(
        (centre - area.center()).length() < 2.0,
        "{centre:?} vs {area:?}"
    );
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_file_that_fails_to_open_leaves_the_work_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        &dir,
        "bad.ron",
        "Scenario(\n    name: \"Bad\",\n    mapp: (),\n)\n",
    );
    let mut h = built_in();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.state_mut().open(&bad);
    h.run();
    // Unsaved changes: asked first.
    assert_eq!(h.state().pending(), Some(&Pending::Open(bad.clone())));
    h.get_by_label("Unsaved changes");
    h.get_by_label("Discard").click();
    h.run();
    let error = h.state().file_error().expect("the failure is shown");
    assert!(error.contains("bad.ron:3:"), "{error}");
    assert!(error.contains("did you mean `map`"), "{error}");
    h.get_by_label_contains("bad.ron:3:");
    assert_eq!(vp(&h, "Roma"), 3, "the edit is still there");
    assert!(h.state().document().unwrap().is_dirty());
    assert!(h.state().document().unwrap().path().is_none());
}

#[test]
fn opening_with_unsaved_changes_asks_and_cancel_keeps_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(
        &dir,
        "small.ron",
        "Scenario(name: \"Small change\", extends: \"historical.ron\")\n",
    );
    let mut h = built_in();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.state_mut().open(&good);
    h.run();
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().pending().is_none());
    assert_eq!(vp(&h, "Roma"), 3);
    h.state_mut().open(&good);
    h.run();
    h.state_mut().resolve_pending(Answer::Discard);
    h.run();
    assert_eq!(h.state().document().unwrap().path(), Some(good.as_path()));
    assert!(h.query_all_by_label("Small change").count() >= 2);
    assert_eq!(vp(&h, "Roma"), 2);
}

#[test]
fn save_as_writes_atomically_and_clears_the_unsaved_mark() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    let mut h = built_in();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.run();
    assert!(h.state_mut().save_as(&path));
    h.run();
    assert!(h.query_by_label("unsaved").is_none());
    assert_eq!(h.state().window_title(), "Caesar Workbench — mine.ron");
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 4,
        })
        .unwrap();
    assert!(h.state_mut().save());
    assert!(dir.path().join("mine.ron.bak").exists());
    let reopened = WorkbenchApp::new(Some(path), "rules-2.0");
    let w = reopened.document().unwrap().working();
    assert_eq!(w.map.spaces[w.space_index("Roma").unwrap()].vp, 4);
}

#[test]
fn a_link_is_selected_by_clicking_it_and_can_be_reclassed() {
    let mut h = built_in();
    // Midway along the major road Genua - Roma.
    let (a, b) = (marker_of(&h, "Genua"), marker_of(&h, "Roma"));
    let at = a + (b - a) * 0.5;
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: at,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run();
    let sel = h.state().selection().cloned();
    assert!(
        matches!(&sel, Some(Item::Link(x, y)) if [x.as_str(), y.as_str()] == ["Genua", "Roma"] || [x.as_str(), y.as_str()] == ["Roma", "Genua"]),
        "{sel:?}"
    );
    h.state_mut()
        .apply(Edit::SetLinkClass {
            a: "Genua".into(),
            b: "Roma".into(),
            class: caesar_workbench::scenario::model::LinkClass::Minor,
            name: None,
        })
        .unwrap();
    h.run();
    h.get_by_label_contains("163: 42 major, 48 minor");
}

#[test]
fn a_small_simulation_runs_in_the_background_and_reports_win_rates() {
    let mut h = built_in();
    h.get_by_label("Simulate").click();
    h.run();
    assert_eq!(h.state().tab(), Tab::Simulation);
    h.get_by_role_and_label(Role::SpinButton, "Games")
        .set_value_accesskit(12.0);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    let report = match &h.state_mut().sim_panel().result {
        Some(Ok(caesar_workbench::app::RunOutcome::Single { report, csv, .. })) => {
            assert_eq!(csv.lines().count(), 13, "header and one row per game");
            report.clone()
        }
        _ => panic!("no report"),
    };
    assert_eq!(report.games, 12);
    assert_eq!(report.caesar_wins + report.pompey_wins + report.draws, 12);
    // The number on the panel is the report's.
    let shown = format!(
        "{:.1}% ({:.1}–{:.1}%)",
        report.caesar_win_rate.estimate * 100.0,
        report.caesar_win_rate.ci95[0] * 100.0,
        report.caesar_win_rate.ci95[1] * 100.0
    );
    h.get_by_label("Caesar wins");
    assert!(h.query_all_by_label(&shown).count() >= 1, "{shown}");
    // The window times its own frames while the run goes on, and says so.
    assert!(h.state_mut().sim_panel().slowest_frame().is_some());
    h.get_by_label_contains("Slowest window frame during the run");
}

#[test]
fn a_simulation_can_be_cancelled() {
    let mut h = built_in();
    h.state_mut().set_tab(Tab::Simulation);
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "Games")
        .set_value_accesskit(100000.0);
    h.run();
    h.get_by_label("Run").click();
    h.run();
    assert!(h.state_mut().sim_panel().is_running());
    h.get_by_label("Cancel").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    assert!(
        matches!(&h.state_mut().sim_panel().result, Some(Err(e)) if e.to_string() == "cancelled")
    );
    h.get_by_label("The run stopped: cancelled");
}

/// The calculator's headline for a battle, computed by the library.
fn odds_line(defending: &str) -> String {
    use caesar_workbench::sim::questions::odds::{BattleSpec, battle_odds, parse_blocks};
    let (scenario, _) = caesar_workbench::scenario::model::Scenario::build(
        &caesar_workbench::scenario::historical(),
    );
    let game = caesar_workbench::engine::Game::try_new(
        std::sync::Arc::new(scenario),
        std::sync::Arc::new(RuleSet::builtin("rules-2.0")),
    )
    .expect("the engine plays it");
    let spec = BattleSpec {
        attacker: Side::Caesar,
        attacking: parse_blocks(&game, Side::Caesar, "Caesar, Legio 13").unwrap(),
        attacking_reserves: vec![],
        defending: parse_blocks(&game, Side::Pompey, defending).unwrap(),
        defending_reserves: vec![],
        surprise: false,
    };
    let o = battle_odds(&game, &spec).unwrap();
    format!(
        "Attacker takes it: {:.1}%  ·  Defender holds: {:.1}%",
        o.attacker_wins * 100.0,
        o.defender_holds * 100.0
    )
}

#[test]
fn the_battle_calculator_shows_exact_odds_as_you_type() {
    let mut h = built_in();
    h.state_mut().set_tab(Tab::Simulation);
    h.run();
    let first = odds_line("Pompey, Legio 1=2");
    h.get_by_label(&first);
    let field = h.get_by_role_and_label(Role::TextInput, "Defending blocks");
    field.focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Defending blocks")
        .type_text(", Legio 2");
    h.run();
    let second = odds_line("Pompey, Legio 1=2, Legio 2");
    assert_ne!(first, second, "a second defender changes the odds");
    h.get_by_label(&second);
    h.get_by_label_contains("Legio 2 (Pompey) eliminated");
}

fn commands(h: &Harness<'_, WorkbenchApp>) -> Vec<egui::ViewportCommand> {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map(|v| v.commands.clone())
        .unwrap_or_default()
}

fn request_close(h: &mut Harness<'_, WorkbenchApp>) {
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let mut h = built_in();
    request_close(&mut h);
    assert!(
        h.state().pending().is_none(),
        "nothing to lose: it just closes"
    );
    assert!(!commands(&h).contains(&egui::ViewportCommand::CancelClose));

    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.run();
    request_close(&mut h);
    assert!(commands(&h).contains(&egui::ViewportCommand::CancelClose));
    assert_eq!(h.state().pending(), Some(&Pending::Quit));
    h.run();
    h.get_by_label("Discard").click();
    h.step();
    assert!(commands(&h).contains(&egui::ViewportCommand::Close));
}

#[test]
fn shift_click_links_the_selected_space_to_another() {
    let mut h = built_in();
    h.get_by_label("Treviri").click();
    h.run();
    let at = marker_of(&h, "Genua");
    h.hover_at(at);
    h.run();
    // Shift is held (as the window reports it) while clicking.
    h.event(Event::ModifiersChanged(Modifiers::SHIFT));
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: at,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::SHIFT,
        });
    }
    h.run();
    let w = h.state().document().unwrap().working();
    let k = w.link_index("Treviri", "Genua").expect("linked");
    assert_eq!(
        w.map.links[k].class(),
        caesar_workbench::scenario::model::LinkClass::Major
    );
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    assert_eq!(h.state().selection(), Some(&Item::Space("Treviri".into())));
    h.get_by_label_contains("164: 44 major");
}

#[test]
fn a_variant_saved_beside_its_base_file_extends_it_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let base = write(
        &dir,
        "house.ron",
        "(name: \"House\", extends: \"rules-2.0\", max_events_per_hand: 2)\n",
    );
    let mut h = harness(WorkbenchApp::new(None, base.to_str().unwrap()));
    assert!(h.state().rules_error().is_none());
    let mut rules = h.state().rules().unwrap().clone();
    rules.vp_to_win = 12;
    h.state_mut().set_rules(rules.clone());
    let path = dir.path().join("house-12.ron");
    h.state_mut()
        .save_variant_to(&path, "House, 12 VP")
        .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("extends: \"house.ron\""), "{text}");
    assert!(!text.contains("max_events_per_hand"), "inherited: {text}");
    let loaded = RuleSet::load(path.to_str().unwrap()).unwrap();
    rules.name = "House, 12 VP".into();
    assert_eq!(loaded, rules);
}

#[test]
fn undo_takes_back_rule_changes_and_scenario_edits_in_order() {
    let mut h = built_in();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "jupiter_navis_at_sea")
        .click();
    h.run();
    assert!(h.state().rules().unwrap().jupiter_navis_at_sea);
    h.get_by_label("1 field changed from rules-2.0");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        !h.state().rules().unwrap().jupiter_navis_at_sea,
        "the switch first"
    );
    assert_eq!(vp(&h, "Roma"), 3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(vp(&h, "Roma"), 2, "then the edit");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(vp(&h, "Roma"), 3);
    assert!(h.state().rules().unwrap().jupiter_navis_at_sea);
}

#[test]
fn the_delete_key_removes_the_selected_space_and_undo_brings_it_back() {
    let mut h = built_in();
    h.get_by_label("Treviri").click();
    h.run();
    h.key_press(Key::Delete);
    h.run();
    let w = h.state().document().unwrap().working();
    assert!(w.space_index("Treviri").is_none());
    assert!(h.state().selection().is_none());
    h.get_by_label_contains("75: 18 cities");
    h.get_by_label_contains("161: 43 major, 45 minor");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.get_by_label_contains("76: 19 cities");
    h.get_by_label("Treviri");
}

#[test]
fn a_misspelt_link_is_reached_from_its_finding_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let text = caesar_workbench::scenario::HISTORICAL_SCENARIO
        .replace(r#"Major("Genua", "Roma"),"#, r#"Major("Genua", "Romaa"),"#);
    let path = write(&dir, "typo.ron", &text);
    let mut h = harness(WorkbenchApp::new(Some(path), "rules-2.0"));
    h.get_by_label_contains("unknown space \"Romaa\"").click();
    h.run();
    assert_eq!(
        h.state().selection(),
        Some(&Item::Link("Genua".into(), "Romaa".into()))
    );
    h.get_by_label("Delete link").click();
    h.run();
    h.get_by_label("0 errors");
    assert!(h.state().document().unwrap().is_dirty());
}

#[test]
fn a_deployed_block_is_set_below_full_strength_from_the_inspector_and_undone() {
    let mut h = built_in();
    h.state_mut().set_tab(Tab::Deployment);
    h.run();
    h.get_by_label("Legio 13 (Caesar)").click();
    h.run();
    h.get_by_label_contains("full strength III");
    h.get_by_label("II").click();
    h.run();
    let strength = |h: &Harness<'_, WorkbenchApp>| {
        h.state()
            .document()
            .unwrap()
            .working()
            .block_strength(Side::Caesar, "Legio 13")
    };
    assert_eq!(strength(&h), Some(2));
    assert!(h.state().report().unwrap().has("reduced-strength"));
    h.get_by_label("warning[reduced-strength]");
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(strength(&h), Some(3));
    assert!(!h.state().report().unwrap().has("reduced-strength"));
}

/// A desktop with no portal and no zenity: the native dialog "answers" at
/// once with nothing, as rfd does there.
struct NoPortal;

impl NativeDialog for NoPortal {
    fn ask(&mut self, _: &FileRequest) -> Option<PathBuf> {
        None
    }
}

/// A desktop dialog where the user picks `0` at once.
struct Picks(PathBuf);

impl NativeDialog for Picks {
    fn ask(&mut self, _: &FileRequest) -> Option<PathBuf> {
        Some(self.0.clone())
    }
}

fn without_portal() -> Harness<'static, WorkbenchApp> {
    harness(
        WorkbenchApp::new(None, "rules-2.0")
            .with_file_dialogs(FileDialogs::with_native(Box::new(NoPortal))),
    )
}

/// File → Save as… as a user clicks it.
fn click_save_as(h: &mut Harness<'_, WorkbenchApp>) {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Save as…").click();
    h.run();
}

#[test]
fn without_a_portal_save_as_writes_the_file_through_the_window_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    let mut h = without_portal();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.run();
    click_save_as(&mut h);
    // The desktop's dialog "answered" at once: the window's own is open.
    assert!(h.state().file_dialogs().is_open());
    assert!(!h.state().file_dialogs().uses_native());
    h.get_by_label("Save scenario");
    h.get_by_label_contains("The window's own file dialog");
    h.get_by_role_and_label(Role::TextInput, "File name")
        .set_text_value_accesskit(path.to_str().unwrap());
    h.run();
    h.get_by_role_and_label(Role::Button, "Save").click();
    h.run();
    assert!(!h.state().file_dialogs().is_open());
    assert!(path.exists(), "the file is written");
    assert_eq!(h.state().window_title(), "Caesar Workbench — mine.ron");
    assert!(h.query_by_label("unsaved").is_none());
    h.get_by_label_contains("Saved ");
    let reopened = WorkbenchApp::new(Some(path.clone()), "rules-2.0");
    let w = reopened.document().unwrap().working();
    assert_eq!(w.map.spaces[w.space_index("Roma").unwrap()].vp, 3);

    // Again to the same file: asked before it is replaced, and the old one
    // is kept as .bak.
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 4,
        })
        .unwrap();
    h.run();
    click_save_as(&mut h);
    h.get_by_role_and_label(Role::TextInput, "File name")
        .set_text_value_accesskit("mine");
    h.run();
    h.get_by_role_and_label(Role::Button, "Save").click();
    h.run();
    h.get_by_label_contains("already exists. Replace it?");
    h.get_by_label("Replace").click();
    h.run();
    assert!(dir.path().join("mine.ron.bak").exists());
    let reopened = WorkbenchApp::new(Some(path), "rules-2.0");
    let w = reopened.document().unwrap().working();
    assert_eq!(w.map.spaces[w.space_index("Roma").unwrap()].vp, 4);
}

#[test]
fn without_a_portal_saving_before_quitting_goes_through_the_window_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("before-quit.ron");
    let mut h = without_portal();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.run();
    request_close(&mut h);
    h.run();
    h.get_by_role_and_label(Role::Button, "Save").click();
    h.run();
    // The built-in game has no file: where to save it is asked first.
    assert!(h.state().file_dialogs().is_open());
    assert!(!commands(&h).contains(&egui::ViewportCommand::Close));
    h.get_by_role_and_label(Role::TextInput, "File name")
        .set_text_value_accesskit(path.to_str().unwrap());
    h.run();
    h.get_by_role_and_label(Role::Button, "Save").click();
    h.step();
    assert!(path.exists());
    assert!(commands(&h).contains(&egui::ViewportCommand::Close));
}

#[test]
fn a_cancelled_window_dialog_changes_nothing_and_ctrl_s_asks_where() {
    let mut h = without_portal();
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    h.run();
    // The built-in game has no file: Ctrl+S asks where.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.state().file_dialogs().is_open());
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!h.state().file_dialogs().is_open());
    assert!(h.state().document().unwrap().is_dirty());
    assert!(h.state().document().unwrap().path().is_none());
}

#[test]
fn every_export_error_is_shown_in_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("no-such-folder").join("report.json");
    let mut h = harness(
        WorkbenchApp::new(None, "rules-2.0")
            .with_file_dialogs(FileDialogs::with_native(Box::new(Picks(nowhere)))),
    );
    h.state_mut().handle(Request::Choose(FilePurpose::Export {
        kind: ExportKind::Json,
        text: "{}".into(),
    }));
    h.run();
    let error = h.state().file_error().expect("the failure is shown");
    assert!(error.contains("report.json: cannot export"), "{error}");
    h.get_by_label_contains("cannot export");

    let good = dir.path().join("games.csv");
    let mut h = harness(
        WorkbenchApp::new(None, "rules-2.0")
            .with_file_dialogs(FileDialogs::with_native(Box::new(Picks(good.clone())))),
    );
    h.state_mut().handle(Request::Choose(FilePurpose::Export {
        kind: ExportKind::Csv,
        text: "a,b\n".into(),
    }));
    h.run();
    assert_eq!(std::fs::read_to_string(&good).unwrap(), "a,b\n");
    h.get_by_label_contains("Exported ");
}

#[test]
fn one_history_undoes_scenario_edits_and_rule_changes_in_the_order_made() {
    let mut h = built_in();
    let roma = |h: &Harness<'_, WorkbenchApp>| vp(h, "Roma");
    let rounds = |h: &Harness<'_, WorkbenchApp>| h.state().rules().unwrap().battle_rounds;
    let undo_label = |h: &Harness<'_, WorkbenchApp>| {
        h.state()
            .app_state()
            .history()
            .undo_label()
            .map(str::to_string)
    };
    // Scenario, rules, scenario, rules.
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 3,
        })
        .unwrap();
    let mut rules = h.state().rules().unwrap().clone();
    rules.battle_rounds = 3;
    h.state_mut().set_rules(rules.clone());
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 4,
        })
        .unwrap();
    rules.battle_rounds = 2;
    h.state_mut().set_rules(rules);
    h.run();
    assert_eq!((roma(&h), rounds(&h)), (4, 2));
    assert_eq!(
        undo_label(&h).as_deref(),
        Some("the rule switch battle_rounds")
    );

    // The Undo button walks back through both kinds, newest first.
    let mut seen = Vec::new();
    for _ in 0..4 {
        h.get_by_label("Undo").click();
        h.run();
        seen.push((roma(&h), rounds(&h)));
    }
    assert_eq!(seen, [(4, 3), (3, 3), (3, 4), (2, 4)]);
    assert!(!h.state().app_state().history().can_undo());
    assert!(!h.state().document().unwrap().is_dirty());

    // Redo goes forward the same way; a new edit drops what was undone, of both kinds.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!((roma(&h), rounds(&h)), (3, 3));
    h.state_mut()
        .apply(Edit::SetVp {
            space: "Roma".into(),
            vp: 5,
        })
        .unwrap();
    h.run();
    assert!(!h.state().app_state().history().can_redo());
    assert_eq!(undo_label(&h).as_deref(), Some("Roma: 5 VP"));

    // Another variant takes its switches' history with it; the scenario's stays.
    h.state_mut().set_variant("rules-1.1");
    h.run();
    assert!(h.state_mut().undo());
    assert_eq!(roma(&h), 3);
    assert!(h.state_mut().undo());
    assert_eq!(
        roma(&h),
        2,
        "the rule change in between is gone with its variant"
    );
    assert!(!h.state_mut().undo());
}

/// Twice the signed area of the triangle a, b, c on the screen.
#[test]
fn undo_and_redo_of_a_rename_keep_the_space_selected_under_each_name() {
    let mut h = built_in();
    h.get_by_label("Treviri").click();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Name").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::TextInput, "Name")
        .type_text("Augusta Treverorum");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let renamed = Item::Space("Augusta Treverorum".into());
    assert_eq!(h.state().selection(), Some(&renamed));

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state().selection(),
        Some(&Item::Space("Treviri".into())),
        "undo takes the name back, not the selection"
    );
    // The inspector still shows the space, under its old name.
    let name = h.get_by_role_and_label(Role::TextInput, "Name").value();
    assert_eq!(name.as_deref(), Some("Treviri"));

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().selection(), Some(&renamed));
    let name = h.get_by_role_and_label(Role::TextInput, "Name").value();
    assert_eq!(name.as_deref(), Some("Augusta Treverorum"));
}

/// Scenario edits and rule changes undone and redone in turn: each step
/// restores its own kind only, and the selection stays on its space even
/// when a deletion taken back moves the spaces after it.
#[test]
fn interleaved_undo_and_redo_of_edits_and_rule_changes_keep_state_and_selection_in_step() {
    let mut h = built_in();
    let first = h.state().document().unwrap().working().map.spaces[0]
        .name
        .clone();
    let rename = Edit::RenameSpace {
        space: "Treviri".into(),
        name: "Augusta Treverorum".into(),
    };
    h.state_mut().select(Some(Item::Space("Treviri".into())));
    h.state_mut().apply(rename).unwrap();
    let mut rules = h.state().rules().unwrap().clone();
    let base_rounds = rules.battle_rounds;
    rules.battle_rounds = base_rounds - 1;
    h.state_mut().set_rules(rules);
    h.state_mut()
        .apply(Edit::DeleteSpace {
            space: first.clone(),
        })
        .unwrap();
    // Deleting clears the selection; the renamed space is picked again.
    assert_eq!(h.state().selection(), None);
    h.state_mut()
        .select(Some(Item::Space("Augusta Treverorum".into())));
    h.run();

    // (first space present, battle rounds, selected space's name)
    let seen = |h: &Harness<'_, WorkbenchApp>| {
        let w = h.state().document().unwrap().working();
        let selected = match h.state().selection() {
            Some(Item::Space(name)) => name.clone(),
            other => format!("{other:?}"),
        };
        (
            w.space_index(&first).is_some(),
            h.state().rules().unwrap().battle_rounds,
            selected,
        )
    };
    let renamed = "Augusta Treverorum".to_string();
    let newest_first = [
        (false, base_rounds - 1, renamed.clone()),
        (true, base_rounds - 1, renamed.clone()),
        (true, base_rounds, renamed.clone()),
        (true, base_rounds, "Treviri".to_string()),
    ];
    assert_eq!(seen(&h), newest_first[0]);
    for expected in &newest_first[1..] {
        h.get_by_label("Undo").click();
        h.run();
        assert_eq!(&seen(&h), expected);
    }
    assert!(!h.state().app_state().history().can_undo());
    for expected in newest_first.iter().rev().skip(1) {
        h.get_by_label("Redo").click();
        h.run();
        assert_eq!(&seen(&h), expected);
    }
    assert!(!h.state().app_state().history().can_redo());
}

fn turn(a: egui::Pos2, b: egui::Pos2, c: egui::Pos2) -> f32 {
    (b - a).x * (c - a).y - (b - a).y * (c - a).x
}

#[test]
fn the_vp_band_is_drawn_as_convex_quads_between_the_quartile_lines() {
    let mut h = built_in();
    h.state_mut().set_tab(Tab::Simulation);
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "Games")
        .set_value_accesskit(16.0);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    let years = match &h.state_mut().sim_panel().result {
        Some(Ok(caesar_workbench::app::RunOutcome::Single { report, .. })) => {
            report.vp_by_year.len()
        }
        _ => panic!("no report"),
    };
    assert!(years >= 2, "{years} years");
    let band = theme::CAESAR.gamma_multiply(theme::BAND_ALPHA[0]);
    let quads: Vec<Vec<egui::Pos2>> = h
        .output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            egui::Shape::Path(p) if p.fill == band => Some(p.points.clone()),
            egui::Shape::Mesh(m) if m.vertices.iter().any(|v| v.color == band) => {
                panic!("the band is drawn as one mesh")
            }
            _ => None,
        })
        .collect();
    // One quad per pair of neighbouring years, and nothing else in its colour.
    assert_eq!(quads.len(), years - 1, "{quads:?}");
    for q in &quads {
        assert_eq!(q.len(), 4, "{q:?}");
        // Two vertical sides, on neighbouring years, left to right.
        assert!(
            (q[0].x - q[3].x).abs() < 0.01 && (q[1].x - q[2].x).abs() < 0.01,
            "{q:?}"
        );
        assert!(q[1].x > q[0].x, "{q:?}");
        // Each side runs from the lower quartile (below, larger y) up to the upper.
        assert!(q[0].y >= q[3].y && q[1].y >= q[2].y, "{q:?}");
        // Convex: every corner turns the same way.
        let turns: Vec<f32> = (0..4)
            .map(|k| turn(q[k], q[(k + 1) % 4], q[(k + 2) % 4]))
            .collect();
        assert!(
            turns.iter().all(|t| *t <= 0.01) || turns.iter().all(|t| *t >= -0.01),
            "not convex: {q:?} {turns:?}"
        );
    }
    // Neighbouring quads meet on their shared year.
    for pair in quads.windows(2) {
        assert!((pair[0][1].x - pair[1][0].x).abs() < 0.01);
        assert!((pair[0][1].y - pair[1][0].y).abs() < 0.01);
        assert!((pair[0][2].y - pair[1][3].y).abs() < 0.01);
    }
}

/// In `tab`, the menu labelled `menu` → "heuristic from file…", the
/// desktop's dialog picking `path`.
fn pick_player(path: PathBuf, tab: Tab, menu: &str) -> Harness<'static, WorkbenchApp> {
    let mut h = harness(
        WorkbenchApp::new(None, "rules-2.0")
            .with_file_dialogs(FileDialogs::with_native(Box::new(Picks(path)))),
    );
    h.state_mut().set_tab(tab);
    h.run();
    h.get_by_role_and_label(Role::ComboBox, menu).click();
    h.run();
    h.get_by_label("heuristic from file…").click();
    h.run();
    h.run();
    h
}

fn pick_caesar_player(path: PathBuf) -> Harness<'static, WorkbenchApp> {
    pick_player(path, Tab::Simulation, "Caesar AI")
}

#[test]
fn a_tuned_player_file_is_picked_for_a_side_in_the_simulate_tab() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tuned.ron");
    let params = caesar_workbench::ai::HeuristicParams {
        attack_ratio: 0.8,
        ..Default::default()
    };
    std::fs::write(&path, params.to_ron("test")).unwrap();
    let mut h = pick_caesar_player(path.clone());
    match &h.state_mut().sim_panel().caesar {
        caesar_workbench::ai::AiSpec::TunedHeuristic(t) => {
            assert_eq!(t.numbers, caesar_workbench::ai::PlayerNumbers::both(params));
            assert_eq!(t.path, path.display().to_string());
        }
        other => panic!("Caesar plays {other}"),
    }
    h.get_by_value("Heuristic (tuned.ron)");
    assert!(h.state().file_error().is_none());
}

#[test]
fn a_player_file_that_does_not_read_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    std::fs::write(&path, "(\n  garison: 2.0,\n)\n").unwrap();
    let mut h = pick_caesar_player(path);
    let error = h
        .state()
        .file_error()
        .expect("the failure is shown")
        .to_string();
    assert!(error.contains("bad.ron:2:"), "{error}");
    assert!(error.contains("did you mean `garrison`"), "{error}");
    assert_eq!(
        h.state_mut().sim_panel().caesar,
        caesar_workbench::ai::AiSpec::Heuristic,
        "the AI stays as it was"
    );
}

#[test]
fn a_tuned_player_file_takes_a_seat_in_the_play_tab() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seat.ron");
    let params = caesar_workbench::ai::HeuristicParams {
        garrison: 2.0,
        ..Default::default()
    };
    std::fs::write(&path, params.to_ron("test")).unwrap();
    let mut h = pick_player(path, Tab::Play, "Pompey");
    let seat = h.state_mut().play_panel().settings.seats[1].clone();
    assert!(
        format!("{seat:?}").contains("TunedHeuristic"),
        "Pompey's seat: {seat:?}"
    );
    h.get_by_value("Heuristic (seat.ron)");
}

#[test]
fn a_compared_rule_set_the_scenario_cannot_play_is_refused_with_the_validators_findings() {
    // Hands of 20 cannot be dealt from the published deck of 27: the
    // compare used to start it with the unchecked constructor, whose panic
    // killed the worker thread.
    let dir = tempfile::tempdir().unwrap();
    let variant = dir.path().join("big-hands.ron");
    std::fs::write(
        &variant,
        "(name: \"big hands\", extends: \"rules-2.0\", hand_size: 20)",
    )
    .unwrap();
    let mut h = built_in();
    h.get_by_label("Simulate").click();
    h.run();
    h.state_mut().sim_panel().compare_with = Some(variant.display().to_string());
    h.get_by_role_and_label(Role::SpinButton, "Games")
        .set_value_accesskit(4.0);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    match &h.state_mut().sim_panel().result {
        Some(Err(e)) => {
            let e = e.to_string();
            assert!(e.contains("cannot be played on this scenario"), "{e}");
            assert!(e.contains("deck-too-small"), "the validator's finding: {e}");
        }
        Some(Ok(_)) => panic!("the run was started"),
        None => panic!("no result: the run neither ended nor was refused"),
    }
}
