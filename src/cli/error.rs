//! The one error type of the command line, and the exit code of each error.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::scenario::format::LoadError;
use caesar_workbench::sim::Cancelled;
use caesar_workbench::sim::questions::sweep::PlanError;
use caesar_workbench::sim::runs::options::Setting;

/// Everything that ends a command early. `main` prints it as
/// `error: <message>` on stderr and exits with [`CliError::exit_code`],
/// except a closed pipe ([`CliError::is_broken_pipe`]), which ends quietly.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An argument that parses but cannot be used.
    #[error("{0}")]
    Usage(String),
    /// Options that would play nothing, named by their flag.
    #[error("{flag}: {error}", flag = flag(.0.setting()), error = .0)]
    Options(#[from] caesar_workbench::sim::runs::options::OptionsError),
    /// A scenario or variant file that cannot be read or parsed.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The scenario loads but the validator finds errors in it.
    #[error(
        "the scenario has errors; fix them first (caesar-workbench validate):\n{}",
        findings.join("\n")
    )]
    InvalidScenario { findings: Vec<String> },
    /// A position that cannot be, or an action that is not legal in it.
    #[error("{0}")]
    Position(String),
    /// An output file that is also one of the command's inputs.
    #[error("refusing to write {output} over {what} {input}")]
    OverwritesInput {
        output: String,
        what: &'static str,
        input: PathBuf,
    },
    /// An output that cannot be written, or would overwrite an input.
    #[error(transparent)]
    Write(#[from] caesar_workbench::files::WriteError),
    /// A sweep that cannot be planned: axes that make no sweep (2), or a
    /// point the validator refuses (1, as `validate` exits on errors).
    #[error(transparent)]
    Sweep(#[from] caesar_workbench::sim::questions::sweep::PlanError),
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    /// A report file that is not a report.
    #[error("{0}")]
    Report(String),
    /// Reports that do not merge.
    #[error(transparent)]
    Merge(#[from] caesar_workbench::sim::runs::merge::MergeError),
    /// Writing standard output failed.
    #[error("cannot write the output: {0}")]
    Output(io::Error),
    /// Creating or writing the CSV file failed.
    #[error("cannot write the CSV file {path}: {source}")]
    Csv { path: PathBuf, source: io::Error },
    /// Writing the game record file failed.
    #[error("cannot write the game record {path}: {source}")]
    WriteRecord { path: PathBuf, source: io::Error },
    /// A game record that does not replay, or whose sources changed.
    #[error("{0}")]
    Replay(String),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    /// The window could not open.
    #[error("{0}")]
    Gui(String),
}

/// The flag that sets `setting`.
fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Games => "--games",
        Setting::Shard => "--shard",
        Setting::Players => "--players",
        Setting::GamesPerCandidate => "--games-per-candidate",
        Setting::Budget => "--budget",
        Setting::CheckGames => "--check-games",
        Setting::Step => "--step",
        Setting::StartingPlayer => "--start",
        Setting::SearchToTune => "--search",
        Setting::HeldOut => "--held-out",
    }
}

impl CliError {
    /// 1 for a scenario with errors (as `validate`), a sweep point the
    /// validator refuses, an impossible position or illegal action, a record
    /// that does not replay; 2 for everything else.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::InvalidScenario { .. }
            | CliError::Position(_)
            | CliError::Replay(_)
            | CliError::Sweep(PlanError::Refused { .. }) => ExitCode::from(1),
            _ => ExitCode::from(2),
        }
    }

    /// Whoever reads the output (or the CSV) closed it: a normal end.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Output(e) | CliError::Csv { source: e, .. } => {
                e.kind() == io::ErrorKind::BrokenPipe
            }
            _ => false,
        }
    }
}
