//! What a card does, in words, under the rule set in play: the hover text
//! of a card in the Play tab. A command card's "4/1" is its moves and levy
//! points (2.1); an event card's text follows the rulebook the rule set
//! takes each switch from (1.1 and 2.0 differ), so a variant that mixes
//! them reads as it plays.

use crate::engine::Game;
use crate::scenario::kinds::Event;
use crate::scenario::model::CardFace;
use crate::scenario::rules::{ApolloFirstTurn, JupiterDefection, RuleSet, VulcanTarget};

/// The words for the card at deck index `card`.
pub(super) fn card_help(game: &Game, card: u8) -> String {
    match game.card(card) {
        CardFace::Command { moves, levy } => command_help(moves, levy),
        CardFace::Event(e) => format!(
            "{}\n\n{}",
            event_help(e, &game.rules),
            "An event card: its player is Player 1 this turn; if both sides play one, both are cancelled and the turn ends (2.1)."
        ),
    }
}

/// "4/1": moves and levy points.
pub(super) fn command_help(moves: u8, levy: u8) -> String {
    let plural = |n: u8, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    format!(
        "Command card {moves}/{levy}: {} and {}.\n\n\
         The first number is moves: each move takes one group (any or all blocks in one place) along the roads (2.2, 6.0). \
         The second is levy points: each adds a step to a block or brings a new block from the levy pool into a friendly city (2.3, 6.4). \
         Unused points are lost. The higher move number makes its player Player 1 this turn; on a tie Caesar is Player 1.",
        plural(moves, "move", "moves"),
        plural(levy, "levy point", "levy points"),
    )
}

/// An event's text as the rule set plays it.
pub(super) fn event_help(event: Event, rules: &RuleSet) -> String {
    match event {
        // Each text is the event's words, then the words of each switch
        // of the rule set that changes it.
        Event::Apollo => [
            "Apollo: copy the card your opponent played last turn; a copied event is that event exactly.",
            if rules.apollo_copy_decides_player1 {
                " The copied card decides who is Player 1 (2.0); a copied event does not cancel the turn."
            } else {
                " The Apollo player is Player 1 (1.1)."
            },
            match rules.apollo_first_turn {
                ApolloFirstTurn::NoEffect => {
                    " On a year's first turn there is nothing to copy: no moves or levies."
                }
                ApolloFirstTurn::CopiesPreviousYear => {
                    " On a year's first turn it copies the opponent's last card of the previous year."
                }
            },
        ]
        .concat(),
        Event::Jupiter => [
            "Jupiter: one enemy block in a city next to a friendly city defects to you (the block is picked by a die roll). A leader or navis does not defect: it is revealed and loses a step.",
            if rules.jupiter_navis_at_sea {
                " A navis at sea may be chosen (1.1)."
            } else {
                ""
            },
            if rules.jupiter_cleopatra_defects {
                " Cleopatra is no leader and may defect."
            } else {
                " Cleopatra does not defect."
            },
            match rules.jupiter_defection {
                JupiterDefection::InPlace => {
                    " The block changes sides where it stands: its city is contested (a battle)."
                }
                JupiterDefection::ToAdjacentFriendlyCity => {
                    " The block moves to your adjacent friendly city."
                }
            },
        ]
        .concat(),
        Event::Mars => {
            let mut t = String::from("Mars: ");
            if rules.mars_group_move {
                t.push_str("make 1 group move (land blocks only) and choose 1 battle: ");
            } else {
                t.push_str("in one battle ");
            }
            t.push_str(
                "in its first round all attacking blocks fire before any defending block (a surprise attack). \
                 The defender may then fire twice in a row (last in round 1, first in round 2).",
            );
            t
        }
        Event::Mercury => format!(
            "Mercury: the {}blocks of one group move one city further than their limit; they may split and use the bonus or not.",
            if rules.mercury_land_only { "land " } else { "" }
        ),
        Event::Neptune => "Neptune: a Mars for ships: in one sea battle or shore attack, all attacking blocks fire first in round 1.".to_string(),
        Event::Pluto => {
            let l = rules.pluto_road_limits;
            format!(
                "Pluto: road limits are raised (major {}, minor {}, strait {}) for one group move{}; not for regroups or retreats.",
                l.major,
                l.minor,
                l.strait,
                if rules.pluto_attacks_only {
                    ", for attacks only and land blocks only (2.0)"
                } else {
                    ""
                }
            )
        }
        Event::Vulcan => {
            let mut t = format!(
                "Vulcan: every block in {} loses one step; blocks at strength I, leaders and navis too, are eliminated.",
                match rules.vulcan_target {
                    VulcanTarget::AnyCity => "one city you name (1.1: any city)",
                    VulcanTarget::EnemyCity => "one enemy city you name",
                }
            );
            if rules.vulcan_spares_cleopatra {
                t.push_str(" Exception: Cleopatra at strength I is not reduced (2.0).");
            }
            t
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_rulebooks_read_differently_where_they_differ() {
        let old = RuleSet::builtin("rules-1.1");
        let new = RuleSet::builtin("rules-2.0");
        for e in [Event::Apollo, Event::Mars, Event::Vulcan] {
            assert_ne!(event_help(e, &old), event_help(e, &new), "{e:?}");
        }
        assert!(event_help(Event::Mars, &new).contains("group move"));
        assert!(!event_help(Event::Mars, &old).contains("group move"));
        assert!(command_help(4, 1).contains("4 moves and 1 levy point"));
    }
}
