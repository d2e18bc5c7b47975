//! A policy learned from the search (issue 44, expert iteration): at a
//! group decision, the chance the search would pick each candidate (the
//! heuristic's plans, the search's own moves, ending the moves), as a
//! softmax of a linear score of the candidate's features. Fitted on the
//! root visit counts of self-play searches (`caesar-workbench learn-policy`)
//! and kept in the value file beside the evaluation, it orders and weighs
//! the candidates a search widens over.
//!
//! Every feature is something the deciding side knows from its
//! [`crate::engine::SideView`] (the heuristic's picture of the board).

use serde::{Deserialize, Serialize};

use crate::scenario::model::Side;

/// The features of a candidate, in the order a policy lists its weights.
pub const MOVE_FEATURES: [&str; 12] = [
    "end_moves",
    "heuristic_first",
    "heuristic_other",
    "own",
    "sea",
    "target_vp",
    "target_enemy",
    "attack_odds",
    "target_vacant",
    "target_threatened",
    "leaves_vp_city",
    "distance",
];

/// One candidate's features.
pub type MoveFeatures = [f64; MOVE_FEATURES.len()];

/// A fitted policy: weights for Caesar's decisions and for Pompey's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyModel {
    /// The features the weights belong to, by name ([`MOVE_FEATURES`]).
    pub features: Vec<String>,
    pub caesar: Vec<f64>,
    pub pompey: Vec<f64>,
    /// Searched decisions the fit saw, and its cross-entropy against the
    /// search's visit shares on them (lower is closer).
    #[serde(default)]
    pub decisions: u64,
    #[serde(default)]
    pub cross_entropy: f64,
}

impl PolicyModel {
    pub fn weights(&self, side: Side) -> &[f64] {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }

    /// The chance of each candidate (softmax of the linear scores).
    pub fn priors(&self, side: Side, candidates: &[MoveFeatures]) -> Vec<f64> {
        softmax(self.weights(side), candidates)
    }

    /// The first field that does not fit this build, and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if self.features.iter().ne(MOVE_FEATURES.iter()) {
            return Err((
                "features",
                format!(
                    "the policy's features must be this build's: {}",
                    MOVE_FEATURES.join(", ")
                ),
            ));
        }
        for (field, w) in [("caesar", &self.caesar), ("pompey", &self.pompey)] {
            if w.len() != MOVE_FEATURES.len() || w.iter().any(|x| !x.is_finite()) {
                return Err((
                    field,
                    format!("`{field}` must hold {} finite weights", MOVE_FEATURES.len()),
                ));
            }
        }
        Ok(())
    }
}

/// Softmax of `w · x` over the candidates.
pub(crate) fn softmax(w: &[f64], candidates: &[MoveFeatures]) -> Vec<f64> {
    let z: Vec<f64> = candidates
        .iter()
        .map(|x| w.iter().zip(x).map(|(w, x)| w * x).sum())
        .collect();
    let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|z| (z - top).exp()).collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|e| e / total).collect()
}

/// One searched decision of self-play: each root candidate's features and
/// the visits the search gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchedDecision {
    pub side: Side,
    pub candidates: Vec<MoveFeatures>,
    pub visits: Vec<u32>,
}

/// What a policy is fitted to imitate at each searched decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PolicyTarget {
    /// The search's visit shares over the candidates.
    #[default]
    Visits,
    /// The candidate the search played (the most visited, the first among
    /// equals) alone: what a player with no search of its own should do.
    Choice,
}

impl SearchedDecision {
    /// The candidate the search played: the most visited, first among equals.
    pub fn chosen(&self) -> usize {
        let mut best = 0;
        for (i, v) in self.visits.iter().enumerate() {
            if *v > self.visits[best] {
                best = i;
            }
        }
        best
    }

    /// Whether the search played something other than the heuristic's
    /// first plan.
    pub fn overruled_the_heuristic(&self) -> bool {
        let first = MOVE_FEATURES
            .iter()
            .position(|f| *f == "heuristic_first")
            .expect("a feature of its own");
        self.candidates
            .get(self.chosen())
            .is_some_and(|c| c[first] == 0.0)
    }

    /// Each candidate's share of the target.
    fn targets(&self, target: PolicyTarget) -> Vec<f64> {
        match target {
            PolicyTarget::Visits => {
                let all: f64 = self.visits.iter().map(|v| f64::from(*v)).sum();
                self.visits.iter().map(|v| f64::from(*v) / all).collect()
            }
            PolicyTarget::Choice => {
                let chosen = self.chosen();
                (0..self.visits.len())
                    .map(|i| if i == chosen { 1.0 } else { 0.0 })
                    .collect()
            }
        }
    }
}

/// Fits each side's weights to `target` at `decisions` (softmax regression
/// by gradient descent on the cross-entropy, a little L2 so features the
/// data never moves stay at 0). Returns the model and, per side, the mean
/// cross-entropy.
pub fn fit(decisions: &[SearchedDecision], target: PolicyTarget) -> PolicyModel {
    let n = MOVE_FEATURES.len();
    let mut weights = [vec![0.0; n], vec![0.0; n]];
    let mut loss = [0.0f64; 2];
    for side in Side::BOTH {
        let mine: Vec<&SearchedDecision> = decisions
            .iter()
            .filter(|d| d.side == side && d.visits.iter().sum::<u32>() > 0)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let w = &mut weights[side.index()];
        let (rate, l2) = (0.5, 1e-3);
        for _ in 0..400 {
            let mut grad = vec![0.0; n];
            let mut total = 0.0;
            for d in &mine {
                let p = softmax(w, &d.candidates);
                let targets = d.targets(target);
                for (i, x) in d.candidates.iter().enumerate() {
                    let target = targets[i];
                    total -= target * p[i].max(1e-12).ln();
                    for k in 0..n {
                        grad[k] += (p[i] - target) * x[k];
                    }
                }
            }
            let m = mine.len() as f64;
            for k in 0..n {
                w[k] -= rate * (grad[k] / m + l2 * w[k]);
            }
            loss[side.index()] = total / m;
        }
    }
    let [caesar, pompey] = weights;
    PolicyModel {
        features: MOVE_FEATURES.iter().map(|s| s.to_string()).collect(),
        caesar,
        pompey,
        decisions: decisions.len() as u64,
        cross_entropy: (loss[0] + loss[1]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heuristic's first plan (`false`) or an own move (`true`).
    fn own(on: bool) -> MoveFeatures {
        let mut x = [0.0; MOVE_FEATURES.len()];
        x[3] = if on { 1.0 } else { 0.0 };
        x[1] = if on { 0.0 } else { 1.0 };
        x
    }

    #[test]
    fn a_fit_learns_the_feature_the_search_prefers() {
        // The search always puts its visits on the own move.
        let decisions: Vec<SearchedDecision> = (0..20)
            .map(|_| SearchedDecision {
                side: Side::Caesar,
                candidates: vec![own(false), own(true)],
                visits: vec![2, 14],
            })
            .collect();
        let model = fit(&decisions, PolicyTarget::Visits);
        let p = model.priors(Side::Caesar, &[own(false), own(true)]);
        assert!((p[1] - 14.0 / 16.0).abs() < 0.05, "{p:?}");
        // Pompey had no decisions: every candidate alike.
        let q = model.priors(Side::Pompey, &[own(false), own(true)]);
        assert!((q[0] - 0.5).abs() < 1e-12);
        assert!(model.check().is_ok());
    }

    #[test]
    fn a_fit_to_the_choice_learns_what_the_search_played_not_its_doubts() {
        // Visits 9 to 7 for the own move: its share is 56%, but it is what
        // the search played every time.
        let decision = SearchedDecision {
            side: Side::Caesar,
            candidates: vec![own(false), own(true)],
            visits: vec![7, 9],
        };
        assert_eq!(decision.chosen(), 1);
        assert!(decision.overruled_the_heuristic());
        let decisions = vec![decision; 20];
        let shares = fit(&decisions, PolicyTarget::Visits);
        let choice = fit(&decisions, PolicyTarget::Choice);
        let p = |m: &PolicyModel| m.priors(Side::Caesar, &[own(false), own(true)])[1];
        assert!((p(&shares) - 9.0 / 16.0).abs() < 0.05, "{}", p(&shares));
        assert!(p(&choice) > 0.8, "{}", p(&choice));
    }
}
