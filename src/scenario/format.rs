//! The scenario file format (RON), as people write it. See `docs/formats.md`.
//!
//! A scenario file has four sections (map, roster, deck, order of battle) and an
//! optional free deployment. Any section may be left out when the file `extends`
//! another scenario: it is then taken from that file. This is how a new
//! deployment on the published map, or a new map with the published blocks, is
//! written without copying everything.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::scenario::kinds::{BlockKind, Event, Initiative, LinkClass, Side, SpaceKind};

/// A position in a source file, 1-based, as editors show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// Why a file could not be turned into a document.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read, or was too large.
    #[error(transparent)]
    Read(#[from] crate::files::ReadError),
    #[error("{}: not UTF-8 text (first bad byte at offset {offset})", path.display())]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{location}: {message}")]
    Parse { location: Location, message: String },
    #[error("{location}: `extends` forms a cycle: {}", chain.join(" -> "))]
    ExtendsCycle {
        /// The `extends` that closes the cycle.
        location: Location,
        /// Every file of the chain, in order, ending with the one reached twice.
        chain: Vec<String>,
    },
    #[error("{location}: `extends` names \"{target}\", which cannot be read: {reason}")]
    ExtendsMissing {
        location: Location,
        target: String,
        /// The path the file was looked for at.
        looked_for: PathBuf,
        /// What is missing (the file, or a folder on the way to it), and the
        /// nearest existing name when one is close: " (did you mean ...?)".
        reason: String,
    },
    #[error("{}: no {section} section, and no `extends` file to take it from", path.display())]
    MissingSection {
        path: PathBuf,
        section: &'static str,
    },
}

impl LoadError {
    /// Where the error is, when it points into a file.
    pub fn location(&self) -> Option<&Location> {
        match self {
            LoadError::Parse { location, .. }
            | LoadError::ExtendsMissing { location, .. }
            | LoadError::ExtendsCycle { location, .. } => Some(location),
            _ => None,
        }
    }
}

/// The RON options every file of the workbench is read with: `Some(..)` may be
/// left out around optional values.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parses RON text into `T`, turning ron's error into a file:line:column message.
pub fn parse_ron<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, LoadError> {
    ron_options()
        .from_str(text)
        .map_err(|err| LoadError::Parse {
            location: Location {
                file: path.to_path_buf(),
                line: err.span.start.line.max(1),
                column: err.span.start.col.max(1),
            },
            message: match err.code {
                ron::Error::IntegerOutOfBounds => out_of_bounds(text, err.span.start),
                ref code => explain_ron_error(code),
            },
        })
}

/// The whole-number fields of the workbench's RON files that are wider than
/// a byte, with their largest value; every other one takes 0 to 255.
const WIDE_INTEGER_FIELDS: &[(&str, u64)] = &[
    ("seed", u64::MAX),
    ("format", u32::MAX as u64),
    ("action_count", u32::MAX as u64),
];

/// "Integer is out of bounds", said with the field and its bounds: the
/// field is the last `name:` before the number.
fn out_of_bounds(text: &str, at: ron::error::Position) -> String {
    let offset = text
        .split_inclusive('\n')
        .take(at.line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + at.col.saturating_sub(1);
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let field = before.rfind(':').and_then(|colon| {
        let name = before[..colon]
            .trim_end()
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()?;
        (!name.is_empty()).then_some(name)
    });
    let max = field
        .and_then(|f| WIDE_INTEGER_FIELDS.iter().find(|(n, _)| *n == f))
        .map_or(u64::from(u8::MAX), |(_, max)| *max);
    match field {
        Some(f) => format!("`{f}` is out of range: expected a whole number from 0 to {max}"),
        None => format!("a number is out of range: expected a whole number from 0 to {max}"),
    }
}

fn explain_ron_error(code: &ron::Error) -> String {
    use ron::Error as E;
    match code {
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => unknown_name(("field", "in", "this item"), found, expected, outer),
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => unknown_name(("variant", "for", "this value"), found, expected, outer),
        other => other.to_string(),
    }
}

/// An unknown field or variant `found`, with the nearest of `expected` when
/// one is close: `what` names it, `at` joins it to the item it is in (said
/// as `unnamed` where the error names none).
fn unknown_name(
    (what, at, unnamed): (&str, &str, &str),
    found: &str,
    expected: &[&str],
    outer: &Option<String>,
) -> String {
    let suggestion = crate::scenario::names::nearest(found, expected.iter().copied())
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default();
    let outer = outer.as_deref().unwrap_or(unnamed);
    format!(
        "unknown {what} `{found}` {at} {outer}{suggestion}; expected one of: {}",
        expected.join(", ")
    )
}

/// Reads a file as UTF-8 text, at most [`crate::files::MAX_INPUT_BYTES`]
/// (remembered as an input, so no output of the command overwrites it). A
/// byte-order mark (which some Windows editors write) is dropped here, the
/// one place files are read, so lines and columns count from the first
/// visible character.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    text_of(path, crate::files::read_bytes)
}

/// [`read_text`] of a command's own output, which it reads to go on from or
/// merge into and then replaces ([`crate::files::read_own_bytes`]): not
/// remembered as an input.
pub fn read_own_text(path: &Path) -> Result<String, LoadError> {
    text_of(path, crate::files::read_own_bytes)
}

fn text_of(
    path: &Path,
    read: fn(&Path, u64) -> Result<Vec<u8>, crate::files::ReadError>,
) -> Result<String, LoadError> {
    let mut bytes = read(path, crate::files::MAX_INPUT_BYTES)?;
    const BOM: &[u8] = "\u{feff}".as_bytes();
    let bom = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    bytes.drain(..bom);
    String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.to_path_buf(),
        offset: bom + e.utf8_error().valid_up_to(),
    })
}

// ---------------------------------------------------------------- documents

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename = "Scenario", deny_unknown_fields)]
pub struct ScenarioDoc {
    #[serde(default)]
    pub name: String,
    /// A few sentences for players: what the setup changes and why (not
    /// inherited by files that extend this one).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The year the game starts, as players name it ("705 (49 BC)"); a label only.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub start_year: String,
    /// Another scenario file (relative to this one) to take missing sections from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roster: Option<RosterDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<DeckDoc>,
    /// Rule 5.1: the historical deployment. Blocks not listed start in the levy pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_of_battle: Option<DeploymentDoc>,
    /// Rule 5.3: a free deployment, checked against the order of battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_deployment: Option<DeploymentDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct MapDoc {
    pub spaces: Vec<SpaceDoc>,
    pub links: Vec<LinkDoc>,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceDoc {
    pub name: String,
    pub kind: SpaceKind,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub vp: u8,
    /// Drawing position on a 2500 x 1250 canvas (x east, y south).
    pub at: (f32, f32),
    /// Playable island (4.41) the city lies on; reached only by sea.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<String>,
    /// Other names the rules text uses for this space.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LinkDoc {
    Major(String, String),
    Minor(String, String),
    Strait { name: String, a: String, b: String },
    Sea(String, String),
}

impl LinkDoc {
    pub fn new(class: LinkClass, a: String, b: String, name: Option<String>) -> LinkDoc {
        match class {
            LinkClass::Major => LinkDoc::Major(a, b),
            LinkClass::Minor => LinkDoc::Minor(a, b),
            LinkClass::Sea => LinkDoc::Sea(a, b),
            LinkClass::Strait => LinkDoc::Strait {
                name: name.unwrap_or_default(),
                a,
                b,
            },
        }
    }
    pub fn class(&self) -> LinkClass {
        match self {
            LinkDoc::Major(..) => LinkClass::Major,
            LinkDoc::Minor(..) => LinkClass::Minor,
            LinkDoc::Strait { .. } => LinkClass::Strait,
            LinkDoc::Sea(..) => LinkClass::Sea,
        }
    }
    pub fn ends(&self) -> (&str, &str) {
        match self {
            LinkDoc::Major(a, b) | LinkDoc::Minor(a, b) | LinkDoc::Sea(a, b) => (a, b),
            LinkDoc::Strait { a, b, .. } => (a, b),
        }
    }
    pub fn name(&self) -> Option<&str> {
        match self {
            LinkDoc::Strait { name, .. } => Some(name),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RosterDoc {
    pub blocks: Vec<BlockDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockDoc {
    /// The side the block starts on (Cleopatra may change sides, 7.52).
    pub side: Side,
    pub name: String,
    pub kind: BlockKind,
    /// Initiative letter (when defending, for the ballista).
    pub initiative: Initiative,
    /// 7.42: a different letter when attacking (the ballista's D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacking_initiative: Option<Initiative>,
    pub firepower: u8,
    /// Full strength, in steps (the elephant's 2 steps are IV and II).
    pub steps: u8,
    /// 6.4: the city where the block must be levied, for types that need one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levy: Option<String>,
}

impl BlockDoc {
    pub fn rating(&self) -> String {
        self.initiative
            .rating(self.attacking_initiative, self.firepower)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DeckDoc {
    /// Event (God) cards, one of each listed.
    pub events: Vec<Event>,
    pub commands: Vec<CommandDoc>,
}

fn one() -> u8 {
    1
}
fn is_one(v: &u8) -> bool {
    *v == 1
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandDoc {
    #[serde(rename = "move")]
    pub moves: u8,
    pub levy: u8,
    /// How many identical cards the deck holds.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub copies: u8,
}

/// Blocks per city, for each side. Names are the roster's names of that side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DeploymentDoc {
    #[serde(default)]
    pub caesar: Vec<(String, Vec<String>)>,
    #[serde(default)]
    pub pompey: Vec<(String, Vec<String>)>,
    /// Deployed blocks that start below full strength (custom setups; the
    /// published game starts every block at full strength, 5.1): strength as
    /// printed, e.g. `caesar: [("Legio 13", 3)]`.
    #[serde(default, skip_serializing_if = "Strengths::is_empty")]
    pub strengths: Strengths,
}

/// Starting strengths per side, by block name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Strengths {
    #[serde(default)]
    pub caesar: Vec<(String, u8)>,
    #[serde(default)]
    pub pompey: Vec<(String, u8)>,
}

impl Strengths {
    pub fn is_empty(&self) -> bool {
        self.caesar.is_empty() && self.pompey.is_empty()
    }
    pub fn side(&self, side: Side) -> &Vec<(String, u8)> {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }
    pub(crate) fn side_mut(&mut self, side: Side) -> &mut Vec<(String, u8)> {
        match side {
            Side::Caesar => &mut self.caesar,
            Side::Pompey => &mut self.pompey,
        }
    }
}

impl DeploymentDoc {
    pub fn side(&self, side: Side) -> &Vec<(String, Vec<String>)> {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }
    pub(crate) fn side_mut(&mut self, side: Side) -> &mut Vec<(String, Vec<String>)> {
        match side {
            Side::Caesar => &mut self.caesar,
            Side::Pompey => &mut self.pompey,
        }
    }
}

// ------------------------------------------------------------ resolved files

/// Which file (and its text) a section was read from, for locating findings.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

/// A scenario with every section resolved through `extends`, each section
/// remembering the file it came from.
#[derive(Debug, Clone)]
pub struct ResolvedScenario {
    pub name: String,
    /// The opened file's description (not inherited: it describes that file).
    pub description: String,
    /// The first start-year label set along the `extends` chain.
    pub start_year: String,
    /// The file that was opened.
    pub path: PathBuf,
    pub map: MapDoc,
    pub roster: RosterDoc,
    pub deck: DeckDoc,
    pub order_of_battle: DeploymentDoc,
    pub free_deployment: Option<DeploymentDoc>,
    pub sources: Sections<SourceFile>,
}

/// One value per section of a scenario file.
#[derive(Debug, Clone)]
pub struct Sections<T> {
    pub map: T,
    pub roster: T,
    pub deck: T,
    pub order_of_battle: T,
    pub free_deployment: Option<T>,
}

impl ResolvedScenario {
    /// The canonical text of the scenario: its resolved sections (after
    /// `extends`) written as one compact RON document. Comments, layout and
    /// which file a section came from do not count; every value does. The
    /// description and start-year label are words for people, not part of
    /// the game: editing them keeps records and reports valid.
    pub(crate) fn canonical_text(&self) -> String {
        let whole = ScenarioDoc {
            name: self.name.clone(),
            description: String::new(),
            start_year: String::new(),
            extends: None,
            map: Some(self.map.clone()),
            roster: Some(self.roster.clone()),
            deck: Some(self.deck.clone()),
            order_of_battle: Some(self.order_of_battle.clone()),
            free_deployment: self.free_deployment.clone(),
        };
        ron::to_string(&whole).unwrap_or_else(|e| format!("unserialisable scenario: {e}"))
    }

    /// [`digest_text`] of [`ResolvedScenario::canonical_text`]: what game
    /// records and reports name the scenario by.
    pub fn digest(&self) -> String {
        digest_text(&self.canonical_text())
    }
}

/// FNV-1a, 64 bits: small, stable across platforms and versions.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// [`fnv1a64`] of a text, as 16 hex digits.
pub(crate) fn digest_text(text: &str) -> String {
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// The built-in scenario: the published game, embedded so the binary works anywhere.
pub const HISTORICAL_SCENARIO: &str = include_str!("../../scenarios/historical.ron");
/// The path the built-in scenario is reported under.
pub const HISTORICAL_PATH: &str = "scenarios/historical.ron";

/// The scenario built into the program, for `extends: "historical.ron"`.
const BUILTIN_SCENARIOS: Builtins = Builtins {
    what: "scenario",
    files: &[("historical.ron", HISTORICAL_SCENARIO)],
    path: |_| PathBuf::from(HISTORICAL_PATH),
};

/// Reads a scenario file and the files it extends ([`load_chain`]).
/// `extends: "historical.ron"` always works: when no such file lies beside
/// the scenario, the published game built into the program is used.
pub fn load_scenario(path: &Path) -> Result<ResolvedScenario, LoadError> {
    let chain = load_chain::<ScenarioDoc>(path, &BUILTIN_SCENARIOS, |d| d.extends.as_deref())?;
    resolve(
        path,
        chain.into_iter().map(|c| (c.path, c.doc, c.text)).collect(),
    )
}

/// The scenario a file at `referrer` would extend with `extends: spec`,
/// found exactly as loading that file would find it (relative to its folder,
/// or a built-in scenario by bare name). The referrer need not exist yet; an
/// `extends` that would lead back to it is a cycle.
pub(crate) fn load_extended(referrer: &Path, spec: &str) -> Result<ResolvedScenario, LoadError> {
    let text = format!("Scenario(extends: {spec:?})");
    let origin = Origin::File(std::fs::canonicalize(referrer).unwrap_or_else(|_| referrer.into()));
    let chain = chain_from::<ScenarioDoc>(
        referrer.to_path_buf(),
        text,
        origin,
        &BUILTIN_SCENARIOS,
        |d| d.extends.as_deref(),
    )?;
    let parent: Vec<(PathBuf, ScenarioDoc, String)> = chain
        .into_iter()
        .skip(1)
        .map(|c| (c.path, c.doc, c.text))
        .collect();
    let first = parent[0].0.clone();
    resolve(&first, parent)
}

/// Parses a scenario from text alone (no `extends` allowed), for tests and the GUI.
pub fn scenario_from_str(path: &Path, text: &str) -> Result<ResolvedScenario, LoadError> {
    let doc: ScenarioDoc = parse_ron(path, text)?;
    resolve(path, vec![(path.to_path_buf(), doc, text.to_string())])
}

fn resolve(
    path: &Path,
    chain: Vec<(PathBuf, ScenarioDoc, String)>,
) -> Result<ResolvedScenario, LoadError> {
    // The first file in the chain that has a section wins.
    fn pick<T: Clone>(
        path: &Path,
        chain: &[(PathBuf, ScenarioDoc, String)],
        section: &'static str,
        get: impl Fn(&ScenarioDoc) -> Option<&T>,
    ) -> Result<(T, SourceFile), LoadError> {
        chain
            .iter()
            .find_map(|(p, doc, text)| {
                get(doc).map(|v| {
                    (
                        v.clone(),
                        SourceFile {
                            path: p.clone(),
                            text: text.clone(),
                        },
                    )
                })
            })
            .ok_or(LoadError::MissingSection {
                path: path.to_path_buf(),
                section,
            })
    }
    let (map, map_src) = pick(path, &chain, "map", |d| d.map.as_ref())?;
    let (roster, roster_src) = pick(path, &chain, "roster", |d| d.roster.as_ref())?;
    let (deck, deck_src) = pick(path, &chain, "deck", |d| d.deck.as_ref())?;
    let (oob, oob_src) = pick(path, &chain, "order_of_battle", |d| {
        d.order_of_battle.as_ref()
    })?;
    // A free deployment belongs to the file that declares it, not to its parents.
    let (free, free_src) = match &chain[0].1.free_deployment {
        Some(d) => (
            Some(d.clone()),
            Some(SourceFile {
                path: chain[0].0.clone(),
                text: chain[0].2.clone(),
            }),
        ),
        None => (None, None),
    };
    let first_set = |get: fn(&ScenarioDoc) -> &String| {
        chain
            .iter()
            .map(|(_, d, _)| get(d).clone())
            .find(|n| !n.is_empty())
    };
    let name = first_set(|d| &d.name).unwrap_or_else(|| path.display().to_string());
    Ok(ResolvedScenario {
        name,
        // A description is about its own file: not taken from the parent.
        description: chain[0].1.description.clone(),
        start_year: first_set(|d| &d.start_year).unwrap_or_default(),
        path: path.to_path_buf(),
        map,
        roster,
        deck,
        order_of_battle: oob,
        free_deployment: free,
        sources: Sections {
            map: map_src,
            roster: roster_src,
            deck: deck_src,
            order_of_battle: oob_src,
            free_deployment: free_src,
        },
    })
}

impl SourceFile {
    /// The line and column of a byte offset (for one-off positions; to
    /// locate many items, build a [`SourceIndex`] once).
    pub(crate) fn location_of(&self, byte_offset: usize) -> Location {
        let before = &self.text[..byte_offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(before.chars().count(), |nl| {
            before[nl + 1..].chars().count()
        }) + 1;
        Location {
            file: self.path.clone(),
            line,
            column,
        }
    }
}

// ------------------------------------------------------------ extends chains

/// One file of an `extends` chain: where it was read from, its text and
/// what it says.
#[derive(Debug, Clone)]
pub struct Chained<D> {
    /// The path as reported (the built-in copy's path for built-in files).
    pub path: PathBuf,
    pub text: String,
    pub doc: D,
}

/// What a chain may extend besides files: the documents built into the
/// program, by bare name (`"historical.ron"`, `"rules-2.0"`).
pub struct Builtins<'a> {
    /// What they are ("scenario", "variant"), for messages.
    pub what: &'a str,
    /// The built-in documents' names and texts; a name matches with or
    /// without `.ron`.
    pub files: &'a [(&'a str, &'a str)],
    /// Where a built-in file is reported to come from.
    pub path: fn(&str) -> PathBuf,
}

impl Builtins<'_> {
    fn find(&self, spec: &str) -> Option<(PathBuf, String)> {
        let stem = |s: &str| s.strip_suffix(".ron").unwrap_or(s).to_string();
        self.files
            .iter()
            .find(|(name, _)| stem(name) == stem(spec))
            .map(|(name, text)| ((self.path)(name), text.to_string()))
    }

    fn none_named(&self, spec: &str) -> String {
        format!(
            ", and no built-in {} is named \"{}\"",
            self.what,
            spec.strip_suffix(".ron").unwrap_or(spec)
        )
    }
}

/// Where a chained file came from, for cycle detection: the canonical path
/// of a file, or the name of a built-in document.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    File(PathBuf),
    Builtin(PathBuf),
}

/// Reads `first` and every file it `extends`, in order (the file itself
/// first). The one resolver of `extends` for scenarios and variants:
///
/// - a relative `extends` is taken from the folder of the file that names it
///   (with or without `.ron`);
/// - a bare name without `.ron` (`"rules-2.0"`) is the built-in document
///   of that name when there is one, even beside a file of that name;
/// - a name with `.ron` and no folder (`"historical.ron"`) is the file
///   beside, else the built-in document; a path with a folder never is, so
///   a misspelt folder is an error, not the built-in game;
/// - a file reached twice (compared by canonical path, so `../v/a.ron` from
///   `v/a.ron` is `v/a.ron`) is a cycle, reported with the whole chain;
/// - errors point at the `extends` line of the file that names the parent.
pub(crate) fn load_chain<D: serde::de::DeserializeOwned>(
    first: &Path,
    builtins: &Builtins,
    extends: impl Fn(&D) -> Option<&str>,
) -> Result<Vec<Chained<D>>, LoadError> {
    let text = read_text(first)?;
    let origin = Origin::File(std::fs::canonicalize(first).unwrap_or_else(|_| first.into()));
    chain_from(first.to_path_buf(), text, origin, builtins, extends)
}

/// [`load_chain`] from a built-in document.
pub(crate) fn load_builtin_chain<D: serde::de::DeserializeOwned>(
    name: &str,
    builtins: &Builtins,
    extends: impl Fn(&D) -> Option<&str>,
) -> Option<Result<Vec<Chained<D>>, LoadError>> {
    let (path, text) = builtins.find(name)?;
    let origin = Origin::Builtin(path.clone());
    Some(chain_from(path, text, origin, builtins, extends))
}

fn chain_from<D: serde::de::DeserializeOwned>(
    mut path: PathBuf,
    mut text: String,
    mut origin: Origin,
    builtins: &Builtins,
    extends: impl Fn(&D) -> Option<&str>,
) -> Result<Vec<Chained<D>>, LoadError> {
    let mut chain: Vec<Chained<D>> = Vec::new();
    let mut seen: Vec<Origin> = Vec::new();
    loop {
        let doc: D = parse_ron(&path, &text)?;
        let parent = extends(&doc).map(str::to_string);
        seen.push(origin.clone());
        chain.push(Chained { path, text, doc });
        let Some(spec) = parent else {
            return Ok(chain);
        };
        let referrer = chain.last().expect("just pushed");
        let (next_path, next_text, next_origin) = find_parent(referrer, &origin, &spec, builtins)?;
        if seen.contains(&next_origin) {
            let mut names: Vec<String> = seen.iter().map(Origin::display).collect();
            names.push(next_origin.display());
            return Err(LoadError::ExtendsCycle {
                location: extends_location(referrer),
                chain: names,
            });
        }
        (path, text, origin) = (next_path, next_text, next_origin);
    }
}

impl Origin {
    fn display(&self) -> String {
        match self {
            Origin::File(p) => p.display().to_string(),
            Origin::Builtin(p) => format!("{} (built in)", p.display()),
        }
    }
}

/// Where a file names its parent: its `extends` field (else its start).
fn extends_location<D>(file: &Chained<D>) -> Location {
    let src = SourceFile {
        path: file.path.clone(),
        text: file.text.clone(),
    };
    let at = SourceIndex::new(&file.text).label("extends").unwrap_or(0);
    src.location_of(at)
}

/// The file `referrer` extends: read from disk, or built in.
fn find_parent<D>(
    referrer: &Chained<D>,
    referrer_origin: &Origin,
    spec: &str,
    builtins: &Builtins,
) -> Result<(PathBuf, String, Origin), LoadError> {
    let bare = {
        let mut parts = Path::new(spec).components();
        matches!(
            (parts.next(), parts.next()),
            (Some(std::path::Component::Normal(_)), None)
        )
    };
    let missing =
        |looked_for: PathBuf, reason: String, suggestion: String| LoadError::ExtendsMissing {
            location: extends_location(referrer),
            target: spec.to_string(),
            looked_for,
            reason: reason + &suggestion,
        };
    let builtin_names = || {
        builtins
            .files
            .iter()
            .map(|(n, _)| n.to_string())
            .collect::<Vec<_>>()
    };
    if let Origin::Builtin(_) = referrer_origin {
        // A built-in document extends only built-in documents.
        return match builtins.find(spec).filter(|_| bare) {
            Some((path, text)) => Ok((path.clone(), text, Origin::Builtin(path))),
            None => Err(missing(
                PathBuf::from(spec),
                "no built-in document has that name".into(),
                crate::scenario::names::did_you_mean(
                    spec,
                    builtin_names().iter().map(String::as_str),
                ),
            )),
        };
    }
    // A bare name without `.ron` is the built-in document, even beside a
    // file of that name (a user's own `rules-2.0.ron` may extend the
    // built-in `rules-2.0`).
    if bare
        && !spec.ends_with(".ron")
        && let Some((path, text)) = builtins.find(spec)
    {
        return Ok((path.clone(), text, Origin::Builtin(path)));
    }
    let dir = referrer
        .path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let candidate = dir.join(spec);
    let mut with_ext = candidate.clone().into_os_string();
    with_ext.push(".ron");
    for path in [candidate.clone(), PathBuf::from(with_ext)] {
        // A device is read too (so `/dev/zero` says it is too large).
        if path.exists() && !path.is_dir() {
            let text = read_text(&path)?;
            let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            return Ok((path, text, Origin::File(key)));
        }
    }
    if bare && let Some((path, text)) = builtins.find(spec) {
        return Ok((path.clone(), text, Origin::Builtin(path)));
    }
    // Say which part of the path is missing, and suggest the nearest name
    // that does exist there.
    if let Some((reason, suggestion)) = missing_part(&candidate, spec, bare, builtins) {
        return Err(missing(candidate, reason, suggestion));
    }
    // Every part exists after all (it appeared meanwhile): say so plainly.
    Err(missing(
        candidate.clone(),
        format!("{} could not be read", candidate.display()),
        String::new(),
    ))
}

/// The `.ron` files in `folder` (`files`), or its folders: the names a
/// missing part of a path may have been meant as.
fn entries_named(folder: &Path, files: bool) -> Vec<String> {
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let is_dir = entry.file_type().ok()?.is_dir();
            let name = entry.file_name().into_string().ok()?;
            let fits = if files {
                !is_dir && name.ends_with(".ron")
            } else {
                is_dir
            };
            fits.then_some(name)
        })
        .collect()
}

/// Which part of `candidate` is missing, in words, with the nearest name
/// that does exist there; `None` when every part exists.
fn missing_part(
    candidate: &Path,
    spec: &str,
    bare: bool,
    builtins: &Builtins,
) -> Option<(String, String)> {
    let parts: Vec<std::path::Component> = candidate.components().collect();
    let mut existing = PathBuf::new();
    for (k, part) in parts.iter().enumerate() {
        let next = existing.join(part);
        let is_last = k + 1 == parts.len();
        if (is_last && next.is_file()) || (!is_last && next.is_dir()) {
            existing = next;
            continue;
        }
        let folder = if existing.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            existing.clone()
        };
        let wanted = part.as_os_str().to_string_lossy().into_owned();
        let mut known = entries_named(&folder, is_last);
        if is_last && bare {
            known.extend(builtins.files.iter().map(|(n, _)| n.to_string()));
        }
        known.sort();
        let suggestion =
            crate::scenario::names::did_you_mean(&wanted, known.iter().map(String::as_str));
        let reason = if !is_last {
            format!(
                "there is no folder \"{wanted}\" in {} (looked for {})",
                folder.display(),
                candidate.display()
            )
        } else if next.is_dir() {
            format!("{} is a folder, not a file", candidate.display())
        } else if spec.ends_with(".ron") {
            format!("there is no file {}", candidate.display())
        } else {
            format!(
                "there is no file {} (nor with .ron){}",
                candidate.display(),
                if bare {
                    builtins.none_named(spec)
                } else {
                    String::new()
                }
            )
        };
        return Some((reason, suggestion));
    }
    None
}

// ------------------------------------------------------------ source index

/// Where a value of a RON text starts, and the `field:` label before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spot {
    label: Option<usize>,
    value: usize,
}

/// Positions in one RON text, found in a single pass: where every value
/// starts, by its path (`map.links.3.0` is the first end of the fourth link,
/// `roster.blocks.5.name` a block's name), and where lines start. Turning a
/// path into `line:column` is a hash lookup and a binary search, so locating
/// any number of findings costs one scan of the text.
#[derive(Debug, Clone, Default)]
pub struct SourceIndex {
    /// Byte offset of each line's start.
    line_starts: Vec<usize>,
    /// Whether each line is ASCII (columns are then byte differences).
    ascii_lines: Vec<bool>,
    spots: std::collections::HashMap<String, Spot>,
    /// Every string literal, as written (quotes included), and its offsets.
    strings: std::collections::HashMap<String, Vec<usize>>,
}

impl SourceIndex {
    pub fn new(text: &str) -> SourceIndex {
        let bytes = text.as_bytes();
        let mut index = SourceIndex {
            line_starts: vec![0],
            ..SourceIndex::default()
        };
        let mut ascii = true;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                index.line_starts.push(i + 1);
                index.ascii_lines.push(ascii);
                ascii = true;
            } else if !b.is_ascii() {
                ascii = false;
            }
        }
        index.ascii_lines.push(ascii);
        index.scan(text);
        index
    }

    fn scan(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut frames: Vec<Frame> = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line(bytes, i),
                b'/' if bytes.get(i + 1) == Some(&b'*') => i = skip_block_comment(bytes, i),
                b'"' => {
                    let end = skip_string(bytes, i);
                    start_value(&mut frames, &mut self.spots, i);
                    self.strings
                        .entry(text[i..end].to_string())
                        .or_default()
                        .push(i);
                    i = end;
                }
                b'\'' => {
                    start_value(&mut frames, &mut self.spots, i);
                    i = skip_char(bytes, i);
                }
                b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                    let (end, is_string) = skip_raw_string(bytes, i);
                    if is_string {
                        start_value(&mut frames, &mut self.spots, i);
                    }
                    i = end;
                }
                b'(' | b'[' | b'{' => {
                    let path = start_value(&mut frames, &mut self.spots, i);
                    frames.push(Frame {
                        path,
                        index: 0,
                        label: None,
                        started: false,
                    });
                    i += 1;
                }
                b')' | b']' | b'}' => {
                    frames.pop();
                    i += 1;
                }
                b',' => {
                    if let Some(top) = frames.last_mut() {
                        top.index += 1;
                        top.label = None;
                        top.started = false;
                    }
                    i += 1;
                }
                _ if b.is_ascii_alphabetic() || b == b'_' => {
                    let start = i;
                    i = skip_identifier(bytes, i);
                    let next = i + bytes[i..]
                        .iter()
                        .take_while(|c| c.is_ascii_whitespace())
                        .count();
                    match frames.last_mut() {
                        Some(top) if bytes.get(next) == Some(&b':') => {
                            top.label = Some((text[start..i].to_string(), start));
                            top.started = false;
                            i = next + 1;
                        }
                        _ => {
                            start_value(&mut frames, &mut self.spots, start);
                        }
                    }
                }
                _ if b.is_ascii_whitespace() => i += 1,
                _ => {
                    // Numbers, signs, anything else: a value's first byte
                    // (and never a position inside a UTF-8 sequence).
                    if b.is_ascii() {
                        start_value(&mut frames, &mut self.spots, i);
                    }
                    i += 1;
                }
            }
        }
    }

    /// Where the value at `path` starts.
    pub fn value(&self, path: &str) -> Option<usize> {
        self.spots.get(path).map(|s| s.value)
    }

    /// Where the `field:` label of the value at `path` starts (else the value).
    pub fn label(&self, path: &str) -> Option<usize> {
        self.spots.get(path).map(|s| s.label.unwrap_or(s.value))
    }

    /// The first string literal equal to `value` at or after `after`.
    pub(crate) fn string_after(&self, value: &str, after: usize) -> Option<usize> {
        let offsets = self.strings.get(&format!("{value:?}"))?;
        let at = offsets.partition_point(|&o| o < after);
        offsets.get(at).copied()
    }

    /// 1-based line and column (in characters) of a byte offset of `text`,
    /// the text this index was built from.
    pub(crate) fn line_column(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = if self.ascii_lines.get(line - 1).copied().unwrap_or(false) {
            offset - start
        } else {
            text.get(start..offset).map_or(0, |s| s.chars().count())
        };
        (line, column + 1)
    }
}

/// The end (exclusive) of the string literal starting at `start`.
/// An open `(`, `[` or `{` while a RON text is scanned: the path of the
/// value it belongs to, and the element being read inside it.
struct Frame {
    path: String,
    index: usize,
    label: Option<(String, usize)>,
    started: bool,
}

fn element_path(frame: &Frame) -> String {
    let seg = match &frame.label {
        Some((label, _)) => label.clone(),
        None => frame.index.to_string(),
    };
    if frame.path.is_empty() {
        seg
    } else {
        format!("{}.{seg}", frame.path)
    }
}

/// Marks the start of a value at `at` in the innermost frame; returns its path.
fn start_value(
    frames: &mut [Frame],
    spots: &mut std::collections::HashMap<String, Spot>,
    at: usize,
) -> String {
    let Some(top) = frames.last_mut() else {
        return String::new();
    };
    let path = element_path(top);
    if !top.started {
        top.started = true;
        let label = top.label.as_ref().map(|(_, l)| *l);
        spots
            .entry(path.clone())
            .or_insert(Spot { label, value: at });
    }
    path
}

/// The end of the line comment at `start` (its newline).
fn skip_line(bytes: &[u8], start: usize) -> usize {
    start + bytes[start..].iter().take_while(|&&c| c != b'\n').count()
}

/// Past the block comment at `start`; RON block comments nest.
fn skip_block_comment(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Past the character literal at `start` (or its line, when unclosed).
fn skip_char(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() && bytes[i] != b'\'' && bytes[i] != b'\n' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// Past a raw string `r"..."` or `r#"..."#` at `start`, and whether it was
/// one (`r#` followed by no quote is not).
fn skip_raw_string(bytes: &[u8], start: usize) -> (usize, bool) {
    let mut i = start + 1;
    let hashes = bytes[i..].iter().take_while(|&&c| c == b'#').count();
    i += hashes;
    if bytes.get(i) != Some(&b'"') {
        return (i, false);
    }
    i += 1;
    while i < bytes.len() {
        if bytes[i] == b'"'
            && bytes[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == b'#')
                .count()
                == hashes
        {
            return (i + 1 + hashes, true);
        }
        i += 1;
    }
    (i, true)
}

/// Past the identifier at `start`.
fn skip_identifier(bytes: &[u8], start: usize) -> usize {
    start
        + bytes[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count()
}

fn skip_string(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Pretty RON text of a scenario document, as the GUI saves it.
pub(crate) fn scenario_to_ron(doc: &ScenarioDoc) -> String {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(true)
        .separate_tuple_members(false)
        .enumerate_arrays(false);
    ron_options()
        .to_string_pretty(doc, config)
        .unwrap_or_else(|e| format!("// could not serialise: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"// a comment with "quotes" and (brackets
Scenario(
    name: "Ünïcode, (tricky) \"name\"",
    /* nested /* block */ comment: "x" */
    map: (
        spaces: [
            (name: "Roma", kind: Port, at: (1, 2), aliases: ["Rome", r#"Urbs"#]),
            (name: "Genua", kind: City, at: (3, 4)),
        ],
        links: [
            Major("Genua", "Roma"),
            Strait(name: "Messana", a: "Messana", b: "Rhegium"),
        ],
    ),
    deck: (events: [Apollo, Mars], commands: [(move: 2, levy: 1)]),
)
"##;

    #[test]
    fn a_number_out_of_range_names_its_field_and_bounds() {
        let text = "Scenario(\n    map: (spaces: [(name: \"Roma\", kind: City, vp: 300, at: (1, 2))], links: []),\n)";
        let err = parse_ron::<ScenarioDoc>(Path::new("s.ron"), text).unwrap_err();
        let message = err.to_string();
        assert!(message.starts_with("s.ron:2:"), "{message}");
        assert!(
            message.contains("`vp` is out of range: expected a whole number from 0 to 255"),
            "{message}"
        );
    }

    fn at(index: &SourceIndex, offset: Option<usize>) -> (usize, usize) {
        index.line_column(TEXT, offset.expect("indexed"))
    }

    #[test]
    fn the_index_finds_values_and_labels_by_path() {
        let index = SourceIndex::new(TEXT);
        assert_eq!(at(&index, index.label("name")), (3, 5));
        assert_eq!(at(&index, index.value("name")), (3, 11));
        assert_eq!(at(&index, index.label("map")), (5, 5));
        assert_eq!(at(&index, index.value("map.spaces.1.name")), (8, 20));
        assert_eq!(at(&index, index.label("map.spaces.1.name")), (8, 14));
        assert_eq!(at(&index, index.value("map.spaces.0.aliases.1")), (7, 70));
        assert_eq!(at(&index, index.value("map.links.0.0")), (11, 19));
        assert_eq!(at(&index, index.value("map.links.0.1")), (11, 28));
        assert_eq!(at(&index, index.value("map.links.1.a")), (12, 40));
        assert_eq!(at(&index, index.value("deck.events.1")), (15, 29));
        assert_eq!(at(&index, index.value("deck.commands.0")), (15, 47));
        // Comments hold nothing.
        assert_eq!(index.value("comment"), None);
        assert_eq!(index.value("map.spaces.2"), None);
        // String search, for documents edited since their text was read.
        let genua = index.string_after("Genua", 0).unwrap();
        assert_eq!(at(&index, Some(genua)), (8, 20));
        let after_links = index.label("map.links").unwrap();
        let genua = index.string_after("Genua", after_links);
        assert_eq!(at(&index, genua), (11, 19));
    }

    #[test]
    fn columns_count_characters_and_offsets_past_the_end_are_clamped() {
        let index = SourceIndex::new(TEXT);
        let text = "(a: \"é\", b: 1)\n(c: 2)";
        let index2 = SourceIndex::new(text);
        assert_eq!(
            index2.line_column(text, index2.label("b").unwrap()),
            (1, 10)
        );
        assert_eq!(
            index.line_column(TEXT, usize::MAX).0,
            TEXT.lines().count() + 1
        );
    }

    #[test]
    fn any_bytes_are_indexed_without_panicking() {
        let samples = [
            "",
            "(",
            ")",
            "]]]",
            "\"",
            "r#",
            "r#\"",
            "'",
            "'\\",
            "/*",
            "/* /* */",
            "(a:",
            "(a: [1,",
            "é(é: \"é",
            "#![enable(implicit_some)]\n(a: 1)",
            ":::",
            "(,,,)",
        ];
        for text in samples {
            let index = SourceIndex::new(text);
            for offset in 0..=text.len() + 1 {
                let (line, column) = index.line_column(text, offset);
                assert!(line >= 1 && column >= 1, "{text:?} at {offset}");
            }
        }
    }
}
