//! The rule-set panel: every switch and number of a [`RuleSet`] as a control
//! with its rule number and a one-line explanation, a side-by-side view of
//! what two variants set differently, and saving the switches as a variant.

use egui::{RichText, Ui};

use super::state::{AppState, load_rules};
use super::{Action, FilePurpose, theme};
use crate::scenario::edit::rule_differences;
use crate::scenario::rules::{
    ApolloFirstTurn, AttackerRetreat, BUILTIN_VARIANTS, JupiterDefection, MainAttack, RoadLimits,
    RuleSet, VulcanTarget,
};

/// A field of [`RuleSet`]: its rule and what it decides (docs/rules-notes.md).
pub struct FieldInfo {
    pub name: &'static str,
    pub rule: &'static str,
    pub explain: &'static str,
}

const fn f(name: &'static str, rule: &'static str, explain: &'static str) -> FieldInfo {
    FieldInfo {
        name,
        rule,
        explain,
    }
}

/// Every field, in the order `RuleSet` declares them.
pub const FIELDS: &[FieldInfo] = &[
    f("years", "1.2", "Years in a game."),
    f(
        "turns_per_year",
        "2.0",
        "Game turns (cards played) per year.",
    ),
    f("hand_size", "2.1", "Cards dealt to each player each year."),
    f("discards", "2.1", "Cards each player discards unseen."),
    f("vp_to_win", "1.2", "VP that win the game after a year."),
    f(
        "vp_per_leader_killed",
        "7.51",
        "VP for each enemy leader killed.",
    ),
    f(
        "road_limits",
        "6.11, 4.32",
        "Blocks per player per turn on a major road, minor road, strait, and a strait into a defended city.",
    ),
    f(
        "strait_retreat_limit",
        "7.61",
        "Land blocks per battle round that may retreat across a strait.",
    ),
    f(
        "sea_retreat_limit",
        "7.64",
        "Land blocks per side per battle round that may retreat by sea.",
    ),
    f(
        "battle_rounds",
        "7.2",
        "Battle rounds; the attacker retreats in the last.",
    ),
    f(
        "winter_supply_base",
        "8.4",
        "Blocks every city supplies in winter, before adding its VP.",
    ),
    f(
        "caesar_player1_first_turn",
        "2.1",
        "2.0: Caesar is Player 1 on the game's first turn, whatever the cards.",
    ),
    f(
        "apollo_copy_decides_player1",
        "Apollo",
        "2.0: the copied card decides Player 1 (1.1: the Apollo player is).",
    ),
    f(
        "apollo_first_turn",
        "Apollo",
        "What Apollo copies on a year's first turn.",
    ),
    f(
        "jupiter_navis_at_sea",
        "Jupiter",
        "1.1: a Navis at sea may be taken.",
    ),
    f(
        "jupiter_cleopatra_defects",
        "Jupiter",
        "Cleopatra may defect (both texts).",
    ),
    f(
        "jupiter_defection",
        "Jupiter",
        "Where a defecting block goes: it stays, or moves to a friendly city.",
    ),
    f(
        "mars_group_move",
        "Mars, Neptune",
        "2.0: the card also gives one group move.",
    ),
    f(
        "mercury_land_only",
        "Mercury",
        "2.0: only land blocks take the extra move.",
    ),
    f(
        "pluto_attacks_only",
        "Pluto",
        "2.0: raised limits for attacks only, land units only.",
    ),
    f("pluto_road_limits", "Pluto", "Pluto's raised road limits."),
    f(
        "vulcan_target",
        "Vulcan",
        "1.1: any city; 2.0: an enemy city.",
    ),
    f(
        "vulcan_spares_cleopatra",
        "Vulcan",
        "2.0: Cleopatra at strength I is not reduced.",
    ),
    f(
        "main_attack",
        "6.12, 7.3",
        "1.1: the attacker declares the main attack; 2.0: the first road used.",
    ),
    f(
        "levy_on_moved_blocks",
        "6.4",
        "Blocks that moved may take steps in a friendly city (both texts).",
    ),
    f(
        "disrupt_defending_reserves",
        "7.31",
        "Defending reserves are disrupted too.",
    ),
    f(
        "attacker_retreat",
        "7.62",
        "1.1: retreating attackers go to one vacant city; 2.0: to any, splitting.",
    ),
    f(
        "regroup_to_one_city",
        "7.7",
        "1.1: the victor regroups to one adjacent city; 2.0: to any, splitting.",
    ),
    f(
        "removed_cards",
        "House rule",
        "Cards taken out of the deck: events by name, commands as \"3/1\".",
    ),
    f(
        "max_events_per_hand",
        "House rule",
        "At most this many events in a hand (redealt otherwise); hand size or more means no cap.",
    ),
];

fn choice<T: PartialEq + Copy + std::fmt::Debug>(
    ui: &mut Ui,
    id: &str,
    value: &mut T,
    options: &[T],
    label: egui::Id,
) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{value:?}"))
        .show_ui(ui, |ui| {
            for o in options {
                changed |= ui.selectable_value(value, *o, format!("{o:?}")).changed();
            }
        })
        .response
        .labelled_by(label);
    changed
}

fn number(ui: &mut Ui, value: &mut u8, max: u8, label: egui::Id) -> bool {
    ui.add(egui::DragValue::new(value).range(0..=max))
        .labelled_by(label)
        .changed()
}

fn limits(ui: &mut Ui, l: &mut RoadLimits) -> bool {
    let mut changed = false;
    for (label, v) in [
        ("major", &mut l.major),
        ("minor", &mut l.minor),
        ("strait", &mut l.strait),
        ("defended", &mut l.strait_attacking),
    ] {
        let l = ui.label(RichText::new(label).small());
        changed |= number(ui, v, 20, l.id);
    }
    changed
}

/// The control of one field; true when the user changed it.
fn control(ui: &mut Ui, r: &mut RuleSet, name: &str, cards: &mut String, label: egui::Id) -> bool {
    match name {
        "years" => number(ui, &mut r.years, 20, label),
        "turns_per_year" => number(ui, &mut r.turns_per_year, 20, label),
        "hand_size" => number(ui, &mut r.hand_size, 20, label),
        "discards" => number(ui, &mut r.discards, 20, label),
        "vp_to_win" => number(ui, &mut r.vp_to_win, 50, label),
        "vp_per_leader_killed" => number(ui, &mut r.vp_per_leader_killed, 10, label),
        "road_limits" => ui.horizontal(|ui| limits(ui, &mut r.road_limits)).inner,
        "strait_retreat_limit" => number(ui, &mut r.strait_retreat_limit, 20, label),
        "sea_retreat_limit" => number(ui, &mut r.sea_retreat_limit, 20, label),
        "battle_rounds" => number(ui, &mut r.battle_rounds, 10, label),
        "winter_supply_base" => number(ui, &mut r.winter_supply_base, 20, label),
        "caesar_player1_first_turn" => ui
            .checkbox(&mut r.caesar_player1_first_turn, "")
            .labelled_by(label)
            .changed(),
        "apollo_copy_decides_player1" => ui
            .checkbox(&mut r.apollo_copy_decides_player1, "")
            .labelled_by(label)
            .changed(),
        "apollo_first_turn" => choice(
            ui,
            name,
            &mut r.apollo_first_turn,
            &[
                ApolloFirstTurn::NoEffect,
                ApolloFirstTurn::CopiesPreviousYear,
            ],
            label,
        ),
        "jupiter_navis_at_sea" => ui
            .checkbox(&mut r.jupiter_navis_at_sea, "")
            .labelled_by(label)
            .changed(),
        "jupiter_cleopatra_defects" => ui
            .checkbox(&mut r.jupiter_cleopatra_defects, "")
            .labelled_by(label)
            .changed(),
        "jupiter_defection" => choice(
            ui,
            name,
            &mut r.jupiter_defection,
            &[
                JupiterDefection::InPlace,
                JupiterDefection::ToAdjacentFriendlyCity,
            ],
            label,
        ),
        "mars_group_move" => ui
            .checkbox(&mut r.mars_group_move, "")
            .labelled_by(label)
            .changed(),
        "mercury_land_only" => ui
            .checkbox(&mut r.mercury_land_only, "")
            .labelled_by(label)
            .changed(),
        "pluto_attacks_only" => ui
            .checkbox(&mut r.pluto_attacks_only, "")
            .labelled_by(label)
            .changed(),
        "pluto_road_limits" => {
            ui.horizontal(|ui| limits(ui, &mut r.pluto_road_limits))
                .inner
        }
        "vulcan_target" => choice(
            ui,
            name,
            &mut r.vulcan_target,
            &[VulcanTarget::AnyCity, VulcanTarget::EnemyCity],
            label,
        ),
        "vulcan_spares_cleopatra" => ui
            .checkbox(&mut r.vulcan_spares_cleopatra, "")
            .labelled_by(label)
            .changed(),
        "main_attack" => choice(
            ui,
            name,
            &mut r.main_attack,
            &[MainAttack::AttackerChooses, MainAttack::FirstRoadUsed],
            label,
        ),
        "levy_on_moved_blocks" => ui
            .checkbox(&mut r.levy_on_moved_blocks, "")
            .labelled_by(label)
            .changed(),
        "regroup_to_one_city" => ui
            .checkbox(&mut r.regroup_to_one_city, "")
            .labelled_by(label)
            .changed(),
        "disrupt_defending_reserves" => ui
            .checkbox(&mut r.disrupt_defending_reserves, "")
            .labelled_by(label)
            .changed(),
        "attacker_retreat" => choice(
            ui,
            name,
            &mut r.attacker_retreat,
            &[
                AttackerRetreat::OneCityByAttackRoad,
                AttackerRetreat::AnyCitiesByAttackRoads,
            ],
            label,
        ),
        "removed_cards" => {
            let response = ui
                .add(
                    egui::TextEdit::singleline(cards)
                        .hint_text("e.g. Jupiter, 3/1")
                        .desired_width(180.0),
                )
                .labelled_by(label);
            if response.lost_focus() || response.changed() {
                let list = card_list(cards);
                if list != r.removed_cards {
                    r.removed_cards = list;
                    return true;
                }
            }
            false
        }
        "max_events_per_hand" => number(ui, &mut r.max_events_per_hand, 20, label),
        other => {
            ui.colored_label(theme::ERROR, format!("no control for {other}"));
            false
        }
    }
}

/// The panel's own state: the text being typed, and what is derived from
/// the rule sets, kept until they change.
#[derive(Default)]
pub struct RulesPanel {
    /// The variant shown beside the current one.
    pub compare_with: String,
    /// Name for "Save as variant".
    pub new_name: String,
    /// The text of `removed_cards` while it is typed.
    cards: String,
    /// The fields changed from the variant, for the rules revision it was made for.
    changed: Option<(u64, Differences)>,
    /// The rule set compared with, by name.
    other: Option<(String, Result<RuleSet, String>)>,
    /// What the two rule sets set differently, for the rules revision and
    /// the rule set compared with.
    diff: Option<((u64, String), Differences)>,
}

/// Fields two rule sets set differently: name, one value, the other.
type Differences = Vec<(String, String, String)>;

/// The list of removed cards as typed.
fn card_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

impl RulesPanel {
    /// The Rules tab: every switch, then the differences from another rule set.
    pub fn show(&mut self, ui: &mut Ui, state: &AppState) -> Vec<Action> {
        let mut actions = Vec::new();
        let (Some(rules), Some(base)) = (state.rules(), state.base_rules()) else {
            ui.colored_label(
                theme::ERROR,
                format!(
                    "Variant {} could not be loaded: {}",
                    state.variant(),
                    state.rules_error().unwrap_or_default()
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
        match self.switches(ui, state.variant(), &mut draft) {
            Switches::None => {}
            Switches::Changed => actions.push(Action::SetRules(draft)),
            Switches::Reset => actions.push(Action::ResetRules),
            Switches::SaveVariant => actions.push(Action::Choose(FilePurpose::SaveVariant)),
        }
        ui.separator();
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
                ui.colored_label(theme::ERROR, e);
                return actions;
            }
            None => return actions,
        };
        if self.diff.as_ref().is_none_or(|(k, _)| *k != key) {
            self.diff = Some((key, rule_differences(rules, other)));
        }
        if let Some((_, diff)) = &self.diff {
            differences(ui, &state.rules_label(), &self.compare_with, diff);
        }
        actions
    }

    /// Every switch as a control; `rules` is changed in place.
    fn switches(&mut self, ui: &mut Ui, variant: &str, rules: &mut RuleSet) -> Switches {
        let mut action = Switches::None;
        let changed_fields = self.changed.as_ref().map_or(&[][..], |(_, d)| d.as_slice());
        ui.horizontal(|ui| {
            ui.heading(&rules.name);
            ui.label(RichText::new(format!("from {variant}")).weak());
        });
        ui.horizontal(|ui| {
            if changed_fields.is_empty() {
                ui.label(format!("As in {variant}."));
            } else {
                ui.colored_label(
                    theme::WARNING,
                    format!(
                        "{} changed from {variant}",
                        if changed_fields.len() == 1 {
                            "1 field".to_string()
                        } else {
                            format!("{} fields", changed_fields.len())
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
        ui.separator();
        let cards = &mut self.cards;
        egui::ScrollArea::vertical()
            .id_salt("rules")
            .max_height(ui.available_height() * 0.62)
            .show(ui, |ui| {
                egui::Grid::new("rule_fields")
                    .num_columns(4)
                    .striped(true)
                    .spacing([14.0, 5.0])
                    .show(ui, |ui| {
                        ui.label(RichText::new("Field").strong());
                        ui.label(RichText::new("Rule").strong());
                        ui.label(RichText::new("Value").strong());
                        ui.label(RichText::new("What it decides").strong());
                        ui.end_row();
                        for field in FIELDS {
                            let changed = changed_fields.iter().any(|(k, _, _)| k == field.name);
                            let name = RichText::new(field.name).monospace();
                            let label = ui.label(if changed {
                                name.color(theme::WARNING).strong()
                            } else {
                                name
                            });
                            ui.label(field.rule);
                            if control(ui, rules, field.name, cards, label.id)
                                && matches!(action, Switches::None)
                            {
                                action = Switches::Changed;
                            }
                            ui.label(field.explain);
                            ui.end_row();
                        }
                    });
            });
        action
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
                ui.label(RichText::new("Field").strong());
                ui.label(RichText::new("Rule").strong());
                ui.label(RichText::new(mine).strong());
                ui.label(RichText::new(theirs).strong());
                ui.end_row();
                for (field, a, b) in diff {
                    let rule = FIELDS
                        .iter()
                        .find(|f| f.name == field)
                        .map_or("", |f| f.rule);
                    ui.label(RichText::new(field).monospace());
                    ui.label(rule);
                    ui.label(RichText::new(a).monospace());
                    ui.label(RichText::new(b).monospace());
                    ui.end_row();
                }
            });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_field_has_a_rule_and_an_explanation() {
        let fields = crate::scenario::edit::rule_fields(&RuleSet::builtin("rules-1.1"));
        let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        let table: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(names, table);
        for f in FIELDS {
            assert!(!f.rule.is_empty() && !f.explain.is_empty(), "{}", f.name);
        }
    }
}
