//! The Balance tab's *Make it fair*: the smallest change that brings the
//! setup to even at equilibrium. Runs the library's `fair`
//! ([`crate::sim::questions::fair`], as the command line runs it) in the background
//! on the population the balance settings above describe; shows the value
//! against each knob with its band and the target, the changes ranked, and
//! carries one out as an undoable edit or writes it as a variant.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui::{RichText, Stroke, Ui};
use egui_plot::{HLine, Line, LineStyle, Plot, Polygon, VLine};

use super::bands::marked_line;
use super::error::{NotKept, RunError};
use crate::app::state::NoGame;
use crate::app::{ExportKind, FilePurpose, Request, form, theme};
use crate::engine::Game;
use crate::scenario::edit::Edit;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::rules::RuleSet;
use crate::sim::questions::balance::session::{self, Players};
use crate::sim::questions::balance::{BalanceOptions, Watch};
use crate::sim::questions::fair::{self, FairOptions, FairReport, FairSetup, KnobResult, percent};
use crate::sim::questions::sweep::{self, Axis, SettingChange};

/// Where in the balance folder the run's report (its checkpoint) goes.
const REPORT_FILE: &str = "fair.json";

/// A run in the background.
struct Running {
    watch: Arc<Watch>,
    started: Instant,
    rx: Receiver<Result<FairReport, RunError>>,
    /// The report after the last table.
    so_far: Arc<Mutex<Option<FairReport>>>,
}

/// *Make it fair*'s settings and its last answer.
pub struct FairPanel {
    /// Each knob as field and values (`caesar_first_levy_bonus`, `0..10`).
    pub knobs: Vec<(String, String)>,
    pub target_percent: f64,
    pub tolerance_points: f64,
    pub budget_minutes: f64,
    pub check_rounds: u32,
    /// The setup the default knobs were picked for: picked again for another.
    defaults_for: Option<(String, Option<PathBuf>)>,
    running: Option<Running>,
    pub result: Option<Result<FairReport, RunError>>,
    /// Where "Keep as this setup's answer" wrote the report, or why not.
    kept: Option<Result<String, NotKept>>,
    /// Reports kept so far: the Setup tab reads its line again after each.
    pub(crate) kept_count: u64,
}

impl Default for FairPanel {
    fn default() -> FairPanel {
        FairPanel {
            knobs: Vec::new(),
            target_percent: 50.0,
            tolerance_points: 2.0,
            budget_minutes: 30.0,
            check_rounds: 1,
            defaults_for: None,
            running: None,
            result: None,
            kept: None,
            kept_count: 0,
        }
    }
}

/// What *Make it fair* borrows from the tab: the setup in force and the
/// population the balance settings describe.
pub(crate) struct FairInputs<'a> {
    pub make_game: &'a dyn Fn() -> Result<Game, NoGame>,
    pub doc: &'a ResolvedScenario,
    pub rules: &'a RuleSet,
    pub variant: &'a str,
    pub bundle: Option<&'a Path>,
    pub players: &'a dyn Fn() -> Result<Players, RunError>,
    pub balance: BalanceOptions,
    /// The balance's folder: the run's report and trained players go in it.
    pub folder: &'a Path,
    pub threads: usize,
}

impl FairPanel {
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The knobs as the library reads them, or what is wrong with one.
    fn axes(&self) -> Result<Vec<Axis>, RunError> {
        if self.knobs.is_empty() {
            return Err(RunError::NoKnob);
        }
        Ok(super::sweep_view::parse_axes(&self.knobs)?)
    }

    fn options(&self, balance: BalanceOptions) -> Result<FairOptions, RunError> {
        let options = FairOptions {
            target: self.target_percent / 100.0,
            tolerance: self.tolerance_points / 100.0,
            balance,
            check_rounds: self.check_rounds,
            shard: None,
        };
        options.check().map_err(RunError::FairOptions)?;
        Ok(options)
    }

    fn report_path(folder: &Path) -> PathBuf {
        folder.join(REPORT_FILE)
    }

    /// The bid of the side below even, as the setup's measured balance
    /// says (the library's default, as `fair` without `--vary`), once for
    /// each setup.
    fn pick_default_knobs(&mut self, inputs: &FairInputs<'_>) {
        let key = (
            inputs.variant.to_string(),
            inputs.bundle.map(Path::to_path_buf),
        );
        if !self.knobs.is_empty() || self.defaults_for.as_ref() == Some(&key) {
            return;
        }
        self.defaults_for = Some(key);
        if let Ok(game) = (inputs.make_game)() {
            self.knobs = fair::default_axes(&game, inputs.bundle, self.target_percent / 100.0)
                .into_iter()
                .map(|a| (a.key, values_text(&a.values)))
                .collect();
        }
    }

    /// Starts a run (or resumes the one whose report is in the folder).
    pub(crate) fn start(&mut self, inputs: &FairInputs<'_>, resume: bool) {
        if self.running.is_some() {
            return;
        }
        let prepared = (|| -> Result<_, RunError> {
            let budget = session::budget(self.budget_minutes).map_err(RunError::Budget)?;
            let options = self.options(inputs.balance.clone())?;
            let axes = self.axes()?;
            let game = (inputs.make_game)()?;
            let players = (inputs.players)()?;
            let earlier = if resume {
                Some(
                    fair::read_report(&Self::report_path(inputs.folder))
                        .map_err(RunError::NoFairToResume)?,
                )
            } else {
                None
            };
            Ok((budget, options, axes, game, players, earlier))
        })();
        let (budget, options, axes, game, players, earlier) = match prepared {
            Ok(p) => p,
            Err(e) => {
                self.result = Some(Err(e));
                return;
            }
        };
        let watch = Arc::new(Watch::new());
        let so_far = Arc::new(Mutex::new(None));
        let (tx, rx) = channel();
        // Trained players are named by absolute paths: a kept report plays
        // them from whatever folder comes next.
        let folder = std::path::absolute(inputs.folder).unwrap_or_else(|_| inputs.folder.into());
        let job = Job {
            doc: inputs.doc.clone(),
            variant: inputs.variant.to_string(),
            game,
            players,
            axes,
            options,
            budget,
            earlier,
            folder,
            threads: inputs.threads.max(1),
        };
        {
            let watch = Arc::clone(&watch);
            let so_far = Arc::clone(&so_far);
            std::thread::spawn(move || {
                let _ = tx.send(job.run(&watch, &so_far));
            });
        }
        self.result = None;
        self.kept = None;
        self.running = Some(Running {
            watch,
            started: Instant::now(),
            rx,
            so_far,
        });
    }

    /// Waits for the run in the background to end (tests, scripts).
    pub fn wait(&mut self) {
        while self.running.is_some() {
            self.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn poll(&mut self) {
        if let Some(running) = &self.running
            && let Ok(result) = running.rx.try_recv()
        {
            self.result = Some(result);
            self.running = None;
        }
    }

    /// The section: settings, buttons, progress, the answer.
    pub(crate) fn show(&mut self, ui: &mut Ui, inputs: &FairInputs<'_>) -> Vec<Request> {
        self.poll();
        self.pick_default_knobs(inputs);
        let mut requests = Vec::new();
        ui.heading("Make it fair: the smallest change that brings it to even");
        ui.label(
            "Moves each knob along its values and measures Caesar's share at equilibrium at each, \
             on the population above (the same seeds at every value); the answer is the change \
             within the tolerance fewest steps from the setup's own value, checked by best \
             responses trained against it.",
        );
        self.settings(ui, inputs.rules);
        self.buttons(ui, inputs);
        if let Some(r) = &self.running {
            ui.label(format!(
                "{} — {} games, {:.0} s of {:.0} min",
                r.watch.stage(),
                r.watch.progress.done(),
                r.started.elapsed().as_secs_f64(),
                self.budget_minutes
            ));
            ui.ctx().request_repaint_after(Duration::from_millis(200));
            let so_far = r.so_far.lock().ok().and_then(|s| s.clone());
            if let Some(report) = so_far {
                ui.label(RichText::new("So far").strong());
                knob_charts(ui, &report);
            }
        }
        match &self.result {
            Some(Ok(report)) => {
                ui.separator();
                requests.extend(answer_view(ui, report, inputs));
                if keep(ui, report, inputs.bundle, &mut self.kept) {
                    self.kept_count += 1;
                }
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ERROR, e.to_string());
            }
            None => {}
        }
        requests
    }

    fn settings(&mut self, ui: &mut Ui, rules: &RuleSet) {
        super::sweep_view::axis_rows(ui, &mut self.knobs, Some(rules), "Knob", "fair_knob");
        if ui.button("Add knob").clicked() {
            self.knobs
                .push(("vp_to_win".to_string(), "8..12".to_string()));
        }
        egui::Grid::new("fair_settings")
            .num_columns(2)
            .show(ui, |ui| {
                form::row(
                    ui,
                    "Target (Caesar's share, %)",
                    egui::DragValue::new(&mut self.target_percent)
                        .range(5.0..=95.0)
                        .speed(0.5),
                );
                form::row(
                    ui,
                    "Tolerance (points)",
                    egui::DragValue::new(&mut self.tolerance_points)
                        .range(0.1..=44.0)
                        .speed(0.1),
                );
                form::row(
                    ui,
                    "Budget (wall minutes)",
                    egui::DragValue::new(&mut self.budget_minutes)
                        .range(0.1..=10_080.0)
                        .speed(0.5),
                );
                form::row(
                    ui,
                    "Rounds of best responses at the change",
                    egui::DragValue::new(&mut self.check_rounds).range(0..=50),
                );
            });
    }

    fn buttons(&mut self, ui: &mut Ui, inputs: &FairInputs<'_>) {
        ui.horizontal(|ui| {
            let idle = self.running.is_none();
            let run = ui
                .add_enabled(idle, egui::Button::new("Find the smallest change"))
                .clicked();
            let can_resume = idle && Self::report_path(inputs.folder).exists();
            let resume = ui
                .add_enabled(can_resume, egui::Button::new("Resume"))
                .on_hover_text("Go on with the run whose report is in the balance folder")
                .clicked();
            if run || resume {
                self.start(inputs, resume);
            }
            if let Some(r) = &self.running
                && ui.button("Cancel").clicked()
            {
                r.watch.progress.cancel();
            }
        });
    }
}

/// A run as it goes to its thread: everything it reads, owned.
struct Job {
    doc: ResolvedScenario,
    variant: String,
    game: Game,
    players: Players,
    axes: Vec<Axis>,
    options: FairOptions,
    budget: Duration,
    earlier: Option<FairReport>,
    folder: PathBuf,
    threads: usize,
}

impl Job {
    fn run(
        self,
        watch: &Watch,
        so_far: &Mutex<Option<FairReport>>,
    ) -> Result<FairReport, RunError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|source| RunError::Threads {
                threads: self.threads,
                source,
            })?;
        let players_dir = Some(self.folder.join("fair.players"));
        let (setup, options) = match self.earlier {
            Some(report) => fair::resuming(
                report,
                &self.doc,
                &self.game,
                &self.variant,
                self.players,
                Some(self.budget),
                players_dir,
            )?,
            None => {
                let knobs = fair::plan_knobs(&self.doc, &self.game, &self.axes)?;
                let setup = FairSetup {
                    game: &self.game,
                    variant: &self.variant,
                    knobs,
                    players: self.players,
                    budget: Some(self.budget),
                    players_dir,
                    progress: Default::default(),
                    earlier_games: 0,
                    earlier_seconds: 0.0,
                };
                (setup, self.options)
            }
        };
        let checkpoint = FairPanel::report_path(&self.folder);
        let mut on_step = |report: &FairReport| {
            // A checkpoint that cannot be written costs only the resume.
            let _ = session::write_json(&checkpoint, report);
            if let Ok(mut s) = so_far.lock() {
                *s = Some(report.clone());
            }
        };
        let report = pool.install(|| fair::run(setup, &options, watch, &mut on_step))?;
        session::write_json(&checkpoint, &report).map_err(RunError::Unwritten)?;
        Ok(report)
    }
}

/// The verdict, each knob's chart, the ranked changes with their buttons.
fn answer_view(ui: &mut Ui, report: &FairReport, inputs: &FairInputs<'_>) -> Vec<Request> {
    let mut requests = Vec::new();
    ui.add(egui::Label::new(RichText::new(report.verdict()).strong()).wrap());
    ui.label(format!(
        "As the setup is: Caesar wins {} at equilibrium over {} Caesar and {} Pompey players. {} games, {:.0} s. Stopped: {}",
        percent(&report.base),
        report.population[0],
        report.population[1],
        report.games_played,
        report.elapsed_seconds,
        report.stopped
    ));
    knob_charts(ui, report);
    let ranked = report.ranked_changes();
    if ranked.is_empty() {
        return requests;
    }
    ui.label(RichText::new("Changes that make it even, best first").strong());
    egui::Grid::new("fair_changes").num_columns(3).striped(true).show(ui, |ui| {
        for (rank, &(k, c)) in ranked.iter().enumerate() {
            let knob = &report.knobs[k];
            let candidate = &knob.candidates[c];
            let share = match &report.answer {
                Some(a) if rank == 0 => format!("{} (checked)", percent(&a.share)),
                _ => percent(&candidate.share),
            };
            let settings = knob.settings_at(c);
            ui.label(format!(
                "{}. {}: {share}",
                rank + 1,
                fair::settings_words(&settings),
            ));
            match requests_of(inputs.rules, &settings) {
                Ok(change) => {
                    if ui
                        .button("Use this change")
                        .on_hover_text("Makes it the setup in force (Undo takes it back)")
                        .clicked()
                    {
                        requests.extend(change);
                    }
                }
                Err(e) => {
                    ui.colored_label(theme::ERROR, e.to_string());
                }
            }
            let is_rule = settings.iter().all(|s| !s.key.contains(':'));
            if ui
                .add_enabled(is_rule, egui::Button::new("Save as variant…"))
                .on_hover_text(format!(
                    "A variant that extends {} and sets only this change",
                    inputs.variant
                ))
                .on_disabled_hover_text("A variant sets rules; this change is the setup's: use it, then save the scenario")
                .clicked()
            {
                let text = fair::variant_text(
                    &fair::variant_reference(inputs.variant, None),
                    inputs.rules,
                    &settings,
                );
                requests.push(Request::Choose(FilePurpose::Export {
                    kind: ExportKind::Variant,
                    text,
                }));
            }
            ui.end_row();
        }
    });
    requests
}

/// The window's undoable edits for a change of one or two settings: the
/// rule fields together as one rule set, each block's as its own edit.
fn requests_of(
    rules: &RuleSet,
    settings: &[fair::Setting],
) -> Result<Vec<Request>, sweep::AxisError> {
    let mut changed_rules = None;
    let mut edits = Vec::new();
    for s in settings {
        let now = changed_rules.as_ref().unwrap_or(rules);
        match sweep::setting_change(now, &s.key, &s.value)? {
            SettingChange::Rules(r) => changed_rules = Some(r),
            other => edits.push(request_of(other)),
        }
    }
    Ok(changed_rules
        .map(Request::SetRules)
        .into_iter()
        .chain(edits)
        .collect())
}

/// The window's own undoable edit for a change.
fn request_of(change: SettingChange) -> Request {
    match change {
        SettingChange::Rules(rules) => Request::SetRules(rules),
        SettingChange::Strength {
            side,
            block,
            strength,
        } => Request::Edit(Edit::SetStrength {
            side,
            block,
            strength: Some(strength),
        }),
        SettingChange::Deploy { side, block, city } => Request::Edit(Edit::MoveBlock {
            side,
            block,
            to: Some(city),
        }),
    }
}

/// Caesar's share against each knob's values: the candidates with their
/// 95% intervals, the target and its tolerance, the crossing.
fn knob_charts(ui: &mut Ui, report: &FairReport) {
    let target = report.options.target * 100.0;
    let tolerance = report.options.tolerance * 100.0;
    for (k, knob) in report.knobs.iter().enumerate() {
        if knob.candidates.is_empty() {
            continue;
        }
        ui.label(
            RichText::new(format!(
                "Caesar's share at equilibrium against {}{}",
                knob.key,
                knob.with.as_ref().map_or(String::new(), |w| format!(
                    ", with {}={}",
                    w.key,
                    fair::value_text(&w.value)
                ))
            ))
            .strong(),
        );
        let (xs, labels) = positions(knob);
        Plot::new(("fair_knob_chart", k))
            .height(theme::CHART_HEIGHT * 0.8)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .legend(egui_plot::Legend::default())
            .y_axis_label("Caesar wins, %")
            .x_axis_label(knob.key.clone())
            .include_y(0.0)
            .include_y(100.0)
            .x_axis_formatter(move |mark, _| {
                labels
                    .iter()
                    .find(|(x, _)| (x - mark.value).abs() < 1e-6)
                    .map(|(_, l)| l.clone())
                    .unwrap_or_default()
            })
            .show(ui, |p| {
                // Each candidate's interval as a bar, the values as a line.
                for (x, c) in xs.iter().zip(&knob.candidates) {
                    p.line(
                        Line::new(
                            "95% interval",
                            vec![[*x, c.share.ci95[0] * 100.0], [*x, c.share.ci95[1] * 100.0]],
                        )
                        .stroke(Stroke::new(6.0, theme::CAESAR.gamma_multiply(0.35))),
                    );
                }
                let line = xs
                    .iter()
                    .zip(&knob.candidates)
                    .map(|(x, c)| [*x, c.share.estimate * 100.0])
                    .collect();
                marked_line(p, "Caesar wins", line, theme::CAESAR, LineStyle::Solid);
                let (lo, hi) = (xs[0] - 0.5, xs[xs.len() - 1] + 0.5);
                p.polygon(
                    Polygon::new(
                        "target ± tolerance",
                        vec![
                            [lo, target - tolerance],
                            [hi, target - tolerance],
                            [hi, target + tolerance],
                            [lo, target + tolerance],
                        ],
                    )
                    .fill_color(theme::GOOD.gamma_multiply(0.15))
                    .stroke(Stroke::NONE)
                    .allow_hover(false),
                );
                p.hline(
                    HLine::new(format!("target ({target:.0}%)"), target)
                        .color(theme::DRAW)
                        .style(LineStyle::dashed_loose()),
                );
                if let Some(crossing) = knob.crossing {
                    p.vline(
                        VLine::new(
                            format!("crosses at {:.2}", crossing.at),
                            crossing_x(knob, &xs, crossing.at),
                        )
                        .color(theme::GOOD)
                        .style(LineStyle::dashed_dense()),
                    );
                }
            });
    }
}

/// Where each candidate stands on the chart's x axis, and the axis's
/// labels: the knob's own numbers, or the candidates in order.
fn positions(knob: &KnobResult) -> (Vec<f64>, Vec<(f64, String)>) {
    let numbers: Option<Vec<f64>> = knob.candidates.iter().map(|c| c.value.as_f64()).collect();
    let xs = numbers.unwrap_or_else(|| (0..knob.candidates.len()).map(|i| i as f64).collect());
    let labels = xs
        .iter()
        .zip(&knob.candidates)
        .map(|(x, c)| (*x, fair::value_text(&c.value)))
        .collect();
    (xs, labels)
}

/// The crossing on the chart's axis (a number knob's crossing is in its
/// values already).
fn crossing_x(knob: &KnobResult, xs: &[f64], at: f64) -> f64 {
    if knob.candidates.iter().all(|c| c.value.as_f64().is_some()) {
        at
    } else {
        at.clamp(0.0, (xs.len().max(1) - 1) as f64)
    }
}

/// "Keep as this setup's answer": the report becomes the one the Setup
/// tab reads (`NAME.players/fair.json`); true when it wrote it.
fn keep(
    ui: &mut Ui,
    report: &FairReport,
    bundle: Option<&Path>,
    kept: &mut Option<Result<String, NotKept>>,
) -> bool {
    let keep = super::keep::Keep {
        button: "Keep as this setup's answer",
        hover: "Writes the report into the setup's players folder: the Setup tab says the change beside its balance",
        disabled_hover: "A change found, and the setup (or a variant) saved to a file: the answer is kept beside it",
        file: fair::BUNDLE_FAIR,
        what: "answer",
    };
    super::keep::keep_button(ui, &keep, report.answer.is_some(), report, bundle, kept)
}

/// A knob's values as typed: `0..10` for a run of whole numbers, else a list.
fn values_text(values: &[String]) -> String {
    let numbers: Option<Vec<i64>> = values.iter().map(|v| v.parse().ok()).collect();
    match numbers.as_deref() {
        Some([first, .., last])
            if (last - first) as usize + 1 == values.len() && values.len() > 2 =>
        {
            format!("{first}..{last}")
        }
        _ => values.join(","),
    }
}
