//! Argument types shared by the commands, and what they load.

use std::path::{Path, PathBuf};

use caesar_workbench::ai::{AiSpec, Spelling, spellings};
use caesar_workbench::engine::Game;
use caesar_workbench::scenario::checked::CheckedScenario;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::{DEFAULT_VARIANT, RuleSet};
use caesar_workbench::sim::players::ratings::FAST_GAME_CPU;
use caesar_workbench::sim::players::{RankError, Setup, find_bundle};
use caesar_workbench::sim::runs::cluster::{Shard, ShardArg};
use caesar_workbench::sim::runs::options::SimOptions;

use std::process::ExitCode;

use super::output::{check_stdout, warn};
use super::{CliError, Output};

/// More worker threads than this is refused: beyond the cores there is
/// nothing to gain, and thousands of threads only take memory and time.
pub const MAX_THREADS: usize = 256;

/// The rule set a command plays: the one declaration of `--variant`. Once
/// by default ([`DEFAULT_VARIANT`] when left out); a command that compares
/// rule sets takes it again through [`two_variants`] or
/// [`one_or_two_variants_arg`] on its `#[command(mut_arg("variant", …))]`.
#[derive(Debug, Clone, clap::Args)]
pub struct VariantArg {
    /// Rule set: a variant file or a built-in name (rules-1.1, rules-2.0, ...).
    #[arg(
        id = "variant",
        long = "variant",
        value_name = "VARIANT",
        default_value = DEFAULT_VARIANT,
        action = clap::ArgAction::Set
    )]
    variants: Vec<String>,
}

impl VariantArg {
    /// The rule set of a command that takes one.
    pub fn one(&self) -> &str {
        self.variants
            .first()
            .map_or(DEFAULT_VARIANT, String::as_str)
    }

    /// Every `--variant` given, in order (the default when none was).
    pub fn all(&self) -> &[String] {
        &self.variants
    }
}

/// `--variant` given exactly twice, A then B (`compare`, `explain`).
pub fn two_variants(arg: clap::Arg) -> clap::Arg {
    arg.action(clap::ArgAction::Append)
        .required(true)
        .default_value(None)
}

/// `--variant` given once or twice (`ladder`, `balance`; checked by
/// [`one_or_two_variants`]).
pub fn one_or_two_variants_arg(arg: clap::Arg) -> clap::Arg {
    arg.action(clap::ArgAction::Append).default_value(None)
}

/// The setup a command plays: its rule set and its scenario, the one
/// declaration of `--scenario`.
#[derive(Debug, Clone, clap::Args)]
pub struct SetupArgs {
    #[command(flatten)]
    pub variant: VariantArg,
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
}

impl SetupArgs {
    /// The rule set of a command that takes one.
    pub fn variant(&self) -> &str {
        self.variant.one()
    }

    pub fn scenario(&self) -> Option<&Path> {
        self.scenario.as_deref()
    }

    /// The game of the rule set on the scenario ([`load_game`]).
    pub fn load(&self) -> Result<Loaded, CliError> {
        load_game(self.scenario(), self.variant())
    }
}

/// Caesar's and Pompey's players: the one declaration of `--caesar-ai` and
/// `--pompey-ai` (`fast` by default; a command that plays few games sets
/// another default with `mut_arg`).
#[derive(Debug, Clone, clap::Args)]
pub struct SidesArgs {
    // Caesar's player; the kinds' spellings come from `ai::spec::KINDS`.
    #[arg(long, default_value = "fast", help = player_help())]
    pub caesar_ai: PlayerArg,
    /// Pompey's player.
    #[arg(long, default_value = "fast")]
    pub pompey_ai: PlayerArg,
}

impl SidesArgs {
    /// Both players under `variants` on `scenario`, each with what `best`
    /// or `fast` stood for ([`resolve_best`]).
    pub fn resolve(
        &self,
        variants: &[&str],
        scenario: Option<&Path>,
        bundle: Option<&Path>,
    ) -> Result<[(AiSpec, Option<String>); 2], CliError> {
        Ok([
            resolve_best(&self.caesar_ai, variants, scenario, bundle)?,
            resolve_best(&self.pompey_ai, variants, scenario, bundle)?,
        ])
    }

    /// Both players, without the words.
    pub fn specs(
        &self,
        variants: &[&str],
        scenario: Option<&Path>,
    ) -> Result<[AiSpec; 2], CliError> {
        let [(caesar, _), (pompey, _)] = self.resolve(variants, scenario, None)?;
        Ok([caesar, pompey])
    }
}

/// `--caesar-ai` and `--pompey-ai` played by the default heuristic unless
/// named (`play`, `learn`: a game or a self-play, not thousands); for
/// `#[command(mut_args(heuristic_default))]`, every other argument as it is.
pub fn heuristic_default(arg: clap::Arg) -> clap::Arg {
    if ["caesar_ai", "pompey_ai"].contains(&arg.get_id().as_str()) {
        arg.default_value("heuristic")
    } else {
        arg
    }
}

/// `--caesar-ai` and `--pompey-ai` played by the balance measured for the
/// setup (`explain`: what makes the setup fair or not is best judged
/// between the players each side would choose), `fast` where none is.
pub fn equilibrium_default(arg: clap::Arg) -> clap::Arg {
    if ["caesar_ai", "pompey_ai"].contains(&arg.get_id().as_str()) {
        arg.default_value("equilibrium")
    } else {
        arg
    }
}

/// "Caesar's player: …" a line a side, for the head of a text report: what
/// `best` or `fast` stood for.
pub fn player_notes(resolved: &[(AiSpec, Option<String>); 2]) -> Vec<String> {
    ["Caesar", "Pompey"]
        .into_iter()
        .zip(resolved)
        .filter_map(|(side, (_, note))| note.as_ref().map(|n| format!("{side}'s player: {n}")))
        .collect()
}

/// Options shared by `simulate` and `compare`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Games to play (per variant).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed: game i uses a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub sides: SidesArgs,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Players see everything (no fog of war).
    #[arg(long)]
    pub omniscient: bool,
    /// Run only part i of n of the games (1-based), for `merge` later;
    /// n is at most the number of games. `auto` (or `auto/n`) takes i and n
    /// from a Slurm job array or a Kubernetes Indexed Job (docs/cluster.md).
    #[arg(long)]
    pub shard: Option<ShardArg>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// A fit's bundle (`fit --out DIR`) whose players `best` takes; by
    /// default the `NAME.players/` folder beside the scenario or variant file.
    #[arg(long, value_name = "DIR")]
    pub players: Option<PathBuf>,
    /// Read every input and check every output as the run would, then stop
    /// before the first game (what `deploy/slurm/submit.sh` runs before
    /// queueing anything).
    #[arg(long)]
    pub dry_run: bool,
}

/// `--json` and `--out` of the commands that print or write one report of
/// a run that may be sharded (`simulate`, `compare`, `sweep`, `ladder`,
/// `explain`), declared once.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Print the JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the report to this file (atomically) instead of standard
    /// output; `{shard}` in the name becomes the shard as `i-of-n`.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl ReportArgs {
    /// The file `--out` names for `shard` ([`out_path`]); none for standard output.
    pub fn path(&self, shard: Option<Shard>) -> Option<PathBuf> {
        self.out.as_deref().map(|p| out_path(p, shard))
    }
}

/// A player as `--caesar-ai` takes it: any [`AiSpec`]; `best`, the
/// strongest measured for the setup in play (`players` lists them); or
/// `fast`, the strongest of those under [`FAST_GAME_CPU`] a game (a fitted
/// or tuned heuristic), for runs of thousands of games.
pub use caesar_workbench::sim::players::PlayerChoice as PlayerArg;

/// `--caesar-ai`'s help: every kind's spellings, then `best` and `fast`.
fn player_help() -> String {
    format!(
        "Caesar's player: {} (a search may add @FILE to play on a player file's numbers; \
         a time budget does not reproduce exactly); best, the strongest measured for the \
         setup; fast, the strongest measured under {FAST_GAME_CPU} CPU s a game; or \
         equilibrium, each side's mix at the balance measured for the setup (fast where none is)",
        spellings(Spelling::Help)
    )
}

/// The player under `variants` on `scenario` (the published game when
/// `None`); `best` must be the same player under each, and says on
/// standard error what it stands for and what it was measured on.
pub fn resolve(
    player: &PlayerArg,
    variants: &[&str],
    scenario: Option<&Path>,
) -> Result<AiSpec, CliError> {
    Ok(resolve_best(player, variants, scenario, None)?.0)
}

/// [`resolve`], with what `best` stands for in words (`None` for a named
/// player), on the fit's bundle `bundle` when given.
pub fn resolve_best(
    player: &PlayerArg,
    variants: &[&str],
    scenario: Option<&Path>,
    bundle: Option<&Path>,
) -> Result<(AiSpec, Option<String>), CliError> {
    if let PlayerArg::Spec(spec) = player {
        return Ok((spec.clone(), None));
    }
    let setup = Setup::of_files(scenario, bundle)?;
    let (spec, words) = player.resolve(variants, &setup).map_err(|e| match e {
        RankError::Load(e) => CliError::Load(e),
        other => CliError::Usage(other.to_string()),
    })?;
    if let Some(words) = &words {
        warn(format_args!("{words}"));
    }
    Ok((spec, words))
}

/// The ratings of a fit's bundle for a setup (none when there is none),
/// for callers that need no folder (`balance`).
pub fn bundle_ratings(
    given: Option<&Path>,
    scenario: Option<&Path>,
    variant: &str,
) -> Result<Vec<caesar_workbench::sim::players::ratings::Rating>, CliError> {
    Ok(find_bundle(given, scenario, variant)?.map_or_else(Vec::new, |(_, ratings)| ratings))
}

impl RunArgs {
    /// The run to play under `variants` (where `best` is resolved); refuses
    /// a shard that would hold no game.
    /// With it, what `best` or `fast` stood for, a line a side, for the
    /// head of a text report.
    pub fn options(&self, variants: &[&str]) -> Result<(SimOptions, Vec<String>), CliError> {
        let (scenario, bundle) = (self.setup.scenario(), self.players.as_deref());
        let resolved = self.sides.resolve(variants, scenario, bundle)?;
        let notes = player_notes(&resolved);
        let [(caesar, _), (pompey, _)] = resolved;
        let options = sim_options(
            self.games,
            self.seed,
            [caesar, pompey],
            self.omniscient,
            self.shard,
        )?;
        Ok((options, notes))
    }

    /// A rayon pool of `--threads` workers (all cores by default).
    pub fn pool(&self) -> Result<rayon::ThreadPool, CliError> {
        self.threads.pool()
    }
}

/// A run's options from the command line's, checked: the shard resolved,
/// a run that would play nothing refused.
pub fn sim_options(
    games: u64,
    seed: u64,
    [caesar, pompey]: [AiSpec; 2],
    omniscient: bool,
    shard: Option<ShardArg>,
) -> Result<SimOptions, CliError> {
    let options = SimOptions {
        games,
        seed,
        caesar,
        pompey,
        omniscient,
        shard: resolve_shard(shard)?,
    };
    options.check()?;
    Ok(options)
}

/// The shard to play: as given, or (`--shard auto`) from the scheduler's
/// environment.
pub fn resolve_shard(shard: Option<ShardArg>) -> Result<Option<Shard>, CliError> {
    shard
        .map(|s| s.resolve_from_env())
        .transpose()
        .map_err(|e| CliError::Usage(format!("--{e}")))
}

/// Where `--out` writes: `{shard}` replaced by the shard as `i-of-n` (`1-of-1`
/// for a whole run).
pub fn out_path(template: &Path, shard: Option<Shard>) -> PathBuf {
    let text = template.to_string_lossy();
    if !text.contains("{shard}") {
        return template.to_path_buf();
    }
    let name = shard.map_or("1-of-1".to_string(), |s| {
        format!("{}-of-{}", s.index + 1, s.count)
    });
    PathBuf::from(text.replace("{shard}", &name))
}

/// `--seed`, `--threads` and `--json` of the commands that fit a player by
/// self-play (`learn`, `tune`), declared once.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SelfPlayArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Print the full JSON report instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--threads`, declared once.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores; at most 256). Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl ThreadsArg {
    /// A rayon pool of `--threads` workers (all cores by default).
    pub fn pool(&self) -> Result<rayon::ThreadPool, CliError> {
        pool(self.threads)
    }
}

/// A rayon pool of `threads` workers (all cores when None).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t);
    }
    builder
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the worker threads: {e}")))
}

/// `caesar` or `pompey`, in any case ([`Side`]'s own parser), for clap.
pub fn parse_side(text: &str) -> Result<Side, String> {
    text.parse::<Side>().map_err(|e| e.to_string())
}

/// 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match text.parse::<usize>() {
        Ok(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        Ok(0) => Err("at least 1 worker thread is needed".to_string()),
        _ => Err(format!(
            "expected a number of worker threads from 1 to {MAX_THREADS} (this machine has {cores} cores)"
        )),
    }
}

/// A game ready to play.
pub struct Loaded {
    pub game: Game,
    /// The scenario as read (for records, which digest its sections).
    pub doc: caesar_workbench::scenario::format::ResolvedScenario,
}

/// Loads a scenario and rule set into a game, refusing scenarios with errors.
pub fn load_game(scenario: Option<&Path>, variant: &str) -> Result<Loaded, CliError> {
    let rules = RuleSet::load(variant)?;
    let doc = caesar_workbench::scenario::load_scenario(scenario)?;
    let game = CheckedScenario::from_document(&doc, rules, Some(variant))
        .map(Game::from_checked)
        .map_err(|refused| CliError::InvalidScenario {
            findings: refused.messages(),
        })?;
    warn_degenerate(&game);
    Ok(Loaded { game, doc })
}

/// Says on standard error what `validate` warns of a rule set that plays
/// but decides little (degenerate values: a game won at the start, a rule
/// that can never apply), once per rule set and process.
fn warn_degenerate(game: &Game) {
    static WARNED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let map_vp: u32 = game.board().spaces.iter().map(|s| u32::from(s.vp)).sum();
    let found = caesar_workbench::scenario::rule_fields::degenerate_values(&game.rules, map_vp);
    if found.is_empty() {
        return;
    }
    let mut warned = WARNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let digest = game.rules.play_digest();
    if warned.contains(&digest) {
        return;
    }
    warned.push(digest);
    for message in found {
        warn(format_args!("warning: {message} (degenerate-rule)"));
    }
}

/// Refuses two `--variant`s that play as one rule set (the same rules, by
/// another name, path or `name:`): their difference is nothing but noise.
pub fn refuse_same_rules(variants: &[String], games: &[&Game]) -> Result<(), CliError> {
    for j in 1..games.len() {
        for i in 0..j {
            if games[i].rules.play_digest() == games[j].rules.play_digest() {
                return Err(CliError::Usage(format!(
                    "--variant {} and --variant {} are the same rule set: compare two different ones",
                    variants[i], variants[j]
                )));
            }
        }
    }
    Ok(())
}

/// `games` played `times` over (rule sets, sweep points), refused when the
/// count does not fit in 64 bits rather than wrapped.
pub fn games_times(games: u64, times: u64) -> Result<u64, CliError> {
    games.checked_mul(times).ok_or_else(|| {
        CliError::Usage(format!(
            "--games {games}: {games} games {times} times over is more games than can be counted"
        ))
    })
}

/// Ends a `--dry-run` once its inputs are read and its outputs checked:
/// says what would be played, plays nothing.
pub fn dry_run_done(out: &mut Output, games: u64) -> Result<ExitCode, CliError> {
    out.line(format_args!(
        "dry run: every input read and every output checked; {games} games would be played"
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Where a report goes, as an output to check: its file, or `-` (standard
/// output) when it is printed, so that a CSV sent to `-` beside a printed
/// report (one stream, two formats) is refused.
pub fn report_output(path: Option<&Path>) -> &Path {
    path.unwrap_or(Path::new("-"))
}

/// Checks, before any game is played, that every output of a command can
/// be written, that no two of them (nor a `.bak` one keeps) land in one
/// place, and that none of them, standard output and error included, is a
/// file the command has read (every file of every `extends` chain, player
/// files, records, position files, reports: [`caesar_workbench::files`]).
pub fn check_outputs(paths: &[&Path]) -> Result<(), CliError> {
    check_stdout()?;
    caesar_workbench::files::check_outputs(paths)?;
    Ok(())
}

/// The `--variant` options of a command that compares at most two rule
/// sets: the default rule set when none is given.
pub fn one_or_two_variants(given: &[String], command: &str) -> Result<Vec<String>, CliError> {
    if given.len() > 2 {
        return Err(CliError::Usage(format!(
            "{command} takes one or two --variant options (got {})",
            given.len()
        )));
    }
    Ok(if given.is_empty() {
        vec![caesar_workbench::scenario::rules::DEFAULT_VARIANT.to_string()]
    } else {
        given.to_vec()
    })
}

/// Whether two paths name one file (the same path where either is not there yet).
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
