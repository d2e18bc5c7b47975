//! The map editor's inspector: the selected space or link, as controls.

use egui::{Pos2, RichText, Ui};

use crate::app::state::AppState;
use crate::app::{Request, form, theme};
use crate::scenario::edit::{Edit, Item, Working};
use crate::scenario::format::{LinkDoc, SpaceDoc};
use crate::scenario::model::{LinkClass, SpaceKind};

/// The map editor's inspector. It keeps only the text being typed into it,
/// committed on Enter or leaving the field.
#[derive(Default)]
pub(in crate::app) struct Inspector {
    /// The item the texts belong to; another selection refills them.
    item: Option<Item>,
    name: String,
    aliases: String,
    strait_name: String,
    link_to: String,
    link_class: Option<LinkClass>,
}

/// A new inland city at `centre`, named "New space" (numbered past the
/// names taken).
fn new_space(w: &Working, centre: Pos2) -> SpaceDoc {
    let name = (1..)
        .map(|k| {
            if k == 1 {
                "New space".to_string()
            } else {
                format!("New space {k}")
            }
        })
        .find(|n| w.space_index(n).is_none())
        .unwrap_or_default();
    SpaceDoc {
        name,
        kind: SpaceKind::City,
        vp: 0,
        at: (centre.x.round(), centre.y.round()),
        island: None,
        aliases: Vec::new(),
    }
}

impl Inspector {
    /// The class a new link gets ("Link to", shift+click).
    pub(in crate::app) fn link_class(&self) -> LinkClass {
        self.link_class.unwrap_or(LinkClass::Major)
    }
}

/// The space's links, each a link that selects it.
fn space_links(ui: &mut Ui, w: &Working, i: usize, actions: &mut Vec<Request>) {
    let space = &w.map.spaces[i];
    let mut any = false;
    for link in &w.map.links {
        let (a, x) = link.ends();
        let other = if w.space_index(a) == Some(i) {
            x
        } else if w.space_index(x) == Some(i) {
            a
        } else {
            continue;
        };
        any = true;
        let text = match link.name() {
            Some(n) => format!("{} to {other} (the {n})", link.class().label()),
            None => format!("{} to {other}", link.class().label()),
        };
        if ui.link(text).clicked() {
            actions.push(Request::Select(Some(Item::Link(
                space.name.clone(),
                other.to_string(),
            ))));
        }
    }
    if !any {
        ui.label(RichText::new("none").weak());
    }
}

const KINDS: [SpaceKind; 4] = [
    SpaceKind::City,
    SpaceKind::Port,
    SpaceKind::MajorPort,
    SpaceKind::Sea,
];
const CLASSES: [LinkClass; 4] = [
    LinkClass::Major,
    LinkClass::Minor,
    LinkClass::Strait,
    LinkClass::Sea,
];

impl Inspector {
    /// The editor's tools and the selected item's controls; `centre` is the
    /// canvas point in the middle of the map, where a new space goes.
    pub(in crate::app) fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        centre: Pos2,
    ) -> Vec<Request> {
        let mut actions = Vec::new();
        let Some(doc) = state.document() else {
            return actions;
        };
        let w = doc.working();
        ui.horizontal(|ui| {
            ui.label(RichText::new("Map editor").strong());
            if ui
                .button("Add space")
                .on_hover_text("A new inland city in the middle of the map view")
                .clicked()
            {
                let space = new_space(w, centre);
                let name = space.name.clone();
                actions.push(Request::EditAndSelect(
                    Edit::AddSpace(space),
                    Item::Space(name),
                ));
            }
        });
        if self.item.as_ref() != state.selection() {
            *self = Inspector {
                item: state.selection().cloned(),
                link_class: self.link_class,
                ..Default::default()
            };
            self.fill(w);
        }
        match state.selection() {
            None => {
                ui.label(RichText::new("Click a space or a link on the map to edit it.").weak());
            }
            Some(Item::Space(name)) => {
                let winter = state.rules().map_or(3, |r| r.winter_supply_base);
                self.space(ui, w, name, winter, &mut actions);
            }
            Some(Item::Link(a, b)) => self.link(ui, w, a, b, &mut actions),
            Some(Item::Block(side, name)) => {
                ui.label(format!("{side} block {name}"));
                ui.label(RichText::new("Blocks are moved in the Deployment tab.").weak());
            }
        }
        actions
    }

    /// Fills the text fields from the selected item.
    fn fill(&mut self, w: &Working) {
        match &self.item {
            Some(Item::Space(name)) => {
                if let Some(i) = w.space_index(name) {
                    let s = &w.map.spaces[i];
                    self.name = s.name.clone();
                    self.aliases = s.aliases.join(", ");
                }
            }
            Some(Item::Link(a, b)) => {
                if let Some(k) = w.link_index(a, b) {
                    self.strait_name = w.map.links[k].name().unwrap_or_default().to_string();
                }
            }
            _ => {}
        }
    }

    fn space(
        &mut self,
        ui: &mut Ui,
        w: &Working,
        name: &str,
        winter: u8,
        actions: &mut Vec<Request>,
    ) {
        let Some(i) = w.space_index(name) else {
            actions.push(Request::Select(None));
            return;
        };
        let space = &w.map.spaces[i];
        ui.label(RichText::new(&space.name).heading());
        egui::Grid::new("space_inspector")
            .num_columns(2)
            .spacing([10.0, 4.0])
            .show(ui, |ui| {
                self.identity_rows(ui, space, actions);
                self.place_rows(ui, space, winter, actions);
            });

        ui.add_space(4.0);
        ui.label(RichText::new("Links").strong());
        space_links(ui, w, i, actions);
        self.new_link(ui, space, actions);
        ui.add_space(4.0);
        if ui
            .button("Delete space")
            .on_hover_text("Removes the space and its links; its blocks go to the levy pools")
            .clicked()
        {
            actions.push(Request::Edit(Edit::DeleteSpace {
                space: space.name.clone(),
            }));
        }
    }

    /// Name, kind and VP, as grid rows.
    fn identity_rows(&mut self, ui: &mut Ui, space: &SpaceDoc, actions: &mut Vec<Request>) {
        if form::name_row(ui, "Name", &mut self.name, &space.name) {
            actions.push(Request::Edit(Edit::RenameSpace {
                space: space.name.clone(),
                name: self.name.clone(),
            }));
        }

        let mut kind = space.kind;
        form::labelled(
            ui,
            "Kind",
            form::choice("space_kind", &mut kind, KINDS, SpaceKind::label),
        );
        if kind != space.kind {
            actions.push(Request::Edit(Edit::SetKind {
                space: space.name.clone(),
                kind,
            }));
        }
        ui.end_row();

        let l = ui.label("VP");
        let mut vp = space.vp;
        let r = ui
            .add(egui::DragValue::new(&mut vp).range(0..=9))
            .labelled_by(l.id)
            .on_hover_text("Victory points (4.2); a city's winter supply is 3 + VP (8.4)");
        if r.changed() && vp != space.vp {
            actions.push(Request::Edit(Edit::SetVp {
                space: space.name.clone(),
                vp,
            }));
        }
        ui.end_row();
    }

    /// Position, aliases, island and winter supply, as grid rows.
    fn place_rows(
        &mut self,
        ui: &mut Ui,
        space: &SpaceDoc,
        winter: u8,
        actions: &mut Vec<Request>,
    ) {
        ui.label("Position");
        let (mut x, mut y) = space.at;
        let changed = ui
            .horizontal(|ui| {
                let a = ui.add(egui::DragValue::new(&mut x).prefix("x ").speed(1.0));
                let b = ui.add(egui::DragValue::new(&mut y).prefix("y ").speed(1.0));
                a.changed() || b.changed()
            })
            .inner;
        if changed {
            actions.push(Request::Edit(Edit::MoveSpace {
                space: space.name.clone(),
                to: (x, y),
            }));
        }
        ui.end_row();
        self.aliases_row(ui, space, actions);

        if let Some(island) = &space.island {
            ui.label("Island");
            ui.label(format!("{island} (4.41: reached only by sea)"));
            ui.end_row();
        }
        if space.kind.is_city() {
            ui.label("Winter supply");
            ui.label(format!(
                "{} blocks ({winter} + {} VP, 8.4)",
                winter.saturating_add(space.vp),
                space.vp
            ));
            ui.end_row();
        }
    }

    /// The aliases as one comma-separated field, as a grid row: edited
    /// there and applied when it loses focus (not at every key).
    fn aliases_row(&mut self, ui: &mut Ui, space: &SpaceDoc, actions: &mut Vec<Request>) {
        let r = form::labelled(
            ui,
            "Aliases",
            egui::TextEdit::singleline(&mut self.aliases)
                .hint_text("other names, comma separated")
                .desired_width(theme::FIELD_WIDTH),
        );
        if r.lost_focus() {
            let aliases: Vec<String> = self
                .aliases
                .split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect();
            if aliases != space.aliases {
                actions.push(Request::Edit(Edit::SetAliases {
                    space: space.name.clone(),
                    aliases,
                }));
            }
        }
        ui.end_row();
    }

    /// "Link to … as … Add link".
    fn new_link(&mut self, ui: &mut Ui, space: &SpaceDoc, actions: &mut Vec<Request>) {
        ui.horizontal(|ui| {
            form::labelled(
                ui,
                "Link to",
                egui::TextEdit::singleline(&mut self.link_to)
                    .hint_text("space name")
                    .desired_width(120.0),
            );
            let class = self.link_class.get_or_insert(LinkClass::Major);
            form::labelled(
                ui,
                "as",
                form::choice("new_link_class", class, CLASSES, LinkClass::label),
            );
            if ui.button("Add link").clicked() && !self.link_to.trim().is_empty() {
                actions.push(Request::Edit(Edit::AddLink(LinkDoc::new(
                    *class,
                    space.name.clone(),
                    self.link_to.trim().to_string(),
                    None,
                ))));
                self.link_to.clear();
            }
        });
    }

    fn link(&mut self, ui: &mut Ui, w: &Working, a: &str, b: &str, actions: &mut Vec<Request>) {
        let Some(k) = w.link_index(a, b) else {
            actions.push(Request::Select(None));
            return;
        };
        let link = &w.map.links[k];
        let (x, y) = link.ends();
        ui.label(RichText::new(format!("{x} – {y}")).heading());
        ui.horizontal(|ui| {
            for end in [x, y] {
                if ui.link(end).clicked() {
                    actions.push(Request::Select(Some(Item::Space(end.to_string()))));
                }
            }
        });
        egui::Grid::new("link_inspector")
            .num_columns(2)
            .spacing([10.0, 4.0])
            .show(ui, |ui| self.link_class_rows(ui, link, actions));
        let rule = match link.class() {
            LinkClass::Major => "4.31: four blocks per player per turn",
            LinkClass::Minor => "4.31: two blocks per player per turn",
            LinkClass::Strait => "4.32: two land blocks, one into a defended city",
            LinkClass::Sea => {
                "A port and a sea, or two seas: Navis, amphibious moves, sea retreats"
            }
        };
        ui.label(RichText::new(rule).weak());
        if ui.button("Delete link").clicked() {
            actions.push(Request::Edit(Edit::DeleteLink {
                a: x.to_string(),
                b: y.to_string(),
            }));
        }
    }

    /// The link's class, and a strait's name, as grid rows: a strait's
    /// name is applied when its field loses focus (not at every key).
    fn link_class_rows(&mut self, ui: &mut Ui, link: &LinkDoc, actions: &mut Vec<Request>) {
        let (x, y) = link.ends();
        let mut class = link.class();
        form::labelled(
            ui,
            "Class",
            form::choice("link_class", &mut class, CLASSES, LinkClass::label),
        );
        if class != link.class() {
            actions.push(Request::Edit(Edit::SetLinkClass {
                a: x.to_string(),
                b: y.to_string(),
                class,
                name: None,
            }));
        }
        ui.end_row();
        if link.class() == LinkClass::Strait {
            let l = ui.label("Strait name");
            let r = ui
                .text_edit_singleline(&mut self.strait_name)
                .labelled_by(l.id);
            if r.lost_focus() && Some(self.strait_name.as_str()) != link.name() {
                actions.push(Request::Edit(Edit::SetLinkClass {
                    a: x.to_string(),
                    b: y.to_string(),
                    class: LinkClass::Strait,
                    name: Some(self.strait_name.trim().to_string()),
                }));
            }
            ui.end_row();
        }
    }
}
