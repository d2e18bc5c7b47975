//! The command phase (6.0): group moves, navis and amphibious moves, levies,
//! and the event cards that replace a command. Its room, [`CommandPhase`],
//! owns the command being played and the roads used this turn.

use std::ops::ControlFlow;

use super::events::{GameEvent, Log, Orders, emit};
use super::{
    Action, Battles, BlockSet, BlockState, Board, Contest, Dice, Game, GameStats, LevyRule,
    SET_CAPACITY, SpaceSet, flag, roll_among_with,
};
use crate::scenario::model::{BlockId, SpaceId};
use crate::scenario::model::{BlockKind, Event, LinkClass, Side, SpaceKind};
use crate::scenario::rules::{JupiterDefection, RoadLimits, VulcanTarget};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CommandStep {
    /// Choose event targets first.
    EventTarget,
    Moves,
    /// 6.12 (1.1): after his moves the attacker declares the main attack of
    /// each battle he entered by two or more roads (pinning depends on it).
    MainAttack,
    /// Mars/Neptune: then he names the battle that gets the surprise.
    Surprise,
    Levy,
}

/// The command phase in progress.
#[derive(Debug, Clone, Copy)]
struct CommandState {
    step: CommandStep,
    mp: u8,
    lp: u8,
    group: Option<SpaceId>,
    /// The blocks of the group being moved.
    members: BlockSet,
    /// 6.3: amphibious moves only before any other move.
    moved_by_land: bool,
    /// The event shaping this command phase's group, if any.
    event: Option<Event>,
}

impl CommandState {
    /// A command phase before its orders: moves first, no points yet.
    fn fresh() -> CommandState {
        CommandState {
            step: CommandStep::Moves,
            mp: 0,
            lp: 0,
            group: None,
            members: BlockSet::default(),
            moved_by_land: false,
            event: None,
        }
    }
}

/// The command phase's room (6): the command being played, the roads used
/// this turn (6.11), and the VP cities its side held when it began. Its
/// rules reach the blocks through the [`Board`] and the contests through
/// the [`Battles`] they are handed; the state goes on when a command ends.
#[derive(Debug, Clone)]
pub(super) struct CommandPhase {
    now: CommandState,
    /// Blocks moved across each link this turn, per side (6.11).
    road_use: Vec<[u8; 2]>,
    /// The VP cities the side in command held when its command phase began
    /// (play quality: cities left empty).
    held_vp: SpaceSet,
    /// Whether each side has had its first levy of the game, where the
    /// tournament bid's extra levy points are spent.
    first_levy_taken: [bool; 2],
}

/// What a command's rules change: the board, the contests, the game's
/// counts and dice, and the command itself, for the side in command.
/// Reads the board as the board.
struct Field<'a> {
    board: &'a mut Board,
    battles: &'a mut Battles,
    stats: &'a mut GameStats,
    dice: &'a mut Dice,
    cmd: &'a mut CommandPhase,
    side: Side,
    /// Set when the command phase is over (6: its levies done).
    done: bool,
}

/// What a command's rules read, for the side in command.
#[derive(Clone, Copy)]
struct Look<'a> {
    board: &'a Board,
    battles: &'a Battles,
    cmd: &'a CommandPhase,
    side: Side,
}

reads_as_board!(Field, Look);

/// The board, the contests, the counts and the dice a command changes.
pub(super) type Table<'a> = (
    &'a mut Board,
    &'a mut Battles,
    &'a mut GameStats,
    &'a mut Dice,
);

impl CommandPhase {
    /// No command yet, no road used: a new game.
    pub(super) fn new(game: &Game) -> CommandPhase {
        CommandPhase {
            now: CommandState::fresh(),
            road_use: vec![[0, 0]; game.board().links.len()],
            held_vp: SpaceSet::default(),
            first_levy_taken: [false; 2],
        }
    }

    fn field<'a>(&'a mut self, table: Table<'a>, side: Side) -> Field<'a> {
        let (board, battles, stats, dice) = table;
        Field {
            board,
            battles,
            stats,
            dice,
            cmd: self,
            side,
            done: false,
        }
    }

    fn look<'a>(&'a self, board: &'a Board, battles: &'a Battles, side: Side) -> Look<'a> {
        Look {
            board,
            battles,
            cmd: self,
            side,
        }
    }

    /// `side`, Player `slot + 1`, begins its command phase with `orders`
    /// (2.2); true when there is nothing to decide in it.
    pub(super) fn begin(
        &mut self,
        table: Table<'_>,
        game: &Game,
        side: Side,
        slot: u8,
        orders: Orders,
        log: &mut impl Log,
    ) -> bool {
        self.held_vp = table.0.friendly_spaces(side).and(game.vp_cities);
        let mut cmd = CommandState::fresh();
        emit!(
            log,
            GameEvent::OrdersGiven {
                side,
                player: slot + 1,
                orders,
            }
        );
        let mut field = self.field(table, side);
        match orders {
            Orders::Command { moves, levy } => {
                cmd.mp = moves;
                // The tournament bid: the side's first command card of the
                // game (its first levy) carries the extra points, once.
                let taken = &mut field.cmd.first_levy_taken[side.index()];
                let bid = if *taken {
                    0
                } else {
                    game.rules.first_levy_bonus(side)
                };
                *taken = true;
                cmd.lp = levy.saturating_add(bid);
            }
            Orders::Nothing => {}
            Orders::Event(e) => {
                cmd.event = Some(e);
                match e {
                    Event::Jupiter | Event::Vulcan => cmd.step = CommandStep::EventTarget,
                    Event::Mars | Event::Neptune => {
                        field.battles.hold_surprise(side, e);
                        // 2.0: one group move (Mars land, Neptune navis); 1.1:
                        // one group's attack (see attack_only_target).
                        cmd.mp = 1;
                    }
                    Event::Mercury | Event::Pluto => cmd.mp = 1,
                    Event::Apollo => {}
                }
            }
        }
        field.cmd.now = cmd;
        field.skip_empty_command_steps(game);
        field.done
    }

    /// The decisions of `side`'s command now.
    pub(super) fn actions(
        &self,
        board: &Board,
        battles: &Battles,
        game: &Game,
        side: Side,
        out: &mut Vec<Action>,
    ) {
        self.look(board, battles, side).command_actions(game, out);
    }

    /// Applies a decision of `side`'s command; true when the command
    /// phase is over.
    pub(super) fn apply(
        &mut self,
        table: Table<'_>,
        game: &Game,
        side: Side,
        action: Action,
        log: &mut impl Log,
    ) -> bool {
        let mut field = self.field(table, side);
        field.command_apply(game, action, log);
        field.done
    }

    /// The legal actions there would be after `Group(at)`, left as it is.
    pub(super) fn actions_after_group(
        &self,
        (board, battles): (&Board, &Battles),
        game: &Game,
        side: Side,
        at: SpaceId,
        out: &mut Vec<Action>,
    ) {
        self.look(board, battles, side)
            .actions_after_group(game, at, out);
    }

    /// The turn is over: no road used (6.11).
    pub(super) fn end_turn(&mut self) {
        self.road_use.iter_mut().for_each(|u| *u = [0, 0]);
    }
    /// A position's command phase: before its orders.
    pub(super) fn restart(&mut self) {
        self.now = CommandState::fresh();
    }

    /// Whether each side has had its first levy of the game (a position
    /// states it).
    pub(super) fn set_first_levies_taken(&mut self, taken: [bool; 2]) {
        self.first_levy_taken = taken;
    }

    pub(super) fn step(&self) -> CommandStep {
        self.now.step
    }
    /// Move points left.
    pub(super) fn mp(&self) -> u8 {
        self.now.mp
    }
    /// Levy points left.
    pub(super) fn lp(&self) -> u8 {
        self.now.lp
    }
    /// The space whose group is moving.
    pub(super) fn group(&self) -> Option<SpaceId> {
        self.now.group
    }
    /// The event shaping this command phase's group, if any.
    pub(super) fn event(&self) -> Option<Event> {
        self.now.event
    }
    /// The blocks of the group being moved.
    pub(super) fn members(&self) -> BlockSet {
        self.now.members
    }
    /// A sampled world's hidden block takes over a slot in the group, or not.
    pub(super) fn set_member(&mut self, b: BlockId, member: bool) {
        if member {
            self.now.members.insert(b);
        } else {
            self.now.members.remove(b);
        }
    }
    /// Blocks moved across each link this turn, per side.
    pub(super) fn road_use(&self) -> &[[u8; 2]] {
        &self.road_use
    }
    /// What either side may know of the command being played (the group's
    /// blocks apart): for a view's digest.
    pub(super) fn public_text(&self) -> String {
        let command = CommandState {
            members: Default::default(),
            ..self.now
        };
        format!("{command:?}")
    }
}

impl Field<'_> {
    fn look(&self) -> Look<'_> {
        Look {
            board: self.board,
            battles: self.battles,
            cmd: self.cmd,
            side: self.side,
        }
    }
    fn reduce(&mut self, game: &Game, b: BlockId, log: &mut impl Log) -> bool {
        self.board.reduce(game, b, self.stats, log)
    }
    /// The command phase is over: the VP cities its side left empty are
    /// counted (play quality).
    fn finish_command(&mut self) {
        self.cmd.now.members = BlockSet::default();
        let left = self
            .cmd
            .held_vp
            .without(self.board.occupied_by(Side::Caesar))
            .without(self.board.occupied_by(Side::Pompey));
        self.stats.quality.vp_cities_left[self.side.index()] += left.iter().count() as u32;
        self.done = true;
    }
}

/// 6.4: a step may be added to a block below its full strength in a
/// friendly city (never at sea: a navis in port), unmoved unless the
/// rules allow it.
pub(super) fn may_add_step(board: &Board, game: &Game, id: BlockId) -> bool {
    let s = board.block(id);
    s.steps() < game.max_steps[id.index()]
        && (game.rules.levy_on_moved_blocks || !s.has(flag::MOVED))
        && board
            .friendly_spaces(s.side())
            .and(game.cities)
            .contains(SpaceId(s.loc()))
}

/// The enemy blocks at `at` Jupiter may take (Cleopatra only where she
/// may defect).
pub(super) fn jupiter_candidates<'a>(
    board: &'a Board,
    game: &'a Game,
    side: Side,
    at: SpaceId,
) -> impl Iterator<Item = BlockId> + 'a {
    board.blocks_at(at, side.other()).filter(move |b| {
        game.rules.jupiter_cleopatra_defects || game.roster().block(*b).kind != BlockKind::Cleopatra
    })
}

impl<'a> Look<'a> {
    fn command_actions(&self, game: &Game, out: &mut Vec<Action>) {
        let side = self.side;
        match self.cmd.now.step {
            CommandStep::EventTarget => self.event_target_actions(game, side, out),
            CommandStep::Moves => match self.cmd.now.group {
                Some(_) => self.group_step_actions(game, side, out),
                None => self.group_start_actions(game, side, out),
            },
            CommandStep::MainAttack => {
                if let Some(i) = self.undeclared_attack(game) {
                    let links = self.battles.contests()[i].attack_links();
                    out.extend(links.iter().map(|l| Action::MainAttack(*l)));
                }
            }
            CommandStep::Surprise => {
                for c in self.battles.contests() {
                    if self.surprise_fits(game, c.space(), c.attacker()) {
                        out.push(Action::Surprise(Some(c.space())));
                    }
                }
                out.push(Action::Surprise(None));
            }
            CommandStep::Levy => {
                self.levy_actions(game, side, out);
                out.push(Action::EndLevy);
            }
        }
    }

    /// 6.1: the active group's next steps, then ending the group.
    fn group_step_actions(&self, game: &Game, side: Side, out: &mut Vec<Action>) {
        for id in self.cmd.now.members.and(self.board.on_map(side)).iter() {
            let _ = self.block_steps(game, id, |to| {
                out.push(Action::Step { block: id, to });
                ControlFlow::Continue(())
            });
        }
        out.push(Action::EndGroup);
    }

    /// 6.0: the groups that may move now (one per space that has a block
    /// able to step), the sea moves (6.3), then ending the moves.
    fn group_start_actions(&self, game: &Game, side: Side, out: &mut Vec<Action>) {
        if self.cmd.now.mp > 0 {
            let mut offered = SpaceSet::default();
            // An unmoved block's first step depends only on where
            // it is and whether it is a land block or a navis.
            let mut stuck = [SpaceSet::default(); 2];
            for id in self.board.on_map(side).iter() {
                let b = self.board.block(id);
                if b.has(flag::MOVED | flag::ANCHORED) {
                    continue;
                }
                let at = SpaceId(b.loc());
                let land = game.land_blocks.contains(id) as usize;
                if offered.contains(at) || stuck[land].contains(at) {
                    continue;
                }
                if self.may_join_group(game, id)
                    && self
                        .block_steps(game, id, |_| ControlFlow::Break(()))
                        .is_break()
                {
                    offered.insert(at);
                    out.push(Action::Group(at));
                } else if !b.has(flag::STOPPED | flag::BY_SEA) {
                    stuck[land].insert(at);
                }
            }
            if !self.cmd.now.moved_by_land && self.cmd.now.event.is_none() {
                self.sea_move_actions(game, side, out);
            }
        }
        out.push(Action::EndMoves);
    }

    /// Mars / Neptune: whether a battle at `space` attacked by `attacker`
    /// may be the surprise of the card held this turn. Only a battle the
    /// card's player attacks (RQ); Mars a land battle (1.1: the card's
    /// attack, navis included); Neptune a sea battle or a shore attack.
    fn surprise_fits(&self, game: &Game, space: SpaceId, attacker: Side) -> bool {
        self.battles
            .surprise_fits(self.board, game, space, attacker)
    }

    /// Mars / Neptune: "Choose 1 battle" is part of the card, resolved in
    /// its player's command phase, so he names it when his moves are done.
    fn may_name_surprise(&self, game: &Game) -> bool {
        let side = self.side;
        self.battles
            .surprise()
            .is_some_and(|(holder, _)| holder == side)
            && self.battles.surprise_at().is_none()
            && self
                .battles
                .contests()
                .iter()
                .any(|c| self.surprise_fits(game, c.space(), c.attacker()))
    }

    /// 6.1: the blocks at `at` that a group move from there takes: those
    /// that have not moved this phase and may move in it.
    fn group_joining(&self, game: &Game, side: Side, at: SpaceId) -> BlockSet {
        let mut joining = BlockSet::default();
        for id in self.board.on_map(side).iter() {
            let b = self.board.block(id);
            if b.loc() == at.0
                && !b.has(flag::MOVED | flag::ANCHORED)
                && self.may_join_group(game, id)
            {
                joining.insert(id);
            }
        }
        joining
    }

    /// The legal actions there would be after `Group(at)`, the state left as
    /// it is: [`State::command_actions`] on the group it would form (the
    /// steps of its blocks, then `EndGroup`). A player's look ahead, without
    /// cloning the state.
    fn actions_after_group(&self, game: &Game, at: SpaceId, out: &mut Vec<Action>) {
        let side = self.side;
        let joining = self.group_joining(game, side, at);
        let cmd = CommandState {
            group: Some(at),
            moved_by_land: true,
            members: self.cmd.now.members.or(joining),
            ..self.cmd.now
        };
        for id in cmd.members.and(self.board.on_map(side)).iter() {
            let mut s = *self.board.block(id);
            if joining.contains(id) {
                s.marks.moved_steps = 0;
            }
            let _ = self.block_steps_in(game, id, s, &cmd, |to| {
                out.push(Action::Step { block: id, to });
                ControlFlow::Continue(())
            });
        }
        out.push(Action::EndGroup);
    }

    /// Whether a block may move in the group now being formed or moved
    /// (event groups are restricted to land or navis, 2.0).
    fn may_join_group(&self, game: &Game, b: BlockId) -> bool {
        let land = game.land_blocks.contains(b);
        match self.cmd.now.event {
            Some(Event::Mars) if game.rules.mars_group_move => land,
            // 2.0: "The land blocks in 1 Group" / "Land units only".
            Some(Event::Mercury) if game.rules.mercury_land_only => land,
            Some(Event::Pluto) if game.rules.pluto_attacks_only => land,
            Some(Event::Neptune) => !land,
            _ => true,
        }
    }

    /// 6.12 (1.1): the first battle the moving player attacked by two or more
    /// roads whose main attack he has not declared yet.
    fn undeclared_attack(&self, game: &Game) -> Option<usize> {
        self.battles.undeclared_attack(game, self.side)
    }

    /// 1.1 Mars/Neptune: the card's group move is the surprise attack itself,
    /// on one adjacent enemy location (docs/rules-notes.md, Mars).
    #[inline]
    fn attack_only_target(&self, game: &Game, cmd: &CommandState) -> Option<Option<SpaceId>> {
        let attack_only =
            matches!(cmd.event, Some(Event::Mars | Event::Neptune)) && !game.rules.mars_group_move;
        attack_only.then(|| {
            cmd.members
                .iter()
                .map(|id| self.board.block(id))
                .find(|b| b.has(flag::MOVED))
                .map(|b| SpaceId(b.loc()))
        })
    }

    /// 6.11: the road limits for a block's step, not attacking and attacking
    /// (Pluto raises them for its group, in 2.0 only when attacking).
    fn road_limits<'g>(game: &'g Game, cmd: &CommandState, b: BlockId) -> [&'g RoadLimits; 2] {
        let rules = &game.rules;
        let pluto = cmd.event == Some(Event::Pluto) && cmd.members.contains(b);
        match (pluto, rules.pluto_attacks_only) {
            (false, _) => [&rules.road_limits; 2],
            (true, false) => [&rules.pluto_road_limits; 2],
            (true, true) => [&rules.road_limits, &rules.pluto_road_limits],
        }
    }

    fn road_limit(limits: &RoadLimits, class: LinkClass, attacking: bool) -> u8 {
        match class {
            LinkClass::Major => limits.major,
            LinkClass::Minor => limits.minor,
            // 4.32: one land block when the city across is defended.
            LinkClass::Strait if attacking => limits.strait_attacking,
            LinkClass::Strait => limits.strait,
            LinkClass::Sea => u8::MAX,
        }
    }

    /// Calls `f` with every space the block may step to now, until it breaks.
    fn block_steps(
        &self,
        game: &Game,
        b: BlockId,
        f: impl FnMut(SpaceId) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.block_steps_in(game, b, *self.board.block(b), &self.cmd.now, f)
    }

    /// [`State::block_steps`] were the block `s` and the command phase `cmd`:
    /// how a group not yet formed would step, without forming it.
    fn block_steps_in(
        &self,
        game: &Game,
        b: BlockId,
        s: BlockState,
        cmd: &CommandState,
        mut f: impl FnMut(SpaceId) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if s.has(flag::STOPPED | flag::ANCHORED | flag::BY_SEA) || !s.on_map() {
            return ControlFlow::Continue(());
        }
        let land = game.land_blocks.contains(b);
        let mercury = cmd.event == Some(Event::Mercury) && (land || !game.rules.mercury_land_only);
        // 6.1: two spaces, attacking only on the first; Mercury one more.
        let max_steps = if mercury { 3 } else { 2 };
        let attack_until = if mercury { 2 } else { 1 };
        let k = s.marks.moved_steps;
        if k >= max_steps {
            return ControlFlow::Continue(());
        }
        let at = SpaceId(s.loc());
        let side = s.side();
        // 6.13: leaving a contested space needs an unpinned block, and not by a
        // road or border the enemy used.
        let contest = if k == 0 {
            self.battles.contest_at(at)
        } else {
            None
        };
        if let Some(c) = contest
            && !self.may_leave_contest(c, side)
        {
            return ControlFlow::Continue(());
        }
        let attack_only = self.attack_only_target(game, cmd);
        let enemy = self.board.occupied_by(side.other());
        let limits = Self::road_limits(game, cmd, b);
        for adj in game.board().neighbours_for(at, land) {
            let attacking = enemy.contains(adj.to);
            if let Some(target) = attack_only
                && (!attacking || target.is_some_and(|t| t != adj.to))
            {
                continue;
            }
            if let Some(c) = contest
                && c.attack_links().contains(&adj.link)
            {
                continue;
            }
            let to = adj.to;
            // 6.1: a block may not end its move where it started.
            if k > 0 && to.0 == s.marks.came_from {
                continue;
            }
            if attacking && k >= attack_until {
                continue;
            }
            if land {
                let used = self.cmd.road_use[adj.link.index()][side.index()];
                if used >= Self::road_limit(limits[attacking as usize], adj.class, attacking) {
                    continue;
                }
            }
            f(to)?;
        }
        ControlFlow::Continue(())
    }

    /// 6.13: defenders may leave while as many stay as there are attacking
    /// (non-reserve) blocks; the defender chooses who, so any block may go.
    /// Responders never stand in for pinned blocks (both editions): they are
    /// Reserves (6.14), and the pinned blocks are the defence's main force,
    /// so a battle always begins with one (docs/rules-notes.md, 6.13).
    fn may_leave_contest(&self, c: &Contest, side: Side) -> bool {
        if c.attacker() == side {
            return false;
        }
        let staying = self
            .board
            .on_map(side)
            .iter()
            .map(|id| self.board.block(id))
            .filter(|b| b.loc() == c.space().0 && !b.has(flag::MOVED))
            .count();
        staying > c.pinning() as usize
    }

    // ------------------------------------------------------- amphibious 6.3

    /// Seas reachable from a port across friendly seas, with BFS parents.
    fn friendly_sea_paths(
        &self,
        game: &Game,
        side: Side,
        port: SpaceId,
    ) -> Vec<(SpaceId, SpaceId)> {
        let board = game.board();
        let friendly = self.friendly_spaces(side);
        // In breadth-first order, so it is its own queue.
        let mut reached: Vec<(SpaceId, SpaceId)> = Vec::new();
        if friendly.and(game.sea_borders[port.index()]) == SpaceSet::default() {
            return reached;
        }
        let mut seen = SpaceSet::default();
        for sea in board.seas_of(port) {
            if friendly.contains(sea) {
                reached.push((sea, sea));
                seen.insert(sea);
            }
        }
        let mut head = 0;
        while head < reached.len() {
            let sea = reached[head].0;
            head += 1;
            for next in board.adjacent_seas(sea) {
                if friendly.contains(next) && !seen.contains(next) {
                    reached.push((next, sea));
                    seen.insert(next);
                }
            }
        }
        reached
    }

    fn sea_move_actions(&self, game: &Game, side: Side, out: &mut Vec<Action>) {
        // 6.3: a port with no friendly sea next to it has nowhere to sail.
        let friendly = self.friendly_spaces(side);
        // Blocks in the same port share their destinations: (port, range in `dests`).
        let mut dests: Vec<SpaceId> = Vec::new();
        let mut done: Vec<(SpaceId, usize, usize)> = Vec::new();
        for id in self.board.on_map(side).iter() {
            let b = self.board.block(id);
            if b.has(flag::MOVED) || !game.land_blocks.contains(id) {
                continue;
            }
            // Land blocks stand in cities, so bordering a sea makes it a port.
            let at = SpaceId(b.loc());
            if friendly.and(game.sea_borders[at.index()]) == SpaceSet::default() {
                continue;
            }
            let (start, end) = match done.iter().find(|(p, ..)| *p == at) {
                Some(&(_, start, end)) => (start, end),
                None => {
                    let start = dests.len();
                    self.sea_destinations(game, side, at, &mut dests);
                    done.push((at, start, dests.len()));
                    (start, dests.len())
                }
            };
            for &to in &dests[start..end] {
                out.push(Action::SeaMove { block: id, to });
            }
        }
    }

    /// 6.3: the ports a land block in `at` may sail to, appended to `dests`.
    fn sea_destinations(&self, game: &Game, side: Side, at: SpaceId, dests: &mut Vec<SpaceId>) {
        if let Some(c) = self.battles.contest_at(at)
            && !self.may_leave_contest(c, side)
        {
            return;
        }
        let start = dests.len();
        for (sea, _) in self.friendly_sea_paths(game, side, at) {
            for port in game.board().ports_of(sea) {
                // 6.3: never to enemy or contested ports.
                if port != at && !self.has_enemy(port, side) && !dests[start..].contains(&port) {
                    dests.push(port);
                }
            }
        }
    }

    // -------------------------------------------------------------- levy 6.4

    fn levy_actions(&self, game: &Game, side: Side, out: &mut Vec<Action>) {
        let _ = self.each_levy_action(game, side, |a| {
            out.push(a);
            ControlFlow::Continue(())
        });
    }

    /// Whether `side` could levy anything or add a step now.
    fn may_levy_anything(&self, game: &Game, side: Side) -> bool {
        self.each_levy_action(game, side, |_| ControlFlow::Break(()))
            .is_break()
    }

    /// Calls `f` with each levy and added step of `side` (6.4), blocks in
    /// their order, until it breaks.
    fn each_levy_action(
        &self,
        game: &Game,
        side: Side,
        mut f: impl FnMut(Action) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let friendly_cities = self.friendly_spaces(side).and(game.cities);
        let mut levied = self.board.pooled(side).and(game.printed[side.index()]);
        if !self.board.leader_died(side) {
            levied = levied.without(game.reserve_leaders); // 7.51
        }
        // Blocks whose own city is friendly, found city by city.
        let mut may_levy = game.levied_anywhere;
        for city in friendly_cities.iter() {
            may_levy = may_levy.or(game.levied_in[city.index()]);
        }
        // Listed only when a block that may levy in any city asks for them.
        let mut anywhere: Option<FriendlyCities> = None;
        for id in levied.and(may_levy).iter() {
            let cities = match game.levy_rule[id.index()] {
                LevyRule::City(at) => {
                    f(Action::Levy { block: id, at })?;
                    continue;
                }
                LevyRule::Never => continue,
                rule => {
                    let anywhere = anywhere.get_or_insert_with(|| {
                        FriendlyCities::list(self.board, game, side, friendly_cities)
                    });
                    if rule == LevyRule::MajorPort {
                        anywhere.major_ports()
                    } else {
                        anywhere.cities()
                    }
                }
            };
            for &at in cities {
                f(Action::Levy { block: id, at })?;
            }
        }
        for id in self.board.on_map(side).iter() {
            if self.may_add_step(game, id) {
                f(Action::AddStep(id))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// 6.4: a step may be added to a block below its full strength in a
    /// friendly city (never at sea: a navis in port), unmoved unless the
    /// rules allow it.
    fn may_add_step(&self, game: &Game, id: BlockId) -> bool {
        may_add_step(self.board, game, id)
    }

    // ------------------------------------------------------------- events

    fn event_target_actions(&self, game: &Game, side: Side, out: &mut Vec<Action>) {
        let board = game.board();
        match self.cmd.now.event {
            Some(Event::Jupiter) => {
                for at in board.ids() {
                    if self.jupiter_may_strike(game, side, at)
                        && self.jupiter_candidates(game, side, at).next().is_some()
                    {
                        out.push(Action::JupiterAt(at));
                    }
                }
            }
            Some(Event::Vulcan) => {
                for city in board.ids() {
                    if !board.space(city).kind.is_city() {
                        continue;
                    }
                    let target = match game.rules.vulcan_target {
                        // 1.1 "a designated city": any, a vacant one
                        // included (it strikes nothing), so the card that
                        // cannot be declined need not strike one's own.
                        VulcanTarget::AnyCity => true,
                        VulcanTarget::EnemyCity => self.is_friendly(city, side.other()),
                    };
                    if target {
                        out.push(Action::VulcanCity(city));
                    }
                }
            }
            _ => {}
        }
        if out.is_empty() {
            out.push(Action::PassEvent);
        }
    }

    /// Jupiter: whether the card may reach into `at`: an Enemy city (not
    /// Contested) joined by road or strait to a city Friendly to `side`
    /// (navis in its port included); 1.1 (`jupiter_navis_at_sea`) also an
    /// Enemy sea that a Friendly port borders.
    fn jupiter_may_strike(&self, game: &Game, side: Side, at: SpaceId) -> bool {
        let board = game.board();
        if !self.is_friendly(at, side.other()) {
            return false;
        }
        if board.space(at).kind == SpaceKind::Sea {
            game.rules.jupiter_navis_at_sea && board.ports_of(at).any(|p| self.is_friendly(p, side))
        } else {
            board
                .neighbours(at)
                .iter()
                .any(|a| a.class.is_road() && self.is_friendly(a.to, side))
        }
    }

    /// The enemy blocks at `at` Jupiter may take (Cleopatra only where she
    /// may defect).
    fn jupiter_candidates(
        &self,
        game: &'a Game,
        side: Side,
        at: SpaceId,
    ) -> impl Iterator<Item = BlockId> + 'a {
        jupiter_candidates(self.board, game, side, at)
    }
}

impl Field<'_> {
    /// Moves past steps with nothing to decide.
    fn skip_empty_command_steps(&mut self, game: &Game) {
        if self.cmd.now.step == CommandStep::Moves
            && self.cmd.now.mp == 0
            && self.cmd.now.group.is_none()
        {
            self.cmd.now.step = CommandStep::MainAttack;
        }
        if self.cmd.now.step == CommandStep::MainAttack
            && self.look().undeclared_attack(game).is_none()
        {
            self.cmd.now.step = CommandStep::Surprise;
        }
        if self.cmd.now.step == CommandStep::Surprise && !self.look().may_name_surprise(game) {
            self.cmd.now.step = CommandStep::Levy;
        }
        if self.cmd.now.step == CommandStep::Levy && self.cmd.now.lp == 0 {
            self.finish_command();
        }
    }

    fn command_apply(&mut self, game: &Game, action: Action, log: &mut impl Log) {
        let side = self.side;
        match action {
            Action::Group(at) => self.group_moves(game, side, at, log),
            Action::Step { block, to } => self.step(game, side, block, to, log),
            Action::SeaMove { block, to } => self.sea_move(game, side, block, to, log),
            Action::EndGroup => self.end_group(game, side),
            Action::EndMoves => {
                self.stats.quality.mp_unused[side.index()] += self.cmd.now.mp as u32;
                self.cmd.now.group = None;
                self.cmd.now.step = CommandStep::MainAttack;
                self.skip_empty_command_steps(game);
            }
            Action::MainAttack(link) => {
                if let Some(i) = self.look().undeclared_attack(game) {
                    self.battles.declare_main_attack(self.board, i, link);
                    let space = self.battles.contests()[i].space();
                    let from = game.board().link(link).other(space);
                    emit!(log, GameEvent::MainAttackDeclared { side, space, from });
                }
                self.skip_empty_command_steps(game);
            }
            Action::Surprise(named) => {
                self.battles.name_surprise(named);
                // The record says a battle was named, not which: the
                // opponent learns it when the battle is fought.
                emit!(log, GameEvent::SurpriseNamed { side, space: named });
                self.cmd.now.step = CommandStep::Levy;
                self.skip_empty_command_steps(game);
            }
            Action::Levy { .. } | Action::AddStep(_) | Action::EndLevy => {
                self.levy_apply(game, side, action, log)
            }
            Action::JupiterAt(_) | Action::VulcanCity(_) | Action::PassEvent => {
                self.event_apply(game, side, action, log)
            }
            _ => {}
        }
    }

    /// 6.1: a move point spent on the group at `at`; its blocks start
    /// their move afresh.
    fn group_moves(&mut self, game: &Game, side: Side, at: SpaceId, log: &mut impl Log) {
        self.cmd.now.mp -= 1;
        self.stats.quality.mp_spent[side.index()] += 1;
        self.cmd.now.group = Some(at);
        self.cmd.now.moved_by_land = true;
        let joining = self.look().group_joining(game, side, at);
        self.cmd.now.members = self.cmd.now.members.or(joining);
        for id in joining.iter() {
            self.board.marks_mut(id).moved_steps = 0;
        }
        emit!(log, GameEvent::GroupMoves { side, from: at });
    }

    /// The group's move ends: its move point counted wasted when no block
    /// of it stepped (a figure of play quality).
    fn end_group(&mut self, game: &Game, side: Side) {
        let moved = self
            .cmd
            .now
            .members
            .iter()
            .any(|b| self.board.block(b).marks.moved_steps > 0);
        if !moved {
            self.stats.quality.mp_wasted[side.index()] += 1;
        }
        self.cmd.now.group = None;
        self.cmd.now.members = BlockSet::default();
        self.skip_empty_command_steps(game);
    }

    /// 6.4: levies, and the end of them.
    fn levy_apply(&mut self, game: &Game, side: Side, action: Action, log: &mut impl Log) {
        match action {
            Action::Levy { block, at } => {
                self.cmd.now.lp -= 1;
                self.set_loc(game, block, at.0);
                self.set_steps(game, block, 1);
                self.set_side(game, block, side);
                self.board.marks_mut(block).came_from = at.0;
                emit!(log, GameEvent::Levied { side, block, at });
                self.skip_empty_command_steps(game);
            }
            Action::AddStep(block) => {
                self.cmd.now.lp -= 1;
                let steps = self.board.block(block).steps();
                self.set_steps(game, block, steps + 1);
                emit!(
                    log,
                    GameEvent::StepAdded {
                        side,
                        block,
                        strength: self.strength(game, block)
                    }
                );
                self.skip_empty_command_steps(game);
            }
            Action::EndLevy => {
                if self.cmd.now.lp > 0 && self.look().may_levy_anything(game, side) {
                    self.stats.quality.lp_unused[side.index()] += self.cmd.now.lp as u32;
                }
                self.finish_command();
            }
            _ => {}
        }
    }

    /// Jupiter and Vulcan's targets, or an event that strikes nothing.
    fn event_apply(&mut self, game: &Game, side: Side, action: Action, log: &mut impl Log) {
        match action {
            Action::JupiterAt(at) => {
                // 1.1: the player points at one of the standing blocks,
                // which look alike to him; 2.0: a roll picks one. Either
                // way each is equally likely, and only the one taken is
                // revealed.
                let enemies: Vec<BlockId> =
                    self.look().jupiter_candidates(game, side, at).collect();
                if !enemies.is_empty() {
                    let mut dice = Vec::new();
                    let choice = roll_among_with(enemies.len(), &mut || {
                        let die = self.dice.roll();
                        dice.push(die);
                        die
                    });
                    let pick = enemies[choice];
                    emit!(
                        log,
                        GameEvent::JupiterPick {
                            side,
                            at,
                            among: enemies.len().min(255) as u8,
                            dice,
                            block: pick,
                        }
                    );
                    self.jupiter_strike(game, side, pick, log);
                }
                self.finish_command();
            }
            Action::VulcanCity(city) => {
                self.vulcan(game, side, city, log);
                self.finish_command();
            }
            Action::PassEvent => {
                emit!(log, GameEvent::EventWithoutEffect { side });
                self.finish_command();
            }
            _ => {}
        }
    }

    fn step(&mut self, game: &Game, side: Side, b: BlockId, to: SpaceId, log: &mut impl Log) {
        let from = SpaceId(self.board.block(b).loc());
        let link = game
            .board()
            .link_between(from, to)
            .expect("a legal step follows a link");
        let class = game.board().link(link).class;
        let enemy_there = self.has_enemy(to, side);
        if class.is_road() {
            self.cmd.road_use[link.index()][side.index()] += 1;
        }
        {
            let s = self.board.marks_mut(b);
            if s.moved_steps == 0 {
                // Where this move started (winter moves leave it stale).
                s.came_from = from.0;
            }
            s.moved_steps += 1;
            s.flags |= flag::MOVED;
            s.entered_via = link.0;
        }
        self.set_loc(game, b, to.0);
        if enemy_there {
            self.board.marks_mut(b).flags |= flag::STOPPED;
            self.battles.join_contest(self.board, side, b, to, link);
        }
        emit!(
            log,
            GameEvent::BlockMoved {
                side,
                block: b,
                from,
                to,
                attack: enemy_there,
            }
        );
    }

    fn sea_move(&mut self, game: &Game, side: Side, b: BlockId, to: SpaceId, log: &mut impl Log) {
        let board = game.board();
        let from = SpaceId(self.board.block(b).loc());
        let paths = self.look().friendly_sea_paths(game, side, from);
        // The shortest chain of seas ending at a sea of the destination port.
        let last = paths
            .iter()
            .find(|(sea, _)| board.ports_of(*sea).any(|p| p == to))
            .map(|(s, _)| *s);
        let mut chain = Vec::new();
        let mut cur = last;
        while let Some(sea) = cur {
            chain.push(sea);
            let parent = paths.iter().find(|(s, _)| *s == sea).map(|(_, p)| *p);
            cur = parent.filter(|p| *p != sea);
        }
        // 6.3: one navis stays in each sea crossed for the command phase.
        for sea in &chain {
            let anchored = self
                .board
                .blocks()
                .iter()
                .any(|x| x.loc() == sea.0 && x.side() == side && x.has(flag::ANCHORED));
            if !anchored
                && let Some(i) = self
                    .board
                    .blocks()
                    .iter()
                    .position(|x| x.loc() == sea.0 && x.side() == side && !x.has(flag::MOVED))
                    .or_else(|| {
                        self.board
                            .blocks()
                            .iter()
                            .position(|x| x.loc() == sea.0 && x.side() == side)
                    })
            {
                self.board.marks_mut(BlockId(i as u8)).flags |= flag::ANCHORED;
            }
        }
        self.cmd.now.mp -= 1;
        self.stats.quality.mp_spent[side.index()] += 1;
        self.set_loc(game, b, to.0);
        self.board.marks_mut(b).flags |= flag::MOVED | flag::BY_SEA | flag::STOPPED;
        emit!(
            log,
            GameEvent::BlockSailed {
                side,
                block: b,
                from,
                to,
                seas: chain.iter().rev().copied().collect(),
            }
        );
        self.skip_empty_command_steps(game);
    }

    /// Jupiter: a leader or navis loses a step; any other block defects.
    fn jupiter_strike(&mut self, game: &Game, side: Side, b: BlockId, log: &mut impl Log) {
        let kind = game.roster().block(b).kind;
        let at = SpaceId(self.board.block(b).loc());
        if matches!(kind, BlockKind::Leader | BlockKind::Navis) {
            emit!(log, GameEvent::RefusesToDefect { block: b });
            self.reduce(game, b, log);
            return;
        }
        if kind == BlockKind::Cleopatra && !game.rules.jupiter_cleopatra_defects {
            return;
        }
        emit!(
            log,
            GameEvent::Defects {
                block: b,
                to: side,
                at
            }
        );
        self.set_side(game, b, side);
        match game.rules.jupiter_defection {
            JupiterDefection::InPlace => {}
            JupiterDefection::ToAdjacentFriendlyCity => {
                if let Some(adj) = game
                    .board()
                    .neighbours(at)
                    .iter()
                    .find(|a| a.class.is_road() && self.is_friendly(a.to, side))
                {
                    self.set_loc(game, b, adj.to.0);
                }
            }
        }
        let at = SpaceId(self.board.block(b).loc());
        self.battles.contest_after_event(self.board, side, at);
    }

    /// Vulcan: every block in the city loses a step.
    fn vulcan(&mut self, game: &Game, side: Side, city: SpaceId, log: &mut impl Log) {
        emit!(log, GameEvent::VulcanStrikes { side, city });
        let victims: Vec<BlockId> = (0..self.board.blocks().len() as u8)
            .map(BlockId)
            .filter(|b| self.board.block(*b).loc() == city.0)
            .collect();
        // 1.1: Cleopatra at I changes sides; her new side attacks (even when
        // the city struck was the card player's own).
        let mut attacker = side;
        for b in victims {
            let cleopatra = game.roster().block(b).kind == BlockKind::Cleopatra;
            if cleopatra && game.rules.vulcan_spares_cleopatra && self.board.block(b).steps() == 1 {
                continue;
            }
            self.reduce(game, b, log);
            if cleopatra {
                attacker = self.board.block(b).side();
            }
        }
        self.battles.contest_after_event(self.board, attacker, city);
    }
}

/// 4.21: a side's friendly cities and major ports (6.4: navis levies), each
/// in the order of their first block, without allocating.
struct FriendlyCities {
    cities: [SpaceId; SET_CAPACITY],
    city_count: usize,
    major_ports: [SpaceId; SET_CAPACITY],
    port_count: usize,
}

impl FriendlyCities {
    fn list(board: &Board, game: &Game, side: Side, friendly_cities: SpaceSet) -> FriendlyCities {
        let mut list = FriendlyCities {
            cities: [SpaceId(0); SET_CAPACITY],
            city_count: 0,
            major_ports: [SpaceId(0); SET_CAPACITY],
            port_count: 0,
        };
        let mut left = friendly_cities;
        for id in board.on_map(side).iter() {
            if left == SpaceSet::default() {
                break;
            }
            let s = SpaceId(board.block(id).loc());
            if left.contains(s) {
                left.remove(s);
                list.cities[list.city_count] = s;
                list.city_count += 1;
                if game.major_ports.contains(s) {
                    list.major_ports[list.port_count] = s;
                    list.port_count += 1;
                }
            }
        }
        list
    }
    fn cities(&self) -> &[SpaceId] {
        &self.cities[..self.city_count]
    }
    fn major_ports(&self) -> &[SpaceId] {
        &self.major_ports[..self.port_count]
    }
}
