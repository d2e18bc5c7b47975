//! Legal actions kept from one decision to the next (issue 42, item 5).
//!
//! A levy decision lists every pool block in every friendly city where it
//! may be levied, and the levies follow one another with little change: a
//! levy takes one block out of the pool, an added step fills a block. After
//! those, the next decision's list is the last one with what the action
//! changed put right. Anything else, or any case where the order of the
//! list could change, is listed whole. (A group's next step was kept the
//! same way and measured: putting one member's steps right cost more than
//! listing the whole group, 840 against 643 instructions a decision in the
//! random mirror, so group steps are listed whole.) An audited game
//! ([`super::audit`]) checks every kept list against the whole list.

use super::{Action, CommandStep, Game, Phase, State};
use crate::scenario::model::{BlockId, SpaceId};

/// What a kept list depends on besides the blocks: the decision it is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decision {
    phase: Phase,
    step: CommandStep,
    group: Option<SpaceId>,
}

impl State {
    fn decision(&self) -> Decision {
        Decision {
            phase: self.phase,
            step: self.command.step(),
            group: self.command.group(),
        }
    }

    /// Applies `action` and leaves in `legal` the legal actions of the
    /// decision that follows. `legal` must hold the actions of the decision
    /// `action` was chosen from (as [`State::legal_actions`] listed them);
    /// the result is the list [`State::legal_actions`] would give, in its
    /// order.
    pub fn apply_and_relist(&mut self, game: &Game, action: Action, legal: &mut Vec<Action>) {
        self.apply_and_relist_logged(game, action, legal, &mut super::NoLog);
    }

    /// [`State::apply_and_relist`], telling `log` what happened.
    pub fn apply_and_relist_logged(
        &mut self,
        game: &Game,
        action: Action,
        legal: &mut Vec<Action>,
        log: &mut impl super::Log,
    ) {
        let before = self.decision();
        self.apply_logged(game, action, log);
        let kept = self.decision() == before
            && matches!(self.phase, Phase::Command(_))
            && match action {
                Action::Levy { block, at } => self.relist_after_levy(game, block, at, legal),
                Action::AddStep(block) => {
                    if !self.may_add_step(game, block) {
                        legal.retain(|a| *a != Action::AddStep(block));
                    }
                    true
                }
                _ => false,
            };
        if !kept {
            self.legal_actions(game, legal);
        } else if super::audit::enabled() {
            let mut whole = Vec::new();
            self.legal_actions(game, &mut whole);
            assert_eq!(*legal, whole, "the list kept after {action:?}");
        }
    }

    /// After `block` was levied at `at`: its levies go, its added step
    /// comes in among the others. False when the order of the cities in the
    /// list may have changed (they are listed in the order of their lowest
    /// block: `block` is now the lowest at `at`).
    fn relist_after_levy(
        &self,
        game: &Game,
        block: BlockId,
        at: SpaceId,
        legal: &mut Vec<Action>,
    ) -> bool {
        let side = self.board.block(block).side();
        let lower_there = self
            .board
            .on_map(side)
            .iter()
            .take_while(|id| *id < block)
            .any(|id| self.board.block(id).loc() == at.0);
        if !lower_there {
            return false;
        }
        legal.retain(|a| !matches!(a, Action::Levy { block: b, .. } if *b == block));
        if self.may_add_step(game, block) {
            let at = legal
                .iter()
                .position(|a| match a {
                    Action::AddStep(b) => *b > block,
                    Action::EndLevy => true,
                    _ => false,
                })
                .unwrap_or(legal.len());
            legal.insert(at, Action::AddStep(block));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn rule_6_4_the_list_kept_after_each_levy_is_the_list_made_whole() {
        // Random play under both editions: after every action the kept list
        // is the whole list, in its order; and levies in a row are kept.
        let mut levies_in_a_row = 0;
        for variant in ["rules-1.1", "rules-2.0"] {
            let game = crate::test_support::published(variant);
            for seed in 0..12 {
                let mut state = State::new(&game, seed);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let (mut kept, mut whole) = (Vec::new(), Vec::new());
                state.legal_actions(&game, &mut kept);
                let mut last = None;
                while state.current_player().is_some() {
                    let action = kept[rng.random_range(0..kept.len())];
                    if matches!(last, Some(Action::Levy { .. } | Action::AddStep(_)))
                        && matches!(action, Action::Levy { .. } | Action::AddStep(_))
                    {
                        levies_in_a_row += 1;
                    }
                    state.apply_and_relist(&game, action, &mut kept);
                    state.legal_actions(&game, &mut whole);
                    assert_eq!(kept, whole, "{variant}, seed {seed}, after {action:?}");
                    last = Some(action);
                }
            }
        }
        assert!(levies_in_a_row > 100, "{levies_in_a_row} levies in a row");
    }
}
