//! The players the workbench ships, built into the program: the player and
//! value files of `variants/players/` and their measured strengths
//! (`ratings.ron`). Nothing here is read from disk, so the program plays its
//! shipped players from any folder, on a machine without the source tree.
//!
//! A player spec names a shipped file as the ratings, reports and records
//! always have: `variants/players/NAME.ron`, spelt exactly so (as a bare
//! variant name is the built-in rule set). That spelling is the built-in
//! copy, wherever the program runs; any other spelling of a path
//! (`./variants/players/NAME.ron`, an absolute path, a copy elsewhere) is a
//! file on disk (docs/formats.md, "Shipped players").

use std::path::Path;

/// The folder the shipped files are named in.
pub const FOLDER: &str = "variants/players";

/// Every shipped player and value file: its name in [`FOLDER`], and its text.
pub const FILES: &[(&str, &str)] = &[
    (
        "search-base-rules-2.0.ron",
        include_str!("../../variants/players/search-base-rules-2.0.ron"),
    ),
    (
        "search-hold-rules-2.0.ron",
        include_str!("../../variants/players/search-hold-rules-2.0.ron"),
    ),
    (
        "search-own-rules-2.0.ron",
        include_str!("../../variants/players/search-own-rules-2.0.ron"),
    ),
    (
        "tuned-house-2.0-max-2-events.ron",
        include_str!("../../variants/players/tuned-house-2.0-max-2-events.ron"),
    ),
    (
        "tuned-rules-1.1.ron",
        include_str!("../../variants/players/tuned-rules-1.1.ron"),
    ),
    (
        "tuned-rules-2.0.ron",
        include_str!("../../variants/players/tuned-rules-2.0.ron"),
    ),
    (
        "tuned-sides-rules-1.1.ron",
        include_str!("../../variants/players/tuned-sides-rules-1.1.ron"),
    ),
    (
        "tuned-sides-rules-2.0.ron",
        include_str!("../../variants/players/tuned-sides-rules-2.0.ron"),
    ),
    (
        "value-house-2.0-max-2-events.ron",
        include_str!("../../variants/players/value-house-2.0-max-2-events.ron"),
    ),
    (
        "value-rules-1.1.ron",
        include_str!("../../variants/players/value-rules-1.1.ron"),
    ),
    (
        "value-rules-2.0.ron",
        include_str!("../../variants/players/value-rules-2.0.ron"),
    ),
];

/// The players and values trained by the built-in balances ([`BALANCES`]):
/// named as shipped files, kept apart from [`FILES`] so the player menus do
/// not offer every best response a run trained.
pub const BALANCE_FILES: &[(&str, &str)] = &[
    (
        "balance-rules-1.1-r1-caesar-search.ron",
        include_str!("../../variants/players/balance-rules-1.1-r1-caesar-search.ron"),
    ),
    (
        "balance-rules-1.1-r1-caesar-tuned.ron",
        include_str!("../../variants/players/balance-rules-1.1-r1-caesar-tuned.ron"),
    ),
    (
        "balance-rules-1.1-r1-caesar-value.ron",
        include_str!("../../variants/players/balance-rules-1.1-r1-caesar-value.ron"),
    ),
    (
        "balance-rules-1.1-r1-pompey-search.ron",
        include_str!("../../variants/players/balance-rules-1.1-r1-pompey-search.ron"),
    ),
    (
        "balance-rules-1.1-r1-pompey-tuned.ron",
        include_str!("../../variants/players/balance-rules-1.1-r1-pompey-tuned.ron"),
    ),
    (
        "balance-rules-1.1-r1-pompey-value.ron",
        include_str!("../../variants/players/balance-rules-1.1-r1-pompey-value.ron"),
    ),
    (
        "balance-rules-2.0-r1-caesar-search.ron",
        include_str!("../../variants/players/balance-rules-2.0-r1-caesar-search.ron"),
    ),
    (
        "balance-rules-2.0-r1-caesar-tuned.ron",
        include_str!("../../variants/players/balance-rules-2.0-r1-caesar-tuned.ron"),
    ),
    (
        "balance-rules-2.0-r1-caesar-value.ron",
        include_str!("../../variants/players/balance-rules-2.0-r1-caesar-value.ron"),
    ),
    (
        "balance-rules-2.0-r1-pompey-search.ron",
        include_str!("../../variants/players/balance-rules-2.0-r1-pompey-search.ron"),
    ),
    (
        "balance-rules-2.0-r1-pompey-tuned.ron",
        include_str!("../../variants/players/balance-rules-2.0-r1-pompey-tuned.ron"),
    ),
    (
        "balance-rules-2.0-r1-pompey-value.ron",
        include_str!("../../variants/players/balance-rules-2.0-r1-pompey-value.ron"),
    ),
    (
        "balance-rules-2.0-r2-caesar-search.ron",
        include_str!("../../variants/players/balance-rules-2.0-r2-caesar-search.ron"),
    ),
    (
        "balance-rules-2.0-r2-caesar-tuned.ron",
        include_str!("../../variants/players/balance-rules-2.0-r2-caesar-tuned.ron"),
    ),
    (
        "balance-rules-2.0-r2-caesar-value.ron",
        include_str!("../../variants/players/balance-rules-2.0-r2-caesar-value.ron"),
    ),
    (
        "balance-rules-2.0-r2-pompey-search.ron",
        include_str!("../../variants/players/balance-rules-2.0-r2-pompey-search.ron"),
    ),
    (
        "balance-rules-2.0-r2-pompey-tuned.ron",
        include_str!("../../variants/players/balance-rules-2.0-r2-pompey-tuned.ron"),
    ),
    (
        "balance-rules-2.0-r2-pompey-value.ron",
        include_str!("../../variants/players/balance-rules-2.0-r2-pompey-value.ron"),
    ),
];

/// The balance at equilibrium measured for the published game under each
/// built-in rule set (`balance --out`, its trained players in
/// [`BALANCE_FILES`]): what the Setup tab and `explain` read when the setup
/// has none of its own ([`crate::sim::questions::balance::measured`]).
pub const BALANCES: &[(&str, &str)] = &[
    (
        "balance-rules-1.1.json",
        include_str!("../../variants/players/balance-rules-1.1.json"),
    ),
    (
        "balance-rules-2.0.json",
        include_str!("../../variants/players/balance-rules-2.0.json"),
    ),
];

/// The shipped ratings (`variants/players/ratings.ron`).
pub const RATINGS: &str = include_str!("../../variants/players/ratings.ron");

/// The text of the shipped file `path` names, if it names one: exactly
/// `variants/players/NAME` for a NAME of [`FILES`] or of the balance reports
/// and their players ([`BALANCES`], [`BALANCE_FILES`]).
pub fn file(path: &Path) -> Option<&'static str> {
    let name = path.to_str()?.strip_prefix(FOLDER)?.strip_prefix('/')?;
    FILES
        .iter()
        .chain(BALANCE_FILES)
        .chain(BALANCES)
        .find(|(file, _)| *file == name)
        .map(|(_, text)| *text)
}

/// The shipped path of a file of [`FILES`]: `variants/players/NAME`.
pub fn path_of(name: &str) -> String {
    format!("{FOLDER}/{name}")
}

/// Whether `path` names a shipped file ([`file`]).
pub fn is_shipped(path: &str) -> bool {
    file(Path::new(path)).is_some()
}

/// The text of a player or value file: the built-in copy for a shipped
/// name ([`file`]), else the file on disk.
pub(crate) fn read_text(path: &Path) -> Result<String, crate::scenario::format::LoadError> {
    match file(path) {
        Some(text) => Ok(text.to_string()),
        None => crate::scenario::format::read_text(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_shipped_spelling_is_built_in() {
        assert!(file(Path::new("variants/players/tuned-rules-2.0.ron")).is_some());
        assert!(file(Path::new("./variants/players/tuned-rules-2.0.ron")).is_none());
        assert!(file(Path::new("/x/variants/players/tuned-rules-2.0.ron")).is_none());
        assert!(file(Path::new("variants/players/ratings.ron")).is_none());
        assert!(file(Path::new("variants/players/balance-rules-2.0.json")).is_some());
        assert!(file(Path::new("./variants/players/balance-rules-2.0.json")).is_none());
        assert!(file(Path::new("variants/players/nope.ron")).is_none());
        assert!(file(Path::new("variants/playerstuned-rules-2.0.ron")).is_none());
        assert_eq!(
            path_of("value-rules-2.0.ron"),
            "variants/players/value-rules-2.0.ron"
        );
    }

    #[test]
    fn every_shipped_file_loads_as_what_its_name_says() {
        for (name, _) in FILES.iter().chain(BALANCE_FILES) {
            let path = path_of(name);
            if name.starts_with("value-") || name.ends_with("-value.ron") {
                crate::ai::ValueModel::load(Path::new(&path)).unwrap();
            } else {
                crate::ai::PlayerNumbers::load(Path::new(&path)).unwrap();
            }
        }
    }
}
