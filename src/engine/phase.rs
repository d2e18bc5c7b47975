//! Where the game turn stands: the engine's own [`Phase`] (whose decision
//! it is and of what kind), the coarse [`Period`] front ends step replays
//! by, and both in words.

use std::fmt;

use super::{CommandStep, Game, State};
use crate::scenario::model::{Side, SpaceId};

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

/// The parts of a game turn, as [`State::period`] names them.
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

impl State {
    /// Where the turn stands, in plain words (public: every side may read it).
    pub fn stage_text(&self, game: &Game) -> String {
        let space = |s: SpaceId| game.space_name(s).to_string();
        match self.phase {
            Phase::Discard(side) => format!("{side} discards (2.1)"),
            Phase::PlayCard(side) => format!("{side} chooses a card to play (2.1)"),
            Phase::Command(slot) => {
                let side = self.order[slot as usize];
                let c = &self.command;
                let what = match (c.event, c.step) {
                    (_, CommandStep::Levy) => format!("levies, {} left", c.lp),
                    (_, CommandStep::MainAttack) => "declares main attacks (6.12)".into(),
                    (_, CommandStep::Surprise) => "names the surprise battle".into(),
                    (Some(e), CommandStep::EventTarget) => format!("{e:?}: chooses a target"),
                    (event, _) => {
                        let group = c
                            .group
                            .map(|g| format!(", moving the group from {}", space(g)))
                            .unwrap_or_default();
                        let event = event.map(|e| format!("{e:?}, ")).unwrap_or_default();
                        let moves = if c.mp == 1 { "move" } else { "moves" };
                        let levies = if c.lp == 1 { "levy" } else { "levies" };
                        format!("{event}{} {moves} and {} {levies} left{group}", c.mp, c.lp)
                    }
                };
                format!("{side}'s command phase (Player {}): {what}", slot + 1)
            }
            Phase::ChooseBattle => {
                format!("{} (Player 1) chooses the next battle (7.1)", self.order[0])
            }
            Phase::Battle => match self.battle_info() {
                Some(b) if b.round == 0 => {
                    format!(
                        "battle of {}: {} declares the main attack",
                        space(b.space),
                        b.attacker
                    )
                }
                Some(b) => format!(
                    "battle of {}, round {}: {} attacks",
                    space(b.space),
                    b.round,
                    b.attacker
                ),
                None => "battle".into(),
            },
            Phase::Regroup(side) => match self.regroup_space {
                Some(s) => format!("{side} regroups from {} (7.7)", space(s)),
                None => format!("{side} regroups (7.7)"),
            },
            Phase::WinterNavis(side) => format!("winter: {side}'s navis go to port (8.3)"),
            Phase::WinterSupply(side) => format!("winter: {side} disbands (8.4, 8.5)"),
            Phase::Over => "the game is over".into(),
        }
    }

    /// The part of the game turn now, coarsely (public): for stepping a
    /// replay by phase.
    pub fn period(&self) -> Period {
        match self.phase {
            Phase::Discard(_) => Period::Discard,
            Phase::PlayCard(_) => Period::Cards,
            Phase::Command(slot) => Period::Command(self.order[slot as usize]),
            Phase::ChooseBattle | Phase::Battle | Phase::Regroup(_) => Period::Battles,
            Phase::WinterNavis(_) | Phase::WinterSupply(_) => Period::Winter,
            Phase::Over => Period::Over,
        }
    }
}
