//! `explain`: why two rule sets differ for Caesar, field by field
//! ([`caesar_workbench::sim::explain`]).

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::sim::explain::{self, ExplainSetup};
use caesar_workbench::sim::{ShardArg, SimOptions};

use super::args::{
    PlayerArg, check_outputs, dry_run_done, load_game, out_path, parse_threads, pool,
    refuse_same_rules, resolve_shard,
};
use super::simulate::{emit_report_headed, with_progress};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// The two rule sets, A then B (give --variant twice): every field in
    /// which they differ is switched alone, at A and at B.
    #[arg(long, num_args = 1, required = true)]
    variant: Vec<String>,
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Games per rule set (the same seeds for every one).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Caesar's player (default: fast, the strongest measured under 0.005
    /// CPU s a game for A's setup; best, or any AI), the same under every
    /// rule set played.
    #[arg(long, default_value = "fast")]
    caesar_ai: PlayerArg,
    /// Pompey's player.
    #[arg(long, default_value = "fast")]
    pompey_ai: PlayerArg,
    /// Worker threads (default: all cores; at most 256). Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Play only part i of n of the games, for `merge` later (`auto` from a
    /// Slurm array or a Kubernetes Indexed Job).
    #[arg(long)]
    shard: Option<ShardArg>,
    /// Print the JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Write the report to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Read every input and check every output, then stop before the first game.
    #[arg(long)]
    dry_run: bool,
}

pub fn explain(out: &mut Output, args: ExplainArgs) -> Result<ExitCode, CliError> {
    if args.variant.len() != 2 {
        return Err(CliError::Usage(format!(
            "explain takes exactly two --variant options, A then B (got {})",
            args.variant.len()
        )));
    }
    let variants = [args.variant[0].as_str(), args.variant[1].as_str()];
    let scenario = args.scenario.as_deref();
    // Every rule set is played by the same players, so that only the rules
    // differ: `fast` and `best` are A's, played under both.
    let (caesar, caesar_note) = args
        .caesar_ai
        .resolve_best(&variants[..1], scenario, None)?;
    let (pompey, pompey_note) = args
        .pompey_ai
        .resolve_best(&variants[..1], scenario, None)?;
    let options = SimOptions {
        games: args.games,
        seed: args.seed,
        caesar,
        pompey,
        omniscient: false,
        shard: resolve_shard(args.shard)?,
    };
    options.check()?;
    let a = load_game(scenario, variants[0])?;
    let b = load_game(scenario, variants[1])?;
    refuse_same_rules(&args.variant, &[&a.game, &b.game])?;
    let report_path = args.out.as_deref().map(|p| out_path(p, options.shard));
    check_outputs(&report_path.as_deref().into_iter().collect::<Vec<_>>())?;
    let range = options.game_range();
    let total = (range.end - range.start) * explain::rule_sets_played(&a.game.rules, &b.game.rules);
    if args.dry_run {
        return dry_run_done(out, total);
    }
    let pool = pool(args.threads)?;
    let setup = ExplainSetup {
        a: &a.game,
        b: &b.game,
        variants,
    };
    let report = with_progress(total, |progress| {
        pool.install(|| explain::explain(&setup, &options, progress))
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let notes: Vec<String> = [("Caesar", caesar_note), ("Pompey", pompey_note)]
        .into_iter()
        .filter_map(|(side, note)| note.map(|n| format!("{side}'s player: {n}")))
        .collect();
    emit_report_headed(out, &report, args.json, report_path.as_deref(), &notes)?;
    Ok(ExitCode::SUCCESS)
}
