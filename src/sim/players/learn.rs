//! `learn`: fits a [`ValueModel`] on positions of self-play and measures how
//! well its chances match what happened, on games the fit never saw.
//!
//! Each game is played to the end by the given players; at the start of
//! every game turn each side's features are taken from its own view, and
//! labelled with how the game ended for that side (win 1, draw ½, loss 0).
//! The last games of the run are held out; the rest are fitted, a logistic
//! regression for each side by Newton's method (iteratively reweighted
//! least squares, with a small ridge so that features that move together
//! stay well-defined), the linear algebra being `nalgebra`'s.
//!
//! Everything derives from the seed, and a game's positions do not depend on
//! the thread that plays it: a fit reproduces exactly on any number of
//! threads.

use std::fmt;

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::value::{FEATURES, Features, PlayoutStop, ValueModel, features};
use crate::ai::{AiSpec, Player, play_watched};
use crate::engine::{Game, NoLog, State};
use crate::scenario::model::Side;
use crate::sim::runs::options::OptionsError;
use crate::sim::{Cancelled, Progress, game_and_player_seeds};

/// What to fit on, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LearnOptions {
    /// Games of self-play, the held-out ones included.
    pub games: u64,
    /// The share of the games (the last ones) the fit never sees.
    pub held_out: f64,
    pub seed: u64,
    /// Caesar's and Pompey's players.
    pub players: [AiSpec; 2],
    /// Game turns a playout scored by the model plays before it stops.
    pub horizon_turns: u8,
    /// Where the playouts the model scores stop: at the horizon, or at the
    /// next year's start if that comes first.
    #[serde(default, skip_serializing_if = "PlayoutStop::is_horizon")]
    pub playouts_stop: PlayoutStop,
}

impl LearnOptions {
    pub fn check(&self) -> Result<(), OptionsError> {
        let held_out = (self.games as f64 * self.held_out).round() as u64;
        if self.games < 2 || held_out == 0 || held_out >= self.games {
            return Err(OptionsError::HeldOut {
                games: self.games,
                share: self.held_out,
            });
        }
        Ok(())
    }

    /// Games the fit sees: the first ones.
    pub fn fitted_games(&self) -> u64 {
        self.games - (self.games as f64 * self.held_out).round() as u64
    }
}

/// Positions of one decile of predictions (sorted by predicted chance):
/// what the model said on average, and how often the side won.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decile {
    pub positions: u64,
    pub predicted: f64,
    pub observed: f64,
}

/// How well a side's predicted chances match the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub games: u64,
    pub positions: u64,
    /// Mean squared error of the chances against the results (0 is perfect).
    pub brier: f64,
    /// The Brier score of always saying the fitted games' win rate: what
    /// the features add is the gap between the two.
    pub brier_constant: f64,
    /// Mean negative log-likelihood (nats).
    pub log_loss: f64,
    pub deciles: Vec<Decile>,
}

/// One side's fit, judged on the fitted games and on the held-out ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideFit {
    pub side: Side,
    pub fitted: Calibration,
    pub held_out: Calibration,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LearnReport {
    /// The rule set as given (a built-in name or a variant file).
    pub variant: String,
    pub options: LearnOptions,
    pub sides: Vec<SideFit>,
    pub model: ValueModel,
}

/// One side's positions: features and the result for that side.
#[derive(Default)]
struct Positions {
    x: Vec<Features>,
    y: Vec<f64>,
}

/// Plays game `index` and takes both sides' positions at every game turn's start.
fn game_positions(game: &Game, options: &LearnOptions, index: u64) -> [Positions; 2] {
    let (seed, player_seeds) = game_and_player_seeds(options.seed, index);
    let mut players: [Box<dyn Player>; 2] = Side::BOTH
        .map(|side| options.players[side.index()].player(side, player_seeds[side.index()], false));
    let state = State::new(game, seed);
    let mut taken: [Vec<Features>; 2] = Default::default();
    let mut take = |state: &State| {
        for side in Side::BOTH {
            taken[side.index()].push(features(game, &state.view(side, false)));
        }
    };
    take(&state);
    let mut at = (state.year(), state.turn());
    let end = play_watched(game, state, &mut players, &mut NoLog, |state, _, _| {
        if (state.year(), state.turn()) != at && !state.is_over() {
            at = (state.year(), state.turn());
            take(state);
        }
    });
    let winner = end.outcome().and_then(|o| o.winner);
    Side::BOTH.map(|side| {
        let result = match winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let x = std::mem::take(&mut taken[side.index()]);
        let y = vec![result; x.len()];
        Positions { x, y }
    })
}

/// Plays games `range`, in order, each side's positions gathered.
fn play_games(
    game: &Game,
    options: &LearnOptions,
    range: std::ops::Range<u64>,
    progress: &Progress,
) -> Result<[Positions; 2], Cancelled> {
    let per_game: Vec<[Positions; 2]> = range
        .into_par_iter()
        .map(|index| {
            if progress.is_cancelled() {
                return Err(Cancelled);
            }
            let positions = game_positions(game, options, index);
            progress.tick();
            Ok(positions)
        })
        .collect::<Result<_, _>>()?;
    let mut all: [Positions; 2] = Default::default();
    for [caesar, pompey] in per_game {
        for (into, from) in all.iter_mut().zip([caesar, pompey]) {
            into.x.extend(from.x);
            into.y.extend(from.y);
        }
    }
    Ok(all)
}

/// Fits a value model on `options.games` games of self-play under `game`.
pub fn learn(
    game: &Game,
    variant: &str,
    options: &LearnOptions,
    progress: &Progress,
) -> Result<LearnReport, Cancelled> {
    let fitted_games = options.fitted_games();
    let train = play_games(game, options, 0..fitted_games, progress)?;
    let test = play_games(game, options, fitted_games..options.games, progress)?;
    let (mean, scale) = standardisation(train.iter().flat_map(|p| &p.x));
    let weights = Side::BOTH.map(|side| {
        let p = &train[side.index()];
        fit_logistic(&p.x, &p.y, &mean, &scale)
    });
    let [caesar, pompey] = weights;
    let model = ValueModel {
        horizon_turns: options.horizon_turns,
        playouts_stop: options.playouts_stop,
        features: FEATURES.iter().map(|f| f.to_string()).collect(),
        mean,
        scale,
        caesar,
        pompey,
        policy: None,
    };
    let held_out_games = options.games - fitted_games;
    let sides = Side::BOTH
        .into_iter()
        .map(|side| {
            let base = mean_of(&train[side.index()].y);
            let judge = |p: &Positions, games| calibration(&model, side, p, base, games);
            SideFit {
                side,
                fitted: judge(&train[side.index()], fitted_games),
                held_out: judge(&test[side.index()], held_out_games),
            }
        })
        .collect();
    Ok(LearnReport {
        variant: variant.to_string(),
        options: options.clone(),
        sides,
        model,
    })
}

fn mean_of(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

/// Each feature's mean and spread (1 where it does not vary, the bias's 0 and 1).
fn standardisation<'a>(rows: impl Iterator<Item = &'a Features> + Clone) -> (Vec<f64>, Vec<f64>) {
    let n = rows.clone().count().max(1) as f64;
    let mut mean = vec![0.0; FEATURES.len()];
    for row in rows.clone() {
        mean.iter_mut().zip(row).for_each(|(m, x)| *m += x / n);
    }
    let mut var = vec![0.0; FEATURES.len()];
    for row in rows {
        var.iter_mut()
            .zip(row.iter().zip(&mean))
            .for_each(|(v, (x, m))| *v += (x - m).powi(2) / n);
    }
    let scale = var
        .iter()
        .map(|v| if v.sqrt() > 1e-9 { v.sqrt() } else { 1.0 })
        .collect::<Vec<_>>();
    mean[0] = 0.0;
    let mut scale = scale;
    scale[0] = 1.0;
    (mean, scale)
}

/// Ridge on every weight but the bias: enough to keep features that move
/// together (a side's VP and its late-in-the-year VP) apart, far too little
/// to pull the fit on tens of thousands of positions.
const RIDGE: f64 = 1.0;

/// Logistic regression of `y` (0, ½ or 1) on the standardised `x`, by
/// Newton's method on the penalised log-likelihood.
fn fit_logistic(x: &[Features], y: &[f64], mean: &[f64], scale: &[f64]) -> Vec<f64> {
    let d = FEATURES.len();
    let rows: Vec<DVector<f64>> = x
        .iter()
        .map(|row| DVector::from_iterator(d, (0..d).map(|i| (row[i] - mean[i]) / scale[i])))
        .collect();
    let mut w = DVector::zeros(d);
    for _ in 0..50 {
        let mut hessian = DMatrix::identity(d, d) * RIDGE;
        hessian[(0, 0)] = 1e-9;
        let mut gradient = -&w * RIDGE;
        gradient[0] = 0.0;
        for (row, &target) in rows.iter().zip(y) {
            let p = sigmoid(w.dot(row));
            gradient.axpy(target - p, row, 1.0);
            hessian.ger(p * (1.0 - p), row, row, 1.0);
        }
        let Some(step) = hessian.cholesky().map(|c| c.solve(&gradient)) else {
            break; // no positions at all: the zero model (½ everywhere)
        };
        w += &step;
        if step.amax() < 1e-10 {
            break;
        }
    }
    w.iter().copied().collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// How `model`'s chances for `side` match the results of `positions`;
/// `base` is the constant forecast compared against.
fn calibration(
    model: &ValueModel,
    side: Side,
    positions: &Positions,
    base: f64,
    games: u64,
) -> Calibration {
    let mut scored: Vec<(f64, f64)> = positions
        .x
        .iter()
        .zip(&positions.y)
        .map(|(x, &y)| (model.predict(side, x), y))
        .collect();
    let n = scored.len().max(1) as f64;
    let brier = scored.iter().map(|(p, y)| (p - y).powi(2)).sum::<f64>() / n;
    let brier_constant = scored.iter().map(|(_, y)| (base - y).powi(2)).sum::<f64>() / n;
    let log_loss = scored
        .iter()
        .map(|(p, y)| {
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / n;
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let len = scored.len();
    let deciles = (0..10)
        .map(|k| &scored[k * len / 10..(k + 1) * len / 10])
        .filter(|bin| !bin.is_empty())
        .map(|bin| Decile {
            positions: bin.len() as u64,
            predicted: bin.iter().map(|(p, _)| p).sum::<f64>() / bin.len() as f64,
            observed: bin.iter().map(|(_, y)| y).sum::<f64>() / bin.len() as f64,
        })
        .collect();
    Calibration {
        games,
        positions: len as u64,
        brier,
        brier_constant,
        log_loss,
        deciles,
    }
}

impl LearnReport {
    /// The value file: the model, headed by how it was fitted and how well
    /// it predicts games it never saw.
    pub fn value_file(&self) -> String {
        let o = &self.options;
        let mut header = format!(
            "A learned evaluation for {}: the chance a side wins from the start of a game turn.\n\
             Fitted by `caesar-workbench learn --variant {0} --games {} --seed {} --caesar-ai {} --pompey-ai {} --horizon {}{} --held-out {}`\n\
             on the positions of {} games; {} more games held out.",
            self.variant,
            o.games,
            o.seed,
            o.players[0],
            o.players[1],
            o.horizon_turns,
            match o.playouts_stop {
                PlayoutStop::Horizon => "",
                PlayoutStop::YearEnd => " --playouts-stop year-end",
            },
            o.held_out,
            o.fitted_games(),
            o.games - o.fitted_games(),
        );
        for fit in &self.sides {
            let h = &fit.held_out;
            header.push_str(&format!(
                "\n{:?} on the held-out games: Brier {:.4} (a constant chance: {:.4}), log loss {:.4}, {} positions.",
                fit.side, h.brier, h.brier_constant, h.log_loss, h.positions
            ));
        }
        self.model.to_ron(&header)
    }
}

impl fmt::Display for LearnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        writeln!(
            f,
            "learned evaluation for {}: {} games ({} fitted, {} held out), seed {}, {} vs {}",
            self.variant,
            o.games,
            o.fitted_games(),
            o.games - o.fitted_games(),
            o.seed,
            o.players[0],
            o.players[1],
        )?;
        for fit in &self.sides {
            writeln!(f)?;
            writeln!(f, "{:?}'s chance to win, from its own view:", fit.side)?;
            for (what, c) in [("fitted", &fit.fitted), ("held out", &fit.held_out)] {
                writeln!(
                    f,
                    "  {what:<9} {:>6} positions  Brier {:.4} (constant {:.4}, {:+.1}%)  log loss {:.4}",
                    c.positions,
                    c.brier,
                    c.brier_constant,
                    100.0 * (c.brier - c.brier_constant) / c.brier_constant.max(1e-12),
                    c.log_loss,
                )?;
            }
            writeln!(
                f,
                "  reliability on the held-out games, by decile of the chance given:"
            )?;
            writeln!(f, "    decile  positions  predicted  observed")?;
            for (k, d) in fit.held_out.deciles.iter().enumerate() {
                writeln!(
                    f,
                    "    {:>6}  {:>9}  {:>8.1}%  {:>7.1}%",
                    k + 1,
                    d.positions,
                    100.0 * d.predicted,
                    100.0 * d.observed
                )?;
            }
        }
        let strongest = |side: Side| {
            let w = self.model.weights(side);
            let mut named: Vec<(&str, f64)> = FEATURES
                .iter()
                .copied()
                .zip(w.iter().copied())
                .skip(1)
                .collect();
            named.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
            named
                .iter()
                .take(5)
                .map(|(n, w)| format!("{n} {w:+.2}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(f)?;
        for side in Side::BOTH {
            writeln!(
                f,
                "heaviest weights for {side:?} (per spread): {}",
                strongest(side)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(games: u64, seed: u64) -> LearnOptions {
        LearnOptions {
            games,
            held_out: 0.25,
            seed,
            players: [AiSpec::Heuristic, AiSpec::Heuristic],
            horizon_turns: 5,
            playouts_stop: PlayoutStop::Horizon,
        }
    }

    /// Logistic regression recovers the weights behind labels drawn from
    /// them (a known model, many positions).
    #[test]
    fn the_fit_recovers_known_weights() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let truth = [0.3, 1.5, -2.0];
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..20_000 {
            let mut row = [0.0; FEATURES.len()];
            row[0] = 1.0;
            row[1] = rng.random_range(-1.0..1.0);
            row[2] = rng.random_range(-1.0..1.0);
            let p = sigmoid(truth[0] + truth[1] * row[1] + truth[2] * row[2]);
            x.push(row);
            y.push(if rng.random::<f64>() < p { 1.0 } else { 0.0 });
        }
        let (mean, scale) = (vec![0.0; FEATURES.len()], vec![1.0; FEATURES.len()]);
        let w = fit_logistic(&x, &y, &mean, &scale);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.1, "{w:?}");
        }
        assert!(
            w[3..].iter().all(|v| v.abs() < 1e-9),
            "unused features weigh nothing"
        );
    }

    /// A fit on real games predicts held-out games better than a constant
    /// chance, and reproduces exactly on one thread and on two.
    #[test]
    fn a_fit_beats_a_constant_chance_and_reproduces_on_any_thread_count() {
        let game = crate::test_support::published("rules-2.0");
        let run = |threads| {
            crate::test_support::on_threads(threads, || {
                learn(&game, "rules-2.0", &options(120, 5), &Progress::new()).unwrap()
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        for fit in &one.sides {
            let h = &fit.held_out;
            assert_eq!(h.games, 30);
            assert!(h.positions > 30 * 10, "{h:?}");
            assert!(h.brier < h.brier_constant, "{:?}: {h:?}", fit.side);
            assert_eq!(
                h.deciles.iter().map(|d| d.positions).sum::<u64>(),
                h.positions
            );
        }
        // The file written reads back as the model fitted.
        let (_dir, path) = crate::test_support::temp_file("value.ron", one.value_file());
        assert_eq!(ValueModel::load(&path).unwrap(), one.model);
    }

    #[test]
    fn a_held_out_share_that_leaves_no_game_on_one_side_is_refused() {
        assert!(options(100, 1).check().is_ok());
        for share in [0.0, 1.0, 0.001] {
            let o = LearnOptions {
                held_out: share,
                ..options(100, 1)
            };
            assert!(o.check().is_err(), "{share}");
        }
    }
}
