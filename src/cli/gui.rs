//! The window: the one place the command line reaches the GUI, so that it
//! can sit behind the `gui` cargo feature.

use std::path::PathBuf;
use std::process::ExitCode;

use super::CliError;

#[cfg(feature = "gui")]
pub fn open(scenario: Option<PathBuf>, variant: &str) -> Result<ExitCode, CliError> {
    caesar_workbench::app::run(scenario, variant).map_err(|e| CliError::Gui(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "gui"))]
pub fn open(_scenario: Option<PathBuf>, _variant: &str) -> Result<ExitCode, CliError> {
    Err(CliError::Gui(
        "this build has no window (built without the `gui` feature); \
         use a subcommand (see --help) or build with default features"
            .to_string(),
    ))
}
