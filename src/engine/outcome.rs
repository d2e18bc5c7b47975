//! How a game ended (1.2): by sudden death, on VP after the last year, by
//! Rome's tie-break, or drawn.

use crate::scenario::model::Side;

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EndReason {
    /// 1.2: a player had 10 VP at a winter check.
    SuddenDeath,
    /// 1.2: after year 5, the higher VP.
    VictoryPoints,
    /// 1.2: tied VP, the player holding Rome.
    RomeTieBreak,
    Draw,
}

/// In words, as tables print it ("sudden death", not `SuddenDeath`).
impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EndReason::SuddenDeath => "sudden death",
            EndReason::VictoryPoints => "victory points",
            EndReason::RomeTieBreak => "Rome tie-break",
            EndReason::Draw => "draw",
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub how: EndReason,
    /// VP of Caesar and Pompey at the end.
    pub vp: [u32; 2],
    /// The year (1-based) whose winter ended the game.
    pub year: u8,
}
