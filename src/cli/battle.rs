//! `battle`: exact odds of one battle.

use std::process::ExitCode;

use caesar_workbench::engine::Game;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::sim::questions::odds::{BattleOdds, BattleSpec, battle_odds, parse_blocks};

use super::args::{SetupArgs, parse_side};
use super::output::check_stdout;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(mut_arg("scenario", |a| a.help("Scenario file (for its roster); the built-in game when left out")))]
pub struct BattleArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// The attacking side: caesar or pompey.
    #[arg(long, value_parser = parse_side)]
    attacker: Side,
    /// Attacking blocks, as "Legio 13=3,Caesar=3" (strength as printed).
    #[arg(long)]
    attacking: String,
    /// Defending blocks, as "Legio 1=4".
    #[arg(long)]
    defending: String,
    /// Attacking reserves (arrive in round 2).
    #[arg(long, default_value = "")]
    attacking_reserves: String,
    /// Defending reserves (response moves, arrive in round 2).
    #[arg(long, default_value = "")]
    defending_reserves: String,
    /// Mars or Neptune: the attackers fire first in round 1.
    #[arg(long)]
    surprise: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn battle(out: &mut Output, args: BattleArgs) -> Result<ExitCode, CliError> {
    let attacker = args.attacker;
    let loaded = args.setup.load()?;
    check_stdout()?;
    let game = loaded.game;
    let defender = attacker.other();
    let blocks = |side, text: &str| {
        parse_blocks(&game, side, text).map_err(|e| CliError::Usage(e.to_string()))
    };
    let spec = BattleSpec {
        attacker,
        attacking: blocks(attacker, &args.attacking)?,
        attacking_reserves: blocks(attacker, &args.attacking_reserves)?,
        defending: blocks(defender, &args.defending)?,
        defending_reserves: blocks(defender, &args.defending_reserves)?,
        surprise: args.surprise,
    };
    let odds = battle_odds(&game, &spec).map_err(|e| CliError::Usage(e.to_string()))?;
    if args.json {
        out.json(&odds)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_odds(out, &game, &spec, &odds)?;
    Ok(ExitCode::SUCCESS)
}

/// The odds in words: who wins, the steps lost, when the battle ends and
/// each block's chance of elimination.
fn print_odds(
    out: &mut Output,
    game: &Game,
    spec: &BattleSpec,
    odds: &BattleOdds,
) -> Result<(), CliError> {
    let attacker = spec.attacker;
    out.line(format_args!(
        "{} attacks under {}{}",
        attacker,
        game.rules.name,
        if spec.surprise { " (surprise)" } else { "" }
    ))?;
    out.line(format_args!(
        "  attacker wins     {:6.2}%",
        odds.attacker_wins * 100.0
    ))?;
    out.line(format_args!(
        "  defender holds    {:6.2}%",
        odds.defender_holds * 100.0
    ))?;
    if odds.both_eliminated > 0.0 {
        out.line(format_args!(
            "  both eliminated   {:6.2}%",
            odds.both_eliminated * 100.0
        ))?;
    }
    out.line(format_args!(
        "  expected steps lost: attacker {:.2}, defender {:.2}",
        odds.expected_steps_lost.attacker, odds.expected_steps_lost.defender
    ))?;
    let rounds: Vec<String> = odds
        .ends_in_round
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}: {:.1}%", i + 1, p * 100.0))
        .collect();
    out.line(format_args!("  battle ends in round {}", rounds.join(", ")))?;
    for b in &odds.eliminated {
        out.line(format_args!(
            "  {:<14} ({}) eliminated {:5.1}%",
            b.block,
            b.side,
            b.eliminated * 100.0
        ))?;
    }
    Ok(())
}
