//! `tune`: fits the heuristic player to a rule set by self-play and writes
//! the player file that `heuristic:FILE` plays.

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::ai::PlayerNumbers;
use caesar_workbench::ai::SpecText;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::sim::players::tune::{self as lib, Effort, TuneOptions};
use caesar_workbench::sim::players::tune_search::{self, SearchTuneOptions};
use caesar_workbench::sim::{Cancelled, Progress};

use super::args::{SelfPlayArgs, SetupArgs, check_outputs, parse_side};
use super::simulate::{with_progress, write_file_and_report};
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| a.help("Rule set to tune for: a variant file or a built-in name")))]
pub struct TuneArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// The player file to write (atomically; an older one is kept as .bak).
    #[arg(long)]
    out: PathBuf,
    /// Games to play while searching, in all (the check games come on top).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(2..))]
    budget: u64,
    /// Games per candidate: even, half as Caesar and half as Pompey against
    /// the starting player. More games, less noise, fewer generations.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..))]
    games_per_candidate: u64,
    /// Candidates per generation (default: CMA-ES's, 4 + 3 ln of the number of parameters).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..1000))]
    population: Option<u64>,
    /// The first step of the search, as a relative change of every number
    /// (0.3: about 30% either way).
    #[arg(long, default_value_t = 0.3)]
    step: f64,
    /// Games of the final check against the starting player, on seeds the
    /// search never played (even; 0 to skip it).
    #[arg(long, default_value_t = 2_000)]
    check_games: u64,
    /// A player file to start from and to play against (default: the built-in numbers).
    #[arg(long)]
    start: Option<PathBuf>,
    /// Tune only this side's numbers (caesar or pompey), against the
    /// starting player's other side; the file written holds numbers per side.
    #[arg(long, value_parser = parse_side)]
    side: Option<Side>,
    /// Player files every candidate meets in turn, game by game, instead
    /// of the starting player alone (a pool of past champions; repeat the
    /// flag or separate the files with commas). With --side, each plays the
    /// other side by its numbers for that side.
    #[arg(long, value_delimiter = ',')]
    against: Vec<PathBuf>,
    /// Tune a tree search's own settings instead of the heuristic's numbers:
    /// `mcts:N@FILE` or `mcts:N@FILE+VALUE` (exploration, the heuristic's
    /// prior, the reused trees' share). The file written holds FILE's numbers
    /// with the tuned `mcts:` settings, which `mcts:N@OUT` then searches by.
    /// Mind the budget: a searched game costs what its playouts cost.
    #[arg(long)]
    search: Option<AiSpec>,
    /// With --search: the player every candidate meets, on both sides.
    #[arg(long, default_value = "heuristic", requires = "search")]
    opponent: AiSpec,
    #[command(flatten)]
    run: SelfPlayArgs,
}

pub fn tune(out: &mut Output, args: TuneArgs) -> Result<ExitCode, CliError> {
    if args.search.is_some() {
        return tune_search(out, args);
    }
    let loaded = args.setup.load()?;
    let start = match &args.start {
        Some(path) => PlayerNumbers::load(path)?,
        None => PlayerNumbers::default(),
    };
    let against = args
        .against
        .iter()
        .map(|path| PlayerNumbers::load(path))
        .collect::<Result<Vec<_>, _>>()?;
    check_outputs(&[&args.out])?;
    let options = TuneOptions {
        effort: args.effort(0),
        start,
        side: args.side,
        against,
    };
    options.check()?;
    let hint = format!("play it with --caesar-ai heuristic:{}", args.out.display());
    run_and_write(
        out,
        &args,
        (&loaded.game.rules.name, options.total_games()),
        |name, progress| lib::tune(&loaded.game, name, &options, progress),
        lib::TuneReport::player_file,
        &hint,
    )
}

impl TuneArgs {
    /// How hard to search and check; `population` when --population is
    /// left out.
    fn effort(&self, population: usize) -> Effort {
        Effort {
            budget: self.budget,
            games_per_candidate: self.games_per_candidate,
            population: self.population.map_or(population, |p| p as usize),
            step: self.step,
            check_games: self.check_games,
            seed: self.run.seed,
        }
    }
}

/// Runs a tuning of `total` games on the `--threads` pool, under the name
/// of the rule set `rules` names, then writes its player file to `--out`
/// and reports it.
fn run_and_write<R: serde::Serialize + std::fmt::Display + Send>(
    out: &mut Output,
    args: &TuneArgs,
    (rules, total): (&str, u64),
    run: impl FnOnce(&str, &Progress) -> Result<R, Cancelled> + Send,
    player_file: impl FnOnce(&R) -> String,
    hint: &str,
) -> Result<ExitCode, CliError> {
    let pool = args.run.threads.pool()?;
    let name = format!("{} ({})", args.setup.variant(), rules);
    let report = with_progress(total, |progress| pool.install(|| run(&name, progress)))
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let file = player_file(&report);
    write_file_and_report(
        out,
        (args.out.as_path(), &file),
        &report,
        args.run.json,
        hint,
    )
}

/// `tune --search`: the tree search's own settings.
fn tune_search(out: &mut Output, args: TuneArgs) -> Result<ExitCode, CliError> {
    if args.start.is_some() || args.side.is_some() || !args.against.is_empty() {
        return Err(CliError::Usage(
            "--search tunes a search's settings on its own player file: --start, --side and --against are for the heuristic's numbers".to_string(),
        ));
    }
    let loaded = args.setup.load()?;
    check_outputs(&[&args.out])?;
    let options = SearchTuneOptions {
        search: args
            .search
            .clone()
            .expect("tune_search is called with --search"),
        opponent: args.opponent.clone(),
        effort: args.effort(7),
    };
    options.check()?;
    let written = args.out.display().to_string();
    let search = SpecText::search_on("mcts:N", &written, None).text();
    let hint = format!("search by it with --caesar-ai {search}");
    run_and_write(
        out,
        &args,
        (&loaded.game.rules.name, options.total_games()),
        |name, progress| tune_search::tune_search(&loaded.game, name, &options, progress),
        tune_search::SearchTuneReport::player_file,
        &hint,
    )
}
