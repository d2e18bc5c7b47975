//! A game from a checked scenario ([`CheckedScenario`]): the engine knows
//! no file format. Validation stays above it, in
//! [`crate::scenario::checked`]; the door from a document to a game is
//! [`crate::games::start`].

use super::Game;
use crate::scenario::checked::CheckedScenario;
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
