//! The core of Caesar Workbench: the published game of Julius Caesar
//! (Columbia Games) as editable data, a validator, a rules engine, AI players
//! and simulations. The window (`src/app`, in the crate `caesar_workbench`
//! that re-exports this one) and the command line (`src/cli`) are thin shells
//! over it.
//!
//! Each folder is a layer, and data flows one way through them
//! (`docs/architecture.md`): files ([`files`]) → the scenario and rule sets
//! as data, checked ([`scenario`]) → the rules engine ([`engine`]) → AI
//! players ([`ai`]) → simulations and reports ([`sim`]) → games written
//! down ([`games`]) → the window. A layer uses only the layers before it.
//!
//! It is a crate apart from the window's only for build time: in tests it is
//! optimised (games and searches run by the thousand) while the window's code
//! is not (the top Cargo.toml has the figures).

/// `Display` for a type shown as the words its method `$words` gives
/// (a side's name, a severity, a section's field).
macro_rules! display_as {
    ($type:ty, $words:ident) => {
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.$words())
            }
        }
    };
}

pub mod ai;
pub mod engine;
pub mod files;
pub mod games;
pub mod scenario;
pub mod sim;

/// What the library's unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::ai::HeuristicPlayer;
    use crate::engine::{Action, Game, State};
    use crate::scenario::checked::CheckedScenario;
    use crate::scenario::model::Side;
    use crate::scenario::rules::RuleSet;

    /// The published game under a built-in rule set.
    pub(crate) fn published(variant: &str) -> Game {
        CheckedScenario::from_document(
            &crate::scenario::historical(),
            RuleSet::builtin(variant),
            None,
        )
        .map(Game::from_checked)
        .expect("the published game is valid under every built-in rule set")
    }

    /// Heuristic play from `seed` until `stop` holds at a decision of two or
    /// more actions: the state and its legal actions.
    pub(crate) fn play_until(
        game: &Game,
        seed: u64,
        stop: impl Fn(&State, &[Action]) -> bool,
    ) -> (State, Vec<Action>) {
        let mut state = State::new(game, seed);
        let mut players = Side::BOTH.map(|side| HeuristicPlayer::new(side, seed, false));
        let mut legal = Vec::new();
        while let Some(side) = state.current_player() {
            state.legal_actions(game, &mut legal);
            if legal.len() > 1 && stop(&state, &legal) {
                break;
            }
            let a = crate::ai::decide(&mut players[side.index()], game, &state, &legal);
            state.apply(game, a);
        }
        (state, legal)
    }

    /// A file `name` holding `text` in a new temporary folder, which lasts as
    /// long as the folder returned with it.
    pub(crate) fn temp_file(
        name: &str,
        text: impl AsRef<[u8]>,
    ) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    /// `work` run on a pool of `threads` threads (a result that must not
    /// depend on the thread count is compared across two).
    pub(crate) fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
            .install(work)
    }
}
