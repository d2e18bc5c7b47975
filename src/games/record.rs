//! Game records: one game, written down so it can be saved, read back and
//! replayed through the engine (docs/formats.md, "Game records").
//!
//! A record names what the game was played with (the scenario and the rule
//! set, each with a digest of its content), the seed, the players, every
//! action in order in the words [`Game::action_text`] writes, and how the
//! game ended. Replaying starts from [`State::new`] with the seed and resolves
//! each action's words against the legal actions of that step, so a record
//! stays readable by people and refuses to replay into a different game.
//!
//! A record proves its whole game, not just its last line: beside each
//! action it keeps a digest of the game so far (every earlier digest, the
//! action's words and the position after it), and a `start` digest covers
//! the setup (seed, players, their seeds, `omniscient`) and the opening
//! position. Replay recomputes them and names the first step that differs.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::ai::Player;
use crate::engine::{Action, EndReason, Game, GameEvent, Log, Outcome, Place, State};
use crate::files::save_atomically;
use crate::scenario::format::{
    LoadError, Location, ResolvedScenario, SourceIndex, parse_ron, read_text,
};
use crate::scenario::model::{CardFace, Side};
use crate::scenario::names::{did_you_mean, normalise};
use crate::scenario::rules::RuleSet;

/// The version of the record format this program writes and reads. Format
/// 2 added the `start` digest and a digest beside every action; format 1
/// records (no digests) are refused with a message saying so: a record
/// without them cannot prove its game, and reading them would let any
/// record be stripped of its proof.
pub(crate) const FORMAT_VERSION: u32 = 2;

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
    /// [`Proof::start`]: the setup above (but the file paths) and the
    /// opening position.
    pub start: String,
    /// Every action in order, in the words of [`Game::action_text`], each
    /// with the digest of the game through it ([`Proof::step`]).
    pub actions: Vec<RecordedStep>,
    /// How the game ended; `None` for a game still going on.
    pub outcome: Option<RecordedOutcome>,
    /// How many actions `actions` holds (a check against truncation).
    pub action_count: u32,
}

/// One action of a record and the digest of the game through it, written
/// as a pair: `("Move Legio 13 to Roma", "9c41d2f0")`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(String, String)", into = "(String, String)")]
pub struct RecordedStep {
    /// The action in the words of [`Game::action_text`].
    pub action: String,
    /// [`Proof::step`] after it.
    pub digest: String,
}

impl From<(String, String)> for RecordedStep {
    fn from((action, digest): (String, String)) -> RecordedStep {
        RecordedStep { action, digest }
    }
}

impl From<RecordedStep> for (String, String) {
    fn from(step: RecordedStep) -> (String, String) {
        (step.action, step.digest)
    }
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

use crate::scenario::format::fnv1a64;

/// [`ResolvedScenario::digest`]: what records and reports name a scenario by.
pub fn scenario_digest(doc: &ResolvedScenario) -> String {
    doc.digest()
}

/// [`RuleSet::digest`]: what records and reports name a rule set by.
pub(crate) fn rules_digest(rules: &RuleSet) -> String {
    rules.digest()
}

// ------------------------------------------------------------------ the game's proof

/// FNV-1a 64 going on from `hash` over more bytes.
fn fnv_more(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// A position in bytes, for [`Proof`]: everything the engine shows of it,
/// in a fixed order (docs/formats.md, "State digests"). Names do not count,
/// only the scenario's ids (the scenario is checked by its own digest).
pub(crate) fn position_bytes(game: &Game, state: &State) -> Vec<u8> {
    fn side(s: Side) -> u8 {
        s.index() as u8
    }
    fn option(out: &mut Vec<u8>, value: Option<&[u8]>) {
        match value {
            None => out.push(0),
            Some(bytes) => {
                out.push(1);
                out.extend_from_slice(bytes);
            }
        }
    }
    fn cards(out: &mut Vec<u8>, cards: impl Iterator<Item = u8>) {
        let list: Vec<u8> = cards.collect();
        out.extend_from_slice(&(list.len() as u16).to_le_bytes());
        out.extend_from_slice(&list);
    }
    fn face(f: Option<CardFace>) -> Vec<u8> {
        match f {
            None => vec![0],
            Some(CardFace::Event(e)) => vec![1, e as u8],
            Some(CardFace::Command { moves, levy }) => vec![2, moves, levy],
        }
    }
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(&[state.year(), state.turn()]);
    out.push(state.period().ordinal());
    out.push(state.current_player().map_or(2, side));
    out.push(side(state.player1()));
    option(
        &mut out,
        state
            .command_points()
            .map(|(m, l)| [m, l])
            .as_ref()
            .map(|a| &a[..]),
    );
    option(
        &mut out,
        state
            .moving_group()
            .map(|s| s.0.to_le_bytes())
            .as_ref()
            .map(|a| &a[..]),
    );
    option(
        &mut out,
        state
            .command_event()
            .map(|e| [e as u8])
            .as_ref()
            .map(|a| &a[..]),
    );
    let battle = state.battle_info().map(|b| {
        let mut v = b.space.0.to_le_bytes().to_vec();
        v.extend_from_slice(&[side(b.attacker), b.round]);
        v.extend_from_slice(&b.acting.map_or(u16::MAX, |a| u16::from(a.0)).to_le_bytes());
        v
    });
    option(&mut out, battle.as_deref());
    for b in game.roster().ids() {
        out.push(side(state.side(b)));
        match state.place(b) {
            Place::Map(s) => {
                out.push(0);
                out.extend_from_slice(&s.0.to_le_bytes());
            }
            Place::Pool => out.push(1),
            Place::Eliminated => out.push(2),
            Place::Trophy => out.push(3),
        }
        out.extend_from_slice(&[state.steps(b), u8::from(state.is_reserve(b))]);
    }
    let all = state.view(Side::Caesar, true);
    for s in Side::BOTH {
        let own = state.view(s, true);
        cards(&mut out, state.hand(s).iter().copied());
        cards(&mut out, own.discarded().iter());
        out.push(all.played(s).map_or(0, |c| c + 1));
        out.extend(face(all.last_played(s)));
        out.extend_from_slice(&[state.trophies(s), u8::from(all.leader_died(s))]);
    }
    cards(&mut out, all.revealed_this_year().iter());
    match state.outcome() {
        None => out.push(0),
        Some(o) => {
            out.push(1);
            out.push(o.winner.map_or(2, side));
            out.push(o.how as u8);
            out.extend_from_slice(&o.vp[0].to_le_bytes());
            out.extend_from_slice(&o.vp[1].to_le_bytes());
            out.push(o.year);
        }
    }
    let (stream, dice) = state.chance_drawn();
    out.extend_from_slice(&stream.to_le_bytes());
    out.extend_from_slice(&(dice as u64).to_le_bytes());
    out
}

/// A digest as a record writes it: the 64 bits folded to 32 (the high half
/// xor the low), as 8 hex digits.
fn short(hash: u64) -> String {
    format!("{:08x}", (hash ^ (hash >> 32)) as u32)
}

/// The running digest of a game: FNV-1a 64 over the opening position, then
/// going on over each action's words and the position after it, so the
/// digest of a step covers the whole game up to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proof(u64);

impl Proof {
    /// The proof of a game at its opening position.
    pub fn new(game: &Game, state: &State) -> Proof {
        Proof(fnv1a64(&position_bytes(game, state)))
    }

    /// Goes on over one action (its words) and the position after it.
    pub fn push(&mut self, game: &Game, text: &str, after: &State) {
        let hash = fnv_more(self.0, text.as_bytes());
        self.0 = fnv_more(fnv_more(hash, &[0xff]), &position_bytes(game, after));
    }

    /// The digest written beside the last action pushed.
    pub fn step(&self) -> String {
        short(self.0)
    }

    /// The record's `start` digest: the opening position's proof (this
    /// one, before any action) going on over [`RecordSetup::canonical_text`].
    pub fn start(&self, setup: &RecordSetup) -> String {
        short(fnv_more(self.0, setup.canonical_text().as_bytes()))
    }
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
    /// What the `start` digest covers of the setup: the scenario's and the
    /// rule set's content digests, the seed, each side's player and its
    /// seed, and `omniscient` (not the file paths: a record and its files
    /// may move). One line of text, as docs/formats.md gives it.
    pub(crate) fn canonical_text(&self) -> String {
        let player = |p: &PlayerEntry| match p.seed {
            Some(seed) => format!("{} seed {seed}", p.player),
            None => p.player.clone(),
        };
        format!(
            "scenario {}; variant {}; seed {}; caesar {}; pompey {}; omniscient {}",
            self.scenario.digest.to_ascii_lowercase(),
            self.variant.digest.to_ascii_lowercase(),
            self.seed,
            player(&self.caesar),
            player(&self.pompey),
            self.omniscient
        )
    }

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

/// A record of `state` reached from `setup` by `actions`, `start` being
/// [`Proof::start`] of the opening.
pub(crate) fn record_of(
    setup: RecordSetup,
    start: String,
    actions: Vec<RecordedStep>,
    state: &State,
) -> RecordFile {
    RecordFile {
        format: FORMAT_VERSION,
        scenario: setup.scenario,
        variant: setup.variant,
        seed: setup.seed,
        caesar: setup.caesar,
        pompey: setup.pompey,
        omniscient: setup.omniscient,
        start,
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
    let state = State::new_logged(game, setup.seed, log);
    let mut proof = Proof::new(game, &state);
    let start = proof.start(&setup);
    let mut actions = Vec::new();
    let state = crate::ai::play_watched(game, state, players, log, |state, _, action| {
        let text = game.action_text(action);
        proof.push(game, &text, state);
        actions.push(RecordedStep {
            action: text,
            digest: proof.step(),
        });
    });
    let record = record_of(setup, start, actions, &state);
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

    /// The setup the record gives (what [`Proof::start`] covers).
    pub fn setup(&self) -> RecordSetup {
        RecordSetup {
            scenario: self.scenario.clone(),
            variant: self.variant.clone(),
            seed: self.seed,
            caesar: self.caesar.clone(),
            pompey: self.pompey.clone(),
            omniscient: self.omniscient,
        }
    }

    /// Writes the record (atomically: a failure keeps any previous file).
    /// A scenario or variant file given relative to the current folder is
    /// written relative to the record's own folder, where `replay` looks for
    /// it ([`source_paths`]); an absolute path stays as given.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut placed = self.clone();
        let scenario = Path::new(&self.scenario.path);
        if self.scenario.path != BUILT_IN
            && !scenario.is_absolute()
            && let Some(rel) = relative_to(scenario, dir)
        {
            placed.scenario.path = rel;
        }
        if let Some(file) = variant_file(&self.variant.name)
            && !file.is_absolute()
            && let Some(rel) = relative_to(&file, dir)
        {
            placed.variant.name = rel;
        }
        save_atomically(path, &(placed.to_ron() + "\n"))
    }

    /// Reads a record file; errors point at `file:line:column`.
    pub fn read(path: &Path) -> Result<RecordFile, LoadError> {
        RecordFile::parse(path, &read_text(path)?)
    }

    /// Parses a record's text (read from `path`, for messages), checking
    /// its format version and its action count.
    pub fn parse(path: &Path, text: &str) -> Result<RecordFile, LoadError> {
        let at = |field: &str| {
            let index = SourceIndex::new(text);
            let (line, column) = index.line_column(text, index.label(field).unwrap_or(0));
            Location {
                file: path.to_path_buf(),
                line,
                column,
            }
        };
        // The version first: an older record's fields are not this format's.
        let version: Version = parse_ron(path, text)?;
        if version.format != FORMAT_VERSION {
            let why = if version.format < FORMAT_VERSION {
                "; it has no state digests, so it cannot prove its game: play or save the game \
                 again to record it in this format"
            } else {
                "; it was written by a newer program"
            };
            return Err(LoadError::Parse {
                location: at("format"),
                message: format!(
                    "record format {} is not one this program reads (it reads format \
                     {FORMAT_VERSION}){why}",
                    version.format
                ),
            });
        }
        let record: RecordFile = parse_ron(path, text)?;
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

/// A record's format version, read before the rest of it.
#[derive(Deserialize)]
#[serde(rename = "GameRecord")]
struct Version {
    format: u32,
}

/// `path` (relative to the current folder, or absolute) relative to `dir`,
/// with `/` between the parts and starting `./` or `../` (so that it never
/// reads as a built-in variant's name); `None` when either cannot be found.
/// On different roots (drives) it stays absolute.
fn relative_to(path: &Path, dir: &Path) -> Option<String> {
    let path = path.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    let (p, d): (Vec<Component>, Vec<Component>) =
        (path.components().collect(), dir.components().collect());
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return Some(path.to_string_lossy().into_owned());
    }
    let up = if d.len() > common { ".." } else { "." };
    let parts: Vec<String> = std::iter::repeat_n(up.to_string(), (d.len() - common).max(1))
        .chain(
            p[common..]
                .iter()
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        )
        .collect();
    Some(parts.join("/"))
}

/// The file a variant given as `spec` is read from, as [`RuleSet::load`]
/// finds it (`spec`, else `spec.ron`), or `None` for a built-in name.
fn variant_file(spec: &str) -> Option<PathBuf> {
    if crate::scenario::rules::is_bare_name(spec) && builtin_variant(spec).is_some() {
        return None;
    }
    let path = PathBuf::from(spec);
    let mut with_ext = path.clone().into_os_string();
    with_ext.push(".ron");
    [path, PathBuf::from(with_ext)]
        .into_iter()
        .find(|p| p.is_file())
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
    /// The setup (seed, players, their seeds, `omniscient`) or the opening
    /// position is not the one the record's `start` digest proves.
    #[error(
        "the game's start is not the one the record proves (start digest {recorded}, replayed \
         {replayed}): its seed, players, the players' seeds or `omniscient` were edited, or this \
         program deals the opening otherwise than the one that wrote it"
    )]
    StartDiffers { recorded: String, replayed: String },
    /// The game through step `step` (1-based) is not the one the record
    /// proves: the action, an earlier one, or how the engine played it.
    #[error(
        "step {step} (year {year}, turn {turn}): the game through \"{action}\" is not the one the \
         record proves (digest {recorded}, replayed {replayed}): an action was removed, added, \
         moved or changed at or before this step, or this program plays it otherwise than the one \
         that wrote it"
    )]
    Differs {
        step: usize,
        year: u8,
        turn: u8,
        action: String,
        recorded: String,
        replayed: String,
    },
    /// The record ends after `step - 1` actions, saying how the game ended,
    /// but the game goes on.
    #[error(
        "step {step}: the record ends here, saying {}, but the game goes on ({to_decide} to decide)",
        describe(.recorded)
    )]
    EndsEarly {
        step: usize,
        to_decide: Side,
        recorded: Option<RecordedOutcome>,
    },
    /// The replay ends otherwise than the record says.
    #[error("the replay ends {}, but the record says {}", describe(.replayed), describe(.recorded))]
    OutcomeDiffers {
        recorded: Option<RecordedOutcome>,
        replayed: Option<RecordedOutcome>,
    },
}

impl ReplayError {
    /// The step (1-based) the error names, if it names one.
    pub fn step(&self) -> Option<usize> {
        match self {
            ReplayError::Illegal { step, .. }
            | ReplayError::AfterEnd { step, .. }
            | ReplayError::Differs { step, .. }
            | ReplayError::EndsEarly { step, .. } => Some(*step),
            _ => None,
        }
    }
}

fn describe(outcome: &Option<RecordedOutcome>) -> String {
    outcome.map_or("with the game still going on".to_string(), |o| {
        o.to_string()
    })
}

/// Where a record's scenario and rule set are, for a record read from
/// `record_path`: a relative path is relative to the record's own folder
/// (as [`RecordFile::write`] writes it), never to the current one, so a
/// record replays from anywhere. The scenario is `None` for the built-in
/// game. The rule set is a built-in variant's name as written (`rules-2.0`);
/// else the file beside the record (`name`, else `name.ron`), which may be
/// missing.
pub fn source_paths(record: &RecordFile, record_path: &Path) -> (Option<PathBuf>, String) {
    let dir = record_path.parent().unwrap_or(Path::new(""));
    let beside = |written: &str| {
        let written = Path::new(written);
        let mut path = dir.to_path_buf();
        path.extend(written.components().filter(|c| *c != Component::CurDir));
        path
    };
    let scenario = (record.scenario.path != BUILT_IN).then(|| beside(&record.scenario.path));
    let name = &record.variant.name;
    let variant = if let Some(stem) = builtin_variant(name) {
        // The bare name is always the built-in, whatever files lie here.
        stem.to_string()
    } else {
        let near = beside(name);
        variant_file(&near.to_string_lossy())
            .unwrap_or(near)
            .to_string_lossy()
            .into_owned()
    };
    (scenario, variant)
}

/// The built-in variant `name` names (`rules-2.0`, `variants/rules-2.0`,
/// `rules-2.0.ron`), if any; a path as [`RecordFile::write`] writes one
/// (`./house.ron`, `../v/house.ron`, absolute) names none.
fn builtin_variant(name: &str) -> Option<&'static str> {
    let stem = name.strip_prefix("variants/").unwrap_or(name);
    let stem = stem.strip_suffix(".ron").unwrap_or(stem);
    crate::scenario::rules::BUILTIN_VARIANTS
        .iter()
        .map(|(n, _)| *n)
        .find(|n| *n == stem)
}

/// Checks that `doc` and `rules`, as found now, are what the record was
/// written with. `found` names them as [`source_paths`] found them (the
/// scenario's path, `None` for the built-in one, and the variant), for the
/// message.
pub fn check_sources(
    record: &RecordFile,
    found: (Option<&Path>, &str),
    doc: &ResolvedScenario,
    rules: &RuleSet,
) -> Result<(), ReplayError> {
    let scenario = found
        .0
        .map_or(BUILT_IN.to_string(), |p| p.display().to_string());
    let checks = [
        (
            "scenario",
            scenario,
            &record.scenario.digest,
            scenario_digest(doc),
        ),
        (
            "variant",
            found.1.to_string(),
            &record.variant.digest,
            rules_digest(rules),
        ),
    ];
    for (what, name, recorded, now) in checks {
        if !recorded.eq_ignore_ascii_case(&now) {
            return Err(ReplayError::Changed {
                what,
                name,
                recorded: recorded.clone(),
                now,
            });
        }
    }
    Ok(())
}

/// A game a record is replayed into: a state and its log ([`replay`]), or
/// every position kept ([`crate::games::trace::Trace`]).
pub trait Replaying {
    /// The position now.
    fn position(&self) -> &State;
    /// Applies a legal action.
    fn apply(&mut self, game: &Game, action: Action);
}

/// Re-plays every action of `record` into `into`, which stands at the
/// record's opening ([`State::new`] with its seed). Refuses, naming the
/// first step that differs: a `start` digest other than the setup and
/// opening give, an action that is not legal at its step, a step whose
/// digest differs (the game through it is not the one recorded), actions
/// after the game's end, a game that goes on past the record's end though
/// the record says how it ended, or another end.
pub(crate) fn replay_into(
    record: &RecordFile,
    game: &Game,
    into: &mut impl Replaying,
) -> Result<(), ReplayError> {
    let mut proof = Proof::new(game, into.position());
    let start = proof.start(&record.setup());
    if !start.eq_ignore_ascii_case(&record.start) {
        return Err(ReplayError::StartDiffers {
            recorded: record.start.clone(),
            replayed: start,
        });
    }
    for (i, recorded) in record.actions.iter().enumerate() {
        let step = i + 1;
        let state = into.position();
        if state.is_over() {
            return Err(ReplayError::AfterEnd {
                step,
                action: recorded.action.clone(),
            });
        }
        let action = find_action(game, state, &recorded.action)
            .map_err(|not_legal| ReplayError::Illegal { step, not_legal })?;
        let text = game.action_text(action);
        into.apply(game, action);
        let state = into.position();
        proof.push(game, &text, state);
        let replayed = proof.step();
        if !replayed.eq_ignore_ascii_case(&recorded.digest) {
            return Err(ReplayError::Differs {
                step,
                year: state.year(),
                turn: state.turn(),
                action: text,
                recorded: recorded.digest.clone(),
                replayed,
            });
        }
    }
    let state = into.position();
    let replayed = state.outcome().map(RecordedOutcome::from);
    if let (Some(side), Some(_)) = (state.current_player(), record.outcome) {
        return Err(ReplayError::EndsEarly {
            step: record.actions.len() + 1,
            to_decide: side,
            recorded: record.outcome,
        });
    }
    if replayed != record.outcome {
        return Err(ReplayError::OutcomeDiffers {
            recorded: record.outcome,
            replayed,
        });
    }
    Ok(())
}

/// A state and the events it emits.
struct Logged {
    state: State,
    log: Vec<GameEvent>,
}

impl Replaying for Logged {
    fn position(&self) -> &State {
        &self.state
    }
    fn apply(&mut self, game: &Game, action: Action) {
        self.state.apply_logged(game, action, &mut self.log);
    }
}

/// Re-plays `record` through the engine from [`State::new`]`(game, seed)`
/// and checks it as [`replay_into`] does. Returns the final state and the
/// game's events (rendered by [`crate::games::narrate`] into the lines `play`
/// prints between its first and last line).
pub fn replay(record: &RecordFile, game: &Game) -> Result<(State, Vec<GameEvent>), ReplayError> {
    let mut log: Vec<GameEvent> = Vec::new();
    let state = State::new_logged(game, record.seed, &mut log);
    let mut logged = Logged { state, log };
    replay_into(record, game, &mut logged)?;
    Ok((logged.state, logged.log))
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
        let game = crate::test_support::published(variant);
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

    fn random_game(variant: &str, seed: u64) -> (Game, State, RecordFile, Vec<GameEvent>) {
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
        record.actions[3].action = "Move Legio 13 to Alexandria".to_string();
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
        let err = check_sources(
            &record,
            (None, "rules-2.0"),
            &crate::scenario::historical(),
            &game.rules,
        )
        .unwrap_err();
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
