//! Simulation reports: integer accumulators that merge exactly, and the
//! figures derived from them (rates with intervals, quartiles, balance).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::stats::{
    Difference, Estimate, Histogram, Summary, paired_mean_difference, paired_proportion_test,
    two_proportion_test,
};
use super::{GameRecord, SimOptions};
use crate::engine::EndReason;
use crate::format::{Event, Side};

/// Everything a run counts. Only integers, so merging shards in any order
/// gives exactly the single-run figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Accumulator {
    pub games: u64,
    pub caesar_wins: u64,
    pub pompey_wins: u64,
    pub draws: u64,
    /// Sudden deaths (1.2) by year (index 0 = year 1), per winner [Caesar, Pompey].
    pub sudden_death_by_year: Vec<[u64; 2]>,
    /// Won on VP after the last year, per winner.
    pub on_vp: [u64; 2],
    /// Won on the Rome tie-break, per winner.
    pub rome_tie_break: [u64; 2],
    /// VP of each side after each year's winter, for the games that got there.
    pub vp_by_year: Vec<[Histogram; 2]>,
    pub final_vp: [Histogram; 2],
    /// |Caesar VP − Pompey VP| at the end.
    pub vp_margin: Histogram,
    /// Times the VP leader changed between consecutive years (ties break no lead).
    pub lead_changes: Histogram,
    /// Years played.
    pub years: Histogram,
    pub battles: Histogram,
    pub steps_lost: [Histogram; 2],
    pub blocks_eliminated: [Histogram; 2],
    pub leaders_killed: [Histogram; 2],
    /// Event cards played, in `Event::ALL` order.
    pub events_played: [u64; 7],
    /// Per side and event: games in which the side played it, and of
    /// those, games the side won.
    pub event_games: [[u64; 7]; 2],
    pub event_wins: [[u64; 7]; 2],
    pub events_cancelled: u64,
    pub first_turn_player1_caesar: u64,
    pub actions: u64,
    /// Wall-clock seconds; summed over merged shards.
    pub elapsed_seconds: f64,
}

impl Accumulator {
    pub fn new(years: u8) -> Accumulator {
        Accumulator {
            sudden_death_by_year: vec![[0, 0]; years as usize],
            ..Accumulator::default()
        }
    }

    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        match r.winner {
            Some(Side::Caesar) => self.caesar_wins += 1,
            Some(Side::Pompey) => self.pompey_wins += 1,
            None => self.draws += 1,
        }
        if let Some(w) = r.winner {
            let i = w.index();
            match r.how {
                EndReason::SuddenDeath => {
                    let y = r.year.max(1) as usize - 1;
                    if self.sudden_death_by_year.len() <= y {
                        self.sudden_death_by_year.resize(y + 1, [0, 0]);
                    }
                    self.sudden_death_by_year[y][i] += 1;
                }
                EndReason::VictoryPoints => self.on_vp[i] += 1,
                EndReason::RomeTieBreak => self.rome_tie_break[i] += 1,
                EndReason::Draw => {}
            }
        }
        for (y, vp) in r.vp_by_year.iter().enumerate() {
            if self.vp_by_year.len() <= y {
                self.vp_by_year.resize(y + 1, Default::default());
            }
            self.vp_by_year[y][0].add(vp[0]);
            self.vp_by_year[y][1].add(vp[1]);
        }
        self.final_vp[0].add(r.vp[0]);
        self.final_vp[1].add(r.vp[1]);
        self.vp_margin.add(r.vp[0].abs_diff(r.vp[1]));
        self.lead_changes.add(lead_changes(&r.vp_by_year));
        self.years.add(r.year as u32);
        self.battles.add(r.battles);
        for i in 0..2 {
            self.steps_lost[i].add(r.steps_lost[i]);
            self.blocks_eliminated[i].add(r.blocks_eliminated[i]);
            self.leaders_killed[i].add(r.leaders_killed[i]);
        }
        for (a, b) in self.events_played.iter_mut().zip(r.events_played) {
            *a += b as u64;
        }
        for side in [Side::Caesar, Side::Pompey] {
            let i = side.index();
            for e in 0..7 {
                if r.events_by_side[i][e] > 0 {
                    self.event_games[i][e] += 1;
                    if r.winner == Some(side) {
                        self.event_wins[i][e] += 1;
                    }
                }
            }
        }
        self.events_cancelled += r.events_cancelled as u64;
        if r.first_turn_player1 == Some(Side::Caesar) {
            self.first_turn_player1_caesar += 1;
        }
        self.actions += r.actions as u64;
    }

    pub fn merge(&mut self, o: &Accumulator) {
        self.games += o.games;
        self.caesar_wins += o.caesar_wins;
        self.pompey_wins += o.pompey_wins;
        self.draws += o.draws;
        if self.sudden_death_by_year.len() < o.sudden_death_by_year.len() {
            self.sudden_death_by_year
                .resize(o.sudden_death_by_year.len(), [0, 0]);
        }
        for (a, b) in self
            .sudden_death_by_year
            .iter_mut()
            .zip(&o.sudden_death_by_year)
        {
            a[0] += b[0];
            a[1] += b[1];
        }
        for i in 0..2 {
            self.on_vp[i] += o.on_vp[i];
            self.rome_tie_break[i] += o.rome_tie_break[i];
            self.final_vp[i].merge(&o.final_vp[i]);
            self.steps_lost[i].merge(&o.steps_lost[i]);
            self.blocks_eliminated[i].merge(&o.blocks_eliminated[i]);
            self.leaders_killed[i].merge(&o.leaders_killed[i]);
        }
        if self.vp_by_year.len() < o.vp_by_year.len() {
            self.vp_by_year
                .resize(o.vp_by_year.len(), Default::default());
        }
        for (a, b) in self.vp_by_year.iter_mut().zip(&o.vp_by_year) {
            a[0].merge(&b[0]);
            a[1].merge(&b[1]);
        }
        self.vp_margin.merge(&o.vp_margin);
        self.lead_changes.merge(&o.lead_changes);
        self.years.merge(&o.years);
        self.battles.merge(&o.battles);
        for (a, b) in self.events_played.iter_mut().zip(o.events_played) {
            *a += b;
        }
        for i in 0..2 {
            for e in 0..7 {
                self.event_games[i][e] += o.event_games[i][e];
                self.event_wins[i][e] += o.event_wins[i][e];
            }
        }
        self.events_cancelled += o.events_cancelled;
        self.first_turn_player1_caesar += o.first_turn_player1_caesar;
        self.actions += o.actions;
        self.elapsed_seconds += o.elapsed_seconds;
    }
}

/// How often the side ahead on VP changed from one year to the next.
fn lead_changes(vp_by_year: &[[u32; 2]]) -> u32 {
    let mut last: Option<usize> = None;
    let mut changes = 0;
    for vp in vp_by_year {
        let leader = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(l) = leader {
            if last.is_some_and(|p| p != l) {
                changes += 1;
            }
            last = Some(l);
        }
    }
    changes
}

/// How the games ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endings {
    /// Per year: sudden-death wins of Caesar and of Pompey.
    pub sudden_death_by_year: Vec<SideCounts>,
    pub sudden_death: u64,
    pub on_vp_after_last_year: SideCounts,
    pub rome_tie_break: SideCounts,
    pub draws: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideCounts {
    pub caesar: u64,
    pub pompey: u64,
}

impl From<[u64; 2]> for SideCounts {
    fn from(c: [u64; 2]) -> SideCounts {
        SideCounts {
            caesar: c[0],
            pompey: c[1],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideSummaries {
    pub caesar: Summary,
    pub pompey: Summary,
}

impl SideSummaries {
    fn of(h: &[Histogram; 2]) -> SideSummaries {
        SideSummaries {
            caesar: h[0].summary(),
            pompey: h[1].summary(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct YearVp {
    pub year: u8,
    /// Games that reached this year's winter.
    pub games: u64,
    pub caesar: Summary,
    pub pompey: Summary,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventFigures {
    pub card: String,
    pub played: u64,
    pub per_game: f64,
    /// How the card went for each side.
    pub caesar: EventEffect,
    pub pompey: EventEffect,
}

/// A side's results in the games where it played an event card, against
/// its results overall: a crude measure of the card's effect (the games
/// where a card is played are not a random sample).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EventEffect {
    /// Share of games in which the side played the card.
    pub played_in: f64,
    /// The side's win rate in those games.
    pub win_rate_when_played: Estimate,
    /// That win rate minus the side's overall win rate.
    pub win_rate_difference: f64,
}

/// The report of one run (or of merged shards of one run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    pub variant: String,
    pub caesar_ai: String,
    pub pompey_ai: String,
    pub omniscient: bool,
    pub seed: u64,
    /// Games in this report.
    pub games: u64,
    /// Games of the whole run (more than `games` for a shard).
    pub run_games: u64,
    /// The shards merged into this report ("1/1" for a whole run).
    pub shards: Vec<String>,
    pub caesar_wins: u64,
    pub pompey_wins: u64,
    pub draws: u64,
    pub caesar_win_rate: Estimate,
    pub pompey_win_rate: Estimate,
    pub draw_rate: Estimate,
    /// |P(Caesar) − P(Pompey)|: 0 is a perfectly balanced variant.
    pub balance: f64,
    pub endings: Endings,
    pub vp_by_year: Vec<YearVp>,
    pub final_vp: SideSummaries,
    /// How decisive the result is: |VP difference| at the end.
    pub vp_margin: Summary,
    /// Share of games decided by 3 VP or more.
    pub decisive_share: f64,
    /// Changes of the VP leader from one year to the next, per game.
    pub lead_changes: Summary,
    /// Share of games with at least one change of VP leader.
    pub games_with_lead_change: f64,
    pub years_played: Summary,
    pub battles_per_game: Summary,
    pub steps_lost: SideSummaries,
    pub blocks_eliminated: SideSummaries,
    pub leaders_killed: SideSummaries,
    pub events: Vec<EventFigures>,
    pub events_cancelled_per_game: f64,
    /// Share of games where Caesar was Player 1 on the first turn.
    pub first_turn_player1_caesar: f64,
    pub actions_per_game: f64,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
    /// The counts behind every figure, for `merge`.
    pub raw: Accumulator,
}

fn share(count: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

impl SimReport {
    pub fn new(variant: &str, options: &SimOptions, acc: Accumulator) -> SimReport {
        let shards = vec![options.shard.map_or("1/1".to_string(), |s| s.to_string())];
        SimReport::from_parts(
            variant,
            options.caesar.to_string(),
            options.pompey.to_string(),
            options.omniscient,
            options.seed,
            options.games,
            shards,
            acc,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        variant: &str,
        caesar_ai: String,
        pompey_ai: String,
        omniscient: bool,
        seed: u64,
        run_games: u64,
        shards: Vec<String>,
        acc: Accumulator,
    ) -> SimReport {
        let n = acc.games;
        let caesar = Estimate::of(acc.caesar_wins, n);
        let pompey = Estimate::of(acc.pompey_wins, n);
        let sudden: Vec<SideCounts> = acc
            .sudden_death_by_year
            .iter()
            .map(|c| (*c).into())
            .collect();
        let margin_total = acc.vp_margin.total();
        let decisive: u64 = acc.vp_margin.counts.iter().skip(3).sum();
        let no_change = acc.lead_changes.counts.first().copied().unwrap_or(0);
        SimReport {
            variant: variant.to_string(),
            caesar_ai,
            pompey_ai,
            omniscient,
            seed,
            games: n,
            run_games,
            shards,
            caesar_wins: acc.caesar_wins,
            pompey_wins: acc.pompey_wins,
            draws: acc.draws,
            caesar_win_rate: caesar,
            pompey_win_rate: pompey,
            draw_rate: Estimate::of(acc.draws, n),
            balance: (caesar.estimate - pompey.estimate).abs(),
            endings: Endings {
                sudden_death: acc.sudden_death_by_year.iter().map(|c| c[0] + c[1]).sum(),
                sudden_death_by_year: sudden,
                on_vp_after_last_year: acc.on_vp.into(),
                rome_tie_break: acc.rome_tie_break.into(),
                draws: acc.draws,
            },
            vp_by_year: acc
                .vp_by_year
                .iter()
                .enumerate()
                .map(|(y, h)| YearVp {
                    year: y as u8 + 1,
                    games: h[0].total(),
                    caesar: h[0].summary(),
                    pompey: h[1].summary(),
                })
                .collect(),
            final_vp: SideSummaries::of(&acc.final_vp),
            vp_margin: acc.vp_margin.summary(),
            decisive_share: share(decisive, margin_total),
            lead_changes: acc.lead_changes.summary(),
            games_with_lead_change: share(n - no_change.min(n), n),
            years_played: acc.years.summary(),
            battles_per_game: acc.battles.summary(),
            steps_lost: SideSummaries::of(&acc.steps_lost),
            blocks_eliminated: SideSummaries::of(&acc.blocks_eliminated),
            leaders_killed: SideSummaries::of(&acc.leaders_killed),
            events: Event::ALL
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let effect = |side: Side, overall: f64| {
                        let s = side.index();
                        let when = Estimate::of(acc.event_wins[s][i], acc.event_games[s][i]);
                        EventEffect {
                            played_in: share(acc.event_games[s][i], n),
                            win_rate_when_played: when,
                            win_rate_difference: if acc.event_games[s][i] == 0 {
                                0.0
                            } else {
                                when.estimate - overall
                            },
                        }
                    };
                    EventFigures {
                        card: format!("{e:?}"),
                        played: acc.events_played[i],
                        per_game: share(acc.events_played[i], n),
                        caesar: effect(Side::Caesar, caesar.estimate),
                        pompey: effect(Side::Pompey, pompey.estimate),
                    }
                })
                .collect(),
            events_cancelled_per_game: share(acc.events_cancelled, n),
            first_turn_player1_caesar: share(acc.first_turn_player1_caesar, n),
            actions_per_game: share(acc.actions, n),
            elapsed_seconds: acc.elapsed_seconds,
            games_per_second: if acc.elapsed_seconds > 0.0 {
                n as f64 / acc.elapsed_seconds
            } else {
                0.0
            },
            raw: acc,
        }
    }

    /// Combines shard reports of one run into the report of the whole run.
    pub fn merge(reports: &[SimReport]) -> Result<SimReport, String> {
        let first = reports.first().ok_or("no reports to merge")?;
        let mut acc = Accumulator::default();
        let mut shards = Vec::new();
        for r in reports {
            let same = r.variant == first.variant
                && r.caesar_ai == first.caesar_ai
                && r.pompey_ai == first.pompey_ai
                && r.omniscient == first.omniscient
                && r.seed == first.seed
                && r.run_games == first.run_games;
            if !same {
                return Err(format!(
                    "the reports are of different runs: {} vs {}",
                    r.run_label(),
                    first.run_label()
                ));
            }
            for s in &r.shards {
                if shards.contains(s) {
                    return Err(format!("shard {s} appears twice"));
                }
                shards.push(s.clone());
            }
            acc.merge(&r.raw);
        }
        if acc.games > first.run_games {
            return Err(format!(
                "the shards hold {} games, more than the run's {}",
                acc.games, first.run_games
            ));
        }
        shards.sort_by_key(|s| {
            let (i, n) = s.split_once('/').unwrap_or(("0", "0"));
            (n.parse::<u32>().unwrap_or(0), i.parse::<u32>().unwrap_or(0))
        });
        if acc.games == first.run_games {
            shards = vec!["1/1".to_string()];
        }
        Ok(SimReport::from_parts(
            &first.variant,
            first.caesar_ai.clone(),
            first.pompey_ai.clone(),
            first.omniscient,
            first.seed,
            first.run_games,
            shards,
            acc,
        ))
    }

    fn run_label(&self) -> String {
        format!(
            "{} {} vs {} seed {} games {}{}",
            self.variant,
            self.caesar_ai,
            self.pompey_ai,
            self.seed,
            self.run_games,
            if self.omniscient { " omniscient" } else { "" }
        )
    }

    /// Whether this report covers every game of its run.
    pub fn is_complete(&self) -> bool {
        self.games == self.run_games
    }
}

fn pct(e: &Estimate) -> String {
    format!(
        "{:5.1}%  (95% CI {:.1}–{:.1}%)",
        e.estimate * 100.0,
        e.ci95[0] * 100.0,
        e.ci95[1] * 100.0
    )
}

fn quart(s: &Summary) -> String {
    format!(
        "mean {:5.2}  quartiles {}/{}/{}",
        s.mean, s.q1, s.median, s.q3
    )
}

impl fmt::Display for SimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} — Caesar: {}, Pompey: {}{} — {} games, seed {}{}",
            self.variant,
            self.caesar_ai,
            self.pompey_ai,
            if self.omniscient { " (omniscient)" } else { "" },
            self.games,
            self.seed,
            if self.is_complete() {
                String::new()
            } else {
                format!(
                    " (shards {} of a {}-game run)",
                    self.shards.join(","),
                    self.run_games
                )
            }
        )?;
        writeln!(f, "  Caesar wins   {}", pct(&self.caesar_win_rate))?;
        writeln!(f, "  Pompey wins   {}", pct(&self.pompey_win_rate))?;
        writeln!(f, "  Draws         {}", pct(&self.draw_rate))?;
        writeln!(f, "  Balance |P(Caesar) − P(Pompey)| = {:.3}", self.balance)?;
        writeln!(f, "How games end")?;
        for (y, c) in self.endings.sudden_death_by_year.iter().enumerate() {
            if c.caesar + c.pompey > 0 {
                writeln!(
                    f,
                    "  sudden death after year {}: Caesar {}, Pompey {}",
                    y + 1,
                    c.caesar,
                    c.pompey
                )?;
            }
        }
        let e = &self.endings;
        writeln!(
            f,
            "  on VP after the last year: Caesar {}, Pompey {}",
            e.on_vp_after_last_year.caesar, e.on_vp_after_last_year.pompey
        )?;
        writeln!(
            f,
            "  Rome tie-break: Caesar {}, Pompey {}; draws {}",
            e.rome_tie_break.caesar, e.rome_tie_break.pompey, e.draws
        )?;
        writeln!(f, "VP after each year (games reaching it)")?;
        for y in &self.vp_by_year {
            writeln!(
                f,
                "  year {} ({:>6}): Caesar {}   Pompey {}",
                y.year,
                y.games,
                quart(&y.caesar),
                quart(&y.pompey)
            )?;
        }
        writeln!(
            f,
            "  final VP margin {}; decided by 3+ VP: {:.1}%",
            quart(&self.vp_margin),
            self.decisive_share * 100.0
        )?;
        writeln!(
            f,
            "  VP lead changes per game {}; games with a change: {:.1}%",
            quart(&self.lead_changes),
            self.games_with_lead_change * 100.0
        )?;
        writeln!(f, "Per game")?;
        writeln!(f, "  years played     {}", quart(&self.years_played))?;
        writeln!(f, "  battles          {}", quart(&self.battles_per_game))?;
        writeln!(
            f,
            "  steps lost       Caesar {}   Pompey {}",
            quart(&self.steps_lost.caesar),
            quart(&self.steps_lost.pompey)
        )?;
        writeln!(
            f,
            "  blocks lost      Caesar {}   Pompey {}",
            quart(&self.blocks_eliminated.caesar),
            quart(&self.blocks_eliminated.pompey)
        )?;
        writeln!(
            f,
            "  leaders killed   Caesar's {:.2}   Pompey's {:.2}",
            self.leaders_killed.caesar.mean, self.leaders_killed.pompey.mean
        )?;
        writeln!(
            f,
            "Event cards: played per game; each side's win rate in games it played the card (vs overall)"
        )?;
        // A side that never played the card has no win rate to show.
        let effect = |e: &EventEffect| {
            if e.played_in > 0.0 {
                format!(
                    "{:5.1}% ({:+5.1})",
                    e.win_rate_when_played.estimate * 100.0,
                    e.win_rate_difference * 100.0
                )
            } else {
                format!("{:<15}", "never played")
            }
        };
        for e in &self.events {
            let line = format!(
                "  {:<8} {:4.2}   Caesar {}   Pompey {}",
                e.card,
                e.per_game,
                effect(&e.caesar),
                effect(&e.pompey),
            );
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(
            f,
            "  turns cancelled by two events {:.2}",
            self.events_cancelled_per_game
        )?;
        writeln!(
            f,
            "  Caesar is Player 1 on the first turn in {:.1}% of games",
            self.first_turn_player1_caesar * 100.0
        )?;
        write!(
            f,
            "Throughput: {:.0} games/s ({:.2} s, {:.0} decisions per game)",
            self.games_per_second, self.elapsed_seconds, self.actions_per_game
        )
    }
}

/// Paired counts for two variants played over the same seeds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedAccumulator {
    pub pairs: u64,
    /// Caesar won under A but not under B, and the reverse.
    pub caesar_only_a: u64,
    pub caesar_only_b: u64,
    pub pompey_only_a: u64,
    pub pompey_only_b: u64,
    /// Σ and Σ² of per-pair differences (A − B) of integer metrics.
    pub metrics: Vec<PairedSums>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedSums {
    pub name: String,
    pub sum: i64,
    pub sum_sq: u64,
}

fn paired_metrics(r: &GameRecord) -> [(&'static str, i64); 8] {
    [
        ("caesar_final_vp", r.vp[0] as i64),
        ("pompey_final_vp", r.vp[1] as i64),
        ("years_played", r.year as i64),
        ("battles", r.battles as i64),
        ("caesar_steps_lost", r.steps_lost[0] as i64),
        ("pompey_steps_lost", r.steps_lost[1] as i64),
        (
            "leaders_killed",
            (r.leaders_killed[0] + r.leaders_killed[1]) as i64,
        ),
        (
            "first_turn_player1_caesar",
            (r.first_turn_player1 == Some(Side::Caesar)) as i64,
        ),
    ]
}

impl PairedAccumulator {
    pub fn add(&mut self, a: &GameRecord, b: &GameRecord) {
        self.pairs += 1;
        let won = |r: &GameRecord, s| r.winner == Some(s);
        match (won(a, Side::Caesar), won(b, Side::Caesar)) {
            (true, false) => self.caesar_only_a += 1,
            (false, true) => self.caesar_only_b += 1,
            _ => {}
        }
        match (won(a, Side::Pompey), won(b, Side::Pompey)) {
            (true, false) => self.pompey_only_a += 1,
            (false, true) => self.pompey_only_b += 1,
            _ => {}
        }
        let (ma, mb) = (paired_metrics(a), paired_metrics(b));
        if self.metrics.is_empty() {
            self.metrics = ma
                .iter()
                .map(|(name, _)| PairedSums {
                    name: name.to_string(),
                    ..PairedSums::default()
                })
                .collect();
        }
        for (slot, ((_, x), (_, y))) in self.metrics.iter_mut().zip(ma.iter().zip(mb.iter())) {
            let d = x - y;
            slot.sum += d;
            slot.sum_sq += (d * d) as u64;
        }
    }

    pub fn merge(&mut self, o: &PairedAccumulator) {
        self.pairs += o.pairs;
        self.caesar_only_a += o.caesar_only_a;
        self.caesar_only_b += o.caesar_only_b;
        self.pompey_only_a += o.pompey_only_a;
        self.pompey_only_b += o.pompey_only_b;
        if self.metrics.is_empty() {
            self.metrics = o.metrics.clone();
        } else {
            for (a, b) in self.metrics.iter_mut().zip(&o.metrics) {
                a.sum += b.sum;
                a.sum_sq += b.sum_sq;
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricDifference {
    pub metric: String,
    pub difference: Difference,
}

/// Two variants over the same seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    pub a: SimReport,
    pub b: SimReport,
    /// P(Caesar wins | A) − P(Caesar wins | B), paired over the seeds
    /// (McNemar test; Wald interval of the paired difference).
    pub caesar_win_rate_difference: Difference,
    pub pompey_win_rate_difference: Difference,
    /// The same difference treated as two independent samples, for reference.
    pub caesar_win_rate_difference_unpaired: Difference,
    /// A − B in the mean of other metrics, paired.
    pub metric_differences: Vec<MetricDifference>,
    pub raw_paired: PairedAccumulator,
}

impl CompareReport {
    pub fn new(
        variants: [&str; 2],
        options: &SimOptions,
        a: super::Accumulator,
        b: super::Accumulator,
        paired: PairedAccumulator,
    ) -> CompareReport {
        let a = SimReport::new(variants[0], options, a);
        let b = SimReport::new(variants[1], options, b);
        CompareReport::from_parts(a, b, paired)
    }

    fn from_parts(a: SimReport, b: SimReport, paired: PairedAccumulator) -> CompareReport {
        let n = paired.pairs;
        CompareReport {
            caesar_win_rate_difference: paired_proportion_test(
                paired.caesar_only_a,
                paired.caesar_only_b,
                n,
            ),
            pompey_win_rate_difference: paired_proportion_test(
                paired.pompey_only_a,
                paired.pompey_only_b,
                n,
            ),
            caesar_win_rate_difference_unpaired: two_proportion_test(
                a.caesar_wins,
                a.games,
                b.caesar_wins,
                b.games,
            ),
            metric_differences: paired
                .metrics
                .iter()
                .map(|m| MetricDifference {
                    metric: m.name.clone(),
                    difference: paired_mean_difference(m.sum as f64, m.sum_sq as f64, n),
                })
                .collect(),
            a,
            b,
            raw_paired: paired,
        }
    }

    /// Combines shard reports of one comparison.
    pub fn merge(reports: &[CompareReport]) -> Result<CompareReport, String> {
        let a: Vec<SimReport> = reports.iter().map(|r| r.a.clone()).collect();
        let b: Vec<SimReport> = reports.iter().map(|r| r.b.clone()).collect();
        let mut paired = PairedAccumulator::default();
        for r in reports {
            paired.merge(&r.raw_paired);
        }
        Ok(CompareReport::from_parts(
            SimReport::merge(&a)?,
            SimReport::merge(&b)?,
            paired,
        ))
    }
}

fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

fn signed(d: &Difference, scale: f64, unit: &str) -> String {
    format!(
        "{:+.2}{unit} (95% CI {:+.2} to {:+.2}{unit}, {}{})",
        d.estimate * scale,
        d.ci95[0] * scale,
        d.ci95[1] * scale,
        p_text(d.p_value),
        if d.significant {
            ""
        } else {
            ", not significant"
        }
    )
}

impl fmt::Display for CompareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "A: {}", self.a)?;
        writeln!(f)?;
        writeln!(f, "B: {}", self.b)?;
        writeln!(f)?;
        writeln!(
            f,
            "A − B over the same {} seeds (paired):",
            self.raw_paired.pairs
        )?;
        writeln!(
            f,
            "  Caesar's win rate {}",
            signed(&self.caesar_win_rate_difference, 100.0, " pts")
        )?;
        writeln!(
            f,
            "  Pompey's win rate {}",
            signed(&self.pompey_win_rate_difference, 100.0, " pts")
        )?;
        for m in &self.metric_differences {
            writeln!(f, "  {:<26}{}", m.metric, signed(&m.difference, 1.0, ""))?;
        }
        if !self.caesar_win_rate_difference.significant {
            write!(
                f,
                "The difference in Caesar's win rate is not significant at the 5% level."
            )
        } else {
            write!(
                f,
                "The difference in Caesar's win rate is significant at the 5% level."
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_changes_ignore_ties() {
        assert_eq!(lead_changes(&[[5, 3], [4, 4], [6, 3]]), 0);
        assert_eq!(lead_changes(&[[5, 3], [3, 5], [6, 3]]), 2);
        assert_eq!(lead_changes(&[]), 0);
    }
}
