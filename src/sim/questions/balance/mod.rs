//! `balance`: is a setup fair? Caesar's share at equilibrium, where each
//! side plays its best mix of every player we can build against the other
//! side doing the same, and best responses are added until none moves it
//! (Policy-Space Response Oracles, Lanctot et al. 2017, as OpenSpiel runs
//! it with an exact Nash meta-solver).
//!
//! A run alternates two stages, round by round:
//! 1. **The meta-game** ([`table`]): every Caesar player of the population
//!    plays every Pompey player over common seeds (game `k` of every cell
//!    has the same dice). Games go where they decide the equilibrium: every
//!    cell gets a few, then only the cells of players in either mix, or of
//!    players whose optimistic payoff could make them a best response, are
//!    played further, doubling until each has the games asked for
//!    (adaptive sampling of the payoff table, after ResponseGraphUCB,
//!    Rowland et al. 2019). The table is solved exactly ([`solve`]), and
//!    the value's interval is a bootstrap over each cell's games.
//! 2. **Best responses** ([`oracle`]): for each side, players trained
//!    against the other side's mix, each measured against that mix on
//!    seeds no training saw. A response that beats the value by more than
//!    its interval joins the population; the two sides' best gains added
//!    are the round's exploitability.
//!
//! The run stops when neither side's best response gains more than the
//! threshold, when the rounds asked for are done, or when the wall-clock
//! budget would not hold the next stage. After every stage the report so
//! far is handed to a checkpoint, and [`run`] resumes from one: a stage is
//! played from its own seeds, so a resumed run reaches the report an
//! uninterrupted one does.

mod compare;
mod export;
pub mod library;
pub mod measured;
mod merge;
pub mod options;
pub mod oracle;
mod play;
mod population;
pub mod report;
mod run;
pub mod session;
pub mod solve;
pub mod table;
mod text;

pub use compare::{BalanceComparison, compare};
pub use merge::{BalanceMergeError, merge};
pub use options::{BalanceOptions, BalanceOptionsError, NotAnOracle, Oracle};
pub use play::{Challenge, challenge, doubled_points, draw_member};
pub use population::{check_setup, population, reload_players};
pub use report::{
    BalanceError, BalanceReport, Coverage, Interval, Limits, MalformedReport, Member, MirrorShare,
    Origin, Response, Round, Stage, Watch, Weighted, spec_digest, words,
};
pub use run::{cost_rank, run};
pub use solve::{Equilibrium, SolveError};
pub use table::{Cell, Table};

#[cfg(test)]
pub(super) mod tests {
    use super::run::{ready, solve_report};
    use super::text::{oracle_words, untried_oracles};
    use super::*;
    use crate::ai::AiSpec;
    use crate::engine::Game;

    /// A solved table (6 games a cell) of the random player and the
    /// default heuristic on each side, with no rounds.
    pub(in crate::sim::questions::balance) fn solved_report(game: &Game) -> BalanceReport {
        let members = || {
            vec![
                Member::new(crate::ai::AiSpec::Random, Origin::Named),
                Member::new(crate::ai::AiSpec::Heuristic, Origin::Shipped),
            ]
        };
        let options = BalanceOptions {
            first_games: 6,
            games: 6,
            rounds: 0,
            oracles: Vec::new(),
            replicates: 20,
            ..BalanceOptions::default()
        };
        let mut report =
            BalanceReport::start(game, "rules-2.0", options, members(), members()).unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: None,
        };
        run(game, &mut report, &limits, &Watch::new(), &mut |_| {}).unwrap();
        report
    }

    fn report_over(game: &Game, options: BalanceOptions) -> BalanceReport {
        let members = || {
            vec![
                Member::new(AiSpec::Random, Origin::Named),
                Member::new(AiSpec::Heuristic, Origin::Named),
            ]
        };
        BalanceReport::start(game, "rules-2.0", options, members(), members()).unwrap()
    }

    /// A solved report whose table is fixed so that Pompey's heuristic
    /// column loses everything: Pompey's mix is the random player, Caesar's
    /// value 30%, and round 1's best responses are next.
    fn weak_mix_report(game: &Game, rounds: u32) -> BalanceReport {
        let options = BalanceOptions {
            first_games: 30,
            games: 30,
            rounds,
            oracles: vec![Oracle::Tune],
            response_games: 40,
            tune_games: 560,
            // From the side's heaviest member: screened starts make
            // Pompey's response strong enough to join too.
            start_games: 0,
            replicates: 40,
            ..BalanceOptions::default()
        };
        let mut report = report_over(game, options);
        for (i, row) in report.table.cells.iter_mut().enumerate() {
            row[0] = Cell::from_results(
                &"1100000000".repeat(3)[..30].replace('1', if i == 0 { "1" } else { "2" }),
            )
            .unwrap();
            row[1] = Cell::from_results(&"2".repeat(30)).unwrap();
        }
        solve_report(&mut report).unwrap();
        // As the table stage leaves it: round 1 solved, its responses next.
        report.rounds.push(Round {
            round: 1,
            caesar_players: report.caesar.len(),
            pompey_players: report.pompey.len(),
            value: report.value,
            exploitability: None,
            responses: Vec::new(),
        });
        report.stage = Stage::Responses(1);
        report
    }

    #[test]
    fn a_best_response_to_a_fixed_weak_mix_joins_and_raises_that_sides_value() {
        let game = crate::test_support::published("rules-2.0");
        let mut report = weak_mix_report(&game, 1);
        assert_eq!(report.pompey_mix.len(), 1);
        assert_eq!(report.pompey_mix[0].player, "random");
        let before = report.value.estimate;
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: Some(dir.path()),
        };
        run(&game, &mut report, &limits, &Watch::new(), &mut |_| {}).unwrap();
        let trained = report
            .caesar
            .iter()
            .find(|m| {
                matches!(
                    m.origin,
                    Origin::Trained {
                        round: 1,
                        oracle: Oracle::Tune
                    }
                )
            })
            .expect("Caesar's tuned response joined");
        assert!(
            dir.path().join("r1-caesar-tuned.ron").exists(),
            "{}",
            trained.player
        );
        assert!(
            report.value.estimate > before + 0.2,
            "{before} -> {}",
            report.value.estimate
        );
        assert!(report.is_done());
        // Its verdict says the new equilibrium is still to be tested.
        let verdict = report.verdict();
        assert!(
            verdict.contains("Round 1's best responses gained")
                && verdict.contains("no best response has been tried against this equilibrium yet"),
            "{verdict}"
        );
        // The new row was played against every column.
        assert!(report.table.cells[2].iter().all(|c| c.games() == 30));
    }

    #[test]
    fn a_run_resumed_from_any_stage_reaches_the_uninterrupted_report() {
        let game = crate::test_support::published("rules-2.0");
        let options = BalanceOptions {
            first_games: 8,
            games: 16,
            rounds: 1,
            oracles: vec![Oracle::Tune],
            response_games: 20,
            // One CMA-ES generation a tuning: the stages matter here, not
            // how strong the responses are.
            tune_games: options::tune_generation_games(),
            start_games: 20,
            tune_restarts: 2,
            replicates: 20,
            ..BalanceOptions::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: Some(dir.path()),
        };
        let mut whole = report_over(&game, options.clone());
        let mut checkpoints = Vec::new();
        run(&game, &mut whole, &limits, &Watch::new(), &mut |r| {
            checkpoints.push(serde_json::to_string(r).unwrap())
        })
        .unwrap();
        assert!(checkpoints.len() >= 2, "{}", checkpoints.len());
        let strip = |r: &BalanceReport| {
            let mut r = r.clone();
            r.elapsed_seconds = 0.0;
            serde_json::to_string(&r).unwrap()
        };
        // Killed after each stage: read its checkpoint back and go on.
        for saved in &checkpoints {
            let mut resumed: BalanceReport = serde_json::from_str(saved).unwrap();
            reload_players(&mut resumed).unwrap();
            run(&game, &mut resumed, &limits, &Watch::new(), &mut |_| {}).unwrap();
            assert_eq!(strip(&resumed), strip(&whole));
        }
    }

    #[test]
    fn a_cut_table_is_solved_as_far_as_it_got_and_resumes_to_the_whole() {
        let game = crate::test_support::published("rules-2.0");
        let members = || {
            vec![
                Member::new(AiSpec::Search { playouts: 1 }, Origin::Named),
                Member::new(AiSpec::Random, Origin::Named),
                Member::new(AiSpec::Heuristic, Origin::Named),
            ]
        };
        let options = BalanceOptions {
            first_games: 4,
            games: 4,
            rounds: 0,
            oracles: Vec::new(),
            replicates: 20,
            ..BalanceOptions::default()
        };
        let start = || {
            let mut members = members();
            // As `population` orders them: the heuristic family first.
            members.sort_by_key(|m| cost_rank(m.spec()));
            BalanceReport::start(
                &game,
                "rules-2.0",
                options.clone(),
                members.clone(),
                members,
            )
            .unwrap()
        };
        let limits = Limits {
            deadline: None,
            players_dir: None,
        };
        let mut whole = start();
        run(&game, &mut whole, &limits, &Watch::new(), &mut |_| {}).unwrap();
        assert_eq!(whole.coverage.unwrap().solved, [3, 3]);
        assert_eq!(whole.coverage_words(), None);
        // Cancelled the moment the heuristic family's table is solved.
        let mut cut = start();
        let watch = Watch::new();
        run(&game, &mut cut, &limits, &watch, &mut |_| {
            watch.progress.cancel()
        })
        .unwrap();
        assert!(
            cut.paused && cut.stage == Stage::Table(1),
            "{:?}",
            cut.stage
        );
        assert!(
            cut.stopped.contains("cancelled during round 1's table"),
            "{}",
            cut.stopped
        );
        assert_eq!(cut.coverage.unwrap().solved, [2, 2]);
        assert!(!cut.caesar_mix.is_empty() && cut.value.estimate.is_finite());
        assert_eq!(cut.caesar_regret.len(), 2);
        let words = cut.verdict();
        assert!(
            words.contains("It rests on 2 of Caesar's 3 players"),
            "{words}"
        );
        // Read back from its checkpoint and resumed: the uninterrupted report.
        let mut resumed: BalanceReport =
            serde_json::from_str(&serde_json::to_string(&cut).unwrap()).unwrap();
        reload_players(&mut resumed).unwrap();
        run(&game, &mut resumed, &limits, &Watch::new(), &mut |_| {}).unwrap();
        let strip = |r: &BalanceReport| {
            let mut r = r.clone();
            r.elapsed_seconds = 0.0;
            serde_json::to_string(&r).unwrap()
        };
        assert_eq!(strip(&resumed), strip(&whole));
    }

    #[test]
    fn the_table_is_solved_over_the_players_whose_pairings_hold_their_first_games() {
        let mut t = Table::new(3, 3);
        let two = Cell::from_results("20").unwrap();
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)] {
            t.cells[i][j] = two.clone();
        }
        // Column 2 is empty: three Caesar players against two Pompey ones.
        assert_eq!(ready(&t, 2), [3, 2]);
        t.cells[0][2] = Cell::from_results("2").unwrap();
        assert_eq!(ready(&t, 2), [3, 2], "a pairing short of its first games");
        assert_eq!(
            ready(&t, 1),
            [3, 2],
            "row 1's pairing with column 2 is empty"
        );
        assert_eq!(ready(&Table::new(2, 2), 1), [0, 0]);
    }

    #[test]
    fn a_run_that_did_its_rounds_goes_on_when_resumed_with_more() {
        let game = crate::test_support::published("rules-2.0");
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits {
            deadline: None,
            players_dir: Some(dir.path()),
        };
        let strip = |r: &BalanceReport| {
            let mut r = r.clone();
            r.elapsed_seconds = 0.0;
            serde_json::to_string(&r).unwrap()
        };
        // One CMA-ES generation a tuning: what is compared is the resumed
        // run against the whole one, not how strong their responses are.
        let light = |rounds| {
            let mut report = weak_mix_report(&game, rounds);
            report.options.tune_games = options::tune_generation_games();
            report
        };
        let mut whole = light(2);
        run(&game, &mut whole, &limits, &Watch::new(), &mut |_| {}).unwrap();
        let mut short = light(1);
        run(&game, &mut short, &limits, &Watch::new(), &mut |_| {}).unwrap();
        assert!(short.is_done() && short.paused, "{}", short.stopped);
        assert_eq!(short.rounds.last().map(|r| r.round), Some(2));
        // Nothing more to do at the rounds it had.
        let mut same = short.clone();
        assert!(!same.go_on(None));
        assert!(same.is_done());
        assert!(short.go_on(Some(2)));
        assert_eq!(short.stage, Stage::Responses(2));
        run(&game, &mut short, &limits, &Watch::new(), &mut |_| {}).unwrap();
        assert_eq!(strip(&short), strip(&whole));
    }

    #[test]
    fn a_verdict_names_the_trainings_it_rests_on_unless_all_ran() {
        assert_eq!(untried_oracles(&Oracle::ALL), None);
        assert_eq!(
            oracle_words(&[Oracle::Tune, Oracle::Search]),
            "tuning and a search that plans against the mix"
        );
        assert_eq!(
            untried_oracles(&[Oracle::Search]).as_deref(),
            Some("tuned players and learned values")
        );
    }

    #[test]
    fn words_name_a_player_for_a_designer() {
        assert_eq!(
            words(&AiSpec::Search { playouts: 16 }),
            "Search (16 playouts)"
        );
        assert_eq!(words(&AiSpec::Heuristic), "Heuristic (default numbers)");
    }
}
