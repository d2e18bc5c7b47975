//! `fair`: the smallest change that brings a setup to even at equilibrium
//! (the library's [`caesar_workbench::sim::questions::fair`], on its balance run).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::sim::players::bundle_folder;
use caesar_workbench::sim::questions::balance::library;
use caesar_workbench::sim::questions::balance::session::{self, Players};
use caesar_workbench::sim::questions::balance::{BalanceOptions, Oracle, Watch};
use caesar_workbench::sim::questions::fair::{self, FairOptions, FairSetup};
use caesar_workbench::sim::questions::sweep::Axis;
use caesar_workbench::sim::runs::cluster::ShardArg;

use super::args::{
    SetupArgs, bundle_ratings, check_outputs, out_path, parse_threads, pool, resolve_shard,
    same_file,
};
use super::balance::watching;
use super::output::warn;
use super::simulate::{emit_report, print_report};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct FairArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// A knob to move, FIELD=VALUES as `sweep --set` takes it (a rule field,
    /// strength:SIDE:BLOCK, deploy:SIDE:BLOCK; A..B or A,B,…); give it again
    /// for more knobs, each tried alone. By default the tournament bid
    /// (extra levy points at the first levy, 0..10) of the side below even.
    #[arg(long = "vary")]
    vary: Vec<Axis>,
    /// Caesar's share that is fair, in percent.
    #[arg(long, default_value_t = 50.0)]
    target: f64,
    /// How far from the target the answer may be, in points.
    #[arg(long, default_value_t = 2.0)]
    tolerance: f64,
    /// Wall-clock minutes for the whole run: the base balance, the knobs
    /// and the check share it; any budget ends with a report.
    #[arg(long, default_value_t = 30.0)]
    budget: f64,
    /// Base seed of every stream of games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games of every pairing that decides an equilibrium.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    games: u64,
    /// Games of every pairing before the deciding ones are played further.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    first_games: u64,
    /// Rounds of best responses of the base balance.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=50))]
    rounds: u32,
    /// Rounds of best responses at the change found (its check).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=50))]
    check_rounds: u32,
    /// Best responses trained in the base's and the check's rounds.
    #[arg(long, value_delimiter = ',', default_value = "tune")]
    oracles: Vec<Oracle>,
    /// Games of each CMA-ES tuning.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    tune_games: u64,
    /// Games that measure each response against the other side's mix.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(20..=1_000_000))]
    response_games: u64,
    /// More players for both sides' populations, comma-separated.
    #[arg(long, value_delimiter = ',')]
    players: Vec<AiSpec>,
    /// Only the players named: leave out the shipped and fitted ones.
    #[arg(long)]
    only_named: bool,
    /// The setup's population library, whose kept players join the base's
    /// population and which keeps what the base trains (`balance
    /// --library`); by default `library/` in the players folder beside the
    /// scenario or variant file, unless --only-named.
    #[arg(long, value_name = "DIR")]
    library: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Print the JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Write the JSON report here (atomically); trained players go to the
    /// folder beside it (`REPORT.players/`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write a variant file that extends the rule set and sets only the
    /// change found (a rule field's).
    #[arg(long, value_name = "FILE")]
    write_variant: Option<PathBuf>,
    /// Go on with the run of this report (`fair --out`), cut short by its
    /// budget or a cancel: its knobs and options, on the same setup, to
    /// the report an uninterrupted run makes. Give --out another file.
    #[arg(long, value_name = "REPORT", conflicts_with_all = [
        "vary", "target", "tolerance", "seed", "games", "first_games", "rounds",
        "check_rounds", "oracles", "tune_games", "response_games",
    ])]
    resume: Option<PathBuf>,
    /// Play only part i of n of every table's games (1-based; `auto` from a
    /// Slurm array or Kubernetes Indexed Job): the base and every value of
    /// every knob at --games a cell from the first, no walk and no
    /// training, for `fair --merge` later. `{shard}` in --out becomes i-of-n.
    #[arg(long, conflicts_with_all = ["resume", "write_variant"])]
    shard: Option<ShardArg>,
    /// Join the reports of a sharded run (`fair --shard … --out`) and go on
    /// with its walk and checks here, as --resume does; the setup's
    /// --variant and --scenario as the shards had them, and their population.
    #[arg(long, value_name = "REPORT", num_args = 1.., conflicts_with_all = [
        "resume", "shard", "vary", "target", "tolerance", "seed", "games", "first_games",
        "rounds", "check_rounds", "oracles", "tune_games", "response_games", "players",
        "only_named",
    ])]
    merge: Vec<PathBuf>,
    /// Read every input and check every output, then stop before the first game.
    #[arg(long)]
    dry_run: bool,
}

pub fn fair(out: &mut Output, args: FairArgs) -> Result<ExitCode, CliError> {
    let (options, budget) = options_of(&args)?;
    let variant = args.setup.variant().to_string();
    let loaded = args.setup.load()?;
    let game = loaded.game;
    check_files(&args)?;
    let players = players_of(&args, &variant)?;
    let earlier = match (&args.resume, args.merge.as_slice()) {
        (Some(path), _) => {
            Some(fair::read_report(path).map_err(|e| CliError::Usage(e.to_string()))?)
        }
        (None, []) => None,
        (None, shards) => Some(merged(shards)?),
    };
    let (setup, options) = match earlier {
        Some(report) => {
            let players_dir = args.out.as_deref().map(session::players_dir_of);
            fair::resuming(
                report,
                &loaded.doc,
                &game,
                &variant,
                players,
                Some(budget),
                players_dir,
            )
            .map_err(|e| CliError::Usage(e.to_string()))?
        }
        None => {
            let setup = new_setup(
                &args,
                &loaded.doc,
                &game,
                &variant,
                players,
                options.target,
                budget,
            )?;
            (setup, options)
        }
    };
    check_plan(&args, &setup, &options)?;
    if args.dry_run {
        out.line(format_args!(
            "dry run: every input read and every output checked; knobs {}, {} candidate setups, within {} minutes",
            setup.knobs.iter().map(|k| k.axis.key.as_str()).collect::<Vec<_>>().join(", "),
            setup.knobs.iter().map(|k| k.points.len()).sum::<usize>(),
            args.budget
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let pool = pool(args.threads)?;
    let watch = Arc::new(Watch::new());
    // The report after every table, atomically: a killed run resumes from it.
    let mut checkpoint_failed = None;
    let out_path = args.out.as_deref().map(|p| out_path(p, options.shard));
    let mut on_step = |so_far: &fair::FairReport| {
        if let Some(p) = &out_path {
            checkpoint_failed = session::write_json(p, so_far).err();
        }
    };
    let report = watching(&watch, || {
        pool.install(|| fair::run(setup, &options, &watch, &mut on_step))
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    if let Some(e) = checkpoint_failed {
        warn(format_args!(
            "the last checkpoint could not be written: {e}"
        ));
    }
    if let Some(p) = &out_path {
        emit_report(out, &report, true, Some(p))?;
    }
    if let Some(path) = &args.write_variant {
        write_variant(path, &variant, &game, &report)?;
    }
    print_report(out, &report, args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The shards' reports joined into one to go on from, each read and
/// checked first; a report given twice or of another run refused.
fn merged(paths: &[PathBuf]) -> Result<fair::FairReport, CliError> {
    let mut reports = Vec::new();
    for path in paths {
        let report = fair::read_report(path).map_err(|e| CliError::Usage(e.to_string()))?;
        reports.push((path.display().to_string(), report));
    }
    fair::merge(reports).map_err(|e| CliError::Usage(e.to_string()))
}

/// Outputs refused before anything is played: two outputs on one file,
/// the report over the report it resumes, an output over an input.
fn check_files(args: &FairArgs) -> Result<(), CliError> {
    if let Some(o) = &args.out
        && let Some(shard) = args.merge.iter().find(|s| same_file(s, o))
    {
        return Err(CliError::Usage(format!(
            "refusing to write the report over a shard it merges ({}): give another --out",
            shard.display()
        )));
    }
    let mut outputs: Vec<&Path> = args.out.as_deref().into_iter().collect();
    outputs.extend(args.write_variant.as_deref());
    if let (Some(a), Some(b)) = (&args.out, &args.write_variant)
        && a == b
    {
        return Err(CliError::Usage(
            "--out and --write-variant name the same file: give two".to_string(),
        ));
    }
    if let (Some(r), Some(o)) = (&args.resume, &args.out)
        && same_file(r, o)
    {
        return Err(CliError::Usage(format!(
            "refusing to write the report over the report it resumes ({}): give another --out",
            r.display()
        )));
    }
    check_outputs(&outputs)
}

/// The population's players: the named, and unless only those, the
/// shipped and the setup's fitted ones.
fn players_of(args: &FairArgs, variant: &str) -> Result<Players, CliError> {
    Ok(Players {
        lineage: RuleSet::lineage(variant)?,
        bundle: if args.only_named {
            Vec::new()
        } else {
            bundle_ratings(None, args.setup.scenario(), variant)?
        },
        named: args.players.clone(),
        shipped: !args.only_named,
        // The setup's kept players join the base's population.
        library: library::chosen(
            args.library.as_deref(),
            args.only_named,
            bundle_folder(args.setup.scenario(), variant).as_deref(),
        ),
    })
}

/// A new run's setup: the knobs given, or by default the bid of the side
/// below even as the setup's measured balance says (both sides' where none is).
fn new_setup<'a>(
    args: &FairArgs,
    doc: &caesar_workbench::scenario::format::ResolvedScenario,
    game: &'a caesar_workbench::engine::Game,
    variant: &'a str,
    players: Players,
    target: f64,
    budget: std::time::Duration,
) -> Result<FairSetup<'a>, CliError> {
    let axes = if args.vary.is_empty() {
        let bundle = bundle_folder(args.setup.scenario(), variant);
        fair::default_axes(game, bundle.as_deref(), target)
    } else {
        args.vary.clone()
    };
    let knobs = fair::plan_knobs(doc, game, &axes).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(FairSetup {
        game,
        variant,
        knobs,
        players,
        budget: Some(budget),
        players_dir: args.out.as_deref().map(session::players_dir_of),
        progress: Default::default(),
        earlier_games: 0,
        earlier_seconds: 0.0,
    })
}

/// What the run's plan asks that its outputs cannot hold: trained players
/// without a folder, a setup's change as a variant.
fn check_plan(
    args: &FairArgs,
    setup: &FairSetup<'_>,
    options: &FairOptions,
) -> Result<(), CliError> {
    // A shard trains nothing: the driver that merges it does.
    let trains =
        options.shard.is_none() && (options.balance.rounds > 0 || options.check_rounds > 0);
    if trains && args.out.is_none() {
        return Err(CliError::Usage(
            "fair keeps the players it trains in a folder beside its report: give --out REPORT (or --rounds 0 --check-rounds 0)".to_string(),
        ));
    }
    if let Some(path) = &args.write_variant
        && let Some(k) = setup.knobs.iter().find(|k| k.axis.key.contains(':'))
    {
        return Err(CliError::Usage(format!(
            "--write-variant {} writes a rule set, and {} changes the setup: vary rule fields only, or leave it out",
            path.display(),
            k.axis.key
        )));
    }
    Ok(())
}

/// The change found as a variant file at `path`, if there is one.
fn write_variant(
    path: &Path,
    variant: &str,
    game: &caesar_workbench::engine::Game,
    report: &fair::FairReport,
) -> Result<(), CliError> {
    match &report.answer {
        Some(a) if report.answer_within() => {
            let text = fair::variant_text(
                &fair::variant_reference(variant, Some(path)),
                &game.rules,
                &a.settings(),
            );
            caesar_workbench::files::write_output(path, &text)
                .map_err(|e| CliError::Usage(format!("writing {}: {e}", path.display())))?;
        }
        Some(_) => warn(format_args!(
            "no change within the tolerance, only a nearest point: {} was not written",
            path.display()
        )),
        None => warn(format_args!(
            "no change found: {} was not written",
            path.display()
        )),
    }
    Ok(())
}

/// The run's options and budget from the command line, each refused in
/// words before anything is read.
fn options_of(args: &FairArgs) -> Result<(FairOptions, std::time::Duration), CliError> {
    let budget = session::budget(args.budget)
        .map_err(|e| CliError::Usage(format!("--{}", e.to_string().trim_start_matches("the "))))?;
    let options = FairOptions {
        target: args.target / 100.0,
        tolerance: args.tolerance / 100.0,
        balance: BalanceOptions {
            seed: args.seed,
            first_games: args.first_games.min(args.games),
            games: args.games,
            rounds: args.rounds,
            oracles: args.oracles.clone(),
            tune_games: args.tune_games,
            response_games: args.response_games,
            ..BalanceOptions::default()
        },
        check_rounds: args.check_rounds,
        shard: resolve_shard(args.shard)?,
    };
    options
        .check()
        .map_err(|e| CliError::Usage(with_flag(&e.to_string())))?;
    Ok((options, budget))
}

/// The library's words for the command line: the target and tolerance
/// are flags here.
fn with_flag(message: &str) -> String {
    message
        .replace("the target is", "--target is")
        .replace("the tolerance is", "--tolerance is")
}
