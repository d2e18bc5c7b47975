//! The strength ladder: does a rule set's effect on Caesar depend on how
//! well the sides are played?
//!
//! The players given (weakest first) are the rungs. At each rung a mirror
//! match: both sides played by that rung's player, under one rule set or,
//! with two, under both over the same seeds (as [`crate::sim::compare`] pairs
//! them). Then cross-play between the rungs, under the first rule set only:
//! every ordered pair of different rungs (so each player takes each side),
//! from which [`fit_ratings`] fits Bradley–Terry ratings on the Elo scale.
//! Finally a [`Verdict`] a designer can read.
//!
//! Every match is an ordinary run ([`SimReport`] or [`CompareReport`]) with
//! its own run seed derived from the ladder's seed and the rung(s)
//! ([`mirror_seed`], [`cross_seed`]); game `i` of a match has the seed
//! [`crate::sim::game_seed`]`(run seed, i)`. So results never depend on the
//! thread count, and shards (`--shard i/n` splits the games of every match
//! alike) merge with the checks of [`SimReport::merge_labelled`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ai::AiSpec;
use crate::engine::Game;
use crate::sim::runs::cluster::Shard;
use crate::sim::runs::merge::MergeError;
use crate::sim::runs::options::OptionsError;
use crate::sim::runs::options::{GameRange, SimOptions};
use crate::sim::runs::report::{CompareReport, SimReport};
use crate::sim::runs::report::{Merge, first_of_one_run, merge_picked, shards_note};
use crate::sim::runs::stats::{Estimate, PairedDifference, Z95, two_proportion_test};
use crate::sim::{Cancelled, Progress, game_seed};

/// What a ladder plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderOptions {
    /// The rungs, weakest first (as the user lists them).
    pub players: Vec<AiSpec>,
    /// Games of every match (each mirror match, each cross-play pairing).
    pub games: u64,
    pub seed: u64,
    pub omniscient: bool,
    pub shard: Option<Shard>,
}

/// Mixed into the ladder seed for the mirror matches and the cross-play.
const MIRROR_TAG: u64 = 0x4C41_4444_4552_4D49; // "LADDERMI"
const CROSS_TAG: u64 = 0x4C41_4444_4552_4352; // "LADDERCR"

/// Run seed of the mirror match at `rung` (0-based).
pub(crate) fn mirror_seed(seed: u64, rung: usize) -> u64 {
    game_seed(seed ^ MIRROR_TAG, rung as u64)
}

/// Run seed of the cross-play between rungs `a` and `b`: the same for both
/// side assignments, so each pairing's games share their seeds with the
/// games where the players swap sides.
pub(crate) fn cross_seed(seed: u64, a: usize, b: usize) -> u64 {
    let (lo, hi) = (a.min(b) as u64, a.max(b) as u64);
    game_seed(game_seed(seed ^ CROSS_TAG, lo), hi)
}

impl LadderOptions {
    /// Refuses a ladder with no rung, a player listed twice, no games or an
    /// empty shard.
    pub fn check(&self) -> Result<(), OptionsError> {
        if self.players.is_empty() {
            return Err(OptionsError::NoPlayers);
        }
        for (i, p) in self.players.iter().enumerate() {
            if let Some(q) = self.players[..i].iter().find(|q| q.plays_as(p)) {
                return Err(OptionsError::PlayerTwice {
                    first: q.to_string(),
                    second: p.to_string(),
                });
            }
        }
        self.mirror(0).check()
    }

    fn run(&self, seed: u64, caesar: AiSpec, pompey: AiSpec) -> SimOptions {
        SimOptions {
            games: self.games,
            seed,
            caesar,
            pompey,
            omniscient: self.omniscient,
            shard: self.shard,
        }
    }

    /// The mirror match at `rung`.
    pub fn mirror(&self, rung: usize) -> SimOptions {
        let p = &self.players[rung];
        self.run(mirror_seed(self.seed, rung), p.clone(), p.clone())
    }

    /// The cross-play match with rung `caesar` as Caesar, `pompey` as Pompey.
    pub fn cross(&self, caesar: usize, pompey: usize) -> SimOptions {
        self.run(
            cross_seed(self.seed, caesar, pompey),
            self.players[caesar].clone(),
            self.players[pompey].clone(),
        )
    }

    /// Every ordered pair of different rungs, in order.
    pub(crate) fn pairings(&self) -> Vec<(usize, usize)> {
        let k = self.players.len();
        (0..k)
            .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
            .collect()
    }

    /// Games this ladder (or shard) plays with `variants` rule sets.
    pub fn total_games(&self, variants: usize) -> u64 {
        let k = self.players.len() as u64;
        let range = self.mirror(0).game_range();
        (range.end - range.start) * (k * variants as u64 + k * k.saturating_sub(1))
    }
}

/// A rung's mirror match: one run, or a comparison of two rule sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mirror {
    Single(Box<SimReport>),
    Compare(Box<CompareReport>),
}

impl Mirror {
    /// The runs, one per rule set.
    pub fn runs(&self) -> Vec<&SimReport> {
        match self {
            Mirror::Single(r) => vec![r],
            Mirror::Compare(c) => vec![&c.a, &c.b],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    pub player: String,
    /// Caesar's win rate in the mirror match, per rule set.
    pub caesar_win_rate: Vec<Estimate>,
    /// First rule set minus second, paired over the same seeds (two rule
    /// sets only).
    pub difference: Option<PairedDifference>,
    pub mirror: Mirror,
}

/// One cross-play pairing (first rule set).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossPlay {
    pub caesar_rung: usize,
    pub pompey_rung: usize,
    pub run: SimReport,
}

/// A player's rating from the cross-play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub player: String,
    /// Elo points above the first rung (which is 0).
    pub elo: f64,
    pub ci95: [f64; 2],
    /// Points (win 1, draw ½) per cross-play game.
    pub score: f64,
    pub games: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    pub variant: String,
    pub players: Vec<Rating>,
    /// What playing Caesar is worth, in Elo points, between players of
    /// equal rating.
    pub caesar_side_elo: f64,
    pub caesar_side_ci95: [f64; 2],
    pub method: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// Two rule sets: significant with the same sign at every rung.
    HoldsAtEveryRung,
    /// Two rule sets: the sign or the significance changes between rungs.
    DependsOnStrength,
    /// Two rule sets: significant at no rung.
    NoSignificantDifference,
    /// One rule set: Caesar's win rate at the last rung against the first.
    Rises,
    Falls,
    Stays,
    /// One rule set and one rung: nothing to compare.
    OneRung,
    /// One rule set: Caesar's share at equilibrium between the rungs (the
    /// mirrors and the cross-play as one meta-game, [`crate::sim::questions::balance`]).
    AtEquilibrium,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub kind: VerdictKind,
    pub text: String,
}

fn pts(d: &PairedDifference) -> String {
    format!(
        "{:+.1} pts (95% CI {:+.1} to {:+.1}, p = {:.3})",
        d.estimate * 100.0,
        d.ci95[0] * 100.0,
        d.ci95[1] * 100.0,
        d.p_value
    )
}

/// Caesar's mirror share may move by less than this between the two
/// strongest rungs for the ladder to count as settled (issue: "less than
/// 3 points").
pub const SETTLED_MIRROR_GAP: f64 = 0.03;

/// What the two strongest rungs (the last two: rungs go weakest first) say,
/// and whether they agree: whether a stronger player would likely change
/// the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopRungs {
    /// The second strongest and the strongest rung's players.
    pub players: [String; 2],
    /// Per rule set: Caesar's mirror win rate at the strongest rung minus
    /// at the second strongest (independent games).
    pub mirror_gap: Vec<PairedDifference>,
    /// Two rule sets: the strongest rung's paired difference minus the
    /// second strongest's.
    pub difference_gap: Option<PairedDifference>,
    /// Every mirror gap under [`SETTLED_MIRROR_GAP`] and no significant
    /// difference gap.
    pub settled: bool,
    pub text: String,
}

impl TopRungs {
    fn of(variants: &[String], rungs: &[Rung]) -> Option<TopRungs> {
        let [second, top] = rungs.get(rungs.len().checked_sub(2)?..)? else {
            return None;
        };
        let (second_runs, top_runs) = (second.mirror.runs(), top.mirror.runs());
        let mirror_gap: Vec<PairedDifference> = top_runs
            .iter()
            .zip(&second_runs)
            .map(|(t, s)| two_proportion_test(t.caesar_wins, t.games, s.caesar_wins, s.games))
            .collect();
        let difference_gap = match (top.difference, second.difference) {
            (Some(t), Some(s)) => Some(t.minus_independent(&s)),
            _ => None,
        };
        let mirrors_close = mirror_gap
            .iter()
            .all(|g| g.estimate.abs() < SETTLED_MIRROR_GAP);
        let same_difference = difference_gap.is_none_or(|g| !g.significant);
        let settled = mirrors_close && same_difference;
        let mirrors: Vec<String> = variants
            .iter()
            .zip(&mirror_gap)
            .map(|(v, g)| format!("Caesar's mirror share under {v} moves {}", pts(g)))
            .collect();
        let mut text = format!(
            "The strongest two rungs ({} then {}) {}: {}",
            second.player,
            top.player,
            if settled { "agree" } else { "do not agree yet" },
            mirrors.join("; ")
        );
        if let (Some(g), Some(t)) = (difference_gap, top.difference) {
            text.push_str(&format!(
                "; the rule sets' difference moves {} between them, and at the strongest rung it is {}",
                pts(&g),
                pts(&t)
            ));
        }
        text.push_str(if settled {
            ". A stronger player is unlikely to change the answer."
        } else {
            ". The answer still moves with player strength: add a stronger rung, or more games."
        });
        Some(TopRungs {
            players: [second.player.clone(), top.player.clone()],
            mirror_gap,
            difference_gap,
            settled,
            text,
        })
    }
}

/// The verdict on two rule sets from the paired difference (A − B) in
/// Caesar's win rate at each rung: it holds at every rung when every rung's
/// difference is significant at 5% with the same sign; no difference when
/// none is significant; otherwise it depends on player strength.
pub(crate) fn paired_verdict(
    variants: [&str; 2],
    players: &[String],
    differences: &[PairedDifference],
) -> Verdict {
    let [a, b] = variants;
    let significant = differences.iter().filter(|d| d.significant).count();
    let all_positive = differences.iter().all(|d| d.estimate > 0.0);
    let all_negative = differences.iter().all(|d| d.estimate < 0.0);
    if significant == 0 {
        return Verdict {
            kind: VerdictKind::NoSignificantDifference,
            text: format!(
                "No significant difference in Caesar's win rate between {a} and {b} at any rung (5% level)."
            ),
        };
    }
    if significant == differences.len() && (all_positive || all_negative) {
        let (better, worse) = if all_positive { (a, b) } else { (b, a) };
        return Verdict {
            kind: VerdictKind::HoldsAtEveryRung,
            text: format!(
                "The difference holds at every rung: Caesar wins significantly more often under {better} than under {worse} with every player tested ({}).",
                players.join(", ")
            ),
        };
    }
    let details: Vec<String> = players
        .iter()
        .zip(differences)
        .map(|(p, d)| {
            let what = if !d.significant {
                "no significant difference".to_string()
            } else if d.estimate > 0.0 {
                format!("better for Caesar under {a}")
            } else {
                format!("better for Caesar under {b}")
            };
            format!("{p}: {what}, {}", pts(d))
        })
        .collect();
    Verdict {
        kind: VerdictKind::DependsOnStrength,
        text: format!(
            "It depends on player strength: {} − {} in Caesar's win rate is {}.",
            a,
            b,
            details.join("; ")
        ),
    }
}

/// The verdict on one rule set: Caesar's win rate at the last rung against
/// the first (`change` = last − first, two independent samples).
pub(crate) fn trend_verdict(
    players: &[String],
    first: &Estimate,
    last: &Estimate,
    change: &PairedDifference,
) -> Verdict {
    let (Some(weakest), Some(strongest)) = (players.first(), players.last()) else {
        return Verdict {
            kind: VerdictKind::OneRung,
            text: "No rung: nothing to compare.".to_string(),
        };
    };
    if players.len() < 2 {
        return Verdict {
            kind: VerdictKind::OneRung,
            text: format!(
                "Only one rung ({weakest}): give two players or more to see how Caesar's win rate moves with strength."
            ),
        };
    }
    let from_to = format!(
        "from {:.1}% with {weakest} to {:.1}% with {strongest}, {}",
        first.estimate * 100.0,
        last.estimate * 100.0,
        pts(change)
    );
    let (kind, what) = match (change.significant, change.estimate > 0.0) {
        (false, _) => (
            VerdictKind::Stays,
            "does not change significantly with player strength",
        ),
        (true, true) => (VerdictKind::Rises, "rises with player strength"),
        (true, false) => (VerdictKind::Falls, "falls with player strength"),
    };
    Verdict {
        kind,
        text: format!("Caesar's win rate {what}: {from_to}."),
    }
}

/// Caesar's share of the points in a run (a draw half).
fn points_share(run: &SimReport) -> (f64, u64) {
    let games = run.caesar_wins + run.pompey_wins + run.draws;
    if games == 0 {
        return (0.5, 0);
    }
    (
        (run.caesar_wins as f64 + run.draws as f64 / 2.0) / games as f64,
        games,
    )
}

/// The verdict of one rule set's ladder: Caesar's share at equilibrium
/// between its rungs, each side playing its best mix of them (the mirror
/// matches and the cross-play make the whole table), beside the range of
/// the mirror shares. The interval solves the table at every cell's lower
/// (upper) Wilson bound: the value rises with every cell, so it holds
/// whenever each cell is within its own. `None` before every cell is played.
pub(crate) fn equilibrium_verdict(
    players: &[String],
    rungs: &[Rung],
    cross_play: &[CrossPlay],
) -> Option<Verdict> {
    let n = players.len();
    if n < 2 || rungs.len() != n {
        return None;
    }
    let mut cells = vec![vec![(0.5, 0u64); n]; n];
    for (i, rung) in rungs.iter().enumerate() {
        cells[i][i] = points_share(rung.mirror.runs()[0]);
    }
    for c in cross_play {
        if c.caesar_rung < n && c.pompey_rung < n {
            cells[c.caesar_rung][c.pompey_rung] = points_share(&c.run);
        }
    }
    if cells.iter().flatten().any(|(_, games)| *games == 0) {
        return None;
    }
    let at = |pick: fn([f64; 2], f64) -> f64| -> Vec<Vec<f64>> {
        cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&(p, g)| pick(crate::sim::questions::balance::table::wilson(p, g), p))
                    .collect()
            })
            .collect()
    };
    let eq = crate::sim::questions::balance::solve::solve(&at(|_, p| p)).ok()?;
    let lo = crate::sim::questions::balance::solve::solve(&at(|ci, _| ci[0]))
        .ok()?
        .value;
    let hi = crate::sim::questions::balance::solve::solve(&at(|ci, _| ci[1]))
        .ok()?
        .value;
    let mix = |weights: &[f64]| {
        let mut parts: Vec<(f64, &String)> = weights
            .iter()
            .zip(players)
            .filter(|(w, _)| **w > 1e-6)
            .map(|(w, p)| (*w, p))
            .collect();
        parts.sort_by(|a, b| b.0.total_cmp(&a.0));
        parts
            .iter()
            .map(|(w, p)| format!("{p} {:.0}%", w * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mirrors: Vec<f64> = (0..n).map(|i| cells[i][i].0).collect();
    let (least, most) = mirrors
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &m| {
            (a.min(m), b.max(m))
        });
    Some(Verdict {
        kind: VerdictKind::AtEquilibrium,
        text: format!(
            "At equilibrium between these {n} players Caesar's share is {:.1}% ({:.1}–{:.1}%): Caesar plays {}; Pompey plays {}. The mirror matches alone said {:.1}% to {:.1}%, by which player plays both sides. No player outside the ladder was tried: `balance` trains best responses to check that none moves it.",
            eq.value * 100.0,
            lo * 100.0,
            hi * 100.0,
            mix(&eq.caesar),
            mix(&eq.pompey),
            least * 100.0,
            most * 100.0
        ),
    })
}

/// One cross-play pairing's results, for [`fit_ratings`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pairing {
    pub caesar: usize,
    pub pompey: usize,
    pub caesar_wins: u64,
    pub pompey_wins: u64,
    pub draws: u64,
}

/// Bradley–Terry strengths on the logit scale, with Caesar's side term.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// Per player; the first is 0 (the anchor).
    pub strength: Vec<f64>,
    /// Standard error of each strength (0 for the anchor).
    pub se: Vec<f64>,
    /// Logit advantage of playing Caesar, and its standard error.
    pub caesar_side: f64,
    pub caesar_side_se: f64,
}

/// Logit units to Elo points.
pub(crate) const ELO_PER_LOGIT: f64 = 400.0 / std::f64::consts::LN_10;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits P(Caesar wins) = σ(θ_caesar − θ_pompey + h) to the pairings of
/// `players` players by Newton's method (maximum likelihood; a draw counts
/// half a win for each side), with θ of the first player fixed at 0.
/// Every pairing gets one virtual draw, a weak prior that keeps the ratings
/// finite when a player wins every game. Standard errors come from the
/// observed information at the optimum.
pub(crate) fn fit_ratings(players: usize, pairings: &[Pairing]) -> Fit {
    // Parameters: θ_1 .. θ_{k-1}, then h.
    let k = players.max(1);
    let dim = k;
    let data: Vec<(usize, usize, f64, f64)> = pairings
        .iter()
        .map(|p| {
            let n = (p.caesar_wins + p.pompey_wins + p.draws) as f64 + 1.0;
            let s = p.caesar_wins as f64 + 0.5 * p.draws as f64 + 0.5;
            (p.caesar, p.pompey, s, n)
        })
        .collect();
    let design = |c: usize, q: usize| {
        let mut v = vec![0.0; dim];
        if c > 0 {
            v[c - 1] += 1.0;
        }
        if q > 0 {
            v[q - 1] -= 1.0;
        }
        v[dim - 1] = 1.0;
        v
    };
    let theta = |x: &[f64], i: usize| if i == 0 { 0.0 } else { x[i - 1] };
    let log_lik = |x: &[f64]| {
        data.iter()
            .map(|&(c, q, s, n)| {
                let d = theta(x, c) - theta(x, q) + x[dim - 1];
                // log σ(d) = −ln(1 + e^−d), stable both ways.
                let log_p = -softplus(-d);
                let log_1p = -softplus(d);
                s * log_p + (n - s) * log_1p
            })
            .sum::<f64>()
    };
    let info = |x: &[f64]| {
        let mut g = vec![0.0; dim];
        let mut h = vec![vec![0.0; dim]; dim];
        for &(c, q, s, n) in &data {
            let d = theta(x, c) - theta(x, q) + x[dim - 1];
            let p = sigmoid(d);
            let v = design(c, q);
            let w = n * p * (1.0 - p);
            for a in 0..dim {
                g[a] += (s - n * p) * v[a];
                for b in 0..dim {
                    h[a][b] += w * v[a] * v[b];
                }
            }
        }
        (g, h)
    };
    let mut x = vec![0.0; dim];
    for _ in 0..200 {
        let (g, h) = info(&x);
        let Some(step) = solve(h, g) else { break };
        let before = log_lik(&x);
        let mut t = 1.0;
        let mut next: Vec<f64> = x.iter().zip(&step).map(|(a, b)| a + b).collect();
        while log_lik(&next) < before && t > 1e-6 {
            t /= 2.0;
            next = x.iter().zip(&step).map(|(a, b)| a + t * b).collect();
        }
        let moved = step.iter().map(|s| (s * t).abs()).fold(0.0, f64::max);
        x = next;
        if moved < 1e-10 {
            break;
        }
    }
    let (_, h) = info(&x);
    let cov = invert(h);
    let var = |i: usize| cov.as_ref().map_or(f64::INFINITY, |c| c[i][i].max(0.0));
    Fit {
        strength: (0..k).map(|i| theta(&x, i)).collect(),
        se: (0..k)
            .map(|i| if i == 0 { 0.0 } else { var(i - 1).sqrt() })
            .collect(),
        caesar_side: x[dim - 1],
        caesar_side_se: var(dim - 1).sqrt(),
    }
}

fn softplus(x: f64) -> f64 {
    if x > 30.0 { x } else { x.exp().ln_1p() }
}

/// Solves m·x = b by Gaussian elimination with partial pivoting; None when
/// m is singular.
fn solve(mut m: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (k, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + k] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|c| m[row][c] * x[c]).sum();
        x[row] = (b[row] - rest) / m[row][row];
    }
    Some(x)
}

fn invert(m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let columns: Option<Vec<Vec<f64>>> = (0..n)
        .map(|j| solve(m.clone(), (0..n).map(|i| f64::from(i == j)).collect()))
        .collect();
    let columns = columns?;
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

/// The report of a ladder (or of merged shards of one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderReport {
    /// Always "ladder": how `merge` tells this report from the others.
    pub kind: String,
    pub variants: Vec<String>,
    pub players: Vec<String>,
    pub seed: u64,
    pub games_per_match: u64,
    pub omniscient: bool,
    /// The shards merged into this report ("1/1" for a whole ladder).
    pub shards: Vec<String>,
    /// The games of every match this report holds.
    pub game_ranges: Vec<GameRange>,
    pub rungs: Vec<Rung>,
    /// Cross-play under the first rule set, every ordered pair of rungs.
    pub cross_play: Vec<CrossPlay>,
    /// None with a single rung.
    pub ratings: Option<Ratings>,
    pub verdict: Verdict,
    /// The balance at equilibrium measured for the setup, where one has
    /// been (one rule set only): a wider population than the rungs'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_balance: Option<String>,
    /// None with a single rung (and in reports older than it).
    #[serde(default)]
    pub top_rungs: Option<TopRungs>,
    /// The rungs a climbing ladder added, and why it stopped; `None` for a
    /// ladder of the rungs given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub climb: Option<Climb>,
    /// Wall-clock seconds, summed over merged shards.
    pub elapsed_seconds: f64,
}

/// Plays a ladder under one or two rule sets (`games` and `variants` of
/// the same length, 1 or 2) on the current rayon pool. `progress` counts
/// every game of every match ([`LadderOptions::total_games`]).
pub fn ladder(
    games: &[&Game],
    variants: &[&str],
    options: &LadderOptions,
    progress: &Progress,
) -> Result<LadderReport, Cancelled> {
    assert!(
        matches!(games.len(), 1 | 2) && games.len() == variants.len(),
        "a ladder plays one or two rule sets"
    );
    let mut played = Played::default();
    played.play_missing(games, variants, options, progress)?;
    Ok(played.report(variants, options))
}

/// Plays a ladder as [`ladder`] does, then, while its two strongest rungs
/// do not agree ([`TopRungs::settled`]), adds the next of the `reserve`
/// rungs on top and plays its matches, until they agree or the reserve is
/// spent; the report says which rungs were added and why it stopped. The
/// matches are the ones [`ladder`] plays with the same rungs.
pub fn climb(
    games: &[&Game],
    variants: &[&str],
    options: &LadderOptions,
    reserve: &[AiSpec],
    progress: &Progress,
) -> Result<LadderReport, Cancelled> {
    let mut options = options.clone();
    let mut played = Played::default();
    let mut added = Vec::new();
    let mut reserve = reserve.iter();
    loop {
        played.play_missing(games, variants, &options, progress)?;
        let mut report = played.report(variants, &options);
        let settled = report.top_rungs.as_ref().is_some_and(|t| t.settled);
        if !settled && let Some(next) = reserve.next() {
            added.push(next.to_string());
            options.players.push(next.clone());
            continue;
        }
        let unused = reserve.map(ToString::to_string).collect();
        report.climb = Some(Climb::new(added, unused, settled));
        return Ok(report);
    }
}

/// How a ladder climbed ([`climb`]): the rungs it added from the reserve
/// and why it stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Climb {
    pub added: Vec<String>,
    /// Reserve rungs not needed.
    pub unused: Vec<String>,
    /// Whether the two strongest rungs agree at the end.
    pub settled: bool,
    pub text: String,
}

impl Climb {
    fn new(added: Vec<String>, unused: Vec<String>, settled: bool) -> Climb {
        let took = if added.is_empty() {
            "added no rung".to_string()
        } else {
            format!("added {}", added.join(", "))
        };
        let why = match (settled, unused.is_empty()) {
            (true, true) => "the two strongest rungs agree".to_string(),
            (true, false) => format!(
                "the two strongest rungs agree, so {} was not needed",
                unused.join(", ")
            ),
            (false, _) => {
                "the reserve is spent and the two strongest rungs still do not agree".to_string()
            }
        };
        Climb {
            text: format!("{took}; stopped because {why}."),
            added,
            unused,
            settled,
        }
    }
}

/// The matches of a ladder played so far: each rung's mirror match, and
/// the cross-play of each ordered pair of rungs. A match's seed depends
/// only on its rungs' places, so a rung added on top leaves every match
/// played before as it was.
#[derive(Default)]
struct Played {
    mirrors: Vec<Mirror>,
    cross: std::collections::HashMap<(usize, usize), SimReport>,
}

impl Played {
    /// Plays the matches of `options`' rungs not played yet.
    fn play_missing(
        &mut self,
        games: &[&Game],
        variants: &[&str],
        options: &LadderOptions,
        progress: &Progress,
    ) -> Result<(), Cancelled> {
        for rung in self.mirrors.len()..options.players.len() {
            let opts = options.mirror(rung);
            self.mirrors.push(if games.len() == 1 {
                Mirror::Single(Box::new(crate::sim::simulate(
                    games[0],
                    variants[0],
                    &opts,
                    progress,
                    |_| {},
                )?))
            } else {
                Mirror::Compare(Box::new(crate::sim::compare(
                    [games[0], games[1]],
                    [variants[0], variants[1]],
                    &opts,
                    progress,
                )?))
            });
        }
        for (c, p) in options.pairings() {
            if self.cross.contains_key(&(c, p)) {
                continue;
            }
            let run = crate::sim::simulate(
                games[0],
                variants[0],
                &options.cross(c, p),
                progress,
                |_| {},
            )?;
            self.cross.insert((c, p), run);
        }
        Ok(())
    }

    /// The ladder of `options`' rungs, from its played matches.
    fn report(&self, variants: &[&str], options: &LadderOptions) -> LadderReport {
        let cross = options
            .pairings()
            .into_iter()
            .map(|(c, p)| CrossPlay {
                caesar_rung: c,
                pompey_rung: p,
                run: self.cross[&(c, p)].clone(),
            })
            .collect();
        let shard = options.shard.map_or("1/1".to_string(), |s| s.to_string());
        LadderReport::from_parts(
            variants.iter().map(|v| v.to_string()).collect(),
            options.players.iter().map(|p| p.to_string()).collect(),
            options.seed,
            options.games,
            options.omniscient,
            vec![shard],
            self.mirrors[..options.players.len()].to_vec(),
            cross,
        )
    }
}

impl LadderReport {
    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        variants: Vec<String>,
        players: Vec<String>,
        seed: u64,
        games_per_match: u64,
        omniscient: bool,
        shards: Vec<String>,
        mirrors: Vec<Mirror>,
        cross_play: Vec<CrossPlay>,
    ) -> LadderReport {
        let rungs: Vec<Rung> = players
            .iter()
            .zip(mirrors)
            .map(|(player, mirror)| Rung {
                player: player.clone(),
                caesar_win_rate: mirror.runs().iter().map(|r| r.caesar_win_rate).collect(),
                difference: match &mirror {
                    Mirror::Single(_) => None,
                    Mirror::Compare(c) => Some(c.caesar_win_rate_difference),
                },
                mirror,
            })
            .collect();
        let game_ranges = rungs
            .first()
            .map(|r| r.mirror.runs()[0].game_ranges.clone())
            .unwrap_or_default();
        let elapsed_seconds = rungs
            .iter()
            .map(|r| match &r.mirror {
                Mirror::Single(s) => s.elapsed_seconds,
                Mirror::Compare(c) => c.a.elapsed_seconds + c.b.elapsed_seconds,
            })
            .chain(cross_play.iter().map(|c| c.run.elapsed_seconds))
            .sum();
        let ratings = (players.len() >= 2).then(|| ratings(&variants[0], &players, &cross_play));
        let verdict = if variants.len() == 2 {
            let differences: Vec<PairedDifference> =
                rungs.iter().filter_map(|r| r.difference).collect();
            paired_verdict([&variants[0], &variants[1]], &players, &differences)
        } else {
            let counts = |r: &Rung| {
                let run = r.mirror.runs()[0];
                (run.caesar_wins, run.games, run.caesar_win_rate)
            };
            let (first, last) = (rungs.first().map(counts), rungs.last().map(counts));
            let empty = (0, 0, Estimate::of(0, 0));
            let ((fw, fn_, fe), (lw, ln, le)) = (first.unwrap_or(empty), last.unwrap_or(empty));
            equilibrium_verdict(&players, &rungs, &cross_play).unwrap_or_else(|| {
                trend_verdict(&players, &fe, &le, &two_proportion_test(lw, ln, fw, fn_))
            })
        };
        let top_rungs = TopRungs::of(&variants, &rungs);
        LadderReport {
            kind: "ladder".to_string(),
            variants,
            players,
            seed,
            games_per_match,
            omniscient,
            shards,
            game_ranges,
            rungs,
            cross_play,
            ratings,
            verdict,
            measured_balance: None,
            top_rungs,
            climb: None,
            elapsed_seconds,
        }
    }

    /// Checks a ladder as read from a file: every match checks out
    /// ([`SimReport::check`], [`CompareReport::check`]), is the match its
    /// place in the ladder says (players, rule sets, derived seed, games)
    /// and holds the games the ladder says it holds.
    pub fn check(&self) -> Result<(), MergeError> {
        if self.kind != "ladder" {
            return Err(MergeError::Damaged(format!(
                "kind is \"{}\", not \"ladder\"",
                self.kind
            )));
        }
        if !matches!(self.variants.len(), 1 | 2) {
            return Err(MergeError::Damaged(format!(
                "a ladder has one or two rule sets, not {}",
                self.variants.len()
            )));
        }
        let k = self.players.len();
        if k == 0 || self.rungs.len() != k {
            return Err(MergeError::Damaged(format!(
                "{} players but {} rungs",
                self.players.len(),
                self.rungs.len()
            )));
        }
        let expect = |what: &str, r: &SimReport, variant: &str, c: &str, p: &str, seed: u64| {
            r.check().map_err(|e| e.in_report(what))?;
            let fits = r.variant == variant
                && r.caesar_ai == c
                && r.pompey_ai == p
                && r.seed == seed
                && r.run_games == self.games_per_match
                && r.omniscient == self.omniscient;
            if !fits {
                return Err(MergeError::Damaged(format!(
                    "{what} is not the match the ladder plays there ({variant}, {c} vs {p}, seed {seed}, {} games)",
                    self.games_per_match
                )));
            }
            let ranges = r.ranges().map_err(|e| e.in_report(what))?;
            if ranges != self.game_ranges {
                return Err(MergeError::Damaged(format!(
                    "{what} holds other games than the ladder's game_ranges"
                )));
            }
            Ok(())
        };
        for (i, rung) in self.rungs.iter().enumerate() {
            let player = &self.players[i];
            let what = format!("rung {} ({player})", i + 1);
            if &rung.player != player {
                return Err(MergeError::Damaged(format!(
                    "{what} is played by {}",
                    rung.player
                )));
            }
            match &rung.mirror {
                Mirror::Single(_) if self.variants.len() == 2 => {
                    return Err(MergeError::Damaged(format!(
                        "{what}: one rule set, the ladder has two"
                    )));
                }
                Mirror::Compare(_) if self.variants.len() == 1 => {
                    return Err(MergeError::Damaged(format!(
                        "{what}: two rule sets, the ladder has one"
                    )));
                }
                Mirror::Compare(c) => c.check().map_err(|e| e.in_report(&what))?,
                Mirror::Single(_) => {}
            }
            let seed = mirror_seed(self.seed, i);
            for (run, variant) in rung.mirror.runs().into_iter().zip(&self.variants) {
                expect(&what, run, variant, player, player, seed)?;
            }
        }
        let pairings: Vec<(usize, usize)> = (0..k)
            .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
            .collect();
        if self.cross_play.len() != pairings.len() {
            return Err(MergeError::Damaged(format!(
                "{} cross-play matches, {k} rungs need {}",
                self.cross_play.len(),
                pairings.len()
            )));
        }
        for (x, (c, p)) in self.cross_play.iter().zip(pairings) {
            let what = format!("cross-play {} vs {}", self.players[c], self.players[p]);
            if (x.caesar_rung, x.pompey_rung) != (c, p) {
                return Err(MergeError::Damaged(format!("{what} is out of place")));
            }
            let seed = cross_seed(self.seed, c, p);
            let (cn, pn) = (&self.players[c], &self.players[p]);
            expect(&what, &x.run, &self.variants[0], cn, pn, seed)?;
        }
        Ok(())
    }
}

impl Merge for LadderReport {
    /// Combines shard reports of one ladder, each labelled (its file name):
    /// every report is checked, they must be the same ladder, and every
    /// match merges with the checks of [`SimReport::merge_labelled`] (no
    /// game counted twice). The result may still miss games.
    fn merge_labelled(reports: &[(&str, &LadderReport)]) -> Result<LadderReport, MergeError> {
        let (_, first) = first_of_one_run(
            "ladders",
            reports,
            LadderReport::check,
            LadderReport::identity,
        )?;
        let mut mirrors = Vec::new();
        for (i, player) in first.players.iter().enumerate() {
            let what = format!("rung {} ({player})", i + 1);
            let mirror = if first.variants.len() == 1 {
                Mirror::Single(Box::new(
                    merge_picked(reports, |r| r.rungs[i].mirror.runs()[0])
                        .map_err(|e| e.in_report(&what))?,
                ))
            } else {
                let parts: Vec<(&str, &CompareReport)> = reports
                    .iter()
                    .filter_map(|&(l, r)| match &r.rungs[i].mirror {
                        Mirror::Compare(c) => Some((l, c.as_ref())),
                        Mirror::Single(_) => None,
                    })
                    .collect();
                Mirror::Compare(Box::new(
                    CompareReport::merge_labelled(&parts).map_err(|e| e.in_report(&what))?,
                ))
            };
            mirrors.push(mirror);
        }
        let mut cross = Vec::new();
        for (x, c) in first.cross_play.iter().enumerate() {
            let run = merge_picked(reports, |r| &r.cross_play[x].run).map_err(|e| {
                e.in_report(format!(
                    "cross-play {} vs {}",
                    first.players[c.caesar_rung], first.players[c.pompey_rung]
                ))
            })?;
            cross.push(CrossPlay {
                caesar_rung: c.caesar_rung,
                pompey_rung: c.pompey_rung,
                run,
            });
        }
        let shards = mirrors[0].runs()[0].shards.clone();
        let mut merged = LadderReport::from_parts(
            first.variants.clone(),
            first.players.clone(),
            first.seed,
            first.games_per_match,
            first.omniscient,
            shards,
            mirrors,
            cross,
        );
        // Every shard read the same setup's measured balance.
        merged.measured_balance = first.measured_balance.clone();
        Ok(merged)
    }
}

impl LadderReport {
    /// The ladder's own settings; each match's run names what it played
    /// on (digests, player files) and is compared when the matches merge.
    fn identity(&self) -> crate::sim::runs::report::Identity {
        [
            ("variants", self.variants.join(", ")),
            ("players", self.players.join(", ")),
            ("seed", self.seed.to_string()),
            ("games_per_match", self.games_per_match.to_string()),
            ("omniscient", self.omniscient.to_string()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect()
    }

    /// The games of every match this report does not hold.
    pub fn missing_games(&self) -> Vec<GameRange> {
        self.rungs
            .first()
            .map(|r| r.mirror.runs()[0].missing_games())
            .unwrap_or_default()
    }

    /// Games per match this report holds.
    pub fn games(&self) -> u64 {
        self.game_ranges.iter().map(|r| r.len()).sum()
    }
}

fn ratings(variant: &str, players: &[String], cross: &[CrossPlay]) -> Ratings {
    let pairings: Vec<Pairing> = cross
        .iter()
        .map(|c| Pairing {
            caesar: c.caesar_rung,
            pompey: c.pompey_rung,
            caesar_wins: c.run.caesar_wins,
            pompey_wins: c.run.pompey_wins,
            draws: c.run.draws,
        })
        .collect();
    let fit = fit_ratings(players.len(), &pairings);
    let elo_ci = |x: f64, se: f64| {
        [
            (x - Z95 * se) * ELO_PER_LOGIT,
            (x + Z95 * se) * ELO_PER_LOGIT,
        ]
    };
    Ratings {
        variant: variant.to_string(),
        players: players
            .iter()
            .enumerate()
            .map(|(i, player)| {
                let (mut points, mut games) = (0.0, 0u64);
                for p in &pairings {
                    let n = p.caesar_wins + p.pompey_wins + p.draws;
                    let half = 0.5 * p.draws as f64;
                    if p.caesar == i {
                        points += p.caesar_wins as f64 + half;
                        games += n;
                    } else if p.pompey == i {
                        points += p.pompey_wins as f64 + half;
                        games += n;
                    }
                }
                Rating {
                    player: player.clone(),
                    elo: fit.strength[i] * ELO_PER_LOGIT,
                    ci95: elo_ci(fit.strength[i], fit.se[i]),
                    score: if games == 0 {
                        0.0
                    } else {
                        points / games as f64
                    },
                    games,
                }
            })
            .collect(),
        caesar_side_elo: fit.caesar_side * ELO_PER_LOGIT,
        caesar_side_ci95: elo_ci(fit.caesar_side, fit.caesar_side_se),
        method: "Bradley–Terry with a Caesar-side term, maximum likelihood (Newton), one virtual draw per pairing; first rung = 0; Elo = 400/ln 10 × logit; 95% intervals from the observed information".to_string(),
    }
}

/// Whole Elo points with a sign, never "-0".
fn elo(x: f64) -> String {
    format!("{:+.0}", x.round() + 0.0)
}

fn rate(e: &Estimate) -> String {
    e.percent_text(5)
}

impl fmt::Display for LadderReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games = self.games();
        writeln!(
            f,
            "Strength ladder — {} — players {} — {} games per match{}, seed {}{}",
            self.variants.join(" vs "),
            self.players.join(", "),
            games,
            if self.omniscient { " (omniscient)" } else { "" },
            self.seed,
            shards_note(
                games == self.games_per_match,
                &self.shards,
                format_args!("{}-game matches", self.games_per_match)
            )
        )?;
        writeln!(
            f,
            "Mirror matches (both sides played by the rung's player): Caesar's win rate, 95% CI"
        )?;
        let width = self
            .players
            .iter()
            .map(|p| p.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut header = format!("  rung  {:<width$}", "player");
        for v in &self.variants {
            header.push_str(&format!("  {v:<22}"));
        }
        if self.variants.len() == 2 {
            header.push_str(&format!(
                "  {} − {} (paired)",
                self.variants[0], self.variants[1]
            ));
        }
        writeln!(f, "{}", header.trim_end())?;
        for (i, r) in self.rungs.iter().enumerate() {
            let mut line = format!("  {:<4}  {:<width$}", i + 1, r.player);
            for e in &r.caesar_win_rate {
                line.push_str(&format!("  {:<22}", rate(e)));
            }
            if let Some(d) = &r.difference {
                line.push_str(&format!(
                    "  {}{}",
                    pts(d),
                    if d.significant { " *" } else { "" }
                ));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        if self.variants.len() == 2 {
            writeln!(
                f,
                "  (* significant at 5%: McNemar test over the same seeds)"
            )?;
        }
        if let Some(r) = &self.ratings {
            writeln!(
                f,
                "Ratings from cross-play under {} (every ordered pair of rungs; Bradley–Terry, Elo scale, rung 1 = 0)",
                r.variant
            )?;
            for p in &r.players {
                writeln!(
                    f,
                    "  {:<width$}  {:>6}  (95% CI {} to {})  score {:5.1}% of {} games",
                    p.player,
                    elo(p.elo),
                    elo(p.ci95[0]),
                    elo(p.ci95[1]),
                    p.score * 100.0,
                    p.games
                )?;
            }
            writeln!(
                f,
                "  playing Caesar is worth {} Elo (95% CI {} to {})",
                elo(r.caesar_side_elo),
                elo(r.caesar_side_ci95[0]),
                elo(r.caesar_side_ci95[1])
            )?;
        }
        write!(f, "Verdict: {}", self.verdict.text)?;
        if let Some(measured) = &self.measured_balance {
            write!(f, "\nMeasured balance for this setup: {measured}")?;
        }
        if let Some(top) = &self.top_rungs {
            write!(f, "\nStrongest rungs: {}", top.text)?;
        }
        if let Some(climb) = &self.climb {
            write!(f, "\nClimb: {}", climb.text)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(estimate: f64, significant: bool) -> PairedDifference {
        PairedDifference {
            estimate,
            ci95: [estimate - 0.05, estimate + 0.05],
            p_value: if significant { 0.01 } else { 0.4 },
            significant,
        }
    }

    fn names(n: usize) -> Vec<String> {
        ["random", "heuristic", "search:16"][..n]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn a_difference_significant_with_one_sign_everywhere_holds() {
        let v = paired_verdict(["A", "B"], &names(2), &[diff(0.1, true), diff(0.05, true)]);
        assert_eq!(v.kind, VerdictKind::HoldsAtEveryRung);
        assert!(
            v.text.contains("more often under A than under B"),
            "{}",
            v.text
        );
        let v = paired_verdict(["A", "B"], &names(2), &[diff(-0.1, true), diff(-0.2, true)]);
        assert_eq!(v.kind, VerdictKind::HoldsAtEveryRung);
        assert!(
            v.text.contains("more often under B than under A"),
            "{}",
            v.text
        );
        // One rung is every rung.
        let v = paired_verdict(["A", "B"], &names(1), &[diff(0.1, true)]);
        assert_eq!(v.kind, VerdictKind::HoldsAtEveryRung);
    }

    #[test]
    fn a_change_of_sign_or_of_significance_depends_on_strength() {
        for diffs in [
            [diff(0.1, true), diff(-0.1, true)],
            [diff(0.1, true), diff(0.01, false)],
            [diff(0.0, false), diff(-0.1, true)],
        ] {
            let v = paired_verdict(["A", "B"], &names(2), &diffs);
            assert_eq!(v.kind, VerdictKind::DependsOnStrength, "{diffs:?}");
            assert!(v.text.contains("random: "), "{}", v.text);
            assert!(v.text.contains("heuristic: "), "{}", v.text);
        }
    }

    #[test]
    fn no_significant_rung_is_no_difference() {
        let v = paired_verdict(
            ["A", "B"],
            &names(3),
            &[diff(0.1, false), diff(-0.1, false), diff(0.0, false)],
        );
        assert_eq!(v.kind, VerdictKind::NoSignificantDifference);
    }

    #[test]
    fn one_rule_set_rises_falls_or_stays_from_the_first_rung_to_the_last() {
        let (lo, hi) = (Estimate::of(20, 100), Estimate::of(40, 100));
        let up = two_proportion_test(40, 100, 20, 100);
        assert!(up.significant);
        let v = trend_verdict(&names(3), &lo, &hi, &up);
        assert_eq!(v.kind, VerdictKind::Rises);
        assert!(
            v.text
                .contains("from 20.0% with random to 40.0% with search:16")
        );
        let down = two_proportion_test(20, 100, 40, 100);
        assert_eq!(
            trend_verdict(&names(2), &hi, &lo, &down).kind,
            VerdictKind::Falls
        );
        let flat = two_proportion_test(22, 100, 20, 100);
        assert_eq!(
            trend_verdict(&names(2), &lo, &lo, &flat).kind,
            VerdictKind::Stays
        );
        assert_eq!(
            trend_verdict(&names(1), &lo, &lo, &flat).kind,
            VerdictKind::OneRung
        );
        assert_eq!(
            trend_verdict(&[], &lo, &lo, &flat).kind,
            VerdictKind::OneRung
        );
    }

    /// Expected results (rounded) of `n` games per ordered pairing under
    /// the model with the given strengths and side term.
    fn table(strength: &[f64], side: f64, n: u64) -> Vec<Pairing> {
        let k = strength.len();
        let mut out = Vec::new();
        for c in 0..k {
            for p in 0..k {
                if c != p {
                    let w = (sigmoid(strength[c] - strength[p] + side) * n as f64).round() as u64;
                    out.push(Pairing {
                        caesar: c,
                        pompey: p,
                        caesar_wins: w,
                        pompey_wins: n - w,
                        draws: 0,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_fit_recovers_known_strengths_and_side() {
        let truth = [0.0, 1.0, 2.5];
        let fit = fit_ratings(3, &table(&truth, -0.4, 1_000_000));
        for (got, want) in fit.strength.iter().zip(truth) {
            assert!((got - want).abs() < 0.01, "{:?}", fit.strength);
        }
        assert!((fit.caesar_side + 0.4).abs() < 0.01, "{}", fit.caesar_side);
        assert_eq!(fit.se[0], 0.0);
        assert!(fit.se[1] > 0.0 && fit.se[1] < 0.01, "{:?}", fit.se);
    }

    #[test]
    fn the_fit_orders_players_by_results_and_stays_finite_on_a_sweep() {
        // Player 2 beats everyone always, player 1 beats player 0 mostly.
        let mut t = table(&[0.0, 1.0, 2.0], 0.0, 40);
        for p in &mut t {
            if p.caesar == 2 {
                (p.caesar_wins, p.pompey_wins) = (40, 0);
            }
            if p.pompey == 2 {
                (p.caesar_wins, p.pompey_wins) = (0, 40);
            }
        }
        let fit = fit_ratings(3, &t);
        assert!(fit.strength[0] == 0.0 && fit.strength[1] > 0.0);
        assert!(
            fit.strength[2] > fit.strength[1] + 1.0,
            "{:?}",
            fit.strength
        );
        assert!(fit.strength.iter().all(|s| s.is_finite()));
        assert!(fit.se.iter().all(|s| s.is_finite()));
        // Intervals (±1.96 SE) are wider with fewer games.
        let small = fit_ratings(3, &table(&[0.0, 1.0, 2.0], 0.0, 10));
        let large = fit_ratings(3, &table(&[0.0, 1.0, 2.0], 0.0, 1000));
        assert!(small.se[1] > large.se[1]);
    }

    #[test]
    fn seeds_depend_on_rung_and_pairing_not_on_side() {
        assert_ne!(mirror_seed(1, 0), mirror_seed(1, 1));
        assert_ne!(mirror_seed(1, 0), mirror_seed(2, 0));
        assert_eq!(cross_seed(1, 0, 1), cross_seed(1, 1, 0));
        assert_ne!(cross_seed(1, 0, 1), cross_seed(1, 0, 2));
        let o = LadderOptions {
            players: vec![AiSpec::Random, AiSpec::Heuristic, AiSpec::Random],
            games: 4,
            seed: 1,
            omniscient: false,
            shard: None,
        };
        assert!(matches!(o.check(), Err(OptionsError::PlayerTwice { .. })));
        let o = LadderOptions {
            players: vec![AiSpec::Random, AiSpec::Heuristic],
            ..o
        };
        assert_eq!(o.pairings(), vec![(0, 1), (1, 0)]);
        assert_eq!(o.total_games(2), 4 * (2 * 2 + 2));
    }

    fn timeless(mut r: LadderReport) -> LadderReport {
        let zero = |s: &mut SimReport| {
            s.elapsed_seconds = 0.0;
            s.games_per_second = 0.0;
            s.raw.elapsed_seconds = 0.0;
        };
        r.elapsed_seconds = 0.0;
        for rung in &mut r.rungs {
            match &mut rung.mirror {
                Mirror::Single(s) => zero(s),
                Mirror::Compare(c) => {
                    zero(&mut c.a);
                    zero(&mut c.b);
                }
            }
        }
        for x in &mut r.cross_play {
            zero(&mut x.run);
        }
        r
    }

    #[test]
    fn the_strongest_two_rungs_agree_only_when_their_answers_are_close() {
        let game = crate::test_support::published("rules-2.0");
        let options = SimOptions::new(40, 5, AiSpec::Heuristic, AiSpec::Heuristic);
        let run =
            crate::sim::simulate(&game, "rules-2.0", &options, &Progress::new(), |_| {}).unwrap();
        let rung = |player: &str, caesar_wins: u64| {
            let mut r = run.clone();
            r.caesar_wins = caesar_wins;
            Rung {
                player: player.to_string(),
                caesar_win_rate: vec![Estimate::of(caesar_wins, r.games)],
                difference: None,
                mirror: Mirror::Single(Box::new(r)),
            }
        };
        let variants = ["rules-2.0".to_string()];
        assert_eq!(TopRungs::of(&variants, &[rung("a", 10)]), None);
        // One win in 40 is 2.5 points: under the 3-point bar.
        let close = TopRungs::of(&variants, &[rung("weak", 0), rung("a", 10), rung("b", 11)]);
        let close = close.unwrap();
        assert_eq!(close.players, ["a".to_string(), "b".to_string()]);
        assert!(close.settled, "{}", close.text);
        assert!((close.mirror_gap[0].estimate - 0.025).abs() < 1e-12);
        let apart = TopRungs::of(&variants, &[rung("a", 10), rung("b", 14)]).unwrap();
        assert!(!apart.settled, "{}", apart.text);
        assert!(apart.text.contains("do not agree yet"), "{}", apart.text);
    }

    /// A ladder of `players`, `games` a match, from seed 3.
    fn seed_3(players: Vec<AiSpec>, games: u64) -> LadderOptions {
        LadderOptions {
            players,
            games,
            seed: 3,
            omniscient: false,
            shard: None,
        }
    }

    /// [`climb`] under rules 2.0 with one player in reserve.
    fn climb_on(game: &Game, options: &LadderOptions, reserve: AiSpec) -> LadderReport {
        climb(
            &[game],
            &["rules-2.0"],
            options,
            &[reserve],
            &Progress::new(),
        )
        .unwrap()
    }

    #[test]
    fn a_climb_adds_reserve_rungs_on_top_and_plays_the_ladder_of_those_rungs() {
        let game = crate::test_support::published("rules-2.0");
        let options = seed_3(vec![AiSpec::Random], 30);
        let climbed = climb_on(&game, &options, AiSpec::Heuristic);
        let climb = climbed.climb.clone().unwrap();
        assert_eq!(climb.added, ["heuristic"]);
        assert!(climb.unused.is_empty());
        assert!(!climb.settled, "random and the heuristic are far apart");
        assert!(climb.text.contains("reserve is spent"), "{}", climb.text);
        // The same matches as the ladder of the rungs it ended with.
        let whole = LadderOptions {
            players: vec![AiSpec::Random, AiSpec::Heuristic],
            ..options
        };
        let plain = ladder(&[&game], &["rules-2.0"], &whole, &Progress::new()).unwrap();
        assert_eq!(climbed.players, plain.players);
        let wins = |r: &LadderReport| -> Vec<u64> {
            let mirrors = r.rungs.iter().map(|g| g.mirror.runs()[0].caesar_wins);
            mirrors
                .chain(r.cross_play.iter().map(|c| c.run.caesar_wins))
                .collect()
        };
        assert_eq!(wins(&climbed), wins(&plain));
        assert_eq!(plain.climb, None);
    }

    #[test]
    fn a_climb_stops_when_the_top_two_agree() {
        let game = crate::test_support::published("rules-2.0");
        // A player all but the heuristic: its mirror share is the same up
        // to chance, and 1,000 games a match keep chance under the bar.
        let (_dir, path) = crate::test_support::temp_file("near.ron", "(strike_own: 3.0001)");
        let near = AiSpec::player_file(&path).unwrap();
        let options = seed_3(vec![AiSpec::Heuristic, near], 1000);
        let climb = climb_on(&game, &options, AiSpec::Random).climb.unwrap();
        assert!(climb.settled);
        assert!(climb.added.is_empty());
        assert_eq!(climb.unused, ["random"]);
        assert!(
            climb.text.contains("random was not needed"),
            "{}",
            climb.text
        );
    }

    #[test]
    fn a_gap_between_two_independent_differences_is_tested_on_both_errors() {
        let d = |estimate: f64, half_width: f64| PairedDifference {
            estimate,
            ci95: [estimate - half_width, estimate + half_width],
            p_value: 0.0,
            significant: true,
        };
        // Two differences of 4 and 1 points, each ±2: the gap is 3 ± 2.8.
        let gap = d(0.04, 0.02).minus_independent(&d(0.01, 0.02));
        assert!((gap.estimate - 0.03).abs() < 1e-12);
        assert!((gap.ci95[1] - gap.ci95[0] - 2.0 * 0.02 * 2f64.sqrt()).abs() < 1e-9);
        assert!(gap.significant);
        assert!(!d(0.04, 0.03).minus_independent(&d(0.01, 0.03)).significant);
        let unbounded = PairedDifference {
            ci95: [f64::NEG_INFINITY, f64::INFINITY],
            ..d(0.5, 0.0)
        };
        assert!(!unbounded.minus_independent(&d(0.0, 0.01)).significant);
    }

    #[test]
    fn shards_merge_into_the_whole_ladder_and_overlaps_are_refused() {
        let a = crate::test_support::published("rules-2.0");
        let b = crate::test_support::published("rules-1.1");
        let options = |shard: Option<&str>| LadderOptions {
            players: vec![AiSpec::Random, AiSpec::Heuristic],
            games: 3,
            seed: 7,
            omniscient: false,
            shard: shard.map(|s| s.parse().unwrap()),
        };
        let run = |shard| {
            ladder(
                &[&a, &b],
                &["rules-2.0", "rules-1.1"],
                &options(shard),
                &Progress::new(),
            )
            .unwrap()
        };
        let whole = run(None);
        assert!(whole.check().is_ok(), "{:?}", whole.check());
        assert_eq!(whole.rungs.len(), 2);
        assert_eq!(whole.cross_play.len(), 2);
        assert!(whole.ratings.is_some());
        let parts = [run(Some("2/2")), run(Some("1/2"))];
        assert_eq!(parts[0].game_ranges, vec![GameRange::from(1..3)]);
        let merged = LadderReport::merge(&parts).unwrap();
        assert_eq!(timeless(merged), timeless(whole.clone()));
        let err = LadderReport::merge(&[parts[0].clone(), whole.clone()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("overlap in games 1–2"), "{err}");
        let half = LadderReport::merge(&parts[..1]).unwrap();
        assert_eq!(half.missing_games(), vec![GameRange::from(0..1)]);
        let mut edited = whole;
        edited.seed = 8;
        assert!(
            edited
                .check()
                .unwrap_err()
                .to_string()
                .contains("not the match")
        );
    }
}
