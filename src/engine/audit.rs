//! The engine's cross-checks, asked for by the games that want them.
//!
//! The engine takes shortcuts: it keeps the occupancy counts up to date
//! instead of counting, keeps a decision's legal list across a levy
//! ([`State::apply_and_relist`]), and looks a group's moves up without
//! forming it ([`super::SideView::moves_after_group`]). An audited game
//! checks, after every action, each shortcut against the slow way: that the
//! action was legal, that the counts are the board counted, that the kept
//! list is the list made whole, and, at each `Group`, that the look ahead is
//! what forming the group gives. That triples an action's cost, so only the
//! games played while an [`Audit`] is held on their thread are audited: the
//! engine's property tests and the rule-set extremes, not the simulations
//! that measure strength over thousands of games. A broken shortcut panics
//! with the action that broke it.

use std::cell::Cell;
use std::marker::PhantomData;

thread_local! {
    static HELD: Cell<u32> = const { Cell::new(0) };
}

/// Audits the games this thread plays while it lives ([`on`]).
#[must_use = "the audit ends when this is dropped"]
pub struct Audit {
    // The audit is this thread's: a game handed to another thread is not.
    _this_thread: PhantomData<*const ()>,
}

/// Audits every action of the games this thread plays until the returned
/// [`Audit`] is dropped. Nests.
pub fn on() -> Audit {
    HELD.with(|held| held.set(held.get() + 1));
    Audit {
        _this_thread: PhantomData,
    }
}

impl Drop for Audit {
    fn drop(&mut self) {
        HELD.with(|held| held.set(held.get() - 1));
    }
}

/// Whether this thread's games are audited now.
pub fn enabled() -> bool {
    HELD.with(|held| held.get() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, State};

    #[test]
    fn an_audit_lasts_while_held_nests_and_stays_on_its_thread() {
        assert!(!enabled());
        let outer = on();
        assert!(enabled());
        assert!(!std::thread::spawn(enabled).join().unwrap());
        {
            let _inner = on();
            assert!(enabled());
        }
        assert!(enabled());
        drop(outer);
        assert!(!enabled());
    }

    fn an_illegal_action(game: &crate::engine::Game, state: &State) -> Action {
        (0..=u8::MAX)
            .map(Action::Discard)
            .find(|a| !state.is_legal(game, *a))
            .expect("some card is not in the hand")
    }

    #[test]
    #[should_panic(expected = "illegal action")]
    fn an_audited_game_refuses_an_illegal_action() {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 3);
        let action = an_illegal_action(&game, &state);
        let _audit = on();
        state.apply(&game, action);
    }

    #[test]
    fn an_audited_game_checks_its_shortcuts_after_every_action() {
        // Whole games by random play through the kept list, under both
        // editions: every check passes, and the games end.
        use rand::{RngExt, SeedableRng};
        let _audit = on();
        for variant in ["rules-1.1", "rules-2.0"] {
            let game = crate::test_support::published(variant);
            let mut state = State::new(&game, 7);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            let mut legal = Vec::new();
            state.legal_actions(&game, &mut legal);
            while state.current_player().is_some() {
                let action = legal[rng.random_range(0..legal.len())];
                state.apply_and_relist(&game, action, &mut legal);
            }
            assert!(state.outcome().is_some(), "{variant}");
        }
    }
}
