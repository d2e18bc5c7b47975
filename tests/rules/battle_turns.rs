//! 7.2 battle turns and 7.3 reserves, watched over many engine battles.

use crate::common;

use caesar_workbench::ai::hit_candidates;
use caesar_workbench::engine::{Action, Place, State};
use caesar_workbench::scenario::model::BlockId;
use caesar_workbench::scenario::model::Side;
use common::{Field, battle_end, field, fight_watched};

type Decision = (u64, u8, Option<BlockId>, Vec<Action>);

/// Every battle decision of `battles` battles: (battle, round, acting block, legal).
fn watch(f: &Field, battles: u64) -> Vec<Decision> {
    let mut seen = Vec::new();
    for seed in 0..battles {
        fight_watched(f, seed, &mut |state: &State, legal: &[Action]| {
            let info = state.battle_info().unwrap();
            seen.push((seed, info.round, info.acting, legal.to_vec()));
        });
    }
    assert!(!seen.is_empty(), "no battle was fought");
    seen
}

#[test]
fn rule_7_2_nobody_retreats_in_round_1() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (f, _) = field(variant, "Legio 13,Legio 8", "", "Legio 1,Legio 3");
        for (_, round, _, legal) in watch(&f, 200) {
            if round == 1 {
                assert!(!legal.iter().any(|a| matches!(a, Action::Retreat(_))));
            }
        }
    }
}

#[test]
fn rule_7_2_attackers_must_retreat_in_the_last_round_defenders_may_stay() {
    let (f, _) = field("rules-2.0", "Legio 13", "", "Legio 1");
    let mut attacker_turns = 0;
    for (_, round, acting, legal) in watch(&f, 400) {
        let Some(b) = acting else { continue };
        if round == 4 {
            if f.attackers.contains(&b) {
                attacker_turns += 1;
                assert!(!legal.is_empty());
                assert!(
                    legal.iter().all(|a| matches!(a, Action::Retreat(_))),
                    "{legal:?}"
                );
            } else {
                assert!(legal.contains(&Action::Fire));
            }
        } else if round > 1 {
            // 7.6: from round 2 a block may fire, retreat or pass.
            assert!(legal.contains(&Action::Fire) && legal.contains(&Action::Pass));
        }
    }
    assert!(attacker_turns > 0, "some battles reach round 4");
}

#[test]
fn rule_7_2_a_before_b_before_c_and_the_defender_first_on_equal_letters() {
    // Caesar (A) and Legio 13 (C) attack Pompey (B) and Legio 1 (C).
    let (f, _) = field("rules-2.0", "Caesar,Legio 13", "", "Pompey,Legio 1");
    let game = &f.game;
    let name = |b: BlockId| game.roster().block(b).name.clone();
    let mut rounds_checked = 0;
    let mut last = (u64::MAX, 0);
    let mut order: Vec<String> = Vec::new();
    let check = |order: &[String]| {
        // Blocks act at most once per round, in this order.
        let expected = ["Caesar", "Pompey", "Legio 1", "Legio 13"];
        let mut at = 0;
        for n in order {
            let pos = expected.iter().position(|e| e == n).unwrap();
            assert!(pos >= at, "{order:?}");
            at = pos + 1;
        }
    };
    for (battle, round, acting, _) in watch(&f, 300) {
        let Some(b) = acting else { continue };
        if (battle, round) != last {
            check(&order);
            rounds_checked += 1;
            order.clear();
            last = (battle, round);
        }
        if order.last() != Some(&name(b)) {
            order.push(name(b));
        }
    }
    check(&order);
    assert!(rounds_checked > 300);
}

#[test]
fn rule_7_3_reserves_neither_fire_nor_take_hits_in_round_1() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (f, _) = field(variant, "Legio 13", "Legio 8,Legio 10", "Legio 1,Legio 3");
        let reserves: Vec<BlockId> = ["Legio 8", "Legio 10"]
            .iter()
            .map(|n| f.game.roster().find(Side::Caesar, n).unwrap())
            .collect();
        let mut reserve_turns_later = 0;
        for (_, round, acting, legal) in watch(&f, 300) {
            if round == 1 {
                assert!(!acting.is_some_and(|b| reserves.contains(&b)));
                for a in legal {
                    if let Action::TakeHit(b) = a {
                        assert!(!reserves.contains(&b));
                    }
                }
            } else if acting.is_some_and(|b| reserves.contains(&b)) {
                reserve_turns_later += 1;
            }
        }
        assert!(reserve_turns_later > 0, "reserves fight from round 2");
    }
}

#[test]
fn rule_7_31_a_main_force_destroyed_in_round_1_disrupts_its_reserves() {
    // A lone auxilia against two legions is often destroyed in round 1.
    let (f, _) = field(
        "rules-2.0",
        "Auxilia 1",
        "Legio 8,Legio 10",
        "Legio 1,Legio 3",
    );
    let game = &f.game;
    let main = game.roster().find(Side::Caesar, "Auxilia 1").unwrap();
    let reserves: Vec<BlockId> = ["Legio 8", "Legio 10"]
        .iter()
        .map(|n| game.roster().find(Side::Caesar, n).unwrap())
        .collect();
    let mut disrupted = 0;
    for seed in 0..300 {
        let mut checked = false;
        fight_watched(&f, seed, &mut |state: &State, _: &[Action]| {
            let info = state.battle_info().unwrap();
            if info.round == 2 && !checked {
                checked = true;
                if state.location(main) != Some(f.to) {
                    disrupted += 1;
                    for r in &reserves {
                        let max = game.roster().block(*r).max_steps;
                        let steps = state.location(*r).map_or(0, |_| state.steps(*r));
                        assert_eq!(steps, max - 1, "each reserve loses one step");
                    }
                }
            }
        });
    }
    assert!(disrupted > 10, "{disrupted}");
}

#[test]
fn rule_7_4_hits_go_to_the_strongest_and_the_owner_picks_among_equals() {
    let (f, _) = field(
        "rules-1.1",
        "Caesar,Legio 13,Legio 8",
        "",
        "Pompey,Legio 1,Legio 3",
    );
    let game = &f.game;
    // Every die a 1 (a hit for any block, 7.4): each fire scores, and as
    // the strongest blocks lose steps some stand level with others.
    let state = common::caesar_to_move_with_dice(&f, &[1; 60]);
    let mut choices = 0;
    common::battle_from(&f, state, &mut |state: &State, legal: &[Action]| {
        let tied = hit_candidates(legal);
        let Some(first) = tied.first() else { return };
        choices += 1;
        assert!(tied.len() >= 2, "a choice only among equals");
        let side = state.side(*first);
        assert!(tied.iter().all(|b| game.roster().block(*b).side == side));
        let strongest = state
            .blocks_at(f.to, side)
            .map(|b| state.strength(game, b))
            .max()
            .unwrap();
        for b in &tied {
            assert_eq!(state.strength(game, *b), strongest);
        }
    })
    .expect("the battle is fought");
    assert!(choices >= 2, "{choices} choices among equals");
}

#[test]
fn rule_7_51_a_killed_leader_is_a_trophy_worth_a_victory_point() {
    let (f, _) = field("rules-2.0", "Caesar,Legio 13,Legio 8", "", "Pompey");
    let game = &f.game;
    let pompey = game.roster().find(Side::Pompey, "Pompey").unwrap();
    let mut kills = 0;
    for seed in 0..100 {
        let Some(end) = battle_end(&f, seed, &mut |_, _| {}) else {
            continue;
        };
        if end.place(pompey) == Place::Trophy {
            kills += 1;
            assert_eq!(end.trophies(Side::Caesar), 1);
            // 1.2: VP = friendly cities + leaders killed. Roma (2) is Caesar's now.
            assert_eq!(end.vp(game)[0], 2 + game.rules.vp_per_leader_killed as u32);
        } else {
            assert_eq!(end.trophies(Side::Caesar), 0);
        }
    }
    assert!(kills > 50, "{kills}");
}

#[test]
fn rule_7_62_and_7_63_retreats_attackers_back_the_way_they_came_defenders_not_that_way() {
    for variant in ["rules-1.1", "rules-2.0"] {
        let (f, _) = field(variant, "Legio 13,Legio 8", "", "Legio 1,Legio 3");
        let (mut attacker_retreats, mut defender_retreats) = (0, 0);
        for (_, _, acting, legal) in watch(&f, 300) {
            let Some(b) = acting else { continue };
            for a in &legal {
                let Action::Retreat(to) = a else { continue };
                if f.attackers.contains(&b) {
                    // Vacant cities only by the road used to attack; nothing
                    // else around Roma is friendly to Caesar here.
                    assert_eq!(*to, f.from, "{variant}");
                    attacker_retreats += 1;
                } else {
                    assert_ne!(*to, f.from, "{variant}: not along the attacker's road");
                    defender_retreats += 1;
                }
            }
        }
        assert!(attacker_retreats > 0 && defender_retreats > 0);
    }
}
