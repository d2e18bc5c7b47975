//! A player that looks ahead: flat Monte Carlo over its card choices and over
//! how boldly it moves each turn.
//!
//! Two kinds of decision are searched:
//! - each card play and each yearly discard: every distinct card of the hand;
//! - the start of each of its command phases: the [`Style`] its heuristic
//!   moves in for the rest of the game turn (steady, bold or cautious). A
//!   style is a coherent plan for every group, so a playout judges it as it
//!   will be played; searching single groups instead fared no better than
//!   the heuristic, which plays a group it did not pick poorly.
//!
//! Candidates are tried in sampled worlds — the hidden parts (the opponent's
//! hand and unseen blocks, and all future dice) redrawn consistently with what
//! this side knows ([`SideView::sample_world`]) — played out to the end of the game
//! by heuristic players. Every candidate is played in the same worlds with the
//! same dice and playout players (common random numbers). The score is win 1,
//! draw ½, plus 0.01 per VP of final margin. The heuristic's own choice is
//! kept unless another candidate beats it by more than one standard error of
//! the paired difference, so that ties and noise never replace a sensible
//! move by an arbitrary one. Every other decision is the heuristic's.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{HeuristicPlayer, Player, Style, play_on};
use crate::engine::{Action, Game, NoLog, SideView, State};
use crate::model::Side;

pub struct SearchPlayer {
    side: Side,
    omniscient: bool,
    playouts: u32,
    rng: ChaCha8Rng,
    heuristic: HeuristicPlayer,
    /// The (year, turn) whose command-phase style was last chosen.
    styled: Option<(u8, u8)>,
    /// Counts the playouts played, for whoever watches it think.
    playouts_done: Option<Arc<AtomicU64>>,
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
            styled: None,
            playouts_done: None,
        }
    }

    /// Counts every playout into `counter` (a window shows it thinking).
    pub fn counting_playouts(mut self, counter: Arc<AtomicU64>) -> SearchPlayer {
        self.playouts_done = Some(counter);
        self
    }

    /// Plays `world` to the end with heuristic players (Caesar's and
    /// Pompey's seeds given; this side's player in `style` for this turn)
    /// and scores the end for this side.
    fn playout_value(
        &self,
        game: &Game,
        world: State,
        player_seeds: [u64; 2],
        style: Style,
    ) -> f64 {
        let mut players: [Box<dyn Player>; 2] = Side::BOTH.map(|side| {
            let mut player =
                HeuristicPlayer::new(side, player_seeds[side.index()], self.omniscient);
            if side == self.side && style != Style::STEADY {
                player.set_turn_style(style, world.year(), world.turn());
            }
            Box::new(player) as Box<dyn Player>
        });
        let end = play_on(game, world, &mut players, &mut NoLog);
        if let Some(counter) = &self.playouts_done {
            counter.fetch_add(1, Ordering::Relaxed);
        }
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

    /// Which of `n` candidates plays best: each is tried in the same sampled
    /// worlds with the same dice and playout players (common random
    /// numbers), `play` applying candidate `i` to a world and playing it out.
    /// The heuristic's own candidate `anchor` is kept unless another beats
    /// it clearly over the shared worlds: ties and noise keep the sensible
    /// move.
    fn compare(
        &mut self,
        game: &Game,
        view: &SideView<'_>,
        n: usize,
        anchor: usize,
        play: impl Fn(&Self, State, usize, [u64; 2]) -> f64,
    ) -> usize {
        // The budget is shared out in whole rounds: each round is one world
        // in which every candidate is played.
        let rounds = (self.playouts as usize / n).max(2);
        let mut values = vec![0.0f64; n * rounds];
        for r in 0..rounds {
            let world = view.sample_world(game, &mut self.rng);
            let seeds = [self.rng.random(), self.rng.random()];
            for i in 0..n {
                values[i * rounds + r] = play(self, world.clone(), i, seeds);
            }
        }
        let of = |i: usize| &values[i * rounds..(i + 1) * rounds];
        let mean = |i: usize| of(i).iter().sum::<f64>() / rounds as f64;
        let best = (0..n)
            .max_by(|&a, &b| mean(a).total_cmp(&mean(b)))
            .unwrap_or(anchor);
        if best == anchor {
            return anchor;
        }
        let diffs: Vec<f64> = of(best)
            .iter()
            .zip(of(anchor))
            .map(|(b, a)| b - a)
            .collect();
        let d_mean = diffs.iter().sum::<f64>() / rounds as f64;
        let variance =
            diffs.iter().map(|d| (d - d_mean).powi(2)).sum::<f64>() / (rounds - 1) as f64;
        let stderr = (variance / rounds as f64).sqrt();
        if d_mean > stderr { best } else { anchor }
    }

    /// A card to play or discard.
    fn choose_card(&mut self, game: &Game, view: &SideView<'_>, legal: &[Action]) -> Action {
        let heuristic = self.heuristic.choose(game, *view, legal);
        let anchor = legal.iter().position(|a| *a == heuristic).unwrap_or(0);
        let i = self.compare(
            game,
            view,
            legal.len(),
            anchor,
            |me, mut world, i, seeds| {
                world.apply(game, legal[i]);
                me.playout_value(game, world, seeds, Style::STEADY)
            },
        );
        legal[i]
    }

    /// How boldly to move this command phase.
    fn choose_style(&mut self, game: &Game, view: &SideView<'_>) -> Style {
        let i = self.compare(game, view, Style::ALL.len(), 0, |me, world, i, seeds| {
            me.playout_value(game, world, seeds, Style::ALL[i])
        });
        Style::ALL[i]
    }
}

impl Player for SearchPlayer {
    fn omniscient(&self) -> bool {
        self.omniscient
    }

    fn choose(&mut self, game: &Game, view: SideView<'_>, legal: &[Action]) -> Action {
        if legal.len() > 1 && matches!(legal[0], Action::Play(_) | Action::Discard(_)) {
            return self.choose_card(game, &view, legal);
        }
        // The first move decision of this side's command phase.
        let now = (view.year(), view.turn());
        if legal.len() > 1 && legal.contains(&Action::EndMoves) && self.styled != Some(now) {
            self.styled = Some(now);
            let style = self.choose_style(game, &view);
            self.heuristic.set_turn_style(style, now.0, now.1);
        }
        self.heuristic.choose(game, view, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card decision with several cards plays out every card in at least
    /// two worlds, and the counter sees each playout.
    #[test]
    fn the_playout_counter_counts_each_playout() {
        let game = Game::published("rules-2.0");
        let state = State::new(&game, 3);
        let mut legal = Vec::new();
        state.legal_actions(&game, &mut legal);
        assert!(legal.len() > 1, "a hand of several cards to discard");
        let counter = Arc::new(AtomicU64::new(0));
        let side = state.current_player().unwrap();
        let mut player = SearchPlayer::new(side, 1, false, 8).counting_playouts(counter.clone());
        let action = crate::ai::decide(&mut player, &game, &state, &legal);
        assert!(legal.contains(&action));
        let rounds = (8 / legal.len()).max(2) as u64;
        assert_eq!(counter.load(Ordering::Relaxed), rounds * legal.len() as u64);
    }
}
