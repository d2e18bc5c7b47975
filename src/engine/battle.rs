//! Battles (7.0): order of battle turns, fire, hits, reserves and disruption,
//! retreats, regroups, navis battles and shore combat. The battle phase's
//! room: [`Battles`] owns this turn's contests, the surprise named for one,
//! the battle being fought and the regroup after it, and reaches the blocks
//! through the [`Board`] it is handed; the state goes on when a battle ends.

use super::events::{GameEvent, Log, emit};
use super::stats::record;
use super::{Action, BlockSet, Board, Dice, Game, GameStats, MapEvent, NO_LINK, SpaceSet, flag};
use crate::scenario::model::{Adjacent, BlockId, Event, LinkId, SpaceId};
use crate::scenario::model::{BlockKind, Initiative, LinkClass, Side, SpaceKind};
use crate::scenario::rules::{AttackerRetreat, MainAttack};

/// The battle phase's own state (7): this turn's contests, the Mars or
/// Neptune surprise held and the battle named for it, the battle being
/// fought, and the regroup after one won.
#[derive(Debug, Clone)]
pub(super) struct Battles {
    contests: Vec<Contest>,
    battle: Option<Battle>,
    /// The space of the battle just won, during its regroup (7.7).
    regroup_space: Option<SpaceId>,
    /// Blocks regrouped along each link in this battle (7.7: limits per battle).
    regroup_use: Vec<(u16, u8)>,
    /// Mars/Neptune: the side holding an unused surprise this turn, and the kind.
    surprise: Option<(Side, Event)>,
    /// The battle that side named for it; known to that side only until fought.
    surprise_at: Option<SpaceId>,
}

/// What a battle's rules change: the board, the game's counts and the dice,
/// and the battle phase's own state (the battle fought is taken out of it
/// while it acts). Reads the board as the board.
struct Field<'a> {
    board: &'a mut Board,
    stats: &'a mut GameStats,
    dice: &'a mut Dice,
    battles: &'a mut Battles,
    /// Set when the battle ends: its winner, if any.
    ended: Option<Option<Side>>,
}

/// What a battle's rules read: the board and the battle phase's state.
#[derive(Clone, Copy)]
struct Look<'a> {
    board: &'a Board,
    battles: &'a Battles,
}

reads_as_board!(Field, Look);

impl Field<'_> {
    fn look(&self) -> Look<'_> {
        Look {
            board: self.board,
            battles: self.battles,
        }
    }
    /// One hit on a block (7.4): the step lost and any elimination are
    /// events of the board's `reduce`.
    fn hit(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        self.board.reduce(game, b, self.stats, log)
    }
    fn reduce(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        self.board.reduce(game, b, self.stats, log)
    }
    fn eliminate(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        self.board.eliminate(game, b, self.stats, log)
    }
}

/// A space where both sides met this turn.
#[derive(Debug, Clone)]
pub(super) struct Contest {
    space: SpaceId,
    attacker: Side,
    /// 7.3 main attack link (2.0: the first used).
    main: u16,
    /// Links the attacker used to attack or reinforce.
    attack_links: Vec<LinkId>,
    /// Attacking non-reserve blocks that entered (6.13 pinning).
    pinning: u8,
    /// 6.12 (1.1): the attacker has declared the main attack.
    declared: bool,
    /// 6.14: links the defender's responders came by; after a disruption
    /// swap (7.31) they are the new attacker's roads for 7.62 / 7.63.
    response_links: Vec<LinkId>,
}

impl Contest {
    pub(super) fn space(&self) -> SpaceId {
        self.space
    }
    pub(super) fn attacker(&self) -> Side {
        self.attacker
    }
    /// Links the attacker used to attack or reinforce.
    pub(super) fn attack_links(&self) -> &[LinkId] {
        &self.attack_links
    }
    /// Attacking non-reserve blocks that entered (6.13 pinning).
    pub(super) fn pinning(&self) -> u8 {
        self.pinning
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Sub {
    /// 7.3 (1.1): the attacker names the main attack road.
    MainAttack,
    /// A block's battle turn: fire, retreat or pass.
    Turn,
    /// 7.2: two or more blocks of one side share the next letter; their
    /// owner picks which takes its turn first.
    Choose,
    /// The owner picks which tied block takes the next hit.
    Hit { side: Side, hits: u8 },
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Battle {
    space: SpaceId,
    attacker: Side,
    round: u8,
    order: Vec<BlockId>,
    next: usize,
    surprise: bool,
    sub: Sub,
    /// Blocks retreating across each link this round (7.61), per side.
    retreat_use: Vec<(u16, [u8; 2])>,
    sea_retreats: [u8; 2],
    /// 7.62 (1.1): the one vacant city attackers retreat to, once chosen.
    attacker_retreat_city: Option<SpaceId>,
    /// The block at `next` was picked by its owner among tied blocks (7.2).
    chosen: bool,
    /// Each side (by `Side::index`) had a main force when round 1 began:
    /// only then can it be eliminated and its reserves disrupted (7.31).
    main_force_at_start: [bool; 2],
}

impl Battle {
    fn new(space: SpaceId, attacker: Side) -> Battle {
        Battle {
            space,
            attacker,
            round: 0,
            order: Vec::new(),
            next: 0,
            surprise: false,
            sub: Sub::Turn,
            retreat_use: Vec::new(),
            sea_retreats: [0, 0],
            attacker_retreat_city: None,
            chosen: false,
            main_force_at_start: [false; 2],
        }
    }

    /// Where the battle stands: every decision leads to a greater value
    /// (7.2: a later round or battle turn; within a turn, a block picked
    /// among tied ones, then its hits assigned one by one).
    pub(super) fn progress(&self) -> u32 {
        let within = match self.sub {
            Sub::MainAttack | Sub::Choose => 0,
            Sub::Turn => 1,
            Sub::Hit { hits, .. } => 2 + u32::from(u8::MAX - hits),
        };
        (u32::from(self.round) << 24) | ((self.next as u32) << 10) | within
    }

    fn decider(&self, board: &Board) -> Side {
        match self.sub {
            Sub::MainAttack => self.attacker,
            Sub::Turn | Sub::Choose => board.side(self.order[self.next]),
            Sub::Hit { side, .. } => side,
        }
    }

    fn actions(&self, look: Look<'_>, game: &Game, out: &mut Vec<Action>) {
        let battle = self;
        match battle.sub {
            Sub::MainAttack => {
                if let Some(c) = look
                    .battles
                    .contests
                    .iter()
                    .find(|c| c.space == battle.space)
                {
                    out.extend(c.attack_links.iter().map(|l| Action::MainAttack(*l)));
                }
            }
            Sub::Turn => {
                let b = battle.order[battle.next];
                let must_retreat = battle.must_retreat(look, game, b);
                if !must_retreat {
                    out.push(Action::Fire);
                }
                if battle.round >= 2 {
                    battle.retreats(look, game, b, |to| out.push(Action::Retreat(to)));
                }
                if !must_retreat {
                    out.push(Action::Pass);
                }
            }
            Sub::Hit { side, .. } => {
                for b in battle.strongest_targets(look, game, side).iter() {
                    out.push(Action::TakeHit(b));
                }
            }
            Sub::Choose => {
                out.extend(battle.tied_turns(look, game).map(Action::TakeTurn));
            }
        }
    }

    fn apply(&mut self, field: &mut Field<'_>, game: &Game, action: Action, log: &mut impl Log) {
        let battle = self;
        match (battle.sub, action) {
            (Sub::MainAttack, Action::MainAttack(link)) => {
                battle.set_main_attack(field, link);
                battle.after_setup(field, game, log);
            }
            (Sub::Turn, Action::Fire) => {
                let b = battle.order[battle.next];
                battle.fire(field, game, b, log);
                if matches!(battle.sub, Sub::Turn) {
                    battle.advance(field, game, log);
                }
            }
            (Sub::Turn, Action::Retreat(to)) => {
                let b = battle.order[battle.next];
                battle.retreat(field, game, b, to, log);
                battle.advance(field, game, log);
            }
            (Sub::Turn, Action::Pass) => {
                let b = battle.order[battle.next];
                emit!(
                    log,
                    GameEvent::Passes {
                        side: field.side(b),
                        block: b
                    }
                );
                battle.advance(field, game, log)
            }
            (Sub::Choose, Action::TakeTurn(b)) => {
                if let Some(i) = battle.order[battle.next..].iter().position(|x| *x == b) {
                    battle.order.swap(battle.next, battle.next + i);
                }
                emit!(
                    log,
                    GameEvent::TakesTurn {
                        side: field.side(b),
                        block: b
                    }
                );
                battle.sub = Sub::Turn;
                battle.chosen = true;
                battle.skip_to_valid_turn(field, game, log);
            }
            (Sub::Hit { side, hits }, Action::TakeHit(b)) => {
                field.hit(game, b, log);
                battle.assign_hits(field, game, side, hits - 1, log);
                if matches!(battle.sub, Sub::Turn) {
                    battle.advance(field, game, log);
                }
            }
            _ => {}
        }
    }

    fn is_attacker(&self, look: Look<'_>, b: BlockId) -> bool {
        look.side(b) == self.attacker
    }

    fn in_battle(&self, look: Look<'_>, b: BlockId) -> bool {
        look.board.block(b).loc() == self.space.0
    }

    fn is_reserve(&self, look: Look<'_>, b: BlockId) -> bool {
        look.board.block(b).has(flag::RESERVE)
    }

    /// Attackers must retreat in the last round (7.2).
    fn must_retreat(&self, look: Look<'_>, game: &Game, b: BlockId) -> bool {
        self.round >= game.rules.battle_rounds && self.is_attacker(look, b)
    }

    fn set_main_attack(&self, field: &mut Field<'_>, link: LinkId) {
        let space = self.space.0;
        for (at, s) in field.board.all_marks_mut() {
            if at.loc() == space && at.side() == self.attacker && !s.has(flag::RESPONDED) {
                if s.entered_via == link.0 {
                    s.flags &= !flag::RESERVE;
                } else if s.entered_via != NO_LINK {
                    s.flags |= flag::RESERVE;
                }
            }
        }
        if let Some(c) = field
            .battles
            .contests
            .iter_mut()
            .find(|c| c.space == self.space)
        {
            c.main = link.0;
        }
    }

    fn after_setup(&mut self, field: &mut Field<'_>, game: &Game, log: &mut impl Log) {
        // Mars / Neptune: the battle named at the end of the card player's
        // movement (docs/rules-notes.md, Mars), revealed now.
        if field.battles.surprise_at == Some(self.space)
            && field
                .battles
                .surprise_fits(field.board, game, self.space, self.attacker)
        {
            self.surprise = true;
            field.battles.surprise = None;
            field.battles.surprise_at = None;
            emit!(
                log,
                GameEvent::SurpriseAttack {
                    side: self.attacker
                }
            );
        }
        self.sub = Sub::Turn;
        self.start_round(field, game, log);
    }

    fn start_round(&mut self, field: &mut Field<'_>, game: &Game, log: &mut impl Log) {
        self.round += 1;
        field.stats.battle_rounds += 1;
        if self.round == 1 {
            for side in [Side::Caesar, Side::Pompey] {
                self.main_force_at_start[side.index()] = field
                    .blocks_at(self.space, side)
                    .any(|b| !self.is_reserve(field.look(), b));
            }
        }
        self.retreat_use.clear();
        self.sea_retreats = [0, 0];
        if self.round == 2 {
            self.reserves_arrive(field, game, log);
            if self.finished(field.look()) {
                self.finish(field, log);
                return;
            }
        }
        let mut order: Vec<BlockId> = (0..field.board.blocks().len() as u8)
            .map(BlockId)
            .filter(|b| self.in_battle(field.look(), *b) && !self.is_reserve(field.look(), *b))
            .collect();
        // 7.2: A before B before C before D, defenders first on ties; Mars and
        // Neptune: in round 1 all attackers fire first.
        order.sort_by_key(|b| (self.turn_key(field.look(), game, *b), b.0));
        emit!(
            log,
            GameEvent::BattleRound {
                space: self.space,
                round: self.round
            }
        );
        self.order = order;
        self.next = 0;
        self.chosen = false;
        self.skip_to_valid_turn(field, game, log);
    }

    /// 7.2: A before B before C before D, defenders first on ties; Mars and
    /// Neptune: in round 1 all attackers fire first. Blocks with equal keys
    /// are one side's blocks of one letter: their owner orders them.
    fn turn_key(&self, look: Look<'_>, game: &Game, b: BlockId) -> (bool, Initiative, bool) {
        let attacking = look.side(b) == self.attacker;
        let letter = game.roster().block(b).initiative(attacking);
        if self.surprise && self.round == 1 {
            (!attacking, letter, false)
        } else {
            (false, letter, attacking)
        }
    }

    /// The blocks that may take the turn at `next`: it and every later block
    /// of the round with the same key still able to act (7.2).
    fn tied_turns<'s>(
        &'s self,
        look: Look<'s>,
        game: &'s Game,
    ) -> impl Iterator<Item = BlockId> + 's {
        let key = self.turn_key(look, game, self.order[self.next]);
        self.order[self.next..]
            .iter()
            .copied()
            .take_while(move |b| self.turn_key(look, game, *b) == key)
            .filter(move |b| self.in_battle(look, *b) && !self.is_reserve(look, *b))
    }

    /// 7.3 / 7.31: reserves arrive in round 2; a side whose main force was
    /// eliminated in round 1 has its reserves disrupted. A side that began
    /// with reserves only lost nothing: they arrive undisrupted.
    fn reserves_arrive(&mut self, field: &mut Field<'_>, game: &Game, log: &mut impl Log) {
        for side in [self.attacker, self.attacker.other()] {
            let defending = side != self.attacker;
            if defending && !game.rules.disrupt_defending_reserves {
                continue;
            }
            let (mut main, mut reserves) = (0, Vec::new());
            for b in field.blocks_at(self.space, side) {
                if self.is_reserve(field.look(), b) {
                    reserves.push(b);
                } else {
                    main += 1;
                }
            }
            if main == 0 && !reserves.is_empty() && self.main_force_at_start[side.index()] {
                emit!(log, GameEvent::ReservesDisrupted { side });
                for b in reserves {
                    field.reduce(game, b, log);
                }
                if defending {
                    // 7.31: the attacker becomes the defender.
                    self.attacker = side;
                    emit!(log, GameEvent::BecomesAttacker { side });
                }
            }
        }
        for (at, s) in field.board.all_marks_mut() {
            if at.loc() == self.space.0 {
                s.flags &= !flag::RESERVE;
            }
        }
    }

    /// Moves `next` to the next block that can act; ends rounds and the battle.
    fn advance(&mut self, field: &mut Field<'_>, game: &Game, log: &mut impl Log) {
        if self.finished(field.look()) {
            self.finish(field, log);
            return;
        }
        self.next += 1;
        self.chosen = false;
        self.skip_to_valid_turn(field, game, log);
    }

    fn skip_to_valid_turn(&mut self, field: &mut Field<'_>, game: &Game, log: &mut impl Log) {
        loop {
            if self.finished(field.look()) {
                self.finish(field, log);
                return;
            }
            if self.next >= self.order.len() {
                if self.round >= game.rules.battle_rounds {
                    // Attackers still here could not retreat: eliminated (7.6).
                    let stuck: Vec<BlockId> = field.blocks_at(self.space, self.attacker).collect();
                    for b in stuck {
                        emit!(
                            log,
                            GameEvent::CannotRetreat {
                                side: self.attacker,
                                block: b
                            }
                        );
                        field.eliminate(game, b, log);
                    }
                    self.finish(field, log);
                    return;
                }
                self.start_round(field, game, log);
                return;
            }
            let b = self.order[self.next];
            if !self.in_battle(field.look(), b) || self.is_reserve(field.look(), b) {
                self.next += 1;
                self.chosen = false;
                continue;
            }
            if !self.chosen && self.tied_turns(field.look(), game).nth(1).is_some() {
                self.sub = Sub::Choose;
                return;
            }
            if self.must_retreat(field.look(), game, b) {
                let mut any = false;
                self.retreats(field.look(), game, b, |_| any = true);
                if !any {
                    emit!(
                        log,
                        GameEvent::CannotRetreat {
                            side: field.side(b),
                            block: b
                        }
                    );
                    field.eliminate(game, b, log);
                    self.next += 1;
                    self.chosen = false;
                    continue;
                }
            }
            return;
        }
    }

    fn finished(&self, look: Look<'_>) -> bool {
        let o = look.occupied(self.space);
        !(o[0] && o[1])
    }

    fn finish(&mut self, field: &mut Field<'_>, log: &mut impl Log) {
        let o = field.occupied(self.space);
        let winner = match o {
            [true, false] => Some(Side::Caesar),
            [false, true] => Some(Side::Pompey),
            _ => None,
        };
        for (at, s) in field.board.all_marks_mut() {
            if at.loc() == self.space.0 {
                s.flags &= !flag::RESERVE;
            }
        }
        let ends = GameEvent::BattleEnds {
            space: self.space,
            winner,
        };
        record(field.stats, log, ends);
        field.battles.regroup_use.clear();
        field.battles.regroup_space = Some(self.space);
        self.sub = Sub::Turn;
        // The state goes on from here: a regroup (7.7), or the next battle.
        field.ended = Some(winner);
    }

    fn fire(&mut self, field: &mut Field<'_>, game: &Game, b: BlockId, log: &mut impl Log) {
        let (dice, firepower) = fire_dice(field.board, game, b);
        let mut hits = 0u8;
        let mut rolls = Vec::new();
        for _ in 0..dice {
            let roll = field.dice.roll();
            if log.enabled() {
                rolls.push(roll);
            }
            if roll <= firepower {
                hits += 1;
            }
        }
        emit!(
            log,
            GameEvent::Fire {
                side: field.side(b),
                block: b,
                dice: rolls,
                hit_max: firepower,
                hits,
            }
        );
        let target = field.side(b).other();
        self.assign_hits(field, game, target, hits, log);
    }

    /// Enemy blocks that may take hits now, the strongest ones.
    fn strongest_targets(&self, look: Look<'_>, game: &Game, side: Side) -> BlockSet {
        let mut best = 0;
        let mut out = BlockSet::default();
        for b in look.blocks_at(self.space, side) {
            if self.round == 1 && self.is_reserve(look, b) {
                continue; // 7.3: reserves take no hits in round 1
            }
            let s = look.strength(game, b);
            if s > best {
                best = s;
                out = BlockSet::default();
            }
            if s == best {
                out.insert(b);
            }
        }
        out
    }

    /// 7.4: each hit to the strongest block; the owner breaks ties.
    fn assign_hits(
        &mut self,
        field: &mut Field<'_>,
        game: &Game,
        side: Side,
        mut hits: u8,
        log: &mut impl Log,
    ) {
        while hits > 0 {
            let mut targets = self.strongest_targets(field.look(), game, side).iter();
            match (targets.next(), targets.next()) {
                (None, _) => break, // surplus hits are lost
                (Some(target), None) => {
                    field.hit(game, target, log);
                    hits -= 1;
                }
                _ => {
                    self.sub = Sub::Hit { side, hits };
                    return;
                }
            }
        }
        self.sub = Sub::Turn;
    }

    /// The roads the attacker used into this battle (7.62 / 7.63).
    fn attack_links<'s>(&self, look: Look<'s>) -> &'s [LinkId] {
        match look.battles.contests.iter().find(|c| c.space == self.space) {
            Some(c) if c.attacker == self.attacker => &c.attack_links,
            // 7.31: after a disruption swap the new attacker is the old
            // defender, and its attacking roads are those its responders used.
            Some(c) => &c.response_links,
            None => &[],
        }
    }

    /// Whether a land block of `side` may retreat along `adj` now: 7.62 /
    /// 7.63 and the road and strait limits (7.61).
    fn road_retreat_allowed(
        &self,
        look: Look<'_>,
        game: &Game,
        side: Side,
        adj: &Adjacent,
    ) -> bool {
        if !adj.class.is_road() || look.has_enemy(adj.to, side) {
            return false;
        }
        let attack_links = self.attack_links(look);
        let allowed = if side == self.attacker {
            // 7.62: vacant cities only by roads used to attack.
            look.is_friendly(adj.to, side)
                || (attack_links.contains(&adj.link)
                    && match (game.rules.attacker_retreat, self.attacker_retreat_city) {
                        (AttackerRetreat::OneCityByAttackRoad, Some(city)) => city == adj.to,
                        _ => true,
                    })
        } else {
            // 7.63: not along roads the attacker used.
            !attack_links.contains(&adj.link)
        };
        let limit = match adj.class {
            LinkClass::Major => game.rules.road_limits.major,
            LinkClass::Minor => game.rules.road_limits.minor,
            LinkClass::Strait => game.rules.strait_retreat_limit,
            LinkClass::Sea => u8::MAX,
        };
        allowed && self.retreat_used(adj.link, side) < limit
    }

    /// Calls `f` with each place the block may retreat to this turn.
    fn retreats(&self, look: Look<'_>, game: &Game, b: BlockId, mut f: impl FnMut(SpaceId)) {
        let board = game.board();
        let side = look.side(b);
        let attacking = side == self.attacker;
        let attack_links = self.attack_links(look);
        let kind = game.roster().block(b).kind;
        let free = |to: SpaceId| !look.has_enemy(to, side);
        if kind == BlockKind::Navis {
            // 7.82.
            let came_from = look.board.block(b).marks.entered_via;
            for adj in board.neighbours(self.space) {
                if adj.class != LinkClass::Sea || !free(adj.to) {
                    continue;
                }
                let friendly = look.is_friendly(adj.to, side);
                let to_sea = board.space(adj.to).kind == SpaceKind::Sea;
                let ok = if attacking {
                    friendly || adj.link.0 == came_from
                } else if to_sea {
                    friendly || !attack_links.contains(&adj.link)
                } else {
                    friendly
                };
                if ok {
                    f(adj.to);
                }
            }
            return;
        }
        let mut seen = SpaceSet::default();
        for adj in board.neighbours(self.space) {
            if !self.road_retreat_allowed(look, game, side, adj) {
                continue;
            }
            seen.insert(adj.to);
            f(adj.to);
        }
        // 7.64: by sea, one block per round, to a friendly port on a friendly sea.
        if self.sea_retreats[side.index()] < game.rules.sea_retreat_limit
            && board.space(self.space).kind.is_port()
        {
            for sea in board.seas_of(self.space) {
                if !look.is_friendly(sea, side) {
                    continue;
                }
                for port in board.ports_of(sea) {
                    if port != self.space && look.is_friendly(port, side) && !seen.contains(port) {
                        seen.insert(port);
                        f(port);
                    }
                }
            }
        }
    }

    fn retreat_used(&self, link: LinkId, side: Side) -> u8 {
        self.retreat_use
            .iter()
            .find(|(l, _)| *l == link.0)
            .map_or(0, |(_, u)| u[side.index()])
    }

    fn retreat(
        &mut self,
        field: &mut Field<'_>,
        game: &Game,
        b: BlockId,
        to: SpaceId,
        log: &mut impl Log,
    ) {
        let board = game.board();
        let side = field.side(b);
        // A port that is both a road neighbour and across a friendly sea is
        // reached by road when the road is open, else by sea (7.64: then it
        // uses up the round's sea retreat).
        let by_road = board
            .neighbours(self.space)
            .iter()
            .find(|a| a.to == to && self.road_retreat_allowed(field.look(), game, side, a));
        let navis = game.roster().block(b).kind == BlockKind::Navis;
        let road = by_road.filter(|_| !navis).map(|adj| adj.link);
        match by_road {
            _ if navis => {}
            Some(adj) => {
                match self.retreat_use.iter_mut().find(|(l, _)| *l == adj.link.0) {
                    Some((_, u)) => u[side.index()] += 1,
                    None => {
                        let mut u = [0, 0];
                        u[side.index()] = 1;
                        self.retreat_use.push((adj.link.0, u));
                    }
                }
                if side == self.attacker && field.is_vacant(to) {
                    self.attacker_retreat_city.get_or_insert(to);
                }
            }
            None => self.sea_retreats[side.index()] += 1,
        }
        field.set_loc(game, b, to.0);
        let retreats = GameEvent::Retreats {
            side,
            block: b,
            to,
            road,
        };
        record(field.stats, log, retreats);
    }
}

/// How a battle's start went: no contest there, a battle to fight, or a
/// battle over before its first decision.
pub(super) enum Begun {
    NoContest,
    Fighting,
    /// Over at once (7.5: the winner, if any); the battle as it ended.
    Ended(Option<Side>, Battle),
}

impl Battles {
    /// No contest, no battle: a new game.
    pub(super) fn new() -> Battles {
        Battles {
            contests: Vec::new(),
            battle: None,
            regroup_space: None,
            regroup_use: Vec::new(),
            surprise: None,
            surprise_at: None,
        }
    }

    /// 7.1: Player 1 has picked the battle at `space`: it begins.
    pub(super) fn start(
        &mut self,
        field: (&mut Board, &mut GameStats, &mut Dice),
        game: &Game,
        space: SpaceId,
        log: &mut impl Log,
    ) -> Begun {
        let (board, stats, dice) = field;
        let Some(contest) = self.contests.iter().find(|c| c.space == space) else {
            return Begun::NoContest;
        };
        for (at, b) in board.all_marks_mut() {
            if at.loc() == space.0 {
                b.flags |= flag::FOUGHT;
            }
        }
        let begins = GameEvent::BattleBegins {
            space,
            attacker: contest.attacker,
        };
        record(stats, log, begins);
        // The roads the attackers came by are no event of their own (their
        // moves were): the heatmaps' attack roads are written here.
        for link in &contest.attack_links {
            stats.map_events.push(MapEvent::Attack(*link));
        }
        // 1.1: normally declared at the end of the attacker's moves already.
        let choose_main = game.rules.main_attack == MainAttack::AttackerChooses
            && contest.attack_links.len() > 1
            && !contest.declared;
        let mut battle = Battle::new(space, contest.attacker);
        if choose_main {
            battle.sub = Sub::MainAttack;
            self.battle = Some(battle);
            return Begun::Fighting;
        }
        let mut field = self.field((board, stats, dice));
        battle.after_setup(&mut field, game, log);
        match field.ended {
            Some(winner) => Begun::Ended(winner, battle),
            None => {
                self.battle = Some(battle);
                Begun::Fighting
            }
        }
    }

    /// What a battle's rules change, with the battle phase's own state (the
    /// battle fought taken out of it) and no end yet.
    fn field<'a>(
        &'a mut self,
        (board, stats, dice): (&'a mut Board, &'a mut GameStats, &'a mut Dice),
    ) -> Field<'a> {
        Field {
            board,
            stats,
            dice,
            battles: self,
            ended: None,
        }
    }

    /// The battle's decisions now.
    pub(super) fn actions(&self, board: &Board, game: &Game, out: &mut Vec<Action>) {
        if let Some(battle) = &self.battle {
            battle.actions(
                Look {
                    board,
                    battles: self,
                },
                game,
                out,
            );
        }
    }

    /// Applies a battle decision; `Some(winner)` when the battle is over
    /// (its regroup, if any, comes next).
    pub(super) fn apply(
        &mut self,
        field: (&mut Board, &mut GameStats, &mut Dice),
        game: &Game,
        action: Action,
        log: &mut impl Log,
    ) -> Option<Option<Side>> {
        let mut battle = self.battle.take()?;
        let mut field = self.field(field);
        battle.apply(&mut field, game, action, log);
        let ended = field.ended;
        if ended.is_none() {
            self.battle = Some(battle);
        }
        ended
    }

    /// Puts back a battle [`Battles::start`] found over at once. Only the
    /// state's start of a battle does, and only when the battles after it
    /// left the phase a battle: the engine has always done so (kept as it
    /// was, so games replay; see `State::start_battle`).
    pub(super) fn restore(&mut self, battle: Battle) {
        self.battle = Some(battle);
    }

    /// Who decides in the battle being fought.
    pub(super) fn decider(&self, board: &Board) -> Option<Side> {
        Some(self.battle.as_ref()?.decider(board))
    }

    /// The battle being fought, if any.
    pub(super) fn battle(&self) -> Option<&Battle> {
        self.battle.as_ref()
    }
    /// A battle stated outright (a [`BattleKey`](super::BattleKey)'s).
    pub(super) fn set_battle(&mut self, battle: Option<Battle>) {
        self.battle = battle;
    }

    /// What players may see of the battle being fought.
    pub(super) fn info(&self) -> Option<BattleInfo> {
        let b = self.battle.as_ref()?;
        Some(BattleInfo {
            space: b.space,
            attacker: b.attacker,
            round: b.round,
            acting: match b.sub {
                Sub::Turn => b.order.get(b.next).copied(),
                _ => None,
            },
        })
    }

    // ------------------------------------------------------------ contests

    /// This turn's contests, in the order they began.
    pub(super) fn contests(&self) -> &[Contest] {
        &self.contests
    }
    pub(super) fn contest_at(&self, space: SpaceId) -> Option<&Contest> {
        self.contests.iter().find(|c| c.space == space)
    }

    /// A block of `side` entering `to` by `link`, where enemy blocks stand
    /// (6.13 pinning, 6.14 responses): the contest begins or grows.
    pub(super) fn join_contest(
        &mut self,
        board: &mut Board,
        side: Side,
        b: BlockId,
        to: SpaceId,
        link: LinkId,
    ) {
        match self.contests.iter_mut().find(|c| c.space == to) {
            None => {
                self.contests.push(Contest {
                    space: to,
                    attacker: side,
                    main: link.0,
                    attack_links: vec![link],
                    pinning: 1,
                    declared: false,
                    response_links: Vec::new(),
                });
            }
            Some(c) if c.attacker == side => {
                if !c.attack_links.contains(&link) {
                    c.attack_links.push(link);
                }
                if c.main == link.0 || c.main == NO_LINK {
                    c.main = link.0;
                    c.pinning += 1;
                } else {
                    board.marks_mut(b).flags |= flag::RESERVE;
                }
            }
            // 6.14: Player 2 reinforcing a battle Player 1 started.
            Some(c) => {
                if !c.response_links.contains(&link) {
                    c.response_links.push(link);
                }
                board.marks_mut(b).flags |= flag::RESERVE | flag::RESPONDED;
            }
        }
    }

    /// 6.12 (1.1): the first battle `side` attacked by two or more roads
    /// whose main attack it has not declared yet.
    pub(super) fn undeclared_attack(&self, game: &Game, side: Side) -> Option<usize> {
        if game.rules.main_attack != MainAttack::AttackerChooses {
            return None;
        }
        self.contests
            .iter()
            .position(|c| c.attacker == side && !c.declared && c.attack_links.len() > 1)
    }

    /// 6.12 / 6.13 (1.1): blocks that entered by `link` are the main force and
    /// pin; those by other roads are reserves.
    pub(super) fn declare_main_attack(&mut self, board: &mut Board, contest: usize, link: LinkId) {
        let c = &mut self.contests[contest];
        let mut pinning = 0;
        for (at, s) in board.all_marks_mut() {
            if at.loc() == c.space.0 && at.side() == c.attacker && !s.has(flag::RESPONDED) {
                if s.entered_via == link.0 {
                    s.flags &= !flag::RESERVE;
                    pinning += 1;
                } else if s.entered_via != NO_LINK {
                    s.flags |= flag::RESERVE;
                }
            }
        }
        c.main = link.0;
        c.pinning = pinning;
        c.declared = true;
    }

    /// A space an event left holding both sides is fought, `side` (the side
    /// the changed block joined) attacking; its blocks there are its main
    /// force and pin as many enemy blocks (6.13).
    pub(super) fn contest_after_event(&mut self, board: &Board, side: Side, at: SpaceId) {
        if board.is_contested(at) && !self.contests.iter().any(|c| c.space == at) {
            let pinning = board.blocks_at(at, side).count() as u8;
            self.contests.push(Contest {
                space: at,
                attacker: side,
                main: NO_LINK,
                attack_links: Vec::new(),
                pinning,
                declared: false,
                response_links: Vec::new(),
            });
        }
    }

    /// A contest stated outright (a battle set up by `State::at_battle`):
    /// the attacker came by `attack_links`, the defender's responders by
    /// `response_links`, the main attack declared with the moves.
    pub(super) fn state_contest(
        &mut self,
        space: SpaceId,
        attacker: Side,
        attack_links: Vec<LinkId>,
        response_links: Vec<LinkId>,
    ) {
        self.contests = vec![Contest {
            space,
            attacker,
            main: attack_links.first().map_or(NO_LINK, |l| l.0),
            attack_links,
            pinning: 0,
            // 6.12 (1.1): declared with the moves, by the main force's road.
            declared: true,
            response_links,
        }];
    }

    /// 2.3: the contests still held by both sides, to be fought: how many,
    /// and the first.
    pub(super) fn keep_contested(&mut self, board: &Board) -> (usize, Option<SpaceId>) {
        let both = board
            .occupied_by(Side::Caesar)
            .and(board.occupied_by(Side::Pompey));
        self.contests.retain(|c| both.contains(c.space));
        (self.contests.len(), self.contests.first().map(|c| c.space))
    }

    /// The turn is over: no contest, no surprise held (2.0).
    pub(super) fn end_turn(&mut self) {
        self.contests.clear();
        self.surprise = None;
        self.surprise_at = None;
    }

    // ------------------------------------------------------------ surprise

    /// Mars/Neptune: the side holding an unused surprise this turn, and the kind.
    pub(super) fn surprise(&self) -> Option<(Side, Event)> {
        self.surprise
    }
    /// The battle named for the surprise; known to its side only until fought.
    pub(super) fn surprise_at(&self) -> Option<SpaceId> {
        self.surprise_at
    }
    /// Mars/Neptune played: `side` holds the surprise this turn.
    pub(super) fn hold_surprise(&mut self, side: Side, event: Event) {
        self.surprise = Some((side, event));
    }
    /// The battle named for the surprise, or none (the surprise is given up).
    pub(super) fn name_surprise(&mut self, named: Option<SpaceId>) {
        self.surprise_at = named;
        if named.is_none() {
            self.surprise = None;
        }
    }
    /// A sampled world's named battle (the opponent's secret, redrawn).
    pub(super) fn guess_surprise(&mut self, at: SpaceId) {
        self.surprise_at = Some(at);
    }

    /// Mars / Neptune: whether a battle at `space` attacked by `attacker`
    /// may be the surprise of the card held this turn. Only a battle the
    /// card's player attacks (RQ); Mars a land battle (1.1: the card's
    /// attack, navis included); Neptune a sea battle or a shore attack.
    pub(super) fn surprise_fits(
        &self,
        board: &Board,
        game: &Game,
        space: SpaceId,
        attacker: Side,
    ) -> bool {
        let land = game.board().space(space).kind != SpaceKind::Sea;
        match self.surprise {
            Some((side, Event::Mars)) => side == attacker && (land || !game.rules.mars_group_move),
            Some((side, Event::Neptune)) => {
                side == attacker
                    && (!land
                        || board
                            .blocks_at(space, attacker)
                            .any(|b| game.roster().block(b).kind == BlockKind::Navis))
            }
            _ => false,
        }
    }

    // ------------------------------------------------------------- regroup

    /// The space of the battle just won, during its regroup (7.7).
    pub(super) fn regroup_space(&self) -> Option<SpaceId> {
        self.regroup_space
    }
    /// Blocks regrouped along each link in this battle (7.7).
    pub(super) fn regroup_use(&self) -> &[(u16, u8)] {
        &self.regroup_use
    }

    /// The regroup is over: its battle's contest with it.
    pub(super) fn close_regroup(&mut self) {
        if let Some(space) = self.regroup_space.take() {
            self.contests.retain(|c| c.space != space);
        }
    }

    fn regroup_targets(&self, board: &Board, game: &Game, b: BlockId, mut f: impl FnMut(SpaceId)) {
        let Some(space) = self.regroup_space else {
            return;
        };
        if board.block(b).loc() != space.0 {
            return;
        }
        let side = board.side(b);
        let navis = game.roster().block(b).kind == BlockKind::Navis;
        for adj in game.board().neighbours(space) {
            if navis != (adj.class == LinkClass::Sea) {
                continue;
            }
            // 7.7 / 7.83: to friendly or vacant spaces.
            if board.has_enemy(adj.to, side) {
                continue;
            }
            if !navis && !self.may_regroup_by(game, adj) {
                continue;
            }
            f(adj.to);
        }
        // 7.83: navis on a sea may also regroup to a port on it.
    }

    /// 7.7: a land block's regroup along `adj`, within the road's limit
    /// (1.1: to the one city the first regroup chose).
    fn may_regroup_by(&self, game: &Game, adj: &Adjacent) -> bool {
        let limit = match adj.class {
            LinkClass::Major => game.rules.road_limits.major,
            LinkClass::Minor => game.rules.road_limits.minor,
            _ => game.rules.road_limits.strait,
        };
        let used = self
            .regroup_use
            .iter()
            .find(|(l, _)| *l == adj.link.0)
            .map_or(0, |(_, n)| *n);
        if used >= limit {
            return false;
        }
        // 7.7 (1.1) "to any adjacent city": the first regroup by
        // road fixes the one city the others may join.
        if game.rules.regroup_to_one_city
            && let Some(&(first, _)) = self.regroup_use.first()
            && first != adj.link.0
        {
            return false;
        }
        true
    }

    /// Whether `side` may regroup a block now.
    pub(super) fn has_regroup(&self, board: &Board, game: &Game, side: Side) -> bool {
        let Some(space) = self.regroup_space else {
            return false;
        };
        let mut any = false;
        for b in board.blocks_at(space, side) {
            self.regroup_targets(board, game, b, |_| any = true);
            if any {
                break;
            }
        }
        any
    }

    pub(super) fn regroup_actions(
        &self,
        board: &Board,
        game: &Game,
        side: Side,
        out: &mut Vec<Action>,
    ) {
        if let Some(space) = self.regroup_space {
            for b in board.blocks_at(space, side) {
                self.regroup_targets(board, game, b, |to| {
                    out.push(Action::Regroup { block: b, to })
                });
            }
        }
        out.push(Action::EndRegroup);
    }

    /// Applies a regroup decision; true when the regroup is over.
    pub(super) fn regroup_apply(
        &mut self,
        board: &mut Board,
        game: &Game,
        action: Action,
        log: &mut impl Log,
    ) -> bool {
        match action {
            Action::Regroup { block, to } => {
                let from = self.regroup_space.expect("regrouping after a battle");
                if let Some(link) = game.board().link_between(from, to)
                    && game.board().link(link).class.is_road()
                {
                    match self.regroup_use.iter_mut().find(|(l, _)| *l == link.0) {
                        Some((_, n)) => *n += 1,
                        None => self.regroup_use.push((link.0, 1)),
                    }
                }
                board.set_loc(game, block, to.0);
                let side = board.side(block);
                emit!(log, GameEvent::Regroups { side, block, to });
                !self.has_regroup(board, game, side)
            }
            Action::EndRegroup => true,
            _ => false,
        }
    }
}

/// 7.3 / 7.4: a block fires one die per strength point; a die at or
/// under its firepower hits.
pub(super) fn fire_dice(board: &Board, game: &Game, b: BlockId) -> (u8, u8) {
    (board.strength(game, b), game.roster().block(b).firepower)
}

/// What players may see of the battle being fought (all its blocks are revealed, 7.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleInfo {
    pub space: SpaceId,
    pub attacker: Side,
    pub round: u8,
    /// The block whose battle turn it is, if a block is to act.
    pub acting: Option<BlockId>,
}
