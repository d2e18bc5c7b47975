//! Rule sets as data: every difference between the 1.1 and 2.0 rulebooks is a
//! named switch, and every number a designer might change is a field.
//!
//! A variant file may `extends` another and set only what it changes; the
//! fields it sets are checked (unknown fields are errors with file:line:column).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::scenario::format::{Builtins, Chained, LoadError, load_builtin_chain, load_chain};

/// Per-player, per-turn block limits on one road (6.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoadLimits {
    pub major: u8,
    pub minor: u8,
    pub strait: u8,
    /// 4.32: one land block when the city across the strait is defended.
    pub strait_attacking: u8,
}

/// 6.12 / 7.3: which road of a multi-road attack is the main attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MainAttack {
    /// 1.1: the attacker declares it.
    AttackerChooses,
    /// 2.0: the first road or border used.
    FirstRoadUsed,
}

/// Vulcan: which city may be designated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum VulcanTarget {
    /// 1.1: any city.
    AnyCity,
    /// 2.0: an enemy city.
    EnemyCity,
}

/// 7.62: where attacking blocks may retreat to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackerRetreat {
    /// 1.1: one adjacent vacant city by a road used to attack, or friendly cities.
    OneCityByAttackRoad,
    /// 2.0: any adjacent vacant cities by roads used, or friendly cities; blocks may split.
    AnyCitiesByAttackRoads,
}

/// Apollo on the first turn of a year: what "last turn's card" is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ApolloFirstTurn {
    /// Apollo copies nothing on a year's first turn: no moves or levies, but
    /// its player is Player 1 as an event player.
    NoEffect,
    /// Apollo copies the opponent's last card of the previous year.
    CopiesPreviousYear,
}

/// Where a block that defects to the Jupiter player goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum JupiterDefection {
    /// It changes sides where it stands; its city becomes contested (a battle).
    InPlace,
    /// It moves to the adjacent friendly city of the card's player.
    ToAdjacentFriendlyCity,
}

/// The one list of rule-set fields, in the order `RuleSet` declares them:
/// each field's docs, name and type, then the rule it implements, what it
/// decides in one line and the kind of value it takes with its range (the
/// kinds are [`crate::scenario::rule_fields`]'s). It hands the list to
/// `$then`: [`rule_set!`] makes `RuleSet` and `RuleSetPatch` from it, and
/// `rule_fields` its table `RULE_FIELDS`, so the two cannot disagree.
macro_rules! with_rule_fields {
    ($then:ident) => {
        $then! {
            /// 1.2: years in a game.
            years: u8 => ("1.2", "Years in a game.", number_from(AT_LEAST_ONE, 20)),
            /// 2.0: game turns (cards played) per year.
            turns_per_year: u8 => ("2.0", "Game turns (cards played) per year.", number_from(AT_LEAST_ONE, 20)),
            /// 2.1: cards dealt to each player each year.
            hand_size: u8 => ("2.1", "Cards dealt to each player each year.", number(MAX_HAND)),
            /// 2.1: cards each player discards unseen.
            discards: u8 => ("2.1", "Cards each player discards unseen.", number(MAX_HAND)),
            /// 1.2: VP needed to win after a year.
            vp_to_win: u8 => ("1.2", "VP that win the game after a year.", number(50)),
            /// 7.51: VP for each enemy leader killed.
            vp_per_leader_killed: u8 => ("7.51", "VP for each enemy leader killed.", number(10)),
            /// 6.11 road limits.
            road_limits: RoadLimits => ("6.11, 4.32", "Blocks per player per turn on a major road, minor road, strait, and a strait into a defended city.", LIMITS),
            /// 7.61: land blocks per battle round across a strait.
            strait_retreat_limit: u8 => ("7.61", "Land blocks per battle round that may retreat across a strait.", number(20)),
            /// 7.64: land blocks per player per battle round retreating by sea.
            sea_retreat_limit: u8 => ("7.64", "Land blocks per side per battle round that may retreat by sea.", number(20)),
            /// 7.2: battle rounds; the attacker retreats in the last.
            battle_rounds: u8 => ("7.2", "Battle rounds; the attacker retreats in the last.", number_from(MIN_BATTLE_ROUNDS, MAX_BATTLE_ROUNDS)),
            /// 8.4: blocks any city supplies in winter, before adding its VP value.
            winter_supply_base: u8 => ("8.4", "Blocks every city supplies in winter, before adding its VP.", number(20)),
            /// 2.1 (2.0): Caesar is Player 1 on the first turn of the game.
            caesar_player1_first_turn: bool => ("2.1", "2.0: Caesar is Player 1 on the game's first turn, whatever the cards.", SWITCH),
            /// Apollo (2.0): the copied card decides Player 1 (1.1: the Apollo player is Player 1).
            apollo_copy_decides_player1: bool => ("Apollo", "2.0: the copied card decides Player 1 (1.1: the Apollo player is).", SWITCH),
            /// Apollo on a year's first turn.
            apollo_first_turn: ApolloFirstTurn => ("Apollo", "What Apollo copies on a year's first turn.", FieldKind::Choice { options: &["NoEffect", "CopiesPreviousYear"] }),
            /// Jupiter (1.1): a navis at sea may be taken.
            jupiter_navis_at_sea: bool => ("Jupiter", "1.1: a Navis at sea may be taken.", SWITCH),
            /// Jupiter (2.0): Cleopatra may defect.
            jupiter_cleopatra_defects: bool => ("Jupiter", "Cleopatra may defect (both texts).", SWITCH),
            /// Jupiter: where the defected block goes.
            jupiter_defection: JupiterDefection => ("Jupiter", "Where a defecting block goes: it stays, or moves to a friendly city.", FieldKind::Choice { options: &["InPlace", "ToAdjacentFriendlyCity"] }),
            /// Mars (2.0): the card also gives one group move (land units).
            mars_group_move: bool => ("Mars, Neptune", "2.0: the card also gives one group move.", SWITCH),
            /// Mercury (2.0): only land blocks take the extra move.
            mercury_land_only: bool => ("Mercury", "2.0: only land blocks take the extra move.", SWITCH),
            /// Pluto (2.0): raised limits apply to attacks only, land units only.
            pluto_attacks_only: bool => ("Pluto", "2.0: raised limits for attacks only, land units only.", SWITCH),
            /// Pluto's raised road limits.
            pluto_road_limits: RoadLimits => ("Pluto", "Pluto's raised road limits.", LIMITS),
            /// Vulcan's target city.
            vulcan_target: VulcanTarget => ("Vulcan", "1.1: any city; 2.0: an enemy city.", FieldKind::Choice { options: &["AnyCity", "EnemyCity"] }),
            /// Vulcan (2.0): Cleopatra at strength I is not reduced.
            vulcan_spares_cleopatra: bool => ("Vulcan", "2.0: Cleopatra at strength I is not reduced.", SWITCH),
            /// 6.12 / 7.3 main attack.
            main_attack: MainAttack => ("6.12, 7.3", "1.1: the attacker declares the main attack; 2.0: the first road used.", FieldKind::Choice { options: &["AttackerChooses", "FirstRoadUsed"] }),
            /// 6.4: blocks that moved may take steps in a friendly city (both texts;
            /// `false` is a house rule).
            levy_on_moved_blocks: bool => ("6.4", "Blocks that moved may take steps in a friendly city (both texts).", SWITCH),
            /// Tournament bid: extra levy points for Caesar's first levy of
            /// the game (his first command card's levy), spent then or lost;
            /// 0 in both rulebooks.
            #[serde(default)]
            caesar_first_levy_bonus: u8 => ("Bid", "Tournament bid: extra levy points for Caesar's first levy of the game (spent then or lost).", number(MAX_BID)),
            /// Tournament bid: extra levy points for Pompey's first levy.
            #[serde(default)]
            pompey_first_levy_bonus: u8 => ("Bid", "Tournament bid: extra levy points for Pompey's first levy of the game (spent then or lost).", number(MAX_BID)),
            /// 7.31 (2.0): defending reserves are disrupted too.
            disrupt_defending_reserves: bool => ("7.31", "Defending reserves are disrupted too.", SWITCH),
            /// 7.62 attacker retreat destinations.
            attacker_retreat: AttackerRetreat => ("7.62", "1.1: retreating attackers go to one vacant city; 2.0: to any, splitting.", FieldKind::Choice { options: &["OneCityByAttackRoad", "AnyCitiesByAttackRoads"] }),
            /// 7.7 (1.1): the victor's blocks regroup to one adjacent city, not several.
            regroup_to_one_city: bool => ("7.7", "1.1: the victor regroups to one adjacent city; 2.0: to any, splitting.", SWITCH),
            /// House rule: cards removed from the deck, by name ("Jupiter", "3/1").
            removed_cards: Vec<String> => ("House rule", "Cards taken out of the deck: events by name, commands as \"3/1\".", FieldKind::Cards),
            /// House rule: at most this many event cards in a hand (redealt otherwise);
            /// a value of at least `hand_size` means no cap.
            max_events_per_hand: u8 => ("House rule", "At most this many events in a hand (redealt otherwise); hand size or more means no cap.", number(MAX_HAND)),
        }
    };
}
pub(crate) use with_rule_fields;

/// `RuleSet` and `RuleSetPatch` from [`with_rule_fields!`]'s list (the
/// rule, explanation and kind are `rule_fields`').
macro_rules! rule_set {
    ($( $(#[$doc:meta])* $field:ident : $ty:ty => ($rule:literal, $explain:literal, $kind:expr) ),* $(,)?) => {
        /// A complete rule set. Load one with [`RuleSet::load`] or [`RuleSet::builtin`].
        /// (Deserialize is for whole rule sets as `Serialize` writes them,
        /// e.g. a sweep's changed copy; variant files go through the patch.)
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub struct RuleSet {
            pub name: String,
            $( $(#[$doc])* pub $field: $ty, )*
        }

        /// A variant file: every field optional, applied over what it extends.
        #[derive(Debug, Clone, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct RuleSetPatch {
            #[serde(default)]
            pub name: Option<String>,
            #[serde(default)]
            pub extends: Option<String>,
            $( #[serde(default)] pub $field: Option<$ty>, )*
        }

        impl RuleSetPatch {
            /// Applies `self` over `base`.
            fn apply(self, mut base: RuleSet) -> RuleSet {
                if let Some(v) = self.name { base.name = v; }
                $( if let Some(v) = self.$field { base.$field = v; } )*
                base
            }
            /// A complete rule set, or the first field the chain never set.
            fn complete(self) -> Result<RuleSet, &'static str> {
                Ok(RuleSet {
                    name: self.name.unwrap_or_default(),
                    $( $field: self.$field.ok_or(stringify!($field))?, )*
                })
            }
        }
    };
}

with_rule_fields!(rule_set);

/// The variant files shipped in `variants/`, built into the binary.
pub const BUILTIN_VARIANTS: &[(&str, &str)] = &[
    ("rules-1.1", include_str!("../../variants/rules-1.1.ron")),
    ("rules-2.0", include_str!("../../variants/rules-2.0.ron")),
    (
        "rules-2.0-no-first-turn-exception",
        include_str!("../../variants/rules-2.0-no-first-turn-exception.ron"),
    ),
    (
        "house-2.0-max-2-events",
        include_str!("../../variants/house-2.0-max-2-events.ron"),
    ),
];

pub const DEFAULT_VARIANT: &str = "rules-2.0";

/// The variants built into the program, for `extends` and `--variant`.
const BUILTINS: Builtins = Builtins {
    what: "variant",
    files: BUILTIN_VARIANTS,
    path: |name| PathBuf::from(format!("variants/{name}.ron")),
};

/// Whether `spec` is a built-in variant's bare name: no folder and no
/// `.ron`. Only such a name means a built-in; anything else is a path, read
/// from disk or refused as missing, never a built-in of the same stem.
pub fn is_bare_name(spec: &str) -> bool {
    !spec.contains(['/', '\\']) && !spec.ends_with(".ron")
}

/// Reads the variant the user named and every variant it extends (the
/// shared `extends` resolver, [`crate::scenario::format::load_chain`]): a
/// bare name ([`is_bare_name`]) is the built-in variant of that name, else
/// a file (`spec`, then `spec.ron`); a path that names no file is an error.
fn variant_chain(spec: &str) -> Result<Vec<Chained<RuleSetPatch>>, LoadError> {
    fn extends(p: &RuleSetPatch) -> Option<&str> {
        p.extends.as_deref()
    }
    let bare = is_bare_name(spec);
    if bare && let Some(chain) = load_builtin_chain(spec, &BUILTINS, extends) {
        return chain;
    }
    let as_path = PathBuf::from(spec);
    let mut with_ext = as_path.clone().into_os_string();
    with_ext.push(".ron");
    for path in [as_path.clone(), PathBuf::from(with_ext)] {
        // Anything that exists and is no folder is read (a device too, so
        // `/dev/zero` says it is too large rather than that it is missing).
        if path.exists() && !path.is_dir() {
            return load_chain(&path, &BUILTINS, extends);
        }
    }
    let stem = spec.strip_suffix(".ron").unwrap_or(spec);
    let reason = if bare {
        format!(
            "no such variant file, and no built-in variant named \"{stem}\"{}",
            crate::scenario::names::did_you_mean(stem, BUILTIN_VARIANTS.iter().map(|(n, _)| *n))
        )
    } else {
        let builtin = Path::new(stem)
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| BUILTIN_VARIANTS.iter().any(|(b, _)| b == n));
        match builtin {
            // A path is never taken for the built-in of its stem: the user
            // may have meant an edited copy.
            Some(name) => format!(
                "no such variant file (a path is read from disk only; the built-in variant is `--variant {name}`)"
            ),
            None => "no such variant file".to_string(),
        }
    };
    Err(LoadError::Read(crate::files::ReadError::Io {
        path: as_path,
        source: std::io::Error::new(std::io::ErrorKind::NotFound, reason),
    }))
}

/// Where the variant `spec` sets one of `fields`: in the first file of its
/// `extends` chain that writes any of them (the file itself, else what it
/// extends), at the first of them that file writes.
pub(crate) fn locate_fields(
    spec: &str,
    fields: &[&str],
) -> Option<crate::scenario::format::Location> {
    let chain = variant_chain(spec).ok()?;
    chain.iter().find_map(|file| {
        let index = crate::scenario::format::SourceIndex::new(&file.text);
        let offset = fields.iter().find_map(|field| index.label(field))?;
        let (line, column) = index.line_column(&file.text, offset);
        Some(crate::scenario::format::Location {
            file: file.path.clone(),
            line,
            column,
        })
    })
}

impl RuleSet {
    /// Loads a variant by path or built-in name, following `extends`.
    pub fn load(spec: &str) -> Result<RuleSet, LoadError> {
        let mut patches = variant_chain(spec)?;
        let root = patches.pop().expect("a chain holds at least one file");
        let mut rules = root.doc.complete().map_err(|field| LoadError::Parse {
            location: crate::scenario::format::Location {
                file: root.path,
                line: 1,
                column: 1,
            },
            message: format!(
                "field `{field}` is not set, and the variant extends no other variant to take it from"
            ),
        })?;
        while let Some(patch) = patches.pop() {
            rules = patch.doc.apply(rules);
        }
        Ok(rules)
    }

    /// The rule set `spec` names, then each rule set its `extends` chain
    /// passes through, nearest first (`house-2.0-max-2-events`, `rules-2.0`,
    /// `rules-1.1`): where `best` looks for a measured player.
    pub fn lineage(spec: &str) -> Result<Vec<RuleSet>, LoadError> {
        let chain = variant_chain(spec)?;
        let mut lineage = Vec::new();
        for start in 0..chain.len() {
            let mut patches: Vec<RuleSetPatch> =
                chain[start..].iter().map(|c| c.doc.clone()).collect();
            let root = patches.pop().expect("a chain holds at least one file");
            // A chain that sets every field only at its root: the ancestors
            // above a file that does not complete the set are skipped.
            let Ok(mut rules) = root.complete() else {
                continue;
            };
            while let Some(patch) = patches.pop() {
                rules = patch.apply(rules);
            }
            lineage.push(rules);
        }
        Ok(lineage)
    }

    /// The canonical text of the rule set: every rule (after `extends`) and
    /// its name, as one compact RON document.
    pub(crate) fn canonical_text(&self) -> String {
        let text = ron::to_string(self).unwrap_or_else(|e| format!("unserialisable rule set: {e}"));
        // The tournament bid joined the rule set later: at 0 (both
        // rulebooks) it is left out, so every digest made before it holds.
        text.replace(",caesar_first_levy_bonus:0,", ",")
            .replace(",pompey_first_levy_bonus:0,", ",")
    }

    /// `side`'s tournament bid: extra levy points at its first levy.
    pub fn first_levy_bonus(&self, side: crate::scenario::model::Side) -> u8 {
        match side {
            crate::scenario::model::Side::Caesar => self.caesar_first_levy_bonus,
            crate::scenario::model::Side::Pompey => self.pompey_first_levy_bonus,
        }
    }

    /// [`crate::scenario::format::digest_text`] of [`RuleSet::canonical_text`]: what
    /// game records and reports name the rule set by.
    pub fn digest(&self) -> String {
        crate::scenario::format::digest_text(&self.canonical_text())
    }

    /// The digest of what is played: every rule, not the name. Two rule
    /// sets with this digest play the same games (a copy of `rules-2.0`
    /// under another name is `rules-2.0`): compare, ladder and the ratings
    /// tell rule sets apart by it.
    pub fn play_digest(&self) -> String {
        let unnamed = RuleSet {
            name: String::new(),
            ..self.clone()
        };
        unnamed.digest()
    }

    /// A built-in variant by name; panics only if the shipped files are broken,
    /// which the test suite rules out.
    pub fn builtin(name: &str) -> RuleSet {
        RuleSet::load(name).unwrap_or_else(|e| panic!("built-in variant {name}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_variant_loads() {
        for (name, _) in BUILTIN_VARIANTS {
            let rules = RuleSet::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!rules.name.is_empty(), "{name} has a name");
        }
    }

    #[test]
    fn rule_2_1_first_turn_exception_differs_between_versions() {
        assert!(!RuleSet::builtin("rules-1.1").caesar_player1_first_turn);
        assert!(RuleSet::builtin("rules-2.0").caesar_player1_first_turn);
        assert!(!RuleSet::builtin("rules-2.0-no-first-turn-exception").caesar_player1_first_turn);
    }

    #[test]
    fn a_variant_overrides_only_what_it_sets() {
        let base = RuleSet::builtin("rules-2.0");
        let house = RuleSet::builtin("house-2.0-max-2-events");
        assert_eq!(house.max_events_per_hand, 2);
        assert_eq!(house.road_limits, base.road_limits);
        assert_eq!(house.main_attack, base.main_attack);
    }

    #[test]
    fn misspelled_field_is_reported_with_position_and_suggestion() {
        let (_dir, path) = crate::test_support::temp_file(
            "bad.ron",
            "(\n    extends: \"rules-2.0\",\n    hand_sise: 7,\n)\n",
        );
        let err = RuleSet::load(path.to_str().unwrap()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("bad.ron:3:"), "{text}");
        assert!(text.contains("hand_size"), "{text}");
    }

    #[test]
    fn unknown_variant_name_suggests_nearest() {
        let err = RuleSet::load("rules-2.1").unwrap_err().to_string();
        assert!(err.contains("did you mean"), "{err}");
    }
}
