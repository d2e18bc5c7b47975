//! The game's log as one side may know it, for the Play and Replay tabs:
//! the engine's events as `games::narrate` tells them, grouped by year and
//! turn, newest at the bottom. This file writes no words of its own: it
//! picks the reader (what the side's [`SideView`] knows, before or after
//! each action), folds a group move's lines into one
//! ([`narrate::GroupMove`]), and keeps where each line happened, so a click
//! shows it on the map.
//!
//! One function builds it for both tabs, so Play and Replay cannot differ
//! in what they reveal; `play` prints the same lines, told to a reader who
//! knows everything.

use egui::{Color32, Pos2, RichText, Sense, Stroke, Ui, vec2};

use crate::app::theme;
use crate::engine::{Action, Game, GameEvent, SideView, State};
pub(in crate::app) use crate::games::narrate::LineKind as Kind;
use crate::games::narrate::{self, GroupMove, Reader, side_words};
use crate::games::trace::{Trace, action_space};
use crate::scenario::model::{BlockId, Side, SpaceId};

/// One line of the log.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::app) struct Entry {
    /// The position after the action the line tells of.
    pub step: usize,
    pub text: String,
    /// Where it happened, to show on the map.
    pub space: Option<SpaceId>,
    /// Whose doing or loss (its colour), if a side's.
    pub side: Option<Side>,
    /// A fire's dice: each face, and whether it hit.
    pub dice: Vec<(u8, bool)>,
    /// Part of a battle (indented under its heading).
    pub in_battle: bool,
    /// What the line tells of (the battle panel picks a battle's lines).
    pub kind: Kind,
}

/// The lines of one game turn (the year's deal and discards count as its
/// first).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::app) struct Turn {
    pub year: u8,
    pub turn: u8,
    /// The card each side played this turn, once the viewer may see it.
    pub cards: [Option<String>; 2],
    pub entries: Vec<Entry>,
}

/// The log of the first `upto` actions of `trace` as `viewer` may know it
/// (`None`: everything).
pub(super) fn side_log(game: &Game, trace: &Trace, upto: usize, viewer: Option<Side>) -> Vec<Turn> {
    let upto = upto.min(trace.len());
    let mut log = Telling::default();
    for i in 0..upto {
        let (before, after) = (trace.state(i), trace.state(i + 1));
        log.turn_of(game, before);
        let (seen_before, seen_after) = (seen(before, viewer), seen(after, viewer));
        // A block is named if the viewer knows it, before or after.
        let known = |b: BlockId| seen_before.knows(game, b) || seen_after.knows(game, b);
        let reader = Reader {
            side: viewer,
            knows: &known,
        };
        let action = trace.action(i);
        let at = Place {
            step: i + 1,
            acted: action_space(before, action),
            grouping: before.moving_group().is_some(),
        };
        // The game's first events (the year's deal) come with its first action.
        let from = if i == 0 { 0 } else { trace.log_end(i) };
        for event in &trace.log()[from..trace.log_end(i + 1)] {
            log.tell(game, event, &reader, at);
        }
        if action == Action::EndGroup {
            log.close_group(game);
        }
        // The cards of the turn, as the last position of it shows them.
        let turn = log.turns.last_mut().expect("turn_of pushed one");
        for side in Side::BOTH {
            if let Some(c) =
                shown_card(before, after, &seen_after, (action, trace.decider(i)), side)
            {
                turn.cards[side.index()] = Some(game.card_label(c));
            }
        }
    }
    log.turns
}

/// Where an action's lines belong: its step, the space it acted on, and
/// whether a group was moving when it was taken.
#[derive(Clone, Copy)]
struct Place {
    step: usize,
    acted: Option<SpaceId>,
    grouping: bool,
}

/// The log as it is being told.
#[derive(Default)]
struct Telling {
    turns: Vec<Turn>,
    /// The group move being told, and its line's place in the last turn.
    group: Option<(usize, GroupMove)>,
    /// The battle being fought: where its lines happen.
    battle: Option<SpaceId>,
}

impl Telling {
    /// Opens the turn of `state` unless it is the last one's.
    fn turn_of(&mut self, game: &Game, state: &State) {
        let here = (state.year(), state.turn());
        if self.turns.last().is_none_or(|t| (t.year, t.turn) != here) {
            self.close_group(game);
            self.turns.push(Turn {
                year: here.0,
                turn: here.1,
                cards: [None, None],
                entries: Vec::new(),
            });
        }
    }

    fn entries(&mut self) -> &mut Vec<Entry> {
        &mut self.turns.last_mut().expect("a turn is open").entries
    }

    /// Adds the event's line, folding a group's moves into the group's line.
    fn tell(&mut self, game: &Game, event: &GameEvent, reader: &Reader, at: Place) {
        if let Some((index, group)) = self.group.as_mut() {
            if at.grouping && group.add(event, reader) {
                let line = group.line(game);
                let entry = &mut self.turns.last_mut().expect("a turn is open").entries[*index];
                (entry.text, entry.space, entry.step) = (line.text, line.space, at.step);
                return;
            }
            self.close_group(game);
        }
        if let Some(group) = GroupMove::begun_by(event) {
            let entry = self.entry(group.line(game), false, at);
            let index = self.entries().len();
            self.entries().push(entry);
            self.group = Some((index, group));
            return;
        }
        let Some(line) = narrate::line(game, event, reader) else {
            return;
        };
        let (begins, over) = (
            line.kind == Kind::BattleBegins,
            line.kind == Kind::BattleOver,
        );
        if begins {
            self.battle = line.space;
        }
        let in_battle = !begins && (self.battle.is_some() || narrate::is_battle_event(event));
        let entry = self.entry(line, in_battle, at);
        self.entries().push(entry);
        if over {
            self.battle = None;
        }
    }

    fn entry(&self, line: narrate::Line, in_battle: bool, at: Place) -> Entry {
        Entry {
            step: at.step,
            space: line.space.or(self.battle).or(at.acted),
            text: line.text,
            side: line.side,
            dice: line.dice,
            in_battle,
            kind: line.kind,
        }
    }

    /// The group move is over: its line says so if it moved nothing.
    fn close_group(&mut self, game: &Game) {
        if let Some((index, mut group)) = self.group.take() {
            group.end();
            if let Some(entry) = self.entries().get_mut(index) {
                entry.text = group.line(game).text;
            }
        }
    }
}

/// A position as `viewer` sees it (`None`: everything).
fn seen(state: &State, viewer: Option<Side>) -> SideView<'_> {
    match viewer {
        Some(v) => state.view(v, false),
        None => state.view(Side::Caesar, true),
    }
}

/// The card `side` played this turn, if the viewer has seen it once
/// `action` (by `decider`) is taken. A card played that ends the turn is
/// the second of two events, which cancel each other (2.x): both cards
/// were shown, though the next turn's position holds neither.
fn shown_card(
    before: &State,
    after: &State,
    seen_after: &SideView,
    (action, decider): (Action, Side),
    side: Side,
) -> Option<u8> {
    if same_turn(before, after) {
        return seen_after.played(side);
    }
    match action {
        Action::Play(c) if side == decider => Some(c),
        Action::Play(_) => before.view(side, true).played(side),
        _ => None,
    }
}

fn same_turn(a: &State, b: &State) -> bool {
    (a.year(), a.turn()) == (b.year(), b.turn())
}

/// The lines of the battle being fought, or of the last one fought this
/// turn: from its heading to its summary.
pub(in crate::app) fn battle_story(turns: &[Turn]) -> Option<&[Entry]> {
    let entries = &turns.last()?.entries;
    let start = entries.iter().rposition(|e| e.kind == Kind::BattleBegins)?;
    let end = entries[start..]
        .iter()
        .position(|e| e.kind == Kind::BattleOver)
        .map_or(entries.len(), |i| start + i + 1);
    Some(&entries[start..end])
}

// ------------------------------------------------------------------ drawing

/// What a click on a line of the log asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::app) struct Clicked {
    pub step: usize,
    pub space: Option<SpaceId>,
}

/// A scroll area of up to `height` that follows the newest line, as wide
/// as it may be, and as short as its lines when `shrink`.
fn following(id_salt: &str, height: f32, shrink: bool) -> egui::ScrollArea {
    egui::ScrollArea::vertical()
        .id_salt(id_salt)
        .max_height(height)
        .auto_shrink([false, shrink])
        .stick_to_bottom(true)
}

/// The log in a scroll area that follows the newest line; returns a click
/// on a line.
pub(in crate::app) fn show(ui: &mut Ui, turns: &[Turn], height: f32) -> Option<Clicked> {
    let mut clicked = None;
    following("game_log", height, true).show(ui, |ui| {
        if turns.is_empty() {
            ui.label(RichText::new("Nothing has happened yet.").weak());
        }
        for t in turns {
            ui.add_space(4.0);
            ui.label(RichText::new(format!("Year {}, turn {}", t.year, t.turn)).strong());
            let cards: Vec<String> = Side::BOTH
                .iter()
                .map(|s| {
                    let card = t.cards[s.index()].as_deref().unwrap_or("not shown yet");
                    format!("{}: {card}", side_words(*s))
                })
                .collect();
            ui.label(RichText::new(format!("Cards: {}", cards.join(" · "))).italics());
            for e in &t.entries {
                if let Some(c) = line(ui, e) {
                    clicked = Some(c);
                }
            }
        }
    });
    clicked
}

/// The battle panel's story of a battle (from [`battle_story`]): each fire
/// as the block with its dice faces and the hits scored, who took them,
/// round by round, and the summary once it is over. A scroll area of one
/// height that follows the newest line, so the buttons below never move
/// as the battle goes on.
pub(in crate::app) fn show_battle(ui: &mut Ui, story: &[Entry]) -> Option<Clicked> {
    let over = story.last().is_some_and(|e| e.kind == Kind::BattleOver);
    ui.label(
        RichText::new(if over {
            "How the last battle went"
        } else {
            "The battle so far"
        })
        .strong(),
    );
    let mut clicked = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        following("battle_story", BATTLE_STORY_HEIGHT, false).show(ui, |ui| {
            for e in story {
                let strong = matches!(e.kind, Kind::BattleBegins | Kind::Round | Kind::BattleOver);
                if let Some(c) = line_styled(ui, e, strong, true) {
                    clicked = Some(c);
                }
            }
        });
    });
    clicked
}

/// The height of the battle panel's story.
const BATTLE_STORY_HEIGHT: f32 = 170.0;

fn line(ui: &mut Ui, e: &Entry) -> Option<Clicked> {
    line_styled(ui, e, false, false)
}

fn line_styled(ui: &mut Ui, e: &Entry, strong: bool, strong_dice: bool) -> Option<Clicked> {
    let colour = e.side.map_or(ui.visuals().text_color(), theme::side);
    let mut clicked = None;
    ui.horizontal_wrapped(|ui| {
        if e.in_battle {
            ui.add_space(12.0);
        }
        let mut text = RichText::new(&e.text).color(colour);
        if strong {
            text = text.strong();
        }
        let r = ui.add(egui::Button::new(text).frame(false));
        let r = match e.space {
            Some(_) => r.on_hover_text("Show on the map"),
            None => r,
        };
        if r.clicked() {
            clicked = Some(Clicked {
                step: e.step,
                space: e.space,
            });
        }
        for &(face, hit) in &e.dice {
            die(ui, face, hit, if strong_dice { 20.0 } else { 16.0 });
        }
    });
    clicked
}

/// A die face with its pips; a hit in the colour of an error.
fn die(ui: &mut Ui, face: u8, hit: bool, size: f32) {
    let (rect, response) = ui.allocate_exact_size(vec2(size, size), Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Label,
            true,
            format!("die {face}{}", if hit { " hit" } else { "" }),
        )
    });
    let painter = ui.painter_at(rect.expand(1.0));
    let (fill, pip) = if hit {
        (theme::ERROR, Color32::WHITE)
    } else {
        (Color32::from_gray(245), Color32::from_gray(30))
    };
    painter.rect(
        rect,
        3.0,
        fill,
        Stroke::new(1.0, Color32::from_gray(90)),
        egui::StrokeKind::Inside,
    );
    for p in pips(face) {
        let at = Pos2::new(
            rect.left() + rect.width() * p.0,
            rect.top() + rect.height() * p.1,
        );
        painter.circle_filled(at, size * 0.1, pip);
    }
}

/// Where the pips of a face sit, as fractions of the die.
fn pips(face: u8) -> Vec<(f32, f32)> {
    let (l, m, r) = (0.27, 0.5, 0.73);
    match face {
        1 => vec![(m, m)],
        2 => vec![(l, l), (r, r)],
        3 => vec![(l, l), (m, m), (r, r)],
        4 => vec![(l, l), (r, l), (l, r), (r, r)],
        5 => vec![(l, l), (r, l), (m, m), (l, r), (r, r)],
        _ => vec![(l, l), (r, l), (l, m), (r, m), (l, r), (r, r)],
    }
}

/// The log built last, kept until the game, the position or the viewer
/// changes (a game's log is thousands of lines).
#[derive(Default)]
pub(in crate::app) struct Cache {
    key: Option<(u64, usize, Option<Side>)>,
    turns: Vec<Turn>,
}

impl Cache {
    /// The log of the first `upto` actions as `viewer` may know it;
    /// `generation` changes whenever the trace does.
    pub(in crate::app) fn get(
        &mut self,
        game: &Game,
        trace: &Trace,
        upto: usize,
        viewer: Option<Side>,
        generation: u64,
    ) -> &[Turn] {
        let key = (generation, upto, viewer);
        if self.key != Some(key) {
            self.turns = side_log(game, trace, upto, viewer);
            self.key = Some(key);
        }
        &self.turns
    }
}

/// The most of the window's width the log may take (with Play's side
/// panel, under a half).
const LOG_SHARE: f32 = 0.19;
/// The least height of the log when it is under the map: a few turns' lines.
const LOG_MIN_HEIGHT: f32 = 150.0;

/// The game log's height when it goes under the map, else `None` (beside
/// it), for Play and Replay alike: under when the map (`bounds` big),
/// fitted to what is left (`rest` of a window `total` wide), is larger
/// so. A wide map in a tall window would leave empty bands above and below
/// it; the log fills that band instead of narrowing the map.
pub(in crate::app) fn log_below(bounds: egui::Vec2, rest: egui::Vec2, total: f32) -> Option<f32> {
    if bounds.x <= 1.0 || bounds.y <= 1.0 {
        return None;
    }
    let beside = theme::panel_default(total, LOG_SHARE, theme::LOG_PANEL_WIDTH);
    let zoom_beside = ((rest.x - beside) / bounds.x).min(rest.y / bounds.y);
    let zoom_below = (rest.x / bounds.x).min((rest.y - LOG_MIN_HEIGHT) / bounds.y);
    (zoom_below > zoom_beside * 1.05).then(|| (rest.y - zoom_below * bounds.y).max(LOG_MIN_HEIGHT))
}

/// The log's panel: under the map `below` high, else beside it, as
/// [`log_below`] says; the same in Play and Replay.
pub(in crate::app) fn log_panel(id: &str, total: f32, below: Option<f32>) -> egui::Panel {
    match below {
        Some(height) => egui::Panel::bottom(format!("{id}_below"))
            .resizable(false)
            .exact_size(height),
        None => egui::Panel::left(id.to_string())
            .default_size(theme::panel_default(
                total,
                LOG_SHARE,
                theme::LOG_PANEL_WIDTH,
            ))
            .size_range(theme::panel_range(total, LOG_SHARE, theme::LOG_PANEL_RANGE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::AiSpec;
    use crate::games::narrate::Mark;

    /// A game of varied legal actions (multi-step group moves among them).
    fn varied_game() -> (Game, Trace) {
        let game = crate::test_support::published("rules-2.0");
        let mut trace = Trace::new(&game, 7);
        let mut legal = Vec::new();
        for k in 0..800 {
            let s = trace.last();
            if s.is_over() {
                break;
            }
            legal.clear();
            s.legal_actions(&game, &mut legal);
            let pick = legal[k * 7 % legal.len()];
            trace.push(&game, pick).expect("legal");
        }
        (game, trace)
    }

    /// A whole game between heuristic players.
    fn whole_game(variant: &str, seed: u64) -> (Game, Trace) {
        let game = crate::test_support::published(variant);
        let mut players = Side::BOTH.map(|s| AiSpec::Heuristic.player(s, seed, false));
        let trace = Trace::play(&game, seed, &mut players);
        assert!(trace.last().is_over());
        (game, trace)
    }

    /// Whether `text` names `name` as a whole ("Legio 1" is not in "Legio 11").
    fn names(text: &str, name: &str) -> bool {
        text.match_indices(name).any(|(i, _)| {
            !text[i + name.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
        })
    }

    /// A side's name used bare: not "Pompey's side", not "the Pompey block".
    fn bare_side(text: &str) -> Option<&'static str> {
        ["Caesar", "Pompey"].into_iter().find(|side| {
            text.match_indices(side).any(|(i, _)| {
                let (before, after) = (&text[..i], &text[i + side.len()..]);
                !(after.starts_with("'s side")
                    || ((before.ends_with("the ") || before.ends_with("The "))
                        && after.starts_with(" block")))
            })
        })
    }

    /// The lines the window folds into a group's line: a group's start and
    /// the moves made while it moves (as `side_log` tells them).
    fn folded(trace: &Trace) -> Vec<bool> {
        let mut out = vec![false; trace.log_end(0)];
        for i in 0..trace.len() {
            let grouping = trace.state(i).moving_group().is_some();
            out.extend(trace.events(i).iter().map(|e| match e {
                GameEvent::GroupMoves { .. } => true,
                GameEvent::BlockMoved { .. } | GameEvent::BlockSailed { .. } => grouping,
                _ => false,
            }));
        }
        out
    }

    /// Issue 53: every line of whole games, under both editions, reads in
    /// the window as `play` prints it (group moves folded into one line),
    /// and no line, for any reader, names a side bare.
    #[test]
    fn the_window_tells_whole_games_in_plays_words_and_never_a_bare_side() {
        for variant in ["rules-1.1", "rules-2.0"] {
            for seed in [3, 5, 11] {
                let (game, trace) = whole_game(variant, seed);
                let printed: Vec<String> = trace
                    .log()
                    .iter()
                    .zip(folded(&trace))
                    .filter(|(_, folded)| !folded)
                    .map(|(e, _)| narrate::record_line(&game, e))
                    .collect();
                let turns = side_log(&game, &trace, trace.len(), None);
                let window: Vec<&Entry> = turns.iter().flat_map(|t| &t.entries).collect();
                let told: Vec<String> = window
                    .iter()
                    .filter(|e| e.kind != Kind::Group)
                    .map(|e| e.text.clone())
                    .collect();
                let unmarked: Vec<&str> = printed
                    .iter()
                    .map(|l| l.trim_start_matches(['=', '-', ' ']))
                    .collect();
                assert_eq!(told, unmarked, "{variant} seed {seed}");
                assert!(window.iter().any(|e| e.kind == Kind::Group));
                assert!(printed.iter().any(|l| l.starts_with("== Winter of year")));
                for viewer in [Some(Side::Caesar), Some(Side::Pompey), None] {
                    for t in side_log(&game, &trace, trace.len(), viewer) {
                        for e in t.entries {
                            assert_eq!(bare_side(&e.text), None, "{viewer:?}: {:?}", e.text);
                        }
                    }
                }
                for l in &printed {
                    assert_eq!(bare_side(l), None, "{l:?}");
                }
            }
        }
    }

    /// The log's structure follows the events: each battle's lines run from
    /// its heading to its end, a fire's line holds its dice, and a line
    /// inside a battle points at the battle's space.
    #[test]
    fn a_battle_reads_from_its_heading_to_its_end_with_each_fires_dice() {
        let (game, trace) = whole_game("rules-2.0", 5);
        let turns = side_log(&game, &trace, trace.len(), Some(Side::Caesar));
        let lines: Vec<&Entry> = turns.iter().flat_map(|t| &t.entries).collect();
        let begins: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].kind == Kind::BattleBegins)
            .collect();
        assert!(!begins.is_empty());
        for &b in &begins {
            let space = lines[b].space.expect("a battle's place");
            let end = (b..lines.len())
                .find(|&i| lines[i].kind == Kind::BattleOver)
                .expect("every battle ends");
            for e in &lines[b + 1..=end] {
                assert!(e.in_battle, "{:?}", e.text);
                if matches!(e.kind, Kind::Fire | Kind::Round | Kind::BattleOver) {
                    assert_eq!(e.space, Some(space), "{:?}", e.text);
                }
                if e.kind == Kind::Fire {
                    assert!(!e.dice.is_empty(), "{:?}", e.text);
                }
            }
        }
    }

    #[test]
    fn a_group_move_is_one_line_that_names_only_blocks_the_viewer_knows() {
        let (game, trace) = varied_game();
        let groups = |side: Side| {
            trace
                .log()
                .iter()
                .filter(|e| matches!(e, GameEvent::GroupMoves { side: s, .. } if *s == side))
                .count()
        };
        for viewer in [Some(Side::Caesar), Some(Side::Pompey), None] {
            let turns = side_log(&game, &trace, trace.len(), viewer);
            let lines: Vec<&Entry> = turns.iter().flat_map(|t| &t.entries).collect();
            for side in Side::BOTH {
                let told: Vec<&&Entry> = lines
                    .iter()
                    .filter(|e| e.kind == Kind::Group && e.side == Some(side))
                    .collect();
                assert!(groups(side) > 5, "{side} made {} group moves", groups(side));
                assert_eq!(told.len(), groups(side), "{side}, seen by {viewer:?}");
                assert!(told.iter().all(|e| {
                    e.text.starts_with(&format!("{side}'s side moves "))
                        || e.text
                            .starts_with(&format!("{side}'s side starts a group move"))
                }));
                // The other side's blocks the viewer never knew are not named.
                let Some(me) = viewer.filter(|v| *v != side) else {
                    continue;
                };
                for e in told {
                    let ever_known = |b: BlockId| {
                        (0..=e.step).any(|i| trace.state(i).view(me, false).knows(&game, b))
                    };
                    for b in game.roster().of_side(side).filter(|b| !ever_known(*b)) {
                        let name = game.block_name(b);
                        if Side::BOTH.iter().any(|s| s.to_string() == name) {
                            continue;
                        }
                        assert!(!names(&e.text, name), "{me} reads {name} in {:?}", e.text);
                    }
                }
            }
            assert!(
                lines.iter().any(|e| e.text.matches(" to ").count() >= 2),
                "a move of two steps or more, in one line"
            );
        }
    }

    /// Two event cards cancel and end the turn at once (2.x): the log of
    /// either side shows both, though the next turn's position holds
    /// neither (the game's last turn ended so once, "not shown yet").
    #[test]
    fn two_events_that_end_the_turn_are_both_shown_in_the_log() {
        use crate::engine::Stage;
        use crate::games::position_file::PositionDoc;
        let game = crate::test_support::published("rules-2.0");
        let state = PositionDoc::new("rules-2.0")
            .when(1, 2, Stage::PlayCards)
            .hand(Side::Caesar, &["Mercury", "2/3"])
            .hand(Side::Pompey, &["Apollo", "1/2"])
            .block(Side::Caesar, "Legio 11", "Genua")
            .block(Side::Pompey, "Legio 1", "Roma")
            .start(&game)
            .expect("a possible position");
        let mut trace = Trace::from_state(state);
        let play = |trace: &Trace, side: Side, label: &str| {
            let mut legal = Vec::new();
            trace.last().legal_actions(&game, &mut legal);
            *legal
                .iter()
                .find(|a| matches!(a, Action::Play(c) if game.card_label(*c) == label))
                .unwrap_or_else(|| panic!("{side} cannot play {label}"))
        };
        let mercury = play(&trace, Side::Caesar, "Mercury");
        trace.push(&game, mercury).unwrap();
        let apollo = play(&trace, Side::Pompey, "Apollo");
        trace.push(&game, apollo).unwrap();
        assert_ne!(trace.last().turn(), 2, "the two events ended the turn");
        for viewer in [Some(Side::Caesar), Some(Side::Pompey), None] {
            let turns = side_log(&game, &trace, trace.len(), viewer);
            let cards = &turns.iter().find(|t| t.turn == 2).expect("turn 2").cards;
            assert_eq!(
                cards,
                &[Some("Mercury".to_string()), Some("Apollo".to_string())],
                "seen by {viewer:?}"
            );
            let lines: Vec<&str> = turns
                .iter()
                .flat_map(|t| &t.entries)
                .map(|e| e.text.as_str())
                .collect();
            let cancel = "Both sides play event cards: both are cancelled and the turn ends";
            assert!(lines.contains(&cancel), "seen by {viewer:?}: {lines:?}");
        }
    }

    /// The record's marks are narrate's, so `play` and the window agree on
    /// which lines head a turn.
    #[test]
    fn the_printed_record_marks_turns_orders_and_battles() {
        let (game, trace) = whole_game("rules-1.1", 3);
        for e in trace.log() {
            let line = narrate::line(&game, e, &Reader::ALL).expect("all is told to all");
            let printed = narrate::record_line(&game, e);
            match line.mark {
                Mark::Heading => assert!(printed.starts_with("== "), "{printed}"),
                Mark::Orders => assert!(printed.starts_with("-- "), "{printed}"),
                Mark::Indented => assert!(printed.starts_with("  "), "{printed}"),
                Mark::Plain => assert_eq!(printed, line.text),
            }
        }
    }
}
