//! 6.1 group moves, 6.11 road limits and 4.21 control, on the first turn
//! with blocks placed next to a vacant Roma.

use crate::common;

use caesar_workbench::engine::{Action, State};
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::model::SpaceId;
use common::{caesar_to_move, field};

/// Moves blocks of the active group into `to` one by one while the engine
/// allows it; returns how many entered.
fn pour_into(game: &caesar_workbench::engine::Game, state: &mut State, to: SpaceId) -> usize {
    let mut legal = Vec::new();
    let mut entered = 0;
    loop {
        state.legal_actions(game, &mut legal);
        let Some(step) = legal
            .iter()
            .find(|a| matches!(a, Action::Step { to: t, .. } if *t == to))
        else {
            return entered;
        };
        state.apply(game, *step);
        entered += 1;
    }
}

#[test]
fn rule_6_11_a_major_road_takes_four_blocks_a_minor_road_two() {
    for variant in ["rules-1.1", "rules-2.0"] {
        // Five blocks at Genua (major road to Roma), three at Ravenna (minor).
        let (f, _) = field(
            variant,
            "Legio 7,Legio 8,Legio 9,Legio 10,Legio 11",
            "Legio 12,Legio 13,Legio 14",
            "",
        );
        let game = &f.game;
        {
            let mut state = caesar_to_move(&f, 0).expect("Caesar to move");
            state.try_apply(game, Action::Group(f.from)).unwrap();
            assert_eq!(
                pour_into(game, &mut state, f.to),
                4,
                "{variant}: major road"
            );
            state.try_apply(game, Action::EndGroup).unwrap();
            state
                .try_apply(game, Action::Group(f.reserve_from))
                .unwrap();
            assert_eq!(
                pour_into(game, &mut state, f.to),
                2,
                "{variant}: minor road"
            );
        }
    }
}

#[test]
fn rule_4_21_control_changes_as_soon_as_a_block_enters() {
    let (f, _) = field("rules-2.0", "Legio 8", "", "");
    let game = &f.game;
    let mut state = caesar_to_move(&f, 0).unwrap();
    assert!(state.is_vacant(f.to));
    state.try_apply(game, Action::Group(f.from)).unwrap();
    assert_eq!(pour_into(game, &mut state, f.to), 1);
    assert!(state.is_friendly(f.to, Side::Caesar), "friendly at once");
    assert!(
        state.is_vacant(f.from),
        "and the city left behind is vacant"
    );
}

#[test]
fn rule_6_1_a_group_moves_one_or_two_spaces_not_three() {
    let (f, _) = field("rules-2.0", "Legio 8", "", "");
    let game = &f.game;
    let board = game.board();
    let mut state = caesar_to_move(&f, 0).unwrap();
    state.try_apply(game, Action::Group(f.from)).unwrap();
    let legio = game.roster().find(Side::Caesar, "Legio 8").unwrap();
    let mut legal = Vec::new();
    let mut steps = 0;
    loop {
        state.legal_actions(game, &mut legal);
        let here = state.location(legio).unwrap();
        // Always onward, away from where it started.
        let Some(next) = legal.iter().find(|a| match a {
            Action::Step { block, to } => {
                *block == legio
                    && board.road_distance(f.from, *to) > board.road_distance(f.from, here)
            }
            _ => false,
        }) else {
            break;
        };
        state.apply(game, *next);
        steps += 1;
    }
    assert_eq!(steps, 2);
    assert_eq!(
        board.road_distance(f.from, state.location(legio).unwrap()),
        Some(2)
    );
}

#[test]
fn rule_6_4_legions_levy_in_their_city_and_the_third_leader_waits() {
    for variant in ["rules-1.1", "rules-2.0"] {
        // Caesar holds Genua and Ravenna; Legio 13 (levied at Ravenna) is in the pool.
        let (f, _) = field(variant, "Legio 8", "Antonius", "");
        let game = &f.game;
        let roster = game.roster();
        let legio = roster.find(Side::Caesar, "Legio 13").unwrap();
        let octavian = roster.find(Side::Caesar, "Octavian").unwrap();
        let ravenna = game.board().find("Ravenna").unwrap();
        let mut state = caesar_to_move(&f, 0).unwrap();
        state.try_apply(game, Action::EndMoves).unwrap();
        let mut legal = Vec::new();
        state.legal_actions(game, &mut legal);
        let levies: Vec<(caesar_workbench::scenario::model::BlockId, SpaceId)> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Levy { block, at } => Some((*block, *at)),
                _ => None,
            })
            .collect();
        assert!(levies.contains(&(legio, ravenna)), "{variant}");
        assert!(
            levies.iter().all(|(b, at)| *b != legio || *at == ravenna),
            "{variant}: a legion only in its levy city"
        );
        assert!(
            levies.iter().all(|(b, _)| *b != octavian),
            "{variant}: 7.51 Octavian only after a leader of his side died"
        );
    }
}
