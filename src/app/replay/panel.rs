//! The Replay tab: a recorded game stepped through on the map. Next and
//! previous action, a slider over the whole game, jumps by part of the turn,
//! turn, year and battle round; the record (the text `play` prints) in step
//! with the map; seen as Caesar, as Pompey, or everything.
//!
//! A game comes from a record file (the window's file dialog), from the
//! Play tab, or from a simulation (re-played from its seeds on a thread of
//! its own, as a search player may take a while).

use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use egui::{Key, RichText, Ui};

use crate::app::play::board::{self, Marks, PlayBoard};
use crate::app::play::{game_log, info};
use crate::app::{FilePurpose, Replayed, Request, theme};
use crate::engine::{Game, State};
use crate::games::narrate;
use crate::games::record::{HUMAN, RecordFile};
use crate::games::trace::{Stride, Trace};
use crate::scenario::model::Side;
use crate::sim::game_and_player_seeds;
use crate::sim::runs::options::SimOptions;

/// Whose eyes an unfinished game's record is replayed through: its one
/// person's; in hot-seat nobody's until asked (either person may have
/// opened it, and neither may learn the other's secrets from it: the
/// second value says so). A finished game, or one between AIs, shows
/// everything.
fn in_progress_viewer(record: &RecordFile, trace: &Trace) -> (Option<Side>, bool) {
    if trace.last().is_over() {
        return (None, false);
    }
    let human = |e: &crate::games::record::PlayerEntry| e.player == HUMAN;
    match (human(&record.caesar), human(&record.pompey)) {
        (true, true) => (None, true),
        (true, false) => (Some(Side::Caesar), false),
        (false, true) => (Some(Side::Pompey), false),
        (false, false) => (None, false),
    }
}

/// What stands before a hot-seat replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Gate {
    /// Nothing: the game shows.
    #[default]
    Open,
    /// Whose view is to be shown?
    Ask,
    /// The seat is to be handed to this side first.
    HandOver(Side),
}

/// The Replay tab.
#[derive(Default)]
pub struct ReplayPanel {
    replayed: Option<Replayed>,
    /// A simulated game being re-played in the background.
    loading: Option<(String, Receiver<Replayed>)>,
    error: Option<String>,
    /// The position shown: after this many actions.
    at: usize,
    /// Whose eyes: `None` shows everything.
    viewer: Option<Side>,
    board: PlayBoard,
    /// The game's log as the viewer may know it.
    log: game_log::Cache,
    /// Changes with the game shown (the log is rebuilt then).
    generation: u64,
    /// A hot-seat game's question and hand-over, before it shows.
    gate: Gate,
    /// The pass the tab was last drawn in: a hot-seat replay come back to
    /// from another tab is handed over again.
    shown_pass: u64,
}

impl ReplayPanel {
    /// Shows a game from its first position.
    pub fn open(&mut self, replayed: Replayed) {
        if let Some(side) = replayed.seen_by {
            self.viewer = Some(side);
        }
        self.gate = match (replayed.hot_seat, replayed.seen_by) {
            (false, _) => Gate::Open,
            (true, None) => Gate::Ask,
            (true, Some(side)) => Gate::HandOver(side),
        };
        self.replayed = Some(replayed);
        // The last game's ring and zoom are not this game's.
        self.board.reset();
        self.generation += 1;
        self.loading = None;
        self.error = None;
        self.at = 0;
    }

    /// Reads a record file and re-plays it (errors are shown in the tab).
    pub fn open_file(&mut self, path: &std::path::Path) {
        match crate::games::trace::load_record(path) {
            Ok((record, game, trace)) => {
                let title = path.file_name().map_or(path.display().to_string(), |n| {
                    n.to_string_lossy().into_owned()
                });
                let players = [record.caesar.player.as_str(), record.pompey.player.as_str()];
                let (seen_by, hot_seat) = in_progress_viewer(&record, &trace);
                self.open(
                    Replayed::new(game, trace, title, players)
                        .seen_by(seen_by)
                        .hot_seat(hot_seat),
                );
            }
            Err(e) => {
                self.error = Some(format!("{}: {e}", path.display()));
            }
        }
    }

    /// Re-plays game `index` of a simulation run (its seed, players and
    /// rule set) in the background; the tab shows it when it is ready.
    pub fn open_simulated(&mut self, game: Game, options: &SimOptions, index: u64) {
        let (tx, rx) = channel();
        let options = options.clone();
        let title = format!("game {index} of the run seeded {}", options.seed);
        let name = title.clone();
        std::thread::spawn(move || {
            let (seed, player_seeds) = game_and_player_seeds(options.seed, index);
            let mut players = [
                options
                    .caesar
                    .player(Side::Caesar, player_seeds[0], options.omniscient),
                options
                    .pompey
                    .player(Side::Pompey, player_seeds[1], options.omniscient),
            ];
            let trace = Trace::play(&game, seed, &mut players);
            let (c, p) = (options.caesar.to_string(), options.pompey.to_string());
            let _ = tx.send(Replayed::new(game, trace, name, [&c, &p]));
        });
        self.loading = Some((title, rx));
        self.error = None;
    }

    /// Picks up a game re-played in the background; true while one is.
    pub fn poll(&mut self) -> bool {
        let Some((_, rx)) = &self.loading else {
            return false;
        };
        match rx.try_recv() {
            Ok(r) => {
                self.open(r);
                false
            }
            Err(TryRecvError::Empty) => true,
            Err(TryRecvError::Disconnected) => {
                self.error = Some("the replay thread stopped unexpectedly".into());
                self.loading = None;
                false
            }
        }
    }

    /// Blocks until a game re-played in the background is ready (tests).
    pub fn wait(&mut self) {
        while self.poll() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn replayed(&self) -> Option<&Replayed> {
        self.replayed.as_ref()
    }
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
    /// The position shown (after this many actions).
    pub fn position(&self) -> usize {
        self.at
    }
    pub fn set_position(&mut self, at: usize) {
        self.at = self.replayed.as_ref().map_or(0, |r| at.min(r.trace.len()));
    }
    /// The board's drawing (tests find where the map is).
    pub fn board(&self) -> &PlayBoard {
        &self.board
    }
    /// The state shown.
    pub fn state(&self) -> Option<&State> {
        self.replayed.as_ref().map(|r| r.trace.state(self.at))
    }

    /// The game's log as the viewer may know it, in the place and at the
    /// size Play gives it (beside or under the map, whole height or width);
    /// a click on a line goes there.
    fn log_panel(&mut self, ui: &mut Ui, total: f32) {
        let Some(r) = &self.replayed else { return };
        let rest = ui.available_rect_before_wrap().size();
        let below = game_log::log_below(self.board.view.bounds().size(), rest, total);
        let clicked = game_log::log_panel("replay_log", total, below)
            .show(ui, |ui| {
                ui.heading("Game log");
                let turns = self
                    .log
                    .get(&r.game, &r.trace, self.at, self.viewer, self.generation);
                let height = ui.available_height();
                game_log::show(ui, turns, height)
            })
            .inner;
        if let Some(c) = clicked {
            self.at = c.step;
            if let Some(space) = c.space {
                self.board.point_at(space);
            }
        }
    }

    pub fn show(&mut self, ui: &mut Ui) -> Vec<Request> {
        if self.poll() {
            ui.ctx().request_repaint_after(Duration::from_millis(50));
        }
        let mut actions = Vec::new();
        let pass = ui.ctx().cumulative_pass_nr();
        // Come back to from another tab: whoever sits here now may be the
        // other person.
        if self.gate == Gate::Open
            && self.shown_pass + 1 < pass
            && let Some(r) = &self.replayed
            && r.hot_seat
            && let Some(side) = r.seen_by
        {
            self.gate = Gate::HandOver(side);
        }
        self.shown_pass = pass;
        if self.gate != Gate::Open {
            self.gate_screen(ui);
            return actions;
        }
        let total = ui.available_width();
        egui::Panel::right("replay_side")
            .default_size(theme::panel_default(total, 0.4, theme::SIDE_PANEL_WIDTH))
            .size_range(theme::panel_range(total, 0.4, theme::PLAY_PANEL_RANGE))
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("replay_side_scroll")
                    .show(ui, |ui| self.side(ui, &mut actions));
            });
        self.log_panel(ui, total);
        egui::CentralPanel::no_frame().show(ui, |ui| match &self.replayed {
            Some(r) => {
                let state = r.trace.state(self.at);
                let battle = state.battle_info().map(|b| b.space);
                let moves = board::turn_moves(&r.trace, self.at);
                let marks = Marks {
                    battle,
                    selected: state.moving_group(),
                    moves: &moves,
                    ..Marks::default()
                };
                self.board.show(ui, &r.game, state, self.viewer, &marks);
            }
            None => {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() * 0.4);
                    ui.label(
                        RichText::new(
                            "Open a game record, replay a game from the Play tab, or click a game in a simulation's table.",
                        )
                        .weak(),
                    );
                });
            }
        });
        self.arrow_keys(ui);
        actions
    }

    /// The arrow keys step a replay back and on by one action, unless a
    /// text field has the keyboard.
    fn arrow_keys(&mut self, ui: &Ui) {
        if self.replayed.is_some() && !ui.ctx().egui_wants_keyboard_input() {
            let (left, right) = ui.input(|i| {
                (
                    i.key_pressed(Key::ArrowLeft),
                    i.key_pressed(Key::ArrowRight),
                )
            });
            if left {
                self.step(Stride::Action, false);
            }
            if right {
                self.step(Stride::Action, true);
            }
        }
    }

    /// A hot-seat replay's question, then its hand-over: nothing of the
    /// game shows (no board, no hand, no log) until the seat is taken.
    fn gate_screen(&mut self, ui: &mut Ui) {
        let Some(r) = &mut self.replayed else {
            self.gate = Gate::Open;
            return;
        };
        let mut next = self.gate;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.3);
                ui.label(RichText::new(&r.title).strong());
                match self.gate {
                    Gate::Ask => {
                        ui.label(
                            RichText::new("Whose view of this hot-seat game?")
                                .size(theme::ALERT_SIZE)
                                .strong(),
                        );
                        ui.label(
                            "The game is still in progress: each side may see only its own \
                             hand and blocks. The seat is handed over before anything shows.",
                        );
                        ui.add_space(10.0);
                        for side in Side::BOTH {
                            if ui.button(format!("Replay as {side}")).clicked() {
                                next = Gate::HandOver(side);
                            }
                        }
                    }
                    Gate::HandOver(side) => {
                        if info::hand_over(
                            ui,
                            format!("{side}'s view of the game"),
                            side,
                            format!("I am {side}: show the replay"),
                        ) {
                            r.seen_by = Some(side);
                            self.viewer = Some(side);
                            next = Gate::Open;
                        }
                        if ui.button("Another side's view…").clicked() {
                            next = Gate::Ask;
                        }
                    }
                    Gate::Open => {}
                }
            });
        });
        if next != self.gate {
            self.gate = next;
            self.generation += 1;
            ui.ctx().request_repaint();
        }
    }

    fn step(&mut self, stride: Stride, forward: bool) {
        if let Some(r) = &self.replayed {
            self.at = r.trace.seek(self.at, stride, forward);
        }
    }

    /// Steps back and forth by action, part of the turn, turn, year and
    /// battle round.
    fn navigation(&mut self, ui: &mut Ui, n: usize) {
        let mut go: Option<(Stride, bool)> = None;
        ui.horizontal(|ui| {
            if ui.button("|<").on_hover_text("The start").clicked() {
                self.at = 0;
            }
            if ui
                .button("<")
                .on_hover_text("Previous action (left arrow key)")
                .clicked()
            {
                go = Some((Stride::Action, false));
            }
            if ui
                .button(">")
                .on_hover_text("Next action (right arrow key)")
                .clicked()
            {
                go = Some((Stride::Action, true));
            }
            if ui.button(">|").on_hover_text("The end").clicked() {
                self.at = n;
            }
        });
        egui::Grid::new("replay_jumps")
            .num_columns(3)
            .spacing([6.0, 4.0])
            .show(ui, |ui| {
                for (stride, back, forward, what) in [
                    (Stride::Period, "< Phase", "Phase >", "part of the turn"),
                    (Stride::Turn, "< Turn", "Turn >", "game turn"),
                    (Stride::Year, "< Year", "Year >", "year"),
                    (
                        Stride::BattleRound,
                        "< Battle round",
                        "Battle round >",
                        "battle round",
                    ),
                ] {
                    if ui
                        .button(back)
                        .on_hover_text(format!("To the start of this or the previous {what}"))
                        .clicked()
                    {
                        go = Some((stride, false));
                    }
                    if ui
                        .button(forward)
                        .on_hover_text(format!("To the start of the next {what}"))
                        .clicked()
                    {
                        go = Some((stride, true));
                    }
                    ui.end_row();
                }
            });
        if let Some((stride, forward)) = go {
            self.step(stride, forward);
        }
    }

    fn side(&mut self, ui: &mut Ui, actions: &mut Vec<Request>) {
        ui.heading("Replay");
        if ui
            .button("Open record…")
            .on_hover_text("A game record written by Play, by `play --record` or by Save game")
            .clicked()
        {
            actions.push(Request::Choose(FilePurpose::OpenRecord(
                crate::app::RecordUse::Replay,
            )));
        }
        if let Some((title, _)) = &self.loading {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Re-playing {title}…"));
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(theme::ERROR, e);
        }
        let Some(r) = &self.replayed else {
            return;
        };
        let n = r.trace.len();
        ui.label(RichText::new(&r.title).strong());
        ui.label(RichText::new(&r.header).small());
        if let Some(side) = r.seen_by {
            ui.label(format!(
                "Seen as {side}: the game is still in progress, so {}'s secrets stay hidden.",
                side.other()
            ));
        } else {
            ui.horizontal(|ui| {
                ui.label("View as");
                ui.selectable_value(&mut self.viewer, None, "Everything");
                ui.selectable_value(&mut self.viewer, Some(Side::Caesar), "Caesar");
                ui.selectable_value(&mut self.viewer, Some(Side::Pompey), "Pompey");
            });
        }
        ui.separator();
        self.navigation(ui, n);
        let Some(r) = &self.replayed else {
            return;
        };
        let l = ui.label("Position");
        ui.add(egui::Slider::new(&mut self.at, 0..=n).text(format!("of {n}")))
            .labelled_by(l.id);
        let state = r.trace.state(self.at);
        ui.label(format!("Action {} of {n}", self.at));
        ui.separator();
        info::status(ui, &r.game, state);
        info::played(ui, &r.game, state, self.viewer);
        info::battle(ui, &r.game, state, self.viewer);
        let turns = self
            .log
            .get(&r.game, &r.trace, self.at, self.viewer, self.generation);
        if let Some(story) = game_log::battle_story(turns)
            && let Some(c) = game_log::show_battle(ui, story)
        {
            self.at = c.step;
            if let Some(space) = c.space {
                self.board.point_at(space);
            }
        }
        for side in Side::BOTH {
            if self.viewer.is_none_or(|v| v == side) {
                ui.label(format!(
                    "{side}'s hand: {}",
                    info::hand_text(&r.game, state, side)
                ));
            } else {
                ui.label(format!(
                    "{side}'s hand: {} cards",
                    state.view(side.other(), false).hand_size(side)
                ));
            }
        }
        ui.separator();
        if self.viewer.is_none() {
            egui::CollapsingHeader::new("Record (the text `play` prints)")
                .default_open(false)
                .show(ui, |ui| record(ui, r, self.at));
        }
    }
}

/// The game's log as `play` prints it, up to position `at` (it tells both
/// sides' secrets: shown only when viewing everything).
fn record(ui: &mut Ui, r: &Replayed, at: usize) {
    let end = r.trace.log_end(at);
    egui::ScrollArea::vertical()
        .id_salt("replay_record")
        .max_height(320.0)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            ui.label(RichText::new(&r.header).monospace());
            for event in &r.trace.log()[..end] {
                let line = narrate::record_line(&r.game, event);
                ui.label(RichText::new(line).monospace());
            }
            if at == r.trace.len() {
                let stats = narrate::stats_line(&r.trace.last().stats);
                ui.label(RichText::new(stats).monospace());
            }
        });
}
