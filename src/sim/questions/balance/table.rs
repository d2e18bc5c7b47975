//! The meta-game's payoff table: every Caesar player against every Pompey
//! player, game by game, and what its games say with their uncertainty.
//!
//! A cell keeps each game's result (Caesar's points, doubled: a loss 0, a
//! draw 1, a win 2) in game order. Game `k` of every cell is played from
//! the same seed, so cells are paired by game index, and the bootstrap
//! ([`bootstrap`]) resamples the same game indices in every cell of every
//! table it is given: the value of two rule sets or setups is compared
//! over common random numbers.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::solve::{Equilibrium, SolveError, solve};
use crate::sim::runs::stats::Z95;

/// One pairing's games: Caesar's points doubled, one digit a game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cell {
    /// `'0'`, `'1'` or `'2'` per game, game 0 first.
    results: String,
}

/// Why a cell's saved results cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a cell's results hold {found:?} where only the digits 0, 1 and 2 may stand")]
pub struct BadCell {
    pub found: char,
}

impl Cell {
    /// A cell from results as saved, checked.
    pub fn from_results(results: &str) -> Result<Cell, BadCell> {
        if let Some(found) = results.chars().find(|c| !matches!(c, '0' | '1' | '2')) {
            return Err(BadCell { found });
        }
        Ok(Cell {
            results: results.to_string(),
        })
    }

    /// Checks a cell read from a file (serde takes the string as it is).
    pub fn check(&self) -> Result<(), BadCell> {
        Cell::from_results(&self.results).map(|_| ())
    }

    pub fn games(&self) -> u64 {
        self.results.len() as u64
    }

    /// Appends the games of `later` (the next shard's).
    pub fn extend(&mut self, later: &Cell) {
        self.results.push_str(&later.results);
    }

    /// Appends the next game: Caesar's points doubled (0, 1 or 2).
    pub fn push(&mut self, doubled_points: u8) {
        self.results.push(char::from(b'0' + doubled_points.min(2)));
    }

    fn doubled(&self, game: usize) -> u32 {
        u32::from(self.results.as_bytes()[game] - b'0')
    }

    /// Caesar's share of the points (½ before any game).
    pub fn share(&self) -> f64 {
        let n = self.results.len();
        if n == 0 {
            return 0.5;
        }
        let points: u32 = (0..n).map(|k| self.doubled(k)).sum();
        f64::from(points) / (2.0 * n as f64)
    }

    /// The share's 95% interval: Wilson's score interval at the observed
    /// share (draws count half), so it never collapses to a point.
    pub fn interval(&self) -> [f64; 2] {
        wilson(self.share(), self.games())
    }

    /// Half the interval's width: what the next games are spent to narrow.
    pub fn half_width(&self) -> f64 {
        let [lo, hi] = self.interval();
        (hi - lo) / 2.0
    }

    /// The share over a resample: the game indices `draws[m] · n` for the
    /// first `n` draws, `n` this cell's games.
    fn resampled_share(&self, draws: &[f64]) -> f64 {
        let n = self.results.len();
        if n == 0 {
            return 0.5;
        }
        let points: u32 = draws[..n]
            .iter()
            .map(|u| self.doubled(((u * n as f64) as usize).min(n - 1)))
            .sum();
        f64::from(points) / (2.0 * n as f64)
    }
}

/// Wilson's score interval for a share `p` of `n` games (the whole of
/// [0, 1] before any game).
pub fn wilson(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Caesar's share in every pairing: `cells[i][j]` is Caesar player `i`
/// against Pompey player `j`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub cells: Vec<Vec<Cell>>,
    /// The game index of every cell's first result: a shard's start.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Table {
    pub fn new(caesar: usize, pompey: usize) -> Table {
        Table {
            cells: vec![vec![Cell::default(); pompey]; caesar],
            offset: 0,
        }
    }

    pub fn rows(&self) -> usize {
        self.cells.len()
    }

    pub fn columns(&self) -> usize {
        self.cells.first().map_or(0, Vec::len)
    }

    /// A new Caesar player's row, empty.
    pub fn add_row(&mut self) {
        let columns = self.columns();
        self.cells.push(vec![Cell::default(); columns]);
    }

    /// A new Pompey player's column, empty.
    pub fn add_column(&mut self) {
        for row in &mut self.cells {
            row.push(Cell::default());
        }
    }

    /// The table of the first `rows` Caesar and `columns` Pompey players.
    pub fn corner(&self, rows: usize, columns: usize) -> Table {
        Table {
            cells: self.cells[..rows.min(self.rows())]
                .iter()
                .map(|row| row[..columns.min(row.len())].to_vec())
                .collect(),
            offset: self.offset,
        }
    }

    pub fn shares(&self) -> Vec<Vec<f64>> {
        self.cells
            .iter()
            .map(|row| row.iter().map(Cell::share).collect())
            .collect()
    }

    pub fn games(&self) -> u64 {
        self.cells.iter().flatten().map(Cell::games).sum()
    }

    pub fn solve(&self) -> Result<Equilibrium, SolveError> {
        solve(&self.shares())
    }

    fn most_games(&self) -> usize {
        self.cells
            .iter()
            .flatten()
            .map(|c| c.results.len())
            .max()
            .unwrap_or(0)
    }

    fn resampled(&self, draws: &[f64]) -> Vec<Vec<f64>> {
        self.cells
            .iter()
            .map(|row| row.iter().map(|c| c.resampled_share(draws)).collect())
            .collect()
    }
}

/// The equilibria of `replicates` resamples of every table, the same game
/// indices drawn in every cell of every table of a replicate: `result[r][t]`
/// is table `t`'s equilibrium in replicate `r`. Reproducible from `seed`.
pub fn bootstrap(
    tables: &[&Table],
    replicates: u32,
    seed: u64,
) -> Result<Vec<Vec<Equilibrium>>, SolveError> {
    let most = tables.iter().map(|t| t.most_games()).max().unwrap_or(0);
    let mut draws = vec![0.0f64; most];
    (0..replicates)
        .map(|r| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ u64::from(r).wrapping_mul(0x9E37_79B9));
            draws.iter_mut().for_each(|u| *u = rng.random::<f64>());
            tables
                .iter()
                .map(|t| solve(&t.resampled(&draws)))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect()
}

/// The 2.5th and 97.5th percentiles of `values` (linear between ranks).
pub fn percentile_interval(values: &[f64]) -> [f64; 2] {
    if values.is_empty() {
        return [f64::NAN, f64::NAN];
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let pos = q * (sorted.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
    };
    [at(0.025), at(0.975)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(results: &str) -> Cell {
        Cell::from_results(results).unwrap()
    }

    #[test]
    fn a_cell_counts_draws_as_half_and_its_interval_never_collapses() {
        let c = cell("2210");
        assert_eq!(c.games(), 4);
        assert!((c.share() - 5.0 / 8.0).abs() < 1e-12);
        let all_wins = cell("2");
        let [lo, hi] = all_wins.interval();
        assert!(lo < 0.5 && hi == 1.0, "{lo} {hi}");
        assert!(Cell::from_results("21x").is_err());
    }

    #[test]
    fn the_bootstrap_is_reproducible_from_its_seed_and_pairs_tables() {
        let mut t = Table::new(2, 2);
        for (k, results) in ["2020202011", "0000200020", "2222022220", "2020002000"]
            .iter()
            .enumerate()
        {
            t.cells[k / 2][k % 2] = cell(results);
        }
        let a = bootstrap(&[&t, &t], 50, 7).unwrap();
        let b = bootstrap(&[&t, &t], 50, 7).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, bootstrap(&[&t, &t], 50, 8).unwrap());
        // The same table twice, resampled alike: identical in every replicate.
        assert!(a.iter().all(|r| r[0] == r[1]));
        let values: Vec<f64> = a.iter().map(|r| r[0].value).collect();
        let [lo, hi] = percentile_interval(&values);
        let value = t.solve().unwrap().value;
        assert!(lo <= value && value <= hi, "{lo} {value} {hi}");
    }
}
