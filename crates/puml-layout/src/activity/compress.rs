//! The page-wide horizontal compression PlantUML applies after placing
//! every tile: a vertical stripe of the drawing that no shape, text or line
//! covers is narrowed to [`MIN_UNCOVERED`]. Fork bars and partition or
//! group frames do not count as covering (PlantUML draws them "ignorable
//! for compression"), so `fork` branches laid out 28 px apart close up to
//! 10 px where nothing above or below holds them apart (probes
//! `fork_notes_*`; corpus 025/026, where a wide `if` further down keeps
//! the 28 px).

use super::*;

/// Marks the item that follows (up to the matching `End`) as not covering
/// the stripe it spans; removed from the scene by [`compress_x`].
const IGNORED_MARK: &str = "puml-activity-compression-ignored";
/// Marks what covers a stripe without being drawn (a label's trailing
/// spaces); removed from the scene with what it holds.
const PHANTOM_MARK: &str = "puml-activity-compression-phantom";
/// Marks a frame whose sides hold columns apart but not what lies between.
const SIDES_MARK: &str = "puml-activity-compression-sides";
/// Marks what the compression moves without narrowing it (a partition's
/// title tab keeps its width: PlantUML draws it after compressing).
const RIGID_MARK: &str = "puml-activity-compression-rigid";
/// The data key marking a phantom as a `break`'s point (`break_point`).
const BREAK_POINT: &str = "break";
/// How much of each end of an ignored rectangle still covers.
const IGNORED_END: f64 = 2.0;
/// A text line's height per point of its size (PlantUML's sans serif:
/// 15.133 px at 13 pt).
const TEXT_LINE_HEIGHT: f64 = 1.1641;
/// What an uncovered stripe is narrowed to.
const MIN_UNCOVERED: f64 = 10.0;

/// Pushes `draw`'s items marked as not holding columns apart.
pub(super) fn ignored_for_compression(items: &mut Vec<Item>, draw: impl FnOnce(&mut Vec<Item>)) {
    items.push(Item::Begin {
        class: IGNORED_MARK.into(),
        title: None,
        link: None,
        data: Vec::new(),
    });
    draw(items);
    items.push(Item::End);
}

/// Pushes `draw`'s items marked as moved whole by the compression: each
/// keeps its width, following where its left end goes.
pub(super) fn rigid_in_compression(items: &mut Vec<Item>, draw: impl FnOnce(&mut Vec<Item>)) {
    items.push(Item::Begin {
        class: RIGID_MARK.into(),
        title: None,
        link: None,
        data: Vec::new(),
    });
    draw(items);
    items.push(Item::End);
}

/// Pushes an undrawn stripe from `x0` to `x1` that holds columns apart in
/// the compression (PlantUML measures a text with the spaces around it:
/// `test-data/render/activity/switch`'s `case ( condition A )`).
pub(super) fn phantom_cover(items: &mut Vec<Item>, x0: f64, x1: f64, y: f64) {
    items.push(Item::Begin {
        class: PHANTOM_MARK.into(),
        title: None,
        link: None,
        data: Vec::new(),
    });
    rect(items, x0.min(x1), y, (x1 - x0).abs(), 0.0, 0.0, paint(None, None));
    items.push(Item::End);
}

/// Pushes the undrawn point where a `break` leaves its loop (PlantUML's
/// welding point): the enclosing `repeat` takes it (`take_break_points`)
/// to draw the way out; one left over goes with the other phantoms.
pub(super) fn break_point(items: &mut Vec<Item>, x: f64, y: f64) {
    items.push(Item::Begin {
        class: PHANTOM_MARK.into(),
        title: None,
        link: None,
        data: vec![(BREAK_POINT.into(), String::new())],
    });
    line(items, x, y, x, y, stroke(Color::BLACK, 0.0));
    items.push(Item::End);
}

/// Removes the break points `break_point` pushed into `items`, returning
/// where each lies, in drawing order.
pub(super) fn take_break_points(items: &mut Vec<Item>) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut at = 0;
    while at + 2 < items.len() {
        let is_break = matches!(&items[at], Item::Begin { class, data, .. }
            if class == PHANTOM_MARK && data.iter().any(|(k, _)| k == BREAK_POINT));
        if is_break {
            if let Item::Line { x1, y1, .. } = items[at + 1] {
                points.push((x1, y1));
            }
            items.drain(at..at + 3);
        } else {
            at += 1;
        }
    }
    points
}

/// Pushes an undrawn block from (`x`, `y`), `w` × `h`, that holds rows
/// and columns apart in the compressions (PlantUML's `UEmpty`: 5 × 12 px
/// under a `while` body where its way back turns).
pub(super) fn phantom_block(items: &mut Vec<Item>, x: f64, y: f64, w: f64, h: f64) {
    items.push(Item::Begin {
        class: PHANTOM_MARK.into(),
        title: None,
        link: None,
        data: Vec::new(),
    });
    rect(items, x, y, w, h, 0.0, paint(None, None));
    items.push(Item::End);
}

/// Pushes `draw`'s frame marked as holding columns apart by its sides only
/// (`left` and `right` wide): what it holds, and the padding around that,
/// still close up (`test-data/activity-layout/fork_partition_*`, probes
/// `fork_*_d4_*`, corpus activity 009).
pub(super) fn sides_only_for_compression(
    items: &mut Vec<Item>,
    left: f64,
    right: f64,
    draw: impl FnOnce(&mut Vec<Item>),
) {
    items.push(Item::Begin {
        class: SIDES_MARK.into(),
        title: None,
        link: None,
        data: vec![("left".into(), left.to_string()), ("right".into(), right.to_string())],
    });
    draw(items);
    items.push(Item::End);
}

/// A piecewise map of x (or y): each uncovered gap wider than
/// [`MIN_UNCOVERED`] shrinks to it, everything beyond it moves back by the
/// difference.
pub(super) struct XMap {
    /// (gap start, gap end, gap width after) in increasing order.
    gaps: Vec<(f64, f64, f64)>,
    /// Whether a point inside a gap lands in its middle (PlantUML's
    /// swimlanes: an arrow leaving a `fork` bar for a branch in another
    /// lane starts 7 px inside the bar's end, probes `lanes_fork_*`)
    /// rather than at its place scaled with the gap.
    to_middle: bool,
}

impl XMap {
    /// Whether the map moves nothing.
    pub(super) fn is_identity(&self) -> bool {
        self.gaps.is_empty()
    }

    pub(super) fn apply(&self, x: f64) -> f64 {
        let mut shift = 0.0;
        for &(a, b, after) in &self.gaps {
            if x >= b {
                shift += (b - a) - after;
            } else if x > a {
                if self.to_middle {
                    return round3(a - shift + after / 2.0);
                }
                return round3(x - shift - (x - a) + (x - a) * after / (b - a));
            } else {
                break;
            }
        }
        round3(x - shift)
    }
}

/// Narrows the uncovered stripes of `tile` (see the module docs), moving
/// its items, its size and its entry and exit with them, and drops the
/// markers of [`ignored_for_compression`].
pub(super) fn compress_x(tile: &mut Tile) {
    let map = uncovered_gaps(&tile.items);
    if map.gaps.is_empty() {
        strip_marks(&mut tile.items);
        return;
    }
    let mut open_rigid: Vec<bool> = Vec::new();
    for item in &mut tile.items {
        match item {
            Item::Begin { class, .. } => open_rigid.push(class == RIGID_MARK),
            Item::End => {
                open_rigid.pop();
            }
            _ if open_rigid.contains(&true) => {
                if let Some((lo, _)) = item_x_range(item) {
                    shift_item(item, map.apply(lo) - lo, 0.0);
                }
            }
            _ => map_item_x(item, &map),
        }
    }
    strip_marks(&mut tile.items);
    tile.w = map.apply(tile.w);
    tile.anchor = map.apply(tile.anchor);
    tile.in_x = map.apply(tile.in_x);
    tile.out_x = map.apply(tile.out_x);
    if let Some((lo, hi)) = tile.frame {
        tile.frame = Some((map.apply(lo), map.apply(hi)));
    }
}

/// Removes the markers (and only them) from `items`.
pub(super) fn strip_marks(items: &mut Vec<Item>) {
    // Begin/End pairs nest: remember which `End` closes a marker (and
    // whether a phantom one, whose content goes with it).
    #[derive(Clone, Copy, PartialEq)]
    enum Open {
        Group,
        Marker,
        Phantom,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut phantom_depth = 0usize;
    items.retain(|item| match item {
        Item::Begin { class, .. } => {
            let kind = if class == PHANTOM_MARK {
                Open::Phantom
            } else if class == IGNORED_MARK || class == SIDES_MARK || class == RIGID_MARK {
                Open::Marker
            } else {
                Open::Group
            };
            let keep = kind == Open::Group && phantom_depth == 0;
            if kind == Open::Phantom {
                phantom_depth += 1;
            }
            open.push(kind);
            keep
        }
        Item::End => match open.pop().unwrap_or(Open::Group) {
            Open::Phantom => {
                phantom_depth = phantom_depth.saturating_sub(1);
                false
            }
            Open::Marker => false,
            Open::Group => phantom_depth == 0,
        },
        _ => phantom_depth == 0,
    });
}

fn uncovered_gaps(items: &[Item]) -> XMap {
    let mut covered: Vec<(f64, f64)> = Vec::new();
    let (mut depth_ignored, mut depth_sides) = (0usize, 0usize);
    // Which marker each open group is (`None` for other groups).
    let mut open: Vec<Option<&str>> = Vec::new();
    // The padding bands of the innermost frame marked `SIDES_MARK`.
    let mut bands: Vec<(f64, f64)> = Vec::new();
    for item in items {
        match item {
            Item::Begin { class, data, .. } => {
                if class == SIDES_MARK {
                    let band = |key: &str| {
                        data.iter()
                            .find(|(k, _)| k == key)
                            .and_then(|(_, v)| v.parse::<f64>().ok())
                            .unwrap_or(0.0)
                    };
                    bands.push((band("left"), band("right")));
                }
                let marker = [IGNORED_MARK, SIDES_MARK].into_iter().find(|m| class == m);
                match marker {
                    Some(IGNORED_MARK) => depth_ignored += 1,
                    Some(_) => depth_sides += 1,
                    None => {}
                }
                open.push(marker);
            }
            Item::End => match open.pop().flatten() {
                Some(IGNORED_MARK) => depth_ignored = depth_ignored.saturating_sub(1),
                Some(_) => {
                    depth_sides = depth_sides.saturating_sub(1);
                    bands.pop();
                }
                None => {}
            },
            // An ignored rectangle (a `fork` bar) still holds its two
            // 2 px ends: PlantUML draws it as those two strips when it
            // measures what covers a stripe (probes `fork_notes_*`, corpus
            // activity 025/026: a note beside the last branch keeps the
            // bar 10 px beyond it).
            Item::Rect { x, width, .. } if depth_ignored > 0 => {
                let end = (x + width).max(*x);
                covered.push((*x, (*x + IGNORED_END).min(end)));
                covered.push(((end - IGNORED_END).max(*x), end));
            }
            _ if depth_ignored > 0 => {}
            _ if depth_sides > 0 => {
                let (left, right) = bands.last().copied().unwrap_or((0.0, 0.0));
                if let Some((lo, hi)) = item_x_range(item) {
                    covered.push((lo, (lo + left).min(hi)));
                    covered.push(((hi - right).max(lo), hi));
                }
            }
            // Lines hold nothing apart (PlantUML's arrows between columns
            // give way, probes `fork_heights_*_d3_*`; a `switch`'s arms too,
            // probes `switch_*`).
            Item::Line { .. } => {}
            _ => {
                if let Some(range) = item_x_range(item) {
                    covered.push(range);
                }
            }
        }
    }
    covered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut gaps = Vec::new();
    let mut reach = f64::NEG_INFINITY;
    for (lo, hi) in covered {
        if reach.is_finite() && lo - reach > MIN_UNCOVERED + 0.001 {
            gaps.push((reach, lo, MIN_UNCOVERED));
        }
        reach = reach.max(hi);
    }
    XMap { gaps, to_middle: false }
}

/// [`compress_x`] for a swimlane diagram: also moves `xs` (the lanes'
/// borders, which the caller made cover their stripes), and a point inside
/// a narrowed stripe lands in its middle.
pub(super) fn compress_x_lanes(tile: &mut Tile, xs: &mut [f64]) {
    let mut map = uncovered_gaps(&tile.items);
    map.to_middle = true;
    strip_marks(&mut tile.items);
    if map.gaps.is_empty() {
        return;
    }
    for item in &mut tile.items {
        map_item_x(item, &map);
    }
    for x in xs {
        *x = map.apply(*x);
    }
    tile.w = map.apply(tile.w);
    tile.anchor = map.apply(tile.anchor);
    tile.in_x = map.apply(tile.in_x);
    tile.out_x = map.apply(tile.out_x);
}

/// Which coordinate of a drawn item a compression map moves.
#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
}

/// `x` or `y`, whichever `axis` names.
fn along<'a>(axis: Axis, x: &'a mut f64, y: &'a mut f64) -> &'a mut f64 {
    match axis {
        Axis::X => x,
        Axis::Y => y,
    }
}

fn map_item_x(item: &mut Item, map: &XMap) {
    map_item(item, map, Axis::X);
}

fn map_item_y(item: &mut Item, map: &XMap) {
    map_item(item, map, Axis::Y);
}

/// Moves every coordinate of `item` along `axis` through `map`; a box's
/// far side is mapped too, so a box spanning a closed gap shrinks.
fn map_item(item: &mut Item, map: &XMap, axis: Axis) {
    let m = |v: &mut f64| *v = map.apply(*v);
    match item {
        Item::Rect {
            x, y, width, height, ..
        } => {
            let (start, size) = match axis {
                Axis::X => (x, width),
                Axis::Y => (y, height),
            };
            let end = map.apply(*start + *size);
            m(start);
            *size = round3(end - *start);
        }
        Item::Line { x1, y1, x2, y2, .. } => {
            m(along(axis, x1, y1));
            m(along(axis, x2, y2));
        }
        Item::Polygon { points, .. } => {
            for p in points {
                m(along(axis, &mut p.x, &mut p.y));
            }
        }
        Item::Ellipse { cx, cy, .. } => m(along(axis, cx, cy)),
        Item::Path { segments, .. } => {
            for seg in segments {
                match seg {
                    crate::scene::PathSegment::MoveTo { x, y } | crate::scene::PathSegment::LineTo { x, y } => {
                        m(along(axis, x, y))
                    }
                    crate::scene::PathSegment::CubicTo { x1, y1, x2, y2, x, y } => {
                        m(along(axis, x1, y1));
                        m(along(axis, x2, y2));
                        m(along(axis, x, y));
                    }
                    crate::scene::PathSegment::Close => {}
                }
            }
        }
        Item::Text(t) => m(along(axis, &mut t.x, &mut t.y)),
        Item::Begin { .. } | Item::End => {}
    }
}

/// The rows each of `items` holds in PlantUML's vertical compression
/// (lines hold none).
pub(super) fn covered_rows(items: &[Item]) -> Vec<(f64, f64)> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::Line { .. } => None,
            // PlantUML measures a text line from 1.5 px under its baseline
            // up by its height (probes `loop_notes_while_*_bare`: the `is`
            // label holds the rows above the first note).
            Item::Text(t) => Some((t.y + 1.5 - t.font.size * TEXT_LINE_HEIGHT, t.y + 1.5)),
            _ => item_y_range(item),
        })
        .collect()
}

/// Closes the rows of `items` that nothing but lines covers to
/// [`MIN_UNCOVERED`], as PlantUML's page-wide vertical compression does
/// (arrow heads, shapes and texts hold rows apart; lines give way), and
/// returns the map of y it applied; `held` rows stay covered. Used on a loop laid out as PlantUML
/// lays it out before compressing (`Ctx::repeat_tile`: notes beside its
/// steps), where the loop's own shapes are what holds rows apart.
pub(super) fn close_uncovered_rows(items: &mut [Item], held: &[(f64, f64)]) -> XMap {
    let mut covered = covered_rows(items);
    covered.extend_from_slice(held);
    covered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut gaps = Vec::new();
    let mut reach = f64::NEG_INFINITY;
    for (lo, hi) in covered {
        if reach.is_finite() && lo - reach > MIN_UNCOVERED + 0.001 {
            gaps.push((reach, lo, MIN_UNCOVERED));
        }
        reach = reach.max(hi);
    }
    let map = XMap { gaps, to_middle: false };
    if !map.gaps.is_empty() {
        for item in items.iter_mut() {
            map_item_y(item, &map);
        }
    }
    map
}
