//! Activity diagram layout: model → one scene.
//!
//! PlantUML lays activity diagrams out without Graphviz, as nested "tiles"
//! stacked top to bottom; so does this module. The flat step list of the
//! model is first rebuilt into a tree with an explicit stack (blocks nested
//! deeper than [`MAX_DEPTH`] are flattened: their inner steps are drawn in
//! sequence, without the block's own shapes, and no diagnostic is raised),
//! then every node becomes a [`Tile`]: its items in local coordinates, its
//! size, where the incoming edge ends and where the outgoing edge starts.
//! A sequence stacks tiles 20 px apart on a common axis; branches sit side
//! by side; edges are orthogonal polylines. Recursion over the tree is
//! bounded by [`MAX_DEPTH`], so no input can exhaust the call stack.
//!
//! Sizes, paddings, colours and fonts are the ones PlantUML 1.2026.8 draws
//! (read from its SVGs of small probe diagrams): actions are 12 px text in
//! a box padded by 10 with 12.5 px corners, diamonds 24 px high with 11 px
//! text, notes 13 px text, swimlane headers 18 px, partitions 14 px.
#![allow(clippy::too_many_arguments)]

use crate::color::{parse_color, parse_gradient};
use crate::creole::{self, Align, TextBlock};
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, FontFamily, Gradient, Item, Scene, Stroke, TextRun};
use crate::sequence::{item_x_range, item_y_range, shift_item};
use crate::shapes::{ellipse, fading, line, paint, polygon, rect, stroke, PathBuilder};
use crate::theme::{Sides, TextElement, Theme};
use crate::LayoutOptions;
use puml_sema::activity::{
    Action, ActionShape, ActivityDiagram, ActivityNote, ActivityNotePosition, ArrowStyle, ContainerKind, LaneId, Step,
};
use puml_sema::model::{Diagram, HorizontalAlign, VerticalAlign};

/// Blocks nested deeper than this are flattened (see the module docs).
pub const MAX_DEPTH: usize = 48;

/// Vertical distance between two stacked tiles (the arrow's length).
const GAP: f64 = 20.0;
/// Padding around an action's text.
const ACTION_PAD: f64 = 10.0;
const ACTION_RADIUS: f64 = 12.5;
/// Half the height of a diamond (and its horizontal point's inset).
const DIAMOND_HALF: f64 = 12.0;
/// How far a bypass or loop line runs outside what it goes around.
const LOOP_MARGIN: f64 = 12.0;
/// Room a repeat loop keeps left of its shapes.
const REPEAT_LEFT_ROOM: f64 = 9.0;
/// How much further below its body a repeat with a backward action draws
/// its condition.
const REPEAT_BACKWARD_DROP: f64 = 10.0;
/// Space between branches placed side by side.
const BRANCH_GAP: f64 = 20.0;
const FORK_GAP: f64 = 10.0;
/// The width an `elseif` chain without `else` counts for the missing column
/// when centring the flow (observed, PlantUML 1.2026.8).
const EMPTY_ELSE_W: f64 = 25.27;
/// How far a note centred on its element may reach into the gap above.
const NOTE_REACH_ABOVE: f64 = 10.0;
/// What a step half-way between two steps of a parallel branch adds to their gap.
const RANK_EXTRA: f64 = 15.0;
/// How far the flow between two side-by-side columns keeps from the one it
/// did not come through.
const FLOW_CLEARANCE: f64 = 21.0;
const SPLIT_GAP: f64 = 28.0;
/// A fork bar reaches this far past its outer branches.
const BAR_OVERHANG: f64 = 12.0;
const BAR_HEIGHT: f64 = 6.0;
/// From an element to the note beside it (the note's pointer spans it).
const NOTE_GAP: f64 = 20.0;
/// An arrow label starts this far right of the line, this far below its start.
const LABEL_DX: f64 = 4.0;
const LABEL_DY: f64 = 11.09;
/// Where the whole drawing starts, and the margin right of and below it.
const ORIGIN_X: f64 = 16.0;
const ORIGIN_Y: f64 = 15.0;
const LANE_ORIGIN_X: f64 = 20.0;
const LANE_ORIGIN_Y: f64 = 17.745;
const END_MARGIN: f64 = 19.0;
const LANE_END_MARGIN: f64 = 28.0;
/// A container frame: the room above its tab and below its content.
const FRAME_OUTSIDE: f64 = 10.0;
const FRAME_PAD_X: f64 = 10.0;
/// PlantUML keeps this much room left of a condition diamond at a tile's
/// edge, and right of an `if`'s bypass line; around a `while` loop's lines.
const NUDE_PAD_LEFT: f64 = 9.0;
const NUDE_PAD_RIGHT: f64 = 16.0;
/// `normalize` without extra room.
const NO_REACH: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);
const WHILE_PAD_LEFT: f64 = 13.0;
const WHILE_PAD_RIGHT: f64 = 15.25;

pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let empty = ActivityDiagram::default();
    let activity = diagram.activity.as_deref().unwrap_or(&empty);
    let theme = Theme::for_settings(&diagram.settings, options.theme.as_deref());
    let theme_name = options.theme.as_deref().or(diagram.settings.theme.as_deref());
    let style = Style::new(&theme, diagram, theme_name);
    let ctx = Ctx {
        style,
        metrics,
        theme: &theme,
    };
    let tree = build_tree(activity);
    let body = if activity.lanes.is_empty() {
        ctx.layout_seq(&tree, 0)
    } else {
        ctx.layout_lanes(activity, &tree)
    };
    vec![ctx.finish(diagram, body, !activity.lanes.is_empty())]
}

// ---------------------------------------------------------------------
// The tree.

#[derive(Debug, Default)]
struct Seq<'a> {
    nodes: Vec<Node<'a>>,
    /// An arrow written after the last node: it styles the edge leaving the sequence.
    tail: Option<&'a ArrowStyle>,
}

#[derive(Debug)]
struct Node<'a> {
    kind: Kind<'a>,
    notes: Vec<&'a ActivityNote>,
    /// The arrow written before this node: it styles the edge into it.
    arrow: Option<&'a ArrowStyle>,
    lane: Option<LaneId>,
}

/// The labels of a `repeat … repeat while (c) is (a) not (b) -> back` loop.
#[derive(Debug, Clone, Copy)]
struct RepeatLabels<'a> {
    is: Option<&'a str>,
    not: Option<&'a str>,
    back: Option<&'a str>,
}

#[derive(Debug)]
enum Kind<'a> {
    Start,
    Stop,
    End,
    Kill,
    Detach,
    Break,
    Action(&'a Action),
    Connector(&'a str, Option<&'a str>),
    /// A note with nothing before it to attach to.
    LoneNote,
    If {
        branches: Vec<(&'a str, Option<&'a str>, Seq<'a>)>,
        otherwise: Option<(Option<&'a str>, Seq<'a>)>,
        color: Option<&'a str>,
    },
    Switch {
        condition: &'a str,
        cases: Vec<(CaseLabel<'a>, Seq<'a>)>,
    },
    While {
        condition: &'a str,
        label: Option<&'a str>,
        body: Seq<'a>,
        end_label: Option<&'a str>,
    },
    Repeat {
        label: Option<&'a str>,
        body: Seq<'a>,
        backward: Option<(&'a Action, Vec<&'a ActivityNote>)>,
        condition: Option<&'a str>,
        labels: RepeatLabels<'a>,
    },
    Fork {
        branches: Vec<Seq<'a>>,
        merge: bool,
        label: Option<&'a str>,
    },
    Split {
        branches: Vec<Seq<'a>>,
    },
    Container {
        kind: ContainerKind,
        name: &'a str,
        color: Option<&'a str>,
        body: Seq<'a>,
    },
}

/// A `case` label and the spaces around it inside its parentheses.
type CaseLabel<'a> = (&'a str, (usize, usize));

/// A block being read: what is known of it, and the sequence being filled.
enum Open<'a> {
    If {
        branches: Vec<(&'a str, Option<&'a str>, Seq<'a>)>,
        pending: (&'a str, Option<&'a str>),
        in_else: Option<Option<&'a str>>,
        color: Option<&'a str>,
    },
    Switch {
        condition: &'a str,
        cases: Vec<(CaseLabel<'a>, Seq<'a>)>,
        pending: Option<CaseLabel<'a>>,
    },
    While {
        condition: &'a str,
        label: Option<&'a str>,
    },
    Repeat {
        label: Option<&'a str>,
        backward: Option<(&'a Action, Vec<&'a ActivityNote>)>,
    },
    Fork {
        branches: Vec<Seq<'a>>,
    },
    Split {
        branches: Vec<Seq<'a>>,
    },
    Container {
        kind: ContainerKind,
        name: &'a str,
        color: Option<&'a str>,
    },
}

struct Builder<'a> {
    /// Open blocks, innermost last, each with the sequence it interrupted.
    stack: Vec<(Open<'a>, Seq<'a>, Option<LaneId>, Option<&'a ArrowStyle>)>,
    current: Seq<'a>,
    pending_arrow: Option<&'a ArrowStyle>,
    lane: Option<LaneId>,
    /// Blocks opened beyond `MAX_DEPTH`, read as plain sequences.
    flattened: usize,
    /// The step before was `backward :…;` (or a note attached to it).
    after_backward: bool,
}

impl<'a> Builder<'a> {
    fn push(&mut self, kind: Kind<'a>) {
        let arrow = self.pending_arrow.take();
        self.current.nodes.push(Node {
            kind,
            notes: Vec::new(),
            arrow,
            lane: self.lane,
        });
    }

    fn take_seq(&mut self) -> Seq<'a> {
        let mut seq = std::mem::take(&mut self.current);
        seq.tail = self.pending_arrow.take();
        seq
    }

    fn open(&mut self, open: Open<'a>) {
        let parent = std::mem::take(&mut self.current);
        let arrow = self.pending_arrow.take();
        self.stack.push((open, parent, self.lane, arrow));
    }

    /// Closes the innermost block into a node of its parent sequence.
    fn close(&mut self, end: Option<&'a Step>) {
        let Some((open, parent, lane, arrow)) = self.stack.pop() else {
            return;
        };
        let body = self.take_seq();
        let kind = match open {
            Open::If {
                mut branches,
                pending,
                in_else,
                color,
            } => {
                let otherwise = match in_else {
                    Some(label) => Some((label, body)),
                    None => {
                        branches.push((pending.0, pending.1, body));
                        None
                    }
                };
                Kind::If {
                    branches,
                    otherwise,
                    color,
                }
            }
            Open::Switch {
                condition,
                mut cases,
                pending,
            } => {
                if let Some(label) = pending {
                    cases.push((label, body));
                }
                Kind::Switch { condition, cases }
            }
            Open::While { condition, label } => Kind::While {
                condition,
                label,
                body,
                end_label: match end {
                    Some(Step::EndWhile { label }) => label.as_deref(),
                    _ => None,
                },
            },
            Open::Repeat { label, backward } => {
                let (condition, is_label, not_label, back_label) = match end {
                    Some(Step::RepeatWhile {
                        condition,
                        is_label,
                        not_label,
                        back_label,
                    }) => (
                        condition.as_deref(),
                        is_label.as_deref(),
                        not_label.as_deref(),
                        back_label.as_deref(),
                    ),
                    _ => (None, None, None, None),
                };
                Kind::Repeat {
                    label,
                    body,
                    backward,
                    condition,
                    labels: RepeatLabels {
                        is: is_label,
                        not: not_label,
                        back: back_label,
                    },
                }
            }
            Open::Fork { mut branches } => {
                branches.push(body);
                let (merge, label) = match end {
                    Some(Step::EndFork { merge, label }) => (*merge, label.as_deref()),
                    _ => (false, None),
                };
                Kind::Fork { branches, merge, label }
            }
            Open::Split { mut branches } => {
                branches.push(body);
                Kind::Split { branches }
            }
            Open::Container { kind, name, color } => Kind::Container {
                kind,
                name,
                color,
                body,
            },
        };
        self.current = parent;
        self.current.nodes.push(Node {
            kind,
            notes: Vec::new(),
            arrow,
            lane,
        });
    }

    fn top_is(&self, test: impl Fn(&Open<'a>) -> bool) -> bool {
        self.stack.last().is_some_and(|(open, ..)| test(open))
    }
}

/// Rebuilds the nesting of the flat step list (iteratively).
fn build_tree(activity: &ActivityDiagram) -> Seq<'_> {
    let mut b = Builder {
        stack: Vec::new(),
        current: Seq::default(),
        pending_arrow: None,
        lane: None,
        flattened: 0,
        after_backward: false,
    };
    for step in &activity.steps {
        let opens = step.opens_block();
        let closes = step.closes_block();
        let middle = step.divides_block();
        if b.flattened > 0 || (opens && b.stack.len() >= MAX_DEPTH) {
            if opens {
                b.flattened += 1;
                continue;
            }
            if closes {
                b.flattened -= 1;
                continue;
            }
            if middle {
                continue;
            }
        }
        let after_backward = b.after_backward;
        b.after_backward = matches!(step, Step::Backward(_)) || (after_backward && matches!(step, Step::Note(_)));
        match step {
            Step::Start => b.push(Kind::Start),
            Step::Stop => b.push(Kind::Stop),
            Step::End => b.push(Kind::End),
            Step::Kill => b.push(Kind::Kill),
            Step::Detach => b.push(Kind::Detach),
            Step::Break => b.push(Kind::Break),
            Step::Action(action) => b.push(Kind::Action(action)),
            Step::Connector { name, color } => b.push(Kind::Connector(name, color.as_deref())),
            Step::Arrow(style) => b.pending_arrow = Some(style),
            // A note right after `backward :…;` belongs to that action.
            Step::Note(note) if b.after_backward => {
                if let Some((
                    Open::Repeat {
                        backward: Some((_, notes)),
                        ..
                    },
                    ..,
                )) = b.stack.last_mut()
                {
                    notes.push(note);
                }
            }
            Step::Note(note) => match b.current.nodes.last_mut() {
                Some(node) => node.notes.push(note),
                None => {
                    b.push(Kind::LoneNote);
                    if let Some(node) = b.current.nodes.last_mut() {
                        node.notes.push(note);
                    }
                }
            },
            Step::Lane(id) => b.lane = Some(*id),
            Step::IfStart {
                condition,
                then_label,
                color,
            } => b.open(Open::If {
                branches: Vec::new(),
                pending: (condition, then_label.as_deref()),
                in_else: None,
                color: color.as_deref(),
            }),
            Step::ElseIf { condition, then_label } => {
                if b.top_is(|o| matches!(o, Open::If { in_else: None, .. })) {
                    let body = b.take_seq();
                    if let Some((Open::If { branches, pending, .. }, ..)) = b.stack.last_mut() {
                        branches.push((pending.0, pending.1, body));
                        *pending = (condition, then_label.as_deref());
                    }
                }
            }
            Step::Else { label } => {
                if b.top_is(|o| matches!(o, Open::If { in_else: None, .. })) {
                    let body = b.take_seq();
                    if let Some((
                        Open::If {
                            branches,
                            pending,
                            in_else,
                            ..
                        },
                        ..,
                    )) = b.stack.last_mut()
                    {
                        branches.push((pending.0, pending.1, body));
                        *in_else = Some(label.as_deref());
                    }
                }
            }
            Step::SwitchStart { condition } => b.open(Open::Switch {
                condition,
                cases: Vec::new(),
                pending: None,
            }),
            Step::Case { label, spaces } => {
                let label = (label.as_str(), *spaces);
                if b.top_is(|o| matches!(o, Open::Switch { .. })) {
                    let body = b.take_seq();
                    if let Some((Open::Switch { cases, pending, .. }, ..)) = b.stack.last_mut() {
                        if let Some(prev) = pending.replace(label) {
                            cases.push((prev, body));
                        }
                    }
                }
            }
            Step::WhileStart { condition, label } => b.open(Open::While {
                condition,
                label: label.as_deref(),
            }),
            Step::RepeatStart { label } => b.open(Open::Repeat {
                label: label.as_deref(),
                backward: None,
            }),
            Step::Backward(action) => {
                if let Some((Open::Repeat { backward, .. }, ..)) = b.stack.last_mut() {
                    *backward = Some((action, Vec::new()));
                }
            }
            Step::ForkStart => b.open(Open::Fork { branches: Vec::new() }),
            Step::SplitStart => b.open(Open::Split { branches: Vec::new() }),
            Step::ForkAgain | Step::SplitAgain => {
                if b.top_is(|o| matches!(o, Open::Fork { .. } | Open::Split { .. })) {
                    let body = b.take_seq();
                    if let Some((Open::Fork { branches } | Open::Split { branches }, ..)) = b.stack.last_mut() {
                        branches.push(body);
                    }
                }
            }
            Step::ContainerStart { kind, name, color } => b.open(Open::Container {
                kind: *kind,
                name,
                color: color.as_deref(),
            }),
            Step::EndIf => {
                if b.top_is(|o| matches!(o, Open::If { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndSwitch => {
                if b.top_is(|o| matches!(o, Open::Switch { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndWhile { .. } => {
                if b.top_is(|o| matches!(o, Open::While { .. })) {
                    b.close(Some(step));
                }
            }
            Step::RepeatWhile { .. } => {
                if b.top_is(|o| matches!(o, Open::Repeat { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndFork { .. } => {
                if b.top_is(|o| matches!(o, Open::Fork { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndSplit => {
                if b.top_is(|o| matches!(o, Open::Split { .. })) {
                    b.close(Some(step));
                }
            }
            Step::ContainerEnd => {
                if b.top_is(|o| matches!(o, Open::Container { .. })) {
                    b.close(Some(step));
                }
            }
        }
    }
    // Blocks left open at the end are closed where the diagram ends.
    while !b.stack.is_empty() {
        b.close(None);
    }
    let mut root = std::mem::take(&mut b.current);
    root.tail = b.pending_arrow.take();
    root
}

// ---------------------------------------------------------------------
// The look.

/// `skin rose`'s activity look, observed as the themes' are
/// (`scripts/activity_theme_probe.py`, `test-data/activity-themes/skin_rose`).
const ROSE_SHEET: &str = include_str!("../themes/skin-rose.style");

/// Which of the action's and the diamond's text settings a diagram sets
/// itself (the diamond follows the action's where it sets none).
#[derive(Default)]
struct OwnFonts {
    action_family: Option<crate::scene::FontFamily>,
    action_size: Option<f64>,
    action_color: Option<Color>,
    diamond_family: Option<crate::scene::FontFamily>,
    diamond_size: Option<f64>,
    diamond_color: Option<Color>,
    /// The same for the fill, outline colour and width: the diamond takes
    /// the action's (PlantUML 1.2026.8: `activity { BackGroundColor }` and
    /// `skinparam ActivityBackgroundColor` fill the conditions too, over a
    /// theme's own diamond fill, corpus activity 025).
    action_bg: bool,
    action_border: bool,
    action_line: bool,
    diamond_bg: bool,
    diamond_border: bool,
    diamond_line: bool,
}

/// The element and property an activity skinparam (lower-case) sets:
/// `activityDiamondFontSize` is the diamond's `fontsize`,
/// `activityArrowColor` the arrow's `color`, `partitionBackgroundColor`
/// the partition's `backgroundcolor`.
fn skinparam_target(key: &str) -> Option<(&'static str, String)> {
    // The general arrow and note parameters reach the activity elements
    // over a theme's activity look (corpus activity 025: `skinparam
    // ArrowColor #333333` after `!theme cerulean` draws #333 arrows).
    let general = match key {
        "arrowcolor" => Some(("arrow", "color")),
        "arrowfontcolor" => Some(("arrow", "fontcolor")),
        "arrowfontname" => Some(("arrow", "fontname")),
        "arrowthickness" => Some(("arrow", "linethickness")),
        "notebackgroundcolor" => Some(("note", "backgroundcolor")),
        "notebordercolor" => Some(("note", "linecolor")),
        "notefontcolor" => Some(("note", "fontcolor")),
        "notefontname" => Some(("note", "fontname")),
        "notefontsize" => Some(("note", "fontsize")),
        _ => None,
    };
    if let Some((element, property)) = general {
        return Some((element, property.to_string()));
    }
    for (prefix, element) in [
        ("activitydiamond", "diamond"),
        ("activityarrow", "arrow"),
        ("activity", "activity"),
        ("swimlane", "swimlane"),
        ("partition", "partition"),
    ] {
        // `LineColor` is a style property: PlantUML ignores the skinparam
        // `activityLineColor` (the border stays `activityBorderColor`).
        if let Some(property) = key.strip_prefix(prefix).filter(|p| !p.is_empty() && *p != "linecolor") {
            return Some((element, property.to_string()));
        }
    }
    None
}

struct Style {
    action_bg: Color,
    action_border: Color,
    /// The action box's outline width, corner radius (PlantUML's
    /// `RoundCorner` is the corner's diameter) and the room around its text.
    action_line: f64,
    action_radius: f64,
    action_pad: f64,
    action_font: Font,
    action_font_color: Color,
    diamond_bg: Color,
    diamond_border: Color,
    diamond_line: f64,
    diamond_font: Font,
    arrow_color: Color,
    arrow_width: f64,
    arrow_font: Font,
    arrow_font_color: Color,
    /// The start disc's fill and outline, the stop ring's outline and its
    /// dot's fill (PlantUML's themes paint them apart).
    start_color: Color,
    start_gradient: Option<Gradient>,
    start_border: Color,
    end_color: Color,
    end_dot: Color,
    bar_color: Color,
    bar_border: Color,
    note_bg: Color,
    /// Where the fills fade to when written as gradients (`skinparam
    /// ActivityBackgroundColor #A-B`, …), as PlantUML 1.2026.8 paints them.
    action_gradient: Option<Gradient>,
    diamond_gradient: Option<Gradient>,
    note_gradient: Option<Gradient>,
    note_border: Color,
    note_line: f64,
    note_font: Font,
    note_font_color: Color,
    frame_color: Color,
    /// A partition's (and group's) frame width and corner radius.
    frame_line: f64,
    frame_radius: f64,
    frame_font: Font,
    /// A group's title and frame: under a theme, the partition's title
    /// and the theme's group outline (observed: cerulean's group is framed
    /// #59B6EC, its title drawn as a partition's).
    group_font: Font,
    group_font_color: Color,
    group_frame_color: Color,
    /// A partition's fill, title face and colour (`skinparam partition…`,
    /// `<style> partition { … }`); `partition P #colour` fills its own.
    partition_bg: Option<Color>,
    partition_font: Font,
    partition_font_color: Color,
    diamond_font_color: Color,
    lane_border: Color,
    lane_line: f64,
    /// A band behind the lanes' titles (the bootstrap-like themes').
    lane_header_bg: Option<(Color, Option<Gradient>)>,
    lane_header_border: Option<Color>,
    lane_font: Font,
    lane_font_color: Color,
    font_color: Color,
    /// The room around a framed title (a theme's title box): outside the
    /// frame, and between the frame and the text.
    title_margin: Sides,
    title_padding: Sides,
    /// Whether a theme or style set the title's room for activity
    /// diagrams (else an unframed title keeps PlantUML's default room).
    title_spacing_set: bool,
    /// Around the page (PlantUML's 10; 5 under some themes: `amiga`).
    page_margin: f64,
    /// Set while a theme's own sheet applies: only a theme sets the title's
    /// room and the page's margin through `activityDiagram { … }`
    /// (PlantUML ignores a diagram's `activityDiagram { title | document }`).
    theming: bool,
    /// Whether shapes cast PlantUML's shadow (a theme's `Shadowing`, `skin
    /// rose`); the page then keeps 6 px more right of and below the drawing.
    shadows: bool,
    /// `MaximumWidth` of actions, notes and swimlane titles: their text
    /// wraps there and, as in sequence diagrams, is drawn word by word
    /// (`sunlust`).
    action_max_width: Option<f64>,
    note_max_width: Option<f64>,
    lane_max_width: Option<f64>,
    /// The room around the header and the footer, on every side (a
    /// theme's: 16 px under the bootstrap-like themes, 5 under `amiga`).
    header_margin: f64,
    footer_margin: f64,
    /// The room around a legend's frame and inside it, and around the
    /// caption (PlantUML's 12, 5 and 1; a theme's: cerulean's 10, 6, 16).
    legend_margin: f64,
    legend_padding: f64,
    caption_margin: f64,
    /// A theme's caption colour (the bootstrap-like themes': their
    /// footer's).
    caption_color: Option<Color>,
}

impl Style {
    fn new(theme: &Theme, diagram: &Diagram, theme_name: Option<&str>) -> Style {
        let named_theme = theme_name.is_some();
        let line = theme.arrow_color;
        let mut s = Style {
            action_bg: if named_theme {
                theme.participant_bg
            } else {
                Color::hex(0xF1F1F1)
            },
            action_border: theme.participant_border,
            action_line: 0.5,
            action_radius: ACTION_RADIUS,
            action_pad: ACTION_PAD,
            action_font: theme.font(12.0),
            action_font_color: theme.participant_font_color,
            diamond_bg: if named_theme {
                theme.participant_bg
            } else {
                Color::hex(0xF1F1F1)
            },
            diamond_border: theme.participant_border,
            diamond_line: 0.5,
            diamond_font: theme.font(11.0),
            arrow_color: line,
            arrow_width: theme.arrow_thickness,
            arrow_font: theme.font_of(
                TextElement::Message,
                if theme.arrow_font_size == 13.0 {
                    11.0
                } else {
                    theme.arrow_font_size
                },
            ),
            arrow_font_color: theme.arrow_font_color,
            start_color: if named_theme { line } else { Color::hex(0x222222) },
            start_gradient: None,
            start_border: if named_theme { line } else { Color::hex(0x222222) },
            end_color: if named_theme { line } else { Color::hex(0x222222) },
            end_dot: if named_theme { line } else { Color::hex(0x222222) },
            bar_color: if named_theme { line } else { Color::hex(0x555555) },
            bar_border: if named_theme { line } else { Color::hex(0x555555) },
            note_bg: theme.note_bg,
            action_gradient: None,
            diamond_gradient: None,
            note_gradient: theme.note_gradient,
            note_border: theme.note_border,
            note_line: 0.5,
            note_font: theme.font_of(TextElement::Note, theme.note_font_size),
            note_font_color: theme.note_font_color,
            frame_color: theme.group_border,
            frame_line: 1.5,
            frame_radius: 0.0,
            frame_font: theme.font(14.0),
            group_font: theme.font(14.0),
            group_font_color: theme.font_color,
            group_frame_color: theme.group_border,
            partition_bg: None,
            partition_font: theme.font(14.0),
            partition_font_color: theme.font_color,
            diamond_font_color: theme.participant_font_color,
            lane_border: theme.group_border,
            lane_line: 1.5,
            lane_header_bg: None,
            lane_header_border: None,
            lane_font: theme.font(18.0),
            lane_font_color: theme.font_color,
            font_color: theme.font_color,
            title_margin: theme.title_spacing.margin,
            title_padding: theme.title_spacing.padding,
            title_spacing_set: false,
            page_margin: 10.0,
            theming: false,
            shadows: theme.draws_shadows(),
            action_max_width: None,
            note_max_width: None,
            lane_max_width: None,
            header_margin: 0.0,
            footer_margin: 0.0,
            legend_margin: 12.0,
            legend_padding: 5.0,
            caption_margin: 1.0,
            caption_color: None,
        };
        // A PlantUML theme's own activity look (its sheet's
        // `activityDiagram { … }` rules, observed per theme): the diamond's
        // text takes the theme's face, but the diagram's `activityFont…`
        // still reach it (PlantUML 1.2026.8, `!theme cerulean` with
        // `skinparam ActivityFontSize 14` draws the conditions at 14).
        // `skin rose` (PlantUML's former look) comes after the theme.
        let rose = Some(ROSE_SHEET).filter(|_| diagram.settings.skin.as_deref() == Some("rose"));
        s.shadows |= rose.is_some();
        for sheet in theme_name
            .and_then(crate::theme::plantuml_theme_sheet)
            .into_iter()
            .chain(rose)
        {
            let mut themed = OwnFonts::default();
            s.theming = true;
            s.apply_sheet(sheet, &mut themed);
            s.theming = false;
            s.diamond_font.family = themed.diamond_family.unwrap_or(s.diamond_font.family);
            s.diamond_font.size = themed.diamond_size.unwrap_or(s.diamond_font.size);
            s.diamond_font_color = themed.diamond_color.unwrap_or(s.diamond_font_color);
            (s.group_font, s.group_font_color) = (s.partition_font, s.partition_font_color);
        }
        // The activity skin parameters PlantUML documents (`activity…`,
        // `swimlane…`, `partition…`) and the `<style>` rules on the same
        // elements, in source order (the later wins); the others went
        // through the theme.
        let mut own = OwnFonts::default();
        let settings = &diagram.settings;
        let mut next_style = settings.styles.iter().peekable();
        for (i, (key, value)) in settings.skinparams.iter().enumerate() {
            while let Some(style) = next_style.next_if(|st| st.after_skinparams <= i) {
                s.apply_sheet(&style.text, &mut own);
            }
            if let Some((element, property)) = skinparam_target(&key.to_ascii_lowercase()) {
                s.apply(element, &property, value, &mut own);
            }
        }
        for style in next_style {
            s.apply_sheet(&style.text, &mut own);
        }
        // The diamond's text takes the action's face, size and colour
        // unless its own are set (PlantUML 1.2026.8: `activityFontSize 15`
        // draws the condition at 15 px too).
        if let Some(family) = own.diamond_family.or(own.action_family) {
            s.diamond_font.family = family;
        }
        if let Some(size) = own.diamond_size.or(own.action_size) {
            s.diamond_font.size = size;
        }
        if let Some(color) = own.diamond_color.or(own.action_color) {
            s.diamond_font_color = color;
        }
        if own.action_bg && !own.diamond_bg {
            (s.diamond_bg, s.diamond_gradient) = (s.action_bg, s.action_gradient);
        }
        if own.action_border && !own.diamond_border {
            s.diamond_border = s.action_border;
        }
        if own.action_line && !own.diamond_line {
            s.diamond_line = s.action_line;
        }
        s
    }

    /// The `<style>` rules of one sheet for activity diagrams.
    fn apply_sheet(&mut self, sheet: &str, own: &mut OwnFonts) {
        let (rules, _) = puml_sema::style::parse_sheet(sheet);
        for rule in rules {
            let for_activity = rule
                .scope
                .is_none_or(|scope| scope == puml_sema::style::StyleScope::Activity);
            if for_activity && rule.stereotype.is_none() {
                self.apply(&rule.element, &rule.property, &rule.value, own);
            }
        }
    }

    /// One property of an activity element, from a skinparam or a style
    /// rule (both lower-case): `element` is `activity`, `diamond`,
    /// `arrow`, `swimlane`, `partition`, `note`, `activitybar`, `start` or
    /// `stop`.
    fn apply(&mut self, element: &str, property: &str, value: &str, own: &mut OwnFonts) {
        let color = parse_color(value);
        let size = value
            .trim()
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|v| (1.0..=200.0).contains(v));
        // Widths, paddings and corners may be 0.
        let length = value
            .trim()
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|v| (0.0..=200.0).contains(v));
        let styled = |font: &mut Font| {
            let style = value.to_ascii_lowercase();
            font.bold = style.contains("bold");
            font.italic = style.contains("italic");
        };
        macro_rules! set {
            ($field:expr, $v:expr) => {
                if let Some(v) = $v {
                    $field = v;
                }
            };
        }
        let family = || Some(crate::theme::family_of(value));
        match (element, property) {
            ("activity", "backgroundcolor") => {
                if let Some(c) = color {
                    self.action_bg = c;
                    self.action_gradient = parse_gradient(value);
                    own.action_bg = true;
                }
            }
            ("activity", "bordercolor" | "linecolor") => {
                set!(self.action_border, color);
                own.action_border |= color.is_some();
            }
            ("activity", "linethickness") => {
                set!(self.action_line, length);
                own.action_line |= length.is_some();
            }
            ("activity", "roundcorner") => set!(self.action_radius, length.map(|d| d / 2.0)),
            ("activity", "padding") => set!(self.action_pad, length),
            ("activity", "maximumwidth") => self.action_max_width = size.or(self.action_max_width),
            ("note", "maximumwidth") => self.note_max_width = size.or(self.note_max_width),
            ("swimlane", "maximumwidth") => self.lane_max_width = size.or(self.lane_max_width),
            ("activity", "fontstyle") => styled(&mut self.action_font),
            ("activity", "fontcolor") => {
                set!(self.action_font_color, color);
                own.action_color = color.or(own.action_color);
            }
            ("activity", "fontsize") => {
                set!(self.action_font.size, size);
                own.action_size = size.or(own.action_size);
            }
            ("activity", "fontname") => {
                set!(self.action_font.family, family());
                own.action_family = family();
            }
            ("diamond", "backgroundcolor") => {
                if let Some(c) = color {
                    self.diamond_bg = c;
                    self.diamond_gradient = parse_gradient(value);
                    own.diamond_bg = true;
                }
            }
            ("diamond", "bordercolor" | "linecolor") => {
                set!(self.diamond_border, color);
                own.diamond_border |= color.is_some();
            }
            ("diamond", "linethickness") => {
                set!(self.diamond_line, length);
                own.diamond_line |= length.is_some();
            }
            ("diamond", "fontsize") => own.diamond_size = size.or(own.diamond_size),
            ("diamond", "fontname") => own.diamond_family = family(),
            ("diamond", "fontcolor") => own.diamond_color = color.or(own.diamond_color),
            ("activity", "startcolor") => {
                if let Some(c) = color {
                    (self.start_color, self.start_border) = (c, c);
                    self.start_gradient = parse_gradient(value);
                }
            }
            ("activity", "endcolor") => {
                set!(self.end_color, color);
                set!(self.end_dot, color);
            }
            ("activity", "barcolor") => {
                set!(self.bar_color, color);
                set!(self.bar_border, color);
            }
            ("arrow", "color" | "linecolor") => set!(self.arrow_color, color),
            ("arrow", "linethickness") => set!(self.arrow_width, length),
            ("arrow", "fontcolor") => set!(self.arrow_font_color, color),
            ("arrow", "fontsize") => set!(self.arrow_font.size, size),
            ("arrow", "fontname") => set!(self.arrow_font.family, family()),
            ("arrow", "fontstyle") => styled(&mut self.arrow_font),
            ("note", "backgroundcolor") => {
                if let Some(c) = color {
                    self.note_bg = c;
                    self.note_gradient = parse_gradient(value);
                }
            }
            ("note", "bordercolor" | "linecolor") => set!(self.note_border, color),
            ("note", "linethickness") => set!(self.note_line, length),
            ("note", "fontcolor") => set!(self.note_font_color, color),
            ("note", "fontsize") => set!(self.note_font.size, size),
            ("note", "fontname") => set!(self.note_font.family, family()),
            ("note", "fontstyle") => styled(&mut self.note_font),
            // (PlantUML outlines the bar in its fill: `LineColor` is ignored)
            ("activitybar", "backgroundcolor") => {
                set!(self.bar_color, color);
                set!(self.bar_border, color);
            }
            // `circle` is both start and stop.
            ("circle", "backgroundcolor" | "linecolor") => {
                self.apply("start", property, value, own);
                self.apply("stop", property, value, own);
            }
            // The diagram's own line colour and text face and colour reach
            // every element but the fork bar and the title (observed).
            ("root", "linecolor") => {
                for element in [
                    "activity",
                    "diamond",
                    "arrow",
                    "partition",
                    "note",
                    "circle",
                    "swimlane",
                ] {
                    self.apply(element, property, value, own);
                }
            }
            ("root", "fontcolor" | "fontname") => {
                for element in ["activity", "diamond", "arrow", "partition", "note", "swimlane"] {
                    self.apply(element, property, value, own);
                }
            }
            ("start", "backgroundcolor") => {
                if let Some(c) = color {
                    self.start_color = c;
                    self.start_gradient = parse_gradient(value);
                }
            }
            ("start", "linecolor") => set!(self.start_border, color),
            ("stop", "backgroundcolor") => set!(self.end_dot, color),
            ("stop", "linecolor") => set!(self.end_color, color),
            ("swimlane", "bordercolor" | "linecolor") => set!(self.lane_border, color),
            ("swimlane", "linethickness") => set!(self.lane_line, length),
            ("swimlane", "titlefontcolor" | "fontcolor") => set!(self.lane_font_color, color),
            ("swimlane", "titlefontsize" | "fontsize") => set!(self.lane_font.size, size),
            ("swimlane", "titlefontname" | "fontname") => set!(self.lane_font.family, family()),
            ("swimlane", "fontstyle") => styled(&mut self.lane_font),
            // A swimlane's fill is the band behind the titles, outlined in
            // it (PlantUML strokes a gradient band with the gradient).
            ("swimlane", "backgroundcolor") => {
                let gradient = parse_gradient(value);
                self.lane_header_bg = color.map(|c| (c, gradient));
                self.lane_header_border = color.filter(|_| gradient.is_none());
            }
            ("partition", "bordercolor" | "linecolor") => set!(self.frame_color, color),
            ("partition", "linethickness") => set!(self.frame_line, length),
            ("partition", "roundcorner") => set!(self.frame_radius, length.map(|d| d / 2.0)),
            ("partition", "backgroundcolor") => self.partition_bg = color.or(self.partition_bg),
            ("partition", "fontcolor") => set!(self.partition_font_color, color),
            ("partition", "fontsize") => set!(self.partition_font.size, size),
            ("partition", "fontname") => set!(self.partition_font.family, family()),
            ("partition", "fontstyle") => styled(&mut self.partition_font),
            ("document", "margin") if self.theming => set!(self.page_margin, length),
            ("header", "margin") if self.theming => set!(self.header_margin, length),
            ("footer", "margin") if self.theming => set!(self.footer_margin, length),
            ("legend", "margin") if self.theming => set!(self.legend_margin, length),
            ("legend", "padding") if self.theming => set!(self.legend_padding, length),
            ("caption", "margin") if self.theming => set!(self.caption_margin, length),
            ("caption", "fontcolor") if self.theming => self.caption_color = color.or(self.caption_color),
            ("title", "margin" | "padding") if self.theming => {
                if let Some(sides) = crate::theme::css_sides(value, 0.0..=200.0) {
                    if property == "margin" {
                        self.title_margin = sides;
                    } else {
                        self.title_padding = sides;
                    }
                    self.title_spacing_set = true;
                }
            }
            _ => {}
        }
    }

    fn edge_stroke(&self, arrow: Option<&ArrowStyle>) -> Option<Stroke> {
        let mut st = Stroke {
            color: self.arrow_color,
            width: self.arrow_width,
            dash: None,
        };
        if let Some(a) = arrow {
            if a.hidden {
                return None;
            }
            if let Some(c) = a.color.as_deref().and_then(parse_color) {
                st.color = c;
            }
            if a.bold {
                st.width = 2.0;
            }
            if a.dashed {
                st.dash = Some((7.0, 7.0));
            } else if a.dotted {
                st.dash = Some((1.0, 3.0));
            }
        }
        Some(st)
    }
}

// ---------------------------------------------------------------------
// Tiles.

/// A laid-out node or sequence in local coordinates (top-left at 0,0).
#[derive(Debug, Clone)]
struct Tile {
    items: Vec<Item>,
    w: f64,
    h: f64,
    /// The x a sequence aligns with its neighbours' anchors.
    anchor: f64,
    /// Where the incoming edge ends.
    in_x: f64,
    in_y: f64,
    /// Where the outgoing edge starts.
    out_x: f64,
    out_y: f64,
    /// Whether the flow continues below (not after `stop`, `kill`, …).
    open: bool,
    /// Styles the edge leaving this tile (an arrow written at a sequence's end).
    tail: Option<ArrowStyle>,
    /// How far a note reaches below `h`: what follows in a sequence keeps
    /// its gap from it, the end of a branch does not (PlantUML).
    overhang: f64,
    /// Where each stacked part starts and ends (top, bottom), for a tile
    /// straight out of `stack`: the rows a `backward` action aligns with.
    spans: Vec<(f64, f64)>,
}

impl Tile {
    fn empty() -> Tile {
        Tile {
            items: Vec::new(),
            w: 0.0,
            h: 0.0,
            anchor: 0.0,
            in_x: 0.0,
            in_y: 0.0,
            out_x: 0.0,
            out_y: 0.0,
            open: true,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
        }
    }

    /// A tile of one shape `w × h` whose edges meet its middle.
    fn shape(items: Vec<Item>, w: f64, h: f64) -> Tile {
        Tile {
            items,
            w,
            h,
            anchor: w / 2.0,
            in_x: w / 2.0,
            in_y: 0.0,
            out_x: w / 2.0,
            out_y: h,
            open: true,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.items.is_empty() && self.h == 0.0
    }

    /// Moves the tile's items by `(dx, dy)` into `out`.
    fn place(self, dx: f64, dy: f64, out: &mut Vec<Item>) {
        let mut items = self.items;
        if dx != 0.0 || dy != 0.0 {
            for item in &mut items {
                shift_item(item, dx, dy);
            }
        }
        out.extend(items);
    }
}

/// The x range covered by `items`, if any.
fn items_x_range(items: &[Item]) -> Option<(f64, f64)> {
    items
        .iter()
        .filter_map(item_x_range)
        .fold(None, |acc, (a, b)| match acc {
            None => Some((a, b)),
            Some((lo, hi)) => Some((lo.min(a), hi.max(b))),
        })
}

fn items_y_range(items: &[Item]) -> Option<(f64, f64)> {
    items
        .iter()
        .filter_map(item_y_range)
        .fold(None, |acc, (a, b)| match acc {
            None => Some((a, b)),
            Some((lo, hi)) => Some((lo.min(a), hi.max(b))),
        })
}

/// Draws an orthogonal polyline with a filled head at its last point.
fn polyline(out: &mut Vec<Item>, pts: &[(f64, f64)], st: Option<Stroke>, head: bool) {
    let Some(st) = st else { return };
    for pair in pts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if (a.0 - b.0).abs() > 1e-9 || (a.1 - b.1).abs() > 1e-9 {
            line(out, a.0, a.1, b.0, b.1, st);
        }
    }
    if head {
        if let [.., a, b] = pts {
            arrow_head(out, *a, *b, st.color);
        }
    }
}

/// PlantUML's activity arrow head: 10 long, 8 wide, notched at 6.
fn arrow_head(out: &mut Vec<Item>, from: (f64, f64), tip: (f64, f64), color: Color) {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-9 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let back = (tip.0 - 10.0 * ux, tip.1 - 10.0 * uy);
    let notch = (tip.0 - 6.0 * ux, tip.1 - 6.0 * uy);
    let (px, py) = (-uy * 4.0, ux * 4.0);
    polygon(
        out,
        &[(back.0 + px, back.1 + py), tip, (back.0 - px, back.1 - py), notch],
        paint(Some(color), Some(stroke(color, 1.0))),
    );
}

/// A head pointing along a vertical segment, its tip at the segment's middle.
fn mid_head(out: &mut Vec<Item>, x: f64, y1: f64, y2: f64, st: Option<Stroke>) {
    if let Some(st) = st {
        let mid = (y1 + y2) / 2.0;
        let dir = if y2 >= y1 { 1.0 } else { -1.0 };
        arrow_head(out, (x, mid - 10.0 * dir), (x, mid + 5.0 * dir), st.color);
    }
}

/// How many rows of PlantUML's step grid each node of a branch takes: a
/// plain step one, a block (`if`, loop, `fork`, container) two, its entry
/// and its exit; a branch that is one container counts its body's nodes.
/// `None` for a branch whose tiles would not match its nodes (`detach`,
/// `kill`, `break`, a `stop` after a loop) or with a written arrow.
fn step_rows(seq: &Seq<'_>) -> Option<Vec<usize>> {
    step_rows_within(seq, 0)
}

/// [`step_rows`] for a branch nested `depth` blocks deep: beyond
/// `MAX_DEPTH` an `if` counts two rows, so the recursion stays bounded.
fn step_rows_within(seq: &Seq<'_>, depth: usize) -> Option<Vec<usize>> {
    // Down through nested lone containers without recursion (any depth).
    let mut seq = seq;
    while let [Node {
        kind: Kind::Container { body, .. },
        notes,
        arrow: None,
        ..
    }] = seq.nodes.as_slice()
    {
        if !notes.is_empty() {
            return None;
        }
        seq = body;
    }
    if seq.nodes.is_empty() {
        return None;
    }
    // A `stop` after a loop is drawn on the loop's exit (no tile of its own).
    let merged_stop = seq.nodes.windows(2).any(|w| {
        matches!(
            w,
            [
                Node {
                    kind: Kind::While { .. },
                    ..
                },
                Node {
                    kind: Kind::Stop | Kind::End,
                    ..
                }
            ]
        )
    });
    if merged_stop {
        return None;
    }
    seq.nodes
        .iter()
        .map(|n| match n.kind {
            _ if n.arrow.is_some() => None,
            Kind::Stop | Kind::End => Some(1),
            Kind::Detach | Kind::Kill | Kind::Break => None,
            Kind::Action(_) | Kind::Connector(..) | Kind::LoneNote | Kind::Start => Some(1),
            // A plain `if` takes its diamond's row and its longest branch's
            // (PlantUML 1.2026.8: an `if` holding an `if`, or a two-step
            // branch, makes a loop body of two more steps odd;
            // `test-data/activity-layout/while_if_rows_*`).
            Kind::If {
                ref branches,
                ref otherwise,
                ..
            } if branches.len() == 1 && depth < MAX_DEPTH => {
                let longest = branches
                    .iter()
                    .map(|(_, _, b)| b)
                    .chain(otherwise.as_ref().map(|(_, b)| b))
                    .map(|b| {
                        step_rows_within(b, depth + 1)
                            .map_or(1, |r| r.iter().sum::<usize>())
                            .max(1)
                    })
                    .max()
                    .unwrap_or(1);
                Some(1 + longest)
            }
            _ => Some(2),
        })
        .collect()
}

/// The extra room in each gap of branch `i` among parallel branches whose
/// nodes take `rows` rows (`step_rows`). PlantUML 1.2026 centres the
/// shorter branches on the longest one's rows; where a row of another
/// branch falls half-way into a gap (their row counts differ by an odd
/// number) the gap widens by `extra` (`test-data/activity-layout/fork_*`).
fn rank_extras(rows: &[Vec<usize>], i: usize, extra: f64) -> Vec<f64> {
    // Rows doubled so that half rows are whole numbers: each branch's
    // (first row, row of each node's entry and exit).
    let total = |r: &Vec<usize>| r.iter().sum::<usize>();
    let longest = rows.iter().map(total).max().unwrap_or(0);
    let marks: Vec<Vec<(usize, usize)>> = rows
        .iter()
        .map(|r| {
            let mut at = longest - total(r);
            r.iter()
                .map(|&n| {
                    let span = (at, at + 2 * (n - 1));
                    at += 2 * n;
                    span
                })
                .collect()
        })
        .collect();
    let Some(own) = marks.get(i) else {
        return Vec::new();
    };
    own.windows(2)
        .map(|pair| {
            let mid = pair.first().map_or(0, |&(_, exit)| exit + 1);
            let between = marks
                .iter()
                .enumerate()
                .any(|(j, m)| j != i && m.iter().any(|&(entry, exit)| entry == mid || exit == mid));
            if between {
                extra
            } else {
                0.0
            }
        })
        .collect()
}

/// The extra room in the gaps of a body that PlantUML lays out beside a
/// one-row branch (a loop's way back, an `if`'s bypass): the rows of
/// `rank_extras` against one row; a body of an even number of rows thus
/// gets `extra` in its middle gap (`test-data/activity-layout/lone_*`).
fn lone_body_extras(body: &Seq<'_>, extra: f64) -> Vec<f64> {
    step_rows(body).map_or_else(Vec::new, |rows| rank_extras(&[rows, vec![1]], 0, extra))
}

/// Where a repeat's `backward` action sits on its body's rows
/// (`step_rows`): PlantUML centres it on them like a one-row branch, on
/// the middle row of an odd count, which then keeps
/// `REPEAT_BACKWARD_DROP` more below it, or in the middle gap of an even
/// count, which widens by `RANK_EXTRA` (`test-data/activity-layout/repeat_backward*`).
struct BackwardRows {
    /// The extra room of each gap of the body.
    extra: Vec<f64>,
    /// The node the action faces, or the gap after it.
    at: usize,
    on_row: bool,
    /// The extra room between the body and the condition.
    drop: f64,
}

fn backward_rows(rows: &[usize], lift: f64) -> BackwardRows {
    let mut extra = rank_extras(&[rows.to_vec(), vec![1]], 0, RANK_EXTRA);
    let middle = rows.iter().sum::<usize>().saturating_sub(1); // doubled rows
    let (mut at, mut on_row, mut row) = (0, true, 0);
    for (k, &n) in rows.iter().enumerate() {
        let (entry, exit) = (2 * row, 2 * (row + n.saturating_sub(1)));
        if middle < entry {
            (at, on_row) = (k.saturating_sub(1), false);
            break;
        }
        if middle <= exit {
            at = k;
            break;
        }
        row += n;
    }
    let mut drop = 0.0;
    if on_row {
        let below = (REPEAT_BACKWARD_DROP - lift).max(0.0);
        match extra.get_mut(at) {
            Some(gap) => *gap += below,
            None => drop = below,
        }
    }
    BackwardRows {
        extra,
        at,
        on_row,
        drop,
    }
}

impl BackwardRows {
    /// The y of the action's middle in the body, from where the body's
    /// parts were stacked.
    fn middle(&self, spans: &[(f64, f64)]) -> Option<f64> {
        let &(top, bottom) = spans.get(self.at)?;
        if self.on_row {
            Some((top + bottom) / 2.0)
        } else {
            let &(next_top, _) = spans.get(self.at + 1)?;
            Some((bottom + next_top) / 2.0)
        }
    }
}

/// The room under a diamond whose branch runs straight down with a label:
/// 18 px + half the label's height (probes `if_label_*`, 10 to 16 pt, one
/// or two lines).
fn label_room(label: &TextBlock) -> f64 {
    18.0 + label.height / 2.0
}

/// Whether a branch only ends the flow (`stop`, `end`, `kill`) or draws
/// one shape and detaches: PlantUML puts such a branch beside its `if`.
fn lone_closed(seq: &Seq<'_>) -> bool {
    let plain = |n: &Node<'_>| n.notes.is_empty() && n.arrow.is_none();
    match seq.nodes.as_slice() {
        [end] => plain(end) && matches!(end.kind, Kind::Stop | Kind::End | Kind::Kill),
        [shape, end] => {
            shape.notes.is_empty()
                && plain(end)
                && matches!(shape.kind, Kind::Action(_) | Kind::Connector(..))
                && matches!(end.kind, Kind::Detach | Kind::Kill)
        }
        _ => false,
    }
}

/// Where the flow enters and leaves side-by-side columns (`spans`: left
/// and right edges, `gap` apart), moving columns to make room. PlantUML
/// (`fork`, three or more `split` branches, `switch`) widens by `extra` the
/// gap the columns' middle falls into, the flow then passing there;
/// otherwise the flow moves `extra / 2` from the middle toward the side
/// with fewer columns beside the one it crosses (probes `fork_*`,
/// `split_*`, `switch_*`).
fn place_middle(spans: &mut [(f64, f64)], extra: f64) -> f64 {
    let (Some(&(start, _)), Some(&(_, end))) = (spans.first(), spans.last()) else {
        return 0.0;
    };
    let middle = (start + end) / 2.0;
    let in_gap = spans
        .windows(2)
        .position(|pair| matches!(pair, [(_, right), (left, _)] if middle > *right && middle < *left));
    if let Some(at) = in_gap {
        for span in spans.iter_mut().skip(at + 1) {
            span.0 += extra;
            span.1 += extra;
        }
        return middle + extra / 2.0;
    }
    let crossed = spans.iter().position(|&(_, right)| middle <= right).unwrap_or(0);
    let (left, right) = (crossed, spans.len().saturating_sub(crossed + 1));
    let mut axis = middle + extra / 2.0 * (right as f64 - left as f64);
    // Moved out of the column it crossed, the flow keeps 21 px from the
    // next column (which moves away; probes `fork_partition_beside_*`).
    let Some(&(crossed_left, crossed_right)) = spans.get(crossed) else {
        return axis;
    };
    if axis > crossed_right {
        let need = spans
            .get(crossed + 1)
            .map_or(0.0, |&(next_left, _)| axis + FLOW_CLEARANCE - next_left);
        if need > 0.0 {
            for span in spans.iter_mut().skip(crossed + 1) {
                span.0 += need;
                span.1 += need;
            }
        }
    } else if axis < crossed_left {
        let need = crossed
            .checked_sub(1)
            .and_then(|i| spans.get(i))
            .map_or(0.0, |&(_, prev_right)| prev_right - (axis - FLOW_CLEARANCE));
        if need > 0.0 {
            for span in spans.iter_mut().skip(crossed) {
                span.0 += need;
                span.1 += need;
            }
            axis += need;
        }
    }
    axis
}

/// `place_middle` for laid-out branches: moves them, returns the axis.
fn place_branches(cols: &mut [(Tile, f64)], extra: f64) -> f64 {
    let mut spans: Vec<(f64, f64)> = cols.iter().map(|(t, x)| (*x, x + t.w.max(1.0))).collect();
    let axis = place_middle(&mut spans, extra);
    for ((_, x), (left, _)) in cols.iter_mut().zip(spans) {
        *x = left;
    }
    axis
}

struct Ctx<'m> {
    style: Style,
    metrics: &'m dyn TextMeasure,
    theme: &'m Theme,
}

/// A diamond with its (possibly empty) condition text.
struct Diamond {
    text: Option<TextBlock>,
    w: f64,
    h: f64,
}

impl Ctx<'_> {
    fn text(&self, text: &str, font: Font) -> TextBlock {
        creole::measure(text, font, self.metrics)
    }

    /// A text wrapped at `max_width` and drawn word by word, if set.
    fn wrapped_text(&self, text: &str, font: Font, max_width: Option<f64>) -> TextBlock {
        match max_width {
            Some(max) => creole::split_words(
                creole::measure(
                    &crate::sequence::wrap_words(text, max, font, self.metrics),
                    font,
                    self.metrics,
                ),
                self.metrics,
            ),
            None => self.text(text, font),
        }
    }

    fn label(&self, text: Option<&str>) -> Option<TextBlock> {
        text.filter(|t| !t.trim().is_empty())
            .map(|t| self.text(t, self.style.arrow_font))
    }

    fn diamond(&self, text: Option<&str>) -> Diamond {
        let text = text
            .filter(|t| !t.trim().is_empty())
            .map(|t| self.text(t, self.style.diamond_font));
        let (tw, th) = text.as_ref().map_or((0.0, 0.0), |b| (b.width, b.height));
        let inner = if text.is_some() { tw.max(24.0) } else { 0.0 };
        Diamond {
            w: inner + 2.0 * DIAMOND_HALF,
            // As tall as its text, at least 24 px (PlantUML 1.2026.8, for
            // `if`, `elseif`, `while` and `repeat while` conditions of
            // one to three lines at 11 to 30 px): a one-line condition at
            // the default 11 px just fills it.
            h: th.max(2.0 * DIAMOND_HALF),
            text,
        }
    }

    /// Draws `d` with its top-left at `(x, y)`.
    fn draw_diamond(&self, out: &mut Vec<Item>, d: &Diamond, x: f64, y: f64, fill: Option<Color>) {
        let mid = y + d.h / 2.0;
        let border = Some(stroke(self.style.diamond_border, self.style.diamond_line));
        let p = match fill {
            Some(inline) => paint(Some(inline), border),
            None => fading(self.style.diamond_bg, self.style.diamond_gradient, border),
        }
        .shadowed(self.style.shadows);
        if d.text.is_some() {
            polygon(
                out,
                &[
                    (x + DIAMOND_HALF, y),
                    (x + d.w - DIAMOND_HALF, y),
                    (x + d.w, mid),
                    (x + d.w - DIAMOND_HALF, y + d.h),
                    (x + DIAMOND_HALF, y + d.h),
                    (x, mid),
                ],
                p,
            );
        } else {
            polygon(
                out,
                &[(x + d.w / 2.0, y), (x + d.w, mid), (x + d.w / 2.0, y + d.h), (x, mid)],
                p,
            );
        }
        if let Some(t) = &d.text {
            let tx = x + (d.w - t.width) / 2.0;
            t.draw(
                tx,
                y + (d.h - t.height) / 2.0,
                Align::Left,
                self.style.diamond_font_color,
                out,
            );
        }
    }

    /// A label whose bottom-left is at `(x, y)` (above a line).
    fn draw_label_above(&self, out: &mut Vec<Item>, label: &Option<TextBlock>, x: f64, line_y: f64) {
        if let Some(l) = label {
            l.draw(x, line_y - l.height, Align::Left, self.style.arrow_font_color, out);
        }
    }

    fn draw_label_at(&self, out: &mut Vec<Item>, label: &Option<TextBlock>, x: f64, top: f64) {
        if let Some(l) = label {
            l.draw(x, top, Align::Left, self.style.arrow_font_color, out);
        }
    }

    fn stroke_for(&self, arrow: Option<&ArrowStyle>) -> Option<Stroke> {
        self.style.edge_stroke(arrow)
    }

    /// The vertical room an edge takes: 20 px, more with a label.
    fn gap(&self, arrow: Option<&ArrowStyle>) -> f64 {
        self.label(arrow.and_then(|a| a.label.as_deref()))
            .map_or(GAP, |l| (l.height + 28.593).max(GAP))
    }

    /// An edge styled by `arrow`, its label beside its first segment.
    fn edge(&self, out: &mut Vec<Item>, pts: &[(f64, f64)], arrow: Option<&ArrowStyle>, head: bool) {
        let st = self.stroke_for(arrow);
        polyline(out, pts, st, head);
        if st.is_none() {
            return;
        }
        let label = self.label(arrow.and_then(|a| a.label.as_deref()));
        if let (Some(l), Some(first)) = (label, pts.first()) {
            l.draw(
                first.0 + LABEL_DX,
                first.1 + LABEL_DY,
                Align::Left,
                self.style.arrow_font_color,
                out,
            );
        }
    }

    // --- sequences ---------------------------------------------------

    fn layout_seq(&self, seq: &Seq<'_>, depth: usize) -> Tile {
        self.layout_seq_spaced(seq, depth, &[])
    }

    /// Lays out a sequence with `extra[i]` more room in the gap after its
    /// `i`-th node (see `rank_extras`).
    fn layout_seq_spaced(&self, seq: &Seq<'_>, depth: usize, extra: &[f64]) -> Tile {
        let mut tiles: Vec<(Tile, Option<&ArrowStyle>)> = Vec::with_capacity(seq.nodes.len());
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
                tiles.push((
                    self.while_tile(condition, *label, body, *end_label, depth + 1, Some(exit)),
                    node.arrow,
                ));
                i += 2;
                continue;
            }
            // `detach` and `kill` end the flow without a shape of their own
            // (PlantUML 1.2026 draws neither): the edge before them goes.
            if matches!(node.kind, Kind::Detach | Kind::Kill) && node.notes.is_empty() {
                if let Some((prev, _)) = tiles.last_mut() {
                    prev.open = false;
                    i += 1;
                    continue;
                }
            }
            // A sequence of one container hands its gaps' room to the body.
            let node_extra = if seq.nodes.len() == 1 { extra } else { &[] };
            let after_action = i
                .checked_sub(1)
                .and_then(|j| seq.nodes.get(j))
                .is_some_and(|prev| matches!(prev.kind, Kind::Action(_)) && node.arrow.is_none());
            tiles.push((
                self.layout_node_after(node, depth, node_extra, after_action),
                node.arrow,
            ));
            i += 1;
        }
        let mut tile = self.stack(tiles, None, extra);
        if let Some(t) = seq.tail {
            tile.tail = Some(t.clone());
        }
        tile
    }

    /// Stacks tiles on a common axis (or, with `columns`, each on its own x),
    /// joined by edges.
    fn stack(&self, tiles: Vec<(Tile, Option<&ArrowStyle>)>, columns: Option<&[f64]>, extra: &[f64]) -> Tile {
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
        let mut spans = Vec::with_capacity(tiles.len());
        for (i, (tile, arrow)) in tiles.into_iter().enumerate() {
            let axis = columns.and_then(|c| c.get(i).copied()).unwrap_or(0.0);
            let x0 = axis - tile.anchor;
            let label = arrow.and_then(|a| self.label(a.label.as_deref()));
            if let Some((px, py, open, tail)) = &prev {
                // After a flow that ended (`detach`, `kill`), nothing joins
                // the next shape: PlantUML keeps half the room (probes
                // `connector_*`).
                let unjoined = if *open { GAP } else { GAP / 2.0 };
                let gap = label.as_ref().map_or(unjoined, |l| (l.height + 28.593).max(GAP));
                let extra_here = i.checked_sub(1).and_then(|j| extra.get(j)).copied().unwrap_or(0.0);
                // A note hanging below the node takes up the row's extra
                // room first (PlantUML 1.2026.8, `while_note_*`).
                let top = (py + extra_here).max(y + last_overhang + extra_here.min(0.0)) + gap;
                let tx = x0 + tile.in_x;
                let ty = top + tile.in_y;
                if *open {
                    let style = arrow.or(tail.as_ref());
                    let st = self.stroke_for(style);
                    let pts: Vec<(f64, f64)> = if (px - tx).abs() < 0.01 {
                        vec![(*px, *py), (tx, ty)]
                    } else {
                        vec![(*px, *py), (*px, py + 5.0), (tx, py + 5.0), (tx, ty)]
                    };
                    polyline(&mut items, &pts, st, true);
                    if let Some(l) = &label {
                        let lx = tx + LABEL_DX;
                        l.draw(lx, py + LABEL_DY, Align::Left, self.style.arrow_font_color, &mut items);
                        max_x = max_x.max(lx + l.width);
                    }
                }
                y = top;
            } else {
                first_in = (x0 + tile.in_x, tile.in_y);
                first_anchor = axis;
            }
            min_x = min_x.min(x0);
            max_x = max_x.max(x0 + tile.w);
            let out = (x0 + tile.out_x, y + tile.out_y, tile.open, tile.tail.clone());
            last = out.clone();
            prev = Some(out);
            let h = tile.h;
            last_overhang = tile.overhang;
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
        }
    }

    // --- nodes -------------------------------------------------------

    fn layout_node(&self, node: &Node<'_>, depth: usize) -> Tile {
        self.layout_node_spaced(node, depth, &[])
    }

    /// Lays out a node; `extra` widens the gaps of a container's body.
    fn layout_node_spaced(&self, node: &Node<'_>, depth: usize, extra: &[f64]) -> Tile {
        self.layout_node_after(node, depth, extra, false)
    }

    /// [`Self::layout_node_spaced`] for a node that may follow an action in
    /// its sequence (its notes then reach less far up).
    fn layout_node_after(&self, node: &Node<'_>, depth: usize, extra: &[f64], after_action: bool) -> Tile {
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
                let c = self.style.end_color;
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
            Kind::Detach | Kind::Break => {
                let mut t = Tile::shape(Vec::new(), 0.0, 0.0);
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
                let fill = color.and_then(parse_color).unwrap_or(self.style.action_bg);
                ellipse(
                    &mut items,
                    r,
                    r,
                    r,
                    r,
                    paint(Some(fill), Some(stroke(self.style.action_border, 0.5))),
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
                if branches.len() <= 1 {
                    let (cond, label, body) = match branches.first() {
                        Some((c, l, b)) => (Some(*c), *l, Some(b)),
                        None => (None, None, None),
                    };
                    self.if_tile(cond, label, body, otherwise.as_ref(), *color, depth)
                } else {
                    self.elseif_tile(branches, otherwise.as_ref(), depth)
                }
            }
            Kind::Switch { condition, cases } => self.switch_tile(condition, cases, depth),
            Kind::While {
                condition,
                label,
                body,
                end_label,
            } => self.while_tile(condition, *label, body, *end_label, depth, None),
            Kind::Repeat {
                label,
                body,
                backward,
                condition,
                labels,
            } => self.repeat_tile(*label, body, backward.as_ref(), *condition, *labels, depth),
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

    fn action_tile(&self, action: &Action) -> Tile {
        let block = self.wrapped_text(&action.text, self.style.action_font, self.style.action_max_width);
        let pad = self.style.action_pad;
        let (w, h) = (block.width + 2.0 * pad, block.height + 2.0 * pad);
        let mut items = Vec::new();
        let fill = action
            .color
            .as_deref()
            .and_then(parse_color)
            .map_or((self.style.action_bg, self.style.action_gradient), |inline| {
                (inline, None)
            });
        self.draw_action_shape(&mut items, action.shape, 0.0, 0.0, w, h, fill);
        block.draw(pad, pad, Align::Left, self.style.action_font_color, &mut items);
        let mut t = Tile::shape(items, w, h);
        if let Some(st) = action.stereotype.as_deref().filter(|s| !s.trim().is_empty()) {
            // `<<stereo>>` is drawn above the text, inside the box.
            let sblock = self.text(&format!("«{}»", st.trim()), self.style.action_font.italic());
            let mut items = Vec::new();
            let w2 = w.max(sblock.width + 2.0 * pad);
            let h2 = h + sblock.height;
            self.draw_action_shape(&mut items, action.shape, 0.0, 0.0, w2, h2, fill);
            sblock.draw(
                (w2 - sblock.width) / 2.0,
                pad,
                Align::Center,
                self.style.action_font_color,
                &mut items,
            );
            block.draw(
                (w2 - block.width) / 2.0,
                pad + sblock.height,
                Align::Left,
                self.style.action_font_color,
                &mut items,
            );
            t = Tile::shape(items, w2, h2);
        }
        t
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_action_shape(
        &self,
        out: &mut Vec<Item>,
        shape: ActionShape,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: (Color, Option<Gradient>),
    ) {
        let p = fading(
            fill.0,
            fill.1,
            Some(stroke(self.style.action_border, self.style.action_line)),
        )
        .shadowed(self.style.shadows);
        let mid = y + h / 2.0;
        match shape {
            ActionShape::Plain => rect(out, x, y, w, h, self.style.action_radius, p),
            ActionShape::Square => rect(out, x, y, w, h, 0.0, p),
            ActionShape::Box => {
                rect(out, x, y, w, h, 0.0, p);
                let s = stroke(self.style.action_border, self.style.action_line);
                line(out, x + 5.0, y, x + 5.0, y + h, s);
                line(out, x + w - 5.0, y, x + w - 5.0, y + h, s);
            }
            ActionShape::Receive => polygon(
                out,
                &[(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x + 10.0, mid)],
                p,
            ),
            ActionShape::Send => polygon(
                out,
                &[
                    (x, y),
                    (x + w - 10.0, y),
                    (x + w, mid),
                    (x + w - 10.0, y + h),
                    (x, y + h),
                ],
                p,
            ),
            ActionShape::Slant => polygon(out, &[(x + 10.0, y), (x + w, y), (x + w - 10.0, y + h), (x, y + h)], p),
            ActionShape::Brace => polygon(
                out,
                &[
                    (x + 10.0, y),
                    (x + w - 10.0, y),
                    (x + w, mid),
                    (x + w - 10.0, y + h),
                    (x + 10.0, y + h),
                    (x, mid),
                ],
                p,
            ),
        }
    }

    /// Puts notes beside a tile (a leaf's notes point at it).
    fn with_notes(&self, mut tile: Tile, notes: &[&ActivityNote], leaf: bool, after_action: bool) -> Tile {
        let mut right_y = 0.0_f64;
        let mut left_y = 0.0_f64;
        let mut right_items = Vec::new();
        let mut left_items = Vec::new();
        let mut right_w = 0.0_f64;
        let mut left_w = 0.0_f64;
        let mut total_h = tile.h;
        // The element the notes point at: a leaf's whole box, a block's top.
        let (ex1, ecy) = if leaf { (tile.w, tile.h / 2.0) } else { (tile.w, 12.0) };
        for note in notes {
            let block = match self.style.note_max_width {
                Some(_) => self.wrapped_text(&note.text, self.style.note_font, self.style.note_max_width),
                None => creole::measure_lines(creole::parse_block(&note.text), self.style.note_font, self.metrics),
            };
            let nw = block.width + 21.0;
            let nh = block.height + 10.0;
            let fill = note
                .color
                .as_deref()
                .and_then(|c| Some((parse_color(c)?, parse_gradient(c))))
                .unwrap_or((self.style.note_bg, self.style.note_gradient));
            let right = note.position == ActivityNotePosition::Right;
            let (items, y) = if right {
                (&mut right_items, &mut right_y)
            } else {
                (&mut left_items, &mut left_y)
            };
            let top = if *y == 0.0 && leaf { ecy - nh / 2.0 } else { *y };
            let pointer = (!note.floating && *y == 0.0).then_some(ecy);
            let x = if right { ex1 + NOTE_GAP } else { -NOTE_GAP - nw };
            self.draw_note(items, x, top, nw, nh, fill, pointer, right);
            block.draw(x + 6.0, top + 5.0, Align::Left, self.style.note_font_color, items);
            *y = top + nh + 10.0;
            total_h = total_h.max(top + nh);
            if right {
                right_w = right_w.max(NOTE_GAP + nw);
            } else {
                left_w = left_w.max(NOTE_GAP + nw);
            }
        }
        // Notes reaching above the element push it down.
        let min_top = items_y_range(&right_items)
            .into_iter()
            .chain(items_y_range(&left_items))
            .map(|r| r.0)
            .fold(0.0_f64, f64::min);
        // A note may reach into the gap above (PlantUML centers it on the
        // element); below, what follows keeps its distance from the note.
        // After an action it reaches 10 px at most, what it reaches further
        // pushing the element down (PlantUML 1.2026.8, `note_tall_*`);
        // elsewhere one reaching further up than the gap pushes it down
        // entirely.
        let dy = if after_action {
            (-min_top - NOTE_REACH_ABOVE).max(0.0)
        } else if -min_top > GAP {
            -min_top
        } else {
            0.0
        };
        let mut items = std::mem::take(&mut tile.items);
        items.extend(right_items);
        items.extend(left_items);
        for item in &mut items {
            shift_item(item, left_w, dy);
        }
        Tile {
            items,
            w: tile.w + left_w + right_w,
            h: tile.h + dy,
            overhang: (total_h - tile.h).max(tile.overhang),
            spans: Vec::new(),
            anchor: tile.anchor + left_w,
            in_x: tile.in_x + left_w,
            in_y: tile.in_y + dy,
            out_x: tile.out_x + left_w,
            out_y: tile.out_y + dy,
            open: tile.open,
            tail: tile.tail,
        }
        .pad_bottom()
    }

    /// A note written after `endif`: PlantUML draws it without a pointer in
    /// the gap above the diamond, from the diamond's right point (up to its
    /// left point when the bypass runs right), reaching 10 px into the gap
    /// and moving the diamond down to its bottom (probes `if_note_*`).
    fn note_above_if(&self, tile: Tile, note: &ActivityNote, diamond_w: f64, left: bool) -> Tile {
        let block = creole::measure_lines(creole::parse_block(&note.text), self.style.note_font, self.metrics);
        let (nw, nh) = (block.width + 21.0, block.height + 10.0);
        let fill = note
            .color
            .as_deref()
            .and_then(|c| Some((parse_color(c)?, parse_gradient(c))))
            .unwrap_or((self.style.note_bg, self.style.note_gradient));
        let drop = (nh - 10.0).max(0.0);
        let x = if left {
            tile.in_x - diamond_w / 2.0 - nw
        } else {
            tile.in_x + diamond_w / 2.0
        };
        let dx = (-x).max(0.0);
        let mut items = tile.items;
        for item in &mut items {
            shift_item(item, dx, drop);
        }
        self.draw_note(&mut items, x + dx, drop - nh, nw, nh, fill, None, true);
        block.draw(
            x + dx + 6.0,
            drop - nh + 5.0,
            Align::Left,
            self.style.note_font_color,
            &mut items,
        );
        let w = (tile.w + dx).max(x + dx + nw);
        Tile {
            items,
            w,
            h: tile.h + drop,
            anchor: tile.anchor + dx,
            in_x: tile.in_x + dx,
            in_y: tile.in_y + drop,
            out_x: tile.out_x + dx,
            out_y: tile.out_y + drop,
            spans: Vec::new(),
            ..tile
        }
    }

    /// A note body with its folded corner and, unless floating, a pointer
    /// toward the element at height `pointer`.
    fn draw_note(
        &self,
        out: &mut Vec<Item>,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: (Color, Option<Gradient>),
        pointer: Option<f64>,
        right: bool,
    ) {
        let p = fading(
            fill.0,
            fill.1,
            Some(stroke(self.style.note_border, self.style.note_line)),
        );
        let mut path = PathBuilder::new().move_to(x, y);
        match pointer {
            Some(py) if right => {
                let py = py.clamp(y + 4.0, y + h - 4.0);
                path = path
                    .line_to(x, py - 4.0)
                    .line_to(x - NOTE_GAP, py)
                    .line_to(x, py + 4.0)
                    .line_to(x, y + h)
                    .line_to(x + w, y + h)
                    .line_to(x + w, y + 10.0)
                    .line_to(x + w - 10.0, y);
            }
            Some(py) => {
                let py = py.clamp(y + 4.0, y + h - 4.0);
                path = path
                    .line_to(x, y + h)
                    .line_to(x + w, y + h)
                    .line_to(x + w, py + 4.0)
                    .line_to(x + w + NOTE_GAP, py)
                    .line_to(x + w, py - 4.0)
                    .line_to(x + w, y + 10.0)
                    .line_to(x + w - 10.0, y);
            }
            None => {
                path = path
                    .line_to(x, y + h)
                    .line_to(x + w, y + h)
                    .line_to(x + w, y + 10.0)
                    .line_to(x + w - 10.0, y);
            }
        }
        // The body casts PlantUML's shadow, the fold does not.
        path.line_to(x, y).close().push(out, p.shadowed(self.style.shadows));
        PathBuilder::new()
            .move_to(x + w - 10.0, y)
            .line_to(x + w - 10.0, y + 10.0)
            .line_to(x + w, y + 10.0)
            .line_to(x + w - 10.0, y)
            .close()
            .push(out, p);
    }

    // --- if ----------------------------------------------------------

    /// `if … then … [else …] endif` without `elseif`.
    fn if_tile(
        &self,
        cond: Option<&str>,
        then_label: Option<&str>,
        then_seq: Option<&Seq<'_>>,
        otherwise: Option<&(Option<&str>, Seq<'_>)>,
        color: Option<&str>,
        depth: usize,
    ) -> Tile {
        let d = self.diamond(cond);
        let fill = color.and_then(parse_color);
        // One branch alone runs beside the bypass, which PlantUML spaces as
        // a one-row branch (`lone_body_extras`).
        let then_alone = otherwise.is_none_or(|(_, s)| s.nodes.is_empty());
        let else_alone = then_seq.is_none_or(|s| s.nodes.is_empty());
        let then_t = then_seq.map_or_else(Tile::empty, |s| {
            let extra = if then_alone {
                lone_body_extras(s, RANK_EXTRA)
            } else {
                Vec::new()
            };
            self.layout_seq_spaced(s, depth, &extra)
        });
        let else_t = otherwise.map_or_else(Tile::empty, |(_, s)| {
            let extra = if else_alone {
                lone_body_extras(s, RANK_EXTRA)
            } else {
                Vec::new()
            };
            self.layout_seq_spaced(s, depth, &extra)
        });
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
            // A stop's left edge ends the label's room; PlantUML moves a
            // shape of another width by half the difference (probes
            // `if_then_beside_*`: a connector 1 px left, an action right),
            // a wide one by 9 px at most (`kill_branch_*`, `detach_branch_*`
            // in `test-data/activity-probes`).
            let room = corner + side_l.as_ref().map_or(GAP, |l| (l.width + 11.0).max(GAP));
            let tx = room + ((side_t.w - 22.0) / 2.0).min(9.0);
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
                return self.normalize(items, c, (c, 0.0), (c, h), h, true, left_room);
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
            main_t.place(main_x, top, &mut items);
            let h = top + th;
            let reach = if lone_then {
                (c - d.w / 2.0 - REPEAT_LEFT_ROOM, f64::NEG_INFINITY)
            } else {
                NO_REACH
            };
            let mut tile = self.normalize(items, c, (c, 0.0), out, h, open, reach);
            tile.tail = tail;
            return tile;
        }
        if !then_t.is_empty() && !else_t.is_empty() {
            // Both branches side by side, the diamond centered between their axes.
            let then_x = 0.0;
            let mut gap = BRANCH_GAP;
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
            let top = d.h + 10.0;
            let then_stroke = self.stroke_for(None);
            polyline(
                &mut items,
                &[(c - d.w / 2.0, mid), (ta, mid), (ta, top + then_t.in_y)],
                then_stroke,
                true,
            );
            polyline(
                &mut items,
                &[(c + d.w / 2.0, mid), (ea, mid), (ea, top + else_t.in_y)],
                then_stroke,
                true,
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
            let branches = [(then_t, then_x, -1.0), (else_t, else_x, 1.0)];
            let any_open = branches.iter().any(|(t, ..)| t.open);
            let my = bottom + 6.0 + DIAMOND_HALF;
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
            if let [(ox, oy, _, tail)] = outs.as_slice() {
                let bottom = open_reach;
                let out = (*ox, bottom);
                if bottom > *oy {
                    self.edge(&mut items, &[(*ox, *oy), out], tail.as_ref(), false);
                }
                let tail = tail.clone();
                let mut tile = self.normalize(items, c, (c, 0.0), out, bottom, true, NO_REACH);
                tile.tail = tail;
                return tile;
            }
            if any_open {
                let md = self.diamond(None);
                self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, bottom + 6.0, None);
                for (ox, oy, side, tail) in outs {
                    self.edge(
                        &mut items,
                        &[(ox, oy), (ox, my), (c + side * DIAMOND_HALF, my)],
                        tail.as_ref(),
                        true,
                    );
                }
                h = bottom + 6.0 + 2.0 * DIAMOND_HALF;
            }
            return self.normalize(items, c, (c, 0.0), (c, h), h, any_open, NO_REACH);
        }
        // One branch (or none): it runs straight down under the diamond,
        // the empty side bypasses it.
        let (main, main_l, side_l, side) = if then_t.is_empty() && !else_t.is_empty() {
            (else_t, else_l, then_l, -1.0)
        } else {
            (then_t, then_l, else_l, 1.0)
        };
        let c = main.in_x.max(d.w / 2.0);
        let main_x = c - main.in_x;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, fill);
        let top = d.h + main_l.as_ref().map_or(GAP, label_room);
        self.draw_label_at(&mut items, &main_l, c + LABEL_DX, d.h);
        let main_open = main.open;
        let main_empty = main.is_empty();
        let main_out = (main_x + main.out_x, top + main.out_y);
        let main_tail = main.tail.clone();
        let (mx0, mx1) = (main_x, main_x + main.w);
        let main_h = main.h;
        main.place(main_x, top, &mut items);
        let bottom = top + main_h;
        let merge_top = if main_empty { top } else { bottom + GAP };
        let my = merge_top + DIAMOND_HALF;
        let corner = c + side * d.w / 2.0;
        let bx = if side > 0.0 {
            corner.max(mx1) + LOOP_MARGIN
        } else {
            corner.min(mx0) - LOOP_MARGIN
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
        mid_head(&mut items, bx, mid, my, st);
        if side > 0.0 {
            self.draw_label_above(&mut items, &side_l, corner, mid);
        } else if let Some(l) = &side_l {
            self.draw_label_above(&mut items, &side_l, corner - l.width, mid);
        }
        if main_empty {
            polyline(&mut items, &[(c, d.h), (c, merge_top)], st, true);
        } else if main_open {
            self.edge(
                &mut items,
                &[main_out, (main_out.0, merge_top - 0.0), (c, merge_top)],
                main_tail.as_ref(),
                true,
            );
        }
        let md = self.diamond(None);
        self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, merge_top, None);
        let h = merge_top + 2.0 * DIAMOND_HALF;
        let reach = (
            c - d.w / 2.0 - NUDE_PAD_LEFT,
            if side > 0.0 {
                bx + NUDE_PAD_RIGHT
            } else {
                f64::NEG_INFINITY
            },
        );
        self.normalize(items, c, (c, 0.0), (c, h), h, true, reach)
    }

    /// Shifts items so that the leftmost starts at 0 and makes the tile.
    fn normalize(
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
        }
    }

    /// `if … elseif … [else …] endif`: diamonds in a row, each branch below
    /// its diamond, joined by one horizontal line at the bottom.
    fn elseif_tile(
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
        let block_mid = match nominal_right {
            Some(right) if lo <= hi => Some(((first_left + right) / 2.0).clamp(lo, hi)),
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
        self.normalize(
            items,
            out_x,
            (in_x, 0.0),
            (out_x, join),
            if open { join } else { bottom },
            open,
            (first_left - NUDE_PAD_LEFT, f64::NEG_INFINITY),
        )
    }

    // --- switch ------------------------------------------------------

    fn switch_tile(&self, condition: &str, cases: &[(CaseLabel<'_>, Seq<'_>)], depth: usize) -> Tile {
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
            polyline(&mut items, &pts, st, true);
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

    // --- loops -------------------------------------------------------

    fn while_tile(
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
        let middle_extra = is_line.map_or(RANK_EXTRA, |(_, h)| (RANK_EXTRA + 0.5 - h / 2.0).max(0.0));
        let t = self.layout_seq_spaced(body, depth, &lone_body_extras(body, middle_extra));
        let end_l = self.label(end_label);
        let mut items = Vec::new();
        let c = t.anchor.max(d.w / 2.0);
        let mid = d.h / 2.0;
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, 0.0, None);
        self.draw_label_at(&mut items, &is_l, c + LABEL_DX, d.h);
        // The body hangs on the loop's axis by its anchor; when its entry is
        // elsewhere (an `elseif` chain) PlantUML leaves 25 px more for the turn.
        let dogleg = (t.anchor - t.in_x).abs() > 0.01;
        // (An `elseif` chain keeps the whole label's height + 24: corpus
        // activity 029.)
        let label_room = match (&is_l, is_line) {
            (Some(l), Some(_)) if dogleg => l.height + 24.0,
            (_, Some((ascent, _))) => GAP + ascent + 1.5,
            _ => GAP,
        };
        let top = d.h + label_room + if dogleg { 25.0 } else { 0.0 };
        let x0 = c - t.anchor;
        let st = self.stroke_for(None);
        let (bx0, bx1) = (x0, x0 + t.w);
        // What the body draws (without the room tiles keep around diamonds).
        let drawn_lo = items_x_range(&t.items).map_or(bx0, |r| x0 + r.0);
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
        let rx = (c + d.w / 2.0).max(bx1) + LOOP_MARGIN;
        if t.open || t.is_empty() {
            let ox = x0 + t.out_x;
            let oy = if t.is_empty() { top } else { top + t.out_y };
            // The back edge passes 10 px under a note hanging below the
            // body's last step too (PlantUML 1.2026.8, `while_note_last`).
            loop_bottom = oy.max(body_bottom + t.overhang) + 10.0;
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
            mid_head(&mut items, rx, loop_bottom, mid, back);
        }
        t.place(x0, top, &mut items);
        if let Some(l) = &end_l {
            self.draw_label_above(&mut items, &end_l, c - d.w / 2.0 - l.width, mid);
        }
        if let Some(exit) = exit {
            // The terminal hangs on the exit line, 36 px below the diamond's middle.
            let lx = ((c - d.w / 2.0) - LOOP_MARGIN).min(drawn_lo - 21.0);
            let ty = mid + 36.0;
            polyline(&mut items, &[(c - d.w / 2.0, mid), (lx, mid), (lx, ty)], st, true);
            let (ew, eh) = (exit.w, exit.h);
            exit.place(lx - ew / 2.0, ty, &mut items);
            let h = loop_bottom.max(body_bottom).max(ty + eh);
            let reach = (lx - WHILE_PAD_LEFT, rx + WHILE_PAD_RIGHT);
            return self.normalize(items, c, (c, 0.0), (c, h), h, false, reach);
        }
        let lx = (c - d.w / 2.0).min(bx0) - LOOP_MARGIN;
        let exit_y = loop_bottom.max(body_bottom) + LOOP_MARGIN;
        polyline(
            &mut items,
            &[(c - d.w / 2.0, mid), (lx, mid), (lx, exit_y), (c, exit_y)],
            st,
            false,
        );
        mid_head(&mut items, lx, mid, exit_y, st);
        self.normalize(
            items,
            c,
            (c, 0.0),
            (c, exit_y),
            exit_y,
            true,
            (lx - WHILE_PAD_LEFT, rx + WHILE_PAD_RIGHT),
        )
    }

    fn repeat_tile(
        &self,
        label: Option<&str>,
        body: &Seq<'_>,
        backward: Option<&(&Action, Vec<&ActivityNote>)>,
        condition: Option<&str>,
        labels: RepeatLabels<'_>,
        depth: usize,
    ) -> Tile {
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
        let back_rows = backward.and(step_rows(body)).map(|rows| backward_rows(&rows, lift));
        let extra = match &back_rows {
            Some(plan) => plan.extra.clone(),
            None if backward.is_some() => Vec::new(),
            None => lone_body_extras(body, RANK_EXTRA / 2.0),
        };
        let t = self.layout_seq_spaced(body, depth, &extra);
        let back_mid = back_rows
            .as_ref()
            .and_then(|plan| plan.middle(&t.spans))
            .map(|m| m - lift);
        let d = self.diamond(condition);
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
        let body_top = eh + GAP;
        let x0 = c - t.in_x;
        let (bx1, body_h, body_open, body_empty) = (x0 + t.w, t.h, t.open, t.is_empty());
        // With a backward action, PlantUML keeps the condition 10 px
        // further below the body (probe `repeat_backward`).
        let has_backward = back_t.is_some();
        let backward_drop = match &back_rows {
            Some(plan) => plan.drop,
            None if has_backward => REPEAT_BACKWARD_DROP,
            None => 0.0,
        };
        let dtop = if body_empty {
            polyline(&mut items, &[(c, eh), (c, body_top)], st, true);
            body_top
        } else {
            polyline(&mut items, &[(c, eh), (c, body_top + t.in_y)], st, true);
            if body_open {
                self.edge(
                    &mut items,
                    &[
                        (x0 + t.out_x, body_top + t.out_y),
                        (c, body_top + body_h + self.gap(t.tail.as_ref()) + backward_drop),
                    ],
                    t.tail.as_ref(),
                    true,
                );
            }
            body_top + body_h + self.gap(t.tail.as_ref()) + backward_drop
        };
        t.place(x0, body_top, &mut items);
        self.draw_diamond(&mut items, &d, c - d.w / 2.0, dtop, None);
        let dmid = dtop + d.h / 2.0;
        let corner = c + d.w / 2.0;
        self.draw_label_above(&mut items, &is_l, corner, dmid);
        self.draw_label_at(&mut items, &not_l, c + LABEL_DX, dtop + d.h);
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
                let bmid = back_mid.map_or((ecy + dmid) / 2.0, |m| body_top + m);
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
            None => {
                let bx = right + LOOP_MARGIN;
                polyline(
                    &mut items,
                    &[(corner, dmid), (bx, dmid), (bx, ecy), (c + ew / 2.0, ecy)],
                    st,
                    true,
                );
                mid_head(&mut items, bx, dmid, ecy, st);
                draw_back_label(&mut items, bx);
            }
        }
        let h = dtop + d.h + not_l.as_ref().map_or(0.0, |l| l.height);
        // PlantUML's repeat keeps 9 px of room left of its condition and 12 px
        // right of its loop line (probes `repeat_*`: the loop alone in a
        // diagram, nested, with a wide condition; a wider first action
        // reaches past it: corpus activity 033).
        let left_room = c - d.w / 2.0 - REPEAT_LEFT_ROOM;
        let right_room = if has_backward {
            back_label_right
        } else {
            (right + LOOP_MARGIN + LOOP_MARGIN).max(back_label_right)
        };
        self.normalize(items, c, (c, 0.0), (c, dtop + d.h), h, true, (left_room, right_room))
    }

    // --- concurrency ---------------------------------------------------

    /// Lays the branches out side by side, `gap` apart; PlantUML 1.2026
    /// centres them vertically on a common grid of steps (`rank_extras`).
    fn side_by_side(&self, branches: &[Seq<'_>], gap: f64, depth: usize) -> Vec<(Tile, f64)> {
        let rows: Option<Vec<Vec<usize>>> = branches.iter().map(step_rows).collect();
        let mut x = 0.0;
        branches
            .iter()
            .enumerate()
            .map(|(i, seq)| {
                let extra = rows.as_deref().map_or_else(Vec::new, |r| rank_extras(r, i, RANK_EXTRA));
                let t = self.layout_seq_spaced(seq, depth, &extra);
                let at = x;
                x += t.w.max(1.0) + gap;
                (t, at)
            })
            .collect()
    }

    fn fork_tile(&self, branches: &[Seq<'_>], merge: bool, label: Option<&str>, depth: usize) -> Tile {
        let mut cols = self.side_by_side(branches, if merge { SPLIT_GAP } else { FORK_GAP }, depth);
        let c = if merge {
            cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0)) / 2.0
        } else {
            place_branches(&mut cols, SPLIT_GAP - FORK_GAP)
        };
        let mut items = Vec::new();
        let x_end = cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0));
        let (bar_x0, bar_x1) = (-BAR_OVERHANG, x_end + BAR_OVERHANG);
        let bar = self.style.bar_color;
        rect(
            &mut items,
            bar_x0,
            0.0,
            bar_x1 - bar_x0,
            BAR_HEIGHT,
            2.5,
            paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
        );
        let top = BAR_HEIGHT + GAP;
        let bottom = cols.iter().map(|(t, _)| top + t.h).fold(top, f64::max);
        let st = self.stroke_for(None);
        let mut outs = Vec::new();
        for (t, x) in cols {
            let ax = x + t.in_x;
            let y = top + (bottom - top - t.h) / 2.0;
            polyline(&mut items, &[(ax, BAR_HEIGHT), (ax, y + t.in_y)], st, true);
            if t.open {
                outs.push((x + t.out_x, y + t.out_y, t.tail.clone()));
            }
            t.place(x, y, &mut items);
        }
        let open = !outs.is_empty();
        let h;
        if merge {
            let merge_top = bottom + 10.0;
            let my = merge_top + DIAMOND_HALF;
            for (ox, oy, tail) in outs {
                let pts: Vec<(f64, f64)> = if ox < c - DIAMOND_HALF {
                    vec![(ox, oy), (ox, my), (c - DIAMOND_HALF, my)]
                } else if ox > c + DIAMOND_HALF {
                    vec![(ox, oy), (ox, my), (c + DIAMOND_HALF, my)]
                } else {
                    vec![(ox, oy), (ox, merge_top)]
                };
                self.edge(&mut items, &pts, tail.as_ref(), true);
            }
            let md = self.diamond(None);
            self.draw_diamond(&mut items, &md, c - DIAMOND_HALF, merge_top, None);
            h = merge_top + 2.0 * DIAMOND_HALF;
        } else if open {
            let bar_y = bottom + GAP;
            for (ox, oy, tail) in outs {
                self.edge(&mut items, &[(ox, oy), (ox, bar_y)], tail.as_ref(), true);
            }
            rect(
                &mut items,
                bar_x0,
                bar_y,
                bar_x1 - bar_x0,
                BAR_HEIGHT,
                2.5,
                paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
            );
            if let Some(l) = self.label(label) {
                l.draw(
                    bar_x1 + 5.0,
                    bar_y + BAR_HEIGHT / 2.0 - l.height / 2.0,
                    Align::Left,
                    self.style.arrow_font_color,
                    &mut items,
                );
            }
            h = bar_y + BAR_HEIGHT;
        } else {
            h = bottom;
        }
        self.normalize(items, c, (c, 0.0), (c, h), h, open || merge, NO_REACH)
    }

    fn split_tile(&self, branches: &[Seq<'_>], depth: usize) -> Tile {
        // Two `split` branches stay 28 px apart; more are spaced like `fork`
        // branches (probes `split_*`).
        let mut cols = if branches.len() == 2 {
            self.side_by_side(branches, SPLIT_GAP, depth)
        } else {
            self.side_by_side(branches, FORK_GAP, depth)
        };
        let x_end = cols.last().map_or(0.0, |(t, x)| x + t.w.max(1.0));
        let c = if branches.len() > 2 {
            place_branches(&mut cols, SPLIT_GAP - FORK_GAP)
        } else {
            x_end / 2.0
        };
        let mut items = Vec::new();
        let axes: Vec<f64> = cols.iter().map(|(t, x)| x + t.in_x).collect();
        let (lo, hi) = axes
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        let st = self.stroke_for(None);
        let bar = stroke(self.style.arrow_color, 1.5);
        line(&mut items, lo, 0.0, hi, 0.0, bar);
        let top = GAP;
        let bottom = cols.iter().map(|(t, _)| top + t.h).fold(top, f64::max);
        let join = bottom + GAP;
        let mut open = false;
        let mut outs: Vec<f64> = Vec::new();
        for (t, x) in cols {
            let ax = x + t.in_x;
            let y = top + (bottom - top - t.h) / 2.0;
            polyline(&mut items, &[(ax, 0.0), (ax, y + t.in_y)], st, true);
            if t.open {
                open = true;
                let ox = x + t.out_x;
                outs.push(ox);
                self.edge(&mut items, &[(ox, y + t.out_y), (ox, join)], t.tail.as_ref(), true);
            }
            t.place(x, y, &mut items);
        }
        if open {
            let (a, b) = outs
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
            line(&mut items, a.min(lo), join, b.max(hi), join, bar);
        }
        let h = if open { join } else { bottom };
        self.normalize(items, c, (c, 0.0), (c, h), h, open, NO_REACH)
    }

    // --- containers ----------------------------------------------------

    fn container_tile(
        &self,
        kind: ContainerKind,
        name: &str,
        color: Option<&str>,
        body: &Seq<'_>,
        depth: usize,
        extra: &[f64],
    ) -> Tile {
        let t = self.layout_seq_spaced(body, depth, extra);
        let partition = kind == ContainerKind::Partition;
        let (title_font, title_color, frame_color) = match kind {
            ContainerKind::Partition => (
                self.style.partition_font,
                self.style.partition_font_color,
                self.style.frame_color,
            ),
            ContainerKind::Group => (
                self.style.group_font,
                self.style.group_font_color,
                self.style.group_frame_color,
            ),
            _ => (self.style.frame_font, self.style.font_color, self.style.frame_color),
        };
        let title = self.text(name, title_font);
        let frame = stroke(frame_color, self.style.frame_line);
        let fill = color
            .and_then(parse_color)
            .or(if partition { self.style.partition_bg } else { None });
        let title_h = title.height + 3.0;
        let (head, centered) = match kind {
            ContainerKind::Partition | ContainerKind::Group => (title_h + 17.0, false),
            ContainerKind::Package => (title_h + 14.0 + 3.0, false),
            ContainerKind::Rectangle | ContainerKind::Card => (title_h + 17.0, true),
        };
        // A partition or group is as wide as its content or its title,
        // 10 px either side (PlantUML 1.2026.8); the other frames keep more
        // room beside the title.
        let inner_w = if matches!(kind, ContainerKind::Partition | ContainerKind::Group) {
            t.w.max(title.width)
        } else {
            t.w.max(title.width + if centered { 20.0 } else { 40.0 })
        };
        let fw = inner_w + 2.0 * FRAME_PAD_X;
        let body_x = FRAME_PAD_X + (inner_w - t.w) / 2.0;
        let fy = -FRAME_OUTSIDE;
        let body_top = fy + head;
        // PlantUML leaves 12 px under a partition's or group's content, 20 under the others'.
        let below = match kind {
            ContainerKind::Partition | ContainerKind::Group => 12.0,
            _ => 20.0,
        };
        let fh = head + t.h + t.overhang + below;
        let mut items = Vec::new();
        let p = paint(fill, Some(frame));
        match kind {
            ContainerKind::Partition | ContainerKind::Group => {
                rect(&mut items, 0.0, fy, fw, fh, self.style.frame_radius, p);
                let tab_w = title.width + 3.0 + 10.0;
                PathBuilder::new()
                    .move_to(tab_w, fy)
                    .line_to(tab_w, fy + title_h - 10.0)
                    .line_to(tab_w - 10.0, fy + title_h)
                    .line_to(0.0, fy + title_h)
                    .push(&mut items, paint(None, Some(frame)));
                title.draw(3.0, fy + 1.0, Align::Left, title_color, &mut items);
            }
            ContainerKind::Package => {
                let tab_w = title.width + 6.0;
                let tab_h = title_h + 3.0;
                polygon(
                    &mut items,
                    &[
                        (0.0, fy),
                        (tab_w, fy),
                        (tab_w + 7.0, fy + tab_h),
                        (fw, fy + tab_h),
                        (fw, fy + fh),
                        (0.0, fy + fh),
                    ],
                    p,
                );
                line(&mut items, 0.0, fy + tab_h, tab_w + 7.0, fy + tab_h, frame);
                title.draw(4.0, fy + 2.0, Align::Left, self.style.font_color, &mut items);
            }
            ContainerKind::Rectangle | ContainerKind::Card => {
                rect(&mut items, 0.0, fy, fw, fh, 0.0, p);
                if kind == ContainerKind::Card {
                    line(&mut items, 0.0, fy + title_h + 1.0, fw, fy + title_h + 1.0, frame);
                }
                title.draw(
                    (fw - title.width) / 2.0,
                    fy + 2.0,
                    Align::Center,
                    self.style.font_color,
                    &mut items,
                );
            }
        }
        let in_x = body_x + t.in_x;
        let out_x = body_x + t.out_x;
        let (in_y, out_y, open, tail, empty) = (t.in_y, t.out_y, t.open, t.tail.clone(), t.is_empty());
        t.place(body_x, body_top, &mut items);
        // The frame starts 10 px into the gap above it and ends at the tile's bottom.
        let h = fy + fh;
        let mut tile = Tile {
            items,
            w: fw,
            h,
            anchor: in_x,
            in_x,
            in_y: if empty { 0.0 } else { body_top + in_y },
            out_x,
            out_y: if empty { h } else { body_top + out_y },
            open,
            tail,
            overhang: 0.0,
            spans: Vec::new(),
        };
        if empty {
            tile.anchor = fw / 2.0;
            tile.in_x = fw / 2.0;
            tile.out_x = fw / 2.0;
        }
        // Items above y = 0 (the frame's top) are part of the tile.
        let (lo, _) = items_y_range(&tile.items).unwrap_or((0.0, 0.0));
        if lo < fy - 0.5 {
            let dy = fy - lo;
            for item in &mut tile.items {
                shift_item(item, 0.0, dy);
            }
            tile.h += dy;
            tile.in_y += dy;
            tile.out_y += dy;
        }
        tile
    }

    // --- swimlanes ------------------------------------------------------

    /// The top-level sequence laid out in swimlane columns: each node in the
    /// column of the lane it was written in (nested blocks stay in their
    /// opening's lane).
    fn layout_lanes(&self, activity: &ActivityDiagram, seq: &Seq<'_>) -> Tile {
        let n = activity.lanes.len().max(1);
        let lane_of = |node: &Node<'_>| node.lane.map_or(0, |l| l.index().min(n - 1));
        // A top-level fork, split or if whose branches run in other lanes is
        // laid out once the lanes are known; its branches count for theirs.
        let mut split_branches: Vec<Option<Vec<(Tile, usize)>>> = Vec::with_capacity(seq.nodes.len());
        let tiles: Vec<(Tile, Option<&ArrowStyle>, usize)> = seq
            .nodes
            .iter()
            .map(|node| {
                let own = lane_of(node);
                let branches = self.lane_split_branches(node, own, &lane_of);
                let tile = if branches.is_some() {
                    Tile::empty()
                } else {
                    self.layout_node(node, 0)
                };
                split_branches.push(branches);
                (tile, node.arrow, own)
            })
            .collect();
        let headers: Vec<TextBlock> = (0..n)
            .map(|i| {
                let text = activity.lanes.get(i).map_or("", |l| l.display.as_str());
                self.wrapped_text(text, self.style.lane_font, self.style.lane_max_width)
            })
            .collect();
        // A lane holds its tiles aligned on one axis, 6 px of room on each
        // side, or its header + 10 px when that is wider (the content then
        // centered, 1 px right of the middle, as PlantUML).
        let mut left = vec![0.0_f64; n];
        let mut right = vec![0.0_f64; n];
        for (t, _, lane) in &tiles {
            left[*lane] = left[*lane].max(t.anchor);
            right[*lane] = right[*lane].max(t.w - t.anchor);
        }
        for (t, lane) in split_branches.iter().flatten().flatten() {
            left[*lane] = left[*lane].max(t.anchor);
            right[*lane] = right[*lane].max(t.w - t.anchor);
        }
        let mut xs = Vec::with_capacity(n + 1);
        let mut axes = Vec::with_capacity(n);
        let mut x = 0.0;
        for i in 0..n {
            xs.push(x);
            let content = left[i] + right[i];
            let header_w = headers[i].width + 10.0;
            let (w, axis) = if header_w > content + 12.0 {
                (header_w, x + (header_w - content) / 2.0 + left[i] + 1.0)
            } else {
                (content + 12.0, x + 6.0 + left[i])
            };
            axes.push(axis);
            x += w;
        }
        xs.push(x);
        let header_h = headers.iter().map(|h| h.height).fold(0.0, f64::max);
        let mut tiles = tiles;
        let mut columns: Vec<f64> = tiles.iter().map(|(_, _, lane)| axes[*lane]).collect();
        for (i, (node, branches)) in seq.nodes.iter().zip(split_branches).enumerate() {
            if let Some(branches) = branches {
                let tile = self.lane_split_tile(node, branches, axes[lane_of(node)], &axes);
                // Its items are in lane coordinates already: placed at x = 0.
                columns[i] = tile.anchor;
                tiles[i].0 = tile;
            }
        }
        let body = self.stack(tiles.into_iter().map(|(t, a, _)| (t, a)).collect(), Some(&columns), &[]);
        let content_top = header_h + 5.0;
        let bottom = content_top + body.h + body.overhang;
        let mut items = Vec::new();
        for (i, lane) in activity.lanes.iter().enumerate().take(n) {
            if let Some(c) = lane.color.as_deref().and_then(parse_color) {
                rect(
                    &mut items,
                    xs[i],
                    0.0,
                    xs[i + 1] - xs[i],
                    bottom,
                    0.0,
                    paint(Some(c), Some(stroke(c, 1.0))),
                );
            }
        }
        let body_anchor = body.anchor;
        let first_col = columns.first().copied().unwrap_or(0.0);
        let (bin, bout, bopen) = ((body.in_x, body.in_y), (body.out_x, body.out_y), body.open);
        let place_dx = first_col - body_anchor;
        body.place(place_dx, content_top, &mut items);
        if let (Some((fill, gradient)), Some(h)) = (self.style.lane_header_bg, headers.first()) {
            let (x0, x1) = (xs.first().copied().unwrap_or(0.0), xs.last().copied().unwrap_or(0.0));
            let border = self.style.lane_header_border.map(|c| stroke(c, 1.0));
            rect(
                &mut items,
                x0,
                0.0,
                x1 - x0,
                h.height,
                0.0,
                fading(fill, gradient, border),
            );
        }
        let sep = stroke(self.style.lane_border, self.style.lane_line);
        for &lx in &xs {
            line(&mut items, lx, 0.0, lx, bottom, sep);
        }
        for (i, h) in headers.iter().enumerate() {
            let mid = (xs[i] + xs[i + 1]) / 2.0;
            h.draw(
                mid - h.width / 2.0,
                0.0,
                Align::Left,
                self.style.lane_font_color,
                &mut items,
            );
        }
        Tile {
            items,
            w: x,
            h: bottom,
            anchor: axes[0],
            in_x: bin.0 + place_dx,
            in_y: bin.1 + content_top,
            out_x: bout.0 + place_dx,
            out_y: bout.1 + content_top,
            open: bopen,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
        }
    }

    /// The branch tiles of a fork, split or two-branch if whose branches
    /// start in distinct lanes other than the block's own, with their lanes.
    fn lane_split_branches(
        &self,
        node: &Node<'_>,
        own: usize,
        lane_of: &dyn Fn(&Node<'_>) -> usize,
    ) -> Option<Vec<(Tile, usize)>> {
        let seqs: Vec<&Seq<'_>> = match &node.kind {
            Kind::Fork { branches, .. } | Kind::Split { branches } => branches.iter().collect(),
            Kind::If {
                branches,
                otherwise: Some((_, other)),
                ..
            } if branches.len() == 1 => branches.iter().map(|(_, _, s)| s).chain([other]).collect(),
            _ => return None,
        };
        if seqs.len() < 2 || seqs.iter().any(|s| s.nodes.is_empty()) || !node.notes.is_empty() {
            return None;
        }
        let lanes: Vec<usize> = seqs.iter().map(|s| s.nodes.first().map_or(own, lane_of)).collect();
        let distinct = lanes.iter().enumerate().all(|(i, l)| !lanes[..i].contains(l));
        if !distinct || lanes.iter().all(|&l| l == own) {
            return None;
        }
        Some(
            seqs.iter()
                .zip(lanes)
                .map(|(s, lane)| (self.layout_seq(s, 1), lane))
                .collect(),
        )
    }

    /// A fork, split or if with each branch in its own lane's column
    /// (items in lane coordinates; the block's glyphs on `own_axis`).
    fn lane_split_tile(&self, node: &Node<'_>, branches: Vec<(Tile, usize)>, own_axis: f64, axes: &[f64]) -> Tile {
        let mut items = Vec::new();
        let st = self.stroke_for(None);
        let placed: Vec<(Tile, f64)> = branches
            .into_iter()
            .map(|(t, lane)| {
                let x0 = axes.get(lane).copied().unwrap_or(own_axis) - t.anchor;
                (t, x0)
            })
            .collect();
        let lo = placed.iter().map(|(_, x)| *x).fold(f64::INFINITY, f64::min);
        let hi = placed.iter().map(|(t, x)| x + t.w).fold(f64::NEG_INFINITY, f64::max);
        let (top, in_x): (f64, f64) = match &node.kind {
            Kind::If { branches, .. } => {
                let cond = branches.first().map(|(c, _, _)| *c);
                let d = self.diamond(cond);
                self.draw_diamond(&mut items, &d, own_axis - d.w / 2.0, 0.0, None);
                let mid = d.h / 2.0;
                let labels = [
                    branches.first().and_then(|(_, l, _)| *l),
                    match &node.kind {
                        Kind::If {
                            otherwise: Some((l, _)),
                            ..
                        } => *l,
                        _ => None,
                    },
                ];
                let top = d.h + 10.0;
                for (i, (t, x0)) in placed.iter().enumerate() {
                    let ax = x0 + t.in_x;
                    let side = if i == 0 { -1.0 } else { 1.0 };
                    let corner = own_axis + side * d.w / 2.0;
                    if (ax - own_axis).abs() <= d.w / 2.0 {
                        // A branch under the diamond leaves from its bottom.
                        let turn = d.h + 5.0;
                        polyline(
                            &mut items,
                            &[(own_axis, d.h), (own_axis, turn), (ax, turn), (ax, top + t.in_y)],
                            st,
                            true,
                        );
                    } else {
                        polyline(&mut items, &[(corner, mid), (ax, mid), (ax, top + t.in_y)], st, true);
                    }
                    let label = self.label(labels.get(i).copied().flatten());
                    if let Some(l) = &label {
                        let lx = if side < 0.0 { corner - l.width } else { corner };
                        self.draw_label_above(&mut items, &label, lx, mid);
                    }
                }
                (top, own_axis)
            }
            Kind::Split { .. } => {
                let axes_x: Vec<f64> = placed.iter().map(|(t, x)| x + t.in_x).collect();
                let a = axes_x.iter().copied().fold(own_axis, f64::min);
                let b = axes_x.iter().copied().fold(own_axis, f64::max);
                line(&mut items, a, 0.0, b, 0.0, stroke(self.style.arrow_color, 1.5));
                for (t, x0) in &placed {
                    let ax = x0 + t.in_x;
                    polyline(&mut items, &[(ax, 0.0), (ax, GAP + t.in_y)], st, true);
                }
                (GAP, own_axis)
            }
            _ => {
                let bar = self.style.bar_color;
                let (b0, b1) = ((lo - BAR_OVERHANG).min(own_axis), (hi + BAR_OVERHANG).max(own_axis));
                rect(
                    &mut items,
                    b0,
                    0.0,
                    b1 - b0,
                    BAR_HEIGHT,
                    2.5,
                    paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
                );
                let top = BAR_HEIGHT + GAP;
                for (t, x0) in &placed {
                    let ax = x0 + t.in_x;
                    polyline(&mut items, &[(ax, BAR_HEIGHT), (ax, top + t.in_y)], st, true);
                }
                (top, own_axis)
            }
        };
        let bottom = placed.iter().map(|(t, _)| top + t.h).fold(top, f64::max);
        let outs: Vec<(f64, f64, Option<ArrowStyle>)> = placed
            .iter()
            .filter(|(t, _)| t.open)
            .map(|(t, x0)| (x0 + t.out_x, top + t.out_y, t.tail.clone()))
            .collect();
        let open = !outs.is_empty();
        for (t, x0) in placed {
            t.place(x0, top, &mut items);
        }
        let h = match &node.kind {
            Kind::If { .. } if open => {
                let merge_top = bottom + 6.0;
                let my = merge_top + DIAMOND_HALF;
                for (ox, oy, tail) in &outs {
                    let tip = if *ox < own_axis - 0.01 {
                        (own_axis - DIAMOND_HALF, my)
                    } else if *ox > own_axis + 0.01 {
                        (own_axis + DIAMOND_HALF, my)
                    } else {
                        (own_axis, merge_top)
                    };
                    let pts = if (tip.1 - merge_top).abs() < 0.01 {
                        vec![(*ox, *oy), tip]
                    } else {
                        vec![(*ox, *oy), (*ox, my), tip]
                    };
                    self.edge(&mut items, &pts, tail.as_ref(), true);
                }
                let md = self.diamond(None);
                self.draw_diamond(&mut items, &md, own_axis - DIAMOND_HALF, merge_top, None);
                merge_top + 2.0 * DIAMOND_HALF
            }
            Kind::Fork { merge: false, .. } if open => {
                let bar_y = bottom + GAP;
                for (ox, oy, tail) in &outs {
                    self.edge(&mut items, &[(*ox, *oy), (*ox, bar_y)], tail.as_ref(), true);
                }
                let bar = self.style.bar_color;
                let (b0, b1) = ((lo - BAR_OVERHANG).min(own_axis), (hi + BAR_OVERHANG).max(own_axis));
                rect(
                    &mut items,
                    b0,
                    bar_y,
                    b1 - b0,
                    BAR_HEIGHT,
                    2.5,
                    paint(Some(bar), Some(stroke(self.style.bar_border, 1.0))),
                );
                bar_y + BAR_HEIGHT
            }
            _ if open => {
                // `end merge` and `end split`: the branches meet on a line.
                let join = bottom + GAP;
                let xs: Vec<f64> = outs.iter().map(|o| o.0).collect();
                for (ox, oy, tail) in &outs {
                    self.edge(&mut items, &[(*ox, *oy), (*ox, join)], tail.as_ref(), true);
                }
                let a = xs.iter().copied().fold(own_axis, f64::min);
                let b = xs.iter().copied().fold(own_axis, f64::max);
                line(&mut items, a, join, b, join, stroke(self.style.arrow_color, 1.5));
                join
            }
            _ => bottom,
        };
        let w = items_x_range(&items).map_or(hi, |r| r.1).max(hi);
        Tile {
            items,
            w,
            h,
            anchor: in_x,
            in_x,
            in_y: 0.0,
            out_x: own_axis,
            out_y: h,
            open,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
        }
    }

    // --- the page ------------------------------------------------------

    /// The page: the drawing and its decorations (header, title, legend,
    /// caption, footer) stacked as PlantUML 1.2026.8 stacks them, observed
    /// one decoration at a time and all together: each is a block 1 px
    /// apart from the next, all centred in a column as wide as the widest
    /// (the drawing with 6 px left and 8 px right of it, the title with
    /// 10 px either side, the legend's frame with 12, the caption with 1),
    /// 10 px from the page's edges.
    fn finish(&self, diagram: &Diagram, body: Tile, lanes: bool) -> Scene {
        // The drawing's own room is measured from PlantUML's default page
        // margin; a theme's margin (`page_margin`) moves everything.
        const PAGE_MARGIN: f64 = 10.0;
        let page_margin = self.style.page_margin;
        const BLOCK_GAP: f64 = 1.0;
        const TITLE_PAD: f64 = 10.0;
        let legend_margin = self.style.legend_margin;
        let caption_margin = self.style.caption_margin;
        let theme = self.theme;
        let deco = theme.font(10.0);
        let header = diagram
            .header
            .as_ref()
            .filter(|h| !h.text.trim().is_empty())
            .map(|h| (self.text(&h.text, deco), h.align));
        let title = diagram
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| self.text(t, theme.font_of(TextElement::Title, theme.title_font_size).bold()));
        let legend_font = theme.font_of(TextElement::Legend, 14.0);
        let legend_top = diagram
            .legend
            .as_ref()
            .filter(|l| l.vertical == Some(VerticalAlign::Top))
            .map(|l| (l, self.text(&l.text, legend_font)));
        let legend_bottom = diagram
            .legend
            .as_ref()
            .filter(|l| l.vertical != Some(VerticalAlign::Top))
            .map(|l| (l, self.text(&l.text, legend_font)));
        let caption = diagram
            .caption
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(|c| self.text(c, theme.font(14.0)));
        let footer = diagram
            .footer
            .as_ref()
            .filter(|f| !f.text.trim().is_empty())
            .map(|f| (self.text(&f.text, deco), f.align));
        let notices = self.deprecation_notices(diagram);

        // The drawing's own margins inside its block.
        let lane_shift = if lanes {
            // The lanes' top follows the header's descent (observed at 16,
            // 18 and 22 px): LANE_ORIGIN_Y is the default 18 px header's.
            let descent = |size: f64| {
                self.metrics.descent(&Font {
                    size,
                    ..self.style.lane_font
                })
            };
            descent(self.style.lane_font.size) - descent(18.0)
        } else {
            0.0
        };
        let (mut pad_left, pad_top, pad_right) = if lanes {
            (
                LANE_ORIGIN_X - PAGE_MARGIN,
                LANE_ORIGIN_Y + lane_shift - PAGE_MARGIN,
                LANE_END_MARGIN - PAGE_MARGIN - BLOCK_GAP,
            )
        } else {
            (
                ORIGIN_X - PAGE_MARGIN,
                ORIGIN_Y - PAGE_MARGIN,
                END_MARGIN - PAGE_MARGIN - BLOCK_GAP,
            )
        };
        let pad_bottom = END_MARGIN - PAGE_MARGIN - BLOCK_GAP;
        // PlantUML starts a drawing whose leftmost shape is a note 1 px
        // further left.
        let note_left = body
            .items
            .iter()
            .filter_map(|i| item_x_range(i).map(|r| (r.0, matches!(i, Item::Path { .. }))))
            .fold((f64::INFINITY, false), |acc, (x, is_note)| {
                if x < acc.0 - 0.001 {
                    (x, is_note)
                } else {
                    acc
                }
            });
        if note_left.1 && note_left.0 < 0.5 {
            pad_left -= 1.0;
        }
        // What reaches past the tile's right or bottom edge widens the
        // drawing; what reaches into the margin left or above stays there
        // (the page grows below when it would leave the page).
        // A shape casting a shadow reaches 6 px further right and down
        // (its offset and blur: observed with `skin rose`, `materia` and
        // `skinparam shadowing true`); a note's shadow adds nothing.
        let shadowed = |item: &Item| match item {
            Item::Rect { paint, .. } | Item::Polygon { paint, .. } | Item::Ellipse { paint, .. } => {
                paint.shadow.is_some()
            }
            _ => false,
        };
        let shadow_reach = |range: fn(&Item) -> Option<(f64, f64)>| {
            body.items
                .iter()
                .filter(|i| shadowed(i))
                .filter_map(range)
                .fold(f64::NEG_INFINITY, |acc, r| acc.max(r.1 + 6.0))
        };
        let hi = items_x_range(&body.items)
            .map_or(body.w, |r| r.1.max(body.w))
            .max(shadow_reach(item_x_range));
        let low = items_y_range(&body.items)
            .map_or(body.h, |r| r.1.max(body.h))
            .max(shadow_reach(item_y_range));
        let drawing_w = pad_left + hi + pad_right;
        let drawing_h = pad_top + low + pad_bottom;

        let legend_w = |b: &TextBlock| b.width + 2.0 * self.style.legend_padding + 2.0 * legend_margin;
        // A box of notices stands on the drawing, left-aligned with it in
        // one block (PlantUML: a drawing narrower than its notices is not
        // centred under them, but the block is centred under a title).
        let block_w = notices.as_ref().map_or(drawing_w, |n| drawing_w.max(n.width));
        // A theme's title stands in a frame: its padding inside, its margin
        // around (PlantUML 1.2026.8, `test-data/activity-themes`: 6 and 10
        // px with the bootstrap-like themes, 5 and 5 with aws-orange).
        let framed = theme.title_bg.is_some() || theme.title_border.is_some();
        let (title_margin, title_padding) = (self.style.title_margin, self.style.title_padding);
        let title_w = |b: &TextBlock| {
            if framed || self.style.title_spacing_set {
                b.width + title_padding.left + title_padding.right + title_margin.left + title_margin.right
            } else {
                b.width + 2.0 * TITLE_PAD
            }
        };
        let width = [
            Some(block_w),
            header.as_ref().map(|(b, _)| b.width + 2.0 * self.style.header_margin),
            title.as_ref().map(title_w),
            legend_top.as_ref().map(|(_, b)| legend_w(b)),
            legend_bottom.as_ref().map(|(_, b)| legend_w(b)),
            caption.as_ref().map(|b| b.width + 2.0 * caption_margin),
            footer.as_ref().map(|(b, _)| b.width + 2.0 * self.style.footer_margin),
        ]
        .into_iter()
        .flatten()
        .fold(0.0, f64::max);
        let left = page_margin;
        let right = page_margin + width;
        let centred = |w: f64| left + (width - w) / 2.0;
        // (`room`: a header's or footer's margin, kept from the sides)
        let aligned = |w: f64, align: HorizontalAlign, room: f64| match align {
            HorizontalAlign::Left => left + room,
            HorizontalAlign::Center => centred(w),
            HorizontalAlign::Right => right - w - room,
        };

        let mut items: Vec<Item> = Vec::new();
        let mut y = page_margin;
        if let Some((block, align)) = &header {
            let room = self.style.header_margin;
            let x = aligned(block.width, align.unwrap_or(HorizontalAlign::Right), room);
            block.draw(x, y + room, Align::Left, theme.header_color, &mut items);
            y += room + block.height + room + BLOCK_GAP;
        }
        if let Some(block) = title.as_ref().filter(|_| framed) {
            let (x, top) = (centred(block.width), y + title_margin.top);
            let h = block.height + title_padding.top + title_padding.bottom;
            let border = theme.title_border.map(|c| stroke(c, 1.0));
            let frame = match theme.title_bg {
                Some(fill) => crate::shapes::fading_or_none(fill, theme.fades.title, border),
                None => paint(None, border),
            };
            rect(
                &mut items,
                x - title_padding.left,
                top,
                block.width + title_padding.left + title_padding.right,
                h,
                theme.frame_round_corner,
                frame,
            );
            block.draw(x, top + title_padding.top, Align::Center, theme.title_color, &mut items);
            y = top + h + title_margin.bottom + BLOCK_GAP;
        } else if let Some(block) = title.as_ref().filter(|_| self.style.title_spacing_set) {
            let top = y + title_margin.top + title_padding.top;
            block.draw(centred(block.width), top, Align::Center, theme.title_color, &mut items);
            y = top + block.height + title_padding.bottom + title_margin.bottom + BLOCK_GAP;
        } else if let Some(block) = &title {
            block.draw(
                centred(block.width),
                y + TITLE_PAD,
                Align::Center,
                theme.title_color,
                &mut items,
            );
            // (more below a larger title: 8.3 px more at 23 px, corpus
            // activity 023 and 024).
            let larger = (theme.title_font_size - 14.0).max(0.0) * 0.92;
            y += block.height + 2.0 * TITLE_PAD + BLOCK_GAP + larger;
        }
        let legend_range = (left + legend_margin, right - legend_margin);
        if let Some((l, _)) = legend_top {
            let h = self.legend(&mut items, l, y + legend_margin, legend_range.0, legend_range.1);
            y += h + 2.0 * legend_margin + BLOCK_GAP;
        }
        if let Some(notices) = notices {
            y += notices.draw(centred(block_w), block_w, y, &mut items) + BLOCK_GAP;
        }
        let ox = centred(block_w) + pad_left;
        let oy = y + pad_top;
        body.place(ox, oy, &mut items);
        y += drawing_h + BLOCK_GAP;
        if let Some((l, _)) = legend_bottom {
            let h = self.legend(&mut items, l, y + legend_margin, legend_range.0, legend_range.1);
            y += h + 2.0 * legend_margin + BLOCK_GAP;
        }
        if let Some(block) = &caption {
            block.draw(
                centred(block.width),
                y + caption_margin,
                Align::Center,
                self.style.caption_color.unwrap_or(theme.font_color),
                &mut items,
            );
            y += block.height + 2.0 * caption_margin + BLOCK_GAP;
        }
        if let Some((block, align)) = &footer {
            let room = self.style.footer_margin;
            let x = aligned(block.width, align.unwrap_or(HorizontalAlign::Center), room);
            block.draw(x, y + room, Align::Left, theme.header_color, &mut items);
            y += room + block.height + room + BLOCK_GAP;
        }
        self.trim_runs(&mut items);
        // Anything left of or above a 5 px margin moves the whole page.
        let (lo, _) = items_x_range(&items).unwrap_or((left, right));
        let (top, _) = items_y_range(&items).unwrap_or((0.0, y));
        let dx = if lo < 5.0 { 5.0 - lo } else { 0.0 };
        let dy = if top < 5.0 { 5.0 - top } else { 0.0 };
        if dx != 0.0 || dy != 0.0 {
            for item in &mut items {
                shift_item(item, dx, dy);
            }
        }
        let mut scene = Scene {
            width: round3((right + BLOCK_GAP + page_margin + dx).ceil().max(1.0)),
            height: round3((y + page_margin + dy).ceil().max(1.0)),
            background: theme.background,
            items,
        };
        crate::shapes::fade_page(&mut scene, theme.fades.page);
        scene
    }

    /// PlantUML's notices for the actions coloured the deprecated way
    /// (`#color:text…;`), if any.
    fn deprecation_notices(&self, diagram: &Diagram) -> Option<NoticeBox> {
        let notices = &diagram.activity.as_ref()?.deprecation_notices;
        if notices.is_empty() {
            return None;
        }
        let font = Font {
            family: FontFamily::Mono,
            ..Font::sans(10.0)
        };
        // One line per notice: PlantUML collects them in a set, in the
        // order first met (four `#LightBlue:` actions, one line: corpus
        // activity 028).
        let lines: Vec<(String, f64)> = notices
            .iter()
            .map(|text| (text.clone(), self.metrics.width(text, &font)))
            .collect();
        let widest = lines.iter().map(|(_, w)| *w).fold(0.0, f64::max);
        Some(NoticeBox {
            width: NoticeBox::LEFT + NoticeBox::TEXT_LEFT + widest + NoticeBox::TEXT_RIGHT + NoticeBox::RIGHT,
            lines,
            font,
        })
    }

    /// PlantUML draws the words of a line without the spaces around a run
    /// (`a **b** c` is three texts `a`, `b`, `c`): trim each run, moving
    /// its start past the leading spaces.
    fn trim_runs(&self, items: &mut [Item]) {
        for item in items {
            if let Item::Text(t) = item {
                let trimmed_start = t.text.trim_start();
                if trimmed_start.len() != t.text.len() {
                    let lead = &t.text[..t.text.len() - trimmed_start.len()];
                    let dx = self.metrics.width(lead, &t.font);
                    t.x = round3(t.x + dx);
                    t.width = round3((t.width - dx).max(0.0));
                    t.text = trimmed_start.to_string();
                }
                let trimmed_end = t.text.trim_end();
                if trimmed_end.len() != t.text.len() {
                    let tail = &t.text[trimmed_end.len()..];
                    let dw = self.metrics.width(tail, &t.font);
                    t.width = round3((t.width - dw).max(0.0));
                    t.text = trimmed_end.to_string();
                }
            }
        }
    }

    fn legend(&self, out: &mut Vec<Item>, legend: &puml_sema::model::Legend, top: f64, min_x: f64, max_x: f64) -> f64 {
        // (in the theme's legend face and colour: cerulean's is #343A40 Verdana)
        let block = self.text(&legend.text, self.theme.font_of(TextElement::Legend, 14.0));
        let pad = self.style.legend_padding;
        let (w, h) = (block.width + 2.0 * pad, block.height + 2.0 * pad);
        let x = match legend.horizontal {
            Some(HorizontalAlign::Left) => min_x,
            Some(HorizontalAlign::Right) => max_x - w,
            _ => (min_x + max_x) / 2.0 - w / 2.0,
        };
        out.push(Item::Begin {
            class: "legend".into(),
            title: None,
            link: None,
            data: Vec::new(),
        });
        rect(out, x, top, w, h, 7.5, {
            let (fill, gradient) = self.theme.legend_fill();
            crate::shapes::fading_or_none(fill, gradient, Some(stroke(self.theme.legend_border, 1.0)))
        });
        block.draw(x + pad, top + pad, Align::Left, self.theme.legend_font_color, out);
        out.push(Item::End);
        h
    }
}

impl Tile {
    /// Keeps `out_y` within the tile.
    fn pad_bottom(mut self) -> Tile {
        self.h = self.h.max(self.out_y);
        self
    }
}

/// PlantUML's box of notices above an activity diagram (observed in
/// 1.2026.8, probes `deprecated_action_color`): a pale yellow box with a
/// thick light orange border, 3 px inside the page's column and as wide as
/// it, one 10 pt monospaced line per notice, 21.64 px apart; it is a block
/// of the page's stack after the title and a top legend.
struct NoticeBox {
    /// The room the box asks of the page's column.
    width: f64,
    lines: Vec<(String, f64)>,
    font: Font,
}

impl NoticeBox {
    /// From the column's left edge to the box, and from the box to the
    /// column's right edge.
    const LEFT: f64 = 3.0;
    const RIGHT: f64 = 6.0;
    /// From the box's left edge to its text, and from its widest text to
    /// its right edge.
    const TEXT_LEFT: f64 = 7.0;
    const TEXT_RIGHT: f64 = 3.0;
    const TOP: f64 = 3.0;
    const BOTTOM: f64 = 1.0;
    const ONE_LINE_HEIGHT: f64 = 16.641;
    const LINE_PITCH: f64 = 21.64;
    const BASELINE: f64 = 10.641;

    /// Draws the box in a column starting at `left`, `column_width` wide,
    /// from `top`; returns the height it takes.
    fn draw(&self, left: f64, column_width: f64, top: f64, out: &mut Vec<Item>) -> f64 {
        let box_top = top + Self::TOP;
        let height = Self::ONE_LINE_HEIGHT + Self::LINE_PITCH * (self.lines.len().saturating_sub(1)) as f64;
        rect(
            out,
            left + Self::LEFT,
            box_top,
            column_width - Self::LEFT - Self::RIGHT,
            height,
            2.5,
            paint(Some(Color::hex(0xFFFFCC)), Some(stroke(Color::hex(0xFFDD88), 3.0))),
        );
        for (i, (text, width)) in self.lines.iter().enumerate() {
            out.push(Item::Text(TextRun {
                x: round3(left + Self::LEFT + Self::TEXT_LEFT),
                y: round3(box_top + Self::BASELINE + Self::LINE_PITCH * i as f64),
                width: round3(*width),
                text: text.clone(),
                font: self.font,
                color: Color::BLACK,
                underline: false,
                strike: false,
                link: None,
            }));
        }
        Self::TOP + height + Self::BOTTOM
    }
}
