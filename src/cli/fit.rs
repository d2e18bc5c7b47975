//! `fit`: players for a new setup in one command ([`caesar_workbench::sim::players::fit`]).
//! Each stage writes its file into the bundle folder as it ends, so an
//! interrupted fit keeps what is finished and `fit --resume DIR` goes on.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use caesar_workbench::sim::players;
use caesar_workbench::sim::players::fit::{self, Fit, FitError, FitRequest, Transferred, Verdict};

use super::args::{SetupArgs, ThreadsArg, load_game};
use super::output::warn;
use super::simulate::with_progress;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct FitArgs {
    #[command(flatten)]
    setup: SetupArgs,
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
    #[command(flatten)]
    threads: ThreadsArg,
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
    let pool = args.threads.pool()?;
    let started = Instant::now();
    // The game is loaded and validated once: a new fit's from the
    // arguments, a resumed one's from the files its bundle names.
    let (dir, state, loaded) = match &args.resume {
        Some(dir) => {
            let state = fit::resume(dir)?;
            let loaded = load_game(
                state.scenario_file(dir).as_deref(),
                &state.variant_spec(dir),
            )?;
            (dir.clone(), state, loaded)
        }
        None => {
            let dir = bundle_folder(&args)?;
            let request = FitRequest {
                scenario: args.setup.scenario.clone(),
                variant: args.setup.variant().to_string(),
                budget_minutes: args.budget,
                seed: args.seed,
            };
            let loaded = args.setup.load()?;
            warn("fit: timing a game on this machine");
            let state = pool.install(|| fit::start(&dir, request, &loaded.game))?;
            let p = &state.plan;
            warn(format_args!(
                "fit: plan for {} min: {} games per side tuning, {} learning, {} each way per measured pairing",
                args.budget, p.tune_games_per_side, p.learn_games, p.measure_games_each_way
            ));
            (dir, state, loaded)
        }
    };
    // The fit's files are named from its folder.
    let variant = state.variant_spec(&dir);
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

/// Where a new fit's bundle goes: `--out`, else beside the setup's files
/// ([`players::bundle_folder`]).
fn bundle_folder(args: &FitArgs) -> Result<PathBuf, CliError> {
    match &args.out {
        Some(dir) => Ok(dir.clone()),
        None => players::bundle_folder(args.setup.scenario(), args.setup.variant()).ok_or_else(|| {
            CliError::Usage(
                "the published game under a built-in rule set has its shipped players: give --out DIR to fit anyway"
                    .to_string(),
            )
        }),
    }
}
