//! The event (God) cards under both rulebooks, on constructed positions:
//! Apollo, Jupiter, Mars, Mercury, Neptune, Pluto and Vulcan, and the house
//! rules on the deal. The engine's reading of each card is in
//! docs/rules-notes.md; each test names the rule it checks.

use crate::common;
use common::{block, space};
use std::sync::Arc;

use caesar_workbench::ai::{RandomPlayer, decide, default_hit_victim, hit_candidates};
use caesar_workbench::engine::{Action, Game, Place, State};
use caesar_workbench::scenario::model::{BlockId, CardFace, Setup, SpaceId};
use caesar_workbench::scenario::model::{Event, Side};
use caesar_workbench::scenario::rules::RuleSet;

const C: Side = Side::Caesar;
const P: Side = Side::Pompey;

// ------------------------------------------------------------------ positions

/// A block of a test position: side, block, location, strength as printed
/// (0 = full strength).
type Placed = (Side, &'static str, &'static str, u8);

/// The published game with only `blocks` on the map (everything else in the pools).
fn position_with(rules: RuleSet, blocks: &[Placed]) -> Game {
    let base = crate::common::published("rules-2.0");
    let mut scenario = (*base.scenario).clone();
    scenario.free_deployment = None;
    let mut setup = Setup {
        placements: Vec::new(),
        strengths: Vec::new(),
    };
    for &(side, name, at, strength) in blocks {
        let b = base
            .roster()
            .find(side, name)
            .unwrap_or_else(|| panic!("no block {side:?} {name}"));
        let s = base
            .board()
            .find(at)
            .unwrap_or_else(|| panic!("no space {at}"));
        setup.placements.push((b, s));
        if strength > 0 {
            setup.strengths.push((b, strength));
        }
    }
    scenario.order_of_battle = setup;
    Game::try_new(Arc::new(scenario), Arc::new(rules)).expect("the engine plays it")
}

fn position(variant: &str, blocks: &[Placed]) -> Game {
    position_with(RuleSet::builtin(variant), blocks)
}

fn legal(game: &Game, s: &State) -> Vec<Action> {
    let mut out = Vec::new();
    s.legal_actions(game, &mut out);
    out
}

/// Where `b` may step now (the active group's moves).
fn steps_of(game: &Game, s: &State, b: BlockId) -> Vec<SpaceId> {
    legal(game, s)
        .into_iter()
        .filter_map(|a| match a {
            Action::Step { block, to } if block == b => Some(to),
            _ => None,
        })
        .collect()
}

fn step(game: &Game, s: &mut State, b: BlockId, to: SpaceId) {
    s.try_apply(game, Action::Step { block: b, to })
        .unwrap_or_else(|e| panic!("{} to {}: {e}", game.block_name(b), game.space_name(to)));
}

// ---------------------------------------------------------------------- cards

/// A card wanted in a hand.
#[derive(Debug, Clone, Copy)]
enum Want {
    Event(Event),
    /// A command card with this many moves.
    Moves(u8),
    /// Any command card.
    Command,
}

/// A card as printed (`Mars`, `3/1`) for a wanted card.
fn card_name(want: Want) -> String {
    match want {
        Want::Event(e) => format!("{e:?}"),
        Want::Moves(1) => "1/2".into(),
        Want::Moves(2) => "2/2".into(),
        Want::Moves(3) => "3/1".into(),
        Want::Moves(m) => format!("{m}/1"),
        Want::Command => "2/3".into(),
    }
}

/// Turn 1 of `game`'s deployment, cards to play: Caesar holds cards for
/// `caesar` (one per turn, in order) and Pompey for `pompey`, the rest of
/// each hand command cards; each has discarded a command card. Returns the
/// state and the cards to play.
fn deal(game: &Game, caesar: &[Want], pompey: &[Want]) -> (State, Vec<u8>, Vec<u8>) {
    let mut position = common::deployed(game);
    let held = (game.rules.hand_size - game.rules.discards) as usize;
    let mut taken: Vec<u8> = Vec::new();
    let mut chosen = Vec::new();
    for (side, wants) in [(C, caesar), (P, pompey)] {
        let names: Vec<String> = wants.iter().map(|w| card_name(*w)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let wanted = common::cards_avoiding(game, &names, &taken);
        taken.extend(&wanted);
        let mut hand = wanted.clone();
        let mut discarded = Vec::new();
        // Fill with command cards the deck still has.
        for filler in ["2/3", "2/2", "2/1", "3/1", "2/3", "2/2", "2/1", "3/1"] {
            let Some(c) = game
                .deck_in_play()
                .iter()
                .copied()
                .find(|c| !taken.contains(c) && game.card(*c).name() == filler)
            else {
                continue;
            };
            if hand.len() < held {
                hand.push(c);
            } else if discarded.len() < game.rules.discards as usize {
                discarded.push(c);
            } else {
                break;
            }
            taken.push(c);
        }
        position.hands[side.index()] = hand;
        position.discarded[side.index()] = discarded;
        chosen.push(wanted);
    }
    let ps = chosen.pop().unwrap();
    let cs = chosen.pop().unwrap();
    (common::start(game, &position), cs, ps)
}

fn play(game: &Game, s: &mut State, caesar: u8, pompey: u8) {
    s.try_apply(game, Action::Play(caesar)).unwrap();
    s.try_apply(game, Action::Play(pompey)).unwrap();
}

/// The first turn with Caesar playing `caesar` and Pompey `pompey`.
fn first_turn(game: &Game, caesar: Want, pompey: Want) -> State {
    let (mut s, c, p) = deal(game, &[caesar], &[pompey]);
    play(game, &mut s, c[0], p[0]);
    s
}

// ------------------------------------------------------------------- driving

/// Ends `side`'s command phase: no more moves or levies, no event target.
fn idle(game: &Game, s: &mut State, side: Side) {
    while s.current_player() == Some(side) {
        let l = legal(game, s);
        let Some(a) = [
            Action::EndGroup,
            Action::EndMoves,
            Action::EndLevy,
            Action::PassEvent,
            Action::Surprise(None),
        ]
        .into_iter()
        .find(|a| l.contains(a)) else {
            return;
        };
        s.apply(game, a);
    }
}

/// Fights the battle under way (or starting) to its end, then skips the
/// regroup. A main-attack prompt gets the first road offered. Blocks always
/// fire; forced retreats take the first way out. Returns who fired, with
/// the round.
fn fight(game: &Game, s: &mut State) -> Vec<(u8, BlockId)> {
    let mut fired = Vec::new();
    loop {
        let l = legal(game, s);
        if let Some(main) = l.iter().find(|a| matches!(a, Action::MainAttack(_))) {
            s.apply(game, *main);
            continue;
        }
        let Some(info) = s.battle_info() else {
            break;
        };
        let action = if l.contains(&Action::Fire) {
            fired.push((info.round, info.acting.expect("a block to act")));
            Action::Fire
        } else if let Action::TakeTurn(_) = l[0] {
            l[0] // 7.2: same-letter blocks in roster order
        } else if !hit_candidates(&l).is_empty() {
            Action::TakeHit(default_hit_victim(game, s, &hit_candidates(&l)))
        } else {
            *l.iter()
                .find(|a| matches!(a, Action::Retreat(_)))
                .expect("a forced retreat")
        };
        s.apply(game, action);
    }
    if legal(game, s).contains(&Action::EndRegroup) {
        s.apply(game, Action::EndRegroup);
    }
    fired
}

/// Plays on with passive orders (no moves, no levies, the first event
/// target, every battle fought) until the next card is to be played.
fn to_next_turn(game: &Game, s: &mut State) {
    loop {
        let l = legal(game, s);
        if matches!(l[0], Action::Play(_)) {
            return;
        }
        if let Some(a) = [
            Action::EndGroup,
            Action::EndMoves,
            Action::EndLevy,
            Action::PassEvent,
            Action::Surprise(None),
            Action::EndRegroup,
        ]
        .into_iter()
        .find(|a| l.contains(a))
        {
            s.apply(game, a);
        } else if matches!(
            l[0],
            Action::VulcanCity(_) | Action::JupiterAt(_) | Action::Battle(_)
        ) {
            s.apply(game, l[0]);
        } else {
            fight(game, s);
        }
    }
}

/// How many groups the side to move can still activate (its MP, when every
/// group has a block that can move).
fn groups_left(game: &Game, s: &State) -> usize {
    let mut s = s.clone();
    let side = s.current_player();
    let mut n = 0;
    loop {
        let l = legal(game, &s);
        let Some(g) = l.iter().find(|a| matches!(a, Action::Group(_))) else {
            return n;
        };
        s.apply(game, *g);
        let l = legal(game, &s);
        let first = *l
            .iter()
            .find(|a| matches!(a, Action::Step { .. }))
            .expect("a group that can move");
        s.apply(game, first);
        s.apply(game, Action::EndGroup);
        n += 1;
        if s.current_player() != side {
            return n;
        }
    }
}

/// How many levies the side to move can make after its moves (its LP, when
/// the pool offers enough).
fn levies_left(game: &Game, s: &State) -> usize {
    let mut s = s.clone();
    let side = s.current_player();
    if legal(game, &s).contains(&Action::EndMoves) {
        s.apply(game, Action::EndMoves);
    }
    let mut n = 0;
    while s.current_player() == side {
        let l = legal(game, &s);
        if !l.contains(&Action::EndLevy) {
            break;
        }
        let Some(a) = l
            .iter()
            .find(|a| matches!(a, Action::Levy { .. } | Action::AddStep(_)))
        else {
            break;
        };
        s.apply(game, *a);
        n += 1;
    }
    n
}

// ---------------------------------------------------------------------- Mars

/// Genua's group next to enemy Roma and Massilia, vacant Lugdunum, a navis in
/// Genua's port and a lone legion at Aquileia, out of reach of any enemy.
const MARS_FRONT: &[Placed] = &[
    (C, "Legio 11", "Genua", 0),
    (C, "Legio 12", "Genua", 0),
    (C, "Navis 1", "Genua", 0),
    (C, "Legio 13", "Aquileia", 0),
    (P, "Legio 1", "Roma", 0),
    (P, "Legio 3", "Massilia", 0),
];

#[test]
fn rule_mars_1_1_the_card_is_one_groups_attack_on_one_enemy_location() {
    let game = position("rules-1.1", MARS_FRONT);
    let mut s = first_turn(&game, Want::Event(Event::Mars), Want::Command);
    assert_eq!(s.player1(), C);
    let (genua, roma, massilia) = (
        space(&game, "Genua"),
        space(&game, "Roma"),
        space(&game, "Massilia"),
    );
    let l = legal(&game, &s);
    assert!(l.contains(&Action::Group(genua)));
    assert!(
        !l.contains(&Action::Group(space(&game, "Aquileia"))),
        "a group with no enemy next to it cannot use Mars in 1.1"
    );
    s.try_apply(&game, Action::Group(genua)).unwrap();
    let l11 = block(&game, C, "Legio 11");
    let mut targets = steps_of(&game, &s, l11);
    targets.sort();
    let mut want = vec![roma, massilia];
    want.sort();
    assert_eq!(targets, want, "attacks only, no move to vacant Lugdunum");
    step(&game, &mut s, l11, roma);
    assert_eq!(
        steps_of(&game, &s, block(&game, C, "Legio 12")),
        vec![roma],
        "one location is attacked"
    );
    step(&game, &mut s, block(&game, C, "Legio 12"), roma);
    s.try_apply(&game, Action::EndGroup).unwrap();
    assert_eq!(
        legal(&game, &s),
        vec![Action::Surprise(Some(roma)), Action::Surprise(None)],
        "the card's attack is the battle to surprise"
    );
    s.try_apply(&game, Action::Surprise(Some(roma))).unwrap();
    assert_eq!(s.current_player(), Some(P), "one group, no levy");
}

#[test]
fn rule_mars_2_0_adds_one_land_group_move() {
    let game = position("rules-2.0", MARS_FRONT);
    let mut s = first_turn(&game, Want::Event(Event::Mars), Want::Command);
    let genua = space(&game, "Genua");
    let lugdunum = space(&game, "Lugdunum");
    let l = legal(&game, &s);
    assert!(
        l.contains(&Action::Group(space(&game, "Aquileia"))),
        "2.0: any group may move"
    );
    s.try_apply(&game, Action::Group(genua)).unwrap();
    assert!(
        steps_of(&game, &s, block(&game, C, "Navis 1")).is_empty(),
        "land units only: the navis stays"
    );
    let l11 = block(&game, C, "Legio 11");
    assert!(steps_of(&game, &s, l11).contains(&space(&game, "Roma")));
    step(&game, &mut s, l11, lugdunum);
    assert!(
        steps_of(&game, &s, l11).contains(&space(&game, "Cenabum")),
        "an ordinary two-city move"
    );
    step(
        &game,
        &mut s,
        block(&game, C, "Legio 12"),
        space(&game, "Roma"),
    );
    s.try_apply(&game, Action::EndGroup).unwrap();
    assert!(
        legal(&game, &s)
            .iter()
            .all(|a| matches!(a, Action::Surprise(_))),
        "no second group move: the surprise is named"
    );
    s.try_apply(&game, Action::Surprise(None)).unwrap();
    assert_eq!(s.current_player(), Some(P), "only one group move");
}

#[test]
fn rule_mars_1_1_surprise_attackers_fire_first_in_round_1() {
    // Defender: A, B, B, C; attacker: A, C, C. Normally the defender's A
    // fires first; by surprise every attacker fires before any defender.
    let blocks: &[Placed] = &[
        (C, "Auxilia 3", "Genua", 0),
        (C, "Legio 11", "Genua", 0),
        (C, "Legio 12", "Genua", 0),
        (P, "Scipio", "Roma", 0),
        (P, "Pompey", "Roma", 0),
        (P, "Auxilia 1", "Roma", 0),
        (P, "Legio 1", "Roma", 0),
    ];
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(variant, blocks);
        let (genua, roma) = (space(&game, "Genua"), space(&game, "Roma"));
        let scipio = block(&game, P, "Scipio");
        let aux3 = block(&game, C, "Auxilia 3");
        let mut defender_twice = 0;
        for surprise in [true, false] {
            let (start, c, p) = deal(&game, &[Want::Event(Event::Mars)], &[Want::Command]);
            {
                // Every die a miss: the battle goes on to round 2.
                let mut s = start.clone();
                s.set_dice(&[6; 40]);
                play(&game, &mut s, c[0], p[0]);
                s.try_apply(&game, Action::Group(genua)).unwrap();
                for name in ["Auxilia 3", "Legio 11", "Legio 12"] {
                    step(&game, &mut s, block(&game, C, name), roma);
                }
                s.try_apply(&game, Action::EndGroup).unwrap();
                assert_eq!(
                    legal(&game, &s),
                    vec![Action::Surprise(Some(roma)), Action::Surprise(None)],
                    "{variant}: the Mars player names his battle when his moves are done"
                );
                s.try_apply(&game, Action::Surprise(surprise.then_some(roma)))
                    .unwrap();
                idle(&game, &mut s, P);
                let fired = fight(&game, &mut s);
                let round1: Vec<Side> = fired
                    .iter()
                    .filter(|(r, _)| *r == 1)
                    .map(|(_, b)| s.side(*b))
                    .collect();
                if surprise {
                    assert_eq!(fired[0].1, aux3, "{variant}: A before C among attackers");
                    let first_p = round1.iter().position(|x| *x == P).unwrap();
                    assert!(
                        round1[..first_p].iter().all(|x| *x == C)
                            && round1[first_p..].iter().all(|x| *x == P)
                            && first_p == 3,
                        "{variant}: {round1:?}"
                    );
                    // Round 2 is back to normal: the defender's A first, so
                    // the defender may fire twice in a row.
                    if let Some((_, b)) = fired.iter().find(|(r, _)| *r == 2)
                        && fired.iter().any(|(r, x)| *r == 2 && *x == scipio)
                    {
                        assert_eq!(*b, scipio, "{variant}");
                        defender_twice += 1;
                    }
                } else {
                    assert_eq!(fired[0].1, scipio, "{variant}: no surprise, defender first");
                }
            }
        }
        assert!(defender_twice > 0, "{variant}: no round 2 seen");
    }
}

#[test]
fn rule_mars_1_1_a_navis_attack_is_surprised_too() {
    // 1.1 Mars is the attack of one location's blocks, land or navis.
    let game = position(
        "rules-1.1",
        &[
            (C, "Navis 4", "Genua", 0),
            (C, "Navis 5", "Genua", 0),
            (P, "Navis 1", "Mare Tyrrhenum", 0),
        ],
    );
    let mut s = first_turn(&game, Want::Event(Event::Mars), Want::Command);
    let sea = space(&game, "Mare Tyrrhenum");
    s.try_apply(&game, Action::Group(space(&game, "Genua")))
        .unwrap();
    assert_eq!(steps_of(&game, &s, block(&game, C, "Navis 4")), vec![sea]);
    step(&game, &mut s, block(&game, C, "Navis 4"), sea);
    s.try_apply(&game, Action::EndGroup).unwrap();
    assert!(legal(&game, &s).contains(&Action::Surprise(Some(sea))));
    s.try_apply(&game, Action::Surprise(Some(sea))).unwrap();
    idle(&game, &mut s, P);
    assert_eq!(s.battle_info().map(|b| b.space), Some(sea));
    let fired = fight(&game, &mut s);
    assert_eq!(s.side(fired[0].1), C, "the attacking navis fire first");
}

#[test]
fn rule_mars_2_0_one_battle_named_at_the_end_of_movement_gets_the_surprise() {
    // "Choose 1 battle ... You may start multiple battles, but only 1 gets
    // the Mars effect": the card is resolved in its player's command phase,
    // so he names the battle then, hidden from the opponent until fought.
    let game = position(
        "rules-2.0",
        &[
            (C, "Legio 11", "Genua", 0),
            (C, "Legio 12", "Genua", 0),
            (P, "Legio 1", "Roma", 0),
            (P, "Legio 3", "Massilia", 0),
        ],
    );
    let (roma, massilia) = (space(&game, "Roma"), space(&game, "Massilia"));
    let moved = {
        let mut s = first_turn(&game, Want::Event(Event::Mars), Want::Command);
        s.try_apply(&game, Action::Group(space(&game, "Genua")))
            .unwrap();
        step(&game, &mut s, block(&game, C, "Legio 11"), roma);
        step(&game, &mut s, block(&game, C, "Legio 12"), massilia);
        s.try_apply(&game, Action::EndGroup).unwrap();
        s
    };
    assert_eq!(
        legal(&game, &moved),
        vec![
            Action::Surprise(Some(roma)),
            Action::Surprise(Some(massilia)),
            Action::Surprise(None)
        ]
    );
    let named = |at: SpaceId| {
        let mut s = moved.clone();
        s.try_apply(&game, Action::Surprise(Some(at))).unwrap();
        s
    };
    // Hidden: Pompey's view is the same whichever battle was named.
    let (at_roma, at_massilia) = (named(roma), named(massilia));
    assert!(at_roma.view(P, false) == at_massilia.view(P, false));
    assert!(at_roma.view(C, false) != at_massilia.view(C, false));
    for at in [roma, massilia] {
        let mut s = named(at);
        idle(&game, &mut s, P);
        for battle in [roma, massilia] {
            s.try_apply(&game, Action::Battle(battle)).ok();
            assert_eq!(s.battle_info().map(|b| b.space), Some(battle));
            let fired = fight(&game, &mut s);
            // Both legions are C: the defender fires first unless surprised.
            assert_eq!(s.side(fired[0].1), if battle == at { C } else { P });
        }
    }
}

#[test]
fn rule_mars_surprise_only_in_a_battle_the_card_player_attacks() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(
            variant,
            &[
                (C, "Legio 11", "Genua", 0),
                (C, "Legio 13", "Ravenna", 0),
                (P, "Legio 1", "Roma", 0),
            ],
        );
        let mut s = first_turn(&game, Want::Event(Event::Mars), Want::Command);
        idle(&game, &mut s, C);
        let roma = space(&game, "Roma");
        let ravenna = space(&game, "Ravenna");
        s.try_apply(&game, Action::Group(roma)).unwrap();
        step(&game, &mut s, block(&game, P, "Legio 1"), ravenna);
        idle(&game, &mut s, P);
        let info = s.battle_info().expect("Pompey's attack on Ravenna");
        assert_eq!((info.space, info.attacker), (ravenna, P));
        assert!(
            !legal(&game, &s)
                .iter()
                .any(|a| matches!(a, Action::Surprise(_))),
            "{variant}: Caesar defends here"
        );
    }
}

// ------------------------------------------------------------------- Neptune

const NEPTUNE_FRONT: &[Placed] = &[
    (C, "Navis 4", "Genua", 0),
    (C, "Navis 5", "Genua", 0),
    (C, "Legio 11", "Genua", 0),
    (P, "Navis 1", "Mare Tyrrhenum", 0),
];

#[test]
fn rule_neptune_1_1_the_navis_of_one_port_attack_one_sea_by_surprise() {
    let game = position("rules-1.1", NEPTUNE_FRONT);
    let sea = space(&game, "Mare Tyrrhenum");
    let (n4, n5) = (block(&game, C, "Navis 4"), block(&game, C, "Navis 5"));
    for surprise in [true, false] {
        let mut s = first_turn(&game, Want::Event(Event::Neptune), Want::Command);
        s.try_apply(&game, Action::Group(space(&game, "Genua")))
            .unwrap();
        assert!(
            steps_of(&game, &s, block(&game, C, "Legio 11")).is_empty(),
            "land blocks never move with Neptune"
        );
        assert_eq!(
            steps_of(&game, &s, n4),
            vec![sea],
            "1.1: the attack only (vacant Mare Hispanum is not offered)"
        );
        step(&game, &mut s, n4, sea);
        step(&game, &mut s, n5, sea);
        s.try_apply(&game, Action::EndGroup).unwrap();
        s.try_apply(&game, Action::Surprise(surprise.then_some(sea)))
            .unwrap();
        idle(&game, &mut s, P);
        let fired = fight(&game, &mut s);
        let first = s.side(fired[0].1);
        // All navis are D: the defender fires first unless surprised.
        assert_eq!(first, if surprise { C } else { P });
        if surprise {
            // Both attacking navis fire before the defender does, if it can.
            let round1: Vec<BlockId> = fired
                .iter()
                .filter(|(r, _)| *r == 1)
                .map(|(_, b)| *b)
                .collect();
            if let Some(first_p) = round1.iter().position(|b| s.side(*b) == P) {
                assert_eq!(round1[..first_p], [n4, n5]);
            }
        }
    }
}

#[test]
fn rule_neptune_2_0_one_navis_group_move_and_a_shore_attack_surprise() {
    let game = position("rules-2.0", NEPTUNE_FRONT);
    let mut s = first_turn(&game, Want::Event(Event::Neptune), Want::Command);
    s.try_apply(&game, Action::Group(space(&game, "Genua")))
        .unwrap();
    assert!(steps_of(&game, &s, block(&game, C, "Legio 11")).is_empty());
    let n4 = block(&game, C, "Navis 4");
    let hispanum = space(&game, "Mare Hispanum");
    assert!(
        steps_of(&game, &s, n4).contains(&hispanum),
        "2.0: a group move, not only an attack"
    );
    step(&game, &mut s, n4, hispanum);
    assert!(
        steps_of(&game, &s, n4).contains(&space(&game, "Oceanus Atlanticus")),
        "two seas without attacking"
    );

    // A shore attack from a sea on an enemy port is a Neptune battle.
    let game = position(
        "rules-2.0",
        &[
            (C, "Navis 4", "Mare Tyrrhenum", 0),
            (C, "Legio 11", "Genua", 0),
            (P, "Legio 1", "Roma", 0),
        ],
    );
    let mut s = first_turn(&game, Want::Event(Event::Neptune), Want::Command);
    let roma = space(&game, "Roma");
    s.try_apply(&game, Action::Group(space(&game, "Mare Tyrrhenum")))
        .unwrap();
    step(&game, &mut s, block(&game, C, "Navis 4"), roma);
    s.try_apply(&game, Action::EndGroup).unwrap();
    assert!(legal(&game, &s).contains(&Action::Surprise(Some(roma))));
    s.try_apply(&game, Action::Surprise(Some(roma))).unwrap();
    idle(&game, &mut s, P);
    assert_eq!(s.battle_info().map(|b| b.space), Some(roma));
    let fired = fight(&game, &mut s);
    assert_eq!(s.side(fired[0].1), C, "the shore attack is surprised");
}

// ------------------------------------------------------------------- Mercury

#[test]
fn rule_6_1_movement_and_attacking_example_mercury_attacks_tarraco_and_genua_two_ways() {
    // Rules "Movement & Attacking": Caesar blocks in Massilia, 3 Pompey blocks
    // in Tarraco and 3 in Genua. Mercury allows an attack on Tarraco, two
    // cities away, and a two-pronged attack on Genua (4 by the major road,
    // 2 more through Lugdunum).
    let blocks: &[Placed] = &[
        (C, "Caesar", "Massilia", 0),
        (C, "Antonius", "Massilia", 0),
        (C, "Legio 11", "Massilia", 0),
        (C, "Legio 12", "Massilia", 0),
        (C, "Legio 13", "Massilia", 0),
        (C, "Legio 14", "Massilia", 0),
        (C, "Legio 16", "Massilia", 0),
        (P, "Legio 5", "Tarraco", 0),
        (P, "Legio 6", "Tarraco", 0),
        (P, "Auxilia 1", "Tarraco", 0),
        (P, "Legio 1", "Genua", 0),
        (P, "Legio 3", "Genua", 0),
        (P, "Auxilia 2", "Genua", 0),
    ];
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(variant, blocks);
        let [massilia, genua, tarraco, narbo, lugdunum] =
            ["Massilia", "Genua", "Tarraco", "Narbo", "Lugdunum"].map(|n| space(&game, n));
        let b = |n: &str| block(&game, C, n);

        // Without Mercury (2.0: Caesar is Player 1 on the first turn).
        if variant == "rules-2.0" {
            let mut s = first_turn(&game, Want::Moves(2), Want::Command);
            s.try_apply(&game, Action::Group(massilia)).unwrap();
            step(&game, &mut s, b("Legio 16"), narbo);
            step(&game, &mut s, b("Legio 13"), lugdunum);
            assert!(!steps_of(&game, &s, b("Legio 16")).contains(&tarraco));
            assert!(!steps_of(&game, &s, b("Legio 13")).contains(&genua));
        }

        let mut s = first_turn(&game, Want::Event(Event::Mercury), Want::Command);
        s.try_apply(&game, Action::Group(massilia)).unwrap();
        for n in ["Caesar", "Antonius", "Legio 11", "Legio 12"] {
            step(&game, &mut s, b(n), genua);
        }
        for n in ["Legio 13", "Legio 14"] {
            step(&game, &mut s, b(n), lugdunum);
            step(&game, &mut s, b(n), genua);
        }
        step(&game, &mut s, b("Legio 16"), narbo);
        step(&game, &mut s, b("Legio 16"), tarraco);
        s.try_apply(&game, Action::EndGroup).unwrap();
        let road = |x, y| game.board().link_between(x, y).unwrap();
        let (direct, around) = (road(massilia, genua), road(lugdunum, genua));
        // 6.12 (1.1): the attacker declares the main attack (at the end of his
        // moves, or at the latest when the battle starts).
        let mut declared = false;
        let mut declare = |s: &mut State| {
            let mut mains: Vec<Action> = legal(&game, s)
                .into_iter()
                .filter(|a| matches!(a, Action::MainAttack(_)))
                .collect();
            if mains.is_empty() || declared {
                return;
            }
            mains.sort_by_key(|a| format!("{a:?}"));
            let mut want = vec![Action::MainAttack(direct), Action::MainAttack(around)];
            want.sort_by_key(|a| format!("{a:?}"));
            assert_eq!(mains, want);
            s.try_apply(&game, Action::MainAttack(around)).unwrap();
            declared = true;
        };
        declare(&mut s);
        idle(&game, &mut s, C);
        idle(&game, &mut s, P);
        s.try_apply(&game, Action::Battle(genua)).unwrap();
        declare(&mut s);
        assert_eq!(declared, variant == "rules-1.1", "{variant}");
        let reserves = if variant == "rules-1.1" {
            vec!["Caesar", "Antonius", "Legio 11", "Legio 12"]
        } else {
            // 2.0: the first road used is the main attack.
            vec!["Legio 13", "Legio 14"]
        };
        let fired = fight(&game, &mut s);
        let round1: Vec<BlockId> = fired
            .iter()
            .filter(|(r, _)| *r == 1)
            .map(|(_, x)| *x)
            .collect();
        assert!(round1.iter().any(|x| s.side(*x) == C));
        for r in reserves {
            assert!(
                !round1.contains(&b(r)),
                "{variant}: {r} is a reserve and does not fire in round 1"
            );
        }
    }
}

#[test]
fn rule_mercury_a_third_city_is_never_an_attack() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(
            variant,
            &[
                (C, "Legio 11", "Massilia", 0),
                (P, "Legio 2", "Carthago Nova", 0),
            ],
        );
        let mut s = first_turn(&game, Want::Event(Event::Mercury), Want::Command);
        let l11 = block(&game, C, "Legio 11");
        s.try_apply(&game, Action::Group(space(&game, "Massilia")))
            .unwrap();
        step(&game, &mut s, l11, space(&game, "Narbo"));
        step(&game, &mut s, l11, space(&game, "Tarraco"));
        let third = steps_of(&game, &s, l11);
        assert!(
            third.contains(&space(&game, "Bilbilis")),
            "{variant}: a third city"
        );
        assert!(
            !third.contains(&space(&game, "Carthago Nova")),
            "{variant}: no attack on the third step"
        );
        step(&game, &mut s, l11, space(&game, "Bilbilis"));
        assert!(
            steps_of(&game, &s, l11).is_empty(),
            "{variant}: no fourth city"
        );
    }
}

#[test]
fn rule_mercury_2_0_moves_land_blocks_only_1_1_navis_too() {
    let blocks: &[Placed] = &[
        (C, "Legio 11", "Massilia", 0),
        (C, "Navis 1", "Massilia", 0),
        (C, "Navis 2", "Mare Internum", 0),
    ];
    let [massilia, hispanum, tyrrhenum, internum] = [
        "Massilia",
        "Mare Hispanum",
        "Mare Tyrrhenum",
        "Mare Internum",
    ];
    {
        let game = position("rules-1.1", blocks);
        let n1 = block(&game, C, "Navis 1");
        let mut s = first_turn(&game, Want::Event(Event::Mercury), Want::Command);
        assert!(legal(&game, &s).contains(&Action::Group(space(&game, internum))));
        s.try_apply(&game, Action::Group(space(&game, massilia)))
            .unwrap();
        step(&game, &mut s, n1, space(&game, hispanum));
        step(&game, &mut s, n1, space(&game, tyrrhenum));
        assert!(
            steps_of(&game, &s, n1).contains(&space(&game, internum)),
            "1.1: the navis of the group get the extra sea"
        );
    }
    {
        let game = position("rules-2.0", blocks);
        let mut s = first_turn(&game, Want::Event(Event::Mercury), Want::Command);
        assert!(
            !legal(&game, &s).contains(&Action::Group(space(&game, internum))),
            "2.0: a group of navis does not move"
        );
        s.try_apply(&game, Action::Group(space(&game, massilia)))
            .unwrap();
        assert!(
            steps_of(&game, &s, block(&game, C, "Navis 1")).is_empty(),
            "2.0: the navis of the group stay"
        );
        let l11 = block(&game, C, "Legio 11");
        step(&game, &mut s, l11, space(&game, "Narbo"));
        step(&game, &mut s, l11, space(&game, "Tarraco"));
        assert!(
            !steps_of(&game, &s, l11).is_empty(),
            "the land block's third city"
        );
    }
}

// --------------------------------------------------------------------- Pluto

/// Moves blocks of the active group into `to` while the engine allows it.
fn pour_into(game: &Game, s: &mut State, to: SpaceId) -> usize {
    let mut entered = 0;
    while let Some(a) = legal(game, s)
        .into_iter()
        .find(|a| matches!(a, Action::Step { to: t, .. } if *t == to))
    {
        s.apply(game, a);
        entered += 1;
    }
    entered
}

/// Seven blocks at Genua: Roma by a major road, Lugdunum by a minor one.
fn pluto_front(variant: &str, roma_held: bool) -> Game {
    let mut blocks: Vec<Placed> = [
        "Caesar", "Antonius", "Legio 11", "Legio 12", "Legio 13", "Legio 14", "Legio 16",
    ]
    .into_iter()
    .map(|n| (C, n, "Genua", 0))
    .collect();
    blocks.push((C, "Navis 1", "Genua", 0));
    blocks.push((P, "Legio 38", "Alexandria", 0));
    if roma_held {
        blocks.push((P, "Legio 1", "Roma", 0));
        blocks.push((P, "Legio 3", "Lugdunum", 0));
    }
    position(variant, &blocks)
}

/// Blocks Pluto's group moves into Roma and Lugdunum, each counted from the start.
fn pluto_counts(variant: &str, roma_held: bool, card: Want) -> (usize, usize, bool) {
    let game = pluto_front(variant, roma_held);
    let mut s = first_turn(&game, card, Want::Command);
    s.try_apply(&game, Action::Group(space(&game, "Genua")))
        .unwrap();
    let navis_moves = !steps_of(&game, &s, block(&game, C, "Navis 1")).is_empty();
    let mut t = s.clone();
    let roma = pour_into(&game, &mut s, space(&game, "Roma"));
    let lugdunum = pour_into(&game, &mut t, space(&game, "Lugdunum"));
    (roma, lugdunum, navis_moves)
}

#[test]
fn rule_pluto_1_1_raises_limits_for_every_move_of_the_group() {
    let pluto = Want::Event(Event::Pluto);
    // Major 6 instead of 4, minor 3 instead of 2, attacking or not; navis move.
    assert_eq!(pluto_counts("rules-1.1", false, pluto), (6, 3, true));
    assert_eq!(pluto_counts("rules-1.1", true, pluto), (6, 3, true));
}

#[test]
fn rule_pluto_2_0_raises_limits_for_attacks_only() {
    let pluto = Want::Event(Event::Pluto);
    // Into vacant cities the usual limits; into enemy ones 6 and 3. Land units only.
    assert_eq!(pluto_counts("rules-2.0", false, pluto), (4, 2, false));
    assert_eq!(pluto_counts("rules-2.0", true, pluto), (6, 3, false));
    // The usual limits for an ordinary group (Caesar is Player 1 on turn 1).
    assert_eq!(
        pluto_counts("rules-2.0", true, Want::Moves(2)),
        (4, 2, true)
    );
}

/// Six of Caesar's blocks at Genua, a major road from Roma, where Pompey's
/// `defender` stands (strength 0: full); and the first turn dealt with
/// Pluto for Caesar and a command card for Pompey.
fn six_against_roma(variant: &str, defender: (&'static str, u8)) -> (Game, State, [u8; 2]) {
    let mut blocks: Vec<Placed> = [
        "Caesar", "Antonius", "Legio 11", "Legio 12", "Legio 13", "Legio 14",
    ]
    .into_iter()
    .map(|n| (C, n, "Genua", 0))
    .collect();
    blocks.push((P, defender.0, "Roma", defender.1));
    let game = position(variant, &blocks);
    let (start, c, p) = deal(&game, &[Want::Event(Event::Pluto)], &[Want::Command]);
    (game, start, [c[0], p[0]])
}

/// Plays `cards` (Caesar's Pluto, Pompey's command), pours all six into Roma
/// under Pluto, and lets Pompey do nothing: the battle for Roma comes next.
fn pluto_six_into_roma(game: &Game, s: &mut State, cards: [u8; 2], variant: &str) {
    play(game, s, cards[0], cards[1]);
    s.try_apply(game, Action::Group(space(game, "Genua")))
        .unwrap();
    assert_eq!(pour_into(game, s, space(game, "Roma")), 6, "{variant}");
    s.try_apply(game, Action::EndGroup).unwrap();
    idle(game, s, P);
}

#[test]
fn rule_pluto_limits_do_not_apply_to_regroups() {
    // Six blocks attack Roma by the major road under Pluto and win; only four
    // may regroup back along that road (7.7 uses the usual limits).
    for variant in ["rules-1.1", "rules-2.0"] {
        let (game, start, cards) = six_against_roma(variant, ("Auxilia 3", 1));
        let (genua, roma) = (space(&game, "Genua"), space(&game, "Roma"));
        {
            // Every die hits: Auxilia 3 (at I) falls to the first attacker
            // to fire, and a hit it may score costs Caesar a step, not a block.
            let mut s = start.clone();
            s.set_dice(&[1; 8]);
            pluto_six_into_roma(&game, &mut s, cards, variant);
            // Fight without the final regroup.
            loop {
                let l = legal(&game, &s);
                if s.battle_info().is_none() {
                    break;
                }
                let a = if l.contains(&Action::Fire) {
                    Action::Fire
                } else if !hit_candidates(&l).is_empty() {
                    Action::TakeHit(default_hit_victim(&game, &s, &hit_candidates(&l)))
                } else {
                    l[0]
                };
                s.apply(&game, a);
            }
            assert!(
                s.blocks_at(roma, C).count() >= 5,
                "{variant}: five blocks won"
            );
            let regrouped = std::iter::from_fn(|| {
                let a = legal(&game, &s)
                    .into_iter()
                    .find(|a| matches!(a, Action::Regroup { to, .. } if *to == genua))?;
                s.apply(&game, a);
                Some(())
            })
            .count();
            assert_eq!(regrouped, 4, "{variant}");
        }
    }
}

#[test]
fn rule_pluto_limits_do_not_apply_to_retreats() {
    // Six blocks attack Roma by the major road under Pluto; when they retreat
    // along it only four may go each round (7.61 uses the usual limits).
    for variant in ["rules-1.1", "rules-2.0"] {
        let (game, mut s, cards) = six_against_roma(variant, ("Legio 1", 0));
        let genua = space(&game, "Genua");
        pluto_six_into_roma(&game, &mut s, cards, variant);
        // Nobody fires; every Caesar block retreats to Genua when it may.
        let mut per_round = [0; 5];
        while let Some(info) = s.battle_info() {
            let l = legal(&game, &s);
            let a = match info.acting {
                Some(b) if s.side(b) == C && l.contains(&Action::Retreat(genua)) => {
                    per_round[info.round as usize] += 1;
                    Action::Retreat(genua)
                }
                _ if l.contains(&Action::Pass) => Action::Pass,
                _ => l[0],
            };
            s.apply(&game, a);
        }
        assert_eq!(per_round, [0, 0, 4, 2, 0], "{variant}");
    }
}

// -------------------------------------------------------------------- Vulcan

#[test]
fn rule_vulcan_takes_a_step_from_every_block_and_kills_those_at_i() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(
            variant,
            &[
                (C, "Legio 11", "Genua", 0),
                (P, "Pompey", "Roma", 1),
                (P, "Legio 1", "Roma", 0),
                (P, "Navis 1", "Roma", 1),
                (P, "Elephant", "Roma", 2),
                (P, "Ballista", "Roma", 2),
                (P, "Legio 3", "Ravenna", 0),
            ],
        );
        let mut s = first_turn(&game, Want::Event(Event::Vulcan), Want::Command);
        let roma = space(&game, "Roma");
        let b = |n: &str| block(&game, P, n);
        s.try_apply(&game, Action::VulcanCity(roma)).unwrap();
        assert_eq!(
            s.place(b("Pompey")),
            Place::Trophy,
            "{variant}: a leader at I dies"
        );
        assert_eq!(s.trophies(C), 1);
        assert_eq!(s.vp(&game)[0], 1, "{variant}: 1 VP for the leader");
        assert_eq!(
            s.place(b("Navis 1")),
            Place::Eliminated,
            "{variant}: navis too"
        );
        assert_eq!(
            s.place(b("Elephant")),
            Place::Eliminated,
            "{variant}: elephant II"
        );
        assert_eq!(s.steps(b("Legio 1")), 3, "{variant}");
        assert_eq!(s.steps(b("Ballista")), 1, "{variant}");
        assert_eq!(s.steps(b("Legio 3")), 3, "{variant}: only the city struck");
        assert!(s.is_friendly(roma, P));
        assert_eq!(
            s.current_player(),
            Some(P),
            "{variant}: Pompey's command follows"
        );
    }
}

#[test]
fn rule_vulcan_2_0_spares_cleopatra_at_i_1_1_turns_her_coat() {
    let blocks = |strength: u8| -> Vec<Placed> {
        vec![
            (C, "Legio 11", "Pelusium", 0),
            (P, "Cleopatra", "Alexandria", strength),
            (P, "Legio 38", "Alexandria", 0),
        ]
    };
    let alexandria = "Alexandria";
    // 2.0: not reduced at I; reduced like any block above I.
    for (strength, left) in [(1, 1), (2, 1)] {
        let game = position("rules-2.0", &blocks(strength));
        let mut s = first_turn(&game, Want::Event(Event::Vulcan), Want::Command);
        s.try_apply(&game, Action::VulcanCity(space(&game, alexandria)))
            .unwrap();
        let cleo = block(&game, P, "Cleopatra");
        assert_eq!(
            (s.side(cleo), s.steps(cleo)),
            (P, left),
            "2.0 at {strength}"
        );
        assert_eq!(s.steps(block(&game, P, "Legio 38")), 3);
        assert!(s.is_friendly(space(&game, alexandria), P));
    }
    // 1.1: "no exceptions": she changes sides at I (7.52) and the city is
    // fought over, her new side attacking.
    let game = position("rules-1.1", &blocks(1));
    let mut s = first_turn(&game, Want::Event(Event::Vulcan), Want::Command);
    let city = space(&game, alexandria);
    s.try_apply(&game, Action::VulcanCity(city)).unwrap();
    let cleo = block(&game, P, "Cleopatra");
    assert_eq!(
        (s.side(cleo), s.steps(cleo), s.location(cleo)),
        (C, 1, Some(city))
    );
    assert!(s.is_contested(city));
    idle(&game, &mut s, P);
    let info = s.battle_info().expect("a battle in Alexandria");
    assert_eq!((info.space, info.attacker), (city, C));
}

#[test]
fn rule_vulcan_1_1_on_ones_own_city_cleopatra_joins_the_other_side_as_attacker() {
    // Pompey strikes his own Alexandria: Cleopatra at I goes over to Caesar,
    // who attacks there (her new side is the Attacker, rules-notes conventions).
    let game = position(
        "rules-1.1",
        &[
            (C, "Legio 11", "Genua", 0),
            (P, "Cleopatra", "Alexandria", 1),
            (P, "Legio 38", "Alexandria", 0),
        ],
    );
    let mut s = first_turn(&game, Want::Command, Want::Event(Event::Vulcan));
    assert_eq!(s.player1(), P);
    let city = space(&game, "Alexandria");
    s.try_apply(&game, Action::VulcanCity(city)).unwrap();
    assert_eq!(s.side(block(&game, P, "Cleopatra")), C);
    assert_eq!(s.steps(block(&game, P, "Legio 38")), 3);
    idle(&game, &mut s, C);
    let info = s.battle_info().expect("a battle in Alexandria");
    assert_eq!((info.space, info.attacker), (city, C));
}

#[test]
fn rule_vulcan_without_a_target_has_no_effect() {
    // Pompey holds no city, only a navis at sea.
    let blocks: &[Placed] = &[
        (C, "Legio 11", "Genua", 0),
        (P, "Navis 1", "Mare Internum", 0),
    ];
    let game = position("rules-2.0", blocks);
    let mut s = first_turn(&game, Want::Event(Event::Vulcan), Want::Command);
    assert_eq!(
        legal(&game, &s),
        vec![Action::PassEvent],
        "2.0: no enemy city"
    );
    s.try_apply(&game, Action::PassEvent).unwrap();
    assert_eq!(s.steps(block(&game, C, "Legio 11")), 3);
    assert_eq!(s.current_player(), Some(P), "the game goes on");
}

#[test]
fn rule_vulcan_1_1_may_designate_a_vacant_city_2_0_only_an_enemy_one() {
    // Pompey holds no city: 2.0 has no target (above); 1.1 "a designated
    // city" may be any, so Caesar need not strike his own Genua.
    let blocks: &[Placed] = &[
        (C, "Legio 11", "Genua", 0),
        (P, "Navis 1", "Mare Internum", 0),
    ];
    let game = position("rules-1.1", blocks);
    let mut s = first_turn(&game, Want::Event(Event::Vulcan), Want::Command);
    let offered = legal(&game, &s);
    let cities = game
        .board()
        .ids()
        .filter(|c| game.board().space(*c).kind.is_city())
        .count();
    assert_eq!(offered.len(), cities, "1.1: every city, vacant ones too");
    assert!(!offered.contains(&Action::PassEvent), "1.1: no pass");
    let roma = space(&game, "Roma");
    assert!(offered.contains(&Action::VulcanCity(roma)));
    s.try_apply(&game, Action::VulcanCity(roma)).unwrap();
    assert_eq!(s.steps(block(&game, C, "Legio 11")), 3, "nothing struck");
    assert_eq!(s.current_player(), Some(P), "the game goes on");
}

// ------------------------------------------------------------------- Jupiter

/// Caesar at Genua; Pompey at Roma (next to Genua), Neapolis (not), Aleria
/// (by sea only), and navis on a sea by Genua and one far away.
fn jupiter_front(variant: &str, pompey_strength: u8, roma: &[Placed]) -> Game {
    let mut blocks: Vec<Placed> = vec![
        (C, "Legio 11", "Genua", 0),
        (P, "Pompey", "Roma", pompey_strength),
        (P, "Navis 1", "Roma", 0),
        (P, "Legio 3", "Neapolis", 0),
        (P, "Auxilia 1", "Aleria", 0),
        (P, "Navis 2", "Mare Tyrrhenum", 0),
        (P, "Navis 3", "Mare Internum", 0),
    ];
    blocks.extend_from_slice(roma);
    position(variant, &blocks)
}

#[test]
fn rule_jupiter_targets_enemy_blocks_next_to_a_friendly_city() {
    let game = jupiter_front("rules-1.1", 0, &[(P, "Legio 1", "Roma", 3)]);
    let s = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
    let at = |names: &[&str]| -> Vec<Action> {
        names
            .iter()
            .map(|n| Action::JupiterAt(space(&game, n)))
            .collect()
    };
    assert_eq!(
        legal(&game, &s),
        at(&["Roma", "Mare Tyrrhenum"]),
        "1.1: Roma (its port's navis too) and the sea by Genua; not Neapolis, Aleria or far seas"
    );
    let game = jupiter_front("rules-2.0", 0, &[(P, "Legio 1", "Roma", 3)]);
    let s = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
    assert_eq!(
        legal(&game, &s),
        vec![Action::JupiterAt(space(&game, "Roma"))],
        "2.0: a city next to a friendly city; no navis at sea"
    );
}

#[test]
fn rule_jupiter_1_1_the_player_points_at_a_hidden_block_not_a_known_one() {
    // 1.1 "a defection of one enemy block": the blocks stand upright, so
    // the choice offered is a location; which block it is, no one learns
    // until it is taken.
    fn roma_with(legion: &'static str) -> Vec<String> {
        let game = position(
            "rules-1.1",
            &[
                (C, "Legio 11", "Genua", 0),
                (P, "Pompey", "Roma", 0),
                (P, legion, "Roma", 0),
            ],
        );
        let s = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
        legal(&game, &s)
            .into_iter()
            .map(|a| game.action_text(a))
            .collect()
    }
    assert_eq!(roma_with("Legio 1"), vec!["Jupiter in Roma".to_string()]);
    assert_eq!(roma_with("Legio 1"), roma_with("Legio 3"));
}

#[test]
fn rule_jupiter_each_hidden_block_of_the_location_is_equally_likely() {
    // 1.1: the player points at one of three blocks that look alike; 2.0:
    // "For a group of 3, roll 1d6: 1-2 = 1st block, 3-4 = 2nd block".
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = jupiter_front(variant, 0, &[(P, "Legio 1", "Roma", 0)]);
        let start = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
        let roma = space(&game, "Roma");
        let [pompey, navis, legio] = ["Pompey", "Navis 1", "Legio 1"].map(|n| block(&game, P, n));
        let mut seen = [0; 3];
        for seed in 0..300 {
            let mut s = start.clone();
            s.reseed(seed);
            s.try_apply(&game, Action::JupiterAt(roma)).unwrap();
            let hit = [
                s.steps(pompey) == 2,
                s.steps(navis) == 1,
                s.side(legio) == C,
            ];
            assert_eq!(hit.iter().filter(|h| **h).count(), 1, "exactly one block");
            for (n, h) in seen.iter_mut().zip(hit) {
                *n += h as u32;
            }
        }
        // 100 expected each; below 65 is more than 4 standard deviations off.
        assert!(seen.iter().all(|n| *n > 65), "{variant}: {seen:?}");
    }
}

#[test]
fn rule_jupiter_leaders_and_navis_lose_a_step_instead_of_defecting() {
    for (target, at, strength) in [
        ("Pompey", "Roma", 0),
        ("Navis 2", "Mare Tyrrhenum", 0),
        ("Pompey", "Roma", 1),
    ] {
        let game = position(
            "rules-1.1",
            &[(C, "Legio 11", "Genua", 0), (P, target, at, strength)],
        );
        let mut s = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
        let b = block(&game, P, target);
        let before = s.steps(b);
        s.try_apply(&game, Action::JupiterAt(space(&game, at)))
            .unwrap();
        assert_eq!(s.side(b), P, "{target} does not defect");
        if before == 1 {
            assert_eq!(s.place(b), Place::Trophy, "a leader at I is killed");
            assert_eq!(s.trophies(C), 1);
        } else {
            assert_eq!(s.steps(b), before - 1, "{target} loses a step");
        }
        assert_eq!(s.current_player(), Some(P), "no battle: Pompey's command");
    }
}

#[test]
fn rule_jupiter_a_lone_defector_takes_the_city_at_its_strength() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(
            variant,
            &[(C, "Legio 11", "Genua", 0), (P, "Legio 1", "Roma", 3)],
        );
        let mut s = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
        let roma = space(&game, "Roma");
        let l1 = block(&game, P, "Legio 1");
        s.try_apply(&game, Action::JupiterAt(roma)).unwrap();
        assert_eq!(
            (s.side(l1), s.steps(l1), s.location(l1)),
            (C, 3, Some(roma))
        );
        assert!(s.is_friendly(roma, C), "{variant}");
        assert_eq!(s.vp(&game), [2, 0], "{variant}: Roma's 2 VP change hands");
    }
}

#[test]
fn rule_jupiter_a_defector_among_enemies_pins_one_and_attacks() {
    // Roma: Pompey, Navis 1 and Legio 1, which defects. It is Caesar's main
    // force in a battle there and pins one of the two blocks left (6.13).
    let game = jupiter_front("rules-1.1", 0, &[(P, "Legio 1", "Roma", 0)]);
    let start = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
    let roma = space(&game, "Roma");
    let l1 = block(&game, P, "Legio 1");
    // The die picks among the three standing in Roma (2.0's scheme, used for
    // 1.1's pointing too): the blocks in roster order, Pompey, Legio 1,
    // Navis 1, so a 3 or 4 takes the second.
    let mut s = start.clone();
    s.set_dice(&[3]);
    s.try_apply(&game, Action::JupiterAt(roma)).unwrap();
    assert_eq!(s.side(l1), C, "Legio 1 defects");
    assert!(s.is_contested(roma));
    assert_eq!(s.current_player(), Some(P));
    s.try_apply(&game, Action::Group(roma)).unwrap();
    let pompey = block(&game, P, "Pompey");
    step(&game, &mut s, pompey, space(&game, "Neapolis"));
    assert!(
        steps_of(&game, &s, block(&game, P, "Navis 1")).is_empty(),
        "the last block is pinned"
    );
    idle(&game, &mut s, P);
    let info = s.battle_info().expect("a battle in Roma");
    assert_eq!((info.space, info.attacker), (roma, C));
}

#[test]
fn rule_jupiter_the_defector_may_not_move_again_this_turn() {
    // Caesar plays Jupiter as Player 1; the defector stands alone in Roma
    // next to Pompey's Neapolis. Whatever both sides do for the rest of the
    // turn (random play over many seeds), no move of it is ever offered.
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(
            variant,
            &[
                (C, "Legio 11", "Genua", 0),
                (P, "Legio 1", "Roma", 3),
                (P, "Legio 3", "Neapolis", 0),
            ],
        );
        let start = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
        let l1 = block(&game, P, "Legio 1");
        let pick = Action::JupiterAt(space(&game, "Roma"));
        let mut offered_to_others = 0;
        for seed in 0..30 {
            let mut s = start.clone();
            s.reseed(seed);
            s.try_apply(&game, pick).unwrap();
            assert_eq!(s.side(l1), C, "{variant}: Legio 1 defects");
            let turn = s.turn();
            let mut players = [RandomPlayer::new(seed), RandomPlayer::new(seed + 100)];
            while let Some(side) = s.current_player()
                && s.turn() == turn
            {
                let l = legal(&game, &s);
                for a in &l {
                    match a {
                        Action::Step { block, .. } | Action::SeaMove { block, .. } => {
                            assert_ne!(*block, l1, "{variant} seed {seed}: {a:?} offered");
                            offered_to_others += 1;
                        }
                        _ => {}
                    }
                }
                let a = decide(&mut players[side.index()], &game, &s, &l);
                s.apply(&game, a);
            }
        }
        assert!(
            offered_to_others > 0,
            "{variant}: other blocks did move, so the check saw move phases"
        );
    }
}

#[test]
fn rule_jupiter_cleopatra_may_defect() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let game = position(
            variant,
            &[
                (C, "Legio 11", "Pelusium", 0),
                (P, "Cleopatra", "Alexandria", 3),
            ],
        );
        let mut s = first_turn(&game, Want::Event(Event::Jupiter), Want::Command);
        let cleo = block(&game, P, "Cleopatra");
        s.try_apply(&game, Action::JupiterAt(space(&game, "Alexandria")))
            .unwrap();
        assert_eq!((s.side(cleo), s.steps(cleo)), (C, 3), "{variant}");
    }
}

// -------------------------------------------------------------------- Apollo

/// Blocks far apart: four Caesar groups in the west, Pompey in the east.
const APOLLO_MAP: &[Placed] = &[
    (C, "Legio 7", "Tarraco", 0),
    (C, "Legio 9", "Carthago Nova", 0),
    (C, "Legio 11", "Genua", 0),
    (C, "Legio 13", "Ravenna", 0),
    (P, "Legio 38", "Alexandria", 0),
    (P, "Legio 34", "Antiochia", 0),
    (P, "Legio 32", "Athenae", 0),
    (P, "Legio 36", "Ephesus", 0),
];

/// Turn 1 with `turn1`, then turn 2 with Caesar's Apollo against Pompey's
/// `pompey2`; the state after the second reveal.
fn apollo_turn_2(variant: &str, turn1: [Want; 2], pompey2: Want) -> (Game, State) {
    let game = position(variant, APOLLO_MAP);
    let (mut s, c, p) = deal(
        &game,
        &[turn1[0], Want::Event(Event::Apollo)],
        &[turn1[1], pompey2],
    );
    play(&game, &mut s, c[0], p[0]);
    to_next_turn(&game, &mut s);
    assert_eq!(s.turn(), 2);
    play(&game, &mut s, c[1], p[1]);
    (game, s)
}

#[test]
fn rule_apollo_copies_the_opponents_last_command_card() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (game, s) = apollo_turn_2(variant, [Want::Command, Want::Moves(3)], Want::Moves(2));
        assert_eq!(s.player1(), C, "{variant}");
        assert_eq!(s.current_player(), Some(C));
        let copied = s.view(C, true).last_played(C).unwrap();
        let CardFace::Command { moves, levy } = copied else {
            panic!("{variant}: a command card was copied")
        };
        assert_eq!(moves, 3);
        assert_eq!(groups_left(&game, &s), 3, "{variant}: the copied moves");
        assert_eq!(
            levies_left(&game, &s),
            levy as usize,
            "{variant}: the copied levies"
        );
    }
}

#[test]
fn rule_apollo_1_1_the_apollo_player_is_player_1() {
    // Apollo copies a 1-move card against a 3-move card.
    let (game, s) = apollo_turn_2("rules-1.1", [Want::Command, Want::Moves(1)], Want::Moves(3));
    assert_eq!(s.player1(), C, "1.1: an event player is Player 1");
    assert_eq!(groups_left(&game, &s), 1);
}

#[test]
fn rule_apollo_2_0_copied_card_decides_player_1() {
    let (game, mut s) = apollo_turn_2("rules-2.0", [Want::Command, Want::Moves(1)], Want::Moves(3));
    assert_eq!(s.player1(), P, "2.0: the copied 1 move loses to 3");
    idle(&game, &mut s, P);
    assert_eq!(s.current_player(), Some(C));
    assert_eq!(groups_left(&game, &s), 1, "Caesar moves second with 1 MP");
    // Copying a God card: the Apollo player is Player 1.
    let (_, s) = apollo_turn_2(
        "rules-2.0",
        [Want::Command, Want::Event(Event::Vulcan)],
        Want::Moves(3),
    );
    assert_eq!(s.player1(), C);
}

#[test]
fn rule_apollo_copies_an_event_exactly_and_does_not_cancel() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (game, mut s) = apollo_turn_2(
            variant,
            [Want::Command, Want::Event(Event::Vulcan)],
            Want::Command,
        );
        assert_eq!(s.stats.events_cancelled, 0, "{variant}");
        assert_eq!((s.player1(), s.current_player()), (C, Some(C)));
        let alexandria = space(&game, "Alexandria");
        let l = legal(&game, &s);
        assert!(
            l.contains(&Action::VulcanCity(alexandria)),
            "{variant}: {l:?}"
        );
        if variant == "rules-2.0" {
            assert!(
                l.iter()
                    .all(|a| matches!(a, Action::VulcanCity(x) if s.is_friendly(*x, P))),
                "2.0: the Apollo player's enemy cities"
            );
        }
        let l38 = block(&game, P, "Legio 38");
        let before = s.steps(l38);
        s.try_apply(&game, Action::VulcanCity(alexandria)).unwrap();
        assert_eq!(s.steps(l38), before - 1, "{variant}");
    }
}

#[test]
fn rule_apollo_copies_a_card_of_a_cancelled_turn() {
    // Turn 1: Mars against Vulcan, both cancelled; turn 2 Caesar's Apollo
    // copies Pompey's Vulcan.
    for variant in ["rules-1.1", "rules-2.0"] {
        let (game, s) = apollo_turn_2(
            variant,
            [Want::Event(Event::Mars), Want::Event(Event::Vulcan)],
            Want::Command,
        );
        assert_eq!(s.stats.events_cancelled, 1, "{variant}: only turn 1");
        assert!(
            legal(&game, &s)
                .iter()
                .any(|a| matches!(a, Action::VulcanCity(_))),
            "{variant}"
        );
    }
}

#[test]
fn rule_apollo_against_an_event_cancels_the_turn() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (game, s) = apollo_turn_2(
            variant,
            [Want::Command, Want::Command],
            Want::Event(Event::Mars),
        );
        assert_eq!(s.stats.events_cancelled, 1, "{variant}");
        assert_eq!(s.turn(), 3, "{variant}: the turn ends at once");
        assert!(matches!(legal(&game, &s)[0], Action::Play(_)));
    }
}

#[test]
fn rule_apollo_on_the_first_turn_of_a_year_copies_nothing() {
    for variant in ["rules-1.1", "rules-2.0-no-first-turn-exception"] {
        let game = position(variant, APOLLO_MAP);
        let s = first_turn(&game, Want::Event(Event::Apollo), Want::Moves(3));
        assert_eq!(s.player1(), C, "{variant}: the Apollo player is Player 1");
        assert_eq!(
            s.current_player(),
            Some(P),
            "{variant}: no moves and no levies for Apollo"
        );
        assert_eq!(groups_left(&game, &s), 3, "{variant}: Pompey's 3 moves");
        // An opponent's event still cancels it.
        let s = first_turn(&game, Want::Event(Event::Apollo), Want::Event(Event::Pluto));
        assert_eq!((s.stats.events_cancelled, s.turn()), (1, 2), "{variant}");
    }
}

// --------------------------------------------------------------- house rules

fn events_in(game: &Game, hand: &[u8]) -> usize {
    hand.iter()
        .filter(|c| matches!(game.card(**c), CardFace::Event(_)))
        .count()
}

/// Plays a random first year; the state at the second year's deal.
fn second_year(game: &Game, seed: u64) -> State {
    let mut s = State::new(game, seed);
    let mut player = RandomPlayer::new(seed);
    while s.year() == 1 {
        let l = legal(game, &s);
        let a = decide(&mut player, game, &s, &l);
        s.apply(game, a);
    }
    s
}

fn with_house(f: impl FnOnce(&mut RuleSet)) -> Game {
    let mut rules = RuleSet::builtin("rules-2.0");
    f(&mut rules);
    let base = crate::common::published("rules-2.0");
    Game::try_new(Arc::clone(&base.scenario), Arc::new(rules)).expect("the engine plays it")
}

#[test]
fn rule_house_removed_cards_are_never_dealt() {
    let game = with_house(|r| {
        r.removed_cards = vec!["Jupiter".into(), "3/1".into(), "3/1".into()];
    });
    let plain = crate::common::published("rules-2.0");
    let count = |g: &Game, s: &State, pred: &dyn Fn(CardFace) -> bool| {
        [C, P]
            .iter()
            .flat_map(|side| s.hand(*side))
            .filter(|c| pred(g.card(**c)))
            .count()
    };
    let jupiter = |f: CardFace| f == CardFace::Event(Event::Jupiter);
    let three_one = |f: CardFace| f == CardFace::Command { moves: 3, levy: 1 };
    let (mut plain_jupiter, mut plain_two_3_1) = (false, false);
    for seed in 0..300 {
        let s = State::new(&game, seed);
        assert_eq!(count(&game, &s, &jupiter), 0, "seed {seed}");
        assert!(
            count(&game, &s, &three_one) <= 1,
            "one 3/1 of three is left"
        );
        let s = State::new(&plain, seed);
        plain_jupiter |= count(&plain, &s, &jupiter) > 0;
        plain_two_3_1 |= count(&plain, &s, &three_one) >= 2;
    }
    assert!(
        plain_jupiter && plain_two_3_1,
        "the unmodified deck deals them"
    );
    // Every year's deck leaves them out.
    for seed in 0..4 {
        let s = second_year(&game, seed);
        assert_eq!(s.year(), 2);
        assert_eq!([s.hand(C).len(), s.hand(P).len()], [6, 6]);
        assert_eq!(count(&game, &s, &jupiter), 0);
        assert!(count(&game, &s, &three_one) <= 1);
    }
}

#[test]
fn rule_house_max_events_per_hand_deals_no_hand_over_the_cap() {
    let capped = crate::common::published("house-2.0-max-2-events");
    let plain = crate::common::published("rules-2.0");
    let mut plain_over = 0;
    for seed in 0..300 {
        let s = State::new(&capped, seed);
        for side in [C, P] {
            assert!(events_in(&capped, s.hand(side)) <= 2, "seed {seed}");
            assert_eq!(s.hand(side).len(), 6);
        }
        let s = State::new(&plain, seed);
        plain_over += [C, P]
            .iter()
            .filter(|side| events_in(&plain, s.hand(**side)) > 2)
            .count();
    }
    assert!(
        plain_over > 10,
        "without the cap hands of 3+ events are dealt"
    );
    for seed in 0..4 {
        let s = second_year(&capped, seed);
        assert!(events_in(&capped, s.hand(C)) <= 2 && events_in(&capped, s.hand(P)) <= 2);
    }
    // A cap of 0: command cards only.
    let none = with_house(|r| r.max_events_per_hand = 0);
    for seed in 0..100 {
        let s = State::new(&none, seed);
        assert_eq!(events_in(&none, s.hand(C)) + events_in(&none, s.hand(P)), 0);
    }
}

#[test]
fn rule_house_event_cap_the_deck_cannot_meet_is_refused() {
    // 11 command cards left, fewer than the 12 that two hands without events
    // need: the engine refuses the set (the validator reports it) instead of
    // quietly dropping the cap.
    let mut rules = RuleSet::builtin("rules-2.0");
    rules.max_events_per_hand = 0;
    rules.removed_cards = [
        "2/3", "2/3", "2/3", "2/3", "2/2", "2/2", "2/2", "2/2", "2/1",
    ]
    .map(String::from)
    .to_vec();
    let base = crate::common::published("rules-2.0");
    let Err(unmet) = Game::try_new(Arc::clone(&base.scenario), Arc::new(rules.clone())) else {
        panic!("a cap the deck cannot meet must be refused");
    };
    assert_eq!(
        unmet
            .iter()
            .map(|u| u.requirement.code())
            .collect::<Vec<_>>(),
        ["event-cap-undealable"]
    );
    let report = caesar_workbench::scenario::validate::validate(
        &caesar_workbench::scenario::historical(),
        &rules,
    );
    assert!(report.has("event-cap-undealable"));
    // One command card more and it deals, with no event at all.
    rules.removed_cards.pop();
    let game =
        Game::try_new(Arc::clone(&base.scenario), Arc::new(rules)).expect("the engine plays it");
    for seed in 0..50 {
        let s = State::new(&game, seed);
        assert_eq!(events_in(&game, s.hand(C)) + events_in(&game, s.hand(P)), 0);
    }
}

#[test]
fn rule_pluto_raises_strait_limits_too() {
    // Messana–Rhegium strait: 2 (1 into a defended city) normally; Pluto's
    // raised limits are 3 (2 attacking).
    let counts = |variant: &str, defended: bool, card: Want| {
        let mut blocks: Vec<Placed> = ["Legio 19", "Legio 11", "Legio 12", "Legio 13"]
            .into_iter()
            .map(|n| (C, n, "Messana", 0))
            .collect();
        blocks.push((P, "Legio 38", "Alexandria", 0));
        if defended {
            blocks.push((P, "Legio 1", "Rhegium", 0));
        }
        let game = position(variant, &blocks);
        let mut s = first_turn(&game, card, Want::Command);
        s.try_apply(&game, Action::Group(space(&game, "Messana")))
            .unwrap();
        pour_into(&game, &mut s, space(&game, "Rhegium"))
    };
    let pluto = Want::Event(Event::Pluto);
    assert_eq!(counts("rules-1.1", false, pluto), 3);
    assert_eq!(counts("rules-1.1", true, pluto), 2);
    assert_eq!(counts("rules-2.0", false, pluto), 2, "2.0: not an attack");
    assert_eq!(counts("rules-2.0", true, pluto), 2);
    assert_eq!(counts("rules-2.0", true, Want::Moves(2)), 1);
}

#[test]
fn rule_apollo_2_0_the_first_turn_exception_overrides_apollo() {
    // 2.1 (2.0): Caesar is Player 1 on the game's first turn, even against
    // Apollo; Apollo copies nothing then.
    let game = position("rules-2.0", APOLLO_MAP);
    let s = first_turn(&game, Want::Moves(1), Want::Event(Event::Apollo));
    assert_eq!(s.player1(), C);
    assert_eq!(groups_left(&game, &s), 1, "Caesar moves first");
    let game = position("rules-2.0-no-first-turn-exception", APOLLO_MAP);
    let s = first_turn(&game, Want::Moves(1), Want::Event(Event::Apollo));
    assert_eq!(s.player1(), P, "without the exception the Apollo player");
    assert_eq!(s.current_player(), Some(C), "Apollo gave Pompey no orders");
}
