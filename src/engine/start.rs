//! A game from a scenario document and a rule set, as every front end
//! starts one (the CLI, records, position files, sweeps): validated first,
//! and refused with the validator's errors, so no front end can play a
//! scenario the validator rejects.

use std::fmt;
use std::sync::Arc;

use super::Game;
use crate::scenario::diagnostics::{Finding, Severity};
use crate::scenario::format::ResolvedScenario;
use crate::scenario::playable::Unplayable;
use crate::scenario::rules::RuleSet;
use crate::scenario::validate::{locate_rule_findings, validate};

/// Why a scenario and a rule set give no game.
#[derive(Debug, Clone, PartialEq)]
pub enum NotPlayable {
    /// The validator's errors (warnings are not refused).
    Invalid(Vec<Finding>),
    /// What the engine cannot play; the validator reports these first, so
    /// this is only seen when the validator and the engine disagree.
    Unplayable(Vec<Unplayable>),
}

impl NotPlayable {
    /// One line a problem, as the validator and the engine word them.
    pub fn messages(&self) -> Vec<String> {
        match self {
            NotPlayable::Invalid(findings) => findings.iter().map(Finding::to_string).collect(),
            NotPlayable::Unplayable(unmet) => unmet.iter().map(Unplayable::to_string).collect(),
        }
    }
}

impl fmt::Display for NotPlayable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.messages().join("; "))
    }
}

impl std::error::Error for NotPlayable {}

impl Game {
    /// Validates `doc` under `rules` and starts a game on the result.
    /// `variant` is the variant as the user named it: when given, findings
    /// about the rule set point at the fields of its file.
    pub fn from_document(
        doc: &ResolvedScenario,
        rules: RuleSet,
        variant: Option<&str>,
    ) -> Result<Game, NotPlayable> {
        let mut report = validate(doc, &rules);
        if let Some(variant) = variant {
            locate_rule_findings(&mut report, variant);
        }
        if report.errors() > 0 {
            return Err(NotPlayable::Invalid(
                report
                    .findings
                    .into_iter()
                    .filter(|f| f.severity == Severity::Error)
                    .collect(),
            ));
        }
        Game::try_new(Arc::new(report.scenario), Arc::new(rules)).map_err(NotPlayable::Unplayable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::diagnostics::Code;

    #[test]
    fn the_published_game_starts_and_a_scenario_with_errors_is_refused_with_them() {
        let doc = crate::scenario::historical();
        assert!(Game::from_document(&doc, RuleSet::builtin("rules-2.0"), None).is_ok());
        let mut rules = RuleSet::builtin("rules-2.0");
        rules.battle_rounds = 1;
        let Err(NotPlayable::Invalid(findings)) = Game::from_document(&doc, rules, None) else {
            panic!("one battle round leaves no retreat round (7.6) and is refused");
        };
        assert!(findings.iter().all(|f| f.severity == Severity::Error));
        assert!(
            findings.iter().any(|f| f.code == Code::TooFewBattleRounds),
            "{findings:?}"
        );
    }
}
