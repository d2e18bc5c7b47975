//! The balance sweep in the Simulate tab: which rule-set fields to sweep
//! over which values, and the finished sweep as a curve of Caesar's win
//! rate with its 95% band, the balance point, and a button per point that
//! makes its settings the rule set in force. Every figure comes from
//! [`SweepReport`]; the rule sets from [`sweep::apply_rule_settings`].

use egui::{RichText, Stroke, Ui};
use egui_plot::{HLine, Line, LineStyle, Points, Polygon};

use super::bands::{band_quads, marked_line};
use crate::app::Request;
use crate::app::theme;
use crate::scenario::rules::RuleSet;
use crate::sim::questions::sweep::{self, Axis, AxisError, SweepReport};

/// The sweep's settings: its axes as typed, and games per point.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSettings {
    /// Field name and values (`8..12`, `5,6,7`, `true,false`).
    pub axes: Vec<(String, String)>,
    pub(crate) games: u64,
}

impl Default for SweepSettings {
    fn default() -> Self {
        SweepSettings {
            axes: vec![("vp_to_win".to_string(), "8..12".to_string())],
            games: 100,
        }
    }
}

impl SweepSettings {
    /// The axes as the library reads them, or what is wrong with one.
    pub(crate) fn parsed(&self) -> Result<Vec<Axis>, AxisError> {
        parse_axes(&self.axes)
    }
}

/// Axis rows (field, values as typed) as the library reads them, or what
/// is wrong with one.
pub(super) fn parse_axes(axes: &[(String, String)]) -> Result<Vec<Axis>, AxisError> {
    axes.iter()
        .map(|(field, values)| format!("{field}={values}").parse::<Axis>())
        .collect()
}

/// The axis rows (a field from the rule table, its values) and the games per point.
pub(super) fn settings(ui: &mut Ui, s: &mut SweepSettings, rules: Option<&RuleSet>) {
    axis_rows(ui, &mut s.axes, rules, "Field", "sweep_field");
    ui.horizontal(|ui| {
        if ui.button("Add field").clicked() {
            s.axes.push(("hand_size".to_string(), "5,6,7".to_string()));
        }
        let l = ui.label("Games per point");
        ui.add(egui::DragValue::new(&mut s.games).range(1..=1_000_000))
            .labelled_by(l.id)
            .on_hover_text("Every point plays these games, over the same seeds");
    });
}

/// One row per axis: a field from the rule table (labelled `label` and
/// its number), its values, and a button that removes it.
pub(super) fn axis_rows(
    ui: &mut Ui,
    axes: &mut Vec<(String, String)>,
    rules: Option<&RuleSet>,
    label: &str,
    id: &str,
) {
    let fields = rules.map(sweep::settable_fields).unwrap_or_default();
    let mut remove = None;
    for (i, (field, values)) in axes.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let l = ui.label(format!("{label} {}", i + 1));
            egui::ComboBox::from_id_salt((id, i))
                .selected_text(field.as_str())
                .width(190.0)
                .show_ui(ui, |ui| {
                    for (path, current) in &fields {
                        let name = path.text();
                        let explain = format!("{} ({})", path.field.explain, path.field.rule);
                        ui.selectable_value(field, name.clone(), name)
                            .on_hover_text(format!("{explain} Now: {current}"));
                    }
                })
                .response
                .labelled_by(l.id);
            let l = ui.label("Values");
            ui.add(egui::TextEdit::singleline(values).desired_width(90.0))
                .labelled_by(l.id)
                .on_hover_text(
                    "A..B (both ends), or a list: 5,6,7 or true,false; in the field's place, \
                     strength:SIDE:BLOCK or deploy:SIDE:BLOCK moves a block's strength or city",
                );
            if ui
                .small_button("Remove")
                .on_hover_text("Remove this one")
                .clicked()
            {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        axes.remove(i);
    }
}

/// The finished sweep: the curve, the balance point and the points' table.
pub(super) fn show(ui: &mut Ui, r: &SweepReport, rules: Option<&RuleSet>) -> Vec<Request> {
    ui.label(
        RichText::new(format!(
            "Sweep of {}: {} games per point, seed {}, {} vs {} (the same seeds at every point)",
            r.variant,
            r.games(),
            r.seed,
            r.caesar_ai,
            r.pompey_ai
        ))
        .strong(),
    );
    let labels: Vec<String> = r
        .points
        .iter()
        .map(|p| SweepReport::settings_text(&p.settings))
        .collect();
    win_rate_chart(ui, r, &labels);
    if let Some(b) = &r.balance_point {
        ui.label(
            RichText::new(format!(
                "Balance point (nearest an even game): {} — Caesar wins {}, Pompey {}; an even game is {} Caesar's interval",
                SweepReport::settings_text(&b.settings),
                b.caesar_win_rate.percent_text(0),
                b.pompey_win_rate.percent_text(0),
                if b.even_within_interval { "inside" } else { "outside" }
            ))
            .color(theme::GOOD),
        );
    }
    points_table(ui, r, &labels, rules)
}

/// Caesar's win rate at each point with its 95% band, the even game, and
/// the balance point ringed.
fn win_rate_chart(ui: &mut Ui, r: &SweepReport, labels: &[String]) {
    ui.label(RichText::new("Caesar's win rate at each point (95% band)").strong());
    let xs: Vec<f64> = (0..r.points.len()).map(|i| i as f64).collect();
    let est: Vec<f64> = r
        .points
        .iter()
        .map(|p| p.caesar_win_rate.estimate * 100.0)
        .collect();
    let lo: Vec<f64> = r
        .points
        .iter()
        .map(|p| p.caesar_win_rate.ci95[0] * 100.0)
        .collect();
    let hi: Vec<f64> = r
        .points
        .iter()
        .map(|p| p.caesar_win_rate.ci95[1] * 100.0)
        .collect();
    let axis_labels = labels.to_vec();
    let balance = r.balance_point.as_ref().map(|b| b.point);
    let colour = theme::CAESAR;
    super::ladder_view::caesar_share_plot("sweep", r.points.len())
        .x_axis_formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            axis_labels
                .get(v.round() as usize)
                .cloned()
                .unwrap_or_default()
        })
        .show(ui, |p| {
            for quad in band_quads(&xs, &lo, &hi) {
                p.polygon(
                    Polygon::new("95% interval", quad.to_vec())
                        .fill_color(colour.gamma_multiply(0.25))
                        .stroke(Stroke::NONE)
                        .allow_hover(false),
                );
            }
            // A single point has no band to draw between neighbours.
            if r.points.len() == 1 {
                p.line(
                    Line::new("95% interval", vec![[0.0, lo[0]], [0.0, hi[0]]])
                        .stroke(Stroke::new(2.0, colour.gamma_multiply(0.5))),
                );
            }
            let points: Vec<[f64; 2]> = xs.iter().zip(&est).map(|(x, y)| [*x, *y]).collect();
            marked_line(p, "Caesar wins", points, colour, LineStyle::Solid);
            p.hline(
                HLine::new("even game (50%)", 50.0)
                    .color(theme::DRAW)
                    .style(LineStyle::dashed_loose()),
            );
            if let Some(b) = balance {
                p.points(
                    Points::new("balance point", vec![[b as f64, est[b]]])
                        .color(theme::GOOD)
                        .radius(8.0)
                        .filled(false),
                );
            }
        });
}

/// One row per point: its settings, both win rates, and a button that makes
/// its rule set the one in force.
fn points_table(
    ui: &mut Ui,
    r: &SweepReport,
    labels: &[String],
    rules: Option<&RuleSet>,
) -> Vec<Request> {
    let mut actions = Vec::new();
    egui::Grid::new("sweep_points")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            for head in ["Settings", "Caesar wins", "Pompey wins", "|C − P|", ""] {
                ui.label(RichText::new(head).strong());
            }
            ui.end_row();
            for (i, (p, label)) in r.points.iter().zip(labels).enumerate() {
                ui.label(label);
                ui.label(p.caesar_win_rate.percent_text(0));
                ui.label(p.pompey_win_rate.percent_text(0));
                ui.label(format!("{:.3}", p.balance));
                let applied = rules.map(|base| sweep::apply_rule_settings(base, &p.settings));
                match applied {
                    Some(Ok(new_rules)) => {
                        if ui
                            .button(format!("Use point {}", i + 1))
                            .on_hover_text(format!(
                                "Make {label} the rule set in force (Rules tab; save it as a variant there)"
                            ))
                            .clicked()
                        {
                            actions.push(Request::SetRules(new_rules));
                        }
                    }
                    Some(Err(e)) => {
                        ui.label(RichText::new(e.to_string()).color(theme::ERROR));
                    }
                    None => {
                        ui.label("");
                    }
                }
                ui.end_row();
            }
        });
    actions
}
