//! Where the Play board's stacks go. Every block of a stack is a tile of
//! one line (name, rating, strength), the tiles of a space in a column;
//! each column is put where it covers no other column, no space's name and
//! no marker: beside its space when there is room, further out with a
//! leader line back to it when there is not (a crowded Italy at 1000×700).
//! Pure geometry: `play_board` measures the words and paints.

use egui::{Pos2, Rect, Vec2, vec2};

/// One space's stack to place: its space, its marker on screen and how
/// many blocks it holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct StackSpec {
    pub space: usize,
    pub marker: Pos2,
    pub blocks: usize,
}

/// A stack placed: its tiles top to bottom, and the leader line from its
/// marker to the column when the column stands away from its space.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Placed {
    pub space: usize,
    pub rects: Vec<Rect>,
    pub leader: Option<(Pos2, Pos2)>,
}

/// How far (in tile heights) a column may stand from its marker before a
/// leader line ties it back.
const LEADER_AFTER: f32 = 0.9;
/// How far (in tile widths) a column is looked for from its space.
const SEARCH_WIDTHS: f32 = 4.0;

/// The columns of `stacks`, each `tile` per block and `gap` apart, placed
/// greedily (the most crowded first) at the nearest spot inside `area`
/// that covers nothing of `obstacles` nor a column placed before; where no
/// spot is clear, the one covering least.
pub(super) fn place(
    stacks: &[StackSpec],
    tile: Vec2,
    gap: f32,
    obstacles: &[Rect],
    area: Rect,
) -> Vec<Placed> {
    let column = |n: usize| vec2(tile.x, n as f32 * tile.y + (n as f32 - 1.0).max(0.0) * gap);
    let reach = (SEARCH_WIDTHS * tile.x).max(160.0);
    // Crowded first: the stacks with most markers near them take the spots
    // beside their spaces before their neighbours' columns are put there.
    let crowd = |s: &StackSpec| {
        stacks
            .iter()
            .filter(|o| o.space != s.space && o.marker.distance(s.marker) < 2.0 * tile.x)
            .map(|o| o.blocks)
            .sum::<usize>()
            + s.blocks
    };
    let mut order: Vec<&StackSpec> = stacks.iter().collect();
    order.sort_by_key(|s| (std::cmp::Reverse(crowd(s)), s.space));
    let mut placed_rects: Vec<Rect> = Vec::new();
    let mut out = Vec::with_capacity(stacks.len());
    for s in order {
        let size = column(s.blocks);
        let near: Vec<Rect> = obstacles
            .iter()
            .copied()
            .filter(|r| r.distance_to_pos(s.marker) < reach + size.length())
            .collect();
        let card = best_spot(s.marker, size, tile, reach, &near, &placed_rects, area);
        placed_rects.push(card.expand(gap));
        let rects = (0..s.blocks)
            .map(|k| Rect::from_min_size(card.min + vec2(0.0, k as f32 * (tile.y + gap)), tile))
            .collect();
        let nearest = card.clamp(s.marker);
        let leader =
            (card.distance_to_pos(s.marker) > LEADER_AFTER * tile.y).then_some((s.marker, nearest));
        out.push(Placed {
            space: s.space,
            rects,
            leader,
        });
    }
    out.sort_by_key(|p| p.space);
    out
}

/// The nearest column of `size` around `marker` (above it first) that is
/// inside `area` and clear of `near` and `placed`; if none is, the one
/// covering the least.
fn best_spot(
    marker: Pos2,
    size: Vec2,
    tile: Vec2,
    reach: f32,
    near: &[Rect],
    placed: &[Rect],
    area: Rect,
) -> Rect {
    let inside = area.shrink(2.0);
    let mut best: Option<(f32, f32, Rect)> = None;
    for (cost, card) in candidates(marker, size, tile, reach) {
        if !inside.contains_rect(card) {
            continue;
        }
        let covered: f32 = near
            .iter()
            .chain(placed)
            .map(|r| {
                // A point's margin: a column touching a name is on it.
                let i = r.expand(1.0).intersect(card);
                if i.is_positive() { i.area() } else { 0.0 }
            })
            .sum();
        if covered == 0.0 {
            return card;
        }
        if best.is_none_or(|(c, d, _)| covered < c || (covered == c && cost < d)) {
            best = Some((covered, cost, card));
        }
    }
    best.map_or_else(
        || Rect::from_min_size(marker - vec2(size.x / 2.0, size.y), size),
        |(.., r)| r,
    )
}

/// Every spot tried for a column, nearest first: on a grid of quarter
/// tile widths and half tile heights around the marker, as far as
/// `reach`, ranked by the gap between marker and column (the spot just
/// above the marker, where the eye looks first, wins a tie).
fn candidates(marker: Pos2, size: Vec2, tile: Vec2, reach: f32) -> Vec<(f32, Rect)> {
    let (sx, sy) = ((tile.x / 4.0).max(4.0), (tile.y / 2.0).max(4.0));
    let (nx, ny) = ((reach / sx).ceil() as i32, (reach / sy).ceil() as i32);
    let mut out = Vec::with_capacity(((2 * nx + 1) * (2 * ny + 1)) as usize);
    for j in -ny..=ny {
        for i in -nx..=nx {
            let centre = marker + vec2(i as f32 * sx, j as f32 * sy);
            let card = Rect::from_center_size(centre, size);
            // Never over the space's own marker: it stays clickable.
            if card.expand(2.0).contains(marker) {
                continue;
            }
            let gap = card.distance_to_pos(marker);
            // Above and centred is the column's home; below and aside next.
            let above = if card.bottom() <= marker.y { 0.0 } else { 2.0 };
            let aside = (centre.x - marker.x).abs() * 0.05;
            out.push((gap + above + aside, card));
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    #[test]
    fn crowded_stacks_take_clear_spots_and_tie_back_with_a_line() {
        // Three stacks of three a few points apart, a name beside each.
        let stacks: Vec<StackSpec> = (0..3)
            .map(|k| StackSpec {
                space: k,
                marker: pos2(300.0 + 20.0 * k as f32, 300.0),
                blocks: 3,
            })
            .collect();
        let names: Vec<Rect> = stacks
            .iter()
            .map(|s| Rect::from_min_size(s.marker + vec2(6.0, -6.0), vec2(40.0, 12.0)))
            .collect();
        let area = Rect::from_min_size(Pos2::ZERO, vec2(600.0, 600.0));
        let tile = vec2(70.0, 15.0);
        let placed = place(&stacks, tile, 1.0, &names, area);
        let all: Vec<Rect> = placed.iter().flat_map(|p| p.rects.clone()).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(names.iter().all(|n| !n.intersects(*a)), "{a:?} on a name");
            for b in &all[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} on {b:?}");
            }
        }
        // Not all fit beside their spaces: some stand off, tied back.
        assert!(placed.iter().any(|p| p.leader.is_some()));
        for p in &placed {
            let marker = stacks[p.space].marker;
            let far = p
                .rects
                .iter()
                .map(|r| r.distance_to_pos(marker))
                .fold(f32::MAX, f32::min);
            assert!(far < 4.0 * tile.x + 1.0, "stack {} is {far} away", p.space);
        }
    }
}
