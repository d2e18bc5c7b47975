//! The board: where blocks are and how strong (each block's place, steps,
//! side and turn marks), the counts per space kept in step with them, dead
//! leaders and trophies, and the one door for every change of place,
//! strength and side (so the counts and stamps stay true); eliminations
//! (7.5: leaders to trophies 7.51, Cleopatra 7.52). It knows no phase: the
//! phases' rooms and the state reach the blocks through its methods.

use super::events::{GameEvent, Log, emit};
use super::stats::record;
use super::{BlockSet, Game, GameStats, SpaceSet};
use crate::scenario::model::{BlockId, BlockKind, Side, SpaceId};

/// Where a block is. Spaces are their ids; the rest are off-map boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    Map(SpaceId),
    /// In the levy pool, available.
    Pool,
    /// In the levy pool face-up: eliminated this year (5.2).
    Eliminated,
    /// A dead leader, held by the enemy as a 1 VP trophy (7.51).
    Trophy,
}

pub(super) const POOL: u16 = u16::MAX;
pub(super) const ELIMINATED: u16 = u16::MAX - 1;
pub(super) const TROPHY: u16 = u16::MAX - 2;
pub(super) const NO_LINK: u16 = u16::MAX;

/// Per-block flags for the current game turn.
pub(super) mod flag {
    pub(crate) const MOVED: u8 = 1;
    /// Entered an enemy space this turn and must stop.
    pub(crate) const STOPPED: u8 = 4;
    /// A reserve in the coming battle (7.3).
    pub(crate) const RESERVE: u8 = 8;
    /// Moved by sea this turn (6.3): no land move.
    pub(crate) const BY_SEA: u8 = 16;
    /// A navis that must stay at sea for an amphibious move (6.3).
    pub(crate) const ANCHORED: u8 = 32;
    /// Responded to a battle (6.14).
    pub(crate) const RESPONDED: u8 = 64;
    /// In a battle this turn (play quality: a move that led to a battle is
    /// not undone).
    pub(crate) const FOUGHT: u8 = 2;
}

/// A block as the board holds it: where it is, how strong and whose, which
/// only the board changes (through [`Board::set_loc`], [`Board::set_steps`],
/// [`Board::set_side`] and what is built on them, so the counts stay true),
/// and its [`Marks`] for this turn, which the phases set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct BlockState {
    // The field order is the hash's (a battle's key is hashed whole): keep it.
    loc: u16,
    steps: u8,
    side: Side,
    pub(super) marks: Marks,
}

/// A block's marks for the current game turn: flags and how it moved. The
/// phases set them through [`Board::marks_mut`]; they change no count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Marks {
    pub(super) flags: u8,
    /// Steps taken in the current group move.
    pub(super) moved_steps: u8,
    /// The link it last entered by this turn (for main attack and retreats).
    pub(super) entered_via: u16,
    /// Where it was before this turn's move (7.82: navis retreat where they came from).
    pub(super) came_from: u16,
    /// Its last turn's move, to count a move undone (play quality).
    pub(super) last_hop: Hop,
}

/// A block's move in one game turn: from where to where, and in which turn
/// of the game (1-based; 0: none since it last fought).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Hop {
    pub(super) from: u16,
    pub(super) to: u16,
    pub(super) turn: u8,
}

impl Hop {
    pub(super) const NONE: Hop = Hop {
        from: 0,
        to: 0,
        turn: 0,
    };
}

impl Marks {
    /// No flags, not moved: it came from `came_from`.
    pub(super) fn fresh(came_from: u16) -> Marks {
        Marks {
            flags: 0,
            moved_steps: 0,
            entered_via: NO_LINK,
            came_from,
            last_hop: Hop::NONE,
        }
    }
    pub(super) fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}

impl BlockState {
    /// A block of `side` at `loc` with `steps`, as a game starts it: no
    /// flags, not moved (it came from where it is).
    pub(super) fn fresh(loc: u16, steps: u8, side: Side) -> BlockState {
        BlockState::stated(loc, steps, side, Marks::fresh(loc))
    }
    /// A block stated outright (positions, battles, sampled worlds): it
    /// reaches a board only through [`Board::new`] or [`Board::restate`],
    /// which count it.
    pub(super) fn stated(loc: u16, steps: u8, side: Side, marks: Marks) -> BlockState {
        BlockState {
            loc,
            steps,
            side,
            marks,
        }
    }
    /// Where it is: a space's id, or [`POOL`], [`ELIMINATED`], [`TROPHY`].
    pub(super) fn loc(&self) -> u16 {
        self.loc
    }
    /// Its strength in steps.
    pub(super) fn steps(&self) -> u8 {
        self.steps
    }
    /// The side it fights for now.
    pub(super) fn side(&self) -> Side {
        self.side
    }
    pub(super) fn place(&self) -> Place {
        match self.loc {
            POOL => Place::Pool,
            ELIMINATED => Place::Eliminated,
            TROPHY => Place::Trophy,
            s => Place::Map(SpaceId(s)),
        }
    }
    pub(super) fn on_map(&self) -> bool {
        self.loc < TROPHY
    }
    pub(super) fn has(&self, f: u8) -> bool {
        self.marks.has(f)
    }
}

/// Where a block stands and for whom, read beside its marks
/// ([`Board::all_marks_mut`]): a copy, so nothing can be set through it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Standing {
    loc: u16,
    side: Side,
}

impl Standing {
    /// Where it is (as [`BlockState::loc`]).
    pub(super) fn loc(&self) -> u16 {
        self.loc
    }
    pub(super) fn side(&self) -> Side {
        self.side
    }
    pub(super) fn on_map(&self) -> bool {
        self.loc < TROPHY
    }
}

/// A stamp that no other change shares, in any state (clones included) or
/// thread: a cache keyed on one cannot be fooled by two clones that changed
/// differently. Never part of play: games do not depend on its value.
pub(super) fn fresh_stamp() -> u64 {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicU64, Ordering};
    static THREADS: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        // 0 until the thread's first stamp; then its own range of 2^40.
        static LAST: Cell<u64> = const { Cell::new(0) };
    }
    LAST.with(|last| {
        let mut stamp = last.get();
        if stamp == 0 {
            stamp = THREADS.fetch_add(1, Ordering::Relaxed) << 40;
        }
        stamp += 1;
        last.set(stamp);
        stamp
    })
}

/// One side's blocks in one space: how many and how strong, its navis
/// apart (a side's own are its to know; the enemy's count is public).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Forces {
    pub(crate) blocks: u8,
    pub(crate) navis: u8,
    pub(crate) strength: u16,
    pub(crate) navis_strength: u16,
}

impl Forces {
    #[inline]
    pub(super) fn add(&mut self, strength: u8, navis: bool) {
        self.blocks += 1;
        self.strength += u16::from(strength);
        if navis {
            self.navis += 1;
            self.navis_strength += u16::from(strength);
        }
    }
    #[inline]
    pub(super) fn remove(&mut self, strength: u8, navis: bool) {
        self.blocks -= 1;
        self.strength -= u16::from(strength);
        if navis {
            self.navis -= 1;
            self.navis_strength -= u16::from(strength);
        }
    }
}

/// Every block's place, strength, side and turn marks, and what is kept
/// in step with them. Place, steps and side change only through
/// [`Board::set_loc`], [`Board::set_steps`] and [`Board::set_side`] (debug
/// builds recount after every action); the turn's marks through
/// [`Board::marks_mut`].
#[derive(Debug, Clone)]
pub(super) struct Board {
    blocks: Vec<BlockState>,
    /// Each side's blocks in each space (how many, how strong): the hot
    /// path asks "who is here?" thousands of times per game, and a player
    /// its own strength per space at every decision.
    forces: [Vec<Forces>; 2],
    /// The spaces where each side has blocks.
    occupied: [SpaceSet; 2],
    /// Each side's blocks on the map, and in the pool (face-down, ready to
    /// levy).
    on_map: [BlockSet; 2],
    pooled: [BlockSet; 2],
    /// Per side, renewed (see [`fresh_stamp`]) whenever one of its blocks
    /// enters, leaves or moves on the map or changes sides there: what the
    /// other side sees of its blocks, strengths apart, stays while it does.
    map_stamp: [u64; 2],
    /// Dead leaders each side holds (7.51: 1 VP each).
    trophies: [u8; 2],
    /// 7.51: a leader of this side has died.
    leader_died: [bool; 2],
}

/// Forces per space, occupied spaces, blocks on the map and in the pool.
pub(super) type Counts = (
    [Vec<Forces>; 2],
    [SpaceSet; 2],
    [BlockSet; 2],
    [BlockSet; 2],
);

impl Board {
    /// The blocks as given, counted.
    pub(super) fn new(game: &Game, blocks: Vec<BlockState>) -> Board {
        let mut board = Board {
            blocks,
            forces: [Vec::new(), Vec::new()],
            occupied: [SpaceSet::default(); 2],
            on_map: [BlockSet::default(); 2],
            pooled: [BlockSet::default(); 2],
            map_stamp: [0; 2],
            trophies: [0, 0],
            leader_died: [false, false],
        };
        board.recount_occupancy(game);
        board
    }

    /// Every block, by id.
    pub(super) fn blocks(&self) -> &[BlockState] {
        &self.blocks
    }
    /// A block's place, steps, side and marks (a reference, so that no
    /// change can be made to a copy by mistake: see [`Board::marks_mut`]).
    pub(super) fn block(&self, b: BlockId) -> &BlockState {
        &self.blocks[b.index()]
    }
    /// A block's marks for this turn (flags, moves, the link it came by):
    /// never its place, steps or side.
    pub(super) fn marks_mut(&mut self, b: BlockId) -> &mut Marks {
        &mut self.blocks[b.index()].marks
    }
    /// Every block, to read, with its marks to change (in block order).
    pub(super) fn all_marks_mut(&mut self) -> impl Iterator<Item = (Standing, &mut Marks)> {
        self.blocks.iter_mut().map(|b| {
            let standing = Standing {
                loc: b.loc,
                side: b.side,
            };
            (standing, &mut b.marks)
        })
    }
    /// Blocks stated outright (positions, battles, sampled worlds), then
    /// counted afresh.
    pub(super) fn restate(
        &mut self,
        game: &Game,
        blocks: impl IntoIterator<Item = (BlockId, BlockState)>,
    ) {
        for (b, s) in blocks {
            self.blocks[b.index()] = s;
        }
        self.recount_occupancy(game);
    }
    /// Dead leaders and trophies stated outright (positions).
    pub(super) fn set_dead_leaders(&mut self, trophies: [u8; 2], leader_died: [bool; 2]) {
        (self.trophies, self.leader_died) = (trophies, leader_died);
    }
    pub(super) fn on_map(&self, side: Side) -> BlockSet {
        self.on_map[side.index()]
    }
    pub(super) fn pooled(&self, side: Side) -> BlockSet {
        self.pooled[side.index()]
    }
    /// The spaces where `side` has blocks.
    pub(super) fn occupied_by(&self, side: Side) -> SpaceSet {
        self.occupied[side.index()]
    }
    pub(super) fn forces(&self, side: Side) -> &[Forces] {
        &self.forces[side.index()]
    }
    pub(super) fn map_stamp(&self, side: Side) -> u64 {
        self.map_stamp[side.index()]
    }
    pub(super) fn trophies(&self, side: Side) -> u8 {
        self.trophies[side.index()]
    }
    /// Both sides' trophies and dead leaders, for a view's digest.
    pub(super) fn dead_leaders(&self) -> ([bool; 2], [u8; 2]) {
        (self.leader_died, self.trophies)
    }
    pub(super) fn leader_died(&self, side: Side) -> bool {
        self.leader_died[side.index()]
    }

    /// Moves a block (on or off the map). Every change of place goes
    /// through here so that the counts stay true.
    pub(super) fn set_loc(&mut self, game: &Game, b: BlockId, loc: u16) {
        let block = self.blocks[b.index()];
        let side = block.side;
        let (strength, navis) = (self.strength(game, b), game.is_navis(b));
        if block.on_map() {
            self.leave_space(strength, navis, block.loc, side);
            self.on_map[side.index()].remove(b);
        } else if block.loc == POOL {
            self.pooled[side.index()].remove(b);
        }
        self.blocks[b.index()].loc = loc;
        if self.blocks[b.index()].on_map() {
            self.enter_space(strength, navis, loc, side);
            self.on_map[side.index()].insert(b);
        } else if loc == POOL {
            self.pooled[side.index()].insert(b);
        }
        if block.on_map() || loc < TROPHY {
            self.map_stamp[side.index()] = fresh_stamp();
        }
    }

    /// Sets a block's steps, keeping the counts true.
    pub(super) fn set_steps(&mut self, game: &Game, b: BlockId, steps: u8) {
        let block = self.blocks[b.index()];
        self.blocks[b.index()].steps = steps;
        if block.on_map() {
            let per_step = game.strength_per_step[b.index()];
            let here = &mut self.forces[block.side.index()][block.loc as usize];
            here.strength =
                here.strength - u16::from(block.steps * per_step) + u16::from(steps * per_step);
            if game.is_navis(b) {
                here.navis_strength = here.navis_strength - u16::from(block.steps * per_step)
                    + u16::from(steps * per_step);
            }
        }
    }

    #[inline]
    pub(super) fn enter_space(&mut self, strength: u8, navis: bool, loc: u16, side: Side) {
        let here = &mut self.forces[side.index()][loc as usize];
        here.add(strength, navis);
        if here.blocks == 1 {
            self.occupied[side.index()].insert(SpaceId(loc));
        }
    }

    #[inline]
    pub(super) fn leave_space(&mut self, strength: u8, navis: bool, loc: u16, side: Side) {
        let here = &mut self.forces[side.index()][loc as usize];
        here.remove(strength, navis);
        if here.blocks == 0 {
            self.occupied[side.index()].remove(SpaceId(loc));
        }
    }

    /// Changes the side a block fights for (Cleopatra, Jupiter, a return to
    /// the printed owner's pool), keeping the counts true.
    pub(super) fn set_side(&mut self, game: &Game, b: BlockId, side: Side) {
        let block = self.blocks[b.index()];
        if block.on_map() {
            self.map_stamp = [fresh_stamp(), fresh_stamp()];
            let (strength, navis) = (self.strength(game, b), game.is_navis(b));
            self.leave_space(strength, navis, block.loc, block.side);
            self.enter_space(strength, navis, block.loc, side);
            self.on_map[block.side.index()].remove(b);
            self.on_map[side.index()].insert(b);
        } else if block.loc == POOL {
            self.pooled[block.side.index()].remove(b);
            self.pooled[side.index()].insert(b);
        }
        self.blocks[b.index()].side = side;
    }

    /// Removes a block from play (7.5): leaders become trophies, Cleopatra
    /// changes sides at strength I (7.52), the rest go face-up to the pool.
    /// Returns true if the block left the map.
    pub(super) fn eliminate(
        &mut self,
        game: &Game,
        b: BlockId,
        stats: &mut GameStats,
        log: &mut impl Log,
    ) -> bool {
        let block = game.roster().block(b);
        let side = self.blocks[b.index()].side;
        if block.kind == BlockKind::Cleopatra {
            self.set_side(game, b, side.other());
            self.set_steps(game, b, 1);
            emit!(log, GameEvent::CleopatraChangesSides { to: side.other() });
            return false;
        }
        let at = self.on_the_map(b);
        if block.kind == BlockKind::Leader {
            self.set_loc(game, b, TROPHY);
            self.trophies[side.other().index()] += 1;
            self.leader_died[side.index()] = true;
            record(stats, log, GameEvent::LeaderKilled { side, block: b, at });
        } else {
            self.set_loc(game, b, ELIMINATED);
            self.set_steps(game, b, 0);
            record(stats, log, GameEvent::Eliminated { side, block: b, at });
        }
        self.blocks[b.index()].marks.flags = 0;
        // A block that dies returns to its printed owner's pool.
        if block.kind != BlockKind::Leader {
            self.set_side(game, b, block.side);
        }
        true
    }

    /// Takes one step from a block, eliminating it below strength I.
    pub(super) fn reduce(
        &mut self,
        game: &Game,
        b: BlockId,
        stats: &mut GameStats,
        log: &mut impl Log,
    ) -> bool {
        let BlockState { side, steps, .. } = self.blocks[b.index()];
        let at = self.on_the_map(b);
        let strength = (steps - 1) * game.strength_per_step[b.index()];
        let lost = GameEvent::StepLost {
            side,
            block: b,
            at,
            strength,
        };
        record(stats, log, lost);
        if steps > 1 {
            self.set_steps(game, b, steps - 1);
            false
        } else {
            self.eliminate(game, b, stats, log)
        }
    }
}

impl Board {
    /// The counts as kept, to compare with [`Board::counted`].
    pub(super) fn counts(&self) -> Counts {
        (self.forces.clone(), self.occupied, self.on_map, self.pooled)
    }

    pub(super) fn place(&self, b: BlockId) -> Place {
        self.blocks[b.index()].place()
    }
    /// Where a block that is lost stands: only a block on the map fights
    /// (7), is struck (Vulcan) or refuses to defect (Jupiter).
    fn on_the_map(&self, b: BlockId) -> SpaceId {
        self.location(b).expect("only a block on the map is lost")
    }
    pub(super) fn location(&self, b: BlockId) -> Option<SpaceId> {
        match self.place(b) {
            Place::Map(s) => Some(s),
            _ => None,
        }
    }
    /// Whether a block waits in a battle's reserve (7.3): it arrives, and
    /// is revealed, at the start of round 2.
    pub(super) fn is_reserve(&self, b: BlockId) -> bool {
        self.blocks[b.index()].has(flag::RESERVE)
    }
    /// Current strength in steps.
    pub(super) fn steps(&self, b: BlockId) -> u8 {
        self.blocks[b.index()].steps
    }
    /// The side a block fights for now (Cleopatra and Jupiter may change it).
    pub(super) fn side(&self, b: BlockId) -> Side {
        self.blocks[b.index()].side
    }

    /// Blocks of `side` at `space`.
    pub(super) fn blocks_at(
        &self,
        space: SpaceId,
        side: Side,
    ) -> impl Iterator<Item = BlockId> + '_ {
        self.on_map[side.index()]
            .iter()
            .filter(move |b| self.blocks[b.index()].loc == space.0)
    }

    pub(super) fn occupied(&self, space: SpaceId) -> [bool; 2] {
        [
            self.occupied[0].contains(space),
            self.occupied[1].contains(space),
        ]
    }

    /// Spaces friendly to `side` (4.21: its blocks alone).
    pub(super) fn friendly_spaces(&self, side: Side) -> SpaceSet {
        self.occupied[side.index()].without(self.occupied[side.other().index()])
    }

    /// Rebuilds the counts per space and the block and space sets from the blocks.
    pub(super) fn recount_occupancy(&mut self, game: &Game) {
        (self.forces, self.occupied, self.on_map, self.pooled) = self.counted(game);
        self.map_stamp = [fresh_stamp(), fresh_stamp()];
    }

    /// Forces per space, the spaces each side occupies, and each side's
    /// blocks on the map and in the pool, counted afresh from the blocks.
    pub(super) fn counted(&self, game: &Game) -> Counts {
        let n = game.board().len();
        let mut forces = [vec![Forces::default(); n], vec![Forces::default(); n]];
        let mut occupied = [SpaceSet::default(); 2];
        let mut on_map = [BlockSet::default(); 2];
        let mut pooled = [BlockSet::default(); 2];
        for (i, b) in self.blocks.iter().enumerate() {
            let id = BlockId(i as u8);
            if b.on_map() {
                let strength = b.steps * game.strength_per_step[i];
                forces[b.side.index()][b.loc as usize].add(strength, game.is_navis(id));
                occupied[b.side.index()].insert(SpaceId(b.loc));
                on_map[b.side.index()].insert(id);
            } else if b.loc == POOL {
                pooled[b.side.index()].insert(id);
            }
        }
        (forces, occupied, on_map, pooled)
    }

    /// 4.21 / 4.4: friendly to `side` (occupied by it alone).
    pub(super) fn is_friendly(&self, space: SpaceId, side: Side) -> bool {
        let o = self.occupied(space);
        o[side.index()] && !o[side.other().index()]
    }
    pub(super) fn is_vacant(&self, space: SpaceId) -> bool {
        self.occupied(space) == [false, false]
    }
    pub(super) fn is_contested(&self, space: SpaceId) -> bool {
        self.occupied(space) == [true, true]
    }
    /// Holds enemy blocks (enemy or contested).
    pub(super) fn has_enemy(&self, space: SpaceId, side: Side) -> bool {
        self.occupied(space)[side.other().index()]
    }

    /// Printed strength (7.41: elephant steps count double).
    pub(super) fn strength(&self, game: &Game, b: BlockId) -> u8 {
        self.blocks[b.index()].steps * game.strength_per_step[b.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::super::Action;

    /// Two clones that move different blocks get different stamps for the
    /// side that moved (a cache keyed on the stamp is never fooled), and
    /// the side that did not move keeps its stamp.
    #[test]
    fn map_stamps_differ_between_clones_that_moved_differently() {
        let game = crate::test_support::published("rules-2.0");
        let (state, legal) = crate::test_support::play_until(&game, 3, |_, legal| {
            legal
                .iter()
                .filter(|a| matches!(a, Action::Group(_)))
                .count()
                >= 2
        });
        let side = state.current_player().expect("a command phase");
        let groups: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Group(_)))
            .collect();
        let mut legal = Vec::new();
        let mut moved = |group: Action| {
            let mut s = state.clone();
            s.apply(&game, group);
            s.legal_actions(&game, &mut legal);
            let step = *legal
                .iter()
                .find(|a| matches!(a, Action::Step { .. }))
                .expect("the group has a step");
            s.apply(&game, step);
            s
        };
        let (a, b) = (moved(groups[0]), moved(groups[1]));
        let (i, other) = (side.index(), side.other().index());
        assert_ne!(a.board.map_stamp[i], b.board.map_stamp[i]);
        assert_ne!(a.board.map_stamp[i], state.board.map_stamp[i]);
        assert_eq!(a.board.map_stamp[other], state.board.map_stamp[other]);
        assert_eq!(b.board.map_stamp[other], state.board.map_stamp[other]);
    }
}
