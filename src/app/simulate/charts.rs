//! The charts of a simulation report (one run, or two rule sets compared on
//! the same seeds): win rates, VP by year, how and when games end, battles
//! and losses.

use egui::{RichText, Stroke, Ui};
use egui_plot::{
    Bar, BarChart, BoxElem, BoxPlot, BoxSpread, Line, Plot, PlotUi, Polygon, uniform_grid_spacer,
};

use super::bands::band_quads;
use crate::app::Request;
use crate::app::chart_key;
use crate::app::replay::games::{Ending, RunGames};
use crate::app::theme::{self, CAESAR, DRAW, POMPEY};
use crate::scenario::model::Side;
use crate::sim::runs::report::{Endings, SideCounts, YearVp};
use crate::sim::{self, runs::report::SimReport};

/// The run's charts. With the games of a single run, a click on a bar of
/// "how and when games end" opens an example game of that ending in Replay.
pub(super) fn charts(
    ui: &mut Ui,
    reports: &[&SimReport],
    games: Option<&RunGames>,
) -> Vec<Request> {
    win_rates(ui, reports);
    vp_by_year(ui, reports);
    let replay = endings(ui, reports, games);
    battles(ui, reports);
    replay.into_iter().collect()
}

/// A chart of fixed extent: the window scrolls past it, it does not pan.
fn fixed_plot(id: &str) -> Plot<'_> {
    Plot::new(id)
        .height(theme::CHART_HEIGHT)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
}

fn win_rates(ui: &mut Ui, reports: &[&SimReport]) {
    let n = reports.len() as f64;
    ui.label(RichText::new("Win rates with 95% intervals").strong());
    let names: Vec<String> = reports.iter().map(|r| r.variant.clone()).collect();
    let group = n + 2.0;
    chart_key::row(ui, &outcome_keys(reports, true));
    fixed_plot("win_rates")
        .y_axis_label("% of games")
        .include_y(0.0)
        .include_y(100.0)
        .x_axis_formatter(move |mark, _| {
            // Each variant's group: Caesar, Pompey, draw.
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            let k = (v / group).floor();
            let within = (v - k * group).round() as usize;
            match (names.get(k as usize), within) {
                (Some(name), 0..=2) => {
                    format!("{}\n{name}", ["Caesar", "Pompey", "draw"][within])
                }
                _ => String::new(),
            }
        })
        .show(ui, |p| {
            for (side, colour, pick) in [
                ("Caesar", CAESAR, 0usize),
                ("Pompey", POMPEY, 1),
                ("draw", DRAW, 2),
            ] {
                for (k, r) in reports.iter().enumerate() {
                    let e = [&r.caesar_win_rate, &r.pompey_win_rate, &r.draw_rate][pick];
                    let (lo, m, hi) = (e.ci95[0] * 100.0, e.estimate * 100.0, e.ci95[1] * 100.0);
                    let name = format!("{side}, {}", r.variant);
                    let elem = BoxElem::new(
                        k as f64 * group + pick as f64,
                        BoxSpread::new(lo, m, m, m, hi),
                    )
                    .name(&name)
                    .box_width(0.6);
                    p.box_plot(BoxPlot::new(name, vec![elem]).color(theme::shade(colour, k)));
                }
            }
        });
}

fn vp_by_year(ui: &mut Ui, reports: &[&SimReport]) {
    ui.label(RichText::new("VP by year: mean and quartiles").strong());
    let keys: Vec<chart_key::Key> = reports
        .iter()
        .enumerate()
        .flat_map(|(k, r)| {
            [(Side::Caesar, CAESAR), (Side::Pompey, POMPEY)].map(|(side, colour)| {
                chart_key::Key::new(format!("{side}, {}", r.variant), theme::shade(colour, k))
                    .dashed(k > 0)
            })
        })
        .collect();
    chart_key::row(ui, &keys);
    fixed_plot("vp_by_year")
        .x_axis_label("year")
        .y_axis_label("VP")
        .show(ui, |p| {
            for (k, r) in reports.iter().enumerate() {
                for side in [Side::Caesar, Side::Pompey] {
                    vp_series(p, r, k, side);
                }
            }
        });
}

/// One side's VP by year under the `k`th rule set: the quartile band with
/// its edges, and the mean over it.
fn vp_series(p: &mut PlotUi<'_>, r: &SimReport, k: usize, side: Side) {
    let colour = match side {
        Side::Caesar => CAESAR,
        Side::Pompey => POMPEY,
    };
    let colour = theme::shade(colour, k);
    // The second variant is drawn dashed over a lighter band.
    let (style, band) = if k == 0 {
        (egui_plot::LineStyle::Solid, theme::BAND_ALPHA[0])
    } else {
        (egui_plot::LineStyle::dashed_loose(), theme::BAND_ALPHA[1])
    };
    let s = |y: &YearVp| match side {
        Side::Caesar => y.caesar,
        Side::Pompey => y.pompey,
    };
    let xs: Vec<f64> = r.vp_by_year.iter().map(|y| y.year as f64).collect();
    let lo: Vec<f64> = r.vp_by_year.iter().map(|y| s(y).q1 as f64).collect();
    let hi: Vec<f64> = r.vp_by_year.iter().map(|y| s(y).q3 as f64).collect();
    let name = format!("{side}, {}", r.variant);
    for quad in band_quads(&xs, &lo, &hi) {
        p.polygon(
            Polygon::new(name.clone(), quad.to_vec())
                .fill_color(colour.gamma_multiply(band))
                .stroke(Stroke::NONE)
                .allow_hover(false),
        );
    }
    // The quartile lines themselves, thin, so the band reads
    // as the area between them where a quartile moves.
    for q in [&lo, &hi] {
        let points: Vec<[f64; 2]> = xs.iter().zip(q.iter()).map(|(x, y)| [*x, *y]).collect();
        p.line(
            Line::new(name.clone(), points)
                .color(colour.gamma_multiply(0.6))
                .width(1.0)
                .style(style)
                .allow_hover(false),
        );
    }
    let mean: Vec<[f64; 2]> = r
        .vp_by_year
        .iter()
        .map(|y| [y.year as f64, s(y).mean])
        .collect();
    p.line(Line::new(name, mean).color(colour).width(2.0).style(style));
}

/// "How and when games end"; with a single run's games, a click on a bar
/// asks to replay an example game of that ending.
fn endings(ui: &mut Ui, reports: &[&SimReport], games: Option<&RunGames>) -> Option<Request> {
    let n = reports.len() as f64;
    let heading = ui.label(RichText::new("How and when games end").strong());
    if games.is_some() {
        heading.on_hover_text("Click a bar to replay an example game that ended that way");
    }
    let years = reports
        .iter()
        .map(|r| r.endings.sudden_death_by_year.len())
        .max()
        .unwrap_or(0);
    chart_key::row(ui, &outcome_keys(reports, false));
    let endings_plot = fixed_plot("endings")
        .x_axis_label("sudden death (1.2) in each year's winter, then the end of the last year")
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .x_axis_formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 1.0 {
                return String::new();
            }
            let v = v.round() as usize;
            match v {
                _ if v <= years => format!("year {v}"),
                _ if v == years + 2 => "on VP".to_string(),
                _ if v == years + 3 => "draw".to_string(),
                _ => String::new(),
            }
        })
        .show(ui, |p| {
            let pointer = p.pointer_coordinate();
            for (k, r) in reports.iter().enumerate() {
                let shift = k as f64 * 0.4 - 0.2 * (n - 1.0);
                ending_bars(p, r, k, shift);
            }
            pointer
        });
    let (Some(games), [report]) = (games, reports) else {
        return None;
    };
    if !endings_plot.response.clicked() {
        return None;
    }
    let at = endings_plot.inner?;
    let ending = ending_at(&report.endings, at.x, at.y)?;
    games.example_of(ending).map(|index| games.replay(index))
}

/// The `k`th rule set's endings, `shift` aside from the slot's centre:
/// sudden deaths by year and wins on VP (Pompey's stacked on Caesar's),
/// then the draws.
fn ending_bars(p: &mut PlotUi<'_>, r: &SimReport, k: usize, shift: f64) {
    let e = &r.endings;
    let mut caesar: Vec<Bar> = Vec::new();
    let mut pompey: Vec<Bar> = Vec::new();
    for (y, c) in e.sudden_death_by_year.iter().enumerate() {
        caesar.push(Bar::new(y as f64 + 1.0 + shift, c.caesar as f64));
        pompey.push(Bar::new(y as f64 + 1.0 + shift, c.pompey as f64));
    }
    let last = e.sudden_death_by_year.len() as f64 + 2.0 + shift;
    caesar.push(Bar::new(last, e.on_vp_after_last_year.caesar as f64));
    pompey.push(Bar::new(last, e.on_vp_after_last_year.pompey as f64));
    let draws = vec![Bar::new(last + 1.0, e.draws as f64)];
    let caesar_chart = BarChart::new(format!("Caesar, {}", r.variant), caesar)
        .width(0.35)
        .color(theme::shade(CAESAR, k));
    let pompey_chart = BarChart::new(format!("Pompey, {}", r.variant), pompey)
        .width(0.35)
        .color(theme::shade(POMPEY, k))
        .stack_on(&[&caesar_chart]);
    p.bar_chart(caesar_chart);
    p.bar_chart(pompey_chart);
    p.bar_chart(
        BarChart::new(format!("draws, {}", r.variant), draws)
            .width(0.35)
            .color(theme::shade(DRAW, k)),
    );
}

fn battles(ui: &mut Ui, reports: &[&SimReport]) {
    let n = reports.len() as f64;
    ui.label(RichText::new("Battles and losses per game (min, quartiles, max)").strong());
    if reports.len() > 1 {
        let keys: Vec<chart_key::Key> = reports
            .iter()
            .enumerate()
            .map(|(k, r)| chart_key::Key::new(&r.variant, theme::shade(theme::ROUNDS, k)))
            .collect();
        chart_key::row(ui, &keys);
    }
    fixed_plot("battles")
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .x_axis_formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            let (i, k) = ((v / (n + 1.0)).floor(), v.round() % (n + 1.0));
            if k != 0.0 {
                return String::new();
            }
            [
                "battles",
                "steps lost\nCaesar",
                "steps lost\nPompey",
                "blocks lost\nCaesar",
                "blocks lost\nPompey",
            ]
            .get(i as usize)
            .map_or(String::new(), |s| s.to_string())
        })
        .show(ui, |p| {
            for (k, r) in reports.iter().enumerate() {
                let x = |i: f64| i * (n + 1.0) + k as f64;
                let items = [
                    (x(0.0), &r.battles_per_game),
                    (x(1.0), &r.steps_lost.caesar),
                    (x(2.0), &r.steps_lost.pompey),
                    (x(3.0), &r.blocks_eliminated.caesar),
                    (x(4.0), &r.blocks_eliminated.pompey),
                ];
                let boxes = items
                    .iter()
                    .map(|(x, s)| BoxElem::new(*x, boxed(s)).box_width(0.7))
                    .collect();
                p.box_plot(
                    BoxPlot::new(r.variant.clone(), boxes).color(theme::shade(theme::ROUNDS, k)),
                );
            }
        });
}

fn boxed(s: &sim::runs::stats::Summary) -> BoxSpread {
    BoxSpread::new(
        s.min as f64,
        s.q1 as f64,
        s.median as f64,
        s.q3 as f64,
        s.max as f64,
    )
}

/// The key of a chart of outcomes: each side's and the draws' colour for
/// each rule set (`win_rates`: the first word as the win-rate chart names it).
fn outcome_keys(reports: &[&SimReport], win_rates: bool) -> Vec<chart_key::Key> {
    reports
        .iter()
        .enumerate()
        .flat_map(|(k, r)| {
            let name = |what: &str| {
                if reports.len() > 1 {
                    format!("{what}, {}", r.variant)
                } else {
                    what.to_string()
                }
            };
            let draw = if win_rates { "draw" } else { "draws" };
            [("Caesar", CAESAR), ("Pompey", POMPEY), (draw, DRAW)]
                .map(|(what, colour)| chart_key::Key::new(name(what), theme::shade(colour, k)))
        })
        .collect()
}

/// Which bar of one run's "how and when games end" chart holds the point
/// (`x`, `y`): sudden death in year k at x = k, Caesar's bar below
/// Pompey's stacked on it; the wins after the last year two places after
/// the last year, and the draws one further.
fn ending_at(endings: &Endings, x: f64, y: f64) -> Option<Ending> {
    let half_width = 0.35 / 2.0;
    let slot = x.round();
    if (x - slot).abs() > half_width || y < 0.0 || slot < 1.0 {
        return None;
    }
    let years = endings.sudden_death_by_year.len() as f64;
    let side_of = |counts: &SideCounts| {
        let caesar = counts.caesar as f64;
        if y <= caesar {
            Some(Side::Caesar)
        } else if y <= caesar + counts.pompey as f64 {
            Some(Side::Pompey)
        } else {
            None
        }
    };
    if slot <= years {
        let counts = &endings.sudden_death_by_year[slot as usize - 1];
        let winner = side_of(counts)?;
        Some(Ending::SuddenDeath {
            year: slot as u8,
            winner,
        })
    } else if slot == years + 2.0 {
        let winner = side_of(&endings.on_vp_after_last_year)?;
        Some(Ending::AfterLastYear { winner })
    } else if slot == years + 3.0 && y <= endings.draws as f64 {
        Some(Ending::Draw)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::ending_at;
    use crate::app::simulate::bands::band_quads;

    #[test]
    fn a_click_on_an_endings_bar_names_its_ending() {
        use crate::app::replay::games::Ending;
        use crate::scenario::model::Side;
        use crate::sim::runs::report::{Endings, SideCounts};
        let counts = |caesar, pompey| SideCounts { caesar, pompey };
        let endings = Endings {
            sudden_death_by_year: vec![counts(0, 2), counts(3, 5)],
            sudden_death: 10,
            on_vp_after_last_year: counts(4, 20),
            rome_tie_break: counts(0, 0),
            draws: 1,
        };
        let sudden = |year, winner| Some(Ending::SuddenDeath { year, winner });
        assert_eq!(ending_at(&endings, 2.0, 2.5), sudden(2, Side::Caesar));
        assert_eq!(ending_at(&endings, 2.1, 6.0), sudden(2, Side::Pompey));
        assert_eq!(ending_at(&endings, 1.0, 1.0), sudden(1, Side::Pompey));
        // Above the stack, between bars, and the empty slot: nothing.
        assert_eq!(ending_at(&endings, 2.0, 9.0), None);
        assert_eq!(ending_at(&endings, 1.5, 1.0), None);
        assert_eq!(ending_at(&endings, 3.0, 0.5), None);
        assert_eq!(
            ending_at(&endings, 4.0, 10.0),
            Some(Ending::AfterLastYear {
                winner: Side::Pompey
            })
        );
        assert_eq!(ending_at(&endings, 5.0, 0.5), Some(Ending::Draw));
    }

    /// Twice the signed area of triangle a, b, c (positive: counter-clockwise
    /// with y up).
    fn turn(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    }

    #[test]
    fn a_band_is_one_convex_quad_per_segment_between_the_lines() {
        // Crossing steps as a skewed VP race gives them: the band narrows to
        // nothing in year 3 and widens again.
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        let lo = [0.0, 2.0, 4.0, 1.0, 1.0];
        let hi = [3.0, 2.5, 4.0, 6.0, 2.0];
        let quads = band_quads(&xs, &lo, &hi);
        assert_eq!(quads.len(), 4);
        for (i, q) in quads.iter().enumerate() {
            // Two vertical sides on neighbouring years, ends on the lines.
            assert_eq!([q[0][0], q[3][0]], [xs[i], xs[i]]);
            assert_eq!([q[1][0], q[2][0]], [xs[i + 1], xs[i + 1]]);
            assert_eq!([q[0][1], q[3][1]], [lo[i], hi[i]]);
            assert_eq!([q[1][1], q[2][1]], [lo[i + 1], hi[i + 1]]);
            // Convex: every corner turns the same way (or not at all).
            for k in 0..4 {
                let t = turn(q[k], q[(k + 1) % 4], q[(k + 2) % 4]);
                assert!(t >= 0.0, "quad {i} turns back at corner {k}: {q:?}");
            }
        }
        assert!(band_quads(&[1.0], &[0.0], &[1.0]).is_empty());
    }
}
