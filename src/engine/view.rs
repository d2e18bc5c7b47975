//! What one side may know (fog of war), and worlds consistent with it.
//!
//! Blocks stand upright facing their owner: a side sees its own blocks
//! exactly, enemy blocks only as counts per location, except the blocks of a
//! battle being fought or regrouping (7.0: revealed in battle), face-up
//! eliminated blocks in the pools (5.2) and dead leaders (7.51). Cards are
//! played face down and revealed together (2.1); discards are never shown.
//! Everything else — year, turn, phase, orders, moves made, contests, VP —
//! is public.

use std::hash::{Hash, Hasher};

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use super::{BlockState, CardSet, ELIMINATED, Game, POOL, Phase, Place, State, TROPHY};
use crate::scenario::model::{BlockId, CardFace, SpaceId};
use crate::scenario::model::{BlockKind, Side, SpaceKind};

/// A block as a side sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KnownBlock {
    pub place: Place,
    /// Steps (0 in the pool after an elimination or a disbanding).
    pub steps: u8,
    /// The side it fights for now.
    pub side: Side,
}

/// The state seen by one side. Compare views with `==` or [`SideView::fingerprint`]:
/// two states that differ only in what `side` cannot see give equal views.
#[derive(Clone, Copy)]
pub struct SideView<'a> {
    state: &'a State,
    side: Side,
    omniscient: bool,
}

impl State {
    /// What `side` may know now; `omniscient` shows everything (for quick
    /// simulations and for debugging).
    pub fn view(&self, side: Side, omniscient: bool) -> SideView<'_> {
        SideView {
            state: self,
            side,
            omniscient,
        }
    }

    /// The space whose blocks are revealed: the battle being fought, or the
    /// battle just won while its victor regroups (7.0, 7.7). 7.1: "Blocks are
    /// not revealed until a battle is fought", so not while the attacker
    /// still chooses its main attack (round 0); and reserves
    /// stay hidden until they arrive in round 2 ([`State::visible_to`], 7.3).
    pub(crate) fn revealed_space(&self) -> Option<SpaceId> {
        match self.phase {
            Phase::Battle => self.battle_info().filter(|b| b.round >= 1).map(|b| b.space),
            Phase::Regroup(_) => self.battles.regroup_space(),
            _ => None,
        }
    }

    /// Whether the card `side` played this turn is still face down (2.1:
    /// Caesar has played, Pompey has not yet).
    fn card_face_down(&self, side: Side) -> bool {
        side == Side::Caesar && self.phase == Phase::PlayCard(Side::Pompey)
    }

    /// A full state consistent with everything `side` knows, the hidden part
    /// redrawn at random, and a fresh chance stream drawn from `rng` (so the
    /// future dice and shuffles are not the real ones). What is redrawn:
    ///
    /// * The opponent's cards: his hand, his discards of the year and a card
    ///   he played face down are drawn together from the cards `side` has not
    ///   seen (the deck less its own hand, its own discards and every card
    ///   revealed this year), keeping every count.
    /// * The opponent's hidden blocks: those of his side on the map outside a
    ///   revealed battle, and those in his levy pool standing up (not
    ///   eliminated, not a dead leader, not a third leader still locked,
    ///   7.51). Their identities are redistributed over the same positions:
    ///   every position (a space, or the pool) keeps its count, and each
    ///   moved-in block takes over the position's moves and battle roles made
    ///   this turn. Hidden strengths are redrawn, uniformly from 1 to the
    ///   block's maximum on the map (full in the pool), and positions are
    ///   taken in an order the viewer can know, so the sample is a function
    ///   of the view and `rng` alone.
    ///   Navis only go to seas, ports or the pool; land blocks never to sea;
    ///   Cleopatra only to a map position. Sea positions draw from the navis,
    ///   then Cleopatra a city or port position, then inland cities from the
    ///   land blocks, the rest at random. Blocks fighting for the side that
    ///   did not print them (Jupiter's defectors) keep their places: only
    ///   blocks of the opponent's own colour are shuffled, so that pools stay
    ///   each owner's.
    ///
    /// With nothing hidden (e.g. after the battle reveals everything) the
    /// result equals the state but for the chance stream.
    pub fn determinize<R: Rng + ?Sized>(&self, game: &Game, side: Side, rng: &mut R) -> State {
        let mut world = self.clone();
        world.dice.reseed(rng.next_u64());
        world.redraw_cards(game, side, rng);
        world.redraw_blocks(game, side, rng);
        world.redraw_surprise(game, side, rng);
        world
    }

    /// The opponent's named surprise battle, if he named one: any battle it
    /// could be, uniformly.
    fn redraw_surprise<R: Rng + ?Sized>(&mut self, game: &Game, side: Side, rng: &mut R) {
        let Some((holder, _)) = self.battles.surprise() else {
            return;
        };
        if holder == side || self.battles.surprise_at().is_none() {
            return;
        }
        let fits: Vec<SpaceId> = self
            .battles
            .contests()
            .iter()
            .filter(|c| {
                self.battles
                    .surprise_fits(&self.board, game, c.space(), c.attacker())
            })
            .map(|c| c.space())
            .collect();
        if !fits.is_empty() {
            let at = fits[rng.random_range(0..fits.len())];
            self.battles.guess_surprise(at);
        }
    }

    fn redraw_cards<R: Rng + ?Sized>(&mut self, game: &Game, side: Side, rng: &mut R) {
        let enemy = side.other();
        let unseen: Vec<u8> = self.unseen_cards(game, side).iter().collect();
        let mut pool = unseen;
        pool.shuffle(rng);
        let hand_len = self.hands[enemy.index()].len();
        let discards = self.discarded[enemy.index()].len();
        let face_down = self.card_face_down(enemy) as usize;
        let needed = hand_len + discards + face_down;
        if pool.len() < needed {
            // Cannot happen with a consistent state; keep the real cards.
            return;
        }
        let mut drawn = pool.into_iter();
        self.hands[enemy.index()] = drawn.by_ref().take(hand_len).collect();
        self.discarded[enemy.index()] = drawn.by_ref().take(discards).collect();
        if face_down == 1 {
            self.played[enemy.index()] = drawn.next();
        }
    }

    /// The cards of the deck `side` has not seen this year: the undealt ones
    /// and the opponent's hidden ones (hand, discards, a card face down).
    pub fn unseen_cards(&self, game: &Game, side: Side) -> CardSet {
        let mut seen = self.year_played;
        for &c in &self.hands[side.index()] {
            seen.insert(c);
        }
        for c in self.discarded[side.index()].iter() {
            seen.insert(c);
        }
        if let Some(c) = self.played[side.index()] {
            seen.insert(c);
        }
        if !self.card_face_down(side.other())
            && let Some(c) = self.played[side.other().index()]
        {
            seen.insert(c);
        }
        game.deck
            .iter()
            .copied()
            .filter(|c| !seen.contains(*c))
            .collect()
    }

    /// Whether `side` sees block `b` exactly (without omniscience).
    fn visible_to(&self, game: &Game, side: Side, b: BlockId) -> bool {
        let s = self.board.block(b);
        match s.loc() {
            ELIMINATED | TROPHY => true,
            POOL => {
                s.side() == side
                    || (game.reserve_leaders.contains(b) && !self.board.leader_died(s.side()))
            }
            // 7.1: "Reveal blocks (not Reserves)"; 7.3: reserves "are
            // revealed and arrive at the start of Round 2".
            loc => {
                s.side() == side
                    || (self.revealed_space() == Some(SpaceId(loc)) && !s.has(super::flag::RESERVE))
            }
        }
    }

    fn redraw_blocks<R: Rng + ?Sized>(&mut self, game: &Game, side: Side, rng: &mut R) {
        let roster = game.roster();
        let enemy = side.other();
        let hidden: Vec<BlockId> = roster
            .ids()
            .filter(|b| {
                let s = self.board.block(*b);
                s.side() == enemy
                    && roster.block(*b).side == enemy
                    && !self.visible_to(game, side, *b)
            })
            .collect();
        if hidden.len() < 2 {
            return;
        }
        // The positions in an order the viewer can know (where, and how they
        // moved), never by identity or strength, so that the sample depends
        // only on the view and the rng.
        // A slot keeps its place in the moving group (Pompey may look while
        // Caesar moves).
        let mut slots: Vec<(BlockState, bool)> = hidden
            .iter()
            .map(|b| (*self.board.block(*b), self.command.members().contains(*b)))
            .collect();
        slots.sort_by_key(|(s, member)| {
            // Membership sorts as the group flag bit (2) it replaced did, so
            // a seed samples the same worlds as before.
            let flags = s.marks.flags | (*member as u8) << 1;
            (
                s.loc(),
                flags,
                s.marks.moved_steps,
                s.marks.entered_via,
                s.marks.came_from,
            )
        });
        let (slots, slot_member): (Vec<BlockState>, Vec<bool>) = slots.into_iter().unzip();
        let Some(mut assigned) = assign_to_slots(game, &hidden, &slots, rng) else {
            return; // unreachable with a consistent state: keep the real one
        };
        // Hidden strengths are redrawn too: uniformly on the map, full in
        // the pool (strength there is not used until a levy resets it).
        assigned.sort_by_key(|(b, _)| b.0);
        let mut redrawn = Vec::with_capacity(assigned.len());
        for (b, i) in assigned {
            let s = slots[i];
            let max = roster.block(b).max_steps.max(1);
            let steps = if s.on_map() {
                rng.random_range(1..=max)
            } else {
                max
            };
            redrawn.push((b, BlockState::stated(s.loc(), steps, s.side(), s.marks)));
            self.command.set_member(b, slot_member[i]);
        }
        self.board.restate(game, redrawn);
    }
}

/// What a hidden block's position can hold.
#[derive(PartialEq)]
enum Slot {
    Sea,
    Inland,
    Port,
    Pool,
}

/// The `hidden` blocks dealt to the `slots` (their positions, in a known
/// order) at random, as only a possible world would have them: seas take
/// navis, inland cities land blocks, Cleopatra a map position, ports and the
/// pool the rest. None if some block found no slot.
fn assign_to_slots<R: Rng + ?Sized>(
    game: &Game,
    hidden: &[BlockId],
    slots: &[BlockState],
    rng: &mut R,
) -> Option<Vec<(BlockId, usize)>> {
    let roster = game.roster();
    let board = game.board();
    let slot_kind = |s: &BlockState| match s.place() {
        Place::Map(at) => match board.space(at).kind {
            SpaceKind::Sea => Slot::Sea,
            k if k.is_port() => Slot::Port,
            _ => Slot::Inland,
        },
        _ => Slot::Pool,
    };
    let mut free: Vec<usize> = (0..slots.len()).collect();
    free.shuffle(rng);
    let kind = |b: BlockId| roster.block(b).kind;
    let mut navis: Vec<BlockId> = hidden
        .iter()
        .copied()
        .filter(|b| kind(*b) == BlockKind::Navis)
        .collect();
    let mut land: Vec<BlockId> = hidden
        .iter()
        .copied()
        .filter(|b| kind(*b).is_land() && kind(*b) != BlockKind::Cleopatra)
        .collect();
    let cleopatra = hidden
        .iter()
        .copied()
        .find(|b| kind(*b) == BlockKind::Cleopatra);
    navis.shuffle(rng);
    land.shuffle(rng);
    let mut assigned: Vec<(BlockId, usize)> = Vec::with_capacity(hidden.len());
    // The free slots of kind `slot` take the blocks of `pool` while it lasts.
    let fill = |free: &mut Vec<usize>,
                assigned: &mut Vec<(BlockId, usize)>,
                slot: Slot,
                pool: &mut Vec<BlockId>| {
        free.retain(|&i| {
            if slot_kind(&slots[i]) == slot
                && let Some(b) = pool.pop()
            {
                assigned.push((b, i));
                return false;
            }
            true
        });
    };
    // Seas take navis.
    fill(&mut free, &mut assigned, Slot::Sea, &mut navis);
    let inland = free
        .iter()
        .filter(|&&i| slot_kind(&slots[i]) == Slot::Inland)
        .count();
    // Cleopatra to a map position; a port only if the land blocks left
    // can still fill every inland city.
    if let Some(c) = cleopatra
        && let Some(pos) = free.iter().position(|&i| match slot_kind(&slots[i]) {
            Slot::Inland => true,
            Slot::Port => land.len() >= inland,
            _ => false,
        })
    {
        assigned.push((c, free.remove(pos)));
    }
    // Inland cities take land blocks.
    fill(&mut free, &mut assigned, Slot::Inland, &mut land);
    // Ports and the pool take the rest.
    let mut rest: Vec<BlockId> = navis.into_iter().chain(land).collect();
    rest.shuffle(rng);
    for (b, i) in rest.into_iter().zip(free) {
        assigned.push((b, i));
    }
    (assigned.len() == hidden.len()).then_some(assigned)
}

impl<'a> SideView<'a> {
    pub fn side(&self) -> Side {
        self.side
    }
    /// The whole state; only for omniscient players (`None` otherwise).
    pub fn state(&self) -> Option<&'a State> {
        self.omniscient.then_some(self.state)
    }

    // ------------------------------------------------------------ public

    pub fn year(&self) -> u8 {
        self.state.year
    }
    pub fn turn(&self) -> u8 {
        self.state.turn
    }
    pub fn current_player(&self) -> Option<Side> {
        self.state.current_player()
    }
    pub fn player1(&self) -> Side {
        self.state.player1()
    }
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }
    pub fn outcome(&self) -> Option<super::Outcome> {
        self.state.outcome
    }
    /// 1.2: VP are public (control is seen from the counts).
    pub fn vp(&self, game: &Game) -> [u32; 2] {
        self.state.vp(game)
    }
    pub fn trophies(&self, side: Side) -> u8 {
        self.state.board.trophies(side)
    }
    /// 7.51: whether a leader of `side` has died (its third leader is free).
    pub(crate) fn leader_died(&self, side: Side) -> bool {
        self.state.board.leader_died(side)
    }
    /// The battle being fought, if any.
    pub fn battle(&self) -> Option<super::BattleInfo> {
        self.state.battle_info()
    }
    pub fn is_friendly(&self, space: SpaceId, side: Side) -> bool {
        self.state.is_friendly(space, side)
    }
    pub fn is_vacant(&self, space: SpaceId) -> bool {
        self.state.is_vacant(space)
    }
    pub fn is_contested(&self, space: SpaceId) -> bool {
        self.state.is_contested(space)
    }

    // ------------------------------------------------------------ blocks

    /// Whether this side knows where block `b` is and how strong it is.
    pub fn knows(&self, game: &Game, b: BlockId) -> bool {
        self.omniscient || self.state.visible_to(game, self.side, b)
    }

    /// A block, if this side may see it.
    pub fn block(&self, game: &Game, b: BlockId) -> Option<KnownBlock> {
        self.knows(game, b).then(|| {
            let s = &self.state.board.block(b);
            KnownBlock {
                place: s.place(),
                steps: s.steps(),
                side: s.side(),
            }
        })
    }

    /// This side's blocks (on the map and in its pool), exactly.
    pub fn own_blocks(&self) -> impl Iterator<Item = (BlockId, KnownBlock)> + '_ {
        let side = self.side;
        self.state
            .board
            .blocks()
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.side() == side && s.loc() != TROPHY)
            .map(|(i, s)| {
                (
                    BlockId(i as u8),
                    KnownBlock {
                        place: s.place(),
                        steps: s.steps(),
                        side: s.side(),
                    },
                )
            })
    }

    /// Where block `b` stands on the map, if this side may know it.
    pub fn location(&self, game: &Game, b: BlockId) -> Option<SpaceId> {
        match self.block(game, b)?.place {
            Place::Map(at) => Some(at),
            _ => None,
        }
    }

    /// A known block's strength (7.41: two points a step for the elephant).
    pub fn strength(&self, game: &Game, b: BlockId) -> Option<u8> {
        self.knows(game, b).then(|| self.state.strength(game, b))
    }

    /// The strength of one of this side's own blocks (a side always knows
    /// its own: no visibility check); `None` for an enemy block.
    pub(crate) fn own_strength(&self, game: &Game, b: BlockId) -> Option<u8> {
        (self.state.board.block(b).side() == self.side).then(|| self.state.strength(game, b))
    }

    /// This side's blocks at `space`.
    pub(crate) fn own_blocks_at(&self, space: SpaceId) -> impl Iterator<Item = BlockId> + 'a {
        self.state.blocks_at(space, self.side)
    }

    /// Every enemy block on the map, as this side sees it: where it stands
    /// (public: blocks stand on the map back outward) and, for a block it may
    /// identify, its strength.
    pub(crate) fn enemies_on_map(
        &self,
        game: &'a Game,
    ) -> impl Iterator<Item = (SpaceId, Option<u8>)> + 'a {
        let state = self.state;
        let enemy = self.side.other();
        // `visible_to` for an enemy block on the map, with the revealed
        // battle looked up once rather than per block (7.1, 7.3).
        let revealed = state.revealed_space().map(|s| s.0);
        let omniscient = self.omniscient;
        state.board.on_map(enemy).iter().map(move |b| {
            let s = &state.board.block(b);
            let known = omniscient || (Some(s.loc()) == revealed && !s.has(super::flag::RESERVE));
            (SpaceId(s.loc()), known.then(|| state.strength(game, b)))
        })
    }

    /// While this side can know no enemy strength on the map (not
    /// omniscient, no battle revealed: 7.1), a stamp that stays while the
    /// enemy blocks stay where they are: what it sees of them is the same.
    /// `None` when it may know a strength.
    pub(crate) fn unseen_enemies_stamp(&self) -> Option<u64> {
        let known = self.omniscient || self.state.revealed_space().is_some();
        (!known).then_some(self.state.board.map_stamp(self.side.other()))
    }

    /// This side's blocks in each space, by space id (a side always knows
    /// its own; the other side's strength is never shown).
    pub(crate) fn own_forces(&self) -> &'a [super::Forces] {
        self.state.board.forces(self.side)
    }

    /// Where one of this side's own blocks stands on the map (a side always
    /// knows its own: no visibility check); `None` for an enemy block or
    /// one off the map.
    pub(crate) fn own_location(&self, b: BlockId) -> Option<SpaceId> {
        let s = &self.state.board.block(b);
        (s.side() == self.side && s.on_map()).then_some(SpaceId(s.loc()))
    }

    /// The moves this side would have after starting a group move from `at`
    /// (6.1), into `out`: steps of its own blocks (or ending the group), all
    /// decided by public facts (where enemy blocks stand and how many, the
    /// roads used, the battles begun; never which enemy blocks), so looking
    /// ahead here tells the player nothing hidden. A player checks with it
    /// that a group will move before it spends the move point. `Group(at)`
    /// must be one of this side's legal actions now. Out of this side's
    /// command phase `out` is left empty. An audited game
    /// ([`super::audit`]) checks at every `Group` that the look ahead is
    /// what forming the group gives.
    pub fn moves_after_group(&self, game: &Game, at: SpaceId, out: &mut Vec<super::Action>) {
        out.clear();
        let state = self.state;
        if state.current_player() != Some(self.side) || !matches!(state.phase, Phase::Command(_)) {
            return;
        }
        state.actions_after_group(game, at, out);
    }

    /// The event whose group is moving (public: the card was revealed).
    pub(crate) fn command_event(&self) -> Option<crate::scenario::model::Event> {
        self.state.command_event()
    }

    /// A full state consistent with this view, for looking ahead: the hidden
    /// part redrawn ([`State::determinize`]) and the chance to come drawn
    /// afresh from `rng`; an omniscient view keeps everything but the dice.
    pub(crate) fn sample_world<R: Rng + ?Sized>(&self, game: &Game, rng: &mut R) -> State {
        if self.omniscient {
            let mut world = self.state.clone();
            world.reseed(rng.random());
            world
        } else {
            self.state.determinize(game, self.side, rng)
        }
    }

    /// Blocks of the other side at `space`, seen or not.
    pub fn enemy_count(&self, space: SpaceId) -> u8 {
        self.state.board.forces(self.side.other())[space.index()].blocks
    }

    /// Enemy blocks at `space` this side can identify (all, in omniscient
    /// mode or in a revealed battle).
    pub fn known_enemies_at(
        &self,
        game: &'a Game,
        space: SpaceId,
    ) -> impl Iterator<Item = BlockId> + 'a {
        let this = *self;
        self.state
            .blocks_at(space, self.side.other())
            .filter(move |b| this.knows(game, *b))
    }

    // ------------------------------------------------------------- cards

    /// This side's hand.
    pub fn hand(&self) -> &'a [u8] {
        &self.state.hands[self.side.index()]
    }
    /// The opponent's hand, only in omniscient mode.
    pub fn enemy_hand(&self) -> Option<&'a [u8]> {
        self.omniscient
            .then(|| &self.state.hands[self.side.other().index()][..])
    }
    pub fn hand_size(&self, side: Side) -> usize {
        self.state.hands[side.index()].len()
    }
    /// The card `side` played this turn, once this side may see it.
    pub fn played(&self, side: Side) -> Option<u8> {
        let hidden = side != self.side && self.state.card_face_down(side) && !self.omniscient;
        if hidden {
            None
        } else {
            self.state.played[side.index()]
        }
    }
    /// What each side's card did last turn (Apollo's copy).
    pub fn last_played(&self, side: Side) -> Option<CardFace> {
        self.state.last_played[side.index()]
    }
    /// Cards revealed by either side this year.
    pub fn revealed_this_year(&self) -> CardSet {
        self.state.year_played
    }
    /// This side's own discards this year.
    pub fn discarded(&self) -> CardSet {
        self.state.discarded[self.side.index()]
    }
    /// Cards this side has not seen this year (undealt, or the opponent's).
    pub fn unseen_cards(&self, game: &Game) -> CardSet {
        self.state.unseen_cards(game, self.side)
    }

    // ------------------------------------------------------ comparison

    /// Everything this side may know, in a canonical form.
    fn facts<H: Hasher>(&self, h: &mut H) {
        let s = self.state;
        (self.side, self.omniscient).hash(h);
        let (leader_died, trophies) = s.board.dead_leaders();
        (s.year, s.turn, s.order, leader_died, trophies).hash(h);
        format!("{:?}", s.phase).hash(h);
        format!("{:?}", s.orders).hash(h);
        // Group members by identity only where the block is known (below).
        s.command.public_text().hash(h);
        let battles = &s.battles;
        format!("{:?}", battles.battle()).hash(h);
        format!("{:?}", battles.contests()).hash(h);
        let surprise = battles.surprise();
        surprise.map(|(side, e)| (side, e as u8)).hash(h);
        // Which battle Mars / Neptune named is its player's secret until fought.
        if self.omniscient || surprise.is_some_and(|(holder, _)| holder == self.side) {
            battles.surprise_at().hash(h);
        }
        format!("{:?}", s.outcome).hash(h);
        (
            s.command.road_use(),
            battles.regroup_space(),
            battles.regroup_use(),
        )
            .hash(h);
        s.last_played.hash(h);
        s.year_played.hash(h);
        s.discarded[self.side.index()].hash(h);
        let mut hand = s.hands[self.side.index()].clone();
        hand.sort_unstable();
        hand.hash(h);
        for side in Side::BOTH {
            s.hands[side.index()].len().hash(h);
            s.discarded[side.index()].len().hash(h);
            self.played(side).hash(h);
            s.played[side.index()].is_some().hash(h);
        }
        if self.omniscient {
            s.hands.hash(h);
            s.discarded.hash(h);
        }
        // Known blocks exactly; hidden ones as a multiset of (side, place).
        let mut hidden: Vec<(Side, u16, bool)> = Vec::new();
        for (i, b) in s.board.blocks().iter().enumerate() {
            let known = self.omniscient || s.visible_to_side_only(self.side, i);
            let member = s.command.members().contains(BlockId(i as u8));
            if known || self.revealed(i) {
                (
                    i,
                    b.loc(),
                    b.steps(),
                    b.side(),
                    b.marks.flags,
                    b.marks.moved_steps,
                    member,
                )
                    .hash(h);
                (b.marks.entered_via, b.marks.came_from).hash(h);
            } else {
                hidden.push((b.side(), b.loc(), member));
            }
        }
        hidden.sort_unstable();
        hidden.hash(h);
    }

    /// Whether block `i` is public without the roster (eliminated, dead,
    /// in a revealed battle and not a reserve yet to arrive).
    fn revealed(&self, i: usize) -> bool {
        let b = &self.state.board.blocks()[i];
        matches!(b.loc(), ELIMINATED | TROPHY)
            || (b.on_map()
                && self.state.revealed_space() == Some(SpaceId(b.loc()))
                && !b.has(super::flag::RESERVE))
    }

    /// A 64-bit digest of everything this side may know: equal views have
    /// equal fingerprints, and different ones almost surely differ.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        self.facts(&mut h);
        h.0
    }
}

impl State {
    /// `visible_to` without the roster: own blocks (the locked third leader
    /// is public, but its place never differs between consistent states).
    fn visible_to_side_only(&self, side: Side, i: usize) -> bool {
        self.board.blocks()[i].side() == side
    }
}

impl PartialEq for SideView<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Recorder(Vec::new()), Recorder(Vec::new()));
        self.facts(&mut a);
        other.facts(&mut b);
        a.0 == b.0
    }
}

impl std::fmt::Debug for SideView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SideView({}, omniscient: {}, fingerprint {:#018x})",
            self.side,
            self.omniscient,
            self.fingerprint()
        )
    }
}

/// FNV-1a: stable across runs and platforms, unlike the std hasher.
struct Fnv(u64);
impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Records the hashed bytes, for exact comparison.
struct Recorder(Vec<u8>);
impl Hasher for Recorder {
    fn finish(&self) -> u64 {
        0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}
