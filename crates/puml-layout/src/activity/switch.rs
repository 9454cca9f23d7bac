//! Placing `switch … case … endswitch`.

use super::*;

impl Ctx<'_> {
    pub(super) fn switch_tile(&self, condition: &str, cases: &[(CaseLabel<'_>, Seq<'_>)], depth: usize) -> Tile {
        let d = self.diamond(Some(condition));
        let mut items = Vec::new();
        let mut cols = Vec::new();
        let mut spans = Vec::new();
        let mut x = 0.0;
        let mut lh: f64 = 0.0;
        // A space is as wide as "x x" is wider than "xx" in the label's font.
        let space = self.text("x x", self.style.arrow_font).width - self.text("xx", self.style.arrow_font).width;
        for ((label, (before, after)), seq) in cases {
            let t = self.layout_seq(seq, depth);
            let l = self.label(Some(label));
            // The label starts after its leading spaces, right of the case's
            // line; its spaces count in the column's width.
            let lead = *before as f64 * space;
            let trail = *after as f64 * space;
            let lw = l.as_ref().map_or(0.0, |l| lead + l.width + trail);
            lh = lh.max(l.as_ref().map_or(0.0, |l| l.height));
            let left = t.in_x.max(4.0);
            let right = (t.w - t.in_x).max(lw).max(4.0);
            let center = x + left;
            spans.push((x, center + right));
            x = center + right + FORK_GAP;
            cols.push((t, l, center, lead));
        }
        if cols.is_empty() {
            return self.if_tile(Some(condition), None, None, None, None, depth);
        }
        // PlantUML spaces the cases 10 px apart and places the diamond like
        // a fork's flow (`place_middle`, 10 px of extra room).
        let starts: Vec<f64> = spans.iter().map(|s| s.0).collect();
        let c = place_middle(&mut spans, FORK_GAP);
        for ((_, _, center, _), (start, (moved, _))) in cols.iter_mut().zip(starts.iter().zip(&spans)) {
            *center += moved - start;
        }
        let mid = d.h / 2.0;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, None);
        let top = d.h + (lh + 22.8).max(GAP);
        let st = self.stroke_for(None);
        let n = cols.len();
        let bottom = cols.iter().map(|(t, ..)| top + t.h).fold(top, f64::max);
        // A middle case right of the diamond's right point leaves that
        // point like the last case, and joins the merge's right point
        // (probes `switch_mid_*` in `test-data/activity-probes`).
        let right_of_diamond = |i: usize, center: f64| n > 2 && i > 0 && i < n - 1 && center > c + d.w / 2.0;
        // The merge stands 10 px under the cases when every one joins it
        // from a side, 20 px when one comes down into its top.
        let into_top = cols
            .iter()
            .enumerate()
            .any(|(i, (t, _, center, _))| t.open && (n == 1 || (i > 0 && i < n - 1 && !right_of_diamond(i, *center))));
        let merge_top = bottom + if into_top { GAP } else { GAP / 2.0 };
        let my = merge_top + DIAMOND_HALF;
        let mut any_open = false;
        for (i, (t, l, center, lead)) in cols.into_iter().enumerate() {
            let ty = top + t.in_y;
            let right_of_diamond = right_of_diamond(i, center);
            let pts: Vec<(f64, f64)> = if n > 1 && i == 0 {
                vec![(c - d.w / 2.0, mid), (center, mid), (center, ty)]
            } else if (n > 1 && i == n - 1) || right_of_diamond {
                vec![(c + d.w / 2.0, mid), (center, mid), (center, ty)]
            } else if (center - c).abs() < 0.01 {
                vec![(c, d.h), (center, ty)]
            } else {
                vec![(c, d.h), (c, d.h + 12.0), (center, d.h + 12.0), (center, ty)]
            };
            covering_for_compression(&mut items, |items| polyline(items, &pts, st, true));
            // A middle case's label hangs 1 px lower, from the left end of
            // its line's turn (probes `switch_*`).
            let middle_case = n > 1 && i > 0 && i < n - 1;
            let (lx, ly) = if right_of_diamond {
                (center + lead, d.h + 0.4)
            } else if middle_case {
                (center.min(c) + lead, d.h + 6.4)
            } else {
                (center + lead, d.h + 5.4)
            };
            self.draw_label_at(&mut items, &l, lx, ly);
            let x0 = center - t.in_x;
            if t.open {
                any_open = true;
                let ox = x0 + t.out_x;
                let oy = top + t.out_y;
                let tail = t.tail.clone();
                let pts: Vec<(f64, f64)> = if n > 1 && i == 0 {
                    vec![(ox, oy), (ox, my), (c - DIAMOND_HALF, my)]
                } else if (n > 1 && i == n - 1) || right_of_diamond {
                    vec![(ox, oy), (ox, my), (c + DIAMOND_HALF, my)]
                } else if (ox - c).abs() < 0.01 {
                    vec![(ox, oy), (c, merge_top)]
                } else {
                    vec![(ox, oy), (ox, oy + 5.0), (c, oy + 5.0), (c, merge_top)]
                };
                covering_for_compression(&mut items, |items| self.edge(items, &pts, tail.as_ref(), true));
            }
            t.place(x0, top, &mut items);
        }
        let h = if any_open {
            let md = self.diamond(None);
            self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, merge_top, None);
            merge_top + 2.0 * DIAMOND_HALF
        } else {
            bottom
        };
        self.normalize(items, c, (c, 0.0), (c, h), h, any_open, NO_REACH)
    }
}
