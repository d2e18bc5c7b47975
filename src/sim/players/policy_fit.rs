//! `learn-policy` (issue 44, expert iteration): self-play games of a tree
//! search that write down, at every group decision it searched, each root
//! candidate's features and the visits the search gave it; a policy fitted
//! to those visit shares ([`crate::ai::policy::fit`]); the search's value
//! file with the policy in it, which a search then widens by.

use rayon::prelude::*;

use crate::ai::policy::{self, PolicyModel, PolicyTarget, SearchedDecision};
use crate::ai::{AiSpec, Player, ValueModel};
use crate::engine::{Game, NoLog};
use crate::scenario::model::Side;

/// Why a policy cannot be learned from a player.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PolicyError {
    #[error(
        "`{0}` is not a tree search: the policy is learned from `mcts:N` searches (e.g. mcts:64@PLAYERS+VALUE)"
    )]
    NotASearch(String),
    #[error("`{0}` has no value file to carry the policy: name one (mcts:64@PLAYERS+VALUE)")]
    NoValueFile(String),
    #[error("the searches decided no group move in {0} games")]
    NoDecisions(u64),
}

/// A fitted policy and what it was fitted on.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnedPolicy {
    /// The search's value file with the policy in it.
    pub value: ValueModel,
    pub games: u64,
    /// Searched group decisions, per side.
    pub decisions: [u64; 2],
    /// Of those, the ones where the search played something other than
    /// the heuristic's first plan, per side.
    pub overruled: [u64; 2],
    pub target: PolicyTarget,
}

impl LearnedPolicy {
    pub fn policy(&self) -> &PolicyModel {
        self.value.policy.as_ref().expect("learned")
    }
}

impl std::fmt::Display for LearnedPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.policy();
        writeln!(
            f,
            "Policy fitted on {} searched group decisions (Caesar {}, Pompey {}) in {} games of self-play; cross-entropy against the search's {} {:.3}",
            self.decisions[0] + self.decisions[1],
            self.decisions[0],
            self.decisions[1],
            self.games,
            match self.target {
                PolicyTarget::Visits => "visit shares",
                PolicyTarget::Choice => "choices",
            },
            p.cross_entropy
        )?;
        writeln!(
            f,
            "The search played other than the heuristic's first plan in {} of Caesar's and {} of Pompey's",
            self.overruled[0], self.overruled[1]
        )?;
        writeln!(f, "  {:<18} {:>8} {:>8}", "feature", "Caesar", "Pompey")?;
        for (i, name) in p.features.iter().enumerate() {
            writeln!(f, "  {name:<18} {:>8.3} {:>8.3}", p.caesar[i], p.pompey[i])?;
        }
        Ok(())
    }
}

/// Plays `games` games of `search` against itself (game `i` from the run's
/// seed and `i`, as `simulate` does), records its searched group decisions
/// and fits the policy. Reproducible on any number of threads: the games'
/// decisions are gathered in game order.
pub fn learn_policy(
    game: &Game,
    search: &AiSpec,
    games: u64,
    seed: u64,
    target: PolicyTarget,
    progress: &crate::sim::Progress,
) -> Result<LearnedPolicy, PolicyError> {
    let probe = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    if search.recording_player(Side::Caesar, 0, probe).is_none() {
        return Err(PolicyError::NotASearch(search.to_string()));
    }
    let AiSpec::SearchOn(on) = search else {
        return Err(PolicyError::NoValueFile(search.to_string()));
    };
    let Some(value) = &on.value else {
        return Err(PolicyError::NoValueFile(search.to_string()));
    };
    let per_game: Vec<Vec<SearchedDecision>> = (0..games)
        .into_par_iter()
        .map(|i| {
            let recorder = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let game_seed = crate::sim::game_seed(seed, i);
            let player = |side: Side| -> Box<dyn Player> {
                let s = game_seed
                    .wrapping_mul(2)
                    .wrapping_add(1 + side.index() as u64);
                Box::new(
                    search
                        .recording_player(side, s, recorder.clone())
                        .expect("checked above"),
                )
            };
            let mut players = [player(Side::Caesar), player(Side::Pompey)];
            crate::ai::play_game(game, game_seed, &mut players, &mut NoLog);
            drop(players);
            progress.tick();
            std::mem::take(&mut *recorder.lock().expect("no recorder panics"))
        })
        .collect();
    let decisions: Vec<SearchedDecision> = per_game.into_iter().flatten().collect();
    if decisions.is_empty() {
        return Err(PolicyError::NoDecisions(games));
    }
    let count = |side: Side, overruled: bool| {
        decisions
            .iter()
            .filter(|d| d.side == side && (!overruled || d.overruled_the_heuristic()))
            .count() as u64
    };
    let mut model = value.model.clone();
    model.policy = Some(policy::fit(&decisions, target));
    Ok(LearnedPolicy {
        value: model,
        games,
        decisions: Side::BOTH.map(|side| count(side, false)),
        overruled: Side::BOTH.map(|side| count(side, true)),
        target,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AiSpec {
        text.replace("P/", "variants/players/").parse().unwrap()
    }

    fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(work)
    }

    #[test]
    fn a_policy_is_learned_alike_on_one_thread_and_two_and_a_search_widens_by_it() {
        let game = crate::test_support::published("rules-2.0");
        let search = spec("mcts:4@P/search-own-rules-2.0.ron+P/value-rules-2.0.ron");
        let learn = || {
            learn_policy(
                &game,
                &search,
                2,
                5,
                PolicyTarget::Visits,
                &crate::sim::Progress::new(),
            )
            .unwrap()
        };
        let one = on_threads(1, learn);
        let two = on_threads(2, learn);
        assert_eq!(one, two);
        assert!(one.decisions[0] > 0 && one.decisions[1] > 0);
        assert!(one.policy().check().is_ok());
        // The file reads back with the policy, and a search plays by it.
        let (_dir, path) = crate::test_support::temp_file("learned.ron", one.value.to_ron("test"));
        let back = ValueModel::load(&path).unwrap();
        assert_eq!(back, one.value);
        let text = format!(
            "mcts:4@variants/players/search-own-rules-2.0.ron+{}",
            path.display()
        );
        let with_policy: AiSpec = text.parse().unwrap();
        let mut players = Side::BOTH.map(|side| with_policy.player(side, 3, false));
        let end = crate::ai::play_game(&game, 3, &mut players, &mut NoLog);
        assert!(end.is_over());
    }

    #[test]
    fn only_a_tree_search_with_a_value_file_teaches_a_policy() {
        let game = crate::test_support::published("rules-2.0");
        let progress = crate::sim::Progress::new();
        let heuristic: AiSpec = "heuristic".parse().unwrap();
        assert!(matches!(
            learn_policy(&game, &heuristic, 1, 1, PolicyTarget::Visits, &progress),
            Err(PolicyError::NotASearch(_))
        ));
        let bare: AiSpec = "mcts:4".parse().unwrap();
        assert!(matches!(
            learn_policy(&game, &bare, 1, 1, PolicyTarget::Visits, &progress),
            Err(PolicyError::NoValueFile(_))
        ));
    }
}
