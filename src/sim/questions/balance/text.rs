//! A balance report in words: the verdict, and each report's text.

use std::fmt;

use super::compare::BalanceComparison;
use super::options::Oracle;
use super::play::Challenge;
use super::report::{BalanceReport, Response, Round};
use crate::scenario::model::Side;

/// "a", "a and b", "a, b and c".
fn listed(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How the best responses of `oracles` were found, in words.
pub(super) fn oracle_words(oracles: &[Oracle]) -> String {
    let words: Vec<&str> = oracles.iter().map(|o| o.words()).collect();
    match words.as_slice() {
        [] => "no training".to_string(),
        [one] => format!("{one} alone"),
        many => listed(many),
    }
}

/// The kinds of best response a run did not train, in words; `None` when
/// it trained them all.
pub(super) fn untried_oracles(oracles: &[Oracle]) -> Option<String> {
    let untried: Vec<&str> = Oracle::ALL
        .iter()
        .filter(|o| !oracles.contains(o))
        .map(|o| o.untried())
        .collect();
    (!untried.is_empty()).then(|| listed(&untried))
}

impl BalanceReport {
    /// The verdict in words.
    pub fn verdict(&self) -> String {
        if self.caesar_mix.is_empty() {
            return format!(
                "No equilibrium yet: the run stopped before its first table was solved ({}).",
                self.stopped
            );
        }
        let v = self.value;
        let mut text = format!(
            "At equilibrium Caesar wins {:.0}% ({:.0}–{:.0}).",
            v.estimate * 100.0,
            v.ci95[0] * 100.0,
            v.ci95[1] * 100.0
        );
        let last = self.rounds.iter().rev().find(|r| !r.responses.is_empty());
        match (last, self.exploitability) {
            (Some(round), Some(e)) => {
                let best = |side: Side| {
                    round
                        .responses
                        .iter()
                        .filter(|r| r.side == side)
                        .map(Response::counted_gain)
                        .fold(f64::NEG_INFINITY, f64::max)
                        .max(0.0)
                        * 100.0
                };
                let bound = e.ci95[1].max(e.estimate) * 100.0;
                let (caesar, pompey) = (best(Side::Caesar), best(Side::Pompey));
                let untested = self.rounds.last().is_some_and(|r| r.round > round.round);
                match untried_oracles(&self.options.oracles) {
                    // Some joined and the table was solved again: the gains
                    // were against the mix before them, not this one.
                    _ if untested => text.push_str(&format!(
                        " Round {}'s best responses gained {caesar:.1} (Caesar) and {pompey:.1} (Pompey) points against the mixes before them and joined; no best response has been tried against this equilibrium yet (resume the run with more --rounds).",
                        round.round
                    )),
                    None => text.push_str(&format!(
                        " The best new players either side could find gained {caesar:.1} (Caesar) and {pompey:.1} (Pompey) points: no player we could build moves it by more than {bound:.1}."
                    )),
                    // The claim reaches only as far as the trainings tried.
                    Some(untried) => text.push_str(&format!(
                        " The best new players either side could find by {} gained {caesar:.1} (Caesar) and {pompey:.1} (Pompey) points: none of those moves it by more than {bound:.1}; {untried} were not tried.",
                        oracle_words(&self.options.oracles)
                    )),
                }
            }
            _ if !self.is_done() && !self.options.oracles.is_empty() => text.push_str(
                " Best responses are still to be trained: until they are, this is the equilibrium of the players given.",
            ),
            _ => text.push_str(
                " No best response was trained: this is the equilibrium of the players given, not yet a claim that no player moves it.",
            ),
        }
        if let Some(words) = self.coverage_words() {
            text.push(' ');
            text.push_str(&words);
        }
        if self.stability < 0.8 {
            text.push_str(&format!(
                " The mixes are unsettled: {:.0}% of the resamples use the same players.",
                self.stability * 100.0
            ));
        }
        text
    }

    /// What the value rests on where the table is not whole: the players
    /// it is solved over and the deciding pairings short of their games;
    /// `None` for a whole table.
    pub fn coverage_words(&self) -> Option<String> {
        let c = self.coverage?;
        let mut parts = Vec::new();
        let [caesar, pompey] = c.solved;
        if caesar < self.caesar.len() || pompey < self.pompey.len() {
            parts.push(format!(
                "It rests on {caesar} of Caesar's {} players and {pompey} of Pompey's {}, the cheapest first: the others' games were not played yet.",
                self.caesar.len(),
                self.pompey.len()
            ));
        }
        if c.deciding_short > 0 {
            parts.push(format!(
                "{} pairing{} that decide{} it ha{} fewer games than the {} asked (the fewest {}).",
                c.deciding_short,
                if c.deciding_short == 1 { "" } else { "s" },
                if c.deciding_short == 1 { "s" } else { "" },
                if c.deciding_short == 1 { "s" } else { "ve" },
                c.asked_games,
                c.fewest_games
            ));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

impl fmt::Display for BalanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Balance at equilibrium: {} on {} ({} games, {:.0} s)",
            self.variant, self.played_on.scenario, self.games_played, self.elapsed_seconds
        )?;
        writeln!(f, "{}", self.verdict())?;
        if !self.left_out.is_empty() {
            writeln!(
                f,
                "Left out of the setup's library: {}",
                self.left_out.join("; ")
            )?;
        }
        writeln!(f)?;
        // The interval is the table's dice; another seed trains other
        // responses, and only pooling runs says how far that moves it.
        writeln!(
            f,
            "Caesar's share at equilibrium: {} % (the interval: this table's dice, not other seeds' players)",
            self.value.points()
        )?;
        if let Some(e) = self.exploitability {
            writeln!(
                f,
                "Exploitability, a lower bound (both sides' best gains among the responses trained; a stronger player may gain more): {} points",
                e.points()
            )?;
        }
        writeln!(
            f,
            "Stable under the bootstrap: {:.0}% of {} resamples keep the same players in each mix",
            self.stability * 100.0,
            self.options.replicates
        )?;
        for (side, mix, regret, members) in [
            (
                Side::Caesar,
                &self.caesar_mix,
                &self.caesar_regret,
                &self.caesar,
            ),
            (
                Side::Pompey,
                &self.pompey_mix,
                &self.pompey_regret,
                &self.pompey,
            ),
        ] {
            writeln!(f)?;
            writeln!(f, "{side}'s mix:")?;
            for w in mix {
                writeln!(
                    f,
                    "  {:5.1}%  {}  ({})",
                    w.weight * 100.0,
                    w.words,
                    w.player
                )?;
            }
            writeln!(
                f,
                "{side}'s players, regret against the other side's mix (points):"
            )?;
            for (m, r) in members.iter().zip(regret) {
                writeln!(f, "  {:6.1}  {}", r * 100.0, m.words)?;
            }
        }
        if !self.mirrors.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "What the mirror matches would have said (Caesar's share):"
            )?;
            for m in &self.mirrors {
                writeln!(
                    f,
                    "  {} %  {} ({} games)",
                    m.share.points(),
                    m.words,
                    m.games
                )?;
            }
        }
        writeln!(f)?;
        writeln!(f, "Rounds:")?;
        for round in &self.rounds {
            write!(f, "{round}")?;
        }
        writeln!(f, "Stopped: {}", self.stopped)
    }
}

/// A round's lines in the text report: its table and its responses.
impl fmt::Display for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "  {}: {}×{} players, value {} %",
            self.round,
            self.caesar_players,
            self.pompey_players,
            self.value.points()
        )?;
        match self.exploitability {
            Some(e) => writeln!(f, ", exploitability {} points", e.points())?,
            None => writeln!(f)?,
        }
        for resp in &self.responses {
            writeln!(
                f,
                "     {} {}: gains {} points over {} games{}",
                resp.side,
                resp.words,
                resp.gain.points(),
                resp.games,
                match (resp.joined, resp.member_again) {
                    (true, _) => " (joined)",
                    (false, true) => " (a member's numbers again: it counts 0)",
                    (false, false) => "",
                }
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} as {} against the other side's equilibrium mix ({} games, seed {}):",
            self.words, self.side, self.games, self.seed
        )?;
        writeln!(f, "  {}'s share: {} %", self.side, self.share.points())?;
        writeln!(f, "  value at equilibrium: {} %", self.value.points())?;
        writeln!(f, "  gain over the value: {} points", self.gain.points())
    }
}

impl BalanceComparison {
    /// What tells A and B apart: their rule sets, or their setups when the
    /// rule set is one.
    pub fn labels(&self) -> [&str; 2] {
        if self.a.variant == self.b.variant {
            [&self.a.played_on.scenario, &self.b.played_on.scenario]
        } else {
            [&self.a.variant, &self.b.variant]
        }
    }
}

impl fmt::Display for BalanceComparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.labels();
        writeln!(
            f,
            "Caesar's share at equilibrium: {a} {} %, {b} {} %",
            self.a.value.points(),
            self.b.value.points()
        )?;
        writeln!(
            f,
            "Difference ({a} − {b}): {} points, {}",
            self.difference.points(),
            if self.held_every_round {
                "its sign held at every round"
            } else {
                "its sign changed between rounds"
            }
        )?;
        writeln!(f)?;
        write!(f, "{}", self.a)?;
        writeln!(f)?;
        write!(f, "{}", self.b)
    }
}
