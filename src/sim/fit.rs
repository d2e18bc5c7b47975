//! Players for a designer's own setup (`fit`): what a budget of minutes is
//! spent on, which player the bundle ships as best, and how `best` reads a
//! bundle back.
//!
//! A fit tunes the heuristic's numbers one side at a time against a pool
//! that holds the transferred fast player (the strongest fast player of the
//! nearest rated setup), learns a value on the fitted players' self-play,
//! and measures the fitted heuristic and a search on it (and the
//! transferred best player) on seeds the fit never played, against the
//! default heuristic and head to head. The bundle folder holds the player
//! and value files, `ratings.ron` (best first, by the fit's verdict), the
//! commands that made it and a short report. A fitted search ships as best
//! only if it beats the transferred best player head to head; otherwise the
//! bundle says so and names the transferred player first.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ratings::Rating;
use super::stats::Estimate;
use crate::scenario::format::LoadError;

/// The file of a bundle that `best` reads.
pub const BUNDLE_RATINGS: &str = "ratings.ron";

/// The bundle folder beside a setup file: `my-setup.ron` → `my-setup.players/`.
pub fn bundle_beside(setup_file: &Path) -> PathBuf {
    let stem = setup_file
        .file_stem()
        .map_or_else(|| "setup".into(), |s| s.to_string_lossy().into_owned());
    setup_file
        .parent()
        .unwrap_or(Path::new(""))
        .join(format!("{stem}.players"))
}

/// Share of the budget for each stage: tuning (both sides together),
/// learning the value, measuring on unseen seeds.
const TUNE_SHARE: f64 = 0.55;
const LEARN_SHARE: f64 = 0.10;
const MEASURE_SHARE: f64 = 0.35;

/// Games of a CMA-ES candidate while fitting (both sides, against the pool).
pub const GAMES_PER_CANDIDATE: u64 = 40;
/// Candidates per generation while fitting.
pub const POPULATION: usize = 10;

/// How many games each stage of a fit plays, worked out from its budget and
/// what a game costs on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FitPlan {
    /// Games of the CMA-ES search for each side's numbers.
    pub tune_games_per_side: u64,
    /// Games of self-play the value is learned on (a fifth held out).
    pub learn_games: u64,
    /// Games each way of every measured pairing.
    pub measure_games_each_way: u64,
}

impl FitPlan {
    /// The plan for `cpu_seconds` (minutes × 60 × threads) when a game of
    /// heuristics costs `heuristic_game` CPU seconds and one game of every
    /// measured pairing together costs `measured_games` (each way counted once).
    pub fn new(cpu_seconds: f64, heuristic_game: f64, measured_games: f64) -> FitPlan {
        let games = |share: f64, cost: f64| (cpu_seconds * share / cost.max(1e-6)) as u64;
        let per_side = games(TUNE_SHARE / 2.0, heuristic_game);
        let one_generation = GAMES_PER_CANDIDATE * POPULATION as u64;
        FitPlan {
            // At least one generation, whole generations only.
            tune_games_per_side: (per_side / one_generation).max(1) * one_generation,
            learn_games: games(LEARN_SHARE, heuristic_game).clamp(200, 20_000),
            measure_games_each_way: (games(MEASURE_SHARE, measured_games) / 2).clamp(20, 400),
        }
    }
}

/// Which player a fit ships first, from the head-to-head score of the
/// fitted search against the transferred best (both sides, on seeds the fit
/// never saw) and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The fitted search beat the transferred best: it is `best` here.
    FittedIsBest,
    /// It did not: the transferred player stays `best`, and the bundle says so.
    TransferredStays,
}

impl Verdict {
    /// A fitted player ships only when the whole 95% interval of its
    /// head-to-head score is over one half: never a player that may be
    /// weaker than the transferred one.
    pub fn of(head_to_head: &Estimate) -> Verdict {
        if head_to_head.ci95[0] > 0.5 {
            Verdict::FittedIsBest
        } else {
            Verdict::TransferredStays
        }
    }
}

/// The ratings of the bundle in `dir`, best first as the fit ordered them,
/// with every file a player names found in the bundle's own folder (so a
/// bundle may be moved or copied whole).
pub fn bundle_ratings(dir: &Path) -> Result<Vec<Rating>, LoadError> {
    let path = dir.join(BUNDLE_RATINGS);
    let text = crate::scenario::format::read_text(&path)?;
    let mut ratings: Vec<Rating> = crate::scenario::format::parse_ron(&path, &text)?;
    for r in &mut ratings {
        r.player = in_folder(&r.player, dir);
    }
    Ok(ratings)
}

/// `player` with each relative file it names (`heuristic:FILE`,
/// `search:N@FILE+VALUE`) taken from `dir`.
fn in_folder(player: &str, dir: &Path) -> String {
    // A file of the bundle is found in it; a shipped one (the transferred
    // players) as `best` finds shipped files.
    let place = |file: &str| {
        let inside = dir.join(file);
        if !Path::new(file).is_absolute() && inside.exists() {
            inside.display().to_string()
        } else {
            file.to_string()
        }
    };
    if let Some((search, files)) = player.split_once('@') {
        let placed: Vec<String> = files.split('+').map(place).collect();
        return format!("{search}@{}", placed.join("+"));
    }
    match player.strip_prefix("heuristic:") {
        Some(file) => format!("heuristic:{}", place(file)),
        None => player.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_spends_the_budget_in_whole_generations_and_bounded_measurements() {
        let plan = FitPlan::new(1200.0, 0.002, 0.7);
        let generation = GAMES_PER_CANDIDATE * POPULATION as u64;
        assert_eq!(plan.tune_games_per_side % generation, 0);
        assert!(plan.tune_games_per_side >= 100 * generation, "{plan:?}");
        assert!(
            (20..=400).contains(&plan.measure_games_each_way),
            "{plan:?}"
        );
        let tiny = FitPlan::new(1.0, 0.01, 1.0);
        assert_eq!(
            tiny.tune_games_per_side, generation,
            "at least one generation"
        );
        assert_eq!(tiny.measure_games_each_way, 20);
        assert_eq!(tiny.learn_games, 200);
    }

    #[test]
    fn a_fitted_player_ships_only_when_it_surely_beats_the_transferred_one() {
        let score = |wins| Estimate::of(wins, 800);
        assert_eq!(Verdict::of(&score(480)), Verdict::FittedIsBest);
        assert_eq!(
            Verdict::of(&score(420)),
            Verdict::TransferredStays,
            "52.5% is noise"
        );
        assert_eq!(Verdict::of(&score(240)), Verdict::TransferredStays);
    }

    #[test]
    fn a_bundles_files_are_found_in_its_own_folder() {
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path();
        for file in ["fitted.ron", "value.ron"] {
            std::fs::write(dir.join(file), "()").unwrap();
        }
        let d = dir.display();
        assert_eq!(
            in_folder("search:16@fitted.ron+value.ron", dir),
            format!("search:16@{d}/fitted.ron+{d}/value.ron")
        );
        assert_eq!(
            in_folder("heuristic:fitted.ron", dir),
            format!("heuristic:{d}/fitted.ron")
        );
        assert_eq!(
            in_folder("heuristic:/abs/p.ron", dir),
            "heuristic:/abs/p.ron"
        );
        assert_eq!(
            in_folder("mcts:64@variants/players/x.ron", dir),
            "mcts:64@variants/players/x.ron",
            "a shipped file stays as the ratings name it"
        );
        assert_eq!(in_folder("heuristic", dir), "heuristic");
        assert_eq!(
            bundle_beside(Path::new("scenarios/mine.ron")),
            Path::new("scenarios/mine.players")
        );
    }
}
