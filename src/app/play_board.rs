//! The map as a game board, for the Play and Replay tabs: the game's blocks
//! in their spaces as one side may see them (its [`SideView`]), or all of
//! them. A block the viewer may not identify is drawn face down: its side's
//! colour, no name, no strength, and its accessibility node says only
//! "Pompey block". Clicks come back as the space (and the block, when the
//! viewer may see it) under the pointer.

use egui::epaint::{CornerRadius, StrokeKind};
use egui::{Color32, Pos2, Rect, Response, Role, Sense, Stroke, Ui, WidgetInfo};

use super::map::{MapHit, MapInput, MapMode, MapModel, block_text, short_rating, strength_text};
use super::theme;
use super::view::MapView;
use crate::engine::{Game, Place, SideView, State};
use crate::model::{BlockId, Scenario, Side, SpaceId};

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
pub struct Board {
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
}

/// One block as the viewer sees it.
fn face_up(view: Option<&SideView<'_>>, game: &Game, b: BlockId) -> bool {
    view.is_none_or(|v| v.knows(game, b))
}

impl Board {
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
        let view = viewer.map(|side| state.view(side, false));
        // Rows: the blocks in each space, Caesar's first, face-up ones first.
        let mut rows: Vec<Vec<(BlockId, bool)>> = vec![Vec::new(); game.board().len()];
        for b in game.roster().ids() {
            if let Place::Map(at) = state.place(b) {
                rows[at.index()].push((b, face_up(view.as_ref(), game, b)));
            }
        }
        for row in &mut rows {
            row.sort_by_key(|(b, up)| (state.side(*b), !*up, b.0));
        }
        let model = self.model.as_mut().expect("built above");
        model.set_rows(
            rows.iter()
                .map(|r| r.iter().map(|(b, _)| *b).collect())
                .collect(),
        );
        self.drawn = rows;
        let input = MapInput {
            mode: MapMode::Board,
            selected: marks.selected.map(MapHit::Space),
            supply: None,
            balance: &[],
            dragging: None,
        };
        let out = model.show(ui, scenario, Some(&game.rules), &mut self.view, &input);
        if self.centre_pending
            && let Some(p) = self.pointed.and_then(|s| model.screen_pos(s))
        {
            let canvas = self.view.to_map(p);
            self.view.centre_on(canvas);
            self.centre_pending = false;
            ui.ctx().request_repaint();
        }
        if out.clicked.is_some() {
            self.pointed = None;
        }
        let area = self.view.area();
        let painter = ui.painter_at(area);
        let zoom_u = (self.view.zoom() / 0.5).sqrt().clamp(0.7, 2.6);
        if let Some(p) = self.pointed.and_then(|s| model.screen_pos(s)) {
            painter.circle_stroke(p, 17.0 * zoom_u, Stroke::new(3.0, theme::SELECTED));
        }
        // Targets, the battle, then the blocks over them.
        for &s in marks.targets {
            if let Some(p) = model.screen_pos(s) {
                painter.circle_stroke(p, 11.0 * zoom_u, Stroke::new(3.0, theme::HIGHLIGHT));
            }
        }
        if let Some(s) = marks.battle
            && let Some(p) = model.screen_pos(s)
        {
            painter.circle_stroke(p, 14.0 * zoom_u, Stroke::new(3.5, theme::ERROR));
        }
        let mut click_block = None;
        let pointer = ui.input(|i| i.pointer.interact_pos());
        for (i, row) in self.drawn.iter().enumerate() {
            let space = SpaceId(i as u16);
            let rects = model.row_rects(scenario, space);
            for (k, (&(b, up), rect)) in row.iter().zip(rects).enumerate() {
                if !area.intersects(rect) {
                    continue;
                }
                paint_block(&painter, rect, game, state, b, up);
                if up && marks.chosen_blocks.contains(&b) {
                    painter.rect_stroke(
                        rect.expand(2.0),
                        2.0,
                        Stroke::new(2.5, theme::SELECTED),
                        StrokeKind::Outside,
                    );
                }
                if out.clicked.is_some() && pointer.is_some_and(|p| rect.expand(1.0).contains(p)) {
                    click_block = Some((space, up.then_some(b)));
                }
                register_block(ui, rect, game, state, b, up, (i, k), area);
            }
        }
        match (click_block, out.clicked) {
            (Some((space, block)), _) => Some(BoardClick { space, block }),
            (None, Some(Some(MapHit::Space(space)))) => Some(BoardClick { space, block: None }),
            _ => None,
        }
    }

    /// Brings `space` into the middle of the map and rings it until the
    /// map is clicked.
    pub fn point_at(&mut self, space: SpaceId) {
        self.pointed = Some(space);
        self.centre_pending = true;
    }

    /// The space pointed at (a line of the log clicked), if any.
    pub fn pointed(&self) -> Option<SpaceId> {
        self.pointed
    }

    /// The middle of a space on screen, as last drawn (tests click there).
    pub fn space_centre(&self, space: SpaceId) -> Option<Pos2> {
        self.model.as_ref()?.screen_pos(space)
    }

    /// The screen square of a block as last drawn, if it is on the map.
    pub fn block_rect(&self, scenario: &Scenario, block: BlockId) -> Option<Rect> {
        let model = self.model.as_ref()?;
        self.drawn.iter().enumerate().find_map(|(i, row)| {
            let k = row.iter().position(|(b, _)| *b == block)?;
            model.row_rects(scenario, SpaceId(i as u16)).get(k).copied()
        })
    }
}

/// A block face up (name, strength) or face down (its side's colour only).
fn paint_block(
    painter: &egui::Painter,
    rect: Rect,
    game: &Game,
    state: &State,
    b: BlockId,
    up: bool,
) {
    let side = state.side(b);
    let block = game.roster().block(b);
    let kind = if up {
        block.kind
    } else {
        crate::model::BlockKind::Legion
    };
    let (fill, edge) = theme::block(side, kind);
    painter.rect(
        rect,
        CornerRadius::same(1),
        fill,
        Stroke::new(1.0, edge),
        StrokeKind::Inside,
    );
    if up {
        block_text(painter, rect, block, state.strength(game, b));
        if state.is_reserve(b) {
            painter.rect_stroke(
                rect,
                1.0,
                Stroke::new(1.5, Color32::WHITE),
                StrokeKind::Inside,
            );
        }
    } else {
        // The back of a block: a plain face with a thin inner frame.
        painter.rect_stroke(
            rect.shrink(rect.width() * 0.2),
            0.0,
            Stroke::new(1.0, edge.gamma_multiply(0.6)),
            StrokeKind::Inside,
        );
    }
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
