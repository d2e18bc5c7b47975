//! A balance report as CSV (one row a cell of the payoff table) and as an
//! SVG heatmap with each side's mix along its edge, for a designer's page.

use std::fmt::Write;

use super::BalanceReport;

impl BalanceReport {
    /// One row per pairing: the players, their weights, games and
    /// Caesar's share with its interval.
    pub fn csv(&self) -> String {
        let mut text = String::from(
            "caesar_player,pompey_player,caesar_weight,pompey_weight,games,caesar_share,ci_low,ci_high\n",
        );
        let (wc, wp) = (
            self.weights(crate::scenario::model::Side::Caesar),
            self.weights(crate::scenario::model::Side::Pompey),
        );
        for (i, c) in self.caesar.iter().enumerate() {
            for (j, p) in self.pompey.iter().enumerate() {
                let cell = &self.table.cells[i][j];
                let [lo, hi] = cell.interval();
                let _ = writeln!(
                    text,
                    "{},{},{:.4},{:.4},{},{:.4},{:.4},{:.4}",
                    quoted(&c.player),
                    quoted(&p.player),
                    wc.get(i).copied().unwrap_or(0.0),
                    wp.get(j).copied().unwrap_or(0.0),
                    cell.games(),
                    cell.share(),
                    lo,
                    hi
                );
            }
        }
        text
    }

    /// The payoff table as a heatmap (Caesar's share, red for Caesar, green
    /// for Pompey), Caesar's mix as bars right of the rows and Pompey's
    /// below the columns, and the verdict above.
    pub fn svg(&self) -> String {
        let (rows, columns) = (self.caesar.len(), self.pompey.len());
        let cell = 44.0;
        let label = 280.0;
        let bar = 60.0;
        let top = 70.0;
        let width = label + columns as f64 * cell + bar + 20.0;
        let height = top + rows as f64 * cell + bar + 20.0 + 16.0 * columns as f64;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n"
        );
        let _ = writeln!(
            svg,
            "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>",
            escape(&format!(
                "Balance at equilibrium: {} on {}",
                self.variant, self.played_on.scenario
            ))
        );
        let _ = writeln!(
            svg,
            "<text x=\"8\" y=\"40\">{}</text>",
            escape(&self.verdict())
        );
        let caesar_weights = self.weights(crate::scenario::model::Side::Caesar);
        let pompey_weights = self.weights(crate::scenario::model::Side::Pompey);
        for (i, member) in self.caesar.iter().enumerate() {
            let y = top + i as f64 * cell;
            let _ = writeln!(
                svg,
                "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">C{}: {}</text>",
                label - 6.0,
                y + cell / 2.0 + 4.0,
                i + 1,
                escape(&member.words)
            );
            for j in 0..columns {
                let share = self.table.cells[i][j].share();
                let x = label + j as f64 * cell;
                let _ = writeln!(
                    svg,
                    "<rect x=\"{x:.0}\" y=\"{y:.0}\" width=\"{cell:.0}\" height=\"{cell:.0}\" fill=\"{}\" stroke=\"#fff\"/><text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"11\">{:.0}</text>",
                    share_colour(share),
                    x + cell / 2.0,
                    y + cell / 2.0 + 4.0,
                    share * 100.0
                );
            }
            let w = caesar_weights[i];
            let _ = writeln!(
                svg,
                "<rect x=\"{:.0}\" y=\"{:.0}\" width=\"{:.1}\" height=\"{:.0}\" fill=\"#b22222\"/>",
                label + columns as f64 * cell + 4.0,
                y + 8.0,
                w * bar,
                cell - 16.0
            );
        }
        let below = top + rows as f64 * cell + 4.0;
        for (j, member) in self.pompey.iter().enumerate() {
            let x = label + j as f64 * cell;
            let w = pompey_weights[j];
            let _ = writeln!(
                svg,
                "<rect x=\"{:.0}\" y=\"{below:.0}\" width=\"{:.0}\" height=\"{:.1}\" fill=\"#3a6c3c\"/>",
                x + 8.0,
                cell - 16.0,
                w * bar
            );
            let _ = writeln!(
                svg,
                "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\">P{}</text>",
                x + cell / 2.0,
                top - 6.0,
                j + 1
            );
            let _ = writeln!(
                svg,
                "<text x=\"8\" y=\"{:.0}\">P{}: {}</text>",
                below + bar + 16.0 + 16.0 * j as f64,
                j + 1,
                escape(&member.words)
            );
        }
        svg.push_str("</svg>\n");
        svg
    }

    /// Each member's weight in its side's mix, in member order.
    pub fn weights(&self, side: crate::scenario::model::Side) -> Vec<f64> {
        let mix = self.mix(side);
        self.members(side)
            .iter()
            .map(|m| {
                mix.iter()
                    .find(|(_, o)| o.player == m.player)
                    .map_or(0.0, |(w, _)| *w)
            })
            .collect()
    }
}

/// White at an even share, toward Caesar's red as his share rises and
/// toward Pompey's green as it falls (the window's side colours).
fn share_colour(share: f64) -> String {
    let t = ((share - 0.5) * 2.0).clamp(-1.0, 1.0);
    let toward: [f64; 3] = if t >= 0.0 {
        [176.0, 56.0, 38.0]
    } else {
        [58.0, 108.0, 60.0]
    };
    let [r, g, b] = toward.map(|c| (255.0 + (c - 255.0) * t.abs() * 0.8) as u8);
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn quoted(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
