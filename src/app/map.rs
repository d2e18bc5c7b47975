//! The map panel: backdrop, links, spaces, starting blocks, labels, hover.
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
    Align, Color32, FontId, Painter, Pos2, Rect, Response, Role, Sense, Shape, Stroke, Ui, Vec2,
    WidgetInfo, pos2, vec2,
};

use super::geo::{self, Backdrop};
use super::view::MapView;
use crate::scenario::model::{BlockId, Board, LinkId, Scenario, SpaceId};
use crate::scenario::model::{BlockKind, LinkClass, Side, SpaceKind};
use crate::scenario::rules::RuleSet;

// ------------------------------------------------------------------ colours

use super::theme::{
    CITY_EDGE, CITY_FILL, COAST, HALO, HIGHLIGHT, LABEL, LAND, MAJOR, MINOR, OUTSIDE, PORT_RING,
    SEA_AREA, SEA_AREA_EDGE, SEA_LINK, SEA_TEXT, SELECTED, STRAIT, VP_EDGE, VP_FILL, WATER,
};
use super::theme::{ERROR as OVER, WARNING as UNDER};

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
/// How much of each block of a stack on the board shows under the next one.
pub(super) const STACK_STEP: f32 = 0.4;

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
        self.paint_links(&painter, scenario, m, hovered);
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

    /// The space whose marker (or whose label) is at a screen point, as of
    /// the last frame drawn: where a dragged block would be dropped.
    pub(super) fn space_at(&self, scenario: &Scenario, p: Pos2) -> Option<SpaceId> {
        let m = self.metrics?;
        if self.screen.len() != scenario.board.len() {
            return None;
        }
        self.block_space_at(scenario, m, p)
            .or_else(|| self.hit(scenario, m, p))
    }

    /// Replaces the rows of blocks drawn over the spaces (one list per
    /// space, left to right); labels are placed around them again.
    pub(super) fn set_rows(&mut self, rows: Vec<Vec<BlockId>>) {
        if rows != self.blocks {
            self.blocks = rows;
            self.placement.key = None;
        }
    }

    /// The screen squares of a space's row of blocks, as last drawn.
    pub(super) fn row_rects(&self, scenario: &Scenario, space: SpaceId) -> Vec<Rect> {
        match self.metrics {
            Some(m) if self.screen.len() == scenario.board.len() => {
                self.block_rects(scenario, space.index(), m).collect()
            }
            _ => Vec::new(),
        }
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

    fn block_at(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<BlockId> {
        (0..self.blocks.len()).find_map(|i| {
            self.block_rects(scenario, i, m)
                .position(|r| r.expand(1.0).contains(p))
                .map(|k| self.blocks[i][k])
        })
    }

    /// The space whose row of blocks is under `p`.
    fn block_space_at(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<SpaceId> {
        (0..self.blocks.len())
            .find(|&i| {
                self.block_rects(scenario, i, m)
                    .any(|r| r.expand(1.0).contains(p))
            })
            .map(|i| SpaceId(i as u16))
    }

    fn marker_at(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<SpaceId> {
        let board = &scenario.board;
        let mut best: Option<(f32, usize)> = None;
        for (i, s) in board.spaces.iter().enumerate() {
            let d = self.screen[i].distance(p);
            let reach = if s.kind == SpaceKind::Sea {
                12.0
            } else {
                m.radius(s.vp) + 4.0
            };
            if d <= reach && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i));
            }
        }
        best.map(|(_, i)| SpaceId(i as u16))
    }

    /// The link drawn within a few points of `p`.
    fn link_at(&self, scenario: &Scenario, p: Pos2) -> Option<LinkId> {
        let mut best: Option<(f32, usize)> = None;
        for (k, link) in scenario.board.links.iter().enumerate() {
            let d = match &self.sea_paths[k] {
                Some(path) => path
                    .windows(2)
                    .map(|w| distance_to_segment(p, self.frame * w[0], self.frame * w[1]))
                    .fold(f32::INFINITY, f32::min),
                None => {
                    distance_to_segment(p, self.screen[link.a.index()], self.screen[link.b.index()])
                }
            };
            if d <= 5.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, k));
            }
        }
        best.map(|(_, k)| LinkId(k as u16))
    }

    /// What a click at `p` selects: a block, a space's marker, a link, then
    /// a label or a sea's area.
    fn pick(&self, scenario: &Scenario, m: Metrics, p: Pos2, mode: MapMode) -> Option<MapHit> {
        if mode == MapMode::Deploy
            && let Some(b) = self.block_at(scenario, m, p)
        {
            return Some(MapHit::Block(b));
        }
        if mode == MapMode::Board
            && let Some(id) = self.block_space_at(scenario, m, p)
        {
            return Some(MapHit::Space(id));
        }
        if let Some(id) = self.marker_at(scenario, m, p) {
            return Some(MapHit::Space(id));
        }
        if let Some(l) = self.link_at(scenario, p) {
            return Some(MapHit::Link(l));
        }
        self.hit(scenario, m, p).map(MapHit::Space)
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

    /// The row of starting blocks above a city.
    fn block_rects(
        &self,
        scenario: &Scenario,
        i: usize,
        m: Metrics,
    ) -> impl Iterator<Item = Rect> + '_ {
        let s = &scenario.board.spaces[i];
        let r = m.radius(s.vp);
        let (b, gap) = (m.block(), 1.5 * m.u);
        // The board's blocks are wider than high (a name and a rating fit).
        let w = if m.board { 1.3 * b } else { b };
        let step = if m.board { STACK_STEP * w } else { b + gap };
        let n = self.blocks[i].len() as f32;
        let width = w + (n - 1.0).max(0.0) * step;
        let bottom = self.screen[i].y - r - if s.vp > 0 { 6.0 * m.u } else { 2.5 * m.u };
        let left = self.screen[i].x - width / 2.0;
        (0..self.blocks[i].len())
            .map(move |k| Rect::from_min_size(pos2(left + k as f32 * step, bottom - b), vec2(w, b)))
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

    fn layout_labels(&mut self, painter: &Painter, scenario: &Scenario, m: Metrics) {
        self.galleys.clear();
        for (i, s) in scenario.board.spaces.iter().enumerate() {
            let galley = if let Some(sea) = self.seas[i] {
                // Seas in italics on two lines, as map seas are lettered.
                let mut job = LayoutJob {
                    halign: Align::Center,
                    ..Default::default()
                };
                let format = TextFormat {
                    font_id: m.sea_font(sea),
                    color: SEA_TEXT,
                    italics: true,
                    extra_letter_spacing: 0.6 * m.u,
                    ..Default::default()
                };
                let text = match s.name.split_once(' ') {
                    Some((first, rest)) => format!("{first}\n{rest}"),
                    None => s.name.clone(),
                };
                job.append(&text, 0.0, format);
                painter.layout_job(job)
            } else {
                painter.layout_no_wrap(s.name.clone(), m.label_font(s.vp), LABEL)
            };
            self.galleys.push(galley);
        }
        self.strait_galleys.clear();
        for (k, link) in scenario.board.links.iter().enumerate() {
            if let (LinkClass::Strait, Some(name)) = (link.class, &link.name) {
                let mut job = LayoutJob::default();
                job.append(
                    name,
                    0.0,
                    TextFormat {
                        font_id: FontId::proportional(((9.5 * m.u) * 2.0).round() / 2.0),
                        color: STRAIT,
                        italics: true,
                        ..Default::default()
                    },
                );
                self.strait_galleys.push((k, painter.layout_job(job)));
            }
        }
    }

    /// Greedy placement: each label takes the candidate spot around its
    /// anchor that overlaps the least of what is already there.
    fn place_labels(&mut self, scenario: &Scenario, m: Metrics) {
        // Positions relative to the canvas origin: placement is pan-invariant.
        let origin = self.frame.translation.to_pos2();
        let segments = self.link_segments(&scenario.board);
        let mut obstacles = self.marker_obstacles(scenario, m, origin);
        self.place_space_labels(&scenario.board, m, origin, &mut obstacles, &segments);
        // Strait names last, beside their crossing, avoiding the city labels.
        self.place_strait_labels(&scenario.board, m, origin, &mut obstacles, &segments);
    }

    /// The links as drawn (sea routes as their paths), at the current zoom,
    /// for labels to keep off.
    fn link_segments(&self, board: &Board) -> Vec<[Pos2; 2]> {
        let zoom = self.frame.scaling;
        let mut segments: Vec<[Pos2; 2]> = Vec::with_capacity(board.links.len());
        let scaled = |p: Pos2| pos2(p.x * zoom, p.y * zoom);
        for (k, link) in board.links.iter().enumerate() {
            match &self.sea_paths[k] {
                Some(path) => {
                    segments.extend(path.windows(2).map(|w| [scaled(w[0]), scaled(w[1])]));
                }
                None if link.class == LinkClass::Sea => {}
                None => segments.push([
                    scaled(self.positions[link.a.index()]),
                    scaled(self.positions[link.b.index()]),
                ]),
            }
        }
        segments
    }

    /// What labels must not cover: the markers, their VP discs, the block
    /// rows and the seas' names.
    fn marker_obstacles(&self, scenario: &Scenario, m: Metrics, origin: Pos2) -> Vec<Rect> {
        let board = &scenario.board;
        let n = board.len();
        let mut obstacles: Vec<Rect> = Vec::with_capacity(n * 4);
        let rel = |r: Rect| r.translate(-origin.to_vec2());
        for i in 0..n {
            let s = &board.spaces[i];
            if s.kind == SpaceKind::Sea {
                obstacles.push(rel(self.sea_label_rect(i)));
                continue;
            }
            let marker = self.marker_rect(s.kind, s.vp, i, m).expand(1.0);
            obstacles.push(rel(marker));
            if s.vp > 0 {
                let c = self.vp_centre(i, m.radius(s.vp));
                obstacles.push(rel(Rect::from_center_size(
                    c,
                    Vec2::splat(2.0 * m.vp_radius()),
                )));
            }
            let row = self
                .block_rects(scenario, i, m)
                .fold(Rect::NOTHING, |a, b| a.union(b));
            if row.is_positive() {
                obstacles.push(rel(row.expand(1.0)));
            }
        }

        obstacles
    }

    /// Each space's name beside its marker, crowded spaces first; a sea's
    /// name stays centred on it.
    fn place_space_labels(
        &mut self,
        board: &Board,
        m: Metrics,
        origin: Pos2,
        obstacles: &mut Vec<Rect>,
        segments: &[[Pos2; 2]],
    ) {
        let n = board.len();
        let anchor = |i: usize| (self.screen[i] - origin).to_pos2();
        // Crowded spaces first, so they get the good spots.
        let mut order: Vec<usize> = (0..n)
            .filter(|i| board.spaces[*i].kind != SpaceKind::Sea)
            .collect();
        let crowd = |i: usize| {
            (0..n)
                .filter(|j| *j != i && self.positions[*j].distance(self.positions[i]) < 110.0)
                .count()
        };
        order.sort_by_key(|i| (std::cmp::Reverse(crowd(*i)), *i));
        self.placement.spaces.clear();
        self.placement.spaces.resize(n, Vec2::ZERO);
        for i in 0..n {
            if board.spaces[i].kind == SpaceKind::Sea {
                self.placement.spaces[i] = -self.galleys[i].size() * 0.5;
            }
        }
        for i in order {
            let s = &board.spaces[i];
            let p = anchor(i);
            let r = m.radius(s.vp) + 1.5 * m.u;
            let size = self.galleys[i].size();
            let row_h = if self.blocks[i].is_empty() {
                0.0
            } else {
                m.block() + 3.0 * m.u
            };
            let (w, h) = (size.x, size.y);
            let candidates = [
                pos2(p.x + r + 1.0, p.y - h / 2.0),         // right
                pos2(p.x - r - 1.0 - w, p.y - h / 2.0),     // left
                pos2(p.x - w / 2.0, p.y + r),               // below
                pos2(p.x - w / 2.0, p.y - r - row_h - h),   // above
                pos2(p.x + r * 0.7, p.y + r * 0.5),         // below right
                pos2(p.x - r * 0.7 - w, p.y + r * 0.5),     // below left
                pos2(p.x + r * 0.7, p.y - r * 0.5 - h),     // above right
                pos2(p.x - r * 0.7 - w, p.y - r * 0.5 - h), // above left
            ]
            .map(|min| Rect::from_min_size(min, size));
            let best = pick(
                &candidates,
                obstacles,
                segments,
                &[0.0, 4.0, 6.0, 8.0, 12.0, 14.0, 14.0, 16.0],
            );
            obstacles.push(candidates[best]);
            self.placement.spaces[i] = candidates[best].min - p;
        }
    }

    /// Each strait's name beside its crossing, left out where no spot is
    /// clear enough.
    fn place_strait_labels(
        &mut self,
        board: &Board,
        m: Metrics,
        origin: Pos2,
        obstacles: &mut Vec<Rect>,
        segments: &[[Pos2; 2]],
    ) {
        let anchor = |i: usize| (self.screen[i] - origin).to_pos2();
        self.placement.straits.clear();
        for (k, galley) in &self.strait_galleys {
            let link = &board.links[*k];
            let (a, b) = (anchor(link.a.index()), anchor(link.b.index()));
            let mid = a + (b - a) * 0.5;
            let along = (b - a).normalized();
            let normal = along.rot90();
            let size = galley.size();
            // Far enough along the normal that the label's box clears the line.
            let clear = size.y * 0.5 * normal.y.abs() + size.x * 0.5 * normal.x.abs() + 3.0 * m.u;
            let candidates = [
                mid + normal * clear,
                mid - normal * clear,
                mid + normal * (clear + size.y),
                mid - normal * (clear + size.y),
            ]
            .map(|c| Rect::from_center_size(c, size));
            let best = candidates[pick(&candidates, obstacles, segments, &[0.0, 2.0, 14.0, 16.0])];
            let covered: f32 = obstacles
                .iter()
                .map(|o| best.intersect(*o))
                .filter(|r| r.is_positive())
                .map(|r| r.area())
                .sum();
            if covered > 0.15 * best.area() {
                self.placement.straits.push(None);
            } else {
                obstacles.push(best);
                self.placement.straits.push(Some(best.min - mid));
            }
        }
    }

    // -------------------------------------------------------------- hover

    fn hit(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<SpaceId> {
        let board = &scenario.board;
        let mut best: Option<(f32, usize)> = None;
        for (i, s) in board.spaces.iter().enumerate() {
            if s.kind == SpaceKind::Sea {
                continue;
            }
            let d = self.screen[i].distance(p);
            if d <= m.radius(s.vp) + 4.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i));
            }
        }
        if let Some((_, i)) = best {
            return Some(SpaceId(i as u16));
        }
        let on_label = (0..board.len())
            .find(|&i| board.spaces[i].kind != SpaceKind::Sea && self.label_rect(i).contains(p));
        if let Some(i) = on_label {
            return Some(SpaceId(i as u16));
        }
        (0..board.len())
            .find(|&i| self.sea_hit_rect(i).is_some_and(|r| r.contains(p)))
            .map(|i| SpaceId(i as u16))
    }

    /// A sea's hover area: its name and the middle of its area.
    fn sea_hit_rect(&self, i: usize) -> Option<Rect> {
        let sea = self.seas[i]?;
        let core = Rect::from_center_size(self.screen[i], sea.radius * self.frame.scaling * 1.2);
        Some(core.union(self.sea_label_rect(i)))
    }

    // ----------------------------------------------------------- painting

    fn paint_backdrop(&self, painter: &Painter, view: &MapView) {
        let t = view.transform();
        let canvas = match self.backdrop {
            Some(_) => Rect::from_min_size(Pos2::ZERO, vec2(geo::CANVAS.0, geo::CANVAS.1)),
            None => self.bounds,
        };
        painter.rect_filled(painter.clip_rect(), 0.0, OUTSIDE);
        let canvas_screen =
            Rect::from_min_max(view.to_screen(canvas.min), view.to_screen(canvas.max));
        painter.rect_filled(canvas_screen, 0.0, LAND);
        if let Some(b) = &self.backdrop {
            let coast = Stroke::new(2.4, COAST);
            let stroke_all = |outlines: &[Vec<Pos2>]| {
                for outline in outlines {
                    painter.add(Shape::closed_line(
                        outline.iter().map(|p| t * *p).collect(),
                        coast,
                    ));
                }
            };
            stroke_all(&b.water_coasts);
            let mut water: Mesh = b.water.clone();
            water.transform(t);
            painter.add(Shape::mesh(water));
            let width = (2.4 * view.zoom()).clamp(1.5, 10.0);
            painter.add(Shape::line(
                b.nile.iter().map(|p| t * *p).collect(),
                Stroke::new(width, WATER),
            ));
            stroke_all(&b.island_coasts);
            let mut islands: Mesh = b.islands.clone();
            islands.transform(t);
            painter.add(Shape::mesh(islands));
            // The canvas edge frames the map (and hides water runs along it).
            painter.rect_stroke(
                canvas_screen,
                0.0,
                Stroke::new(2.0, COAST),
                StrokeKind::Outside,
            );
        } else {
            painter.rect_stroke(
                canvas_screen,
                0.0,
                Stroke::new(2.0, CITY_EDGE),
                StrokeKind::Outside,
            );
        }
        for (i, sea) in self.seas.iter().enumerate() {
            if let Some(sea) = sea {
                let radius = sea.radius * view.zoom();
                // Without a coastline the sea area is the only water drawn.
                let fill = if self.backdrop.is_some() {
                    SEA_AREA
                } else {
                    WATER
                };
                painter.add(Shape::ellipse_filled(self.screen[i], radius, fill));
                painter.add(Shape::ellipse_stroke(
                    self.screen[i],
                    radius,
                    Stroke::new(1.0, SEA_AREA_EDGE),
                ));
            }
        }
    }

    fn paint_links(
        &mut self,
        painter: &Painter,
        scenario: &Scenario,
        m: Metrics,
        hovered: Option<SpaceId>,
    ) {
        let board = &scenario.board;
        let u = m.u;
        let clip = painter.clip_rect().expand(10.0);
        let mut shapes = std::mem::take(&mut self.shapes);
        shapes.clear();
        let t = self.frame;
        // Sea borders first, then roads over them.
        for (k, link) in board.links.iter().enumerate() {
            if link.class != LinkClass::Sea {
                continue;
            }
            if let Some(path) = &self.sea_paths[k] {
                dotted(
                    &mut shapes,
                    path,
                    t,
                    clip,
                    SEA_LINK,
                    5.0 * u.min(1.4),
                    0.9 * u.min(1.6),
                );
            }
        }
        for link in &board.links {
            let (a, b) = (self.screen[link.a.index()], self.screen[link.b.index()]);
            match link.class {
                LinkClass::Major => {
                    shapes.push(Shape::line_segment([a, b], Stroke::new(2.8 * u, MAJOR)))
                }
                LinkClass::Minor => dashed(
                    &mut shapes,
                    a,
                    b,
                    clip,
                    Stroke::new(1.8 * u, MINOR),
                    6.0 * u,
                    4.0 * u,
                ),
                LinkClass::Strait => strait(&mut shapes, board, link.a, link.b, a, b, m),
                LinkClass::Sea => {}
            }
        }
        if let Some(h) = hovered {
            let glow = Stroke::new(5.0 * u, HIGHLIGHT.gamma_multiply(0.55));
            for adj in board.neighbours(h) {
                match &self.sea_paths[adj.link.index()] {
                    Some(path) => {
                        shapes.push(Shape::line(path.iter().map(|p| t * *p).collect(), glow));
                    }
                    None if adj.class == LinkClass::Sea => {}
                    None => shapes.push(Shape::line_segment(
                        [self.screen[h.index()], self.screen[adj.to.index()]],
                        glow,
                    )),
                }
            }
        }
        painter.extend(shapes.drain(..));
        self.shapes = shapes;
    }

    fn paint_spaces(
        &mut self,
        painter: &Painter,
        scenario: &Scenario,
        m: Metrics,
        hovered: Option<SpaceId>,
        area: Rect,
        input: &MapInput<'_>,
    ) {
        let board = &scenario.board;
        let u = m.u;
        let visible = area.expand(40.0 * u);
        let neighbour_of_hovered = |i: usize| {
            hovered.is_some_and(|h| board.neighbours(h).iter().any(|a| a.to.index() == i))
        };
        for (i, s) in board.spaces.iter().enumerate() {
            let p = self.screen[i];
            let lit = hovered == Some(SpaceId(i as u16)) || neighbour_of_hovered(i);
            if let Some(sea) = self.seas[i] {
                if lit {
                    let radius = sea.radius * self.frame.scaling;
                    painter.add(Shape::ellipse_stroke(
                        p,
                        radius,
                        Stroke::new(2.5, HIGHLIGHT),
                    ));
                }
                continue;
            }
            if !visible.contains(p) {
                continue;
            }
            let r = m.radius(s.vp);
            if lit {
                painter.circle_filled(p, r + 4.0 * u, HIGHLIGHT.gamma_multiply(0.8));
            }
            match s.kind {
                SpaceKind::City => {
                    painter.circle(p, r, CITY_FILL, Stroke::new(1.6 * u, CITY_EDGE));
                }
                SpaceKind::Port => {
                    painter.circle(p, r, CITY_FILL, Stroke::new(2.2 * u, PORT_RING));
                }
                SpaceKind::MajorPort => major_port(painter, p, r, m),
                SpaceKind::Sea => {}
            }
            if s.vp > 0 {
                vp_badge(painter, self.vp_centre(i, r), s.vp, m);
            }
            let id = SpaceId(i as u16);
            if input.selected == Some(MapHit::Space(id)) {
                painter.circle_stroke(p, r + 4.5 * u, Stroke::new(3.0 * u, SELECTED));
            }
            let rows = if input.mode == MapMode::Board {
                0
            } else {
                self.blocks[i].len()
            };
            self.paint_blocks(painter, scenario, i, rows, m, input);
            // 5.3: a side's surplus or shortfall in this city.
            paint_balance(painter, p, r, u, input.balance, id);
            // 8.4: blocks here / blocks the city supplies in winter.
            if let Some(base) = input.supply {
                let cap = s.winter_supply(base) as usize;
                paint_supply(painter, p, r, self.blocks[i].len(), cap);
            }
        }
    }

    /// The first `rows` blocks that start in space `i` (a dragged block as
    /// its ghost), with their strength when there is room, and the selected
    /// one ringed.
    fn paint_blocks(
        &self,
        painter: &Painter,
        scenario: &Scenario,
        i: usize,
        rows: usize,
        m: Metrics,
        input: &MapInput<'_>,
    ) {
        for (k, rect) in self.block_rects(scenario, i, m).take(rows).enumerate() {
            let bid = self.blocks[i][k];
            if input.dragging == Some(bid) {
                painter.rect_stroke(
                    rect,
                    1.0,
                    Stroke::new(1.0, super::theme::GHOST),
                    StrokeKind::Inside,
                );
                continue;
            }
            let b = scenario.roster.block(bid);
            block(painter, rect, b.side, b.kind, m);
            if m.big_blocks {
                let strength = scenario.starting_setup().strength(&scenario.roster, bid);
                block_text(painter, rect, b, strength);
            }
            if input.selected == Some(MapHit::Block(bid)) {
                painter.rect_stroke(
                    rect.expand(2.0),
                    2.0,
                    Stroke::new(2.5, SELECTED),
                    StrokeKind::Outside,
                );
            }
        }
    }

    fn paint_selected_link(
        &self,
        painter: &Painter,
        scenario: &Scenario,
        m: Metrics,
        selected: Option<MapHit>,
    ) {
        let Some(MapHit::Link(l)) = selected else {
            return;
        };
        let Some(link) = scenario.board.links.get(l.index()) else {
            return;
        };
        let stroke = Stroke::new(5.0 * m.u, SELECTED.gamma_multiply(0.8));
        match &self.sea_paths[l.index()] {
            Some(path) => {
                painter.add(Shape::line(
                    path.iter().map(|p| self.frame * *p).collect(),
                    stroke,
                ));
            }
            None => {
                painter.line_segment(
                    [self.screen[link.a.index()], self.screen[link.b.index()]],
                    stroke,
                );
            }
        }
    }

    /// One accessibility node per block on the map, named after the block,
    /// so screen readers and the tests find them.
    fn register_blocks(&self, ui: &mut Ui, scenario: &Scenario, m: Metrics, area: Rect) {
        for i in 0..self.blocks.len() {
            for (k, rect) in self.block_rects(scenario, i, m).enumerate() {
                if !area.contains_rect(rect) {
                    continue;
                }
                let b = scenario.roster.block(self.blocks[i][k]);
                let id = ui.scope_id().with(("block", self.blocks[i][k].0));
                let response = ui.interact(rect, id, Sense::hover());
                let label = format!("{} ({})", b.name, b.side);
                response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &label));
                let _: Response = response.on_hover_text(format!(
                    "{} — {} {}, {}, strength {}",
                    b.name,
                    b.side,
                    b.kind.label(),
                    short_rating(b),
                    strength_text(
                        b,
                        scenario
                            .starting_setup()
                            .strength(&scenario.roster, self.blocks[i][k])
                    )
                ));
            }
        }
    }

    fn paint_labels(&self, painter: &Painter, scenario: &Scenario, m: Metrics, area: Rect) {
        let board = &scenario.board;
        let visible = area.expand(100.0);
        for (i, s) in board.spaces.iter().enumerate() {
            if s.kind == SpaceKind::Sea && visible.contains(self.screen[i]) {
                let g = &self.galleys[i];
                let pos = self.screen[i] - g.rect.center().to_vec2();
                painter.galley(pos, g.clone(), SEA_TEXT);
            }
        }
        for (k, (link, galley)) in self.strait_galleys.iter().enumerate() {
            let l = &board.links[*link];
            let mid = self.screen[l.a.index()]
                + (self.screen[l.b.index()] - self.screen[l.a.index()]) * 0.5;
            if let (true, Some(offset)) = (visible.contains(mid), self.placement.straits[k]) {
                let at = mid + offset;
                painter.rect_filled(
                    Rect::from_min_size(at, galley.size()).expand(1.0),
                    2.0,
                    HALO.gamma_multiply(0.7),
                );
                painter.galley(at, galley.clone(), STRAIT);
            }
        }
        for (i, s) in board.spaces.iter().enumerate() {
            if s.kind == SpaceKind::Sea || !visible.contains(self.screen[i]) {
                continue;
            }
            let rect = self.label_rect(i);
            painter.rect_filled(rect.expand2(vec2(1.5, 0.0) * m.u), 2.0, HALO);
            painter.galley(rect.min, self.galleys[i].clone(), LABEL);
        }
    }

    /// One hover-sensing widget per visible space: it carries the tooltip and
    /// gives the space an accessibility node (name as label), which is also
    /// how the tests find spaces.
    fn register_spaces(
        &self,
        ui: &mut Ui,
        scenario: &Scenario,
        rules: Option<&RuleSet>,
        m: Metrics,
        area: Rect,
        mode: MapMode,
    ) {
        let board = &scenario.board;
        for (i, s) in board.spaces.iter().enumerate() {
            let rect = if s.kind == SpaceKind::Sea {
                match self.sea_hit_rect(i) {
                    Some(r) => r,
                    None => continue,
                }
            } else {
                self.marker_rect(s.kind, s.vp, i, m)
                    .expand(3.0)
                    .union(self.label_rect(i))
            };
            if !area.intersects(rect) {
                continue;
            }
            let id = ui.scope_id().with(("space", i));
            let response = ui.interact(rect.intersect(area), id, Sense::hover());
            let name = s.name.clone();
            response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &name));
            if mode == MapMode::Board {
                // A game's blocks are the board's to show (some are hidden);
                // its card is compact, so it hides few stacks around.
                let _: Response = response.on_hover_ui(|ui| {
                    super::tooltip::board_space(ui, scenario, rules, SpaceId(i as u16));
                });
                continue;
            }
            let _: Response = response.on_hover_ui(|ui| {
                super::tooltip::space(ui, scenario, rules, &self.blocks[i], SpaceId(i as u16));
            });
        }
    }
}

fn handle_zoom(ui: &Ui, response: &Response, view: &mut MapView) {
    if !ui.rect_contains_pointer(response.rect) {
        return;
    }
    let (scroll, pinch, pointer) =
        ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.pointer.hover_pos()));
    let Some(pointer) = pointer else { return };
    // The wheel zooms (a map has nothing to scroll); pinch and ctrl+wheel too.
    let factor = pinch * (scroll.y * 0.0018).exp();
    if factor != 1.0 {
        view.zoom_around(factor, pointer);
        ui.ctx().input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
    }
}

fn route_key(a: Pos2, b: Pos2) -> [u32; 4] {
    [a.x.to_bits(), a.y.to_bits(), b.x.to_bits(), b.y.to_bits()]
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 {
        ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
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

pub(super) fn roman(n: u8) -> &'static str {
    ["0", "I", "II", "III", "IV", "V", "VI"]
        .get(n as usize)
        .copied()
        .unwrap_or("+")
}

/// Index of the cheapest candidate: overlap area with obstacles, road
/// crossings, then a small preference for the first spots.
fn pick(
    candidates: &[Rect],
    obstacles: &[Rect],
    segments: &[[Pos2; 2]],
    preference: &[f32],
) -> usize {
    let mut best = (f32::INFINITY, 0);
    for (k, c) in candidates.iter().enumerate() {
        let mut cost = preference.get(k).copied().unwrap_or(20.0);
        for o in obstacles {
            let overlap = c.intersect(*o);
            if overlap.is_positive() {
                cost += overlap.area() + 20.0;
            }
            if cost >= best.0 {
                break;
            }
        }
        for s in segments {
            if cost >= best.0 {
                break;
            }
            if segment_hits_rect(s[0], s[1], *c) {
                cost += 12.0;
            }
        }
        if cost < best.0 {
            best = (cost, k);
        }
    }
    best.1
}

fn segment_hits_rect(a: Pos2, b: Pos2, r: Rect) -> bool {
    visible_span(a, b, r).is_some()
}

/// Liang-Barsky: the part of the segment inside the rectangle, as a range of
/// the parameter along a→b.
fn visible_span(a: Pos2, b: Pos2, r: Rect) -> Option<(f32, f32)> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-d.x, a.x - r.min.x),
        (d.x, r.max.x - a.x),
        (-d.y, a.y - r.min.y),
        (d.y, r.max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

fn inside(p: Pos2, centre: Pos2, sea: SeaArea) -> bool {
    let d = p - centre;
    (d.x / sea.radius.x).powi(2) + (d.y / sea.radius.y).powi(2) < 1.0
}

/// Cuts the start of a polyline that begins at a sea's centre where it
/// leaves the sea's area; empties it if it never does.
fn trim_start(path: &mut Vec<Pos2>, centre: Pos2, sea: SeaArea) {
    while path.len() >= 2 && inside(path[1], centre, sea) {
        path.remove(0);
    }
    if path.len() < 2 {
        path.clear();
        return;
    }
    if inside(path[0], centre, sea) {
        // Bisect for the crossing of the area's edge.
        let (mut lo, mut hi) = (path[0], path[1]);
        for _ in 0..24 {
            let mid = lo.lerp(hi, 0.5);
            if inside(mid, centre, sea) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        path[0] = hi;
    }
}

/// Dots along a canvas polyline, spaced evenly across its corners; only
/// those inside `clip` are made, so a zoomed-in map stays cheap.
fn dotted(
    shapes: &mut Vec<Shape>,
    path: &[Pos2],
    t: TSTransform,
    clip: Rect,
    color: Color32,
    spacing: f32,
    radius: f32,
) {
    if spacing <= 0.0 {
        return;
    }
    // Distance from the segment's start to its first dot.
    let mut first = 0.0;
    for w in path.windows(2) {
        let (a, b) = (t * w[0], t * w[1]);
        let length = a.distance(b);
        if length < 0.01 {
            continue;
        }
        let d = (b - a) / length;
        if let Some((t0, t1)) = visible_span(a, b, clip) {
            let k0 = ((t0 * length - first) / spacing).ceil().max(0.0) as usize;
            let k1 = ((t1 * length - first) / spacing).floor();
            if k1 >= 0.0 {
                for k in k0..=k1 as usize {
                    let at = first + k as f32 * spacing;
                    shapes.push(Shape::circle_filled(a + d * at, radius, color));
                }
            }
        }
        let dots = if first <= length {
            ((length - first) / spacing).floor() + 1.0
        } else {
            0.0
        };
        first = first + dots * spacing - length;
    }
}

/// A dashed segment, cut to `clip` first; the cut starts on a whole dash
/// period so the dashes stay put while panning.
fn dashed(
    shapes: &mut Vec<Shape>,
    a: Pos2,
    b: Pos2,
    clip: Rect,
    stroke: Stroke,
    dash: f32,
    gap: f32,
) {
    let length = a.distance(b);
    let Some((t0, t1)) = visible_span(a, b, clip) else {
        return;
    };
    if length < 0.01 {
        return;
    }
    let period = dash + gap;
    let start = ((t0 * length) / period).floor() * period;
    let d = (b - a) / length;
    Shape::dashed_line_many(
        &[a + d * start, a + d * (t1 * length)],
        stroke,
        dash,
        gap,
        shapes,
    );
}

/// The Navis symbol: a double blue ring with a hub.
fn major_port(painter: &Painter, p: Pos2, r: f32, m: Metrics) {
    painter.circle_stroke(p, r + 2.5 * m.u, Stroke::new(1.3 * m.u, PORT_RING));
    painter.circle(p, r, CITY_FILL, Stroke::new(2.2 * m.u, PORT_RING));
    painter.circle_filled(p, r * 0.38, PORT_RING);
}

fn vp_badge(painter: &Painter, c: Pos2, vp: u8, m: Metrics) {
    painter.circle(c, m.vp_radius(), VP_FILL, Stroke::new(1.0, VP_EDGE));
    painter.text(
        c,
        egui::Align2::CENTER_CENTER,
        vp.to_string(),
        FontId::monospace(((7.5 * m.u) * 2.0).round() / 2.0),
        super::theme::VP_TEXT,
    );
}

/// Combat rating as printed: "C3", the ballista "B4/D4".
pub(super) fn short_rating(b: &crate::scenario::model::Block) -> String {
    match b.attacking_initiative {
        Some(att) => format!(
            "{}{}/{}{}",
            b.initiative.letter(),
            b.firepower,
            att.letter(),
            b.firepower
        ),
        None => format!("{}{}", b.initiative.letter(), b.firepower),
    }
}

/// "III", or "II of IV" for a block deployed below full strength.
pub(super) fn strength_text(b: &crate::scenario::model::Block, strength: u8) -> String {
    if strength < b.max_strength() {
        format!("{} of {}", roman(strength), roman(b.max_strength()))
    } else {
        roman(strength).to_string()
    }
}

/// A block's short name, and its strength in the corner.
pub(super) fn block_text(
    painter: &Painter,
    rect: Rect,
    b: &crate::scenario::model::Block,
    strength: u8,
) {
    let size = (rect.height() * 0.42).clamp(6.0, 14.0);
    painter.text(
        rect.center() - vec2(0.0, rect.height() * 0.12),
        egui::Align2::CENTER_CENTER,
        short_name(&b.name),
        FontId::proportional(size),
        super::theme::BLOCK_TEXT,
    );
    painter.text(
        rect.center_bottom() - vec2(0.0, 1.0),
        egui::Align2::CENTER_BOTTOM,
        roman(strength),
        FontId::proportional(size * 0.75),
        super::theme::BLOCK_REDUCED,
    );
}

/// A block as the levy pool draws it: the map's square, its name and strength.
pub(super) fn pool_block(painter: &Painter, rect: Rect, b: &crate::scenario::model::Block) {
    let m = Metrics {
        u: rect.width() / 14.0,
        big_blocks: true,
        board: false,
    };
    block(painter, rect, b.side, b.kind, m);
    block_text(painter, rect, b, b.max_strength());
}

fn block(painter: &Painter, rect: Rect, side: Side, kind: BlockKind, m: Metrics) {
    let (fill, edge) = super::theme::block(side, kind);
    painter.rect(
        rect,
        CornerRadius::same(1),
        fill,
        Stroke::new(m.u, edge),
        StrokeKind::Inside,
    );
    if kind == BlockKind::Leader && !m.big_blocks {
        // Leaders carry a gold pip so the commanders stand out.
        painter.circle_filled(rect.center(), rect.width() * 0.18, VP_FILL);
    }
}

/// A strait: a blue double-headed arrow between the two cities.
fn strait(
    shapes: &mut Vec<Shape>,
    board: &Board,
    from: SpaceId,
    to: SpaceId,
    a: Pos2,
    b: Pos2,
    m: Metrics,
) {
    let length = a.distance(b);
    if length < 1.0 {
        return;
    }
    let d = (b - a) / length;
    let (ra, rb) = (
        m.radius(board.space(from).vp) + 2.0 * m.u,
        m.radius(board.space(to).vp) + 2.0 * m.u,
    );
    strait_arrow(shapes, a + d * ra, b - d * rb, m);
}

fn strait_arrow(shapes: &mut Vec<Shape>, a: Pos2, b: Pos2, m: Metrics) {
    let d = (b - a).normalized();
    let stroke = Stroke::new(2.2 * m.u, STRAIT);
    shapes.push(Shape::line_segment([a, b], stroke));
    let head = 5.0 * m.u;
    let n = d.rot90();
    for (tip, back) in [(a, d), (b, -d)] {
        shapes.push(Shape::convex_polygon(
            vec![
                tip,
                tip + back * head + n * head * 0.55,
                tip + back * head - n * head * 0.55,
            ],
            STRAIT,
            Stroke::NONE,
        ));
    }
}

/// The map's symbols, for the side panel.
pub(super) fn legend(ui: &mut Ui) {
    let items = [
        (Sample::Major, "Major road"),
        (Sample::Minor, "Minor road"),
        (Sample::Strait, "Strait"),
        (Sample::Sea, "Sea border"),
        (Sample::City, "Inland city"),
        (Sample::Port, "Port"),
        (Sample::MajorPort, "Major port (Navis)"),
        (Sample::Vp, "Victory points"),
        (
            Sample::Block(Side::Caesar, BlockKind::Legion),
            "Caesar block",
        ),
        (
            Sample::Block(Side::Pompey, BlockKind::Legion),
            "Pompey block",
        ),
        (
            Sample::Block(Side::Pompey, BlockKind::Cleopatra),
            "Cleopatra",
        ),
        (
            Sample::Block(Side::Caesar, BlockKind::Leader),
            "Leader (gold pip)",
        ),
    ];
    let m = Metrics {
        u: 1.2,
        big_blocks: false,
        board: false,
    };
    egui::Grid::new("legend")
        .num_columns(4)
        .spacing([6.0, 4.0])
        .show(ui, |ui| {
            for (k, (sample, text)) in items.iter().enumerate() {
                let (rect, _) = ui.allocate_exact_size(vec2(34.0, 14.0), Sense::hover());
                sample.paint(&ui.painter_at(rect.expand(4.0)), rect, m);
                ui.label(*text);
                if k % 2 == 1 {
                    ui.end_row();
                }
            }
        });
}

/// A symbol of the map's legend.
#[derive(Clone, Copy)]
enum Sample {
    Major,
    Minor,
    Strait,
    Sea,
    City,
    Port,
    MajorPort,
    Vp,
    Block(Side, BlockKind),
}

impl Sample {
    /// Draws the symbol across `rect`.
    fn paint(self, p: &Painter, rect: Rect, m: Metrics) {
        let (l, r, c) = (rect.left_center(), rect.right_center(), rect.center());
        match self {
            Sample::Major => {
                p.line_segment([l, r], Stroke::new(2.8 * m.u, MAJOR));
            }
            Sample::Minor => {
                p.extend(Shape::dashed_line(
                    &[l, r],
                    Stroke::new(1.8 * m.u, MINOR),
                    6.0,
                    4.0,
                ));
            }
            Sample::Strait => {
                let mut shapes = Vec::new();
                strait_arrow(&mut shapes, l, r, m);
                p.extend(shapes);
            }
            Sample::Sea => {
                let mut shapes = Vec::new();
                dotted(
                    &mut shapes,
                    &[l, r],
                    TSTransform::IDENTITY,
                    Rect::EVERYTHING,
                    SEA_LINK,
                    5.0,
                    1.1,
                );
                p.extend(shapes);
            }
            Sample::City => {
                p.circle(c, 5.0 * m.u, CITY_FILL, Stroke::new(1.6 * m.u, CITY_EDGE));
            }
            Sample::Port => {
                p.circle(c, 5.0 * m.u, CITY_FILL, Stroke::new(2.2 * m.u, PORT_RING));
            }
            Sample::MajorPort => major_port(p, c, 5.0 * m.u, m),
            Sample::Vp => vp_badge(p, c, 1, m),
            Sample::Block(side, kind) => {
                block(
                    p,
                    Rect::from_center_size(c, Vec2::splat(m.block())),
                    side,
                    kind,
                    m,
                );
            }
        }
    }
}

/// Each sea's area (`None` for land), as large as its nearest city allows and,
/// over the coastline, shrunk until it is all water. Radii are cached by
/// position in `sea_radii`.
fn sea_areas(
    board: &Board,
    positions: &[Pos2],
    has_backdrop: bool,
    sea_radii: &mut HashMap<[u32; 4], f32>,
) -> Vec<Option<SeaArea>> {
    board
        .ids()
        .map(|id| {
            let s = board.space(id);
            (s.kind == SpaceKind::Sea).then(|| {
                let nearest = board
                    .ids()
                    .filter(|o| board.space(*o).kind.is_city())
                    .map(|o| positions[o.index()].distance(positions[id.index()]))
                    .fold(f32::INFINITY, f32::min);
                let start = (nearest * 0.72).clamp(30.0, 105.0);
                // Over the coastline, shrink the area until it is all water.
                let centre = positions[id.index()];
                let wet = |r: f32| {
                    (0..24).all(|k| {
                        let a = k as f32 * std::f32::consts::TAU / 24.0;
                        geo::is_water(centre + vec2(a.cos() * r, a.sin() * r * 0.6))
                    })
                };
                let key = route_key(centre, pos2(start, f32::from(u8::from(has_backdrop))));
                let r = *sea_radii.entry(key).or_insert_with(|| {
                    let mut r = start;
                    while has_backdrop && r > 22.0 && !wet(r) {
                        r -= 4.0;
                    }
                    r
                });
                SeaArea {
                    radius: vec2(r, r * 0.6),
                }
            })
        })
        .collect()
}

/// Each sea link's path, round the coast when the coastline is drawn (routes
/// cached in `routes`), trimmed at the seas' areas; `None` for other links.
fn sea_paths(
    board: &Board,
    positions: &[Pos2],
    seas: &[Option<SeaArea>],
    has_backdrop: bool,
    routes: &mut HashMap<[u32; 4], Option<Vec<Pos2>>>,
) -> Vec<Option<Vec<Pos2>>> {
    board
        .links
        .iter()
        .map(|link| {
            if link.class != LinkClass::Sea {
                return None;
            }
            let (a, b) = (positions[link.a.index()], positions[link.b.index()]);
            let mut path = match has_backdrop {
                true => routes
                    .entry(route_key(a, b))
                    .or_insert_with(|| geo::water_route(a, b))
                    .clone()
                    .unwrap_or_else(|| vec![a, b]),
                false => vec![a, b],
            };
            // Stop at the edge of a sea's area, so names stay clear.
            if let Some(sea) = seas[link.a.index()] {
                trim_start(&mut path, a, sea);
            }
            if let Some(sea) = seas[link.b.index()] {
                path.reverse();
                trim_start(&mut path, b, sea);
                path.reverse();
            }
            (path.len() >= 2).then_some(path)
        })
        .collect()
}

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

/// 5.3: each side's surplus (or shortfall) of blocks in a city, as badges
/// under its marker of radius `r` at `p`.
fn paint_balance(
    painter: &Painter,
    p: Pos2,
    r: f32,
    u: f32,
    balance: &[(SpaceId, Side, i64)],
    id: SpaceId,
) {
    let mut below = p.y + r + 3.0 * u;
    for (_, side, surplus) in balance.iter().filter(|(c, _, _)| *c == id) {
        let text = format!("{} {:+}", side.label(), surplus);
        let colour = if *surplus > 0 { OVER } else { UNDER };
        let g = painter.layout_no_wrap(text, FontId::proportional(11.0), super::theme::BLOCK_TEXT);
        let rect = Rect::from_center_size(pos2(p.x, below + g.size().y / 2.0), g.size())
            .expand2(vec2(3.0, 1.0));
        painter.rect_filled(rect, 3.0, colour);
        painter.galley(rect.min + vec2(3.0, 1.0), g, super::theme::BLOCK_TEXT);
        painter.circle_stroke(p, r + 3.0 * u, Stroke::new(2.5 * u, colour));
        below = rect.max.y + 1.0;
    }
}

/// 8.4: `n` blocks here of the `cap` the city supplies in winter, beside its
/// marker (red when over).
fn paint_supply(painter: &Painter, p: Pos2, r: f32, n: usize, cap: usize) {
    let over = n > cap;
    let text = if n > 0 {
        format!("{n}/{cap}")
    } else {
        format!("{cap}")
    };
    let g = painter.layout_no_wrap(
        text,
        FontId::monospace(10.0),
        if over {
            super::theme::BLOCK_TEXT
        } else {
            LABEL
        },
    );
    let rect = Rect::from_center_size(pos2(p.x - r - g.size().x / 2.0 - 3.0, p.y + r), g.size())
        .expand2(vec2(2.0, 0.5));
    painter.rect_filled(
        rect,
        2.0,
        if over {
            OVER
        } else {
            super::theme::SUPPLY_TEXT
        },
    );
    painter.galley(rect.min + vec2(2.0, 0.5), g, LABEL);
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
