//! The players the window offers (issue 29): the best player for the rule
//! set first in every menu, player files and searches on them, ladder rungs
//! from the menu, and tune run from the Simulate tab in the background.

use std::path::PathBuf;

use caesar_workbench::ai::{AiSpec, HeuristicParams, PlayerNumbers, TunedHeuristic};
use caesar_workbench::app::{
    FileDialogs, FileRequest, NativeDialog, RunOutcome, Seat, Tab, WorkbenchApp,
};
use caesar_workbench::scenario::model::Side;
use caesar_workbench::sim::players::ratings;
use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

fn harness(app: WorkbenchApp, tab: Tab) -> Harness<'static, WorkbenchApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    h.run();
    h.state_mut().set_tab(tab);
    h.run();
    h
}

fn window(tab: Tab) -> Harness<'static, WorkbenchApp> {
    harness(WorkbenchApp::new(None, "rules-2.0"), tab)
}

/// Opens the combo box labelled `menu`.
fn open(h: &mut Harness<'_, WorkbenchApp>, menu: &str) {
    h.get_by_role_and_label(Role::ComboBox, menu).click();
    h.run();
}

/// The top of the first entry whose label contains `text`.
fn top(h: &Harness<'_, WorkbenchApp>, text: &str) -> f32 {
    h.query_all_by_label_contains(text)
        .next()
        .unwrap_or_else(|| panic!("no entry \"{text}\""))
        .rect()
        .min
        .y
}

#[test]
fn the_seat_menu_offers_the_best_player_first_and_a_game_seats_it() {
    let best = ratings::best("rules-2.0").unwrap();
    let shipped = ratings::shipped();
    let rating = ratings::ranked(&shipped, "rules-2.0")[0];
    assert_eq!(rating.player, best.to_string());
    let mut h = window(Tab::Play);
    // The AI decides only when asked: the test checks the seat, not a game.
    h.state_mut().play_panel().paused = true;
    open(&mut h, "Pompey");
    let entry = h.get_by_label_contains("Strongest for rules-2.0: ");
    let text = entry.accesskit_node().label().unwrap_or_default();
    // In words (issue 45): what kind of player, its numbers' rule set; the
    // spec ("mcts:64@…") is the hover text only.
    assert!(text.contains("search ("), "{text}");
    assert!(text.contains("rules 2.0"), "{text}");
    assert!(!text.contains('@') && !text.contains(".ron"), "{text}");
    assert!(
        text.contains(&format!("{:.1}%", rating.score.estimate * 100.0)),
        "{text}"
    );
    assert!(top(&h, "Strongest for rules-2.0: ") < top(&h, "human"));
    assert!(top(&h, "human") < top(&h, "Random"));
    entry.click();
    h.run();
    assert_eq!(
        h.state_mut().play_panel().settings.seats[1],
        Seat::Ai(best.clone())
    );
    h.get_by_label("Start game").click();
    h.run();
    let session = h.state_mut().play_panel().session().expect("a game");
    assert_eq!(session.seats, [Seat::Human, Seat::Ai(best)]);
}

#[test]
fn the_simulate_menus_offer_searches_on_player_files() {
    let mut h = window(Tab::Simulation);
    open(&mut h, "Caesar AI");
    h.get_by_label_contains("Strongest for rules-2.0: ");
    assert!(top(&h, "Strongest for rules-2.0: ") < top(&h, "Random"));
    // The menu scrolls: six shipped files, each as a heuristic and under
    // both searches.
    let words = "Tree search (64 playouts, fitted for rules 1.1)";
    h.get_by_label(words).scroll_to_me();
    h.run();
    h.get_by_label(words).click();
    h.run();
    assert_eq!(
        h.state_mut().sim_panel().caesar.to_string(),
        "mcts:64@variants/players/tuned-rules-1.1.ron"
    );
    // A search on a player file has a budget to set, like any search.
    h.get_by_role_and_label(Role::SpinButton, "Caesar playouts");
}

#[test]
fn the_ladder_rung_picker_offers_player_files() {
    let mut h = window(Tab::Simulation);
    open(&mut h, "Add a rung");
    h.query_all_by_label_contains("Heuristic (fitted for rules 2.0)")
        .next()
        .expect("the shipped player file is offered")
        .click();
    h.run();
    let players: Vec<String> = h
        .state_mut()
        .sim_panel()
        .ladder
        .players()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        players,
        [
            "random",
            "heuristic",
            "heuristic:variants/players/tuned-rules-2.0.ron"
        ]
    );
    // The added rung can be taken away again.
    h.get_by_label("× Heuristic (fitted for rules 2.0)").click();
    h.run();
    assert_eq!(h.state_mut().sim_panel().ladder.players().len(), 2);
}

#[test]
fn the_ladder_rung_picker_offers_the_best_player_a_search_scored_by_a_learned_value() {
    let best = ratings::best("rules-2.0").unwrap();
    let value = match &best {
        AiSpec::SearchOn(on) => on.value.as_ref().map(|v| v.path.clone()),
        _ => None,
    };
    assert_eq!(
        value.as_deref(),
        Some("variants/players/value-rules-2.0.ron"),
        "the best player for 2.0 searches with the learned value: {best}"
    );
    let mut h = window(Tab::Simulation);
    open(&mut h, "Add a rung");
    let entry = h.get_by_label_contains("Strongest for rules-2.0: ");
    let text = entry.accesskit_node().label().unwrap_or_default();
    assert!(text.contains("learned value"), "{text}");
    entry.click();
    h.run();
    let players = h.state_mut().sim_panel().ladder.players().to_vec();
    assert_eq!(players.last(), Some(&best));
}

/// A desktop dialog where the user picks `0` at once.
struct Picks(PathBuf);

impl NativeDialog for Picks {
    fn ask(&mut self, _: &FileRequest) -> Option<PathBuf> {
        Some(self.0.clone())
    }
}

/// The Simulate tab with the Tune panel open and a run of `generations`
/// generations of two candidates of two games each, with `check` games.
fn tune_panel(app: WorkbenchApp, generations: f64, check: f64) -> Harness<'static, WorkbenchApp> {
    let mut h = harness(app, Tab::Simulation);
    h.get_by_label("Tune a player").click();
    h.run();
    for (setting, value) in [
        ("Games per candidate", 2.0),
        ("Population", 2.0),
        ("Generations", generations),
        ("Check games", check),
    ] {
        h.get_by_role_and_label(Role::SpinButton, setting)
            .set_value_accesskit(value);
        h.run();
    }
    h
}

#[test]
fn a_tune_of_one_side_from_the_window_keeps_the_other_sides_numbers() {
    let mut h = tune_panel(WorkbenchApp::new(None, "rules-2.0"), 1.0, 2.0);
    h.get_by_role_and_label(Role::ComboBox, "Tune").click();
    h.run();
    h.get_by_label("Pompey only, against the opponent's Caesar")
        .click();
    h.run();
    h.get_by_label("Run tune").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    match &h.state_mut().sim_panel().result {
        Some(Ok(RunOutcome::Tune(r))) => {
            assert_eq!(r.options.side, Some(Side::Pompey));
            assert_eq!(r.tuned.caesar, HeuristicParams::default(), "Caesar's stay");
            assert_ne!(r.tuned.pompey, HeuristicParams::default(), "Pompey's moved");
        }
        _ => panic!("no tune"),
    }
    h.get_by_label("Pompey's gain");
}

#[test]
fn a_tune_runs_from_the_window_and_its_player_is_saved_and_used() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tuned.ron");
    let app = WorkbenchApp::new(None, "rules-2.0")
        .with_file_dialogs(FileDialogs::with_native(Box::new(Picks(path.clone()))));
    let mut h = tune_panel(app, 1.0, 2.0);
    h.get_by_label("Run tune").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    let tuned = match &h.state_mut().sim_panel().result {
        Some(Ok(RunOutcome::Tune(r))) => {
            assert_eq!(r.generations.len(), 1);
            assert_eq!(r.games_played, 2 * 2 + 2 * 2, "search and check games");
            r.tuned
        }
        _ => panic!("no tune"),
    };
    h.get_by_label_contains("Against its opponent on 2 games");
    h.get_by_label("Save player file…").click();
    h.run();
    assert_eq!(PlayerNumbers::load(&path).unwrap(), tuned);
    h.get_by_label_contains("Saved as ");
    let player = Seat::Ai(AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
        path: path.display().to_string(),
        numbers: tuned,
    })));
    h.get_by_role_and_label(Role::Button, "Caesar AI").click();
    h.get_by_label("Pompey's seat in Play").click();
    h.run();
    assert_eq!(Seat::Ai(h.state_mut().sim_panel().caesar.clone()), player);
    assert_eq!(h.state_mut().play_panel().settings.seats[1], player);
}

#[test]
fn cancel_stops_a_tune() {
    let mut h = tune_panel(WorkbenchApp::new(None, "rules-2.0"), 10_000.0, 0.0);
    h.get_by_label("Run tune").click();
    h.run();
    assert!(h.state_mut().sim_panel().is_running());
    h.get_by_label("Cancel tune").click();
    h.step();
    h.state_mut().sim_panel().wait();
    h.run();
    assert!(matches!(
        &h.state_mut().sim_panel().result,
        Some(Err(e)) if e.to_string() == "cancelled"
    ));
    h.get_by_label("The run stopped: cancelled");
}

#[test]
fn player_files_from_disk_become_ladder_rungs_and_tune_opponents() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    let params = HeuristicParams {
        attack_ratio: 0.8,
        ..Default::default()
    };
    std::fs::write(&path, params.to_ron("test")).unwrap();
    let app = WorkbenchApp::new(None, "rules-2.0")
        .with_file_dialogs(FileDialogs::with_native(Box::new(Picks(path.clone()))));
    let mut h = harness(app, Tab::Simulation);
    open(&mut h, "Add a rung");
    h.get_by_label("heuristic from file…").click();
    h.run();
    h.run();
    let rung = AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
        path: path.display().to_string(),
        numbers: PlayerNumbers::both(params),
    }));
    assert_eq!(
        h.state_mut().sim_panel().ladder.players().last(),
        Some(&rung)
    );
    h.get_by_label("Tune a player").click();
    h.run();
    open(&mut h, "Opponent");
    h.get_by_label("heuristic from file…").click();
    h.run();
    h.run();
    h.get_by_value("Heuristic (mine.ron)");
}

/// Frames until `done` holds, at most `seconds` of wall time.
fn run_until(
    h: &mut Harness<'_, WorkbenchApp>,
    seconds: u64,
    mut done: impl FnMut(&mut Harness<'_, WorkbenchApp>) -> bool,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while !done(h) {
        assert!(
            std::time::Instant::now() < deadline,
            "not done in {seconds} s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run();
    }
}

#[test]
fn fit_players_on_a_custom_setup_offers_its_fitted_player_first() {
    // A custom order of battle (the free-deployment example) saved to a
    // folder of its own, under rules 1.1 (whose best player is cheap to
    // measure against, so a tiny fit stays short).
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mine.ron");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/free-deployment-example.ron"
    );
    std::fs::copy(example, &scenario).unwrap();
    let mut h = harness(
        WorkbenchApp::new(Some(scenario.clone()), "rules-1.1"),
        Tab::Setup,
    );
    // Before the fit the players are transferred, and say so.
    h.get_by_label_contains("strongest for rules-1.1");
    h.get_by_label_contains("not measured on this setup");
    h.get_by_role_and_label(Role::SpinButton, "Budget (minutes)")
        .set_value_accesskit(0.1);
    h.run();
    h.get_by_label("Fit players…").click();
    h.run();
    run_until(&mut h, 600, |h| {
        h.query_by_label_contains("The last fit's report").is_some()
            || h.query_by_label_contains("The fit stopped").is_some()
    });
    assert!(
        h.query_by_label_contains("The fit stopped").is_none(),
        "the fit ends with its report"
    );
    // The report rendered, not Markdown (issue 55, item 5): its heading,
    // its table as a grid, no "#" nor "|" of the file.
    h.get_by_label("The last fit's report").click();
    h.run();
    h.get_by_label_contains("Players fitted for");
    h.get_by_label("against the default heuristic");
    assert!(h.query_all_by_label_contains("# Players").next().is_none());
    assert!(h.query_all_by_label_contains("|---|").next().is_none());
    // best and fast, each in a sentence where they are offered.
    h.get_by_label_contains("best: the strongest player measured for this setup");
    let bundle = dir.path().join("mine.players");
    assert!(
        bundle.join("ratings.ron").is_file(),
        "the bundle beside the setup"
    );
    // The menus offer the setup's own player first, with its figure here.
    h.state_mut().set_tab(Tab::Play);
    h.run();
    h.state_mut().play_panel().paused = true;
    open(&mut h, "Pompey");
    let first = h.get_by_label_contains("For this setup (measured here): ");
    let text = first.accesskit_node().label().unwrap_or_default();
    assert!(text.ends_with('%'), "its figure measured here: {text}");
    assert!(
        top(&h, "For this setup (measured here): ") < top(&h, "human"),
        "offered first"
    );
}

#[test]
fn the_setup_tab_says_the_balance_measured_for_the_setup_and_what_it_rests_on() {
    // The published game under 2.0: the built-in balance.
    let h = window(Tab::Setup);
    h.get_by_label_contains("At equilibrium Caesar wins");
    h.get_by_label_contains("variants/players/balance-rules-2.0.json");
    h.get_by_label_contains("trained as best responses");
    // A setup of its own has none until its folder holds one.
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("mine.ron");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/free-deployment-example.ron"
    );
    std::fs::copy(example, &scenario).unwrap();
    let h = harness(
        WorkbenchApp::new(Some(scenario.clone()), "rules-2.0"),
        Tab::Setup,
    );
    h.get_by_label_contains("none measured for this setup yet");
    // A report of another setup in its folder is refused in words.
    std::fs::create_dir(dir.path().join("mine.players")).unwrap();
    std::fs::write(
        dir.path().join("mine.players/balance.json"),
        caesar_workbench::ai::shipped::BALANCES[1].1,
    )
    .unwrap();
    let h = harness(WorkbenchApp::new(Some(scenario), "rules-2.0"), Tab::Setup);
    h.get_by_label_contains("was made on another setup");
}
