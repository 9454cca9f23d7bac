//! Placing swimlanes.

use super::*;

/// A top-level `fork` whose branches run in other lanes, laid out as
/// PlantUML lays it out: once, as without lanes (the branches side by side
/// under one bar centred on the flow's axis at x = 0), each part then drawn
/// in its own lane's column; the page-wide compression closes what that
/// leaves empty in each lane (probes `lanes_fork_*`, seed 001's
/// `aggregator` and `complete-example`).
struct LaneFork<'a> {
    /// The lane of the opening bar (where `fork` was written).
    own: usize,
    /// The lane of the closing bar: the lane current at `end fork`.
    out: usize,
    /// Each branch: its tile, its left edge (the flow's axis at 0), its lane.
    branches: Vec<(Tile, f64, usize)>,
    /// The bars' reach, the flow's axis at 0.
    bar: (f64, f64),
    merge: bool,
    label: Option<&'a str>,
}

/// Where a `split` across lanes draws its lines: PlantUML puts the opening
/// line in the lane its first branch starts in and the closing line in the
/// lane its last branch ends in, each reaching from the first to the last
/// branch's axis (and over the block's own axis) as without lanes (probes
/// `lanes_split_*`).
struct SplitLines {
    in_lane: usize,
    out_lane: usize,
    /// The opening line's reach, the block's axis at 0.
    open: (f64, f64),
    /// The closing line's reach (over the branches that go on).
    close: (f64, f64),
}

fn split_lines(
    node: &Node<'_>,
    branches: &[(Tile, usize, f64)],
    lane_of: &dyn Fn(&Node<'_>) -> usize,
) -> Option<SplitLines> {
    let Kind::Split { branches: seqs } = &node.kind else {
        return None;
    };
    let in_lane = branches.first()?.1;
    let out_lane = seqs
        .last()
        .and_then(|s| s.nodes.last())
        .map_or(branches.last()?.1, lane_of);
    let span = |xs: &mut dyn Iterator<Item = f64>| xs.fold((0.0_f64, 0.0_f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let open = span(&mut branches.iter().map(|(t, _, x)| x + t.in_x));
    let close = span(&mut branches.iter().filter(|(t, _, _)| t.open).map(|(t, _, x)| x + t.out_x));
    Some(SplitLines {
        in_lane,
        out_lane,
        open,
        close,
    })
}

/// Widens `left`/`right` (reach left and right of the flow's axis) of one
/// lane to hold `lo..hi`.
fn reach(left: &mut [f64], right: &mut [f64], lane: usize, lo: f64, hi: f64) {
    if let (Some(l), Some(r)) = (left.get_mut(lane), right.get_mut(lane)) {
        *l = l.max(-lo);
        *r = r.max(hi);
    }
}

/// What `items` reach left and right as PlantUML measures a lane's content
/// (its `LimitFinder`: a rectangle or circle from 1 px left of its left
/// edge to 1 px left of its right one, a path, polygon or text from end to
/// end), in the lane's terms: its borders stand 6 px beyond the returned
/// reach (a box 6 px from the left border, 4 from the right; a note's
/// corner 5 px from the right border; seed 001's `complete-example`).
fn lane_reach(items: &[Item]) -> Option<(f64, f64)> {
    const LANE_SHADOW_REACH: f64 = 6.0;
    items
        .iter()
        .filter_map(|item| {
            let (lo, hi) = item_x_range(item)?;
            // A box's shadow reaches 6 px further right (themes with shadows:
            // `test-data/activity-themes/materia_lanes`).
            let shadow = match item {
                Item::Rect { paint, .. } | Item::Ellipse { paint, .. } => {
                    paint.shadow.map_or(0.0, |_| LANE_SHADOW_REACH)
                }
                _ => 0.0,
            };
            Some(match item {
                Item::Rect { .. } | Item::Ellipse { .. } => (lo, hi - 2.0 + shadow),
                _ => (lo + 1.0, hi - 1.0 + shadow),
            })
        })
        .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
}

impl Ctx<'_> {
    /// The top-level sequence laid out in swimlane columns: each node in the
    /// column of the lane it was written in (nested blocks stay in their
    /// opening's lane).
    pub(super) fn layout_lanes(&self, activity: &ActivityDiagram, seq: &Seq<'_>) -> Tile {
        let n = activity.lanes.len().max(1);
        let lane_of = |node: &Node<'_>| node.lane.map_or(0, |l| l.index().min(n - 1));
        // A top-level fork, split or if whose branches run in other lanes is
        // laid out once the lanes are known; its branches count for theirs.
        let mut split_branches: Vec<Option<Vec<(Tile, usize, f64)>>> = Vec::with_capacity(seq.nodes.len());
        let mut forks: Vec<Option<LaneFork<'_>>> = Vec::with_capacity(seq.nodes.len());
        // Any other block whose steps change lanes: laid out as without
        // lanes, each part then drawn in its lane's column.
        let mut laned: Vec<Option<LanedTile>> = Vec::with_capacity(seq.nodes.len());
        let tiles: Vec<(Tile, Option<&ArrowStyle>, usize)> = seq
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let own = lane_of(node);
                let fork = self.lane_fork(node, own, &lane_of);
                let branches = if fork.is_some() {
                    None
                } else {
                    self.lane_split_branches(node, own, &lane_of)
                };
                // A note beside a step after an action or `start` reaches
                // up as in a diagram without lanes (seed 001's workflows).
                let after_action = i.checked_sub(1).and_then(|j| seq.nodes.get(j)).is_some_and(|prev| {
                    // (and after a fork's bar: seed 001's `complete-example`)
                    matches!(
                        prev.kind,
                        Kind::Action(_) | Kind::Start | Kind::Fork { merge: false, .. }
                    ) && node.arrow.is_none()
                });
                let inner = branches.is_none() && fork.is_none() && changes_lane(node, own, &lane_of);
                let tile = if branches.is_some() || fork.is_some() {
                    Tile::empty()
                } else {
                    // Labelled arrows at a container within one lane move it
                    // as without lanes.
                    let same_lane = |other: &Node<'_>| lane_of(other) == own;
                    let entered = i.checked_sub(1).and_then(|j| seq.nodes.get(j)).is_some_and(same_lane);
                    let next = seq.nodes.get(i + 1).filter(|n| same_lane(n));
                    self.lane_marks.set(inner);
                    let tile = self.layout_node_after(node, 0, &[], after_action);
                    self.lane_marks.set(false);
                    self.container_between_labels(tile, node, entered, next)
                };
                let (tile, sorted) = if inner {
                    (Tile::empty(), Some(LanedTile::new(tile, own, n)))
                } else {
                    (tile, None)
                };
                laned.push(sorted);
                split_branches.push(branches);
                forks.push(fork);
                (tile, node.arrow, own)
            })
            .collect();
        let headers: Vec<TextBlock> = (0..n)
            .map(|i| {
                let text = activity.lanes.get(i).map_or("", |l| l.display.as_str());
                self.wrapped_text(text, self.style.lane_font, self.style.lane_max_width)
            })
            .collect();
        // A lane holds its tiles aligned on one axis, 6 px of room on each
        // side of what `lane_reach` measures, or its header + 10 px when
        // that is wider (the content then centered, as PlantUML).
        // (A lane's content need not hold the flow's axis: a branch left
        // of it does not.)
        let mut left = vec![f64::NEG_INFINITY; n];
        let mut right = vec![f64::NEG_INFINITY; n];
        for ((t, _, lane), node) in tiles.iter().zip(&seq.nodes) {
            if let Some((lo, hi)) = lane_reach(&t.items) {
                reach(&mut left, &mut right, *lane, lo - t.anchor, hi - t.anchor);
            }
            // PlantUML's lane holds a conditional block's own room too (the
            // 9 px left of a lone `then`'s diamond or a `repeat`'s
            // condition, the 16 right of a bypass, which its lane measures
            // 3 px short; probe `lanes_inner_if_lone_then`).
            if matches!(node.kind, Kind::If { .. } | Kind::Repeat { .. } | Kind::While { .. }) && !t.is_empty() {
                reach(&mut left, &mut right, *lane, -t.anchor, t.w - 3.0 - t.anchor);
            }
        }
        // A branch in another lane's column counts by what it draws, as
        // PlantUML measures a lane (an action: its box + 10 px).
        let drawn_reach = |t: &Tile, x: f64| lane_reach(&t.items).map_or((x, x + t.w), |(lo, hi)| (x + lo, x + hi));
        for (t, lane, x) in split_branches.iter().flatten().flatten() {
            let (lo, hi) = drawn_reach(t, *x);
            reach(&mut left, &mut right, *lane, lo, hi);
        }
        // A split across lanes draws its opening line in its first
        // branch's lane and its closing line in its last branch's (probes
        // `lanes_split_*`, seed 001's `router`).
        for (node, branches) in seq.nodes.iter().zip(&split_branches) {
            if let Some(branches) = branches {
                if let Some(lines) = split_lines(node, branches, &lane_of) {
                    for (lane, (lo, hi)) in [(lines.in_lane, lines.open), (lines.out_lane, lines.close)] {
                        let mut drawn = Vec::new();
                        line(&mut drawn, lo, 0.0, hi, 0.0, stroke(self.style.arrow_color, 1.5));
                        if let Some((lo, hi)) = lane_reach(&drawn) {
                            reach(&mut left, &mut right, lane, lo, hi);
                        }
                    }
                }
            }
        }
        // An `if` across lanes keeps its diamond and their labels in its
        // own lane (probe `lanes_if_other_lane`).
        for (node, branches) in seq.nodes.iter().zip(&split_branches) {
            if let (
                Some(_),
                Kind::If {
                    branches, otherwise, ..
                },
            ) = (branches, &node.kind)
            {
                let d = self.diamond(branches.first().map(|(c, _, _)| *c));
                let width = |l: Option<&str>| self.label(l).map_or(0.0, |l| l.width);
                let then_w = width(branches.first().and_then(|(_, l, _)| *l));
                let else_w = width(otherwise.as_ref().and_then(|(l, _)| *l));
                let lo = -d.w / 2.0 - then_w;
                let hi = d.w / 2.0 + else_w - 1.0;
                reach(&mut left, &mut right, lane_of(node), lo, hi);
            }
        }
        for fork in forks.iter().flatten() {
            for (t, x, lane) in &fork.branches {
                let (lo, hi) = drawn_reach(t, *x);
                reach(&mut left, &mut right, *lane, lo, hi);
            }
            let bar = (fork.bar.0, fork.bar.1 - 2.0);
            reach(&mut left, &mut right, fork.own, bar.0, bar.1);
            if fork.merge {
                reach(&mut left, &mut right, fork.out, -DIAMOND_HALF, DIAMOND_HALF);
            } else {
                reach(&mut left, &mut right, fork.out, bar.0, bar.1);
            }
        }
        for block in laned.iter().flatten() {
            block.reach(&mut left, &mut right);
        }
        for (l, r) in left.iter_mut().zip(right.iter_mut()) {
            if !l.is_finite() || !r.is_finite() {
                (*l, *r) = (0.0, 0.0);
            }
        }
        let mut xs = Vec::with_capacity(n + 1);
        let mut axes = Vec::with_capacity(n);
        // The room left and right of each lane's content, which holds the
        // lane's width in the compression.
        let mut pads = Vec::with_capacity(n);
        let mut x = 0.0;
        for i in 0..n {
            xs.push(x);
            let content = left[i] + right[i];
            let header_w = headers[i].width + 10.0;
            let (w, axis) = if header_w > content + 12.0 {
                (header_w, x + (header_w - content) / 2.0 + left[i])
            } else {
                (content + 12.0, x + 6.0 + left[i])
            };
            axes.push(axis);
            pads.push((axis - left[i] - x, x + w - (axis + right[i])));
            x += w;
        }
        xs.push(x);
        let header_h = headers.iter().map(|h| h.height).fold(0.0, f64::max);
        let mut tiles = tiles;
        let mut columns: Vec<f64> = tiles.iter().map(|(_, _, lane)| axes[*lane]).collect();
        for (i, (((node, branches), fork), block)) in
            seq.nodes.iter().zip(split_branches).zip(forks).zip(laned).enumerate()
        {
            let tile = if let Some(block) = block {
                block.place(&axes)
            } else if let Some(fork) = fork {
                self.lane_fork_tile(fork, &axes)
            } else if let Some(branches) = branches {
                let lines = split_lines(node, &branches, &lane_of);
                self.lane_split_tile(node, branches, lines, axes[lane_of(node)], &axes)
            } else {
                continue;
            };
            // Its items are in lane coordinates already: placed at x = 0.
            columns[i] = tile.anchor;
            tiles[i].0 = tile;
        }
        let body = self.stack(tiles.into_iter().map(|(t, a, _)| (t, a)).collect(), Some(&columns), &[]);
        let content_top = header_h + 5.0;
        let bottom = content_top + body.h + body.overhang;
        let body_anchor = body.anchor;
        let first_col = columns.first().copied().unwrap_or(0.0);
        let (bin, bout, bopen) = ((body.in_x, body.in_y), (body.out_x, body.out_y), body.open);
        let place_dx = first_col - body_anchor;
        let mut drawn = Vec::new();
        body.place(place_dx, content_top, &mut drawn);
        // The lanes' borders and the room beside their content hold the
        // lanes apart; what a lane leaves empty inside closes up.
        for i in 0..n {
            let (pad_left, pad_right) = pads[i];
            phantom_cover(&mut drawn, xs[i] - 0.5, xs[i] + (pad_left - 1.0).max(0.5), content_top);
            phantom_cover(
                &mut drawn,
                xs[i + 1] - (pad_right - 1.0).max(0.5),
                xs[i + 1] + 0.5,
                content_top,
            );
        }
        let mut compressed = Tile {
            items: drawn,
            w: x,
            h: bottom,
            anchor: axes[0],
            in_x: bin.0 + place_dx,
            in_y: bin.1 + content_top,
            out_x: bout.0 + place_dx,
            out_y: bout.1 + content_top,
            open: bopen,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
            frame_bottom: None,
        };
        compress_x_lanes(&mut compressed, &mut xs);
        let x = xs.last().copied().unwrap_or(0.0);
        let mut items = Vec::new();
        for (i, lane) in activity.lanes.iter().enumerate().take(n) {
            if let Some(c) = lane.color.as_deref().and_then(parse_color) {
                rect(
                    &mut items,
                    xs[i],
                    0.0,
                    xs[i + 1] - xs[i],
                    bottom,
                    0.0,
                    paint(Some(c), Some(stroke(c, 1.0))),
                );
            }
        }
        items.append(&mut compressed.items);
        if let (Some((fill, gradient)), Some(h)) = (self.style.lane_header_bg, headers.first()) {
            let (x0, x1) = (xs.first().copied().unwrap_or(0.0), xs.last().copied().unwrap_or(0.0));
            let border = self.style.lane_header_border.map(|c| stroke(c, 1.0));
            rect(
                &mut items,
                x0,
                0.0,
                x1 - x0,
                h.height,
                0.0,
                fading(fill, gradient, border),
            );
        }
        let sep = stroke(self.style.lane_border, self.style.lane_line);
        for &lx in &xs {
            line(&mut items, lx, 0.0, lx, bottom, sep);
        }
        for (i, h) in headers.iter().enumerate() {
            let mid = (xs[i] + xs[i + 1]) / 2.0;
            h.draw(
                mid - h.width / 2.0,
                0.0,
                Align::Left,
                self.style.lane_font_color,
                &mut items,
            );
        }
        Tile {
            items,
            w: x,
            h: bottom,
            ..compressed
        }
    }

    /// A `fork` (not a `split`) written at the top level whose branches do
    /// not all start in its own lane, laid out as without lanes.
    fn lane_fork<'a>(&self, node: &Node<'a>, own: usize, lane_of: &dyn Fn(&Node<'_>) -> usize) -> Option<LaneFork<'a>> {
        let Kind::Fork { branches, merge, label } = &node.kind else {
            return None;
        };
        if branches.len() < 2 || branches.iter().any(|s| s.nodes.is_empty()) || !node.notes.is_empty() {
            return None;
        }
        let lanes: Vec<usize> = branches.iter().map(|s| s.nodes.first().map_or(own, lane_of)).collect();
        if lanes.iter().all(|&l| l == own) {
            return None;
        }
        let out = branches.last().and_then(|s| s.nodes.last()).map_or(own, lane_of);
        // As `fork_tile`: the branches 28 px apart, the flow in the middle
        // of their dimensions, the bars 14 px past the outer branches.
        // A branch's first note reaches 10 px up into the room under the
        // bar, as after an action (seed 001's `complete-example`).
        self.first_after_action.set(true);
        let cols = self.side_by_side(branches, SPLIT_GAP, 1, true);
        self.first_after_action.set(false);
        let c = cols
            .last()
            .map_or(0.0, |(t, x)| x + t.dimensioned().1.max(t.dimensioned().0 + 1.0))
            / 2.0;
        let x_end = cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0));
        let x_start = cols.first().map_or(0.0, |(_, x)| x.min(0.0));
        Some(LaneFork {
            own,
            out,
            branches: cols
                .into_iter()
                .zip(lanes)
                .map(|((t, x), lane)| (t, x - c, lane))
                .collect(),
            bar: (x_start - BAR_OVERHANG - c, x_end + BAR_OVERHANG - c),
            merge: *merge,
            label: *label,
        })
    }

    /// Draws a [`LaneFork`] in page coordinates (`axes`: where each lane
    /// puts the flow's axis). An arrow between a bar and a branch in
    /// another lane leaves the bar at the branch's place in the bar's lane,
    /// runs 4 px down (into a bar: up to 14 px above it) and across.
    fn lane_fork_tile(&self, fork: LaneFork<'_>, axes: &[f64]) -> Tile {
        let axis = |lane: usize| axes.get(lane).copied().unwrap_or(0.0);
        let (own_axis, out_axis) = (axis(fork.own), axis(fork.out));
        let mut items = Vec::new();
        let st = self.stroke_for(None);
        let bar_color = self.style.bar_color;
        let draw_bar = |items: &mut Vec<Item>, at: f64, y: f64| {
            ignored_for_compression(items, |items| {
                rect(
                    items,
                    at + fork.bar.0,
                    y,
                    fork.bar.1 - fork.bar.0,
                    BAR_HEIGHT,
                    2.5,
                    paint(Some(bar_color), Some(stroke(self.style.bar_border, 1.0))),
                )
            });
        };
        draw_bar(&mut items, own_axis, 0.0);
        // A branch holds what hangs below its last step (a note), and
        // keeps 20 px from the closing bar (seed 001's `complete-example`).
        let top = BAR_HEIGHT + GAP;
        let full_h = |t: &Tile| t.h + t.overhang;
        let bottom = fork
            .branches
            .iter()
            .map(|(t, _, _)| top + full_h(t))
            .fold(top, f64::max);
        let mut outs = Vec::new();
        for (t, gx, lane) in fork.branches {
            let x0 = axis(lane) + gx;
            let y = top + (bottom - top - full_h(&t)) / 2.0;
            let ax = x0 + t.in_x;
            if lane == fork.own {
                polyline(&mut items, &[(ax, BAR_HEIGHT), (ax, y + t.in_y)], st, true);
            } else {
                let sx = own_axis + gx + t.in_x;
                let turn = BAR_HEIGHT + 4.0;
                // Arrows between lanes hold nothing apart (PlantUML draws
                // them after the lanes, ignored by the compression).
                ignored_for_compression(&mut items, |items| {
                    polyline(
                        items,
                        &[(sx, BAR_HEIGHT), (sx, turn), (ax, turn), (ax, y + t.in_y)],
                        st,
                        true,
                    )
                });
            }
            if t.open {
                outs.push((x0 + t.out_x, y + t.out_y, t.tail.clone(), lane, gx + t.out_x));
            }
            t.place(x0, y, &mut items);
        }
        let open = !outs.is_empty();
        let h = if fork.merge {
            // PlantUML draws no arrow from a branch in another lane to the
            // merge point (probe `lanes_fork_merge`).
            let merge_top = bottom + 10.0;
            let my = merge_top + DIAMOND_HALF;
            for (ox, oy, tail, lane, _) in &outs {
                if *lane != fork.out {
                    continue;
                }
                let pts: Vec<(f64, f64)> = if *ox < out_axis - DIAMOND_HALF {
                    vec![(*ox, *oy), (*ox, my), (out_axis - DIAMOND_HALF, my)]
                } else if *ox > out_axis + DIAMOND_HALF {
                    vec![(*ox, *oy), (*ox, my), (out_axis + DIAMOND_HALF, my)]
                } else {
                    vec![(*ox, *oy), (*ox, merge_top)]
                };
                self.edge(&mut items, &pts, tail.as_ref(), true);
            }
            let md = self.diamond(None);
            self.draw_diamond(&mut items, &md, out_axis - DIAMOND_HALF, merge_top, None);
            merge_top + 2.0 * DIAMOND_HALF
        } else if open {
            let bar_y = bottom + GAP;
            for (ox, oy, tail, lane, gx) in &outs {
                if *lane == fork.out {
                    self.edge(&mut items, &[(*ox, *oy), (*ox, bar_y)], tail.as_ref(), true);
                } else {
                    let tx = out_axis + gx;
                    let turn = bar_y - 14.0;
                    ignored_for_compression(&mut items, |items| {
                        self.edge(
                            items,
                            &[(*ox, *oy), (*ox, turn), (tx, turn), (tx, bar_y)],
                            tail.as_ref(),
                            true,
                        )
                    });
                }
            }
            draw_bar(&mut items, out_axis, bar_y);
            if let Some(l) = self.label(fork.label) {
                l.draw(
                    out_axis + fork.bar.1 + 5.0,
                    bar_y - l.height / 2.0,
                    Align::Left,
                    self.style.arrow_font_color,
                    &mut items,
                );
            }
            bar_y + BAR_HEIGHT
        } else {
            bottom
        };
        let w = items_x_range(&items).map_or(0.0, |r| r.1);
        Tile {
            items,
            w,
            h,
            anchor: own_axis,
            in_x: own_axis,
            out_x: out_axis,
            out_y: h,
            open: open || fork.merge,
            ..Tile::empty()
        }
    }

    /// The branch tiles of a split or two-branch if whose branches
    /// start in distinct lanes other than the block's own, with their lanes.
    fn lane_split_branches(
        &self,
        node: &Node<'_>,
        own: usize,
        lane_of: &dyn Fn(&Node<'_>) -> usize,
    ) -> Option<Vec<(Tile, usize, f64)>> {
        let seqs: Vec<&Seq<'_>> = match &node.kind {
            // A fork across lanes is a [`LaneFork`].
            Kind::Split { branches } => branches.iter().collect(),
            Kind::If {
                branches,
                otherwise: Some((_, other)),
                ..
            } if branches.len() == 1 => branches.iter().map(|(_, _, s)| s).chain([other]).collect(),
            _ => return None,
        };
        if seqs.len() < 2 || seqs.iter().any(|s| s.nodes.is_empty()) || !node.notes.is_empty() {
            return None;
        }
        let lanes: Vec<usize> = seqs.iter().map(|s| s.nodes.first().map_or(own, lane_of)).collect();
        let distinct = lanes.iter().enumerate().all(|(i, l)| !lanes[..i].contains(l));
        if !distinct || lanes.iter().all(|&l| l == own) {
            return None;
        }
        // A branch changing lanes on the way is a [`LanedTile`].
        let wanders = seqs
            .iter()
            .zip(&lanes)
            .any(|(s, &l)| s.nodes.iter().any(|n| changes_lane(n, l, lane_of)));
        if wanders {
            return None;
        }
        // Each branch where the block without lanes puts it, its flow's
        // axis at 0 (PlantUML draws each part of the block in its lane's
        // column at that place; probes `lanes_if_other_lane`,
        // `lanes_split_other_lanes`).
        if let Kind::Split { branches } = &node.kind {
            let mut cols = if branches.len() == 2 {
                self.side_by_side(branches, SPLIT_GAP, 1, false)
            } else {
                self.side_by_side(branches, FORK_GAP, 1, false)
            };
            let x_end = cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0));
            let c = if branches.len() > 2 {
                place_branches(&mut cols, SPLIT_GAP - FORK_GAP)
            } else {
                x_end / 2.0
            };
            return Some(
                cols.into_iter()
                    .zip(lanes)
                    .map(|((t, x), lane)| (t, lane, x - c))
                    .collect(),
            );
        }
        let tiles: Vec<Tile> = seqs
            .iter()
            .map(|s| {
                self.first_after_action.set(true);
                let tile = self.layout_seq(s, 1);
                self.first_after_action.set(false);
                tile
            })
            .collect();
        let (Some(then_t), Some(else_t)) = (tiles.first(), tiles.get(1)) else {
            return None;
        };
        // As `if_tile`: the diamond centred between the branches' axes, at
        // least its width + 20 apart.
        let d = match &node.kind {
            Kind::If { branches, .. } => self.diamond(branches.first().map(|(c, _, _)| *c)),
            _ => self.diamond(None),
        };
        let ta = then_t.in_x;
        let mut else_x = then_t.w + BRANCH_GAP;
        let need = d.w + 20.0;
        if else_x + else_t.in_x - ta < need {
            else_x += need - (else_x + else_t.in_x - ta);
        }
        let c = (ta + else_x + else_t.in_x) / 2.0;
        Some(
            tiles
                .into_iter()
                .zip(lanes)
                .zip([-c, else_x - c])
                .map(|((t, lane), x)| (t, lane, x))
                .collect(),
        )
    }

    /// A split or if with each branch in its own lane's column
    /// (items in lane coordinates; the block's glyphs on `own_axis`).
    fn lane_split_tile(
        &self,
        node: &Node<'_>,
        branches: Vec<(Tile, usize, f64)>,
        lines: Option<SplitLines>,
        own_axis: f64,
        axes: &[f64],
    ) -> Tile {
        let mut items = Vec::new();
        let st = self.stroke_for(None);
        let placed: Vec<(Tile, f64, usize, f64)> = branches
            .into_iter()
            .map(|(t, lane, x)| {
                let x0 = axes.get(lane).copied().unwrap_or(own_axis) + x;
                (t, x0, lane, x)
            })
            .collect();
        if let Some(lines) = lines {
            return self.lane_split_lines_tile(placed, lines, own_axis, axes);
        }
        let placed: Vec<(Tile, f64)> = placed.into_iter().map(|(t, x0, _, _)| (t, x0)).collect();
        let hi = placed.iter().map(|(t, x)| x + t.w).fold(f64::NEG_INFINITY, f64::max);
        let (top, in_x): (f64, f64) = match &node.kind {
            Kind::If { branches, .. } => {
                let cond = branches.first().map(|(c, _, _)| *c);
                let d = self.diamond(cond);
                self.draw_diamond(&mut items, &d, own_axis - d.w / 2.0, 0.0, None);
                let mid = d.h / 2.0;
                let labels = [
                    branches.first().and_then(|(_, l, _)| *l),
                    match &node.kind {
                        Kind::If {
                            otherwise: Some((l, _)),
                            ..
                        } => *l,
                        _ => None,
                    },
                ];
                let top = d.h + 20.0;
                for (i, (t, x0)) in placed.iter().enumerate() {
                    let ax = x0 + t.in_x;
                    let side = if i == 0 { -1.0 } else { 1.0 };
                    let corner = own_axis + side * d.w / 2.0;
                    if (ax - own_axis).abs() <= d.w / 2.0 {
                        // A branch under the diamond leaves from its bottom.
                        let turn = d.h + 5.0;
                        polyline(
                            &mut items,
                            &[(own_axis, d.h), (own_axis, turn), (ax, turn), (ax, top + t.in_y)],
                            st,
                            true,
                        );
                    } else {
                        polyline(&mut items, &[(corner, mid), (ax, mid), (ax, top + t.in_y)], st, true);
                    }
                    let label = self.label(labels.get(i).copied().flatten());
                    if let Some(l) = &label {
                        let lx = if side < 0.0 { corner - l.width } else { corner };
                        self.draw_label_above(&mut items, &label, lx, mid);
                    }
                }
                (top, own_axis)
            }
            // A split: its branches leave a line.
            _ => {
                let axes_x: Vec<f64> = placed.iter().map(|(t, x)| x + t.in_x).collect();
                let a = axes_x.iter().copied().fold(own_axis, f64::min);
                let b = axes_x.iter().copied().fold(own_axis, f64::max);
                line(&mut items, a, 0.0, b, 0.0, stroke(self.style.arrow_color, 1.5));
                for (t, x0) in &placed {
                    let ax = x0 + t.in_x;
                    polyline(&mut items, &[(ax, 0.0), (ax, GAP + t.in_y)], st, true);
                }
                (GAP, own_axis)
            }
        };
        // What hangs below a branch (a note) keeps its distance from the merge.
        let bottom = placed.iter().map(|(t, _)| top + t.h + t.overhang).fold(top, f64::max);
        let outs: Vec<(f64, f64, Option<ArrowStyle>)> = placed
            .iter()
            .filter(|(t, _)| t.open)
            .map(|(t, x0)| (x0 + t.out_x, top + t.out_y, t.tail.clone()))
            .collect();
        let open = !outs.is_empty();
        for (t, x0) in placed {
            t.place(x0, top, &mut items);
        }
        let h = match &node.kind {
            Kind::If { .. } if open => {
                let merge_top = bottom + 10.0;
                let my = merge_top + DIAMOND_HALF;
                for (ox, oy, tail) in &outs {
                    let tip = if *ox < own_axis - 0.01 {
                        (own_axis - DIAMOND_HALF, my)
                    } else if *ox > own_axis + 0.01 {
                        (own_axis + DIAMOND_HALF, my)
                    } else {
                        (own_axis, merge_top)
                    };
                    let pts = if (tip.1 - merge_top).abs() < 0.01 {
                        vec![(*ox, *oy), tip]
                    } else {
                        vec![(*ox, *oy), (*ox, my), tip]
                    };
                    self.edge(&mut items, &pts, tail.as_ref(), true);
                }
                let md = self.diamond(None);
                self.draw_diamond(&mut items, &md, own_axis - DIAMOND_HALF, merge_top, None);
                merge_top + 2.0 * DIAMOND_HALF
            }
            _ if open => {
                // `end split`: the branches meet on a line.
                let join = bottom + GAP;
                let xs: Vec<f64> = outs.iter().map(|o| o.0).collect();
                for (ox, oy, tail) in &outs {
                    self.edge(&mut items, &[(*ox, *oy), (*ox, join)], tail.as_ref(), true);
                }
                let a = xs.iter().copied().fold(own_axis, f64::min);
                let b = xs.iter().copied().fold(own_axis, f64::max);
                line(&mut items, a, join, b, join, stroke(self.style.arrow_color, 1.5));
                join
            }
            _ => bottom,
        };
        let w = items_x_range(&items).map_or(hi, |r| r.1).max(hi);
        Tile {
            items,
            w,
            h,
            anchor: in_x,
            in_x,
            out_x: own_axis,
            out_y: h,
            open,
            ..Tile::empty()
        }
    }

    /// A split across lanes: its opening line in its first branch's lane,
    /// its closing line in its last branch's (see [`SplitLines`]). An arrow
    /// between a line and a branch in another lane leaves the line where
    /// the branch would be without lanes, runs 5 px down (into the closing
    /// line: to 14 px above it) and across. Its lines give way in the
    /// compression, its head holds its place (the heads on the closing
    /// line keep 10 px between them: probes `lanes_split_*`).
    fn lane_split_lines_tile(
        &self,
        placed: Vec<(Tile, f64, usize, f64)>,
        lines: SplitLines,
        own_axis: f64,
        axes: &[f64],
    ) -> Tile {
        let axis = |lane: usize| axes.get(lane).copied().unwrap_or(own_axis);
        let (in_axis, out_axis) = (axis(lines.in_lane), axis(lines.out_lane));
        let st = self.stroke_for(None);
        let thin = stroke(self.style.arrow_color, 1.5);
        let mut items = Vec::new();
        line(
            &mut items,
            in_axis + lines.open.0,
            0.0,
            in_axis + lines.open.1,
            0.0,
            thin,
        );
        let hi = placed
            .iter()
            .map(|(t, x0, _, _)| x0 + t.w)
            .fold(f64::NEG_INFINITY, f64::max);
        let top = GAP;
        for (t, x0, lane, gx) in &placed {
            let ax = x0 + t.in_x;
            if *lane == lines.in_lane {
                polyline(&mut items, &[(ax, 0.0), (ax, top + t.in_y)], st, true);
            } else {
                let sx = in_axis + gx + t.in_x;
                let turn = 5.0;
                polyline(
                    &mut items,
                    &[(sx, 0.0), (sx, turn), (ax, turn), (ax, top + t.in_y)],
                    st,
                    true,
                );
            }
        }
        let bottom = placed
            .iter()
            .map(|(t, _, _, _)| top + t.h + t.overhang)
            .fold(top, f64::max);
        let outs: Vec<(f64, f64, Option<ArrowStyle>, usize, f64)> = placed
            .iter()
            .filter(|(t, _, _, _)| t.open)
            .map(|(t, x0, lane, gx)| (x0 + t.out_x, top + t.out_y, t.tail.clone(), *lane, gx + t.out_x))
            .collect();
        let open = !outs.is_empty();
        for (t, x0, _, _) in placed {
            t.place(x0, top, &mut items);
        }
        let h = if open {
            let join = bottom + GAP;
            for (ox, oy, tail, lane, gx) in &outs {
                if *lane == lines.out_lane {
                    self.edge(&mut items, &[(*ox, *oy), (*ox, join)], tail.as_ref(), true);
                } else {
                    let tx = out_axis + gx;
                    let turn = join - 14.0;
                    self.edge(
                        &mut items,
                        &[(*ox, *oy), (*ox, turn), (tx, turn), (tx, join)],
                        tail.as_ref(),
                        true,
                    );
                }
            }
            line(
                &mut items,
                out_axis + lines.close.0,
                join,
                out_axis + lines.close.1,
                join,
                thin,
            );
            join
        } else {
            bottom
        };
        let w = items_x_range(&items).map_or(hi, |r| r.1).max(hi);
        Tile {
            items,
            w,
            h,
            anchor: in_axis,
            in_x: in_axis,
            out_x: out_axis,
            out_y: h,
            open,
            ..Tile::empty()
        }
    }
}

/// The class of the marks around a node's items while a block changing
/// lanes is laid out (`Ctx::lane_marks`); removed by [`LanedTile::place`].
const LANE_MARK: &str = "puml-lane";

/// Wraps `items` (one node's) in a mark naming its lane.
pub(super) fn mark_lane(items: &mut Vec<Item>, lane: usize) {
    items.insert(
        0,
        Item::Begin {
            class: LANE_MARK.into(),
            title: None,
            link: None,
            data: vec![("lane".into(), lane.to_string())],
        },
    );
    items.push(Item::End);
}

/// Whether a step nested in `node` runs in another lane than `own`
/// (walked with an explicit stack).
fn changes_lane(node: &Node<'_>, own: usize, lane_of: &dyn Fn(&Node<'_>) -> usize) -> bool {
    let mut todo: Vec<&Node<'_>> = vec![node];
    while let Some(node) = todo.pop() {
        if lane_of(node) != own {
            return true;
        }
        let seqs = child_seqs(&node.kind);
        todo.extend(seqs.into_iter().flat_map(|s| s.nodes.iter()));
    }
    false
}

/// The sequences a block holds, in source order (branches, cases, bodies).
fn child_seqs<'n, 'a>(kind: &'n Kind<'a>) -> Vec<&'n Seq<'a>> {
    match kind {
        Kind::If {
            branches, otherwise, ..
        } => branches
            .iter()
            .map(|(_, _, s)| s)
            .chain(otherwise.iter().map(|(_, s)| s))
            .collect(),
        Kind::Switch { cases, .. } => cases.iter().map(|(_, s)| s).collect(),
        Kind::While { body, .. } | Kind::Repeat { body, .. } | Kind::Container { body, .. } => vec![body],
        Kind::Fork { branches, .. } | Kind::Split { branches } => branches.iter().collect(),
        _ => Vec::new(),
    }
}

/// Whether a step of `seq` (or nested in it) runs in another lane than `lane`.
pub(super) fn seq_changes_lane(seq: &Seq<'_>, lane: Option<LaneId>) -> bool {
    let index = |l: Option<LaneId>| l.map_or(0, LaneId::index);
    let own = index(lane);
    seq.nodes
        .iter()
        .any(|node| changes_lane(node, own, &|n: &Node<'_>| index(n.lane)))
}

/// Whether the first step of `seq` (or nested in it) that runs in another
/// lane than `lane` runs in a lane right of it.
pub(super) fn seq_moves_right(seq: &Seq<'_>, lane: Option<LaneId>) -> bool {
    let index = |l: Option<LaneId>| l.map_or(0, LaneId::index);
    let own = index(lane);
    // Depth first in source order, with an explicit stack.
    let mut todo: Vec<&Node<'_>> = seq.nodes.iter().rev().collect();
    while let Some(node) = todo.pop() {
        let l = index(node.lane);
        if l != own {
            return l > own;
        }
        let seqs = child_seqs(&node.kind);
        todo.extend(seqs.into_iter().rev().flat_map(|s| s.nodes.iter().rev()));
    }
    false
}

/// A connection between steps in different lanes: PlantUML draws it from
/// its start in the first lane's column to its end in the other's, the
/// last horizontal stretch bridging them (probes `lanes_inner_*`).
struct LaneCrossing {
    pts: Vec<(f64, f64)>,
    from: usize,
    to: usize,
    stroke: Stroke,
    head: bool,
    /// Heads drawn on its segments, with their segment's index.
    mid_heads: Vec<(usize, Item)>,
    /// Labels drawn with it (beside its start).
    labels: Vec<Item>,
}

/// A block laid out as without lanes whose items are sorted by lane:
/// PlantUML draws each part in its lane's column at the place it has
/// without lanes (probes `lanes_inner_*`).
struct LanedTile {
    tile: Tile,
    own: usize,
    items: Vec<(usize, Item)>,
    crossings: Vec<LaneCrossing>,
}

impl LanedTile {
    /// Sorts `tile`'s items (marked by [`mark_lane`]) by lane; the lanes
    /// clamped below `n`.
    fn new(mut tile: Tile, own: usize, n: usize) -> LanedTile {
        let clamp = |l: usize| l.min(n.saturating_sub(1));
        let all = std::mem::take(&mut tile.items);
        let lane_in = |data: &[(String, String)]| {
            data.iter()
                .find(|(k, _)| k == "lane")
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .map(clamp)
        };
        // Each marked group's box and lane.
        let mut groups: Vec<((f64, f64, f64, f64), usize)> = Vec::new();
        let mut open: Vec<Option<(usize, usize)>> = Vec::new();
        for (i, item) in all.iter().enumerate() {
            match item {
                Item::Begin { class, data, .. } if class == LANE_MARK => open.push(lane_in(data).map(|l| (l, i))),
                Item::Begin { .. } => open.push(None),
                Item::End => {
                    if let Some(Some((lane, start))) = open.pop() {
                        let inner = &all[start + 1..i];
                        if let (Some((x0, x1)), Some((y0, y1))) = (items_x_range(inner), items_y_range(inner)) {
                            groups.push(((x0, y0, x1, y1), lane));
                        }
                    }
                }
                _ => {}
            }
        }
        let lane_at = |p: (f64, f64), context: usize| {
            const TOUCH: f64 = 0.51;
            groups
                .iter()
                .filter(|((x0, y0, x1, y1), _)| {
                    p.0 >= x0 - TOUCH && p.0 <= x1 + TOUCH && p.1 >= y0 - TOUCH && p.1 <= y1 + TOUCH
                })
                .min_by(|a, b| {
                    let area = |((x0, y0, x1, y1), _): &&((f64, f64, f64, f64), usize)| (x1 - x0) * (y1 - y0);
                    area(a).total_cmp(&area(b))
                })
                .map_or(context, |(_, lane)| *lane)
        };
        let mut items = Vec::with_capacity(all.len());
        let mut crossings = Vec::new();
        let mut lanes: Vec<Option<usize>> = Vec::new();
        let mut all = all.into_iter().peekable();
        while let Some(item) = all.next() {
            let context = lanes.iter().rev().find_map(|l| *l).unwrap_or(own);
            match item {
                Item::Begin {
                    ref class, ref data, ..
                } if class == LANE_MARK => {
                    lanes.push(Some(lane_in(data).unwrap_or(context)));
                }
                Item::Begin { .. } => {
                    lanes.push(None);
                    items.push((context, item));
                }
                Item::End => {
                    if let Some(None) = lanes.pop() {
                        items.push((context, item));
                    }
                }
                Item::Line { x1, y1, x2, y2, stroke } => {
                    // A run of joined lines, its head and labels: one connection.
                    let mut pts = vec![(x1, y1), (x2, y2)];
                    let mut run = vec![Item::Line { x1, y1, x2, y2, stroke }];
                    while let Some(Item::Line { x1, y1, x2, y2, .. }) = all.peek() {
                        let last = pts[pts.len() - 1];
                        if (x1 - last.0).abs() > 0.01 || (y1 - last.1).abs() > 0.01 {
                            break;
                        }
                        pts.push((*x2, *y2));
                        if let Some(next) = all.next() {
                            run.push(next);
                        }
                    }
                    let tip = pts[pts.len() - 1];
                    let head = matches!(all.peek(), Some(Item::Polygon { points, .. })
                        if points.len() == 4 && (points[1].x - tip.0).abs() < 0.01 && (points[1].y - tip.1).abs() < 0.01);
                    if head {
                        if let Some(h) = all.next() {
                            run.push(h);
                        }
                    }
                    // Heads in the middle of its segments (a loop's way back).
                    let mut mid_heads = Vec::new();
                    while let Some(Item::Polygon { points, .. }) = all.peek() {
                        let on = points.get(1).and_then(|tip| {
                            pts.windows(2).position(|w| {
                                let (lo_x, hi_x) = (w[0].0.min(w[1].0), w[0].0.max(w[1].0));
                                let (lo_y, hi_y) = (w[0].1.min(w[1].1), w[0].1.max(w[1].1));
                                tip.x >= lo_x - 0.01
                                    && tip.x <= hi_x + 0.01
                                    && tip.y >= lo_y - 0.01
                                    && tip.y <= hi_y + 0.01
                            })
                        });
                        match (points.len(), on) {
                            (4, Some(segment)) => {
                                if let Some(h) = all.next() {
                                    mid_heads.push((segment, h));
                                }
                            }
                            _ => break,
                        }
                    }
                    let mut labels = Vec::new();
                    while let Some(Item::Text(_)) = all.peek() {
                        if let Some(t) = all.next() {
                            labels.push(t);
                        }
                    }
                    let (from, to) = (lane_at(pts[0], context), lane_at(tip, context));
                    if from == to {
                        items.extend(
                            run.into_iter()
                                .chain(mid_heads.into_iter().map(|(_, h)| h))
                                .chain(labels)
                                .map(|i| (from, i)),
                        );
                    } else {
                        crossings.push(LaneCrossing {
                            pts,
                            from,
                            to,
                            stroke,
                            head,
                            mid_heads,
                            labels,
                        });
                    }
                }
                other => items.push((context, other)),
            }
        }
        LanedTile {
            tile,
            own: clamp(own),
            items,
            crossings,
        }
    }

    /// Widens each lane's reach (the flow's axis at 0) to what it draws
    /// of this block; connections between lanes hold nothing apart.
    fn reach(&self, left: &mut [f64], right: &mut [f64]) {
        for (lane, item) in &self.items {
            if let Some((lo, hi)) = lane_reach(std::slice::from_ref(item)) {
                reach(left, right, *lane, lo - self.tile.anchor, hi - self.tile.anchor);
            }
        }
        for c in &self.crossings {
            if let Some((lo, hi)) = lane_reach(&c.labels) {
                reach(left, right, c.from, lo - self.tile.anchor, hi - self.tile.anchor);
            }
        }
    }

    /// The block in page columns (`axes`: each lane's flow axis), its
    /// anchor on its own lane's axis.
    fn place(self, axes: &[f64]) -> Tile {
        let LanedTile {
            tile,
            own,
            items,
            crossings,
        } = self;
        let shift = |lane: usize| axes.get(lane).or(axes.get(own)).copied().unwrap_or(0.0) - tile.anchor;
        let mut out = Vec::with_capacity(items.len());
        for (lane, mut item) in items {
            shift_item(&mut item, shift(lane), 0.0);
            out.push(item);
        }
        for c in crossings {
            let (sf, st) = (shift(c.from), shift(c.to));
            // The last horizontal stretch bridges the lanes (into a merge,
            // back to a loop's entry).
            let flat = c.pts.windows(2).rposition(|w| (w[0].1 - w[1].1).abs() < 0.01);
            for (segment, mut head) in c.mid_heads {
                let s = if flat.is_some_and(|k| segment > k) { st } else { sf };
                shift_item(&mut head, s, 0.0);
                out.push(head);
            }
            let pts: Vec<(f64, f64)> = match flat {
                Some(k) => c
                    .pts
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.0 + if i <= k { sf } else { st }, p.1))
                    .collect(),
                None => {
                    let (a, b) = (c.pts[0], c.pts[c.pts.len() - 1]);
                    let turn = a.1 + 5.0;
                    vec![(a.0 + sf, a.1), (a.0 + sf, turn), (b.0 + st, turn), (b.0 + st, b.1)]
                }
            };
            ignored_for_compression(&mut out, |items| polyline(items, &pts, Some(c.stroke), c.head));
            for mut label in c.labels {
                shift_item(&mut label, sf, 0.0);
                out.push(label);
            }
        }
        let s = shift(own);
        let w = items_x_range(&out).map_or(0.0, |r| r.1);
        Tile {
            items: out,
            w,
            anchor: tile.anchor + s,
            in_x: tile.in_x + s,
            out_x: tile.out_x + s,
            ..tile
        }
    }
}
