//! The map's legend: a sample of each mark with its meaning.

use egui::emath::TSTransform;
use egui::{Painter, Rect, Sense, Shape, Stroke, Ui, Vec2, vec2};

use super::blocks::block;
use super::model::Metrics;
use super::paint::{dotted, major_port, strait_arrow, vp_badge};
use crate::app::theme::{CITY_EDGE, CITY_FILL, MAJOR, MINOR, PORT_RING, SEA_LINK};
use crate::scenario::model::{BlockKind, Side};

/// The map's symbols, for the side panel.
pub(in crate::app) fn legend(ui: &mut Ui) {
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
pub(super) enum Sample {
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
