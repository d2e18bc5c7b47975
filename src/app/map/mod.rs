//! The map, and the Map tab around it. The map widget every tab draws a
//! board with is `MapModel` (backdrop, links, spaces, starting blocks,
//! labels, hover): its data and geometry (`model`), built and shown by this
//! file, and its parts by concern (`blocks`, `hit`, `labels`, `legend`,
//! `paint`, `seas`), over the Mediterranean backdrop
//! (`geo`), the pan and zoom (`view`) and a space's hover card (`tooltip`).
//! The Map tab adds the panel in the middle of the Map and Deployment tabs
//! (`panel`), the inspector of the selected space or link (`inspector`) and
//! the simulation heatmaps over the map (`heatmap_view`).
//!
//! Everything that depends only on the scenario is computed once in
//! [`MapModel::rebuild`]; per frame only screen positions, galleys (cached by
//! egui) and shapes are made. Label placement is redone only when the zoom
//! changes, since panning moves every label together.

use egui::emath::TSTransform;
use egui::{Painter, Pos2, Rect, Sense, Ui, Vec2, pos2, vec2};

use crate::scenario::model::{BlockId, Scenario, SpaceId, SpaceKind};
use crate::scenario::rules::RuleSet;
use geo::Backdrop;
use view::MapView;

use super::theme::{LAND, WATER};

// The map's model, which its parts share and import; none of them imports
// this file, so the map's imports run one way.
mod model;

// The map's parts, by concern; each adds methods to `MapModel`.
mod blocks;
mod hit;
mod labels;
mod legend;
mod paint;
mod seas;

// What the map is drawn on and with.
mod geo;
pub(super) mod tooltip;
pub(super) mod view;

// The Map tab.
pub mod heatmap_view;
pub(super) mod inspector;
pub(super) mod panel;

pub(super) use blocks::{pool_block, short_name, short_rating, strength_text};
use hit::handle_zoom;
pub(super) use legend::legend;
pub(super) use model::{BOARD_FONT, MapHit, MapInput, MapMode, MapModel, MapOutput};
use model::{Drag, Metrics, Placement};
use seas::{sea_areas, sea_paths};

impl MapModel {
    /// Builds the drawing of an edited scenario, reusing the previous one's
    /// sea routes where both ends stayed put (routing is the slow part).
    pub(super) fn rebuild(scenario: &Scenario, previous: Option<MapModel>) -> MapModel {
        let (mut routes, mut sea_radii, old_backdrop) = match previous {
            Some(m) => (m.routes, m.sea_radii, m.backdrop),
            None => Default::default(),
        };
        let board = &scenario.board;
        let positions: Vec<Pos2> = board
            .spaces
            .iter()
            .map(|s| pos2(s.pos.0, s.pos.1))
            .collect();
        let backdrop = geo::fits_board(board)
            .then(|| old_backdrop.unwrap_or_else(|| Backdrop::new(WATER, LAND)));

        // The published map shows its whole canvas; a custom map is framed
        // around its own spaces, wherever on the canvas they are.
        let around_spaces = positions.iter().fold(Rect::NOTHING, |r, p| {
            r.union(Rect::from_center_size(*p, Vec2::splat(160.0)))
        });
        let canvas = Rect::from_min_size(Pos2::ZERO, vec2(geo::CANVAS.0, geo::CANVAS.1));
        let bounds = match (&backdrop, around_spaces.is_positive()) {
            (Some(_), _) => canvas.union(around_spaces),
            (None, true) => around_spaces,
            (None, false) => canvas,
        };

        let seas = sea_areas(board, &positions, backdrop.is_some(), &mut sea_radii);
        let sea_paths = sea_paths(board, &positions, &seas, backdrop.is_some(), &mut routes);
        let blocks = blocks_by_space(scenario);
        MapModel {
            routes,
            sea_radii,
            drag: Drag::None,
            metrics: None,
            backdrop,
            bounds,
            positions,
            seas,
            sea_paths,
            blocks,
            placement: Placement::default(),
            frame: TSTransform::IDENTITY,
            screen: Vec::new(),
            galleys: Vec::new(),
            strait_galleys: Vec::new(),
            shapes: Vec::new(),
            tiles: Vec::new(),
            stack_words: Vec::new(),
            lit: Vec::new(),
        }
    }

    /// Whether the published coastline is drawn behind this board.
    pub(super) fn has_backdrop(&self) -> bool {
        self.backdrop.is_some()
    }

    /// Draws the map in the remaining space of `ui`, handles pan, zoom,
    /// clicks and drags, and reports what the pointer did.
    pub(super) fn show(
        &mut self,
        ui: &mut Ui,
        scenario: &Scenario,
        rules: Option<&RuleSet>,
        view: &mut MapView,
        input: &MapInput<'_>,
    ) -> MapOutput {
        let mut out = MapOutput::default();
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let area = response.rect;
        view.set_area(area, self.bounds);

        let mut m = Metrics::new(view.zoom());
        m.big_blocks = matches!(input.mode, MapMode::Deploy | MapMode::Board);
        m.board = input.mode == MapMode::Board;
        self.frame = view.transform();
        self.update_screen(view);

        self.layout_labels(&painter, scenario, m);
        let key = (view.zoom(), ui.pixels_per_point(), m.big_blocks);
        if self.placement.key != Some(key) {
            self.place_labels(scenario, m);
            self.placement.key = Some(key);
        }

        // Drags: a block (deployment), a space (map editing), or the map itself.
        if response.drag_started()
            && let Some(origin) = ui.input(|i| i.pointer.press_origin())
        {
            self.drag = match input.mode {
                MapMode::Deploy => match self.block_at(scenario, m, origin) {
                    Some(b) => {
                        out.block_grabbed = Some(b);
                        Drag::Block
                    }
                    None => Drag::Pan,
                },
                MapMode::EditMap => match self.marker_at(scenario, m, origin) {
                    Some(id) => Drag::Space {
                        id,
                        grab: view.to_map(origin) - self.positions[id.index()],
                    },
                    None => Drag::Pan,
                },
                MapMode::View | MapMode::Board => Drag::Pan,
            };
        }
        if response.dragged() {
            match self.drag {
                Drag::Pan => view.pan(response.drag_delta()),
                Drag::Space { id, grab } => {
                    if let Some(p) = ui.input(|i| i.pointer.interact_pos()) {
                        self.positions[id.index()] = view.to_map(p) - grab;
                        self.update_screen(view);
                    }
                }
                Drag::Block | Drag::None => {}
            }
        }
        if response.drag_stopped() {
            if let Drag::Space { id, .. } = self.drag {
                out.moved_space = Some((id, self.positions[id.index()]));
            }
            self.drag = Drag::None;
        }
        handle_zoom(ui, &response, view);
        self.frame = view.transform();
        self.update_screen(view);

        if response.clicked()
            && let Some(p) = ui.input(|i| i.pointer.interact_pos())
        {
            out.clicked = Some(self.pick(scenario, m, p, input.mode));
        }

        let hovered = ui
            .input(|i| i.pointer.hover_pos())
            .filter(|p| ui.rect_contains_pointer(area) && area.contains(*p))
            .and_then(|p| self.hit(scenario, m, p));
        out.hovered = hovered;
        self.metrics = Some(m);

        self.paint_backdrop(&painter, view);
        self.paint_links(&painter, scenario, m, hovered, input.reachable);
        self.paint_selected_link(&painter, scenario, m, input.selected);
        self.paint_spaces(&painter, scenario, m, hovered, area, input);
        self.paint_labels(&painter, scenario, m, area);

        self.register_spaces(ui, scenario, rules, m, area, input.mode);
        if input.mode == MapMode::Deploy {
            self.register_blocks(ui, scenario, m, area);
        }
        out
    }

    fn update_screen(&mut self, view: &MapView) {
        self.screen.clear();
        self.screen
            .extend(self.positions.iter().map(|p| view.to_screen(*p)));
    }

    /// Replaces the rows of blocks drawn over the spaces (one list per
    /// space, left to right); labels are placed around them again.
    pub(super) fn set_rows(&mut self, rows: Vec<Vec<BlockId>>) {
        if rows != self.blocks {
            self.blocks = rows;
            self.placement.key = None;
        }
    }

    /// The board's stacks in words, by space (the space's card lists them).
    pub(super) fn set_stack_words(&mut self, words: Vec<Vec<String>>) {
        self.stack_words = words;
    }

    /// The board's block tiles as drawn, by space: a hover card keeps
    /// clear of them and a click on one is on its space.
    pub(super) fn set_tiles(&mut self, tiles: Vec<(SpaceId, Rect)>) {
        self.tiles = tiles;
    }

    /// The spaces lit up around the hovered one, as last drawn.
    pub(super) fn lit(&self) -> &[SpaceId] {
        &self.lit
    }

    /// Each land space's marker (its dot, port ring and VP disc) and name
    /// on screen as last drawn, and each sea's name, with the space's
    /// index: what the board's stacks keep off. None of it moves with the
    /// stacks.
    pub(super) fn marks_by_space(&self, scenario: &Scenario) -> Vec<(usize, f32, Rect, Rect)> {
        let Some(m) = self.metrics else {
            return Vec::new();
        };
        let board = &scenario.board;
        if self.screen.len() != board.len() || self.galleys.len() != board.len() {
            return Vec::new();
        }
        board
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if s.kind == SpaceKind::Sea {
                    let name = self.sea_label_rect(i);
                    return (i, 0.0, Rect::NOTHING, name);
                }
                let mut marker = self.marker_rect(s.kind, s.vp, i, m);
                let radius = marker.width() / 2.0;
                if s.vp > 0 {
                    let c = self.vp_centre(i, m.radius(s.vp));
                    marker =
                        marker.union(Rect::from_center_size(c, Vec2::splat(2.0 * m.vp_radius())));
                }
                (i, radius, marker, self.label_rect(i))
            })
            .collect()
    }

    /// The text size of the board's blocks, as last drawn.
    pub(super) fn board_font(&self) -> Option<f32> {
        self.metrics.filter(|m| m.board).map(|m| m.board_font())
    }

    /// A space's marker centre on screen, as last drawn.
    pub(super) fn screen_pos(&self, space: SpaceId) -> Option<Pos2> {
        self.screen.get(space.index()).copied()
    }

    /// The spaces' names drawn again as last laid out (over something
    /// painted on the map since, like a heatmap's discs).
    pub(super) fn repaint_labels(&self, painter: &Painter, scenario: &Scenario) {
        if let Some(m) = self.metrics {
            self.paint_labels(painter, scenario, m, painter.clip_rect());
        }
    }

    /// A sea's name on screen, as last drawn (`None` for a land space):
    /// rings around a sea go around its name, not over it.
    pub(super) fn sea_name_rect(&self, space: SpaceId) -> Option<Rect> {
        let i = space.index();
        self.seas.get(i)?.as_ref()?;
        self.galleys.get(i)?;
        Some(self.sea_label_rect(i))
    }

    // ------------------------------------------------------------- labels

    // -------------------------------------------------------------- hover

    // ----------------------------------------------------------- painting
}

pub(super) use crate::scenario::kinds::roman;

/// The blocks that start in each space, Caesar's first.
fn blocks_by_space(scenario: &Scenario) -> Vec<Vec<BlockId>> {
    let mut blocks = vec![Vec::new(); scenario.board.len()];
    for (block, space) in &scenario.starting_setup().placements {
        if let Some(list) = blocks.get_mut(space.index()) {
            list.push(*block);
        }
    }
    for list in &mut blocks {
        list.sort_by_key(|b| (scenario.roster.block(*b).side, b.0));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use egui::emath::TSTransform;
    use egui::{Pos2, Rect, pos2};

    use super::labels::segment_hits_rect;
    use super::paint::dotted;
    use super::{MapModel, geo};
    use crate::app::theme::SEA_LINK;
    use crate::scenario::model::{LinkClass, Scenario};

    #[test]
    fn dots_are_evenly_spaced_and_clipped() {
        let mut shapes = Vec::new();
        let path = [pos2(0.0, 0.0), pos2(10.0, 0.0), pos2(10.0, 10.0)];
        let t = TSTransform::IDENTITY;
        dotted(&mut shapes, &path, t, Rect::EVERYTHING, SEA_LINK, 4.0, 1.0);
        // 0, 4, 8 on the first leg; 12, 16, 20 (at 2, 6, 10 down) on the second.
        assert_eq!(shapes.len(), 6);
        shapes.clear();
        let clip = Rect::from_min_max(pos2(-1.0, -1.0), pos2(5.0, 1.0));
        dotted(&mut shapes, &path, t, clip, SEA_LINK, 4.0, 1.0);
        assert_eq!(shapes.len(), 2);
    }

    #[test]
    fn segments_and_rects() {
        let r = Rect::from_min_max(pos2(0.0, 0.0), pos2(10.0, 10.0));
        assert!(segment_hits_rect(pos2(-5.0, 5.0), pos2(15.0, 5.0), r));
        assert!(!segment_hits_rect(pos2(-5.0, -5.0), pos2(15.0, -1.0), r));
        assert!(segment_hits_rect(pos2(5.0, 5.0), pos2(6.0, 6.0), r));
    }

    #[test]
    fn published_sea_borders_stay_at_sea() {
        let (scenario, _) = Scenario::build(&crate::scenario::historical());
        let model = MapModel::rebuild(&scenario, None);
        assert!(model.has_backdrop());
        let board = &scenario.board;
        for (k, link) in board.links.iter().enumerate() {
            if link.class != LinkClass::Sea {
                continue;
            }
            let what = format!("{} - {}", board.name(link.a), board.name(link.b));
            let path = model.sea_paths[k]
                .as_ref()
                .unwrap_or_else(|| panic!("{what} is not drawn"));
            let ports: Vec<Pos2> = [link.a, link.b]
                .into_iter()
                .filter(|id| board.space(*id).kind.is_port())
                .map(|id| model.positions[id.index()])
                .collect();
            for w in path.windows(2) {
                for s in 0..=20 {
                    let p = w[0].lerp(w[1], s as f32 / 20.0);
                    // Ports sit just inland of their coast.
                    if ports.iter().any(|q| q.distance(p) < 26.0) {
                        continue;
                    }
                    assert!(geo::is_water(p), "{what} crosses land at {p:?}");
                }
            }
        }
    }
}
