//! The workbench window (eframe/egui). It only draws and edits documents; every
//! rule lives in the library, every edit goes through [`crate::scenario::edit`].
//!
//! One way round: [`AppState`] holds what the window works on (document, rule
//! set, selection, one history of all edits, and what is derived from them).
//! Each frame the panels draw from it and return [`Request`]s; the window
//! applies them in one place ([`WorkbenchApp::handle`]). Panels keep only
//! their own view state (text being typed, a block being dragged, caches).
//! Colours and sizes come from [`theme`].
//!
//! [`WorkbenchApp::show`] draws the whole window into any [`egui::Ui`], so the
//! GUI tests drive it headless with egui_kittest; [`run`] wraps it in eframe.
//! Files are asked for through [`file_dialog`]: the desktop's dialog when it
//! opens, the window's own otherwise.
//!
//! A folder per tab: `map/` (the map widget and the Map tab), `setup/`
//! (the Deployment and Setup tabs), `rules/`, `simulate/` (the Simulate and
//! Balance tabs), `play/` (the Play tab and the game board it shares) and
//! `replay/`. The files here are the chrome they all share: the frame
//! around the tabs (`chrome`), the state with its history and selection,
//! the file dialogs and recent files, the theme, the one player menu
//! (`player_picker`), the parts of the settings forms (`form`), the
//! findings beside the map (`side_panel`) and the charts' key (`chart_key`).

mod chart_key;
mod chrome;
mod file_dialog;
mod files;
mod form;
mod history;
mod map;
mod play;
mod player_picker;
mod replay;
mod request;
mod rules;
mod selection;
mod setup;
mod side_panel;
mod simulate;
mod state;
pub mod theme;

use std::path::{Path, PathBuf};

use egui::Ui;

use crate::scenario::edit::{Document, Edit, Item};
use crate::scenario::model::{Side, SpaceId};
use crate::scenario::rules::RuleSet;
use crate::scenario::validate::{Finding, Report};

pub(crate) use file_dialog::DialogEnd;
pub use file_dialog::{
    ExportKind, FileDialogs, FilePurpose, FileRequest, NativeDialog, Pending, PlayerUse, RecordUse,
};
pub(crate) use files::Recent;
pub use history::History;
pub use map::heatmap_view;
pub use map::view::MapView;
pub use play::panel::{PlayPanel, Seat};
pub use play::stacks as play_stacks;
pub use replay::games::RunGames;
pub use replay::panel::ReplayPanel;
pub use request::{Answer, ReplaySource, Replayed, Request, Tab};
pub use rules::explain_view::{ExplainPanel, RuleChoice, plain_sentence};
pub use simulate::balance_view::BalancePanel;
pub use simulate::panel::{RunOutcome, SimPanel};
pub use state::AppState;

/// Why the workbench window could not open.
#[derive(Debug, thiserror::Error)]
#[error("cannot open the window: {0}")]
pub struct WindowError(#[from] eframe::Error);

/// Opens the workbench window.
pub fn run(scenario: Option<PathBuf>, variant: &str) -> Result<(), WindowError> {
    let mut app = WorkbenchApp::new(scenario, variant);
    if let Some(store) = Recent::default_store() {
        app.state.set_recent(Recent::load(store));
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(app.window_title())
            .with_inner_size(theme::WINDOW_SIZE)
            .with_min_inner_size(theme::WINDOW_MIN_SIZE),
        ..Default::default()
    };
    eframe::run_native(
        "caesar-workbench",
        options,
        Box::new(|_cc| Ok(Box::new(app))),
    )
    .map_err(WindowError)
}

/// The workbench: the state it works on, and the panels that draw it.
pub struct WorkbenchApp {
    state: AppState,
    tab: Tab,
    map: map::panel::MapPanel,
    inspector: map::inspector::Inspector,
    deploy: setup::deploy::DeployPanel,
    findings: side_panel::FindingsPanel,
    rules_panel: rules::panel::RulesPanel,
    setup: setup::panel::SetupPanel,
    /// The setup's players and their fit (Setup and Rules tabs).
    setup_players: setup::players::SetupPlayers,
    sim: SimPanel,
    balance: BalancePanel,
    play: PlayPanel,
    replay: ReplayPanel,
    dialogs: FileDialogs,
    /// What waits for "Save / Discard / Cancel".
    pending: Option<Pending>,
    /// Set once the user agreed to quit with unsaved changes.
    allow_close: bool,
    /// The title last sent to the window.
    shown_title: String,
}

impl WorkbenchApp {
    /// Loads `scenario` (the built-in published game when `None`) under the
    /// rule set `variant` (a built-in name or a file). Failures are kept and
    /// shown in the window rather than returned.
    pub fn new(scenario: Option<PathBuf>, variant: &str) -> WorkbenchApp {
        WorkbenchApp {
            state: AppState::new(scenario.as_deref(), variant),
            tab: Tab::Map,
            map: map::panel::MapPanel::default(),
            inspector: map::inspector::Inspector::default(),
            deploy: setup::deploy::DeployPanel::default(),
            findings: side_panel::FindingsPanel::default(),
            rules_panel: rules::panel::RulesPanel::default(),
            setup: setup::panel::SetupPanel::default(),
            setup_players: setup::players::SetupPlayers::default(),
            sim: SimPanel::default(),
            balance: BalancePanel::default(),
            play: PlayPanel::default(),
            replay: ReplayPanel::default(),
            dialogs: FileDialogs::default(),
            pending: None,
            allow_close: false,
            shown_title: String::new(),
        }
    }

    /// Uses these file dialogs (tests: a desktop without a portal).
    pub fn with_file_dialogs(mut self, dialogs: FileDialogs) -> WorkbenchApp {
        self.dialogs = dialogs;
        self
    }

    // ------------------------------------------------------------ reading

    /// What the window works on.
    pub fn app_state(&self) -> &AppState {
        &self.state
    }

    pub fn variant(&self) -> &str {
        self.state.variant()
    }

    /// The rule set in force (with any switches changed in the rules panel).
    pub fn rules(&self) -> Option<&RuleSet> {
        self.state.rules()
    }

    /// The validation report, when the scenario loaded.
    pub fn report(&self) -> Option<&Report> {
        self.state.report()
    }

    /// The document being edited.
    pub fn document(&self) -> Option<&Document> {
        self.state.document()
    }

    /// Why the scenario could not be loaded at start.
    pub fn load_error(&self) -> Option<&str> {
        self.state.load_error()
    }

    /// Why the last open, save or export failed.
    pub fn file_error(&self) -> Option<&str> {
        self.state.file_error()
    }

    /// The last refused edit, or a note on the last file operation.
    pub fn status(&self) -> Option<&str> {
        self.state.status().map(|s| s.text.as_str())
    }

    /// Why the rule set could not be loaded.
    pub fn rules_error(&self) -> Option<&crate::scenario::format::LoadError> {
        self.state.rules_error()
    }

    pub fn scenario_name(&self) -> String {
        self.state.scenario_name()
    }

    /// "Caesar Workbench — file.ron •" (the dot: unsaved changes).
    pub fn window_title(&self) -> String {
        self.state.window_title()
    }

    /// The map's pan and zoom.
    pub fn view(&self) -> &MapView {
        &self.map.view
    }

    /// The space under the pointer in the last frame.
    pub fn hovered_space(&self) -> Option<SpaceId> {
        self.map.hovered
    }

    pub fn tab(&self) -> Tab {
        self.tab
    }

    /// The selected space, link or block.
    pub fn selection(&self) -> Option<&Item> {
        self.state.selection()
    }

    /// The action waiting for "Save / Discard / Cancel".
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// The file dialogs (whether the desktop's is still used, whether the
    /// window's is open).
    pub fn file_dialogs(&self) -> &FileDialogs {
        &self.dialogs
    }

    /// The map heatmap's settings (layer, year).
    pub fn map_overlay(&mut self) -> &mut map::heatmap_view::Overlay {
        &mut self.map.overlay
    }

    /// The simulation panel (its settings, run and result).
    pub fn balance_panel(&mut self) -> &mut BalancePanel {
        &mut self.balance
    }

    pub fn sim_panel(&mut self) -> &mut SimPanel {
        &mut self.sim
    }

    /// The Rules tab's explanation of two rule sets (its settings and result).
    pub fn explain_panel(&mut self) -> &mut ExplainPanel {
        &mut self.rules_panel.explain
    }

    /// The field the rule table shows highlighted (a bar or a field's name
    /// clicked in the explanation).
    pub fn highlighted_rule_field(&self) -> Option<&str> {
        self.rules_panel.highlighted.as_deref()
    }

    /// The Play tab (its settings and the game in progress).
    pub fn play_panel(&mut self) -> &mut PlayPanel {
        &mut self.play
    }

    /// The Replay tab.
    pub fn replay_panel(&mut self) -> &mut ReplayPanel {
        &mut self.replay
    }

    // ------------------------------------------------------------ changing

    pub fn set_tab(&mut self, tab: Tab) {
        self.tab = tab;
    }

    /// Selects an item (and shows it in the inspector).
    pub fn select(&mut self, item: Option<Item>) {
        self.state.select(item);
    }

    /// Switches the rule set and validates again; the map view is kept.
    pub fn set_variant(&mut self, variant: &str) {
        self.state.set_variant(variant);
    }

    /// Changes the rule set in force (as the rules panel does) and revalidates.
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.state.set_rules(rules);
    }

    /// Applies an edit to the document and validates again. A refused edit
    /// changes nothing; its reason is shown in the status line and returned.
    pub fn apply(&mut self, edit: Edit) -> Result<(), crate::scenario::edit::EditError> {
        self.state.apply(edit)
    }

    /// Takes back the last edit (of the scenario or of the rule switches).
    pub fn undo(&mut self) -> bool {
        self.state.undo()
    }

    /// Opens a scenario file; with unsaved changes it asks first.
    pub fn open(&mut self, path: &Path) {
        if self.state.dirty() {
            self.pending = Some(Pending::Open(path.to_path_buf()));
        } else {
            self.state.open(path);
            self.map.view.fit();
        }
    }

    /// Opens the built-in published game; with unsaved changes it asks first.
    pub(crate) fn open_builtin(&mut self) {
        if self.state.dirty() {
            self.pending = Some(Pending::OpenBuiltin);
        } else {
            self.state.open_builtin();
            self.map.view.fit();
        }
    }

    /// Saves to the document's own file; false when it has none (the
    /// built-in game) or saving failed (the error is shown).
    pub fn save(&mut self) -> bool {
        self.state.save()
    }

    /// Saves atomically to `path` (keeping the previous file as `.bak`).
    pub fn save_as(&mut self, path: &Path) -> bool {
        self.state.save_as(path)
    }

    /// Writes the current switches as a variant file that extends the
    /// variant they started from, setting only what differs.
    pub fn save_variant_to(
        &mut self,
        path: &Path,
        name: &str,
    ) -> Result<(), state::SaveVariantError> {
        self.state.save_variant_to(path, name)
    }

    /// Answers the unsaved-changes question. "Save" for a document with no
    /// file asks where first; what waited goes on once it is saved.
    pub fn resolve_pending(&mut self, answer: Answer) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        match answer {
            Answer::Cancel => {}
            Answer::Discard => self.go_on(pending),
            Answer::Save if self.state.path().is_some() => {
                if self.state.save() {
                    self.go_on(pending);
                }
            }
            Answer::Save => self.choose(FilePurpose::SaveScenario {
                then: Some(pending),
            }),
        }
    }

    /// Does what waited for the unsaved-changes question.
    fn go_on(&mut self, pending: Pending) {
        match pending {
            Pending::Open(path) => {
                self.state.open(&path);
                self.map.view.fit();
            }
            Pending::OpenBuiltin => {
                self.state.open_builtin();
                self.map.view.fit();
            }
            Pending::Quit => self.allow_close = true,
        }
    }

    /// Asks for a file for `purpose`; the answer is used at once when the
    /// desktop's dialog gives it, else when the window's dialog closes.
    fn choose(&mut self, purpose: FilePurpose) {
        let name = match &purpose {
            FilePurpose::SaveVariant => match self.rules_panel.new_name.trim() {
                "" => "my-variant".to_string(),
                n => n.to_string(),
            },
            // "tuned-rules-2.0", or after a variant file's name.
            FilePurpose::SavePlayer { .. } => {
                let variant = Path::new(self.state.variant());
                let rule_set = match variant.extension() {
                    Some(ext) if ext == "ron" => variant.file_stem().unwrap_or_default(),
                    _ => variant.as_os_str(),
                };
                crate::ai::tuned_file_stem(&rule_set.to_string_lossy())
            }
            // Saving again suggests the file's own name.
            FilePurpose::SaveScenario { .. } => match self.state.path().and_then(Path::file_stem) {
                Some(stem) => stem.to_string_lossy().into_owned(),
                None => self.state.scenario_name(),
            },
            _ => self.state.scenario_name(),
        };
        let folder = self
            .state
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let request = FileRequest::new(purpose, &name, folder);
        if let Some(end) = self.dialogs.ask(request) {
            self.dialog_ended(end);
        }
    }

    fn dialog_ended(&mut self, end: DialogEnd) {
        let DialogEnd::Chosen(purpose, path) = end else {
            // Cancelled: what waited for a save does not happen either.
            return;
        };
        match purpose {
            FilePurpose::OpenScenario => self.open(&path),
            FilePurpose::SaveScenario { then } => {
                if self.state.save_as(&path)
                    && let Some(pending) = then
                {
                    self.go_on(pending);
                }
            }
            FilePurpose::OpenVariant => self.state.set_variant(&path.display().to_string()),
            FilePurpose::SaveVariant => {
                let name = self.rules_panel.new_name.clone();
                if let Err(e) = self.state.save_variant_to(&path, &name) {
                    self.state.set_file_error(e.to_string());
                }
            }
            FilePurpose::Export { text, .. } => {
                self.state.export(&path, &text);
            }
            FilePurpose::SavePlayer { text } => {
                if self.state.export(&path, &text) {
                    self.sim.player_saved(&path);
                }
            }
            FilePurpose::OpenRecord(RecordUse::Replay) => {
                self.replay.open_file(&path);
                self.tab = Tab::Replay;
            }
            FilePurpose::OpenRecord(RecordUse::Resume) => {
                self.play.resume_file(&path);
                self.tab = Tab::Play;
            }
            FilePurpose::OpenPosition => {
                self.play.start_from_file(&path);
                self.tab = Tab::Play;
            }
            FilePurpose::OpenPlayer(side, to) => {
                if let Err(e) = self.open_player(side, to, &path) {
                    self.state.set_file_error(e.to_string());
                }
            }
        }
    }

    /// Seats the player of the file at `path` where it was asked for, or
    /// says why not.
    fn open_player(
        &mut self,
        side: Side,
        to: PlayerUse,
        path: &Path,
    ) -> Result<(), crate::scenario::format::LoadError> {
        let explain = &mut self.rules_panel.explain;
        match to {
            PlayerUse::Simulate => self.sim.load_player(side, path),
            PlayerUse::LadderRung => self.sim.add_rung_from(path),
            PlayerUse::TuneOpponent => self.sim.tune.play_against(path),
            PlayerUse::Play => self.play.load_player(side, path),
            PlayerUse::Explain => explain.load_player(side, path),
            PlayerUse::ExplainOther => explain.load_other_player(path),
        }
    }

    /// Carries out what a panel asked for.
    pub fn handle(&mut self, action: Request) {
        match action {
            Request::Edit(edit) => {
                let _ = self.state.apply(edit);
            }
            Request::EditAndSelect(edit, item) => {
                if self.state.apply(edit).is_ok() {
                    self.state.select(Some(item));
                }
            }
            Request::Select(item) => self.state.select(item),
            Request::GoToFinding(f) => self.go_to_finding(&f),
            Request::Undo => {
                self.state.undo();
            }
            Request::Redo => {
                self.state.redo();
            }
            Request::SetRules(rules) => self.state.set_rules(rules),
            Request::ResetRules => self.state.reset_rules(),
            Request::SetVariant(v) => self.state.set_variant(&v),
            Request::SetTab(tab) => self.tab = tab,
            Request::FitMap => self.map.view.fit(),
            Request::Choose(purpose) => self.choose(purpose),
            Request::Open(path) => self.open(&path),
            Request::OpenBuiltin => self.open_builtin(),
            Request::Save => {
                if self.state.path().is_some() {
                    self.state.save();
                } else if self.state.document().is_some() {
                    self.choose(FilePurpose::SaveScenario { then: None });
                }
            }
            Request::Answer(a) => self.resolve_pending(a),
            Request::DismissFileError => self.state.dismiss_file_error(),
            Request::Replay(source) => {
                match *source {
                    ReplaySource::Played(r) => self.replay.open(*r),
                    ReplaySource::Simulated {
                        game,
                        options,
                        index,
                    } => self.replay.open_simulated(*game, &options, index),
                }
                self.tab = Tab::Replay;
            }
            Request::SeatPlayer(side, spec) => {
                self.play.settings.seats[side.index()] = Seat::Ai(spec);
            }
        }
    }

    /// Selects the item a finding is about and centres the map on it.
    pub(crate) fn go_to_finding(&mut self, f: &Finding) {
        let (Some(_), Some(report)) = (self.state.resolved(), self.state.report()) else {
            return;
        };
        let board = &report.scenario.board;
        let from_subject = crate::scenario::edit::item_for(f);
        // Published-map warnings point at the map as a whole: the first
        // quoted space name in the message stands in.
        let item = from_subject.or_else(|| {
            f.message.split('"').skip(1).step_by(2).find_map(|n| {
                board
                    .find(n)
                    .map(|id| Item::Space(board.name(id).to_string()))
            })
        });
        let Some(item) = item else { return };
        let centre = match &item {
            Item::Space(name) => board.find(name).map(|id| board.space(id).pos),
            Item::Link(a, b) => match (board.find(a), board.find(b)) {
                (Some(a), Some(b)) => {
                    let (p, q) = (board.space(a).pos, board.space(b).pos);
                    Some(((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0))
                }
                // A link with a misspelt end: show the end that exists.
                (Some(a), None) | (None, Some(a)) => Some(board.space(a).pos),
                (None, None) => None,
            },
            Item::Block(side, name) => report
                .scenario
                .roster
                .find(*side, name)
                .and_then(|b| report.scenario.starting_setup().location(b))
                .map(|s| board.space(s).pos),
        };
        if let Some((x, y)) = centre {
            self.map.view.centre_on(egui::pos2(x, y));
        }
        self.state.select(Some(item));
    }

    // ------------------------------------------------------------ drawing

    /// Draws the whole window into `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        let frame_started = std::time::Instant::now();
        self.show_frame(ui);
        self.sim.note_frame(frame_started.elapsed());
        self.play.note_frame(frame_started.elapsed());
    }

    fn show_frame(&mut self, ui: &mut Ui) {
        let mut actions = Vec::new();
        // The Play tab has its own Ctrl+Z (a game decision, not an edit).
        if !self.dialogs.is_open() && !matches!(self.tab, Tab::Play | Tab::Replay) {
            actions.extend(chrome::shortcuts(ui, self.tab, self.state.selection()));
        }
        self.close_request(ui);
        self.map.sync(&self.state);
        self.setup_players
            .refresh(&self.state, self.balance.reports_kept());
        let state = &self.state;
        egui::Panel::top("top_bar").show(ui, |ui| {
            actions.extend(chrome::top_bar(ui, state, self.tab, &self.map));
        });
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            actions.extend(chrome::status_bar(ui, state, self.tab));
        });
        match self.tab {
            Tab::Setup => actions.extend(self.setup_tab(ui)),
            Tab::Rules => {
                egui::CentralPanel::default().show(ui, |ui| {
                    self.setup_players.show(ui, state);
                    ui.separator();
                    actions.extend(self.rules_panel.show(
                        ui,
                        state,
                        self.setup_players.ratings(),
                        &mut self.sim,
                    ));
                });
            }
            Tab::Play => actions.extend(self.play_tab(ui)),
            Tab::Replay => actions.extend(self.replay.show(ui)),
            Tab::Simulation => actions.extend(self.simulation_tab(ui)),
            Tab::Balance => actions.extend(self.balance_tab(ui)),
            Tab::Map | Tab::Deployment => actions.extend(self.map_tab(ui)),
        }
        if let Some(pending) = &self.pending {
            actions.extend(chrome::confirm_dialog(
                ui.ctx(),
                pending,
                &self.state.scenario_name(),
            ));
        }
        let ended = self.dialogs.show(ui.ctx());
        let could_close = self.allow_close;
        for action in actions {
            self.handle(action);
        }
        if let Some(end) = ended {
            self.dialog_ended(end);
        }
        // The user agreed to quit (and saved, if they chose to): close now.
        if self.allow_close && !could_close {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        let title = self.state.window_title();
        if title != self.shown_title {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }
    }

    /// The Simulation tab, once a scenario is open.
    fn simulation_tab(&mut self, ui: &mut Ui) -> Vec<Request> {
        let state = &self.state;
        match state.report() {
            Some(report) => self.sim.show(
                ui,
                state.resolved(),
                report.errors(),
                state.rules(),
                self.setup_players.ranked_for(state.variant()),
                state.scenario_revision(),
            ),
            None => {
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.label("Open a scenario to simulate it.");
                });
                Vec::new()
            }
        }
    }

    /// The Balance tab, once a scenario and a rule set are open.
    fn balance_tab(&mut self, ui: &mut Ui) -> Vec<Request> {
        let state = &self.state;
        let mut actions = Vec::new();
        let (doc, rules, variant) = (state.resolved(), state.rules(), state.variant());
        egui::CentralPanel::default().show(ui, |ui| match (doc, rules) {
            (Some(doc), Some(rules)) => {
                let make = || state::game_of(Some(doc), rules.clone(), variant);
                let bundle = setup::players::bundle_folder(state);
                actions = self
                    .balance
                    .show(ui, &make, doc, rules, variant, bundle.as_deref());
            }
            _ => {
                ui.label("Open a scenario and a rule set to measure its balance.");
            }
        });
        actions
    }

    /// The Setup tab: the findings beside the roster, deck and settings.
    fn setup_tab(&mut self, ui: &mut Ui) -> Vec<Request> {
        let mut actions = Vec::new();
        let state = &self.state;
        // Narrow windows: side panels give way, the central part keeps at least half.
        let total = ui.available_width();
        egui::Panel::right("side_panel")
            .default_size(theme::panel_default(total, 0.35, theme::SIDE_PANEL_WIDTH))
            .size_range(theme::panel_range(total, 0.35, theme::SIDE_PANEL_RANGE))
            .show(ui, |ui| {
                if side_panel::header(ui, state) {
                    actions.extend(self.findings.show(ui, state, true));
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.setup_players.show(ui, state);
            ui.separator();
            actions.extend(self.setup.show(ui, state));
        });
        actions
    }

    fn play_tab(&mut self, ui: &mut Ui) -> Vec<Request> {
        let state = &self.state;
        let report = state.report();
        self.play.rules_label = state.rules_label();
        self.play.show(
            ui,
            report.map(|r| &r.scenario),
            report.map_or(0, |r| r.errors()),
            state.rules(),
            self.setup_players.ranked_for(state.variant()),
            state.resolved(),
            state.path(),
        )
    }

    /// The Map and Deployment tabs: the map with the inspector or the
    /// deployment tools beside it (and the pools, deploying).
    fn map_tab(&mut self, ui: &mut Ui) -> Vec<Request> {
        let mut actions = Vec::new();
        let state = &self.state;
        // Narrow windows: side panels give way, the map keeps at least half.
        let total = ui.available_width();
        let tab = self.tab;
        egui::Panel::right("side_panel")
            .default_size(theme::panel_default(total, 0.3, theme::SIDE_PANEL_WIDTH))
            .size_range(theme::panel_range(total, 0.3, theme::SIDE_PANEL_RANGE))
            .show(ui, |ui| {
                if !side_panel::header(ui, state) {
                    return;
                }
                match tab {
                    Tab::Map => {
                        let centre = self.map.view.to_map(self.map.view.area().center());
                        actions.extend(self.inspector.show(ui, state, centre));
                    }
                    Tab::Deployment => actions.extend(self.deploy.tools(ui, state)),
                    Tab::Rules
                    | Tab::Simulation
                    | Tab::Setup
                    | Tab::Play
                    | Tab::Replay
                    | Tab::Balance => {}
                }
                ui.separator();
                actions.extend(self.findings.show(ui, state, self.map.has_backdrop()));
            });
        if tab == Tab::Deployment && state.report().is_some() {
            egui::Panel::left("pools")
                .default_size(theme::panel_default(total, 0.2, theme::POOLS_WIDTH))
                .size_range(theme::panel_range(total, 0.2, theme::POOLS_RANGE))
                .show(ui, |ui| actions.extend(self.deploy.pools(ui, state)));
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let link_class = self.inspector.link_class();
            let heat = self.sim.heat_source();
            actions.extend(
                self.map
                    .show(ui, state, tab, &mut self.deploy, link_class, heat),
            );
        });
        let map = &self.map;
        actions.extend(
            self.deploy
                .finish_drag(ui, state, |s, p| map.space_at(s, p)),
        );
        actions
    }

    /// Quitting with unsaved changes asks first.
    fn close_request(&mut self, ui: &mut Ui) {
        let requested = ui.ctx().input(|i| i.viewport().close_requested());
        if requested && self.state.dirty() && !self.allow_close {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
    }
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
