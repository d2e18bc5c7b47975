//! The map under the pointer: what a point hits (a space, a block, a
//! link, a marker), the hover-sensing widgets that carry the hover cards
//! and the accessibility nodes, the hover card's place, and zoom by wheel.

use egui::{Pos2, Rect, RectAlign, Response, Role, Sense, Ui, Vec2, WidgetInfo};

use super::blocks::{short_rating, strength_text};
use super::model::{MapHit, MapMode, MapModel, Metrics};
use super::view::MapView;
use crate::scenario::model::SpaceKind;
use crate::scenario::model::{BlockId, LinkId, Scenario, SpaceId};
use crate::scenario::rules::RuleSet;

impl MapModel {
    /// The space whose marker (or whose label) is at a screen point, as of
    /// the last frame drawn: where a dragged block would be dropped.
    pub(in crate::app) fn space_at(&self, scenario: &Scenario, p: Pos2) -> Option<SpaceId> {
        let m = self.metrics?;
        if self.screen.len() != scenario.board.len() {
            return None;
        }
        self.block_space_at(scenario, m, p)
            .or_else(|| self.hit(scenario, m, p))
    }

    pub(super) fn block_at(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<BlockId> {
        (0..self.blocks.len()).find_map(|i| {
            self.block_rects(scenario, i, m)
                .position(|r| r.expand(1.0).contains(p))
                .map(|k| self.blocks[i][k])
        })
    }

    /// The space whose row of blocks is under `p`.
    pub(super) fn block_space_at(
        &self,
        scenario: &Scenario,
        m: Metrics,
        p: Pos2,
    ) -> Option<SpaceId> {
        if m.board {
            // The board's tiles stand where the board found room for them.
            return self
                .tiles
                .iter()
                .rev()
                .find(|(_, r)| r.expand(1.0).contains(p))
                .map(|(s, _)| *s);
        }
        (0..self.blocks.len())
            .find(|&i| {
                self.block_rects(scenario, i, m)
                    .any(|r| r.expand(1.0).contains(p))
            })
            .map(|i| SpaceId(i as u16))
    }

    pub(super) fn marker_at(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<SpaceId> {
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
    pub(super) fn link_at(&self, scenario: &Scenario, p: Pos2) -> Option<LinkId> {
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
    pub(super) fn pick(
        &self,
        scenario: &Scenario,
        m: Metrics,
        p: Pos2,
        mode: MapMode,
    ) -> Option<MapHit> {
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

    pub(super) fn hit(&self, scenario: &Scenario, m: Metrics, p: Pos2) -> Option<SpaceId> {
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
    pub(super) fn sea_hit_rect(&self, i: usize) -> Option<Rect> {
        let sea = self.seas[i]?;
        let core = Rect::from_center_size(self.screen[i], sea.radius * self.frame.scaling * 1.2);
        Some(core.union(self.sea_label_rect(i)))
    }

    /// One accessibility node per block on the map, named after the block,
    /// so screen readers and the tests find them.
    pub(super) fn register_blocks(&self, ui: &mut Ui, scenario: &Scenario, m: Metrics, area: Rect) {
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

    /// One hover-sensing widget per visible space: it carries the tooltip and
    /// gives the space an accessibility node (name as label), which is also
    /// how the tests find spaces.
    pub(super) fn register_spaces(
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
                let mut tip = egui::Tooltip::for_enabled(&response);
                let align = self.card_align(&tip, response.rect, area);
                tip.popup = tip.popup.align(align).align_alternatives(&[]);
                tip.show(|ui| {
                    let stack = self.stack_words.get(i).map_or(&[][..], Vec::as_slice);
                    super::tooltip::board_space(ui, scenario, rules, SpaceId(i as u16), stack);
                });
                continue;
            }
            let _: Response = response.on_hover_ui(|ui| {
                super::tooltip::space(ui, scenario, rules, &self.blocks[i], SpaceId(i as u16));
            });
        }
    }

    /// The place of the hover card of the space at `anchor` that covers
    /// the fewest blocks and stays on the map: on a crowded board it
    /// flips above or aside rather than hide the stacks to the south.
    pub(super) fn card_align(
        &self,
        tip: &egui::Tooltip<'_>,
        anchor: Rect,
        area: Rect,
    ) -> RectAlign {
        let size = tip.popup.get_expected_size().unwrap_or(CARD_SIZE);
        let covered = |align: &RectAlign| {
            let card = align.align_rect(&anchor, size, 4.0);
            let off_map = usize::from(!area.contains_rect(card)) * 1000;
            off_map
                + self
                    .tiles
                    .iter()
                    .filter(|(_, r)| r.intersects(card))
                    .count()
        };
        // `min_by_key` keeps the first of equals: the usual place wins ties.
        CARD_ALIGNS
            .iter()
            .min_by_key(|a| covered(a))
            .copied()
            .unwrap_or(RectAlign::BOTTOM_START)
    }
}

/// Where a space's hover card may go, the usual place (under, to the
/// right) first.
pub(super) const CARD_ALIGNS: [RectAlign; 8] = [
    RectAlign::BOTTOM_START,
    RectAlign::TOP_START,
    RectAlign::RIGHT_START,
    RectAlign::LEFT_START,
    RectAlign::BOTTOM_END,
    RectAlign::TOP_END,
    RectAlign::RIGHT_END,
    RectAlign::LEFT_END,
];

/// A compact card's size before it was first shown (its last size after).
pub(super) const CARD_SIZE: Vec2 = Vec2::new(230.0, 110.0);

pub(super) fn handle_zoom(ui: &Ui, response: &Response, view: &mut MapView) {
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

pub(super) fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 {
        ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}
