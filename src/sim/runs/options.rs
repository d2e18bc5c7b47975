//! What a run plays: its options ([`SimOptions`], checked before a game is
//! played, [`OptionsError`] saying which setting is at fault) and ranges of
//! its games ([`GameRange`]). Below the runner and its report alike, which
//! both name them.

use serde::{Deserialize, Serialize};

use crate::ai::AiSpec;
use crate::sim::runs::cluster::Shard;

/// The games `start..end` of a run (0-based game indices, `end` excluded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameRange {
    pub start: u64,
    pub end: u64,
}

impl GameRange {
    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// The games of a run of `run_games` that the sorted ranges `held` do
    /// not hold (none when they hold them all).
    pub fn missing(held: &[GameRange], run_games: u64) -> Vec<GameRange> {
        let mut missing = Vec::new();
        let mut next = 0;
        for r in held {
            if r.start > next {
                missing.push(GameRange {
                    start: next,
                    end: r.start,
                });
            }
            next = next.max(r.end);
        }
        if next < run_games {
            missing.push(GameRange {
                start: next,
                end: run_games,
            });
        }
        missing
    }
}

impl From<std::ops::Range<u64>> for GameRange {
    fn from(r: std::ops::Range<u64>) -> GameRange {
        GameRange {
            start: r.start,
            end: r.end,
        }
    }
}

/// "games 10–19", or "game 7": the 0-based indices of the CSV's `game` column.
impl std::fmt::Display for GameRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.len() {
            0 => f.write_str("no games"),
            1 => write!(f, "game {}", self.start),
            _ => write!(f, "games {}–{}", self.start, self.end - 1),
        }
    }
}

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    pub caesar: AiSpec,
    pub pompey: AiSpec,
    /// Players see everything (no fog of war).
    pub omniscient: bool,
    pub shard: Option<Shard>,
}

/// Options of a run, a ladder or a tuning that would play nothing or
/// nothing meaningful. The words name no command-line flag: the CLI and
/// the window say which of their controls it is ([`OptionsError::setting`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptionsError {
    #[error("at least one game is needed")]
    NoGames,
    #[error(
        "a {games}-game run splits into at most {games} shards, so shard {shard} would hold no game"
    )]
    EmptyShard { shard: Shard, games: u64 },
    #[error(
        "holding out {share} of {games} games leaves no game to fit or none to judge the fit on: expected a share between 0 and 1 that leaves at least one of each"
    )]
    HeldOut { games: u64, share: f64 },
    #[error("a ladder needs at least one player")]
    NoPlayers,
    #[error(
        "one player is listed twice ({first} and {second} play alike): every rung is a different player"
    )]
    PlayerTwice { first: String, second: String },
    #[error(
        "games per candidate must be even and at least 2 (got {0}): each seed is played once from each side"
    )]
    GamesPerCandidate(u64),
    #[error(
        "a budget of {budget} games is less than one generation ({population} candidates of {games_per_candidate} games)"
    )]
    BudgetUnderOneGeneration {
        budget: u64,
        population: usize,
        games_per_candidate: u64,
    },
    #[error("check games must be even (got {0}): each seed is played once from each side")]
    OddCheckGames(u64),
    #[error("the step must be at least {min} (a smaller one moves no number: they are 32-bit) and at most {max} (got {step}): it is in log space, so {max} already tries numbers about {:.0} times larger or smaller", max.exp())]
    Step { step: f64, min: f64, max: f64 },
    #[error("the starting player: {0}")]
    StartingPlayer(String),
    #[error("{0}")]
    SearchToTune(String),
}

/// Which setting an [`OptionsError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Games,
    Shard,
    Players,
    GamesPerCandidate,
    Budget,
    CheckGames,
    Step,
    StartingPlayer,
    SearchToTune,
    HeldOut,
}

impl OptionsError {
    /// The setting to change.
    pub fn setting(&self) -> Setting {
        match self {
            OptionsError::NoGames => Setting::Games,
            OptionsError::EmptyShard { .. } => Setting::Shard,
            OptionsError::NoPlayers | OptionsError::PlayerTwice { .. } => Setting::Players,
            OptionsError::GamesPerCandidate(_) => Setting::GamesPerCandidate,
            OptionsError::BudgetUnderOneGeneration { .. } => Setting::Budget,
            OptionsError::OddCheckGames(_) => Setting::CheckGames,
            OptionsError::Step { .. } => Setting::Step,
            OptionsError::StartingPlayer(_) => Setting::StartingPlayer,
            OptionsError::SearchToTune(_) => Setting::SearchToTune,
            OptionsError::HeldOut { .. } => Setting::HeldOut,
        }
    }
}

impl SimOptions {
    /// A whole run (no shard) of `games` games from `seed`, each side seeing
    /// only what the rules let it know.
    pub fn new(games: u64, seed: u64, caesar: AiSpec, pompey: AiSpec) -> SimOptions {
        SimOptions {
            games,
            seed,
            caesar,
            pompey,
            omniscient: false,
            shard: None,
        }
    }

    /// Refuses a run that would play no game: no games, or more shards than
    /// games (some shard would be empty).
    pub fn check(&self) -> Result<(), OptionsError> {
        if self.games == 0 {
            return Err(OptionsError::NoGames);
        }
        if let Some(shard) = self.shard
            && u64::from(shard.count) > self.games
        {
            return Err(OptionsError::EmptyShard {
                shard,
                games: self.games,
            });
        }
        Ok(())
    }

    pub fn game_range(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some(s) => s.range(self.games),
            None => 0..self.games,
        }
    }
}
