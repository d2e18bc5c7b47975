//! The window's one undo history. It owns what it takes back, the scenario
//! document and the rule switches, so neither changes behind its back: every
//! step the document keeps for undo has exactly one entry here, in the order
//! the edits were made among the rule changes.

use std::path::Path;

use crate::scenario::edit::{Document, Edit, EditError};
use crate::scenario::format::LoadError;
use crate::scenario::rule_fields::rule_differences;
use crate::scenario::rules::RuleSet;

/// What one undo takes back (or one redo does again).
#[derive(Debug, Clone)]
enum Change {
    /// A scenario edit. The document keeps the states on either side of it
    /// ([`Document::undo`], [`Document::redo`]): they are not copied here.
    Document,
    /// A change of the rule switches, holding the switches on the other side
    /// of it (before it on the undo list, after it on the redo list).
    Rules(Box<RuleSet>),
}

#[derive(Debug, Clone)]
struct Entry {
    label: String,
    change: Change,
}

/// Which of the two an undo or redo changed, for the caller to rebuild what
/// derives from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Changed {
    Document,
    Rules,
}

/// The scenario document and the rule switches in force, with the one history
/// of their changes: undo takes back the newest, whatever its kind.
#[derive(Debug)]
pub struct History {
    doc: Option<Document>,
    rules: Result<RuleSet, LoadError>,
    undo: Vec<Entry>,
    redo: Vec<Entry>,
}

impl History {
    pub(crate) fn new(doc: Option<Document>, rules: Result<RuleSet, LoadError>) -> History {
        History {
            doc,
            rules,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    pub(crate) fn document(&self) -> Option<&Document> {
        self.doc.as_ref()
    }

    pub(crate) fn rules(&self) -> &Result<RuleSet, LoadError> {
        &self.rules
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// What undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|e| e.label.as_str())
    }

    /// What redo would do again.
    pub(crate) fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|e| e.label.as_str())
    }

    fn record(&mut self, label: String, change: Change) {
        self.undo.push(Entry { label, change });
        self.redo.clear();
    }

    /// Applies an edit to the document; a refused edit
    /// changes nothing, and an edit that changes nothing leaves no entry (the
    /// document keeps no step for it either).
    pub(crate) fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        let Some(doc) = &mut self.doc else {
            return Err(EditError("no scenario is open".into()));
        };
        let steps_before = doc.undo_depth();
        doc.apply(edit)?;
        if doc.undo_depth() > steps_before {
            // The document's label may say more than the edit's (what a
            // deleted block takes along).
            let label = doc.undo_label().unwrap_or_default().to_string();
            self.record(label, Change::Document);
        }
        Ok(())
    }

    /// Puts `rules` in force; a change from loaded rules is recorded. False
    /// when they are the rules already in force.
    pub(crate) fn set_rules(&mut self, rules: RuleSet) -> bool {
        if self.rules.as_ref().ok() == Some(&rules) {
            return false;
        }
        let label = self.rules.as_ref().ok().map(|before| {
            match rule_differences(before, &rules).as_slice() {
                [(field, ..)] => format!("the rule switch {}", field.name),
                _ => "a change of the rule switches".to_string(),
            }
        });
        let before = std::mem::replace(&mut self.rules, Ok(rules));
        if let (Ok(before), Some(label)) = (before, label) {
            self.record(label, Change::Rules(Box::new(before)));
        }
        true
    }

    /// Another variant's rules: the switch changes belong to the variant they
    /// were made to, so they leave the history.
    pub(crate) fn replace_rules(&mut self, rules: Result<RuleSet, LoadError>) {
        self.rules = rules;
        self.forget(|c| matches!(c, Change::Rules(_)));
    }

    /// Another document: its history starts empty; rule changes stay.
    pub(crate) fn replace_document(&mut self, doc: Document) {
        self.doc = Some(doc);
        self.forget(|c| matches!(c, Change::Document));
    }

    fn forget(&mut self, drop: impl Fn(&Change) -> bool) {
        self.undo.retain(|e| !drop(&e.change));
        self.redo.retain(|e| !drop(&e.change));
    }

    /// Saves the document to `path` (not a change the history records);
    /// `None` when no document is open.
    pub(crate) fn save_as(&mut self, path: &Path) -> Option<std::io::Result<()>> {
        self.doc.as_mut().map(|doc| doc.save_as(path))
    }

    /// Takes back the newest change; `None` when there is none.
    pub(crate) fn undo(&mut self) -> Option<Changed> {
        self.shift(true)
    }

    /// Does again what undo took back; `None` when there is nothing.
    pub(crate) fn redo(&mut self) -> Option<Changed> {
        self.shift(false)
    }

    /// Moves the newest entry of one list (undo's when `backwards`, else
    /// redo's) to the other, carrying it out on the way.
    fn shift(&mut self, backwards: bool) -> Option<Changed> {
        let entry = if backwards {
            self.undo.pop()
        } else {
            self.redo.pop()
        }?;
        let entry = self.step(entry, backwards);
        let changed = entry.changed();
        if backwards {
            self.redo.push(entry);
        } else {
            self.undo.push(entry);
        }
        Some(changed)
    }

    /// Carries out one entry backwards or forwards; returns the entry for
    /// the other list.
    fn step(&mut self, mut entry: Entry, backwards: bool) -> Entry {
        match &mut entry.change {
            Change::Document => {
                if let Some(doc) = &mut self.doc {
                    if backwards {
                        doc.undo();
                    } else {
                        doc.redo();
                    }
                }
            }
            // Rule entries exist only while rules are loaded: a variant that
            // fails to load takes them along (`replace_rules`).
            Change::Rules(other) => {
                if let Ok(now) = &mut self.rules {
                    std::mem::swap(now, other);
                }
            }
        }
        entry
    }
}

impl Entry {
    fn changed(&self) -> Changed {
        match self.change {
            Change::Document => Changed::Document,
            Change::Rules(_) => Changed::Rules,
        }
    }
}
