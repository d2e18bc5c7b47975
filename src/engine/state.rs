//! The seeded, cheap-to-clone game state: the rooms composed (the board,
//! the command phase, the battles, the die) with the cards and the year; a
//! new game, the queries every phase shares, the one door for legal actions
//! and applying them, and the going on from one room to the next when a
//! phase ends. The command and battle rules live in their rooms
//! (`command.rs`, `battle.rs`), which never see the state; the cards and
//! winter are still written as its methods (`cards.rs`, `winter.rs`).

use super::{
    Action, BattleInfo, Battles, Begun, BlockState, Board, CardSet, CommandPhase, CommandStep,
    Dice, Game, GameStats, IllegalAction, Log, NoLog, Orders, Outcome, POOL, Period, Phase, Place,
    jupiter_candidates, may_add_step,
};
use crate::scenario::model::{BlockId, CardFace, Event, Side, SpaceId};

/// The seeded, cheap-to-clone game state.
#[derive(Debug, Clone)]
pub struct State {
    /// The chance stream and any scripted dice: hidden from every player.
    pub(super) dice: Dice,
    pub(super) year: u8,
    pub(super) turn: u8,
    pub(super) phase: Phase,
    /// Where the blocks are, and the counts kept with them.
    pub(super) board: Board,
    /// Cards in each hand (deck indices).
    pub(super) hands: [Vec<u8>; 2],
    pub(super) played: [Option<u8>; 2],
    /// Cards each side discarded this year (seen only by their owner).
    pub(super) discarded: [CardSet; 2],
    /// Cards revealed this year by either side (2.1: played face up).
    pub(super) year_played: CardSet,
    /// What each side's card did last turn (for Apollo; an Apollo that copied
    /// a card counts as that card).
    pub(super) last_played: [Option<CardFace>; 2],
    /// Player 1 and Player 2 this turn.
    pub(super) order: [Side; 2],
    pub(super) orders: [Orders; 2],
    /// The command phase's own state: the command played, the roads used.
    pub(super) command: CommandPhase,
    /// The battle phase's own state: contests, surprise, battle, regroup.
    pub(super) battles: Battles,
    pub(super) outcome: Option<Outcome>,
    /// Counters for reports.
    pub stats: GameStats,
}

impl State {
    /// A new game from the scenario's starting deployment, the first year dealt.
    pub fn new(game: &Game, seed: u64) -> State {
        State::new_logged(game, seed, &mut NoLog)
    }

    pub(crate) fn new_logged(game: &Game, seed: u64, log: &mut impl Log) -> State {
        let roster = game.roster();
        let setup = game.scenario.starting_setup();
        let blocks: Vec<BlockState> = roster
            .ids()
            .map(|b| {
                let block = roster.block(b);
                let loc = setup.location(b).map_or(POOL, |s| s.0);
                let steps = if loc == POOL {
                    block.max_steps
                } else {
                    setup.steps(roster, b)
                };
                BlockState::fresh(loc, steps, block.side)
            })
            .collect();
        let mut state = State {
            dice: Dice::new(seed),
            year: 1,
            turn: 1,
            phase: Phase::Discard(Side::Caesar),
            board: Board::new(game, blocks),
            hands: [Vec::new(), Vec::new()],
            played: [None, None],
            discarded: [CardSet::EMPTY; 2],
            year_played: CardSet::EMPTY,
            last_played: [None, None],
            order: [Side::Caesar, Side::Pompey],
            orders: [Orders::Nothing, Orders::Nothing],
            command: CommandPhase::new(game),
            battles: Battles::new(),
            outcome: None,
            stats: GameStats::default(),
        };
        state.deal(game, log);
        state
    }

    pub fn year(&self) -> u8 {
        self.year
    }
    pub fn turn(&self) -> u8 {
        self.turn
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// The event card that replaces the current command phase's command
    /// card, if any (its group moves are restricted: Mars, Neptune, ...).
    pub(crate) fn command_event(&self) -> Option<Event> {
        match self.phase {
            Phase::Command(_) => self.command.event(),
            _ => None,
        }
    }

    /// Move points and levy points left in the command phase being played
    /// (public: the card was revealed), `None` outside a command phase.
    /// Moves not made are lost once the player goes on from moving (2.1:
    /// commands cannot be saved), so they read 0 from then on.
    pub fn command_points(&self) -> Option<(u8, u8)> {
        match self.phase {
            Phase::Command(_) => {
                let moving = matches!(
                    self.command.step(),
                    CommandStep::EventTarget | CommandStep::Moves
                );
                let mp = if moving { self.command.mp() } else { 0 };
                Some((mp, self.command.lp()))
            }
            _ => None,
        }
    }

    /// The space whose group is moving in the command phase, if any.
    pub fn moving_group(&self) -> Option<SpaceId> {
        match self.phase {
            Phase::Command(_) => self.command.group(),
            _ => None,
        }
    }

    /// Player 1 of the current turn.
    pub fn player1(&self) -> Side {
        self.order[0]
    }

    /// Who decides now (`None` once the game is over).
    pub fn current_player(&self) -> Option<Side> {
        Some(match self.phase {
            Phase::Discard(s) | Phase::PlayCard(s) => s,
            Phase::Command(i) => self.order[i as usize],
            Phase::ChooseBattle => self.order[0],
            Phase::Battle => self.battles.decider(&self.board)?,
            Phase::Regroup(s) | Phase::WinterNavis(s) | Phase::WinterSupply(s) => s,
            Phase::Over => return None,
        })
    }

    pub fn hand(&self, side: Side) -> &[u8] {
        &self.hands[side.index()]
    }
    pub fn trophies(&self, side: Side) -> u8 {
        self.board.trophies(side)
    }

    /// 1.2: city VP held plus leaders killed.
    pub fn vp(&self, game: &Game) -> [u32; 2] {
        let board = game.board();
        let mut vp = [
            self.board.trophies(Side::Caesar) as u32 * game.rules.vp_per_leader_killed as u32,
            self.board.trophies(Side::Pompey) as u32 * game.rules.vp_per_leader_killed as u32,
        ];
        for id in board.ids() {
            let v = board.space(id).vp as u32;
            if v == 0 {
                continue;
            }
            match self.occupied(id) {
                [true, false] => vp[0] += v,
                [false, true] => vp[1] += v,
                _ => {}
            }
        }
        vp
    }

    /// Every legal action now, into `out` (cleared first). Never empty unless
    /// the game is over.
    pub fn legal_actions(&self, game: &Game, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Discard(side) | Phase::PlayCard(side) => {
                let play = matches!(self.phase, Phase::PlayCard(_));
                let hand = &self.hands[side.index()];
                for (i, &card) in hand.iter().enumerate() {
                    // Identical cards are one choice.
                    if hand[..i].iter().any(|&c| game.card(c) == game.card(card)) {
                        continue;
                    }
                    out.push(if play {
                        Action::Play(card)
                    } else {
                        Action::Discard(card)
                    });
                }
            }
            Phase::Command(_) => self.command_actions(game, out),
            Phase::ChooseBattle => {
                for c in self.battles.contests() {
                    out.push(Action::Battle(c.space()));
                }
            }
            Phase::Battle => self.battles.actions(&self.board, game, out),
            Phase::Regroup(side) => self.battles.regroup_actions(&self.board, game, side, out),
            Phase::WinterNavis(_) => self.winter_navis_actions(game, out),
            Phase::WinterSupply(_) => self.winter_supply_actions(game, out),
            Phase::Over => {}
        }
        debug_assert!(
            self.is_over() || !out.is_empty(),
            "no legal action in {:?}",
            self.phase
        );
    }

    /// Applies a legal action. Applying an illegal one is a logic error: use
    /// [`State::try_apply`] for untrusted input.
    pub fn apply(&mut self, game: &Game, action: Action) {
        self.apply_logged(game, action, &mut NoLog);
    }

    /// Applies a legal action (checked in audited games, [`super::audit`];
    /// [`State::try_apply`] checks it always).
    pub fn apply_logged(&mut self, game: &Game, action: Action, log: &mut impl Log) {
        let audited = super::audit::enabled();
        let look_ahead = if audited {
            self.audit_before(game, action)
        } else {
            None
        };
        self.stats.actions += 1;
        match self.phase {
            Phase::Discard(side) => self.discard(game, side, action, log),
            Phase::PlayCard(side) => self.play_card(game, side, action, log),
            Phase::Command(_) => self.command_apply(game, action, log),
            Phase::ChooseBattle => {
                if let Action::Battle(space) = action {
                    self.start_battle(game, space, log);
                }
            }
            Phase::Battle => {
                let field = (&mut self.board, &mut self.stats, &mut self.dice);
                if let Some(winner) = self.battles.apply(field, game, action, log) {
                    self.battle_ended(game, winner, log);
                }
            }
            Phase::Regroup(_) => {
                if self
                    .battles
                    .regroup_apply(&mut self.board, game, action, log)
                {
                    self.after_battle(game, log);
                }
            }
            Phase::WinterNavis(_) => self.winter_navis_apply(game, action, log),
            Phase::WinterSupply(_) => self.winter_supply_apply(game, action, log),
            Phase::Over => {}
        }
        if audited {
            self.audit_after(game, action, look_ahead);
        }
    }

    /// An audited action's checks before it is applied: that it is legal,
    /// and, for a `Group`, the look ahead at the moves it will give.
    fn audit_before(&self, game: &Game, action: Action) -> Option<Vec<Action>> {
        assert!(
            self.is_legal(game, action),
            "illegal action \"{}\" ({action:?}) in {:?}",
            game.action_text(action),
            self.phase
        );
        let Action::Group(at) = action else {
            return None;
        };
        let mut ahead = Vec::new();
        self.actions_after_group(game, at, &mut ahead);
        Some(ahead)
    }

    /// An audited action's checks after it: the counts kept are the board
    /// counted, and a group's moves are what the look ahead said.
    fn audit_after(&self, game: &Game, action: Action, look_ahead: Option<Vec<Action>>) {
        assert_eq!(
            self.board.counts(),
            self.board.counted(game),
            "occupancy out of step after {action:?}"
        );
        if let Some(ahead) = look_ahead {
            let mut formed = Vec::new();
            self.legal_actions(game, &mut formed);
            assert_eq!(
                ahead, formed,
                "the look ahead differs from the group formed"
            );
        }
    }

    /// Whether `action` is legal now. A card is named by its deck index;
    /// identical cards are one choice in [`State::legal_actions`], and any
    /// copy in the hand may be given.
    pub fn is_legal(&self, game: &Game, action: Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(game, &mut legal);
        if legal.contains(&action) {
            return true;
        }
        let (card, as_action): (u8, fn(u8) -> Action) = match action {
            Action::Discard(c) => (c, Action::Discard),
            Action::Play(c) => (c, Action::Play),
            _ => return false,
        };
        let in_hand = self
            .current_player()
            .is_some_and(|side| self.hands[side.index()].contains(&card));
        in_hand
            && legal.iter().any(|a| {
                self.hands
                    .iter()
                    .flatten()
                    .any(|&c| *a == as_action(c) && game.card(c) == game.card(card))
            })
    }

    /// Applies an action after checking it is legal.
    pub fn try_apply(&mut self, game: &Game, action: Action) -> Result<(), IllegalAction> {
        if !self.is_legal(game, action) {
            return Err(IllegalAction {
                action: game.action_text(action),
                phase: self.stage_text(game),
            });
        }
        self.apply(game, action);
        Ok(())
    }

    /// A short text of the position, for records and debugging.
    pub fn describe(&self, game: &Game) -> String {
        let mut out = String::new();
        for id in game.board().ids() {
            let here: Vec<String> = game
                .roster()
                .ids()
                .filter(|b| self.board.block(*b).loc() == id.0)
                .map(|b| {
                    format!(
                        "{}{} {}",
                        if self.side(b) == Side::Caesar {
                            "C:"
                        } else {
                            "P:"
                        },
                        game.block_name(b),
                        self.strength(game, b)
                    )
                })
                .collect();
            if !here.is_empty() {
                out.push_str(&format!("{}: {}\n", game.space_name(id), here.join(", ")));
            }
        }
        out
    }
}

impl State {
    /// Where the turn stands, in plain words (public: every side may read it).
    pub fn stage_text(&self, game: &Game) -> String {
        let space = |s: SpaceId| game.space_name(s).to_string();
        match self.phase {
            Phase::Discard(side) => format!("{side} discards (2.1)"),
            Phase::PlayCard(side) => format!("{side} chooses a card to play (2.1)"),
            Phase::Command(slot) => {
                let side = self.order[slot as usize];
                let c = &self.command;
                let (mp, lp) = (c.mp(), c.lp());
                let what = match (c.event(), c.step()) {
                    (_, CommandStep::Levy) => format!("levies, {lp} left"),
                    (_, CommandStep::MainAttack) => "declares main attacks (6.12)".into(),
                    (_, CommandStep::Surprise) => "names the surprise battle".into(),
                    (Some(e), CommandStep::EventTarget) => format!("{e:?}: chooses a target"),
                    (event, _) => {
                        let group = c
                            .group()
                            .map(|g| format!(", moving the group from {}", space(g)))
                            .unwrap_or_default();
                        let event = event.map(|e| format!("{e:?}, ")).unwrap_or_default();
                        let moves = if mp == 1 { "move" } else { "moves" };
                        let levies = if lp == 1 { "levy" } else { "levies" };
                        format!("{event}{mp} {moves} and {lp} {levies} left{group}")
                    }
                };
                format!("{side}'s command phase (Player {}): {what}", slot + 1)
            }
            Phase::ChooseBattle => {
                format!("{} (Player 1) chooses the next battle (7.1)", self.order[0])
            }
            Phase::Battle => match self.battles.info() {
                Some(b) if b.round == 0 => {
                    format!(
                        "battle of {}: {} declares the main attack",
                        space(b.space),
                        b.attacker
                    )
                }
                Some(b) => format!(
                    "battle of {}, round {}: {} attacks",
                    space(b.space),
                    b.round,
                    b.attacker
                ),
                None => "battle".into(),
            },
            Phase::Regroup(side) => match self.battles.regroup_space() {
                Some(s) => format!("{side} regroups from {} (7.7)", space(s)),
                None => format!("{side} regroups (7.7)"),
            },
            Phase::WinterNavis(side) => format!("winter: {side}'s navis go to port (8.3)"),
            Phase::WinterSupply(side) => format!("winter: {side} disbands (8.4, 8.5)"),
            Phase::Over => "the game is over".into(),
        }
    }

    /// The part of the game turn now, coarsely (public): for stepping a
    /// replay by phase.
    pub fn period(&self) -> Period {
        match self.phase {
            Phase::Discard(_) => Period::Discard,
            Phase::PlayCard(_) => Period::Cards,
            Phase::Command(slot) => Period::Command(self.order[slot as usize]),
            Phase::ChooseBattle | Phase::Battle | Phase::Regroup(_) => Period::Battles,
            Phase::WinterNavis(_) | Phase::WinterSupply(_) => Period::Winter,
            Phase::Over => Period::Over,
        }
    }
}

/// The command phases of a turn, from the state's side: Player 1's, then
/// Player 2's (2.2), then the battles.
impl State {
    pub(super) fn begin_command(&mut self, game: &Game, slot: u8, log: &mut impl Log) {
        self.phase = Phase::Command(slot);
        let orders = self.orders[slot as usize];
        self.command_step(game, slot, log, |command, table, side, log| {
            command.begin(table, game, side, slot, orders, log)
        });
    }

    /// A step of the command phase in `slot` (by the side in command, on
    /// the board, the contests, the counts and the dice), then what follows
    /// it.
    fn command_step<L: Log>(
        &mut self,
        game: &Game,
        slot: u8,
        log: &mut L,
        step: impl FnOnce(&mut CommandPhase, super::command::Table<'_>, Side, &mut L) -> bool,
    ) {
        let side = self.order[slot as usize];
        let table = (
            &mut self.board,
            &mut self.battles,
            &mut self.stats,
            &mut self.dice,
        );
        let done = step(&mut self.command, table, side, log);
        self.command_went_on(game, slot, done, log);
    }

    /// The side in command now.
    fn side_in_command(&self) -> Side {
        match self.phase {
            Phase::Command(slot) => self.order[slot as usize],
            _ => self.order[0],
        }
    }

    fn command_actions(&self, game: &Game, out: &mut Vec<Action>) {
        let side = self.side_in_command();
        self.command
            .actions(&self.board, &self.battles, game, side, out);
    }

    fn command_apply(&mut self, game: &Game, action: Action, log: &mut impl Log) {
        let Phase::Command(slot) = self.phase else {
            return;
        };
        self.command_step(game, slot, log, |command, table, side, log| {
            command.apply(table, game, side, action, log)
        });
    }

    /// After a command phase's step: if it is over, Player 2's command
    /// phase or the battles.
    fn command_went_on(&mut self, game: &Game, slot: u8, done: bool, log: &mut impl Log) {
        match (done, slot) {
            (false, _) => {}
            (true, 0) => self.begin_command(game, 1, log),
            (true, _) => self.begin_battles(game, log),
        }
    }

    /// The legal actions there would be after `Group(at)`, the state left as
    /// it is: the steps of the group it would form, then `EndGroup`. A
    /// player's look ahead, without cloning the state.
    pub(super) fn actions_after_group(&self, game: &Game, at: SpaceId, out: &mut Vec<Action>) {
        let side = self.side_in_command();
        let rooms = (&self.board, &self.battles);
        self.command.actions_after_group(rooms, game, side, at, out);
    }

    /// 6.4: whether a step may be added to block `id` now.
    pub(super) fn may_add_step(&self, game: &Game, id: BlockId) -> bool {
        may_add_step(&self.board, game, id)
    }

    /// The enemy blocks at `at` Jupiter may take.
    pub(super) fn jupiter_candidates<'s>(
        &'s self,
        game: &'s Game,
        side: Side,
        at: SpaceId,
    ) -> impl Iterator<Item = BlockId> + 's {
        jupiter_candidates(&self.board, game, side, at)
    }

    /// Blocks in the pool that `side` could levy at all (for views and tests).
    pub fn pool(&self, side: Side) -> impl Iterator<Item = BlockId> + '_ {
        self.board
            .blocks()
            .iter()
            .enumerate()
            .filter(move |(_, b)| b.place() == Place::Pool && b.side() == side)
            .map(|(i, _)| BlockId(i as u8))
    }
}

/// The battles of a turn, from the state's side: each begins in the battle
/// room, and when one ends the state goes on to its regroup, the next
/// battle or the end of the turn.
impl State {
    /// 2.3: the battle phase, or the next turn if there is nothing to fight.
    pub(super) fn begin_battles(&mut self, game: &Game, log: &mut impl Log) {
        match self.battles.keep_contested(&self.board) {
            (0, _) => self.end_turn(game, log),
            (1, Some(space)) => self.start_battle(game, space, log),
            _ => self.phase = Phase::ChooseBattle,
        }
    }

    /// 7.1: Player 1 has picked a battle.
    pub(super) fn start_battle(&mut self, game: &Game, space: SpaceId, log: &mut impl Log) {
        let field = (&mut self.board, &mut self.stats, &mut self.dice);
        match self.battles.start(field, game, space, log) {
            Begun::NoContest => {}
            Begun::Fighting => self.phase = Phase::Battle,
            Begun::Ended(winner, battle) => {
                self.phase = Phase::Battle;
                self.battle_ended(game, winner, log);
                // As the engine has always done: a battle over before its
                // first decision is put back if the phase is then a battle
                // (the next one begun), and is fought on in its place.
                if self.phase == Phase::Battle {
                    self.battles.restore(battle);
                }
            }
        }
    }

    /// A battle is over: its winner regroups (7.7), or the next battle.
    fn battle_ended(&mut self, game: &Game, winner: Option<Side>, log: &mut impl Log) {
        match winner {
            Some(w) if self.battles.has_regroup(&self.board, game, w) => {
                self.phase = Phase::Regroup(w)
            }
            _ => self.after_battle(game, log),
        }
    }

    /// After a battle and its regroup: the next battle, or the end of the turn.
    pub(super) fn after_battle(&mut self, game: &Game, log: &mut impl Log) {
        self.battles.close_regroup();
        self.begin_battles(game, log);
    }

    /// The battle being fought, if any.
    pub fn battle_info(&self) -> Option<BattleInfo> {
        self.battles.info()
    }
}

/// The board's doors and queries, as the rules written on the state use
/// them (the phases' rooms take the board itself).
impl State {
    pub fn place(&self, b: BlockId) -> Place {
        self.board.place(b)
    }
    pub fn location(&self, b: BlockId) -> Option<SpaceId> {
        self.board.location(b)
    }
    /// Whether a block waits in a battle's reserve (7.3): it arrives, and
    /// is revealed, at the start of round 2.
    pub fn is_reserve(&self, b: BlockId) -> bool {
        self.board.is_reserve(b)
    }
    /// Current strength in steps.
    pub fn steps(&self, b: BlockId) -> u8 {
        self.board.steps(b)
    }
    /// The side a block fights for now (Cleopatra and Jupiter may change it).
    pub fn side(&self, b: BlockId) -> Side {
        self.board.side(b)
    }
    /// Blocks of `side` at `space`.
    pub fn blocks_at(&self, space: SpaceId, side: Side) -> impl Iterator<Item = BlockId> + '_ {
        self.board.blocks_at(space, side)
    }
    /// 4.21 / 4.4: friendly to `side` (occupied by it alone).
    pub fn is_friendly(&self, space: SpaceId, side: Side) -> bool {
        self.board.is_friendly(space, side)
    }
    pub fn is_vacant(&self, space: SpaceId) -> bool {
        self.board.is_vacant(space)
    }
    pub fn is_contested(&self, space: SpaceId) -> bool {
        self.board.is_contested(space)
    }
    /// Printed strength (7.41: elephant steps count double).
    pub fn strength(&self, game: &Game, b: BlockId) -> u8 {
        self.board.strength(game, b)
    }
    pub(super) fn occupied(&self, space: SpaceId) -> [bool; 2] {
        self.board.occupied(space)
    }
    pub(super) fn set_loc(&mut self, game: &Game, b: BlockId, loc: u16) {
        self.board.set_loc(game, b, loc)
    }
    pub(super) fn set_steps(&mut self, game: &Game, b: BlockId, steps: u8) {
        self.board.set_steps(game, b, steps)
    }
    pub(super) fn set_side(&mut self, game: &Game, b: BlockId, side: Side) {
        self.board.set_side(game, b, side)
    }
    pub(super) fn recount_occupancy(&mut self, game: &Game) {
        self.board.recount_occupancy(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_2_1_moves_not_made_read_zero_once_the_levies_begin() {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 1);
        let mut legal = Vec::new();
        loop {
            state.legal_actions(&game, &mut legal);
            if legal.contains(&Action::EndMoves) {
                let (mp, _) = state.command_points().expect("a command phase");
                assert!(mp > 0, "moves are offered while points are left");
                state.apply(&game, Action::EndMoves);
                break;
            }
            let a = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Discard(_) | Action::Play(_)))
                .unwrap_or(legal[0]);
            state.apply(&game, a);
        }
        state.legal_actions(&game, &mut legal);
        assert!(legal.contains(&Action::EndLevy), "{legal:?}");
        let (mp, lp) = state.command_points().expect("still the command phase");
        assert_eq!(mp, 0);
        assert!(lp > 0);
    }
}
