//! Placing `fork` and `split` (concurrency bars).

use super::*;

impl Ctx<'_> {
    /// Lays the branches out side by side, `gap` apart; PlantUML 1.2026
    /// centres them vertically on a common grid of steps (`rank_extras`).
    /// With `by_dimension`, each branch takes the width of PlantUML's
    /// dimension ([`Tile::dimension`]), which a fork centres its flow on.
    pub(super) fn side_by_side(
        &self,
        branches: &[Seq<'_>],
        gap: f64,
        depth: usize,
        by_dimension: bool,
    ) -> Vec<(Tile, f64)> {
        // Set by a fork across swimlanes for each of its branches.
        let first_after_action = self.first_after_action.take();
        let rows: Option<Vec<Vec<usize>>> = branches.iter().map(step_rows).collect();
        let items: Option<Vec<Vec<Option<RowItem>>>> = rows
            .as_ref()
            .map(|_| branches.iter().map(|seq| self.row_items(seq, depth)).collect());
        let mut x = 0.0;
        branches
            .iter()
            .enumerate()
            .map(|(i, seq)| {
                self.first_after_action.set(first_after_action);
                let extra = match (rows.as_deref(), items.as_deref()) {
                    (Some(r), Some(items)) => {
                        let mut extra = rank_extras(r, i, RANK_EXTRA);
                        row_height_extras(r, items, i, &mut extra);
                        extra
                    }
                    _ => Vec::new(),
                };
                let t = self.layout_seq_spaced(seq, depth, &extra);
                self.first_after_action.set(false);
                let t = if self.beside_branch.get() && super::branch::first_is_frame(seq) {
                    t.lowered_under_reach()
                } else {
                    t
                };
                let (lo, hi) = if by_dimension { t.dimensioned() } else { (0.0, t.w) };
                let at = x - lo;
                x += (hi - lo).max(1.0) + gap;
                (t, at)
            })
            .collect()
    }

    pub(super) fn fork_tile(&self, branches: &[Seq<'_>], merge: bool, label: Option<&str>, depth: usize) -> Tile {
        // Branches stand 28 px apart, the flow in their middle; the
        // page-wide compression (`compress`) then closes what nothing
        // else on the page holds open to 10 px.
        let cols = self.side_by_side(branches, SPLIT_GAP, depth, true);
        let c = cols
            .last()
            .map_or(0.0, |(t, x)| x + t.dimensioned().1.max(t.dimensioned().0 + 1.0))
            / 2.0;
        let mut items = Vec::new();
        let x_end = cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0));
        let x_start = cols.first().map_or(0.0, |(_, x)| x.min(0.0));
        let (bar_x0, bar_x1) = (x_start - BAR_OVERHANG, x_end + BAR_OVERHANG);
        let bar = self.style.bar_color;
        ignored_for_compression(&mut items, |items| {
            rect(
                items,
                bar_x0,
                0.0,
                bar_x1 - bar_x0,
                BAR_HEIGHT,
                2.5,
                paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
            )
        });
        let top = BAR_HEIGHT + GAP;
        let bottom = cols.iter().map(|(t, _)| top + t.h).fold(top, f64::max);
        let st = self.stroke_for(None);
        let mut outs = Vec::new();
        for (t, x) in cols {
            let ax = x + t.in_x;
            let y = top + (bottom - top - t.h) / 2.0;
            polyline(&mut items, &[(ax, BAR_HEIGHT), (ax, y + t.in_y)], st, true);
            if t.open {
                outs.push((x + t.out_x, y + t.out_y, t.tail.clone()));
            }
            t.place(x, y, &mut items);
        }
        let open = !outs.is_empty();
        let h;
        if merge {
            let merge_top = bottom + 10.0;
            let my = merge_top + DIAMOND_HALF;
            for (ox, oy, tail) in outs {
                let pts: Vec<(f64, f64)> = if ox < c - DIAMOND_HALF {
                    vec![(ox, oy), (ox, my), (c - DIAMOND_HALF, my)]
                } else if ox > c + DIAMOND_HALF {
                    vec![(ox, oy), (ox, my), (c + DIAMOND_HALF, my)]
                } else {
                    vec![(ox, oy), (ox, merge_top)]
                };
                self.edge(&mut items, &pts, tail.as_ref(), true);
            }
            let md = self.diamond(None);
            self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, merge_top, None);
            h = merge_top + 2.0 * DIAMOND_HALF;
        } else if open {
            let bar_y = bottom + GAP;
            for (ox, oy, tail) in outs {
                self.edge(&mut items, &[(ox, oy), (ox, bar_y)], tail.as_ref(), true);
            }
            ignored_for_compression(&mut items, |items| {
                rect(
                    items,
                    bar_x0,
                    bar_y,
                    bar_x1 - bar_x0,
                    BAR_HEIGHT,
                    2.5,
                    paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
                )
            });
            if let Some(l) = self.label(label) {
                // Centred on the bar's top edge (`test-data/render/activity/fork`).
                l.draw(
                    bar_x1 + 5.0,
                    bar_y - l.height / 2.0,
                    Align::Left,
                    self.style.arrow_font_color,
                    &mut items,
                );
            }
            h = bar_y + BAR_HEIGHT;
        } else {
            h = bottom;
        }
        self.normalize(items, c, (c, 0.0), (c, h), h, open || merge, NO_REACH)
    }

    pub(super) fn split_tile(&self, branches: &[Seq<'_>], depth: usize) -> Tile {
        // Two `split` branches stay 28 px apart; more are spaced like `fork`
        // branches (probes `split_*`).
        let mut cols = if branches.len() == 2 {
            self.side_by_side(branches, SPLIT_GAP, depth, false)
        } else {
            self.side_by_side(branches, FORK_GAP, depth, false)
        };
        let x_end = cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0));
        let c = if branches.len() > 2 {
            place_branches(&mut cols, SPLIT_GAP - FORK_GAP)
        } else {
            x_end / 2.0
        };
        let mut items = Vec::new();
        let axes: Vec<f64> = cols.iter().map(|(t, x)| x + t.in_x).collect();
        let (lo, hi) = axes
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        let st = self.stroke_for(None);
        let bar = stroke(self.style.arrow_color, 1.5);
        line(&mut items, lo, 0.0, hi, 0.0, bar);
        let top = GAP;
        let bottom = cols.iter().map(|(t, _)| top + t.h).fold(top, f64::max);
        let join = bottom + GAP;
        let mut open = false;
        let mut outs: Vec<f64> = Vec::new();
        for (t, x) in cols {
            let ax = x + t.in_x;
            let y = top + (bottom - top - t.h) / 2.0;
            polyline(&mut items, &[(ax, 0.0), (ax, y + t.in_y)], st, true);
            if t.open {
                open = true;
                let ox = x + t.out_x;
                outs.push(ox);
                self.edge(&mut items, &[(ox, y + t.out_y), (ox, join)], t.tail.as_ref(), true);
            }
            t.place(x, y, &mut items);
        }
        if open {
            let (a, b) = outs
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
            line(&mut items, a.min(lo), join, b.max(hi), join, bar);
        }
        let h = if open { join } else { bottom };
        let mut tile = self.normalize(items, c, (c, 0.0), (c, h), h, open, NO_REACH);
        // PlantUML's dimension of a `split` reaches 2 px past its branches
        // on either side, as a two-branch `if`'s does: a partition's frame
        // keeps 12 px beside them (probes `split_*_d4_*`).
        tile.frame = Some((-IF_DIMENSION_ROOM, tile.w + IF_DIMENSION_ROOM));
        tile
    }
}
