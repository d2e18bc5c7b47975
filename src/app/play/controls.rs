//! The Play tab's decision buttons and what keeps a double click to one
//! decision.
//!
//! A decision changes what the buttons say: the next list of moves,
//! retreats or levies lands where the pointer just clicked. The guard
//! tells a deliberate click from one aimed at something that is gone:
//! - every place remembers the button it last held; a button that stands
//!   where the same button (the same words) stood before is taken at once,
//!   whoever acted in between (an AI's move does not make the person's
//!   "takes the hit" button wait);
//! - a button that arrived or changed its words in a place waits
//!   [`ARRIVAL_GUARD`] before it takes a click;
//! - the second click of a double click (within [`ARRIVAL_GUARD`] of the
//!   decision, where it was clicked) is not a second decision;
//! - a click where the last decision was clicked, the pointer not moved
//!   away, on a button that now says something else waits for the pointer
//!   to move.
//!
//! A click the guard ignores is never silent: the button shows, for a
//! moment, that it ignored the click and why. The list itself is split by
//! kind of decision, each kind under its own heading, so what a button
//! means is written above it. Uses `engine` (actions) only; the app's
//! `play` draws.

use egui::{PointerButton, Pos2, Rect, RichText, Ui};

use crate::engine::Action;

/// How long a button that just arrived in its place ignores clicks, and
/// how long after a decision a click at its place is that double click's
/// second: longer than the gap between a double click's two clicks (about
/// 0.1–0.3 s), shorter than anyone reads a new choice and points at it.
pub(super) const ARRIVAL_GUARD: f64 = 0.35;

/// How far the pointer must move before a click counts as a new one.
pub(super) const GUARD_RADIUS: f32 = 4.0;

/// How long a button says it ignored a click.
const IGNORED_SHOWN: f64 = 2.5;

/// A button's place and words, and since when (egui's clock) it has
/// stood there saying them.
#[derive(Clone)]
struct Standing {
    rect: Rect,
    words: String,
    since: f64,
}

/// Why a click was ignored, in the words the button shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ignored {
    /// The second click of a double click on the decision just taken.
    DoubleClick,
    /// The button had just arrived or changed under the pointer.
    JustChanged,
    /// The pointer rests where the last decision was clicked, and the
    /// button there now says something else.
    ChangedUnderPointer,
}

impl Ignored {
    pub(super) fn words(self) -> &'static str {
        match self {
            Ignored::DoubleClick => {
                "Click ignored: it came right after your last decision here (a double click?). Click again to take it."
            }
            Ignored::JustChanged => {
                "Click ignored: this button had only just appeared here. Click again to take it."
            }
            Ignored::ChangedUnderPointer => {
                "Click ignored: this button changed under the pointer after your last decision. Move the pointer and click again."
            }
        }
    }
}

/// What keeps a double click to one decision (see the module's text).
#[derive(Default)]
pub(super) struct ClickGuard {
    /// Where the last decision was clicked, the words of its button, and
    /// when (egui's clock).
    last: Option<(Pos2, String, f64)>,
    /// The position shown (the session's generation) and when, on egui's
    /// clock, it was first drawn.
    shown: Option<(u64, f64)>,
    /// Positions shown since the last decision: one is the decision's own;
    /// more, and someone else (the AI) acted since.
    shown_since_decision: u32,
    /// The button each place last held (kept while the place is empty).
    places: Vec<Standing>,
    /// The last click ignored: on which button (its place), why, when.
    ignored: Option<(Rect, Ignored, f64)>,
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
                self.shown_since_decision = self.shown_since_decision.saturating_add(1);
            }
            Some(_) => {}
            None => {
                self.shown = None;
                self.places.clear();
            }
        }
        if self
            .last
            .as_ref()
            .is_some_and(|(at, ..)| pointer.is_none_or(|p| p.distance(*at) > GUARD_RADIUS))
        {
            self.last = None;
        }
        if self
            .ignored
            .is_some_and(|(.., at)| now - at > IGNORED_SHOWN)
        {
            self.ignored = None;
        }
    }

    /// The position shown was drawn less than [`ARRIVAL_GUARD`] ago: a
    /// click on the map now was aimed at the one before it.
    pub(super) fn just_shown(&self) -> bool {
        self.shown
            .is_some_and(|(_, at)| self.now - at < ARRIVAL_GUARD)
    }

    /// Since when the button drawn at `rect` saying `words` has stood
    /// there: as long as its place has held it, else from now.
    fn stand(&mut self, rect: Rect, words: &str) -> f64 {
        let same_place = |s: &Standing| {
            (s.rect.min - rect.min).length() < 1.0 && (s.rect.max - rect.max).length() < 1.0
        };
        if let Some(s) = self.places.iter().find(|s| same_place(s))
            && s.words == words
        {
            return s.since;
        }
        // Whatever stood on this place before is gone from it.
        self.places.retain(|s| !s.rect.intersects(rect.shrink(1.0)));
        self.places.push(Standing {
            rect,
            words: words.to_string(),
            since: self.now,
        });
        self.now
    }

    /// Why a primary click at `at` on the button at `rect` saying `words`,
    /// there since `since`, is ignored; `None`: it decides (remembered).
    fn refuses(&mut self, at: Option<Pos2>, words: &str, since: f64) -> Option<Ignored> {
        let near_last = |p: Pos2, g: Pos2| p.distance(g) <= GUARD_RADIUS;
        // The decision's own position only: once the AI has acted, a
        // button that stood there is the person's to click again.
        if let (Some((g, _, when)), Some(p)) = (&self.last, at)
            && near_last(p, *g)
            && self.now - when < ARRIVAL_GUARD
            && self.shown_since_decision <= 1
        {
            return Some(Ignored::DoubleClick);
        }
        if self.now - since < ARRIVAL_GUARD {
            return Some(Ignored::JustChanged);
        }
        if let (Some((g, w, _)), Some(p)) = (&self.last, at)
            && near_last(p, *g)
            && w != words
        {
            return Some(Ignored::ChangedUnderPointer);
        }
        self.last = at.map(|p| (p, words.to_string(), self.now));
        self.shown_since_decision = 0;
        None
    }

    /// Why the last click on the button at `rect` was ignored, while it
    /// is still to be shown.
    fn ignored_at(&self, rect: Rect) -> Option<Ignored> {
        self.ignored
            .filter(|(r, ..)| r.intersects(rect.shrink(1.0)))
            .map(|(_, why, _)| why)
    }

    /// The last click ignored, while it is shown (tests).
    pub(super) fn ignored(&self) -> Option<Ignored> {
        self.ignored.map(|(_, why, _)| why)
    }
}

/// A button that decides, `width` wide (0: as wide as its words) and
/// filled with `fill` (an event card), its
/// words wrapped rather than widening the panel (which would move every
/// button in it). A click counts only when the guard takes it; one it
/// ignores is said under the button, with why (see the module's text).
pub(super) fn decision_button(
    ui: &mut Ui,
    guard: &mut ClickGuard,
    enabled: bool,
    text: RichText,
    (width, fill): (f32, Option<egui::Color32>),
) -> bool {
    let words = text.text().to_string();
    let mut button = egui::Button::new(text).wrap();
    if let Some(fill) = fill {
        button = button.fill(fill);
    }
    let r = if width > 0.0 {
        ui.allocate_ui(egui::vec2(width, 0.0), |ui| {
            ui.set_width(width);
            ui.add_enabled(enabled, button.min_size(egui::vec2(width, 0.0)))
        })
        .inner
    } else {
        ui.add_enabled(enabled, button)
    };
    let since = guard.stand(r.rect, &words);
    if let Some(why) = guard.ignored_at(r.rect) {
        say_ignored(ui, &r, why);
    }
    if !r.clicked() {
        return false;
    }
    if !r.clicked_by(PointerButton::Primary) {
        // A keyboard press (accessibility) has no place to be confused by.
        return true;
    }
    match guard.refuses(r.interact_pointer_pos(), &words, since) {
        None => {
            guard.ignored = None;
            true
        }
        Some(why) => {
            guard.ignored = Some((r.rect, why, guard.now));
            ui.ctx().request_repaint();
            false
        }
    }
}

/// Says, just under the button of `r`, that it ignored a click and why.
fn say_ignored(ui: &Ui, r: &egui::Response, why: Ignored) {
    ui.painter().rect_stroke(
        r.rect.expand(1.0),
        3.0,
        egui::Stroke::new(2.0, crate::app::theme::WARNING),
        egui::StrokeKind::Outside,
    );
    egui::Area::new(r.id.with("ignored"))
        .order(egui::Order::Tooltip)
        .fixed_pos(r.rect.left_bottom() + egui::vec2(0.0, 2.0))
        .interactable(false)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(r.rect.width().max(220.0));
                ui.label(RichText::new(why.words()).color(crate::app::theme::WARNING));
            });
        });
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(200));
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

/// The places of a row of things (a hand's cards, a group's blocks, a
/// kind's decisions): each that stays keeps its place, one gone leaves its
/// place empty, one come back (an undo) takes the first empty place; a new
/// set (none kept: a new deal, another group) starts afresh.
pub(super) fn keep_places<T: Copy + PartialEq>(places: &[Option<T>], now: &[T]) -> Vec<Option<T>> {
    let kept = |c: &Option<T>| c.is_some_and(|c| now.contains(&c));
    if !places.iter().any(kept) {
        return now.iter().copied().map(Some).collect();
    }
    let mut out: Vec<Option<T>> = places
        .iter()
        .map(|c| c.filter(|c| now.contains(c)))
        .collect();
    for &x in now {
        if !out.contains(&Some(x)) {
            match out.iter().position(Option::is_none) {
                Some(k) => out[k] = Some(x),
                None => out.push(Some(x)),
            }
        }
    }
    out
}

/// Where each decision of a list stood, kind by kind (see [`keep_places`]):
/// after "Add a step to Caesar" the next button is not the one that slid
/// under the pointer.
#[derive(Default)]
pub(super) struct ListPlaces(Vec<(u8, Vec<Option<Action>>)>);

/// `actions` under a heading for each kind (see [`kind_heading`]), each a
/// [`decision_button`] with the words `text` gives it, in the places they
/// stood in before (an action gone leaves its place empty); the one clicked.
pub(super) fn headed_list(
    ui: &mut Ui,
    guard: &mut ClickGuard,
    actions: &[Action],
    text: impl Fn(Action) -> String,
    places: &mut ListPlaces,
) -> Option<Action> {
    // By kind, then by words: the engine's order may differ from one
    // decision to the next ("Legio 9 takes its turn" before "Legio 7"), the
    // words' order does not.
    let mut sorted: Vec<(Action, String)> = actions.iter().map(|a| (*a, text(*a))).collect();
    sorted.sort_by(|(a, x), (b, y)| kind_heading(a).0.cmp(&kind_heading(b).0).then(x.cmp(y)));
    let mut kinds: Vec<(u8, &'static str, Vec<Action>)> = Vec::new();
    for (a, _) in &sorted {
        let (kind, title) = kind_heading(a);
        match kinds.last_mut() {
            Some((k, _, list)) if *k == kind => list.push(*a),
            _ => kinds.push((kind, title, vec![*a])),
        }
    }
    let mut picked = None;
    let mut next = Vec::with_capacity(kinds.len());
    let blank = egui::vec2(
        ui.available_width().min(120.0),
        ui.spacing().interact_size.y,
    );
    for (kind, title, list) in kinds {
        let before = places
            .0
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&[][..], |(_, p)| p.as_slice());
        let placed = keep_places(before, &list);
        ui.label(RichText::new(title).italics());
        for place in &placed {
            match place {
                Some(a) => {
                    if decision_button(ui, guard, true, RichText::new(text(*a)), (0.0, None)) {
                        picked = Some(*a);
                    }
                }
                // The place of a decision gone: the next stays where it was.
                None => {
                    ui.allocate_exact_size(blank, egui::Sense::hover());
                }
            }
        }
        next.push((kind, placed));
    }
    places.0 = next;
    picked
}
