//! `players`: every player the workbench ships with how strong it measured,
//! strongest first; `--measure` plays them again.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::sim::players::ratings::{self, Rating};

use super::args::{SetupArgs, ThreadsArg, check_outputs};
use super::simulate::with_progress;
use super::{CliError, Output};

const DEFAULT_GAMES: u64 = 200;

#[derive(Debug, clap::Args)]
#[command(mut_arg("scenario", |a| a.help(
    "With --measure: the scenario to measure on (the published game when left out); \
     the ratings it writes record it"
)))]
pub struct PlayersArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// Play the players against the default heuristic now instead of
    /// listing the shipped figures.
    #[arg(long)]
    measure: bool,
    /// With --measure: the players, comma-separated (default: those the
    /// shipped figures list for the variant).
    #[arg(long, value_delimiter = ',')]
    players: Vec<AiSpec>,
    /// With --measure: the opponent (the listing and `best` use ratings
    /// against the default heuristic only).
    #[arg(long, default_value = "heuristic")]
    against: AiSpec,
    /// With --measure: games each way (as Caesar, then as Pompey).
    #[arg(long, default_value_t = DEFAULT_GAMES, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// With --measure: the base seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    /// With --measure: write the ratings (RON, as variants/players/ratings.ron) to this file;
    /// a ratings file already there is merged into (a player measured again replaces its entry).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn players(out: &mut Output, args: PlayersArgs) -> Result<ExitCode, CliError> {
    refuse_measure_options_without_measure(&args)?;
    // The rule set must load: a misspelt name is an error, not an empty list.
    let lineage = RuleSet::lineage(args.setup.variant())?;
    let shipped = ratings::shipped();
    let best =
        ratings::best_for(&lineage, None, &[]).map_err(|e| CliError::Usage(e.to_string()))?;
    let rated: Vec<Rating> = if args.measure {
        measure(&args, &shipped)?
    } else {
        // The ratings `best` chose from: this rule set's own, else those of
        // the nearest rule set it extends.
        lineage
            .iter()
            .map(|rules| ratings::ranked_for(&shipped, &rules.play_digest()))
            .find(|ranked| !ranked.is_empty())
            .unwrap_or_default()
            .into_iter()
            .cloned()
            .collect()
    };
    let against = if args.measure {
        args.against.to_string()
    } else {
        "heuristic".to_string()
    };
    if args.json {
        let json =
            serde_json::to_string_pretty(&rated).map_err(|e| CliError::Usage(e.to_string()))?;
        out.line(json)?;
        return Ok(ExitCode::SUCCESS);
    }
    if rated.is_empty() {
        out.line(format!(
            "No player was measured under {} or any rule set it extends; `players --measure --variant {}` measures them (the default heuristic plays for `best`).",
            args.setup.variant(), args.setup.variant()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    if !args.measure {
        out.line(format!("best = {}: {}", best.spec, best.describe()))?;
    }
    let best_first = against == "heuristic";
    print_table(out, args.setup.variant(), &against, &rated, best_first)?;
    Ok(ExitCode::SUCCESS)
}

/// `--out`, `--players`, `--games`, `--against` and `--seed` only mean
/// something to `--measure`: given without it they would be ignored.
fn refuse_measure_options_without_measure(args: &PlayersArgs) -> Result<(), CliError> {
    if args.measure {
        return Ok(());
    }
    let given = [
        ("--out", args.out.is_some()),
        ("--players", !args.players.is_empty()),
        ("--games", args.games != DEFAULT_GAMES),
        ("--against", args.against != AiSpec::Heuristic),
        ("--seed", args.seed != 1),
        ("--scenario", args.setup.scenario.is_some()),
        ("--threads", args.threads.threads.is_some()),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(CliError::Usage(format!(
            "{flag} is for --measure: add --measure to play the players again, or leave {flag} out to list the shipped figures"
        ))),
        None => Ok(()),
    }
}

fn measure(args: &PlayersArgs, shipped: &[Rating]) -> Result<Vec<Rating>, CliError> {
    let loaded = args.setup.load()?;
    let candidates: Vec<AiSpec> = if args.players.is_empty() {
        ratings::ranked(shipped, args.setup.variant())
            .iter()
            .map(|r| ratings::shipped_player(&r.player).map_err(|e| CliError::Usage(e.to_string())))
            .collect::<Result<_, _>>()?
    } else {
        args.players.clone()
    };
    // After the players are read: the output must be none of their files.
    // A ratings file already there is merged into, so it must read as one.
    let mut earlier = None;
    if let Some(path) = &args.out {
        check_outputs(&[path])?;
        earlier = ratings_already_in(path)?;
    }
    if candidates.is_empty() {
        return Err(CliError::Usage(format!(
            "no player to measure under {}: name them with --players",
            args.setup.variant()
        )));
    }
    let pool = args.threads.pool()?;
    let threads = pool.current_num_threads();
    let mut rated = Vec::new();
    for player in &candidates {
        super::output::warn(format_args!(
            "measuring {player} ({} games each way)",
            args.games
        ));
        let mut r = with_progress(2 * args.games, |progress| {
            pool.install(|| {
                ratings::rate(
                    &loaded.game,
                    args.setup.variant(),
                    player,
                    &args.against,
                    args.games,
                    args.seed,
                    progress,
                )
            })
        })
        .map_err(|_| CliError::Usage("cancelled".to_string()))?;
        r.measured = format!(
            "caesar-workbench players --measure --variant {}{} --players {player} --against {} --games {} --seed {} ({threads} threads)",
            args.setup.variant(),
            args.setup
                .scenario
                .as_ref()
                .map_or(String::new(), |s| format!(" --scenario {}", s.display())),
            args.against,
            args.games,
            args.seed
        );
        rated.push(r);
    }
    rated.sort_by(|a, b| b.score.estimate.total_cmp(&a.score.estimate));
    if let Some(path) = &args.out {
        let (header, all) = match earlier {
            Some((header, old)) => (header, ratings::merged(old, &rated)),
            None => (
                "// Players against the default heuristic, both sides (`caesar-workbench players --measure`).\n".to_string(),
                rated.clone(),
            ),
        };
        let text = ron::ser::to_string_pretty(&all, ron::ser::PrettyConfig::default())
            .map_err(|e| CliError::Usage(e.to_string()))?;
        caesar_workbench::files::write_output(path, &format!("{header}{text}\n"))?;
    }
    Ok(rated)
}

/// The ratings already in `--out`, with the comment lines it starts with,
/// to merge the new measurements into; `None` when there is no regular
/// file there. Anything there that is not a ratings file is refused, never
/// replaced.
fn ratings_already_in(path: &Path) -> Result<Option<(String, Vec<Rating>)>, CliError> {
    let is_file = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if caesar_workbench::files::is_stdout_name(path) || !is_file {
        return Ok(None);
    }
    let text = caesar_workbench::scenario::format::read_own_text(path)?;
    let old: Vec<Rating> = caesar_workbench::scenario::format::parse_ron(path, &text).map_err(|e| {
        CliError::Usage(format!(
            "{e}\n--out {} is not a ratings file: the measurements are merged into a ratings file, and nothing else is replaced",
            path.display()
        ))
    })?;
    for (i, r) in old.iter().enumerate() {
        ratings::check_figures(r).map_err(|e| {
            CliError::Usage(format!(
                "{}: rating {} (player \"{}\"): {e}",
                path.display(),
                i + 1,
                r.player
            ))
        })?;
    }
    let header: String = text
        .lines()
        .take_while(|line| line.trim_start().starts_with("//"))
        .map(|line| format!("{line}\n"))
        .collect();
    Ok(Some((header, old)))
}

fn print_table(
    out: &mut Output,
    variant: &str,
    against: &str,
    rated: &[Rating],
    best_first: bool,
) -> Result<(), CliError> {
    let against = if against == "heuristic" {
        "the default heuristic"
    } else {
        against
    };
    out.line(format!(
        "Players under {variant}, strongest first: share of the points against {against}, as Caesar and as Pompey alike (95% interval)"
    ))?;
    let width = rated
        .iter()
        .map(|r| r.player.chars().count())
        .max()
        .unwrap_or(0)
        .max(58);
    out.line(format!(
        "{:<4} {:<width$} {:>22} {:>9} {:>9} {:>10} {:>7}",
        "", "player", "score", "Caesar", "Pompey", "CPU s/game", "games"
    ))?;
    for (i, r) in rated.iter().enumerate() {
        out.line(format!(
            "{:<4} {:<width$} {:>22} {:>8.1}% {:>8.1}% {:>10.3} {:>7}",
            if i == 0 && best_first { "best" } else { "" },
            r.player,
            format!(
                "{:.1}% ({:.1}–{:.1}%)",
                100.0 * r.score.estimate,
                100.0 * r.score.ci95[0],
                100.0 * r.score.ci95[1]
            ),
            100.0 * r.as_caesar,
            100.0 * r.as_pompey,
            r.cpu_seconds_per_game,
            2 * r.games_each_way
        ))?;
    }
    out.line("")?;
    out.line("Measured with:")?;
    for r in rated {
        out.line(format!("  {}", r.measured))?;
    }
    if best_first {
        out.line("`--caesar-ai best` (or --pompey-ai) plays the first.")?;
    }
    Ok(())
}
