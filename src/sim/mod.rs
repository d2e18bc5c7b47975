//! Monte Carlo simulation of whole games between AI players.
//!
//! Game `i` of a run always uses the seed [`game_seed`]`(seed, i)`, whatever
//! the thread count or shard, and every statistic is accumulated in integers
//! (counts and histograms), so a run's report is the same on one thread or
//! many, on one machine or merged from shards.
//!
//! This file is the runner: it plays a run's games and gathers them. The
//! folders below it hold the three jobs built on it: [`runs`], reporting a
//! run (its options, report, heatmaps, statistics, merges and cluster
//! shards); [`players`],
//! making players (tuning, learning, fitting, rating, and which player
//! `best` and `fast` stand for); and [`questions`], answering the
//! designer's questions (balance, ladder, sweep, explain, odds).
//! Every path names its job's folder (`sim::runs::report`,
//! `sim::players::tune`, `sim::questions::balance`, …): nothing of theirs
//! is re-exported here.

pub mod players;
pub mod questions;
pub mod runs;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::ai::Player;
use crate::engine::{Action, Game, State};
use crate::scenario::model::Side;
use crate::scenario::model::{CardFace, Event};

use runs::heatmap;
use runs::options::SimOptions;
use runs::report::{self, Accumulator, CompareReport, GameSummary, PairedAccumulator, SimReport};

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
    use crate::ai::AiSpec;
    use crate::sim::runs::cluster::Shard;
    use crate::sim::runs::options::OptionsError;

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
        let columns = GameSummary::csv_header().split(',').count();
        assert_eq!(row.split(',').count(), columns, "{row}");
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
