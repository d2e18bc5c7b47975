//! Statistics for simulation reports: confidence intervals, tests, and
//! integer histograms that merge exactly (so sharded runs add up to the
//! same report as one run).

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub estimate: f64,
    pub ci95: [f64; 2],
}

impl Estimate {
    /// "12.0% (7.0–19.8%)": the estimate (right-aligned in `width`
    /// characters before the % sign) and its 95% interval.
    pub fn percent_text(&self, width: usize) -> String {
        format!(
            "{:width$.1}% ({:.1}–{:.1}%)",
            self.estimate * 100.0,
            self.ci95[0] * 100.0,
            self.ci95[1] * 100.0
        )
    }

    pub fn of(successes: u64, trials: u64) -> Estimate {
        let (lo, hi) = wilson_interval(successes, trials, Z95);
        Estimate {
            estimate: if trials == 0 {
                0.0
            } else {
                successes as f64 / trials as f64
            },
            ci95: [lo, hi],
        }
    }
}

/// Wilson score interval for `successes` out of `trials` (Wilson 1927).
/// With no trials nothing is known: the whole of [0, 1].
pub(crate) fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Standard normal cumulative distribution.
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes' Chebyshev fit,
/// relative error below 1.2e-7 everywhere).
pub(crate) fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    // Horner's rule from the highest coefficient; written as a loop because
    // rustfmt takes half a minute over the nested form.
    const COEFFICIENTS: [f64; 9] = [
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let (highest, rest) = COEFFICIENTS.split_last().expect("coefficients");
    let poly = rest.iter().rev().fold(*highest, |acc, c| c + t * acc);
    let r = t * (-z * z - 1.265_512_23 + t * poly).exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// `count` of `of` as a fraction; 0 of nothing is 0.
pub(crate) fn share(count: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

/// Two-sided p-value of a z statistic.
pub(crate) fn two_sided_p(z: f64) -> f64 {
    if !z.is_finite() {
        return if z.is_nan() { 1.0 } else { 0.0 };
    }
    (2.0 * (1.0 - normal_cdf(z.abs()))).clamp(0.0, 1.0)
}

/// A difference of two estimates with its interval and test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedDifference {
    /// First minus second.
    pub estimate: f64,
    /// With fewer than two pairs the interval is unbounded; JSON writes the
    /// infinite bounds as `null`, read back as infinite.
    #[serde(deserialize_with = "unbounded_interval")]
    pub ci95: [f64; 2],
    pub p_value: f64,
    /// p < 0.05.
    pub significant: bool,
}

/// An interval whose missing (`null`) bounds are −∞ and +∞.
fn unbounded_interval<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
    let [lo, hi] = <[Option<f64>; 2]>::deserialize(d)?;
    Ok([lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY)])
}

impl PairedDifference {
    fn new(estimate: f64, se: f64, z_for_test: f64) -> PairedDifference {
        let p_value = if se == 0.0 && estimate == 0.0 {
            1.0
        } else {
            two_sided_p(z_for_test)
        };
        PairedDifference {
            estimate,
            ci95: [estimate - Z95 * se, estimate + Z95 * se],
            p_value,
            significant: p_value < 0.05,
        }
    }
}

impl PairedDifference {
    /// `self − other` for differences measured on independent games (two
    /// rungs of a ladder): a Wald test on the gap between them. An
    /// unbounded interval on either side gives an unbounded gap.
    pub(crate) fn minus_independent(&self, other: &PairedDifference) -> PairedDifference {
        let se = |d: &PairedDifference| (d.ci95[1] - d.ci95[0]) / (2.0 * Z95);
        let s = se(self).hypot(se(other));
        let d = self.estimate - other.estimate;
        let z = if s > 0.0 && s.is_finite() { d / s } else { 0.0 };
        let mut gap = PairedDifference::new(d, s, z);
        if !s.is_finite() {
            gap.p_value = 1.0;
            gap.significant = false;
        }
        gap
    }
}

/// Unpaired two-proportion z-test (pooled variance for the test, unpooled
/// for the interval): x1 of n1 against x2 of n2.
pub(crate) fn two_proportion_test(x1: u64, n1: u64, x2: u64, n2: u64) -> PairedDifference {
    if n1 == 0 || n2 == 0 {
        return PairedDifference {
            estimate: 0.0,
            ci95: [-1.0, 1.0],
            p_value: 1.0,
            significant: false,
        };
    }
    let (a, b) = (n1 as f64, n2 as f64);
    let (p1, p2) = (x1 as f64 / a, x2 as f64 / b);
    let pooled = (x1 + x2) as f64 / (a + b);
    let se_test = (pooled * (1.0 - pooled) * (1.0 / a + 1.0 / b)).sqrt();
    let se = (p1 * (1.0 - p1) / a + p2 * (1.0 - p2) / b).sqrt();
    let d = p1 - p2;
    let z = if se_test == 0.0 { 0.0 } else { d / se_test };
    PairedDifference::new(d, se, z)
}

/// Paired difference of two binary outcomes over the same seeds (common
/// random numbers): `only_first` games where only the first run had the
/// event, `only_second` where only the second did, of `n` pairs. The test is
/// McNemar's in its z form; the interval is the Wald interval of the mean
/// paired difference.
pub(crate) fn paired_proportion_test(
    only_first: u64,
    only_second: u64,
    n: u64,
) -> PairedDifference {
    if n == 0 {
        return PairedDifference {
            estimate: 0.0,
            ci95: [-1.0, 1.0],
            p_value: 1.0,
            significant: false,
        };
    }
    let nf = n as f64;
    let (b, c) = (only_first as f64, only_second as f64);
    let d = (b - c) / nf;
    // Var of the per-pair difference in {-1, 0, 1}.
    let var = ((b + c) / nf - d * d).max(0.0);
    let se = (var / nf).sqrt();
    let z = if b + c == 0.0 {
        0.0
    } else {
        (b - c) / (b + c).sqrt()
    };
    PairedDifference::new(d, se, z)
}

/// The mean of a per-game value measured over the same seeds (a paired
/// difference, or a mean of such differences), from Σx and Σx² over `n`
/// games, with an adjusted Wald interval that cannot collapse to a point:
/// two pseudo-games at +1 and −1 (one game's win either way) are added to
/// the sample before its mean and variance are taken. For a difference of
/// two paired proportions this is Bonett and Price's (2012) interval,
/// which like Newcombe's keeps near-nominal coverage on few games where
/// the Wald interval is too narrow (and a point when no game differed).
/// The estimate is the plain mean; the interval is clipped to ±`bound`
/// (the value's range); the p-value is the interval's own Wald test, so a
/// difference is significant exactly when its interval leaves out zero.
pub(crate) fn adjusted_paired_mean(sum: f64, squares: f64, n: u64, bound: f64) -> PairedDifference {
    if n == 0 {
        return PairedDifference {
            estimate: 0.0,
            ci95: [-bound, bound],
            p_value: 1.0,
            significant: false,
        };
    }
    let m = (n as f64) + 2.0;
    let centre = sum / m;
    // Never zero: the two pseudo-games differ.
    let var = ((squares + 2.0) / m - centre * centre).max(f64::MIN_POSITIVE);
    let se = (var / m).sqrt();
    let p_value = two_sided_p(centre / se);
    PairedDifference {
        estimate: sum / n as f64,
        ci95: [
            (centre - Z95 * se).max(-bound),
            (centre + Z95 * se).min(bound),
        ],
        p_value,
        significant: p_value < 0.05,
    }
}

/// Welch-style difference of two means from their sums, for paired or
/// unpaired metrics; `sum_sq_diff` is Σ(xᵢ − yᵢ)² when paired.
pub(crate) fn paired_mean_difference(sum_diff: f64, sum_sq_diff: f64, n: u64) -> PairedDifference {
    if n < 2 {
        return PairedDifference {
            estimate: if n == 1 { sum_diff } else { 0.0 },
            ci95: [f64::NEG_INFINITY, f64::INFINITY],
            p_value: 1.0,
            significant: false,
        };
    }
    let nf = n as f64;
    let mean = sum_diff / nf;
    let var = ((sum_sq_diff - nf * mean * mean) / (nf - 1.0)).max(0.0);
    let se = (var / nf).sqrt();
    let z = if se == 0.0 {
        if mean == 0.0 { 0.0 } else { f64::INFINITY }
    } else {
        mean / se
    };
    PairedDifference::new(mean, se, z)
}

/// Counts of small non-negative integer values; exact mean and quartiles,
/// exact merge.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// `counts[v]` = how many times value v was seen.
    pub counts: Vec<u64>,
}

impl Histogram {
    pub fn add(&mut self, value: u32) {
        let v = value as usize;
        if self.counts.len() <= v {
            self.counts.resize(v + 1, 0);
        }
        self.counts[v] += 1;
    }

    pub fn merge(&mut self, other: &Histogram) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    pub fn sum(&self) -> u64 {
        self.counts
            .iter()
            .enumerate()
            .map(|(v, c)| v as u64 * c)
            .sum()
    }

    pub fn mean(&self) -> f64 {
        let n = self.total();
        if n == 0 {
            0.0
        } else {
            self.sum() as f64 / n as f64
        }
    }

    /// The smallest value with at least `q` of the mass at or below it.
    pub(crate) fn quantile(&self, q: f64) -> u32 {
        let n = self.total();
        if n == 0 {
            return 0;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (v, c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return v as u32;
            }
        }
        (self.counts.len() - 1) as u32
    }

    pub(crate) fn summary(&self) -> Summary {
        Summary {
            mean: self.mean(),
            q1: self.quantile(0.25),
            median: self.quantile(0.5),
            q3: self.quantile(0.75),
            min: self.counts.iter().position(|c| *c > 0).unwrap_or(0) as u32,
            max: self.counts.iter().rposition(|c| *c > 0).unwrap_or(0) as u32,
        }
    }
}

/// Mean and quartiles of an integer metric.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub mean: f64,
    pub q1: u32,
    pub median: u32,
    pub q3: u32,
    pub min: u32,
    pub max: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), example: 81 of 263 → 0.2553 to 0.3662.
        let (lo, hi) = wilson_interval(81, 263, Z95);
        assert!(close(lo, 0.2553, 5e-4), "{lo}");
        assert!(close(hi, 0.3662, 5e-4), "{hi}");
        // 15 of 148 → 0.0624 to 0.1605.
        let (lo, hi) = wilson_interval(15, 148, Z95);
        assert!(close(lo, 0.0624, 5e-4), "{lo}");
        assert!(close(hi, 0.1605, 5e-4), "{hi}");
        // 0 of 10 → 0 to 0.2775.
        let (lo, hi) = wilson_interval(0, 10, Z95);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.2775, 5e-4), "{hi}");
        assert_eq!(wilson_interval(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn normal_cdf_known_points() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959_964), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-6));
        assert!(close(two_sided_p(2.575_829), 0.01, 1e-6));
    }

    #[test]
    fn two_proportion_test_known_values() {
        // 60/100 vs 45/100: pooled p = .525, z = 2.1237, p = .0337.
        let d = two_proportion_test(60, 100, 45, 100);
        assert!(close(d.estimate, 0.15, 1e-12));
        assert!(close(d.p_value, 0.0337, 5e-4), "{}", d.p_value);
        assert!(d.significant);
        // Unpooled se = sqrt(.24/100 + .2475/100) = .06982 → ±.1368.
        assert!(close(d.ci95[0], 0.0132, 5e-4), "{:?}", d.ci95);
        assert!(close(d.ci95[1], 0.2868, 5e-4), "{:?}", d.ci95);
        let same = two_proportion_test(30, 100, 30, 100);
        assert_eq!(same.estimate, 0.0);
        assert!(close(same.p_value, 1.0, 1e-6));
        assert!(!same.significant);
    }

    #[test]
    fn mcnemar_known_value() {
        // b = 25, c = 10: z = 15 / sqrt(35) = 2.535, p = 0.0112.
        let d = paired_proportion_test(25, 10, 200);
        assert!(close(d.estimate, 0.075, 1e-12));
        assert!(close(d.p_value, 0.0112, 5e-4), "{}", d.p_value);
        assert!(d.ci95[0] > 0.0 && d.ci95[1] > d.estimate);
        let none = paired_proportion_test(0, 0, 50);
        assert_eq!(none.p_value, 1.0);
        assert_eq!(none.ci95, [0.0, 0.0]);
    }

    #[test]
    fn the_adjusted_paired_interval_matches_bonett_price_and_never_collapses() {
        // 25 games only the first won, 10 only the second, of 200: Bonett
        // and Price's interval from (25+1)/202 and (10+1)/202.
        let d = adjusted_paired_mean(15.0, 35.0, 200, 1.0);
        assert!(close(d.estimate, 0.075, 1e-12));
        let (p12, p21): (f64, f64) = (26.0 / 202.0, 11.0 / 202.0);
        let se = ((p12 + p21 - (p12 - p21).powi(2)) / 202.0).sqrt();
        assert!(
            close(d.ci95[0], p12 - p21 - Z95 * se, 1e-12),
            "{:?}",
            d.ci95
        );
        assert!(
            close(d.ci95[1], p12 - p21 + Z95 * se, 1e-12),
            "{:?}",
            d.ci95
        );
        assert!(d.significant && d.ci95[0] > 0.0);
        // No game differed, or one game only: an interval, not a point.
        for (sum, squares, n) in [(0.0, 0.0, 10), (1.0, 1.0, 1), (10.0, 10.0, 10)] {
            let d = adjusted_paired_mean(sum, squares, n, 1.0);
            assert!(d.ci95[1] - d.ci95[0] > 0.1, "{sum}/{n}: {:?}", d.ci95);
            assert!(d.ci95[0] <= d.estimate && d.estimate <= d.ci95[1]);
            assert!((-1.0..=1.0).contains(&d.ci95[0]) && (-1.0..=1.0).contains(&d.ci95[1]));
        }
        let none = adjusted_paired_mean(0.0, 0.0, 50, 1.0);
        assert_eq!((none.estimate, none.significant), (0.0, false));
        assert!(none.p_value > 0.999, "{}", none.p_value);
    }

    #[test]
    fn histogram_quartiles_and_merge() {
        let mut a = Histogram::default();
        for v in [1, 2, 3, 4] {
            a.add(v);
        }
        let mut b = Histogram::default();
        for v in [5, 6, 7, 8] {
            b.add(v);
        }
        let mut all = a.clone();
        all.merge(&b);
        let s = all.summary();
        assert_eq!((s.q1, s.median, s.q3, s.min, s.max), (2, 4, 6, 1, 8));
        assert!(close(s.mean, 4.5, 1e-12));
        let mut other_order = b.clone();
        other_order.merge(&a);
        assert_eq!(other_order, all);
        assert_eq!(Histogram::default().summary().median, 0);
    }

    #[test]
    fn an_unbounded_interval_survives_json() {
        let d = paired_mean_difference(3.0, 9.0, 1);
        let text = serde_json::to_string(&d).unwrap();
        assert!(text.contains("null"), "{text}");
        let back: PairedDifference = serde_json::from_str(&text).unwrap();
        assert_eq!(back.ci95, [f64::NEG_INFINITY, f64::INFINITY]);
        assert_eq!(back.estimate, 3.0);
    }
}
