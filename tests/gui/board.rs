//! Blocks at their city, always (issue 55, item 2): on the opening
//! position and on positions of played games (a six-block contested city
//! in battle among them), at 1500×880 and at 1000×700, every block's
//! square stands at its own city's dot, covers no other city's dot or
//! name, and a stack stays put when only another city's stack changes.

use std::collections::BTreeMap;
use std::time::Duration;

use caesar_workbench::ai::AiSpec;
use caesar_workbench::app::play_stacks::{self, STACK_GAP};
use caesar_workbench::app::{Seat, Tab, WorkbenchApp};
use caesar_workbench::engine::{Action, Game, Period, Stage, State};
use caesar_workbench::games::position_file::PositionDoc;
use caesar_workbench::scenario::model::{BlockId, Side, SpaceId, SpaceKind};
use egui::{Pos2, Rect, Vec2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

const SIZES: [Vec2; 2] = [vec2(1500.0, 880.0), vec2(1000.0, 700.0)];

/// The Play tab `size` big, Caesar a person against the paused heuristic.
fn play_tab(size: Vec2) -> Harness<'static, WorkbenchApp> {
    let mut app = WorkbenchApp::new(None, "rules-2.0");
    app.set_tab(Tab::Play);
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    {
        let p = h.state_mut().play_panel();
        p.settings.seats = [Seat::Human, Seat::Ai(AiSpec::Heuristic)];
        p.settings.seed = 7;
        p.settings.pace = Duration::ZERO;
        p.paused = true;
    }
    h.run();
    h
}

fn settle(h: &mut Harness<'_, WorkbenchApp>) {
    h.state_mut().play_panel().settle();
    h.run();
}

fn now(h: &mut Harness<'_, WorkbenchApp>) -> (Game, State) {
    let s = h.state_mut().play_panel().session().expect("a game");
    (s.game.clone(), s.trace.last().clone())
}

fn legal(game: &Game, state: &State) -> Vec<Action> {
    let mut v = Vec::new();
    state.legal_actions(game, &mut v);
    v
}

/// Each space's squares as drawn, by space.
fn stacks(h: &mut Harness<'_, WorkbenchApp>) -> BTreeMap<u16, Vec<(BlockId, Rect)>> {
    let mut out: BTreeMap<u16, Vec<(BlockId, Rect)>> = BTreeMap::new();
    for (b, _, space, rect) in h.state_mut().play_panel().board().block_tiles() {
        out.entry(space.0).or_default().push((b, rect));
    }
    out
}

/// Checks every stack on the board now; returns how many blocks it checked.
fn check_board(h: &mut Harness<'_, WorkbenchApp>, when: &str) -> usize {
    let (game, state) = now(h);
    let board = h.state_mut().play_panel().board();
    let inputs = board.stack_inputs().expect("stacks placed").clone();
    let tiles = board.block_tiles();
    let area = board.view.area();
    // What is drawn is what the pure placement gives.
    let again = play_stacks::place(
        &inputs.stacks,
        inputs.cell,
        STACK_GAP,
        &inputs.fixed,
        inputs.area,
    );
    let is_city = |i: usize| game.board().space(SpaceId(i as u16)).kind != SpaceKind::Sea;
    let on_map = game
        .roster()
        .ids()
        .filter(|b| state.location(*b).is_some())
        .count();
    assert_eq!(
        tiles.len(),
        on_map,
        "{when}: every block on the map is drawn"
    );
    for placed in &again {
        let space = SpaceId(placed.space as u16);
        let drawn: Vec<Rect> = tiles.iter().filter(|t| t.2 == space).map(|t| t.3).collect();
        assert_eq!(drawn, placed.rects, "{when}: {}", game.board().name(space));
        if !is_city(placed.space) {
            continue;
        }
        let dot = board.space_centre(space).expect("a dot");
        let name = game.board().name(space);
        if !area.contains(dot) {
            continue;
        }
        let nearest = drawn
            .iter()
            .map(|r| r.distance_to_pos(dot))
            .fold(f32::MAX, f32::min);
        assert!(
            nearest <= 12.0,
            "{when}: {name}'s stack is {nearest} px from its dot"
        );
        for r in &drawn {
            let far = [
                r.left_top(),
                r.right_top(),
                r.left_bottom(),
                r.right_bottom(),
            ]
            .iter()
            .map(|p| p.distance(dot))
            .fold(0.0, f32::max);
            assert!(far <= 60.0, "{when}: a block of {name} reaches {far} px");
            for &(other, mark) in &inputs.fixed {
                if other != placed.space && is_city(other) {
                    assert!(
                        !r.intersects(mark),
                        "{when}: a block of {name} at {r:?} covers {}'s dot or name at {mark:?}",
                        game.board().name(SpaceId(other as u16))
                    );
                }
            }
        }
    }
    // A stack alone, or among stacks of other sizes, is placed the same.
    for (k, spec) in inputs.stacks.iter().enumerate() {
        let mut changed = inputs.stacks.clone();
        for (j, other) in changed.iter_mut().enumerate() {
            if j != k {
                other.blocks = other.blocks % 6 + 1;
            }
        }
        let alone = play_stacks::place(
            std::slice::from_ref(spec),
            inputs.cell,
            STACK_GAP,
            &inputs.fixed,
            inputs.area,
        );
        let among =
            play_stacks::place(&changed, inputs.cell, STACK_GAP, &inputs.fixed, inputs.area);
        let mine = among.iter().find(|p| p.space == spec.space).unwrap();
        assert_eq!(mine, &alone[0], "{when}");
        assert_eq!(mine, &again[k], "{when}");
    }
    tiles.len()
}

#[test]
fn every_opening_block_stands_at_its_city_and_covers_no_other_city() {
    for size in SIZES {
        let mut h = play_tab(size);
        {
            let p = h.state_mut().play_panel();
            p.settings.seats = [Seat::Ai(AiSpec::Heuristic), Seat::Ai(AiSpec::Heuristic)];
            p.watch = None;
        }
        h.get_by_label("Start game").click();
        h.run();
        let n = check_board(&mut h, &format!("the opening at {size:?}"));
        assert!(n >= 30, "{n} blocks");
        // Pointing at a city lists its stack in words.
        let (game, state) = now(&mut h);
        let roma = game.board().find("Roma").unwrap();
        let at = h
            .state_mut()
            .play_panel()
            .board()
            .space_centre(roma)
            .unwrap();
        h.hover_at(at);
        h.run_steps(40);
        for b in state.blocks_at(roma, Side::Pompey) {
            let name = game.block_name(b);
            assert!(
                h.query_all_by_label_contains(&format!("{name} (Pompey) — "))
                    .next()
                    .is_some(),
                "{name} not listed at Roma at {size:?}"
            );
        }
    }
}

/// Caesar's decisions, varied but ending phases often, the heuristic
/// answering; the board checked after each, and stacks that did not
/// change kept in place.
#[test]
fn in_played_games_every_block_stays_at_its_city_and_untouched_stacks_stay_put() {
    for size in SIZES {
        let mut h = play_tab(size);
        h.get_by_label("Start game").click();
        h.run();
        settle(&mut h);
        let mut checked = 0;
        let mut kept = 0;
        for k in 0..70 {
            let (game, s) = now(&mut h);
            if s.is_over() {
                break;
            }
            checked += check_board(&mut h, &format!("decision {k} at {size:?}"));
            let before = stacks(&mut h);
            let l = legal(&game, &s);
            let pick = l
                .iter()
                .find(|a| matches!(a, Action::EndGroup | Action::EndLevy | Action::EndWinter))
                .copied()
                .unwrap_or(l[k * 7 % l.len()]);
            h.state_mut().play_panel().act(pick).unwrap();
            h.run();
            h.run();
            let after = stacks(&mut h);
            // A stack whose blocks are the same stands where it stood.
            for (space, rects) in &before {
                let blocks: Vec<BlockId> = rects.iter().map(|r| r.0).collect();
                if let Some(now) = after.get(space)
                    && now.iter().map(|r| r.0).collect::<Vec<_>>() == blocks
                {
                    assert_eq!(
                        now,
                        rects,
                        "{} moved at {size:?}",
                        game.board().name(SpaceId(*space))
                    );
                    kept += 1;
                }
            }
            settle(&mut h);
        }
        assert!(checked > 1000, "{checked} blocks checked at {size:?}");
        assert!(kept > 100, "{kept} stacks compared at {size:?}");
    }
}

/// Caesar and two legions at Roma march on Pompey and two legions at
/// Neapolis: six blocks in a contested city, in battle.
fn battle_of_six() -> (Game, State) {
    let game = crate::common::published("rules-2.0");
    let state = PositionDoc::new("rules-2.0")
        .when(1, 2, Stage::Command)
        .played("3/1", "2/2")
        .hand(Side::Caesar, &["2/1", "1/2"])
        .hand(Side::Pompey, &["3/2", "2/1"])
        .block(Side::Caesar, "Caesar", "Roma")
        .block(Side::Caesar, "Legio 8", "Roma")
        .block(Side::Caesar, "Legio 9", "Roma")
        .block(Side::Pompey, "Pompey", "Neapolis")
        .block(Side::Pompey, "Legio 1", "Neapolis")
        .block(Side::Pompey, "Legio 3", "Neapolis")
        .start(&game)
        .expect("a possible position");
    (game, state)
}

#[test]
fn a_six_block_battle_stands_at_its_city_at_both_sizes() {
    for size in SIZES {
        let mut h = play_tab(size);
        let (game, state) = battle_of_six();
        h.state_mut()
            .play_panel()
            .start_from(game.clone(), state, "six at Neapolis".into());
        h.run();
        settle(&mut h);
        let roma = game.board().find("Roma").unwrap();
        let neapolis = game.board().find("Neapolis").unwrap();
        // The whole stack marches: one group from Roma to Neapolis.
        for _ in 0..30 {
            let (g, s) = now(&mut h);
            if s.battle_info().is_some() || s.period() == Period::Battles {
                break;
            }
            let l = legal(&g, &s);
            let pick = l
                .iter()
                .find(|a| matches!(a, Action::Step { to, .. } if *to == neapolis))
                .or_else(|| l.iter().find(|a| **a == Action::Group(roma)))
                .or_else(|| l.iter().find(|a| **a == Action::Battle(neapolis)))
                .or_else(|| {
                    l.iter().find(|a| {
                        matches!(a, Action::EndGroup | Action::EndMoves | Action::EndLevy)
                    })
                })
                .copied()
                .unwrap_or(l[0]);
            h.state_mut().play_panel().act(pick).unwrap();
            h.run();
            settle(&mut h);
        }
        let (_, s) = now(&mut h);
        let (caesar, pompey) = (
            s.blocks_at(neapolis, Side::Caesar).count(),
            s.blocks_at(neapolis, Side::Pompey).count(),
        );
        assert!(
            caesar == 3 && pompey == 3 && s.battle_info().is_some(),
            "a battle of six at Neapolis: {}",
            s.stage_text(&game)
        );
        h.run();
        check_board(&mut h, &format!("the battle at Neapolis at {size:?}"));
        let stack = &stacks(&mut h)[&neapolis.0];
        assert_eq!(stack.len(), caesar + pompey);
        let dot: Pos2 = h
            .state_mut()
            .play_panel()
            .board()
            .space_centre(neapolis)
            .unwrap();
        for (_, r) in stack {
            assert!(
                r.center().distance(dot) < 60.0,
                "{r:?} far from Neapolis at {dot:?}"
            );
        }
    }
}
