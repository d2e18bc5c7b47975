//! Whatever the validator accepts plays to the end (issue 12): every field
//! and switch of the rule set at its smallest and largest accepted value, and
//! random combinations, with random and heuristic players. Also that the
//! validator and the engine agree on what is playable (`playable.rs` states
//! it once).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use caesar_workbench::ai::{HeuristicPlayer, Player, RandomPlayer, decide};
use caesar_workbench::engine::{Game, State, audit};
use caesar_workbench::scenario::format::{CommandDoc, ResolvedScenario};
use caesar_workbench::scenario::model::CardFace;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::scenario::validate::validate;
use proptest::prelude::*;
use serde_json::Value;

/// More actions than any accepted rule set needs (the longest game seen here
/// is far below it); a game still going then is a hang.
const ACTION_BOUND: usize = 5_000_000;

const BASES: [&str; 2] = ["rules-1.1", "rules-2.0"];

/// Every value of each enum-valued field. A new enum field fails
/// `every_field_is_covered` until it is listed here.
const ENUMS: &[(&str, &[&str])] = &[
    ("apollo_first_turn", &["NoEffect", "CopiesPreviousYear"]),
    ("jupiter_defection", &["InPlace", "ToAdjacentFriendlyCity"]),
    ("vulcan_target", &["AnyCity", "EnemyCity"]),
    ("main_attack", &["AttackerChooses", "FirstRoadUsed"]),
    (
        "attacker_retreat",
        &["OneCityByAttackRoad", "AnyCitiesByAttackRoads"],
    ),
];

/// One setting of a field, written as it would be in a variant file.
#[derive(Debug, Clone)]
struct Setting {
    ron: String,
}

fn base_json(base: &str) -> serde_json::Map<String, Value> {
    match serde_json::to_value(RuleSet::builtin(base)).unwrap() {
        Value::Object(map) => map,
        other => panic!("a rule set serialises as a map, not {other}"),
    }
}

/// `field: value` for a plain number, or the whole struct with one member
/// changed for the road limits.
fn number_setting(base: &serde_json::Map<String, Value>, path: &[&str], value: u8) -> Setting {
    match path {
        [field] => Setting {
            ron: format!("{field}: {value}"),
        },
        [field, member] => {
            let Value::Object(members) = &base[*field] else {
                panic!("{field} is a struct")
            };
            let inner: Vec<String> = members
                .iter()
                .map(|(k, v)| {
                    if k == member {
                        format!("{k}: {value}")
                    } else {
                        format!("{k}: {v}")
                    }
                })
                .collect();
            Setting {
                ron: format!("{field}: ({})", inner.join(", ")),
            }
        }
        _ => unreachable!(),
    }
}

/// The numeric fields, as paths (`["road_limits", "major"]`).
fn numeric_paths(base: &serde_json::Map<String, Value>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (k, v) in base {
        match v {
            Value::Number(_) => out.push(vec![k.clone()]),
            Value::Object(members) => {
                for (m, mv) in members {
                    assert!(mv.is_number(), "{k}.{m} is a number");
                    out.push(vec![k.clone(), m.clone()]);
                }
            }
            _ => {}
        }
    }
    out
}

struct Variants {
    dir: tempfile::TempDir,
    count: usize,
}

impl Variants {
    fn new() -> Variants {
        Variants {
            dir: tempfile::tempdir().unwrap(),
            count: 0,
        }
    }
    fn write(&mut self, base: &str, settings: &[Setting]) -> PathBuf {
        self.count += 1;
        let path = self.dir.path().join(format!("v{}.ron", self.count));
        let body: Vec<String> = settings.iter().map(|s| format!("    {},", s.ron)).collect();
        std::fs::write(
            &path,
            format!(
                "(\n    name: \"extreme {}\",\n    extends: \"{base}\",\n{}\n)\n",
                self.count,
                body.join("\n")
            ),
        )
        .unwrap();
        path
    }
}

/// The rule set if the validator accepts it with the published scenario; and
/// checks that the engine agrees.
fn accepted(path: &Path) -> Option<(Game, RuleSet)> {
    let rules =
        RuleSet::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Parsed once: the scans below check hundreds of rule sets against it.
    static PUBLISHED: std::sync::LazyLock<ResolvedScenario> =
        std::sync::LazyLock::new(caesar_workbench::scenario::historical);
    let report = validate(&PUBLISHED, &rules);
    let engine = Game::try_new(Arc::new(report.scenario.clone()), Arc::new(rules.clone()));
    let errors: Vec<String> = report
        .findings
        .iter()
        .filter(|f| f.severity == caesar_workbench::scenario::validate::Severity::Error)
        .map(|f| f.to_string())
        .collect();
    assert_eq!(
        errors.is_empty(),
        engine.is_ok(),
        "validator and engine disagree on {}: validator {errors:?}",
        std::fs::read_to_string(path).unwrap()
    );
    engine.ok().map(|g| (g, rules))
}

/// Plays one game to the end and returns its number of actions.
fn play(game: &Game, seed: u64, heuristic: bool) -> usize {
    let mut players: [Box<dyn Player>; 2] = if heuristic {
        [
            Box::new(HeuristicPlayer::new(Side::Caesar, seed, false)),
            Box::new(HeuristicPlayer::new(Side::Pompey, seed + 1, false)),
        ]
    } else {
        [
            Box::new(RandomPlayer::new(seed)),
            Box::new(RandomPlayer::new(seed + 1)),
        ]
    };
    // Rules at their extremes take the engine where the published ones never
    // do: every shortcut it takes there is checked too.
    let _audit = audit::on();
    let mut state = State::new(game, seed);
    let mut legal = Vec::new();
    state.legal_actions(game, &mut legal);
    let mut actions = 0;
    while let Some(side) = state.current_player() {
        assert!(
            !legal.is_empty(),
            "{}: no legal action for {side} in year {} turn {}",
            game.rules.name,
            state.year(),
            state.turn()
        );
        let action = decide(&mut players[side.index()], game, &state, &legal);
        state.apply_and_relist(game, action, &mut legal);
        actions += 1;
        assert!(
            actions < ACTION_BOUND,
            "{}: still going after {ACTION_BOUND} actions",
            game.rules.name
        );
    }
    assert!(state.outcome().is_some());
    actions
}

fn play_both(game: &Game, seed: u64) {
    play(game, seed, false);
    play(game, seed, true);
}

#[test]
fn every_field_is_covered() {
    for base in BASES {
        for (k, v) in base_json(base) {
            let covered = match v {
                Value::Number(_) | Value::Bool(_) | Value::Object(_) => true,
                Value::String(_) => k == "name" || ENUMS.iter().any(|(f, _)| *f == k),
                Value::Array(_) => k == "removed_cards",
                Value::Null => false,
            };
            assert!(covered, "{base}: field {k} has no extremes in this test");
        }
    }
}

// One test per base rule set, so the two (about 10 s each) run side by side.
#[test]
fn every_numeric_field_at_its_smallest_and_largest_accepted_value_plays_to_the_end_under_1_1() {
    numeric_fields_at_their_extremes_play_to_the_end(BASES[0]);
}

#[test]
fn every_numeric_field_at_its_smallest_and_largest_accepted_value_plays_to_the_end_under_2_0() {
    numeric_fields_at_their_extremes_play_to_the_end(BASES[1]);
}

fn numeric_fields_at_their_extremes_play_to_the_end(base: &str) {
    let mut files = Variants::new();
    let json = base_json(base);
    for path in numeric_paths(&json) {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        let mut found = Vec::new();
        // Smallest accepted, scanning up; largest, scanning down.
        for values in [
            (0..=u8::MAX).collect::<Vec<_>>(),
            (0..=u8::MAX).rev().collect(),
        ] {
            let hit = values.into_iter().find_map(|v| {
                let file = files.write(base, &[number_setting(&json, &path, v)]);
                accepted(&file).map(|g| (v, g))
            });
            let (value, (game, _)) =
                hit.unwrap_or_else(|| panic!("{base}: no value of {path:?} is accepted"));
            found.push(value);
            play_both(&game, 1 + value as u64);
        }
        assert!(found[0] <= found[1], "{base} {path:?}: {found:?}");
    }
}

#[test]
fn every_switch_and_enum_value_plays_to_the_end() {
    let mut files = Variants::new();
    for base in BASES {
        let json = base_json(base);
        let mut settings: Vec<Setting> = Vec::new();
        for (k, v) in &json {
            if v.is_boolean() {
                for b in [false, true] {
                    settings.push(Setting {
                        ron: format!("{k}: {b}"),
                    });
                }
            }
        }
        for (field, values) in ENUMS {
            for value in *values {
                settings.push(Setting {
                    ron: format!("{field}: {value}"),
                });
            }
        }
        // House rules: the whole set of events removed, and most commands.
        settings.push(Setting {
            ron: "removed_cards: [\"Apollo\", \"Jupiter\", \"Mars\", \"Mercury\", \"Neptune\", \
                  \"Pluto\", \"Vulcan\"]"
                .into(),
        });
        for (i, setting) in settings.iter().enumerate() {
            let file = files.write(base, std::slice::from_ref(setting));
            let (game, _) =
                accepted(&file).unwrap_or_else(|| panic!("{base}: {} is refused", setting.ron));
            play_both(&game, 100 + i as u64);
        }
    }
}

#[test]
fn values_just_outside_the_requirements_are_refused_by_both() {
    let mut files = Variants::new();
    for ron in [
        "battle_rounds: 1",
        "battle_rounds: 0",
        "discards: 6",
        "hand_size: 1",
        "hand_size: 0",
        "years: 0",
        "turns_per_year: 0",
        "hand_size: 14",
    ] {
        let file = files.write("rules-2.0", &[Setting { ron: ron.into() }]);
        assert!(accepted(&file).is_none(), "{ron} is accepted");
    }
}

fn with_commands(
    commands: Vec<CommandDoc>,
) -> caesar_workbench::scenario::format::ResolvedScenario {
    let mut doc = caesar_workbench::scenario::historical();
    doc.deck.commands = commands;
    doc
}

#[test]
fn a_deck_over_the_engines_limit_is_refused_not_cut() {
    let rules = RuleSet::builtin("rules-2.0");
    // 7 events and 3 x 198 commands: 601 cards.
    let doc = with_commands(vec![
        CommandDoc {
            moves: 2,
            levy: 1,
            copies: 198,
        };
        3
    ]);
    let report = validate(&doc, &rules);
    assert!(report.has("deck-too-large"), "{:?}", report.findings);
    assert!(Game::try_new(Arc::new(report.scenario), Arc::new(rules.clone())).is_err());
    // 256 cards is the limit, and every one of them is dealt.
    let doc = with_commands(vec![CommandDoc {
        moves: 2,
        levy: 1,
        copies: 249,
    }]);
    let mut rules = rules;
    rules.hand_size = 128;
    let report = validate(&doc, &rules);
    assert_eq!(report.errors(), 0, "{:?}", report.findings);
    let game =
        Game::try_new(Arc::new(report.scenario), Arc::new(rules)).expect("the engine plays it");
    let state = State::new(&game, 3);
    let mut dealt: Vec<u8> = Side::BOTH
        .iter()
        .flat_map(|s| state.hand(*s).to_vec())
        .collect();
    dealt.sort();
    dealt.dedup();
    assert_eq!(dealt.len(), 256, "every card of a 256-card deck is dealt");
    play(&game, 3, false);
}

#[test]
fn a_capped_deal_the_deck_can_just_fill_is_drawn_at_once() {
    // 7 events and 200 copies of one command card, hands of 100 with no
    // events: about one shuffle in 10^12 respects the cap, so redealing
    // until one does never ends.
    let doc = with_commands(vec![CommandDoc {
        moves: 2,
        levy: 1,
        copies: 200,
    }]);
    let mut rules = RuleSet::builtin("rules-2.0");
    rules.hand_size = 100;
    rules.max_events_per_hand = 0;
    let report = validate(&doc, &rules);
    assert_eq!(report.errors(), 0, "{:?}", report.findings);
    let game = Game::try_new(Arc::new(report.scenario), Arc::new(rules.clone()))
        .expect("the engine plays it");
    for seed in 0..3 {
        let state = State::new(&game, seed);
        for side in Side::BOTH {
            assert_eq!(state.hand(side).len(), 100);
            assert!(
                state
                    .hand(side)
                    .iter()
                    .all(|c| matches!(game.card(*c), CardFace::Command { .. }))
            );
        }
        play(&game, seed, true);
    }
    // One command fewer and the cap cannot be met: refused, not ignored.
    let doc = with_commands(vec![CommandDoc {
        moves: 2,
        levy: 1,
        copies: 199,
    }]);
    let report = validate(&doc, &rules);
    assert!(report.has("event-cap-undealable"), "{:?}", report.findings);
}

/// Values each field may take in a random combination.
fn any_setting() -> impl Strategy<Value = Vec<String>> {
    (
        1u8..=8,
        1u8..=8,
        1u8..=13,
        0u8..=3,
        0u8..=14,
        2u8..=9,
        0u8..=6,
        (0u8..=6, 0u8..=4, 0u8..=3, 0u8..=2),
        any::<[bool; 9]>(),
        0usize..64,
    )
        .prop_map(
            |(
                years,
                turns,
                hand,
                discards,
                vp,
                rounds,
                cap,
                (major, minor, strait, sa),
                flags,
                e,
            )| {
                let pick = |i: usize, values: &[&str]| values[(e >> i) % values.len()].to_string();
                let mut out = vec![
                    format!("years: {years}"),
                    format!("turns_per_year: {turns}"),
                    format!("hand_size: {hand}"),
                    format!("discards: {discards}"),
                    format!("vp_to_win: {vp}"),
                    format!("battle_rounds: {rounds}"),
                    format!("max_events_per_hand: {cap}"),
                    format!(
                        "road_limits: (major: {major}, minor: {minor}, strait: {strait}, \
                         strait_attacking: {sa})"
                    ),
                    format!("caesar_player1_first_turn: {}", flags[0]),
                    format!("apollo_copy_decides_player1: {}", flags[1]),
                    format!("jupiter_navis_at_sea: {}", flags[2]),
                    format!("mars_group_move: {}", flags[3]),
                    format!("mercury_land_only: {}", flags[4]),
                    format!("pluto_attacks_only: {}", flags[5]),
                    format!("levy_on_moved_blocks: {}", flags[6]),
                    format!("disrupt_defending_reserves: {}", flags[7]),
                    format!("regroup_to_one_city: {}", flags[8]),
                ];
                for (i, (field, values)) in ENUMS.iter().enumerate() {
                    out.push(format!("{field}: {}", pick(i, values)));
                }
                out
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn random_accepted_combinations_play_to_the_end(settings in any_setting(), seed in 0u64..1000) {
        let mut files = Variants::new();
        let settings: Vec<Setting> = settings
            .into_iter()
            .map(|ron| Setting { ron })
            .collect();
        let file = files.write("rules-2.0", &settings);
        if let Some((game, _)) = accepted(&file) {
            play_both(&game, seed);
        }
    }
}
