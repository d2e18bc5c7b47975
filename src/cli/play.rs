//! `play`: one whole game between AI players, its record as it is written;
//! `--record` also writes it down as a game record file (`replay` reads it).

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::engine::{Game, GameEvent, Log, State};
use caesar_workbench::games::narrate::record_line;
use caesar_workbench::games::record::{
    PlayerEntry, RecordSetup, record_game, simulated_game_seeds,
};
use caesar_workbench::scenario::model::Side;

use super::args::{Loaded, SetupArgs, SidesArgs, check_outputs, heuristic_default};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(mut_args(heuristic_default))]
pub struct PlayArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// Seed for the game's dice and shuffles (and the players).
    #[arg(long, default_value_t = 1, conflicts_with = "run_seed")]
    seed: u64,
    /// Play game --game of a `simulate --seed RUN_SEED` run: the same game
    /// seed and players' seeds as that run gives it.
    #[arg(long, requires = "game", value_name = "RUN_SEED")]
    run_seed: Option<u64>,
    /// The game's index in that run (0-based, the CSV's `game` column).
    #[arg(long, requires = "run_seed", value_name = "I")]
    game: Option<u64>,
    #[command(flatten)]
    sides: SidesArgs,
    /// Players see everything (no fog of war), as `simulate --omniscient`.
    #[arg(long)]
    omniscient: bool,
    /// Also write the game record to this file (RON; `replay FILE` re-plays it).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

pub fn play(out: &mut Output, args: PlayArgs) -> Result<ExitCode, CliError> {
    let loaded = args.setup.load()?;
    let ai = args
        .sides
        .specs(&[args.setup.variant()], args.setup.scenario())?;
    check_outputs(&args.record.as_deref().into_iter().collect::<Vec<_>>())?;
    let Loaded { game, doc, .. } = loaded;
    let (seed, player_seeds) = match (args.run_seed, args.game) {
        (Some(run), Some(index)) => simulated_game_seeds(run, index),
        _ => (
            args.seed,
            [
                args.seed.wrapping_mul(2).wrapping_add(1),
                args.seed.wrapping_mul(2).wrapping_add(2),
            ],
        ),
    };
    let mut players = [
        ai[0].player(Side::Caesar, player_seeds[0], args.omniscient),
        ai[1].player(Side::Pompey, player_seeds[1], args.omniscient),
    ];
    out.line(header(&game, seed, &ai[0].to_string(), &ai[1].to_string()))?;
    let mut log = PrintLog {
        out,
        game: &game,
        failed: None,
    };
    let state = match &args.record {
        None => caesar_workbench::ai::play_game(&game, seed, &mut players, &mut log),
        Some(path) => {
            let (scenario, variant) = RecordSetup::sources(
                args.setup.scenario(),
                &doc,
                args.setup.variant(),
                &game.rules,
            );
            let setup = RecordSetup {
                scenario,
                variant,
                seed,
                caesar: PlayerEntry::ai(&ai[0], player_seeds[0]),
                pompey: PlayerEntry::ai(&ai[1], player_seeds[1]),
                omniscient: args.omniscient,
            };
            let (state, record) = record_game(&game, setup, &mut players, &mut log);
            record.write(path).map_err(|source| CliError::WriteRecord {
                path: path.clone(),
                source,
            })?;
            state
        }
    };
    if let Some(e) = log.failed {
        return Err(e);
    }
    out.line(stats_line(&state))?;
    Ok(ExitCode::SUCCESS)
}

/// The first line of a game's printed record.
pub fn header(game: &Game, seed: u64, caesar: &str, pompey: &str) -> String {
    caesar_workbench::games::narrate::header(game, &seed.to_string(), [caesar, pompey])
}

/// The last line of a game's printed record.
pub fn stats_line(state: &State) -> String {
    caesar_workbench::games::narrate::stats_line(&state.stats)
}

/// Prints the record as it is written; after a failed write it stops
/// asking for lines and keeps the error for the end of the game.
pub struct PrintLog<'a> {
    pub out: &'a mut Output,
    pub game: &'a Game,
    pub failed: Option<CliError>,
}

impl Log for PrintLog<'_> {
    fn enabled(&self) -> bool {
        self.failed.is_none()
    }
    fn event(&mut self, event: GameEvent) {
        if self.failed.is_none()
            && let Err(e) = self.out.line(record_line(self.game, &event))
        {
            self.failed = Some(e);
        }
    }
}
