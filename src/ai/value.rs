//! A learned evaluation: the chance a side wins from the start of a game
//! turn, fitted on positions of self-play (`caesar-workbench learn`), so that
//! a search's playout can stop at a horizon and be scored there instead of
//! played to the end.
//!
//! Every feature is something the side may know from its [`SideView`]: VP
//! and the cities behind them (1.2, public), its own steps and blocks, the
//! enemy's block counts (never their strength), which cities have enemy or
//! own blocks next door, its own hand and the size of the other's, the date.
//! A playout scored from a sampled world reads that world through the
//! searcher's own view, so the score never rests on strength that view hides.
//!
//! The model is a logistic regression for each side (Caesar attacks for 1 VP
//! against 7, Pompey holds: the same feature weighs differently for each),
//! on features standardised by the fit's own means and spreads.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::{Game, SideView, State};
use crate::scenario::format::{self, LoadError, Location};
use crate::scenario::model::{Side, SpaceKind};

/// The features, in the order [`features`] gives them and a value file
/// lists them.
pub const FEATURES: [&str; 24] = [
    "bias",
    "own_vp",
    "enemy_vp",
    "own_vp_late",
    "enemy_vp_late",
    "own_at_victory",
    "enemy_at_victory",
    "progress",
    "own_steps",
    "own_blocks",
    "enemy_blocks",
    "own_navis_steps",
    "own_city_steps",
    "enemy_city_blocks",
    "own_vp_threatened",
    "enemy_vp_threatened",
    "vacant_vp_near_own",
    "vacant_vp_near_enemy",
    "own_leader_died",
    "enemy_leader_died",
    "own_hand",
    "enemy_hand",
    "own_hand_moves",
    "own_hand_events",
];

/// One position's features for the side whose view it is.
pub type Features = [f64; FEATURES.len()];

/// The features of the position `view` shows, for its side.
pub fn features(game: &Game, view: &SideView<'_>) -> Features {
    let side = view.side();
    let (me, them) = (side.index(), side.other().index());
    let rules = &game.rules;
    let board = game.board();
    let vp = view.vp(game);
    let to_win = f64::from(rules.vp_to_win.max(1));
    let turns = f64::from(rules.years) * f64::from(rules.turns_per_year);
    let done = f64::from(view.year().saturating_sub(1)) * f64::from(rules.turns_per_year)
        + f64::from(view.turn().saturating_sub(1));
    let progress = (done / turns.max(1.0)).clamp(0.0, 1.0);
    // The turn's share of its year: VP count at the year's end (1.2).
    let late = f64::from(view.turn()) / f64::from(rules.turns_per_year.max(1));
    let own = view.own_forces();
    let enemy_at = |s: usize| view.enemy_count(crate::scenario::model::SpaceId(s as u16)) > 0;
    let mut f = [0.0; FEATURES.len()];
    f[0] = 1.0;
    f[1] = vp[me] as f64 / to_win;
    f[2] = vp[them] as f64 / to_win;
    f[3] = f[1] * late;
    f[4] = f[2] * late;
    f[5] = f64::from(u8::from(vp[me] >= u32::from(rules.vp_to_win)));
    f[6] = f64::from(u8::from(vp[them] >= u32::from(rules.vp_to_win)));
    f[7] = progress;
    for space in board.ids() {
        let s = space.index();
        let here = own[s];
        let enemies = view.enemy_count(space);
        f[8] += f64::from(here.strength) / 10.0;
        f[9] += f64::from(here.blocks) / 10.0;
        f[10] += f64::from(enemies) / 10.0;
        f[11] += f64::from(here.navis_strength) / 10.0;
        let city = board.space(space);
        if city.kind == SpaceKind::Sea || city.vp == 0 {
            continue;
        }
        let vp = f64::from(city.vp) / to_win;
        f[12] += f64::from(here.strength) * vp;
        f[13] += f64::from(enemies) * vp;
        let next = board.neighbours(space).iter().map(|a| a.to.index());
        let (mut own_near, mut enemy_near) = (false, false);
        for n in next {
            own_near |= own[n].blocks > 0;
            enemy_near |= enemy_at(n);
        }
        match (here.blocks > 0, enemies > 0) {
            (true, false) if enemy_near => f[14] += vp,
            (false, true) if own_near => f[15] += vp,
            (false, false) => {
                f[16] += if own_near { vp } else { 0.0 };
                f[17] += if enemy_near { vp } else { 0.0 };
            }
            _ => {}
        }
    }
    f[18] = f64::from(u8::from(view.leader_died(side)));
    f[19] = f64::from(u8::from(view.leader_died(side.other())));
    f[20] = view.hand_size(side) as f64;
    f[21] = view.hand_size(side.other()) as f64;
    for &card in view.hand() {
        match game.card(card) {
            crate::scenario::model::CardFace::Command { moves, .. } => f[22] += f64::from(moves),
            crate::scenario::model::CardFace::Event(_) => f[23] += 1.0,
        }
    }
    f
}

/// Where the playouts scored by a value stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PlayoutStop {
    /// Every playout plays `horizon_turns` game turns.
    #[default]
    Horizon,
    /// A playout stops at the start of the next year (after the winter and
    /// its victory check, 9.0), or at the horizon if that comes first: a
    /// search's playouts then cost about two thirds of the horizon's at no
    /// loss of strength we could measure (docs/simulation.md).
    YearEnd,
}

impl PlayoutStop {
    pub fn is_horizon(&self) -> bool {
        *self == PlayoutStop::Horizon
    }
}

/// A fitted evaluation, as a value file holds it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueModel {
    /// Game turns a playout scored by this model plays before it stops
    /// (it stops at the start of a game turn, where the positions were
    /// taken; a game that ends sooner is scored by its result).
    pub horizon_turns: u8,
    /// Where the playouts it scores stop: a file without the field stops
    /// them at the horizon.
    #[serde(default, skip_serializing_if = "PlayoutStop::is_horizon")]
    pub playouts_stop: PlayoutStop,
    /// The features the weights belong to, by name ([`FEATURES`]).
    pub features: Vec<String>,
    /// Each feature's mean and spread in the fit's positions: a feature
    /// enters the model as `(x - mean) / scale`.
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    /// The weights for Caesar's view and for Pompey's.
    pub caesar: Vec<f64>,
    pub pompey: Vec<f64>,
    /// A policy learned from the search's choices (`learn-policy`), which
    /// orders and weighs a search's candidates at group decisions.
    #[serde(default)]
    pub policy: Option<super::policy::PolicyModel>,
}

/// The same model: every number equal (a loaded model has no NaN).
impl PartialEq for ValueModel {
    fn eq(&self, other: &ValueModel) -> bool {
        self.horizon_turns == other.horizon_turns
            && self.playouts_stop == other.playouts_stop
            && self.features == other.features
            && self.mean == other.mean
            && self.scale == other.scale
            && self.caesar == other.caesar
            && self.pompey == other.pompey
            && self.policy == other.policy
    }
}

impl Eq for ValueModel {}

impl ValueModel {
    /// The weights `side` is valued by.
    pub fn weights(&self, side: Side) -> &[f64] {
        match side {
            Side::Caesar => &self.caesar,
            Side::Pompey => &self.pompey,
        }
    }

    /// The chance that `features`' side wins, by the weights for `side`.
    pub fn predict(&self, side: Side, features: &Features) -> f64 {
        let z: f64 = self
            .weights(side)
            .iter()
            .zip(features)
            .zip(self.mean.iter().zip(&self.scale))
            .map(|((w, x), (m, s))| w * (x - m) / s)
            .sum();
        1.0 / (1.0 + (-z).exp())
    }

    /// The chance the side of `view` wins from the position it shows.
    pub fn win_chance(&self, game: &Game, view: &SideView<'_>) -> f64 {
        self.predict(view.side(), &features(game, view))
    }

    /// Reads a value file: the features must be this build's, in order,
    /// and every number finite (errors point at the field).
    pub fn load(path: &Path) -> Result<ValueModel, LoadError> {
        let text = super::shipped::read_text(path)?;
        let model: ValueModel = format::parse_ron(path, &text)?;
        model.check().map_err(|(field, message)| LoadError::Parse {
            location: locate(path, &text, field),
            message,
        })?;
        Ok(model)
    }

    /// The first field that does not fit this build, and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if self.features.iter().ne(FEATURES.iter()) {
            let at = (0..FEATURES.len().max(self.features.len()))
                .find(|&i| self.features.get(i).map(String::as_str) != FEATURES.get(i).copied())
                .unwrap_or(0);
            let file = self
                .features
                .get(at)
                .map_or("nothing".into(), |f| format!("{f:?}"));
            let build = FEATURES
                .get(at)
                .map_or("nothing".into(), |f| format!("{f:?}"));
            return Err((
                "features",
                format!(
                    "the features differ from this build's: feature {} is {file} where this build has {build} (fit the file again with `caesar-workbench learn`)",
                    at + 1
                ),
            ));
        }
        if self.horizon_turns == 0 {
            return Err(("horizon_turns", "expected 1 or more game turns".into()));
        }
        let lists = [
            ("mean", &self.mean),
            ("scale", &self.scale),
            ("caesar", &self.caesar),
            ("pompey", &self.pompey),
        ];
        for (field, list) in lists {
            if list.len() != FEATURES.len() {
                let (n, want) = (list.len(), FEATURES.len());
                return Err((
                    field,
                    format!("{n} numbers: expected {want}, one a feature"),
                ));
            }
            if let Some(x) = list.iter().find(|x| !x.is_finite()) {
                return Err((field, format!("{x} is not a finite number")));
            }
        }
        if let Some(x) = self.scale.iter().find(|x| **x <= 0.0) {
            return Err(("scale", format!("{x}: every spread must be above 0")));
        }
        if let Some(policy) = &self.policy {
            policy.check().map_err(|(_, why)| ("policy", why))?;
        }
        Ok(())
    }

    /// The file text: a comment `header` (how it was fitted), then the model.
    pub fn to_ron(&self, header: &str) -> String {
        let comment: String = header.lines().map(|l| format!("// {l}\n")).collect();
        let list = |xs: &[f64]| ron_weights(xs, &self.features, "        ");
        let names = ron_names(&self.features, "        ");
        format!(
            "{comment}(\n    horizon_turns: {},\n{}    features: [\n{names}    ],\n    mean: [\n{}    ],\n    scale: [\n{}    ],\n    caesar: [\n{}    ],\n    pompey: [\n{}    ],\n{})\n",
            self.horizon_turns,
            match self.playouts_stop {
                PlayoutStop::Horizon => String::new(),
                stop => format!("    playouts_stop: {stop:?},\n"),
            },
            list(&self.mean),
            list(&self.scale),
            list(&self.caesar),
            list(&self.pompey),
            self.policy.as_ref().map_or(String::new(), policy_ron),
        )
    }
}

/// A policy as the `policy:` field of a value file.
fn policy_ron(p: &super::policy::PolicyModel) -> String {
    let list = |xs: &[f64]| ron_weights(xs, &p.features, "            ");
    let names = ron_names(&p.features, "            ");
    format!(
        "    policy: Some((\n        features: [\n{names}        ],\n        caesar: [\n{}        ],\n        pompey: [\n{}        ],\n        decisions: {},\n        cross_entropy: {:?},\n    )),\n",
        list(&p.caesar),
        list(&p.pompey),
        p.decisions,
        p.cross_entropy
    )
}

/// Numbers one a line, each with its feature's name in a comment.
fn ron_weights(xs: &[f64], names: &[String], indent: &str) -> String {
    xs.iter()
        .zip(names)
        .map(|(x, name)| format!("{indent}{x:?}, // {name}\n"))
        .collect()
}

/// Feature names one a line, quoted.
fn ron_names(names: &[String], indent: &str) -> String {
    names.iter().map(|n| format!("{indent}{n:?},\n")).collect()
}

/// Where `field:` starts in `text` (the file's start if nowhere).
fn locate(path: &Path, text: &str, field: &str) -> Location {
    let at = text
        .lines()
        .enumerate()
        .find_map(|(i, line)| {
            let code = line.split("//").next().unwrap_or("");
            code.find(&format!("{field}:")).map(|col| (i + 1, col + 1))
        })
        .unwrap_or((1, 1));
    Location {
        file: path.to_path_buf(),
        line: at.0,
        column: at.1,
    }
}

/// Counts the game turns a playout has begun since it started, to stop it
/// at the start of the `horizon`-th one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Horizon {
    at: (u8, u8),
    left: u8,
    /// Stops also where a new year begins (after the winter).
    within_year: bool,
}

impl Horizon {
    pub(crate) fn new(start: &State, turns: u8) -> Horizon {
        Horizon {
            at: (start.year(), start.turn()),
            left: turns,
            within_year: false,
        }
    }

    /// Where a playout scored by `value` and starting at `start` stops.
    pub(crate) fn for_value(start: &State, value: &ValueModel) -> Horizon {
        Horizon {
            within_year: value.playouts_stop == PlayoutStop::YearEnd,
            ..Horizon::new(start, value.horizon_turns)
        }
    }

    /// Whether `state` has reached the horizon (a new game turn counted as
    /// it begins).
    pub(crate) fn reached(&mut self, state: &State) -> bool {
        let now = (state.year(), state.turn());
        if now != self.at {
            if self.within_year && now.0 != self.at.0 {
                self.left = 0;
            }
            self.at = now;
            self.left = self.left.saturating_sub(1);
        }
        self.left == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{HeuristicPlayer, decide};

    /// Positions of one heuristic game at the start of each game turn.
    fn turn_starts(seed: u64) -> (Game, Vec<State>) {
        let game = crate::test_support::published("rules-2.0");
        let mut state = State::new(&game, seed);
        let mut players =
            Side::BOTH.map(|s| HeuristicPlayer::new(s, seed + s.index() as u64, false));
        let mut legal = Vec::new();
        let mut starts = vec![state.clone()];
        let mut at = (state.year(), state.turn());
        while let Some(side) = state.current_player() {
            state.legal_actions(&game, &mut legal);
            let action = decide(&mut players[side.index()], &game, &state, &legal);
            state.apply(&game, action);
            if (state.year(), state.turn()) != at && !state.is_over() {
                at = (state.year(), state.turn());
                starts.push(state.clone());
            }
        }
        (game, starts)
    }

    /// What the other side hides (its hand, its blocks' strength and
    /// identity) never moves a side's features: a world redrawn for that
    /// side gives the same ones.
    #[test]
    fn a_sides_features_do_not_see_what_the_other_side_hides() {
        let (game, starts) = turn_starts(4);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
        let mut compared = 0;
        for state in &starts {
            for side in Side::BOTH {
                let view = state.view(side, false);
                for _ in 0..3 {
                    let world = view.sample_world(&game, &mut rng);
                    let again = features(&game, &world.view(side, false));
                    assert_eq!(
                        features(&game, &view),
                        again,
                        "{side:?} in year {}",
                        state.year()
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 30, "a whole game's turn starts: {compared}");
    }

    /// The features read the position: VP, own steps and the date move as
    /// the game does.
    #[test]
    fn features_follow_the_position() {
        let (game, starts) = turn_starts(5);
        let first = features(&game, &starts[0].view(Side::Caesar, false));
        assert_eq!(first[0], 1.0);
        assert_eq!(first[7], 0.0, "no turn done at the start");
        // 1.2: Pompey starts with 7 VP of cities to Caesar's 1 (vacant Rome etc.).
        assert!(first[2] > first[1], "{first:?}");
        let last = starts.last().unwrap();
        let later = features(&game, &last.view(Side::Caesar, false));
        assert!(later[7] > first[7]);
        assert!(later.iter().zip(&first).skip(8).any(|(a, b)| a != b));
    }

    fn small_model() -> ValueModel {
        let n = FEATURES.len();
        let mut caesar = vec![0.0; n];
        caesar[1] = 2.0; // own VP
        caesar[2] = -2.0; // enemy VP
        ValueModel {
            horizon_turns: 5,
            playouts_stop: PlayoutStop::Horizon,
            features: FEATURES.iter().map(|s| s.to_string()).collect(),
            mean: vec![0.0; n],
            scale: vec![1.0; n],
            pompey: caesar.clone(),
            caesar,
            policy: None,
        }
    }

    #[test]
    fn a_value_file_reads_back_as_written() {
        let mut model = small_model();
        for stop in [PlayoutStop::Horizon, PlayoutStop::YearEnd] {
            model.playouts_stop = stop;
            let text = model.to_ron("test model\nsecond line");
            assert_eq!(text.contains("playouts_stop"), stop == PlayoutStop::YearEnd);
            let (_dir, path) = crate::test_support::temp_file("value.ron", text);
            assert_eq!(ValueModel::load(&path).unwrap(), model);
        }
    }

    #[test]
    fn a_value_file_of_other_features_is_refused_where_they_are_listed() {
        let mut model = small_model();
        model.features[3] = "cities".into();
        let (_dir, path) = crate::test_support::temp_file("value.ron", model.to_ron("old"));
        let error = ValueModel::load(&path).unwrap_err().to_string();
        assert!(error.contains("value.ron:4:5"), "{error}");
        assert!(
            error.contains("feature 4 is \"cities\" where this build has \"own_vp_late\""),
            "{error}"
        );
    }

    #[test]
    fn more_vp_is_a_better_chance_and_a_chance_is_between_0_and_1() {
        let model = small_model();
        let mut x = [0.0; FEATURES.len()];
        x[1] = 0.5;
        let ahead = model.predict(Side::Caesar, &x);
        x[2] = 0.9;
        let behind = model.predict(Side::Caesar, &x);
        assert!(ahead > 0.5 && behind < 0.5 && behind > 0.0 && ahead < 1.0);
    }

    /// How many of `starts` after the first a horizon lets pass before it
    /// stops (the index of the turn start where it is reached).
    fn stops_at(mut horizon: Horizon, starts: &[State]) -> Option<usize> {
        starts.iter().position(|s| horizon.reached(s))
    }

    /// A year-end stop ends a playout at the first turn of the next year,
    /// or at the horizon if that comes first; a horizon stop only there.
    #[test]
    fn a_year_end_stop_ends_a_playout_at_the_next_year_or_the_horizon() {
        let (game, starts) = turn_starts(6);
        let per_year = usize::from(game.rules.turns_per_year);
        assert!(starts.len() > 2 * per_year, "two years of turn starts");
        let second_turn = &starts[1..];
        let mut model = small_model();
        model.horizon_turns = 10;
        let horizon = Horizon::for_value(&second_turn[0], &model);
        assert_eq!(stops_at(horizon, second_turn), Some(10));
        model.playouts_stop = PlayoutStop::YearEnd;
        let year_end = Horizon::for_value(&second_turn[0], &model);
        let next_year = stops_at(year_end, second_turn).unwrap();
        assert_eq!(second_turn[next_year].year(), second_turn[0].year() + 1);
        assert_eq!(second_turn[next_year - 1].year(), second_turn[0].year());
        model.horizon_turns = 2;
        let sooner = Horizon::for_value(&second_turn[0], &model);
        assert_eq!(stops_at(sooner, second_turn), Some(2), "the horizon first");
    }

    #[test]
    fn the_horizon_counts_game_turns_begun() {
        let (_, starts) = turn_starts(6);
        let mut horizon = Horizon::new(&starts[0], 2);
        assert!(!horizon.reached(&starts[0]));
        assert!(!horizon.reached(&starts[1]));
        assert!(horizon.reached(&starts[2]));
    }
}
