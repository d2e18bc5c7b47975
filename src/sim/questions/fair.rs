//! `fair`: the smallest change that brings a setup to even at equilibrium.
//!
//! A designer's second question, once `balance` has said the setup is not
//! fair. A knob is any sweep axis ([`crate::sim::sweep`]: a rule field such
//! as the tournament bid, a block's strength, its city); by default the bid
//! of the side below even. The run, all on the library's balance run
//! ([`crate::sim::balance::session`]):
//!
//! 1. **The base**: a balance at the setup as it is, with rounds of best
//!    responses: the population every candidate is judged by.
//! 2. **Along each knob**: at each candidate value the population's table is
//!    played and solved, every candidate over the same seeds (game `k` of a
//!    pairing has the same dice at every candidate), so the differences
//!    between candidates are sharper than the values. The ends first; if the
//!    target lies between them, bisection brackets it; then the two values
//!    around it get more games (the answer is decided there, not at the
//!    ends). A monotone curve (pool-adjacent-violators) through the values
//!    says where it crosses the target, and a bootstrap that resamples the
//!    same game indices in every candidate's table gives the crossing's
//!    interval.
//! 3. **The check**: at the change found, rounds of best responses trained
//!    against the changed setup's equilibrium, so the answer holds against
//!    players trained for it, not only the base's.
//!
//! Knobs are tried one at a time (the fewest changed first); the answer is
//! the knob that reaches the target within the tolerance by the smallest
//! step from the setup's own value.

use std::fmt;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::balance::session::{self, Plan};
use crate::sim::balance::{
    self, BalanceError, BalanceOptions, BalanceReport, Coverage, Interval, Member, Stage, Watch,
};
use crate::sim::report::PlayedOn;
use crate::sim::sweep::{self, Axis, PlanError};

/// Mixed into the run's seed for the crossing's bootstrap.
const CROSSING_TAG: u64 = 0x4641_4952_4352_4f53; // "FAIRCROS"

/// A target outside this many percent is no question of fairness.
pub const TARGET_PERCENT: std::ops::RangeInclusive<f64> = 5.0..=95.0;

/// What a `fair` run is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairOptions {
    /// Caesar's share that counts as fair (0.5).
    pub target: f64,
    /// How far from the target the answer may be (a share: 0.02 is 2 points).
    pub tolerance: f64,
    /// The base run's options (its seed is every stream's).
    pub balance: BalanceOptions,
    /// Rounds of best responses at the change found.
    pub check_rounds: u32,
}

/// Options that ask nothing a run could answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FairOptionsError {
    #[error("the target is Caesar's share in percent between 5 and 95 (got {0})")]
    Target(String),
    #[error("the tolerance is in points above 0 and below 45 (got {0})")]
    Tolerance(String),
    #[error(
        "{key} has one value ({value}): a knob needs at least two to move along (A..B or A,B,…)"
    )]
    OneValue { key: String, value: String },
    #[error("{0}")]
    Knob(#[from] PlanError),
    #[error("{0}")]
    Balance(String),
}

impl FairOptions {
    pub fn check(&self) -> Result<(), FairOptionsError> {
        let percent = self.target * 100.0;
        if !(percent.is_finite() && TARGET_PERCENT.contains(&percent)) {
            return Err(FairOptionsError::Target(session::short_number(percent)));
        }
        let points = self.tolerance * 100.0;
        if !(points.is_finite() && points > 0.0 && points < 45.0) {
            return Err(FairOptionsError::Tolerance(session::short_number(points)));
        }
        self.balance
            .check()
            .map_err(|e| FairOptionsError::Balance(e.to_string()))
    }
}

/// One knob's candidate values, planned: each value's game, checked.
pub struct PlannedKnob {
    pub axis: Axis,
    pub points: Vec<sweep::PlannedPoint>,
    /// The value the setup has now, where it is among the values.
    pub base: Option<usize>,
}

impl PlannedKnob {
    /// The knob's value at its candidate `i`.
    fn value_at(&self, i: usize) -> &Value {
        self.points[i]
            .settings
            .get(&self.axis.key)
            .unwrap_or(&Value::Null)
    }
}

/// The knobs as given (`--vary`), or by default the bid of `side`, each
/// candidate's rule set and scenario checked by the validator before any
/// game; a knob of one value is refused.
pub fn plan_knobs(
    doc: &ResolvedScenario,
    base: &Game,
    axes: &[Axis],
) -> Result<Vec<PlannedKnob>, FairOptionsError> {
    let mut knobs = Vec::new();
    for axis in axes {
        if let [value] = axis.values.as_slice() {
            return Err(FairOptionsError::OneValue {
                key: axis.key.clone(),
                value: value.clone(),
            });
        }
        let points = sweep::plan(doc, &base.rules, std::slice::from_ref(axis))?;
        let here = PlayedOn::of(base);
        let base_index = points.iter().position(|p| {
            let there = PlayedOn::of(&p.game);
            there.scenario_digest == here.scenario_digest
                && there.variant_digest == here.variant_digest
        });
        knobs.push(PlannedKnob {
            axis: axis.clone(),
            points,
            base: base_index,
        });
    }
    Ok(knobs)
}

/// The bid's knob for `side`: its first levy's extra points, 0 to the most.
pub fn bid_axis(side: Side) -> Axis {
    Axis {
        key: bid_field(side).to_string(),
        values: (0..=crate::scenario::rule_fields::MAX_BID)
            .map(|v| v.to_string())
            .collect(),
    }
}

fn bid_field(side: Side) -> &'static str {
    match side {
        Side::Caesar => "caesar_first_levy_bonus",
        Side::Pompey => "pompey_first_levy_bonus",
    }
}

/// Caesar's share at equilibrium at one candidate value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The knob's value, as the sweep types it.
    pub value: Value,
    pub share: Interval,
    /// Games of its table.
    pub games: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// Its table, for the paired bootstrap (not written).
    #[serde(skip)]
    table: Option<balance::Table>,
}

impl Candidate {
    fn within(&self, target: f64, tolerance: f64) -> bool {
        (self.share.estimate - target).abs() <= tolerance + 1e-12
    }
}

/// Where a knob's monotone curve crosses the target, in the knob's values
/// (an index between two candidates for a knob that is not a number).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    pub at: f64,
    /// 95% interval over bootstrap resamples of every candidate's games
    /// (resamples whose curve does not cross count at the knob's ends).
    pub ci95: [f64; 2],
}

/// What one knob can do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnobResult {
    pub key: String,
    /// The setup's own value, where it is among the knob's values.
    pub base_value: Option<Value>,
    /// Every candidate played, in the knob's order.
    pub candidates: Vec<Candidate>,
    pub crossing: Option<Crossing>,
    /// The value within the tolerance nearest the setup's own (its index
    /// in `candidates`), if any.
    pub change: Option<usize>,
    /// The candidate nearest the target, when none is within it.
    pub nearest: Option<usize>,
    /// Steps along the knob's values from the setup's own to the change.
    pub steps: Option<usize>,
}

/// The change found, after rounds of best responses at it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checked {
    pub key: String,
    pub value: Value,
    /// Caesar's share at equilibrium after the check's rounds.
    pub share: Interval,
    /// The most a new player trained against the changed setup gained.
    pub best_gain: f64,
    pub responses: usize,
    pub joined: usize,
    pub stopped: String,
}

/// The smallest change that makes a setup fair, as far as the run got.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairReport {
    pub variant: String,
    pub played_on: PlayedOn,
    pub options: FairOptions,
    /// Caesar's share at equilibrium as the setup is.
    pub base: Interval,
    pub population: [usize; 2],
    pub knobs: Vec<KnobResult>,
    /// The knob and value of the answer (the best of `knobs`), checked.
    pub answer: Option<Checked>,
    /// Why it stopped, and what was left.
    pub stopped: String,
    pub games_played: u64,
    pub elapsed_seconds: f64,
}

/// What the run is given besides its options.
pub struct FairSetup<'a> {
    pub game: &'a Game,
    pub variant: &'a str,
    pub knobs: Vec<PlannedKnob>,
    pub players: session::Players,
    /// Wall-clock time for the whole run.
    pub budget: Option<Duration>,
    /// Where trained players go (the base's and the check's).
    pub players_dir: Option<std::path::PathBuf>,
}

/// The base run's share of the budget, and the check's.
const BASE_SHARE: f64 = 0.3;
const CHECK_SHARE: f64 = 0.25;

/// Runs `fair`: the base, each knob, the check at the best change.
pub fn run(
    setup: FairSetup<'_>,
    options: &FairOptions,
    watch: &Watch,
) -> Result<FairReport, BalanceError> {
    options
        .check()
        .map_err(|e| BalanceError::Resume(e.to_string()))?;
    let started = Instant::now();
    let deadline = setup.budget.map(|b| started + b);
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    // 1. The base.
    let base = base_balance(&setup, options, watch)?;
    let mut games_played = base.games_played;
    let Some(population) = population_of(&base) else {
        return Ok(unanswered(
            &setup,
            options,
            &base,
            started,
            "the budget ended before the setup's first table was solved",
        ));
    };
    // 2. Along each knob, a share of what is left before the check.
    let mut knobs = Vec::new();
    let search_end =
        left().map(|l| Instant::now() + l.mul_f64(1.0 - CHECK_SHARE / (1.0 - BASE_SHARE)));
    let count = setup.knobs.len();
    for (k, knob) in setup.knobs.iter().enumerate() {
        let share = search_end
            .map(|end| end.saturating_duration_since(Instant::now()) / (count - k) as u32);
        let (result, played) = along(knob, &population, setup.variant, options, share, watch)?;
        games_played += played;
        knobs.push(result);
    }
    // 3. The check at the best change.
    let best = best_knob(&knobs, options.target);
    let mut answer = None;
    let mut stopped = String::new();
    if let Some(k) = best {
        let knob = &knobs[k];
        let c = knob.change.expect("the best knob has a change");
        let point = &setup.knobs[k].points[candidate_point(&setup.knobs[k], &knob.candidates[c])];
        watch.say(format!(
            "checking {}={} with best responses trained against it",
            knob.key,
            value_text(&knob.candidates[c].value)
        ));
        let (checked, played) = check(
            &point.game,
            setup.variant,
            &population,
            options,
            left(),
            setup.players_dir.clone(),
            watch,
        )?;
        games_played += played;
        answer = Some(Checked {
            key: knob.key.clone(),
            value: knob.candidates[c].value.clone(),
            ..checked
        });
    } else {
        stopped = "no knob reached the target within the tolerance".to_string();
    }
    if let Some(a) = answer.as_ref() {
        stopped = if (a.share.estimate - options.target).abs() > options.tolerance {
            format!(
                "the check moved the change's value outside the target's tolerance ({})",
                a.stopped
            )
        } else {
            format!("the change found and checked ({})", a.stopped)
        };
    }
    Ok(FairReport {
        variant: setup.variant.to_string(),
        played_on: PlayedOn::of(setup.game),
        options: options.clone(),
        base: base.value,
        population: [population[0].len(), population[1].len()],
        knobs,
        answer,
        stopped,
        games_played,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    })
}

/// The balance of the setup as it is, within the base's share of the budget.
fn base_balance(
    setup: &FairSetup<'_>,
    options: &FairOptions,
    watch: &Watch,
) -> Result<BalanceReport, BalanceError> {
    watch.say("the setup as it is: its balance at equilibrium".to_string());
    let mut base = session::prepare(
        setup.game,
        session::Begin::Fresh {
            variant: setup.variant.to_string(),
            options: options.balance.clone(),
            players: setup.players.clone(),
        },
    )?
    .report;
    let base_plan = Plan {
        budget: setup.budget.map(|b| b.mul_f64(BASE_SHARE)),
        checkpoint: None,
        players_dir: setup.players_dir.clone(),
    };
    // Its own watch: the base's deadline must not stop the knobs.
    let own = Watch::new();
    session::run_plan(setup.game, &mut base, &base_plan, &own, &mut |_| {})?;
    watch.progress.add(own.progress.done());
    Ok(base)
}

/// The population every candidate is judged by: of the players the
/// base's equilibrium is solved over, those in either side's mix and the
/// heuristic family (a game of theirs costs a millisecond). A search
/// outside both mixes would cost every candidate a hundred times its games
/// and decide nothing there; the check at the change trains new players
/// against the changed setup. `None` before the base's first table.
fn population_of(base: &BalanceReport) -> Option<[Vec<Member>; 2]> {
    let coverage = base
        .coverage
        .filter(|c| c.solved[0] > 0 && c.solved[1] > 0)?;
    let in_mix = |m: &Member| {
        base.caesar_mix
            .iter()
            .chain(&base.pompey_mix)
            .any(|w| w.player == m.player)
    };
    let kept = |members: &[Member], solved: usize| -> Vec<Member> {
        members[..solved]
            .iter()
            .filter(|m| in_mix(m) || m.spec.as_ref().is_some_and(|s| balance::cost_rank(s) == 0))
            .cloned()
            .collect()
    };
    Some([
        kept(&base.caesar, coverage.solved[0]),
        kept(&base.pompey, coverage.solved[1]),
    ])
}

/// The report of a run whose base had no answer.
fn unanswered(
    setup: &FairSetup<'_>,
    options: &FairOptions,
    base: &BalanceReport,
    started: Instant,
    why: &str,
) -> FairReport {
    FairReport {
        variant: setup.variant.to_string(),
        played_on: PlayedOn::of(setup.game),
        options: options.clone(),
        base: base.value,
        population: [0, 0],
        knobs: Vec::new(),
        answer: None,
        stopped: why.to_string(),
        games_played: base.games_played,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    }
}

/// The knob whose change is the answer: reaching the target, the fewest
/// steps from the setup's own value, then the nearest the target.
fn best_knob(knobs: &[KnobResult], target: f64) -> Option<usize> {
    (0..knobs.len())
        .filter(|&k| knobs[k].change.is_some())
        .min_by(|&a, &b| {
            let key = |k: usize| {
                let c = &knobs[k].candidates[knobs[k].change.expect("filtered")];
                (knobs[k].steps.unwrap_or(usize::MAX), c.share.estimate)
            };
            let (sa, va) = key(a);
            let (sb, vb) = key(b);
            sa.cmp(&sb)
                .then((va - target).abs().total_cmp(&(vb - target).abs()))
        })
}

fn candidate_point(knob: &PlannedKnob, candidate: &Candidate) -> usize {
    knob.points
        .iter()
        .position(|p| p.settings.get(&knob.axis.key) == Some(&candidate.value))
        .expect("every candidate is one of its knob's points")
}

/// What every candidate is judged by: the rule set's name, the population
/// and the run's options.
#[derive(Clone, Copy)]
struct JudgedBy<'a> {
    variant: &'a str,
    population: &'a [Vec<Member>; 2],
    options: &'a FairOptions,
}

/// One candidate's table: the population at the candidate's setup, over
/// the base run's seeds, to `games` games a deciding pairing.
fn evaluate(
    game: &Game,
    judged_by: &JudgedBy<'_>,
    games: u64,
    budget: Option<Duration>,
    earlier: Option<BalanceReport>,
    watch: &Watch,
) -> Result<BalanceReport, BalanceError> {
    let JudgedBy {
        variant,
        population,
        options,
    } = *judged_by;
    let mut report = match earlier {
        Some(mut report) => {
            report.options.games = games.max(report.options.games);
            report.stage = Stage::Table(1);
            report.stopped.clear();
            report.paused = false;
            report
        }
        None => BalanceReport::start(
            game,
            variant,
            BalanceOptions {
                rounds: 0,
                oracles: Vec::new(),
                games,
                first_games: options.balance.first_games.min(games),
                ..options.balance.clone()
            },
            population[0].clone(),
            population[1].clone(),
        )?,
    };
    let plan = Plan {
        budget,
        checkpoint: None,
        players_dir: None,
    };
    // A fresh watch: the deadline's cancel must not stop the next candidate.
    let own = Watch::new();
    session::run_plan(game, &mut report, &plan, &own, &mut |_| {})?;
    watch.progress.add(own.progress.done());
    Ok(report)
}

fn candidate_of(value: &Value, report: &BalanceReport) -> Candidate {
    let [rows, columns] = report.coverage.map_or([0, 0], |c| c.solved);
    Candidate {
        value: value.clone(),
        share: report.value,
        games: report.table.games(),
        coverage: report.coverage,
        table: Some(report.table.corner(rows, columns)),
    }
}

/// Walks one knob: its ends, bisection to the target, more games at the
/// two values around it; the curve's crossing and the change.
fn along(
    knob: &PlannedKnob,
    population: &[Vec<Member>; 2],
    variant: &str,
    options: &FairOptions,
    budget: Option<Duration>,
    watch: &Watch,
) -> Result<(KnobResult, u64), BalanceError> {
    let end = budget.map(|b| Instant::now() + b);
    let n = knob.points.len();
    let mut reports: Vec<Option<BalanceReport>> = vec![None; n];
    let mut played = 0u64;
    let target = options.target;
    let games = options.balance.games;
    // About as many evaluations as bisection needs, and two refinements.
    let planned = 3 + (n as f64).log2().ceil() as u32 + 2;
    let mut done = 0u32;
    let mut at = |i: usize,
                  games: u64,
                  reports: &mut Vec<Option<BalanceReport>>,
                  done: &mut u32|
     -> Result<f64, BalanceError> {
        if watch.progress.is_cancelled() {
            return Err(BalanceError::Cancelled(crate::sim::Cancelled));
        }
        let slice = end.map(|e| {
            e.saturating_duration_since(Instant::now()) / (planned.saturating_sub(*done)).max(1)
        });
        let point = &knob.points[i];
        watch.say(format!(
            "{}={}: the population's table",
            knob.axis.key,
            value_text(knob.value_at(i))
        ));
        let before = reports[i].as_ref().map_or(0, |r| r.games_played);
        let judged_by = JudgedBy {
            variant,
            population,
            options,
        };
        let report = evaluate(
            &point.game,
            &judged_by,
            games,
            slice,
            reports[i].take(),
            watch,
        )?;
        played += report.games_played - before;
        let value = report.value.estimate;
        reports[i] = Some(report);
        *done += 1;
        Ok(value)
    };
    // The setup's own value first: where it is fair already, no change is.
    if let Some(b) = knob.base
        && b != 0
        && b != n - 1
    {
        at(b, games, &mut reports, &mut done)?;
    }
    let (mut lo, mut hi) = (0, n - 1);
    let v_lo = at(lo, games, &mut reports, &mut done)?;
    let v_hi = at(hi, games, &mut reports, &mut done)?;
    let rising = v_hi >= v_lo;
    let below = |v: f64| if rising { v < target } else { v > target };
    if below(v_lo) && !below(v_hi) {
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            let v = at(mid, games, &mut reports, &mut done)?;
            if below(v) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    }
    // The answer is decided between the two around the target (or, where
    // the knob does not reach it, at its ends): more games there.
    for i in [lo, hi] {
        at(i, games * 2, &mut reports, &mut done)?;
    }
    Ok((knob_result(knob, &reports, options), played))
}

/// What one knob can do, from the candidates played along it: the
/// curve's crossing, the change nearest the setup's own value within the
/// tolerance, else the candidate nearest the target.
fn knob_result(
    knob: &PlannedKnob,
    reports: &[Option<BalanceReport>],
    options: &FairOptions,
) -> KnobResult {
    let target = options.target;
    let candidates: Vec<(usize, Candidate)> = reports
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            r.as_ref()
                .filter(|r| r.value.estimate.is_finite())
                .map(|r| (i, candidate_of(knob.value_at(i), r)))
        })
        .collect();
    let crossing = crossing_of(
        &candidates,
        target,
        options.balance.replicates,
        options.balance.seed,
    );
    let indices: Vec<usize> = candidates.iter().map(|(i, _)| *i).collect();
    let candidates: Vec<Candidate> = candidates.into_iter().map(|(_, c)| c).collect();
    let from = knob.base.unwrap_or(0);
    let change = (0..candidates.len())
        .filter(|&c| candidates[c].within(target, options.tolerance))
        .min_by_key(|&c| indices[c].abs_diff(from));
    let nearest = (0..candidates.len()).min_by(|&a, &b| {
        (candidates[a].share.estimate - target)
            .abs()
            .total_cmp(&(candidates[b].share.estimate - target).abs())
    });
    KnobResult {
        key: knob.axis.key.clone(),
        base_value: knob.base.map(|b| knob.value_at(b).clone()),
        steps: change.map(|c| indices[c].abs_diff(from)),
        crossing: crossing.map(|c| Crossing {
            at: in_values(knob, c.at),
            ci95: [in_values(knob, c.ci95[0]), in_values(knob, c.ci95[1])],
        }),
        candidates,
        change,
        nearest: if change.is_none() { nearest } else { None },
    }
}

/// A position along the knob's values (an index, fractional between two)
/// as the knob's own number where its values are numbers.
fn in_values(knob: &PlannedKnob, index: f64) -> f64 {
    let numbers: Option<Vec<f64>> = knob
        .points
        .iter()
        .map(|p| p.settings.get(&knob.axis.key).and_then(Value::as_f64))
        .collect();
    match numbers {
        Some(v) if !v.is_empty() => {
            let i = index.clamp(0.0, (v.len() - 1) as f64);
            let (a, b) = (i.floor() as usize, i.ceil() as usize);
            v[a] + (v[b] - v[a]) * (i - a as f64)
        }
        _ => index,
    }
}

/// Where the monotone curve through `points` (knob index, share) crosses
/// `target`, in knob indices; `None` if it does not.
pub fn monotone_crossing(points: &[(f64, f64)], target: f64) -> Option<f64> {
    if points.len() < 2 {
        return None;
    }
    let rising = points[points.len() - 1].1 >= points[0].1;
    let fitted = isotonic(
        &points
            .iter()
            .map(|&(_, v)| if rising { v } else { -v })
            .collect::<Vec<_>>(),
    );
    let t = if rising { target } else { -target };
    for w in 0..points.len() - 1 {
        let (a, b) = (fitted[w], fitted[w + 1]);
        if a <= t && t <= b {
            let x = if b > a {
                points[w].0 + (points[w + 1].0 - points[w].0) * (t - a) / (b - a)
            } else {
                (points[w].0 + points[w + 1].0) / 2.0
            };
            return Some(x);
        }
    }
    None
}

/// The non-decreasing fit nearest `values` in least squares
/// (pool-adjacent-violators).
fn isotonic(values: &[f64]) -> Vec<f64> {
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for &v in values {
        blocks.push((v, 1));
        while blocks.len() > 1 {
            let (b, nb) = blocks[blocks.len() - 1];
            let (a, na) = blocks[blocks.len() - 2];
            if a <= b {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = ((a * na as f64 + b * nb as f64) / (na + nb) as f64, na + nb);
        }
    }
    blocks
        .into_iter()
        .flat_map(|(v, n)| std::iter::repeat_n(v, n))
        .collect()
}

/// The crossing of the candidates' curve, with an interval from a
/// bootstrap that resamples the same game indices in every candidate's
/// table (its ends where a resample's curve does not cross).
fn crossing_of(
    candidates: &[(usize, Candidate)],
    target: f64,
    replicates: u32,
    seed: u64,
) -> Option<Crossing> {
    let points: Vec<(f64, f64)> = candidates
        .iter()
        .map(|(i, c)| (*i as f64, c.share.estimate))
        .collect();
    let at = monotone_crossing(&points, target)?;
    let tables: Vec<&balance::Table> = candidates
        .iter()
        .filter_map(|(_, c)| c.table.as_ref())
        .collect();
    if tables.len() != candidates.len() {
        return Some(Crossing { at, ci95: [at, at] });
    }
    let (first, last) = (points[0].0, points[points.len() - 1].0);
    let replicated = balance::table::bootstrap(&tables, replicates, seed ^ CROSSING_TAG).ok()?;
    let rising = points[points.len() - 1].1 >= points[0].1;
    let crossings: Vec<f64> = replicated
        .iter()
        .map(|r| {
            let resampled: Vec<(f64, f64)> = points
                .iter()
                .zip(r)
                .map(|(&(x, _), eq)| (x, eq.value))
                .collect();
            monotone_crossing(&resampled, target).unwrap_or_else(|| {
                // Not crossed: the target lies beyond this resample's curve.
                let v = resampled.iter().map(|p| p.1).sum::<f64>() / resampled.len() as f64;
                if (v < target) == rising { last } else { first }
            })
        })
        .collect();
    let [lo, hi] = balance::table::percentile_interval(&crossings);
    Some(Crossing {
        at,
        ci95: [lo.min(at), hi.max(at)],
    })
}

/// Rounds of best responses at the change (its game): the base's
/// population solved again there, then trained against.
fn check(
    game: &Game,
    variant: &str,
    population: &[Vec<Member>; 2],
    options: &FairOptions,
    budget: Option<Duration>,
    players_dir: Option<std::path::PathBuf>,
    watch: &Watch,
) -> Result<(Checked, u64), BalanceError> {
    let balance_options = BalanceOptions {
        rounds: options.check_rounds,
        oracles: if options.check_rounds == 0 {
            Vec::new()
        } else {
            options.balance.oracles.clone()
        },
        // The check's responses are its own: not the base's seeds.
        seed: options.balance.seed ^ 0xC4EC,
        ..options.balance.clone()
    };
    let mut report = BalanceReport::start(
        game,
        variant,
        balance_options,
        population[0].clone(),
        population[1].clone(),
    )?;
    let plan = Plan {
        budget,
        checkpoint: None,
        players_dir,
    };
    let own = Watch::new();
    session::run_plan(game, &mut report, &plan, &own, &mut |_| {})?;
    watch.progress.add(own.progress.done());
    let responses: Vec<&balance::Response> =
        report.rounds.iter().flat_map(|r| &r.responses).collect();
    let best_gain = responses
        .iter()
        .map(|r| r.counted_gain())
        .fold(0.0f64, f64::max);
    Ok((
        Checked {
            key: String::new(),
            value: Value::Null,
            share: report.value,
            best_gain,
            responses: responses.len(),
            joined: responses.iter().filter(|r| r.joined).count(),
            stopped: report.stopped.clone(),
        },
        report.games_played,
    ))
}

/// A knob's value as a designer writes it.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The change in words: "Give Caesar 3 extra levy points at his first
/// levy", "Set vp_to_win to 9".
pub fn change_words(key: &str, value: &Value) -> String {
    let text = value_text(value);
    for side in Side::BOTH {
        if key == bid_field(side) {
            let (name, his) = match side {
                Side::Caesar => ("Caesar", "his"),
                Side::Pompey => ("Pompey", "his"),
            };
            return format!("Give {name} {text} extra levy points at {his} first levy");
        }
    }
    format!("Set {key} to {text}")
}

fn percent(i: &Interval) -> String {
    format!(
        "{:.1}% ({:.1}–{:.1})",
        i.estimate * 100.0,
        i.ci95[0] * 100.0,
        i.ci95[1] * 100.0
    )
}

impl FairReport {
    /// The answer in words first.
    pub fn verdict(&self) -> String {
        let target = self.options.target * 100.0;
        let mut text = match &self.answer {
            Some(a) => format!(
                "{}: at equilibrium Caesar wins {}; {}.",
                change_words(&a.key, &a.value),
                percent(&a.share),
                if a.responses == 0 {
                    "no best response was trained against it".to_string()
                } else {
                    format!(
                        "no new player trained against it moved it by more than {:.1} points",
                        a.best_gain * 100.0
                    )
                }
            ),
            None => format!(
                "No change found brings Caesar to {target:.0}% ± {:.0} at equilibrium (he wins {} as the setup is).",
                self.options.tolerance * 100.0,
                percent(&self.base)
            ),
        };
        let answer_key = self.answer.as_ref().map(|a| a.key.as_str());
        let others: Vec<String> = self
            .knobs
            .iter()
            .filter(|k| Some(k.key.as_str()) != answer_key)
            .map(|k| match (k.change, k.nearest) {
                (Some(c), _) => format!(
                    "{} ({})",
                    change_words(&k.key, &k.candidates[c].value),
                    percent(&k.candidates[c].share)
                ),
                (None, Some(n)) => format!(
                    "{} cannot reach {target:.0}%: its nearest point is {} at {}",
                    k.key,
                    value_text(&k.candidates[n].value),
                    percent(&k.candidates[n].share)
                ),
                (None, None) => format!("{} was not played (the budget ended)", k.key),
            })
            .collect();
        if !others.is_empty() {
            text.push_str(&format!(" Next best: {}.", others.join("; ")));
        }
        text
    }
}

impl fmt::Display for FairReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Make it fair: {} on {} ({} games, {:.0} s)",
            self.variant, self.played_on.scenario, self.games_played, self.elapsed_seconds
        )?;
        writeln!(f, "{}", self.verdict())?;
        writeln!(f)?;
        writeln!(
            f,
            "As the setup is: Caesar wins {} at equilibrium, over {} Caesar and {} Pompey players",
            percent(&self.base),
            self.population[0],
            self.population[1]
        )?;
        for k in &self.knobs {
            writeln!(f)?;
            writeln!(
                f,
                "{} (the setup's own: {}):",
                k.key,
                k.base_value
                    .as_ref()
                    .map_or("none of these".to_string(), value_text)
            )?;
            for (i, c) in k.candidates.iter().enumerate() {
                writeln!(
                    f,
                    "  {:>6}  {}  {} games{}",
                    value_text(&c.value),
                    percent(&c.share),
                    c.games,
                    if Some(i) == k.change {
                        "  ← the change"
                    } else {
                        ""
                    }
                )?;
            }
            match k.crossing {
                Some(c) => writeln!(
                    f,
                    "  crosses {:.0}% at {:.2} ({:.2} to {:.2})",
                    self.options.target * 100.0,
                    c.at,
                    c.ci95[0],
                    c.ci95[1]
                )?,
                None => writeln!(f, "  does not cross {:.0}%", self.options.target * 100.0)?,
            }
        }
        if let Some(a) = &self.answer {
            writeln!(f)?;
            writeln!(
                f,
                "Checked at {}={}: {} best responses, {} joined; {}",
                a.key,
                value_text(&a.value),
                a.responses,
                a.joined,
                a.stopped
            )?;
        }
        writeln!(f, "Stopped: {}", self.stopped)
    }
}

/// A variant that extends `base` (a built-in name or a file, as `--variant`
/// took it) and sets only the change.
pub fn variant_text(base: &str, rules: &RuleSet, key: &str, value: &Value) -> String {
    format!(
        "// Written by `caesar-workbench fair`: {}.\n(\n    name: \"{} [{}={}]\",\n    extends: {:?},\n    {}: {},\n)\n",
        change_words(key, value),
        rules.name,
        key,
        value_text(value),
        base,
        key,
        match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_monotone_curve_crosses_where_the_values_pass_the_target() {
        let points = [
            (0.0, 0.40),
            (1.0, 0.45),
            (2.0, 0.48),
            (3.0, 0.52),
            (4.0, 0.55),
        ];
        let x = monotone_crossing(&points, 0.5).unwrap();
        assert!((x - 2.5).abs() < 1e-9, "{x}");
        // A dip against the trend is pooled, not a second crossing.
        let noisy = [(0.0, 0.40), (1.0, 0.47), (2.0, 0.45), (3.0, 0.56)];
        let x = monotone_crossing(&noisy, 0.5).unwrap();
        assert!((2.0..3.0).contains(&x), "{x}");
        // Falling curves cross too.
        let falling = [(0.0, 0.6), (1.0, 0.4)];
        assert!((monotone_crossing(&falling, 0.5).unwrap() - 0.5).abs() < 1e-9);
        // A curve that stays below the target does not cross it.
        assert_eq!(monotone_crossing(&[(0.0, 0.3), (1.0, 0.4)], 0.5), None);
    }

    #[test]
    fn the_isotonic_fit_pools_adjacent_violators() {
        assert_eq!(isotonic(&[1.0, 3.0, 2.0, 4.0]), vec![1.0, 2.5, 2.5, 4.0]);
        assert_eq!(isotonic(&[3.0, 2.0, 1.0]), vec![2.0, 2.0, 2.0]);
    }

    #[test]
    fn the_bid_is_said_as_a_designer_would() {
        assert_eq!(
            change_words("caesar_first_levy_bonus", &Value::from(3)),
            "Give Caesar 3 extra levy points at his first levy"
        );
        assert_eq!(
            change_words("vp_to_win", &Value::from(9)),
            "Set vp_to_win to 9"
        );
    }
}
