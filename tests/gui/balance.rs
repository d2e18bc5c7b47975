//! The Balance tab: a run from its controls, and the same value the
//! command line reports for the same run.

use caesar_workbench::ai::AiSpec;
use caesar_workbench::app::{Seat, Tab, WorkbenchApp};
use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn balance_tab(size: (f32, f32)) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(None, "rules-2.0"),
        );
    h.run();
    h.state_mut().set_tab(Tab::Balance);
    h.run();
    h
}

#[test]
fn the_balance_view_shows_the_value_the_command_line_reports() {
    let mut h = balance_tab((1500.0, 1000.0));
    let folder = tempfile::tempdir().unwrap();
    let players = "heuristic,random,heuristic:variants/players/tuned-rules-2.0.ron";
    {
        let panel = h.state_mut().balance_panel();
        panel.players = players.to_string();
        panel.only_named = true;
        panel.rounds = 0;
        panel.games = 16;
        panel.first_games = 8;
        panel.seed = 3;
        panel.folder = folder.path().display().to_string();
    }
    h.run();
    h.get_by_label("Run balance").click();
    h.step();
    h.state_mut().balance_panel().wait();
    h.run();
    let window = match &h.state_mut().balance_panel().result {
        Some(Ok(report)) => report.clone(),
        other => panic!("no balance: {other:?}"),
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caesar-workbench"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "balance",
            "--only-named",
            "--players",
            players,
            "--rounds",
            "0",
            "--games",
            "16",
            "--first-games",
            "8",
            "--seed",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        cli["value"]["estimate"].as_f64().unwrap(),
        window.value.estimate
    );
    assert_eq!(cli["table"], serde_json::to_value(&window.table).unwrap());
    // The verdict in words, and each side's equilibrium player a click from the Play tab.
    h.get_by_label_contains("At equilibrium Caesar wins");
    h.get_by_label("Play against Caesar's equilibrium player");
    h.get_by_label("Export heatmap (SVG)…");
    h.get_by_role_and_label(Role::Button, "Resume");
}

#[test]
fn a_balance_kept_for_a_saved_setup_is_what_its_setup_tab_reads_and_play_seats_its_mix() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mine.ron");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/free-deployment-example.ron"
    );
    std::fs::copy(example, &scenario).unwrap();
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 2600.0))
        .build_ui_state(
            |ui, app: &mut WorkbenchApp| app.show(ui),
            WorkbenchApp::new(Some(scenario), "rules-2.0"),
        );
    h.run();
    h.state_mut().set_tab(Tab::Setup);
    h.run();
    h.get_by_label_contains("none measured for this setup yet");
    h.state_mut().set_tab(Tab::Balance);
    h.run();
    {
        let panel = h.state_mut().balance_panel();
        panel.players = "heuristic,random".to_string();
        panel.only_named = true;
        panel.rounds = 0;
        panel.games = 8;
        panel.first_games = 8;
        panel.folder = dir.path().join("run").display().to_string();
    }
    h.run();
    h.get_by_label("Run balance").click();
    h.step();
    h.state_mut().balance_panel().wait();
    h.run();
    h.get_by_label("Keep as this setup's balance").click();
    h.run();
    assert!(
        dir.path().join("mine.players/balance.json").is_file(),
        "{:?}",
        h.query_all_by_label_contains("eep")
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
    );
    h.get_by_label_contains("Kept as this setup's balance");
    // Play seats the side's whole mix, from the run's saved report.
    h.get_by_label("Play against Pompey's equilibrium player")
        .click();
    h.run();
    let seat = h.state_mut().play_panel().settings.seats[1].clone();
    assert!(
        matches!(&seat, Seat::Ai(AiSpec::Equilibrium(_))),
        "{seat:?}"
    );
    h.state_mut().set_tab(Tab::Setup);
    h.run();
    h.get_by_label_contains("At equilibrium Caesar wins");
    h.get_by_label_contains("mine.players/balance.json");
}
