//! The window's frame around the panels: the top bar with the File menu,
//! undo and redo, tabs and variant; the status line; the unsaved-changes
//! question; the keyboard shortcuts. Each returns what the user asked for.

use egui::{Context, Key, KeyboardShortcut, Modifiers, RichText, Ui};

use super::map::panel::MapPanel;
use super::state::AppState;
use super::{Answer, FilePurpose, Pending, Request, Tab, theme};
use crate::scenario::edit::{Edit, Item};
use crate::scenario::rules::BUILTIN_VARIANTS;

/// Ctrl+Z, Ctrl+Shift+Z (and Ctrl+Y), Ctrl+S, Ctrl+O, Delete; text fields
/// keep their own undo while they have the keyboard.
pub(super) fn shortcuts(ui: &mut Ui, tab: Tab, selection: Option<&Item>) -> Vec<Request> {
    let mut actions = Vec::new();
    if ui.ctx().egui_wants_keyboard_input() {
        return actions;
    }
    let cmd = Modifiers::COMMAND;
    let redo = ui.input_mut(|i| {
        i.consume_shortcut(&KeyboardShortcut::new(cmd | Modifiers::SHIFT, Key::Z))
            || i.consume_shortcut(&KeyboardShortcut::new(cmd, Key::Y))
    });
    if redo {
        actions.push(Request::Redo);
    } else if ui.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(cmd, Key::Z))) {
        actions.push(Request::Undo);
    }
    // Delete removes the selected space or link in the map editor.
    if tab == Tab::Map
        && ui.input_mut(|i| {
            i.consume_key(Modifiers::NONE, Key::Delete)
                || i.consume_key(Modifiers::NONE, Key::Backspace)
        })
    {
        match selection.cloned() {
            Some(Item::Space(space)) => actions.push(Request::Edit(Edit::DeleteSpace { space })),
            Some(Item::Link(a, b)) => actions.push(Request::Edit(Edit::DeleteLink { a, b })),
            _ => {}
        }
    }
    if ui.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(cmd, Key::S))) {
        actions.push(Request::Save);
    }
    if ui.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(cmd, Key::O))) {
        actions.push(Request::Choose(FilePurpose::OpenScenario));
    }
    actions
}

pub(super) fn top_bar(ui: &mut Ui, state: &AppState, tab: Tab, map: &MapPanel) -> Vec<Request> {
    let mut actions = Vec::new();
    ui.horizontal(|ui| {
        ui.menu_button("File", |ui| file_menu(ui, state, &mut actions));
        undo_redo(ui, state, &mut actions);
        ui.separator();
        tab_buttons(ui, tab, &mut actions);
        ui.separator();
        title(ui, state);
        ui.separator();
        variant_menu(ui, state, &mut actions);
        if matches!(tab, Tab::Map | Tab::Deployment) {
            map_buttons(ui, map, &mut actions);
        }
    });
    actions
}

/// Undo and Redo: the step each would take, or that there is none.
fn undo_redo(ui: &mut Ui, state: &AppState, actions: &mut Vec<Request>) {
    let history = state.history();
    for (can, word, step, keys, none, request) in [
        (
            history.can_undo(),
            "Undo",
            history.undo_label(),
            "Ctrl+Z",
            "Nothing to undo",
            Request::Undo,
        ),
        (
            history.can_redo(),
            "Redo",
            history.redo_label(),
            "Ctrl+Shift+Z",
            "Nothing to redo",
            Request::Redo,
        ),
    ] {
        let tip = step.map_or(none.to_string(), |l| format!("{word} {l} ({keys})"));
        if ui
            .add_enabled(can, egui::Button::new(word))
            .on_hover_text(tip)
            .on_disabled_hover_text(none)
            .clicked()
        {
            actions.push(request);
        }
    }
}

fn tab_buttons(ui: &mut Ui, tab: Tab, actions: &mut Vec<Request>) {
    for (t, label) in [
        (Tab::Map, "Map"),
        (Tab::Deployment, "Deployment"),
        (Tab::Setup, "Setup"),
        (Tab::Rules, "Rules"),
        (Tab::Simulation, "Simulate"),
        (Tab::Balance, "Balance"),
        (Tab::Play, "Play"),
        (Tab::Replay, "Replay"),
    ] {
        if ui.selectable_label(tab == t, label).clicked() {
            actions.push(Request::SetTab(t));
        }
    }
}

/// The scenario's name, and whether it has unsaved changes.
fn title(ui: &mut Ui, state: &AppState) {
    // In a narrow window (1000 px) the title gives way, not the Variant
    // box: it is cut with "…" and whole on hover.
    let room = (ui.available_width() - 230.0).clamp(80.0, 420.0);
    ui.scope(|ui| {
        ui.set_max_width(room);
        ui.add(
            egui::Label::new(
                RichText::new(state.scenario_name())
                    .strong()
                    .size(theme::TITLE_SIZE),
            )
            .truncate(),
        );
    });
    if state.dirty() {
        ui.label(RichText::new("unsaved").color(theme::WARNING))
            .on_hover_text("The scenario has changes that are not saved");
    }
}

fn variant_menu(ui: &mut Ui, state: &AppState, actions: &mut Vec<Request>) {
    let label = ui.label("Variant");
    let variant = state.variant();
    let mut chosen = variant.to_string();
    let combo = egui::ComboBox::from_id_salt("variant")
        .selected_text(state.rules_label())
        // Narrower in a narrow window (1000 px): whole, never clipped.
        .width((ui.available_width() - 12.0).clamp(110.0, 240.0))
        .truncate()
        .show_ui(ui, |ui| {
            let builtin = BUILTIN_VARIANTS.iter().any(|(n, _)| *n == variant);
            if !builtin {
                // A variant file given on the command line stays selectable.
                ui.selectable_value(&mut chosen, variant.to_string(), variant);
            }
            for (name, _) in BUILTIN_VARIANTS {
                ui.selectable_value(&mut chosen, (*name).to_string(), *name);
            }
        });
    // Screen readers (and the GUI tests) find the selector as "Variant".
    let _ = combo.response.labelled_by(label.id);
    if chosen != variant {
        actions.push(Request::SetVariant(chosen));
    }
}

/// Fit and the zoom, on the tabs that show the map.
fn map_buttons(ui: &mut Ui, map: &MapPanel, actions: &mut Vec<Request>) {
    ui.separator();
    if ui
        .button("Fit")
        .on_hover_text("Show the whole map (the wheel zooms, dragging pans)")
        .clicked()
    {
        actions.push(Request::FitMap);
    }
    if map.has_model() {
        ui.label(
            RichText::new(format!("zoom {:.0}%", map.view.zoom() * 100.0))
                .weak()
                .small(),
        );
    }
}

fn file_menu(ui: &mut Ui, state: &AppState, actions: &mut Vec<Request>) {
    if ui.button("Open scenario…").clicked() {
        actions.push(Request::Choose(FilePurpose::OpenScenario));
    }
    if ui.button("Open the published game").clicked() {
        actions.push(Request::OpenBuiltin);
    }
    ui.menu_button("Open recent", |ui| {
        let recent = state.recent().paths();
        if recent.is_empty() {
            ui.label(RichText::new("No recent files").weak());
        }
        for p in recent {
            if ui.button(p.display().to_string()).clicked() {
                actions.push(Request::Open(p.clone()));
            }
        }
    });
    ui.separator();
    if ui
        .add_enabled(state.path().is_some(), egui::Button::new("Save"))
        .on_disabled_hover_text("The built-in game has no file: use Save as")
        .clicked()
    {
        actions.push(Request::Save);
    }
    if ui
        .add_enabled(state.document().is_some(), egui::Button::new("Save as…"))
        .clicked()
    {
        actions.push(Request::Choose(FilePurpose::SaveScenario { then: None }));
    }
    ui.separator();
    if ui.button("Open variant…").clicked() {
        actions.push(Request::Choose(FilePurpose::OpenVariant));
    }
    if ui
        .add_enabled(
            state.rules().is_some(),
            egui::Button::new("Save switches as variant…"),
        )
        .clicked()
    {
        actions.push(Request::Choose(FilePurpose::SaveVariant));
    }
}

pub(super) fn status_bar(ui: &mut Ui, state: &AppState, tab: Tab) -> Vec<Request> {
    let mut actions = Vec::new();
    ui.horizontal(|ui| {
        if let Some(e) = state.file_error() {
            ui.colored_label(theme::ERROR, e);
            if ui.small_button("Dismiss").clicked() {
                actions.push(Request::DismissFileError);
            }
        } else if let Some(s) = state.status() {
            let colour = if s.is_error {
                theme::ERROR
            } else {
                theme::GOOD
            };
            ui.colored_label(colour, &s.text);
        } else {
            let hint = match tab {
                Tab::Map => {
                    "Click a space or link to edit it; drag a space to move it; shift+click another space to link it; Delete removes it."
                }
                Tab::Deployment => {
                    "Drag blocks between cities and the pools; click a block to select it."
                }
                Tab::Rules => "Every change revalidates the scenario.",
                Tab::Setup => {
                    "Every change to the roster, deck or settings is one undo step and revalidates the scenario."
                }
                Tab::Simulation => {
                    "Runs go on in the background; the battle calculator updates as you type."
                }
                Tab::Play => {
                    "Click a card, a space or a block; every legal action is also listed on the right. Ctrl+Z takes back your last decision."
                }
                Tab::Replay => "The left and right arrow keys step through the game; the slider goes anywhere.",
                Tab::Balance => {
                    "The run goes on in the background and keeps a checkpoint in its folder: Resume goes on after a cancel."
                }
            };
            ui.label(RichText::new(hint).weak());
        }
    });
    actions
}

/// "Save your changes first?" while an action waits for the answer.
pub(super) fn confirm_dialog(ctx: &Context, pending: &Pending, scenario: &str) -> Option<Request> {
    let what = match pending {
        Pending::Open(p) => format!("open {}", p.display()),
        Pending::OpenBuiltin => "open the published game".to_string(),
        Pending::Quit => "quit".to_string(),
    };
    let mut answer = None;
    egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
        ui.heading("Unsaved changes");
        ui.label(format!(
            "\"{scenario}\" has changes that are not saved. Save them before you {what}?"
        ));
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                answer = Some(Answer::Save);
            }
            if ui.button("Discard").clicked() {
                answer = Some(Answer::Discard);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::Cancel);
            }
        });
    });
    answer.map(Request::Answer)
}
