//! A `fair` run on a cluster: each task (`fair --shard i/n`) plays its part
//! of the base's and every candidate's table; [`merge`] joins the parts into
//! the progress one machine would have played, and the driver goes on from
//! it ([`super::resuming`]) with the walk and the checks.

use super::model::{FairOptions, FairProgress, FairReport, KnobProgress};
use crate::sim::questions::balance::{self, BalanceMergeError, BalanceReport};
use crate::sim::runs::cluster::Shard;

/// Why the shards of a `fair` run do not make one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FairMergeError {
    #[error("no reports to merge")]
    Nothing,
    #[error("{0} is not a shard of a fair run (it was run without --shard)")]
    NotAShard(String),
    #[error("{first} and {other} are not shards of one run: {why}")]
    OtherRun {
        first: String,
        other: String,
        why: &'static str,
    },
    #[error(
        "{0} did not play its part of every table: it was cut short (run it again with --resume) or edited"
    )]
    Unfinished(String),
    #[error("{what}: {error}")]
    Table {
        what: String,
        error: BalanceMergeError,
    },
}

/// The progress of the whole run from its shards' reports, each with the
/// name messages call it by: the tables one machine would have played,
/// as a paused report to go on from.
pub fn merge(reports: Vec<(String, FairReport)>) -> Result<FairReport, FairMergeError> {
    let Some((first_name, first)) = reports.first() else {
        return Err(FairMergeError::Nothing);
    };
    let unsharded = |o: &FairOptions| FairOptions {
        shard: None,
        ..o.clone()
    };
    check_parts(first_name, first, &reports)?;
    // The base (`None`), or knob k's table i.
    let table = |what: String, at: Option<(usize, usize)>| {
        let parts = reports
            .iter()
            .map(|(name, r)| {
                table_at(&r.progress, at)
                    .cloned()
                    .map(|t| (name.clone(), t))
                    .ok_or_else(|| FairMergeError::Unfinished(name.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        balance::merge(parts).map_err(|error| FairMergeError::Table { what, error })
    };
    let base = table("the base".to_string(), None)?;
    let mut knobs = Vec::new();
    for (k, axis) in first.axes.iter().enumerate() {
        let mut tables = Vec::new();
        for (i, value) in axis.values.iter().enumerate() {
            let what = format!("{}={value}", axis.key);
            tables.push(Some(table(what, Some((k, i)))?));
        }
        knobs.push(KnobProgress {
            key: axis.key.clone(),
            visits: Vec::new(),
            tables,
        });
    }
    let count = reports.len();
    Ok(FairReport {
        options: unsharded(&first.options),
        base: base.value,
        knobs: Vec::new(),
        answer: None,
        checks: Vec::new(),
        stopped: format!(
            "{count} {} merged: every candidate's table; the walk and the checks go on from here",
            if count == 1 { "shard" } else { "shards" }
        ),
        games_played: reports.iter().map(|(_, r)| r.games_played).sum(),
        elapsed_seconds: reports.iter().map(|(_, r)| r.elapsed_seconds).sum(),
        paused: true,
        progress: FairProgress {
            base: Some(base),
            knobs,
            check: None,
            rechecks: Vec::new(),
            population: first.progress.population.clone(),
        },
        ..first.clone()
    })
}

fn table_at(progress: &FairProgress, at: Option<(usize, usize)>) -> Option<&BalanceReport> {
    match at {
        None => progress.base.as_ref(),
        Some((k, i)) => progress.knobs.get(k)?.tables.get(i)?.as_ref(),
    }
}

/// Every part is a shard of the first's run and played its part whole.
fn check_parts(
    first_name: &str,
    first: &FairReport,
    reports: &[(String, FairReport)],
) -> Result<(), FairMergeError> {
    let unsharded = |o: &FairOptions| FairOptions {
        shard: None,
        ..o.clone()
    };
    for (name, r) in reports {
        let other = |why| FairMergeError::OtherRun {
            first: first_name.to_string(),
            other: name.clone(),
            why,
        };
        let shard: Shard = r
            .options
            .shard
            .ok_or_else(|| FairMergeError::NotAShard(name.clone()))?;
        if shard.count != first.options.shard.map_or(0, |s| s.count) {
            return Err(other(
                "they split the games into different numbers of shards",
            ));
        }
        if unsharded(&r.options) != unsharded(&first.options) {
            return Err(other("their options differ"));
        }
        if r.played_on != first.played_on || r.variant != first.variant {
            return Err(other("they were played on different setups or rule sets"));
        }
        if r.axes != first.axes {
            return Err(other("they move different knobs"));
        }
        if r.progress.population != first.progress.population {
            return Err(other("their players differ"));
        }
        let whole = |p: &FairProgress| {
            p.base.as_ref().is_some_and(BalanceReport::is_done)
                && p.population.is_some()
                && p.knobs.iter().zip(&r.axes).all(|(k, axis)| {
                    k.tables.len() == axis.values.len()
                        && k.tables
                            .iter()
                            .all(|t| t.as_ref().is_some_and(|t| t.is_done()))
                })
                && p.knobs.len() >= r.axes.len()
        };
        if r.paused || !whole(&r.progress) {
            return Err(FairMergeError::Unfinished(name.clone()));
        }
    }
    Ok(())
}
