//! Invariants over many random games under both rulebooks.

use caesar_workbench::ai::{Player, RandomPlayer, decide};
use caesar_workbench::engine::{Game, State};

fn random_game(game: &Game, seed: u64) -> (State, Vec<caesar_workbench::engine::Action>) {
    let mut players: [Box<dyn Player>; 2] = [
        Box::new(RandomPlayer::new(seed ^ 0xC0FFEE)),
        Box::new(RandomPlayer::new(seed ^ 0xBEEF)),
    ];
    let mut state = State::new(game, seed);
    let mut legal = Vec::new();
    let mut history = Vec::new();
    while let Some(side) = state.current_player() {
        state.legal_actions(game, &mut legal);
        assert!(!legal.is_empty(), "no legal action, seed {seed}");
        let action = decide(&mut players[side.index()], game, &state, &legal);
        history.push(action);
        state.apply(game, action);
        if let Err(e) = state.check_invariants(game) {
            panic!(
                "seed {seed} after {action:?}: {e}\n{}",
                state.describe(game)
            );
        }
        assert!(history.len() < 200_000, "seed {seed}: game does not end");
    }
    (state, history)
}

#[test]
fn random_games_end_and_keep_invariants_under_both_rulebooks() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = crate::common::published(variant);
        for seed in 0..200 {
            let (state, _) = random_game(&game, seed);
            let outcome = state.outcome().expect("a finished game has an outcome");
            assert!(outcome.year >= 1 && outcome.year <= 5);
        }
    }
}

#[test]
fn same_seed_same_game() {
    let game = crate::common::published("rules-2.0");
    let (a, ha) = random_game(&game, 42);
    let (b, hb) = random_game(&game, 42);
    assert_eq!(ha, hb);
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.stats, b.stats);
}
