//! Why a run of the Simulate or Balance tab could not start, or stopped:
//! the library's own errors, kept typed until the panel shows them, each
//! said in the tab's words.

use std::path::PathBuf;

use crate::ai::NotAPlayer;
use crate::app::form::capitalised;
use crate::app::state::NoGame;
use crate::scenario::format::LoadError;
use crate::sim::questions::balance::BalanceError;
use crate::sim::questions::balance::session::ReportFileError;
use crate::sim::questions::explain::GamesError;
use crate::sim::questions::fair::{FairOptionsError, FairResumeError};
use crate::sim::questions::sweep::{AxisError, PlanError};
use crate::sim::runs::options::OptionsError;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cancelled")]
    Cancelled,
    #[error("a run is going on (Simulate tab): wait for it or cancel it")]
    Busy,
    #[error("the simulation thread stopped unexpectedly")]
    ThreadStopped,
    #[error("The scenario has {0} error(s); fix them before simulating.")]
    ScenarioErrors(usize),
    #[error(transparent)]
    Game(#[from] NoGame),
    /// The rule set to compare with did not load.
    #[error(transparent)]
    Compared(#[from] LoadError),
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        threads: usize,
        source: rayon::ThreadPoolBuildError,
    },
    /// A run's settings that play nothing (the explanation's).
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error("The ladder: {0}")]
    Ladder(OptionsError),
    #[error("Tune: {0}")]
    Tune(OptionsError),
    #[error(transparent)]
    Axis(#[from] AxisError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Games(#[from] GamesError),
    /// A budget outside its range, said as a sentence of the tab.
    #[error("{}", capitalised(&.0.to_string()))]
    Budget(BalanceError),
    #[error(transparent)]
    Balance(#[from] BalanceError),
    #[error("No run to resume: {0}")]
    NoBalanceToResume(ReportFileError),
    #[error("No run to resume: {0}")]
    NoFairToResume(FairResumeError),
    /// A report that cannot go on here (another setup, changed players).
    #[error(transparent)]
    Resume(#[from] FairResumeError),
    #[error("Players: {0}")]
    Players(#[from] NotAPlayer),
    #[error("Make it fair needs a knob to move: add one")]
    NoKnob,
    #[error("{}", capitalised(&.0.to_string()))]
    FairOptions(FairOptionsError),
    /// A knob the setup cannot move.
    #[error(transparent)]
    Knob(#[from] FairOptionsError),
    #[error("the run ended but its report could not be written: {0}")]
    Unwritten(String),
}

/// Why "Keep as this setup's …" wrote nothing.
#[derive(Debug, thiserror::Error)]
#[error("Could not keep {}: {reason}", path.display())]
pub struct NotKept {
    pub path: PathBuf,
    pub reason: String,
}
