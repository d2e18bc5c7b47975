//! `balance`: Caesar's share at equilibrium between every player we can
//! build, with best responses until none moves it; `--challenge` plays one
//! player against a saved equilibrium's mix.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use caesar_workbench::ai::AiSpec;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::sim::players::bundle_folder;
use caesar_workbench::sim::questions::balance::library;
use caesar_workbench::sim::questions::balance::session::{Begin, Plan, Players};
use caesar_workbench::sim::questions::balance::{
    self as lib, BalanceOptions, BalanceReport, Oracle, Watch,
};
use caesar_workbench::sim::runs::cluster::ShardArg;

use super::args::{
    SetupArgs, bundle_ratings, check_outputs, load_game, one_or_two_variants,
    one_or_two_variants_arg, out_path, parse_side, parse_threads, pool, resolve_shard, same_file,
};
use super::output::warn;
use super::simulate::{emit_report, print_report, with_progress};
use super::{CliError, Output};

/// Rounds of best responses when --rounds is not given.
const DEFAULT_ROUNDS: u32 = 3;

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| one_or_two_variants_arg(a).help(
    "Rule set: a variant file or a built-in name; give it twice for the balance at \
     equilibrium of each and their difference over the same seeds"
)))]
pub struct BalanceArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// More players for both sides' populations, comma-separated.
    #[arg(long, value_delimiter = ',')]
    players: Vec<AiSpec>,
    /// Only the players named: leave out the shipped and fitted ones.
    #[arg(long)]
    only_named: bool,
    /// A fit's bundle whose players join the population; by default the
    /// `NAME.players/` folder beside the scenario or variant file.
    #[arg(long, value_name = "DIR")]
    bundle: Option<PathBuf>,
    /// The setup's population library: every player a run trains is kept
    /// there, and the kept players of this setup and rule set join the next
    /// run's population; by default `library/` in the bundle's folder (the
    /// one given, or beside the scenario or variant file), unless
    /// --only-named. The built-in setup has none unless given.
    #[arg(long, value_name = "DIR")]
    library: Option<PathBuf>,
    /// Wall-clock minutes on this machine: no stage starts that would not
    /// end within them (the report says where it stopped).
    #[arg(long, default_value_t = 30.0)]
    budget: f64,
    /// Base seed of every stream of games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games of every cell that decides the equilibrium.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    games: u64,
    /// Games of every cell before the deciding ones are played further.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    first_games: u64,
    /// Rounds of best responses at most (0: solve the players given)
    /// [default: 3]. With --resume, more than the report's goes on after
    /// its last round.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=50))]
    rounds: Option<u32>,
    /// A best response gaining no more than this many points leaves the equilibrium.
    #[arg(long, default_value_t = 1.0)]
    threshold: f64,
    /// Best responses trained each round: tune, search, value (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "tune,search,value")]
    oracles: Vec<Oracle>,
    /// Games that measure each response against the other side's mix.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(20..=1_000_000))]
    response_games: u64,
    /// Games of each CMA-ES tuning.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    tune_games: u64,
    /// Games each candidate start of a tuning plays against the mix first
    /// (the side's players, every shipped player's numbers, the default
    /// heuristic); CMA-ES sets out from the best. 0: from the side's
    /// heaviest player only.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    start_games: u64,
    /// CMA-ES runs of each tuning, from the best starts in turn (each of
    /// --tune-games); the best of them and the best start on fresh games is kept.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    tune_restarts: u32,
    /// Games a learned value is fitted on.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(100..=10_000_000))]
    learn_games: u64,
    /// Playouts per searched decision of the trained searches.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    playouts: u32,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Print the JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Write the report here (atomically), after every stage as it goes;
    /// trained players go to the folder beside it (`REPORT.players/`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Go on with a run from its report (`--out` of an interrupted run).
    #[arg(long, value_name = "REPORT")]
    resume: Option<PathBuf>,
    /// A second setup (scenario file) to compare under the one rule set:
    /// the balance at equilibrium of each and their difference over the
    /// same seeds (the first is --scenario, or the published game).
    #[arg(long, value_name = "SCENARIO", conflicts_with_all = ["resume", "shard", "bundle"])]
    compare_scenario: Option<PathBuf>,
    /// Play this player against the other side's equilibrium mix of
    /// `--equilibrium REPORT` instead of running a balance.
    #[arg(long, value_name = "PLAYER", requires_all = ["side", "equilibrium"])]
    challenge: Option<AiSpec>,
    /// The challenger's side.
    #[arg(long, value_parser = parse_side)]
    side: Option<Side>,
    /// A saved balance report (JSON) whose mix the challenger meets.
    #[arg(long, value_name = "REPORT")]
    equilibrium: Option<PathBuf>,
    /// Play only part i of n of every cell's games (1-based; `auto` from a
    /// Slurm array or Kubernetes Indexed Job), for `balance --merge` later:
    /// a fixed table of --games a cell, no rounds of best responses. A
    /// shard is played whole or again, never resumed; a challenge is
    /// played on one machine.
    #[arg(long, conflicts_with_all = ["resume", "challenge"])]
    shard: Option<ShardArg>,
    /// Merge the reports of a sharded table (JSON) into the whole table's
    /// report: the table is the shards', so an option that would play is
    /// refused rather than ignored.
    #[arg(long, value_name = "REPORT", num_args = 1.., conflicts_with_all = [
        "challenge", "resume", "shard", "compare_scenario", "players", "only_named", "bundle",
        "budget", "seed", "games", "first_games", "rounds", "threshold", "oracles",
        "response_games", "tune_games", "start_games", "tune_restarts", "learn_games", "playouts",
    ])]
    merge: Vec<PathBuf>,
    /// Read every input and check every output, then stop before the first game.
    #[arg(long)]
    dry_run: bool,
}

pub fn balance(out: &mut Output, args: BalanceArgs) -> Result<ExitCode, CliError> {
    if let Some(challenger) = args.challenge.clone() {
        return challenge(out, &args, challenger);
    }
    if !args.merge.is_empty() {
        return merge(out, &args);
    }
    let shard = resolve_shard(args.shard)?;
    if shard.is_some() && args.first_games != args.games {
        return Err(CliError::Usage(
            "--shard plays a fixed table: give --first-games as many as --games".to_string(),
        ));
    }
    let variants = one_or_two_variants(args.setup.variant.all(), "balance")?;
    let options = options_of(&args, shard)?;
    if let (Some(resume), Some(out_path)) = (&args.resume, &args.out)
        && same_file(resume, out_path)
    {
        return Err(CliError::Usage(format!(
            "refusing to write the report over the report it resumes ({}): give another --out",
            resume.display()
        )));
    }
    if args.resume.is_some() && variants.len() == 2 {
        return Err(CliError::Usage(
            "--resume goes on with one rule set's run: resume each separately".to_string(),
        ));
    }
    let runs = runs_of(&args, &variants)?;
    let mut games = Vec::new();
    for (v, scenario) in &runs {
        games.push(load_game(scenario.as_deref(), v)?.game);
    }
    if args.compare_scenario.is_some() {
        refuse_same_setup(&runs, &games)?;
    } else if variants.len() == 2 {
        super::args::refuse_same_rules(&variants, &games.iter().collect::<Vec<_>>())?;
    }
    // `{shard}` named once for every file the run writes.
    let out_file = args.out.as_deref().map(|p| out_path(p, shard));
    let report_paths: Vec<PathBuf> = match (&out_file, runs.len()) {
        (Some(p), 1) => vec![p.clone()],
        (Some(p), _) => run_tags(&runs, args.compare_scenario.is_some())
            .iter()
            .map(|tag| suffixed(p, tag))
            .collect(),
        (None, n) => vec![PathBuf::new(); n],
    };
    let mut outputs: Vec<&Path> = Vec::new();
    if let Some(p) = &out_file {
        outputs.extend(report_paths.iter().map(PathBuf::as_path));
        if runs.len() == 2 {
            outputs.push(p);
        }
    }
    check_outputs(&outputs)?;
    // Start (or resume) every run before the first game: all refusals first.
    let mut reports = Vec::new();
    for (k, (v, scenario)) in runs.iter().enumerate() {
        let report = start_report(&args, v, scenario.as_deref(), &games[k], &options)?;
        reports.push(report);
    }
    if args.dry_run {
        let cells: usize = reports
            .iter()
            .map(|r| r.caesar.len() * r.pompey.len())
            .sum();
        out.line(format_args!(
            "dry run: every input read and every output checked; {} players a side, {cells} cells of at least {} games, then up to {} rounds of best responses ({})",
            reports[0].caesar.len(),
            options.first_games,
            options.rounds,
            options
                .oracles
                .iter()
                .map(|o| o.name())
                .collect::<Vec<_>>()
                .join(", ")
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let libraries: Vec<Option<PathBuf>> = runs
        .iter()
        .map(|(v, scenario)| library_of(&args, scenario.as_deref(), v))
        .collect();
    let done = run_all(out, &args, reports, &games, &report_paths, &libraries)?;
    emit_done(out, &args, done, out_file.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// The run's options from the command line, each refused in words.
fn options_of(
    args: &BalanceArgs,
    shard: Option<caesar_workbench::sim::runs::cluster::Shard>,
) -> Result<BalanceOptions, CliError> {
    lib::session::budget(args.budget)
        .map_err(|e| CliError::Usage(format!("--{}", e.to_string().trim_start_matches("the "))))?;
    if args.first_games > args.games {
        return Err(CliError::Usage(format!(
            "--first-games ({}) is more than --games ({})",
            args.first_games, args.games
        )));
    }
    let rounds = args.rounds.unwrap_or(DEFAULT_ROUNDS);
    let options = BalanceOptions {
        seed: args.seed,
        first_games: args.first_games,
        games: args.games,
        rounds,
        threshold: args.threshold / 100.0,
        oracles: if rounds == 0 || shard.is_some() {
            Vec::new()
        } else {
            args.oracles.clone()
        },
        response_games: args.response_games,
        tune_games: args.tune_games,
        start_games: args.start_games,
        tune_restarts: args.tune_restarts,
        learn_games: args.learn_games,
        playouts: args.playouts,
        replicates: 200,
        omniscient: false,
        shard,
        training_seed: None,
    };
    options
        .check()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let trains = !options.oracles.is_empty();
    if trains && args.out.is_none() {
        return Err(CliError::Usage(
            "balance keeps the players it trains in a folder beside its report: give --out REPORT (or --rounds 0 to solve the players given)".to_string(),
        ));
    }
    Ok(options)
}

/// The run of rule set `variant` on `game`: a new population, or the
/// report `--resume` names, checked and set to go on (the library's
/// [`lib::session::prepare`], as the window's).
fn start_report(
    args: &BalanceArgs,
    v: &str,
    scenario: Option<&Path>,
    game: &caesar_workbench::engine::Game,
    options: &BalanceOptions,
) -> Result<BalanceReport, CliError> {
    let begin = match &args.resume {
        Some(path) => {
            let report = read_report(path)?;
            if report.options != *options && !report.options.oracles.is_empty() {
                warn(format_args!(
                    "resuming with the options of {} (its seed {}, {} rounds)",
                    path.display(),
                    report.options.seed,
                    report.options.rounds
                ));
            }
            Begin::Resume {
                report: Box::new(report),
                rounds: args.rounds,
            }
        }
        None => Begin::Fresh {
            variant: v.to_string(),
            options: options.clone(),
            players: Players {
                lineage: RuleSet::lineage(v)?,
                bundle: if args.only_named {
                    Vec::new()
                } else {
                    bundle_ratings(args.bundle.as_deref(), scenario, v)?
                },
                named: args.players.clone(),
                shipped: !args.only_named,
                library: library_of(args, scenario, v),
            },
        },
    };
    let prepared =
        lib::session::prepare(game, begin).map_err(|e| CliError::Usage(e.to_string()))?;
    if prepared.finished
        && let Some(path) = &args.resume
    {
        let report = &prepared.report;
        warn(format_args!(
            "{} is finished ({}): nothing is left to play{}",
            path.display(),
            report.stopped,
            if report.paused {
                "; give more --rounds to go on"
            } else {
                ""
            }
        ));
    }
    Ok(prepared.report)
}

/// Plays every run to its end or budget (each rule set its share of what
/// is left), writing each checkpoint to its report file.
fn run_all(
    out: &mut Output,
    args: &BalanceArgs,
    reports: Vec<BalanceReport>,
    games: &[caesar_workbench::engine::Game],
    report_paths: &[PathBuf],
    libraries: &[Option<PathBuf>],
) -> Result<Vec<BalanceReport>, CliError> {
    let pool = pool(args.threads)?;
    let started = Instant::now();
    let budget = Duration::from_secs_f64(args.budget * 60.0);
    let runs = reports.len() as u32;
    let mut done = Vec::new();
    for (k, mut report) in reports.into_iter().enumerate() {
        // Each rule set gets its share of what is left of the budget.
        let left = budget.saturating_sub(started.elapsed());
        let plan = Plan {
            budget: Some(left / (runs - k as u32)),
            checkpoint: args.out.as_ref().map(|_| report_paths[k].clone()),
            players_dir: None,
            library: libraries[k].clone(),
        };
        let watch = Arc::new(Watch::new());
        let result = watching(&watch, || {
            pool.install(|| {
                lib::session::run_plan(&games[k], &mut report, &plan, &watch, &mut |_| {})
            })
        });
        let path = plan.checkpoint.clone();
        if let Some(failed) = result
            .as_ref()
            .ok()
            .and_then(|ended| ended.checkpoint_failed.as_ref())
        {
            warn(format_args!("{failed}"));
        }
        let ended = result.map_err(|e| CliError::Usage(e.to_string()))?;
        if let Some(failed) = &ended.keep_failed {
            warn(format_args!("{failed}"));
        }
        if let Some(dir) = plan.library.as_ref().filter(|_| ended.kept > 0) {
            warn(format_args!(
                "kept {} player(s) this run trained in the setup's library {}: the next run starts from them",
                ended.kept,
                dir.display()
            ));
        }
        if let Some(p) = &path
            && runs == 2
        {
            emit_report(out, &report, true, Some(p))?;
        }
        done.push(report);
    }
    Ok(done)
}

/// Writes and prints the one report, or the comparison of two.
fn emit_done(
    out: &mut Output,
    args: &BalanceArgs,
    mut done: Vec<BalanceReport>,
    out_file: Option<&Path>,
) -> Result<(), CliError> {
    if done.len() == 2 {
        let b = done.pop().expect("two runs");
        let a = done.pop().expect("two runs");
        let comparison = lib::compare(a, b).map_err(|e| CliError::Usage(e.to_string()))?;
        if let Some(p) = out_file {
            emit_report(out, &comparison, true, Some(p))?;
        }
        print_report(out, &comparison, args.json)?;
    } else {
        let report = done.pop().expect("one run");
        // The file is always JSON: it is the run's checkpoint, what
        // --resume, --challenge and --merge read.
        if let Some(p) = out_file {
            emit_report(out, &report, true, Some(p))?;
        }
        print_report(out, &report, args.json)?;
        if let Some(p) = out_file
            && !args.json
        {
            out.line(format_args!(
                "wrote {} (check a player against it: caesar-workbench balance --challenge PLAYER --side caesar|pompey --equilibrium {})",
                p.display(),
                p.display()
            ))?;
        }
    }
    Ok(())
}

/// `balance --challenge`: a player against a saved equilibrium's mix.
fn challenge(
    out: &mut Output,
    args: &BalanceArgs,
    challenger: AiSpec,
) -> Result<ExitCode, CliError> {
    let side = args.side.expect("clap requires --side with --challenge");
    let path = args
        .equilibrium
        .as_deref()
        .expect("clap requires --equilibrium with --challenge");
    let mut report: BalanceReport = read_report(path)?;
    let variant = args
        .setup
        .variant
        .all()
        .first()
        .cloned()
        .unwrap_or_else(|| {
            // The report's own rule set, unless the user names one.
            report.variant.clone()
        });
    let game = load_game(args.setup.scenario(), &variant)?.game;
    lib::check_setup(&report, &game).map_err(|e| CliError::Usage(e.to_string()))?;
    if report.caesar_mix.is_empty() || report.pompey_mix.is_empty() {
        return Err(CliError::Usage(format!(
            "{} holds no equilibrium yet (its run stopped before the first table was solved)",
            path.display()
        )));
    }
    lib::reload_players(&mut report).map_err(|e| CliError::Usage(e.to_string()))?;
    let out_paths: Vec<&Path> = args.out.as_deref().into_iter().collect();
    check_outputs(&out_paths)?;
    if args.dry_run {
        out.line(format_args!(
            "dry run: every input read and every output checked; {} games would be played",
            args.games
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let pool = pool(args.threads)?;
    let seed = args.seed;
    let result = with_progress(args.games, |progress| {
        pool.install(|| {
            lib::challenge(
                &game,
                &report,
                &challenger,
                side,
                args.games,
                seed,
                progress,
            )
        })
    })?;
    emit_report(out, &result, args.json, args.out.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// `balance --merge`: the shards of one table into the whole table's report.
fn merge(out: &mut Output, args: &BalanceArgs) -> Result<ExitCode, CliError> {
    let mut reports = Vec::new();
    for path in &args.merge {
        let report: BalanceReport = read_report(path)?;
        reports.push((path.display().to_string(), report));
    }
    let out_file = args.out.as_deref().map(|p| out_path(p, None));
    if let Some(o) = &out_file
        && let Some(shard) = args.merge.iter().find(|s| same_file(s, o))
    {
        return Err(CliError::Usage(format!(
            "refusing to write the report over a shard it merges ({}): give another --out",
            shard.display()
        )));
    }
    check_outputs(&out_file.iter().map(PathBuf::as_path).collect::<Vec<_>>())?;
    let merged = lib::merge(reports).map_err(|e| CliError::Usage(e.to_string()))?;
    if let Some(p) = &out_file {
        emit_report(out, &merged, true, Some(p))?;
    }
    print_report(out, &merged, args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `work` with a line on stderr of the stage and games so far.
pub(super) fn watching<T: Send>(watch: &Arc<Watch>, work: impl FnOnce() -> T + Send) -> T {
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} {pos} games — {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    let watcher = {
        let watch = Arc::clone(watch);
        let bar = bar.clone();
        std::thread::spawn(move || {
            while !bar.is_finished() {
                bar.set_position(watch.progress.done());
                bar.set_message(watch.stage());
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    let result = work();
    bar.finish_and_clear();
    let _ = watcher.join();
    result
}

fn read_report(path: &Path) -> Result<BalanceReport, CliError> {
    lib::session::read_report(path).map_err(|e| CliError::Report(e.to_string()))
}

fn suffixed(path: &Path, tag: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "balance".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
    path.with_file_name(format!("{stem}-{tag}{ext}"))
}

/// Each run's rule set and scenario: one or two rule sets on the setup,
/// or one rule set on the setup and on `--compare-scenario`.
fn runs_of(
    args: &BalanceArgs,
    variants: &[String],
) -> Result<Vec<(String, Option<PathBuf>)>, CliError> {
    let scenario = args.setup.scenario().map(Path::to_path_buf);
    match (&args.compare_scenario, variants) {
        (None, _) => Ok(variants
            .iter()
            .map(|v| (v.clone(), scenario.clone()))
            .collect()),
        (Some(other), [v]) => Ok(vec![
            (v.clone(), scenario),
            (v.clone(), Some(other.clone())),
        ]),
        (Some(_), _) => Err(CliError::Usage(
            "--compare-scenario compares two setups under one rule set: give one --variant"
                .to_string(),
        )),
    }
}

/// Two setups that are one game compare nothing.
fn refuse_same_setup(
    runs: &[(String, Option<PathBuf>)],
    games: &[caesar_workbench::engine::Game],
) -> Result<(), CliError> {
    if games[0].scenario.digest == games[1].scenario.digest {
        let name = |k: usize| {
            runs[k].1.as_ref().map_or_else(
                || "the published game".to_string(),
                |p| p.display().to_string(),
            )
        };
        return Err(CliError::Usage(format!(
            "{} and --compare-scenario {} are the same setup: compare two different ones",
            name(0),
            name(1)
        )));
    }
    Ok(())
}

/// What tells each run's report apart beside the comparison's: its rule
/// set ([`variant_tags`]), or its scenario's file stem (`published` for
/// the published game) when two setups are compared.
fn run_tags(runs: &[(String, Option<PathBuf>)], setups: bool) -> Vec<String> {
    if !setups {
        let variants: Vec<String> = runs.iter().map(|(v, _)| v.clone()).collect();
        return variant_tags(&variants);
    }
    let tags: Vec<String> = runs
        .iter()
        .map(|(_, scenario)| {
            scenario.as_deref().and_then(Path::file_stem).map_or_else(
                || "published".to_string(),
                |s| s.to_string_lossy().into_owned(),
            )
        })
        .collect();
    distinct(tags)
}

/// `a-`/`b-` before two tags that are alike.
fn distinct(tags: Vec<String>) -> Vec<String> {
    if tags.len() == 2 && tags[0] == tags[1] {
        return tags
            .iter()
            .zip(["a", "b"])
            .map(|(t, k)| format!("{k}-{t}"))
            .collect();
    }
    tags
}

/// What tells each rule set's report apart beside the comparison's:
/// a built-in name whole (`rules-2.0`, whose `.0` is no extension), a
/// variant file by its stem; `a-`/`b-` first where the two would be alike.
fn variant_tags(variants: &[String]) -> Vec<String> {
    let tags: Vec<String> = variants
        .iter()
        .map(|v| {
            if caesar_workbench::scenario::rules::is_bare_name(v) {
                v.clone()
            } else {
                Path::new(v)
                    .file_stem()
                    .map_or_else(|| v.clone(), |s| s.to_string_lossy().into_owned())
            }
        })
        .collect();
    distinct(tags)
}

/// Where a run's trained players are kept and its population's kept
/// players come from: `--library`, else (unless only the players named
/// play) `library/` in the setup's players folder, the bundle given or the
/// one beside the scenario or variant file; none on the built-in setup.
fn library_of(args: &BalanceArgs, scenario: Option<&Path>, variant: &str) -> Option<PathBuf> {
    let bundle = args
        .bundle
        .clone()
        .or_else(|| bundle_folder(scenario, variant));
    library::chosen(args.library.as_deref(), args.only_named, bundle.as_deref())
}
