//! `players`: every player the workbench ships with how strong it measured,
//! strongest first; `--measure` plays them again.

use std::path::PathBuf;
use std::process::ExitCode;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::scenario::rules::DEFAULT_VARIANT;
use caesar_workbench::sim::ratings::{self, Rating};

use super::args::{check_outputs, load_game, parse_threads, pool};
use super::simulate::with_progress;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct PlayersArgs {
    /// Rule set: a variant file or a built-in name.
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
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
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; at most 256). Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// With --measure: write the ratings (RON, as variants/players/ratings.ron) to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn players(out: &mut Output, args: PlayersArgs) -> Result<ExitCode, CliError> {
    let shipped = ratings::shipped();
    let rated = if args.measure {
        measure(&args, &shipped)?
    } else {
        ratings::ranked(&shipped, &args.variant)
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
            "No player was measured under {}; `players --measure --variant {}` measures them (the default heuristic plays for `best`).",
            args.variant, args.variant
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let best_first = against == "heuristic";
    print_table(out, &args.variant, &against, &rated, best_first)?;
    Ok(ExitCode::SUCCESS)
}

fn measure(args: &PlayersArgs, shipped: &[Rating]) -> Result<Vec<Rating>, CliError> {
    let loaded = load_game(None, &args.variant)?;
    if let Some(path) = &args.out {
        check_outputs(&[path])?;
    }
    let candidates: Vec<AiSpec> = if args.players.is_empty() {
        ratings::ranked(shipped, &args.variant)
            .iter()
            .map(|r| ratings::shipped_player(&r.player).map_err(|e| CliError::Usage(e.to_string())))
            .collect::<Result<_, _>>()?
    } else {
        args.players.clone()
    };
    if candidates.is_empty() {
        return Err(CliError::Usage(format!(
            "no player to measure under {}: name them with --players",
            args.variant
        )));
    }
    let pool = pool(args.threads)?;
    let threads = pool.current_num_threads();
    let mut rated = Vec::new();
    for player in &candidates {
        eprintln!("measuring {player} ({} games each way)", args.games);
        let mut r = with_progress(2 * args.games, |progress| {
            pool.install(|| {
                ratings::rate(
                    &loaded.game,
                    &args.variant,
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
            "caesar-workbench players --measure --variant {} --players {player} --against {} --games {} --seed {} ({threads} threads)",
            args.variant, args.against, args.games, args.seed
        );
        rated.push(r);
    }
    rated.sort_by(|a, b| b.score.estimate.total_cmp(&a.score.estimate));
    if let Some(path) = &args.out {
        let text = ron::ser::to_string_pretty(&rated, ron::ser::PrettyConfig::default())
            .map_err(|e| CliError::Usage(e.to_string()))?;
        let header = "// Players against the default heuristic, both sides (`caesar-workbench players --measure`).\n";
        caesar_workbench::files::write_output(path, &format!("{header}{text}\n"))?;
    }
    Ok(rated)
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
