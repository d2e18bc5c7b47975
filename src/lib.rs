//! Caesar Workbench: the published game of Julius Caesar (Columbia Games) as
//! editable data, a validator, a rules engine, AI players and simulations,
//! with a window over them ([`app`]). The command line (`src/cli`) and the
//! window are thin shells over the core (`caesar_core`, rooted at
//! `src/core.rs`), whose layers this crate re-exports under the same paths:
//! `caesar_workbench::engine` is the core's engine.

pub use caesar_core::*;

#[cfg(feature = "gui")]
pub mod app;

/// What the window's unit tests share.
#[cfg(all(test, feature = "gui"))]
pub(crate) mod test_support {
    use crate::engine::Game;
    use crate::scenario::rules::RuleSet;

    /// The published game under a built-in rule set (the core's own
    /// `test_support` is its tests' alone).
    pub(crate) fn published(variant: &str) -> Game {
        let rules = RuleSet::builtin(variant);
        Game::from_document(&crate::scenario::historical(), rules, None).expect("a built-in game")
    }
}
