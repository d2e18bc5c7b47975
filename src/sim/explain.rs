//! Why two rule sets differ, rule by rule (`explain`): every field in which
//! rule sets A and B differ (from the one table of rule fields) is switched
//! alone from A's value to B's, both at A (A with B's value, against A) and
//! at B (B, against B with A's value), over the same seeds as the whole
//! difference A → B. Each field's effect on Caesar's share comes with its
//! 95% interval and p-value; a field whose two measurements disagree beyond
//! their intervals interacts with the others; the sum of the one-at-a-time
//! effects is set against the whole difference.
//!
//! Every figure is kept as integer counts of paired games, so shards of a
//! run add up to exactly the whole run's report.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::stats::{PairedDifference, paired_mean_difference, paired_proportion_test};
use super::{Cancelled, Progress, SimOptions, simulate};
use crate::engine::Game;
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
        let half = |d: &PairedDifference| (d.ci95[1] - d.ci95[0]) / 2.0;
        let estimate = (at_a.estimate + at_b.estimate) / 2.0;
        let spread = half(&at_a).hypot(half(&at_b)) / 2.0;
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
        FieldEffect {
            both: PairedDifference {
                estimate,
                ci95: [estimate - spread, estimate + spread],
                p_value,
                significant: p_value < 0.05,
            },
            interacting: gap.significant,
            at_a,
            at_b,
        }
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
}

/// The rule sets A and B explain compares, as games on one scenario.
pub struct ExplainSetup<'a> {
    pub a: &'a Game,
    pub b: &'a Game,
    pub variants: [&'a str; 2],
}

/// Games of every rule set `explain` plays for A and B: A, B, and each
/// differing field switched at A and at B.
pub fn rule_sets_played(a: &RuleSet, b: &RuleSet) -> u64 {
    2 + 2 * rule_differences(a, b).len() as u64
}

/// Plays the explanation on the current rayon pool.
pub fn explain(
    setup: &ExplainSetup<'_>,
    options: &SimOptions,
    progress: &Progress,
) -> Result<ExplainReport, Cancelled> {
    let (a, b) = (setup.a, setup.b);
    let outcomes = |game: &Game| -> Result<Vec<Outcome>, Cancelled> {
        let range = options.game_range();
        let mut out = vec![Outcome::default(); (range.end - range.start) as usize];
        simulate(game, &game.rules.name, options, progress, |g| {
            out[(g.index - range.start) as usize] = Outcome {
                caesar_won: g.winner == Some(crate::scenario::model::Side::Caesar),
                years: g.year,
            };
        })?;
        Ok(out)
    };
    let at_a = outcomes(a)?;
    let at_b = outcomes(b)?;
    let mut fields = Vec::new();
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
        match (switched(a, field, &b_value), switched(b, field, &a_value)) {
            (Ok(a_with_b), Ok(b_with_a)) => {
                counts.at_a = PairCounts::of(&outcomes(&a_with_b)?, &at_a);
                counts.at_b = PairCounts::of(&at_b, &outcomes(&b_with_a)?);
            }
            (Err(why), _) | (_, Err(why)) => counts.not_alone = Some(why),
        }
        fields.push(counts);
    }
    let shard = options.shard.map_or("1/1".to_string(), |s| {
        format!("{}/{}", s.index + 1, s.count)
    });
    Ok(ExplainReport {
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
    fn identity(&self) -> [(&'static str, String); 7] {
        [
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
        writeln!(f, "{}", self.sum_sentence())
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
}
