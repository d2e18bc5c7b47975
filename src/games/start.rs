//! The one door from a scenario document to a game, for every front end:
//! the engine starts only from a checked scenario
//! ([`Game::from_checked`]), so reading the file format stays out of it.

use crate::engine::Game;
use crate::scenario::checked::{CheckedScenario, NotPlayable};
use crate::scenario::format::ResolvedScenario;
use crate::scenario::rules::RuleSet;

impl Game {
    /// [`CheckedScenario::from_document`] (the validator's errors and what
    /// the engine cannot play refuse it, with the findings), then
    /// [`Game::from_checked`]. `variant` as the user named it points the
    /// findings at its file.
    pub fn from_document(
        doc: &ResolvedScenario,
        rules: RuleSet,
        variant: Option<&str>,
    ) -> Result<Game, NotPlayable> {
        CheckedScenario::from_document(doc, rules, variant).map(Game::from_checked)
    }
}
