//! Monte Carlo simulation of whole games between AI players.
//!
//! Game `i` of a run always uses the seed [`game_seed`]`(seed, i)`, whatever
//! the thread count or shard, and every statistic is accumulated in integers
//! (counts and histograms), so a run's report is the same on one thread or
//! many, on one machine or merged from shards.
//!
//! This file is the runner: it plays a run's games and gathers them. The
//! folders below it hold the three jobs built on it: [`runs`], reporting a
//! run (its report, statistics, merges and cluster shards); [`players`],
//! making players (tuning, learning, fitting, rating, and which player
//! `best` and `fast` stand for); and [`questions`], answering the
//! designer's questions (balance, ladder, sweep, explain, heatmap, odds).
//! Their modules are re-exported here under their old names
//! (`sim::report`, `sim::tune`, `sim::balance`, …).

pub mod players;
pub mod questions;
pub mod runs;

pub use players::{fit, learn, policy_fit, ratings, tune, tune_search};
pub use questions::{balance, explain, fair, heatmap, ladder, odds, sweep};
use runs::merge;
pub use runs::{cluster, report, stats};

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::{AiSpec, Player};
use crate::engine::{Action, EndReason, Game, GameStats, State};
use crate::scenario::model::Side;
use crate::scenario::model::{CardFace, Event};

pub use cluster::{ShardArg, ShardError};
pub use ladder::{LadderOptions, LadderReport};
pub use merge::{MergeError, RunDifference};
pub use report::{Accumulator, CompareReport, Merge, PairedAccumulator, SimReport};
pub use sweep::SweepReport;

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

/// Part `index` (0-based) of `count` equal parts of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The game indices of this shard: contiguous, so shards concatenate.
    /// Computed in 128 bits, so any number of games splits without overflow.
    pub fn range(self, games: u64) -> std::ops::Range<u64> {
        let n = u128::from(self.count.max(1));
        let i = u128::from(self.index).min(n - 1);
        let bound = |k: u128| (u128::from(games) * k / n) as u64;
        bound(i)..bound(i + 1)
    }
}

impl FromStr for Shard {
    type Err = cluster::ShardError;

    /// `i/n`, 1-based: `1/4` is the first quarter.
    fn from_str(text: &str) -> Result<Shard, cluster::ShardError> {
        let bad = || cluster::ShardError::NotAShard {
            text: text.to_string(),
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (u32, u32) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
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

/// Shared with whoever watches a run: games done, games found to play
/// while running, and a cancel switch.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    /// Games on top of those the run began with, known only as it runs
    /// (an explanation's pairs, once its fields are measured).
    more: AtomicU64,
    cancel: AtomicBool,
}

impl Progress {
    pub fn new() -> Progress {
        Progress::default()
    }
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
    /// Games added to the run's total while it runs.
    pub fn more(&self) -> u64 {
        self.more.load(Ordering::Relaxed)
    }
    pub(crate) fn plan_more(&self, games: u64) {
        self.more.fetch_add(games, Ordering::Relaxed);
    }
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
    /// Counts `games` played under another progress (a run's own stages).
    pub(crate) fn add(&self, games: u64) {
        self.done.fetch_add(games, Ordering::Relaxed);
    }
    pub(crate) fn tick(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }
}

/// The run was cancelled before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the simulation was cancelled")]
pub struct Cancelled;

/// Seed of game `index` of a run seeded with `seed` (SplitMix64 of both).
pub(crate) fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ splitmix64(index.wrapping_add(0x5EED)))
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One finished game, as reports and CSV rows see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub index: u64,
    pub seed: u64,
    pub winner: Option<Side>,
    pub how: EndReason,
    /// The year whose winter ended the game.
    pub year: u8,
    pub vp: [u32; 2],
    /// Event cards each side played ([Caesar, Pompey], `Event::ALL` order).
    pub events_by_side: [[u8; Event::COUNT]; 2],
    /// What the engine counted as the game went: battles, losses, events,
    /// VP by year, play quality (its map events are taken into `map`).
    #[serde(flatten)]
    pub stats: GameStats,
    /// Where things happened and who held what after each winter (for the
    /// map heatmaps; not in the CSV rows).
    #[serde(skip)]
    pub map: heatmap::MapRecord,
}

/// A column of the per-game CSV: its header and its value in a game.
type CsvColumn = (String, Box<dyn Fn(&GameSummary) -> String + Send + Sync>);

/// The per-game CSV's columns, in order: the header and every row read
/// this one list (the per-game counts from [`report::GAME_COUNTS`], the
/// events from [`Event::ALL`]).
static CSV_COLUMNS: std::sync::LazyLock<Vec<CsvColumn>> = std::sync::LazyLock::new(|| {
    fn side(s: Option<Side>) -> String {
        s.map_or("none".to_string(), |s| s.to_string())
    }
    fn column(
        name: &str,
        value: impl Fn(&GameSummary) -> String + Send + Sync + 'static,
    ) -> CsvColumn {
        (name.to_string(), Box::new(value))
    }
    let mut columns = vec![
        column("game", |g| g.index.to_string()),
        column("seed", |g| g.seed.to_string()),
        column("winner", |g| side(g.winner)),
        column("how", |g| format!("{:?}", g.how)),
    ];
    for count in report::GAME_COUNTS.iter() {
        if let Some(name) = count.csv {
            let of = count.of;
            columns.push(column(name, move |g| of(g).to_string()));
        }
    }
    for event in Event::ALL {
        let name = format!("{event:?}").to_lowercase();
        columns.push(column(&name, move |g| {
            g.stats.events_played[event as usize].to_string()
        }));
    }
    columns.extend([
        column("events_cancelled", |g| g.stats.events_cancelled.to_string()),
        column("first_turn_player1", |g| side(g.stats.first_turn_player1)),
        column("actions", |g| g.stats.actions.to_string()),
        column("vp_by_year", |g| {
            let by_year: Vec<String> = g
                .stats
                .vp_by_year
                .iter()
                .map(|[c, p]| format!("{c}-{p}"))
                .collect();
            by_year.join(" ")
        }),
    ]);
    columns
});

impl GameSummary {
    /// The per-game CSV's header line (no newline).
    pub fn csv_header() -> String {
        let names: Vec<&str> = CSV_COLUMNS.iter().map(|(name, _)| name.as_str()).collect();
        names.join(",")
    }

    /// This game's CSV row (no newline), under [`GameSummary::csv_header`].
    pub fn csv_row(&self) -> String {
        let values: Vec<String> = CSV_COLUMNS.iter().map(|(_, value)| value(self)).collect();
        values.join(",")
    }
}

/// The seeds of game `index` of a run with base seed `run_seed`: the
/// game's ([`game_seed`]), and Caesar's and Pompey's players'.
pub fn game_and_player_seeds(run_seed: u64, index: u64) -> (u64, [u64; 2]) {
    let seed = game_seed(run_seed, index);
    (seed, [splitmix64(seed ^ 0xCAE5), splitmix64(seed ^ 0x9039)])
}

/// Plays game `index` of a run to the end.
pub fn play_one(game: &Game, options: &SimOptions, index: u64) -> GameSummary {
    let (seed, [caesar_seed, pompey_seed]) = game_and_player_seeds(options.seed, index);
    let mut players: [Box<dyn Player>; 2] = [
        options
            .caesar
            .player(Side::Caesar, caesar_seed, options.omniscient),
        options
            .pompey
            .player(Side::Pompey, pompey_seed, options.omniscient),
    ];
    let mut events_by_side = [[0u8; Event::COUNT]; 2];
    let state = State::new(game, seed);
    let mut map = heatmap::MapRecord::default();
    let mut start_of_year = heatmap::control(game, &state);
    let watch = |state: &State, side: Side, action: Action| {
        if let Action::Play(card) = action
            && let CardFace::Event(e) = game.card(card)
        {
            let slot = &mut events_by_side[side.index()][e as usize];
            *slot = slot.saturating_add(1);
        }
        // A winter's victory check has just run: who holds what now.
        if state.stats.vp_by_year.len() > map.control.len() {
            let now = heatmap::control(game, state);
            if state.outcome().is_none() {
                start_of_year = now.clone();
            }
            map.control.push(now);
        }
    };
    let mut state =
        crate::ai::play_watched(game, state, &mut players, &mut crate::engine::NoLog, watch);
    let events = std::mem::take(&mut state.stats.map_events);
    map.finish(game, &state, &start_of_year, events);
    let outcome = state
        .outcome()
        .expect("play_game returns only finished games");
    GameSummary {
        index,
        seed,
        winner: outcome.winner,
        how: outcome.how,
        year: outcome.year,
        vp: outcome.vp,
        events_by_side,
        stats: std::mem::take(&mut state.stats),
        map,
    }
}

/// Games are played in chunks: in parallel within a chunk, folded in order
/// between chunks, so memory stays flat and CSV rows come out in order.
const CHUNK: u64 = 512;

/// Runs the games of `options` on the current rayon pool. `on_game` sees
/// every record in game order (for CSV rows).
pub fn simulate(
    game: &Game,
    variant: &str,
    options: &SimOptions,
    progress: &Progress,
    mut on_game: impl FnMut(&GameSummary),
) -> Result<SimReport, Cancelled> {
    let started = Instant::now();
    let mut acc = Accumulator::new(game.rules.years);
    acc.map = heatmap::MapCounts::new(game.board());
    let range = options.game_range();
    let mut start = range.start;
    while start < range.end {
        let end = (start + CHUNK).min(range.end);
        let records: Vec<Option<GameSummary>> = (start..end)
            .into_par_iter()
            .map(|i| {
                if progress.is_cancelled() {
                    return None;
                }
                let r = play_one(game, options, i);
                progress.tick();
                Some(r)
            })
            .collect();
        for r in records {
            let r = r.ok_or(Cancelled)?;
            on_game(&r);
            acc.add(&r);
        }
        start = end;
    }
    acc.elapsed_seconds = started.elapsed().as_secs_f64();
    let mut report = SimReport::new(variant, options, acc);
    report.played_on = report::PlayedOn::of(game);
    Ok(report)
}

/// Plays both rule sets with the same game seeds (common random numbers).
pub fn compare(
    games: [&Game; 2],
    variants: [&str; 2],
    options: &SimOptions,
    progress: &Progress,
) -> Result<CompareReport, Cancelled> {
    let started = Instant::now();
    let mut accs = [
        Accumulator::new(games[0].rules.years),
        Accumulator::new(games[1].rules.years),
    ];
    accs[0].map = heatmap::MapCounts::new(games[0].board());
    accs[1].map = heatmap::MapCounts::new(games[1].board());
    let mut paired = PairedAccumulator::default();
    let range = options.game_range();
    let mut start = range.start;
    while start < range.end {
        let end = (start + CHUNK).min(range.end);
        let records: Vec<Option<[GameSummary; 2]>> = (start..end)
            .into_par_iter()
            .map(|i| {
                if progress.is_cancelled() {
                    return None;
                }
                let pair = [
                    play_one(games[0], options, i),
                    play_one(games[1], options, i),
                ];
                progress.tick();
                progress.tick();
                Some(pair)
            })
            .collect();
        for r in records {
            let [a, b] = r.ok_or(Cancelled)?;
            accs[0].add(&a);
            accs[1].add(&b);
            paired.add(&a, &b);
        }
        start = end;
    }
    let elapsed = started.elapsed().as_secs_f64();
    for acc in &mut accs {
        acc.elapsed_seconds = elapsed / 2.0;
    }
    let [a, b] = accs;
    let mut report = CompareReport::new(variants, options, a, b, paired);
    report.a.played_on = report::PlayedOn::of(games[0]);
    report.b.played_on = report::PlayedOn::of(games[1]);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_header_is_as_published_and_every_row_has_its_columns() {
        assert_eq!(
            GameSummary::csv_header(),
            "game,seed,winner,how,year,caesar_vp,pompey_vp,battles,caesar_steps_lost,\
             pompey_steps_lost,caesar_blocks_eliminated,pompey_blocks_eliminated,\
             caesar_leaders_killed,pompey_leaders_killed,apollo,jupiter,mars,mercury,neptune,\
             pluto,vulcan,events_cancelled,first_turn_player1,actions,vp_by_year"
        );
        let game = crate::test_support::published("rules-2.0");
        let options = SimOptions::new(1, 3, AiSpec::Heuristic, AiSpec::Random);
        let row = play_one(&game, &options, 0).csv_row();
        assert_eq!(row.split(',').count(), CSV_COLUMNS.len(), "{row}");
    }

    #[test]
    fn ai_specs_parse_and_print() {
        let parsed = |text: &str| text.parse::<AiSpec>().ok();
        assert_eq!(parsed("random"), Some(AiSpec::Random));
        assert_eq!(parsed("heuristic"), Some(AiSpec::Heuristic));
        assert_eq!(parsed("search:64"), Some(AiSpec::Search { playouts: 64 }));
        assert_eq!(AiSpec::Search { playouts: 64 }.to_string(), "search:64");
        let err = "heuristc".parse::<AiSpec>().unwrap_err().to_string();
        assert!(err.contains("did you mean \"heuristic\""), "{err}");
        assert!("search:0".parse::<AiSpec>().is_err());
        assert_eq!(
            parsed("search:250ms"),
            Some(AiSpec::SearchTimed { millis: 250 })
        );
        assert_eq!(
            AiSpec::SearchTimed { millis: 250 }.to_string(),
            "search:250ms"
        );
        assert!("search:0ms".parse::<AiSpec>().is_err());
        assert!("search:fastms".parse::<AiSpec>().is_err());
        assert!("random:3".parse::<AiSpec>().is_err());
    }

    #[test]
    fn shards_partition_the_games() {
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        let ranges: Vec<_> = shards.iter().map(|s| s.range(10)).collect();
        assert_eq!(ranges, vec![0..3, 3..6, 6..10]);
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!(shards[1].to_string(), "2/3");
    }

    #[test]
    fn shards_of_the_largest_run_do_not_overflow() {
        let shard: Shard = "2/3".parse().unwrap();
        let third = u64::MAX / 3;
        assert_eq!(shard.range(u64::MAX), third..2 * third);
        let last: Shard = "3/3".parse().unwrap();
        assert_eq!(last.range(u64::MAX).end, u64::MAX);
    }

    #[test]
    fn a_run_with_an_empty_shard_is_refused() {
        let options = |games, shard: &str| SimOptions {
            games,
            seed: 1,
            caesar: AiSpec::Random,
            pompey: AiSpec::Random,
            omniscient: false,
            shard: Some(shard.parse().unwrap()),
        };
        let err = options(20, "1/30").check().unwrap_err();
        assert!(
            matches!(err, OptionsError::EmptyShard { games: 20, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("at most 20 shards"), "{err}");
        assert!(options(20, "20/20").check().is_ok());
        assert_eq!(options(20, "20/20").game_range(), 19..20);
        let mut none = options(1, "1/1");
        none.games = 0;
        assert!(none.check().is_err());
    }

    #[test]
    fn game_seeds_differ_and_repeat() {
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
        assert_ne!(game_seed(7, 3), game_seed(7, 4));
        assert_ne!(game_seed(7, 3), game_seed(8, 3));
    }
}
