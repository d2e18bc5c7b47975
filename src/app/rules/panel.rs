//! The rule-set panel: every switch and number of a [`RuleSet`] as a control
//! with its rule number and a one-line explanation, a side-by-side view of
//! what two variants set differently, saving the switches as a variant, and
//! the explanation of two rule sets' differences ([`super::explain_view`]),
//! whose bars and field names show their field in the rule table.

use egui::{RichText, Ui};

use super::explain_view::{Clicked, ExplainPanel};
use crate::app::player_picker::SetupRatings;
use crate::app::simulate::panel::SimPanel;
use crate::app::state::{AppState, load_rules};
use crate::app::{FilePurpose, Request, theme};
use crate::scenario::format::LoadError;
use crate::scenario::model::Deck;
use crate::scenario::playable;
use crate::scenario::rule_fields::{
    FieldKind, FieldValue, LIMIT_PARTS, RuleField, rule_differences,
};
use crate::scenario::rules::{BUILTIN_VARIANTS, RuleSet};

/// The control of one field, drawn from its kind in the rule table; the
/// new value when the user changed it.
fn control(
    ui: &mut Ui,
    field: &RuleField,
    value: &FieldValue,
    cards: &mut String,
    label: egui::Id,
) -> Option<FieldValue> {
    match (field.kind, value) {
        (FieldKind::Number { min, max }, FieldValue::Number(n)) => {
            let mut n = *n;
            number(ui, &mut n, min..=max, label).then_some(FieldValue::Number(n))
        }
        (FieldKind::Switch, FieldValue::Switch(on)) => {
            let mut on = *on;
            ui.checkbox(&mut on, "")
                .labelled_by(label)
                .changed()
                .then_some(FieldValue::Switch(on))
        }
        (FieldKind::Choice { options }, FieldValue::Choice(now)) => {
            let mut picked = None;
            egui::ComboBox::from_id_salt(field.name)
                .selected_text(choice_words(now))
                .show_ui(ui, |ui| {
                    for option in options {
                        let entry = ui
                            .selectable_label(now == option, choice_words(option))
                            .on_hover_text(format!("In a variant file: {option}"));
                        if entry.clicked() && now != option {
                            picked = Some(FieldValue::Choice(option.to_string()));
                        }
                    }
                })
                .response
                .labelled_by(label)
                .on_hover_text(format!("In a variant file: {now}"));
            picked
        }
        (FieldKind::Limits { max }, FieldValue::Limits(limits)) => {
            let mut limits = *limits;
            let changed = ui
                .horizontal(|ui| {
                    let mut changed = false;
                    for (part, v) in LIMIT_PARTS.iter().zip([
                        &mut limits.major,
                        &mut limits.minor,
                        &mut limits.strait,
                        &mut limits.strait_attacking,
                    ]) {
                        let shown = if *part == "strait_attacking" {
                            "defended"
                        } else {
                            part
                        };
                        let l = ui.label(RichText::new(shown).small());
                        changed |= number(ui, v, 0..=max, l.id);
                    }
                    changed
                })
                .inner;
            changed.then_some(FieldValue::Limits(limits))
        }
        (FieldKind::Cards, FieldValue::Cards(now)) => {
            let response = ui
                .add(
                    egui::TextEdit::singleline(cards)
                        .hint_text("e.g. Jupiter, 3/1")
                        .desired_width(180.0),
                )
                .labelled_by(label);
            let list = card_list(cards);
            ((response.lost_focus() || response.changed()) && list != *now)
                .then_some(FieldValue::Cards(list))
        }
        _ => {
            ui.colored_label(theme::ERROR, format!("{value} does not fit {}", field.name));
            None
        }
    }
}

/// A number within the rule table's range (what the engine plays).
fn number(
    ui: &mut Ui,
    value: &mut u8,
    range: std::ops::RangeInclusive<u8>,
    label: egui::Id,
) -> bool {
    ui.add(egui::DragValue::new(value).range(range))
        .labelled_by(label)
        .changed()
}

/// The panel's own state: the text being typed, and what is derived from
/// the rule sets, kept until they change.
#[derive(Default)]
pub(in crate::app) struct RulesPanel {
    /// The variant shown beside the current one.
    pub compare_with: String,
    /// Name for "Save as variant".
    pub new_name: String,
    /// The text of `removed_cards` while it is typed.
    cards: String,
    /// The fields changed from the variant, for the rules revision it was made for.
    changed: Option<(u64, Differences)>,
    /// The rule set compared with, by name.
    other: Option<(String, Result<RuleSet, LoadError>)>,
    /// What the two rule sets set differently, for the rules revision and
    /// the rule set compared with.
    diff: Option<((u64, String), Differences)>,
    /// "Explain the differences": its settings and its last result.
    pub explain: ExplainPanel,
    /// The field shown highlighted in the rule table (clicked in the
    /// explanation), and whether the table is still to scroll to it.
    pub highlighted: Option<String>,
    scroll_to_highlighted: bool,
    /// The last change refused because the engine could not play it, in words.
    refused: Option<String>,
}

/// Fields two rule sets set differently: the field, one value, the other.
type Differences = Vec<(&'static RuleField, FieldValue, FieldValue)>;

/// The list of removed cards as typed.
fn card_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

impl RulesPanel {
    /// The Rules tab: every switch, then the differences from another rule
    /// set beside the explanation of two rule sets (run on `sim`'s runner).
    pub(in crate::app) fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        setup: &SetupRatings,
        sim: &mut SimPanel,
    ) -> Vec<Request> {
        let mut actions = Vec::new();
        let (Some(rules), Some(base)) = (state.rules(), state.base_rules()) else {
            ui.colored_label(
                theme::ERROR,
                format!(
                    "Variant {} could not be loaded: {}",
                    state.variant(),
                    state
                        .rules_error()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                ),
            );
            return actions;
        };
        let revision = state.rules_revision();
        if self.changed.as_ref().is_none_or(|(r, _)| *r != revision) {
            self.changed = Some((revision, rule_differences(base, rules)));
        }
        // Undo, reset or another variant put other cards in: show them.
        if card_list(&self.cards) != rules.removed_cards {
            self.cards = rules.removed_cards.join(", ");
        }
        let mut draft = rules.clone();
        let deck = state.scenario().map(|s| &s.deck);
        match self.switches(ui, state.variant(), deck, &mut draft) {
            Switches::None => {}
            Switches::Changed => actions.push(Request::SetRules(draft)),
            Switches::Reset => actions.push(Request::ResetRules),
            Switches::SaveVariant => actions.push(Request::Choose(FilePurpose::SaveVariant)),
        }
        ui.separator();
        let mut clicks = Vec::new();
        ui.columns(2, |columns| {
            let [left, right] = columns else { return };
            self.differences_section(left, state, revision, rules);
            clicks.extend(
                self.explain
                    .controls(right, state, setup, sim, &self.compare_with),
            );
            right.separator();
            egui::ScrollArea::vertical()
                .id_salt("explain_results")
                .show(right, |ui| {
                    clicks.extend(self.explain.results(ui, self.highlighted.as_deref()));
                });
        });
        for click in clicks {
            match click {
                Clicked::Field(name) => {
                    self.highlighted = Some(name);
                    self.scroll_to_highlighted = true;
                }
                Clicked::Request(request) => actions.push(request),
            }
        }
        actions
    }

    /// "Compare with" and the fields the two rule sets set differently.
    fn differences_section(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        revision: u64,
        rules: &RuleSet,
    ) {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Differences").strong());
            let l = ui.label("Compare with");
            if self.compare_with.is_empty() {
                self.compare_with = if state.variant() == "rules-1.1" {
                    "rules-2.0".into()
                } else {
                    "rules-1.1".into()
                };
            }
            egui::ComboBox::from_id_salt("compare_with")
                .selected_text(self.compare_with.as_str())
                .show_ui(ui, |ui| {
                    for (name, _) in BUILTIN_VARIANTS {
                        ui.selectable_value(&mut self.compare_with, (*name).to_string(), *name);
                    }
                })
                .response
                .labelled_by(l.id);
        });
        if self
            .other
            .as_ref()
            .is_none_or(|(name, _)| *name != self.compare_with)
        {
            let other = load_rules(&self.compare_with);
            self.other = Some((self.compare_with.clone(), other));
            self.diff = None;
        }
        let key = (revision, self.compare_with.clone());
        let other = match &self.other {
            Some((_, Ok(other))) => other,
            Some((_, Err(e))) => {
                ui.colored_label(theme::ERROR, e.to_string());
                return;
            }
            None => return,
        };
        if self.diff.as_ref().is_none_or(|(k, _)| *k != key) {
            self.diff = Some((key, rule_differences(rules, other)));
        }
        if let Some((_, diff)) = &self.diff {
            differences(ui, &state.rules_label(), &self.compare_with, diff);
        }
    }

    /// Every switch as a control; `rules` is changed in place. A change the
    /// engine could not play with `deck` (battle_rounds 1, no turns ...) is
    /// refused and said under the heading.
    fn switches(
        &mut self,
        ui: &mut Ui,
        variant: &str,
        deck: Option<&Deck>,
        rules: &mut RuleSet,
    ) -> Switches {
        let changed_count = self.changed.as_ref().map_or(0, |(_, d)| d.len());
        let mut action = self.switches_heading(ui, variant, &rules.name, changed_count);
        let changed_fields = self.changed.as_ref().map_or(&[][..], |(_, d)| d.as_slice());
        if let Some(refused) = &self.refused {
            ui.colored_label(theme::ERROR, refused);
        }
        ui.separator();
        let cards = &mut self.cards;
        let refused = &mut self.refused;
        let highlighted = self.highlighted.as_deref();
        let scroll_to = &mut self.scroll_to_highlighted;
        let values = rules.field_values();
        // An explanation on screen takes room from the table, which
        // scrolls to the field clicked in it.
        let share = if self.explain.report().is_some() {
            0.3
        } else {
            0.62
        };
        egui::ScrollArea::vertical()
            .id_salt("rules")
            .max_height(ui.available_height() * share)
            .show(ui, |ui| {
                egui::Grid::new("rule_fields")
                    .num_columns(4)
                    .striped(true)
                    .spacing([14.0, 5.0])
                    .show(ui, |ui| {
                        header_row(ui, ["Field", "Rule", "Value", "What it decides"]);
                        for (field, value) in values {
                            let changed =
                                changed_fields.iter().any(|(f, _, _)| f.name == field.name);
                            let highlight =
                                (highlighted == Some(field.name)).then_some(&mut *scroll_to);
                            let label = field_label(ui, field, changed, highlight);
                            ui.label(field.rule);
                            if let Some(new) = control(ui, field, &value, cards, label.id)
                                && matches!(action, Switches::None)
                                && let Ok(changed) = rules.with_field(field, &new)
                            {
                                match newly_unplayable(deck, rules, &changed) {
                                    Some(why) => {
                                        *refused = Some(format!(
                                            "Not applied: {} = {}: {why}",
                                            field.name,
                                            value_words(&new)
                                        ));
                                    }
                                    None => {
                                        *refused = None;
                                        *rules = changed;
                                        action = Switches::Changed;
                                    }
                                }
                            }
                            ui.label(field.explain);
                            ui.end_row();
                        }
                    });
            });
        action
    }

    /// The rule set's name, what changed from `variant` (with Reset), and
    /// the variant name and its Save button.
    fn switches_heading(
        &mut self,
        ui: &mut Ui,
        variant: &str,
        name: &str,
        changed_count: usize,
    ) -> Switches {
        let mut action = Switches::None;
        ui.horizontal(|ui| {
            ui.heading(name);
            ui.label(RichText::new(format!("from {variant}")).weak());
        });
        ui.horizontal(|ui| {
            if changed_count == 0 {
                ui.label(format!("As in {variant}."));
            } else {
                ui.colored_label(
                    theme::WARNING,
                    format!(
                        "{} changed from {variant}",
                        if changed_count == 1 {
                            "1 field".to_string()
                        } else {
                            format!("{changed_count} fields")
                        }
                    ),
                );
                if ui.button("Reset").clicked() {
                    action = Switches::Reset;
                }
            }
            ui.separator();
            let l = ui.label("New variant name");
            ui.add(
                egui::TextEdit::singleline(&mut self.new_name).desired_width(theme::FIELD_WIDTH),
            )
            .labelled_by(l.id);
            if ui
                .button("Save as variant…")
                .on_hover_text(format!(
                    "Write a variant file that extends {variant} and sets only what differs"
                ))
                .clicked()
            {
                action = Switches::SaveVariant;
            }
        });
        action
    }
}

/// Why the engine could not play `changed` when it could play `now` (the
/// requirements the change breaks, in the validator's words); `None` when
/// it breaks none. A rule set already unplayable (a variant file) may still
/// be changed, one field at a time, toward one that plays.
fn newly_unplayable(deck: Option<&Deck>, now: &RuleSet, changed: &RuleSet) -> Option<String> {
    let deck = deck?;
    let before: Vec<_> = playable::check(deck, now)
        .into_iter()
        .map(|u| u.requirement)
        .collect();
    let broken: Vec<String> = playable::check(deck, changed)
        .into_iter()
        .filter(|u| !before.contains(&u.requirement))
        .map(|u| u.to_string())
        .collect();
    (!broken.is_empty()).then(|| {
        format!(
            "the engine could not play it ({}). The value stays as it was.",
            broken.join("; ")
        )
    })
}

/// A field's name in the rule table: marked when changed from the variant;
/// selected when clicked in the explanation (`highlight`, with whether the
/// table is still to scroll to it, which it does once).
fn field_label(
    ui: &mut Ui,
    field: &RuleField,
    changed: bool,
    highlight: Option<&mut bool>,
) -> egui::Response {
    let name = RichText::new(field.name).monospace();
    let name = if changed {
        name.color(theme::WARNING).strong()
    } else {
        name
    };
    let Some(scroll_to) = highlight else {
        return ui.label(name);
    };
    let label = ui.add(egui::Button::selectable(true, name));
    if std::mem::take(scroll_to) {
        label.scroll_to_me(Some(egui::Align::Center));
    }
    label
}

/// A choice as a designer reads it: `ToAdjacentFriendlyCity` is "To
/// adjacent friendly city" (the file's word is the hover text).
fn choice_words(option: &str) -> String {
    let mut out = String::with_capacity(option.len() + 4);
    for (i, c) in option.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A field's value in the differences table: a choice in words, a number
/// or switch as it is.
fn value_words(value: &FieldValue) -> String {
    match value {
        FieldValue::Choice(c) => choice_words(c),
        FieldValue::Switch(true) => "on".to_string(),
        FieldValue::Switch(false) => "off".to_string(),
        other => other.to_string(),
    }
}

/// What the user did with the switches.
enum Switches {
    None,
    Changed,
    Reset,
    SaveVariant,
}

/// The side-by-side view: only the fields the two rule sets set differently.
fn differences(ui: &mut Ui, mine: &str, theirs: &str, diff: &Differences) {
    if diff.is_empty() {
        ui.label(format!("{mine} and {theirs} set every field the same."));
        return;
    }
    egui::ScrollArea::vertical().id_salt("diff").show(ui, |ui| {
        egui::Grid::new("rule_diff")
            .num_columns(4)
            .striped(true)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                header_row(ui, ["Field", "Rule", mine, theirs]);
                for (field, a, b) in diff {
                    ui.label(RichText::new(field.name).monospace());
                    ui.label(field.rule);
                    ui.label(value_words(a));
                    ui.label(value_words(b));
                    ui.end_row();
                }
            });
    });
}

/// A rule table's header: each column's title in strong type, one row.
fn header_row(ui: &mut Ui, titles: [&str; 4]) {
    for title in titles {
        ui.label(RichText::new(title).strong());
    }
    ui.end_row();
}
