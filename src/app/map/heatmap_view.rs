//! The map heatmaps: the last simulation's per-space and per-link figures
//! drawn over the map (docs/simulation.md, *Map heatmaps*), with a legend
//! and the hovered space's numbers. A comparison shows A − B. Every number
//! comes from the report ([`SimReport::spaces`], [`SimReport::links`]).

use egui::{Color32, Painter, Rect, RichText, Stroke, Ui, pos2, vec2};

use super::view::MapView;
use crate::app::{form, theme};
use crate::scenario::model::{Scenario, SpaceId};
use crate::sim::runs::heatmap::{HeldShare, SpaceFigures};
use crate::sim::runs::report::SimReport;

/// Which figure the overlay shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layer {
    #[default]
    Off,
    Control,
    Battles,
    StepsLost,
    BlocksLost,
    SuddenDeath,
    Attacks,
    Retreats,
}

impl Layer {
    pub const ALL: [Layer; 8] = [
        Layer::Off,
        Layer::Control,
        Layer::Battles,
        Layer::StepsLost,
        Layer::BlocksLost,
        Layer::SuddenDeath,
        Layer::Attacks,
        Layer::Retreats,
    ];

    pub(crate) fn label(self) -> &'static str {
        match self {
            Layer::Off => "None",
            Layer::Control => "Who holds it",
            Layer::Battles => "Battles",
            Layer::StepsLost => "Steps lost",
            Layer::BlocksLost => "Blocks lost",
            Layer::SuddenDeath => "Lost in a sudden-death year",
            Layer::Attacks => "Roads used to attack",
            Layer::Retreats => "Roads used to retreat",
        }
    }

    /// What one unit of the scale is.
    fn unit(self) -> &'static str {
        match self {
            Layer::Off => "",
            Layer::Control => "Caesar's share − Pompey's share of the games",
            Layer::Battles => "battles per game",
            Layer::StepsLost => "steps lost per game (both sides)",
            Layer::BlocksLost => "blocks lost per game (both sides)",
            Layer::SuddenDeath => "share of games: the loser lost it in the deciding year",
            Layer::Attacks => "attacks along the road per game",
            Layer::Retreats => "retreats along the road per game",
        }
    }

    fn on_links(self) -> bool {
        matches!(self, Layer::Attacks | Layer::Retreats)
    }
}

/// The overlay's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Overlay {
    pub layer: Layer,
    /// Who holds it after this year's winter; `None` at the end of the game.
    pub year: Option<u8>,
}

/// The report(s) to draw: one run, or two compared (drawn as A − B).
#[derive(Clone, Copy)]
pub struct HeatSource<'a> {
    pub(crate) a: &'a SimReport,
    pub(crate) b: Option<&'a SimReport>,
}

fn held(s: &SpaceFigures, year: Option<u8>) -> Option<HeldShare> {
    match year {
        None => Some(s.held_at_end),
        Some(y) => s.held_by_year.get(y as usize - 1).copied(),
    }
}

fn per_game(count: u64, r: &SimReport) -> f64 {
    if r.games == 0 {
        0.0
    } else {
        count as f64 / r.games as f64
    }
}

/// The layer's value at space `i` of one report.
fn space_value(r: &SimReport, i: usize, o: Overlay) -> Option<f64> {
    let s = r.spaces.get(i)?;
    Some(match o.layer {
        Layer::Control => {
            let h = held(s, o.year)?;
            h.caesar - h.pompey
        }
        Layer::Battles => s.battles_per_game,
        Layer::StepsLost => per_game(s.steps_lost_caesar + s.steps_lost_pompey, r),
        Layer::BlocksLost => per_game(s.blocks_lost_caesar + s.blocks_lost_pompey, r),
        Layer::SuddenDeath => per_game(s.sudden_death_decisive, r),
        _ => return None,
    })
}

fn link_value(r: &SimReport, i: usize, layer: Layer) -> Option<f64> {
    let l = r.links.get(i)?;
    Some(match layer {
        Layer::Attacks => per_game(l.attacks, r),
        Layer::Retreats => per_game(l.retreats, r),
        _ => return None,
    })
}

impl HeatSource<'_> {
    fn space(&self, i: usize, o: Overlay) -> Option<f64> {
        let a = space_value(self.a, i, o)?;
        match self.b {
            None => Some(a),
            Some(b) => Some(a - space_value(b, i, o)?),
        }
    }
    fn link(&self, i: usize, layer: Layer) -> Option<f64> {
        let a = link_value(self.a, i, layer)?;
        match self.b {
            None => Some(a),
            Some(b) => Some(a - link_value(b, i, layer)?),
        }
    }
    /// Whether the values may be negative (a diverging scale).
    fn diverging(&self, layer: Layer) -> bool {
        self.b.is_some() || layer == Layer::Control
    }
    fn years(&self) -> usize {
        self.a.spaces.first().map_or(0, |s| s.held_by_year.len())
    }
}

/// The two ends of the diverging scale: Caesar / Pompey for control, A / B
/// for the difference of a size layer.
fn ends(source: &HeatSource<'_>, layer: Layer) -> (Color32, Color32) {
    if layer == Layer::Control {
        (theme::CAESAR, theme::POMPEY)
    } else if source.b.is_some() {
        (theme::ROUNDS, theme::WARNING)
    } else {
        (theme::ERROR, theme::ERROR)
    }
}

fn colour(source: &HeatSource<'_>, layer: Layer, v: f64, max: f64) -> Color32 {
    let (pos, neg) = ends(source, layer);
    let t = if max > 0.0 {
        (v.abs() / max).min(1.0)
    } else {
        0.0
    };
    let base = if v >= 0.0 { pos } else { neg };
    // Never faint: the weakest value still reads over the map's colours.
    base.gamma_multiply(0.5 + 0.45 * t as f32)
}

/// The largest |value| of the layer (the scale's end).
fn scale(source: &HeatSource<'_>, scenario: &Scenario, o: Overlay) -> f64 {
    let values: Vec<f64> = if o.layer.on_links() {
        (0..scenario.board.link_count())
            .filter_map(|i| source.link(i, o.layer))
            .collect()
    } else {
        scenario
            .board
            .ids()
            .filter_map(|id| source.space(id.index(), o))
            .collect()
    };
    let max = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if o.layer == Layer::Control && source.b.is_none() {
        1.0
    } else {
        max
    }
}

/// Draws the layer over the map.
pub fn paint(
    painter: &Painter,
    scenario: &Scenario,
    view: &MapView,
    source: &HeatSource<'_>,
    o: Overlay,
) {
    if o.layer == Layer::Off {
        return;
    }
    let max = scale(source, scenario, o);
    let board = &scenario.board;
    let at = |id: SpaceId| {
        let p = board.space(id).pos;
        view.to_screen(pos2(p.0, p.1))
    };
    let unit = (view.zoom() * 24.0).clamp(12.0, 40.0);
    if o.layer.on_links() {
        for i in 0..board.link_count() {
            let Some(v) = source.link(i, o.layer) else {
                continue;
            };
            if v == 0.0 || max <= 0.0 {
                continue;
            }
            let l = board.link(crate::scenario::model::LinkId(i as u16));
            let w = 1.5 + (v.abs() / max) as f32 * unit * 0.6;
            painter.line_segment(
                [at(l.a), at(l.b)],
                Stroke::new(w, colour(source, o.layer, v, max)),
            );
        }
        return;
    }
    for id in board.ids() {
        let Some(v) = source.space(id.index(), o) else {
            continue;
        };
        if max <= 0.0 || (v == 0.0 && o.layer != Layer::Control) {
            continue;
        }
        let c = at(id);
        // Control: a disc of fixed size, coloured by who holds it. Sizes:
        // the area grows with the value.
        let r = if o.layer == Layer::Control && source.b.is_none() {
            unit * 0.9
        } else {
            unit * (0.25 + 1.1 * (v.abs() / max).sqrt() as f32)
        };
        painter.circle(
            c,
            r,
            colour(source, o.layer, v, max),
            Stroke::new(1.5, Color32::from_black_alpha(170)),
        );
    }
}

/// The overlay's controls, legend and the hovered space's numbers, in a
/// strip above the map (never over it): one row of controls and legend,
/// one row for the space under the pointer, always both, so the map below
/// never moves.
pub fn controls(
    ui: &mut Ui,
    scenario: &Scenario,
    source: Option<&HeatSource<'_>>,
    overlay: &mut Overlay,
    hovered: Option<SpaceId>,
) {
    let Some(source) = source else {
        ui.label(
            RichText::new(
                "Heatmaps: run a simulation (Simulate tab) to see where the game is decided.",
            )
            .weak()
            .small(),
        );
        return;
    };
    ui.horizontal_wrapped(|ui| {
        form::labelled(
            ui,
            "Overlay",
            form::choice(
                "heatmap_layer",
                &mut overlay.layer,
                Layer::ALL,
                Layer::label,
            ),
        );
        if overlay.layer == Layer::Off {
            return;
        }
        if overlay.layer == Layer::Control {
            ui.separator();
            ui.label("When");
            ui.selectable_value(&mut overlay.year, None, "End");
            for y in 1..=source.years() as u8 {
                ui.selectable_value(&mut overlay.year, Some(y), format!("Year {y}"));
            }
        }
        ui.separator();
        let title = match source.b {
            None => source.a.variant.clone(),
            Some(b) => format!("{} − {}", source.a.variant, b.variant),
        };
        ui.label(RichText::new(title).small().strong());
        legend(ui, source, overlay.layer, scale(source, scenario, *overlay));
    });
    let line = match hovered {
        Some(id) if overlay.layer != Layer::Off => hover_numbers(scenario, source, *overlay, id),
        _ => "Point at a space for its figures.".to_string(),
    };
    // Wrapped, never cut off: the figures are what the designer came for.
    ui.add(egui::Label::new(RichText::new(&line).small()).wrap());
}

/// The scale: its one end, a bar of its colours, its other end, the unit.
fn legend(ui: &mut Ui, source: &HeatSource<'_>, layer: Layer, max: f64) {
    let diverging = source.diverging(layer);
    let (left, right) = if diverging {
        // A comparison in words a designer reads: which rule set, which side.
        let (a, b) = match (layer, source.b) {
            (Layer::Control, None) => ("Caesar".to_string(), "Pompey".to_string()),
            (Layer::Control, Some(b)) => (
                format!("Caesar holds it more under {}", source.a.variant),
                format!("more under {}", b.variant),
            ),
            (_, Some(b)) => (
                format!("more under {}", source.a.variant),
                format!("more under {}", b.variant),
            ),
            (_, None) => ("more".to_string(), "less".to_string()),
        };
        (format!("{a} {max:+.2}"), format!("{b} {:+.2}", -max))
    } else {
        ("0".to_string(), format!("{max:.2}"))
    };
    ui.label(RichText::new(left).small());
    let (rect, _) = ui.allocate_exact_size(vec2(180.0, 14.0), egui::Sense::hover());
    let painter = ui.painter();
    let steps = 22;
    for k in 0..steps {
        let t = (k as f64 + 0.5) / steps as f64;
        let v = if diverging {
            max * (1.0 - 2.0 * t)
        } else {
            max * t
        };
        let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
        let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
        painter.rect_filled(
            Rect::from_min_max(pos2(x0, rect.top()), pos2(x1, rect.bottom())),
            0.0,
            colour(source, layer, v, max),
        );
    }
    ui.label(RichText::new(right).small());
    ui.label(RichText::new(layer.unit()).small().weak());
}

fn space_lines(r: &SimReport, i: usize, year: Option<u8>) -> Vec<String> {
    let Some(s) = r.spaces.get(i) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if let Some(h) = held(s, year) {
        lines.push(format!(
            "held {}: Caesar {:.0}%, Pompey {:.0}% of {} games",
            year.map_or("at the end".to_string(), |y| format!("after winter {y}")),
            h.caesar * 100.0,
            h.pompey * 100.0,
            h.games
        ));
    }
    lines.push(format!(
        "battles {} ({:.2} a game): Caesar won {}, Pompey {}",
        s.battles, s.battles_per_game, s.battles_won_caesar, s.battles_won_pompey
    ));
    lines.push(format!(
        "steps lost Caesar {}, Pompey {}; blocks lost {} / {}",
        s.steps_lost_caesar, s.steps_lost_pompey, s.blocks_lost_caesar, s.blocks_lost_pompey
    ));
    lines.push(format!(
        "lost in a sudden-death year: {} games",
        s.sudden_death_decisive
    ));
    lines
}

/// The hovered space's figures in one line (" · " between them).
fn hover_numbers(scenario: &Scenario, source: &HeatSource<'_>, o: Overlay, id: SpaceId) -> String {
    let mut parts = vec![scenario.board.name(id).to_string()];
    if let Some(v) = source.space(id.index(), o) {
        parts.push(format!("{}: {v:+.3}", o.layer.label()));
    }
    let runs: Vec<(&str, &SimReport)> = match source.b {
        None => vec![("", source.a)],
        Some(b) => vec![("under ", source.a), ("under ", b)],
    };
    for (tag, r) in runs {
        for (k, line) in space_lines(r, id.index(), o.year).into_iter().enumerate() {
            parts.push(if k == 0 && !tag.is_empty() {
                format!("{tag}{} {line}", r.variant)
            } else {
                line
            });
        }
    }
    parts.join(" · ")
}
