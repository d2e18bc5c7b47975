//! "Keep as this setup's …": a report written into the setup's players
//! folder, where the Setup tab, `ladder` and `explain` read it; the Balance
//! tab's two questions keep theirs the same way.

use std::path::Path;

use egui::Ui;

use super::error::NotKept;
use crate::app::theme;

/// What a keep button writes and says.
pub(super) struct Keep<'a> {
    pub button: &'a str,
    pub hover: &'a str,
    pub disabled_hover: &'a str,
    /// The file's name in the players folder.
    pub file: &'a str,
    /// "balance", "answer": what the line after it says was kept.
    pub what: &'a str,
}

/// The button (enabled when `can` and the setup has a folder), the file
/// written atomically on a click, and what became of it; true when written.
pub(super) fn keep_button(
    ui: &mut Ui,
    keep: &Keep<'_>,
    can: bool,
    report: &impl serde::Serialize,
    bundle: Option<&Path>,
    kept: &mut Option<Result<String, NotKept>>,
) -> bool {
    let clicked = ui
        .add_enabled(can && bundle.is_some(), egui::Button::new(keep.button))
        .on_hover_text(keep.hover)
        .on_disabled_hover_text(keep.disabled_hover)
        .clicked();
    let mut written = false;
    if clicked && let Some(dir) = bundle {
        let path = dir.join(keep.file);
        *kept = Some(
            match crate::sim::questions::balance::session::write_json(&path, report) {
                Ok(()) => Ok(format!(
                    "Kept as this setup's {}: {}",
                    keep.what,
                    path.display()
                )),
                Err(reason) => Err(NotKept { path, reason }),
            },
        );
        written = matches!(kept, Some(Ok(_)));
    }
    match &*kept {
        Some(Ok(words)) => {
            ui.label(words);
        }
        Some(Err(e)) => {
            ui.colored_label(theme::ERROR, e.to_string());
        }
        None => {}
    }
    written
}
