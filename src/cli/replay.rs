//! `replay`: re-play a game record through the engine, print the game as
//! `play` printed it, and confirm it ends as recorded.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use caesar_workbench::files::ReadError;
use caesar_workbench::games::narrate::record_line;
use caesar_workbench::games::record::{self, RecordFile, ReplayError};
use caesar_workbench::scenario::format::{LoadError, read_text};
use caesar_workbench::scenario::rules::RuleSet;

use super::args::load_game;
use super::play::{header, stats_line};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game record (RON, written by `play --record`).
    file: PathBuf,
    /// Print only the final line, not the game.
    #[arg(long)]
    quiet: bool,
}

pub fn replay(out: &mut Output, args: ReplayArgs) -> Result<ExitCode, CliError> {
    let text = read_text(&args.file)?;
    let record = RecordFile::parse(&args.file, &text)?;
    let (scenario, variant) = record::source_paths(&record, &args.file);
    let rules = RuleSet::load(&variant).map_err(|e| missing_or_load("variant", &variant, e))?;
    let scenario_name = scenario
        .as_ref()
        .map_or(record::BUILT_IN.to_string(), |p| p.display().to_string());
    let doc = caesar_workbench::scenario::load_scenario(scenario.as_deref())
        .map_err(|e| missing_or_load("scenario", &scenario_name, e))?;
    record::check_sources(&record, (scenario.as_deref(), &variant), &doc, &rules)
        .map_err(replay_error)?;
    let game = load_game(scenario.as_deref(), &variant)?.game;
    let (state, log) = record::replay(&record, &game).map_err(|e| {
        // At the step's action; a record that ends early, at its last.
        let step = e.step().map(|s| s.min(record.actions.len()));
        match step.and_then(|s| record::action_location(&args.file, &text, s)) {
            Some(at) => CliError::Replay(format!("{at}: {e}")),
            None => replay_error(e),
        }
    })?;
    if !args.quiet {
        out.line(header(
            &game,
            record.seed,
            &record.caesar.player,
            &record.pompey.player,
        ))?;
        for event in &log {
            out.line(record_line(&game, event))?;
        }
        out.line(stats_line(&state))?;
    }
    let end = record
        .outcome
        .map_or("the game still going on".to_string(), |o| o.to_string());
    out.line(format_args!(
        "replay matches the record {}: {} actions, {end}",
        display(&args.file),
        record.actions.len()
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

fn replay_error(e: ReplayError) -> CliError {
    CliError::Replay(e.to_string())
}

/// A scenario or variant the record names that is no longer there is a
/// replay that cannot be checked (exit 1); any other load error is one (exit 2).
fn missing_or_load(what: &'static str, name: &str, e: LoadError) -> CliError {
    match e {
        LoadError::Read(ReadError::Io { ref source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            replay_error(ReplayError::Missing {
                what,
                name: name.to_string(),
                reason: e.to_string(),
            })
        }
        LoadError::ExtendsMissing { .. } => replay_error(ReplayError::Missing {
            what,
            name: name.to_string(),
            reason: e.to_string(),
        }),
        other => CliError::Load(other),
    }
}
