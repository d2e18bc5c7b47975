//! The strength ladder in the Simulate tab: which players make the rungs,
//! and the finished ladder as a chart of Caesar's win rate against the
//! rung, one line per rule set, with the library's ratings and verdict.
//! Every figure comes from [`LadderReport`]; nothing is computed here.

use egui::{RichText, Stroke, Ui};
use egui_plot::{Legend, Line, LineStyle, Plot, PlotUi, uniform_grid_spacer};

use crate::ai::AiSpec;
use crate::app::player_picker::{self, Menu, Offer, Picked, RankedFor};
use crate::app::{FilePurpose, PlayerUse, Request, theme};
use crate::scenario::model::Side;
use crate::sim::questions::ladder::{LadderReport, Ratings, VerdictKind};
use crate::sim::runs::stats::Estimate;

use super::bands::marked_line;

/// The players offered as rungs, weakest first.
pub(super) const LADDER_PLAYERS: [AiSpec; 4] = [
    AiSpec::Random,
    AiSpec::Heuristic,
    AiSpec::Search { playouts: 16 },
    AiSpec::Search { playouts: 64 },
];

/// Colours of the first and second rule set's lines.
const LINE_COLOURS: [egui::Color32; 2] = [theme::CAESAR, theme::ROUNDS];

/// The ladder's settings: its rungs and games per match.
#[derive(Debug, Clone, PartialEq)]
pub struct LadderSettings {
    /// The fixed rungs chosen among [`LADDER_PLAYERS`], in that order, then
    /// the players added from the menu, in the order added.
    pub(crate) players: Vec<AiSpec>,
    /// Games of every match (each rung's mirror match, each cross-play pairing).
    pub(crate) games: u64,
}

impl Default for LadderSettings {
    fn default() -> Self {
        LadderSettings {
            players: vec![AiSpec::Random, AiSpec::Heuristic],
            games: 50,
        }
    }
}

impl LadderSettings {
    /// The rungs, weakest first as far as the window knows.
    pub fn players(&self) -> &[AiSpec] {
        &self.players
    }

    /// Adds `player` as a rung, unless a rung already plays as it.
    pub(crate) fn add(&mut self, player: AiSpec) {
        if !self.players.iter().any(|p| p.plays_as(&player)) {
            self.players.push(player);
            self.order();
        }
    }

    /// The fixed rungs in [`LADDER_PLAYERS`] order, then the others in the
    /// order they were added (a stable sort keeps it): players from the
    /// menu and player files are as a rule stronger than the fixed four.
    fn order(&mut self) {
        self.players.sort_by_key(|q| {
            LADDER_PLAYERS
                .iter()
                .position(|x| x == q)
                .unwrap_or(LADDER_PLAYERS.len())
        });
    }
}

/// The rung checkboxes, the rungs added from the player menu (each with
/// its remove button), the menu to add one, and the games per rung. A
/// request when a rung is to be read from a player file.
pub(super) fn settings(
    ui: &mut Ui,
    s: &mut LadderSettings,
    ranked_for: RankedFor<'_>,
) -> Option<Request> {
    ui.horizontal_wrapped(|ui| {
        ui.label("Rungs");
        for p in LADDER_PLAYERS {
            let mut on = s.players.contains(&p);
            if ui.checkbox(&mut on, p.to_string()).changed() {
                if on {
                    s.players.push(p);
                } else {
                    s.players.retain(|q| *q != p);
                }
                s.order();
            }
        }
    });
    let request = added_rungs(ui, s, ranked_for);
    ui.horizontal(|ui| {
        let l = ui.label("Games per rung");
        ui.add(egui::DragValue::new(&mut s.games).range(1..=100_000))
            .labelled_by(l.id)
            .on_hover_text(
                "Games of each mirror match and of each cross-play pairing (each side assignment)",
            );
    });
    request
}

/// The rungs beyond the fixed four, and the player menu that adds one.
fn added_rungs(ui: &mut Ui, s: &mut LadderSettings, ranked_for: RankedFor<'_>) -> Option<Request> {
    let mut request = None;
    let mut removed = None;
    ui.horizontal_wrapped(|ui| {
        for (i, p) in s.players.iter().enumerate() {
            if LADDER_PLAYERS.contains(p) {
                continue;
            }
            if ui
                .button(format!("× {}", player_picker::label(p)))
                .on_hover_text(format!("Remove the rung {p}"))
                .clicked()
            {
                removed = Some(i);
            }
        }
        let l = ui.label("Add a rung");
        let menu = Menu {
            ranked_for,
            current: None,
            offer: Offer::Players,
        };
        let (combo, picked) =
            player_picker::combo(ui, "ladder_add_rung", "choose…".to_string(), &menu, |_| {});
        combo.labelled_by(l.id).on_hover_text(
            "Any player as a rung: the best for the rule set, a player file, a search on a player file",
        );
        match picked {
            Some(Picked::Player(spec)) => s.add(spec),
            // The side is not used: the file is a rung, playing both sides.
            Some(Picked::FromFile) => {
                request = Some(Request::Choose(FilePurpose::OpenPlayer(
                    Side::Caesar,
                    PlayerUse::LadderRung,
                )));
            }
            None => {}
        }
    });
    if let Some(i) = removed {
        s.players.remove(i);
    }
    request
}

fn pct(e: &Estimate) -> String {
    e.percent_text(0)
}

/// The finished ladder: chart, table, ratings, verdict.
pub(super) fn show(ui: &mut Ui, r: &LadderReport) {
    ui.label(
        RichText::new(format!(
            "Strength ladder: {} — {} games per match, seed {}",
            r.variants.join(" vs "),
            r.games(),
            r.seed
        ))
        .strong(),
    );
    win_rate_chart(ui, r);
    rungs_table(ui, r);
    if let Some(ratings) = &r.ratings {
        ratings_table(ui, ratings);
    }
    let colour = match r.verdict.kind {
        VerdictKind::HoldsAtEveryRung
        | VerdictKind::Rises
        | VerdictKind::Falls
        | VerdictKind::AtEquilibrium => theme::GOOD,
        VerdictKind::DependsOnStrength => theme::WARNING,
        _ => ui.visuals().text_color(),
    };
    ui.label(
        RichText::new(format!("Verdict: {}", r.verdict.text))
            .strong()
            .color(colour),
    );
    if let Some(top) = &r.top_rungs {
        let colour = if top.settled {
            theme::GOOD
        } else {
            theme::WARNING
        };
        ui.label(RichText::new(format!("Strongest rungs: {}", top.text)).color(colour));
    }
}

/// Caesar's win rate by rung under each rule set, with 95% whiskers.
fn win_rate_chart(ui: &mut Ui, r: &LadderReport) {
    ui.label(RichText::new("Caesar's win rate by rung (mirror matches, 95% intervals)").strong());
    let players = r.players.clone();
    caesar_share_plot("ladder", players.len())
        .x_axis_formatter(move |mark, _| {
            let v = mark.value;
            if (v - v.round()).abs() > 1e-6 || v < 0.0 {
                return String::new();
            }
            players.get(v.round() as usize).cloned().unwrap_or_default()
        })
        .show(ui, |p| {
            for (k, variant) in r.variants.iter().enumerate() {
                rung_series(p, r, k, variant);
            }
        });
}

/// The `k`th rule set's line through the rungs, with its whiskers.
fn rung_series(p: &mut PlotUi<'_>, r: &LadderReport, k: usize, variant: &str) {
    let colour = LINE_COLOURS[k % 2];
    // The second rule set is drawn dashed and shifted a little,
    // so the whiskers do not hide each other.
    let shift = k as f64 * 0.06 - 0.03 * (r.variants.len() as f64 - 1.0);
    let style = if k == 0 {
        LineStyle::Solid
    } else {
        LineStyle::dashed_loose()
    };
    let estimates: Vec<(f64, &Estimate)> = r
        .rungs
        .iter()
        .enumerate()
        .filter_map(|(i, rung)| rung.caesar_win_rate.get(k).map(|e| (i as f64 + shift, e)))
        .collect();
    let points: Vec<[f64; 2]> = estimates
        .iter()
        .map(|(x, e)| [*x, e.estimate * 100.0])
        .collect();
    marked_line(p, variant, points, colour, style);
    for (x, e) in &estimates {
        let whisker = vec![[*x, e.ci95[0] * 100.0], [*x, e.ci95[1] * 100.0]];
        p.line(
            Line::new(variant.to_string(), whisker)
                .stroke(Stroke::new(1.5, colour))
                .allow_hover(false),
        );
    }
}

/// Each rung's player and Caesar's win rate, with the rule sets' paired
/// difference when there are two.
fn rungs_table(ui: &mut Ui, r: &LadderReport) {
    egui::Grid::new("ladder_rungs")
        .num_columns(2 + r.variants.len() + usize::from(r.variants.len() == 2))
        .striped(true)
        .show(ui, |ui| {
            ui.label(RichText::new("Rung").strong());
            ui.label(RichText::new("Player").strong());
            for v in &r.variants {
                ui.label(RichText::new(format!("Caesar wins, {v}")).strong());
            }
            if let [a, b] = r.variants.as_slice() {
                ui.label(RichText::new(format!("{a} − {b} (paired)")).strong());
            }
            ui.end_row();
            for (i, rung) in r.rungs.iter().enumerate() {
                ui.label(format!("{}", i + 1));
                ui.label(&rung.player);
                for e in &rung.caesar_win_rate {
                    ui.label(pct(e));
                }
                if let Some(d) = &rung.difference {
                    ui.label(format!(
                        "{:+.1} pts ({:+.1} to {:+.1}), p = {:.3}{}",
                        d.estimate * 100.0,
                        d.ci95[0] * 100.0,
                        d.ci95[1] * 100.0,
                        d.p_value,
                        if d.significant { " *" } else { "" }
                    ));
                }
                ui.end_row();
            }
        });
}

/// Elo from cross-play, with intervals and scores.
fn ratings_table(ui: &mut Ui, ratings: &Ratings) {
    ui.label(
        RichText::new(format!(
            "Ratings from cross-play under {} (Elo, first rung = 0)",
            ratings.variant
        ))
        .strong(),
    )
    .on_hover_text(&ratings.method);
    egui::Grid::new("ladder_ratings")
        .num_columns(3)
        .show(ui, |ui| {
            for p in &ratings.players {
                ui.label(&p.player);
                ui.label(format!(
                    "{:+.0} ({:+.0} to {:+.0})",
                    p.elo.round() + 0.0,
                    p.ci95[0].round() + 0.0,
                    p.ci95[1].round() + 0.0
                ));
                ui.label(format!(
                    "score {:.1}% of {} games",
                    p.score * 100.0,
                    p.games
                ));
                ui.end_row();
            }
        });
}

/// The top of the share charts' y axis: above 100% the legend's rows.
const LEGEND_ROOM: f64 = 140.0;

/// A fixed chart of Caesar's share of games (0–100%) at `points` points
/// along x (0, 1, …), one grid line per point: the ladder's rungs, the
/// sweep's settings.
pub(super) fn caesar_share_plot(id: &str, points: usize) -> Plot<'static> {
    Plot::new(id)
        .height(theme::CHART_HEIGHT)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .legend(Legend::default())
        .y_axis_label("Caesar wins, % of games")
        .include_y(0.0)
        // Room above 100% for the legend, so it never covers a point.
        .include_y(LEGEND_ROOM)
        .y_axis_formatter(|mark, _| {
            if mark.value > 100.0 + 1e-6 {
                String::new()
            } else {
                format!("{}", mark.value)
            }
        })
        .include_x(-0.3)
        .include_x(points as f64 - 0.7)
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
}
