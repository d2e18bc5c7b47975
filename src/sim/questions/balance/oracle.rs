//! Best responses: players trained against the other side's equilibrium
//! mix, then measured against it on seeds no training saw.
//!
//! Three oracles, each building on the one before when both run:
//! - [`Oracle::Tune`]: the heuristic's numbers for the side, tuned by CMA-ES
//!   (as `tune --side`) against the mix's players game by game, each met in
//!   proportion to its weight;
//! - [`Oracle::Search`]: a search that knows whom it plays: its playouts
//!   play the other side by the mix's players, drawn by weight in each
//!   sampled world (the player file's `opponents:`), not by the default
//!   heuristic;
//! - [`Oracle::Value`]: that search scored by a value learned on games of
//!   the side's tuned numbers against the mix's heaviest player.
//!
//! Tuning and playouts meet the mix's players by the numbers they play by:
//! a search in the mix is met by the heuristic it searches on (a search
//! inside every playout of a search would cost thousands of games a
//! decision). The measurement against the mix plays the players themselves.

use std::path::{Path, PathBuf};

use super::options::{GAMES_PER_CANDIDATE, Oracle, TUNE_SLOTS};
use super::play::{EVAL_TAG, against_mix, gain};
use super::report::{
    BalanceError, BalanceReport, Interval, Limits, Member, Origin, Response, Watch,
};
use crate::ai::{
    AiSpec, LearnedValue, OpponentMix, PlayerFileName, PlayerNumbers, SearchOn, TunedHeuristic,
};
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::sim::players::learn::{LearnOptions, learn};
use crate::sim::players::tune::{Effort, TuneOptions, side_score, tune};
use crate::sim::runs::options::OptionsError;
use crate::sim::{Cancelled, Progress, game_seed};

const TUNE_TAG: u64 = 0x4241_4C41_4E43_4554; // "BALANCET"
const LEARN_TAG: u64 = 0x4241_4C41_4E43_454C; // "BALANCEL"
const START_TAG: u64 = 0x4241_4C41_4E43_4553; // "BALANCES"
const KEEP_TAG: u64 = 0x4241_4C41_4E43_454B; // "BALANCEK"

/// About how many distinct starts a tuning screens (the shipped numbers,
/// the default and a few members), for a wall-time guess before any round.
pub(super) const STARTS_GUESS: usize = 10;

/// The numbers a member plays by (a search's: the heuristic it searches on).
fn numbers_of(member: &Member) -> PlayerNumbers {
    member
        .spec()
        .numbers_file()
        .map_or_else(PlayerNumbers::default, |t| PlayerNumbers {
            opponents: OpponentMix::default(),
            mcts: None,
            ..t.numbers
        })
}

/// `TUNE_SLOTS` opponents apportioned by weight (largest remainders).
fn apportioned(mix: &[(f64, &Member)]) -> Vec<PlayerNumbers> {
    let total: f64 = mix.iter().map(|(w, _)| w).sum();
    let exact: Vec<f64> = mix
        .iter()
        .map(|(w, _)| w / total * TUNE_SLOTS as f64)
        .collect();
    let mut slots: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let mut order: Vec<usize> = (0..mix.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    let given: usize = slots.iter().sum();
    for &i in order.iter().take(TUNE_SLOTS.saturating_sub(given)) {
        slots[i] += 1;
    }
    mix.iter()
        .zip(slots)
        .flat_map(|((_, m), n)| std::iter::repeat_n(numbers_of(m), n))
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, BalanceError> {
    let path = dir.join(name);
    crate::files::write_output(&path, text)
        .map_err(|e| BalanceError::Oracle(format!("writing {}: {e}", path.display())))?;
    Ok(path)
}

/// Trains and measures round `round`'s best responses for both sides and
/// adds those that beat the value by more than their interval ([`join_best`]).
pub(super) fn respond(
    game: &Game,
    report: &mut BalanceReport,
    round: u32,
    limits: &Limits<'_>,
    watch: &Watch,
) -> Result<(bool, f64), BalanceError> {
    let dir = limits.players_dir.ok_or_else(|| {
        BalanceError::Oracle("trained players need a folder to be written to".to_string())
    })?;
    std::fs::create_dir_all(dir)
        .map_err(|e| BalanceError::Oracle(format!("creating {}: {e}", dir.display())))?;
    let o = report.options.clone();
    let mut responses = Vec::new();
    let mut specs: Vec<AiSpec> = Vec::new();
    let mut played = 0u64;
    // Responses stand in the round as they are measured, so a run cut
    // short keeps them; a resume measures them again from their seeds.
    if let Some(r) = report.rounds.iter_mut().find(|r| r.round == round) {
        r.responses.clear();
    }
    for side in Side::BOTH {
        let (candidates, trained) = train(game, report, side, round, dir, watch)?;
        played += trained;
        for (oracle, spec) in candidates {
            watch.say(format!(
                "round {round}: measuring {side}'s {oracle} response against the other side's mix"
            ));
            let share = measure(game, report, &spec, side, round, watch)?;
            played += o.response_games;
            let value = report.value_for(side);
            let response = Response {
                side,
                oracle,
                player: spec.to_string(),
                words: super::report::words(&spec),
                share,
                gain: gain(share, value),
                games: o.response_games,
                joined: false,
                member_again: false,
            };
            if let Some(r) = report.rounds.iter_mut().find(|r| r.round == round) {
                r.responses.push(response.clone());
            }
            responses.push(response);
            // Kept for joining below, once both sides are measured.
            specs.push(spec);
        }
    }
    report.games_played += played;
    Ok(join_best(report, responses, &specs, round))
}

/// Joins each side's best of `responses` (trained as `specs`) to the
/// population if it beats the value by more than its interval, and records
/// the round's responses and exploitability. Returns whether any joined and
/// the larger of the two sides' best gains.
fn join_best(
    report: &mut BalanceReport,
    mut responses: Vec<Response>,
    specs: &[AiSpec],
    round: u32,
) -> (bool, f64) {
    let mut joined = false;
    let mut best_gain = [0.0f64; 2];
    let mut exploit = [None::<Interval>; 2];
    // A tuning kept at a member's numbers is that member again: what it
    // gains on the response's seeds is noise, and it does not join.
    for (response, spec) in responses.iter_mut().zip(specs) {
        response.member_again = plays_as_member(report, response.side, spec);
    }
    let gains: Vec<f64> = responses.iter().map(Response::counted_gain).collect();
    for side in Side::BOTH {
        let best = (0..responses.len())
            .filter(|&k| responses[k].side == side)
            .max_by(|&a, &b| gains[a].total_cmp(&gains[b]));
        let Some(k) = best else { continue };
        let best = &mut responses[k];
        let new = !best.member_again;
        best_gain[side.index()] = gains[k].max(0.0);
        exploit[side.index()] = Some(if new && best.gain.estimate > 0.0 {
            best.gain
        } else {
            Interval {
                estimate: 0.0,
                ci95: [best.gain.ci95[0].min(0.0), best.gain.ci95[1].max(0.0)],
            }
        });
        if new && best.gain.ci95[0] > 0.0 {
            best.joined = true;
            joined = true;
            let member = Member::new(
                specs[k].clone(),
                Origin::Trained {
                    round,
                    oracle: best.oracle,
                },
            );
            match side {
                Side::Caesar => {
                    report.caesar.push(member);
                    report.table.add_row();
                }
                Side::Pompey => {
                    report.pompey.push(member);
                    report.table.add_column();
                }
            }
        }
    }
    let exploitability = match exploit {
        [Some(c), Some(p)] => {
            let half = |i: Interval| (i.ci95[1] - i.ci95[0]) / 2.0;
            let h = (half(c).powi(2) + half(p).powi(2)).sqrt();
            let e = c.estimate + p.estimate;
            Some(Interval {
                estimate: e,
                ci95: [(e - h).max(0.0), e + h],
            })
        }
        _ => None,
    };
    if let Some(r) = report.rounds.iter_mut().find(|r| r.round == round) {
        r.responses = responses;
        r.exploitability = exploitability;
    }
    report.exploitability = exploitability;
    (joined, best_gain[0].max(best_gain[1]))
}

/// Whether `spec` plays `side` by the numbers a member of the side's
/// population already plays by (a heuristic, tuned or not).
fn plays_as_member(report: &BalanceReport, side: Side, spec: &AiSpec) -> bool {
    let AiSpec::TunedHeuristic(response) = spec else {
        return false;
    };
    report.members(side).iter().any(|m| match m.spec.as_ref() {
        Some(AiSpec::TunedHeuristic(member)) => {
            member.numbers.of(side) == response.numbers.of(side)
        }
        Some(AiSpec::Heuristic) => PlayerNumbers::default().of(side) == response.numbers.of(side),
        _ => false,
    })
}

/// Trains `side`'s best responses of round `round` against the other
/// side's mix, writing their files into `dir`: each with its oracle, and
/// the games the training played.
fn train(
    game: &Game,
    report: &BalanceReport,
    side: Side,
    round: u32,
    dir: &Path,
    watch: &Watch,
) -> Result<(Vec<(Oracle, AiSpec)>, u64), BalanceError> {
    let oracles = &report.options.oracles;
    let t = Training {
        game,
        report,
        side,
        round,
        dir,
        watch,
        tag: format!("r{round}-{}", side.to_string().to_lowercase()),
    };
    let own_mix = report.mix(side);
    let heaviest = own_mix
        .iter()
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map_or_else(
            || Start {
                numbers: PlayerNumbers::default(),
                name: "the default heuristic".to_string(),
            },
            |(_, m)| Start {
                numbers: numbers_of(m),
                name: m.words.clone(),
            },
        );
    let base = heaviest.numbers;
    let mut played = 0u64;
    let mut candidates: Vec<(Oracle, AiSpec)> = Vec::new();
    let mut numbers = base;
    if oracles.contains(&Oracle::Tune) {
        let (starts, screened) = t.ranked_starts(heaviest)?;
        let (tuned, spec, games) = t.tuned(&starts)?;
        numbers = tuned;
        played += screened + games;
        candidates.push((Oracle::Tune, spec));
    }
    if !(oracles.contains(&Oracle::Search) || oracles.contains(&Oracle::Value)) {
        return Ok((candidates, played));
    }
    let on = t.search_file(numbers)?;
    let search = AiSpec::Search {
        playouts: report.options.playouts,
    };
    if oracles.contains(&Oracle::Search) {
        candidates.push((
            Oracle::Search,
            AiSpec::SearchOn(Box::new(SearchOn {
                search: search.clone(),
                on: on.clone(),
                value: None,
            })),
        ));
    }
    if oracles.contains(&Oracle::Value) {
        let value = t.learned_value(numbers)?;
        played += report.options.learn_games;
        candidates.push((
            Oracle::Value,
            AiSpec::SearchOn(Box::new(SearchOn {
                search,
                on,
                value: Some(value),
            })),
        ));
    }
    Ok((candidates, played))
}

/// A point a tuning may set out from, and what it is in words.
struct Start {
    numbers: PlayerNumbers,
    name: String,
}

/// One side's training in one round: what every oracle needs.
struct Training<'a> {
    game: &'a Game,
    report: &'a BalanceReport,
    side: Side,
    round: u32,
    dir: &'a Path,
    watch: &'a Watch,
    /// `rN-side`, the start of every file the round writes for the side.
    tag: String,
}

impl Training<'_> {
    /// Seeds a stream of the round's training for this side.
    fn seed(&self, tag: u64) -> u64 {
        game_seed(
            self.report.options.training_seed() ^ tag,
            u64::from(self.round) * 2 + self.side.index() as u64,
        )
    }

    /// Runs `fit` (the tuning or the learning: `what`) on the game under
    /// the run's progress, once `check` has found its options sound.
    fn fit<O, R>(
        &self,
        what: &str,
        options: &O,
        check: impl Fn(&O) -> Result<(), OptionsError>,
        fit: impl Fn(&Game, &str, &O, &Progress) -> Result<R, Cancelled>,
    ) -> Result<R, BalanceError> {
        check(options).map_err(|e| BalanceError::Oracle(format!("{what}: {e}")))?;
        Ok(fit(
            self.game,
            &self.report.variant,
            options,
            &self.watch.progress,
        )?)
    }

    /// Where (a)'s CMA-ES may set out: `heaviest` (the side's heaviest
    /// member), the side's other members, every shipped player's numbers
    /// and the default heuristic, best first by their scores against the
    /// other side's mix over the same `start_games` seeds (ties keep that
    /// order); with no screening games, `heaviest` alone. From the heaviest
    /// member alone, tuning climbed to local optima that shipped numbers it
    /// never met beat by 15–25 points. Also returns the games played.
    fn ranked_starts(&self, heaviest: Start) -> Result<(Vec<Start>, u64), BalanceError> {
        let (side, games) = (self.side, self.report.options.start_games);
        let starts = self.starts(heaviest);
        if games == 0 || starts.len() == 1 {
            return Ok((starts.into_iter().take(1).collect(), 0));
        }
        self.watch.say(format!(
            "round {}: scoring {} starts for {side}'s tuning against the other side's mix",
            self.round,
            starts.len()
        ));
        let mut scored = Vec::with_capacity(starts.len());
        for start in starts {
            scored.push((self.start_score(&start, START_TAG)?, start));
        }
        let played = games * scored.len() as u64;
        // Stable: of equal scores the earlier start comes first.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        Ok((scored.into_iter().map(|(_, s)| s).collect(), played))
    }

    /// `start`'s score against the other side's mix on `start_games` seeds
    /// of the stream `tag` names.
    fn start_score(&self, start: &Start, tag: u64) -> Result<f64, Cancelled> {
        side_score(
            self.game,
            self.seed(tag),
            self.report.options.start_games,
            (start.numbers.of(self.side), self.side),
            &apportioned(&self.report.mix(self.side.other())),
            &self.watch.progress,
        )
    }

    /// The starts [`Training::start`] screens, `heaviest` first, no two
    /// with the same numbers for the side.
    fn starts(&self, heaviest: Start) -> Vec<Start> {
        let side = self.side;
        let base = heaviest.numbers;
        let mut starts = vec![heaviest];
        let members = self.report.members(side).iter().filter_map(|m| {
            m.spec.as_ref().and_then(AiSpec::numbers_file)?;
            Some((numbers_of(m), m.words.clone()))
        });
        // Tuned files first: a search's file that plays by a tuned file's
        // numbers is named by the tuned file.
        let mut files: Vec<&str> = crate::ai::shipped::FILES.iter().map(|f| f.0).collect();
        files.sort_by_key(|name| !PlayerFileName::of(name).is_tuned());
        let shipped = files.into_iter().filter_map(|name| {
            let path = crate::ai::shipped::path_of(name);
            let numbers = PlayerNumbers::load(Path::new(&path)).ok()?;
            Some((numbers, format!("the shipped {name}")))
        });
        let default = std::iter::once((
            PlayerNumbers::default(),
            "the default heuristic".to_string(),
        ));
        for (numbers, name) in members.chain(shipped).chain(default) {
            if starts
                .iter()
                .all(|s| s.numbers.of(side) != numbers.of(side))
            {
                starts.push(Start {
                    numbers: base.with(side, numbers.of(side)),
                    name,
                });
            }
        }
        starts
    }

    /// (a) The side's numbers tuned by CMA-ES against the other side's mix,
    /// once from each of the first `tune_restarts` of `starts` (ranked,
    /// best first), each run on seeds of its own: the numbers, their player
    /// (written), and the games.
    fn tuned(&self, starts: &[Start]) -> Result<(PlayerNumbers, AiSpec, u64), BalanceError> {
        let (side, round, o) = (self.side, self.round, &self.report.options);
        let restarts = starts.len().min(o.tune_restarts.max(1) as usize);
        self.watch.say(format!(
            "round {round}: tuning {side}'s numbers against the other side's mix ({restarts} {})",
            if restarts == 1 { "start" } else { "starts" }
        ));
        let mut played = 0;
        let mut candidates: Vec<(PlayerNumbers, String)> = Vec::new();
        for (i, start) in starts.iter().take(restarts).enumerate() {
            let options = TuneOptions {
                effort: Effort {
                    budget: o.tune_games,
                    games_per_candidate: GAMES_PER_CANDIDATE,
                    population: 0,
                    step: 0.3,
                    check_games: 0,
                    seed: self.seed(TUNE_TAG.wrapping_add(i as u64)),
                },
                start: start.numbers,
                side: Some(side),
                against: apportioned(&self.report.mix(side.other())),
            };
            let tuned = self.fit("tuning", &options, TuneOptions::check, tune)?;
            played += tuned.games_played;
            candidates.push((
                tuned.tuned,
                format!(
                    "its numbers tuned by CMA-ES against the other side's equilibrium mix, from {}",
                    start.name
                ),
            ));
        }
        // CMA-ES's mean after a few noisy generations can play worse than
        // where it set out: the tunings and the best start are judged on
        // seeds neither the screening nor the tunings played, and the best
        // kept (the first of equals: a tuning before the start).
        let mut best = 0;
        if o.start_games > 0 {
            candidates.push((
                starts[0].numbers,
                format!(
                    "the numbers of {}, which scored more against the other side's equilibrium mix than their tunings",
                    starts[0].name
                ),
            ));
            let mut scores = Vec::with_capacity(candidates.len());
            for (numbers, _) in &candidates {
                let judged = Start {
                    numbers: *numbers,
                    name: String::new(),
                };
                scores.push(self.start_score(&judged, KEEP_TAG)?);
            }
            played += o.start_games * candidates.len() as u64;
            for (i, score) in scores.iter().enumerate() {
                if *score > scores[best] {
                    best = i;
                }
            }
            if candidates.len() > 2 {
                let (numbers, how) = &candidates[best];
                let how = format!(
                    "{how} (the best of {} tunings and the start on {} fresh games: {:.1}%)",
                    candidates.len() - 1,
                    o.start_games,
                    100.0 * scores[best]
                );
                candidates[best] = (*numbers, how);
            }
        }
        let (numbers, how) = candidates.swap_remove(best);
        let path = write(
            self.dir,
            &format!("{}-tuned.ron", self.tag),
            &numbers.to_ron(&format!(
                "{side}'s best response of round {round} of `caesar-workbench balance` (seed {}): {how}.",
                o.training_seed()
            )),
        )?;
        let spec = AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
            path: path.display().to_string(),
            numbers,
        }));
        Ok((numbers, spec, played))
    }

    /// (b) The player file a search plays on: `numbers`, expecting the
    /// other side's mix in its playouts (written).
    fn search_file(&self, numbers: PlayerNumbers) -> Result<TunedHeuristic, BalanceError> {
        let side = self.side;
        let expecting = OpponentMix::of(
            &self
                .report
                .mix(side.other())
                .iter()
                .map(|(w, m)| (*w, numbers_of(m).of(side.other())))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_default();
        let numbers = PlayerNumbers {
            opponents: expecting,
            ..numbers
        };
        let path = write(
            self.dir,
            &format!("{}-search.ron", self.tag),
            &numbers.to_ron(&format!(
                "{side}'s searched best response of round {} of `caesar-workbench balance` (seed {}): its playouts meet the other side's equilibrium mix.",
                self.round, self.report.options.training_seed()
            )),
        )?;
        Ok(TunedHeuristic {
            path: path.display().to_string(),
            numbers,
        })
    }

    /// (c) A value learned on games of `numbers` against the other side's
    /// mix's heaviest player (written).
    fn learned_value(&self, numbers: PlayerNumbers) -> Result<LearnedValue, BalanceError> {
        let (side, o) = (self.side, &self.report.options);
        self.watch.say(format!(
            "round {}: learning {side}'s value against the other side's mix",
            self.round
        ));
        let opponent = self
            .report
            .mix(side.other())
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, m)| numbers_of(m))
            .unwrap_or_default();
        let own = AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
            path: "response".to_string(),
            numbers,
        }));
        let theirs = AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
            path: "opponent".to_string(),
            numbers: opponent,
        }));
        let players = match side {
            Side::Caesar => [own, theirs],
            Side::Pompey => [theirs, own],
        };
        let options = LearnOptions {
            games: o.learn_games,
            held_out: 0.25,
            seed: self.seed(LEARN_TAG),
            players,
            horizon_turns: 5,
            // About two thirds of a horizon playout's cost, no weaker
            // (docs/simulation.md, "Playouts that stop at the year's end").
            playouts_stop: crate::ai::value::PlayoutStop::YearEnd,
        };
        let learnt = self.fit("learning", &options, LearnOptions::check, learn)?;
        let path = write(
            self.dir,
            &format!("{}-value.ron", self.tag),
            &learnt.value_file(),
        )?;
        Ok(LearnedValue {
            path: path.display().to_string(),
            model: learnt.model,
        })
    }
}

/// `spec`'s side's share against the other side's mix over the round's
/// evaluation games (the same seeds for every response of the round).
fn measure(
    game: &Game,
    report: &BalanceReport,
    spec: &AiSpec,
    side: Side,
    round: u32,
    watch: &Watch,
) -> Result<Interval, BalanceError> {
    let seed = game_seed(report.options.training_seed() ^ EVAL_TAG, u64::from(round));
    Ok(against_mix(
        game,
        report,
        spec,
        side,
        report.options.response_games,
        seed,
        &watch.progress,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::questions::balance::options::tune_generation_games;
    use crate::sim::questions::balance::tests::solved_report;

    #[test]
    fn a_response_with_a_members_numbers_is_that_member_again() {
        let game = crate::test_support::published("rules-2.0");
        let report = solved_report(&game);
        let playing = |numbers: PlayerNumbers| {
            AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
                path: "r1-caesar-tuned.ron".to_string(),
                numbers,
            }))
        };
        let tuned = PlayerNumbers::load(Path::new(&crate::ai::shipped::path_of(
            "tuned-rules-2.0.ron",
        )))
        .unwrap();
        // The population's heuristic plays by the default numbers.
        let default = playing(PlayerNumbers::default());
        assert!(plays_as_member(&report, Side::Caesar, &default));
        // Only the side's own numbers count.
        let pompey_tuned = playing(PlayerNumbers::default().with(Side::Pompey, tuned.pompey));
        assert!(plays_as_member(&report, Side::Caesar, &pompey_tuned));
        assert!(!plays_as_member(&report, Side::Pompey, &pompey_tuned));
        assert!(!plays_as_member(&report, Side::Caesar, &playing(tuned)));
        // A member again counts at most 0, whatever its measured gain.
        let again = Response {
            side: Side::Caesar,
            oracle: Oracle::Tune,
            player: default.to_string(),
            words: String::new(),
            share: report.value,
            gain: Interval {
                estimate: 0.03,
                ci95: [0.01, 0.05],
            },
            games: 2000,
            joined: false,
            member_again: true,
        };
        assert_eq!(again.counted_gain(), 0.0);
        let new = Response {
            member_again: false,
            ..again
        };
        assert_eq!(new.counted_gain(), 0.03);
    }

    #[test]
    fn a_tuning_sets_out_from_the_start_that_scores_best_against_the_mix() {
        let game = crate::test_support::published("rules-2.0");
        let mut report = solved_report(&game);
        report.options.start_games = 40;
        let report = report;
        let (dir, watch) = (tempfile::tempdir().unwrap(), Watch::new());
        let side = Side::Pompey;
        let training = |report| Training {
            game: &game,
            report,
            side,
            round: 1,
            dir: dir.path(),
            watch: &watch,
            tag: "r1-pompey".to_string(),
        };
        let t = training(&report);
        let numbers = PlayerNumbers::load(Path::new(&crate::ai::shipped::path_of(
            "tuned-rules-1.1.ron",
        )))
        .unwrap();
        let heaviest = || Start {
            numbers,
            name: "Heuristic on tuned-rules-1.1".to_string(),
        };
        let starts = t.starts(heaviest());
        assert_eq!(starts[0].numbers, numbers);
        for name in ["tuned-sides-rules-2.0.ron", "tuned-rules-2.0.ron"] {
            let name = format!("the shipped {name}");
            assert!(starts.iter().any(|s| s.name == name), "{name}");
        }
        assert!(starts.iter().any(|s| s.name == "the default heuristic"));
        // The heaviest is itself shipped: it stands once, first.
        assert!(
            !starts
                .iter()
                .any(|s| s.name.contains("tuned-rules-1.1.ron"))
        );
        for (i, a) in starts.iter().enumerate() {
            for b in &starts[i + 1..] {
                assert_ne!(
                    a.numbers.of(side),
                    b.numbers.of(side),
                    "{} {}",
                    a.name,
                    b.name
                );
            }
        }
        let (ranked, played) = t.ranked_starts(heaviest()).unwrap();
        assert_eq!(played, 40 * starts.len() as u64);
        assert_eq!(ranked.len(), starts.len());
        let scores: Vec<f64> = ranked
            .iter()
            .map(|s| t.start_score(s, START_TAG).unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        // Tunings from the best two starts, each kept only where it scores
        // at least as well as the best start on seeds none of them played.
        let mut short = report.clone();
        short.options.tune_games = tune_generation_games();
        short.options.tune_restarts = 2;
        let (tuned, spec, games) = training(&short).tuned(&ranked).unwrap();
        assert_eq!(games, 2 * tune_generation_games() + 3 * 40);
        let judged = |numbers| {
            let start = Start {
                numbers,
                name: String::new(),
            };
            t.start_score(&start, KEEP_TAG).unwrap()
        };
        assert!(judged(tuned) >= judged(ranked[0].numbers));
        let AiSpec::TunedHeuristic(file) = spec else {
            panic!("{spec}")
        };
        let text = std::fs::read_to_string(&file.path).unwrap();
        assert!(
            text.contains("the best of 2 tunings and the start"),
            "{text}"
        );
        // Without screening games it sets out from the heaviest and plays none.
        let mut unscreened = report.clone();
        unscreened.options.start_games = 0;
        let (ranked, played) = training(&unscreened).ranked_starts(heaviest()).unwrap();
        assert_eq!(ranked.len(), 1);
        assert_eq!((ranked[0].numbers, played), (numbers, 0));
    }
}
