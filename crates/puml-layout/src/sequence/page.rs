//! One page, phase by phase ([`Context::layout_page`]): prepare (every
//! label measured once), the horizontal positions, the decorations above
//! the body, the heads, the vertical walk over the events (its steps in
//! `walk.rs`), what the walk leaves open closed at the page's end, the
//! lifelines and feet, the body assembled, and the decorations around and
//! below it (`decorations.rs`).

use super::decorations::{Canvas, TopDecorations};
use super::*;

impl Context<'_> {
    pub(super) fn layout_page(
        &self,
        events: &[Event],
        title: Option<&str>,
        created_before: &mut [bool],
        activations: &mut [Vec<Option<Color>>],
        shared_positions: Option<&Positions>,
        spot: PageSpot,
    ) -> Scene {
        let reordered = attached_notes_first(events);
        let events: &[Event] = &reordered;
        let prepared = self.prepare(events);
        let mut own_positions;
        let positions = match shared_positions {
            Some(shared) => shared,
            None => {
                own_positions = self.solve_positions(events, &prepared);
                self.enclose_notes_across(events, &prepared, &mut own_positions);
                &own_positions
            }
        };
        let n = self.slots.len();
        let mid_x = if n > 0 {
            (positions.pos[1] + positions.pos[n]) / 2.0
        } else {
            0.0
        };
        let TopDecorations {
            y,
            items: top_items,
            header,
            title,
            banners,
            mainframe,
        } = self.top_decorations(title, positions, mid_x);
        let has_boxes = !self.box_spans.is_empty();
        // PlantUML draws participant boxes 1 px lower than the heads would
        // start without them, and keeps 4 px more below them.
        let box_top = if has_boxes { y + 1.0 } else { y };
        let heads_top = if has_boxes {
            box_top + self.heads_below_box_top()
        } else {
            box_top
        };
        let heads_bottom = heads_top + self.max_head_height;
        let lifeline_top = heads_bottom + 1.0;
        let page = PageFrame {
            events,
            prepared: &prepared,
            positions,
            first_x: self.first_head_left(positions),
            n,
        };
        let walk_top = if spot.after_first {
            lifeline_top + 13.0
        } else {
            lifeline_top
        };
        let mut walk = self.start_walk(walk_top, lifeline_top, heads_bottom, &page, created_before, activations);
        self.walk_events(&mut walk, &page, created_before, mid_x);
        self.close_walk(&mut walk, &page);
        let page_bottom = walk.y + 18.0 + if spot.before_last { 11.0 } else { 0.0 };
        self.close_bars_at_page_end(&mut walk, positions, activations, page_bottom);
        let lifelines = self.draw_lifelines(&walk, positions, page_bottom, spot);
        let cx = |id: ParticipantId| self.lifeline_x(positions, id);
        let page_break_ys = self.page_break_marks(spot, &walk.head_top_y, page_bottom, &cx);
        let (bottom, feet_reach) = self.draw_feet(&mut walk.heads_items, positions, page_bottom);
        let has_feet = bottom > page_bottom;
        let (boxes, bottom) = self.draw_boxes(positions, box_top, bottom, has_feet);
        let deferred = std::mem::take(&mut walk.deferred);
        let mut canvas = self.assemble(top_items, header.overhang.clone(), boxes, lifelines, walk, positions);
        canvas.bottom = bottom;
        canvas.feet_reach = feet_reach;
        canvas.has_feet = has_feet;
        canvas.banner_body_right = canvas.min_x + self.banner_min_body_width(banners.iter().map(|(text, _)| *text));
        self.widen_for_banners(&mut canvas, spot);
        self.draw_dividers(&mut canvas, deferred, &page_break_ys);
        self.draw_mainframe(&mut canvas, mainframe);
        self.finish_page(canvas, header, title, banners)
    }

    /// The left edge of the leftmost head.
    fn first_head_left(&self, positions: &Positions) -> f64 {
        let mut first_x = f64::INFINITY;
        for &id in &self.slots {
            if let Some(x) = self.lifeline_x(positions, id) {
                first_x = first_x.at_most(x - self.heads[id.index()].left);
            }
        }
        if first_x.is_finite() {
            first_x
        } else {
            0.0
        }
    }

    /// The walk at the page's top: the heads drawn there (all but those
    /// created later on this page), the bars carried over from the previous
    /// page restarting at the lifelines' top, nothing else yet.
    fn start_walk<'e>(
        &self,
        y: f64,
        lifeline_top: f64,
        heads_bottom: f64,
        page: &PageFrame<'e>,
        created_before: &[bool],
        activations: &[Vec<Option<Color>>],
    ) -> Walk<'e> {
        let events = page.events;
        let participants = self.diagram.participants.len();
        // Which heads are drawn at the top: all but those created later on this page.
        let mut pending_create = vec![false; participants];
        for (i, p) in self.diagram.participants.iter().enumerate() {
            if p.created && !created_before[i] {
                pending_create[i] = true;
            }
        }
        for event in events {
            if let Event::Create { participant } = event {
                if let Some(flag) = pending_create.get_mut(participant.index()) {
                    *flag = !created_before[participant.index()];
                }
            }
        }
        // A created participant no message ever reaches keeps its head at
        // the top, like any other (PlantUML 1.2026.8, probe
        // `create_never_reached`).
        for (i, flag) in pending_create.iter_mut().enumerate() {
            let id = ParticipantId(i as u32);
            if *flag && !reached_by_a_message(&self.diagram.events, id) {
                *flag = false;
            }
        }
        // A head draws four or five items, each participant two heads.
        let mut heads_items: Vec<Item> = Vec::with_capacity(self.slots.len() * 10);
        for &id in &self.slots {
            if pending_create[id.index()] {
                continue;
            }
            let head = &self.heads[id.index()];
            if let Some(x) = self.lifeline_x(page.positions, id) {
                self.push_head(&mut heads_items, id, x, heads_bottom - head.height, false);
            }
        }
        Walk {
            y,
            // Sized for the usual three or four items an event draws (line,
            // head, label…): grown by doubling, this vector's copies of large
            // items were a third of the render's reallocation work.
            front: Vec::with_capacity(events.len() * 4 + 16),
            bars: BarLayer::default(),
            overhanging: Vec::new(),
            fills: Vec::new(),
            heads_items,
            head_top_y: vec![lifeline_top; participants],
            lifeline_end: vec![None; participants],
            pending_create,
            deactivation_runs: vec![None; participants],
            // Open activations carried over from the previous page restart at the top.
            act_stack: activations
                .iter()
                .map(|stack| stack.iter().map(|c| (lifeline_top, *c)).collect())
                .collect(),
            groups: Vec::new(),
            // The leftmost group frame: PlantUML keeps 3 px more margin left of it.
            frames_left: f64::INFINITY,
            frames_right: f64::NEG_INFINITY,
            notes_extent: (f64::INFINITY, f64::NEG_INFINITY),
            loops_extent: (f64::INFINITY, f64::NEG_INFINITY),
            // PlantUML's canvas keeps 1 px past a message to or from the
            // diagram's right edge (`->]`, `->?`) besides its margin
            // (probes `message_to_right_edge` and others).
            right_edge_reach: f64::NEG_INFINITY,
            self_reach_right: f64::NEG_INFINITY,
            last_message: None,
            last_note: None,
            last_row_top: y,
            delays: Vec::new(),
            deferred: Vec::new(),
            anchors: HashMap::new(),
            durations: Vec::new(),
            closed_frame: None,
        }
    }

    /// The vertical walk: one step per event (`walk.rs`).
    fn walk_events<'e>(&self, walk: &mut Walk<'e>, page: &PageFrame<'e>, created_before: &mut [bool], mid_x: f64) {
        let (events, positions, first_x) = (page.events, page.positions, page.first_x);
        for (index, event) in events.iter().enumerate() {
            let after_frame = walk.closed_frame.take();
            match event {
                Event::Message(m) => self.walk_message(walk, page, index, m, created_before),
                Event::Note(note) => self.walk_note(walk, page, index, note, after_frame),
                Event::Ref(r) => self.walk_ref(walk, page, r),
                // The head is drawn with the next message to this participant;
                // nothing to place yet.
                Event::Create { .. } => {}
                Event::Activate { participant, color } => {
                    self.walk_activate(walk, positions, events, index, participant, color)
                }
                Event::Deactivate { participant } => self.walk_deactivate(walk, positions, events, index, participant),
                Event::Destroy { participant } => self.walk_destroy(walk, positions, participant),
                Event::GroupStart(group) => self.walk_group_start(walk, group),
                Event::GroupElse { label, color } => self.walk_group_else(walk, label, color),
                Event::GroupEnd => self.walk_group_end(walk, first_x),
                Event::Divider { text, spaced } => self.walk_divider(walk, text, spaced, first_x),
                Event::Delay { text } => self.walk_delay(walk, text, mid_x),
                // `|||` is 25 px in PlantUML
                Event::Space { pixels } => walk.y += pixels.map_or(25.0, |p| f64::from(p.min(10_000))),
                Event::NewPage { .. } => {}
                Event::Duration {
                    from_anchor,
                    to_anchor,
                    label,
                } => walk.durations.push((from_anchor, to_anchor, label)),
            }
        }
    }

    /// What the walk leaves open, closed at the page's end: durations once
    /// every anchor is placed, groups left open, the heads of created
    /// participants no message reached.
    fn close_walk(&self, walk: &mut Walk<'_>, page: &PageFrame<'_>) {
        // Durations once every anchor of the page is placed (the `<->` line
        // may come before the `{end}` message).
        for (from, to, label) in std::mem::take(&mut walk.durations) {
            if let (Some(&(x, y1)), Some(&(_, y2))) = (walk.anchors.get(from), walk.anchors.get(to)) {
                self.duration_arrow(&mut walk.front, x, y1.at_most(y2), y1.at_least(y2), label);
            }
        }
        // Groups left open: PlantUML closes them at the end of the page, each
        // followed by the usual gap.
        while let Some(g) = walk.groups.pop() {
            let bottom = walk.y + 8.0;
            let (x0, x1) = self.close_group(&g, bottom, page.first_x, &mut walk.front, &mut walk.fills);
            walk.frames_left = walk.frames_left.at_most(x0);
            walk.frames_right = walk.frames_right.at_least(x1);
            if let Some(parent) = walk.groups.last_mut() {
                parent.min_x = parent.min_x.at_most(x0 - GROUP_NEST_LEFT);
                parent.max_x = parent.max_x.at_least(x1 + GROUP_NEST_INSET - GROUP_FRAME_LEFT);
            }
            walk.y = bottom + GROUP_GAP_AFTER;
        }
        // Created participants never reached by a message: draw their head at the end.
        for &id in &self.slots {
            if walk.pending_create[id.index()] {
                if let Some(x) = self.lifeline_x(page.positions, id) {
                    let top = walk.y + 10.0;
                    self.push_head(&mut walk.heads_items, id, x, top, false);
                    walk.head_top_y[id.index()] = top + self.heads[id.index()].height;
                    walk.y = top + self.heads[id.index()].height;
                }
            }
        }
    }

    /// Activation bars still open close at the page's end; they are
    /// remembered for the next page.
    fn close_bars_at_page_end(
        &self,
        walk: &mut Walk<'_>,
        positions: &Positions,
        activations: &mut [Vec<Option<Color>>],
        page_bottom: f64,
    ) {
        for (i, stack) in walk.act_stack.iter().enumerate() {
            activations[i] = stack.iter().map(|(_, c)| *c).collect();
            if let Some(c) = self.lifeline_x(positions, ParticipantId(i as u32)) {
                for (level, (start, color)) in stack.iter().enumerate() {
                    let end = walk.lifeline_end[i].unwrap_or(page_bottom);
                    let shift = level as f64 * ACTIVATION_WIDTH / 2.0;
                    let color = color.or_else(|| self.stereotype_bar_fill(ParticipantId(i as u32)));
                    let bar = self.activation_bar(c + shift, *start, end.at_least(*start), color, &walk.delays);
                    walk.bars.add(ParticipantId(i as u32), level + 1, bar);
                }
            }
        }
    }

    /// The lifelines, split around delays (which are dotted).
    fn draw_lifelines(&self, walk: &Walk<'_>, positions: &Positions, page_bottom: f64, spot: PageSpot) -> Vec<Item> {
        let theme = &self.theme;
        let mut lifelines = Vec::new();
        let lifeline_stroke = if theme.solid_lifeline {
            stroke(theme.lifeline_color, 0.5)
        } else {
            dashed(theme.lifeline_color, 0.5, 5.0, 5.0)
        };
        for &id in &self.slots {
            let Some(x) = self.lifeline_x(positions, id) else {
                continue;
            };
            let start = walk.head_top_y[id.index()];
            // A destroyed lifeline reaches 8 px past the cross's center
            // (PlantUML 1.2026.8, on the message's row and elsewhere).
            // On a page another one follows, 1 px into the foot boxes (PlantUML).
            let page_end = if spot.before_last {
                page_bottom + 1.0
            } else {
                page_bottom
            };
            let end = walk.lifeline_end[id.index()].map_or(page_end, |at| at + 8.0);
            lifelines.push(Item::Begin {
                class: "lifeline".into(),
                title: Some(self.diagram.participant(id).name.clone()),
                link: None,
                data: Vec::new(),
            });
            let mut from = start;
            for &(d0, d1) in &walk.delays {
                if d1 <= from || d0 >= end {
                    continue;
                }
                if d0 > from {
                    line(&mut lifelines, x, from, x, d0, lifeline_stroke);
                }
                line(
                    &mut lifelines,
                    x,
                    d0.at_least(from),
                    x,
                    d1.at_most(end),
                    dashed(theme.lifeline_color, 0.5, 1.0, 4.0),
                );
                from = d1;
            }
            if end > from {
                line(&mut lifelines, x, from, x, end, lifeline_stroke);
            }
            lifelines.push(Item::End);
        }
        lifelines
    }

    /// The foot boxes (none with `hide footbox` or `style strictuml`, as in
    /// PlantUML): where the body then ends, and how far a participant's or
    /// an actor's foot reaches.
    fn draw_feet(&self, heads_items: &mut Vec<Item>, positions: &Positions, page_bottom: f64) -> (f64, f64) {
        if self.diagram.settings.hide_footbox || self.theme.strict_uml {
            return (page_bottom, f64::NEG_INFINITY);
        }
        for &id in &self.slots {
            if let Some(x) = self.lifeline_x(positions, id) {
                self.push_head(heads_items, id, x, page_bottom, true);
            }
        }
        let bottom = page_bottom + self.max_head_height;
        // PlantUML's canvas keeps 1 px more below a participant's or an
        // actor's foot than below the other shapes (a database's foot, a
        // box): corpus pages ending on such feet are 1 px taller.
        let feet_reach = if bottom > page_bottom {
            self.slots
                .iter()
                .filter(|id| {
                    matches!(
                        self.diagram.participant(**id).kind,
                        puml_sema::model::ParticipantKind::Participant | puml_sema::model::ParticipantKind::Actor
                    )
                })
                .map(|id| page_bottom + self.heads[id.index()].height + 1.0)
                .fold(f64::NEG_INFINITY, f64::at_least)
        } else {
            f64::NEG_INFINITY
        };
        (bottom, feet_reach)
    }

    /// The body in painting order (top decorations, boxes, fills,
    /// lifelines, bars, heads, what the events drew), and the bounds the
    /// rest of the page is placed against.
    fn assemble(
        &self,
        top_items: Vec<Item>,
        header_overhang: Vec<usize>,
        boxes: Vec<Item>,
        lifelines: Vec<Item>,
        walk: Walk<'_>,
        positions: &Positions,
    ) -> Canvas {
        let top_len = top_items.len();
        let Walk {
            front,
            bars,
            overhanging,
            fills,
            heads_items,
            deferred,
            frames_left,
            frames_right,
            notes_extent,
            loops_extent,
            right_edge_reach,
            self_reach_right,
            ..
        } = walk;
        // With room for what comes after (the top items, dividers, title,
        // legend, footer): growing this vector copies every item.
        let mut items = Vec::with_capacity(
            top_items.len()
                + boxes.len()
                + fills.len()
                + lifelines.len()
                + bars.items.len()
                + heads_items.len()
                + front.len()
                + deferred.len() * 8
                + 64,
        );
        items.extend(top_items);
        // A box's own outline does not size the canvas: box_room() does,
        // from the heads (what the box grows around keeps its own margin).
        // PlantUML 1.2026 does the same under `!pragma teoz true` (corpus 152).
        let box_outlines: Vec<usize> = boxes
            .iter()
            .enumerate()
            .filter(|(_, item)| !matches!(item, Item::Text(_)))
            .map(|(i, _)| items.len() + i)
            .collect();
        // Yet the canvas never cuts a box: one grown past everything else
        // (around a note over participants of two boxes) ends at the
        // canvas' edge (PlantUML, `box_note_over_two_boxes`).
        let boxes_right = x_bounds(&boxes).1;
        items.extend(boxes);
        items.extend(fills);
        items.extend(lifelines);
        items.extend(bars.items);
        items.extend(heads_items);
        let front_start = items.len();
        let mut overhang: Vec<usize> = overhanging
            .iter()
            .flat_map(|range| {
                // Its outline, fold and shadow; its text stays inside anyway.
                range
                    .clone()
                    .filter(|&i| !matches!(front[i], Item::Text(_)))
                    .map(|i| front_start + i)
            })
            .collect();
        overhang.extend(box_outlines);
        overhang.extend(header_overhang);
        items.extend(front);
        // The canvas holds each head's whole column, drawn or not: a
        // participant's margin (`participant { Margin }`), the room right of
        // an actor's or a database's name (drawn 3 px left of the axis).
        let mut heads_extent = (f64::INFINITY, f64::NEG_INFINITY);
        for &id in &self.slots {
            let head = &self.heads[id.index()];
            if let Some(x) = self.lifeline_x(positions, id) {
                heads_extent = (
                    heads_extent.0.at_most(x - head.left),
                    heads_extent.1.at_least(x + head.right),
                );
            }
        }
        let content_bounds = x_bounds_except(&items, &overhang);
        let content_len = items.len();
        let (mut min_x, mut max_x) = content_bounds;
        if !min_x.is_finite() {
            min_x = 0.0;
            max_x = 0.0;
        }
        // What the canvas holds besides the drawn items: the heads' columns,
        // the room beside boxes, frames and notes. Dividers span it all and
        // the title is centered on it.
        let mut body_edges = self.box_room(positions);
        body_edges = (
            body_edges.0.at_most(heads_extent.0),
            body_edges.1.at_least(heads_extent.1),
        );
        body_edges.0 = body_edges.0.at_most(frames_left - GROUP_FRAME_MARGIN);
        // PlantUML's canvas reaches 19.3 px past a group frame on the right
        // (the margin included).
        body_edges.1 = body_edges.1.at_least(frames_right + GROUP_FRAME_RIGHT_ROOM - MARGIN);
        body_edges.0 = body_edges.0.at_most(notes_extent.0 - NOTE_MARGIN);
        body_edges.1 = body_edges.1.at_least(notes_extent.1 + NOTE_MARGIN);
        body_edges = (
            body_edges.0.at_most(loops_extent.0),
            body_edges.1.at_least(loops_extent.1),
        );
        body_edges.1 = body_edges.1.at_least(right_edge_reach + 1.0);
        body_edges.1 = body_edges.1.at_least(self_reach_right);
        if min_x.is_finite() && body_edges.0.is_finite() {
            min_x = min_x.at_most(body_edges.0);
        }
        Canvas {
            items,
            overhang,
            top_len,
            content_bounds,
            content_len,
            min_x,
            max_x,
            heads_extent,
            body_edges,
            banner_body_right: f64::NEG_INFINITY,
            boxes_right,
            divider_right: f64::NEG_INFINITY,
            mainframe_span: None,
            bottom: 0.0,
            feet_reach: f64::NEG_INFINITY,
            has_feet: false,
            has_boxes: !self.box_spans.is_empty(),
        }
    }

    /// A deprecation banner is as wide as the body, and at least as wide
    /// as PlantUML draws it beside a narrow diagram: it widens the body, so
    /// the canvas, dividers and what is centred on the body (title, legend,
    /// footer) or right-aligned to it (header) follow. Then pages share
    /// their columns and so their canvas edges (PlantUML).
    fn widen_for_banners(&self, canvas: &mut Canvas, spot: PageSpot) {
        canvas.body_edges.1 = canvas.body_edges.1.at_least(canvas.banner_body_right);
        if canvas.body_edges.1.is_finite() {
            canvas.max_x = canvas.max_x.at_least(canvas.body_edges.1);
        }
        self.page_bounds.set((canvas.min_x, canvas.max_x));
        if let Some((left, right)) = spot.shared_bounds {
            canvas.body_edges = (canvas.body_edges.0.at_most(left), canvas.body_edges.1.at_least(right));
            canvas.min_x = canvas.min_x.at_most(left);
            canvas.max_x = canvas.max_x.at_least(right);
        }
    }
}
