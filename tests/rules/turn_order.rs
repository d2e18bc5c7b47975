//! 2.1 card phase (who is Player 1, events, the 2.0 first-turn exception)
//! and 1.2 victory, through the public engine interface on dealt hands.

use crate::common;
use caesar_workbench::ai::{HeuristicPlayer, Player, RandomPlayer, decide};
use caesar_workbench::engine::{Action, EndReason, Game, State};
use caesar_workbench::scenario::model::{Event, Side};

/// The first turn of the historical deployment with Caesar playing the card
/// named `caesar` and Pompey `pompey` (as printed: `3/1`, `Vulcan`), each
/// holding three command cards besides: the state after the reveal.
fn first_turn(variant: &str, caesar: &str, pompey: &str) -> (Game, State) {
    let game = crate::common::published(variant);
    let filler: &[&str] = &["2/3", "2/2", "2/1"];
    let state = common::command_turn(&game, caesar, pompey, [filler, filler], &[]);
    (game, state)
}

#[test]
fn rule_2_1_the_higher_move_value_is_player_1() {
    let (_, s) = first_turn("rules-1.1", "1/2", "3/1");
    assert_eq!(s.player1(), Side::Pompey);
    let (_, s) = first_turn("rules-1.1", "3/1", "2/2");
    assert_eq!(s.player1(), Side::Caesar);
}

#[test]
fn rule_2_1_caesar_is_player_1_on_equal_moves() {
    let (_, s) = first_turn("rules-1.1", "2/2", "2/2");
    assert_eq!(s.player1(), Side::Caesar);
}

#[test]
fn rule_2_1_the_event_player_is_player_1() {
    let (_, s) = first_turn("rules-1.1", "3/1", "Vulcan");
    assert_eq!(s.player1(), Side::Pompey);
}

#[test]
fn rule_2_1_two_events_cancel_the_turn() {
    let (_, s) = first_turn("rules-1.1", "Mars", "Jupiter");
    assert_eq!(s.stats.events_cancelled, 1);
    assert_eq!(s.turn(), 2, "the turn ends at once");
    assert!(matches!(
        {
            let mut legal = Vec::new();
            s.legal_actions(&crate::common::published("rules-1.1"), &mut legal);
            legal[0]
        },
        Action::Play(_)
    ));
}

#[test]
fn rule_2_1_in_2_0_caesar_is_player_1_on_the_first_turn_whatever_the_cards() {
    let higher_pompey = |v| first_turn(v, "1/2", "3/1").1.player1();
    assert_eq!(higher_pompey("rules-2.0"), Side::Caesar);
    assert_eq!(higher_pompey("rules-1.1"), Side::Pompey);
    assert_eq!(
        higher_pompey("rules-2.0-no-first-turn-exception"),
        Side::Pompey
    );
    // Even against an event card.
    let (_, s) = first_turn("rules-2.0", "2/2", "Pluto");
    assert_eq!(s.player1(), Side::Caesar);
}

#[test]
fn rule_1_2_outcomes_agree_with_the_victory_points() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = crate::common::published(variant);
        let mut seen = [false; 3];
        for seed in 0..150u64 {
            let mut players: [Box<dyn Player>; 2] = if seed % 2 == 0 {
                [
                    Box::new(HeuristicPlayer::new(Side::Caesar, seed, false)),
                    Box::new(RandomPlayer::new(seed)),
                ]
            } else {
                [
                    Box::new(RandomPlayer::new(seed)),
                    Box::new(HeuristicPlayer::new(Side::Pompey, seed, false)),
                ]
            };
            let end = caesar_workbench::ai::play_game(
                &game,
                seed,
                &mut players,
                &mut caesar_workbench::engine::NoLog,
            );
            let o = end.outcome().unwrap();
            assert_eq!(o.vp, end.vp(&game), "final VP are the scored VP");
            let w = |s: Side| o.vp[s.index()];
            match (o.how, o.winner) {
                (EndReason::SuddenDeath, Some(s)) => {
                    assert!(w(s) >= game.rules.vp_to_win as u32);
                    assert!(o.year <= game.rules.years);
                    seen[0] = true;
                }
                (EndReason::VictoryPoints, Some(s)) => {
                    assert_eq!(o.year, game.rules.years);
                    assert!(w(s) > w(s.other()));
                    seen[1] = true;
                }
                (EndReason::RomeTieBreak, Some(s)) => {
                    assert_eq!(w(s), w(s.other()));
                    let roma = game.board().find("Roma").unwrap();
                    assert!(end.is_friendly(roma, s));
                }
                (EndReason::Draw, None) => {
                    assert_eq!(o.vp[0], o.vp[1]);
                    seen[2] = true;
                }
                other => panic!("inconsistent outcome {other:?}"),
            }
            assert_eq!(end.stats.vp_by_year.len(), o.year as usize);
            assert_eq!(end.stats.vp_by_year.last(), Some(&o.vp));
        }
        assert!(seen[0] && seen[1], "both sudden death and VP wins occur");
    }
}

#[test]
fn rule_8_3_and_8_4_after_each_winter_no_navis_at_sea_and_no_city_over_supply() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = crate::common::published(variant);
        let board = game.board();
        let mut winters = 0;
        for seed in 0..120u64 {
            let mut state = State::new(&game, seed);
            let mut players: [Box<dyn Player>; 2] = [
                Box::new(RandomPlayer::new(seed * 2)),
                Box::new(HeuristicPlayer::new(Side::Pompey, seed, false)),
            ];
            let mut legal = Vec::new();
            let mut year = state.year();
            while let Some(side) = state.current_player() {
                if state.year() != year {
                    year = state.year();
                    winters += 1;
                    for space in board.ids() {
                        let here = board.space(space);
                        for s in [Side::Caesar, Side::Pompey] {
                            let blocks: Vec<_> = state.blocks_at(space, s).collect();
                            if here.kind == caesar_workbench::scenario::model::SpaceKind::Sea {
                                assert!(
                                    blocks.is_empty(),
                                    "8.3: navis wintered at sea in {}",
                                    here.name
                                );
                            } else {
                                let cap =
                                    here.winter_supply(game.rules.winter_supply_base) as usize;
                                assert!(blocks.len() <= cap, "8.4: {} over supply", here.name);
                            }
                        }
                    }
                }
                state.legal_actions(&game, &mut legal);
                let a = decide(&mut players[side.index()], &game, &state, &legal);
                state.apply(&game, a);
            }
        }
        assert!(winters > 60, "{variant}: only {winters} winters");
    }
}

fn event_targets(variant: &str, event: Event) -> (Game, State, Vec<Action>) {
    let (game, state) = first_turn(variant, &format!("{event:?}"), "2/2");
    assert_eq!(
        state.player1(),
        Side::Caesar,
        "the event player is Player 1"
    );
    let mut legal = Vec::new();
    state.legal_actions(&game, &mut legal);
    (game, state, legal)
}

#[test]
fn rule_vulcan_strikes_any_city_in_1_1_and_an_enemy_city_in_2_0() {
    let (_, state, legal) = event_targets("rules-2.0", Event::Vulcan);
    let cities: Vec<_> = legal
        .iter()
        .filter_map(|a| match a {
            Action::VulcanCity(s) => Some(*s),
            _ => None,
        })
        .collect();
    assert!(!cities.is_empty());
    assert!(
        cities.iter().all(|s| state.is_friendly(*s, Side::Pompey)),
        "2.0: enemy cities only"
    );
    let (_, state, legal) = event_targets("rules-1.1", Event::Vulcan);
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, Action::VulcanCity(s) if !state.is_friendly(*s, Side::Pompey))),
        "1.1: any city"
    );
}

#[test]
fn rule_jupiter_offers_enemy_locations_in_both_editions() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (_, state, legal) = event_targets(variant, Event::Jupiter);
        assert!(!legal.is_empty());
        for a in &legal {
            match a {
                Action::JupiterAt(s) => assert!(
                    state.blocks_at(*s, Side::Pompey).next().is_some()
                        && state.is_friendly(*s, Side::Pompey),
                    "{variant}: an enemy location"
                ),
                other => panic!("{variant}: {other:?}"),
            }
        }
    }
}
