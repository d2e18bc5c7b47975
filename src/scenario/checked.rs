//! A scenario and a rule set the validator accepted: the only way from a
//! document to something the engine starts a game on
//! ([`crate::engine::Game::from_checked`]), so no front end (the CLI,
//! records, position files, sweeps, the window) can play a scenario the
//! validator rejects.

use std::fmt;
use std::sync::Arc;

use crate::scenario::diagnostics::{Finding, Severity};
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Scenario;
use crate::scenario::playable::{self, Unplayable};
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

/// A validated scenario model and the rule set it was validated under. Its
/// fields are private: only [`CheckedScenario::from_document`] makes one.
#[derive(Debug, Clone)]
pub struct CheckedScenario {
    scenario: Arc<Scenario>,
    rules: Arc<RuleSet>,
}

impl CheckedScenario {
    /// Validates `doc` under `rules`, refusing errors and whatever the engine
    /// cannot play ([`playable::check`]). `variant` is the variant as the
    /// user named it: when given, findings about the rule set point at the
    /// fields of its file.
    pub fn from_document(
        doc: &ResolvedScenario,
        rules: RuleSet,
        variant: Option<&str>,
    ) -> Result<CheckedScenario, NotPlayable> {
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
        let unmet = playable::check(&report.scenario.deck, &rules);
        if !unmet.is_empty() {
            return Err(NotPlayable::Unplayable(unmet));
        }
        Ok(CheckedScenario {
            scenario: Arc::new(report.scenario),
            rules: Arc::new(rules),
        })
    }

    /// The model and the rule set, for the engine to start on.
    pub fn into_parts(self) -> (Arc<Scenario>, Arc<RuleSet>) {
        (self.scenario, self.rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::diagnostics::Code;

    #[test]
    fn the_published_game_is_checked_and_a_scenario_with_errors_is_refused_with_them() {
        let doc = crate::scenario::historical();
        assert!(CheckedScenario::from_document(&doc, RuleSet::builtin("rules-2.0"), None).is_ok());
        let mut rules = RuleSet::builtin("rules-2.0");
        rules.battle_rounds = 1;
        let Err(NotPlayable::Invalid(findings)) = CheckedScenario::from_document(&doc, rules, None)
        else {
            panic!("one battle round leaves no retreat round (7.6) and is refused");
        };
        assert!(findings.iter().all(|f| f.severity == Severity::Error));
        assert!(
            findings.iter().any(|f| f.code == Code::TooFewBattleRounds),
            "{findings:?}"
        );
    }
}
