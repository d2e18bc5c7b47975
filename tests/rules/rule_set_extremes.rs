//! Whatever the validator accepts plays to the end (issue 12): every field
//! and switch of the rule set at its smallest and largest accepted value, and
//! random combinations, with random and heuristic players. Also that the
//! validator and the engine agree on what is playable (`playable.rs` states
//! it once).

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use caesar_workbench::ai::{HeuristicPlayer, Player, RandomPlayer, decide};
use caesar_workbench::engine::{Game, State, audit};
use caesar_workbench::scenario::format::{CommandDoc, ResolvedScenario};
use caesar_workbench::scenario::model::CardFace;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rule_fields::{FieldKind, FieldPath, LIMIT_PARTS, RuleField};
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::scenario::validate::validate;
use proptest::prelude::*;
use serde_json::Value;

/// More actions than any accepted rule set needs (the longest game seen here
/// is far below it); a game still going then is a hang.
const ACTION_BOUND: usize = 5_000_000;

const BASES: [&str; 2] = ["rules-1.1", "rules-2.0"];

/// The ranges a random combination draws these numbers from, narrower than
/// the table's: short games with most combinations accepted (a hand of 128
/// needs the engine's largest deck). Every other number is drawn over its
/// whole range in the table.
const NARROW: &[(&str, RangeInclusive<u8>)] = &[
    ("years", 1..=8),
    ("turns_per_year", 1..=8),
    ("hand_size", 1..=13),
    ("discards", 0..=3),
    ("vp_to_win", 0..=14),
    ("battle_rounds", 2..=9),
    ("max_events_per_hand", 0..=6),
    ("road_limits.major", 0..=6),
    ("road_limits.minor", 0..=4),
    ("road_limits.strait", 0..=3),
    ("road_limits.strait_attacking", 0..=2),
];

/// The rule table's fields, in its order: everything this test sets is
/// drawn from it, so a field added to the table is played too.
fn table() -> Vec<&'static RuleField> {
    RuleSet::builtin(BASES[0])
        .field_values()
        .into_iter()
        .map(|(field, _)| field)
        .collect()
}

/// Every value a switch or choice takes, as a variant file writes it; none
/// for the other kinds, which have extremes of their own.
fn every_value(field: &RuleField) -> Vec<String> {
    match field.kind {
        FieldKind::Switch => vec!["false".into(), "true".into()],
        FieldKind::Choice { options } => options.iter().map(|o| o.to_string()).collect(),
        FieldKind::Number { .. } | FieldKind::Limits { .. } | FieldKind::Cards => Vec::new(),
    }
}

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
fn numeric_paths() -> Vec<Vec<&'static str>> {
    table()
        .into_iter()
        .flat_map(|field| match field.kind {
            FieldKind::Number { .. } => vec![vec![field.name]],
            FieldKind::Limits { .. } => LIMIT_PARTS.iter().map(|p| vec![field.name, *p]).collect(),
            FieldKind::Switch | FieldKind::Choice { .. } | FieldKind::Cards => Vec::new(),
        })
        .collect()
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
    for path in numeric_paths() {
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
        let mut settings: Vec<Setting> = Vec::new();
        for field in table() {
            for value in every_value(field) {
                settings.push(Setting {
                    ron: format!("{}: {value}", field.name),
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

/// Values each field may take in a random combination: every switch and
/// choice of the table, every number over its range (or [`NARROW`]'s).
fn any_setting() -> impl Strategy<Value = Vec<String>> {
    for (path, _) in NARROW {
        assert!(FieldPath::parse(path).is_ok(), "{path} is in the table");
    }
    table()
        .into_iter()
        .filter_map(any_value)
        .collect::<Vec<_>>()
}

/// `field: value` for one field drawn at random; none for the card list,
/// which `every_switch_and_enum_value_plays_to_the_end` sets whole.
fn any_value(field: &'static RuleField) -> Option<BoxedStrategy<String>> {
    let name = field.name;
    let range = |path: &str, min: u8, max: u8| {
        NARROW
            .iter()
            .find(|(p, _)| *p == path)
            .map_or(min..=max, |(_, r)| r.clone())
    };
    Some(match field.kind {
        FieldKind::Number { min, max } => range(name, min, max)
            .prop_map(move |v| format!("{name}: {v}"))
            .boxed(),
        FieldKind::Switch => any::<bool>()
            .prop_map(move |b| format!("{name}: {b}"))
            .boxed(),
        FieldKind::Choice { options } => proptest::sample::select(options)
            .prop_map(move |o| format!("{name}: {o}"))
            .boxed(),
        FieldKind::Limits { max } => LIMIT_PARTS
            .map(|part| range(&format!("{name}.{part}"), 0, max))
            .prop_map(move |values| {
                let parts: Vec<String> = LIMIT_PARTS
                    .iter()
                    .zip(values)
                    .map(|(part, v)| format!("{part}: {v}"))
                    .collect();
                format!("{name}: ({})", parts.join(", "))
            })
            .boxed(),
        FieldKind::Cards => return None,
    })
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
