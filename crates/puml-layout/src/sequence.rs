//! Sequence diagram layout: model → one scene per page.
//!
//! Two passes per page. The horizontal pass turns "this label must fit
//! between these two lifelines" into constraints `pos[b] - pos[a] >= d`
//! (a < b) and solves them left to right (a longest path in a DAG, linear
//! in the number of constraints). The vertical pass walks the flat event
//! list once with a cursor, keeping explicit stacks for activations and
//! open groups, so deep nesting costs heap, never call stack.

use std::collections::HashMap;

mod decorations;
mod nested_boxes;
mod page;
mod positions;
mod reversed_notes;
mod walk;

use crate::color::{parse_color, parse_gradient};
use crate::creole::{self, Align, TextBlock};
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, FontFamily, Gradient, Item, Paint, PathSegment, Scene, Stroke, TextRun};
use crate::shapes::{self, dashed, draw_head, line, paint, rect, stroke, HeadMetrics};
use crate::theme::{MessageAlign, Spacing, TextElement, Theme};
use crate::LayoutOptions;
use puml_sema::model::{
    Diagram, Endpoint, Event, GroupKind, HeadShape, HorizontalAlign, LineStyle, Message, Note, NotePosition, NoteShape,
    ParticipantId, Side, VerticalAlign,
};

/// Space between the title block and what follows it, and the title's
/// margin on either side (PlantUML 1.2026's title style: measured from its
/// SVGs, the diagram starts 16 px below the title's text block and a wide
/// title keeps 5 px more on each side than the diagram's margin).
const TITLE_GAP_BELOW: f64 = 16.0;
const TITLE_SIDE_MARGIN: f64 = 5.0;
/// A divider wider than the diagram keeps this much room on either side.
const DIVIDER_OVERHANG_MARGIN: f64 = 12.0;
const MARGIN: f64 = 10.0;
/// The mainframe's geometry (PlantUML 1.2026.8, probes `mainframe_*`).
const MAINFRAME_TOP_GAP: f64 = 5.0;
const MAINFRAME_TAB_EXTRA: f64 = 3.0;
const MAINFRAME_HEADS_GAP: f64 = 13.0;
const MAINFRAME_LEFT_ROOM: f64 = 10.0;
const MAINFRAME_RIGHT_ROOM: f64 = 16.0;
const MAINFRAME_BOTTOM_ROOM: f64 = 16.297;
const HEAD_GAP: f64 = 10.0;
const MESSAGE_TEXT_GAP: f64 = 12.0;
/// How far a head drawn on its creating message reaches into the next row
/// (PlantUML 1.2026.8: the next arrow is 22.1 px below the head's bottom).
const CREATED_HEAD_TAIL: f64 = 7.0;
const SELF_WIDTH: f64 = 42.0;
/// Lifeline distance beyond a message label's width (PlantUML: 24).
const MESSAGE_ROOM: f64 = 24.0;
/// From a lifeline past a message's label to the diagram's right edge.
const EDGE_MESSAGE_ROOM: f64 = 23.0;
const SELF_HEIGHT: f64 = 13.0;
const ACTIVATION_WIDTH: f64 = 10.0;
const NOTE_PAD_X: f64 = 10.0;
const NOTE_PAD_Y: f64 = 5.0;
/// Extra canvas margin around a note at the diagram's edge.
const NOTE_MARGIN: f64 = 5.0;
/// A note sits this much lower than the usual gap, the next event as before.
const NOTE_LIFT: f64 = 3.0;
/// How far inside the outer heads a note stretched over participants ends.
const NOTE_OVER_HEAD_INSET: f64 = 5.0;
/// Room between a note and a `/ note` beside it on the same row.
const ALIGNED_NOTE_GAP: f64 = 10.0;
/// Space between a box and the head before it / the participant after it.
const BOX_GAP_BEFORE: f64 = 10.0;
const BOX_GAP_AFTER: f64 = 20.0;
/// A box rectangle reaches this far past its outer heads (or title margins).
const BOX_INSET: f64 = 4.0;
/// From a note beside a boxed participant to the box's edge (before its inset).
const NOTE_BOX_ROOM: f64 = 5.0;
/// A right-aligned header ends this far past the diagram's right edge.
const HEADER_RIGHT_OVERHANG: f64 = 4.0;
/// Between a header wider than the diagram and the canvas' edges.
const HEADER_PAGE_GAP: f64 = 5.0;
/// Between the diagram and a legend below it (or a legend on top and the heads).
const LEGEND_GAP: f64 = 18.0;
/// Between what is above a legend on top (header, title) and the legend.
const LEGEND_TOP_GAP: f64 = 7.0;
/// A legend's inset from the content's left and right edges.
const LEGEND_LEFT_INSET: f64 = 7.0;
const LEGEND_RIGHT_INSET: f64 = 8.0;
/// Between the diagram (or legend) and the caption.
const CAPTION_GAP: f64 = 7.0;
/// From a note in a group to the lifeline or head outside the group frame.
const GROUP_NOTE_ROOM: f64 = 30.0;
/// A group frame starts this far left of its leftmost lifeline.
const GROUP_FRAME_LEFT: f64 = 16.0;
/// Extra canvas margin left of the leftmost group frame.
const GROUP_FRAME_MARGIN: f64 = 3.0;
/// From a group frame's right edge to the canvas's.
const GROUP_FRAME_RIGHT_ROOM: f64 = 19.3;
/// Space below a group frame before the next event.
const GROUP_GAP_AFTER: f64 = 6.0;
/// From a group frame's right edge to the next participant's head.
const GROUP_CLEARANCE: f64 = 9.0;
/// How much further in a nested frame's right edge is.
const GROUP_NEST_INSET: f64 = 25.0;
/// A bar opened away from a message (at the top, after a note, a group
/// header, a divider, `|||` or another participant's message) starts this
/// far below the row it is opened in (PlantUML 1.2026.8, probes
/// `activate_unattached*`).
const UNATTACHED_BAR_DROP: f64 = 8.0;
/// A bar opened and closed at the same message reaches this far below the
/// row (PlantUML 1.2026.8: 13 px below the arrow, or below the notes beside it).
const SAME_MESSAGE_BAR_LENGTH: f64 = 13.0;
/// A `& note` beside a self message is centred this far below the loop's
/// first stroke (PlantUML 1.2026.8).
const SELF_PARALLEL_NOTE_DROP: f64 = 2.5;
/// From the bottom of a ref's `ref` label to the top of its text.
const REF_BODY_GAP: f64 = 5.867;
/// From the end of a message's autonumber to its label.
const NUMBER_GAP: f64 = 4.0;
/// An enclosing frame starts 19 px left of the frame it encloses (this
/// plus GROUP_FRAME_LEFT).
const GROUP_NEST_LEFT: f64 = 3.0;
/// Height of PlantUML's banner for a deprecated skinparam.
const BANNER_HEIGHT: f64 = 16.641;
/// The narrowest body beside the handwritten banner, from its left edge:
/// PlantUML 1.2026.8 draws it 371.23 px wide beside a narrower diagram
/// (observed: `skinparam handwritten false` with `A -> B`). The CSS
/// banners are as wide as their text and 10 px (`banner_min_body_width`).
const HANDWRITTEN_BANNER_MIN_BODY_WIDTH: f64 = 370.23;
/// From a CSS banner's text width to the narrowest body beside it: its
/// rectangle is the text and 10 px wide (PlantUML 1.2026.8: 305.005 for
/// `padding`'s 295.005, 371.23 for `ParticipantPadding`'s 361.23), 1 px
/// beyond the body.
const BANNER_TEXT_TO_BODY: f64 = 9.0;
/// The tab of a `group` without a label: PlantUML writes the keyword
/// (1.2026.8, probes `s_padding_*_groups`).
const BARE_GROUP_TAB: &str = "group";
/// The handwritten banner's text.
const HANDWRITTEN_BANNER: &str = "Please use '!option handwritten true' to enable handwritten";
/// From the diagram's left margin to a note in a group that starts at the
/// first participant: the frame's 3 px, then 21 px from frame to note.
const GROUP_NOTE_EDGE_ROOM: f64 = 24.0;
/// A group frame is 21 px clear of a note in it (GROUP_FRAME_LEFT plus this):
/// PlantUML, a 333 px note over B in `alt`: frame 21 px left and right of it.
const NOTE_FRAME_ROOM: f64 = 5.0;
/// A note attached to a self message in a group: how much closer the next
/// participant comes than beside a note of its own (PlantUML: 8 px).
const ATTACHED_NOTE_CLOSER: f64 = 8.0;

/// `f64::max` and `f64::min` for the layout's lengths, which are never NaN
/// (every number a theme or the source gives is checked finite, and the
/// layout only adds, scales and compares them). In WebAssembly `f64::max`
/// is a call (wasm's `f64.max` propagates a NaN where Rust's ignores it, so
/// rustc calls `fmax`), and V8 does not inline wasm calls: about 3 % of a
/// corpus render in Node, nearly all of it here. A comparison and a select
/// instead, in both targets (natively one `maxsd`/`minsd` instead of six
/// instructions). For every pair that is not NaN the answer is
/// `f64::max`/`min`'s, the first operand on a tie of `0.0` and `-0.0`
/// included, so no picture moves.
trait Length: Copy {
    /// The larger of the two (`f64::max`).
    fn at_least(self, other: Self) -> Self;
    /// The smaller of the two (`f64::min`).
    fn at_most(self, other: Self) -> Self;
}

impl Length for f64 {
    #[inline]
    fn at_least(self, other: f64) -> f64 {
        if self < other {
            other
        } else {
            self
        }
    }

    #[inline]
    fn at_most(self, other: f64) -> f64 {
        if other < self {
            other
        } else {
            self
        }
    }
}

pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let theme = Theme::for_settings(&diagram.settings, options.theme.as_deref());
    let ctx = Context::new(diagram, theme, metrics);
    let mut pages: Vec<(usize, usize, Option<&str>)> = Vec::new();
    let mut start = 0;
    let mut page_title: Option<&str> = None;
    for (i, event) in diagram.events.iter().enumerate() {
        if let Event::NewPage { title } = event {
            pages.push((start, i, page_title));
            start = i + 1;
            page_title = title.as_deref();
        }
    }
    pages.push((start, diagram.events.len(), page_title));
    let mut created_before: Vec<bool> = vec![false; diagram.participants.len()];
    let mut activations: Vec<Vec<Option<Color>>> = vec![Vec::new(); diagram.participants.len()];
    // PlantUML places the participants once for the whole diagram: every
    // page has the same columns, spread by what any page needs.
    let shared_positions = (pages.len() > 1).then(|| {
        let all = diagram.events.slice(0..diagram.events.len());
        let events = attached_notes_first(&all);
        let prepared = ctx.prepare(&events);
        let mut positions = ctx.solve_positions(&events, &prepared);
        ctx.enclose_notes_across(&events, &prepared, &mut positions);
        positions
    });
    let page_count = pages.len();
    // Pages share their canvas's width too: the widest extent any page's
    // content needs (PlantUML, corpus 135: a note right on page 1 widens
    // page 2). Each page is laid out once to measure it.
    let shared_bounds = shared_positions.as_ref().map(|_| {
        let mut created = created_before.clone();
        let mut active = activations.clone();
        let mut bounds = (f64::INFINITY, f64::NEG_INFINITY);
        for (index, &(start, end, title)) in pages.iter().enumerate() {
            let spot = PageSpot {
                after_first: index > 0,
                before_last: index + 1 < page_count,
                shared_bounds: None,
            };
            ctx.layout_page(
                &diagram.events.slice(start..end),
                title,
                &mut created,
                &mut active,
                shared_positions.as_ref(),
                spot,
            );
            let (lo, hi) = ctx.page_bounds.get();
            bounds = (bounds.0.at_most(lo), bounds.1.at_least(hi));
        }
        bounds
    });
    let mut scenes = Vec::with_capacity(pages.len());
    for (index, (start, end, title)) in pages.into_iter().enumerate() {
        // A later page shows its `newpage` title only (PlantUML: none when
        // `newpage` has none).
        let title = if index == 0 {
            title.or(diagram.title.as_deref())
        } else {
            title
        };
        let spot = PageSpot {
            after_first: index > 0,
            before_last: index + 1 < page_count,
            shared_bounds,
        };
        scenes.push(ctx.layout_page(
            &diagram.events.slice(start..end),
            title,
            &mut created_before,
            &mut activations,
            shared_positions.as_ref(),
            spot,
        ));
    }
    scenes
}

/// Where a page stands among the `newpage` pages: PlantUML starts the
/// events of a later page 13 px lower and ends a page that another one
/// follows 11 px lower.
#[derive(Clone, Copy)]
struct PageSpot {
    after_first: bool,
    before_last: bool,
    /// The x range every page's canvas spans (all pages' content), when
    /// there are several pages.
    shared_bounds: Option<(f64, f64)>,
}

struct Context<'a> {
    diagram: &'a Diagram,
    theme: Theme,
    metrics: &'a dyn TextMeasure,
    heads: Vec<HeadMetrics>,
    /// Slot of each participant in display order (hidden ones: None).
    slot_of: Vec<Option<usize>>,
    /// Participant of each slot.
    slots: Vec<ParticipantId>,
    max_head_height: f64,
    /// Visible boxes, in slot order.
    box_spans: Vec<BoxSpan>,
    /// The x range the last page laid out needs (before the diagram's
    /// other pages widen it): how `layout_diagram` learns the shared width.
    page_bounds: std::cell::Cell<(f64, f64)>,
}

/// A `box … end box` over the slots `first..=last`.
struct BoxSpan {
    index: usize,
    first: usize,
    last: usize,
    /// Extra room on each side of the outer heads so that the title fits.
    /// Like PlantUML, computed against the heads packed side by side, so a
    /// multi-participant box gets it even when messages spread the heads.
    margin: f64,
    /// The boxes this one is nested in, innermost first (`Diagram::boxes` indices).
    ancestors: Vec<usize>,
}

fn message_font(theme: &Theme) -> Font {
    theme.font_of(TextElement::Message, theme.arrow_font_size)
}

fn box_title_font(theme: &Theme) -> Font {
    theme
        .sized_font_of(TextElement::BoxTitle, theme.box_font_size, 13.0)
        .bold()
}

fn note_font(theme: &Theme) -> Font {
    theme.font_of(TextElement::Note, theme.note_font_size)
}

/// Where a message is drawn, decided once both passes agree.
struct MessageGeometry {
    from_x: f64,
    to_x: f64,
    is_self: bool,
}

/// Activation bars in paint order. A bar is known when it closes, so an
/// inner bar would come before the bar it is nested in; PlantUML paints the
/// outer bar first and the nested one (`activate A #DarkSalmon`) over it.
#[derive(Default)]
struct BarLayer {
    items: Vec<Item>,
    /// Participant and nesting level (1 = outermost) of each item.
    keys: Vec<(ParticipantId, usize)>,
}

impl BarLayer {
    fn add(&mut self, participant: ParticipantId, level: usize, bar: Vec<Item>) {
        // Before the deeper bars of the same participant already closed.
        let at = self
            .keys
            .iter()
            .position(|(p, l)| *p == participant && *l > level)
            .unwrap_or(self.keys.len());
        for (offset, item) in bar.into_iter().enumerate() {
            self.items.insert(at + offset, item);
            self.keys.insert(at + offset, (participant, level));
        }
    }
}

struct OpenGroup {
    top: f64,
    kind: GroupKind,
    label: Option<String>,
    secondary: Option<String>,
    label_trailing_blanks: usize,
    /// `alt#Gold`: fills the header tab (PlantUML keeps the frame's own stroke).
    header_fill: Option<Color>,
    fill: Option<Color>,
    min_x: f64,
    max_x: f64,
    elses: Vec<(f64, Option<String>, Option<Color>)>,
}

/// What the vertical walk reads and never changes: the page's events and
/// their measured labels, the solved positions, and where things start.
struct PageFrame<'p> {
    events: &'p [Event],
    prepared: &'p [Prepared],
    positions: &'p Positions,
    /// The left edge of the leftmost head.
    first_x: f64,
    /// How many lifelines the page draws.
    n: usize,
}

/// The vertical walk over one page's events: where the next row starts
/// (`y`) and what the events drew and reached so far. Each kind of event
/// moves it on (`Context::walk_*`).
struct Walk<'e> {
    y: f64,
    /// What the events draw above the lifelines and bars.
    front: Vec<Item>,
    /// Activation bars, painted under everything else.
    bars: BarLayer,
    /// Where in `front` a note stretched over participants starts: PlantUML
    /// does not widen the canvas for it (corpus 214: drawn from x = -4).
    overhanging: Vec<std::ops::Range<usize>>,
    /// Group and else fills, under the frames.
    fills: Vec<Item>,
    heads_items: Vec<Item>,
    head_top_y: Vec<f64>,
    lifeline_end: Vec<Option<f64>>,
    /// Heads drawn with the next message to them (`create`).
    pending_create: Vec<bool>,
    /// Per participant: the run of `deactivate`s it was last closed in
    /// (its first event) and where that bar ended.
    deactivation_runs: Vec<Option<(usize, f64)>>,
    /// Open activations per participant: where each starts, its colour.
    act_stack: Vec<Vec<(f64, Option<Color>)>>,
    groups: Vec<OpenGroup>,
    /// The leftmost and rightmost group frame edges.
    frames_left: f64,
    frames_right: f64,
    /// Notes beside the lifelines: PlantUML keeps 5 px more margin around them.
    notes_extent: (f64, f64),
    /// How far self messages' loops reach left and right (their room).
    loops_extent: (f64, f64),
    /// The furthest right a message to or from the diagram's right edge reaches.
    right_edge_reach: f64,
    self_reach_right: f64,
    last_message: Option<LastMessage>,
    last_note: Option<(f64, f64)>,
    last_row_top: f64,
    /// Delays' vertical spans (dotted lifelines and bars).
    delays: Vec<(f64, f64)>,
    /// What is drawn once the page's width is known (dividers, …).
    deferred: Vec<Deferred>,
    /// teoz anchors on this page: name → (middle of the arrow, arrow y).
    anchors: HashMap<&'e str, (f64, f64)>,
    durations: Vec<(&'e str, &'e str, &'e str)>,
    /// The frame a group just closed: (top, left, right).
    closed_frame: Option<(f64, f64, f64)>,
}

#[derive(Clone, Copy)]
struct LastMessage {
    row_top: f64,
    arrow_y: f64,
    min_x: f64,
    max_x: f64,
    from: Option<ParticipantId>,
    to: Option<ParticipantId>,
    event_index: usize,
    /// How far the bars of the participant on the right reached past its
    /// lifeline when the message was drawn (a note beside it starts there).
    right_bars: f64,
    /// Where the next row would start right after the message.
    bottom: f64,
    /// Where the message's items start in the page's front layer (a `& note`
    /// taller than the message's row moves them down).
    front_start: usize,
}

enum Deferred {
    /// `padding`: the width of the blank PlantUML keeps when the text was
    /// written with spaces around it (`== x ==`, not `==x==`).
    Divider { top: f64, block: TextBlock, padding: f64 },
}

impl<'a> Context<'a> {
    fn new(diagram: &'a Diagram, theme: Theme, metrics: &'a dyn TextMeasure) -> Context<'a> {
        let mut visible = vec![true; diagram.participants.len()];
        if diagram.settings.hide_unlinked {
            let mut used = vec![false; diagram.participants.len()];
            let mut mark = |id: ParticipantId| {
                if let Some(u) = used.get_mut(id.index()) {
                    *u = true;
                }
            };
            for event in &diagram.events {
                for id in event_participants(event) {
                    mark(id);
                }
            }
            visible = used;
        }
        let mut slot_of = vec![None; diagram.participants.len()];
        let mut slots = Vec::new();
        for (i, shown) in visible.iter().enumerate() {
            if *shown {
                slot_of[i] = Some(slots.len());
                slots.push(ParticipantId(i as u32));
            }
        }
        let heads: Vec<HeadMetrics> = diagram
            .participants
            .iter()
            .map(|p| {
                let head_font = theme.participant_head_font(p.kind);
                let mut lines = Vec::new();
                if let Some(st) = &p.stereotype {
                    let own = theme.participant_stereotype_font(p.kind);
                    for label in &st.labels {
                        let mut line = creole::parse(&format!("«{label}»"));
                        for l in &mut line {
                            for s in &mut l.spans {
                                if !theme.guillemet {
                                    s.text = s.text.replace('«', "<<").replace('»', ">>");
                                }
                                s.style.italic = true;
                                s.style.size = s.style.size.or(own.size);
                                s.style.color = s.style.color.or(own.color);
                                s.style.bold |= own.style.is_some_and(|style| style.bold);
                                s.style.mono |= own.family == Some(FontFamily::Mono);
                            }
                        }
                        lines.extend(line);
                    }
                }
                lines.extend(creole::parse(&p.display));
                let block = creole::measure_lines(lines, head_font, metrics).padded(theme.text_padding);
                let spot = p
                    .stereotype
                    .as_ref()
                    .and_then(|st| st.spot.as_ref())
                    .map(|(letter, color)| {
                        let color = color.as_deref().and_then(parse_color).unwrap_or(Color::hex(0xADD1B2));
                        (*letter, color)
                    });
                let (padding, margin) = match p.kind {
                    puml_sema::model::ParticipantKind::Collections => {
                        (theme.collections_padding, theme.collections_margin)
                    }
                    _ => (theme.participant_padding, theme.participant_margin),
                };
                let mut head = HeadMetrics::with_box_room(p.kind, block, spot, padding, margin)
                    .with_outline(theme.participant_line_thickness(p.kind), theme.awesome_actor)
                    .with_shadow_room(theme.shadow_room());
                // `minClassWidth` widens a narrow participant box (PlantUML:
                // 64 px for 50, the name still 7 px in from the left).
                if p.kind == puml_sema::model::ParticipantKind::Participant && theme.min_class_width > 0.0 {
                    let text = head.label.width + if head.spot.is_some() { shapes::SPOT_WIDTH } else { 0.0 };
                    let grow = (theme.min_class_width - text).at_least(0.0) / 2.0;
                    head.left += grow;
                    head.right += grow;
                    head.min_text_width = theme.min_class_width;
                }
                head
            })
            .collect();
        let max_head_height = slots
            .iter()
            .map(|id| heads[id.index()].height)
            .fold(0.0_f64, f64::at_least);
        let mut box_spans: Vec<BoxSpan> = Vec::new();
        let box_ancestors: Vec<Vec<usize>> = (0..diagram.boxes.len())
            .map(|i| nested_boxes::ancestors(&diagram.boxes, i))
            .collect();
        for (index, b) in diagram.boxes.iter().enumerate() {
            // A box holds its own participants and those of the boxes nested in it.
            let members: Vec<usize> = diagram
                .boxes
                .iter()
                .enumerate()
                .filter(|(inner, _)| *inner == index || box_ancestors[*inner].contains(&index))
                .flat_map(|(_, inner)| inner.participants.iter())
                .filter_map(|p| slot_of.get(p.index()).copied().flatten())
                .collect();
            let (Some(&first), Some(&last)) = (members.iter().min(), members.iter().max()) else {
                continue;
            };
            let heads_width: f64 = members
                .iter()
                .map(|s| {
                    let h = &heads[slots[*s].index()];
                    h.left + h.right
                })
                .sum();
            let title_width = b.title.as_deref().filter(|t| !t.trim().is_empty()).map_or(0.0, |t| {
                creole::measure(t, box_title_font(&theme), metrics)
                    .padded(theme.text_padding)
                    .width
                    + 16.0
            });
            box_spans.push(BoxSpan {
                index,
                first,
                last,
                margin: ((title_width - heads_width) / 2.0).at_least(0.0),
                ancestors: box_ancestors[index].clone(),
            });
        }
        box_spans.sort_by_key(|b| (b.first, b.last));
        Context {
            diagram,
            theme,
            metrics,
            heads,
            slot_of,
            slots,
            max_head_height,
            box_spans,
            page_bounds: std::cell::Cell::new((0.0, 0.0)),
        }
    }

    fn slot(&self, id: ParticipantId) -> Option<usize> {
        self.slot_of.get(id.index()).copied().flatten()
    }

    /// Where `id`'s lifeline stands on a page laid out at `positions`.
    fn lifeline_x(&self, positions: &Positions, id: ParticipantId) -> Option<f64> {
        self.slot(id).map(|s| positions.pos[s + 1])
    }

    /// Measures `text` (creole) in `font` as PlantUML sizes a text it
    /// draws: with `skinparam padding` around it.
    fn text(&self, text: &str, font: Font) -> TextBlock {
        creole::measure(text, font, self.metrics).padded(self.theme.text_padding)
    }

    /// `self.text(text, font).width`, without building the block when
    /// there is no padding (see `creole::measure_width`).
    fn text_width(&self, text: &str, font: Font) -> f64 {
        if self.theme.text_padding > 0.0 {
            return self.text(text, font).width;
        }
        creole::measure_width(text, font, self.metrics)
    }

    /// `self.text(text, font).height`, as `text_width`.
    fn text_height(&self, text: &str, font: Font) -> f64 {
        if self.theme.text_padding > 0.0 {
            return self.text(text, font).height;
        }
        creole::measure_height(text, font, self.metrics)
    }

    fn label_block(&self, text: &str, font: Font) -> TextBlock {
        match self.theme.max_message_size {
            Some(max) => creole::split_words(
                self.text(&wrap_words(text, max, font, self.metrics), font),
                self.metrics,
            ),
            None => self.text(text, font),
        }
    }

    fn message_label(&self, m: &Message) -> (TextBlock, Option<TextBlock>) {
        let font = message_font(&self.theme);
        let label = self.label_block(&m.label, font);
        let number = m
            .number
            .as_ref()
            .filter(|n| !n.trim().is_empty())
            // `autonumber "<b>0'.'"`: quotes only protect literal text in the format.
            .map(|n| self.text(&n.replace('\'', ""), font.bold()));
        (label, number)
    }

    /// Measures every label of the page once; both passes use the result.
    fn prepare(&self, events: &[Event]) -> Vec<Prepared> {
        events
            .iter()
            .map(|e| match e {
                Event::Message(m) => {
                    let (label, number) = self.message_label(m);
                    Prepared::Message(label, number)
                }
                Event::Note(n) => Prepared::Note(self.note_block(&n.text)),
                _ => Prepared::Nothing,
            })
            .collect()
    }

    fn note_block(&self, text: &str) -> TextBlock {
        let font = note_font(&self.theme);
        let block = match self.theme.note_max_width {
            Some(max) => creole::split_words(
                creole::measure_lines(
                    creole::parse_block(&wrap_words(text, max, font, self.metrics)),
                    font,
                    self.metrics,
                ),
                self.metrics,
            ),
            None => creole::measure_lines(creole::parse_block(text), font, self.metrics),
        };
        block.padded(self.theme.text_padding)
    }

    /// How far a note reaches left and right of the lifeline it hangs on
    /// (notes over several participants are left to their own constraint).
    fn note_extent(&self, note: &Note, w: f64, last_message: Option<(usize, usize, f64)>) -> Option<NoteExtent> {
        match &note.position {
            NotePosition::Left { of } => {
                let anchor = match of {
                    Some(id) => self.slot(*id).map(|s| s + 1)?,
                    None => last_message?.0,
                };
                Some(NoteExtent {
                    anchor,
                    left: w + 5.0,
                    right: -5.0,
                })
            }
            NotePosition::Right { of } => {
                let (anchor, extra) = match of {
                    Some(id) => (self.slot(*id).map(|s| s + 1)?, 0.0),
                    None => {
                        let (_, hi, self_reach) = last_message?;
                        (hi, self_reach)
                    }
                };
                Some(NoteExtent {
                    anchor,
                    left: -5.0 - extra,
                    right: w + 5.0 + extra,
                })
            }
            NotePosition::Over { first, last: None } => {
                let anchor = self.slot(*first).map(|s| s + 1)?;
                Some(NoteExtent {
                    anchor,
                    left: w / 2.0,
                    right: w / 2.0,
                })
            }
            NotePosition::Over { .. } | NotePosition::Across => None,
        }
    }

    /// PlantUML keeps the participants outside a group clear of its frame,
    /// and the frame encloses the notes in it: so a note in a group pushes
    /// the participants beyond the group's outermost ones (outside a group,
    /// a note may cross its neighbours' lifelines).
    fn group_note_room(
        &self,
        group: &GroupReach,
        n: usize,
        need: &mut impl FnMut(usize, usize, f64),
        left_room: &mut Vec<(usize, f64)>,
        notes_left: &[f64],
    ) {
        // Each frame inside this one reaches GROUP_NEST_INSET further than
        // its child (PlantUML); the frames around this one that hold the
        // neighbour make no room for it, so only depth inside this group counts.
        let nesting = |level: usize| GROUP_NEST_INSET * level as f64;
        let (Some(lo), Some(hi)) = (group.lo, group.hi) else {
            return;
        };
        // The frame starts GROUP_FRAME_LEFT left of its first lifeline and is
        // as wide as its header: the next participant stays clear of it.
        if hi < n {
            let next = self.next_clearance(hi, notes_left);
            // A note on the first lifeline may start the frame further left
            // (21 px left of the note, 19 px more per frame between), and the
            // header's width counts from there.
            let frame_left = group
                .notes
                .iter()
                .filter(|(note, _)| note.anchor == lo && note.left > 0.0)
                .map(|(note, level)| {
                    note.left + GROUP_NOTE_ROOM - GROUP_CLEARANCE + (GROUP_FRAME_LEFT + GROUP_NEST_LEFT) * *level as f64
                })
                .fold(GROUP_FRAME_LEFT, f64::at_least);
            need(lo, hi + 1, group.min_width - frame_left + GROUP_CLEARANCE + next);
            // The frame ends GROUP_FRAME_LEFT past its last lifeline at least.
            need(hi, hi + 1, GROUP_FRAME_LEFT + GROUP_CLEARANCE + next);
            for &(inner_lo, inner_hi, width, level) in &group.headers {
                if inner_hi == hi {
                    need(hi, hi + 1, GROUP_FRAME_LEFT + GROUP_CLEARANCE + next + nesting(level));
                    need(
                        inner_lo,
                        hi + 1,
                        width - GROUP_FRAME_LEFT + GROUP_CLEARANCE + next + nesting(level),
                    );
                }
            }
        }
        for &(note, level) in &group.notes {
            if hi < n && note.right >= 0.0 {
                let next = self.next_clearance(hi, notes_left);
                need(
                    note.anchor,
                    hi + 1,
                    note.right + GROUP_NOTE_ROOM + next + nesting(level),
                );
            }
            if lo > 1 && note.left >= 0.0 {
                need(lo - 1, note.anchor, note.left + GROUP_NOTE_ROOM + nesting(level));
            } else if lo == 1 && note.left >= 0.0 {
                // No participant left of the group: its frame starts 3 px
                // inside the diagram margin, 21 px left of the note.
                left_room.push((note.anchor, note.left + GROUP_NOTE_EDGE_ROOM + nesting(level)));
            }
        }
    }

    /// The room the notes over two participants in a closing group need from
    /// the participants outside it (see `PairNoteRoom`).
    fn pair_note_room(&self, group: &GroupReach, n: usize, notes_left: &[f64]) -> Vec<PairNoteRoom> {
        let (Some(lo), Some(hi)) = (group.lo, group.hi) else {
            return Vec::new();
        };
        group
            .pair_notes
            .iter()
            .map(|&(a, b, width, level, forward)| {
                let nesting = GROUP_NEST_INSET * level as f64;
                let next = if hi < n {
                    self.next_clearance(hi, notes_left)
                } else {
                    0.0
                };
                PairNoteRoom {
                    a,
                    b,
                    width,
                    before: (lo > 1).then(|| (lo - 1, GROUP_NOTE_ROOM + nesting)),
                    after: (hi < n).then(|| (hi + 1, GROUP_NOTE_ROOM + nesting + next)),
                    heads: forward.then(|| {
                        let (first, last) = (
                            &self.heads[self.slots[a - 1].index()],
                            &self.heads[self.slots[b - 1].index()],
                        );
                        StretchedNote {
                            first_left: first.left,
                            last_right: last.right,
                            before: (lo > 1).then(|| (lo - 1, STRETCHED_NOTE_FRAME + GROUP_CLEARANCE + nesting)),
                            after: (hi < n).then(|| (hi + 1, GROUP_FRAME_LEFT + GROUP_CLEARANCE + nesting + next)),
                        }
                    }),
                }
            })
            .collect()
    }

    /// How far left of its lifeline the participant in (0-based) `slot` must
    /// keep a group frame before it: its head, and (PlantUML) its notes on
    /// the left anywhere in the diagram, 5 px beyond.
    fn next_clearance(&self, slot: usize, notes_left: &[f64]) -> f64 {
        let head = self.heads[self.slots[slot].index()].left;
        head.at_least(notes_left.get(slot + 1).copied().unwrap_or(0.0))
    }

    /// Slot index (1-based, edges 0 and n+1) of a message endpoint.
    fn endpoint_slot(&self, e: &Endpoint, n: usize) -> Option<usize> {
        match e {
            Endpoint::Participant { id } => self.slot(*id).map(|s| s + 1),
            Endpoint::Edge { side: Side::Left, .. } => Some(0),
            Endpoint::Edge { side: Side::Right, .. } => Some(n + 1),
        }
    }

    /// PlantUML's banners for the deprecated skinparams the diagram uses,
    /// in the order the file first sets each (PlantUML 1.2026.8, probe
    /// `s_padding_10_participantpadding`): any value of `padding` or
    /// `handwritten` brings its banner, `false` too (probes `p_padding`,
    /// `s_handwritten_off`).
    fn deprecation_banners(&self) -> Vec<&'static str> {
        let mut banners = Vec::new();
        for (key, _) in &self.diagram.settings.skinparams {
            let banner = if key.eq_ignore_ascii_case("participantpadding") {
                "Please use CSS style instead of skinparam ParticipantPadding"
            } else if key.eq_ignore_ascii_case("padding") {
                "Please use CSS style instead of skinparam padding"
            } else if key.eq_ignore_ascii_case("handwritten") {
                HANDWRITTEN_BANNER
            } else {
                continue;
            };
            if !banners.contains(&banner) {
                banners.push(banner);
            }
        }
        banners
    }

    /// The narrowest body beside these banners, from its left edge.
    fn banner_min_body_width<'b>(&self, banners: impl Iterator<Item = &'b str>) -> f64 {
        let font = Font {
            family: FontFamily::Mono,
            ..Font::sans(10.0)
        };
        banners
            .map(|text| {
                if text == HANDWRITTEN_BANNER {
                    HANDWRITTEN_BANNER_MIN_BODY_WIDTH
                } else {
                    self.metrics.width(text, &font) + BANNER_TEXT_TO_BODY
                }
            })
            .fold(f64::NEG_INFINITY, f64::at_least)
    }

    /// Like PlantUML, the room kept between a box and the canvas border is part
    /// of the canvas even though nothing is drawn there: the x range it needs
    /// (infinite when no box touches an end).
    fn box_room(&self, positions: &Positions) -> (f64, f64) {
        let n = self.slots.len();
        let mut room = (f64::INFINITY, f64::NEG_INFINITY);
        // On the right only the heads count: self messages and notes the box
        // grows around keep their own canvas margin (PlantUML: a box ending in
        // a self loop or a note is 6-7 px from the canvas edge, not 10 px plus
        // the margin).
        // On the left the box's whole reach counts (PlantUML: a box grown
        // around a note left of its first participant sits 16 px in).
        let no_reach = vec![(0.0, 0.0); n + 2];
        for span in &self.box_spans {
            let (before, _) = self.shared_box_sides(span, &positions.self_reach);
            let (_, after) = self.shared_box_sides(span, &no_reach);
            if span.first == 0 {
                room.0 = room
                    .0
                    .at_most(positions.pos[1] - before - BOX_GAP_BEFORE - self.theme.box_padding);
            }
            if span.last + 1 == n {
                room.1 = room.1.at_least(positions.pos[n] + after + BOX_GAP_BEFORE);
            }
        }
        room
    }

    /// How far a box reaches left of its first lifeline and right of its last
    /// one, before its inset: the heads, the title margins, the self messages.
    fn box_sides(&self, span: &BoxSpan, self_reach: &[(f64, f64)]) -> (f64, f64) {
        let first = &self.heads[self.slots[span.first].index()];
        let last = &self.heads[self.slots[span.last].index()];
        let reach = |slot: usize| self_reach.get(slot + 1).copied().unwrap_or((0.0, 0.0));
        (
            (first.left + span.margin).at_least(reach(span.first).0),
            (last.right + span.margin).at_least(reach(span.last).1),
        )
    }

    /// A note across reaches past the first and the last lifeline (centered
    /// between heads of unequal width, or wider than them); a box around
    /// either end encloses it, with a note's room (PlantUML widens the first
    /// box, corpus 154, 156). Needs the solved positions, and moves nothing:
    /// only the boxes at the ends grow.
    fn enclose_notes_across(&self, events: &[Event], prepared: &[Prepared], positions: &mut Positions) {
        let n = self.slots.len();
        let (Some(first), Some(last)) = (self.slots.first(), self.slots.last()) else {
            return;
        };
        let (lo, hi) = (positions.pos[1], positions.pos[n]);
        let heads =
            (hi + self.heads[last.index()].right) - (lo - self.heads[first.index()].left) - 2.0 * NOTE_OVER_HEAD_INSET;
        for (event, prep) in events.iter().zip(prepared) {
            let (Event::Note(note), Prepared::Note(block)) = (event, prep) else {
                continue;
            };
            if !matches!(note.position, NotePosition::Across) {
                continue;
            }
            let w = note_size(note.shape, block, &self.theme).0;
            // A note wider than the heads widens the boxes at the ends by
            // half its width beyond the heads packed side by side
            // (`self_message_reach`); one drawn over the heads keeps 9 px
            // inside the first box.
            if w > heads {
                continue;
            }
            let x = (lo + hi) / 2.0 - heads / 2.0;
            if let Some(entry) = positions.self_reach.get_mut(1) {
                entry.0 = entry.0.at_least(lo - x + NOTE_BOX_ROOM);
            }
        }
    }

    /// Per slot (1-based, like the positions): how far self messages (`A <- A`
    /// on the left) with their labels and the notes beside a participant
    /// reach left and right of its lifeline. A box encloses them, as in PlantUML.
    fn self_message_reach(&self, events: &[Event], prepared: &[Prepared], n: usize) -> Vec<(f64, f64)> {
        let mut reach = vec![(0.0_f64, 0.0_f64); n + 2];
        let mut last_message: Option<(usize, usize, f64)> = None;
        let mut last_is_self = false;
        let mut depth: Vec<u32> = vec![0; self.diagram.participants.len()];
        for (index, (event, prep)) in events.iter().zip(prepared).enumerate() {
            match (event, prep) {
                (Event::Activate { .. } | Event::Deactivate { .. } | Event::Destroy { .. }, _) => {
                    track_activation_depth(&mut depth, event);
                }
                (Event::Message(m), Prepared::Message(label, number)) => {
                    let (Some(from), Some(to)) = (self.endpoint_slot(&m.from, n), self.endpoint_slot(&m.to, n)) else {
                        continue;
                    };
                    last_message = Some((from.min(to), from.max(to), 0.0));
                    last_is_self = m.is_self();
                    if !m.is_self() {
                        continue;
                    }
                    let label_w = label.width + number.as_ref().map_or(0.0, |n| n.width + NUMBER_GAP);
                    // PlantUML: a box holding a loop labelled `self` ends 54 px
                    // right of its lifeline (4 px of inset).
                    let r = (label_w + 14.0).at_least(SELF_WIDTH + 8.0);
                    if !m.arrow.written_reversed {
                        last_message = Some((from, from, r));
                    }
                    // A loop on the right starts at the outermost bar's edge.
                    let bars = m.from.participant().map_or(0.0, |p| {
                        let d = depth.get(p.index()).copied().unwrap_or(0)
                            + u32::from(activated_next(&events[index + 1..], p));
                        ACTIVATION_WIDTH / 2.0 * f64::from(d)
                    });
                    if let Some(entry) = reach.get_mut(from) {
                        if m.arrow.written_reversed {
                            entry.0 = entry.0.at_least(r);
                        } else {
                            entry.1 = entry.1.at_least(r + bars);
                        }
                    }
                }
                // Notes beside or over one participant: notes attached to a
                // message belong to it, not to a participant, unless it is a
                // self message (PlantUML's box then holds the note too).
                (Event::Note(note), Prepared::Note(block))
                    if matches!(
                        note.position,
                        NotePosition::Left { of: Some(_) }
                            | NotePosition::Right { of: Some(_) }
                            | NotePosition::Over { last: None, .. }
                    ) || (last_is_self
                        && matches!(
                            note.position,
                            NotePosition::Left { of: None } | NotePosition::Right { of: None }
                        )) =>
                {
                    let (w, _) = note_size(note.shape, block, &self.theme);
                    let Some(extent) = self.note_extent(note, w, last_message) else {
                        continue;
                    };
                    // A note right of an active lifeline starts at its bars' edge
                    // (PlantUML's box ignores the bar under a note on the left).
                    let right_bars = match note.position {
                        NotePosition::Right { of: Some(p) } => {
                            ACTIVATION_WIDTH / 2.0 * f64::from(depth.get(p.index()).copied().unwrap_or(0))
                        }
                        _ => 0.0,
                    };
                    if let Some(entry) = reach.get_mut(extent.anchor) {
                        entry.0 = entry.0.at_least(extent.left + NOTE_BOX_ROOM);
                        entry.1 = entry.1.at_least(extent.right + right_bars + NOTE_BOX_ROOM);
                    }
                }
                // A note over several participants of one box: PlantUML's box
                // holds it as if their heads stood side by side (whatever the
                // messages spread them to), centered on them.
                (Event::Note(note), Prepared::Note(block)) => {
                    // A note across is a note over the first and the last
                    // participant (PlantUML draws both alike).
                    let (a, b) = match note.position {
                        NotePosition::Over {
                            first,
                            last: Some(last),
                        } => match (self.slot(first), self.slot(last)) {
                            (Some(a), Some(b)) => (a, b),
                            _ => continue,
                        },
                        NotePosition::Across => (0, n.saturating_sub(1)),
                        _ => continue,
                    };
                    let (a, b) = (a.min(b), a.max(b));
                    if a == b {
                        continue;
                    }
                    let (w, _) = note_size(note.shape, block, &self.theme);
                    let packed: f64 = (a..=b)
                        .map(|s| {
                            let head = &self.heads[self.slots[s].index()];
                            match s {
                                _ if s == a => head.right,
                                _ if s == b => head.left,
                                _ => head.left + head.right,
                            }
                        })
                        .sum();
                    let side = w / 2.0 - packed / 2.0 + NOTE_BOX_ROOM;
                    if let Some(entry) = reach.get_mut(a + 1) {
                        entry.0 = entry.0.at_least(side);
                    }
                    if let Some(entry) = reach.get_mut(b + 1) {
                        entry.1 = entry.1.at_least(side);
                    }
                }
                _ => {}
            }
        }
        // Reversed notes across a box edge widen the boxes like notes over
        // one participant (`reversed_notes`).
        for (entry, reversed) in reach.iter_mut().zip(self.reversed_note_reach(events, prepared, n)) {
            entry.0 = entry.0.at_least(reversed.0);
            entry.1 = entry.1.at_least(reversed.1);
        }
        reach
    }

    fn push_head(&self, out: &mut Vec<Item>, id: ParticipantId, x: f64, top: f64, foot: bool) {
        let p = self.diagram.participant(id);
        let head = &self.heads[id.index()];
        out.push(Item::Begin {
            class: if foot {
                "participant-foot".into()
            } else {
                "participant".into()
            },
            title: Some(p.name.clone()),
            link: p.url.as_deref().and_then(creole::safe_url),
            data: Vec::new(),
        });
        // Stereotype rules (`.name { … }`) beat element rules; an inline colour beats both.
        let stereotyped;
        let look = match p
            .stereotype
            .as_ref()
            .filter(|_| !self.theme.stereotype_rules.is_empty())
        {
            Some(st) => {
                stereotyped = self
                    .theme
                    .with_stereotypes(p.kind.keyword(), st.labels.iter().map(String::as_str));
                &stereotyped
            }
            None => &self.theme,
        };
        let inline_fill = p
            .color
            .as_deref()
            .and_then(|c| Some((parse_color(c)?, parse_gradient(c))));
        let (fill, gradient) =
            inline_fill.unwrap_or_else(|| (look.participant_bg(p.kind), look.participant_gradient(p.kind)));
        let border = look.participant_border(p.kind);
        let text_color = look.participant_font_color(p.kind);
        let body = Paint {
            fill: Some(fill),
            stroke: Some(stroke(border, head.line_thickness)),
            gradient,
            shadow: None,
        }
        .shadowed(self.theme.draws_shadows());
        draw_head(out, head, x, top, foot, body, text_color, &self.theme);
        out.push(Item::End);
    }

    /// teoz `{start} <-> {end}`: a vertical double-headed arrow between two
    /// anchored messages' rows, at the middle of the first, its label beside it.
    fn duration_arrow(&self, out: &mut Vec<Item>, x: f64, top: f64, bottom: f64, label: &str) {
        let color = self.theme.arrow_color;
        let (top, bottom) = (top + 2.0, bottom - 2.0);
        if bottom - top >= 1.0 {
            line(out, x, top, x, bottom, stroke(color, self.theme.arrow_thickness));
            let filled = paint(Some(color), Some(stroke(color, 1.0)));
            for (tip, dir) in [(top, 1.0), (bottom, -1.0)] {
                shapes::polygon(
                    out,
                    &[
                        (x - 4.0, tip + 10.0 * dir),
                        (x, tip),
                        (x + 4.0, tip + 10.0 * dir),
                        (x, tip + 6.0 * dir),
                    ],
                    filled,
                );
            }
        }
        if !label.trim().is_empty() {
            let block = self.label_block(label, message_font(&self.theme));
            let text_top = (top + bottom) / 2.0 - block.height / 2.0;
            block.draw(x + 4.0, text_top, Align::Left, self.theme.arrow_font_color, out);
        }
    }

    /// An activation bar from `start` to `end`. A bar that a delay (`...`)
    /// crosses is drawn as PlantUML draws it: one piece between each two
    /// delays, filled and outlined in its fill, its sides (and the top of the
    /// first piece, the bottom of the last) drawn as lines.
    /// The fill of a participant's activation bars without a colour of
    /// their own: its stereotype's background, if a rule gives one.
    fn stereotype_bar_fill(&self, participant: ParticipantId) -> Option<Color> {
        let p = self.diagram.participants.get(participant.index())?;
        let st = p.stereotype.as_ref()?;
        self.theme.stereotype_background(st.labels.iter().map(String::as_str))
    }

    fn activation_bar(
        &self,
        center: f64,
        start: f64,
        end: f64,
        color: Option<Color>,
        delays: &[(f64, f64)],
    ) -> Vec<Item> {
        let fill = color.unwrap_or(self.theme.activation_bg);
        // An inline colour is solid (PlantUML refuses `activate A #A-B`).
        let gradient = if color.is_some() {
            None
        } else {
            self.theme.fades.activation
        };
        let border = stroke(self.theme.activation_border, 1.0);
        let (left, right) = (center - ACTIVATION_WIDTH / 2.0, center + ACTIVATION_WIDTH / 2.0);
        let mut out = Vec::new();
        let crossing: Vec<(f64, f64)> = delays
            .iter()
            .copied()
            .filter(|&(d0, d1)| d0 > start && d1 < end)
            .collect();
        if crossing.is_empty() {
            rect(
                &mut out,
                left,
                start,
                ACTIVATION_WIDTH,
                end - start,
                0.0,
                shapes::fading_or_none(fill, gradient, Some(border)).shadowed(self.theme.draws_shadows()),
            );
            return out;
        }
        let mut pieces = Vec::with_capacity(crossing.len() + 1);
        let mut from = start;
        for &(d0, d1) in &crossing {
            pieces.push((from, d0));
            from = d1;
        }
        pieces.push((from, end));
        let last = pieces.len() - 1;
        for (index, &(top, bottom)) in pieces.iter().enumerate() {
            rect(
                &mut out,
                left,
                top,
                ACTIVATION_WIDTH,
                bottom - top,
                0.0,
                // A faded piece has no outline in its fill (a stroke takes
                // no gradient here); the sides are drawn over it anyway.
                shapes::fading_or_none(
                    fill,
                    gradient,
                    (gradient.is_none() && fill.a > 0).then(|| stroke(fill, 1.0)),
                )
                .shadowed(self.theme.draws_shadows()),
            );
            line(&mut out, left, top, left, bottom, border);
            line(&mut out, right, top, right, bottom, border);
            if index == 0 {
                line(&mut out, left, top, right, top, border);
            }
            if index == last {
                line(&mut out, left, bottom, right, bottom, border);
            }
        }
        out
    }

    /// Where `newpage` splits the diagram, PlantUML draws a thin dashed line
    /// across the page (like a divider's band): 11 px above the foot boxes
    /// of a page another one follows, 10 px below the lifelines' top on a
    /// page that follows another (probe `newpage_marks`, corpus 009, 135).
    /// Returns the lines' y.
    fn page_break_marks(
        &self,
        spot: PageSpot,
        head_top_y: &[f64],
        page_bottom: f64,
        cx: &dyn Fn(ParticipantId) -> Option<f64>,
    ) -> Vec<f64> {
        let mut ys = Vec::new();
        let top = self
            .slots
            .iter()
            .filter(|id| cx(**id).is_some())
            .filter_map(|id| head_top_y.get(id.index()).copied())
            .fold(f64::INFINITY, f64::at_most);
        if spot.after_first && top.is_finite() {
            ys.push(top + 10.0);
        }
        if spot.before_last && top.is_finite() {
            ys.push(page_bottom - 11.0);
        }
        ys
    }

    /// A group whose `else` branches have colours of their own: PlantUML
    /// fills each branch apart, the first with the group's colour, each
    /// other with its `else` colour (the group's when it has none); with
    /// round corners the first branch rounds the frame's top corners and
    /// the last its bottom ones (corpus 126, 129).
    fn fill_group_sections(&self, fills: &mut Vec<Item>, g: &OpenGroup, (x0, x1): (f64, f64), bottom: f64) {
        let first_fill = g.fill.or(self.theme.group_bg);
        let mut sections: Vec<(f64, Option<Color>)> = vec![(g.top, first_fill)];
        sections.extend(g.elses.iter().map(|(at, _, color)| (*at, color.or(first_fill))));
        let last = sections.len() - 1;
        let r = self.theme.frame_round_corner.at_most((x1 - x0) / 2.0).at_least(0.0);
        for (i, &(top, color)) in sections.iter().enumerate() {
            let Some(fill) = color else { continue };
            let end = sections.get(i + 1).map_or(bottom, |s| s.0);
            let (round_top, round_bottom) = (i == 0 && r > 0.0, i == last && r > 0.0);
            // PlantUML outlines a square section in its fill, not a rounded one.
            if !round_top && !round_bottom {
                rect(
                    fills,
                    x0,
                    top,
                    x1 - x0,
                    end - top,
                    0.0,
                    paint(Some(fill), Some(stroke(fill, 1.0))),
                );
                continue;
            }
            // A quarter circle as one cubic (the usual 0.5523 handle).
            let k = r * 0.552_284_75;
            let mut path = shapes::PathBuilder::new();
            path = if round_top {
                path.move_to(x0 + r, top)
                    .line_to(x1 - r, top)
                    .cubic_to(x1 - r + k, top, x1, top + r - k, x1, top + r)
            } else {
                path.move_to(x0, top).line_to(x1, top)
            };
            path = if round_bottom {
                path.line_to(x1, end - r)
                    .cubic_to(x1, end - r + k, x1 - r + k, end, x1 - r, end)
                    .line_to(x0 + r, end)
                    .cubic_to(x0 + r - k, end, x0, end - r + k, x0, end - r)
            } else {
                path.line_to(x1, end).line_to(x0, end)
            };
            path = if round_top {
                path.line_to(x0, top + r)
                    .cubic_to(x0, top + r - k, x0 + r - k, top, x0 + r, top)
            } else {
                path.line_to(x0, top)
            };
            path.close().push(fills, paint(Some(fill), None));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn heads_on_line(
        &self,
        out: &mut Vec<Item>,
        m: &Message,
        tip: f64,
        y: f64,
        dir: f64,
        tail: f64,
        tail_y: f64,
        tail_dir: f64,
        color: Color,
    ) {
        let strict = self.theme.strict_uml;
        shapes::arrow_head(out, m.arrow.head.shape, tip, y, dir, color, strict);
        if m.arrow.head.circle {
            shapes::ellipse(out, tip + dir * 4.0, y, 4.0, 4.0, message_circle_paint(color));
        }
        shapes::arrow_head(out, m.arrow.tail_head.shape, tail, tail_y, tail_dir, color, strict);
        if m.arrow.tail_head.circle {
            shapes::ellipse(
                out,
                tail + tail_dir * 4.0,
                tail_y,
                4.0,
                4.0,
                message_circle_paint(color),
            );
        }
    }

    /// The heads of a message with a circle at a participant's end: each
    /// circle centred 0.5 px left of and 0.75 px above the end, the head
    /// (tip at `head.0`) drawn as usual (PlantUML, probe `message_circles`).
    fn circled_heads(
        &self,
        out: &mut Vec<Item>,
        m: &Message,
        head: (f64, Option<f64>, f64, f64),
        tail: (f64, Option<f64>, f64),
        color: Color,
    ) {
        let (tip, head_end, y, dir) = head;
        let (tail_tip, tail_end, tail_y) = tail;
        let strict = self.theme.strict_uml;
        let circle = |out: &mut Vec<Item>, x: f64, y: f64| {
            shapes::ellipse(
                out,
                x - CIRCLE_END_SHIFT,
                y - 0.75,
                4.0,
                4.0,
                message_circle_paint(color),
            );
        };
        shapes::arrow_head(out, m.arrow.head.shape, tip, y, dir, color, strict);
        match head_end {
            Some(end) => circle(out, end, y),
            None if m.arrow.head.circle => circle(out, tip + dir * 4.0 + CIRCLE_END_SHIFT, y),
            None => {}
        }
        shapes::arrow_head(out, m.arrow.tail_head.shape, tail_tip, tail_y, -dir, color, strict);
        match tail_end {
            Some(end) => circle(out, end, tail_y),
            None if m.arrow.tail_head.circle => circle(out, tail_tip - dir * 4.0 + CIRCLE_END_SHIFT, tail_y),
            None => {}
        }
    }

    /// The width a group's header gives its frame, as PlantUML measures it:
    /// the tab and 16 px, or the tab, 15 px, the `[condition]` and 16 px.
    fn group_header_width(
        &self,
        kind: GroupKind,
        label: Option<&str>,
        label_trailing_blanks: usize,
        secondary: Option<&str>,
    ) -> f64 {
        let condition = match kind {
            GroupKind::Group => secondary,
            _ => label,
        }
        .filter(|c| !c.trim().is_empty());
        let tab_w = self.group_tab_width(kind, label, label_trailing_blanks);
        group_header_need(tab_w, condition.map(|c| self.bracketed_condition_width(c)))
    }

    /// The width of a group's `[condition]` (or an `else` label) as drawn.
    fn bracketed_condition_width(&self, condition: &str) -> f64 {
        self.text_width(
            &format!("[{condition}]"),
            self.theme
                .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                .bold(),
        )
    }

    /// A group's header tab: its text (a `group`'s label, with the blanks
    /// written before its `[secondary]`, or the keyword) and 45 px.
    fn group_tab_width(&self, kind: GroupKind, label: Option<&str>, label_trailing_blanks: usize) -> f64 {
        let tab_text: std::borrow::Cow<'_, str> = match kind {
            GroupKind::Group => format!(
                "{}{}",
                label.unwrap_or(BARE_GROUP_TAB),
                " ".repeat(label_trailing_blanks)
            )
            .into(),
            kind => kind.keyword().into(),
        };
        self.text_width(&tab_text, self.theme.group_tab_font()) + 45.0
    }

    /// A `ref`'s text font: 12 px unless a theme or `reference { FontSize }`
    /// says otherwise.
    fn ref_text_font(&self) -> Font {
        self.theme
            .sized_font_of(TextElement::RefText, self.theme.reference_font_size, 12.0)
    }

    /// A `ref`'s tab font: bold, 13 px unless `referenceHeader { FontSize }`
    /// says otherwise.
    fn ref_tab_font(&self) -> Font {
        self.theme
            .sized_font_of(TextElement::RefTab, self.theme.reference_header_font_size, 13.0)
            .bold()
    }

    /// Draws a closed group frame; returns its x extent.
    fn close_group(
        &self,
        g: &OpenGroup,
        bottom: f64,
        fallback_x: f64,
        front: &mut Vec<Item>,
        fills: &mut Vec<Item>,
    ) -> (f64, f64) {
        let theme = &self.theme;
        let tab_text = match g.kind {
            GroupKind::Group => g.label.as_deref().unwrap_or(BARE_GROUP_TAB),
            kind => kind.keyword(),
        };
        let condition = match g.kind {
            GroupKind::Group => g.secondary.as_deref(),
            _ => g.label.as_deref(),
        }
        .filter(|c| !c.trim().is_empty());
        let tab_block = self.text(tab_text, self.theme.group_tab_font());
        let cond_block = condition.map(|c| {
            self.text(
                &format!("[{c}]"),
                self.theme
                    .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                    .bold(),
            )
        });
        let (mut x0, mut x1) = if g.min_x.is_finite() {
            (g.min_x - GROUP_FRAME_LEFT, g.max_x + GROUP_FRAME_LEFT)
        } else {
            (fallback_x, fallback_x + 40.0)
        };
        let tab_w = self.group_tab_width(g.kind, g.label.as_deref(), g.label_trailing_blanks);
        // A header wider than the participants sets the frame's width
        // (`group_header_width`, from the tab and condition measured here).
        let header_need = group_header_need(tab_w, cond_block.as_ref().map(|c| c.width));
        // Each `else` label is measured once, for the frame's width and to
        // be drawn.
        let else_blocks: Vec<Option<TextBlock>> = g
            .elses
            .iter()
            .map(|(_, label, _)| {
                label.as_deref().filter(|l| !l.trim().is_empty()).map(|l| {
                    self.text(
                        &format!("[{l}]"),
                        self.theme
                            .sized_font_of(TextElement::GroupCondition, self.theme.group_font_size, 11.0)
                            .bold(),
                    )
                })
            })
            .collect();
        let mut else_need: f64 = 0.0;
        for block in else_blocks.iter().flatten() {
            // The frame width an `else` label needs: 5 px in, 2 px to spare.
            else_need = else_need.at_least(block.width + 7.0);
        }
        x1 = x1.at_least(x0 + header_need.at_least(else_need));
        if x1 - x0 < 20.0 {
            x0 -= 10.0;
            x1 += 10.0;
        }
        let border = theme.group_border;
        let tab_h = tab_block.height + 2.0;
        let coloured_elses = g.elses.iter().any(|e| e.2.is_some());
        // The frame's whole box, under the messages.
        let frame_box = |fills: &mut Vec<Item>, paint: Paint| {
            rect(
                fills,
                x0,
                g.top,
                x1 - x0,
                bottom - g.top,
                theme.frame_round_corner,
                paint,
            )
        };
        if coloured_elses {
            self.fill_group_sections(fills, g, (x0, x1), bottom);
        } else if let Some(fill) = g.fill.or(theme.group_bg) {
            // An inline colour is solid (PlantUML reads `alt #A-B` as text).
            // PlantUML outlines the body in its fill, a faded one in its
            // gradient (left out here: the frame covers that outline).
            let gradient = if g.fill.is_some() { None } else { theme.fades.group_body };
            frame_box(
                fills,
                shapes::fading(fill, gradient, gradient.is_none().then(|| stroke(fill, 1.0))),
            );
        }
        if theme.draws_shadows() {
            // PlantUML strokes the frame first behind everything, casting
            // its shadow, then again over the messages without one.
            frame_box(fills, paint(None, Some(stroke(border, 1.5))).shadowed(true));
        }
        front.push(Item::Begin {
            class: "group".into(),
            title: None,
            link: None,
            data: Vec::new(),
        });
        shapes::tab(
            front,
            x0,
            g.top,
            tab_w.at_most(x1 - x0),
            tab_h,
            match g.header_fill {
                Some(inline) => (inline, None),
                None => (theme.group_header_bg, theme.fades.group_header),
            },
            theme.group_tab_border.unwrap_or(border),
            theme.group_tab_width,
        );
        rect(
            front,
            x0,
            g.top,
            x1 - x0,
            bottom - g.top,
            theme.frame_round_corner,
            paint(None, Some(stroke(border, 1.5))),
        );
        tab_block.draw(
            x0 + 15.0,
            g.top + 1.0,
            Align::Left,
            theme.group_header_font_color,
            front,
        );
        if let Some(c) = cond_block {
            c.draw(
                x0 + tab_w + 15.0,
                g.top + 2.0,
                Align::Left,
                theme.group_font_color,
                front,
            );
        }
        for ((at, _, _), block) in g.elses.iter().zip(&else_blocks) {
            line(front, x0, *at, x1, *at, dashed(border, 1.0, 2.0, 2.0));
            if let Some(block) = block {
                block.draw(x0 + 5.0, at + 2.0, Align::Left, theme.group_font_color, front);
            }
        }
        front.push(Item::End);
        (x0, x1)
    }

    /// A legend's box between the content's `left` and `right` edges:
    /// PlantUML keeps it 7 px in from the left, 8 px in from the right, or
    /// centered.
    /// How far a theme's or `<style>`'s legend margin moves the legend
    /// (above) and what follows it (below) from PlantUML's default.
    fn legend_margin_change(&self) -> (f64, f64) {
        let (margin, default) = (self.theme.legend_spacing.margin, Spacing::DEFAULT_LEGEND.margin);
        (margin.top - default.top, margin.bottom - default.bottom)
    }

    /// The room beside a legend against the diagram's edges: PlantUML's 7
    /// and 8 px, widened or narrowed by a legend margin other than its
    /// default.
    fn legend_insets(&self) -> (f64, f64) {
        let (margin, default) = (self.theme.legend_spacing.margin, Spacing::DEFAULT_LEGEND.margin);
        (
            LEGEND_LEFT_INSET + margin.left - default.left,
            LEGEND_RIGHT_INSET + margin.right - default.right,
        )
    }

    /// A legend between `left` and `right` (centred on `mid`) from `top`.
    fn legend_items(
        &self,
        legend: &puml_sema::model::Legend,
        (left, right, mid): (f64, f64, f64),
        top: f64,
    ) -> (f64, Vec<Item>) {
        let mut out = Vec::new();
        let block = self.text(
            &legend.text,
            self.theme
                .font_of(TextElement::Legend, self.theme.legend_font_size.unwrap_or(14.0)),
        );
        let padding = self.theme.legend_spacing.padding;
        let w = block.width + padding.left + padding.right;
        let h = block.height + padding.top + padding.bottom;
        let (left_inset, right_inset) = self.legend_insets();
        let x = match legend.horizontal {
            Some(HorizontalAlign::Left) => left + left_inset,
            Some(HorizontalAlign::Right) => right - w - right_inset,
            _ => mid - w / 2.0,
        };
        out.push(Item::Begin {
            class: "legend".into(),
            title: None,
            link: None,
            data: Vec::new(),
        });
        rect(&mut out, x, top, w, h, 7.5, {
            let (fill, gradient) = self.theme.legend_fill();
            shapes::fading_or_none(fill, gradient, Some(stroke(self.theme.legend_border, 1.0)))
        });
        block.draw(
            x + padding.left,
            top + padding.top,
            Align::Left,
            self.theme.legend_font_color,
            &mut out,
        );
        out.push(Item::End);
        (h, out)
    }
}

/// Where a message's line starts and where the head at its sender's end
/// (`<->`, `<<->>`, `x<->x`) has its tip, from the sender's end `from_x`.
/// PlantUML draws that head like one at a receiver's end: the tip 1 px
/// right of a lifeline on the left, 2 px left of one on the right; the line
/// starts 4 px behind a filled tip and 1 px past an open one.
fn tail_head_ends(shape: HeadShape, from_x: f64, dir: f64, at_participant: bool) -> (f64, f64) {
    if shape == HeadShape::None || !at_participant {
        return (from_x, from_x);
    }
    let tip = from_x + if dir > 0.0 { 1.0 } else { -2.0 };
    match shape {
        HeadShape::Filled | HeadShape::HalfUpper | HeadShape::HalfLower => (tip + dir * 4.0, tip),
        _ => (tip - dir, tip),
    }
}

/// The circle of `->o`/`o->`: black inside, outlined 1.5 px wide in the
/// arrow's colour, whatever that colour (PlantUML, probe
/// `message_circle_colors`).
fn message_circle_paint(color: Color) -> Paint {
    paint(Some(Color::BLACK), Some(stroke(color, 1.5)))
}

/// Turns the polygons and lines of `items` by `angle` (radians, clockwise
/// on the page) about `center`.
fn rotate_items(items: &mut [Item], center: (f64, f64), angle: f64) {
    let (sin, cos) = angle.sin_cos();
    let turn = |x: f64, y: f64| {
        let (dx, dy) = (x - center.0, y - center.1);
        (
            round3(center.0 + dx * cos - dy * sin),
            round3(center.1 + dx * sin + dy * cos),
        )
    };
    for item in items {
        match item {
            Item::Polygon { points, .. } => {
                for p in points.iter_mut() {
                    (p.x, p.y) = turn(p.x, p.y);
                }
            }
            Item::Line { x1, y1, x2, y2, .. } => {
                (*x1, *y1) = turn(*x1, *y1);
                (*x2, *y2) = turn(*x2, *y2);
            }
            _ => {}
        }
    }
}

/// How far a short arrow (`?->`, `->?`) reaches past its label from the
/// participant's lifeline: 23 px on the right (`side` > 0), 24 on the left
/// (PlantUML 1.2026.8, probe `short_arrows`).
fn short_room(side: f64) -> f64 {
    if side > 0.0 {
        23.0
    } else {
        24.0
    }
}

/// A circle at a message's end is centred this far left of the end.
const CIRCLE_END_SHIFT: f64 = 0.5;

/// Where the head of `->o` has its tip, for the message's end `end` (the
/// lifeline or the bar's edge): 7 px from the circle's centre toward the sender.
fn circled_head_tip(end: f64, dir: f64) -> f64 {
    end - CIRCLE_END_SHIFT - dir * 7.0
}

/// PlantUML moves the label of a message going right that has a head at
/// its sender's end too (`A <-> B`, `A <<->> B`, not `A o-> B`) 10 px
/// right, aligned left or right (probes `bidirectional_label*`).
fn tail_head_label_shift(m: &Message, goes_right: bool) -> f64 {
    if goes_right && m.arrow.tail_head.shape != HeadShape::None && !m.is_self() {
        10.0
    } else {
        0.0
    }
}

/// The width a group's header gives its frame, from its tab's width and
/// its `[condition]`'s (see `Context::group_header_width`).
fn group_header_need(tab_w: f64, condition_w: Option<f64>) -> f64 {
    tab_w + 16.0 + condition_w.map_or(0.0, |w| w + 15.0)
}

/// The x range a message and its label cover: between the ends, or for a
/// self message the loop and the label beside it (left of the lifeline for `A <- A`).
fn self_span(geometry: &MessageGeometry, label_width: f64) -> (f64, f64) {
    let x = geometry.from_x;
    let reach = SELF_WIDTH.at_least(label_width + 14.0);
    match (geometry.is_self, geometry.to_x < x) {
        (true, true) => (x - reach, x),
        (true, false) => (x, x + reach),
        (false, _) => (x.at_most(geometry.to_x), x.at_least(geometry.to_x)),
    }
}

/// What a self message holds a group frame to (GROUP_FRAME_LEFT beyond):
/// PlantUML counts the lifeline on the loop's back side (the bar's edge for
/// a loop on the left) and the label's far end, 7 px into the loop, on its
/// front side (at least the loop's own width).
fn self_frame_reach(geometry: &MessageGeometry, lifeline: f64, label_width: f64) -> (f64, f64) {
    let x = geometry.from_x;
    let front = (label_width + 7.0).at_least(SELF_WIDTH);
    if geometry.to_x < x {
        (
            x - front,
            lifeline.at_least(lifeline + (lifeline - x).at_most(ACTIVATION_WIDTH / 2.0)),
        )
    } else {
        (lifeline, x + front)
    }
}

/// Solves `pos[b] - pos[a] >= d` for every `(a, d)` in `constraints[b]`
/// (always a < b), left to right: the smallest positions that satisfy them.
fn longest_paths(constraints: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let mut pos = vec![0.0_f64; constraints.len()];
    for b in 1..constraints.len() {
        let mut x = pos[b - 1];
        for &(a, d) in &constraints[b] {
            x = x.at_least(pos[a] + d);
        }
        pos[b] = x;
    }
    pos
}

/// Whether some message of the diagram goes to `p`.
fn reached_by_a_message(events: &puml_sema::model::Events, p: ParticipantId) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::Message(m) if m.to.participant() == Some(p)))
}

/// Whether `p` is activated right after a message (before the next one):
/// the message then already ends at the bar.
/// How many of p's bars the `deactivate`s right after a message close
/// (only notes between: PlantUML still ends them at a self message's loop,
/// probes `self_message_deactivated_notes`).
fn deactivated_next(rest: &[Event], p: ParticipantId) -> usize {
    rest.iter()
        .take_while(|e| matches!(e, Event::Deactivate { .. } | Event::Note(_)))
        .filter(|e| matches!(e, Event::Deactivate { participant } if *participant == p))
        .count()
}

fn activated_next(rest: &[Event], p: ParticipantId) -> bool {
    activations_next(rest, p) > 0
}

/// How many bars of `p` the events right after a message open at it.
fn activations_next(rest: &[Event], p: ParticipantId) -> usize {
    rest.iter()
        .take_while(|e| !matches!(e, Event::Message(_)) && !starts_a_row(e))
        .filter(|e| matches!(e, Event::Activate { participant, .. } if *participant == p))
        .count()
}

/// Whether an event takes room of its own between two messages (a group's
/// header or end, a divider, a delay, a spacing, a ref): a bar activated
/// after it starts there, not at the message before (PlantUML, corpus 225).
fn starts_a_row(event: &Event) -> bool {
    matches!(
        event,
        Event::Ref(_)
            | Event::GroupStart(_)
            | Event::GroupElse { .. }
            | Event::GroupEnd
            | Event::Divider { .. }
            | Event::Delay { .. }
            | Event::Space { .. }
            | Event::NewPage { .. }
    )
}

/// Whether `activate`/`deactivate p` after the message `m` (with `between`
/// in between) opens or closes p's bar at that message, as PlantUML does when
/// the message joins p and only notes and other bars came after it;
/// otherwise the bar starts or ends [`UNATTACHED_BAR_DROP`] below the row.
fn bar_attached(m: &LastMessage, p: ParticipantId, between: &[Event]) -> bool {
    involves(m, p) && !between.iter().any(starts_a_row)
}

/// Whether a bar attached to message `m` loses its `activate p #color`:
/// PlantUML draws it in the default colour when an `activate` or
/// `deactivate` of a participant the message does not join came between
/// (probes `activate_colour_after_other_*`).
fn bar_color_dropped(m: &LastMessage, between: &[Event]) -> bool {
    between.iter().any(|e| match e {
        Event::Activate { participant, .. } | Event::Deactivate { participant } => !involves(m, *participant),
        _ => false,
    })
}

/// Where `deactivate p` (after `before`, the page's events so far) ends the
/// bar opened at `open_at`, with the next row at `y`. PlantUML ends it at
/// the message that joins p when it is attached to it; a bar that would
/// then end where it opened (`A -> B`, `activate B`, `deactivate B`) ends
/// 13 px below the row instead while only notes beside that message came
/// between, else like an unattached one (probes `deactivate_same_message`).
fn deactivation_end(
    last: Option<&LastMessage>,
    p: ParticipantId,
    before: &[Event],
    y: f64,
    open_at: Option<f64>,
) -> f64 {
    let Some(m) = last else {
        return y + UNATTACHED_BAR_DROP;
    };
    let between = before.get(m.event_index + 1..).unwrap_or_default();
    if !bar_attached(m, p, between) {
        return y + UNATTACHED_BAR_DROP;
    }
    if open_at.is_none_or(|start| start < m.arrow_y - 1e-6) {
        // Right after p's own self message, at the loop's top (PlantUML:
        // the return then lands on the bars left open).
        let is_own_loop = m.from == Some(p) && m.to == Some(p);
        // (A self message's `arrow_y` is its return, SELF_HEIGHT below.)
        if is_own_loop
            && between
                .iter()
                .all(|e| matches!(e, Event::Deactivate { .. } | Event::Note(_)))
        {
            return m.arrow_y - SELF_HEIGHT;
        }
        return m.bottom;
    }
    let beside_message = |e: &Event| match e {
        Event::Note(n) => matches!(
            n.position,
            NotePosition::Left { of: None } | NotePosition::Right { of: None }
        ),
        _ => true,
    };
    if between.iter().all(beside_message) {
        y + SAME_MESSAGE_BAR_LENGTH
    } else {
        y + UNATTACHED_BAR_DROP
    }
}

/// Where a `deactivate p` that is one of a run of consecutive `deactivate`s
/// (of any participants, nothing else between) ends its bar, given `end`
/// from [`deactivation_end`]. PlantUML 1.2026.8 (probes
/// `deactivate_run_*`): a bar never ends above the bar nested in it that
/// the run closed before (corpus 004: the outer bars of a bar opened and
/// closed at one self message reach as low as it); and when the run closes
/// two or more of p's bars away from any message, they end
/// [`SAME_MESSAGE_BAR_LENGTH`] below the row rather than
/// [`UNATTACHED_BAR_DROP`] (corpus 203, 204: two `deactivate`s after a
/// group's `end`).
fn deactivation_run_end(
    runs: &mut [Option<(usize, f64)>],
    last: Option<&LastMessage>,
    events: &[Event],
    index: usize,
    p: ParticipantId,
    y: f64,
    end: f64,
) -> f64 {
    let is_deactivate = |e: &Event| matches!(e, Event::Deactivate { .. });
    let run_start = events[..index]
        .iter()
        .rposition(|e| !is_deactivate(e))
        .map_or(0, |i| i + 1);
    let run_end = events[index..]
        .iter()
        .position(|e| !is_deactivate(e))
        .map_or(events.len(), |i| index + i);
    let closes_of_p = events[run_start..run_end]
        .iter()
        .filter(|e| matches!(e, Event::Deactivate { participant } if *participant == p))
        .count();
    let attached = last.is_some_and(|m| bar_attached(m, p, events.get(m.event_index + 1..index).unwrap_or_default()));
    let mut end = if closes_of_p >= 2 && !attached {
        y + SAME_MESSAGE_BAR_LENGTH
    } else {
        end
    };
    if let Some(slot) = runs.get_mut(p.index()) {
        if let Some((start, inner_end)) = *slot {
            if start == run_start {
                end = end.at_least(inner_end);
            }
        }
        *slot = Some((run_start, end));
    }
    end
}

/// A note beside the last message (`note left`/`note right` without a
/// participant) written after other notes that follow the message: PlantUML
/// attaches it to the message all the same and draws those notes after the
/// message's row (corpus 269: `hnote over B`, then `note right`). Returns
/// the events with each such note moved right after its message (borrowed
/// when nothing moves).
fn attached_notes_first(events: &[Event]) -> std::borrow::Cow<'_, [Event]> {
    let attached = |e: &Event| {
        matches!(e, Event::Note(n) if !n.aligned
            && matches!(n.position, NotePosition::Left { of: None } | NotePosition::Right { of: None }))
    };
    let moves = |i: usize| -> bool {
        attached(&events[i])
            && i > 0
            && !attached(&events[i - 1])
            && matches!(events[i - 1], Event::Note(_))
            && events[..i]
                .iter()
                .rev()
                .find(|e| !matches!(e, Event::Note(_)))
                .is_some_and(|e| matches!(e, Event::Message(_)))
    };
    if !(0..events.len()).any(moves) {
        return std::borrow::Cow::Borrowed(events);
    }
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut message_at: Option<usize> = None;
    for (i, event) in events.iter().enumerate() {
        if moves(i) {
            if let Some(at) = message_at {
                // After the message and the notes already attached to it.
                let slot = at + 1 + out[at + 1..].iter().take_while(|e| attached(e)).count();
                out.insert(slot, event.clone());
                continue;
            }
        }
        match event {
            Event::Message(_) => message_at = Some(out.len()),
            Event::Note(_) => {}
            _ => message_at = None,
        }
        out.push(event.clone());
    }
    std::borrow::Cow::Owned(out)
}

/// Whether the events since the message `m` (the page's events `before`
/// the current one) are only notes attached to it, so that a `& note` joins
/// its row.
fn on_message_row(m: &LastMessage, before: &[Event]) -> bool {
    before.get(m.event_index + 1..).is_some_and(|between| {
        between.iter().all(|e| {
            matches!(e, Event::Note(n) if matches!(n.position, NotePosition::Left { of: None } | NotePosition::Right { of: None }))
        })
    })
}

/// Where a `& note` of height `h` on the message `m`'s row starts, and how
/// far the message must move down for it: PlantUML centres the note on the
/// arrow (2.5 px below a self message's first stroke) and keeps its top at
/// least 13 px below the row's top, moving the message instead (probe
/// `note_parallel`).
fn parallel_note_top(m: &LastMessage, h: f64) -> (f64, f64) {
    let is_self = m.from.is_some() && m.from == m.to;
    let at = if is_self {
        m.arrow_y - SELF_HEIGHT + SELF_PARALLEL_NOTE_DROP
    } else {
        m.arrow_y
    };
    let top = (at - h / 2.0).at_least(m.row_top + 13.0);
    (top, (top + h / 2.0 - at).at_least(0.0))
}

fn involves(m: &LastMessage, p: ParticipantId) -> bool {
    m.from == Some(p) || m.to == Some(p)
}

/// Room around an `rnote`'s text.
const RNOTE_PAD: f64 = 4.0;

/// How far a hexagonal note's (`hnote`) side points reach out of its body.
const HEXAGON_TIP: f64 = 10.0;

/// The outer size of a note around `block`. PlantUML pads a hexagonal note
/// 2 px left and right of its text inside the points and 4 px above and
/// below (its body drawn at whole pixels, see `shapes::note_shape`, but
/// what follows placed below the exact height); other
/// notes 10 px left and right, 5 px above and below.
fn note_size(shape: NoteShape, block: &TextBlock, theme: &Theme) -> (f64, f64) {
    match shape {
        NoteShape::Hexagon => (block.width + 4.0 + 2.0 * HEXAGON_TIP, block.height + 8.0),
        // `rnote`: 4 px around the text.
        NoteShape::Rectangle => (block.width + 2.0 * RNOTE_PAD, block.height + 2.0 * RNOTE_PAD),
        // PlantUML lays a note out 21 px wider than its text (6 before, 15
        // after, the corner included); `draw_note` draws it in whole pixels.
        _ => (
            block.width + 2.0 * NOTE_PAD_X + 1.0 + theme.note_text_inset + theme.shadow_room(),
            block.height + 2.0 * NOTE_PAD_Y + theme.shadow_room(),
        ),
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_note(
    out: &mut Vec<Item>,
    shape: NoteShape,
    x: f64,
    top: f64,
    w: f64,
    h: f64,
    block: &TextBlock,
    fill: (Color, Option<Gradient>),
    theme: &Theme,
) {
    out.push(Item::Begin {
        class: "note".into(),
        title: None,
        link: None,
        data: Vec::new(),
    });
    // A folded note's shape leaves its shadow's room free.
    let (w, h) = if matches!(shape, NoteShape::Hexagon | NoteShape::Rectangle) {
        (w, h)
    } else {
        (w - theme.shadow_room(), h - theme.shadow_room())
    };
    // PlantUML draws the note's outline rounded down to whole pixels.
    let (w, h) = if shape == NoteShape::Hexagon {
        (w, h)
    } else {
        (w.floor(), h.floor())
    };
    let body = out.len();
    shapes::note_shape(out, shape, x, top, w, h, fill, theme.note_border);
    // The body casts the shadow, the fold over it does not (observed).
    if theme.draws_shadows() {
        if let Some(item) = out.get_mut(body) {
            shapes::cast_shadow(item);
        }
    }
    let (text_x, text_y) = match shape {
        NoteShape::Hexagon => (x + HEXAGON_TIP + 2.0, top + 4.0),
        NoteShape::Rectangle => (x + RNOTE_PAD, top + RNOTE_PAD),
        _ => (x + 6.0 + theme.note_text_inset, top + NOTE_PAD_Y),
    };
    let (text_x, align) = match shape {
        // `defaultTextAlignment right` (probe `s_defaulttextalignment_right`):
        // the text ends 11 px before the note's right edge.
        NoteShape::Note if theme.default_text_right => (x + w - 11.0 - block.width, Align::Right),
        _ if theme.note_text_centered => (text_x, Align::Center),
        _ => (text_x, Align::Left),
    };
    block.draw(text_x, text_y, align, theme.note_font_color, out);
    out.push(Item::End);
}

/// A note whose text is centered (notes over several participants).
#[allow(clippy::too_many_arguments)]
fn draw_note_centered(
    out: &mut Vec<Item>,
    shape: NoteShape,
    x: f64,
    top: f64,
    w: f64,
    h: f64,
    block: &TextBlock,
    fill: (Color, Option<Gradient>),
    theme: &Theme,
) {
    let start = out.len();
    draw_note(out, shape, x, top, w, h, block, fill, theme);
    // PlantUML centers the note as laid out for its text (6 px before the
    // text, 15 after) in the wider box.
    let dx = if theme.default_text_right && shape == NoteShape::Note {
        // Already against the wide box's right edge.
        0.0
    } else {
        (w - note_size(shape, block, theme).0) / 2.0
    };
    for item in &mut out[start..] {
        if matches!(item, Item::Text(_)) {
            shift_item(item, dx, 0.0);
        }
    }
}

/// What the horizontal pass remembers of an open group: the participants it
/// involves (1-based slot indices) and the notes in it.
#[derive(Default)]
struct GroupReach {
    lo: Option<usize>,
    hi: Option<usize>,
    /// Notes in the group, each with how many frames inside this one it
    /// sits (0: directly in it).
    notes: Vec<(NoteExtent, usize)>,
    /// The header (tab, condition, `else` labels) width.
    min_width: f64,
    /// Inner groups' participant spans and header widths, with their depth
    /// inside this one (1: a direct child).
    headers: Vec<(usize, usize, f64, usize)>,
    /// Notes over two participants (1-based slots, width), with their depth
    /// inside this one: how far they overhang depends on the solved
    /// distance between the two, so their room is made after solving.
    /// Whether each was written first to last (`note over A, B` with A
    /// first), which stretches it over the heads when they are wider.
    pair_notes: Vec<(usize, usize, f64, usize, bool)>,
}

impl GroupReach {
    /// Counts a participant slot as involved (the diagram edges are not).
    fn touch(&mut self, slot: usize, n: usize) {
        if (1..=n).contains(&slot) {
            self.lo = Some(self.lo.map_or(slot, |lo| lo.min(slot)));
            self.hi = Some(self.hi.map_or(slot, |hi| hi.max(slot)));
        }
    }

    /// A closed inner group: its participants and notes are the outer one's
    /// too, one frame further in.
    fn absorb(&mut self, inner: GroupReach) {
        if let Some(lo) = inner.lo {
            self.lo = Some(self.lo.map_or(lo, |l| l.min(lo)));
        }
        if let Some(hi) = inner.hi {
            self.hi = Some(self.hi.map_or(hi, |h| h.max(hi)));
        }
        self.notes
            .extend(inner.notes.into_iter().map(|(note, level)| (note, level + 1)));
        self.pair_notes.extend(
            inner
                .pair_notes
                .into_iter()
                .map(|(a, b, w, level, forward)| (a, b, w, level + 1, forward)),
        );
        if let (Some(lo), Some(hi)) = (inner.lo, inner.hi) {
            self.headers.push((lo, hi, inner.min_width, 1));
        }
        self.headers.extend(
            inner
                .headers
                .into_iter()
                .map(|(lo, hi, w, level)| (lo, hi, w, level + 1)),
        );
    }
}

/// A note over two participants (1-based slots `a` < `b`): it is centred
/// between them, so how far it overhangs them depends on their solved
/// distance. In a group, PlantUML keeps the participants outside the group
/// clear of its frame, 21 px beyond the note: the one before by 30 px from
/// the note, the one after by 30 px plus its own clearance (probes: a note
/// over C, D in a group after B puts B 30 px left of the note; over A, B
/// before C, C's head 30 px right of it). Right after a box, the note keeps
/// clear of the box's outline.
struct PairNoteRoom {
    a: usize,
    b: usize,
    width: f64,
    /// The participant before the group and the room from the note's left edge.
    before: Option<(usize, f64)>,
    /// The participant after the group and the room from the note's right edge.
    after: Option<(usize, f64)>,
    /// Written first to last: the heads it may stretch over.
    heads: Option<StretchedNote>,
}

/// A note over two participants written first to last, in a group: it
/// stretches from 5 px inside the first head to 5 px inside the last when
/// that is wider than its text, centred between the lifelines, and its
/// frame holds the last head, 16 px beyond it, whether the note stretches
/// or not. Stretched, the frame starts 16 px left of the note (not 21).
/// (PlantUML, probes `group_note_over_*`: unequal heads, a short and a
/// long text.)
struct StretchedNote {
    /// The first head's half width left of its lifeline.
    first_left: f64,
    /// The last head's half width right of its lifeline.
    last_right: f64,
    /// The participant before the group and the stretched note's room from its left edge.
    before: Option<(usize, f64)>,
    /// The participant after the group and its room from the last head's right edge.
    after: Option<(usize, f64)>,
}

/// How far a group frame starts left of a note stretched over the heads.
const STRETCHED_NOTE_FRAME: f64 = 16.0;

impl PairNoteRoom {
    /// Adds the constraints the solution `pos` misses; whether it added any.
    fn require(&self, constraints: &mut [Vec<(usize, f64)>], pos: &[f64]) -> bool {
        let (Some(&pa), Some(&pb)) = (pos.get(self.a), pos.get(self.b)) else {
            return false;
        };
        let mut changed = false;
        if let Some(heads) = &self.heads {
            if let Some((after, room)) = heads.after {
                let room = heads.last_right + room;
                if pos.get(after).is_some_and(|p| p - pb < room - 1e-6) {
                    constraints[after].push((self.b, room));
                    changed = true;
                }
            }
            let stretched = (pb - pa) + heads.first_left + heads.last_right - 2.0 * NOTE_OVER_HEAD_INSET;
            if stretched >= self.width {
                // Centred between the lifelines: its left edge is half
                // the heads' overhang left of the first lifeline.
                let overhang = (heads.first_left + heads.last_right) / 2.0 - NOTE_OVER_HEAD_INSET;
                if let Some((before, room)) = heads.before {
                    if pos.get(before).is_some_and(|p| pa - p < overhang + room - 1e-6) {
                        constraints[self.a].push((before, overhang + room));
                        changed = true;
                    }
                }
                return changed;
            }
        }
        let overhang = (self.width - (pb - pa)) / 2.0;
        if overhang <= 0.0 {
            return changed;
        }
        if let Some((before, room)) = self.before {
            if pos.get(before).is_some_and(|p| pa - p < overhang + room - 1e-6) {
                constraints[self.a].push((before, overhang + room));
                changed = true;
            }
        }
        if let Some((after, room)) = self.after {
            if pos.get(after).is_some_and(|p| p - pb < overhang + room - 1e-6) {
                constraints[after].push((self.b, overhang + room));
                changed = true;
            }
        }
        changed
    }
}

/// From a box to a note over or left of the participant right after it
/// (PlantUML: the note crosses a neighbour's lifeline, not a box).
const NOTE_AFTER_BOX: f64 = 21.0;

/// A note's reach from the lifeline it hangs on (1-based slot `anchor`).
#[derive(Clone, Copy)]
struct NoteExtent {
    anchor: usize,
    left: f64,
    right: f64,
}

/// Labels measured once per page.
enum Prepared {
    Message(TextBlock, Option<TextBlock>),
    Note(TextBlock),
    Nothing,
}

struct Positions {
    pos: Vec<f64>,
    /// Per slot (1-based): how far self messages and their labels reach
    /// left and right of the lifeline (boxes enclose them).
    self_reach: Vec<(f64, f64)>,
    /// Per participant: the deepest its bars go anywhere in what was solved.
    max_depth: Vec<u32>,
}

/// Participants an event refers to.
fn event_participants(event: &Event) -> Vec<ParticipantId> {
    match event {
        Event::Message(m) => [m.from.participant(), m.to.participant()]
            .into_iter()
            .flatten()
            .collect(),
        Event::Note(n) => match &n.position {
            NotePosition::Left { of } | NotePosition::Right { of } => of.iter().copied().collect(),
            NotePosition::Over { first, last } => std::iter::once(*first).chain(*last).collect(),
            NotePosition::Across => Vec::new(),
        },
        Event::Ref(r) => r.participants.clone(),
        Event::Create { participant }
        | Event::Activate { participant, .. }
        | Event::Deactivate { participant }
        | Event::Destroy { participant } => vec![*participant],
        _ => Vec::new(),
    }
}

/// Greedy word wrap for `maxMessageSize`.
pub(crate) fn wrap_words(text: &str, max: f64, font: Font, metrics: &dyn TextMeasure) -> String {
    let mut out = Vec::new();
    for line in creole::split_lines(text) {
        let mut current = String::new();
        for word in line.split(' ') {
            let candidate = if current.is_empty() {
                word.to_string()
            } else {
                format!("{current} {word}")
            };
            // Measured as drawn: creole markup (`**`, `<sub>`) takes no room.
            if !current.is_empty() && creole::measure_width(&candidate, font, metrics) > max {
                out.push(std::mem::take(&mut current));
                current = word.to_string();
            } else {
                current = candidate;
            }
        }
        out.push(current);
    }
    out.join("\n")
}

// Inlined into the passes over every item (280,000 calls over the corpus
// render, each paying a call's entry and exit for a few comparisons).
#[inline]
pub(crate) fn item_x_range(item: &Item) -> Option<(f64, f64)> {
    match item {
        Item::Rect { x, width, .. } => Some((*x, x + width)),
        Item::Line {
            x1,
            x2,
            stroke: Stroke { .. },
            ..
        } => Some((x1.at_most(*x2), x1.at_least(*x2))),
        Item::Polygon { points, .. } => points.iter().fold(None, |acc, p| match acc {
            None => Some((p.x, p.x)),
            Some((a, b)) => Some((a.at_most(p.x), b.at_least(p.x))),
        }),
        Item::Ellipse { cx, rx, .. } => Some((cx - rx, cx + rx)),
        Item::Path { segments, .. } => segments.iter().fold(None, |acc, s| {
            let xs: &[f64] = match s {
                PathSegment::MoveTo { x, .. } | PathSegment::LineTo { x, .. } => std::slice::from_ref(x),
                PathSegment::CubicTo { x, .. } => std::slice::from_ref(x),
                PathSegment::Close => &[],
            };
            xs.iter().fold(acc, |acc, &x| match acc {
                None => Some((x, x)),
                Some((a, b)) => Some((a.at_most(x), b.at_least(x))),
            })
        }),
        Item::Text(t) => Some((t.x, t.x + t.width)),
        Item::Begin { .. } | Item::End => None,
    }
}

pub(crate) fn item_y_range(item: &Item) -> Option<(f64, f64)> {
    match item {
        Item::Rect { y, height, .. } => Some((*y, y + height)),
        Item::Line { y1, y2, .. } => Some((y1.at_most(*y2), y1.at_least(*y2))),
        Item::Polygon { points, .. } => points.iter().fold(None, |acc, p| match acc {
            None => Some((p.y, p.y)),
            Some((a, b)) => Some((a.at_most(p.y), b.at_least(p.y))),
        }),
        Item::Ellipse { cy, ry, .. } => Some((cy - ry, cy + ry)),
        Item::Path { segments, .. } => segments.iter().fold(None, |acc, s| {
            let y = match s {
                PathSegment::MoveTo { y, .. } | PathSegment::LineTo { y, .. } | PathSegment::CubicTo { y, .. } => *y,
                PathSegment::Close => return acc,
            };
            match acc {
                None => Some((y, y)),
                Some((a, b)) => Some((a.at_most(y), b.at_least(y))),
            }
        }),
        Item::Text(t) => Some((t.y - t.font.size, t.y + t.font.size * 0.25)),
        Item::Begin { .. } | Item::End => None,
    }
}

fn x_bounds_except(items: &[Item], left_out: &[usize]) -> (f64, f64) {
    items
        .iter()
        .enumerate()
        .filter(|(i, _)| !left_out.contains(i))
        .filter_map(|(_, item)| item_x_range(item))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (lo, hi)| {
            (a.at_most(lo), b.at_least(hi))
        })
}

/// In one pass over `items[top..]` (each of three passes went over every
/// item): `x_bounds_except(items, left_out)` continued from `before`, the
/// bounds of `items[..before.1]` (the items since are not in `left_out`);
/// `x_bounds(&items[top..])`; and the bounds of `items[top..]` less
/// `left_out`. Each is folded in item order, as the separate passes fold.
fn x_bounds_after(items: &[Item], left_out: &[usize], before: ((f64, f64), usize), top: usize) -> [(f64, f64); 3] {
    let ((mut content, from), top) = (before, top.min(items.len()));
    let mut is_left_out = vec![false; items.len()];
    for &i in left_out {
        if let Some(flag) = is_left_out.get_mut(i) {
            *flag = true;
        }
    }
    let merge = |(a, b): (f64, f64), (lo, hi): (f64, f64)| (a.at_most(lo), b.at_least(hi));
    let empty = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut below_top, mut below_top_kept) = (empty, empty);
    for (i, item) in items.iter().enumerate().skip(top.min(from)) {
        let Some(range) = item_x_range(item) else { continue };
        if i >= top {
            below_top = merge(below_top, range);
        }
        if !is_left_out[i] {
            if i >= top {
                below_top_kept = merge(below_top_kept, range);
            }
            if i >= from {
                content = merge(content, range);
            }
        }
    }
    [content, below_top, below_top_kept]
}

fn x_bounds(items: &[Item]) -> (f64, f64) {
    items
        .iter()
        .filter_map(item_x_range)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (lo, hi)| {
            (a.at_most(lo), b.at_least(hi))
        })
}

/// Moves `items` right by `dx`: nothing when `dx` is not finite (measured
/// from the bounds of nothing drawn) or too small to matter.
fn shift_items_x(items: &mut [Item], dx: f64) {
    if dx.is_finite() && dx.abs() > 1e-9 {
        for item in items {
            shift_item(item, dx, 0.0);
        }
    }
}

// Inlined into the loops that move every item (see `item_x_range`).
#[inline]
pub(crate) fn shift_item(item: &mut Item, dx: f64, dy: f64) {
    let s = |v: &mut f64, d: f64| *v = round3(*v + d);
    match item {
        Item::Rect { x, y, .. } => {
            s(x, dx);
            s(y, dy);
        }
        Item::Line { x1, y1, x2, y2, .. } => {
            s(x1, dx);
            s(x2, dx);
            s(y1, dy);
            s(y2, dy);
        }
        Item::Polygon { points, .. } => {
            for p in points {
                s(&mut p.x, dx);
                s(&mut p.y, dy);
            }
        }
        Item::Ellipse { cx, cy, .. } => {
            s(cx, dx);
            s(cy, dy);
        }
        Item::Path { segments, .. } => {
            for seg in segments {
                match seg {
                    PathSegment::MoveTo { x, y } | PathSegment::LineTo { x, y } => {
                        s(x, dx);
                        s(y, dy);
                    }
                    PathSegment::CubicTo { x1, y1, x2, y2, x, y } => {
                        s(x1, dx);
                        s(x2, dx);
                        s(x, dx);
                        s(y1, dy);
                        s(y2, dy);
                        s(y, dy);
                    }
                    PathSegment::Close => {}
                }
            }
        }
        Item::Text(t) => {
            s(&mut t.x, dx);
            s(&mut t.y, dy);
        }
        Item::Begin { .. } | Item::End => {}
    }
}

/// Moves the content so that it starts at the margin and sizes the canvas.
/// `edges` (see `box_room`) count as content too.
/// `overhang`: items left out of the width (see `overhanging`).
/// How far a text item reaches below its block's bottom at most (a quarter
/// of the font size below the baseline against the line's descent).
const FOOTER_TEXT_BELOW_BLOCK: f64 = 0.5;
/// How much less than the page margin PlantUML keeps below a footer.
const FOOTER_MARGIN_CUT: f64 = 3.8;

fn finish_scene(
    mut items: Vec<Item>,
    overhang: &[usize],
    edges: (f64, f64),
    (content_bottom, footer_bottom): (f64, Option<f64>),
    theme: &Theme,
    metrics: &dyn TextMeasure,
) -> Scene {
    let (background, page) = (theme.background, theme.page_margin);
    // Both extents in one pass over the items (`x_bounds_except(&items,
    // overhang)` and the y extent were a pass each), each folded in item
    // order as before.
    let mut x_extent = (f64::INFINITY, f64::NEG_INFINITY);
    let mut y_extent = (f64::INFINITY, f64::NEG_INFINITY);
    // The last text font's ascent: texts come in runs of one font, and the
    // ascent is a lookup behind a `dyn` call.
    let mut last_ascent: Option<(Font, f64)> = None;
    for (i, item) in items.iter().enumerate() {
        if !overhang.contains(&i) {
            if let Some((lo, hi)) = item_x_range(item) {
                x_extent = (x_extent.0.at_most(lo), x_extent.1.at_least(hi));
            }
        }
        // A text reaches its ascent above the baseline (the header's top is
        // at 5 px, which must not count as overflowing the top margin).
        let y_range = match item {
            Item::Text(t) => {
                let ascent = match last_ascent {
                    Some((font, ascent)) if font == t.font => ascent,
                    _ => {
                        let ascent = metrics.ascent(&t.font);
                        last_ascent = Some((t.font, ascent));
                        ascent
                    }
                };
                Some((t.y - ascent, t.y + t.font.size * 0.25))
            }
            other => item_y_range(other),
        };
        if let Some((lo, hi)) = y_range {
            y_extent = (y_extent.0.at_most(lo), y_extent.1.at_least(hi));
        }
    }
    let (min_x, max_x) = x_extent;
    let (min_x, max_x) = if min_x.is_finite() {
        (min_x.at_most(edges.0), max_x.at_least(edges.1))
    } else {
        (min_x, max_x)
    };
    let (min_y, max_y) = y_extent;
    let (min_x, max_x) = if min_x.is_finite() { (min_x, max_x) } else { (0.0, 0.0) };
    // The layout starts its first row at the default margin; the page's
    // own margins (`document { Margin }`) are applied here.
    let min_y = if min_y.is_finite() {
        min_y.at_most(MARGIN)
    } else {
        MARGIN
    };
    let max_y = if max_y.is_finite() {
        max_y.at_least(content_bottom)
    } else {
        content_bottom
    };
    let dx = page.left - min_x;
    let dy = if min_y < MARGIN / 2.0 {
        MARGIN / 2.0 - min_y
    } else {
        0.0
    } + (page.top - MARGIN);
    if dx != 0.0 || dy != 0.0 {
        for item in &mut items {
            shift_item(item, dx, dy);
        }
    }
    // A footer ending the page keeps 6.2 px below its text block rather
    // than the page margin (PlantUML: the canvas ends 8.3-8.7 px below a
    // default footer's baseline; probes `caption_footer`, `legend_wide`,
    // `footer_after_*`).
    let bottom = match footer_bottom {
        Some(fb) if max_y <= fb + FOOTER_TEXT_BELOW_BLOCK + 1e-6 => fb + dy + page.bottom - FOOTER_MARGIN_CUT,
        _ => max_y + dy + page.bottom,
    };
    let (width, height) = (max_x - min_x + page.left + page.right, bottom);
    if let Some((color, thickness)) = theme.diagram_border() {
        // PlantUML 1.2026.8 (probes `s_diagramborder*`): at the origin,
        // as wide and high as the drawing less the line's width; the
        // canvas keeps its size.
        items.push(Item::Rect {
            x: 0.0,
            y: 0.0,
            width: (width - thickness).at_least(0.0),
            height: (height - thickness).at_least(0.0),
            radius: 0.0,
            paint: Paint {
                fill: None,
                stroke: Some(Stroke {
                    color,
                    width: thickness,
                    dash: None,
                }),
                gradient: None,
                shadow: None,
            },
        });
    }
    Scene {
        width: width.ceil().at_least(1.0),
        height: height.ceil().at_least(1.0),
        background,
        items,
    }
}

/// Where the innermost of the bars open on a lifeline (`stack`) starts and
/// ends, from the lifeline: nested bars step right by half a bar.
fn bar_offsets(stack: &[(f64, Option<Color>)]) -> (f64, f64) {
    let level = stack.len();
    if level == 0 {
        (0.0, 0.0)
    } else {
        let shift = (level as f64 - 1.0) * ACTIVATION_WIDTH / 2.0;
        (shift - ACTIVATION_WIDTH / 2.0, shift + ACTIVATION_WIDTH / 2.0)
    }
}

/// Follows how many activation bars are open on each participant (a
/// message ends at the outermost bar's edge); other events change nothing.
fn track_activation_depth(depth: &mut [u32], event: &Event) {
    match event {
        Event::Activate { participant, .. } => {
            if let Some(d) = depth.get_mut(participant.index()) {
                *d += 1;
            }
        }
        Event::Deactivate { participant } => {
            if let Some(d) = depth.get_mut(participant.index()) {
                *d = d.saturating_sub(1);
            }
        }
        Event::Destroy { participant } => {
            if let Some(d) = depth.get_mut(participant.index()) {
                *d = 0;
            }
        }
        _ => {}
    }
}

/// A header's or footer's frame (`<style>` `BackGroundColor`, `LineColor`):
/// a box exactly around its text, behind it.
fn caption_frame(
    out: &mut Vec<Item>,
    frame: &crate::theme::CaptionFrame,
    page: Option<(Color, Gradient)>,
    x: f64,
    top: f64,
    block: &TextBlock,
) {
    let backdrop = if frame.is_drawn() {
        let fill = frame.fill.filter(|c| c.a > 0);
        Paint {
            gradient: fill.and(frame.gradient),
            ..paint(fill, frame.border.map(|c| stroke(c, frame.thickness)))
        }
    } else if let Some((from, gradient)) = page {
        // On a faded page PlantUML repeats the page's gradient behind the
        // text (observed: a rect exactly around it, no outline).
        shapes::fading(from, Some(gradient), None)
    } else {
        return;
    };
    rect(out, x, top, block.width, block.height, 0.0, backdrop);
}

/// The band behind a divider's double line: filled and outlined in the
/// divider's colour (PlantUML); a faded band takes its gradient and no
/// outline (a stroke takes no gradient here; the lines cover its edges).
fn divider_band_paint(theme: &Theme) -> Paint {
    match theme.fades.divider {
        Some(gradient) => shapes::fading(theme.divider_bg, Some(gradient), None),
        // An unfilled band has no outline either (observed: stroke none).
        None if theme.divider_bg.a == 0 => paint(None, None),
        None => paint(Some(theme.divider_bg), Some(stroke(theme.divider_bg, 1.0))),
    }
}
