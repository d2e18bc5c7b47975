//! A battlefield for tests: a custom deployment puts the attackers next to
//! the defenders (Genua and Ravenna against Roma), the attacker moves in, and
//! the battle is fought by a fixed policy: fire always, retreat only when
//! forced, hits by the default policy.

#![allow(dead_code)] // each test binary uses part of it

use std::sync::Arc;

use caesar_workbench::ai::{default_hit_victim, hit_candidates};
use caesar_workbench::engine::{
    Action, Game, GameEvent, Place, PlacedBlock, Position, Stage, State,
};
use caesar_workbench::scenario::model::Side;
use caesar_workbench::scenario::model::{BlockId, CardFace, Setup, SpaceId};
use caesar_workbench::scenario::rules::RuleSet;
use caesar_workbench::sim::questions::odds::{BattleSpec, parse_blocks};

/// The published game under a built-in rule set.
pub fn published(variant: &str) -> Game {
    Game::from_document(
        &caesar_workbench::scenario::historical(),
        RuleSet::builtin(variant),
        None,
    )
    .expect("the published game is valid under every built-in rule set")
}

/// The shipped free-deployment example (5.3) under a built-in rule set.
pub fn free_deployment(variant: &str) -> Game {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/free-deployment-example.ron"
    );
    let doc = caesar_workbench::scenario::load_scenario(Some(std::path::Path::new(path)))
        .expect("the shipped example loads");
    Game::from_document(&doc, RuleSet::builtin(variant), None)
        .expect("the shipped example is valid under every built-in rule set")
}

pub struct Field {
    pub game: Game,
    pub from: SpaceId,
    /// Where the attacking reserves come from, by another road (7.3).
    pub reserve_from: SpaceId,
    pub to: SpaceId,
    pub attackers: Vec<BlockId>,
    pub defenders: Vec<BlockId>,
}

pub fn field(
    variant: &str,
    attacking: &str,
    reserves: &str,
    defending: &str,
) -> (Field, BattleSpec) {
    let base = published(variant);
    let attackers: Vec<BlockId> = parse_blocks(&base, Side::Caesar, attacking)
        .unwrap()
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let reserve_blocks: Vec<BlockId> = parse_blocks(&base, Side::Caesar, reserves)
        .unwrap()
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let defenders: Vec<BlockId> = parse_blocks(&base, Side::Pompey, defending)
        .unwrap()
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let board = base.board();
    // Genua–Roma is a major road: four blocks may attack along it (6.11).
    // Genua–Roma is a major road: four blocks may attack along it (6.11);
    // Ravenna–Roma a minor one, for up to two reserves.
    let (from, to) = (board.find("Genua").unwrap(), board.find("Roma").unwrap());
    let reserve_from = board.find("Ravenna").unwrap();
    let mut scenario = (*base.scenario).clone();
    scenario.free_deployment = None;
    scenario.order_of_battle = Setup {
        placements: attackers
            .iter()
            .map(|b| (*b, from))
            .chain(reserve_blocks.iter().map(|b| (*b, reserve_from)))
            .chain(defenders.iter().map(|b| (*b, to)))
            .collect(),
        strengths: Vec::new(),
    };
    let game =
        Game::try_new(Arc::new(scenario), Arc::clone(&base.rules)).expect("the engine plays it");
    let full = |ids: &[BlockId]| -> Vec<(BlockId, u8)> {
        ids.iter()
            .map(|b| (*b, game.roster().block(*b).max_strength()))
            .collect()
    };
    let spec = BattleSpec {
        attacker: Side::Caesar,
        attacking: full(&attackers),
        attacking_reserves: full(&reserve_blocks),
        defending: full(&defenders),
        defending_reserves: vec![],
        surprise: false,
    };
    (
        Field {
            game,
            from,
            reserve_from,
            to,
            attackers: attackers.into_iter().chain(reserve_blocks).collect(),
            defenders,
        },
        spec,
    )
}

/// Fights one battle, its dice drawn from `seed`.
pub fn fight(f: &Field, seed: u64) -> Option<(bool, [u32; 2])> {
    fight_watched(f, seed, &mut |_, _| {})
}

/// As [`fight`], showing `watch` every battle decision before it is taken.
pub fn fight_watched(
    f: &Field,
    seed: u64,
    watch: &mut dyn FnMut(&State, &[Action]),
) -> Option<(bool, [u32; 2])> {
    let state = battle_end(f, seed, watch)?;
    Some(battle_end_result(f, &state))
}

/// The state just after the battle.
pub fn battle_end(f: &Field, seed: u64, watch: &mut dyn FnMut(&State, &[Action])) -> Option<State> {
    // The cards are stated (Caesar Player 1 with two moves: the main attack
    // and the reserves); only the dice come from `seed`.
    battle_from(f, caesar_to_move(f, seed)?, watch)
}

/// The state just after the battle `state` (at Caesar's first group
/// decision in `f`) leads to.
pub fn battle_from(
    f: &Field,
    mut state: State,
    watch: &mut dyn FnMut(&State, &[Action]),
) -> Option<State> {
    let game = &f.game;
    let mut legal = Vec::new();
    let mut grouped = 0;
    let mut fought = false;
    loop {
        let side = state.current_player()?;
        if fought && state.battle_info().is_none() {
            break;
        }
        state.legal_actions(game, &mut legal);
        let command = |a: &Action| match a {
            Action::Play(c) | Action::Discard(c) => {
                matches!(game.card(*c), CardFace::Command { .. })
            }
            _ => false,
        };
        let main_attack = legal.iter().find(|a| match a {
            // 7.3 (1.1): the main attack is the road from `from`.
            Action::MainAttack(l) => {
                let link = game.board().link(*l);
                link.a == f.from || link.b == f.from
            }
            _ => false,
        });
        let action = if let Some(main) = main_attack {
            *main
        } else if state.battle_info().is_some() {
            fought = true;
            watch(&state, &legal);
            if legal.contains(&Action::Fire) {
                Action::Fire
            } else if let Action::TakeTurn(_) = legal[0] {
                legal[0] // 7.2: same-letter blocks in roster order
            } else if !hit_candidates(&legal).is_empty() {
                Action::TakeHit(default_hit_victim(game, &state, &hit_candidates(&legal)))
            } else {
                // Forced retreat in the last round.
                *legal.iter().find(|a| matches!(a, Action::Retreat(_)))?
            }
        } else if matches!(legal[0], Action::Discard(_)) {
            *legal.iter().find(|a| !command(a)).unwrap_or(&legal[0])
        } else if matches!(legal[0], Action::Play(_)) {
            // Two moves at least: the main attack and the reserves.
            *legal.iter().find(|a| match a {
                Action::Play(c) => {
                    matches!(game.card(*c), CardFace::Command { moves, .. } if moves >= 2)
                }
                _ => false,
            })?
        } else if side == Side::Caesar && grouped == 0 && legal.contains(&Action::Group(f.from)) {
            grouped = 1;
            Action::Group(f.from)
        } else if side == Side::Caesar
            && grouped == 1
            && legal.contains(&Action::Group(f.reserve_from))
        {
            grouped = 2;
            Action::Group(f.reserve_from)
        } else if let Some(step) = legal
            .iter()
            .find(|a| matches!(a, Action::Step { to, .. } if *to == f.to))
        {
            *step
        } else if let Some(battle) = legal.iter().find(|a| matches!(a, Action::Battle(_))) {
            *battle
        } else {
            *legal
                .iter()
                .find(|a| matches!(a, Action::EndGroup | Action::EndMoves | Action::EndLevy))?
        };
        state.apply(game, action);
    }
    Some(state)
}

fn battle_end_result(f: &Field, state: &State) -> (bool, [u32; 2]) {
    let game = &f.game;
    let won = !f.defenders.iter().any(|b| state.location(*b) == Some(f.to));
    let lost = |ids: &[BlockId]| -> u32 {
        ids.iter()
            .map(|b| {
                let max = game.roster().block(*b).max_steps as u32;
                let left = state.location(*b).map_or(0, |_| state.steps(*b) as u32);
                max - left
            })
            .sum()
    };
    (won, [lost(&f.attackers), lost(&f.defenders)])
}

/// The first turn of `f`'s deployment with Caesar Player 1 on a 2/2
/// against Pompey's 1/2 (each holding three command cards besides): the
/// state at Caesar's first group decision. Later chance comes from `seed`.
pub fn caesar_to_move(f: &Field, seed: u64) -> Option<State> {
    let mut state = caesar_to_move_with_dice(f, &[]);
    state.reseed(seed);
    (state.current_player() == Some(Side::Caesar)).then_some(state)
}

/// As [`caesar_to_move`], the battle's dice stated.
pub fn caesar_to_move_with_dice(f: &Field, dice: &[u8]) -> State {
    let hand: &[&str] = &["2/3", "2/1", "3/1"];
    command_turn(&f.game, "2/2", "1/2", [hand, hand], dice)
}

/// A block by name; panics with the name when the roster has none.
pub fn block(game: &Game, side: Side, name: &str) -> BlockId {
    game.roster()
        .find(side, name)
        .unwrap_or_else(|| panic!("no {side} block {name}"))
}

/// A space by name or alias; panics with the name when the map has none.
pub fn space(game: &Game, name: &str) -> SpaceId {
    game.board()
        .find(name)
        .unwrap_or_else(|| panic!("no space {name}"))
}

/// A block on the map: its side, its name and the space it stands in.
pub type Placement<'a> = (Side, &'a str, &'a str);

/// The published game under `variant` with only `blocks` on the map
/// (Cleopatra at Alexandria unless placed), `strengths` as printed.
pub fn position(variant: &str, blocks: &[Placement], strengths: &[(Side, &str, u8)]) -> Game {
    position_with(variant, blocks, strengths, |_| {})
}

pub fn position_with(
    variant: &str,
    blocks: &[Placement],
    strengths: &[(Side, &str, u8)],
    tweak: impl FnOnce(&mut RuleSet),
) -> Game {
    let base = published(variant);
    let mut placements: Vec<(BlockId, SpaceId)> = blocks
        .iter()
        .map(|(side, name, at)| (block(&base, *side, name), space(&base, at)))
        .collect();
    let cleopatra = block(&base, Side::Pompey, "Cleopatra");
    if !placements.iter().any(|(b, _)| *b == cleopatra) {
        placements.push((cleopatra, space(&base, "Alexandria")));
    }
    let mut scenario = (*base.scenario).clone();
    scenario.free_deployment = None;
    scenario.order_of_battle = Setup {
        placements,
        strengths: strengths
            .iter()
            .map(|(side, name, s)| (block(&base, *side, name), *s))
            .collect(),
    };
    let mut rules = (*base.rules).clone();
    tweak(&mut rules);
    Game::try_new(Arc::new(scenario), Arc::new(rules)).expect("the engine plays it")
}

// ------------------------------------------------------------ stated positions

/// The deployment `game` starts from (its order of battle), as an engine
/// position at the first turn's card play with empty hands.
pub fn deployed(game: &Game) -> Position {
    let setup = game.scenario.starting_setup();
    let roster = game.roster();
    let blocks = roster
        .ids()
        .filter_map(|b| {
            setup.location(b).map(|s| PlacedBlock {
                block: b,
                side: roster.block(b).side,
                place: Place::Map(s),
                steps: setup.steps(roster, b),
            })
        })
        .collect();
    Position {
        year: 1,
        turn: 1,
        stage: Stage::PlayCards,
        blocks,
        ..Position::default()
    }
}

/// Deck indices for cards named as printed (`Mars`, `3/2`), a distinct copy
/// for each mention, none of `taken`; panics when the deck in play has too few.
pub fn cards_avoiding(game: &Game, names: &[&str], taken: &[u8]) -> Vec<u8> {
    let mut chosen: Vec<u8> = Vec::new();
    for name in names {
        let c = game
            .deck_in_play()
            .iter()
            .copied()
            .find(|c| !chosen.contains(c) && !taken.contains(c) && game.card(*c).name() == *name)
            .unwrap_or_else(|| panic!("no copy of {name} left in the deck in play"));
        chosen.push(c);
    }
    chosen
}

pub fn cards(game: &Game, names: &[&str]) -> Vec<u8> {
    cards_avoiding(game, names, &[])
}

/// The state `position` describes; panics with the engine's reasons.
pub fn start(game: &Game, position: &Position) -> State {
    State::from_position(game, position).unwrap_or_else(|e| panic!("impossible position: {e:?}"))
}

/// Year 1, turn 1 of `game`'s deployment with Caesar having played `caesar`
/// and Pompey `pompey` (both revealed: Player 1 to act), each holding `hands`
/// besides. Battle dice to come: `dice`.
pub fn command_turn(
    game: &Game,
    caesar: &str,
    pompey: &str,
    hands: [&[&str]; 2],
    dice: &[u8],
) -> State {
    let mut p = deployed(game);
    let played = cards(game, &[caesar, pompey]);
    let c_hand = cards_avoiding(game, hands[0], &played);
    let taken: Vec<u8> = played.iter().chain(&c_hand).copied().collect();
    let p_hand = cards_avoiding(game, hands[1], &taken);
    p.stage = Stage::Command;
    p.played = [Some(played[0]), Some(played[1])];
    p.hands = [c_hand, p_hand];
    p.dice = dice.to_vec();
    start(game, &p)
}

/// (dice, hits) of the first fire among `events`.
pub fn fired(events: &[GameEvent]) -> Option<(Vec<u8>, u8)> {
    events.iter().find_map(|e| match e {
        GameEvent::Fire { dice, hits, .. } => Some((dice.clone(), *hits)),
        _ => None,
    })
}

/// `work` run on a pool of `threads` threads (a result that must not depend
/// on the thread count is compared across two).
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(work)
}
