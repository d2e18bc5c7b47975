//! Players that choose actions for a side.

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::{Action, Game, State};

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

/// Plays a whole game; `players` are Caesar's and Pompey's.
pub fn play_game(
    game: &Game,
    seed: u64,
    players: &mut [Box<dyn Player>; 2],
    log: &mut impl crate::engine::Log,
) -> State {
    let mut state = State::new_logged(game, seed, log);
    let mut legal = Vec::new();
    while let Some(side) = state.current_player() {
        state.legal_actions(game, &mut legal);
        let action = players[side.index()].choose(game, &state, &legal);
        state.apply_logged(game, action, log);
    }
    state
}
