//! A battle stated outright: the blocks of both sides in one space, how
//! they came there, and the engine's own battle start (7.1) from there. Exact
//! odds (`sim::questions::odds`) and the tests that sample battles begin here, so every
//! rule of 7.x they meet is the engine's, under the game's rule set.

use super::battle::Battle;
use super::{BlockState, Game, NoLog, POOL, Phase, State, flag};
use crate::scenario::model::{Adjacent, BlockId, LinkClass, LinkId, Side, SpaceId};
use crate::scenario::model::{BlockKind, Event};

/// One block of a stated battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleBlock {
    pub block: BlockId,
    /// Steps (an elephant's two strength points are one step, 7.41).
    pub steps: u8,
    /// 7.3: a reserve, arriving in round 2 (a defending one responded, 6.14).
    pub reserve: bool,
}

/// A battle about to begin. It is fought in [`BattleStart::space_for`]'s
/// space with every other block off the map: the attacker's main force came
/// by the space's first road, its reserves by the second, the defender's
/// reserves by the third (as many as the space has), so retreats follow
/// 7.6 from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleStart {
    pub attacker: Side,
    pub attacking: Vec<BattleBlock>,
    pub defending: Vec<BattleBlock>,
    /// Mars (surprise attack): every attacker fires first in round 1.
    pub surprise: bool,
    /// The chance stream's seed (dice not scripted).
    pub seed: u64,
}

/// Everything about a position in a battle that decides how it goes on:
/// equal keys, equal futures (the chance stream and counters apart).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BattleKey {
    battle: Option<Battle>,
    blocks: Vec<(u8, BlockState)>,
}

impl BattleStart {
    /// The city battles are stated in: the one with the most major roads,
    /// then the most roads, then the first on the board (Thessalonica on the
    /// published map), so attackers have roads to retreat by (7.62).
    pub fn space_for(game: &Game) -> SpaceId {
        let board = game.board();
        let roads = |s: SpaceId| {
            let n = board.neighbours(s);
            let major = n.iter().filter(|a| a.class == LinkClass::Major).count();
            let road = n.iter().filter(|a| a.class.is_road()).count();
            (major, road)
        };
        board
            .ids()
            .filter(|s| board.space(*s).kind.is_city())
            .max_by_key(|s| (roads(*s), std::cmp::Reverse(s.0)))
            .expect("a map has a city")
    }
}

/// The space's roads, major first (the board's order among equals).
fn roads(game: &Game, space: SpaceId) -> Vec<Adjacent> {
    let mut roads: Vec<Adjacent> = game
        .board()
        .neighbours(space)
        .iter()
        .filter(|a| a.class.is_road())
        .copied()
        .collect();
    roads.sort_by_key(|a| a.class != LinkClass::Major);
    roads
}

impl State {
    /// The state at the start of `start`'s battle under `game`'s rules: the
    /// blocks placed, then the engine's battle start (7.1), so the next
    /// decision is round 1's first battle turn. The blocks must be of the
    /// side they fight for, each once, at steps they have.
    pub fn at_battle(game: &Game, start: &BattleStart) -> State {
        let space = BattleStart::space_for(game);
        let roads = roads(game, space);
        let road = |i: usize| roads.get(i.min(roads.len().saturating_sub(1))).copied();
        let (main, reserve, response) = (road(0), road(1), road(2));
        let mut state = State::new(game, start.seed);
        state.dice.reseed(start.seed);
        let mut blocks: Vec<BlockState> = game
            .roster()
            .ids()
            .map(|id| {
                let block = game.roster().block(id);
                BlockState::fresh(POOL, block.max_steps, block.side)
            })
            .collect();
        let mut used = Vec::new();
        for (list, attacking) in [(&start.attacking, true), (&start.defending, false)] {
            for placed in list {
                let via = match (attacking, placed.reserve) {
                    (true, false) => main,
                    (true, true) => reserve,
                    (false, true) => response,
                    (false, false) => None,
                };
                let b = &mut blocks[placed.block.index()];
                let mut marks = b.marks;
                if placed.reserve {
                    marks.flags |= flag::RESERVE;
                }
                if !attacking && placed.reserve {
                    marks.flags |= flag::RESPONDED;
                }
                if let Some(adj) = via {
                    marks.entered_via = adj.link.0;
                    marks.came_from = adj.to.0;
                    if attacking && !used.contains(&adj.link) {
                        used.push(adj.link);
                    }
                }
                *b = BlockState::stated(space.0, placed.steps, b.side(), marks);
            }
        }
        let placed = blocks.into_iter().enumerate();
        state
            .board
            .restate(game, placed.map(|(i, b)| (BlockId(i as u8), b)));
        state.enter_battle(game, start, space, used, response);
        state
    }

    /// The contest as the attacker's moves left it, and the battle begun.
    fn enter_battle(
        &mut self,
        game: &Game,
        start: &BattleStart,
        space: SpaceId,
        attack_links: Vec<LinkId>,
        response: Option<Adjacent>,
    ) {
        self.year = 1;
        self.turn = 1;
        self.order = [start.attacker, start.attacker.other()];
        let response_links = response
            .filter(|_| start.defending.iter().any(|b| b.reserve))
            .map(|a| a.link)
            .into_iter()
            .collect();
        self.battles
            .state_contest(space, start.attacker, attack_links, response_links);
        // Mars on land; Neptune's surprise at sea needs a navis (the card).
        let navis = start
            .attacking
            .iter()
            .any(|b| game.roster().block(b.block).kind == BlockKind::Navis);
        if start.surprise {
            let event = if navis { Event::Neptune } else { Event::Mars };
            self.battles.hold_surprise(start.attacker, event);
            self.battles.name_surprise(Some(space));
        }
        self.phase = Phase::ChooseBattle;
        self.start_battle(game, space, &mut NoLog);
    }

    /// Where the battle stands in its sequence, if one is being fought:
    /// every battle decision leads to a position of greater progress, so a
    /// walk may take positions in this order and forget those behind it.
    pub fn battle_progress(&self) -> Option<u32> {
        self.battles.battle().map(Battle::progress)
    }

    /// Puts this state at the position `key` was taken from: the battle
    /// and its blocks (the state and the key of one battle started by
    /// [`State::at_battle`]; counters and chance stream stay).
    pub fn set_battle_key(&mut self, game: &Game, key: &BattleKey) {
        self.battles.set_battle(key.battle.clone());
        if key.battle.is_some() {
            self.phase = Phase::Battle;
        }
        let blocks = key.blocks.iter().map(|&(i, b)| (BlockId(i), b));
        self.board.restate(game, blocks);
    }

    /// The key of [`BattleKey`]: the battle and every block off the pool.
    pub fn battle_key(&self) -> BattleKey {
        BattleKey {
            battle: self.battles.battle().cloned(),
            blocks: self
                .board
                .blocks()
                .iter()
                .enumerate()
                .filter(|(_, b)| b.loc() != POOL)
                .map(|(i, b)| (i as u8, *b))
                .collect(),
        }
    }
}
