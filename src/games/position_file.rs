//! Position files (RON, see `docs/formats.md`): a game position written by
//! hand, by name. [`PositionDoc`] is both the file and the test builder: a
//! rule test states its position with the builder methods and goes through
//! the same name resolution and checks ([`State::from_position`]) as a file
//! read by `caesar-workbench position`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::{Game, Place, PlacedBlock, Position, PositionError, Stage, State};
use crate::scenario::format::{LoadError, Location, SourceIndex};
use crate::scenario::model::{BlockId, Side};
use crate::scenario::names::{did_you_mean, normalise};
use crate::scenario::rules::{DEFAULT_VARIANT, RuleSet};

/// One value for each side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BySide<T> {
    #[serde(default)]
    pub caesar: T,
    #[serde(default)]
    pub pompey: T,
}

impl<T> BySide<T> {
    pub fn side(&self, side: Side) -> &T {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }
    pub(crate) fn side_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Caesar => &mut self.caesar,
            Side::Pompey => &mut self.pompey,
        }
    }
}

/// A block on the map, listed under the side it fights for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockEntry {
    /// The block's name in the roster: the side's own, or (a Jupiter
    /// defector) the other side's.
    pub block: String,
    /// A space of the map (name or alias).
    pub at: String,
    /// Strength as printed (an elephant's steps count two); full when left out.
    #[serde(default)]
    pub strength: Option<u8>,
}

/// A position file. Every field but `blocks` may be left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionDoc {
    /// A scenario file, relative to the position file; the built-in
    /// published game when left out.
    #[serde(default)]
    pub scenario: Option<String>,
    /// A built-in rule set or a variant file (relative to the position file).
    #[serde(default = "default_variant")]
    pub variant: String,
    #[serde(default = "one")]
    pub year: u8,
    #[serde(default = "one")]
    pub turn: u8,
    #[serde(default)]
    pub stage: Stage,
    /// `Command`: who is Player 1, checked against the cards played (2.1).
    #[serde(default)]
    pub player1: Option<Side>,
    /// Cards by name: an event (`Jupiter`) or a command card as moves/levies (`3/2`).
    #[serde(default)]
    pub hands: BySide<Vec<String>>,
    #[serde(default)]
    pub played: BySide<Option<String>>,
    #[serde(default)]
    pub discarded: BySide<Vec<String>>,
    /// Cards both sides revealed on earlier turns of this year.
    #[serde(default)]
    pub played_earlier: Vec<String>,
    /// What each side's card did last turn (for Apollo).
    #[serde(default)]
    pub last_played: BySide<Option<String>>,
    pub blocks: BySide<Vec<BlockEntry>>,
    /// Blocks eliminated this year: face up in their owner's pool (5.2),
    /// not levied before the winter.
    #[serde(default)]
    pub eliminated: BySide<Vec<String>>,
    /// Leaders killed, listed under the side they fought for: trophies of
    /// the other side (7.51).
    #[serde(default)]
    pub killed: BySide<Vec<String>>,
    /// Battle dice to come, in the order they are rolled.
    #[serde(default)]
    pub dice: Vec<u8>,
    /// The chance stream: shuffles, and the dice after `dice`.
    #[serde(default)]
    pub seed: u64,
    /// Whether each side has had its first levy of the game, where a
    /// tournament bid's extra levy points go; when left out, both have
    /// after the game's first turn and neither before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_levies_taken: Option<BySide<bool>>,
}

fn default_variant() -> String {
    DEFAULT_VARIANT.to_string()
}
fn one() -> u8 {
    1
}

/// Something wrong with a position, at a field of the document
/// (`blocks.caesar.2.at`, `hands.pompey.0`, `year`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl Problem {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl PositionDoc {
    /// An empty board at the start of the first turn's card phase.
    pub fn new(variant: &str) -> PositionDoc {
        PositionDoc {
            scenario: None,
            variant: variant.to_string(),
            year: 1,
            turn: 1,
            stage: Stage::PlayCards,
            player1: None,
            hands: BySide::default(),
            played: BySide::default(),
            discarded: BySide::default(),
            played_earlier: Vec::new(),
            last_played: BySide::default(),
            blocks: BySide::default(),
            eliminated: BySide::default(),
            killed: BySide::default(),
            dice: Vec::new(),
            seed: 0,
            first_levies_taken: None,
        }
    }

    /// Places a block at full strength.
    pub fn block(mut self, side: Side, block: &str, at: &str) -> Self {
        self.blocks.side_mut(side).push(BlockEntry {
            block: block.into(),
            at: at.into(),
            strength: None,
        });
        self
    }

    /// Places a block at a printed strength.
    pub fn block_at(mut self, side: Side, block: &str, at: &str, strength: u8) -> Self {
        self.blocks.side_mut(side).push(BlockEntry {
            block: block.into(),
            at: at.into(),
            strength: Some(strength),
        });
        self
    }

    pub fn hand(mut self, side: Side, cards: &[&str]) -> Self {
        *self.hands.side_mut(side) = cards.iter().map(|c| c.to_string()).collect();
        self
    }

    /// The command phase with these cards played (and revealed).
    pub fn played(mut self, caesar: &str, pompey: &str) -> Self {
        self.stage = Stage::Command;
        self.played = BySide {
            caesar: Some(caesar.into()),
            pompey: Some(pompey.into()),
        };
        self
    }

    pub fn when(mut self, year: u8, turn: u8, stage: Stage) -> Self {
        (self.year, self.turn, self.stage) = (year, turn, stage);
        self
    }

    pub fn eliminated(mut self, side: Side, block: &str) -> Self {
        self.eliminated.side_mut(side).push(block.into());
        self
    }

    pub fn killed(mut self, side: Side, leader: &str) -> Self {
        self.killed.side_mut(side).push(leader.into());
        self
    }

    pub fn dice(mut self, dice: &[u8]) -> Self {
        self.dice = dice.to_vec();
        self
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The document as a position file.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().struct_names(false);
        ron::Options::default()
            .to_string_pretty(self, config)
            .expect("a position document serialises")
    }

    /// The engine's position, names resolved against `game`.
    pub fn resolve(&self, game: &Game) -> Result<Position, Vec<Problem>> {
        self.resolve_placed(game).map(|(position, _)| position)
    }

    /// [`PositionDoc::resolve`], with the field each entry of the position's
    /// `blocks` is written at (`blocks.caesar.2.block`, `eliminated.pompey.0`).
    fn resolve_placed(&self, game: &Game) -> Result<(Position, Vec<String>), Vec<Problem>> {
        let mut problems = Vec::new();
        let mut fields = Vec::new();
        let mut position = Position {
            year: self.year,
            turn: self.turn,
            stage: self.stage,
            player1: self.player1,
            dice: self.dice.clone(),
            seed: self.seed,
            first_levies_taken: self
                .first_levies_taken
                .as_ref()
                .map(|t| [t.caesar, t.pompey]),
            ..Position::default()
        };
        self.resolve_cards(game, &mut position, &mut problems);
        self.resolve_blocks(game, &mut position, &mut fields, &mut problems);
        if problems.is_empty() {
            Ok((position, fields))
        } else {
            Err(problems)
        }
    }

    /// The hands, the cards played and discarded, by name.
    fn resolve_cards(&self, game: &Game, position: &mut Position, problems: &mut Vec<Problem>) {
        let mut cards = CardPicker::new(game);
        let mut card = |path: String, name: &str, problems: &mut Vec<Problem>| {
            cards
                .pick(name)
                .map_err(|e| problems.push(Problem::new(path, e.to_string())))
                .ok()
        };
        for side in Side::BOTH {
            let key = side_key(side);
            let i = side.index();
            for (n, name) in self.hands.side(side).iter().enumerate() {
                let c = card(format!("hands.{key}.{n}"), name, problems);
                position.hands[i].extend(c);
            }
            for (n, name) in self.discarded.side(side).iter().enumerate() {
                let c = card(format!("discarded.{key}.{n}"), name, problems);
                position.discarded[i].extend(c);
            }
            if let Some(name) = self.played.side(side) {
                position.played[i] = card(format!("played.{key}"), name, problems);
            }
            if let Some(name) = self.last_played.side(side) {
                position.last_played[i] = match face_named(game, name) {
                    Some(face) => Some(face),
                    None => {
                        problems.push(Problem::new(
                            format!("last_played.{key}"),
                            unknown_card(game, name).to_string(),
                        ));
                        None
                    }
                };
            }
        }
        for (n, name) in self.played_earlier.iter().enumerate() {
            let c = card(format!("played_earlier.{n}"), name, problems);
            position.played_earlier.extend(c);
        }
    }

    /// The blocks on the map, eliminated and killed; `fields` gets the field of each.
    fn resolve_blocks(
        &self,
        game: &Game,
        position: &mut Position,
        fields: &mut Vec<String>,
        problems: &mut Vec<Problem>,
    ) {
        for side in Side::BOTH {
            let key = side_key(side);
            for (n, entry) in self.blocks.side(side).iter().enumerate() {
                let path = format!("blocks.{key}.{n}");
                if let Some(placed) = on_map(game, side, &path, entry, problems) {
                    position.blocks.push(placed);
                    fields.push(format!("{path}.block"));
                }
            }
            for (list, place, what) in [
                (&self.eliminated, Place::Eliminated, "eliminated"),
                (&self.killed, Place::Trophy, "killed"),
            ] {
                for (n, name) in list.side(side).iter().enumerate() {
                    match find_block(game, side, name, false) {
                        Ok(block) => {
                            position.blocks.push(PlacedBlock {
                                block,
                                side,
                                place,
                                steps: 0,
                            });
                            fields.push(format!("{what}.{key}.{n}"));
                        }
                        Err(e) => {
                            problems.push(Problem::new(format!("{what}.{key}.{n}"), e.to_string()))
                        }
                    }
                }
            }
        }
    }

    /// The state of this position under `game`: names resolved, then the
    /// engine's checks ([`State::from_position`]), each problem at its field.
    pub fn start(&self, game: &Game) -> Result<State, Vec<Problem>> {
        let (position, fields) = self.resolve_placed(game)?;
        State::from_position(game, &position).map_err(|errors| {
            errors
                .iter()
                .map(|e| self.locate(game, e, &fields))
                .collect()
        })
    }

    /// The field an engine error is about; `fields[i]` is where entry `i`
    /// of the position's blocks is written.
    fn locate(&self, game: &Game, error: &PositionError, fields: &[String]) -> Problem {
        let entry = |i: usize| fields.get(i).cloned().unwrap_or_else(|| "blocks".into());
        // The first placing of a block on the map (the one checked).
        let block_path = |b: BlockId, field: &str| {
            let name = normalise(game.block_name(b));
            for side in Side::BOTH {
                for (n, e) in self.blocks.side(side).iter().enumerate() {
                    if normalise(&e.block) == name {
                        return format!("blocks.{}.{n}{field}", side_key(side));
                    }
                }
            }
            "blocks".into()
        };
        let path = match error {
            PositionError::Year { .. } => "year".to_string(),
            PositionError::Turn { .. } | PositionError::DiscardTurn { .. } => "turn".into(),
            PositionError::BlockTwice { entry: i, .. }
            | PositionError::Defector { entry: i, .. } => entry(*i),
            PositionError::Steps { block, .. } => block_path(*block, ".strength"),
            PositionError::Terrain { block, .. } => block_path(*block, ".at"),
            PositionError::TrophyNotLeader { .. } => "killed".into(),
            PositionError::BothSides { space } => {
                let mut at = "blocks".to_string();
                'find: for side in [Side::Pompey, Side::Caesar] {
                    for (n, e) in self.blocks.side(side).iter().enumerate() {
                        if game.board().find(&e.at).map(|s| game.space_name(s)) == Some(space) {
                            at = format!("blocks.{}.{n}.at", side_key(side));
                            break 'find;
                        }
                    }
                }
                at
            }
            PositionError::CardCopies { .. } => "hands".into(),
            PositionError::LastPlayed { side, .. } => format!("last_played.{}", side_key(*side)),
            PositionError::HandTooLarge { side, .. }
            | PositionError::DiscardCount { side, .. }
            | PositionError::EmptyHand { side } => format!("hands.{}", side_key(*side)),
            PositionError::NotPlayed { .. } => "played".into(),
            PositionError::PlayedTooEarly { side, .. } => format!("played.{}", side_key(*side)),
            PositionError::Player1 { .. } => "player1".into(),
            PositionError::Die { index, .. } => format!("dice.{index}"),
        };
        Problem::new(path, error.to_string())
    }
}

/// The block of `entry` (at `path` in the file) on the map, at its space
/// and strength in steps; none when a name or the strength is wrong, each
/// problem at its field.
fn on_map(
    game: &Game,
    side: Side,
    path: &str,
    entry: &BlockEntry,
    problems: &mut Vec<Problem>,
) -> Option<PlacedBlock> {
    let block = find_block(game, side, &entry.block, true)
        .map_err(|e| problems.push(Problem::new(format!("{path}.block"), e.to_string())));
    let at = game
        .board()
        .resolve(&entry.at)
        .map_err(|e| problems.push(Problem::new(format!("{path}.at"), e.to_string())));
    let (Ok(block), Ok(at)) = (block, at) else {
        return None;
    };
    let per_step = game.roster().block(block).kind.strength_per_step();
    let steps = match entry.strength {
        None => game.roster().block(block).max_steps,
        Some(s) if s % per_step != 0 => {
            problems.push(Problem::new(
                format!("{path}.strength"),
                format!(
                    "{} shows {per_step} strength a step (7.41): {s} is no strength it can have",
                    entry.block
                ),
            ));
            return None;
        }
        Some(s) => s / per_step,
    };
    Some(PlacedBlock {
        block,
        side,
        place: Place::Map(at),
        steps,
    })
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::Caesar => "caesar",
        Side::Pompey => "pompey",
    }
}

/// A name in a position file that matches no block or card in play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unresolved {
    #[error("no {side} block named \"{name}\"{did_you_mean}")]
    Block {
        side: Side,
        name: String,
        did_you_mean: String,
    },
    #[error(
        "no card \"{name}\" in the deck{did_you_mean} (cards: an event's name, or moves/levies as \"3/2\")"
    )]
    Card { name: String, did_you_mean: String },
    #[error("\"{name}\" is removed from the deck by the rule set ({rules})")]
    Removed { name: String, rules: String },
}

/// A block by name: the side's own, else (`defector`) the other side's.
fn find_block(game: &Game, side: Side, name: &str, defector: bool) -> Result<BlockId, Unresolved> {
    let roster = game.roster();
    if let Some(b) = roster.find(side, name) {
        return Ok(b);
    }
    if defector && let Some(b) = roster.find(side.other(), name) {
        return Ok(b);
    }
    let known: Vec<&str> = roster
        .of_side(side)
        .map(|b| roster.block(b).name.as_str())
        .collect();
    Err(Unresolved::Block {
        side,
        name: name.to_string(),
        did_you_mean: did_you_mean(name, known),
    })
}

fn face_named(game: &Game, name: &str) -> Option<crate::scenario::model::CardFace> {
    let wanted = normalise(name);
    game.scenario
        .deck
        .cards
        .iter()
        .map(|c| c.face)
        .find(|f| normalise(&f.name()) == wanted)
}

fn unknown_card(game: &Game, name: &str) -> Unresolved {
    let mut names: Vec<String> = game
        .scenario
        .deck
        .cards
        .iter()
        .map(|c| c.face.name())
        .collect();
    names.sort();
    names.dedup();
    Unresolved::Card {
        name: name.to_string(),
        did_you_mean: did_you_mean(name, names.iter().map(String::as_str)),
    }
}

/// Hands out deck indices by card name, a distinct copy each time while
/// copies last (the engine then counts copies and says when there are too
/// many).
struct CardPicker<'g> {
    game: &'g Game,
    taken: Vec<u8>,
}

impl<'g> CardPicker<'g> {
    fn new(game: &'g Game) -> Self {
        CardPicker {
            game,
            taken: Vec::new(),
        }
    }

    fn pick(&mut self, name: &str) -> Result<u8, Unresolved> {
        let wanted = normalise(name);
        let copies: Vec<u8> = self
            .game
            .deck_in_play()
            .iter()
            .copied()
            .filter(|&c| normalise(&self.game.card_label(c)) == wanted)
            .collect();
        let Some(&first) = copies.first() else {
            if face_named(self.game, name).is_some() {
                return Err(Unresolved::Removed {
                    name: name.to_string(),
                    rules: self.game.rules.name.clone(),
                });
            }
            return Err(unknown_card(self.game, name));
        };
        let card = copies
            .iter()
            .copied()
            .find(|c| !self.taken.contains(c))
            .unwrap_or(first);
        self.taken.push(card);
        Ok(card)
    }
}

/// A position file read, its game and its state.
pub struct LoadedPosition {
    pub doc: PositionDoc,
    pub game: Game,
    pub state: State,
    /// The files it was read from (the position, scenario and variant).
    pub inputs: Vec<PathBuf>,
}

/// Why a position file cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum PositionFileError {
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The scenario or rule set it names cannot be played.
    #[error("{}", .0.join("\n"))]
    Game(Vec<String>),
    /// The position itself is impossible: each problem at its place.
    #[error("{}", .0.iter().map(|(l, m)| format!("{l}: error: {m}")).collect::<Vec<_>>().join("\n"))]
    Position(Vec<(Location, String)>),
}

/// Reads a position file: its scenario and rule set (paths relative to the
/// file), then the position, every problem reported at its line and column.
pub fn load_position(path: &Path) -> Result<LoadedPosition, PositionFileError> {
    let text = crate::scenario::format::read_text(path)?;
    let doc: PositionDoc = crate::scenario::format::parse_ron(path, &text)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let index = SourceIndex::new(&text);
    let locate = |field: &str| field_location(path, &text, &index, field);
    let mut inputs = vec![path.to_path_buf()];
    let variant = relative(dir, &doc.variant);
    if Path::new(&variant).is_file() {
        inputs.push(PathBuf::from(&variant));
    }
    // A file that cannot be opened is reported where the position file
    // names it; an error inside it, where it is.
    let at_field = |field: &str, error: LoadError| match error {
        LoadError::Read(crate::files::ReadError::Io { .. }) => {
            PositionFileError::Load(LoadError::Parse {
                location: locate(field),
                message: error.to_string(),
            })
        }
        other => PositionFileError::from(other),
    };
    let rules = RuleSet::load(&variant).map_err(|e| at_field("variant", e))?;
    let scenario_path = doc.scenario.as_ref().map(|s| dir.join(s));
    if let Some(p) = &scenario_path {
        inputs.push(p.clone());
    }
    let scenario = crate::scenario::load_scenario(scenario_path.as_deref())
        .map_err(|e| at_field("scenario", e))?;
    let game =
        crate::scenario::checked::CheckedScenario::from_document(&scenario, rules, Some(&variant))
            .map(Game::from_checked)
            .map_err(|refused| PositionFileError::Game(refused.messages()))?;
    let state = doc.start(&game).map_err(|problems| {
        PositionFileError::Position(
            problems
                .into_iter()
                .map(|p| (locate(&p.path), p.message))
                .collect(),
        )
    })?;
    Ok(LoadedPosition {
        doc,
        game,
        state,
        inputs,
    })
}

/// Where `field` (`blocks.caesar.2.at`) is written in the file `path`
/// holding `text`: at its label, else at its nearest enclosing field's,
/// else at the file's start.
fn field_location(path: &Path, text: &str, index: &SourceIndex, field: &str) -> Location {
    let mut at = field;
    let offset = loop {
        if let Some(o) = index.label(at) {
            break o;
        }
        match at.rfind('.') {
            Some(dot) => at = &at[..dot],
            None => break 0,
        }
    };
    let (line, column) = index.line_column(text, offset);
    Location {
        file: path.to_path_buf(),
        line,
        column,
    }
}

/// A variant named in a file: a path relative to the file when one exists
/// there, else as written (a built-in name or a path from here).
fn relative(dir: &Path, spec: &str) -> String {
    let builtin = crate::scenario::rules::is_bare_name(spec)
        && crate::scenario::rules::BUILTIN_VARIANTS
            .iter()
            .any(|(name, _)| *name == spec);
    if spec.is_empty() || builtin {
        spec.to_string()
    } else {
        dir.join(spec).to_string_lossy().into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        crate::test_support::published("rules-2.0")
    }

    #[test]
    fn a_built_position_places_blocks_and_deals_the_hands_named() {
        let game = game();
        let state = PositionDoc::new("rules-2.0")
            .block(Side::Caesar, "Legio 13", "Ravenna")
            .block_at(Side::Pompey, "Legio 1", "Roma", 2)
            .hand(Side::Caesar, &["3/2", "Jupiter"])
            .hand(Side::Pompey, &["2/1"])
            .start(&game)
            .unwrap();
        let roma = game.board().find("Roma").unwrap();
        let l1 = game.roster().find(Side::Pompey, "Legio 1").unwrap();
        assert_eq!(state.location(l1), Some(roma));
        assert_eq!(state.steps(l1), 2);
        let hand: Vec<String> = state
            .hand(Side::Caesar)
            .iter()
            .map(|c| game.card_label(*c))
            .collect();
        assert_eq!(hand, ["3/2", "Jupiter"]);
        assert_eq!(state.current_player(), Some(Side::Caesar));
    }

    #[test]
    fn unknown_names_are_refused_with_the_nearest_known_one() {
        let problems = PositionDoc::new("rules-2.0")
            .block(Side::Caesar, "Legio 31", "Ravena")
            .hand(Side::Caesar, &["Jupitter"])
            .start(&game())
            .unwrap_err();
        let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert!(
            text.iter()
                .any(|t| t.starts_with("hands.caesar.0") && t.contains("\"Jupiter\"")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|t| t.starts_with("blocks.caesar.0.block") && t.contains("did you mean")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|t| t.starts_with("blocks.caesar.0.at") && t.contains("Ravenna")),
            "{text:?}"
        );
    }

    #[test]
    fn impossible_positions_name_their_field() {
        let problems = PositionDoc::new("rules-2.0")
            .block(Side::Caesar, "Legio 13", "Roma")
            .block(Side::Caesar, "Legio 13", "Genua")
            .block_at(Side::Pompey, "Legio 1", "Roma", 9)
            .block(Side::Pompey, "Legio 3", "Mare Internum")
            .hand(Side::Caesar, &["2/1"])
            .hand(Side::Pompey, &["2/1"])
            .start(&game())
            .unwrap_err();
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        assert!(paths.contains(&"blocks.caesar.1.block"), "{problems:?}");
        assert!(paths.contains(&"blocks.pompey.0.strength"), "{problems:?}");
        assert!(paths.contains(&"blocks.pompey.1.at"), "{problems:?}");
        assert!(
            paths.contains(&"blocks.pompey.0.at"),
            "both sides in Roma: {problems:?}"
        );
    }

    #[test]
    fn a_document_reads_back_from_its_own_ron() {
        let doc = PositionDoc::new("rules-1.1")
            .block_at(Side::Caesar, "Caesar", "Ravenna", 3)
            .hand(Side::Caesar, &["Mars"])
            .played("3/2", "2/1")
            .dice(&[6, 1]);
        let back: PositionDoc =
            crate::scenario::format::parse_ron(Path::new("x.ron"), &doc.to_ron()).unwrap();
        assert_eq!(back, doc);
    }
}
