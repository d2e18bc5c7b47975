//! What the validator says about a scenario: findings, each with a
//! [`Severity`], a stable [`Code`], a message, where it is in the files
//! ([`Location`]) and what it is about ([`Subject`]), so a tool or the editor
//! can act on it without reading the message or the file again.
//!
//! This module sits below the model and the validator: both build findings,
//! neither needs the other for it. It depends only on the file format (for
//! [`Side`] and [`Location`], which the loader's errors also use).

use std::fmt;

use serde::Serialize;

use crate::scenario::format::Location;
use crate::scenario::kinds::Side;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The scenario cannot be played as written.
    Error,
    /// The scenario departs from the published game (perhaps on purpose).
    Warning,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

display_as!(Severity, label);

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, $severity:ident; )*) => {
        /// The stable code of a finding. Written (in messages and `--json`)
        /// as its kebab-case name; `docs/formats.md` documents every one.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in the order the documentation lists them
            /// (errors, then warnings).
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The code as written: `"unknown-name"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $text, )*
                }
            }

            /// Every finding of a code has the same severity.
            pub fn severity(self) -> Severity {
                match self {
                    $( Code::$variant => Severity::$severity, )*
                }
            }
        }
    };
}

codes! {
    /// A link, deployment or levy city names no known space or block.
    UnknownName = "unknown-name", Error;
    /// A space, alias, block (within a side) or event card is defined twice.
    DuplicateName = "duplicate-name", Error;
    /// Two links join the same two spaces.
    DuplicateLink = "duplicate-link", Error;
    /// A link joins a space to itself.
    SelfLink = "self-link", Error;
    /// A major/minor road or strait has a sea at one end.
    RoadTouchesSea = "road-touches-sea", Error;
    /// A sea border joins two cities.
    SeaBorderBetweenCities = "sea-border-between-cities", Error;
    /// An inland city borders a sea.
    InlandCityOnSea = "inland-city-on-sea", Error;
    /// A port borders no sea.
    PortWithoutSea = "port-without-sea", Error;
    /// A sea carries VP.
    SeaWithVp = "sea-with-vp", Error;
    /// A land block is deployed in a sea.
    LandBlockAtSea = "land-block-at-sea", Error;
    /// A Navis is deployed in an inland city.
    NavisInland = "navis-inland", Error;
    /// A block appears twice in one deployment.
    DeployedTwice = "deployed-twice", Error;
    /// 4.21: blocks of both sides are deployed in one city or sea.
    BothSidesDeployed = "both-sides-deployed", Error;
    /// A block's levy city is unknown, a sea, or missing where 6.4 requires one.
    BadLevyCity = "bad-levy-city", Error;
    /// Firepower outside 1-6, or strength outside I-IV.
    BadRating = "bad-rating", Error;
    /// A side has no leader.
    MissingLeader = "missing-leader", Error;
    /// More spaces than the engine holds.
    TooManySpaces = "too-many-spaces", Error;
    /// More blocks than the engine holds.
    TooManyBlocks = "too-many-blocks", Error;
    /// Fewer cards than two hands.
    DeckTooSmall = "deck-too-small", Error;
    /// More cards than the engine deals from.
    DeckTooLarge = "deck-too-large", Error;
    /// The variant's `removed_cards` names no card of the deck.
    BadRemovedCard = "bad-removed-card", Error;
    /// The variant's game has no year.
    NoYears = "no-years", Error;
    /// The variant's year has no game turn.
    NoTurns = "no-turns", Error;
    /// The variant's discards leave no card to play.
    NoCardToPlay = "no-card-to-play", Error;
    /// The variant's battles have no round in which attackers may retreat.
    TooFewBattleRounds = "too-few-battle-rounds", Error;
    /// The variant's cap on events per hand cannot be dealt from the deck.
    EventCapUndealable = "event-cap-undealable", Error;
    /// A rule-set number outside the range of the table of rule fields.
    RuleOutOfRange = "rule-out-of-range", Error;
    /// A space, block or rule set named by an empty name, only spaces, or
    /// invisible characters.
    BadName = "bad-name", Error;
    /// A space placed outside the map's canvas.
    OffCanvas = "off-canvas", Error;
    /// A command card whose move or levy points are more than a card holds.
    BadCommandCard = "bad-command-card", Error;
    /// 5.3: a city holds a different number of a side's blocks.
    FreeDeploymentCount = "free-deployment-count", Error;
    /// 5.3: a block from the levy pool was deployed.
    FreeDeploymentSubstitution = "free-deployment-substitution", Error;
    /// 5.3: a block of the order of battle was left out.
    FreeDeploymentMissing = "free-deployment-missing", Error;
    /// A starting strength that cannot be.
    BadStrength = "bad-strength", Error;
    /// Not 13 VP in 11 cities.
    VpTotal = "vp-total", Warning;
    /// Not 9 seas.
    SeaCount = "sea-count", Warning;
    /// A sea's ports differ from the rules' Ports sidebar.
    SeaPorts = "sea-ports", Warning;
    /// Not the four published straits.
    Straits = "straits", Warning;
    /// Utica or Creta does not border 3 seas, or another port does.
    ThreeSeaPorts = "three-sea-ports", Warning;
    /// Pergamum is a port.
    PergamumPort = "pergamum-port", Warning;
    /// A published island city is not marked as on its island.
    Islands = "islands", Warning;
    /// A road (not a strait) joins an island city to another land.
    IslandByLand = "island-by-land", Warning;
    /// Spaces cannot be reached from the rest of the map.
    Unreachable = "unreachable", Warning;
    /// A deployed block starts below full strength.
    ReducedStrength = "reduced-strength", Warning;
    /// A deployment puts more blocks in a city than it supplies in winter.
    WinterSupply = "winter-supply", Warning;
    /// A strait has no name.
    UnnamedStrait = "unnamed-strait", Warning;
    /// A command card with move 0 and levy 0.
    EmptyCommandCard = "empty-command-card", Warning;
    /// Not 7 event and 20 command cards.
    DeckComposition = "deck-composition", Warning;
    /// A rule-set value that makes every game the same (a game won in its
    /// first year, a target no side can reach, no moves by road).
    DegenerateRule = "degenerate-rule", Warning;
}

impl Code {
    /// The code written as `text` (`"unknown-name"`).
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == text)
    }
}

display_as!(Code, as_str);

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Codes compare with their written form, so `f.code == "unknown-name"` reads
/// as it did when codes were strings.
impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A deployment section of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Deployment {
    /// 5.1: the historical deployment.
    OrderOfBattle,
    /// 5.3: a free deployment.
    FreeDeployment,
}

impl Deployment {
    /// The section's name in a scenario file.
    pub fn field(self) -> &'static str {
        match self {
            Deployment::OrderOfBattle => "order_of_battle",
            Deployment::FreeDeployment => "free_deployment",
        }
    }
}

display_as!(Deployment, field);

/// What a finding is about, by the names the files use. The editor selects
/// it; `--json` reports it as `"subject": {"kind": "link", "a": ..., "b": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Subject {
    /// A space, by its map name.
    Space { name: String },
    /// A link, by its two ends (map names where they resolve).
    Link { a: String, b: String },
    /// A block of the roster.
    Block { side: Side, name: String },
    /// One side's roster as a whole.
    Roster { side: Side },
    /// An entry of a deployment: a city of one side's list, and the block
    /// named there when the finding is about one.
    Placement {
        section: Deployment,
        side: Side,
        space: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        block: Option<String>,
    },
    /// A deployment as a whole (for one side).
    Deployment {
        section: Deployment,
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
    },
    /// A starting strength given in a deployment.
    Strength {
        section: Deployment,
        side: Side,
        block: String,
    },
    /// The deck, or one of its cards ("Jupiter", "2/3").
    Deck {
        #[serde(skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// The rule set the scenario is checked under.
    RuleSet { name: String },
    /// The map as a whole.
    Map,
}

/// One thing the validator found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
}

impl Finding {
    /// A finding of `code` (with the code's severity), not yet located.
    pub fn new(code: Code, message: impl Into<String>) -> Finding {
        Finding {
            severity: code.severity(),
            code,
            message: message.into(),
            location: None,
            subject: None,
        }
    }

    /// The same finding, about `subject`.
    pub fn about(mut self, subject: Subject) -> Finding {
        self.subject = Some(subject);
        self
    }

    /// The same finding, at `location` (if known).
    pub fn at(mut self, location: Option<Location>) -> Finding {
        self.location = location;
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_written_as_before_and_parse_back() {
        assert_eq!(Code::UnknownName.to_string(), "unknown-name");
        assert_eq!(
            serde_json::to_string(&Code::TooManySpaces).unwrap(),
            "\"too-many-spaces\""
        );
        for &code in Code::ALL {
            assert_eq!(Code::parse(code.as_str()), Some(code));
            assert!(
                code.as_str()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-')
            );
        }
        let mut written: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        written.sort();
        written.dedup();
        assert_eq!(written.len(), Code::ALL.len(), "codes are distinct");
    }

    #[test]
    fn a_finding_prints_and_serialises_as_before() {
        let f = Finding::new(Code::SeaWithVp, "sea \"X\" has 1 VP")
            .at(Some(Location {
                file: "m.ron".into(),
                line: 3,
                column: 7,
            }))
            .about(Subject::Space { name: "X".into() });
        assert_eq!(
            f.to_string(),
            "m.ron:3:7: error[sea-with-vp]: sea \"X\" has 1 VP"
        );
        assert_eq!(
            serde_json::to_string(&f).unwrap(),
            r#"{"severity":"error","code":"sea-with-vp","message":"sea \"X\" has 1 VP","location":{"file":"m.ron","line":3,"column":7},"subject":{"kind":"space","name":"X"}}"#
        );
    }
}
