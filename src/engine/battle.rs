//! Battles (7.0): order of battle turns, fire, hits, reserves and disruption,
//! retreats, regroups, navis battles and shore combat.

use super::events::{GameEvent, Log, emit};
use super::{Action, BlockSet, Game, NO_LINK, Phase, SpaceSet, State, flag};
use crate::scenario::model::{Adjacent, BlockId, LinkId, SpaceId};
use crate::scenario::model::{BlockKind, Initiative, LinkClass, Side, SpaceKind};
use crate::scenario::rules::{AttackerRetreat, MainAttack};

/// A space where both sides met this turn.
#[derive(Debug, Clone)]
pub(super) struct Contest {
    pub(super) space: SpaceId,
    pub(super) attacker: Side,
    /// 7.3 main attack link (2.0: the first used).
    pub(super) main: u16,
    /// Links the attacker used to attack or reinforce.
    pub(super) attack_links: Vec<LinkId>,
    /// Attacking non-reserve blocks that entered (6.13 pinning).
    pub(super) pinning: u8,
    /// 6.12 (1.1): the attacker has declared the main attack.
    pub(super) declared: bool,
    /// 6.14: links the defender's responders came by; after a disruption
    /// swap (7.31) they are the new attacker's roads for 7.62 / 7.63.
    pub(super) response_links: Vec<LinkId>,
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

    pub(super) fn decider(&self, state: &State) -> Side {
        match self.sub {
            Sub::MainAttack => self.attacker,
            Sub::Turn | Sub::Choose => state.side(self.order[self.next]),
            Sub::Hit { side, .. } => side,
        }
    }

    pub(super) fn actions(state: &State, game: &Game, out: &mut Vec<Action>) {
        let Some(battle) = &state.battle else {
            return;
        };
        match battle.sub {
            Sub::MainAttack => {
                if let Some(c) = state.contests.iter().find(|c| c.space == battle.space) {
                    out.extend(c.attack_links.iter().map(|l| Action::MainAttack(*l)));
                }
            }
            Sub::Turn => {
                let b = battle.order[battle.next];
                let must_retreat = battle.must_retreat(state, game, b);
                if !must_retreat {
                    out.push(Action::Fire);
                }
                if battle.round >= 2 {
                    battle.retreats(state, game, b, |to| out.push(Action::Retreat(to)));
                }
                if !must_retreat {
                    out.push(Action::Pass);
                }
            }
            Sub::Hit { side, .. } => {
                for b in battle.strongest_targets(state, game, side).iter() {
                    out.push(Action::TakeHit(b));
                }
            }
            Sub::Choose => {
                out.extend(battle.tied_turns(state, game).map(Action::TakeTurn));
            }
        }
    }

    pub(super) fn apply(state: &mut State, game: &Game, action: Action, log: &mut impl Log) {
        let Some(mut battle) = state.battle.take() else {
            return;
        };
        match (battle.sub, action) {
            (Sub::MainAttack, Action::MainAttack(link)) => {
                battle.set_main_attack(state, link);
                battle.after_setup(state, game, log);
            }
            (Sub::Turn, Action::Fire) => {
                let b = battle.order[battle.next];
                battle.fire(state, game, b, log);
                if matches!(battle.sub, Sub::Turn) {
                    battle.advance(state, game, log);
                }
            }
            (Sub::Turn, Action::Retreat(to)) => {
                let b = battle.order[battle.next];
                battle.retreat(state, game, b, to, log);
                battle.advance(state, game, log);
            }
            (Sub::Turn, Action::Pass) => {
                let b = battle.order[battle.next];
                emit!(
                    log,
                    GameEvent::Passes {
                        side: state.side(b),
                        block: b
                    }
                );
                battle.advance(state, game, log)
            }
            (Sub::Choose, Action::TakeTurn(b)) => {
                if let Some(i) = battle.order[battle.next..].iter().position(|x| *x == b) {
                    battle.order.swap(battle.next, battle.next + i);
                }
                emit!(
                    log,
                    GameEvent::TakesTurn {
                        side: state.side(b),
                        block: b
                    }
                );
                battle.sub = Sub::Turn;
                battle.chosen = true;
                battle.skip_to_valid_turn(state, game, log);
            }
            (Sub::Hit { side, hits }, Action::TakeHit(b)) => {
                state.hit(game, b, log);
                battle.assign_hits(state, game, side, hits - 1, log);
                if matches!(battle.sub, Sub::Turn) {
                    battle.advance(state, game, log);
                }
            }
            _ => {}
        }
        if state.phase == Phase::Battle && state.battle.is_none() {
            state.battle = Some(battle);
        }
    }

    fn is_attacker(&self, state: &State, b: BlockId) -> bool {
        state.side(b) == self.attacker
    }

    fn in_battle(&self, state: &State, b: BlockId) -> bool {
        state.board.block(b).loc == self.space.0
    }

    fn is_reserve(&self, state: &State, b: BlockId) -> bool {
        state.board.block(b).has(flag::RESERVE)
    }

    /// Attackers must retreat in the last round (7.2).
    fn must_retreat(&self, state: &State, game: &Game, b: BlockId) -> bool {
        self.round >= game.rules.battle_rounds && self.is_attacker(state, b)
    }

    fn set_main_attack(&self, state: &mut State, link: LinkId) {
        let space = self.space.0;
        for s in state.board.all_marks_mut() {
            if s.loc == space && s.side == self.attacker && !s.has(flag::RESPONDED) {
                if s.entered_via == link.0 {
                    s.flags &= !flag::RESERVE;
                } else if s.entered_via != NO_LINK {
                    s.flags |= flag::RESERVE;
                }
            }
        }
        if let Some(c) = state.contests.iter_mut().find(|c| c.space == self.space) {
            c.main = link.0;
        }
    }

    fn after_setup(&mut self, state: &mut State, game: &Game, log: &mut impl Log) {
        // Mars / Neptune: the battle named at the end of the card player's
        // movement (docs/rules-notes.md, Mars), revealed now.
        if state.surprise_at == Some(self.space)
            && state.surprise_fits(game, self.space, self.attacker)
        {
            self.surprise = true;
            state.surprise = None;
            state.surprise_at = None;
            emit!(
                log,
                GameEvent::SurpriseAttack {
                    side: self.attacker
                }
            );
        }
        self.sub = Sub::Turn;
        self.start_round(state, game, log);
    }

    fn start_round(&mut self, state: &mut State, game: &Game, log: &mut impl Log) {
        self.round += 1;
        state.stats.battle_rounds += 1;
        if self.round == 1 {
            for side in [Side::Caesar, Side::Pompey] {
                self.main_force_at_start[side.index()] = state
                    .blocks_at(self.space, side)
                    .any(|b| !self.is_reserve(state, b));
            }
        }
        self.retreat_use.clear();
        self.sea_retreats = [0, 0];
        if self.round == 2 {
            self.reserves_arrive(state, game, log);
            if self.finished(state) {
                self.finish(state, game, log);
                return;
            }
        }
        let mut order: Vec<BlockId> = (0..state.board.blocks().len() as u8)
            .map(BlockId)
            .filter(|b| self.in_battle(state, *b) && !self.is_reserve(state, *b))
            .collect();
        // 7.2: A before B before C before D, defenders first on ties; Mars and
        // Neptune: in round 1 all attackers fire first.
        order.sort_by_key(|b| (self.turn_key(state, game, *b), b.0));
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
        self.skip_to_valid_turn(state, game, log);
    }

    /// 7.2: A before B before C before D, defenders first on ties; Mars and
    /// Neptune: in round 1 all attackers fire first. Blocks with equal keys
    /// are one side's blocks of one letter: their owner orders them.
    fn turn_key(&self, state: &State, game: &Game, b: BlockId) -> (bool, Initiative, bool) {
        let attacking = state.side(b) == self.attacker;
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
        state: &'s State,
        game: &'s Game,
    ) -> impl Iterator<Item = BlockId> + 's {
        let key = self.turn_key(state, game, self.order[self.next]);
        self.order[self.next..]
            .iter()
            .copied()
            .take_while(move |b| self.turn_key(state, game, *b) == key)
            .filter(move |b| self.in_battle(state, *b) && !self.is_reserve(state, *b))
    }

    /// 7.3 / 7.31: reserves arrive in round 2; a side whose main force was
    /// eliminated in round 1 has its reserves disrupted. A side that began
    /// with reserves only lost nothing: they arrive undisrupted.
    fn reserves_arrive(&mut self, state: &mut State, game: &Game, log: &mut impl Log) {
        for side in [self.attacker, self.attacker.other()] {
            let defending = side != self.attacker;
            if defending && !game.rules.disrupt_defending_reserves {
                continue;
            }
            let (mut main, mut reserves) = (0, Vec::new());
            for b in state.blocks_at(self.space, side) {
                if self.is_reserve(state, b) {
                    reserves.push(b);
                } else {
                    main += 1;
                }
            }
            if main == 0 && !reserves.is_empty() && self.main_force_at_start[side.index()] {
                emit!(log, GameEvent::ReservesDisrupted { side });
                for b in reserves {
                    state.reduce(game, b, log);
                }
                if defending {
                    // 7.31: the attacker becomes the defender.
                    self.attacker = side;
                    emit!(log, GameEvent::BecomesAttacker { side });
                }
            }
        }
        for s in state.board.all_marks_mut() {
            if s.loc == self.space.0 {
                s.flags &= !flag::RESERVE;
            }
        }
    }

    /// Moves `next` to the next block that can act; ends rounds and the battle.
    fn advance(&mut self, state: &mut State, game: &Game, log: &mut impl Log) {
        if self.finished(state) {
            self.finish(state, game, log);
            return;
        }
        self.next += 1;
        self.chosen = false;
        self.skip_to_valid_turn(state, game, log);
    }

    fn skip_to_valid_turn(&mut self, state: &mut State, game: &Game, log: &mut impl Log) {
        loop {
            if self.finished(state) {
                self.finish(state, game, log);
                return;
            }
            if self.next >= self.order.len() {
                if self.round >= game.rules.battle_rounds {
                    // Attackers still here could not retreat: eliminated (7.6).
                    let stuck: Vec<BlockId> = state.blocks_at(self.space, self.attacker).collect();
                    for b in stuck {
                        emit!(
                            log,
                            GameEvent::CannotRetreat {
                                side: self.attacker,
                                block: b
                            }
                        );
                        state.eliminate(game, b, log);
                    }
                    self.finish(state, game, log);
                    return;
                }
                self.start_round(state, game, log);
                return;
            }
            let b = self.order[self.next];
            if !self.in_battle(state, b) || self.is_reserve(state, b) {
                self.next += 1;
                self.chosen = false;
                continue;
            }
            if !self.chosen && self.tied_turns(state, game).nth(1).is_some() {
                self.sub = Sub::Choose;
                return;
            }
            if self.must_retreat(state, game, b) {
                let mut any = false;
                self.retreats(state, game, b, |_| any = true);
                if !any {
                    emit!(
                        log,
                        GameEvent::CannotRetreat {
                            side: state.side(b),
                            block: b
                        }
                    );
                    state.eliminate(game, b, log);
                    self.next += 1;
                    self.chosen = false;
                    continue;
                }
            }
            return;
        }
    }

    fn finished(&self, state: &State) -> bool {
        let o = state.occupied(self.space);
        !(o[0] && o[1])
    }

    fn finish(&mut self, state: &mut State, game: &Game, log: &mut impl Log) {
        let o = state.occupied(self.space);
        let winner = match o {
            [true, false] => Some(Side::Caesar),
            [false, true] => Some(Side::Pompey),
            _ => None,
        };
        for s in state.board.all_marks_mut() {
            if s.loc == self.space.0 {
                s.flags &= !flag::RESERVE;
            }
        }
        emit!(
            log,
            GameEvent::BattleEnds {
                space: self.space,
                winner
            }
        );
        if let Some(w) = winner {
            state
                .stats
                .map_events
                .push(super::MapEvent::BattleWon(self.space, w));
        }
        state.regroup_use.clear();
        state.regroup_space = Some(self.space);
        self.sub = Sub::Turn;
        state.battle = None;
        match winner {
            Some(w) if state.has_regroup(game, w) => state.phase = Phase::Regroup(w),
            _ => state.after_battle(game, log),
        }
    }

    fn fire(&mut self, state: &mut State, game: &Game, b: BlockId, log: &mut impl Log) {
        let (dice, firepower) = state.fire_dice(game, b);
        let mut hits = 0u8;
        let mut rolls = Vec::new();
        for _ in 0..dice {
            let roll = state.roll_die();
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
                side: state.side(b),
                block: b,
                dice: rolls,
                hit_max: firepower,
                hits,
            }
        );
        let target = state.side(b).other();
        self.assign_hits(state, game, target, hits, log);
    }

    /// Enemy blocks that may take hits now, the strongest ones.
    fn strongest_targets(&self, state: &State, game: &Game, side: Side) -> BlockSet {
        let mut best = 0;
        let mut out = BlockSet::default();
        for b in state.blocks_at(self.space, side) {
            if self.round == 1 && self.is_reserve(state, b) {
                continue; // 7.3: reserves take no hits in round 1
            }
            let s = state.strength(game, b);
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
        state: &mut State,
        game: &Game,
        side: Side,
        mut hits: u8,
        log: &mut impl Log,
    ) {
        while hits > 0 {
            let mut targets = self.strongest_targets(state, game, side).iter();
            match (targets.next(), targets.next()) {
                (None, _) => break, // surplus hits are lost
                (Some(target), None) => {
                    state.hit(game, target, log);
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
    fn attack_links<'s>(&self, state: &'s State) -> &'s [LinkId] {
        match state.contests.iter().find(|c| c.space == self.space) {
            Some(c) if c.attacker == self.attacker => &c.attack_links,
            // 7.31: after a disruption swap the new attacker is the old
            // defender, and its attacking roads are those its responders used.
            Some(c) => &c.response_links,
            None => &[],
        }
    }

    /// Whether a land block of `side` may retreat along `adj` now: 7.62 /
    /// 7.63 and the road and strait limits (7.61).
    fn road_retreat_allowed(&self, state: &State, game: &Game, side: Side, adj: &Adjacent) -> bool {
        if !adj.class.is_road() || state.has_enemy(adj.to, side) {
            return false;
        }
        let attack_links = self.attack_links(state);
        let allowed = if side == self.attacker {
            // 7.62: vacant cities only by roads used to attack.
            state.is_friendly(adj.to, side)
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
    fn retreats(&self, state: &State, game: &Game, b: BlockId, mut f: impl FnMut(SpaceId)) {
        let board = game.board();
        let side = state.side(b);
        let attacking = side == self.attacker;
        let attack_links = self.attack_links(state);
        let kind = game.roster().block(b).kind;
        let free = |to: SpaceId| !state.has_enemy(to, side);
        if kind == BlockKind::Navis {
            // 7.82.
            let came_from = state.board.block(b).entered_via;
            for adj in board.neighbours(self.space) {
                if adj.class != LinkClass::Sea || !free(adj.to) {
                    continue;
                }
                let friendly = state.is_friendly(adj.to, side);
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
            if !self.road_retreat_allowed(state, game, side, adj) {
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
                if !state.is_friendly(sea, side) {
                    continue;
                }
                for port in board.ports_of(sea) {
                    if port != self.space && state.is_friendly(port, side) && !seen.contains(port) {
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
        state: &mut State,
        game: &Game,
        b: BlockId,
        to: SpaceId,
        log: &mut impl Log,
    ) {
        let board = game.board();
        let side = state.side(b);
        // A port that is both a road neighbour and across a friendly sea is
        // reached by road when the road is open, else by sea (7.64: then it
        // uses up the round's sea retreat).
        let by_road = board
            .neighbours(self.space)
            .iter()
            .find(|a| a.to == to && self.road_retreat_allowed(state, game, side, a));
        let navis = game.roster().block(b).kind == BlockKind::Navis;
        match by_road {
            _ if navis => {}
            Some(adj) => {
                state
                    .stats
                    .map_events
                    .push(super::MapEvent::Retreat(adj.link));
                match self.retreat_use.iter_mut().find(|(l, _)| *l == adj.link.0) {
                    Some((_, u)) => u[side.index()] += 1,
                    None => {
                        let mut u = [0, 0];
                        u[side.index()] = 1;
                        self.retreat_use.push((adj.link.0, u));
                    }
                }
                if side == self.attacker && state.is_vacant(to) {
                    self.attacker_retreat_city.get_or_insert(to);
                }
            }
            None => self.sea_retreats[side.index()] += 1,
        }
        state.set_loc(game, b, to.0);
        emit!(log, GameEvent::Retreats { side, block: b, to });
    }
}

impl State {
    /// 7.1: Player 1 has picked a battle.
    pub(super) fn start_battle(&mut self, game: &Game, space: SpaceId, log: &mut impl Log) {
        let Some(contest) = self.contests.iter().find(|c| c.space == space) else {
            return;
        };
        self.stats.battles += 1;
        for b in self.board.all_marks_mut() {
            if b.loc == space.0 {
                b.flags |= super::flag::FOUGHT;
            }
        }
        self.stats.map_events.push(super::MapEvent::Battle(space));
        for link in &contest.attack_links {
            self.stats.map_events.push(super::MapEvent::Attack(*link));
        }
        emit!(
            log,
            GameEvent::BattleBegins {
                space,
                attacker: contest.attacker
            }
        );
        // 1.1: normally declared at the end of the attacker's moves already.
        let choose_main = game.rules.main_attack == MainAttack::AttackerChooses
            && contest.attack_links.len() > 1
            && !contest.declared;
        let mut battle = Battle {
            space,
            attacker: contest.attacker,
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
        };
        self.phase = Phase::Battle;
        if choose_main {
            battle.sub = Sub::MainAttack;
            self.battle = Some(battle);
        } else {
            battle.after_setup(self, game, log);
            if self.phase == Phase::Battle {
                self.battle = Some(battle);
            }
        }
    }

    /// One hit on a block (7.4).
    fn hit(&mut self, game: &Game, b: BlockId, log: &mut impl Log) {
        // The step lost and any elimination are events of `reduce`.
        self.reduce(game, b, log);
    }

    /// After a battle and its regroup: the next battle, or the end of the turn.
    pub(super) fn after_battle(&mut self, game: &Game, log: &mut impl Log) {
        if let Some(space) = self.regroup_space.take() {
            self.contests.retain(|c| c.space != space);
        }
        self.begin_battles(game, log);
    }

    fn regroup_targets(&self, game: &Game, b: BlockId, mut f: impl FnMut(SpaceId)) {
        let Some(space) = self.regroup_space else {
            return;
        };
        if self.board.block(b).loc != space.0 {
            return;
        }
        let board = game.board();
        let side = self.side(b);
        let navis = game.roster().block(b).kind == BlockKind::Navis;
        for adj in board.neighbours(space) {
            if navis != (adj.class == LinkClass::Sea) {
                continue;
            }
            // 7.7 / 7.83: to friendly or vacant spaces.
            if self.has_enemy(adj.to, side) {
                continue;
            }
            if !navis {
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
                    continue;
                }
                // 7.7 (1.1) "to any adjacent city": the first regroup by
                // road fixes the one city the others may join.
                if game.rules.regroup_to_one_city
                    && let Some(&(first, _)) = self.regroup_use.first()
                    && first != adj.link.0
                {
                    continue;
                }
            }
            f(adj.to);
        }
        // 7.83: navis on a sea may also regroup to a port on it.
    }

    pub(super) fn has_regroup(&self, game: &Game, side: Side) -> bool {
        let Some(space) = self.regroup_space else {
            return false;
        };
        let mut any = false;
        for b in self.blocks_at(space, side) {
            self.regroup_targets(game, b, |_| any = true);
            if any {
                break;
            }
        }
        any
    }

    pub(super) fn regroup_actions(&self, game: &Game, out: &mut Vec<Action>) {
        let Phase::Regroup(side) = self.phase else {
            return;
        };
        if let Some(space) = self.regroup_space {
            for b in self.blocks_at(space, side) {
                self.regroup_targets(game, b, |to| out.push(Action::Regroup { block: b, to }));
            }
        }
        out.push(Action::EndRegroup);
    }

    pub(super) fn regroup_apply(&mut self, game: &Game, action: Action, log: &mut impl Log) {
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
                self.set_loc(game, block, to.0);
                let side = self.side(block);
                emit!(log, GameEvent::Regroups { side, block, to });
                if !self.has_regroup(game, side) {
                    self.after_battle(game, log);
                }
            }
            Action::EndRegroup => self.after_battle(game, log),
            _ => {}
        }
    }
}

impl State {
    /// 7.3 / 7.4: a block fires one die per strength point; a die at or
    /// under its firepower hits.
    pub(super) fn fire_dice(&self, game: &Game, b: BlockId) -> (u8, u8) {
        (self.strength(game, b), game.roster().block(b).firepower)
    }
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

impl State {
    /// The battle being fought, if any.
    pub fn battle_info(&self) -> Option<BattleInfo> {
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
}
