//! A game kept as every position it went through: for stepping through a
//! replay (by action, phase, turn, year or battle round), for playing on
//! with undo, and for writing the game down as a record.
//!
//! Position `i` is the state after the first `i` actions; position 0 is the
//! start. Each action's lines of the game's log (the text `play` prints)
//! are kept with it, so a replay shows the log in step with the map.

use std::path::Path;

use crate::ai::{Player, decide};
use crate::engine::{Action, Game, GameEvent, IllegalAction, State};
use crate::games::record::{
    Proof, RecordFile, RecordSetup, RecordedStep, ReplayError, Replaying, check_sources, record_of,
};
use crate::scenario::format::LoadError;
use crate::scenario::model::{BlockId, Side, SpaceId};
use crate::scenario::rules::RuleSet;

/// A game and every position it went through.
#[derive(Debug, Clone)]
pub struct Trace {
    /// `states[i]`: the position after `i` actions.
    states: Vec<State>,
    actions: Vec<Action>,
    /// Each action in words ([`Game::action_text`]).
    texts: Vec<String>,
    /// Who took each action.
    deciders: Vec<Side>,
    /// `proofs[i]`: the game's [`Proof`] at position `i` (a record's
    /// digests), kept for a game begun from a seed (one that can be recorded).
    proofs: Vec<Proof>,
    /// The game's events; `marks[i]` is how many there were at position `i`.
    log: Vec<GameEvent>,
    marks: Vec<usize>,
    /// The seed of [`State::new`] when the game began with it (a record can
    /// be written only then).
    seed: Option<u64>,
}

/// How far a step through a game goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stride {
    Action,
    /// To the next (or this) part of a game turn: discards, cards, each
    /// command phase, battles, winter.
    Period,
    Turn,
    Year,
    /// To the next (or previous) round of a battle.
    BattleRound,
}

impl Trace {
    /// A new game from [`State::new`].
    pub fn new(game: &Game, seed: u64) -> Trace {
        let mut log = Vec::new();
        let state = State::new_logged(game, seed, &mut log);
        let mut trace = Trace::from_state(state);
        trace.proofs.push(Proof::new(game, trace.last()));
        trace.marks[0] = log.len();
        trace.log = log;
        trace.seed = Some(seed);
        trace
    }

    /// A game going on from any position (a position file): it has no seed
    /// of its own, so it cannot be written as a record.
    pub fn from_state(state: State) -> Trace {
        Trace {
            proofs: Vec::new(),
            states: vec![state],
            actions: Vec::new(),
            texts: Vec::new(),
            deciders: Vec::new(),
            log: Vec::new(),
            marks: vec![0],
            seed: None,
        }
    }

    /// Re-plays a record as [`crate::games::record::replay`] does, keeping every
    /// position; refuses it the same way ([`crate::games::record::replay_into`]:
    /// the first step that differs from the record's digests, an action not
    /// legal at its step, actions after the end, an end other than recorded).
    pub fn from_record(record: &RecordFile, game: &Game) -> Result<Trace, ReplayError> {
        let mut trace = Trace::new(game, record.seed);
        crate::games::record::replay_into(record, game, &mut trace)?;
        Ok(trace)
    }

    /// Plays a whole game between `players` (Caesar's and Pompey's) as
    /// [`crate::ai::play_game`] does: the same actions for the same seeds.
    pub fn play(game: &Game, seed: u64, players: &mut [Box<dyn Player>; 2]) -> Trace {
        let mut trace = Trace::new(game, seed);
        let mut legal = Vec::new();
        while let Some(side) = trace.last().current_player() {
            trace.last().legal_actions(game, &mut legal);
            let action = decide(&mut players[side.index()], game, trace.last(), &legal);
            trace.push_legal(game, action);
        }
        trace
    }

    /// Applies an action after checking it is legal now.
    pub fn push(&mut self, game: &Game, action: Action) -> Result<(), IllegalAction> {
        if !self.last().is_legal(game, action) {
            return Err(IllegalAction {
                action: game.action_text(action),
                phase: self.last().stage_text(game),
            });
        }
        self.push_legal(game, action);
        Ok(())
    }

    fn push_legal(&mut self, game: &Game, action: Action) {
        let mut next = self.last().clone();
        let side = next
            .current_player()
            .expect("an action is taken only while the game goes on");
        next.apply_logged(game, action, &mut self.log);
        let text = game.action_text(action);
        if let Some(&(mut proof)) = self.proofs.last() {
            proof.push(game, &text, &next);
            self.proofs.push(proof);
        }
        self.states.push(next);
        self.actions.push(action);
        self.texts.push(text);
        self.deciders.push(side);
        self.marks.push(self.log.len());
    }

    /// Forgets every action after the first `steps`.
    pub fn truncate(&mut self, steps: usize) {
        if steps >= self.len() {
            return;
        }
        self.states.truncate(steps + 1);
        self.actions.truncate(steps);
        self.texts.truncate(steps);
        self.deciders.truncate(steps);
        self.proofs.truncate(steps + 1);
        self.marks.truncate(steps + 1);
        self.log.truncate(self.marks[steps]);
    }

    /// The number of actions taken.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The position after `step` actions (the last one past the end).
    pub fn state(&self, step: usize) -> &State {
        &self.states[step.min(self.len())]
    }

    /// The position now.
    pub fn last(&self) -> &State {
        self.states.last().expect("a trace holds its start")
    }

    /// Action `i` (0-based), its words and who took it.
    pub fn action(&self, i: usize) -> Action {
        self.actions[i]
    }
    pub fn text(&self, i: usize) -> &str {
        &self.texts[i]
    }
    pub fn texts(&self) -> &[String] {
        &self.texts
    }
    pub fn decider(&self, i: usize) -> Side {
        self.deciders[i]
    }

    /// Every event of the game so far, and how many happened by position `step`.
    pub fn log(&self) -> &[GameEvent] {
        &self.log
    }
    pub fn log_end(&self, step: usize) -> usize {
        self.marks[step.min(self.len())]
    }

    /// The events of action `i` (from position `i` to `i + 1`).
    pub fn events(&self, i: usize) -> &[GameEvent] {
        &self.log[self.log_end(i)..self.log_end(i + 1)]
    }

    /// Where a step of `stride` from position `from` lands, forward or back.
    /// Back goes to the start of the current part (turn, year, ...) or, from
    /// its start, to the start of the one before.
    pub fn seek(&self, from: usize, stride: Stride, forward: bool) -> usize {
        let from = from.min(self.len());
        if stride == Stride::Action {
            return if forward {
                (from + 1).min(self.len())
            } else {
                from.saturating_sub(1)
            };
        }
        let key = |i: usize| -> Option<(u8, u8, u16, u8)> {
            let s = &self.states[i];
            match stride {
                Stride::Action => None,
                Stride::Year => Some((s.year(), 0, 0, 0)),
                Stride::Turn => Some((s.year(), s.turn(), 0, 0)),
                Stride::Period => Some((s.year(), s.turn(), s.period().ordinal().into(), 0)),
                Stride::BattleRound => s
                    .battle_info()
                    .filter(|b| b.round >= 1)
                    .map(|b| (s.year(), s.turn(), b.space.0, b.round)),
            }
        };
        // Only parts with a key count (a battle round); the rest is passed over.
        let start_of = |i: usize| {
            let k = key(i);
            let mut j = i;
            while j > 0 && key(j - 1) == k {
                j -= 1;
            }
            j
        };
        if forward {
            let here = key(from);
            (from + 1..=self.len())
                .find(|&j| key(j).is_some() && key(j) != here)
                .unwrap_or(self.len())
        } else {
            let mut j = from;
            if key(j).is_some() && start_of(j) < j {
                return start_of(j);
            }
            // The start of the nearest keyed part before this one.
            while j > 0 {
                j -= 1;
                if key(j).is_some() && key(j) != key(from) {
                    return start_of(j);
                }
            }
            0
        }
    }

    /// The position to go back to when `side` takes back its last decision:
    /// the one before it, when the last action was `side`'s and it neither
    /// rolled a die, shuffled, nor showed `side` anything hidden. `None` when
    /// there is nothing `side` may take back.
    pub fn undo_point(&self, game: &Game, side: Side) -> Option<usize> {
        let i = self.len().checked_sub(1)?;
        (self.deciders[i] == side
            && !reveals_or_rolls(game, &self.states[i], &self.states[i + 1], side))
        .then_some(i)
    }

    /// The game written down as a record (`None` for a game begun from a
    /// position rather than a seed).
    pub fn record(&self, setup: RecordSetup) -> Option<RecordFile> {
        let seed = self.seed?;
        let setup = RecordSetup { seed, ..setup };
        let start = self.proofs[0].start(&setup);
        let steps = self
            .texts
            .iter()
            .zip(&self.proofs[1..])
            .map(|(text, proof)| RecordedStep {
                action: text.clone(),
                digest: proof.step(),
            })
            .collect();
        Some(record_of(setup, start, steps, self.last()))
    }

    /// VP of Caesar and Pompey at the start of each game turn and at the end:
    /// `(year, turn, [caesar, pompey])`.
    pub fn vp_by_turn(&self, game: &Game) -> Vec<(u8, u8, [u32; 2])> {
        let mut out: Vec<(u8, u8, [u32; 2])> = Vec::new();
        for (i, s) in self.states.iter().enumerate() {
            let here = (s.year(), s.turn());
            let new_turn = out.last().is_none_or(|(y, t, _)| (*y, *t) != here);
            if new_turn || i == self.len() {
                let vp = s.outcome().map_or_else(|| s.vp(game), |o| o.vp);
                if new_turn {
                    out.push((here.0, here.1, vp));
                } else if let Some(last) = out.last_mut() {
                    last.2 = vp;
                }
            }
        }
        out
    }
}

/// Why a record file cannot be opened for stepping through.
#[derive(Debug, thiserror::Error)]
pub enum LoadRecordError {
    /// The record, its scenario or its rule set cannot be read.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The sources differ from those the record was played on, or a move
    /// of the record is not legal there.
    #[error("{0}")]
    Replay(#[from] ReplayError),
    #[error("the scenario {scenario}: {refused}")]
    NotPlayable {
        scenario: String,
        refused: crate::engine::NotPlayable,
    },
}

/// A record file read, its scenario and rule set found as `replay` finds
/// them (a path as written, else beside the record; `built-in`), checked
/// against the record's digests, and the game re-played: everything a
/// window needs to step through it.
pub fn load_record(path: &Path) -> Result<(RecordFile, Game, Trace), LoadRecordError> {
    let record = RecordFile::read(path)?;
    let (scenario, variant) = crate::games::record::source_paths(&record, path);
    let rules = RuleSet::load(&variant)?;
    let doc = crate::scenario::load_scenario(scenario.as_deref())?;
    check_sources(&record, (scenario.as_deref(), &variant), &doc, &rules)?;
    let game = crate::scenario::checked::CheckedScenario::from_document(&doc, rules, None)
        .map(Game::from_checked)
        .map_err(|refused| LoadRecordError::NotPlayable {
            scenario: record.scenario.path.clone(),
            refused,
        })?;
    let trace = Trace::from_record(&record, &game)?;
    Ok((record, game, trace))
}

impl Replaying for Trace {
    fn position(&self) -> &State {
        self.last()
    }
    fn apply(&mut self, game: &Game, action: Action) {
        self.push_legal(game, action);
    }
}

/// The space a click on the map chooses `action` by, if any: where a group
/// starts or a block goes, a levy's city, the block's space for a step added,
/// a hit taken or a disbanding, a battle's space, an event's target. Cards
/// and actions with no place (fire, pass, end ...) have none: they are
/// buttons.
pub fn action_space(state: &State, action: Action) -> Option<SpaceId> {
    match action {
        Action::Group(s)
        | Action::Battle(s)
        | Action::Retreat(s)
        | Action::JupiterAt(s)
        | Action::VulcanCity(s)
        | Action::Surprise(Some(s)) => Some(s),
        Action::Step { to, .. }
        | Action::SeaMove { to, .. }
        | Action::Regroup { to, .. }
        | Action::NavisToPort { to, .. } => Some(to),
        Action::Levy { at, .. } => Some(at),
        Action::AddStep(b) | Action::Disband(b) | Action::TakeHit(b) | Action::TakeTurn(b) => {
            state.location(b)
        }
        Action::Discard(_)
        | Action::Play(_)
        | Action::EndGroup
        | Action::EndMoves
        | Action::EndLevy
        | Action::PassEvent
        | Action::Surprise(None)
        | Action::MainAttack(_)
        | Action::Fire
        | Action::Pass
        | Action::EndRegroup
        | Action::EndWinter => None,
    }
}

pub use super::narrate::action_text_seen;

/// The block an action moves or picks, if any.
pub fn action_block(action: Action) -> Option<BlockId> {
    match action {
        Action::Step { block, .. }
        | Action::SeaMove { block, .. }
        | Action::Regroup { block, .. }
        | Action::NavisToPort { block, .. }
        | Action::Levy { block, .. } => Some(block),
        Action::AddStep(b) | Action::Disband(b) | Action::TakeHit(b) | Action::TakeTurn(b) => {
            Some(b)
        }
        _ => None,
    }
}

/// Whether going from `before` to `after` drew on chance (a die, a shuffle)
/// or showed `side` something it could not see before: an enemy block
/// identified or changed, the other side's card played, a card revealed.
/// Such a step cannot be taken back: the player has learned from it.
pub(crate) fn reveals_or_rolls(game: &Game, before: &State, after: &State, side: Side) -> bool {
    if before.chance_drawn() != after.chance_drawn() {
        return true;
    }
    let (seen_before, seen_after) = (before.view(side, false), after.view(side, false));
    let enemy_seen = game.roster().ids().any(|b| {
        after.side(b) != side
            && seen_after.knows(game, b)
            && seen_before.block(game, b) != seen_after.block(game, b)
    });
    let other = side.other();
    enemy_seen
        || seen_before.played(other) != seen_after.played(other)
        || seen_before.revealed_this_year() != seen_after.revealed_this_year()
        || before.revealed_space() != after.revealed_space()
}

/// The moves of the turn so far among the first `upto` actions, oldest
/// first: where each block was and where it went (public: the board
/// shows blocks, face down or not, move). Both sides' command phases;
/// none once the battles start (or winter), nor before the turn's first move.
pub fn turn_moves(trace: &Trace, upto: usize) -> Vec<(SpaceId, SpaceId)> {
    let upto = upto.min(trace.len());
    let now = trace.state(upto);
    if !matches!(now.period(), crate::engine::Period::Command(_)) {
        return Vec::new();
    }
    let mut moves: Vec<(SpaceId, SpaceId)> = (0..upto)
        .rev()
        .take_while(|i| {
            let s = trace.state(*i);
            s.year() == now.year() && s.turn() == now.turn()
        })
        .filter_map(|i| {
            let (before, a) = (trace.state(i), trace.action(i));
            let to = action_space(before, a).filter(|_| is_move(a))?;
            Some((before.location(action_block(a)?)?, to))
        })
        .collect();
    moves.reverse();
    moves
}

/// Moving a block somewhere (rather than acting on it where it stands).
pub fn is_move(a: Action) -> bool {
    matches!(
        a,
        Action::Step { .. }
            | Action::SeaMove { .. }
            | Action::Regroup { .. }
            | Action::NavisToPort { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::AiSpec;
    use crate::engine::Period;
    use crate::games::record::PlayerEntry;

    fn players(a: u64, b: u64) -> [Box<dyn Player>; 2] {
        [
            AiSpec::Heuristic.player(Side::Caesar, a, false),
            AiSpec::Heuristic.player(Side::Pompey, b, false),
        ]
    }

    #[test]
    fn a_played_game_matches_play_game_and_its_record_replays_to_every_position() {
        let game = crate::test_support::published("rules-2.0");
        let trace = Trace::play(&game, 11, &mut players(1, 2));
        let mut log = Vec::new();
        let end = crate::ai::play_game(&game, 11, &mut players(1, 2), &mut log);
        assert!(trace.last().is_over());
        assert_eq!(trace.last().outcome(), end.outcome());
        assert_eq!(trace.log(), &log[..]);
        assert_eq!(trace.len() as u32, end.stats.actions);

        let doc = crate::scenario::historical();
        let (scenario, variant) = RecordSetup::sources(None, &doc, "rules-2.0", &game.rules);
        let setup = RecordSetup {
            scenario,
            variant,
            seed: 0,
            caesar: PlayerEntry::ai(&AiSpec::Heuristic, 1),
            pompey: PlayerEntry::ai(&AiSpec::Heuristic, 2),
            omniscient: false,
        };
        let record = trace.record(setup).expect("begun from a seed");
        assert_eq!(record.seed, 11);
        // Written and read back as a file, it finds its game and replays.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.ron");
        record.write(&file).unwrap();
        let (read, _, loaded) = load_record(&file).expect("loads");
        assert_eq!(read, record);
        assert_eq!(loaded.len(), trace.len());
        let mut changed = record.clone();
        changed.variant.digest = "0000000000000000".into();
        changed.write(&file).unwrap();
        let err = load_record(&file).unwrap_err();
        assert!(matches!(err, LoadRecordError::Replay(_)), "{err}");
        assert!(err.to_string().contains("has changed since"), "{err}");
        let back = Trace::from_record(&record, &game).expect("replays");
        assert_eq!(back.len(), trace.len());
        for step in [0, 1, trace.len() / 2, trace.len()] {
            assert_eq!(
                back.state(step).view(Side::Caesar, true),
                trace.state(step).view(Side::Caesar, true),
                "position {step}"
            );
            assert_eq!(back.log_end(step), trace.log_end(step));
        }
    }

    #[test]
    fn seeking_lands_on_the_starts_of_turns_years_and_battle_rounds() {
        let game = crate::test_support::published("rules-1.1");
        let trace = Trace::play(&game, 4, &mut players(3, 4));
        let n = trace.len();
        assert_eq!(trace.seek(0, Stride::Action, true), 1);
        assert_eq!(trace.seek(0, Stride::Action, false), 0);
        // Forward by turn: each landing is a new (year, turn), the first of it.
        let mut at = 0;
        let mut turns = 0;
        while at < n {
            let next = trace.seek(at, Stride::Turn, true);
            assert!(next > at);
            if next < n {
                let (a, b) = (trace.state(next - 1), trace.state(next));
                assert_ne!((a.year(), a.turn()), (b.year(), b.turn()));
                // And back again lands where we were.
                assert_eq!(trace.seek(next, Stride::Turn, false), at);
            }
            at = next;
            turns += 1;
        }
        assert!(turns >= 5, "a game has several turns ({turns})");
        // Years go from year y to year y + 1.
        let y2 = trace.seek(0, Stride::Year, true);
        assert_eq!(trace.state(y2).year(), 2);
        assert_eq!(trace.state(y2 - 1).year(), 1);
        // Battle rounds: each landing is in a battle, at a new round.
        let mut at = 0;
        let mut rounds = 0;
        loop {
            let next = trace.seek(at, Stride::BattleRound, true);
            if next >= n {
                break;
            }
            let b = trace.state(next).battle_info().expect("in a battle");
            assert!(b.round >= 1);
            assert_ne!(
                trace
                    .state(next - 1)
                    .battle_info()
                    .map(|x| (x.space, x.round)),
                Some((b.space, b.round))
            );
            at = next;
            rounds += 1;
        }
        assert!(rounds > 0, "the game fought battles");
        // Periods change at each landing.
        let p = trace.seek(0, Stride::Period, true);
        assert_ne!(trace.state(p).period(), trace.state(0).period());
    }

    #[test]
    fn the_turns_moves_are_where_each_moved_block_came_from_and_went() {
        let game = crate::test_support::published("rules-2.0");
        let mut trace = Trace::new(&game, 5);
        let mut legal = Vec::new();
        assert_eq!(turn_moves(&trace, trace.len()), vec![]);
        // The first legal action each time, a step by road once there is one.
        while !trace.actions.last().is_some_and(|a| is_move(*a)) {
            trace.last().legal_actions(&game, &mut legal);
            let step = legal.iter().find(|a| matches!(a, Action::Step { .. }));
            trace.push(&game, *step.unwrap_or(&legal[0])).unwrap();
        }
        let step = trace.len() - 1;
        let Action::Step { block, to } = trace.action(step) else {
            panic!("the first move is a step by road");
        };
        let from = trace.state(step).location(block).unwrap();
        assert_eq!(turn_moves(&trace, trace.len()), vec![(from, to)]);
        assert_eq!(turn_moves(&trace, step), vec![], "no move before it");
        // A second move of the turn: both are shown, oldest first; once the
        // battles (or the next turn) come, none.
        let mut moved = 1;
        while matches!(trace.last().period(), crate::engine::Period::Command(_)) {
            trace.last().legal_actions(&game, &mut legal);
            let step = legal.iter().find(|a| matches!(a, Action::Step { .. }));
            let a = *step.unwrap_or(&legal[0]);
            moved += usize::from(is_move(a));
            trace.push(&game, a).unwrap();
            if matches!(trace.last().period(), crate::engine::Period::Command(_)) {
                let shown = turn_moves(&trace, trace.len());
                assert_eq!(shown.len(), moved, "every move of the turn");
                assert_eq!(shown[0], (from, to), "oldest first");
            }
        }
        assert!(moved >= 2, "a turn of one move");
        assert_eq!(turn_moves(&trace, trace.len()), vec![]);
    }

    #[test]
    fn only_ones_own_quiet_decisions_can_be_taken_back() {
        let game = crate::test_support::published("rules-2.0");
        let mut trace = Trace::new(&game, 5);
        let mut legal = Vec::new();
        // Discards: Caesar's discard shows him nothing and rolls nothing.
        trace.last().legal_actions(&game, &mut legal);
        let first = trace.last().current_player().unwrap();
        trace.push(&game, legal[0]).unwrap();
        assert_eq!(trace.undo_point(&game, first), Some(0));
        assert_eq!(trace.undo_point(&game, first.other()), None);
        // Play through to the cards: the second card played reveals both.
        while trace.last().period() != Period::Cards {
            trace.last().legal_actions(&game, &mut legal);
            trace.push(&game, legal[0]).unwrap();
        }
        trace.last().legal_actions(&game, &mut legal);
        trace.push(&game, legal[0]).unwrap();
        let first_player = trace.decider(trace.len() - 1);
        assert!(trace.undo_point(&game, first_player).is_some());
        trace.last().legal_actions(&game, &mut legal);
        trace.push(&game, legal[0]).unwrap();
        let second = trace.decider(trace.len() - 1);
        assert_ne!(first_player, second);
        assert_eq!(trace.undo_point(&game, second), None, "the reveal");
        // An illegal action is refused and changes nothing.
        let len = trace.len();
        assert!(trace.push(&game, Action::EndWinter).is_err());
        assert_eq!(trace.len(), len);
        // Taking back truncates the log too.
        trace.truncate(1);
        assert_eq!(trace.len(), 1);
        assert_eq!(trace.log().len(), trace.log_end(1));
    }

    #[test]
    fn a_battle_die_cannot_be_taken_back() {
        let game = crate::test_support::published("rules-2.0");
        let trace = Trace::play(&game, 8, &mut players(5, 6));
        let fire = (0..trace.len())
            .find(|&i| trace.action(i) == Action::Fire)
            .expect("someone fired");
        assert!(reveals_or_rolls(
            &game,
            trace.state(fire),
            trace.state(fire + 1),
            trace.decider(fire)
        ));
    }

    /// Every legal action of a whole game is either placed on a space the
    /// game's position knows or is one with no place (a button).
    #[test]
    fn placed_actions_name_spaces_of_the_board() {
        let game = crate::test_support::published("rules-2.0");
        let trace = Trace::play(&game, 6, &mut players(9, 10));
        let mut legal = Vec::new();
        let mut placed = 0;
        for step in 0..trace.len() {
            let state = trace.state(step);
            state.legal_actions(&game, &mut legal);
            for a in &legal {
                match action_space(state, *a) {
                    Some(s) => {
                        assert!(s.index() < game.board().len());
                        placed += 1;
                    }
                    None => assert!(
                        !matches!(
                            a,
                            Action::Group(_) | Action::Step { .. } | Action::Levy { .. }
                        ),
                        "{a:?} has a place"
                    ),
                }
            }
            if let Action::Levy { block, at } = trace.action(step) {
                assert_eq!(action_block(trace.action(step)), Some(block));
                assert_eq!(trace.state(step + 1).location(block), Some(at));
            }
        }
        assert!(placed > 100);
    }

    #[test]
    fn vp_by_turn_starts_at_the_opening_and_ends_with_the_outcome() {
        let game = crate::test_support::published("rules-2.0");
        let trace = Trace::play(&game, 2, &mut players(7, 8));
        let vp = trace.vp_by_turn(&game);
        assert_eq!((vp[0].0, vp[0].1), (1, 1));
        assert_eq!(vp[0].2, trace.state(0).vp(&game));
        assert_eq!(vp.last().unwrap().2, trace.last().outcome().unwrap().vp);
    }
}
