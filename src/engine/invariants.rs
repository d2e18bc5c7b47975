//! What must hold of every state the engine reaches, checked by tests and
//! debug builds.

use super::{Game, Phase, Place, State, TROPHY};
use crate::scenario::model::Side;
use crate::scenario::model::{BlockKind, SpaceKind};

impl State {
    /// Checks invariants; used by tests and debug builds. Returns the first
    /// broken one.
    pub fn check_invariants(&self, game: &Game) -> Result<(), BrokenInvariant> {
        let roster = game.roster();
        for b in roster.ids() {
            let s = self.board.block(b);
            let block = roster.block(b);
            let name = || block.name.clone();
            if let Place::Map(space) = s.place() {
                if space.index() >= game.board().len() {
                    return Err(BrokenInvariant::OffTheBoard { block: name() });
                }
                if !(1..=block.max_steps).contains(&s.steps()) {
                    let steps = s.steps();
                    return Err(BrokenInvariant::Steps {
                        block: name(),
                        steps,
                    });
                }
                let kind = game.board().space(space).kind;
                if block.kind.is_land() && kind == SpaceKind::Sea {
                    return Err(BrokenInvariant::LandAtSea { block: name() });
                }
                if block.kind == BlockKind::Navis && kind == SpaceKind::City {
                    return Err(BrokenInvariant::NavisInland { block: name() });
                }
            }
            if s.place() == Place::Trophy && block.kind != BlockKind::Leader {
                return Err(BrokenInvariant::TrophyNotLeader { block: name() });
            }
        }
        let between_battles = !matches!(
            self.phase,
            Phase::Battle | Phase::ChooseBattle | Phase::Command(_) | Phase::Regroup(_)
        ) && self.battles.battle().is_none();
        if between_battles {
            for id in game.board().ids() {
                if self.is_contested(id) && self.battles.contest_at(id).is_none() {
                    let space = game.space_name(id).to_string();
                    return Err(BrokenInvariant::ContestOutsideBattles { space });
                }
            }
        }
        let trophies: usize = self
            .board
            .blocks()
            .iter()
            .filter(|b| b.loc() == TROPHY)
            .count();
        if trophies
            != (self.board.trophies(Side::Caesar) + self.board.trophies(Side::Pompey)) as usize
        {
            return Err(BrokenInvariant::TrophyCount);
        }
        Ok(())
    }
}

/// A state the engine should never reach ([`State::check_invariants`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrokenInvariant {
    #[error("{block} off the board")]
    OffTheBoard { block: String },
    #[error("{block} has {steps} steps")]
    Steps { block: String, steps: u8 },
    #[error("{block} at sea")]
    LandAtSea { block: String },
    #[error("navis {block} inland")]
    NavisInland { block: String },
    #[error("{block} is a trophy")]
    TrophyNotLeader { block: String },
    #[error("{space} contested outside battles")]
    ContestOutsideBattles { space: String },
    #[error("trophy count differs from dead leaders")]
    TrophyCount,
}
