//! The workbench window (eframe/egui). It only draws and edits documents; every
//! rule lives in the library.
//!
//! [`WorkbenchApp::show`] draws the whole window into any [`egui::Ui`], so the
//! GUI tests drive it headless with egui_kittest; [`run`] wraps it in eframe.

mod geo;
mod map;
mod tooltip;
mod view;

use std::path::PathBuf;

use egui::{Color32, RichText, Ui};

use crate::format::{LinkClass, ResolvedScenario, Side, SpaceKind};
use crate::model::{CardFace, Scenario, SpaceId};
use crate::rules::{BUILTIN_VARIANTS, RuleSet};
use crate::validate::{Finding, Report, Severity, validate};

pub use view::MapView;

const ERROR: Color32 = Color32::from_rgb(214, 56, 48);
const WARNING: Color32 = Color32::from_rgb(222, 150, 20);
const GOOD: Color32 = Color32::from_rgb(70, 160, 80);

/// Opens the workbench window.
pub fn run(scenario: Option<PathBuf>, variant: &str) -> Result<(), String> {
    let app = WorkbenchApp::new(scenario, variant);
    let title = format!("Caesar Workbench: {}", app.scenario_name());
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size([1500.0, 880.0])
            .with_min_inner_size([720.0, 420.0]),
        ..Default::default()
    };
    eframe::run_native(
        "caesar-workbench",
        options,
        Box::new(|_cc| Ok(Box::new(app))),
    )
    .map_err(|e| format!("cannot open the window: {e}"))
}

/// The workbench: one scenario, one rule set, the map and the findings.
pub struct WorkbenchApp {
    scenario_path: Option<PathBuf>,
    /// The parsed scenario, or why it could not be read (file:line:col: message).
    doc: Result<ResolvedScenario, String>,
    variant: String,
    rules: Result<RuleSet, String>,
    report: Option<Report>,
    map: Option<map::MapModel>,
    view: MapView,
    show_errors: bool,
    show_warnings: bool,
    hovered: Option<SpaceId>,
}

impl WorkbenchApp {
    /// Loads `scenario` (the built-in published game when `None`) under the
    /// rule set `variant` (a built-in name or a file). Failures are kept and
    /// shown in the window rather than returned.
    pub fn new(scenario: Option<PathBuf>, variant: &str) -> WorkbenchApp {
        let doc = crate::load_scenario(scenario.as_deref()).map_err(|e| e.to_string());
        let mut app = WorkbenchApp {
            scenario_path: scenario,
            doc,
            variant: variant.to_string(),
            rules: load_rules(variant),
            report: None,
            map: None,
            view: MapView::default(),
            show_errors: true,
            show_warnings: true,
            hovered: None,
        };
        app.revalidate();
        app
    }

    /// Switches the rule set and validates again; the map view is kept.
    pub fn set_variant(&mut self, variant: &str) {
        self.variant = variant.to_string();
        self.rules = load_rules(variant);
        self.revalidate();
    }

    fn revalidate(&mut self) {
        self.report = match (&self.doc, &self.rules) {
            (Ok(doc), Ok(rules)) => Some(validate(doc, rules)),
            // Without rules the map can still be drawn; the model's own
            // findings (unknown names, duplicates) are still worth showing.
            (Ok(doc), Err(_)) => {
                let (scenario, findings) = Scenario::build(doc);
                Some(Report { scenario, findings })
            }
            (Err(_), _) => None,
        };
        self.map = self
            .report
            .as_ref()
            .map(|r| map::MapModel::new(&r.scenario));
    }

    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The validation report, when the scenario loaded.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// Why the scenario could not be loaded.
    pub fn load_error(&self) -> Option<&str> {
        self.doc.as_ref().err().map(String::as_str)
    }

    /// Why the rule set could not be loaded.
    pub fn rules_error(&self) -> Option<&str> {
        self.rules.as_ref().err().map(String::as_str)
    }

    pub fn scenario_name(&self) -> String {
        match (&self.report, &self.scenario_path) {
            (Some(r), _) => r.scenario.name.clone(),
            (None, Some(p)) => p.display().to_string(),
            (None, None) => crate::HISTORICAL_PATH.to_string(),
        }
    }

    /// The map's pan and zoom.
    pub fn view(&self) -> &MapView {
        &self.view
    }

    /// Fits the whole map into its area (the "Fit" button).
    pub fn fit_map(&mut self) {
        self.view.fit();
    }

    /// The space under the pointer in the last frame.
    pub fn hovered_space(&self) -> Option<SpaceId> {
        self.hovered
    }

    /// Draws the whole window into `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        egui::Panel::top("top_bar").show(ui, |ui| self.top_bar(ui));
        egui::Panel::right("side_panel")
            .default_size(360.0)
            .size_range(240.0..=720.0)
            .show(ui, |ui| self.side_panel(ui));
        egui::CentralPanel::no_frame().show(ui, |ui| self.central(ui));
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label(RichText::new(self.scenario_name()).strong().size(15.0));
            ui.separator();
            let label = ui.label("Variant");
            let mut chosen = self.variant.clone();
            let combo = egui::ComboBox::from_id_salt("variant")
                .selected_text(self.variant.as_str())
                .width(240.0)
                .show_ui(ui, |ui| {
                    let builtin = BUILTIN_VARIANTS.iter().any(|(n, _)| *n == self.variant);
                    if !builtin {
                        // A variant file given on the command line stays selectable.
                        ui.selectable_value(
                            &mut chosen,
                            self.variant.clone(),
                            self.variant.as_str(),
                        );
                    }
                    for (name, _) in BUILTIN_VARIANTS {
                        ui.selectable_value(&mut chosen, (*name).to_string(), *name);
                    }
                });
            // Screen readers (and the GUI tests) find the selector as "Variant".
            let _ = combo.response.labelled_by(label.id);
            if chosen != self.variant {
                self.set_variant(&chosen);
            }
            ui.separator();
            if ui
                .button("Fit")
                .on_hover_text("Show the whole map (the wheel zooms, dragging pans)")
                .clicked()
            {
                self.view.fit();
            }
            if self.map.is_some() {
                ui.label(
                    RichText::new(format!("zoom {:.0}%", self.view.zoom() * 100.0))
                        .weak()
                        .small(),
                );
            }
        });
    }

    fn side_panel(&mut self, ui: &mut Ui) {
        ui.add_space(4.0);
        ui.heading(self.scenario_name());
        let file = match &self.scenario_path {
            Some(p) => p.display().to_string(),
            None => format!("built-in ({})", crate::HISTORICAL_PATH),
        };
        ui.label(RichText::new(file).weak().small());
        match &self.rules {
            Ok(rules) => ui.label(format!("Variant: {} ({})", self.variant, rules.name)),
            Err(e) => ui.colored_label(
                ERROR,
                format!("Variant {} could not be loaded: {e}", self.variant),
            ),
        };
        ui.separator();

        if let Err(e) = &self.doc {
            ui.colored_label(
                ERROR,
                RichText::new("The scenario could not be loaded").strong(),
            );
            ui.colored_label(ERROR, e);
            return;
        }
        if let Some(report) = &self.report {
            counts(ui, &report.scenario);
            egui::CollapsingHeader::new("Legend")
                .default_open(true)
                .show(ui, map::legend);
            ui.separator();
            self.findings(ui);
        }
    }

    fn findings(&mut self, ui: &mut Ui) {
        let Some(report) = &self.report else { return };
        let (errors, warnings) = (report.errors(), report.warnings());
        ui.horizontal(|ui| {
            ui.label(RichText::new("Findings").strong());
            ui.colored_label(
                if errors > 0 { ERROR } else { GOOD },
                plural(errors, "error"),
            );
            ui.colored_label(
                if warnings > 0 { WARNING } else { GOOD },
                plural(warnings, "warning"),
            );
        });
        ui.horizontal(|ui| {
            ui.label("Show");
            ui.checkbox(&mut self.show_errors, "Errors");
            ui.checkbox(&mut self.show_warnings, "Warnings");
        });
        if self.map.as_ref().is_some_and(|m| !m.has_backdrop()) {
            ui.label(
                RichText::new("Positions differ from the published map: no coastline drawn.")
                    .weak()
                    .small(),
            );
        }
        ui.add_space(4.0);
        let (show_errors, show_warnings) = (self.show_errors, self.show_warnings);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let shown = report.findings.iter().filter(|f| match f.severity {
                    Severity::Error => show_errors,
                    Severity::Warning => show_warnings,
                });
                let mut any = false;
                for f in shown {
                    any = true;
                    finding(ui, f);
                }
                if report.findings.is_empty() {
                    ui.label(
                        RichText::new("No findings: the scenario is playable as written.").weak(),
                    );
                } else if !any {
                    ui.label(RichText::new("All findings are filtered out.").weak());
                }
            });
    }

    fn central(&mut self, ui: &mut Ui) {
        if let Err(e) = &self.doc {
            ui.painter()
                .rect_filled(ui.max_rect(), 0.0, Color32::from_rgb(58, 62, 68));
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.35);
                ui.label(
                    RichText::new("The scenario could not be loaded")
                        .size(20.0)
                        .color(ERROR),
                );
                ui.add_space(8.0);
                ui.label(RichText::new(e).monospace().color(Color32::WHITE));
                ui.add_space(8.0);
                ui.label(
                    RichText::new("Fix the file and open it again.").color(Color32::LIGHT_GRAY),
                );
            });
            return;
        }
        let (Some(map), Some(report)) = (&mut self.map, &self.report) else {
            return;
        };
        self.hovered = map.show(
            ui,
            &report.scenario,
            self.rules.as_ref().ok(),
            &mut self.view,
        );
    }
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Loads a rule set by name or path.
fn load_rules(variant: &str) -> Result<RuleSet, String> {
    RuleSet::load(variant).map_err(|e| e.to_string())
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
    egui::Grid::new("counts")
        .num_columns(2)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            ui.label("Spaces");
            ui.label(format!(
                "{}: {}, {}, {}, {}",
                board.len(),
                counted(kinds(SpaceKind::City), "city", "cities"),
                counted(kinds(SpaceKind::Port), "port", "ports"),
                counted(kinds(SpaceKind::MajorPort), "major port", "major ports"),
                counted(kinds(SpaceKind::Sea), "sea", "seas"),
            ));
            ui.end_row();
            ui.label("Links");
            ui.label(format!(
                "{}: {} major, {} minor, {}, {} sea",
                board.links.len(),
                links(LinkClass::Major),
                links(LinkClass::Minor),
                counted(links(LinkClass::Strait), "strait", "straits"),
                links(LinkClass::Sea)
            ));
            ui.end_row();
            ui.label("Blocks");
            ui.label(format!(
                "{}: {} Caesar, {} Pompey; {} on the map at start",
                scenario.roster.blocks.len(),
                side(Side::Caesar),
                side(Side::Pompey),
                scenario.starting_setup().placements.len()
            ));
            ui.end_row();
            ui.label("Cards");
            ui.label(format!(
                "{}: {}, {}",
                scenario.deck.cards.len(),
                counted(events, "event", "events"),
                counted(scenario.deck.cards.len() - events, "command", "commands")
            ));
            ui.end_row();
            ui.label("VP on map");
            ui.label(board.total_vp().to_string());
            ui.end_row();
        });
}

fn finding(ui: &mut Ui, f: &Finding) {
    let (colour, word) = match f.severity {
        Severity::Error => (ERROR, "error"),
        Severity::Warning => (WARNING, "warning"),
    };
    ui.label(
        RichText::new(format!("{word}[{}]", f.code))
            .color(colour)
            .strong(),
    );
    ui.label(&f.message);
    if let Some(loc) = &f.location {
        ui.label(RichText::new(loc.to_string()).weak().small().monospace());
    }
    ui.add_space(6.0);
}
