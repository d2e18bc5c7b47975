//! The command line: a thin shell over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use caesar_workbench::format::LoadError;
use caesar_workbench::rules::{DEFAULT_VARIANT, RuleSet};
use caesar_workbench::validate::{Report, Severity, validate};

#[derive(Debug, Parser)]
#[command(
    name = "caesar-workbench",
    version,
    about = "Map, deployment and rules workbench for Julius Caesar (Columbia Games)",
    long_about = "With no subcommand, opens the workbench window on the built-in \
                  Julius Caesar scenario. Subcommands run headless."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open the workbench window (the default).
    Gui {
        /// Scenario file; the built-in published game when left out.
        scenario: Option<PathBuf>,
        /// Rule set: a variant file or a built-in name (rules-1.1, rules-2.0, ...).
        #[arg(long, default_value = DEFAULT_VARIANT)]
        variant: String,
    },
    /// Check a scenario against the rules and against itself.
    ///
    /// Exit code 0: no errors (warnings allowed); 1: at least one error;
    /// 2: a file could not be read or parsed.
    Validate {
        /// Scenario file; the built-in published game when left out.
        scenario: Option<PathBuf>,
        /// Rule set: a variant file or a built-in name (rules-1.1, rules-2.0, ...).
        #[arg(long, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Print a JSON report instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the built-in rule sets.
    Variants,
    /// Play many games between AI players and report the statistics.
    Simulate {
        #[command(flatten)]
        run: RunArgs,
        /// Rule set: a variant file or a built-in name.
        #[arg(long, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Write one CSV row per game to this file.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Play two rule sets over the same seeds and report the differences.
    Compare {
        #[command(flatten)]
        run: RunArgs,
        /// The two rule sets (give --variant twice).
        #[arg(long, num_args = 1, required = true)]
        variant: Vec<String>,
    },
    /// Combine the JSON reports of the shards of one run (simulate or compare).
    Merge {
        /// Report files written with --json.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Print a JSON report instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Exact odds of one battle (no sampling).
    Battle {
        /// Rule set: a variant file or a built-in name.
        #[arg(long, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Scenario file (for its roster); the built-in game when left out.
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// The attacking side: caesar or pompey.
        #[arg(long)]
        attacker: String,
        /// Attacking blocks, as "Legio 13=3,Caesar=3" (strength as printed).
        #[arg(long)]
        attacking: String,
        /// Defending blocks, as "Legio 1=4".
        #[arg(long)]
        defending: String,
        /// Attacking reserves (arrive in round 2).
        #[arg(long, default_value = "")]
        attacking_reserves: String,
        /// Defending reserves (response moves, arrive in round 2).
        #[arg(long, default_value = "")]
        defending_reserves: String,
        /// Mars or Neptune: the attackers fire first in round 1.
        #[arg(long)]
        surprise: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play one whole game between AI players and print its record.
    Play {
        /// Rule set: a variant file or a built-in name.
        #[arg(long, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Scenario file; the built-in published game when left out.
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// Seed for the game's dice and shuffles (and the players).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Caesar's player: random, heuristic, search or search:PLAYOUTS.
        #[arg(long, default_value = "heuristic")]
        caesar_ai: String,
        /// Pompey's player.
        #[arg(long, default_value = "heuristic")]
        pompey_ai: String,
    },
}

/// Options shared by `simulate` and `compare`.
#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// Scenario file; the built-in published game when left out.
    #[arg(long)]
    pub(crate) scenario: Option<PathBuf>,
    /// Games to play (per variant).
    #[arg(long, default_value_t = 1000)]
    pub(crate) games: u64,
    /// Base seed: game i uses a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Caesar's player: random, heuristic, search or search:PLAYOUTS.
    #[arg(long, default_value = "heuristic")]
    pub(crate) caesar_ai: String,
    /// Pompey's player.
    #[arg(long, default_value = "heuristic")]
    pub(crate) pompey_ai: String,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Players see everything (no fog of war).
    #[arg(long)]
    pub(crate) omniscient: bool,
    /// Run only part i of n of the games (1-based), for `merge` later.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Print a JSON report instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        None => gui(None, DEFAULT_VARIANT),
        Some(Command::Gui { scenario, variant }) => gui(scenario, &variant),
        Some(Command::Validate {
            scenario,
            variant,
            json,
        }) => validate_command(scenario, &variant, json),
        Some(Command::Play {
            variant,
            scenario,
            seed,
            caesar_ai,
            pompey_ai,
        }) => play_command(&variant, scenario, seed, &caesar_ai, &pompey_ai),
        Some(Command::Simulate { run, variant, csv }) => {
            crate::runs::simulate_command(&run, &variant, csv.as_deref())
        }
        Some(Command::Compare { run, variant }) => crate::runs::compare_command(&run, &variant),
        Some(Command::Merge { reports, json }) => crate::runs::merge_command(&reports, json),
        Some(Command::Battle {
            variant,
            scenario,
            attacker,
            attacking,
            defending,
            attacking_reserves,
            defending_reserves,
            surprise,
            json,
        }) => crate::runs::battle_command(crate::runs::BattleArgs {
            variant: &variant,
            scenario,
            attacker: &attacker,
            attacking: &attacking,
            defending: &defending,
            attacking_reserves: &attacking_reserves,
            defending_reserves: &defending_reserves,
            surprise,
            json,
        }),
        Some(Command::Variants) => {
            for (name, _) in caesar_workbench::rules::BUILTIN_VARIANTS {
                match RuleSet::load(name) {
                    Ok(r) => println!("{name:40} {}", r.name),
                    Err(e) => println!("{name:40} BROKEN: {e}"),
                }
            }
            ExitCode::SUCCESS
        }
    }
}

fn gui(scenario: Option<PathBuf>, variant: &str) -> ExitCode {
    match caesar_workbench::app::run(scenario, variant) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("caesar-workbench: {e}");
            ExitCode::from(2)
        }
    }
}

fn load_error(e: &LoadError, json: bool) -> ExitCode {
    if json {
        let value = serde_json::json!({
            "error": e.to_string(),
            "location": e.location(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    }
    eprintln!("error: {e}");
    ExitCode::from(2)
}

fn validate_command(scenario: Option<PathBuf>, variant: &str, json: bool) -> ExitCode {
    let rules = match RuleSet::load(variant) {
        Ok(r) => r,
        Err(e) => return load_error(&e, json),
    };
    let doc = match caesar_workbench::load_scenario(scenario.as_deref()) {
        Ok(d) => d,
        Err(e) => return load_error(&e, json),
    };
    let report = validate(&doc, &rules);
    if json {
        print_json(&doc.path, &rules, &report);
    } else {
        print_text(&doc.path, &doc.name, &rules, &report);
    }
    if report.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_text(path: &std::path::Path, name: &str, rules: &RuleSet, report: &Report) {
    let s = &report.scenario;
    let seas = s
        .board
        .spaces
        .iter()
        .filter(|x| x.kind == caesar_workbench::format::SpaceKind::Sea)
        .count();
    println!("{}: {name} ({})", path.display(), rules.name);
    println!(
        "  {} spaces ({} cities, {seas} seas), {} links, {} blocks, {} cards, {} blocks deployed{}",
        s.board.len(),
        s.board.len() - seas,
        s.board.links.len(),
        s.roster.blocks.len(),
        s.deck.cards.len(),
        s.order_of_battle.placements.len(),
        if s.free_deployment.is_some() {
            " (plus a free deployment)"
        } else {
            ""
        }
    );
    for f in &report.findings {
        println!("{f}");
    }
    let e = report.errors();
    let w = report.warnings();
    println!(
        "{e} error{}, {w} warning{}",
        if e == 1 { "" } else { "s" },
        if w == 1 { "" } else { "s" }
    );
}

fn print_json(path: &std::path::Path, rules: &RuleSet, report: &Report) {
    let value = serde_json::json!({
        "scenario": path.display().to_string(),
        "name": report.scenario.name,
        "variant": rules.name,
        "errors": report.errors(),
        "warnings": report.warnings(),
        "findings": report.findings,
        "valid": !report.findings.iter().any(|f| f.severity == Severity::Error),
    });
    println!(
        "{}",
        serde_json::to_string_pretty(&value).unwrap_or_default()
    );
}

/// Loads a scenario and rule set into a game, refusing scenarios with errors.
pub(crate) fn load_game(
    scenario: Option<PathBuf>,
    variant: &str,
) -> Result<caesar_workbench::engine::Game, ExitCode> {
    let rules = RuleSet::load(variant).map_err(|e| load_error(&e, false))?;
    let doc =
        caesar_workbench::load_scenario(scenario.as_deref()).map_err(|e| load_error(&e, false))?;
    let report = validate(&doc, &rules);
    if report.errors() > 0 {
        for f in report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
        {
            eprintln!("{f}");
        }
        eprintln!("error: the scenario has errors; fix them first (caesar-workbench validate)");
        return Err(ExitCode::from(1));
    }
    Ok(caesar_workbench::engine::Game::new(
        std::sync::Arc::new(report.scenario),
        std::sync::Arc::new(rules),
    ))
}

fn make_player(
    name: &str,
    side: caesar_workbench::format::Side,
    seed: u64,
) -> Result<Box<dyn caesar_workbench::ai::Player>, ExitCode> {
    match name.parse::<caesar_workbench::sim::AiSpec>() {
        Ok(spec) => Ok(spec.player(side, seed, false)),
        Err(e) => {
            eprintln!("error: {e}");
            Err(ExitCode::from(2))
        }
    }
}

fn play_command(
    variant: &str,
    scenario: Option<PathBuf>,
    seed: u64,
    caesar_ai: &str,
    pompey_ai: &str,
) -> ExitCode {
    let game = match load_game(scenario, variant) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let mut players = match (
        make_player(
            caesar_ai,
            caesar_workbench::format::Side::Caesar,
            seed.wrapping_mul(2).wrapping_add(1),
        ),
        make_player(
            pompey_ai,
            caesar_workbench::format::Side::Pompey,
            seed.wrapping_mul(2).wrapping_add(2),
        ),
    ) {
        (Ok(c), Ok(p)) => [c, p],
        (Err(code), _) | (_, Err(code)) => return code,
    };
    println!(
        "{} under {}, seed {seed}: Caesar {caesar_ai} vs Pompey {pompey_ai}",
        game.scenario.name, game.rules.name
    );
    let mut record = PrintLog;
    let state = caesar_workbench::ai::play_game(&game, seed, &mut players, &mut record);
    let s = &state.stats;
    println!(
        "Battles {}, steps lost Caesar {} Pompey {}, leaders killed Caesar {} Pompey {}",
        s.battles, s.steps_lost[0], s.steps_lost[1], s.leaders_killed[0], s.leaders_killed[1]
    );
    ExitCode::SUCCESS
}

/// Prints the record as it is written.
struct PrintLog;
impl caesar_workbench::engine::Log for PrintLog {
    fn enabled(&self) -> bool {
        true
    }
    fn line(&mut self, text: String) {
        println!("{text}");
    }
}
