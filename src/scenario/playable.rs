//! What the engine needs of a rule set and a scenario's deck to play every
//! game to the end. This is the one place these requirements are stated:
//! the validator reports each unmet one as an error, and
//! [`crate::engine::Game::try_new`] refuses the same combinations. Anything
//! that passes plays to the end (`tests/rule_set_extremes.rs` plays every
//! field at its smallest and largest accepted value).
//!
//! The map's and roster's own limits (spaces, blocks) are checked where the
//! model is built (`too-many-spaces`, `too-many-blocks`).

use crate::scenario::diagnostics::Code;
use crate::scenario::model::{CardFace, Deck, MAX_DECK_CARDS};
use crate::scenario::rules::RuleSet;

use crate::scenario::rule_fields::minimum;

/// One requirement of the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Requirement {
    /// 1.2: a game has at least one year.
    AtLeastOneYear,
    /// 2.0: a year has at least one game turn.
    AtLeastOneTurn,
    /// 2.1: after the discards each player still holds a card to play.
    CardLeftAfterDiscards,
    /// 2.1: the deck (less any removed cards) deals both hands.
    DeckDealsBothHands,
    /// The deck fits the engine ([`MAX_DECK_CARDS`]).
    DeckFitsEngine,
    /// 7.2, 7.6: see [`crate::scenario::rule_fields::MIN_BATTLE_ROUNDS`].
    RetreatRoundExists,
    /// House rule: with a cap on events per hand, enough command cards
    /// remain to fill both hands.
    EventCapDealable,
    /// Every number within the range of the one table of rule fields
    /// ([`crate::scenario::rule_fields`]).
    FieldsInRange,
}

impl Requirement {
    pub const ALL: [Requirement; 8] = [
        Requirement::AtLeastOneYear,
        Requirement::AtLeastOneTurn,
        Requirement::CardLeftAfterDiscards,
        Requirement::DeckDealsBothHands,
        Requirement::DeckFitsEngine,
        Requirement::RetreatRoundExists,
        Requirement::EventCapDealable,
        Requirement::FieldsInRange,
    ];

    /// The validator's code for an unmet requirement (listed in `docs/formats.md`).
    pub fn code(self) -> Code {
        match self {
            Requirement::AtLeastOneYear => Code::NoYears,
            Requirement::AtLeastOneTurn => Code::NoTurns,
            Requirement::CardLeftAfterDiscards => Code::NoCardToPlay,
            Requirement::DeckDealsBothHands => Code::DeckTooSmall,
            Requirement::DeckFitsEngine => Code::DeckTooLarge,
            Requirement::RetreatRoundExists => Code::TooFewBattleRounds,
            Requirement::EventCapDealable => Code::EventCapUndealable,
            Requirement::FieldsInRange => Code::RuleOutOfRange,
        }
    }

    /// The rule-set fields the requirement is about, most telling first
    /// (a variant file's error points at the first one it sets).
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            Requirement::AtLeastOneYear => &["years"],
            Requirement::AtLeastOneTurn => &["turns_per_year"],
            Requirement::CardLeftAfterDiscards => &["discards", "hand_size"],
            Requirement::DeckDealsBothHands => &["hand_size", "removed_cards"],
            Requirement::DeckFitsEngine => &[],
            Requirement::RetreatRoundExists => &["battle_rounds"],
            Requirement::EventCapDealable => &["max_events_per_hand", "hand_size"],
            Requirement::FieldsInRange => &[],
        }
    }

    /// Whether the unmet requirement is about the deck file (rather than only
    /// the rule set), so the validator can point at the deck.
    pub(crate) fn concerns_deck(self) -> bool {
        matches!(
            self,
            Requirement::DeckDealsBothHands
                | Requirement::DeckFitsEngine
                | Requirement::EventCapDealable
        )
    }
}

/// An unmet requirement, with what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplayable {
    pub requirement: Requirement,
    pub message: String,
}

impl std::fmt::Display for Unplayable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] {}", self.requirement.code(), self.message)
    }
}

/// The cards a game is dealt from: the deck less the rule set's removals
/// (names that match no card are the validator's to report).
pub fn cards_in_play(deck: &Deck, rules: &RuleSet) -> Vec<u8> {
    deck.without(&rules.removed_cards).0
}

/// Every requirement `rules` and `deck` leave unmet; empty when the engine
/// can play them.
pub fn check(deck: &Deck, rules: &RuleSet) -> Vec<Unplayable> {
    let mut out = Vec::new();
    let mut fail = |requirement, message: String| {
        out.push(Unplayable {
            requirement,
            message,
        })
    };
    for message in crate::scenario::rule_fields::out_of_range(rules) {
        fail(Requirement::FieldsInRange, message);
    }
    let name = &rules.name;
    // The minimums are the rule table's, which the Rules tab offers.
    if rules.years < minimum("years") {
        fail(
            Requirement::AtLeastOneYear,
            format!("{name}: years is 0; a game lasts at least one year (1.2)"),
        );
    }
    if rules.turns_per_year < minimum("turns_per_year") {
        fail(
            Requirement::AtLeastOneTurn,
            format!("{name}: turns_per_year is 0; a year has at least one game turn (2.0)"),
        );
    }
    if rules.discards >= rules.hand_size {
        fail(
            Requirement::CardLeftAfterDiscards,
            format!(
                "{name}: hand_size {} with discards {} leaves no card to play; \
                 hand_size must exceed discards (2.1)",
                rules.hand_size, rules.discards
            ),
        );
    }
    let min_rounds = minimum("battle_rounds");
    if rules.battle_rounds < min_rounds {
        fail(
            Requirement::RetreatRoundExists,
            format!(
                "{name}: battle_rounds is {}; blocks may not retreat in round 1 (7.6) but \
                 attackers must retreat in the last round (7.2), so battles need at least \
                 {min_rounds} rounds",
                rules.battle_rounds
            ),
        );
    }
    if deck.cards.len() > MAX_DECK_CARDS {
        fail(
            Requirement::DeckFitsEngine,
            format!(
                "the deck has {} cards; the engine plays decks of at most {MAX_DECK_CARDS}",
                deck.cards.len()
            ),
        );
    }
    let cards = cards_in_play(deck, rules);
    let hand = rules.hand_size as usize;
    let needed = 2 * hand;
    if cards.len() < needed {
        let removed = deck.cards.len() - cards.len();
        fail(
            Requirement::DeckDealsBothHands,
            if removed == 0 {
                format!(
                    "the deck has {} cards; dealing {hand} to each player (2.1, {name}) needs {needed}",
                    cards.len()
                )
            } else {
                format!(
                    "{name} removes {removed} cards and leaves {}; dealing {hand} to each \
                     player (2.1) needs {needed}",
                    cards.len()
                )
            },
        );
    } else {
        let cap = rules.max_events_per_hand as usize;
        let commands = cards
            .iter()
            .filter(|&&c| matches!(deck.cards[c as usize].face, CardFace::Command { .. }))
            .count();
        if cap < hand && commands < 2 * (hand - cap) {
            fail(
                Requirement::EventCapDealable,
                format!(
                    "{name}: at most {cap} events per hand of {hand} needs {} command cards \
                     for the two hands; the deck has {commands}",
                    2 * (hand - cap)
                ),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> Deck {
        crate::scenario::validate::validate(
            &crate::scenario::historical(),
            &RuleSet::builtin(crate::scenario::rules::DEFAULT_VARIANT),
        )
        .scenario
        .deck
    }

    fn unmet(rules: &RuleSet) -> Vec<Requirement> {
        check(&deck(), rules)
            .into_iter()
            .map(|u| u.requirement)
            .collect()
    }

    #[test]
    fn the_builtin_rule_sets_are_playable() {
        for (name, _) in crate::scenario::rules::BUILTIN_VARIANTS {
            assert_eq!(unmet(&RuleSet::builtin(name)), vec![], "{name}");
        }
    }

    #[test]
    fn rule_7_2_one_battle_round_leaves_no_round_to_retreat_in() {
        let mut rules = RuleSet::builtin("rules-2.0");
        for rounds in [0, 1] {
            rules.battle_rounds = rounds;
            assert_eq!(unmet(&rules), vec![Requirement::RetreatRoundExists]);
        }
        rules.battle_rounds = 2;
        assert_eq!(unmet(&rules), vec![]);
    }

    #[test]
    fn rule_2_1_discarding_the_whole_hand_is_refused() {
        let mut rules = RuleSet::builtin("rules-2.0");
        for (hand, discards) in [(6, 6), (6, 7), (0, 0), (1, 1)] {
            rules.hand_size = hand;
            rules.discards = discards;
            assert!(
                unmet(&rules).contains(&Requirement::CardLeftAfterDiscards),
                "hand {hand}, discards {discards}"
            );
        }
        rules.hand_size = 1;
        rules.discards = 0;
        assert_eq!(unmet(&rules), vec![]);
    }

    #[test]
    fn rule_1_2_zero_years_or_turns_is_refused() {
        let mut rules = RuleSet::builtin("rules-2.0");
        rules.years = 0;
        rules.turns_per_year = 0;
        assert_eq!(
            unmet(&rules),
            vec![Requirement::AtLeastOneYear, Requirement::AtLeastOneTurn]
        );
    }

    #[test]
    fn an_event_cap_the_commands_cannot_fill_is_refused() {
        // The published deck: 7 events and 20 commands.
        let mut rules = RuleSet::builtin("rules-2.0");
        rules.hand_size = 10;
        rules.max_events_per_hand = 0;
        assert_eq!(unmet(&rules), vec![]);
        rules.hand_size = 11;
        assert_eq!(unmet(&rules), vec![Requirement::EventCapDealable]);
        rules.max_events_per_hand = 1;
        assert_eq!(unmet(&rules), vec![]);
    }

    #[test]
    fn every_minimum_of_the_rule_table_is_a_requirement_refused_below_it() {
        use crate::scenario::rule_fields::{FieldKind, RULE_FIELDS};
        for field in RULE_FIELDS {
            let FieldKind::Number { min, .. } = field.kind else {
                continue;
            };
            if min == 0 {
                continue;
            }
            let mut rules = RuleSet::builtin("rules-2.0");
            let below = rules
                .with_field(
                    field,
                    &crate::scenario::rule_fields::FieldValue::Number(min - 1),
                )
                .unwrap();
            let refused = unmet(&below);
            assert!(
                refused.iter().any(|r| r.fields().contains(&field.name)),
                "{} = {} is refused by no requirement: {refused:?}",
                field.name,
                min - 1
            );
            rules = rules
                .with_field(
                    field,
                    &crate::scenario::rule_fields::FieldValue::Number(min),
                )
                .unwrap();
            assert_eq!(unmet(&rules), vec![], "{} = {min}", field.name);
        }
    }

    #[test]
    fn every_requirement_has_its_own_code() {
        let codes: std::collections::HashSet<_> =
            Requirement::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(codes.len(), Requirement::ALL.len());
    }
}
