//! `fit`: players for a new setup in one command ([`caesar_workbench::sim::fit`]).
//! Each stage writes its file into the bundle folder as it ends, so an
//! interrupted fit keeps what is finished and `fit --resume DIR` goes on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use caesar_workbench::scenario::rules::DEFAULT_VARIANT;
use caesar_workbench::sim::fit::{self, Fit, FitError, FitRequest, Transferred, Verdict};

use super::args::{load_game, parse_threads, pool};
use super::output::warn;
use super::simulate::with_progress;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Rule set: a variant file or a built-in name.
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Wall minutes of this machine the whole fit may take (every thread
    /// busy), from 0.1 to 1440.
    #[arg(long, default_value_t = 10.0)]
    budget: f64,
    /// The bundle folder to write, new or empty (default: NAME.players
    /// beside the scenario file, else beside the variant file); `best`
    /// finds it there.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Go on with the fit whose bundle is DIR, from the first stage not finished.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["scenario", "variant", "budget", "out", "seed"])]
    resume: Option<PathBuf>,
    /// Base seed of the fit; the measurements play seeds derived from it
    /// that no stage of the fit played.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

impl From<FitError> for CliError {
    fn from(e: FitError) -> CliError {
        match e {
            FitError::Load(e) => CliError::Load(e),
            FitError::Write(e) => CliError::Write(e),
            other => CliError::Usage(other.to_string()),
        }
    }
}

pub fn fit(out: &mut Output, args: FitArgs) -> Result<ExitCode, CliError> {
    let pool = pool(args.threads)?;
    let started = Instant::now();
    let (dir, state) = match &args.resume {
        Some(dir) => (dir.clone(), fit::resume(dir)?),
        None => {
            let dir = bundle_folder(&args)?;
            let request = FitRequest {
                scenario: args.scenario.clone(),
                variant: args.variant.clone(),
                budget_minutes: args.budget,
                seed: args.seed,
            };
            let loaded = load_game(args.scenario.as_deref(), &args.variant)?;
            warn("fit: timing a game on this machine");
            let state = pool.install(|| fit::start(&dir, request, &loaded.game))?;
            let p = &state.plan;
            warn(format_args!(
                "fit: plan for {} min: {} games per side tuning, {} learning, {} each way per measured pairing",
                args.budget, p.tune_games_per_side, p.learn_games, p.measure_games_each_way
            ));
            (dir, state)
        }
    };
    // The fit's files are named from its folder.
    let variant = state.variant_spec(&dir);
    let loaded = load_game(state.scenario_file(&dir).as_deref(), &variant)?;
    let fit = Fit {
        dir: &dir,
        state: &state,
        game: &loaded.game,
        transferred: Transferred::of(&variant, &loaded.game)?,
    };
    let outcome = with_progress(fit.games_left(), |progress| {
        pool.install(|| fit.run(progress, &mut |what| warn(format_args!("fit: {what}"))))
    })?;
    out.line(outcome.report.trim_end())?;
    out.line(format!(
        "\nwrote {} ({:.1} min this run; {}): `--caesar-ai best` finds it beside the setup, or with --players {}",
        dir.display(),
        started.elapsed().as_secs_f64() / 60.0,
        match outcome.verdict {
            Verdict::FittedIsBest => "the fitted search is best here",
            Verdict::TransferredStays => "the transferred player stays best",
        },
        dir.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Where a new fit's bundle goes: `--out`, else beside the scenario file,
/// else beside the variant file.
fn bundle_folder(args: &FitArgs) -> Result<PathBuf, CliError> {
    match (&args.out, &args.scenario) {
        (Some(dir), _) => Ok(dir.clone()),
        (None, Some(scenario)) => Ok(fit::bundle_beside(scenario)),
        (None, None) if !caesar_workbench::scenario::rules::is_bare_name(&args.variant) => {
            Ok(fit::bundle_beside(Path::new(&args.variant)))
        }
        (None, None) => Err(CliError::Usage(
            "the published game under a built-in rule set has its shipped players: give --out DIR to fit anyway"
                .to_string(),
        )),
    }
}
