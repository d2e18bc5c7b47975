//! The map widget's model, shared by its parts: what is drawn (`MapModel`,
//! built by `mod.rs`), what the app and the map tell each other, the sizes
//! at a zoom (`Metrics`) and where things are on screen. The parts
//! (`blocks`, `hit`, `labels`, `paint`, `seas`) and `mod.rs` import it;
//! it imports none of them, so the map's imports run one way.

use std::collections::HashMap;
use std::sync::Arc;

use egui::emath::TSTransform;
use egui::epaint::Galley;
use egui::{FontId, Pos2, Rect, Shape, Vec2, pos2, vec2};

use super::geo::Backdrop;
use crate::scenario::model::{BlockId, LinkId, Scenario, Side, SpaceId, SpaceKind};

/// A sea's drawn area, in canvas units; small seas get small areas so they
/// do not cover their ports.
#[derive(Clone, Copy)]
pub(super) struct SeaArea {
    pub(super) radius: Vec2,
}

/// How the map answers the pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::app) enum MapMode {
    /// Look only: dragging pans.
    View,
    /// Clicks select spaces and links; dragging a space moves it.
    EditMap,
    /// Blocks are drawn large; dragging one moves it (the app drops it).
    Deploy,
    /// A game in play or replay: the caller sets the rows of blocks
    /// ([`MapModel::set_rows`]) and paints them; dragging pans; a click on
    /// a row picks its space.
    Board,
}

/// Something on the map, by model id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::app) enum MapHit {
    Space(SpaceId),
    Link(LinkId),
    Block(BlockId),
}

/// What the app tells the map each frame.
pub(in crate::app) struct MapInput<'a> {
    pub mode: MapMode,
    pub selected: Option<MapHit>,
    /// 8.4: the winter supply base, when supply is shown.
    pub supply: Option<u8>,
    /// 5.3: a side's surplus (+) or shortfall (-) of blocks per city.
    pub balance: &'a [(SpaceId, Side, i64)],
    /// A block being dragged is drawn at the pointer, not in its city.
    pub dragging: Option<BlockId>,
    /// The game board: the only neighbours a hovered space lights up (the
    /// legal destinations); `None` lights every neighbour (the editor).
    pub reachable: Option<&'a [SpaceId]>,
}

/// What the pointer did on the map this frame.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(in crate::app) struct MapOutput {
    pub hovered: Option<SpaceId>,
    /// A click: on something, or (`Some(None)`) on empty ground.
    pub clicked: Option<Option<MapHit>>,
    /// A space was dragged and dropped here (canvas units).
    pub moved_space: Option<(SpaceId, Pos2)>,
    /// A block was picked up.
    pub block_grabbed: Option<BlockId>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Drag {
    None,
    Pan,
    Space { id: SpaceId, grab: Vec2 },
    Block,
}

/// Per-scenario drawing data, built once.
pub(in crate::app) struct MapModel {
    /// Water routes between two canvas points, kept across edits.
    pub(super) routes: HashMap<[u32; 4], Option<Vec<Pos2>>>,
    /// Sea area radii by centre and starting radius, kept across edits.
    pub(super) sea_radii: HashMap<[u32; 4], f32>,
    pub(super) drag: Drag,
    /// The last frame's sizes, for hit tests between frames.
    pub(super) metrics: Option<Metrics>,
    pub(super) backdrop: Option<Backdrop>,
    pub(super) bounds: Rect,
    pub(super) positions: Vec<Pos2>,
    pub(super) seas: Vec<Option<SeaArea>>,
    /// Sea borders as canvas polylines routed over water, per link; `None`
    /// for other links and when nothing sensible can be drawn.
    pub(super) sea_paths: Vec<Option<Vec<Pos2>>>,
    /// Starting blocks per space, Caesar's first.
    pub(super) blocks: Vec<Vec<BlockId>>,
    pub(super) placement: Placement,
    /// This frame's canvas → screen transform.
    pub(super) frame: TSTransform,
    /// Per-frame scratch, kept to avoid reallocating.
    pub(super) screen: Vec<Pos2>,
    pub(super) galleys: Vec<Arc<Galley>>,
    pub(super) strait_galleys: Vec<(usize, Arc<Galley>)>,
    pub(super) shapes: Vec<Shape>,
    /// The board's block tiles as last drawn, with their spaces: a hover
    /// card keeps off them, and a click on one is on its space.
    pub(super) tiles: Vec<(SpaceId, Rect)>,
    /// The spaces lit up around the hovered one, as last drawn.
    pub(super) lit: Vec<SpaceId>,
    /// The board's stacks in words, by space, as the viewer may know
    /// them: the space's card lists them.
    pub(super) stack_words: Vec<Vec<String>>,
}

/// Label offsets (screen points from the anchor to the label's top-left) for
/// one zoom level.
#[derive(Default)]
pub(super) struct Placement {
    pub(super) key: Option<(f32, f32, bool)>,
    pub(super) spaces: Vec<Vec2>,
    /// Indexed like `MapModel::strait_galleys`. `None` hides a name that has no free spot at this zoom (the tooltip
    /// and a closer zoom still show it).
    pub(super) straits: Vec<Option<Vec2>>,
}

/// Sizes in screen points at a zoom: markers grow slower than the map so the
/// fitted map stays tidy and a zoomed-in one stays readable.
#[derive(Clone, Copy)]
pub(super) struct Metrics {
    pub(super) u: f32,
    /// The deployment editor draws blocks large enough to read and grab.
    pub(super) big_blocks: bool,
    /// The Play and Replay board: blocks sized for their words (at least
    /// [`BOARD_FONT`] at any zoom) and a space's blocks stacked overlapping.
    pub(super) board: bool,
}

/// The smallest text on a block of the Play and Replay board.
pub(in crate::app) const BOARD_FONT: f32 = 11.0;

impl Metrics {
    pub(super) fn new(zoom: f32) -> Metrics {
        Metrics {
            u: (zoom / 0.5).sqrt().clamp(0.7, 2.6),
            big_blocks: false,
            board: false,
        }
    }
    /// Cities that score are drawn a little larger.
    pub(super) fn radius(self, vp: u8) -> f32 {
        5.0 * self.u * if vp > 0 { 1.15 } else { 1.0 }
    }
    pub(super) fn label_font(self, vp: u8) -> FontId {
        let size = if vp > 0 { 12.0 } else { 11.0 } * self.u;
        // Half-point steps keep egui's galley cache warm while zooming.
        FontId::proportional((size * 2.0).round() / 2.0)
    }
    /// Small seas (the Propontis) get smaller letters.
    pub(super) fn sea_font(self, sea: SeaArea) -> FontId {
        let size = if sea.radius.x < 60.0 { 10.0 } else { 12.5 };
        FontId::proportional(((size * self.u) * 2.0).round() / 2.0)
    }
    /// The text size on a board block: grows with the zoom, never below
    /// [`BOARD_FONT`].
    pub(crate) fn board_font(self) -> f32 {
        ((BOARD_FONT * self.u.max(1.0)) * 2.0).round() / 2.0
    }
    pub(super) fn block(self) -> f32 {
        if self.board {
            // Two lines of words and a margin.
            2.7 * self.board_font()
        } else if self.big_blocks {
            14.0 * self.u
        } else {
            6.5 * self.u
        }
    }
    pub(super) fn vp_radius(self) -> f32 {
        4.6 * self.u
    }
}

// ------------------------------------------------------------- geometry

impl MapModel {
    pub(super) fn marker_rect(&self, board_kind: SpaceKind, vp: u8, i: usize, m: Metrics) -> Rect {
        let r = m.radius(vp)
            + if board_kind == SpaceKind::MajorPort {
                2.5 * m.u
            } else {
                0.0
            };
        Rect::from_center_size(self.screen[i], Vec2::splat(2.0 * r))
    }

    pub(super) fn vp_centre(&self, i: usize, r: f32) -> Pos2 {
        self.screen[i] + vec2(0.95 * r, -0.95 * r)
    }

    /// The row of starting blocks above a city; none on the board, whose
    /// stacks are its own to place (`play_stacks`), around names that stay
    /// put whatever the stacks do.
    pub(super) fn block_rects(
        &self,
        scenario: &Scenario,
        i: usize,
        m: Metrics,
    ) -> impl Iterator<Item = Rect> + '_ {
        let s = &scenario.board.spaces[i];
        let r = m.radius(s.vp);
        let (b, gap) = (m.block(), 1.5 * m.u);
        let n = if m.board { 0 } else { self.blocks[i].len() };
        let bottom = self.screen[i].y - r - if s.vp > 0 { 6.0 * m.u } else { 2.5 * m.u };
        let (size, step) = (vec2(b, b), vec2(b + gap, 0.0));
        let width = size.x + (n as f32 - 1.0).max(0.0) * step.x;
        let first = pos2(self.screen[i].x - width / 2.0, bottom - size.y);
        (0..n).map(move |k| Rect::from_min_size(first + step * k as f32, size))
    }

    pub(super) fn sea_label_rect(&self, i: usize) -> Rect {
        let g = &self.galleys[i];
        Rect::from_center_size(self.screen[i], g.size())
    }

    pub(super) fn label_rect(&self, i: usize) -> Rect {
        Rect::from_min_size(
            self.screen[i] + self.placement.spaces[i],
            self.galleys[i].size(),
        )
    }
}
