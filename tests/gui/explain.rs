//! The Rules tab's "Explain the differences": an explanation run in the
//! window between two rule sets that differ in known fields, its chart,
//! the report's sentences, its exports, and a field's name that shows the
//! field in the rule table.

use std::path::PathBuf;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::app::{
    FileDialogs, FileRequest, NativeDialog, RuleChoice, Tab, WorkbenchApp, plain_sentence,
};
use caesar_workbench::sim::players::{PlayerChoice, Setup};
use caesar_workbench::sim::questions::explain::ExplainReport;
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

/// Rules 2.0 with fewer years and fewer VP to win (two fields that
/// interact), as a variant file in `dir`: its path.
fn short_game(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("short.ron");
    std::fs::write(
        &path,
        "(name: \"short and low\", extends: \"rules-2.0\", vp_to_win: 6, years: 2)",
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

/// The Rules tab set to explain the short game (B, its path returned)
/// against rules 2.0 (A), random players on both sides.
fn short_game_explained(dir: &tempfile::TempDir) -> (Harness<'static, WorkbenchApp>, String) {
    let short = short_game(dir);
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    let panel = h.state_mut().explain_panel();
    panel.set_rule_sets(
        RuleChoice::Named("rules-2.0".into()),
        RuleChoice::Named(short.clone()),
    );
    panel.set_players(AiSpec::Random, AiSpec::Random);
    (h, short)
}

/// `caesar-workbench explain --variant rules-2.0 --variant B ARGS --json`,
/// which must succeed: its report.
fn explain_json(b: &str, args: &[&str]) -> serde_json::Value {
    let out = assert_cmd::Command::cargo_bin("caesar-workbench")
        .unwrap()
        .args(["explain", "--variant", "rules-2.0", "--variant", b])
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Clicks "Explain the differences" and waits for the run: its report.
fn explain_and_wait(h: &mut Harness<'static, WorkbenchApp>) -> ExplainReport {
    h.get_by_role_and_label(Role::Button, "Explain the differences")
        .click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    h.state_mut()
        .explain_panel()
        .report()
        .unwrap_or_else(|| panic!("no explanation"))
        .clone()
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
    let report = explain_and_wait(&mut h);
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
        h.get_by_label(&shown(plain_sentence(
            field,
            report.field_sentence(field, &effect),
        )));
    }
    h.get_by_label(&shown(report.sum_sentence()));
    // In the rule table's plain words, not the file's (issue 55, item 5).
    h.get_by_label_contains("Caesar is Player 1 on the game's first turn (2.1: on -> off)");
    h.get_by_label_contains("VP that win the game after a year (1.2: ");
    assert!(
        h.query_all_by_label_contains("caesar_player1_first_turn (")
            .next()
            .is_none()
    );
    assert!(
        h.query_all_by_label_contains("true -> false")
            .next()
            .is_none()
    );

    // A field's sentence in the explanation selects it in the rule table.
    assert_eq!(h.state().highlighted_rule_field(), None);
    let (vp_field, vp_effect) = report
        .ranked()
        .into_iter()
        .find(|(f, _)| f.field == "vp_to_win")
        .unwrap();
    h.get_by_label(&shown(plain_sentence(
        vp_field,
        report.field_sentence(vp_field, &vp_effect),
    )))
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
fn the_players_are_the_balance_measured_for_rule_set_a_if_fast_until_one_is_picked() {
    // As `caesar-workbench explain`: both sides play the balance measured
    // for A (each side its equilibrium mix) where its mix plays no search,
    // else `fast` for A. The command line's resolution is the reference.
    let default_of = |variant: &str| {
        let setup = Setup::of_files(None, None).unwrap();
        PlayerChoice::Equilibrium
            .resolve(&[variant], &setup)
            .unwrap()
            .0
    };
    let fast = |variant: &str| {
        let lineage = caesar_workbench::scenario::rules::RuleSet::lineage(variant).unwrap();
        caesar_workbench::sim::players::ratings::fast_for(&lineage, None, &[])
            .unwrap()
            .spec
    };
    for built_in in ["rules-1.1", "rules-2.0"] {
        // Their built-in balances mix searches: too slow for thousands of games.
        assert_eq!(default_of(built_in), fast(built_in), "{built_in}");
    }
    // A rule set with none measured: `fast` for it.
    let unmeasured = "variants/rules-2.0-no-first-turn-exception.ron";
    assert_eq!(default_of(unmeasured), fast(unmeasured));
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    let mut seen = Vec::new();
    for a in ["rules-1.1", "rules-2.0", unmeasured] {
        h.state_mut()
            .explain_panel()
            .set_rule_sets(RuleChoice::Named(a.into()), RuleChoice::InForce);
        h.run();
        let players = h.state_mut().explain_panel().players().map(Clone::clone);
        assert_eq!(players, [default_of(a), default_of(a)], "A is {a}");
        seen.push(players[0].clone());
    }
    assert_ne!(seen[0], seen[1], "each rule set has its own balance");
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

#[test]
fn setup_changes_and_interacting_pairs_are_explained_as_at_the_command_line() {
    // Fewer years and fewer VP to win, and a Pompey legion moved: on these
    // seeds `years` is marked as interacting, so its pair is measured.
    let dir = tempfile::tempdir().unwrap();
    let (mut h, short) = short_game_explained(&dir);
    let change = "deploy:pompey:Legio 3=Roma";
    {
        let panel = h.state_mut().explain_panel();
        panel.games = 120;
        panel.seed = 3;
    }
    h.run();
    // Typed and ticked as a user would.
    h.get_by_role_and_label(Role::MultilineTextInput, "Setup changes (B)")
        .focus();
    h.run();
    h.get_by_role_and_label(Role::MultilineTextInput, "Setup changes (B)")
        .type_text(change);
    h.get_by_label("Measure interacting pairs").click();
    h.run();
    assert_eq!(h.state_mut().explain_panel().setup_changes, change);
    assert!(h.state_mut().explain_panel().measure_pairs);
    let report = explain_and_wait(&mut h);
    assert_eq!(report.setup_changes, [change]);
    // The pairs measured are those the fields mark, and shown.
    let measured: Vec<[String; 2]> = report.pairs.iter().map(|p| p.fields.clone()).collect();
    assert_eq!(measured.len(), 1, "{measured:?}");
    assert_eq!(measured, report.flagged_pairs());
    let shown = |text: String| text.replace('→', "->");
    h.get_by_label(&shown(report.pairs[0].sentence()));
    // The same run at the command line gives the same counts.
    let cli = explain_json(
        &short,
        &[
            "--games",
            "120",
            "--seed",
            "3",
            "--caesar-ai",
            "random",
            "--pompey-ai",
            "random",
            "--pairs",
            "--set",
            change,
        ],
    );
    let window = serde_json::to_value(&report).unwrap();
    for part in ["total", "fields", "pairs", "setup_changes"] {
        assert_eq!(window[part], cli[part], "{part}");
    }
}

#[test]
fn a_setup_change_naming_no_block_is_refused_with_the_nearest_name() {
    let mut h = rules_tab(WorkbenchApp::new(None, "rules-2.0"));
    {
        let panel = h.state_mut().explain_panel();
        panel.set_rule_sets(
            RuleChoice::Named("rules-1.1".into()),
            RuleChoice::Named("rules-2.0".into()),
        );
        panel.setup_changes = "deploy:pompey:Legio 33=Roma".into();
    }
    h.run();
    h.get_by_role_and_label(Role::Button, "Explain the differences")
        .click();
    h.run();
    let error = h
        .state_mut()
        .explain_panel()
        .error()
        .map(ToString::to_string);
    let error = error.expect("refused before any game");
    assert!(error.contains("Legio 33"), "{error}");
    assert!(error.contains("did you mean \"Legio 3\""), "{error}");
    assert!(!h.state_mut().sim_panel().is_running());
}

#[test]
fn an_explanation_checked_with_another_player_says_whether_each_field_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, short) = short_game_explained(&dir);
    {
        let panel = h.state_mut().explain_panel();
        panel.games = 24;
        panel.other_player = AiSpec::Heuristic;
        panel.measure_pairs = true;
    }
    h.run();
    h.get_by_label("Check with another player").click();
    h.run();
    explain_and_wait(&mut h);
    let ladder = h
        .state_mut()
        .explain_panel()
        .ladder()
        .unwrap_or_else(|| panic!("no check with the other player"))
        .clone();
    assert_eq!(ladder.players, ["heuristic", "random"]);
    assert_eq!(
        Some(&ladder.rungs[1]),
        h.state_mut().explain_panel().report(),
        "the window's own explanation is the upper rung"
    );
    assert_eq!(ladder.rungs[0].caesar_ai, "heuristic");
    let shown = |text: String| text.replace('→', "->");
    h.get_by_label(&ladder.question());
    for a in ladder.agreement() {
        let field = ladder.rungs[1]
            .fields
            .iter()
            .find(|f| f.field == a.field)
            .unwrap();
        h.get_by_label(&shown(plain_sentence(field, a.sentence(&ladder.players))));
    }
    if ladder.all_agree() {
        // No difference found is not said to be agreement (issue 55).
        h.get_by_label_contains("That does not show they agree");
        assert!(h.query_by_label(ladder.verdict()).is_none());
    } else {
        h.get_by_label(ladder.verdict());
    }
    // Each player's explanation as `explain --caesar-ai P --pompey-ai P
    // --pairs` at the command line (whose --ladder takes its rungs weakest
    // first and refuses heuristic below random).
    for (player, rung) in ladder.players.iter().zip(&ladder.rungs) {
        let cli = explain_json(
            &short,
            &[
                "--games",
                "24",
                "--seed",
                "1",
                "--caesar-ai",
                player,
                "--pompey-ai",
                player,
                "--pairs",
            ],
        );
        assert_eq!(serde_json::to_value(rung).unwrap(), cli, "{player}");
    }
    assert!(
        ladder.strength.is_none(),
        "the two were not played against each other"
    );
}
