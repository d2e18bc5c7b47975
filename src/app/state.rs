//! The window's state apart from its drawing: the scenario document, the rule
//! set, the selection, one history of every edit, and what is derived from
//! them (the validation report, the 5.3 balance), rebuilt only when they change.
//!
//! Panels never change this directly: they return [`super::Request`]s, which
//! [`super::WorkbenchApp`] applies here in one place.

use std::path::Path;

use crate::scenario::edit::{CityBalance, Document, Edit, Item, free_deployment_balance};
use crate::scenario::format::ResolvedScenario;
use crate::scenario::model::Scenario;
use crate::scenario::rule_fields::{rule_differences, variant_file};
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet};
use crate::scenario::validate::{Report, validate};

use super::Recent;

/// One entry of the history: what undo takes back (or redo does again).
#[derive(Debug, Clone)]
enum Change {
    /// A scenario edit. The document keeps the scenario's states; the
    /// history keeps their order among all edits.
    Scenario { label: String },
    /// A change of the rule switches, with the switches on the other side
    /// of it (before it on the undo list, after it on the redo list).
    Rules { label: String, other: Box<RuleSet> },
}

impl Change {
    fn label(&self) -> &str {
        match self {
            Change::Scenario { label } | Change::Rules { label, .. } => label,
        }
    }
}

/// The one history of the window: scenario edits and rule changes in the
/// order they were made. Undo takes back the newest, whatever its kind.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Change>,
    redo: Vec<Change>,
}

impl History {
    fn record(&mut self, change: Change) {
        self.undo.push(change);
        self.redo.clear();
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// What undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(Change::label)
    }

    /// What redo would do again.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(Change::label)
    }

    /// Drops every entry of one kind (a new document, a new variant).
    fn forget(&mut self, scenario: bool) {
        let keep = |c: &Change| matches!(c, Change::Scenario { .. }) != scenario;
        self.undo.retain(keep);
        self.redo.retain(keep);
    }

    /// How many scenario edits it holds for undo and for redo; the document
    /// must hold exactly as many states.
    fn scenario_depths(&self) -> (usize, usize) {
        let count = |l: &[Change]| {
            l.iter()
                .filter(|c| matches!(c, Change::Scenario { .. }))
                .count()
        };
        (count(&self.undo), count(&self.redo))
    }
}

/// A message for the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub is_error: bool,
}

/// What the window works on.
pub struct AppState {
    doc: Option<Document>,
    /// Why the scenario given at start could not be loaded (no document then).
    load_error: Option<String>,
    variant: String,
    rules: Result<RuleSet, String>,
    /// The rule set as loaded, before the switches were touched.
    base_rules: Option<RuleSet>,
    history: History,
    selection: Option<Item>,
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

impl AppState {
    /// Loads `scenario` (the built-in published game when `None`) under the
    /// rule set `variant` (a built-in name or a file). Failures are kept and
    /// shown in the window rather than returned.
    pub fn new(scenario: Option<&Path>, variant: &str) -> AppState {
        let (doc, load_error) = match scenario {
            None => (Some(Document::builtin()), None),
            Some(p) => match Document::open(p) {
                Ok(d) => (Some(d), None),
                Err(e) => (None, Some(e.to_string())),
            },
        };
        let rules = load_rules(variant);
        let mut state = AppState {
            doc,
            load_error,
            variant: variant.to_string(),
            base_rules: rules.as_ref().ok().cloned(),
            rules,
            history: History::default(),
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

    pub fn document(&self) -> Option<&Document> {
        self.doc.as_ref()
    }

    pub fn load_error(&self) -> Option<&str> {
        self.load_error.as_deref()
    }

    pub fn file_error(&self) -> Option<&str> {
        self.file_error.as_deref()
    }

    pub fn status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The rule set in force (with any switches changed).
    pub fn rules(&self) -> Option<&RuleSet> {
        self.rules.as_ref().ok()
    }

    /// The rule set as the variant defines it.
    pub fn base_rules(&self) -> Option<&RuleSet> {
        self.base_rules.as_ref()
    }

    pub fn rules_error(&self) -> Option<&str> {
        self.rules.as_ref().err().map(String::as_str)
    }

    /// Whether the switches differ from the variant's.
    pub fn rules_modified(&self) -> bool {
        self.rules.as_ref().ok() != self.base_rules.as_ref()
    }

    /// The variant's name, "(modified)" when the switches were changed.
    pub fn rules_label(&self) -> String {
        if self.rules_modified() {
            format!("{} (modified)", self.variant)
        } else {
            self.variant.clone()
        }
    }

    pub fn report(&self) -> Option<&Report> {
        self.derived.report.as_ref()
    }

    /// The scenario as validated (its findings point into it).
    pub fn resolved(&self) -> Option<&ResolvedScenario> {
        self.derived.resolved.as_ref()
    }

    /// The built scenario, when it loaded.
    pub fn scenario(&self) -> Option<&Scenario> {
        self.report().map(|r| &r.scenario)
    }

    /// 5.3: the cities whose count of a side's blocks is off.
    pub fn balance(&self) -> &[CityBalance] {
        &self.derived.balance
    }

    pub fn selection(&self) -> Option<&Item> {
        self.selection.as_ref()
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn recent(&self) -> &Recent {
        &self.recent
    }

    pub fn scenario_revision(&self) -> u64 {
        self.scenario_revision
    }

    pub fn rules_revision(&self) -> u64 {
        self.rules_revision
    }

    /// Unsaved changes to the scenario.
    pub fn dirty(&self) -> bool {
        self.doc.as_ref().is_some_and(Document::is_dirty)
    }

    /// The document's file, when it has one.
    pub fn path(&self) -> Option<&Path> {
        self.doc.as_ref().and_then(Document::path)
    }

    pub fn scenario_name(&self) -> String {
        match (&self.doc, &self.load_error) {
            (Some(d), _) => d.working().name.clone(),
            (None, Some(_)) => "(no scenario)".to_string(),
            (None, None) => crate::scenario::HISTORICAL_PATH.to_string(),
        }
    }

    /// "Caesar Workbench — file.ron •" (the dot: unsaved changes).
    pub fn window_title(&self) -> String {
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

    pub fn set_recent(&mut self, recent: Recent) {
        self.recent = recent;
        if let Some(path) = self.path().map(Path::to_path_buf) {
            self.recent.push(&path);
        }
    }

    pub fn select(&mut self, item: Option<Item>) {
        self.selection = item;
    }

    pub fn note(&mut self, text: String) {
        self.status = Some(Status {
            text,
            is_error: false,
        });
    }

    pub fn dismiss_file_error(&mut self) {
        self.file_error = None;
    }

    pub fn set_file_error(&mut self, error: String) {
        self.file_error = Some(error);
    }

    /// Applies an edit to the document and validates again. A refused edit
    /// changes nothing; its reason is shown in the status line and returned.
    pub fn apply(&mut self, edit: Edit) -> Result<(), String> {
        let Some(doc) = &mut self.doc else {
            return Err("no scenario is open".into());
        };
        let label = edit.label();
        let before = doc.undo_depth();
        let result = doc.apply(edit.clone()).map_err(|e| e.to_string());
        // The document records a step only for an edit that changed something.
        if doc.undo_depth() > before {
            // The document's label may say more (what a deleted block takes along).
            let label = doc.undo_label().unwrap_or(&label).to_string();
            self.history.record(Change::Scenario { label });
        }
        match &result {
            Ok(()) => {
                self.status = None;
                // A renamed space stays selected under its new name.
                if let (Edit::RenameSpace { space, name }, Some(Item::Space(s))) =
                    (&edit, &self.selection)
                    && s == space
                {
                    self.selection = Some(Item::Space(name.trim().to_string()));
                }
                // So does a renamed block.
                if let (Edit::RenameBlock { side, block, name }, Some(Item::Block(s, b))) =
                    (&edit, &self.selection)
                    && (s, b) == (side, block)
                {
                    self.selection = Some(Item::Block(*side, name.trim().to_string()));
                }
                if let (
                    Edit::DeleteSpace { .. } | Edit::DeleteLink { .. } | Edit::DeleteBlock { .. },
                    Some(_),
                ) = (&edit, &self.selection)
                {
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
    pub fn set_rules(&mut self, rules: RuleSet) {
        if self.rules.as_ref().ok() == Some(&rules) {
            return;
        }
        if let Ok(before) = std::mem::replace(&mut self.rules, Ok(rules)) {
            let label = match self
                .rules
                .as_ref()
                .map(|now| rule_differences(&before, now))
            {
                Ok(d) if d.len() == 1 => format!("the rule switch {}", d[0].0.name),
                _ => "a change of the rule switches".to_string(),
            };
            self.history.record(Change::Rules {
                label,
                other: Box::new(before),
            });
        }
        self.rules_changed();
    }

    /// Puts the switches back as the variant sets them (undoable).
    pub fn reset_rules(&mut self) {
        if let Some(base) = self.base_rules.clone() {
            self.set_rules(base);
        }
    }

    /// Switches the rule set and validates again.
    pub fn set_variant(&mut self, variant: &str) {
        self.variant = variant.to_string();
        self.rules = load_rules(variant);
        // Switch changes belong to the variant they were made to.
        self.history.forget(false);
        self.base_rules = self.rules.as_ref().ok().cloned();
        self.rules_changed();
    }

    /// Takes back the newest edit (of the scenario or of the rule switches).
    pub fn undo(&mut self) -> bool {
        self.step(true)
    }

    /// Does again what undo took back.
    pub fn redo(&mut self) -> bool {
        self.step(false)
    }

    fn step(&mut self, undo: bool) -> bool {
        let (from, to) = if undo {
            (&mut self.history.undo, &mut self.history.redo)
        } else {
            (&mut self.history.redo, &mut self.history.undo)
        };
        let Some(change) = from.pop() else {
            return false;
        };
        let back = match change {
            Change::Scenario { label } => {
                if let Some(doc) = &mut self.doc {
                    if undo {
                        doc.undo();
                    } else {
                        doc.redo();
                    }
                }
                Change::Scenario { label }
            }
            Change::Rules { label, other } => {
                match std::mem::replace(&mut self.rules, Ok(*other)) {
                    Ok(now) => Change::Rules {
                        label,
                        other: Box::new(now),
                    },
                    // Cannot happen: rule changes are forgotten with their variant.
                    Err(e) => {
                        self.rules = Err(e);
                        return false;
                    }
                }
            }
        };
        let scenario = matches!(back, Change::Scenario { .. });
        to.push(back);
        if scenario {
            self.scenario_changed();
        } else {
            self.rules_changed();
        }
        true
    }

    /// Opens a scenario file now. A file that fails to load leaves the current
    /// document untouched and shows why, with line and column.
    pub fn open(&mut self, path: &Path) {
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
    pub fn open_builtin(&mut self) {
        self.replace_document(Document::builtin());
    }

    fn replace_document(&mut self, doc: Document) {
        self.doc = Some(doc);
        // The new document's history starts empty.
        self.history.forget(true);
        self.load_error = None;
        self.file_error = None;
        self.selection = None;
        self.scenario_changed();
    }

    /// Saves to the document's own file; false when it has none (the
    /// built-in game) or saving failed (the error is shown).
    pub fn save(&mut self) -> bool {
        match self.path().map(Path::to_path_buf) {
            Some(path) => self.save_as(&path),
            None => false,
        }
    }

    /// Saves atomically to `path` (keeping the previous file as `.bak`).
    pub fn save_as(&mut self, path: &Path) -> bool {
        let Some(doc) = &mut self.doc else {
            self.file_error = Some("No scenario is open: nothing to save.".into());
            return false;
        };
        match doc.save_as(path) {
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
    pub fn save_variant_to(&mut self, path: &Path, name: &str) -> Result<(), String> {
        let (Ok(rules), Some(base)) = (&self.rules, &self.base_rules) else {
            return Err("no rule set is loaded".into());
        };
        let extends = self.extends_spec(path);
        let name = if name.trim().is_empty() {
            format!("{} (modified)", base.name)
        } else {
            name.trim().to_string()
        };
        let text = variant_file(rules, &name, &extends, base);
        crate::files::save_atomically(path, &text)
            .map_err(|e| format!("{}: cannot save: {e}", path.display()))?;
        self.note(format!("Saved variant {}", path.display()));
        Ok(())
    }

    /// Writes an exported report; a failure is shown, not lost.
    pub fn export(&mut self, path: &Path, text: &str) -> bool {
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
        self.revalidate();
    }

    fn rules_changed(&mut self) {
        self.rules_revision += 1;
        self.revalidate();
    }

    /// Validates the document again and rebuilds what is derived from it.
    fn revalidate(&mut self) {
        if let Some(doc) = &self.doc {
            let (undo, redo) = self.history.scenario_depths();
            debug_assert_eq!(
                undo,
                doc.undo_depth(),
                "one history entry per document step"
            );
            debug_assert_eq!(
                redo > 0,
                doc.can_redo(),
                "one history entry per document step"
            );
        }
        let Some(doc) = &self.doc else {
            self.derived = Derived::default();
            return;
        };
        let resolved = doc.resolved();
        let report = match &self.rules {
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
pub fn load_rules(variant: &str) -> Result<RuleSet, String> {
    RuleSet::load(variant).map_err(|e| e.to_string())
}
