//! Placing `while` and `repeat` loops.

use super::*;

impl Ctx<'_> {
    pub(super) fn while_tile(
        &self,
        condition: &str,
        label: Option<&str>,
        body: &Seq<'_>,
        end_label: Option<&str>,
        depth: usize,
        exit: Option<Tile>,
    ) -> Tile {
        let d = self.diamond(Some(condition));
        let is_l = self.label(label);
        // The `is` label's first line sets the room above the body and what
        // an even body's middle gap gains (probes `while_label_*`: the same
        // for one or two lines, 10 to 16 pt).
        let is_line = is_l
            .as_ref()
            .and_then(|l| l.lines.first())
            .map(|l| (l.ascent, l.height));
        let then_beside_else = self.then_beside_else.take();
        let else_beside_then = self.else_beside_then.take();
        let middle_extra = match is_line {
            Some((_, h)) if !then_beside_else => (RANK_EXTRA + 0.5 - h / 2.0).max(0.0),
            _ => RANK_EXTRA,
        };
        let held = self.rows_held_beside.take();
        let was_inside = self.inside_while_or_if.replace(true);
        // A loop of actions and loops of them (outside another loop or an
        // `if`, or inside an `if` when its steps carry notes) is laid out
        // as PlantUML lays it out before its page-wide vertical
        // compression, then closes the rows nothing covers (as a noted
        // `repeat`): notes beside the steps (probes `loop_notes_while_*`),
        // a `stop` on the exit line holding the rows under the label open
        // (`activity-themes/*`, `activity-layout/lone_while_*`). A loop
        // nested in such a body is laid out so too, the outermost closing
        // the rows. Blocks in the body keep the rows they are placed on
        // (they are placed as compressed already: corpus activity 023/024).
        let closed_outside = self.rows_closed_outside.get();
        let noted = body.nodes.iter().any(|n| !n.notes.is_empty());
        let uncompressed =
            (closed_outside || ((!was_inside || noted) && !self.notes_uncompressed.get())) && rows_close_after(body);
        let t = if uncompressed {
            // Each note centred beside its step, moving it down by all it
            // reaches above; the steps 35 px apart (PlantUML's room between
            // two tiles, which the compression closes to 20 under a head).
            let was_uncompressed = self.notes_uncompressed.replace(true);
            self.rows_closed_outside.set(true);
            self.extras_beside_rows.set(true);
            let extra = vec![UNCOMPRESSED_GAP - GAP; body.nodes.len().saturating_sub(1)];
            let t = self.layout_seq_spaced(body, depth, &extra);
            self.rows_closed_outside.set(closed_outside);
            self.notes_uncompressed.set(was_uncompressed);
            t
        } else {
            // (Measured under an `is` label; without one PlantUML keeps its
            // own room: `test-data/activity-layout/while_note_tall_first_row_unlabelled`.)
            self.first_step_after_shape
                .set(exit.is_none() && !was_inside && is_l.is_some());
            // A lone partition or group is one tile to PlantUML's loop: its
            // steps keep their own gaps (probes `partition_mid_d2_*`).
            let lone_frame = matches!(body.nodes.as_slice(), [n] if matches!(n.kind, Kind::Container { .. }));
            let extras = if lone_frame {
                Vec::new()
            } else {
                lone_body_extras(body, middle_extra)
            };
            // A lone two-branch `if`: its longest branch's middle gap
            // gains 1.5 px less than an even body's (probes `loop_if_middle_*`).
            if !was_inside && is_lone_two_branch_if(body) {
                self.loop_if_middle_extra.set(Some(middle_extra - 1.5));
            }
            let t = self.layout_seq_spaced(body, depth, &extras);
            self.loop_if_middle_extra.set(None);
            self.first_step_after_shape.set(false);
            t
        };
        self.inside_while_or_if.set(was_inside);
        let end_l = self.label(end_label);
        let mut items = Vec::new();
        let c = t.anchor.max(d.w / 2.0);
        let mid = d.h / 2.0;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, None);
        self.draw_label_at(&mut items, &is_l, c + LABEL_DX, d.h);
        // The body hangs on the loop's axis by its anchor; when its entry is
        // elsewhere (an `elseif` chain) PlantUML leaves 25 px more for the turn.
        // Only an `elseif` chain without an `else` (corpus activity 029); one
        // closed by an `else` starts as any body (probes `if_elseif_*_d2_*`).
        let chain_with_else = body.nodes.first().is_some_and(|n| {
            matches!(&n.kind, Kind::If { branches, otherwise, .. }
                if branches.len() > 1 && otherwise.as_ref().is_some_and(|(_, s)| !s.nodes.is_empty()))
        });
        let dogleg = (t.anchor - t.in_x).abs() > 0.01 && !chain_with_else;
        // (An `elseif` chain keeps the whole label's height + 24: corpus
        // activity 029.)
        let label_room = match (&is_l, is_line) {
            (Some(l), Some(_)) if dogleg => l.height + 24.0,
            (_, Some((ascent, _))) => GAP + ascent + 1.5,
            _ => GAP,
        };
        // Before the compression the body stands 24 px under the diamond
        // and its `is` label (PlantUML's `FtileWhile`).
        let top = if uncompressed {
            d.h + is_l.as_ref().map_or(0.0, |l| l.height) + 2.0 * DIAMOND_HALF
        } else {
            // (Without an `is` label, in a branch beside another, PlantUML
            // starts the body 4.3 px lower: `while_{then,else}_beside_*_bare*`.)
            let beside = if (then_beside_else || else_beside_then) && is_l.is_none() {
                4.3
            } else {
                0.0
            };
            d.h + label_room + beside + if dogleg { 25.0 } else { 0.0 }
        };
        let x0 = c - t.anchor;
        let st = self.stroke_for(None);
        let (bx0, bx1) = (x0, x0 + t.w);
        // Where PlantUML's tile of a loop nested in the body starts: 12 px
        // left of a `while`'s exit line, at the left of what a `repeat`
        // draws, its texts left out (probes `nested_note_loop_*_in_while_*`,
        // `repeat_plain_mid_d2_*`).
        let lo_of = |keep: fn(&Item) -> bool| {
            t.items
                .iter()
                .filter(|item| keep(item))
                .filter_map(item_x_range)
                .map(|r| x0 + r.0)
                .reduce(f64::min)
        };
        let nested_left = if !uncompressed {
            None
        } else if body.nodes.iter().any(|n| matches!(n.kind, Kind::While { .. })) {
            // (The exit line's head reaches 4 px past it.)
            lo_of(|item| matches!(item, Item::Line { .. })).map(|lo| lo - LOOP_MARGIN)
        } else if body.nodes.iter().any(|n| matches!(n.kind, Kind::Repeat { .. })) {
            lo_of(|item| !matches!(item, Item::Text(_)))
        } else {
            None
        };
        // What the body draws (without the room tiles keep around diamonds).
        let drawn_lo = items_x_range(&t.items).map_or(bx0, |r| x0 + r.0);
        // A frame reaching past the body's tile is a two-branch `if`'s room,
        // which reaches 2 px past its branches in PlantUML's dimension.
        let body_lo = match t.frame {
            Some((lo, _)) if lo < 0.0 => bx0 - IF_DIMENSION_ROOM,
            Some((lo, _)) => bx0.max(x0 + lo),
            None => bx0,
        };
        let body_bottom = top + t.h;
        let mut loop_bottom = body_bottom;
        if t.is_empty() {
            loop_bottom = top;
            polyline(&mut items, &[(c, d.h), (c, top)], st, false);
        } else {
            let (ix, iy) = (x0 + t.in_x, top + t.in_y);
            if dogleg {
                let turn = top - 12.0;
                polyline(&mut items, &[(c, d.h), (c, turn), (ix, turn), (ix, iy)], st, true);
            } else {
                polyline(&mut items, &[(c, d.h), (ix, iy)], st, true);
            }
        }
        // Around a body holding a `while`, the way back runs 12 px right of
        // what the body draws (the inner way back); when the body ends with
        // it, the loop's room ends where the body's does (probes
        // `while_in_while_*`).
        let holds_while = body
            .nodes
            .iter()
            .any(|n| matches!(n.kind, Kind::While { .. }) && n.notes.is_empty());
        let body_right = if holds_while {
            drawn_right(&t.items).map_or(bx1, |r| x0 + r)
        } else {
            bx1
        };
        let rx = (c + d.w / 2.0).max(body_right) + LOOP_MARGIN;
        let ends_with_while = body.nodes.last().is_some_and(|n| matches!(n.kind, Kind::While { .. }));
        let reach_right = if holds_while && ends_with_while {
            bx1.max(rx)
        } else {
            rx + WHILE_PAD_RIGHT
        };
        if t.open || t.is_empty() {
            let ox = x0 + t.out_x;
            let oy = if t.is_empty() { top } else { top + t.out_y };
            // The back edge passes 10 px under a note hanging below the
            // body's last step too (PlantUML 1.2026.8, `while_note_last`).
            // (Before the compression the line turns 12 px under the body
            // and holds the 12 px under it open; the compression leaves 10.)
            // A last `repeat`'s `not` label hangs under its condition
            // outside PlantUML's tile: the line turns 12 px under the
            // condition, the label holding that band open (probes
            // `repeat_backward_mid_d2_*`).
            let hanging = match body.nodes.last().map(|n| &n.kind) {
                Some(Kind::Repeat { labels, .. }) if t.overhang <= 0.0 => {
                    self.label(labels.not).map_or(0.0, |l| l.height)
                }
                _ => 0.0,
            };
            let turn_room = if uncompressed || hanging > 0.0 {
                LOOP_MARGIN
            } else {
                10.0
            };
            loop_bottom = oy.max(body_bottom + t.overhang - hanging) + turn_room;
            if uncompressed {
                phantom_block(&mut items, ox, loop_bottom, 5.0, LOOP_MARGIN);
            }
            let back = self.stroke_for(t.tail.as_ref());
            polyline(
                &mut items,
                &[
                    (ox, oy),
                    (ox, loop_bottom),
                    (rx, loop_bottom),
                    (rx, mid),
                    (c + d.w / 2.0, mid),
                ],
                back,
                true,
            );
            if uncompressed {
                mid_head_tip(&mut items, rx, loop_bottom, mid, back);
            } else {
                mid_head(&mut items, rx, loop_bottom, mid, back);
            }
        }
        t.place(x0, top, &mut items);
        if let Some(l) = &end_l {
            self.draw_label_above(&mut items, &end_l, c - d.w / 2.0 - l.width, mid);
        }
        if let Some(exit) = exit {
            // The terminal hangs on the exit line, 36 px below the diamond's middle.
            // (PlantUML puts the terminal's left edge at the diamond's
            // left point, or 12 px left of the body's tile, whose left
            // edge is 2 px left of an action's box, 12 px left of a
            // `while`'s exit line, at a `repeat`'s condition: probes
            // `nested_note_loop_*_in_while_start`.)
            let body_lo = match nested_left {
                Some(left) => (drawn_lo - 21.0).min(left - 23.0),
                None => drawn_lo - 21.0,
            };
            let lx = ((c - d.w / 2.0) - exit.w / 2.0).min(body_lo);
            let ty = mid + 36.0;
            polyline(&mut items, &[(c - d.w / 2.0, mid), (lx, mid), (lx, ty)], st, true);
            let (ew, eh) = (exit.w, exit.h);
            exit.place(lx - ew / 2.0, ty, &mut items);
            let mut h = loop_bottom.max(body_bottom).max(ty + eh);
            if uncompressed {
                // (The block under the turn of the way back counts.)
                h = h.max(loop_bottom + LOOP_MARGIN);
                if !closed_outside {
                    h = close_uncovered_rows(&mut items, &held).apply(h);
                }
            }
            let reach = (lx - WHILE_PAD_LEFT, reach_right);
            return self.normalize(items, c, (c, 0.0), (c, h), h, false, reach);
        }
        // The exit runs 12 px left of the diamond or of the body's own
        // dimension (PlantUML's `FtileWhile`), which is what a frame wraps,
        // not the room the body's tile keeps beside it (a `then` that
        // detaches beside its diamond: probes `detach_branch_*_d2_*`), or of
        // where the tile of a loop nested in the body starts (probes
        // `kill_branch_*_d2_*` placed so too). Not pulled towards the body's
        // leftmost shape: a note above can hold that stripe in PlantUML's
        // page-wide compression (corpus activity 023).
        let lx = (c - d.w / 2.0).min(nested_left.unwrap_or(body_lo)) - LOOP_MARGIN;
        let mut exit_y = loop_bottom.max(body_bottom) + LOOP_MARGIN;
        polyline(
            &mut items,
            &[(c - d.w / 2.0, mid), (lx, mid), (lx, exit_y), (c, exit_y)],
            st,
            false,
        );
        if self.lane_marks.get() {
            // Its lane holds 13 px beyond the exit line and 9 right of the
            // diamond (probes `lanes_inner_while_*`).
            let hi = c + d.w / 2.0 + NUDE_PAD_LEFT;
            phantom_cover(&mut items, lx - LANE_BYPASS_ROOM, hi + 2.0, 0.0);
        }
        // The exit line does not hold columns apart in the page-wide
        // compression; its head does, as PlantUML's arrow head does (probes
        // `while_exit_*_d4_*`: the exit label keeps its room in a frame).
        if uncompressed {
            mid_head_tip(&mut items, lx, mid, exit_y, st);
            if !closed_outside {
                exit_y = close_uncovered_rows(&mut items, &held).apply(exit_y);
            }
        } else {
            mid_head(&mut items, lx, mid, exit_y, st);
        }
        // PlantUML's frame around a loop starts 24 px left of the body or
        // 18 px left of the diamond, leaving the exit label outside, and
        // ends 6 px right of the way back, or 5 px short of a longer `is`
        // label (probes `while_exit_*_d4_*`).
        let framed_lo = (bx0 - 24.0).min(c - d.w / 2.0 - 18.0);
        let framed_hi = is_l
            .as_ref()
            .map_or(rx + 6.0, |l| (rx + 6.0).max(c + LABEL_DX + l.width - 5.0));
        let mut tile = self.normalize(
            items,
            c,
            (c, 0.0),
            (c, exit_y),
            exit_y,
            true,
            (lx - WHILE_PAD_LEFT, reach_right),
        );
        let shift = c - tile.anchor;
        tile.frame = Some((framed_lo - shift, framed_hi - shift));
        tile
    }

    pub(super) fn repeat_tile(
        &self,
        label: Option<&str>,
        body: &Seq<'_>,
        backward: Option<&(&Action, Vec<&ActivityNote>)>,
        condition: Option<&str>,
        labels: RepeatLabels<'_>,
        closed: bool,
        depth: usize,
    ) -> Tile {
        let end_lane = self.repeat_end_lane.take();
        let back_left = self.bypass_left.take();
        let entry = match label.filter(|l| !l.trim().is_empty()) {
            Some(text) => self.action_tile(&Action {
                text: text.to_string(),
                shape: ActionShape::Plain,
                color: None,
                stereotype: None,
                lane: None,
            }),
            None => {
                let md = self.diamond(None);
                let mut items = Vec::new();
                self.draw_diamond(&mut items, &md, 0.0, 0.0, None);
                Tile::shape(items, md.w, md.h)
            }
        };
        // The way back is a one-row branch beside the body: the `backward`
        // action (`backward_rows`), or a bare line that counts half
        // (`lone_body_extras`).
        // A box at the loop's start (a `repeat :label;`) lifts the action by
        // half of what it is taller than the merge diamond and takes that
        // from the room below it (corpus activity 033).
        let lift = ((entry.h - 2.0 * DIAMOND_HALF) / 2.0).max(0.0);
        let held = self.rows_held_beside.take();
        // A loop of actions with notes and a `backward` action (not inside
        // a loop laid out before the compression) is laid out as PlantUML's `FtileRepeat`
        // before the vertical compression: the body 48 px under the entry
        // and over the condition, steps 35 px apart, the action centred on
        // the whole height; the compression then closes the rows nothing
        // covers (probes `nested_note_loop_repeat_backward_*`).
        let faithful = backward.is_some()
            && label.is_none()
            && !self.rows_closed_outside.get()
            && !self.notes_uncompressed.get()
            && body.nodes.iter().any(|n| !n.notes.is_empty())
            && rows_close_after(body);
        let body_rows = step_rows(body);
        let back_rows = backward
            .filter(|_| !faithful)
            .and(body_rows.as_ref())
            .map(|rows| backward_rows(rows, lift));
        // When the body's middle row falls inside a block (`fork`, `if`,
        // …, between its entry and exit rows), the action stands half-way
        // between the entry's and the condition's middles, less the box's
        // lift (probes `repeat_backward_block_*`).
        let on_block = backward.is_some() && body_rows.as_deref().is_some_and(middle_inside_block);
        // Facing a two-branch `if` (the body's only one), the middle gap of
        // its longest branch widens instead of the condition dropping.
        let ifs: Vec<&Node<'_>> = body
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, Kind::If { .. }))
            .collect();
        let if_beside =
            on_block && !self.inside_while_or_if.get() && matches!(ifs.as_slice(), [n] if is_two_branch_if(n));
        let back_rows = back_rows.map(|mut plan| {
            if if_beside && plan.on_row {
                let below = (REPEAT_BACKWARD_DROP - lift).max(0.0);
                if let Some(gap) = plan.extra.get_mut(plan.at) {
                    *gap -= below;
                }
                plan.drop = 0.0;
            }
            plan
        });
        // A loop without `backward` whose steps carry notes, or that starts
        // with a box (`repeat :label;`) over actions and loops of them, is
        // laid out as PlantUML's `FtileRepeat` before its vertical
        // compression (the body 48 px under the entry and over the
        // condition, steps 35 px apart, the head on the way back at its
        // middle) and then closes the rows nothing covers: the head holds
        // the body's middle gap open by as much as the box lifts it (seed
        // 001's `loop`; `test-data/activity-layout/repeat_notes_*`; probes
        // `repeat_label_*`). So is a loop the diagram ends before closing,
        // which PlantUML draws without a condition: its way back leaves
        // the body's end 48 px lower (probes `repeat_unclosed_*`), and a
        // loop opening a branch beside another's rows, which hold open
        // (probes `repeat_beside_step_*`).
        let closed_outside = self.rows_closed_outside.get();
        let uncompressed = faithful
            || backward.is_none()
                && if !closed {
                    rows_close_after_ending(body)
                } else if label.is_some() || closed_outside || !held.is_empty() {
                    rows_close_after(body)
                } else {
                    body.nodes.iter().any(|n| !n.notes.is_empty())
                };
        let extra = match &back_rows {
            _ if uncompressed => vec![UNCOMPRESSED_GAP - GAP; body.nodes.len().saturating_sub(1)],
            Some(plan) => plan.extra.clone(),
            None if backward.is_some() => Vec::new(),
            None if self.inside_while_or_if.get() => lone_body_extras(body, RANK_EXTRA),
            None => lone_body_extras(body, RANK_EXTRA / 2.0),
        };
        let was_inside = self.inside_while_or_if.replace(false);
        let was_uncompressed = self.notes_uncompressed.replace(uncompressed);
        self.rows_closed_outside.set(uncompressed);
        if uncompressed {
            // Before the compression, a note's overhang and the middle
            // gap's room add up.
            self.extras_beside_rows.set(true);
        }
        // A lone two-branch `if`: its longest branch's middle gap gains
        // 2 px more than an even body's, and half the box's lift (probes
        // `loop_if_middle_*`).
        if !uncompressed && backward.is_none() && !was_inside && is_lone_two_branch_if(body) {
            self.loop_if_middle_extra.set(Some(RANK_EXTRA / 2.0 + 2.0 + lift / 2.0));
        }
        // Beside a `backward` action facing a two-branch `if` (the body's
        // only one), that gap gains 8 px less the box's lift (probes
        // `repeat_backward_block_if_*`).
        if if_beside {
            self.loop_if_middle_extra.set(Some((8.0 - lift).max(0.0)));
        }
        let t = self.layout_seq_spaced(body, depth, &extra);
        self.loop_if_middle_extra.set(None);
        self.rows_closed_outside.set(closed_outside);
        self.notes_uncompressed.set(was_uncompressed);
        self.inside_while_or_if.set(was_inside);
        let back_mid = back_rows
            .as_ref()
            .filter(|_| !on_block)
            .and_then(|plan| plan.middle(&t.spans))
            .map(|m| m - lift);
        let d = if closed {
            self.diamond(condition)
        } else {
            Diamond {
                text: None,
                w: 0.0,
                h: 0.0,
            }
        };
        let is_l = self.label(labels.is);
        let not_l = self.label(labels.not);
        let back_l = self.label(labels.back);
        let back_t = backward.map(|(a, notes)| {
            let t = self.action_tile(a);
            if notes.is_empty() {
                t
            } else {
                self.with_notes(t, notes, true, false)
            }
        });
        let mut items = Vec::new();
        let c = entry.w.max(t.in_x * 2.0).max(d.w) / 2.0;
        let c = c.max(t.in_x);
        let (ew, eh) = (entry.w, entry.h);
        let ecy = eh / 2.0;
        entry.place(c - ew / 2.0, 0.0, &mut items);
        let st = self.stroke_for(None);
        let room = if uncompressed {
            2.0 * UNCOMPRESSED_REPEAT_ROOM
        } else {
            GAP
        };
        let body_top = eh + room;
        let x0 = c - t.in_x;
        // The body keeps the room its tile holds left of what it draws (a
        // `while`'s beside its exit line: probes `nested_note_loop_while_in_repeat_*`).
        let body_left = if t.is_empty() { c } else { x0 };
        let (bx1, body_h, body_open, body_empty, body_w) = (x0 + t.w, t.h, t.open, t.is_empty(), t.w);
        // With a backward action, PlantUML keeps the condition 10 px
        // further below the body (probe `repeat_backward`).
        let has_backward = back_t.is_some();
        let backward_drop = match &back_rows {
            Some(plan) => plan.drop,
            None if faithful => 0.0,
            None if has_backward => REPEAT_BACKWARD_DROP,
            None => 0.0,
        };
        // A note hanging below the last step keeps the condition a gap
        // below it (seed 001's `loop`).
        // (Nothing closes the band under a loop the diagram ends before
        // closing: its way back turns 48 px under the body.)
        let gap_below = if uncompressed || !closed {
            2.0 * UNCOMPRESSED_REPEAT_ROOM
        } else {
            self.gap(t.tail.as_ref())
        };
        let below_body = body_top + body_h + t.overhang + gap_below + backward_drop;
        let dtop = if body_empty {
            polyline(&mut items, &[(c, eh), (c, body_top)], st, true);
            body_top
        } else {
            polyline(&mut items, &[(c, eh), (c, body_top + t.in_y)], st, true);
            if body_open {
                self.edge(
                    &mut items,
                    &[(x0 + t.out_x, body_top + t.out_y), (c, below_body)],
                    t.tail.as_ref(),
                    closed,
                );
            }
            below_body
        };
        t.place(x0, body_top, &mut items);
        if self.lane_marks.get() && label.is_none_or(|l| l.trim().is_empty()) {
            // Its lane holds 9 px on either side of the entry diamond
            // (probe `lanes_inner_repeat_mid`).
            phantom_cover(
                &mut items,
                c - ew / 2.0 - NUDE_PAD_LEFT,
                c + ew / 2.0 + NUDE_PAD_LEFT + 2.0,
                0.0,
            );
        }
        let condition_from = items.len();
        if closed {
            self.draw_diamond(&mut items, &d, c - d.w / 2.0, dtop, None);
        }
        if closed && self.lane_marks.get() {
            // Its lane holds 9 px left of the condition, as of a
            // top-level loop's tile (held-out `support-request-lanes`).
            let dl = c - d.w / 2.0;
            phantom_cover(&mut items, dl - NUDE_PAD_LEFT, dl + 2.0, dtop);
        }
        let dmid = dtop + d.h / 2.0;
        let corner = c + d.w / 2.0;
        self.draw_label_above(&mut items, &is_l, corner, dmid);
        self.draw_label_at(&mut items, &not_l, c + LABEL_DX, dtop + d.h);
        if let Some(lane) = end_lane {
            let mut condition = items.split_off(condition_from);
            super::lanes::mark_lane(&mut condition, lane);
            items.append(&mut condition);
        }
        // PlantUML keeps the backward action 10 px right of the body, 20 px
        // right of the loop's first box.
        let right = bx1.max(corner).max(c + ew / 2.0 + 10.0);
        // `repeat while (c) -> label`: the label stands 4 px right of the
        // line back up, centred on the condition (probe `arrow_label_repeat_back`).
        let mut back_label_right = f64::NEG_INFINITY;
        let mut draw_back_label = |items: &mut Vec<Item>, bx: f64| {
            if let Some(l) = &back_l {
                l.draw(
                    bx + 4.0,
                    dmid - l.height / 2.0,
                    Align::Left,
                    self.style.arrow_font_color,
                    items,
                );
                back_label_right = bx + 4.0 + l.width;
            }
        };
        match back_t {
            Some(bt) => {
                // The `is` label beside the condition pushes the backward
                // action right by its width, at most 14 px (probes
                // `repeat_backward_is_*`), unless the loop starts with a
                // box (`repeat :label;`: `test-data/render/activity/repeat`).
                let is_room = match (&is_l, label) {
                    (Some(l), None) => l.width.min(14.0),
                    _ => 0.0,
                };
                let bx0 = right + 10.0 + is_room;
                let bx = bx0 + bt.in_x;
                let bmid = match back_mid {
                    Some(m) => body_top + m,
                    // (Beside an `if`, at least 4 px higher.)
                    None if if_beside => (ecy + dmid) / 2.0 - lift.max(4.0),
                    None if on_block => (ecy + dmid) / 2.0 - lift,
                    None => (ecy + dmid) / 2.0,
                };
                let btop = bmid - (bt.in_y + bt.out_y) / 2.0;
                polyline(
                    &mut items,
                    &[(corner, dmid), (bx, dmid), (bx, btop + bt.out_y)],
                    st,
                    true,
                );
                polyline(
                    &mut items,
                    &[(bx, btop + bt.in_y), (bx, ecy), (c + ew / 2.0, ecy)],
                    st,
                    true,
                );
                bt.place(bx0, btop, &mut items);
                draw_back_label(&mut items, bx);
            }
            None if back_left => {
                // Away from the lane its steps move to (probe
                // `lanes_inner_repeat_mid_back`).
                let dl = c - d.w / 2.0;
                let bx = dl.min(body_left).min(c - ew / 2.0) - LOOP_MARGIN;
                polyline(
                    &mut items,
                    &[(dl, dmid), (bx, dmid), (bx, ecy), (c - ew / 2.0, ecy)],
                    st,
                    true,
                );
                mid_head(&mut items, bx, dmid, ecy, st);
                phantom_cover(&mut items, bx - LANE_BYPASS_ROOM, bx + 2.0, dtop);
                draw_back_label(&mut items, bx);
            }
            None => {
                // Without a condition the way back runs 12 px right of
                // half the body's width (PlantUML's `FtileRepeat`).
                let bx = if closed {
                    right + LOOP_MARGIN
                } else {
                    c + body_w / 2.0 + LOOP_MARGIN
                };
                polyline(
                    &mut items,
                    &[(corner, dmid), (bx, dmid), (bx, ecy), (c + ew / 2.0, ecy)],
                    st,
                    true,
                );
                if uncompressed {
                    mid_head_tip(&mut items, bx, dmid, ecy, st);
                } else {
                    mid_head(&mut items, bx, dmid, ecy, st);
                }
                draw_back_label(&mut items, bx);
            }
        }
        let mut h = dtop + d.h + not_l.as_ref().map_or(0.0, |l| l.height);
        let mut dbottom = dtop + d.h;
        if uncompressed && !closed_outside {
            let map = close_uncovered_rows(&mut items, &held);
            h = map.apply(h);
            dbottom = map.apply(dbottom);
        }
        // PlantUML's repeat keeps 9 px of room left of its condition and 12 px
        // right of its loop line (probes `repeat_*`: the loop alone in a
        // diagram, nested, with a wide condition; a wider first action
        // reaches past it: corpus activity 033).
        let left_room = (c - d.w.max(2.0 * DIAMOND_HALF) / 2.0 - REPEAT_LEFT_ROOM).min(body_left);
        let right_room = if has_backward {
            back_label_right
        } else if !closed {
            // 15 px right of the way back, 27 px right of a wider first
            // box, 24 px right of the body (probes `repeat_unclosed_*`).
            (c + body_w / 2.0 + LOOP_MARGIN + 15.0)
                .max(c + ew / 2.0 + 27.0)
                .max(bx1 + 2.0 * LOOP_MARGIN)
                .max(back_label_right)
        } else {
            (right + LOOP_MARGIN + LOOP_MARGIN).max(back_label_right)
        };
        // A partition's frame does not keep the room left of the condition
        // (probes `repeat_*_d4_*`).
        let (drawn_lo, drawn_hi) = items_x_range(&items).unwrap_or((c, c));
        // Without a `backward` action it ends 7 px right of the way back,
        // or 5 px short of a longer label (as a `while`'s).
        let framed_right = if has_backward {
            drawn_hi.max(right_room)
        } else {
            (right + LOOP_MARGIN + 7.0).max(drawn_hi - 5.0)
        };
        let framed = (drawn_lo.min(c), framed_right);
        let mut tile = self.normalize(items, c, (c, 0.0), (c, dbottom), h, true, (left_room, right_room));
        let shift = c - tile.anchor;
        tile.frame = Some((framed.0 - shift, framed.1 - shift));
        // A `not` label hangs under the condition without pushing an
        // enclosing frame, which ends 8 px under the condition whatever
        // the label's lines (probes `repeat_backward_*_d4_*`).
        if not_l.is_some() {
            tile.frame_bottom = Some(dbottom + REPEAT_NOT_LABEL_ROOM);
        }
        tile
    }
}

/// The right end of what `items` draw, texts and arrow heads (polygons
/// narrower than a diamond) left out.
pub(super) fn drawn_right(items: &[Item]) -> Option<f64> {
    drawn_ranges(items).map(|r| r.1).reduce(f64::max)
}

fn drawn_ranges(items: &[Item]) -> impl Iterator<Item = (f64, f64)> + '_ {
    items
        .iter()
        .filter(|item| !matches!(item, Item::Text(_)))
        .filter_map(|item| Some((item, item_x_range(item)?)))
        .filter(|(item, r)| !matches!(item, Item::Polygon { .. }) || r.1 - r.0 >= 2.0 * DIAMOND_HALF)
        .map(|(_, r)| r)
}

/// Whether the middle of a body's rows (`step_rows`) lies strictly
/// between the entry and exit rows of one of its blocks.
fn middle_inside_block(rows: &[usize]) -> bool {
    // Rows doubled so that the middle of an even count is a whole number.
    let middle = rows.iter().sum::<usize>().saturating_sub(1);
    let mut at = 0;
    rows.iter().any(|&n| {
        let (entry, exit) = (2 * at, 2 * (at + n.saturating_sub(1)));
        at += n;
        entry < middle && middle < exit
    })
}

/// Whether `body` is one `if` with a `then` and an `else`, both drawing steps.
fn is_lone_two_branch_if(body: &Seq<'_>) -> bool {
    matches!(body.nodes.as_slice(), [node] if is_two_branch_if(node))
}

/// Whether `node` is an `if` with a `then` and an `else`, both drawing steps.
fn is_two_branch_if(node: &Node<'_>) -> bool {
    matches!(node, Node { kind: Kind::If { branches, otherwise: Some((_, other)), .. }, arrow: None, .. }
        if branches.len() == 1
            && !other.nodes.is_empty()
            && branches.iter().all(|(_, _, seq)| !seq.nodes.is_empty()))
}

/// Whether `body` is laid out before the vertical compression inside a
/// loop laid out so (see `Ctx::while_tile`): actions without arrow labels,
/// and loops of them (a `repeat` without a `backward` action).
/// Blocks are placed as compressed already and keep their rows.
pub(super) fn rows_close_after(body: &Seq<'_>) -> bool {
    nodes_close_after(&body.nodes)
}

/// [`rows_close_after`] for a body that may end the flow with a `stop` or
/// `end` (a loop the diagram ends before closing).
fn rows_close_after_ending(body: &Seq<'_>) -> bool {
    match body.nodes.split_last() {
        Some((last, rest)) if matches!(last.kind, Kind::Stop | Kind::End) && last.arrow.is_none() => {
            !rest.is_empty() && nodes_close_after(rest)
        }
        _ => rows_close_after(body),
    }
}

fn nodes_close_after(nodes: &[Node<'_>]) -> bool {
    // An explicit stack: the nesting is the input's to choose.
    let mut pending = vec![nodes];
    while let Some(nodes) = pending.pop() {
        for node in nodes {
            if node.arrow.is_some_and(|a| a.label.is_some()) {
                return false;
            }
            match &node.kind {
                Kind::Action(_) => {}
                Kind::While { body, .. } => pending.push(&body.nodes),
                Kind::Repeat {
                    body, backward: None, ..
                } => pending.push(&body.nodes),
                _ => return false,
            }
        }
    }
    true
}

/// The room PlantUML adds on either side of a `repeat` whose body holds a
/// `break` (`FtileFactoryDelegatorRepeat`): the way out runs down its left edge.
const BREAK_EXIT_MARGIN: f64 = 10.0;

impl Ctx<'_> {
    /// A `repeat` whose body breaks out: PlantUML widens the loop by
    /// `BREAK_EXIT_MARGIN` on either side and stacks an unlabelled diamond
    /// under it, which the first `break`'s line reaches from the left,
    /// running down 10 px left of what the loop draws (probes `break_*`).
    pub(super) fn with_break_exit(&self, mut tile: Tile) -> Tile {
        let points = take_break_points(&mut tile.items);
        let Some(&(bx, by)) = points.first() else {
            return tile;
        };
        // The way out runs 10 px left of what the loop draws (its texts
        // aside), which widens the loop only where its room is narrower.
        let drawn_lo = tile
            .items
            .iter()
            .filter(|item| !matches!(item, Item::Text(_)))
            .filter_map(item_x_range)
            .map(|r| r.0)
            .fold(f64::INFINITY, f64::min);
        // (A break on the loop's left edge goes straight down its own line.)
        let lane_x = if !drawn_lo.is_finite() {
            0.0
        } else if bx <= drawn_lo {
            bx
        } else {
            drawn_lo - BREAK_EXIT_MARGIN
        };
        let m = (-lane_x).max(0.0);
        let lane_x = lane_x + m;
        let mut items = Vec::new();
        let (out_x, out_y, h) = (tile.out_x + m, tile.out_y, tile.h);
        let st = self.stroke_for(None);
        let dtop = h + GAP;
        let dmid = dtop + DIAMOND_HALF;
        self.edge(&mut items, &[(out_x, out_y), (out_x, dtop)], tile.tail.as_ref(), true);
        let d = self.diamond(None);
        self.draw_diamond(&mut items, &d, out_x - DIAMOND_HALF, dtop, None);
        polyline(
            &mut items,
            &[(bx + m, by), (lane_x, by), (lane_x, dmid), (out_x - DIAMOND_HALF, dmid)],
            st,
            true,
        );
        let mut moved = std::mem::take(&mut tile.items);
        for item in &mut moved {
            shift_item(item, m, 0.0);
        }
        moved.extend(items);
        tile.items = moved;
        tile.w += m;
        tile.anchor += m;
        tile.in_x += m;
        tile.out_x = out_x;
        tile.h = dtop + 2.0 * DIAMOND_HALF;
        tile.out_y = tile.h;
        tile.tail = None;
        tile.frame = tile.frame.map(|(lo, hi)| (lo + m, hi + m));
        tile.dimension = tile.dimension.map(|(lo, hi)| (lo + m, hi + m));
        tile.frame_bottom = None;
        tile
    }
}
