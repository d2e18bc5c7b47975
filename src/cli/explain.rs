//! `explain`: why two rule sets differ for Caesar, field by field
//! ([`caesar_workbench::sim::questions::explain`]), with changes to the setup as more
//! fields (`--set`), pairs switched together (`--pairs`) and the same at
//! the ladder's two strongest rungs (`--ladder`).

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::sim::questions::explain::{
    self, ExplainReport, ExplainSetup, Pairs, RungOrder, RungStrength,
};
use caesar_workbench::sim::questions::ladder::LadderOptions;
use caesar_workbench::sim::questions::sweep::Axis;
use caesar_workbench::sim::runs::cluster::ShardArg;
use caesar_workbench::sim::runs::options::SimOptions;

use super::args::{
    ReportArgs, SetupArgs, SidesArgs, ThreadsArg, check_outputs, dry_run_done, equilibrium_default,
    load_game, out_path, player_notes, refuse_same_rules, report_output, sim_options, two_variants,
};
use super::simulate::with_progress;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| two_variants(a).help(
    "The two rule sets, A then B (give --variant twice): every field in which they differ \
     is switched alone, at A and at B"
)))]
#[command(mut_args(equilibrium_default))]
pub struct ExplainArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// Games per rule set (the same seeds for every one); at least 10.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The players, the same under every rule set played (`best` and
    /// `fast` are A's).
    #[command(flatten)]
    sides: SidesArgs,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Play only part i of n of the games, for `merge` later (`auto` from a
    /// Slurm array or a Kubernetes Indexed Job).
    #[arg(long)]
    shard: Option<ShardArg>,
    #[command(flatten)]
    report: ReportArgs,
    /// Also write one CSV row per field (largest effect first), then the
    /// whole difference and the sum of the fields, as the window exports it.
    #[arg(long, conflicts_with = "ladder")]
    csv: Option<PathBuf>,
    /// A change to the setup B is played on, explained as one more field:
    /// deploy:SIDE:BLOCK=CITY or strength:SIDE:BLOCK=N (as `sweep` reads
    /// them, one value). Give --set again for more.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<Axis>,
    /// Also switch pairs of fields together and set each against the sum of
    /// its fields alone: the pairs named (FIELD+FIELD,...), or with no value
    /// those the run marks as interacting (needs the whole run: no --shard).
    #[arg(long, num_args = 0..=1, default_missing_value = "flagged", value_name = "PAIRS")]
    pairs: Option<String>,
    /// Repeat the explanation at the two strongest of these rungs (weakest
    /// first, as `ladder --players`), each player on both sides, and say
    /// whether each field's effect agrees between them.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["caesar_ai", "pompey_ai", "shard"])]
    ladder: Vec<AiSpec>,
    /// Read every input and check every output, then stop before the first game.
    #[arg(long)]
    dry_run: bool,
}

pub fn explain(out: &mut Output, args: ExplainArgs) -> Result<ExitCode, CliError> {
    refuse_combinations(&args)?;
    let given = args.setup.variant.all();
    let variants = [given[0].as_str(), given[1].as_str()];
    let scenario = args.setup.scenario();
    let players = players(&args, variants[0])?;
    let notes = player_notes(&players);
    let [(caesar, _), (pompey, _)] = players;
    let options = sim_options(args.games, args.seed, [caesar, pompey], false, args.shard)?;
    let usage = |e: explain::GamesError| CliError::Usage(e.to_string());
    explain::check_games(args.games).map_err(usage)?;
    let a = load_game(scenario, variants[0])?;
    let b = load_game(scenario, variants[1])?;
    refuse_same_rules(given, &[&a.game, &b.game])?;
    let (b_game, changes) = if args.set.is_empty() {
        (b.game, Vec::new())
    } else {
        explain::plan_setup_changes(&a.doc, &a.game, &b.game.rules, &args.set)
            .map_err(|e| CliError::Usage(format!("--set {e}")))?
    };
    let pairs = match args.pairs.as_deref() {
        None => Pairs::None,
        Some("flagged") => Pairs::Flagged,
        Some(named) => Pairs::Named(
            explain::read_pairs(&a.game.rules, &b_game.rules, named)
                .map_err(|e| CliError::Usage(format!("--pairs: {e}")))?,
        ),
    };
    let report_path = args.report.path(options.shard);
    let csv_path = args.csv.as_deref().map(|p| out_path(p, options.shard));
    let mut outputs: Vec<&std::path::Path> = csv_path.as_deref().into_iter().collect();
    outputs.push(report_output(report_path.as_deref()));
    check_outputs(&outputs)?;
    let setup = ExplainSetup {
        a: &a.game,
        b: &b_game,
        variants,
        setup_changes: &changes,
    };
    let fields = setup.games(&options).map_err(usage)?;
    if args.dry_run {
        return dry_run_done(out, dry_run_games(&args, &pairs, fields, &options)?);
    }
    let pool = args.threads.pool()?;
    if let [.., second, top] = args.ladder.as_slice() {
        let strength = rung_strength(&a.game, [second, top], &options, &pool)?;
        let on_both = |player: &AiSpec| SimOptions {
            caesar: player.clone(),
            pompey: player.clone(),
            ..options.clone()
        };
        let rungs = [on_both(second), on_both(top)];
        let ladder = with_progress(2 * fields, |progress| {
            pool.install(|| setup.play_rungs(&pairs, [&rungs[0], &rungs[1]], progress))
        })
        .map_err(cancelled)?;
        for rung in &ladder.rungs {
            say_no_pairs(&pairs, rung);
        }
        let ladder = ladder.with_strength(strength);
        args.report.emit(out, &ladder, options.shard, &[])?;
        return Ok(ExitCode::SUCCESS);
    }
    let report = with_progress(fields, |progress| {
        pool.install(|| setup.play(&pairs, &options, progress))
    })
    .map_err(cancelled)?;
    say_no_pairs(&pairs, &report);
    args.report.emit(out, &report, options.shard, &notes)?;
    if let Some(path) = &csv_path {
        caesar_workbench::files::write_output(path, &report.csv())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn cancelled(e: caesar_workbench::sim::Cancelled) -> CliError {
    CliError::Usage(e.to_string())
}

/// Says when `--pairs` without names found no pair to measure.
fn say_no_pairs(pairs: &Pairs, report: &ExplainReport) {
    if *pairs == Pairs::Flagged && report.pairs.is_empty() {
        eprintln!("--pairs: no field is marked as interacting, so there is no pair to measure");
    }
}

/// The games a `--dry-run` says would be played: the fields and the named
/// pairs (the marked ones are known only once the fields are measured);
/// with --ladder, at each rung, and the two rungs against each other (each
/// on each side).
fn dry_run_games(
    args: &ExplainArgs,
    pairs: &Pairs,
    fields: u64,
    options: &SimOptions,
) -> Result<u64, CliError> {
    let range = options.game_range();
    let per_rule_set = range.end - range.start;
    let count = |rule_sets: u64| {
        explain::total_games(per_rule_set, rule_sets).map_err(|e| CliError::Usage(e.to_string()))
    };
    let named = match pairs {
        Pairs::Named(named) => named.len() as u64,
        _ => 0,
    };
    let named_pairs = count(2 * named)?;
    let strength_games = count(2)?;
    if args.ladder.is_empty() {
        fields.checked_add(named_pairs)
    } else {
        fields
            .checked_add(named_pairs)
            .and_then(|one| one.checked_mul(2))
            .and_then(|two| two.checked_add(strength_games))
    }
    .ok_or_else(|| {
        CliError::Usage(format!(
            "--games {}: more games than can be counted",
            args.games
        ))
    })
}

/// Refuses what cannot be explained before anything is read: not two
/// rule sets, the marked pairs of a shard, a ladder of one rung.
fn refuse_combinations(args: &ExplainArgs) -> Result<(), CliError> {
    let given = args.setup.variant.all();
    if given.len() != 2 {
        return Err(CliError::Usage(format!(
            "explain takes exactly two --variant options, A then B (got {})",
            given.len()
        )));
    }
    if args.pairs.as_deref() == Some("flagged") && args.shard.is_some() {
        return Err(CliError::Usage(
            "--pairs without names measures the pairs the whole run marks as interacting, so it takes no --shard: name the pairs (--pairs FIELD+FIELD) to spread them".to_string(),
        ));
    }
    if args.ladder.len() == 1 {
        return Err(CliError::Usage(
            "--ladder takes at least two players (weakest first): the explanation is repeated at the two strongest".to_string(),
        ));
    }
    if !args.ladder.is_empty() {
        // A player twice, as `ladder` refuses it.
        LadderOptions {
            players: args.ladder.clone(),
            games: args.games,
            seed: args.seed,
            omniscient: false,
            shard: None,
        }
        .check()?;
    }
    Ok(())
}

/// The two strongest rungs against each other under rule set A, played
/// before the explanation: rungs out of order (the second measured
/// stronger) are refused; the verdict speaks of a stronger player only
/// when the strongest is measured so.
fn rung_strength(
    a: &caesar_workbench::engine::Game,
    [second, top]: [&AiSpec; 2],
    options: &SimOptions,
    pool: &rayon::ThreadPool,
) -> Result<RungStrength, CliError> {
    let total = options.games.saturating_mul(2);
    let strength = with_progress(total, |progress| {
        pool.install(|| explain::measure_rung_strength(a, [second, top], options, progress))
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    if strength.order() == RungOrder::Weaker {
        let players = [second.to_string(), top.to_string()];
        return Err(CliError::Usage(format!(
            "--ladder lists its rungs weakest first, but {}: list {second} after {top}",
            strength.sentence(&players, &a.rules.name)
        )));
    }
    Ok(strength)
}

/// Caesar's and Pompey's players with what `fast` or `best` stands for.
/// Every rule set is played by the same players, so that only the rules
/// differ: `fast` and `best` are A's, played under both. With --ladder the
/// rungs' players play instead (set per rung), and nothing is resolved.
fn players(args: &ExplainArgs, a: &str) -> Result<[(AiSpec, Option<String>); 2], CliError> {
    if let Some(top) = args.ladder.last() {
        return Ok([(top.clone(), None), (top.clone(), None)]);
    }
    args.sides.resolve(&[a], args.setup.scenario(), None)
}
