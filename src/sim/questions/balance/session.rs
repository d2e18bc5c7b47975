//! One balance run for both shells (and for `fair`): what it starts from (a
//! new population, or a saved report to go on with), its budget, where its
//! checkpoint and trained players go, and the run to its report. The
//! command line and the Balance tab both call [`prepare`] and [`run_plan`],
//! so the same settings give the same report in either.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{BalanceError, BalanceOptions, BalanceReport, Limits, Watch, check_setup};
use crate::ai::AiSpec;
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::players::ratings::Rating;

/// A budget outside this many wall-clock minutes is refused (a week at most).
pub const BUDGET_MINUTES: std::ops::RangeInclusive<f64> = 0.1..=10_080.0;

/// Reports larger than this are not read (a table of 100×100 cells of
/// 10,000 games is 100 MB).
pub const REPORT_LIMIT: u64 = 512 << 20;

/// A budget in wall-clock minutes, checked.
pub fn budget(minutes: f64) -> Result<Duration, BalanceError> {
    if minutes.is_finite() && BUDGET_MINUTES.contains(&minutes) {
        Ok(Duration::from_secs_f64(minutes * 60.0))
    } else {
        Err(BalanceError::Budget(format!(
            "the budget is wall-clock minutes between {} and {} (a week), got {}",
            BUDGET_MINUTES.start(),
            BUDGET_MINUTES.end(),
            short_number(minutes)
        )))
    }
}

/// A number for a message: `1e308`, not 309 digits.
pub fn short_number(x: f64) -> String {
    if x.abs() >= 1e6 || (x != 0.0 && x.abs() < 1e-3) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Where a new run's players come from.
#[derive(Debug, Clone, Default)]
pub struct Players {
    /// The rule sets shipped players are looked up along: the rules in
    /// force first, then the files they extend.
    pub lineage: Vec<RuleSet>,
    /// The setup's fitted players (its bundle's ratings).
    pub bundle: Vec<Rating>,
    /// Players named by the user.
    pub named: Vec<AiSpec>,
    /// Shipped and fitted players join; false: only the named.
    pub shipped: bool,
    /// The setup's library folder, whose kept players join each its side
    /// (those of this setup and rule set: [`super::library::shelf`]); the
    /// shells give none for a run of only the players named unless asked.
    pub library: Option<PathBuf>,
}

impl Players {
    /// The setup's fitted players from its bundle folder `dir`, when it
    /// holds a fit (a folder without one adds none), and its library
    /// ([`super::library::chosen`]).
    pub fn with_bundle_in(mut self, dir: Option<&Path>) -> Result<Players, BalanceError> {
        if let Some(dir) = dir
            && dir.join(crate::sim::players::fit::BUNDLE_RATINGS).is_file()
        {
            self.bundle = crate::sim::players::fit::bundle_ratings(dir)
                .map_err(|e| BalanceError::Resume(format!("the setup's bundle: {e}")))?;
        }
        self.library = super::library::chosen(None, !self.shipped, dir);
        Ok(self)
    }
}

/// What a run starts from (made once a run: its size does not matter).
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Begin {
    /// A new run over the population of `players`.
    Fresh {
        variant: String,
        options: BalanceOptions,
        players: Players,
    },
    /// Go on with a saved report ([`read_report`]), with at most `rounds`
    /// rounds of best responses if given (more than it had reopens a run
    /// that stopped at its last round).
    Resume {
        report: Box<BalanceReport>,
        rounds: Option<u32>,
    },
}

/// A report ready to run on its game.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub report: BalanceReport,
    /// A resumed report with nothing left to play.
    pub finished: bool,
}

/// The report a run starts from: a new population (each player once,
/// refusals before any game), or a saved report checked against `game`,
/// its players read again and set to go on.
pub fn prepare(game: &Game, begin: Begin) -> Result<Prepared, BalanceError> {
    match begin {
        Begin::Fresh {
            variant,
            options,
            players,
        } => {
            let members = super::population(
                &players.lineage,
                &players.bundle,
                &players.named,
                players.shipped,
            )
            .map_err(|e| BalanceError::Resume(e.to_string()))?;
            let shelf = match &players.library {
                Some(dir) => super::library::shelf(dir, game)
                    .map_err(|e| BalanceError::Resume(e.to_string()))?,
                None => super::library::Shelf::default(),
            };
            let [caesar, pompey] =
                Side::BOTH.map(|side| super::library::join(&members, shelf.side(side)));
            let mut report = BalanceReport::start(game, &variant, options, caesar, pompey)?;
            report.left_out = shelf.left_out;
            Ok(Prepared {
                report,
                finished: false,
            })
        }
        Begin::Resume { report, rounds } => {
            let mut report = *report;
            check_setup(&report, game)?;
            super::reload_players(&mut report)?;
            // What a file says its table solves to is not trusted: the
            // table is solved again (the same answer for a report as
            // written; an edited mix cannot send a run after no one).
            super::run::solve_report(&mut report)?;
            if matches!(report.stage, super::Stage::Responses(_)) && report.caesar_mix.is_empty() {
                return Err(BalanceError::Resume(
                    "the report's stage is a round's best responses, but its table holds no equilibrium to train them against".to_string(),
                ));
            }
            let finished = !report.go_on(rounds);
            Ok(Prepared { report, finished })
        }
    }
}

/// A run's limits: its budget, and where its report and players go.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Wall-clock time from the start of [`run_plan`]; none: no limit.
    pub budget: Option<Duration>,
    /// The report is written here (atomically) after every stage.
    pub checkpoint: Option<PathBuf>,
    /// Trained players go here; by default the folder beside the checkpoint
    /// ([`players_dir_of`]).
    pub players_dir: Option<PathBuf>,
    /// The setup's library, which keeps every player the run trains (after
    /// every stage: a run cut short keeps what it trained).
    pub library: Option<PathBuf>,
}

/// How a run ended besides its report.
#[derive(Debug, Clone, Default)]
pub struct Ended {
    /// The last checkpoint that could not be written, and why.
    pub checkpoint_failed: Option<String>,
    /// Players the run trained and the library now keeps.
    pub kept: usize,
    /// Why the library could not keep them (the run's report stands).
    pub keep_failed: Option<String>,
}

impl Plan {
    fn players_dir(&self) -> Option<PathBuf> {
        self.players_dir
            .clone()
            .or_else(|| self.checkpoint.as_deref().map(players_dir_of))
    }
}

/// Runs `report` on `game` within the plan's budget (any budget ends with
/// a value once a game of the table is played: [`super::run`]), writing
/// every stage to the plan's checkpoint and handing it to `on_stage`.
pub fn run_plan(
    game: &Game,
    report: &mut BalanceReport,
    plan: &Plan,
    watch: &Watch,
    on_stage: &mut dyn FnMut(&BalanceReport),
) -> Result<Ended, BalanceError> {
    let deadline = plan.budget.map(|b| Instant::now() + b);
    let players_dir = plan.players_dir();
    let limits = Limits {
        deadline,
        players_dir: players_dir.as_deref(),
    };
    let mut ended = Ended::default();
    super::run(game, report, &limits, watch, &mut |so_far| {
        if let Some(path) = &plan.checkpoint {
            ended.checkpoint_failed = write_report(path, so_far)
                .err()
                .map(|e| format!("could not write the checkpoint {}: {e}", path.display()));
        }
        if let Some(dir) = &plan.library {
            let trained_by = format!("balance seed {}", so_far.options.seed);
            match super::library::keep_trained(dir, so_far, &trained_by) {
                Ok(added) => ended.kept += added,
                Err(e) => ended.keep_failed = Some(e.to_string()),
            }
        }
        on_stage(so_far);
    })?;
    Ok(ended)
}

/// Writes a report as JSON, atomically, making its folder if need be.
pub fn write_report(path: &Path, report: &BalanceReport) -> Result<(), String> {
    write_json(path, report)
}

/// Writes any report as JSON, atomically, making its folder if need be.
pub fn write_json(path: &Path, report: &impl serde::Serialize) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    crate::files::write_output(path, &format!("{text}\n")).map_err(|e| e.to_string())
}

/// `REPORT.players/` beside the report `REPORT.json`: where its trained
/// players are written.
pub fn players_dir_of(report: &Path) -> PathBuf {
    let stem = report
        .file_stem()
        .map_or_else(|| "balance".into(), |s| s.to_string_lossy().into_owned());
    report.with_file_name(format!("{stem}.players"))
}

/// Why a saved report cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReportFileError(pub String);

/// Reads a balance report (or a shard of one) from `path`: JSON with
/// file:line:column where it is not a report, then every field checked
/// against the others ([`BalanceReport::check`]) before anything uses it.
pub fn read_report(path: &Path) -> Result<BalanceReport, ReportFileError> {
    let bytes = crate::files::read_bytes(path, REPORT_LIMIT).map_err(|e| {
        ReportFileError(format!(
            "cannot read the balance report {}: {e}",
            path.display()
        ))
    })?;
    let report: BalanceReport = serde_json::from_slice(&bytes).map_err(|e| {
        ReportFileError(format!(
            "{}:{}:{}: not a balance report (`balance --json --out`): {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    report
        .check()
        .map_err(|e| ReportFileError(format!("{}: {e}", path.display())))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use serde_json::Value;

    use super::*;
    use crate::scenario::model::Side;
    use crate::sim::Progress;
    use crate::sim::questions::balance::{Member, Origin, challenge, merge};
    use crate::sim::runs::cluster::Shard;

    /// Every leaf and list of `value`, by path.
    fn paths(value: &Value, at: Vec<String>, out: &mut Vec<Vec<String>>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let mut p = at.clone();
                    p.push(k.clone());
                    paths(v, p, out);
                }
            }
            Value::Array(items) => {
                out.push(at.clone());
                for (i, v) in items.iter().enumerate() {
                    let mut p = at.clone();
                    p.push(i.to_string());
                    paths(v, p, out);
                }
            }
            _ => out.push(at),
        }
    }

    fn at_mut<'a>(value: &'a mut Value, path: &[String]) -> &'a mut Value {
        path.iter().fold(value, |v, k| match v {
            Value::Array(items) => &mut items[k.parse::<usize>().unwrap()],
            other => &mut other[k.as_str()],
        })
    }

    /// Numbers to 0, −1, huge and a fraction; strings emptied or unknown;
    /// lists emptied, duplicated and reversed; anything to null.
    fn mutants(report: &Value) -> Vec<(String, Value)> {
        let mut all = Vec::new();
        paths(report, Vec::new(), &mut all);
        let mut out = Vec::new();
        for path in all {
            let here = at_mut(&mut report.clone(), &path).clone();
            let mut edits: Vec<Value> = vec![Value::Null];
            match &here {
                Value::Number(_) => edits.extend([
                    Value::from(0),
                    Value::from(-1),
                    Value::from(u64::MAX / 3),
                    Value::from(1e300),
                    Value::from(0.5),
                ]),
                Value::String(_) => {
                    edits.extend([Value::from(""), Value::from("heuristic:unknown.ron")])
                }
                Value::Bool(b) => edits.push(Value::from(!b)),
                Value::Array(items) => {
                    edits.push(Value::Array(Vec::new()));
                    if let Some(first) = items.first() {
                        let mut twice = items.clone();
                        twice.push(first.clone());
                        edits.push(Value::Array(twice));
                        edits.push(Value::Array(items.iter().rev().cloned().collect()));
                    }
                }
                _ => {}
            }
            for edit in edits {
                let mut mutant = report.clone();
                *at_mut(&mut mutant, &path) = edit.clone();
                out.push((format!("{} = {edit}", path.join(".")), mutant));
            }
        }
        out
    }

    /// `work` on a thread of its own: its answer, or a failure naming
    /// `what` when it panics or takes more than `limit`.
    fn within<T: Send + 'static>(
        what: &str,
        limit: Duration,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(result);
        });
        match rx.recv_timeout(limit) {
            Ok(Ok(value)) => value,
            Ok(Err(_)) => panic!("{what}: panicked"),
            Err(_) => panic!("{what}: still running after {limit:?}"),
        }
    }

    fn members() -> Vec<Member> {
        vec![
            Member::new(AiSpec::Random, Origin::Named),
            Member::new(AiSpec::Heuristic, Origin::Named),
        ]
    }

    fn played(game: &Game, shard: Option<Shard>) -> BalanceReport {
        let options = BalanceOptions {
            first_games: 6,
            games: 6,
            rounds: 0,
            oracles: Vec::new(),
            replicates: 20,
            shard,
            ..BalanceOptions::default()
        };
        let mut report =
            BalanceReport::start(game, "rules-2.0", options, members(), members()).unwrap();
        run_plan(
            game,
            &mut report,
            &Plan::default(),
            &Watch::new(),
            &mut |_| {},
        )
        .unwrap();
        report
    }

    /// Read as a file is read: parsed, then checked.
    fn read(text: &str) -> Option<BalanceReport> {
        let report: BalanceReport = serde_json::from_str(text).ok()?;
        report.check().ok()?;
        Some(report)
    }

    #[test]
    fn every_field_of_a_saved_report_mutated_gives_an_error_or_an_answer_never_a_panic_or_a_hang() {
        let game = std::sync::Arc::new(crate::test_support::published("rules-2.0"));
        let saved = serde_json::to_value(played(&game, None)).unwrap();
        let limit = Duration::from_secs(30);
        let dir = tempfile::tempdir().unwrap();
        for (k, (what, mutant)) in mutants(&saved).into_iter().enumerate() {
            let text = mutant.to_string();
            // As `--caesar-ai equilibrium:REPORT` reads it.
            let file = dir.path().join(format!("m{k}.json"));
            std::fs::write(&file, &text).unwrap();
            let spelled = format!("equilibrium:{}", file.display());
            within(&what, limit, move || {
                let _ = spelled.parse::<AiSpec>();
            });
            let game = std::sync::Arc::clone(&game);
            within(&what, limit, move || {
                let Some(report) = read(&text) else { return };
                // Resume, as `balance --resume` does, within a budget.
                let resumed = prepare(
                    &game,
                    Begin::Resume {
                        report: Box::new(report.clone()),
                        rounds: None,
                    },
                );
                if let Ok(mut prepared) = resumed {
                    let plan = Plan {
                        budget: Some(Duration::from_secs(5)),
                        ..Plan::default()
                    };
                    let _ = run_plan(
                        &game,
                        &mut prepared.report,
                        &plan,
                        &Watch::new(),
                        &mut |_| {},
                    );
                }
                // A challenger against its mix, as `--challenge` plays it.
                let mut loaded = report;
                if crate::sim::questions::balance::reload_players(&mut loaded).is_ok()
                    && !loaded.caesar_mix.is_empty()
                    && !loaded.pompey_mix.is_empty()
                {
                    let _ = challenge(
                        &game,
                        &loaded,
                        &AiSpec::Heuristic,
                        Side::Caesar,
                        4,
                        1,
                        &Progress::new(),
                    );
                }
            });
        }
    }

    #[test]
    fn every_field_of_a_shard_mutated_merges_to_an_error_or_the_whole_never_a_panic() {
        let game = crate::test_support::published("rules-2.0");
        let shards: Vec<BalanceReport> = (0..3)
            .map(|index| played(&game, Some(Shard { index, count: 3 })))
            .collect();
        let whole = merge(
            shards
                .iter()
                .enumerate()
                .map(|(k, r)| (format!("part{k}"), r.clone()))
                .collect(),
        )
        .unwrap();
        let saved = serde_json::to_value(&shards[0]).unwrap();
        for (what, mutant) in mutants(&saved) {
            let text = mutant.to_string();
            let rest = shards[1..].to_vec();
            let merged = within(&what, Duration::from_secs(30), move || {
                let first = read(&text)?;
                let mut parts = vec![("part0".to_string(), first)];
                parts.extend(
                    rest.into_iter()
                        .enumerate()
                        .map(|(k, r)| (format!("part{}", k + 1), r)),
                );
                merge(parts).ok()
            });
            // What merges is the whole table (a field the merge does not
            // read may differ, as `played_on.scenario`'s name). A cell's
            // results are the games themselves: other valid digits there
            // (or its rows reordered) are another table, not a damaged one.
            if let Some(merged) = merged
                && !what.starts_with("table.cells")
            {
                assert_eq!(merged.table, whole.table, "{what}");
            }
        }
    }
}
