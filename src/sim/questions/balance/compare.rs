//! Two balances compared over the same game seeds.

use super::report::{BalanceError, BalanceReport, Interval};
use super::run::BOOT_TAG;
use super::table;
use serde::{Deserialize, Serialize};

/// The balance at equilibrium of two rule sets (or setups), and their
/// difference over the same game seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceComparison {
    pub a: BalanceReport,
    pub b: BalanceReport,
    /// A's value less B's, with a bootstrap interval that resamples the
    /// same game indices in both tables.
    pub difference: Interval,
    /// Whether the difference's sign held at every round both runs solved.
    pub held_every_round: bool,
}

/// Compares two finished runs.
pub fn compare(a: BalanceReport, b: BalanceReport) -> Result<BalanceComparison, BalanceError> {
    let replicates = table::bootstrap(
        &[&a.table, &b.table],
        a.options.replicates.max(b.options.replicates),
        a.options.seed ^ BOOT_TAG,
    )?;
    let differences: Vec<f64> = replicates.iter().map(|r| r[0].value - r[1].value).collect();
    let estimate = a.value.estimate - b.value.estimate;
    let [lo, hi] = table::percentile_interval(&differences);
    let sign = estimate.signum();
    let held_every_round = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .all(|(ra, rb)| (ra.value.estimate - rb.value.estimate).signum() == sign);
    Ok(BalanceComparison {
        a,
        b,
        difference: Interval {
            estimate,
            ci95: [lo.min(estimate), hi.max(estimate)],
        },
        held_every_round,
    })
}
