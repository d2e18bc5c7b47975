//! "Players for this setup": which player `best` stands for on the setup
//! in the window, and what that was measured on; "Fit players…" runs `fit`
//! ([`crate::sim::players::fit`]) on its own thread with progress and cancel, and the
//! bundle it writes beside the setup file is what the player menus then
//! offer first ([`SetupPlayers::ranked_for`]).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui::{RichText, Ui};

use crate::app::player_picker::{RankedFor, SetupRatings};
use crate::app::state::AppState;
use crate::app::state::NoGame;
use crate::app::theme;
use crate::engine::Game;
use crate::scenario::format::LoadError;
use crate::sim::players::RankError;
use crate::sim::players::fit::{self, Fit, FitError, FitRequest, Transferred, Verdict};
use crate::sim::questions::balance::measured::MeasuredError;
use crate::sim::{Progress, players};

/// The Setup and Rules tabs' line about the setup's players, and its fit.
pub(crate) struct SetupPlayers {
    budget_minutes: f64,
    running: Option<Running>,
    /// The last fit's report, or why it failed.
    outcome: Option<Result<String, FitStopped>>,
    /// What the ratings were read for (revisions, and fits finished).
    read_for: Option<(u64, u64, u64, u64)>,
    fits_finished: u64,
    /// What `best` stands for here, in words (its spec for the hover), as
    /// read with the ratings: not worked out again every frame.
    best_line: Result<(String, String), BestUnread>,
    /// The balance at equilibrium measured for the setup, in words (each
    /// side's mix for the hover), read with the ratings.
    balance_line: Option<Result<(String, String), MeasuredError>>,
    /// The setup's digest and bundle, as the player menus rank players for
    /// it (read with the ratings).
    ratings: SetupRatings,
}

/// Why the setup's `best` player could not be said.
#[derive(Debug, thiserror::Error)]
enum BestUnread {
    /// The setup's bundle does not read: said, not passed over.
    #[error(transparent)]
    Bundle(#[from] LoadError),
    #[error(transparent)]
    Rank(#[from] RankError),
}

/// Why a fit could not start or stopped.
#[derive(Debug, thiserror::Error)]
enum FitStopped {
    #[error(transparent)]
    Game(#[from] NoGame),
    #[error(transparent)]
    Threads(#[from] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Fit(#[from] FitError),
}

impl Default for SetupPlayers {
    fn default() -> SetupPlayers {
        SetupPlayers {
            budget_minutes: 10.0,
            running: None,
            outcome: None,
            read_for: None,
            fits_finished: 0,
            best_line: Ok(Default::default()),
            balance_line: None,
            ratings: SetupRatings::default(),
        }
    }
}

/// A fit on its own thread.
struct Running {
    /// When it started, and the budget it plans to spend (minutes).
    started: Instant,
    budget_minutes: f64,
    /// The stages seen so far, in order (the last is the one running).
    stages: Vec<String>,
    progress: Arc<Progress>,
    total: Arc<Mutex<u64>>,
    stage: Arc<Mutex<String>>,
    result: Receiver<Result<String, FitStopped>>,
}

/// Where the setup's bundle is and a fit writes it: the library's
/// [`players::bundle_folder`] for the window's scenario file and variant.
pub(crate) fn bundle_folder(state: &AppState) -> Option<PathBuf> {
    players::bundle_folder(state.path(), state.variant())
}

impl SetupPlayers {
    /// The setup's digest and bundle as [`SetupPlayers::refresh`] last
    /// read them.
    pub(crate) fn ratings(&self) -> &SetupRatings {
        &self.ratings
    }

    /// What the player menus rank players for under `variant`: this setup
    /// as [`SetupPlayers::refresh`] last read it.
    pub(crate) fn ranked_for<'a>(&'a self, variant: &'a str) -> RankedFor<'a> {
        RankedFor {
            variant,
            setup: &self.ratings,
        }
    }

    /// Reads the setup's digest and bundle again when the scenario, the
    /// rules or a fit changed them, and keeps them for the player menus
    /// ([`SetupPlayers::ranked_for`]).
    /// `balances_kept` counts the reports the Balance tab kept into the
    /// setup's folder: the balance is read anew after each.
    pub(crate) fn refresh(&mut self, state: &AppState, balances_kept: u64) {
        let key = (
            state.scenario_revision(),
            state.rules_revision(),
            self.fits_finished,
            balances_kept,
        );
        if self.read_for == Some(key) {
            return;
        }
        self.read_for = Some(key);
        // A bundle that does not read is said, not passed over.
        let scenario_digest = state.resolved().map(|doc| doc.digest());
        let (bundle, unread) = match players::find_bundle(None, state.path(), state.variant()) {
            Ok(found) => (found.map(|(_, ratings)| ratings).unwrap_or_default(), None),
            Err(e) => (Vec::new(), Some(e)),
        };
        self.balance_line = measured_balance(state);
        self.ratings = SetupRatings {
            scenario_digest: scenario_digest.clone(),
            bundle,
        };
        // What `best` stands for, as the command line says it.
        let setup = players::Setup {
            scenario_file: state.path().map(Path::to_path_buf),
            scenario_digest,
            bundle: None,
        };
        self.best_line = match unread {
            Some(e) => Err(e.into()),
            None => players::Rank::Best
                .resolve(&[state.variant()], &setup)
                .map(|best| {
                    let spec = best.player.spec;
                    let words = format!(
                        "{}: {}",
                        crate::app::player_picker::label(&spec),
                        best.sentence
                    );
                    (words, spec.to_string())
                })
                .map_err(BestUnread::from),
        };
    }

    /// "Players for this setup: …", the budget and "Fit players…", the
    /// fit's progress and its result.
    pub(crate) fn show(&mut self, ui: &mut Ui, state: &AppState) {
        self.poll();
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Players for this setup:").strong());
            match &self.best_line {
                Ok((words, spec)) => {
                    ui.label(words).on_hover_text(spec);
                }
                Err(e) => {
                    ui.colored_label(theme::ERROR, e.to_string());
                }
            }
        });
        // One line whatever it says (the whole on hover): an edit that
        // changes it must not move the rows below under the pointer.
        ui.horizontal(|ui| {
            ui.label(RichText::new("Balance:").strong());
            let (text, hover, colour) = match &self.balance_line {
                Some(Ok((words, mixes))) => (words.clone(), format!("{words}\n\n{mixes}"), None),
                Some(Err(e)) => (e.to_string(), e.to_string(), Some(theme::ERROR)),
                None => (NO_BALANCE.to_string(), NO_BALANCE.to_string(), None),
            };
            let mut text = RichText::new(text);
            if let Some(c) = colour {
                text = text.color(c);
            }
            let size = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
            ui.add_sized(size, egui::Label::new(text).truncate())
                .on_hover_text(hover);
        });
        ui.label(RichText::new(BEST_AND_FAST).small());
        let folder = bundle_folder(state);
        ui.horizontal(|ui| {
            let l = ui.label("Budget (minutes)");
            ui.add(
                egui::DragValue::new(&mut self.budget_minutes)
                    .range(fit::BUDGET_MINUTES)
                    .speed(0.5),
            )
            .labelled_by(l.id);
            let can_fit = self.running.is_none() && folder.is_some() && state.resolved().is_some();
            let fit_button = ui
                .add_enabled(can_fit, egui::Button::new("Fit players…"))
                .on_hover_text(
                    "Tune the heuristic per side for this setup, learn a value, measure a search on \
                     them against the default heuristic and the transferred best on unseen seeds, \
                     and write the bundle beside the setup (as `caesar-workbench fit`)",
                )
                .on_disabled_hover_text(
                    "Save the setup (or a variant) to a file first: the fitted players are kept beside it",
                );
            if fit_button.clicked()
                && let Some(folder) = &folder
            {
                self.start(state, folder);
            }
            if let Some(r) = &self.running
                && ui.button("Cancel fit").clicked()
            {
                r.progress.cancel();
            }
        });
        if let Some(r) = &mut self.running {
            let total = (*r.total.lock().unwrap_or_else(|e| e.into_inner())).max(1);
            let done = r.progress.done();
            let stage = r.stage.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if r.stages.last() != Some(&stage) {
                r.stages.push(stage.clone());
            }
            let elapsed = r.started.elapsed().as_secs_f64();
            ui.label(RichText::new(format!("Stage {}: {stage}", r.stages.len())).strong());
            ui.add(
                egui::ProgressBar::new(done as f32 / total as f32)
                    .text(format!("{done} of {total} games")),
            );
            ui.label(progress_words(elapsed, r.budget_minutes, done, total));
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        match &self.outcome {
            Some(Ok(report)) => {
                egui::CollapsingHeader::new("The last fit's report")
                    .id_salt("fit_report")
                    .show(ui, |ui| fit_report(ui, report));
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, format!("The fit stopped: {e}"));
            }
            None => {}
        }
    }

    fn start(&mut self, state: &AppState, folder: &Path) {
        if state.resolved().is_none() || state.rules().is_none() {
            return;
        }
        let variant = state.variant().to_string();
        let game = match state.game() {
            Ok(game) => game,
            Err(e) => {
                self.outcome = Some(Err(e.into()));
                return;
            }
        };
        let request = FitRequest {
            scenario: state
                .document()
                .and_then(|d| d.path())
                .map(Path::to_path_buf),
            variant,
            budget_minutes: self.budget_minutes,
            seed: 1,
        };
        let progress = Arc::new(Progress::new());
        let total = Arc::new(Mutex::new(0));
        let stage = Arc::new(Mutex::new("timing a game".to_string()));
        let (tx, rx) = channel();
        let folder = folder.to_path_buf();
        let shared = (progress.clone(), total.clone(), stage.clone());
        std::thread::spawn(move || {
            let (progress, total, stage) = shared;
            let outcome = run_fit(&folder, request, &game, &progress, &total, &stage);
            let _ = tx.send(outcome);
        });
        self.outcome = None;
        self.running = Some(Running {
            started: Instant::now(),
            budget_minutes: self.budget_minutes,
            stages: Vec::new(),
            progress,
            total,
            stage,
            result: rx,
        });
    }

    /// Takes a finished fit's result; its bundle is read again.
    fn poll(&mut self) {
        let Some(r) = &self.running else {
            return;
        };
        if let Ok(outcome) = r.result.try_recv() {
            self.outcome = Some(outcome);
            self.running = None;
            self.fits_finished += 1;
        }
    }
}

/// The balance measured for the setup in the window
/// ([`crate::sim::questions::balance::measured`]): its line and each side's mix, or
/// why the setup's own report does not hold; `None` when none is measured.
fn measured_balance(state: &AppState) -> Option<Result<(String, String), MeasuredError>> {
    let game = state.game().ok()?;
    match crate::sim::questions::balance::measured::measured(&game, bundle_folder(state).as_deref())
    {
        Ok(Some(m)) => {
            let mixes = crate::scenario::model::Side::BOTH
                .iter()
                .map(|&side| {
                    let mix = m.report.mix(side);
                    let parts: Vec<String> = mix
                        .iter()
                        .map(|(w, member)| format!("{} {:.0}%", member.words, w * 100.0))
                        .collect();
                    format!("{side} plays {}", parts.join(", "))
                })
                .collect::<Vec<_>>()
                .join("\n");
            let mut line = m.line();
            if let Some(first) = line.get(..1) {
                line = first.to_uppercase() + &line[1..];
            }
            // The change the Balance tab kept for this very setup, if any.
            if let Some(even) =
                crate::sim::questions::fair::kept_for(&game, bundle_folder(state).as_deref())
                    .ok()
                    .flatten()
                    .and_then(|r| r.even_words())
            {
                line = format!("{line}; {even}");
            }
            Some(Ok((line, mixes)))
        }
        Ok(None) => None,
        Err(e) => Some(Err(e)),
    }
}

/// The Setup tab's balance line for a setup with none measured.
const NO_BALANCE: &str = "none measured for this setup yet (the Balance tab measures it; \
     keep its report as balance.json in the setup's players folder)";

/// What `best` and `fast` mean, in one sentence each, wherever they are
/// offered for the setup.
pub(crate) const BEST_AND_FAST: &str = "best: the strongest player measured for this setup, \
     however long it thinks. fast: the strongest of the quick ones (a game in a fraction of \
     a second), so its figure can be higher or lower than best's, measured in other games.";

/// "3 min 10 s" for 190 seconds.
fn duration_words(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match (s / 60, s % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// The fit's time in words: how long it has run and about how long is
/// left. The fit plans its games to spend the budget, so the budget is
/// the estimate; past it, the last stage (a search's games are the
/// slowest) is said to be finishing.
pub(crate) fn progress_words(elapsed: f64, budget_minutes: f64, done: u64, total: u64) -> String {
    let budget = budget_minutes * 60.0;
    let left = budget - elapsed;
    if left > 1.0 {
        format!(
            "{} elapsed; about {} left of the {} budget",
            duration_words(elapsed),
            duration_words(left),
            duration_words(budget)
        )
    } else if done >= total {
        format!(
            "{} elapsed, past the {} budget: every planned game is played, the last \
             measurement is being finished",
            duration_words(elapsed),
            duration_words(budget)
        )
    } else {
        format!(
            "{} elapsed, past the {} budget: the last games (a tree search's, the slowest) \
             are being played",
            duration_words(elapsed),
            duration_words(budget)
        )
    }
}

/// The fit's report as the window shows it: its Markdown rendered (a
/// heading, a table as a grid, the command in monospace, sentences wrapped).
fn fit_report(ui: &mut Ui, text: &str) {
    let plain = |line: &str| line.replace('`', "").replace("**", "");
    let mut table: Vec<Vec<String>> = Vec::new();
    let flush = |ui: &mut Ui, table: &mut Vec<Vec<String>>| {
        if table.is_empty() {
            return;
        }
        egui::Grid::new(("fit_report_table", table.len(), table[0].join("|")))
            .striped(true)
            .num_columns(table[0].len())
            .show(ui, |ui| {
                for (k, row) in table.iter().enumerate() {
                    for cell in row {
                        let cell = RichText::new(cell);
                        ui.add(egui::Label::new(if k == 0 { cell.strong() } else { cell }).wrap());
                    }
                    ui.end_row();
                }
            });
        table.clear();
    };
    for line in text.lines() {
        if let Some(row) = line.trim().strip_prefix('|') {
            let cells: Vec<String> = row
                .trim_end_matches('|')
                .split('|')
                .map(|c| plain(c.trim()))
                .collect();
            // The row under the header: dashes only.
            if !cells
                .iter()
                .all(|c| c.chars().all(|x| x == '-' || x == ':'))
            {
                table.push(cells);
            }
            continue;
        }
        flush(ui, &mut table);
        if let Some(heading) = line.strip_prefix("# ") {
            ui.label(RichText::new(plain(heading)).heading());
        } else if let Some(code) = line.strip_prefix("    ") {
            ui.label(RichText::new(code).monospace());
        } else if !line.trim().is_empty() {
            ui.add(egui::Label::new(plain(line)).wrap());
        }
    }
    flush(ui, &mut table);
}

/// A whole fit, resumed when the folder holds one (a cancelled fit goes on).
fn run_fit(
    folder: &Path,
    request: FitRequest,
    game: &Game,
    progress: &Progress,
    total: &Mutex<u64>,
    stage: &Mutex<String>,
) -> Result<String, FitStopped> {
    let pool = rayon::ThreadPoolBuilder::new().build()?;
    pool.install(|| {
        // A fit already in the folder goes on (it refuses another setup).
        let state = if folder.join("fit.ron").exists() {
            fit::resume(folder)?
        } else {
            fit::start(folder, request, game)?
        };
        let transferred = Transferred::of(&state.variant_spec(folder), game)?;
        let fit = Fit {
            dir: folder,
            state: &state,
            game,
            transferred,
        };
        *total.lock().unwrap_or_else(|e| e.into_inner()) = fit.games_left();
        let mut say = |what: String| *stage.lock().unwrap_or_else(|e| e.into_inner()) = what;
        let outcome = fit.run(progress, &mut say)?;
        let verdict = match outcome.verdict {
            Verdict::FittedIsBest => "The fitted search is best here.",
            Verdict::TransferredStays => "The transferred player stays best.",
        };
        Ok(format!("{verdict}\n\n{}", outcome.report))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_says_its_time_in_words_with_an_estimate() {
        assert_eq!(
            progress_words(70.0, 10.0, 5, 100),
            "1 min 10 s elapsed; about 8 min 50 s left of the 10 min budget"
        );
        assert!(progress_words(700.0, 10.0, 100, 100).contains("every planned game is played"));
        assert!(progress_words(700.0, 10.0, 90, 100).contains("the slowest"));
        assert_eq!(duration_words(59.6), "1 min");
    }
}
