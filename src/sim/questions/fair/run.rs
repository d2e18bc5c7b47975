//! A `fair` run: the base, the walk along each knob, the check at the
//! change, each on the library's balance run, and every table kept in the
//! report's [`FairProgress`] so that a run cut by its budget or a cancel
//! resumes to the report an uninterrupted one makes.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::crossing::crossing_of;
#[cfg(test)]
use super::model::Setting;
use super::model::{
    Candidate, Checked, Crossing, FairOptions, FairProgress, FairReport, FairSetup, KnobProgress,
    KnobResult, PlannedKnob, Visit, value_text,
};
use crate::engine::Game;
use crate::sim::questions::balance::session::{self, Plan};
use crate::sim::questions::balance::{
    self, BalanceError, BalanceOptions, BalanceReport, Member, Stage, Watch,
};
use crate::sim::runs::report::PlayedOn;

/// The base run's share of the budget, and the check's.
const BASE_SHARE: f64 = 0.3;
const CHECK_SHARE: f64 = 0.25;

/// Mixed into the run's seed for the checks' training.
const CHECK_TAG: u64 = 0x4641_4952_4348_4543; // "FAIRCHEC"

/// Runs `fair`: the base, each knob, the check at the best change, going
/// on from `setup.progress` (empty for a new run). `on_step` sees the
/// report after every table (a checkpoint, the window's "so far"). Cut by
/// the budget or a cancel, the report says how far it got and is paused.
pub fn run(
    setup: FairSetup<'_>,
    options: &FairOptions,
    watch: &Watch,
    on_step: &mut dyn FnMut(&FairReport),
) -> Result<FairReport, BalanceError> {
    options
        .check()
        .map_err(|e| BalanceError::Resume(e.to_string()))?;
    let mut walk = Walk::new(setup, options, watch);
    let Some(population) = walk.base()? else {
        return Ok(walk.report(
            None,
            "the budget ended before the setup's first table was solved",
        ));
    };
    on_step(&walk.report(Some(&population), ""));
    if let Some(shard) = options.shard {
        return walk.grid(shard, &population, on_step);
    }
    let search_end = walk
        .left()
        .map(|l| Instant::now() + l.mul_f64(1.0 - CHECK_SHARE / (1.0 - BASE_SHARE)));
    // Each knob alone, then, where none reaches the target, each with
    // another held at its end nearest the target (the pairs' time is
    // planned from the start; unused, the checks have it).
    let singles = walk.setup.knobs.iter().filter(|k| k.with.is_none()).count();
    let walks = singles + singles * singles.saturating_sub(1);
    for n in 0..walks {
        let k = if n < singles {
            Some(n)
        } else if walk.reaches() {
            break;
        } else {
            walk.pair(n - singles, singles)
        };
        let share = search_end
            .map(|end| end.saturating_duration_since(Instant::now()) / (walks - n) as u32);
        if let Some(k) = k
            && !walk.along(k, &population, share, on_step)?
        {
            let why = if walk.cancelled() {
                "the run was cancelled"
            } else {
                "the budget ended"
            };
            return Ok(walk.report(Some(&population), why));
        }
    }
    if walk.cancelled() {
        return Ok(walk.report(Some(&population), "the run was cancelled"));
    }
    let stopped = walk.checks(&population, on_step)?;
    Ok(walk.report(Some(&population), &stopped))
}

/// A run under way: its setup, what it has played, how far it got.
struct Walk<'a> {
    setup: FairSetup<'a>,
    options: &'a FairOptions,
    watch: &'a Watch,
    started: Instant,
    deadline: Option<Instant>,
    /// Games played in this process (a resume adds them to the report's).
    games_played: u64,
    /// A stage was cut by the budget or a cancel: the report is paused.
    cut: bool,
    /// Per knob, the candidates visited by this pass (a resumed walk may
    /// hold tables its earlier pass played that this one does not visit).
    seen: Vec<Vec<bool>>,
}

impl<'a> Walk<'a> {
    fn new(mut setup: FairSetup<'a>, options: &'a FairOptions, watch: &'a Watch) -> Walk<'a> {
        let started = Instant::now();
        // A resume's progress is matched to the knobs by key; a knob it
        // does not know starts empty.
        let knobs = setup
            .knobs
            .iter()
            .map(|k| {
                let label = k.label();
                let mut earlier = setup
                    .progress
                    .knobs
                    .iter()
                    .position(|p| p.key == label)
                    .map(|i| setup.progress.knobs[i].clone())
                    .unwrap_or_else(|| KnobProgress {
                        key: label,
                        ..KnobProgress::default()
                    });
                earlier.tables.resize(k.points.len(), None);
                earlier
            })
            .collect();
        setup.progress.knobs = knobs;
        let seen = setup
            .knobs
            .iter()
            .map(|k| vec![false; k.points.len()])
            .collect();
        Walk {
            deadline: setup.budget.map(|b| started + b),
            setup,
            options,
            watch,
            started,
            games_played: 0,
            cut: false,
            seen,
        }
    }

    fn left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    fn cancelled(&self) -> bool {
        self.watch.progress.is_cancelled()
    }

    /// The balance of the setup as it is, within the base's share of the
    /// budget (or the earlier pass's, gone on with); the population every
    /// candidate is judged by, `None` before its first table is solved.
    fn base(&mut self) -> Result<Option<[Vec<Member>; 2]>, BalanceError> {
        self.watch
            .say("the setup as it is: its balance at equilibrium".to_string());
        let mut base = match self.setup.progress.base.take() {
            Some(earlier) => earlier,
            None => {
                session::prepare(
                    self.setup.game,
                    session::Begin::Fresh {
                        variant: self.setup.variant.to_string(),
                        options: self.options.grid_table(&self.options.balance),
                        players: self.setup.players.clone(),
                    },
                )?
                .report
            }
        };
        // A finished base is paused too (its rounds are done): not cut.
        if !base.is_done() {
            let before = base.games_played;
            let plan = Plan {
                budget: self.setup.budget.map(|b| b.mul_f64(BASE_SHARE)),
                checkpoint: None,
                players_dir: self.setup.players_dir.clone(),
                // The base is the setup as it is: what it trains is kept.
                library: self.setup.players.library.clone(),
            };
            in_own_watch(self.watch, |own| {
                session::run_plan(self.setup.game, &mut base, &plan, own, &mut |_| {})
            })?;
            self.games_played += base.games_played - before;
        }
        self.cut |= !base.is_done();
        let population = match &self.setup.progress.population {
            Some(p) => Some(p.clone()),
            // Each shard's part of the base solves to its own mix: the
            // population is one no mix decides, the same in every shard.
            None if self.options.shard.is_some() && base.is_done() => {
                let family = |members: &[Member]| -> Vec<Member> {
                    members
                        .iter()
                        .filter(|m| m.spec.as_ref().is_some_and(|s| balance::cost_rank(s) == 0))
                        .cloned()
                        .collect()
                };
                let p = [family(&base.caesar), family(&base.pompey)];
                self.setup.progress.population = Some(p.clone());
                Some(p)
            }
            None if self.options.shard.is_some() => None,
            None => population_of(&base),
        };
        self.setup.progress.base = Some(base);
        Ok(population)
    }

    /// A shard's part of every candidate's table, each knob's every value
    /// at the deciding games (no walk: where it goes depends on values no
    /// shard has whole). What stopped it, as the report says.
    fn grid(
        &mut self,
        shard: crate::sim::runs::cluster::Shard,
        population: &[Vec<Member>; 2],
        on_step: &mut dyn FnMut(&FairReport),
    ) -> Result<FairReport, BalanceError> {
        let games = self.options.balance.games;
        let singles: Vec<usize> = (0..self.setup.knobs.len())
            .filter(|&k| self.setup.knobs[k].with.is_none())
            .collect();
        let tables: usize = singles
            .iter()
            .map(|&k| self.setup.knobs[k].points.len())
            .sum();
        let mut played = 0;
        for &k in &singles {
            for i in 0..self.setup.knobs[k].points.len() {
                if self.cancelled() {
                    return Ok(self.report(Some(population), "the run was cancelled"));
                }
                let knob = &self.setup.knobs[k];
                self.watch.say(format!(
                    "shard {shard}: {}={}: its part of the population's table",
                    knob.axis.key,
                    value_text(knob.value_at(i))
                ));
                let earlier = self.setup.progress.knobs[k].tables[i].take();
                let before = earlier.as_ref().map_or(0, |r| r.games_played);
                let slice = self.left().map(|l| l / (tables - played).max(1) as u32);
                let report = evaluate(
                    &knob.points[i].game,
                    self.setup.variant,
                    population,
                    self.options,
                    games,
                    slice,
                    earlier,
                    self.watch,
                )?;
                self.games_played += report.games_played - before;
                self.cut |= !report.is_done();
                self.seen[k][i] = true;
                self.setup.progress.knobs[k].tables[i] = Some(report);
                played += 1;
                on_step(&self.report(Some(population), ""));
            }
        }
        let why = if self.cut {
            format!("shard {shard}: the budget ended before its part of every table was played")
        } else {
            format!(
                "shard {shard} played: its part of the base's and every candidate's table; `fair --merge` joins the shards and goes on with the walk and the checks"
            )
        };
        Ok(self.report(Some(population), &why))
    }

    /// Walks knob `k`: its ends, bisection to the target, more games at
    /// the two values around it. False if a cancel stopped it.
    fn along(
        &mut self,
        k: usize,
        population: &[Vec<Member>; 2],
        budget: Option<Duration>,
        on_step: &mut dyn FnMut(&FairReport),
    ) -> Result<bool, BalanceError> {
        let n = self.setup.knobs[k].points.len();
        let target = self.options.target;
        let games = self.options.balance.games;
        let step = Step {
            k,
            population,
            end: budget.map(|b| Instant::now() + b),
            // About as many evaluations as bisection needs, and two refinements.
            planned: Cell::new(3 + (n as f64).log2().ceil() as u32 + 2),
            visit: Cell::new(0),
        };
        // The visits left share what is left of the knob's time.
        let last = |more: u32| step.planned.set(step.visit.get() as u32 + more);
        let mut at =
            |walk: &mut Walk<'_>, i: usize, games: u64| -> Result<Option<f64>, BalanceError> {
                let value = walk.visit(&step, i, games)?;
                on_step(&walk.report(Some(population), ""));
                Ok(value)
            };
        // The setup's own value first: where it is fair already, no change is.
        if let Some(b) = self.setup.knobs[k].base
            && self.setup.knobs[k].with.is_none()
            && b != 0
            && b != n - 1
            && at(self, b, games)?.is_none()
        {
            return Ok(false);
        }
        let (mut lo, mut hi) = (0, n - 1);
        let (Some(mut v_lo), Some(mut v_hi)) = (at(self, lo, games)?, at(self, hi, games)?) else {
            return Ok(false);
        };
        let mut g = games;
        loop {
            let rising = v_hi >= v_lo;
            let below = |v: f64| if rising { v < target } else { v > target };
            if below(v_lo) && !below(v_hi) {
                let narrowed = narrowed(([lo, hi], [v_lo, v_hi]), &below, target, &mut |i| {
                    at(self, i, g)
                })?;
                let Some(([l, h], [a, b])) = narrowed else {
                    return Ok(false);
                };
                (lo, hi, v_lo, v_hi) = (l, h, a, b);
            }
            // The answer is decided between the two around the target (or,
            // where the knob does not reach it, at its ends): more games there.
            let bracketed = below(v_lo) && !below(v_hi);
            // Two refinements, and two more where none is within the tolerance.
            last(if self.knob_results()[k].change.is_some() {
                2
            } else {
                4
            });
            let (Some(l), Some(h)) = (at(self, lo, g * 2)?, at(self, hi, g * 2)?) else {
                return Ok(false);
            };
            (v_lo, v_hi) = (l, h);
            let rising = v_hi >= v_lo;
            let below = |v: f64| if rising { v < target } else { v > target };
            // Ends that the first games left short of the target but that
            // bracket it with more: bisected between them, at those games.
            if !bracketed && hi - lo > 1 && below(v_lo) && !below(v_hi) && g == games {
                last(2 + (hi - lo).ilog2() + 2);
                g *= 2;
                continue;
            }
            break;
        }
        // No value within the tolerance yet: the two nearest it get twice
        // the games again (what the knob can reach is decided there).
        if self.knob_results()[k].change.is_none() {
            last(2);
            for i in [lo, hi] {
                if at(self, i, g * 4)?.is_none() {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Candidate `i` of the step's knob played to `games` a deciding
    /// pairing: the earlier pass's value where it made this same visit in
    /// full, else its table played on (or anew). `None` once cancelled.
    fn visit(
        &mut self,
        step: &Step<'_>,
        i: usize,
        games: u64,
    ) -> Result<Option<f64>, BalanceError> {
        if self.cancelled() {
            return Ok(None);
        }
        let k = step.k;
        self.seen[k][i] = true;
        let number = step.visit.get();
        step.visit.set(number + 1);
        let knob = &self.setup.knobs[k];
        let progress = &mut self.setup.progress.knobs[k];
        if let Some(v) = progress.visits.get(number)
            && v.point == i
            && v.games == games
            && progress.tables[i].is_some()
        {
            return Ok(Some(v.value));
        }
        // From here this pass goes its own way: the earlier pass's later
        // visits decided nothing it will.
        progress.visits.truncate(number);
        let slice = step.end.map(|e| {
            e.saturating_duration_since(Instant::now())
                / step
                    .planned
                    .get()
                    .saturating_sub(step.visit.get() as u32 - 1)
                    .max(1)
        });
        let point = &knob.points[i];
        self.watch.say(format!(
            "{}={}: the population's table",
            knob.axis.key,
            value_text(knob.value_at(i))
        ));
        // A table played further than this visit asks would not give this
        // visit's value: played again from its first game.
        let earlier = progress.tables[i].take().filter(|r| {
            r.options.games <= games
                && r.caesar == step.population[0]
                && r.pompey == step.population[1]
                && r.played_on == PlayedOn::of(&point.game)
        });
        let before = earlier.as_ref().map_or(0, |r| r.games_played);
        let report = evaluate(
            &point.game,
            self.setup.variant,
            step.population,
            self.options,
            games,
            slice,
            earlier,
            self.watch,
        )?;
        self.games_played += report.games_played - before;
        let value = report.value.estimate;
        let progress = &mut self.setup.progress.knobs[k];
        if !report.is_done() {
            self.cut = true;
        } else {
            progress.visits.push(Visit {
                point: i,
                games,
                value,
            });
        }
        progress.tables[i] = Some(report);
        Ok((!self.cancelled()).then_some(value))
    }

    /// Some knob walked so far brings the target within reach: a value
    /// within the tolerance, or a curve that crosses it.
    fn reaches(&self) -> bool {
        self.knob_results().iter().zip(&self.seen).any(|(r, seen)| {
            seen.iter().any(|&s| s) && (r.change.is_some() || r.crossing.is_some())
        })
    }

    /// The `n`th pair's walk (knob `n / (singles - 1)` held, the others
    /// in order): the held knob at whichever of its ends came nearer the
    /// target. `None` where the held knob's ends were not both played, or
    /// the nearer is the setup's own value (nothing changed with it).
    fn pair(&self, n: usize, singles: usize) -> Option<usize> {
        let held = n / (singles - 1);
        let moved = (0..singles).filter(|&m| m != held).nth(n % (singles - 1))?;
        let knob = &self.setup.knobs[held];
        let table = |i: usize| {
            self.setup.progress.knobs[held].tables[i]
                .as_ref()
                .filter(|_| self.seen[held][i])
                .map(|t| (t.value.estimate - self.options.target).abs())
        };
        let last = knob.points.len() - 1;
        let end = match (table(0), table(last)) {
            (Some(a), Some(b)) => {
                if a <= b {
                    0
                } else {
                    last
                }
            }
            _ => return None,
        };
        // Held at the setup's own value, the other knob's walk is its own.
        if knob.base == Some(end) {
            return None;
        }
        let value = knob.value_at(end);
        self.setup.knobs.iter().position(|k| {
            k.axis.key == self.setup.knobs[moved].axis.key
                && k.with
                    .as_ref()
                    .is_some_and(|w| w.key == knob.axis.key && w.value == *value)
        })
    }

    /// Where the checks start: the best knob's change, or, where no
    /// candidate is within the tolerance, the one nearest the target of a
    /// knob whose curve crosses it; where none crosses either, and the
    /// checks train, of any knob: players trained where no bid existed
    /// may leave a knob's reach unused (docs/simulation.md, "What the bid
    /// buys"), and only responses trained there can say. (knob, point)
    fn first_checked(&self, knobs: &[KnobResult]) -> Option<(usize, usize)> {
        let target = self.options.target;
        let nearest_of = |crossing_only: bool| {
            (0..knobs.len())
                .filter(|&k| !crossing_only || knobs[k].crossing.is_some())
                .filter_map(|k| knobs[k].nearest.map(|n| (k, n)))
                .min_by(|&(ka, ca), &(kb, cb)| {
                    let off =
                        |k: usize, c: usize| (knobs[k].candidates[c].share.estimate - target).abs();
                    off(ka, ca).total_cmp(&off(kb, cb))
                })
        };
        let (k, c) = match best_knob(knobs, target) {
            Some(k) => (k, knobs[k].change?),
            None => nearest_of(true)
                .or_else(|| nearest_of(false).filter(|_| self.options.check_rounds > 0))?,
        };
        Some((
            k,
            candidate_point(&self.setup.knobs[k], &knobs[k].candidates[c]),
        ))
    }

    /// Rounds of best responses at the change (its game), on from its
    /// candidate's table; where they move the value out of the tolerance,
    /// the next value along the knob toward the target is checked, until
    /// one holds, the knob's values run out or one would be checked twice,
    /// or the budget ends. What stopped the run, in words.
    fn checks(
        &mut self,
        population: &[Vec<Member>; 2],
        on_step: &mut dyn FnMut(&FairReport),
    ) -> Result<String, BalanceError> {
        let knobs = self.knob_results();
        let Some((k, mut i)) = self.first_checked(&knobs) else {
            self.setup.progress.check = None;
            self.setup.progress.rechecks.clear();
            return Ok("no knob reached the target within the tolerance".to_string());
        };
        let rising = match (knobs[k].candidates.first(), knobs[k].candidates.last()) {
            (Some(a), Some(b)) => b.share.estimate >= a.share.estimate,
            _ => true,
        };
        // A knob that neither crosses nor comes within the tolerance is
        // checked at its nearest point alone: there is no value beyond it.
        let reaches = knobs[k].crossing.is_some() || knobs[k].change.is_some();
        let (target, tolerance) = (self.options.target, self.options.tolerance);
        let mut earlier: Vec<BalanceReport> =
            self.setup.progress.check.take().into_iter().collect();
        earlier.append(&mut self.setup.progress.rechecks);
        let mut earlier = earlier.into_iter();
        let mut checked = Vec::new();
        loop {
            let Some(report) = self.check_at(k, i, checked.len(), population, earlier.next())?
            else {
                return Ok("the run was cancelled".to_string());
            };
            let share = report.value.estimate;
            let held = (share - target).abs() <= tolerance + 1e-12;
            let finished = report.is_done();
            let stopped = report.stopped.clone();
            checked.push(i);
            match self.setup.progress.check {
                None => self.setup.progress.check = Some(report),
                Some(_) => self.setup.progress.rechecks.push(report),
            }
            on_step(&self.report(Some(population), ""));
            if self.cancelled() {
                return Ok("the run was cancelled".to_string());
            }
            if held {
                return Ok(format!("the change found and checked ({stopped})"));
            }
            if !reaches {
                return Ok(format!(
                    "no knob reached the target within the tolerance, nor its nearest point with best responses trained at it ({stopped})"
                ));
            }
            if !finished || self.left() == Some(Duration::ZERO) {
                return Ok(format!(
                    "the check moved the change's value outside the target's tolerance, and the budget ended before the next value was checked ({stopped})"
                ));
            }
            let next = if (share > target) == rising {
                i.checked_sub(1)
            } else {
                Some(i + 1).filter(|&n| n < self.setup.knobs[k].points.len())
            };
            match next {
                Some(n) if !checked.contains(&n) => i = n,
                _ => {
                    return Ok(format!(
                        "the checks moved every value near the target outside its tolerance ({stopped})"
                    ));
                }
            }
        }
    }

    /// Check `number` of the run: knob `k`'s point `i` solved on its
    /// candidate's table (played first where the walk did not), then
    /// trained against; `earlier` the pass before's check, gone on with
    /// where it was this same one. `None` once cancelled.
    fn check_at(
        &mut self,
        k: usize,
        i: usize,
        number: usize,
        population: &[Vec<Member>; 2],
        earlier: Option<BalanceReport>,
    ) -> Result<Option<BalanceReport>, BalanceError> {
        let knob = &self.setup.knobs[k];
        let key = knob.axis.key.clone();
        let label = knob.label();
        let value = value_text(knob.value_at(i));
        let game = knob.points[i].game.clone();
        let table = match self.setup.progress.knobs[k].tables[i].take() {
            Some(t) if t.is_done() && t.caesar == population[0] && t.pompey == population[1] => t,
            cut => {
                self.watch.say(format!(
                    "{key}={value}: the population's table, to check it"
                ));
                let before = cut.as_ref().map_or(0, |r| r.games_played);
                let cut = cut.filter(|r| r.caesar == population[0] && r.pompey == population[1]);
                let t = evaluate(
                    &game,
                    self.setup.variant,
                    population,
                    self.options,
                    self.options.balance.games,
                    self.left(),
                    cut,
                    self.watch,
                )?;
                self.games_played += t.games_played - before;
                t
            }
        };
        self.seen[k][i] = true;
        let table_done = table.is_done();
        self.setup.progress.knobs[k].tables[i] = Some(table.clone());
        if self.cancelled() {
            return Ok(None);
        }
        if !table_done {
            self.cut = true;
            return Ok(Some(table));
        }
        self.watch.say(format!(
            "checking {key}={value} with best responses trained against it"
        ));
        let options = check_options(self.options, number, table.options.games);
        let mut report = match earlier {
            Some(earlier)
                if earlier.played_on == table.played_on
                    && earlier.options == options
                    && earlier.caesar.starts_with(&population[0])
                    && earlier.pompey.starts_with(&population[1]) =>
            {
                earlier
            }
            _ => {
                let mut report = table;
                report.options = options;
                report.stage = Stage::Table(1);
                report.rounds.clear();
                report.stopped.clear();
                report.paused = false;
                report
            }
        };
        let before = report.games_played;
        // Each check's players in a folder of their own: the base's and
        // the other checks' files of the same rounds stay.
        let plan = Plan {
            budget: self.left(),
            checkpoint: None,
            players_dir: self
                .setup
                .players_dir
                .as_ref()
                .map(|d| d.join(format!("check-{label}={value}"))),
            // Trained at a changed setup: not the setup's library's.
            library: None,
        };
        in_own_watch(self.watch, |own| {
            session::run_plan(&game, &mut report, &plan, own, &mut |_| {})
        })?;
        self.games_played += report.games_played - before;
        self.cut |= !report.is_done();
        Ok((!self.cancelled()).then_some(report))
    }

    /// Each knob's result over the candidates this pass visited.
    fn knob_results(&self) -> Vec<KnobResult> {
        self.setup
            .knobs
            .iter()
            .zip(&self.setup.progress.knobs)
            .zip(&self.seen)
            .map(|((knob, progress), seen)| {
                let tables: Vec<Option<&BalanceReport>> = progress
                    .tables
                    .iter()
                    .zip(seen)
                    .map(|(t, &seen)| t.as_ref().filter(|_| seen))
                    .collect();
                knob_result(knob, &tables, self.options)
            })
            .collect()
    }

    /// The report as far as the run got; `stopped` empty while it runs on.
    fn report(&self, population: Option<&[Vec<Member>; 2]>, stopped: &str) -> FairReport {
        let progress = &self.setup.progress;
        let base = progress.base.as_ref().expect("the base is played first");
        let knobs = if population.is_some() {
            self.knob_results()
        } else {
            Vec::new()
        };
        let checks: Vec<Checked> = match self.first_checked(&knobs) {
            Some((k, _)) => {
                let knob = &self.setup.knobs[k];
                // A check an earlier pass made along another knob answers nothing.
                progress
                    .checks()
                    .map_while(|check| {
                        let i = knob
                            .points
                            .iter()
                            .position(|p| PlayedOn::of(&p.game) == check.played_on)?;
                        Some(checked_of(knob, i, check))
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let off = |c: &Checked| (c.share.estimate - self.options.target).abs();
        let answer = checks
            .iter()
            .find(|c| off(c) <= self.options.tolerance + 1e-12)
            .or_else(|| checks.iter().min_by(|a, b| off(a).total_cmp(&off(b))))
            .cloned();
        // Two knobs' walks not made (one knob reached alone) say nothing.
        let mut knobs = knobs;
        knobs.retain(|k| k.with.is_none() || !k.candidates.is_empty());
        let paused = self.cut || self.cancelled();
        let mut stopped = stopped.to_string();
        if paused && !stopped.is_empty() {
            stopped.push_str("; a stage was cut short: resume the run to go on");
        }
        FairReport {
            variant: self.setup.variant.to_string(),
            played_on: PlayedOn::of(self.setup.game),
            options: self.options.clone(),
            base: base.value,
            population: population.map_or([0, 0], |p| [p[0].len(), p[1].len()]),
            knobs,
            answer,
            checks,
            stopped,
            games_played: self.setup.earlier_games + self.games_played,
            elapsed_seconds: self.setup.earlier_seconds + self.started.elapsed().as_secs_f64(),
            paused,
            axes: self.setup.knobs.iter().map(|k| k.axis.clone()).collect(),
            progress: progress.clone(),
        }
    }
}

/// The walk along one knob: which knob, judged by whom, and its clock.
struct Step<'p> {
    k: usize,
    population: &'p [Vec<Member>; 2],
    end: Option<Instant>,
    /// Visits this walk expects to make in all (its clock's share).
    planned: Cell<u32>,
    /// Visits made so far along this knob.
    visit: Cell<usize>,
}

/// Runs `f` with a watch of its own, whose deadline cancels only what `f`
/// runs; the run's cancel still reaches it, and its games count in the
/// run's progress as they are played.
fn in_own_watch<T>(watch: &Watch, f: impl FnOnce(&Watch) -> T) -> T {
    let own = Watch::new();
    let finished = AtomicBool::new(false);
    let counted = std::sync::atomic::AtomicU64::new(0);
    let forward = || {
        let done = own.progress.done();
        let before = counted.swap(done, Ordering::Relaxed);
        watch.progress.add(done.saturating_sub(before));
    };
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if watch.progress.is_cancelled() {
                    own.progress.cancel();
                }
                forward();
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let out = f(&own);
        finished.store(true, Ordering::Relaxed);
        forward();
        out
    })
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

/// The knob whose change is the answer: reaching the target, the fewest
/// steps from the setup's own value, then the nearest the target.
pub(super) fn best_knob(knobs: &[KnobResult], target: f64) -> Option<usize> {
    (0..knobs.len())
        .filter(|&k| knobs[k].change.is_some())
        .min_by(|&a, &b| {
            // The fewest knobs changed, then the fewest steps.
            let key = |k: usize| {
                let c = &knobs[k].candidates[knobs[k].change.expect("filtered")];
                (
                    knobs[k].with.is_some(),
                    knobs[k].steps.unwrap_or(usize::MAX),
                    c.share.estimate,
                )
            };
            let (pa, sa, va) = key(a);
            let (pb, sb, vb) = key(b);
            pa.cmp(&pb)
                .then(sa.cmp(&sb))
                .then((va - target).abs().total_cmp(&(vb - target).abs()))
        })
}

/// The bracket `[lo, hi]` around the target (their values), narrowed to
/// two neighbours: each next value where a straight line through the ends
/// meets the target; where the same end moves twice running, the curve
/// bends there and the midpoint goes faster. `None` once a visit is
/// cancelled.
#[allow(clippy::type_complexity)]
fn narrowed(
    bracket: ([usize; 2], [f64; 2]),
    below: &dyn Fn(f64) -> bool,
    target: f64,
    visit: &mut dyn FnMut(usize) -> Result<Option<f64>, BalanceError>,
) -> Result<Option<([usize; 2], [f64; 2])>, BalanceError> {
    let ([mut lo, mut hi], [mut v_lo, mut v_hi]) = bracket;
    let mut last_moved: Option<bool> = None;
    let mut repeated = false;
    while hi - lo > 1 {
        let next = if repeated {
            (lo + hi) / 2
        } else {
            interpolated([lo, hi], [v_lo, v_hi], target)
        };
        let Some(v) = visit(next)? else {
            return Ok(None);
        };
        let low = below(v);
        if low {
            (lo, v_lo) = (next, v);
        } else {
            (hi, v_hi) = (next, v);
        }
        repeated = last_moved == Some(low);
        last_moved = Some(low);
    }
    Ok(Some(([lo, hi], [v_lo, v_hi])))
}

/// The value strictly between `ends` where a straight line through their
/// values meets `target` (the midpoint where the values are level).
fn interpolated(ends: [usize; 2], values: [f64; 2], target: f64) -> usize {
    let [lo, hi] = ends;
    let span = values[1] - values[0];
    let at = if span.abs() < 1e-12 {
        (lo + hi) as f64 / 2.0
    } else {
        lo as f64 + (target - values[0]) / span * (hi - lo) as f64
    };
    (at.round().max(0.0) as usize).clamp(lo + 1, hi - 1)
}

fn candidate_point(knob: &PlannedKnob, candidate: &Candidate) -> usize {
    knob.points
        .iter()
        .position(|p| p.settings.get(&knob.axis.key) == Some(&candidate.value))
        .expect("every candidate is one of its knob's points")
}

/// One candidate's table: the population at the candidate's setup, over
/// the base run's seeds, to `games` games a deciding pairing.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    game: &Game,
    variant: &str,
    population: &[Vec<Member>; 2],
    options: &FairOptions,
    games: u64,
    budget: Option<Duration>,
    earlier: Option<BalanceReport>,
    watch: &Watch,
) -> Result<BalanceReport, BalanceError> {
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
            options.grid_table(&BalanceOptions {
                rounds: 0,
                oracles: Vec::new(),
                games,
                first_games: options.balance.first_games.min(games),
                ..options.balance.clone()
            }),
            population[0].clone(),
            population[1].clone(),
        )?,
    };
    let plan = Plan {
        budget,
        checkpoint: None,
        players_dir: None,
        library: None,
    };
    in_own_watch(watch, |own| {
        session::run_plan(game, &mut report, &plan, own, &mut |_| {})
    })?;
    Ok(report)
}

/// Check `number`'s options: the base's, on from a candidate's table of
/// `games` a deciding pairing (its seed), with its own rounds and
/// training seeds.
fn check_options(options: &FairOptions, number: usize, games: u64) -> BalanceOptions {
    BalanceOptions {
        rounds: options.check_rounds,
        oracles: if options.check_rounds == 0 {
            Vec::new()
        } else {
            options.balance.oracles.clone()
        },
        games: games.max(options.balance.games),
        // Each check's responses are its own: neither the base's nor
        // another check's seeds.
        training_seed: Some(crate::sim::game_seed(
            options.balance.seed ^ CHECK_TAG,
            number as u64,
        )),
        ..options.balance.clone()
    }
}

fn checked_of(knob: &PlannedKnob, i: usize, report: &BalanceReport) -> Checked {
    let responses: Vec<&balance::Response> =
        report.rounds.iter().flat_map(|r| &r.responses).collect();
    Checked {
        key: knob.axis.key.clone(),
        value: knob.value_at(i).clone(),
        with: knob.with.clone(),
        share: report.value,
        best_gain: responses
            .iter()
            .map(|r| r.counted_gain())
            .fold(0.0f64, f64::max),
        responses: responses.len(),
        joined: responses.iter().filter(|r| r.joined).count(),
        stopped: report.stopped.clone(),
    }
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

/// What one knob can do, from the candidates played along it: the
/// curve's crossing, the change nearest the setup's own value within the
/// tolerance, else the candidate nearest the target.
fn knob_result(
    knob: &PlannedKnob,
    reports: &[Option<&BalanceReport>],
    options: &FairOptions,
) -> KnobResult {
    let target = options.target;
    let candidates: Vec<(usize, Candidate)> = reports
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            r.filter(|r| r.value.estimate.is_finite())
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
        with: knob.with.clone(),
        base_value: knob.base.map(|b| knob.value_at(b).clone()),
        steps: change.map(|c| indices[c].abs_diff(from) + knob.held_steps),
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

/// Every stored table of `progress` made ready to go on with in this
/// process (its players read again, its table solved again, as a balance
/// resume does), each against the setup it was played on; a table whose
/// setup is none of the knobs' points is left out.
pub fn reload(
    mut progress: FairProgress,
    game: &Game,
    knobs: &[PlannedKnob],
) -> Result<FairProgress, BalanceError> {
    let ready = |report: BalanceReport, game: &Game| -> Result<BalanceReport, BalanceError> {
        let paused = report.paused;
        let mut report = session::prepare(
            game,
            session::Begin::Resume {
                report: Box::new(report),
                rounds: None,
            },
        )?
        .report;
        // prepare sets a paused report going; the walk decides that.
        report.paused = paused;
        Ok(report)
    };
    if let Some(base) = progress.base.take() {
        progress.base = Some(ready(base, game)?);
    }
    // A sharded run's population is of the base's players: each read as
    // the base read it.
    if let (Some(population), Some(base)) = (progress.population.as_mut(), &progress.base) {
        for member in population.iter_mut().flatten() {
            member.spec = base
                .caesar
                .iter()
                .chain(&base.pompey)
                .find(|b| b.digest == member.digest && b.player == member.player)
                .and_then(|b| b.spec.clone());
            if member.spec.is_none() {
                return Err(BalanceError::Resume(format!(
                    "progress.population: {} is none of the base's players",
                    member.player
                )));
            }
        }
    }
    let games_of = |played_on: &PlayedOn| {
        knobs
            .iter()
            .flat_map(|k| &k.points)
            .find(|p| PlayedOn::of(&p.game) == *played_on)
            .map(|p| &p.game)
    };
    for knob in &mut progress.knobs {
        for table in &mut knob.tables {
            *table = match table.take() {
                Some(t) => match games_of(&t.played_on) {
                    Some(g) => Some(ready(t, g)?),
                    None => None,
                },
                None => None,
            };
        }
    }
    // The checks in order, up to the first whose setup is no knob's point.
    let mut checks = Vec::new();
    for check in progress
        .check
        .take()
        .into_iter()
        .chain(progress.rechecks.drain(..))
    {
        match games_of(&check.played_on) {
            Some(g) => checks.push(ready(check, g)?),
            None => break,
        }
    }
    let mut checks = checks.into_iter();
    progress.check = checks.next();
    progress.rechecks = checks.collect();
    Ok(progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::AiSpec;
    use crate::scenario::rules::RuleSet;
    use crate::sim::questions::fair::plan_knobs;
    use crate::sim::questions::sweep::Axis;

    fn options() -> FairOptions {
        FairOptions {
            target: 0.5,
            tolerance: 0.1,
            balance: BalanceOptions {
                seed: 17,
                first_games: 4,
                games: 6,
                rounds: 0,
                oracles: Vec::new(),
                replicates: 20,
                ..BalanceOptions::default()
            },
            check_rounds: 0,
            shard: None,
        }
    }

    fn setup<'a>(game: &'a Game, knobs: Vec<PlannedKnob>) -> FairSetup<'a> {
        FairSetup {
            game,
            variant: "rules-2.0",
            knobs,
            players: session::Players {
                lineage: vec![RuleSet::builtin("rules-2.0")],
                bundle: Vec::new(),
                named: vec![AiSpec::Random, AiSpec::Heuristic],
                shipped: false,
                library: None,
            },
            budget: None,
            players_dir: None,
            progress: FairProgress::default(),
            earlier_games: 0,
            earlier_seconds: 0.0,
        }
    }

    fn knobs(game: &Game) -> Vec<PlannedKnob> {
        let axis = Axis {
            key: "vp_to_win".to_string(),
            values: ["8", "9", "10", "11", "12"].map(String::from).to_vec(),
        };
        plan_knobs(&crate::scenario::historical(), game, &[axis]).unwrap()
    }

    /// What a resume must reach: everything but the clock.
    fn timeless(mut report: FairReport) -> FairReport {
        report.elapsed_seconds = 0.0;
        let progress = &mut report.progress;
        let tables = progress
            .base
            .iter_mut()
            .chain(progress.check.iter_mut())
            .chain(progress.rechecks.iter_mut())
            .chain(
                progress
                    .knobs
                    .iter_mut()
                    .flat_map(|k| k.tables.iter_mut().flatten()),
            );
        for t in tables {
            t.elapsed_seconds = 0.0;
        }
        report
    }

    #[test]
    fn a_cancelled_run_resumes_to_the_report_of_an_uninterrupted_one() {
        let game = crate::test_support::published("rules-2.0");
        // With no change found, and with checks that step along the knob.
        for options in [options(), missing_checks()] {
            let mut steps: usize = 0;
            let whole = run(
                setup(&game, knobs(&game)),
                &options,
                &Watch::new(),
                &mut |_| steps += 1,
            )
            .unwrap();
            assert!(!whole.paused, "{}", whole.stopped);
            assert!(whole.knobs[0].candidates.len() >= 2);
            // Cancelled after every number of tables it plays (the walk's
            // are the first run's; the second's new stage is its checks,
            // the last four), each cut run resumed (through its JSON, as a
            // file would carry it) reaches the uninterrupted report.
            let first = if options == missing_checks() {
                steps.saturating_sub(4).max(1)
            } else {
                1
            };
            for cut_after in first..=steps {
                let watch = Watch::new();
                let mut seen = 0;
                let cut = run(setup(&game, knobs(&game)), &options, &watch, &mut |_| {
                    seen += 1;
                    if seen == cut_after {
                        watch.progress.cancel();
                    }
                })
                .unwrap();
                assert!(cut.paused, "cut after {cut_after}: {}", cut.stopped);
                assert!(cut.stopped.contains("cancelled"), "{}", cut.stopped);
                let text = serde_json::to_string(&cut).unwrap();
                let cut: FairReport = serde_json::from_str(&text).unwrap();
                cut.check().unwrap();
                let mut again = setup(&game, knobs(&game));
                again.earlier_games = cut.games_played;
                again.progress = reload(cut.progress, &game, &again.knobs).unwrap();
                let resumed = run(again, &options, &Watch::new(), &mut |_| {}).unwrap();
                assert_eq!(
                    timeless(resumed),
                    timeless(whole.clone()),
                    "cut after {cut_after} tables"
                );
            }
        }
    }

    /// No value of the test's tables is within a tenth of a point of
    /// this target: every check misses.
    fn missing_checks() -> FairOptions {
        FairOptions {
            target: 0.25,
            tolerance: 0.001,
            ..options()
        }
    }

    #[test]
    fn checks_that_miss_the_tolerance_step_toward_the_target_and_never_twice() {
        let game = crate::test_support::published("rules-2.0");
        // Every check misses: they walk on from the nearest the target.
        let options = missing_checks();
        let report = run(
            setup(&game, knobs(&game)),
            &options,
            &Watch::new(),
            &mut |_| {},
        )
        .unwrap();
        let knob = &report.knobs[0];
        assert!(knob.crossing.is_some(), "{report}");
        assert!(report.checks.len() >= 2, "{report}");
        let index = |v: &Value| {
            ["8", "9", "10", "11", "12"]
                .iter()
                .position(|s| v.as_u64() == s.parse().ok())
                .unwrap()
        };
        let rising =
            knob.candidates.last().unwrap().share.estimate >= knob.candidates[0].share.estimate;
        for pair in report.checks.windows(2) {
            let (from, to) = (index(&pair[0].value), index(&pair[1].value));
            let above = pair[0].share.estimate > options.target;
            assert_eq!(
                to as i64 - from as i64,
                if above == rising { -1 } else { 1 }
            );
        }
        let mut values: Vec<usize> = report.checks.iter().map(|c| index(&c.value)).collect();
        values.sort();
        values.dedup();
        assert_eq!(values.len(), report.checks.len(), "a value checked twice");
        let off = |c: &Checked| (c.share.estimate - options.target).abs();
        let answer = report.answer.as_ref().unwrap();
        assert!(report.checks.iter().all(|c| off(answer) <= off(c)));
        assert!(!report.answer_within());
        assert!(
            report.verdict().contains("the nearest the checks came"),
            "{}",
            report.verdict()
        );
        assert!(
            report.stopped.contains("outside its tolerance"),
            "{}",
            report.stopped
        );
    }

    /// A knob that cannot reach the target is checked at its nearest point
    /// when the checks train (players fitted where the knob was never
    /// moved may leave its reach unused), and only there; with no training
    /// it is not checked at all.
    #[test]
    fn a_knob_that_cannot_reach_is_checked_at_its_nearest_point_when_the_checks_train() {
        let game = crate::test_support::published("rules-2.0");
        let unreachable = FairOptions {
            target: 0.95,
            tolerance: 0.01,
            ..options()
        };
        let untrained = run(
            setup(&game, knobs(&game)),
            &unreachable,
            &Watch::new(),
            &mut |_| {},
        )
        .unwrap();
        assert!(untrained.knobs[0].crossing.is_none(), "{untrained}");
        assert!(untrained.checks.is_empty() && untrained.answer.is_none());
        let training = FairOptions {
            check_rounds: 1,
            balance: BalanceOptions {
                oracles: vec![balance::Oracle::Tune],
                response_games: 20,
                tune_games: balance::options::tune_generation_games(),
                start_games: 0,
                tune_restarts: 1,
                ..unreachable.balance.clone()
            },
            ..unreachable.clone()
        };
        let dir = tempfile::tempdir().unwrap();
        let trained = FairSetup {
            players_dir: Some(dir.path().to_path_buf()),
            ..setup(&game, knobs(&game))
        };
        let report = run(trained, &training, &Watch::new(), &mut |_| {}).unwrap();
        let knob = &report.knobs[0];
        let nearest = &knob.candidates[knob.nearest.unwrap()];
        assert_eq!(report.checks.len(), 1, "{report}");
        assert_eq!(report.checks[0].value, nearest.value);
        assert!(report.checks[0].responses > 0, "{report}");
        assert!(!report.answer_within());
        assert!(
            report.stopped.contains("nor its nearest point"),
            "{}",
            report.stopped
        );
    }

    #[test]
    fn where_no_knob_reaches_alone_each_is_walked_with_the_other_held_at_its_nearer_end() {
        let game = crate::test_support::published("rules-2.0");
        let axes = [
            Axis {
                key: "vp_to_win".to_string(),
                values: ["8", "10", "12"].map(String::from).to_vec(),
            },
            Axis {
                key: "caesar_first_levy_bonus".to_string(),
                values: ["0", "5", "10"].map(String::from).to_vec(),
            },
        ];
        let planned = plan_knobs(&crate::scenario::historical(), &game, &axes).unwrap();
        // Two alone, then each with the other at either end.
        assert_eq!(planned.len(), 2 + 2 * 2);
        assert!(planned[..2].iter().all(|k| k.with.is_none()));
        assert_eq!(planned[2].label(), "vp_to_win=8+caesar_first_levy_bonus");
        // Far below anything these players reach: no knob gets there alone.
        let options = FairOptions {
            target: 0.06,
            tolerance: 0.001,
            ..options()
        };
        let report = run(setup(&game, planned), &options, &Watch::new(), &mut |_| {}).unwrap();
        assert!(!report.paused, "{}", report.stopped);
        let (singles, pairs): (Vec<&KnobResult>, Vec<&KnobResult>) =
            report.knobs.iter().partition(|k| k.with.is_none());
        assert_eq!(singles.len(), 2);
        assert!(singles.iter().all(|k| k.crossing.is_none()), "{report}");
        // One walk per moved knob: the held one at the end nearer the
        // target, where that is not the setup's own value.
        let nearer_end = |alone: &KnobResult| {
            let off = |c: &Candidate| (c.share.estimate - options.target).abs();
            let (first, last) = (
                alone.candidates.first().unwrap(),
                alone.candidates.last().unwrap(),
            );
            if off(first) <= off(last) {
                first.value.clone()
            } else {
                last.value.clone()
            }
        };
        let expected = singles
            .iter()
            .filter(|k| k.base_value.as_ref() != Some(&nearer_end(k)))
            .count();
        assert_eq!(pairs.len(), expected, "{report}");
        assert!(expected >= 1, "vp_to_win's own value is no end: {report}");
        for pair in pairs {
            let held = pair.with.as_ref().unwrap();
            let alone = singles.iter().find(|k| k.key == held.key).unwrap();
            let off = |v: &Value| {
                let c = alone.candidates.iter().find(|c| c.value == *v).unwrap();
                (c.share.estimate - options.target).abs()
            };
            let (first, last) = (
                &alone.candidates.first().unwrap().value,
                &alone.candidates.last().unwrap().value,
            );
            let nearer = if off(first) <= off(last) { first } else { last };
            assert_eq!(held.value, *nearer, "{report}");
            assert!(!pair.candidates.is_empty());
            assert_ne!(pair.key, held.key);
        }
        // Every walk's words name both of its knobs.
        let text = report.to_string();
        assert!(text.contains(", with "), "{text}");
    }

    #[test]
    fn one_knob_changed_comes_before_two_whatever_their_steps() {
        let candidate = |value: u64, share: f64| Candidate {
            value: Value::from(value),
            share: crate::sim::questions::balance::Interval {
                estimate: share,
                ci95: [share - 0.01, share + 0.01],
            },
            games: 6,
            coverage: None,
            table: None,
        };
        let result = |with: Option<Setting>, steps: usize| KnobResult {
            key: "vp_to_win".to_string(),
            with,
            base_value: Some(Value::from(10)),
            candidates: vec![candidate(9, 0.40), candidate(8, 0.50)],
            crossing: None,
            change: Some(1),
            nearest: Some(1),
            steps: Some(steps),
        };
        let held = Setting {
            key: "caesar_first_levy_bonus".to_string(),
            value: Value::from(1),
        };
        let knobs = [result(Some(held), 1), result(None, 3)];
        assert_eq!(best_knob(&knobs, 0.5), Some(1));
    }

    #[test]
    fn shards_merge_to_the_run_one_machine_makes_and_go_on_from_it() {
        let game = crate::test_support::published("rules-2.0");
        let sharded = |shard: &str| FairOptions {
            shard: Some(shard.parse().unwrap()),
            ..options()
        };
        let play = |options: &FairOptions| {
            run(
                setup(&game, knobs(&game)),
                options,
                &Watch::new(),
                &mut |_| {},
            )
            .unwrap()
        };
        let parts: Vec<(String, FairReport)> = ["1/2", "2/2"]
            .iter()
            .map(|s| (s.to_string(), play(&sharded(s))))
            .collect();
        assert!(parts.iter().all(|(_, r)| r.stopped.contains("played")));
        let one = super::super::merge(vec![("1/1".to_string(), play(&sharded("1/1")))]).unwrap();
        let merged = super::super::merge(parts.clone()).unwrap();
        // The same tables and words but for how many shards they came in.
        let shards_aside = |r: &FairReport| {
            serde_json::to_string(&timeless(r.clone()))
                .unwrap()
                .replace("2 shards merged", "merged")
                .replace("1 shard merged", "merged")
        };
        assert_eq!(shards_aside(&merged), shards_aside(&one));
        assert!(merged.options.shard.is_none());
        // The driver goes on from the merged tables: the walk and the checks.
        let go_on = |report: FairReport| {
            let mut again = setup(&game, knobs(&game));
            again.earlier_games = report.games_played;
            again.progress = reload(report.progress, &game, &again.knobs).unwrap();
            run(again, &report.options, &Watch::new(), &mut |_| {}).unwrap()
        };
        let (from_merged, from_one) = (go_on(merged), go_on(one));
        assert!(!from_merged.paused, "{}", from_merged.stopped);
        assert!(!from_merged.knobs[0].candidates.is_empty());
        assert_eq!(shards_aside(&from_merged), shards_aside(&from_one));
        // Parts that do not make the whole are refused, in words.
        let missing = super::super::merge(parts[..1].to_vec()).unwrap_err();
        assert!(missing.to_string().contains("missing"), "{missing}");
        let twice = super::super::merge(vec![parts[0].clone(), parts[0].clone()]).unwrap_err();
        assert!(twice.to_string().contains("twice"), "{twice}");
        let whole = play(&options());
        let not_a_shard = super::super::merge(vec![("whole".to_string(), whole)]).unwrap_err();
        assert!(matches!(
            not_a_shard,
            super::super::FairMergeError::NotAShard(_)
        ));
    }

    #[test]
    fn the_next_value_is_where_a_line_through_the_ends_meets_the_target() {
        // 30.7% at 0 and 54.6% at 10: a straight line meets 50% at 8.1.
        assert_eq!(interpolated([0, 10], [0.307, 0.546], 0.5), 8);
        // Never an end itself, and the midpoint where the ends are level.
        assert_eq!(interpolated([0, 10], [0.1, 0.9], 0.1), 1);
        assert_eq!(interpolated([0, 10], [0.1, 0.9], 0.9), 9);
        assert_eq!(interpolated([2, 6], [0.4, 0.4], 0.5), 4);
        // Falling curves too.
        assert_eq!(interpolated([0, 4], [0.8, 0.4], 0.5), 3);
    }
}
