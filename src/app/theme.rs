//! Every colour and size the window uses, in one place: the map, the panels
//! and the charts draw a side, an error or a selection the same way.

use egui::Color32;

use crate::scenario::model::{BlockKind, Side};

// ------------------------------------------------------------ status colours

/// Errors, refused edits, a city with too many blocks (5.3).
pub const ERROR: Color32 = Color32::from_rgb(214, 56, 48);
/// Warnings, unsaved changes, changed rule fields, a city with too few blocks.
pub const WARNING: Color32 = Color32::from_rgb(222, 150, 20);
/// All is well: no findings, a file saved.
pub const GOOD: Color32 = Color32::from_rgb(70, 160, 80);
/// The selected space, link or block, on the map and in the pools.
pub const SELECTED: Color32 = Color32::from_rgb(24, 110, 250);
/// The outline of a block slot left empty while its block is dragged.
pub const GHOST: Color32 = Color32::GRAY;

// --------------------------------------------------------------------- sides

/// Caesar's blocks and everything about Caesar in the charts.
pub const CAESAR: Color32 = Color32::from_rgb(176, 56, 38);
/// Pompey's blocks and everything about Pompey in the charts.
pub const POMPEY: Color32 = Color32::from_rgb(58, 108, 60);
/// Cleopatra's block (blue, as the published block).
pub const CLEOPATRA: Color32 = Color32::from_rgb(38, 78, 178);
/// Draws in the charts.
pub const DRAW: Color32 = Color32::from_rgb(140, 140, 150);
/// The battle calculator's "ends in round" bars.
pub const ROUNDS: Color32 = Color32::from_rgb(90, 120, 200);

/// A side's colour.
pub fn side(side: Side) -> Color32 {
    match side {
        Side::Caesar => CAESAR,
        Side::Pompey => POMPEY,
    }
}

/// Block colours (fill, edge): Caesar red on tan, Pompey green on ochre,
/// Cleopatra blue, as the published blocks are told apart.
pub fn block(side: Side, kind: BlockKind) -> (Color32, Color32) {
    match (side, kind) {
        (_, BlockKind::Cleopatra) => (CLEOPATRA, Color32::from_rgb(205, 215, 245)),
        (Side::Caesar, _) => (CAESAR, Color32::from_rgb(228, 202, 150)),
        (Side::Pompey, _) => (POMPEY, Color32::from_rgb(210, 164, 62)),
    }
}

// ----------------------------------------------------------------------- map

/// Around the map, and behind a scenario that could not be loaded.
pub const OUTSIDE: Color32 = Color32::from_rgb(58, 62, 68);
pub const LAND: Color32 = Color32::from_rgb(233, 222, 192);
pub const WATER: Color32 = Color32::from_rgb(172, 200, 214);
pub const COAST: Color32 = Color32::from_rgb(118, 148, 164);
pub const SEA_AREA: Color32 = Color32::from_rgba_premultiplied(22, 38, 56, 36);
pub const SEA_AREA_EDGE: Color32 = Color32::from_rgba_premultiplied(40, 70, 105, 90);
pub const SEA_TEXT: Color32 = Color32::from_rgb(38, 76, 128);
pub const MAJOR: Color32 = Color32::from_rgb(118, 70, 34);
pub const MINOR: Color32 = Color32::from_rgb(150, 106, 64);
pub const STRAIT: Color32 = Color32::from_rgb(28, 92, 190);
pub const SEA_LINK: Color32 = Color32::from_rgb(52, 108, 170);
pub const CITY_FILL: Color32 = Color32::from_rgb(252, 248, 236);
pub const CITY_EDGE: Color32 = Color32::from_rgb(70, 50, 35);
pub const PORT_RING: Color32 = Color32::from_rgb(32, 92, 176);
pub const VP_FILL: Color32 = Color32::from_rgb(222, 176, 48);
pub const VP_EDGE: Color32 = Color32::from_rgb(110, 80, 20);
pub const VP_TEXT: Color32 = Color32::from_rgb(40, 28, 8);
pub const LABEL: Color32 = Color32::from_rgb(44, 32, 22);
pub const HALO: Color32 = Color32::from_rgba_premultiplied(200, 190, 164, 205);
/// Where a click on the Play board acts (a legal destination, a levy city):
/// not the hover colour, so a hovered space is never taken for one.
pub const TARGET: Color32 = Color32::from_rgb(40, 200, 235);
/// The last move on the board, as an arrow.
pub const LAST_MOVE: Color32 = Color32::from_rgb(250, 110, 20);
/// Hovered items and drop targets.
pub const HIGHLIGHT: Color32 = Color32::from_rgb(255, 196, 36);
/// 2.1's discard step: its words, its cards' frames, and the card chosen.
pub const DISCARD: Color32 = Color32::from_rgb(176, 92, 40);
pub const DISCARD_PICKED: Color32 = Color32::from_rgb(92, 52, 30);
/// An event card's button in the hand (command cards keep the plain
/// button's grey), and its words.
pub const EVENT_CARD: Color32 = Color32::from_rgb(96, 62, 140);
pub const EVENT_CARD_TEXT: Color32 = Color32::from_rgb(255, 226, 140);
/// Text on a block.
pub const BLOCK_TEXT: Color32 = Color32::WHITE;
/// A reduced strength on a block.
pub const BLOCK_REDUCED: Color32 = Color32::from_rgb(255, 236, 180);
/// Winter supply numbers (8.4) on the map.
pub const SUPPLY_TEXT: Color32 = Color32::from_rgb(200, 228, 200);
/// Text on the dark background around the map.
pub const ON_OUTSIDE: Color32 = Color32::WHITE;
pub const ON_OUTSIDE_WEAK: Color32 = Color32::LIGHT_GRAY;

// --------------------------------------------------------------------- sizes

/// The window's size when it opens, and the smallest it may get.
pub const WINDOW_SIZE: [f32; 2] = [1500.0, 880.0];
pub const WINDOW_MIN_SIZE: [f32; 2] = [720.0, 420.0];
/// The side panel beside the map (inspector and findings).
pub const SIDE_PANEL_WIDTH: f32 = 380.0;
pub const SIDE_PANEL_RANGE: std::ops::RangeInclusive<f32> = 260.0..=720.0;
/// The side panel of the Play and Replay tabs (hand, actions, record).
pub const PLAY_PANEL_RANGE: std::ops::RangeInclusive<f32> = 360.0..=720.0;
/// The game log beside the Play map.
pub const LOG_PANEL_WIDTH: f32 = 290.0;
pub const LOG_PANEL_RANGE: std::ops::RangeInclusive<f32> = 180.0..=600.0;
/// The levy pools in the deployment editor.
pub const POOLS_WIDTH: f32 = 230.0;
pub const POOLS_RANGE: std::ops::RangeInclusive<f32> = 160.0..=420.0;
/// A block in a levy pool.
pub const POOL_BLOCK: f32 = 34.0;
/// The simulation settings beside the charts.
pub const SIM_CONTROLS_WIDTH: f32 = 330.0;
/// Every chart of the Simulate tab.
pub const CHART_HEIGHT: f32 = 200.0;
/// The battle calculator's chart.
pub const ODDS_CHART_HEIGHT: f32 = 170.0;
/// The scenario's name in the top bar.
pub const TITLE_SIZE: f32 = 15.0;
/// The headline of a scenario that could not be loaded.
pub const ALERT_SIZE: f32 = 20.0;
/// A text field of the inspectors.
pub const FIELD_WIDTH: f32 = 200.0;
/// The in-window file dialog.
pub const FILE_DIALOG_WIDTH: f32 = 560.0;
pub const FILE_DIALOG_LIST_HEIGHT: f32 = 280.0;

/// The fill of a quartile band in the VP chart: the first rule set's band
/// is stronger than the second's.
pub const BAND_ALPHA: [f32; 2] = [0.25, 0.12];

/// The colour of a series of the `k`th rule set of a comparison: the side's
/// colour for the first, a lighter tint for the second (and so on), so no
/// two rule sets share a colour of dot or line.
pub fn shade(colour: Color32, k: usize) -> Color32 {
    match k {
        0 => colour,
        k => {
            let t = if k % 2 == 1 { 0.5 } else { 0.25 };
            colour.lerp_to_gamma(Color32::WHITE, t)
        }
    }
}

/// The narrowest a side panel gets in a small window.
const MIN_PANEL: f32 = 180.0;

/// A side panel's width range in a window `total` wide: at most `share` of
/// it (the map keeps the rest: in a small window panels narrow), within
/// `range`.
pub fn panel_range(
    total: f32,
    share: f32,
    range: std::ops::RangeInclusive<f32>,
) -> std::ops::RangeInclusive<f32> {
    let max = (total * share).min(*range.end()).max(MIN_PANEL);
    range.start().min(max)..=max
}

/// A side panel's first width in a window `total` wide: `default`, or
/// `share` of the window when that is less.
pub fn panel_default(total: f32, share: f32, default: f32) -> f32 {
    default.min(total * share).max(MIN_PANEL)
}
