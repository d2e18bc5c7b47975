//! The window: the one place the command line reaches the GUI, so that it
//! can sit behind a cargo feature.

use std::path::PathBuf;
use std::process::ExitCode;

use super::CliError;

pub fn open(scenario: Option<PathBuf>, variant: &str) -> Result<ExitCode, CliError> {
    caesar_workbench::app::run(scenario, variant).map_err(CliError::Gui)?;
    Ok(ExitCode::SUCCESS)
}
