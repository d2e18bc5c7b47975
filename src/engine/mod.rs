//! The rules engine, in the style of OpenSpiel's game state: an immutable
//! [`Game`] (board, roster, deck, rule set) and a small, cheap-to-clone
//! [`State`] driven by fine-grained [`Action`]s. Chance is drawn from a seeded
//! ChaCha RNG carried in the state, so a seed and a list of actions replay the
//! same game on every machine.
//!
//! Decisions the rulebooks leave open are documented in `docs/rules-notes.md`.
//!
//! This file is the front door: the files and what the engine shows of
//! them. [`State`]'s fields, a new game and the dispatch of actions are in
//! `state.rs`; each part of the turn has its rules in its own file (`cards.rs`
//! 2, `command.rs` 6, `battle.rs` 7, `winter.rs` 8), and the state's own
//! types live beside the rules that use them. The engine-internal ones are
//! re-exported below without `pub` so that sibling files name them as
//! `super::X` and no file outside `engine` sees them.

/// A phase's rules read the board as the board: its `Field` (what they
/// change) derefs to its `board` mutably, its `Look` (what they read) to
/// its `board` (the battle phase's and the command phase's).
macro_rules! reads_as_board {
    ($field:ident, $look:ident) => {
        impl std::ops::Deref for $field<'_> {
            type Target = Board;
            fn deref(&self) -> &Board {
                self.board
            }
        }
        impl std::ops::DerefMut for $field<'_> {
            fn deref_mut(&mut self) -> &mut Board {
                self.board
            }
        }
        impl std::ops::Deref for $look<'_> {
            type Target = Board;
            fn deref(&self) -> &Board {
                self.board
            }
        }
    };
}

mod action;
pub mod audit;
mod battle;
mod battle_setup;
mod blocks;
mod cards;
pub mod chance;
mod command;
mod dice;
pub mod events;
mod game;
mod invariants;
mod outcome;
mod phase;
mod position;
mod relist;
mod sets;
mod start;
mod state;
mod stats;
mod view;
mod winter;

pub use action::{Action, IllegalAction};
pub use battle::BattleInfo;
pub use battle_setup::{BattleBlock, BattleKey, BattleStart};
pub use blocks::Place;
pub use events::{GameEvent, Log, NoLog};
pub use game::Game;
pub use invariants::BrokenInvariant;
pub use outcome::{EndReason, Outcome};
pub use phase::Period;
pub use position::{PlacedBlock, Position, PositionError, Stage};
pub use sets::CardSet;
pub use start::NotPlayable;
pub use state::State;
pub use stats::{GameStats, MapEvent, PlayQuality};
pub use view::{KnownBlock, SideView};

pub(crate) use blocks::Forces;
pub(crate) use sets::SET_CAPACITY;

use battle::{Battles, Begun, Contest, fire_dice};
use blocks::{BlockState, Board, ELIMINATED, Hop, NO_LINK, POOL, TROPHY, flag};
use command::{CommandPhase, CommandStep, jupiter_candidates, may_add_step};
use dice::{Dice, roll_among_with};
use events::Orders;
use game::LevyRule;
use phase::Phase;
use sets::{BlockSet, SpaceSet};
