//! The zero-sum meta-game solved exactly: each side's optimal mix of its
//! players and the game's value, by linear programming (the `microlp` crate).
//!
//! Caesar's mix `x` maximises `v` subject to `Σᵢ xᵢ A[i][j] ≥ v` for every
//! Pompey player `j`; Pompey's mix `y` minimises `w` subject to
//! `Σⱼ yⱼ A[i][j] ≤ w` for every Caesar player `i`. By the minimax theorem
//! `v = w`: the value. Both programs are solved so that each side's mix is
//! an optimal one in its own right (one program's duals would do too, but
//! `microlp` does not expose them).

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// Mix weights below this are the solver's rounding, not a choice.
const ROUNDING: f64 = 1e-9;

/// An equilibrium of a two-player zero-sum game given by Caesar's payoff.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    /// Caesar's payoff when both sides play their mixes.
    pub value: f64,
    /// Weight of each Caesar player (row), adding to 1.
    pub caesar: Vec<f64>,
    /// Weight of each Pompey player (column), adding to 1.
    pub pompey: Vec<f64>,
}

/// Why a table has no equilibrium to report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("the payoff table is empty: each side needs at least one player")]
    Empty,
    #[error("row {row} of the payoff table has {got} cells where {expected} were expected")]
    Ragged {
        row: usize,
        got: usize,
        expected: usize,
    },
    #[error("cell ({row}, {column}) of the payoff table is not a finite number")]
    NotFinite { row: usize, column: usize },
    #[error("the linear program failed: {0}")]
    Solver(String),
}

/// Solves the zero-sum game with Caesar's payoff `payoff[i][j]` (row `i`
/// Caesar's player, column `j` Pompey's).
pub fn solve(payoff: &[Vec<f64>]) -> Result<Equilibrium, SolveError> {
    let rows = payoff.len();
    let columns = payoff.first().map_or(0, Vec::len);
    if rows == 0 || columns == 0 {
        return Err(SolveError::Empty);
    }
    for (row, cells) in payoff.iter().enumerate() {
        if cells.len() != columns {
            return Err(SolveError::Ragged {
                row,
                got: cells.len(),
                expected: columns,
            });
        }
        if let Some(column) = cells.iter().position(|c| !c.is_finite()) {
            return Err(SolveError::NotFinite { row, column });
        }
    }
    let (value, caesar) = optimal_mix(payoff, rows, columns, |i, j| payoff[i][j], true)?;
    let (_, pompey) = optimal_mix(payoff, columns, rows, |j, i| payoff[i][j], false)?;
    Ok(Equilibrium {
        value,
        caesar,
        pompey,
    })
}

/// The optimal mix over `own` strategies against `other` strategies, where
/// `cell(own, other)` is Caesar's payoff: maximised when `maximise` (Caesar),
/// minimised otherwise (Pompey).
fn optimal_mix(
    payoff: &[Vec<f64>],
    own: usize,
    other: usize,
    cell: impl Fn(usize, usize) -> f64,
    maximise: bool,
) -> Result<(f64, Vec<f64>), SolveError> {
    let direction = if maximise {
        OptimizationDirection::Maximize
    } else {
        OptimizationDirection::Minimize
    };
    let (low, high) = payoff
        .iter()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &c| {
            (lo.min(c), hi.max(c))
        });
    let mut problem = Problem::new(direction);
    let value = problem.add_var(1.0, (low, high));
    let weights: Vec<_> = (0..own).map(|_| problem.add_var(0.0, (0.0, 1.0))).collect();
    let comparison = if maximise {
        ComparisonOp::Ge
    } else {
        ComparisonOp::Le
    };
    for o in 0..other {
        let mut terms: Vec<_> = weights
            .iter()
            .enumerate()
            .map(|(k, &w)| (w, cell(k, o)))
            .collect();
        terms.push((value, -1.0));
        problem.add_constraint(terms, comparison, 0.0);
    }
    problem.add_constraint(weights.iter().map(|&w| (w, 1.0)), ComparisonOp::Eq, 1.0);
    let solution = problem
        .solve()
        .map_err(|e| SolveError::Solver(e.to_string()))?
        .into_solution()
        .map_err(|e| SolveError::Solver(format!("{e:?}")))?;
    let mut mix: Vec<f64> = weights
        .iter()
        .map(|&w| {
            let x = solution.var_value(w);
            if x < ROUNDING { 0.0 } else { x }
        })
        .collect();
    let total: f64 = mix.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return Err(SolveError::Solver("the mix has no weight".to_string()));
    }
    mix.iter_mut().for_each(|w| *w /= total);
    Ok((solution.var_value(value), mix))
}

/// Caesar's payoff when row player `i` meets Pompey's mix `pompey`.
pub fn row_payoff(payoff: &[Vec<f64>], row: usize, pompey: &[f64]) -> f64 {
    payoff[row].iter().zip(pompey).map(|(a, y)| a * y).sum()
}

/// Caesar's payoff when Caesar's mix `caesar` meets column player `j`.
pub fn column_payoff(payoff: &[Vec<f64>], column: usize, caesar: &[f64]) -> f64 {
    payoff
        .iter()
        .zip(caesar)
        .map(|(row, x)| row[column] * x)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn rock_paper_scissors_is_a_uniform_mix_worth_a_half() {
        // Caesar's points: a win 1, a draw ½, a loss 0.
        let table = vec![
            vec![0.5, 0.0, 1.0],
            vec![1.0, 0.5, 0.0],
            vec![0.0, 1.0, 0.5],
        ];
        let eq = solve(&table).unwrap();
        assert!(close(eq.value, 0.5), "{eq:?}");
        for w in eq.caesar.iter().chain(&eq.pompey) {
            assert!(close(*w, 1.0 / 3.0), "{eq:?}");
        }
    }

    #[test]
    fn a_dominated_row_gets_no_weight() {
        // Row 1 is worse than row 0 against every column.
        let table = vec![vec![0.6, 0.4], vec![0.5, 0.3], vec![0.3, 0.7]];
        let eq = solve(&table).unwrap();
        assert_eq!(eq.caesar[1], 0.0, "{eq:?}");
        assert!(close(eq.caesar.iter().sum::<f64>(), 1.0));
        assert!(close(eq.pompey.iter().sum::<f64>(), 1.0));
    }

    #[test]
    fn a_pure_saddle_is_played_pure() {
        // (1, 1) is the largest of its column and the smallest of its row.
        let table = vec![
            vec![0.2, 0.3, 0.1],
            vec![0.6, 0.4, 0.5],
            vec![0.3, 0.2, 0.9],
        ];
        let eq = solve(&table).unwrap();
        assert!(close(eq.value, 0.4), "{eq:?}");
        assert!(close(eq.caesar[1], 1.0), "{eq:?}");
        assert!(close(eq.pompey[1], 1.0), "{eq:?}");
    }

    #[test]
    fn a_unique_mixed_equilibrium_is_found() {
        // Caesar: x(0.8) + (1-x)(0.3) = x(0.2) + (1-x)(0.6)  =>  x = 1/3;
        // Pompey: y(0.8) + (1-y)(0.2) = y(0.3) + (1-y)(0.6)  =>  y = 4/9.
        let table = vec![vec![0.8, 0.2], vec![0.3, 0.6]];
        let eq = solve(&table).unwrap();
        assert!(close(eq.caesar[0], 1.0 / 3.0), "{eq:?}");
        assert!(close(eq.pompey[0], 4.0 / 9.0), "{eq:?}");
        assert!(close(eq.value, 7.0 / 15.0), "{eq:?}");
        // No row does better against Pompey's mix, no column better for Pompey.
        for i in 0..2 {
            assert!(row_payoff(&table, i, &eq.pompey) <= eq.value + 1e-9);
            assert!(column_payoff(&table, i, &eq.caesar) >= eq.value - 1e-9);
        }
    }

    #[test]
    fn one_player_a_side_is_that_cell() {
        let eq = solve(&[vec![0.37]]).unwrap();
        assert!(close(eq.value, 0.37));
        assert_eq!(
            (eq.caesar.clone(), eq.pompey.clone()),
            (vec![1.0], vec![1.0])
        );
    }

    #[test]
    fn a_malformed_table_is_refused() {
        assert_eq!(solve(&[]), Err(SolveError::Empty));
        assert!(matches!(
            solve(&[vec![0.1, 0.2], vec![0.3]]),
            Err(SolveError::Ragged { row: 1, .. })
        ));
        assert!(matches!(
            solve(&[vec![f64::NAN]]),
            Err(SolveError::NotFinite { row: 0, column: 0 })
        ));
    }
}
