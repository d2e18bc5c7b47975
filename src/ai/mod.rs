//! Players that choose actions for a side: [`RandomPlayer`],
//! [`HeuristicPlayer`] and [`SearchPlayer`].

mod heuristic;
mod search;

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::{Action, Game, State};
use crate::model::BlockId;

pub use heuristic::{HeuristicPlayer, Style};
pub use search::SearchPlayer;

/// Something that picks one of the legal actions.
pub trait Player: Send {
    fn choose(&mut self, game: &Game, state: &State, legal: &[Action]) -> Action;
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
    fn choose(&mut self, _: &Game, _: &State, legal: &[Action]) -> Action {
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
    let roster = game.roster();
    *candidates
        .iter()
        .min_by_key(|b| {
            let block = roster.block(**b);
            let attacking = Some(state.side(**b)) == attacker;
            (
                block.firepower,
                std::cmp::Reverse(block.initiative(attacking)),
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
pub fn play_on(
    game: &Game,
    mut state: State,
    players: &mut [Box<dyn Player>; 2],
    log: &mut impl crate::engine::Log,
) -> State {
    let mut legal = Vec::new();
    while let Some(side) = state.current_player() {
        state.legal_actions(game, &mut legal);
        let action = players[side.index()].choose(game, &state, &legal);
        state.apply_logged(game, action, log);
    }
    state
}
