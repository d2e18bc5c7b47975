//! A chart's key drawn above it, in a row of its own: never over the data
//! (egui_plot's legend sits inside the plot, over whatever is in its corner).

use egui::{Color32, Sense, Stroke, Ui, vec2};

/// One entry of a key: its name, its colour, and whether its line is dashed.
pub(super) struct Key {
    pub name: String,
    pub colour: Color32,
    pub dashed: bool,
}

impl Key {
    pub(super) fn new(name: impl Into<String>, colour: Color32) -> Key {
        Key {
            name: name.into(),
            colour,
            dashed: false,
        }
    }
    pub(super) fn dashed(mut self, dashed: bool) -> Key {
        self.dashed = dashed;
        self
    }
}

/// The key as a wrapped row: a swatch (a line, dashed where the series is)
/// and the name of each entry.
pub(super) fn row(ui: &mut Ui, keys: &[Key]) {
    ui.horizontal_wrapped(|ui| {
        for key in keys {
            let (rect, _) = ui.allocate_exact_size(vec2(22.0, 12.0), Sense::hover());
            let painter = ui.painter_at(rect);
            let y = rect.center().y;
            let stroke = Stroke::new(3.0, key.colour);
            if key.dashed {
                for k in 0..3 {
                    let x = rect.left() + k as f32 * 8.0;
                    painter.line_segment([egui::pos2(x, y), egui::pos2(x + 5.0, y)], stroke);
                }
            } else {
                painter.line_segment(
                    [egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)],
                    stroke,
                );
            }
            ui.label(&key.name);
            ui.add_space(8.0);
        }
    });
}
