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
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::balance::session;
use crate::sim::balance::{self, BalanceOptions, BalanceReport, Coverage, Interval};
use crate::sim::report::PlayedOn;
use crate::sim::sweep::{self, Axis, PlanError};

mod crossing;
mod run;

pub use crossing::monotone_crossing;
pub use run::{reload, run};

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
    /// Cut short by the budget or a cancel: a resume goes on from here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
    /// The knobs as asked: a resume plans them again.
    #[serde(default)]
    pub axes: Vec<Axis>,
    /// Every table played, for a resume.
    #[serde(default)]
    pub progress: FairProgress,
}

/// Every table a run played, as far as it got: what a resume goes on from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FairProgress {
    /// The setup as it is: its balance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BalanceReport>,
    /// Each knob's walk, in the knobs' order.
    #[serde(default)]
    pub knobs: Vec<KnobProgress>,
    /// The balance at the change, with the check's rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<BalanceReport>,
}

/// One knob's walk so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KnobProgress {
    pub key: String,
    /// The visits made in full, in order: a resume replays them and plays
    /// on from the first it does not make the same.
    pub visits: Vec<Visit>,
    /// Each candidate's table as far as it was played (one per value).
    pub tables: Vec<Option<BalanceReport>>,
}

/// A candidate played to `games` a deciding pairing, and its value then.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Visit {
    pub point: usize,
    pub games: u64,
    pub value: f64,
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
    /// What an earlier pass played ([`reload`]ed), empty for a new run.
    pub progress: FairProgress,
    /// The earlier pass's games and seconds, counted on.
    pub earlier_games: u64,
    pub earlier_seconds: f64,
}

/// The bid of the side the setup's measured balance (its kept or
/// built-in one) puts below `target`; both sides' bids where none is
/// measured. What both shells offer when no knob is named.
pub fn default_axes(game: &Game, bundle: Option<&std::path::Path>, target: f64) -> Vec<Axis> {
    match balance::measured::measured(game, bundle) {
        Ok(Some(m)) if m.report.value.estimate < target => vec![bid_axis(Side::Caesar)],
        Ok(Some(_)) => vec![bid_axis(Side::Pompey)],
        _ => vec![bid_axis(Side::Caesar), bid_axis(Side::Pompey)],
    }
}

/// A run to go on with from `report` on `game` (the setup it was made
/// on): its knobs planned again from `doc`, its tables made ready.
pub fn resuming<'a>(
    report: FairReport,
    doc: &ResolvedScenario,
    game: &'a Game,
    variant: &'a str,
    players: session::Players,
    budget: Option<Duration>,
    players_dir: Option<std::path::PathBuf>,
) -> Result<(FairSetup<'a>, FairOptions), FairResumeError> {
    let here = PlayedOn::of(game);
    if here != report.played_on {
        return Err(FairResumeError(format!(
            "the report was made on {} under {} (digests {}, {}), not on this setup ({}, {})",
            report.played_on.scenario,
            report.variant,
            report.played_on.scenario_digest,
            report.played_on.variant_digest,
            here.scenario_digest,
            here.variant_digest
        )));
    }
    let knobs = plan_knobs(doc, game, &report.axes).map_err(|e| FairResumeError(e.to_string()))?;
    let progress =
        reload(report.progress, game, &knobs).map_err(|e| FairResumeError(e.to_string()))?;
    Ok((
        FairSetup {
            game,
            variant,
            knobs,
            players,
            budget,
            players_dir,
            progress,
            earlier_games: report.games_played,
            earlier_seconds: report.elapsed_seconds,
        },
        report.options,
    ))
}

/// Why a saved `fair` report cannot be gone on with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FairResumeError(pub String);

/// Reads a `fair` report from `path`: JSON with file:line:column where it
/// is not one, then its options and every table in it checked
/// ([`BalanceReport::check`]) before anything uses it.
pub fn read_report(path: &std::path::Path) -> Result<FairReport, FairResumeError> {
    let bytes = crate::files::read_bytes(path, session::REPORT_LIMIT).map_err(|e| {
        FairResumeError(format!(
            "cannot read the fair report {}: {e}",
            path.display()
        ))
    })?;
    let report: FairReport = serde_json::from_slice(&bytes).map_err(|e| {
        FairResumeError(format!(
            "{}:{}:{}: not a fair report (`fair --out`): {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    report
        .check()
        .map_err(|e| FairResumeError(format!("{}: {e}", path.display())))?;
    Ok(report)
}

impl FairReport {
    /// Every field a resume uses, checked against the others.
    pub fn check(&self) -> Result<(), String> {
        self.options.check().map_err(|e| format!("options: {e}"))?;
        let p = &self.progress;
        if p.knobs.len() > self.axes.len() {
            return Err(format!(
                "progress.knobs: {} walks for {} knobs",
                p.knobs.len(),
                self.axes.len()
            ));
        }
        let tables = p
            .base
            .iter()
            .chain(&p.check)
            .chain(p.knobs.iter().flat_map(|k| k.tables.iter().flatten()));
        for t in tables {
            t.check().map_err(|e| format!("progress: a table: {e}"))?;
        }
        for (k, knob) in p.knobs.iter().enumerate() {
            if self.axes[k].key != knob.key {
                return Err(format!(
                    "progress.knobs[{k}].key: {} where the knob is {}",
                    knob.key, self.axes[k].key
                ));
            }
            if knob.tables.len() > self.axes[k].values.len() {
                return Err(format!(
                    "progress.knobs[{k}].tables: more than the knob's {} values",
                    self.axes[k].values.len()
                ));
            }
            for v in &knob.visits {
                if v.point >= knob.tables.len() || !(0.0..=1.0).contains(&v.value) || v.games < 1 {
                    return Err(format!(
                        "progress.knobs[{k}].visits: {v:?} is no visit of this walk"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The file in a setup's players folder that holds its kept `fair`
/// report, beside its balance.
pub const BUNDLE_FAIR: &str = "fair.json";

/// The `fair` report kept for `game` in its players folder `bundle`, if
/// one is and was made on this very setup; why it does not hold otherwise.
pub fn kept_for(
    game: &Game,
    bundle: Option<&std::path::Path>,
) -> Result<Option<FairReport>, FairResumeError> {
    let Some(path) = bundle.map(|b| b.join(BUNDLE_FAIR)).filter(|p| p.is_file()) else {
        return Ok(None);
    };
    let report = read_report(&path)?;
    // Made on another setup (the scenario or rules edited since), it
    // answers nothing about this one.
    Ok((report.played_on == PlayedOn::of(game)).then_some(report))
}

/// How a written variant names the rule set it extends: a built-in by
/// name, a file by its path from the written file's folder where it can
/// be (`written` none: by its whole path).
pub fn variant_reference(variant: &str, written: Option<&std::path::Path>) -> String {
    use std::path::{Path, PathBuf};
    if crate::scenario::rules::is_bare_name(variant) {
        return variant.to_string();
    }
    let base = std::path::absolute(variant).unwrap_or_else(|_| PathBuf::from(variant));
    let folder = written
        .and_then(|w| std::path::absolute(w).ok())
        .and_then(|p| p.parent().map(Path::to_path_buf));
    match folder.and_then(|f| base.strip_prefix(&f).ok().map(Path::to_path_buf)) {
        Some(relative) => relative.display().to_string(),
        None => base.display().to_string(),
    }
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

/// A share and its interval in percent: "49.6% (47.2–51.9)".
pub fn percent(i: &Interval) -> String {
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

impl FairReport {
    /// Every change that reaches the target, best first (the answer's
    /// knob, then the fewest steps, then the nearest the target): (knob,
    /// candidate) indices.
    pub fn ranked_changes(&self) -> Vec<(usize, usize)> {
        let target = self.options.target;
        let mut ranked: Vec<(usize, usize)> = self
            .knobs
            .iter()
            .enumerate()
            .filter_map(|(k, r)| r.change.map(|c| (k, c)))
            .collect();
        let answer = self.answer.as_ref().map(|a| a.key.as_str());
        ranked.sort_by(|&(ka, ca), &(kb, cb)| {
            let key = |k: usize, c: usize| {
                let r = &self.knobs[k];
                (
                    Some(r.key.as_str()) != answer,
                    r.steps.unwrap_or(usize::MAX),
                    (r.candidates[c].share.estimate - target).abs(),
                )
            };
            let (a, b) = (key(ka, ca), key(kb, cb));
            a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2))
        });
        ranked
    }

    /// The Setup tab's "to make it even: …", where the run found a change.
    pub fn even_words(&self) -> Option<String> {
        let a = self.answer.as_ref()?;
        let mut first = change_words(&a.key, &a.value);
        if let Some(c) = first.get(..1) {
            first = c.to_lowercase() + &first[1..];
        }
        Some(format!(
            "to make it even: {first} (Caesar then wins {} at equilibrium)",
            percent(&a.share)
        ))
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
