//! No panel can crash the window (issue 55, item 1): every rule field at
//! each end of its range, set as a variant file could set it, with every tab
//! opened; and the Rules tab refusing a value the engine cannot play.

use caesar_workbench::app::{Tab, WorkbenchApp};
use caesar_workbench::scenario::rule_fields::{FieldError, FieldKind, FieldPath};
use caesar_workbench::scenario::rules::RuleSet;
use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::Value;

const TABS: [Tab; 7] = [
    Tab::Map,
    Tab::Deployment,
    Tab::Rules,
    Tab::Simulation,
    Tab::Setup,
    Tab::Play,
    Tab::Replay,
];

fn harness() -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1400.0, 860.0))
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(None, "rules-2.0"),
        );
    h.run();
    h
}

/// Every settable path of the rule set (each number, switch, choice and
/// road limit) with its smallest and largest value; the card list empty and
/// holding every event.
fn extremes(base: &RuleSet) -> Vec<(String, RuleSet)> {
    let Value::Object(fields) = serde_json::to_value(base).expect("serialises") else {
        panic!("a rule set serialises as a map")
    };
    let mut out = Vec::new();
    for name in fields.keys().filter(|k| *k != "name") {
        let paths = match FieldPath::parse(name) {
            Ok(path) => vec![path],
            Err(FieldError::Compound { parts, .. }) => parts
                .split(", ")
                .map(|p| FieldPath::parse(p).expect("a part parses"))
                .collect(),
            Err(FieldError::NotOneValue { .. }) => {
                for cards in [vec![], vec!["Jupiter", "Mars", "Neptune", "Vulcan"]] {
                    let mut json = serde_json::to_value(base).expect("serialises");
                    json[name.as_str()] = Value::from(cards.clone());
                    let rules = serde_json::from_value(json).expect("a card list");
                    out.push((format!("{name}={cards:?}"), rules));
                }
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        for path in paths {
            let ends: Vec<Value> = match path.field.kind {
                // Below a number's minimum too: a variant file may set it.
                FieldKind::Number { max, .. } | FieldKind::Limits { max } => {
                    vec![Value::from(0), Value::from(max)]
                }
                FieldKind::Switch => vec![Value::Bool(false), Value::Bool(true)],
                FieldKind::Choice { options } => vec![
                    Value::from(options[0]),
                    Value::from(options[options.len() - 1]),
                ],
                FieldKind::Cards => unreachable!("cards are not one value"),
            };
            for end in ends {
                let rules = path.set(base, &end).expect("an end of the range sets");
                out.push((format!("{}={end}", path.text()), rules));
            }
        }
    }
    out
}

#[test]
fn no_rule_value_at_either_end_of_its_range_crashes_any_tab() {
    let base = RuleSet::builtin("rules-2.0");
    let settings = extremes(&base);
    // Every field of the table, both ends (the road limits by part).
    assert!(settings.len() >= 2 * 25, "{} settings", settings.len());
    assert!(settings.iter().any(|(s, _)| s == "battle_rounds=0"));
    let mut h = harness();
    for (setting, rules) in settings {
        h.state_mut().set_rules(rules);
        for tab in TABS {
            h.state_mut().set_tab(tab);
            // A panic here fails the test: the window would have vanished.
            h.run();
            if tab == Tab::Play
                && let Some(start) = h.query_by_label("Start game")
            {
                start.click();
                h.run();
            }
        }
        if setting == "battle_rounds=1" {
            // The battle calculator says why it has no odds.
            h.state_mut().set_tab(Tab::Simulation);
            h.run();
            h.get_by_label_contains("the validator refuses this setup");
            h.get_by_label_contains("too-few-battle-rounds");
        }
    }
}

#[test]
fn the_rules_tab_refuses_a_battle_round_the_engine_cannot_play() {
    let mut h = harness();
    let mut rules = RuleSet::builtin("rules-2.0");
    rules.battle_rounds = 2;
    h.state_mut().set_rules(rules);
    h.state_mut().set_tab(Tab::Rules);
    h.run();
    // The drag value under the label, set to 1 as a screen reader would:
    // it offers only the rule table's range, 2 to 10, so 1 is never set.
    h.get_by_role_and_label(Role::SpinButton, "battle_rounds")
        .set_value_accesskit(1.0);
    h.run();
    h.run();
    assert_eq!(h.state().rules().expect("rules").battle_rounds, 2);
    assert!(h.query_by_label_contains("too-few-battle-rounds").is_none());
    // The tab that crashed still opens, and its calculator shows odds.
    h.state_mut().set_tab(Tab::Simulation);
    h.run();
    h.get_by_label_contains("Attacker takes it");
    // A value it can play is taken.
    h.state_mut().set_tab(Tab::Rules);
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "battle_rounds")
        .set_value_accesskit(3.0);
    h.run();
    h.run();
    assert_eq!(h.state().rules().expect("rules").battle_rounds, 3);
    assert!(h.query_by_label_contains("Not applied").is_none());
    // Play names the rule set in force as changed (issue 55, item 6).
    h.state_mut().set_tab(Tab::Play);
    h.run();
    h.get_by_label("Rule set: rules-2.0 (modified)");
}

#[test]
fn the_battle_calculator_shows_the_validators_findings_for_a_setup_it_cannot_play() {
    // A removed card the deck does not hold: the engine alone would deal
    // without it, but the validator refuses the rule set, and so does the
    // calculator, as the command line would.
    let mut h = harness();
    let mut rules = RuleSet::builtin("rules-2.0");
    rules.removed_cards = vec!["Nonesuch".to_string()];
    h.state_mut().set_rules(rules);
    h.state_mut().set_tab(Tab::Simulation);
    h.run();
    h.get_by_label_contains("the validator refuses this setup");
    h.get_by_label_contains("bad-removed-card");
    assert!(h.query_by_label_contains("Attacker takes it").is_none());
}
