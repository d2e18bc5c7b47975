//! Simulations in the background with plots of the report, and the exact
//! battle calculator. The games run on their own thread (and rayon pool) so
//! the window stays responsive; the panel only polls the shared progress.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use egui::{RichText, Stroke, Ui};
use egui_plot::{
    Bar, BarChart, BoxElem, BoxPlot, BoxSpread, Line, Plot, Polygon, uniform_grid_spacer,
};

use super::bands::band_quads;
use super::chart_key;
use super::ladder_view::{self, LadderSettings};
use super::sweep_view::{self, SweepSettings};
use super::theme::{self, CAESAR, DRAW, POMPEY};
use super::{ExportKind, FilePurpose, Request};
use crate::ai::AiSpec;
use crate::engine::Game;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Scenario;
use crate::scenario::model::Side;
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet};
use crate::sim::odds::{BattleOdds, BattleSpec, battle_odds, parse_blocks};
use crate::sim::{
    self, CompareReport, GameRecord, LadderOptions, LadderReport, Progress, SimOptions, SimReport,
    SweepReport,
};

/// What a finished run produced.
pub enum Outcome {
    Single {
        report: Box<SimReport>,
        /// One CSV row per game, with the header.
        csv: String,
        /// The games, for the table that opens one in the Replay tab.
        games: Box<super::replay_games::RunGames>,
    },
    Compare(Box<CompareReport>),
    /// A strength ladder (one or two rule sets).
    Ladder(Box<LadderReport>),
    /// A balance sweep over rule-set fields.
    Sweep(Box<SweepReport>),
}

struct Running {
    progress: Arc<Progress>,
    total: u64,
    started: Instant,
    rx: Receiver<Result<Outcome, String>>,
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
    running: Option<Running>,
    pub result: Option<Result<Outcome, String>>,
    /// The result as JSON, made once when the run ends (for export).
    json: Option<Result<String, String>>,
    battle: BattleInput,
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
            running: None,
            result: None,
            json: None,
            battle: BattleInput::default(),
            slowest_frame: None,
        }
    }
}

/// The battle calculator's inputs, as typed.
struct BattleInput {
    attacker: Side,
    attacking: String,
    attacking_reserves: String,
    defending: String,
    defending_reserves: String,
    surprise: bool,
    /// The inputs the cached odds belong to.
    key: String,
    odds: Option<Result<BattleOdds, String>>,
}

impl Default for BattleInput {
    fn default() -> Self {
        BattleInput {
            attacker: Side::Caesar,
            attacking: "Caesar, Legio 13".into(),
            attacking_reserves: String::new(),
            defending: "Pompey, Legio 1=2".into(),
            defending_reserves: String::new(),
            surprise: false,
            key: String::new(),
            odds: None,
        }
    }
}

impl SimPanel {
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The last run's report(s) for the map heatmaps: a run, or a
    /// comparison (drawn as A − B).
    pub fn heat_source(&self) -> Option<super::heatmap_view::HeatSource<'_>> {
        use super::heatmap_view::HeatSource;
        match &self.result {
            Some(Ok(Outcome::Single { report, .. })) => Some(HeatSource { a: report, b: None }),
            Some(Ok(Outcome::Compare(c))) => Some(HeatSource {
                a: &c.a,
                b: Some(&c.b),
            }),
            _ => None,
        }
    }

    /// Games finished so far of the run in progress.
    pub fn progress(&self) -> Option<(u64, u64)> {
        self.running.as_ref().map(|r| (r.progress.done(), r.total))
    }

    /// Starts a run in the background. Refused (with a reason) while one
    /// runs, or when the scenario has errors.
    pub fn start(&mut self, scenario: &Scenario, errors: usize, rules: &RuleSet, variant: &str) {
        if !self.may_start(errors) {
            return;
        }
        let scenario = Arc::new(scenario.clone());
        let options = SimOptions {
            games: self.games.max(1),
            seed: self.seed,
            caesar: self.caesar.clone(),
            pompey: self.pompey.clone(),
            omniscient: false,
            shard: None,
        };
        let Some(other) = self.compared_rules() else {
            return;
        };
        let total = options.games * if other.is_some() { 2 } else { 1 };
        let rules = Arc::new(rules.clone());
        let variant = variant.to_string();
        self.launch(total, move |shared| {
            let game = Game::new(scenario.clone(), rules);
            match other {
                None => {
                    let mut csv = format!("{}\n", GameRecord::CSV_HEADER);
                    let mut rows = Vec::new();
                    sim::simulate(&game, &variant, &options, shared, |r| {
                        csv.push_str(&r.csv_row());
                        csv.push('\n');
                        rows.push(super::replay_games::GameRow::from(r));
                    })
                    .map(|report| Outcome::Single {
                        report: Box::new(report),
                        csv,
                        games: Box::new(super::replay_games::RunGames {
                            game: game.clone(),
                            options: options.clone(),
                            rows,
                        }),
                    })
                }
                Some((name, rules_b)) => {
                    let game_b = Game::new(scenario, Arc::new(rules_b));
                    sim::compare([&game, &game_b], [&variant, &name], &options, shared)
                        .map(|r| Outcome::Compare(Box::new(r)))
                }
            }
            .map_err(|_| "cancelled".to_string())
        });
    }

    /// Starts a strength ladder in the background: the chosen rungs, under
    /// the rule set in force and, when comparing, the other one too (same
    /// seeds). Refused like [`SimPanel::start`], and when the rungs are
    /// not a ladder (none chosen).
    pub fn start_ladder(
        &mut self,
        scenario: &Scenario,
        errors: usize,
        rules: &RuleSet,
        variant: &str,
    ) {
        if !self.may_start(errors) {
            return;
        }
        let options = LadderOptions {
            players: self.ladder.players.clone(),
            games: self.ladder.games.max(1),
            seed: self.seed,
            omniscient: false,
            shard: None,
        };
        if let Err(e) = options.check() {
            self.result = Some(Err(format!("The ladder: {e}")));
            return;
        }
        let Some(other) = self.compared_rules() else {
            return;
        };
        let total = options.total_games(1 + usize::from(other.is_some()));
        let scenario = Arc::new(scenario.clone());
        let rules = Arc::new(rules.clone());
        let variant = variant.to_string();
        self.launch(total, move |shared| {
            let game = Game::new(scenario.clone(), rules);
            match other {
                None => sim::ladder::ladder(&[&game], &[&variant], &options, shared),
                Some((name, rules_b)) => {
                    let game_b = Game::new(scenario, Arc::new(rules_b));
                    sim::ladder::ladder(&[&game, &game_b], &[&variant, &name], &options, shared)
                }
            }
            .map(|r| Outcome::Ladder(Box::new(r)))
            .map_err(|_| "cancelled".to_string())
        });
    }

    /// Starts a balance sweep in the background: every combination of the
    /// chosen fields' values over the rule set in force, each point over the
    /// same seeds, each point's rule set checked by the validator (whose
    /// error is shown). Refused like [`SimPanel::start`].
    pub fn start_sweep(
        &mut self,
        doc: &ResolvedScenario,
        errors: usize,
        rules: &RuleSet,
        variant: &str,
    ) {
        if !self.may_start(errors) {
            return;
        }
        let axes = match self.sweep.parsed() {
            Ok(a) => a,
            Err(e) => {
                self.result = Some(Err(e));
                return;
            }
        };
        let points: usize = axes.iter().map(|a| a.values.len()).product();
        let options = SimOptions {
            games: self.sweep.games.max(1),
            seed: self.seed,
            caesar: self.caesar.clone(),
            pompey: self.pompey.clone(),
            omniscient: false,
            shard: None,
        };
        let total = options.games * points as u64;
        let doc = doc.clone();
        let rules = rules.clone();
        let variant = variant.to_string();
        self.launch(total, move |shared| {
            let planned = sim::sweep::plan(&doc, &rules, &axes)?;
            sim::sweep::sweep(&planned, &variant, &axes, &options, shared)
                .map(|r| Outcome::Sweep(Box::new(r)))
                .map_err(|_| "cancelled".to_string())
        });
    }

    /// Runs `work` on its own thread and rayon pool of `threads` workers;
    /// the panel polls its progress (`total` games) and picks up its result.
    /// Whether a run may start: none is running and the scenario has no
    /// errors (else the reason is shown).
    fn may_start(&mut self, errors: usize) -> bool {
        if self.running.is_some() {
            return false;
        }
        if errors > 0 {
            self.result = Some(Err(format!(
                "The scenario has {errors} error(s); fix them before simulating."
            )));
            return false;
        }
        true
    }

    /// The rule set to compare with, if one is chosen: `None` (with the
    /// error shown) when its file cannot be loaded.
    fn compared_rules(&mut self) -> Option<Option<(String, RuleSet)>> {
        match &self.compare_with {
            Some(v) => match RuleSet::load(v) {
                Ok(r) => Some(Some((v.clone(), r))),
                Err(e) => {
                    self.result = Some(Err(e.to_string()));
                    None
                }
            },
            None => Some(None),
        }
    }

    fn launch(
        &mut self,
        total: u64,
        work: impl FnOnce(&Progress) -> Result<Outcome, String> + Send + 'static,
    ) {
        let progress = Arc::new(Progress::new());
        let (tx, rx) = channel();
        let threads = self.threads.max(1);
        let shared = progress.clone();
        std::thread::spawn(move || {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => {
                    let _ = tx.send(Err(format!("cannot start {threads} threads: {e}")));
                    return;
                }
            };
            let result = pool.install(|| work(&shared));
            let _ = tx.send(result);
        });
        self.result = None;
        self.json = None;
        self.slowest_frame = None;
        self.running = Some(Running {
            progress,
            total,
            started: Instant::now(),
            rx,
        });
    }

    /// Records how long the window took to build a frame during a run.
    pub fn note_frame(&mut self, took: Duration) {
        if self.running.is_some() {
            self.slowest_frame = Some(self.slowest_frame.map_or(took, |d| d.max(took)));
        }
    }

    /// The slowest frame of the window during the current or last run.
    pub fn slowest_frame(&self) -> Option<Duration> {
        self.slowest_frame
    }

    /// Asks the run to stop; it ends within a game or so per thread.
    pub fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.progress.cancel();
        }
    }

    /// Picks up a finished run; true while one is still going.
    pub fn poll(&mut self) -> bool {
        let Some(r) = &self.running else {
            return false;
        };
        match r.rx.try_recv() {
            Ok(result) => {
                self.json = match &result {
                    Ok(Outcome::Single { report, .. }) => {
                        Some(serde_json::to_string_pretty(report))
                    }
                    Ok(Outcome::Compare(c)) => Some(serde_json::to_string_pretty(c)),
                    Ok(Outcome::Ladder(l)) => Some(serde_json::to_string_pretty(l)),
                    Ok(Outcome::Sweep(w)) => Some(serde_json::to_string_pretty(w)),
                    Err(_) => None,
                }
                .map(|j| j.map_err(|e| e.to_string()));
                self.result = Some(result);
                self.running = None;
                false
            }
            Err(TryRecvError::Empty) => true,
            Err(TryRecvError::Disconnected) => {
                self.result = Some(Err("the simulation thread stopped unexpectedly".into()));
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

    #[allow(clippy::too_many_arguments)]
    pub fn show(
        &mut self,
        ui: &mut Ui,
        scenario: &Scenario,
        doc: Option<&ResolvedScenario>,
        errors: usize,
        rules: Option<&RuleSet>,
        variant: &str,
    ) -> Vec<Request> {
        if self.poll() {
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        let mut actions = Vec::new();
        egui::Panel::left("sim_controls")
            .default_size(theme::SIM_CONTROLS_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    actions.extend(self.controls(ui, scenario, errors, rules, variant));
                    ui.separator();
                    self.sweep_controls(ui, doc, errors, rules, variant);
                    ui.separator();
                    self.battle_calculator(ui, scenario, rules);
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| actions.extend(self.results(ui, rules)));
        });
        actions
    }

    fn controls(
        &mut self,
        ui: &mut Ui,
        scenario: &Scenario,
        errors: usize,
        rules: Option<&RuleSet>,
        variant: &str,
    ) -> Vec<Request> {
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
                    let l = ui.label(format!("{side} AI"));
                    let combo = egui::ComboBox::from_id_salt(("ai", side.index()))
                        .selected_text(ai_label(ai))
                        .show_ui(ui, |ui| {
                            ui.selectable_value(ai, AiSpec::Random, "random");
                            ui.selectable_value(ai, AiSpec::Heuristic, "heuristic");
                            let tuned = matches!(ai, AiSpec::TunedHeuristic(_));
                            if ui
                                .selectable_label(tuned, "heuristic from file…")
                                .on_hover_text(
                                    "A player file written by `caesar-workbench tune`: \
                                     the heuristic with numbers fitted to a rule set",
                                )
                                .clicked()
                            {
                                actions.push(Request::Choose(FilePurpose::OpenPlayer(
                                    side,
                                    super::PlayerUse::Simulate,
                                )));
                            }
                            if !matches!(ai, AiSpec::Search { .. }) {
                                ui.selectable_value(
                                    ai,
                                    AiSpec::Search {
                                        playouts: AiSpec::DEFAULT_SEARCH_PLAYOUTS,
                                    },
                                    "search",
                                );
                            }
                            if !matches!(ai, AiSpec::Mcts { .. }) {
                                ui.selectable_value(
                                    ai,
                                    AiSpec::Mcts {
                                        playouts: AiSpec::DEFAULT_MCTS_PLAYOUTS,
                                    },
                                    "mcts",
                                );
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    if let AiSpec::TunedHeuristic(t) = ai {
                        combo.on_hover_text(format!("Player file {}", t.path));
                    }
                    ui.end_row();
                    if let AiSpec::Search { playouts } | AiSpec::Mcts { playouts } = ai {
                        let l = ui.label(format!("{side} playouts"));
                        ui.add(egui::DragValue::new(playouts).range(1..=4096))
                            .labelled_by(l.id)
                            .on_hover_text(
                                "Playouts per searched decision: more is stronger and slower",
                            );
                        ui.end_row();
                    }
                }
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
                self.start(scenario, errors, rules, variant);
            }
            if ui
                .add_enabled(self.running.is_some(), egui::Button::new("Cancel"))
                .clicked()
            {
                self.cancel();
            }
        });
        ui.separator();
        ui.label(RichText::new("Strength ladder").strong())
            .on_hover_text(
                "A mirror match at every rung (both sides played by that player), cross-play between the rungs for ratings, and whether the rule sets' difference for Caesar holds at every strength. Uses the seed, threads and compare setting above.",
            );
        ladder_view::settings(ui, &mut self.ladder);
        let can_run = rules.is_some() && self.running.is_none() && !self.ladder.players.is_empty();
        if ui
            .add_enabled(can_run, egui::Button::new("Run ladder"))
            .clicked()
            && let Some(rules) = rules
        {
            self.start_ladder(scenario, errors, rules, variant);
        }
        if let Some(r) = &self.running {
            let done = r.progress.done();
            let fraction = done as f32 / r.total.max(1) as f32;
            ui.add(egui::ProgressBar::new(fraction).text(format!(
                "{done} / {} games, {:.0} s",
                r.total,
                r.started.elapsed().as_secs_f32()
            )));
        }
        if let Some(slowest) = self.slowest_frame {
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
        actions
    }

    /// Plays `side` with the heuristic player of the file at `path`.
    pub fn load_player(&mut self, side: Side, path: &std::path::Path) -> Result<(), String> {
        let spec = AiSpec::player_file(path).map_err(|e| e.to_string())?;
        match side {
            Side::Caesar => self.caesar = spec,
            Side::Pompey => self.pompey = spec,
        }
        Ok(())
    }

    fn sweep_controls(
        &mut self,
        ui: &mut Ui,
        doc: Option<&ResolvedScenario>,
        errors: usize,
        rules: Option<&RuleSet>,
        variant: &str,
    ) {
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
            && let (Some(rules), Some(doc)) = (rules, doc)
        {
            self.start_sweep(doc, errors, rules, variant);
        }
    }

    fn results(&mut self, ui: &mut Ui, rules: Option<&RuleSet>) -> Vec<Request> {
        let mut actions = Vec::new();
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
            Some(Ok(Outcome::Single { report, csv, games })) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), Some(csv)));
                summary(ui, report);
                actions.extend(super::replay_games::table(ui, games));
                actions.extend(charts(ui, &[report.as_ref()], Some(games)));
            }
            Some(Ok(Outcome::Compare(c))) => {
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
            Some(Ok(Outcome::Ladder(l))) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), None));
                ladder_view::show(ui, l);
            }
            Some(Ok(Outcome::Sweep(w))) => {
                actions.extend(export_buttons(ui, self.json.as_ref(), None));
                actions.extend(sweep_view::show(ui, w, rules));
            }
        }
        actions
    }

    fn battle_calculator(&mut self, ui: &mut Ui, scenario: &Scenario, rules: Option<&RuleSet>) {
        ui.heading("Battle calculator");
        let b = &mut self.battle;
        ui.horizontal(|ui| {
            ui.label("Attacker");
            ui.radio_value(&mut b.attacker, Side::Caesar, "Caesar");
            ui.radio_value(&mut b.attacker, Side::Pompey, "Pompey");
        });
        for (label, text) in [
            ("Attacking blocks", &mut b.attacking),
            ("Attacking reserves", &mut b.attacking_reserves),
            ("Defending blocks", &mut b.defending),
            ("Defending reserves", &mut b.defending_reserves),
        ] {
            let l = ui.label(label);
            ui.add(
                egui::TextEdit::singleline(text)
                    .hint_text("name=strength, name, ...")
                    .desired_width(300.0),
            )
            .labelled_by(l.id);
        }
        ui.checkbox(&mut b.surprise, "Surprise attack (Mars, Neptune)");
        let key = format!(
            "{:?}|{}|{}|{}|{}|{}|{:?}",
            b.attacker,
            b.attacking,
            b.attacking_reserves,
            b.defending,
            b.defending_reserves,
            b.surprise,
            rules
        );
        if key != b.key {
            b.key = key;
            b.odds = rules.map(|rules| {
                let game = Game::new(Arc::new(scenario.clone()), Arc::new(rules.clone()));
                let (att, def) = (b.attacker, b.attacker.other());
                let spec = BattleSpec {
                    attacker: att,
                    attacking: parse_blocks(&game, att, &b.attacking)?,
                    attacking_reserves: parse_blocks(&game, att, &b.attacking_reserves)?,
                    defending: parse_blocks(&game, def, &b.defending)?,
                    defending_reserves: parse_blocks(&game, def, &b.defending_reserves)?,
                    surprise: b.surprise,
                };
                battle_odds(&game, &spec).map_err(|e| e.to_string())
            });
        }
        match &b.odds {
            None => {
                ui.label("No rule set is loaded.");
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, e);
            }
            Some(Ok(o)) => {
                ui.label(
                    RichText::new(format!(
                        "Attacker takes it: {:.1}%  ·  Defender holds: {:.1}%",
                        o.attacker_wins * 100.0,
                        o.defender_holds * 100.0
                    ))
                    .strong(),
                );
                ui.label(format!(
                    "Expected steps lost: attacker {:.2}, defender {:.2}",
                    o.expected_steps_lost.attacker, o.expected_steps_lost.defender
                ));
                let bars = vec![
                    Bar::new(0.0, o.attacker_wins * 100.0)
                        .name("attacker takes it")
                        .fill(theme::side(b.attacker)),
                    Bar::new(1.0, o.defender_holds * 100.0)
                        .name("defender holds")
                        .fill(theme::side(b.attacker.other())),
                    Bar::new(2.0, o.both_eliminated * 100.0)
                        .name("both gone")
                        .fill(DRAW),
                ];
                let rounds: Vec<Bar> = o
                    .ends_in_round
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        Bar::new(4.0 + k as f64, p * 100.0).name(format!("ends in round {}", k + 1))
                    })
                    .collect();
                Plot::new("odds")
                    .height(theme::ODDS_CHART_HEIGHT)
                    .y_axis_label("%")
                    .include_y(-12.0)
                    .include_y(100.0)
                    .show_x(false)
                    .x_axis_formatter(|_, _| String::new())
                    .allow_zoom(false)
                    .allow_drag(false)
                    .allow_scroll(false)
                    .show(ui, |p| {
                        p.bar_chart(BarChart::new("outcome", bars).width(0.8));
                        for (x, label) in [
                            (0.0, "takes"),
                            (1.0, "holds"),
                            (2.0, "both"),
                            (4.0, "R1"),
                            (5.0, "R2"),
                            (6.0, "R3"),
                            (7.0, "R4"),
                        ] {
                            p.text(egui_plot::Text::new(
                                label,
                                egui_plot::PlotPoint::new(x, -7.0),
                                RichText::new(label).small(),
                            ));
                        }
                        p.bar_chart(
                            BarChart::new("ends in round 1-4", rounds)
                                .width(0.8)
                                .color(theme::ROUNDS),
                        );
                    });
                for risk in &o.eliminated {
                    ui.label(format!(
                        "{} ({}) eliminated: {:.1}%",
                        risk.block,
                        risk.side,
                        risk.eliminated * 100.0
                    ));
                }
            }
        }
    }
}

/// "Export JSON…" and "Export CSV…": ask where, then write (a failure is
/// shown in the status line).
fn export_buttons(
    ui: &mut Ui,
    json: Option<&Result<String, String>>,
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

fn pct(e: &sim::stats::Estimate) -> String {
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

fn boxed(s: &sim::stats::Summary) -> BoxSpread {
    BoxSpread::new(
        s.min as f64,
        s.q1 as f64,
        s.median as f64,
        s.q3 as f64,
        s.max as f64,
    )
}

/// The run's charts. With the games of a single run, a click on a bar of
/// "how and when games end" opens an example game of that ending in Replay.
fn charts(
    ui: &mut Ui,
    reports: &[&SimReport],
    games: Option<&super::replay_games::RunGames>,
) -> Vec<Request> {
    let mut actions = Vec::new();
    let n = reports.len() as f64;
    ui.label(RichText::new("Win rates with 95% intervals").strong());
    let names: Vec<String> = reports.iter().map(|r| r.variant.clone()).collect();
    let group = n + 2.0;
    chart_key::row(ui, &outcome_keys(reports, true));
    Plot::new("win_rates")
        .height(theme::CHART_HEIGHT)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .y_axis_label("% of games")
        .include_y(0.0)
        .include_y(100.0)
        .x_axis_formatter(move |mark, _| {
            // Each variant's group: Caesar, Pompey, draw.
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            let k = (v / group).floor();
            let within = (v - k * group).round() as usize;
            match (names.get(k as usize), within) {
                (Some(name), 0..=2) => {
                    format!("{}\n{name}", ["Caesar", "Pompey", "draw"][within])
                }
                _ => String::new(),
            }
        })
        .show(ui, |p| {
            for (side, colour, pick) in [
                ("Caesar", CAESAR, 0usize),
                ("Pompey", POMPEY, 1),
                ("draw", DRAW, 2),
            ] {
                for (k, r) in reports.iter().enumerate() {
                    let e = [&r.caesar_win_rate, &r.pompey_win_rate, &r.draw_rate][pick];
                    let (lo, m, hi) = (e.ci95[0] * 100.0, e.estimate * 100.0, e.ci95[1] * 100.0);
                    let name = format!("{side}, {}", r.variant);
                    let elem = BoxElem::new(
                        k as f64 * group + pick as f64,
                        BoxSpread::new(lo, m, m, m, hi),
                    )
                    .name(&name)
                    .box_width(0.6);
                    p.box_plot(BoxPlot::new(name, vec![elem]).color(theme::shade(colour, k)));
                }
            }
        });
    ui.label(RichText::new("VP by year: mean and quartiles").strong());
    let keys: Vec<chart_key::Key> = reports
        .iter()
        .enumerate()
        .flat_map(|(k, r)| {
            [(Side::Caesar, CAESAR), (Side::Pompey, POMPEY)].map(|(side, colour)| {
                chart_key::Key::new(format!("{side}, {}", r.variant), theme::shade(colour, k))
                    .dashed(k > 0)
            })
        })
        .collect();
    chart_key::row(ui, &keys);
    Plot::new("vp_by_year")
        .height(theme::CHART_HEIGHT)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .x_axis_label("year")
        .y_axis_label("VP")
        .show(ui, |p| {
            for (k, r) in reports.iter().enumerate() {
                for (side, colour) in [(Side::Caesar, CAESAR), (Side::Pompey, POMPEY)] {
                    let colour = theme::shade(colour, k);
                    // The second variant is drawn dashed over a lighter band.
                    let (style, band) = if k == 0 {
                        (egui_plot::LineStyle::Solid, theme::BAND_ALPHA[0])
                    } else {
                        (egui_plot::LineStyle::dashed_loose(), theme::BAND_ALPHA[1])
                    };
                    let s = |y: &sim::report::YearVp| match side {
                        Side::Caesar => y.caesar,
                        Side::Pompey => y.pompey,
                    };
                    let xs: Vec<f64> = r.vp_by_year.iter().map(|y| y.year as f64).collect();
                    let lo: Vec<f64> = r.vp_by_year.iter().map(|y| s(y).q1 as f64).collect();
                    let hi: Vec<f64> = r.vp_by_year.iter().map(|y| s(y).q3 as f64).collect();
                    let name = format!("{side}, {}", r.variant);
                    for quad in band_quads(&xs, &lo, &hi) {
                        p.polygon(
                            Polygon::new(name.clone(), quad.to_vec())
                                .fill_color(colour.gamma_multiply(band))
                                .stroke(Stroke::NONE)
                                .allow_hover(false),
                        );
                    }
                    // The quartile lines themselves, thin, so the band reads
                    // as the area between them where a quartile moves.
                    for q in [&lo, &hi] {
                        let points: Vec<[f64; 2]> =
                            xs.iter().zip(q.iter()).map(|(x, y)| [*x, *y]).collect();
                        p.line(
                            Line::new(name.clone(), points)
                                .color(colour.gamma_multiply(0.6))
                                .width(1.0)
                                .style(style)
                                .allow_hover(false),
                        );
                    }
                    let mean: Vec<[f64; 2]> = r
                        .vp_by_year
                        .iter()
                        .map(|y| [y.year as f64, s(y).mean])
                        .collect();
                    p.line(Line::new(name, mean).color(colour).width(2.0).style(style));
                }
            }
        });
    let heading = ui.label(RichText::new("How and when games end").strong());
    if games.is_some() {
        heading.on_hover_text("Click a bar to replay an example game that ended that way");
    }
    let years = reports
        .iter()
        .map(|r| r.endings.sudden_death_by_year.len())
        .max()
        .unwrap_or(0);
    chart_key::row(ui, &outcome_keys(reports, false));
    let endings_plot = Plot::new("endings")
        .height(theme::CHART_HEIGHT)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .x_axis_label("sudden death (1.2) in each year's winter, then the end of the last year")
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .x_axis_formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 1.0 {
                return String::new();
            }
            let v = v.round() as usize;
            match v {
                _ if v <= years => format!("year {v}"),
                _ if v == years + 2 => "on VP".to_string(),
                _ if v == years + 3 => "draw".to_string(),
                _ => String::new(),
            }
        })
        .show(ui, |p| {
            let pointer = p.pointer_coordinate();
            for (k, r) in reports.iter().enumerate() {
                let shift = k as f64 * 0.4 - 0.2 * (n - 1.0);
                let e = &r.endings;
                let mut caesar: Vec<Bar> = Vec::new();
                let mut pompey: Vec<Bar> = Vec::new();
                for (y, c) in e.sudden_death_by_year.iter().enumerate() {
                    caesar.push(Bar::new(y as f64 + 1.0 + shift, c.caesar as f64));
                    pompey.push(Bar::new(y as f64 + 1.0 + shift, c.pompey as f64));
                }
                let last = e.sudden_death_by_year.len() as f64 + 2.0 + shift;
                caesar.push(Bar::new(last, e.on_vp_after_last_year.caesar as f64));
                pompey.push(Bar::new(last, e.on_vp_after_last_year.pompey as f64));
                let draws = vec![Bar::new(last + 1.0, e.draws as f64)];
                let caesar_chart = BarChart::new(format!("Caesar, {}", r.variant), caesar)
                    .width(0.35)
                    .color(theme::shade(CAESAR, k));
                let pompey_chart = BarChart::new(format!("Pompey, {}", r.variant), pompey)
                    .width(0.35)
                    .color(theme::shade(POMPEY, k))
                    .stack_on(&[&caesar_chart]);
                p.bar_chart(caesar_chart);
                p.bar_chart(pompey_chart);
                p.bar_chart(
                    BarChart::new(format!("draws, {}", r.variant), draws)
                        .width(0.35)
                        .color(theme::shade(DRAW, k)),
                );
            }
            pointer
        });
    if let (Some(games), [report]) = (games, reports)
        && endings_plot.response.clicked()
        && let Some(at) = endings_plot.inner
        && let Some(ending) = ending_at(&report.endings, at.x, at.y)
        && let Some(index) = games.example_of(ending)
    {
        actions.push(games.replay(index));
    }
    ui.label(RichText::new("Battles and losses per game (min, quartiles, max)").strong());
    if reports.len() > 1 {
        let keys: Vec<chart_key::Key> = reports
            .iter()
            .enumerate()
            .map(|(k, r)| chart_key::Key::new(&r.variant, theme::shade(theme::ROUNDS, k)))
            .collect();
        chart_key::row(ui, &keys);
    }
    Plot::new("battles")
        .height(theme::CHART_HEIGHT)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .x_axis_formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            let (i, k) = ((v / (n + 1.0)).floor(), v.round() % (n + 1.0));
            if k != 0.0 {
                return String::new();
            }
            [
                "battles",
                "steps lost\nCaesar",
                "steps lost\nPompey",
                "blocks lost\nCaesar",
                "blocks lost\nPompey",
            ]
            .get(i as usize)
            .map_or(String::new(), |s| s.to_string())
        })
        .show(ui, |p| {
            for (k, r) in reports.iter().enumerate() {
                let x = |i: f64| i * (n + 1.0) + k as f64;
                let items = [
                    (x(0.0), &r.battles_per_game),
                    (x(1.0), &r.steps_lost.caesar),
                    (x(2.0), &r.steps_lost.pompey),
                    (x(3.0), &r.blocks_eliminated.caesar),
                    (x(4.0), &r.blocks_eliminated.pompey),
                ];
                let boxes = items
                    .iter()
                    .map(|(x, s)| BoxElem::new(*x, boxed(s)).box_width(0.7))
                    .collect();
                p.box_plot(
                    BoxPlot::new(r.variant.clone(), boxes).color(theme::shade(theme::ROUNDS, k)),
                );
            }
        });
    actions
}

/// The key of a chart of outcomes: each side's and the draws' colour for
/// each rule set (`win_rates`: the first word as the win-rate chart names it).
fn outcome_keys(reports: &[&SimReport], win_rates: bool) -> Vec<chart_key::Key> {
    reports
        .iter()
        .enumerate()
        .flat_map(|(k, r)| {
            let name = |what: &str| {
                if reports.len() > 1 {
                    format!("{what}, {}", r.variant)
                } else {
                    what.to_string()
                }
            };
            let draw = if win_rates { "draw" } else { "draws" };
            [("Caesar", CAESAR), ("Pompey", POMPEY), (draw, DRAW)]
                .map(|(what, colour)| chart_key::Key::new(name(what), theme::shade(colour, k)))
        })
        .collect()
}

/// Which bar of one run's "how and when games end" chart holds the point
/// (`x`, `y`): sudden death in year k at x = k, Caesar's bar below
/// Pompey's stacked on it; the wins after the last year two places after
/// the last year, and the draws one further.
fn ending_at(
    endings: &crate::sim::report::Endings,
    x: f64,
    y: f64,
) -> Option<super::replay_games::Ending> {
    use super::replay_games::Ending;
    let half_width = 0.35 / 2.0;
    let slot = x.round();
    if (x - slot).abs() > half_width || y < 0.0 || slot < 1.0 {
        return None;
    }
    let years = endings.sudden_death_by_year.len() as f64;
    let side_of = |counts: &crate::sim::report::SideCounts| {
        let caesar = counts.caesar as f64;
        if y <= caesar {
            Some(Side::Caesar)
        } else if y <= caesar + counts.pompey as f64 {
            Some(Side::Pompey)
        } else {
            None
        }
    };
    if slot <= years {
        let counts = &endings.sudden_death_by_year[slot as usize - 1];
        let winner = side_of(counts)?;
        Some(Ending::SuddenDeath {
            year: slot as u8,
            winner,
        })
    } else if slot == years + 2.0 {
        let winner = side_of(&endings.on_vp_after_last_year)?;
        Some(Ending::AfterLastYear { winner })
    } else if slot == years + 3.0 && y <= endings.draws as f64 {
        Some(Ending::Draw)
    } else {
        None
    }
}

/// A side's AI as its chooser shows it: a player file by its name only.
pub(super) fn ai_label(ai: &AiSpec) -> String {
    match ai {
        AiSpec::TunedHeuristic(t) => {
            let name = std::path::Path::new(&t.path)
                .file_name()
                .map_or(t.path.clone(), |n| n.to_string_lossy().into_owned());
            format!("heuristic: {name}")
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::app::bands::band_quads;

    #[test]
    fn a_click_on_an_endings_bar_names_its_ending() {
        use super::ending_at;
        use crate::app::replay_games::Ending;
        use crate::scenario::model::Side;
        use crate::sim::report::{Endings, SideCounts};
        let counts = |caesar, pompey| SideCounts { caesar, pompey };
        let endings = Endings {
            sudden_death_by_year: vec![counts(0, 2), counts(3, 5)],
            sudden_death: 10,
            on_vp_after_last_year: counts(4, 20),
            rome_tie_break: counts(0, 0),
            draws: 1,
        };
        let sudden = |year, winner| Some(Ending::SuddenDeath { year, winner });
        assert_eq!(ending_at(&endings, 2.0, 2.5), sudden(2, Side::Caesar));
        assert_eq!(ending_at(&endings, 2.1, 6.0), sudden(2, Side::Pompey));
        assert_eq!(ending_at(&endings, 1.0, 1.0), sudden(1, Side::Pompey));
        // Above the stack, between bars, and the empty slot: nothing.
        assert_eq!(ending_at(&endings, 2.0, 9.0), None);
        assert_eq!(ending_at(&endings, 1.5, 1.0), None);
        assert_eq!(ending_at(&endings, 3.0, 0.5), None);
        assert_eq!(
            ending_at(&endings, 4.0, 10.0),
            Some(Ending::AfterLastYear {
                winner: Side::Pompey
            })
        );
        assert_eq!(ending_at(&endings, 5.0, 0.5), Some(Ending::Draw));
    }

    /// Twice the signed area of triangle a, b, c (positive: counter-clockwise
    /// with y up).
    fn turn(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    }

    #[test]
    fn a_band_is_one_convex_quad_per_segment_between_the_lines() {
        // Crossing steps as a skewed VP race gives them: the band narrows to
        // nothing in year 3 and widens again.
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        let lo = [0.0, 2.0, 4.0, 1.0, 1.0];
        let hi = [3.0, 2.5, 4.0, 6.0, 2.0];
        let quads = band_quads(&xs, &lo, &hi);
        assert_eq!(quads.len(), 4);
        for (i, q) in quads.iter().enumerate() {
            // Two vertical sides on neighbouring years, ends on the lines.
            assert_eq!([q[0][0], q[3][0]], [xs[i], xs[i]]);
            assert_eq!([q[1][0], q[2][0]], [xs[i + 1], xs[i + 1]]);
            assert_eq!([q[0][1], q[3][1]], [lo[i], hi[i]]);
            assert_eq!([q[1][1], q[2][1]], [lo[i + 1], hi[i + 1]]);
            // Convex: every corner turns the same way (or not at all).
            for k in 0..4 {
                let t = turn(q[k], q[(k + 1) % 4], q[(k + 2) % 4]);
                assert!(t >= 0.0, "quad {i} turns back at corner {k}: {q:?}");
            }
        }
        assert!(band_quads(&[1.0], &[0.0], &[1.0]).is_empty());
    }
}
