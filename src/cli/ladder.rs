//! `ladder`: mirror matches at every rung of a strength ladder, cross-play
//! ratings and a verdict.

use std::process::ExitCode;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::sim::questions::ladder as lib;
use caesar_workbench::sim::questions::ladder::LadderOptions;
use caesar_workbench::sim::runs::cluster::ShardArg;

use super::args::{
    ReportArgs, SetupArgs, ThreadsArg, check_outputs, dry_run_done, load_game, one_or_two_variants,
    one_or_two_variants_arg, refuse_same_rules, resolve_shard,
};
use super::simulate::with_progress;
use super::{CliError, Output};
use caesar_workbench::sim::players::measured_for;

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| one_or_two_variants_arg(a).help(
    "Rule set: a variant file or a built-in name; give it twice to compare two rule sets \
     at every rung (over the same seeds)"
)))]
pub struct LadderArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// The rungs, weakest first, comma-separated: random, heuristic, search:N, mcts:N.
    #[arg(long, value_delimiter = ',', required = true)]
    players: Vec<AiSpec>,
    /// Reserve rungs, weakest first: while the two strongest rungs do not
    /// agree, the next is added on top and played, until they agree or the
    /// reserve is spent (the report says which were added and why it stopped).
    #[arg(long, value_delimiter = ',')]
    then: Vec<AiSpec>,
    /// Games of every match (each rung's mirror match, each cross-play pairing).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Base seed: every match's seed derives from it and the rung(s).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Players see everything (no fog of war).
    #[arg(long)]
    omniscient: bool,
    /// Play only part i of n of every match's games (1-based), for `merge`
    /// later; `auto` or `auto/n` from a Slurm array or Kubernetes Indexed Job.
    #[arg(long)]
    shard: Option<ShardArg>,
    #[command(flatten)]
    report: ReportArgs,
    /// Read every input and check every output, then stop before the first game.
    #[arg(long)]
    dry_run: bool,
}

/// The options of the rungs played first, and of every rung (with
/// `--then`'s), checked; `--then` with a shard refused.
fn ladder_options(args: &LadderArgs) -> Result<(LadderOptions, LadderOptions), CliError> {
    let options = LadderOptions {
        players: args.players.clone(),
        games: args.games,
        seed: args.seed,
        omniscient: args.omniscient,
        shard: resolve_shard(args.shard)?,
    };
    let every_rung = LadderOptions {
        players: [&args.players[..], &args.then[..]].concat(),
        ..options.clone()
    };
    every_rung.check()?;
    if !args.then.is_empty() && options.shard.is_some() {
        return Err(CliError::Usage(
            "--then decides which rungs to play from the whole matches, so it takes no --shard"
                .to_string(),
        ));
    }
    Ok((options, every_rung))
}

pub fn ladder(out: &mut Output, args: LadderArgs) -> Result<ExitCode, CliError> {
    let variants = one_or_two_variants(args.setup.variant.all(), "ladder")?;
    let (options, every_rung) = ladder_options(&args)?;
    let mut loaded = Vec::new();
    for v in &variants {
        loaded.push(load_game(args.setup.scenario(), v)?);
    }
    refuse_same_rules(
        &variants,
        &loaded.iter().map(|l| &l.game).collect::<Vec<_>>(),
    )?;
    let report_path = args.report.path(options.shard);
    check_outputs(&report_path.as_deref().into_iter().collect::<Vec<_>>())?;
    if args.dry_run {
        return dry_run_done(out, every_rung.total_games(loaded.len()));
    }
    let games: Vec<_> = loaded.into_iter().map(|l| l.game).collect();
    let names: Vec<String> = games.iter().map(|g| g.rules.name.clone()).collect();
    let pool = args.threads.pool()?;
    let game_refs: Vec<_> = games.iter().collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    // The bar counts every rung's games: a climb that settles early ends short of it.
    let report = with_progress(every_rung.total_games(games.len()), |progress| {
        pool.install(|| {
            if args.then.is_empty() {
                lib::ladder(&game_refs, &name_refs, &options, progress)
            } else {
                lib::climb(&game_refs, &name_refs, &options, &args.then, progress)
            }
        })
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let mut report = report;
    if let [game] = game_refs.as_slice() {
        // "Fair" speaks of the measured balance too, where there is one.
        report.measured_balance =
            match measured_for(game, args.setup.scenario.as_deref(), &variants[0]) {
                Ok(found) => found.map(|m| m.line()),
                Err(e) => Some(e.to_string()),
            };
    }
    args.report.emit(out, &report, options.shard, &[])?;
    Ok(ExitCode::SUCCESS)
}
