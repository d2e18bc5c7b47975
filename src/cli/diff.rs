//! `diff`: what a scenario changes against another, as the window's
//! "Compare" view lists it (the library's [`caesar_workbench::scenario::diff`]).

use std::path::PathBuf;
use std::process::ExitCode;

use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The scenario to describe.
    scenario: PathBuf,
    /// The scenario to compare it with; the built-in published game when left out.
    base: Option<PathBuf>,
}

/// Prints the differences (a heading, then one `- ` line per change by part).
pub fn diff(out: &mut Output, args: DiffArgs) -> Result<ExitCode, CliError> {
    let this = caesar_workbench::scenario::load_scenario(Some(&args.scenario))?;
    let base = caesar_workbench::scenario::load_scenario(args.base.as_deref())?;
    out.line(caesar_workbench::scenario::diff::report(&base, &this).trim_end())?;
    Ok(ExitCode::SUCCESS)
}
