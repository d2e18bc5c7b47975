//! `balance`: is a setup fair? Caesar's share at equilibrium, where each
//! side plays its best mix of every player we can build against the other
//! side doing the same, and best responses are added until none moves it
//! (Policy-Space Response Oracles, Lanctot et al. 2017, as OpenSpiel runs
//! it with an exact Nash meta-solver).
//!
//! A run alternates two stages, round by round:
//! 1. **The meta-game** ([`table`]): every Caesar player of the population
//!    plays every Pompey player over common seeds (game `k` of every cell
//!    has the same dice). Games go where they decide the equilibrium: every
//!    cell gets a few, then only the cells of players in either mix, or of
//!    players whose optimistic payoff could make them a best response, are
//!    played further, doubling until each has the games asked for
//!    (adaptive sampling of the payoff table, after ResponseGraphUCB,
//!    Rowland et al. 2019). The table is solved exactly ([`solve`]), and
//!    the value's interval is a bootstrap over each cell's games.
//! 2. **Best responses** ([`oracle`]): for each side, players trained
//!    against the other side's mix, each measured against that mix on
//!    seeds no training saw. A response that beats the value by more than
//!    its interval joins the population; the two sides' best gains added
//!    are the round's exploitability.
//!
//! The run stops when neither side's best response gains more than the
//! threshold, when the rounds asked for are done, or when the wall-clock
//! budget would not hold the next stage. After every stage the report so
//! far is handed to a checkpoint, and [`run`] resumes from one: a stage is
//! played from its own seeds, so a resumed run reaches the report an
//! uninterrupted one does.

mod export;
pub mod measured;
pub mod oracle;
pub mod session;
pub mod solve;
pub mod table;

use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::{self, AiSpec, Player};
use crate::engine::{Game, NoLog};
use crate::scenario::model::Side;
use crate::sim::runs::cluster::Shard;
use crate::sim::runs::report::PlayedOn;
use crate::sim::{Cancelled, Progress, game_and_player_seeds, game_seed};
pub use oracle::Oracle;
pub use solve::{Equilibrium, SolveError};
pub use table::{Cell, Table};

/// Mixed into the run's seed for each stream of games.
const CELL_TAG: u64 = 0x4241_4C41_4E43_4543; // "BALANCEC"
const EVAL_TAG: u64 = 0x4241_4C41_4E43_4545; // "BALANCEE"
const BOOT_TAG: u64 = 0x4241_4C41_4E43_4542; // "BALANCEB"
const MIX_TAG: u64 = 0x4241_4C41_4E43_454D; // "BALANCEM"
const CHALLENGE_TAG: u64 = 0x4348_414C_4C45_4E47; // "CHALLENG"

/// A mix weight below this is not part of a side's mix.
const IN_MIX: f64 = 1e-6;

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
                oracle::tune_generation_games(),
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

/// Where a player of the population came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// Named by the user.
    Named,
    /// One of the players the workbench ships for this rule set.
    Shipped,
    /// A fit for this setup (its bundle).
    Fitted,
    /// A best response trained during this run.
    Trained { round: u32, oracle: Oracle },
}

/// A player of one side's population.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Member {
    /// As `simulate --caesar-ai` takes it, from the run's folder.
    pub player: String,
    /// In words, for a designer.
    pub words: String,
    pub origin: Origin,
    /// Digest of what the player plays by (its numbers, its value), so a
    /// resume refuses a player whose files changed.
    pub digest: String,
    #[serde(skip)]
    pub spec: Option<AiSpec>,
}

impl Member {
    pub fn new(spec: AiSpec, origin: Origin) -> Member {
        Member {
            player: spec.to_string(),
            words: words(&spec),
            origin,
            digest: spec_digest(&spec),
            spec: Some(spec),
        }
    }

    fn spec(&self) -> &AiSpec {
        self.spec
            .as_ref()
            .expect("a member's player is read before the run uses it")
    }
}

/// A content digest of a player: what it plays by, not its files' names.
pub fn spec_digest(spec: &AiSpec) -> String {
    spec.content_digest()
}

/// A player in words: "Search (16 playouts) on tuned-rules-2.0, scored by
/// value-rules-2.0".
pub fn words(spec: &AiSpec) -> String {
    let file = |path: &str| {
        std::path::Path::new(path)
            .file_stem()
            .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
    };
    let budget = |spec: &AiSpec| match spec {
        AiSpec::Search { playouts } => format!("Search ({playouts} playouts)"),
        AiSpec::SearchTimed { millis } => format!("Search ({millis} ms)"),
        AiSpec::Mcts { playouts } => format!("Tree search ({playouts} playouts)"),
        AiSpec::MctsTimed { millis } => format!("Tree search ({millis} ms)"),
        AiSpec::Random => "Random".to_string(),
        AiSpec::Heuristic => "Heuristic (default numbers)".to_string(),
        other => other.to_string(),
    };
    match spec {
        AiSpec::TunedHeuristic(t) => format!("Heuristic on {}", file(&t.path)),
        AiSpec::SearchOn(on) => {
            let mut text = format!("{} on {}", budget(&on.search), file(&on.on.path));
            if !on.on.numbers.opponents.is_empty() {
                text.push_str(" expecting its opponents' mix");
            }
            if let Some(v) = &on.value {
                text.push_str(&format!(", scored by {}", file(&v.path)));
            }
            text
        }
        other => budget(other),
    }
}

/// A figure with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub ci95: [f64; 2],
}

impl Interval {
    fn points(&self) -> String {
        format!(
            "{:.1} ({:.1} to {:.1})",
            self.estimate * 100.0,
            self.ci95[0] * 100.0,
            self.ci95[1] * 100.0
        )
    }
}

/// One player's weight in its side's mix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Weighted {
    pub player: String,
    pub words: String,
    pub weight: f64,
}

/// A response trained in a round, as measured against the other side's mix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub side: Side,
    pub oracle: Oracle,
    pub player: String,
    pub words: String,
    /// Its side's share of the points against the other side's mix.
    pub share: Interval,
    /// Its share less its side's value at equilibrium.
    pub gain: Interval,
    pub games: u64,
    pub joined: bool,
    /// It plays as a member of its side already does (a tuning kept at a
    /// member's numbers): its gain is noise, counted as at most 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub member_again: bool,
}

impl Response {
    /// What it gains over the value, as far as it counts: a member again
    /// gains nothing its side's mix does not have.
    pub fn counted_gain(&self) -> f64 {
        if self.member_again {
            self.gain.estimate.min(0.0)
        } else {
            self.gain.estimate
        }
    }
}

/// One round: the equilibrium it solved and the responses it found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub round: u32,
    pub caesar_players: usize,
    pub pompey_players: usize,
    pub value: Interval,
    /// The two sides' best gains added (a side whose responses all lost
    /// counts 0: its mix's own players answer it at the value).
    pub exploitability: Option<Interval>,
    pub responses: Vec<Response>,
}

/// What a mirror match (one player on both sides) says of the setup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MirrorShare {
    pub player: String,
    pub words: String,
    pub share: Interval,
    pub games: u64,
}

/// How far a solved table got: what the value rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// Caesar's and Pompey's players the equilibrium is solved over, the
    /// first of each side's list: the others' games were not played yet.
    pub solved: [usize; 2],
    /// Cells that decide the equilibrium with fewer games than asked.
    pub deciding_short: usize,
    /// The fewest games of a cell that decides it.
    pub fewest_games: u64,
    /// The games asked of every deciding cell.
    pub asked_games: u64,
}

/// Where the run is, for a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The table of round `n` is to be played and solved.
    Table(u32),
    /// Round `n`'s best responses are to be trained.
    Responses(u32),
    Done,
}

/// The balance at equilibrium of one setup under one rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceReport {
    pub variant: String,
    pub played_on: PlayedOn,
    pub options: BalanceOptions,
    /// Where the run is: [`Stage::Done`] for a finished report.
    pub stage: Stage,
    pub caesar: Vec<Member>,
    pub pompey: Vec<Member>,
    pub table: Table,
    /// Caesar's share at equilibrium.
    pub value: Interval,
    pub exploitability: Option<Interval>,
    pub caesar_mix: Vec<Weighted>,
    pub pompey_mix: Vec<Weighted>,
    /// Each Caesar player's loss against Pompey's mix, compared with the value.
    pub caesar_regret: Vec<f64>,
    /// Each Pompey player's loss against Caesar's mix.
    pub pompey_regret: Vec<f64>,
    /// Share of the bootstrap resamples whose mixes use the same players.
    pub stability: f64,
    /// What the value rests on (none in reports made before budgets kept
    /// a stage as far as it got: their tables were whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    pub mirrors: Vec<MirrorShare>,
    pub rounds: Vec<Round>,
    /// Why the run stopped.
    pub stopped: String,
    /// The run stopped with work left that a resume goes on with: the
    /// budget ended, or the rounds asked for were done (a resume with more
    /// rounds goes on from there).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
    pub games_played: u64,
    pub elapsed_seconds: f64,
}

/// A report's field that is not as a report's can be.
fn bad(field: &str, expected: String) -> Result<(), MalformedReport> {
    Err(MalformedReport(format!(
        "its field `{field}` is not as a report's can be: expected {expected}"
    )))
}

/// What is wrong with a balance report read from a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MalformedReport(pub String);

/// What stops a run before its first game, or ends it.
#[derive(Debug, thiserror::Error)]
pub enum BalanceError {
    #[error(transparent)]
    Options(#[from] BalanceOptionsError),
    #[error("solving the meta-game: {0}")]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    #[error("training a best response: {0}")]
    Oracle(String),
    #[error("{0}")]
    Resume(String),
    #[error("{0}")]
    Budget(String),
}

/// What a watcher sees of a run: games, a cancel switch, the stage in words.
#[derive(Debug, Default)]
pub struct Watch {
    pub progress: Progress,
    stage: Mutex<String>,
}

impl Watch {
    pub fn new() -> Watch {
        Watch::default()
    }
    pub fn stage(&self) -> String {
        self.stage.lock().map(|s| s.clone()).unwrap_or_default()
    }
    pub fn say(&self, text: String) {
        if let Ok(mut s) = self.stage.lock() {
            *s = text;
        }
    }
}

/// The run's limits besides its options.
pub struct Limits<'a> {
    /// Wall-clock end: no stage starts that is not expected to end before it.
    pub deadline: Option<Instant>,
    /// Where trained players are written (a folder of the run's own).
    pub players_dir: Option<&'a std::path::Path>,
}

impl BalanceReport {
    /// A fresh run over these populations.
    pub fn start(
        game: &Game,
        variant: &str,
        options: BalanceOptions,
        caesar: Vec<Member>,
        pompey: Vec<Member>,
    ) -> Result<BalanceReport, BalanceError> {
        options.check()?;
        // One player a side is a start when best responses are trained
        // (the population grows from it), and no question otherwise.
        if caesar.is_empty()
            || pompey.is_empty()
            || ((caesar.len() < 2 || pompey.len() < 2) && options.oracles.is_empty())
        {
            return Err(BalanceOptionsError::PopulationOfOne {
                caesar: caesar.len(),
                pompey: pompey.len(),
            }
            .into());
        }
        for (side, members) in [(Side::Caesar, &caesar), (Side::Pompey, &pompey)] {
            for (i, m) in members.iter().enumerate() {
                if members[..i].iter().any(|o| o.digest == m.digest) {
                    return Err(BalanceOptionsError::Twice {
                        side,
                        player: m.player.clone(),
                    }
                    .into());
                }
            }
        }
        let table = Table::new(caesar.len(), pompey.len());
        Ok(BalanceReport {
            variant: variant.to_string(),
            played_on: PlayedOn::of(game),
            options,
            stage: Stage::Table(1),
            caesar,
            pompey,
            table,
            value: Interval {
                estimate: f64::NAN,
                ci95: [f64::NAN, f64::NAN],
            },
            exploitability: None,
            caesar_mix: Vec::new(),
            pompey_mix: Vec::new(),
            caesar_regret: Vec::new(),
            pompey_regret: Vec::new(),
            stability: 0.0,
            coverage: None,
            mirrors: Vec::new(),
            rounds: Vec::new(),
            stopped: String::new(),
            paused: false,
            games_played: 0,
            elapsed_seconds: 0.0,
        })
    }

    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// Makes a paused report go on when run again, with at most `rounds`
    /// rounds of best responses if given (more than it had reopens a run
    /// that stopped at its last round). False when nothing is left to do.
    pub fn go_on(&mut self, rounds: Option<u32>) -> bool {
        if !self.paused {
            return !self.is_done();
        }
        if let Some(r) = rounds {
            self.options.rounds = self.options.rounds.max(r);
        }
        if self.is_done() {
            // It stopped at the table after its last round of responses.
            match self.rounds.last().map(|r| r.round) {
                Some(last) if last <= self.options.rounds => {
                    self.stage = Stage::Responses(last);
                }
                _ => return false,
            }
        }
        self.paused = false;
        self.stopped.clear();
        true
    }

    fn members(&self, side: Side) -> &[Member] {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }

    /// A side's mix as (weight, player) over the members in it.
    pub fn mix(&self, side: Side) -> Vec<(f64, &Member)> {
        let mix = match side {
            Side::Caesar => &self.caesar_mix,
            Side::Pompey => &self.pompey_mix,
        };
        mix.iter()
            .filter_map(|w| {
                self.members(side)
                    .iter()
                    .find(|m| m.player == w.player)
                    .map(|m| (w.weight, m))
            })
            .collect()
    }

    /// `side`'s share at equilibrium.
    pub fn value_for(&self, side: Side) -> Interval {
        side_interval(self.value, side)
    }
}

fn side_interval(caesar: Interval, side: Side) -> Interval {
    match side {
        Side::Caesar => caesar,
        Side::Pompey => Interval {
            estimate: 1.0 - caesar.estimate,
            ci95: [1.0 - caesar.ci95[1], 1.0 - caesar.ci95[0]],
        },
    }
}

/// Caesar's points doubled in game `k` of a run seeded `seed` (the game
/// `simulate --seed SEED` plays as its game `k`).
pub fn doubled_points(
    game: &Game,
    players: [&AiSpec; 2],
    seed: u64,
    k: u64,
    omniscient: bool,
) -> u8 {
    let (game_seed, seeds) = game_and_player_seeds(seed, k);
    let mut seats: [Box<dyn Player>; 2] =
        Side::BOTH.map(|s| players[s.index()].player(s, seeds[s.index()], omniscient));
    let end = ai::play_game(game, game_seed, &mut seats, &mut NoLog);
    match end.outcome().and_then(|o| o.winner) {
        Some(Side::Caesar) => 2,
        Some(Side::Pompey) => 0,
        None => 1,
    }
}

/// Runs (or resumes) `report` until it is done, handing every finished
/// stage (and the table's first answer, the heuristic family's) to
/// `checkpoint`.
///
/// The budget is a limit, not a floor, and any budget ends with an answer:
/// when its deadline passes in the middle of a stage (or the watch is
/// cancelled), the stage is kept as far as it got: the table's cells with
/// the games played, solved over the players they cover
/// ([`BalanceReport::coverage`]); a round's responses measured so far. The
/// report is paused there, `stopped` says so, and a resume plays on from it.
pub fn run(
    game: &Game,
    report: &mut BalanceReport,
    limits: &Limits<'_>,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<(), BalanceError> {
    if report.paused {
        report.go_on(None);
    }
    let Some(deadline) = limits.deadline else {
        return run_stages(game, report, limits, watch, checkpoint);
    };
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Stops every game at the deadline, as a cancel would: the stage
        // in progress keeps what was played.
        scope.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                if Instant::now() >= deadline {
                    watch.progress.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let result = run_stages(game, report, limits, watch, checkpoint);
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })
}

fn run_stages(
    game: &Game,
    report: &mut BalanceReport,
    limits: &Limits<'_>,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<(), BalanceError> {
    let started = Instant::now();
    let before = report.elapsed_seconds;
    let mut clock = Clock::new();
    loop {
        let went_on = match report.stage {
            Stage::Done => return Ok(()),
            Stage::Table(round) => {
                let mut so_far = |r: &BalanceReport| {
                    let mut r = r.clone();
                    r.elapsed_seconds = before + started.elapsed().as_secs_f64();
                    checkpoint(&r);
                };
                table_stage(game, report, round, limits, watch, &mut so_far)?
            }
            Stage::Responses(round) => {
                responses_stage(game, report, round, limits, watch, &mut clock)?
            }
        };
        report.elapsed_seconds = before + started.elapsed().as_secs_f64();
        checkpoint(report);
        if !went_on {
            // Paused by the budget or a cancel: the stage stays for a resume.
            return Ok(());
        }
    }
}

/// Why a stage was cut short, in words.
fn cut_reason(limits: &Limits<'_>) -> &'static str {
    match limits.deadline {
        Some(d) if Instant::now() >= d => "the budget ended",
        _ => "the run was cancelled",
    }
}

/// Plays and solves round `round`'s table, and sets the next stage; false
/// when the budget ended (or a cancel came) first: the table stays the
/// stage, solved as far as it was played, and a resume plays its cells on.
fn table_stage(
    game: &Game,
    report: &mut BalanceReport,
    round: u32,
    limits: &Limits<'_>,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<bool, BalanceError> {
    watch.say(format!("round {round}: playing the meta-game"));
    let full = fill_table(game, report, watch, checkpoint)?;
    solve_report(report)?;
    report.rounds.retain(|r| r.round != round);
    if !report.caesar_mix.is_empty() {
        report.rounds.push(Round {
            round,
            caesar_players: report.caesar.len(),
            pompey_players: report.pompey.len(),
            value: report.value,
            exploitability: None,
            responses: Vec::new(),
        });
    }
    if !full {
        report.stopped = format!(
            "{} during round {round}'s table: the value is the solve of the games played so far (resume the report to play on)",
            cut_reason(limits)
        );
        report.paused = true;
        return Ok(false);
    }
    let o = &report.options;
    if round <= o.rounds && !o.oracles.is_empty() && report.stopped.is_empty() {
        report.stage = Stage::Responses(round);
        return Ok(true);
    }
    if report.stopped.is_empty() {
        report.stopped = if o.oracles.is_empty() {
            "the players given, solved: no best responses were asked for".to_string()
        } else {
            report.paused = true;
            // Past round 1, the last round's responses joined: a run that
            // finds none stops there.
            format!(
                "{} of best responses done{} (resume with more --rounds to go on)",
                match o.rounds {
                    1 => "1 round".to_string(),
                    n => format!("{n} rounds"),
                },
                if round > 1 {
                    "; the last round's responses joined, and the table was solved with them"
                } else {
                    ""
                }
            )
        };
    }
    report.stage = Stage::Done;
    Ok(true)
}

/// Trains and measures round `round`'s best responses, and sets the next
/// stage; false when the budget would not hold them, or ended (or a cancel
/// came) while they were trained: they stay the stage, and the responses
/// measured by then stand in the round.
fn responses_stage(
    game: &Game,
    report: &mut BalanceReport,
    round: u32,
    limits: &Limits<'_>,
    watch: &Watch,
    clock: &mut Clock,
) -> Result<bool, BalanceError> {
    let expected = clock.responses_seconds(report);
    if limits
        .deadline
        .is_some_and(|d| Instant::now() + Duration::from_secs_f64(expected) > d)
    {
        report.stopped = format!(
            "the budget would not hold round {round}'s best responses (about {expected:.0} s here; resume the report to train them)"
        );
        report.paused = true;
        return Ok(false);
    }
    let t = Instant::now();
    let (joined, best_gain) = match oracle::respond(game, report, round, limits, watch) {
        Ok(done) => done,
        Err(BalanceError::Cancelled(_)) => {
            let measured = report
                .rounds
                .iter()
                .find(|r| r.round == round)
                .map_or(0, |r| r.responses.len());
            report.stopped = format!(
                "{} during round {round}'s best responses: {measured} measured so far stand in the round, none joined (resume the report to train them)",
                cut_reason(limits)
            );
            report.paused = true;
            return Ok(false);
        }
        Err(e) => return Err(e),
    };
    clock.responses_took(t.elapsed().as_secs_f64());
    let converged = best_gain <= report.options.threshold;
    if converged {
        report.stopped = format!(
            "no best response gained more than {:.1} points",
            report.options.threshold * 100.0
        );
        if joined {
            report.stopped.push_str(
                " (those that beat the value by more than their interval joined, and the table was solved with them)",
            );
        }
    } else if !joined {
        report.stopped = "no best response beat the value by more than its interval".to_string();
    }
    report.stage = if joined {
        Stage::Table(round + 1)
    } else {
        Stage::Done
    };
    Ok(true)
}

/// What the run has learnt of this machine's speed, to keep to a budget.
struct Clock {
    /// Wall seconds the last round of best responses took.
    responses_seconds: Option<f64>,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            responses_seconds: None,
        }
    }

    /// The expected wall time of a round of responses: the last one's, or
    /// a guess from the options before any.
    fn responses_seconds(&self, report: &BalanceReport) -> f64 {
        self.responses_seconds.unwrap_or_else(|| {
            // A heuristic game takes about a millisecond of wall time here, a
            // search about a hundred times more per playout budget of 16.
            let o = &report.options;
            let search = o.playouts as f64 / 16.0 * 0.1;
            let starts = oracle::STARTS_GUESS as f64 * o.start_games as f64;
            let per_side = (o.tune_games as f64 * f64::from(o.tune_restarts) + starts) * 0.001
                + o.learn_games as f64 * 0.001
                + o.response_games as f64 * o.oracles.len() as f64 * search;
            2.0 * per_side
        })
    }

    fn responses_took(&mut self, seconds: f64) {
        self.responses_seconds = Some(seconds);
    }
}

/// Plays the table until every cell that decides the equilibrium has its
/// games; `false` if the deadline (or a cancel) stopped it first, with the
/// games played until then kept.
///
/// The heuristic family's cells are played first and solved, so the
/// first answer comes in seconds whatever else the population holds; then
/// every cell gets its first games, game index by game index, so that a
/// budget ending midway leaves every pairing with about as many games
/// (the players of a search cost a hundred heuristic games each).
fn fill_table(
    game: &Game,
    report: &mut BalanceReport,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<bool, BalanceError> {
    let (offset, first, target) = report.options.cell_games();
    report.table.offset = offset;
    let fast = fast_members(report);
    let short_of = |table: &Table, rows: usize, columns: usize, games: u64| {
        let mut wanted = Vec::new();
        for i in 0..rows {
            for j in 0..columns {
                if table.cells[i][j].games() < games {
                    wanted.push((i, j, games));
                }
            }
        }
        wanted
    };
    let heuristic_family = short_of(&report.table, fast[0], fast[1], first);
    if !heuristic_family.is_empty() && fast != [report.table.rows(), report.table.columns()] {
        watch.say(format!(
            "the heuristic family first: {} games in {} cells",
            heuristic_family.len() as u64 * first,
            heuristic_family.len()
        ));
        if !play_cells(game, report, &heuristic_family, Order::ByPlayer, watch)? {
            return Ok(false);
        }
        solve_report(report)?;
        checkpoint(report);
    }
    let mut wanted = short_of(
        &report.table,
        report.table.rows(),
        report.table.columns(),
        first,
    );
    let mut first_pass = true;
    loop {
        if wanted.is_empty() {
            first_pass = false;
            let eq = report.table.solve()?;
            wanted = deciding_cells(&report.table, &eq)
                .into_iter()
                .filter_map(|(i, j)| {
                    let games = report.table.cells[i][j].games();
                    (games < target).then_some((i, j, (games * 2).max(first).min(target)))
                })
                .collect();
            if wanted.is_empty() {
                return Ok(true);
            }
        }
        watch.say(format!(
            "playing {} games in {} cells of the {}×{} meta-game",
            wanted
                .iter()
                .map(|&(i, j, to)| to - report.table.cells[i][j].games())
                .sum::<u64>(),
            wanted.len(),
            report.table.rows(),
            report.table.columns()
        ));
        let order = if first_pass {
            Order::ByPlayer
        } else {
            Order::ByGame
        };
        if !play_cells(game, report, &wanted, order, watch)? {
            return Ok(false);
        }
        first_pass = false;
        wanted.clear();
    }
}

impl BalanceOptions {
    /// The first game index of the cells, the games every cell gets first,
    /// and those a deciding cell gets: a shard plays its part of every
    /// cell, all of it at once.
    fn cell_games(&self) -> (u64, u64, u64) {
        match self.shard {
            Some(shard) => {
                let range = shard.range(self.games);
                let games = range.end - range.start;
                (range.start, games, games)
            }
            None => (0, self.first_games, self.games),
        }
    }
}

/// The order a table's games are played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    ByPlayer,
    ByGame,
}

/// Plays cell `(i, j)` on to `to` games for each of `wanted`, in `order`,
/// in batches. A cancel (or the budget's
/// end) keeps every game finished before it that continues its cell's
/// games: a cell's results stay games 0, 1, 2, … of the common seeds.
/// False when cut short.
fn play_cells(
    game: &Game,
    report: &mut BalanceReport,
    wanted: &[(usize, usize, u64)],
    order: Order,
    watch: &Watch,
) -> Result<bool, BalanceError> {
    let seed = report.options.seed ^ CELL_TAG;
    let offset = report.table.offset;
    let specs: [Vec<AiSpec>; 2] = [
        report.caesar.iter().map(|m| m.spec().clone()).collect(),
        report.pompey.iter().map(|m| m.spec().clone()).collect(),
    ];
    let omniscient = report.options.omniscient;
    let progress = &watch.progress;
    let mut jobs: Vec<(usize, usize, u64)> = wanted
        .iter()
        .flat_map(|&(i, j, to)| {
            let from = report.table.cells[i][j].games();
            (from..to).map(move |k| (i, j, k))
        })
        .collect();
    match order {
        // A new player's pairings whole before the next player's: the
        // table solved so far grows by a player at a time.
        Order::ByPlayer => jobs.sort_by_key(|&(i, j, k)| (i.max(j), k, i, j)),
        // Every cell a game further before any goes two.
        Order::ByGame => jobs.sort_by_key(|&(i, j, k)| (k, i.max(j), i, j)),
    }
    // Small enough that a cut loses little, large enough to keep every
    // thread busy between the batches.
    let batch = (rayon::current_num_threads() * 32).max(64);
    for chunk in jobs.chunks(batch) {
        let results: Vec<Option<u8>> = chunk
            .par_iter()
            .map(|&(i, j, k)| {
                if progress.is_cancelled() {
                    return None;
                }
                let r = doubled_points(
                    game,
                    [&specs[0][i], &specs[1][j]],
                    seed,
                    offset + k,
                    omniscient,
                );
                progress.tick();
                Some(r)
            })
            .collect();
        let mut cut = false;
        for (&(i, j, k), r) in chunk.iter().zip(results) {
            let cell = &mut report.table.cells[i][j];
            match r {
                // A game after a gap in its cell is not kept.
                Some(r) if cell.games() == k => {
                    cell.push(r);
                    report.games_played += 1;
                }
                _ => cut = true,
            }
        }
        if cut || progress.is_cancelled() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How many of each side's first members play without searching (the
/// heuristic family, about a millisecond a game): the table's first tier.
fn fast_members(report: &BalanceReport) -> [usize; 2] {
    [&report.caesar, &report.pompey].map(|members| {
        members
            .iter()
            .take_while(|m| m.spec.as_ref().is_some_and(|s| cost_rank(s) == 0))
            .count()
    })
}

/// The order a population's players enter the table in: the heuristic
/// family (0) first, then searches by their budgets, so that the players
/// a short budget can afford are the ones solved.
pub fn cost_rank(spec: &AiSpec) -> u64 {
    match spec {
        AiSpec::Random | AiSpec::Heuristic | AiSpec::TunedHeuristic(_) => 0,
        AiSpec::Search { playouts } => u64::from(*playouts),
        AiSpec::Mcts { playouts } => 4 * u64::from(*playouts),
        AiSpec::SearchOn(on) => cost_rank(&on.search) + u64::from(on.value.is_some()),
        AiSpec::SearchTimed { millis } | AiSpec::MctsTimed { millis } => {
            100_000 + u64::from(*millis)
        }
        AiSpec::Equilibrium(_) => 1_000_000,
    }
}

/// The players the table can be solved over: the first of each side
/// whose pairings all hold their `first` games (the population's cheapest
/// come first, and a player's pairings are played whole before the next
/// player's, so it is all of them once every cell has its first games).
fn ready(table: &Table, first: u64) -> [usize; 2] {
    let filled = |i: usize, j: usize| table.cells[i][j].games() >= first.max(1);
    if table.rows() == 0 || table.columns() == 0 || !filled(0, 0) {
        return [0, 0];
    }
    let (mut rows, mut columns) = (1, 1);
    loop {
        let mut grew = false;
        if rows < table.rows() && (0..columns).all(|j| filled(rows, j)) {
            rows += 1;
            grew = true;
        }
        if columns < table.columns() && (0..rows).all(|i| filled(i, columns)) {
            columns += 1;
            grew = true;
        }
        if !grew {
            return [rows, columns];
        }
    }
}

/// The cells that decide the equilibrium: rows in Caesar's mix or whose
/// optimistic payoff against Pompey's mix reaches the value (they could be
/// a best response), against columns likewise.
fn deciding_cells(table: &Table, eq: &Equilibrium) -> Vec<(usize, usize)> {
    let upper: Vec<Vec<f64>> = table
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.interval()[1]).collect())
        .collect();
    let lower: Vec<Vec<f64>> = table
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.interval()[0]).collect())
        .collect();
    let rows: Vec<bool> = (0..table.rows())
        .map(|i| eq.caesar[i] > IN_MIX || solve::row_payoff(&upper, i, &eq.pompey) >= eq.value)
        .collect();
    let columns: Vec<bool> = (0..table.columns())
        .map(|j| eq.pompey[j] > IN_MIX || solve::column_payoff(&lower, j, &eq.caesar) <= eq.value)
        .collect();
    let mut cells = Vec::new();
    // A row that could be a best response is judged against the columns
    // Pompey plays, and a column against the rows Caesar plays.
    for (i, &row) in rows.iter().enumerate() {
        for (j, &column) in columns.iter().enumerate() {
            let in_play = (row && eq.pompey[j] > IN_MIX) || (column && eq.caesar[i] > IN_MIX);
            if in_play {
                cells.push((i, j));
            }
        }
    }
    cells
}

/// Solves the table and fills the report's equilibrium, regrets, mirrors,
/// bootstrap interval and coverage: over the players whose pairings all
/// hold games ([`ready`]), so that a table cut short by the budget is
/// solved as far as it was played. A table without a game is left
/// unsolved.
pub(super) fn solve_report(report: &mut BalanceReport) -> Result<(), BalanceError> {
    let (_, first, asked) = report.options.cell_games();
    let [rows, columns] = ready(&report.table, first);
    if rows == 0 || columns == 0 {
        report.coverage = Some(Coverage {
            solved: [0, 0],
            deciding_short: 0,
            fewest_games: 0,
            asked_games: report.options.games,
        });
        return Ok(());
    }
    let table = report.table.corner(rows, columns);
    let eq = table.solve()?;
    let shares = table.shares();
    let replicates = table::bootstrap(
        &[&table],
        report.options.replicates,
        report.options.seed ^ BOOT_TAG,
    )?;
    let values: Vec<f64> = replicates.iter().map(|r| r[0].value).collect();
    let support = |mix: &[f64]| -> Vec<bool> { mix.iter().map(|w| *w > 0.01).collect() };
    let same = replicates
        .iter()
        .filter(|r| {
            support(&r[0].caesar) == support(&eq.caesar)
                && support(&r[0].pompey) == support(&eq.pompey)
        })
        .count();
    report.stability = same as f64 / replicates.len().max(1) as f64;
    let [lo, hi] = table::percentile_interval(&values);
    report.value = Interval {
        estimate: eq.value,
        ci95: [lo.min(eq.value), hi.max(eq.value)],
    };
    let weighted = |members: &[Member], mix: &[f64]| -> Vec<Weighted> {
        let mut w: Vec<Weighted> = members
            .iter()
            .zip(mix)
            .filter(|(_, w)| **w > IN_MIX)
            .map(|(m, w)| Weighted {
                player: m.player.clone(),
                words: m.words.clone(),
                weight: *w,
            })
            .collect();
        w.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        w
    };
    report.caesar_mix = weighted(&report.caesar, &eq.caesar);
    report.pompey_mix = weighted(&report.pompey, &eq.pompey);
    report.caesar_regret = (0..rows)
        .map(|i| eq.value - solve::row_payoff(&shares, i, &eq.pompey))
        .collect();
    report.pompey_regret = (0..columns)
        .map(|j| solve::column_payoff(&shares, j, &eq.caesar) - eq.value)
        .collect();
    report.mirrors = report.caesar[..rows]
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let j = report.pompey[..columns]
                .iter()
                .position(|p| p.digest == m.digest)?;
            let cell = &table.cells[i][j];
            Some(MirrorShare {
                player: m.player.clone(),
                words: m.words.clone(),
                share: Interval {
                    estimate: cell.share(),
                    ci95: cell.interval(),
                },
                games: cell.games(),
            })
        })
        .collect();
    let deciding: Vec<u64> = deciding_cells(&table, &eq)
        .into_iter()
        .map(|(i, j)| table.cells[i][j].games())
        .collect();
    report.coverage = Some(Coverage {
        solved: [rows, columns],
        deciding_short: deciding.iter().filter(|&&g| g < asked).count(),
        fewest_games: deciding.iter().copied().min().unwrap_or(0),
        asked_games: asked,
    });
    Ok(())
}

/// The opponent a game of an evaluation meets: drawn from `mix` by weight
/// with the game's seed.
pub fn draw_member(mix: &[(f64, &Member)], seed: u64, k: u64) -> usize {
    let u = unit(game_seed(seed ^ MIX_TAG, k));
    let total: f64 = mix.iter().map(|(w, _)| w).sum();
    let mut target = u * total;
    for (i, (w, _)) in mix.iter().enumerate() {
        target -= w;
        if target < 0.0 {
            return i;
        }
    }
    mix.len().saturating_sub(1)
}

fn unit(seed: u64) -> f64 {
    (seed >> 11) as f64 / (1u64 << 53) as f64
}

/// A player measured against the other side's equilibrium mix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    pub player: String,
    pub words: String,
    pub side: Side,
    pub games: u64,
    pub seed: u64,
    /// The challenger's side's share of the points.
    pub share: Interval,
    /// Its share less its side's value at equilibrium; the interval adds
    /// the value's own uncertainty.
    pub gain: Interval,
    /// The value it is compared with (its side's).
    pub value: Interval,
}

/// Plays `challenger` as `side` against the other side's mix of `report`,
/// one member drawn per game from the game's seed.
pub fn challenge(
    game: &Game,
    report: &BalanceReport,
    challenger: &AiSpec,
    side: Side,
    games: u64,
    seed: u64,
    progress: &Progress,
) -> Result<Challenge, Cancelled> {
    // A challenge's games are its own stream: never a run's cells or training.
    let stream = seed ^ CHALLENGE_TAG;
    let share = against_mix(game, report, challenger, side, games, stream, progress)?;
    let value = report.value_for(side);
    Ok(Challenge {
        player: challenger.to_string(),
        words: words(challenger),
        side,
        games,
        seed,
        share,
        gain: gain(share, value),
        value,
    })
}

/// `side`'s share of the points when `player` plays it against the other
/// side's mix of `report` over `games` games from `seed`, one member drawn
/// per game from the game's seed.
fn against_mix(
    game: &Game,
    report: &BalanceReport,
    player: &AiSpec,
    side: Side,
    games: u64,
    seed: u64,
    progress: &Progress,
) -> Result<Interval, Cancelled> {
    let mix = report.mix(side.other());
    let omniscient = report.options.omniscient;
    let results: Vec<Option<u8>> = (0..games)
        .into_par_iter()
        .map(|k| {
            if progress.is_cancelled() {
                return None;
            }
            let opponent = mix[draw_member(&mix, seed, k)].1.spec();
            let players = match side {
                Side::Caesar => [player, opponent],
                Side::Pompey => [opponent, player],
            };
            let caesar = doubled_points(game, players, seed, k, omniscient);
            progress.tick();
            Some(match side {
                Side::Caesar => caesar,
                Side::Pompey => 2 - caesar,
            })
        })
        .collect();
    let mut cell = Cell::default();
    for r in results {
        cell.push(r.ok_or(Cancelled)?);
    }
    Ok(Interval {
        estimate: cell.share(),
        ci95: cell.interval(),
    })
}

/// `share − value`, with both uncertainties added in quadrature.
fn gain(share: Interval, value: Interval) -> Interval {
    let half = |i: Interval| (i.ci95[1] - i.ci95[0]) / 2.0;
    let h = (half(share).powi(2) + half(value).powi(2)).sqrt();
    let estimate = share.estimate - value.estimate;
    Interval {
        estimate,
        ci95: [estimate - h, estimate + h],
    }
}

/// The balance at equilibrium of two rule sets (or setups), and their
/// difference over the same game seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceComparison {
    pub a: BalanceReport,
    pub b: BalanceReport,
    /// A's value less B's, with a bootstrap interval that resamples the
    /// same game indices in both tables.
    pub difference: Interval,
    /// Whether the difference's sign held at every round both runs solved.
    pub held_every_round: bool,
}

/// Compares two finished runs.
pub fn compare(a: BalanceReport, b: BalanceReport) -> Result<BalanceComparison, BalanceError> {
    let replicates = table::bootstrap(
        &[&a.table, &b.table],
        a.options.replicates.max(b.options.replicates),
        a.options.seed ^ BOOT_TAG,
    )?;
    let differences: Vec<f64> = replicates.iter().map(|r| r[0].value - r[1].value).collect();
    let estimate = a.value.estimate - b.value.estimate;
    let [lo, hi] = table::percentile_interval(&differences);
    let sign = estimate.signum();
    let held_every_round = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .all(|(ra, rb)| (ra.value.estimate - rb.value.estimate).signum() == sign);
    Ok(BalanceComparison {
        a,
        b,
        difference: Interval {
            estimate,
            ci95: [lo.min(estimate), hi.max(estimate)],
        },
        held_every_round,
    })
}

/// "a", "a and b", "a, b and c".
fn listed(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How the best responses of `oracles` were found, in words.
fn oracle_words(oracles: &[Oracle]) -> String {
    let words: Vec<&str> = oracles.iter().map(|o| o.words()).collect();
    match words.as_slice() {
        [] => "no training".to_string(),
        [one] => format!("{one} alone"),
        many => listed(many),
    }
}

/// The kinds of best response a run did not train, in words; `None` when
/// it trained them all.
fn untried_oracles(oracles: &[Oracle]) -> Option<String> {
    let untried: Vec<&str> = Oracle::ALL
        .iter()
        .filter(|o| !oracles.contains(o))
        .map(|o| o.untried())
        .collect();
    (!untried.is_empty()).then(|| listed(&untried))
}

impl BalanceReport {
    /// The verdict in words.
    pub fn verdict(&self) -> String {
        if self.caesar_mix.is_empty() {
            return format!(
                "No equilibrium yet: the run stopped before its first table was solved ({}).",
                self.stopped
            );
        }
        let v = self.value;
        let mut text = format!(
            "At equilibrium Caesar wins {:.0}% ({:.0}–{:.0}).",
            v.estimate * 100.0,
            v.ci95[0] * 100.0,
            v.ci95[1] * 100.0
        );
        let last = self.rounds.iter().rev().find(|r| !r.responses.is_empty());
        match (last, self.exploitability) {
            (Some(round), Some(e)) => {
                let best = |side: Side| {
                    round
                        .responses
                        .iter()
                        .filter(|r| r.side == side)
                        .map(Response::counted_gain)
                        .fold(f64::NEG_INFINITY, f64::max)
                        .max(0.0)
                        * 100.0
                };
                let bound = e.ci95[1].max(e.estimate) * 100.0;
                let (caesar, pompey) = (best(Side::Caesar), best(Side::Pompey));
                let untested = self.rounds.last().is_some_and(|r| r.round > round.round);
                match untried_oracles(&self.options.oracles) {
                    // Some joined and the table was solved again: the gains
                    // were against the mix before them, not this one.
                    _ if untested => text.push_str(&format!(
                        " Round {}'s best responses gained {caesar:.1} (Caesar) and {pompey:.1} (Pompey) points against the mixes before them and joined; no best response has been tried against this equilibrium yet (resume the run with more --rounds).",
                        round.round
                    )),
                    None => text.push_str(&format!(
                        " The best new players either side could find gained {caesar:.1} (Caesar) and {pompey:.1} (Pompey) points: no player we could build moves it by more than {bound:.1}."
                    )),
                    // The claim reaches only as far as the trainings tried.
                    Some(untried) => text.push_str(&format!(
                        " The best new players either side could find by {} gained {caesar:.1} (Caesar) and {pompey:.1} (Pompey) points: none of those moves it by more than {bound:.1}; {untried} were not tried.",
                        oracle_words(&self.options.oracles)
                    )),
                }
            }
            _ if !self.is_done() && !self.options.oracles.is_empty() => text.push_str(
                " Best responses are still to be trained: until they are, this is the equilibrium of the players given.",
            ),
            _ => text.push_str(
                " No best response was trained: this is the equilibrium of the players given, not yet a claim that no player moves it.",
            ),
        }
        if let Some(words) = self.coverage_words() {
            text.push(' ');
            text.push_str(&words);
        }
        if self.stability < 0.8 {
            text.push_str(&format!(
                " The mixes are unsettled: {:.0}% of the resamples use the same players.",
                self.stability * 100.0
            ));
        }
        text
    }

    /// What the value rests on where the table is not whole: the players
    /// it is solved over and the deciding pairings short of their games;
    /// `None` for a whole table.
    pub fn coverage_words(&self) -> Option<String> {
        let c = self.coverage?;
        let mut parts = Vec::new();
        let [caesar, pompey] = c.solved;
        if caesar < self.caesar.len() || pompey < self.pompey.len() {
            parts.push(format!(
                "It rests on {caesar} of Caesar's {} players and {pompey} of Pompey's {}, the cheapest first: the others' games were not played yet.",
                self.caesar.len(),
                self.pompey.len()
            ));
        }
        if c.deciding_short > 0 {
            parts.push(format!(
                "{} pairing{} that decide{} it ha{} fewer games than the {} asked (the fewest {}).",
                c.deciding_short,
                if c.deciding_short == 1 { "" } else { "s" },
                if c.deciding_short == 1 { "s" } else { "" },
                if c.deciding_short == 1 { "s" } else { "ve" },
                c.asked_games,
                c.fewest_games
            ));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

impl fmt::Display for BalanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Balance at equilibrium: {} on {} ({} games, {:.0} s)",
            self.variant, self.played_on.scenario, self.games_played, self.elapsed_seconds
        )?;
        writeln!(f, "{}", self.verdict())?;
        writeln!(f)?;
        // The interval is the table's dice; another seed trains other
        // responses, and only pooling runs says how far that moves it.
        writeln!(
            f,
            "Caesar's share at equilibrium: {} % (the interval: this table's dice, not other seeds' players)",
            self.value.points()
        )?;
        if let Some(e) = self.exploitability {
            writeln!(
                f,
                "Exploitability, a lower bound (both sides' best gains among the responses trained; a stronger player may gain more): {} points",
                e.points()
            )?;
        }
        writeln!(
            f,
            "Stable under the bootstrap: {:.0}% of {} resamples keep the same players in each mix",
            self.stability * 100.0,
            self.options.replicates
        )?;
        for (side, mix, regret, members) in [
            (
                Side::Caesar,
                &self.caesar_mix,
                &self.caesar_regret,
                &self.caesar,
            ),
            (
                Side::Pompey,
                &self.pompey_mix,
                &self.pompey_regret,
                &self.pompey,
            ),
        ] {
            writeln!(f)?;
            writeln!(f, "{side}'s mix:")?;
            for w in mix {
                writeln!(
                    f,
                    "  {:5.1}%  {}  ({})",
                    w.weight * 100.0,
                    w.words,
                    w.player
                )?;
            }
            writeln!(
                f,
                "{side}'s players, regret against the other side's mix (points):"
            )?;
            for (m, r) in members.iter().zip(regret) {
                writeln!(f, "  {:6.1}  {}", r * 100.0, m.words)?;
            }
        }
        if !self.mirrors.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "What the mirror matches would have said (Caesar's share):"
            )?;
            for m in &self.mirrors {
                writeln!(
                    f,
                    "  {} %  {} ({} games)",
                    m.share.points(),
                    m.words,
                    m.games
                )?;
            }
        }
        writeln!(f)?;
        writeln!(f, "Rounds:")?;
        for round in &self.rounds {
            write!(f, "{round}")?;
        }
        writeln!(f, "Stopped: {}", self.stopped)
    }
}

/// A round's lines in the text report: its table and its responses.
impl fmt::Display for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "  {}: {}×{} players, value {} %",
            self.round,
            self.caesar_players,
            self.pompey_players,
            self.value.points()
        )?;
        match self.exploitability {
            Some(e) => writeln!(f, ", exploitability {} points", e.points())?,
            None => writeln!(f)?,
        }
        for resp in &self.responses {
            writeln!(
                f,
                "     {} {}: gains {} points over {} games{}",
                resp.side,
                resp.words,
                resp.gain.points(),
                resp.games,
                match (resp.joined, resp.member_again) {
                    (true, _) => " (joined)",
                    (false, true) => " (a member's numbers again: it counts 0)",
                    (false, false) => "",
                }
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} as {} against the other side's equilibrium mix ({} games, seed {}):",
            self.words, self.side, self.games, self.seed
        )?;
        writeln!(f, "  {}'s share: {} %", self.side, self.share.points())?;
        writeln!(f, "  value at equilibrium: {} %", self.value.points())?;
        writeln!(f, "  gain over the value: {} points", self.gain.points())
    }
}

impl BalanceComparison {
    /// What tells A and B apart: their rule sets, or their setups when the
    /// rule set is one.
    pub fn labels(&self) -> [&str; 2] {
        if self.a.variant == self.b.variant {
            [&self.a.played_on.scenario, &self.b.played_on.scenario]
        } else {
            [&self.a.variant, &self.b.variant]
        }
    }
}

impl fmt::Display for BalanceComparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.labels();
        writeln!(
            f,
            "Caesar's share at equilibrium: {a} {} %, {b} {} %",
            self.a.value.points(),
            self.b.value.points()
        )?;
        writeln!(
            f,
            "Difference ({a} − {b}): {} points, {}",
            self.difference.points(),
            if self.held_every_round {
                "its sign held at every round"
            } else {
                "its sign changed between rounds"
            }
        )?;
        writeln!(f)?;
        write!(f, "{}", self.a)?;
        writeln!(f)?;
        write!(f, "{}", self.b)
    }
}

/// The players a balance starts from for a setup: the default heuristic,
/// every player shipped with a rating under the rule set (or the nearest
/// rule set it extends that has some), the setup's fitted players (its
/// bundle), then the players named; each once, by what it plays. Random
/// is left out: it loses every game, so it is never in a mix.
pub fn population(
    lineage: &[crate::scenario::rules::RuleSet],
    bundle: &[crate::sim::players::ratings::Rating],
    named: &[AiSpec],
    shipped: bool,
) -> Result<Vec<Member>, crate::ai::NotAPlayer> {
    let mut members: Vec<Member> = Vec::new();
    let mut add = |spec: AiSpec, origin: Origin| {
        let m = Member::new(spec, origin);
        if !members.iter().any(|o| o.digest == m.digest) {
            members.push(m);
        }
    };
    if shipped {
        add(AiSpec::Heuristic, Origin::Shipped);
        let ratings = crate::sim::players::ratings::shipped();
        for rules in lineage {
            let ranked = crate::sim::players::ratings::ranked_for(&ratings, &rules.play_digest());
            if ranked.is_empty() {
                continue;
            }
            for r in ranked {
                let spec = crate::sim::players::ratings::shipped_player(&r.player)?;
                if spec != AiSpec::Random {
                    add(spec, Origin::Shipped);
                }
            }
            break;
        }
        for r in bundle {
            add(
                crate::sim::players::ratings::shipped_player(&r.player)?,
                Origin::Fitted,
            );
        }
    }
    for spec in named {
        add(spec.clone(), Origin::Named);
    }
    // The cheapest first: they are the table's first tier and its first
    // answer ([`fill_table`]).
    members.sort_by_key(|m| m.spec.as_ref().map_or(u64::MAX, cost_rank));
    Ok(members)
}

impl BalanceReport {
    /// Checks a report read from a file: a table of the population's shape
    /// holding only game results, and mixes that are mixes.
    pub fn check(&self) -> Result<(), MalformedReport> {
        self.check_counts()?;
        self.check_figures()?;
        self.check_table_and_mixes()
    }

    /// The options, the shard, the players, the cells' games, the stage
    /// and the rounds: what sizes anything, checked first.
    fn check_counts(&self) -> Result<(), MalformedReport> {
        let o = &self.options;
        o.check_limits().map_err(|e| {
            MalformedReport(format!("its field `options` is not as a run's can be: {e}"))
        })?;
        if let Some(shard) = o.shard
            && (shard.count == 0 || shard.index >= shard.count)
        {
            return bad(
                "options.shard",
                format!(
                    "a shard index below its count (got index {} of {})",
                    shard.index, shard.count
                ),
            );
        }
        if self.caesar.is_empty() || self.pompey.is_empty() {
            return bad("caesar/pompey", "at least one player a side".to_string());
        }
        if self
            .table
            .cells
            .iter()
            .flatten()
            .any(|c| self.table.offset.saturating_add(c.games()) > o.games)
        {
            return bad(
                "table",
                format!(
                    "no pairing past the {} games a pairing is asked (with its offset {})",
                    o.games, self.table.offset
                ),
            );
        }
        let most_rounds = o.rounds.saturating_add(1);
        match self.stage {
            Stage::Table(n) | Stage::Responses(n) if n == 0 || n > most_rounds => {
                return bad(
                    "stage",
                    format!("a round from 1 to {most_rounds} (got {n})"),
                );
            }
            Stage::Responses(_) if self.caesar_mix.is_empty() || self.pompey_mix.is_empty() => {
                return bad(
                    "caesar_mix/pompey_mix",
                    "each side's mix before its best responses are trained".to_string(),
                );
            }
            _ => {}
        }
        if self.rounds.len() > most_rounds as usize
            || self
                .rounds
                .iter()
                .any(|r| r.round == 0 || r.round > most_rounds)
        {
            return bad(
                "rounds",
                format!("at most {most_rounds} rounds, numbered from 1"),
            );
        }
        Ok(())
    }

    /// The figures solved from the table: within the players and in range.
    fn check_figures(&self) -> Result<(), MalformedReport> {
        if self.caesar_regret.len() > self.caesar.len()
            || self.pompey_regret.len() > self.pompey.len()
        {
            return bad(
                "caesar_regret/pompey_regret",
                "at most one regret a player".to_string(),
            );
        }
        if let Some(c) = self.coverage
            && (c.solved[0] > self.caesar.len() || c.solved[1] > self.pompey.len())
        {
            return bad("coverage.solved", "at most each side's players".to_string());
        }
        if !(self.stability.is_finite() && (0.0..=1.0).contains(&self.stability)) {
            return bad("stability", "a share from 0 to 1".to_string());
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return bad("elapsed_seconds", "seconds, 0 or more".to_string());
        }
        let share = self.value.estimate;
        let a_share = share.is_finite() && (0.0..=1.0).contains(&share);
        if !self.caesar_mix.is_empty() && !a_share {
            return bad("value", "Caesar's share from 0 to 1".to_string());
        }
        Ok(())
    }

    /// A table of the population's shape holding only game results, and
    /// mixes that are mixes of the side's players.
    fn check_table_and_mixes(&self) -> Result<(), MalformedReport> {
        if self.table.rows() != self.caesar.len()
            || self
                .table
                .cells
                .iter()
                .any(|r| r.len() != self.pompey.len())
        {
            return Err(MalformedReport(format!(
                "its table is not {}×{} as its players are",
                self.caesar.len(),
                self.pompey.len()
            )));
        }
        for cell in self.table.cells.iter().flatten() {
            cell.check().map_err(|e| MalformedReport(e.to_string()))?;
        }
        for (side, mix) in [
            (Side::Caesar, &self.caesar_mix),
            (Side::Pompey, &self.pompey_mix),
        ] {
            if mix
                .iter()
                .any(|w| !(w.weight.is_finite() && (0.0..=1.0).contains(&w.weight)))
            {
                return Err(MalformedReport(format!(
                    "{side}'s mix has a weight outside 0 to 1"
                )));
            }
            let total: f64 = mix.iter().map(|w| w.weight).sum();
            if !mix.is_empty() && (total - 1.0).abs() > 1e-6 {
                return Err(MalformedReport(format!(
                    "{side}'s mix weighs {total}, not 1"
                )));
            }
            if let Some(w) = mix
                .iter()
                .find(|w| !self.members(side).iter().any(|m| m.player == w.player))
            {
                return Err(MalformedReport(format!(
                    "{side}'s mix names {}, who is not among its players",
                    w.player
                )));
            }
        }
        Ok(())
    }
}

/// Reads a saved report's players again (a report keeps their names and
/// digests, not their numbers) and checks that each plays as it did.
pub fn reload_players(report: &mut BalanceReport) -> Result<(), BalanceError> {
    report
        .check()
        .map_err(|e| BalanceError::Resume(e.to_string()))?;
    for m in report.caesar.iter_mut().chain(report.pompey.iter_mut()) {
        let spec = crate::sim::players::ratings::shipped_player(&m.player)
            .map_err(|e| BalanceError::Resume(format!("the report's player {}: {e}", m.player)))?;
        if spec_digest(&spec) != m.digest {
            return Err(BalanceError::Resume(format!(
                "the player {} plays otherwise than when the report was made (its files changed)",
                m.player
            )));
        }
        m.spec = Some(spec);
    }
    Ok(())
}

/// Refuses a saved report made on another setup or rule set than `game`.
pub fn check_setup(report: &BalanceReport, game: &Game) -> Result<(), BalanceError> {
    let here = PlayedOn::of(game);
    if here.scenario_digest != report.played_on.scenario_digest {
        return Err(BalanceError::Resume(format!(
            "the report was made on another setup ({} {}), not this one ({} {})",
            report.played_on.scenario,
            report.played_on.scenario_digest,
            here.scenario,
            here.scenario_digest
        )));
    }
    if here.variant_digest != report.played_on.variant_digest {
        return Err(BalanceError::Resume(format!(
            "the report was made under another rule set ({}, digest {}), not this one (digest {})",
            report.variant, report.played_on.variant_digest, here.variant_digest
        )));
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A solved table (6 games a cell) of the random player and the
    /// default heuristic on each side, with no rounds.
    pub(in crate::sim::questions::balance) fn solved_report(game: &Game) -> BalanceReport {
        let members = || {
            vec![
                Member::new(crate::ai::AiSpec::Random, Origin::Named),
                Member::new(crate::ai::AiSpec::Heuristic, Origin::Shipped),
            ]
        };
        let options = BalanceOptions {
            first_games: 6,
            games: 6,
            rounds: 0,
            oracles: Vec::new(),
            replicates: 20,
            ..BalanceOptions::default()
        };
        let mut report =
            BalanceReport::start(game, "rules-2.0", options, members(), members()).unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: None,
        };
        run(game, &mut report, &limits, &Watch::new(), &mut |_| {}).unwrap();
        report
    }

    fn report_over(game: &Game, options: BalanceOptions) -> BalanceReport {
        let members = || {
            vec![
                Member::new(AiSpec::Random, Origin::Named),
                Member::new(AiSpec::Heuristic, Origin::Named),
            ]
        };
        BalanceReport::start(game, "rules-2.0", options, members(), members()).unwrap()
    }

    /// A solved report whose table is fixed so that Pompey's heuristic
    /// column loses everything: Pompey's mix is the random player, Caesar's
    /// value 30%, and round 1's best responses are next.
    fn weak_mix_report(game: &Game, rounds: u32) -> BalanceReport {
        let options = BalanceOptions {
            first_games: 30,
            games: 30,
            rounds,
            oracles: vec![Oracle::Tune],
            response_games: 40,
            tune_games: 560,
            // From the side's heaviest member: screened starts make
            // Pompey's response strong enough to join too.
            start_games: 0,
            replicates: 40,
            ..BalanceOptions::default()
        };
        let mut report = report_over(game, options);
        for (i, row) in report.table.cells.iter_mut().enumerate() {
            row[0] = Cell::from_results(
                &"1100000000".repeat(3)[..30].replace('1', if i == 0 { "1" } else { "2" }),
            )
            .unwrap();
            row[1] = Cell::from_results(&"2".repeat(30)).unwrap();
        }
        solve_report(&mut report).unwrap();
        // As the table stage leaves it: round 1 solved, its responses next.
        report.rounds.push(Round {
            round: 1,
            caesar_players: report.caesar.len(),
            pompey_players: report.pompey.len(),
            value: report.value,
            exploitability: None,
            responses: Vec::new(),
        });
        report.stage = Stage::Responses(1);
        report
    }

    #[test]
    fn a_best_response_to_a_fixed_weak_mix_joins_and_raises_that_sides_value() {
        let game = crate::test_support::published("rules-2.0");
        let mut report = weak_mix_report(&game, 1);
        assert_eq!(report.pompey_mix.len(), 1);
        assert_eq!(report.pompey_mix[0].player, "random");
        let before = report.value.estimate;
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: Some(dir.path()),
        };
        run(&game, &mut report, &limits, &Watch::new(), &mut |_| {}).unwrap();
        let trained = report
            .caesar
            .iter()
            .find(|m| {
                matches!(
                    m.origin,
                    Origin::Trained {
                        round: 1,
                        oracle: Oracle::Tune
                    }
                )
            })
            .expect("Caesar's tuned response joined");
        assert!(
            dir.path().join("r1-caesar-tuned.ron").exists(),
            "{}",
            trained.player
        );
        assert!(
            report.value.estimate > before + 0.2,
            "{before} -> {}",
            report.value.estimate
        );
        assert!(report.is_done());
        // Its verdict says the new equilibrium is still to be tested.
        let verdict = report.verdict();
        assert!(
            verdict.contains("Round 1's best responses gained")
                && verdict.contains("no best response has been tried against this equilibrium yet"),
            "{verdict}"
        );
        // The new row was played against every column.
        assert!(report.table.cells[2].iter().all(|c| c.games() == 30));
    }

    #[test]
    fn a_run_resumed_from_any_stage_reaches_the_uninterrupted_report() {
        let game = crate::test_support::published("rules-2.0");
        let options = BalanceOptions {
            first_games: 8,
            games: 16,
            rounds: 1,
            oracles: vec![Oracle::Tune],
            response_games: 20,
            // One CMA-ES generation a tuning: the stages matter here, not
            // how strong the responses are.
            tune_games: oracle::tune_generation_games(),
            start_games: 20,
            tune_restarts: 2,
            replicates: 20,
            ..BalanceOptions::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: Some(dir.path()),
        };
        let mut whole = report_over(&game, options.clone());
        let mut checkpoints = Vec::new();
        run(&game, &mut whole, &limits, &Watch::new(), &mut |r| {
            checkpoints.push(serde_json::to_string(r).unwrap())
        })
        .unwrap();
        assert!(checkpoints.len() >= 2, "{}", checkpoints.len());
        let strip = |r: &BalanceReport| {
            let mut r = r.clone();
            r.elapsed_seconds = 0.0;
            serde_json::to_string(&r).unwrap()
        };
        // Killed after each stage: read its checkpoint back and go on.
        for saved in &checkpoints {
            let mut resumed: BalanceReport = serde_json::from_str(saved).unwrap();
            reload_players(&mut resumed).unwrap();
            run(&game, &mut resumed, &limits, &Watch::new(), &mut |_| {}).unwrap();
            assert_eq!(strip(&resumed), strip(&whole));
        }
    }

    #[test]
    fn a_cut_table_is_solved_as_far_as_it_got_and_resumes_to_the_whole() {
        let game = crate::test_support::published("rules-2.0");
        let members = || {
            vec![
                Member::new(AiSpec::Search { playouts: 1 }, Origin::Named),
                Member::new(AiSpec::Random, Origin::Named),
                Member::new(AiSpec::Heuristic, Origin::Named),
            ]
        };
        let options = BalanceOptions {
            first_games: 4,
            games: 4,
            rounds: 0,
            oracles: Vec::new(),
            replicates: 20,
            ..BalanceOptions::default()
        };
        let start = || {
            let mut members = members();
            // As `population` orders them: the heuristic family first.
            members.sort_by_key(|m| cost_rank(m.spec()));
            BalanceReport::start(
                &game,
                "rules-2.0",
                options.clone(),
                members.clone(),
                members,
            )
            .unwrap()
        };
        let limits = Limits {
            deadline: None,
            players_dir: None,
        };
        let mut whole = start();
        run(&game, &mut whole, &limits, &Watch::new(), &mut |_| {}).unwrap();
        assert_eq!(whole.coverage.unwrap().solved, [3, 3]);
        assert_eq!(whole.coverage_words(), None);
        // Cancelled the moment the heuristic family's table is solved.
        let mut cut = start();
        let watch = Watch::new();
        run(&game, &mut cut, &limits, &watch, &mut |_| {
            watch.progress.cancel()
        })
        .unwrap();
        assert!(
            cut.paused && cut.stage == Stage::Table(1),
            "{:?}",
            cut.stage
        );
        assert!(
            cut.stopped.contains("cancelled during round 1's table"),
            "{}",
            cut.stopped
        );
        assert_eq!(cut.coverage.unwrap().solved, [2, 2]);
        assert!(!cut.caesar_mix.is_empty() && cut.value.estimate.is_finite());
        assert_eq!(cut.caesar_regret.len(), 2);
        let words = cut.verdict();
        assert!(
            words.contains("It rests on 2 of Caesar's 3 players"),
            "{words}"
        );
        // Read back from its checkpoint and resumed: the uninterrupted report.
        let mut resumed: BalanceReport =
            serde_json::from_str(&serde_json::to_string(&cut).unwrap()).unwrap();
        reload_players(&mut resumed).unwrap();
        run(&game, &mut resumed, &limits, &Watch::new(), &mut |_| {}).unwrap();
        let strip = |r: &BalanceReport| {
            let mut r = r.clone();
            r.elapsed_seconds = 0.0;
            serde_json::to_string(&r).unwrap()
        };
        assert_eq!(strip(&resumed), strip(&whole));
    }

    #[test]
    fn the_table_is_solved_over_the_players_whose_pairings_hold_their_first_games() {
        let mut t = Table::new(3, 3);
        let two = Cell::from_results("20").unwrap();
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)] {
            t.cells[i][j] = two.clone();
        }
        // Column 2 is empty: three Caesar players against two Pompey ones.
        assert_eq!(ready(&t, 2), [3, 2]);
        t.cells[0][2] = Cell::from_results("2").unwrap();
        assert_eq!(ready(&t, 2), [3, 2], "a pairing short of its first games");
        assert_eq!(
            ready(&t, 1),
            [3, 2],
            "row 1's pairing with column 2 is empty"
        );
        assert_eq!(ready(&Table::new(2, 2), 1), [0, 0]);
    }

    #[test]
    fn a_run_that_did_its_rounds_goes_on_when_resumed_with_more() {
        let game = crate::test_support::published("rules-2.0");
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: Some(dir.path()),
        };
        let strip = |r: &BalanceReport| {
            let mut r = r.clone();
            r.elapsed_seconds = 0.0;
            serde_json::to_string(&r).unwrap()
        };
        // One CMA-ES generation a tuning: what is compared is the resumed
        // run against the whole one, not how strong their responses are.
        let light = |rounds| {
            let mut report = weak_mix_report(&game, rounds);
            report.options.tune_games = oracle::tune_generation_games();
            report
        };
        let mut whole = light(2);
        run(&game, &mut whole, &limits, &Watch::new(), &mut |_| {}).unwrap();
        let mut short = light(1);
        run(&game, &mut short, &limits, &Watch::new(), &mut |_| {}).unwrap();
        assert!(short.is_done() && short.paused, "{}", short.stopped);
        assert_eq!(short.rounds.last().map(|r| r.round), Some(2));
        // Nothing more to do at the rounds it had.
        let mut same = short.clone();
        assert!(!same.go_on(None));
        assert!(same.is_done());
        assert!(short.go_on(Some(2)));
        assert_eq!(short.stage, Stage::Responses(2));
        run(&game, &mut short, &limits, &Watch::new(), &mut |_| {}).unwrap();
        assert_eq!(strip(&short), strip(&whole));
    }

    #[test]
    fn a_verdict_names_the_trainings_it_rests_on_unless_all_ran() {
        assert_eq!(untried_oracles(&Oracle::ALL), None);
        assert_eq!(
            oracle_words(&[Oracle::Tune, Oracle::Search]),
            "tuning and a search that plans against the mix"
        );
        assert_eq!(
            untried_oracles(&[Oracle::Search]).as_deref(),
            Some("tuned players and learned values")
        );
    }

    #[test]
    fn words_name_a_player_for_a_designer() {
        assert_eq!(
            words(&AiSpec::Search { playouts: 16 }),
            "Search (16 playouts)"
        );
        assert_eq!(words(&AiSpec::Heuristic), "Heuristic (default numbers)");
    }
}

/// Why shards of a table do not make one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BalanceMergeError {
    #[error("no reports to merge")]
    Nothing,
    #[error("{0} is not a shard of a balance table (it was run without --shard)")]
    NotAShard(String),
    #[error("{first} and {other} are not shards of one run: {why}")]
    OtherRun {
        first: String,
        other: String,
        why: &'static str,
    },
    #[error("shard {0} is given twice")]
    Twice(Shard),
    #[error("shard {shard} of {count} is missing: {games} of every cell would be lost")]
    Missing {
        shard: u32,
        count: u32,
        games: crate::sim::runs::options::GameRange,
    },
    #[error("{0} holds a cell of the wrong number of games for its shard: it was cut or edited")]
    Damaged(String),
    #[error("{0}: {1}")]
    Malformed(String, String),
}

/// The whole table from the reports of its shards (`balance --shard i/n`),
/// each with the name messages call it by: the report one machine would
/// have made.
pub fn merge(reports: Vec<(String, BalanceReport)>) -> Result<BalanceReport, BalanceMergeError> {
    let Some((first_name, first)) = reports.first() else {
        return Err(BalanceMergeError::Nothing);
    };
    let count = first
        .options
        .shard
        .ok_or_else(|| BalanceMergeError::NotAShard(first_name.clone()))?
        .count;
    let unsharded = |o: &BalanceOptions| BalanceOptions {
        shard: None,
        ..o.clone()
    };
    for (name, r) in &reports {
        r.check()
            .map_err(|e| BalanceMergeError::Malformed(name.clone(), e.to_string()))?;
    }
    let mut parts: Vec<Option<(String, BalanceReport)>> = vec![None; count as usize];
    for (name, r) in &reports {
        let shard = r
            .options
            .shard
            .ok_or_else(|| BalanceMergeError::NotAShard(name.clone()))?;
        let other = |why| BalanceMergeError::OtherRun {
            first: first_name.clone(),
            other: name.clone(),
            why,
        };
        if shard.count != count {
            return Err(other(
                "they split the games into different numbers of shards",
            ));
        }
        if unsharded(&r.options) != unsharded(&first.options) {
            return Err(other("their options differ"));
        }
        if r.played_on != first.played_on || r.variant != first.variant {
            return Err(other("they were played on different setups or rule sets"));
        }
        let digests = |m: &[Member]| m.iter().map(|m| m.digest.clone()).collect::<Vec<_>>();
        if digests(&r.caesar) != digests(&first.caesar)
            || digests(&r.pompey) != digests(&first.pompey)
        {
            return Err(other("their players differ"));
        }
        let range = shard.range(r.options.games);
        if r.table.offset != range.start
            || r.table
                .cells
                .iter()
                .flatten()
                .any(|c| c.games() != range.end - range.start)
        {
            return Err(BalanceMergeError::Damaged(name.clone()));
        }
        let slot = &mut parts[shard.index as usize];
        if slot.is_some() {
            return Err(BalanceMergeError::Twice(shard));
        }
        *slot = Some((name.clone(), r.clone()));
    }
    let mut merged = first.clone();
    merged.options.shard = None;
    merged.table = Table::new(first.caesar.len(), first.pompey.len());
    merged.games_played = 0;
    merged.elapsed_seconds = 0.0;
    for (index, part) in parts.iter().enumerate() {
        let Some((_, r)) = part else {
            let shard = Shard {
                index: index as u32,
                count,
            };
            return Err(BalanceMergeError::Missing {
                shard: index as u32 + 1,
                count,
                games: shard.range(first.options.games).into(),
            });
        };
        for (i, row) in r.table.cells.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                merged.table.cells[i][j].extend(cell);
            }
        }
        merged.games_played += r.games_played;
        merged.elapsed_seconds += r.elapsed_seconds;
    }
    solve_report(&mut merged).map_err(|_| BalanceMergeError::Damaged(first_name.clone()))?;
    merged.rounds = vec![Round {
        round: 1,
        caesar_players: merged.caesar.len(),
        pompey_players: merged.pompey.len(),
        value: merged.value,
        exploitability: None,
        responses: Vec::new(),
    }];
    let shards = if count == 1 { "shard" } else { "shards" };
    merged.stopped = format!("{count} {shards} merged; no rounds of best responses");
    merged.stage = Stage::Done;
    Ok(merged)
}
