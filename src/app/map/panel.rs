//! The map in the middle of the Map and Deployment tabs: its drawing (rebuilt
//! when the scenario changes), pan and zoom, and what clicks and drags on it ask for.

use egui::{Pos2, RichText, Ui};

use super::heatmap_view::{self, HeatSource, Overlay};
use super::view::MapView;
use super::{MapHit, MapInput, MapMode, MapModel};
use crate::app::setup::deploy::DeployPanel;
use crate::app::state::AppState;
use crate::app::{Request, Tab, theme};
use crate::scenario::edit::{Edit, Item};
use crate::scenario::format::LinkDoc;
use crate::scenario::model::{LinkClass, Side};
use crate::scenario::model::{Scenario, SpaceId};

/// The map's drawing and view.
#[derive(Default)]
pub(in crate::app) struct MapPanel {
    model: Option<MapModel>,
    /// The scenario revision the drawing was built for.
    built_for: Option<u64>,
    pub view: MapView,
    /// The space under the pointer in the last frame.
    pub hovered: Option<SpaceId>,
    /// The simulation heatmap drawn over the Map tab.
    pub overlay: Overlay,
}

impl MapPanel {
    /// Rebuilds the drawing when the scenario changed since it was built.
    pub(in crate::app) fn sync(&mut self, state: &AppState) {
        if self.built_for == Some(state.scenario_revision()) {
            return;
        }
        self.built_for = Some(state.scenario_revision());
        self.model = state
            .scenario()
            .map(|s| MapModel::rebuild(s, self.model.take()));
    }

    pub(in crate::app) fn has_model(&self) -> bool {
        self.model.is_some()
    }

    /// False for a custom map drawn without the published coastline.
    pub(in crate::app) fn has_backdrop(&self) -> bool {
        self.model.as_ref().is_none_or(MapModel::has_backdrop)
    }

    /// The space (or the space of the block) at a screen point.
    pub(in crate::app) fn space_at(&self, scenario: &Scenario, p: Pos2) -> Option<SpaceId> {
        self.model.as_ref()?.space_at(scenario, p)
    }

    /// Draws the map, or why there is none.
    pub(in crate::app) fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        tab: Tab,
        deploy: &mut DeployPanel,
        link_class: LinkClass,
        heat: Option<HeatSource<'_>>,
    ) -> Vec<Request> {
        let mut actions = Vec::new();
        if let Some(e) = state.load_error() {
            not_loaded(ui, e);
            return actions;
        }
        let (Some(model), Some(scenario)) = (&mut self.model, state.scenario()) else {
            return actions;
        };
        let mode = match tab {
            Tab::Map => MapMode::EditMap,
            Tab::Deployment => MapMode::Deploy,
            Tab::Rules | Tab::Simulation | Tab::Setup | Tab::Play | Tab::Replay | Tab::Balance => {
                MapMode::View
            }
        };
        let balance: Vec<(SpaceId, Side, i64)> = if tab == Tab::Deployment {
            state
                .balance()
                .iter()
                .filter_map(|b| {
                    scenario
                        .board
                        .find(&b.city)
                        .map(|id| (id, b.side, b.surplus()))
                })
                .collect()
        } else {
            Vec::new()
        };
        let dragging = deploy
            .dragging
            .as_ref()
            .and_then(|(side, name)| scenario.roster.find(*side, name));
        let input = MapInput {
            mode,
            selected: selection_hit(scenario, state.selection()),
            supply: (tab == Tab::Deployment && deploy.show_supply)
                .then(|| state.rules().map_or(3, |r| r.winter_supply_base)),
            balance: &balance,
            dragging,
            reachable: None,
        };
        if tab == Tab::Map {
            // The heatmap's controls and legend above the map, never over it.
            heatmap_view::controls(ui, scenario, heat.as_ref(), &mut self.overlay, self.hovered);
        }
        let out = model.show(ui, scenario, state.rules(), &mut self.view, &input);
        deploy.map_rect = Some(self.view.area());
        self.hovered = out.hovered;
        if tab == Tab::Map {
            let area = self.view.area();
            if let Some(source) = &heat {
                let painter = ui.painter_at(area);
                heatmap_view::paint(&painter, scenario, &self.view, source, self.overlay);
                // The names again over the discs: a disc never hides a city's name.
                model.repaint_labels(&painter, scenario);
            }
        }
        if let Some(b) = out.block_grabbed {
            let block = scenario.roster.block(b);
            deploy.dragging = Some((block.side, block.name.clone()));
        }
        if let Some(click) = out.clicked {
            let item = click.map(|hit| hit_item(scenario, hit));
            let shift = ui.input(|i| i.modifiers.shift);
            // Map editor: shift+click a second space links it to the selected one.
            if let (true, Tab::Map, Some(Item::Space(from)), Some(Item::Space(to))) =
                (shift, tab, state.selection(), &item)
            {
                let link = LinkDoc::new(link_class, from.clone(), to.clone(), None);
                actions.push(Request::Edit(Edit::AddLink(link)));
            } else {
                actions.push(Request::Select(item));
            }
        }
        if let Some((id, at)) = out.moved_space {
            let space = scenario.board.name(id).to_string();
            let to = (at.x.round(), at.y.round());
            actions.push(Request::Edit(Edit::MoveSpace { space, to }));
        }
        actions
    }
}

/// In place of the map: why the scenario could not be loaded.
fn not_loaded(ui: &mut Ui, error: &str) {
    ui.painter().rect_filled(ui.max_rect(), 0.0, theme::OUTSIDE);
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() * 0.35);
        ui.label(
            RichText::new("The scenario could not be loaded")
                .size(theme::ALERT_SIZE)
                .color(theme::ERROR),
        );
        ui.add_space(8.0);
        ui.label(RichText::new(error).monospace().color(theme::ON_OUTSIDE));
        ui.add_space(8.0);
        ui.label(
            RichText::new("Fix the file and open it again (File > Open scenario).")
                .color(theme::ON_OUTSIDE_WEAK),
        );
    });
}

/// The map's id for a selected item.
fn selection_hit(scenario: &Scenario, item: Option<&Item>) -> Option<MapHit> {
    let board = &scenario.board;
    match item? {
        Item::Space(n) => board.find(n).map(MapHit::Space),
        Item::Link(a, b) => board
            .link_between(board.find(a)?, board.find(b)?)
            .map(MapHit::Link),
        Item::Block(side, n) => scenario.roster.find(*side, n).map(MapHit::Block),
    }
}

fn hit_item(scenario: &Scenario, hit: MapHit) -> Item {
    let board = &scenario.board;
    match hit {
        MapHit::Space(id) => Item::Space(board.name(id).to_string()),
        MapHit::Link(l) => {
            let link = board.link(l);
            Item::Link(
                board.name(link.a).to_string(),
                board.name(link.b).to_string(),
            )
        }
        MapHit::Block(b) => {
            let block = scenario.roster.block(b);
            Item::Block(block.side, block.name.clone())
        }
    }
}
