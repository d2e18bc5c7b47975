//! The balance report: the populations, the table, the equilibrium and the rounds, as a run leaves them.

use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::options::{BalanceOptions, BalanceOptionsError, Oracle};
use super::solve::SolveError;
use super::table::Table;
use crate::ai::AiSpec;
use crate::engine::Game;
use crate::scenario::model::Side;
use crate::sim::runs::report::PlayedOn;
use crate::sim::{Cancelled, Progress};

/// Where a player of the population came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// Named by the user.
    Named,
    /// One of the players the workbench ships for this rule set.
    Shipped,
    /// A fit for this setup (its bundle).
    Fitted,
    /// A best response trained during this run.
    Trained { round: u32, oracle: Oracle },
    /// A best response an earlier run trained for this setup and rule set,
    /// kept in the setup's library ([`super::library`]).
    Kept { trained_by: String },
}

/// A player of one side's population.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Member {
    /// As `simulate --caesar-ai` takes it, from the run's folder.
    pub player: String,
    /// In words, for a designer.
    pub words: String,
    pub origin: Origin,
    /// Digest of what the player plays by (its numbers, its value), so a
    /// resume refuses a player whose files changed.
    pub digest: String,
    #[serde(skip)]
    pub spec: Option<AiSpec>,
}

impl Member {
    pub fn new(spec: AiSpec, origin: Origin) -> Member {
        Member {
            player: spec.to_string(),
            words: words(&spec),
            origin,
            digest: spec_digest(&spec),
            spec: Some(spec),
        }
    }

    pub(super) fn spec(&self) -> &AiSpec {
        self.spec
            .as_ref()
            .expect("a member's player is read before the run uses it")
    }
}

/// A content digest of a player: what it plays by, not its files' names.
pub fn spec_digest(spec: &AiSpec) -> String {
    spec.content_digest()
}

/// A player in words: "Search (16 playouts) on tuned-rules-2.0, scored by
/// value-rules-2.0".
pub fn words(spec: &AiSpec) -> String {
    let file = |path: &str| {
        std::path::Path::new(path)
            .file_stem()
            .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
    };
    let budget = |spec: &AiSpec| match spec {
        AiSpec::Search { playouts } => format!("Search ({playouts} playouts)"),
        AiSpec::SearchTimed { millis } => format!("Search ({millis} ms)"),
        AiSpec::Mcts { playouts } => format!("Tree search ({playouts} playouts)"),
        AiSpec::MctsTimed { millis } => format!("Tree search ({millis} ms)"),
        AiSpec::Random => "Random".to_string(),
        AiSpec::Heuristic => "Heuristic (default numbers)".to_string(),
        other => other.to_string(),
    };
    match spec {
        AiSpec::TunedHeuristic(t) => format!("Heuristic on {}", file(&t.path)),
        AiSpec::SearchOn(on) => {
            let mut text = format!("{} on {}", budget(&on.search), file(&on.on.path));
            if !on.on.numbers.opponents.is_empty() {
                text.push_str(" expecting its opponents' mix");
            }
            if let Some(v) = &on.value {
                text.push_str(&format!(", scored by {}", file(&v.path)));
            }
            text
        }
        other => budget(other),
    }
}

/// A figure with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub ci95: [f64; 2],
}

impl Interval {
    pub(super) fn points(&self) -> String {
        format!(
            "{:.1} ({:.1} to {:.1})",
            self.estimate * 100.0,
            self.ci95[0] * 100.0,
            self.ci95[1] * 100.0
        )
    }
}

/// One player's weight in its side's mix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Weighted {
    pub player: String,
    pub words: String,
    pub weight: f64,
}

/// A response trained in a round, as measured against the other side's mix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub side: Side,
    pub oracle: Oracle,
    pub player: String,
    pub words: String,
    /// Its side's share of the points against the other side's mix.
    pub share: Interval,
    /// Its share less its side's value at equilibrium.
    pub gain: Interval,
    pub games: u64,
    pub joined: bool,
    /// It plays as a member of its side already does (a tuning kept at a
    /// member's numbers): its gain is noise, counted as at most 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub member_again: bool,
}

impl Response {
    /// What it gains over the value, as far as it counts: a member again
    /// gains nothing its side's mix does not have.
    pub fn counted_gain(&self) -> f64 {
        if self.member_again {
            self.gain.estimate.min(0.0)
        } else {
            self.gain.estimate
        }
    }
}

/// One round: the equilibrium it solved and the responses it found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub round: u32,
    pub caesar_players: usize,
    pub pompey_players: usize,
    pub value: Interval,
    /// The two sides' best gains added (a side whose responses all lost
    /// counts 0: its mix's own players answer it at the value).
    pub exploitability: Option<Interval>,
    pub responses: Vec<Response>,
}

/// What a mirror match (one player on both sides) says of the setup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MirrorShare {
    pub player: String,
    pub words: String,
    pub share: Interval,
    pub games: u64,
}

/// How far a solved table got: what the value rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// Caesar's and Pompey's players the equilibrium is solved over, the
    /// first of each side's list: the others' games were not played yet.
    pub solved: [usize; 2],
    /// Cells that decide the equilibrium with fewer games than asked.
    pub deciding_short: usize,
    /// The fewest games of a cell that decides it.
    pub fewest_games: u64,
    /// The games asked of every deciding cell.
    pub asked_games: u64,
}

/// Where the run is, for a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The table of round `n` is to be played and solved.
    Table(u32),
    /// Round `n`'s best responses are to be trained.
    Responses(u32),
    Done,
}

/// The balance at equilibrium of one setup under one rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceReport {
    pub variant: String,
    pub played_on: PlayedOn,
    pub options: BalanceOptions,
    /// Where the run is: [`Stage::Done`] for a finished report.
    pub stage: Stage,
    pub caesar: Vec<Member>,
    pub pompey: Vec<Member>,
    pub table: Table,
    /// Caesar's share at equilibrium.
    pub value: Interval,
    pub exploitability: Option<Interval>,
    pub caesar_mix: Vec<Weighted>,
    pub pompey_mix: Vec<Weighted>,
    /// Each Caesar player's loss against Pompey's mix, compared with the value.
    pub caesar_regret: Vec<f64>,
    /// Each Pompey player's loss against Caesar's mix.
    pub pompey_regret: Vec<f64>,
    /// Share of the bootstrap resamples whose mixes use the same players.
    pub stability: f64,
    /// What the value rests on (none in reports made before budgets kept
    /// a stage as far as it got: their tables were whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    pub mirrors: Vec<MirrorShare>,
    pub rounds: Vec<Round>,
    /// Players of the setup's library left out of the population, each
    /// with why (its files changed since it was kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// Why the run stopped.
    pub stopped: String,
    /// The run stopped with work left that a resume goes on with: the
    /// budget ended, or the rounds asked for were done (a resume with more
    /// rounds goes on from there).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
    pub games_played: u64,
    pub elapsed_seconds: f64,
}

/// A report's field that is not as a report's can be.
pub(super) fn bad(field: &str, expected: String) -> Result<(), MalformedReport> {
    Err(MalformedReport(format!(
        "its field `{field}` is not as a report's can be: expected {expected}"
    )))
}

/// What is wrong with a balance report read from a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MalformedReport(pub String);

/// What stops a run before its first game, or ends it.
#[derive(Debug, thiserror::Error)]
pub enum BalanceError {
    #[error(transparent)]
    Options(#[from] BalanceOptionsError),
    #[error("solving the meta-game: {0}")]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    #[error("training a best response: {0}")]
    Oracle(String),
    #[error("{0}")]
    Resume(String),
    #[error("{0}")]
    Budget(String),
}

/// What a watcher sees of a run: games, a cancel switch, the stage in words.
#[derive(Debug, Default)]
pub struct Watch {
    pub progress: Progress,
    stage: Mutex<String>,
}

impl Watch {
    pub fn new() -> Watch {
        Watch::default()
    }
    pub fn stage(&self) -> String {
        self.stage.lock().map(|s| s.clone()).unwrap_or_default()
    }
    pub fn say(&self, text: String) {
        if let Ok(mut s) = self.stage.lock() {
            *s = text;
        }
    }
}

/// The run's limits besides its options.
pub struct Limits<'a> {
    /// Wall-clock end: no stage starts that is not expected to end before it.
    pub deadline: Option<Instant>,
    /// Where trained players are written (a folder of the run's own).
    pub players_dir: Option<&'a std::path::Path>,
}

impl BalanceReport {
    /// A fresh run over these populations.
    pub fn start(
        game: &Game,
        variant: &str,
        options: BalanceOptions,
        caesar: Vec<Member>,
        pompey: Vec<Member>,
    ) -> Result<BalanceReport, BalanceError> {
        options.check()?;
        // One player a side is a start when best responses are trained
        // (the population grows from it), and no question otherwise.
        if caesar.is_empty()
            || pompey.is_empty()
            || ((caesar.len() < 2 || pompey.len() < 2) && options.oracles.is_empty())
        {
            return Err(BalanceOptionsError::PopulationOfOne {
                caesar: caesar.len(),
                pompey: pompey.len(),
            }
            .into());
        }
        for (side, members) in [(Side::Caesar, &caesar), (Side::Pompey, &pompey)] {
            for (i, m) in members.iter().enumerate() {
                if members[..i].iter().any(|o| o.digest == m.digest) {
                    return Err(BalanceOptionsError::Twice {
                        side,
                        player: m.player.clone(),
                    }
                    .into());
                }
            }
        }
        let table = Table::new(caesar.len(), pompey.len());
        Ok(BalanceReport {
            variant: variant.to_string(),
            played_on: PlayedOn::of(game),
            options,
            stage: Stage::Table(1),
            caesar,
            pompey,
            table,
            value: Interval {
                estimate: f64::NAN,
                ci95: [f64::NAN, f64::NAN],
            },
            exploitability: None,
            caesar_mix: Vec::new(),
            pompey_mix: Vec::new(),
            caesar_regret: Vec::new(),
            pompey_regret: Vec::new(),
            stability: 0.0,
            coverage: None,
            mirrors: Vec::new(),
            rounds: Vec::new(),
            left_out: Vec::new(),
            stopped: String::new(),
            paused: false,
            games_played: 0,
            elapsed_seconds: 0.0,
        })
    }

    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// Makes a paused report go on when run again, with at most `rounds`
    /// rounds of best responses if given (more than it had reopens a run
    /// that stopped at its last round). False when nothing is left to do.
    pub fn go_on(&mut self, rounds: Option<u32>) -> bool {
        if !self.paused {
            return !self.is_done();
        }
        if let Some(r) = rounds {
            self.options.rounds = self.options.rounds.max(r);
        }
        if self.is_done() {
            // It stopped at the table after its last round of responses.
            match self.rounds.last().map(|r| r.round) {
                Some(last) if last <= self.options.rounds => {
                    self.stage = Stage::Responses(last);
                }
                _ => return false,
            }
        }
        self.paused = false;
        self.stopped.clear();
        true
    }

    pub(super) fn members(&self, side: Side) -> &[Member] {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }

    /// A side's mix as (weight, player) over the members in it.
    pub fn mix(&self, side: Side) -> Vec<(f64, &Member)> {
        let mix = match side {
            Side::Caesar => &self.caesar_mix,
            Side::Pompey => &self.pompey_mix,
        };
        mix.iter()
            .filter_map(|w| {
                self.members(side)
                    .iter()
                    .find(|m| m.player == w.player)
                    .map(|m| (w.weight, m))
            })
            .collect()
    }

    /// `side`'s share at equilibrium.
    pub fn value_for(&self, side: Side) -> Interval {
        side_interval(self.value, side)
    }
}

fn side_interval(caesar: Interval, side: Side) -> Interval {
    match side {
        Side::Caesar => caesar,
        Side::Pompey => Interval {
            estimate: 1.0 - caesar.estimate,
            ci95: [1.0 - caesar.ci95[1], 1.0 - caesar.ci95[0]],
        },
    }
}
