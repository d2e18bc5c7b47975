//! Where a knob's curve crosses the target: a monotone fit through the
//! candidates' values (pool-adjacent-violators) and a paired bootstrap of
//! their tables for the crossing's interval.

use super::model::{CROSSING_TAG, Candidate, Crossing};
use crate::sim::questions::balance;

/// Where the monotone curve through `points` (knob index, share) crosses
/// `target`, in knob indices; `None` if it does not.
pub fn monotone_crossing(points: &[(f64, f64)], target: f64) -> Option<f64> {
    if points.len() < 2 {
        return None;
    }
    let rising = points[points.len() - 1].1 >= points[0].1;
    let fitted = isotonic(
        &points
            .iter()
            .map(|&(_, v)| if rising { v } else { -v })
            .collect::<Vec<_>>(),
    );
    let t = if rising { target } else { -target };
    for w in 0..points.len() - 1 {
        let (a, b) = (fitted[w], fitted[w + 1]);
        if a <= t && t <= b {
            let x = if b > a {
                points[w].0 + (points[w + 1].0 - points[w].0) * (t - a) / (b - a)
            } else {
                (points[w].0 + points[w + 1].0) / 2.0
            };
            return Some(x);
        }
    }
    None
}

/// The non-decreasing fit nearest `values` in least squares
/// (pool-adjacent-violators).
fn isotonic(values: &[f64]) -> Vec<f64> {
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for &v in values {
        blocks.push((v, 1));
        while blocks.len() > 1 {
            let (b, nb) = blocks[blocks.len() - 1];
            let (a, na) = blocks[blocks.len() - 2];
            if a <= b {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = ((a * na as f64 + b * nb as f64) / (na + nb) as f64, na + nb);
        }
    }
    blocks
        .into_iter()
        .flat_map(|(v, n)| std::iter::repeat_n(v, n))
        .collect()
}

/// The crossing of the candidates' curve, with an interval from a
/// bootstrap that resamples the same game indices in every candidate's
/// table (its ends where a resample's curve does not cross).
pub(super) fn crossing_of(
    candidates: &[(usize, Candidate)],
    target: f64,
    replicates: u32,
    seed: u64,
) -> Option<Crossing> {
    let points: Vec<(f64, f64)> = candidates
        .iter()
        .map(|(i, c)| (*i as f64, c.share.estimate))
        .collect();
    let at = monotone_crossing(&points, target)?;
    let tables: Vec<&balance::Table> = candidates
        .iter()
        .filter_map(|(_, c)| c.table.as_ref())
        .collect();
    if tables.len() != candidates.len() {
        return Some(Crossing { at, ci95: [at, at] });
    }
    let (first, last) = (points[0].0, points[points.len() - 1].0);
    let replicated = balance::table::bootstrap(&tables, replicates, seed ^ CROSSING_TAG).ok()?;
    let rising = points[points.len() - 1].1 >= points[0].1;
    let crossings: Vec<f64> = replicated
        .iter()
        .map(|r| {
            let resampled: Vec<(f64, f64)> = points
                .iter()
                .zip(r)
                .map(|(&(x, _), eq)| (x, eq.value))
                .collect();
            monotone_crossing(&resampled, target).unwrap_or_else(|| {
                // Not crossed: the target lies beyond this resample's curve.
                let v = resampled.iter().map(|p| p.1).sum::<f64>() / resampled.len() as f64;
                if (v < target) == rising { last } else { first }
            })
        })
        .collect();
    let [lo, hi] = balance::table::percentile_interval(&crossings);
    Some(Crossing {
        at,
        ci95: [lo.min(at), hi.max(at)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_monotone_curve_crosses_where_the_values_pass_the_target() {
        let points = [
            (0.0, 0.40),
            (1.0, 0.45),
            (2.0, 0.48),
            (3.0, 0.52),
            (4.0, 0.55),
        ];
        let x = monotone_crossing(&points, 0.5).unwrap();
        assert!((x - 2.5).abs() < 1e-9, "{x}");
        // A dip against the trend is pooled, not a second crossing.
        let noisy = [(0.0, 0.40), (1.0, 0.47), (2.0, 0.45), (3.0, 0.56)];
        let x = monotone_crossing(&noisy, 0.5).unwrap();
        assert!((2.0..3.0).contains(&x), "{x}");
        // Falling curves cross too.
        let falling = [(0.0, 0.6), (1.0, 0.4)];
        assert!((monotone_crossing(&falling, 0.5).unwrap() - 0.5).abs() < 1e-9);
        // A curve that stays below the target does not cross it.
        assert_eq!(monotone_crossing(&[(0.0, 0.3), (1.0, 0.4)], 0.5), None);
    }

    #[test]
    fn the_isotonic_fit_pools_adjacent_violators() {
        assert_eq!(isotonic(&[1.0, 3.0, 2.0, 4.0]), vec![1.0, 2.5, 2.5, 4.0]);
        assert_eq!(isotonic(&[3.0, 2.0, 1.0]), vec![2.0, 2.0, 2.0]);
    }
}
