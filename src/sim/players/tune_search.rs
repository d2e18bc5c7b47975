//! `tune --search`: fits a tree search's own settings ([`MctsParams`]:
//! exploration, the heuristic's prior, the share of the budget a reused
//! tree spends) with the optimiser `tune` fits the heuristic with (CMA-ES),
//! as the tabletop-games research frameworks tune MCTS per game.
//!
//! A candidate plays both sides of the same seeds against one opponent; all
//! candidates of a generation play the same seeds, each generation new ones.
//! The search runs in an unbounded space: the exploration constant is its
//! start times e^z, the two shares are the logistic of their start's logit
//! plus z, so every candidate is a valid setting. The result (CMA-ES's final
//! mean) and the starting settings then meet the opponent again on seeds the
//! search never played, each way, and the report gives both scores and their
//! paired difference. Everything derives from the seed.

use std::fmt;

use cmaes::DVector;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::{AiSpec, MctsParams, Player, play_game};
use crate::engine::{Game, NoLog};
use crate::scenario::model::Side;
use crate::sim::players::tune::{Effort, Generation, maximise};
use crate::sim::runs::options::OptionsError;
use crate::sim::runs::stats::{PairedDifference, paired_mean_difference};
use crate::sim::{Cancelled, Progress, game_and_player_seeds, game_seed};

/// Salt of the check games' seeds: a stream the search never plays.
const CHECK_SALT: u64 = 0x5EA2_C4EC_0000_5EED;

/// What to tune, and how hard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchTuneOptions {
    /// The search whose settings are tuned: `mcts:N@FILE[+VALUE]`. Its
    /// file's `mcts:` settings (or the defaults) are where the search starts.
    pub search: AiSpec,
    /// The player every candidate meets, on both sides.
    pub opponent: AiSpec,
    /// The step is in the transformed space; the check plays its games for
    /// each of the tuned and starting settings.
    #[serde(flatten)]
    pub effort: Effort,
}

impl SearchTuneOptions {
    pub fn check(&self) -> Result<(), OptionsError> {
        if self.start_settings().is_none() {
            return Err(OptionsError::SearchToTune(format!(
                "{} is not a tree search on a player file: tune --search takes mcts:N@FILE (or mcts:N@FILE+VALUE)",
                self.search
            )));
        }
        self.effort.check(self.population())
    }

    /// Candidates per generation: as given, at least 2.
    pub fn population(&self) -> usize {
        self.effort.population.max(2)
    }

    /// The settings the search starts from, if `search` is an MCTS on a file.
    pub fn start_settings(&self) -> Option<MctsParams> {
        match &self.search {
            AiSpec::SearchOn(on)
                if matches!(on.search, AiSpec::Mcts { .. } | AiSpec::MctsTimed { .. }) =>
            {
                Some(on.on.numbers.mcts.unwrap_or_default())
            }
            _ => None,
        }
    }

    pub fn generations(&self) -> u64 {
        self.effort.generations(self.population())
    }

    /// Games a run plays, the search and the check together.
    pub fn total_games(&self) -> u64 {
        self.effort.total_games(self.population())
    }

    /// The search with these settings in its player file.
    fn with_settings(&self, settings: MctsParams) -> AiSpec {
        let mut spec = self.search.clone();
        if let AiSpec::SearchOn(on) = &mut spec {
            on.on.numbers.mcts = Some(settings);
        }
        spec
    }
}

fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The settings a point `z` of the search stands for.
fn settings_at(start: MctsParams, z: &DVector<f64>) -> MctsParams {
    // Kept off the very edges, where a share of 0 or 1 is not a setting.
    let share = |p: f64, z: f64| logistic(logit(p) + z).clamp(1e-3, 1.0 - 1e-3);
    MctsParams {
        c_puct: (start.c_puct * z[0].exp()).clamp(1e-4, 1e4),
        heuristic_prior: share(start.heuristic_prior, z[1]),
        reused_share: share(start.reused_share, z[2]),
        groups: start.groups,
        own_moves: start.own_moves,
        hold_vp_cities: start.hold_vp_cities,
    }
}

/// `spec`'s points (win 1, draw ½) as Caesar and as Pompey against
/// `opponent` over the first `pairs` seeds of `stream`, one game each way.
fn duel(
    game: &Game,
    stream: u64,
    pairs: u64,
    (spec, opponent): (&AiSpec, &AiSpec),
    progress: &Progress,
) -> Result<Vec<[f64; 2]>, Cancelled> {
    let points = |seed: u64, caesar: &AiSpec, pompey: &AiSpec, side: Side| {
        let (game_seed, seeds) = game_and_player_seeds(seed, 0);
        let mut players: [Box<dyn Player>; 2] = [
            caesar.player(Side::Caesar, seeds[0], false),
            pompey.player(Side::Pompey, seeds[1], false),
        ];
        let end = play_game(game, game_seed, &mut players, &mut NoLog);
        progress.tick();
        match end.outcome().and_then(|o| o.winner) {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    };
    // A game's result depends on its seeds only: the games (and the
    // searches' worlds within them) share the threads in any order.
    (0..pairs)
        .into_par_iter()
        .map(|i| {
            if progress.is_cancelled() {
                return Err(Cancelled);
            }
            let seed = game_seed(stream, i);
            Ok([
                points(seed, spec, opponent, Side::Caesar),
                points(seed, opponent, spec, Side::Pompey),
            ])
        })
        .collect()
}

fn mean_score(results: &[[f64; 2]]) -> f64 {
    results.iter().map(|r| r[0] + r[1]).sum::<f64>() / (2.0 * results.len().max(1) as f64)
}

/// A paired difference in points, as `+1.5 pts (95% CI … to …, p = …)`.
fn points_text(d: &PairedDifference) -> String {
    format!(
        "{:+.1} pts (95% CI {:+.1} to {:+.1}, p = {:.3})",
        100.0 * d.estimate,
        100.0 * d.ci95[0],
        100.0 * d.ci95[1],
        d.p_value
    )
}

/// The tuned and the starting settings against the opponent on unseen seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchCheck {
    pub games: u64,
    pub tuned_score: f64,
    pub start_score: f64,
    /// Tuned minus starting score over the same seeds (points per game).
    pub difference: PairedDifference,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchTuneReport {
    pub variant: String,
    pub options: SearchTuneOptions,
    pub generations: Vec<Generation>,
    pub start: MctsParams,
    pub tuned: MctsParams,
    pub check: Option<SearchCheck>,
    pub games_played: u64,
    pub elapsed_seconds: f64,
}

/// Tunes the settings of `options.search` for `game`'s rules. Progress counts games.
pub fn tune_search(
    game: &Game,
    variant: &str,
    options: &SearchTuneOptions,
    progress: &Progress,
) -> Result<SearchTuneReport, Cancelled> {
    let started = std::time::Instant::now();
    let start = options.start_settings().unwrap_or_default();
    let effort = &options.effort;
    let pairs = effort.games_per_candidate / 2;
    let run = maximise(effort, 3, options.population(), |generation, z| {
        let stream = game_seed(effort.seed, generation);
        let spec = options.with_settings(settings_at(start, z));
        duel(game, stream, pairs, (&spec, &options.opponent), progress).map(|r| mean_score(&r))
    })?;
    let generations = run.generations;
    let tuned = settings_at(start, &run.mean);
    let search_games = run.evaluations * effort.games_per_candidate;
    let check = if effort.check_games > 0 {
        Some(check(game, options, [tuned, start], progress)?)
    } else {
        None
    };
    Ok(SearchTuneReport {
        variant: variant.to_string(),
        options: options.clone(),
        generations,
        start,
        tuned,
        games_played: search_games + 2 * effort.check_games,
        check,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    })
}

/// The tuned and the starting settings, each against the opponent on the
/// same unseen seeds.
fn check(
    game: &Game,
    options: &SearchTuneOptions,
    [tuned, start]: [MctsParams; 2],
    progress: &Progress,
) -> Result<SearchCheck, Cancelled> {
    let stream = options.effort.seed ^ CHECK_SALT;
    let pairs = options.effort.check_games / 2;
    let [a, b] = [tuned, start].map(|settings| {
        let spec = options.with_settings(settings);
        duel(game, stream, pairs, (&spec, &options.opponent), progress)
    });
    let (a, b) = (a?, b?);
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for (x, y) in a.iter().zip(&b) {
        let d = (x[0] + x[1] - y[0] - y[1]) / 2.0;
        sum += d;
        sum_sq += d * d;
    }
    Ok(SearchCheck {
        games: options.effort.check_games,
        tuned_score: mean_score(&a),
        start_score: mean_score(&b),
        difference: paired_mean_difference(sum, sum_sq, pairs),
    })
}

impl SearchTuneReport {
    /// What the search played: `3 generation(s) of 7 candidates, 20 games
    /// each` (the player file's header and the report say it alike).
    fn budget_text(&self) -> String {
        format!(
            "{} generation(s) of {} candidates, {} games each",
            self.generations.len(),
            self.options.population(),
            self.options.effort.games_per_candidate
        )
    }

    /// The player file: the search's numbers with the tuned `mcts:` settings,
    /// headed by how they were found.
    pub fn player_file(&self) -> String {
        let AiSpec::SearchOn(on) = &self.options.search else {
            unreachable!("the options are checked: an MCTS on a player file")
        };
        let o = &self.options;
        let mut header = format!(
            "The numbers of {} with the tree search's settings tuned for {} by\n\
             `caesar-workbench tune --search {} --opponent {}` (CMA-ES):\n\
             {}, seed {}.",
            on.on.path,
            self.variant,
            o.search,
            o.opponent,
            self.budget_text(),
            o.effort.seed,
        );
        if let Some(c) = &self.check {
            header.push_str(&format!(
                "\nOn {} unseen games each: tuned {:.1}%, starting settings {:.1}% against {} ({}).",
                c.games,
                100.0 * c.tuned_score,
                100.0 * c.start_score,
                o.opponent,
                points_text(&c.difference),
            ));
        }
        let numbers = crate::ai::PlayerNumbers {
            mcts: Some(self.tuned),
            ..on.on.numbers
        };
        numbers.to_ron(&header)
    }
}

impl fmt::Display for SearchTuneReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        writeln!(
            f,
            "tune {} settings for {} against {}: {} (seed {})",
            o.search,
            self.variant,
            o.opponent,
            self.budget_text(),
            o.effort.seed
        )?;
        writeln!(f, "  generation   best  median  step")?;
        for g in &self.generations {
            writeln!(
                f,
                "  {:>10}  {:>5.1}%  {:>5.1}%  {:.3}",
                g.generation,
                100.0 * g.best,
                100.0 * g.median,
                g.sigma
            )?;
        }
        let (s, t) = (self.start, self.tuned);
        writeln!(f, "  setting          start    tuned")?;
        writeln!(f, "  c_puct         {:>7.3}  {:>7.3}", s.c_puct, t.c_puct)?;
        writeln!(
            f,
            "  heuristic_prior{:>7.3}  {:>7.3}",
            s.heuristic_prior, t.heuristic_prior
        )?;
        writeln!(
            f,
            "  reused_share   {:>7.3}  {:>7.3}",
            s.reused_share, t.reused_share
        )?;
        if let Some(c) = &self.check {
            writeln!(
                f,
                "check on {} unseen games each: tuned {:.1}%, start {:.1}% against {}; tuned − start {}",
                c.games,
                100.0 * c.tuned_score,
                100.0 * c.start_score,
                o.opponent,
                points_text(&c.difference)
            )?;
        }
        writeln!(
            f,
            "{} games in {:.1} s",
            self.games_played, self.elapsed_seconds
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(seed: u64) -> SearchTuneOptions {
        let file = "variants/players/tuned-rules-2.0.ron";
        SearchTuneOptions {
            search: format!("mcts:1@{file}").parse().unwrap(),
            opponent: AiSpec::Heuristic,
            effort: Effort {
                budget: 4,
                games_per_candidate: 2,
                population: 2,
                step: 0.5,
                check_games: 2,
                seed,
            },
        }
    }

    #[test]
    fn every_point_of_the_search_is_a_valid_setting() {
        let start = MctsParams::default();
        for z in [[0.0, 0.0, 0.0], [40.0, -40.0, 40.0], [-40.0, 40.0, -40.0]] {
            let s = settings_at(start, &DVector::from_vec(z.to_vec()));
            assert!(s.check().is_ok(), "{z:?}: {s:?}");
        }
        assert_eq!(settings_at(start, &DVector::zeros(3)).c_puct, start.c_puct);
    }

    /// A small run reproduces on one thread and on two, and writes a player
    /// file whose settings a search then plays by.
    #[test]
    fn a_search_tuning_run_reproduces_and_writes_a_file_mcts_plays() {
        let game = crate::test_support::published("rules-2.0");
        let run = |threads| {
            crate::test_support::on_threads(threads, || {
                tune_search(&game, "rules-2.0", &options(3), &Progress::new()).unwrap()
            })
        };
        let one = run(1);
        let two = run(2);
        assert_eq!((one.tuned, &one.generations), (two.tuned, &two.generations));
        assert_eq!(one.generations.len(), 1);
        assert_eq!(one.games_played, 4 + 2 * 2);
        assert_ne!(one.tuned, one.start, "the search moved");
        let (_dir, path) = crate::test_support::temp_file("p.ron", one.player_file());
        let read = crate::ai::PlayerNumbers::load(&path).unwrap();
        assert_eq!(read.mcts, Some(one.tuned));
        let spec: AiSpec = format!("mcts:2@{}", path.display()).parse().unwrap();
        assert_eq!(spec.numbers_file().unwrap().numbers.mcts, Some(one.tuned));
    }

    #[test]
    fn only_a_tree_search_on_a_player_file_is_tuned() {
        let o = SearchTuneOptions {
            search: AiSpec::Mcts { playouts: 2 },
            ..options(1)
        };
        let err = o.check().unwrap_err().to_string();
        assert!(err.contains("mcts:N@FILE"), "{err}");
        assert!(options(1).check().is_ok());
    }
}
