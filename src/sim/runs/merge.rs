//! Why reports do not merge: the one error type of every report kind's
//! check and merge ([`crate::sim::runs::report::Merge`]).

use std::fmt;

use crate::sim::runs::options::GameRange;

/// Why reports do not merge (or a report does not pass its own check).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no reports to merge")]
    NoReports,
    /// Counts that disagree with each other or with the report's games: a
    /// report edited by hand or damaged.
    #[error("{0}")]
    Damaged(String),
    /// Adding up the reports' counts overflows.
    #[error("the {0} overflow when added up")]
    Overflow(&'static str),
    /// Reports of different runs, told apart by the first field that differs.
    #[error("{0}")]
    DifferentRuns(Box<RunDifference>),
    /// Two reports that hold the same games.
    #[error(
        "{first_label} ({first}) and {second_label} ({second}) overlap in {common}: every game may be counted only once"
    )]
    Overlap {
        first_label: String,
        first: GameRange,
        second_label: String,
        second: GameRange,
        common: GameRange,
    },
    /// What is wrong in one report (or one part of it), by its label.
    #[error("{label}: {error}")]
    In {
        label: String,
        error: Box<MergeError>,
    },
}

/// The first field in which two reports' runs differ, with its two values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{label} and {first_label} are reports of different {what}: {field} is {mine} in {label} but {theirs} in {first_label}"
)]
pub struct RunDifference {
    pub what: String,
    pub field: String,
    pub label: String,
    pub mine: String,
    pub first_label: String,
    pub theirs: String,
}

impl MergeError {
    /// Refuses two of the labelled `ranges` (sorted by start) that hold
    /// the same games: sorted so, two overlap only if two neighbours do.
    pub(crate) fn refuse_overlaps(ranges: &[(GameRange, &str)]) -> Result<(), MergeError> {
        for pair in ranges.windows(2) {
            let ((a, la), (b, lb)) = (pair[0], pair[1]);
            if b.start < a.end {
                return Err(MergeError::Overlap {
                    first_label: la.to_string(),
                    first: a,
                    second_label: lb.to_string(),
                    second: b,
                    common: GameRange::from(b.start..a.end.min(b.end)),
                });
            }
        }
        Ok(())
    }

    /// This error, said of the report (or part) called `label`.
    pub(crate) fn in_report(self, label: impl fmt::Display) -> MergeError {
        MergeError::In {
            label: label.to_string(),
            error: Box::new(self),
        }
    }
}
