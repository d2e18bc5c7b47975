//! Asking for a file in a way that always works: the desktop's dialog when
//! the desktop offers one, else a small file dialog drawn in the window.
//!
//! The desktop dialog is rfd's: the XDG desktop portal on Linux (zenity when
//! no portal answers), the system dialogs on Windows and macOS. Where neither
//! portal nor zenity runs (a plain X session, a tiling window manager, Xvfb)
//! rfd answers "no file" at once, exactly as if the user had cancelled, and
//! Save as… used to do nothing at all. Two checks tell "cannot open" from
//! "cancelled":
//!
//! 1. **Before trying** (Linux and the BSDs): with no session bus to reach a
//!    portal on (neither `DBUS_SESSION_BUS_ADDRESS` nor `$XDG_RUNTIME_DIR/bus`)
//!    and no `zenity` on the `PATH`, nothing could show a dialog, so the
//!    desktop's is not tried (libdbus might otherwise autolaunch a bus).
//! 2. **After trying**: "no file" in under [`TOO_FAST`] cannot come from a
//!    person: a dialog takes longer than that to appear, let alone to be read
//!    and dismissed, while a missing portal answers within milliseconds. The
//!    desktop dialog is then given up for the session and the window's own
//!    dialog opens in its place.
//!
//! `CAESAR_WORKBENCH_FILE_DIALOG=window` always uses the window's dialog,
//! `=native` always the desktop's.
//!
//! The window's dialog lists a folder (folders first, files of the wanted
//! kind, or all files), takes a folder and a file name as typed (a full path
//! works too), adds the extension when saving without one, and asks before
//! replacing a file. It is a modal: nothing else can change while it is open.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui::{Context, Id, Key, RichText, TextEdit, Ui};

use super::theme;

/// Where a player file goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerUse {
    /// A side's AI in the Simulate tab.
    Simulate,
    /// A seat of the next game in the Play tab.
    Play,
    /// A rung of the strength ladder (Simulate tab).
    LadderRung,
    /// The player `tune` plays against and starts from (Simulate tab).
    TuneOpponent,
    /// A side of the Rules tab's explanation of two rule sets.
    Explain,
    /// The player the explanation is checked with (both sides).
    ExplainOther,
}

/// What a game record is opened for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordUse {
    Replay,
    /// Play on from its last position.
    Resume,
}

/// An action that would lose unsaved changes, waiting for the user's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    Open(PathBuf),
    OpenBuiltin,
    Quit,
}

/// A "no file" answer quicker than this means no dialog could be shown.
pub(super) const TOO_FAST: Duration = Duration::from_millis(300);

/// The environment variable that chooses the dialog: `window` or `native`.
pub(super) const CHOICE_VARIABLE: &str = "CAESAR_WORKBENCH_FILE_DIALOG";

/// What a chosen file is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilePurpose {
    OpenScenario,
    /// Save the scenario there, then go on with what waited for the save.
    SaveScenario {
        then: Option<Pending>,
    },
    OpenVariant,
    SaveVariant,
    /// A game record to replay, or to play on from.
    OpenRecord(RecordUse),
    /// A position file to start a game from (Play tab).
    OpenPosition,
    /// A heuristic player file (`tune` writes them) for a side's AI in the
    /// Simulate tab, or for a seat of a new game in the Play tab.
    OpenPlayer(crate::scenario::model::Side, PlayerUse),
    /// Write a player file `tune` made in the window (then play it by
    /// that name).
    SavePlayer {
        text: String,
    },
    /// Write a simulation report (JSON or CSV), or a game record.
    Export {
        kind: ExportKind,
        text: String,
    },
}

/// The files the Simulate tab exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    Json,
    Csv,
    /// A game record (Play tab).
    Record,
    /// A chart as an SVG image (the Rules tab's explanation).
    Svg,
    /// A variant file (the Balance tab's change that makes it fair).
    Variant,
}

/// One question for a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRequest {
    pub(crate) purpose: FilePurpose,
    pub(crate) title: String,
    /// The kind of file, as the filter names it ("Scenario (RON)").
    pub(crate) filter: &'static str,
    /// Its extension, without the dot.
    pub(crate) extension: &'static str,
    /// Saving (a new or replaced file) rather than opening.
    pub(crate) save: bool,
    /// The name suggested when saving.
    pub(crate) file_name: String,
    /// The folder to start in.
    pub(crate) folder: Option<PathBuf>,
}

impl FileRequest {
    /// The question for each purpose; `name` suggests a file name when saving.
    pub(crate) fn new(purpose: FilePurpose, name: &str, folder: Option<PathBuf>) -> FileRequest {
        let (title, filter, extension, save, file_name) = match &purpose {
            FilePurpose::OpenScenario => ("Open scenario", "Scenario (RON)", "ron", false, ""),
            FilePurpose::SaveScenario { .. } => {
                ("Save scenario", "Scenario (RON)", "ron", true, name)
            }
            FilePurpose::OpenVariant => ("Open variant", "Variant (RON)", "ron", false, ""),
            FilePurpose::SaveVariant => ("Save variant", "Variant (RON)", "ron", true, name),
            FilePurpose::OpenRecord(_) => {
                ("Open game record", "Game record (RON)", "ron", false, "")
            }
            FilePurpose::OpenPosition => ("Open position", "Position (RON)", "ron", false, ""),
            FilePurpose::OpenPlayer(..) => (
                "Open player file",
                "Heuristic player (RON)",
                "ron",
                false,
                "",
            ),
            FilePurpose::SavePlayer { .. } => (
                "Save player file",
                "Heuristic player (RON)",
                "ron",
                true,
                name,
            ),
            FilePurpose::Export { kind, .. } => match kind {
                ExportKind::Record => ("Save game", "Game record (RON)", "ron", true, "game"),
                ExportKind::Json => ("Export JSON", "JSON", "json", true, "report"),
                ExportKind::Csv => ("Export CSV", "CSV", "csv", true, "games"),
                ExportKind::Svg => ("Export chart", "SVG image", "svg", true, "chart"),
                ExportKind::Variant => {
                    ("Save variant", "Variant (RON)", "ron", true, "fair-variant")
                }
            },
        };
        // "Julius Caesar, 705 (49 BC)" → "Julius-Caesar-705-49-BC".
        let stem = file_name
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        FileRequest {
            purpose,
            title: title.to_string(),
            filter,
            extension,
            save,
            file_name: if save && !stem.is_empty() {
                format!("{stem}.{extension}")
            } else {
                String::new()
            },
            folder,
        }
    }
}

/// How a question for a file ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DialogEnd {
    Chosen(FilePurpose, PathBuf),
    Cancelled(FilePurpose),
}

/// A desktop file dialog: blocks until the user answers. `None` when the
/// user cancelled or when no dialog could be shown (the two look alike).
pub trait NativeDialog {
    fn ask(&mut self, request: &FileRequest) -> Option<PathBuf>;
}

/// The desktop's dialog through rfd.
pub(super) struct Rfd;

impl NativeDialog for Rfd {
    fn ask(&mut self, r: &FileRequest) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .set_title(&r.title)
            .add_filter(r.filter, &[r.extension]);
        if let Some(folder) = &r.folder {
            d = d.set_directory(folder);
        }
        if r.save {
            d.set_file_name(&r.file_name).save_file()
        } else {
            d.pick_file()
        }
    }
}

/// Whether the desktop might show a file dialog at all (check 1 above).
pub(super) fn desktop_may_offer_a_dialog() -> bool {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return true;
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|a| !a.is_empty())
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
    let zenity = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|p| p.join("zenity").is_file()));
    bus || zenity
}

/// The window's file questions: the desktop dialog while it works, the
/// window's own otherwise.
pub struct FileDialogs {
    native: Option<Box<dyn NativeDialog>>,
    /// Why the desktop dialog is not used, said in the window's dialog.
    why_not_native: Option<String>,
    open: Option<WindowDialog>,
    /// The folder of the last file chosen.
    last_folder: Option<PathBuf>,
}

impl Default for FileDialogs {
    /// The desktop's dialog unless the environment says otherwise or the
    /// desktop cannot offer one.
    fn default() -> Self {
        let choice = std::env::var(CHOICE_VARIABLE).unwrap_or_default();
        match choice.as_str() {
            "window" => FileDialogs::without_native(&format!("{CHOICE_VARIABLE}=window")),
            "native" => FileDialogs::with_native(Box::new(Rfd)),
            _ if desktop_may_offer_a_dialog() => FileDialogs::with_native(Box::new(Rfd)),
            _ => FileDialogs::without_native("no desktop portal or zenity to show one"),
        }
    }
}

impl FileDialogs {
    /// Tries `native` first, falling back when it cannot open.
    pub fn with_native(native: Box<dyn NativeDialog>) -> FileDialogs {
        FileDialogs {
            native: Some(native),
            why_not_native: None,
            open: None,
            last_folder: None,
        }
    }

    /// Only the window's own dialog; `why` is said in it.
    pub(crate) fn without_native(why: &str) -> FileDialogs {
        FileDialogs {
            native: None,
            why_not_native: Some(why.to_string()),
            open: None,
            last_folder: None,
        }
    }

    /// Whether the desktop dialog is still tried.
    pub fn uses_native(&self) -> bool {
        self.native.is_some()
    }

    /// Whether the window's own dialog is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Asks for a file. The desktop dialog answers at once (chosen or
    /// cancelled); `None` means the window's dialog opened and its answer
    /// comes from [`FileDialogs::show`].
    pub(crate) fn ask(&mut self, mut request: FileRequest) -> Option<DialogEnd> {
        if self.open.is_some() {
            return None;
        }
        if request.folder.is_none() {
            request.folder = self.last_folder.clone();
        }
        if let Some(native) = &mut self.native {
            let asked = Instant::now();
            match native.ask(&request) {
                Some(path) => return Some(self.chosen(request.purpose, path)),
                None if asked.elapsed() >= TOO_FAST => {
                    return Some(DialogEnd::Cancelled(request.purpose));
                }
                None => {
                    self.native = None;
                    self.why_not_native = Some(format!(
                        "the desktop's dialog did not open ({} ms, no portal or zenity)",
                        asked.elapsed().as_millis()
                    ));
                }
            }
        }
        self.open = Some(WindowDialog::new(request, self.why_not_native.clone()));
        None
    }

    fn chosen(&mut self, purpose: FilePurpose, path: PathBuf) -> DialogEnd {
        self.last_folder = path.parent().map(Path::to_path_buf);
        DialogEnd::Chosen(purpose, path)
    }

    /// Draws the window's dialog when it is open; its answer once given.
    pub(crate) fn show(&mut self, ctx: &Context) -> Option<DialogEnd> {
        let dialog = self.open.as_mut()?;
        let answer = dialog.show(ctx)?;
        let request = self.open.take()?.request;
        Some(match answer {
            Some(path) => self.chosen(request.purpose, path),
            None => DialogEnd::Cancelled(request.purpose),
        })
    }
}

/// A folder entry as listed.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    folder: bool,
}

/// The window's own file dialog.
struct WindowDialog {
    request: FileRequest,
    note: Option<String>,
    folder: PathBuf,
    /// The folder field as typed.
    folder_text: String,
    name: String,
    listing: Result<Vec<Entry>, String>,
    all_files: bool,
    /// A file that exists, waiting for "Replace".
    replace: Option<PathBuf>,
    error: Option<String>,
}

impl WindowDialog {
    fn new(request: FileRequest, note: Option<String>) -> WindowDialog {
        let folder = request
            .folder
            .clone()
            .filter(|f| f.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .or_else(|| std::env::var_os("HOME").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("/"));
        let mut d = WindowDialog {
            name: request.file_name.clone(),
            request,
            note,
            folder: PathBuf::new(),
            folder_text: String::new(),
            listing: Ok(Vec::new()),
            all_files: false,
            replace: None,
            error: None,
        };
        d.go_to(folder);
        d
    }

    /// Lists `folder` (unreadable: says why, and stays there).
    fn go_to(&mut self, folder: PathBuf) {
        let folder = std::fs::canonicalize(&folder).unwrap_or(folder);
        self.listing = list(&folder);
        self.folder_text = folder.display().to_string();
        self.folder = folder;
        self.replace = None;
        self.error = None;
    }

    /// The file the typed name points at, or what is wrong with it.
    /// `Ok(None)`: the name was a folder, now listed.
    fn target(&mut self) -> Result<Option<PathBuf>, String> {
        let name = self.name.trim();
        if name.is_empty() {
            return Err(if self.request.save {
                "Type a file name.".to_string()
            } else {
                "Choose a file.".to_string()
            });
        }
        let typed = expand_home(name);
        let mut path = if typed.is_absolute() {
            typed
        } else {
            self.folder.join(typed)
        };
        if path.is_dir() {
            self.name.clear();
            self.go_to(path);
            return Ok(None);
        }
        if !self.request.save {
            return if path.is_file() {
                Ok(Some(path))
            } else {
                Err(format!("There is no file {}.", path.display()))
            };
        }
        if path.extension().is_none() {
            path.set_extension(self.request.extension);
        }
        match path.parent() {
            Some(dir) if dir.is_dir() => Ok(Some(path)),
            Some(dir) => Err(format!("There is no folder {}.", dir.display())),
            None => Err(format!("{} is not a file name.", path.display())),
        }
    }

    /// The user pressed Save or Open: the file when it may be used now.
    fn confirm(&mut self) -> Option<PathBuf> {
        match self.target() {
            Err(e) => {
                self.error = Some(e);
                None
            }
            Ok(None) => None,
            Ok(Some(path)) if self.request.save && path.exists() => {
                if path.is_file() {
                    self.replace = Some(path);
                } else {
                    self.error = Some(format!("{} is not a file.", path.display()));
                }
                None
            }
            Ok(Some(path)) => Some(path),
        }
    }

    /// Draws the dialog; `Some(answer)` once answered (`None` inside: cancelled).
    fn show(&mut self, ctx: &Context) -> Option<Option<PathBuf>> {
        let mut answer = None;
        egui::Modal::new(Id::unique("file_dialog")).show(ctx, |ui| {
            ui.set_width(theme::FILE_DIALOG_WIDTH);
            ui.heading(&self.request.title);
            if let Some(note) = &self.note {
                ui.label(
                    RichText::new(format!("The window's own file dialog: {note}."))
                        .weak()
                        .small(),
                );
            }
            let typed_folder = self.folder_row(ui);
            let clicked = self.entry_list(ui);
            ui.checkbox(
                &mut self.all_files,
                format!("Show all files, not only .{}", self.request.extension),
            );
            if let Some(name) = clicked.file {
                self.name = name;
                self.replace = None;
                self.error = None;
            }
            if let Some(folder) = clicked.folder.or(typed_folder) {
                if folder.is_dir() {
                    self.go_to(folder);
                } else {
                    self.error = Some(format!("There is no folder {}.", folder.display()));
                }
            }
            let confirm = self.name_row(ui) || clicked.open;
            if let Some(e) = &self.error {
                ui.colored_label(theme::ERROR, e);
            }
            ui.add_space(4.0);
            answer = self.buttons(ui, confirm);
        });
        // Escape cancels; a stray click beside the dialog does not.
        if answer.is_none() && ctx.input(|i| i.key_pressed(Key::Escape)) {
            answer = Some(None);
        }
        answer
    }

    /// "Up" and the folder field; the folder to go to, when asked.
    fn folder_row(&mut self, ui: &mut Ui) -> Option<PathBuf> {
        let mut go_to = None;
        ui.horizontal(|ui| {
            if ui
                .button("Up")
                .on_hover_text("The folder above this one")
                .clicked()
                && let Some(parent) = self.folder.parent()
            {
                go_to = Some(parent.to_path_buf());
            }
            let l = ui.label("Folder");
            let r = ui
                .add(TextEdit::singleline(&mut self.folder_text).desired_width(f32::INFINITY))
                .labelled_by(l.id);
            if r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                go_to = Some(expand_home(self.folder_text.trim()));
            }
        });
        go_to
    }

    /// The folder's entries (folders, and files of the extension unless all
    /// are shown), each a selectable label.
    fn entry_list(&self, ui: &mut Ui) -> ListClick {
        let mut clicked = ListClick::default();
        egui::ScrollArea::vertical()
            .id_salt("file_dialog_list")
            .max_height(theme::FILE_DIALOG_LIST_HEIGHT)
            .min_scrolled_height(theme::FILE_DIALOG_LIST_HEIGHT)
            .auto_shrink([false, false])
            .show(ui, |ui| match &self.listing {
                Err(e) => {
                    ui.colored_label(theme::ERROR, e);
                }
                Ok(entries) => {
                    let ext = self.request.extension;
                    let shown: Vec<&Entry> = entries
                        .iter()
                        .filter(|e| e.folder || self.all_files || has_extension(&e.name, ext))
                        .collect();
                    if shown.is_empty() {
                        ui.label(RichText::new("Nothing to choose here.").weak());
                    }
                    for e in shown {
                        let text = if e.folder {
                            format!("{}/", e.name)
                        } else {
                            e.name.clone()
                        };
                        let chosen = !e.folder && self.name == e.name;
                        let r = ui.selectable_label(chosen, text);
                        if r.clicked() {
                            if e.folder {
                                clicked.folder = Some(self.folder.join(&e.name));
                            } else {
                                clicked.file = Some(e.name.clone());
                            }
                        }
                        if r.double_clicked() && !e.folder {
                            clicked.open = true;
                        }
                    }
                }
            });
        clicked
    }

    /// The file name field; true when Enter confirms it.
    fn name_row(&mut self, ui: &mut Ui) -> bool {
        let mut confirm = false;
        ui.horizontal(|ui| {
            let l = ui.label("File name");
            let r = ui
                .add(TextEdit::singleline(&mut self.name).desired_width(f32::INFINITY))
                .labelled_by(l.id);
            if r.changed() {
                self.replace = None;
                self.error = None;
            }
            if r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                confirm = true;
            }
        });
        confirm
    }

    /// "Save"/"Open" and "Cancel", or "Replace" and "Back" for a file that
    /// exists; the answer once given.
    fn buttons(&mut self, ui: &mut Ui, mut confirm: bool) -> Option<Option<PathBuf>> {
        let mut answer = None;
        if let Some(path) = self.replace.clone() {
            ui.colored_label(
                theme::WARNING,
                format!("{} already exists. Replace it?", path.display()),
            );
            ui.horizontal(|ui| {
                if ui.button("Replace").clicked() {
                    answer = Some(Some(path));
                }
                if ui.button("Back").clicked() {
                    self.replace = None;
                }
            });
        } else {
            ui.horizontal(|ui| {
                let verb = if self.request.save { "Save" } else { "Open" };
                if ui.button(verb).clicked() {
                    confirm = true;
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(None);
                }
            });
            if confirm && let Some(path) = self.confirm() {
                answer = Some(Some(path));
            }
        }
        answer
    }
}

/// What a click in the list of entries chose.
#[derive(Default)]
struct ListClick {
    /// A folder to open.
    folder: Option<PathBuf>,
    /// A file's name.
    file: Option<String>,
    /// A file double-clicked: open (or save) it at once.
    open: bool,
}

/// A folder's entries: folders first, then files, by name; hidden ones left out.
fn list(folder: &Path) -> Result<Vec<Entry>, String> {
    let read =
        std::fs::read_dir(folder).map_err(|e| format!("Cannot list {}: {e}", folder.display()))?;
    let mut entries: Vec<Entry> = read
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (!name.starts_with('.')).then(|| Entry {
                folder: e.path().is_dir(),
                name,
            })
        })
        .collect();
    entries.sort_by_cached_key(|e| (!e.folder, e.name.to_lowercase()));
    Ok(entries)
}

fn has_extension(name: &str, ext: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// `~/x` as the home folder's `x`.
fn expand_home(typed: &str) -> PathBuf {
    match (typed.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(typed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialog(dir: &Path, save: bool) -> WindowDialog {
        let purpose = if save {
            FilePurpose::SaveScenario { then: None }
        } else {
            FilePurpose::OpenScenario
        };
        WindowDialog::new(
            FileRequest::new(purpose, "My game", Some(dir.to_path_buf())),
            None,
        )
    }

    #[test]
    fn the_listing_puts_folders_first_and_hides_dot_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.ron"), "").unwrap();
        std::fs::write(dir.path().join("A.txt"), "").unwrap();
        std::fs::write(dir.path().join(".hidden.ron"), "").unwrap();
        std::fs::create_dir(dir.path().join("z")).unwrap();
        let names: Vec<(String, bool)> = list(dir.path())
            .unwrap()
            .into_iter()
            .map(|e| (e.name, e.folder))
            .collect();
        assert_eq!(
            names,
            [
                ("z".to_string(), true),
                ("A.txt".to_string(), false),
                ("b.ron".to_string(), false)
            ]
        );
        assert!(list(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn saving_adds_the_extension_and_asks_before_replacing() {
        let dir = tempfile::tempdir().unwrap();
        let mut d = dialog(dir.path(), true);
        assert_eq!(d.name, "My-game.ron", "a file name is suggested");
        let named = FileRequest::new(
            FilePurpose::SaveScenario { then: None },
            "Julius Caesar, 705 (49 BC)",
            None,
        );
        assert_eq!(named.file_name, "Julius-Caesar-705-49-BC.ron");
        d.name = "mine".into();
        assert_eq!(
            d.confirm(),
            Some(dir.path().canonicalize().unwrap().join("mine.ron"))
        );
        std::fs::write(dir.path().join("mine.ron"), "").unwrap();
        assert_eq!(d.confirm(), None);
        assert!(
            d.replace.is_some(),
            "an existing file is not replaced unasked"
        );
        d.name = "no/such/folder/x.ron".into();
        d.replace = None;
        assert_eq!(d.confirm(), None);
        assert!(d.error.as_deref().unwrap().contains("There is no folder"));
    }

    #[test]
    fn a_typed_folder_is_opened_and_opening_needs_an_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let mut d = dialog(dir.path(), false);
        d.name = "sub".into();
        assert_eq!(d.confirm(), None);
        assert!(d.folder.ends_with("sub"));
        assert!(d.name.is_empty());
        d.name = "none.ron".into();
        assert_eq!(d.confirm(), None);
        assert!(d.error.as_deref().unwrap().contains("There is no file"));
        std::fs::write(d.folder.join("here.ron"), "").unwrap();
        d.name = "here.ron".into();
        assert!(d.confirm().is_some());
    }

    struct Instant0;
    impl NativeDialog for Instant0 {
        fn ask(&mut self, _: &FileRequest) -> Option<PathBuf> {
            None
        }
    }

    struct SlowCancel;
    impl NativeDialog for SlowCancel {
        fn ask(&mut self, _: &FileRequest) -> Option<PathBuf> {
            std::thread::sleep(TOO_FAST + Duration::from_millis(20));
            None
        }
    }

    #[test]
    fn an_instant_no_answer_falls_back_and_a_slow_one_is_a_cancel() {
        let request = || FileRequest::new(FilePurpose::OpenScenario, "", None);
        let mut fast = FileDialogs::with_native(Box::new(Instant0));
        assert_eq!(fast.ask(request()), None);
        assert!(fast.is_open(), "the window's dialog opened");
        assert!(!fast.uses_native(), "and is used from now on");

        let mut slow = FileDialogs::with_native(Box::new(SlowCancel));
        assert_eq!(
            slow.ask(request()),
            Some(DialogEnd::Cancelled(FilePurpose::OpenScenario))
        );
        assert!(!slow.is_open());
        assert!(slow.uses_native());
    }
}
