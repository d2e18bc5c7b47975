//! `tune`: fits the heuristic's numbers ([`HeuristicParams`]) to a variant by
//! self-play, with CMA-ES (the `cmaes` crate).
//!
//! A candidate is scored by playing it against the starting player (the
//! defaults, or a player file) on both sides of the same games: half its
//! games as Caesar, half as Pompey, each seed played once each way, so
//! neither the side's own balance nor the dice favour a candidate. All
//! candidates of a generation play the same seeds (common random numbers);
//! each generation draws new ones, so the search cannot fit one set of dice.
//!
//! The search runs in log space (a parameter is its start times e^z), which
//! keeps every number positive and makes a step a relative change whatever
//! the number's scale. The result is the search's final mean, not its best
//! candidate: the best of many noisy scores is lucky by selection, the mean
//! is what the whole population agreed on. It is then checked against the
//! starting player on games of a separate seed stream, which the search never
//! saw.
//!
//! Everything derives from the seed, and a game's result does not depend on
//! the thread that plays it: a tuning run reproduces exactly.

use std::cell::{Cell, RefCell};
use std::fmt;

use cmaes::{CMAESOptions, DVector, Mode};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::{self, HeuristicParams, HeuristicPlayer, Player, PlayerNumbers};
use crate::engine::{Game, NoLog};
use crate::scenario::model::Side;
use crate::sim::runs::options::OptionsError;
use crate::sim::runs::stats::{Estimate, PairedDifference, paired_mean_difference};
use crate::sim::{Cancelled, Progress, game_and_player_seeds, game_seed};

/// Salt of the check games' seeds: a stream the search never plays.
const CHECK_SALT: u64 = 0xC4EC_4ED0_0D5E_ED5A;

/// How hard a CMA-ES tuning searches and checks, whatever it tunes (the
/// heuristic's numbers here, a search's settings in `tune --search`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Effort {
    /// Games to play while searching, in all (the check games come on top).
    pub budget: u64,
    /// Games per candidate: even, half on each side.
    pub games_per_candidate: u64,
    /// Candidates per generation: `tune` lets CMA-ES choose for 0 (4 + 3
    /// ln n), `tune --search` plays at least 2.
    pub population: usize,
    /// The first step, in the search's space: for the heuristic's numbers
    /// log space, where 0.3 tries numbers about 30% either way.
    pub step: f64,
    /// Games of the final check (even: half on each side).
    pub check_games: u64,
    pub seed: u64,
}

impl Effort {
    /// Refuses a run of `population` candidates a generation that cannot
    /// play a generation or whose games cannot split evenly between the
    /// sides.
    pub(crate) fn check(&self, population: usize) -> Result<(), OptionsError> {
        let Effort {
            budget,
            games_per_candidate,
            check_games,
            step,
            ..
        } = *self;
        if games_per_candidate < 2 || !games_per_candidate.is_multiple_of(2) {
            return Err(OptionsError::GamesPerCandidate(games_per_candidate));
        }
        if budget / (population as u64 * games_per_candidate) == 0 {
            return Err(OptionsError::BudgetUnderOneGeneration {
                budget,
                population,
                games_per_candidate,
            });
        }
        if !check_games.is_multiple_of(2) {
            return Err(OptionsError::OddCheckGames(check_games));
        }
        if !(step.is_finite() && (MIN_STEP..=MAX_STEP).contains(&step)) {
            return Err(OptionsError::Step {
                step,
                min: MIN_STEP,
                max: MAX_STEP,
            });
        }
        Ok(())
    }

    /// Whole generations of `population` candidates the budget pays for.
    pub(crate) fn generations(&self, population: usize) -> u64 {
        self.budget / (self.games_per_candidate.max(1) * population as u64)
    }

    /// Games a run plays, the search and the check together.
    pub(crate) fn total_games(&self, population: usize) -> u64 {
        self.generations(population) * population as u64 * self.games_per_candidate
            + 2 * self.check_games
    }
}

/// What to tune, and how hard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneOptions {
    #[serde(flatten)]
    pub effort: Effort,
    /// Where the search starts, and the player every candidate meets.
    pub start: PlayerNumbers,
    /// The side whose numbers are tuned, against the starting player's
    /// other side; `None` tunes one set of numbers for both sides.
    #[serde(default)]
    pub side: Option<Side>,
    /// The opponents every candidate meets in turn, game by game (a pool of
    /// past champions, so the result does not just beat the last one);
    /// empty: the starting player alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<PlayerNumbers>,
}

impl TuneOptions {
    pub fn check(&self) -> Result<(), OptionsError> {
        self.effort.check(self.population())?;
        for numbers in std::iter::once(&self.start).chain(&self.against) {
            for side in Side::BOTH {
                numbers
                    .of(side)
                    .check()
                    .map_err(|(_, why)| OptionsError::StartingPlayer(why))?;
            }
        }
        if self.side.is_none() && self.start.one_for_both().is_none() {
            return Err(OptionsError::StartingPlayer(
                "it has numbers per side, so tune one side at a time (--side caesar or pompey)"
                    .to_string(),
            ));
        }
        Ok(())
    }

    /// The opponents the search plays against, in turn.
    fn opponents(&self) -> &[PlayerNumbers] {
        if self.against.is_empty() {
            std::slice::from_ref(&self.start)
        } else {
            &self.against
        }
    }

    /// The numbers the search starts from: the tuned side's.
    fn base(&self) -> HeuristicParams {
        self.start.of(self.side.unwrap_or(Side::Caesar))
    }

    /// The player a point `z` of the search stands for: the tuned side's
    /// numbers moved by `z`, the other side's the starting player's.
    fn candidate(&self, z: &DVector<f64>) -> PlayerNumbers {
        let params = params_at(&self.base(), z);
        match self.side {
            Some(side) => self.start.with(side, params),
            None => PlayerNumbers::both(params),
        }
    }

    /// Games a run plays, the search and the check together.
    pub fn total_games(&self) -> u64 {
        self.effort.total_games(self.population())
    }

    /// Candidates per generation: as given, else CMA-ES's default for the
    /// number of parameters, 4 + ⌊3 ln n⌋.
    pub fn population(&self) -> usize {
        if self.effort.population > 0 {
            return self.effort.population;
        }
        let n = HeuristicParams::NAMES.len() as f64;
        4 + (3.0 * n.ln()).floor() as usize
    }

    /// Whole generations the budget pays for.
    pub fn generations(&self) -> u64 {
        self.effort.generations(self.population())
    }
}

/// One generation of the search, as the report lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    pub generation: u64,
    /// The best candidate's score against the starting player (0–1).
    pub best: f64,
    pub median: f64,
    /// The search's step size after the generation (log space).
    pub sigma: f64,
}

/// How the tuned player fares against the starting one on unseen seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub games: u64,
    /// The tuned player's score (win 1, draw ½) against the starting one,
    /// both sides; its interval is the paired one over the seeds.
    pub score: f64,
    pub score_ci95: [f64; 2],
    /// The tuned player's win rate as Caesar, and as Pompey.
    pub as_caesar: Estimate,
    pub as_pompey: Estimate,
    /// Caesar's win rate when both sides are the starting player, and when
    /// both are the tuned one (same seeds): how much a balance verdict
    /// moves with the players.
    pub mirror_start: Estimate,
    pub mirror_tuned: Estimate,
    pub mirror_difference: PairedDifference,
}

/// A tuning run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    pub variant: String,
    pub options: TuneOptions,
    pub population: usize,
    pub generations: Vec<Generation>,
    /// Why the search stopped, when it stopped before the budget.
    pub stopped_early: Option<String>,
    pub tuned: PlayerNumbers,
    pub check: Option<Check>,
    pub games_played: u64,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
}

impl TuneReport {
    /// The parameters that moved most, as (name, start, tuned), largest
    /// relative change first.
    pub fn changes(&self) -> Vec<(&'static str, f32, f32)> {
        let mut changes: Vec<_> = HeuristicParams::NAMES
            .iter()
            .zip(self.options.base().values())
            .zip(
                self.tuned
                    .of(self.options.side.unwrap_or(Side::Caesar))
                    .values(),
            )
            .map(|((name, a), b)| (*name, a, b))
            .collect();
        changes.sort_by(|x, y| (y.2 / y.1).ln().abs().total_cmp(&(x.2 / x.1).ln().abs()));
        changes
    }

    /// The player file's text: the tuned numbers, and how they were found.
    pub fn player_file(&self) -> String {
        let whose = match self.options.side {
            Some(side) => format!("{side}'s numbers (the other side's are the starting player's)"),
            None => "Heuristic player".to_string(),
        };
        let mut header = format!(
            "{whose} tuned for {} by `caesar-workbench tune` (CMA-ES):\n\
             {} games in {} generation(s) of {} candidates, seed {}.",
            self.variant,
            self.games_played - self.check.as_ref().map_or(0, |c| c.games * 2),
            self.generations.len(),
            self.population,
            self.options.effort.seed,
        );
        if self.options.against.len() > 1 {
            header.push_str(&format!(
                "\nThe search played a pool of {} opponents in turn.",
                self.options.against.len()
            ));
        }
        if let Some(c) = &self.check {
            header.push_str(&format!(
                "\nAgainst the starting player on {} unseen games: scores {:.1}% ({:.1}–{:.1}%).",
                c.games,
                c.score * 100.0,
                c.score_ci95[0] * 100.0,
                c.score_ci95[1] * 100.0
            ));
        }
        header.push_str("\nPlay it with --caesar-ai heuristic:FILE or --pompey-ai heuristic:FILE.");
        self.tuned.to_ron(&header)
    }
}

/// The narrowest first step: the numbers are `f32`, and a relative change
/// much under their precision (about 1.2e-7) moves none of them (a
/// subnormal step made CMA-ES itself refuse to start).
pub(crate) const MIN_STEP: f64 = 1e-6;

/// The widest first step: beyond it a generation's candidates are
/// numbers of no useful size.
pub(crate) const MAX_STEP: f64 = 5.0;

/// The range every tuned number is kept in: far wider than any useful
/// value, and finite and positive in `f32`, so a player file `tune` writes is
/// always one the program reads back ([`HeuristicParams::check`]).
pub(crate) const TUNED_RANGE: (f64, f64) = (1e-6, 1e6);

/// `z` (log space, relative to `start`) as parameters, each kept in
/// [`TUNED_RANGE`] (a wide step or a long run can otherwise reach 0 or ∞).
fn params_at(start: &HeuristicParams, z: &DVector<f64>) -> HeuristicParams {
    let values: Vec<f32> = start
        .values()
        .iter()
        .zip(z.iter())
        .map(|(v, z)| {
            let value = f64::from(*v) * z.exp();
            let value = if value.is_nan() { f64::from(*v) } else { value };
            value.clamp(TUNED_RANGE.0, TUNED_RANGE.1) as f32
        })
        .collect();
    HeuristicParams::from_values(&values)
}

/// Half-points (win 2, draw 1, loss 0) of `side` in one game between
/// Caesar playing `players[0]` and Pompey `players[1]`.
fn half_points(game: &Game, seed: u64, players: [HeuristicParams; 2], side: Side) -> u32 {
    let (game_seed, player_seeds) = game_and_player_seeds(seed, 0);
    let mut seats: [Box<dyn Player>; 2] = Side::BOTH.map(|s| {
        Box::new(
            HeuristicPlayer::new(s, player_seeds[s.index()], false).with_params(players[s.index()]),
        ) as Box<dyn Player>
    });
    let end = ai::play_game(game, game_seed, &mut seats, &mut NoLog);
    match end.outcome().and_then(|o| o.winner) {
        Some(w) if w == side => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// `play(seed, i)` for each of the first `n` seeds of `stream`, on every
/// thread; stops early when the run is cancelled.
fn per_seed<T: Send>(
    stream: u64,
    n: u64,
    progress: &Progress,
    play: impl Fn(u64, usize) -> T + Sync,
) -> Result<Vec<T>, Cancelled> {
    (0..n)
        .into_par_iter()
        .map(|i| {
            if progress.is_cancelled() {
                return Err(Cancelled);
            }
            Ok(play(game_seed(stream, i), i as usize))
        })
        .collect()
}

/// Per seed of `pairs`: `candidate`'s half-points as Caesar and as Pompey
/// against `opponents` in turn (each side playing its own numbers), the
/// seeds drawn from `stream`.
fn play_pairs(
    game: &Game,
    stream: u64,
    pairs: u64,
    candidate: PlayerNumbers,
    opponents: &[PlayerNumbers],
    progress: &Progress,
) -> Result<Vec<[u32; 2]>, Cancelled> {
    per_seed(stream, pairs, progress, |seed, i| {
        let opponent = opponents[i % opponents.len()];
        let caesar = [candidate.caesar, opponent.pompey];
        let caesar = half_points(game, seed, caesar, Side::Caesar);
        progress.tick();
        let pompey = [opponent.caesar, candidate.pompey];
        let pompey = half_points(game, seed, pompey, Side::Pompey);
        progress.tick();
        [caesar, pompey]
    })
}

/// `candidate`'s half-points as `side` against `opponents` in turn, a game
/// of each seed of `games`, the seeds drawn from `stream`.
fn play_side(
    game: &Game,
    stream: u64,
    games: u64,
    (candidate, side): (HeuristicParams, Side),
    opponents: &[PlayerNumbers],
    progress: &Progress,
) -> Result<Vec<u32>, Cancelled> {
    per_seed(stream, games, progress, |seed, i| {
        let players = opponents[i % opponents.len()].with(side, candidate);
        let points = half_points(game, seed, [players.caesar, players.pompey], side);
        progress.tick();
        points
    })
}

/// `params`' score (a win 1, a draw ½) as `side` against `opponents` in
/// turn over `games` seeds of `stream`: the same seeds for every `params`
/// scored on one stream, so their differences carry little of the dice.
pub fn side_score(
    game: &Game,
    stream: u64,
    games: u64,
    (params, side): (HeuristicParams, Side),
    opponents: &[PlayerNumbers],
    progress: &Progress,
) -> Result<f64, Cancelled> {
    let points = play_side(game, stream, games, (params, side), opponents, progress)?;
    let total: u32 = points.iter().sum();
    Ok(f64::from(total) / (2.0 * points.len().max(1) as f64))
}

fn score_of(results: &[[u32; 2]]) -> f64 {
    let points: u32 = results.iter().map(|r| r[0] + r[1]).sum();
    f64::from(points) / (4.0 * results.len() as f64)
}

/// Why CMA-ES stopped before its budget of generations, if it did.
fn early_stop(reasons: &[cmaes::TerminationReason]) -> Option<String> {
    let budget_spent = reasons
        .iter()
        .all(|r| matches!(r, cmaes::TerminationReason::MaxGenerations));
    (!budget_spent).then(|| {
        reasons
            .iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// A generation's best and median score, from its candidates' scores.
fn generation_of(mut scores: Vec<f64>, generation: u64, sigma: f64) -> Option<Generation> {
    if scores.is_empty() {
        return None;
    }
    scores.sort_by(f64::total_cmp);
    Some(Generation {
        generation,
        best: scores[scores.len() - 1],
        median: scores[scores.len() / 2],
        sigma,
    })
}

/// What a CMA-ES run found: its final mean, the candidates it scored, each
/// generation's best and median, and why it stopped early (if it did).
pub(crate) struct Maximised {
    pub(crate) mean: DVector<f64>,
    pub(crate) evaluations: u64,
    pub(crate) generations: Vec<Generation>,
    pub(crate) stopped_early: Option<String>,
}

/// CMA-ES maximising from the origin in `dims` dimensions, `lambda`
/// candidates a generation for the generations `effort` pays for, and no
/// stop on the score's tolerances: they would stop on its noise.
fn noisy_options(effort: &Effort, dims: usize, lambda: usize) -> CMAESOptions {
    CMAESOptions::new(vec![0.0; dims], effort.step)
        .mode(Mode::Maximize)
        .seed(effort.seed)
        .population_size(lambda)
        .max_generations(effort.generations(lambda) as usize)
        .tol_fun(0.0)
        .tol_fun_rel(0.0)
        .tol_fun_hist(0.0)
        .tol_stagnation(usize::MAX)
}

/// Maximises a noisy score by CMA-ES (the heuristic's tuning and the
/// search's) in `dims` dimensions from the origin, with `effort`'s first
/// step and seed, `lambda` candidates a generation for the generations its
/// budget pays for: `score` is told the candidate's generation (all
/// candidates of a generation play the same seeds) and the candidate.
pub(crate) fn maximise(
    effort: &Effort,
    dims: usize,
    lambda: usize,
    score: impl Fn(u64, &DVector<f64>) -> Result<f64, Cancelled>,
) -> Result<Maximised, Cancelled> {
    let evaluated = Cell::new(0u64);
    let cancelled = Cell::new(false);
    // This generation's scores, for the report's best and median.
    let scores = RefCell::new(Vec::with_capacity(lambda));
    let objective = |z: &DVector<f64>| {
        if cancelled.get() {
            return 0.0;
        }
        let generation = evaluated.get() / lambda as u64;
        evaluated.set(evaluated.get() + 1);
        match score(generation, z) {
            Ok(score) => {
                scores.borrow_mut().push(score);
                score
            }
            Err(Cancelled) => {
                cancelled.set(true);
                0.0
            }
        }
    };
    let mut search = noisy_options(effort, dims, lambda)
        .build(objective)
        .expect("the options are checked and the start is finite");
    let mut generations = Vec::new();
    let stopped_early = loop {
        let end = search.next();
        if cancelled.get() {
            return Err(Cancelled);
        }
        let done = std::mem::take(&mut *scores.borrow_mut());
        generations.extend(generation_of(
            done,
            generations.len() as u64,
            search.sigma(),
        ));
        if let Some(end) = end {
            break early_stop(&end.reasons);
        }
    };
    Ok(Maximised {
        mean: search.mean().clone(),
        evaluations: search.function_evals() as u64,
        generations,
        stopped_early,
    })
}

/// Tunes the heuristic for `game`'s rules. Progress counts games.
pub fn tune(
    game: &Game,
    variant: &str,
    options: &TuneOptions,
    progress: &Progress,
) -> Result<TuneReport, Cancelled> {
    let started = std::time::Instant::now();
    let effort = &options.effort;
    let pairs = effort.games_per_candidate / 2;
    let opponents = options.opponents();
    let play = |stream: u64, candidate: PlayerNumbers| match options.side {
        None => {
            play_pairs(game, stream, pairs, candidate, opponents, progress).map(|r| score_of(&r))
        }
        Some(side) => side_score(
            game,
            stream,
            2 * pairs,
            (candidate.of(side), side),
            opponents,
            progress,
        ),
    };
    let lambda = options.population();
    let run = maximise(
        effort,
        HeuristicParams::NAMES.len(),
        lambda,
        |generation, z| play(game_seed(effort.seed, generation), options.candidate(z)),
    )?;
    let generations = run.generations;
    let stopped_early = run.stopped_early;
    let tuned = options.candidate(&run.mean);
    let search_games = run.evaluations * effort.games_per_candidate;
    let check = if effort.check_games > 0 {
        Some(check(game, options, tuned, progress)?)
    } else {
        None
    };
    let games_played = search_games + check.as_ref().map_or(0, |c| c.games * 2);
    let elapsed = started.elapsed().as_secs_f64();
    Ok(TuneReport {
        variant: variant.to_string(),
        options: options.clone(),
        population: lambda,
        generations,
        stopped_early,
        tuned,
        check,
        games_played,
        elapsed_seconds: elapsed,
        games_per_second: games_played as f64 / elapsed.max(1e-9),
    })
}

/// The tuned player against the starting one, and both mirrors, on the
/// check stream.
fn check(
    game: &Game,
    options: &TuneOptions,
    tuned: PlayerNumbers,
    progress: &Progress,
) -> Result<Check, Cancelled> {
    let stream = options.effort.seed ^ CHECK_SALT;
    let pairs = options.effort.check_games / 2;
    let duel = play_pairs(game, stream, pairs, tuned, &[options.start], progress)?;
    let [start, tuned] = [options.start, tuned].map(|n| [n.caesar, n.pompey]);
    let mirrors = per_seed(stream, pairs, progress, |seed, _| {
        let pair = [
            half_points(game, seed, start, Side::Caesar),
            half_points(game, seed, tuned, Side::Caesar),
        ];
        progress.tick();
        progress.tick();
        pair
    })?;
    // Paired over seeds: each seed's score is the mean of its two games.
    let per_seed: Vec<f64> = duel.iter().map(|r| f64::from(r[0] + r[1]) / 4.0).collect();
    let n = per_seed.len() as f64;
    let mean = per_seed.iter().sum::<f64>() / n;
    let var = per_seed.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half_width = crate::sim::runs::stats::Z95 * (var / n).sqrt();
    let wins = |col: usize, of: &[[u32; 2]]| of.iter().filter(|r| r[col] == 2).count() as u64;
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for m in &mirrors {
        let d = f64::from(u8::from(m[1] == 2)) - f64::from(u8::from(m[0] == 2));
        sum += d;
        sum_sq += d * d;
    }
    Ok(Check {
        games: options.effort.check_games,
        score: mean,
        score_ci95: [(mean - half_width).max(0.0), (mean + half_width).min(1.0)],
        as_caesar: Estimate::of(wins(0, &duel), pairs),
        as_pompey: Estimate::of(wins(1, &duel), pairs),
        mirror_start: Estimate::of(wins(0, &mirrors), pairs),
        mirror_tuned: Estimate::of(wins(1, &mirrors), pairs),
        mirror_difference: paired_mean_difference(sum, sum_sq, pairs),
    })
}

impl fmt::Display for TuneReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options.effort;
        writeln!(
            f,
            "tune {}: {} generation{} of {} candidates, {} games each (seed {})",
            self.variant,
            self.generations.len(),
            if self.generations.len() == 1 { "" } else { "s" },
            self.population,
            o.games_per_candidate,
            o.seed
        )?;
        writeln!(f, "  generation   best  median  step")?;
        let last = self.generations.len().saturating_sub(1);
        for g in &self.generations {
            // The first, every tenth and the last: the trend, not a wall.
            if g.generation == 0 || g.generation % 10 == 0 || g.generation as usize == last {
                writeln!(
                    f,
                    "  {:>10} {:>5.1}% {:>6.1}% {:>5.3}",
                    g.generation,
                    g.best * 100.0,
                    g.median * 100.0,
                    g.sigma
                )?;
            }
        }
        if let Some(why) = &self.stopped_early {
            writeln!(f, "  stopped before the budget: {why}")?;
        }
        if let Some(c) = &self.check {
            writeln!(
                f,
                "check on {} games the search never saw, each seed played from both sides:",
                c.games
            )?;
            writeln!(
                f,
                "  tuned against the starting player: scores {:.1}% ({:.1}–{:.1}%)",
                c.score * 100.0,
                c.score_ci95[0] * 100.0,
                c.score_ci95[1] * 100.0
            )?;
            writeln!(f, "    wins as Caesar {}", c.as_caesar.percent_text(5))?;
            writeln!(f, "    wins as Pompey {}", c.as_pompey.percent_text(5))?;
            writeln!(f, "  Caesar's win rate in the mirror match:")?;
            writeln!(f, "    starting player {}", c.mirror_start.percent_text(5))?;
            writeln!(f, "    tuned player    {}", c.mirror_tuned.percent_text(5))?;
            writeln!(
                f,
                "    difference {:+.1} points (p = {:.2})",
                c.mirror_difference.estimate * 100.0,
                c.mirror_difference.p_value
            )?;
            if let Some(side) = self.options.side {
                // Only the tuned side's numbers differ between the mirrors.
                let gain = match side {
                    Side::Caesar => c.mirror_difference.estimate,
                    Side::Pompey => -c.mirror_difference.estimate,
                };
                writeln!(
                    f,
                    "  only {side}'s numbers were tuned: {side} gains {:+.1} points against the starting {}",
                    gain * 100.0,
                    side.other()
                )?;
            }
        }
        writeln!(f, "moved most (start -> tuned):")?;
        for (name, a, b) in self.changes().into_iter().take(8) {
            writeln!(f, "  {name:<22} {a:>7.3} -> {b:>7.3}")?;
        }
        write!(
            f,
            "{} games in {:.1} s ({:.0} games/s)",
            self.games_played, self.elapsed_seconds, self.games_per_second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(seed: u64) -> TuneOptions {
        TuneOptions {
            effort: Effort {
                budget: 50,
                games_per_candidate: 4,
                population: 4,
                step: 0.3,
                check_games: 4,
                seed,
            },
            start: PlayerNumbers::default(),
            side: None,
            against: Vec::new(),
        }
    }

    #[test]
    fn numbers_far_out_of_range_are_kept_finite_and_positive() {
        let start = HeuristicParams::default();
        let n = HeuristicParams::NAMES.len();
        for z in [1e4, -1e4, f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            let params = params_at(&start, &DVector::from_element(n, z));
            assert_eq!(params.check(), Ok(()), "z = {z}");
        }
    }

    #[test]
    fn a_step_wider_than_the_limit_is_refused_before_any_game() {
        let mut options = small(1);
        options.effort.step = 30.0;
        let err = options.check().unwrap_err();
        assert!(matches!(err, OptionsError::Step { .. }), "{err}");
        assert!(err.to_string().contains("at most 5"), "{err}");
    }

    #[test]
    fn a_tuning_run_reproduces_on_any_number_of_threads() {
        let game = crate::test_support::published("rules-2.0");
        let run = |threads| {
            crate::test_support::on_threads(threads, || {
                tune(&game, "rules-2.0", &small(3), &Progress::new()).unwrap()
            })
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.tuned, two.tuned);
        assert_eq!(one.generations, two.generations);
        assert_eq!(one.check, two.check);
        assert_eq!(
            one.generations.len(),
            3,
            "50 games pay for 3 generations of 4 × 4"
        );
        assert_ne!(one.tuned, PlayerNumbers::default(), "the search moved");
    }

    #[test]
    fn the_budget_counts_games() {
        let game = crate::test_support::published("rules-2.0");
        let progress = Progress::new();
        let report = tune(&game, "rules-2.0", &small(5), &progress).unwrap();
        assert_eq!(report.games_played, 48 + 8);
        assert_eq!(progress.done(), small(5).total_games());
    }

    #[test]
    fn odd_games_per_candidate_are_refused() {
        let mut options = small(1);
        options.effort.games_per_candidate = 3;
        assert_eq!(options.check(), Err(OptionsError::GamesPerCandidate(3)));
        options.effort.games_per_candidate = 4;
        options.effort.budget = 5;
        assert!(matches!(
            options.check(),
            Err(OptionsError::BudgetUnderOneGeneration { budget: 5, .. })
        ));
    }

    #[test]
    fn a_candidate_is_scored_from_both_sides() {
        let game = crate::test_support::published("rules-2.0");
        let start = PlayerNumbers::default();
        let results = play_pairs(&game, 9, 6, start, &[start], &Progress::new()).unwrap();
        // The same player on both sides of the same seed: one game won as
        // Caesar is the same game lost as Pompey, so the score is exactly ½.
        for r in &results {
            assert_eq!(r[0] + r[1], 2, "{r:?}");
        }
        assert_eq!(score_of(&results), 0.5);
    }

    #[test]
    fn a_side_tuned_alone_keeps_the_other_sides_numbers() {
        let game = crate::test_support::published("rules-2.0");
        let pompey = HeuristicParams {
            garrison: 2.0,
            ..HeuristicParams::default()
        };
        let mut options = small(4);
        options.start = PlayerNumbers::default().with(Side::Pompey, pompey);
        options.side = Some(Side::Caesar);
        let report = tune(&game, "rules-2.0", &options, &Progress::new()).unwrap();
        assert_eq!(report.tuned.pompey, pompey, "the opponent's numbers stay");
        assert_ne!(
            report.tuned.caesar,
            HeuristicParams::default(),
            "Caesar's moved"
        );
        // Only Caesar's numbers differ between the two mirrors.
        let check = report.check.as_ref().unwrap();
        assert_eq!(check.games, 4);
        assert!(report.player_file().contains("caesar: ("));
        assert!(
            report
                .to_string()
                .contains("only Caesar's numbers were tuned")
        );
    }

    #[test]
    fn numbers_per_side_are_tuned_one_side_at_a_time() {
        let mut options = small(1);
        options.start = PlayerNumbers::default().with(
            Side::Caesar,
            HeuristicParams {
                garrison: 2.0,
                ..HeuristicParams::default()
            },
        );
        assert!(matches!(
            options.check(),
            Err(OptionsError::StartingPlayer(why)) if why.contains("--side")
        ));
        options.side = Some(Side::Pompey);
        assert_eq!(options.check(), Ok(()));
    }

    #[test]
    fn a_pool_of_opponents_is_met_in_turn_game_by_game() {
        let game = crate::test_support::published("rules-2.0");
        let bold = HeuristicParams {
            attack_ratio: 0.5,
            ..HeuristicParams::default()
        };
        let pool = [PlayerNumbers::default(), PlayerNumbers::both(bold)];
        let candidate = (HeuristicParams::default(), Side::Caesar);
        let points = play_side(&game, 11, 4, candidate, &pool, &Progress::new()).unwrap();
        let expected: Vec<u32> = (0..4)
            .map(|i| {
                let pompey = pool[i % 2].pompey;
                let seed = game_seed(11, i as u64);
                half_points(&game, seed, [candidate.0, pompey], Side::Caesar)
            })
            .collect();
        assert_eq!(points, expected);
        let alone = play_side(&game, 11, 4, candidate, &pool[..1], &Progress::new()).unwrap();
        assert_ne!(points, alone, "the bold opponent changes some game");
    }
}
