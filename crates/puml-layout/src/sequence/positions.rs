//! The horizontal pass ([`Context::solve_positions`]): one x per lifeline,
//! plus the diagram's left and right edges, as the longest paths through
//! "slot b is at least d right of slot a" constraints. In phases: the
//! heads' and boxes' spacing, then one step per kind of event over the
//! page (each adds the room it needs, [`RoomPass`]), then the rooms that
//! depend on the solution (notes over several participants, room on the
//! left) settled by solving again.

use super::*;
use puml_sema::model::Reference;

/// `pos[b] >= pos[a] + d`, whichever of `a` and `b` is the smaller slot.
fn need(constraints: &mut [Vec<(usize, f64)>], a: usize, b: usize, d: f64) {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    if a != b && d.is_finite() {
        constraints[b].push((a, d));
    }
}

/// What the horizontal pass gathers while it walks the page's events.
struct RoomPass<'e> {
    events: &'e [Event],
    /// How many lifelines; slot s of a participant is index s + 1, 0 and
    /// n + 1 are the edges.
    n: usize,
    /// Per slot: the slots left of it and how far it must stay from them.
    constraints: Vec<Vec<(usize, f64)>>,
    /// Per slot: how far self messages and their labels reach.
    self_reach: Vec<(f64, f64)>,
    /// Per slot (1-based): how far the notes so far left of or over a
    /// participant (or left of its self messages) reach left of its
    /// lifeline, with a note's margin. PlantUML keeps a group frame clear
    /// of the notes that precede the group's end, not of later ones.
    notes_left: Vec<f64>,
    last_is_self: bool,
    /// The last message's slots, and how far right its loop reaches when it is a self message.
    last_message: Option<(usize, usize, f64)>,
    open_groups: Vec<GroupReach>,
    /// Notes over several participants: (first slot, last slot, width).
    over_spans: Vec<(usize, usize, f64)>,
    /// Notes over two participants in groups or right after a box: the
    /// room they need from the participants (or box) beyond them,
    /// resolved after solving.
    group_pair_notes: Vec<PairNoteRoom>,
    /// Room a note needs left of a lifeline (1-based slot): like PlantUML,
    /// the whole diagram moves right rather than the participants spreading.
    left_room: Vec<(usize, f64)>,
    /// Activation depth per participant: a message ends at the bar's edge.
    depth: Vec<u32>,
    /// Per participant: the deepest its bars go anywhere on the page.
    max_depth: Vec<u32>,
    /// Participants whose head is drawn on the next message to them.
    awaiting_head: Vec<bool>,
    previous_note: Option<NoteExtent>,
    /// Where the last event, a self message in a group, keeps the next
    /// participant clear of the frame (index in the group's notes), and
    /// the bars its loop starts past.
    self_push: Option<(usize, f64)>,
    /// The bars on the right-hand participant of the last message.
    last_message_bars: f64,
}

impl RoomPass<'_> {
    fn need(&mut self, a: usize, b: usize, d: f64) {
        need(&mut self.constraints, a, b, d);
    }

    /// How far the bars of `p` reach right of its lifeline at event
    /// `index` (those open, and one the next event opens).
    fn bars_at(&self, index: usize, p: ParticipantId) -> f64 {
        let d =
            self.depth.get(p.index()).copied().unwrap_or(0) + u32::from(activated_next(&self.events[index + 1..], p));
        ACTIVATION_WIDTH / 2.0 * f64::from(d)
    }
}

impl Context<'_> {
    /// Horizontal pass: lifeline x of every slot, plus the left/right edges.
    pub(super) fn solve_positions(&self, events: &[Event], prepared: &[Prepared]) -> Positions {
        let n = self.slots.len();
        let participants = self.diagram.participants.len();
        let max_depth = {
            let mut running = vec![0; participants];
            let mut deepest = vec![0; participants];
            for event in events {
                track_activation_depth(&mut running, event);
                for (d, r) in deepest.iter_mut().zip(&running) {
                    *d = (*d).max(*r);
                }
            }
            deepest
        };
        let mut pass = RoomPass {
            events,
            n,
            constraints: vec![Vec::new(); n + 2],
            self_reach: self.self_message_reach(events, prepared, n),
            notes_left: vec![0.0_f64; n + 2],
            last_is_self: false,
            last_message: None,
            open_groups: Vec::new(),
            over_spans: Vec::new(),
            group_pair_notes: Vec::new(),
            left_room: Vec::new(),
            depth: vec![0; participants],
            max_depth,
            awaiting_head: vec![false; participants],
            previous_note: None,
            self_push: None,
            last_message_bars: 0.0,
        };
        self.head_spacing(&mut pass);
        self.box_spacing(&mut pass, prepared);
        for (index, (event, prep)) in events.iter().zip(prepared).enumerate() {
            self.room_for_event(&mut pass, index, event, prep);
        }
        // PlantUML closes the groups left open at the end of the diagram:
        // they keep their neighbours clear like closed ones.
        while !pass.open_groups.is_empty() {
            self.close_group_room(&mut pass);
        }
        let pos = settle(&mut pass);
        Positions {
            pos,
            self_reach: pass.self_reach,
            max_depth: pass.max_depth,
        }
    }

    /// Neighbouring heads keep `HEAD_GAP` between them; the first and last
    /// keep their halves inside the edges.
    fn head_spacing(&self, pass: &mut RoomPass<'_>) {
        let n = pass.n;
        for s in 0..n {
            let head = &self.heads[self.slots[s].index()];
            if s == 0 {
                pass.need(0, 1, head.left);
            } else {
                let prev = &self.heads[self.slots[s - 1].index()];
                pass.need(s, s + 1, prev.right + head.left + HEAD_GAP);
            }
            if s == n - 1 {
                pass.need(n, n + 1, head.right);
            }
        }
    }

    /// Boxes, as PlantUML spaces them: a box starts BOX_GAP_BEFORE (plus
    /// `boxPadding`) after the previous head, the next participant starts
    /// BOX_GAP_AFTER (plus twice `boxPadding`) after the box, and a title
    /// wider than the heads widens the box on both sides.
    fn box_spacing(&self, pass: &mut RoomPass<'_>, prepared: &[Prepared]) {
        let n = pass.n;
        let box_pad = self.theme.box_padding;
        let reversed_reach = self.reversed_note_reach(pass.events, prepared, n);
        for span in &self.box_spans {
            let (first, last) = (span.first, span.last);
            let (before, after) = self.shared_box_sides(span, &pass.self_reach);
            if first == 0 {
                pass.need(0, 1, before + BOX_GAP_BEFORE + box_pad);
            } else {
                let prev = &self.heads[self.slots[first - 1].index()];
                pass.need(first, first + 1, prev.right + before + BOX_GAP_BEFORE + box_pad);
            }
            if last + 1 < n {
                let next_before = match self.box_before_at(last + 1, &pass.self_reach) {
                    Some(before) => before,
                    // Unboxed, a participant under a reversed note keeps
                    // clear as if it had a box (`reversed_notes`).
                    None => self.heads[self.slots[last + 1].index()]
                        .left
                        .at_least(reversed_reach.get(last + 2).map_or(0.0, |r| r.0)),
                };
                pass.need(last + 1, last + 2, after + BOX_GAP_AFTER + 2.0 * box_pad + next_before);
            } else {
                pass.need(last + 1, n + 1, after + BOX_GAP_BEFORE);
            }
        }
    }

    /// One event's step of the horizontal pass.
    fn room_for_event(&self, pass: &mut RoomPass<'_>, index: usize, event: &Event, prep: &Prepared) {
        let pending_self_push = pass.self_push.take();
        match (event, prep) {
            (Event::Create { participant }, _) => {
                if let Some(flag) = pass.awaiting_head.get_mut(participant.index()) {
                    *flag = true;
                }
            }
            (Event::Activate { participant, .. }, _) => {
                track_activation_depth(&mut pass.depth, event);
                // A bar opened in a group is in its frame, which reaches
                // 16 px past the bar: the next participant stays clear.
                // On the left PlantUML keeps the previous participant
                // clear of it like of a note reaching the lifeline
                // (30 px, 25 more per frame inside the group; probe
                // `group_bar_nested_left`).
                let level = pass.depth.get(participant.index()).copied().unwrap_or(1).max(1);
                let n = pass.n;
                if let (Some(group), Some(slot)) = (pass.open_groups.last_mut(), self.slot(*participant)) {
                    group.touch(slot + 1, n);
                    group.notes.push((
                        NoteExtent {
                            anchor: slot + 1,
                            left: 0.0,
                            right: ACTIVATION_WIDTH / 2.0 * f64::from(level - 1),
                        },
                        0,
                    ));
                }
            }
            (Event::Deactivate { .. } | Event::Destroy { .. }, _) => {
                track_activation_depth(&mut pass.depth, event);
            }
            (Event::GroupStart(group), _) => pass.open_groups.push(GroupReach {
                min_width: self.group_header_width(
                    group.kind,
                    group.label.as_deref(),
                    group.label_trailing_blanks,
                    group.secondary.as_deref(),
                ),
                ..GroupReach::default()
            }),
            // An `else` label widens the frame but, unlike the header,
            // does not push the next participant (PlantUML draws it over
            // that participant's lifeline).
            (Event::GroupEnd, _) => self.close_group_room(pass),
            (Event::Message(m), Prepared::Message(label, number)) => {
                pass.last_is_self = m.is_self();
                // A `/ note` after a message has a row of its own.
                pass.previous_note = None;
                let label_w = label.width + number.as_ref().map_or(0.0, |n| n.width + NUMBER_GAP);
                let from = self.endpoint_slot(&m.from, pass.n);
                let to = self.endpoint_slot(&m.to, pass.n);
                let (Some(from), Some(to)) = (from, to) else { return };
                if let Some(group) = pass.open_groups.last_mut() {
                    group.touch(from, pass.n);
                    group.touch(to, pass.n);
                }
                if m.is_self() {
                    self.room_for_self_message(pass, index, m, from, label_w);
                } else {
                    self.room_for_message(pass, index, m, (from, to), label_w);
                }
            }
            (Event::Note(note), Prepared::Note(block)) => {
                self.room_for_note(pass, index, note, block, pending_self_push)
            }
            (Event::Ref(r), _) => self.room_for_ref(pass, r),
            _ => {}
        }
    }

    /// A group closes: its frame keeps its neighbours clear of what it holds.
    fn close_group_room(&self, pass: &mut RoomPass<'_>) {
        let Some(group) = pass.open_groups.pop() else { return };
        let n = pass.n;
        let constraints = &mut pass.constraints;
        self.group_note_room(
            &group,
            n,
            &mut |a, b, d| need(constraints, a, b, d),
            &mut pass.left_room,
            &pass.notes_left,
        );
        pass.group_pair_notes
            .extend(self.pair_note_room(&group, n, &pass.notes_left));
        if let Some(parent) = pass.open_groups.last_mut() {
            parent.absorb(group);
        }
    }

    /// A self message: the loop and its label stay clear of the
    /// neighbouring lifeline.
    fn room_for_self_message(&self, pass: &mut RoomPass<'_>, index: usize, m: &Message, from: usize, label_w: f64) {
        let n = pass.n;
        // PlantUML: the label plus 14 from lifeline to lifeline.
        // A loop on the right starts at the outermost bar's edge
        // (5 px further per nested bar); one on the left does not.
        let bars = m.from.participant().map_or(0.0, |p| pass.bars_at(index, p));
        // PlantUML makes room for the deepest bars the participant has
        // anywhere on the page, open or not.
        let deepest = m.from.participant().map_or(0.0, |p| {
            ACTIVATION_WIDTH / 2.0 * f64::from(pass.max_depth.get(p.index()).copied().unwrap_or(0))
        });
        let room = (label_w + 14.0).at_least(SELF_WIDTH + 8.0);
        // In a group, the frame reaches 16 px past the label (7 px after
        // the bars) or past the loop, whichever is longer, and the next
        // participant stays 9 px clear of it, like beside a note (probes
        // `test-data/sequence-probes/group_self_*`).
        if let Some(group) = pass.open_groups.last() {
            // A note beside the loop follows it from the deepest bars.
            pass.self_push = Some((group.notes.len(), bars.at_least(deepest)));
        }
        if let (Some(group), true) = (pass.open_groups.last_mut(), m.arrow.written_reversed) {
            // On the left the frame reaches 16 px past the label,
            // which starts 7 px into the loop (past the bars).
            group.notes.push((
                NoteExtent {
                    anchor: from,
                    left: bars + 7.0 + label_w + 16.0 + GROUP_CLEARANCE - GROUP_NOTE_ROOM,
                    right: -5.0,
                },
                0,
            ));
        }
        if let (Some(group), false) = (pass.open_groups.last_mut(), m.arrow.written_reversed) {
            group.notes.push((
                NoteExtent {
                    anchor: from,
                    left: -5.0,
                    right: bars + (7.0 + label_w).at_least(SELF_WIDTH) + 16.0 + GROUP_CLEARANCE - GROUP_NOTE_ROOM,
                },
                0,
            ));
        }
        if m.arrow.written_reversed {
            if from >= 1 {
                pass.need(from - 1, from, room);
            }
        } else if from <= n {
            pass.need(from, from + 1, room + bars.at_least(deepest));
        }
        pass.last_message = Some((from, from, if m.arrow.written_reversed { 0.0 } else { room }));
    }

    /// A message between two lifelines (or an edge): its label and the
    /// bars at its ends fit between them.
    fn room_for_message(
        &self,
        pass: &mut RoomPass<'_>,
        index: usize,
        m: &Message,
        (from, to): (usize, usize),
        label_w: f64,
    ) {
        let n = pass.n;
        let bar_side = |active: bool| if active { ACTIVATION_WIDTH / 2.0 } else { 0.0 };
        let active = |p: Option<ParticipantId>| {
            p.is_some_and(|p| {
                pass.depth.get(p.index()).is_some_and(|d| *d > 0) || activated_next(&pass.events[index + 1..], p)
            })
        };
        // PlantUML makes room for the bar of the right-hand
        // participant (its left edge is 5 px left of the lifeline
        // at any depth) and, when the message points left, for the
        // target's bars (each nested bar reaches 5 px further
        // right); a sender on the left never pushes.
        let (left, right) = if from <= to { (&m.from, &m.to) } else { (&m.to, &m.from) };
        // From or to the diagram's left edge (`[->`, `[<-`),
        // PlantUML does not make room for the bar.
        let right_bar = if left.participant().is_none() {
            0.0
        } else {
            bar_side(active(right.participant()))
        };
        let left_bars = if from > to {
            left.participant().map_or(0.0, |p| pass.bars_at(index, p))
        } else {
            0.0
        };
        // A message that creates its target ends at the new
        // head's edge, so the label keeps clear of the head
        // (PlantUML: the head's left edge is where the
        // lifeline would be for a plain message).
        let created_head =
            m.to.participant()
                .filter(|t| pass.awaiting_head.get(t.index()).copied().unwrap_or(false))
                .map_or(0.0, |t| {
                    pass.awaiting_head[t.index()] = false;
                    let head = &self.heads[t.index()];
                    if from <= to {
                        head.left
                    } else {
                        head.right
                    }
                });
        // To or from the diagram's right edge (`->]`, `<-]`,
        // `->?`) the edge lies 23 px past the label, not 24
        // (PlantUML, probes `message_to_right_edge`, `message_from_right_edge`).
        let room = if from.max(to) == n + 1 {
            EDGE_MESSAGE_ROOM
        } else {
            MESSAGE_ROOM
        };
        pass.need(from, to, label_w + room + right_bar + left_bars + created_head);
        pass.last_message = Some((from.min(to), from.max(to), 0.0));
        // The bars on the right-hand participant as the message
        // is drawn: a note right of it starts past them.
        pass.last_message_bars = right.participant().map_or(0.0, |p| pass.bars_at(index, p));
    }

    /// A note: beside a lifeline it may reach over neighbours but stays
    /// inside the diagram; in a group it keeps the frame's neighbours clear.
    fn room_for_note(
        &self,
        pass: &mut RoomPass<'_>,
        index: usize,
        note: &Note,
        block: &TextBlock,
        pending_self_push: Option<(usize, f64)>,
    ) {
        let n = pass.n;
        let (w, _) = note_size(note.shape, block, &self.theme);
        // The bars at a 1-based slot now (or opened by the next event).
        let slot_bars = |pass: &RoomPass<'_>, slot: usize| {
            slot.checked_sub(1)
                .and_then(|s| self.slots.get(s))
                .map_or(0.0, |p| pass.bars_at(index, *p))
        };
        let last_message = pass.last_message;
        let mut this_extent = self.note_extent(note, w, last_message);
        if let (NotePosition::Right { of: None }, Some(extent), Some((lo, hi, _))) =
            (&note.position, this_extent.as_mut(), last_message)
        {
            if lo != hi {
                extent.right += slot_bars(pass, hi).at_least(pass.last_message_bars);
            }
        }
        // A note right of an active lifeline starts at its bars' edge.
        if let (NotePosition::Right { of: Some(p) }, Some(extent)) = (&note.position, this_extent.as_mut()) {
            extent.right += pass.bars_at(index, *p);
        }
        // `/ note` shares the previous note's row: PlantUML keeps
        // the two 10 px apart (an 8 px and a 28 px note over
        // neighbours: 10.7 px between the drawn boxes).
        if let (true, Some(prev), Some(this)) = (note.aligned, pass.previous_note, this_extent) {
            if prev.anchor < this.anchor {
                pass.need(prev.anchor, this.anchor, prev.right + this.left + ALIGNED_NOTE_GAP);
            } else if this.anchor < prev.anchor {
                pass.need(this.anchor, prev.anchor, this.right + prev.left + ALIGNED_NOTE_GAP);
            }
        }
        pass.previous_note = this_extent;
        let column_note = match note.position {
            NotePosition::Left { of: Some(_) } | NotePosition::Over { last: None, .. } => true,
            NotePosition::Left { of: None } => pass.last_is_self,
            _ => false,
        };
        if let (true, Some(extent)) = (column_note, this_extent) {
            if let Some(entry) = pass.notes_left.get_mut(extent.anchor) {
                *entry = entry.at_least(extent.left + NOTE_MARGIN);
            }
        }
        // A note attached to a self message makes one element with
        // it: PlantUML then keeps the next participant clear of the
        // note only, 8 px closer than beside a note of its own.
        let attached = matches!(
            note.position,
            NotePosition::Left { of: None } | NotePosition::Right { of: None }
        );
        if let (true, Some((at, loop_bars)), Some(group)) = (attached, pending_self_push, pass.open_groups.last_mut()) {
            if at < group.notes.len() {
                group.notes.remove(at);
            }
            if let Some(extent) = this_extent.as_mut() {
                extent.right -= ATTACHED_NOTE_CLOSER;
                // The note follows the loop, which starts past the bars.
                if matches!(note.position, NotePosition::Right { of: None }) {
                    extent.right += loop_bars;
                }
            }
        }
        if let (Some(group), Some(extent)) = (pass.open_groups.last_mut(), this_extent) {
            group.touch(extent.anchor, n);
            group.notes.push((extent, 0));
        }
        match &note.position {
            // Like PlantUML, a note beside a participant may reach over
            // neighbouring lifelines (it has its own row); it only has to
            // stay inside the diagram.
            NotePosition::Left { of } => {
                let s = match of {
                    Some(id) => self.slot(*id).map(|s| s + 1),
                    None => last_message.map(|(lo, _, _)| lo),
                };
                if let Some(s) = s.filter(|s| *s >= 1) {
                    pass.left_room.push((s, w + 15.0));
                    if let (Some(_), Some(box_reach)) = (of, self.box_reach_before(s, &pass.self_reach)) {
                        pass.need(s - 1, s, box_reach + NOTE_AFTER_BOX + w + NOTE_MARGIN);
                    }
                }
            }
            NotePosition::Right { of } => {
                let target = match of {
                    Some(id) => self.slot(*id).map(|s| (s + 1, 0.0)),
                    None => last_message.map(|(lo, hi, self_reach)| {
                        (
                            hi,
                            if lo == hi {
                                self_reach
                            } else {
                                slot_bars(pass, hi).at_least(pass.last_message_bars)
                            },
                        )
                    }),
                };
                if let Some((s, extra)) = target {
                    pass.need(s, n + 1, w + 15.0 + extra);
                }
            }
            NotePosition::Over { first, last } => self.room_for_note_over(pass, *first, *last, w),
            NotePosition::Across => {}
        }
    }

    /// A note over one participant, or over several.
    fn room_for_note_over(&self, pass: &mut RoomPass<'_>, first: ParticipantId, last: Option<ParticipantId>, w: f64) {
        let n = pass.n;
        let a = self.slot(first).map(|s| s + 1);
        let b = last.and_then(|l| self.slot(l)).map(|s| s + 1);
        match (a, b) {
            // Like PlantUML, a note over several participants does not
            // spread them: it is centered on them and pushes the edges.
            (Some(a), Some(b)) if a != b => {
                pass.over_spans.push((a.min(b), a.max(b), w));
                if let Some(group) = pass.open_groups.last_mut() {
                    group.touch(a, n);
                    group.touch(b, n);
                    group.pair_notes.push((a.min(b), a.max(b), w, 0, a < b));
                }
                // Written left to right over the participant right
                // after a box, it keeps clear of the box too: 21 px,
                // and 5 more per participant it spans beyond the first
                // (PlantUML; written right to left, it crosses the box).
                if let (true, Some(box_reach)) = (a < b, self.box_reach_before(a, &pass.self_reach)) {
                    pass.group_pair_notes.push(PairNoteRoom {
                        a,
                        b,
                        width: w,
                        before: Some((
                            a - 1,
                            box_reach + NOTE_AFTER_BOX + NOTE_OVER_HEAD_INSET * (b - a) as f64,
                        )),
                        after: None,
                        heads: None,
                    });
                }
            }
            (Some(a), _) => {
                // Like PlantUML, only the diagram edges make room
                // (and groups, below): the note may cross neighbours.
                pass.left_room.push((a, w / 2.0 + 5.0));
                pass.need(a, n + 1, w / 2.0 + 5.0);
                if let Some(box_reach) = self.box_reach_before(a, &pass.self_reach) {
                    pass.need(a - 1, a, box_reach + NOTE_AFTER_BOX + w / 2.0);
                }
            }
            _ => {}
        }
    }

    /// PlantUML: a ref spans its participants' heads, 2 px inside each end,
    /// and is 8 px wider than its text; over one participant it grows to
    /// the right without pushing anyone.
    fn room_for_ref(&self, pass: &mut RoomPass<'_>, r: &Reference) {
        let text_w = self.text_width(&r.text, self.ref_text_font());
        // At least as wide as its `ref` tab too (probe `ref_unfilled`).
        let tab_w = self.text_width("ref", self.ref_tab_font()) + 45.0;
        let slots: Vec<usize> = r.participants.iter().filter_map(|p| self.slot(*p)).collect();
        if let (Some(&lo), Some(&hi)) = (slots.iter().min(), slots.iter().max()) {
            if hi > lo {
                let first = &self.heads[self.slots[lo].index()];
                let last = &self.heads[self.slots[hi].index()];
                let width = (text_w + 8.0).at_least(tab_w);
                pass.need(lo + 1, hi + 1, width + 4.0 - first.left - last.right);
            }
        }
    }
}

/// How far a note over several participants overhangs them depends on
/// their distance, which the solution decides; room on the left moves the
/// whole diagram. Solve, add what is missing and solve again (a uniform
/// shift keeps every distance, so twice is plenty).
fn settle(pass: &mut RoomPass<'_>) -> Vec<f64> {
    let n = pass.n;
    let constraints = &mut pass.constraints;
    let mut pos = longest_paths(constraints);
    for _ in 0..3 {
        let mut changed = false;
        let mut shift: f64 = 0.0;
        for &(a, room) in &pass.left_room {
            shift = shift.at_least(room - (pos[a] - pos[0]));
        }
        for room in &pass.group_pair_notes {
            changed |= room.require(constraints, &pos);
        }
        for &(a, b, w) in &pass.over_spans {
            let overhang = ((w - (pos[b] - pos[a])) / 2.0).at_least(14.0);
            shift = shift.at_least(overhang - (pos[a] - pos[0]));
            if pos[n + 1] - pos[b] < overhang - 1e-6 {
                constraints[n + 1].push((b, overhang));
                changed = true;
            }
        }
        if shift > 1e-6 && n > 0 {
            // Everything moves right together: the first lifeline sets the pace.
            constraints[1].push((0, pos[1] - pos[0] + shift));
            changed = true;
        }
        if !changed {
            break;
        }
        pos = longest_paths(constraints);
    }
    pos
}
