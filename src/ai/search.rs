//! A player that looks ahead: flat Monte Carlo over its card choices.
//!
//! At each card play and each yearly discard it tries every distinct card of
//! its hand in sampled worlds — the hidden parts (the opponent's hand and
//! unseen blocks, and all future dice) redrawn consistently with what this
//! side knows ([`State::determinize`]) — and plays each world out to the end
//! of the game with heuristic players. Every candidate is played in the same
//! worlds with the same dice and playout players (common random numbers), so
//! the comparison between cards is not drowned in the noise between worlds.
//! The card with the best mean result (win 1, draw ½, plus a small VP-margin
//! term) is chosen. Every other decision is the heuristic's.

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{HeuristicPlayer, Player, play_on};
use crate::engine::{Action, Game, NoLog, State};
use crate::format::Side;

pub struct SearchPlayer {
    side: Side,
    omniscient: bool,
    playouts: u32,
    rng: ChaCha8Rng,
    heuristic: HeuristicPlayer,
}

impl SearchPlayer {
    pub fn new(side: Side, seed: u64, omniscient: bool, playouts: u32) -> SearchPlayer {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let heuristic = HeuristicPlayer::new(side, rng.random(), omniscient);
        SearchPlayer {
            side,
            omniscient,
            playouts: playouts.max(1),
            rng,
            heuristic,
        }
    }

    /// A world consistent with what this side knows, with fresh dice.
    fn sample_world(&mut self, game: &Game, state: &State) -> State {
        if self.omniscient {
            let mut world = state.clone();
            world.reseed(self.rng.random());
            world
        } else {
            state.determinize(game, self.side, &mut self.rng)
        }
    }

    fn playout_value(
        &self,
        game: &Game,
        mut world: State,
        action: Action,
        player_seeds: [u64; 2],
    ) -> f64 {
        world.apply(game, action);
        let mut players: [Box<dyn Player>; 2] = [
            Box::new(HeuristicPlayer::new(
                Side::Caesar,
                player_seeds[0],
                self.omniscient,
            )),
            Box::new(HeuristicPlayer::new(
                Side::Pompey,
                player_seeds[1],
                self.omniscient,
            )),
        ];
        let end = play_on(game, world, &mut players, &mut NoLog);
        let Some(outcome) = end.outcome() else {
            return 0.5;
        };
        let me = self.side.index();
        let result = match outcome.winner {
            Some(w) if w == self.side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let margin = outcome.vp[me] as f64 - outcome.vp[1 - me] as f64;
        result + 0.01 * margin.clamp(-10.0, 10.0)
    }

    fn search(&mut self, game: &Game, state: &State, legal: &[Action]) -> Action {
        let n = legal.len();
        let mut total = vec![0.0f64; n];
        // The budget is shared out in whole rounds: each round is one world
        // in which every candidate is played.
        let rounds = (self.playouts / n as u32).max(1);
        for _ in 0..rounds {
            let world = self.sample_world(game, state);
            let seeds = [self.rng.random(), self.rng.random()];
            for (i, action) in legal.iter().enumerate() {
                total[i] += self.playout_value(game, world.clone(), *action, seeds);
            }
        }
        let best = (0..n)
            .max_by(|&a, &b| total[a].total_cmp(&total[b]))
            .unwrap_or(0);
        legal[best]
    }
}

impl Player for SearchPlayer {
    fn choose(&mut self, game: &Game, state: &State, legal: &[Action]) -> Action {
        if legal.len() > 1 && matches!(legal[0], Action::Play(_) | Action::Discard(_)) {
            return self.search(game, state, legal);
        }
        self.heuristic.choose(game, state, legal)
    }
}
