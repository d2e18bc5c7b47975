//! The map panel: backdrop, links, spaces, starting blocks, labels, hover.
//!
//! Everything that depends only on the scenario is computed once in
//! [`MapModel::new`]; per frame only screen positions, galleys (cached by
//! egui) and shapes are made. Label placement is redone only when the zoom
//! changes, since panning moves every label together.

use std::f32::consts::TAU;
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
use crate::format::{BlockKind, LinkClass, Side, SpaceKind};
use crate::model::{BlockId, Scenario, SpaceId};
use crate::rules::RuleSet;

// ------------------------------------------------------------------ colours

const OUTSIDE: Color32 = Color32::from_rgb(58, 62, 68);
const LAND: Color32 = Color32::from_rgb(233, 222, 192);
const WATER: Color32 = Color32::from_rgb(172, 200, 214);
const COAST: Color32 = Color32::from_rgb(118, 148, 164);
const SEA_AREA: Color32 = Color32::from_rgba_premultiplied(22, 38, 56, 36);
const SEA_AREA_EDGE: Color32 = Color32::from_rgba_premultiplied(40, 70, 105, 90);
const SEA_TEXT: Color32 = Color32::from_rgb(38, 76, 128);
const MAJOR: Color32 = Color32::from_rgb(118, 70, 34);
const MINOR: Color32 = Color32::from_rgb(150, 106, 64);
const STRAIT: Color32 = Color32::from_rgb(28, 92, 190);
const SEA_LINK: Color32 = Color32::from_rgb(52, 108, 170);
const CITY_FILL: Color32 = Color32::from_rgb(252, 248, 236);
const CITY_EDGE: Color32 = Color32::from_rgb(70, 50, 35);
const PORT_RING: Color32 = Color32::from_rgb(32, 92, 176);
const VP_FILL: Color32 = Color32::from_rgb(222, 176, 48);
const VP_EDGE: Color32 = Color32::from_rgb(110, 80, 20);
const LABEL: Color32 = Color32::from_rgb(44, 32, 22);
const HALO: Color32 = Color32::from_rgba_premultiplied(200, 190, 164, 205);
const HIGHLIGHT: Color32 = Color32::from_rgb(255, 196, 36);

/// Block colours (fill, edge): Caesar red on tan, Pompey green on ochre,
/// Cleopatra blue, as the published blocks are told apart.
fn block_colours(side: Side, kind: BlockKind) -> (Color32, Color32) {
    match (side, kind) {
        (_, BlockKind::Cleopatra) => (
            Color32::from_rgb(38, 78, 178),
            Color32::from_rgb(205, 215, 245),
        ),
        (Side::Caesar, _) => (
            Color32::from_rgb(176, 56, 38),
            Color32::from_rgb(228, 202, 150),
        ),
        (Side::Pompey, _) => (
            Color32::from_rgb(58, 108, 60),
            Color32::from_rgb(210, 164, 62),
        ),
    }
}

// ------------------------------------------------------------------- model

/// A sea's drawn area, in canvas units; small seas get small areas so they
/// do not cover their ports.
#[derive(Clone, Copy)]
struct SeaArea {
    radius: Vec2,
}

/// Per-scenario drawing data, built once.
pub struct MapModel {
    backdrop: Option<Backdrop>,
    bounds: Rect,
    positions: Vec<Pos2>,
    seas: Vec<Option<SeaArea>>,
    /// Sea borders as canvas segments; `None` when nothing sensible can be drawn.
    sea_paths: Vec<Option<[Pos2; 2]>>,
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
    key: Option<(f32, f32)>,
    spaces: Vec<Vec2>,
    /// Indexed like `MapModel::strait_galleys`.
    straits: Vec<Vec2>,
}

/// Sizes in screen points at a zoom: markers grow slower than the map so the
/// fitted map stays tidy and a zoomed-in one stays readable.
#[derive(Clone, Copy)]
struct Metrics {
    u: f32,
}

impl Metrics {
    fn new(zoom: f32) -> Metrics {
        Metrics {
            u: (zoom / 0.5).sqrt().clamp(0.7, 2.6),
        }
    }
    fn radius(self, kind: SpaceKind, vp: u8) -> f32 {
        let _ = kind;
        5.0 * self.u * if vp > 0 { 1.15 } else { 1.0 }
    }
    fn label_font(self, vp: u8) -> FontId {
        let size = if vp > 0 { 12.0 } else { 11.0 } * self.u;
        // Half-point steps keep egui's galley cache warm while zooming.
        FontId::proportional((size * 2.0).round() / 2.0)
    }
    fn sea_font(self) -> FontId {
        FontId::proportional(((12.5 * self.u) * 2.0).round() / 2.0)
    }
    fn block(self) -> f32 {
        6.0 * self.u
    }
    fn vp_radius(self) -> f32 {
        4.6 * self.u
    }
}

impl MapModel {
    pub fn new(scenario: &Scenario) -> MapModel {
        let board = &scenario.board;
        let positions: Vec<Pos2> = board
            .spaces
            .iter()
            .map(|s| pos2(s.pos.0, s.pos.1))
            .collect();
        let backdrop = geo::fits_board(board).then(|| Backdrop::new(WATER, LAND));

        let canvas = Rect::from_min_size(Pos2::ZERO, vec2(geo::CANVAS.0, geo::CANVAS.1));
        let bounds = positions.iter().fold(canvas, |r, p| {
            r.union(Rect::from_center_size(*p, Vec2::splat(80.0)))
        });

        let seas: Vec<Option<SeaArea>> = board
            .ids()
            .map(|id| {
                let s = board.space(id);
                (s.kind == SpaceKind::Sea).then(|| {
                    let nearest = board
                        .ids()
                        .filter(|o| board.space(*o).kind.is_city())
                        .map(|o| positions[o.index()].distance(positions[id.index()]))
                        .fold(f32::INFINITY, f32::min);
                    let r = (nearest * 0.72).clamp(30.0, 105.0);
                    SeaArea {
                        radius: vec2(r, r * 0.6),
                    }
                })
            })
            .collect();

        let sea_paths = board
            .links
            .iter()
            .map(|link| {
                if link.class != LinkClass::Sea {
                    return None;
                }
                let (a, b) = (positions[link.a.index()], positions[link.b.index()]);
                match (seas[link.a.index()], seas[link.b.index()]) {
                    (Some(sa), Some(sb)) => {
                        let (pa, pb) = (rim(a, sa, b), rim(b, sb, a));
                        ((pb - pa).dot(b - a) > 0.0).then_some([pa, pb])
                    }
                    (None, Some(sea)) => port_to_sea(a, b, sea, backdrop.is_some()),
                    (Some(sea), None) => port_to_sea(b, a, sea, backdrop.is_some()),
                    // Two ports joined by a sea border: a model error the
                    // validator reports; draw it plainly.
                    (None, None) => Some([a, b]),
                }
            })
            .collect();

        let mut blocks = vec![Vec::new(); board.len()];
        for (block, space) in &scenario.starting_setup().placements {
            if let Some(list) = blocks.get_mut(space.index()) {
                list.push(*block);
            }
        }
        for list in &mut blocks {
            list.sort_by_key(|b| (scenario.roster.block(*b).side, b.0));
        }

        MapModel {
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
    pub fn has_backdrop(&self) -> bool {
        self.backdrop.is_some()
    }

    /// Draws the map in the remaining space of `ui`, handles pan and zoom,
    /// and returns the space under the pointer.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        scenario: &Scenario,
        rules: Option<&RuleSet>,
        view: &mut MapView,
    ) -> Option<SpaceId> {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let area = response.rect;
        view.set_area(area, self.bounds);
        handle_input(ui, &response, view);

        let m = Metrics::new(view.zoom());
        self.frame = view.transform();
        self.screen.clear();
        self.screen
            .extend(self.positions.iter().map(|p| view.to_screen(*p)));

        self.layout_labels(&painter, scenario, m);
        if self.placement.key != Some((view.zoom(), ui.pixels_per_point())) {
            self.place_labels(scenario, m);
            self.placement.key = Some((view.zoom(), ui.pixels_per_point()));
        }

        let hovered = ui
            .input(|i| i.pointer.hover_pos())
            .filter(|p| ui.rect_contains_pointer(area) && area.contains(*p))
            .and_then(|p| self.hit(scenario, m, p));

        self.paint_backdrop(&painter, view);
        self.paint_links(&painter, scenario, m, hovered);
        self.paint_spaces(&painter, scenario, m, hovered, area);
        self.paint_labels(&painter, scenario, m, area);

        self.register_spaces(ui, scenario, rules, m, area);
        hovered
    }

    // ----------------------------------------------------------- geometry

    fn marker_rect(&self, board_kind: SpaceKind, vp: u8, i: usize, m: Metrics) -> Rect {
        let r = m.radius(board_kind, vp)
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
        let r = m.radius(s.kind, s.vp);
        let (b, gap) = (m.block(), 1.5 * m.u);
        let n = self.blocks[i].len() as f32;
        let width = n * b + (n - 1.0).max(0.0) * gap;
        let bottom = self.screen[i].y - r - if s.vp > 0 { 6.0 * m.u } else { 2.5 * m.u };
        let left = self.screen[i].x - width / 2.0;
        (0..self.blocks[i].len()).map(move |k| {
            Rect::from_min_size(
                pos2(left + k as f32 * (b + gap), bottom - b),
                Vec2::splat(b),
            )
        })
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
        for s in &scenario.board.spaces {
            let galley = if s.kind == SpaceKind::Sea {
                // Seas in italics on two lines, as map seas are lettered.
                let mut job = LayoutJob::default();
                job.halign = Align::Center;
                let format = TextFormat {
                    font_id: m.sea_font(),
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
        let zoom = self.frame.scaling;
        let board = &scenario.board;
        let n = board.len();
        let mut obstacles: Vec<Rect> = Vec::with_capacity(n * 4);
        let mut segments: Vec<[Pos2; 2]> = Vec::with_capacity(board.links.len());
        for (k, link) in board.links.iter().enumerate() {
            let seg = match (link.class, self.sea_paths[k]) {
                (LinkClass::Sea, Some([a, b])) => [a, b],
                (LinkClass::Sea, None) => continue,
                _ => [
                    self.positions[link.a.index()],
                    self.positions[link.b.index()],
                ],
            };
            segments.push([
                pos2(seg[0].x * zoom, seg[0].y * zoom),
                pos2(seg[1].x * zoom, seg[1].y * zoom),
            ]);
        }
        // Positions relative to the canvas origin: placement is pan-invariant.
        let origin = self.frame.translation.to_pos2();
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
                let c = self.vp_centre(i, m.radius(s.kind, s.vp));
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

        let anchor = |i: usize| (self.screen[i] - origin).to_pos2();
        // Straits first: they have only two good spots.
        self.placement.straits.clear();
        for (k, galley) in &self.strait_galleys {
            let link = &board.links[*k];
            let (a, b) = (anchor(link.a.index()), anchor(link.b.index()));
            let mid = a + (b - a) * 0.5;
            let normal = (b - a).normalized().rot90();
            let size = galley.size();
            let candidates = [normal, -normal, normal * 2.2, -normal * 2.2].map(|nrm| {
                let c = mid + nrm * (size.y * 0.5 + 4.0 * m.u + (nrm.x.abs() * size.x * 0.5));
                Rect::from_center_size(c, size)
            });
            let best = pick(&candidates, &obstacles, &segments, &[0.0, 0.0, 10.0, 10.0]);
            obstacles.push(candidates[best]);
            self.placement.straits.push(candidates[best].min - mid);
        }

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
            let r = m.radius(s.kind, s.vp) + 1.5 * m.u;
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
                &obstacles,
                &segments,
                &[0.0, 4.0, 6.0, 8.0, 12.0, 14.0, 14.0, 16.0],
            );
            obstacles.push(candidates[best]);
            self.placement.spaces[i] = candidates[best].min - p;
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
            if d <= m.radius(s.kind, s.vp) + 4.0 && best.is_none_or(|(bd, _)| d < bd) {
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
        let canvas = Rect::from_min_size(Pos2::ZERO, vec2(geo::CANVAS.0, geo::CANVAS.1));
        painter.rect_filled(painter.clip_rect(), 0.0, OUTSIDE);
        let canvas_screen =
            Rect::from_min_max(view.to_screen(canvas.min), view.to_screen(canvas.max));
        painter.rect_filled(canvas_screen, 0.0, LAND);
        if let Some(b) = &self.backdrop {
            let mut water: Mesh = b.water.clone();
            water.transform(t);
            painter.add(Shape::mesh(water));
            let width = (1.5 * view.zoom()).clamp(1.5, 6.0);
            painter.add(Shape::line(
                b.nile.iter().map(|p| view.to_screen(*p)).collect(),
                Stroke::new(width * 1.6, WATER),
            ));
            let mut islands: Mesh = b.islands.clone();
            islands.transform(t);
            painter.add(Shape::mesh(islands));
            let coast = Stroke::new(1.2, COAST);
            for outline in &b.coasts {
                painter.add(Shape::closed_line(
                    outline.iter().map(|p| view.to_screen(*p)).collect(),
                    coast,
                ));
            }
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
                painter.add(Shape::ellipse_filled(self.screen[i], radius, SEA_AREA));
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
        let mut shapes = std::mem::take(&mut self.shapes);
        shapes.clear();
        let t = self.frame;
        // Sea borders first, then roads over them.
        for (k, link) in board.links.iter().enumerate() {
            if link.class != LinkClass::Sea {
                continue;
            }
            if let Some([a, b]) = self.sea_paths[k] {
                dotted(
                    &mut shapes,
                    t * a,
                    t * b,
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
                LinkClass::Minor => Shape::dashed_line_many(
                    &[a, b],
                    Stroke::new(1.8 * u, MINOR),
                    6.0 * u,
                    4.0 * u,
                    &mut shapes,
                ),
                LinkClass::Strait => strait(&mut shapes, board, link.a, link.b, a, b, m),
                LinkClass::Sea => {}
            }
        }
        if let Some(h) = hovered {
            for adj in board.neighbours(h) {
                let [a, b] = match (adj.class, self.sea_paths[adj.link.index()]) {
                    (LinkClass::Sea, Some([p, q])) => [t * p, t * q],
                    (LinkClass::Sea, None) => continue,
                    _ => [self.screen[h.index()], self.screen[adj.to.index()]],
                };
                shapes.push(Shape::line_segment(
                    [a, b],
                    Stroke::new(5.0 * u, HIGHLIGHT.gamma_multiply(0.55)),
                ));
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
    ) {
        let board = &scenario.board;
        let u = m.u;
        let visible = area.expand(40.0 * u);
        let neighbour_of_hovered = |i: usize| {
            hovered.is_some_and(|h| board.neighbours(h).iter().any(|a| a.to.index() == i))
        };
        for (i, s) in board.spaces.iter().enumerate() {
            let p = self.screen[i];
            if !visible.contains(p) || s.kind == SpaceKind::Sea {
                if s.kind == SpaceKind::Sea
                    && (hovered == Some(SpaceId(i as u16)) || neighbour_of_hovered(i))
                {
                    if let Some(sea) = self.seas[i] {
                        let radius = sea.radius * self.frame.scaling;
                        painter.add(Shape::ellipse_stroke(
                            p,
                            radius,
                            Stroke::new(2.5, HIGHLIGHT),
                        ));
                    }
                }
                continue;
            }
            let r = m.radius(s.kind, s.vp);
            if hovered == Some(SpaceId(i as u16)) || neighbour_of_hovered(i) {
                painter.circle_filled(p, r + 4.0 * u, HIGHLIGHT.gamma_multiply(0.8));
            }
            match s.kind {
                SpaceKind::City => {
                    painter.circle(p, r, CITY_FILL, Stroke::new(1.6 * u, CITY_EDGE));
                }
                SpaceKind::Port => {
                    painter.circle(p, r, CITY_FILL, Stroke::new(2.2 * u, PORT_RING));
                }
                SpaceKind::MajorPort => {
                    // The Navis symbol: a double blue ring with a hub.
                    painter.circle_stroke(p, r + 2.5 * u, Stroke::new(1.3 * u, PORT_RING));
                    painter.circle(p, r, CITY_FILL, Stroke::new(2.2 * u, PORT_RING));
                    painter.circle_filled(p, r * 0.38, PORT_RING);
                }
                SpaceKind::Sea => {}
            }
            if s.vp > 0 {
                let c = self.vp_centre(i, r);
                painter.circle(c, m.vp_radius(), VP_FILL, Stroke::new(1.0, VP_EDGE));
                painter.text(
                    c,
                    egui::Align2::CENTER_CENTER,
                    s.vp.to_string(),
                    FontId::monospace(((7.5 * u) * 2.0).round() / 2.0),
                    Color32::from_rgb(40, 28, 8),
                );
            }
            for (k, rect) in self.block_rects(scenario, i, m).enumerate() {
                let block = scenario.roster.block(self.blocks[i][k]);
                let (fill, edge) = block_colours(block.side, block.kind);
                painter.rect(
                    rect,
                    CornerRadius::same(1),
                    fill,
                    Stroke::new(1.0 * u, edge),
                    StrokeKind::Inside,
                );
                if block.kind == BlockKind::Leader {
                    // Leaders carry a gold pip so the commanders stand out.
                    painter.circle_filled(rect.center(), rect.width() * 0.18, VP_FILL);
                }
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
            if visible.contains(mid) {
                let at = mid + self.placement.straits[k];
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
            let _: Response = response.on_hover_ui(|ui| {
                super::tooltip::space(ui, scenario, rules, &self.blocks[i], SpaceId(i as u16));
            });
        }
    }
}

fn handle_input(ui: &Ui, response: &Response, view: &mut MapView) {
    if response.dragged() {
        view.pan(response.drag_delta());
    }
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

/// Liang-Barsky: does the segment touch the rectangle?
fn segment_hits_rect(a: Pos2, b: Pos2, r: Rect) -> bool {
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
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Where the line from a sea's centre towards `toward` leaves its area.
fn rim(centre: Pos2, sea: SeaArea, toward: Pos2) -> Pos2 {
    let d = toward - centre;
    if d == Vec2::ZERO {
        return centre;
    }
    let scale = 1.0 / ((d.x / sea.radius.x).powi(2) + (d.y / sea.radius.y).powi(2)).sqrt();
    centre + d * scale.min(1.0)
}

/// A port's sea border: straight to the sea's area if that runs over water,
/// else a short stub out to open water, so no line crosses a country.
fn port_to_sea(port: Pos2, sea_centre: Pos2, sea: SeaArea, coastline: bool) -> Option<[Pos2; 2]> {
    let end = rim(sea_centre, sea, port);
    if !coastline {
        return Some([port, end]);
    }
    let length = port.distance(end);
    let dir = (end - port).normalized();
    let over_water = (0..)
        .map(|k| 20.0 + 8.0 * k as f32)
        .take_while(|t| *t < length)
        .all(|t| geo::is_water(port + dir * t));
    if over_water {
        return Some([port, end]);
    }
    let mut best: Option<(f32, Vec2, f32)> = None;
    for k in 0..48 {
        let angle = k as f32 * TAU / 48.0;
        let d = vec2(angle.cos(), angle.sin());
        let run = (0..)
            .map(|s| 16.0 + 4.0 * s as f32)
            .take_while(|t| *t <= 70.0 && geo::is_water(port + d * *t))
            .last()
            .unwrap_or(0.0);
        if run < 40.0 {
            continue;
        }
        let score = run + 30.0 * d.dot(dir);
        if best.is_none_or(|(s, _, _)| score > s) {
            best = Some((score, d, run));
        }
    }
    best.map(|(_, d, run)| [port, port + d * run.min(60.0)])
}

fn dotted(shapes: &mut Vec<Shape>, a: Pos2, b: Pos2, color: Color32, spacing: f32, radius: f32) {
    let length = a.distance(b);
    if length < 1.0 || spacing <= 0.0 {
        return;
    }
    let steps = (length / spacing).floor() as usize;
    let d = (b - a) / length;
    for k in 0..=steps {
        shapes.push(Shape::circle_filled(
            a + d * (k as f32 * spacing),
            radius,
            color,
        ));
    }
}

/// A strait: a blue double-headed arrow between the two cities.
fn strait(
    shapes: &mut Vec<Shape>,
    board: &crate::model::Board,
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
        m.radius(board.space(from).kind, board.space(from).vp) + 2.0 * m.u,
        m.radius(board.space(to).kind, board.space(to).vp) + 2.0 * m.u,
    );
    let (a, b) = (a + d * ra, b - d * rb);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_and_rects() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(10.0, 10.0));
        assert!(segment_hits_rect(pos2(-5.0, 5.0), pos2(15.0, 5.0), r));
        assert!(!segment_hits_rect(pos2(-5.0, -5.0), pos2(15.0, -1.0), r));
        assert!(segment_hits_rect(pos2(5.0, 5.0), pos2(6.0, 6.0), r));
    }

    #[test]
    fn published_sea_borders_avoid_land() {
        let (scenario, _) = Scenario::build(&crate::historical());
        let model = MapModel::new(&scenario);
        assert!(model.has_backdrop());
        for (k, link) in scenario.board.links.iter().enumerate() {
            if link.class == LinkClass::Sea {
                assert!(
                    model.sea_paths[k].is_some(),
                    "{} - {} has no drawing",
                    scenario.board.name(link.a),
                    scenario.board.name(link.b)
                );
            }
        }
    }
}
