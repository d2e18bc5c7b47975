//! The heuristic's numbers as data: what it values, how boldly it attacks,
//! how much it garrisons, which cards and levies it prefers.
//!
//! [`HeuristicParams::default`] is the hand-set player every report has used;
//! `caesar-workbench tune` fits the numbers to a variant by self-play and
//! writes them as a player file (RON) that `heuristic:FILE` plays. A file may
//! name only the numbers it changes: the rest keep their defaults.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::scenario::format::{self, LoadError, Location};
use crate::scenario::model::Side;

/// Declares the parameters once: the struct, its defaults and its names in
/// order, so the tuner's vector and the file can never disagree.
macro_rules! heuristic_params {
    ($( $(#[$doc:meta])* $name:ident : $default:expr ),* $(,)?) => {
        /// Every number the heuristic player decides by (all positive).
        #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct HeuristicParams {
            $( $(#[$doc])* pub $name: f32, )*
        }

        impl Default for HeuristicParams {
            fn default() -> HeuristicParams {
                HeuristicParams { $( $name: $default, )* }
            }
        }

        impl HeuristicParams {
            /// The parameters' names, in the order of [`HeuristicParams::values`].
            pub(crate) const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The numbers in [`HeuristicParams::NAMES`] order.
            pub fn values(&self) -> Vec<f32> {
                vec![$(self.$name),*]
            }

            /// The parameters with `values` in [`HeuristicParams::NAMES`] order.
            ///
            /// # Panics
            /// If `values` has fewer numbers than there are parameters.
            pub(crate) fn from_values(values: &[f32]) -> HeuristicParams {
                let mut next = values.iter().copied();
                HeuristicParams {
                    $( $name: next.next().expect("one value per parameter"), )*
                }
            }
        }
    };
}

heuristic_params! {
    // How boldly groups move.
    /// Attack when our strength is at least this multiple of the defender's.
    attack_ratio: 1.25,
    /// Scales the garrison kept in threatened friendly VP cities.
    garrison: 1.0,
    /// Share of the threat next door a threatened VP city keeps as garrison.
    garrison_share: 0.5,
    /// The garrison is at most this plus the city's VP (before `garrison`).
    garrison_cap: 2.0,
    /// Strength assumed for an enemy block not seen (4.0: fog of war).
    unseen_strength: 2.5,

    // What a space is worth to a group.
    /// Per VP of an enemy-held city.
    enemy_city_vp: 10.0,
    /// For any enemy-held space.
    enemy_space: 4.0,
    /// Per VP of a vacant city.
    vacant_city_vp: 9.0,
    /// For any vacant space.
    vacant_space: 1.0,
    /// Per VP of a threatened own city, to reinforce it.
    defend_vp: 6.0,
    /// Per VP of an enemy city next door, to mass in an own city before attacking.
    stage_vp: 4.0,
    /// An enemy space too strong for the group, approached from afar: its share.
    close_in: 0.15,
    /// An enemy space more than one move away that the group can beat: its share.
    distant_attack: 0.3,
    /// A target more threatened than the group can hold: its share.
    threatened_target: 0.3,
    /// A group whose best plan scores no more than this is not moved.
    least_group_score: 0.05,
    /// An amphibious move's share of its port's value (6.3).
    amphibious: 0.25,
    /// Per friendly port (plus its VP) of holding a sea.
    sea_hold: 0.2,
    /// For attacking enemy navis at sea (6.2).
    naval_attack: 2.0,

    // Cards (4.1), as a card to play; the lowest is discarded first.
    /// Per levy point of a command card (its moves count one each).
    card_levy: 0.6,
    /// Jupiter.
    card_jupiter: 3.3,
    /// Mars.
    card_mars: 3.3,
    /// Mercury.
    card_mercury: 3.3,
    /// Pluto.
    card_pluto: 3.3,
    /// Vulcan.
    card_vulcan: 3.0,
    /// Apollo.
    card_apollo: 2.5,
    /// Neptune.
    card_neptune: 1.5,
    /// Neptune, when own navis could attack enemy navis next door.
    card_neptune_naval: 3.0,

    // Levies (4.3).
    /// Per enemy strength next door: where levies go first.
    levy_front: 0.3,
    /// A step added to a block, per firepower letter (A=1 … D=4).
    add_step_firepower: 0.5,
    /// A step added to a block, whatever its firepower.
    add_step: 1.0,
    /// A new navis.
    levy_navis: 0.6,
    /// A new land block, whatever its firepower.
    levy_land: 1.2,
    /// A new land block, per firepower letter.
    levy_land_firepower: 0.4,

    // Battles and events.
    /// Retreat when the enemy is this many times stronger (7.5).
    retreat_ratio: 1.5,
    /// Per enemy strength at a Jupiter or Vulcan target.
    strike_enemy: 2.0,
    /// Per own strength at a Jupiter or Vulcan target (to spare them).
    strike_own: 3.0,
}

/// Sound: every number is finite ([`HeuristicParams::check`] refuses NaN).
impl Eq for HeuristicParams {}

impl HeuristicParams {
    /// Reads a player file of one set of numbers for both sides. Unknown
    /// names are errors with a did-you-mean; every number must be finite and
    /// positive. [`PlayerNumbers::load`] reads a file of either form.
    pub fn load(path: &Path) -> Result<HeuristicParams, LoadError> {
        let text = super::shipped::read_text(path)?;
        let params: HeuristicParams = format::parse_ron(path, &text)?;
        checked(path, &text, 0, params)
    }

    /// The first parameter that is not a finite positive number, and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        for (name, value) in Self::NAMES.iter().zip(self.values()) {
            if !(value.is_finite() && value > 0.0) {
                let what = if value.is_infinite() {
                    "too large: the numbers are 32-bit, at most about 3.4e38".to_string()
                } else if value.is_nan() {
                    "not a number".to_string()
                } else {
                    value.to_string()
                };
                return Err((
                    name,
                    format!("`{name}` is {what}: expected a positive number"),
                ));
            }
        }
        Ok(())
    }

    /// The file text: a comment `header`, then every parameter, one a line.
    pub fn to_ron(&self, header: &str) -> String {
        format!("{}(\n{})\n", comment(header), self.fields("    "))
    }

    /// Every parameter, one a line, each line starting with `indent`.
    fn fields(&self, indent: &str) -> String {
        Self::NAMES
            .iter()
            .zip(self.values())
            .map(|(name, value)| format!("{indent}{name}: {value:?},\n"))
            .collect()
    }
}

/// `header` as RON line comments.
fn comment(header: &str) -> String {
    header.lines().map(|line| format!("// {line}\n")).collect()
}

/// `params`, or where in `text` (from line `from`, 0-based) the first
/// number that is not finite and positive stands, and why.
fn checked(
    path: &Path,
    text: &str,
    from: usize,
    params: HeuristicParams,
) -> Result<HeuristicParams, LoadError> {
    params
        .check()
        .map_err(|(name, message)| field_error(path, text, from, name, message))?;
    Ok(params)
}

/// A parse error at the first `name:` in `text` from line `from` (0-based).
fn field_error(path: &Path, text: &str, from: usize, name: &str, message: String) -> LoadError {
    let (line, column) = locate_field(text, from, name).unwrap_or((from + 1, 1));
    LoadError::Parse {
        location: Location {
            file: path.to_path_buf(),
            line,
            column,
        },
        message,
    }
}

/// Line and column (1-based) of the first `name:` in `text` from line
/// `from` (0-based) on.
fn locate_field(text: &str, from: usize, name: &str) -> Option<(usize, usize)> {
    let field = |line: &str| {
        line.match_indices(name).map(|(col, _)| col).find(|&col| {
            let before = line[..col].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && line[col + name.len()..].trim_start().starts_with(':')
        })
    };
    text.lines()
        .enumerate()
        .skip(from)
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .find_map(|(i, line)| field(line).map(|col| (i + 1, col + 1)))
}

/// The numbers a player plays each side by: one set for both (the file
/// form `(attack_ratio: …)`), or a set per side (`(caesar: (…), pompey:
/// (…))`): Caesar attacks for 1 VP against 7 while Pompey holds, and a side
/// tuned on its own plays its own game. A side a file leaves out plays the
/// defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayerNumbers {
    pub caesar: HeuristicParams,
    pub pompey: HeuristicParams,
    /// The tree search's own settings (`mcts:N@FILE` searches by them), when
    /// the file has an `mcts:` section (`tune --search` writes one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcts: Option<MctsParams>,
    /// Whom a search on these numbers expects to meet: its playouts play
    /// the other side by one of these, drawn per sampled world by weight,
    /// instead of by the other side's numbers above (`balance` writes it
    /// for a search that is a best response to an equilibrium mix).
    #[serde(default, skip_serializing_if = "OpponentMix::is_empty")]
    pub opponents: OpponentMix,
}

/// At most this many opponents in a player file's mix: a balance keeps the
/// heaviest of an equilibrium's members.
pub const MAX_OPPONENTS: usize = 4;

/// A mix of opponents' numbers with integer weights (thousandths), so that
/// a player file stays `Copy` and compares exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OpponentMix {
    len: u8,
    weights: [u16; MAX_OPPONENTS],
    numbers: [HeuristicParams; MAX_OPPONENTS],
}

/// One opponent of a mix, as a player file writes it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedNumbers {
    /// Its share of the playouts, in thousandths.
    pub weight: u16,
    pub numbers: HeuristicParams,
}

impl OpponentMix {
    /// The mix of `members` (weights in any unit), keeping the
    /// [`MAX_OPPONENTS`] heaviest and rounding their weights to thousandths
    /// of their total; `None` if no member has weight.
    pub fn of(members: &[(f64, HeuristicParams)]) -> Option<OpponentMix> {
        let mut kept: Vec<&(f64, HeuristicParams)> = members
            .iter()
            .filter(|(w, _)| w.is_finite() && *w > 0.0)
            .collect();
        kept.sort_by(|a, b| b.0.total_cmp(&a.0));
        kept.truncate(MAX_OPPONENTS);
        let total: f64 = kept.iter().map(|(w, _)| w).sum();
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let mut mix = OpponentMix::default();
        for (w, numbers) in kept {
            let weight = ((w / total) * 1000.0).round().max(1.0) as u16;
            mix.weights[usize::from(mix.len)] = weight;
            mix.numbers[usize::from(mix.len)] = *numbers;
            mix.len += 1;
        }
        Some(mix)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn members(&self) -> impl Iterator<Item = WeightedNumbers> + '_ {
        (0..usize::from(self.len)).map(|i| WeightedNumbers {
            weight: self.weights[i],
            numbers: self.numbers[i],
        })
    }

    /// The member a uniform draw `u` in [0, 1) picks, by weight.
    pub fn pick(&self, u: f64) -> Option<HeuristicParams> {
        let total: u32 = self.weights[..usize::from(self.len)]
            .iter()
            .map(|&w| u32::from(w))
            .sum();
        let mut target = u * f64::from(total);
        for i in 0..usize::from(self.len) {
            target -= f64::from(self.weights[i]);
            if target < 0.0 {
                return Some(self.numbers[i]);
            }
        }
        (self.len > 0).then(|| self.numbers[usize::from(self.len) - 1])
    }

    fn from_members(path: &Path, members: Vec<WeightedNumbers>) -> Result<OpponentMix, LoadError> {
        let bad = |message: String| LoadError::Parse {
            location: Location {
                file: path.to_path_buf(),
                line: 1,
                column: 1,
            },
            message,
        };
        if members.len() > MAX_OPPONENTS {
            return Err(bad(format!(
                "opponents: at most {MAX_OPPONENTS} are kept, got {}",
                members.len()
            )));
        }
        let mut mix = OpponentMix::default();
        for m in members {
            if m.weight == 0 {
                return Err(bad(
                    "opponents: every weight must be at least 1 (thousandths)".into(),
                ));
            }
            m.numbers
                .check()
                .map_err(|(name, why)| bad(format!("opponents: {name}: {why}")))?;
            mix.weights[usize::from(mix.len)] = m.weight;
            mix.numbers[usize::from(mix.len)] = m.numbers;
            mix.len += 1;
        }
        Ok(mix)
    }
}

impl Serialize for OpponentMix {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.members())
    }
}

impl<'de> Deserialize<'de> for OpponentMix {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let members = Vec::<WeightedNumbers>::deserialize(deserializer)?;
        OpponentMix::from_members(Path::new("(player file)"), members)
            .map_err(serde::de::Error::custom)
    }
}

/// The per-side form of a player file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SidedFile {
    #[serde(default)]
    caesar: Option<HeuristicParams>,
    #[serde(default)]
    pompey: Option<HeuristicParams>,
    #[serde(default)]
    mcts: Option<MctsParams>,
    #[serde(default)]
    opponents: Vec<WeightedNumbers>,
}

impl PlayerNumbers {
    /// One set of numbers for both sides.
    pub fn both(params: HeuristicParams) -> PlayerNumbers {
        PlayerNumbers {
            caesar: params,
            pompey: params,
            mcts: None,
            opponents: OpponentMix::default(),
        }
    }

    /// The numbers `side` plays by.
    pub fn of(&self, side: Side) -> HeuristicParams {
        match side {
            Side::Caesar => self.caesar,
            Side::Pompey => self.pompey,
        }
    }

    /// These numbers with `side`'s replaced by `params`.
    pub fn with(mut self, side: Side, params: HeuristicParams) -> PlayerNumbers {
        match side {
            Side::Caesar => self.caesar = params,
            Side::Pompey => self.pompey = params,
        }
        self
    }

    /// The one set both sides play by, if they play by the same.
    pub fn one_for_both(&self) -> Option<HeuristicParams> {
        (self.caesar == self.pompey).then_some(self.caesar)
    }

    /// Reads a player file of either form (a file with a `caesar:`,
    /// `pompey:` or `mcts:` field is per side). Errors as
    /// [`HeuristicParams::load`]'s, located in the side's part of the file.
    pub fn load(path: &Path) -> Result<PlayerNumbers, LoadError> {
        let text = super::shipped::read_text(path)?;
        // The form is told by the file's own top-level fields, parsed (a
        // comment that says `caesar:` makes no per-side file).
        let index = format::SourceIndex::new(&text);
        let side_line = |name: &str| {
            index
                .label(name)
                .map(|offset| index.line_column(&text, offset).0 - 1)
        };
        let (caesar_at, pompey_at) = (side_line("caesar"), side_line("pompey"));
        let mcts_at = side_line("mcts");
        let opponents_at = side_line("opponents");
        if caesar_at.is_none() && pompey_at.is_none() && mcts_at.is_none() && opponents_at.is_none()
        {
            let params: HeuristicParams = format::parse_ron(path, &text)?;
            return Ok(PlayerNumbers::both(checked(path, &text, 0, params)?));
        }
        let file: SidedFile = format::parse_ron(path, &text)?;
        let side = |params: Option<HeuristicParams>, at: Option<usize>| match params {
            Some(params) => checked(path, &text, at.unwrap_or(0), params),
            None => Ok(HeuristicParams::default()),
        };
        if let Some(mcts) = &file.mcts {
            let at = mcts_at.unwrap_or(0);
            mcts.check()
                .map_err(|(name, message)| field_error(path, &text, at, name, message))?;
        }
        Ok(PlayerNumbers {
            caesar: side(file.caesar, caesar_at)?,
            pompey: side(file.pompey, pompey_at)?,
            mcts: file.mcts,
            opponents: OpponentMix::from_members(path, file.opponents)?,
        })
    }

    /// The file text: a comment `header`, then the numbers, in the one-set
    /// form when both sides play by the same.
    pub fn to_ron(&self, header: &str) -> String {
        if let (Some(params), None, true) =
            (self.one_for_both(), self.mcts, self.opponents.is_empty())
        {
            return params.to_ron(header);
        }
        let mut sides: String = [("caesar", self.caesar), ("pompey", self.pompey)]
            .iter()
            .map(|(side, params)| format!("    {side}: (\n{}    ),\n", params.fields("        ")))
            .collect();
        if let Some(m) = self.mcts {
            sides.push_str(&format!(
                "    mcts: (\n        c_puct: {:?},\n        heuristic_prior: {:?},\n        groups: {},\n        reused_share: {:?},\n        own_moves: {},\n        hold_vp_cities: {},\n    ),\n",
                m.c_puct, m.heuristic_prior, m.groups, m.reused_share, m.own_moves, m.hold_vp_cities
            ));
        }
        if !self.opponents.is_empty() {
            sides.push_str("    opponents: [\n");
            for m in self.opponents.members() {
                sides.push_str(&format!(
                    "        (\n            weight: {},\n            numbers: (\n{}            ),\n        ),\n",
                    m.weight,
                    m.numbers.fields("                ")
                ));
            }
            sides.push_str("    ],\n");
        }
        format!("{}(\n{sides})\n", comment(header))
    }
}

/// Search knobs: the defaults, or a player file's `mcts:` section (`tune
/// --search` fits them).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MctsParams {
    /// PUCT exploration constant.
    pub c_puct: f64,
    /// The prior of the heuristic's own choice (the rest share what is left).
    pub heuristic_prior: f64,
    /// Whether group moves are searched (else only cards and styles).
    pub groups: bool,
    /// The share of the budget a decision spends when it goes on with the
    /// trees of the one before (in the same command phase).
    pub reused_share: f64,
    /// Group moves of its own offered at each group decision besides the
    /// heuristic's plans (issue 44; [`HeuristicPlayer::own_plans`](super::HeuristicPlayer::own_plans)): 0
    /// searches the heuristic's plans only.
    pub own_moves: u8,
    /// The holding rule (issue 44): this side's heuristic, in the search's
    /// own moves and its playouts, never walks the last block out of a VP
    /// city it holds unless into an attack.
    pub hold_vp_cities: bool,
}

/// The most own group moves a decision may offer.
pub const MAX_OWN_MOVES: u8 = 16;

/// Sound: a checked file's numbers are finite ([`MctsParams::check`]).
impl Eq for MctsParams {}

impl MctsParams {
    /// The first setting out of its range, and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !(self.c_puct.is_finite() && self.c_puct > 0.0) {
            let why = format!("`c_puct` is {}: expected a positive number", self.c_puct);
            return Err(("c_puct", why));
        }
        if self.own_moves > MAX_OWN_MOVES {
            let why = format!(
                "`own_moves` is {}: expected 0 to {MAX_OWN_MOVES}",
                self.own_moves
            );
            return Err(("own_moves", why));
        }
        for (name, share) in [
            ("heuristic_prior", self.heuristic_prior),
            ("reused_share", self.reused_share),
        ] {
            if !(share > 0.0 && share < 1.0) {
                return Err((
                    name,
                    format!("`{name}` is {share}: expected a share between 0 and 1"),
                ));
            }
        }
        Ok(())
    }
}

impl Default for MctsParams {
    fn default() -> MctsParams {
        MctsParams {
            c_puct: 0.7,
            heuristic_prior: 0.5,
            groups: true,
            reused_share: 0.5,
            own_moves: 0,
            hold_vp_cities: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_file_with_tree_search_settings_reads_back_and_refuses_a_bad_share() {
        let numbers = PlayerNumbers {
            mcts: Some(super::super::MctsParams {
                c_puct: 1.25,
                heuristic_prior: 0.3,
                ..Default::default()
            }),
            ..PlayerNumbers::both(HeuristicParams::default())
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        let text = numbers.to_ron("with settings");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(PlayerNumbers::load(&path).unwrap(), numbers);
        // Without settings the one-set form is written, as before.
        let plain = PlayerNumbers {
            mcts: None,
            ..numbers
        };
        assert!(!plain.to_ron("").contains("caesar:"));
        std::fs::write(
            &path,
            text.replace("heuristic_prior: 0.3", "heuristic_prior: 1.5"),
        )
        .unwrap();
        let err = PlayerNumbers::load(&path).unwrap_err().to_string();
        assert!(err.contains("heuristic_prior"), "{err}");
        assert!(err.contains("between 0 and 1"), "{err}");
        let line = text
            .lines()
            .position(|l| l.contains("heuristic_prior"))
            .unwrap()
            + 1;
        assert!(err.contains(&format!("p.ron:{line}:")), "{err}");
    }

    #[test]
    fn a_written_player_file_reads_back_the_same() {
        let params = HeuristicParams {
            attack_ratio: 1.0 / 3.0,
            card_mars: 7.25,
            ..HeuristicParams::default()
        };
        let (_dir, path) =
            crate::test_support::temp_file("p.ron", params.to_ron("tuned\nfor rules-2.0"));
        assert_eq!(HeuristicParams::load(&path).unwrap(), params);
    }

    #[test]
    fn a_file_names_only_what_it_changes() {
        let (_dir, path) = crate::test_support::temp_file("p.ron", "(attack_ratio: 2.0)");
        let params = HeuristicParams::load(&path).unwrap();
        assert_eq!(params.attack_ratio, 2.0);
        assert_eq!(params.garrison, HeuristicParams::default().garrison);
    }

    #[test]
    fn an_unknown_name_is_located_and_the_nearest_suggested() {
        let (_dir, path) = crate::test_support::temp_file(
            "p.ron",
            "(\n    attack_ratio: 2.0,\n    garison: 1.0,\n)",
        );
        let err = HeuristicParams::load(&path).unwrap_err().to_string();
        assert!(err.contains("p.ron:3:"), "{err}");
        assert!(err.contains("did you mean `garrison`"), "{err}");
    }

    #[test]
    fn a_negative_number_is_located() {
        let (_dir, path) =
            crate::test_support::temp_file("p.ron", "(\n  card_mars: 3.0,\n  levy_front: -1.0,\n)");
        let err = HeuristicParams::load(&path).unwrap_err().to_string();
        assert!(err.contains("p.ron:3:3"), "{err}");
        assert!(err.contains("`levy_front` is -1"), "{err}");
    }

    #[test]
    fn a_file_per_side_reads_back_the_same_and_a_left_out_side_plays_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        let caesar = HeuristicParams {
            attack_ratio: 0.75,
            ..HeuristicParams::default()
        };
        let numbers = PlayerNumbers::both(HeuristicParams::default()).with(Side::Caesar, caesar);
        std::fs::write(&path, numbers.to_ron("per side")).unwrap();
        assert_eq!(PlayerNumbers::load(&path).unwrap(), numbers);
        assert_eq!(numbers.of(Side::Caesar).attack_ratio, 0.75);
        std::fs::write(&path, "(pompey: (garrison: 3.0))").unwrap();
        let read = PlayerNumbers::load(&path).unwrap();
        assert_eq!(read.caesar, HeuristicParams::default());
        assert_eq!(read.pompey.garrison, 3.0);
    }

    #[test]
    fn a_one_set_file_plays_both_sides() {
        let (_dir, path) = crate::test_support::temp_file("p.ron", "(attack_ratio: 2.0)");
        let read = PlayerNumbers::load(&path).unwrap();
        assert_eq!(read.one_for_both().unwrap().attack_ratio, 2.0);
    }

    #[test]
    fn a_bad_number_in_the_pompey_part_is_located_there() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        let text = "(\n  caesar: (levy_front: 1.0),\n  pompey: (\n    levy_front: -1.0,\n  ),\n)";
        std::fs::write(&path, text).unwrap();
        let err = PlayerNumbers::load(&path).unwrap_err().to_string();
        assert!(err.contains("p.ron:4:5"), "{err}");
        std::fs::write(&path, "(caesar: (garison: 1.0))").unwrap();
        let err = PlayerNumbers::load(&path).unwrap_err().to_string();
        assert!(err.contains("did you mean `garrison`"), "{err}");
    }

    #[test]
    fn values_and_names_agree() {
        let params = HeuristicParams::default();
        assert_eq!(params.values().len(), HeuristicParams::NAMES.len());
        assert_eq!(HeuristicParams::from_values(&params.values()), params);
    }
}
