//! Placing swimlanes.

use super::*;

impl Ctx<'_> {
    /// The top-level sequence laid out in swimlane columns: each node in the
    /// column of the lane it was written in (nested blocks stay in their
    /// opening's lane).
    pub(super) fn layout_lanes(&self, activity: &ActivityDiagram, seq: &Seq<'_>) -> Tile {
        let n = activity.lanes.len().max(1);
        let lane_of = |node: &Node<'_>| node.lane.map_or(0, |l| l.index().min(n - 1));
        // A top-level fork, split or if whose branches run in other lanes is
        // laid out once the lanes are known; its branches count for theirs.
        let mut split_branches: Vec<Option<Vec<(Tile, usize)>>> = Vec::with_capacity(seq.nodes.len());
        let tiles: Vec<(Tile, Option<&ArrowStyle>, usize)> = seq
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let own = lane_of(node);
                let branches = self.lane_split_branches(node, own, &lane_of);
                // A note beside a step after an action or `start` reaches
                // up as in a diagram without lanes (seed 001's workflows).
                let after_action = i
                    .checked_sub(1)
                    .and_then(|j| seq.nodes.get(j))
                    .is_some_and(|prev| matches!(prev.kind, Kind::Action(_) | Kind::Start) && node.arrow.is_none());
                let tile = if branches.is_some() {
                    Tile::empty()
                } else {
                    self.layout_node_after(node, 0, &[], after_action)
                };
                split_branches.push(branches);
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
        // side, or its header + 10 px when that is wider (the content then
        // centered, 1 px right of the middle, as PlantUML).
        let mut left = vec![0.0_f64; n];
        let mut right = vec![0.0_f64; n];
        for (t, _, lane) in &tiles {
            left[*lane] = left[*lane].max(t.anchor);
            right[*lane] = right[*lane].max(t.w - t.anchor);
        }
        for (t, lane) in split_branches.iter().flatten().flatten() {
            left[*lane] = left[*lane].max(t.anchor);
            right[*lane] = right[*lane].max(t.w - t.anchor);
        }
        let mut xs = Vec::with_capacity(n + 1);
        let mut axes = Vec::with_capacity(n);
        let mut x = 0.0;
        for i in 0..n {
            xs.push(x);
            let content = left[i] + right[i];
            let header_w = headers[i].width + 10.0;
            let (w, axis) = if header_w > content + 12.0 {
                (header_w, x + (header_w - content) / 2.0 + left[i] + 1.0)
            } else {
                (content + 12.0, x + 6.0 + left[i])
            };
            axes.push(axis);
            x += w;
        }
        xs.push(x);
        let header_h = headers.iter().map(|h| h.height).fold(0.0, f64::max);
        let mut tiles = tiles;
        let mut columns: Vec<f64> = tiles.iter().map(|(_, _, lane)| axes[*lane]).collect();
        for (i, (node, branches)) in seq.nodes.iter().zip(split_branches).enumerate() {
            if let Some(branches) = branches {
                let tile = self.lane_split_tile(node, branches, axes[lane_of(node)], &axes);
                // Its items are in lane coordinates already: placed at x = 0.
                columns[i] = tile.anchor;
                tiles[i].0 = tile;
            }
        }
        let body = self.stack(tiles.into_iter().map(|(t, a, _)| (t, a)).collect(), Some(&columns), &[]);
        let content_top = header_h + 5.0;
        let bottom = content_top + body.h + body.overhang;
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
        let body_anchor = body.anchor;
        let first_col = columns.first().copied().unwrap_or(0.0);
        let (bin, bout, bopen) = ((body.in_x, body.in_y), (body.out_x, body.out_y), body.open);
        let place_dx = first_col - body_anchor;
        body.place(place_dx, content_top, &mut items);
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
        }
    }

    /// The branch tiles of a fork, split or two-branch if whose branches
    /// start in distinct lanes other than the block's own, with their lanes.
    fn lane_split_branches(
        &self,
        node: &Node<'_>,
        own: usize,
        lane_of: &dyn Fn(&Node<'_>) -> usize,
    ) -> Option<Vec<(Tile, usize)>> {
        let seqs: Vec<&Seq<'_>> = match &node.kind {
            Kind::Fork { branches, .. } | Kind::Split { branches } => branches.iter().collect(),
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
        Some(
            seqs.iter()
                .zip(lanes)
                .map(|(s, lane)| (self.layout_seq(s, 1), lane))
                .collect(),
        )
    }

    /// A fork, split or if with each branch in its own lane's column
    /// (items in lane coordinates; the block's glyphs on `own_axis`).
    fn lane_split_tile(&self, node: &Node<'_>, branches: Vec<(Tile, usize)>, own_axis: f64, axes: &[f64]) -> Tile {
        let mut items = Vec::new();
        let st = self.stroke_for(None);
        let placed: Vec<(Tile, f64)> = branches
            .into_iter()
            .map(|(t, lane)| {
                let x0 = axes.get(lane).copied().unwrap_or(own_axis) - t.anchor;
                (t, x0)
            })
            .collect();
        let lo = placed.iter().map(|(_, x)| *x).fold(f64::INFINITY, f64::min);
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
                let top = d.h + 10.0;
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
            Kind::Split { .. } => {
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
            _ => {
                let bar = self.style.bar_color;
                let (b0, b1) = ((lo - BAR_OVERHANG).min(own_axis), (hi + BAR_OVERHANG).max(own_axis));
                rect(
                    &mut items,
                    b0,
                    0.0,
                    b1 - b0,
                    BAR_HEIGHT,
                    2.5,
                    paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
                );
                let top = BAR_HEIGHT + GAP;
                for (t, x0) in &placed {
                    let ax = x0 + t.in_x;
                    polyline(&mut items, &[(ax, BAR_HEIGHT), (ax, top + t.in_y)], st, true);
                }
                (top, own_axis)
            }
        };
        let bottom = placed.iter().map(|(t, _)| top + t.h).fold(top, f64::max);
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
                let merge_top = bottom + 6.0;
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
            Kind::Fork { merge: false, .. } if open => {
                let bar_y = bottom + GAP;
                for (ox, oy, tail) in &outs {
                    self.edge(&mut items, &[(*ox, *oy), (*ox, bar_y)], tail.as_ref(), true);
                }
                let bar = self.style.bar_color;
                let (b0, b1) = ((lo - BAR_OVERHANG).min(own_axis), (hi + BAR_OVERHANG).max(own_axis));
                rect(
                    &mut items,
                    b0,
                    bar_y,
                    b1 - b0,
                    BAR_HEIGHT,
                    2.5,
                    paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
                );
                bar_y + BAR_HEIGHT
            }
            _ if open => {
                // `end merge` and `end split`: the branches meet on a line.
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
            in_y: 0.0,
            out_x: own_axis,
            out_y: h,
            open,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
        }
    }
}
