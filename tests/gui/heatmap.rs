//! The map heatmaps: the last run's figures over the Map tab, with a legend;
//! a comparison drawn as A − B.

use caesar_workbench::ai::AiSpec;
use caesar_workbench::app::heatmap_view::Layer;
use caesar_workbench::app::{RunGames, RunOutcome, Tab, WorkbenchApp};
use caesar_workbench::sim::runs::options::SimOptions;
use caesar_workbench::sim::{self, Progress};
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn options() -> SimOptions {
    SimOptions::new(6, 2, AiSpec::Random, AiSpec::Random)
}

fn map_tab(outcome: RunOutcome) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 1000.0))
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(None, "rules-2.0"),
        );
    h.run();
    h.get_by_label_contains("run a simulation");
    h.state_mut().sim_panel().result = Some(Ok(outcome));
    h.state_mut().set_tab(Tab::Map);
    h.run();
    h
}

#[test]
fn a_runs_heatmap_shows_on_the_map_with_its_legend() {
    let game = crate::common::published("rules-2.0");
    let report = sim::simulate(&game, "rules-2.0", &options(), &Progress::new(), |_| {}).unwrap();
    let mut h = map_tab(RunOutcome::Single {
        report: Box::new(report),
        csv: String::new(),
        games: Box::new(RunGames {
            game,
            options: options(),
            rows: Vec::new(),
        }),
    });
    h.get_by_label("Overlay");
    h.state_mut().map_overlay().layer = Layer::Control;
    h.run();
    h.get_by_label("Caesar +1.00");
    h.get_by_label("Year 5");
    h.state_mut().map_overlay().year = Some(2);
    h.state_mut().map_overlay().layer = Layer::Battles;
    h.run();
    h.get_by_label("battles per game");
}

#[test]
fn a_comparison_shows_the_difference_map() {
    let (a, b) = (
        crate::common::published("rules-2.0"),
        crate::common::published("rules-1.1"),
    );
    let c = sim::compare(
        [&a, &b],
        ["rules-2.0", "rules-1.1"],
        &options(),
        &Progress::new(),
    )
    .unwrap();
    let mut h = map_tab(RunOutcome::Compare(Box::new(c)));
    h.state_mut().map_overlay().layer = Layer::StepsLost;
    h.run();
    h.get_by_label("rules-2.0 − rules-1.1");
    // The legend in words: which rule set each end means (issue 45).
    h.get_by_label_contains("more under rules-2.0");
    h.get_by_label_contains("more under rules-1.1");
    assert!(h.query_by_label_contains("A more").is_none());
}
