//! Sea areas and the sea borders routed over water, computed once per
//! scenario.

use std::collections::HashMap;

use egui::{Pos2, pos2, vec2};

use super::geo;
use super::model::SeaArea;
use crate::scenario::model::Board;
use crate::scenario::model::{LinkClass, SpaceKind};

/// Each sea's area (`None` for land), as large as its nearest city allows and,
/// over the coastline, shrunk until it is all water. Radii are cached by
/// position in `sea_radii`.
pub(super) fn sea_areas(
    board: &Board,
    positions: &[Pos2],
    has_backdrop: bool,
    sea_radii: &mut HashMap<[u32; 4], f32>,
) -> Vec<Option<SeaArea>> {
    board
        .ids()
        .map(|id| {
            let s = board.space(id);
            (s.kind == SpaceKind::Sea).then(|| {
                let nearest = board
                    .ids()
                    .filter(|o| board.space(*o).kind.is_city())
                    .map(|o| positions[o.index()].distance(positions[id.index()]))
                    .fold(f32::INFINITY, f32::min);
                let start = (nearest * 0.72).clamp(30.0, 105.0);
                // Over the coastline, shrink the area until it is all water.
                let centre = positions[id.index()];
                let wet = |r: f32| {
                    (0..24).all(|k| {
                        let a = k as f32 * std::f32::consts::TAU / 24.0;
                        geo::is_water(centre + vec2(a.cos() * r, a.sin() * r * 0.6))
                    })
                };
                let key = route_key(centre, pos2(start, f32::from(u8::from(has_backdrop))));
                let r = *sea_radii.entry(key).or_insert_with(|| {
                    let mut r = start;
                    while has_backdrop && r > 22.0 && !wet(r) {
                        r -= 4.0;
                    }
                    r
                });
                SeaArea {
                    radius: vec2(r, r * 0.6),
                }
            })
        })
        .collect()
}

/// Each sea link's path, round the coast when the coastline is drawn (routes
/// cached in `routes`), trimmed at the seas' areas; `None` for other links.
pub(super) fn sea_paths(
    board: &Board,
    positions: &[Pos2],
    seas: &[Option<SeaArea>],
    has_backdrop: bool,
    routes: &mut HashMap<[u32; 4], Option<Vec<Pos2>>>,
) -> Vec<Option<Vec<Pos2>>> {
    board
        .links
        .iter()
        .map(|link| {
            if link.class != LinkClass::Sea {
                return None;
            }
            let (a, b) = (positions[link.a.index()], positions[link.b.index()]);
            let mut path = match has_backdrop {
                true => routes
                    .entry(route_key(a, b))
                    .or_insert_with(|| geo::water_route(a, b))
                    .clone()
                    .unwrap_or_else(|| vec![a, b]),
                false => vec![a, b],
            };
            // Stop at the edge of a sea's area, so names stay clear.
            if let Some(sea) = seas[link.a.index()] {
                trim_start(&mut path, a, sea);
            }
            if let Some(sea) = seas[link.b.index()] {
                path.reverse();
                trim_start(&mut path, b, sea);
                path.reverse();
            }
            (path.len() >= 2).then_some(path)
        })
        .collect()
}

pub(super) fn inside(p: Pos2, centre: Pos2, sea: SeaArea) -> bool {
    let d = p - centre;
    (d.x / sea.radius.x).powi(2) + (d.y / sea.radius.y).powi(2) < 1.0
}

/// Cuts the start of a polyline that begins at a sea's centre where it
/// leaves the sea's area; empties it if it never does.
pub(super) fn trim_start(path: &mut Vec<Pos2>, centre: Pos2, sea: SeaArea) {
    while path.len() >= 2 && inside(path[1], centre, sea) {
        path.remove(0);
    }
    if path.len() < 2 {
        path.clear();
        return;
    }
    if inside(path[0], centre, sea) {
        // Bisect for the crossing of the area's edge.
        let (mut lo, mut hi) = (path[0], path[1]);
        for _ in 0..24 {
            let mid = lo.lerp(hi, 0.5);
            if inside(mid, centre, sea) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        path[0] = hi;
    }
}

pub(super) fn route_key(a: Pos2, b: Pos2) -> [u32; 4] {
    [a.x.to_bits(), a.y.to_bits(), b.x.to_bits(), b.y.to_bits()]
}
