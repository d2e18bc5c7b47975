//! The scenario and the rule sets as data: the RON documents and their
//! `extends` chains ([`format`]), names and kinds, the model with every
//! name resolved ([`model`]), the rule sets ([`rules`]) and
//! the one table of their fields ([`rule_fields`]), the validator and
//! its findings ([`validate`], [`diagnostics`]), what it accepted for the
//! engine to start on ([`checked`]), what the engine can play
//! ([`playable`]), the differences between two scenarios ([`diff`]) and the
//! editor's commands with undo ([`edit`]).
//!
//! Uses only [`crate::files`]; knows nothing of the engine, players or
//! simulations.

pub mod checked;
pub mod diagnostics;
pub mod diff;
pub mod edit;
pub mod format;
pub mod kinds;
pub mod model;
pub mod names;
pub mod playable;
pub mod rule_fields;
pub mod rules;
pub mod validate;

use std::path::Path;

// In the file format, whose `extends: "historical.ron"` reads it.
pub use format::{HISTORICAL_PATH, HISTORICAL_SCENARIO};

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
