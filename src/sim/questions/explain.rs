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
//! run add up to exactly the whole run's report. A field's two
//! measurements (at A and at B) are of the same seeds, so they are
//! combined per game (with their cross product kept): with one differing
//! field the field is the whole difference, figure for figure. Intervals
//! are [`adjusted_paired_mean`]'s, which never collapse to a point.
//!
//! Games are played a chunk of seeds at a time under every rule set, and
//! only the counts are kept: memory does not grow with the games.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rule_fields::{FieldValue, RuleField, rule_differences};
use crate::scenario::rules::RuleSet;
use crate::sim::questions::sweep::{Axis, AxisError, Knob, PlanError, knob};
use crate::sim::runs::cluster::Shard;
use crate::sim::runs::merge::MergeError;
use crate::sim::runs::options::{GameRange, SimOptions};
use crate::sim::runs::stats::{PairedDifference, adjusted_paired_mean};
use crate::sim::{Cancelled, Progress, play_one};
use rayon::prelude::*;

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

    /// These counts and `other`'s added up; `None` when a sum overflows
    /// (counts no run could have).
    fn checked_add(&self, other: &PairCounts) -> Option<PairCounts> {
        Some(PairCounts {
            pairs: self.pairs.checked_add(other.pairs)?,
            caesar_only_first: self
                .caesar_only_first
                .checked_add(other.caesar_only_first)?,
            caesar_only_second: self
                .caesar_only_second
                .checked_add(other.caesar_only_second)?,
            years_diff_sum: self.years_diff_sum.checked_add(other.years_diff_sum)?,
            years_diff_squares: self
                .years_diff_squares
                .checked_add(other.years_diff_squares)?,
        })
    }

    fn add(&mut self, other: &PairCounts) {
        *self = self
            .checked_add(other)
            .expect("the counts of games played fit in 64 bits");
    }

    /// Σ of the per-game difference in Caesar's win (first − second), and
    /// Σ of its square: the games only one of the two had Caesar win.
    fn caesar_moments(&self) -> (f64, f64) {
        let (b, c) = (
            self.caesar_only_first as f64,
            self.caesar_only_second as f64,
        );
        (b - c, b + c)
    }

    /// First minus second in Caesar's share of wins, paired by seed.
    pub fn caesar(&self) -> PairedDifference {
        let (sum, squares) = self.caesar_moments();
        adjusted_paired_mean(sum, squares, self.pairs, 1.0)
    }

    /// First minus second in years played.
    pub fn years(&self) -> PairedDifference {
        adjusted_paired_mean(
            self.years_diff_sum as f64,
            self.years_diff_squares as f64,
            self.pairs,
            f64::INFINITY,
        )
    }

    /// What no run can have counted: more games with a difference than
    /// games, or years whose squares cannot hold their sum.
    fn impossible(&self) -> Option<String> {
        let changed = self.caesar_only_first.checked_add(self.caesar_only_second);
        if changed.is_none_or(|c| c > self.pairs) {
            return Some(format!(
                "{} + {} games changed Caesar's result of {} games",
                self.caesar_only_first, self.caesar_only_second, self.pairs
            ));
        }
        // Each game's difference in years d is an integer: |Σd| ≤ Σd² and
        // (Σd)² ≤ n·Σd².
        let sum = self.years_diff_sum.unsigned_abs();
        let squares = self.years_diff_squares;
        if sum > squares
            || u128::from(sum) * u128::from(sum) > u128::from(self.pairs) * u128::from(squares)
        {
            return Some(format!(
                "the years' differences sum to {} with squares {} over {} games",
                self.years_diff_sum, squares, self.pairs
            ));
        }
        None
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
    /// Σ over the games of the product of the two switches' differences in
    /// Caesar's win (each −1, 0 or 1): with `at_a` and `at_b` it gives the
    /// variance of their mean per game (they are of the same seeds).
    pub cross: i64,
    /// Games in which either switch changed Caesar's result (at most the
    /// games; a game changed at A and at B counts once).
    pub games_changed: u64,
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
    /// The mean of the two per game (the same seeds), with its interval:
    /// with one differing field, the whole difference's.
    pub both: PairedDifference,
    /// The two measurements disagree beyond their interval (of their
    /// difference per game): the field's effect depends on the other
    /// fields' values.
    pub interacting: bool,
}

impl FieldCounts {
    pub fn effect(&self) -> FieldEffect {
        let [both, gap] = two_switches(&self.at_a, &self.at_b, self.cross);
        FieldEffect {
            both,
            interacting: gap.significant,
            at_a: self.at_a.caesar(),
            at_b: self.at_b.caesar(),
        }
    }

    /// Counts a chunk of games, each slice in game order: A, B, A with
    /// B's value, B with A's value. Adds each game's difference at A to
    /// `sums` (the sum of the fields).
    fn count(&mut self, [at_a, at_b, a_with_b, b_with_a]: [&[Outcome]; 4], sums: &mut [i64]) {
        self.at_a.add(&PairCounts::of(a_with_b, at_a));
        self.at_b.add(&PairCounts::of(at_b, b_with_a));
        for g in 0..at_a.len() {
            let at_a_g = won(&a_with_b[g]) - won(&at_a[g]);
            let at_b_g = won(&at_b[g]) - won(&b_with_a[g]);
            self.cross += at_a_g * at_b_g;
            self.games_changed += u64::from(at_a_g != 0 || at_b_g != 0);
            sums[g] += at_a_g;
        }
    }

    /// A change to the setup (`deploy:…`, `strength:…`) rather than a rule
    /// field: rule fields' names hold no colon.
    pub fn is_setup_change(&self) -> bool {
        self.field.contains(':')
    }
}

/// Two measurements of one effect over the same games, each a paired
/// difference in Caesar's win (Σx, Σx² of x and of y, and Σxy): their
/// mean per game, (x + y) / 2, and their difference per game, x − y, each
/// with its interval. Where x = y game by game the mean is x itself.
fn two_measurements(
    n: u64,
    (sum_x, squares_x): (f64, f64),
    (sum_y, squares_y): (f64, f64),
    cross: f64,
    bound: f64,
) -> [PairedDifference; 2] {
    let mean = adjusted_paired_mean(
        (sum_x + sum_y) / 2.0,
        (squares_x + squares_y + 2.0 * cross) / 4.0,
        n,
        bound,
    );
    let gap = adjusted_paired_mean(
        sum_x - sum_y,
        squares_x + squares_y - 2.0 * cross,
        n,
        2.0 * bound,
    );
    [mean, gap]
}

/// A switch made at A and the same at B, over the same games, with the
/// cross product of their differences: [mean, difference].
fn two_switches(at_a: &PairCounts, at_b: &PairCounts, cross: i64) -> [PairedDifference; 2] {
    // A field that could not be switched alone has no games at all.
    let n = at_a.pairs.max(at_b.pairs);
    two_measurements(
        n,
        at_a.caesar_moments(),
        at_b.caesar_moments(),
        cross as f64,
        1.0,
    )
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
    /// Per game, the fields' differences in Caesar's win when switched
    /// alone at A, added up: the sum of the fields, with its interval.
    pub sum_at_a: Moments,
    /// Per game, that sum less the whole difference: whether the parts
    /// make the whole.
    pub parts_less_whole: Moments,
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

/// The fewest games per rule set an explanation plays: fewer leave every
/// interval as wide as the range.
pub const MIN_GAMES: u64 = 10;

/// The most games per rule set an explanation plays (counts of games and
/// their sums stay far inside 64 bits; no machine plays more).
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// Why a number of games cannot be explained.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GamesError {
    #[error(
        "--games {0}: explain needs at least {MIN_GAMES} games per rule set: with fewer, every field's interval is about as wide as the whole range"
    )]
    TooFew(u64),
    #[error(
        "--games {0}: explain plays at most {MAX_GAMES} games per rule set (and every differing field plays two more rule sets)"
    )]
    TooMany(u64),
    #[error(
        "{games} games per rule set over {rule_sets} rule sets is more games than can be counted"
    )]
    Overflow { games: u64, rule_sets: u64 },
}

/// Refuses a run of fewer than [`MIN_GAMES`] or more than [`MAX_GAMES`]
/// games per rule set.
pub fn check_games(run_games: u64) -> Result<(), GamesError> {
    if run_games < MIN_GAMES {
        Err(GamesError::TooFew(run_games))
    } else if run_games > MAX_GAMES {
        Err(GamesError::TooMany(run_games))
    } else {
        Ok(())
    }
}

/// `games` per rule set times `rule_sets`, refused when it does not fit.
pub fn total_games(games: u64, rule_sets: u64) -> Result<u64, GamesError> {
    games
        .checked_mul(rule_sets)
        .ok_or(GamesError::Overflow { games, rule_sets })
}

/// A finished explanation. Only counts are kept; pairs of fields are
/// measured by playing their seeds again ([`Explained::measure_pairs`]).
pub struct Explained {
    pub report: ExplainReport,
}

/// Seeds played at once under every rule set of a pass: memory holds this
/// many games' results per rule set, whatever the run's size.
const CHUNK: u64 = 256;

/// Plays the options' games under every rule set of `games`, a chunk of
/// seeds at a time, and hands each chunk's results (per rule set, per
/// game in order) to `fold`. Games of rule sets marked `false` are played
/// again (their results are needed) and do not count on `progress`.
fn play_in_chunks(
    games: &[(&Game, bool)],
    options: &SimOptions,
    progress: &Progress,
    mut fold: impl FnMut(&[Vec<Outcome>]),
) -> Result<(), Cancelled> {
    let range = options.game_range();
    let mut start = range.start;
    while start < range.end {
        let end = start.saturating_add(CHUNK).min(range.end);
        let width = (end - start) as usize;
        let flat: Vec<Option<Outcome>> = (0..games.len() * width)
            .into_par_iter()
            .map(|k| {
                if progress.is_cancelled() {
                    return None;
                }
                let (game, counted) = games[k / width];
                let g = play_one(game, options, start + (k % width) as u64);
                if counted {
                    progress.tick();
                }
                Some(Outcome {
                    caesar_won: g.winner == Some(Side::Caesar),
                    years: g.year,
                })
            })
            .collect();
        let flat: Vec<Outcome> = flat.into_iter().collect::<Option<_>>().ok_or(Cancelled)?;
        let chunk: Vec<Vec<Outcome>> = flat.chunks(width).map(<[Outcome]>::to_vec).collect();
        fold(&chunk);
        start = end;
    }
    Ok(())
}

/// 1 when Caesar won, else 0.
fn won(o: &Outcome) -> i64 {
    i64::from(o.caesar_won)
}

/// Plays the explanation on the current rayon pool.
pub fn explain(
    setup: &ExplainSetup<'_>,
    options: &SimOptions,
    progress: &Progress,
) -> Result<ExplainReport, Cancelled> {
    explain_keeping_games(setup, options, progress).map(|e| e.report)
}

/// The explanation's rows, empty: each rule field that differs, then each
/// setup change; and per field A with B's value and B with A's value, when
/// both play.
fn fields_to_explain(setup: &ExplainSetup<'_>) -> (Vec<FieldCounts>, Vec<Option<[Game; 2]>>) {
    let (a, b) = (setup.a, setup.b);
    let mut fields = Vec::new();
    let mut switched_games: Vec<Option<[Game; 2]>> = Vec::new();
    for (field, a_value, b_value) in rule_differences(&a.rules, &b.rules) {
        let mut counts = FieldCounts {
            field: field.name.to_string(),
            rule: field.rule.to_string(),
            explain: field.explain.to_string(),
            a_value: a_value.to_string(),
            b_value: b_value.to_string(),
            at_a: PairCounts::default(),
            at_b: PairCounts::default(),
            cross: 0,
            games_changed: 0,
            not_alone: None,
        };
        match (switched(a, field, &b_value), switched(b, field, &a_value)) {
            (Ok(a_with_b), Ok(b_with_a)) => switched_games.push(Some([a_with_b, b_with_a])),
            (Err(why), _) | (_, Err(why)) => {
                counts.not_alone = Some(why.to_string());
                switched_games.push(None);
            }
        }
        fields.push(counts);
    }
    for change in setup.setup_changes {
        fields.push(FieldCounts {
            field: change.key.clone(),
            rule: "setup".to_string(),
            explain: change.words(),
            a_value: change.before.clone(),
            b_value: change.after.clone(),
            at_a: PairCounts::default(),
            at_b: PairCounts::default(),
            cross: 0,
            games_changed: 0,
            not_alone: None,
        });
    }
    (fields, switched_games)
}

/// A field's two switched games' places among those played, or `None`
/// when it cannot be switched alone.
type Slot = Option<[usize; 2]>;

/// Every rule set played: A, B, then each field's two switches (its
/// places among them, or `None` when it cannot be switched alone), then each
/// setup change's two.
fn games_to_play<'g>(
    setup: &'g ExplainSetup<'g>,
    switched_games: &'g [Option<[Game; 2]>],
) -> (Vec<(&'g Game, bool)>, Vec<Slot>) {
    let mut played: Vec<(&Game, bool)> = vec![(setup.a, true), (setup.b, true)];
    let mut slots: Vec<Slot> = Vec::new();
    let pairs_of_games = switched_games
        .iter()
        .map(|g| g.as_ref().map(|[x, y]| [x, y]))
        .chain(
            setup
                .setup_changes
                .iter()
                .map(|c| Some([&c.at_a, &c.b_without])),
        );
    for games in pairs_of_games {
        slots.push(games.map(|[x, y]| {
            played.extend([(x, true), (y, true)]);
            [played.len() - 2, played.len() - 1]
        }));
    }
    (played, slots)
}

/// Plays the explanation, ready for [`Explained::measure_pairs`].
pub fn explain_keeping_games(
    setup: &ExplainSetup<'_>,
    options: &SimOptions,
    progress: &Progress,
) -> Result<Explained, Cancelled> {
    let (a, b) = (setup.a, setup.b);
    let (mut fields, switched_games) = fields_to_explain(setup);
    let (played, slots) = games_to_play(setup, &switched_games);
    let mut total = PairCounts::default();
    let (mut sum_at_a, mut parts_less_whole) = (Moments::default(), Moments::default());
    play_in_chunks(&played, options, progress, |chunk| {
        let (at_a, at_b) = (&chunk[0], &chunk[1]);
        total.add(&PairCounts::of(at_b, at_a));
        let mut sums = vec![0i64; at_a.len()];
        for (counts, slot) in fields.iter_mut().zip(&slots) {
            if let Some([x, y]) = *slot {
                counts.count([at_a, at_b, &chunk[x], &chunk[y]], &mut sums);
            }
        }
        sum_at_a.add(&Moments::of(sums.iter().copied()));
        parts_less_whole.add(&Moments::of(
            (0..at_a.len()).map(|g| sums[g] - (won(&at_b[g]) - won(&at_a[g]))),
        ));
    })?;
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
        total,
        fields,
        sum_at_a,
        parts_less_whole,
        setup_changes: setup.setup_changes.iter().map(|c| c.text.clone()).collect(),
        pairs: Vec::new(),
    };
    Ok(Explained { report })
}

/// Which pairs of fields an explanation switches together, after its
/// fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pairs {
    None,
    /// Those its fields mark as interacting ([`ExplainReport::flagged_pairs`]).
    Flagged,
    /// These ([`read_pairs`]).
    Named(Vec<[String; 2]>),
}

impl ExplainSetup<'_> {
    /// Games of one explanation's fields: every rule set it plays (A, B,
    /// each differing field and each setup change at A and at B) over
    /// `options`' games. Its pairs come on top once known
    /// ([`Progress::more`]).
    pub fn games(&self, options: &SimOptions) -> Result<u64, GamesError> {
        let range = options.game_range();
        let rule_sets =
            rule_sets_played(&self.a.rules, &self.b.rules) + 2 * self.setup_changes.len() as u64;
        total_games(range.end - range.start, rule_sets)
    }

    /// The one explanation run, which the command line and the window
    /// both play: the fields with `options`' players, then `pairs`, whose
    /// games are added to `progress`'s total when they are known.
    pub fn play(
        &self,
        pairs: &Pairs,
        options: &SimOptions,
        progress: &Progress,
    ) -> Result<ExplainReport, Cancelled> {
        let mut explained = explain_keeping_games(self, options, progress)?;
        let pairs = match pairs {
            Pairs::None => return Ok(explained.report),
            Pairs::Flagged => explained.report.flagged_pairs(),
            Pairs::Named(named) => named.clone(),
        };
        if pairs.is_empty() {
            return Ok(explained.report);
        }
        let range = options.game_range();
        progress.plan_more(2 * pairs.len() as u64 * (range.end - range.start));
        explained.measure_pairs(self, &pairs, options, progress)?;
        Ok(explained.report)
    }

    /// [`ExplainSetup::play`] at two rungs of players, the lower first.
    pub fn play_rungs(
        &self,
        pairs: &Pairs,
        rungs: [&SimOptions; 2],
        progress: &Progress,
    ) -> Result<ExplainLadder, Cancelled> {
        let lower = self.play(pairs, rungs[0], progress)?;
        let upper = self.play(pairs, rungs[1], progress)?;
        Ok(ExplainLadder::new(rungs.map(players_label), [lower, upper]))
    }
}

/// A run's players in words: one name when one player plays both sides.
pub fn players_label(options: &SimOptions) -> String {
    if options.caesar == options.pompey {
        options.caesar.to_string()
    } else {
        format!("{} (Caesar), {} (Pompey)", options.caesar, options.pompey)
    }
}

/// Why a field (or a pair) is not played switched.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotSwitched {
    #[error(transparent)]
    Field(#[from] crate::scenario::rule_fields::FieldError),
    /// What the engine cannot play with the field switched.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Unplayable(Vec<crate::scenario::playable::Unplayable>),
    #[error("not two rule fields of this explanation")]
    NotHere,
}

/// `base` with `field` set to `value`, if the engine plays it.
fn switched(base: &Game, field: &RuleField, value: &FieldValue) -> Result<Game, NotSwitched> {
    let rules = base.rules.with_field(field, value)?;
    Game::try_new(base.scenario.clone(), Arc::new(rules)).map_err(NotSwitched::Unplayable)
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
    /// A report that does not check out, shards that overlap, counts that
    /// overflow.
    #[error("{0}")]
    Check(#[from] MergeError),
}

impl ExplainReport {
    /// What makes two reports shards of one run.
    fn identity(&self) -> [(&'static str, String); 10] {
        let pairs: Vec<&[String; 2]> = self.pairs.iter().map(|p| &p.fields).collect();
        let fields: Vec<&str> = self.fields.iter().map(|f| f.field.as_str()).collect();
        [
            ("fields", format!("{fields:?}")),
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

    /// The game ranges of this report from its shards, checked: inside the
    /// run, none overlapping, and as many games as it counts.
    pub fn ranges(&self) -> Result<Vec<GameRange>, MergeError> {
        let damaged = |what: String| Err(MergeError::Damaged(what));
        if self.run_games == 0 || self.run_games > MAX_GAMES {
            return damaged(format!(
                "run_games is {}: a run has 1 to {MAX_GAMES} games",
                self.run_games
            ));
        }
        let mut ranges = Vec::new();
        for text in &self.shards {
            let shard: Shard = text
                .parse()
                .map_err(|e| MergeError::Damaged(format!("shards holds {e}")))?;
            if u64::from(shard.count) > self.run_games {
                return damaged(format!(
                    "shard {text} of a {}-game run holds no game",
                    self.run_games
                ));
            }
            ranges.push(GameRange::from(shard.range(self.run_games)));
        }
        if ranges.is_empty() {
            return damaged("the report names no shards".to_string());
        }
        ranges.sort();
        let mut held: u64 = 0;
        for pair in ranges.windows(2) {
            if pair[1].start < pair[0].end {
                return damaged(format!("its shards overlap: {} and {}", pair[0], pair[1]));
            }
        }
        for r in &ranges {
            held += r.len();
        }
        if held != self.total.pairs {
            return damaged(format!(
                "its shards hold {held} games but it counts {} (total.pairs)",
                self.total.pairs
            ));
        }
        Ok(ranges)
    }

    /// The games of the run this report does not hold (none when complete).
    pub fn missing_games(&self) -> Vec<GameRange> {
        GameRange::missing(&self.ranges().unwrap_or_default(), self.run_games)
    }

    /// Checks a report as read from a file: its shards inside the run and
    /// every count possible for the games it holds. Says what is wrong.
    pub fn check(&self) -> Result<Vec<GameRange>, MergeError> {
        let damaged = |what: String| Err(MergeError::Damaged(what));
        if self.kind != "explain" {
            return damaged(format!("kind is \"{}\", not \"explain\"", self.kind));
        }
        let ranges = self.ranges()?;
        let games = self.total.pairs;
        if let Some(why) = self.total.impossible() {
            return damaged(format!("total: {why}"));
        }
        // The counts `name` counts `pairs` games of the `expected` ones
        // (`of`: whose) and are possible (no `why`).
        let counted =
            |name: String, (pairs, expected, of): (u64, u64, &str), why: Option<String>| {
                if pairs != expected {
                    return Err(MergeError::Damaged(format!(
                        "{name} counts {pairs} games of {of}{expected}"
                    )));
                }
                match why {
                    Some(why) => Err(MergeError::Damaged(format!("{name}: {why}"))),
                    None => Ok(()),
                }
            };
        let changed = |c: &PairCounts| c.caesar_only_first + c.caesar_only_second;
        for f in &self.fields {
            let expected = if f.not_alone.is_some() { 0 } else { games };
            for (side, c) in [("at_a", &f.at_a), ("at_b", &f.at_b)] {
                let name = format!("{}.{side}", f.field);
                counted(name, (c.pairs, expected, "the report's "), c.impossible())?;
            }
            let (at_a, at_b) = (changed(&f.at_a), changed(&f.at_b));
            if f.games_changed < at_a.max(at_b) || f.games_changed > (at_a + at_b).min(games) {
                return damaged(format!(
                    "{}: games_changed is {} but {at_a} games changed at A and {at_b} at B, of {games}",
                    f.field, f.games_changed
                ));
            }
            // Each game's product of two differences in {-1, 0, 1}.
            if f.cross.unsigned_abs() > changed(&f.at_a).min(changed(&f.at_b)) {
                return damaged(format!(
                    "{}: cross is {} but only {} and {} games changed",
                    f.field,
                    f.cross,
                    changed(&f.at_a),
                    changed(&f.at_b)
                ));
            }
        }
        let k = self.fields.len() as u64;
        for (name, m, bound) in [
            ("sum_at_a", &self.sum_at_a, k.max(1)),
            ("parts_less_whole", &self.parts_less_whole, k + 1),
        ] {
            let why = m.impossible(bound);
            counted(name.to_string(), (m.pairs, games, "the report's "), why)?;
        }
        for p in &self.pairs {
            let [x, y] = &p.fields;
            let expected = if p.not_together.is_some() { 0 } else { games };
            let (a, b) = (&p.together_at_a, &p.together_at_b);
            let (i, j) = (&p.interaction_at_a, &p.interaction_at_b);
            for (side, pairs, why) in [
                ("together_at_a", a.pairs, a.impossible()),
                ("together_at_b", b.pairs, b.impossible()),
                ("interaction_at_a", i.pairs, i.impossible(2)),
                ("interaction_at_b", j.pairs, j.impossible(2)),
            ] {
                counted(format!("{x}+{y}.{side}"), (pairs, expected, ""), why)?;
            }
            let bounds = [
                (
                    "together_cross",
                    p.together_cross.unsigned_abs(),
                    changed(a).min(changed(b)),
                ),
                (
                    "interaction_cross",
                    p.interaction_cross.unsigned_abs(),
                    i.squares.max(j.squares),
                ),
            ];
            for (name, value, most) in bounds {
                if value > most {
                    return damaged(format!("{x}+{y}.{name} is {value}, more than {most}"));
                }
            }
        }
        Ok(ranges)
    }

    /// The shards of one run added up: each report checked
    /// ([`ExplainReport::check`]), and refused when they are of other
    /// runs, overlap or hold a shard twice. The result may still miss
    /// games: see [`ExplainReport::missing_games`].
    pub fn merge_labelled(
        reports: &[(&str, &ExplainReport)],
    ) -> Result<ExplainReport, ExplainMergeError> {
        let (_, first) = reports.first().ok_or(ExplainMergeError::Empty)?;
        let mut ranges: Vec<(GameRange, &str)> = Vec::new();
        for (label, r) in reports {
            let own = r.check().map_err(|e| e.in_report(label))?;
            ranges.extend(own.into_iter().map(|g| (g, *label)));
        }
        ranges.sort();
        MergeError::refuse_overlaps(&ranges)?;
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
            // Disjoint shards of one run hold at most run_games games: the
            // counts of checked reports add up within 64 bits.
            merged.total.add(&r.total);
            merged.sum_at_a.add(&r.sum_at_a);
            merged.parts_less_whole.add(&r.parts_less_whole);
            for (mine, theirs) in merged.fields.iter_mut().zip(&r.fields) {
                mine.at_a.add(&theirs.at_a);
                mine.at_b.add(&theirs.at_b);
                mine.cross += theirs.cross;
                mine.games_changed += theirs.games_changed;
            }
            for (mine, theirs) in merged.pairs.iter_mut().zip(&r.pairs) {
                mine.add(theirs);
            }
        }
        // Every game of the run: the report of the whole run, as one machine writes it.
        if merged.total.pairs == merged.run_games {
            merged.shards = vec!["1/1".to_string()];
        } else {
            merged
                .shards
                .sort_by_key(|s| s.parse::<Shard>().map_or((0, 0), |s| (s.count, s.index)));
        }
        Ok(merged)
    }

    /// The fields by the size of their effect on Caesar's share, largest first.
    pub fn ranked(&self) -> Vec<(&FieldCounts, FieldEffect)> {
        let mut ranked: Vec<_> = self.fields.iter().map(|f| (f, f.effect())).collect();
        ranked.sort_by(|x, y| y.1.both.estimate.abs().total_cmp(&x.1.both.estimate.abs()));
        ranked
    }

    /// The one-at-a-time effects at A added up per game, with the interval
    /// of that sum (the same games as the whole difference).
    pub fn sum_of_fields(&self) -> PairedDifference {
        self.sum_at_a.mean_within(self.fields.len().max(1) as f64)
    }

    /// Whether the sum of the parts and the whole disagree beyond the
    /// interval of their difference per game.
    pub fn parts_miss_the_whole(&self) -> bool {
        self.parts_less_whole
            .mean_within(self.fields.len() as f64 + 1.0)
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
                field.games_changed,
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
    #[error(
        "{key}={value}: that is the setup as written already ({value}), so there is nothing to explain: give another value"
    )]
    NoChange { key: String, value: String },
    #[error("{0}")]
    Axis(#[from] AxisError),
    #[error("{0}")]
    Plan(#[from] PlanError),
}

/// Refuses a rule field among setup changes (those are explained as
/// fields already) and a change with other than one value.
fn one_setup_value_each(changes: &[Axis]) -> Result<(), SetupChangeError> {
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
    Ok(())
}

/// B's game on the setup with every change, and each change as a field,
/// every setup checked by the validator as a sweep's points are.
pub fn plan_setup_changes(
    doc: &ResolvedScenario,
    a: &Game,
    b_rules: &RuleSet,
    changes: &[Axis],
) -> Result<(Game, Vec<SetupChange>), SetupChangeError> {
    one_setup_value_each(changes)?;
    let one_game = |rules: &RuleSet, axes: &[Axis]| -> Result<Game, SetupChangeError> {
        let mut points = crate::sim::questions::sweep::plan(doc, rules, axes)?;
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
        let (before, after) = (setup_value(a, &axis.key), setup_value(&at_a, &axis.key));
        if before == after {
            return Err(SetupChangeError::NoChange {
                key: axis.key.clone(),
                value: after,
            });
        }
        planned.push(SetupChange {
            text: format!("{}={}", axis.key, axis.values[0]),
            key: axis.key.clone(),
            before,
            after,
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

    /// These moments and `other`'s added up; `None` when a sum overflows.
    fn checked_add(&self, other: &Moments) -> Option<Moments> {
        Some(Moments {
            pairs: self.pairs.checked_add(other.pairs)?,
            sum: self.sum.checked_add(other.sum)?,
            squares: self.squares.checked_add(other.squares)?,
        })
    }

    fn add(&mut self, other: &Moments) {
        *self = self
            .checked_add(other)
            .expect("the moments of games played fit in 64 bits");
    }

    /// The mean per game, with its 95% interval (the value within ±`bound`).
    pub fn mean_within(&self, bound: f64) -> PairedDifference {
        adjusted_paired_mean(self.sum as f64, self.squares as f64, self.pairs, bound)
    }

    /// What no run can have counted: values of at most `bound` in size
    /// whose sum and squares disagree with each other or with the games.
    fn impossible(&self, bound: u64) -> Option<String> {
        let sum = self.sum.unsigned_abs();
        let most = u128::from(self.pairs) * u128::from(bound);
        let fits = u128::from(sum) <= most
            && u128::from(self.squares) <= most * u128::from(bound)
            && sum <= self.squares
            && u128::from(sum) * u128::from(sum)
                <= u128::from(self.pairs) * u128::from(self.squares);
        (!fits).then(|| {
            format!(
                "values of at most {bound} a game sum to {} with squares {} over {} games",
                self.sum, self.squares, self.pairs
            )
        })
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
    /// Σ over the games of the product of the two sides' values, for the
    /// pair together and for its interaction: the two sides are the same
    /// seeds, so they are taken as one per game.
    pub together_cross: i64,
    pub interaction_cross: i64,
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
        self.together_cross += other.together_cross;
        self.interaction_cross += other.interaction_cross;
    }

    /// Both fields' effect together, at A and at B taken as one per game.
    pub fn together(&self) -> PairedDifference {
        let [both, _] = two_switches(
            &self.together_at_a,
            &self.together_at_b,
            self.together_cross,
        );
        both
    }

    /// The effect together less the sum of each alone, at A and at B taken
    /// as one per game: zero when the fields do not interact.
    pub fn interaction(&self) -> PairedDifference {
        let moments = |m: &Moments| (m.sum as f64, m.squares as f64);
        let (x, y) = (&self.interaction_at_a, &self.interaction_at_b);
        let [both, _] = two_measurements(
            x.pairs.max(y.pairs),
            moments(x),
            moments(y),
            self.interaction_cross as f64,
            2.0,
        );
        both
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

/// Why a pair named as `FIELD+FIELD` is not one to measure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    #[error("\"{0}\" is not a pair: write FIELD+FIELD, as in mars_group_move+pluto_attacks_only")]
    NotAPair(String),
    #[error("{name} is not a field in which the two rule sets differ{suggestion}")]
    NotDiffering { name: String, suggestion: String },
    #[error("{0}+{0}: a pair takes two different fields")]
    Same(String),
}

/// Checks pairs named as `FIELD+FIELD`: two different rule fields in which
/// A and B differ.
pub fn read_pairs(a: &RuleSet, b: &RuleSet, text: &str) -> Result<Vec<[String; 2]>, PairError> {
    let differing: Vec<&str> = rule_differences(a, b)
        .iter()
        .map(|(f, _, _)| f.name)
        .collect();
    text.split(',')
        .map(|pair| {
            let (x, y) = pair
                .trim()
                .split_once('+')
                .ok_or_else(|| PairError::NotAPair(pair.to_string()))?;
            let (x, y) = (x.trim(), y.trim());
            for name in [x, y] {
                if !differing.contains(&name) {
                    return Err(PairError::NotDiffering {
                        name: name.to_string(),
                        suggestion: crate::scenario::names::did_you_mean(
                            name,
                            differing.iter().copied(),
                        ),
                    });
                }
            }
            if x == y {
                return Err(PairError::Same(x.to_string()));
            }
            Ok([x.to_string(), y.to_string()])
        })
        .collect()
}

/// A pair's games (A with both of B's values, B with both of A's) and its
/// fields' places among the fields played alone, or why it cannot be played.
type PlannedPair = Result<([Game; 2], [usize; 2]), NotSwitched>;

impl Explained {
    /// Plays each pair switched together at A and at B over the same seeds
    /// and adds it to the report. Pairs come from [`read_pairs`] or
    /// [`ExplainReport::flagged_pairs`]. The games of A, B and each
    /// field alone are played again alongside (only counts were kept); only
    /// the pairs' own games count on `progress`.
    pub fn measure_pairs(
        &mut self,
        setup: &ExplainSetup<'_>,
        pairs: &[[String; 2]],
        options: &SimOptions,
        progress: &Progress,
    ) -> Result<(), Cancelled> {
        let (alone, planned) = self.plan_pairs(setup, pairs);
        // Every rule set played: A, B, each field alone (again, uncounted),
        // then each pair's two (counted).
        let mut played: Vec<(&Game, bool)> = vec![(setup.a, false), (setup.b, false)];
        for (_, [x, y]) in &alone {
            played.extend([(x, false), (y, false)]);
        }
        let mut measured: Vec<PairInteraction> = pairs
            .iter()
            .zip(&planned)
            .map(|([x, y], plan)| PairInteraction {
                fields: [x.clone(), y.clone()],
                together_at_a: PairCounts::default(),
                together_at_b: PairCounts::default(),
                interaction_at_a: Moments::default(),
                interaction_at_b: Moments::default(),
                together_cross: 0,
                interaction_cross: 0,
                not_together: plan.as_ref().err().map(ToString::to_string),
            })
            .collect();
        let mut slots: Vec<Option<(usize, [usize; 2])>> = Vec::new();
        for plan in &planned {
            slots.push(plan.as_ref().ok().map(|([a_both, b_neither], fields)| {
                played.extend([(a_both, true), (b_neither, true)]);
                (played.len() - 2, *fields)
            }));
        }
        play_in_chunks(&played, options, progress, |chunk| {
            for (pair, slot) in measured.iter_mut().zip(&slots) {
                if let Some((both, fields)) = *slot {
                    pair.add_chunk(chunk, both, fields);
                }
            }
        })?;
        self.report.pairs.extend(measured);
        Ok(())
    }

    /// Each field of a pair alone at A and at B, once for all pairs, and per
    /// pair its games (A with both of B's values, B with both of A's) and
    /// its fields' places among those alone, or why not.
    fn plan_pairs(
        &self,
        setup: &ExplainSetup<'_>,
        pairs: &[[String; 2]],
    ) -> (Vec<(String, [Game; 2])>, Vec<PlannedPair>) {
        let differences = rule_differences(&setup.a.rules, &setup.b.rules);
        let mut alone: Vec<(String, [Game; 2])> = Vec::new();
        let mut planned: Vec<PlannedPair> = Vec::new();
        for [x, y] in pairs {
            let find = |name: &str| {
                self.report
                    .fields
                    .iter()
                    .find(|f| f.field == name && f.not_alone.is_none())?;
                differences.iter().find(|(f, _, _)| f.name == name)
            };
            let (Some(fx), Some(fy)) = (find(x), find(y)) else {
                planned.push(Err(NotSwitched::NotHere));
                continue;
            };
            let both = |base: &Game, to_b: bool| {
                let value = |f: &(&RuleField, FieldValue, FieldValue)| {
                    if to_b { f.2.clone() } else { f.1.clone() }
                };
                switched(base, fx.0, &value(fx)).and_then(|g| switched(&g, fy.0, &value(fy)))
            };
            let games = match (both(setup.a, true), both(setup.b, false)) {
                (Ok(a_both), Ok(b_neither)) => [a_both, b_neither],
                (Err(why), _) | (_, Err(why)) => {
                    planned.push(Err(why));
                    continue;
                }
            };
            let mut place =
                |f: &(&RuleField, FieldValue, FieldValue)| -> Result<usize, NotSwitched> {
                    if let Some(at) = alone.iter().position(|(name, _)| name == f.0.name) {
                        return Ok(at);
                    }
                    let a_with_b = switched(setup.a, f.0, &f.2)?;
                    let b_with_a = switched(setup.b, f.0, &f.1)?;
                    alone.push((f.0.name.to_string(), [a_with_b, b_with_a]));
                    Ok(alone.len() - 1)
                };
            planned.push(place(fx).and_then(|i| Ok((games, [i, place(fy)?]))));
        }
        (alone, planned)
    }
}

impl PairInteraction {
    /// Adds a chunk of games: `chunk[0]` and `chunk[1]` are A's and B's,
    /// `chunk[both]` and the next the pair's two, and the fields alone at
    /// `2 + 2 * i` (A's side) and the next (B's side).
    fn add_chunk(&mut self, chunk: &[Vec<Outcome>], both: usize, [i, j]: [usize; 2]) {
        let (at_a, at_b) = (&chunk[0], &chunk[1]);
        let (a_both, b_neither) = (&chunk[both], &chunk[both + 1]);
        let alone_x = [&chunk[2 + 2 * i], &chunk[3 + 2 * i]];
        let alone_y = [&chunk[2 + 2 * j], &chunk[3 + 2 * j]];
        self.together_at_a.add(&PairCounts::of(a_both, at_a));
        self.together_at_b.add(&PairCounts::of(at_b, b_neither));
        let n = at_a.len();
        // Per game: both fields switched, less each alone, plus neither;
        // from A's side, and the same from B's side (B has both, B with A's
        // value of one has only the other).
        let at_a_side: Vec<i64> = (0..n)
            .map(|g| won(&a_both[g]) - won(&alone_x[0][g]) - won(&alone_y[0][g]) + won(&at_a[g]))
            .collect();
        let at_b_side: Vec<i64> = (0..n)
            .map(|g| won(&at_b[g]) - won(&alone_x[1][g]) - won(&alone_y[1][g]) + won(&b_neither[g]))
            .collect();
        self.interaction_at_a
            .add(&Moments::of(at_a_side.iter().copied()));
        self.interaction_at_b
            .add(&Moments::of(at_b_side.iter().copied()));
        for g in 0..n {
            self.interaction_cross += at_a_side[g] * at_b_side[g];
            self.together_cross +=
                (won(&a_both[g]) - won(&at_a[g])) * (won(&at_b[g]) - won(&b_neither[g]));
        }
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
    /// The two players against each other under rule set A, when played:
    /// whether the strongest rung is measured stronger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<RungStrength>,
}

/// The strongest rung against the second under rule set A, each on each
/// side over the same seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RungStrength {
    /// Games played, both sides together, and those the strongest rung won.
    pub games: u64,
    pub top_wins: u64,
}

/// What the rungs' match says of their order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RungOrder {
    /// The strongest rung won more than half its games, beyond the interval.
    Stronger,
    /// Within the interval of half: no order measured.
    NotMeasured,
    /// The second rung won more than half, beyond the interval: the rungs
    /// are out of order.
    Weaker,
}

impl RungStrength {
    /// The strongest rung's share of the games with its 95% interval.
    pub fn share(&self) -> crate::sim::runs::stats::Estimate {
        crate::sim::runs::stats::Estimate::of(self.top_wins, self.games)
    }

    pub fn order(&self) -> RungOrder {
        let share = self.share();
        if share.ci95[0] > 0.5 {
            RungOrder::Stronger
        } else if share.ci95[1] < 0.5 {
            RungOrder::Weaker
        } else {
            RungOrder::NotMeasured
        }
    }

    /// "P won 61.0% (55.2–66.5%) of 200 games against Q under A".
    pub fn sentence(&self, players: &[String; 2], variant: &str) -> String {
        let [p, q] = players;
        format!(
            "{q} won {} of {} games against {p} under {variant} (each on each side)",
            self.share().percent_text(0),
            self.games
        )
    }
}

/// Plays the strongest rung against the second under `game`'s rules, each
/// on each side over `options`' seeds (its players are replaced).
pub fn measure_rung_strength(
    game: &Game,
    [second, top]: [&crate::ai::AiSpec; 2],
    options: &SimOptions,
    progress: &Progress,
) -> Result<RungStrength, Cancelled> {
    let mut strength = RungStrength {
        games: 0,
        top_wins: 0,
    };
    for (caesar, pompey, top_side) in [(top, second, Side::Caesar), (second, top, Side::Pompey)] {
        let sides = SimOptions {
            caesar: caesar.clone(),
            pompey: pompey.clone(),
            ..options.clone()
        };
        crate::sim::simulate(game, &game.rules.name, &sides, progress, |g| {
            strength.games += 1;
            strength.top_wins += u64::from(g.winner == Some(top_side));
        })?;
    }
    Ok(strength)
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
            strength: None,
        }
    }

    /// The same, with the rungs' match against each other.
    pub fn with_strength(mut self, strength: RungStrength) -> ExplainLadder {
        self.strength = Some(strength);
        self
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

    /// Whether the explanation moves with the player, in one sentence. It
    /// speaks of a stronger player only when the strongest rung was
    /// measured stronger than the second.
    pub fn verdict(&self) -> &'static str {
        let stronger = self
            .strength
            .is_some_and(|s| s.order() == RungOrder::Stronger);
        match (self.all_agree(), stronger) {
            (true, true) => {
                "Every field's effect agrees between the two players: a stronger player is unlikely to change the explanation."
            }
            (true, false) => {
                "Every field's effect agrees between the two players, but neither was measured stronger than the other: this says nothing of a stronger player."
            }
            (false, _) => {
                "Some fields' effects differ between the two players: the explanation still moves with the player."
            }
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
        if let Some(strength) = &self.strength {
            writeln!(
                f,
                "{}",
                strength.sentence(&self.players, &self.rungs[1].variants[0])
            )?;
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
            cross: 0,
            games_changed: 0,
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

    /// A field counted from games given as [A, B, A with B's value, B with
    /// A's value], one array per game.
    fn field_of_games(games: &[[Outcome; 4]]) -> FieldCounts {
        let column = |i: usize| games.iter().map(|g| g[i]).collect::<Vec<_>>();
        let (a, b, ab, ba) = (column(0), column(1), column(2), column(3));
        let mut f = field(PairCounts::default(), PairCounts::default());
        f.count([&a, &b, &ab, &ba], &mut vec![0; games.len()]);
        f
    }

    #[test]
    fn with_one_differing_field_the_field_is_the_whole_difference() {
        // One field: A with B's value is B, B with A's value is A.
        let won = |caesar_won| Outcome {
            caesar_won,
            years: 3,
        };
        let games: Vec<[Outcome; 4]> = (0..40)
            .map(|g| {
                let (a, b) = (won(g % 3 == 0), won(g % 3 == 0 || g % 7 == 1));
                [a, b, b, a]
            })
            .collect();
        let f = field_of_games(&games);
        let whole = f.at_a.caesar();
        let effect = f.effect();
        assert_eq!(effect.both, whole, "the same games give the same figure");
        assert!(!effect.interacting);
        assert!(whole.ci95[1] > whole.ci95[0]);
        // The same counts taken as independent (no cross product) give an
        // interval too narrow (by √2 but for the two pseudo-games).
        let independent = field(f.at_a, f.at_b).effect().both;
        let width = |d: &PairedDifference| d.ci95[1] - d.ci95[0];
        assert!(
            width(&independent) < 0.85 * width(&whole),
            "{independent:?} {whole:?}"
        );
    }

    /// The share of `runs` intervals that held zero is about the 95% it
    /// should be (printed, to see how near).
    fn assert_nominal_coverage(what: &str, share: f64, runs: u32) {
        eprintln!("{what}: {:.1}% of {runs}", 100.0 * share);
        assert!(
            (0.93..=0.97).contains(&share),
            "{what}: {:.1}% of {runs} intervals hold zero",
            100.0 * share
        );
    }

    /// How often the nominal 95% intervals (of a field's effect, of the
    /// interaction test, of the whole) hold zero over `runs` runs of
    /// `games` games of a null difference drawn by `draw`.
    fn null_coverage(
        runs: u32,
        games: usize,
        mut draw: impl FnMut(&mut rand_chacha::ChaCha8Rng) -> [Outcome; 4],
    ) -> [f64; 3] {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(54);
        let mut covered = [0u32; 3];
        for _ in 0..runs {
            let games: Vec<[Outcome; 4]> = (0..games).map(|_| draw(&mut rng)).collect();
            let f = field_of_games(&games);
            let effect = f.effect();
            let holds_zero = |d: &PairedDifference| d.ci95[0] <= 0.0 && 0.0 <= d.ci95[1];
            covered[0] += u32::from(holds_zero(&effect.both));
            covered[1] += u32::from(!effect.interacting);
            covered[2] += u32::from(holds_zero(&f.at_a.caesar()));
        }
        covered.map(|c| f64::from(c) / f64::from(runs))
    }

    /// A game's result drawn with Caesar's chance `p`; `like` kept with
    /// chance `keep` (the same seed often plays alike), else drawn afresh.
    fn outcome_near(
        rng: &mut rand_chacha::ChaCha8Rng,
        like: Outcome,
        keep: f64,
        p: f64,
    ) -> Outcome {
        use rand::RngExt;
        if rng.random_bool(keep) {
            like
        } else {
            Outcome {
                caesar_won: rng.random_bool(p),
                years: 5,
            }
        }
    }

    #[test]
    fn over_runs_of_a_null_difference_the_95_percent_intervals_hold_zero_95_percent_of_the_time() {
        use rand::RngExt;
        // One field that changes games but not Caesar's chances (so the
        // two switches are the same games): 2000 runs of 100 games.
        let one_field = null_coverage(2000, 100, |rng| {
            let a = Outcome {
                caesar_won: rng.random_bool(0.5),
                years: 5,
            };
            let b = outcome_near(rng, a, 0.3, 0.5);
            [a, b, b, a]
        });
        // A field among others: its two switches are different games,
        // correlated through the shared seed.
        let among_others = null_coverage(2000, 100, |rng| {
            let a = Outcome {
                caesar_won: rng.random_bool(0.4),
                years: 5,
            };
            let b = outcome_near(rng, a, 0.2, 0.4);
            [
                a,
                b,
                outcome_near(rng, a, 0.3, 0.4),
                outcome_near(rng, b, 0.3, 0.4),
            ]
        });
        // One field never interacts with itself: its two switches are the
        // same games.
        assert_eq!(one_field[1], 1.0);
        let figures = [
            ("one field, the field", one_field[0]),
            ("one field, at A", one_field[2]),
            ("among others, the field", among_others[0]),
            ("among others, no interaction", among_others[1]),
            ("among others, at A", among_others[2]),
        ];
        for (what, c) in figures {
            assert_nominal_coverage(what, c, 2000);
        }
    }

    #[test]
    fn the_ladder_speaks_of_a_stronger_player_only_when_one_was_measured_stronger() {
        let quiet = || named("x", counts(10, 10, 400), counts(10, 10, 400));
        let ladder = ExplainLadder::new(
            ["p".into(), "q".into()],
            [report_of(vec![quiet()]), report_of(vec![quiet()])],
        );
        assert!(ladder.all_agree());
        let unmeasured = ladder.verdict();
        assert!(
            !unmeasured.contains("a stronger player is unlikely"),
            "{unmeasured}"
        );
        let even = RungStrength {
            games: 400,
            top_wins: 205,
        };
        assert_eq!(even.order(), RungOrder::NotMeasured);
        let ladder = ladder.with_strength(even);
        assert_eq!(ladder.verdict(), unmeasured);
        let stronger = RungStrength {
            games: 400,
            top_wins: 260,
        };
        assert_eq!(stronger.order(), RungOrder::Stronger);
        let ladder = ladder.with_strength(stronger);
        assert!(ladder.verdict().contains("a stronger player is unlikely"));
        assert!(ladder.to_string().contains("q won 65.0%"), "{ladder}");
        let weaker = RungStrength {
            games: 400,
            top_wins: 140,
        };
        assert_eq!(weaker.order(), RungOrder::Weaker);
    }

    #[test]
    fn games_changed_counts_a_game_changed_at_both_switches_once() {
        let won = |caesar_won| Outcome {
            caesar_won,
            years: 3,
        };
        // Game 0 changed at A and at B, game 1 at A only, game 2 at neither.
        let f = field_of_games(&[
            [won(false), won(true), won(true), won(false)],
            [won(false), won(false), won(true), won(false)],
            [won(true), won(true), won(true), won(true)],
        ]);
        assert_eq!(f.games_changed, 2);
        assert_eq!(f.cross, 1);
        let report = report_of(vec![f]);
        let row = report.csv().lines().nth(1).unwrap().to_string();
        assert!(row.ends_with(",false,2,"), "{row}");
    }

    #[test]
    fn over_200_runs_of_real_games_of_a_null_difference_the_intervals_hold_zero_93_to_97_percent() {
        // The same rule set played over two disjoint sets of seeds by random
        // players: games that differ, with no difference in Caesar's
        // chances. Each run pairs 40 games of one with 40 of the other, as
        // a one-field variant pairs A with B (the field is the whole).
        let game = crate::scenario::checked::CheckedScenario::from_document(
            &crate::scenario::historical(),
            RuleSet::builtin("rules-2.0"),
            None,
        )
        .map(Game::from_checked)
        .unwrap();
        let options = SimOptions::new(
            16_000,
            54,
            crate::ai::AiSpec::Random,
            crate::ai::AiSpec::Random,
        );
        let outcomes: Vec<Outcome> = (0..options.games)
            .into_par_iter()
            .map(|i| {
                let g = play_one(&game, &options, i);
                Outcome {
                    caesar_won: g.winner == Some(Side::Caesar),
                    years: g.year,
                }
            })
            .collect();
        let (runs, games) = (200, 40);
        let mut covered = 0;
        for run in 0..runs {
            let at = |k: usize| outcomes[2 * games * run + k];
            let pairs: Vec<[Outcome; 4]> = (0..games)
                .map(|g| {
                    let (a, b) = (at(g), at(games + g));
                    [a, b, b, a]
                })
                .collect();
            let f = field_of_games(&pairs);
            let both = f.effect().both;
            assert_eq!(both, f.at_a.caesar(), "one field is the whole");
            covered += u32::from(both.ci95[0] <= 0.0 && 0.0 <= both.ci95[1]);
        }
        let coverage = f64::from(covered) / f64::from(runs as u32);
        assert_nominal_coverage("real games, one field", coverage, 200);
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
            sum_at_a: Moments::default(),
            parts_less_whole: Moments::default(),
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
        assert!((m.mean_within(2.0).estimate - 2.0 / 6.0).abs() < 1e-12);
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
