//! Why two rule sets differ, rule by rule (`explain`): every field in which
//! rule sets A and B differ (from the one table of rule fields) is switched
//! alone from A's value to B's, both at A (A with B's value, against A) and
//! at B (B, against B with A's value), over the same seeds as the whole
//! difference A → B. Each field's effect on Caesar's share comes with its
//! 95% interval and p-value; a field whose two measurements disagree beyond
//! their intervals interacts with the others; the sum of the one-at-a-time
//! effects is set against the whole difference.
//!
//! Changes to the setup (`deploy:SIDE:BLOCK=CITY`, `strength:SIDE:BLOCK=N`,
//! read as `sweep` reads them) are explained as more fields: B is played on
//! the changed setup, A on the original. Pairs of fields may be switched
//! together and set against the sum of each alone ([`Explained::measure_pairs`]),
//! and the explanation repeated with other players ([`ExplainLadder`]).
//!
//! Every figure is kept as integer counts of paired games, so shards of a
//! run add up to exactly the whole run's report.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::stats::{PairedDifference, paired_mean_difference, paired_proportion_test};
use super::sweep::{Axis, AxisError, Knob, PlanError, knob};
use super::{Cancelled, Progress, SimOptions, simulate};
use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rule_fields::{FieldValue, RuleField, rule_differences};
use crate::scenario::rules::RuleSet;

/// Paired games of two rule sets over the same seeds: Caesar's wins that
/// only the first or only the second had, and the years the games lasted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCounts {
    pub pairs: u64,
    pub caesar_only_first: u64,
    pub caesar_only_second: u64,
    /// Σ (years of the first − years of the second), and Σ of its squares.
    pub years_diff_sum: i64,
    pub years_diff_squares: u64,
}

impl PairCounts {
    fn of(first: &[Outcome], second: &[Outcome]) -> PairCounts {
        let mut c = PairCounts::default();
        for (x, y) in first.iter().zip(second) {
            c.pairs += 1;
            c.caesar_only_first += u64::from(x.caesar_won && !y.caesar_won);
            c.caesar_only_second += u64::from(y.caesar_won && !x.caesar_won);
            let d = i64::from(x.years) - i64::from(y.years);
            c.years_diff_sum += d;
            c.years_diff_squares += (d * d) as u64;
        }
        c
    }

    fn add(&mut self, other: &PairCounts) {
        self.pairs += other.pairs;
        self.caesar_only_first += other.caesar_only_first;
        self.caesar_only_second += other.caesar_only_second;
        self.years_diff_sum += other.years_diff_sum;
        self.years_diff_squares += other.years_diff_squares;
    }

    /// First minus second in Caesar's share of wins (McNemar).
    pub fn caesar(&self) -> PairedDifference {
        paired_proportion_test(self.caesar_only_first, self.caesar_only_second, self.pairs)
    }

    /// First minus second in years played.
    pub fn years(&self) -> PairedDifference {
        paired_mean_difference(
            self.years_diff_sum as f64,
            self.years_diff_squares as f64,
            self.pairs,
        )
    }
}

/// One game's result, as `explain` counts it.
#[derive(Debug, Clone, Copy, Default)]
struct Outcome {
    caesar_won: bool,
    years: u8,
}

/// One field in which the rule sets differ, measured both ways.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldCounts {
    pub field: String,
    /// The rule it implements and what it decides (the table of rule fields).
    pub rule: String,
    pub explain: String,
    /// A's value and B's, as a variant file writes them.
    pub a_value: String,
    pub b_value: String,
    /// A with B's value against A (the switch made at A).
    pub at_a: PairCounts,
    /// B against B with A's value (the switch made at B).
    pub at_b: PairCounts,
    /// Why the field could not be switched alone (a rule set the engine
    /// cannot play), when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_alone: Option<String>,
}

/// One field's effect on Caesar's share, as the report states it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldEffect {
    pub at_a: PairedDifference,
    pub at_b: PairedDifference,
    /// The mean of the two, with the interval of a mean of independent measurements.
    pub both: PairedDifference,
    /// The two measurements disagree beyond their intervals: the field's
    /// effect depends on the other fields' values.
    pub interacting: bool,
}

impl FieldCounts {
    pub fn effect(&self) -> FieldEffect {
        let (at_a, at_b) = (self.at_a.caesar(), self.at_b.caesar());
        let gap = at_a.minus_independent(&at_b);
        FieldEffect {
            both: mean_of_two(&at_a, &at_b),
            interacting: gap.significant,
            at_a,
            at_b,
        }
    }

    /// A change to the setup (`deploy:…`, `strength:…`) rather than a rule
    /// field: rule fields' names hold no colon.
    pub fn is_setup_change(&self) -> bool {
        self.field.contains(':')
    }
}

/// The mean of two independent measurements of one effect, with the
/// interval of a mean.
fn mean_of_two(x: &PairedDifference, y: &PairedDifference) -> PairedDifference {
    let half = |d: &PairedDifference| (d.ci95[1] - d.ci95[0]) / 2.0;
    let estimate = (x.estimate + y.estimate) / 2.0;
    let spread = half(x).hypot(half(y)) / 2.0;
    let z = if spread > 0.0 {
        estimate / (spread / super::stats::Z95)
    } else {
        0.0
    };
    let p_value = if spread > 0.0 {
        super::stats::two_sided_p(z)
    } else {
        1.0
    };
    PairedDifference {
        estimate,
        ci95: [estimate - spread, estimate + spread],
        p_value,
        significant: p_value < 0.05,
    }
}

/// What `explain` measured: the whole difference and every field's share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExplainReport {
    pub kind: String,
    /// The two rule sets as given, and their names.
    pub variants: [String; 2],
    pub names: [String; 2],
    /// [`RuleSet::play_digest`] of each, and the scenario's digest.
    pub digests: [String; 2],
    pub scenario_digest: String,
    pub caesar_ai: String,
    pub pompey_ai: String,
    pub seed: u64,
    /// Games per rule set of the whole run, and the shards in this report.
    pub run_games: u64,
    pub shards: Vec<String>,
    /// B against A.
    pub total: PairCounts,
    pub fields: Vec<FieldCounts>,
    /// The changes to the setup B is played on, as given (`--set`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_changes: Vec<String>,
    /// Pairs of fields switched together (`--pairs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<PairInteraction>,
}

/// The rule sets A and B explain compares, as games on one scenario (B's
/// with every change to the setup), and the changes to the setup.
pub struct ExplainSetup<'a> {
    pub a: &'a Game,
    pub b: &'a Game,
    pub variants: [&'a str; 2],
    pub setup_changes: &'a [SetupChange],
}

/// Games of every rule set `explain` plays for A and B: A, B, and each
/// differing field switched at A and at B.
pub fn rule_sets_played(a: &RuleSet, b: &RuleSet) -> u64 {
    2 + 2 * rule_differences(a, b).len() as u64
}

/// A finished explanation, with every game's result kept so that pairs of
/// fields can be set against them.
pub struct Explained {
    pub report: ExplainReport,
    at_a: Vec<Outcome>,
    at_b: Vec<Outcome>,
    /// Per field of the report: A with B's value, B with A's value (empty
    /// when the field could not be switched alone).
    switched: Vec<[Vec<Outcome>; 2]>,
}

/// Every game of `game` in the options' range, as `explain` counts it.
fn outcomes(
    game: &Game,
    options: &SimOptions,
    progress: &Progress,
) -> Result<Vec<Outcome>, Cancelled> {
    let range = options.game_range();
    let mut out = vec![Outcome::default(); (range.end - range.start) as usize];
    simulate(game, &game.rules.name, options, progress, |g| {
        out[(g.index - range.start) as usize] = Outcome {
            caesar_won: g.winner == Some(Side::Caesar),
            years: g.year,
        };
    })?;
    Ok(out)
}

/// Plays the explanation on the current rayon pool.
pub fn explain(
    setup: &ExplainSetup<'_>,
    options: &SimOptions,
    progress: &Progress,
) -> Result<ExplainReport, Cancelled> {
    explain_keeping_games(setup, options, progress).map(|e| e.report)
}

/// Plays the explanation, keeping every game's result for
/// [`Explained::measure_pairs`].
pub fn explain_keeping_games(
    setup: &ExplainSetup<'_>,
    options: &SimOptions,
    progress: &Progress,
) -> Result<Explained, Cancelled> {
    let (a, b) = (setup.a, setup.b);
    let at_a = outcomes(a, options, progress)?;
    let at_b = outcomes(b, options, progress)?;
    let mut fields = Vec::new();
    let mut switched_games = Vec::new();
    for (field, a_value, b_value) in rule_differences(&a.rules, &b.rules) {
        let mut counts = FieldCounts {
            field: field.name.to_string(),
            rule: field.rule.to_string(),
            explain: field.explain.to_string(),
            a_value: a_value.to_string(),
            b_value: b_value.to_string(),
            at_a: PairCounts::default(),
            at_b: PairCounts::default(),
            not_alone: None,
        };
        let mut kept = [Vec::new(), Vec::new()];
        match (switched(a, field, &b_value), switched(b, field, &a_value)) {
            (Ok(a_with_b), Ok(b_with_a)) => {
                kept = [
                    outcomes(&a_with_b, options, progress)?,
                    outcomes(&b_with_a, options, progress)?,
                ];
                counts.at_a = PairCounts::of(&kept[0], &at_a);
                counts.at_b = PairCounts::of(&at_b, &kept[1]);
            }
            (Err(why), _) | (_, Err(why)) => counts.not_alone = Some(why),
        }
        fields.push(counts);
        switched_games.push(kept);
    }
    for change in setup.setup_changes {
        let kept = [
            outcomes(&change.at_a, options, progress)?,
            outcomes(&change.b_without, options, progress)?,
        ];
        fields.push(FieldCounts {
            field: change.key.clone(),
            rule: "setup".to_string(),
            explain: change.words(),
            a_value: change.before.clone(),
            b_value: change.after.clone(),
            at_a: PairCounts::of(&kept[0], &at_a),
            at_b: PairCounts::of(&at_b, &kept[1]),
            not_alone: None,
        });
        switched_games.push(kept);
    }
    let shard = options.shard.map_or("1/1".to_string(), |s| {
        format!("{}/{}", s.index + 1, s.count)
    });
    let report = ExplainReport {
        kind: "explain".to_string(),
        variants: setup.variants.map(str::to_string),
        names: [a.rules.name.clone(), b.rules.name.clone()],
        digests: [a.rules.play_digest(), b.rules.play_digest()],
        scenario_digest: a.scenario.digest.clone(),
        caesar_ai: options.caesar.to_string(),
        pompey_ai: options.pompey.to_string(),
        seed: options.seed,
        run_games: options.games,
        shards: vec![shard],
        total: PairCounts::of(&at_b, &at_a),
        fields,
        setup_changes: setup.setup_changes.iter().map(|c| c.text.clone()).collect(),
        pairs: Vec::new(),
    };
    Ok(Explained {
        report,
        at_a,
        at_b,
        switched: switched_games,
    })
}

/// `base` with `field` set to `value`, if the engine plays it.
fn switched(base: &Game, field: &RuleField, value: &FieldValue) -> Result<Game, String> {
    let rules = base
        .rules
        .with_field(field, value)
        .map_err(|e| e.to_string())?;
    Game::try_new(base.scenario.clone(), Arc::new(rules)).map_err(|unmet| {
        unmet
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// Why reports of `explain` do not merge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainMergeError {
    #[error("nothing to merge")]
    Empty,
    #[error("{label} is a report of another run ({field} differs: {first} against {other})")]
    DifferentRun {
        label: String,
        field: &'static str,
        first: String,
        other: String,
    },
    #[error("{label} holds shard {shard} twice")]
    ShardTwice { label: String, shard: String },
}

impl ExplainReport {
    /// What makes two reports shards of one run.
    fn identity(&self) -> [(&'static str, String); 9] {
        let pairs: Vec<&[String; 2]> = self.pairs.iter().map(|p| &p.fields).collect();
        [
            ("setup_changes", format!("{:?}", self.setup_changes)),
            ("pairs", format!("{pairs:?}")),
            ("variants", format!("{:?}", self.variants)),
            ("digests", format!("{:?}", self.digests)),
            ("scenario_digest", self.scenario_digest.clone()),
            ("caesar_ai", self.caesar_ai.clone()),
            ("pompey_ai", self.pompey_ai.clone()),
            ("seed", self.seed.to_string()),
            ("run_games", self.run_games.to_string()),
        ]
    }

    /// The shards of one run added up (refused when they are of other runs
    /// or hold a shard twice).
    pub fn merge_labelled(
        reports: &[(&str, &ExplainReport)],
    ) -> Result<ExplainReport, ExplainMergeError> {
        let (_, first) = reports.first().ok_or(ExplainMergeError::Empty)?;
        let mut merged = (*first).clone();
        for (label, r) in &reports[1..] {
            for ((field, mine), (_, theirs)) in first.identity().into_iter().zip(r.identity()) {
                if mine != theirs {
                    return Err(ExplainMergeError::DifferentRun {
                        label: label.to_string(),
                        field,
                        first: mine,
                        other: theirs,
                    });
                }
            }
            if let Some(shard) = r.shards.iter().find(|s| merged.shards.contains(s)) {
                return Err(ExplainMergeError::ShardTwice {
                    label: label.to_string(),
                    shard: shard.clone(),
                });
            }
            merged.shards.extend(r.shards.iter().cloned());
            merged.total.add(&r.total);
            for (mine, theirs) in merged.fields.iter_mut().zip(&r.fields) {
                mine.at_a.add(&theirs.at_a);
                mine.at_b.add(&theirs.at_b);
            }
            for (mine, theirs) in merged.pairs.iter_mut().zip(&r.pairs) {
                mine.add(theirs);
            }
        }
        // Every game of the run: the report of the whole run, as one machine writes it.
        if merged.total.pairs == merged.run_games {
            merged.shards = vec!["1/1".to_string()];
        }
        Ok(merged)
    }

    /// The fields by the size of their effect on Caesar's share, largest first.
    pub fn ranked(&self) -> Vec<(&FieldCounts, FieldEffect)> {
        let mut ranked: Vec<_> = self.fields.iter().map(|f| (f, f.effect())).collect();
        ranked.sort_by(|x, y| y.1.both.estimate.abs().total_cmp(&x.1.both.estimate.abs()));
        ranked
    }

    /// The one-at-a-time effects at A added up, with the interval of a sum
    /// of independent measurements, against the whole difference.
    pub fn sum_of_fields(&self) -> PairedDifference {
        let effects: Vec<PairedDifference> = self.fields.iter().map(|f| f.at_a.caesar()).collect();
        let estimate: f64 = effects.iter().map(|e| e.estimate).sum();
        let half: f64 = effects
            .iter()
            .map(|e| ((e.ci95[1] - e.ci95[0]) / 2.0).powi(2))
            .sum::<f64>()
            .sqrt();
        PairedDifference {
            estimate,
            ci95: [estimate - half, estimate + half],
            p_value: f64::NAN,
            significant: false,
        }
    }

    /// Whether the sum of the parts and the whole disagree beyond their intervals.
    pub fn parts_miss_the_whole(&self) -> bool {
        self.sum_of_fields()
            .minus_independent(&self.total.caesar())
            .significant
    }
}

fn points(d: &PairedDifference) -> String {
    format!(
        "{:+.1} points ({:+.1} to {:+.1})",
        100.0 * d.estimate,
        100.0 * d.ci95[0],
        100.0 * d.ci95[1]
    )
}

impl ExplainReport {
    /// The report's first line: which rule sets, games, seed and players.
    pub fn headline(&self) -> String {
        let [a, b] = &self.variants;
        format!(
            "Why {b} differs from {a} for Caesar, field by field ({} games per rule set, seed {}; Caesar {}, Pompey {})",
            self.run_games, self.seed, self.caesar_ai, self.pompey_ai
        )
    }

    /// The whole difference A → B in Caesar's share and in years played.
    pub fn whole_sentence(&self) -> String {
        let [a, b] = &self.variants;
        let total = self.total.caesar();
        let years = self.total.years();
        format!(
            "The whole difference {a} → {b}: {} for Caesar (p = {:.3}); games last {:+.2} years ({:+.2} to {:+.2})",
            points(&total),
            total.p_value,
            years.estimate,
            years.ci95[0],
            years.ci95[1]
        )
    }

    /// What one field does for Caesar, in one sentence: its effect with its
    /// interval, that it interacts, that no game changed, or why it could
    /// not be switched alone. The report and the window say it alike.
    pub fn field_sentence(&self, field: &FieldCounts, effect: &FieldEffect) -> String {
        let [a, b] = &self.variants;
        if let Some(why) = &field.not_alone {
            return format!(
                "{} ({}): cannot be switched alone: {why}",
                field.field, field.rule
            );
        }
        if !field.changed_any_game() {
            return format!(
                "{} ({}: {} → {}): no game changed its winner or length: the players never used what this rule changes",
                field.field, field.rule, field.a_value, field.b_value
            );
        }
        let d = &effect.both;
        format!(
            "{} ({}: {} → {}): {} for Caesar, p = {:.3}{}",
            field.field,
            field.rule,
            field.a_value,
            field.b_value,
            points(d),
            d.p_value,
            if effect.interacting {
                format!(
                    "; interacts (at {a} {}, at {b} {})",
                    points(&effect.at_a),
                    points(&effect.at_b)
                )
            } else {
                String::new()
            }
        )
    }

    /// The fields one at a time against the whole difference.
    pub fn sum_sentence(&self) -> String {
        format!(
            "The fields one at a time add up to {} against the whole {}: {}",
            points(&self.sum_of_fields()),
            points(&self.total.caesar()),
            if self.parts_miss_the_whole() {
                "they disagree beyond their intervals, so fields interact (see those marked)"
            } else {
                "they agree within their intervals"
            }
        )
    }

    /// One CSV row per field, largest effect first, then the whole
    /// difference and the sum of the fields; effects in points of Caesar's
    /// share with their 95% intervals.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "field,rule,a_value,b_value,points,low,high,p_value,at_a_points,at_a_low,at_a_high,at_b_points,at_b_low,at_b_high,interacting,games_changed,not_alone\n",
        );
        let pts = |d: &PairedDifference| {
            format!(
                "{:.2},{:.2},{:.2}",
                100.0 * d.estimate,
                100.0 * d.ci95[0],
                100.0 * d.ci95[1]
            )
        };
        for (field, effect) in self.ranked() {
            let changed = |c: &PairCounts| c.caesar_only_first + c.caesar_only_second;
            out.push_str(&format!(
                "{},{},{},{},{},{:.4},{},{},{},{},{}\n",
                csv_cell(&field.field),
                csv_cell(&field.rule),
                csv_cell(&field.a_value),
                csv_cell(&field.b_value),
                pts(&effect.both),
                effect.both.p_value,
                pts(&effect.at_a),
                pts(&effect.at_b),
                effect.interacting,
                changed(&field.at_a) + changed(&field.at_b),
                csv_cell(field.not_alone.as_deref().unwrap_or_default())
            ));
        }
        let total = self.total.caesar();
        out.push_str(&format!(
            "(whole difference),,{},{},{},{:.4},,,,,,,,,\n",
            csv_cell(&self.variants[0]),
            csv_cell(&self.variants[1]),
            pts(&total),
            total.p_value
        ));
        out.push_str(&format!(
            "(sum of the fields),,,,{},,,,,,,,{},,\n",
            pts(&self.sum_of_fields()),
            self.parts_miss_the_whole()
        ));
        out
    }
}

/// A CSV cell: quoted when it holds a comma, a quote or a line break.
fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

impl FieldCounts {
    /// Whether switching the field changed any game's winner or length,
    /// at A or at B.
    pub fn changed_any_game(&self) -> bool {
        let changed = |c: &PairCounts| c.caesar_only_first + c.caesar_only_second;
        changed(&self.at_a) + changed(&self.at_b) != 0
            || self.at_a.years_diff_squares + self.at_b.years_diff_squares != 0
    }
}

impl fmt::Display for ExplainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.headline())?;
        writeln!(f, "{}", self.whole_sentence())?;
        writeln!(f)?;
        for (field, effect) in self.ranked() {
            writeln!(f, "{}", self.field_sentence(field, &effect))?;
            if field.not_alone.is_none() && field.changed_any_game() {
                writeln!(f, "    {}", field.explain)?;
            }
        }
        writeln!(f)?;
        writeln!(f, "{}", self.sum_sentence())?;
        if !self.pairs.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "Pairs of fields switched together, against the sum of each alone:"
            )?;
            for pair in &self.pairs {
                writeln!(f, "{}", pair.sentence())?;
            }
        }
        Ok(())
    }
}

// ------------------------------------------------------------ setup changes

/// A change to the setup explained as one more field: B is played on the
/// setup with every change, A on the original; switched alone at A it is
/// A's rules on the setup with only this change, at B B's rules on the
/// setup with every change but this one.
pub struct SetupChange {
    /// As given: `deploy:pompey:Legio 3=Roma`.
    pub text: String,
    /// `deploy:pompey:Legio 3`.
    pub key: String,
    /// The block's city (or starting strength) in the original setup, and
    /// as changed.
    pub before: String,
    pub after: String,
    pub at_a: Game,
    pub b_without: Game,
}

impl SetupChange {
    /// What the change does, in words.
    fn words(&self) -> String {
        let (what, block) = match self.key.split_once(':') {
            Some(("deploy", rest)) => ("starts in", rest),
            Some((_, rest)) => ("starts at strength", rest),
            None => ("is", self.key.as_str()),
        };
        let block = block.replacen(':', "'s ", 1);
        format!(
            "A change to the setup: {block} {what} {} instead of {}.",
            self.after, self.before
        )
    }
}

/// Why changes to the setup cannot be explained.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SetupChangeError {
    #[error(
        "{key}: a rule field belongs in rule set B; --set takes changes to the setup (deploy:SIDE:BLOCK=CITY, strength:SIDE:BLOCK=N)"
    )]
    RuleField { key: String },
    #[error("{key}: give one value (the setup B is played on), not {count}")]
    NotOneValue { key: String, count: usize },
    #[error("{0}")]
    Axis(#[from] AxisError),
    #[error("{0}")]
    Plan(#[from] PlanError),
}

/// B's game on the setup with every change, and each change as a field,
/// every setup checked by the validator as a sweep's points are.
pub fn plan_setup_changes(
    doc: &ResolvedScenario,
    a: &Game,
    b_rules: &RuleSet,
    changes: &[Axis],
) -> Result<(Game, Vec<SetupChange>), SetupChangeError> {
    for axis in changes {
        if let Knob::Rule(_) = knob(&axis.key)? {
            return Err(SetupChangeError::RuleField {
                key: axis.key.clone(),
            });
        }
        if axis.values.len() != 1 {
            return Err(SetupChangeError::NotOneValue {
                key: axis.key.clone(),
                count: axis.values.len(),
            });
        }
    }
    let one_game = |rules: &RuleSet, axes: &[Axis]| -> Result<Game, SetupChangeError> {
        let mut points = super::sweep::plan(doc, rules, axes)?;
        Ok(points.remove(0).game)
    };
    let b = one_game(b_rules, changes)?;
    let mut planned = Vec::new();
    for (i, axis) in changes.iter().enumerate() {
        let others: Vec<Axis> = changes
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, other)| other.clone())
            .collect();
        let at_a = one_game(&a.rules, std::slice::from_ref(axis))?;
        let b_without = if others.is_empty() {
            Game::try_new(a.scenario.clone(), b.rules.clone()).map_err(|unmet| {
                PlanError::Refused {
                    settings: "the setup as written".to_string(),
                    findings: unmet.iter().map(ToString::to_string).collect(),
                }
            })?
        } else {
            one_game(b_rules, &others)?
        };
        planned.push(SetupChange {
            text: format!("{}={}", axis.key, axis.values[0]),
            key: axis.key.clone(),
            before: setup_value(a, &axis.key),
            after: setup_value(&at_a, &axis.key),
            at_a,
            b_without,
        });
    }
    Ok((b, planned))
}

/// A block's city (or "the levy pool") or starting strength in `game`'s
/// setup, as a `deploy:` or `strength:` key names it.
fn setup_value(game: &Game, key: &str) -> String {
    let scenario = &game.scenario;
    let setup = scenario.starting_setup();
    let found = |side: &Side, block: &str| scenario.roster.find(*side, block);
    match knob(key) {
        Ok(Knob::Deploy { side, block }) => found(&side, &block)
            .and_then(|b| setup.location(b))
            .map_or("the levy pool".to_string(), |s| {
                scenario.board.name(s).to_string()
            }),
        Ok(Knob::Strength { side, block }) => found(&side, &block).map_or(String::new(), |b| {
            setup.strength(&scenario.roster, b).to_string()
        }),
        _ => String::new(),
    }
}

// -------------------------------------------------------------------- pairs

/// Σ and Σ² of an integer per paired game, and the games: a mean with its
/// interval that shards add up exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub pairs: u64,
    pub sum: i64,
    pub squares: u64,
}

impl Moments {
    fn of(values: impl Iterator<Item = i64>) -> Moments {
        let mut m = Moments::default();
        for v in values {
            m.pairs += 1;
            m.sum += v;
            m.squares += (v * v) as u64;
        }
        m
    }

    fn add(&mut self, other: &Moments) {
        self.pairs += other.pairs;
        self.sum += other.sum;
        self.squares += other.squares;
    }

    /// The mean per game, with its 95% interval.
    pub fn mean(&self) -> PairedDifference {
        paired_mean_difference(self.sum as f64, self.squares as f64, self.pairs)
    }
}

/// Two fields switched together, set against the sum of each alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairInteraction {
    pub fields: [String; 2],
    /// A with both of B's values against A; B against B with both of A's.
    pub together_at_a: PairCounts,
    pub together_at_b: PairCounts,
    /// Per game, Caesar's win (1 or 0) with both fields switched, less with
    /// each one alone, plus with neither: the pair's effect beyond the sum
    /// of its parts, from A's side (A with B's values) and from B's (B with
    /// A's values). With only these two fields differing the two are the
    /// same games.
    pub interaction_at_a: Moments,
    pub interaction_at_b: Moments,
    /// Why the two could not be switched together, when they could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_together: Option<String>,
}

impl PairInteraction {
    fn add(&mut self, other: &PairInteraction) {
        self.together_at_a.add(&other.together_at_a);
        self.together_at_b.add(&other.together_at_b);
        self.interaction_at_a.add(&other.interaction_at_a);
        self.interaction_at_b.add(&other.interaction_at_b);
    }

    /// Both fields' effect together, at A and at B taken as one.
    pub fn together(&self) -> PairedDifference {
        mean_of_two(&self.together_at_a.caesar(), &self.together_at_b.caesar())
    }

    /// The effect together less the sum of each alone, at A and at B taken
    /// as one: zero when the fields do not interact.
    pub fn interaction(&self) -> PairedDifference {
        mean_of_two(&self.interaction_at_a.mean(), &self.interaction_at_b.mean())
    }

    /// The pair in one sentence, as the report says it.
    pub fn sentence(&self) -> String {
        let [x, y] = &self.fields;
        if let Some(why) = &self.not_together {
            return format!("{x} + {y}: cannot be switched together: {why}");
        }
        let i = self.interaction();
        format!(
            "{x} + {y}: together {} for Caesar; beyond the sum of each alone {} (p = {:.3}): {}",
            points(&self.together()),
            points(&i),
            i.p_value,
            if i.significant {
                "they interact"
            } else {
                "no interaction beyond noise"
            }
        )
    }
}

impl ExplainReport {
    /// The pairs `--pairs` measures when none are named: every two fields
    /// marked as interacting; a field marked alone goes with every other
    /// field that changed some game. Rule fields only, in the report's order.
    pub fn flagged_pairs(&self) -> Vec<[String; 2]> {
        let rule_fields: Vec<(&FieldCounts, bool)> = self
            .fields
            .iter()
            .filter(|f| !f.is_setup_change() && f.not_alone.is_none())
            .map(|f| (f, f.effect().interacting))
            .collect();
        let flagged: Vec<&FieldCounts> = rule_fields
            .iter()
            .filter(|(_, interacting)| *interacting)
            .map(|(f, _)| *f)
            .collect();
        let mut pairs = Vec::new();
        if let [one] = flagged.as_slice() {
            for (other, _) in &rule_fields {
                if other.field != one.field && other.changed_any_game() {
                    pairs.push([one.field.clone(), other.field.clone()]);
                }
            }
        } else {
            for (i, x) in flagged.iter().enumerate() {
                for y in &flagged[i + 1..] {
                    pairs.push([x.field.clone(), y.field.clone()]);
                }
            }
        }
        pairs
    }
}

/// Checks pairs named as `FIELD+FIELD`: two different rule fields in which
/// A and B differ.
pub fn read_pairs(a: &RuleSet, b: &RuleSet, text: &str) -> Result<Vec<[String; 2]>, String> {
    let differing: Vec<&str> = rule_differences(a, b)
        .iter()
        .map(|(f, _, _)| f.name)
        .collect();
    text.split(',')
        .map(|pair| {
            let (x, y) = pair.trim().split_once('+').ok_or_else(|| {
                format!("\"{pair}\" is not a pair: write FIELD+FIELD, as in mars_group_move+pluto_attacks_only")
            })?;
            let (x, y) = (x.trim(), y.trim());
            for name in [x, y] {
                if !differing.contains(&name) {
                    return Err(format!(
                        "{name} is not a field in which the two rule sets differ{}",
                        crate::scenario::names::did_you_mean(name, differing.iter().copied())
                    ));
                }
            }
            if x == y {
                return Err(format!("{x}+{y}: a pair takes two different fields"));
            }
            Ok([x.to_string(), y.to_string()])
        })
        .collect()
}

impl Explained {
    /// Plays each pair switched together at A and at B over the same seeds
    /// and adds it to the report. Pairs come from [`read_pairs`] or
    /// [`ExplainReport::flagged_pairs`].
    pub fn measure_pairs(
        &mut self,
        setup: &ExplainSetup<'_>,
        pairs: &[[String; 2]],
        options: &SimOptions,
        progress: &Progress,
    ) -> Result<(), Cancelled> {
        let differences = rule_differences(&setup.a.rules, &setup.b.rules);
        for [x, y] in pairs {
            let find = |name: &str| {
                let at = self.report.fields.iter().position(|f| f.field == name)?;
                let (field, a_value, b_value) =
                    differences.iter().find(|(f, _, _)| f.name == name)?;
                Some((at, *field, a_value.clone(), b_value.clone()))
            };
            let mut pair = PairInteraction {
                fields: [x.clone(), y.clone()],
                together_at_a: PairCounts::default(),
                together_at_b: PairCounts::default(),
                interaction_at_a: Moments::default(),
                interaction_at_b: Moments::default(),
                not_together: None,
            };
            let (Some(fx), Some(fy)) = (find(x), find(y)) else {
                pair.not_together = Some("not two rule fields of this explanation".to_string());
                self.report.pairs.push(pair);
                continue;
            };
            let both = |base: &Game, to_b: bool| {
                let value = |f: &(usize, &RuleField, FieldValue, FieldValue)| {
                    if to_b { f.3.clone() } else { f.2.clone() }
                };
                switched(base, fx.1, &value(&fx)).and_then(|g| switched(&g, fy.1, &value(&fy)))
            };
            match (both(setup.a, true), both(setup.b, false)) {
                (Ok(a_both), Ok(b_neither)) => {
                    let a_both = outcomes(&a_both, options, progress)?;
                    let b_neither = outcomes(&b_neither, options, progress)?;
                    self.count_pair(&mut pair, [fx.0, fy.0], &a_both, &b_neither);
                }
                (Err(why), _) | (_, Err(why)) => pair.not_together = Some(why),
            }
            self.report.pairs.push(pair);
        }
        Ok(())
    }

    /// The pair's counts from its games together and each field's alone.
    fn count_pair(
        &self,
        pair: &mut PairInteraction,
        [i, j]: [usize; 2],
        a_both: &[Outcome],
        b_neither: &[Outcome],
    ) {
        let won = |o: &Outcome| i64::from(o.caesar_won);
        let (alone_x, alone_y) = (&self.switched[i], &self.switched[j]);
        pair.together_at_a = PairCounts::of(a_both, &self.at_a);
        pair.together_at_b = PairCounts::of(&self.at_b, b_neither);
        pair.interaction_at_a = Moments::of((0..self.at_a.len()).map(|g| {
            won(&a_both[g]) - won(&alone_x[0][g]) - won(&alone_y[0][g]) + won(&self.at_a[g])
        }));
        // The same second difference from B's side: B has both, B with A's
        // value of one field has only the other, and B with neither.
        pair.interaction_at_b = Moments::of((0..self.at_b.len()).map(|g| {
            won(&self.at_b[g]) - won(&alone_x[1][g]) - won(&alone_y[1][g]) + won(&b_neither[g])
        }));
    }
}

// ------------------------------------------------------------------- ladder

/// The explanation repeated with two players (each playing both sides):
/// the ladder's two strongest rungs, and whether each field's effect
/// agrees between them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExplainLadder {
    pub kind: String,
    /// The second strongest rung's player, then the strongest's.
    pub players: [String; 2],
    pub rungs: [ExplainReport; 2],
}

/// One field at the two strongest rungs.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldAgreement {
    pub field: String,
    pub effects: [PairedDifference; 2],
    /// The strongest rung's effect less the second's (independent games).
    pub gap: PairedDifference,
    /// No game changed under either player: nothing to agree on.
    pub unused: bool,
}

impl FieldAgreement {
    /// The two effects agree within their intervals.
    pub fn agrees(&self) -> bool {
        !self.gap.significant
    }

    /// The field at the two rungs (`players`, second then strongest), in
    /// one sentence.
    pub fn sentence(&self, players: &[String; 2]) -> String {
        let [p, q] = players;
        if self.unused {
            return format!("{}: no game changed under either player", self.field);
        }
        format!(
            "{}: {} with {p}, {} with {q}: {}",
            self.field,
            points(&self.effects[0]),
            points(&self.effects[1]),
            if self.agrees() {
                "agrees".to_string()
            } else {
                format!(
                    "differs by {} (p = {:.3})",
                    points(&self.gap),
                    self.gap.p_value
                )
            }
        )
    }
}

impl ExplainLadder {
    pub fn new(players: [String; 2], rungs: [ExplainReport; 2]) -> ExplainLadder {
        ExplainLadder {
            kind: "explain-ladder".to_string(),
            players,
            rungs,
        }
    }

    /// Each field's effect at both rungs, in the strongest rung's order.
    pub fn agreement(&self) -> Vec<FieldAgreement> {
        let [second, top] = &self.rungs;
        top.ranked()
            .into_iter()
            .filter_map(|(field, top_effect)| {
                let other = second.fields.iter().find(|f| f.field == field.field)?;
                let effects = [other.effect().both, top_effect.both];
                Some(FieldAgreement {
                    field: field.field.clone(),
                    gap: effects[1].minus_independent(&effects[0]),
                    unused: !field.changed_any_game() && !other.changed_any_game(),
                    effects,
                })
            })
            .collect()
    }

    /// Whether every field's effect agrees between the two rungs.
    pub fn all_agree(&self) -> bool {
        self.agreement().iter().all(FieldAgreement::agrees)
    }

    /// "Does each field's effect agree between P and Q?"
    pub fn question(&self) -> String {
        let [p, q] = &self.players;
        format!("Does each field's effect agree between {p} and {q}?")
    }

    /// Whether the explanation moves with the player, in one sentence.
    pub fn verdict(&self) -> &'static str {
        if self.all_agree() {
            "Every field's effect agrees between the two players: a stronger player is unlikely to change the explanation."
        } else {
            "Some fields' effects differ between the two players: the explanation still moves with the player."
        }
    }
}

impl fmt::Display for ExplainLadder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (player, report) in self.players.iter().zip(&self.rungs) {
            writeln!(f, "At the rung {player} (both sides):")?;
            writeln!(f, "{report}")?;
        }
        writeln!(f, "{}", self.question())?;
        for a in self.agreement() {
            writeln!(f, "{}", a.sentence(&self.players))?;
        }
        writeln!(f, "{}", self.verdict())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(only_first: u64, only_second: u64, pairs: u64) -> PairCounts {
        PairCounts {
            pairs,
            caesar_only_first: only_first,
            caesar_only_second: only_second,
            ..PairCounts::default()
        }
    }

    fn field(at_a: PairCounts, at_b: PairCounts) -> FieldCounts {
        FieldCounts {
            field: "f".into(),
            rule: "1.2".into(),
            explain: String::new(),
            a_value: "1".into(),
            b_value: "2".into(),
            at_a,
            at_b,
            not_alone: None,
        }
    }

    #[test]
    fn a_field_whose_two_measurements_disagree_interacts() {
        let agree = field(counts(300, 100, 4000), counts(310, 95, 4000)).effect();
        assert!(!agree.interacting);
        assert!(agree.both.significant);
        assert!((agree.both.estimate - 0.051_875).abs() < 1e-9);
        let disagree = field(counts(300, 100, 4000), counts(100, 100, 4000)).effect();
        assert!(disagree.interacting, "+5 points at A, 0 at B");
    }

    #[test]
    fn pair_counts_take_caesar_wins_only_one_run_had() {
        let won = |caesar_won, years| Outcome { caesar_won, years };
        let c = PairCounts::of(
            &[won(true, 5), won(false, 3), won(true, 2)],
            &[won(false, 5), won(false, 4), won(true, 2)],
        );
        assert_eq!(
            (c.pairs, c.caesar_only_first, c.caesar_only_second),
            (3, 1, 0)
        );
        assert_eq!((c.years_diff_sum, c.years_diff_squares), (-1, 1));
    }
    fn report_of(fields: Vec<FieldCounts>) -> ExplainReport {
        ExplainReport {
            kind: "explain".into(),
            variants: ["a".into(), "b".into()],
            names: ["A".into(), "B".into()],
            digests: ["1".into(), "2".into()],
            scenario_digest: "s".into(),
            caesar_ai: "heuristic".into(),
            pompey_ai: "heuristic".into(),
            seed: 1,
            run_games: 4000,
            shards: vec!["1/1".into()],
            total: counts(300, 100, 4000),
            fields,
            setup_changes: Vec::new(),
            pairs: Vec::new(),
        }
    }

    fn named(name: &str, at_a: PairCounts, at_b: PairCounts) -> FieldCounts {
        FieldCounts {
            field: name.into(),
            ..field(at_a, at_b)
        }
    }

    #[test]
    fn the_flagged_pairs_are_the_interacting_fields_two_by_two() {
        let agree = || counts(300, 100, 4000);
        let moved_at_a_only = || (counts(300, 100, 4000), counts(100, 100, 4000));
        let (x_a, x_b) = moved_at_a_only();
        let (y_a, y_b) = moved_at_a_only();
        let (z_a, z_b) = moved_at_a_only();
        let report = report_of(vec![
            named("x", x_a, x_b),
            named("quiet", agree(), agree()),
            named("y", y_a, y_b),
            named("z", z_a, z_b),
        ]);
        let pairs = report.flagged_pairs();
        assert_eq!(
            pairs,
            [["x", "y"], ["x", "z"], ["y", "z"]].map(|p| p.map(String::from))
        );
        // One marked field goes with every other field that changed a game.
        let unused = PairCounts {
            pairs: 4000,
            ..PairCounts::default()
        };
        let report = report_of(vec![
            named("x", x_a, x_b),
            named("quiet", agree(), agree()),
            named("unused", unused, unused),
        ]);
        assert_eq!(
            report.flagged_pairs(),
            [["x".to_string(), "quiet".to_string()]]
        );
        assert!(
            report_of(vec![named("quiet", agree(), agree())])
                .flagged_pairs()
                .is_empty()
        );
    }

    #[test]
    fn moments_give_the_mean_of_a_per_game_contrast_and_add_up() {
        let mut m = Moments::of([1, 0, -1, 2, 0, 0].into_iter());
        assert_eq!((m.pairs, m.sum, m.squares), (6, 2, 6));
        assert!((m.mean().estimate - 2.0 / 6.0).abs() < 1e-12);
        m.add(&Moments::of([0, 0].into_iter()));
        assert_eq!((m.pairs, m.sum, m.squares), (8, 2, 6));
    }

    #[test]
    fn the_csv_has_a_row_per_field_and_as_many_cells_as_its_header() {
        let report = report_of(vec![
            named(
                "x, with a comma",
                counts(300, 100, 4000),
                counts(310, 95, 4000),
            ),
            named("y", counts(10, 10, 4000), counts(10, 10, 4000)),
        ]);
        let csv = report.csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 1 + 2 + 2, "{csv}");
        let cells = |line: &str| line.replace("\"x, with a comma\"", "x").split(',').count();
        for line in &lines {
            assert_eq!(cells(line), cells(lines[0]), "{line}");
        }
        assert!(
            lines[1].starts_with("\"x, with a comma\",1.2,1,2,5.19,"),
            "{}",
            lines[1]
        );
    }
}
