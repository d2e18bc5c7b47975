//! Answering the designer's questions with games: is the setup fair
//! (`balance`, the balance at equilibrium), how does strength change the
//! answer (`ladder`), what does a setting do (`sweep`), why do two rule
//! sets differ (`explain`), and what are a battle's exact odds (`odds`). Each plays through the runner above
//! and the players of [`crate::sim::players`].

pub mod balance;
pub mod explain;
pub mod fair;
pub mod ladder;
pub mod odds;
pub mod sweep;
