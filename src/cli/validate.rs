//! `validate` and `variants`: the scenario and the rule sets.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use caesar_workbench::scenario::format::LoadError;
use caesar_workbench::scenario::model::SpaceKind;
use caesar_workbench::scenario::rules::{BUILTIN_VARIANTS, RuleSet};
use caesar_workbench::scenario::validate::{Report, Severity, validate as check};

use super::args::VariantArg;
use super::output::check_stdout;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Scenario file; the built-in published game when left out.
    scenario: Option<PathBuf>,
    #[command(flatten)]
    variant: VariantArg,
    /// Print a JSON report instead of text.
    #[arg(long)]
    json: bool,
}

/// Exit 0 with no errors (warnings allowed), 1 with errors; a file that
/// cannot be read or parsed is an error (exit 2), also described in JSON
/// on stdout with `--json`.
pub fn validate(out: &mut Output, args: ValidateArgs) -> Result<ExitCode, CliError> {
    let loaded = RuleSet::load(args.variant.one()).and_then(|rules| {
        Ok((
            rules,
            caesar_workbench::scenario::load_scenario(args.scenario.as_deref())?,
        ))
    });
    let (rules, doc) = match loaded {
        Ok(l) => l,
        Err(e) => return Err(load_error(out, e, args.json)),
    };
    check_stdout()?;
    let mut report = check(&doc, &rules);
    caesar_workbench::scenario::validate::locate_rule_findings(&mut report, args.variant.one());
    if args.json {
        print_json(out, &doc.path, &rules, &report)?;
    } else {
        print_text(out, &doc.path, &doc.name, &rules, &report)?;
    }
    Ok(if report.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn load_error(out: &mut Output, e: LoadError, json: bool) -> CliError {
    if json {
        let value = serde_json::json!({
            "error": e.to_string(),
            "location": e.location(),
        });
        if let Err(write) = out.json(&value) {
            return write;
        }
    }
    CliError::Load(e)
}

fn print_text(
    out: &mut Output,
    path: &Path,
    name: &str,
    rules: &RuleSet,
    report: &Report,
) -> Result<(), CliError> {
    let s = &report.scenario;
    let seas = s
        .board
        .spaces
        .iter()
        .filter(|x| x.kind == SpaceKind::Sea)
        .count();
    out.line(format_args!("{}: {name} ({})", path.display(), rules.name))?;
    out.line(format_args!(
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
    ))?;
    for f in &report.findings {
        out.line(f)?;
    }
    let e = report.errors();
    let w = report.warnings();
    out.line(format_args!(
        "{e} error{}, {w} warning{}",
        if e == 1 { "" } else { "s" },
        if w == 1 { "" } else { "s" }
    ))
}

fn print_json(
    out: &mut Output,
    path: &Path,
    rules: &RuleSet,
    report: &Report,
) -> Result<(), CliError> {
    let value = serde_json::json!({
        "scenario": path.display().to_string(),
        "name": report.scenario.name,
        "variant": rules.name,
        "errors": report.errors(),
        "warnings": report.warnings(),
        "findings": report.findings,
        "valid": !report.findings.iter().any(|f| f.severity == Severity::Error),
    });
    out.json(&value)
}

/// The built-in rule sets, one a line.
pub fn variants(out: &mut Output) -> Result<ExitCode, CliError> {
    for (name, _) in BUILTIN_VARIANTS {
        match RuleSet::load(name) {
            Ok(r) => out.line(format_args!("{name:40} {}", r.name))?,
            Err(e) => out.line(format_args!("{name:40} BROKEN: {e}"))?,
        }
    }
    Ok(ExitCode::SUCCESS)
}
