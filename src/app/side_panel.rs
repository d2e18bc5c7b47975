//! The side panel beside the map: the scenario at a glance, the legend, and
//! the validator's findings (clicking one goes to its item).

use egui::{RichText, Ui};

use super::state::AppState;
use super::{Request, map, theme};
use crate::scenario::model::{CardFace, Scenario};
use crate::scenario::model::{LinkClass, Side, SpaceKind};
use crate::scenario::validate::{Finding, Severity};

/// The scenario's name, file, variant, counts and legend. False when there
/// is no scenario to say more about.
/// The width of the counts' names column ("VP on map") and the least
/// a value is given beside it.
const COUNT_NAMES_WIDTH: f32 = 80.0;

pub(super) fn header(ui: &mut Ui, state: &AppState) -> bool {
    ui.add_space(4.0);
    ui.heading(state.scenario_name());
    let file = match state.path() {
        Some(p) => p.display().to_string(),
        None if state.load_error().is_some() => "no file".to_string(),
        None => format!("built-in ({})", crate::scenario::HISTORICAL_PATH),
    };
    ui.label(RichText::new(file).weak().small());
    match (state.rules(), state.rules_error()) {
        (Some(rules), _) => ui.label(format!("Variant: {} ({})", state.variant(), rules.name)),
        (None, e) => ui.colored_label(
            theme::ERROR,
            format!(
                "Variant {} could not be loaded: {}",
                state.variant(),
                e.map(ToString::to_string).unwrap_or_default()
            ),
        ),
    };
    ui.separator();
    if let Some(e) = state.load_error() {
        ui.colored_label(
            theme::ERROR,
            RichText::new("The scenario could not be loaded").strong(),
        );
        ui.colored_label(theme::ERROR, e);
        return false;
    }
    let Some(scenario) = state.scenario() else {
        return false;
    };
    counts(ui, scenario);
    egui::CollapsingHeader::new("Legend")
        .default_open(false)
        .show(ui, map::legend);
    ui.separator();
    true
}

/// The findings list and its filter.
pub(super) struct FindingsPanel {
    show_errors: bool,
    show_warnings: bool,
}

impl Default for FindingsPanel {
    fn default() -> Self {
        FindingsPanel {
            show_errors: true,
            show_warnings: true,
        }
    }
}

impl FindingsPanel {
    pub(super) fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        has_backdrop: bool,
    ) -> Vec<Request> {
        let mut actions = Vec::new();
        let Some(report) = state.report() else {
            return actions;
        };
        let (errors, warnings) = (report.errors(), report.warnings());
        ui.horizontal(|ui| {
            ui.label(RichText::new("Findings").strong());
            // Each count in its severity's colour, or as good when none.
            for (n, what, colour) in [
                (errors, "error", theme::ERROR),
                (warnings, "warning", theme::WARNING),
            ] {
                ui.colored_label(if n > 0 { colour } else { theme::GOOD }, plural(n, what));
            }
        });
        ui.horizontal(|ui| {
            ui.label("Show");
            ui.checkbox(&mut self.show_errors, "Errors");
            ui.checkbox(&mut self.show_warnings, "Warnings");
        });
        if !has_backdrop {
            ui.label(
                RichText::new("Positions differ from the published map: no coastline drawn.")
                    .weak()
                    .small(),
            );
        }
        ui.add_space(4.0);
        let (show_errors, show_warnings) = (self.show_errors, self.show_warnings);
        egui::ScrollArea::vertical()
            .id_salt("findings")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let shown = report.findings.iter().filter(|f| match f.severity {
                    Severity::Error => show_errors,
                    Severity::Warning => show_warnings,
                });
                let mut any = false;
                for f in shown {
                    any = true;
                    if finding(ui, f) {
                        actions.push(Request::GoToFinding(f.clone()));
                    }
                }
                if report.findings.is_empty() {
                    ui.label(
                        RichText::new("No findings: the scenario is playable as written.").weak(),
                    );
                } else if !any {
                    ui.label(RichText::new("All findings are filtered out.").weak());
                }
            });
        actions
    }
}

/// One finding; true when its message was clicked (to go to the item).
fn finding(ui: &mut Ui, f: &Finding) -> bool {
    let (colour, word) = match f.severity {
        Severity::Error => (theme::ERROR, "error"),
        Severity::Warning => (theme::WARNING, "warning"),
    };
    ui.label(
        RichText::new(format!("{word}[{}]", f.code))
            .color(colour)
            .strong(),
    );
    let clicked = ui
        .add(egui::Label::new(&f.message).sense(egui::Sense::click()))
        .on_hover_text("Click to select it on the map")
        .clicked();
    if let Some(loc) = &f.location {
        ui.label(RichText::new(loc.to_string()).weak().small().monospace());
    }
    ui.add_space(6.0);
    clicked
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The scenario at a glance: what the validator counted.
fn counts(ui: &mut Ui, scenario: &Scenario) {
    let board = &scenario.board;
    let kinds = |k: SpaceKind| board.spaces.iter().filter(|s| s.kind == k).count();
    let links = |c: LinkClass| board.links.iter().filter(|l| l.class == c).count();
    let side = |s: Side| scenario.roster.of_side(s).count();
    let events = scenario
        .deck
        .cards
        .iter()
        .filter(|c| matches!(c.face, CardFace::Event(_)))
        .count();
    // The counts wrap in a narrow panel: a grid's cells do not, and a row
    // wider than the panel widens it over the map.
    let words = (ui.available_width() - COUNT_NAMES_WIDTH).max(COUNT_NAMES_WIDTH);
    let value = |ui: &mut Ui, text: String| ui.add(egui::Label::new(text).wrap());
    egui::Grid::new("counts")
        .num_columns(2)
        .spacing([12.0, 3.0])
        .max_col_width(words)
        .show(ui, |ui| {
            ui.label("Spaces");
            value(
                ui,
                format!(
                    "{}: {}, {}, {}, {}",
                    board.len(),
                    counted(kinds(SpaceKind::City), "city", "cities"),
                    counted(kinds(SpaceKind::Port), "port", "ports"),
                    counted(kinds(SpaceKind::MajorPort), "major port", "major ports"),
                    counted(kinds(SpaceKind::Sea), "sea", "seas"),
                ),
            );
            ui.end_row();
            ui.label("Links");
            value(
                ui,
                format!(
                    "{}: {} major, {} minor, {}, {} sea",
                    board.links.len(),
                    links(LinkClass::Major),
                    links(LinkClass::Minor),
                    counted(links(LinkClass::Strait), "strait", "straits"),
                    links(LinkClass::Sea)
                ),
            );
            ui.end_row();
            ui.label("Blocks");
            value(
                ui,
                format!(
                    "{}: {} Caesar, {} Pompey; {} on the map at start",
                    scenario.roster.blocks.len(),
                    side(Side::Caesar),
                    side(Side::Pompey),
                    scenario.starting_setup().placements.len()
                ),
            );
            ui.end_row();
            ui.label("Cards");
            value(
                ui,
                format!(
                    "{}: {}, {}",
                    scenario.deck.cards.len(),
                    counted(events, "event", "events"),
                    counted(scenario.deck.cards.len() - events, "command", "commands")
                ),
            );
            ui.end_row();
            ui.label("VP on map");
            value(ui, board.total_vp().to_string());
            ui.end_row();
        });
}
