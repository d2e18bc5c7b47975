//! The Balance tab: is this setup fair? Runs `balance` (the library's run,
//! as the command line runs it) in the background with a budget in wall
//! minutes, follows it by round, and shows the payoff table as a heatmap
//! with each side's equilibrium mix along its edges, the value and the
//! exploitability by round, and the verdict in words.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui::{Color32, RichText, Sense, Stroke, Ui, vec2};
use egui_plot::{Legend, LineStyle, Plot, Polygon};

use super::bands::marked_line;

use super::error::{NotKept, RunError};
use crate::ai::AiSpec;
use crate::app::state::NoGame;
use crate::app::{ExportKind, FilePurpose, Request, form, theme};
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::questions::balance::session::{Begin, Plan, Players};
use crate::sim::questions::balance::{
    self, BalanceOptions, BalanceReport, Interval, Oracle, Round, Watch,
};

/// A run in the background.
struct Running {
    watch: Arc<Watch>,
    started: Instant,
    rx: Receiver<Result<BalanceReport, RunError>>,
    /// The report as of the last finished stage (rounds so far).
    so_far: Arc<Mutex<Option<BalanceReport>>>,
}

/// The tab's settings and its last result.
pub struct BalancePanel {
    pub budget_minutes: f64,
    pub seed: u64,
    pub games: u64,
    pub first_games: u64,
    pub rounds: u32,
    pub oracles: [bool; 3],
    /// More players, comma-separated, as `balance --players` takes them.
    pub players: String,
    /// Only the players named (no shipped or fitted ones).
    pub only_named: bool,
    /// Where trained players and the checkpoint go.
    pub folder: String,
    running: Option<Running>,
    pub result: Option<Result<BalanceReport, RunError>>,
    threads: usize,
    /// Where "Keep as this setup's balance" wrote the report, or why not.
    kept: Option<Result<String, NotKept>>,
    /// Reports kept so far: the Setup tab reads the setup's balance again
    /// when it changes.
    pub(crate) kept_count: u64,
    /// *Make it fair*, on this tab's population.
    pub fair: super::fair_view::FairPanel,
    /// Which question the tab shows.
    pub question: Question,
}

/// The Balance tab's two questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Question {
    /// Caesar's share at equilibrium, as the setup is.
    #[default]
    IsItFair,
    /// The smallest change that brings it to even.
    MakeItFair,
}

impl Default for BalancePanel {
    fn default() -> BalancePanel {
        BalancePanel {
            budget_minutes: 10.0,
            seed: 1,
            games: 200,
            first_games: 20,
            rounds: 2,
            oracles: [true, true, true],
            players: String::new(),
            only_named: false,
            folder: "balance.players".to_string(),
            running: None,
            result: None,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            kept: None,
            kept_count: 0,
            fair: Default::default(),
            question: Question::IsItFair,
        }
    }
}

impl BalancePanel {
    pub fn is_running(&self) -> bool {
        self.running.is_some() || self.fair.is_running()
    }

    /// Reports kept so far, the balance's and the fair answer's: the Setup
    /// tab reads its line again after each.
    pub(crate) fn reports_kept(&self) -> u64 {
        self.kept_count + self.fair.kept_count
    }

    fn options(&self) -> BalanceOptions {
        BalanceOptions {
            seed: self.seed,
            first_games: self.first_games.min(self.games).max(1),
            games: self.games.max(2),
            rounds: self.rounds,
            oracles: if self.rounds == 0 {
                Vec::new()
            } else {
                self.chosen_oracles()
            },
            ..BalanceOptions::default()
        }
    }

    /// The trainings ticked, whatever the rounds.
    fn chosen_oracles(&self) -> Vec<Oracle> {
        Oracle::ALL
            .into_iter()
            .zip(self.oracles)
            .filter_map(|(o, on)| on.then_some(o))
            .collect()
    }

    /// Make it fair's population options: the trainings ticked stay with
    /// no rounds of the population's own, since its checks train with
    /// them (as `fair --rounds 0` keeps its --oracles).
    fn fair_options(&self) -> BalanceOptions {
        BalanceOptions {
            oracles: self.chosen_oracles(),
            ..self.options()
        }
    }

    fn checkpoint_path(&self) -> PathBuf {
        PathBuf::from(&self.folder).join("checkpoint.json")
    }

    /// Starts a run on `game` (already checked), or resumes the folder's
    /// checkpoint when `resume` is set: the library's balance run, as the
    /// command line's ([`balance::session`]), its population with the
    /// setup's fitted players in `bundle` too.
    pub(crate) fn start(
        &mut self,
        game: Game,
        rules: &RuleSet,
        variant: &str,
        bundle: Option<&std::path::Path>,
        resume: bool,
    ) {
        if self.running.is_some() {
            return;
        }
        let report = match self.prepare(&game, rules, variant, bundle, resume) {
            Ok(r) => r,
            Err(e) => {
                self.result = Some(Err(e));
                return;
            }
        };
        let watch = Arc::new(Watch::new());
        let so_far = Arc::new(Mutex::new(None));
        let (tx, rx) = channel();
        // Trained players are named by absolute paths: the report plays
        // them (and a setup keeps it) from whatever folder comes next.
        let folder =
            std::path::absolute(&self.folder).unwrap_or_else(|_| self.folder.clone().into());
        let plan = Plan {
            budget: balance::session::budget(self.budget_minutes).ok(),
            checkpoint: Some(folder.join("checkpoint.json")),
            players_dir: Some(folder),
            library: balance::library::chosen(None, self.only_named, bundle),
        };
        let threads = self.threads.max(1);
        {
            let watch = Arc::clone(&watch);
            let so_far = Arc::clone(&so_far);
            std::thread::spawn(move || {
                let mut report = report;
                let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Err(RunError::Threads { threads, source: e }));
                        return;
                    }
                };
                let result = pool.install(|| {
                    balance::session::run_plan(&game, &mut report, &plan, &watch, &mut |r| {
                        if let Ok(mut s) = so_far.lock() {
                            *s = Some(r.clone());
                        }
                    })
                });
                let _ = tx.send(result.map(|_| report).map_err(RunError::Balance));
            });
        }
        self.result = None;
        self.running = Some(Running {
            watch,
            started: Instant::now(),
            rx,
            so_far,
        });
    }

    fn prepare(
        &self,
        game: &Game,
        rules: &RuleSet,
        variant: &str,
        bundle: Option<&std::path::Path>,
        resume: bool,
    ) -> Result<BalanceReport, RunError> {
        balance::session::budget(self.budget_minutes).map_err(RunError::Budget)?;
        let begin = if resume {
            let report = balance::session::read_report(&self.checkpoint_path())
                .map_err(RunError::NoBalanceToResume)?;
            Begin::Resume {
                report: Box::new(report),
                rounds: None,
            }
        } else {
            let players = self.players(rules, variant, bundle)?;
            Begin::Fresh {
                variant: variant.to_string(),
                options: self.options(),
                players,
            }
        };
        Ok(balance::session::prepare(game, begin)?.report)
    }

    /// The population the settings describe: the players named, and
    /// unless only those, the shipped ones and the setup's fitted ones.
    fn players(
        &self,
        rules: &RuleSet,
        variant: &str,
        bundle: Option<&std::path::Path>,
    ) -> Result<Players, RunError> {
        players_of(&self.players, self.only_named, rules, variant, bundle)
    }

    /// Waits for the run in the background to end (tests, scripts).
    pub fn wait(&mut self) {
        while self.running.is_some() {
            self.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Picks up a finished run.
    fn poll(&mut self) {
        if let Some(running) = &self.running
            && let Ok(result) = running.rx.try_recv()
        {
            self.result = Some(result);
            self.running = None;
        }
    }

    /// The tab. `game` is the setup in force, checked (its error otherwise).
    pub(crate) fn show(
        &mut self,
        ui: &mut Ui,
        make_game: &dyn Fn() -> Result<Game, NoGame>,
        doc: &crate::scenario::format::ResolvedScenario,
        rules: &RuleSet,
        variant: &str,
        bundle: Option<&std::path::Path>,
    ) -> Vec<Request> {
        self.poll();
        let mut requests = Vec::new();
        egui::ScrollArea::vertical()
            .auto_shrink(false)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.question, Question::IsItFair, "Is it fair?")
                        .on_hover_text("Caesar's share at equilibrium, as the setup is");
                    ui.selectable_value(&mut self.question, Question::MakeItFair, "Make it fair")
                        .on_hover_text("The smallest change that brings it to even");
                });
                ui.separator();
                match self.question {
                    Question::IsItFair => {
                        requests.extend(self.is_it_fair(ui, make_game, rules, variant, bundle));
                    }
                    Question::MakeItFair => {
                        ui.label(
                            RichText::new("The population (shared with Is it fair?)").strong(),
                        );
                        self.settings(ui, false);
                        ui.separator();
                        let folder = PathBuf::from(&self.folder);
                        let (named, only_named) = (&self.players, self.only_named);
                        let players = || players_of(named, only_named, rules, variant, bundle);
                        let inputs = super::fair_view::FairInputs {
                            make_game,
                            doc,
                            rules,
                            variant,
                            bundle,
                            players: &players,
                            balance: self.fair_options(),
                            folder: &folder,
                            threads: self.threads,
                        };
                        let fair = &mut self.fair;
                        requests.extend(fair.show(ui, &inputs));
                    }
                }
            });
        requests
    }

    /// "Is it fair?": the settings, the run's buttons and progress, the report.
    fn is_it_fair(
        &mut self,
        ui: &mut Ui,
        make_game: &dyn Fn() -> Result<Game, NoGame>,
        rules: &RuleSet,
        variant: &str,
        bundle: Option<&std::path::Path>,
    ) -> Vec<Request> {
        let mut requests = Vec::new();
        ui.heading("Is this setup fair? Balance at equilibrium");
        ui.label(
            "Each side plays its best mix of every player we have against the other side doing the same; \
             then players are trained as best responses to each mix and added until none moves the answer.",
        );
        ui.add_space(4.0);
        self.settings(ui, true);
        ui.horizontal(|ui| {
            let idle = self.running.is_none();
            let run = ui
                .add_enabled(idle, egui::Button::new("Run balance"))
                .clicked();
            let can_resume = idle && self.checkpoint_path().exists();
            let resume = ui
                .add_enabled(can_resume, egui::Button::new("Resume"))
                .on_hover_text("Go on with the run whose checkpoint is in the folder")
                .clicked();
            if run || resume {
                match make_game() {
                    Ok(game) => self.start(game, rules, variant, bundle, resume),
                    Err(e) => self.result = Some(Err(e.into())),
                }
            }
            if let Some(r) = &self.running
                && ui.button("Cancel").clicked()
            {
                r.watch.progress.cancel();
            }
        });
        if let Some(r) = &self.running {
            let elapsed = r.started.elapsed().as_secs_f64();
            ui.label(format!(
                "{} — {} games, {:.0} s of {:.0} min",
                r.watch.stage(),
                r.watch.progress.done(),
                elapsed,
                self.budget_minutes
            ));
            ui.ctx().request_repaint_after(Duration::from_millis(200));
            let so_far = r.so_far.lock().ok().and_then(|s| s.clone());
            if let Some(report) = so_far {
                ui.separator();
                ui.label(RichText::new("So far").strong());
                requests.extend(report_view(ui, &report, None));
            }
        }
        match &self.result {
            Some(Ok(report)) => {
                ui.separator();
                let saved = std::path::absolute(self.checkpoint_path()).ok();
                requests.extend(report_view(ui, report, saved.as_deref()));
                requests.extend(exports(ui, report));
                if keep(ui, report, bundle, &mut self.kept) {
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

    /// The run's settings; `with_budget` false leaves out the balance's
    /// own budget (Make it fair has its own).
    fn settings(&mut self, ui: &mut Ui, with_budget: bool) {
        egui::Grid::new("balance_settings").num_columns(2).show(ui, |ui| {
            if with_budget {
                form::row(
                    ui,
                    "Budget (wall minutes)",
                    egui::DragValue::new(&mut self.budget_minutes).range(0.1..=10_080.0).speed(0.5),
                );
            }
            form::row(ui, "Seed", egui::DragValue::new(&mut self.seed));
            form::row(
                ui,
                "Games per deciding pairing",
                egui::DragValue::new(&mut self.games).range(2..=1_000_000),
            );
            form::row(
                ui,
                "Games per pairing at first",
                egui::DragValue::new(&mut self.first_games).range(1..=1_000_000),
            );
            form::row(ui, "Rounds of best responses", egui::DragValue::new(&mut self.rounds).range(0..=50));
            ui.label("Best responses");
            ui.horizontal(|ui| {
                ui.checkbox(&mut self.oracles[0], "tuned numbers")
                    .on_hover_text("(a) the heuristic's numbers tuned by CMA-ES against the other side's mix");
                ui.checkbox(&mut self.oracles[1], "search that knows its opponent")
                    .on_hover_text("(b) a search whose playouts play the other side as its mix plays");
                ui.checkbox(&mut self.oracles[2], "with a learned value")
                    .on_hover_text("(c) that search scored by a value learned on games against the mix");
            });
            ui.end_row();
            form::row(
                ui,
                "More players",
                egui::TextEdit::singleline(&mut self.players)
                    .hint_text("e.g. search:16, heuristic:my-numbers.ron")
                    .desired_width(320.0),
            );
            ui.label("");
            ui.checkbox(&mut self.only_named, "Only these players (leave out the shipped ones)");
            ui.end_row();
            form::row(
                ui,
                "Folder for trained players",
                egui::TextEdit::singleline(&mut self.folder).desired_width(320.0),
            );
        });
    }
}

/// The population a balance's settings describe: the players named
/// (comma-separated), and unless `only_named`, the shipped ones and the
/// setup's fitted ones in `bundle`.
fn players_of(
    text: &str,
    only_named: bool,
    rules: &RuleSet,
    variant: &str,
    bundle: Option<&std::path::Path>,
) -> Result<Players, RunError> {
    let named: Vec<AiSpec> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<AiSpec>().map_err(RunError::Players))
        .collect::<Result<_, _>>()?;
    // The rules in force (perhaps edited), then the files they extend.
    let mut lineage = vec![rules.clone()];
    lineage.extend(RuleSet::lineage(variant).unwrap_or_default());
    let players = Players {
        lineage,
        bundle: Vec::new(),
        named,
        shipped: !only_named,
        library: None,
    };
    let players = if only_named {
        players
    } else {
        players.with_bundle_in(bundle)?
    };
    Ok(players)
}

/// The verdict, the heatmap with the mixes, the convergence chart.
/// "Keep as this setup's balance" (true when it wrote the report): the report becomes the one the
/// Setup tab, `ladder` and `explain` read (`NAME.players/balance.json`).
fn keep(
    ui: &mut Ui,
    report: &BalanceReport,
    bundle: Option<&std::path::Path>,
    kept: &mut Option<Result<String, NotKept>>,
) -> bool {
    let keep = super::keep::Keep {
        button: "Keep as this setup's balance",
        hover: "Writes the report into the setup's players folder, where the Setup tab, \
                ladder and explain read the setup's balance",
        disabled_hover: "Save the setup (or a variant) to a file first: its balance is kept beside it",
        file: balance::measured::BUNDLE_BALANCE,
        what: "balance",
    };
    super::keep::keep_button(
        ui,
        &keep,
        !report.caesar_mix.is_empty(),
        report,
        bundle,
        kept,
    )
}

/// The report's verdict, heatmap, mixes, mirrors and convergence; with
/// `saved` (the report's file) "Play against" seats the side's whole mix.
fn report_view(
    ui: &mut Ui,
    report: &BalanceReport,
    saved: Option<&std::path::Path>,
) -> Vec<Request> {
    let mut requests = Vec::new();
    if report.caesar_mix.is_empty() {
        ui.label("The first table is being played.");
        return requests;
    }
    ui.add(egui::Label::new(RichText::new(report.verdict()).strong()).wrap());
    if !report.left_out.is_empty() {
        ui.colored_label(
            theme::WARNING,
            format!(
                "Left out of the setup's library: {}",
                report.left_out.join("; ")
            ),
        );
    }
    ui.label(format!(
        "Caesar's share at equilibrium: {:.1}% ({:.1}–{:.1}: this table's dice, not other seeds' players). Stable in {:.0}% of the bootstrap's resamples. {} games. Stopped: {}",
        report.value.estimate * 100.0,
        report.value.ci95[0] * 100.0,
        report.value.ci95[1] * 100.0,
        report.stability * 100.0,
        report.games_played,
        if report.stopped.is_empty() { "still running" } else { &report.stopped }
    ));
    ui.add_space(6.0);
    heatmap(ui, report);
    ui.add_space(6.0);
    for side in Side::BOTH {
        let mix = report.mix(side);
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!("{side}'s mix:"))
                    .color(theme::side(side))
                    .strong(),
            );
            for (w, m) in &mix {
                ui.label(format!("{:.0}% {}", w * 100.0, m.words));
            }
        });
        // The whole mix where the report is saved (each game draws its
        // member), else its heaviest player.
        let whole_mix = saved.and_then(|p| {
            format!("equilibrium:{}", p.display())
                .parse::<crate::ai::AiSpec>()
                .ok()
        });
        let heaviest = mix.iter().max_by(|a, b| a.0.total_cmp(&b.0));
        let seat = match (whole_mix, heaviest) {
            (Some(spec), _) => Some((spec, format!("{side}'s mix, one player drawn per game"))),
            (None, Some((_, m))) => m.spec.clone().map(|spec| (spec, m.words.clone())),
            (None, None) => None,
        };
        if let Some((spec, words)) = seat
            && ui
                .button(format!("Play against {side}'s equilibrium player"))
                .on_hover_text(format!("Seats {words} as {side} in the Play tab"))
                .clicked()
        {
            requests.push(Request::SeatPlayer(side, spec));
            requests.push(Request::SetTab(crate::app::Tab::Play));
        }
    }
    if !report.mirrors.is_empty() {
        ui.label(RichText::new("What a mirror match would have said").strong());
        for m in &report.mirrors {
            ui.label(format!(
                "  {:.1}% ({:.1}–{:.1})  {}",
                m.share.estimate * 100.0,
                m.share.ci95[0] * 100.0,
                m.share.ci95[1] * 100.0,
                m.words
            ));
        }
    }
    convergence(ui, report);
    requests
}

/// Caesar's share per pairing, Caesar's players down, Pompey's across;
/// each side's weight as a bar along its edge.
fn heatmap(ui: &mut Ui, report: &BalanceReport) {
    let (rows, columns) = (report.caesar.len(), report.pompey.len());
    let cell = ((ui.available_width() - 320.0) / (columns as f32 + 1.5)).clamp(22.0, 46.0);
    let label_width = 260.0;
    let bar = 50.0;
    let size = vec2(
        label_width + cell * columns as f32 + bar + 8.0,
        20.0 + cell * rows as f32 + bar + 8.0,
    );
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    let font = egui::FontId::proportional(11.0);
    let caesar_w = report.weights(Side::Caesar);
    let pompey_w = report.weights(Side::Pompey);
    let origin = rect.min + vec2(label_width, 20.0);
    let mut hovered = None;
    for (j, weight) in pompey_w.iter().enumerate() {
        painter.text(
            origin + vec2(cell * (j as f32 + 0.5), -10.0),
            egui::Align2::CENTER_CENTER,
            format!("P{}", j + 1),
            font.clone(),
            theme::side(Side::Pompey),
        );
        let x = origin.x + cell * j as f32;
        let y = origin.y + cell * rows as f32 + 4.0;
        painter.rect_filled(
            egui::Rect::from_min_size(
                egui::pos2(x + 4.0, y),
                vec2(cell - 8.0, bar * *weight as f32),
            ),
            0.0,
            theme::side(Side::Pompey),
        );
    }
    for (i, weight) in caesar_w.iter().enumerate() {
        let y = origin.y + cell * i as f32;
        let name: String = report.caesar[i].words.chars().take(40).collect();
        painter.text(
            egui::pos2(origin.x - 6.0, y + cell / 2.0),
            egui::Align2::RIGHT_CENTER,
            format!("C{} {name}", i + 1),
            font.clone(),
            theme::side(Side::Caesar),
        );
        for j in 0..columns {
            let r = egui::Rect::from_min_size(
                egui::pos2(origin.x + cell * j as f32, y),
                vec2(cell, cell),
            );
            let hover = response.hover_pos().is_some_and(|p| r.contains(p));
            paint_cell(&painter, r, &report.table.cells[i][j], &font, hover);
            if hover {
                hovered = Some((i, j));
            }
        }
        let x = origin.x + cell * columns as f32 + 4.0;
        painter.rect_filled(
            egui::Rect::from_min_size(
                egui::pos2(x, y + 4.0),
                vec2(bar * *weight as f32, cell - 8.0),
            ),
            0.0,
            theme::side(Side::Caesar),
        );
    }
    if let Some((i, j)) = hovered {
        response.on_hover_text(cell_words(report, i, j));
    }
    ui.horizontal_wrapped(|ui| {
        for (j, m) in report.pompey.iter().enumerate() {
            ui.label(RichText::new(format!("P{} {}", j + 1, m.words)).small());
        }
    });
    ui.label(
        RichText::new("Bars: each player's weight in its side's mix (Caesar right of the rows, Pompey below the columns).")
            .small(),
    );
}

/// One pairing's square: its share in colour and figures, or a dash for
/// one not played yet (a budget cut the table: no 50%).
fn paint_cell(
    painter: &egui::Painter,
    r: egui::Rect,
    c: &balance::Cell,
    font: &egui::FontId,
    hovered: bool,
) {
    let (fill, text) = if c.games() == 0 {
        (Color32::from_gray(90), "–".to_string())
    } else {
        (share_colour(c.share()), format!("{:.0}", c.share() * 100.0))
    };
    painter.rect_filled(r.shrink(0.5), 0.0, fill);
    painter.text(
        r.center(),
        egui::Align2::CENTER_CENTER,
        text,
        font.clone(),
        Color32::BLACK,
    );
    if hovered {
        painter.rect_stroke(
            r,
            0.0,
            Stroke::new(2.0, Color32::BLACK),
            egui::StrokeKind::Inside,
        );
    }
}

/// A pairing in words, for its hover.
fn cell_words(report: &BalanceReport, i: usize, j: usize) -> String {
    let c = &report.table.cells[i][j];
    let [lo, hi] = c.interval();
    format!(
        "Caesar: {}\nPompey: {}\nCaesar's share {:.1}% ({:.1}–{:.1}) over {} games",
        report.caesar[i].words,
        report.pompey[j].words,
        c.share() * 100.0,
        lo * 100.0,
        hi * 100.0,
        c.games()
    )
}

/// White at an even share, toward Caesar's colour as his share rises and
/// toward Pompey's as it falls: the sides' colours of the whole window.
fn share_colour(share: f64) -> Color32 {
    let t = ((share - 0.5) * 2.0).clamp(-1.0, 1.0) as f32;
    let toward = if t >= 0.0 {
        theme::CAESAR
    } else {
        theme::POMPEY
    };
    let mix = |c: u8| (255.0 + (f32::from(c) - 255.0) * t.abs() * 0.8) as u8;
    Color32::from_rgb(mix(toward.r()), mix(toward.g()), mix(toward.b()))
}

/// Value and exploitability by round, each with its 95% band.
fn convergence(ui: &mut Ui, report: &BalanceReport) {
    if report.rounds.is_empty() {
        return;
    }
    ui.label(
        RichText::new("By round: Caesar's share at equilibrium and the exploitability (points; a lower bound: the best gains of the responses trained)")
            .strong(),
    );
    Plot::new("balance_convergence")
        .height(220.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .legend(Legend::default().position(egui_plot::Corner::RightTop))
        .x_axis_label("round")
        .y_axis_label("points")
        .include_y(0.0)
        .include_y(100.0)
        // Rounds are whole numbers: the axis spans them, ticks only on them.
        .include_x(0.5)
        .include_x(report.rounds.len() as f64 + 0.5)
        .x_axis_formatter(|mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() < 1e-6 && v >= 1.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        })
        .show(ui, |p| {
            let band = |name: &str, pts: &[(f64, [f64; 2])], colour: Color32| {
                if pts.len() < 2 {
                    return None;
                }
                let mut poly: Vec<[f64; 2]> =
                    pts.iter().map(|(x, ci)| [*x, ci[0] * 100.0]).collect();
                poly.extend(pts.iter().rev().map(|(x, ci)| [*x, ci[1] * 100.0]));
                Some(
                    Polygon::new(name.to_string(), poly)
                        .fill_color(colour.gamma_multiply(0.25))
                        .stroke(Stroke::NONE)
                        .allow_hover(false),
                )
            };
            // Each figure by round: its 95% band, then its line.
            type Figure = fn(&Round) -> Option<Interval>;
            let series: [(&str, &str, Color32, Figure); 2] = [
                (
                    "value 95%",
                    "Caesar's share at equilibrium",
                    theme::CAESAR,
                    |r| Some(r.value),
                ),
                ("exploitability 95%", "exploitability", theme::ROUNDS, |r| {
                    r.exploitability
                }),
            ];
            for (band_name, name, colour, figure) in series {
                let by_round: Vec<(f64, Interval)> = report
                    .rounds
                    .iter()
                    .filter_map(|r| figure(r).map(|i| (f64::from(r.round), i)))
                    .collect();
                let ci: Vec<(f64, [f64; 2])> = by_round.iter().map(|(x, i)| (*x, i.ci95)).collect();
                if let Some(b) = band(band_name, &ci, colour) {
                    p.polygon(b);
                }
                let line = by_round
                    .iter()
                    .map(|(x, i)| [*x, i.estimate * 100.0])
                    .collect();
                marked_line(p, name, line, colour, LineStyle::Solid);
            }
        });
}

fn exports(ui: &mut Ui, report: &BalanceReport) -> Vec<Request> {
    let mut requests = Vec::new();
    ui.horizontal(|ui| {
        let mut export = |kind, text: String| {
            requests.push(Request::Choose(FilePurpose::Export { kind, text }));
        };
        if ui.button("Export JSON…").clicked()
            && let Ok(text) = serde_json::to_string_pretty(report)
        {
            export(ExportKind::Json, format!("{text}\n"));
        }
        if ui.button("Export CSV…").clicked() {
            export(ExportKind::Csv, report.csv());
        }
        if ui.button("Export heatmap (SVG)…").clicked() {
            export(ExportKind::Svg, report.svg());
        }
    });
    requests
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_it_fair_keeps_the_trainings_ticked_when_the_population_plays_no_rounds() {
        let panel = BalancePanel {
            rounds: 0,
            oracles: [true, false, true],
            ..BalancePanel::default()
        };
        assert!(
            panel.options().oracles.is_empty(),
            "no rounds: nothing to train"
        );
        // fair's checks train with them, as `fair --rounds 0 --oracles tune,value`.
        assert_eq!(
            panel.fair_options().oracles,
            vec![Oracle::Tune, Oracle::Value]
        );
        assert_eq!(panel.fair_options().rounds, 0);
    }
}
