//! A game from a checked scenario ([`CheckedScenario`]), as every front end
//! starts one: validation and reading documents stay above the engine, in
//! [`crate::scenario::checked`].

use super::Game;
use crate::scenario::checked::CheckedScenario;
use crate::scenario::format::ResolvedScenario;
use crate::scenario::rules::RuleSet;
// Re-exported so `engine::NotPlayable` keeps naming why no game starts.
pub use crate::scenario::checked::NotPlayable;

impl Game {
    /// A game on a scenario and rule set the validator accepted. Cannot
    /// fail: [`CheckedScenario::from_document`] already refused what the
    /// engine cannot play.
    pub fn from_checked(checked: CheckedScenario) -> Game {
        let (scenario, rules) = checked.into_parts();
        Game::new(scenario, rules)
    }

    /// The one door from a document to a game, for every front end:
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::rules::RuleSet;

    #[test]
    fn the_published_game_starts_from_its_checked_document() {
        let doc = crate::scenario::historical();
        let checked = CheckedScenario::from_document(&doc, RuleSet::builtin("rules-2.0"), None)
            .expect("the published game is valid");
        let game = Game::from_checked(checked);
        assert_eq!(
            game.rules.battle_rounds,
            RuleSet::builtin("rules-2.0").battle_rounds
        );
    }
}
