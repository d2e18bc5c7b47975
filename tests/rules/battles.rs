//! Battle rules 6.12–7.83 and the rulebooks' worked battle examples, in
//! constructed positions played through the public engine interface: a custom
//! deployment, the first turn's cards chosen so that the wanted player is
//! Player 1, scripted moves, then battles driven decision by decision.

use crate::common;
use common::{block, fired, space};
use std::collections::BTreeSet;
use std::sync::Arc;

use caesar_workbench::engine::{Action, Game, GameEvent, Place, State};
use caesar_workbench::games::position_file::PositionDoc;
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::model::{BlockId, CardFace, Setup, SpaceId};

const C: Side = Side::Caesar;
const P: Side = Side::Pompey;
const BOTH: [&str; 2] = ["rules-1.1", "rules-2.0"];
/// Scripted battle dice: 1 to 6 in turn, starting at `offset + 1`, for
/// more rolls than a battle takes.
fn cycle(offset: usize) -> Vec<u8> {
    (0..200).map(|i| ((i + offset) % 6) as u8 + 1).collect()
}

/// Scripted battle dice: every roll a hit (1 hits at any firepower).
const ALL_HIT: &[u8] = &[1; 120];

// ------------------------------------------------------------------ helpers

/// The published game with only `blocks` on the map: (side, block, city),
/// at full strength unless given in `strengths` (strength as printed).
fn setup(variant: &str, blocks: &[(Side, &str, &str)], strengths: &[(Side, &str, u8)]) -> Game {
    let base = crate::common::published(variant);
    let mut scenario = (*base.scenario).clone();
    scenario.free_deployment = None;
    scenario.order_of_battle = Setup {
        placements: blocks
            .iter()
            .map(|(side, b, at)| (block(&base, *side, b), space(&base, at)))
            .collect(),
        strengths: strengths
            .iter()
            .map(|(side, b, s)| (block(&base, *side, b), *s))
            .collect(),
    };
    Game::try_new(Arc::new(scenario), Arc::clone(&base.rules)).expect("the engine plays it")
}

fn name(game: &Game, b: BlockId) -> String {
    game.block_name(b).to_string()
}

fn moves(game: &Game, card: u8) -> Option<u8> {
    match game.card(card) {
        CardFace::Command { moves, .. } => Some(moves),
        CardFace::Event(_) => None,
    }
}

/// From the card phase of a turn (turn 1: before the discards), plays command
/// cards giving `p1` at least `mp[0]` moves as Player 1 and his opponent at
/// least `mp[1]`; `None` if the hands cannot.
fn play_cards(game: &Game, state: &mut State, p1: Side, mp: [u8; 2]) -> Option<()> {
    let caesar_first =
        game.rules.caesar_player1_first_turn && state.year() == 1 && state.turn() == 1;
    let (h1, h2) = (state.hand(p1).to_vec(), state.hand(p1.other()).to_vec());
    let mut pick = None;
    'search: for &c1 in &h1 {
        for &c2 in &h2 {
            let (Some(m1), Some(m2)) = (moves(game, c1), moves(game, c2)) else {
                continue;
            };
            let p1_wins = if caesar_first {
                p1 == C
            } else {
                m1 > m2 || (m1 == m2 && p1 == C)
            };
            if m1 >= mp[0] && m2 >= mp[1] && p1_wins {
                pick = Some((c1, c2));
                break 'search;
            }
        }
    }
    let (c1, c2) = pick?;
    let card = |side: Side| if side == p1 { c1 } else { c2 };
    let mut legal = Vec::new();
    state.legal_actions(game, &mut legal);
    if matches!(legal[0], Action::Discard(_)) {
        for side in [C, P] {
            let other = *state.hand(side).iter().find(|c| **c != card(side))?;
            state.apply(game, Action::Discard(other));
        }
    }
    for side in [C, P] {
        state.apply(game, Action::Play(card(side)));
    }
    assert_eq!(state.player1(), p1);
    assert_eq!(state.current_player(), Some(p1));
    Some(())
}

/// A command card as printed with `moves` moves.
fn command_card(moves: u8) -> &'static str {
    ["1/2", "1/2", "2/2", "3/1", "4/1"][moves.min(4) as usize]
}

/// Turn 1 of `game`'s deployment with command cards played that make `p1`
/// Player 1 with at least `mp[0]` moves and give his opponent at least
/// `mp[1]`; each side holds four command cards besides. Dice after any
/// scripted ones come from `seed`.
fn command_phase(game: &Game, seed: u64, p1: Side, mp: [u8; 2]) -> State {
    let other = mp[1].max(1);
    let first = if p1 == C {
        mp[0].max(other)
    } else {
        mp[0].max(other + 1)
    };
    let (c, p) = if p1 == C {
        (command_card(first), command_card(other))
    } else {
        (command_card(other), command_card(first))
    };
    let hand: &[&str] = &["2/3", "2/2", "2/1", "3/1"];
    let mut state = common::command_turn(game, c, p, [hand, hand], &[]);
    state.reseed(seed);
    assert_eq!(state.player1(), p1);
    assert_eq!(state.current_player(), Some(p1));
    state
}

fn act(game: &Game, state: &mut State, action: Action) {
    if let Err(e) = state.try_apply(game, action) {
        panic!("{e}\n{}", state.describe(game));
    }
}

fn legal(game: &Game, state: &State) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(game, &mut out);
    out
}

/// One group move: the blocks named step along the given spaces.
fn group(game: &Game, state: &mut State, from: &str, steps: &[(&str, &str)]) {
    let side = state.current_player().unwrap();
    act(game, state, Action::Group(space(game, from)));
    for (b, to) in steps {
        let step = Action::Step {
            block: block(game, side, b),
            to: space(game, to),
        };
        act(game, state, step);
    }
    act(game, state, Action::EndGroup);
}

/// Ends the current player's moves and levies. If he is asked to declare a
/// main attack (1.1), he declares the road from `main`.
fn end_command(game: &Game, state: &mut State, main: Option<&str>) {
    let side = state.current_player().unwrap();
    while state.current_player() == Some(side) && state.battle_info().is_none() {
        let legal = legal(game, state);
        let action = if let Some(a) = legal.iter().find(|a| matches!(a, Action::EndMoves)) {
            *a
        } else if let Some(a) = legal.iter().find(|a| matches!(a, Action::EndLevy)) {
            *a
        } else if matches!(legal[0], Action::MainAttack(_)) {
            main_attack(game, &legal, main.expect("a main attack to declare"))
        } else {
            return;
        };
        act(game, state, action);
    }
}

/// The `MainAttack` action for the road or border from `from`.
fn main_attack(game: &Game, legal: &[Action], from: &str) -> Action {
    let from = space(game, from);
    *legal
        .iter()
        .find(|a| match a {
            Action::MainAttack(l) => {
                let link = game.board().link(*l);
                link.a == from || link.b == from
            }
            _ => false,
        })
        .expect("the road is offered as main attack")
}

fn retreats(legal: &[Action]) -> BTreeSet<SpaceId> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Retreat(to) => Some(*to),
            _ => None,
        })
        .collect()
}

fn spaces(game: &Game, names: &[&str]) -> BTreeSet<SpaceId> {
    names.iter().map(|n| space(game, n)).collect()
}

/// Plays out the battle being fought: `policy` takes each decision, seeing
/// the events of the action before it.
fn fight(
    game: &Game,
    state: &mut State,
    mut policy: impl FnMut(&State, &[Action], &[GameEvent]) -> Action,
) {
    let mut log: Vec<GameEvent> = Vec::new();
    let mut legal = Vec::new();
    while state.battle_info().is_some() {
        state.legal_actions(game, &mut legal);
        let action = policy(state, &legal, &log);
        assert!(legal.contains(&action), "{action:?} not in {legal:?}");
        log.clear();
        state.apply_logged(game, action, &mut log);
    }
}

/// Everybody passes; attackers forced to retreat take the first retreat.
fn pass_all(_: &State, legal: &[Action], _: &[GameEvent]) -> Action {
    if legal.contains(&Action::Pass) {
        Action::Pass
    } else {
        legal[0]
    }
}

/// `side` fires, the other side passes; hits on the first tied block.
fn fire_for(side: Side) -> impl FnMut(&State, &[Action], &[GameEvent]) -> Action {
    move |state: &State, legal: &[Action], _: &[GameEvent]| {
        let acting = state.battle_info().unwrap().acting;
        match acting {
            Some(b) if state.side(b) == side && legal.contains(&Action::Fire) => Action::Fire,
            _ => pass_all(state, legal, &[]),
        }
    }
}

/// The blocks acting in each round, in order, of one battle.
fn turns_by_round(
    game: &Game,
    state: &mut State,
    mut policy: impl FnMut(&State, &[Action], &[GameEvent]) -> Action,
) -> Vec<Vec<BlockId>> {
    let mut rounds: Vec<Vec<BlockId>> = Vec::new();
    fight(game, state, |state, legal, log| {
        let info = state.battle_info().unwrap();
        if let Some(b) = info.acting {
            while rounds.len() < info.round as usize {
                rounds.push(Vec::new());
            }
            rounds[info.round as usize - 1].push(b);
        }
        policy(state, legal, log)
    });
    rounds
}

// ------------------------------------------------------- 6.12 main attack

#[test]
fn rule_6_12_main_attack_declared_in_1_1_first_road_used_in_2_0() {
    let blocks = [
        (C, "Legio 13", "Genua"),
        (C, "Legio 8", "Genua"),
        (C, "Legio 11", "Ravenna"),
        (P, "Legio 1", "Roma"),
        (P, "Legio 3", "Roma"),
    ];
    // (variant, road moved first, road declared main in 1.1, main force)
    let cases = [
        ("rules-1.1", "Ravenna", "Genua", vec!["Legio 13", "Legio 8"]),
        ("rules-1.1", "Ravenna", "Ravenna", vec!["Legio 11"]),
        ("rules-1.1", "Genua", "Ravenna", vec!["Legio 11"]),
        ("rules-2.0", "Ravenna", "", vec!["Legio 11"]),
        ("rules-2.0", "Genua", "", vec!["Legio 13", "Legio 8"]),
    ];
    for (variant, first, declared, main) in cases {
        let game = setup(variant, &blocks, &[]);
        let mut state = command_phase(&game, 0, C, [2, 0]);
        let genua = [("Legio 13", "Roma"), ("Legio 8", "Roma")];
        let ravenna = [("Legio 11", "Roma")];
        if first == "Genua" {
            group(&game, &mut state, "Genua", &genua);
            group(&game, &mut state, "Ravenna", &ravenna);
        } else {
            group(&game, &mut state, "Ravenna", &ravenna);
            group(&game, &mut state, "Genua", &genua);
        }
        if legal(&game, &state).contains(&Action::EndMoves) {
            act(&game, &mut state, Action::EndMoves);
        }
        let offered = legal(&game, &state);
        if variant == "rules-1.1" {
            // Declared by the attacker at the end of his movement, before
            // his levies (docs/rules-notes.md 6.12): either road.
            assert_eq!(state.current_player(), Some(C));
            assert_eq!(offered.len(), 2, "{offered:?}");
            assert!(offered.iter().all(|a| matches!(a, Action::MainAttack(_))));
            act(&game, &mut state, main_attack(&game, &offered, declared));
        } else {
            assert!(!offered.iter().any(|a| matches!(a, Action::MainAttack(_))));
        }
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        assert!(state.battle_info().is_some());
        let rounds = turns_by_round(&game, &mut state, pass_all);
        let caesar_round_1: BTreeSet<String> = rounds[0]
            .iter()
            .filter(|b| state.side(**b) == C)
            .map(|b| name(&game, *b))
            .collect();
        let main: BTreeSet<String> = main.iter().map(|s| s.to_string()).collect();
        assert_eq!(caesar_round_1, main, "{variant}, {first} first");
        // The reserves join in round 2.
        assert_eq!(rounds[1].iter().filter(|b| state.side(**b) == C).count(), 3);
    }
}

// ------------------------------------------------------------ 6.13 pinning

/// The rules' pinning example: five blocks defend Rome, four attack from
/// Genua and two from Ravenna. Returns how many Roma blocks Pompey (Player 2)
/// can then move out, checking they never leave by the attacker's roads.
fn rome_pinning(variant: &str, first: &str, declared: Option<&str>) -> usize {
    let game = setup(
        variant,
        &[
            (C, "Legio 11", "Genua"),
            (C, "Legio 12", "Genua"),
            (C, "Legio 13", "Genua"),
            (C, "Legio 14", "Genua"),
            (C, "Legio 8", "Ravenna"),
            (C, "Legio 10", "Ravenna"),
            (P, "Legio 1", "Roma"),
            (P, "Legio 3", "Roma"),
            (P, "Auxilia 1", "Roma"),
            (P, "Auxilia 2", "Roma"),
            (P, "Auxilia 3", "Roma"),
        ],
        &[],
    );
    let mut state = command_phase(&game, 0, C, [2, 1]);
    let genua = [
        ("Legio 11", "Roma"),
        ("Legio 12", "Roma"),
        ("Legio 13", "Roma"),
        ("Legio 14", "Roma"),
    ];
    let ravenna = [("Legio 8", "Roma"), ("Legio 10", "Roma")];
    if first == "Genua" {
        group(&game, &mut state, "Genua", &genua);
        group(&game, &mut state, "Ravenna", &ravenna);
    } else {
        group(&game, &mut state, "Ravenna", &ravenna);
        group(&game, &mut state, "Genua", &genua);
    }
    end_command(&game, &mut state, declared);
    assert_eq!(state.current_player(), Some(P));
    let roma = space(&game, "Roma");
    let attack_roads = spaces(&game, &["Genua", "Ravenna"]);
    if !legal(&game, &state).contains(&Action::Group(roma)) {
        return 0;
    }
    act(&game, &mut state, Action::Group(roma));
    let mut left = 0;
    loop {
        let legal = legal(&game, &state);
        let steps: Vec<(BlockId, SpaceId)> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Step { block, to } if state.location(*block) == Some(roma) => {
                    Some((*block, *to))
                }
                _ => None,
            })
            .collect();
        for (_, to) in &steps {
            assert!(
                !attack_roads.contains(to),
                "{variant}: not by the attacker's roads"
            );
        }
        let Some((b, _)) = steps.iter().find(|(_, to)| *to == space(&game, "Neapolis")) else {
            break;
        };
        act(
            &game,
            &mut state,
            Action::Step {
                block: *b,
                to: space(&game, "Neapolis"),
            },
        );
        left += 1;
    }
    left
}

#[test]
fn rule_6_13_pinning_example_four_of_five_pinned_by_the_main_attack() {
    assert_eq!(rome_pinning("rules-1.1", "Genua", Some("Genua")), 1);
    assert_eq!(rome_pinning("rules-2.0", "Genua", None), 1);
}

#[test]
fn rule_6_13_pinning_counts_the_main_attack_as_declared_in_1_1_and_first_used_in_2_0() {
    // 1.1: the declaration, not the order of moves, decides the main force.
    assert_eq!(rome_pinning("rules-1.1", "Ravenna", Some("Genua")), 1);
    assert_eq!(rome_pinning("rules-1.1", "Genua", Some("Ravenna")), 3);
    // 2.0: the first road used is the main attack; two blocks pin two.
    assert_eq!(rome_pinning("rules-2.0", "Ravenna", None), 3);
}

// ---------------------------------------------------------- 6.14 response

#[test]
fn rule_6_14_player_2_responds_from_adjacent_cities_into_reserve() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Legio 13", "Genua"),
                (P, "Legio 1", "Roma"),
                (P, "Legio 5", "Neapolis"),
                (P, "Legio 6", "Sipontum"),
            ],
            // Legio 5 (III) is stronger than Legio 1 (II): were it not a
            // reserve it would take the first hit.
            &[(P, "Legio 1", 2)],
        );
        let (roma, neapolis) = (space(&game, "Roma"), space(&game, "Neapolis"));
        let legio5 = block(&game, P, "Legio 5");
        let legio6 = block(&game, P, "Legio 6");
        let mut hits_in_round_1 = 0;
        let mut reserve_fired = 0;
        {
            // One hit in round 1 (Caesar, A, fires first), then only misses:
            // the battle runs on, and the reserve fires in round 2.
            let mut state = command_phase(&game, 0, C, [1, 2]);
            let mut dice = vec![1];
            dice.extend([6; 120]);
            state.set_dice(&dice);
            group(
                &game,
                &mut state,
                "Genua",
                &[("Caesar", "Roma"), ("Legio 13", "Roma")],
            );
            end_command(&game, &mut state, None);
            // Two moves away: Legio 6 reaches Neapolis but not Roma.
            act(&game, &mut state, Action::Group(space(&game, "Sipontum")));
            act(
                &game,
                &mut state,
                Action::Step {
                    block: legio6,
                    to: neapolis,
                },
            );
            let onward = legal(&game, &state);
            assert!(!onward.contains(&Action::Step {
                block: legio6,
                to: roma
            }));
            act(&game, &mut state, Action::EndGroup);
            group(&game, &mut state, "Neapolis", &[("Legio 5", "Roma")]);
            end_command(&game, &mut state, None);
            let rounds = turns_by_round(&game, &mut state, |state, legal, log| {
                let info = state.battle_info().unwrap();
                if info.round == 1 {
                    // Hidden in reserve: not hit in round 1.
                    assert_eq!(state.steps(legio5), 3, "{variant}");
                    if fired(log).is_some_and(|(_, h)| h > 0) {
                        hits_in_round_1 += 1;
                    }
                }
                if info.acting == Some(legio5) && legal.contains(&Action::Fire) {
                    reserve_fired += 1;
                }
                fire_for(C)(state, legal, log)
            });
            assert!(
                !rounds[0].contains(&legio5),
                "{variant}: no turn in round 1"
            );
        }
        assert!(
            hits_in_round_1 == 1 && reserve_fired > 0,
            "{hits_in_round_1} {reserve_fired}"
        );
    }
}

#[test]
fn rule_6_14_responders_never_free_pinned_blocks_in_either_edition() {
    // 6.13: one attacker pins one defender. 6.14: responders are always
    // Reserves; 2.0 adds that they "do not alter the status of pinned
    // blocks", which 1.1 does not contradict: the pinned blocks are the
    // defence's main force (docs/rules-notes.md, 6.13). So Legio 1 stays in
    // Roma after Legio 5 responds, and the battle opens with it in front.
    for variant in BOTH {
        let doc = PositionDoc::new(variant)
            .block(C, "Legio 13", "Genua")
            .block(P, "Legio 1", "Roma")
            .block(P, "Legio 5", "Neapolis")
            .played("3/1", "2/2");
        let game = crate::common::published(variant);
        let mut state = doc.start(&game).unwrap();
        let (roma, legio1, legio5) = (
            space(&game, "Roma"),
            block(&game, P, "Legio 1"),
            block(&game, P, "Legio 5"),
        );
        group(&game, &mut state, "Genua", &[("Legio 13", "Roma")]);
        end_command(&game, &mut state, None);
        group(&game, &mut state, "Neapolis", &[("Legio 5", "Roma")]);
        assert!(
            state.is_reserve(legio5),
            "{variant}: a responder is a reserve"
        );
        if legal(&game, &state).contains(&Action::Group(roma)) {
            act(&game, &mut state, Action::Group(roma));
        }
        assert!(
            !legal(&game, &state)
                .iter()
                .any(|a| matches!(a, Action::Step { block, .. } if *block == legio1)),
            "{variant}: Legio 1 stays pinned"
        );
        end_command(&game, &mut state, None);
        if legal(&game, &state).contains(&Action::Battle(roma)) {
            act(&game, &mut state, Action::Battle(roma));
        }
        let info = state.battle_info().unwrap();
        assert_eq!(info.round, 1);
        assert_eq!(state.location(legio1), Some(roma));
        assert!(
            !state.is_reserve(legio1),
            "{variant}: the main defending force"
        );
    }
}

// ----------------------------------------------------- 7.1 battle sequence

#[test]
fn rule_7_1_player_1_picks_each_battle_after_the_last_is_over() {
    // 1.1: Pompey is Player 1 with the higher card; 2.0: Caesar on turn 1.
    for (variant, p1) in [("rules-1.1", P), ("rules-2.0", C)] {
        let game = setup(
            variant,
            &[
                (C, "Legio 13", "Genua"),
                (C, "Legio 14", "Ravenna"),
                (C, "Legio 11", "Massilia"),
                (P, "Legio 1", "Roma"),
                (P, "Legio 3", "Aquileia"),
                (P, "Legio 5", "Narbo"),
            ],
            &[],
        );
        let mp = if p1 == C { [2, 1] } else { [1, 2] };
        let mut state = command_phase(&game, 0, p1, mp);
        for _ in 0..2 {
            if state.current_player() == Some(C) {
                group(&game, &mut state, "Genua", &[("Legio 13", "Roma")]);
                group(&game, &mut state, "Ravenna", &[("Legio 14", "Aquileia")]);
            } else {
                group(&game, &mut state, "Narbo", &[("Legio 5", "Massilia")]);
            }
            end_command(&game, &mut state, None);
        }
        let mut left = spaces(&game, &["Roma", "Aquileia", "Massilia"]);
        while left.len() > 1 {
            assert_eq!(state.current_player(), Some(p1), "{variant}");
            let choices: BTreeSet<SpaceId> = legal(&game, &state)
                .iter()
                .map(|a| match a {
                    Action::Battle(s) => *s,
                    other => panic!("{other:?}"),
                })
                .collect();
            assert_eq!(choices, left);
            // The last one on the list, to show it is a free choice.
            let pick = *left.iter().next_back().unwrap();
            act(&game, &mut state, Action::Battle(pick));
            assert_eq!(state.battle_info().unwrap().space, pick);
            left.remove(&pick);
            fight(&game, &mut state, pass_all);
            while legal(&game, &state).contains(&Action::EndRegroup) {
                act(&game, &mut state, Action::EndRegroup);
            }
        }
        // The last battle needs no choice.
        assert_eq!(
            state.battle_info().map(|i| i.space),
            left.iter().next().copied()
        );
    }
}

// ----------------------------------------------------------- 7.2 example

#[test]
fn rule_7_2_battle_turns_example_caesar_pompey_equitatus_navis() {
    // Caesar (A3) and Equitatus (B2) attack Pompey (B3) and Navis (D2).
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Equitatus 2", "Genua"),
                (P, "Pompey", "Roma"),
                (P, "Navis 3", "Roma"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [1, 0]);
        group(
            &game,
            &mut state,
            "Genua",
            &[("Caesar", "Roma"), ("Equitatus 2", "Roma")],
        );
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let rounds = turns_by_round(&game, &mut state, pass_all);
        let expected = [
            block(&game, C, "Caesar"),
            block(&game, P, "Pompey"),
            block(&game, C, "Equitatus 2"),
            block(&game, P, "Navis 3"),
        ];
        for round in &rounds[..3] {
            assert_eq!(round, &expected, "{variant}");
        }
    }
}

#[test]
fn rule_7_2_the_owner_orders_his_blocks_of_one_letter() {
    // 7.2 orders letters and, on one letter, the defender first; it does
    // not order one side's blocks of the same letter: their owner does.
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Legio 8", "Genua"),
                (C, "Legio 11", "Genua"),
                (P, "Legio 1", "Roma"),
            ],
            &[],
        );
        let [l8, l11] = ["Legio 8", "Legio 11"].map(|b| block(&game, C, b));
        let mut state = command_phase(&game, 0, C, [1, 0]);
        group(
            &game,
            &mut state,
            "Genua",
            &[("Legio 8", "Roma"), ("Legio 11", "Roma")],
        );
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let mut offered = Vec::new();
        let rounds = turns_by_round(&game, &mut state, |state, legal, log| {
            if let Action::TakeTurn(_) = legal[0] {
                assert_eq!(state.current_player(), Some(C), "the owner chooses");
                assert_eq!(state.battle_info().unwrap().acting, None);
                offered.push(legal.to_vec());
                // Against roster order: the later block first.
                return *legal.last().unwrap();
            }
            pass_all(state, legal, log)
        });
        assert_eq!(
            offered[0],
            vec![Action::TakeTurn(l8), Action::TakeTurn(l11)],
            "{variant}"
        );
        let pompey = block(&game, P, "Legio 1");
        for round in &rounds[..3] {
            assert_eq!(round, &[pompey, l11, l8], "{variant}");
        }
        assert_eq!(offered.len(), rounds.len(), "{variant}: one choice a round");
    }
}

// ------------------------------------------------------ 7.3 Tarraco example

#[test]
fn rule_7_3_tarraco_reserves_example() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Legio 7", "Narbo"),
                (C, "Legio 8", "Narbo"),
                (C, "Legio 9", "Narbo"),
                (C, "Legio 10", "Narbo"),
                (C, "Equitatus 2", "Bilbilis"),
                (C, "Auxilia 1", "Bilbilis"),
                (P, "Legio 5", "Tarraco"),
                (P, "Legio 6", "Tarraco"),
                (P, "Equitatus 1", "Tarraco"),
                (P, "Legio 2", "Carthago Nova"),
                (P, "Legio 4", "Carthago Nova"),
                (P, "Auxilia 1", "Carthago Nova"),
                (P, "Auxilia 2", "Carthago Nova"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [2, 1]);
        let narbo = ["Legio 7", "Legio 8", "Legio 9", "Legio 10"].map(|b| (b, "Tarraco"));
        group(&game, &mut state, "Narbo", &narbo);
        group(
            &game,
            &mut state,
            "Bilbilis",
            &[("Equitatus 2", "Tarraco"), ("Auxilia 1", "Tarraco")],
        );
        end_command(&game, &mut state, Some("Narbo"));
        // The three defenders are pinned by four attackers.
        let tarraco = space(&game, "Tarraco");
        assert!(!legal(&game, &state).contains(&Action::Group(tarraco)));
        let nova = ["Legio 2", "Legio 4", "Auxilia 1", "Auxilia 2"].map(|b| (b, "Tarraco"));
        group(&game, &mut state, "Carthago Nova", &nova);
        end_command(&game, &mut state, None);
        let rounds = turns_by_round(&game, &mut state, pass_all);
        let names = |r: &[BlockId]| -> BTreeSet<String> {
            r.iter()
                .map(|b| format!("{:?} {}", state.side(*b), name(&game, *b)))
                .collect()
        };
        let round_1: BTreeSet<String> = [
            "Caesar Legio 7",
            "Caesar Legio 8",
            "Caesar Legio 9",
            "Caesar Legio 10",
            "Pompey Legio 5",
            "Pompey Legio 6",
            "Pompey Equitatus 1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(names(&rounds[0]), round_1, "{variant}");
        assert_eq!(
            rounds[1].len(),
            13,
            "{variant}: the reserves arrive for round 2"
        );
    }
}

// ----------------------------------------------------------- 7.4 example

#[test]
fn rule_7_4_hits_example_iii_ii_ii() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Legio 13", "Genua"),
                (P, "Legio 3", "Roma"),
                (P, "Legio 5", "Roma"),
                (P, "Legio 6", "Roma"),
            ],
            &[(P, "Legio 5", 2), (P, "Legio 6", 2)],
        );
        let ids = ["Legio 3", "Legio 5", "Legio 6"].map(|n| block(&game, P, n));
        let (mut one_hit, mut choices) = (0, 0);
        // Caesar's three dice (A3: 1, 2, 3 hit): no hit, one, two.
        for (dice, want) in [([4, 5, 6], 0), ([3, 6, 6], 1), ([1, 2, 6], 2)] {
            let mut state = command_phase(&game, 0, C, [1, 0]);
            state.set_dice(&dice);
            group(
                &game,
                &mut state,
                "Genua",
                &[("Caesar", "Roma"), ("Legio 13", "Roma")],
            );
            end_command(&game, &mut state, None);
            end_command(&game, &mut state, None);
            // Caesar (A) fires first: the first hit must go to the III.
            let first = state.battle_info().unwrap().acting;
            assert_eq!(first, Some(block(&game, C, "Caesar")));
            let mut log = Vec::new();
            state.apply_logged(&game, Action::Fire, &mut log);
            let (rolled, hits) = fired(&log).unwrap();
            assert_eq!((rolled, hits), (dice.to_vec(), want), "{variant}");
            let steps = ids.map(|b| state.steps(b));
            let legal = legal(&game, &state);
            match hits {
                0 => assert_eq!(steps, [3, 2, 2]),
                1 => {
                    one_hit += 1;
                    assert_eq!(steps, [2, 2, 2], "{variant}");
                }
                _ => {
                    // All three at II: the owner chooses.
                    choices += 1;
                    assert_eq!(steps, [2, 2, 2], "{variant}");
                    assert_eq!(state.current_player(), Some(P));
                    let tied: BTreeSet<BlockId> = legal
                        .iter()
                        .map(|a| match a {
                            Action::TakeHit(b) => *b,
                            other => panic!("{other:?}"),
                        })
                        .collect();
                    assert_eq!(tied, ids.into_iter().collect());
                    act(&game, &mut state, Action::TakeHit(ids[2]));
                    assert_eq!(state.steps(ids[2]), 1);
                }
            }
        }
        assert!(one_hit == 1 && choices == 1, "{one_hit} {choices}");
    }
}

// ------------------------------------------------- 7.41 / 7.42 special blocks

/// What strongest-first (7.4) does with `hits` on blocks of these strengths,
/// up to the first tie the owner must break.
fn strongest_first(mut strengths: Vec<u8>, per_step: &[u8], hits: u8) -> Vec<u8> {
    for _ in 0..hits {
        let best = *strengths.iter().max().unwrap();
        if best == 0 || strengths.iter().filter(|s| **s == best).count() > 1 {
            break;
        }
        let i = strengths.iter().position(|s| *s == best).unwrap();
        strengths[i] = strengths[i].saturating_sub(per_step[i]);
    }
    strengths
}

#[test]
fn rule_7_41_the_elephant_is_iv_then_ii_and_fires_its_strength() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Legio 13", "Genua"),
                (P, "Elephant", "Roma"),
                (P, "Legio 3", "Roma"),
            ],
            &[],
        );
        let elephant = block(&game, P, "Elephant");
        let legio3 = block(&game, P, "Legio 3");
        let (mut at_iv, mut at_ii, mut checked, mut killed) = (0, 0, 0, 0);
        // Every face in turn from each start: hits of each count land on
        // IV, II and ties, and the elephant fires at both strengths.
        for offset in 0..6 {
            let mut state = command_phase(&game, 0, C, [1, 0]);
            state.set_dice(&cycle(offset));
            assert_eq!(state.strength(&game, elephant), 4);
            assert_eq!(state.steps(elephant), 2);
            group(
                &game,
                &mut state,
                "Genua",
                &[("Caesar", "Roma"), ("Legio 13", "Roma")],
            );
            end_command(&game, &mut state, None);
            end_command(&game, &mut state, None);
            let mut before: Option<(BlockId, Vec<u8>)> = None;
            fight(&game, &mut state, |state, legal, log| {
                if let (Some((shooter, strengths)), Some((dice, hits))) = (&before, fired(log)) {
                    if *shooter == elephant {
                        // Four dice at IV, two at II.
                        assert_eq!(dice.len() as u8, strengths[0], "{variant}");
                        if strengths[0] == 4 {
                            at_iv += 1
                        } else {
                            at_ii += 1
                        }
                    } else if state.side(*shooter) == C {
                        let now: Vec<u8> = [elephant, legio3]
                            .map(|b| state.location(b).map_or(0, |_| state.strength(&game, b)))
                            .to_vec();
                        if !legal.iter().any(|a| matches!(a, Action::TakeHit(_))) {
                            checked += 1;
                            let expected = strongest_first(strengths.clone(), &[2, 1], hits);
                            assert_eq!(now, expected, "{variant}: {hits} hits on {strengths:?}");
                        }
                    }
                }
                before = state.battle_info().unwrap().acting.map(|b| {
                    (
                        b,
                        [elephant, legio3]
                            .map(|x| state.location(x).map_or(0, |_| state.strength(&game, x)))
                            .to_vec(),
                    )
                });
                if legal.contains(&Action::Fire) {
                    Action::Fire
                } else {
                    legal[0]
                }
            });
            if state.place(elephant) == Place::Eliminated {
                killed += 1;
            }
        }
        // The scripts reach every case: fire at IV and at II, hits checked
        // after many of Caesar's fires, the elephant killed.
        assert!(
            at_iv > 0 && at_ii > 0 && checked >= 10 && killed > 0,
            "{at_iv} {at_ii} {checked} {killed}"
        );
    }
}

#[test]
fn rule_7_42_the_ballista_is_b4_defending_and_d4_attacking() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Ballista", "Genua"),
                (C, "Equitatus 2", "Genua"),
                (C, "Legio 13", "Genua"),
                (P, "Ballista", "Roma"),
                (P, "Legio 1", "Roma"),
                (P, "Navis 3", "Roma"),
            ],
            &[],
        );
        let mut fires = 0;
        // Every face in turn, then misses: each ballista roll is checked.
        for (seed, offset) in [(0u64, 0usize), (1, 3)] {
            let mut state = command_phase(&game, 0, C, [1, 0]);
            let dice: Vec<u8> = (0..60).map(|i| ((i + offset) % 6) as u8 + 1).collect();
            state.set_dice(&dice);
            let moving = ["Ballista", "Equitatus 2", "Legio 13"].map(|b| (b, "Roma"));
            group(&game, &mut state, "Genua", &moving);
            end_command(&game, &mut state, None);
            end_command(&game, &mut state, None);
            if seed == 0 {
                let rounds = turns_by_round(&game, &mut state.clone(), pass_all);
                let expected = [
                    block(&game, P, "Ballista"),    // defending B
                    block(&game, C, "Equitatus 2"), // attacking B
                    block(&game, P, "Legio 1"),     // defending C
                    block(&game, C, "Legio 13"),    // attacking C
                    block(&game, P, "Navis 3"),     // defending D
                    block(&game, C, "Ballista"),    // attacking D
                ];
                assert_eq!(rounds[0], expected, "{variant}");
            }
            let mut shooter = None;
            fight(&game, &mut state, |state, legal, log| {
                if let (Some(b), Some((dice, hits))) = (shooter, fired(log))
                    && game.block_name(b) == "Ballista"
                {
                    // Firepower 4: every roll of 1–4 hits.
                    fires += 1;
                    assert_eq!(hits as usize, dice.iter().filter(|d| **d <= 4).count());
                }
                shooter = state.battle_info().unwrap().acting;
                if legal.contains(&Action::Fire) {
                    Action::Fire
                } else {
                    legal[0]
                }
            });
        }
        assert!(
            fires >= 8,
            "both ballistas fire in both scripted battles: {fires}"
        );
    }
}

// -------------------------------------------------- 7.5 eliminated blocks

#[test]
fn rule_7_5_eliminated_blocks_go_face_up_to_the_pool_until_the_year_ends() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Legio 13", "Genua"),
                (C, "Legio 8", "Genua"),
                (C, "Legio 11", "Massilia"),
                (P, "Auxilia 3", "Roma"),
                (P, "Legio 2", "Carthago Nova"),
            ],
            &[(P, "Auxilia 3", 1)],
        );
        let aux3 = block(&game, P, "Auxilia 3");
        let aux4 = block(&game, P, "Auxilia 4");
        let nova = space(&game, "Carthago Nova");
        let mut seen = 0;
        {
            // Caesar's first die kills Auxilia 3 (at I).
            let mut state = command_phase(&game, 0, C, [1, 0]);
            state.set_dice(ALL_HIT);
            let moving = ["Caesar", "Legio 13", "Legio 8"].map(|b| (b, "Roma"));
            group(&game, &mut state, "Genua", &moving);
            end_command(&game, &mut state, None);
            end_command(&game, &mut state, None);
            fight(&game, &mut state, fire_for(C));
            assert_eq!(state.place(aux3), Place::Eliminated, "{variant}");
            while legal(&game, &state).contains(&Action::EndRegroup) {
                act(&game, &mut state, Action::EndRegroup);
            }
            assert!(!state.pool(P).any(|b| b == aux3), "face-up, not levyable");
            assert!(state.pool(P).any(|b| b == aux4));
            // Turn 2: Pompey levies, but not the eliminated auxilia.
            assert_eq!(state.turn(), 2);
            play_cards(&game, &mut state, C, [0, 0]).expect("command cards in both hands");
            end_command(&game, &mut state, None);
            act(&game, &mut state, Action::EndMoves);
            let levies = legal(&game, &state);
            assert!(
                levies.contains(&Action::Levy {
                    block: aux4,
                    at: nova
                }),
                "{levies:?}"
            );
            assert!(
                !levies
                    .iter()
                    .any(|a| matches!(a, Action::Levy { block, .. } if *block == aux3))
            );
            seen += 1;
        }
        assert_eq!(seen, 1, "{variant}");
    }
}

// ------------------------------------------------------------ 7.52 Cleopatra

#[test]
fn rule_7_52_cleopatra_eliminated_joins_the_other_side_at_strength_i() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Legio 13", "Genua"),
                (P, "Cleopatra", "Roma"),
                (P, "Legio 1", "Roma"),
            ],
            &[(P, "Cleopatra", 1), (P, "Legio 1", 1)],
        );
        let cleo = block(&game, P, "Cleopatra");
        let roma = space(&game, "Roma");
        let (mut switched, mut fought_for_caesar) = (0, 0);
        // Turned before her turn of a round, she still takes it, once.
        let mut same_round = 0;
        for offset in 0..6 {
            let mut state = command_phase(&game, 0, C, [1, 0]);
            state.set_dice(&cycle(offset));
            group(
                &game,
                &mut state,
                "Genua",
                &[("Caesar", "Roma"), ("Legio 13", "Roma")],
            );
            end_command(&game, &mut state, None);
            end_command(&game, &mut state, None);
            let mut turned = false;
            let mut turned_in: Option<u8> = None;
            let mut acted_in: Vec<u8> = Vec::new();
            fight(&game, &mut state, |state, legal, _| {
                let info = state.battle_info().unwrap();
                if state.side(cleo) == C && !turned {
                    turned = true;
                    switched += 1;
                    assert_eq!(state.steps(cleo), 1);
                    assert_eq!(state.location(cleo), Some(roma));
                    if !acted_in.contains(&info.round) {
                        turned_in = Some(info.round);
                    }
                }
                let acting = info.acting;
                if acting == Some(cleo) && legal.iter().any(|a| matches!(a, Action::Fire)) {
                    // 7.52: at most one battle turn per round, whichever side.
                    assert!(
                        !acted_in.contains(&info.round),
                        "{variant}: twice in a round"
                    );
                    acted_in.push(info.round);
                    same_round += (turned_in == Some(info.round)) as u32;
                }
                if turned && acting == Some(cleo) {
                    assert_eq!(state.side(cleo), C);
                    fought_for_caesar += 1;
                }
                // Pompey gives the first tied hit to Cleopatra.
                if legal.contains(&Action::TakeHit(cleo)) {
                    return Action::TakeHit(cleo);
                }
                match acting {
                    Some(b) if state.side(b) == C && legal.contains(&Action::Fire) => Action::Fire,
                    _ => pass_all(state, legal, &[]),
                }
            });
            if turned {
                // Never in a pool: still on the map, for Caesar.
                assert_eq!(state.place(cleo), Place::Map(roma), "{variant}");
                assert_eq!(state.side(cleo), C);
            }
        }
        // The scripts reach every case: turned, fighting for Caesar, and
        // turned before her turn of the round.
        assert!(
            switched > 0 && fought_for_caesar > 0 && same_round > 0,
            "{switched} {fought_for_caesar} {same_round}"
        );
    }
}

// ---------------------------------------------------------- 7.6 retreats

/// Per battle round, the retreats `side` made to `to`, with a decision
/// policy: `side`'s blocks retreat to `to` when they may, else pass.
fn retreats_to(
    game: &Game,
    state: &mut State,
    side: Side,
    to: SpaceId,
    mut watch: impl FnMut(&State, &[Action]),
) -> Vec<usize> {
    let mut per_round = vec![0; 5];
    fight(game, state, |state, legal, _| {
        let info = state.battle_info().unwrap();
        watch(state, legal);
        match info.acting {
            Some(b) if state.side(b) == side && legal.contains(&Action::Retreat(to)) => {
                per_round[info.round as usize] += 1;
                Action::Retreat(to)
            }
            _ => pass_all(state, legal, &[]),
        }
    });
    per_round
}

#[test]
fn rule_7_61_road_limits_apply_to_retreats_each_round() {
    for variant in BOTH {
        // Caesar also holds Asculum, a minor road (two blocks) from Roma.
        let game = setup(
            variant,
            &[
                (C, "Legio 11", "Genua"),
                (C, "Legio 12", "Genua"),
                (C, "Legio 13", "Genua"),
                (C, "Legio 14", "Genua"),
                (C, "Legio 8", "Asculum"),
                (P, "Legio 1", "Roma"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [1, 0]);
        let moving = ["Legio 11", "Legio 12", "Legio 13", "Legio 14"].map(|b| (b, "Roma"));
        group(&game, &mut state, "Genua", &moving);
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let asculum = space(&game, "Asculum");
        let per_round = retreats_to(&game, &mut state, C, asculum, |_, _| {});
        assert_eq!(per_round, [0, 0, 2, 2, 0], "{variant}");
    }
}

#[test]
fn rule_7_61_one_block_per_round_across_a_strait() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Legio 19", "Syracusae"),
                (C, "Legio 18", "Syracusae"),
                (P, "Legio 37", "Messana"),
                (P, "Auxilia 1", "Messana"),
                (P, "Auxilia 2", "Messana"),
                (P, "Legio 33", "Rhegium"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [1, 0]);
        group(
            &game,
            &mut state,
            "Syracusae",
            &[("Legio 19", "Messana"), ("Legio 18", "Messana")],
        );
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let rhegium = space(&game, "Rhegium");
        let lilybaeum = space(&game, "Lilybaeum");
        let mut denied = 0;
        let per_round = retreats_to(&game, &mut state, P, rhegium, |state, legal| {
            let info = state.battle_info().unwrap();
            if info.round >= 2
                && info.acting.is_some_and(|b| state.side(b) == P)
                && !legal.contains(&Action::Retreat(rhegium))
            {
                // The road to vacant Lilybaeum is still open.
                assert!(legal.contains(&Action::Retreat(lilybaeum)));
                denied += 1;
            }
        });
        assert_eq!(per_round, [0, 0, 1, 1, 1], "{variant}");
        assert!(denied >= 3, "{denied}");
    }
}

#[test]
fn rule_7_64_one_sea_retreat_per_round_to_a_friendly_port_across_a_friendly_sea() {
    for variant in BOTH {
        // Pompey holds Mare Tyrrhenum and Aleria; Caralis is vacant.
        let game = setup(
            variant,
            &[
                (C, "Legio 13", "Genua"),
                (C, "Legio 8", "Genua"),
                (P, "Legio 1", "Roma"),
                (P, "Legio 3", "Roma"),
                (P, "Auxilia 1", "Roma"),
                (P, "Navis 1", "Mare Tyrrhenum"),
                (P, "Auxilia 4", "Aleria"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [1, 0]);
        group(
            &game,
            &mut state,
            "Genua",
            &[("Legio 13", "Roma"), ("Legio 8", "Roma")],
        );
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let aleria = space(&game, "Aleria");
        let caralis = space(&game, "Caralis");
        let mut caesar_options = 0;
        let per_round = retreats_to(&game, &mut state, P, aleria, |state, legal| {
            assert!(
                !legal.contains(&Action::Retreat(caralis)),
                "not to a vacant port"
            );
            let acting = state.battle_info().unwrap().acting;
            if acting.is_some_and(|b| state.side(b) == C) && !retreats(legal).is_empty() {
                // Caesar has no friendly sea.
                caesar_options += 1;
                assert!(!legal.contains(&Action::Retreat(aleria)));
            }
        });
        assert_eq!(per_round, [0, 0, 1, 1, 1], "{variant}");
        assert!(caesar_options > 0);
    }
}

#[test]
fn rule_7_64_a_port_reached_by_sea_once_its_road_is_full_uses_the_sea_retreat() {
    for variant in BOTH {
        // Neapolis is a major road (four blocks a round, 7.61) from Roma and
        // across Mare Tyrrhenum, which Pompey holds: a fifth block may go by
        // sea (7.64), a sixth must wait for the next round.
        let game = setup(
            variant,
            &[
                (C, "Legio 13", "Genua"),
                (P, "Legio 1", "Roma"),
                (P, "Legio 2", "Roma"),
                (P, "Legio 3", "Roma"),
                (P, "Legio 4", "Roma"),
                (P, "Legio 5", "Roma"),
                (P, "Legio 6", "Roma"),
                (P, "Legio 32", "Neapolis"),
                (P, "Navis 1", "Mare Tyrrhenum"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [1, 0]);
        group(&game, &mut state, "Genua", &[("Legio 13", "Roma")]);
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let neapolis = space(&game, "Neapolis");
        let per_round = retreats_to(&game, &mut state, P, neapolis, |_, _| {});
        assert_eq!(per_round, [0, 0, 5, 1, 0], "{variant}");
    }
}

#[test]
fn rule_6_3_unpinned_blocks_in_a_contested_port_may_leave_by_a_friendly_sea() {
    for variant in BOTH {
        let sea_moves = |attackers: &[&str]| -> Vec<Vec<String>> {
            let mut blocks: Vec<(Side, &str, &str)> =
                attackers.iter().map(|b| (C, *b, "Genua")).collect();
            blocks.extend([
                (P, "Legio 1", "Roma"),
                (P, "Legio 3", "Roma"),
                (P, "Navis 1", "Mare Tyrrhenum"),
            ]);
            let game = setup(variant, &blocks, &[]);
            let mut state = command_phase(&game, 0, C, [1, 2]);
            let steps: Vec<(&str, &str)> = attackers.iter().map(|b| (*b, "Roma")).collect();
            group(&game, &mut state, "Genua", &steps);
            end_command(&game, &mut state, None);
            // Pompey, Player 2, sails from contested Roma while he may.
            let mut sailed = Vec::new();
            loop {
                let movers: Vec<String> = legal(&game, &state)
                    .iter()
                    .filter_map(|a| match a {
                        Action::SeaMove { block, .. } => Some(name(&game, *block)),
                        _ => None,
                    })
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                sailed.push(movers.clone());
                let Some(first) = movers.first() else {
                    break;
                };
                let to = space(&game, "Aleria");
                act(
                    &game,
                    &mut state,
                    Action::SeaMove {
                        block: block(&game, P, first),
                        to,
                    },
                );
            }
            sailed
        };
        // One attacker pins one of the two: the other may sail, then none.
        assert_eq!(
            sea_moves(&["Legio 13"]),
            [vec!["Legio 1".to_string(), "Legio 3".to_string()], vec![]],
            "{variant}"
        );
        // Two attackers pin both.
        assert_eq!(
            sea_moves(&["Legio 13", "Legio 8"]),
            [Vec::<String>::new()],
            "{variant}"
        );
    }
}

#[test]
fn rule_7_64_both_sides_may_sea_retreat_utica_example() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Legio 13", "Tacape"),
                (C, "Navis 1", "Mare Hispanum"),
                (C, "Legio 8", "Carthago Nova"),
                (P, "Legio 39", "Utica"),
                (P, "Navis 3", "Mare Internum"),
                (P, "Legio 37", "Syracusae"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [1, 0]);
        group(&game, &mut state, "Tacape", &[("Legio 13", "Utica")]);
        end_command(&game, &mut state, None);
        end_command(&game, &mut state, None);
        let mut seen = BTreeSet::new();
        fight(&game, &mut state, |state, legal, _| {
            if let Some(b) = state.battle_info().unwrap().acting {
                for to in retreats(legal) {
                    seen.insert((state.side(b) == C, game.space_name(to).to_string()));
                }
            }
            pass_all(state, legal, &[])
        });
        assert!(
            seen.contains(&(true, "Carthago Nova".to_string())),
            "{seen:?}"
        );
        assert!(seen.contains(&(false, "Syracusae".to_string())), "{seen:?}");
        // Each only across its own friendly sea.
        assert!(!seen.contains(&(true, "Syracusae".to_string())));
        assert!(!seen.contains(&(false, "Carthago Nova".to_string())));
    }
}

#[test]
fn rule_7_62_attackers_retreat_to_one_vacant_city_in_1_1_to_several_in_2_0() {
    for (variant, split) in [("rules-1.1", false), ("rules-2.0", true)] {
        let game = setup(
            variant,
            &[
                (C, "Legio 11", "Genua"),
                (C, "Legio 12", "Genua"),
                (C, "Legio 13", "Asculum"),
                (P, "Legio 1", "Roma"),
            ],
            &[],
        );
        let mut state = command_phase(&game, 0, C, [2, 0]);
        group(
            &game,
            &mut state,
            "Genua",
            &[("Legio 11", "Roma"), ("Legio 12", "Roma")],
        );
        group(&game, &mut state, "Asculum", &[("Legio 13", "Roma")]);
        end_command(&game, &mut state, Some("Genua"));
        end_command(&game, &mut state, None);
        let (genua, asculum) = (space(&game, "Genua"), space(&game, "Asculum"));
        let mut after_first: Vec<BTreeSet<SpaceId>> = Vec::new();
        let mut retreated = false;
        fight(&game, &mut state, |state, legal, _| {
            let info = state.battle_info().unwrap();
            let Some(b) = info.acting else {
                return legal[0];
            };
            if state.side(b) != C || info.round < 2 {
                return pass_all(state, legal, &[]);
            }
            let options = retreats(legal);
            if !retreated {
                // Both vacant cities by the roads used; no other city.
                assert_eq!(options, [genua, asculum].into_iter().collect(), "{variant}");
                retreated = true;
                return Action::Retreat(genua);
            }
            after_first.push(options);
            pass_all(state, legal, &[])
        });
        assert!(!after_first.is_empty());
        for options in after_first {
            assert!(options.contains(&genua));
            assert_eq!(options.contains(&asculum), split, "{variant}");
        }
    }
}

#[test]
fn rule_7_6_an_attacker_that_must_retreat_and_cannot_is_eliminated() {
    for variant in BOTH {
        // Pompey (Player 2) closes the road back to Genua.
        let game = setup(
            variant,
            &[
                (C, "Legio 13", "Genua"),
                (P, "Legio 1", "Roma"),
                (P, "Legio 5", "Massilia"),
            ],
            &[],
        );
        let legio13 = block(&game, C, "Legio 13");
        let mut state = command_phase(&game, 0, C, [1, 1]);
        group(&game, &mut state, "Genua", &[("Legio 13", "Roma")]);
        end_command(&game, &mut state, None);
        group(&game, &mut state, "Massilia", &[("Legio 5", "Genua")]);
        end_command(&game, &mut state, None);
        let rounds = turns_by_round(&game, &mut state, |state, legal, _| {
            if state.battle_info().unwrap().acting == Some(legio13) {
                assert!(retreats(legal).is_empty(), "{variant}: nowhere to go");
            }
            pass_all(state, legal, &[])
        });
        // No round-4 decision for Legio 13: it is eliminated at its turn.
        assert_eq!(rounds.len(), 4);
        assert!(rounds[2].contains(&legio13) && !rounds[3].contains(&legio13));
        assert_eq!(state.place(legio13), Place::Eliminated);
        assert!(state.is_friendly(space(&game, "Roma"), P));
    }
}

// ----------------------------------------------------------- 7.7 regroups

#[test]
fn rule_7_7_the_victor_regroups_reserves_included_with_fresh_road_limits() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Legio 11", "Genua"),
                (C, "Legio 12", "Genua"),
                (C, "Legio 8", "Ravenna"),
                (C, "Legio 10", "Ravenna"),
                (P, "Auxilia 3", "Roma"),
                (P, "Legio 1", "Neapolis"),
            ],
            &[(P, "Auxilia 3", 1)],
        );
        let ravenna = space(&game, "Ravenna");
        let reserves = [block(&game, C, "Legio 8"), block(&game, C, "Legio 10")];
        let mut regrouped = 0;
        {
            // Caesar's first die kills Auxilia 3 (at I): Caesar wins.
            let mut state = command_phase(&game, 0, C, [2, 0]);
            state.set_dice(ALL_HIT);
            group(
                &game,
                &mut state,
                "Genua",
                &[("Legio 11", "Roma"), ("Legio 12", "Roma")],
            );
            // Both reserves use up the minor road Ravenna–Roma.
            group(
                &game,
                &mut state,
                "Ravenna",
                &[("Legio 8", "Roma"), ("Legio 10", "Roma")],
            );
            end_command(&game, &mut state, Some("Genua"));
            end_command(&game, &mut state, None);
            fight(&game, &mut state, fire_for(C));
            assert_eq!(state.current_player(), Some(C), "{variant}");
            assert!(legal(&game, &state).contains(&Action::EndRegroup));
            regrouped += 1;
            let targets = |state: &State| -> Vec<(BlockId, SpaceId)> {
                legal(&game, state)
                    .iter()
                    .filter_map(|a| match a {
                        Action::Regroup { block, to } => Some((*block, *to)),
                        _ => None,
                    })
                    .collect()
            };
            let first = targets(&state);
            let to: BTreeSet<SpaceId> = first.iter().map(|(_, to)| *to).collect();
            // Friendly or vacant cities; never enemy Neapolis.
            assert_eq!(
                to,
                spaces(&game, &["Genua", "Ravenna", "Asculum"]),
                "{variant}"
            );
            for r in reserves {
                assert!(first.iter().any(|(b, _)| *b == r), "reserves regroup too");
            }
            // Two blocks along the minor road, whatever the command phase used.
            for r in reserves {
                act(
                    &game,
                    &mut state,
                    Action::Regroup {
                        block: r,
                        to: ravenna,
                    },
                );
            }
            assert!(targets(&state).iter().all(|(_, to)| *to != ravenna));
            if variant == "rules-2.0" {
                assert!(!targets(&state).is_empty());
            } else {
                // 7.7 (1.1): one city, and its road is full.
                assert!(targets(&state).is_empty(), "{variant}");
            }
        }
        assert_eq!(regrouped, 1, "{variant}");
    }
}

#[test]
fn rule_7_7_under_1_1_the_victor_regroups_to_one_city_under_2_0_to_several() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Legio 11", "Genua"),
                (C, "Legio 12", "Genua"),
                (C, "Legio 8", "Genua"),
                (P, "Auxilia 3", "Roma"),
            ],
            &[(P, "Auxilia 3", 1)],
        );
        let mut regrouped = 0;
        {
            // Caesar's first die kills Auxilia 3 (at I): Caesar wins.
            let mut state = command_phase(&game, 0, C, [1, 0]);
            state.set_dice(ALL_HIT);
            group(
                &game,
                &mut state,
                "Genua",
                &[
                    ("Legio 11", "Roma"),
                    ("Legio 12", "Roma"),
                    ("Legio 8", "Roma"),
                ],
            );
            end_command(&game, &mut state, Some("Genua"));
            end_command(&game, &mut state, None);
            fight(&game, &mut state, fire_for(C));
            assert_eq!(state.current_player(), Some(C), "{variant}");
            assert!(legal(&game, &state).contains(&Action::EndRegroup));
            regrouped += 1;
            let destinations = |state: &State| -> BTreeSet<SpaceId> {
                legal(&game, state)
                    .iter()
                    .filter_map(|a| match a {
                        Action::Regroup { to, .. } => Some(*to),
                        _ => None,
                    })
                    .collect()
            };
            let all = spaces(&game, &["Genua", "Ravenna", "Asculum", "Neapolis"]);
            assert_eq!(destinations(&state), all, "{variant}");
            act(
                &game,
                &mut state,
                Action::Regroup {
                    block: block(&game, C, "Legio 11"),
                    to: space(&game, "Ravenna"),
                },
            );
            let expected = if variant == "rules-1.1" {
                spaces(&game, &["Ravenna"])
            } else {
                all
            };
            assert_eq!(destinations(&state), expected, "{variant}");
        }
        assert_eq!(regrouped, 1, "{variant}");
    }
}

// ------------------------------------------------------ 7.8 navis battles

/// Caesar's navis attack Mare Tyrrhenum from Mare Hispanum; Pompey holds
/// Neapolis, Caesar Messana (ports on Tyrrhenum).
fn sea_battle(variant: &str) -> (Game, State) {
    let game = setup(
        variant,
        &[
            (C, "Navis 1", "Mare Hispanum"),
            (C, "Navis 4", "Mare Hispanum"),
            (C, "Legio 19", "Messana"),
            (P, "Navis 1", "Mare Tyrrhenum"),
            (P, "Legio 1", "Neapolis"),
        ],
        &[],
    );
    let mut state = command_phase(&game, 0, C, [1, 0]);
    group(
        &game,
        &mut state,
        "Mare Hispanum",
        &[("Navis 1", "Mare Tyrrhenum"), ("Navis 4", "Mare Tyrrhenum")],
    );
    end_command(&game, &mut state, None);
    end_command(&game, &mut state, None);
    assert_eq!(
        state.battle_info().unwrap().space,
        space(&game, "Mare Tyrrhenum")
    );
    (game, state)
}

#[test]
fn rule_7_8_navis_battles_defender_first_attacker_retreats_in_round_4() {
    for variant in BOTH {
        let (game, mut state) = sea_battle(variant);
        let pompey = block(&game, P, "Navis 1");
        let mut forced = 0;
        let rounds = turns_by_round(&game, &mut state, |state, legal, _| {
            let info = state.battle_info().unwrap();
            if info.round == 4 && info.acting.is_some_and(|b| state.side(b) == C) {
                forced += 1;
                assert!(legal.iter().all(|a| matches!(a, Action::Retreat(_))));
            }
            pass_all(state, legal, &[])
        });
        let expected = [
            pompey,
            block(&game, C, "Navis 1"),
            block(&game, C, "Navis 4"),
        ];
        for round in &rounds[..3] {
            assert_eq!(round, &expected, "{variant}");
        }
        assert_eq!(forced, 2);
    }
}

#[test]
fn rule_7_82_and_7_83_navis_retreat_and_regroup_destinations() {
    for variant in BOTH {
        let (game, mut state) = sea_battle(variant);
        let mut checked = [false, false];
        fight(&game, &mut state, |state, legal, _| {
            let info = state.battle_info().unwrap();
            let Some(b) = info.acting else {
                return legal[0];
            };
            if info.round < 2 {
                return pass_all(state, legal, &[]);
            }
            let options = retreats(legal);
            if state.side(b) == C {
                // Where it came from, or Caesar's port on the sea; not the
                // vacant Mare Internum nor vacant ports.
                assert_eq!(
                    options,
                    spaces(&game, &["Mare Hispanum", "Messana"]),
                    "{variant}"
                );
                checked[0] = true;
                Action::Pass
            } else {
                // Vacant seas but the attacker's, or Pompey's port.
                assert_eq!(
                    options,
                    spaces(&game, &["Mare Internum", "Neapolis"]),
                    "{variant}"
                );
                checked[1] = true;
                Action::Retreat(space(&game, "Neapolis"))
            }
        });
        assert_eq!(
            checked,
            [false, true],
            "Pompey acts first in round 2 and leaves"
        );
        // 7.83: Caesar's navis regroup to friendly or vacant seas and ports
        // of the sea, not to Pompey's Neapolis.
        assert_eq!(state.current_player(), Some(C));
        let to: BTreeSet<SpaceId> = legal(&game, &state)
            .iter()
            .filter_map(|a| match a {
                Action::Regroup { to, .. } => Some(*to),
                _ => None,
            })
            .collect();
        let expected = spaces(
            &game,
            &[
                "Mare Hispanum",
                "Mare Internum",
                "Aleria",
                "Caralis",
                "Genua",
                "Lilybaeum",
                "Messana",
                "Rhegium",
                "Roma",
                "Utica",
            ],
        );
        assert_eq!(to, expected, "{variant}");
    }
}

#[test]
fn rule_7_82_attacking_navis_retreat_where_they_came_from() {
    // Same battle, Pompey staying: Caesar's navis options in round 2.
    for variant in BOTH {
        let (game, mut state) = sea_battle(variant);
        let mut checked = 0;
        fight(&game, &mut state, |state, legal, _| {
            let info = state.battle_info().unwrap();
            if info.round >= 2 && info.acting.is_some_and(|b| state.side(b) == C) {
                assert_eq!(
                    retreats(legal),
                    spaces(&game, &["Mare Hispanum", "Messana"]),
                    "{variant}"
                );
                checked += 1;
            }
            pass_all(state, legal, &[])
        });
        assert!(checked >= 4, "{checked}");
    }
}

#[test]
fn rule_7_81_shore_combat_navis_attack_a_port_from_the_sea_and_fight_as_d() {
    for variant in BOTH {
        let game = setup(
            variant,
            &[
                (C, "Navis 4", "Mare Tyrrhenum"),
                (C, "Navis 5", "Genua"),
                (P, "Legio 1", "Roma"),
                (P, "Navis 3", "Roma"),
            ],
            &[(P, "Legio 1", 2)],
        );
        let roma = space(&game, "Roma");
        let pompey_navis = block(&game, P, "Navis 3");
        let caesar_navis = block(&game, C, "Navis 4");
        let mut navis_hit_choices = 0;
        for offset in 0..6 {
            let mut state = command_phase(&game, 0, C, [2, 0]);
            state.set_dice(&cycle(offset));
            // A navis in a port never moves straight to another port.
            act(&game, &mut state, Action::Group(space(&game, "Genua")));
            let from_genua: BTreeSet<SpaceId> = legal(&game, &state)
                .iter()
                .filter_map(|a| match a {
                    Action::Step { to, .. } => Some(*to),
                    _ => None,
                })
                .collect();
            assert_eq!(
                from_genua,
                spaces(&game, &["Mare Hispanum", "Mare Tyrrhenum"])
            );
            act(&game, &mut state, Action::EndGroup);
            group(&game, &mut state, "Mare Tyrrhenum", &[("Navis 4", "Roma")]);
            end_command(&game, &mut state, None);
            end_command(&game, &mut state, None);
            assert_eq!(state.battle_info().unwrap().space, roma);
            let rounds = turns_by_round(&game, &mut state, |state, legal, _| {
                let info = state.battle_info().unwrap();
                if legal.contains(&Action::TakeHit(pompey_navis)) {
                    // Legio 1 (II) and Navis 3 (II) are tied: either may go.
                    assert!(legal.contains(&Action::TakeHit(block(&game, P, "Legio 1"))));
                    navis_hit_choices += 1;
                    return Action::TakeHit(pompey_navis);
                }
                if info.round >= 2 && info.acting == Some(pompey_navis) {
                    // The sea is where the attacker came from: no retreat.
                    assert!(retreats(legal).is_empty(), "{variant}");
                }
                if info.round >= 2 && info.acting == Some(caesar_navis) {
                    assert_eq!(retreats(legal), spaces(&game, &["Mare Tyrrhenum"]));
                }
                fire_for(C)(state, legal, &[])
            });
            if offset == 0 {
                let expected = [block(&game, P, "Legio 1"), pompey_navis, caesar_navis];
                assert_eq!(rounds[0], expected, "{variant}");
            }
        }
        assert!(navis_hit_choices > 3, "{navis_hit_choices}");
    }
}

// --------------------------------------------------- 7.31 disruption swap

#[test]
fn rule_7_31_after_the_swap_the_new_attacker_retreats_by_its_responders_road() {
    for variant in BOTH {
        // Legio 1 at I holds Roma alone; Legio 5 responds from Neapolis. When
        // Legio 1 dies in round 1, Legio 5 is disrupted and Pompey attacks.
        let game = setup(
            variant,
            &[
                (C, "Caesar", "Genua"),
                (C, "Legio 13", "Genua"),
                (C, "Legio 8", "Genua"),
                (P, "Legio 1", "Roma"),
                (P, "Legio 5", "Neapolis"),
            ],
            &[(P, "Legio 1", 1)],
        );
        let (roma, neapolis) = (space(&game, "Roma"), space(&game, "Neapolis"));
        let legio5 = block(&game, P, "Legio 5");
        let (mut swapped, mut pompey_checked, mut caesar_checked) = (0, 0, 0);
        {
            // Caesar's first die kills Legio 1 (at I) in round 1.
            let mut state = command_phase(&game, 0, C, [1, 1]);
            state.set_dice(ALL_HIT);
            group(
                &game,
                &mut state,
                "Genua",
                &[
                    ("Caesar", "Roma"),
                    ("Legio 13", "Roma"),
                    ("Legio 8", "Roma"),
                ],
            );
            end_command(&game, &mut state, None);
            group(&game, &mut state, "Neapolis", &[("Legio 5", "Roma")]);
            end_command(&game, &mut state, None);
            let mut this_swapped = false;
            fight(&game, &mut state, |state, legal, _| {
                let info = state.battle_info().unwrap();
                if info.round >= 2 && info.attacker == P {
                    this_swapped = true;
                    let options = retreats(legal);
                    match info.acting {
                        // 7.62: back by the road it came, to the vacant Neapolis.
                        Some(b) if b == legio5 && !options.is_empty() => {
                            assert_eq!(options, spaces(&game, &["Neapolis"]), "{variant}");
                            pompey_checked += 1;
                        }
                        // 7.63: the new defender may not use the new attacker's road.
                        Some(b) if state.side(b) == C && !options.is_empty() => {
                            assert!(!options.contains(&neapolis), "{variant}: {options:?}");
                            assert!(options.contains(&space(&game, "Genua")), "{variant}");
                            caesar_checked += 1;
                        }
                        _ => {}
                    }
                }
                // Caesar fires in round 1 only, so that Legio 5 lives to act.
                if info.round == 1 {
                    fire_for(C)(state, legal, &[])
                } else {
                    pass_all(state, legal, &[])
                }
            });
            if this_swapped {
                swapped += 1;
                assert_ne!(
                    state.location(legio5),
                    Some(roma),
                    "{variant}: Legio 5 gone"
                );
            }
        }
        assert!(
            swapped == 1 && pompey_checked > 0 && caesar_checked > 0,
            "{variant}: {swapped} swaps, {pompey_checked} / {caesar_checked} retreat checks"
        );
    }
}
