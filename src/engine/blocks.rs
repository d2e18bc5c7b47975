//! Where blocks are and how strong (the state's one door for every change
//! of place, strength and side, so its occupancy and stamps stay true), and
//! eliminations (7.5: leaders to trophies 7.51, Cleopatra 7.52).

use super::events::{GameEvent, Log, emit};
use super::{ELIMINATED, Game, MapEvent, POOL, Place, State, TROPHY, fresh_stamp};
use crate::scenario::model::{BlockId, BlockKind, Side, SpaceId};

impl State {
    /// Moves a block (on or off the map). Every change of place goes
    /// through here so that [`State::occupancy`] stays true.
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

    /// Sets a block's steps, keeping [`State::forces`] true.
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
    /// the printed owner's pool), keeping [`State::occupancy`] true.
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
    pub(super) fn eliminate(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        let block = game.roster().block(b);
        let side = self.blocks[b.index()].side;
        let at = self.blocks[b.index()].place();
        if block.kind == BlockKind::Cleopatra {
            self.set_side(game, b, side.other());
            self.set_steps(game, b, 1);
            emit!(log, GameEvent::CleopatraChangesSides { to: side.other() });
            return false;
        }
        self.stats.blocks_eliminated[side.index()] += 1;
        if let Place::Map(space) = at {
            self.stats.map_events.push(MapEvent::BlockLost(space, side));
        }
        if block.kind == BlockKind::Leader {
            self.set_loc(game, b, TROPHY);
            self.trophies[side.other().index()] += 1;
            self.leader_died[side.index()] = true;
            self.stats.leaders_killed[side.index()] += 1;
            emit!(log, GameEvent::LeaderKilled { side, block: b });
        } else {
            self.set_loc(game, b, ELIMINATED);
            self.set_steps(game, b, 0);
            emit!(log, GameEvent::Eliminated { side, block: b });
        }
        self.blocks[b.index()].flags = 0;
        // A block that dies returns to its printed owner's pool.
        if block.kind != BlockKind::Leader {
            self.set_side(game, b, block.side);
        }
        true
    }

    /// Takes one step from a block, eliminating it below strength I.
    pub(super) fn reduce(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        let side = self.blocks[b.index()].side;
        self.stats.steps_lost[side.index()] += 1;
        if let Place::Map(space) = self.blocks[b.index()].place() {
            self.stats.map_events.push(MapEvent::StepLost(space, side));
        }
        let steps = self.blocks[b.index()].steps;
        emit!(
            log,
            GameEvent::StepLost {
                side,
                block: b,
                strength: (steps - 1) * game.strength_per_step[b.index()],
            }
        );
        if steps > 1 {
            self.set_steps(game, b, steps - 1);
            false
        } else {
            self.eliminate(game, b, log)
        }
    }
}
