//! The balance at equilibrium measured for a setup, where one has been:
//! what the Setup tab's players line and `explain`'s default players read
//! (and the ladder names beside its own rungs).
//!
//! A setup saved to a file keeps its own in its bundle folder,
//! `NAME.players/balance.json` (`balance --out NAME.players/balance.json`,
//! or the Balance tab with that folder); the published game under each
//! built-in rule set has one built into the program
//! ([`crate::ai::shipped::BALANCES`]). A report is taken only for the setup
//! and rule set it was made on (by digest), with every player playing as it
//! did when measured.

use std::path::{Path, PathBuf};

use super::{BalanceReport, check_setup, reload_players};
use crate::ai::shipped;
use crate::engine::Game;
use crate::scenario::model::Side;

/// A setup's own balance report, in its bundle folder.
pub const BUNDLE_BALANCE: &str = "balance.json";

/// A balance read for a setup, its players loaded.
#[derive(Debug, Clone)]
pub struct Measured {
    pub report: BalanceReport,
    /// Where it was read: a file, or the program's built-in copy.
    pub source: Source,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    /// Built into the program under this name (`variants/players/NAME`).
    Shipped(&'static str),
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::File(path) => write!(f, "{}", path.display()),
            Source::Shipped(name) => write!(f, "the built-in {}", shipped::path_of(name)),
        }
    }
}

/// Why a setup's own balance report cannot be read for it.
#[derive(Debug, thiserror::Error)]
#[error("the balance report {path} {why}")]
pub struct MeasuredError {
    pub path: PathBuf,
    pub why: String,
}

/// The balance measured for `game`: the bundle folder's report when there
/// is one (an error when it does not hold for this setup, rather than
/// passing over it), else the built-in one for the published game under a
/// built-in rule set, else none. A report holds no equilibrium until its
/// first table is solved.
pub fn measured(game: &Game, bundle: Option<&Path>) -> Result<Option<Measured>, MeasuredError> {
    if let Some(path) = bundle.map(|dir| dir.join(BUNDLE_BALANCE))
        && path.is_file()
    {
        let fail = |why: String| MeasuredError {
            path: path.clone(),
            why,
        };
        let bytes = crate::files::read_bytes(&path, 512 << 20)
            .map_err(|e| fail(format!("cannot be read: {e}")))?;
        let report: BalanceReport = serde_json::from_slice(&bytes).map_err(|e| {
            fail(format!(
                "is not a balance report at line {}, column {}: {e}",
                e.line(),
                e.column()
            ))
        })?;
        let report = loaded(report, game).map_err(|e| fail(e.to_string()))?;
        return Ok(Some(Measured {
            report,
            source: Source::File(path),
        }));
    }
    Ok(shipped::BALANCES.iter().find_map(|(name, text)| {
        let report: BalanceReport = serde_json::from_str(text).ok()?;
        let report = loaded(report, game).ok()?;
        Some(Measured {
            report,
            source: Source::Shipped(name),
        })
    }))
}

/// `report` with its players read, if it holds an equilibrium of `game`.
fn loaded(mut report: BalanceReport, game: &Game) -> Result<BalanceReport, Unusable> {
    check_setup(&report, game).map_err(Unusable::Elsewhere)?;
    if report.caesar_mix.is_empty() || report.pompey_mix.is_empty() {
        return Err(Unusable::NoEquilibrium);
    }
    reload_players(&mut report).map_err(Unusable::Players)?;
    Ok(report)
}

/// Why a report read for a setup is not its balance.
#[derive(Debug, thiserror::Error)]
enum Unusable {
    #[error("does not hold here: {0}")]
    Elsewhere(super::BalanceError),
    #[error("holds no equilibrium yet: its run stopped before the first table was solved")]
    NoEquilibrium,
    #[error("{0}")]
    Players(super::BalanceError),
}

impl Measured {
    /// Each side's mix as one player (`equilibrium:REPORT`): each game
    /// plays a member drawn by weight from its seed.
    pub fn player(&self) -> Result<crate::ai::AiSpec, crate::ai::NotAPlayer> {
        let path = match &self.source {
            Source::File(path) => path.display().to_string(),
            Source::Shipped(name) => shipped::path_of(name),
        };
        format!("equilibrium:{path}").parse()
    }

    /// Whether every player of both mixes plays without searching: the mix
    /// then costs what the heuristic does, and may stand as the default
    /// players of runs of thousands of games.
    pub fn mix_is_fast(&self) -> bool {
        let r = &self.report;
        [Side::Caesar, Side::Pompey].into_iter().all(|side| {
            r.mix(side)
                .iter()
                .all(|(_, m)| m.spec.as_ref().is_some_and(|s| super::cost_rank(s) == 0))
        })
    }

    /// One line for the Setup tab and the commands that read it: the value,
    /// how far it is settled, and what it rests on.
    pub fn line(&self) -> String {
        let r = &self.report;
        let v = r.value;
        let settled = match r.exploitability {
            Some(e) => format!(
                "the best new players found still gained {:.1} points (exploitability)",
                e.estimate * 100.0
            ),
            None => "no best response was trained against it".to_string(),
        };
        format!(
            "at equilibrium Caesar wins {:.0}% ({:.0}–{:.0}); {settled}; it rests on {} ({})",
            v.estimate * 100.0,
            v.ci95[0] * 100.0,
            v.ci95[1] * 100.0,
            r.population_words(),
            self.source
        )
    }
}

impl BalanceReport {
    /// What the equilibrium rests on, in words: each side's players by
    /// origin, and the rounds of best responses.
    pub fn population_words(&self) -> String {
        use super::Origin;
        let side = |members: &[super::Member]| {
            let count =
                |f: &dyn Fn(&Origin) -> bool| members.iter().filter(|m| f(&m.origin)).count();
            let parts: Vec<String> = [
                (count(&|o| *o == Origin::Shipped), "shipped"),
                (count(&|o| *o == Origin::Fitted), "fitted for this setup"),
                (count(&|o| *o == Origin::Named), "named"),
                (
                    count(&|o| matches!(o, Origin::Trained { .. })),
                    "trained as best responses",
                ),
                (
                    count(&|o| matches!(o, Origin::Kept { .. })),
                    "kept from earlier runs",
                ),
            ]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
            format!("{} players ({})", members.len(), parts.join(", "))
        };
        let rounds = self
            .rounds
            .iter()
            .filter(|r| !r.responses.is_empty())
            .count();
        format!(
            "Caesar's {} and Pompey's {}, after {rounds} round{} of best responses and {} games",
            side(&self.caesar),
            side(&self.pompey),
            if rounds == 1 { "" } else { "s" },
            self.games_played
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::questions::balance::tests::solved_report;

    #[test]
    fn a_bundles_balance_is_read_for_its_setup_and_refused_for_another() {
        let game = crate::test_support::published("rules-2.0");
        let report = solved_report(&game);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(BUNDLE_BALANCE),
            serde_json::to_string(&report).unwrap(),
        )
        .unwrap();
        let found = measured(&game, Some(dir.path())).unwrap().unwrap();
        assert_eq!(found.report.value, report.value);
        assert_eq!(found.source, Source::File(dir.path().join(BUNDLE_BALANCE)));
        let line = found.line();
        assert!(line.contains("at equilibrium Caesar wins"), "{line}");
        assert!(
            line.contains("Caesar's 2 players (1 shipped, 1 named)"),
            "{line}"
        );
        assert!(line.contains("no best response was trained"), "{line}");
        let player = found.player().unwrap();
        assert_eq!(
            player.to_string(),
            format!("equilibrium:{}", dir.path().join(BUNDLE_BALANCE).display())
        );
        // Under another rule set the bundle's report is refused, not passed over.
        let other = crate::test_support::published("rules-1.1");
        let err = measured(&other, Some(dir.path())).unwrap_err();
        assert!(err.to_string().contains("another rule set"), "{err}");
    }

    #[test]
    fn a_malformed_bundle_balance_says_where() {
        let game = crate::test_support::published("rules-2.0");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(BUNDLE_BALANCE), "{\n  \"variant\": 3\n}").unwrap();
        let err = measured(&game, Some(dir.path())).unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn every_built_in_balance_holds_for_the_published_game_under_its_rule_set() {
        let mut read = Vec::new();
        for rules in ["rules-1.1", "rules-2.0"] {
            let game = crate::test_support::published(rules);
            let found = measured(&game, None)
                .unwrap()
                .unwrap_or_else(|| panic!("no built-in balance for {rules}"));
            assert!(found.report.is_done(), "{rules}");
            assert!(found.line().contains("the built-in"), "{}", found.line());
            read.push(found.source);
        }
        let shipped: Vec<Source> = shipped::BALANCES
            .iter()
            .map(|(name, _)| Source::Shipped(name))
            .collect();
        assert_eq!(read, shipped);
    }
}
