//! The rulebooks' worked examples that have no home in another file, each
//! set up as printed (positions stated with `PositionDoc`, dice scripted
//! where the text gives them) under every edition that prints it. The full
//! list of examples and their tests is in docs/rules-notes.md ("Worked
//! examples").

use crate::common::{block, fired, space};
use std::collections::BTreeSet;
use std::sync::Arc;

use caesar_workbench::engine::{Action, Game, Stage, State};
use caesar_workbench::games::position_file::PositionDoc;
use caesar_workbench::scenario::model::{BlockId, Side, SpaceId};
use caesar_workbench::scenario::rules::RuleSet;

const C: Side = Side::Caesar;
const P: Side = Side::Pompey;
const BOTH: [&str; 2] = ["rules-1.1", "rules-2.0"];

fn legal(game: &Game, s: &State) -> Vec<Action> {
    let mut out = Vec::new();
    s.legal_actions(game, &mut out);
    out
}

fn act(game: &Game, s: &mut State, action: Action) {
    if let Err(e) = s.try_apply(game, action) {
        panic!("{action:?}: {e}\n{}", s.describe(game));
    }
}

/// Where `b` may step now, by name, sorted.
fn steps_of(game: &Game, s: &State, b: BlockId) -> BTreeSet<String> {
    legal(game, s)
        .into_iter()
        .filter_map(|a| match a {
            Action::Step { block, to } if block == b => Some(game.space_name(to).to_string()),
            _ => None,
        })
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

fn step(game: &Game, s: &mut State, b: BlockId, to: SpaceId) {
    act(game, s, Action::Step { block: b, to });
}

/// How many groups the side to move can activate: its moves.
fn groups_left(game: &Game, s: &State) -> usize {
    let mut s = s.clone();
    let side = s.current_player();
    let mut n = 0;
    while s.current_player() == side {
        let Some(g) = legal(game, &s)
            .into_iter()
            .find(|a| matches!(a, Action::Group(_)))
        else {
            break;
        };
        s.apply(game, g);
        let first = legal(game, &s)
            .into_iter()
            .find(|a| matches!(a, Action::Step { .. }))
            .expect("a group that can move");
        s.apply(game, first);
        s.apply(game, Action::EndGroup);
        n += 1;
    }
    n
}

/// How many levies the side to move can make after its moves: its levies,
/// when enough reduced blocks can take a step.
fn levies_left(game: &Game, s: &State) -> usize {
    let mut s = s.clone();
    let side = s.current_player();
    if legal(game, &s).contains(&Action::EndMoves) {
        s.apply(game, Action::EndMoves);
    }
    let mut n = 0;
    while s.current_player() == side {
        let l = legal(game, &s);
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

// ---------------------------------------------------------- Game Turn Example

#[test]
fn rule_2_0_game_turn_example_2_1_against_2_2_caesar_player_1_on_the_tie() {
    // "Card Play: Caesar 2/1, Pompey 2/2. Cards are tied (compare only
    // Moves) but Caesar is Player 1 on ties. Caesar (Player 1): 2 Moves then
    // 1 Levy. Pompey (Player 2): 2 Moves then 2 Levies." Turn 2, so that
    // 2.0's first-turn exception plays no part. Every block stands reduced
    // in its own city, so each levy can add a step.
    for variant in BOTH {
        let game = crate::common::published(variant);
        let mut s = PositionDoc::new(variant)
            .block_at(C, "Legio 11", "Massilia", 1)
            .block_at(C, "Legio 12", "Genua", 1)
            .block_at(C, "Legio 13", "Ravenna", 1)
            .block_at(P, "Legio 1", "Neapolis", 1)
            .block_at(P, "Legio 3", "Brundisium", 1)
            .block_at(P, "Legio 37", "Syracusae", 1)
            .when(1, 2, Stage::PlayCards)
            .played("2/1", "2/2")
            .start(&game)
            .unwrap();
        assert_eq!(s.player1(), C, "{variant}: Caesar on the tie");
        assert_eq!(s.current_player(), Some(C), "{variant}: Player 1 first");
        assert_eq!(groups_left(&game, &s), 2, "{variant}: Caesar's 2 moves");
        assert_eq!(levies_left(&game, &s), 1, "{variant}: Caesar's 1 levy");
        act(&game, &mut s, Action::EndMoves);
        act(&game, &mut s, Action::EndLevy);
        assert_eq!(s.current_player(), Some(P), "{variant}: then Player 2");
        assert_eq!(groups_left(&game, &s), 2, "{variant}: Pompey's 2 moves");
        assert_eq!(levies_left(&game, &s), 2, "{variant}: Pompey's 2 levies");
    }
}

// ------------------------------------------------------- 5.3 free deployment

#[test]
fn rule_5_3_free_deployment_example_any_three_historical_blocks_in_neapolis() {
    // "In the historical OB, Pompey has three (3) blocks in Neapolis. For
    // free deployment, any three blocks from the historical deployment can
    // be there." Neapolis and Tarraco (three each) swap their blocks.
    let swap = |neapolis: &[&str], tarraco: &[&str]| {
        let mut doc = caesar_workbench::scenario::historical();
        let mut free = doc.order_of_battle.clone();
        for (city, blocks) in free.pompey.iter_mut() {
            match city.as_str() {
                "Neapolis" => *blocks = neapolis.iter().map(|b| b.to_string()).collect(),
                "Tarraco" => *blocks = tarraco.iter().map(|b| b.to_string()).collect(),
                _ => {}
            }
        }
        doc.free_deployment = Some(free);
        doc.sources.free_deployment = Some(doc.sources.order_of_battle.clone());
        doc
    };
    for variant in BOTH {
        let rules = RuleSet::builtin(variant);
        let doc = swap(
            &["Legio 5", "Legio 6", "Equitatus 1"],
            &["Pompey", "Legio 1", "Navis 1"],
        );
        let report = caesar_workbench::scenario::validate::validate(&doc, &rules);
        assert_eq!(report.errors(), 0, "{variant}: {:?}", report.findings);
        let game = Game::try_new(Arc::new(report.scenario), Arc::new(rules.clone()))
            .expect("the engine plays it");
        let s = State::new(&game, 0);
        let mut at_neapolis: Vec<String> = s
            .blocks_at(space(&game, "Neapolis"), P)
            .map(|b| game.block_name(b).to_string())
            .collect();
        at_neapolis.sort();
        assert_eq!(at_neapolis, ["Equitatus 1", "Legio 5", "Legio 6"]);
        // Four in Neapolis and two in Tarraco: the count is not kept.
        let doc = swap(
            &["Legio 5", "Legio 6", "Equitatus 1", "Legio 1"],
            &["Pompey", "Navis 1"],
        );
        let report = caesar_workbench::scenario::validate::validate(&doc, &rules);
        assert!(report.has("free-deployment-count"), "{variant}");
        // A block of the levy pool may not be deployed.
        let doc = swap(
            &["Legio 5", "Legio 6", "Brutus"],
            &["Pompey", "Legio 1", "Navis 1"],
        );
        let report = caesar_workbench::scenario::validate::validate(&doc, &rules);
        assert!(report.errors() > 0, "{variant}: Brutus is in the levy pool");
    }
}

// ------------------------------------------------------------- 6.1 moves

#[test]
fn rule_6_1_move_example_massilia_blocks_one_move_then_a_second() {
    // "For 1mp, a player may move any/all Massilia blocks to one or more of
    // Narbo, Lugdunum, and Genua. If not attacking, blocks can move further
    // to any/all of Tarraco, Burdigala, Cenabum, Treveri, Ravenna, or Rome.
    // If some of the Massilia blocks are Navis, they can move to Mare
    // Hispanum, then to an adjacent sea or port if not attacking."
    for variant in BOTH {
        let game = crate::common::published(variant);
        let s = PositionDoc::new(variant)
            .block(C, "Legio 11", "Massilia")
            .block(C, "Navis 1", "Massilia")
            .block(P, "Legio 34", "Antiochia")
            .played("2/2", "1/2")
            .start(&game)
            .unwrap();
        let mut s = s;
        act(&game, &mut s, Action::Group(space(&game, "Massilia")));
        let legio = block(&game, C, "Legio 11");
        let navis = block(&game, C, "Navis 1");
        let first = steps_of(&game, &s, legio);
        assert_eq!(first, set(&["Narbo", "Lugdunum", "Genua"]), "{variant}");
        let mut second = BTreeSet::new();
        for city in &first {
            let mut t = s.clone();
            step(&game, &mut t, legio, space(&game, city));
            second.extend(steps_of(&game, &t, legio));
        }
        second.remove("Massilia");
        let second: BTreeSet<String> = second.difference(&first).cloned().collect();
        assert_eq!(
            second,
            set(&[
                "Tarraco",
                "Burdigala",
                "Cenabum",
                "Treviri",
                "Ravenna",
                "Roma"
            ]),
            "{variant}"
        );
        assert_eq!(steps_of(&game, &s, navis), set(&["Mare Hispanum"]));
        step(&game, &mut s, navis, space(&game, "Mare Hispanum"));
        let onward = steps_of(&game, &s, navis);
        assert!(
            onward.contains("Mare Tyrrhenum") && onward.contains("Genua"),
            "{variant}: an adjacent sea or a port: {onward:?}"
        );
    }
}

#[test]
fn rule_6_1_movement_and_attacking_example_six_from_massilia_attack_genua_with_four() {
    // "6 Caesar blocks located in Massilia and 3 Pompey blocks in Tarraco
    // and 3 in Genua. The Caesar blocks cannot attack Tarraco since that is
    // two moves away. Genua is adjacent and can therefore be attacked with 4
    // Caesar blocks (road limit). [...] the remaining 2 Caesar blocks cannot
    // also attack Genua via Lugdunum since that would be a move of two
    // cities." (With Mercury they could: see
    // rule_6_1_movement_and_attacking_example_mercury_attacks_tarraco_and_genua_two_ways.)
    let caesar = [
        "Caesar", "Antonius", "Legio 11", "Legio 12", "Legio 13", "Legio 14",
    ];
    for variant in BOTH {
        let game = crate::common::published(variant);
        let mut doc = PositionDoc::new(variant);
        for b in caesar {
            doc = doc.block(C, b, "Massilia");
        }
        for b in ["Legio 5", "Legio 6", "Auxilia 1"] {
            doc = doc.block(P, b, "Tarraco");
        }
        for b in ["Legio 1", "Legio 3", "Auxilia 2"] {
            doc = doc.block(P, b, "Genua");
        }
        let mut s = doc.played("2/2", "1/2").start(&game).unwrap();
        assert_eq!(s.current_player(), Some(C));
        let b = |n: &str| block(&game, C, n);
        let (massilia, genua, narbo, lugdunum) = (
            space(&game, "Massilia"),
            space(&game, "Genua"),
            space(&game, "Narbo"),
            space(&game, "Lugdunum"),
        );
        act(&game, &mut s, Action::Group(massilia));
        // Tarraco is two moves away: no attack through Narbo.
        let mut t = s.clone();
        step(&game, &mut t, b("Legio 14"), narbo);
        assert!(
            !steps_of(&game, &t, b("Legio 14")).contains("Tarraco"),
            "{variant}"
        );
        // Four attack Genua by the major road; the fifth may not.
        for n in ["Caesar", "Antonius", "Legio 11", "Legio 12"] {
            assert!(steps_of(&game, &s, b(n)).contains("Genua"), "{variant}");
            step(&game, &mut s, b(n), genua);
        }
        assert!(
            !steps_of(&game, &s, b("Legio 13")).contains("Genua"),
            "{variant}: road limit 4"
        );
        // The other two reach Lugdunum but no further into Genua.
        for n in ["Legio 13", "Legio 14"] {
            step(&game, &mut s, b(n), lugdunum);
            assert!(
                !steps_of(&game, &s, b(n)).contains("Genua"),
                "{variant}: {n} would attack two cities away"
            );
        }
    }
}

// ---------------------------------------------------------- 6.11 road limits

#[test]
fn rule_6_11_road_limit_example_both_players_use_the_massilia_genua_road() {
    // "Player 1 moves 4 blocks from Massilia to Genua to Ravenna. Player 2
    // now moves 4 blocks from Rome to Genua to Massilia. Both players used
    // the road section between Massilia and Genua, but at different times.
    // Of course, if Player 1 had left at least 1 block in Genua, Player 2
    // could not have moved through this block to Massilia without fighting
    // a battle."
    let caesar = ["Legio 11", "Legio 12", "Legio 13", "Legio 14"];
    let pompey = ["Legio 1", "Legio 3", "Legio 4", "Legio 5"];
    for variant in BOTH {
        for leave_one in [false, true] {
            let game = crate::common::published(variant);
            let mut doc = PositionDoc::new(variant);
            for n in caesar {
                doc = doc.block(C, n, "Massilia");
            }
            for n in pompey {
                doc = doc.block(P, n, "Roma");
            }
            let mut s = doc.played("2/2", "2/3").start(&game).unwrap();
            assert_eq!(s.player1(), C, "{variant}");
            let [massilia, genua, ravenna, roma] =
                ["Massilia", "Genua", "Ravenna", "Roma"].map(|n| space(&game, n));
            act(&game, &mut s, Action::Group(massilia));
            for (i, n) in caesar.into_iter().enumerate() {
                step(&game, &mut s, block(&game, C, n), genua);
                if !(leave_one && i == 3) {
                    step(&game, &mut s, block(&game, C, n), ravenna);
                }
            }
            act(&game, &mut s, Action::EndGroup);
            act(&game, &mut s, Action::EndMoves);
            if legal(&game, &s).contains(&Action::EndLevy) {
                act(&game, &mut s, Action::EndLevy);
            }
            assert_eq!(s.current_player(), Some(P), "{variant}");
            act(&game, &mut s, Action::Group(roma));
            for n in pompey {
                let b = block(&game, P, n);
                step(&game, &mut s, b, genua);
                let onward = steps_of(&game, &s, b).contains("Massilia");
                if leave_one {
                    assert!(!onward, "{variant}: {n} may not pass Legio 14");
                } else {
                    assert!(onward, "{variant}: {n} goes on along Caesar's road");
                    step(&game, &mut s, b, massilia);
                }
            }
            if !leave_one {
                assert_eq!(s.blocks_at(massilia, P).count(), 4, "{variant}");
                assert_eq!(s.blocks_at(ravenna, C).count(), 4, "{variant}");
            }
        }
    }
}

// -------------------------------------------------------------- 7.4 hits

#[test]
fn rule_7_4_example_caesar_3_rolls_3_dice_a3_hits_on_1_2_3() {
    // "Caesar 3 rolls 3 dice. He has A3 combat: rolls of 1, 2, 3 are hits."
    for variant in BOTH {
        for (dice, hits) in [
            ([1, 2, 3], 3),
            ([4, 5, 6], 0),
            ([3, 4, 6], 1),
            ([6, 2, 1], 2),
        ] {
            let game = crate::common::published(variant);
            let mut s = PositionDoc::new(variant)
                .block(C, "Caesar", "Genua")
                .block(P, "Legio 1", "Roma")
                .block(P, "Legio 3", "Roma")
                .played("2/2", "1/2")
                .dice(&dice)
                .start(&game)
                .unwrap();
            assert_eq!(s.strength(&game, block(&game, C, "Caesar")), 3);
            act(&game, &mut s, Action::Group(space(&game, "Genua")));
            step(
                &game,
                &mut s,
                block(&game, C, "Caesar"),
                space(&game, "Roma"),
            );
            act(&game, &mut s, Action::EndGroup);
            while s.battle_info().is_none() {
                let l = legal(&game, &s);
                let a = [Action::EndMoves, Action::EndLevy]
                    .into_iter()
                    .find(|a| l.contains(a))
                    .or_else(|| {
                        l.iter()
                            .find(|a| matches!(a, Action::MainAttack(_) | Action::Battle(_)))
                            .copied()
                    })
                    .unwrap_or_else(|| panic!("{variant}: {l:?}"));
                act(&game, &mut s, a);
            }
            let info = s.battle_info().unwrap();
            assert_eq!(
                info.acting,
                Some(block(&game, C, "Caesar")),
                "A fires first"
            );
            let mut log = Vec::new();
            s.apply_logged(&game, Action::Fire, &mut log);
            assert_eq!(
                fired(&log),
                Some((dice.to_vec(), hits)),
                "{variant}: {log:?}"
            );
        }
    }
}

// ---------------------------------------------------------------- Jupiter

#[test]
fn rule_jupiter_2_0_example_a_group_of_5_each_block_one_in_five() {
    // 2.0 Jupiter: "For a group of 5, roll 1d6 and reroll a 6": each of the
    // five blocks is taken one time in five. The engine draws the block
    // uniformly (docs/rules-notes.md, Jupiter), so the check is over draws.
    let variant = "rules-2.0";
    let game = crate::common::published(variant);
    let roma_blocks = ["Pompey", "Legio 1", "Legio 3", "Auxilia 1", "Equitatus 2"];
    let mut doc = PositionDoc::new(variant).block(C, "Legio 11", "Genua");
    for b in roma_blocks {
        doc = doc.block(P, b, "Roma");
    }
    let start = doc.played("Jupiter", "2/2").start(&game).unwrap();
    let ids = roma_blocks.map(|n| block(&game, P, n));
    let mut seen = [0u32; 5];
    for seed in 0..500 {
        let mut s = start.clone();
        s.reseed(seed);
        act(&game, &mut s, Action::JupiterAt(space(&game, "Roma")));
        let taken: Vec<usize> = (0..5)
            .filter(|i| {
                let b = ids[*i];
                s.side(b) == C || s.steps(b) < game.roster().block(b).max_steps
            })
            .collect();
        assert_eq!(taken.len(), 1, "exactly one block is taken");
        seen[taken[0]] += 1;
    }
    // 100 expected each; below 55 is more than 5 standard deviations off.
    assert!(seen.iter().all(|n| *n > 55), "{seen:?}");
}

#[test]
fn rule_jupiter_2_0_example_the_printed_dice_pick_the_block() {
    // "For a group of 3, roll 1d6: 1-2 = 1st block, 3-4 = 2nd block, and
    // 5-6 = 3rd. For a group of 5, roll 1d6 and reroll a 6." The blocks of
    // a location are counted in roster order.
    let variant = "rules-2.0";
    let game = crate::common::published(variant);
    let roma = space(&game, "Roma");
    let taken = |names: &[&str], dice: &[u8]| -> usize {
        let mut names = names.to_vec();
        names.sort_by_key(|n| block(&game, P, n));
        let mut doc = PositionDoc::new(variant).block(C, "Legio 11", "Genua");
        for b in &names {
            doc = doc.block(P, b, "Roma");
        }
        let mut s = doc.played("Jupiter", "2/2").start(&game).unwrap();
        s.set_dice(dice);
        act(&game, &mut s, Action::JupiterAt(roma));
        assert!(s.dice_to_come().is_empty(), "every die scripted was rolled");
        let hit: Vec<usize> = (0..names.len())
            .filter(|i| {
                let b = block(&game, P, names[*i]);
                s.side(b) == C || s.steps(b) < game.roster().block(b).max_steps
            })
            .collect();
        assert_eq!(hit.len(), 1, "exactly one block is taken");
        hit[0]
    };
    let three = ["Legio 1", "Legio 3", "Auxilia 1"];
    let by_die: Vec<usize> = (1..=6).map(|d| taken(&three, &[d])).collect();
    assert_eq!(by_die, [0, 0, 1, 1, 2, 2]);
    let five = [
        "Legio 1",
        "Legio 3",
        "Auxilia 1",
        "Auxilia 2",
        "Equitatus 2",
    ];
    assert_eq!(taken(&five, &[5]), 4);
    assert_eq!(taken(&five, &[6, 2]), 1, "a 6 is rerolled");
    assert_eq!(taken(&five, &[6, 6, 1]), 0);
}
