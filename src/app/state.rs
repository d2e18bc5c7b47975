//! The window's state apart from its drawing: the scenario document and the
//! rule set with their one undo history (`history.rs`), the selection by id
//! (`selection.rs`), and what is derived from them (the validation report,
//! the 5.3 balance), rebuilt only when they change.
//!
//! Panels never change this directly: they return [`super::Request`]s, which
//! [`super::WorkbenchApp`] applies here in one place.

use std::path::{Path, PathBuf};

use crate::engine::Game;
use crate::scenario::checked::NotPlayable;
use crate::scenario::edit::{
    CityBalance, Document, Edit, EditError, Item, free_deployment_balance,
};
use crate::scenario::format::{LoadError, ResolvedScenario};
use crate::scenario::model::Scenario;
use crate::scenario::rule_fields::variant_file;
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet};
use crate::scenario::validate::{Report, validate};

use super::Recent;
use super::history::{Changed, History};
use super::selection::Selection;

/// A message for the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Status {
    pub(crate) text: String,
    pub(crate) is_error: bool,
}

/// What the window works on.
pub struct AppState {
    /// The document and the rule switches in force, with their undo history.
    history: History,
    /// Why the scenario given at start could not be loaded (no document then).
    load_error: Option<String>,
    variant: String,
    /// The rule set as loaded, before the switches were touched.
    base_rules: Option<RuleSet>,
    selection: Option<Selection>,
    /// The last file that failed to open, save or export; the document is untouched.
    file_error: Option<String>,
    /// The last refused edit, or a note on what was done.
    status: Option<Status>,
    recent: Recent,
    derived: Derived,
    /// Counts changes of the scenario: drawing caches are keyed on it.
    scenario_revision: u64,
    /// Counts changes of the rule set in force (switches or variant).
    rules_revision: u64,
}

/// Data computed from the document and the rules when either changes.
#[derive(Default)]
struct Derived {
    report: Option<Report>,
    resolved: Option<ResolvedScenario>,
    /// 5.3: cities whose count of a side's blocks is off.
    balance: Vec<CityBalance>,
}

/// Why the window could not start a game from its document.
#[derive(Debug, thiserror::Error)]
pub enum NoGame {
    #[error("No scenario or rule set is loaded.")]
    NothingLoaded,
    #[error("{variant} cannot be played on this scenario:\n{}", refused.messages().join("\n"))]
    NotPlayable {
        variant: String,
        refused: NotPlayable,
    },
}

/// Why the switches could not be saved as a variant file.
#[derive(Debug, thiserror::Error)]
pub enum SaveVariantError {
    #[error("no rule set is loaded")]
    NoRules,
    #[error("{}: cannot save: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The game of `doc` under `rules` (named `variant`), validated and refused
/// with the validator's and the engine's words, as the library starts every
/// game ([`Game::from_document`]). Every tab starts its games through here.
pub(crate) fn game_of(
    doc: Option<&ResolvedScenario>,
    rules: RuleSet,
    variant: &str,
) -> Result<Game, NoGame> {
    let doc = doc.ok_or(NoGame::NothingLoaded)?;
    Game::from_document(doc, rules, Some(variant)).map_err(|refused| NoGame::NotPlayable {
        variant: variant.to_string(),
        refused,
    })
}

impl AppState {
    /// Loads `scenario` (the built-in published game when `None`) under the
    /// rule set `variant` (a built-in name or a file). Failures are kept and
    /// shown in the window rather than returned.
    pub(crate) fn new(scenario: Option<&Path>, variant: &str) -> AppState {
        let (doc, load_error) = match scenario {
            None => (Some(Document::builtin()), None),
            Some(p) => match Document::open(p) {
                Ok(d) => (Some(d), None),
                Err(e) => (None, Some(e.to_string())),
            },
        };
        let rules = load_rules(variant);
        let mut state = AppState {
            load_error,
            variant: variant.to_string(),
            base_rules: rules.as_ref().ok().cloned(),
            history: History::new(doc, rules),
            selection: None,
            file_error: None,
            status: None,
            recent: Recent::default(),
            derived: Derived::default(),
            scenario_revision: 0,
            rules_revision: 0,
        };
        state.revalidate();
        state
    }

    // ------------------------------------------------------------ reading

    pub(crate) fn document(&self) -> Option<&Document> {
        self.history.document()
    }

    pub(crate) fn load_error(&self) -> Option<&str> {
        self.load_error.as_deref()
    }

    pub(crate) fn file_error(&self) -> Option<&str> {
        self.file_error.as_deref()
    }

    pub(crate) fn status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    pub(crate) fn variant(&self) -> &str {
        &self.variant
    }

    /// The rule set in force (with any switches changed).
    pub(crate) fn rules(&self) -> Option<&RuleSet> {
        self.history.rules().as_ref().ok()
    }

    /// The rule set as the variant defines it.
    pub(crate) fn base_rules(&self) -> Option<&RuleSet> {
        self.base_rules.as_ref()
    }

    pub(crate) fn rules_error(&self) -> Option<&LoadError> {
        self.history.rules().as_ref().err()
    }

    /// Whether the switches differ from the variant's.
    pub(crate) fn rules_modified(&self) -> bool {
        self.rules() != self.base_rules.as_ref()
    }

    /// The variant's name, "(modified)" when the switches were changed.
    pub(crate) fn rules_label(&self) -> String {
        if self.rules_modified() {
            format!("{} (modified)", self.variant)
        } else {
            self.variant.clone()
        }
    }

    pub(crate) fn report(&self) -> Option<&Report> {
        self.derived.report.as_ref()
    }

    /// The scenario as validated (its findings point into it).
    pub(crate) fn resolved(&self) -> Option<&ResolvedScenario> {
        self.derived.resolved.as_ref()
    }

    /// The game of the window's document under its rule set: the window's
    /// one way to start a game (see [`game_of`]).
    pub(crate) fn game(&self) -> Result<Game, NoGame> {
        let rules = self.rules().ok_or(NoGame::NothingLoaded)?;
        self.game_under(rules.clone(), self.variant())
    }

    /// The game of the window's document under `rules`, named `variant`.
    pub(crate) fn game_under(&self, rules: RuleSet, variant: &str) -> Result<Game, NoGame> {
        game_of(self.resolved(), rules, variant)
    }

    /// The built scenario, when it loaded.
    pub(crate) fn scenario(&self) -> Option<&Scenario> {
        self.report().map(|r| &r.scenario)
    }

    /// 5.3: the cities whose count of a side's blocks is off.
    pub(crate) fn balance(&self) -> &[CityBalance] {
        &self.derived.balance
    }

    pub(crate) fn selection(&self) -> Option<&Item> {
        self.selection.as_ref().map(Selection::item)
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub(crate) fn recent(&self) -> &Recent {
        &self.recent
    }

    pub(crate) fn scenario_revision(&self) -> u64 {
        self.scenario_revision
    }

    pub(crate) fn rules_revision(&self) -> u64 {
        self.rules_revision
    }

    /// Unsaved changes to the scenario.
    pub(crate) fn dirty(&self) -> bool {
        self.document().is_some_and(Document::is_dirty)
    }

    /// The document's file, when it has one.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.document().and_then(Document::path)
    }

    pub(crate) fn scenario_name(&self) -> String {
        match (self.document(), &self.load_error) {
            (Some(d), _) => d.working().name.clone(),
            (None, Some(_)) => "(no scenario)".to_string(),
            (None, None) => crate::scenario::HISTORICAL_PATH.to_string(),
        }
    }

    /// "Caesar Workbench — file.ron •" (the dot: unsaved changes).
    pub(crate) fn window_title(&self) -> String {
        let file = match self.path() {
            Some(p) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
            None => "built-in game".to_string(),
        };
        let dirty = if self.dirty() { " •" } else { "" };
        format!("Caesar Workbench — {file}{dirty}")
    }

    // ------------------------------------------------------------ changing

    pub(crate) fn set_recent(&mut self, recent: Recent) {
        self.recent = recent;
        if let Some(path) = self.path().map(Path::to_path_buf) {
            self.recent.push(&path);
        }
    }

    /// Selects an item by its names; an item the document does not have
    /// selects nothing.
    pub(crate) fn select(&mut self, item: Option<Item>) {
        let working = self.history.document().map(Document::working);
        self.selection = item
            .zip(working)
            .and_then(|(item, w)| Selection::of(&item, w));
    }

    pub(crate) fn note(&mut self, text: String) {
        self.status = Some(Status {
            text,
            is_error: false,
        });
    }

    pub(crate) fn dismiss_file_error(&mut self) {
        self.file_error = None;
    }

    pub(crate) fn set_file_error(&mut self, error: String) {
        self.file_error = Some(error);
    }

    /// Applies an edit to the document and validates again. A refused edit
    /// changes nothing; its reason is shown in the status line and returned.
    pub(crate) fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        if self.document().is_none() {
            return Err(EditError("no scenario is open".into()));
        }
        let label = edit.label();
        // A deletion clears the selection (a rename keeps it: see `Selection`).
        let deletes = matches!(
            edit,
            Edit::DeleteSpace { .. } | Edit::DeleteLink { .. } | Edit::DeleteBlock { .. }
        );
        let result = self.history.apply(edit);
        match &result {
            Ok(()) => {
                self.status = None;
                if deletes {
                    self.selection = None;
                }
            }
            Err(e) => {
                self.status = Some(Status {
                    text: format!("Cannot {label}: {e}"),
                    is_error: true,
                })
            }
        }
        self.scenario_changed();
        result
    }

    /// Changes the rule set in force (as the rules panel does) and revalidates.
    pub(crate) fn set_rules(&mut self, rules: RuleSet) {
        if self.history.set_rules(rules) {
            self.rules_changed();
        }
    }

    /// Puts the switches back as the variant sets them (undoable).
    pub(crate) fn reset_rules(&mut self) {
        if let Some(base) = self.base_rules.clone() {
            self.set_rules(base);
        }
    }

    /// Switches the rule set and validates again.
    pub(crate) fn set_variant(&mut self, variant: &str) {
        self.variant = variant.to_string();
        let rules = load_rules(variant);
        self.base_rules = rules.as_ref().ok().cloned();
        self.history.replace_rules(rules);
        self.rules_changed();
    }

    /// Takes back the newest edit (of the scenario or of the rule switches).
    pub(crate) fn undo(&mut self) -> bool {
        let changed = self.history.undo();
        self.after_step(changed)
    }

    /// Does again what undo took back.
    pub(crate) fn redo(&mut self) -> bool {
        let changed = self.history.redo();
        self.after_step(changed)
    }

    fn after_step(&mut self, changed: Option<Changed>) -> bool {
        match changed {
            Some(Changed::Document) => self.scenario_changed(),
            Some(Changed::Rules) => self.rules_changed(),
            None => return false,
        }
        true
    }

    /// Opens a scenario file now. A file that fails to load leaves the current
    /// document untouched and shows why, with line and column.
    pub(crate) fn open(&mut self, path: &Path) {
        match Document::open(path) {
            Ok(doc) => {
                self.recent.push(path);
                self.replace_document(doc);
                self.note(format!("Opened {}", path.display()));
            }
            Err(e) => self.file_error = Some(e.to_string()),
        }
    }

    /// Opens the built-in published game now.
    pub(crate) fn open_builtin(&mut self) {
        self.replace_document(Document::builtin());
    }

    fn replace_document(&mut self, doc: Document) {
        self.history.replace_document(doc);
        self.load_error = None;
        self.file_error = None;
        self.selection = None;
        self.scenario_changed();
    }

    /// Saves to the document's own file; false when it has none (the
    /// built-in game) or saving failed (the error is shown).
    pub(crate) fn save(&mut self) -> bool {
        match self.path().map(Path::to_path_buf) {
            Some(path) => self.save_as(&path),
            None => false,
        }
    }

    /// Saves atomically to `path` (keeping the previous file as `.bak`).
    pub(crate) fn save_as(&mut self, path: &Path) -> bool {
        let Some(saved) = self.history.save_as(path) else {
            self.file_error = Some("No scenario is open: nothing to save.".into());
            return false;
        };
        match saved {
            Ok(()) => {
                self.recent.push(path);
                self.file_error = None;
                self.note(format!("Saved {}", path.display()));
                // Findings now point into the saved file.
                self.scenario_changed();
                true
            }
            Err(e) => {
                self.file_error = Some(format!("{}: cannot save: {e}", path.display()));
                false
            }
        }
    }

    /// Writes the current switches as a variant file that extends the
    /// variant they started from, setting only what differs.
    pub(crate) fn save_variant_to(
        &mut self,
        path: &Path,
        name: &str,
    ) -> Result<(), SaveVariantError> {
        let (Some(rules), Some(base)) = (self.rules(), &self.base_rules) else {
            return Err(SaveVariantError::NoRules);
        };
        let extends = self.extends_spec(path);
        let name = if name.trim().is_empty() {
            format!("{} (modified)", base.name)
        } else {
            name.trim().to_string()
        };
        let text = variant_file(rules, &name, &extends, base);
        crate::files::save_atomically(path, &text).map_err(|source| SaveVariantError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        self.note(format!("Saved variant {}", path.display()));
        Ok(())
    }

    /// Writes an exported report; a failure is shown, not lost.
    pub(crate) fn export(&mut self, path: &Path, text: &str) -> bool {
        match crate::files::save_atomically(path, text) {
            Ok(()) => {
                self.file_error = None;
                self.note(format!("Exported {}", path.display()));
                true
            }
            Err(e) => {
                self.file_error = Some(format!("{}: cannot export: {e}", path.display()));
                false
            }
        }
    }

    /// How a variant saved at `path` names the one it extends: a built-in
    /// name as is, a file by its name beside it or by its full path.
    fn extends_spec(&self, path: &Path) -> String {
        if BUILTIN_VARIANTS.iter().any(|(n, _)| *n == self.variant) {
            return self.variant.clone();
        }
        let base = Path::new(&self.variant);
        let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
        let dir = path.parent().and_then(|d| std::fs::canonicalize(d).ok());
        match (base.parent(), dir) {
            (Some(a), Some(b)) if a == b => base
                .file_name()
                .map_or_else(|| self.variant.clone(), |n| n.to_string_lossy().into()),
            _ => base.display().to_string(),
        }
    }

    // ------------------------------------------------------------ derived

    fn scenario_changed(&mut self) {
        self.scenario_revision += 1;
        let working = self.history.document().map(Document::working);
        self.selection = self
            .selection
            .take()
            .zip(working)
            .and_then(|(s, w)| s.follow(w));
        self.revalidate();
    }

    fn rules_changed(&mut self) {
        self.rules_revision += 1;
        self.revalidate();
    }

    /// Validates the document again and rebuilds what is derived from it.
    fn revalidate(&mut self) {
        let Some(doc) = self.document() else {
            self.derived = Derived::default();
            return;
        };
        let resolved = doc.resolved();
        let report = match self.history.rules() {
            Ok(rules) => validate(&resolved, rules),
            // Without rules the map can still be drawn; the model's own
            // findings (unknown names, duplicates) are still worth showing.
            Err(_) => {
                let (scenario, findings) = Scenario::build(&resolved);
                Report { scenario, findings }
            }
        };
        self.derived = Derived {
            balance: free_deployment_balance(&report.scenario),
            report: Some(report),
            resolved: Some(resolved),
        };
    }
}

/// Loads a rule set by name or path.
pub(super) fn load_rules(variant: &str) -> Result<RuleSet, LoadError> {
    RuleSet::load(variant)
}
