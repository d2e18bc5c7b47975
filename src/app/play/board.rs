//! The map as a game board, for the Play and Replay tabs: the game's blocks
//! in their spaces as one side may see them (its [`SideView`]), or all of
//! them. A block the viewer may not identify is drawn face down: its side's
//! colour, no name, no strength, and its accessibility node says only
//! "Pompey block". Clicks come back as the space (and the block, when the
//! viewer may see it) under the pointer. Each block is a compact square
//! (its side's colour, its initials, its strength as pips on its lower
//! edge), a space's squares a small grid touching the space's dot that
//! [`super::stacks`] places from that space alone; pointing at a
//! space or a block lists the whole stack in words.

use egui::epaint::{CornerRadius, StrokeKind};
use egui::{Align2, Color32, FontId, Pos2, Rect, Response, Role, Sense, Stroke, Ui, WidgetInfo};

use super::stacks::{self, Placed, STACK_GAP, StackSpec};
use crate::app::map::view::MapView;
use crate::app::map::{MapHit, MapInput, MapMode, MapModel, roman, short_rating, strength_text};
use crate::app::theme;
use crate::engine::{Game, Place, SideView, State};
use crate::games::trace::Trace;
use crate::scenario::model::SpaceKind;
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
    /// The moves of the turn so far (either side's): from, to, and how
    /// strongly drawn (the newest 1, older ones fading).
    pub moves: &'a [(SpaceId, SpaceId, f32)],
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
    /// Every block as drawn last: face up, its space, its rectangle.
    drawn_rects: Vec<(BlockId, bool, SpaceId, Rect)>,
    /// Every face-up block's words as drawn last: the block, the words,
    /// and where they stand on screen.
    words: Vec<(BlockId, String, Rect)>,
    /// The spaces' names on screen as drawn last (the stacks keep off them).
    names: Vec<Rect>,
    /// The stacks as placed last, and what they were placed for: the
    /// stacks, the square's size, the map's area and every space's dot
    /// and name by space.
    placed: Vec<Placed>,
    placed_for: Option<StackInputs>,
    /// The size of the words on the blocks, as drawn last.
    font: f32,
}

/// What the stacks were placed from (see [`stacks::place`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StackInputs {
    pub stacks: Vec<StackSpec>,
    /// A block's square, on a side.
    pub cell: f32,
    pub area: Rect,
    /// Every space's marker and name on screen, with its index.
    pub fixed: Vec<(usize, Rect)>,
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
        model.set_tiles(
            self.drawn_rects
                .iter()
                .map(|&(_, _, s, r)| (s, r))
                .collect(),
        );
        model.set_rows(
            self.drawn
                .iter()
                .map(|r| r.iter().map(|(b, _)| *b).collect())
                .collect(),
        );
        model.set_stack_words(
            self.drawn
                .iter()
                .map(|row| stack_words(game, state, row))
                .collect(),
        );
        let input = MapInput {
            mode: MapMode::Board,
            selected: marks.selected.map(MapHit::Space),
            supply: None,
            balance: &[],
            dragging: None,
            reachable: Some(marks.targets),
        };
        let out = model.show(ui, scenario, Some(&game.rules), &mut self.view, &input);
        self.font = model.board_font().unwrap_or(crate::app::map::BOARD_FONT);
        self.centre_pointed(ui);
        if out.clicked.is_some() {
            self.pointed = None;
        }
        let area = self.view.area();
        let painter = ui.painter_at(area);
        let zoom_u = (self.view.zoom() / 0.5).sqrt().clamp(0.7, 2.6);
        self.paint_marks(&painter, marks, zoom_u);
        self.place_stacks(scenario, area, cell_size(zoom_u));
        self.paint_stacks(ui, &painter, game, state, marks);
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

    /// The pointed space, the targets, the turn's moves and the battle,
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
        for &(from, to, strength) in marks.moves {
            let (Some(a), Some(b)) = (model.screen_pos(from), model.screen_pos(to)) else {
                continue;
            };
            if a == b {
                continue;
            }
            // From and to a sea's name's edge: never over its letters.
            let a = outside_name(model, from, b, a);
            let b = outside_name(model, to, a, b);
            let colour = theme::LAST_MOVE.gamma_multiply(strength.clamp(0.2, 1.0));
            painter.arrow(a, b - a, Stroke::new(3.0 * zoom_u, colour));
        }
        if let Some(s) = marks.battle {
            ring(s, 14.0, Stroke::new(3.5, theme::ERROR));
        }
    }

    /// Each space's grid of squares at its dot ([`stacks::place`]),
    /// placed again only when the stacks, the zoom, the pan or the names change.
    fn place_stacks(&mut self, scenario: &Scenario, area: Rect, cell: f32) {
        let Some(model) = &self.model else { return };
        let marks = model.marks_by_space(scenario);
        if marks.len() != self.drawn.len() {
            return;
        }
        let stacks: Vec<StackSpec> = self
            .drawn
            .iter()
            .enumerate()
            .filter(|(_, row)| !row.is_empty())
            .filter_map(|(i, row)| {
                let (_, radius, marker, name) = marks[i];
                let sea = scenario.board.spaces[i].kind == SpaceKind::Sea;
                Some(StackSpec {
                    space: i,
                    dot: model.screen_pos(SpaceId(i as u16))?,
                    // A sea's stack stands off its name.
                    radius: if sea {
                        name.width().max(name.height()) / 2.0
                    } else {
                        radius
                    },
                    marker,
                    name,
                    blocks: row.len(),
                })
            })
            .collect();
        let fixed: Vec<(usize, Rect)> = marks
            .iter()
            .flat_map(|&(i, _, marker, name)| [(i, marker), (i, name)])
            .filter(|(_, r)| r.is_positive())
            .collect();
        let key = StackInputs {
            stacks,
            cell,
            area,
            fixed,
        };
        if self.placed_for.as_ref() == Some(&key) {
            return;
        }
        self.placed = stacks::place(&key.stacks, key.cell, STACK_GAP, &key.fixed, key.area);
        self.names = marks.iter().map(|m| m.3).collect();
        self.placed_for = Some(key);
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
    ) {
        let area = self.view.area();
        self.drawn_rects.clear();
        self.words.clear();
        let placed = std::mem::take(&mut self.placed);
        for st in &placed {
            let row = &self.drawn[st.space];
            for (k, (&(b, up), rect)) in row.iter().zip(st.rects.iter().copied()).enumerate() {
                if !area.intersects(rect) {
                    continue;
                }
                if let Some(words) = paint_block(painter, rect, game, state, (b, up)) {
                    self.words.push((b, words.0, words.1));
                }
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
                register_block(ui, rect, (game, state), (b, up), row, (st.space, k), area);
            }
        }
        self.placed = placed;
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

    /// Every face-up block's words as last drawn, with where they stand
    /// on screen (tests read each block of every stack).
    pub fn block_words(&self) -> &[(BlockId, String, Rect)] {
        &self.words
    }

    /// Every block's tile as last drawn: the block, face up or not, its space.
    pub fn block_tiles(&self) -> Vec<(BlockId, bool, SpaceId, Rect)> {
        self.drawn_rects.clone()
    }

    /// The spaces lit up around the hovered one, as last drawn (tests).
    pub fn lit_spaces(&self) -> Vec<SpaceId> {
        self.model.as_ref().map_or(Vec::new(), |m| m.lit().to_vec())
    }

    /// The spaces' names (and the seas') on screen, as last drawn.
    pub fn space_names(&self) -> &[Rect] {
        &self.names
    }

    /// Forgets the ring of a line clicked and the zoom: a new game starts
    /// on the whole map.
    pub fn reset(&mut self) {
        self.pointed = None;
        self.centre_pending = false;
        self.view.fit();
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

    /// What the stacks were last placed from: tests place them again
    /// with [`stacks::place`] and compare.
    pub fn stack_inputs(&self) -> Option<&StackInputs> {
        self.placed_for.as_ref()
    }

    /// The screen rectangle of a block as last drawn, if it is on the map.
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

/// The moves of the turn so far (see [`crate::games::trace::turn_moves`]),
/// each with how strongly to draw it: the newest 1, older ones fainter.
pub(crate) fn turn_moves(trace: &Trace, upto: usize) -> Vec<(SpaceId, SpaceId, f32)> {
    let moves = crate::games::trace::turn_moves(trace, upto);
    let n = moves.len() as f32;
    moves
        .into_iter()
        .enumerate()
        .map(|(k, (from, to))| (from, to, 0.35 + 0.65 * (k as f32 + 1.0) / n))
        .collect()
}

/// A block's square at the map's zoom (`zoom_u`, as the markers and names
/// grow with it): 20 points at 1, never under 15 (a small window), room
/// for its initials over its pips.
pub(crate) fn cell_size(zoom_u: f32) -> f32 {
    (20.0 * zoom_u).round().clamp(15.0, 48.0)
}

/// A block's initials on its square, as printed on the block: "L13" for
/// Legio 13, "A1" for Auxilia 1, "Cae" for Caesar.
pub(crate) fn initials(name: &str) -> String {
    crate::app::map::short_name(name)
}

/// What the board says of a stack in words (its space's card and a block's
/// hover): one line per block as the viewer may know it, Caesar's first.
fn stack_words(game: &Game, state: &State, row: &[(BlockId, bool)]) -> Vec<String> {
    let mut lines = Vec::with_capacity(row.len());
    for side in [Side::Caesar, Side::Pompey] {
        let mine: Vec<&(BlockId, bool)> =
            row.iter().filter(|(b, _)| state.side(*b) == side).collect();
        let hidden = mine.iter().filter(|(_, up)| !up).count();
        for &&(b, up) in &mine {
            if !up {
                continue;
            }
            let block = game.roster().block(b);
            let strength = state.strength(game, b);
            lines.push(format!(
                "{} ({side}) — {}, {}, strength {}{}",
                block.name,
                block.kind.label(),
                short_rating(block),
                strength_text(block, strength),
                if state.is_reserve(b) { ", reserve" } else { "" }
            ));
        }
        match hidden {
            0 => {}
            1 => lines.push(format!("1 {side} block, face down")),
            n => lines.push(format!("{n} {side} blocks, face down")),
        }
    }
    lines
}

/// A block as the game's blocks look, a small square: face up its side's
/// colour, its initials and its strength as pips on the edge it stands on
/// (filled for the steps it has, hollow for those it lost); face down
/// blank in its side's colour. Returns a face-up square's words (initials
/// and strength in numerals) and where the initials stand.
fn paint_block(
    painter: &egui::Painter,
    rect: Rect,
    game: &Game,
    state: &State,
    (b, up): (BlockId, bool),
) -> Option<(String, Rect)> {
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
        CornerRadius::same(2),
        fill,
        Stroke::new(1.5, edge),
        StrokeKind::Inside,
    );
    if !up {
        return None;
    }
    let cell = rect.width();
    let strength = state.strength(game, b);
    let most = block.max_strength();
    let words = initials(&block.name);
    // Three letters ("Cae", "L13") in a little less than the square's
    // width: smaller letters where the squares are (a crowded map).
    let mut size = (cell * 0.48).round();
    let room = cell - 3.0;
    let wide = painter
        .layout_no_wrap(words.clone(), FontId::proportional(size), theme::BLOCK_TEXT)
        .size()
        .x;
    if wide > room {
        size = (size * room / wide).floor().max(6.0);
    }
    let font = FontId::proportional(size);
    let at = painter.text(
        rect.center_top() + egui::vec2(0.0, 0.08 * cell),
        Align2::CENTER_TOP,
        &words,
        font,
        theme::BLOCK_TEXT,
    );
    paint_pips(painter, rect, strength, most);
    if state.is_reserve(b) {
        painter.rect_stroke(
            rect,
            2.0,
            Stroke::new(1.5, Color32::WHITE),
            StrokeKind::Inside,
        );
    }
    Some((format!("{words} {}", roman(strength)), at))
}

/// A face-up block's pips, one per step of its `most`, on the lower edge
/// of its square `rect` as the block is turned: filled up to `strength`,
/// hollow for the steps it lost.
fn paint_pips(painter: &egui::Painter, rect: Rect, strength: u8, most: u8) {
    let cell = rect.width();
    let steps = most.max(1);
    let r = (0.075 * cell).max(1.2);
    let step = ((cell - 4.0 * r) / f32::from(steps)).min(3.0 * r);
    let y = rect.bottom() - 0.2 * cell;
    let x0 = rect.center().x - step * (f32::from(steps) - 1.0) / 2.0;
    for k in 0..steps {
        let c = Pos2::new(x0 + step * f32::from(k), y);
        if k < strength {
            painter.circle_filled(c, r, theme::BLOCK_TEXT);
        } else {
            painter.circle_stroke(c, r, Stroke::new(1.0, theme::BLOCK_REDUCED));
        }
    }
}

/// One accessibility node per block drawn: a face-up block by name,
/// strength and side; a face-down one by its side alone. Ids come from
/// the slot, never from the block, so nothing hidden leaks into the tree.
/// Pointing at a block lists its whole stack in words.
fn register_block(
    ui: &mut Ui,
    rect: Rect,
    (game, state): (&Game, &State),
    (b, up): (BlockId, bool),
    row: &[(BlockId, bool)],
    slot: (usize, usize),
    area: Rect,
) {
    if !area.contains_rect(rect) {
        return;
    }
    let id = ui.scope_id().with(("board_block", slot));
    let response = ui.interact(rect, id, Sense::hover());
    let side = state.side(b);
    let label = if up {
        let block = game.roster().block(b);
        let strength = state.strength(game, b);
        format!("{} ({side}) {}", block.name, roman(strength))
    } else {
        format!("{side} block")
    };
    response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &label));
    let space = game.board().name(SpaceId(slot.0 as u16)).to_string();
    let lines = stack_words(game, state, row);
    let _: Response = response.on_hover_ui(|ui| {
        ui.set_max_width(crate::app::map::tooltip::BOARD_CARD_WIDTH);
        ui.spacing_mut().item_spacing.y = 1.0;
        ui.label(egui::RichText::new(format!("{space}: {}", blocks_count(row.len()))).strong());
        for line in &lines {
            ui.label(egui::RichText::new(line).small());
        }
    });
}

/// "1 block", "4 blocks".
fn blocks_count(n: usize) -> String {
    if n == 1 {
        "1 block".to_string()
    } else {
        format!("{n} blocks")
    }
}
