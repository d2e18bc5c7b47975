//! The workbench window, driven headless with egui_kittest (no GPU, no
//! rendering): the accessibility tree stands in for the screen.

use std::path::PathBuf;

use caesar_workbench::app::WorkbenchApp;
use egui::{Event, Modifiers, MouseWheelUnit, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness(app: WorkbenchApp) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1400.0, 860.0))
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    h.run();
    h
}

fn built_in() -> Harness<'static, WorkbenchApp> {
    harness(WorkbenchApp::new(None, "rules-2.0"))
}

/// A scenario file in a fresh temporary folder.
fn scenario_file(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("scenario.ron");
    std::fs::write(&path, text).expect("write scenario");
    (dir, path)
}

/// The middle of the map area.
fn map_centre(h: &Harness<'_, WorkbenchApp>) -> Pos2 {
    h.state().view().area().center()
}

#[test]
fn the_published_game_validates_clean_and_every_space_is_on_the_map() {
    let h = built_in();
    let report = h.state().report().expect("the built-in scenario loads");
    assert_eq!(report.errors(), 0);
    h.get_by_label("0 errors");
    h.get_by_label("0 warnings");
    // Top bar and side panel both name the scenario.
    assert!(
        h.query_all_by_label("Julius Caesar, 705 (49 BC)").count() >= 2,
        "scenario name shown"
    );
    for space in [
        "Roma",
        "Alexandria",
        "Gades",
        "Byzantium",
        "Mare Internum",
        "Creta",
    ] {
        h.get_by_label(space);
    }
    // At the fitted view every space of the board has its node.
    for space in &report.scenario.board.spaces {
        assert!(
            h.query_by_label(&space.name).is_some(),
            "{} is not on the map",
            space.name
        );
    }
    h.get_by_label_contains("76: 19 cities");
    h.get_by_label_contains("63: 31 Caesar, 32 Pompey");
    h.get_by_label_contains("27: 7 events");
    h.get_by_label_contains("Variant: rules-2.0");
}

#[test]
fn a_link_to_an_unknown_space_is_listed_as_an_error_with_its_location() {
    let text = caesar_workbench::scenario::HISTORICAL_SCENARIO
        .replace(r#"Major("Genua", "Roma"),"#, r#"Major("Genua", "Romaa"),"#);
    assert_ne!(text, caesar_workbench::scenario::HISTORICAL_SCENARIO);
    let (_dir, path) = scenario_file(&text);
    let h = harness(WorkbenchApp::new(Some(path.clone()), "rules-2.0"));
    let report = h.state().report().expect("the scenario parses");
    assert!(report.has("unknown-name"));
    let errors = report.errors();
    assert!(errors >= 1);
    h.get_by_label(&if errors == 1 {
        "1 error".to_string()
    } else {
        format!("{errors} errors")
    });
    h.get_by_label("error[unknown-name]");
    h.get_by_label_contains(r#"Genua - Romaa: unknown space "Romaa" (did you mean "Roma"?)"#);
    // The location points into the file, line and column.
    let line = text_line(&text_of_file(&path), "Romaa");
    h.get_by_label_contains(&format!("scenario.ron:{line}:"));
}

#[test]
fn the_error_filter_hides_errors() {
    let text = caesar_workbench::scenario::HISTORICAL_SCENARIO
        .replace(r#"Major("Genua", "Roma"),"#, r#"Major("Genua", "Romaa"),"#);
    let (_dir, path) = scenario_file(&text);
    let mut h = harness(WorkbenchApp::new(Some(path), "rules-2.0"));
    h.get_by_label("error[unknown-name]");
    h.get_by_label("Errors").click();
    h.run();
    assert!(h.query_by_label("error[unknown-name]").is_none());
    h.get_by_label("Errors").click();
    h.run();
    h.get_by_label("error[unknown-name]");
}

#[test]
fn an_unreadable_scenario_still_opens_the_window_and_shows_where() {
    let (_dir, path) = scenario_file(
        "Scenario(\n    name: \"Broken\",\n    map: (spaces: [(name: \"A\", kind: Town, at: (1, 2))], links: []),\n)\n",
    );
    let h = harness(WorkbenchApp::new(Some(path), "rules-2.0"));
    let error = h.state().load_error().expect("load fails").to_string();
    assert!(error.contains("scenario.ron:3:"), "{error}");
    assert!(error.contains("Town"), "{error}");
    assert!(h.state().report().is_none());
    assert!(
        h.query_all_by_label("The scenario could not be loaded")
            .count()
            >= 1,
        "the failure is announced"
    );
    assert!(h.query_all_by_label_contains("scenario.ron:3:").count() >= 1);
}

#[test]
fn a_missing_file_is_reported_not_fatal() {
    let h = harness(WorkbenchApp::new(
        Some(PathBuf::from("/nonexistent/none.ron")),
        "rules-2.0",
    ));
    let error = h.state().load_error().expect("load fails");
    assert!(error.contains("none.ron"), "{error}");
    assert!(h.query_all_by_label_contains("cannot read").count() >= 1);
}

#[test]
fn the_wheel_zooms_around_the_pointer_and_fit_restores_the_view() {
    let mut h = built_in();
    let fitted = *h.state().view();
    assert!(fitted.is_fitted());
    let at = map_centre(&h) + vec2(-120.0, 60.0);
    let under = fitted.to_map(at);

    h.hover_at(at);
    h.event(Event::MouseWheel {
        unit: MouseWheelUnit::Line,
        delta: vec2(0.0, 4.0),
        modifiers: Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
    });
    h.run();
    let zoomed = *h.state().view();
    assert!(
        zoomed.zoom() > fitted.zoom() * 1.2,
        "{} -> {}",
        fitted.zoom(),
        zoomed.zoom()
    );
    assert!(!zoomed.is_fitted());
    // The canvas point under the pointer stays there.
    assert!((zoomed.to_map(at) - under).length() < 1.0);

    h.get_by_label("Fit").click();
    h.run();
    assert_eq!(*h.state().view(), fitted);
}

#[test]
fn dragging_pans_the_map() {
    let mut h = built_in();
    let fitted = *h.state().view();
    // Start on open ground off the canvas, below the map.
    let from = Pos2::new(map_centre(&h).x, fitted.area().bottom() - 10.0);
    let to = from + vec2(80.0, -40.0);
    h.hover_at(from);
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    for k in 1..=8 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 8.0)));
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    let moved = *h.state().view();
    assert!(!moved.is_fitted());
    assert_eq!(moved.zoom(), fitted.zoom());
    let shift = moved.to_screen(Pos2::ZERO) - fitted.to_screen(Pos2::ZERO);
    // egui starts a drag after a few points of movement, so allow for it.
    assert!((shift - vec2(80.0, -40.0)).length() < 12.0, "{shift:?}");
}

#[test]
fn hovering_a_city_shows_its_card() {
    let mut h = Harness::builder()
        .with_size(vec2(1400.0, 860.0))
        .with_step_dt(0.1)
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(None, "rules-2.0"),
        );
    h.run();
    h.get_by_label("Roma").hover();
    h.run_steps(12);
    let roma = h.state().hovered_space().expect("a space is hovered");
    let report = h.state().report().expect("loaded");
    assert_eq!(report.scenario.board.name(roma), "Roma");
    h.get_by_label_contains("Winter supply: 5 blocks (3 + 2 VP)");
    h.get_by_label_contains("Also called: Rome");
    h.get_by_label_contains("Genua, Neapolis");
    // Once on the map, once in the card's list of seas.
    assert_eq!(h.query_all_by_label("Mare Tyrrhenum").count(), 2);
}

#[test]
fn hovering_a_deployed_city_lists_its_blocks() {
    let mut h = Harness::builder()
        .with_size(vec2(1400.0, 860.0))
        .with_step_dt(0.1)
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(None, "rules-2.0"),
        );
    h.run();
    h.get_by_label("Alexandria").hover();
    h.run_steps(12);
    h.get_by_label_contains("Pompey: Cleopatra (Cleopatra), Navis 2 (navis)");
}

#[test]
fn choosing_a_variant_revalidates() {
    let mut h = built_in();
    assert_eq!(h.state().variant(), "rules-2.0");
    h.get_by_label("Variant").click();
    h.run();
    h.get_by_label("rules-1.1").click();
    h.run();
    assert_eq!(h.state().variant(), "rules-1.1");
    assert!(h.state().rules_error().is_none());
    h.get_by_label_contains("Variant: rules-1.1");
    h.get_by_label("0 errors");
}

#[test]
fn an_unknown_variant_is_shown_and_the_map_still_drawn() {
    let h = harness(WorkbenchApp::new(None, "no-such-rules"));
    assert!(h.state().rules_error().is_some());
    assert!(h.query_all_by_label_contains("could not be loaded").count() >= 1);
    h.get_by_label("Roma");
}

fn text_of_file(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).expect("read back")
}

/// 1-based line of the first occurrence of `needle`.
fn text_line(text: &str, needle: &str) -> usize {
    let at = text.find(needle).expect("needle in file");
    text[..at].matches('\n').count() + 1
}

#[test]
fn a_custom_map_is_drawn_without_the_published_coastline() {
    let (_dir, path) = scenario_file(
        r#"Scenario(
    name: "Three towns",
    extends: "historical.ron",
    map: (
        spaces: [
            (name: "Alpha", kind: City, vp: 1, at: (100, 100)),
            (name: "Beta", kind: Port, at: (300, 120)),
            (name: "Gamma Sea", kind: Sea, at: (320, 300)),
        ],
        links: [Major("Alpha", "Beta"), Sea("Beta", "Gamma Sea")],
    ),
)
"#,
    );
    let h = harness(WorkbenchApp::new(Some(path), "rules-2.0"));
    assert!(h.state().load_error().is_none());
    for name in ["Alpha", "Beta", "Gamma Sea"] {
        h.get_by_label(name);
    }
    h.get_by_label_contains("no coastline drawn");
    // In the top bar and as the side panel's heading.
    assert_eq!(h.query_all_by_label("Three towns").count(), 2);
}
