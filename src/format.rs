//! The scenario file format (RON), as people write it. See `docs/formats.md`.
//!
//! A scenario file has four sections (map, roster, deck, order of battle) and an
//! optional free deployment. Any section may be left out when the file `extends`
//! another scenario: it is then taken from that file. This is how a new
//! deployment on the published map, or a new map with the published blocks, is
//! written without copying everything.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

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
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not UTF-8 text (first bad byte at offset {offset})", path.display())]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{location}: {message}")]
    Parse { location: Location, message: String },
    #[error("{}: `extends` forms a cycle: {}", path.display(), chain.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    ExtendsCycle { path: PathBuf, chain: Vec<PathBuf> },
    #[error("{location}: `extends` names \"{target}\", which cannot be read: {source}{suggestion}")]
    ExtendsMissing {
        location: Location,
        target: String,
        #[source]
        source: std::io::Error,
        /// " (did you mean ...?)" when a file of a similar name sits beside it.
        suggestion: String,
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
            LoadError::Parse { location, .. } | LoadError::ExtendsMissing { location, .. } => {
                Some(location)
            }
            _ => None,
        }
    }
}

/// The RON options every file of the workbench is read with: `Some(..)` may be
/// left out around optional values.
pub fn ron_options() -> ron::Options {
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
            message: explain_ron_error(&err.code),
        })
}

fn explain_ron_error(code: &ron::Error) -> String {
    use ron::Error as E;
    match code {
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => {
            let suggestion = crate::names::nearest(found, expected.iter().copied())
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            let outer = outer.as_deref().unwrap_or("this item");
            format!(
                "unknown field `{found}` in {outer}{suggestion}; expected one of: {}",
                expected.join(", ")
            )
        }
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => {
            let suggestion = crate::names::nearest(found, expected.iter().copied())
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            let outer = outer.as_deref().unwrap_or("this value");
            format!(
                "unknown variant `{found}` for {outer}{suggestion}; expected one of: {}",
                expected.join(", ")
            )
        }
        other => other.to_string(),
    }
}

/// Reads a file as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.to_path_buf(),
        offset: e.utf8_error().valid_up_to(),
    })
}

// ---------------------------------------------------------------- documents

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename = "Scenario", deny_unknown_fields)]
pub struct ScenarioDoc {
    #[serde(default)]
    pub name: String,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpaceKind {
    /// An inland city.
    City,
    /// A coastal city (4.42).
    Port,
    /// A port with the Navis symbol: Navis may be levied there (6.4).
    MajorPort,
    Sea,
}

impl SpaceKind {
    pub fn is_city(self) -> bool {
        self != SpaceKind::Sea
    }
    pub fn is_port(self) -> bool {
        matches!(self, SpaceKind::Port | SpaceKind::MajorPort)
    }
    pub fn label(self) -> &'static str {
        match self {
            SpaceKind::City => "city",
            SpaceKind::Port => "port",
            SpaceKind::MajorPort => "major port",
            SpaceKind::Sea => "sea",
        }
    }
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum LinkClass {
    /// 4.31: four blocks per player per turn.
    Major,
    /// 4.31: two blocks per player per turn.
    Minor,
    /// 4.32: two land blocks, one when the far side is defended.
    Strait,
    /// Port-to-sea or sea-to-sea border (Navis, amphibious moves, sea retreats).
    Sea,
}

impl LinkClass {
    pub fn is_road(self) -> bool {
        matches!(
            self,
            LinkClass::Major | LinkClass::Minor | LinkClass::Strait
        )
    }
    pub fn label(self) -> &'static str {
        match self {
            LinkClass::Major => "major road",
            LinkClass::Minor => "minor road",
            LinkClass::Strait => "strait",
            LinkClass::Sea => "sea border",
        }
    }
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Side {
    Caesar,
    Pompey,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Caesar, Side::Pompey];
    pub fn other(self) -> Side {
        match self {
            Side::Caesar => Side::Pompey,
            Side::Pompey => Side::Caesar,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn label(self) -> &'static str {
        match self {
            Side::Caesar => "Caesar",
            Side::Pompey => "Pompey",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BlockKind {
    Leader,
    Legion,
    Auxilia,
    Equitatus,
    Elephant,
    Ballista,
    Navis,
    Cleopatra,
}

impl BlockKind {
    /// Land blocks are everything but Navis (4.1: Navis stay at sea or in ports).
    pub fn is_land(self) -> bool {
        self != BlockKind::Navis
    }
    /// 6.4: legions, equitatus and the elephant deploy in their named city.
    pub fn needs_levy_city(self) -> bool {
        matches!(
            self,
            BlockKind::Legion | BlockKind::Equitatus | BlockKind::Elephant
        )
    }
    /// 7.41: each elephant step is worth two strength points (IV, II).
    pub fn strength_per_step(self) -> u8 {
        if self == BlockKind::Elephant { 2 } else { 1 }
    }
    /// The strengths, as printed, a block of `steps` full steps may stand at.
    pub fn strengths(self, steps: u8) -> impl Iterator<Item = u8> {
        (1..=steps).map(move |k| k.saturating_mul(self.strength_per_step()))
    }
    pub fn label(self) -> &'static str {
        match self {
            BlockKind::Leader => "leader",
            BlockKind::Legion => "legion",
            BlockKind::Auxilia => "auxilia",
            BlockKind::Equitatus => "equitatus",
            BlockKind::Elephant => "elephant",
            BlockKind::Ballista => "ballista",
            BlockKind::Navis => "navis",
            BlockKind::Cleopatra => "Cleopatra",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Initiative {
    A,
    B,
    C,
    D,
}

impl Initiative {
    pub fn letter(self) -> char {
        match self {
            Initiative::A => 'A',
            Initiative::B => 'B',
            Initiative::C => 'C',
            Initiative::D => 'D',
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
        match self.attacking_initiative {
            Some(att) => format!(
                "{}{}/{}{}",
                self.initiative.letter(),
                self.firepower,
                att.letter(),
                self.firepower
            ),
            None => format!("{}{}", self.initiative.letter(), self.firepower),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Event {
    Apollo,
    Jupiter,
    Mars,
    Mercury,
    Neptune,
    Pluto,
    Vulcan,
}

impl Event {
    pub const ALL: [Event; 7] = [
        Event::Apollo,
        Event::Jupiter,
        Event::Mars,
        Event::Mercury,
        Event::Neptune,
        Event::Pluto,
        Event::Vulcan,
    ];
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
    pub fn side_mut(&mut self, side: Side) -> &mut Vec<(String, u8)> {
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
    pub fn side_mut(&mut self, side: Side) -> &mut Vec<(String, Vec<String>)> {
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

/// Reads a scenario file and the files it extends.
pub fn load_scenario(path: &Path) -> Result<ResolvedScenario, LoadError> {
    let mut chain: Vec<(PathBuf, ScenarioDoc, String)> = Vec::new();
    let mut seen = HashSet::new();
    let mut next = Some(path.to_path_buf());
    while let Some(current) = next.take() {
        let key = std::fs::canonicalize(&current).unwrap_or_else(|_| current.clone());
        if !seen.insert(key) {
            let mut cycle: Vec<PathBuf> = chain.iter().map(|(p, _, _)| p.clone()).collect();
            cycle.push(current);
            return Err(LoadError::ExtendsCycle {
                path: path.to_path_buf(),
                chain: cycle,
            });
        }
        let text = match read_text(&current) {
            // A scenario that extends the published game works anywhere, even
            // without a copy of scenarios/historical.ron beside it.
            Err(LoadError::Io { .. })
                if !chain.is_empty()
                    && current.file_name() == Some(std::ffi::OsStr::new("historical.ron")) =>
            {
                crate::HISTORICAL_SCENARIO.to_string()
            }
            // The file that names a missing parent is the one to fix: point at
            // its `extends` line rather than at a path that does not exist.
            Err(LoadError::Io { source, .. }) if !chain.is_empty() => {
                let (parent_path, parent_doc, parent_text) = &chain[chain.len() - 1];
                return Err(missing_parent(
                    parent_path,
                    parent_doc,
                    parent_text,
                    &current,
                    source,
                ));
            }
            other => other?,
        };
        let doc: ScenarioDoc = parse_ron(&current, &text)?;
        next = doc
            .extends
            .as_ref()
            .map(|rel| current.parent().unwrap_or_else(|| Path::new(".")).join(rel));
        chain.push((current, doc, text));
    }
    resolve(path, chain)
}

fn missing_parent(
    referrer: &Path,
    doc: &ScenarioDoc,
    text: &str,
    missing: &Path,
    source: std::io::Error,
) -> LoadError {
    let target = doc.extends.clone().unwrap_or_default();
    let src = SourceFile {
        path: referrer.to_path_buf(),
        text: text.to_string(),
    };
    let at = text.find("extends").unwrap_or(0);
    let siblings: Vec<String> = missing
        .parent()
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".ron"))
        .chain(std::iter::once("historical.ron".to_string()))
        .collect();
    let wanted = missing
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let suggestion = crate::names::did_you_mean(&wanted, siblings.iter().map(String::as_str));
    LoadError::ExtendsMissing {
        location: src.location_of(at),
        target,
        source,
        suggestion,
    }
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
    let name = chain
        .iter()
        .map(|(_, d, _)| d.name.clone())
        .find(|n| !n.is_empty())
        .unwrap_or_else(|| path.display().to_string());
    Ok(ResolvedScenario {
        name,
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
    /// Finds where a sequence of quoted strings (e.g. a link's two ends) first
    /// appears after `anchor`, allowing any whitespace, commas, `(`/`[` and
    /// field labels between them. Good enough to point an editor at an item.
    pub fn locate(&self, anchor: &str, needles: &[&str]) -> Option<Location> {
        let start = self.text.find(anchor).unwrap_or(0);
        let first = format!("{:?}", needles.first()?);
        let mut from = start;
        while let Some(rel) = self.text[from..].find(&first) {
            let at = from + rel;
            let mut cursor = at + first.len();
            let mut all = true;
            for needle in &needles[1..] {
                let quoted = format!("{needle:?}");
                // Skip separators, labels such as `b:` and opening brackets.
                let rest = &self.text[cursor..];
                let skipped = rest.find(['"', ')', ']']).unwrap_or(rest.len());
                if rest[skipped..].starts_with(&quoted) {
                    cursor += skipped + quoted.len();
                } else {
                    all = false;
                    break;
                }
            }
            if all {
                return Some(self.location_of(at));
            }
            from = at + first.len();
        }
        None
    }

    /// Where a deployment section gives `name` a starting strength.
    pub fn locate_strength(&self, section: &str, name: &str) -> Option<Location> {
        let start = self.text.find(&format!("{section}:"))?;
        let list = start + self.text[start..].find("strengths:")?;
        let at = list + self.text[list..].find(&format!("{name:?}"))?;
        Some(self.location_of(at))
    }

    pub fn location_of(&self, byte_offset: usize) -> Location {
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

/// Writes `text` to `path` atomically: a temporary file in the same folder is
/// written, flushed and renamed over the target, so a crash never leaves a
/// half-written file and the last good version survives any failure. The
/// previous version is kept as `<name>.bak`.
pub fn save_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("no file name"))?
        .to_string_lossy()
        .to_string();
    let tmp = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    if path.exists() {
        let _ = std::fs::copy(path, dir.join(format!("{file_name}.bak")));
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Pretty RON text of a scenario document, as the GUI saves it.
pub fn scenario_to_ron(doc: &ScenarioDoc) -> String {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(true)
        .separate_tuple_members(false)
        .enumerate_arrays(false);
    ron_options()
        .to_string_pretty(doc, config)
        .unwrap_or_else(|e| format!("// could not serialise: {e}"))
}
