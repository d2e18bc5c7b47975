//! Simulations in the background with plots of the report, and the exact
//! battle calculator. The games run on their own thread (and rayon pool) so
//! the window stays responsive; the panel only polls the shared progress.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use egui::{RichText, Ui};

use super::battle_calculator::BattleCalculator;
use super::charts::charts;
use super::error::RunError;
use super::ladder_view::{self, LadderSettings};
use super::sweep_view::{self, SweepSettings};
use super::tune_view::{self, TuneSettings, TuneUse};
use crate::ai::AiSpec;
use crate::app::map::heatmap_view::HeatSource;
use crate::app::player_picker::{self, Chosen, Offer, RankedFor};
use crate::app::replay::games::{GameRow, RunGames};
use crate::app::state::game_of;
use crate::app::theme;
use crate::app::{ExportKind, FilePurpose, Request};
use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Side;
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet};
use crate::sim::players::tune::TuneReport;
use crate::sim::questions::explain::{
    ExplainLadder, ExplainReport, ExplainSetup, Pairs, SetupChange,
};
use crate::sim::questions::ladder::{LadderOptions, LadderReport};
use crate::sim::questions::sweep::SweepReport;
use crate::sim::runs::options::SimOptions;
use crate::sim::runs::report::{CompareReport, GameSummary, SimReport};
use crate::sim::{self, Progress};

/// What the Simulate tab runs on: the scenario in the window and its
/// error count, the rule set in force (none when it did not load) and its
/// name. The controls hand it to the run they start.
#[derive(Clone, Copy)]
struct Setup<'a> {
    doc: Option<&'a ResolvedScenario>,
    errors: usize,
    rules: Option<&'a RuleSet>,
    /// The rule set's name, and the setup the player menus rank for.
    ranked_for: RankedFor<'a>,
}

impl<'a> Setup<'a> {
    fn variant(&self) -> &'a str {
        self.ranked_for.variant
    }
}

/// The runs the Simulate tab starts.
#[derive(Clone, Copy)]
enum Run {
    Games,
    Ladder,
    Sweep,
    Tune,
}

/// What a finished run produced.
pub enum RunOutcome {
    Single {
        report: Box<SimReport>,
        /// One CSV row per game, with the header.
        csv: String,
        /// The games, for the table that opens one in the Replay tab.
        games: Box<RunGames>,
    },
    Compare(Box<CompareReport>),
    /// A strength ladder (one or two rule sets).
    Ladder(Box<LadderReport>),
    /// A balance sweep over rule-set fields.
    Sweep(Box<SweepReport>),
    /// A tuned player (`tune`).
    Tune(Box<TuneReport>),
    /// Why two rule sets differ, field by field (the Rules tab's
    /// explanation, which takes it from here: [`SimPanel::take_explain`]).
    Explain(Box<ExplainRun>),
}

/// The Rules tab's explanation to run: why `games[1]` (B, played on the
/// setup with every change in `changes`) differs from `games[0]` (A), field
/// by field; with `pairs`, then the pairs of fields it marks as interacting,
/// switched together (as `explain --pairs`); with `check_with`, the same
/// again with that player on both sides, and whether each field's effect
/// agrees between the two players (as `explain --ladder`).
pub(crate) struct ExplainRequest {
    pub(crate) games: [Game; 2],
    pub(crate) variants: [String; 2],
    pub(crate) options: SimOptions,
    pub(crate) changes: Vec<SetupChange>,
    pub(crate) pairs: bool,
    pub(crate) check_with: Option<AiSpec>,
}

/// A finished explanation, and the same with the other player when one was
/// asked for.
pub struct ExplainRun {
    pub report: ExplainReport,
    pub ladder: Option<ExplainLadder>,
}

struct Running {
    progress: Arc<Progress>,
    total: u64,
    started: Instant,
    rx: Receiver<Result<RunOutcome, RunError>>,
    /// A tune's games per generation and generations, for its progress.
    tune: Option<(u64, u64)>,
    /// Whether it is the Rules tab's explanation (whose pairs add their
    /// games to the progress once known).
    explain: bool,
}

/// The simulation panel's settings, the run in progress and the last result.
pub struct SimPanel {
    pub caesar: AiSpec,
    pub pompey: AiSpec,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// Compare the rule set in force with this variant (same seeds).
    pub compare_with: Option<String>,
    /// The strength ladder's rungs and games per match.
    pub ladder: LadderSettings,
    /// The balance sweep's fields, values and games per point.
    pub sweep: SweepSettings,
    /// Tune's opponent, games, population and generations.
    pub tune: TuneSettings,
    /// Where the last tuned player was saved, once it is.
    tuned_saved: Option<std::path::PathBuf>,
    /// Whether the current or last run is a tune (finished, failed or
    /// cancelled).
    last_run_tuned: bool,
    /// Whether the current or last run is an explanation (its result,
    /// or its failure, belongs to the Rules tab).
    last_run_explained: bool,
    running: Option<Running>,
    pub result: Option<Result<RunOutcome, RunError>>,
    /// The result as JSON, made once when the run ends (for export).
    json: Option<Result<String, serde_json::Error>>,
    battle: BattleCalculator,
    /// The longest the window took to build a frame while the last run went
    /// on: the run must never make the window stutter.
    slowest_frame: Option<Duration>,
}

impl Default for SimPanel {
    fn default() -> Self {
        SimPanel {
            caesar: AiSpec::Heuristic,
            pompey: AiSpec::Heuristic,
            games: 200,
            seed: 1,
            // One core stays free for the window.
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            compare_with: None,
            ladder: LadderSettings::default(),
            sweep: SweepSettings::default(),
            tune: TuneSettings::default(),
            tuned_saved: None,
            last_run_tuned: false,
            last_run_explained: false,
            running: None,
            result: None,
            json: None,
            battle: BattleCalculator::default(),
            slowest_frame: None,
        }
    }
}

impl SimPanel {
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The last run's report(s) for the map heatmaps: a run, or a
    /// comparison (drawn as A − B).
    pub(crate) fn heat_source(&self) -> Option<HeatSource<'_>> {
        match &self.result {
            Some(Ok(RunOutcome::Single { report, .. })) => Some(HeatSource { a: report, b: None }),
            Some(Ok(RunOutcome::Compare(c))) => Some(HeatSource {
                a: &c.a,
                b: Some(&c.b),
            }),
            _ => None,
        }
    }

    /// Starts a run of `run`'s kind in the background under `rules`.
    /// Refused (with a reason) while one runs, or when the scenario has
    /// errors.
    fn start(&mut self, run: Run, on: Setup<'_>, rules: &RuleSet) {
        if !self.may_start(on.errors) {
            return;
        }
        match run {
            Run::Games => self.start_games(on, rules),
            Run::Ladder => self.start_ladder(on, rules),
            Run::Sweep => self.start_sweep(on, rules),
            Run::Tune => self.start_tune(on, rules),
        }
    }

    /// Starts a run of games: the rule set in force and, when comparing,
    /// the other one too, on the same seeds.
    fn start_games(&mut self, on: Setup<'_>, rules: &RuleSet) {
        let (doc, variant) = (on.doc, on.variant());
        let options = SimOptions::new(
            self.games.max(1),
            self.seed,
            self.caesar.clone(),
            self.pompey.clone(),
        );
        let Some((game, other)) = self.checked_games(doc, rules, variant) else {
            return;
        };
        let total = options.games * if other.is_some() { 2 } else { 1 };
        let variant = variant.to_string();
        self.launch(total, move |shared| {
            match other {
                None => {
                    let mut csv = format!("{}\n", GameSummary::csv_header());
                    let mut rows = Vec::new();
                    sim::simulate(&game, &variant, &options, shared, |r| {
                        csv.push_str(&r.csv_row());
                        csv.push('\n');
                        rows.push(GameRow::from(r));
                    })
                    .map(|report| RunOutcome::Single {
                        report: Box::new(report),
                        csv,
                        games: Box::new(RunGames {
                            game: game.clone(),
                            options: options.clone(),
                            rows,
                        }),
                    })
                }
                Some((name, game_b)) => {
                    sim::compare([&game, &game_b], [&variant, &name], &options, shared)
                        .map(|r| RunOutcome::Compare(Box::new(r)))
                }
            }
            .map_err(|_| RunError::Cancelled)
        });
    }

    /// Starts a strength ladder in the background: the chosen rungs, under
    /// the rule set in force and, when comparing, the other one too (same
    /// seeds). Refused like [`SimPanel::start`], and when the rungs are
    /// not a ladder (none chosen).
    fn start_ladder(&mut self, on: Setup<'_>, rules: &RuleSet) {
        let (doc, variant) = (on.doc, on.variant());
        let options = LadderOptions {
            players: self.ladder.players.clone(),
            games: self.ladder.games.max(1),
            seed: self.seed,
            omniscient: false,
            shard: None,
        };
        if let Err(e) = options.check() {
            self.result = Some(Err(RunError::Ladder(e)));
            return;
        }
        let Some((game, other)) = self.checked_games(doc, rules, variant) else {
            return;
        };
        let total = options.total_games(1 + usize::from(other.is_some()));
        let variant = variant.to_string();
        self.launch(total, move |shared| {
            match other {
                None => sim::questions::ladder::ladder(&[&game], &[&variant], &options, shared),
                Some((name, game_b)) => sim::questions::ladder::ladder(
                    &[&game, &game_b],
                    &[&variant, &name],
                    &options,
                    shared,
                ),
            }
            .map(|r| RunOutcome::Ladder(Box::new(r)))
            .map_err(|_| RunError::Cancelled)
        });
    }

    /// Starts a balance sweep in the background: every combination of the
    /// chosen fields' values over the rule set in force, each point over the
    /// same seeds, each point's rule set checked by the validator (whose
    /// error is shown). Refused like [`SimPanel::start`].
    fn start_sweep(&mut self, on: Setup<'_>, rules: &RuleSet) {
        let (Some(doc), variant) = (on.doc, on.variant()) else {
            return;
        };
        let axes = match self.sweep.parsed() {
            Ok(a) => a,
            Err(e) => {
                self.result = Some(Err(e.into()));
                return;
            }
        };
        let points: usize = axes.iter().map(|a| a.values.len()).product();
        let options = SimOptions::new(
            self.sweep.games.max(1),
            self.seed,
            self.caesar.clone(),
            self.pompey.clone(),
        );
        let total = options.games * points as u64;
        let doc = doc.clone();
        let rules = rules.clone();
        let variant = variant.to_string();
        self.launch(total, move |shared| {
            let planned = sim::questions::sweep::plan(&doc, &rules, &axes)?;
            sim::questions::sweep::sweep(&planned, &variant, &axes, &options, shared)
                .map(|r| RunOutcome::Sweep(Box::new(r)))
                .map_err(|_| RunError::Cancelled)
        });
    }

    /// Starts tuning a heuristic player in the background: `tune` with the
    /// tune panel's settings and the seed above, under the rule set in
    /// force. Refused like [`SimPanel::start`], and when the settings are
    /// not a run (the reason is shown).
    fn start_tune(&mut self, on: Setup<'_>, rules: &RuleSet) {
        let (doc, variant) = (on.doc, on.variant());
        let options = match self.tune.options(self.seed) {
            Ok(o) => o,
            Err(e) => {
                self.result = Some(Err(RunError::Tune(e)));
                return;
            }
        };
        let shape = (
            options.population() as u64 * options.effort.games_per_candidate,
            options.generations(),
        );
        let Some(game) = self.checked_game(doc, rules, variant) else {
            return;
        };
        // Named as the CLI names it: the variant and the rule set's title.
        let name = format!("{variant} ({})", rules.name);
        self.launch(options.total_games(), move |shared| {
            sim::players::tune::tune(&game, &name, &options, shared)
                .map(|r| RunOutcome::Tune(Box::new(r)))
                .map_err(|_| RunError::Cancelled)
        });
        self.tuned_saved = None;
        self.last_run_tuned = true;
        if let Some(r) = &mut self.running {
            r.tune = Some(shape);
        }
    }

    /// Whether a run may start: none is running and the scenario has no
    /// errors (else the reason is shown).
    fn may_start(&mut self, errors: usize) -> bool {
        if self.running.is_some() {
            return false;
        }
        if errors > 0 {
            self.result = Some(Err(RunError::ScenarioErrors(errors)));
            return false;
        }
        true
    }

    /// The rule set to compare with, if one is chosen: `None` (with the
    /// error shown) when its file cannot be loaded.
    /// The game of `rules` on the scenario, started as the command line
    /// starts it (validated against the document, whose errors refuse it),
    /// else `None` with the validator's findings shown.
    fn checked_game(
        &mut self,
        doc: Option<&ResolvedScenario>,
        rules: &RuleSet,
        variant: &str,
    ) -> Option<Game> {
        match game_of(doc, rules.clone(), variant) {
            Ok(game) => Some(game),
            Err(refused) => {
                self.result = Some(Err(refused.into()));
                None
            }
        }
    }

    /// The games of the rule set in force and, when comparing, of the other
    /// one, each checked as [`SimPanel::checked_game`] checks it.
    fn checked_games(
        &mut self,
        doc: Option<&ResolvedScenario>,
        rules: &RuleSet,
        variant: &str,
    ) -> Option<(Game, Option<(String, Game)>)> {
        let other = self.compared_rules()?;
        let game = self.checked_game(doc, rules, variant)?;
        let other = match other {
            Some((name, rules_b)) => Some((name.clone(), self.checked_game(doc, &rules_b, &name)?)),
            None => None,
        };
        Some((game, other))
    }

    fn compared_rules(&mut self) -> Option<Option<(String, RuleSet)>> {
        match &self.compare_with {
            Some(v) => match RuleSet::load(v) {
                Ok(r) => Some(Some((v.clone(), r))),
                Err(e) => {
                    self.result = Some(Err(e.into()));
                    None
                }
            },
            None => Some(None),
        }
    }

    /// Runs `work` on its own thread and rayon pool of `threads` workers;
    /// the panel polls its progress (`total` games) and picks up its result.
    fn launch(
        &mut self,
        total: u64,
        work: impl FnOnce(&Progress) -> Result<RunOutcome, RunError> + Send + 'static,
    ) {
        let progress = Arc::new(Progress::new());
        let (tx, rx) = channel();
        let threads = self.threads.max(1);
        let shared = progress.clone();
        std::thread::spawn(move || {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => {
                    let _ = tx.send(Err(RunError::Threads { threads, source: e }));
                    return;
                }
            };
            let result = pool.install(|| work(&shared));
            let _ = tx.send(result);
        });
        self.result = None;
        self.json = None;
        self.slowest_frame = None;
        self.last_run_tuned = false;
        self.last_run_explained = false;
        self.running = Some(Running {
            progress,
            total,
            started: Instant::now(),
            rx,
            tune: None,
            explain: false,
        });
    }

    /// Starts the Rules tab's explanation (see [`ExplainRequest`]): the
    /// library's one run ([`ExplainSetup::play`]), as `explain` plays it.
    pub(crate) fn start_explain(&mut self, request: ExplainRequest) -> Result<(), RunError> {
        if self.running.is_some() {
            return Err(RunError::Busy);
        }
        request.options.check()?;
        let [a, b] = &request.games;
        let fields = ExplainSetup {
            a,
            b,
            variants: [&request.variants[0], &request.variants[1]],
            setup_changes: &request.changes,
        }
        .games(&request.options)?;
        let runs = 1 + u64::from(request.check_with.is_some());
        self.launch(runs * fields, move |shared| {
            let ExplainRequest {
                games,
                variants,
                options,
                changes,
                pairs,
                check_with,
            } = request;
            let setup = ExplainSetup {
                a: &games[0],
                b: &games[1],
                variants: [&variants[0], &variants[1]],
                setup_changes: &changes,
            };
            let pairs = if pairs { Pairs::Flagged } else { Pairs::None };
            let cancelled = |_| RunError::Cancelled;
            let run = match check_with {
                None => ExplainRun {
                    report: setup.play(&pairs, &options, shared).map_err(cancelled)?,
                    ladder: None,
                },
                // The same with the other player on both sides, as
                // `explain --ladder OTHER,…` does at its lower rung.
                Some(other) => {
                    let lower = SimOptions {
                        caesar: other.clone(),
                        pompey: other,
                        ..options.clone()
                    };
                    let ladder = setup
                        .play_rungs(&pairs, [&lower, &options], shared)
                        .map_err(cancelled)?;
                    ExplainRun {
                        report: ladder.rungs[1].clone(),
                        ladder: Some(ladder),
                    }
                }
            };
            Ok(RunOutcome::Explain(Box::new(run)))
        });
        self.last_run_explained = true;
        if let Some(r) = &mut self.running {
            r.explain = true;
        }
        Ok(())
    }

    /// While an explanation runs: games done, games in all, seconds so far.
    pub(crate) fn explain_progress(&self) -> Option<(u64, u64, f32)> {
        let r = self.running.as_ref()?;
        if !r.explain {
            return None;
        }
        Some((
            r.progress.done(),
            r.total + r.progress.more(),
            r.started.elapsed().as_secs_f32(),
        ))
    }

    /// The finished explanation, or why it stopped, handed over once to
    /// the Rules tab that shows it.
    pub(crate) fn take_explain(&mut self) -> Option<Result<ExplainRun, RunError>> {
        self.poll();
        if !self.last_run_explained || self.running.is_some() {
            return None;
        }
        match self.result.take() {
            Some(Ok(RunOutcome::Explain(r))) => Some(Ok(*r)),
            Some(Err(e)) => Some(Err(e)),
            other => {
                self.result = other;
                None
            }
        }
    }

    /// Records how long the window took to build a frame during a run.
    pub(crate) fn note_frame(&mut self, took: Duration) {
        if self.running.is_some() {
            self.slowest_frame = Some(self.slowest_frame.map_or(took, |d| d.max(took)));
        }
    }

    /// The slowest frame of the window during the current or last run.
    pub fn slowest_frame(&self) -> Option<Duration> {
        self.slowest_frame
    }

    /// Asks the run to stop; it ends within a game or so per thread.
    pub(crate) fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.progress.cancel();
        }
    }

    /// Picks up a finished run; true while one is still going.
    pub(crate) fn poll(&mut self) -> bool {
        let Some(r) = &self.running else {
            return false;
        };
        match r.rx.try_recv() {
            Ok(result) => {
                self.json = match &result {
                    Ok(RunOutcome::Single { report, .. }) => {
                        Some(serde_json::to_string_pretty(report))
                    }
                    Ok(RunOutcome::Compare(c)) => Some(serde_json::to_string_pretty(c)),
                    Ok(RunOutcome::Ladder(l)) => Some(serde_json::to_string_pretty(l)),
                    Ok(RunOutcome::Sweep(w)) => Some(serde_json::to_string_pretty(w)),
                    Ok(RunOutcome::Tune(t)) => Some(serde_json::to_string_pretty(t)),
                    // The Rules tab makes the explanation's files.
                    Ok(RunOutcome::Explain(_)) => None,
                    Err(_) => None,
                };
                self.result = Some(result);
                self.running = None;
                false
            }
            Err(TryRecvError::Empty) => true,
            Err(TryRecvError::Disconnected) => {
                self.result = Some(Err(RunError::ThreadStopped));
                self.running = None;
                false
            }
        }
    }

    /// Blocks until the run in progress ends (for tests and shutdown).
    pub fn wait(&mut self) {
        while self.poll() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub(crate) fn show(
        &mut self,
        ui: &mut Ui,
        doc: Option<&ResolvedScenario>,
        errors: usize,
        rules: Option<&RuleSet>,
        ranked_for: RankedFor<'_>,
        revision: u64,
    ) -> Vec<Request> {
        if self.poll() {
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        let mut actions = Vec::new();
        let on = Setup {
            doc,
            errors,
            rules,
            ranked_for,
        };
        egui::Panel::left("sim_controls")
            .default_size(theme::SIM_CONTROLS_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    actions.extend(self.controls(ui, on));
                    ui.separator();
                    self.sweep_controls(ui, on);
                    ui.separator();
                    self.battle
                        .show(ui, (doc, revision), rules, ranked_for.variant);
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| actions.extend(self.results(ui, rules)));
        });
        actions
    }

    fn controls(&mut self, ui: &mut Ui, on: Setup<'_>) -> Vec<Request> {
        let (rules, variant) = (on.rules, on.variant());
        let mut actions = Vec::new();
        ui.heading("Simulate");
        egui::Grid::new("sim_options")
            .num_columns(2)
            .spacing([10.0, 4.0])
            .show(ui, |ui| {
                for (side, ai) in [
                    (Side::Caesar, &mut self.caesar),
                    (Side::Pompey, &mut self.pompey),
                ] {
                    actions.extend(ai_rows(ui, side, ai, on.ranked_for));
                }
                self.run_rows(ui);
            });
        ui.label(
            RichText::new(format!(
                "Rule set: {variant}{}",
                self.compare_with
                    .as_ref()
                    .map(|o| format!(" against {o}, same seeds"))
                    .unwrap_or_default()
            ))
            .weak(),
        );
        ui.horizontal(|ui| {
            let can_run = rules.is_some() && self.running.is_none();
            if ui.add_enabled(can_run, egui::Button::new("Run")).clicked()
                && let Some(rules) = rules
            {
                self.start(Run::Games, on, rules);
            }
            if ui
                .add_enabled(self.running.is_some(), egui::Button::new("Cancel"))
                .clicked()
            {
                self.cancel();
            }
        });
        ui.separator();
        actions.extend(self.ladder_controls(ui, on));
        self.run_progress(ui);
        ui.separator();
        actions.extend(self.tune_controls(ui, on));
        actions
    }

    /// Games, seed, threads and the rule set to compare with, as grid rows.
    fn run_rows(&mut self, ui: &mut Ui) {
        let l = ui.label("Games");
        ui.add(egui::DragValue::new(&mut self.games).range(1..=1_000_000))
            .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("Seed");
        ui.add(egui::DragValue::new(&mut self.seed))
            .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("Threads");
        ui.add(egui::DragValue::new(&mut self.threads).range(1..=256))
            .labelled_by(l.id);
        ui.end_row();
        let mut compare = self.compare_with.is_some();
        let l = ui.label("Compare");
        ui.horizontal(|ui| {
            ui.checkbox(&mut compare, "").labelled_by(l.id);
            if compare {
                let other = self
                    .compare_with
                    .get_or_insert_with(|| "rules-1.1".to_string());
                egui::ComboBox::from_id_salt("sim_compare")
                    .selected_text(other.as_str())
                    .show_ui(ui, |ui| {
                        for (name, _) in BUILTIN_VARIANTS {
                            ui.selectable_value(other, (*name).to_string(), *name);
                        }
                    })
                    .response
                    .labelled_by(l.id);
            }
        });
        if !compare {
            self.compare_with = None;
        }
        ui.end_row();
    }

    fn ladder_controls(&mut self, ui: &mut Ui, on: Setup<'_>) -> Option<Request> {
        let Setup { rules, .. } = on;
        ui.label(RichText::new("Strength ladder").strong())
            .on_hover_text(
                "A mirror match at every rung (both sides played by that player), cross-play between the rungs for ratings, and whether the rule sets' difference for Caesar holds at every strength. Uses the seed, threads and compare setting above.",
            );
        let request = ladder_view::settings(ui, &mut self.ladder, on.ranked_for);
        let can_run = rules.is_some() && self.running.is_none() && !self.ladder.players.is_empty();
        if ui
            .add_enabled(can_run, egui::Button::new("Run ladder"))
            .clicked()
            && let Some(rules) = rules
        {
            self.start(Run::Ladder, on, rules);
        }
        request
    }

    /// Tune's settings, its Run and Cancel, and its progress by generation.
    fn tune_controls(&mut self, ui: &mut Ui, on: Setup<'_>) -> Option<Request> {
        let Setup { rules, .. } = on;
        let mut request = None;
        egui::CollapsingHeader::new(RichText::new("Tune a player").strong())
            .id_salt("tune_panel")
            .show(ui, |ui| {
                ui.label(
                    RichText::new(
                        "Fits the heuristic's numbers to the rule set by self-play (CMA-ES), as `caesar-workbench tune` does, then checks the result against its opponent on unseen games.",
                    )
                    .weak(),
                );
                request = tune_view::settings(ui, &mut self.tune, on.ranked_for);
                ui.horizontal(|ui| {
                    let can_run = rules.is_some() && self.running.is_none();
                    if ui.add_enabled(can_run, egui::Button::new("Run tune")).clicked()
                        && let Some(rules) = rules
                    {
                        self.start(Run::Tune, on, rules);
                    }
                    let tuning = self.running.as_ref().is_some_and(|r| r.tune.is_some());
                    if ui
                        .add_enabled(tuning, egui::Button::new("Cancel tune"))
                        .clicked()
                    {
                        self.cancel();
                    }
                });
                if let Some(Running {
                    progress,
                    total,
                    started,
                    tune: Some((per_generation, generations)),
                    ..
                }) = &self.running
                {
                    let done = progress.done();
                    let generation = done / per_generation.max(&1);
                    let stage = if generation < *generations {
                        format!("generation {} of {generations}", generation + 1)
                    } else {
                        "checking against the opponent".to_string()
                    };
                    ui.add(egui::ProgressBar::new(done as f32 / (*total).max(1) as f32).text(
                        format!(
                            "{stage}: {done} / {total} games, {:.0} s",
                            started.elapsed().as_secs_f32()
                        ),
                    ));
                }
            });
        request
    }

    /// The run's progress, and how smooth the window stayed during it.
    fn run_progress(&self, ui: &mut Ui) {
        // A tune shows its progress in its own panel.
        if let Some(r) = self.running.as_ref().filter(|r| r.tune.is_none()) {
            let done = r.progress.done();
            let fraction = done as f32 / r.total.max(1) as f32;
            ui.add(egui::ProgressBar::new(fraction).text(format!(
                "{done} / {} games, {:.0} s",
                r.total,
                r.started.elapsed().as_secs_f32()
            )));
        }
        // A tune's run is the tune panel's, not the ladder's above it.
        if let Some(slowest) = self.slowest_frame.filter(|_| !self.last_run_tuned) {
            ui.label(
                RichText::new(format!(
                    "Slowest window frame during the run: {:.1} ms to build",
                    slowest.as_secs_f64() * 1000.0
                ))
                .weak()
                .small(),
            )
            .on_hover_text(
                "The longest the window took to lay out one frame (before painting) while the simulation ran in the background",
            );
        }
    }

    /// Plays `side` with the heuristic player of the file at `path`.
    pub(crate) fn load_player(
        &mut self,
        side: Side,
        path: &std::path::Path,
    ) -> Result<(), crate::scenario::format::LoadError> {
        crate::app::player_picker::pick_player_file(
            [&mut self.caesar, &mut self.pompey],
            side,
            path,
        )
    }

    /// Adds the heuristic player of the file at `path` as a ladder rung.
    pub(crate) fn add_rung_from(
        &mut self,
        path: &std::path::Path,
    ) -> Result<(), crate::scenario::format::LoadError> {
        let spec = AiSpec::player_file(path)?;
        self.ladder.add(spec);
        Ok(())
    }

    /// The tuned player was saved at `path`: it is used by that name from
    /// now on.
    pub(crate) fn player_saved(&mut self, path: &std::path::Path) {
        self.tuned_saved = Some(path.to_path_buf());
    }

    /// Uses the last tuned player where the user chose; a seat in the Play
    /// tab is asked of the window.
    fn use_tuned(&mut self, to: TuneUse) -> Option<Request> {
        let Some(Ok(RunOutcome::Tune(report))) = &self.result else {
            return None;
        };
        let spec = tune_view::tuned_player(report, self.tuned_saved.as_deref());
        match to {
            TuneUse::Simulate(Side::Caesar) => self.caesar = spec,
            TuneUse::Simulate(Side::Pompey) => self.pompey = spec,
            TuneUse::LadderRung => self.ladder.add(spec),
            TuneUse::Play(side) => return Some(Request::SeatPlayer(side, spec)),
        }
        None
    }

    fn sweep_controls(&mut self, ui: &mut Ui, on: Setup<'_>) {
        let Setup { doc, rules, .. } = on;
        ui.label(RichText::new("Balance sweep").strong()).on_hover_text(
            "Caesar's win rate at every combination of the fields' values (over the rule set in force), each point over the same seeds; the point nearest an even game is marked. Uses the AIs, seed and threads above.",
        );
        sweep_view::settings(ui, &mut self.sweep, rules);
        let can_run = rules.is_some()
            && doc.is_some()
            && self.running.is_none()
            && !self.sweep.axes.is_empty();
        if ui
            .add_enabled(can_run, egui::Button::new("Run sweep"))
            .clicked()
            && let Some(rules) = rules
        {
            self.start(Run::Sweep, on, rules);
        }
    }

    fn results(&mut self, ui: &mut Ui, rules: Option<&RuleSet>) -> Vec<Request> {
        let mut actions = Vec::new();
        let mut tuned_use = None;
        match &self.result {
            None if self.running.is_none() => {
                ui.label(
                    RichText::new(
                        "Run a simulation to see win rates, VP by year, how games end, and battles.",
                    )
                    .weak(),
                );
            }
            None => {
                ui.label("Running…");
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, format!("The run stopped: {e}"));
            }
            Some(Ok(RunOutcome::Single { report, csv, games })) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), Some(csv)));
                summary(ui, report);
                actions.extend(crate::app::replay::games::table(ui, games));
                actions.extend(charts(ui, &[report.as_ref()], Some(games)));
            }
            Some(Ok(RunOutcome::Compare(c))) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), None));
                let d = &c.caesar_win_rate_difference;
                ui.label(
                    RichText::new(format!(
                        "Caesar's win rate, {} minus {}: {:+.1} points (95%: {:+.1} to {:+.1}), p = {:.3}, {} (paired over the same seeds)",
                        c.a.variant,
                        c.b.variant,
                        d.estimate * 100.0,
                        d.ci95[0] * 100.0,
                        d.ci95[1] * 100.0,
                        d.p_value,
                        if d.significant {
                            "significant"
                        } else {
                            "not significant"
                        }
                    ))
                    .strong(),
                );
                summary(ui, &c.a);
                summary(ui, &c.b);
                charts(ui, &[&c.a, &c.b], None);
            }
            Some(Ok(RunOutcome::Ladder(l))) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), None));
                ladder_view::show(ui, l);
            }
            Some(Ok(RunOutcome::Sweep(w))) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), None));
                actions.extend(sweep_view::show(ui, w, rules));
            }
            Some(Ok(RunOutcome::Explain(e))) => {
                ui.label(format!(
                    "The explanation of {} against {} is done.",
                    e.report.variants[1], e.report.variants[0]
                ));
                if ui.button("Show it in the Rules tab").clicked() {
                    actions.push(Request::SetTab(crate::app::Tab::Rules));
                }
            }
            Some(Ok(RunOutcome::Tune(t))) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), None));
                let (requests, used) = tune_view::show(ui, t, self.tuned_saved.as_deref());
                actions.extend(requests);
                tuned_use = used;
            }
        }
        if let Some(to) = tuned_use {
            actions.extend(self.use_tuned(to));
        }
        actions
    }
}

/// A side's AI chooser (the best player for the rule set first) and a
/// searching player's playouts, as grid rows; choosing a player file asks
/// for the file.
fn ai_rows(ui: &mut Ui, side: Side, ai: &mut AiSpec, ranked_for: RankedFor<'_>) -> Option<Request> {
    let mut request = None;
    let l = ui.label(format!("{side} AI"));
    // The file of the player shown (before this frame's pick, if any).
    let file = ai.numbers_file().map(|t| format!("Player file {}", t.path));
    let (combo, chosen) =
        player_picker::pick_player(ui, ("ai", side.index()), ai, ranked_for, Offer::Players);
    let combo = combo.labelled_by(l.id);
    if let Some(file) = file {
        combo.on_hover_text(file);
    }
    if chosen == Some(Chosen::FromFile) {
        request = Some(Request::Choose(FilePurpose::OpenPlayer(
            side,
            crate::app::PlayerUse::Simulate,
        )));
    }
    ui.end_row();
    player_picker::budget_row(ui, &format!("{side} playouts"), ai);
    request
}

/// "Export JSON…" and "Export CSV…": ask where, then write (a failure is
/// shown in the status line).
fn export_buttons(
    ui: &mut Ui,
    json: Option<&Result<String, serde_json::Error>>,
    csv: Option<&String>,
) -> Vec<Request> {
    let mut actions = Vec::new();
    ui.horizontal(|ui| {
        match json {
            Some(Ok(json)) if ui.button("Export JSON…").clicked() => {
                actions.push(Request::Choose(FilePurpose::Export {
                    kind: ExportKind::Json,
                    text: json.clone(),
                }));
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, format!("No JSON export: {e}"));
            }
            None => {}
        }
        if let Some(csv) = csv
            && ui.button("Export CSV…").clicked()
        {
            actions.push(Request::Choose(FilePurpose::Export {
                kind: ExportKind::Csv,
                text: csv.clone(),
            }));
        }
    });
    actions
}

fn pct(e: &sim::runs::stats::Estimate) -> String {
    format!(
        "{:.1}% ({:.1}–{:.1}%)",
        e.estimate * 100.0,
        e.ci95[0] * 100.0,
        e.ci95[1] * 100.0
    )
}

fn summary(ui: &mut Ui, r: &SimReport) {
    ui.label(
        RichText::new(format!(
            "{}: {} games, {} vs {}",
            r.variant, r.games, r.caesar_ai, r.pompey_ai
        ))
        .strong(),
    );
    egui::Grid::new(("summary", r.variant.as_str()))
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Caesar wins");
            ui.label(pct(&r.caesar_win_rate));
            ui.end_row();
            ui.label("Pompey wins");
            ui.label(pct(&r.pompey_win_rate));
            ui.end_row();
            ui.label("Draws");
            ui.label(pct(&r.draw_rate));
            ui.end_row();
            ui.label("Battles per game");
            ui.label(format!("{:.1}", r.battles_per_game.mean));
            ui.end_row();
            ui.label("Speed");
            ui.label(format!("{:.0} games/s", r.games_per_second));
            ui.end_row();
        });
}
