//! Games a balance plays outside its table's cells: one game of a cell, a player against a side's mix, a challenge.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::report::{BalanceReport, Interval, Member, words};
use super::table::Cell;
use crate::ai::{self, AiSpec, Player};
use crate::engine::{Game, NoLog};
use crate::scenario::model::Side;
use crate::sim::{Cancelled, Progress, game_and_player_seeds, game_seed};

/// Mixed into the run's seed for each stream of games.
pub(super) const EVAL_TAG: u64 = 0x4241_4C41_4E43_4545; // "BALANCEE"
const MIX_TAG: u64 = 0x4241_4C41_4E43_454D; // "BALANCEM"
const CHALLENGE_TAG: u64 = 0x4348_414C_4C45_4E47; // "CHALLENG"

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
pub(super) fn against_mix(
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
pub(super) fn gain(share: Interval, value: Interval) -> Interval {
    let half = |i: Interval| (i.ci95[1] - i.ci95[0]) / 2.0;
    let h = (half(share).powi(2) + half(value).powi(2)).sqrt();
    let estimate = share.estimate - value.estimate;
    Interval {
        estimate,
        ci95: [estimate - h, estimate + h],
    }
}
