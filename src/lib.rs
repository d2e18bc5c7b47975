//! Caesar Workbench: the published game of Julius Caesar (Columbia Games) as
//! editable data, a validator, and (in later modules) a rules engine,
//! AI players and simulations. The GUI and CLI are thin shells over this library.
//!
//! Data flows one way: files ([`format`]) → model ([`model`]) → validation
//! ([`validate`]) → engine → simulation → reports.

pub mod ai;
pub mod diagnostics;
pub mod diff;
pub mod edit;
pub mod engine;
pub mod files;
pub mod format;
pub mod kinds;
pub mod model;
pub mod names;
pub mod odds;
pub mod playable;
pub mod position;
pub mod record;
pub mod rules;
pub mod sim;
pub mod trace;
pub mod validate;

use std::path::Path;

/// The built-in scenario: the published game, embedded so the binary works anywhere.
pub const HISTORICAL_SCENARIO: &str = include_str!("../scenarios/historical.ron");
/// The path the built-in scenario is reported under.
pub const HISTORICAL_PATH: &str = "scenarios/historical.ron";

/// Loads the built-in scenario.
pub fn historical() -> format::ResolvedScenario {
    format::scenario_from_str(Path::new(HISTORICAL_PATH), HISTORICAL_SCENARIO)
        .expect("the built-in scenario parses (checked by the test suite)")
}

/// Loads a scenario file, or the built-in one when `path` is `None`.
pub fn load_scenario(path: Option<&Path>) -> Result<format::ResolvedScenario, format::LoadError> {
    match path {
        Some(p) => format::load_scenario(p),
        None => Ok(historical()),
    }
}

#[cfg(feature = "gui")]
pub mod app;
