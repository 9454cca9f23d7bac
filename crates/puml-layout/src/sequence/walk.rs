//! The vertical walk's steps, one per kind of event: each moves the page's
//! [`Walk`] on (its `y`, what it drew, what it reaches) as PlantUML does.
//! The one-line steps (create, space, duration) stay in `layout_page`'s
//! loop.

use super::*;
use puml_sema::model::{Group, Reference};

impl Context<'_> {
    /// A bar opens: where it starts (on the message that opened it, or
    /// below the row), and the group frame that holds it.
    pub(super) fn walk_activate(
        &self,
        walk: &mut Walk<'_>,
        positions: &Positions,
        events: &[Event],
        index: usize,
        participant: &ParticipantId,
        color: &Option<String>,
    ) {
        let (start, color_dropped) = match walk.last_message {
            Some(m) if bar_attached(&m, *participant, &events[m.event_index + 1..index]) => {
                (m.arrow_y, bar_color_dropped(&m, &events[m.event_index + 1..index]))
            }
            _ => (walk.y + UNATTACHED_BAR_DROP, false),
        };
        let color = color.as_deref().and_then(parse_color).filter(|_| !color_dropped);
        if let Some(stack) = walk.act_stack.get_mut(participant.index()) {
            stack.push((start, color));
            // PlantUML's frame holds a bar opened in the group
            // (16 px beyond its edges, like the lifelines), and
            // the bars it is nested in: on the left, the
            // outermost bar's edge (probe `group_nested_bar`).
            if let (Some(g), Some(c)) = (walk.groups.last_mut(), self.lifeline_x(positions, *participant)) {
                let shift = (stack.len() as f64 - 1.0) * ACTIVATION_WIDTH / 2.0;
                g.min_x = g.min_x.at_most(c - ACTIVATION_WIDTH / 2.0);
                g.max_x = g.max_x.at_least(c + shift + ACTIVATION_WIDTH / 2.0);
            }
        }
    }

    /// A bar closes: where it ends, and the bar is drawn.
    pub(super) fn walk_deactivate(
        &self,
        walk: &mut Walk<'_>,
        positions: &Positions,
        events: &[Event],
        index: usize,
        participant: &ParticipantId,
    ) {
        let open_at = walk
            .act_stack
            .get(participant.index())
            .and_then(|stack| stack.last())
            .map(|(start, _)| *start);
        let end = deactivation_end(
            walk.last_message.as_ref(),
            *participant,
            &events[..index],
            walk.y,
            open_at,
        );
        let end = deactivation_run_end(
            &mut walk.deactivation_runs,
            walk.last_message.as_ref(),
            events,
            index,
            *participant,
            walk.y,
            end,
        );
        let Some(c) = self.lifeline_x(positions, *participant) else {
            if let Some(stack) = walk.act_stack.get_mut(participant.index()) {
                stack.pop();
            }
            return;
        };
        if let Some(stack) = walk.act_stack.get_mut(participant.index()) {
            let level = stack.len();
            if let Some((start, color)) = stack.pop() {
                let shift = (level as f64 - 1.0) * ACTIVATION_WIDTH / 2.0;
                walk.bars.add(
                    *participant,
                    level,
                    self.activation_bar(
                        c + shift,
                        start,
                        end.at_least(start),
                        color.or_else(|| self.stereotype_bar_fill(*participant)),
                        &walk.delays,
                    ),
                );
            }
        }
    }

    /// A participant's end: its open bars close at the cross, its lifeline stops there.
    pub(super) fn walk_destroy(&self, walk: &mut Walk<'_>, positions: &Positions, participant: &ParticipantId) {
        let Some(c) = self.lifeline_x(positions, *participant) else {
            return;
        };
        // On the message that reached the participant the cross
        // takes no room; elsewhere 10 px above it and 8 below.
        let (at, room_below) = match walk.last_message {
            Some(m) if involves(&m, *participant) => (m.arrow_y, 0.0),
            _ => {
                walk.y += 10.0;
                (walk.y, 8.0)
            }
        };
        if let Some(stack) = walk.act_stack.get_mut(participant.index()) {
            let mut level = stack.len();
            while let Some((start, color)) = stack.pop() {
                let shift = (level as f64 - 1.0) * ACTIVATION_WIDTH / 2.0;
                walk.bars.add(
                    *participant,
                    level,
                    self.activation_bar(
                        c + shift,
                        start,
                        at.at_least(start),
                        color.or_else(|| self.stereotype_bar_fill(*participant)),
                        &walk.delays,
                    ),
                );
                level -= 1;
            }
        }
        let s = stroke(self.theme.destroy_color, 2.0);
        line(&mut walk.front, c - 9.0, at - 9.0, c + 9.0, at + 9.0, s);
        line(&mut walk.front, c - 9.0, at + 9.0, c + 9.0, at - 9.0, s);
        walk.lifeline_end[participant.index()] = Some(at);
        walk.y = walk.y.at_least(at + room_below);
    }

    /// A group opens: its header takes the room of its tab and condition.
    pub(super) fn walk_group_start(&self, walk: &mut Walk<'_>, group: &Group) {
        let top = walk.y + 12.0;
        walk.groups.push(OpenGroup {
            top,
            kind: group.kind,
            label: group.label.clone(),
            secondary: group.secondary.clone(),
            label_trailing_blanks: group.label_trailing_blanks,
            header_fill: group.frame_color.as_deref().and_then(parse_color),
            fill: group.color.as_deref().and_then(parse_color),
            min_x: f64::INFINITY,
            max_x: f64::NEG_INFINITY,
            elses: Vec::new(),
        });
        // The tab is as tall as its text (a `group` label may have
        // several lines).
        let tab_text = match group.kind {
            GroupKind::Group => group.label.as_deref().filter(|l| !l.trim().is_empty()).unwrap_or("X"),
            _ => "X",
        };
        let tab_h = self.text_height(tab_text, self.theme.group_tab_font());
        // A condition in a large font makes the header taller
        // (PlantUML: condition height minus 11 px below the tab's).
        let condition = match group.kind {
            GroupKind::Group => group.secondary.as_deref(),
            _ => group.label.as_deref(),
        };
        let cond_room = condition.filter(|c| !c.trim().is_empty()).map_or(0.0, |c| {
            self.text_height(
                c,
                self.theme
                    .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                    .bold(),
            ) - 11.0
        });
        walk.y = top + tab_h + cond_room.at_least(4.0);
    }

    /// An `else` line in the innermost group, with its label's room.
    pub(super) fn walk_group_else(&self, walk: &mut Walk<'_>, label: &Option<String>, color: &Option<String>) {
        let at = walk.y + 9.0;
        if let Some(g) = walk.groups.last_mut() {
            g.elses
                .push((at, label.clone(), color.as_deref().and_then(parse_color)));
            let label_h = match label.as_deref().filter(|l| !l.trim().is_empty()) {
                Some(l) => self.text_height(
                    l,
                    self.theme
                        .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                        .bold(),
                ),
                None => 0.0,
            };
            // PlantUML: what follows starts 3 px above the line
            // plus the label's height (none without a label).
            walk.y = at + label_h - 3.0;
        }
    }

    /// The innermost group closes: its frame is drawn and its parent holds it.
    pub(super) fn walk_group_end(&self, walk: &mut Walk<'_>, first_x: f64) {
        let Some(g) = walk.groups.pop() else { return };
        let bottom = walk.y + 8.0;
        let (x0, x1) = self.close_group(&g, bottom, first_x, &mut walk.front, &mut walk.fills);
        walk.closed_frame = Some((g.top, x0, x1));
        walk.frames_left = walk.frames_left.at_most(x0);
        walk.frames_right = walk.frames_right.at_least(x1);
        if let Some(parent) = walk.groups.last_mut() {
            parent.min_x = parent.min_x.at_most(x0 - GROUP_NEST_LEFT);
            parent.max_x = parent.max_x.at_least(x1 + GROUP_NEST_INSET - GROUP_FRAME_LEFT);
        }
        // PlantUML leaves 6 px below a frame before what follows.
        walk.y = bottom + GROUP_GAP_AFTER;
    }

    /// A divider: its box is drawn once the page is as wide as it will be
    /// (`Deferred::Divider`).
    pub(super) fn walk_divider(&self, walk: &mut Walk<'_>, text: &str, spaced: &bool, first_x: f64) {
        let block = self.text(
            text,
            self.theme
                .sized_font_of(TextElement::Separator, self.theme.separator_font_size, 13.0)
                .bold(),
        );
        // PlantUML: the box starts 18 px below the previous
        // message and the next one follows 2 px below it.
        let top = walk.y + 18.0;
        let h = block.height + 8.0;
        let font = self
            .theme
            .sized_font_of(TextElement::Separator, self.theme.separator_font_size, 13.0)
            .bold();
        let padding = if *spaced && !creole::is_heading(text) {
            self.metrics.width(" ", &font)
        } else {
            0.0
        };
        walk.deferred.push(Deferred::Divider { top, block, padding });
        // PlantUML counts a divider in a group as reaching the
        // first participant's head: the frame starts 16 px left
        // of it (and the diagram widens to hold it).
        if let Some(g) = walk.groups.last_mut() {
            g.min_x = g.min_x.at_most(first_x);
        }
        walk.y = top + h + 2.0;
    }

    /// A delay: dotted lifelines over its span and its text in the middle.
    pub(super) fn walk_delay(&self, walk: &mut Walk<'_>, text: &Option<String>, mid_x: f64) {
        // PlantUML draws a delay 8 px below where its row
        // starts, and the next row where it would come without
        // that offset (1.2026.8: dotted lifelines and the text).
        let start = walk.y + 8.0;
        let mut h = 28.0;
        // A delay without text still has its (empty) text's padding
        // (PlantUML 1.2026.8, probes `s_padding_*_groups`).
        let text = text.as_deref().filter(|t| !t.trim().is_empty());
        if text.is_none() {
            h += 2.0 * self.theme.text_padding;
        }
        if let Some(text) = text {
            let block = self.text(
                text,
                self.theme
                    .sized_font_of(TextElement::Delay, self.theme.delay_font_size, 11.0),
            );
            // PlantUML: the text's top 22 px below the row's start
            // (14 below the dotted gap's).
            block.draw(
                mid_x - block.width / 2.0,
                start + 14.0,
                Align::Center,
                self.theme.delay_font_color,
                &mut walk.front,
            );
            h += block.height;
        }
        walk.delays.push((start, start + h));
        walk.y += h;
    }

    /// A message: its row's room (label, number, the bars it opens), its
    /// arrow (or loop) and label, and what it reaches.
    pub(super) fn walk_message<'e>(
        &self,
        walk: &mut Walk<'e>,
        page: &PageFrame<'_>,
        index: usize,
        m: &'e Message,
        created_before: &mut [bool],
    ) {
        let Prepared::Message(label, number) = &page.prepared[index] else {
            return;
        };
        let front_start = walk.front.len();
        // A `/ note` after a message starts a row of its own.
        walk.last_note = None;
        let from_slot = self.endpoint_slot(&m.from, page.n);
        let to_slot = self.endpoint_slot(&m.to, page.n);
        let (Some(from_slot), Some(to_slot)) = (from_slot, to_slot) else {
            return;
        };
        let row_top = if m.parallel { walk.last_row_top } else { walk.y };
        walk.last_row_top = row_top;
        let from_c = page.positions.pos[from_slot];
        let to_c = page.positions.pos[to_slot];
        let goes_right = if m.is_self() { true } else { to_c >= from_c };
        // An empty label takes no height (PlantUML: 14 px rows).
        let label_h = if label.is_empty() { 0.0 } else { label.height };
        let text_h = label_h.at_least(number.as_ref().map_or(0.0, |b| b.height));
        // `skinparam responseMessageBelowArrow true` changes nothing
        // in PlantUML 1.2026.8: responses keep their label above the
        // arrow (probes `response_below_arrow`, corpus 194, 195).
        let text_top = row_top + MESSAGE_TEXT_GAP;
        let color = m
            .arrow
            .color
            .as_deref()
            .and_then(parse_color)
            .unwrap_or(self.theme.arrow_color);
        let width = if m.arrow.bold { 2.0 } else { self.theme.arrow_thickness };
        let row = MessageRow {
            row_top,
            text_top,
            arrow_y: text_top + text_h + 2.0,
            label_h,
            slant: f64::from(m.slant.unwrap_or(0).min(2000)),
            color,
            line_stroke: match m.arrow.line {
                LineStyle::Dotted => dashed(color, width, 2.0, 2.0),
                _ => stroke(color, width),
            },
            hidden: m.arrow.line == LineStyle::Hidden,
            from_c,
            to_c,
            goes_right,
            dir: if goes_right { 1.0 } else { -1.0 },
        };
        let (geometry, end_y) = if m.is_self() {
            self.draw_self_message(walk, page, index, m, (label, number.as_ref()), &row)
        } else {
            self.draw_arrow(walk, page, index, m, label, &row, created_before)
        };
        if !row.hidden {
            self.draw_message_label(walk, page, m, (label, number.as_ref()), &geometry, &row);
        }
        self.message_reach(
            walk,
            page,
            index,
            m,
            (label, number.as_ref()),
            &geometry,
            &row,
            front_start,
            end_y,
        );
    }

    /// A self message's loop (on the right, or on the left for `A <- A`)
    /// with its heads; its geometry and where its row ends.
    fn draw_self_message(
        &self,
        walk: &mut Walk<'_>,
        page: &PageFrame<'_>,
        index: usize,
        m: &Message,
        (label, number): (&TextBlock, Option<&TextBlock>),
        row: &MessageRow,
    ) -> (MessageGeometry, f64) {
        let MessageRow {
            arrow_y,
            slant,
            color,
            line_stroke,
            hidden,
            from_c,
            ..
        } = *row;
        let from_id = m.from.participant();
        // `A <- A` loops on the left of the lifeline, as in PlantUML.
        let side = if m.arrow.written_reversed { -1.0 } else { 1.0 };
        let mut x = from_c + side_offset(walk, from_id, side > 0.0);
        // PlantUML 1.2026.8 draws the loop's first stroke from
        // the bars open before it, even when the message opens one.
        let stroke_start = x;
        // `A -> A ++`: the bar opens on this message and the loop
        // (its far side, return and label) is laid out from its edge.
        if let Some(id) = from_id.filter(|id| activated_next(&page.events[index + 1..], *id)) {
            if side > 0.0 {
                x += ACTIVATION_WIDTH / 2.0;
            } else if walk.act_stack[id.index()].is_empty() {
                x -= ACTIVATION_WIDTH / 2.0;
            }
        }
        let far = x + side * SELF_WIDTH;
        // PlantUML's canvas holds the loop's whole room (its
        // label plus 14 px, at least SELF_WIDTH + 8) and the margin.
        let number_w = number.as_ref().map_or(0.0, |b| b.width + NUMBER_GAP);
        let room = (label.width + number_w + 14.0).at_least(SELF_WIDTH + 8.0);
        if side > 0.0 {
            // From the deepest bars the participant ever has (PlantUML).
            let deepest = from_id.map_or(x, |id| {
                let d = page.positions.max_depth.get(id.index()).copied().unwrap_or(0);
                x.at_least(from_c + ACTIVATION_WIDTH / 2.0 * f64::from(d))
            });
            walk.loops_extent.1 = walk.loops_extent.1.at_least(deepest + room);
        } else {
            walk.loops_extent.0 = walk.loops_extent.0.at_most(x - room);
        }
        let geometry = MessageGeometry {
            from_x: x,
            to_x: far,
            is_self: true,
        };
        let bottom = arrow_y + SELF_HEIGHT + slant;
        if !hidden {
            // `o->` on a loop on the right: the circle sits on
            // the lifeline end, the stroke 4 px past it (PlantUML,
            // probe `self_message_circles`).
            let right_loop = side > 0.0;
            let tail_circle = right_loop && m.arrow.tail_head.circle;
            let top_start = if tail_circle { stroke_start + 4.0 } else { stroke_start };
            line(&mut walk.front, top_start, arrow_y, far, arrow_y, line_stroke);
            line(&mut walk.front, far, arrow_y, far, bottom, line_stroke);
            // Bars closed right after the loop end at its top:
            // the return lands on the bars left open (PlantUML,
            // probes `self_message_deactivated*`).
            let closing = from_id.map_or(0, |id| deactivated_next(&page.events[index + 1..], id));
            let return_x = match from_id {
                Some(id) if side > 0.0 && closing > 0 && !activated_next(&page.events[index + 1..], id) => {
                    let open = walk.act_stack[id.index()].len().saturating_sub(closing);
                    from_c + ACTIVATION_WIDTH / 2.0 * open as f64
                }
                _ => x,
            };
            // On a loop on the right, `->o` centres its circle on
            // the return's end with the head 7 px from it, and
            // `->x` draws its cross 5 px further out, the return
            // stopping 2 px past the cross' middle (PlantUML,
            // probe `self_message_circles`).
            let head_circle = right_loop && m.arrow.head.circle;
            let cross = right_loop && m.arrow.head.shape == HeadShape::Cross;
            let tip = if head_circle {
                return_x - CIRCLE_END_SHIFT + 7.0
            } else if cross {
                return_x + 6.0
            } else {
                return_x + side
            };
            // PlantUML 1.2026.8 runs the return to a filled head's
            // tip, and 1 px past an open head's (probes `self_return_*`).
            let end = match m.arrow.head.shape {
                HeadShape::Open | HeadShape::HalfUpperOpen | HeadShape::HalfLowerOpen => tip - side,
                HeadShape::Cross if cross => tip + 7.0,
                _ => tip,
            };
            line(&mut walk.front, far, bottom, end, bottom, line_stroke);
            if head_circle || tail_circle {
                self.circled_heads(
                    &mut walk.front,
                    m,
                    (tip, head_circle.then_some(return_x), bottom, -side),
                    (far, tail_circle.then_some(stroke_start), arrow_y),
                    color,
                );
            } else {
                // The head at the sender's end of `A <-> A` points back at
                // the lifeline from the loop's start (PlantUML, probe
                // `self_bidirectional`).
                self.heads_on_line(&mut walk.front, m, tip, bottom, -side, top_start, arrow_y, -side, color);
            }
        }
        (geometry, bottom)
    }

    /// A message's arrow between two lifelines (or an edge), with its heads
    /// and the head of a participant it creates; its geometry and where its
    /// row ends.
    #[allow(clippy::too_many_arguments)]
    fn draw_arrow(
        &self,
        walk: &mut Walk<'_>,
        page: &PageFrame<'_>,
        index: usize,
        m: &Message,
        label: &TextBlock,
        row: &MessageRow,
        created_before: &mut [bool],
    ) -> (MessageGeometry, f64) {
        let MessageRow {
            row_top,
            arrow_y,
            slant,
            color,
            line_stroke,
            hidden,
            from_c,
            to_c,
            goes_right,
            dir,
            ..
        } = *row;
        let (from_id, to_id) = (m.from.participant(), m.to.participant());
        let mut end_y;
        let mut from_x = match &m.from {
            Endpoint::Edge { short: true, .. } => to_c - dir * (label.width + short_room(-dir)),
            Endpoint::Edge { .. } => from_c,
            Endpoint::Participant { .. } => from_c + bar_edge(walk, page, index, from_id, goes_right),
        };
        let mut to_x = match &m.to {
            Endpoint::Edge { short: true, .. } => from_c + dir * (label.width + short_room(dir)),
            Endpoint::Edge { .. } => to_c,
            Endpoint::Participant { .. } => to_c + bar_edge(walk, page, index, to_id, !goes_right),
        };
        // A participant created by this message: its head is drawn here.
        if let Some(t) = to_id.filter(|t| walk.pending_create[t.index()]) {
            let head = &self.heads[t.index()];
            // PlantUML: the head's top is 4 px above the label's
            // top, so the message line crosses its lower part.
            let top = row_top + MESSAGE_TEXT_GAP - 4.0;
            // A bar opening on it moves the head half a bar
            // toward the sender (PlantUML: 5 px left of its
            // foot for a message going right).
            let head_x = if activated_next(&page.events[index + 1..], t) {
                to_c - dir * ACTIVATION_WIDTH / 2.0
            } else {
                to_c
            };
            self.push_head(&mut walk.heads_items, t, head_x, top, false);
            // PlantUML starts a created participant's lifeline
            // at its head's top (the head is drawn over it).
            walk.head_top_y[t.index()] = top;
            walk.pending_create[t.index()] = false;
            created_before[t.index()] = true;
            // The tip stops 2 px short of the head (PlantUML).
            to_x = if goes_right {
                head_x - head.left - 1.0
            } else {
                head_x + head.right + 1.0
            };
            end_y = arrow_y.at_least(top + head.height - CREATED_HEAD_TAIL);
        } else {
            end_y = arrow_y;
        }
        if matches!(m.from, Endpoint::Edge { short: false, .. }) && m.arrow.tail_head.circle {
            from_x += 0.0;
        }
        // A head at a participant, at a short arrow's far end
        // or at the diagram's right edge stops 1 px short of
        // it (PlantUML, probes `short_arrows`,
        // `message_to_right_edge`, `message_from_right_edge`).
        let tip_pad = if m.to.participant().is_some()
            || matches!(
                m.to,
                Endpoint::Edge { short: true, .. } | Endpoint::Edge { side: Side::Right, .. }
            ) {
            1.0
        } else {
            0.0
        };
        let tip = to_x - dir * tip_pad;
        let arrow_end_y = arrow_y + slant;
        // `->o`/`o->` at a participant: PlantUML centres the
        // circle on the end (probe `message_circles`).
        let head_circle = (m.arrow.head.circle && m.to.participant().is_some()).then_some(to_x);
        let tail_circle = (m.arrow.tail_head.circle && m.from.participant().is_some()).then_some(from_x);
        let drawn_tip = head_circle.map_or(tip, |end| circled_head_tip(end, dir));
        let half_head = matches!(m.arrow.head.shape, HeadShape::HalfUpper | HeadShape::HalfLower);
        let slanted_filled = slant != 0.0 && m.arrow.head.shape == HeadShape::Filled;
        let line_end = match m.arrow.head.shape {
            // PlantUML runs the line under a half head to 1 px
            // short of the right-hand end, to the left-hand
            // end itself (probes `arrows`, `half_heads_left`).
            _ if half_head && head_circle.is_none() => {
                if goes_right {
                    to_x - 1.0
                } else {
                    to_x
                }
            }
            // A slanted line runs to a filled head's tip going
            // right, to the end itself going left (probe
            // `slanted_left`).
            _ if slanted_filled && head_circle.is_none() => {
                if goes_right {
                    to_x - 2.0
                } else {
                    to_x
                }
            }
            HeadShape::Filled | HeadShape::HalfUpper | HeadShape::HalfLower => drawn_tip - dir * 4.0,
            _ => drawn_tip,
        };
        if !hidden {
            if matches!(m.to, Endpoint::Edge { side: Side::Right, .. }) {
                walk.right_edge_reach = walk.right_edge_reach.at_least(to_x);
            }
            if matches!(m.from, Endpoint::Edge { side: Side::Right, .. }) {
                walk.right_edge_reach = walk.right_edge_reach.at_least(from_x);
            }
            let (mut line_start, tail_tip) =
                tail_head_ends(m.arrow.tail_head.shape, from_x, dir, m.from.participant().is_some());
            if let (Some(end), HeadShape::None) = (tail_circle, m.arrow.tail_head.shape) {
                line_start = end - CIRCLE_END_SHIFT + dir * 4.5;
            }
            // ... and starts such a line going left 1 px left
            // of the sender's end (the same probes).
            if !goes_right
                && (half_head || slanted_filled)
                && m.arrow.tail_head.shape == HeadShape::None
                && tail_circle.is_none()
            {
                line_start -= 1.0;
            }
            line(&mut walk.front, line_start, arrow_y, line_end, arrow_end_y, line_stroke);
            if head_circle.is_none() && tail_circle.is_none() {
                let head_items = walk.front.len();
                self.heads_on_line(
                    &mut walk.front,
                    m,
                    tip,
                    arrow_end_y,
                    dir,
                    tail_tip,
                    arrow_y,
                    -dir,
                    color,
                );
                // A slanted message's head lies along its line
                // (PlantUML turns it about the tip, probe
                // `slanted_left`).
                if slant != 0.0 && m.arrow.tail_head.shape == HeadShape::None {
                    let angle = (arrow_y - arrow_end_y).atan2(line_start - tip) - 0f64.atan2(-dir);
                    rotate_items(&mut walk.front[head_items..], (tip, arrow_end_y), angle);
                }
            } else {
                self.circled_heads(
                    &mut walk.front,
                    m,
                    (drawn_tip, head_circle, arrow_end_y, dir),
                    (tail_tip, tail_circle, arrow_y),
                    color,
                );
            }
        }
        // PlantUML leaves the slant once more below the tip of
        // a message pointing left (not of one pointing right).
        let below_tip = if goes_right { 0.0 } else { slant };
        end_y = end_y.at_least(arrow_end_y + below_tip);
        let geometry = MessageGeometry {
            from_x,
            to_x: tip,
            is_self: false,
        };
        (geometry, end_y)
    }

    /// A message's label (and autonumber), placed by the message alignment.
    fn draw_message_label(
        &self,
        walk: &mut Walk<'_>,
        page: &PageFrame<'_>,
        m: &Message,
        (label, number): (&TextBlock, Option<&TextBlock>),
        geometry: &MessageGeometry,
        row: &MessageRow,
    ) {
        let MessageRow {
            text_top,
            label_h,
            goes_right,
            ..
        } = *row;
        let to_id = m.to.participant();
        let (left, right) = self_span(geometry, label.width);
        let number_w = number.as_ref().map_or(0.0, |b| b.width + NUMBER_GAP);
        let total = number_w + label.width;
        let head_at_left = !geometry.is_self && !goes_right;
        let left_self = geometry.is_self && geometry.to_x < geometry.from_x;
        let goes_left = !geometry.is_self && !goes_right;
        let align = match self.theme.message_align {
            MessageAlign::Direction if goes_left => MessageAlign::Right,
            MessageAlign::ReverseDirection if !goes_left && !geometry.is_self => MessageAlign::Right,
            MessageAlign::Direction | MessageAlign::ReverseDirection => MessageAlign::Left,
            MessageAlign::Left if self.theme.default_text_center && !geometry.is_self => MessageAlign::Center,
            MessageAlign::Left if self.theme.default_text_right && !geometry.is_self => MessageAlign::Right,
            other => other,
        };
        // A message from the left edge (`[->`): PlantUML lays its
        // label out as if the arrow started no further left than
        // the label plus 24 px before the target's lifeline, and
        // ended at the lifeline (its bar's edge).
        let edge_start = match m.from {
            Endpoint::Edge {
                side: Side::Left,
                short: false,
            } if goes_right => to_id
                .and_then(|id| self.lifeline_x(page.positions, id))
                .map(|x| left.at_least(x - total - 24.0)),
            _ => None,
        };
        let x = match (align, edge_start) {
            (MessageAlign::Left, Some(start)) => start + 7.0,
            (MessageAlign::Center, Some(start)) => (start + right + 1.0 - total) / 2.0,
            _ => match align {
                // A left loop's label starts 7 px into the loop's room
                // (PlantUML: `A <- A: x` at 43 px left of the lifeline).
                MessageAlign::Left if left_self => right - (total + 14.0).at_least(SELF_WIDTH + 8.0) + 7.0,
                MessageAlign::Left => {
                    left + if head_at_left { 16.0 } else { 7.0 } + tail_head_label_shift(m, goes_right)
                }
                // A self message's loop is as wide as its number and
                // label plus 14: centred, they start 7 px in (PlantUML).
                MessageAlign::Center if geometry.is_self && !left_self => left + 7.0,
                MessageAlign::Center if left_self => right - (total + 14.0).at_least(SELF_WIDTH + 8.0) + 7.0,
                MessageAlign::Center => (left + right - total) / 2.0,
                MessageAlign::Right if left_self => left + 7.0,
                // A right loop's label stays where `left` puts it
                // (probe `s_messagealign_right`).
                MessageAlign::Right if geometry.is_self => left + 7.0,
                MessageAlign::Right | MessageAlign::Direction | MessageAlign::ReverseDirection => {
                    right - total - if head_at_left { 7.0 } else { 16.0 } + tail_head_label_shift(m, goes_right)
                }
            },
        };
        if let Some(number) = &number {
            // The number is centered on a multi-line label, as in PlantUML.
            let number_top = text_top + ((label_h - number.height) / 2.0).at_least(0.0);
            number.draw(x, number_top, Align::Left, self.theme.arrow_font_color, &mut walk.front);
        }
        // `direction` moves the block but keeps its lines left-aligned.
        let line_align = match (self.theme.message_align, align) {
            (MessageAlign::Direction | MessageAlign::ReverseDirection, _) => Align::Left,
            (_, MessageAlign::Center) => Align::Center,
            (_, MessageAlign::Right) => Align::Right,
            _ => Align::Left,
        };
        label.draw(
            x + number_w,
            text_top,
            line_align,
            self.theme.arrow_font_color,
            &mut walk.front,
        );
    }

    /// What a message reaches (the canvas, its group's frame, an anchor),
    /// remembered as the last message; the next row starts below it.
    #[allow(clippy::too_many_arguments)]
    fn message_reach<'e>(
        &self,
        walk: &mut Walk<'e>,
        page: &PageFrame<'_>,
        index: usize,
        m: &'e Message,
        (label, number): (&TextBlock, Option<&TextBlock>),
        geometry: &MessageGeometry,
        row: &MessageRow,
        front_start: usize,
        end_y: f64,
    ) {
        let MessageRow { row_top, arrow_y, .. } = *row;
        let (from_id, to_id) = (m.from.participant(), m.to.participant());
        // A self message's reach counts its autonumber too: a note
        // beside it and its group frame start past the label's end
        // (PlantUML, probe `self_message_numbered`).
        let numbered_width = label.width + number.as_ref().map_or(0.0, |b| b.width + NUMBER_GAP);
        let (mut min_x, mut max_x) = self_span(geometry, numbered_width);
        // A loop on the right keeps its reach (the label and 7 px)
        // inside the canvas (PlantUML: 17.7 px from the label's
        // end to the canvas's for one on the last participant).
        if geometry.is_self && geometry.to_x >= geometry.from_x {
            walk.self_reach_right = walk.self_reach_right.at_least(max_x);
        }
        // A group frame spans the lifelines of the participants a
        // message joins, wherever its arrow ends (bars, tips).
        if !geometry.is_self {
            let lifelines = [m.from.participant(), m.to.participant()]
                .map(|p| p.and_then(|id| self.lifeline_x(page.positions, id)));
            if let [Some(a), Some(b)] = lifelines {
                (min_x, max_x) = (a.at_most(b), a.at_least(b));
            }
        }
        if let Some(g) = walk.groups.last_mut() {
            let (lo, hi) = match (
                geometry.is_self,
                m.from.participant().and_then(|id| self.lifeline_x(page.positions, id)),
            ) {
                (true, Some(lifeline)) => {
                    // A loop on the right reaches the frame from the
                    // deepest bars its participant ever has, as its
                    // room in the canvas does (PlantUML, corpus 127:
                    // autoactivated self messages deepen the bars).
                    let deepest = m.from.participant().map_or(geometry.from_x, |id| {
                        let d = page.positions.max_depth.get(id.index()).copied().unwrap_or(0);
                        geometry
                            .from_x
                            .at_least(lifeline + ACTIVATION_WIDTH / 2.0 * f64::from(d))
                    });
                    let from_deepest = MessageGeometry {
                        from_x: deepest,
                        to_x: geometry.to_x.at_least(deepest),
                        is_self: true,
                    };
                    if geometry.to_x >= geometry.from_x {
                        self_frame_reach(&from_deepest, lifeline, numbered_width)
                    } else {
                        self_frame_reach(geometry, lifeline, numbered_width)
                    }
                }
                _ => (min_x, max_x),
            };
            g.min_x = g.min_x.at_most(lo);
            g.max_x = g.max_x.at_least(hi);
        }
        if let Some(anchor) = m.anchor.as_deref() {
            walk.anchors
                .insert(anchor, ((geometry.from_x + geometry.to_x) / 2.0, arrow_y));
        }
        let bottom = if m.parallel { walk.y.at_least(end_y) } else { end_y };
        walk.last_message = Some(LastMessage {
            front_start,
            bottom,
            row_top,
            arrow_y: if geometry.is_self {
                arrow_y + SELF_HEIGHT
            } else {
                arrow_y
            },
            min_x,
            max_x,
            from: from_id,
            to: to_id,
            event_index: index,
            right_bars: [from_id, to_id]
                .into_iter()
                .flatten()
                .find(|id| {
                    self.lifeline_x(page.positions, *id)
                        .is_some_and(|x| (x - max_x).abs() < 1e-6)
                })
                .map_or(0.0, |id| {
                    let stack = &walk.act_stack[id.index()];
                    if activated_next(&page.events[index + 1..], id) {
                        (stack.len() + 1) as f64 * ACTIVATION_WIDTH / 2.0
                    } else {
                        bar_offsets(stack).1
                    }
                }),
        });
        walk.y = bottom;
    }

    /// A note: beside a lifeline, over participants or across, beside the
    /// previous message or note, or on its own row.
    pub(super) fn walk_note(
        &self,
        walk: &mut Walk<'_>,
        page: &PageFrame<'_>,
        index: usize,
        note: &Note,
        after_frame: Option<(f64, f64, f64)>,
    ) {
        let Prepared::Note(block) = &page.prepared[index] else {
            return;
        };
        let (w, h) = note_size(note.shape, block, &self.theme);
        let fill = note
            .color
            .as_deref()
            .and_then(|c| Some((parse_color(c)?, parse_gradient(c))))
            .unwrap_or((self.theme.note_bg, self.theme.note_gradient));
        let attached = matches!(
            note.position,
            NotePosition::Left { of: None } | NotePosition::Right { of: None }
        );
        // Right after a group's `end`, PlantUML hangs the note on the
        // frame: 5 px beside it and below its top, taking no room.
        if let (true, Some((frame_top, frame_left, frame_right))) = (attached, after_frame) {
            let x = match note.position {
                NotePosition::Left { .. } => frame_left - NOTE_MARGIN - w,
                _ => frame_right + NOTE_MARGIN,
            };
            draw_note(
                &mut walk.front,
                note.shape,
                x,
                frame_top + 5.0,
                w,
                h,
                block,
                fill,
                &self.theme,
            );
            walk.notes_extent = (walk.notes_extent.0.at_most(x), walk.notes_extent.1.at_least(x + w));
            return;
        }
        let parallel_to = walk
            .last_message
            .filter(|m| note.parallel && on_message_row(m, &page.events[..index]));
        let top = if let Some(m) = parallel_to {
            let (top, push) = parallel_note_top(&m, h);
            // A note taller than the message's row moves the
            // message down to stay centred on it (PlantUML).
            if push > 0.0 {
                for item in walk.front.iter_mut().skip(m.front_start) {
                    shift_item(item, 0.0, push);
                }
                walk.y += push;
                if let Some(last) = walk.last_message.as_mut() {
                    last.arrow_y += push;
                    last.bottom += push;
                }
            }
            top
        } else if note.aligned {
            // Without a note on this row, a note of its own.
            walk.last_note.map_or(walk.y + 13.0, |(t, _)| t)
        } else if attached {
            // PlantUML: 13 px below the top of the message's row,
            // which grows to 10 px below the note.
            walk.last_message.map_or(walk.y + 10.0, |m| m.row_top + 13.0)
        } else {
            // PlantUML draws a note 13 px below what precedes it
            // and the next event 3 px closer to the note's bottom.
            walk.y + 13.0
        };
        let bottom_gap = NOTE_LIFT;
        // A bar opened after the note, before the next message, starts
        // at the previous message: the note already stands beside it.
        let right_bars = |id: ParticipantId| -> f64 {
            let stack = &walk.act_stack[id.index()];
            if activated_next(&page.events[index + 1..], id) {
                (stack.len() + 1) as f64 * ACTIVATION_WIDTH / 2.0
            } else {
                bar_offsets(stack).1
            }
        };
        let x = match &note.position {
            NotePosition::Left { of: Some(id) } => {
                let Some(c) = self.lifeline_x(page.positions, *id) else {
                    return;
                };
                // PlantUML places a note on the left as if no bar were there.
                c - 5.0 - w
            }
            NotePosition::Right { of: Some(id) } => {
                let Some(c) = self.lifeline_x(page.positions, *id) else {
                    return;
                };
                c + right_bars(*id) + 5.0
            }
            // Beside a self message PlantUML measures from the
            // lifeline, over any bars open on it (probe
            // `self_message_note_left_bars`).
            NotePosition::Left { of: None } => {
                walk.last_message.map_or(page.first_x, |m| {
                    let own_lifeline = m
                        .from
                        .filter(|_| m.from == m.to)
                        .and_then(|id| self.lifeline_x(page.positions, id));
                    own_lifeline.map_or(m.min_x, |c| m.min_x.at_most(c))
                }) - 5.0
                    - w
            }
            // Beside the message's right end: for a self message's
            // loop at least SELF_WIDTH + 8 from the lifeline, like the
            // loop's room (PlantUML: 55 px for a note after
            // `A -> A: self`); a bar open there pushes it past the
            // bar (PlantUML: 5 px right of it).
            NotePosition::Right { of: None } => {
                walk.last_message.map_or(page.first_x, |m| {
                    let is_self = m.from.is_some() && m.from == m.to && m.max_x > m.min_x;
                    if is_self {
                        // The loop's room counts from the deepest bars its
                        // participant has anywhere on the page, not those
                        // open now (PlantUML, probes `self_note_deeper_*`).
                        let deepest_start = m.from.and_then(|id| {
                            let depth = page.positions.max_depth.get(id.index()).copied().unwrap_or(0);
                            self.lifeline_x(page.positions, id)
                                .map(|c| c + ACTIVATION_WIDTH / 2.0 * f64::from(depth))
                        });
                        let loop_start = deepest_start.map_or(m.min_x, |x| x.at_least(m.min_x));
                        (m.max_x + (loop_start - m.min_x)).at_least(loop_start + SELF_WIDTH + 8.0)
                    } else {
                        // Past the bars of the participant on the right.
                        let right_id = [m.from, m.to].into_iter().flatten().find(|id| {
                            self.lifeline_x(page.positions, *id)
                                .is_some_and(|x| (x - m.max_x).abs() < 1e-6)
                        });
                        m.max_x + right_id.map_or(0.0, right_bars).at_least(m.right_bars)
                    }
                }) + 5.0
            }
            NotePosition::Over { first, last } => {
                let Some(a) = self.lifeline_x(page.positions, *first) else {
                    return;
                };
                let b = last.and_then(|id| self.lifeline_x(page.positions, id)).unwrap_or(a);
                let (lo, hi) = (a.at_most(b), a.at_least(b));
                // `note over B, A` (written right to left): PlantUML
                // does not stretch the note over the pair, it only
                // centers it between them.
                let written_forward = last.is_some_and(|l| a < b || (a == b && *first == l));
                // Stretched, PlantUML's note reaches from 5 px inside
                // the first head to 5 px inside the last one (probes:
                // A/B, Alice/Bob, Alexander/B, over short and long
                // spans), centered between the lifelines.
                let heads_span = last.map(|l| {
                    let (first_head, last_head) = (&self.heads[first.index()], &self.heads[l.index()]);
                    (lo - first_head.left, hi + last_head.right)
                });
                let stretched = heads_span.map_or(0.0, |(left, right)| right - left - 2.0 * NOTE_OVER_HEAD_INSET);
                if written_forward && stretched >= w {
                    let x = (lo + hi) / 2.0 - stretched / 2.0;
                    let note_start = walk.front.len();
                    draw_note_centered(
                        &mut walk.front,
                        note.shape,
                        x,
                        top,
                        stretched,
                        h,
                        block,
                        fill,
                        &self.theme,
                    );
                    walk.overhanging.push(note_start..walk.front.len());
                    // The frame holds the heads the note stretches
                    // over, 16 px beyond them: as wide as the note
                    // and 21 px, but centred on the heads, not on
                    // the lifelines like the note (PlantUML: end
                    // heads of unequal widths, corpus 153).
                    // (Where the note overhangs the first head, PlantUML
                    // sometimes starts the frame 16 px left of the note
                    // instead: probe `group_note_over_short`, not yet
                    // told apart from corpus 153.)
                    if let (Some(g), Some((left, right))) = (walk.groups.last_mut(), heads_span) {
                        g.min_x = g.min_x.at_most(left);
                        g.max_x = g.max_x.at_least(right.at_least(x + stretched));
                    }
                    walk.last_note = Some((top, top + h));
                    walk.y = walk.y.at_least(top + h - bottom_gap);
                    return;
                }
                // Wider than the heads, the note still has its frame
                // hold the last head (PlantUML, probe
                // `group_note_over_wide_heads`).
                if let (true, Some(g), Some((_, right))) = (written_forward, walk.groups.last_mut(), heads_span) {
                    g.max_x = g.max_x.at_least(right);
                }
                (lo + hi) / 2.0 - w / 2.0
            }
            NotePosition::Across => {
                // From the first lifeline to the last, like `note over` all of them.
                let xs = self.slots.iter().filter_map(|id| self.lifeline_x(page.positions, *id));
                let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.at_most(x), b.at_least(x))
                });
                let (lo, hi) = if lo.is_finite() {
                    (lo, hi)
                } else {
                    (page.first_x, page.first_x)
                };
                // Like a note over the first and last participants:
                // 5 px inside their heads (PlantUML: 105 px over
                // Alice, B, C for `note across: x`).
                let heads = match (self.slots.first(), self.slots.last()) {
                    (Some(f), Some(l)) => {
                        (hi + self.heads[l.index()].right)
                            - (lo - self.heads[f.index()].left)
                            - 2.0 * NOTE_OVER_HEAD_INSET
                    }
                    _ => 0.0,
                };
                let width = heads.at_least(w);
                let x = (lo + hi) / 2.0 - width / 2.0;
                let note_start = walk.front.len();
                draw_note_centered(&mut walk.front, note.shape, x, top, width, h, block, fill, &self.theme);
                // Centered between unequal heads, it may stick out
                // past the first one: PlantUML does not widen the
                // canvas for it (probe: drawn from x = -6).
                if w <= heads {
                    walk.overhanging.push(note_start..walk.front.len());
                }
                // Wider than the heads, it gets a note's 5 px more
                // canvas margin (PlantUML: drawn from x = 15).
                if w > heads {
                    walk.notes_extent = (walk.notes_extent.0.at_most(x), walk.notes_extent.1.at_least(x + width));
                }
                walk.last_note = Some((top, top + h));
                walk.y = walk.y.at_least(top + h - bottom_gap);
                return;
            }
        };
        draw_note(&mut walk.front, note.shape, x, top, w, h, block, fill, &self.theme);
        if let Some(g) = walk.groups.last_mut() {
            // Attached to a self message, the note's frame room
            // on the right is 8 px less (PlantUML).
            let after_self = attached && walk.last_message.is_some_and(|m| m.from.is_some() && m.from == m.to);
            let right_room = if after_self {
                NOTE_FRAME_ROOM - ATTACHED_NOTE_CLOSER
            } else {
                NOTE_FRAME_ROOM
            };
            g.min_x = g.min_x.at_most(x - NOTE_FRAME_ROOM);
            g.max_x = g.max_x.at_least(x + w + right_room);
        }
        walk.notes_extent = (walk.notes_extent.0.at_most(x), walk.notes_extent.1.at_least(x + w));
        walk.last_note = Some((top, top + h));
        walk.y = walk.y.at_least(top + h - bottom_gap);
    }

    /// A ref over participants: its frame, tab and text, as wide as its
    /// heads or its text.
    pub(super) fn walk_ref(&self, walk: &mut Walk<'_>, page: &PageFrame<'_>, r: &Reference) {
        let xs: Vec<f64> = r
            .participants
            .iter()
            .filter_map(|p| self.lifeline_x(page.positions, *p))
            .collect();
        if xs.is_empty() {
            return;
        }
        // From 2 px inside the first participant's head to 2 px
        // inside the last one's, at least 8 px wider than the text
        // and as wide as the tab.
        let mut first: Option<(f64, &HeadMetrics)> = None;
        let mut last: Option<(f64, &HeadMetrics)> = None;
        for p in &r.participants {
            let Some(x) = self.lifeline_x(page.positions, *p) else {
                continue;
            };
            let head = &self.heads[p.index()];
            if first.is_none_or(|(fx, _)| x < fx) {
                first = Some((x, head));
            }
            if last.is_none_or(|(lx, _)| x > lx) {
                last = Some((x, head));
            }
        }
        let (Some((lo_x, lo_head)), Some((hi_x, hi_head))) = (first, last) else {
            return;
        };
        let body = self.text(&r.text, self.ref_text_font());
        let tab_block = self.text("ref", self.ref_tab_font());
        let x0 = lo_x - lo_head.left + 2.0;
        let x1 = (hi_x + hi_head.right - 2.0)
            .at_least(x0 + body.width + 8.0)
            .at_least(x0 + tab_block.width + 45.0);
        let top = walk.y + 8.0;
        let tab_h = tab_block.height + 2.0;
        let h = tab_h + body.height + 8.0;
        // Without a colour of its own or its theme's, PlantUML
        // leaves a ref unfilled: the lifelines show through it.
        let inline = r.color.as_deref().and_then(parse_color);
        let fill = inline.or(self.theme.ref_bg);
        let gradient = if inline.is_some() {
            r.color.as_deref().and_then(parse_gradient)
        } else {
            self.theme.fades.reference
        };
        rect(
            &mut walk.front,
            x0,
            top,
            x1 - x0,
            h,
            0.0,
            Paint {
                gradient: fill.and(gradient),
                ..paint(fill, Some(stroke(self.theme.ref_border, 1.5)))
            }
            .shadowed(self.theme.draws_shadows()),
        );
        let tab_w = tab_block.width + 45.0;
        shapes::tab(
            &mut walk.front,
            x0,
            top,
            tab_w.at_most(x1 - x0),
            tab_h,
            (self.theme.ref_header_bg, self.theme.fades.reference_header),
            self.theme.ref_tab_border.unwrap_or(self.theme.ref_border),
            self.theme.ref_tab_width,
        );
        tab_block.draw(
            x0 + 13.0,
            top + 2.0,
            Align::Left,
            self.theme.ref_header_font_color,
            &mut walk.front,
        );
        // `defaultTextAlignment right`: against the frame's right edge, as
        // far in as the centred text is from a frame just wide enough.
        let (body_x, body_align) = if self.theme.default_text_right {
            (x1 - 4.0 - body.width, Align::Right)
        } else {
            ((x0 + x1) / 2.0 - body.width / 2.0, Align::Center)
        };
        body.draw(
            body_x,
            top + tab_block.height + REF_BODY_GAP,
            body_align,
            self.theme.ref_font_color,
            &mut walk.front,
        );
        if let Some(g) = walk.groups.last_mut() {
            g.min_x = g.min_x.at_most(x0);
            g.max_x = g.max_x.at_least(x1);
        }
        // Like after a note, the next event comes 3 px closer.
        walk.y = top + h - NOTE_LIFT;
    }
}

/// Where a message's row puts things, and how its arrow is stroked.
#[derive(Clone, Copy)]
struct MessageRow {
    row_top: f64,
    text_top: f64,
    arrow_y: f64,
    /// The label's height (0 for an empty label).
    label_h: f64,
    /// `A ->(10) B`: how far the arrow drops.
    slant: f64,
    color: Color,
    line_stroke: Stroke,
    hidden: bool,
    /// The lifelines (or edges) of the sender and the receiver.
    from_c: f64,
    to_c: f64,
    goes_right: bool,
    /// 1 going right, -1 going left.
    dir: f64,
}

/// How far the open bars of `id` reach left or right of its lifeline.
fn side_offset(walk: &Walk<'_>, id: Option<ParticipantId>, toward_right: bool) -> f64 {
    match id {
        Some(id) => {
            let (l, r) = bar_offsets(&walk.act_stack[id.index()]);
            if toward_right {
                r
            } else {
                l
            }
        }
        None => 0.0,
    }
}

/// Where an arrow starts or ends beside a lifeline: at its open bars'
/// edge, or at the edge of the bars opened right after the message (they
/// are already there: on the right, the innermost of them, PlantUML's
/// probe `activate_twice_after_message`).
fn bar_edge(walk: &Walk<'_>, page: &PageFrame<'_>, index: usize, id: Option<ParticipantId>, toward_right: bool) -> f64 {
    let opened = id.map_or(0, |id| activations_next(&page.events[index + 1..], id));
    match id.filter(|_| opened > 0) {
        Some(id) => {
            let shift = walk.act_stack[id.index()].len() as f64 * ACTIVATION_WIDTH / 2.0;
            if toward_right {
                shift + opened as f64 * ACTIVATION_WIDTH / 2.0
            } else {
                shift - ACTIVATION_WIDTH / 2.0
            }
        }
        None => side_offset(walk, id, toward_right),
    }
}
