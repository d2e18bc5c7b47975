//! The one table of rule-set fields: each field's name, the rule it
//! implements, what it decides, the kind of value it takes and the range
//! offered. The Rules tab draws its controls from it, sweeps parse and set
//! values through it, and saving a variant and the differences between two
//! rule sets list fields in its order (docs/rules-notes.md explains the
//! choices behind the switches).

use std::fmt;

use serde_json::Value;

use crate::scenario::names::did_you_mean;
use crate::scenario::rules::{RoadLimits, RuleSet};

/// The kind of value a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A whole number from `min` to `max`: what the engine plays, so the
    /// Rules tab offers no other (a minimum above 0 is a requirement of the
    /// engine, [`crate::scenario::playable`], which says why).
    Number { min: u8, max: u8 },
    /// On or off.
    Switch,
    /// One of the named options (the variant names of the field's enum).
    Choice { options: &'static [&'static str] },
    /// Four road limits ([`LIMIT_PARTS`]), each from 0 to `max`.
    Limits { max: u8 },
    /// A list of cards: events by name, commands as "3/1".
    Cards,
}

/// One field of [`RuleSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleField {
    pub name: &'static str,
    /// The rule (or card) it implements, as the rulebook numbers it.
    pub rule: &'static str,
    /// What it decides, in one line.
    pub explain: &'static str,
    pub kind: FieldKind,
}

/// The parts of a [`FieldKind::Limits`] field, as `RoadLimits` names them.
pub const LIMIT_PARTS: [&str; 4] = ["major", "minor", "strait", "strait_attacking"];

const fn field(
    name: &'static str,
    rule: &'static str,
    explain: &'static str,
    kind: FieldKind,
) -> RuleField {
    RuleField {
        name,
        rule,
        explain,
        kind,
    }
}

const fn number(max: u8) -> FieldKind {
    FieldKind::Number { min: 0, max }
}

const fn number_from(min: u8, max: u8) -> FieldKind {
    FieldKind::Number { min, max }
}

/// The fewest battle rounds: blocks may not retreat in round 1 (7.2, 7.6),
/// yet attackers must retreat in the last round, so the last round is at
/// least round 2.
pub const MIN_BATTLE_ROUNDS: u8 = 2;

/// The most battle rounds a rule set may have (exact odds keep a slot for
/// each).
pub const MAX_BATTLE_ROUNDS: u8 = 10;

/// The fewest years in a game (1.2) and game turns in a year (2.0).
const AT_LEAST_ONE: u8 = 1;

const SWITCH: FieldKind = FieldKind::Switch;

/// The largest hand: two of them deal the engine's largest deck (256 cards).
const MAX_HAND: u8 = 128;
const LIMITS: FieldKind = FieldKind::Limits { max: 20 };

/// The largest tournament bid: tournaments bid a few levy points, and ten
/// already doubles a year's levies.
pub const MAX_BID: u8 = 10;

/// `RULE_FIELDS` from [`crate::scenario::rules::with_rule_fields!`]'s list
/// (the docs and type are `RuleSet`'s).
macro_rules! rule_field_table {
    ($( $(#[$doc:meta])* $field:ident : $ty:ty => ($rule:literal, $explain:literal, $kind:expr) ),* $(,)?) => {
        /// Every field but the name, in the order `RuleSet` declares them.
        pub(crate) const RULE_FIELDS: &[RuleField] = &[
            $( field(stringify!($field), $rule, $explain, $kind), )*
        ];
    };
}
crate::scenario::rules::with_rule_fields!(rule_field_table);

/// The values of `rules` outside the table's ranges (the ranges the Rules
/// tab offers and sweeps accept: one table for every editor, for the
/// validator and for the engine, [`crate::scenario::playable`]), one message each.
pub fn out_of_range(rules: &RuleSet) -> Vec<String> {
    let mut found = Vec::new();
    for (field, value) in rules.field_values() {
        let (max, over) = match (field.kind, &value) {
            // Below a minimum is a requirement of its own ([`minimum`]).
            (FieldKind::Number { max, .. }, FieldValue::Number(n)) => (max, *n > max),
            (FieldKind::Limits { max }, FieldValue::Limits(l)) => (
                max,
                [l.major, l.minor, l.strait, l.strait_attacking]
                    .iter()
                    .any(|p| *p > max),
            ),
            _ => continue,
        };
        if over {
            found.push(format!(
                "{}: {} = {value} is outside 0 to {max}, the range the workbench plays ({}: {})",
                rules.name, field.name, field.rule, field.explain
            ));
        }
    }
    found
}

/// The smallest value of the number field `name` the engine plays (the
/// table's; 0 for any other field). [`crate::scenario::playable`] refuses
/// less, each with its own rule and code.
pub(crate) fn minimum(name: &str) -> u8 {
    rule_field(name).map_or(0, |f| match f.kind {
        FieldKind::Number { min, .. } => min,
        _ => 0,
    })
}

/// The field an [`out_of_range`] message is about, so that a finding can
/// point at the line that sets it.
pub(crate) fn field_out_of_range(message: &str) -> Option<&'static str> {
    RULE_FIELDS
        .iter()
        .map(|f| f.name)
        .find(|name| message.contains(&format!(": {name} = ")))
}

/// The values of `rules` that make every game alike, one message each,
/// naming the field and its rule. `map_vp` is the VP on the scenario's map,
/// against which `vp_to_win` is judged.
pub fn degenerate_values(rules: &RuleSet, map_vp: u32) -> Vec<String> {
    RULE_FIELDS
        .iter()
        .filter_map(|field| {
            degenerate(rules, field.name, map_vp)
                .map(|why| format!("{}: {} ({}): {why}", rules.name, field.name, field.rule))
        })
        .collect()
}

/// Why the value of `field` makes every game the same, if it does.
fn degenerate(rules: &RuleSet, field: &str, map_vp: u32) -> Option<String> {
    let r = rules;
    match field {
        "vp_to_win" if r.vp_to_win == 0 => {
            Some("0 VP to win ends every game after its first year".to_string())
        }
        "vp_to_win" if u32::from(r.vp_to_win) > map_vp + 2 * u32::from(r.vp_per_leader_killed) => {
            Some(format!(
                "{} VP to win cannot be reached: the map holds {map_vp} VP and killing both enemy leaders gives {} more",
                r.vp_to_win,
                2 * u32::from(r.vp_per_leader_killed)
            ))
        }
        "road_limits" if r.road_limits.major == 0 && r.road_limits.minor == 0 => {
            Some("no block may move by road (6.11), so no attack is ever made".to_string())
        }
        "winter_supply_base" if r.winter_supply_base == 0 => Some(
            "cities without VP supply no block in winter (8.4), so nearly every block is disbanded"
                .to_string(),
        ),
        "battle_rounds" if r.battle_rounds > 6 => Some(format!(
            "{} rounds: a battle almost always ends with a side eliminated (the rules have 4)",
            r.battle_rounds
        )),
        _ => None,
    }
}

/// The field called `name`.
pub fn rule_field(name: &str) -> Option<&'static RuleField> {
    RULE_FIELDS.iter().find(|f| f.name == name)
}

/// A field's value, typed by its [`FieldKind`]. `Display` writes it as a
/// variant file does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Number(u8),
    Switch(bool),
    Choice(String),
    Limits(RoadLimits),
    Cards(Vec<String>),
}

impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::Number(n) => write!(f, "{n}"),
            FieldValue::Switch(b) => write!(f, "{b}"),
            FieldValue::Choice(c) => f.write_str(c),
            FieldValue::Limits(l) => write!(
                f,
                "(major: {}, minor: {}, strait: {}, strait_attacking: {})",
                l.major, l.minor, l.strait, l.strait_attacking
            ),
            FieldValue::Cards(cards) => {
                let quoted: Vec<String> = cards.iter().map(|c| format!("{c:?}")).collect();
                write!(f, "[{}]", quoted.join(", "))
            }
        }
    }
}

/// Why a field could not be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("unknown rule-set field \"{name}\"{suggestion}")]
    Unknown { name: String, suggestion: String },
    #[error("{field} has parts: set one of them ({parts})")]
    Compound { field: String, parts: String },
    #[error("{field} is a list of cards, not one value")]
    NotOneValue { field: String },
    #[error("\"{text}\" is not a value of {field}: {expected}")]
    BadValue {
        field: String,
        text: String,
        expected: String,
    },
}

/// A field, or one number of a compound field (`road_limits.major`), as
/// sweeps and `--set`-style settings name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldPath {
    pub field: &'static RuleField,
    /// The part of a [`FieldKind::Limits`] field.
    pub part: Option<&'static str>,
}

impl FieldPath {
    /// Reads `field` or `field.part`; a compound field without its part and
    /// the card list are refused, as is anything unknown (with the nearest name).
    pub fn parse(text: &str) -> Result<FieldPath, FieldError> {
        let (name, part) = match text.split_once('.') {
            Some((name, part)) => (name, Some(part)),
            None => (text, None),
        };
        let unknown = || FieldError::Unknown {
            name: text.to_string(),
            suggestion: did_you_mean(text, settable_paths().iter().map(String::as_str)),
        };
        let field = rule_field(name).ok_or_else(unknown)?;
        match (field.kind, part) {
            (FieldKind::Limits { .. }, None) => Err(FieldError::Compound {
                field: name.to_string(),
                parts: LIMIT_PARTS.map(|p| format!("{name}.{p}")).join(", "),
            }),
            (FieldKind::Limits { .. }, Some(part)) => {
                let part = LIMIT_PARTS
                    .iter()
                    .find(|p| **p == part)
                    .ok_or_else(unknown)?;
                Ok(FieldPath {
                    field,
                    part: Some(part),
                })
            }
            (FieldKind::Cards, _) => Err(FieldError::NotOneValue {
                field: name.to_string(),
            }),
            (_, Some(_)) => Err(unknown()),
            (_, None) => Ok(FieldPath { field, part: None }),
        }
    }

    /// `field` or `field.part`.
    pub fn text(&self) -> String {
        match self.part {
            Some(part) => format!("{}.{part}", self.field.name),
            None => self.field.name.to_string(),
        }
    }

    /// The value `text` gives this path, as JSON of the field's type; a
    /// number out of the table's range, an unknown option or a switch that
    /// is not true/false is refused.
    pub(crate) fn value_of(&self, text: &str) -> Result<Value, FieldError> {
        let bad = |expected: String| FieldError::BadValue {
            field: self.text(),
            text: text.to_string(),
            expected,
        };
        let number = |max: u8| {
            text.trim()
                .parse::<u8>()
                .ok()
                .filter(|n| *n <= max)
                .map(Value::from)
                .ok_or_else(|| bad(format!("a whole number from 0 to {max}")))
        };
        match self.field.kind {
            FieldKind::Number { max, .. } | FieldKind::Limits { max } => number(max),
            FieldKind::Switch => match text.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(bad("true or false".into())),
            },
            FieldKind::Choice { options } => options
                .iter()
                .find(|o| o.eq_ignore_ascii_case(text.trim()))
                .map(|o| Value::String(o.to_string()))
                .ok_or_else(|| {
                    bad(format!(
                        "one of {}{}",
                        options.join(", "),
                        did_you_mean(text, options.iter().copied())
                    ))
                }),
            FieldKind::Cards => Err(FieldError::NotOneValue { field: self.text() }),
        }
    }

    /// `rules` with this path set to `value` (JSON of the field's type,
    /// as [`FieldPath::value_of`] gives).
    pub fn set(&self, rules: &RuleSet, value: &Value) -> Result<RuleSet, FieldError> {
        let mut json = to_json(rules);
        let mut slot = &mut json[self.field.name];
        if let Some(part) = self.part {
            slot = &mut slot[part];
        }
        *slot = value.clone();
        serde_json::from_value(json).map_err(|e| FieldError::BadValue {
            field: self.text(),
            text: value.to_string(),
            expected: e.to_string(),
        })
    }

    /// This path's value in `rules`, as JSON.
    pub fn get(&self, rules: &RuleSet) -> Value {
        let json = to_json(rules);
        let value = &json[self.field.name];
        match self.part {
            Some(part) => value[part].clone(),
            None => value.clone(),
        }
    }
}

/// Every path a single value can be set at: each number, switch and
/// choice, and each part of the road limits, in the table's order.
pub(crate) fn settable_paths() -> Vec<String> {
    RULE_FIELDS
        .iter()
        .flat_map(|f| match f.kind {
            FieldKind::Limits { .. } => LIMIT_PARTS
                .iter()
                .map(|p| format!("{}.{p}", f.name))
                .collect(),
            FieldKind::Cards => Vec::new(),
            _ => vec![f.name.to_string()],
        })
        .collect()
}

fn to_json(rules: &RuleSet) -> Value {
    serde_json::to_value(rules).expect("a rule set is plain data and always serialises")
}

impl RuleSet {
    /// Every field's value, in the table's order.
    pub fn field_values(&self) -> Vec<(&'static RuleField, FieldValue)> {
        let json = to_json(self);
        RULE_FIELDS
            .iter()
            .map(|f| (f, value_from_json(f, &json[f.name])))
            .collect()
    }

    /// This rule set with `field` set to `value`; a value of another kind
    /// than the field's is refused.
    pub fn with_field(&self, field: &RuleField, value: &FieldValue) -> Result<RuleSet, FieldError> {
        let json = match value {
            FieldValue::Number(n) => Value::from(*n),
            FieldValue::Switch(b) => Value::Bool(*b),
            FieldValue::Choice(c) => Value::String(c.clone()),
            FieldValue::Limits(l) => serde_json::to_value(l).unwrap_or_default(),
            FieldValue::Cards(c) => Value::from(c.clone()),
        };
        let mut whole = to_json(self);
        whole[field.name] = json.clone();
        serde_json::from_value(whole).map_err(|e| FieldError::BadValue {
            field: field.name.to_string(),
            text: json.to_string(),
            expected: e.to_string(),
        })
    }
}

fn value_from_json(field: &RuleField, json: &Value) -> FieldValue {
    let number = |v: &Value| {
        v.as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .unwrap_or_default()
    };
    match field.kind {
        FieldKind::Number { .. } => FieldValue::Number(number(json)),
        FieldKind::Switch => FieldValue::Switch(json.as_bool().unwrap_or_default()),
        FieldKind::Choice { .. } => {
            FieldValue::Choice(json.as_str().unwrap_or_default().to_string())
        }
        FieldKind::Limits { .. } => FieldValue::Limits(RoadLimits {
            major: number(&json["major"]),
            minor: number(&json["minor"]),
            strait: number(&json["strait"]),
            strait_attacking: number(&json["strait_attacking"]),
        }),
        FieldKind::Cards => FieldValue::Cards(
            json.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|c| c.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        ),
    }
}

/// The fields two rule sets set differently: the field, its value in `a`, in `b`.
pub fn rule_differences(
    a: &RuleSet,
    b: &RuleSet,
) -> Vec<(&'static RuleField, FieldValue, FieldValue)> {
    a.field_values()
        .into_iter()
        .zip(b.field_values())
        .filter(|((_, x), (_, y))| x != y)
        .map(|((f, x), (_, y))| (f, x, y))
        .collect()
}

/// How many rule fields two rule sets differ in (the table of rule fields).
pub fn rule_distance(a: &RuleSet, b: &RuleSet) -> usize {
    rule_differences(a, b).len()
}

/// A rule set's lineage ([`RuleSet::lineage`]: itself, then each rule set
/// its `extends` chain passes through) with the built-in rule sets added,
/// everything after itself ordered by [`rule_distance`] to it, nearest
/// first (the chain's own order among equals): where `best` and `fast`
/// look for a measured player, so that a copy of rules 2.0 with one field
/// changed takes 2.0's players even when it names `extends: "rules-1.1"`.
pub fn nearest_lineage(lineage: Vec<RuleSet>) -> Vec<RuleSet> {
    let mut rest = lineage;
    if rest.is_empty() {
        return rest;
    }
    let own = rest.remove(0);
    for (name, _) in crate::scenario::rules::BUILTIN_VARIANTS {
        let builtin = RuleSet::builtin(name);
        let digest = builtin.play_digest();
        if digest != own.play_digest() && rest.iter().all(|r| r.play_digest() != digest) {
            rest.push(builtin);
        }
    }
    rest.sort_by_key(|r| rule_distance(&own, r));
    rest.insert(0, own);
    rest
}

/// A variant file that `extends` the variant `base` was loaded from and sets
/// only what `rules` changes; loading it gives `rules` back (named `name`).
pub fn variant_file(rules: &RuleSet, name: &str, extends: &str, base: &RuleSet) -> String {
    let mut out = format!(
        "// Made in the workbench from {extends}: only what differs is set.\n(\n    name: {name:?},\n    extends: {extends:?},\n"
    );
    for (field, _, value) in rule_differences(base, rules) {
        out.push_str(&format!("    {}: {value},\n", field.name));
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::rules::{AttackerRetreat, BUILTIN_VARIANTS};

    #[test]
    fn the_nearest_lineage_puts_the_closest_rule_set_first_whatever_extends_says() {
        let mut copy = RuleSet::builtin("rules-2.0");
        copy.name = "my copy".to_string();
        copy.vp_to_win = 9;
        let lineage = vec![copy.clone(), RuleSet::builtin("rules-1.1")];
        let nearest = nearest_lineage(lineage);
        assert_eq!(nearest[0], copy);
        assert_eq!(
            nearest[1].play_digest(),
            RuleSet::builtin("rules-2.0").play_digest()
        );
        assert_eq!(rule_distance(&copy, &nearest[1]), 1);
        assert!(
            nearest
                .iter()
                .skip(1)
                .map(|r| rule_distance(&copy, r))
                .is_sorted(),
            "nearest first"
        );
    }

    #[test]
    fn the_table_lists_every_field_of_the_rule_set_in_its_order() {
        // serde writes fields in declaration order in RON.
        let text = ron::ser::to_string_pretty(
            &RuleSet::builtin("rules-1.1"),
            ron::ser::PrettyConfig::new().depth_limit(1),
        )
        .unwrap();
        let declared: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().split_once(':').map(|(k, _)| k))
            .filter(|k| *k != "name")
            .collect();
        let table: Vec<&str> = RULE_FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(declared, table);
        for f in RULE_FIELDS {
            assert!(!f.rule.is_empty() && !f.explain.is_empty(), "{}", f.name);
        }
    }

    #[test]
    fn every_choice_option_is_a_value_the_rule_set_takes_and_every_builtin_value_is_offered() {
        let rules = RuleSet::builtin("rules-2.0");
        for f in RULE_FIELDS {
            if let FieldKind::Choice { options } = f.kind {
                for option in options {
                    let value = FieldValue::Choice(option.to_string());
                    let changed = rules.with_field(f, &value).unwrap();
                    let now = changed
                        .field_values()
                        .into_iter()
                        .find(|(g, _)| g.name == f.name);
                    assert_eq!(now.unwrap().1, value);
                }
            }
        }
        for (name, _) in BUILTIN_VARIANTS {
            for (f, value) in RuleSet::builtin(name).field_values() {
                match (f.kind, &value) {
                    (FieldKind::Choice { options }, FieldValue::Choice(c)) => {
                        assert!(options.contains(&c.as_str()), "{name}: {}", f.name)
                    }
                    (FieldKind::Number { min, max }, FieldValue::Number(n)) => {
                        assert!(
                            (min..=max).contains(n),
                            "{name}: {} = {n} over {max}",
                            f.name
                        )
                    }
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn the_1_1_and_2_0_differences_are_the_switch_table() {
        let diff = rule_differences(
            &RuleSet::builtin("rules-1.1"),
            &RuleSet::builtin("rules-2.0"),
        );
        let names: Vec<&str> = diff.iter().map(|(f, _, _)| f.name).collect();
        assert_eq!(
            names,
            [
                "caesar_player1_first_turn",
                "apollo_copy_decides_player1",
                "jupiter_navis_at_sea",
                "mars_group_move",
                "mercury_land_only",
                "pluto_attacks_only",
                "vulcan_target",
                "vulcan_spares_cleopatra",
                "main_attack",
                "attacker_retreat",
                "regroup_to_one_city",
            ]
        );
        let (_, in_11, in_20) = &diff[8];
        assert_eq!(
            (in_11.to_string(), in_20.to_string()),
            ("AttackerChooses".into(), "FirstRoadUsed".into())
        );
    }

    #[test]
    fn a_saved_variant_extends_its_base_and_loads_back_equal() {
        let base = RuleSet::builtin("rules-2.0");
        let mut mine = base.clone();
        mine.hand_size = 7;
        mine.road_limits.major = 5;
        mine.removed_cards = vec!["Jupiter".into(), "3/1".into()];
        mine.attacker_retreat = AttackerRetreat::OneCityByAttackRoad;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.ron");
        let text = variant_file(&mine, "Mine", "rules-2.0", &base);
        assert_eq!(text.matches('\n').count(), 9, "{text}");
        assert!(
            text.contains("removed_cards: [\"Jupiter\", \"3/1\"],"),
            "{text}"
        );
        std::fs::write(&path, &text).unwrap();
        let loaded = RuleSet::load(path.to_str().unwrap()).unwrap();
        mine.name = "Mine".into();
        assert_eq!(loaded, mine);
    }

    #[test]
    fn paths_parse_with_parts_and_values_are_checked_against_the_table() {
        let rules = RuleSet::builtin("rules-2.0");
        let path = FieldPath::parse("road_limits.major").unwrap();
        let changed = path.set(&rules, &path.value_of("4").unwrap()).unwrap();
        assert_eq!(changed.road_limits.major, 4);
        assert_eq!(path.get(&changed), Value::from(4));
        assert!(matches!(
            FieldPath::parse("road_limits"),
            Err(FieldError::Compound { .. })
        ));
        assert!(matches!(
            FieldPath::parse("removed_cards"),
            Err(FieldError::NotOneValue { .. })
        ));
        let unknown = FieldPath::parse("vp_to_wim").unwrap_err().to_string();
        assert!(unknown.contains("did you mean \"vp_to_win\""), "{unknown}");
        let vp = FieldPath::parse("vp_to_win").unwrap();
        assert!(
            vp.value_of("51")
                .unwrap_err()
                .to_string()
                .contains("0 to 50")
        );
        assert!(vp.value_of("-1").is_err());
        let attack = FieldPath::parse("main_attack").unwrap();
        assert_eq!(
            attack.value_of("firstroadused").unwrap(),
            Value::from("FirstRoadUsed")
        );
        let wrong = attack.value_of("FirstRoad").unwrap_err().to_string();
        assert!(wrong.contains("did you mean \"FirstRoadUsed\""), "{wrong}");
        let switch = FieldPath::parse("mars_group_move").unwrap();
        assert!(
            switch
                .value_of("yes")
                .unwrap_err()
                .to_string()
                .contains("true or false")
        );
    }
}
