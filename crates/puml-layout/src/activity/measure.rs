//! Measuring: texts, diamonds, and the step rows PlantUML aligns side-by-side branches on.

use super::*;

/// How many rows of PlantUML's step grid each node of a branch takes: a
/// plain step one, a block (`if`, loop, `fork`, container) two, its entry
/// and its exit; a branch that is one container counts its body's nodes.
/// `None` for a branch whose tiles would not match its nodes (`detach`,
/// `kill`, `break`, a `stop` after a loop) or with a written arrow.
pub(super) fn step_rows(seq: &Seq<'_>) -> Option<Vec<usize>> {
    step_rows_within(seq, 0)
}

/// [`step_rows`] for a branch nested `depth` blocks deep: beyond
/// `MAX_DEPTH` an `if` counts two rows, so the recursion stays bounded.
fn step_rows_within(seq: &Seq<'_>, depth: usize) -> Option<Vec<usize>> {
    // Down through nested lone containers without recursion (any depth).
    let mut seq = seq;
    while let [Node {
        kind: Kind::Container { body, .. },
        notes,
        arrow: None,
        ..
    }] = seq.nodes.as_slice()
    {
        if !notes.is_empty() {
            return None;
        }
        seq = body;
    }
    if seq.nodes.is_empty() {
        return None;
    }
    // A `stop` after a loop is drawn on the loop's exit (no tile of its own).
    let merged_stop = seq.nodes.windows(2).any(|w| {
        matches!(
            w,
            [
                Node {
                    kind: Kind::While { .. },
                    ..
                },
                Node {
                    kind: Kind::Stop | Kind::End,
                    ..
                }
            ]
        )
    });
    if merged_stop {
        return None;
    }
    seq.nodes
        .iter()
        .map(|n| match n.kind {
            _ if n.arrow.is_some() => None,
            Kind::Stop | Kind::End => Some(1),
            Kind::Detach | Kind::Kill | Kind::Break => None,
            Kind::Action(_) | Kind::Connector(..) | Kind::LoneNote | Kind::Start => Some(1),
            // A plain `if` takes its diamond's row and its longest branch's
            // (PlantUML 1.2026.8: an `if` holding an `if`, or a two-step
            // branch, makes a loop body of two more steps odd;
            // `test-data/activity-layout/while_if_rows_*`).
            Kind::If {
                ref branches,
                ref otherwise,
                ..
            } if branches.len() == 1 && depth < MAX_DEPTH => {
                let longest = branches
                    .iter()
                    .map(|(_, _, b)| b)
                    .chain(otherwise.as_ref().map(|(_, b)| b))
                    .map(|b| {
                        step_rows_within(b, depth + 1)
                            .map_or(1, |r| r.iter().sum::<usize>())
                            .max(1)
                    })
                    .max()
                    .unwrap_or(1);
                Some(1 + longest)
            }
            _ => Some(2),
        })
        .collect()
}

/// The extra room in each gap of branch `i` among parallel branches whose
/// nodes take `rows` rows (`step_rows`). PlantUML 1.2026 centres the
/// shorter branches on the longest one's rows; where a row of another
/// branch falls half-way into a gap (their row counts differ by an odd
/// number) the gap widens by `extra` (`test-data/activity-layout/fork_*`).
pub(super) fn rank_extras(rows: &[Vec<usize>], i: usize, extra: f64) -> Vec<f64> {
    // Rows doubled so that half rows are whole numbers: each branch's
    // (first row, row of each node's entry and exit).
    let total = |r: &Vec<usize>| r.iter().sum::<usize>();
    let longest = rows.iter().map(total).max().unwrap_or(0);
    let marks: Vec<Vec<(usize, usize)>> = rows
        .iter()
        .map(|r| {
            let mut at = longest - total(r);
            r.iter()
                .map(|&n| {
                    let span = (at, at + 2 * (n - 1));
                    at += 2 * n;
                    span
                })
                .collect()
        })
        .collect();
    let Some(own) = marks.get(i) else {
        return Vec::new();
    };
    own.windows(2)
        .map(|pair| {
            let mid = pair.first().map_or(0, |&(_, exit)| exit + 1);
            let between = marks
                .iter()
                .enumerate()
                .any(|(j, m)| j != i && m.iter().any(|&(entry, exit)| entry == mid || exit == mid));
            if between {
                extra
            } else {
                0.0
            }
        })
        .collect()
}

/// What stands on a node's first row of the step grid, for
/// [`row_height_extras`]: its height, and whether it is an `if`'s diamond
/// (whose row ends inside the `if`, so only the gap above it widens).
#[derive(Clone, Copy)]
pub(super) struct RowItem {
    pub(super) height: f64,
    pub(super) is_if: bool,
}

/// What a one-line `if` condition's row counts beyond its diamond's
/// height: beside a one-line action the gap above the diamond widens by
/// 2.5 px (PlantUML 1.2026.8, probes `fork_row_*`).
const IF_ROW_ALLOWANCE: f64 = 5.0;

impl Ctx<'_> {
    /// The [`RowItem`] of each node of a branch on the rows of
    /// [`step_rows`] (through the same lone containers); `None` where the
    /// height of the node's first row is not known (blocks other than a
    /// plain `if`, nodes with notes). A branch that is one action in
    /// frames counts the frames' height (`test-data/activity-probes/fork_partition_if_*`).
    pub(super) fn row_items(&self, seq: &Seq<'_>, depth: usize) -> Vec<Option<RowItem>> {
        let mut body = seq;
        let mut framed = false;
        while let [Node {
            kind: Kind::Container { body: inner, .. },
            notes,
            arrow: None,
            ..
        }] = body.nodes.as_slice()
        {
            if !notes.is_empty() {
                return Vec::new();
            }
            framed = true;
            body = inner;
        }
        if let [node] = body.nodes.as_slice() {
            if framed && matches!(node.kind, Kind::Action(_)) && node.notes.is_empty() {
                return vec![Some(RowItem {
                    height: self.layout_seq(seq, depth).h,
                    is_if: false,
                })];
            }
        }
        body.nodes
            .iter()
            .map(|node| {
                if !node.notes.is_empty() {
                    return None;
                }
                match &node.kind {
                    Kind::Action(_) => Some(RowItem {
                        height: self.layout_node(node, depth).h,
                        is_if: false,
                    }),
                    Kind::If {
                        branches, otherwise, ..
                    } if branches.len() == 1 && otherwise.is_some() => {
                        branches.first().map(|(condition, _, _)| RowItem {
                            height: self.diamond(Some(condition)).h + IF_ROW_ALLOWANCE,
                            is_if: true,
                        })
                    }
                    _ => None,
                }
            })
            .collect()
    }
}

/// Widens `extra` (branch `i`'s gaps, from [`rank_extras`]) where one of
/// its nodes shares a row with a taller node of another branch: PlantUML
/// centres the two on the row, and the gaps on either side of the shorter
/// widen by half the difference, at most [`RANK_EXTRA`] (a one-line action
/// beside a two-line one: 7 px; beside a six-line one: 15 px; probes
/// `fork_row_*`).
pub(super) fn row_height_extras(rows: &[Vec<usize>], items: &[Vec<Option<RowItem>>], i: usize, extra: &mut [f64]) {
    let total = |r: &Vec<usize>| r.iter().sum::<usize>();
    let longest = rows.iter().map(total).max().unwrap_or(0);
    // Each branch's nodes' first rows, in half rows as in `rank_extras`.
    let entries: Vec<Vec<usize>> = rows
        .iter()
        .map(|r| {
            let mut at = longest - total(r);
            r.iter()
                .map(|&n| {
                    let entry = at;
                    at += 2 * n;
                    entry
                })
                .collect()
        })
        .collect();
    let (Some(own_entries), Some(own_items)) = (entries.get(i), items.get(i)) else {
        return;
    };
    if own_items.len() != own_entries.len() {
        return;
    }
    for (k, (&entry, own)) in own_entries.iter().zip(own_items).enumerate() {
        let Some(own) = own else { continue };
        let taller = entries
            .iter()
            .zip(items)
            .enumerate()
            .filter(|&(j, (e, it))| j != i && e.len() == it.len())
            .flat_map(|(_, (e, it))| e.iter().zip(it))
            .filter(|&(&e, _)| e == entry)
            .filter_map(|(_, it)| it.map(|it| it.height))
            .fold(0.0, f64::max);
        let widen = ((taller - own.height) / 2.0).clamp(0.0, RANK_EXTRA);
        if widen <= 0.0 {
            continue;
        }
        if let Some(before) = k.checked_sub(1).and_then(|b| extra.get_mut(b)) {
            *before = before.max(widen);
        }
        if !own.is_if {
            if let Some(after) = extra.get_mut(k) {
                *after = after.max(widen);
            }
        }
    }
}

/// The extra room in the gaps of the two branches of an `if` when either
/// holds a `fork`: PlantUML lines both branches up from the top on a grid
/// of half rows, a step taking two, a `fork` three (its exit one half row
/// below its entry); a gap whose middle meets the other branch's entry or
/// exit widens by `extra` (probes `if_fork_rows_*` in
/// `test-data/activity-probes`; corpus activity 025/026). `None` when no
/// `fork` is involved or a branch holds another block (the general rows
/// of `step_rows` apply).
/// The extra room of each gap of the two branches of an `if` that is a
/// loop's whole body: `extra` in the middle gap of each branch as long as
/// the longest (`step_rows`), when its row count is even and a gap lies
/// at its middle (see `Ctx::loop_if_middle_extra`).
pub(super) fn loop_if_middle_extras(
    then_seq: &Seq<'_>,
    else_seq: &Seq<'_>,
    extra: f64,
) -> (Option<Vec<f64>>, Option<Vec<f64>>) {
    let (Some(then_rows), Some(else_rows)) = (step_rows(then_seq), step_rows(else_seq)) else {
        return (None, None);
    };
    let longest = then_rows.iter().sum::<usize>().max(else_rows.iter().sum());
    let gaps = |rows: &[usize]| -> Option<Vec<f64>> {
        if rows.iter().sum::<usize>() != longest || longest % 2 != 0 {
            return None;
        }
        let mut out = vec![0.0; rows.len().saturating_sub(1)];
        let mut at = 0;
        for (k, n) in rows.iter().enumerate() {
            at += n;
            if at == longest / 2 {
                *out.get_mut(k)? = extra;
                return Some(out);
            }
        }
        None
    };
    (gaps(&then_rows), gaps(&else_rows))
}

pub(super) fn if_fork_extras(then_seq: &Seq<'_>, else_seq: &Seq<'_>, extra: f64) -> Option<(Vec<f64>, Vec<f64>)> {
    let marks = |seq: &Seq<'_>| -> Option<(Vec<(usize, usize)>, bool)> {
        step_rows(seq)?;
        let mut at = 0;
        let mut has_fork = false;
        let mut out = Vec::new();
        for node in &seq.nodes {
            match node.kind {
                Kind::Fork { merge: false, .. } => {
                    has_fork = true;
                    out.push((at, at + 1));
                    at += 3;
                }
                Kind::Action(_) | Kind::Connector(..) => {
                    out.push((at, at));
                    at += 2;
                }
                _ => return None,
            }
        }
        Some((out, has_fork))
    };
    let (then_marks, then_fork) = marks(then_seq)?;
    let (else_marks, else_fork) = marks(else_seq)?;
    if !then_fork && !else_fork {
        return None;
    }
    let gaps = |own: &[(usize, usize)], other: &[(usize, usize)]| -> Vec<f64> {
        own.windows(2)
            .map(|pair| {
                let mid = pair.first().map_or(0, |&(_, exit)| exit + 1);
                if other.iter().any(|&(entry, exit)| entry == mid || exit == mid) {
                    extra
                } else {
                    0.0
                }
            })
            .collect()
    };
    Some((gaps(&then_marks, &else_marks), gaps(&else_marks, &then_marks)))
}

/// The extra room in the gaps of a body that PlantUML lays out beside a
/// one-row branch (a loop's way back, an `if`'s bypass): the rows of
/// `rank_extras` against one row; a body of an even number of rows thus
/// gets `extra` in its middle gap (`test-data/activity-layout/lone_*`).
pub(super) fn lone_body_extras(body: &Seq<'_>, extra: f64) -> Vec<f64> {
    step_rows(body).map_or_else(Vec::new, |rows| rank_extras(&[rows, vec![1]], 0, extra))
}

/// Where a repeat's `backward` action sits on its body's rows
/// (`step_rows`): PlantUML centres it on them like a one-row branch, on
/// the middle row of an odd count, which then keeps
/// `REPEAT_BACKWARD_DROP` more below it, or in the middle gap of an even
/// count, which widens by `RANK_EXTRA` (`test-data/activity-layout/repeat_backward*`).
pub(super) struct BackwardRows {
    /// The extra room of each gap of the body.
    pub(super) extra: Vec<f64>,
    /// The node the action faces, or the gap after it.
    pub(super) at: usize,
    pub(super) on_row: bool,
    /// The extra room between the body and the condition.
    pub(super) drop: f64,
}

pub(super) fn backward_rows(rows: &[usize], lift: f64) -> BackwardRows {
    let mut extra = rank_extras(&[rows.to_vec(), vec![1]], 0, RANK_EXTRA);
    let middle = rows.iter().sum::<usize>().saturating_sub(1); // doubled rows
    let (mut at, mut on_row, mut row) = (0, true, 0);
    for (k, &n) in rows.iter().enumerate() {
        let (entry, exit) = (2 * row, 2 * (row + n.saturating_sub(1)));
        if middle < entry {
            (at, on_row) = (k.saturating_sub(1), false);
            break;
        }
        if middle <= exit {
            at = k;
            break;
        }
        row += n;
    }
    let mut drop = 0.0;
    if on_row {
        let below = (REPEAT_BACKWARD_DROP - lift).max(0.0);
        match extra.get_mut(at) {
            Some(gap) => *gap += below,
            None => drop = below,
        }
    }
    BackwardRows {
        extra,
        at,
        on_row,
        drop,
    }
}

impl BackwardRows {
    /// The y of the action's middle in the body, from where the body's
    /// parts were stacked.
    pub(super) fn middle(&self, spans: &[(f64, f64)]) -> Option<f64> {
        let &(top, bottom) = spans.get(self.at)?;
        if self.on_row {
            Some((top + bottom) / 2.0)
        } else {
            let &(next_top, _) = spans.get(self.at + 1)?;
            Some((bottom + next_top) / 2.0)
        }
    }
}

/// The room under a diamond whose branch runs straight down with a label:
/// 18 px + half the label's height (probes `if_label_*`, 10 to 16 pt, one
/// or two lines).
pub(super) fn label_room(label: &TextBlock) -> f64 {
    18.0 + label.height / 2.0
}

/// Whether a branch only ends the flow (`stop`, `end`, `kill`) or draws
/// one shape and detaches: PlantUML puts such a branch beside its `if`.
pub(super) fn lone_closed(seq: &Seq<'_>) -> bool {
    let plain = |n: &Node<'_>| n.notes.is_empty() && n.arrow.is_none();
    match seq.nodes.as_slice() {
        [end] => plain(end) && matches!(end.kind, Kind::Stop | Kind::End | Kind::Kill),
        [shape, end] => {
            shape.notes.is_empty()
                && plain(end)
                && matches!(shape.kind, Kind::Action(_) | Kind::Connector(..))
                && matches!(end.kind, Kind::Detach | Kind::Kill)
        }
        _ => false,
    }
}

/// Where the flow enters and leaves side-by-side columns (`spans`: left
/// and right edges, `gap` apart), moving columns to make room. PlantUML
/// (`fork`, three or more `split` branches, `switch`) widens by `extra` the
/// gap the columns' middle falls into, the flow then passing there;
/// otherwise the flow moves `extra / 2` from the middle toward the side
/// with fewer columns beside the one it crosses (probes `fork_*`,
/// `split_*`, `switch_*`).
pub(super) fn place_middle(spans: &mut [(f64, f64)], extra: f64) -> f64 {
    let (Some(&(start, _)), Some(&(_, end))) = (spans.first(), spans.last()) else {
        return 0.0;
    };
    let middle = (start + end) / 2.0;
    let in_gap = spans
        .windows(2)
        .position(|pair| matches!(pair, [(_, right), (left, _)] if middle > *right && middle < *left));
    if let Some(at) = in_gap {
        for span in spans.iter_mut().skip(at + 1) {
            span.0 += extra;
            span.1 += extra;
        }
        return middle + extra / 2.0;
    }
    let crossed = spans.iter().position(|&(_, right)| middle <= right).unwrap_or(0);
    let (left, right) = (crossed, spans.len().saturating_sub(crossed + 1));
    let mut axis = middle + extra / 2.0 * (right as f64 - left as f64);
    // Moved out of the column it crossed, the flow keeps 21 px from the
    // next column (which moves away; probes `fork_partition_beside_*`).
    let Some(&(crossed_left, crossed_right)) = spans.get(crossed) else {
        return axis;
    };
    if axis > crossed_right {
        let need = spans
            .get(crossed + 1)
            .map_or(0.0, |&(next_left, _)| axis + FLOW_CLEARANCE - next_left);
        if need > 0.0 {
            for span in spans.iter_mut().skip(crossed + 1) {
                span.0 += need;
                span.1 += need;
            }
        }
    } else if axis < crossed_left {
        let need = crossed
            .checked_sub(1)
            .and_then(|i| spans.get(i))
            .map_or(0.0, |&(_, prev_right)| prev_right - (axis - FLOW_CLEARANCE));
        if need > 0.0 {
            for span in spans.iter_mut().skip(crossed) {
                span.0 += need;
                span.1 += need;
            }
            axis += need;
        }
    }
    axis
}

/// `place_middle` for laid-out branches: moves them, returns the axis.
pub(super) fn place_branches(cols: &mut [(Tile, f64)], extra: f64) -> f64 {
    let mut spans: Vec<(f64, f64)> = cols.iter().map(|(t, x)| (*x, x + t.w.max(1.0))).collect();
    let axis = place_middle(&mut spans, extra);
    for ((_, x), (left, _)) in cols.iter_mut().zip(spans) {
        *x = left;
    }
    axis
}

/// A diamond with its (possibly empty) condition text.
pub(super) struct Diamond {
    pub(super) text: Option<TextBlock>,
    pub(super) w: f64,
    pub(super) h: f64,
}

impl Ctx<'_> {
    pub(super) fn text(&self, text: &str, font: Font) -> TextBlock {
        creole::measure(text, font, self.metrics)
    }

    /// A text wrapped at `max_width` and drawn word by word, if set.
    pub(super) fn wrapped_text(&self, text: &str, font: Font, max_width: Option<f64>) -> TextBlock {
        match max_width {
            Some(max) => creole::split_words(
                creole::measure(
                    &crate::sequence::wrap_words(text, max, font, self.metrics),
                    font,
                    self.metrics,
                ),
                self.metrics,
            ),
            None => self.text(text, font),
        }
    }

    pub(super) fn label(&self, text: Option<&str>) -> Option<TextBlock> {
        text.filter(|t| !t.trim().is_empty())
            .map(|t| self.text(t, self.style.arrow_font))
    }

    pub(super) fn diamond(&self, text: Option<&str>) -> Diamond {
        let text = text
            .filter(|t| !t.trim().is_empty())
            .map(|t| self.text(t, self.style.diamond_font));
        let (tw, th) = text.as_ref().map_or((0.0, 0.0), |b| (b.width, b.height));
        let inner = if text.is_some() { tw.max(24.0) } else { 0.0 };
        Diamond {
            w: inner + 2.0 * DIAMOND_HALF,
            // As tall as its text, at least 24 px (PlantUML 1.2026.8, for
            // `if`, `elseif`, `while` and `repeat while` conditions of
            // one to three lines at 11 to 30 px): a one-line condition at
            // the default 11 px just fills it.
            h: th.max(2.0 * DIAMOND_HALF),
            text,
        }
    }
}
