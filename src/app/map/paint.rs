//! The map's drawing: backdrop, roads and sea lanes, straits, spaces
//! and their markers, supply and balance overlays.

use egui::emath::TSTransform;
use egui::epaint::{Mesh, StrokeKind};
use egui::{Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, pos2, vec2};

use super::geo;
use super::labels::visible_span;
use super::model::{MapHit, MapInput, MapMode, MapModel, Metrics};
use super::view::MapView;
use crate::app::theme::{
    CITY_EDGE, CITY_FILL, COAST, HIGHLIGHT, LABEL, LAND, MAJOR, MINOR, OUTSIDE, PORT_RING,
    SEA_AREA, SEA_AREA_EDGE, SEA_LINK, SELECTED, STRAIT, VP_EDGE, VP_FILL, WATER,
};
use crate::app::theme::{ERROR as OVER, WARNING as UNDER};
use crate::scenario::model::{Board, Scenario, SpaceId};
use crate::scenario::model::{LinkClass, Side, SpaceKind};

impl MapModel {
    pub(super) fn paint_backdrop(&self, painter: &Painter, view: &MapView) {
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
        self.paint_sea_areas(painter, view);
    }

    /// Each sea area's ellipse; without a coastline the only water drawn.
    fn paint_sea_areas(&self, painter: &Painter, view: &MapView) {
        for (i, sea) in self.seas.iter().enumerate() {
            if let Some(sea) = sea {
                let radius = sea.radius * view.zoom();
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

    pub(super) fn paint_links(
        &mut self,
        painter: &Painter,
        scenario: &Scenario,
        m: Metrics,
        hovered: Option<SpaceId>,
        reachable: Option<&[SpaceId]>,
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
            self.glow_links(&mut shapes, board, h, u, reachable);
        }
        painter.extend(shapes.drain(..));
        self.shapes = shapes;
    }

    /// The links from the hovered space `h` lit (only to the spaces
    /// `reachable`, when given).
    fn glow_links(
        &self,
        shapes: &mut Vec<Shape>,
        board: &Board,
        h: SpaceId,
        u: f32,
        reachable: Option<&[SpaceId]>,
    ) {
        let t = self.frame;
        let glow = Stroke::new(5.0 * u, HIGHLIGHT.gamma_multiply(0.55));
        let lit = |to: SpaceId| reachable.is_none_or(|r| r.contains(&to));
        for adj in board.neighbours(h).iter().filter(|a| lit(a.to)) {
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

    pub(super) fn paint_spaces(
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
        // On the game board only the legal destinations light up: a
        // neighbour the group cannot reach is no invitation.
        let reachable = |i: usize| {
            input
                .reachable
                .is_none_or(|r| r.contains(&SpaceId(i as u16)))
        };
        let neighbour_of_hovered = |i: usize| {
            reachable(i)
                && hovered.is_some_and(|h| board.neighbours(h).iter().any(|a| a.to.index() == i))
        };
        self.lit.clear();
        for (i, s) in board.spaces.iter().enumerate() {
            let p = self.screen[i];
            let lit = hovered == Some(SpaceId(i as u16)) || neighbour_of_hovered(i);
            if lit {
                self.lit.push(SpaceId(i as u16));
            }
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

    pub(super) fn paint_selected_link(
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
}

/// Dots along a canvas polyline, spaced evenly across its corners; only
/// those inside `clip` are made, so a zoomed-in map stays cheap.
pub(super) fn dotted(
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
pub(super) fn dashed(
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
pub(super) fn major_port(painter: &Painter, p: Pos2, r: f32, m: Metrics) {
    painter.circle_stroke(p, r + 2.5 * m.u, Stroke::new(1.3 * m.u, PORT_RING));
    painter.circle(p, r, CITY_FILL, Stroke::new(2.2 * m.u, PORT_RING));
    painter.circle_filled(p, r * 0.38, PORT_RING);
}

pub(super) fn vp_badge(painter: &Painter, c: Pos2, vp: u8, m: Metrics) {
    painter.circle(c, m.vp_radius(), VP_FILL, Stroke::new(1.0, VP_EDGE));
    painter.text(
        c,
        egui::Align2::CENTER_CENTER,
        vp.to_string(),
        FontId::monospace(((7.5 * m.u) * 2.0).round() / 2.0),
        crate::app::theme::VP_TEXT,
    );
}

/// A strait: a blue double-headed arrow between the two cities.
pub(super) fn strait(
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

pub(super) fn strait_arrow(shapes: &mut Vec<Shape>, a: Pos2, b: Pos2, m: Metrics) {
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

/// 5.3: each side's surplus (or shortfall) of blocks in a city, as badges
/// under its marker of radius `r` at `p`.
pub(super) fn paint_balance(
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
        let g = painter.layout_no_wrap(
            text,
            FontId::proportional(11.0),
            crate::app::theme::BLOCK_TEXT,
        );
        let rect = Rect::from_center_size(pos2(p.x, below + g.size().y / 2.0), g.size())
            .expand2(vec2(3.0, 1.0));
        painter.rect_filled(rect, 3.0, colour);
        painter.galley(rect.min + vec2(3.0, 1.0), g, crate::app::theme::BLOCK_TEXT);
        painter.circle_stroke(p, r + 3.0 * u, Stroke::new(2.5 * u, colour));
        below = rect.max.y + 1.0;
    }
}

/// 8.4: `n` blocks here of the `cap` the city supplies in winter, beside its
/// marker (red when over).
pub(super) fn paint_supply(painter: &Painter, p: Pos2, r: f32, n: usize, cap: usize) {
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
            crate::app::theme::BLOCK_TEXT
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
            crate::app::theme::SUPPLY_TEXT
        },
    );
    painter.galley(rect.min + vec2(2.0, 0.5), g, LABEL);
}
