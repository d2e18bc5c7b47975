//! Game records: one game, written down so it can be saved, read back and
//! replayed through the engine (docs/formats.md, "Game records").
//!
//! A record names what the game was played with (the scenario and the rule
//! set, each with a digest of its content), the seed, the players, every
//! action in order in the words [`Game::action_text`] writes, and how the
//! game ended. Replaying starts from [`State::new`] with the seed and resolves
//! each action's words against the legal actions of that step, so a record
//! stays readable by people and refuses to replay into a different game.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::ai::{Player, decide};
use crate::engine::{Action, EndReason, Game, Log, Outcome, State};
use crate::scenario::format::{
    LoadError, Location, ResolvedScenario, ScenarioDoc, SourceIndex, parse_ron, read_text,
    save_atomically,
};
use crate::scenario::model::Side;
use crate::scenario::names::{did_you_mean, normalise};
use crate::scenario::rules::RuleSet;

/// The version of the record format this program writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The scenario path a record gives for the scenario built into the program.
pub const BUILT_IN: &str = "built-in";

/// The player a record names for a side a person played.
pub const HUMAN: &str = "human";

/// One game, as a record file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "GameRecord", deny_unknown_fields)]
pub struct RecordFile {
    /// [`FORMAT_VERSION`] when written.
    pub format: u32,
    pub scenario: ScenarioSource,
    pub variant: VariantSource,
    /// The seed of the game's dice and shuffles ([`State::new`]).
    pub seed: u64,
    pub caesar: PlayerEntry,
    pub pompey: PlayerEntry,
    /// The AI players saw everything (no fog of war).
    #[serde(default)]
    pub omniscient: bool,
    /// Every action in order, in the words of [`Game::action_text`].
    pub actions: Vec<String>,
    /// How the game ended; `None` for a game still going on.
    pub outcome: Option<RecordedOutcome>,
    /// How many actions `actions` holds (a check against truncation).
    pub action_count: u32,
}

/// The scenario a game was played on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSource {
    /// The scenario file as it was given, or [`BUILT_IN`].
    pub path: String,
    /// [`scenario_digest`] of its content.
    pub digest: String,
}

/// The rule set a game was played under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSource {
    /// A built-in variant's name or a variant file, as it was given.
    pub name: String,
    /// [`rules_digest`] of its content.
    pub digest: String,
}

/// Who played a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// An AI as `--caesar-ai` takes it (`heuristic`, `search:64`), or [`HUMAN`].
    pub player: String,
    /// The AI player's own seed, when it has one.
    #[serde(default)]
    pub seed: Option<u64>,
}

impl PlayerEntry {
    pub fn ai(spec: &crate::ai::AiSpec, seed: u64) -> PlayerEntry {
        PlayerEntry {
            player: spec.to_string(),
            seed: Some(seed),
        }
    }
    pub fn human() -> PlayerEntry {
        PlayerEntry {
            player: HUMAN.to_string(),
            seed: None,
        }
    }
}

/// How a recorded game ended: the engine's [`Outcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedOutcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub how: EndReason,
    /// VP of Caesar and Pompey.
    pub vp: (u32, u32),
    /// The year whose winter ended the game.
    pub year: u8,
}

impl From<Outcome> for RecordedOutcome {
    fn from(o: Outcome) -> RecordedOutcome {
        RecordedOutcome {
            winner: o.winner,
            how: o.how,
            vp: (o.vp[0], o.vp[1]),
            year: o.year,
        }
    }
}

impl fmt::Display for RecordedOutcome {
    /// "Caesar wins (VictoryPoints), VP 12-8 in year 5".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({:?})", self.how)?,
            None => write!(f, "a draw ({:?})", self.how)?,
        }
        write!(f, ", VP {}-{} in year {}", self.vp.0, self.vp.1, self.year)
    }
}

// ------------------------------------------------------------------ digests

/// FNV-1a, 64 bits: small, stable across platforms and versions.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn digest_text(text: &str) -> String {
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// The canonical text of a scenario: its resolved sections (after
/// `extends`) written as one compact RON document. Comments, layout and
/// which file a section came from do not count; every value does.
pub fn canonical_scenario_text(doc: &ResolvedScenario) -> String {
    // The description and start-year label are words for people, not part
    // of the game: they are left out, so editing them keeps records valid.
    let whole = ScenarioDoc {
        name: doc.name.clone(),
        description: String::new(),
        start_year: String::new(),
        extends: None,
        map: Some(doc.map.clone()),
        roster: Some(doc.roster.clone()),
        deck: Some(doc.deck.clone()),
        order_of_battle: Some(doc.order_of_battle.clone()),
        free_deployment: doc.free_deployment.clone(),
    };
    ron::to_string(&whole).expect("a scenario document serialises")
}

/// The canonical text of a rule set: every rule (after `extends`) and its
/// name, as one compact RON document.
pub fn canonical_rules_text(rules: &RuleSet) -> String {
    ron::to_string(rules).expect("a rule set serialises")
}

/// FNV-1a 64 of [`canonical_scenario_text`], as 16 hex digits.
pub fn scenario_digest(doc: &ResolvedScenario) -> String {
    digest_text(&canonical_scenario_text(doc))
}

/// FNV-1a 64 of [`canonical_rules_text`], as 16 hex digits.
pub fn rules_digest(rules: &RuleSet) -> String {
    digest_text(&canonical_rules_text(rules))
}

// ------------------------------------------------------------------ actions in words

/// Words that name no legal action at a step, and what was legal there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotLegal {
    pub text: String,
    /// [`State::stage_text`] where it was tried.
    pub stage: String,
    /// The side to decide, `None` once the game is over.
    pub to_decide: Option<Side>,
    /// The legal actions' words.
    pub legal: Vec<String>,
}

impl fmt::Display for NotLegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = self
            .to_decide
            .map_or("nobody (the game is over)".to_string(), |s| s.to_string());
        write!(
            f,
            "\"{}\" is not a legal action now ({}; {who} to decide){}\nthe legal actions are:\n  {}",
            self.text,
            self.stage,
            did_you_mean(&self.text, self.legal.iter().map(String::as_str)),
            if self.legal.is_empty() {
                "(none)".to_string()
            } else {
                self.legal.join("\n  ")
            }
        )
    }
}

impl std::error::Error for NotLegal {}

/// The legal action whose words ([`Game::action_text`]) are `text`, case
/// and spacing aside. The words of distinct legal actions differ, so at
/// most one matches.
pub fn find_action(game: &Game, state: &State, text: &str) -> Result<Action, NotLegal> {
    let mut legal = Vec::new();
    state.legal_actions(game, &mut legal);
    let wanted = normalise(text);
    if let Some(a) = legal
        .iter()
        .find(|a| normalise(&game.action_text(**a)) == wanted)
    {
        return Ok(*a);
    }
    Err(NotLegal {
        text: text.to_string(),
        stage: state.stage_text(game),
        to_decide: state.current_player(),
        legal: legal.iter().map(|a| game.action_text(*a)).collect(),
    })
}

// ------------------------------------------------------------------ recording

/// What a record says about a game before its first action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordSetup {
    pub scenario: ScenarioSource,
    pub variant: VariantSource,
    pub seed: u64,
    pub caesar: PlayerEntry,
    pub pompey: PlayerEntry,
    pub omniscient: bool,
}

impl RecordSetup {
    /// The sources of a game played on `doc` (read from `scenario_path`, or
    /// the built-in scenario when `None`) under `rules` (named `variant`).
    pub fn sources(
        scenario_path: Option<&Path>,
        doc: &ResolvedScenario,
        variant: &str,
        rules: &RuleSet,
    ) -> (ScenarioSource, VariantSource) {
        (
            ScenarioSource {
                path: scenario_path.map_or(BUILT_IN.to_string(), |p| p.display().to_string()),
                digest: scenario_digest(doc),
            },
            VariantSource {
                name: variant.to_string(),
                digest: rules_digest(rules),
            },
        )
    }
}

/// A record of `state` reached from `setup` by `actions`.
pub fn record_of(setup: RecordSetup, actions: Vec<String>, state: &State) -> RecordFile {
    RecordFile {
        format: FORMAT_VERSION,
        scenario: setup.scenario,
        variant: setup.variant,
        seed: setup.seed,
        caesar: setup.caesar,
        pompey: setup.pompey,
        omniscient: setup.omniscient,
        action_count: actions.len() as u32,
        actions,
        outcome: state.outcome().map(RecordedOutcome::from),
    }
}

/// Plays a whole game as [`crate::ai::play_game`] does (the same actions
/// and the same lines into `log`) and writes down every action.
pub fn record_game(
    game: &Game,
    setup: RecordSetup,
    players: &mut [Box<dyn Player>; 2],
    log: &mut impl Log,
) -> (State, RecordFile) {
    let mut state = State::new_logged(game, setup.seed, log);
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while let Some(side) = state.current_player() {
        state.legal_actions(game, &mut legal);
        let action = decide(&mut players[side.index()], game, &state, &legal);
        actions.push(game.action_text(action));
        state.apply_logged(game, action, log);
    }
    let record = record_of(setup, actions, &state);
    (state, record)
}

// ------------------------------------------------------------------ files

impl RecordFile {
    /// The record as RON text, one action a line.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(true)
            .separate_tuple_members(false);
        ron::Options::default()
            .to_string_pretty(self, config)
            .expect("a game record serialises")
    }

    /// Writes the record (atomically: a failure keeps any previous file).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        save_atomically(path, &(self.to_ron() + "\n"))
    }

    /// Reads a record file; errors point at `file:line:column`.
    pub fn read(path: &Path) -> Result<RecordFile, LoadError> {
        RecordFile::parse(path, &read_text(path)?)
    }

    /// Parses a record's text (read from `path`, for messages), checking
    /// its format version and its action count.
    pub fn parse(path: &Path, text: &str) -> Result<RecordFile, LoadError> {
        let record: RecordFile = parse_ron(path, text)?;
        let at = |field: &str| {
            let index = SourceIndex::new(text);
            let (line, column) = index.line_column(text, index.label(field).unwrap_or(0));
            Location {
                file: path.to_path_buf(),
                line,
                column,
            }
        };
        if record.format != FORMAT_VERSION {
            return Err(LoadError::Parse {
                location: at("format"),
                message: format!(
                    "record format {} is not one this program reads (it reads format {FORMAT_VERSION})",
                    record.format
                ),
            });
        }
        if record.action_count as usize != record.actions.len() {
            return Err(LoadError::Parse {
                location: at("action_count"),
                message: format!(
                    "action_count is {} but the record lists {} actions (truncated or edited?)",
                    record.action_count,
                    record.actions.len()
                ),
            });
        }
        Ok(record)
    }
}

/// Where action `step` (1-based) of a record is written in its text.
pub fn action_location(path: &Path, text: &str, step: usize) -> Option<Location> {
    let index = SourceIndex::new(text);
    let offset = index.value(&format!("actions.{}", step.checked_sub(1)?))?;
    let (line, column) = index.line_column(text, offset);
    Some(Location {
        file: path.to_path_buf(),
        line,
        column,
    })
}

// ------------------------------------------------------------------ replaying

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The scenario or variant's content differs from the record's digest.
    #[error(
        "the {what} {name} has changed since the record was written (digest {recorded}, now {now})"
    )]
    Changed {
        /// "scenario" or "variant".
        what: &'static str,
        name: String,
        recorded: String,
        now: String,
    },
    /// The scenario or variant file the record names is not there.
    #[error("the {what} {name} named by the record is missing: {reason}")]
    Missing {
        what: &'static str,
        name: String,
        reason: String,
    },
    /// An action that is not legal at its step (1-based).
    #[error("step {step}: the recorded action \"{}\" is not legal there\n{not_legal}", not_legal.text)]
    Illegal { step: usize, not_legal: NotLegal },
    /// The game ended before the record's last action.
    #[error("step {step}: the game is already over, but the record goes on with \"{action}\"")]
    AfterEnd { step: usize, action: String },
    /// The replay ends otherwise than the record says.
    #[error("the replay ends {}, but the record says {}", describe(.replayed), describe(.recorded))]
    OutcomeDiffers {
        recorded: Option<RecordedOutcome>,
        replayed: Option<RecordedOutcome>,
    },
}

fn describe(outcome: &Option<RecordedOutcome>) -> String {
    outcome.map_or("with the game still going on".to_string(), |o| {
        o.to_string()
    })
}

/// Where a record's scenario and rule set are, for a record read from
/// `record_path`: each path as written, else beside the record (a record
/// moved with its files still replays). The scenario is `None` for the
/// built-in game; the rule set is a file path if one is found there, else
/// the built-in name as written.
pub fn source_paths(record: &RecordFile, record_path: &Path) -> (Option<PathBuf>, String) {
    let beside = |written: &str| {
        let path = PathBuf::from(written);
        match record_path.parent().map(|dir| dir.join(written)) {
            Some(near) if !path.exists() && near.exists() => near,
            _ => path,
        }
    };
    let scenario = (record.scenario.path != BUILT_IN).then(|| beside(&record.scenario.path));
    let variant_path = beside(&record.variant.name);
    let variant = if variant_path.is_file() {
        variant_path.to_string_lossy().into_owned()
    } else {
        record.variant.name.clone()
    };
    (scenario, variant)
}

/// Checks that `doc` and `rules`, as found now, are what the record was
/// written with.
pub fn check_sources(
    record: &RecordFile,
    doc: &ResolvedScenario,
    rules: &RuleSet,
) -> Result<(), ReplayError> {
    let checks = [
        (
            "scenario",
            &record.scenario.path,
            &record.scenario.digest,
            scenario_digest(doc),
        ),
        (
            "variant",
            &record.variant.name,
            &record.variant.digest,
            rules_digest(rules),
        ),
    ];
    for (what, name, recorded, now) in checks {
        if !recorded.eq_ignore_ascii_case(&now) {
            return Err(ReplayError::Changed {
                what,
                name: name.clone(),
                recorded: recorded.clone(),
                now,
            });
        }
    }
    Ok(())
}

/// Re-plays every action of `record` through the engine from
/// [`State::new`]`(game, seed)`, refusing an action that is not legal at its
/// step, and checks that the game ends as the record says. Returns the
/// final state and the game's log (the lines `play` prints between its
/// first and last line).
pub fn replay(record: &RecordFile, game: &Game) -> Result<(State, Vec<String>), ReplayError> {
    let mut log: Vec<String> = Vec::new();
    let mut state = State::new_logged(game, record.seed, &mut log);
    for (i, text) in record.actions.iter().enumerate() {
        let step = i + 1;
        if state.is_over() {
            return Err(ReplayError::AfterEnd {
                step,
                action: text.clone(),
            });
        }
        let action = find_action(game, &state, text)
            .map_err(|not_legal| ReplayError::Illegal { step, not_legal })?;
        state.apply_logged(game, action, &mut log);
    }
    let replayed = state.outcome().map(RecordedOutcome::from);
    if replayed != record.outcome {
        return Err(ReplayError::OutcomeDiffers {
            recorded: record.outcome,
            replayed,
        });
    }
    Ok((state, log))
}

// ------------------------------------------------------------------ simulated games

/// The seeds of game `index` of a `simulate` run with base seed `run_seed`:
/// the game's ([`crate::sim::game_seed`]) and Caesar's and Pompey's
/// players', as [`crate::sim::play_one`] derives them.
pub fn simulated_game_seeds(run_seed: u64, index: u64) -> (u64, [u64; 2]) {
    crate::sim::game_and_player_seeds(run_seed, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::AiSpec;

    fn setup(game_seed: u64, variant: &str) -> (Game, RecordSetup) {
        let game = Game::published(variant);
        let doc = crate::scenario::historical();
        let (scenario, variant_source) = RecordSetup::sources(None, &doc, variant, &game.rules);
        let setup = RecordSetup {
            scenario,
            variant: variant_source,
            seed: game_seed,
            caesar: PlayerEntry::ai(&AiSpec::Random, 1),
            pompey: PlayerEntry::ai(&AiSpec::Random, 2),
            omniscient: false,
        };
        (game, setup)
    }

    fn random_game(variant: &str, seed: u64) -> (Game, State, RecordFile, Vec<String>) {
        let (game, setup) = setup(seed, variant);
        let mut players = [
            AiSpec::Random.player(Side::Caesar, 1, false),
            AiSpec::Random.player(Side::Pompey, 2, false),
        ];
        let mut log = Vec::new();
        let (state, record) = record_game(&game, setup, &mut players, &mut log);
        (game, state, record, log)
    }

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_recorded_game_replays_to_the_same_end_and_log() {
        let (game, state, record, log) = random_game("rules-2.0", 5);
        assert!(state.is_over());
        assert_eq!(record.action_count, state.stats.actions);
        let text = record.to_ron();
        let back = RecordFile::parse(Path::new("r.ron"), &text).unwrap();
        assert_eq!(back, record);
        let (replayed, replay_log) = replay(&back, &game).unwrap();
        assert_eq!(replayed.outcome(), state.outcome());
        assert_eq!(replay_log, log);
    }

    #[test]
    fn an_illegal_action_is_refused_at_its_step() {
        let (game, _, mut record, _) = random_game("rules-1.1", 9);
        record.actions[3] = "Move Legio 13 to Alexandria".to_string();
        match replay(&record, &game) {
            Err(ReplayError::Illegal { step, not_legal }) => {
                assert_eq!(step, 4);
                assert!(!not_legal.legal.is_empty());
            }
            other => panic!("expected an illegal step, got {other:?}"),
        }
    }

    #[test]
    fn a_changed_outcome_or_rule_set_is_named() {
        let (game, _, mut record, _) = random_game("rules-2.0", 3);
        let mut changed = record.clone();
        let o = changed.outcome.as_mut().unwrap();
        o.vp.0 += 1;
        assert!(matches!(
            replay(&changed, &game),
            Err(ReplayError::OutcomeDiffers { .. })
        ));
        record.variant.digest = "0000000000000000".into();
        let err = check_sources(&record, &crate::scenario::historical(), &game.rules).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the variant rules-2.0 has changed since the record was written"),
            "{err}"
        );
    }

    #[test]
    fn digests_follow_values_not_layout() {
        let a = RuleSet::builtin("rules-1.1");
        let b = RuleSet::builtin("rules-2.0");
        assert_ne!(rules_digest(&a), rules_digest(&b));
        assert_eq!(
            rules_digest(&a),
            rules_digest(&RuleSet::builtin("rules-1.1"))
        );
        let doc = crate::scenario::historical();
        let mut moved = doc.clone();
        moved.map.spaces[0].vp += 1;
        assert_ne!(scenario_digest(&doc), scenario_digest(&moved));
        assert_eq!(scenario_digest(&doc).len(), 16);
    }

    #[test]
    fn a_wrong_action_count_is_a_located_error() {
        let (_, _, mut record, _) = random_game("rules-2.0", 4);
        record.action_count += 1;
        let text = record.to_ron();
        let err = RecordFile::parse(Path::new("r.ron"), &text).unwrap_err();
        let at = err.location().expect("located");
        let line = text.lines().nth(at.line - 1).unwrap();
        assert!(line.trim_start().starts_with("action_count"), "{err}");
    }
}
