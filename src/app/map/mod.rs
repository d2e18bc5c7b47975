//! The map, and the Map tab around it. The map widget every tab draws a
//! board with is this file (`MapModel`: backdrop, links, spaces, starting
//! blocks, labels, hover) and its parts by concern (`blocks`, `hit`,
//! `labels`, `legend`, `paint`, `seas`), over the Mediterranean backdrop
//! (`geo`), the pan and zoom (`view`) and a space's hover card (`tooltip`).
//! The Map tab adds the panel in the middle of the Map and Deployment tabs
//! (`panel`), the inspector of the selected space or link (`inspector`) and
//! the simulation heatmaps over the map (`heatmap_view`).
//!
//! Everything that depends only on the scenario is computed once in
//! [`MapModel::rebuild`]; per frame only screen positions, galleys (cached by
//! egui) and shapes are made. Label placement is redone only when the zoom
//! changes, since panning moves every label together.

use std::collections::HashMap;
use std::sync::Arc;

use egui::emath::TSTransform;
use egui::epaint::{CornerRadius, Galley, Mesh, StrokeKind};
use egui::text::{LayoutJob, TextFormat};
use egui::{
    Align, Color32, FontId, Painter, Pos2, Rect, RectAlign, Response, Role, Sense, Shape, Stroke,
    Ui, Vec2, WidgetInfo, pos2, vec2,
};

use crate::scenario::model::{BlockId, Board, LinkId, Scenario, SpaceId};
use crate::scenario::model::{BlockKind, LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;
use geo::Backdrop;
use view::MapView;

// ------------------------------------------------------------------ colours

use super::theme::{
    CITY_EDGE, CITY_FILL, COAST, HALO, HIGHLIGHT, LABEL, LAND, MAJOR, MINOR, OUTSIDE, PORT_RING,
    SEA_AREA, SEA_AREA_EDGE, SEA_LINK, SEA_TEXT, SELECTED, STRAIT, VP_EDGE, VP_FILL, WATER,
};
use super::theme::{ERROR as OVER, WARNING as UNDER};

// The map's parts, by concern; `MapModel`'s fields are theirs too.
mod blocks;
mod hit;
mod labels;
mod legend;
mod paint;
mod seas;

// What the map is drawn on and with.
mod geo;
pub(super) mod tooltip;
pub(super) mod view;

// The Map tab.
pub mod heatmap_view;
pub(super) mod inspector;
pub(super) mod panel;

pub(super) use blocks::{pool_block, short_rating, strength_text};
pub(super) use legend::legend;
// Each part's items, to the others and to this file alike.
use blocks::*;
use hit::*;
use labels::*;
use paint::*;
use seas::*;

// ------------------------------------------------------------------- model

/// A sea's drawn area, in canvas units; small seas get small areas so they
/// do not cover their ports.
#[derive(Clone, Copy)]
struct SeaArea {
    radius: Vec2,
}

/// How the map answers the pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MapMode {
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
pub(super) enum MapHit {
    Space(SpaceId),
    Link(LinkId),
    Block(BlockId),
}

/// What the app tells the map each frame.
pub(super) struct MapInput<'a> {
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
pub(super) struct MapOutput {
    pub hovered: Option<SpaceId>,
    /// A click: on something, or (`Some(None)`) on empty ground.
    pub clicked: Option<Option<MapHit>>,
    /// A space was dragged and dropped here (canvas units).
    pub moved_space: Option<(SpaceId, Pos2)>,
    /// A block was picked up.
    pub block_grabbed: Option<BlockId>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Drag {
    None,
    Pan,
    Space { id: SpaceId, grab: Vec2 },
    Block,
}

/// Per-scenario drawing data, built once.
pub(super) struct MapModel {
    /// Water routes between two canvas points, kept across edits.
    routes: HashMap<[u32; 4], Option<Vec<Pos2>>>,
    /// Sea area radii by centre and starting radius, kept across edits.
    sea_radii: HashMap<[u32; 4], f32>,
    drag: Drag,
    /// The last frame's sizes, for hit tests between frames.
    metrics: Option<Metrics>,
    backdrop: Option<Backdrop>,
    bounds: Rect,
    positions: Vec<Pos2>,
    seas: Vec<Option<SeaArea>>,
    /// Sea borders as canvas polylines routed over water, per link; `None`
    /// for other links and when nothing sensible can be drawn.
    sea_paths: Vec<Option<Vec<Pos2>>>,
    /// Starting blocks per space, Caesar's first.
    blocks: Vec<Vec<BlockId>>,
    placement: Placement,
    /// This frame's canvas → screen transform.
    frame: TSTransform,
    /// Per-frame scratch, kept to avoid reallocating.
    screen: Vec<Pos2>,
    galleys: Vec<Arc<Galley>>,
    strait_galleys: Vec<(usize, Arc<Galley>)>,
    shapes: Vec<Shape>,
    /// The board's block tiles as last drawn, with their spaces: a hover
    /// card keeps off them, and a click on one is on its space.
    tiles: Vec<(SpaceId, Rect)>,
    /// The spaces lit up around the hovered one, as last drawn.
    lit: Vec<SpaceId>,
    /// The board's stacks in words, by space, as the viewer may know
    /// them: the space's card lists them.
    stack_words: Vec<Vec<String>>,
}

/// Label offsets (screen points from the anchor to the label's top-left) for
/// one zoom level.
#[derive(Default)]
struct Placement {
    key: Option<(f32, f32, bool)>,
    spaces: Vec<Vec2>,
    /// Indexed like `MapModel::strait_galleys`. `None` hides a name that has no free spot at this zoom (the tooltip
    /// and a closer zoom still show it).
    straits: Vec<Option<Vec2>>,
}

/// Sizes in screen points at a zoom: markers grow slower than the map so the
/// fitted map stays tidy and a zoomed-in one stays readable.
#[derive(Clone, Copy)]
struct Metrics {
    u: f32,
    /// The deployment editor draws blocks large enough to read and grab.
    big_blocks: bool,
    /// The Play and Replay board: blocks sized for their words (at least
    /// [`BOARD_FONT`] at any zoom) and a space's blocks stacked overlapping.
    board: bool,
}

/// The smallest text on a block of the Play and Replay board.
pub(super) const BOARD_FONT: f32 = 11.0;

impl Metrics {
    fn new(zoom: f32) -> Metrics {
        Metrics {
            u: (zoom / 0.5).sqrt().clamp(0.7, 2.6),
            big_blocks: false,
            board: false,
        }
    }
    /// Cities that score are drawn a little larger.
    fn radius(self, vp: u8) -> f32 {
        5.0 * self.u * if vp > 0 { 1.15 } else { 1.0 }
    }
    fn label_font(self, vp: u8) -> FontId {
        let size = if vp > 0 { 12.0 } else { 11.0 } * self.u;
        // Half-point steps keep egui's galley cache warm while zooming.
        FontId::proportional((size * 2.0).round() / 2.0)
    }
    /// Small seas (the Propontis) get smaller letters.
    fn sea_font(self, sea: SeaArea) -> FontId {
        let size = if sea.radius.x < 60.0 { 10.0 } else { 12.5 };
        FontId::proportional(((size * self.u) * 2.0).round() / 2.0)
    }
    /// The text size on a board block: grows with the zoom, never below
    /// [`BOARD_FONT`].
    pub(crate) fn board_font(self) -> f32 {
        ((BOARD_FONT * self.u.max(1.0)) * 2.0).round() / 2.0
    }
    fn block(self) -> f32 {
        if self.board {
            // Two lines of words and a margin.
            2.7 * self.board_font()
        } else if self.big_blocks {
            14.0 * self.u
        } else {
            6.5 * self.u
        }
    }
    fn vp_radius(self) -> f32 {
        4.6 * self.u
    }
}

impl MapModel {
    /// Builds the drawing of an edited scenario, reusing the previous one's
    /// sea routes where both ends stayed put (routing is the slow part).
    pub(super) fn rebuild(scenario: &Scenario, previous: Option<MapModel>) -> MapModel {
        let (mut routes, mut sea_radii, old_backdrop) = match previous {
            Some(m) => (m.routes, m.sea_radii, m.backdrop),
            None => Default::default(),
        };
        let board = &scenario.board;
        let positions: Vec<Pos2> = board
            .spaces
            .iter()
            .map(|s| pos2(s.pos.0, s.pos.1))
            .collect();
        let backdrop = geo::fits_board(board)
            .then(|| old_backdrop.unwrap_or_else(|| Backdrop::new(WATER, LAND)));

        // The published map shows its whole canvas; a custom map is framed
        // around its own spaces, wherever on the canvas they are.
        let around_spaces = positions.iter().fold(Rect::NOTHING, |r, p| {
            r.union(Rect::from_center_size(*p, Vec2::splat(160.0)))
        });
        let canvas = Rect::from_min_size(Pos2::ZERO, vec2(geo::CANVAS.0, geo::CANVAS.1));
        let bounds = match (&backdrop, around_spaces.is_positive()) {
            (Some(_), _) => canvas.union(around_spaces),
            (None, true) => around_spaces,
            (None, false) => canvas,
        };

        let seas = sea_areas(board, &positions, backdrop.is_some(), &mut sea_radii);
        let sea_paths = sea_paths(board, &positions, &seas, backdrop.is_some(), &mut routes);
        let blocks = blocks_by_space(scenario);
        MapModel {
            routes,
            sea_radii,
            drag: Drag::None,
            metrics: None,
            backdrop,
            bounds,
            positions,
            seas,
            sea_paths,
            blocks,
            placement: Placement::default(),
            frame: TSTransform::IDENTITY,
            screen: Vec::new(),
            galleys: Vec::new(),
            strait_galleys: Vec::new(),
            shapes: Vec::new(),
            tiles: Vec::new(),
            stack_words: Vec::new(),
            lit: Vec::new(),
        }
    }

    /// Whether the published coastline is drawn behind this board.
    pub(super) fn has_backdrop(&self) -> bool {
        self.backdrop.is_some()
    }

    /// Draws the map in the remaining space of `ui`, handles pan, zoom,
    /// clicks and drags, and reports what the pointer did.
    pub(super) fn show(
        &mut self,
        ui: &mut Ui,
        scenario: &Scenario,
        rules: Option<&RuleSet>,
        view: &mut MapView,
        input: &MapInput<'_>,
    ) -> MapOutput {
        let mut out = MapOutput::default();
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let area = response.rect;
        view.set_area(area, self.bounds);

        let mut m = Metrics::new(view.zoom());
        m.big_blocks = matches!(input.mode, MapMode::Deploy | MapMode::Board);
        m.board = input.mode == MapMode::Board;
        self.frame = view.transform();
        self.update_screen(view);

        self.layout_labels(&painter, scenario, m);
        let key = (view.zoom(), ui.pixels_per_point(), m.big_blocks);
        if self.placement.key != Some(key) {
            self.place_labels(scenario, m);
            self.placement.key = Some(key);
        }

        // Drags: a block (deployment), a space (map editing), or the map itself.
        if response.drag_started()
            && let Some(origin) = ui.input(|i| i.pointer.press_origin())
        {
            self.drag = match input.mode {
                MapMode::Deploy => match self.block_at(scenario, m, origin) {
                    Some(b) => {
                        out.block_grabbed = Some(b);
                        Drag::Block
                    }
                    None => Drag::Pan,
                },
                MapMode::EditMap => match self.marker_at(scenario, m, origin) {
                    Some(id) => Drag::Space {
                        id,
                        grab: view.to_map(origin) - self.positions[id.index()],
                    },
                    None => Drag::Pan,
                },
                MapMode::View | MapMode::Board => Drag::Pan,
            };
        }
        if response.dragged() {
            match self.drag {
                Drag::Pan => view.pan(response.drag_delta()),
                Drag::Space { id, grab } => {
                    if let Some(p) = ui.input(|i| i.pointer.interact_pos()) {
                        self.positions[id.index()] = view.to_map(p) - grab;
                        self.update_screen(view);
                    }
                }
                Drag::Block | Drag::None => {}
            }
        }
        if response.drag_stopped() {
            if let Drag::Space { id, .. } = self.drag {
                out.moved_space = Some((id, self.positions[id.index()]));
            }
            self.drag = Drag::None;
        }
        handle_zoom(ui, &response, view);
        self.frame = view.transform();
        self.update_screen(view);

        if response.clicked()
            && let Some(p) = ui.input(|i| i.pointer.interact_pos())
        {
            out.clicked = Some(self.pick(scenario, m, p, input.mode));
        }

        let hovered = ui
            .input(|i| i.pointer.hover_pos())
            .filter(|p| ui.rect_contains_pointer(area) && area.contains(*p))
            .and_then(|p| self.hit(scenario, m, p));
        out.hovered = hovered;
        self.metrics = Some(m);

        self.paint_backdrop(&painter, view);
        self.paint_links(&painter, scenario, m, hovered, input.reachable);
        self.paint_selected_link(&painter, scenario, m, input.selected);
        self.paint_spaces(&painter, scenario, m, hovered, area, input);
        self.paint_labels(&painter, scenario, m, area);

        self.register_spaces(ui, scenario, rules, m, area, input.mode);
        if input.mode == MapMode::Deploy {
            self.register_blocks(ui, scenario, m, area);
        }
        out
    }

    fn update_screen(&mut self, view: &MapView) {
        self.screen.clear();
        self.screen
            .extend(self.positions.iter().map(|p| view.to_screen(*p)));
    }

    /// Replaces the rows of blocks drawn over the spaces (one list per
    /// space, left to right); labels are placed around them again.
    pub(super) fn set_rows(&mut self, rows: Vec<Vec<BlockId>>) {
        if rows != self.blocks {
            self.blocks = rows;
            self.placement.key = None;
        }
    }

    /// The board's stacks in words, by space (the space's card lists them).
    pub(super) fn set_stack_words(&mut self, words: Vec<Vec<String>>) {
        self.stack_words = words;
    }

    /// The board's block tiles as drawn, by space: a hover card keeps
    /// clear of them and a click on one is on its space.
    pub(super) fn set_tiles(&mut self, tiles: Vec<(SpaceId, Rect)>) {
        self.tiles = tiles;
    }

    /// The spaces lit up around the hovered one, as last drawn.
    pub(super) fn lit(&self) -> &[SpaceId] {
        &self.lit
    }

    /// Each land space's marker (its dot, port ring and VP disc) and name
    /// on screen as last drawn, and each sea's name, with the space's
    /// index: what the board's stacks keep off. None of it moves with the
    /// stacks.
    pub(super) fn marks_by_space(&self, scenario: &Scenario) -> Vec<(usize, f32, Rect, Rect)> {
        let Some(m) = self.metrics else {
            return Vec::new();
        };
        let board = &scenario.board;
        if self.screen.len() != board.len() || self.galleys.len() != board.len() {
            return Vec::new();
        }
        board
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if s.kind == SpaceKind::Sea {
                    let name = self.sea_label_rect(i);
                    return (i, 0.0, Rect::NOTHING, name);
                }
                let mut marker = self.marker_rect(s.kind, s.vp, i, m);
                let radius = marker.width() / 2.0;
                if s.vp > 0 {
                    let c = self.vp_centre(i, m.radius(s.vp));
                    marker =
                        marker.union(Rect::from_center_size(c, Vec2::splat(2.0 * m.vp_radius())));
                }
                (i, radius, marker, self.label_rect(i))
            })
            .collect()
    }

    /// The text size of the board's blocks, as last drawn.
    pub(super) fn board_font(&self) -> Option<f32> {
        self.metrics.filter(|m| m.board).map(|m| m.board_font())
    }

    /// A space's marker centre on screen, as last drawn.
    pub(super) fn screen_pos(&self, space: SpaceId) -> Option<Pos2> {
        self.screen.get(space.index()).copied()
    }

    /// The spaces' names drawn again as last laid out (over something
    /// painted on the map since, like a heatmap's discs).
    pub(super) fn repaint_labels(&self, painter: &Painter, scenario: &Scenario) {
        if let Some(m) = self.metrics {
            self.paint_labels(painter, scenario, m, painter.clip_rect());
        }
    }

    /// A sea's name on screen, as last drawn (`None` for a land space):
    /// rings around a sea go around its name, not over it.
    pub(super) fn sea_name_rect(&self, space: SpaceId) -> Option<Rect> {
        let i = space.index();
        self.seas.get(i)?.as_ref()?;
        self.galleys.get(i)?;
        Some(self.sea_label_rect(i))
    }

    // ----------------------------------------------------------- geometry

    fn marker_rect(&self, board_kind: SpaceKind, vp: u8, i: usize, m: Metrics) -> Rect {
        let r = m.radius(vp)
            + if board_kind == SpaceKind::MajorPort {
                2.5 * m.u
            } else {
                0.0
            };
        Rect::from_center_size(self.screen[i], Vec2::splat(2.0 * r))
    }

    fn vp_centre(&self, i: usize, r: f32) -> Pos2 {
        self.screen[i] + vec2(0.95 * r, -0.95 * r)
    }

    /// The row of starting blocks above a city; none on the board, whose
    /// stacks are its own to place (`play_stacks`), around names that stay
    /// put whatever the stacks do.
    fn block_rects(
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

    fn sea_label_rect(&self, i: usize) -> Rect {
        let g = &self.galleys[i];
        Rect::from_center_size(self.screen[i], g.size())
    }

    fn label_rect(&self, i: usize) -> Rect {
        Rect::from_min_size(
            self.screen[i] + self.placement.spaces[i],
            self.galleys[i].size(),
        )
    }

    // ------------------------------------------------------------- labels

    // -------------------------------------------------------------- hover

    // ----------------------------------------------------------- painting
}

/// A short name that fits on a block: "L13" for Legio 13, "N2" for Navis 2,
/// the first letters otherwise.
pub(super) fn short_name(name: &str) -> String {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or("");
    match words.last() {
        Some(n) if n.chars().all(|c| c.is_ascii_digit()) => {
            format!("{}{n}", first.chars().next().unwrap_or('?'))
        }
        _ => first.chars().take(3).collect(),
    }
}

pub(super) use crate::scenario::kinds::roman;

/// The blocks that start in each space, Caesar's first.
fn blocks_by_space(scenario: &Scenario) -> Vec<Vec<BlockId>> {
    let mut blocks = vec![Vec::new(); scenario.board.len()];
    for (block, space) in &scenario.starting_setup().placements {
        if let Some(list) = blocks.get_mut(space.index()) {
            list.push(*block);
        }
    }
    for list in &mut blocks {
        list.sort_by_key(|b| (scenario.roster.block(*b).side, b.0));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_are_evenly_spaced_and_clipped() {
        let mut shapes = Vec::new();
        let path = [pos2(0.0, 0.0), pos2(10.0, 0.0), pos2(10.0, 10.0)];
        let t = TSTransform::IDENTITY;
        dotted(&mut shapes, &path, t, Rect::EVERYTHING, SEA_LINK, 4.0, 1.0);
        // 0, 4, 8 on the first leg; 12, 16, 20 (at 2, 6, 10 down) on the second.
        assert_eq!(shapes.len(), 6);
        shapes.clear();
        let clip = Rect::from_min_max(pos2(-1.0, -1.0), pos2(5.0, 1.0));
        dotted(&mut shapes, &path, t, clip, SEA_LINK, 4.0, 1.0);
        assert_eq!(shapes.len(), 2);
    }

    #[test]
    fn segments_and_rects() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(10.0, 10.0));
        assert!(segment_hits_rect(pos2(-5.0, 5.0), pos2(15.0, 5.0), r));
        assert!(!segment_hits_rect(pos2(-5.0, -5.0), pos2(15.0, -1.0), r));
        assert!(segment_hits_rect(pos2(5.0, 5.0), pos2(6.0, 6.0), r));
    }

    #[test]
    fn published_sea_borders_stay_at_sea() {
        let (scenario, _) = Scenario::build(&crate::scenario::historical());
        let model = MapModel::rebuild(&scenario, None);
        assert!(model.has_backdrop());
        let board = &scenario.board;
        for (k, link) in board.links.iter().enumerate() {
            if link.class != LinkClass::Sea {
                continue;
            }
            let what = format!("{} - {}", board.name(link.a), board.name(link.b));
            let path = model.sea_paths[k]
                .as_ref()
                .unwrap_or_else(|| panic!("{what} is not drawn"));
            let ports: Vec<Pos2> = [link.a, link.b]
                .into_iter()
                .filter(|id| board.space(*id).kind.is_port())
                .map(|id| model.positions[id.index()])
                .collect();
            for w in path.windows(2) {
                for s in 0..=20 {
                    let p = w[0].lerp(w[1], s as f32 / 20.0);
                    // Ports sit just inland of their coast.
                    if ports.iter().any(|q| q.distance(p) < 26.0) {
                        continue;
                    }
                    assert!(geo::is_water(p), "{what} crosses land at {p:?}");
                }
            }
        }
    }
}
