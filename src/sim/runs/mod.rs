//! Running games and reporting them: what a run plays (`options`: its
//! options and ranges of its games), the report of a run of seeded games
//! (`report`: its counts, statistics and text, and each game's summary),
//! where its games were decided on the map (`heatmap`, every run's
//! record), the statistics it is made with (`stats`: intervals, paired
//! differences), how shards of one run merge (`merge`) and which shard a
//! cluster's array runs (`cluster`).
//! The runner itself, which plays the games, is the folder above
//! ([`crate::sim::simulate`]).

pub mod cluster;
pub mod heatmap;
pub mod merge;
pub mod options;
pub mod report;
pub mod stats;
