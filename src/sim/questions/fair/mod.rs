//! `fair`: the smallest change that brings a setup to even at equilibrium.
//!
//! A designer's second question, once `balance` has said the setup is not
//! fair. A knob is any sweep axis ([`crate::sim::questions::sweep`]: a rule field such
//! as the tournament bid, a block's strength, its city); by default the bid
//! of the side below even. The run, all on the library's balance run
//! ([`crate::sim::questions::balance::session`]):
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
//! step from the setup's own value. Where none reaches alone, each is
//! walked again with another held at whichever end of its own came nearer
//! the target: two knobs changed together.
//!
//! On a cluster, each task plays its part of the base's and every
//! candidate's table (`fair --shard`); [`merge`] joins them and the driver
//! goes on with the walk and the checks on one machine.

use std::time::Duration;

use serde_json::Value;

use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::questions::balance;
use crate::sim::questions::balance::session;
use crate::sim::questions::sweep::{self, Axis};
use crate::sim::runs::report::PlayedOn;

mod crossing;
mod model;
mod run;
mod shards;

pub use crossing::monotone_crossing;
pub use model::*;
pub use run::{reload, run};
pub use shards::{FairMergeError, merge};

/// The knobs as given (`--vary`), or by default the bid of `side`, each
/// candidate's rule set and scenario checked by the validator before any
/// game; a knob of one value is refused. After them, where there are two
/// or more, each knob again with another held at either of its ends: the
/// walks a run makes where no knob reaches the target alone.
pub fn plan_knobs(
    doc: &ResolvedScenario,
    base: &Game,
    axes: &[Axis],
) -> Result<Vec<PlannedKnob>, FairOptionsError> {
    let here = PlayedOn::of(base);
    let base_index = |points: &[sweep::PlannedPoint]| {
        points.iter().position(|p| {
            let there = PlayedOn::of(&p.game);
            there.scenario_digest == here.scenario_digest
                && there.variant_digest == here.variant_digest
        })
    };
    let mut knobs = Vec::new();
    for axis in axes {
        if let [value] = axis.values.as_slice() {
            return Err(FairOptionsError::OneValue {
                key: axis.key.clone(),
                value: value.clone(),
            });
        }
        let points = sweep::plan(doc, &base.rules, std::slice::from_ref(axis))?;
        knobs.push(PlannedKnob {
            axis: axis.clone(),
            base: base_index(&points),
            points,
            with: None,
            held_steps: 0,
        });
    }
    let singles = knobs.len();
    for h in 0..singles {
        let held = &axes[h];
        let last = held.values.len() - 1;
        for (end_index, end) in [(0, &held.values[0]), (last, &held.values[last])] {
            let one = Axis {
                key: held.key.clone(),
                values: vec![end.clone()],
            };
            for (m, axis) in axes.iter().enumerate().filter(|(m, _)| *m != h) {
                let points = sweep::plan(doc, &base.rules, &[one.clone(), axis.clone()])?;
                let value = points[0]
                    .settings
                    .get(&held.key)
                    .cloned()
                    .unwrap_or_default();
                knobs.push(PlannedKnob {
                    axis: axis.clone(),
                    // The moved knob's own value, as it is alone.
                    base: knobs[m].base,
                    points,
                    with: Some(Setting {
                        key: held.key.clone(),
                        value,
                    }),
                    held_steps: knobs[h].base.map_or(end_index, |b| b.abs_diff(end_index)),
                });
            }
        }
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

/// A variant that extends `base` (a built-in name or a file, as `--variant`
/// took it) and sets only the change (its settings, rule fields). It keeps
/// the rule set's name: a run's reports know a rule set by a digest that
/// takes in its name, so the file is the very setup the run measured (its
/// check's equilibrium, `balance --equilibrium`, reads on it). The change
/// is said in the first line.
pub fn variant_text(base: &str, rules: &RuleSet, settings: &[Setting]) -> String {
    let fields: String = settings
        .iter()
        .map(|s| {
            let value = match &s.value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!("    {}: {value},\n", s.key)
        })
        .collect();
    format!(
        "// Written by `caesar-workbench fair`: {} ({}).\n(\n    name: {:?},\n    extends: {:?},\n{fields})\n",
        settings_words(settings),
        setting_list(settings),
        rules.name,
        base,
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
