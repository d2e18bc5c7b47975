//! The population a balance starts from, and a report's players read back.

use super::report::{
    BalanceError, BalanceReport, MalformedReport, Member, Origin, Stage, bad, spec_digest,
};
use super::run::cost_rank;
use crate::ai::AiSpec;
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::sim::runs::report::PlayedOn;

/// The players a balance starts from for a setup: the default heuristic,
/// every player shipped with a rating under the rule set (or the nearest
/// rule set it extends that has some), the setup's fitted players (its
/// bundle), then the players named; each once, by what it plays. Random
/// is left out: it loses every game, so it is never in a mix.
pub fn population(
    lineage: &[crate::scenario::rules::RuleSet],
    bundle: &[crate::sim::players::ratings::Rating],
    named: &[AiSpec],
    shipped: bool,
) -> Result<Vec<Member>, crate::ai::NotAPlayer> {
    let mut members: Vec<Member> = Vec::new();
    let mut add = |spec: AiSpec, origin: Origin| {
        let m = Member::new(spec, origin);
        if !members.iter().any(|o| o.digest == m.digest) {
            members.push(m);
        }
    };
    if shipped {
        add(AiSpec::Heuristic, Origin::Shipped);
        let ratings = crate::sim::players::ratings::shipped();
        for rules in lineage {
            let ranked = crate::sim::players::ratings::ranked_for(&ratings, &rules.play_digest());
            if ranked.is_empty() {
                continue;
            }
            for r in ranked {
                let spec = crate::sim::players::ratings::shipped_player(&r.player)?;
                if spec != AiSpec::Random {
                    add(spec, Origin::Shipped);
                }
            }
            break;
        }
        for r in bundle {
            add(
                crate::sim::players::ratings::shipped_player(&r.player)?,
                Origin::Fitted,
            );
        }
    }
    for spec in named {
        add(spec.clone(), Origin::Named);
    }
    // The cheapest first: they are the table's first tier and its first
    // answer ([`fill_table`]).
    members.sort_by_key(|m| m.spec.as_ref().map_or(u64::MAX, cost_rank));
    Ok(members)
}

impl BalanceReport {
    /// Checks a report read from a file: a table of the population's shape
    /// holding only game results, and mixes that are mixes.
    pub fn check(&self) -> Result<(), MalformedReport> {
        self.check_counts()?;
        self.check_figures()?;
        self.check_table_and_mixes()
    }

    /// The options, the shard, the players, the cells' games, the stage
    /// and the rounds: what sizes anything, checked first.
    fn check_counts(&self) -> Result<(), MalformedReport> {
        let o = &self.options;
        o.check_limits().map_err(|e| {
            MalformedReport(format!("its field `options` is not as a run's can be: {e}"))
        })?;
        if let Some(shard) = o.shard
            && (shard.count == 0 || shard.index >= shard.count)
        {
            return bad(
                "options.shard",
                format!(
                    "a shard index below its count (got index {} of {})",
                    shard.index, shard.count
                ),
            );
        }
        if self.caesar.is_empty() || self.pompey.is_empty() {
            return bad("caesar/pompey", "at least one player a side".to_string());
        }
        if self
            .table
            .cells
            .iter()
            .flatten()
            .any(|c| self.table.offset.saturating_add(c.games()) > o.games)
        {
            return bad(
                "table",
                format!(
                    "no pairing past the {} games a pairing is asked (with its offset {})",
                    o.games, self.table.offset
                ),
            );
        }
        let most_rounds = o.rounds.saturating_add(1);
        match self.stage {
            Stage::Table(n) | Stage::Responses(n) if n == 0 || n > most_rounds => {
                return bad(
                    "stage",
                    format!("a round from 1 to {most_rounds} (got {n})"),
                );
            }
            Stage::Responses(_) if self.caesar_mix.is_empty() || self.pompey_mix.is_empty() => {
                return bad(
                    "caesar_mix/pompey_mix",
                    "each side's mix before its best responses are trained".to_string(),
                );
            }
            _ => {}
        }
        if self.rounds.len() > most_rounds as usize
            || self
                .rounds
                .iter()
                .any(|r| r.round == 0 || r.round > most_rounds)
        {
            return bad(
                "rounds",
                format!("at most {most_rounds} rounds, numbered from 1"),
            );
        }
        Ok(())
    }

    /// The figures solved from the table: within the players and in range.
    fn check_figures(&self) -> Result<(), MalformedReport> {
        if self.caesar_regret.len() > self.caesar.len()
            || self.pompey_regret.len() > self.pompey.len()
        {
            return bad(
                "caesar_regret/pompey_regret",
                "at most one regret a player".to_string(),
            );
        }
        if let Some(c) = self.coverage
            && (c.solved[0] > self.caesar.len() || c.solved[1] > self.pompey.len())
        {
            return bad("coverage.solved", "at most each side's players".to_string());
        }
        if !(self.stability.is_finite() && (0.0..=1.0).contains(&self.stability)) {
            return bad("stability", "a share from 0 to 1".to_string());
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return bad("elapsed_seconds", "seconds, 0 or more".to_string());
        }
        let share = self.value.estimate;
        let a_share = share.is_finite() && (0.0..=1.0).contains(&share);
        if !self.caesar_mix.is_empty() && !a_share {
            return bad("value", "Caesar's share from 0 to 1".to_string());
        }
        Ok(())
    }

    /// A table of the population's shape holding only game results, and
    /// mixes that are mixes of the side's players.
    fn check_table_and_mixes(&self) -> Result<(), MalformedReport> {
        if self.table.rows() != self.caesar.len()
            || self
                .table
                .cells
                .iter()
                .any(|r| r.len() != self.pompey.len())
        {
            return Err(MalformedReport(format!(
                "its table is not {}×{} as its players are",
                self.caesar.len(),
                self.pompey.len()
            )));
        }
        for cell in self.table.cells.iter().flatten() {
            cell.check().map_err(|e| MalformedReport(e.to_string()))?;
        }
        for (side, mix) in [
            (Side::Caesar, &self.caesar_mix),
            (Side::Pompey, &self.pompey_mix),
        ] {
            if mix
                .iter()
                .any(|w| !(w.weight.is_finite() && (0.0..=1.0).contains(&w.weight)))
            {
                return Err(MalformedReport(format!(
                    "{side}'s mix has a weight outside 0 to 1"
                )));
            }
            let total: f64 = mix.iter().map(|w| w.weight).sum();
            if !mix.is_empty() && (total - 1.0).abs() > 1e-6 {
                return Err(MalformedReport(format!(
                    "{side}'s mix weighs {total}, not 1"
                )));
            }
            if let Some(w) = mix
                .iter()
                .find(|w| !self.members(side).iter().any(|m| m.player == w.player))
            {
                return Err(MalformedReport(format!(
                    "{side}'s mix names {}, who is not among its players",
                    w.player
                )));
            }
        }
        Ok(())
    }
}

/// Reads a saved report's players again (a report keeps their names and
/// digests, not their numbers) and checks that each plays as it did.
pub fn reload_players(report: &mut BalanceReport) -> Result<(), BalanceError> {
    report
        .check()
        .map_err(|e| BalanceError::Resume(e.to_string()))?;
    for m in report.caesar.iter_mut().chain(report.pompey.iter_mut()) {
        let spec = crate::sim::players::ratings::shipped_player(&m.player)
            .map_err(|e| BalanceError::Resume(format!("the report's player {}: {e}", m.player)))?;
        if spec_digest(&spec) != m.digest {
            return Err(BalanceError::Resume(format!(
                "the player {} plays otherwise than when the report was made (its files changed)",
                m.player
            )));
        }
        m.spec = Some(spec);
    }
    Ok(())
}

/// Refuses a saved report made on another setup or rule set than `game`.
pub fn check_setup(report: &BalanceReport, game: &Game) -> Result<(), BalanceError> {
    let here = PlayedOn::of(game);
    if here.scenario_digest != report.played_on.scenario_digest {
        return Err(BalanceError::Resume(format!(
            "the report was made on another setup ({} {}), not this one ({} {})",
            report.played_on.scenario,
            report.played_on.scenario_digest,
            here.scenario,
            here.scenario_digest
        )));
    }
    if here.variant_digest != report.played_on.variant_digest {
        return Err(BalanceError::Resume(format!(
            "the report was made under another rule set ({}, digest {}), not this one (digest {})",
            report.variant, report.played_on.variant_digest, here.variant_digest
        )));
    }
    Ok(())
}
