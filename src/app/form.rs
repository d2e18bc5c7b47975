//! The parts of the window's forms: a control after the label that names
//! it (for screen readers too: egui's `labelled_by`), as a grid row or
//! inline, and a combo box choosing one of a list of values. The settings
//! grids of every tab are made of them.

use egui::{Response, Ui, Widget, WidgetText};

use super::theme;

/// `widget` after its label `text`, which names it.
pub(super) fn labelled(ui: &mut Ui, text: impl Into<WidgetText>, widget: impl Widget) -> Response {
    let label = ui.label(text);
    ui.add(widget).labelled_by(label.id)
}

/// [`labelled`] as a row of a grid: the row ends after the control.
pub(super) fn row(ui: &mut Ui, text: impl Into<WidgetText>, widget: impl Widget) -> Response {
    let response = labelled(ui, text, widget);
    ui.end_row();
    response
}

/// A name field as a grid row, committed on leaving it: true when it
/// lost the focus holding a name (trimmed) other than `saved`.
pub(super) fn name_row(ui: &mut Ui, text: &str, name: &mut String, saved: &str) -> bool {
    let field = egui::TextEdit::singleline(name).desired_width(theme::FIELD_WIDTH);
    let response = row(ui, text, field);
    committed(&response, name, saved)
}

/// Whether a text field is committed on leaving it: true when its
/// `response` lost the focus holding a `text` (trimmed) other than `saved`.
pub(super) fn committed(response: &Response, text: &str, saved: &str) -> bool {
    response.lost_focus() && text.trim() != saved
}

/// A combo box setting `value` to one of `options`, each shown by `name`.
pub(super) fn choice<'a, T: Copy + PartialEq, S: Into<WidgetText>>(
    id_salt: impl egui::AsIdSalt + 'a,
    value: &'a mut T,
    options: impl IntoIterator<Item = T> + 'a,
    name: impl Fn(T) -> S + 'a,
) -> impl Widget + 'a {
    move |ui: &mut Ui| {
        egui::ComboBox::from_id_salt(id_salt)
            .selected_text(name(*value))
            .show_ui(ui, |ui| {
                for option in options {
                    ui.selectable_value(value, option, name(option));
                }
            })
            .response
    }
}

/// A library message as the start of a sentence: "the budget …" → "The budget …".
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}
