//! The one die (7.4): the seeded ChaCha stream, and the dice a position or
//! a test scripts ahead of it. Every roll and shuffle of the engine draws
//! here, so a seed and a list of actions replay the same game.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The chance stream and the dice scripted before it.
#[derive(Debug, Clone)]
pub(super) struct Dice {
    rng: ChaCha8Rng,
    /// Dice scripted by a position (last to come first), rolled before the
    /// stream's: hidden from every player like the stream itself.
    scripted: Vec<u8>,
}

impl Dice {
    pub(super) fn new(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            scripted: Vec::new(),
        }
    }

    /// A fresh stream from `seed`, nothing scripted.
    pub(super) fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.scripted.clear();
    }

    /// One die: the next scripted die, else the stream's.
    pub(super) fn roll(&mut self) -> u8 {
        use rand::RngExt;
        self.scripted
            .pop()
            .unwrap_or_else(|| self.rng.random_range(1..=6))
    }

    /// The stream itself, for shuffles (the deal, 2.1): never scripted.
    pub(super) fn stream(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// Sets the dice to come, next first (then the stream goes on).
    pub(super) fn script(&mut self, dice: &[u8]) {
        self.scripted = dice.iter().rev().copied().collect();
    }

    /// The dice still scripted to come, next first.
    pub(super) fn scripted(&self) -> Vec<u8> {
        self.scripted.iter().rev().copied().collect()
    }

    /// How much chance has been drawn: the stream's position and the
    /// scripted dice left.
    pub(super) fn drawn(&self) -> (u128, usize) {
        (self.rng.get_word_pos(), self.scripted.len())
    }
}

/// One of `n` equally likely choices by the dice, as 2.0's Jupiter
/// prints it: "For a group of 3, roll 1d6: 1-2 = 1st block, 3-4 = 2nd
/// block, and 5-6 = 3rd. For a group of 5, roll 1d6 and reroll a 6."
/// Each die splits the faces evenly among the choices and rerolls the
/// rest; more than six choices take two dice (36 faces), and so on. One
/// choice takes no roll.
pub(super) fn roll_among_with(n: usize, roll: &mut dyn FnMut() -> u8) -> usize {
    debug_assert!(n > 0);
    loop {
        let (mut faces, mut value) = (1usize, 0usize);
        while faces < n {
            value = value * 6 + (roll() - 1) as usize;
            faces *= 6;
        }
        let per_choice = faces / n;
        if value < per_choice * n {
            return value / per_choice;
        }
    }
}
