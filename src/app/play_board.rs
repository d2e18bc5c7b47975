//! The map as a game board, for the Play and Replay tabs: the game's blocks
//! in their spaces as one side may see them (its [`SideView`]), or all of
//! them. A block the viewer may not identify is drawn face down: its side's
//! colour, no name, no strength, and its accessibility node says only
//! "Pompey block". Clicks come back as the space (and the block, when the
//! viewer may see it) under the pointer. Each block is a tile of one line
//! (name, rating, strength), a space's tiles a column that
//! [`super::play_stacks`] puts where it covers no other column and no name,
//! so every block of every stack is read without pointing at it.

use egui::epaint::{CornerRadius, StrokeKind};
use egui::{Align2, Color32, FontId, Pos2, Rect, Response, Role, Sense, Stroke, Ui, WidgetInfo};

use super::map::{MapHit, MapInput, MapMode, MapModel, roman, short_rating, strength_text};
use super::play_stacks::{self, Placed, StackSpec};
use super::theme;
use super::view::MapView;
use crate::engine::{Game, Place, SideView, State};
use crate::games::trace::Trace;
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
    /// The stacks as placed last, and what they were placed for.
    placed: Vec<Placed>,
    placed_for: Option<(Vec<StackSpec>, egui::Vec2, Rect, Vec<Rect>)>,
    /// The size of the words on the blocks, as drawn last.
    font: f32,
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
        let font = model.board_font().unwrap_or(super::map::BOARD_FONT);
        model.set_tile(tile_size(ui, game, font));
        let input = MapInput {
            mode: MapMode::Board,
            selected: marks.selected.map(MapHit::Space),
            supply: None,
            balance: &[],
            dragging: None,
            reachable: Some(marks.targets),
        };
        let out = model.show(ui, scenario, Some(&game.rules), &mut self.view, &input);
        self.font = model.board_font().unwrap_or(super::map::BOARD_FONT);
        let tile = tile_size(ui, game, self.font);
        if tile != model.tile() {
            // Zoomed: the names are placed around tiles of the new size.
            model.set_tile(tile);
            ui.ctx().request_repaint();
        }
        self.centre_pointed(ui);
        if out.clicked.is_some() {
            self.pointed = None;
        }
        let area = self.view.area();
        let painter = ui.painter_at(area);
        let zoom_u = (self.view.zoom() / 0.5).sqrt().clamp(0.7, 2.6);
        self.paint_marks(&painter, marks, zoom_u);
        self.place_stacks(scenario, area, tile);
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

    /// Each space's column of tiles put where it covers no other column,
    /// name or marker ([`play_stacks::place`]); placed again only when
    /// the stacks, the zoom, the pan or the tiles change.
    fn place_stacks(&mut self, scenario: &Scenario, area: Rect, tile: egui::Vec2) {
        let Some(model) = &self.model else { return };
        let specs: Vec<StackSpec> = self
            .drawn
            .iter()
            .enumerate()
            .filter(|(_, row)| !row.is_empty())
            .filter_map(|(i, row)| {
                Some(StackSpec {
                    space: i,
                    marker: model.screen_pos(SpaceId(i as u16))?,
                    blocks: row.len(),
                })
            })
            .collect();
        // The names move too (placed again around the new stacks, or the
        // new tiles): the stacks are placed again whenever they do.
        let (names, markers) = model.names_and_markers(scenario);
        let obstacles: Vec<Rect> = names.iter().chain(&markers).copied().collect();
        let key = (specs, tile, area, obstacles);
        if self.placed_for.as_ref() == Some(&key) {
            return;
        }
        self.placed = play_stacks::place(&key.0, tile, TILE_GAP, &key.3, area);
        self.names = names;
        self.placed_for = Some(key);
    }

    /// The blocks of each stack, their leader lines, their outlines when
    /// chosen, their accessibility nodes; remembered for clicks.
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
            if let Some((from, to)) = st.leader {
                painter.line_segment([from, to], Stroke::new(2.5, theme::LEADER_HALO));
                painter.line_segment([from, to], Stroke::new(1.2, theme::LEADER));
            }
        }
        for st in &placed {
            let row = &self.drawn[st.space];
            for (k, (&(b, up), rect)) in row.iter().zip(st.rects.iter().copied()).enumerate() {
                if !area.intersects(rect) {
                    continue;
                }
                if let Some(words) = paint_block(painter, rect, game, state, (b, up), self.font) {
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
                register_block(ui, rect, game, state, b, up, (st.space, k), area);
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

/// The space between a stack's tiles.
const TILE_GAP: f32 = 1.0;
/// Room left and right of a tile's words.
const TILE_PAD: f32 = 3.0;

/// A block's name on its tile: whole for a leader or a one-of-a-kind
/// block ("Antonius", "Ballista"), the kind shortened and the number whole
/// for the rest ("Leg 13", "Aux 1", "Eq 2", "Nav 3"), so no name reads
/// as a rating and no two share their first letters.
pub(crate) fn board_name(name: &str) -> String {
    let Some((kind, number)) = name.rsplit_once(' ') else {
        return name.to_string();
    };
    if !number.chars().all(|c| c.is_ascii_digit()) {
        return name.to_string();
    }
    let short = match kind {
        "Legio" => "Leg",
        "Auxilia" => "Aux",
        "Equitatus" => "Eq",
        "Navis" => "Nav",
        other => other,
    };
    format!("{short} {number}")
}

/// What a face-up tile says before its strength: "Leg 13 C3".
fn tile_words(block: &crate::scenario::model::Block) -> String {
    format!("{} {}", board_name(&block.name), short_board_rating(block))
}

/// One size for every tile of the board: the widest block's words and
/// strength at `font`, one line high. The same all game, so tiles never
/// change size as blocks come and go.
fn tile_size(ui: &Ui, game: &Game, font: f32) -> egui::Vec2 {
    let font_id = FontId::proportional(font);
    let width = |text: String| {
        ui.painter()
            .layout_no_wrap(text, font_id.clone(), Color32::WHITE)
            .size()
    };
    let words = game
        .roster()
        .ids()
        .map(|b| width(tile_words(game.roster().block(b))).x)
        .fold(0.0, f32::max);
    let strength = width("IV".to_string());
    egui::vec2(
        (words + 0.6 * font + strength.x + 2.0 * TILE_PAD).ceil(),
        (strength.y + 2.0).ceil(),
    )
}

/// A block as the game's blocks look: face up its side's colour, its
/// name and rating, and its strength at the right (reduced in a paler
/// colour); face down blank in its side's colour. Returns a face-up
/// tile's words and where they stand.
fn paint_block(
    painter: &egui::Painter,
    rect: Rect,
    game: &Game,
    state: &State,
    (b, up): (BlockId, bool),
    font: f32,
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
    let strength = state.strength(game, b);
    let words = tile_words(block);
    let font_id = FontId::proportional(font);
    let left = painter.text(
        rect.left_center() + egui::vec2(TILE_PAD, 0.0),
        Align2::LEFT_CENTER,
        &words,
        font_id.clone(),
        theme::BLOCK_TEXT,
    );
    let reduced = strength < block.max_strength();
    let right = painter.text(
        rect.right_center() - egui::vec2(TILE_PAD, 0.0),
        Align2::RIGHT_CENTER,
        roman(strength),
        font_id,
        if reduced {
            theme::BLOCK_REDUCED
        } else {
            theme::BLOCK_TEXT
        },
    );
    if state.is_reserve(b) {
        painter.rect_stroke(
            rect,
            2.0,
            Stroke::new(1.5, Color32::WHITE),
            StrokeKind::Inside,
        );
    }
    Some((format!("{words} {}", roman(strength)), left.union(right)))
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
