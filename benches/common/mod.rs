//! What the benches share.

use caesar_workbench::engine::Game;

/// The published game under a built-in rule set.
pub fn published(variant: &str) -> Game {
    caesar_workbench::scenario::checked::CheckedScenario::from_document(
        &caesar_workbench::scenario::historical(),
        caesar_workbench::scenario::rules::RuleSet::builtin(variant),
        None,
    )
    .map(Game::from_checked)
    .expect("the published game is valid under every built-in rule set")
}
