//! The Play tab's decision buttons and what keeps a double click to one
//! decision.
//!
//! A decision changes what the buttons say: the next list of moves,
//! retreats or levies lands where the pointer just clicked. Two guards keep
//! a double click (or a click made before looking) from taking a decision
//! the person never saw: the buttons of a position just shown ignore
//! clicks for a moment ([`ARRIVAL_GUARD`]), and a click where the last
//! decision was clicked, the pointer not moved away, on a button that now
//! says something else is ignored. The list itself is split by kind of
//! decision, each kind under its own heading, so what a button means is
//! written above it. Uses `engine` (actions) only; the app's `play` draws.

use egui::{PointerButton, Pos2, RichText, Ui};

use crate::engine::Action;

/// How long the buttons of a position just shown ignore clicks: longer
/// than the gap between a double click's two clicks (about 0.1–0.3 s),
/// shorter than anyone reads a new list of choices and points at one.
pub(super) const ARRIVAL_GUARD: f64 = 0.35;

/// How far the pointer must move before a click counts as a new one.
pub(super) const GUARD_RADIUS: f32 = 4.0;

/// What keeps a double click to one decision (see the module's text).
#[derive(Default)]
pub(super) struct ClickGuard {
    /// Where the last decision was clicked and the words of its button.
    last: Option<(Pos2, String)>,
    /// The position shown (the session's generation) and when, on egui's
    /// clock, it was first drawn.
    shown: Option<(u64, f64)>,
    /// egui's clock this frame.
    now: f64,
}

impl ClickGuard {
    /// At the start of a frame: the position drawn (`generation`), the
    /// clock, and the pointer (moved away, the last click's place is free).
    pub(super) fn frame(&mut self, ui: &Ui, generation: Option<u64>) {
        let (now, pointer) = ui.input(|i| (i.time, i.pointer.hover_pos()));
        self.now = now;
        match generation {
            Some(g) if self.shown.is_none_or(|(shown, _)| shown != g) => {
                self.shown = Some((g, now));
            }
            Some(_) => {}
            None => self.shown = None,
        }
        if self
            .last
            .as_ref()
            .is_some_and(|(at, _)| pointer.is_none_or(|p| p.distance(*at) > GUARD_RADIUS))
        {
            self.last = None;
        }
    }

    /// The position shown was drawn less than [`ARRIVAL_GUARD`] ago: a
    /// click now was aimed at the one before it.
    pub(super) fn just_shown(&self) -> bool {
        self.shown
            .is_some_and(|(_, at)| self.now - at < ARRIVAL_GUARD)
    }

    /// Whether a primary click at `at` on a button saying `words` decides
    /// (remembering it if so).
    fn accepts(&mut self, at: Option<Pos2>, words: &str) -> bool {
        if self.just_shown() {
            return false;
        }
        let shifted = matches!((&self.last, at),
            (Some((g, w)), Some(p)) if p.distance(*g) <= GUARD_RADIUS && w != words);
        if shifted {
            return false;
        }
        self.last = at.map(|p| (p, words.to_string()));
        true
    }
}

/// A button that decides, `width` wide (0: as wide as its words), its
/// words wrapped rather than widening the panel (which would move every
/// button in it). A click counts only when the guard accepts it; the same
/// button again (Fire, then Fire) acts once the guard has lapsed.
pub(super) fn decision_button(
    ui: &mut Ui,
    guard: &mut ClickGuard,
    enabled: bool,
    text: RichText,
    width: f32,
) -> bool {
    let words = text.text().to_string();
    let button = egui::Button::new(text).wrap();
    let r = if width > 0.0 {
        ui.allocate_ui(egui::vec2(width, 0.0), |ui| {
            ui.set_width(width);
            ui.add_enabled(enabled, button.min_size(egui::vec2(width, 0.0)))
        })
        .inner
    } else {
        ui.add_enabled(enabled, button)
    };
    if !r.clicked() {
        return false;
    }
    if !r.clicked_by(PointerButton::Primary) {
        // A keyboard press (accessibility) has no place to be confused by.
        return true;
    }
    guard.accepts(r.interact_pointer_pos(), &words)
}

/// The kinds of decision the side list shows, in the order it shows
/// them, each under its heading: what a button means is written above it,
/// so a list whose first button retreated never silently becomes one
/// whose first button levies.
pub(super) fn kind_heading(a: &Action) -> (u8, &'static str) {
    match a {
        Action::Play(_) | Action::Discard(_) => (0, "Cards (from your hand)"),
        Action::JupiterAt(_) | Action::VulcanCity(_) => (1, "The event's target"),
        Action::Group(_) => (2, "Start a group move from (6.1)"),
        Action::Step { .. } | Action::SeaMove { .. } => (3, "Move a block of the group"),
        Action::Levy { .. } | Action::AddStep(_) => (4, "Levy (6.4)"),
        Action::Battle(_) => (5, "The next battle (7.1)"),
        Action::Surprise(_) => (6, "The surprise attack"),
        Action::MainAttack(_) => (7, "The main attack's road (7.3)"),
        Action::TakeTurn(_) => (8, "Which block takes its turn (7.2)"),
        Action::TakeHit(_) => (9, "Which block takes the hit (7.4)"),
        Action::Retreat(_) => (10, "Retreat the block to (7.6)"),
        Action::Regroup { .. } => (11, "Regroup (7.7)"),
        Action::NavisToPort { .. } => (12, "Navis to a friendly port (8.3)"),
        Action::Disband(_) => (13, "Disband (8.4, 8.5)"),
        Action::EndGroup
        | Action::EndMoves
        | Action::EndLevy
        | Action::PassEvent
        | Action::Fire
        | Action::Pass
        | Action::EndRegroup
        | Action::EndWinter => (14, "End or pass"),
    }
}

/// `actions` under a heading for each kind (see [`kind_heading`]), each a
/// [`decision_button`] with the words `text` gives it; the one clicked.
pub(super) fn headed_list(
    ui: &mut Ui,
    guard: &mut ClickGuard,
    actions: &[Action],
    text: impl Fn(Action) -> String,
) -> Option<Action> {
    // By kind, then by words: the engine's order may differ from one
    // decision to the next ("Legio 9 takes its turn" before "Legio 7"), the
    // words' order does not.
    let mut sorted: Vec<(Action, String)> = actions.iter().map(|a| (*a, text(*a))).collect();
    sorted.sort_by(|(a, x), (b, y)| kind_heading(a).0.cmp(&kind_heading(b).0).then(x.cmp(y)));
    let mut picked = None;
    let mut heading = None;
    for (a, words) in sorted {
        let (kind, title) = kind_heading(&a);
        if heading != Some(kind) {
            heading = Some(kind);
            ui.label(RichText::new(title).italics());
        }
        if decision_button(ui, guard, true, RichText::new(words), 0.0) {
            picked = Some(a);
        }
    }
    picked
}
