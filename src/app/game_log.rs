//! The game's log as one side may know it, for the Play and Replay tabs:
//! every action in words, grouped by year and turn, newest at the bottom.
//! The other side's hidden decisions read as what a player across the table
//! sees ("Pompey's side moves a block from Antiochia to Tarsus", "Pompey's
//! side plays a card"): a side is always "Pompey's side", the leader "the
//! Pompey block", never one for the other; only what the side's
//! [`SideView`] knows is named. Battles are
//! narrated fire by fire: the block, its dice, the hits and who took them,
//! round by round, and a summary (steps lost, who holds the space).
//!
//! One function builds it for both tabs, so Play and Replay cannot differ
//! in what they reveal.

use egui::{Color32, Pos2, RichText, Sense, Stroke, Ui, vec2};

use super::theme;
use crate::engine::GameEvent;
use crate::engine::{Action, Game, Period, SideView, State};
use crate::games::narrate::{self, block_name, side_words};
use crate::games::trace::{Trace, action_block, action_space};
use crate::scenario::model::{BlockId, Side, SpaceId};

/// One line of the log.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    /// The position after the action the line tells of.
    pub step: usize,
    pub text: String,
    /// Where it happened, to show on the map.
    pub space: Option<SpaceId>,
    /// Whose decision or fire (its colour), if a side's.
    pub side: Option<Side>,
    /// A fire's dice: each face, and whether it hit.
    pub dice: Vec<(u8, bool)>,
    /// Part of a battle (indented under its heading).
    pub in_battle: bool,
    /// What the line tells of (the battle panel picks a battle's lines).
    pub kind: Kind,
}

/// What a line of the log tells of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A side's decision.
    Action,
    /// A block firing (its dice on the line).
    Fire,
    /// Steps a block lost, or its elimination.
    Hit,
    /// A battle begins (its heading).
    BattleBegins,
    /// A new battle round.
    Round,
    /// A battle's summary: casualties and who holds the space.
    BattleOver,
    /// Anything else (a winter, the game's end).
    Note,
}

/// The actions of one game turn (the year's discards count as its first).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Turn {
    pub year: u8,
    pub turn: u8,
    /// The card each side played this turn, once the viewer may see it.
    pub cards: [Option<String>; 2],
    pub entries: Vec<Entry>,
}

/// A battle being told: where it began, to sum it up at its end.
struct Fought {
    space: SpaceId,
    lost_before: [u32; 2],
    eliminated_before: [u32; 2],
    round: u8,
}

/// The log of the first `upto` actions of `trace` as `viewer` may know it
/// (`None`: everything).
pub(super) fn side_log(game: &Game, trace: &Trace, upto: usize, viewer: Option<Side>) -> Vec<Turn> {
    let upto = upto.min(trace.len());
    let mut turns: Vec<Turn> = Vec::new();
    let mut fought: Option<Fought> = None;
    let mut moving: Option<Moving> = None;
    for i in 0..upto {
        let (before, after) = (trace.state(i), trace.state(i + 1));
        let here = (before.year(), before.turn());
        if turns.last().is_none_or(|t| (t.year, t.turn) != here) {
            turns.push(Turn {
                year: here.0,
                turn: here.1,
                cards: [None, None],
                entries: Vec::new(),
            });
        }
        let turn = turns.last_mut().expect("pushed above");
        let (seen_before, seen_after) = (seen(before, viewer), seen(after, viewer));
        let known = |b: BlockId| seen_before.knows(game, b) || seen_after.knows(game, b);
        let decider = trace.decider(i);
        let action = trace.action(i);
        let events = trace.events(i);
        let text = action_words(
            game,
            action,
            decider,
            (before, after),
            &seen_before,
            &seen_after,
        );
        let battle_space = before.battle_info().map(|b| b.space);
        let mut entry = Entry {
            step: i + 1,
            text,
            space: action_space(before, action).or(battle_space),
            side: Some(decider),
            dice: Vec::new(),
            in_battle: battle_space.is_some(),
            kind: Kind::Action,
        };
        if action == Action::Fire
            && let Some(b) = before.battle_info().and_then(|b| b.acting)
        {
            tell_fire(game, (before, &seen_before), b, events, &mut entry);
        }
        if !fold_group_move(
            game,
            (before, action, decider),
            &mut moving,
            entry,
            turn,
            &known,
        ) {
            moving = None;
        }
        told_by_events(game, events, (&known, viewer), i + 1, &mut turn.entries);
        if let Action::JupiterAt(at) | Action::VulcanCity(at) = action {
            let seen = (&seen_before, &seen_after);
            struck(game, (before, after), seen, at, i + 1, &mut turn.entries);
        }
        if let Some(space) = battle_space {
            hits(
                game,
                before,
                after,
                &seen_before,
                space,
                i + 1,
                &mut turn.entries,
            );
        }
        battle_lines(game, after, &mut fought, i + 1, &mut turn.entries);
        if after.period() == Period::Winter && before.period() != Period::Winter {
            turn.entries
                .push(note(i + 1, format!("Winter of year {}", before.year())));
        }
        if let Some(o) = after.outcome() {
            let text = match o.winner {
                Some(w) => format!("Game over: {w} wins, VP {}-{}", o.vp[0], o.vp[1]),
                None => format!("Game over: a draw, VP {}-{}", o.vp[0], o.vp[1]),
            };
            turn.entries.push(note(i + 1, text));
        }
        // The cards of the turn, as the last position of it shows them.
        for side in Side::BOTH {
            if let Some(c) = shown_card(before, after, &seen_after, (action, decider), side) {
                turn.cards[side.index()] = Some(game.card_label(c));
            }
        }
    }
    turns
}

/// A fire (7.3) told as the block that fired, as the viewer knows it, the
/// hits it scored, and its dice.
fn tell_fire(
    game: &Game,
    (before, seen): (&State, &SideView<'_>),
    b: BlockId,
    events: &[GameEvent],
    entry: &mut Entry,
) {
    entry.dice = fire_dice(b, events);
    let scored = entry.dice.iter().filter(|(_, hit)| *hit).count();
    entry.text = format!(
        "{} fires: {}",
        block_words(game, before, seen, b),
        match scored {
            0 => "no hit".to_string(),
            1 => "1 hit".to_string(),
            n => format!("{n} hits"),
        }
    );
    entry.kind = Kind::Fire;
}

/// A group move told in one line, as it goes: each block's way so far.
struct Moving {
    /// The line's place in its turn's entries.
    entry: usize,
    side: Side,
    from: SpaceId,
    /// Each block moved: whether the viewer may name it, where it began,
    /// and every space it entered (by sea or not).
    ways: Vec<Way>,
    /// The group is over.
    ended: bool,
}

struct Way {
    block: BlockId,
    named: bool,
    start: SpaceId,
    hops: Vec<(SpaceId, bool)>,
}

/// Folds `entry` (the words for `action`) into the group move being told:
/// a group's start opens its line, each step lengthens it, its end closes
/// it. Anything else is pushed as a line of its own; returns whether a
/// group move is still open.
fn fold_group_move(
    game: &Game,
    (before, action, side): (&State, Action, Side),
    moving: &mut Option<Moving>,
    entry: Entry,
    turn: &mut Turn,
    known: &dyn Fn(BlockId) -> bool,
) -> bool {
    let step = match action {
        Action::Step { block, to } => Some((block, to, false)),
        Action::SeaMove { block, to } => Some((block, to, true)),
        _ => None,
    };
    match (action, step, moving.as_mut()) {
        (Action::Group(from), ..) => {
            *moving = Some(Moving {
                entry: turn.entries.len(),
                side,
                from,
                ways: Vec::new(),
                ended: false,
            });
            turn.entries.push(entry);
            true
        }
        (_, Some((block, to, by_sea)), Some(m)) if before.moving_group().is_some() => {
            match m.ways.iter_mut().find(|w| w.block == block) {
                Some(w) => w.hops.push((to, by_sea)),
                None => m.ways.push(Way {
                    block,
                    named: known(block),
                    start: before.location(block).unwrap_or(m.from),
                    hops: vec![(to, by_sea)],
                }),
            }
            let line = &mut turn.entries[m.entry];
            line.text = group_words(game, m);
            line.step = entry.step;
            line.space = Some(to);
            true
        }
        (Action::EndGroup, _, Some(m)) => {
            m.ended = true;
            let line = &mut turn.entries[m.entry];
            line.text = group_words(game, m);
            line.step = entry.step;
            false
        }
        _ => {
            turn.entries.push(entry);
            false
        }
    }
}

/// A group move in one line: "Pompey's side moves 3 blocks from Antiochia to
/// Tarsus to Ancyra"; blocks that went different ways each with their way.
/// Blocks the viewer may not name are counted, never named.
fn group_words(game: &Game, m: &Moving) -> String {
    let side = side_words(m.side);
    let from = game.space_name(m.from);
    if m.ways.is_empty() {
        return if m.ended {
            format!("{side} starts a group move from {from} and moves no block")
        } else {
            format!("{side} moves a group from {from}")
        };
    }
    // The ways taken, each with the blocks that took it, in order.
    let mut routes: Vec<(String, Vec<&Way>)> = Vec::new();
    for w in &m.ways {
        let mut route = String::new();
        if w.start != m.from {
            route = format!(" from {}", game.space_name(w.start));
        }
        for &(to, by_sea) in &w.hops {
            route.push_str(" to ");
            route.push_str(game.space_name(to));
            if by_sea {
                route.push_str(" by sea");
            }
        }
        match routes.iter_mut().find(|(r, _)| *r == route) {
            Some((_, ws)) => ws.push(w),
            None => routes.push((route, vec![w])),
        }
    }
    let who = |ways: &[&Way]| {
        let mut parts: Vec<String> = ways
            .iter()
            .filter(|w| w.named)
            .map(|w| block_name(game, w.block))
            .collect();
        match ways.iter().filter(|w| !w.named).count() {
            0 => {}
            1 => parts.push("a block".into()),
            n => parts.push(format!("{n} blocks")),
        }
        match parts.len() {
            1 => parts.remove(0),
            _ => {
                let last = parts.pop().expect("two or more");
                format!("{} and {last}", parts.join(", "))
            }
        }
    };
    if let [(route, ways)] = routes.as_slice() {
        return format!("{side} moves {} from {from}{route}", who(ways));
    }
    let each: Vec<String> = routes
        .iter()
        .map(|(route, ways)| format!("{}{route}", who(ways)))
        .collect();
    format!("{side} moves a group from {from}: {}", each.join("; "))
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

fn note(step: usize, text: String) -> Entry {
    Entry {
        step,
        text,
        space: None,
        side: None,
        dice: Vec::new(),
        in_battle: false,
        kind: Kind::Note,
    }
}

/// A block as the viewer may name it: "Antonius (Pompey)" or "a Pompey block".
/// A block as the viewer may name it, in the renderer's one convention.
fn block_words(game: &Game, state: &State, view: &SideView<'_>, b: BlockId) -> String {
    let knows = |x: BlockId| view.knows(game, x);
    let reader = narrate::Reader {
        side: (!view.is_omniscient()).then(|| view.side()),
        knows: &knows,
    };
    narrate::block_words(game, &reader, state.side(b), b)
}

/// The events no decision shows: Jupiter's roll, a navis the winter sends
/// to its only port (or disbands), the victory check, Cleopatra going home.
fn told_by_events(
    game: &Game,
    events: &[GameEvent],
    (known, viewer): (&dyn Fn(BlockId) -> bool, Option<Side>),
    step: usize,
    out: &mut Vec<Entry>,
) {
    let reader = narrate::Reader {
        side: viewer,
        knows: known,
    };
    for event in events {
        let (space, side) = match event {
            GameEvent::JupiterPick { at, side, .. } => (Some(*at), Some(*side)),
            GameEvent::NavisToPort {
                to,
                side,
                chosen: false,
                ..
            } => (Some(*to), Some(*side)),
            GameEvent::NavisLost { side, .. } => (None, Some(*side)),
            GameEvent::VictoryCheck { .. } => (None, None),
            // 8.1 moves a hidden block: told only to whoever knows her.
            GameEvent::CleopatraReturns { block, side, .. }
                if viewer.is_none_or(|v| v == *side) || known(*block) =>
            {
                (None, None)
            }
            _ => continue,
        };
        out.push(Entry {
            space,
            side,
            ..note(step, narrate::words(game, event, &reader))
        });
    }
}

/// An action in words as the viewer may know it: one's own (or seen) in
/// full, the other side's hidden ones as a player across the table sees them.
fn action_words(
    game: &Game,
    action: Action,
    side: Side,
    (before, after): (&State, &State),
    seen_before: &SideView<'_>,
    seen_after: &SideView<'_>,
) -> String {
    let own = seen_before.is_omniscient() || seen_before.side() == side;
    let played = seen_after.played(side);
    let side = side_words(side);
    let full = format!("{side}: {}", game.action_text(action));
    if own {
        return full;
    }
    let space = |s: SpaceId| game.space_name(s).to_string();
    // A block is named only if the viewer knows it, before or after.
    let known = |b: BlockId| seen_before.knows(game, b) || seen_after.knows(game, b);
    let from = |b: BlockId| before.location(b).map_or("the pool".to_string(), space);
    match action {
        Action::Discard(_) => format!("{side} discards a card"),
        // A card that ends the turn was shown with the other (see shown_card).
        Action::Play(c) if played == Some(c) || !same_turn(before, after) => {
            format!("{side} plays {}", game.card_label(c))
        }
        Action::Play(_) => format!("{side} plays a card"),
        Action::Surprise(Some(_)) => format!("{side} names a battle for the surprise attack"),
        Action::Group(s) => format!("{side} moves a group from {}", space(s)),
        Action::Step { block, to }
        | Action::SeaMove { block, to }
        | Action::Regroup { block, to }
        | Action::NavisToPort { block, to }
            if !known(block) =>
        {
            format!("{side} moves a block from {} to {}", from(block), space(to))
        }
        Action::Levy { block, at } if !known(block) => {
            format!("{side} levies a block in {}", space(at))
        }
        Action::AddStep(b) | Action::Disband(b) | Action::TakeHit(b) | Action::TakeTurn(b)
            if !known(b) =>
        {
            let verb = match action {
                Action::AddStep(_) => "adds a step to",
                Action::Disband(_) => "disbands",
                Action::TakeHit(_) => "takes a hit on",
                _ => "takes the turn of",
            };
            format!("{side} {verb} a block in {}", from(b))
        }
        // Every action naming a block is matched above when it is unknown.
        _ if action_block(action).is_some_and(|b| !known(b)) => format!("{side} acts"),
        _ => full,
    }
}

/// The dice of the block's fire among the action's events, each with
/// whether it hit (7.4).
fn fire_dice(b: BlockId, events: &[GameEvent]) -> Vec<(u8, bool)> {
    events
        .iter()
        .find_map(|e| match e {
            GameEvent::Fire {
                block,
                dice,
                hit_max,
                ..
            } if *block == b => Some(dice.iter().map(|&d| (d, d <= *hit_max)).collect()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The steps the blocks in the battle at `space` lost by this action, and
/// the blocks it eliminated.
fn hits(
    game: &Game,
    before: &State,
    after: &State,
    seen: &SideView<'_>,
    space: SpaceId,
    step: usize,
    out: &mut Vec<Entry>,
) {
    for side in Side::BOTH {
        for b in before.blocks_at(space, side) {
            let was = before.strength(game, b);
            let now = match after.location(b) {
                Some(_) if after.side(b) == side => after.strength(game, b),
                Some(_) => continue,
                None => 0,
            };
            if now >= was || after.location(b).is_some_and(|at| at != space) {
                continue;
            }
            let who = block_words(game, before, seen, b);
            let text = if now == 0 {
                format!("{who} is eliminated")
            } else {
                let hits = match was - now {
                    1 => "1 hit".to_string(),
                    n => format!("{n} hits"),
                };
                format!("{who} takes {hits}, now {}", super::map::roman(now))
            };
            out.push(Entry {
                step,
                text,
                space: Some(space),
                side: Some(side),
                dice: Vec::new(),
                in_battle: true,
                kind: Kind::Hit,
            });
        }
    }
}

/// What Jupiter or Vulcan did at `at`: a block that changed sides, steps
/// lost, blocks eliminated (named as the viewer knows them afterwards).
fn struck(
    game: &Game,
    (before, after): (&State, &State),
    (seen_before, seen_after): (&SideView<'_>, &SideView<'_>),
    at: SpaceId,
    step: usize,
    out: &mut Vec<Entry>,
) {
    for side in Side::BOTH {
        for b in before.blocks_at(at, side) {
            // Named if the viewer knew it before or knows it now.
            let who = if seen_before.knows(game, b) {
                block_words(game, before, seen_before, b)
            } else {
                block_words(game, after, seen_after, b)
            };
            let (was, now) = (before.strength(game, b), after.strength(game, b));
            let text = if after.location(b).is_none() {
                format!("{who} is eliminated")
            } else if after.side(b) != side {
                format!("{who} defects to {}", after.side(b))
            } else if now < was {
                format!("{who} loses a step, now {}", super::map::roman(now))
            } else {
                continue;
            };
            out.push(Entry {
                step,
                text,
                space: Some(at),
                side: Some(after.side(b)),
                dice: Vec::new(),
                in_battle: false,
                kind: Kind::Hit,
            });
        }
    }
}

/// A battle's heading when it begins, its rounds, and its summary when it
/// ends: steps lost by each side and who holds the space.
fn battle_lines(
    game: &Game,
    after: &State,
    fought: &mut Option<Fought>,
    step: usize,
    out: &mut Vec<Entry>,
) {
    let now = after.battle_info();
    if let Some(f) = fought.as_mut()
        && now.is_none_or(|b| b.space != f.space)
    {
        let lost = after.stats.steps_lost;
        let occupied = Side::BOTH.map(|s| after.blocks_at(f.space, s).next().is_some());
        let holder = match occupied {
            [true, false] => format!("Caesar's side holds {}", game.space_name(f.space)),
            [false, true] => format!("Pompey's side holds {}", game.space_name(f.space)),
            _ => format!("{} is left empty", game.space_name(f.space)),
        };
        let casualties = |side: Side| {
            let i = side.index();
            let steps = lost[i].saturating_sub(f.lost_before[i]);
            let blocks = after.stats.blocks_eliminated[i].saturating_sub(f.eliminated_before[i]);
            let steps = match steps {
                1 => "1 step".to_string(),
                n => format!("{n} steps"),
            };
            let side = side_words(side);
            match blocks {
                0 => format!("{side} lost {steps}"),
                1 => format!("{side} lost {steps} (1 block eliminated)"),
                n => format!("{side} lost {steps} ({n} blocks eliminated)"),
            }
        };
        let text = format!(
            "Battle over: {}, {}; {holder}",
            casualties(Side::Caesar),
            casualties(Side::Pompey)
        );
        out.push(Entry {
            space: Some(f.space),
            in_battle: true,
            kind: Kind::BattleOver,
            ..note(step, text)
        });
        *fought = None;
    }
    let Some(b) = now else { return };
    if fought.is_none() {
        let text = format!(
            "Battle of {}: {} attacks",
            game.space_name(b.space),
            b.attacker
        );
        out.push(Entry {
            space: Some(b.space),
            side: Some(b.attacker),
            kind: Kind::BattleBegins,
            ..note(step, text)
        });
        *fought = Some(Fought {
            space: b.space,
            lost_before: after.stats.steps_lost,
            eliminated_before: after.stats.blocks_eliminated,
            round: 0,
        });
    }
    if let Some(f) = fought.as_mut()
        && b.round > f.round
    {
        f.round = b.round;
        out.push(Entry {
            space: Some(b.space),
            in_battle: true,
            kind: Kind::Round,
            ..note(step, format!("Round {}", b.round))
        });
    }
}

/// The lines of the battle being fought, or of the last one fought this
/// turn: from its heading to its summary.
pub(super) fn battle_story(turns: &[Turn]) -> Option<&[Entry]> {
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
pub(super) struct Clicked {
    pub step: usize,
    pub space: Option<SpaceId>,
}

/// The log in a scroll area that follows the newest line; returns a click
/// on a line.
pub(super) fn show(ui: &mut Ui, turns: &[Turn], height: f32) -> Option<Clicked> {
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt("game_log")
        .max_height(height)
        .auto_shrink([false, true])
        .stick_to_bottom(true)
        .show(ui, |ui| {
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
                        format!("{s}: {card}")
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
pub(super) fn show_battle(ui: &mut Ui, story: &[Entry]) -> Option<Clicked> {
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
        egui::ScrollArea::vertical()
            .id_salt("battle_story")
            .max_height(BATTLE_STORY_HEIGHT)
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for e in story {
                    let strong =
                        matches!(e.kind, Kind::BattleBegins | Kind::Round | Kind::BattleOver);
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
pub(super) struct Cache {
    key: Option<(u64, usize, Option<Side>)>,
    turns: Vec<Turn>,
}

impl Cache {
    /// The log of the first `upto` actions as `viewer` may know it;
    /// `generation` changes whenever the trace does.
    pub(super) fn get(
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
pub(super) fn log_below(bounds: egui::Vec2, rest: egui::Vec2, total: f32) -> Option<f32> {
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
pub(super) fn log_panel(id: &str, total: f32, below: Option<f32>) -> egui::Panel {
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

    /// Whether `text` names `name` as a whole ("Legio 1" is not in "Legio 11").
    fn names(text: &str, name: &str) -> bool {
        text.match_indices(name).any(|(i, _)| {
            !text[i + name.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
        })
    }

    #[test]
    fn a_group_move_is_one_line_that_names_only_blocks_the_viewer_knows() {
        let (game, trace) = varied_game();
        // A sea move on its own (6.3) is not a group's.
        let is_group = |i: usize| match trace.action(i) {
            Action::Group(_) | Action::Step { .. } | Action::EndGroup => true,
            Action::SeaMove { .. } => trace.state(i).moving_group().is_some(),
            _ => false,
        };
        let groups = |side: Side| {
            (0..trace.len())
                .filter(|&i| {
                    trace.decider(i) == side && matches!(trace.action(i), Action::Group(_))
                })
                .count()
        };
        for viewer in [Some(Side::Caesar), Some(Side::Pompey), None] {
            let turns = side_log(&game, &trace, trace.len(), viewer);
            let lines: Vec<&Entry> = turns.iter().flat_map(|t| &t.entries).collect();
            for side in Side::BOTH {
                let told: Vec<&&Entry> = lines
                    .iter()
                    .filter(|e| {
                        e.kind == Kind::Action && e.side == Some(side) && is_group(e.step - 1)
                    })
                    .collect();
                assert!(groups(side) > 5, "{side} made {} group moves", groups(side));
                assert_eq!(
                    told.len(),
                    groups(side),
                    "{side}'s group moves, seen by {viewer:?}"
                );
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

    #[test]
    fn a_leader_named_for_his_side_reads_as_a_block_never_as_the_side() {
        let game = crate::test_support::published("rules-2.0");
        let state = crate::engine::State::new(&game, 1);
        let view = state.view(Side::Caesar, false);
        let named = |name: &str| {
            let b = game.roster().ids().find(|b| game.block_name(*b) == name);
            block_words(&game, &state, &view, b.expect("in the roster"))
        };
        assert_eq!(named("Caesar"), "the Caesar block");
        assert_eq!(named("Legio 13"), "Legio 13 (Caesar's side)");
        assert_eq!(side_words(Side::Pompey), "Pompey's side");
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
            // Caesar's card was face down when played; Pompey's, the
            // second, showed both.
            let told = match viewer {
                Some(Side::Caesar) => "Pompey's side plays Apollo",
                _ => "Pompey's side: Play Apollo",
            };
            assert!(lines.contains(&told), "seen by {viewer:?}: {lines:?}");
        }
    }
}
