//! Chance as outcomes, after OpenSpiel's chance nodes. Every die the
//! engine rolls goes through one door, the state's `Dice` (`dice.rs`): the
//! next scripted die if there is one, else the seeded stream's. Before an action
//! that rolls, [`State::chance_request`] says what it will roll, and
//! [`ChanceRequest::outcomes`] lists every outcome the rules tell apart,
//! with its probability and the dice that produce it. So three sources
//! answer the engine the same way: the seeded stream (games), a script
//! (tests and positions state their dice), and an enumerator (exact odds
//! walk the engine's own code over every outcome, `sim::questions::odds`).
//!
//! Card shuffles are drawn from the seeded stream only: no caller
//! enumerates deals.

use super::{Action, Game, State};
use crate::scenario::model::BlockId;

/// What applying an action is about to ask chance for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChanceRequest {
    /// 7.3 / 7.4: `dice` dice, each a hit when it shows `hit_max` or less.
    Fire {
        block: BlockId,
        dice: u8,
        hit_max: u8,
    },
    /// 2.0 Jupiter (1.1's pick among look-alike blocks is modelled the same
    /// way): one of `among` equally likely choices, by the dice.
    Pick { among: u8 },
}

/// One outcome the rules tell apart: the dice that produce it, and how
/// likely it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ChanceOutcome {
    /// Scripted in order (see [`State::set_dice`]) they produce the outcome.
    pub dice: Vec<u8>,
    pub probability: f64,
}

impl ChanceRequest {
    /// Every outcome the rules tell apart, probabilities summing to 1. A
    /// fire's outcomes are its number of hits (which dice hit does not
    /// matter: 7.4 applies hits one at a time to the strongest block); a
    /// pick's are its choices.
    pub fn outcomes(&self) -> Vec<ChanceOutcome> {
        match *self {
            ChanceRequest::Fire { dice, hit_max, .. } => {
                let hit_max = hit_max.min(6);
                let p = f64::from(hit_max) / 6.0;
                (0..=dice)
                    .filter(|&hits| (hit_max > 0 || hits == 0) && (hit_max < 6 || hits == dice))
                    .map(|hits| {
                        let mut rolls = vec![1u8; hits as usize];
                        rolls.resize(dice as usize, 6);
                        ChanceOutcome {
                            dice: rolls,
                            probability: binomial(dice, hits, p),
                        }
                    })
                    .collect()
            }
            ChanceRequest::Pick { among } => {
                let among = usize::from(among.max(1));
                let p = 1.0 / among as f64;
                (0..among)
                    .map(|choice| ChanceOutcome {
                        dice: pick_dice(choice, among),
                        probability: p,
                    })
                    .collect()
            }
        }
    }
}

/// P(exactly `k` successes in `n` trials of probability `p`).
fn binomial(n: u8, k: u8, p: f64) -> f64 {
    let mut ways = 1.0;
    for i in 0..k {
        ways = ways * f64::from(n - i) / f64::from(i + 1);
    }
    ways * p.powi(i32::from(k)) * (1.0 - p).powi(i32::from(n - k))
}

/// Dice that make [`roll_among_with`] choose `choice` of `among`: the
/// first face (or pair of faces, …) of the choice's share.
fn pick_dice(choice: usize, among: usize) -> Vec<u8> {
    let mut faces = 1usize;
    let mut count = 0;
    while faces < among {
        faces *= 6;
        count += 1;
    }
    let mut value = choice * (faces / among);
    let mut dice = vec![0u8; count];
    for d in dice.iter_mut().rev() {
        *d = (value % 6) as u8 + 1;
        value /= 6;
    }
    dice
}

impl State {
    /// Replaces the chance stream: the same position with different future
    /// dice and shuffles (for search playouts).
    pub fn reseed(&mut self, seed: u64) {
        self.dice.reseed(seed);
    }

    /// How much chance has been drawn so far: the stream's position and the
    /// scripted dice left. Equal before and after an action when the action
    /// rolled no die and shuffled nothing.
    pub(crate) fn chance_drawn(&self) -> (u128, usize) {
        self.dice.drawn()
    }

    /// What applying `action` now will roll first, if anything. Only fires
    /// and Jupiter's pick roll; their rules live where they are applied,
    /// and this asks the same functions.
    pub fn chance_request(&self, game: &Game, action: Action) -> Option<ChanceRequest> {
        match action {
            Action::Fire => {
                let b = self.battle_info()?.acting?;
                let (dice, hit_max) = super::fire_dice(&self.board, game, b);
                Some(ChanceRequest::Fire {
                    block: b,
                    dice,
                    hit_max,
                })
            }
            Action::JupiterAt(at) => {
                let side = self.current_player()?;
                let among = self.jupiter_candidates(game, side, at).count();
                (among > 1).then(|| ChanceRequest::Pick {
                    among: among.min(usize::from(u8::MAX)) as u8,
                })
            }
            _ => None,
        }
    }

    /// Applies `action` with chance answering `outcome`'s dice first.
    pub fn apply_outcome(&mut self, game: &Game, action: Action, outcome: &ChanceOutcome) {
        let later = self.dice_to_come();
        let mut dice = outcome.dice.clone();
        dice.extend(later);
        self.set_dice(&dice);
        self.apply(game, action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_7_4_fire_outcomes_are_hit_counts_with_binomial_odds() {
        let fire = ChanceRequest::Fire {
            block: BlockId(0),
            dice: 3,
            hit_max: 2,
        };
        let outcomes = fire.outcomes();
        assert_eq!(outcomes.len(), 4);
        let total: f64 = outcomes.iter().map(|o| o.probability).sum();
        assert!((total - 1.0).abs() < 1e-12);
        // No hit: (4/6)^3.
        assert!((outcomes[0].probability - 8.0 / 27.0).abs() < 1e-12);
        assert_eq!(outcomes[2].dice, vec![1, 1, 6]);
        // Firepower 6 always hits: one outcome.
        let sure = ChanceRequest::Fire {
            block: BlockId(0),
            dice: 2,
            hit_max: 6,
        };
        assert_eq!(sure.outcomes().len(), 1);
        assert_eq!(sure.outcomes()[0].probability, 1.0);
    }

    #[test]
    fn a_pick_outcome_makes_the_engine_choose_it() {
        for among in 1..=40usize {
            for (choice, o) in (ChanceRequest::Pick { among: among as u8 })
                .outcomes()
                .iter()
                .enumerate()
            {
                let mut dice = o.dice.clone();
                let mut next = || {
                    let d = dice.remove(0);
                    assert!((1..=6).contains(&d));
                    d
                };
                assert_eq!(crate::engine::roll_among_with(among, &mut next), choice);
            }
        }
    }
}
