//! Players that choose actions for a side: [`RandomPlayer`],
//! [`HeuristicPlayer`], [`SearchPlayer`] and [`MctsPlayer`].

mod heuristic;
mod mcts;
mod params;
pub mod policy;
mod search;
pub mod shipped;
mod spec;
pub mod value;

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::{Action, Game, SideView, State};
use crate::scenario::model::{BlockId, Side};

pub use heuristic::{HeuristicPlayer, Style};
pub use mcts::MctsPlayer;
pub use params::{
    HeuristicParams, MAX_OPPONENTS, MctsParams, OpponentMix, PlayerNumbers, WeightedNumbers,
};
pub use search::{Budget, SearchPlayer};

pub use spec::{
    AiSpec, KINDS, LearnedValue, NotAPlayer, PlayerFileName, SearchOn, SpecText, Spelling,
    TunedHeuristic, spellings, tuned_file_stem,
};
pub use value::ValueModel;

/// Something that picks one of the legal actions.
///
/// A player decides from its side's view of the game ([`SideView`]): fog of
/// war holds by construction, not by each player's care. Drive players with
/// [`decide`], which builds that view.
pub trait Player: Send {
    fn choose(&mut self, game: &Game, view: SideView<'_>, legal: &[Action]) -> Action;

    /// Whether this player sees everything, hidden blocks and cards too: an
    /// explicit choice, for quick simulations and for debugging.
    fn omniscient(&self) -> bool {
        false
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn choose(&mut self, game: &Game, view: SideView<'_>, legal: &[Action]) -> Action {
        (**self).choose(game, view, legal)
    }

    fn omniscient(&self) -> bool {
        (**self).omniscient()
    }
}

/// Asks `player`, who must be the side to act in `state`, for its action:
/// it sees only its side's view (everything if it is omniscient).
pub fn decide<P: Player + ?Sized>(
    player: &mut P,
    game: &Game,
    state: &State,
    legal: &[Action],
) -> Action {
    let side = state
        .current_player()
        .expect("a decision is asked for only while the game goes on");
    player.choose(game, state.view(side, player.omniscient()), legal)
}

/// Uniform over legal actions, with its own seeded RNG.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, _: &Game, _: SideView<'_>, legal: &[Action]) -> Action {
        legal[self.rng.random_range(0..legal.len())]
    }
}

/// The blocks offered by `TakeHit` actions (7.4: the tied strongest).
pub fn hit_candidates(legal: &[Action]) -> Vec<BlockId> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::TakeHit(b) => Some(*b),
            _ => None,
        })
        .collect()
}

/// 7.4 default policy when the owner must pick which of several equally
/// strong blocks takes a hit (docs/rules-notes.md): the lowest firepower,
/// then the later initiative, then the lower roster index.
pub fn default_hit_victim(game: &Game, state: &State, candidates: &[BlockId]) -> BlockId {
    let attacker = state.battle_info().map(|b| b.attacker);
    hit_victim(game, candidates, |b| Some(state.side(b)) == attacker)
}

/// [`default_hit_victim`] from the view of the side taking the hit (the
/// candidates are its own blocks).
pub(crate) fn default_hit_victim_seen(
    game: &Game,
    view: &SideView<'_>,
    candidates: &[BlockId],
) -> BlockId {
    let attacking = view.battle().map(|b| b.attacker) == Some(view.side());
    hit_victim(game, candidates, |_| attacking)
}

fn hit_victim(game: &Game, candidates: &[BlockId], attacking: impl Fn(BlockId) -> bool) -> BlockId {
    let roster = game.roster();
    *candidates
        .iter()
        .min_by_key(|b| {
            let block = roster.block(**b);
            (
                block.firepower,
                std::cmp::Reverse(block.initiative(attacking(**b))),
                b.0,
            )
        })
        .expect("a hit always has a candidate")
}

/// Plays a whole game; `players` are Caesar's and Pompey's.
pub fn play_game(
    game: &Game,
    seed: u64,
    players: &mut [Box<dyn Player>; 2],
    log: &mut impl crate::engine::Log,
) -> State {
    let state = State::new_logged(game, seed, log);
    play_on(game, state, players, log)
}

/// Plays `state` on to the end.
pub(crate) fn play_on(
    game: &Game,
    state: State,
    players: &mut [Box<dyn Player>; 2],
    log: &mut impl crate::engine::Log,
) -> State {
    play_watched(game, state, players, log, |_, _, _| {})
}

/// Room for a decision's legal actions: more than most decisions list, so a
/// game loop (a search's playouts start thousands) does not grow its list.
const LEGAL_CAPACITY: usize = 64;

/// Plays `state` on until it ends or `stop` says so (asked before each
/// decision): a playout that is scored at a horizon.
pub(crate) fn play_until(
    game: &Game,
    mut state: State,
    players: &mut [Box<dyn Player>; 2],
    mut stop: impl FnMut(&State) -> bool,
) -> State {
    let mut legal = Vec::with_capacity(LEGAL_CAPACITY);
    state.legal_actions(game, &mut legal);
    while let Some(side) = state.current_player() {
        if stop(&state) {
            break;
        }
        let action = decide(&mut players[side.index()], game, &state, &legal);
        state.apply_and_relist(game, action, &mut legal);
    }
    state
}

/// Plays `state` on to the end as [`play_on`] does, showing `watch` each
/// action with the side that took it and the state just after it: the one
/// game loop that simulations, records and searches share.
pub fn play_watched(
    game: &Game,
    mut state: State,
    players: &mut [Box<dyn Player>; 2],
    log: &mut impl crate::engine::Log,
    mut watch: impl FnMut(&State, Side, Action),
) -> State {
    let mut legal = Vec::with_capacity(LEGAL_CAPACITY);
    state.legal_actions(game, &mut legal);
    while let Some(side) = state.current_player() {
        let action = decide(&mut players[side.index()], game, &state, &legal);
        state.apply_and_relist_logged(game, action, &mut legal, log);
        watch(&state, side, action);
    }
    state
}

/// The splitmix64 finaliser: a seed mixed so that draws made from it do not
/// follow the stream a player makes from the same seed.
pub(crate) fn mix64(seed: u64) -> u64 {
    let mut z = seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
