//! The Play tab: a game on the map between people and AI players.
//!
//! Every decision is one of the engine's legal actions: the side list shows
//! them all in plain words (so nothing is unreachable), and the natural ones
//! are also made by pointing: a card of the hand, a space to start a group
//! from, a block then its destination, a city to levy in, a retreat space.
//! A click on the map only picks among the legal actions placed there
//! ([`crate::games::trace::action_space`]); the window decides no rule.
//!
//! The window shows the game as the side at the table may see it (its
//! `SideView`): with one person, that person's side; in hot-seat, the side
//! that took the seat, and a hand-over screen that shows neither side's
//! blocks nor cards between them. AI players decide on a thread of their
//! own, one action at a time at the chosen pace; the window stays live.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use egui::{Key, KeyboardShortcut, Modifiers, RichText, Ui};
use egui_plot::{Line, Plot};

use super::board::{BoardClick, Marks, PlayBoard};
use super::controls::{ClickGuard, ListPlaces, decision_button, headed_list, keep_places};
use super::info;
use crate::ai::Player;
use crate::ai::{AiSpec, NotAPlayer};
use crate::app::Replayed;
use crate::app::player_picker::RankedFor;
use crate::app::state::{NoGame, game_of};
use crate::app::{ExportKind, FilePurpose, RecordUse, Request, theme};
use crate::engine::{Action, Game, IllegalAction, Period, State};
use crate::games::record::{HUMAN, PlayerEntry, RecordSetup};
use crate::games::trace::{Trace, action_block, action_space, is_move};
use crate::scenario::format::LoadError;
use crate::scenario::model::{BlockId, Side, SpaceId};

/// The most of the window's width the side panel and the log may take:
/// together under a half (their frames take a few points), so the map
/// keeps the other half.
const PLAY_SHARE: f32 = 0.29;
/// The least height of the end screen's chart, when the panel is short,
/// and the most, when it is tall (the chart is all that is left to see).
const MIN_CHART_HEIGHT: f32 = 120.0;
const MAX_CHART_HEIGHT: f32 = 360.0;

/// Who sits at a side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    Human,
    Ai(AiSpec),
}

impl Seat {
    fn entry(&self, seed: u64) -> PlayerEntry {
        match self {
            Seat::Human => PlayerEntry::human(),
            Seat::Ai(spec) => PlayerEntry::ai(spec, seed),
        }
    }
    fn label(&self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Ai(spec) => crate::app::player_picker::label(spec),
        }
    }
}

/// The seats and seed of the next game.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaySettings {
    pub seats: [Seat; 2],
    pub seed: u64,
    /// Time between two AI actions, so their moves can be followed.
    pub pace: Duration,
}

impl Default for PlaySettings {
    fn default() -> Self {
        PlaySettings {
            seats: [Seat::Human, Seat::Ai(AiSpec::Heuristic)],
            seed: 1,
            pace: Duration::from_millis(400),
        }
    }
}

/// An AI deciding on its own thread.
struct Thinking {
    side: Side,
    /// The game's length when asked: an answer for another position is dropped.
    asked_at: usize,
    started: Instant,
    rx: Receiver<(Box<dyn Player>, Action)>,
}

/// A game in progress.
pub struct Session {
    pub game: Game,
    pub trace: Trace,
    pub seats: [Seat; 2],
    players: [Option<Box<dyn Player>>; 2],
    /// What the record says the game was played with (`None`: begun from a
    /// position, which a record cannot hold).
    setup: Option<RecordSetup>,
    thinking: Option<Thinking>,
    playout_counters: [Option<Arc<AtomicU64>>; 2],
    /// When the next AI action may be asked for.
    ai_ready_at: Instant,
    /// The human side whose eyes the window shows (hot-seat: who took the seat).
    seat_holder: Option<Side>,
    /// Hot-seat: the board is hidden until this side takes the seat.
    handover: Option<Side>,
    /// A block picked to move (its destinations are highlighted).
    chosen_block: Option<BlockId>,
    /// Several legal actions at the space clicked: the player picks one.
    choices: Option<(SpaceId, Vec<Action>)>,
    /// The last thing said to the player ("Nothing to do at Roma").
    note: Option<String>,
    /// After the game: show everything.
    reveal_all: bool,
    /// Where the game came from, for the title.
    title: String,
    /// Changes whenever the trace does (the log is rebuilt then).
    generation: u64,
}

/// A new generation for a changed trace, distinct across games.
fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What a new game is started from: the scenario, its errors, rule set
/// and variant, its document and file.
type Setup<'a> = (
    Option<&'a crate::scenario::model::Scenario>,
    (
        usize,
        Option<&'a crate::scenario::rules::RuleSet>,
        RankedFor<'a>,
    ),
    Option<&'a crate::scenario::format::ResolvedScenario>,
    Option<&'a Path>,
);

/// What would replace a game in progress, once the person says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replace {
    Start,
    Resume,
    Position,
}

/// The Play tab.
#[derive(Default)]
pub struct PlayPanel {
    pub settings: PlaySettings,
    session: Option<Session>,
    /// Paused AI: it acts only on "Step".
    pub paused: bool,
    /// Watching two AIs: whose eyes (`None`: everything).
    pub watch: Option<Side>,
    /// The rule set in force as the window names it: "rules-2.0
    /// (modified)" once the Rules tab changed a field.
    pub rules_label: String,
    /// Bring each AI action's place into view on the map and ring it.
    pub follow_ai: bool,
    error: Option<String>,
    board: PlayBoard,
    /// The slowest frame built while an AI was thinking.
    slowest_frame: Option<Duration>,
    /// The game's log as the viewer may know it.
    log: super::game_log::Cache,
    /// "Start game", "Resume game…" or "Start from position…" was pressed
    /// during a game: asking before discarding it.
    confirm: Option<Replace>,
    /// What keeps a double click to one decision.
    guard: ClickGuard,
    /// A game began: the "New game" settings fold away, so the game's
    /// decisions show without scrolling.
    fold_setup: bool,
    /// A consequential action clicked and not yet confirmed (a block to
    /// disband in winter): asked about in a window of its own, away from
    /// the list, so a stray click never takes a block off the map.
    ask: Option<Action>,
    /// The cards of each side's hand in the places they were dealt to; a
    /// card played or discarded leaves its place empty, so the others
    /// never move under the pointer.
    hand_slots: [Vec<Option<u8>>; 2],
    /// The blocks of the moving group, the choices at a space clicked and
    /// the list of decisions in the places they were first shown in; one
    /// done leaves its place empty.
    places: Places,
    /// The question about replacing the game, once brought into view.
    confirm_scrolled: Option<Replace>,
    /// 2.1: the card chosen to discard, not yet discarded: a discard is
    /// its own step, taken only when its confirmation says so.
    discard_pick: Option<u8>,
    /// The foot of the side panel on screen, as last drawn.
    panel_bottom: f32,
    /// The side panel's height, as last drawn: a short window (700 px) gets
    /// a shorter status area, so the hand and the list stay in view.
    panel_height: f32,
}

/// Why a person's decision was not taken ([`PlayPanel::act`]).
#[derive(Debug, thiserror::Error)]
pub enum NotTaken {
    #[error("no game")]
    NoGame,
    #[error("the game is over")]
    Over,
    #[error("{0} is played by the AI")]
    AiSeat(Side),
    #[error("hand the seat over first")]
    HandOver,
    #[error("{0}")]
    Illegal(IllegalAction),
}
impl PlayPanel {
    /// Seats the heuristic player of the file at `path` at `side` for the
    /// next game.
    pub fn load_player(&mut self, side: Side, path: &Path) -> Result<(), LoadError> {
        let spec = AiSpec::player_file(path)?;
        self.settings.seats[side.index()] = Seat::Ai(spec);
        Ok(())
    }

    /// Starts a new game on `game` with the settings; `setup` says what the
    /// record will name (its seed and players are filled in here).
    pub fn start(&mut self, game: Game, setup: Option<RecordSetup>) {
        let seed = self.settings.seed;
        let trace = Trace::new(&game, seed);
        let seats = self.settings.seats.clone();
        let player_seeds = [
            seed.wrapping_mul(2).wrapping_add(1),
            seed.wrapping_mul(2).wrapping_add(2),
        ];
        let setup = setup.map(|s| RecordSetup {
            seed,
            caesar: seats[0].entry(player_seeds[0]),
            pompey: seats[1].entry(player_seeds[1]),
            ..s
        });
        let title = format!("New game, seed {seed}");
        self.begin(game, trace, seats, player_seeds, setup, title);
    }

    /// Plays on from a position (a position file): no record can be saved.
    pub fn start_from(&mut self, game: Game, state: State, title: String) {
        let seats = self.settings.seats.clone();
        let seed = self.settings.seed;
        self.begin(
            game,
            Trace::from_state(state),
            seats,
            [seed.wrapping_mul(2) + 1, seed.wrapping_mul(2) + 2],
            None,
            title,
        );
    }

    /// Reads a position file and plays on from it.
    pub fn start_from_file(&mut self, path: &Path) {
        match crate::games::position_file::load_position(path) {
            Ok(loaded) => {
                let title = format!("From {}", path.display());
                self.start_from(loaded.game, loaded.state, title);
            }
            Err(e) => self.error = Some(format!("{}: {e}", path.display())),
        }
    }

    /// Resumes a saved game: its record re-played to its last position,
    /// its sides seated as the record names them. AI players start afresh
    /// (seeded from their recorded seed and the game's length).
    pub fn resume_file(&mut self, path: &Path) {
        let (record, game, trace) = match crate::games::trace::load_record(path) {
            Ok(x) => x,
            Err(e) => {
                self.error = Some(format!("{}: {e}", path.display()));
                return;
            }
        };
        let seat = |entry: &PlayerEntry| -> Result<Seat, NotAPlayer> {
            if entry.player == HUMAN {
                Ok(Seat::Human)
            } else {
                entry.player.parse::<AiSpec>().map(Seat::Ai)
            }
        };
        let seats = match (seat(&record.caesar), seat(&record.pompey)) {
            (Ok(a), Ok(b)) => [a, b],
            (Err(e), _) | (_, Err(e)) => {
                self.error = Some(format!("{}: {e}", path.display()));
                return;
            }
        };
        let n = trace.len() as u64;
        let player_seeds = [
            record.caesar.seed.unwrap_or(1) ^ n.wrapping_mul(0x9E37_79B9),
            record.pompey.seed.unwrap_or(2) ^ n.wrapping_mul(0x9E37_79B9),
        ];
        let setup = RecordSetup {
            scenario: record.scenario.clone(),
            variant: record.variant.clone(),
            seed: record.seed,
            caesar: record.caesar.clone(),
            pompey: record.pompey.clone(),
            omniscient: record.omniscient,
        };
        let title = format!("Resumed {}", path.display());
        self.settings.seats = seats.clone();
        self.settings.seed = record.seed;
        // Hot-seat: whoever opened the file may not be the side to play;
        // `begin` hands the seat over before any hand or block shows.
        self.begin(game, trace, seats, player_seeds, Some(setup), title);
    }

    fn begin(
        &mut self,
        game: Game,
        trace: Trace,
        seats: [Seat; 2],
        player_seeds: [u64; 2],
        setup: Option<RecordSetup>,
        title: String,
    ) {
        self.fold_setup = true;
        // Each hand's cards in the places they were dealt to, gaps where
        // cards left it: a resumed game's hand reads as it did when saved.
        self.hand_slots = Side::BOTH.map(|side| {
            (0..=trace.len()).fold(Vec::new(), |places, i| {
                keep_places(&places, trace.state(i).hand(side))
            })
        });
        self.discard_pick = None;
        // The last game's ring and zoom are not this game's.
        self.board.reset();
        let (players, counters) = seated_players(&seats, player_seeds);
        let humans: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| seats[s.index()] == Seat::Human)
            .collect();
        // Hot-seat: a new, resumed or positioned game opens on the hand-over
        // screen, the seat held by nobody yet: whoever clicked "Start" may
        // not be the side to play, and no hand shows before it is taken.
        let (seat_holder, handover) = match humans.as_slice() {
            [one] => (Some(*one), None),
            [_, _] => (None, trace.last().current_player()),
            _ => (None, None),
        };
        self.session = Some(Session {
            game,
            trace,
            seats,
            players,
            setup,
            thinking: None,
            playout_counters: counters,
            ai_ready_at: Instant::now(),
            seat_holder,
            handover,
            chosen_block: None,
            choices: None,
            note: None,
            reveal_all: false,
            title,
            generation: next_generation(),
        });
        self.error = None;
        self.slowest_frame = None;
    }

    // ------------------------------------------------------------ reading

    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
    /// The side waiting to take the seat (hot-seat hand-over), if any.
    pub fn handover(&self) -> Option<Side> {
        self.session.as_ref()?.handover
    }
    /// The slowest frame built while an AI was thinking.
    pub fn slowest_frame(&self) -> Option<Duration> {
        self.slowest_frame
    }
    /// Why the last click on a decision button was ignored, while the
    /// button says so.
    pub fn click_ignored(&self) -> Option<&'static str> {
        self.guard.ignored().map(|why| why.words())
    }
    /// The board's drawing (tests find spaces and blocks on it).
    pub fn board(&self) -> &PlayBoard {
        &self.board
    }
    /// Whether an AI is thinking now.
    pub fn is_thinking(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.thinking.is_some())
    }

    /// Records how long a frame took while an AI was thinking.
    pub fn note_frame(&mut self, took: Duration) {
        if self.is_thinking() {
            self.slowest_frame = Some(self.slowest_frame.map_or(took, |d| d.max(took)));
        }
    }

    /// Lets the AI players act until a person must decide or the game ends
    /// (tests; ignores the pace and the pause).
    pub fn settle(&mut self) {
        let Some(s) = &mut self.session else { return };
        loop {
            if let Some(t) = s.thinking.take() {
                if let Ok((player, action)) = t.rx.recv() {
                    s.players[t.side.index()] = Some(player);
                    if s.trace.len() == t.asked_at {
                        s.push(action);
                        follow(self.follow_ai, s, &mut self.board);
                    }
                }
                continue;
            }
            match s.trace.last().current_player() {
                Some(side) if s.seats[side.index()] != Seat::Human => s.ask_ai(side),
                _ => break,
            }
        }
    }

    // ------------------------------------------------------------ deciding

    /// Takes a legal action for the side to play (a person's decision).
    pub fn act(&mut self, action: Action) -> Result<(), NotTaken> {
        let Some(s) = &mut self.session else {
            return Err(NotTaken::NoGame);
        };
        let side = s.trace.last().current_player().ok_or(NotTaken::Over)?;
        if s.seats[side.index()] != Seat::Human {
            return Err(NotTaken::AiSeat(side));
        }
        if s.handover.is_some() {
            return Err(NotTaken::HandOver);
        }
        s.trace.push(&s.game, action).map_err(NotTaken::Illegal)?;
        s.after_decision(self.settings.pace);
        Ok(())
    }

    /// Takes back the last decision of the side at the table, when allowed.
    pub fn undo(&mut self) -> bool {
        match &mut self.session {
            Some(s) => s.undo_now(),
            None => false,
        }
    }

    /// Hot-seat: the side waiting takes the seat; its board shows.
    pub fn take_seat(&mut self) {
        if let Some(s) = &mut self.session
            && let Some(side) = s.handover.take()
        {
            s.seat_holder = Some(side);
        }
    }

    /// The record of the game so far (`None` when begun from a position).
    pub fn record(&self) -> Option<crate::games::record::RecordFile> {
        let s = self.session.as_ref()?;
        s.trace.record(s.setup.clone()?)
    }

    /// The side whose eyes the window shows now (`None`: everything).
    pub fn viewer(&self) -> Option<Side> {
        let s = self.session.as_ref()?;
        if s.reveal_all && s.trace.last().is_over() {
            return None;
        }
        match s.seat_holder {
            Some(side) => Some(side),
            None => self.watch,
        }
    }

    /// A click on the board, as a person's decision.
    pub fn click(&mut self, click: BoardClick) {
        let pace = self.settings.pace;
        if let Some(s) = &mut self.session
            && let Some(action) = s.clicked(click)
        {
            s.decide(action, pace);
        }
    }

    /// The spaces a click would act on now, for the board's highlights.
    fn targets(s: &Session) -> Vec<SpaceId> {
        let state = s.trace.last();
        let Some(side) = state.current_player() else {
            return Vec::new();
        };
        if s.seats[side.index()] != Seat::Human || s.handover.is_some() {
            return Vec::new();
        }
        let mut legal = Vec::new();
        state.legal_actions(&s.game, &mut legal);
        let mut out: Vec<SpaceId> = legal
            .iter()
            .filter(|a| {
                s.chosen_block
                    .is_none_or(|b| action_block(**a) == Some(b) || !is_move(**a))
            })
            .filter_map(|a| action_space(state, *a))
            .collect();
        out.sort_by_key(|s| s.0);
        out.dedup();
        out
    }

    // ------------------------------------------------------------ drawing

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn show(
        &mut self,
        ui: &mut Ui,
        scenario: Option<&crate::scenario::model::Scenario>,
        errors: usize,
        rules: Option<&crate::scenario::rules::RuleSet>,
        ranked_for: RankedFor<'_>,
        resolved: Option<&crate::scenario::format::ResolvedScenario>,
        path: Option<&Path>,
    ) -> Vec<Request> {
        let mut actions = Vec::new();
        self.drive(ui.ctx());
        let shown = self.session.as_ref().map(|s| s.generation);
        self.guard.frame(ui, shown);

        if !ui.ctx().egui_wants_keyboard_input()
            && self.handover().is_none()
            && ui.input_mut(|i| {
                i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Z))
            })
        {
            self.undo();
        }
        // Narrow windows: the panels give way, the map keeps at least half.
        let total = ui.available_width();
        egui::Panel::right("play_side")
            .default_size(theme::panel_default(
                total,
                PLAY_SHARE,
                theme::SIDE_PANEL_WIDTH,
            ))
            .size_range(theme::panel_range(
                total,
                PLAY_SHARE,
                theme::PLAY_PANEL_RANGE,
            ))
            .show(ui, |ui| {
                let setup = (scenario, (errors, rules, ranked_for), resolved, path);
                self.side_panel(ui, &mut actions, setup);
            });
        let below = self.log_below(ui.available_rect_before_wrap().size(), total);
        self.log_panel(ui, total, below);
        egui::CentralPanel::no_frame().show(ui, |ui| self.centre(ui));
        actions
    }

    /// The side panel. During a game, the game's header, the AI's controls
    /// and the slots stand above the scrolled part: scrolling never moves
    /// them, and opening "New game" (at the foot) never does either.
    fn side_panel(&mut self, ui: &mut Ui, actions: &mut Vec<Request>, setup: Setup<'_>) {
        self.panel_bottom = ui.max_rect().bottom();
        self.panel_height = ui.max_rect().height();
        let playing = self
            .session
            .as_ref()
            .is_some_and(|s| !s.trace.last().is_over());
        let slot = if playing {
            self.fixed_top(ui, actions)
        } else {
            None
        };
        // The scroll bar always shown: one appearing would narrow the
        // panel and move every button in it.
        egui::ScrollArea::vertical()
            .id_salt("play_side_scroll")
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
            .show(ui, |ui| {
                if playing {
                    self.decisions(ui, actions, slot);
                    ui.separator();
                    self.setup_and_files(ui, actions, setup);
                } else {
                    ui.heading("Play");
                    self.setup_and_files(ui, actions, setup);
                    if self.session.is_some() {
                        self.top(ui, actions);
                        self.decisions(ui, actions, None);
                    }
                }
            });
    }

    /// The game's header and the AI's controls, then (a decision open,
    /// not handing over) the slots; the slot clicked, if any.
    fn fixed_top(&mut self, ui: &mut Ui, actions: &mut Vec<Request>) -> Option<Action> {
        self.top(ui, actions);
        let my_turn = self.my_turn();
        let s = self.session.as_ref()?;
        if s.handover.is_some() {
            return None;
        }
        let state = s.trace.last();
        let mut legal = Vec::new();
        state.legal_actions(&s.game, &mut legal);
        ui.separator();
        slots(ui, s, &legal, my_turn, &mut self.guard)
    }

    /// Whether a person is to decide now.
    fn my_turn(&self) -> bool {
        self.session.as_ref().is_some_and(|s| {
            s.trace
                .last()
                .current_player()
                .is_some_and(|side| s.seats[side.index()] == Seat::Human)
        })
    }

    /// The log's height when it goes under the map, else `None` (see
    /// [`super::game_log::log_below`]).
    fn log_below(&self, rest: egui::Vec2, total: f32) -> Option<f32> {
        self.session.as_ref()?;
        super::game_log::log_below(self.board.view.bounds().size(), rest, total)
    }

    /// The game's log beside the map, as the side at the table may know it
    /// (nothing during a hot-seat hand-over); a click on a line shows its
    /// place on the map.
    fn log_panel(&mut self, ui: &mut Ui, total: f32, below: Option<f32>) {
        let viewer = self.viewer();
        let Some(s) = &self.session else { return };
        let clicked = super::game_log::log_panel("play_log", total, below)
            .show(ui, |ui| {
                ui.heading("Game log");
                if s.handover.is_some() {
                    ui.label(RichText::new("Hidden until the seat is taken.").weak());
                    return None;
                }
                let n = s.trace.len();
                let turns = self.log.get(&s.game, &s.trace, n, viewer, s.generation);
                let height = ui.available_height();
                super::game_log::show(ui, turns, height)
            })
            .inner;
        if let Some(space) = clicked.and_then(|c| c.space) {
            self.board.point_at(space);
        }
    }

    /// Lets the AI act at the chosen pace, and picks up its answers.
    fn drive(&mut self, ctx: &egui::Context) {
        let pace = self.settings.pace;
        let paused = self.paused;
        let Some(s) = &mut self.session else { return };
        if let Some(t) = &s.thinking {
            match t.rx.try_recv() {
                Ok((player, action)) => {
                    let t = s.thinking.take().expect("thinking");
                    s.players[t.side.index()] = Some(player);
                    if s.trace.len() == t.asked_at {
                        s.push(action);
                        s.ai_ready_at = Instant::now() + pace;
                        follow(self.follow_ai, s, &mut self.board);
                    }
                }
                Err(TryRecvError::Empty) => {
                    ctx.request_repaint_after(Duration::from_millis(50));
                    return;
                }
                Err(TryRecvError::Disconnected) => {
                    s.thinking = None;
                    s.note = Some("the AI stopped unexpectedly".into());
                    return;
                }
            }
        }
        let Some(side) = s.trace.last().current_player() else {
            return;
        };
        if s.seats[side.index()] == Seat::Human || paused {
            return;
        }
        let now = Instant::now();
        if now >= s.ai_ready_at {
            s.ask_ai(side);
            ctx.request_repaint_after(Duration::from_millis(50));
        } else {
            ctx.request_repaint_after(s.ai_ready_at - now);
        }
    }

    /// Who sits at each side (the best player for the rule set first),
    /// their playouts, and the seed.
    fn seats_grid(&mut self, ui: &mut Ui, actions: &mut Vec<Request>, ranked_for: RankedFor<'_>) {
        egui::Grid::new("play_seats")
            .num_columns(2)
            .spacing([10.0, 4.0])
            .show(ui, |ui| {
                for side in Side::BOTH {
                    let seat = &mut self.settings.seats[side.index()];
                    seat_row(ui, side, seat, actions, ranked_for);
                }
                let l = ui.label("Seed");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut self.settings.seed))
                        .labelled_by(l.id);
                    if ui
                        .button("New seed")
                        .on_hover_text("A seed from the clock")
                        .clicked()
                    {
                        self.settings.seed = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000);
                    }
                });
                ui.end_row();
            });
    }

    /// The new game's settings, then resuming or starting from a file.
    fn setup_and_files(
        &mut self,
        ui: &mut Ui,
        actions: &mut Vec<Request>,
        (scenario, rules, resolved, path): Setup<'_>,
    ) {
        self.setup_ui(ui, actions, scenario, rules, resolved, path);
        self.files_row(ui, actions);
    }

    #[allow(clippy::too_many_arguments)]
    fn setup_ui(
        &mut self,
        ui: &mut Ui,
        actions: &mut Vec<Request>,
        scenario: Option<&crate::scenario::model::Scenario>,
        (errors, rules, ranked_for): (
            usize,
            Option<&crate::scenario::rules::RuleSet>,
            RankedFor<'_>,
        ),
        resolved: Option<&crate::scenario::format::ResolvedScenario>,
        path: Option<&Path>,
    ) {
        let variant = ranked_for.variant;
        let open = self.session.is_none();
        let mut header = egui::CollapsingHeader::new("New game").default_open(open);
        if std::mem::take(&mut self.fold_setup) {
            header = header.open(Some(false));
        }
        header.show(ui, |ui| {
            self.seats_grid(ui, actions, ranked_for);
            // The rule set the game is played under, changes included.
            let label = if self.rules_label.is_empty() {
                variant
            } else {
                self.rules_label.as_str()
            };
            ui.label(RichText::new(format!("Rule set: {label}")).weak());
            let startable = match (scenario, rules) {
                (Some(_), Some(_)) if errors == 0 => None,
                (Some(_), Some(_)) => Some(format!("the scenario has {errors} error(s)")),
                _ => Some("no scenario or rule set is loaded".to_string()),
            };
            ui.horizontal_wrapped(|ui| {
                let start = ui
                    .add_enabled(startable.is_none(), egui::Button::new("Start game"))
                    .on_disabled_hover_text(startable.clone().unwrap_or_default());
                // A game in progress is not thrown away without asking.
                if start.clicked() {
                    if self.in_progress() {
                        self.confirm = Some(Replace::Start);
                    } else {
                        self.start_new(rules, variant, resolved, path);
                    }
                }
                if let Some(why) = &startable {
                    ui.label(RichText::new(why).color(theme::WARNING));
                }
            });
            if self.confirm == Some(Replace::Start) && self.ask_replace(ui) {
                self.start_new(rules, variant, resolved, path);
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(theme::ERROR, e);
        }
    }

    /// Starts a game on the window's scenario and rule set.
    fn start_new(
        &mut self,
        rules: Option<&crate::scenario::rules::RuleSet>,
        variant: &str,
        resolved: Option<&crate::scenario::format::ResolvedScenario>,
        path: Option<&Path>,
    ) {
        let Some(rules) = rules else {
            self.error = Some(NoGame::NothingLoaded.to_string());
            return;
        };
        match game_of(resolved, rules.clone(), variant) {
            Ok(game) => {
                let setup = resolved.map(|doc| {
                    let (scenario, variant) = RecordSetup::sources(path, doc, variant, rules);
                    RecordSetup {
                        scenario,
                        variant,
                        seed: 0,
                        caesar: PlayerEntry::human(),
                        pompey: PlayerEntry::human(),
                        omniscient: false,
                    }
                });
                self.start(game, setup);
            }
            Err(why) => self.error = Some(why.to_string()),
        }
    }

    /// The AI's pace, pause and step, whose eyes to watch two AIs with,
    /// and what the AI is thinking.
    fn ai_controls(&mut self, ui: &mut Ui) {
        let Some(s) = &mut self.session else {
            return;
        };
        let ais = s.seats.iter().any(|x| *x != Seat::Human);
        if ais {
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("AI pace");
                let mut ms = self.settings.pace.as_millis() as u64;
                // The slider gives way in a narrow panel: at its full width
                // with its value and words it would be wider than the panel,
                // which then overflows the window's edge and the map.
                ui.spacing_mut().slider_width = (ui.available_width() - 190.0).clamp(30.0, 100.0);
                ui.add(
                    egui::Slider::new(&mut ms, 0..=2000)
                        // Fine steps at the quick end, where a person sets it.
                        .logarithmic(true)
                        .suffix(" ms"),
                )
                .labelled_by(l.id);
                // Words of their own, which wrap to the next line when the
                // panel is narrow (a slider's own text never wraps).
                ui.label("per action");
                // The checkboxes on a line of their own: beside a short
                // pace they would reach under the scroll bar.
                ui.end_row();
                self.settings.pace = Duration::from_millis(ms);
                ui.checkbox(&mut self.paused, "Pause AI");
                ui.checkbox(&mut self.follow_ai, "Follow the AI on the map")
                    .on_hover_text("Bring the place of each AI action into view and ring it");
                if self.paused
                    && ui.button("Step AI").clicked()
                    && let Some(side) = s.trace.last().current_player()
                    && s.seats[side.index()] != Seat::Human
                    && s.thinking.is_none()
                {
                    s.ask_ai(side);
                }
            });
            if s.seats.iter().all(|x| *x != Seat::Human) {
                ui.horizontal(|ui| {
                    ui.label("Watch as");
                    ui.selectable_value(&mut self.watch, None, "Everything");
                    ui.selectable_value(&mut self.watch, Some(Side::Caesar), "Caesar");
                    ui.selectable_value(&mut self.watch, Some(Side::Pompey), "Pompey");
                });
            }
        }
        // One line of a fixed height whatever it says (a spinner is taller
        // than words): nothing below it moves while an AI thinks.
        let row = ui.spacing().interact_size.y;
        let took = self.slowest_frame.map_or("none yet".to_string(), |d| {
            format!("{:.1} ms", d.as_secs_f64() * 1000.0)
        });
        let slowest = RichText::new(format!(
            "· slowest window frame while the AI thought: {took}"
        ))
        .weak()
        .small();
        ui.allocate_ui_with_layout(
            egui::vec2(ui.available_width(), row),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                ui.set_height(row);
                match &s.thinking {
                    Some(t) => {
                        ui.add(egui::Spinner::new().size(row * 0.7));
                        let done = s.playout_counters[t.side.index()]
                            .as_ref()
                            .map(|c| c.load(Ordering::Relaxed));
                        let secs = t.started.elapsed().as_secs_f32();
                        ui.label(match done {
                            Some(n) if n > 0 => {
                                format!("{} is thinking: {n} playouts, {secs:.1} s", t.side)
                            }
                            _ => format!("{} is thinking… {secs:.1} s", t.side),
                        });
                    }
                    None if ais => {
                        ui.label(RichText::new("No AI is thinking").weak());
                    }
                    None => {
                        // Cut to the panel: never widening it.
                        ui.add(
                            egui::Label::new(
                                RichText::new("Hot-seat: a hand-over screen between turns").weak(),
                            )
                            .truncate(),
                        );
                    }
                }
                if ais {
                    ui.add(egui::Label::new(slowest).truncate());
                }
            },
        );
    }

    /// A game is on and not over: replacing it asks first.
    fn in_progress(&self) -> bool {
        self.session
            .as_ref()
            .is_some_and(|s| !s.trace.is_empty() && !s.trace.last().is_over())
    }

    /// Resume a saved game, start from a position file: during a game,
    /// only once the person says the game may go.
    fn files_row(&mut self, ui: &mut Ui, actions: &mut Vec<Request>) {
        ui.horizontal_wrapped(|ui| {
            let resume = ui
                .button("Resume game…")
                .on_hover_text("Play on from a saved game record")
                .clicked()
                .then_some(Replace::Resume);
            let position = ui
                .button("Start from position…")
                .on_hover_text("Play on from a position file (docs/formats.md)")
                .clicked()
                .then_some(Replace::Position);
            match resume.or(position) {
                Some(r) if self.in_progress() => self.confirm = Some(r),
                Some(r) => actions.push(choose(r)),
                None => {}
            }
        });
        if let Some(r) = self.confirm.filter(|r| *r != Replace::Start)
            && self.ask_replace(ui)
        {
            actions.push(choose(r));
        }
    }

    /// Asks whether the game in progress may be discarded for what
    /// [`Self::confirm`] holds; true once the person says so.
    fn ask_replace(&mut self, ui: &mut Ui) -> bool {
        let Some(r) = self.confirm else {
            self.confirm_scrolled = None;
            return false;
        };
        let (question, yes) = match r {
            Replace::Start => (
                "A game is in progress. Discard it and start a new one?",
                "Discard it and start",
            ),
            Replace::Resume => (
                "A game is in progress. Discard it and resume a saved game?",
                "Discard it and choose a saved game",
            ),
            Replace::Position => (
                "A game is in progress. Discard it and play on from a position?",
                "Discard it and choose a position",
            ),
        };
        let asked = ui.label(RichText::new(question).color(theme::WARNING));
        // Brought into view once: below the fold the click on "Resume
        // game…" would seem to do nothing.
        if self.confirm_scrolled != Some(r) {
            asked.scroll_to_me(Some(egui::Align::Center));
            self.confirm_scrolled = Some(r);
        }
        let mut go = false;
        ui.horizontal_wrapped(|ui| {
            if ui.button("Keep playing").clicked() {
                self.confirm = None;
            }
            if ui.button(yes).clicked() {
                self.confirm = None;
                go = true;
            }
        });
        go
    }

    /// The game's header and the AI's controls.
    fn top(&mut self, ui: &mut Ui, actions: &mut Vec<Request>) {
        let viewer = self.viewer();
        let record_text = self.record().map(|r| r.to_ron() + "\n");
        let Some(s) = &mut self.session else {
            return;
        };
        game_header(ui, s, viewer, record_text, actions);
        // The same height whoever sits at the sides (AI or hot-seat), so
        // the decisions below stand at one height in every game.
        let rows = if s.seats.iter().all(|x| *x != Seat::Human) {
            AI_ROWS + 1.0
        } else {
            AI_ROWS
        };
        fixed_area(ui, "play_ai", rows, |ui| self.ai_controls(ui));
    }

    /// The decisions of the side at the table, in places that never move
    /// (the slots are above, `slot` the one clicked there): the status and
    /// the hand in areas of fixed height, then the list of actions; the
    /// battle and anything else whose length changes below them.
    fn decisions(&mut self, ui: &mut Ui, actions: &mut Vec<Request>, slot: Option<Action>) {
        let viewer = self.viewer();
        let pace = self.settings.pace;
        let Some(s) = &mut self.session else {
            return;
        };
        ui.separator();
        let state = s.trace.last().clone();
        if let Some(side) = s.handover {
            ui.label(format!("Hand the seat to {side}."));
            return;
        }
        if state.is_over() {
            // Nothing is left to decide: the result and the whole chart in
            // the panel's height, no slots, no hand, nothing to scroll to.
            info::status(ui, &s.game, &state);
            info::played(ui, &s.game, &state, viewer);
            ui.separator();
            game_over(ui, s, actions, self.panel_bottom);
            return;
        }
        let to_play = state.current_player();
        let my_turn = to_play.is_some_and(|side| s.seats[side.index()] == Seat::Human);
        let mut legal = Vec::new();
        state.legal_actions(&s.game, &mut legal);
        // The actions with no place on the map are in slots of their own,
        // above the scrolled part (see `fixed_top`): `slot` is the one clicked.
        let mut picked = slot;
        // Fixed for the window's height: a short window gets fewer rows
        // (the area scrolls), never a height that changes during play.
        let status_rows = if self.panel_height < SHORT_PANEL {
            STATUS_ROWS_SHORT
        } else {
            STATUS_ROWS
        };
        fixed_area(ui, "play_status", status_rows, |ui| {
            info::status(ui, &s.game, &state);
            info::played(ui, &s.game, &state, viewer);
            if let Some(n) = &s.note {
                ui.colored_label(theme::WARNING, n);
            }
        });
        ui.separator();
        // The hand of the side at the table.
        let hand_slots = &mut self.hand_slots;
        let hand_rows = hand_rows(&s.game);
        fixed_area(ui, "play_hand", hand_rows, |ui| match viewer {
            Some(me) => {
                let playable = my_turn && to_play == Some(me);
                let places = &mut hand_slots[me.index()];
                *places = keep_places(places, state.hand(me));
                let table = Table {
                    s,
                    state: &state,
                    guard: &mut self.guard,
                    discard_pick: self.discard_pick,
                };
                picked = picked.or(hand(ui, table, me, playable, places));
            }
            None => {
                for side in Side::BOTH {
                    ui.label(format!(
                        "{side}'s hand: {}",
                        info::hand_text(&s.game, &state, side)
                    ));
                }
            }
        });
        ui.separator();
        if my_turn {
            let places = &mut self.places;
            picked = picked.or(placed_actions(
                ui,
                s,
                (&state, &legal),
                &mut self.guard,
                places,
            ));
        } else if let Some(side) = to_play {
            ui.label(format!("{side} (AI) to play."));
        }
        let picked = discard_step(
            ui,
            s,
            &legal,
            picked,
            &mut self.discard_pick,
            &mut self.guard,
        );
        // The battle and its story below the decisions, which they never move.
        ui.separator();
        info::battle(ui, &s.game, &state, viewer);
        battle_story(ui, s, viewer, &mut self.log, &mut self.board);
        let legal = if my_turn { legal } else { Vec::new() };
        if let Some(a) = confirmed(&mut self.ask, ui, (&s.game, &state), &legal, picked) {
            s.decide(a, pace);
        }
    }

    fn centre(&mut self, ui: &mut Ui) {
        let viewer = self.viewer();
        let Some(s) = &self.session else {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.4);
                ui.label(
                    RichText::new("Choose the players and start a game (the panel on the right).")
                        .weak(),
                );
            });
            return;
        };
        if let Some(side) = s.handover {
            // No undo here: whoever sits at the hand-over screen may be the
            // other person, who must not take back (or see) the last
            // decision. It is offered once its own side holds the seat.
            let mut take = false;
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.35);
                take = info::hand_over(
                    ui,
                    format!("{side} to play"),
                    side,
                    format!("I am {side}: show my board"),
                );
            });
            if take {
                self.take_seat();
            }
            return;
        }
        let state = s.trace.last().clone();
        let targets = Self::targets(s);
        let chosen: Vec<BlockId> = s.chosen_block.into_iter().collect();
        let moves = super::board::turn_moves(&s.trace, s.trace.len());
        let marks = Marks {
            targets: &targets,
            selected: state.moving_group(),
            chosen_blocks: &chosen,
            battle: state.battle_info().map(|b| b.space),
            moves: &moves,
        };
        let game = s.game.clone();
        let click = self.board.show(ui, &game, &state, viewer, &marks);
        // A click on the board decides too: none on a position just shown.
        if let Some(c) = click
            && !self.guard.just_shown()
        {
            self.click(c);
        }
    }
}

impl Session {
    fn push(&mut self, action: Action) {
        if self.trace.push(&self.game, action).is_err() {
            self.note = Some(format!(
                "the AI chose an illegal action: {}",
                self.game.action_text(action)
            ));
        }
        self.after_push();
    }

    /// After any action: hot-seat hands over when the other person decides.
    fn after_push(&mut self) {
        self.generation = next_generation();
        self.chosen_block = self.chosen_block.filter(|b| {
            self.trace.last().location(*b).is_some() && self.trace.last().moving_group().is_some()
        });
        // The choices at the space clicked stay while some are left to a
        // person ("At Roma": another step to add), in their places.
        self.choices = self.choices.take().and_then(|(space, _)| {
            let state = self.trace.last();
            let side = state.current_player()?;
            if self.seats[side.index()] != Seat::Human {
                return None;
            }
            let mut legal = Vec::new();
            state.legal_actions(&self.game, &mut legal);
            legal.retain(|a| action_space(state, *a) == Some(space));
            (legal.len() >= 2).then_some((space, legal))
        });
        let humans = self.seats.iter().filter(|s| **s == Seat::Human).count();
        if humans == 2
            && let Some(next) = self.trace.last().current_player()
            && Some(next) != self.seat_holder
        {
            self.handover = Some(next);
        }
    }

    fn after_decision(&mut self, pace: Duration) {
        self.note = None;
        self.after_push();
        self.ai_ready_at = Instant::now() + pace;
    }

    /// What a click on the board decides, if anything: the legal action
    /// placed there, the chosen block's move there, or (several) a choice
    /// offered in the side panel.
    fn clicked(&mut self, click: BoardClick) -> Option<Action> {
        let state = self.trace.last();
        let side = state.current_player()?;
        if self.seats[side.index()] != Seat::Human || self.handover.is_some() {
            return None;
        }
        let mut legal = Vec::new();
        state.legal_actions(&self.game, &mut legal);
        self.note = None;
        self.choices = None;
        // A block chosen, then its destination.
        if let Some(b) = self.chosen_block {
            let moves: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| action_block(*a) == Some(b) && is_move(*a))
                .filter(|a| action_space(state, *a) == Some(click.space))
                .collect();
            if moves.len() == 1 {
                return Some(moves[0]);
            }
        }
        // A block of one's own: its own action where it stands (a step
        // added, a hit taken), or pick it to move.
        if let Some(b) = click.block.filter(|b| state.side(*b) == side) {
            let own: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| action_block(*a) == Some(b) && !is_move(*a))
                .collect();
            if own.len() == 1 {
                return Some(own[0]);
            }
            if legal
                .iter()
                .any(|a| action_block(*a) == Some(b) && is_move(*a))
            {
                self.chosen_block = Some(b);
                return None;
            }
        }
        let here: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| action_space(state, *a) == Some(click.space))
            .collect();
        match here.len() {
            0 => {
                self.note = Some(self.nothing_at(state, &legal, click.space));
                None
            }
            1 => Some(here[0]),
            _ => {
                self.choices = Some((click.space, here));
                None
            }
        }
    }

    /// What to say of a click where nothing can be done: with a block
    /// picked, where that block may go instead (the engine's legal moves;
    /// why not here is the rules', e.g. a road's limit, 4.31 and 6.11).
    fn nothing_at(&self, state: &State, legal: &[Action], space: SpaceId) -> String {
        let at = self.game.space_name(space);
        let Some(b) = self.chosen_block else {
            return format!("Nothing to do at {at} now");
        };
        let mut to: Vec<&str> = Vec::new();
        for a in legal
            .iter()
            .filter(|a| action_block(**a) == Some(b) && is_move(**a))
        {
            if let Some(s) = action_space(state, *a).map(|s| self.game.space_name(s))
                && !to.contains(&s)
            {
                to.push(s);
            }
        }
        let name = self.game.block_name(b);
        match to.as_slice() {
            [] => format!("{name} cannot move now"),
            _ => format!(
                "{name} cannot move to {at} now; it may move to {}",
                to.join(", ")
            ),
        }
    }

    /// Where the action at `i` of the trace happened: its space, or the
    /// battle it was part of (following the AI points there).
    pub fn acted_at(&self, i: usize) -> Option<SpaceId> {
        let before = self.trace.state(i);
        let action = self.trace.action(i);
        action_space(before, action).or(before.battle_info().map(|b| b.space))
    }

    /// A person's decision from the side panel.
    fn decide(&mut self, action: Action, pace: Duration) {
        if self.handover.is_some() {
            return;
        }
        match self.trace.push(&self.game, action) {
            Ok(()) => self.after_decision(pace),
            Err(e) => self.note = Some(e.to_string()),
        }
    }

    /// The person whose last decision Undo would take back: the side of the
    /// last action, when a person played it and that person holds the seat.
    /// In hot-seat the other person's decision is never theirs to take back:
    /// it would show them the position their opponent saw.
    fn undoer(&self) -> Option<Side> {
        let i = self.trace.len().checked_sub(1)?;
        let side = self.trace.decider(i);
        (self.seats[side.index()] == Seat::Human && self.seat_holder == Some(side)).then_some(side)
    }

    fn undo_now(&mut self) -> bool {
        // Whoever sits at the hand-over screen may be the other person: no
        // seat's decision is taken back there (issue 55).
        if self.handover.is_some() {
            return false;
        }
        let Some(side) = self.undoer() else {
            return false;
        };
        let Some(at) = self.trace.undo_point(&self.game, side) else {
            return false;
        };
        self.trace.truncate(at);
        self.generation = next_generation();
        self.thinking = None;
        self.seat_holder = Some(side);
        self.chosen_block = None;
        self.choices = None;
        self.note = None;
        true
    }

    /// Asks `side`'s AI for its action on a thread of its own.
    fn ask_ai(&mut self, side: Side) {
        if self.thinking.is_some() {
            return;
        }
        let Some(mut player) = self.players[side.index()].take() else {
            return;
        };
        let (tx, rx) = channel();
        let game = self.game.clone();
        let state = self.trace.last().clone();
        std::thread::spawn(move || {
            let mut legal = Vec::new();
            state.legal_actions(&game, &mut legal);
            let action = crate::ai::decide(&mut player, &game, &state, &legal);
            let _ = tx.send((player, action));
        });
        if let Some(c) = &self.playout_counters[side.index()] {
            c.store(0, Ordering::Relaxed);
        }
        self.thinking = Some(Thinking {
            side,
            asked_at: self.trace.len(),
            started: Instant::now(),
            rx,
        });
    }
}

/// The game's title, its seats, and saving, replaying and undoing it.
fn game_header(
    ui: &mut Ui,
    s: &mut Session,
    viewer: Option<Side>,
    record_text: Option<String>,
    actions: &mut Vec<Request>,
) {
    ui.separator();
    ui.label(RichText::new(&s.title).strong());
    ui.label(
        RichText::new(format!(
            "Caesar: {}, Pompey: {}",
            s.seats[0].label(),
            s.seats[1].label()
        ))
        .small(),
    );
    ui.horizontal_wrapped(|ui| {
        // On the hand-over screen nobody holds the seat: the record holds
        // both hands, so it waits until the seat is taken.
        let why_not = if s.handover.is_some() {
            "Take the seat first: the record holds both sides' hands"
        } else {
            "A game begun from a position cannot be written as a record"
        };
        if ui
            .add_enabled(
                record_text.is_some() && s.handover.is_none(),
                egui::Button::new(RichText::new("Save game…").small()),
            )
            .on_disabled_hover_text(why_not)
            .clicked()
            && let Some(text) = record_text
        {
            actions.push(Request::Choose(FilePurpose::Export {
                kind: ExportKind::Record,
                text,
            }));
        }
        // A game in progress replayed as the side at the table sees it
        // (no saving first); after the game, everything.
        let over = s.trace.last().is_over();
        if ui
            .add_enabled(
                s.handover.is_none() && !s.trace.is_empty() && !over,
                egui::Button::new(RichText::new("Replay so far").small()),
            )
            .on_hover_text(match viewer {
                Some(side) => format!("Step through the game up to now, as {side} saw it"),
                None => "Step through the game up to now".to_string(),
            })
            .clicked()
        {
            actions.push(replay_action(s, viewer));
        }
        undo_button(ui, s);
    });
}

/// "Undo my decision", when the person has one to take back. On the
/// hand-over screen the person at the window may be either side: the
/// screen's own button says whose decision it takes back.
fn undo_button(ui: &mut Ui, s: &mut Session) {
    let undoable = s.handover.is_none()
        && s.undoer()
            .is_some_and(|side| s.trace.undo_point(&s.game, side).is_some());
    if ui
        .add_enabled(
            undoable,
            egui::Button::new(RichText::new("Undo my decision").small()),
        )
        .on_hover_text("Take back your last decision (Ctrl+Z)")
        .on_disabled_hover_text(
            "Only your own decisions since the last one that showed you something or rolled dice",
        )
        .clicked()
    {
        s.undo_now();
    }
}

/// Rows the AI's controls hold: the pace, pause and follow, what the AI
/// is thinking (a row more to watch two AIs: whose eyes).
const AI_ROWS: f32 = 3.2;
/// Rows of text the status area holds: year and turn, Player 1 and why,
/// VP, the stage, the cards played, a note.
const STATUS_ROWS: f32 = 6.5;
/// The status area's rows in a side panel shorter than [`SHORT_PANEL`].
const STATUS_ROWS_SHORT: f32 = 4.2;
const SHORT_PANEL: f32 = 760.0;
/// Rows the hand's area holds: its heading and a row of cards for every
/// [`HAND_COLUMNS`] cards dealt (2.1: six under both rule sets), a card
/// button being a little taller than a row; the same all game long.
fn hand_rows(game: &Game) -> f32 {
    let rows = usize::from(game.rules.hand_size)
        .div_ceil(HAND_COLUMNS)
        .max(1);
    1.4 + 1.15 * rows as f32
}

/// An area `rows` rows of buttons high whatever it holds (it scrolls when
/// it overflows), so what comes below it never moves.
fn fixed_area(ui: &mut Ui, id: &str, rows: f32, add: impl FnOnce(&mut Ui)) {
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical()
        .id_salt(id)
        .max_height(rows * row)
        .min_scrolled_height(rows * row)
        .auto_shrink([false, false])
        .show(ui, add);
}

/// Following the AI: its last action's place brought into view and ringed.
fn follow(on: bool, s: &Session, board: &mut PlayBoard) {
    if on && let Some(space) = s.trace.len().checked_sub(1).and_then(|i| s.acted_at(i)) {
        board.follow(space);
    }
}

/// The end of a game: everything shown on request, a replay, and the VP
/// chart down to `bottom` (the panel's foot), so the end screen fits
/// without scrolling.
fn game_over(ui: &mut Ui, s: &mut Session, actions: &mut Vec<Request>, bottom: f32) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut s.reveal_all, "Show everything");
        if ui.button("Replay this game").clicked() {
            actions.push(replay_action(s, None));
        }
    });
    // The chart's title and key take about two rows above the plot.
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let room = bottom - ui.cursor().top() - 2.0 * row - ui.spacing().item_spacing.y;
    let height = room.clamp(MIN_CHART_HEIGHT, MAX_CHART_HEIGHT);
    vp_chart(ui, &s.game, &s.trace, height);
}

/// Opens the game so far in the Replay tab, seen only as `seen_by` (a
/// game in progress: the other side's secrets stay hidden).
fn replay_action(s: &Session, seen_by: Option<Side>) -> Request {
    let names = [s.seats[0].label(), s.seats[1].label()];
    let replayed = Replayed::new(
        s.game.clone(),
        s.trace.clone(),
        s.title.clone(),
        [&names[0], &names[1]],
    )
    .seen_by(seen_by)
    // Hot-seat: the replay is handed over to the side at the table first,
    // and again whenever the Replay tab is come back to.
    .hot_seat(s.seats.iter().all(|x| *x == Seat::Human) && !s.trace.last().is_over());
    Request::Replay(Box::new(crate::app::ReplaySource::Played(Box::new(
        replayed,
    ))))
}

/// The file dialog that picks what replaces the game.
fn choose(r: Replace) -> Request {
    match r {
        Replace::Resume | Replace::Start => {
            Request::Choose(FilePurpose::OpenRecord(RecordUse::Resume))
        }
        Replace::Position => Request::Choose(FilePurpose::OpenPosition),
    }
}

/// The actions that have no place on the map, each in a slot of its own.
const SLOTS: [Action; 9] = [
    Action::EndGroup,
    Action::EndMoves,
    Action::EndLevy,
    Action::PassEvent,
    Action::Surprise(None),
    Action::Fire,
    Action::Pass,
    Action::EndRegroup,
    Action::EndWinter,
];

/// The width a row of buttons may fill in the side panel: left of its
/// scroll bar, which floats over the content (a solid bar would make the
/// content wider than a narrow panel, pushing the panel over the map).
fn beside_scroll_bar(ui: &Ui) -> f32 {
    let bar = &ui.spacing().scroll;
    ui.available_width() - bar.bar_width - bar.bar_outer_margin
}

/// The fixed slots: every action of [`SLOTS`] always drawn at its place,
/// enabled when it is legal for the person to play.
fn slots(
    ui: &mut Ui,
    s: &Session,
    legal: &[Action],
    my_turn: bool,
    guard: &mut ClickGuard,
) -> Option<Action> {
    let mut picked = None;
    let gap = ui.spacing().item_spacing.x;
    let width = ((beside_scroll_bar(ui) - 2.0 * gap) / 3.0).floor();
    for row in SLOTS.chunks(3) {
        ui.horizontal(|ui| {
            for &a in row {
                let on = my_turn && s.handover.is_none() && legal.contains(&a);
                // In a narrow panel, smaller words keep each slot one line.
                let text = RichText::new(s.game.action_text(a));
                let text = if width < 110.0 { text.small() } else { text };
                if decision_button(ui, guard, on, text, (width, None)) {
                    picked = Some(a);
                }
            }
        });
    }
    picked
}

/// What a hand's buttons need of the game at the table.
struct Table<'a> {
    s: &'a Session,
    state: &'a State,
    guard: &'a mut ClickGuard,
    /// The card chosen to discard, awaiting its confirmation.
    discard_pick: Option<u8>,
}

/// Cards in a row of the hand.
const HAND_COLUMNS: usize = 3;

/// The hand of `me` as buttons in fixed places (see [`keep_places`]): a
/// click plays or discards the card, when `playable`.
fn hand(
    ui: &mut Ui,
    t: Table<'_>,
    me: Side,
    playable: bool,
    places: &[Option<u8>],
) -> Option<Action> {
    let Table {
        s,
        state,
        guard,
        discard_pick,
    } = t;
    // 2.1: the discard is a step of its own, in its own words and colour.
    let discarding = playable && state.period() == Period::Discard;
    if discarding {
        ui.label(
            RichText::new(format!(
                "{me}'s hand: discard one card face down for the year (2.1)"
            ))
            .strong()
            .color(theme::DISCARD),
        );
    } else {
        ui.label(RichText::new(format!("{me}'s hand")).strong());
    }
    if state.hand(me).is_empty() {
        ui.label("no cards");
        return None;
    }
    let mut chosen = None;
    let gap = ui.spacing().item_spacing.x;
    let width =
        ((beside_scroll_bar(ui) - (HAND_COLUMNS - 1) as f32 * gap) / HAND_COLUMNS as f32).floor();
    for row in places.chunks(HAND_COLUMNS) {
        // Top-aligned: centred, each card of a row would sit a little
        // lower than the one before it.
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Min), |ui| {
            for place in row {
                let Some(card) = *place else {
                    // An empty place: the card played from it.
                    ui.allocate_exact_size(
                        egui::vec2(width, ui.spacing().interact_size.y),
                        egui::Sense::hover(),
                    );
                    continue;
                };
                let label = s.game.card_label(card);
                let action = [Action::Play(card), Action::Discard(card)]
                    .into_iter()
                    .find(|a| playable && state.is_legal(&s.game, *a));
                let verb = match action {
                    Some(Action::Play(_)) => "Play",
                    Some(_) => "Choose to discard (then confirm)",
                    None => "",
                };
                // Event cards stand out from command cards at a glance:
                // their own colour, their name in italics.
                let event = matches!(
                    s.game.card(card),
                    crate::scenario::model::CardFace::Event(_)
                );
                let (text, fill) = if event {
                    let text = RichText::new(&label).strong().italics();
                    (text.color(theme::EVENT_CARD_TEXT), Some(theme::EVENT_CARD))
                } else {
                    (RichText::new(&label).strong(), None)
                };
                // The card chosen to discard, struck through until confirmed.
                let (text, fill) = if discarding && discard_pick == Some(card) {
                    (text.strikethrough(), Some(theme::DISCARD_PICKED))
                } else {
                    (text, fill)
                };
                let r = ui.scope(|ui| {
                    if discarding {
                        // The discard's look: the cards framed in its colour.
                        ui.visuals_mut().widgets.inactive.bg_stroke =
                            egui::Stroke::new(2.0, theme::DISCARD);
                        ui.visuals_mut().widgets.hovered.bg_stroke =
                            egui::Stroke::new(2.5, theme::DISCARD);
                    }
                    decision_button(ui, guard, action.is_some(), text, (width, fill))
                });
                let help = super::card_text::card_help(&s.game, card);
                r.response.on_hover_text(if verb.is_empty() {
                    help
                } else {
                    format!("{verb} {label}.\n\n{help}")
                });
                if r.inner {
                    chosen = action;
                }
            }
        });
    }
    chosen
}

/// The answer to "Discard this card?".
enum DiscardAnswer {
    Discard,
    Keep,
}

/// A side's seat: human or a player from the menu (a file asked for by a
/// request), and a search's playouts below it.
fn seat_row(
    ui: &mut Ui,
    side: Side,
    seat: &mut Seat,
    actions: &mut Vec<Request>,
    ranked_for: RankedFor<'_>,
) {
    let l = ui.label(format!("{side}"));
    let current = match &*seat {
        Seat::Ai(spec) => Some(spec.clone()),
        Seat::Human => None,
    };
    let menu = crate::app::player_picker::Menu {
        ranked_for,
        current: current.as_ref(),
        offer: crate::app::player_picker::Offer::Players,
    };
    let mut human = false;
    let (combo, picked) = crate::app::player_picker::combo(
        ui,
        ("play_seat", side.index()),
        seat.label(),
        &menu,
        |ui| human = ui.selectable_label(current.is_none(), "human").clicked(),
    );
    combo.labelled_by(l.id);
    match picked {
        _ if human => *seat = Seat::Human,
        Some(crate::app::player_picker::Picked::Player(spec)) => *seat = Seat::Ai(spec),
        Some(crate::app::player_picker::Picked::FromFile) => {
            actions.push(Request::Choose(FilePurpose::OpenPlayer(
                side,
                crate::app::PlayerUse::Play,
            )));
        }
        None => {}
    }
    ui.end_row();
    if let Seat::Ai(spec) = seat {
        crate::app::player_picker::budget_row(ui, &format!("{side} playouts"), spec);
    }
}

/// The AI seats' players, each with a counter of its playouts: a search
/// fills it in ("thinking: N playouts"), any other player leaves it at
/// nought.
type Seated = ([Option<Box<dyn Player>>; 2], [Option<Arc<AtomicU64>>; 2]);

fn seated_players(seats: &[Seat; 2], player_seeds: [u64; 2]) -> Seated {
    let mut counters = [None, None];
    let players = Side::BOTH.map(|side| match &seats[side.index()] {
        Seat::Human => None,
        Seat::Ai(spec) => {
            let counter = Arc::new(AtomicU64::new(0));
            counters[side.index()] = Some(counter.clone());
            Some(spec.player_counting(side, player_seeds[side.index()], false, Some(counter)))
        }
    });
    (players, counters)
}

/// 2.1: a card clicked in the discard step is only chosen (`pick`); it goes
/// when the confirmation below the hand says so. The action decided, if any.
fn discard_step(
    ui: &mut Ui,
    s: &mut Session,
    legal: &[Action],
    mut picked: Option<Action>,
    pick: &mut Option<u8>,
    guard: &mut ClickGuard,
) -> Option<Action> {
    *pick = pick.filter(|c| legal.contains(&Action::Discard(*c)));
    if let Some(Action::Discard(card)) = picked {
        *pick = Some(card);
        picked = None;
    }
    if let Some(card) = *pick {
        match confirm_discard(ui, s, card, guard) {
            Some(DiscardAnswer::Discard) => picked = Some(Action::Discard(card)),
            Some(DiscardAnswer::Keep) => *pick = None,
            None => {}
        }
    }
    picked
}

/// The battle being fought, told as the log tells it; a space clicked in
/// it is pointed at on the board.
fn battle_story(
    ui: &mut Ui,
    s: &Session,
    viewer: Option<Side>,
    log: &mut super::game_log::Cache,
    board: &mut PlayBoard,
) {
    let turns = log.get(&s.game, &s.trace, s.trace.len(), viewer, s.generation);
    if let Some(story) = super::game_log::battle_story(turns)
        && let Some(space) = super::game_log::show_battle(ui, story).and_then(|c| c.space)
    {
        board.point_at(space);
    }
}

/// 2.1: the discard chosen, asked about under the hand: discarded only by
/// its own button; "Keep it" chooses again.
fn confirm_discard(
    ui: &mut Ui,
    s: &Session,
    card: u8,
    guard: &mut ClickGuard,
) -> Option<DiscardAnswer> {
    let label = s.game.card_label(card);
    let mut out = None;
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, theme::DISCARD))
        .show(ui, |ui| {
            ui.label(
                RichText::new(format!("Discard {label} face down for the year (2.1)?"))
                    .strong()
                    .color(theme::DISCARD),
            );
            ui.label(
                RichText::new(
                    "It leaves your hand for the whole year; the other side never sees it.",
                )
                .small(),
            );
            let width = ((beside_scroll_bar(ui) - ui.spacing().item_spacing.x) / 2.0).floor();
            ui.horizontal(|ui| {
                let yes = RichText::new(format!("Yes, discard {label}")).strong();
                if decision_button(ui, guard, true, yes, (width, Some(theme::DISCARD_PICKED))) {
                    out = Some(DiscardAnswer::Discard);
                }
                if ui
                    .add_sized(
                        egui::vec2(width, ui.spacing().interact_size.y),
                        egui::Button::new("Keep it, choose another"),
                    )
                    .clicked()
                {
                    out = Some(DiscardAnswer::Keep);
                }
            });
        });
    out
}

/// The action to take now, if any: `picked`, unless it disbands a block
/// (8.5: for good this year), which is first asked about and taken only
/// when the question's own button says so. `ask` holds the question
/// between frames; it lapses when its action is no longer `legal`.
fn confirmed(
    ask: &mut Option<Action>,
    ui: &Ui,
    (game, state): (&Game, &State),
    legal: &[Action],
    picked: Option<Action>,
) -> Option<Action> {
    *ask = ask.filter(|a| legal.contains(a));
    match picked {
        Some(a) if matches!(a, Action::Disband(_)) => *ask = Some(a),
        Some(a) => return Some(a),
        None => {}
    }
    let a = (*ask)?;
    let yes = ask_disband(ui.ctx(), game, state, a)?;
    *ask = None;
    yes.then_some(a)
}

/// Asks whether to disband the block of `action` (8.5), in a window in the
/// middle of the screen, away from the list clicked: `Some(true)` to do
/// it, `Some(false)` to keep the block, `None` while undecided.
fn ask_disband(ctx: &egui::Context, game: &Game, state: &State, action: Action) -> Option<bool> {
    let Action::Disband(b) = action else {
        return Some(true);
    };
    let name = game.block_name(b).to_string();
    let at = state
        .location(b)
        .map(|s| format!(" in {}", game.space_name(s)))
        .unwrap_or_default();
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("play_ask_disband")).show(ctx, |ui| {
        ui.label(RichText::new(format!("Disband {name}{at}?")).strong());
        ui.label(
            "It goes to the levy pool, its steps lost; it may be levied again next year (8.5).",
        );
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui.button(format!("No, keep {name}")).clicked() {
                answer = Some(false);
            }
            if ui.button(format!("Yes, disband {name}")).clicked() {
                answer = Some(true);
            }
        });
    });
    if modal.should_close() && answer.is_none() {
        answer = Some(false);
    }
    answer
}

/// Where the side list's buttons stood (see [`keep_places`]).
#[derive(Default)]
struct Places {
    movers: Vec<Option<BlockId>>,
    choices: ListPlaces,
    list: ListPlaces,
}

/// Blocks of a row of the moving group.
const MOVER_COLUMNS: usize = 4;

/// The moving group's blocks in fixed places (see [`keep_places`]): a
/// block done moving leaves its place empty, so the next block is never
/// the one that slid under the pointer. A click picks or drops a block.
fn movers_grid(ui: &mut Ui, s: &mut Session, places: &[Option<BlockId>]) {
    let gap = ui.spacing().item_spacing.x;
    let columns = MOVER_COLUMNS as f32;
    let width = ((beside_scroll_bar(ui) - (columns - 1.0) * gap) / columns).floor();
    let height = ui.spacing().interact_size.y;
    for row in places.chunks(MOVER_COLUMNS) {
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Min), |ui| {
            for place in row {
                let Some(b) = *place else {
                    ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::hover());
                    continue;
                };
                let name = s.game.block_name(b).to_string();
                let on = s.chosen_block == Some(b);
                let button = egui::Button::selectable(on, name)
                    .truncate()
                    .min_size(egui::vec2(width, height));
                if ui.add_sized([width, height], button).clicked() {
                    s.chosen_block = if on { None } else { Some(b) };
                }
            }
        });
    }
}

/// The person's actions that have a place on the map (also made there by
/// clicks): the blocks that may move, the choices at a clicked space, and
/// every such legal action as a button.
fn placed_actions(
    ui: &mut Ui,
    s: &mut Session,
    (state, legal): (&State, &[Action]),
    guard: &mut ClickGuard,
    places: &mut Places,
) -> Option<Action> {
    let mut movers: Vec<BlockId> = legal
        .iter()
        .filter(|a| is_move(**a))
        .filter_map(|a| action_block(*a))
        .collect();
    movers.sort_by_key(|b| b.0);
    movers.dedup();
    places.movers = keep_places(&places.movers, &movers);
    if !movers.is_empty() {
        ui.label(RichText::new("Blocks that may move").strong());
        movers_grid(ui, s, &places.movers);
        ui.label(
            RichText::new("Pick a block, then click a highlighted space to move it there.")
                .weak()
                .small(),
        );
    }
    let text = |a: Action| s.game.action_text(a);
    let mut picked = None;
    if let Some((space, choices)) = &s.choices {
        ui.label(RichText::new(format!("At {}:", s.game.space_name(*space))).strong());
        picked = headed_list(ui, guard, choices, text, &mut places.choices);
    }
    if !movers.is_empty() || s.choices.is_some() {
        ui.separator();
    }
    // Fire, pass and the ends are slots and the cards are the hand's
    // buttons, never listed here: a list's first place never turns into
    // a card played. The rest under a heading for each kind: retreats
    // (lit on the map too), which block takes the hit or its turn, moves,
    // levies.
    let listed: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| !SLOTS.contains(a) && !matches!(a, Action::Play(_) | Action::Discard(_)))
        .collect();
    let heading = if state.battle_info().is_some() {
        "Battle: your decision".to_string()
    } else {
        format!("Legal actions ({})", legal.len())
    };
    ui.label(RichText::new(heading).strong());
    if listed.is_empty() {
        ui.label(RichText::new(elsewhere_hint(legal)).weak());
    }
    picked.or(headed_list(ui, guard, &listed, text, &mut places.list))
}

/// Where the decision is made when no action is listed: a discard or a
/// card in the hand, else the slots' buttons.
fn elsewhere_hint(legal: &[Action]) -> &'static str {
    let cards = legal
        .iter()
        .any(|a| matches!(a, Action::Play(_) | Action::Discard(_)));
    if legal.iter().any(|a| matches!(a, Action::Discard(_))) {
        "Discard (2.1): click the card to give up in your hand above, then confirm it here."
    } else if cards {
        "Click a card of your hand above."
    } else {
        "Nothing else to do: use the buttons above."
    }
}

/// VP of each side, turn by turn (egui_plot).
fn vp_chart(ui: &mut Ui, game: &Game, trace: &Trace, height: f32) {
    let vp = trace.vp_by_turn(game);
    let turns_per_year = vp.iter().map(|(_, t, _)| *t).max().unwrap_or(1).max(1) as f64;
    let x = |y: u8, t: u8| (y as f64 - 1.0) + (t as f64 - 1.0) / turns_per_year + 1.0;
    let line = |side: Side| -> Vec<[f64; 2]> {
        vp.iter()
            .map(|(y, t, v)| [x(*y, *t), v[side.index()] as f64])
            .collect()
    };
    ui.label(RichText::new("Victory points, turn by turn").strong());
    crate::app::chart_key::row(
        ui,
        &[
            crate::app::chart_key::Key::new("Caesar", theme::CAESAR),
            crate::app::chart_key::Key::new("Pompey", theme::POMPEY),
        ],
    );
    Plot::new("play_vp")
        .height(height)
        .x_axis_label("year")
        .y_axis_label("VP")
        .allow_drag(false)
        .allow_scroll(false)
        // The wheel scrolls the panel, never zooms the chart away from its data.
        .allow_zoom(false)
        .show(ui, |plot| {
            plot.line(
                Line::new("Caesar", line(Side::Caesar))
                    .color(theme::CAESAR)
                    .width(2.0),
            );
            plot.line(
                Line::new("Pompey", line(Side::Pompey))
                    .color(theme::POMPEY)
                    .width(2.0),
            );
        });
}
