//! Placing a sequence: tiles stacked on a common axis, and each node dispatched to its construct.

use super::*;

impl Ctx<'_> {
    pub(super) fn layout_seq(&self, seq: &Seq<'_>, depth: usize) -> Tile {
        self.layout_seq_spaced(seq, depth, &[])
    }

    /// Lays out a sequence with `extra[i]` more room in the gap after its
    /// `i`-th node (see `rank_extras`).
    pub(super) fn layout_seq_spaced(&self, seq: &Seq<'_>, depth: usize, extra: &[f64]) -> Tile {
        let beside_rows = self.extras_beside_rows.take();
        // A lone container hands its gaps' room on to its body.
        let lone_container = matches!(
            seq.nodes.as_slice(),
            [Node {
                kind: Kind::Container { .. },
                ..
            }]
        );
        self.extras_beside_rows.set(beside_rows && lone_container);
        let tiles = self.seq_tiles(seq, depth, extra);
        self.extras_beside_rows.set(false);
        let mut tile = self.stack_rows(tiles, None, extra, beside_rows);
        if let Some(t) = seq.tail {
            tile.tail = Some(t.clone());
        }
        tile
    }

    /// [`Ctx::layout_seq_spaced`] for a branch on the rows of parallel
    /// branches (see `extras_beside_rows`).
    pub(super) fn layout_seq_beside_rows(&self, seq: &Seq<'_>, depth: usize, extra: &[f64]) -> Tile {
        self.extras_beside_rows.set(true);
        self.layout_seq_spaced(seq, depth, extra)
    }

    /// A lone `if` branch (beside the bypass): PlantUML centres the bypass
    /// on the body, so the middle gap of an even body (`lone_body_extras`)
    /// gains [`RANK_EXTRA`] only when its two halves are as tall; it loses
    /// half their difference from [`RANK_EXTRA`] + [`LONE_BALANCE`], down
    /// to nothing (probes `if_lone_tall_*`, corpus activity 002/003: a
    /// two-line second step leaves the gap 30.5 px, a three-line one 23.5).
    pub(super) fn layout_lone_branch(&self, seq: &Seq<'_>, depth: usize) -> Tile {
        let mut extra = lone_body_extras(seq, RANK_EXTRA);
        let tiles = self.seq_tiles(seq, depth, &extra);
        if let Some(middle) = extra.iter().position(|&e| e > 0.0) {
            if tiles.len() == extra.len() + 1 {
                let height = |range: &[(Tile, Option<&ArrowStyle>)]| range.iter().map(|(t, _)| t.h).sum::<f64>();
                let above = height(&tiles[..=middle]);
                let below = height(&tiles[middle + 1..]);
                extra[middle] = (RANK_EXTRA + LONE_BALANCE - (above - below).abs() / 2.0).clamp(0.0, RANK_EXTRA);
            }
        }
        self.stack_seq(seq, tiles, &extra)
    }

    fn stack_seq<'s>(&self, seq: &Seq<'s>, tiles: Vec<(Tile, Option<&'s ArrowStyle>)>, extra: &[f64]) -> Tile {
        let mut tile = self.stack(tiles, None, extra);
        if let Some(t) = seq.tail {
            tile.tail = Some(t.clone());
        }
        tile
    }

    /// Each node of `seq` laid out, with the arrow that leads to it.
    fn seq_tiles<'s>(&self, seq: &Seq<'s>, depth: usize, extra: &[f64]) -> Vec<(Tile, Option<&'s ArrowStyle>)> {
        let mut tiles: Vec<(Tile, Option<&ArrowStyle>)> = Vec::with_capacity(seq.nodes.len());
        let first_after_action = self.first_after_action.take();
        let mut i = 0;
        while i < seq.nodes.len() {
            let node = &seq.nodes[i];
            // PlantUML draws a `stop`/`end` right after a loop on the loop's
            // exit line, beside the loop, rather than below it.
            let next = seq
                .nodes
                .get(i + 1)
                .filter(|n| matches!(n.kind, Kind::Stop | Kind::End) && n.arrow.is_none() && n.notes.is_empty());
            if let (
                Kind::While {
                    condition,
                    label,
                    body,
                    end_label,
                },
                Some(terminal),
                true,
            ) = (&node.kind, next, node.notes.is_empty() && depth < MAX_DEPTH)
            {
                let exit = self.layout_node(terminal, depth);
                let was = self.breaks_out_of_repeat.replace(false);
                let tile = self.while_tile(condition, *label, body, *end_label, depth + 1, Some(exit));
                self.breaks_out_of_repeat.set(was);
                tiles.push((tile, node.arrow));
                i += 2;
                continue;
            }
            // `detach` and `kill` end the flow without a shape of their own
            // (PlantUML 1.2026 draws neither): the edge before them goes.
            // A `break` after a step leaves 5 px under it (probes `break_*`).
            if matches!(node.kind, Kind::Break) && node.notes.is_empty() && self.breaks_out_of_repeat.get() {
                if let Some((prev, _)) = tiles.last_mut() {
                    prev.open = false;
                    let (x, y) = (prev.out_x, prev.out_y);
                    let turn = y + super::branch::BREAK_TURN;
                    polyline(&mut prev.items, &[(x, y), (x, turn)], self.stroke_for(None), false);
                    break_point(&mut prev.items, x, turn);
                    i += 1;
                    continue;
                }
            }
            if matches!(node.kind, Kind::Detach | Kind::Kill) && node.notes.is_empty() {
                if let Some((prev, _)) = tiles.last_mut() {
                    prev.open = false;
                    i += 1;
                    continue;
                }
            }
            // A sequence of one container hands its gaps' room to the body.
            let node_extra = if seq.nodes.len() == 1 { extra } else { &[] };
            let after_shape = i == 0 && self.first_step_after_shape.take();
            let after_action = after_shape
                || (i
                    .checked_sub(1)
                    .and_then(|j| seq.nodes.get(j))
                    .map_or(first_after_action, |prev| {
                        matches!(prev.kind, Kind::Action(_) | Kind::Start)
                    })
                    && node.arrow.is_none());
            let tile = self.layout_node_after(node, depth, node_extra, after_action);
            let tile = self.container_between_labels(tile, node, i > 0, seq.nodes.get(i + 1));
            tiles.push((tile, node.arrow));
            i += 1;
        }
        tiles
    }

    /// Stacks tiles on a common axis (or, with `columns`, each on its own x),
    /// joined by edges.
    pub(super) fn stack(
        &self,
        tiles: Vec<(Tile, Option<&ArrowStyle>)>,
        columns: Option<&[f64]>,
        extra: &[f64],
    ) -> Tile {
        self.stack_rows(tiles, columns, extra, false)
    }

    /// [`Ctx::stack`]; with `beside_rows`, a note hanging below a tile adds
    /// to the extra room of the gap after it instead of taking it up.
    fn stack_rows(
        &self,
        tiles: Vec<(Tile, Option<&ArrowStyle>)>,
        columns: Option<&[f64]>,
        extra: &[f64],
        beside_rows: bool,
    ) -> Tile {
        if tiles.is_empty() {
            return Tile::empty();
        }
        let mut items = Vec::new();
        let mut y = 0.0;
        let mut prev: Option<(f64, f64, bool, Option<ArrowStyle>)> = None; // out point, open, tail
        let mut first_in = (0.0, 0.0);
        let mut last = (0.0, 0.0, true, None);
        let mut min_x = f64::INFINITY;
        let mut max_x = f64::NEG_INFINITY;
        let mut first_anchor = 0.0;
        let mut last_overhang = 0.0;
        let mut last_frame_bottom = None;
        let mut spans = Vec::with_capacity(tiles.len());
        // The union of the tiles' framed ranges, when one of them has its own.
        let own_frames = tiles.iter().any(|(t, _)| t.frame.is_some());
        let head_room = tiles.first().map_or(0.0, |(t, _)| t.head_room);
        let mut frame = (f64::INFINITY, f64::NEG_INFINITY);
        let own_dimensions = tiles.iter().any(|(t, _)| t.dimension.is_some());
        let mut dimension = (f64::INFINITY, f64::NEG_INFINITY);
        for (i, (tile, arrow)) in tiles.into_iter().enumerate() {
            let axis = columns.and_then(|c| c.get(i).copied()).unwrap_or(0.0);
            let x0 = axis - tile.anchor;
            let label = arrow.and_then(|a| self.label(a.label.as_deref()));
            if let Some((px, py, open, tail)) = &prev {
                // After a flow that ended (`detach`, `kill`), nothing joins
                // the next shape: PlantUML keeps half the room (probes
                // `connector_*`).
                let unjoined = if *open { GAP } else { GAP / 2.0 };
                // Into another lane's column, PlantUML runs a labelled
                // arrow down beside its label, then across 15 px above the
                // target (probes `lanes_*`).
                let crossing = columns.is_some() && (px - (x0 + tile.in_x)).abs() >= 0.01;
                let gap = label.as_ref().map_or(unjoined, |l| {
                    if crossing {
                        (l.height + CROSS_LABEL_ROOM + 15.0).max(GAP)
                    } else {
                        self.labelled_gap(l)
                    }
                });
                let extra_here = i.checked_sub(1).and_then(|j| extra.get(j)).copied().unwrap_or(0.0);
                // A note hanging below the node takes up the row's extra
                // room first (PlantUML 1.2026.8, `while_note_*`).
                let top = if beside_rows && extra_here > 0.0 {
                    (py + extra_here).max(y + last_overhang + extra_here) + gap
                } else {
                    (py + extra_here).max(y + last_overhang + extra_here.min(0.0)) + gap
                };
                let tx = x0 + tile.in_x;
                let ty = top + tile.in_y;
                if *open {
                    let style = arrow.or(tail.as_ref());
                    let st = self.stroke_for(style);
                    // Unlabelled, it turns 5 px under what the step's tile
                    // holds (a note hanging lower), or higher, half way
                    // between 15 px under the step and the next step's
                    // entry (PlantUML's connection turning in its middle
                    // before the rows beside it close; seed 001's `router`
                    // and `two_lanes`, probes `lanes_note_cross_*`).
                    let prev_bottom = (y + last_overhang).max(*py);
                    let turn = label.as_ref().map_or_else(
                        || {
                            if crossing {
                                (prev_bottom + 5.0).min((py + 15.0 + ty) / 2.0) - py
                            } else {
                                5.0
                            }
                        },
                        |l| l.height + CROSS_LABEL_ROOM,
                    );
                    let pts: Vec<(f64, f64)> = if (px - tx).abs() < 0.01 {
                        vec![(*px, *py), (tx, ty)]
                    } else {
                        vec![(*px, *py), (*px, py + turn), (tx, py + turn), (tx, ty)]
                    };
                    polyline(&mut items, &pts, st, true);
                    if let Some(l) = &label {
                        let (lx, ly) = if crossing {
                            (px + LABEL_DX, py + CROSS_LABEL_DY)
                        } else {
                            (tx + LABEL_DX, py + self.label_drop())
                        };
                        l.draw(lx, ly, Align::Left, self.style.arrow_font_color, &mut items);
                        max_x = max_x.max(lx + l.width);
                        frame.1 = frame.1.max(lx + l.width);
                        dimension.1 = dimension.1.max(lx + l.width);
                    }
                }
                y = top;
            } else {
                first_in = (x0 + tile.in_x, tile.in_y);
                first_anchor = axis;
            }
            min_x = min_x.min(x0);
            max_x = max_x.max(x0 + tile.w);
            let (flo, fhi) = tile.framed();
            frame = (frame.0.min(x0 + flo), frame.1.max(x0 + fhi));
            let (dlo, dhi) = tile.dimensioned();
            dimension = (dimension.0.min(x0 + dlo), dimension.1.max(x0 + dhi));
            let out = (x0 + tile.out_x, y + tile.out_y, tile.open, tile.tail.clone());
            last = out.clone();
            prev = Some(out);
            let h = tile.h;
            last_overhang = tile.overhang;
            last_frame_bottom = tile.frame_bottom.map(|b| y + b);
            spans.push((y, y + h));
            tile.place(x0, y, &mut items);
            y += h;
        }
        if let Some((lo, hi)) = items_x_range(&items) {
            min_x = min_x.min(lo);
            max_x = max_x.max(hi);
        }
        let dx = -min_x;
        for item in &mut items {
            shift_item(item, dx, 0.0);
        }
        let frame = own_frames.then_some((frame.0 + dx, frame.1 + dx));
        let dimension = own_dimensions.then_some((dimension.0 + dx, dimension.1 + dx));
        Tile {
            items,
            w: max_x - min_x,
            h: y,
            anchor: first_anchor + dx,
            in_x: first_in.0 + dx,
            in_y: first_in.1,
            out_x: last.0 + dx,
            out_y: last.1,
            open: last.2,
            tail: last.3,
            overhang: last_overhang,
            spans,
            frame,
            head_room,
            dimension,
            frame_bottom: last_frame_bottom,
        }
    }

    // --- nodes -------------------------------------------------------

    pub(super) fn layout_node(&self, node: &Node<'_>, depth: usize) -> Tile {
        self.layout_node_spaced(node, depth, &[])
    }

    /// Lays out a node; `extra` widens the gaps of a container's body.
    fn layout_node_spaced(&self, node: &Node<'_>, depth: usize, extra: &[f64]) -> Tile {
        self.layout_node_after(node, depth, extra, false)
    }

    /// [`Self::layout_node_spaced`] for a node that may follow an action in
    /// its sequence (its notes then reach less far up).
    pub(super) fn layout_node_after(&self, node: &Node<'_>, depth: usize, extra: &[f64], after_action: bool) -> Tile {
        let mut tile = self.layout_node_unmarked(node, depth, extra, after_action);
        if let (true, Some(lane)) = (self.lane_marks.get(), node.lane) {
            super::lanes::mark_lane(&mut tile.items, lane.index());
        }
        tile
    }

    fn layout_node_unmarked(&self, node: &Node<'_>, depth: usize, extra: &[f64], after_action: bool) -> Tile {
        let depth = depth + 1;
        let mut tile = match &node.kind {
            Kind::Start => {
                let mut items = Vec::new();
                let (c, border) = (self.style.start_color, self.style.start_border);
                let shadow = self.style.shadows;
                ellipse(
                    &mut items,
                    10.0,
                    10.0,
                    10.0,
                    10.0,
                    fading(c, self.style.start_gradient, Some(stroke(border, 1.0))).shadowed(shadow),
                );
                Tile::shape(items, 20.0, 20.0)
            }
            Kind::Stop => {
                let mut items = Vec::new();
                let c = self.style.end_color;
                // The ring casts PlantUML's shadow, the dot inside does not.
                let shadow = self.style.shadows;
                ellipse(
                    &mut items,
                    11.0,
                    11.0,
                    11.0,
                    11.0,
                    paint(None, Some(stroke(c, 1.0))).shadowed(shadow),
                );
                let dot = self.style.end_dot;
                ellipse(&mut items, 11.0, 11.0, 6.0, 6.0, paint(Some(dot), Some(stroke(c, 1.0))));
                let mut t = Tile::shape(items, 22.0, 22.0);
                t.open = false;
                t
            }
            Kind::End => {
                let mut items = Vec::new();
                let c = self.style.end_cross;
                ellipse(&mut items, 10.0, 10.0, 10.0, 10.0, paint(None, Some(stroke(c, 1.5))));
                let (a, b) = (10.0 - 6.187, 10.0 + 6.187);
                line(&mut items, a, a, b, b, stroke(c, 2.5));
                line(&mut items, b, a, a, b, stroke(c, 2.5));
                let mut t = Tile::shape(items, 20.0, 20.0);
                t.open = false;
                t
            }
            Kind::Kill => {
                let mut items = Vec::new();
                let c = self.style.end_color;
                line(&mut items, 0.0, 0.0, 14.0, 14.0, stroke(c, 2.5));
                line(&mut items, 14.0, 0.0, 0.0, 14.0, stroke(c, 2.5));
                let mut t = Tile::shape(items, 14.0, 14.0);
                t.open = false;
                t
            }
            Kind::Detach => {
                let mut t = Tile::shape(Vec::new(), 0.0, 0.0);
                t.open = false;
                t
            }
            Kind::Break => {
                let mut items = Vec::new();
                if self.breaks_out_of_repeat.get() {
                    break_point(&mut items, 0.0, 0.0);
                }
                let mut t = Tile::shape(items, 0.0, 0.0);
                t.open = false;
                t
            }
            Kind::Action(action) => self.action_tile(action),
            Kind::Connector(name, color) => {
                let mut items = Vec::new();
                // A 10 px circle around the name (PlantUML), wider for long names.
                let font = Font {
                    size: self.style.action_font.size + 2.0,
                    ..self.style.action_font
                };
                let block = self.text(name, font);
                let r = (block.width / 2.0 + 4.0).max(10.0);
                let fill = color.and_then(parse_color).unwrap_or(self.style.connector_bg);
                ellipse(
                    &mut items,
                    r,
                    r,
                    r,
                    r,
                    paint(Some(fill), Some(stroke(self.style.connector_border, 0.5))),
                );
                block.draw(
                    r - block.width / 2.0,
                    r - block.height / 2.0,
                    Align::Center,
                    self.style.action_font_color,
                    &mut items,
                );
                Tile::shape(items, 2.0 * r, 2.0 * r)
            }
            Kind::LoneNote => Tile::empty(),
            _ if depth > MAX_DEPTH => Tile::empty(),
            Kind::If {
                branches,
                otherwise,
                color,
            } => {
                let was_inside = self.inside_while_or_if.replace(true);
                let wanders = branches
                    .iter()
                    .map(|(_, _, s)| s)
                    .chain(otherwise.iter().map(|(_, s)| s))
                    .any(|s| super::lanes::seq_changes_lane(s, node.lane));
                self.rows_uncompressed
                    .set(self.lane_marks.get() && wanders && branches.len() <= 1);
                let tile = if branches.len() <= 1 {
                    let (cond, label, body) = match branches.first() {
                        Some((c, l, b)) => (Some(*c), *l, Some(b)),
                        None => (None, None, None),
                    };
                    let lone_then = otherwise.as_ref().is_none_or(|(_, s)| s.nodes.is_empty());
                    self.bypass_left.set(
                        self.lane_marks.get()
                            && lone_then
                            && body.is_some_and(|s| super::lanes::seq_moves_right(s, node.lane)),
                    );
                    self.if_tile(cond, label, body, otherwise.as_ref(), *color, depth)
                } else {
                    self.elseif_tile(branches, otherwise.as_ref(), depth)
                };
                self.inside_while_or_if.set(was_inside);
                tile
            }
            Kind::Switch { condition, cases } => self.switch_tile(condition, cases, depth),
            Kind::While {
                condition,
                label,
                body,
                end_label,
            } => {
                // A `break` in the body leaves through the loop's exit
                // line, which the `while` draws anyway.
                let was = self.breaks_out_of_repeat.replace(false);
                let tile = self.while_tile(condition, *label, body, *end_label, depth, None);
                self.breaks_out_of_repeat.set(was);
                tile
            }
            Kind::Repeat {
                label,
                body,
                backward,
                condition,
                labels,
                closed,
            } => {
                let end_lane = node.end_lane.filter(|l| self.lane_marks.get() && Some(*l) != node.lane);
                self.repeat_end_lane.set(end_lane.map(LaneId::index));
                // (A condition in another lane keeps its way back on the right.)
                self.bypass_left.set(
                    self.lane_marks.get()
                        && end_lane.is_none()
                        && backward.is_none()
                        && super::lanes::seq_moves_right(body, node.lane),
                );
                let was = self.breaks_out_of_repeat.replace(true);
                let tile = self.repeat_tile(*label, body, backward.as_ref(), *condition, *labels, *closed, depth);
                self.breaks_out_of_repeat.set(was);
                self.with_break_exit(tile)
            }
            Kind::Fork { branches, merge, label } => self.fork_tile(branches, *merge, *label, depth),
            Kind::Split { branches } => self.split_tile(branches, depth),
            Kind::Container {
                kind,
                name,
                color,
                body,
            } => self.container_tile(*kind, name, *color, body, depth, extra),
        };
        if let (
            Kind::If {
                branches, otherwise, ..
            },
            [note],
        ) = (&node.kind, node.notes.as_slice())
        {
            if let [(condition, _, then_seq)] = branches.as_slice() {
                if note.position == ActivityNotePosition::Right && !note.floating && !tile.is_empty() {
                    // Beside a bypass on the right the note goes left.
                    let bypass_right =
                        !then_seq.nodes.is_empty() && otherwise.as_ref().is_none_or(|(_, s)| s.nodes.is_empty());
                    return self.note_above_if(tile, note, self.diamond(Some(condition)).w, bypass_right);
                }
            }
        }
        if !node.notes.is_empty() {
            let leaf = !matches!(
                node.kind,
                Kind::If { .. }
                    | Kind::Switch { .. }
                    | Kind::While { .. }
                    | Kind::Repeat { .. }
                    | Kind::Fork { .. }
                    | Kind::Split { .. }
                    | Kind::Container { .. }
            );
            tile = self.with_notes(tile, &node.notes, leaf, after_action && leaf);
        }
        tile
    }
}
