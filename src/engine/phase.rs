//! Where the game turn stands: the engine's own [`Phase`] (whose decision
//! it is and of what kind) and the coarse [`Period`] front ends step
//! replays by, in words. Neither knows the state: `State::stage_text` and
//! `State::period` read them.

use std::fmt;

use crate::scenario::model::Side;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Discard(Side),
    PlayCard(Side),
    /// The command phase of one player (0 = Player 1).
    Command(u8),
    ChooseBattle,
    Battle,
    Regroup(Side),
    WinterNavis(Side),
    WinterSupply(Side),
    Over,
}

/// The parts of a game turn, as `State::period` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Period {
    /// 2.1: discarding at the start of a year.
    Discard,
    /// 2.1: choosing the cards to play.
    Cards,
    /// A side's command phase (moves, levies, events).
    Command(Side),
    /// Choosing, fighting and regrouping after battles (7).
    Battles,
    /// 8: winter.
    Winter,
    Over,
}

impl Period {
    /// The periods in the order a game turn runs through them, from 0.
    pub(crate) fn ordinal(self) -> u8 {
        match self {
            Period::Discard => 0,
            Period::Cards => 1,
            Period::Command(Side::Caesar) => 2,
            Period::Command(Side::Pompey) => 3,
            Period::Battles => 4,
            Period::Winter => 5,
            Period::Over => 6,
        }
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Period::Discard => f.write_str("discards"),
            Period::Cards => f.write_str("cards"),
            Period::Command(side) => write!(f, "{side}'s command"),
            Period::Battles => f.write_str("battles"),
            Period::Winter => f.write_str("winter"),
            Period::Over => f.write_str("game over"),
        }
    }
}
