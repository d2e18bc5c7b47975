//! A hand-drawn backdrop of the Mediterranean for the published map: water
//! outlines on the 2500 x 1250 canvas the scenario positions use, fitted so
//! ports sit on a coast and inland cities on land. The scenario files carry
//! no geography, so this is only drawn when a board's positions agree with it
//! (see [`fits_board`]); a custom map gets a plain backdrop instead.

use egui::{Color32, Mesh, Pos2, pos2};

use crate::scenario::model::Board;
use crate::scenario::model::SpaceKind;

/// The canvas the scenario positions are drawn on (format.rs: `at`).
pub(super) const CANVAS: (f32, f32) = (2500.0, 1250.0);

type Outline = &'static [(f32, f32)];

/// The Atlantic: the left edge, the Bay of Biscay and the coast of Morocco.
const ATLANTIC: Outline = &[
    (0.0, 0.0),
    (335.0, 0.0),
    (345.0, 80.0),
    (300.0, 150.0),
    (255.0, 195.0),
    (300.0, 225.0),
    (380.0, 245.0),
    (440.0, 270.0),
    (478.0, 315.0),
    (470.0, 390.0),
    (462.0, 470.0),
    (440.0, 492.0),
    (380.0, 500.0),
    (300.0, 498.0),
    (220.0, 497.0),
    (140.0, 505.0),
    (75.0, 530.0),
    (55.0, 575.0),
    (85.0, 630.0),
    (80.0, 700.0),
    (70.0, 770.0),
    (78.0, 812.0),
    (100.0, 850.0),
    (140.0, 880.0),
    (190.0, 895.0),
    (222.0, 910.0),
    (238.0, 935.0),
    (248.0, 958.0),
    (248.0, 975.0),
    (238.0, 995.0),
    (225.0, 1030.0),
    (205.0, 1070.0),
    (188.0, 1100.0),
    (170.0, 1150.0),
    (155.0, 1200.0),
    (145.0, 1250.0),
    (0.0, 1250.0),
];

/// The Mediterranean from the Pillars of Hercules to the Levant, with the
/// Adriatic and the Aegean; it meets the Atlantic at Gibraltar and the
/// Propontis at the Hellespont.
const MEDITERRANEAN: Outline = &[
    (248.0, 958.0),
    (275.0, 945.0),
    (320.0, 935.0),
    (370.0, 915.0),
    (420.0, 885.0),
    (460.0, 855.0),
    (488.0, 832.0),
    (505.0, 800.0),
    (530.0, 750.0),
    (555.0, 700.0),
    (572.0, 655.0),
    (580.0, 615.0),
    (600.0, 590.0),
    (630.0, 545.0),
    (665.0, 505.0),
    (700.0, 472.0),
    (730.0, 455.0),
    (770.0, 440.0),
    (800.0, 425.0),
    (850.0, 405.0),
    (900.0, 385.0),
    (950.0, 350.0),
    (990.0, 332.0),
    (1030.0, 345.0),
    (1070.0, 380.0),
    (1110.0, 415.0),
    (1145.0, 462.0),
    (1190.0, 490.0),
    (1240.0, 515.0),
    (1290.0, 550.0),
    (1310.0, 590.0),
    (1330.0, 640.0),
    (1345.0, 690.0),
    (1355.0, 718.0),
    (1375.0, 712.0),
    (1385.0, 680.0),
    (1400.0, 640.0),
    (1420.0, 600.0),
    (1440.0, 575.0),
    (1465.0, 562.0),
    (1480.0, 548.0),
    (1452.0, 515.0),
    (1400.0, 490.0),
    (1350.0, 470.0),
    (1340.0, 445.0),
    (1310.0, 438.0),
    (1280.0, 420.0),
    (1265.0, 395.0),
    (1240.0, 360.0),
    (1200.0, 320.0),
    (1165.0, 295.0),
    (1170.0, 260.0),
    (1195.0, 230.0),
    (1220.0, 215.0),
    (1250.0, 225.0),
    (1265.0, 250.0),
    (1290.0, 275.0),
    (1318.0, 312.0),
    (1345.0, 338.0),
    (1380.0, 360.0),
    (1420.0, 385.0),
    (1470.0, 425.0),
    (1505.0, 460.0),
    (1515.0, 500.0),
    (1530.0, 540.0),
    (1560.0, 580.0),
    (1570.0, 605.0),
    (1585.0, 640.0),
    (1600.0, 680.0),
    (1615.0, 715.0),
    (1625.0, 745.0),
    (1650.0, 770.0),
    (1690.0, 775.0),
    (1705.0, 752.0),
    (1725.0, 765.0),
    (1745.0, 735.0),
    (1740.0, 700.0),
    (1752.0, 678.0),
    (1740.0, 640.0),
    (1720.0, 600.0),
    (1705.0, 560.0),
    (1700.0, 520.0),
    (1690.0, 500.0),
    (1730.0, 505.0),
    (1780.0, 495.0),
    (1830.0, 485.0),
    (1865.0, 480.0),
    (1888.0, 495.0),
    (1895.0, 508.0),
    (1880.0, 530.0),
    (1885.0, 560.0),
    (1880.0, 590.0),
    (1892.0, 625.0),
    (1890.0, 660.0),
    (1910.0, 690.0),
    (1945.0, 705.0),
    (1990.0, 712.0),
    (2040.0, 720.0),
    (2080.0, 715.0),
    (2120.0, 725.0),
    (2170.0, 705.0),
    (2220.0, 700.0),
    (2275.0, 690.0),
    (2320.0, 700.0),
    (2345.0, 712.0),
    (2335.0, 750.0),
    (2322.0, 800.0),
    (2310.0, 860.0),
    (2295.0, 920.0),
    (2278.0, 975.0),
    (2240.0, 1020.0),
    (2195.0, 1055.0),
    (2150.0, 1062.0),
    (2110.0, 1070.0),
    (2080.0, 1065.0),
    (2050.0, 1068.0),
    (2000.0, 1070.0),
    (1950.0, 1068.0),
    (1895.0, 1065.0),
    (1840.0, 1060.0),
    (1780.0, 1050.0),
    (1720.0, 1045.0),
    (1660.0, 1035.0),
    (1600.0, 1028.0),
    (1555.0, 1040.0),
    (1510.0, 1075.0),
    (1460.0, 1100.0),
    (1410.0, 1105.0),
    (1360.0, 1090.0),
    (1310.0, 1075.0),
    (1280.0, 1068.0),
    (1220.0, 1060.0),
    (1160.0, 1045.0),
    (1110.0, 1030.0),
    (1070.0, 1005.0),
    (1085.0, 960.0),
    (1100.0, 910.0),
    (1095.0, 860.0),
    (1085.0, 810.0),
    (1095.0, 780.0),
    (1060.0, 782.0),
    (1020.0, 795.0),
    (980.0, 800.0),
    (940.0, 815.0),
    (900.0, 830.0),
    (850.0, 840.0),
    (800.0, 848.0),
    (765.0, 848.0),
    (720.0, 860.0),
    (660.0, 880.0),
    (600.0, 910.0),
    (540.0, 940.0),
    (480.0, 968.0),
    (420.0, 980.0),
    (360.0, 985.0),
    (300.0, 985.0),
    (262.0, 982.0),
    (248.0, 975.0),
];

const PROPONTIS: Outline = &[
    (1888.0, 495.0),
    (1910.0, 478.0),
    (1945.0, 452.0),
    (1985.0, 431.0),
    (2030.0, 429.0),
    (2055.0, 440.0),
    (2040.0, 455.0),
    (2000.0, 468.0),
    (1960.0, 485.0),
    (1915.0, 505.0),
    (1895.0, 508.0),
];

const BLACK_SEA: Outline = &[
    (2005.0, 402.0),
    (1975.0, 360.0),
    (1965.0, 300.0),
    (1985.0, 230.0),
    (2040.0, 170.0),
    (2120.0, 130.0),
    (2220.0, 115.0),
    (2330.0, 130.0),
    (2420.0, 165.0),
    (2475.0, 220.0),
    (2470.0, 290.0),
    (2420.0, 320.0),
    (2360.0, 330.0),
    (2310.0, 325.0),
    (2250.0, 345.0),
    (2180.0, 365.0),
    (2120.0, 385.0),
    (2060.0, 400.0),
    (2025.0, 408.0),
];

/// The Nile delta, so Egypt reads as Egypt.
const NILE_DELTA: Outline = &[(2055.0, 1066.0), (2150.0, 1060.0), (2098.0, 1112.0)];

/// The Nile up to the bottom edge, past Memphis.
pub(super) const NILE: &[(f32, f32)] = &[
    (2098.0, 1100.0),
    (2102.0, 1140.0),
    (2110.0, 1175.0),
    (2112.0, 1210.0),
    (2120.0, 1250.0),
];

const CORSICA: Outline = &[
    (985.0, 405.0),
    (1005.0, 400.0),
    (1012.0, 440.0),
    (1015.0, 480.0),
    (1008.0, 515.0),
    (990.0, 520.0),
    (978.0, 480.0),
    (975.0, 440.0),
];

const SARDINIA: Outline = &[
    (975.0, 540.0),
    (1010.0, 538.0),
    (1020.0, 580.0),
    (1018.0, 630.0),
    (1010.0, 672.0),
    (985.0, 682.0),
    (965.0, 660.0),
    (962.0, 610.0),
    (965.0, 570.0),
];

const SICILY: Outline = &[
    (1160.0, 722.0),
    (1200.0, 712.0),
    (1250.0, 705.0),
    (1285.0, 695.0),
    (1302.0, 700.0),
    (1306.0, 722.0),
    (1316.0, 760.0),
    (1316.0, 790.0),
    (1295.0, 802.0),
    (1260.0, 782.0),
    (1220.0, 762.0),
    (1180.0, 750.0),
    (1162.0, 738.0),
];

const CRETE: Outline = &[
    (1715.0, 835.0),
    (1760.0, 825.0),
    (1810.0, 826.0),
    (1865.0, 830.0),
    (1872.0, 845.0),
    (1820.0, 854.0),
    (1760.0, 857.0),
    (1718.0, 850.0),
];

const CYPRUS: Outline = &[
    (2165.0, 795.0),
    (2200.0, 782.0),
    (2245.0, 780.0),
    (2278.0, 768.0),
    (2266.0, 796.0),
    (2235.0, 815.0),
    (2190.0, 815.0),
];

const MALLORCA: Outline = &[
    (688.0, 640.0),
    (718.0, 630.0),
    (736.0, 645.0),
    (706.0, 657.0),
];

/// The Bosphorus, joining the Propontis to the Black Sea.
const BOSPHORUS: Outline = &[
    (2003.0, 398.0),
    (2024.0, 402.0),
    (2022.0, 436.0),
    (2000.0, 436.0),
];

const WATER: &[Outline] = &[
    ATLANTIC,
    MEDITERRANEAN,
    PROPONTIS,
    BLACK_SEA,
    BOSPHORUS,
    NILE_DELTA,
];
const ISLANDS: &[Outline] = &[CORSICA, SARDINIA, SICILY, CRETE, CYPRUS, MALLORCA];

fn to_pos(p: &(f32, f32)) -> Pos2 {
    pos2(p.0, p.1)
}

/// Is a canvas point over water (outside the islands)?
pub(super) fn is_water(p: Pos2) -> bool {
    WATER.iter().any(|o| contains(o, p)) && !ISLANDS.iter().any(|o| contains(o, p))
}

/// Even-odd point-in-polygon test.
fn contains(outline: Outline, p: Pos2) -> bool {
    let mut inside = false;
    let n = outline.len();
    for i in 0..n {
        let (a, b) = (to_pos(&outline[i]), to_pos(&outline[(i + 1) % n]));
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Grid cell size, in canvas units, for routing lines over water.
const CELL: f32 = 8.0;

/// A water mask of the canvas, built once per process: routing sea borders
/// needs thousands of water tests, which the outlines answer slowly.
struct WaterGrid {
    w: usize,
    h: usize,
    water: Vec<bool>,
}

fn grid() -> &'static WaterGrid {
    static GRID: std::sync::OnceLock<WaterGrid> = std::sync::OnceLock::new();
    GRID.get_or_init(|| {
        let (w, h) = (
            (CANVAS.0 / CELL).ceil() as usize,
            (CANVAS.1 / CELL).ceil() as usize,
        );
        let mut water = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                water.push(is_water(WaterGrid::centre_of(x, y)));
            }
        }
        WaterGrid { w, h, water }
    })
}

impl WaterGrid {
    fn centre_of(x: usize, y: usize) -> Pos2 {
        pos2((x as f32 + 0.5) * CELL, (y as f32 + 0.5) * CELL)
    }
    fn cell(&self, p: Pos2) -> Option<(usize, usize)> {
        let (x, y) = ((p.x / CELL).floor(), (p.y / CELL).floor());
        (x >= 0.0 && y >= 0.0 && (x as usize) < self.w && (y as usize) < self.h)
            .then_some((x as usize, y as usize))
    }
    fn wet(&self, p: Pos2) -> bool {
        self.cell(p)
            .is_some_and(|(x, y)| self.water[y * self.w + x])
    }
    /// Is the segment over water, sampled every half cell?
    fn clear(&self, a: Pos2, b: Pos2) -> bool {
        let steps = (a.distance(b) / (CELL * 0.5)).ceil().max(1.0) as usize;
        (0..=steps).all(|k| self.wet(a.lerp(b, k as f32 / steps as f32)))
    }
    /// The water cell nearest to `p`, within `reach` canvas units.
    fn nearest_water(&self, p: Pos2, reach: f32) -> Option<usize> {
        let (cx, cy) = self.cell(p)?;
        let r = (reach / CELL).ceil() as isize;
        let mut best: Option<(f32, usize)> = None;
        for dy in -r..=r {
            for dx in -r..=r {
                let (x, y) = (cx as isize + dx, cy as isize + dy);
                if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
                    continue;
                }
                let i = y as usize * self.w + x as usize;
                let d = WaterGrid::centre_of(x as usize, y as usize).distance(p);
                if self.water[i] && d <= reach && best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, i));
                }
            }
        }
        best.map(|(_, i)| i)
    }
}

/// A line from `a` to `b` that stays at sea: straight when it can be, else
/// the shortest way round through the water, straightened. `a` and `b` may
/// be ports on land near a coast. `None` when the water does not connect them.
pub(super) fn water_route(a: Pos2, b: Pos2) -> Option<Vec<Pos2>> {
    let g = grid();
    // Ports sit just inland; only the part of the line past the coast counts.
    let margin = 20.0_f32.min(a.distance(b) * 0.25);
    let dir = (b - a).normalized();
    if g.clear(a + dir * margin, b - dir * margin) {
        return Some(vec![a, b]);
    }
    let start = g.nearest_water(a, 60.0)?;
    let goal = g.nearest_water(b, 60.0)?;
    let cells = shortest_path(g, start, goal)?;
    let points: Vec<Pos2> = cells
        .iter()
        .map(|&i| WaterGrid::centre_of(i % g.w, i / g.w))
        .collect();
    // String pulling: jump to the farthest point still in sight.
    let mut route = vec![a, points[0]];
    let mut i = 0;
    while i + 1 < points.len() {
        let mut j = points.len() - 1;
        while j > i + 1 && !g.clear(points[i], points[j]) {
            j -= 1;
        }
        route.push(points[j]);
        i = j;
    }
    route.push(b);
    route.dedup();
    Some(route)
}

/// A* over the water cells, 8-connected.
fn shortest_path(g: &WaterGrid, start: usize, goal: usize) -> Option<Vec<usize>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = g.water.len();
    let centre = |i: usize| WaterGrid::centre_of(i % g.w, i / g.w);
    let h = |i: usize| centre(i).distance(centre(goal));
    let mut cost = vec![f32::INFINITY; n];
    let mut from = vec![usize::MAX; n];
    let mut open = BinaryHeap::new();
    cost[start] = 0.0;
    // Costs as integer hundredths keep the heap ordering total.
    open.push(Reverse(((h(start) * 100.0) as u64, start)));
    while let Some(Reverse((_, i))) = open.pop() {
        if i == goal {
            let mut path = vec![goal];
            let mut k = goal;
            while k != start {
                k = from[k];
                path.push(k);
            }
            path.reverse();
            return Some(path);
        }
        let (x, y) = ((i % g.w) as isize, (i / g.w) as isize);
        for (dx, dy) in [
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
            (1, 1),
        ] {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx as usize >= g.w || ny as usize >= g.h {
                continue;
            }
            let j = ny as usize * g.w + nx as usize;
            if !g.water[j] {
                continue;
            }
            let step = if dx != 0 && dy != 0 {
                CELL * std::f32::consts::SQRT_2
            } else {
                CELL
            };
            let c = cost[i] + step;
            if c < cost[j] {
                cost[j] = c;
                from[j] = i;
                open.push(Reverse((((c + h(j)) * 100.0) as u64, j)));
            }
        }
    }
    None
}

/// Distance from a point to the nearest coast (any outline edge).
pub(super) fn distance_to_coast(p: Pos2) -> f32 {
    WATER
        .iter()
        .chain(ISLANDS)
        .flat_map(|o| (0..o.len()).map(move |i| (to_pos(&o[i]), to_pos(&o[(i + 1) % o.len()]))))
        .map(|(a, b)| distance_to_segment(p, a, b))
        .fold(f32::INFINITY, f32::min)
}

pub(super) fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(f32::EPSILON)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Does the board use the published layout closely enough for the coastline
/// to be meaningful? Three in four spaces must fall on the right side of it.
pub(super) fn fits_board(board: &Board) -> bool {
    if board.is_empty() {
        return false;
    }
    let agree = board
        .spaces
        .iter()
        .filter(|s| {
            let p = pos2(s.pos.0, s.pos.1);
            match s.kind {
                SpaceKind::Sea => is_water(p),
                SpaceKind::City => !is_water(p),
                SpaceKind::Port | SpaceKind::MajorPort => distance_to_coast(p) < 45.0,
            }
        })
        .count();
    agree * 4 >= board.len() * 3
}

/// The backdrop as meshes in canvas coordinates, built once. Paint order:
/// water coasts, water, island coasts, islands. Each fill hides the inner half
/// of its coast stroke, so the seams where two water outlines meet (the
/// straits) vanish and only the land side of each coast shows.
pub(super) struct Backdrop {
    pub water: Mesh,
    pub islands: Mesh,
    pub water_coasts: Vec<Vec<Pos2>>,
    pub island_coasts: Vec<Vec<Pos2>>,
    pub nile: Vec<Pos2>,
}

impl Backdrop {
    pub(super) fn new(water: Color32, land: Color32) -> Backdrop {
        let mut water_mesh = Mesh::default();
        for o in WATER {
            fill(&mut water_mesh, o, water);
        }
        let mut island_mesh = Mesh::default();
        for o in ISLANDS {
            fill(&mut island_mesh, o, land);
        }
        let outlines = |set: &[Outline]| -> Vec<Vec<Pos2>> {
            set.iter().map(|o| o.iter().map(to_pos).collect()).collect()
        };
        Backdrop {
            water: water_mesh,
            islands: island_mesh,
            water_coasts: outlines(WATER),
            island_coasts: outlines(ISLANDS),
            nile: NILE.iter().map(to_pos).collect(),
        }
    }
}

/// Appends a filled simple polygon (any winding, may be concave).
fn fill(mesh: &mut Mesh, outline: Outline, color: Color32) {
    let base = mesh.vertices.len() as u32;
    for p in outline {
        mesh.colored_vertex(to_pos(p), color);
    }
    let points: Vec<Pos2> = outline.iter().map(to_pos).collect();
    for [a, b, c] in triangulate(&points) {
        mesh.add_triangle(base + a as u32, base + b as u32, base + c as u32);
    }
}

/// Ear clipping: fine for the few hundred outline points drawn once.
pub(super) fn triangulate(points: &[Pos2]) -> Vec<[usize; 3]> {
    let n = points.len();
    let mut out = Vec::with_capacity(n.saturating_sub(2));
    if n < 3 {
        return out;
    }
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    let orientation = area.signum();
    let mut idx: Vec<usize> = (0..n).collect();
    let cross = |a: Pos2, b: Pos2, c: Pos2| (b - a).x * (c - a).y - (b - a).y * (c - a).x;
    let mut guard = 0;
    while idx.len() > 3 && guard < n * n {
        guard += 1;
        let m = idx.len();
        let mut clipped = false;
        for i in 0..m {
            let (ia, ib, ic) = (idx[(i + m - 1) % m], idx[i], idx[(i + 1) % m]);
            let (a, b, c) = (points[ia], points[ib], points[ic]);
            if cross(a, b, c) * orientation <= 0.0 {
                continue; // reflex corner
            }
            let blocked = idx.iter().any(|&j| {
                if j == ia || j == ib || j == ic {
                    return false;
                }
                let p = points[j];
                let (d1, d2, d3) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
                d1 * orientation >= 0.0 && d2 * orientation >= 0.0 && d3 * orientation >= 0.0
            });
            if !blocked {
                out.push([ia, ib, ic]);
                idx.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            break; // degenerate outline: draw what we have
        }
    }
    if idx.len() == 3 {
        out.push([idx[0], idx[1], idx[2]]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outline_triangulates_completely() {
        for o in WATER.iter().chain(ISLANDS) {
            let pts: Vec<Pos2> = o.iter().map(to_pos).collect();
            assert_eq!(triangulate(&pts).len(), pts.len() - 2, "{:?}", o[0]);
        }
    }

    #[test]
    fn the_published_map_sits_on_the_coastline() {
        let board = crate::scenario::historical();
        let (scenario, _) = crate::scenario::model::Scenario::build(&board);
        for s in &scenario.board.spaces {
            let p = pos2(s.pos.0, s.pos.1);
            match s.kind {
                SpaceKind::Sea => assert!(is_water(p), "{} is not at sea", s.name),
                SpaceKind::City => assert!(!is_water(p), "{} is under water", s.name),
                _ => {
                    assert!(!is_water(p), "port {} is under water", s.name);
                    let d = distance_to_coast(p);
                    assert!(d < 30.0, "port {} is {d} from the coast", s.name);
                }
            }
        }
        assert!(fits_board(&scenario.board));
    }
}
