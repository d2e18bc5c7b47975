//! What a `fair` run is asked and what it answers: its options, the knobs
//! planned, each candidate's value, the report and its words, and the
//! progress a resume goes on from.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::Game;
use crate::scenario::model::Side;
use crate::sim::questions::balance::session;
use crate::sim::questions::balance::{self, BalanceOptions, BalanceReport, Coverage, Interval};
use crate::sim::questions::sweep::{self, Axis, PlanError};
use crate::sim::runs::report::PlayedOn;

/// Mixed into the run's seed for the crossing's bootstrap.
pub(super) const CROSSING_TAG: u64 = 0x4641_4952_4352_4f53; // "FAIRCROS"

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
    /// Play only this part of every table's games (`fair --shard`): the
    /// base and every candidate of every knob at `balance.games` a cell,
    /// no walk, no training; `fair --merge` joins the parts and goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::sim::runs::cluster::Shard>,
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
            .map_err(|e| FairOptionsError::Balance(e.to_string()))?;
        if let Some(shard) = self.shard {
            // The tables' own options say the rest when they are made.
            self.grid_table(&self.balance)
                .check()
                .map_err(|e| FairOptionsError::Balance(format!("shard {shard}: {e}")))?;
        }
        Ok(())
    }

    /// A table's options in a shard: `table`'s at the deciding games from
    /// the first, only this part of them, nothing trained. As they are
    /// where the run is not sharded.
    pub(super) fn grid_table(&self, table: &BalanceOptions) -> BalanceOptions {
        match self.shard {
            Some(shard) => BalanceOptions {
                rounds: 0,
                oracles: Vec::new(),
                first_games: self.balance.games,
                games: self.balance.games,
                shard: Some(shard),
                ..table.clone()
            },
            None => table.clone(),
        }
    }
}

/// One knob's candidate values, planned: each value's game, checked.
pub struct PlannedKnob {
    pub axis: Axis,
    pub points: Vec<sweep::PlannedPoint>,
    /// The value the setup has now, where it is among the values.
    pub base: Option<usize>,
    /// Another knob held at one of its ends while this one moves: two
    /// knobs changed together, walked where neither reaches alone.
    pub with: Option<Setting>,
    /// The held knob's steps from the setup's own value (0 alone).
    pub held_steps: usize,
}

/// One knob at one value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setting {
    pub key: String,
    pub value: Value,
}

impl PlannedKnob {
    /// The walk's name in a report's progress: the knob's key, or
    /// `HELD=VALUE+KEY` for two knobs changed together.
    pub fn label(&self) -> String {
        label_of(self.with.as_ref(), &self.axis.key)
    }

    /// The knob's value at its candidate `i`.
    pub(super) fn value_at(&self, i: usize) -> &Value {
        self.points[i]
            .settings
            .get(&self.axis.key)
            .unwrap_or(&Value::Null)
    }
}

pub(super) fn label_of(with: Option<&Setting>, key: &str) -> String {
    match with {
        Some(w) => format!("{}={}+{key}", w.key, value_text(&w.value)),
        None => key.to_string(),
    }
}

pub(super) fn bid_field(side: Side) -> &'static str {
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
    pub(super) table: Option<balance::Table>,
}

impl Candidate {
    pub(super) fn within(&self, target: f64, tolerance: f64) -> bool {
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
    /// The knob held at one value while this one moved, if two changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<Setting>,
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
    /// The other knob changed with it, if two are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<Setting>,
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
    /// The knob and value of the answer, checked: of `checks`, the one
    /// within the tolerance, else the nearest the target.
    pub answer: Option<Checked>,
    /// Every check made, in order: where a check moves the value out of
    /// the tolerance, the next is one step along the knob toward the target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Checked>,
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
    /// The checks after it, in order: each one step along the knob from
    /// the one before, toward the target it moved away from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rechecks: Vec<BalanceReport>,
    /// Who judges every candidate, where the base's mix does not decide
    /// it: a sharded run's heuristic family, the same in every shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub population: Option<[Vec<balance::Member>; 2]>,
}

impl FairProgress {
    /// Every check made, in order.
    pub fn checks(&self) -> impl Iterator<Item = &BalanceReport> {
        self.check.iter().chain(&self.rechecks)
    }
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

impl FairReport {
    /// Every field a resume uses, checked against the others.
    pub fn check(&self) -> Result<(), String> {
        self.options.check().map_err(|e| format!("options: {e}"))?;
        let p = &self.progress;
        let tables = p
            .base
            .iter()
            .chain(p.checks())
            .chain(p.knobs.iter().flat_map(|k| k.tables.iter().flatten()));
        for t in tables {
            t.check().map_err(|e| format!("progress: a table: {e}"))?;
        }
        for (k, knob) in p.knobs.iter().enumerate() {
            // A knob's own walk, or (after them) two knobs' together:
            // `HELD=VALUE+KEY`, both among the knobs asked.
            let moved = match k.cmp(&self.axes.len()) {
                std::cmp::Ordering::Less if self.axes[k].key == knob.key => Some(&self.axes[k]),
                std::cmp::Ordering::Less => None,
                _ => knob.key.split_once('+').and_then(|(held, key)| {
                    let held = held.split_once('=')?.0;
                    (held != key && self.axes.iter().any(|a| a.key == held))
                        .then_some(())
                        .and_then(|_| self.axes.iter().find(|a| a.key == key))
                }),
            };
            let Some(axis) = moved else {
                return Err(format!(
                    "progress.knobs[{k}].key: {} is none of the knobs asked",
                    knob.key
                ));
            };
            if knob.tables.len() > axis.values.len() {
                return Err(format!(
                    "progress.knobs[{k}].tables: more than the knob's {} values",
                    axis.values.len()
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
            let points = if text == "1" { "point" } else { "points" };
            return format!("Give {name} {text} extra levy {points} at {his} first levy");
        }
    }
    format!("Set {key} to {text}")
}

/// Two changes made together in words: "Give Caesar 10 extra levy points
/// at his first levy and set vp_to_win to 9".
pub fn settings_words(settings: &[Setting]) -> String {
    let words: Vec<String> = settings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let w = change_words(&s.key, &s.value);
            if i == 0 { w } else { lower_first(&w) }
        })
        .collect();
    words.join(" and ")
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

impl KnobResult {
    /// The settings of candidate `c`: the held knob's, then this one's.
    pub fn settings_at(&self, c: usize) -> Vec<Setting> {
        self.with
            .iter()
            .cloned()
            .chain([Setting {
                key: self.key.clone(),
                value: self.candidates[c].value.clone(),
            }])
            .collect()
    }

    /// The walk's name, as its progress has it.
    pub fn label(&self) -> String {
        label_of(self.with.as_ref(), &self.key)
    }
}

impl Checked {
    /// The change checked: the held knob's setting, then this one's.
    pub fn settings(&self) -> Vec<Setting> {
        self.with
            .iter()
            .cloned()
            .chain([Setting {
                key: self.key.clone(),
                value: self.value.clone(),
            }])
            .collect()
    }
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
        let moved = |a: &Checked| {
            if a.responses == 0 {
                "no best response was trained against it".to_string()
            } else {
                format!(
                    "no new player trained against it moved it by more than {:.1} points",
                    a.best_gain * 100.0
                )
            }
        };
        let mut text = match &self.answer {
            Some(a) if self.answer_within() => format!(
                "{}: at equilibrium Caesar wins {}; {}.",
                settings_words(&a.settings()),
                percent(&a.share),
                moved(a)
            ),
            // The nearest point checked is no answer: said as what it is,
            // never in the words of a change to make.
            Some(a) => format!(
                "No change found brings Caesar to {target:.0}% ± {:.0} at equilibrium{}: the nearest the checks came is {}{}, where he wins {}; {}.",
                self.options.tolerance * 100.0,
                if a.responses > 0 {
                    ", even against players trained at the nearest point"
                } else {
                    ""
                },
                setting_list(&a.settings()),
                if self.is_setup_as_it_is(a) {
                    " (the setup as it is)"
                } else {
                    ""
                },
                percent(&a.share),
                moved(a)
            ),
            None => format!(
                "No change found brings Caesar to {target:.0}% ± {:.0} at equilibrium (he wins {} as the setup is).",
                self.options.tolerance * 100.0,
                percent(&self.base)
            ),
        };
        if self.checks.len() > 1 {
            let checks: Vec<String> = self
                .checks
                .iter()
                .map(|c| format!("{} gave {}", value_text(&c.value), percent(&c.share)))
                .collect();
            text.push_str(&format!(
                " Checked in turn, each a step toward the target from the one before: {}.",
                checks.join(", then ")
            ));
        }
        let answer_knob = self.answer_candidate().map(|(k, _)| k);
        let others: Vec<String> = self
            .knobs
            .iter()
            .enumerate()
            .filter(|&(k, _)| Some(k) != answer_knob)
            .map(|(_, k)| match (k.change, k.nearest) {
                (Some(c), _) => format!(
                    "{} ({})",
                    settings_words(&k.settings_at(c)),
                    percent(&k.candidates[c].share)
                ),
                (None, Some(n)) => format!(
                    "{} cannot reach {target:.0}%: its nearest point is {} at {}",
                    match &k.with {
                        Some(w) => format!("{} with {}={}", k.key, w.key, value_text(&w.value)),
                        None => k.key.clone(),
                    },
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

/// Settings as `key=value`, comma-separated: a point named, not advised.
pub(super) fn setting_list(settings: &[Setting]) -> String {
    settings
        .iter()
        .map(|s| format!("{}={}", s.key, value_text(&s.value)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FairReport {
    /// The checked point is the setup's own value of its knob (and of the
    /// knob held with it): no change at all.
    fn is_setup_as_it_is(&self, checked: &Checked) -> bool {
        checked.with.is_none()
            && self.knobs.iter().any(|k| {
                k.key == checked.key
                    && k.with.is_none()
                    && k.base_value.as_ref() == Some(&checked.value)
            })
    }

    /// The checked answer is within the target's tolerance.
    pub fn answer_within(&self) -> bool {
        self.answer.as_ref().is_some_and(|a| {
            (a.share.estimate - self.options.target).abs() <= self.options.tolerance + 1e-12
        })
    }

    /// The answer's candidate among its knob's: (knob, candidate) indices.
    pub fn answer_candidate(&self) -> Option<(usize, usize)> {
        let a = self.answer.as_ref()?;
        let k = self
            .knobs
            .iter()
            .position(|r| r.key == a.key && r.with == a.with)?;
        let c = self.knobs[k]
            .candidates
            .iter()
            .position(|c| c.value == a.value)?;
        Some((k, c))
    }

    /// The checked answer first (when it is within the tolerance), then
    /// every other change that reaches the target (the fewest steps, then the nearest the target): (knob,
    /// candidate) indices.
    pub fn ranked_changes(&self) -> Vec<(usize, usize)> {
        let target = self.options.target;
        let answer = self.answer_candidate().filter(|_| self.answer_within());
        let mut ranked: Vec<(usize, usize)> = self
            .knobs
            .iter()
            .enumerate()
            .filter_map(|(k, r)| r.change.map(|c| (k, c)))
            .filter(|&kc| Some(kc) != answer)
            .collect();
        ranked.sort_by(|&(ka, ca), &(kb, cb)| {
            let key = |k: usize, c: usize| {
                let r = &self.knobs[k];
                (
                    r.with.is_some(),
                    r.steps.unwrap_or(usize::MAX),
                    (r.candidates[c].share.estimate - target).abs(),
                )
            };
            let (a, b) = (key(ka, ca), key(kb, cb));
            a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2))
        });
        answer.into_iter().chain(ranked).collect()
    }

    /// The Setup tab's "to make it even: …", where the run found a change.
    pub fn even_words(&self) -> Option<String> {
        let a = self.answer.as_ref()?;
        let first = lower_first(&settings_words(&a.settings()));
        Some(format!(
            "{}: {first} (Caesar then wins {} at equilibrium)",
            if self.answer_within() {
                "to make it even"
            } else {
                "nearest to even"
            },
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
                "{}{} (the setup's own: {}):",
                k.key,
                k.with.as_ref().map_or(String::new(), |w| format!(
                    ", with {}={}",
                    w.key,
                    value_text(&w.value)
                )),
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
        if !self.checks.is_empty() {
            writeln!(f)?;
        }
        for c in &self.checks {
            writeln!(
                f,
                "Checked at {}: {}; {} best responses, {} joined; {}",
                setting_list(&c.settings()),
                percent(&c.share),
                c.responses,
                c.joined,
                c.stopped
            )?;
        }
        writeln!(f, "Stopped: {}", self.stopped)
    }
}
