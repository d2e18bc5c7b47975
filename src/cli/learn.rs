//! `learn`: fits the learned evaluation on positions of self-play and
//! writes the value file a search plays with (`search:16@PLAYERS+VALUE`).

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::ai::SpecText;
use caesar_workbench::ai::value::PlayoutStop;
use caesar_workbench::sim::players::learn::{self as lib, LearnOptions};

use super::args::{SelfPlayArgs, SetupArgs, SidesArgs, check_outputs, heuristic_default};
use super::simulate::{with_progress, write_file_and_report};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(
    mut_arg("variant", |a| a.help("Rule set whose games to learn from: a variant file or a built-in name")),
    mut_args(heuristic_default)
)]
pub struct LearnArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// The value file to write (atomically; an older one is kept as .bak).
    #[arg(long)]
    out: PathBuf,
    /// Games of self-play, the held-out ones included.
    #[arg(long, default_value_t = 4_000, value_parser = clap::value_parser!(u64).range(2..))]
    games: u64,
    /// The share of the games (the last ones) kept out of the fit to judge it on.
    #[arg(long, default_value_t = 0.25)]
    held_out: f64,
    /// Game turns a playout scored by the model plays before it stops.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..))]
    horizon: u8,
    /// Where the playouts the model scores stop: at the horizon, or at the
    /// start of the next year if that comes first.
    #[arg(long, value_enum, default_value_t = Stop::Horizon)]
    playouts_stop: Stop,
    #[command(flatten)]
    sides: SidesArgs,
    #[command(flatten)]
    run: SelfPlayArgs,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Stop {
    Horizon,
    YearEnd,
}

pub fn learn(out: &mut Output, args: LearnArgs) -> Result<ExitCode, CliError> {
    let loaded = args.setup.load()?;
    let variants = [args.setup.variant()];
    let options = LearnOptions {
        games: args.games,
        held_out: args.held_out,
        seed: args.run.seed,
        players: args.sides.specs(&variants, args.setup.scenario())?,
        horizon_turns: args.horizon,
        playouts_stop: match args.playouts_stop {
            Stop::Horizon => PlayoutStop::Horizon,
            Stop::YearEnd => PlayoutStop::YearEnd,
        },
    };
    options.check()?;
    // After the players are made: `best` reads its player and value files,
    // and the output must be none of them.
    check_outputs(&[&args.out])?;
    let pool = args.run.threads.pool()?;
    let report = with_progress(options.games, |progress| {
        pool.install(|| lib::learn(&loaded.game, args.setup.variant(), &options, progress))
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let written = args.out.display().to_string();
    let search = SpecText::search_on("search:16", "PLAYER_FILE", Some(&written)).text();
    let hint = format!("search with it: --caesar-ai {search}");
    let text = report.value_file();
    write_file_and_report(out, (&args.out, &text), &report, args.run.json, &hint)
}
