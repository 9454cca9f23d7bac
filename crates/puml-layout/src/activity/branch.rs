//! Placing `if … else … endif` and `elseif` chains.

use super::*;

/// `tile` moved `dy` down inside itself, its entry with it: the edge into
/// it runs longer, what follows comes `dy` later.
fn lowered_by(mut tile: Tile, dy: f64) -> Tile {
    for item in &mut tile.items {
        shift_item(item, 0.0, dy);
    }
    tile.h += dy;
    tile.in_y += dy;
    tile.out_y += dy;
    for span in &mut tile.spans {
        span.0 += dy;
        span.1 += dy;
    }
    if let Some(bottom) = &mut tile.frame_bottom {
        *bottom += dy;
    }
    tile
}

impl Ctx<'_> {
    /// `if … then … [else …] endif` without `elseif`. With both branches
    /// drawn, their labels stand on the diamond's side points, and PlantUML
    /// keeps a label's top as far under the edge coming in as an arrow's
    /// label (8.5 px plus its font's descent): a tall label (two lines, a
    /// large `ArrowFontSize`) lowers the diamond (probes deco_branch_label_*).
    pub(super) fn if_tile(
        &self,
        cond: Option<&str>,
        then_label: Option<&str>,
        then_seq: Option<&Seq<'_>>,
        otherwise: Option<&(Option<&str>, Seq<'_>)>,
        color: Option<&str>,
        depth: usize,
    ) -> Tile {
        let tile = self.if_tile_under_entry(cond, then_label, then_seq, otherwise, color, depth);
        let both = then_seq.is_some_and(|s| !s.nodes.is_empty()) && otherwise.is_some_and(|(_, s)| !s.nodes.is_empty());
        if !both {
            return tile;
        }
        let tallest = [then_label, otherwise.and_then(|(l, _)| *l)]
            .into_iter()
            .filter_map(|l| self.label(l))
            .map(|l| l.height)
            .fold(0.0, f64::max);
        let mid = self.diamond(cond).h / 2.0;
        // (The rows closed over labels of several lines may have lowered it
        // already: `lowered_under_branch_labels`; the larger drop holds.)
        let lead = self.label_drop() + tallest - (GAP + mid) - tile.in_y;
        if tallest > 0.0 && lead > 1e-6 {
            lowered_by(tile, lead)
        } else {
            tile
        }
    }

    fn if_tile_under_entry(
        &self,
        cond: Option<&str>,
        then_label: Option<&str>,
        then_seq: Option<&Seq<'_>>,
        otherwise: Option<&(Option<&str>, Seq<'_>)>,
        color: Option<&str>,
        depth: usize,
    ) -> Tile {
        let bypass_left = self.bypass_left.take();
        let rows_open = self.rows_uncompressed.take();
        let d = self.diamond(cond);
        let fill = color.and_then(parse_color);
        // One branch alone runs beside the bypass, which PlantUML spaces as
        // a one-row branch (`lone_body_extras`).
        let then_alone = otherwise.is_none_or(|(_, s)| s.nodes.is_empty());
        let else_alone = then_seq.is_none_or(|s| s.nodes.is_empty());
        let fork_extras = match (then_seq, otherwise) {
            (Some(t), Some((_, e))) if !then_alone && !else_alone => if_fork_extras(t, e, RANK_EXTRA),
            _ => None,
        };
        let (mut then_extra, mut else_extra) = fork_extras.unzip();
        if let (Some(extra), Some(t), Some((_, e))) = (self.loop_if_middle_extra.take(), then_seq, otherwise) {
            if then_extra.is_none() && else_extra.is_none() {
                (then_extra, else_extra) = loop_if_middle_extras(t, e, extra);
            }
        }
        // Two branches of plain actions and such `if`s are laid out as
        // PlantUML lays them out before its page-wide vertical compression
        // (35 px between tiles, a nested `if`'s branches 10 px under its
        // diamond), the outermost such `if` then closing the rows nothing
        // but lines covers: a gap of one branch stays open where the other
        // holds a shape or a head across it (probes `if_rows_*`: an `if`
        // in an `else` beside a longer `then` spaces both 69 px).
        let rows_uncompressed = !then_alone
            && !else_alone
            && then_extra.is_none()
            && else_extra.is_none()
            && then_seq.is_some_and(|s| rows_settle_in_compression(s, depth))
            && otherwise.is_some_and(|(_, s)| rows_settle_in_compression(s, depth));
        let closes_rows = rows_uncompressed && !self.if_rows_closed_outside.get();
        // A one-branch `if` in such branches runs its branch so too, beside
        // the bypass (probes `if_rows_lone_*`).
        let lone_uncompressed = self.if_rows_closed_outside.get()
            && (then_alone || else_alone)
            && then_seq.is_none_or(|s| s.nodes.is_empty() || rows_settle_in_compression(s, depth))
            && otherwise.is_none_or(|(_, s)| s.nodes.is_empty() || rows_settle_in_compression(s, depth));
        let was_closed_outside = self
            .if_rows_closed_outside
            .replace(self.if_rows_closed_outside.get() || rows_uncompressed);
        let uncompressed_extra = |s: &Seq<'_>| vec![UNCOMPRESSED_GAP - GAP; s.nodes.len().saturating_sub(1)];
        // (A loop in them leaves closing its rows to this `if`.)
        let was_loops_closed_outside = self
            .rows_closed_outside
            .replace(self.rows_closed_outside.get() || rows_uncompressed);
        let was_beside = self.beside_branch.replace(!then_alone && !else_alone);
        let lay_then = |s: &Seq<'_>, held: Vec<(f64, f64)>| {
            self.rows_held_beside.replace(held);
            let t = if rows_uncompressed || lone_uncompressed {
                self.layout_seq_spaced(s, depth, &uncompressed_extra(s))
            } else if then_alone {
                self.layout_lone_branch(s, depth)
            } else {
                let was = self.then_beside_else.replace(true);
                let t = self.layout_seq_beside_rows(s, depth, &then_extra.clone().unwrap_or_default());
                self.then_beside_else.set(was);
                t
            };
            self.rows_held_beside.take();
            if (!then_alone && !else_alone && first_has_note(s)) || first_is_frame(s) {
                t.lowered_under_reach()
            } else {
                t
            }
        };
        let lay_else = |s: &Seq<'_>, held: Vec<(f64, f64)>| {
            self.rows_held_beside.replace(held);
            let t = if rows_uncompressed || lone_uncompressed {
                self.layout_seq_spaced(s, depth, &uncompressed_extra(s))
            } else if else_alone {
                self.layout_lone_branch(s, depth)
            } else {
                let was = self.else_beside_then.replace(true);
                let t = self.layout_seq_beside_rows(s, depth, &else_extra.clone().unwrap_or_default());
                self.else_beside_then.set(was);
                t
            };
            self.rows_held_beside.take();
            if (!then_alone && !else_alone && first_has_note(s)) || first_is_frame(s) {
                t.lowered_under_reach()
            } else {
                t
            }
        };
        let mut then_t = then_seq.map_or_else(Tile::empty, |s| lay_then(s, Vec::new()));
        let mut else_t = otherwise.map_or_else(Tile::empty, |(_, s)| lay_else(s, Vec::new()));
        // A loop of actions opening one of two branches keeps open the rows
        // the other branch covers, as PlantUML's page-wide compression does
        // (probes `nested_note_loop_repeat_in_if_else_*`): laid out again
        // with them (once: such a loop holds no `if`). Only a branch of one
        // step covers the same rows before the compression as after it.
        let opens_with_loop = |s: &Seq<'_>| {
            s.nodes.first().is_some_and(|n| {
                matches!(&n.kind, Kind::While { body, .. } | Kind::Repeat { body, .. } if super::loops::rows_close_after(body))
            })
        };
        if !then_alone && !else_alone {
            let one_step = |s: Option<&Seq<'_>>| s.is_some_and(|s| s.nodes.len() == 1);
            if let Some(s) = then_seq.filter(|s| opens_with_loop(s) && one_step(otherwise.map(|(_, e)| e))) {
                then_t = lay_then(s, covered_rows(&else_t.items));
            } else if let Some((_, s)) = otherwise.filter(|(_, s)| opens_with_loop(s) && one_step(then_seq)) {
                else_t = lay_else(s, covered_rows(&then_t.items));
            }
        }
        self.beside_branch.set(was_beside);
        self.if_rows_closed_outside.set(was_closed_outside);
        self.rows_closed_outside.set(was_loops_closed_outside);
        let then_l = self.label(then_label);
        let else_l = self.label(otherwise.and_then(|(l, _)| *l));
        let mut items = Vec::new();
        let mid = d.h / 2.0;
        let lone_terminal = otherwise.is_some_and(|(_, s)| {
            s.nodes.len() == 1
                && s.nodes
                    .iter()
                    .all(|n| matches!(n.kind, Kind::Stop | Kind::End | Kind::Kill) && n.notes.is_empty())
        });
        // A `then` that only stops, or draws one shape and detaches, goes
        // beside the diamond too, the `else` going on below it (probes
        // `if_then_beside_*`, corpus activity 023, `kill_branch_*`).
        let lone_then = then_seq.is_some_and(lone_closed);
        let else_beside = lone_terminal && !then_t.is_empty();
        if else_beside || lone_then {
            let branches = LaidBranches {
                d,
                fill,
                then_t,
                else_t,
                then_l,
                else_l,
                then_seq,
                otherwise,
                rows_open,
                closes_rows,
            };
            return self.if_branch_beside(branches, items, (lone_then, else_beside));
        }
        if !then_t.is_empty() && !else_t.is_empty() {
            return self.two_branch_if(
                LaidBranches {
                    d,
                    fill,
                    then_t,
                    else_t,
                    then_l,
                    else_l,
                    then_seq,
                    otherwise,
                    rows_open,
                    closes_rows,
                },
                items,
            );
        }
        // One branch (or none): it runs straight down under the diamond,
        // the empty side bypasses it.
        // An empty `then` before an `else` runs as if the condition were
        // negated: the `else` branch goes down under the diamond with its
        // label, the bypass on the right carries the `then` label (probes
        // `if_rows_empty_then_*`).
        let main_is_else = then_t.is_empty() && !else_t.is_empty();
        let (main, main_l, side_l, side) = if main_is_else {
            (else_t, else_l, then_l, 1.0)
        } else if bypass_left {
            (then_t, then_l, else_l, -1.0)
        } else {
            (then_t, then_l, else_l, 1.0)
        };
        // A branch whose entry is off its axis (an `elseif` chain) hangs on
        // the diamond by its axis; the line turns to its entry 15 px above
        // it, 7.3 px lower than a straight branch starts (probes
        // `if_elseif_mid_d3_*`).
        let dogleg = !main.is_empty() && (main.anchor - main.in_x).abs() > 0.01;
        let main_axis = if dogleg { main.anchor } else { main.in_x };
        let c = main_axis.max(d.w / 2.0);
        let main_x = c - main_axis;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, fill);
        // A frame opening the branch lets the compression close the rows
        // above it (the line's head is inside, over its first step): 10 px
        // under the diamond, 8.9 under a label's block where that is less
        // than an action's room (measured with one to three lines of an
        // 11 pt label; probes `partition_mid_d3_*`, `lone_frame_*`).
        let main_seq = if main_is_else {
            otherwise.map(|(_, s)| s)
        } else {
            then_seq
        };
        let label_gap = if main_seq.is_some_and(first_is_frame) {
            main_l
                .as_ref()
                .map_or(MIN_UNCOVERED_ROWS, |l| label_room(l).min(l.height + 8.9))
        } else {
            main_l.as_ref().map_or(GAP, label_room)
        };
        let top = d.h + label_gap + if dogleg { LONE_DOGLEG_DROP } else { 0.0 };
        if !main.is_empty() {
            // The line into the branch (PlantUML draws it; probes `if_lone_*`).
            let (ix, iy) = (main_x + main.in_x, top + main.in_y);
            let st = self.stroke_for(None);
            if dogleg {
                let turn = top - 15.0;
                polyline(&mut items, &[(c, d.h), (c, turn), (ix, turn), (ix, iy)], st, true);
            } else {
                polyline(&mut items, &[(c, d.h), (ix, iy)], st, true);
            }
        }
        self.draw_label_at(&mut items, &main_l, c + LABEL_DX, d.h);
        let main_open = main.open;
        let main_empty = main.is_empty();
        let main_out = (main_x + main.out_x, top + main.out_y);
        let main_tail = main.tail.clone();
        let (mx0, mx1) = (main_x, main_x + main.w);
        let main_h = main.h;
        main.place(main_x, top, &mut items);
        let bottom = top + main_h;
        // Before the compression the merge stands as far under the branch
        // as the branch under the diamond (its label's room); the
        // compression closes that to 20 px unless rows beside hold it
        // (probes `if_rows_lone_after_step`).
        let merge_gap = if lone_uncompressed { label_gap.max(GAP) } else { GAP };
        let merge_top = if main_empty { top } else { bottom + merge_gap };
        let my = merge_top + DIAMOND_HALF;
        let corner = c + side * d.w / 2.0;
        let bx = if bypass_left {
            // (Beside the diamond: what the branch draws lies in other
            // lanes; probe `lanes_inner_if_then_wide`.)
            corner - LOOP_MARGIN
        } else {
            corner.max(mx1) + LOOP_MARGIN
        };
        let st = self.stroke_for(None);
        if !main_empty && !main_open {
            // The branch ends the flow: no merge, the bypass comes back to the
            // axis 22 px under it (probe `if_then_stops`).
            let turn = bottom + 22.0;
            polyline(
                &mut items,
                &[(corner, mid), (bx, mid), (bx, turn), (c, turn)],
                st,
                false,
            );
            mid_head(&mut items, bx, mid, turn, st);
            if side > 0.0 {
                self.draw_label_above(&mut items, &side_l, corner, mid);
            } else if let Some(l) = &side_l {
                self.draw_label_above(&mut items, &side_l, corner - l.width, mid);
            }
            let reach = (
                c - d.w / 2.0 - NUDE_PAD_LEFT,
                if side > 0.0 {
                    bx + NUDE_PAD_RIGHT
                } else {
                    f64::NEG_INFINITY
                },
            );
            return self.normalize(items, c, (c, 0.0), (c, turn), turn, true, reach);
        }
        polyline(
            &mut items,
            &[(corner, mid), (bx, mid), (bx, my), (c + side * DIAMOND_HALF, my)],
            st,
            true,
        );
        if lone_uncompressed {
            // (Before the compression, as on a loop's way back.)
            mid_head_tip(&mut items, bx, mid, my, st);
        } else {
            mid_head(&mut items, bx, mid, my, st);
        }
        if side > 0.0 {
            self.draw_label_above(&mut items, &side_l, corner, mid);
        } else if let Some(l) = &side_l {
            self.draw_label_above(&mut items, &side_l, corner - l.width, mid);
        }
        if main_empty {
            polyline(&mut items, &[(c, d.h), (c, merge_top)], st, true);
        } else if main_open {
            // The branch's line ends in a head on the merge's top, as
            // PlantUML draws it (the head holds the rows above the merge in
            // the vertical compression: probes `if_rows_lone_*`).
            let mut pts = vec![main_out, (main_out.0, merge_top)];
            if (main_out.0 - c).abs() > 1e-9 {
                pts.push((c, merge_top));
            }
            self.edge(&mut items, &pts, main_tail.as_ref(), true);
        }
        let md = self.diamond(None);
        self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, merge_top, None);
        if self.lane_marks.get() {
            // Its lane holds 9 px beside the diamond and 13 beyond the
            // bypass, on whichever side (probes `lanes_inner_if_then_*`).
            let (dl, dr) = (c - d.w / 2.0, c + d.w / 2.0);
            let lo = (dl - NUDE_PAD_LEFT).min(bx - LANE_BYPASS_ROOM);
            let hi = (dr + NUDE_PAD_LEFT).max(bx + LANE_BYPASS_ROOM);
            phantom_cover(&mut items, lo, hi + 2.0, 0.0);
        }
        let h = merge_top + 2.0 * DIAMOND_HALF;
        let reach = (
            // (A loop in the branch keeps its own room: probes
            // `nested_note_loop_*_in_if_*`.)
            (c - d.w / 2.0 - NUDE_PAD_LEFT).min(if main_empty { f64::INFINITY } else { mx0 }),
            if side > 0.0 {
                bx + NUDE_PAD_RIGHT
            } else {
                f64::NEG_INFINITY
            },
        );
        // PlantUML's frame around a lone `then` keeps 2 px left of the
        // branch (or starts at the diamond) and 6 px right of the bypass; a
        // longer branch label reaches 9 px into the frame's padding (probes
        // `if_lone_*_d4_*`).
        let framed = (side > 0.0 && !main_empty).then(|| {
            let drawn_right = items_x_range(&items).map_or(bx, |(_, hi)| hi);
            (
                (mx0 - IF_FRAME_ROOM).min(c - d.w / 2.0),
                (bx + 6.0).max(drawn_right - 9.0),
            )
        });
        let mut tile = self.normalize(items, c, (c, 0.0), (c, h), h, true, reach);
        if let Some((lo, hi)) = framed {
            let shift = c - tile.anchor;
            tile.frame = Some((lo - shift, hi - shift));
        }
        // (Beside the bypass, at most as low as before the compression.)
        lowered_under_branch_labels(tile, UNCOMPRESSED_GAP - GAP)
    }

    /// Shifts items so that the leftmost starts at 0 and makes the tile.
    pub(super) fn normalize(
        &self,
        mut items: Vec<Item>,
        anchor: f64,
        input: (f64, f64),
        output: (f64, f64),
        h: f64,
        open: bool,
        reach: (f64, f64),
    ) -> Tile {
        let (lo, hi) = items_x_range(&items).unwrap_or((0.0, 0.0));
        let lo = lo.min(anchor).min(reach.0);
        let hi = hi.max(anchor).max(reach.1);
        for item in &mut items {
            shift_item(item, -lo, 0.0);
        }
        Tile {
            items,
            w: hi - lo,
            h,
            anchor: anchor - lo,
            in_x: input.0 - lo,
            in_y: input.1,
            out_x: output.0 - lo,
            out_y: output.1,
            open,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
            frame_bottom: None,
        }
    }

    /// `if … elseif … [else …] endif`: diamonds in a row, each branch below
    /// its diamond, joined by one horizontal line at the bottom.
    pub(super) fn elseif_tile(
        &self,
        branches: &[(&str, Option<&str>, Seq<'_>)],
        otherwise: Option<&(Option<&str>, Seq<'_>)>,
        depth: usize,
    ) -> Tile {
        let mut items = Vec::new();
        struct Col {
            d: Option<Diamond>,
            label: Option<TextBlock>,
            tile: Tile,
            center: f64,
        }
        let mut cols: Vec<Col> = Vec::new();
        let mut x = 0.0;
        // Without an `else` body, the second step of every branch starts
        // as low as it would under the tallest branch label (PlantUML
        // 1.2026.8 lines the rows up after the first; probes
        // `elseif_no_else_label*`, corpus activity 029).
        let no_else = otherwise.is_none_or(|(_, s)| s.nodes.is_empty());
        let tallest_label = branches
            .iter()
            .filter_map(|(_, l, _)| self.label(*l))
            .map(|l| l.height)
            .fold(0.0, f64::max);
        // A shorter `else` stands on the rows of each longer branch: where
        // it falls half-way into a gap, that gap widens (as between `fork`
        // branches; probes `if_elseif_*` in `test-data/activity-probes`).
        let else_rows = otherwise.and_then(|(_, s)| step_rows(s));
        let else_row_count = else_rows.as_ref().map_or(0, |r| r.iter().sum::<usize>());
        let mut else_is_shorter = false;
        for (cond, label, seq) in branches {
            let d = self.diamond(Some(cond));
            let label = self.label(*label);
            let own_label = label.as_ref().map_or(0.0, |l| l.height);
            let rows = step_rows(seq);
            let longer_than_else =
                else_rows.is_some() && rows.as_ref().is_some_and(|r| r.iter().sum::<usize>() > else_row_count);
            let tile = if no_else && tallest_label > own_label {
                self.layout_seq_spaced(seq, depth, &[tallest_label - own_label])
            } else if let (true, Some(rows), Some(else_rows)) = (longer_than_else, &rows, &else_rows) {
                else_is_shorter = true;
                let extra = rank_extras(&[rows.clone(), else_rows.clone()], 0, RANK_EXTRA);
                self.layout_seq_spaced(seq, depth, &extra)
            } else {
                self.layout_seq(seq, depth)
            };
            let lw = label.as_ref().map_or(0.0, |l| l.width);
            let left = (d.w / 2.0).max(tile.in_x);
            let right = (d.w / 2.0).max(tile.w - tile.in_x).max(lw);
            let center = x + left;
            x = center + right + BRANCH_GAP;
            cols.push(Col {
                d: Some(d),
                label,
                tile,
                center,
            });
        }
        let else_label = self.label(otherwise.and_then(|(l, _)| *l));
        let else_tile = otherwise.map_or_else(Tile::empty, |(_, s)| self.layout_seq(s, depth));
        let last_corner = cols
            .last()
            .map_or(0.0, |c| c.center + c.d.as_ref().map_or(0.0, |d| d.w / 2.0));
        // The `else` column stands 10 px after the last branch, more by its
        // label's width up to 10 px (a longer label does not push it; probes
        // `elseif_else_*`).
        let else_lw = else_label.as_ref().map_or(0.0, |l| l.width);
        // A missing (or empty, unlabelled) `else` runs down 14 px after
        // the last branch (probes `elseif_no_else_*`).
        let bare_else = if else_tile.is_empty() && else_label.is_none() {
            4.0
        } else {
            0.0
        };
        let else_center =
            (x - BRANCH_GAP + FORK_GAP + bare_else + else_lw.min(10.0) + else_tile.in_x).max(last_corner + 10.0);
        // Where the flow leaves counts the `else` column 20 px after the
        // last branch, wherever it stands, and not its label.
        // Without an `else` PlantUML 1.2026.8 counts a 25.27 px column
        // there instead (probes `elseif_no_else_*`, corpus activity 029).
        let else_w = if else_tile.is_empty() {
            EMPTY_ELSE_W
        } else {
            else_tile.w
        };
        let nominal_right = (!cols.is_empty()).then(|| {
            let branches_right = cols
                .iter()
                .map(|c| c.center + c.d.as_ref().map_or(0.0, |d| d.w / 2.0).max(c.tile.w - c.tile.in_x))
                .fold(f64::NEG_INFINITY, f64::max);
            branches_right.max(x + else_w)
        });
        cols.push(Col {
            d: None,
            label: None,
            tile: else_tile,
            center: else_center,
        });
        let dh = cols
            .iter()
            .filter_map(|c| c.d.as_ref())
            .map(|d| d.h)
            .fold(24.0, f64::max);
        let mid = dh / 2.0;
        let first_center = cols.first().map(|c| c.center);
        let first_tile_left = cols
            .first()
            .filter(|c| !c.tile.is_empty())
            .map_or(f64::INFINITY, |c| c.center - c.tile.in_x);
        let first_left = cols
            .first()
            .map_or(0.0, |c| c.center - c.d.as_ref().map_or(0.0, |d| d.w / 2.0));
        // The bottom of a column's own diamond (centred on the row's
        // middle): its label hangs there and its branch starts 20 px below,
        // below the label if any (PlantUML 1.2026.8, a three-line `if`
        // beside a two-line `elseif`); the `else` column has no diamond.
        let diamond_bottom = |c: &Col| c.d.as_ref().map_or(dh, |d| (dh + d.h) / 2.0);
        // The `else` branch starts 23 px under the row, more by half the
        // tallest branch label.
        let label_h = cols
            .iter()
            .filter_map(|c| c.label.as_ref())
            .map(|l| l.height)
            .fold(0.0, f64::max);
        // A shorter `else` is centred on the tallest branch.
        let else_shift = if else_is_shorter {
            let tallest = cols
                .iter()
                .filter(|c| c.d.is_some())
                .map(|c| c.tile.h)
                .fold(0.0, f64::max);
            cols.last().map_or(0.0, |c| ((tallest - c.tile.h) / 2.0).max(0.0))
        } else {
            0.0
        };
        let top_of = |c: &Col| match c.d {
            Some(_) => diamond_bottom(c) + c.label.as_ref().map_or(GAP, |l| l.height + 20.0),
            None => dh + 23.0 + label_h / 2.0 + else_shift,
        };
        let st = self.stroke_for(None);
        // Diamonds and the arrows from one to the next.
        let mut prev_corner: Option<f64> = None;
        for col in &cols {
            match &col.d {
                Some(d) => {
                    let x0 = col.center - d.w / 2.0;
                    self.draw_diamond(&mut items, d, x0, (dh - d.h) / 2.0, None);
                    if let Some(pc) = prev_corner {
                        polyline(&mut items, &[(pc, mid), (x0, mid)], st, true);
                    }
                    prev_corner = Some(col.center + d.w / 2.0);
                    self.draw_label_at(&mut items, &col.label, col.center + LABEL_DX, diamond_bottom(col));
                }
                None => {
                    if let Some(pc) = prev_corner {
                        let t = &col.tile;
                        let end_y = if t.is_empty() { None } else { Some(top_of(col) + t.in_y) };
                        if let Some(ey) = end_y {
                            polyline(&mut items, &[(pc, mid), (col.center, mid), (col.center, ey)], st, true);
                        } else {
                            polyline(&mut items, &[(pc, mid), (col.center, mid)], st, false);
                        }
                        self.draw_label_above(&mut items, &else_label, pc, mid);
                    }
                }
            }
        }
        // Branches, then the join line.
        let bottom = cols.iter().map(|c| top_of(c) + c.tile.h).fold(dh + GAP, f64::max);
        let join = bottom + GAP;
        let mut open_axes = Vec::new();
        for col in cols {
            let top = top_of(&col);
            let below_diamond = diamond_bottom(&col);
            let t = col.tile;
            let x0 = col.center - t.in_x;
            if t.is_empty() {
                let from = if col.d.is_some() {
                    (col.center, below_diamond)
                } else {
                    (col.center, mid)
                };
                polyline(&mut items, &[from, (col.center, join)], st, true);
                open_axes.push(col.center);
                continue;
            }
            if col.d.is_some() {
                polyline(
                    &mut items,
                    &[(col.center, below_diamond), (col.center, top + t.in_y)],
                    st,
                    true,
                );
            }
            if t.open {
                let ox = x0 + t.out_x;
                self.edge(&mut items, &[(ox, top + t.out_y), (ox, join)], t.tail.as_ref(), true);
                open_axes.push(ox);
            }
            t.place(x0, top, &mut items);
        }
        let open = !open_axes.is_empty();
        let (lo, hi) = open_axes
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
        // The flow leaves from the middle of the whole block, from the
        // first diamond's corner to the widest branch's edge (PlantUML
        // 1.2026.8), clamped to the join line.
        // The block's left edge there is the first branch's, where it is
        // wider than its diamond, when an `else` closes the chain (probes
        // `if_elseif_{mid,long}_*`; without one the diamond's, probes
        // `elseif_no_else_*`).
        let flow_left = if no_else {
            first_left
        } else {
            first_left.min(first_tile_left)
        };
        let block_mid = match nominal_right {
            Some(right) if lo <= hi => Some(((flow_left + right) / 2.0).clamp(lo, hi)),
            _ => items_x_range(&items).map(|(a, b)| ((a + b) / 2.0).clamp(lo, hi)),
        };
        let out_x = if open {
            block_mid.unwrap_or((lo + hi) / 2.0)
        } else {
            0.0
        };
        if open && hi > lo {
            polyline(&mut items, &[(lo, join), (hi, join)], st, false);
        }
        let in_x = first_center.unwrap_or(out_x);
        let drawn_lo = items_x_range(&items).map_or(first_left, |r| r.0);
        let mut tile = self.normalize(
            items,
            out_x,
            (in_x, 0.0),
            (out_x, join),
            if open { join } else { bottom },
            open,
            (first_left - NUDE_PAD_LEFT, f64::NEG_INFINITY),
        );
        // A partition's frame starts at the first diamond, and the chain
        // reaches 10 px above it (probes `if_elseif_*_d4_*`).
        let shift = out_x - tile.anchor;
        tile.frame = Some((drawn_lo.min(first_left) - shift, tile.w));
        tile.head_room = ELSEIF_HEAD_ROOM;
        tile
    }
}

/// Moves an `if` down under branch labels of more than one line beside
/// its diamond: PlantUML's vertical compression closes the rows above the
/// diamond down to 10 px over the labels' top, which thus stand the
/// diamond 4.7 px lower for two lines of 11 pt, 12.8 px more a line
/// (probes `if_rows_label_lines_*`, `activity-wild/find-multiline-guard-activity`);
/// a one-branch `if` by `at_most` (15 px).
fn lowered_under_branch_labels(tile: Tile, at_most: f64) -> Tile {
    let top = covered_rows(&tile.items).iter().map(|r| r.0).fold(0.0, f64::min);
    let drop = (-top - MIN_UNCOVERED_ROWS).min(at_most);
    if drop > 1e-6 {
        lowered_by(tile, drop)
    } else {
        tile
    }
}

/// A branch with an `if` (of one `then`, not empty) among its steps.
fn holds_if(seq: &Seq<'_>) -> bool {
    seq.nodes.iter().any(|n| {
        matches!(&n.kind, Kind::If { branches, otherwise, .. }
            if branches.len() == 1 && (otherwise.as_ref().is_some_and(|(_, b)| !b.nodes.is_empty())
                || branches.iter().all(|(_, _, b)| !b.nodes.is_empty())))
    })
}

/// Whether PlantUML's vertical compression alone sets the rows of a
/// branch beside another (`Ctx::if_tile`): plain actions, `if`s of such
/// branches and a `stop` after them, without notes or written arrows.
fn rows_settle_in_compression(seq: &Seq<'_>, depth: usize) -> bool {
    !seq.nodes.is_empty()
        && depth < MAX_DEPTH
        && seq.tail.is_none()
        && seq.nodes.iter().enumerate().all(|(i, n)| {
            n.notes.is_empty()
                && n.arrow.is_none()
                && match &n.kind {
                    Kind::Action(_) => true,
                    // A `stop` ending the branch (not on a loop's exit).
                    Kind::Stop | Kind::End => {
                        i + 1 == seq.nodes.len() && i > 0 && !matches!(seq.nodes[i - 1].kind, Kind::While { .. })
                    }
                    // A loop of actions after a step, laid out before the
                    // compression too (`Ctx::while_tile`; probes
                    // `if_rows_else_while_*`); one opening the branch only
                    // when its steps carry notes (`nested_note_loop_while_*`),
                    // else it keeps its own room beside the other
                    // (`while_*_beside_*`).
                    Kind::While { body, .. } => {
                        (i > 0 || body.nodes.iter().any(|n| !n.notes.is_empty()))
                            && super::loops::rows_close_after(body)
                    }
                    Kind::If {
                        branches, otherwise, ..
                    } => match (branches.as_slice(), otherwise) {
                        // (Nested, one branch may be empty: the other runs
                        // beside the bypass, whose head holds rows.)
                        ([(_, _, then_seq)], otherwise) => {
                            let else_seq = otherwise.as_ref().map(|(_, s)| s);
                            let settles = |s: &Seq<'_>| s.nodes.is_empty() || rows_settle_in_compression(s, depth + 1);
                            settles(then_seq)
                                && else_seq.is_none_or(settles)
                                && !(then_seq.nodes.is_empty() && else_seq.is_none_or(|s| s.nodes.is_empty()))
                        }
                        _ => false,
                    },
                    _ => false,
                }
        })
}

/// Whether a branch starts with a step that has a note.
/// A branch that starts with a two-branch `if`.
fn first_is_if(seq: &Seq<'_>) -> bool {
    seq.nodes.first().is_some_and(|n| {
        matches!(&n.kind, Kind::If { branches, otherwise, .. }
            if branches.len() == 1 && otherwise.as_ref().is_some_and(|(_, b)| !b.nodes.is_empty()))
    })
}

/// How close PlantUML's compression brings a frame to the diamond above.
const MIN_UNCOVERED_ROWS: f64 = 10.0;

/// A branch that starts with a partition or group: PlantUML starts the
/// frame at the branch's top, where a frame further down a sequence
/// reaches 10 px into the gap above it (probes `if_partition_first_*`).
pub(super) fn first_is_frame(seq: &Seq<'_>) -> bool {
    seq.nodes
        .first()
        .is_some_and(|n| matches!(n.kind, Kind::Container { .. }))
}

fn first_has_note(seq: &Seq<'_>) -> bool {
    seq.nodes.first().is_some_and(|n| !n.notes.is_empty())
}

/// How far under its end the branch beside a `break` turns toward the
/// block's middle (PlantUML's if without a second way out).
pub(super) const BREAK_TURN: f64 = 5.0;

/// Whether a branch does nothing but break out of its loop.
fn only_breaks(seq: &Seq<'_>) -> bool {
    matches!(seq.nodes.as_slice(), [Node { kind: Kind::Break, .. }])
}

/// Whether a branch ends by breaking out of its loop.
fn ends_breaking(seq: &Seq<'_>) -> bool {
    matches!(seq.nodes.last(), Some(Node { kind: Kind::Break, .. }))
}

/// An `if`'s diamond and branches as `Ctx::if_tile` has laid them out.
struct LaidBranches<'t, 's> {
    d: Diamond,
    fill: Option<Color>,
    then_t: Tile,
    else_t: Tile,
    then_l: Option<TextBlock>,
    else_l: Option<TextBlock>,
    then_seq: Option<&'t Seq<'s>>,
    otherwise: Option<&'t (Option<&'s str>, Seq<'s>)>,
    /// The rows stay as before the compression (a block around closes them).
    rows_open: bool,
    /// This `if` closes the rows only lines cross (the outermost settled one).
    closes_rows: bool,
}

impl Ctx<'_> {
    /// Both branches side by side under the diamond, joined at the merge.
    fn two_branch_if(&self, branches: LaidBranches<'_, '_>, mut items: Vec<Item>) -> Tile {
        let LaidBranches {
            d,
            fill,
            then_t,
            else_t,
            then_l,
            else_l,
            then_seq,
            otherwise,
            rows_open,
            closes_rows,
        } = branches;
        let mid = d.h / 2.0;
        // Both branches side by side, the diamond centered between their axes.
        let then_x = 0.0;
        // An `else` that opens with another `if` keeps that if's room
        // (10 px beside its branches, which the compression closes
        // elsewhere but the outer if's lines hold here; corpus activity
        // 025/026, probes `if_nested_else_*`).
        // So does one further down either branch, where it reaches as
        // far towards the other branch as anything there (its frame's
        // room, probes `if_rows_*`: after an action in the `else`, or
        // in the `then`); `if`s on the `else`'s left edge, one in
        // another's branch, each keep theirs (the outer one's frame
        // reaches past the inner one's: probes `if_rows_else_*if*`).
        let else_drawn_lo = items_x_range(&else_t.items).map_or(0.0, |r| r.0);
        let nested_room = if otherwise.is_some_and(|(_, s)| first_is_if(s)) {
            (else_drawn_lo - else_t.framed().0).max(NESTED_IF_ROOM)
        } else if otherwise.is_some_and(|(_, s)| holds_if(s)) {
            (else_drawn_lo - else_t.framed().0).max(0.0)
        } else {
            0.0
        } + if then_seq.is_some_and(holds_if) {
            let drawn_hi = items_x_range(&then_t.items).map_or(then_t.w, |r| r.1);
            (then_t.framed().1 - drawn_hi).clamp(0.0, NESTED_IF_ROOM)
        } else {
            0.0
        };
        // The room an `else`'s tile keeps left of what it draws (a
        // loop's) lies between the branches, where the compression
        // closes it (probes `nested_note_loop_repeat_in_else_*`).
        // (A `while` there keeps it: `while_else_beside_then_*`.)
        let else_opens_with_while = otherwise
            .and_then(|(_, s)| s.nodes.first())
            .is_some_and(|n| matches!(n.kind, Kind::While { .. }));
        let else_room = if else_opens_with_while {
            0.0
        } else {
            items_x_range(&else_t.items).map_or(0.0, |r| r.0.max(0.0))
        };
        // So is the room a `while` opening the `then` keeps right of its
        // way back (probes `nested_note_loop_while_in_if_else_*`).
        let then_opens_with_while = then_seq
            .and_then(|s| s.nodes.first())
            .is_some_and(|n| matches!(n.kind, Kind::While { .. }));
        // (Its way back's head does not count: probes `while_then_beside_else_*`.)
        let then_room = if then_opens_with_while {
            super::loops::drawn_right(&then_t.items).map_or(0.0, |r| (then_t.w - r).max(0.0))
        } else {
            0.0
        };
        // A `while` in the `else` hangs its exit label left of its
        // diamond outside PlantUML's dimension of the loop, which
        // starts 12 px left of its exit line: the label reaches over the
        // gap between the branches (probes `if_rows_else_while_*`,
        // `activity-wild/edit-applicants-activity`).
        let else_holds_while =
            otherwise.is_some_and(|(_, s)| s.nodes.iter().any(|n| matches!(n.kind, Kind::While { .. })));
        // (One opening the `else` keeps its room instead, above.)
        let exit_label_out = if else_holds_while && !else_opens_with_while {
            let dimension_lo = else_t
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Text(_) => None,
                    Item::Line { .. } => item_x_range(item).map(|r| r.0 - LOOP_MARGIN),
                    _ => item_x_range(item).map(|r| r.0),
                })
                .reduce(f64::min);
            let drawn_lo = items_x_range(&else_t.items).map(|r| r.0);
            match (dimension_lo, drawn_lo) {
                (Some(dim), Some(drawn)) => dim - drawn.max(0.0),
                _ => 0.0,
            }
        } else {
            0.0
        };
        let mut gap = BRANCH_GAP + nested_room - else_room - then_room - exit_label_out;
        let ta = then_x + then_t.in_x;
        let mut ea = then_t.w + gap + else_t.in_x;
        let need = d.w + 2.0 * 10.0;
        if ea - ta < need {
            gap += need - (ea - ta);
            ea = then_t.w + gap + else_t.in_x;
        }
        let c = (ta + ea) / 2.0;
        let else_x = then_t.w + gap;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, fill);
        let uncompressed = rows_open;
        let top = d.h + if uncompressed { 20.0 } else { 10.0 };
        let then_stroke = self.stroke_for(None);
        // A branch that only breaks out of its loop takes no head: its
        // line goes on to the loop's exit (probes `break_*`).
        let then_breaks = then_seq.is_some_and(only_breaks);
        let else_breaks = otherwise.is_some_and(|(_, s)| only_breaks(s));
        polyline(
            &mut items,
            &[(c - d.w / 2.0, mid), (ta, mid), (ta, top + then_t.in_y)],
            then_stroke,
            !then_breaks,
        );
        polyline(
            &mut items,
            &[(c + d.w / 2.0, mid), (ea, mid), (ea, top + else_t.in_y)],
            then_stroke,
            !else_breaks,
        );
        if let Some(l) = &then_l {
            self.draw_label_above(&mut items, &then_l, c - d.w / 2.0 - l.width, mid);
        }
        self.draw_label_above(&mut items, &else_l, c + d.w / 2.0, mid);
        let bottom = top + then_t.h.max(else_t.h);
        // A note hanging below the only open branch's end counts there.
        let open_reach = [&then_t, &else_t]
            .iter()
            .filter(|t| t.open)
            .map(|t| top + t.h + t.overhang)
            .fold(bottom, f64::max);
        let content_hi = else_x + else_t.w;
        // (An `if` holding `if`s on its left edge keeps their room too.)
        let then_frame_lo = then_t.framed().0.min(0.0);
        let else_frame_beyond = (else_t.framed().1 - else_t.w).max(0.0);
        let branches = [(then_t, then_x, -1.0), (else_t, else_x, 1.0)];
        let any_open = branches.iter().any(|(t, ..)| t.open);
        let merge_gap = if uncompressed { 10.0 } else { 6.0 };
        let my = bottom + merge_gap + DIAMOND_HALF;
        let mut outs = Vec::new();
        for (t, x, side) in branches {
            if t.open {
                outs.push((x + t.out_x, top + t.out_y, side, t.tail.clone()));
            }
            t.place(x, top, &mut items);
        }
        let mut h = bottom;
        // With one branch left open PlantUML draws no merge: that branch
        // goes on down to the block's bottom (probes `if_else_stops*`, corpus activity 023).
        // Beside a branch that breaks out, it turns 5 px under its end to
        // leave from under the diamond (probes `break_*`).
        let breaks_beside = then_seq.is_some_and(ends_breaking) || otherwise.is_some_and(|(_, s)| ends_breaking(s));
        if let ([(ox, oy, _, tail)], true) = (outs.as_slice(), breaks_beside) {
            let turn = *oy + BREAK_TURN;
            self.edge(&mut items, &[(*ox, *oy), (*ox, turn), (c, turn)], tail.as_ref(), false);
            // PlantUML's room beyond the branches holds the loop's way
            // out 10 px further left, unless that way goes straight
            // down from a `then` that breaks.
            if !then_seq.is_some_and(ends_breaking) {
                phantom_cover(&mut items, then_x - IF_FRAME_ROOM, content_hi + IF_FRAME_ROOM, mid);
            }
            let tail = tail.clone();
            let mut tile = self.normalize(items, c, (c, 0.0), (c, *oy), *oy, true, NO_REACH);
            tile.tail = tail;
            tile.frame = Some((-IF_FRAME_ROOM, tile.w + IF_FRAME_ROOM));
            return tile;
        }
        if let [(ox, oy, _, tail)] = outs.as_slice() {
            let bottom = open_reach;
            let out = (*ox, bottom);
            if bottom > *oy {
                self.edge(&mut items, &[(*ox, *oy), out], tail.as_ref(), false);
            }
            let tail = tail.clone();
            let map = closes_rows.then(|| close_uncovered_rows(&mut items, &[]));
            let (out, bottom) = match map.filter(|m| !m.is_identity()) {
                Some(map) => ((out.0, map.apply(out.1)), map.apply(bottom)),
                None => (out, bottom),
            };
            let mut tile = self.normalize(items, c, (c, 0.0), out, bottom, true, NO_REACH);
            tile.tail = tail;
            return lowered_under_branch_labels(tile, f64::INFINITY);
        }
        if any_open {
            let md = self.diamond(None);
            self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, bottom + merge_gap, None);
            for (ox, oy, side, tail) in outs {
                self.edge(
                    &mut items,
                    &[(ox, oy), (ox, my), (c + side * DIAMOND_HALF, my)],
                    tail.as_ref(),
                    true,
                );
            }
            h = bottom + merge_gap + 2.0 * DIAMOND_HALF;
        }
        // (The `then` branch keeps the room its tile holds left of what
        // it draws: a loop's, probes `nested_note_loop_repeat_in_if_else_*`.)
        let reach = (then_x, f64::NEG_INFINITY);
        if closes_rows {
            let map = close_uncovered_rows(&mut items, &[]);
            if !map.is_identity() {
                h = map.apply(h);
            }
        }
        let mut tile = self.normalize(items, c, (c, 0.0), (c, h), h, any_open, reach);
        // PlantUML's frame keeps room beyond the branches on either side
        // (`IF_FRAME_ROOM`, closed to 2 px by the compression where
        // nothing else holds it).
        tile.frame = Some((
            then_frame_lo - IF_FRAME_ROOM,
            tile.w + else_frame_beyond + IF_FRAME_ROOM,
        ));
        // The branch labels beside the diamond widen PlantUML's
        // dimension only where they reach past that room (probes
        // `fork_row_if_*`: a fork centres its flow on it).
        let shift = c - tile.anchor;
        let content = (then_x.min(c - d.w / 2.0), content_hi.max(c + d.w / 2.0));
        let label_lo = then_l.as_ref().map_or(content.0, |l| c - d.w / 2.0 - l.width);
        let label_hi = else_l.as_ref().map_or(content.1, |l| c + d.w / 2.0 + l.width);
        let dim = (
            content.0.min(label_lo + IF_FRAME_ROOM),
            content.1.max(label_hi - IF_FRAME_ROOM),
        );
        if (dim.0 - shift).abs() > 0.01 || (dim.1 - shift - tile.w).abs() > 0.01 {
            tile.dimension = Some((dim.0 - shift, dim.1 - shift));
        }
        lowered_under_branch_labels(tile, f64::INFINITY)
    }
}

impl Ctx<'_> {
    /// A `then` that only stops (or draws one shape and detaches) beside the
    /// diamond, or an `else` that does beside a `then`: `(lone_then,
    /// else_beside)` say which (either or both).
    fn if_branch_beside(
        &self,
        branches: LaidBranches<'_, '_>,
        mut items: Vec<Item>,
        (lone_then, else_beside): (bool, bool),
    ) -> Tile {
        let LaidBranches {
            d,
            fill,
            then_t,
            else_t,
            then_l,
            else_l,
            then_seq,
            otherwise,
            ..
        } = branches;
        let mid = d.h / 2.0;
        let (main_t, main_l, side_t, side_l) = if else_beside {
            (then_t, then_l, else_t, else_l)
        } else {
            (else_t, else_l, then_t, then_l)
        };
        let c = main_t.in_x.max(d.w / 2.0);
        let main_x = c - main_t.in_x;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, fill);
        self.draw_label_at(&mut items, &main_l, c + LABEL_DX, d.h);
        let corner = c + d.w / 2.0;
        // Without a label a stop's left edge stands 20 px past the
        // corner; PlantUML moves a shape of another width by half the
        // difference (probes `if_then_beside_*`: a connector 1 px left,
        // an action right), a wide one by 9 px at most.
        // Under a label PlantUML starts the shape the label's width plus
        // half its own past the corner, or its whole width if more; the
        // compression then closes what the label and the arrow's head
        // leave open to 10 px, unless something else holds it
        // (probes `detach_branch_short_d1_wide`, `kill_branch_*`).
        let tx = match &side_l {
            Some(l) => corner + (l.width + side_t.w / 2.0).max(side_t.w),
            None => corner + GAP + ((side_t.w - 22.0) / 2.0).min(9.0),
        };
        let st = self.stroke_for(None);
        // An arrow written before the side shape styles the line to it.
        let side_seq = if else_beside {
            otherwise.map(|(_, s)| s)
        } else {
            then_seq
        };
        let side_arrow = side_seq.and_then(|s| s.nodes.first()).and_then(|n| n.arrow);
        polyline(
            &mut items,
            &[(corner, mid), (tx, mid)],
            self.stroke_for(side_arrow),
            true,
        );
        self.draw_label_above(&mut items, &side_l, corner, mid);
        let eh = side_t.h;
        side_t.place(tx, mid - eh / 2.0, &mut items);
        if main_t.is_empty() {
            // The flow leaves the diamond's bottom, under its label and
            // the side shape; the diamond keeps 9 px of room left.
            let below_label = d.h
                + main_l
                    .as_ref()
                    .and_then(|l| l.lines.first())
                    .map_or(0.0, |l| l.ascent + 1.5);
            let h = below_label.max(mid + eh / 2.0);
            if h > d.h {
                polyline(&mut items, &[(c, d.h), (c, h)], st, false);
            }
            let left_room = (c - d.w / 2.0 - REPEAT_LEFT_ROOM, f64::NEG_INFINITY);
            let mut tile = self.normalize(items, c, (c, 0.0), (c, h), h, true, left_room);
            // A partition's frame starts 1 px left of the diamond
            // (probes `detach_branch_*_d4_*`).
            let shift = c - tile.anchor;
            tile.frame = Some((c - d.w / 2.0 - 1.0 - shift, tile.w + IF_FRAME_ROOM));
            return tile;
        }
        // Under a `then` beside the diamond, an unlabelled `else` keeps
        // 4 px more room, and the diamond 9 px on its left, as when the
        // `else` is empty (probes `kill_branch_*`).
        let unlabelled_room = if lone_then { GAP + 4.0 } else { GAP };
        let top = d.h + main_l.as_ref().map_or(unlabelled_room, label_room);
        polyline(&mut items, &[(c, d.h), (c, top + main_t.in_y)], st, true);
        let (out, open, tail, th) = (
            (main_x + main_t.out_x, top + main_t.out_y),
            main_t.open,
            main_t.tail.clone(),
            main_t.h,
        );
        let main_left = main_x + items_x_range(&main_t.items).map_or(0.0, |r| r.0);
        main_t.place(main_x, top, &mut items);
        let h = top + th;
        let reach = if lone_then {
            (c - d.w / 2.0 - REPEAT_LEFT_ROOM, f64::NEG_INFINITY)
        } else {
            NO_REACH
        };
        let mut tile = self.normalize(items, c, (c, 0.0), out, h, open, reach);
        tile.tail = tail;
        // A partition's frame starts 2 px left of the branch below or
        // 1 px left of the diamond (probes `kill_branch_*_d4_*`).
        let shift = c - tile.anchor;
        let framed_lo = (main_left - IF_FRAME_ROOM).min(c - d.w / 2.0 - 1.0);
        tile.frame = Some((framed_lo - shift, tile.w + IF_FRAME_ROOM));
        tile
    }
}
