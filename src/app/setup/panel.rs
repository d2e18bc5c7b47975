//! The Setup tab: the rest of a custom setup beside the map and deployment.
//! The roster (each side's blocks, sortable and filterable, with an editor
//! for the selected block), the deck (command cards counted per face, the
//! event cards, dealt against the rule set in force), the scenario's own
//! settings (name, description, start year, the file it extends), and a
//! comparison with the published game to paste into a forum post.
//!
//! Every change is an [`Edit`] returned as an [`Request`], so it is one step
//! in the window's one undo history. The values offered are the ones the
//! validator accepts ([`crate::scenario::kinds::FIREPOWER`], [`BlockKind::step_range`]);
//! whether a year can be dealt is [`crate::scenario::playable::check`]'s answer.

use std::cmp::Ordering;

use egui::{RichText, Ui};

use crate::app::state::AppState;
use crate::app::{Request, form, theme};
use crate::scenario::diff::{self, Difference, Part};
use crate::scenario::edit::{Edit, Item, Working};
use crate::scenario::format::BlockDoc;
use crate::scenario::kinds::{BlockKind, Event, FIREPOWER, Initiative, Side, roman};
use crate::scenario::validate::Severity;

/// The views of the Setup tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum SetupView {
    #[default]
    Roster,
    Deck,
    Settings,
    Compare,
}

impl SetupView {
    const ALL: [SetupView; 4] = [
        SetupView::Roster,
        SetupView::Deck,
        SetupView::Settings,
        SetupView::Compare,
    ];

    fn label(self) -> &'static str {
        match self {
            SetupView::Roster => "Roster",
            SetupView::Deck => "Deck",
            SetupView::Settings => "Settings",
            SetupView::Compare => "Compare with the published game",
        }
    }
}

/// The roster's columns, which sort it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Column {
    #[default]
    Side,
    Name,
    Kind,
    Rating,
    Strength,
    Levy,
    StartsIn,
}

impl Column {
    const ALL: [Column; 7] = [
        Column::Side,
        Column::Name,
        Column::Kind,
        Column::Rating,
        Column::Strength,
        Column::Levy,
        Column::StartsIn,
    ];

    fn label(self) -> &'static str {
        match self {
            Column::Side => "Side",
            Column::Name => "Name",
            Column::Kind => "Kind",
            Column::Rating => "Rating",
            Column::Strength => "Strength",
            Column::Levy => "Levy city",
            Column::StartsIn => "Starts in",
        }
    }
}

/// The Setup tab's own state: the view, the roster's filter and order, and
/// the texts being typed (committed on Enter or leaving the field).
#[derive(Default)]
pub(in crate::app) struct SetupPanel {
    view: SetupView,
    filter: String,
    side_filter: Option<Side>,
    kind_filter: Option<BlockKind>,
    sort: Column,
    descending: bool,
    /// The selected block last scrolled into view.
    scrolled_to: Option<Item>,
    /// The selected block the name field belongs to, and the name typed.
    block: Option<(Side, String)>,
    block_name: String,
    /// A command card face to add: moves and levies.
    new_face: (u8, u8),
    /// Faces shown in the deck view since it opened: a face set to 0 keeps
    /// its row (at 0), so the rows never move under the pointer.
    deck_faces: Vec<(u8, u8)>,
    /// The frame the deck view was last drawn in (it forgets the faces when
    /// it was closed in between).
    deck_frame: u64,
    /// The scenario's settings as last filled in, and the texts typed.
    settings_from: Option<[String; 4]>,
    name: String,
    description: String,
    start_year: String,
    extends: String,
    /// The comparison, for the scenario revision it was made for.
    compare: Option<(u64, Vec<Difference>, String)>,
    /// Set when the comparison was copied (until the scenario changes).
    copied: Option<u64>,
}

/// The scenario the panel edits, and the edits and selections its widgets
/// ask for (the app carries them out once the panel is drawn).
struct Editing<'a> {
    state: &'a AppState,
    w: &'a Working,
    actions: Vec<Request>,
}

/// The differences from the published game under their part's heading.
fn differences_by_part(ui: &mut Ui, diffs: &[Difference]) {
    egui::ScrollArea::vertical()
        .id_salt("compare")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for part in Part::ALL {
                let lines: Vec<&Difference> = diffs.iter().filter(|d| d.part == part).collect();
                if lines.is_empty() {
                    continue;
                }
                ui.add_space(4.0);
                ui.label(RichText::new(part.label()).strong());
                for d in lines {
                    ui.label(format!("• {}", d.text));
                }
            }
        });
}

/// A button per side adding a new legion to its levy pool (5.2), selected.
fn add_block_buttons(ui: &mut Ui, ed: &mut Editing<'_>) {
    ui.horizontal(|ui| {
        for side in Side::BOTH {
            if ui
                .button(format!("Add {side} block"))
                .on_hover_text("A new legion in the side's levy pool (5.2)")
                .clicked()
            {
                let b = new_block(ed.w, side);
                let item = Item::Block(side, b.name.clone());
                ed.actions
                    .push(Request::EditAndSelect(Edit::AddBlock(b), item));
            }
        }
    });
}

impl SetupPanel {
    pub(in crate::app) fn show(&mut self, ui: &mut Ui, state: &AppState) -> Vec<Request> {
        let Some(doc) = state.document() else {
            ui.label("Open a scenario to edit its roster, deck and settings.");
            return Vec::new();
        };
        ui.horizontal(|ui| {
            for v in SetupView::ALL {
                if ui.selectable_label(self.view == v, v.label()).clicked() {
                    self.view = v;
                }
            }
        });
        ui.separator();
        let mut ed = Editing {
            state,
            w: doc.working(),
            actions: Vec::new(),
        };
        match self.view {
            SetupView::Roster => self.roster(ui, &mut ed),
            SetupView::Deck => self.deck(ui, &mut ed),
            SetupView::Settings => self.settings(ui, &mut ed),
            SetupView::Compare => self.compare(ui, state),
        }
        ed.actions
    }

    // ------------------------------------------------------------ roster

    fn roster(&mut self, ui: &mut Ui, ed: &mut Editing<'_>) {
        let selected = match ed.state.selection() {
            Some(Item::Block(side, name)) => {
                ed.w.roster
                    .blocks
                    .iter()
                    .find(|b| b.side == *side && b.name == *name)
            }
            _ => None,
        };
        egui::Panel::right("block_editor")
            .default_size(theme::SIDE_PANEL_WIDTH)
            .show(ui, |ui| match selected {
                Some(b) => self.block_editor(ui, ed, b),
                None => {
                    ui.label(RichText::new("Block").strong());
                    ui.label(
                        RichText::new("Click a block's name to edit it; add one with the buttons.")
                            .weak(),
                    );
                }
            });

        self.roster_filters(ui);
        add_block_buttons(ui, ed);
        let rows = self.shown_blocks(ed.w);
        let count = |s: Side| ed.w.roster.blocks.iter().filter(|b| b.side == s).count();
        ui.label(format!(
            "{} blocks ({} Caesar, {} Pompey), {} shown",
            ed.w.roster.blocks.len(),
            count(Side::Caesar),
            count(Side::Pompey),
            rows.len()
        ));
        egui::ScrollArea::vertical()
            .id_salt("roster")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("roster_table")
                    .striped(true)
                    .spacing([12.0, 3.0])
                    .show(ui, |ui| {
                        self.sort_header(ui);
                        for b in rows {
                            self.roster_row(ui, ed, b);
                        }
                    });
            });
    }

    /// The name filter, the side buttons and the kind chooser.
    fn roster_filters(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let l = ui.label("Filter");
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("name, kind or city")
                    .desired_width(140.0),
            )
            .labelled_by(l.id);
            for (side, label) in [
                (None, "Both sides"),
                (Some(Side::Caesar), "Caesar"),
                (Some(Side::Pompey), "Pompey"),
            ] {
                if ui
                    .selectable_label(self.side_filter == side, label)
                    .clicked()
                {
                    self.side_filter = side;
                }
            }
            let l = ui.label("Kind");
            egui::ComboBox::from_id_salt("roster_kind_filter")
                .selected_text(self.kind_filter.map_or("all kinds", BlockKind::label))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.kind_filter, None, "all kinds");
                    for k in BlockKind::ALL {
                        ui.selectable_value(&mut self.kind_filter, Some(k), k.label());
                    }
                })
                .response
                .labelled_by(l.id);
        });
    }

    /// The blocks the filters let through, in the chosen order.
    fn shown_blocks<'w>(&self, w: &'w Working) -> Vec<&'w BlockDoc> {
        let needle = self.filter.trim().to_lowercase();
        let mut rows: Vec<&'w BlockDoc> = w
            .roster
            .blocks
            .iter()
            .filter(|b| self.side_filter.is_none_or(|s| s == b.side))
            .filter(|b| self.kind_filter.is_none_or(|k| k == b.kind))
            .filter(|b| {
                needle.is_empty()
                    || [
                        b.name.as_str(),
                        b.kind.label(),
                        b.levy.as_deref().unwrap_or(""),
                        w.block_location(b.side, &b.name).unwrap_or(""),
                    ]
                    .iter()
                    .any(|t| t.to_lowercase().contains(&needle))
            })
            .collect();
        let sort = self.sort;
        rows.sort_by(|a, b| {
            let o = compare(sort, w, a, b).then_with(|| compare(Column::Side, w, a, b));
            if self.descending { o.reverse() } else { o }
        });
        rows
    }

    /// The column titles, each a button that sorts by it (again: the other way).
    fn sort_header(&mut self, ui: &mut Ui) {
        for c in Column::ALL {
            let arrow = match (self.sort == c, self.descending) {
                (true, false) => " ^",
                (true, true) => " v",
                (false, _) => "",
            };
            if ui
                .button(RichText::new(format!("{}{arrow}", c.label())).strong())
                .on_hover_text(format!("Sort by {}", c.label().to_lowercase()))
                .clicked()
            {
                self.descending = self.sort == c && !self.descending;
                self.sort = c;
            }
        }
        ui.label("");
        ui.end_row();
    }

    fn roster_row(&mut self, ui: &mut Ui, ed: &mut Editing<'_>, b: &BlockDoc) {
        let item = Item::Block(b.side, b.name.clone());
        ui.label(b.side.label());
        let chosen = ed.state.selection() == Some(&item);
        let r = ui.selectable_label(chosen, &b.name);
        // A block selected elsewhere (added, duplicated, a finding) comes into view.
        if chosen && self.scrolled_to.as_ref() != Some(&item) {
            r.scroll_to_me(Some(egui::Align::Center));
            self.scrolled_to = Some(item.clone());
        }
        if r.clicked() {
            self.scrolled_to = Some(item.clone());
            ed.actions.push(Request::Select(Some(item)));
        }
        ui.label(b.kind.label());
        ui.label(b.rating())
            .on_hover_text("Initiative and firepower (attacking/defending when they differ, 7.42)");
        ui.label(roman(b.steps.saturating_mul(b.kind.strength_per_step())));
        ui.label(b.levy.as_deref().unwrap_or("—"));
        ui.label(ed.w.block_location(b.side, &b.name).unwrap_or("levy pool"));
        match worst_finding(ed.state, b) {
            Some(Severity::Error) => ui.colored_label(theme::ERROR, "error"),
            Some(Severity::Warning) => ui.colored_label(theme::WARNING, "warning"),
            None => ui.label(""),
        };
        ui.end_row();
    }

    fn block_editor(&mut self, ui: &mut Ui, ed: &mut Editing<'_>, b: &BlockDoc) {
        let key = (b.side, b.name.clone());
        if self.block.as_ref() != Some(&key) {
            self.block = Some(key);
            self.block_name = b.name.clone();
        }
        ui.label(RichText::new(&b.name).heading());
        ui.label(format!(
            "{} {} · {} · strength {}",
            b.side,
            b.kind.label(),
            b.rating(),
            roman(b.steps.saturating_mul(b.kind.strength_per_step()))
        ));
        let mut to = b.clone();
        egui::Grid::new("block_editor_grid")
            .num_columns(2)
            .spacing([10.0, 4.0])
            .show(ui, |ui| {
                self.block_name_row(ui, b, &mut ed.actions);
                rating_rows(ui, &mut to);
                levy_row(ui, ed.w, &mut to);
            });
        // A new kind keeps the steps it may have (the elephant has two at most).
        if to.kind != b.kind {
            let steps = to.kind.step_range();
            to.steps = to.steps.clamp(*steps.start(), *steps.end());
        }
        if to != *b {
            ed.actions.push(Request::Edit(Edit::SetBlock {
                side: b.side,
                block: b.name.clone(),
                to,
            }));
        }
        match ed.w.block_location(b.side, &b.name) {
            Some(city) => ui.label(format!("Starts in {city} (moved in the Deployment tab)")),
            None => ui.label("Starts in the levy pool (5.2)"),
        };
        block_buttons(ui, ed, b);
        block_findings(ui, ed.state, b);
    }

    fn block_name_row(&mut self, ui: &mut Ui, b: &BlockDoc, actions: &mut Vec<Request>) {
        if form::name_row(ui, "Block name", &mut self.block_name, &b.name) {
            actions.push(Request::Edit(Edit::RenameBlock {
                side: b.side,
                block: b.name.clone(),
                name: self.block_name.clone(),
            }));
        }
    }

    // ------------------------------------------------------------ deck

    fn deck(&mut self, ui: &mut Ui, ed: &mut Editing<'_>) {
        let events = ed.w.deck.events.len();
        let commands: u32 = ed.w.deck.commands.iter().map(|c| u32::from(c.copies)).sum();
        ui.label(
            RichText::new(format!(
                "{} cards: {events} events, {commands} command cards",
                events as u32 + commands
            ))
            .strong(),
        );
        deal_check(ui, ed.state);
        ui.separator();
        ui.columns(2, |cols| {
            let ui = &mut cols[0];
            ui.label(RichText::new("Event cards (one of each at most)").strong());
            for e in Event::ALL {
                let mut present = ed.w.deck.events.contains(&e);
                if ui.checkbox(&mut present, format!("{e:?}")).changed() {
                    ed.actions
                        .push(Request::Edit(Edit::SetEvent { event: e, present }));
                }
            }
            let ui = &mut cols[1];
            ui.label(RichText::new("Command cards (moves/levies): copies").strong());
            let faces = self.command_faces(ui, ed.w);
            face_copies(ui, faces, &mut ed.actions);
            ui.add_space(6.0);
            self.new_card(ui, ed);
        });
    }

    /// Each command card face with its copies (moves, levies, copies), the
    /// most moves first. A face set to 0 copies stays listed while the deck
    /// stays in view, so it can be set back.
    fn command_faces(&mut self, ui: &Ui, w: &Working) -> Vec<(u8, u8, u32)> {
        let mut faces: Vec<(u8, u8, u32)> = Vec::new();
        for c in &w.deck.commands {
            match faces
                .iter_mut()
                .find(|(m, l, _)| (*m, *l) == (c.moves, c.levy))
            {
                Some(f) => f.2 += u32::from(c.copies),
                None => faces.push((c.moves, c.levy, u32::from(c.copies))),
            }
        }
        let frame = ui.ctx().cumulative_frame_nr();
        if frame > self.deck_frame + 1 {
            self.deck_faces.clear();
        }
        self.deck_frame = frame;
        for &(m, l) in &self.deck_faces {
            if !faces.iter().any(|f| (f.0, f.1) == (m, l)) {
                faces.push((m, l, 0));
            }
        }
        self.deck_faces = faces.iter().map(|f| (f.0, f.1)).collect();
        faces.sort_by_key(|f| std::cmp::Reverse((f.0, f.1)));
        faces
    }

    /// "New card: moves … levies … Add card".
    fn new_card(&mut self, ui: &mut Ui, ed: &mut Editing<'_>) {
        ui.horizontal(|ui| {
            let l = ui.label("New card: moves");
            ui.add(egui::DragValue::new(&mut self.new_face.0).range(0..=9))
                .labelled_by(l.id);
            let l = ui.label("levies");
            ui.add(egui::DragValue::new(&mut self.new_face.1).range(0..=9))
                .labelled_by(l.id);
            if ui.button("Add card").clicked() {
                let (moves, levy) = self.new_face;
                let have: u32 =
                    ed.w.deck
                        .commands
                        .iter()
                        .filter(|c| (c.moves, c.levy) == (moves, levy))
                        .map(|c| u32::from(c.copies))
                        .sum();
                ed.actions.push(Request::Edit(Edit::SetCommandCopies {
                    moves,
                    levy,
                    copies: (have + 1).min(255) as u8,
                }));
            }
        });
    }

    // ------------------------------------------------------------ settings

    fn settings(&mut self, ui: &mut Ui, ed: &mut Editing<'_>) {
        let now = [
            ed.w.name.clone(),
            ed.w.description.clone(),
            ed.w.start_year.clone(),
            ed.w.extends.clone().unwrap_or_default(),
        ];
        // Refill the fields when the scenario changed under them (undo, open).
        if self.settings_from.as_ref() != Some(&now) {
            [self.name, self.description, self.start_year, self.extends] = now.clone();
            self.settings_from = Some(now);
        }
        egui::Grid::new("scenario_settings")
            .num_columns(2)
            .spacing([10.0, 6.0])
            .show(ui, |ui| {
                self.text_rows(ui, ed);
                self.extends_row(ui, ed);
            });
        ui.add_space(6.0);
        save_note(ui, ed.state, ed.w);
    }

    /// Name, start year and description, as grid rows committed on leaving
    /// the field.
    fn text_rows(&mut self, ui: &mut Ui, ed: &mut Editing<'_>) {
        let name = egui::TextEdit::singleline(&mut self.name).desired_width(360.0);
        if form::committed(
            &form::row(ui, "Scenario name", name),
            &self.name,
            &ed.w.name,
        ) {
            ed.actions
                .push(Request::Edit(Edit::SetName(self.name.clone())));
        }

        let year = egui::TextEdit::singleline(&mut self.start_year)
            .hint_text("705 (49 BC)")
            .desired_width(160.0);
        let r = form::row(ui, "Start year", year)
            .on_hover_text("A label for players; the game's years are counted by the rule set");
        if form::committed(&r, &self.start_year, &ed.w.start_year) {
            ed.actions
                .push(Request::Edit(Edit::SetStartYear(self.start_year.clone())));
        }

        let description = egui::TextEdit::multiline(&mut self.description)
            .desired_rows(4)
            .desired_width(360.0);
        let r = form::row(ui, "Description", description);
        if form::committed(&r, &self.description, &ed.w.description) {
            ed.actions.push(Request::Edit(Edit::SetDescription(
                self.description.clone(),
            )));
        }
    }

    /// The scenario this one extends, as a grid row.
    fn extends_row(&mut self, ui: &mut Ui, ed: &mut Editing<'_>) {
        let l = ui.label("Extends");
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.extends)
                    .hint_text("historical.ron")
                    .desired_width(220.0),
            )
            .labelled_by(l.id)
            .on_hover_text("A scenario file beside this one, or historical.ron (built in)");
            let typed = self.extends.trim();
            if ui
                .add_enabled(
                    !typed.is_empty() && Some(typed) != ed.w.extends.as_deref(),
                    egui::Button::new("Set"),
                )
                .clicked()
            {
                ed.actions
                    .push(Request::Edit(Edit::SetExtends(Some(typed.to_string()))));
            }
            if ui
                .add_enabled(ed.w.extends.is_some(), egui::Button::new("Stand alone"))
                .on_hover_text("Write every section into this file")
                .clicked()
            {
                ed.actions.push(Request::Edit(Edit::SetExtends(None)));
            }
        });
        ui.end_row();
    }

    // ------------------------------------------------------------ compare

    fn compare(&mut self, ui: &mut Ui, state: &AppState) {
        let Some(resolved) = state.resolved() else {
            return;
        };
        let revision = state.scenario_revision();
        if self.compare.as_ref().is_none_or(|(r, _, _)| *r != revision) {
            let base = crate::scenario::historical();
            self.compare = Some((
                revision,
                diff::differences(&base, resolved),
                diff::report(&base, resolved),
            ));
        }
        let Some((_, diffs, text)) = &self.compare else {
            return;
        };
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!(
                    "Against the published game ({}): {} {}",
                    crate::scenario::HISTORICAL_PATH,
                    diffs.len(),
                    if diffs.len() == 1 {
                        "change"
                    } else {
                        "changes"
                    }
                ))
                .strong(),
            );
            if ui
                .button("Copy")
                .on_hover_text("Copy the list as text, for a forum post")
                .clicked()
            {
                ui.ctx().copy_text(text.clone());
                self.copied = Some(revision);
            }
            if self.copied == Some(revision) {
                ui.colored_label(theme::GOOD, "Copied");
            }
        });
        ui.separator();
        if diffs.is_empty() {
            ui.label("This setup is the published game: nothing differs.");
            return;
        }
        differences_by_part(ui, diffs);
    }
}

/// A new block for `side`: a legion (C3, III) in the levy pool, levied
/// where the side's first legion is, under a name no block of the side has.
fn new_block(w: &Working, side: Side) -> BlockDoc {
    let levy = w
        .roster
        .blocks
        .iter()
        .find(|b| b.side == side && b.kind == BlockKind::Legion)
        .and_then(|b| b.levy.clone());
    BlockDoc {
        side,
        name: free_name(w, side, "New legion"),
        kind: BlockKind::Legion,
        initiative: Initiative::C,
        attacking_initiative: None,
        firepower: 3,
        steps: 3,
        levy,
    }
}

/// `base`, or `base 2`, `base 3`... whichever no block of `side` has.
fn free_name(w: &Working, side: Side, base: &str) -> String {
    let taken = |n: &str| {
        w.roster.blocks.iter().any(|b| {
            b.side == side
                && crate::scenario::names::normalise(&b.name)
                    == crate::scenario::names::normalise(n)
        })
    };
    (1..)
        .map(|k| match k {
            1 => base.to_string(),
            k => format!("{base} {k}"),
        })
        .find(|n| !taken(n))
        .unwrap_or_default()
}

fn letter_combo(ui: &mut Ui, id: &str, value: &mut Initiative) -> egui::Response {
    egui::ComboBox::from_id_salt(id)
        .selected_text(value.letter().to_string())
        .show_ui(ui, |ui| {
            for i in Initiative::ALL {
                ui.selectable_value(value, i, i.letter().to_string());
            }
        })
        .response
}

/// Orders two blocks by a column; names with numbers in natural order
/// ("Legio 2" before "Legio 10").
fn compare(column: Column, w: &Working, a: &BlockDoc, b: &BlockDoc) -> Ordering {
    match column {
        Column::Side => a.side.cmp(&b.side),
        Column::Name => natural(&a.name).cmp(&natural(&b.name)),
        Column::Kind => a.kind.label().cmp(b.kind.label()),
        Column::Rating => (a.initiative, std::cmp::Reverse(a.firepower))
            .cmp(&(b.initiative, std::cmp::Reverse(b.firepower))),
        Column::Strength => a
            .steps
            .saturating_mul(a.kind.strength_per_step())
            .cmp(&b.steps.saturating_mul(b.kind.strength_per_step())),
        Column::Levy => a.levy.cmp(&b.levy),
        Column::StartsIn => w
            .block_location(a.side, &a.name)
            .cmp(&w.block_location(b.side, &b.name)),
    }
}

/// A name as text and number chunks, so numbers compare by value.
fn natural(name: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in name.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out.push((
                    std::mem::take(&mut text),
                    digits.parse().unwrap_or(u64::MAX),
                ));
                digits.clear();
            }
            text.extend(c.to_lowercase());
        }
    }
    out.push((text, digits.parse().unwrap_or(0)));
    out
}

/// "a", "a and b", "a, b and c".
fn list_in_words<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(|s| s.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// Kind, initiative (defending and attacking), firepower and steps, as
/// grid rows editing `to`.
fn rating_rows(ui: &mut Ui, to: &mut BlockDoc) {
    let l = ui.label("Kind");
    egui::ComboBox::from_id_salt("block_kind")
        .selected_text(to.kind.label())
        .show_ui(ui, |ui| {
            for k in BlockKind::ALL {
                ui.selectable_value(&mut to.kind, k, k.label());
            }
        })
        .response
        .labelled_by(l.id);
    ui.end_row();

    let l = ui.label("Initiative");
    letter_combo(ui, "block_initiative", &mut to.initiative).labelled_by(l.id);
    ui.end_row();

    let l = ui.label("Attacking initiative");
    let mut attacking = to.attacking_initiative;
    egui::ComboBox::from_id_salt("block_attacking")
        .selected_text(attacking.map_or("same".to_string(), |i| i.letter().into()))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut attacking, None, "same");
            for i in Initiative::ALL {
                ui.selectable_value(&mut attacking, Some(i), i.letter().to_string());
            }
        })
        .response
        .labelled_by(l.id)
        .on_hover_text("7.42: the ballista is B defending, D attacking");
    to.attacking_initiative = attacking;
    ui.end_row();

    let l = ui.label("Firepower");
    // A value out of range in the file stays as it is until changed here
    // (the validator reports it).
    ui.add(
        egui::DragValue::new(&mut to.firepower)
            .range(FIREPOWER)
            .clamp_existing_to_range(false),
    )
    .labelled_by(l.id)
    .on_hover_text("7.4: each die of 1 to the firepower hits");
    ui.end_row();

    let l = ui.label("Steps");
    ui.add(
        egui::DragValue::new(&mut to.steps)
            .range(to.kind.step_range())
            .clamp_existing_to_range(false),
    )
    .labelled_by(l.id)
    .on_hover_text("Full strength in steps: I to IV (3.11); an elephant step counts two (7.41)");
    ui.end_row();
}

/// The city where the block is levied (6.4), as a grid row editing `to`.
fn levy_row(ui: &mut Ui, w: &Working, to: &mut BlockDoc) {
    let l = ui.label("Levy city");
    let mut cities: Vec<&str> = w
        .map
        .spaces
        .iter()
        .filter(|s| s.kind.is_city())
        .map(|s| s.name.as_str())
        .collect();
    cities.sort_unstable();
    egui::ComboBox::from_id_salt("block_levy")
        .selected_text(to.levy.as_deref().unwrap_or("none"))
        .height(300.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut to.levy, None, "none");
            for c in cities {
                ui.selectable_value(&mut to.levy, Some(c.to_string()), c);
            }
        })
        .response
        .labelled_by(l.id)
        .on_hover_text("6.4: legions, equitatus and the elephant are levied in their city");
    ui.end_row();
}

/// "Duplicate" and "Delete block".
fn block_buttons(ui: &mut Ui, ed: &mut Editing<'_>, b: &BlockDoc) {
    ui.horizontal(|ui| {
        if ui
            .button("Duplicate")
            .on_hover_text("A copy under a new name, in the levy pool")
            .clicked()
        {
            let name = free_name(ed.w, b.side, &format!("{} (copy)", b.name));
            ed.actions.push(Request::EditAndSelect(
                Edit::DuplicateBlock {
                    side: b.side,
                    block: b.name.clone(),
                    name: name.clone(),
                },
                Item::Block(b.side, name),
            ));
        }
        if ui
            .button("Delete block")
            .on_hover_text(
                "Removes the block and its place in the deployments (undo brings it back)",
            )
            .clicked()
        {
            ed.actions.push(Request::Edit(Edit::DeleteBlock {
                side: b.side,
                block: b.name.clone(),
            }));
        }
    });
}

/// The findings about the block, in their colours.
fn block_findings(ui: &mut Ui, state: &AppState, b: &BlockDoc) {
    if let Some(report) = state.report() {
        let item = Some(Item::Block(b.side, b.name.clone()));
        for f in report
            .findings
            .iter()
            .filter(|f| crate::scenario::edit::item_for(f) == item)
        {
            let colour = match f.severity {
                Severity::Error => theme::ERROR,
                Severity::Warning => theme::WARNING,
            };
            ui.colored_label(colour, &f.message);
        }
    }
}

/// How a year is dealt under the rule set in force, and whether the deck
/// holds enough cards for it.
fn deal_check(ui: &mut Ui, state: &AppState) {
    if let (Some(rules), Some(scenario)) = (state.rules(), state.scenario()) {
        let in_play = crate::scenario::playable::cards_in_play(&scenario.deck, rules).len();
        let removed = scenario.deck.cards.len().saturating_sub(in_play);
        ui.label(format!(
            "{}: each year deals {} cards to each player ({} of the {in_play} in play{}); \
             each discards {} and plays {} in {} turns (2.1)",
            rules.name,
            rules.hand_size,
            2 * usize::from(rules.hand_size),
            if removed > 0 {
                format!(", {removed} removed by the rule set")
            } else {
                String::new()
            },
            rules.discards,
            rules.hand_size.saturating_sub(rules.discards),
            rules.turns_per_year,
        ));
        let unmet = crate::scenario::playable::check(&scenario.deck, rules);
        if unmet.is_empty() {
            ui.colored_label(theme::GOOD, "Every year can be dealt.");
        } else {
            ui.colored_label(theme::ERROR, "A year cannot be dealt:");
            for u in unmet {
                ui.colored_label(theme::ERROR, u.message);
            }
        }
    }
}

/// A copies field for each command card face, as a grid.
fn face_copies(ui: &mut Ui, faces: Vec<(u8, u8, u32)>, actions: &mut Vec<Request>) {
    egui::Grid::new("deck_faces")
        .num_columns(2)
        .spacing([10.0, 4.0])
        .show(ui, |ui| {
            for (moves, levy, copies) in faces {
                let l = ui.label(format!("{moves}/{levy}"));
                let mut n = copies.min(255) as u8;
                let r = ui
                    .add(egui::DragValue::new(&mut n).range(0..=40))
                    .labelled_by(l.id)
                    .on_hover_text(format!(
                        "Copies of the card {moves} moves / {levy} levies (0 takes them out)"
                    ));
                if r.changed() && u32::from(n) != copies {
                    actions.push(Request::Edit(Edit::SetCommandCopies {
                        moves,
                        levy,
                        copies: n,
                    }));
                }
                ui.end_row();
            }
        });
}

/// The document's file, and which sections saving writes into it.
fn save_note(ui: &mut Ui, state: &AppState, w: &Working) {
    if let Some(doc) = state.document() {
        let file = doc
            .path()
            .map_or("not saved yet (the built-in game)".to_string(), |p| {
                p.display().to_string()
            });
        ui.label(format!("File: {file}"));
        let written = doc.written_sections();
        let text = match &w.extends {
            None => "Saving writes every section.".to_string(),
            Some(parent) if written.is_empty() => {
                format!("Saving writes only the settings: everything else comes from {parent}.")
            }
            Some(parent) => format!(
                "Saving writes the {}; the rest comes from {parent}.",
                list_in_words(&written)
            ),
        };
        ui.label(RichText::new(text).weak());
    }
}

/// The gravest finding about a block, if any.
fn worst_finding(state: &AppState, b: &BlockDoc) -> Option<Severity> {
    let item = Some(Item::Block(b.side, b.name.clone()));
    state
        .report()?
        .findings
        .iter()
        .filter(|f| crate::scenario::edit::item_for(f) == item)
        .map(|f| f.severity)
        .min()
}

#[cfg(test)]
mod words_tests {
    use super::list_in_words;

    #[test]
    fn lists_read_as_words() {
        assert_eq!(list_in_words::<&str>(&[]), "");
        assert_eq!(list_in_words(&["roster"]), "roster");
        assert_eq!(list_in_words(&["roster", "deck"]), "roster and deck");
        assert_eq!(
            list_in_words(&["map", "roster", "deck"]),
            "map, roster and deck"
        );
    }
}
