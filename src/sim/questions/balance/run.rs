//! The run: the table's stages and the rounds of responses, within a budget, resumed from a checkpoint.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::options::BalanceOptions;
use super::play::doubled_points;
use super::report::{
    BalanceError, BalanceReport, Coverage, Interval, Limits, Member, MirrorShare, Round, Stage,
    Watch, Weighted,
};
use super::solve::Equilibrium;
use super::table::Table;
use super::{oracle, solve, table};
use crate::ai::AiSpec;
use crate::engine::Game;

/// Mixed into the run's seed for each stream of games.
pub(super) const CELL_TAG: u64 = 0x4241_4C41_4E43_4543; // "BALANCEC"
pub(super) const BOOT_TAG: u64 = 0x4241_4C41_4E43_4542; // "BALANCEB"

/// A mix weight below this is not part of a side's mix.
pub(super) const IN_MIX: f64 = 1e-6;

/// Runs (or resumes) `report` until it is done, handing every finished
/// stage (and the table's first answer, the heuristic family's) to
/// `checkpoint`.
///
/// The budget is a limit, not a floor, and any budget ends with an answer:
/// when its deadline passes in the middle of a stage (or the watch is
/// cancelled), the stage is kept as far as it got: the table's cells with
/// the games played, solved over the players they cover
/// ([`BalanceReport::coverage`]); a round's responses measured so far. The
/// report is paused there, `stopped` says so, and a resume plays on from it.
pub fn run(
    game: &Game,
    report: &mut BalanceReport,
    limits: &Limits<'_>,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<(), BalanceError> {
    if report.paused {
        report.go_on(None);
    }
    let Some(deadline) = limits.deadline else {
        return run_stages(game, report, limits, watch, checkpoint);
    };
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Stops every game at the deadline, as a cancel would: the stage
        // in progress keeps what was played.
        scope.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                if Instant::now() >= deadline {
                    watch.progress.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let result = run_stages(game, report, limits, watch, checkpoint);
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })
}

fn run_stages(
    game: &Game,
    report: &mut BalanceReport,
    limits: &Limits<'_>,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<(), BalanceError> {
    let started = Instant::now();
    let before = report.elapsed_seconds;
    let mut clock = Clock::new();
    loop {
        let went_on = match report.stage {
            Stage::Done => return Ok(()),
            Stage::Table(round) => {
                let mut so_far = |r: &BalanceReport| {
                    let mut r = r.clone();
                    r.elapsed_seconds = before + started.elapsed().as_secs_f64();
                    checkpoint(&r);
                };
                table_stage(game, report, round, limits, watch, &mut so_far)?
            }
            Stage::Responses(round) => {
                responses_stage(game, report, round, limits, watch, &mut clock)?
            }
        };
        report.elapsed_seconds = before + started.elapsed().as_secs_f64();
        checkpoint(report);
        if !went_on {
            // Paused by the budget or a cancel: the stage stays for a resume.
            return Ok(());
        }
    }
}

/// Why a stage was cut short, in words.
fn cut_reason(limits: &Limits<'_>) -> &'static str {
    match limits.deadline {
        Some(d) if Instant::now() >= d => "the budget ended",
        _ => "the run was cancelled",
    }
}

/// Plays and solves round `round`'s table, and sets the next stage; false
/// when the budget ended (or a cancel came) first: the table stays the
/// stage, solved as far as it was played, and a resume plays its cells on.
fn table_stage(
    game: &Game,
    report: &mut BalanceReport,
    round: u32,
    limits: &Limits<'_>,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<bool, BalanceError> {
    watch.say(format!("round {round}: playing the meta-game"));
    let full = fill_table(game, report, watch, checkpoint)?;
    solve_report(report)?;
    report.rounds.retain(|r| r.round != round);
    if !report.caesar_mix.is_empty() {
        report.rounds.push(Round {
            round,
            caesar_players: report.caesar.len(),
            pompey_players: report.pompey.len(),
            value: report.value,
            exploitability: None,
            responses: Vec::new(),
        });
    }
    if !full {
        report.stopped = format!(
            "{} during round {round}'s table: the value is the solve of the games played so far (resume the report to play on)",
            cut_reason(limits)
        );
        report.paused = true;
        return Ok(false);
    }
    let o = &report.options;
    if round <= o.rounds && !o.oracles.is_empty() && report.stopped.is_empty() {
        report.stage = Stage::Responses(round);
        return Ok(true);
    }
    if report.stopped.is_empty() {
        report.stopped = if o.oracles.is_empty() {
            "the players given, solved: no best responses were asked for".to_string()
        } else {
            report.paused = true;
            // Past round 1, the last round's responses joined: a run that
            // finds none stops there.
            format!(
                "{} of best responses done{} (resume with more --rounds to go on)",
                match o.rounds {
                    1 => "1 round".to_string(),
                    n => format!("{n} rounds"),
                },
                if round > 1 {
                    "; the last round's responses joined, and the table was solved with them"
                } else {
                    ""
                }
            )
        };
    }
    report.stage = Stage::Done;
    Ok(true)
}

/// Trains and measures round `round`'s best responses, and sets the next
/// stage; false when the budget would not hold them, or ended (or a cancel
/// came) while they were trained: they stay the stage, and the responses
/// measured by then stand in the round.
fn responses_stage(
    game: &Game,
    report: &mut BalanceReport,
    round: u32,
    limits: &Limits<'_>,
    watch: &Watch,
    clock: &mut Clock,
) -> Result<bool, BalanceError> {
    let expected = clock.responses_seconds(report);
    if limits
        .deadline
        .is_some_and(|d| Instant::now() + Duration::from_secs_f64(expected) > d)
    {
        report.stopped = format!(
            "the budget would not hold round {round}'s best responses (about {expected:.0} s here; resume the report to train them)"
        );
        report.paused = true;
        return Ok(false);
    }
    let t = Instant::now();
    let (joined, best_gain) = match oracle::respond(game, report, round, limits, watch) {
        Ok(done) => done,
        Err(BalanceError::Cancelled(_)) => {
            let measured = report
                .rounds
                .iter()
                .find(|r| r.round == round)
                .map_or(0, |r| r.responses.len());
            report.stopped = format!(
                "{} during round {round}'s best responses: {measured} measured so far stand in the round, none joined (resume the report to train them)",
                cut_reason(limits)
            );
            report.paused = true;
            return Ok(false);
        }
        Err(e) => return Err(e),
    };
    clock.responses_took(t.elapsed().as_secs_f64());
    let converged = best_gain <= report.options.threshold;
    if converged {
        report.stopped = format!(
            "no best response gained more than {:.1} points",
            report.options.threshold * 100.0
        );
        if joined {
            report.stopped.push_str(
                " (those that beat the value by more than their interval joined, and the table was solved with them)",
            );
        }
    } else if !joined {
        report.stopped = "no best response beat the value by more than its interval".to_string();
    }
    report.stage = if joined {
        Stage::Table(round + 1)
    } else {
        Stage::Done
    };
    Ok(true)
}

/// What the run has learnt of this machine's speed, to keep to a budget.
struct Clock {
    /// Wall seconds the last round of best responses took.
    responses_seconds: Option<f64>,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            responses_seconds: None,
        }
    }

    /// The expected wall time of a round of responses: the last one's, or
    /// a guess from the options before any.
    fn responses_seconds(&self, report: &BalanceReport) -> f64 {
        self.responses_seconds.unwrap_or_else(|| {
            // A heuristic game takes about a millisecond of wall time here, a
            // search about a hundred times more per playout budget of 16.
            let o = &report.options;
            let search = o.playouts as f64 / 16.0 * 0.1;
            let starts = oracle::STARTS_GUESS as f64 * o.start_games as f64;
            let per_side = (o.tune_games as f64 * f64::from(o.tune_restarts) + starts) * 0.001
                + o.learn_games as f64 * 0.001
                + o.response_games as f64 * o.oracles.len() as f64 * search;
            2.0 * per_side
        })
    }

    fn responses_took(&mut self, seconds: f64) {
        self.responses_seconds = Some(seconds);
    }
}

/// Plays the table until every cell that decides the equilibrium has its
/// games; `false` if the deadline (or a cancel) stopped it first, with the
/// games played until then kept.
///
/// The heuristic family's cells are played first and solved, so the
/// first answer comes in seconds whatever else the population holds; then
/// every cell gets its first games, game index by game index, so that a
/// budget ending midway leaves every pairing with about as many games
/// (the players of a search cost a hundred heuristic games each).
fn fill_table(
    game: &Game,
    report: &mut BalanceReport,
    watch: &Watch,
    checkpoint: &mut dyn FnMut(&BalanceReport),
) -> Result<bool, BalanceError> {
    let (offset, first, target) = report.options.cell_games();
    report.table.offset = offset;
    let fast = fast_members(report);
    let short_of = |table: &Table, rows: usize, columns: usize, games: u64| {
        let mut wanted = Vec::new();
        for i in 0..rows {
            for j in 0..columns {
                if table.cells[i][j].games() < games {
                    wanted.push((i, j, games));
                }
            }
        }
        wanted
    };
    let heuristic_family = short_of(&report.table, fast[0], fast[1], first);
    if !heuristic_family.is_empty() && fast != [report.table.rows(), report.table.columns()] {
        watch.say(format!(
            "the heuristic family first: {} games in {} cells",
            heuristic_family.len() as u64 * first,
            heuristic_family.len()
        ));
        if !play_cells(game, report, &heuristic_family, Order::ByPlayer, watch)? {
            return Ok(false);
        }
        solve_report(report)?;
        checkpoint(report);
    }
    let mut wanted = short_of(
        &report.table,
        report.table.rows(),
        report.table.columns(),
        first,
    );
    let mut first_pass = true;
    loop {
        if wanted.is_empty() {
            first_pass = false;
            let eq = report.table.solve()?;
            wanted = deciding_cells(&report.table, &eq)
                .into_iter()
                .filter_map(|(i, j)| {
                    let games = report.table.cells[i][j].games();
                    (games < target).then_some((i, j, (games * 2).max(first).min(target)))
                })
                .collect();
            if wanted.is_empty() {
                return Ok(true);
            }
        }
        watch.say(format!(
            "playing {} games in {} cells of the {}×{} meta-game",
            wanted
                .iter()
                .map(|&(i, j, to)| to - report.table.cells[i][j].games())
                .sum::<u64>(),
            wanted.len(),
            report.table.rows(),
            report.table.columns()
        ));
        let order = if first_pass {
            Order::ByPlayer
        } else {
            Order::ByGame
        };
        if !play_cells(game, report, &wanted, order, watch)? {
            return Ok(false);
        }
        first_pass = false;
        wanted.clear();
    }
}

impl BalanceOptions {
    /// The first game index of the cells, the games every cell gets first,
    /// and those a deciding cell gets: a shard plays its part of every
    /// cell, all of it at once.
    fn cell_games(&self) -> (u64, u64, u64) {
        match self.shard {
            Some(shard) => {
                let range = shard.range(self.games);
                let games = range.end - range.start;
                (range.start, games, games)
            }
            None => (0, self.first_games, self.games),
        }
    }
}

/// The order a table's games are played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    ByPlayer,
    ByGame,
}

/// Plays cell `(i, j)` on to `to` games for each of `wanted`, in `order`,
/// in batches. A cancel (or the budget's
/// end) keeps every game finished before it that continues its cell's
/// games: a cell's results stay games 0, 1, 2, … of the common seeds.
/// False when cut short.
fn play_cells(
    game: &Game,
    report: &mut BalanceReport,
    wanted: &[(usize, usize, u64)],
    order: Order,
    watch: &Watch,
) -> Result<bool, BalanceError> {
    let seed = report.options.seed ^ CELL_TAG;
    let offset = report.table.offset;
    let specs: [Vec<AiSpec>; 2] = [
        report.caesar.iter().map(|m| m.spec().clone()).collect(),
        report.pompey.iter().map(|m| m.spec().clone()).collect(),
    ];
    let omniscient = report.options.omniscient;
    let progress = &watch.progress;
    let mut jobs: Vec<(usize, usize, u64)> = wanted
        .iter()
        .flat_map(|&(i, j, to)| {
            let from = report.table.cells[i][j].games();
            (from..to).map(move |k| (i, j, k))
        })
        .collect();
    match order {
        // A new player's pairings whole before the next player's: the
        // table solved so far grows by a player at a time.
        Order::ByPlayer => jobs.sort_by_key(|&(i, j, k)| (i.max(j), k, i, j)),
        // Every cell a game further before any goes two.
        Order::ByGame => jobs.sort_by_key(|&(i, j, k)| (k, i.max(j), i, j)),
    }
    // Small enough that a cut loses little, large enough to keep every
    // thread busy between the batches.
    let batch = (rayon::current_num_threads() * 32).max(64);
    for chunk in jobs.chunks(batch) {
        let results: Vec<Option<u8>> = chunk
            .par_iter()
            .map(|&(i, j, k)| {
                if progress.is_cancelled() {
                    return None;
                }
                let r = doubled_points(
                    game,
                    [&specs[0][i], &specs[1][j]],
                    seed,
                    offset + k,
                    omniscient,
                );
                progress.tick();
                Some(r)
            })
            .collect();
        let mut cut = false;
        for (&(i, j, k), r) in chunk.iter().zip(results) {
            let cell = &mut report.table.cells[i][j];
            match r {
                // A game after a gap in its cell is not kept.
                Some(r) if cell.games() == k => {
                    cell.push(r);
                    report.games_played += 1;
                }
                _ => cut = true,
            }
        }
        if cut || progress.is_cancelled() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How many of each side's first members play without searching (the
/// heuristic family, about a millisecond a game): the table's first tier.
fn fast_members(report: &BalanceReport) -> [usize; 2] {
    [&report.caesar, &report.pompey].map(|members| {
        members
            .iter()
            .take_while(|m| m.spec.as_ref().is_some_and(|s| cost_rank(s) == 0))
            .count()
    })
}

/// The order a population's players enter the table in: the heuristic
/// family (0) first, then searches by their budgets, so that the players
/// a short budget can afford are the ones solved.
pub fn cost_rank(spec: &AiSpec) -> u64 {
    match spec {
        AiSpec::Random | AiSpec::Heuristic | AiSpec::TunedHeuristic(_) => 0,
        AiSpec::Search { playouts } => u64::from(*playouts),
        AiSpec::Mcts { playouts } => 4 * u64::from(*playouts),
        AiSpec::SearchOn(on) => cost_rank(&on.search) + u64::from(on.value.is_some()),
        AiSpec::SearchTimed { millis } | AiSpec::MctsTimed { millis } => {
            100_000 + u64::from(*millis)
        }
        AiSpec::Equilibrium(_) => 1_000_000,
    }
}

/// The players the table can be solved over: the first of each side
/// whose pairings all hold their `first` games (the population's cheapest
/// come first, and a player's pairings are played whole before the next
/// player's, so it is all of them once every cell has its first games).
pub(super) fn ready(table: &Table, first: u64) -> [usize; 2] {
    let filled = |i: usize, j: usize| table.cells[i][j].games() >= first.max(1);
    if table.rows() == 0 || table.columns() == 0 || !filled(0, 0) {
        return [0, 0];
    }
    let (mut rows, mut columns) = (1, 1);
    loop {
        let mut grew = false;
        if rows < table.rows() && (0..columns).all(|j| filled(rows, j)) {
            rows += 1;
            grew = true;
        }
        if columns < table.columns() && (0..rows).all(|i| filled(i, columns)) {
            columns += 1;
            grew = true;
        }
        if !grew {
            return [rows, columns];
        }
    }
}

/// The cells that decide the equilibrium: rows in Caesar's mix or whose
/// optimistic payoff against Pompey's mix reaches the value (they could be
/// a best response), against columns likewise.
fn deciding_cells(table: &Table, eq: &Equilibrium) -> Vec<(usize, usize)> {
    let upper: Vec<Vec<f64>> = table
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.interval()[1]).collect())
        .collect();
    let lower: Vec<Vec<f64>> = table
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.interval()[0]).collect())
        .collect();
    let rows: Vec<bool> = (0..table.rows())
        .map(|i| eq.caesar[i] > IN_MIX || solve::row_payoff(&upper, i, &eq.pompey) >= eq.value)
        .collect();
    let columns: Vec<bool> = (0..table.columns())
        .map(|j| eq.pompey[j] > IN_MIX || solve::column_payoff(&lower, j, &eq.caesar) <= eq.value)
        .collect();
    let mut cells = Vec::new();
    // A row that could be a best response is judged against the columns
    // Pompey plays, and a column against the rows Caesar plays.
    for (i, &row) in rows.iter().enumerate() {
        for (j, &column) in columns.iter().enumerate() {
            let in_play = (row && eq.pompey[j] > IN_MIX) || (column && eq.caesar[i] > IN_MIX);
            if in_play {
                cells.push((i, j));
            }
        }
    }
    cells
}

/// Solves the table and fills the report's equilibrium, regrets, mirrors,
/// bootstrap interval and coverage: over the players whose pairings all
/// hold games ([`ready`]), so that a table cut short by the budget is
/// solved as far as it was played. A table without a game is left
/// unsolved.
pub(super) fn solve_report(report: &mut BalanceReport) -> Result<(), BalanceError> {
    let (_, first, asked) = report.options.cell_games();
    let [rows, columns] = ready(&report.table, first);
    if rows == 0 || columns == 0 {
        report.coverage = Some(Coverage {
            solved: [0, 0],
            deciding_short: 0,
            fewest_games: 0,
            asked_games: report.options.games,
        });
        return Ok(());
    }
    let table = report.table.corner(rows, columns);
    let eq = table.solve()?;
    let shares = table.shares();
    let replicates = table::bootstrap(
        &[&table],
        report.options.replicates,
        report.options.seed ^ BOOT_TAG,
    )?;
    let values: Vec<f64> = replicates.iter().map(|r| r[0].value).collect();
    let support = |mix: &[f64]| -> Vec<bool> { mix.iter().map(|w| *w > 0.01).collect() };
    let same = replicates
        .iter()
        .filter(|r| {
            support(&r[0].caesar) == support(&eq.caesar)
                && support(&r[0].pompey) == support(&eq.pompey)
        })
        .count();
    report.stability = same as f64 / replicates.len().max(1) as f64;
    let [lo, hi] = table::percentile_interval(&values);
    report.value = Interval {
        estimate: eq.value,
        ci95: [lo.min(eq.value), hi.max(eq.value)],
    };
    let weighted = |members: &[Member], mix: &[f64]| -> Vec<Weighted> {
        let mut w: Vec<Weighted> = members
            .iter()
            .zip(mix)
            .filter(|(_, w)| **w > IN_MIX)
            .map(|(m, w)| Weighted {
                player: m.player.clone(),
                words: m.words.clone(),
                weight: *w,
            })
            .collect();
        w.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        w
    };
    report.caesar_mix = weighted(&report.caesar, &eq.caesar);
    report.pompey_mix = weighted(&report.pompey, &eq.pompey);
    report.caesar_regret = (0..rows)
        .map(|i| eq.value - solve::row_payoff(&shares, i, &eq.pompey))
        .collect();
    report.pompey_regret = (0..columns)
        .map(|j| solve::column_payoff(&shares, j, &eq.caesar) - eq.value)
        .collect();
    report.mirrors = report.caesar[..rows]
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let j = report.pompey[..columns]
                .iter()
                .position(|p| p.digest == m.digest)?;
            let cell = &table.cells[i][j];
            Some(MirrorShare {
                player: m.player.clone(),
                words: m.words.clone(),
                share: Interval {
                    estimate: cell.share(),
                    ci95: cell.interval(),
                },
                games: cell.games(),
            })
        })
        .collect();
    let deciding: Vec<u64> = deciding_cells(&table, &eq)
        .into_iter()
        .map(|(i, j)| table.cells[i][j].games())
        .collect();
    report.coverage = Some(Coverage {
        solved: [rows, columns],
        deciding_short: deciding.iter().filter(|&&g| g < asked).count(),
        fewest_games: deciding.iter().copied().min().unwrap_or(0),
        asked_games: asked,
    });
    Ok(())
}
