//! Plot geometry and marks shared by the Simulate tab's charts, the
//! ladder, the sweep and the Balance tab's convergence.

use egui::Color32;
use egui_plot::{Line, LineStyle, PlotUi, Points};

/// A series as a line with a dot at each point, in `colour`.
pub(super) fn marked_line(
    p: &mut PlotUi<'_>,
    name: &str,
    points: Vec<[f64; 2]>,
    colour: Color32,
    style: LineStyle,
) {
    p.line(
        Line::new(name.to_string(), points.clone())
            .color(colour)
            .width(2.0)
            .style(style),
    );
    p.points(
        Points::new(name.to_string(), points)
            .color(colour)
            .radius(4.0),
    );
}

/// The band between two lines (a quartile band) as one quad per segment,
/// each convex (two vertical sides), counter-clockwise from the lower left:
/// a plot polygon must be convex, so the whole band cannot be one polygon.
pub(super) fn band_quads(xs: &[f64], lo: &[f64], hi: &[f64]) -> Vec<[[f64; 2]; 4]> {
    let n = xs.len().min(lo.len()).min(hi.len());
    (1..n)
        .map(|i| {
            let (a, b) = (i - 1, i);
            [
                [xs[a], lo[a].min(hi[a])],
                [xs[b], lo[b].min(hi[b])],
                [xs[b], lo[b].max(hi[b])],
                [xs[a], lo[a].max(hi[a])],
            ]
        })
        .collect()
}
