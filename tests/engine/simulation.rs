//! Simulation runs: determinism across thread counts, shards that merge into
//! the single run, common random numbers in comparisons, and AI strength.

use caesar_workbench::ai::AiSpec;
use caesar_workbench::engine::Game;
use caesar_workbench::sim::runs::cluster::Shard;
use caesar_workbench::sim::runs::merge::MergeError;
use caesar_workbench::sim::runs::options::SimOptions;
use caesar_workbench::sim::runs::report::{Merge, SimReport};
use caesar_workbench::sim::{self, Progress};

fn options(games: u64, caesar: AiSpec, pompey: AiSpec) -> SimOptions {
    SimOptions {
        games,
        seed: 42,
        caesar,
        pompey,
        omniscient: false,
        shard: None,
    }
}

fn run(game: &Game, opts: &SimOptions, threads: usize) -> SimReport {
    crate::common::on_threads(threads, || {
        sim::simulate(game, "rules-2.0", opts, &Progress::new(), |_| {})
    })
    .unwrap()
}

/// The report without wall-clock figures, which no two runs share.
fn timeless(mut r: SimReport) -> SimReport {
    r.elapsed_seconds = 0.0;
    r.games_per_second = 0.0;
    r.raw.elapsed_seconds = 0.0;
    r
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let game = crate::common::published("rules-2.0");
    let opts = options(40, AiSpec::Heuristic, AiSpec::Random);
    let one = timeless(run(&game, &opts, 1));
    let two = timeless(run(&game, &opts, 2));
    assert_eq!(one, two);
    assert_eq!(one.games, 40);
    assert_eq!(one.caesar_wins + one.pompey_wins + one.draws, 40);
}

#[test]
fn shards_merge_into_the_single_run() {
    let game = crate::common::published("rules-2.0");
    let whole = options(30, AiSpec::Random, AiSpec::Heuristic);
    let single = timeless(run(&game, &whole, 2));
    let parts: Vec<SimReport> = ["1/3", "2/3", "3/3"]
        .iter()
        .map(|s| {
            let mut o = whole.clone();
            o.shard = Some(s.parse::<Shard>().unwrap());
            run(&game, &o, 1)
        })
        .collect();
    assert_eq!(parts.iter().map(|p| p.games).sum::<u64>(), 30);
    // Through JSON, as `merge` reads them.
    let parts: Vec<SimReport> = parts
        .iter()
        .map(|p| serde_json::from_str(&serde_json::to_string(p).unwrap()).unwrap())
        .collect();
    let merged = timeless(SimReport::merge(&parts).unwrap());
    assert_eq!(merged, single);
    assert_eq!(merged.game_ranges, vec![(0..30).into()]);
    // The same shard twice is refused, naming the games counted twice.
    let twice = SimReport::merge(&[parts[0].clone(), parts[0].clone()]).unwrap_err();
    assert!(
        matches!(twice, MergeError::Overlap { common, .. } if common == (0..10).into()),
        "{twice}"
    );
    assert!(
        twice.to_string().contains("overlap in games 0–9"),
        "{twice}"
    );
}

#[test]
fn game_records_replay_exactly() {
    let game = crate::common::published("rules-1.1");
    let opts = options(5, AiSpec::Heuristic, AiSpec::Heuristic);
    for i in 0..5 {
        assert_eq!(
            sim::play_one(&game, &opts, i),
            sim::play_one(&game, &opts, i)
        );
    }
}

#[test]
fn comparing_a_variant_with_itself_finds_no_difference() {
    let game = crate::common::published("rules-2.0");
    let opts = options(20, AiSpec::Heuristic, AiSpec::Random);
    let report = sim::compare([&game, &game], ["a", "b"], &opts, &Progress::new()).unwrap();
    let d = report.caesar_win_rate_difference;
    assert_eq!(d.estimate, 0.0);
    assert_eq!(d.p_value, 1.0);
    assert!(!d.significant);
    assert_eq!(report.a.caesar_wins, report.b.caesar_wins);
}

#[test]
fn a_cancelled_run_stops_with_an_error() {
    let game = crate::common::published("rules-2.0");
    let opts = options(10_000, AiSpec::Random, AiSpec::Random);
    let progress = Progress::new();
    progress.cancel();
    let result = sim::simulate(&game, "rules-2.0", &opts, &progress, |_| {});
    assert!(result.is_err());
    assert!(progress.done() < 10_000);
}

#[test]
fn heuristic_beats_random_from_either_side() {
    // The full figures (thousands of games) are in the notes; here a modest
    // sample with a wide margin below the 90% goal.
    let game = crate::common::published("rules-2.0");
    let as_caesar = run(&game, &options(40, AiSpec::Heuristic, AiSpec::Random), 2);
    let as_pompey = run(&game, &options(40, AiSpec::Random, AiSpec::Heuristic), 2);
    assert!(as_caesar.caesar_wins >= 34, "{}", as_caesar.caesar_wins);
    assert!(as_pompey.pompey_wins >= 34, "{}", as_pompey.pompey_wins);
}

#[test]
fn csv_rows_come_in_game_order() {
    let game = crate::common::published("rules-2.0");
    let opts = options(20, AiSpec::Random, AiSpec::Random);
    let mut rows = Vec::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        sim::simulate(&game, "x", &opts, &Progress::new(), |r| rows.push(r.index)).unwrap()
    });
    assert_eq!(rows, (0..20).collect::<Vec<u64>>());
}

#[test]
fn the_summary_says_never_played_instead_of_a_win_rate_of_nothing() {
    let game = crate::common::published("rules-2.0");
    let mut report = run(&game, &options(6, AiSpec::Random, AiSpec::Random), 1);
    report.events[0].caesar.played_in = 0.0;
    report.events[0].pompey.played_in = 0.5;
    report.events[0].pompey.win_rate_when_played.estimate = 0.25;
    let text = report.to_string();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&report.events[0].card))
        .expect("a line per event card");
    assert!(line.contains("Caesar never played"), "{line}");
    assert!(line.contains("Pompey  25.0%"), "{line}");
}

#[test]
fn search_beats_heuristic_over_both_sides() {
    // The goal is 65% over both sides (measured with 256 playouts in the
    // notes). The mirror gives each heuristic 50% over both sides by
    // symmetry, so a modest sample with a small budget must clear 50%:
    // search:8 wins 34 of 60 here (10 of 30 as Caesar, 24 as Pompey), where
    // the heuristic mirror on these seeds wins 30 (6 and 24); search:32
    // wins 33 at four times the cost (50 s of CI's build-time goal).
    let game = crate::common::published("rules-2.0");
    let search = AiSpec::Search { playouts: 8 };
    let as_caesar = run(&game, &options(30, search.clone(), AiSpec::Heuristic), 2);
    let as_pompey = run(&game, &options(30, AiSpec::Heuristic, search), 2);
    let wins = as_caesar.caesar_wins + as_pompey.pompey_wins;
    assert!(
        wins > 30,
        "search won {wins} of 60 ({} as Caesar, {} as Pompey)",
        as_caesar.caesar_wins,
        as_pompey.pompey_wins
    );
}

#[test]
fn mcts_beats_random_from_either_side() {
    // A wide-margin check that the tree search plays sensibly at a tiny
    // budget (its measured strength against heuristic and search:256 is in
    // docs/simulation.md): 4 playouts a decision, 4 games from each side.
    let game = crate::common::published("rules-2.0");
    let mcts = AiSpec::Mcts { playouts: 4 };
    let as_caesar = run(&game, &options(4, mcts.clone(), AiSpec::Random), 2);
    let as_pompey = run(&game, &options(4, AiSpec::Random, mcts), 2);
    let wins = as_caesar.caesar_wins + as_pompey.pompey_wins;
    assert!(
        wins >= 7,
        "mcts:4 won {wins} of 8 against random ({} as Caesar, {} as Pompey)",
        as_caesar.caesar_wins,
        as_pompey.pompey_wins
    );
}
