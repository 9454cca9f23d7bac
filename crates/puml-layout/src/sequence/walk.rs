//! The vertical walk's steps, one per kind of event: each moves the page's
//! [`Walk`] on (its `y`, what it drew, what it reaches) as PlantUML does.
//! Messages, notes and refs keep theirs in `sequence.rs` for now.

use super::*;
use puml_sema::model::Group;

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
                g.min_x = g.min_x.min(c - ACTIVATION_WIDTH / 2.0);
                g.max_x = g.max_x.max(c + shift + ACTIVATION_WIDTH / 2.0);
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
                        end.max(start),
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
                        at.max(start),
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
        walk.y = walk.y.max(at + room_below);
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
        let tab_h = creole::measure_height(
            tab_text,
            self.theme
                .sized_font_of(TextElement::GroupTab, self.theme.group_header_font_size, 13.0)
                .bold(),
            self.metrics,
        );
        // A condition in a large font makes the header taller
        // (PlantUML: condition height minus 11 px below the tab's).
        let condition = match group.kind {
            GroupKind::Group => group.secondary.as_deref(),
            _ => group.label.as_deref(),
        };
        let cond_room = condition.filter(|c| !c.trim().is_empty()).map_or(0.0, |c| {
            creole::measure_height(
                c,
                self.theme
                    .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                    .bold(),
                self.metrics,
            ) - 11.0
        });
        walk.y = top + tab_h + cond_room.max(4.0);
    }

    /// An `else` line in the innermost group, with its label's room.
    pub(super) fn walk_group_else(&self, walk: &mut Walk<'_>, label: &Option<String>, color: &Option<String>) {
        let at = walk.y + 9.0;
        if let Some(g) = walk.groups.last_mut() {
            g.elses
                .push((at, label.clone(), color.as_deref().and_then(parse_color)));
            let label_h = match label.as_deref().filter(|l| !l.trim().is_empty()) {
                Some(l) => creole::measure_height(
                    l,
                    self.theme
                        .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                        .bold(),
                    self.metrics,
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
        walk.frames_left = walk.frames_left.min(x0);
        walk.frames_right = walk.frames_right.max(x1);
        if let Some(parent) = walk.groups.last_mut() {
            parent.min_x = parent.min_x.min(x0 - GROUP_NEST_LEFT);
            parent.max_x = parent.max_x.max(x1 + GROUP_NEST_INSET - GROUP_FRAME_LEFT);
        }
        // PlantUML leaves 6 px below a frame before what follows.
        walk.y = bottom + GROUP_GAP_AFTER;
    }

    /// A divider: its box is drawn once the page is as wide as it will be
    /// (`Deferred::Divider`).
    pub(super) fn walk_divider(&self, walk: &mut Walk<'_>, text: &str, spaced: &bool, first_x: f64) {
        let block = creole::measure(
            text,
            self.theme
                .sized_font_of(TextElement::Separator, self.theme.separator_font_size, 13.0)
                .bold(),
            self.metrics,
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
            g.min_x = g.min_x.min(first_x);
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
        if let Some(text) = text.as_deref().filter(|t| !t.trim().is_empty()) {
            let block = creole::measure(
                text,
                self.theme
                    .sized_font_of(TextElement::Delay, self.theme.delay_font_size, 11.0),
                self.metrics,
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
}
