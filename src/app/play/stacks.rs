//! Where the Play board's stacks go. Every block is a compact square (its
//! side's colour, its initials, its strength as pips on the edge it stands
//! on), a space's blocks a small grid touching the space's dot, as the
//! physical blocks stand on the map. Each stack is placed from its own
//! space alone: its dot, its block count, and what never moves on the
//! board (the other spaces' dots and names). No stack is ever placed
//! around another, so a stack never moves because another one changed.
//! Pure geometry: `play_board` paints, the tests call [`place_stack`].

use egui::{Pos2, Rect, Vec2, vec2};

/// One space's stack to place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackSpec {
    /// The space's index on the board.
    pub space: usize,
    /// The middle of the space's dot on screen.
    pub dot: Pos2,
    /// The radius of the dot with its port ring: the grid touches it.
    pub radius: f32,
    /// The space's own marker (its dot, port ring and VP disc): kept
    /// clear, so the space stays clickable and its VP read.
    pub marker: Rect,
    /// The space's own name: kept clear when a spot allows it.
    pub name: Rect,
    pub blocks: usize,
}

/// A stack placed: its blocks' squares, first to last.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub space: usize,
    pub rects: Vec<Rect>,
}

/// The space between a stack's squares.
pub const STACK_GAP: f32 = 2.0;

/// The farthest a square's corner may stand from its dot, in points.
pub const MAX_REACH: f32 = 56.0;

/// The gap between the dot's marker and the nearest square.
pub const DOT_GAP: f32 = 2.0;

/// Columns and rows of a stack of `n`: one row up to three, then rows of
/// two (four) or three (up to nine), then rows of four.
pub fn grid_shape(n: usize) -> (usize, usize) {
    let cols = match n {
        0..=3 => n.max(1),
        4 => 2,
        5..=9 => 3,
        _ => 4,
    };
    (cols, n.div_ceil(cols).max(1))
}

/// The squares of a stack of `n` in `cols` columns whose grid's top-left
/// is `min`.
fn squares(min: Pos2, n: usize, cols: usize, cell: f32, gap: f32) -> Vec<Rect> {
    (0..n)
        .map(|k| {
            let (c, r) = ((k % cols) as f32, (k / cols) as f32);
            Rect::from_min_size(
                min + vec2(c * (cell + gap), r * (cell + gap)),
                Vec2::splat(cell),
            )
        })
        .collect()
}

/// The grid's columns tried for a stack of `n`, preferred first: its
/// [`grid_shape`], then one column fewer (a taller grid fits beside a dot
/// where a wide one would reach too far).
fn column_choices(n: usize) -> Vec<usize> {
    let (cols, _) = grid_shape(n);
    let mut out = vec![cols];
    if cols > 1 {
        out.push(cols - 1);
    }
    if cols < n {
        out.push(cols + 1);
    }
    if cols > 2 {
        out.push(cols - 2);
    }
    out
}

/// Every spot tried for a grid of `size` around the dot, in the order of
/// preference: above the dot (centred, then leaning right and left), to
/// the right, below, to the left, then at the four corners. Each touches
/// the dot's marker but for [`DOT_GAP`]; none covers it.
fn spots(dot: Pos2, radius: f32, size: Vec2, cell: f32) -> Vec<Rect> {
    let m = Rect::from_center_size(dot, Vec2::splat(2.0 * (radius + DOT_GAP)));
    let lean = (size.x - cell) / 2.0;
    let lean_y = (size.y - cell) / 2.0;
    let at = |min: Pos2| Rect::from_min_size(min, size);
    // The corners sit diagonally off the dot's circle, not its box.
    let r = (radius + DOT_GAP) * std::f32::consts::FRAC_1_SQRT_2;
    vec![
        at(Pos2::new(dot.x - size.x / 2.0, m.top() - size.y)),
        at(Pos2::new(dot.x - size.x / 2.0 + lean, m.top() - size.y)),
        at(Pos2::new(dot.x - size.x / 2.0 - lean, m.top() - size.y)),
        at(Pos2::new(m.right(), dot.y - size.y / 2.0)),
        at(Pos2::new(m.right(), dot.y - size.y / 2.0 - lean_y)),
        at(Pos2::new(m.right(), dot.y - size.y / 2.0 + lean_y)),
        at(Pos2::new(dot.x - size.x / 2.0, m.bottom())),
        at(Pos2::new(dot.x - size.x / 2.0 + lean, m.bottom())),
        at(Pos2::new(dot.x - size.x / 2.0 - lean, m.bottom())),
        at(Pos2::new(m.left() - size.x, dot.y - size.y / 2.0)),
        at(Pos2::new(m.left() - size.x, dot.y - size.y / 2.0 - lean_y)),
        at(Pos2::new(m.left() - size.x, dot.y - size.y / 2.0 + lean_y)),
        at(Pos2::new(dot.x + r, dot.y - r - size.y)),
        at(Pos2::new(dot.x - r - size.x, dot.y - r - size.y)),
        at(Pos2::new(dot.x + r, dot.y + r)),
        at(Pos2::new(dot.x - r - size.x, dot.y + r)),
    ]
}

/// How far the corner of `r` farthest from `p` is: how far a square
/// reaches from its space's dot.
fn farthest_corner(r: Rect, p: Pos2) -> f32 {
    [
        r.left_top(),
        r.right_top(),
        r.left_bottom(),
        r.right_bottom(),
    ]
    .iter()
    .map(|c| c.distance(p))
    .fold(0.0, f32::max)
}

/// The area of `a` inside `b` (0 when apart).
fn overlap(a: Rect, b: Rect) -> f32 {
    let i = a.intersect(b);
    if i.is_positive() { i.area() } else { 0.0 }
}

/// One stack's squares, `cell` wide and `gap` apart, in a grid touching its
/// dot: the first spot of [`spots`] that covers none of `fixed` (the other
/// spaces' dots and names, which do not move with the stacks), its own
/// name and nothing outside `area`; else the spot covering least of them,
/// the others' dots and names weighing most. Depends on nothing else, so
/// a stack stays put whatever other stacks do.
pub fn place_stack(spec: &StackSpec, cell: f32, gap: f32, fixed: &[Rect], area: Rect) -> Placed {
    // Where the map is crowded (Italy in a small window) the squares
    // shrink a little rather than cover a neighbour or stand off.
    let mut best: Option<((f32, f32), Vec<Rect>)> = None;
    for scale in SHRINK {
        let size = (cell * scale).round().max(MIN_CELL.min(cell));
        let (cost, squares) = best_at(spec, size, gap, fixed, area);
        if best.as_ref().is_none_or(|(b, _)| cost < *b) {
            best = Some((cost, squares));
        }
        if cost.0 == 0.0 {
            break;
        }
    }
    Placed {
        space: spec.space,
        rects: best.map_or_else(Vec::new, |(_, squares)| squares),
    }
}

/// The squares' sizes tried, as shares of the board's: whole first.
const SHRINK: [f32; 4] = [1.0, 0.82, 0.68, 0.58];
/// The smallest square: its initials still read.
pub const MIN_CELL: f32 = 11.0;

/// The best spot for squares `cell` wide: its cost (what it must never
/// do: cover another space's dot or name, reach too far; then what it
/// should not: cover its own name, leave the map) and its squares.
fn best_at(
    spec: &StackSpec,
    cell: f32,
    gap: f32,
    fixed: &[Rect],
    area: Rect,
) -> ((f32, f32), Vec<Rect>) {
    let n = spec.blocks.max(1);
    let near: Vec<Rect> = fixed
        .iter()
        .copied()
        .filter(|r| r.distance_to_pos(spec.dot) < MAX_REACH + cell)
        .collect();
    let inside = area.shrink(2.0);
    let cost = |squares: &[Rect]| -> (f32, f32) {
        let (mut hard, mut soft) = (0.0, 0.0);
        for &sq in squares {
            // A point's margin: a square touching a name is on it.
            let others: f32 = near.iter().map(|r| overlap(r.expand(1.0), sq)).sum();
            let own = overlap(spec.name.expand(1.0), sq) + 10.0 * overlap(spec.marker, sq);
            let outside = sq.area() - overlap(inside, sq);
            // Beyond the reach the stack no longer reads as the city's.
            let far = farthest_corner(sq, spec.dot);
            hard += 1000.0 * (far - MAX_REACH).max(0.0) + others;
            soft += own + outside;
        }
        (hard, soft)
    };
    let mut best: Option<((f32, f32), Vec<Rect>)> = None;
    let mut consider = |squares: Vec<Rect>| -> bool {
        let c = cost(&squares);
        if best.as_ref().is_none_or(|(b, _)| c < *b) {
            best = Some((c, squares));
        }
        c == (0.0, 0.0)
    };
    'tried: {
        for cols in column_choices(n) {
            let rows = n.div_ceil(cols);
            let size = vec2(
                cols as f32 * cell + (cols as f32 - 1.0) * gap,
                rows as f32 * cell + (rows as f32 - 1.0) * gap,
            );
            for spot in spots(spec.dot, spec.radius, size, cell) {
                if consider(squares(spot.min, n, cols, cell, gap)) {
                    break 'tried;
                }
            }
        }
        // A large stack round its dot, the dot showing in the middle.
        if n >= 5
            && let Some(ring) = ring(spec.dot, spec.radius, n, cell, gap)
        {
            consider(ring);
        }
    }
    best.unwrap_or(((0.0, 0.0), Vec::new()))
}

/// A stack of `n` in a grid centred on its dot, the squares over the dot
/// left out so it shows and stays clickable: 3×3 holds eight, 4×3 ten,
/// 5×3 fourteen, 5×5 twenty-four. `None` for more.
fn ring(dot: Pos2, radius: f32, n: usize, cell: f32, gap: f32) -> Option<Vec<Rect>> {
    let hole = Rect::from_center_size(dot, Vec2::splat(2.0 * (radius + DOT_GAP)));
    for (cols, rows) in [(3usize, 3usize), (4, 3), (5, 3), (5, 5)] {
        let size = vec2(
            cols as f32 * cell + (cols as f32 - 1.0) * gap,
            rows as f32 * cell + (rows as f32 - 1.0) * gap,
        );
        let min = dot - size / 2.0;
        let cells: Vec<Rect> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (c, r)))
            .map(|(c, r)| {
                Rect::from_min_size(
                    min + vec2(c as f32 * (cell + gap), r as f32 * (cell + gap)),
                    Vec2::splat(cell),
                )
            })
            .filter(|sq| !sq.intersects(hole))
            .collect();
        if cells.len() >= n {
            return Some(cells.into_iter().take(n).collect());
        }
    }
    None
}

/// Every stack placed by [`place_stack`], by space. `fixed` holds each
/// space's dot and name with the space's index: a stack keeps off the
/// others' only.
pub fn place(
    stacks: &[StackSpec],
    cell: f32,
    gap: f32,
    fixed: &[(usize, Rect)],
    area: Rect,
) -> Vec<Placed> {
    let mut out: Vec<Placed> = stacks
        .iter()
        .map(|s| {
            let others: Vec<Rect> = fixed
                .iter()
                .filter(|(i, _)| *i != s.space)
                .map(|(_, r)| *r)
                .collect();
            place_stack(s, cell, gap, &others, area)
        })
        .collect();
    out.sort_by_key(|p| p.space);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    fn spec(space: usize, dot: Pos2, blocks: usize) -> StackSpec {
        StackSpec {
            space,
            dot,
            radius: 6.0,
            marker: Rect::from_center_size(dot, Vec2::splat(12.0)),
            name: Rect::from_min_size(dot + vec2(8.0, -6.0), vec2(40.0, 12.0)),
            blocks,
        }
    }

    #[test]
    fn a_stack_touches_its_dot_and_keeps_off_other_dots_and_names() {
        let area = Rect::from_min_size(Pos2::ZERO, vec2(600.0, 600.0));
        let a = spec(0, pos2(300.0, 300.0), 5);
        // A neighbour right above: the stack goes elsewhere.
        let b = spec(1, pos2(300.0, 270.0), 2);
        let fixed = vec![(1, b.marker), (1, b.name), (0, a.marker), (0, a.name)];
        let placed = place(&[a, b], 18.0, 2.0, &fixed, area);
        let mine = &placed[0];
        assert_eq!(mine.rects.len(), 5);
        let near = mine
            .rects
            .iter()
            .map(|r| r.distance_to_pos(a.dot))
            .fold(f32::MAX, f32::min);
        assert!(near <= 12.0, "nearest square {near} from the dot");
        for r in &mine.rects {
            assert!(!r.intersects(b.marker) && !r.intersects(b.name), "{r:?}");
            assert!(!r.intersects(a.marker), "{r:?} on its own dot");
            let far = super::farthest_corner(*r, a.dot);
            assert!(far <= 60.0, "{r:?} is {far} from the dot");
        }
    }

    #[test]
    fn a_stack_does_not_move_when_another_changes() {
        let area = Rect::from_min_size(Pos2::ZERO, vec2(600.0, 600.0));
        let a = spec(0, pos2(300.0, 300.0), 3);
        let fixed = vec![(0, a.marker), (0, a.name)];
        // The same stack beside a neighbour of 1 block, then of 6.
        let beside = |blocks| {
            place(
                &[a, spec(1, pos2(320.0, 290.0), blocks)],
                18.0,
                2.0,
                &fixed,
                area,
            )
        };
        let (before, after) = (beside(1), beside(6));
        assert_eq!(before[0], after[0]);
        let alone = place(&[a], 18.0, 2.0, &fixed, area);
        assert_eq!(before[0], alone[0]);
    }

    #[test]
    fn grids_stay_small() {
        assert_eq!(grid_shape(1), (1, 1));
        assert_eq!(grid_shape(3), (3, 1));
        assert_eq!(grid_shape(4), (2, 2));
        assert_eq!(grid_shape(6), (3, 2));
        assert_eq!(grid_shape(7), (3, 3));
        assert_eq!(grid_shape(10), (4, 3));
    }
}
