//! The player factory: [`AiSpec`] names a player as the command line, the
//! window, reports and game records write it (`heuristic`, `search:64`,
//! `heuristic:FILE`) and makes it for a side.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use serde::{Deserialize, Serialize};

use crate::scenario::model::Side;

/// Which AI plays a side, and its budget.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AiSpec {
    /// Uniform over legal actions.
    Random,
    /// Rule-based priorities.
    Heuristic,
    /// Rule-based priorities with the numbers of a player file (`tune`
    /// writes them), kept whole so a report says exactly what played.
    TunedHeuristic(Box<TunedHeuristic>),
    /// Looks ahead with this many playouts per decision it searches.
    Search { playouts: u32 },
    /// Looks ahead for this many milliseconds per decision it searches: for
    /// play in the window; a run with it does not reproduce exactly.
    SearchTimed { millis: u32 },
    /// Tree search (ISMCTS) with this many playouts per decision it searches.
    Mcts { playouts: u32 },
    /// Tree search for this many milliseconds per decision it searches: for
    /// play in the window; a run with it does not reproduce exactly.
    MctsTimed { millis: u32 },
    /// A search (`search` or `mcts`, either budget) whose own play, priors,
    /// playouts and model of the opponent are a player file's heuristic
    /// (`mcts:64@FILE`) instead of the default one.
    SearchOn(Box<SearchOn>),
    /// Each side's mix at a measured balance (`equilibrium:REPORT`): every
    /// game plays one member of its side's mix, drawn by weight from the
    /// game's seed.
    Equilibrium(Box<EquilibriumMix>),
}

/// The players of a saved balance report's mixes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EquilibriumMix {
    /// The report, as written.
    pub path: String,
    /// Each side's mix: weights in millionths, and the player.
    pub caesar: Vec<(u32, AiSpec)>,
    pub pompey: Vec<(u32, AiSpec)>,
}

/// What [`EquilibriumMix::load`] reads of a balance report: the players
/// with their digests, and the mixes.
#[derive(Deserialize)]
struct SavedMixes {
    caesar: Vec<SavedMember>,
    pompey: Vec<SavedMember>,
    caesar_mix: Vec<SavedWeight>,
    pompey_mix: Vec<SavedWeight>,
}
#[derive(Deserialize)]
struct SavedMember {
    player: String,
    digest: String,
}
#[derive(Deserialize)]
struct SavedWeight {
    player: String,
    weight: f64,
}

impl EquilibriumMix {
    /// Reads the mixes of the balance report at `path` (the built-in copy
    /// for a shipped name), each player checked to play as it did when the
    /// report was made.
    fn load(path: &str) -> Result<EquilibriumMix, NotAPlayer> {
        let refused = |why: String| NotAPlayer::Report {
            given: format!("{}:{path}", EQUILIBRIUM.name),
            why,
        };
        let text = super::shipped::read_text(std::path::Path::new(path))
            .map_err(|e| refused(e.to_string()))?;
        let saved: SavedMixes = serde_json::from_str(&text).map_err(|e| {
            refused(format!(
                "not a balance report (line {}, column {}): {e}",
                e.line(),
                e.column()
            ))
        })?;
        let mix =
            |members: &[SavedMember],
             mix: &[SavedWeight]|
             -> Result<Vec<(u32, AiSpec)>, NotAPlayer> {
                if mix.is_empty() {
                    return Err(refused(
                        "holds no equilibrium yet (its first table was not solved)".into(),
                    ));
                }
                mix.iter()
                .map(|w| {
                    let spec: AiSpec =
                        w.player.parse().map_err(|e| refused(format!("{}: {e}", w.player)))?;
                    let member = members.iter().find(|m| m.player == w.player);
                    if member.is_none_or(|m| m.digest != spec.content_digest()) {
                        return Err(refused(format!(
                            "{} plays otherwise than when the report was made (its files changed)",
                            w.player
                        )));
                    }
                    if !(w.weight.is_finite() && (0.0..=1.0).contains(&w.weight)) {
                        return Err(refused(format!("{} has a weight outside 0 to 1", w.player)));
                    }
                    Ok(((w.weight * 1e6).round() as u32, spec))
                })
                .collect()
            };
        Ok(EquilibriumMix {
            path: path.to_string(),
            caesar: mix(&saved.caesar, &saved.caesar_mix)?,
            pompey: mix(&saved.pompey, &saved.pompey_mix)?,
        })
    }

    /// The member of `side`'s mix a game seeded `seed` plays.
    pub fn draw(&self, side: Side, seed: u64) -> &AiSpec {
        let mix = match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        };
        let total: u64 = mix.iter().map(|(w, _)| u64::from(*w)).sum();
        // Mixed apart from the player's own stream of the same seed.
        let mut target = super::mix64(seed ^ 0x4551_5549_4C49_4252) % total.max(1); // "EQUILIBR"
        for (w, spec) in mix {
            if target < u64::from(*w) {
                return spec;
            }
            target -= u64::from(*w);
        }
        &mix[mix.len() - 1].1
    }
}

/// A search on a player file's numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchOn {
    /// `Search`, `SearchTimed`, `Mcts` or `MctsTimed`.
    pub search: AiSpec,
    pub on: TunedHeuristic,
    /// A learned evaluation its playouts stop and are scored at
    /// (`search:16@FILE+VALUE`), kept whole as the numbers are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<LearnedValue>,
}

/// A learned evaluation, and the value file it was read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnedValue {
    pub path: String,
    pub model: super::ValueModel,
}

/// What a kind's name may be followed by after a `:`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum After {
    /// Nothing: `random:4` is refused.
    Nothing,
    /// A player file (`heuristic:FILE`).
    PlayerFile,
    /// A budget, `PLAYOUTS` or `MILLISms`, and how it makes the spec.
    Budget(fn(super::Budget) -> AiSpec),
}

/// One kind of player: the one table its name, the spellings the help and
/// errors list, parsing, [`Display`](std::fmt::Display) and the window's
/// menu and words all read.
#[derive(Debug)]
pub struct Kind {
    /// As the command line writes it, before any `:`.
    pub name: &'static str,
    /// The window's word for it.
    pub word: &'static str,
    /// What the help says of the bare name, if anything.
    note: &'static str,
    pub(crate) after: After,
    /// What the bare name makes: the window's menu entry for the kind.
    pub plain: AiSpec,
}

/// Every kind, weakest first (the window's menu order).
pub static KINDS: [Kind; 4] = [
    Kind {
        name: "random",
        word: "Random",
        note: "",
        after: After::Nothing,
        plain: AiSpec::Random,
    },
    Kind {
        name: "heuristic",
        word: "Heuristic",
        note: " (the default numbers)",
        after: After::PlayerFile,
        plain: AiSpec::Heuristic,
    },
    Kind {
        name: "search",
        word: "Search",
        note: "",
        after: After::Budget(|budget| match budget {
            super::Budget::Playouts(playouts) => AiSpec::Search { playouts },
            super::Budget::Millis(millis) => AiSpec::SearchTimed { millis },
        }),
        plain: AiSpec::Search {
            playouts: AiSpec::DEFAULT_SEARCH_PLAYOUTS,
        },
    },
    Kind {
        name: "mcts",
        word: "Tree search",
        note: " (mcts:0 plays its prior alone: the heuristic's choice, or a learned policy's)",
        after: After::Budget(|budget| match budget {
            super::Budget::Playouts(playouts) => AiSpec::Mcts { playouts },
            super::Budget::Millis(millis) => AiSpec::MctsTimed { millis },
        }),
        plain: AiSpec::Mcts {
            playouts: AiSpec::DEFAULT_MCTS_PLAYOUTS,
        },
    },
];

/// A measured balance's mixes (`equilibrium:REPORT`): not in [`KINDS`],
/// whose bare names the window's menu offers, as it needs a report.
pub(crate) static EQUILIBRIUM: Kind = Kind {
    name: "equilibrium",
    word: "Equilibrium mix",
    note: "",
    after: After::PlayerFile,
    plain: AiSpec::Heuristic,
};

/// How [`spellings`] writes what follows a `:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// Every form in full, with notes: the command line's help.
    Help,
    /// One short form each: error messages.
    Short,
}

/// Every spelling of every kind, as "a, b or c".
pub fn spellings(style: Spelling) -> String {
    let mut all = Vec::new();
    for kind in &KINDS {
        let name = kind.name;
        all.push(match style {
            Spelling::Help => format!("{name}{}", kind.note),
            Spelling::Short => name.to_string(),
        });
        match (kind.after, style) {
            (After::Nothing, _) => {}
            (After::PlayerFile, _) => all.push(format!("{name}:FILE")),
            (After::Budget(_), Spelling::Help) => {
                all.push(format!("{name}:PLAYOUTS"));
                all.push(format!("{name}:MILLISms"));
            }
            (After::Budget(_), Spelling::Short) => all.push(format!("{name}:N")),
        }
    }
    all.push(format!("{}:REPORT", EQUILIBRIUM.name));
    let last = all.pop().unwrap_or_default();
    format!("{} or {last}", all.join(", "))
}

impl AiSpec {
    /// The kind this spec is of (a search on a player file: its search's).
    pub fn kind(&self) -> &'static Kind {
        let name = match self {
            AiSpec::Random => "random",
            AiSpec::Heuristic | AiSpec::TunedHeuristic(_) => "heuristic",
            AiSpec::Search { .. } | AiSpec::SearchTimed { .. } => "search",
            AiSpec::Mcts { .. } | AiSpec::MctsTimed { .. } => "mcts",
            AiSpec::SearchOn(on) => return on.search.kind(),
            AiSpec::Equilibrium(_) => return &EQUILIBRIUM,
        };
        KINDS
            .iter()
            .find(|kind| kind.name == name)
            .expect("every kind is in KINDS")
    }

    /// A search's budget (`None` for a player that does not search, and for
    /// a search on a player file: see its `search`).
    pub(crate) fn budget(&self) -> Option<super::Budget> {
        match *self {
            AiSpec::Search { playouts } | AiSpec::Mcts { playouts } => {
                Some(super::Budget::Playouts(playouts))
            }
            AiSpec::SearchTimed { millis } | AiSpec::MctsTimed { millis } => {
                Some(super::Budget::Millis(millis))
            }
            _ => None,
        }
    }

    /// The numbers of the player file this spec plays by, if any: the
    /// heuristic's own or those a search plays on.
    pub fn numbers_file(&self) -> Option<&TunedHeuristic> {
        match self {
            AiSpec::TunedHeuristic(t) => Some(t),
            AiSpec::SearchOn(s) => Some(&s.on),
            _ => None,
        }
    }
    /// This search (`search` or `mcts`, either budget) on the numbers of
    /// the player file `on` (`search:32@FILE`); `None` for a player that
    /// does not search.
    pub fn on_numbers_of(&self, on: &TunedHeuristic) -> Option<AiSpec> {
        matches!(
            self,
            AiSpec::Search { .. }
                | AiSpec::SearchTimed { .. }
                | AiSpec::Mcts { .. }
                | AiSpec::MctsTimed { .. }
        )
        .then(|| {
            AiSpec::SearchOn(Box::new(SearchOn {
                search: self.clone(),
                on: on.clone(),
                value: None,
            }))
        })
    }

    /// The digest of what this player plays by: its kind and budget and the
    /// content of its player and value files, not their paths. A rating
    /// records it ([`crate::sim::players::ratings::Rating::player_digest`]), so a
    /// file replaced in place is not taken for the one that was measured.
    pub fn play_digest(&self) -> String {
        let mut unnamed = self.clone();
        match &mut unnamed {
            AiSpec::TunedHeuristic(t) => t.path.clear(),
            AiSpec::SearchOn(s) => {
                s.on.path.clear();
                if let Some(value) = &mut s.value {
                    value.path.clear();
                }
            }
            _ => {}
        }
        let text = ron::to_string(&unnamed).unwrap_or_else(|e| format!("unserialisable: {e}"));
        crate::scenario::format::digest_text(&text)
    }

    /// A content digest of the player as balance reports record it: what
    /// it plays by, not its files' names (as [`AiSpec::play_digest`], in
    /// the reports' own spelling).
    pub fn content_digest(&self) -> String {
        let mut spec = self.clone();
        match &mut spec {
            AiSpec::TunedHeuristic(t) => t.path.clear(),
            AiSpec::SearchOn(on) => {
                on.on.path.clear();
                if let Some(v) = &mut on.value {
                    v.path.clear();
                }
            }
            AiSpec::Equilibrium(mix) => mix.path.clear(),
            _ => {}
        }
        let text = serde_json::to_string(&spec).unwrap_or_default();
        crate::scenario::format::digest_text(&text)
    }

    pub(crate) const DEFAULT_SEARCH_PLAYOUTS: u32 = 32;
    pub(crate) const DEFAULT_MCTS_PLAYOUTS: u32 = 64;

    /// The heuristic with the numbers of the player file at `path`.
    pub fn player_file(
        path: &std::path::Path,
    ) -> Result<AiSpec, crate::scenario::format::LoadError> {
        Ok(AiSpec::TunedHeuristic(Box::new(TunedHeuristic {
            path: path.display().to_string(),
            numbers: super::PlayerNumbers::load(path)?,
        })))
    }

    /// Whether two specs make the same player: `search` is `search:32`, and
    /// a player file plays by its numbers, whatever its name (a file of the
    /// default numbers is the heuristic).
    pub fn plays_as(&self, other: &AiSpec) -> bool {
        let (plain_self, plain_other) = (self.plain(), other.plain());
        plain_self
            .as_ref()
            .unwrap_or(self)
            .plays_as_spelt(plain_other.as_ref().unwrap_or(other))
    }

    /// The plainer spelling of this player, if it has one: a search on a
    /// file of the default numbers with no value file is the plain search.
    fn plain(&self) -> Option<AiSpec> {
        match self {
            AiSpec::SearchOn(s)
                if s.value.is_none() && s.on.numbers == super::PlayerNumbers::default() =>
            {
                Some(s.search.clone())
            }
            _ => None,
        }
    }

    fn plays_as_spelt(&self, other: &AiSpec) -> bool {
        fn numbers(spec: &AiSpec) -> Option<super::PlayerNumbers> {
            match spec {
                AiSpec::Heuristic => Some(super::PlayerNumbers::default()),
                AiSpec::TunedHeuristic(t) => Some(t.numbers),
                _ => None,
            }
        }
        if let (AiSpec::SearchOn(a), AiSpec::SearchOn(b)) = (self, other) {
            let same_value =
                a.value.as_ref().map(|v| &v.model) == b.value.as_ref().map(|v| &v.model);
            return a.search == b.search && a.on.numbers == b.on.numbers && same_value;
        }
        match (numbers(self), numbers(other)) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self == other,
            _ => false,
        }
    }

    pub fn player(&self, side: Side, seed: u64, omniscient: bool) -> Box<dyn super::Player> {
        self.player_counting(side, seed, omniscient, None)
    }

    /// The player, as [`AiSpec::player`] makes it, whose searches count
    /// every playout into `playouts` (the window shows a search thinking);
    /// a player that does not search has none to count. Counting changes no
    /// decision: a player made either way plays the same games.
    pub fn player_counting(
        &self,
        side: Side,
        seed: u64,
        omniscient: bool,
        playouts: Option<Arc<AtomicU64>>,
    ) -> Box<dyn super::Player> {
        let value = match self {
            AiSpec::SearchOn(on) => on.value.as_ref().map(|v| Arc::new(v.model.clone())),
            _ => None,
        };
        let settings = self.numbers_file().and_then(|t| t.numbers.mcts);
        let (search, numbers) = match self {
            AiSpec::Equilibrium(mix) => {
                return mix
                    .draw(side, seed)
                    .player_counting(side, seed, omniscient, playouts);
            }
            AiSpec::Random => return Box::new(super::RandomPlayer::new(seed)),
            AiSpec::Heuristic => {
                return Box::new(super::HeuristicPlayer::new(side, seed, omniscient));
            }
            AiSpec::TunedHeuristic(tuned) => {
                return Box::new(
                    super::HeuristicPlayer::new(side, seed, omniscient)
                        .with_params(tuned.numbers.of(side)),
                );
            }
            AiSpec::SearchOn(on) => (
                &on.search,
                Some(Side::BOTH.map(|side| on.on.numbers.of(side))),
            ),
            search => (search, None),
        };
        let budget = |budget: u32, timed: bool| {
            if timed {
                super::Budget::Millis(budget)
            } else {
                super::Budget::Playouts(budget)
            }
        };
        match *search {
            AiSpec::Search { playouts: n } | AiSpec::SearchTimed { millis: n } => {
                let timed = matches!(search, AiSpec::SearchTimed { .. });
                let mut player =
                    super::SearchPlayer::with_budget(side, seed, omniscient, budget(n, timed));
                if let Some(numbers) = numbers {
                    player = player.on_numbers(numbers);
                }
                if let Some(on) = self.numbers_file() {
                    player = player.expecting(on.numbers.opponents);
                }
                if let Some(counter) = playouts {
                    player = player.counting_playouts(counter);
                }
                if let Some(value) = value {
                    player = player.scoring_with(value);
                }
                Box::new(player)
            }
            AiSpec::Mcts { playouts: n } | AiSpec::MctsTimed { millis: n } => {
                let timed = matches!(search, AiSpec::MctsTimed { .. });
                let mut player = super::MctsPlayer::new(side, seed, omniscient, budget(n, timed));
                if let Some(numbers) = numbers {
                    player = player.on_numbers(numbers);
                }
                if let Some(settings) = settings {
                    player = player.with_settings(settings);
                }
                if let Some(counter) = playouts {
                    player = player.counting_playouts(counter);
                }
                if let Some(value) = value {
                    player = player.scoring_with(value);
                }
                Box::new(player)
            }
            // A search on a player file holds a search (FromStr builds only
            // those); anything else plays as itself.
            ref other => other.player_counting(side, seed, omniscient, playouts),
        }
    }
}

impl AiSpec {
    /// This tree search as a player that writes down its searched group
    /// decisions into `recorder` (self-play for `learn-policy`); `None` for
    /// any other kind of player.
    pub(crate) fn recording_player(
        &self,
        side: Side,
        seed: u64,
        recorder: super::mcts::Recorder,
    ) -> Option<super::MctsPlayer> {
        let (search, numbers, value) = match self {
            AiSpec::SearchOn(on) => (
                &on.search,
                Some(Side::BOTH.map(|side| on.on.numbers.of(side))),
                on.value.as_ref().map(|v| Arc::new(v.model.clone())),
            ),
            search => (search, None, None),
        };
        let AiSpec::Mcts { playouts } = *search else {
            return None;
        };
        let mut player =
            super::MctsPlayer::new(side, seed, false, super::Budget::Playouts(playouts));
        if let Some(numbers) = numbers {
            player = player.on_numbers(numbers);
        }
        if let Some(settings) = self.numbers_file().and_then(|t| t.numbers.mcts) {
            player = player.with_settings(settings);
        }
        if let Some(value) = value {
            player = player.scoring_with(value);
        }
        Some(player.recording(recorder))
    }
}

impl std::fmt::Display for AiSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let AiSpec::SearchOn(on) = self {
            write!(f, "{}@{}", on.search, on.on.path)?;
            return match &on.value {
                Some(value) => write!(f, "+{}", value.path),
                None => Ok(()),
            };
        }
        f.write_str(self.kind().name)?;
        match (self, self.budget()) {
            (AiSpec::TunedHeuristic(tuned), _) => write!(f, ":{}", tuned.path),
            (AiSpec::Equilibrium(mix), _) => write!(f, ":{}", mix.path),
            (_, Some(super::Budget::Playouts(playouts))) => write!(f, ":{playouts}"),
            (_, Some(super::Budget::Millis(millis))) => write!(f, ":{millis}ms"),
            _ => Ok(()),
        }
    }
}

/// Why a text names no player (`--caesar-ai`, a record's players, the
/// ratings file).
#[derive(Debug, thiserror::Error)]
pub enum NotAPlayer {
    /// `did_you_mean` is empty or "; did you mean …?".
    #[error(
        "unknown AI \"{text}\"{did_you_mean}; expected {} (a search may add @FILE, and then +VALUE_FILE)",
        spellings(Spelling::Short)
    )]
    Unknown { text: String, did_you_mean: String },
    #[error("\"{name}\" takes no budget")]
    NoBudget { name: String },
    #[error(
        "\"{budget}\" is not a {what} budget: expected a whole number of {unit} from 1 to {max}, as in {example}",
        max = u32::MAX
    )]
    BadBudget {
        budget: String,
        what: &'static str,
        unit: &'static str,
        example: String,
    },
    #[error("{name}:{budget} is more than a search takes: at most {max} {unit}", max = u32::MAX)]
    TooLarge {
        name: String,
        budget: String,
        unit: &'static str,
    },
    #[error(
        "\"{text}\": only search and mcts play on a player file (@FILE); the heuristic takes one as heuristic:FILE"
    )]
    NotASearch { text: String },
    #[error(
        "\"{text}\": a value file (+VALUE) comes after the player file a search plays on: search:16@PLAYER_FILE+VALUE_FILE"
    )]
    ValueWithoutNumbers { text: String },
    /// `search:16@` or `heuristic:` with nothing after the separator.
    #[error("\"{text}\" names no {what} after the `{separator}`: write {example}")]
    NoFileName {
        text: String,
        what: &'static str,
        separator: char,
        example: String,
    },
    /// The balance report of `equilibrium:REPORT` does not hold a mix.
    #[error("{given}: {why}")]
    Report { given: String, why: String },
    /// The player file cannot be read (`given` is the spec as written).
    #[error("{given}: {error}")]
    File {
        given: String,
        error: Box<crate::scenario::format::LoadError>,
    },
}

/// `SEARCH@FILE` or `SEARCH@FILE+VALUE` (`text` whole, for messages): a
/// search on a player file's numbers, scored by a value file if given.
fn search_on_file(text: &str, search: &str, file: &str) -> Result<AiSpec, NotAPlayer> {
    let (file, value_file) = match file.split_once('+') {
        Some((file, value)) => (file, Some(value)),
        None => (file, None),
    };
    let missing = |what, separator, example: &str| NotAPlayer::NoFileName {
        text: text.to_string(),
        what,
        separator,
        example: example.to_string(),
    };
    if file.is_empty() {
        return Err(missing("player file", '@', "search:16@PLAYER_FILE"));
    }
    if value_file == Some("") {
        return Err(missing(
            "value file",
            '+',
            "search:16@PLAYER_FILE+VALUE_FILE",
        ));
    }
    let search: AiSpec = search.parse()?;
    if !matches!(
        search,
        AiSpec::Search { .. }
            | AiSpec::SearchTimed { .. }
            | AiSpec::Mcts { .. }
            | AiSpec::MctsTimed { .. }
    ) {
        let text = text.to_string();
        return Err(NotAPlayer::NotASearch { text });
    }
    let numbers = super::PlayerNumbers::load(std::path::Path::new(file)).map_err(|error| {
        NotAPlayer::File {
            given: text.to_string(),
            error: Box::new(error),
        }
    })?;
    let on = TunedHeuristic {
        path: std::path::Path::new(file).display().to_string(),
        numbers,
    };
    let value = match value_file {
        Some(path) => {
            let path = std::path::Path::new(path);
            let model = super::ValueModel::load(path).map_err(|error| NotAPlayer::File {
                given: text.to_string(),
                error: Box::new(error),
            })?;
            let path = path.display().to_string();
            Some(LearnedValue { path, model })
        }
        None => None,
    };
    Ok(AiSpec::SearchOn(Box::new(SearchOn { search, on, value })))
}

/// A player's text split by the grammar (`heuristic:FILE`,
/// `search:16@FILE+VALUE`) with no file read: for what handles a player's
/// spelling rather than the player (a report's identity, the file names a
/// fit's bundle holds). [`AiSpec`]'s parser reads the same grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecText<'a> {
    /// What comes before any file: `heuristic`, `mcts:64`, `random`.
    pub head: &'a str,
    /// The player file: after a kind's `:` where its row in [`KINDS`]
    /// takes one, or after a search's `@`.
    pub player_file: Option<&'a str>,
    /// The value file (`…@FILE+VALUE`).
    pub value_file: Option<&'a str>,
    /// Whether the files follow a search's `@`.
    on_search: bool,
}

impl<'a> SpecText<'a> {
    pub fn of(text: &'a str) -> SpecText<'a> {
        if let Some((head, files)) = text.split_once('@') {
            let (player, value) = match files.split_once('+') {
                Some((p, v)) => (p, Some(v)),
                None => (files, None),
            };
            return SpecText {
                head,
                player_file: Some(player),
                value_file: value,
                on_search: true,
            };
        }
        let file = text.split_once(':').filter(|(name, _)| {
            KINDS
                .iter()
                .any(|k| k.name == *name && matches!(k.after, After::PlayerFile))
        });
        match file {
            Some((head, file)) => SpecText {
                head,
                player_file: Some(file),
                value_file: None,
                on_search: false,
            },
            None => SpecText {
                head: text,
                player_file: None,
                value_file: None,
                on_search: false,
            },
        }
    }

    /// The heuristic on a player file's numbers, `heuristic:FILE`, with the
    /// file unread: for who names a file before it is written (a fit's
    /// bundle).
    pub fn heuristic_on(file: &'a str) -> SpecText<'a> {
        SpecText {
            head: AiSpec::Heuristic.kind().name,
            player_file: Some(file),
            value_file: None,
            on_search: false,
        }
    }

    /// A search (`search:16`, as [`AiSpec`]'s `Display` writes it) on a
    /// player file's numbers and maybe a value file's, `SEARCH@FILE+VALUE`,
    /// with no file read.
    pub fn search_on(search: &'a str, file: &'a str, value: Option<&'a str>) -> SpecText<'a> {
        SpecText {
            head: search,
            player_file: Some(file),
            value_file: value,
            on_search: true,
        }
    }

    /// The text itself, files and all: what [`SpecText::of`] reads back.
    pub fn text(&self) -> String {
        self.with_files(|file, _| Ok::<_, std::convert::Infallible>(file.to_string()))
            .unwrap_or_else(|never| match never {})
    }

    /// The text with its files' paths left out (`heuristic:FILE`,
    /// `mcts:64@FILE+VALUE`).
    pub fn without_paths(&self) -> String {
        self.with_files(|_, placeholder| Ok::<_, std::convert::Infallible>(placeholder.to_string()))
            .unwrap_or_else(|never| match never {})
    }

    /// The text with each file replaced by what `place` makes of it (given
    /// the file and its placeholder, `FILE` or `VALUE`).
    pub fn with_files<E>(
        &self,
        mut place: impl FnMut(&str, &str) -> Result<String, E>,
    ) -> Result<String, E> {
        let Some(player) = self.player_file else {
            return Ok(self.head.to_string());
        };
        let separator = if self.on_search { '@' } else { ':' };
        let mut text = format!("{}{separator}{}", self.head, place(player, "FILE")?);
        if let Some(value) = self.value_file {
            text += &format!("+{}", place(value, "VALUE")?);
        }
        Ok(text)
    }
}

impl AiSpec {
    /// The spec as the command line writes it, each file by its name alone
    /// (`mcts:64@tuned-rules-2.0.ron+value.ron`): the hover text of the
    /// window's words for a player, where a file's folder says nothing.
    pub fn text_with_file_names(&self) -> String {
        let text = self.to_string();
        SpecText::of(&text)
            .with_files(|file, _| Ok::<_, std::convert::Infallible>(file_name(file).to_string()))
            .unwrap_or_else(|never| match never {})
    }
}

/// A path's file name (the path itself when it has none).
fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

/// The start of a tuned player file's name: `tuned-RULES.ron`.
const TUNED: &str = "tuned-";
/// The start of a player file tuned per side: `tuned-sides-RULES.ron`.
const TUNED_SIDES: &str = "tuned-sides-";
/// The start of a player file fitted for a search: `search-base-RULES.ron`.
const SEARCH_BASE: &str = "search-base-";

/// What a player file's name says it holds, read as the shipped files and
/// the window's saved players are named (see [`tuned_file_stem`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerFileName<'a> {
    /// `tuned-RULES.ron`: the heuristic's numbers fitted for a rule set.
    Tuned { rules: &'a str },
    /// `tuned-sides-RULES.ron`: fitted for a rule set, per side.
    TunedPerSide { rules: &'a str },
    /// `search-base-RULES.ron`: numbers fitted for a search to play on.
    SearchBase { rules: &'a str },
    /// Any other name (the file name).
    Other(&'a str),
}

impl<'a> PlayerFileName<'a> {
    pub fn of(path: &'a str) -> PlayerFileName<'a> {
        let name = file_name(path);
        let stem = name.strip_suffix(".ron").unwrap_or(name);
        // `tuned-sides-` first: it starts with `tuned-` too.
        if let Some(rules) = stem.strip_prefix(TUNED_SIDES) {
            PlayerFileName::TunedPerSide { rules }
        } else if let Some(rules) = stem.strip_prefix(TUNED) {
            PlayerFileName::Tuned { rules }
        } else if let Some(rules) = stem.strip_prefix(SEARCH_BASE) {
            PlayerFileName::SearchBase { rules }
        } else {
            PlayerFileName::Other(name)
        }
    }

    /// Whether the file holds a tuned heuristic's numbers (per side or not).
    pub fn is_tuned(self) -> bool {
        matches!(
            self,
            PlayerFileName::Tuned { .. } | PlayerFileName::TunedPerSide { .. }
        )
    }

    /// In words: "fitted for rules 2.0", "fitted per side for rules 1.1",
    /// "fitted for search under rules 2.0"; any other file by its name.
    pub fn words(self) -> String {
        let rules = |r: &str| match r.strip_prefix("rules-") {
            Some(v) => format!("rules {v}"),
            None => r.to_string(),
        };
        match self {
            PlayerFileName::TunedPerSide { rules: r } => {
                format!("fitted per side for {}", rules(r))
            }
            PlayerFileName::Tuned { rules: r } => format!("fitted for {}", rules(r)),
            PlayerFileName::SearchBase { rules: r } => {
                format!("fitted for search under {}", rules(r))
            }
            PlayerFileName::Other(name) => name.to_string(),
        }
    }
}

/// The name (without `.ron`) a player tuned for `rule_set` is saved under.
pub fn tuned_file_stem(rule_set: &str) -> String {
    format!("{TUNED}{rule_set}")
}

impl FromStr for AiSpec {
    type Err = NotAPlayer;

    /// `random`, `heuristic`, `heuristic:FILE`, `search`, `search:PLAYOUTS`,
    /// `search:MILLISms`, `mcts`, `mcts:PLAYOUTS` or `mcts:MILLISms`; a
    /// search may add `@FILE` to play on a player file's numbers, and then
    /// `+VALUE` to score its playouts at a value file's horizon.
    fn from_str(text: &str) -> Result<AiSpec, NotAPlayer> {
        if !text.contains('@') && text.contains('+') {
            let text = text.to_string();
            return Err(NotAPlayer::ValueWithoutNumbers { text });
        }
        if let Some((search, file)) = text.split_once('@') {
            return search_on_file(text, search, file);
        }
        let (name, budget) = match text.split_once(':') {
            Some((n, b)) => (n, Some(b)),
            None => (text, None),
        };
        if name == EQUILIBRIUM.name {
            return match budget {
                None | Some("") => Err(NotAPlayer::NoFileName {
                    text: text.to_string(),
                    what: "balance report",
                    separator: ':',
                    example: "equilibrium:REPORT.json".to_string(),
                }),
                Some(path) => {
                    EquilibriumMix::load(path).map(|mix| AiSpec::Equilibrium(Box::new(mix)))
                }
            };
        }
        let Some(kind) = KINDS.iter().find(|kind| kind.name == name) else {
            return Err(NotAPlayer::Unknown {
                text: text.to_string(),
                did_you_mean: crate::scenario::names::did_you_mean(
                    name,
                    KINDS.iter().map(|kind| kind.name),
                ),
            });
        };
        match (kind.after, budget) {
            (_, None) => Ok(kind.plain.clone()),
            (After::Nothing, Some(_)) => Err(NotAPlayer::NoBudget {
                name: name.to_string(),
            }),
            (After::PlayerFile, Some("")) => Err(NotAPlayer::NoFileName {
                text: text.to_string(),
                what: "player file",
                separator: ':',
                example: format!("{name}:PLAYER_FILE"),
            }),
            (After::PlayerFile, Some(file)) => AiSpec::player_file(std::path::Path::new(file))
                .map_err(|error| NotAPlayer::File {
                    given: format!("{name}:{file}"),
                    error: Box::new(error),
                }),
            (After::Budget(make), Some(b)) => parse_budget(name, b).map(make),
        }
    }
}

/// The budget after `name:`: `PLAYOUTS` or `MILLISms`, from 1 to
/// [`u32::MAX`].
fn parse_budget(name: &str, b: &str) -> Result<super::Budget, NotAPlayer> {
    let (digits, unit, example) = match b.strip_suffix("ms") {
        Some(ms) => (ms, "milliseconds", format!("{name}:250ms")),
        None => (
            b,
            "playouts",
            format!("{name}:64 (or milliseconds, as in {name}:250ms)"),
        ),
    };
    // `mcts:0` is the tree search's prior alone (with a learned policy,
    // the distilled fast player): no other budget may be zero.
    let zero_allowed = name == "mcts" && unit == "playouts";
    let number = match digits.parse::<u128>() {
        Ok(n) if n > 0 || zero_allowed => n,
        _ => {
            let what = if unit == "playouts" {
                "playout"
            } else {
                "time"
            };
            return Err(NotAPlayer::BadBudget {
                budget: b.to_string(),
                what,
                unit,
                example,
            });
        }
    };
    let number = u32::try_from(number).map_err(|_| NotAPlayer::TooLarge {
        name: name.to_string(),
        budget: b.to_string(),
        unit,
    })?;
    Ok(if unit == "playouts" {
        super::Budget::Playouts(number)
    } else {
        super::Budget::Millis(number)
    })
}

/// A heuristic player's numbers (for each side), and the file they were
/// read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TunedHeuristic {
    pub path: String,
    pub numbers: super::PlayerNumbers,
}

#[cfg(test)]
mod equilibrium_tests {
    use super::{AiSpec, NotAPlayer};
    use crate::scenario::model::Side;

    const BUILT_IN: &str = "equilibrium:variants/players/balance-rules-2.0.json";

    #[test]
    fn an_equilibrium_player_draws_each_games_member_by_its_weight() {
        let spec: AiSpec = BUILT_IN.parse().unwrap();
        assert_eq!(spec.to_string(), BUILT_IN);
        let AiSpec::Equilibrium(mix) = &spec else {
            panic!("{spec:?}")
        };
        for side in Side::BOTH {
            let members = match side {
                Side::Caesar => &mix.caesar,
                Side::Pompey => &mix.pompey,
            };
            assert!(members.len() >= 2, "{side}: a mixed equilibrium");
            let games = 4000;
            for (weight, member) in members {
                let drawn = (0..games)
                    .filter(|&seed| mix.draw(side, seed) == member)
                    .count() as f64;
                let share = f64::from(*weight) / 1e6;
                assert!(
                    (drawn / games as f64 - share).abs() < 0.03,
                    "{side} {member}: drawn {drawn} of {games}, weight {share}"
                );
            }
            // The same seed draws the same member.
            assert_eq!(mix.draw(side, 7), mix.draw(side, 7));
        }
    }

    #[test]
    fn an_equilibrium_whose_players_changed_is_refused() {
        let text = crate::ai::shipped::BALANCES[1].1;
        let mut report: serde_json::Value = serde_json::from_str(text).unwrap();
        let player = report["caesar_mix"][0]["player"].clone();
        for m in report["caesar"].as_array_mut().unwrap() {
            if m["player"] == player {
                m["digest"] = "0000".into();
            }
        }
        let (_dir, path) = crate::test_support::temp_file("balance.json", report.to_string());
        let err = format!("equilibrium:{}", path.display())
            .parse::<AiSpec>()
            .unwrap_err();
        assert!(matches!(err, NotAPlayer::Report { .. }), "{err}");
        assert!(err.to_string().contains("plays otherwise"), "{err}");
        let err = "equilibrium:".parse::<AiSpec>().unwrap_err();
        assert!(err.to_string().contains("balance report"), "{err}");
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::{AiSpec, PlayerFileName, SpecText, tuned_file_stem};
    use crate::ai::{Player, decide};
    use crate::engine::{Action, State};

    #[test]
    fn a_spec_built_from_its_parts_reads_back_as_those_parts() {
        let on = SpecText::heuristic_on("fitted.ron");
        assert_eq!(on.text(), "heuristic:fitted.ron");
        assert_eq!(SpecText::of(&on.text()), on);
        let search = AiSpec::Search { playouts: 16 }.to_string();
        let both = SpecText::search_on(&search, "fitted.ron", Some("value.ron"));
        assert_eq!(both.text(), "search:16@fitted.ron+value.ron");
        assert_eq!(SpecText::of(&both.text()), both);
        let numbers = SpecText::search_on("mcts:64", "fitted.ron", None);
        assert_eq!(numbers.text(), "mcts:64@fitted.ron");
        assert_eq!(SpecText::of(&numbers.text()), numbers);
        // The parser reads the same grammar (the files are read, so a
        // shipped one).
        let shipped = "variants/players/tuned-rules-2.0.ron";
        let parsed: AiSpec = SpecText::heuristic_on(shipped).text().parse().unwrap();
        assert_eq!(parsed.to_string(), format!("heuristic:{shipped}"));
    }

    #[test]
    fn a_player_files_name_reads_as_the_shipped_files_are_named() {
        let words = |path: &str| PlayerFileName::of(path).words();
        assert_eq!(
            words("variants/players/tuned-rules-2.0.ron"),
            "fitted for rules 2.0"
        );
        assert_eq!(
            words("tuned-sides-rules-1.1.ron"),
            "fitted per side for rules 1.1"
        );
        assert_eq!(
            words("a/search-base-rules-2.0.ron"),
            "fitted for search under rules 2.0"
        );
        assert_eq!(words("tuned-house-2.0.ron"), "fitted for house-2.0");
        assert_eq!(words("folder/mine.ron"), "mine.ron");
        assert!(PlayerFileName::of("tuned-sides-rules-1.1.ron").is_tuned());
        assert!(!PlayerFileName::of("search-base-rules-2.0.ron").is_tuned());
        assert_eq!(
            PlayerFileName::of(&format!("{}.ron", tuned_file_stem("rules-2.0"))),
            PlayerFileName::Tuned { rules: "rules-2.0" }
        );
    }

    #[test]
    fn a_spec_with_file_names_leaves_out_the_folders_only() {
        let file = "variants/players/tuned-rules-2.0.ron";
        let tuned: AiSpec = format!("heuristic:{file}").parse().unwrap();
        assert_eq!(
            tuned.text_with_file_names(),
            "heuristic:tuned-rules-2.0.ron"
        );
        let on: AiSpec = format!("mcts:64@{file}").parse().unwrap();
        assert_eq!(on.text_with_file_names(), "mcts:64@tuned-rules-2.0.ron");
        assert_eq!(
            AiSpec::Mcts { playouts: 8 }.text_with_file_names(),
            "mcts:8"
        );
    }

    #[test]
    fn a_players_text_splits_into_its_head_and_files_by_the_grammar() {
        use super::SpecText;
        let on = SpecText::of("mcts:64@players/p.ron+v.ron");
        assert_eq!(on.head, "mcts:64");
        assert_eq!(on.player_file, Some("players/p.ron"));
        assert_eq!(on.value_file, Some("v.ron"));
        assert_eq!(on.without_paths(), "mcts:64@FILE+VALUE");
        let tuned = SpecText::of("heuristic:mine.ron");
        assert_eq!(
            (tuned.head, tuned.player_file),
            ("heuristic", Some("mine.ron"))
        );
        assert_eq!(tuned.without_paths(), "heuristic:FILE");
        // A budget is no file.
        let budget = SpecText::of("search:16");
        assert_eq!((budget.head, budget.player_file), ("search:16", None));
        assert_eq!(budget.without_paths(), "search:16");
        let moved = on.with_files(|file, _| Ok::<_, ()>(format!("dir/{file}")));
        assert_eq!(moved.unwrap(), "mcts:64@dir/players/p.ron+dir/v.ron");
    }
    use crate::scenario::model::Side;

    /// The first `decisions` actions of a game whose sides `make` makes.
    fn opening(make: impl Fn(Side, u64) -> Box<dyn Player>, decisions: usize) -> Vec<Action> {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, 11);
        let mut players = Side::BOTH.map(|side| make(side, 20 + side.index() as u64));
        let (mut legal, mut played) = (Vec::new(), Vec::new());
        while let Some(side) = state.current_player() {
            if played.len() == decisions {
                break;
            }
            state.legal_actions(&game, &mut legal);
            let action = decide(&mut players[side.index()], &game, &state, &legal);
            state.apply(&game, action);
            played.push(action);
        }
        played
    }

    #[test]
    fn every_kind_reads_back_as_it_writes_and_is_its_own_kind() {
        for kind in &super::KINDS {
            assert_eq!(kind.plain.kind().name, kind.name);
            let written = kind.plain.to_string();
            assert_eq!(written.parse::<AiSpec>().unwrap(), kind.plain, "{written}");
            assert!(super::spellings(super::Spelling::Short).contains(kind.name));
            if let super::After::Budget(make) = kind.after {
                for budget in [crate::ai::Budget::Playouts(5), crate::ai::Budget::Millis(7)] {
                    let spec = make(budget);
                    assert_eq!(spec.budget(), Some(budget));
                    assert_eq!(spec.to_string().parse::<AiSpec>().unwrap(), spec);
                }
            }
        }
    }

    #[test]
    fn a_player_counting_its_playouts_plays_as_the_plain_one() {
        // The shipped copy, built into the program.
        let file = "variants/players/tuned-rules-2.0.ron";
        let specs = [
            "heuristic".to_string(),
            "search:3".to_string(),
            "mcts:3".to_string(),
            format!("search:3@{file}"),
            format!("mcts:3@{file}"),
        ];
        for text in specs {
            let spec: AiSpec = text.parse().unwrap();
            let counter = Arc::new(AtomicU64::new(0));
            let plain = opening(|side, seed| spec.player(side, seed, false), 40);
            let counted = opening(
                |side, seed| spec.player_counting(side, seed, false, Some(counter.clone())),
                40,
            );
            assert_eq!(plain, counted, "{text}");
            let searches = text != "heuristic";
            assert_eq!(
                counter.load(Ordering::Relaxed) > 0,
                searches,
                "{text}: a search counts its playouts, the heuristic has none"
            );
        }
    }
}
