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
