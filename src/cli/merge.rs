//! `merge`: the shard reports of one run, checked and combined.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use caesar_workbench::sim::questions::explain::ExplainReport;
use caesar_workbench::sim::questions::ladder::LadderReport;
use caesar_workbench::sim::questions::sweep::SweepReport;
use caesar_workbench::sim::runs::options::GameRange;
use caesar_workbench::sim::runs::report::{CompareReport, Merge, SimReport};

use super::args::{check_outputs, report_output};
use super::output::warn;
use super::simulate::{emit_report, emit_report_headed};
use super::{CliError, Output};

/// A report larger than this is not one `simulate` or `compare` wrote
/// (theirs are tens of kilobytes); reading stops there.
pub const MAX_REPORT_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Report files written with --json (at most 64 MiB each).
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Print a JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Write the merged run's per-space CSV to this file (simulate reports).
    #[arg(long)]
    spaces_csv: Option<PathBuf>,
    /// Write the merged report to FILE instead of standard output,
    /// atomically (never half-written; left alone when the merge fails).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Fail, writing nothing, when the reports miss part of the run
    /// (without it a merge of part of a run only warns).
    #[arg(long)]
    complete: bool,
}

enum Parsed {
    Simulate(Box<SimReport>),
    Compare(Box<CompareReport>),
    Ladder(Box<LadderReport>),
    Sweep(Box<SweepReport>),
    Explain(Box<ExplainReport>),
}

/// Refuses reports that do not check out, overlap or come from different
/// runs; warns, naming the games, when the reports miss part of the run.
pub fn merge(out: &mut Output, args: MergeArgs) -> Result<ExitCode, CliError> {
    let mut sims = Vec::new();
    let mut compares = Vec::new();
    let mut ladders = Vec::new();
    let mut sweeps = Vec::new();
    let mut explains = Vec::new();
    // What `best` or `fast` stood for, as the first report that says it
    // said it: the merged text is headed by it as the whole run's was.
    let mut said: Vec<String> = Vec::new();
    for path in &args.reports {
        let label = path.display().to_string();
        let (parsed, players_said) = read_report(path)?;
        if said.is_empty() {
            said = players_said;
        }
        match parsed {
            Parsed::Simulate(r) => sims.push((label, *r)),
            Parsed::Compare(r) => compares.push((label, *r)),
            Parsed::Ladder(r) => ladders.push((label, *r)),
            Parsed::Sweep(r) => sweeps.push((label, *r)),
            Parsed::Explain(r) => explains.push((label, *r)),
        }
    }
    let outputs: Vec<&Path> = [args.spaces_csv.as_deref()]
        .into_iter()
        .flatten()
        .chain([report_output(args.out.as_deref())])
        .collect();
    check_outputs(&outputs)?;
    let not_simulate = compares.first().map(|(l, _)| l);
    let not_simulate = not_simulate
        .or(ladders.first().map(|(l, _)| l))
        .or(sweeps.first().map(|(l, _)| l))
        .or(explains.first().map(|(l, _)| l));
    refuse_spaces_csv(&args, not_simulate)?;
    if !explains.is_empty() {
        let others = sims
            .first()
            .map(|(l, _)| l)
            .or(compares.first().map(|(l, _)| l))
            .or(ladders.first().map(|(l, _)| l))
            .or(sweeps.first().map(|(l, _)| l))
            .cloned();
        return merge_explains(out, &args, &explains, others, &said);
    }
    if let Some((sweep, _)) = sweeps.first() {
        let other = sims
            .first()
            .map(|(l, _)| l)
            .or(compares.first().map(|(l, _)| l))
            .or(ladders.first().map(|(l, _)| l));
        refuse_others("sweep", sweep, other)?;
        let merged = merge_all(&sweeps)?;
        if let Some(p) = merged.points.first() {
            warn_missing(&p.run, args.complete)?;
        }
        emit_report_headed(out, &merged, args.json, args.out.as_deref(), &said)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some((ladder, _)) = ladders.first() {
        let other = sims
            .first()
            .map(|(l, _)| l)
            .or(compares.first().map(|(l, _)| l));
        refuse_others("ladder", ladder, other)?;
        let merged = merge_all(&ladders)?;
        if let Some(run) = merged.rungs.first().map(|r| r.mirror.runs()[0]) {
            warn_missing(run, args.complete)?;
        }
        emit_report(out, &merged, args.json, args.out.as_deref())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let (Some((sim, _)), Some((compare, _))) = (sims.first(), compares.first()) {
        return Err(CliError::Report(format!(
            "cannot merge simulate reports with compare reports: {sim} is a simulate report, {compare} a compare report"
        )));
    }
    if !compares.is_empty() {
        let merged = merge_all(&compares)?;
        warn_missing(&merged.a, args.complete)?;
        emit_report_headed(out, &merged, args.json, args.out.as_deref(), &said)?;
    } else {
        let merged = merge_all(&sims)?;
        warn_missing(&merged, args.complete)?;
        emit_report_headed(out, &merged, args.json, args.out.as_deref(), &said)?;
        super::simulate::write_spaces_csv(&merged, args.spaces_csv.as_deref())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The labelled reports of one kind merged ([`Merge::merge_labelled`]).
fn merge_all<R: Merge>(reports: &[(String, R)]) -> Result<R, CliError> {
    let labelled: Vec<(&str, &R)> = reports.iter().map(|(l, r)| (l.as_str(), r)).collect();
    Ok(R::merge_labelled(&labelled)?)
}

/// Refuses reports of `kind` (the first of them labelled `first`) beside
/// reports of another kind (the first of them labelled `other`).
fn refuse_others(kind: &str, first: &str, other: Option<&String>) -> Result<(), CliError> {
    match other {
        Some(other) => Err(CliError::Report(format!(
            "cannot merge {kind} reports with other reports: {first} is a {kind} report, {other} is not"
        ))),
        None => Ok(()),
    }
}

/// Warns, naming the missing games; with `complete` refuses instead.
fn warn_missing(report: &SimReport, complete: bool) -> Result<(), CliError> {
    warn_missing_games(
        report.games,
        report.run_games,
        &report.missing_games(),
        complete,
    )
}

/// Warns that the reports hold `held` of the run's `run_games` games,
/// naming the `missing` ranges; with `complete` refuses instead.
fn warn_missing_games(
    held: u64,
    run_games: u64,
    missing: &[GameRange],
    complete: bool,
) -> Result<(), CliError> {
    const SHOWN: usize = 8;
    if missing.is_empty() {
        return Ok(());
    }
    let mut list: Vec<String> = missing.iter().take(SHOWN).map(|g| g.to_string()).collect();
    if missing.len() > SHOWN {
        list.push(format!("and {} more ranges", missing.len() - SHOWN));
    }
    let text = format!(
        "the reports hold {held} of the run's {run_games} games; missing: {}",
        list.join(", ")
    );
    if complete {
        return Err(CliError::Report(format!(
            "incomplete run (--complete): {text}"
        )));
    }
    warn(format_args!("warning: {text}"));
    Ok(())
}

/// `--spaces-csv` is written from simulate reports only: refused when
/// `not_simulate` names a report of another kind.
fn refuse_spaces_csv(args: &MergeArgs, not_simulate: Option<&String>) -> Result<(), CliError> {
    match (&args.spaces_csv, not_simulate) {
        (Some(_), Some(other)) => Err(CliError::Usage(format!(
            "--spaces-csv is written from simulate reports only, and {other} is not one"
        ))),
        _ => Ok(()),
    }
}

/// The shards of one `explain` run merged (refused beside reports of
/// another kind, `other` naming the first of them).
fn merge_explains(
    out: &mut Output,
    args: &MergeArgs,
    explains: &[(String, ExplainReport)],
    other: Option<String>,
    said: &[String],
) -> Result<ExitCode, CliError> {
    let explain = &explains[0].0;
    if let Some(other) = other {
        return Err(CliError::Report(format!(
            "cannot merge explain reports with other reports: {explain} is an explain report, {other} is not"
        )));
    }
    let labelled: Vec<(&str, &ExplainReport)> =
        explains.iter().map(|(l, r)| (l.as_str(), r)).collect();
    let merged =
        ExplainReport::merge_labelled(&labelled).map_err(|e| CliError::Report(e.to_string()))?;
    warn_missing_games(
        merged.total.pairs,
        merged.run_games,
        &merged.missing_games(),
        args.complete,
    )?;
    emit_report_headed(out, &merged, args.json, args.out.as_deref(), said)?;
    Ok(ExitCode::SUCCESS)
}

/// Reads at most [`MAX_REPORT_BYTES`] (so `/dev/zero` ends) and parses a
/// simulate, compare, ladder, sweep or explain report, with the file, line
/// and column of a problem.
/// With it, the report's [`super::simulate::PLAYERS_SAID`] lines.
fn read_report(path: &Path) -> Result<(Parsed, Vec<String>), CliError> {
    let bytes =
        caesar_workbench::files::read_bytes(path, MAX_REPORT_BYTES).map_err(|e| match e {
            caesar_workbench::files::ReadError::Io { path, source } => {
                CliError::Read { path, source }
            }
            too_large => {
                CliError::Report(format!("{too_large}, so not a report written with --json"))
            }
        })?;
    let name = path.display();
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::Report(format!("{name}: not UTF-8, so not a JSON report")))?;
    // A byte-order mark (an editor's save) is no part of the JSON, as RON
    // files accept one.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let not_a_report = |e: serde_json::Error| {
        CliError::Report(format!(
            "{name}:{}:{}: not a simulate, compare, ladder, sweep or explain report written with --json: {e}",
            e.line(),
            e.column()
        ))
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(not_a_report)?;
    let said: Vec<String> = value
        .get(super::simulate::PLAYERS_SAID)
        .and_then(|s| s.as_array())
        .map(|lines| {
            lines
                .iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    read_parsed(text, &value, &name.to_string()).map(|parsed| (parsed, said))
}

/// The report `value` (parsed from `text`) as its kind, or why it is none.
fn read_parsed(text: &str, value: &serde_json::Value, name: &str) -> Result<Parsed, CliError> {
    let not_a_report = |e: serde_json::Error| {
        CliError::Report(format!(
            "{name}:{}:{}: not a simulate, compare, ladder, sweep or explain report written with --json: {e}",
            e.line(),
            e.column()
        ))
    };
    if value.get("kind").and_then(|k| k.as_str()) == Some("explain-ladder") {
        return Err(CliError::Report(format!(
            "{name}: an `explain --ladder` report is whole and does not merge: to spread a rung, run `explain --caesar-ai P --pompey-ai P --shard i/n` and merge those"
        )));
    }
    if value.get("kind").and_then(|k| k.as_str()) == Some("explain") {
        serde_json::from_str(text)
            .map(|r| Parsed::Explain(Box::new(r)))
            .map_err(not_a_report)
    } else if value.get("kind").and_then(|k| k.as_str()) == Some("sweep") {
        serde_json::from_str(text)
            .map(|r| Parsed::Sweep(Box::new(r)))
            .map_err(not_a_report)
    } else if value.get("kind").and_then(|k| k.as_str()) == Some("ladder") {
        serde_json::from_str(text)
            .map(|r| Parsed::Ladder(Box::new(r)))
            .map_err(not_a_report)
    } else if value.get("raw_paired").is_some() {
        serde_json::from_str(text)
            .map(|r| Parsed::Compare(Box::new(r)))
            .map_err(not_a_report)
    } else {
        serde_json::from_str(text)
            .map(|r| Parsed::Simulate(Box::new(r)))
            .map_err(not_a_report)
    }
}
