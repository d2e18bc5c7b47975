//! The game's vocabulary: the kinds of spaces, links, blocks and cards, and
//! the two sides. Every layer speaks it (files, model, engine, AI, window), so
//! it depends on nothing but serde.

use serde::{Deserialize, Serialize};

/// A strength as the blocks print it: I to VI, other numbers as digits
/// (0, or more than a block holds, in a document being edited).
pub fn roman(n: u8) -> String {
    match n {
        1..=6 => ["I", "II", "III", "IV", "V", "VI"][usize::from(n) - 1].to_string(),
        n => n.to_string(),
    }
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

display_as!(Side, label);

/// A side that is not `caesar` or `pompey`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" is not a side: caesar or pompey{}", crate::scenario::names::did_you_mean(text, ["caesar", "pompey"]))]
pub struct NotASide {
    pub text: String,
}

impl std::str::FromStr for Side {
    type Err = NotASide;

    /// `caesar` or `pompey`, in any case, with spaces around allowed.
    fn from_str(text: &str) -> Result<Side, NotASide> {
        match text.trim().to_ascii_lowercase().as_str() {
            "caesar" => Ok(Side::Caesar),
            "pompey" => Ok(Side::Pompey),
            other => Err(NotASide {
                text: other.to_string(),
            }),
        }
    }
}

/// 7.4: the firepower a block may have (a d6 hits on 1 to its firepower).
/// The validator and the roster editor both use this range.
pub const FIREPOWER: std::ops::RangeInclusive<u8> = 1..=6;

/// 3.11: blocks have strength I to IV at most (full strength, as printed).
pub(crate) const MAX_STRENGTH: u8 = 4;

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
    pub const ALL: [BlockKind; 8] = [
        BlockKind::Leader,
        BlockKind::Legion,
        BlockKind::Auxilia,
        BlockKind::Equitatus,
        BlockKind::Elephant,
        BlockKind::Ballista,
        BlockKind::Navis,
        BlockKind::Cleopatra,
    ];

    /// The full strengths, in steps, a block of this kind may have: 1 up
    /// to [`MAX_STRENGTH`] as printed (3.11; the elephant's steps count two).
    pub fn step_range(self) -> std::ops::RangeInclusive<u8> {
        1..=MAX_STRENGTH / self.strength_per_step()
    }

    /// Land blocks are everything but Navis (4.1: Navis stay at sea or in ports).
    pub(crate) fn is_land(self) -> bool {
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
    pub const ALL: [Initiative; 4] = [Initiative::A, Initiative::B, Initiative::C, Initiative::D];

    pub fn letter(self) -> char {
        match self {
            Initiative::A => 'A',
            Initiative::B => 'B',
            Initiative::C => 'C',
            Initiative::D => 'D',
        }
    }

    /// A combat rating as printed: "C3", or with another letter when
    /// attacking (7.42: the ballista's "B4/D4").
    pub fn rating(self, attacking: Option<Initiative>, firepower: u8) -> String {
        match attacking {
            Some(att) => format!("{}{firepower}/{}{firepower}", self.letter(), att.letter()),
            None => format!("{}{firepower}", self.letter()),
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
    /// How many event cards there are: one past the last.
    pub const COUNT: usize = Event::Vulcan as usize + 1;
    pub const ALL: [Event; Event::COUNT] = [
        Event::Apollo,
        Event::Jupiter,
        Event::Mars,
        Event::Mercury,
        Event::Neptune,
        Event::Pluto,
        Event::Vulcan,
    ];
}
