//! Balance curves: Caesar's win rate over a grid of rule parameters and
//! scenario tweaks.
//!
//! Each `--set KEY=VALUES` is an axis; every combination of one value per
//! axis is a point (the first axis varies slowest), and every point is a
//! whole run with the same [`SimOptions`], so game `i` has the same seed at
//! every point (common random numbers: the curve's steps are sharper than
//! independent runs would give). A key is a rule-set field (`vp_to_win`,
//! `caesar_player1_first_turn`, `main_attack`, or a part of a compound one,
//! `road_limits.major`), a block's starting strength
//! (`strength:caesar:Legio 13`) or a block's city in the deployment
//! (`deploy:pompey:Legio 3`). Every point's rule set and scenario go through
//! the validator, whose errors refuse the sweep.
//!
//! Shards split the games of every point alike (as the ladder does), and
//! [`SweepReport::merge_labelled`] merges each point with the checks of
//! [`SimReport::merge_labelled`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::engine::Game;
use crate::scenario::checked::{CheckedScenario, NotPlayable};
use crate::scenario::format::{DeploymentDoc, ResolvedScenario};
use crate::scenario::model::Side;
use crate::scenario::rule_fields::{FieldError, FieldPath, settable_paths};
use crate::scenario::rules::RuleSet;
use crate::sim::runs::merge::MergeError;
use crate::sim::runs::options::{GameRange, SimOptions};
use crate::sim::runs::report::SimReport;
use crate::sim::runs::report::{Merge, first_of_one_run, merge_picked, shards_note};
use crate::sim::runs::stats::Estimate;
use crate::sim::{Cancelled, Progress};

/// At most this many points in one sweep: beyond it a typo in a range
/// (`1..1000`) would start days of games.
pub(crate) const MAX_POINTS: usize = 1000;

/// One `--set KEY=VALUES`, as written: the values not yet checked against
/// the rule set (see [`plan`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    pub key: String,
    pub values: Vec<String>,
}

/// Why an axis (`--set KEY=VALUES`) cannot be read or swept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AxisError {
    #[error(
        "\"{text}\" is not a setting: expected FIELD=VALUES, as in vp_to_win=8..12 or hand_size=5,6,7"
    )]
    NotASetting { text: String },
    #[error("\"{text}\": no field name before =")]
    NoField { text: String },
    #[error("{key}: \"{text}\" is not a range: expected whole numbers A..B, as in 8..12")]
    NotARange { key: String, text: String },
    #[error("{key}: the range {from}..{to} is empty: write the smaller end first")]
    EmptyRange { key: String, from: i64, to: i64 },
    #[error("{key}: the range {from}..{to} has more than {MAX_POINTS} values")]
    LongRange { key: String, from: i64, to: i64 },
    #[error(
        "{key}: \"{text}\" has an empty value: list values with commas (5,6,7) or give a range (8..12)"
    )]
    EmptyValue { key: String, text: String },
    #[error("{key}: {value} is listed twice")]
    ListedTwice { key: String, value: String },
    #[error("\"{key}\": expected {prefix}SIDE:BLOCK, as in {prefix}caesar:Legio 13")]
    NoBlock { key: String, prefix: &'static str },
    #[error("{0}")]
    Side(#[from] crate::scenario::kinds::NotASide),
    /// `did_you_mean` is empty or "; did you mean …?".
    #[error(
        "unknown field \"{key}\"{did_you_mean}; a sweep sets a rule-set field (variants list them), strength:SIDE:BLOCK or deploy:SIDE:BLOCK"
    )]
    UnknownField { key: String, did_you_mean: String },
    #[error("{key} is not a number, a choice or a switch, so it cannot be swept")]
    NotSweepable { key: String },
    #[error("{key}: {error}")]
    Field { key: String, error: FieldError },
    #[error("{key}: \"{text}\" is not {expected}")]
    BadValue {
        key: String,
        text: String,
        expected: String,
    },
    #[error("{key}: \"{text}\" is not a strength (a whole number, as printed)")]
    NotAStrength { key: String, text: String },
    #[error("{key}: {side}'s {block} is not in the deployment{did_you_mean}")]
    NotDeployed {
        key: String,
        side: Side,
        block: String,
        did_you_mean: String,
    },
    #[error("a sweep needs at least one field to vary (FIELD=VALUES)")]
    NoAxes,
    #[error("{key} is given twice: give all its values at once")]
    SetTwice { key: String },
    #[error(
        "{key}: \"{first}\" and \"{second}\" are the same value ({value}): a point would be played twice"
    )]
    SameValue {
        key: String,
        first: String,
        second: String,
        value: Value,
    },
    #[error("the sweep has more than {MAX_POINTS} points")]
    TooManyPoints,
}

impl FromStr for Axis {
    type Err = AxisError;

    /// `KEY=V1,V2,...` or `KEY=A..B` (whole numbers, both ends included).
    fn from_str(text: &str) -> Result<Axis, AxisError> {
        let (key, values) = text.split_once('=').ok_or_else(|| AxisError::NotASetting {
            text: text.to_string(),
        })?;
        let key = key.trim();
        if key.is_empty() {
            return Err(AxisError::NoField {
                text: text.to_string(),
            });
        }
        let values = parse_values(key, values.trim())?;
        Ok(Axis {
            key: key.to_string(),
            values,
        })
    }
}

fn parse_values(key: &str, text: &str) -> Result<Vec<String>, AxisError> {
    let key = key.to_string();
    if let Some((a, b)) = text.split_once("..") {
        let b = b.strip_prefix('=').unwrap_or(b);
        let (from, to) = match (a.trim().parse::<i64>(), b.trim().parse::<i64>()) {
            (Ok(a), Ok(b)) => (a, b),
            _ => {
                let text = text.to_string();
                return Err(AxisError::NotARange { key, text });
            }
        };
        if to < from {
            return Err(AxisError::EmptyRange { key, from, to });
        }
        if (to - from) as u64 >= MAX_POINTS as u64 {
            return Err(AxisError::LongRange { key, from, to });
        }
        return Ok((from..=to).map(|v| v.to_string()).collect());
    }
    let values: Vec<String> = text.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        let text = text.to_string();
        return Err(AxisError::EmptyValue { key, text });
    }
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            let value = v.clone();
            return Err(AxisError::ListedTwice { key, value });
        }
    }
    Ok(values)
}

/// What an axis changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Knob {
    /// A rule-set field, or a part of a compound one.
    Rule(FieldPath),
    /// A deployed block's starting strength.
    Strength { side: Side, block: String },
    /// The city a block is deployed in.
    Deploy { side: Side, block: String },
}

/// The rule-set fields a sweep may set, in the rule table's order: every
/// switch, choice and number (and each part of the road limits, as
/// `road_limits.major`), with their current values.
pub fn settable_fields(rules: &RuleSet) -> Vec<(FieldPath, Value)> {
    settable_paths()
        .iter()
        .filter_map(|p| FieldPath::parse(p).ok())
        .map(|path| (path, path.get(rules)))
        .collect()
}

/// What the key `strength:caesar:Legio 13`, `deploy:pompey:Legio 3` or a
/// rule-set field's name changes (an unknown key named with its nearest).
pub(crate) fn knob(key: &str) -> Result<Knob, AxisError> {
    for (prefix, strength) in [("strength:", true), ("deploy:", false)] {
        if let Some(rest) = key.strip_prefix(prefix) {
            let (side, block) = rest.split_once(':').ok_or_else(|| AxisError::NoBlock {
                key: key.to_string(),
                prefix,
            })?;
            let (side, block) = (side.parse::<Side>()?, block.trim().to_string());
            return Ok(if strength {
                Knob::Strength { side, block }
            } else {
                Knob::Deploy { side, block }
            });
        }
    }
    let key_owned = || key.to_string();
    FieldPath::parse(key).map(Knob::Rule).map_err(|e| match e {
        FieldError::Unknown { .. } => {
            let paths = settable_paths();
            let names = paths
                .iter()
                .map(String::as_str)
                .chain(["strength:caesar:BLOCK", "deploy:caesar:BLOCK"]);
            AxisError::UnknownField {
                key: key_owned(),
                did_you_mean: crate::scenario::names::did_you_mean(key, names),
            }
        }
        FieldError::NotOneValue { .. } => AxisError::NotSweepable { key: key_owned() },
        error => AxisError::Field {
            key: key_owned(),
            error,
        },
    })
}

/// The value as JSON of the type the knob takes: a rule-set field's value
/// as the rule table reads it, a strength, a city name.
fn typed(key: &str, knob: &Knob, doc: &ResolvedScenario, text: &str) -> Result<Value, AxisError> {
    let (key, text_owned) = (key.to_string(), text.to_string());
    match knob {
        Knob::Rule(path) => path.value_of(text).map_err(|e| match e {
            FieldError::BadValue { expected, .. } => AxisError::BadValue {
                key,
                text: text_owned,
                expected: expected.to_string(),
            },
            error => AxisError::Field { key, error },
        }),
        Knob::Strength { .. } => {
            text.parse::<u64>()
                .map(Value::from)
                .map_err(|_| AxisError::NotAStrength {
                    key,
                    text: text_owned,
                })
        }
        // A city as the map spells it (names match as everywhere else,
        // ignoring case and spacing, aliases included); an unknown one is
        // left for the validator to name with its nearest.
        Knob::Deploy { .. } => {
            let wanted = crate::scenario::names::normalise(text);
            let space = doc.map.spaces.iter().find(|s| {
                std::iter::once(&s.name)
                    .chain(&s.aliases)
                    .any(|n| crate::scenario::names::normalise(n) == wanted)
            });
            Ok(Value::String(space.map_or(text, |s| &s.name).to_string()))
        }
    }
}

/// The deployment a game starts from (the free one when the scenario has one).
fn active_deployment(doc: &mut ResolvedScenario) -> &mut DeploymentDoc {
    match doc.free_deployment.as_mut() {
        Some(free) => free,
        None => &mut doc.order_of_battle,
    }
}

fn set_strength(doc: &mut ResolvedScenario, side: Side, block: &str, strength: u8) {
    let s = &mut active_deployment(doc).strengths;
    let list = match side {
        Side::Caesar => &mut s.caesar,
        Side::Pompey => &mut s.pompey,
    };
    match list.iter_mut().find(|(b, _)| b == block) {
        Some(entry) => entry.1 = strength,
        None => list.push((block.to_string(), strength)),
    }
}

fn move_block(
    key: &str,
    doc: &mut ResolvedScenario,
    side: Side,
    block: &str,
    city: &str,
) -> Result<(), AxisError> {
    let d = active_deployment(doc);
    let list = match side {
        Side::Caesar => &mut d.caesar,
        Side::Pompey => &mut d.pompey,
    };
    let found = list
        .iter()
        .position(|(_, blocks)| blocks.iter().any(|b| b == block));
    let Some(from) = found else {
        let deployed: Vec<&str> = list
            .iter()
            .flat_map(|(_, b)| b.iter().map(String::as_str))
            .collect();
        return Err(AxisError::NotDeployed {
            key: key.to_string(),
            side,
            block: block.to_string(),
            did_you_mean: crate::scenario::names::did_you_mean(block, deployed),
        });
    };
    list[from].1.retain(|b| b != block);
    if list[from].1.is_empty() {
        list.remove(from);
    }
    match list.iter_mut().find(|(c, _)| c == city) {
        Some((_, blocks)) => blocks.push(block.to_string()),
        None => list.push((city.to_string(), vec![block.to_string()])),
    }
    Ok(())
}

/// One point of a sweep, ready to play.
pub struct PlannedPoint {
    /// KEY → value, one per axis.
    pub settings: Map<String, Value>,
    pub rules: RuleSet,
    pub game: Game,
    /// The run's name: the rule set's and the settings.
    pub name: String,
}

fn settings_text(settings: &Map<String, Value>) -> String {
    settings
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `rules` with the rule-set settings of a point applied (the scenario
/// tweaks ignored): what "use these settings" makes the current rule set.
pub fn apply_rule_settings(
    rules: &RuleSet,
    settings: &Map<String, Value>,
) -> Result<RuleSet, AxisError> {
    let mut out = rules.clone();
    for (key, value) in settings {
        if let Knob::Rule(path) = knob(key)? {
            out = path.set(&out, value).map_err(|error| AxisError::Field {
                key: key.clone(),
                error,
            })?;
        }
    }
    Ok(out)
}

/// What setting one knob to one value changes, for a shell to carry out
/// as its own edit (the window's undoable ones).
#[derive(Debug, Clone, PartialEq)]
pub enum SettingChange {
    /// The rule set with the field set.
    Rules(RuleSet),
    /// A deployed block's starting strength.
    Strength {
        side: Side,
        block: String,
        strength: u8,
    },
    /// The city a block is deployed in.
    Deploy {
        side: Side,
        block: String,
        city: String,
    },
}

/// `key` set to `value` (as a sweep or `fair` typed it) on `rules`.
pub fn setting_change(
    rules: &RuleSet,
    key: &str,
    value: &Value,
) -> Result<SettingChange, AxisError> {
    Ok(match knob(key)? {
        Knob::Rule(path) => {
            SettingChange::Rules(path.set(rules, value).map_err(|error| AxisError::Field {
                key: key.to_string(),
                error,
            })?)
        }
        Knob::Strength { side, block } => SettingChange::Strength {
            side,
            block,
            strength: value
                .as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| AxisError::NotAStrength {
                    key: key.to_string(),
                    text: value.to_string(),
                })?,
        },
        Knob::Deploy { side, block } => SettingChange::Deploy {
            side,
            block,
            city: value.as_str().unwrap_or_default().to_string(),
        },
    })
}

/// Why a sweep cannot be planned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The axes cannot be read, or make no sweep (unknown field, a value of
    /// the wrong type, a key or a value given twice, too many points).
    #[error("{0}")]
    Axes(#[from] AxisError),
    /// A point whose rule set or scenario the validator (or the engine)
    /// refuses, with the findings.
    #[error("at {settings}: the validator refuses this point:\n{}", findings.join("\n"))]
    Refused {
        settings: String,
        findings: Vec<String>,
    },
}

/// Each axis's key, what it changes and its values typed, checked: at
/// least one axis, no key twice, no value twice under two spellings.
fn knobs_of(
    doc: &ResolvedScenario,
    axes: &[Axis],
) -> Result<Vec<(String, Knob, Vec<Value>)>, AxisError> {
    if axes.is_empty() {
        return Err(AxisError::NoAxes);
    }
    let mut knobs = Vec::new();
    for (i, axis) in axes.iter().enumerate() {
        if axes[..i].iter().any(|a| a.key == axis.key) {
            let key = axis.key.clone();
            return Err(AxisError::SetTwice { key });
        }
        let k = knob(&axis.key)?;
        let values = axis
            .values
            .iter()
            .map(|v| typed(&axis.key, &k, doc, v))
            .collect::<Result<Vec<Value>, AxisError>>()?;
        // Two spellings of one value would play one point twice.
        for (j, value) in values.iter().enumerate() {
            if let Some(k) = values[..j].iter().position(|v| v == value) {
                return Err(AxisError::SameValue {
                    key: axis.key.clone(),
                    first: axis.values[k].clone(),
                    second: axis.values[j].clone(),
                    value: value.clone(),
                });
            }
        }
        knobs.push((axis.key.clone(), k, values));
    }
    Ok(knobs)
}

/// Every point of the grid the axes span (first axis slowest), each with
/// its rule set and scenario checked by the validator. Refuses unknown
/// keys (naming the nearest), values of the wrong type, a key given twice,
/// more than [`MAX_POINTS`] points, and any point the validator finds an
/// error in (with the validator's message).
pub fn plan(
    doc: &ResolvedScenario,
    rules: &RuleSet,
    axes: &[Axis],
) -> Result<Vec<PlannedPoint>, PlanError> {
    let knobs = knobs_of(doc, axes)?;
    let total = knobs
        .iter()
        .try_fold(1usize, |n, (_, _, v)| n.checked_mul(v.len()))
        .filter(|&n| n <= MAX_POINTS)
        .ok_or(AxisError::TooManyPoints)?;
    let mut points = Vec::with_capacity(total);
    for index in 0..total {
        // Mixed radix, the last axis fastest.
        let mut rest = index;
        let mut choice = vec![0; knobs.len()];
        for (slot, (_, _, values)) in choice.iter_mut().zip(&knobs).rev() {
            *slot = rest % values.len();
            rest /= values.len();
        }
        let mut doc = doc.clone();
        let mut point_rules = rules.clone();
        let mut settings = Map::new();
        for ((key, k, values), &c) in knobs.iter().zip(&choice) {
            let value = &values[c];
            settings.insert(key.clone(), value.clone());
            match k {
                Knob::Rule(path) => {
                    point_rules =
                        path.set(&point_rules, value)
                            .map_err(|error| AxisError::Field {
                                key: key.clone(),
                                error,
                            })?
                }
                Knob::Strength { side, block } => {
                    let n = value
                        .as_u64()
                        .and_then(|n| u8::try_from(n).ok())
                        .ok_or_else(|| AxisError::NotAStrength {
                            key: key.clone(),
                            text: value.to_string(),
                        })?;
                    set_strength(&mut doc, *side, block, n);
                }
                Knob::Deploy { side, block } => {
                    move_block(
                        key,
                        &mut doc,
                        *side,
                        block,
                        value.as_str().unwrap_or_default(),
                    )?;
                }
            }
        }
        let name = format!("{} [{}]", rules.name, settings_text(&settings));
        let game = CheckedScenario::from_document(&doc, point_rules.clone(), None)
            .map(Game::from_checked)
            .map_err(|refused| {
                // The point's changes are in no file: its findings have no place to point at.
                let findings = match refused {
                    NotPlayable::Invalid(findings) => findings
                        .iter()
                        .map(|f| format!("{}[{}]: {}", f.severity, f.code, f.message))
                        .collect(),
                    unplayable => unplayable.messages(),
                };
                PlanError::Refused {
                    settings: settings_text(&settings),
                    findings,
                }
            })?;
        points.push(PlannedPoint {
            settings,
            rules: point_rules,
            game,
            name,
        });
    }
    Ok(points)
}

/// One point's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub settings: Map<String, Value>,
    pub caesar_win_rate: Estimate,
    pub pompey_win_rate: Estimate,
    pub draw_rate: Estimate,
    /// |P(Caesar) − P(Pompey)|.
    pub balance: f64,
    pub run: SimReport,
}

/// The point nearest an even game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalancePoint {
    /// Index into `points`.
    pub point: usize,
    pub settings: Map<String, Value>,
    pub caesar_win_rate: Estimate,
    pub pompey_win_rate: Estimate,
    /// |P(Caesar) − P(Pompey)| there.
    pub balance: f64,
    /// Whether an even game (Caesar winning as often as Pompey: half the
    /// games not drawn) lies inside Caesar's 95% interval there.
    pub even_within_interval: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AxisValues {
    pub key: String,
    pub values: Vec<Value>,
}

/// The report of a sweep (or of merged shards of one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    /// Always "sweep": how `merge` tells this report from the others.
    pub kind: String,
    /// The rule set every point starts from.
    pub variant: String,
    pub axes: Vec<AxisValues>,
    pub caesar_ai: String,
    pub pompey_ai: String,
    pub omniscient: bool,
    pub seed: u64,
    pub games_per_point: u64,
    pub shards: Vec<String>,
    /// The games of every point this report holds.
    pub game_ranges: Vec<GameRange>,
    /// One per combination of values, the first axis slowest.
    pub points: Vec<SweepPoint>,
    pub balance_point: Option<BalancePoint>,
    /// Wall-clock seconds, summed over points and merged shards.
    pub elapsed_seconds: f64,
}

/// The point with the smallest |P(Caesar) − P(Pompey)| (the first of
/// equals), or none without points.
pub fn balance_point(points: &[SweepPoint]) -> Option<BalancePoint> {
    let (i, p) = points
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| a.balance.total_cmp(&b.balance))?;
    let even = (1.0 - p.draw_rate.estimate) / 2.0;
    let ci = p.caesar_win_rate.ci95;
    Some(BalancePoint {
        point: i,
        settings: p.settings.clone(),
        caesar_win_rate: p.caesar_win_rate,
        pompey_win_rate: p.pompey_win_rate,
        balance: p.balance,
        even_within_interval: ci[0] <= even && even <= ci[1],
    })
}

fn point_of(settings: Map<String, Value>, run: SimReport) -> SweepPoint {
    SweepPoint {
        settings,
        caesar_win_rate: run.caesar_win_rate,
        pompey_win_rate: run.pompey_win_rate,
        draw_rate: run.draw_rate,
        balance: run.balance,
        run,
    }
}

/// Plays every point over the same seeds on the current rayon pool;
/// `progress` counts the games of every point.
pub fn sweep(
    points: &[PlannedPoint],
    variant: &str,
    axes: &[Axis],
    options: &SimOptions,
    progress: &Progress,
) -> Result<SweepReport, Cancelled> {
    let mut out = Vec::with_capacity(points.len());
    for p in points {
        let run = crate::sim::simulate(&p.game, &p.name, options, progress, |_| {})?;
        out.push(point_of(p.settings.clone(), run));
    }
    let axes = axis_values(points, axes);
    Ok(SweepReport::from_parts(
        variant,
        axes,
        options,
        vec![options.shard.map_or("1/1".to_string(), |s| s.to_string())],
        out,
    ))
}

fn axis_values(points: &[PlannedPoint], axes: &[Axis]) -> Vec<AxisValues> {
    axes.iter()
        .map(|a| {
            let mut values: Vec<Value> = Vec::new();
            for p in points {
                if let Some(v) = p.settings.get(&a.key)
                    && !values.contains(v)
                {
                    values.push(v.clone());
                }
            }
            AxisValues {
                key: a.key.clone(),
                values,
            }
        })
        .collect()
}

impl SweepReport {
    fn from_parts(
        variant: &str,
        axes: Vec<AxisValues>,
        options: &SimOptions,
        shards: Vec<String>,
        points: Vec<SweepPoint>,
    ) -> SweepReport {
        let settings = SweepReport {
            kind: "sweep".to_string(),
            variant: variant.to_string(),
            axes,
            caesar_ai: options.caesar.to_string(),
            pompey_ai: options.pompey.to_string(),
            omniscient: options.omniscient,
            seed: options.seed,
            games_per_point: options.games,
            shards: Vec::new(),
            game_ranges: Vec::new(),
            points: Vec::new(),
            balance_point: None,
            elapsed_seconds: 0.0,
        };
        settings.with_points(shards, points)
    }

    /// This sweep's settings with `points`, played on `shards`: the games
    /// held, the balance point and the time are the points'.
    fn with_points(self, shards: Vec<String>, points: Vec<SweepPoint>) -> SweepReport {
        SweepReport {
            shards,
            game_ranges: points
                .first()
                .map(|p| p.run.game_ranges.clone())
                .unwrap_or_default(),
            balance_point: balance_point(&points),
            elapsed_seconds: points.iter().map(|p| p.run.elapsed_seconds).sum(),
            points,
            ..self
        }
    }

    /// The settings of point `index` as the axes' grid says (first axis slowest).
    fn expected_settings(&self, index: usize) -> Map<String, Value> {
        let mut rest = index;
        let mut out = Vec::new();
        for a in self.axes.iter().rev() {
            let n = a.values.len().max(1);
            out.push((
                a.key.clone(),
                a.values.get(rest % n).cloned().unwrap_or(Value::Null),
            ));
            rest /= n;
        }
        out.into_iter().collect()
    }

    /// Checks a sweep as read from a file: one point per combination of the
    /// axes' values, in order; every run checks out ([`SimReport::check`]),
    /// is played as the sweep says (players, seed, games) and holds the
    /// sweep's games.
    pub fn check(&self) -> Result<(), MergeError> {
        if self.kind != "sweep" {
            return Err(MergeError::Damaged(format!(
                "kind is \"{}\", not \"sweep\"",
                self.kind
            )));
        }
        let grid = self
            .axes
            .iter()
            .try_fold(1usize, |n, a| n.checked_mul(a.values.len()));
        if self.axes.is_empty() || grid != Some(self.points.len()) {
            return Err(MergeError::Damaged(format!(
                "{} points, but the axes' values make {}",
                self.points.len(),
                grid.map_or("too many".to_string(), |g| g.to_string())
            )));
        }
        for (i, p) in self.points.iter().enumerate() {
            let what = format!("point {} ({})", i + 1, settings_text(&p.settings));
            if p.settings != self.expected_settings(i) {
                return Err(MergeError::Damaged(format!(
                    "{what} is out of place: the axes put {} there",
                    settings_text(&self.expected_settings(i))
                )));
            }
            let r = &p.run;
            r.check().map_err(|e| e.in_report(&what))?;
            let fits = r.caesar_ai == self.caesar_ai
                && r.pompey_ai == self.pompey_ai
                && r.seed == self.seed
                && r.run_games == self.games_per_point
                && r.omniscient == self.omniscient;
            if !fits {
                return Err(MergeError::Damaged(format!(
                    "{what} is not played as the sweep says ({} vs {}, seed {}, {} games)",
                    self.caesar_ai, self.pompey_ai, self.seed, self.games_per_point
                )));
            }
            if r.ranges().map_err(|e| e.in_report(&what))? != self.game_ranges {
                return Err(MergeError::Damaged(format!(
                    "{what} holds other games than the sweep's game_ranges"
                )));
            }
            if r.caesar_win_rate != p.caesar_win_rate || r.draw_rate != p.draw_rate {
                return Err(MergeError::Damaged(format!(
                    "{what}: its win rates are not its run's"
                )));
            }
        }
        Ok(())
    }
}

impl Merge for SweepReport {
    /// Combines shard reports of one sweep, each labelled (its file name):
    /// every report is checked, they must be the same sweep, and every point
    /// merges with the checks of [`SimReport::merge_labelled`] (no game
    /// counted twice). The result may still miss games.
    fn merge_labelled(reports: &[(&str, &SweepReport)]) -> Result<SweepReport, MergeError> {
        let (_, first) =
            first_of_one_run("sweeps", reports, SweepReport::check, SweepReport::identity)?;
        let mut points = Vec::new();
        for (i, p) in first.points.iter().enumerate() {
            let run = merge_picked(reports, |r| &r.points[i].run).map_err(|e| {
                e.in_report(format!("point {} ({})", i + 1, settings_text(&p.settings)))
            })?;
            points.push(point_of(p.settings.clone(), run));
        }
        let shards = points[0].run.shards.clone();
        // `first` is checked: its kind is "sweep".
        Ok(SweepReport::clone(first).with_points(shards, points))
    }
}

impl SweepReport {
    /// The sweep's own settings; each point's run names what it played on
    /// (digests, player files) and is compared when the points merge.
    fn identity(&self) -> crate::sim::runs::report::Identity {
        let axes: Vec<String> = self
            .axes
            .iter()
            .map(|a| {
                let v: Vec<String> = a.values.iter().map(|v| v.to_string()).collect();
                format!("{}={}", a.key, v.join(","))
            })
            .collect();
        [
            ("variant", self.variant.clone()),
            ("axes", axes.join(" × ")),
            ("caesar_ai", self.caesar_ai.clone()),
            ("pompey_ai", self.pompey_ai.clone()),
            ("omniscient", self.omniscient.to_string()),
            ("seed", self.seed.to_string()),
            ("games_per_point", self.games_per_point.to_string()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect()
    }

    /// Games of every point this report holds.
    pub fn games(&self) -> u64 {
        self.game_ranges.iter().map(|r| r.len()).sum()
    }

    /// The games of every point this report does not hold.
    pub fn missing_games(&self) -> Vec<GameRange> {
        self.points
            .first()
            .map(|p| p.run.missing_games())
            .unwrap_or_default()
    }

    /// A point's settings in words: `vp_to_win=8, hand_size=6`.
    pub fn settings_text(settings: &Map<String, Value>) -> String {
        settings_text(settings)
    }
}

impl fmt::Display for SweepReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games = self.games();
        writeln!(
            f,
            "Sweep — {} — Caesar: {}, Pompey: {}{} — {} games per point, seed {} (the same seeds at every point){}",
            self.variant,
            self.caesar_ai,
            self.pompey_ai,
            if self.omniscient { " (omniscient)" } else { "" },
            games,
            self.seed,
            shards_note(
                games == self.games_per_point,
                &self.shards,
                format_args!("{}-game points", self.games_per_point)
            )
        )?;
        let width = self
            .points
            .iter()
            .map(|p| settings_text(&p.settings).chars().count())
            .max()
            .unwrap_or(8)
            .max(8);
        writeln!(
            f,
            "  {:<width$}  {:<22}  {:<22}  |C−P|",
            "settings", "Caesar wins (95% CI)", "Pompey wins (95% CI)"
        )?;
        for (i, p) in self.points.iter().enumerate() {
            let mark = if self.balance_point.as_ref().is_some_and(|b| b.point == i) {
                "  ← balance point"
            } else {
                ""
            };
            writeln!(
                f,
                "  {:<width$}  {:<22}  {:<22}  {:.3}{mark}",
                settings_text(&p.settings),
                p.caesar_win_rate.percent_text(5),
                p.pompey_win_rate.percent_text(5),
                p.balance
            )?;
        }
        match &self.balance_point {
            Some(b) => write!(
                f,
                "Balance point (nearest an even game): {}: Caesar wins {}, Pompey {}; an even game is {} Caesar's interval",
                settings_text(&b.settings),
                b.caesar_win_rate.percent_text(1),
                b.pompey_win_rate.percent_text(1),
                if b.even_within_interval {
                    "inside"
                } else {
                    "outside"
                }
            ),
            None => write!(f, "No points."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::AiSpec;

    fn doc() -> ResolvedScenario {
        crate::scenario::load_scenario(None).unwrap()
    }

    #[test]
    fn settings_parse_as_lists_and_ranges() {
        let a: Axis = "vp_to_win=8..12".parse().unwrap();
        assert_eq!(a.key, "vp_to_win");
        assert_eq!(a.values, ["8", "9", "10", "11", "12"]);
        let b: Axis = "hand_size = 5, 6,7".parse().unwrap();
        assert_eq!(b.values, ["5", "6", "7"]);
        let c: Axis = "deploy:pompey:Legio 3=Brundisium,Roma".parse().unwrap();
        assert_eq!(c.key, "deploy:pompey:Legio 3");
        assert_eq!(c.values, ["Brundisium", "Roma"]);
        assert_eq!("x=3..=4".parse::<Axis>().unwrap().values, ["3", "4"]);
        for bad in [
            "vp_to_win",
            "=3",
            "vp_to_win=12..8",
            "vp_to_win=a..b",
            "hand_size=5,,6",
            "hand_size=5,5",
        ] {
            assert!(bad.parse::<Axis>().is_err(), "{bad}");
        }
        assert!(matches!(
            "years=0..5000".parse::<Axis>(),
            Err(AxisError::LongRange {
                from: 0,
                to: 5000,
                ..
            })
        ));
    }

    #[test]
    fn unknown_fields_suggest_the_nearest_and_bad_values_are_refused() {
        let rules = RuleSet::builtin("rules-2.0");
        let plan_of = |s: &str| {
            plan(&doc(), &rules, &[s.parse().unwrap()])
                .map(|p| p.len())
                .map_err(|e| e.to_string())
        };
        let err = plan_of("vp_to_wim=8,9").unwrap_err();
        assert!(err.contains("did you mean \"vp_to_win\""), "{err}");
        let err = plan_of("caesar_player1_first_turn=yes").unwrap_err();
        assert!(err.contains("true or false"), "{err}");
        let err = plan_of("road_limits=3").unwrap_err();
        assert!(err.contains("road_limits.major"), "{err}");
        let err = plan_of("vp_to_win=300").unwrap_err();
        assert!(err.contains("0 to 50"), "{err}");
        // The validator's own error for a rule set the engine cannot play.
        let err = plan_of("battle_rounds=1,4").unwrap_err();
        assert!(err.contains("too-few-battle-rounds"), "{err}");
        assert!(err.contains("battle_rounds=1"), "{err}");
        let err = plan_of("deploy:pompey:Legio 33=Roma").unwrap_err();
        assert!(err.contains("did you mean \"Legio 3"), "{err}");
        assert_eq!(plan_of("road_limits.major=3,4"), Ok(2));
        assert_eq!(plan_of("main_attack=AttackerChooses,FirstRoadUsed"), Ok(2));
    }

    /// The rule set rules-2.0, and the points of the axes written as
    /// `--set` gives them on the published game under it.
    fn plan_axes(axes: &[&str]) -> (RuleSet, Vec<PlannedPoint>) {
        let rules = RuleSet::builtin("rules-2.0");
        let axes: Vec<Axis> = axes.iter().map(|s| s.parse().unwrap()).collect();
        let points = plan(&doc(), &rules, &axes).unwrap();
        (rules, points)
    }

    #[test]
    fn the_grid_has_one_point_per_combination_first_axis_slowest() {
        let (rules, points) =
            plan_axes(&["vp_to_win=9,10,11", "caesar_player1_first_turn=true,false"]);
        assert_eq!(points.len(), 6);
        assert_eq!(points[1].rules.vp_to_win, 9);
        assert!(!points[1].rules.caesar_player1_first_turn);
        assert_eq!(points[2].rules.vp_to_win, 10);
        assert!(points[2].rules.caesar_player1_first_turn);
        assert_eq!(points[5].settings["vp_to_win"], Value::from(11));
        // Everything else is the base rule set's.
        assert_eq!(points[5].rules.hand_size, rules.hand_size);
        let back = apply_rule_settings(&rules, &points[3].settings).unwrap();
        assert_eq!(back, points[3].rules);
    }

    #[test]
    fn scenario_tweaks_change_the_starting_deployment() {
        let (rules, points) =
            plan_axes(&["strength:caesar:Legio 13=2", "deploy:pompey:Legio 3=Roma"]);
        let s = &points[0].game.scenario;
        let setup = s.starting_setup();
        let legio13 = s.roster.find(Side::Caesar, "Legio 13").unwrap();
        assert_eq!(setup.steps(&s.roster, legio13), 2);
        let legio3 = s.roster.find(Side::Pompey, "Legio 3").unwrap();
        let roma = s.board.find("Roma").unwrap();
        assert!(setup.placements.contains(&(legio3, roma)));
        let err = plan(
            &doc(),
            &rules,
            &["strength:caesar:Legio 13=9".parse().unwrap()],
        )
        .err()
        .unwrap();
        assert!(matches!(err, PlanError::Refused { .. }), "{err}");
        assert!(err.to_string().contains("validator"), "{err}");
    }

    fn run(settings: &[(&str, Value)], wins: u64, pompey: u64, games: u64) -> SweepPoint {
        let options = SimOptions {
            games,
            seed: 1,
            caesar: AiSpec::Random,
            pompey: AiSpec::Random,
            omniscient: false,
            shard: None,
        };
        let mut acc = crate::sim::runs::report::Accumulator::new(5);
        acc.games = games;
        acc.caesar_wins = wins;
        acc.pompey_wins = pompey;
        acc.draws = games - wins - pompey;
        let report = SimReport::new("x", &options, acc);
        point_of(
            settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            report,
        )
    }

    #[test]
    fn the_balance_point_is_nearest_an_even_game() {
        let points = vec![
            run(&[("vp_to_win", 8.into())], 20, 80, 100),
            run(&[("vp_to_win", 9.into())], 45, 55, 100),
            run(&[("vp_to_win", 10.into())], 60, 40, 100),
            run(&[("vp_to_win", 11.into())], 55, 45, 100),
        ];
        let b = balance_point(&points).unwrap();
        // 45/55 and 55/45 are equally near: the first is taken.
        assert_eq!(b.point, 1);
        assert!(b.even_within_interval);
        let far = vec![run(&[("vp_to_win", 8.into())], 10, 90, 400)];
        let b = balance_point(&far).unwrap();
        assert!(!b.even_within_interval);
        // With draws an even game is half the games not drawn.
        let drawn = vec![
            run(&[("hand_size", 5.into())], 40, 40, 100),
            run(&[("hand_size", 6.into())], 50, 48, 100),
        ];
        assert_eq!(balance_point(&drawn).unwrap().point, 0);
        assert!(balance_point(&[]).is_none());
    }
}
