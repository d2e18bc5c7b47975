//! `simulate` and `compare`: many games between AI players, in parallel.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use caesar_workbench::files::OutputFile;
use caesar_workbench::sim::runs::cluster::Shard;
use caesar_workbench::sim::runs::report::GameSummary;
use caesar_workbench::sim::{self, Progress};

use super::args::{
    ReportArgs, RunArgs, check_outputs, dry_run_done, games_times, load_game, refuse_same_rules,
    report_output, two_variants,
};
use super::output::warn;
use super::{CliError, Output};

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Write one CSV row per game to this file (never over an input file).
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Write one CSV row per space (who held it, battles, losses, sudden
    /// deaths: docs/simulation.md) to this file.
    #[arg(long)]
    spaces_csv: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
#[command(mut_arg("variant", |a| two_variants(a).help("The two rule sets (give --variant twice)")))]
pub struct CompareArgs {
    #[command(flatten)]
    run: RunArgs,
}

/// Plays the run; the report is printed even when the CSV file fails, and
/// the CSV's error comes after it.
pub fn simulate(out: &mut Output, args: SimulateArgs) -> Result<ExitCode, CliError> {
    let run = &args.run;
    let (opts, notes) = run.options(&[run.setup.variant()])?;
    let loaded = run.setup.load()?;
    let report_path = run.report.path(opts.shard);
    let mut outputs: Vec<&Path> = [&args.csv, &args.spaces_csv]
        .into_iter()
        .filter_map(|p| p.as_deref())
        .collect();
    outputs.push(report_output(report_path.as_deref()));
    check_outputs(&outputs)?;
    let range = opts.game_range();
    if run.dry_run {
        return dry_run_done(out, range.end - range.start);
    }
    let game = loaded.game;
    let pool = run.pool()?;
    let mut csv = args.csv.as_deref().map(Csv::create).transpose()?;
    let report = with_progress(range.end - range.start, |progress| {
        pool.install(|| {
            sim::simulate(&game, &game.rules.name, &opts, progress, |r| {
                if let Some(csv) = csv.as_mut() {
                    csv.row(r);
                }
            })
        })
    })?;
    let printed = run.report.emit(out, &report, opts.shard, &notes);
    let written = csv
        .map_or(Ok(()), Csv::finish)
        .and(write_spaces_csv(&report, args.spaces_csv.as_deref()));
    match (printed, written) {
        (Ok(()), Ok(())) => Ok(ExitCode::SUCCESS),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(printing), Err(csv)) => {
            if !printing.is_broken_pipe() {
                warn(format_args!("error: {printing}"));
            }
            Err(csv)
        }
    }
}

pub fn compare(out: &mut Output, args: CompareArgs) -> Result<ExitCode, CliError> {
    let run = &args.run;
    let variants = run.setup.variant.all();
    if variants.len() != 2 {
        return Err(CliError::Usage(format!(
            "compare takes exactly two --variant options (got {})",
            variants.len()
        )));
    }
    // Both rule sets are played by the same players, so that only the
    // rules differ: `fast` and `best` are rule set A's (as `explain`).
    let (opts, mut notes) = run.options(&[&variants[0]])?;
    if !notes.is_empty() {
        let words = format!(
            "both rule sets are played by {}'s player (name one with --caesar-ai/--pompey-ai to choose another)",
            variants[0]
        );
        warn(format_args!("{words}"));
        notes.push(words);
    }
    let a = load_game(run.setup.scenario(), &variants[0])?;
    let b = load_game(run.setup.scenario(), &variants[1])?;
    refuse_same_rules(variants, &[&a.game, &b.game])?;
    let report_path = run.report.path(opts.shard);
    check_outputs(&report_path.as_deref().into_iter().collect::<Vec<_>>())?;
    let range = opts.game_range();
    let total = games_times(range.end - range.start, 2)?;
    if run.dry_run {
        return dry_run_done(out, total);
    }
    let games = [a.game, b.game];
    let pool = run.pool()?;
    let names = [games[0].rules.name.clone(), games[1].rules.name.clone()];
    let report = with_progress(total, |progress| {
        pool.install(|| {
            sim::compare(
                [&games[0], &games[1]],
                [&names[0], &names[1]],
                &opts,
                progress,
            )
        })
    })?;
    run.report.emit(out, &report, opts.shard, &notes)?;
    Ok(ExitCode::SUCCESS)
}

/// The per-space CSV of a run's report, when asked for (atomically).
pub fn write_spaces_csv(
    report: &caesar_workbench::sim::runs::report::SimReport,
    path: Option<&Path>,
) -> Result<(), CliError> {
    let Some(path) = path else {
        return Ok(());
    };
    let text = report
        .raw
        .map
        .spaces_csv(report.games, &report.raw.reached());
    caesar_workbench::files::write_output(path, &text)?;
    Ok(())
}

impl ReportArgs {
    /// [`emit_report_headed`] as `--json` and `--out` say, `--out` naming
    /// the file of `shard`.
    pub fn emit<T>(
        &self,
        out: &mut Output,
        report: &T,
        shard: Option<Shard>,
        header: &[String],
    ) -> Result<(), CliError>
    where
        T: serde::Serialize + std::fmt::Display,
    {
        emit_report_headed(out, report, self.json, self.path(shard).as_deref(), header)
    }
}

/// A report as text or JSON, on standard output or (`--out`) written
/// atomically to a file, so a half-written report is never merged.
pub fn emit_report<T>(
    out: &mut Output,
    report: &T,
    json: bool,
    path: Option<&Path>,
) -> Result<(), CliError>
where
    T: serde::Serialize + std::fmt::Display,
{
    emit_report_headed(out, report, json, path, &[])
}

/// The JSON field of a report that holds its text header: what `best` or
/// `fast` stood for when it was played (`merge` heads the merged text with it).
pub const PLAYERS_SAID: &str = "players_said";

/// A report already made JSON, written only as JSON.
struct JsonOnly(serde_json::Value);

impl serde::Serialize for JsonOnly {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl std::fmt::Display for JsonOnly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// [`emit_report`], a text report headed by `header` (what `best` or
/// `fast` stood for and what it was measured on); JSON names the players.
pub fn emit_report_headed<T>(
    out: &mut Output,
    report: &T,
    json: bool,
    path: Option<&Path>,
    header: &[String],
) -> Result<(), CliError>
where
    T: serde::Serialize + std::fmt::Display,
{
    let head: String = header.iter().map(|line| format!("{line}\n")).collect();
    if json && !header.is_empty() {
        // The header rides in the JSON, so that `merge` prints it again.
        let mut value =
            serde_json::to_value(report).map_err(|e| CliError::Output(std::io::Error::other(e)))?;
        if let Some(fields) = value.as_object_mut() {
            fields.insert(PLAYERS_SAID.to_string(), serde_json::json!(header));
        }
        return emit_report_headed(out, &JsonOnly(value), json, path, &[]);
    }
    let Some(path) = path else {
        if !json && !head.is_empty() {
            out.line(head.trim_end())?;
        }
        return print_report(out, report, json);
    };
    let text = if json {
        let mut t = serde_json::to_string_pretty(report)
            .map_err(|e| CliError::Output(std::io::Error::other(e)))?;
        t.push('\n');
        t
    } else {
        format!("{head}{report}\n")
    };
    caesar_workbench::files::write_output(path, &text)?;
    Ok(())
}

/// A report as text or JSON.
/// Writes the file a fitting command made (`tune`, `learn`) to `path`, then
/// prints its report and, as text, where the file went and how to play it.
pub fn write_file_and_report<T>(
    out: &mut Output,
    (path, text): (&std::path::Path, &str),
    report: &T,
    json: bool,
    how_to_use: &str,
) -> Result<ExitCode, CliError>
where
    T: serde::Serialize + std::fmt::Display,
{
    caesar_workbench::files::write_output(path, text)?;
    print_report(out, report, json)?;
    if !json {
        out.line(format!("wrote {} ({how_to_use})", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn print_report<T>(out: &mut Output, report: &T, json: bool) -> Result<(), CliError>
where
    T: serde::Serialize + std::fmt::Display,
{
    if json {
        out.json(report)
    } else {
        out.line(report)
    }
}

/// The CSV file: rows in game order, written to a temporary file that takes
/// the file's place at the end (a device is written in place); after the
/// first failed write the rest are dropped and the error kept for the end
/// of the run.
struct Csv {
    path: PathBuf,
    writer: OutputFile,
    failed: Option<std::io::Error>,
}

impl Csv {
    fn create(path: &Path) -> Result<Csv, CliError> {
        let error = |source| CliError::Csv {
            path: path.to_path_buf(),
            source,
        };
        let mut writer = OutputFile::create(path).map_err(error)?;
        writeln!(writer, "{}", GameSummary::csv_header()).map_err(error)?;
        Ok(Csv {
            path: path.to_path_buf(),
            writer,
            failed: None,
        })
    }

    fn row(&mut self, r: &GameSummary) {
        if self.failed.is_none()
            && let Err(e) = writeln!(self.writer, "{}", r.csv_row())
        {
            self.failed = Some(e);
        }
    }

    fn finish(mut self) -> Result<(), CliError> {
        let flushed = match self.failed.take() {
            Some(e) => Err(e),
            None => self.writer.commit(),
        };
        flushed.map_err(|source| CliError::Csv {
            path: self.path,
            source,
        })
    }
}

/// Runs `work` with a progress bar on stderr (hidden when stderr is not a terminal).
pub fn with_progress<T: Send>(total: u64, work: impl FnOnce(&Progress) -> T + Send) -> T {
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
                // Games found while running (an explanation's pairs) lengthen the bar.
                bar.set_length(total.saturating_add(progress.more()));
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
