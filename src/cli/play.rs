//! `play`: one whole game between AI players, its record as it is written.

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::engine::Log;
use caesar_workbench::model::Side;
use caesar_workbench::rules::DEFAULT_VARIANT;
use caesar_workbench::sim::AiSpec;

use super::args::{load_game, refuse_stdout_over};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Rule set: a variant file or a built-in name.
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Seed for the game's dice and shuffles (and the players).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Caesar's player: random, heuristic, search or search:PLAYOUTS.
    #[arg(long, default_value = "heuristic")]
    caesar_ai: AiSpec,
    /// Pompey's player.
    #[arg(long, default_value = "heuristic")]
    pompey_ai: AiSpec,
}

pub fn play(out: &mut Output, args: PlayArgs) -> Result<ExitCode, CliError> {
    let loaded = load_game(args.scenario.as_deref(), &args.variant)?;
    refuse_stdout_over(&loaded.inputs)?;
    let game = loaded.game;
    let seed = args.seed;
    let mut players = [
        args.caesar_ai
            .player(Side::Caesar, seed.wrapping_mul(2).wrapping_add(1), false),
        args.pompey_ai
            .player(Side::Pompey, seed.wrapping_mul(2).wrapping_add(2), false),
    ];
    out.line(format_args!(
        "{} under {}, seed {seed}: Caesar {} vs Pompey {}",
        game.scenario.name, game.rules.name, args.caesar_ai, args.pompey_ai
    ))?;
    let mut record = PrintLog { out, failed: None };
    let state = caesar_workbench::ai::play_game(&game, seed, &mut players, &mut record);
    if let Some(e) = record.failed {
        return Err(e);
    }
    let s = &state.stats;
    out.line(format_args!(
        "Battles {}, steps lost Caesar {} Pompey {}, leaders killed Caesar {} Pompey {}",
        s.battles, s.steps_lost[0], s.steps_lost[1], s.leaders_killed[0], s.leaders_killed[1]
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the record as it is written; after a failed write it stops
/// asking for lines and keeps the error for the end of the game.
struct PrintLog<'a> {
    out: &'a mut Output,
    failed: Option<CliError>,
}

impl Log for PrintLog<'_> {
    fn enabled(&self) -> bool {
        self.failed.is_none()
    }
    fn line(&mut self, text: String) {
        if self.failed.is_none()
            && let Err(e) = self.out.line(text)
        {
            self.failed = Some(e);
        }
    }
}
