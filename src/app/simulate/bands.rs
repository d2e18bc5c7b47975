//! Plot geometry shared by the Simulate tab's charts and the sweep view.

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
