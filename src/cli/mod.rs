//! The command line: a thin shell over the library, one file per command
//! over shared argument types ([`args`]), one writer for everything printed
//! ([`output`]) and one error type ([`CliError`]) that `main` turns into a
//! message on stderr and an exit code.

mod args;
mod balance;
mod battle;
mod diff;
mod error;
mod explain;
mod fair;
mod fit;
mod gui;
mod ladder;
mod learn;
mod learn_policy;
mod merge;
mod output;
mod play;
mod players;
mod position;
mod replay;
mod simulate;
mod sweep;
mod tune;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use caesar_workbench::scenario::rules::DEFAULT_VARIANT;

pub use error::CliError;
use output::Output;
pub use output::warn;

#[derive(Debug, Parser)]
#[command(
    name = "caesar-workbench",
    version,
    about = "Map, deployment and rules workbench for Julius Caesar (Columbia Games)",
    long_about = "With no subcommand, opens the workbench window on the built-in \
                  Julius Caesar scenario. Subcommands run headless."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open the workbench window (the default).
    Gui {
        /// Scenario file; the built-in published game when left out.
        scenario: Option<PathBuf>,
        #[command(flatten)]
        variant: args::VariantArg,
    },
    /// Check a scenario against the rules and against itself.
    ///
    /// Exit code 0: no errors (warnings allowed); 1: at least one error;
    /// 2: a file could not be read or parsed.
    Validate(validate::ValidateArgs),
    /// List the built-in rule sets.
    Variants,
    /// Play many games between AI players and report the statistics.
    Simulate(simulate::SimulateArgs),
    /// Play two rule sets over the same seeds and report the differences.
    Compare(simulate::CompareArgs),
    /// Rank AI players on a ladder of mirror matches and cross-play, and say
    /// whether a rule set's effect on Caesar holds at every strength.
    Ladder(ladder::LadderArgs),
    /// Is the setup fair? Caesar's share at equilibrium: each side plays its
    /// best mix of every player we have against the other side's, and best
    /// responses are trained and added until none moves it (PSRO).
    /// `--challenge PLAYER --side S --equilibrium REPORT` plays one player
    /// against a saved equilibrium's mix.
    Balance(balance::BalanceArgs),
    /// Make it fair: the smallest change (by default the tournament bid of
    /// the side below even) that brings Caesar's share at equilibrium to
    /// the target, checked by best responses trained against it.
    Fair(fair::FairArgs),
    /// Balance curves: Caesar's win rate at every combination of rule-set
    /// values and scenario tweaks (--set FIELD=VALUES), over the same seeds.
    Sweep(sweep::SweepArgs),
    /// Fit the heuristic player's numbers to a rule set by self-play
    /// (CMA-ES) and write a player file for `--caesar-ai heuristic:FILE`.
    Tune(tune::TuneArgs),
    /// Fit a learned evaluation (each side's chance to win from the start of
    /// a game turn) on self-play, judge it on held-out games, and write the
    /// value file a search scores its playouts with (`search:16@FILE+VALUE`).
    Learn(learn::LearnArgs),
    /// Learn a policy from a tree search's own choices in self-play (the
    /// root visits at its group decisions) and write it into a copy of the
    /// search's value file, which `mcts:N@PLAYERS+FILE` then widens by.
    LearnPolicy(learn_policy::LearnPolicyArgs),
    /// Why two rule sets differ for Caesar, field by field: each field in
    /// which they differ switched alone (at A and at B) over the same seeds,
    /// with its interval, the interacting ones marked, the sum against the whole.
    Explain(explain::ExplainArgs),
    /// Players for a new setup in one command: tunes the heuristic per side
    /// against the transferred players, learns a value, measures a search on
    /// them against the default heuristic and the transferred best on unseen
    /// seeds, and writes a bundle (`NAME.players/`) that `best` finds.
    Fit(fit::FitArgs),
    /// Combine the JSON reports of the shards of one run (simulate, compare, ladder, sweep or explain).
    Merge(merge::MergeArgs),
    /// Exact odds of one battle (no sampling).
    Battle(battle::BattleArgs),
    /// Every shipped player with how strong it measured against the default
    /// heuristic (both sides) and what a game costs, strongest first;
    /// `--measure` plays them again. `--caesar-ai best` plays the first.
    Players(players::PlayersArgs),
    /// Play one whole game between AI players and print its record.
    Play(play::PlayArgs),
    /// Read a position file: whose decision it is and the legal actions;
    /// apply actions given in those words; show one side's view.
    ///
    /// Exit code 0: the position plays (and every --apply was legal); 1: the
    /// position is impossible or an action is not legal; 2: a file could not
    /// be read or parsed.
    Position(position::PositionArgs),
    /// Re-play a game record (`play --record FILE`) through the engine and
    /// print the game.
    ///
    /// Exit code 0: the record replays and ends as it says; 1: an action is
    /// not legal at its step, the game ends otherwise, or the scenario or
    /// variant has changed or is missing; 2: the record cannot be read or parsed.
    Replay(replay::ReplayArgs),
    /// What a scenario changes against another (the published game by
    /// default): settings, spaces, links, blocks, cards, deployment.
    ///
    /// Exit code 0 (also when they differ); 2: a file could not be read or parsed.
    Diff(diff::DiffArgs),
}

/// Runs one command. Everything it prints goes through one writer; a
/// closed pipe comes back as an error that [`CliError::is_broken_pipe`]
/// recognises, which `main` treats as a normal end.
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let mut out = Output::stdout();
    let code = match cli.command {
        None => gui::open(None, DEFAULT_VARIANT)?,
        Some(Command::Gui { scenario, variant }) => gui::open(scenario, variant.one())?,
        Some(Command::Validate(args)) => validate::validate(&mut out, args)?,
        Some(Command::Variants) => validate::variants(&mut out)?,
        Some(Command::Simulate(args)) => simulate::simulate(&mut out, args)?,
        Some(Command::Compare(args)) => simulate::compare(&mut out, args)?,
        Some(Command::Ladder(args)) => ladder::ladder(&mut out, args)?,
        Some(Command::Sweep(args)) => sweep::sweep(&mut out, args)?,
        Some(Command::Merge(args)) => merge::merge(&mut out, args)?,
        Some(Command::Balance(args)) => balance::balance(&mut out, args)?,
        Some(Command::Fair(args)) => fair::fair(&mut out, args)?,
        Some(Command::Tune(args)) => tune::tune(&mut out, args)?,
        Some(Command::Learn(args)) => learn::learn(&mut out, args)?,
        Some(Command::LearnPolicy(args)) => learn_policy::learn_policy(&mut out, args)?,
        Some(Command::Fit(args)) => fit::fit(&mut out, args)?,
        Some(Command::Explain(args)) => explain::explain(&mut out, args)?,
        Some(Command::Battle(args)) => battle::battle(&mut out, args)?,
        Some(Command::Players(args)) => players::players(&mut out, args)?,
        Some(Command::Play(args)) => play::play(&mut out, args)?,
        Some(Command::Position(args)) => position::position(&mut out, args)?,
        Some(Command::Replay(args)) => replay::replay(&mut out, args)?,
        Some(Command::Diff(args)) => diff::diff(&mut out, args)?,
    };
    out.flush()?;
    Ok(code)
}
