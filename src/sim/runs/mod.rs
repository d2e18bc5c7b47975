//! Running games and reporting them: the report of a run of seeded games
//! (`report`: its counts, statistics and text), the statistics it is made
//! with (`stats`: intervals, paired differences), how shards of one run
//! merge (`merge`) and how a cluster's array names its shard (`cluster`).
//! The runner itself, which plays the games, is the folder above
//! ([`crate::sim::simulate`]).

pub mod cluster;
pub(crate) mod merge;
pub mod report;
pub mod stats;
