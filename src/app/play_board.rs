//! The map as a game board, for the Play and Replay tabs: the game's blocks
//! in their spaces as one side may see them (its [`SideView`]), or all of
//! them. A block the viewer may not identify is drawn face down: its side's
//! colour, no name, no strength, and its accessibility node says only
//! "Pompey block". Clicks come back as the space (and the block, when the
//! viewer may see it) under the pointer.

use egui::epaint::{CornerRadius, StrokeKind};
use egui::{Align2, Color32, FontId, Pos2, Rect, Response, Role, Sense, Stroke, Ui, WidgetInfo};

use super::map::{
    MapHit, MapInput, MapMode, MapModel, roman, short_name, short_rating, strength_text,
};
use super::theme;
use super::view::MapView;
use crate::engine::{Game, Place, SideView, State};
use crate::scenario::model::{BlockId, Scenario, Side, SpaceId};

/// What the board shows besides the blocks.
#[derive(Default)]
pub struct Marks<'a> {
    /// Spaces a click would act on (legal destinations, levy cities ...).
    pub targets: &'a [SpaceId],
    /// The space chosen (a moving group's).
    pub selected: Option<SpaceId>,
    /// Blocks chosen (drawn outlined), when the viewer sees them.
    pub chosen_blocks: &'a [BlockId],
    /// Where a battle is being fought.
    pub battle: Option<SpaceId>,
    /// The last move made (either side's): from, to.
    pub last_move: Option<(SpaceId, SpaceId)>,
}

/// A click on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardClick {
    pub space: SpaceId,
    /// The block clicked, if the viewer may identify it.
    pub block: Option<BlockId>,
}

/// The map drawing and its view, kept between frames.
#[derive(Default)]
pub struct PlayBoard {
    model: Option<MapModel>,
    /// The scenario the drawing was built for (its address).
    built_for: usize,
    pub view: MapView,
    /// Each space's blocks as drawn last, and whether each is face up.
    drawn: Vec<Vec<(BlockId, bool)>>,
    /// A space to bring into view and ring (a line of the log clicked).
    pointed: Option<SpaceId>,
    /// The pointed space is still to be centred.
    centre_pending: bool,
    /// Centred only if it is not well inside the map already (following
    /// the AI: the map does not jump at every action).
    centre_if_hidden: bool,
    /// The space whose stack is spread out (the pointer is over it), and
    /// which of its blocks stays where it was.
    spread: Option<(usize, usize)>,
    /// Every block as drawn last: face up, its space, its rectangle.
    drawn_rects: Vec<(BlockId, bool, SpaceId, Rect)>,
    /// The size of the words on the blocks, as drawn last.
    font: f32,
}

/// A stack's blocks side by side with a small gap, the `anchor`-th block
/// (the one pointed at) left where it was, so the pointer stays on it; kept
/// inside the map.
fn spread(rects: &[Rect], area: Rect, anchor: usize) -> Vec<Rect> {
    let Some(at) = rects.get(anchor.min(rects.len().saturating_sub(1))) else {
        return Vec::new();
    };
    let (w, gap) = (at.width(), 3.0);
    let n = rects.len() as f32;
    let width = n * w + (n - 1.0) * gap;
    let left = (at.left() - anchor as f32 * (w + gap))
        .min(area.right() - width)
        .max(area.left());
    (0..rects.len())
        .map(|k| Rect::from_min_size(Pos2::new(left + k as f32 * (w + gap), at.top()), at.size()))
        .collect()
}

/// A ring around a space: a circle around a city's marker, a rounded box
/// around a sea's name (a circle would cross its letters). `radius` is the
/// circle's, and how much larger than the name the box is.
fn ring(painter: &egui::Painter, model: &MapModel, space: SpaceId, radius: f32, stroke: Stroke) {
    if let Some(name) = model.sea_name_rect(space) {
        let margin = (radius * 0.35).max(4.0);
        painter.rect_stroke(name.expand(margin), margin, stroke, StrokeKind::Outside);
    } else if let Some(p) = model.screen_pos(space) {
        painter.circle_stroke(p, radius, stroke);
    }
}

/// `at` (the middle of `space`) moved toward `other` until it is off the
/// sea's name, when `space` is a sea.
fn outside_name(model: &MapModel, space: SpaceId, other: Pos2, at: Pos2) -> Pos2 {
    let Some(name) = model.sea_name_rect(space).map(|r| r.expand(3.0)) else {
        return at;
    };
    (1..=20)
        .map(|k| at.lerp(other, k as f32 / 20.0))
        .find(|p| !name.contains(*p))
        .unwrap_or(at)
}

/// One block as the viewer sees it.
fn face_up(view: Option<&SideView<'_>>, game: &Game, b: BlockId) -> bool {
    view.is_none_or(|v| v.knows(game, b))
}

/// A space's stack as laid out this frame: its blocks' rectangles, and
/// whether it is piled (its blocks almost on top of each other, a count on
/// top) because laid out side by side it would cover a neighbour's stack.
struct Stack {
    space: usize,
    rects: Vec<Rect>,
    piled: bool,
}

/// How much of each block of a piled stack shows above the next one: its
/// line of name, so every block of a pile is read; and how far each is
/// set to the side.
const PILE_RISE: f32 = 0.45;
const PILE_SHIFT: f32 = 0.08;
/// The most blocks of a pile whose names show: the rest lie under the
/// lowest, and a count says how many the pile holds. A pile of seven in
/// Roma would otherwise rise over Ravenna and Genua; pointing at it
/// spreads it out whole.
const PILE_SHOWN: usize = 4;

/// Each stack side by side as the map lays it out, or piled where it would
/// overlap another stack: a fan upward from the space's marker, each block
/// showing its name over the next.
fn layout_stacks(mut stacks: Vec<(usize, Vec<Rect>)>) -> Vec<Stack> {
    let bounds: Vec<Rect> = stacks.iter().map(|(_, r)| union(r)).collect();
    let mut stacks: Vec<Stack> = stacks
        .drain(..)
        .enumerate()
        .map(|(k, (space, rects))| {
            let crowded = rects.len() > 1
                && bounds
                    .iter()
                    .enumerate()
                    .any(|(j, b)| j != k && b.shrink(1.0).intersects(bounds[k].shrink(1.0)));
            if !crowded {
                return Stack {
                    space,
                    rects,
                    piled: false,
                };
            }
            let first = rects[0];
            let n = rects.len();
            let (rise, shift) = (PILE_RISE * first.height(), PILE_SHIFT * first.width());
            let steps = n.min(PILE_SHOWN) - 1;
            let left = bounds[k].center().x - (first.width() + shift * steps as f32) / 2.0;
            let rects = (0..n)
                .map(|i| {
                    // The lowest blocks of a tall pile share the top place.
                    let above = (n - 1 - i).min(steps) as f32;
                    let i = i.saturating_sub(n - 1 - steps);
                    Rect::from_min_size(
                        Pos2::new(left + i as f32 * shift, first.top() - above * rise),
                        first.size(),
                    )
                })
                .collect();
            Stack {
                space,
                rects,
                piled: true,
            }
        })
        .collect();
    separate(&mut stacks);
    stacks
}

/// How far a pile may be pushed from its space to clear its neighbours,
/// in block widths: further, and it would seem to stand somewhere else.
const MAX_PUSH: f32 = 1.2;

/// Piles that still cover each other pushed apart, each by half their
/// overlap along the shorter way out, a few rounds; never further than
/// [`MAX_PUSH`] from where they were laid out. Two piles of neighbouring
/// spaces (Massilia and Narbo, Roma and Neapolis) then both stay readable.
fn separate(stacks: &mut [Stack]) {
    let home: Vec<Rect> = stacks.iter().map(|st| union(&st.rects)).collect();
    let limit = stacks
        .first()
        .and_then(|st| st.rects.first())
        .map_or(0.0, |r| r.width() * MAX_PUSH);
    let mut shift = vec![egui::Vec2::ZERO; stacks.len()];
    for _ in 0..8 {
        let mut moved = false;
        for a in 0..stacks.len() {
            for b in a + 1..stacks.len() {
                if !(stacks[a].piled || stacks[b].piled) {
                    continue;
                }
                let (ra, rb) = (home[a].translate(shift[a]), home[b].translate(shift[b]));
                let overlap = ra.intersect(rb);
                if !ra.intersects(rb) || overlap.width() < 1.0 || overlap.height() < 1.0 {
                    continue;
                }
                let away = if overlap.width() < overlap.height() {
                    egui::vec2(
                        (overlap.width() / 2.0).copysign(ra.center().x - rb.center().x),
                        0.0,
                    )
                } else {
                    egui::vec2(
                        0.0,
                        (overlap.height() / 2.0).copysign(ra.center().y - rb.center().y),
                    )
                };
                shift[a] =
                    (shift[a] + away).clamp(egui::Vec2::splat(-limit), egui::Vec2::splat(limit));
                shift[b] =
                    (shift[b] - away).clamp(egui::Vec2::splat(-limit), egui::Vec2::splat(limit));
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    for (st, d) in stacks.iter_mut().zip(shift) {
        for r in &mut st.rects {
            *r = r.translate(d);
        }
    }
}

/// How many blocks a tall pile holds, on a badge at its top corner.
fn pile_count(painter: &egui::Painter, rects: &[Rect], n: usize, font: f32) {
    let Some(top) = rects.first() else { return };
    let at = top.right_top();
    let r = font * 0.75;
    painter.circle(at, r, theme::BLOCK_TEXT, Stroke::new(1.0, Color32::BLACK));
    painter.text(
        at,
        Align2::CENTER_CENTER,
        n.to_string(),
        FontId::proportional(font * 0.9),
        Color32::BLACK,
    );
}

fn union(rects: &[Rect]) -> Rect {
    rects.iter().fold(Rect::NOTHING, |a, r| a.union(*r))
}

impl PlayBoard {
    /// Draws `state` as `viewer` may see it (`None`: everything) in the
    /// remaining space of `ui`; returns a click on a space, if any.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        game: &Game,
        state: &State,
        viewer: Option<Side>,
        marks: &Marks<'_>,
    ) -> Option<BoardClick> {
        let scenario: &Scenario = &game.scenario;
        let key = std::sync::Arc::as_ptr(&game.scenario) as usize;
        if self.model.is_none() || self.built_for != key {
            self.model = Some(MapModel::rebuild(scenario, self.model.take()));
            self.built_for = key;
        }
        self.drawn = rows(game, state, viewer);
        let model = self.model.as_mut().expect("built above");
        model.set_avoid(self.drawn_rects.iter().map(|(.., r)| *r).collect());
        model.set_rows(
            self.drawn
                .iter()
                .map(|r| r.iter().map(|(b, _)| *b).collect())
                .collect(),
        );
        let input = MapInput {
            mode: MapMode::Board,
            selected: marks.selected.map(MapHit::Space),
            supply: None,
            balance: &[],
            dragging: None,
        };
        let out = model.show(ui, scenario, Some(&game.rules), &mut self.view, &input);
        self.centre_pointed(ui);
        if out.clicked.is_some() {
            self.pointed = None;
        }
        let area = self.view.area();
        let painter = ui.painter_at(area);
        let zoom_u = (self.view.zoom() / 0.5).sqrt().clamp(0.7, 2.6);
        self.paint_marks(&painter, marks, zoom_u);
        let stacks = self.stacks(ui, scenario, area);
        self.paint_stacks(ui, &painter, game, state, marks, stacks);
        self.click(ui, out.clicked, zoom_u)
    }

    /// Centres the pointed space if it is still to be.
    fn centre_pointed(&mut self, ui: &Ui) {
        let Some(model) = &self.model else { return };
        if self.centre_pending
            && let Some(p) = self.pointed.and_then(|s| model.screen_pos(s))
        {
            let area = self.view.area();
            let inside = area.shrink2(area.size() * 0.15).contains(p);
            if !(self.centre_if_hidden && inside) {
                let canvas = self.view.to_map(p);
                self.view.centre_on(canvas);
                ui.ctx().request_repaint();
            }
            self.centre_pending = false;
        }
    }

    /// The pointed space, the targets, the last move and the battle,
    /// under the blocks.
    fn paint_marks(&self, painter: &egui::Painter, marks: &Marks<'_>, zoom_u: f32) {
        let Some(model) = &self.model else { return };
        let ring = |space: SpaceId, radius: f32, stroke: Stroke| {
            ring(painter, model, space, radius * zoom_u, stroke);
        };
        if let Some(s) = self.pointed {
            ring(s, 17.0, Stroke::new(3.0, theme::SELECTED));
        }
        for &s in marks.targets {
            ring(s, 11.0, Stroke::new(3.0, theme::TARGET));
        }
        if let Some((from, to)) = marks.last_move
            && let (Some(a), Some(b)) = (model.screen_pos(from), model.screen_pos(to))
            && a != b
        {
            // From and to a sea's name's edge: never over its letters.
            let a = outside_name(model, from, b, a);
            let b = outside_name(model, to, a, b);
            painter.arrow(a, b - a, Stroke::new(3.0 * zoom_u, theme::LAST_MOVE));
        }
        if let Some(s) = marks.battle {
            ring(s, 14.0, Stroke::new(3.5, theme::ERROR));
        }
    }

    /// Each space's stack as it is to be drawn: side by side, piled where
    /// crowded, or spread out in a row while the pointer is over it (then
    /// last, on top, over a backdrop).
    fn stacks(&mut self, ui: &Ui, scenario: &Scenario, area: Rect) -> Vec<Stack> {
        let Some(model) = &self.model else {
            return Vec::new();
        };
        let hover = ui.input(|i| i.pointer.hover_pos());
        let mut stacks = layout_stacks(
            (0..self.drawn.len())
                .map(|i| (i, model.row_rects(scenario, SpaceId(i as u16))))
                .filter(|(_, r)| !r.is_empty())
                .collect(),
        );
        let over =
            |rects: &[Rect]| hover.is_some_and(|p| rects.iter().any(|r| r.expand(2.0).contains(p)));
        self.spread = self
            .spread
            .filter(|(s, anchor)| {
                stacks.iter().any(|st| {
                    st.space == *s && (over(&st.rects) || over(&spread(&st.rects, area, *anchor)))
                })
            })
            // The stack of the block drawn on top under the pointer, else
            // the topmost stack near it.
            .or_else(|| {
                let p = hover?;
                let &(b, _, space, _) = self
                    .drawn_rects
                    .iter()
                    .rev()
                    .find(|(.., r)| r.expand(1.0).contains(p))?;
                let anchor = self.drawn[space.index()]
                    .iter()
                    .position(|(x, _)| *x == b)?;
                Some((space.index(), anchor))
            })
            .or_else(|| {
                stacks.iter().rev().find(|st| over(&st.rects)).map(|st| {
                    let anchor = st.rects.iter().rposition(|r| over(&[*r])).unwrap_or(0);
                    (st.space, anchor)
                })
            });
        if let Some((space, anchor)) = self.spread
            && let Some(k) = stacks.iter().position(|st| st.space == space)
        {
            let mut st = stacks.remove(k);
            st.rects = spread(&st.rects, area, anchor);
            st.piled = false;
            stacks.push(st);
        }
        stacks
    }

    /// The blocks of each stack, their outlines when chosen, their
    /// accessibility nodes; remembered for clicks.
    fn paint_stacks(
        &mut self,
        ui: &mut Ui,
        painter: &egui::Painter,
        game: &Game,
        state: &State,
        marks: &Marks<'_>,
        stacks: Vec<Stack>,
    ) {
        let area = self.view.area();
        if let Some(st) = stacks
            .last()
            .filter(|st| self.spread.is_some_and(|(s, _)| s == st.space))
        {
            painter.rect_filled(union(&st.rects).expand(4.0), 4.0, theme::STACK_BACKDROP);
        }
        self.drawn_rects.clear();
        let font = self
            .model
            .as_ref()
            .and_then(|m| m.board_font())
            .unwrap_or(super::map::BOARD_FONT);
        self.font = font;
        for st in &stacks {
            let row = &self.drawn[st.space];
            for (k, (&(b, up), rect)) in row.iter().zip(st.rects.iter().copied()).enumerate() {
                if !area.intersects(rect) {
                    continue;
                }
                paint_block(
                    painter,
                    rect,
                    game,
                    state,
                    (b, up),
                    font,
                    hidden_run(row, k, state),
                );
                if up && marks.chosen_blocks.contains(&b) {
                    painter.rect_stroke(
                        rect.expand(2.0),
                        2.0,
                        Stroke::new(2.5, theme::SELECTED),
                        StrokeKind::Outside,
                    );
                }
                self.drawn_rects
                    .push((b, up, SpaceId(st.space as u16), rect));
                register_block(ui, rect, game, state, b, up, (st.space, k), area);
            }
            if st.piled && row.len() > PILE_SHOWN {
                pile_count(painter, &st.rects, row.len(), font);
            }
        }
    }

    /// A click on a space's marker is on the space, though a neighbour's
    /// stack covers it; else on the topmost block under it; else on the
    /// space the map found.
    fn click(&self, ui: &Ui, clicked: Option<Option<MapHit>>, zoom_u: f32) -> Option<BoardClick> {
        let model = self.model.as_ref()?;
        let pointer = ui.input(|i| i.pointer.interact_pos());
        let at = clicked.and(pointer)?;
        if let Some(space) = (0..self.drawn.len()).map(|i| SpaceId(i as u16)).find(|s| {
            model
                .screen_pos(*s)
                .is_some_and(|c| c.distance(at) <= 8.0 * zoom_u)
        }) {
            return Some(BoardClick { space, block: None });
        }
        if let Some(&(b, up, space, _)) = self
            .drawn_rects
            .iter()
            .rev()
            .find(|(.., r)| r.expand(1.0).contains(at))
        {
            return Some(BoardClick {
                space,
                block: up.then_some(b),
            });
        }
        match clicked {
            Some(Some(MapHit::Space(space))) => Some(BoardClick { space, block: None }),
            _ => None,
        }
    }

    /// Brings `space` into the middle of the map and rings it until the
    /// map is clicked.
    pub fn point_at(&mut self, space: SpaceId) {
        self.pointed = Some(space);
        self.centre_pending = true;
        self.centre_if_hidden = false;
    }

    /// Rings `space` and brings it into view if it is near the map's edge
    /// or off it (following the AI's actions).
    pub fn follow(&mut self, space: SpaceId) {
        self.pointed = Some(space);
        self.centre_pending = true;
        self.centre_if_hidden = true;
    }

    /// The block drawn on top at a screen point, as last drawn.
    pub fn block_at(&self, p: Pos2) -> Option<BlockId> {
        self.drawn_rects
            .iter()
            .rev()
            .find(|(.., r)| r.expand(1.0).contains(p))
            .map(|(b, ..)| *b)
    }

    /// The size of the words on the blocks, as last drawn.
    pub fn block_font(&self) -> f32 {
        self.font
    }

    /// The space pointed at (a line of the log clicked), if any.
    pub fn pointed(&self) -> Option<SpaceId> {
        self.pointed
    }

    /// The middle of a space on screen, as last drawn (tests click there).
    pub fn space_centre(&self, space: SpaceId) -> Option<Pos2> {
        self.model.as_ref()?.screen_pos(space)
    }

    /// The screen rectangle of a block as last drawn (spread out if its
    /// stack was), if it is on the map.
    pub fn block_rect(&self, _scenario: &Scenario, block: BlockId) -> Option<Rect> {
        self.drawn_rects
            .iter()
            .find(|(b, ..)| *b == block)
            .map(|(.., r)| *r)
    }
}

/// The blocks in each space as `viewer` sees them: Caesar's first,
/// face-up ones first.
fn rows(game: &Game, state: &State, viewer: Option<Side>) -> Vec<Vec<(BlockId, bool)>> {
    let view = viewer.map(|side| state.view(side, false));
    let mut rows: Vec<Vec<(BlockId, bool)>> = vec![Vec::new(); game.board().len()];
    for b in game.roster().ids() {
        if let Place::Map(at) = state.place(b) {
            rows[at.index()].push((b, face_up(view.as_ref(), game, b)));
        }
    }
    for row in &mut rows {
        row.sort_by_key(|(b, up)| (state.side(*b), !*up, b.0));
    }
    rows
}

/// Face-down blocks in a row are counted on the last of them: how many
/// the `k`-th block counts (0 on any other).
fn hidden_run(row: &[(BlockId, bool)], k: usize, state: &State) -> usize {
    let (b, up) = row[k];
    let next_up = row
        .get(k + 1)
        .is_none_or(|(n, u)| *u || state.side(*n) != state.side(b));
    if up || !next_up {
        return 0;
    }
    row[..=k]
        .iter()
        .rev()
        .take_while(|(n, u)| !*u && state.side(*n) == state.side(b))
        .count()
}

/// A block as the game's blocks look: face up its side's colour, short
/// name, kind, rating and strength (reduced in a paler colour); face down
/// blank in its side's colour, the last of a row of them with their count.
fn paint_block(
    painter: &egui::Painter,
    rect: Rect,
    game: &Game,
    state: &State,
    (b, up): (BlockId, bool),
    font: f32,
    hidden_run: usize,
) {
    let side = state.side(b);
    let block = game.roster().block(b);
    let kind = if up {
        block.kind
    } else {
        crate::scenario::model::BlockKind::Legion
    };
    let (fill, edge) = theme::block(side, kind);
    painter.rect(
        rect,
        CornerRadius::same(3),
        fill,
        Stroke::new(1.5, edge),
        StrokeKind::Inside,
    );
    let pad = egui::vec2(3.0, 1.0);
    if !up {
        if hidden_run > 1 {
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                format!("×{hidden_run}"),
                FontId::proportional(font),
                theme::BLOCK_TEXT,
            );
        }
        return;
    }
    let strength = state.strength(game, b);
    let name = format!("{} {}", short_name(&block.name), kind_letter(block.kind));
    painter.text(
        rect.left_top() + pad,
        Align2::LEFT_TOP,
        name,
        FontId::proportional(font),
        theme::BLOCK_TEXT,
    );
    let reduced = strength < block.max_strength();
    painter.text(
        rect.left_bottom() + egui::vec2(pad.x, -pad.y),
        Align2::LEFT_BOTTOM,
        format!("{} {}", short_board_rating(block), roman(strength)),
        FontId::proportional(font),
        if reduced {
            theme::BLOCK_REDUCED
        } else {
            theme::BLOCK_TEXT
        },
    );
    if state.is_reserve(b) {
        painter.rect_stroke(
            rect,
            3.0,
            Stroke::new(1.5, Color32::WHITE),
            StrokeKind::Inside,
        );
    }
}

/// A block's kind in two letters after its name ("Lg" legion, "Ld" leader).
fn kind_letter(kind: crate::scenario::model::BlockKind) -> &'static str {
    use crate::scenario::model::BlockKind as K;
    match kind {
        K::Leader => "Ld",
        K::Legion => "Lg",
        K::Auxilia => "Ax",
        K::Equitatus => "Eq",
        K::Elephant => "El",
        K::Ballista => "Bl",
        K::Navis => "Nv",
        K::Cleopatra => "Cl",
    }
}

/// The rating as the block prints it, the ballista's attack rating left
/// for its tooltip: "C3".
fn short_board_rating(b: &crate::scenario::model::Block) -> String {
    format!("{}{}", b.initiative.letter(), b.firepower)
}

/// One accessibility node per block drawn: a face-up block by name,
/// strength and side; a face-down one by its side alone. Ids come from
/// the slot, never from the block, so nothing hidden leaks into the tree.
#[allow(clippy::too_many_arguments)]
fn register_block(
    ui: &mut Ui,
    rect: Rect,
    game: &Game,
    state: &State,
    b: BlockId,
    up: bool,
    slot: (usize, usize),
    area: Rect,
) {
    if !area.contains_rect(rect) {
        return;
    }
    let id = ui.scope_id().with(("board_block", slot));
    let response = ui.interact(rect, id, Sense::hover());
    let side = state.side(b);
    if up {
        let block = game.roster().block(b);
        let strength = state.strength(game, b);
        let label = format!("{} ({side}) {}", block.name, super::map::roman(strength));
        response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &label));
        let _: Response = response.on_hover_text(format!(
            "{} — {side} {}, {}, strength {}{}",
            block.name,
            block.kind.label(),
            short_rating(block),
            strength_text(block, strength),
            if state.is_reserve(b) {
                " (reserve)"
            } else {
                ""
            }
        ));
    } else {
        let label = format!("{side} block");
        response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &label));
        let _: Response = response.on_hover_text(format!("A {side} block, face down"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(x: f32, y: f32) -> Rect {
        Rect::from_min_size(Pos2::new(x, y), egui::vec2(20.0, 20.0))
    }

    #[test]
    fn neighbouring_piles_are_pushed_apart_but_stay_near_their_spaces() {
        // Two crowded spaces 16 points apart, three blocks each.
        let a: Vec<Rect> = (0..3)
            .map(|k| block(100.0 + 22.0 * k as f32, 100.0))
            .collect();
        let b: Vec<Rect> = (0..3)
            .map(|k| block(116.0 + 22.0 * k as f32, 110.0))
            .collect();
        let piles = layout_stacks(vec![(0, a.clone()), (1, b.clone())]);
        assert!(piles.iter().all(|st| st.piled));
        let (pa, pb) = (union(&piles[0].rects), union(&piles[1].rects));
        assert!(
            pa.intersect(pb).width() < 2.0 || pa.intersect(pb).height() < 2.0 || !pa.intersects(pb),
            "{pa:?} still covers {pb:?}"
        );
        for (st, home) in piles.iter().zip([&a, &b]) {
            let moved = union(&st.rects).center().x - union(home).center().x;
            assert!(moved.abs() <= 20.0 * MAX_PUSH + 1.0, "moved {moved}");
        }
    }
}
