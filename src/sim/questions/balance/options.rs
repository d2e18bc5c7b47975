//! How a balance run spends its games, and the best-response oracles it trains with.

use serde::{Deserialize, Serialize};

use crate::scenario::model::Side;
use crate::sim::runs::cluster::Shard;

/// How a run spends its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceOptions {
    pub seed: u64,
    /// Games of every cell before any is played further.
    pub first_games: u64,
    /// Games of every cell that decides the equilibrium.
    pub games: u64,
    /// Rounds of best responses at most.
    pub rounds: u32,
    /// A side's best response that gains no more than this (a share, 0.01
    /// is one point) leaves the equilibrium where it is.
    pub threshold: f64,
    /// The best responses trained each round, for each side.
    pub oracles: Vec<Oracle>,
    /// Games that measure a response against the other side's mix.
    pub response_games: u64,
    /// Games of each CMA-ES tuning (oracle `tune`).
    pub tune_games: u64,
    /// Games each candidate start of a tuning plays against the mix before
    /// CMA-ES sets out from the best: the side's members and every shipped
    /// player's numbers (0: from the side's heaviest member, as runs made
    /// before starts were screened).
    #[serde(default)]
    pub start_games: u64,
    /// CMA-ES runs of a tuning, each from the next best start (1 in
    /// reports made before restarts).
    #[serde(default = "one_tuning")]
    pub tune_restarts: u32,
    /// Games of self-play a learned value is fitted on (oracle `value`).
    pub learn_games: u64,
    /// Playouts per searched decision of a trained search.
    pub playouts: u32,
    /// Bootstrap resamples of the table.
    pub replicates: u32,
    pub omniscient: bool,
    /// Play only this part of every cell's games (no training: the shards
    /// of one table, merged by [`merge`], make the whole table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Seeds the rounds' training and the measures of its responses apart
    /// from the table's games (`seed`): `fair`'s check goes on from a
    /// candidate's table, played on the run's seed, with responses of its
    /// own. `None`: `seed` seeds both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training_seed: Option<u64>,
}

impl BalanceOptions {
    /// The seed of the rounds' training and of the measures of their
    /// responses.
    pub fn training_seed(&self) -> u64 {
        self.training_seed.unwrap_or(self.seed)
    }
}

fn one_tuning() -> u32 {
    1
}

impl Default for BalanceOptions {
    fn default() -> BalanceOptions {
        BalanceOptions {
            seed: 1,
            first_games: 40,
            games: 400,
            rounds: 3,
            threshold: 0.01,
            oracles: Oracle::ALL.to_vec(),
            response_games: 400,
            tune_games: 4000,
            start_games: 400,
            tune_restarts: 3,
            learn_games: 1000,
            playouts: 16,
            replicates: 200,
            omniscient: false,
            shard: None,
            training_seed: None,
        }
    }
}

/// Options that would play nothing meaningful.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BalanceOptionsError {
    #[error(
        "games per cell must be at least 2 and the first games at most as many (got {first} first, {games} in all)"
    )]
    Games { first: u64, games: u64 },
    #[error("{what} must be at least {min} (got {got})")]
    TooFew {
        what: &'static str,
        min: u64,
        got: u64,
    },
    #[error("{what} must be at most {max} (got {got})")]
    TooMany {
        what: &'static str,
        max: u64,
        got: u64,
    },
    #[error("the threshold is in points between 0 and 50 (got {0})")]
    Threshold(f64),
    #[error(
        "each side needs at least two players to choose among (got {caesar} for Caesar, {pompey} for Pompey): name more players, or train best responses from them"
    )]
    PopulationOfOne { caesar: usize, pompey: usize },
    #[error("the same player is listed twice for {side}: {player}")]
    Twice { side: Side, player: String },
    #[error("{0}")]
    Shard(String),
}

impl BalanceOptions {
    pub fn check(&self) -> Result<(), BalanceOptionsError> {
        if self.games < 2 || self.first_games < 1 || self.first_games > self.games {
            return Err(BalanceOptionsError::Games {
                first: self.first_games,
                games: self.games,
            });
        }
        let at_least = |what, min, got| {
            if got < min {
                Err(BalanceOptionsError::TooFew { what, min, got })
            } else {
                Ok(())
            }
        };
        at_least("games to measure a response", 20, self.response_games)?;
        at_least("bootstrap replicates", 20, u64::from(self.replicates))?;
        if self.oracles.contains(&Oracle::Tune) {
            at_least(
                "tuning games (one CMA-ES generation)",
                tune_generation_games(),
                self.tune_games,
            )?;
            if self.start_games > 0 {
                at_least("games to score a tuning's start", 20, self.start_games)?;
            }
            at_least("tuning runs", 1, u64::from(self.tune_restarts))?;
        }
        if self.oracles.contains(&Oracle::Value) {
            at_least("games to learn a value on", 100, self.learn_games)?;
        }
        if self.oracles.contains(&Oracle::Search) || self.oracles.contains(&Oracle::Value) {
            at_least("playouts", 1, u64::from(self.playouts))?;
        }
        if !(self.threshold.is_finite() && (0.0..=0.5).contains(&self.threshold)) {
            return Err(BalanceOptionsError::Threshold(self.threshold * 100.0));
        }
        if let Some(shard) = self.shard {
            if !self.oracles.is_empty() || self.first_games != self.games {
                return Err(BalanceOptionsError::Shard(
                    "a shard plays a fixed table: no rounds of best responses, and as many first games as games".to_string(),
                ));
            }
            if u64::from(shard.count) > self.games {
                return Err(BalanceOptionsError::Shard(format!(
                    "{} games a cell split into at most {} shards, so shard {shard} would hold none",
                    self.games, self.games
                )));
            }
        }
        Ok(())
    }
}

impl BalanceOptions {
    /// What [`BalanceOptions::check`] asks, and the most any run is
    /// given (the command line's ranges): a file's options checked before
    /// any count sizes anything.
    pub fn check_limits(&self) -> Result<(), BalanceOptionsError> {
        let at_most = |what: &'static str, max: u64, got: u64| {
            if got > max {
                Err(BalanceOptionsError::TooMany { what, max, got })
            } else {
                Ok(())
            }
        };
        at_most("games per cell", 1_000_000, self.games)?;
        at_most("rounds", 50, u64::from(self.rounds))?;
        at_most(
            "games to measure a response",
            1_000_000,
            self.response_games,
        )?;
        at_most("tuning games", 10_000_000, self.tune_games)?;
        at_most(
            "games to score a tuning's start",
            1_000_000,
            self.start_games,
        )?;
        at_most("tuning runs", 20, u64::from(self.tune_restarts))?;
        at_most("games to learn a value on", 10_000_000, self.learn_games)?;
        at_most("playouts", 4096, u64::from(self.playouts))?;
        at_most("bootstrap replicates", 100_000, u64::from(self.replicates))?;
        if self.oracles.len() > Oracle::ALL.len() {
            return Err(BalanceOptionsError::TooMany {
                what: "kinds of best response",
                max: Oracle::ALL.len() as u64,
                got: self.oracles.len() as u64,
            });
        }
        self.check()
    }
}

/// How a best response is trained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Oracle {
    /// (a) the heuristic's numbers tuned against the mix.
    Tune,
    /// (b) a search whose playouts play the opponent by the mix.
    Search,
    /// (c) that search scored by a value learned against the mix.
    Value,
}

impl Oracle {
    pub const ALL: [Oracle; 3] = [Oracle::Tune, Oracle::Search, Oracle::Value];

    pub fn name(self) -> &'static str {
        match self {
            Oracle::Tune => "tune",
            Oracle::Search => "search",
            Oracle::Value => "value",
        }
    }

    /// How this oracle finds a player, for a verdict.
    pub fn words(self) -> &'static str {
        match self {
            Oracle::Tune => "tuning",
            Oracle::Search => "a search that plans against the mix",
            Oracle::Value => "that search with a learned value",
        }
    }

    /// What was left out when this oracle was not run, for a verdict.
    pub fn untried(self) -> &'static str {
        match self {
            Oracle::Tune => "tuned players",
            Oracle::Search => "searches",
            Oracle::Value => "learned values",
        }
    }
}

display_as!(Oracle, name);

/// A name that is no oracle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no oracle: expected tune, search or value")]
pub struct NotAnOracle(pub String);

impl std::str::FromStr for Oracle {
    type Err = NotAnOracle;
    fn from_str(text: &str) -> Result<Oracle, NotAnOracle> {
        Oracle::ALL
            .into_iter()
            .find(|o| o.name() == text.trim())
            .ok_or_else(|| NotAnOracle(text.to_string()))
    }
}

/// Slots of a tuning's opponent list: each mix member gets a share of them
/// by weight.
pub(super) const TUNE_SLOTS: usize = 20;

/// Games each candidate of a tuning plays: every slot of the opponents'
/// list twice.
pub(super) const GAMES_PER_CANDIDATE: u64 = 2 * TUNE_SLOTS as u64;

/// The fewest tuning games that make one CMA-ES generation.
pub fn tune_generation_games() -> u64 {
    let n = crate::ai::HeuristicParams::NAMES.len() as f64;
    (4 + (3.0 * n.ln()).floor() as u64) * GAMES_PER_CANDIDATE
}
