//! How strong each player is: its score against the default heuristic over
//! both sides, and what a game of it costs.
//!
//! [`rate`] measures one player; the workbench ships the figures it measured
//! (`variants/players/ratings.ron`, with the command that made them), so
//! `players` can list the players strongest first without playing, and
//! `best` names the strongest player for a rule set.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::ai::{AiSpec, NotAPlayer};
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::scenario::rules::RuleSet;
use crate::sim::runs::options::SimOptions;
use crate::sim::runs::stats::Estimate;
use crate::sim::{Progress, simulate};

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
    /// The scenario it was measured on: [`PUBLISHED`] for the built-in
    /// published game (every shipped rating), else the scenario's name and
    /// content digest as a report names them.
    #[serde(default = "published")]
    pub scenario: String,
    /// The scenario's content digest; empty for the published game.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scenario_digest: String,
    /// The rule set's [`RuleSet::play_digest`], when `variant` is a file
    /// (a fit's bundle); empty for a built-in name, whose digest is its own.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant_digest: String,
    /// What the player played by ([`AiSpec::play_digest`]: its kind, budget
    /// and the content of its files, not their paths). A rating is used
    /// only for a player that still plays by it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub player_digest: String,
}

/// How a rating names the built-in published game.
pub const PUBLISHED: &str = "published";

fn published() -> String {
    PUBLISHED.to_string()
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
) -> Result<Rating, crate::sim::Cancelled> {
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
        scenario: if game.scenario.digest == published_digest() {
            published()
        } else {
            game.scenario.name.clone()
        },
        scenario_digest: if game.scenario.digest == published_digest() {
            String::new()
        } else {
            game.scenario.digest.clone()
        },
        // A variant file may be edited: its rules are named by content.
        variant_digest: if crate::scenario::rules::is_bare_name(variant) {
            String::new()
        } else {
            game.rules.play_digest()
        },
        player_digest: player.play_digest(),
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
    static SHIPPED: OnceLock<Vec<Rating>> = OnceLock::new();
    SHIPPED
        .get_or_init(|| {
            let all: Vec<Rating> = ron::from_str(crate::ai::shipped::RATINGS)
                .expect("the shipped ratings parse (a unit test reads them)");
            // A unit test holds every one to its player; a player file
            // edited since it was measured is not rated by the old figure.
            all.into_iter()
                .filter(|r| player_matches(r).is_some())
                .collect()
        })
        .clone()
}

/// The player `r` rates, if it still plays by what was measured: its
/// files read and their content is the rating's
/// ([`Rating::player_digest`]). A rating without a digest (made before
/// ratings carried one) matches no player.
pub fn player_matches(r: &Rating) -> Option<AiSpec> {
    let spec: AiSpec = r.player.parse().ok()?;
    (!r.player_digest.is_empty() && spec.play_digest() == r.player_digest).then_some(spec)
}

/// The first figure of `r` that no measurement gives, and why: shares
/// (the score, its interval and each side's) outside 0 to 1 or not
/// numbers, an interval that does not hold its estimate, no games, a cost
/// below zero.
pub fn check_figures(r: &Rating) -> Result<(), BadFigure> {
    let share = |name: &'static str, x: f64| {
        if x.is_finite() && (0.0..=1.0).contains(&x) {
            Ok(())
        } else {
            Err(BadFigure::Share { name, value: x })
        }
    };
    share("estimate", r.score.estimate)?;
    share("ci95", r.score.ci95[0])?;
    share("ci95", r.score.ci95[1])?;
    share("as_caesar", r.as_caesar)?;
    share("as_pompey", r.as_pompey)?;
    if !(r.score.ci95[0] <= r.score.estimate && r.score.estimate <= r.score.ci95[1]) {
        return Err(BadFigure::Interval {
            low: r.score.ci95[0],
            high: r.score.ci95[1],
            estimate: r.score.estimate,
        });
    }
    if r.games_each_way == 0 {
        return Err(BadFigure::NoGames);
    }
    if !(r.cpu_seconds_per_game.is_finite() && r.cpu_seconds_per_game >= 0.0) {
        return Err(BadFigure::Cost(r.cpu_seconds_per_game));
    }
    Ok(())
}

/// A figure of a rating that no measurement gives ([`check_figures`]).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum BadFigure {
    #[error("`{name}` is {value}: a share of the points is from 0 to 1")]
    Share { name: &'static str, value: f64 },
    #[error("the interval ({low}, {high}) does not hold the estimate {estimate}")]
    Interval { low: f64, high: f64, estimate: f64 },
    #[error("`games_each_way` is 0: a rating is measured on games")]
    NoGames,
    #[error("`cpu_seconds_per_game` is {0}: expected a number of seconds, 0 or more")]
    Cost(f64),
}

/// The ratings `new` merged into `old`: a rating of the same player
/// against the same opponent under the same rule set on the same scenario
/// replaces the old one where it stood, every other old rating is kept,
/// and the rest of `new` follows in order. A ratings file is merged into,
/// never replaced (`players --measure --out`).
pub fn merged(mut old: Vec<Rating>, new: &[Rating]) -> Vec<Rating> {
    let key = |r: &Rating| {
        (
            r.variant.clone(),
            r.variant_digest.clone(),
            r.scenario.clone(),
            r.scenario_digest.clone(),
            r.player.clone(),
            r.against.clone(),
        )
    };
    for r in new {
        match old.iter_mut().find(|o| key(o) == key(r)) {
            Some(same) => *same = r.clone(),
            None => old.push(r.clone()),
        }
    }
    old
}

/// Why a rating does not hold for a setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mismatch {
    /// It was measured under another rule set.
    Rules,
    /// It was measured on another scenario.
    Scenario,
    /// Its player files changed since (or it carries no player digest).
    Player,
}

/// Whether `r` holds for the setup of rule set play digest `rules` and
/// scenario digest `scenario` (`None`: the published game): the rule set,
/// the scenario and the player's content all as measured.
pub fn holds_for(r: &Rating, rules: &str, scenario: Option<&str>) -> Result<AiSpec, Mismatch> {
    if rules_digest(r).as_deref() != Some(rules) {
        return Err(Mismatch::Rules);
    }
    if !scenario_matches(r, scenario) {
        return Err(Mismatch::Scenario);
    }
    player_matches(r).ok_or(Mismatch::Player)
}

/// Why no rating of the fit's bundle in `dir` holds for the setup in play
/// (rule set lineage `lineage`, scenario digest `scenario`), in words for
/// the report; `None` when one holds or the bundle is empty.
pub fn stale_bundle(
    dir: &std::path::Path,
    bundle: &[Rating],
    lineage: &[RuleSet],
    scenario: Option<&str>,
) -> Option<String> {
    if bundle.is_empty() {
        return None;
    }
    let rules = lineage.first()?.play_digest();
    let mismatches: Vec<Mismatch> = bundle
        .iter()
        .map(|r| holds_for(r, &rules, scenario).err())
        .collect::<Option<_>>()?;
    let why = if mismatches.contains(&Mismatch::Player) {
        "its player files changed since they were measured, or it was made by an older version of the workbench"
    } else if mismatches.contains(&Mismatch::Scenario) {
        "the scenario is not the one it was fitted on"
    } else {
        "the rule set is not the one it was fitted under"
    };
    Some(format!(
        "your fit in {} was made for another version of this setup ({why}): it is not used; fit again",
        dir.display()
    ))
}

/// The ratings measured under the rule set `variant` names, strongest
/// first (ties: the cheaper first). Matched by what is played
/// ([`RuleSet::play_digest`]), not by spelling: `rules-2.0`,
/// `variants/rules-2.0.ron`, its absolute path and a copy under another
/// name all have the ratings of rules 2.0. A variant that does not load has none.
pub fn ranked<'a>(ratings: &'a [Rating], variant: &str) -> Vec<&'a Rating> {
    match RuleSet::load(variant) {
        Ok(rules) => ranked_for(ratings, &rules.play_digest()),
        Err(_) => Vec::new(),
    }
}

/// The ratings measured under the rule set whose [`RuleSet::play_digest`]
/// is `digest`, strongest first (ties: the cheaper first).
pub fn ranked_for<'a>(ratings: &'a [Rating], digest: &str) -> Vec<&'a Rating> {
    let mut of: Vec<&Rating> = ratings
        .iter()
        .filter(|r| r.against == "heuristic" && rules_digest(r).as_deref() == Some(digest))
        .collect();
    of.sort_by(|a, b| {
        b.score
            .estimate
            .total_cmp(&a.score.estimate)
            .then(a.cpu_seconds_per_game.total_cmp(&b.cpu_seconds_per_game))
    });
    of
}

/// The play digest of the rule set a rating was measured under.
fn rules_digest(r: &Rating) -> Option<String> {
    if r.variant_digest.is_empty() {
        play_digest_of(&r.variant)
    } else {
        Some(r.variant_digest.clone())
    }
}

/// The play digest of the rule set a rating names, computed once per name
/// (ratings name built-in variants; a file is read again if it changed).
fn play_digest_of(variant: &str) -> Option<String> {
    static DIGESTS: Mutex<BTreeMap<String, Option<String>>> = Mutex::new(BTreeMap::new());
    let builtin = crate::scenario::rules::is_bare_name(variant);
    if builtin && let Some(known) = DIGESTS.lock().ok()?.get(variant) {
        return known.clone();
    }
    let digest = RuleSet::load(variant).ok().map(|r| r.play_digest());
    if builtin && let Ok(mut digests) = DIGESTS.lock() {
        digests.insert(variant.to_string(), digest.clone());
    }
    digest
}

/// The strongest shipped player for the rule set `variant` names (by
/// content, [`ranked`]), else for the nearest rule set it extends; the
/// default heuristic when none was measured along the chain.
pub fn best(variant: &str) -> Result<AiSpec, NotAPlayer> {
    let lineage = RuleSet::lineage(variant).unwrap_or_default();
    Ok(best_for(&lineage, None, &[])?.spec)
}

/// The player `best` stands for on one setup, with the rating behind it
/// and how near that rating's setup is to the one in play.
#[derive(Debug, Clone, PartialEq)]
pub struct BestPlayer {
    pub spec: AiSpec,
    /// The shipped rating `spec` was chosen by; `None` when nothing along
    /// the rule set's `extends` chain was measured (the default heuristic).
    pub rating: Option<Rating>,
    /// Whether the rating was measured under the rule set in play (else
    /// under a rule set it extends).
    pub same_rules: bool,
    /// Whether it was measured on the scenario in play.
    pub same_scenario: bool,
    /// Whether it comes from a fit's bundle for this very setup.
    pub fitted_here: bool,
}

impl BestPlayer {
    /// In words, for reports, listings and menus: "strongest for rules-2.0
    /// (82.0% against the default heuristic), measured on the published
    /// setup; not measured on this setup".
    pub fn describe(&self) -> String {
        let Some(r) = &self.rating else {
            return "the default heuristic: no player was measured under this rule set or any it extends"
                .to_string();
        };
        if self.fitted_here {
            return format!(
                "the fit's choice for this setup ({:.1}% against the default heuristic, measured here)",
                100.0 * r.score.estimate
            );
        }
        let setup = if r.scenario == PUBLISHED {
            "the published setup".to_string()
        } else {
            format!("the setup {}", r.scenario)
        };
        let mut text = format!(
            "strongest for {} ({:.1}% against the default heuristic), measured on {setup}",
            r.variant,
            100.0 * r.score.estimate
        );
        if !self.same_rules {
            text += &format!(
                "; not measured under this rule set (it extends {})",
                r.variant
            );
        }
        if !self.same_scenario {
            text += "; not measured on this setup";
        }
        text
    }
}

/// [`best`] for a rule set's lineage (the rule set in play first, then each
/// rule set it extends, [`RuleSet::lineage`]) on the scenario with content
/// digest `scenario` (`None`: the published game).
pub fn best_for(
    lineage: &[RuleSet],
    scenario: Option<&str>,
    bundle: &[Rating],
) -> Result<BestPlayer, NotAPlayer> {
    // A fit's bundle for this very setup lists its choice first.
    if let Some(here) = lineage.first().map(RuleSet::play_digest)
        && let Some((r, spec)) = bundle
            .iter()
            .find_map(|r| Some((r, holds_for(r, &here, scenario).ok()?)))
    {
        return Ok(BestPlayer {
            spec,
            rating: Some(r.clone()),
            same_rules: true,
            same_scenario: true,
            fitted_here: true,
        });
    }
    let ratings = shipped();
    for (depth, rules) in lineage.iter().enumerate() {
        let ranked = ranked_for(&ratings, &rules.play_digest());
        // A rating on this very setup beats one on another setup.
        let chosen = ranked
            .iter()
            .find(|r| scenario_matches(r, scenario))
            .or(ranked.first())
            .copied();
        if let Some(r) = chosen {
            return Ok(BestPlayer {
                spec: shipped_player(&r.player)?,
                same_rules: depth == 0,
                same_scenario: scenario_matches(r, scenario),
                rating: Some(r.clone()),
                fitted_here: false,
            });
        }
    }
    Ok(BestPlayer {
        spec: AiSpec::Heuristic,
        rating: None,
        same_rules: false,
        same_scenario: false,
        fitted_here: false,
    })
}

/// CPU seconds a game of a `fast` player may cost: the one definition the
/// command line's `fast`, the window's and a fit's plan all read.
pub const FAST_GAME_CPU: f64 = 0.005;

/// `fast` for a setup: the bundle's first player under [`FAST_GAME_CPU`] a
/// game, else the strongest such along the rule set's `extends` chain, else
/// the default heuristic.
pub fn fast_for(
    lineage: &[RuleSet],
    scenario: Option<&str>,
    bundle: &[Rating],
) -> Result<BestPlayer, NotAPlayer> {
    let fast_bundle: Vec<Rating> = bundle
        .iter()
        .filter(|r| r.cpu_seconds_per_game < FAST_GAME_CPU)
        .cloned()
        .collect();
    let in_bundle = best_for(lineage, scenario, &fast_bundle)?;
    if in_bundle.fitted_here {
        return Ok(in_bundle);
    }
    Ok(
        strongest_within(lineage, scenario, FAST_GAME_CPU)?.unwrap_or(BestPlayer {
            spec: AiSpec::Heuristic,
            rating: None,
            same_rules: false,
            same_scenario: false,
            fitted_here: false,
        }),
    )
}

/// The strongest rated player that costs under `max_cpu` CPU seconds a
/// game, for a rule set's lineage as [`best_for`] searches it (the fast
/// default of runs that play thousands of games); `None` when no such player
/// was measured along the chain.
pub fn strongest_within(
    lineage: &[RuleSet],
    scenario: Option<&str>,
    max_cpu: f64,
) -> Result<Option<BestPlayer>, NotAPlayer> {
    let ratings = shipped();
    for (depth, rules) in lineage.iter().enumerate() {
        let ranked = ranked_for(&ratings, &rules.play_digest());
        if let Some(r) = ranked.iter().find(|r| r.cpu_seconds_per_game < max_cpu) {
            return Ok(Some(BestPlayer {
                spec: shipped_player(&r.player)?,
                same_rules: depth == 0,
                same_scenario: scenario_matches(r, scenario),
                rating: Some((*r).clone()),
                fitted_here: false,
            }));
        }
    }
    Ok(None)
}

/// Whether `r` was measured on the scenario with digest `scenario` (`None`
/// or the published game's digest: the published game).
fn scenario_matches(r: &Rating, scenario: Option<&str>) -> bool {
    match scenario {
        None => r.scenario == PUBLISHED,
        Some(digest) if r.scenario == PUBLISHED => digest == published_digest(),
        Some(digest) => r.scenario_digest == digest,
    }
}

/// The published game's content digest, computed once.
pub fn published_digest() -> &'static str {
    static DIGEST: OnceLock<String> = OnceLock::new();
    DIGEST.get_or_init(|| {
        crate::scenario::load_scenario(None)
            .map(|doc| doc.digest())
            .unwrap_or_default()
    })
}

/// A player of the shipped ratings (or any rating): parsed as
/// `--caesar-ai` takes it. The shipped player files it names
/// (`variants/players/NAME.ron`) are built into the program
/// ([`crate::ai::shipped`]), so they play from any folder.
pub fn shipped_player(player: &str) -> Result<AiSpec, NotAPlayer> {
    player.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_ratings_parse_and_name_players_that_load() {
        let ratings: Vec<Rating> = ron::from_str(crate::ai::shipped::RATINGS).unwrap();
        assert!(!ratings.is_empty());
        // Every shipped rating holds for its player as shipped (a player
        // file edited since is measured again, and its digest written).
        let stale: Vec<String> = ratings
            .iter()
            .filter(|r| player_matches(r).is_none())
            .map(|r| {
                let digest = shipped_player(&r.player).map(|s| s.play_digest());
                format!("{} => {digest:?}", r.player)
            })
            .collect();
        assert!(stale.is_empty(), "{stale:#?}");
        assert_eq!(shipped(), ratings);
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
