//! Shards of one run's table merged into one report.

use super::options::BalanceOptions;
use super::report::{BalanceReport, Member, Round, Stage};
use super::run::solve_report;
use super::table::Table;
use crate::sim::runs::cluster::Shard;

/// Why shards of a table do not make one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BalanceMergeError {
    #[error("no reports to merge")]
    Nothing,
    #[error("{0} is not a shard of a balance table (it was run without --shard)")]
    NotAShard(String),
    #[error("{first} and {other} are not shards of one run: {why}")]
    OtherRun {
        first: String,
        other: String,
        why: &'static str,
    },
    #[error("shard {0} is given twice")]
    Twice(Shard),
    #[error("shard {shard} of {count} is missing: {games} of every cell would be lost")]
    Missing {
        shard: u32,
        count: u32,
        games: crate::sim::runs::options::GameRange,
    },
    #[error("{0} holds a cell of the wrong number of games for its shard: it was cut or edited")]
    Damaged(String),
    #[error("{0}: {1}")]
    Malformed(String, String),
}

/// The whole table from the reports of its shards (`balance --shard i/n`),
/// each with the name messages call it by: the report one machine would
/// have made.
pub fn merge(reports: Vec<(String, BalanceReport)>) -> Result<BalanceReport, BalanceMergeError> {
    let Some((first_name, first)) = reports.first() else {
        return Err(BalanceMergeError::Nothing);
    };
    let count = first
        .options
        .shard
        .ok_or_else(|| BalanceMergeError::NotAShard(first_name.clone()))?
        .count;
    let unsharded = |o: &BalanceOptions| BalanceOptions {
        shard: None,
        ..o.clone()
    };
    for (name, r) in &reports {
        r.check()
            .map_err(|e| BalanceMergeError::Malformed(name.clone(), e.to_string()))?;
    }
    let mut parts: Vec<Option<(String, BalanceReport)>> = vec![None; count as usize];
    for (name, r) in &reports {
        let shard = r
            .options
            .shard
            .ok_or_else(|| BalanceMergeError::NotAShard(name.clone()))?;
        let other = |why| BalanceMergeError::OtherRun {
            first: first_name.clone(),
            other: name.clone(),
            why,
        };
        if shard.count != count {
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
        let digests = |m: &[Member]| m.iter().map(|m| m.digest.clone()).collect::<Vec<_>>();
        if digests(&r.caesar) != digests(&first.caesar)
            || digests(&r.pompey) != digests(&first.pompey)
        {
            return Err(other("their players differ"));
        }
        let range = shard.range(r.options.games);
        if r.table.offset != range.start
            || r.table
                .cells
                .iter()
                .flatten()
                .any(|c| c.games() != range.end - range.start)
        {
            return Err(BalanceMergeError::Damaged(name.clone()));
        }
        let slot = &mut parts[shard.index as usize];
        if slot.is_some() {
            return Err(BalanceMergeError::Twice(shard));
        }
        *slot = Some((name.clone(), r.clone()));
    }
    let mut merged = first.clone();
    merged.options.shard = None;
    merged.table = Table::new(first.caesar.len(), first.pompey.len());
    merged.games_played = 0;
    merged.elapsed_seconds = 0.0;
    for (index, part) in parts.iter().enumerate() {
        let Some((_, r)) = part else {
            let shard = Shard {
                index: index as u32,
                count,
            };
            return Err(BalanceMergeError::Missing {
                shard: index as u32 + 1,
                count,
                games: shard.range(first.options.games).into(),
            });
        };
        for (i, row) in r.table.cells.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                merged.table.cells[i][j].extend(cell);
            }
        }
        merged.games_played += r.games_played;
        merged.elapsed_seconds += r.elapsed_seconds;
    }
    solve_report(&mut merged).map_err(|_| BalanceMergeError::Damaged(first_name.clone()))?;
    merged.rounds = vec![Round {
        round: 1,
        caesar_players: merged.caesar.len(),
        pompey_players: merged.pompey.len(),
        value: merged.value,
        exploitability: None,
        responses: Vec::new(),
    }];
    let shards = if count == 1 { "shard" } else { "shards" };
    merged.stopped = format!("{count} {shards} merged; no rounds of best responses");
    merged.stage = Stage::Done;
    Ok(merged)
}
