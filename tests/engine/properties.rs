//! Property tests of engine invariants over random seeds and players. Their
//! games are audited (`engine::audit`): every shortcut the engine takes is
//! checked against the slow way after every action.

use caesar_workbench::ai::{HeuristicPlayer, Player, RandomPlayer, decide, play_game};
use caesar_workbench::engine::events::GameEvent;
use caesar_workbench::engine::{MapEvent, NoLog, Place, State, audit};
use caesar_workbench::scenario::model::Side;
use proptest::prelude::*;

fn players(kinds: (bool, bool), seed: u64) -> [Box<dyn Player>; 2] {
    let make = |heuristic: bool, side: Side, s: u64| -> Box<dyn Player> {
        if heuristic {
            Box::new(HeuristicPlayer::new(side, s, false))
        } else {
            Box::new(RandomPlayer::new(s))
        }
    };
    [
        make(kinds.0, Side::Caesar, seed ^ 1),
        make(kinds.1, Side::Pompey, seed ^ 2),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_game_keeps_its_invariants_and_ends(
        seed in any::<u64>(),
        v2 in any::<bool>(),
        free_deployment in any::<bool>(),
        kinds in (any::<bool>(), any::<bool>()),
    ) {
        let _audit = audit::on();
        let variant = if v2 { "rules-2.0" } else { "rules-1.1" };
        let game = if free_deployment {
            crate::common::free_deployment(variant)
        } else {
            crate::common::published(variant)
        };
        let mut players = players(kinds, seed);
        let mut state = State::new(&game, seed);
        let mut legal = Vec::new();
        state.legal_actions(&game, &mut legal);
        let blocks = game.roster().blocks.len();
        let mut steps = 0u32;
        while let Some(side) = state.current_player() {
            prop_assert!(!legal.is_empty(), "no legal action before the end");
            let a = decide(&mut players[side.index()], &game, &state, &legal);
            state.apply_and_relist(&game, a, &mut legal);
            steps += 1;
            prop_assert!(steps < 200_000, "the game does not end");
            if steps.is_multiple_of(16) {
                prop_assert_eq!(state.check_invariants(&game), Ok(()));
                // Every block is somewhere, at a strength it can have.
                for b in game.roster().ids() {
                    if let Place::Map(_) = state.place(b) {
                        let max = game.roster().block(b).max_steps;
                        prop_assert!((1..=max).contains(&state.steps(b)));
                    }
                }
                prop_assert_eq!(game.roster().ids().count(), blocks);
                prop_assert!(state.year() <= game.rules.years);
            }
        }
        prop_assert!(state.is_over());
        let outcome = state.outcome().unwrap();
        prop_assert!(outcome.year >= 1 && outcome.year <= game.rules.years);
        prop_assert_eq!(outcome.vp, state.vp(&game));
    }

    /// Each battle, loss and retreat is written once, as its game event: the
    /// game's counts and the heatmaps' map events are what its events say
    /// (the attack roads apart: no event of their own), and a game that
    /// keeps no events counts the same.
    #[test]
    fn the_counts_and_map_events_are_the_games_events(
        seed in any::<u64>(),
        v2 in any::<bool>(),
        kinds in (any::<bool>(), any::<bool>()),
    ) {
        let variant = if v2 { "rules-2.0" } else { "rules-1.1" };
        let game = crate::common::published(variant);
        let mut events: Vec<GameEvent> = Vec::new();
        let logged = play_game(&game, seed, &mut players(kinds, seed), &mut events);
        let quiet = play_game(&game, seed, &mut players(kinds, seed), &mut NoLog);
        prop_assert_eq!(&logged.stats, &quiet.stats);
        let (mut battles, mut steps, mut blocks, mut leaders) = (0, [0; 2], [0; 2], [0; 2]);
        let mut map = Vec::new();
        for e in &events {
            match *e {
                GameEvent::BattleBegins { space, .. } => {
                    battles += 1;
                    map.push(MapEvent::Battle(space));
                }
                GameEvent::BattleEnds { space, winner: Some(w) } => {
                    map.push(MapEvent::BattleWon(space, w));
                }
                GameEvent::StepLost { side, at, .. } => {
                    steps[side.index()] += 1;
                    map.push(MapEvent::StepLost(at, side));
                }
                GameEvent::Eliminated { side, at, .. } => {
                    blocks[side.index()] += 1;
                    map.push(MapEvent::BlockLost(at, side));
                }
                GameEvent::LeaderKilled { side, at, .. } => {
                    blocks[side.index()] += 1;
                    leaders[side.index()] += 1;
                    map.push(MapEvent::BlockLost(at, side));
                }
                GameEvent::Retreats { road: Some(link), .. } => map.push(MapEvent::Retreat(link)),
                _ => {}
            }
        }
        let stats = &logged.stats;
        prop_assert_eq!(battles, stats.battles);
        prop_assert_eq!(steps, stats.steps_lost);
        prop_assert_eq!(blocks, stats.blocks_eliminated);
        prop_assert_eq!(leaders, stats.leaders_killed);
        let placed: Vec<MapEvent> = stats
            .map_events
            .iter()
            .copied()
            .filter(|m| !matches!(m, MapEvent::Attack(_)))
            .collect();
        prop_assert_eq!(placed, map);
    }

    #[test]
    fn the_same_seed_and_players_replay_the_same_game(seed in any::<u64>()) {
        let _audit = audit::on();
        let game = crate::common::published("rules-2.0");
        let run = || {
            let mut p = players((true, false), seed);
            caesar_workbench::ai::play_game(&game, seed, &mut p, &mut caesar_workbench::engine::NoLog)
        };
        let (a, b) = (run(), run());
        prop_assert_eq!(a.outcome(), b.outcome());
        prop_assert_eq!(&a.stats, &b.stats);
    }
}
