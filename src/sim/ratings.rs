//! How strong each player is: its score against the default heuristic over
//! both sides, and what a game of it costs.
//!
//! [`rate`] measures one player; the workbench ships the figures it measured
//! (`variants/players/ratings.ron`, with the command that made them), so
//! `players` can list the players strongest first without playing, and
//! `best` names the strongest player for a rule set.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::stats::Estimate;
use super::{Progress, SimOptions, simulate};
use crate::ai::{AiSpec, NotAPlayer};
use crate::engine::Game;
use crate::scenario::model::Side;

/// One player's measured strength under one rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rule set's name (`rules-2.0`) or variant file.
    pub variant: String,
    /// The player as `--caesar-ai` takes it.
    pub player: String,
    /// Its opponent: the default heuristic for every shipped rating.
    pub against: String,
    /// Share of the points against the opponent (a win 1, a draw ½), as
    /// Caesar and as Pompey equally, with its 95% interval.
    pub score: Estimate,
    /// Games played each way (as Caesar, then as Pompey).
    pub games_each_way: u64,
    /// The player's share as Caesar, and as Pompey.
    pub as_caesar: f64,
    pub as_pompey: f64,
    /// CPU seconds of the process per game (this player and the heuristic
    /// together, every thread); on a machine without `getrusage`, wall time
    /// times the worker threads.
    pub cpu_seconds_per_game: f64,
    /// The command that measured it, and where.
    pub measured: String,
}

/// Plays `player` against `against`, `games_each_way` games as Caesar and
/// as many as Pompey (same seeds both ways), on the current rayon pool.
pub fn rate(
    game: &Game,
    variant: &str,
    player: &AiSpec,
    against: &AiSpec,
    games_each_way: u64,
    seed: u64,
    progress: &Progress,
) -> Result<Rating, super::Cancelled> {
    let started = (Instant::now(), process_cpu_seconds());
    let mut points = [0.0f64; 2];
    let mut halves = 0u64;
    for side in Side::BOTH {
        let (caesar, pompey) = match side {
            Side::Caesar => (player.clone(), against.clone()),
            Side::Pompey => (against.clone(), player.clone()),
        };
        let options = SimOptions {
            games: games_each_way,
            seed,
            caesar,
            pompey,
            omniscient: false,
            shard: None,
        };
        let report = simulate(game, variant, &options, progress, |_| {})?;
        let wins = match side {
            Side::Caesar => report.caesar_wins,
            Side::Pompey => report.pompey_wins,
        };
        halves += 2 * wins + report.draws;
        points[side.index()] = (wins as f64 + report.draws as f64 / 2.0) / games_each_way as f64;
    }
    let games = 2 * games_each_way;
    // The interval is of whole points (a draw's half rounded down); the
    // estimate keeps the halves, and rounding in Wilson's formula may leave
    // it a hair outside: the interval is widened to hold it.
    let mut score = Estimate::of(halves / 2, games);
    score.estimate = halves as f64 / 2.0 / games as f64;
    score.ci95 = [
        score.ci95[0].min(score.estimate),
        score.ci95[1].max(score.estimate),
    ];
    let cpu = match (started.1, process_cpu_seconds()) {
        (Some(before), Some(after)) => after - before,
        _ => started.0.elapsed().as_secs_f64() * rayon::current_num_threads() as f64,
    };
    Ok(Rating {
        variant: variant.to_string(),
        player: player.to_string(),
        against: against.to_string(),
        score,
        games_each_way,
        as_caesar: points[0],
        as_pompey: points[1],
        cpu_seconds_per_game: cpu / games as f64,
        measured: String::new(),
    })
}

/// User and system CPU time of this process so far, every thread.
#[cfg(unix)]
#[allow(unsafe_code)]
fn process_cpu_seconds() -> Option<f64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole rusage into the pointer it is given
    // and reads nothing from it; RUSAGE_SELF is always a valid target.
    let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    if status != 0 {
        return None;
    }
    // SAFETY: a zero status means the kernel filled it in.
    let usage = unsafe { usage.assume_init() };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

#[cfg(not(unix))]
fn process_cpu_seconds() -> Option<f64> {
    None
}

/// The ratings the workbench ships (`variants/players/ratings.ron`).
pub fn shipped() -> Vec<Rating> {
    ron::from_str(include_str!("../../variants/players/ratings.ron"))
        .expect("the shipped ratings parse (a unit test reads them)")
}

/// The ratings of `variant`, strongest first (ties: the cheaper first).
pub fn ranked<'a>(ratings: &'a [Rating], variant: &str) -> Vec<&'a Rating> {
    let mut of: Vec<&Rating> = ratings
        .iter()
        .filter(|r| r.variant == variant && r.against == "heuristic")
        .collect();
    of.sort_by(|a, b| {
        b.score
            .estimate
            .total_cmp(&a.score.estimate)
            .then(a.cpu_seconds_per_game.total_cmp(&b.cpu_seconds_per_game))
    });
    of
}

/// The strongest shipped player for `variant`; the default heuristic when
/// none was measured under it.
pub fn best(variant: &str) -> Result<AiSpec, NotAPlayer> {
    let ratings = shipped();
    match ranked(&ratings, variant).first() {
        Some(r) => shipped_player(&r.player),
        None => Ok(AiSpec::Heuristic),
    }
}

/// A player of the shipped ratings: its player file is looked for from the
/// current directory, then in the source tree the workbench was built from.
pub fn shipped_player(player: &str) -> Result<AiSpec, NotAPlayer> {
    let split = match player.split_once('@') {
        Some((search, file)) => Some((search, '@', file)),
        None => player
            .strip_prefix("heuristic:")
            .map(|file| ("heuristic", ':', file)),
    };
    let Some((head, sep, file)) = split else {
        return player.parse();
    };
    let found = |file: &str| -> PathBuf {
        if Path::new(file).exists() {
            PathBuf::from(file)
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join(file)
        }
    };
    // A search may be scored by a value file too: `search:16@FILE+VALUE`.
    let (file, value) = match file.split_once('+') {
        Some((file, value)) => (file, Some(value)),
        None => (file, None),
    };
    let mut text = format!("{head}{sep}{}", found(file).display());
    if let Some(value) = value {
        text = format!("{text}+{}", found(value).display());
    }
    Ok(relabelled(text.parse()?, file, value))
}

/// `spec` named by the shipped paths, whatever directory they were read from.
fn relabelled(mut spec: AiSpec, path: &str, value_path: Option<&str>) -> AiSpec {
    match &mut spec {
        AiSpec::TunedHeuristic(t) => t.path = path.to_string(),
        AiSpec::SearchOn(s) => {
            s.on.path = path.to_string();
            if let (Some(value), Some(path)) = (&mut s.value, value_path) {
                value.path = path.to_string();
            }
        }
        _ => {}
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_ratings_parse_and_name_players_that_load() {
        let ratings = shipped();
        assert!(!ratings.is_empty());
        for r in &ratings {
            let spec = shipped_player(&r.player).unwrap();
            assert_eq!(
                spec.to_string(),
                r.player,
                "a shipped player keeps its name"
            );
            assert!((0.0..=1.0).contains(&r.score.estimate), "{}", r.player);
            assert!(r.score.ci95[0] <= r.score.estimate && r.score.estimate <= r.score.ci95[1]);
            assert!(
                !r.measured.is_empty(),
                "{} says how it was measured",
                r.player
            );
        }
    }

    #[test]
    fn ranked_puts_the_strongest_first_and_best_plays_it() {
        let ratings = shipped();
        let ranked = ranked(&ratings, "rules-2.0");
        assert!(ranked.len() >= 2);
        for pair in ranked.windows(2) {
            assert!(pair[0].score.estimate >= pair[1].score.estimate);
        }
        assert_eq!(best("rules-2.0").unwrap().to_string(), ranked[0].player);
        assert_eq!(best("no-such-variant").unwrap(), AiSpec::Heuristic);
    }

    #[test]
    fn rate_scores_the_heuristic_against_itself_near_one_half() {
        let game = crate::test_support::published("rules-2.0");
        let r = rate(
            &game,
            "rules-2.0",
            &AiSpec::Heuristic,
            &AiSpec::Heuristic,
            40,
            5,
            &Progress::new(),
        )
        .unwrap();
        // The same seeds both ways: each game's points go to one side, so
        // the mirror's two halves add to exactly one half.
        assert!(
            (r.score.estimate - 0.5).abs() < 1e-12,
            "{}",
            r.score.estimate
        );
        assert!((r.as_caesar + r.as_pompey - 1.0).abs() < 1e-12);
        assert_eq!(r.games_each_way, 40);
    }
}
