//! The map's pan and zoom: a pure value, so tests can check it exactly.

use egui::emath::TSTransform;
use egui::{Pos2, Rect, Vec2, pos2};

/// Zooming in further than this shows nothing new.
const MAX_ZOOM: f32 = 8.0;
/// How far out one may zoom, relative to the fitted zoom.
const MIN_ZOOM_OF_FIT: f32 = 0.5;
/// Room left around the fitted canvas, as a fraction of the area.
const FIT_MARGIN: f32 = 0.02;

/// Where the canvas (scenario coordinates, y south) sits on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapView {
    /// The screen area the map is drawn in.
    area: Rect,
    /// The canvas region that "Fit" shows whole.
    bounds: Rect,
    /// Screen points per canvas unit.
    zoom: f32,
    /// Screen offset of the canvas origin from `area.min`.
    offset: Vec2,
    /// While true the view refits whenever the area or bounds change, so the
    /// map follows window resizes until the user pans or zooms.
    fitted: bool,
}

impl Default for MapView {
    fn default() -> Self {
        MapView {
            area: Rect::from_min_size(Pos2::ZERO, Vec2::splat(1.0)),
            bounds: Rect::from_min_size(Pos2::ZERO, Vec2::splat(1.0)),
            zoom: 1.0,
            offset: Vec2::ZERO,
            fitted: true,
        }
    }
}

impl MapView {
    /// Tells the view where it is drawn and what "Fit" must show; called every frame.
    pub(crate) fn set_area(&mut self, area: Rect, bounds: Rect) {
        if area == self.area && bounds == self.bounds {
            return;
        }
        // Keep the canvas point at the area's centre where it was.
        let centre = self.to_map(self.area.center());
        self.area = area;
        self.bounds = bounds;
        if self.fitted {
            self.refit();
        } else {
            self.offset = area.center() - area.min - centre.to_vec2() * self.zoom;
        }
    }

    /// Shows the whole canvas, centred, and keeps doing so until the user moves the map.
    pub(crate) fn fit(&mut self) {
        self.fitted = true;
        self.refit();
    }

    /// Puts a canvas point in the middle of the area, keeping the zoom.
    pub(crate) fn centre_on(&mut self, canvas: Pos2) {
        self.offset = self.area.size() * 0.5 - canvas.to_vec2() * self.zoom;
        self.fitted = false;
    }

    fn fit_zoom(&self) -> f32 {
        let usable = self.area.size() * (1.0 - 2.0 * FIT_MARGIN);
        let size = self.bounds.size().max(Vec2::splat(1.0));
        (usable.x / size.x).min(usable.y / size.y).max(1e-3)
    }

    fn refit(&mut self) {
        self.zoom = self.fit_zoom();
        self.offset = self.area.size() * 0.5 - self.bounds.center().to_vec2() * self.zoom;
    }

    /// Zooms by `factor` keeping the canvas point under `screen` still.
    pub(crate) fn zoom_around(&mut self, factor: f32, screen: Pos2) {
        if !factor.is_finite() || factor <= 0.0 || factor == 1.0 {
            return;
        }
        let anchor = self.to_map(screen);
        let min = self.fit_zoom() * MIN_ZOOM_OF_FIT;
        self.zoom = (self.zoom * factor).clamp(min, MAX_ZOOM.max(min));
        self.offset = screen - self.area.min - anchor.to_vec2() * self.zoom;
        self.fitted = false;
    }

    /// Moves the map by a screen delta.
    pub(crate) fn pan(&mut self, delta: Vec2) {
        if delta != Vec2::ZERO {
            self.offset += delta;
            self.fitted = false;
        }
    }

    pub fn zoom(&self) -> f32 {
        self.zoom
    }

    pub fn is_fitted(&self) -> bool {
        self.fitted
    }

    pub fn area(&self) -> Rect {
        self.area
    }

    /// The canvas region that "Fit" shows whole.
    pub fn bounds(&self) -> Rect {
        self.bounds
    }

    /// Canvas → screen.
    pub(crate) fn transform(&self) -> TSTransform {
        TSTransform::new(self.area.min.to_vec2() + self.offset, self.zoom)
    }

    pub fn to_screen(&self, canvas: Pos2) -> Pos2 {
        self.area.min + self.offset + canvas.to_vec2() * self.zoom
    }

    /// Canvas point under a screen point.
    pub fn to_map(&self, screen: Pos2) -> Pos2 {
        let v = (screen - self.area.min - self.offset) / self.zoom;
        pos2(v.x, v.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> MapView {
        let mut v = MapView::default();
        v.set_area(
            Rect::from_min_size(pos2(10.0, 20.0), Vec2::new(1000.0, 600.0)),
            Rect::from_min_size(Pos2::ZERO, Vec2::new(2500.0, 1250.0)),
        );
        v
    }

    #[test]
    fn centre_on_puts_the_point_in_the_middle() {
        let mut v = view();
        v.centre_on(pos2(400.0, 900.0));
        assert!((v.to_screen(pos2(400.0, 900.0)) - v.area().center()).length() < 1e-3);
        assert!(!v.is_fitted());
    }

    #[test]
    fn fit_centres_the_canvas() {
        let v = view();
        let c = v.to_screen(pos2(1250.0, 625.0));
        assert!((c - v.area().center()).length() < 1e-3);
        assert!((v.zoom() - 1000.0 * 0.96 / 2500.0).abs() < 1e-6);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor_and_fit_restores() {
        let mut v = view();
        let fitted = v;
        let cursor = pos2(300.0, 200.0);
        let under = v.to_map(cursor);
        v.zoom_around(2.0, cursor);
        assert!((v.to_map(cursor) - under).length() < 1e-3);
        assert!(!v.is_fitted());
        v.pan(Vec2::new(5.0, 5.0));
        v.fit();
        assert_eq!(v, fitted);
    }
}
