//! Caesar Workbench: the published game of Julius Caesar (Columbia Games) as
//! editable data, a validator, a rules engine, AI players and simulations.
//! The window ([`app`]) and the command line (`src/cli`) are thin shells over
//! this library.
//!
//! Each folder is a layer, and data flows one way through them
//! (`docs/architecture.md`): files ([`files`]) → the scenario and rule sets
//! as data, checked ([`scenario`]) → the rules engine ([`engine`]) → AI
//! players ([`ai`]) → simulations and reports ([`sim`]) → games written
//! down ([`games`]) → the window. A layer uses only the layers before it.

pub mod ai;
pub mod engine;
pub mod files;
pub mod games;
pub mod scenario;
pub mod sim;

#[cfg(feature = "gui")]
pub mod app;

/// What the library's unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::engine::Game;
    use crate::scenario::rules::RuleSet;

    /// The published game under a built-in rule set.
    pub(crate) fn published(variant: &str) -> Game {
        Game::from_document(
            &crate::scenario::historical(),
            RuleSet::builtin(variant),
            None,
        )
        .expect("the published game is valid under every built-in rule set")
    }
}
