//! The CLI's simulation commands: `simulate`, `compare`, `merge`, `battle`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use caesar_workbench::engine::Game;
use caesar_workbench::format::Side;
use caesar_workbench::odds::{BattleSpec, battle_odds, parse_blocks};
use caesar_workbench::sim::{
    self, AiSpec, CompareReport, GameRecord, Progress, Shard, SimOptions, SimReport,
};

use crate::cli::{RunArgs, load_game};

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn options(run: &RunArgs) -> Result<SimOptions, ExitCode> {
    let caesar: AiSpec = run.caesar_ai.parse().map_err(fail)?;
    let pompey: AiSpec = run.pompey_ai.parse().map_err(fail)?;
    let shard = match &run.shard {
        Some(s) => Some(s.parse::<Shard>().map_err(fail)?),
        None => None,
    };
    if run.games == 0 {
        return Err(fail("--games must be at least 1"));
    }
    Ok(SimOptions {
        games: run.games,
        seed: run.seed,
        caesar,
        pompey,
        omniscient: run.omniscient,
        shard,
    })
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, ExitCode> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err(fail("--threads must be at least 1"));
        }
        builder = builder.num_threads(t);
    }
    builder.build().map_err(fail)
}

/// Runs `work` with a progress bar on stderr (hidden when stderr is not a terminal).
fn with_progress<T: Send>(total: u64, work: impl FnOnce(&Progress) -> T + Send) -> T {
    let progress = Arc::new(Progress::new());
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, {eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let watcher = {
        let progress = Arc::clone(&progress);
        let bar = bar.clone();
        std::thread::spawn(move || {
            while !bar.is_finished() {
                bar.set_position(progress.done());
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let result = work(&progress);
    bar.finish_and_clear();
    let _ = watcher.join();
    result
}

/// Prints a finished report as text or JSON; a failed run is an error.
fn print_report<T, E>(report: Result<T, E>, json: bool) -> ExitCode
where
    T: serde::Serialize + std::fmt::Display,
    E: std::fmt::Display,
{
    match report {
        Ok(r) if json => print_json(&r),
        Ok(r) => println!("{r}"),
        Err(e) => return fail(e),
    }
    ExitCode::SUCCESS
}

fn print_json<T: serde::Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("error: cannot write the report as JSON: {e}"),
    }
}

pub fn simulate_command(run: &RunArgs, variant: &str, csv: Option<&Path>) -> ExitCode {
    let opts = match options(run) {
        Ok(o) => o,
        Err(c) => return c,
    };
    let game = match load_game(run.scenario.clone(), variant) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let pool = match pool(run.threads) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut writer = match csv.map(open_csv).transpose() {
        Ok(w) => w,
        Err(c) => return c,
    };
    let mut csv_error = None;
    let range = opts.game_range();
    let report = with_progress(range.end - range.start, |progress| {
        pool.install(|| {
            sim::simulate(
                &game,
                &game.rules.name,
                &opts,
                progress,
                |r: &GameRecord| {
                    if let Some(w) = writer.as_mut()
                        && csv_error.is_none()
                        && let Err(e) = writeln!(w, "{}", r.csv_row())
                    {
                        csv_error = Some(e);
                    }
                },
            )
        })
    });
    if let Some(w) = writer.as_mut()
        && let Err(e) = w.flush()
    {
        csv_error.get_or_insert(e);
    }
    if let Some(e) = csv_error {
        return fail(format!("cannot write the CSV file: {e}"));
    }
    print_report(report, run.json)
}

fn open_csv(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, ExitCode> {
    let file = std::fs::File::create(path)
        .map_err(|e| fail(format!("cannot create {}: {e}", path.display())))?;
    let mut w = std::io::BufWriter::new(file);
    writeln!(w, "{}", GameRecord::CSV_HEADER)
        .map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
    Ok(w)
}

pub fn compare_command(run: &RunArgs, variants: &[String]) -> ExitCode {
    if variants.len() != 2 {
        return fail(format!(
            "compare takes exactly two --variant options (got {})",
            variants.len()
        ));
    }
    let opts = match options(run) {
        Ok(o) => o,
        Err(c) => return c,
    };
    let mut games: Vec<Game> = Vec::new();
    for v in variants {
        match load_game(run.scenario.clone(), v) {
            Ok(g) => games.push(g),
            Err(c) => return c,
        }
    }
    let pool = match pool(run.threads) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let range = opts.game_range();
    let names = [games[0].rules.name.clone(), games[1].rules.name.clone()];
    let report = with_progress(2 * (range.end - range.start), |progress| {
        pool.install(|| {
            sim::compare(
                [&games[0], &games[1]],
                [&names[0], &names[1]],
                &opts,
                progress,
            )
        })
    });
    print_report(report, run.json)
}

pub fn merge_command(paths: &[PathBuf], json: bool) -> ExitCode {
    let mut sims = Vec::new();
    let mut compares = Vec::new();
    for path in paths {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
        };
        if let Ok(r) = serde_json::from_str::<CompareReport>(&text) {
            compares.push(r);
            continue;
        }
        match serde_json::from_str::<SimReport>(&text) {
            Ok(r) => sims.push(r),
            Err(e) => {
                return fail(format!(
                    "{}:{}:{}: not a simulate or compare report written with --json: {e}",
                    path.display(),
                    e.line(),
                    e.column()
                ));
            }
        }
    }
    if !sims.is_empty() && !compares.is_empty() {
        return fail("cannot merge simulate reports with compare reports");
    }
    if !compares.is_empty() {
        return print_report(CompareReport::merge(&compares), json);
    }
    let merged = SimReport::merge(&sims);
    if let Ok(r) = &merged
        && !r.is_complete()
    {
        eprintln!(
            "warning: the shards cover {} of the run's {} games",
            r.games, r.run_games
        );
    }
    print_report(merged, json)
}

pub struct BattleArgs<'a> {
    pub variant: &'a str,
    pub scenario: Option<PathBuf>,
    pub attacker: &'a str,
    pub attacking: &'a str,
    pub defending: &'a str,
    pub attacking_reserves: &'a str,
    pub defending_reserves: &'a str,
    pub surprise: bool,
    pub json: bool,
}

pub fn battle_command(args: BattleArgs) -> ExitCode {
    let attacker = match args.attacker.to_ascii_lowercase().as_str() {
        "caesar" => Side::Caesar,
        "pompey" => Side::Pompey,
        other => {
            return fail(format!(
                "--attacker is caesar or pompey, not \"{other}\"{}",
                caesar_workbench::names::did_you_mean(other, ["caesar", "pompey"])
            ));
        }
    };
    let game = match load_game(args.scenario, args.variant) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let defender = attacker.other();
    let parsed = (|| -> Result<BattleSpec, String> {
        Ok(BattleSpec {
            attacker,
            attacking: parse_blocks(&game, attacker, args.attacking)?,
            attacking_reserves: parse_blocks(&game, attacker, args.attacking_reserves)?,
            defending: parse_blocks(&game, defender, args.defending)?,
            defending_reserves: parse_blocks(&game, defender, args.defending_reserves)?,
            surprise: args.surprise,
        })
    })();
    let spec = match parsed {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let odds = match battle_odds(&game, &spec) {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    if args.json {
        print_json(&odds);
        return ExitCode::SUCCESS;
    }
    println!(
        "{} attacks under {}{}",
        attacker,
        game.rules.name,
        if spec.surprise { " (surprise)" } else { "" }
    );
    println!("  attacker wins     {:6.2}%", odds.attacker_wins * 100.0);
    println!("  defender holds    {:6.2}%", odds.defender_holds * 100.0);
    if odds.both_eliminated > 0.0 {
        println!("  both eliminated   {:6.2}%", odds.both_eliminated * 100.0);
    }
    println!(
        "  expected steps lost: attacker {:.2}, defender {:.2}",
        odds.expected_steps_lost.attacker, odds.expected_steps_lost.defender
    );
    let rounds: Vec<String> = odds
        .ends_in_round
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}: {:.1}%", i + 1, p * 100.0))
        .collect();
    println!("  battle ends in round {}", rounds.join(", "));
    for b in &odds.eliminated {
        println!(
            "  {:<14} ({}) eliminated {:5.1}%",
            b.block,
            b.side,
            b.eliminated * 100.0
        );
    }
    ExitCode::SUCCESS
}
