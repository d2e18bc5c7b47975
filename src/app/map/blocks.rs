//! Blocks on the map: the starting blocks over their spaces, a block's
//! face (side colour, kind, rating, strength) as the map, the levy pools
//! and the game board draw it.

use egui::epaint::{CornerRadius, StrokeKind};
use egui::{FontId, Painter, Rect, Stroke, vec2};

use super::model::{MapHit, MapInput, MapModel, Metrics};
use crate::app::theme::{SELECTED, VP_FILL};
use crate::scenario::kinds::roman;
use crate::scenario::model::Scenario;
use crate::scenario::model::{BlockKind, Side};

impl MapModel {
    /// The first `rows` blocks that start in space `i` (a dragged block as
    /// its ghost), with their strength when there is room, and the selected
    /// one ringed.
    pub(super) fn paint_blocks(
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
                    Stroke::new(1.0, crate::app::theme::GHOST),
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
}

/// Combat rating as printed: "C3", the ballista "B4/D4".
pub(in crate::app) fn short_rating(b: &crate::scenario::model::Block) -> String {
    b.initiative.rating(b.attacking_initiative, b.firepower)
}

/// "III", or "II of IV" for a block deployed below full strength.
pub(in crate::app) fn strength_text(b: &crate::scenario::model::Block, strength: u8) -> String {
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
        crate::app::theme::BLOCK_TEXT,
    );
    painter.text(
        rect.center_bottom() - vec2(0.0, 1.0),
        egui::Align2::CENTER_BOTTOM,
        roman(strength),
        FontId::proportional(size * 0.75),
        crate::app::theme::BLOCK_REDUCED,
    );
}

/// A block as the levy pool draws it: the map's square, its name and strength.
pub(in crate::app) fn pool_block(painter: &Painter, rect: Rect, b: &crate::scenario::model::Block) {
    let m = Metrics {
        u: rect.width() / 14.0,
        big_blocks: true,
        board: false,
    };
    block(painter, rect, b.side, b.kind, m);
    block_text(painter, rect, b, b.max_strength());
}

pub(super) fn block(painter: &Painter, rect: Rect, side: Side, kind: BlockKind, m: Metrics) {
    let (fill, edge) = crate::app::theme::block(side, kind);
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

/// A short name that fits on a block: "L13" for Legio 13, "N2" for Navis 2,
/// the first letters otherwise.
pub(in crate::app) fn short_name(name: &str) -> String {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or("");
    match words.last() {
        Some(n) if n.chars().all(|c| c.is_ascii_digit()) => {
            format!("{}{n}", first.chars().next().unwrap_or('?'))
        }
        _ => first.chars().take(3).collect(),
    }
}
