//! Argument types shared by the commands, and what they load.

use std::path::{Path, PathBuf};

use caesar_workbench::ai::{AiSpec, NotAPlayer, Spelling, spellings};
use caesar_workbench::engine::Game;
use caesar_workbench::scenario::checked::CheckedScenario;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::sim::ratings::FAST_GAME_CPU;
use caesar_workbench::sim::{Shard, ShardArg, SimOptions};

use std::process::ExitCode;

use super::output::{check_stdout, warn};
use super::{CliError, Output};

/// More worker threads than this is refused: beyond the cores there is
/// nothing to gain, and thousands of threads only take memory and time.
pub const MAX_THREADS: usize = 256;

/// Options shared by `simulate` and `compare`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Games to play (per variant).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed: game i uses a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    // Caesar's player; the kinds' spellings come from `ai::spec::KINDS`.
    #[arg(long, default_value = "fast", help = player_help())]
    pub caesar_ai: PlayerArg,
    /// Pompey's player.
    #[arg(long, default_value = "fast")]
    pub pompey_ai: PlayerArg,
    /// Worker threads (default: all cores; at most 256). Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Players see everything (no fog of war).
    #[arg(long)]
    pub omniscient: bool,
    /// Run only part i of n of the games (1-based), for `merge` later;
    /// n is at most the number of games. `auto` (or `auto/n`) takes i and n
    /// from a Slurm job array or a Kubernetes Indexed Job (docs/cluster.md).
    #[arg(long)]
    pub shard: Option<ShardArg>,
    /// Print a JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the report to this file (atomically) instead of standard
    /// output; `{shard}` in the name becomes the shard as `i-of-n`.
    #[arg(long)]
    pub out: Option<PathBuf>,
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

/// A player as `--caesar-ai` takes it: any [`AiSpec`]; `best`, the
/// strongest measured for the setup in play (`players` lists them); or
/// `fast`, the strongest of those under [`FAST_GAME_CPU`] a game (a fitted
/// or tuned heuristic), for runs of thousands of games.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerArg {
    Best,
    Fast,
    Spec(AiSpec),
}

/// `--caesar-ai`'s help: every kind's spellings, then `best` and `fast`.
fn player_help() -> String {
    format!(
        "Caesar's player: {} (a search may add @FILE to play on a player file's numbers; \
         a time budget does not reproduce exactly); best, the strongest measured for the \
         setup; or fast (the default), the strongest measured under {FAST_GAME_CPU} CPU s a game",
        spellings(Spelling::Help)
    )
}

impl std::str::FromStr for PlayerArg {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerArg, String> {
        match text {
            "best" => Ok(PlayerArg::Best),
            "fast" => Ok(PlayerArg::Fast),
            _ => text.parse().map(PlayerArg::Spec).map_err(|e| match e {
                NotAPlayer::Unknown { .. } => format!("{e}, or best or fast"),
                other => other.to_string(),
            }),
        }
    }
}

impl PlayerArg {
    /// The player under `variants` on `scenario` (the published game when
    /// `None`); `best` must be the same player under each, and says on
    /// standard error what it stands for and what it was measured on.
    pub fn resolve(&self, variants: &[&str], scenario: Option<&Path>) -> Result<AiSpec, CliError> {
        Ok(self.resolve_best(variants, scenario, None)?.0)
    }

    /// [`PlayerArg::resolve`], with what `best` stands for in words (`None`
    /// for a named player).
    pub fn resolve_best(
        &self,
        variants: &[&str],
        scenario: Option<&Path>,
        bundle: Option<&Path>,
    ) -> Result<(AiSpec, Option<String>), CliError> {
        if let PlayerArg::Spec(spec) = self {
            return Ok((spec.clone(), None));
        }
        {
            let scenario_digest = match scenario {
                Some(path) => Some(caesar_workbench::scenario::load_scenario(Some(path))?.digest()),
                None => None,
            };
            let mut best = Vec::new();
            let mut stale = Vec::new();
            let mut nearest = None;
            for v in variants {
                let chain = RuleSet::lineage(v)?;
                let lineage =
                    caesar_workbench::scenario::rule_fields::nearest_lineage(chain.clone());
                let (dir, bundle) = bundle_of(bundle, scenario, v)?.unzip();
                let bundle = bundle.unwrap_or_default();
                if let Some(dir) = &dir
                    && let Some(note) = caesar_workbench::sim::ratings::stale_bundle(
                        dir,
                        &bundle,
                        &lineage,
                        scenario_digest.as_deref(),
                    )
                    && !stale.contains(&note)
                {
                    stale.push(note);
                }
                if dir.is_none()
                    && let Some(note) =
                        renamed_bundle(scenario, &lineage, scenario_digest.as_deref())
                    && !stale.contains(&note)
                {
                    stale.push(note);
                }
                let found = match self {
                    PlayerArg::Fast => caesar_workbench::sim::ratings::fast_for(
                        &lineage,
                        scenario_digest.as_deref(),
                        &bundle,
                    ),
                    _ => caesar_workbench::sim::ratings::best_for(
                        &lineage,
                        scenario_digest.as_deref(),
                        &bundle,
                    ),
                }
                .map_err(|e| CliError::Usage(e.to_string()))?;
                if nearest.is_none() {
                    nearest = nearer_than_extends(&chain, &found);
                }
                best.push(found);
            }
            let name = if *self == PlayerArg::Fast {
                "fast"
            } else {
                "best"
            };
            if let Some(w) = best.windows(2).find(|w| w[0].spec != w[1].spec) {
                return Err(CliError::Usage(format!(
                    "{name} is {} under one rule set and {} under the other: name the player",
                    w[0].spec, w[1].spec
                )));
            }
            let mut words = format!("{name} = {}: {}", best[0].spec, best[0].describe());
            if let Some((rated, said)) = nearest {
                words = words.replace(&format!(" (it extends {rated})"), "");
                words += &said;
            }
            for note in stale {
                words += &format!("; {note}");
            }
            warn(format_args!("{words}"));
            Ok((best[0].spec.clone(), Some(words)))
        }
    }
}

/// When the player found was measured under a rule set that the `extends`
/// chain does not pass through (taken as the nearest by rule distance):
/// that rule set's name and the words that say so.
fn nearer_than_extends(
    chain: &[RuleSet],
    found: &caesar_workbench::sim::ratings::BestPlayer,
) -> Option<(String, String)> {
    use caesar_workbench::scenario::rule_fields::rule_distance;
    let rated = found.rating.as_ref().filter(|_| !found.same_rules)?;
    let is_builtin = caesar_workbench::scenario::rules::BUILTIN_VARIANTS
        .iter()
        .any(|(name, _)| *name == rated.variant);
    let own = chain.first()?;
    let measured = is_builtin.then(|| RuleSet::builtin(&rated.variant))?;
    if chain
        .iter()
        .any(|r| r.play_digest() == measured.play_digest())
    {
        return None;
    }
    let parent = chain
        .get(1)
        .map(|p| {
            format!(
                "; it extends {}, {} apart",
                p.name,
                fields_apart(rule_distance(own, p))
            )
        })
        .unwrap_or_default();
    Some((
        rated.variant.clone(),
        format!(
            "; {} is the measured rule set nearest to this one by rule distance ({}{parent})",
            rated.variant,
            fields_apart(rule_distance(own, &measured))
        ),
    ))
}

/// "1 field" or "10 fields" apart.
fn fields_apart(n: usize) -> String {
    if n == 1 {
        "1 field".to_string()
    } else {
        format!("{n} fields")
    }
}

/// The ratings of a fit's bundle for a setup ([`bundle_of`]; none when
/// there is no bundle), for callers that need no folder (`balance`).
pub fn bundle_ratings(
    given: Option<&Path>,
    scenario: Option<&Path>,
    variant: &str,
) -> Result<Vec<caesar_workbench::sim::ratings::Rating>, CliError> {
    Ok(bundle_of(given, scenario, variant)?.map_or_else(Vec::new, |(_, ratings)| ratings))
}

/// The fit's bundle for a setup, its folder and its ratings: the folder given
/// (`--players DIR`, which must hold one), else the one beside the scenario
/// file, else beside the variant file (`mine.ron` → `mine.players/`), if any.
/// `None` when there is none.
pub fn bundle_of(
    given: Option<&Path>,
    scenario: Option<&Path>,
    variant: &str,
) -> Result<Option<(PathBuf, Vec<caesar_workbench::sim::ratings::Rating>)>, CliError> {
    use caesar_workbench::sim::fit;
    if let Some(dir) = given {
        return Ok(Some((dir.to_path_buf(), fit::bundle_ratings(dir)?)));
    }
    let variant_file =
        (!caesar_workbench::scenario::rules::is_bare_name(variant)).then(|| Path::new(variant));
    for setup in [scenario, variant_file].into_iter().flatten() {
        let dir = fit::bundle_beside(setup);
        if dir.join(fit::BUNDLE_RATINGS).is_file() {
            let ratings = fit::bundle_ratings(&dir)?;
            return Ok(Some((dir, ratings)));
        }
    }
    Ok(None)
}

/// A fit's bundle beside the scenario file under another name (the
/// scenario renamed since the fit) that holds for the setup in play, in
/// words for the report: it is not used, but it is not passed over
/// silently either.
fn renamed_bundle(
    scenario: Option<&Path>,
    lineage: &[RuleSet],
    scenario_digest: Option<&str>,
) -> Option<String> {
    use caesar_workbench::sim::{fit, ratings};
    let scenario = scenario?;
    let rules = lineage.first()?.play_digest();
    let folder = scenario
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "players") && p.join(fit::BUNDLE_RATINGS).is_file()
        })
        .filter(|dir| {
            fit::bundle_ratings(dir).is_ok_and(|all| {
                all.iter()
                    .any(|r| ratings::holds_for(r, &rules, scenario_digest).is_ok())
            })
        })
        .collect();
    found.sort();
    let dir = found.first()?;
    Some(format!(
        "your fit in {} was made for this setup under another file name: it is not used; rename the folder to {} or give --players {}",
        dir.display(),
        fit::bundle_beside(scenario).display(),
        dir.display()
    ))
}

impl RunArgs {
    /// The run to play under `variants` (where `best` is resolved); refuses
    /// a shard that would hold no game.
    /// With it, what `best` or `fast` stood for, a line a side, for the
    /// head of a text report.
    pub fn options(&self, variants: &[&str]) -> Result<(SimOptions, Vec<String>), CliError> {
        let (scenario, bundle) = (self.scenario.as_deref(), self.players.as_deref());
        let (caesar, caesar_note) = self.caesar_ai.resolve_best(variants, scenario, bundle)?;
        let (pompey, pompey_note) = self.pompey_ai.resolve_best(variants, scenario, bundle)?;
        let options = SimOptions {
            games: self.games,
            seed: self.seed,
            caesar,
            pompey,
            omniscient: self.omniscient,
            shard: resolve_shard(self.shard)?,
        };
        options.check()?;
        let notes = [("Caesar", caesar_note), ("Pompey", pompey_note)]
            .into_iter()
            .filter_map(|(side, note)| note.map(|n| format!("{side}'s player: {n}")))
            .collect();
        Ok((options, notes))
    }

    /// A rayon pool of `--threads` workers (all cores by default).
    pub fn pool(&self) -> Result<rayon::ThreadPool, CliError> {
        pool(self.threads)
    }
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
