//! The deployment editor: the levy pools beside the map, block drags between
//! cities and pools, historical (5.1) and free (5.3) modes, winter supply.

use egui::{Id, LayerId, Order, Pos2, Rect, RichText, Role, Sense, Ui, Vec2, WidgetInfo};

use crate::app::state::AppState;
use crate::app::theme::{self, GOOD, POOL_BLOCK, WARNING};
use crate::app::{Request, map};
use crate::scenario::edit::{CityBalance, DeploymentMode, Edit, Item, Working};
use crate::scenario::model::{Block, BlockId, Scenario, Side, SpaceId};

/// The deployment editor's own state: what is dragged, what is shown.
#[derive(Default)]
pub(in crate::app) struct DeployPanel {
    /// The block being dragged (from the map or a pool).
    pub dragging: Option<(Side, String)>,
    /// 8.4: show each city's winter supply on the map.
    pub show_supply: bool,
    /// Where the map and the pools were drawn this frame, for drops.
    pub map_rect: Option<Rect>,
    pub pool_rects: [Option<Rect>; 2],
}

impl DeployPanel {
    /// The side panel's tools: the mode, the 5.3 counts, the selected block.
    pub(in crate::app) fn tools(&mut self, ui: &mut Ui, state: &AppState) -> Vec<Request> {
        let mut edits = Vec::new();
        let (Some(report), Some(doc)) = (state.report(), state.document()) else {
            return Vec::new();
        };
        let w = doc.working();
        let mode = w.mode();
        ui.label(RichText::new("Deployment editor").strong());
        edits.extend(mode_buttons(ui, mode));
        if mode == DeploymentMode::Free {
            balance_note(ui, state.balance());
        }
        ui.checkbox(&mut self.show_supply, "Show winter supply (8.4: 3 + VP)");
        ui.label(
            RichText::new(
                "The published game starts every block at full strength (5.1); select a deployed block to start it lower.",
            )
            .weak()
            .small(),
        );
        ui.separator();

        let scenario = &report.scenario;
        match state.selection() {
            Some(Item::Block(side, name)) => {
                if let Some(id) = scenario.roster.find(*side, name) {
                    selected_block(ui, scenario, w, id, &mut edits);
                }
            }
            Some(Item::Space(name)) => {
                if let Some(id) = scenario.board.find(name) {
                    selected_space(ui, scenario, id, &mut edits);
                }
            }
            _ => {
                ui.label(
                    RichText::new(
                        "Drag blocks between cities and the pools; click one to select it.",
                    )
                    .weak(),
                );
            }
        }
        edits.into_iter().map(Request::Edit).collect()
    }

    /// Each side's levy pool: the blocks not on the map (5.2).
    pub(in crate::app) fn pools(&mut self, ui: &mut Ui, state: &AppState) -> Vec<Request> {
        let Some(report) = state.report() else {
            return Vec::new();
        };
        let scenario = &report.scenario;
        let setup = scenario.starting_setup();
        let mut grabbed = None;
        let mut clicked = None;
        let pointer = ui.input(|i| i.pointer.latest_pos());
        for side in Side::BOTH {
            let pool: Vec<_> = scenario
                .roster
                .of_side(side)
                .filter(|b| setup.location(*b).is_none())
                .collect();
            ui.add_space(4.0);
            ui.label(RichText::new(format!("{side}'s levy pool ({})", pool.len())).strong());
            let frame = egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_min_size(Vec2::new(ui.available_width(), POOL_BLOCK * 1.5));
                ui.horizontal_wrapped(|ui| {
                    for id in &pool {
                        let b = scenario.roster.block(*id);
                        let (rect, response) = ui
                            .allocate_exact_size(Vec2::splat(POOL_BLOCK), Sense::click_and_drag());
                        let label = format!("{} ({})", b.name, b.side);
                        response.widget_info(|| WidgetInfo::labeled(Role::Button, true, &label));
                        let dragged_here = self
                            .dragging
                            .as_ref()
                            .is_some_and(|(s, n)| *s == b.side && *n == b.name);
                        if dragged_here {
                            ui.painter().rect_stroke(
                                rect,
                                2.0,
                                egui::Stroke::new(1.0, theme::GHOST),
                                egui::StrokeKind::Inside,
                            );
                        } else {
                            map::pool_block(ui.painter(), rect, b);
                        }
                        if state.selection() == Some(&Item::Block(b.side, b.name.clone())) {
                            ui.painter().rect_stroke(
                                rect.expand(2.0),
                                2.0,
                                egui::Stroke::new(2.5, theme::SELECTED),
                                egui::StrokeKind::Outside,
                            );
                        }
                        if response.drag_started() {
                            grabbed = Some((b.side, b.name.clone()));
                        }
                        if response.clicked() {
                            clicked = Some(Item::Block(b.side, b.name.clone()));
                        }
                        let _ = response.on_hover_text(format!(
                            "{} — {} {}, {}, strength {}",
                            b.name,
                            b.side,
                            b.kind.label(),
                            map::short_rating(b),
                            b.max_strength()
                        ));
                    }
                    if pool.is_empty() {
                        ui.label(RichText::new("empty").weak());
                    }
                });
            });
            let rect = frame.response.rect;
            self.pool_rects[side.index()] = Some(rect);
            if self.dragging.as_ref().is_some_and(|(s, _)| *s == side)
                && pointer.is_some_and(|p| rect.contains(p))
            {
                ui.painter().rect_stroke(
                    rect,
                    4.0,
                    egui::Stroke::new(2.0, GOOD),
                    egui::StrokeKind::Inside,
                );
            }
        }
        ui.add_space(6.0);
        ui.label(
            RichText::new("Drag a block onto a city to deploy it, or back here to return it.")
                .weak()
                .small(),
        );
        if let Some(g) = grabbed {
            self.dragging = Some(g);
        }
        clicked
            .map(|c| Request::Select(Some(c)))
            .into_iter()
            .collect()
    }

    /// Draws the dragged block at the pointer and drops it on release: on a
    /// city (refused with a reason when illegal) or on its side's pool.
    /// `space_at` finds the space under a point of the map (the map panel's
    /// hit test, passed in so this panel needs nothing else of the map).
    pub(in crate::app) fn finish_drag(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        space_at: impl Fn(&Scenario, Pos2) -> Option<SpaceId>,
    ) -> Vec<Request> {
        let Some((side, name)) = self.dragging.clone() else {
            return Vec::new();
        };
        let (pos, released, down) = ui.input(|i| {
            (
                i.pointer.latest_pos(),
                i.pointer.any_released(),
                i.pointer.any_down(),
            )
        });
        let Some(report) = state.report() else {
            self.dragging = None;
            return Vec::new();
        };
        let scenario = &report.scenario;
        if let (Some(p), Some(id)) = (pos, scenario.roster.find(side, &name)) {
            let painter = ui
                .ctx()
                .layer_painter(LayerId::new(Order::Tooltip, Id::unique("dragged_block")));
            map::pool_block(
                &painter,
                Rect::from_center_size(p, Vec2::splat(POOL_BLOCK * 0.8)),
                scenario.roster.block(id),
            );
        }
        if !released && down {
            return Vec::new();
        }
        self.dragging = None;
        let Some(p) = pos else {
            return Vec::new();
        };
        let edit = if self.pool_rects[side.index()].is_some_and(|r| r.contains(p)) {
            Some(Edit::MoveBlock {
                side,
                block: name.clone(),
                to: None,
            })
        } else if self.map_rect.is_some_and(|r| r.contains(p)) {
            space_at(scenario, p).map(|s| Edit::MoveBlock {
                side,
                block: name.clone(),
                to: Some(scenario.board.name(s).to_string()),
            })
        } else {
            None
        };
        edit.map(|e| Request::EditAndSelect(e, Item::Block(side, name)))
            .into_iter()
            .collect()
    }
}

/// "Historical (5.1)" and "Free (5.3)": a click on the other mode switches to it.
fn mode_buttons(ui: &mut Ui, mode: DeploymentMode) -> Option<Edit> {
    let mut edit = None;
    ui.horizontal(|ui| {
        for m in [DeploymentMode::Historical, DeploymentMode::Free] {
            let hover = match m {
                DeploymentMode::Historical => {
                    "Edit the order of battle (5.1); a free deployment is removed (undo brings it back)"
                }
                DeploymentMode::Free => {
                    "Each side moves its deployed blocks among its deployment cities; each city keeps its number of blocks (5.3)"
                }
            };
            if ui
                .radio(mode == m, mode_label(m))
                .on_hover_text(hover)
                .clicked()
                && mode != m
            {
                edit = Some(Edit::SetMode(m));
            }
        }
    });
    edit
}

/// 5.3: whether each city holds its number of each side's blocks.
fn balance_note(ui: &mut Ui, balance: &[CityBalance]) {
    if balance.is_empty() {
        ui.colored_label(
            GOOD,
            "5.3: every city holds as many blocks of each side as in the order of battle.",
        );
    } else {
        ui.colored_label(
            WARNING,
            "5.3: each city must keep its number of each side's blocks:",
        );
        for b in balance {
            let what = if b.surplus() > 0 {
                format!("{} too many", b.surplus())
            } else {
                format!("{} too few", -b.surplus())
            };
            ui.label(format!(
                "{} in {}: {} of {} ({what})",
                b.side, b.city, b.placed, b.wanted
            ));
        }
    }
}

/// The selected block: its ratings, where it starts and at what strength.
fn selected_block(
    ui: &mut Ui,
    scenario: &Scenario,
    w: &Working,
    id: BlockId,
    edits: &mut Vec<Edit>,
) {
    let b = scenario.roster.block(id);
    ui.label(RichText::new(&b.name).heading());
    ui.label(format!(
        "{} {} · {} · full strength {}",
        b.side,
        b.kind.label(),
        crate::app::map::short_rating(b),
        crate::app::map::roman(b.max_strength())
    ));
    match scenario.starting_setup().location(id) {
        Some(s) => {
            ui.label(format!("In {}", scenario.board.name(s)));
            start_strength(ui, w, b, edits);
            if ui.button("Send to the levy pool").clicked() {
                edits.push(Edit::MoveBlock {
                    side: b.side,
                    block: b.name.clone(),
                    to: None,
                });
            }
        }
        None => {
            ui.label("In the levy pool (5.2)");
        }
    }
    if let Some(levy) = b.levy_city {
        ui.label(format!("Levied in {} (6.4)", scenario.board.name(levy)));
    }
}

/// "Starts at I II III IV": a deployed block's starting strength (5.1).
fn start_strength(ui: &mut Ui, w: &Working, b: &Block, edits: &mut Vec<Edit>) {
    let current = w.block_strength(b.side, &b.name);
    ui.horizontal(|ui| {
        ui.label("Starts at");
        for strength in b.kind.strengths(b.max_steps) {
            let text = crate::app::map::strength_text(b, strength);
            let chosen = current == Some(strength);
            if ui
                .selectable_label(chosen, crate::app::map::roman(strength))
                .on_hover_text(format!("{} starts the game at strength {text}", b.name))
                .clicked()
                && !chosen
            {
                edits.push(Edit::SetStrength {
                    side: b.side,
                    block: b.name.clone(),
                    strength: Some(strength),
                });
            }
        }
    });
}

/// The selected space and the blocks that start there, each sent to its pool
/// by a button.
fn selected_space(ui: &mut Ui, scenario: &Scenario, id: SpaceId, edits: &mut Vec<Edit>) {
    ui.label(RichText::new(scenario.board.name(id)).heading());
    let here: Vec<_> = scenario
        .starting_setup()
        .placements
        .iter()
        .filter(|(_, s)| *s == id)
        .map(|(b, _)| scenario.roster.block(*b))
        .collect();
    if here.is_empty() {
        ui.label(RichText::new("No blocks here.").weak());
    }
    for b in here {
        ui.horizontal(|ui| {
            ui.label(format!("{} ({})", b.name, b.side));
            if ui.small_button("to pool").clicked() {
                edits.push(Edit::MoveBlock {
                    side: b.side,
                    block: b.name.clone(),
                    to: None,
                });
            }
        });
    }
}

/// Keeps the deployment mode's name in one place.
fn mode_label(mode: DeploymentMode) -> &'static str {
    match mode {
        DeploymentMode::Historical => "Historical (5.1)",
        DeploymentMode::Free => "Free (5.3)",
    }
}
