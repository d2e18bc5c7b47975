//! Where the map's names go: each space's and strait's label placed
//! where it covers the fewest markers, stacks and roads at this zoom, and
//! the names drawn there.

use egui::text::{LayoutJob, TextFormat};
use egui::{Align, FontId, Painter, Pos2, Rect, Vec2, pos2, vec2};

use super::model::{MapModel, Metrics};
use crate::app::theme::{HALO, LABEL, SEA_TEXT, STRAIT};
use crate::scenario::model::{Board, Scenario};
use crate::scenario::model::{LinkClass, SpaceKind};

impl MapModel {
    pub(super) fn layout_labels(&mut self, painter: &Painter, scenario: &Scenario, m: Metrics) {
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
    pub(super) fn place_labels(&mut self, scenario: &Scenario, m: Metrics) {
        // Positions relative to the canvas origin: placement is pan-invariant.
        let origin = self.frame.translation.to_pos2();
        let mut room = LabelRoom {
            origin,
            obstacles: self.marker_obstacles(scenario, m, origin),
            segments: self.link_segments(&scenario.board),
        };
        self.place_space_labels(&scenario.board, m, &mut room);
        // Strait names last, beside their crossing, avoiding the city labels.
        self.place_strait_labels(&scenario.board, m, &mut room);
    }

    /// The links as drawn (sea routes as their paths), at the current zoom,
    /// for labels to keep off.
    pub(super) fn link_segments(&self, board: &Board) -> Vec<[Pos2; 2]> {
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
    pub(super) fn marker_obstacles(
        &self,
        scenario: &Scenario,
        m: Metrics,
        origin: Pos2,
    ) -> Vec<Rect> {
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
    pub(super) fn place_space_labels(&mut self, board: &Board, m: Metrics, room: &mut LabelRoom) {
        let n = board.len();
        let anchor = |i: usize| (self.screen[i] - room.origin).to_pos2();
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
            let row_h = if m.board || self.blocks[i].is_empty() {
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
                room,
                &[0.0, 4.0, 6.0, 8.0, 12.0, 14.0, 14.0, 16.0],
            );
            room.obstacles.push(candidates[best]);
            self.placement.spaces[i] = candidates[best].min - p;
        }
    }

    /// Each strait's name beside its crossing, left out where no spot is
    /// clear enough.
    pub(super) fn place_strait_labels(&mut self, board: &Board, m: Metrics, room: &mut LabelRoom) {
        let anchor = |i: usize| (self.screen[i] - room.origin).to_pos2();
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
            let best = candidates[pick(&candidates, room, &[0.0, 2.0, 14.0, 16.0])];
            let covered: f32 = room
                .obstacles
                .iter()
                .map(|o| best.intersect(*o))
                .filter(|r| r.is_positive())
                .map(|r| r.area())
                .sum();
            if covered > 0.15 * best.area() {
                self.placement.straits.push(None);
            } else {
                room.obstacles.push(best);
                self.placement.straits.push(Some(best.min - mid));
            }
        }
    }

    pub(super) fn paint_labels(
        &self,
        painter: &Painter,
        scenario: &Scenario,
        m: Metrics,
        area: Rect,
    ) {
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
}

/// What a label must keep off, relative to the canvas origin `origin`:
/// what is drawn or placed already, and the roads.
pub(super) struct LabelRoom {
    origin: Pos2,
    obstacles: Vec<Rect>,
    segments: Vec<[Pos2; 2]>,
}

/// Index of the cheapest candidate: overlap area with obstacles, road
/// crossings, then a small preference for the first spots.
pub(super) fn pick(candidates: &[Rect], room: &LabelRoom, preference: &[f32]) -> usize {
    let mut best = (f32::INFINITY, 0);
    for (k, c) in candidates.iter().enumerate() {
        let mut cost = preference.get(k).copied().unwrap_or(20.0);
        for o in &room.obstacles {
            let overlap = c.intersect(*o);
            if overlap.is_positive() {
                cost += overlap.area() + 20.0;
            }
            if cost >= best.0 {
                break;
            }
        }
        for s in &room.segments {
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

pub(super) fn segment_hits_rect(a: Pos2, b: Pos2, r: Rect) -> bool {
    visible_span(a, b, r).is_some()
}

/// Liang-Barsky: the part of the segment inside the rectangle, as a range of
/// the parameter along a→b.
pub(super) fn visible_span(a: Pos2, b: Pos2, r: Rect) -> Option<(f32, f32)> {
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
