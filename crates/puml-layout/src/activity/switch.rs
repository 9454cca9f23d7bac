//! Placing `switch … case … endswitch`.

use super::*;

/// The arm from a `switch` diamond's corner to its outer cases when the
/// diamond is wider than the room between them (PlantUML's big-diamond mode).
const SWITCH_MIN_ARM: f64 = 15.0;
/// The detour to a last case left of the diamond's right point: this far
/// out and down; its label's top this far above the diamond's middle.
const DETOUR_ARM: f64 = 12.0;
const DETOUR_LABEL_RISE: f64 = 6.405;
/// How much lower the labels of cases spread apart for the arms hang.
const SPREAD_LABEL_DROP: f64 = 5.69;

impl Ctx<'_> {
    pub(super) fn switch_tile(&self, condition: &str, cases: &[(CaseLabel<'_>, Seq<'_>)], depth: usize) -> Tile {
        let d = self.diamond(Some(condition));
        let mut items = Vec::new();
        let mut cols = Vec::new();
        let mut lh: f64 = 0.0;
        // A space is as wide as "x x" is wider than "xx" in the label's font.
        let space = self.text("x x", self.style.arrow_font).width - self.text("xx", self.style.arrow_font).width;
        // Each case's room: left of its axis what its tile draws, right of
        // it its tile or its label (with the spaces written around it).
        let mut halves = Vec::new();
        for ((label, (before, after)), seq) in cases {
            // A case starts under a tall note centred on its first step, as
            // an `if` branch does (probes `switch_note_last_tall`).
            let t = self.layout_seq(seq, depth).lowered_under_reach();
            let l = self.label(Some(label));
            // The label starts after its leading spaces, right of the case's
            // line; its spaces count in the column's width.
            let lead = *before as f64 * space;
            let trail = *after as f64 * space;
            let lw = l.as_ref().map_or(0.0, |l| lead + l.width + trail);
            lh = lh.max(l.as_ref().map_or(0.0, |l| l.height));
            let left = t.in_x.max(4.0);
            let right = (t.w - t.in_x).max(lw).max(4.0);
            halves.push((left, right));
            cols.push((t, l, 0.0, lead, trail));
        }
        if cols.is_empty() {
            return self.if_tile(Some(condition), None, None, None, None, depth);
        }
        // PlantUML (`FtileSwitchWithDiamonds`) compares the room the diamond
        // leaves between the outer cases' inner halves with the middle
        // cases' widths: where the diamond is wider, the outer cases hang
        // from two 15 px arms and the middle ones share the rest evenly
        // (the "big diamond" mode, which also starts the cases half a
        // diamond lower); otherwise the cases stand 20 px apart, the
        // diamond over their middle. The page-wide compression then closes
        // what nothing covers to 10 px (probes `switch_*`,
        // `test-data/activity-layout/switch_*`).
        let n = cols.len();
        let width = |(l, r): (f64, f64)| l + r;
        let inner = d.w - halves[0].1 - halves[n - 1].0;
        let middle: f64 = halves[1..n.saturating_sub(1).max(1)].iter().map(|h| width(*h)).sum();
        let big_diamond = n > 1 && inner > middle;
        let c = if big_diamond {
            let share = (inner - middle) / (n - 1) as f64;
            let mut x = 0.0;
            for (i, h) in halves.iter().enumerate().take(n - 1) {
                cols[i].2 = x + h.0;
                x += width(*h) + share;
            }
            cols[n - 1].2 = width(halves[0]) + inner + 2.0 * SWITCH_MIN_ARM + halves[n - 1].0;
            halves[0].0 + SWITCH_MIN_ARM + d.w / 2.0
        } else {
            let mut x = 0.0;
            for (i, h) in halves.iter().enumerate() {
                cols[i].2 = x + h.0;
                x += width(*h) + BRANCH_GAP;
            }
            (x - BRANCH_GAP) / 2.0
        };
        let mid = d.h / 2.0;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, None);
        // Cases spread apart for the arms hang their labels 5.7 px lower and
        // start 7.2 px lower (8.2 with a middle case, whose label hangs 1 px
        // lower still; PlantUML 1.2026.8, probes `switch_two_short_*`).
        let spread = big_diamond && lh > 0.0;
        let label_drop = if spread { SPREAD_LABEL_DROP } else { 0.0 };
        // Without labels the cases start 20 px under the diamond (probes
        // `test-data/activity-layout/switch_no_labels*`).
        let top = d.h
            + if lh > 0.0 { (lh + 22.8).max(GAP) } else { GAP }
            + if spread {
                SPREAD_LABEL_DROP + 1.5 + if cols.len() > 2 { 1.0 } else { 0.0 }
            } else {
                0.0
            };
        let st = self.stroke_for(None);
        let bottom = cols.iter().map(|(t, ..)| top + t.h).fold(top, f64::max);
        // A middle case right of the diamond's right point leaves that
        // point like the last case, and joins the merge's right point
        // (probes `switch_mid_*` in `test-data/activity-probes`).
        let right_of_diamond = |i: usize, center: f64| n > 2 && i > 0 && i < n - 1 && center > c + d.w / 2.0;
        // The last case standing left of the diamond's right point (its
        // column widened by a note beside it) is reached by a detour: out
        // 12 px right of that point, down 12 px under the diamond, back
        // left to its axis; its label stands beside the way down, and it
        // joins the merge from above when it ends over it (probes
        // `switch_note_last_*`).
        let detour = |i: usize, center: f64| n > 1 && i == n - 1 && center < c + d.w / 2.0;
        let joins_from_above = |i: usize, center: f64, t: &Tile| {
            detour(i, center) && (center - t.in_x + t.out_x - c).abs() <= DIAMOND_HALF
        };
        // The merge stands 10 px under the cases when every one joins it
        // from a side, 20 px when one comes down into its top.
        let into_top = cols.iter().enumerate().any(|(i, (t, _, center, _, _))| {
            t.open
                && (n == 1 || (i > 0 && i < n - 1 && !right_of_diamond(i, *center)) || joins_from_above(i, *center, t))
        });
        let merge_top = bottom + if into_top { GAP } else { GAP / 2.0 };
        let my = merge_top + DIAMOND_HALF;
        let mut any_open = false;
        for (i, (t, l, center, lead, trail)) in cols.into_iter().enumerate() {
            let ty = top + t.in_y;
            let right_of_diamond = right_of_diamond(i, center);
            let detour = detour(i, center);
            let from_above = t.open && joins_from_above(i, center, &t);
            let arm = c + d.w / 2.0 + DETOUR_ARM;
            let pts: Vec<(f64, f64)> = if detour {
                vec![
                    (c + d.w / 2.0, mid),
                    (arm, mid),
                    (arm, d.h + DETOUR_ARM),
                    (center, d.h + DETOUR_ARM),
                    (center, ty),
                ]
            } else if n > 1 && i == 0 {
                vec![(c - d.w / 2.0, mid), (center, mid), (center, ty)]
            } else if (n > 1 && i == n - 1) || right_of_diamond {
                vec![(c + d.w / 2.0, mid), (center, mid), (center, ty)]
            } else if (center - c).abs() < 0.01 {
                vec![(c, d.h), (center, ty)]
            } else {
                vec![(c, d.h), (c, d.h + 12.0), (center, d.h + 12.0), (center, ty)]
            };
            polyline(&mut items, &pts, st, true);
            // A middle case's label hangs 1 px lower, from the left end of
            // its line's turn (probes `switch_*`).
            let middle_case = n > 1 && i > 0 && i < n - 1;
            let (lx, ly) = if detour {
                (arm + LABEL_DX + lead, mid - DETOUR_LABEL_RISE)
            } else if right_of_diamond {
                (center + lead, d.h + 0.4 + label_drop)
            } else if middle_case {
                (center.min(c) + lead, d.h + 6.4 + label_drop)
            } else {
                (center + lead, d.h + 5.4 + label_drop)
            };
            self.draw_label_at(&mut items, &l, lx, ly);
            // The label's spaces after it hold the next case off too.
            if let (Some(l), true) = (&l, trail > 0.0) {
                let end = lx + l.width;
                phantom_cover(&mut items, end, end + trail, ly);
            }
            let x0 = center - t.in_x;
            if t.open {
                any_open = true;
                let ox = x0 + t.out_x;
                let oy = top + t.out_y;
                let tail = t.tail.clone();
                let pts: Vec<(f64, f64)> = if from_above {
                    vec![(ox, oy), (ox, merge_top)]
                } else if n > 1 && i == 0 {
                    vec![(ox, oy), (ox, my), (c - DIAMOND_HALF, my)]
                } else if (n > 1 && i == n - 1) || right_of_diamond {
                    vec![(ox, oy), (ox, my), (c + DIAMOND_HALF, my)]
                } else if (ox - c).abs() < 0.01 {
                    vec![(ox, oy), (c, merge_top)]
                } else {
                    vec![(ox, oy), (ox, oy + 5.0), (c, oy + 5.0), (c, merge_top)]
                };
                self.edge(&mut items, &pts, tail.as_ref(), true);
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
