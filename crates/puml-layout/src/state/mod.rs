//! State diagrams: `StateDiagram` → `Scene`, the way PlantUML 1.2026.8's
//! svek step draws them. A composite state is laid out on its own first
//! (PlantUML hands each composite's contents to `dot` as a graph of its
//! own and draws the result as one node of the graph around it): the
//! levels are laid out deepest first, each concurrent region as a graph
//! of its own, regions stacked (`--`) or side by side (`||`) with a dashed
//! separator. A transition between states of different composites is
//! drawn between their ancestors on the deepest level both lie in.
//!
//! Shapes and sizes observed in PlantUML's SVGs: a state is a rounded box
//! (radius 12.5) at least 50 × 50, its name in a 26.297 px bar, each
//! description line 16.297 px, 10 px of padding, text + 20 px wide; `[*]`
//! a 20 px disc as a source, a 22 px bullseye as a target; a choice a 24
//! px diamond; fork and join 80 × 8 bars; history circles 22 px with `H`
//! or `H*`; entry and exit points 12 px circles. Arrows, notes, the title
//! and the legend are drawn with the class layout's code (its look gives
//! the default colours, which state diagrams share).
//!
//! Work is bounded: every walk over the composites uses an explicit stack,
//! nesting is bounded by the parser, and the engine has its own caps; a
//! level the engine refuses is drawn as a row.

use crate::class::draw::{
    add_banner, add_legend, add_title, bezier_segments, decoration, direction_at, draw_note, marker_name, numbered,
};
use crate::class::look::ClassLook;
use crate::color::parse_color;
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, Item, Scene, TextRun};
use crate::shapes::{dashed, ellipse, line, paint, polygon, rect, stroke, PathBuilder};
use crate::LayoutOptions;
use puml_graph::{Cluster, Edge, Graph, GraphOptions, Layout, Node, Point, RankDir, Rect, Size};
use puml_sema::class::LinkHead;
use puml_sema::model::Diagram;
use puml_sema::state::{Direction, NoteTarget, StateDiagram, StateId, StateKind};

/// PlantUML's margin around the drawing.
const MARGIN: f64 = 7.0;
/// A composite's contents start this far right of and below its bar.
const INNER_LEFT: f64 = 12.0;
const INNER_TOP: f64 = 12.0;
/// A composite is this much wider and taller than its contents and bar.
const INNER_EXTRA_WIDTH: f64 = 36.0;
const INNER_EXTRA_HEIGHT: f64 = 25.0;
/// The gap between two stacked (`--`) or side-by-side (`||`) regions.
const REGION_GAP_STACKED: f64 = 15.0;
const REGION_GAP_SIDE: f64 = 16.0;
/// dot's separations inside a composite (its own graph): `ranksep` 0.5
/// in, `nodesep` 0.25 in (observed: 36 px between ranks, 18 px between
/// the boxes of a rank).
const INNER_RANK_SEP: f64 = 36.0;
const INNER_NODE_SEP: f64 = 18.0;

/// The colours and fonts states are drawn with.
struct StateLook {
    base: ClassLook,
    background: Color,
    border: Color,
    font_color: Color,
    font: Font,
    pseudo: Color,
    bar: Color,
    /// A text line's height in the state font (16.297 px at 14 px).
    line_height: f64,
    /// The name bar's height: a line and 10 px.
    name_bar: f64,
    /// A name's baseline below the box's top: 5 px and the ascent.
    baseline: f64,
}

impl StateLook {
    fn new(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> StateLook {
        let base = ClassLook::new(diagram, options.theme.as_deref());
        let mut look = StateLook {
            background: base.class_bg,
            border: base.class_border,
            font_color: base.class_font_color,
            font: base.member_font,
            pseudo: Color::hex(0x222222),
            bar: Color::hex(0x555555),
            base,
            line_height: 0.0,
            name_bar: 0.0,
            baseline: 0.0,
        };
        for (key, value) in &diagram.settings.skinparams {
            let color = parse_color(value.trim());
            match key.as_str() {
                "statebackgroundcolor" => look.background = color.unwrap_or(look.background),
                "statebordercolor" => look.border = color.unwrap_or(look.border),
                "statefontcolor" => look.font_color = color.unwrap_or(look.font_color),
                "statestartcolor" | "stateendcolor" => look.pseudo = color.unwrap_or(look.pseudo),
                "statefontsize" => {
                    if let Some(size) = value.trim().parse::<f64>().ok().filter(|n| *n > 0.0 && *n < 200.0) {
                        look.font.size = size;
                    }
                }
                _ => {}
            }
        }
        look.line_height = metrics.line_height(&look.font);
        look.name_bar = look.line_height + 10.0;
        look.baseline = 5.0 + metrics.ascent(&look.font);
        look
    }
}

/// Where a level of the drawing is: a composite's region, or the top.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct LevelKey {
    parent: Option<StateId>,
    region: u32,
}

/// One level laid out: its nodes (states and notes) and edges.
struct LevelLayout {
    /// The states on this level, in node order (node `k` is `states[k]`).
    states: Vec<StateId>,
    /// (note, node) for the notes on this level.
    /// (note, node) for the notes on this level.
    notes: Vec<(usize, usize)>,
    /// (transition, edge, runs from the written `to` to `from`, label box).
    edges: Vec<(usize, usize, bool, Option<Size>)>,
    layout: Layout,
    /// The composites drawn as clusters of this level (see `opened`):
    /// (composite, the cluster its frame is).
    frames: Vec<(StateId, Rect)>,
    /// The offset that brings the layout's boxes to (0, 0).
    min: (f64, f64),
    size: (f64, f64),
}

/// Lays out a state diagram (one page).
pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let empty = StateDiagram::default();
    let state = diagram.state.as_deref().unwrap_or(&empty);
    let look = StateLook::new(diagram, options, metrics);
    vec![draw(diagram, state, &look, metrics)]
}

/// The ancestors of `id`, itself first (bounded by the state count).
fn chain(state: &StateDiagram, id: StateId) -> Vec<StateId> {
    let mut out = vec![id];
    let mut at = state.states.get(id.index()).and_then(|s| s.parent);
    while let Some(p) = at {
        if out.len() > state.states.len() {
            break;
        }
        out.push(p);
        at = state.states.get(p.index()).and_then(|s| s.parent);
    }
    out
}

fn level_of(state: &StateDiagram, id: StateId) -> LevelKey {
    let s = &state.states[id.index()];
    LevelKey {
        parent: s.parent,
        region: s.region,
    }
}

/// The two states a transition is drawn between: the ends' ancestors on
/// the deepest level both lie in.
fn drawn_ends(state: &StateDiagram, from: StateId, to: StateId) -> Option<(StateId, StateId)> {
    let to_chain = chain(state, to);
    for f in chain(state, from) {
        let level = level_of(state, f);
        if let Some(t) = to_chain.iter().find(|t| level_of(state, **t) == level) {
            return Some((f, *t));
        }
    }
    None
}

fn state_text_lines(text: &str) -> Vec<String> {
    text.split("\\n").map(|l| l.trim().to_string()).collect()
}

/// A leaf state's size.
fn leaf_size(state: &StateDiagram, id: StateId, look: &StateLook, metrics: &dyn TextMeasure) -> (f64, f64) {
    let s = &state.states[id.index()];
    let sideways = state.left_to_right;
    match s.kind {
        StateKind::Start => (20.0, 20.0),
        StateKind::End => (22.0, 22.0),
        StateKind::Choice => (24.0, 24.0),
        StateKind::Fork | StateKind::Join => {
            if sideways {
                (8.0, 80.0)
            } else {
                (80.0, 8.0)
            }
        }
        StateKind::History | StateKind::DeepHistory => (22.0, 22.0),
        StateKind::EntryPoint | StateKind::ExitPoint | StateKind::Pin => (12.0, 12.0),
        StateKind::Normal => {
            let name_w: f64 = state_text_lines(&s.display)
                .iter()
                .map(|l| metrics.width(l, &look.font))
                .fold(0.0, f64::max);
            let lines: Vec<String> = s.description.iter().flat_map(|d| state_text_lines(d)).collect();
            let desc_w = lines.iter().map(|l| metrics.width(l, &look.font)).fold(0.0, f64::max);
            let width = (name_w.max(desc_w) + 20.0).max(50.0);
            let height = if lines.is_empty() && hides_its_bar(state, id) {
                // `hide empty description`: no bar, a 40 px box (observed).
                EMPTY_HIDDEN_HEIGHT
            } else if lines.is_empty() {
                50.0
            } else {
                (look.name_bar + look.line_height * lines.len() as f64 + 10.0).max(50.0)
            };
            (width, height)
        }
    }
}

/// A state without description under `hide empty description`: no name
/// bar, its name in the middle of a box this tall (PlantUML 1.2026.8).
const EMPTY_HIDDEN_HEIGHT: f64 = 40.0;

/// Whether a plain state is drawn without its name bar: `hide empty
/// description` and no description line (a one-line name).
fn hides_its_bar(state: &StateDiagram, id: StateId) -> bool {
    let s = &state.states[id.index()];
    state.hide_empty_description
        && s.kind == StateKind::Normal
        && s.description.is_empty()
        && !s.display.contains("\\n")
}

struct Measured {
    /// Per note: its size and lines.
    notes: Vec<((f64, f64), Vec<String>)>,
    /// The levels laid out, with their keys.
    levels: Vec<(LevelKey, LevelLayout)>,
}

fn note_size(text: &str, look: &StateLook, metrics: &dyn TextMeasure) -> ((f64, f64), Vec<String>) {
    let font = look.base.note_font;
    let lines: Vec<String> = text
        .split('\n')
        .flat_map(|l| l.split("\\n"))
        // A block note's lines are written indented: PlantUML drops the
        // blanks around each line.
        .map(|l| l.trim().to_string())
        .collect();
    let w = lines.iter().map(|l| metrics.width(l, &font)).fold(0.0, f64::max);
    (
        (w + 21.0, metrics.line_height(&font) * lines.len() as f64 + 10.0),
        lines,
    )
}

/// Dot's margin around a cluster's contents (8 points, 1 px each).
const CLUSTER_MARGIN: f64 = 8.0;
/// The height PlantUML gives a composite's title box in `svek.dot`.
const CLUSTER_LABEL_HEIGHT: f64 = 11.0;
/// The point node a transition to an opened composite reaches
/// (`shape=point,width=.01`).
const POINT_SIZE: f64 = 0.72;

/// The composites PlantUML makes clusters of the graph around them rather
/// than laying them out alone: those a transition crosses (one end inside,
/// the other outside) and those holding entry or exit points. Only
/// composites of one region open (regions are laid out alone).
fn opened_composites(state: &StateDiagram) -> Vec<bool> {
    let n = state.states.len();
    let mut opened = vec![false; n];
    let single_region = |id: StateId| state.states[id.index()].region_separators.is_empty();
    for s in &state.states {
        if is_pin(s.kind) {
            if let Some(p) = s.parent.filter(|p| single_region(*p)) {
                opened[p.index()] = true;
            }
        }
    }
    for t in &state.transitions {
        let (from_chain, to_chain) = (chain(state, t.from), chain(state, t.to));
        // A composite holding one end strictly inside and not the other.
        for (inside, other) in [(&from_chain, &to_chain), (&to_chain, &from_chain)] {
            for &c in &inside[1..] {
                if !other[1..].contains(&c) && single_region(c) {
                    opened[c.index()] = true;
                }
            }
        }
    }
    opened
}

/// The note written `note on link` after transition `t`, if any.
fn link_note(state: &StateDiagram, t: usize) -> Option<usize> {
    state
        .notes
        .iter()
        .position(|n| n.target == NoteTarget::Transition(t as u32))
}

/// An entry or exit point: set on its composite's frame.
fn is_pin(kind: StateKind) -> bool {
    matches!(kind, StateKind::EntryPoint | StateKind::ExitPoint)
}

/// Where a state is drawn: the level it lies in, or (when its composite is
/// opened) the level its composite is drawn in.
fn visible_level(state: &StateDiagram, id: StateId, opened: &[bool]) -> LevelKey {
    let mut at = id;
    for _ in 0..=state.states.len() {
        let key = level_of(state, at);
        match key.parent {
            Some(p) if opened[p.index()] => at = p,
            _ => return key,
        }
    }
    level_of(state, id)
}

/// Lays out one level: the states on it, the notes beside them, the
/// transitions drawn between them.
#[allow(clippy::too_many_arguments)]
fn layout_level(
    state: &StateDiagram,
    key: LevelKey,
    opened: &[bool],
    sizes: &[(f64, f64)],
    notes: &[((f64, f64), Vec<String>)],
    look: &StateLook,
    metrics: &dyn TextMeasure,
) -> LevelLayout {
    let top = key.parent.is_none();
    let mut graph = Graph {
        options: GraphOptions {
            rank_dir: if state.left_to_right {
                RankDir::LeftToRight
            } else {
                RankDir::TopToBottom
            },
            node_sep: if top { look.base.node_sep } else { INNER_NODE_SEP },
            rank_sep: if top { look.base.rank_sep } else { INNER_RANK_SEP },
        },
        ..Graph::default()
    };
    let mut node_of = vec![None; state.states.len()];
    let mut states = Vec::new();
    // PlantUML gives dot the states first, then the `[*]` and `[H]`
    // pseudo-states (observed in `svek.dot`: the start disc's node comes
    // after every state's, whatever the order they were written in).
    let on_level = |i: usize| visible_level(state, StateId(i as u32), opened) == key;
    let is_pseudo = |s: &puml_sema::state::State| s.name.starts_with('*');
    // Opened composites on this level: a chain of clusters each, parents
    // first (PlantUML's `clusterNp0` > `clusterN` with the title >
    // `clusterNp1`, and around a composite a transition ends at,
    // `clusterNa` outside and `clusterNi` inside the titled one with a
    // point node for the transition to reach).
    let mut frames = Vec::new();
    let mut contents_of: Vec<Option<usize>> = vec![None; state.states.len()];
    let mut point_of: Vec<Option<usize>> = vec![None; state.states.len()];
    let mut pins_of: Vec<Option<usize>> = vec![None; state.states.len()];
    let linked: Vec<bool> = {
        let mut v = vec![false; state.states.len()];
        for t in &state.transitions {
            v[t.from.index()] = true;
            v[t.to.index()] = true;
        }
        v
    };
    let mut open_here: Vec<usize> = (0..state.states.len()).filter(|&i| opened[i] && on_level(i)).collect();
    open_here.sort_by_key(|&i| state.depth(StateId(i as u32)));
    for &i in &open_here {
        let parent = state.states[i].parent.and_then(|p| contents_of[p.index()]);
        let title_w = metrics.width(&state.states[i].display, &look.font);
        // A composite with entry or exit points: the points in a cluster
        // of their own around the titled one holding the rest (PlantUML's
        // `clusterN` and `clusterNee`).
        let has_pins = state
            .states
            .iter()
            .any(|c| c.parent == Some(StateId(i as u32)) && is_pin(c.kind));
        if has_pins {
            let frame = graph.add_cluster(Cluster {
                parent,
                label: None,
                margin: CLUSTER_MARGIN,
            });
            pins_of[i] = Some(frame);
            contents_of[i] = Some(graph.add_cluster(Cluster {
                parent: Some(frame),
                label: Some(Size::new(title_w.floor(), CLUSTER_LABEL_HEIGHT)),
                margin: CLUSTER_MARGIN,
            }));
            frames.push((StateId(i as u32), frame));
            continue;
        }
        let parent = if linked[i] {
            Some(graph.add_cluster(Cluster {
                parent,
                label: None,
                margin: CLUSTER_MARGIN,
            }))
        } else {
            parent
        };
        let outer = graph.add_cluster(Cluster {
            parent,
            label: None,
            margin: CLUSTER_MARGIN,
        });
        let titled = graph.add_cluster(Cluster {
            parent: Some(outer),
            label: Some(Size::new(title_w.floor(), CLUSTER_LABEL_HEIGHT)),
            margin: CLUSTER_MARGIN,
        });
        let mut contents_parent = titled;
        if linked[i] {
            contents_parent = graph.add_cluster(Cluster {
                parent: Some(titled),
                label: None,
                margin: CLUSTER_MARGIN,
            });
        }
        contents_of[i] = Some(graph.add_cluster(Cluster {
            parent: Some(contents_parent),
            label: None,
            margin: CLUSTER_MARGIN,
        }));
        frames.push((StateId(i as u32), titled));
    }
    let cluster_of = |i: usize| {
        let s = &state.states[i];
        s.parent.and_then(|p| {
            if is_pin(s.kind) {
                pins_of[p.index()].or(contents_of[p.index()])
            } else {
                contents_of[p.index()]
            }
        })
    };
    // In creation order (PlantUML's svek.dot lists its nodes so).
    let mut by_creation: Vec<usize> = (0..state.states.len()).collect();
    by_creation.sort_by_key(|&i| state.states[i].serial);
    for pseudo in [false, true] {
        for &i in &by_creation {
            let s = &state.states[i];
            if on_level(i) && !opened[i] && is_pseudo(s) == pseudo {
                let (w, h) = sizes[i];
                let mut node = Node::new(w, h);
                node.cluster = cluster_of(i);
                node_of[i] = Some(graph.add_node(node));
                states.push(StateId(i as u32));
            }
        }
    }
    // The point of an opened composite stands for it (after the states:
    // node `k` is `states[k]`).
    for &(id, titled) in &frames {
        if linked[id.index()] {
            let mut point = Node::new(POINT_SIZE, POINT_SIZE);
            point.cluster = Some(titled);
            point_of[id.index()] = Some(graph.add_node(point));
        }
    }
    for i in 0..state.states.len() {
        if node_of[i].is_none() {
            node_of[i] = point_of[i];
        }
    }
    let mut level_notes = Vec::new();
    let mut note_edges = Vec::new();
    for (n, note) in state.notes.iter().enumerate() {
        let (w, h) = notes[n].0;
        match &note.target {
            NoteTarget::State { state: target, side } => {
                let Some(target_node) = node_of.get(target.index()).copied().flatten() else {
                    continue;
                };
                let mut node = Node::new(w, h);
                node.cluster = cluster_of(target.index());
                let node = graph.add_node(node);
                // A note beside its state shares its rank; one above or
                // below is a rank away. Left to right, ranks run across
                // (PlantUML's `svek.dot`: `minlen=1` for a left note).
                let (beside, across) = if state.left_to_right { (1, 0) } else { (0, 1) };
                let (tail, head, min_len) = match side {
                    Direction::Right => (target_node, node, beside),
                    Direction::Left => (node, target_node, beside),
                    Direction::Up => (node, target_node, across),
                    Direction::Down => (target_node, node, across),
                };
                let mut edge = Edge::new(tail, head);
                edge.min_len = min_len;
                note_edges.push(graph.edges.len());
                level_notes.push((n, node));
                graph.edges.push(edge);
            }
            NoteTarget::Floating { .. } if note.parent == key.parent && key.region == 0 => {
                let node = graph.add_node(Node::new(w, h));
                level_notes.push((n, node));
            }
            _ => {}
        }
    }
    let arrow_font = look.base.arrow_font;
    let arrow_lh = metrics.line_height(&arrow_font);
    let mut edges = Vec::new();
    // The node an end is drawn at on this level: itself, else its nearest
    // ancestor drawn here (a composite laid out alone, an opened one's point).
    let drawn_at = |id: StateId| chain(state, id).into_iter().find_map(|c| node_of[c.index()]);
    for (t, transition) in state.transitions.iter().enumerate() {
        let Some((from, _)) = drawn_ends(state, transition.from, transition.to) else {
            continue;
        };
        if visible_level(state, from, opened) != key {
            continue;
        }
        let (Some(from_node), Some(to_node)) = (drawn_at(transition.from), drawn_at(transition.to)) else {
            continue;
        };
        // `A <-- B` keeps its ends in the graph, one rank shorter (observed:
        // `<-` and `<--` both give `minlen=0`).
        let mut min_len = if transition.head_on_left {
            transition.length.saturating_sub(2)
        } else {
            transition.length.saturating_sub(1)
        };
        let mut reversed = false;
        match transition.direction {
            Some(Direction::Up) => {
                reversed = true;
                min_len = min_len.max(1);
            }
            Some(Direction::Down) => min_len = min_len.max(1),
            Some(Direction::Left) => {
                reversed = true;
                min_len = 0;
            }
            Some(Direction::Right) => min_len = 0,
            None => {}
        }
        let (tail, head) = if reversed {
            (to_node, from_node)
        } else {
            (from_node, to_node)
        };
        let mut edge = Edge::new(tail, head);
        edge.min_len = min_len;
        let text_box = transition.label.as_deref().map(|label| {
            let lines = state_text_lines(label);
            let w = lines
                .iter()
                .map(|l| crate::creole::measure_width(l, arrow_font, metrics))
                .fold(0.0, f64::max);
            let room = if from_node == to_node { 10.0 } else { 0.0 };
            (w + 2.0 + room, arrow_lh * lines.len() as f64 + 2.0 + room)
        });
        // `note on link`: the note joins the label, under its text
        // (observed: 6 px below the text, 5 px of room under the note).
        edge.label = match (text_box, link_note(state, t).map(|n| notes[n].0)) {
            (Some((w, h)), Some((nw, nh))) => Some(Size::new(w.max(nw).floor(), (h + 4.0 + nh + 5.0).floor())),
            (None, Some((nw, nh))) => Some(Size::new(nw.floor(), (nh + 10.0).floor())),
            (Some((w, h)), None) => Some(Size::new(w.floor(), h.floor())),
            (None, None) => None,
        };
        let id = graph.edges.len();
        let label = edge.label;
        graph.edges.push(edge);
        edges.push((t, id, reversed, label));
    }
    // PlantUML writes `svek.dot` in an order of its own, and dot's initial
    // order (so which component lands left) follows it: first the node at
    // the head of each inverted transition (`-up->`, `-left->`, `<-`), the
    // last written first; then the ends of the edges of length 0 (flat
    // transitions, then notes beside their state); then the other nodes.
    let mut first: Vec<usize> = Vec::new();
    for &(t, id, reversed, _) in edges.iter().rev() {
        if reversed || state.transitions[t].head_on_left {
            let tail = graph.edges[id].tail;
            if !first.contains(&tail) {
                first.push(tail);
            }
        }
    }
    let flat = edges.iter().map(|e| e.1).chain(note_edges.iter().copied());
    for id in flat.filter(|&id| graph.edges[id].min_len == 0) {
        for end in [graph.edges[id].tail, graph.edges[id].head] {
            if !first.contains(&end) {
                first.push(end);
            }
        }
    }
    let layout = layout_in_order(&graph, &first);
    // The level's extent: its boxes, its edges' routes and their labels.
    let (mut min_x, mut min_y, mut max_x, mut max_y) =
        (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut extend = |x0: f64, y0: f64, x1: f64, y1: f64| {
        min_x = min_x.min(x0);
        min_y = min_y.min(y0);
        max_x = max_x.max(x1);
        max_y = max_y.max(y1);
    };
    for r in &layout.nodes {
        extend(r.x, r.y, r.x + r.width, r.y + r.height);
    }
    // The frames: each opened composite's titled cluster, from its entry
    // points' centres to its exit points' (PlantUML sets them on the
    // frame's top and bottom edges).
    let frames: Vec<(StateId, Rect)> = frames
        .iter()
        .filter_map(|&(id, cluster)| {
            let mut r = layout.clusters.get(cluster).copied().filter(|r| r.width > 0.0)?;
            if !state.left_to_right {
                let pins = |kind: StateKind| {
                    states
                        .iter()
                        .enumerate()
                        .filter(move |(_, s)| {
                            let pin = &state.states[s.index()];
                            pin.parent == Some(id) && pin.kind == kind
                        })
                        .filter_map(|(k, _)| layout.nodes.get(k).map(|n| n.y + n.height / 2.0))
                };
                let bottom = r.y + r.height;
                if let Some(top) = pins(StateKind::EntryPoint).reduce(f64::min) {
                    r.y = top;
                }
                let bottom = pins(StateKind::ExitPoint).reduce(f64::max).unwrap_or(bottom);
                r.height = (bottom - r.y).max(0.0);
            }
            Some((id, r))
        })
        .collect();
    for (_, r) in &frames {
        extend(r.x, r.y, r.x + r.width, r.y + r.height);
    }
    for (edge, route) in graph.edges.iter().zip(&layout.edges) {
        for p in &route.points {
            extend(p.x, p.y, p.x, p.y);
        }
        if let (Some(size), Some(c)) = (edge.label, route.label) {
            extend(
                c.x - size.width / 2.0,
                c.y - size.height / 2.0,
                c.x + size.width / 2.0,
                c.y + size.height / 2.0,
            );
        }
    }
    if !min_x.is_finite() {
        (min_x, min_y, max_x, max_y) = (0.0, 0.0, 0.0, 0.0);
    }
    // A level whose top is a `[*]` start disc comes out 1 px higher and 1 px
    // shorter in PlantUML's pictures, at the top as inside a composite
    // (observed on every probe starting so: the disc at y 6 where a state
    // would be at 7, a composite's first row 11 px under its bar, not 12).
    let top_nodes: Vec<usize> = (0..states.len())
        .filter(|&k| layout.nodes.get(k).is_some_and(|r| (r.y - min_y).abs() < 0.5))
        .collect();
    let disc_on_top = !top_nodes.is_empty()
        && top_nodes.len()
            == (0..layout.nodes.len())
                .filter(|&k| (layout.nodes[k].y - min_y).abs() < 0.5)
                .count()
        && top_nodes
            .iter()
            .all(|&k| state.states[states[k].index()].kind == StateKind::Start);
    if disc_on_top {
        min_y += 1.0;
    }
    LevelLayout {
        states,
        notes: level_notes,
        edges,
        frames,
        size: ((max_x - min_x).max(0.0), (max_y - min_y).max(0.0)),
        min: (min_x, min_y),
        layout,
    }
}

/// Lays `graph` out with the nodes of `first` handed to the engine before
/// the others (in their order); the layout returned indexes the nodes as
/// `graph` does.
fn layout_in_order(graph: &Graph, first: &[usize]) -> Layout {
    let n = graph.nodes.len();
    let mut order: Vec<usize> = first.iter().copied().filter(|&i| i < n).collect();
    let mut placed = vec![false; n];
    for &i in &order {
        placed[i] = true;
    }
    order.extend((0..n).filter(|&i| !placed[i]));
    if order.iter().enumerate().all(|(k, &i)| k == i) {
        return crate::graph_layout_or(graph, row);
    }
    let mut position = vec![0; n];
    for (k, &i) in order.iter().enumerate() {
        position[i] = k;
    }
    let mut reordered = graph.clone();
    reordered.nodes = order.iter().map(|&i| graph.nodes[i].clone()).collect();
    for edge in &mut reordered.edges {
        edge.tail = position[edge.tail];
        edge.head = position[edge.head];
    }
    for group in &mut reordered.same_rank {
        for node in group.iter_mut() {
            *node = position[*node];
        }
    }
    let mut layout = crate::graph_layout_or(&reordered, row);
    let mut nodes = layout.nodes.clone();
    for (k, &i) in order.iter().enumerate() {
        if let Some(r) = layout.nodes.get(k) {
            nodes[i] = *r;
        }
    }
    layout.nodes = nodes;
    layout
}

/// The nodes in one row, no edges routed: what is drawn when the engine
/// refuses a level.
fn row(graph: &Graph) -> Layout {
    let mut layout = Layout::default();
    let mut x = 0.0;
    for node in &graph.nodes {
        layout.nodes.push(Rect {
            x,
            y: 0.0,
            width: node.width,
            height: node.height,
        });
        x += node.width + graph.options.node_sep;
    }
    layout.edges = vec![puml_graph::EdgeRoute::default(); graph.edges.len()];
    layout
}

/// Whether a composite's regions sit side by side (`||`).
fn side_by_side(state: &StateDiagram, id: StateId) -> bool {
    state.states[id.index()].region_separators.first() == Some(&true)
}

fn measure(state: &StateDiagram, look: &StateLook, metrics: &dyn TextMeasure) -> Measured {
    let n = state.states.len();
    let mut sizes: Vec<(f64, f64)> = (0..n)
        .map(|i| leaf_size(state, StateId(i as u32), look, metrics))
        .collect();
    let notes: Vec<_> = state
        .notes
        .iter()
        .map(|note| note_size(&note.text, look, metrics))
        .collect();
    let has_children: Vec<bool> = {
        let mut v = vec![false; n];
        for s in &state.states {
            if let Some(p) = s.parent {
                v[p.index()] = true;
            }
        }
        v
    };
    // Composites deepest first: their sizes are known before their parents'.
    let mut composites: Vec<(usize, StateId)> = (0..n)
        .filter(|&i| state.states[i].composite || has_children[i])
        .map(|i| (state.depth(StateId(i as u32)), StateId(i as u32)))
        .collect();
    composites.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let opened = opened_composites(state);
    let mut levels = Vec::new();
    for &(_, id) in &composites {
        // An opened composite's states are laid out in the level it is
        // drawn in, inside its cluster.
        if opened[id.index()] {
            continue;
        }
        let regions = state.states[id.index()].region_separators.len() as u32 + 1;
        let mut region_sizes = Vec::new();
        for region in 0..regions {
            let key = LevelKey {
                parent: Some(id),
                region,
            };
            let level = layout_level(state, key, &opened, &sizes, &notes, look, metrics);
            region_sizes.push(level.size);
            levels.push((key, level));
        }
        let (content_w, content_h) = if side_by_side(state, id) {
            (
                region_sizes.iter().map(|s| s.0).sum::<f64>() + REGION_GAP_SIDE * (regions - 1) as f64,
                region_sizes.iter().map(|s| s.1).fold(0.0, f64::max),
            )
        } else {
            (
                region_sizes.iter().map(|s| s.0).fold(0.0, f64::max),
                region_sizes.iter().map(|s| s.1).sum::<f64>() + REGION_GAP_STACKED * (regions - 1) as f64,
            )
        };
        let title_w = metrics.width(&state.states[id.index()].display, &look.font) + 20.0;
        sizes[id.index()] = (
            (content_w + INNER_EXTRA_WIDTH).max(title_w).max(50.0),
            (look.name_bar + content_h + INNER_EXTRA_HEIGHT).max(50.0),
        );
    }
    let key = LevelKey {
        parent: None,
        region: 0,
    };
    let top = layout_level(state, key, &opened, &sizes, &notes, look, metrics);
    levels.push((key, top));
    Measured { notes, levels }
}

fn text_run(x: f64, baseline: f64, s: &str, font: Font, color: Color, width: f64) -> Item {
    Item::Text(TextRun {
        x: round3(x),
        y: round3(baseline),
        text: s.to_string(),
        font,
        color,
        width: round3(width),
        underline: false,
        strike: false,
        link: None,
    })
}

fn begin(out: &mut Vec<Item>, class: &str, data: Vec<(String, String)>) {
    out.push(Item::Begin {
        class: class.to_string(),
        title: None,
        link: None,
        data,
    });
}

/// What is left to draw: a level at an origin.
enum Work {
    Level { key: LevelKey, x: f64, y: f64 },
}

fn draw(diagram: &Diagram, state: &StateDiagram, look: &StateLook, metrics: &dyn TextMeasure) -> Scene {
    let measured = measure(state, look, metrics);
    let ids: Vec<String> = state.states.iter().map(|s| numbered("ent", s.serial, 4)).collect();
    let level = |key: LevelKey| measured.levels.iter().find(|(k, _)| *k == key).map(|(_, l)| l);
    let mut out = Vec::new();
    let (mut max_x, mut max_y) = (0.0f64, 0.0f64);
    let mut work = vec![Work::Level {
        key: LevelKey {
            parent: None,
            region: 0,
        },
        x: MARGIN,
        y: MARGIN,
    }];
    let mut guard = 0;
    while let Some(item) = work.pop() {
        guard += 1;
        if guard > 4 * (state.states.len() + 2) * (state.states.len() + 2) {
            break;
        }
        let Work::Level { key, x: ox, y: oy } = item;
        let Some(level) = level(key) else { continue };
        let place = |r: &Rect| Rect {
            x: r.x - level.min.0 + ox,
            y: r.y - level.min.1 + oy,
            width: r.width,
            height: r.height,
        };
        // Opened composites first: their frames lie under their states.
        for (id, frame) in &level.frames {
            let (id, r) = (*id, place(frame));
            max_x = max_x.max(r.x + r.width + MARGIN);
            max_y = max_y.max(r.y + r.height + MARGIN);
            // PlantUML marks a composite drawn as a cluster so.
            begin(
                &mut out,
                "cluster",
                vec![
                    ("data-qualified-name".into(), marker_name(&state.qualified_name(id))),
                    ("id".into(), ids[id.index()].clone()),
                ],
            );
            draw_composite(&mut out, state, id, &r, look, metrics);
            out.push(Item::End);
        }
        for (k, &id) in level.states.iter().enumerate() {
            let Some(r) = level.layout.nodes.get(k).map(place) else {
                continue;
            };
            max_x = max_x.max(r.x + r.width + MARGIN);
            max_y = max_y.max(r.y + r.height + MARGIN);
            let s = &state.states[id.index()];
            let class = match s.kind {
                StateKind::Start => "start_entity",
                StateKind::End => "end_entity",
                _ => "entity",
            };
            begin(
                &mut out,
                class,
                vec![
                    ("data-qualified-name".into(), marker_name(&state.qualified_name(id))),
                    ("id".into(), ids[id.index()].clone()),
                ],
            );
            let composite = measured.levels.iter().any(|(k, _)| k.parent == Some(id));
            if composite {
                draw_composite(&mut out, state, id, &r, look, metrics);
                // Its regions, inside the frame.
                let regions = s.region_separators.len() as u32 + 1;
                let side = side_by_side(state, id);
                let mut at_x = r.x + INNER_LEFT;
                let mut at_y = r.y + look.name_bar + INNER_TOP;
                let mut inner = Vec::new();
                for region in 0..regions {
                    let key = LevelKey {
                        parent: Some(id),
                        region,
                    };
                    let size = level_size(&measured.levels, key);
                    if region > 0 {
                        let s = dashed(look.border, 1.5, 8.0, 10.0);
                        if side {
                            let lx = at_x - REGION_GAP_SIDE / 2.0;
                            line(
                                &mut out,
                                lx,
                                r.y + look.name_bar + 5.0,
                                lx,
                                r.y + r.height - 5.0 + 8.0,
                                s,
                            );
                        } else {
                            let ly = at_y - REGION_GAP_STACKED / 2.0;
                            line(&mut out, r.x + 5.0, ly, r.x + r.width - 7.0, ly, s);
                        }
                    }
                    inner.push(Work::Level { key, x: at_x, y: at_y });
                    if side {
                        at_x += size.0 + REGION_GAP_SIDE;
                    } else {
                        at_y += size.1 + REGION_GAP_STACKED;
                    }
                }
                // The frame's group closes here; the contents are groups of
                // their own, drawn after this level (the frame encloses them).
                out.push(Item::End);
                work.extend(inner.into_iter().rev());
                continue;
            }
            draw_leaf(&mut out, state, id, &r, look, metrics);
            out.push(Item::End);
        }
        // Notes.
        for &(n, node) in &level.notes {
            let Some(r) = level.layout.nodes.get(node).map(place) else {
                continue;
            };
            max_x = max_x.max(r.x + r.width + MARGIN);
            max_y = max_y.max(r.y + r.height + MARGIN);
            let note = &state.notes[n];
            begin(
                &mut out,
                "entity",
                vec![
                    ("data-qualified-name".into(), note_name(state, note)),
                    ("id".into(), numbered("ent", note.serial + 1, 4)),
                ],
            );
            let toward = match &note.target {
                NoteTarget::State { state: target, .. } => level
                    .states
                    .iter()
                    .position(|s| s == target)
                    .and_then(|k| level.layout.nodes.get(k))
                    .map(place),
                _ => None,
            };
            let fill = note.color.as_deref().and_then(parse_color).unwrap_or(look.base.note_bg);
            match toward.filter(|t| t.y + t.height <= r.y || t.y >= r.y + r.height) {
                // Above or below its state: the wedge leaves the top or
                // bottom edge (the class notes point sideways only).
                Some(t) => {
                    // The wedge points where the line between the two
                    // centres leaves the state (dot's edge starts there).
                    let (scx, scy) = (t.x + t.width / 2.0, t.y + t.height / 2.0);
                    let (ncx, ncy) = (r.x + r.width / 2.0, r.y + r.height / 2.0);
                    let border_y = if t.y >= r.y { t.y } else { t.y + t.height };
                    let tip = ((ncy - scy).abs() > 1e-6)
                        .then(|| Point::new(scx + (ncx - scx) * (border_y - scy) / (ncy - scy), border_y));
                    draw_note_vertical(&mut out, &r, fill, &look.base, &t, tip)
                }
                None => draw_note(&mut out, &r, fill, &look.base, toward.as_ref()),
            }
            let font = look.base.note_font;
            let (lh, ascent) = (metrics.line_height(&font), metrics.ascent(&font));
            for (k, l) in measured.notes[n].1.iter().enumerate() {
                let w = metrics.width(l, &font);
                out.push(text_run(
                    r.x + 6.0,
                    r.y + 5.0 + ascent + lh * k as f64,
                    l,
                    font,
                    look.base.note_font_color,
                    w,
                ));
            }
            out.push(Item::End);
        }
        // Transitions.
        for &(t, edge, reversed, label_box) in &level.edges {
            let transition = &state.transitions[t];
            if transition.hidden {
                continue;
            }
            let Some(route) = level.layout.edges.get(edge) else {
                continue;
            };
            if route.points.len() < 2 {
                continue;
            }
            let shift = |p: &Point| Point::new(p.x - level.min.0 + ox, p.y - level.min.1 + oy);
            let mut points: Vec<Point> = route.points.iter().map(shift).collect();
            for p in &points {
                max_x = max_x.max(p.x + MARGIN);
                max_y = max_y.max(p.y + MARGIN);
            }
            // PlantUML names an `-up->` or `-left->` link from its target.
            let (first, second) = if matches!(transition.direction, Some(Direction::Up | Direction::Left)) {
                (transition.to, transition.from)
            } else {
                (transition.from, transition.to)
            };
            begin(
                &mut out,
                "link",
                vec![
                    ("data-entity-1".into(), ids[first.index()].clone()),
                    ("data-entity-2".into(), ids[second.index()].clone()),
                    ("id".into(), numbered("lnk", transition.serial, 0)),
                ],
            );
            // The head is at the written target (`from` for `A <- B`);
            // the route runs tail → head of the graph's edge.
            let head_at_route_end = reversed == transition.head_on_left;
            if !head_at_route_end {
                points.reverse();
            }
            let color = transition
                .color
                .as_deref()
                .and_then(parse_color)
                .unwrap_or(look.base.arrow_color);
            let width = if transition.bold { 2.0 } else { 1.0 };
            let n = points.len();
            let tip = points[n - 1];
            let dir = direction_at(tip, &points[..n - 1]);
            points[n - 1] = Point::new(tip.x - dir.0 * 5.0, tip.y - dir.1 * 5.0);
            let line_stroke = if transition.dashed {
                dashed(color, width, 7.0, 7.0)
            } else if transition.dotted {
                dashed(color, width, 1.0, 3.0)
            } else {
                stroke(color, width)
            };
            out.push(Item::Path {
                segments: bezier_segments(&points),
                paint: paint(None, Some(line_stroke)),
            });
            decoration(&mut out, LinkHead::Arrow, tip, dir, color, width, look.base.background);
            if let (Some(c), Some(size)) = (route.label.as_ref().map(shift), label_box) {
                let font = look.base.arrow_font;
                let lh = metrics.line_height(&font);
                let top = c.y - size.height / 2.0;
                let lines = transition.label.as_deref().map(state_text_lines).unwrap_or_default();
                if let Some(n) = link_note(state, t) {
                    // The note under the label's text, centred.
                    let ((nw, nh), note_lines) = &measured.notes[n];
                    let note_top = if lines.is_empty() {
                        top + 5.0
                    } else {
                        top + 1.0 + lh * lines.len() as f64 + 6.0
                    };
                    let r = Rect {
                        x: c.x - nw / 2.0,
                        y: note_top,
                        width: *nw,
                        height: *nh,
                    };
                    let note = &state.notes[n];
                    let fill = note.color.as_deref().and_then(parse_color).unwrap_or(look.base.note_bg);
                    draw_note(&mut out, &r, fill, &look.base, None);
                    let note_font = look.base.note_font;
                    let (nlh, ascent) = (metrics.line_height(&note_font), metrics.ascent(&note_font));
                    for (k, l) in note_lines.iter().enumerate() {
                        let w = metrics.width(l, &note_font);
                        out.push(text_run(
                            r.x + 6.0,
                            r.y + 5.0 + ascent + nlh * k as f64,
                            l,
                            note_font,
                            look.base.note_font_color,
                            w,
                        ));
                    }
                }
                for (k, l) in lines.iter().enumerate() {
                    // Each line centred in the label's box.
                    let block = crate::creole::measure(l, font, metrics);
                    let x = c.x - block.width / 2.0;
                    block.draw(
                        x,
                        top + 1.0 + lh * k as f64,
                        crate::creole::Align::Left,
                        look.base.arrow_font_color,
                        &mut out,
                    );
                }
                max_x = max_x.max(c.x + size.width / 2.0 + MARGIN);
                max_y = max_y.max(c.y + size.height / 2.0 + MARGIN);
            }
            out.push(Item::End);
        }
    }
    let (width, height) = add_legend(&mut out, diagram, metrics, max_x.max(10.0), max_y.max(10.0));
    let (width, height) = add_title(&mut out, diagram, &look.base, metrics, width, height);
    let (width, height) = add_banner(&mut out, diagram, metrics, width, height);
    Scene {
        width: round3(width),
        height: round3(height),
        background: look.base.background,
        items: out,
    }
}

/// A note above or below the state it is about: a folded corner, and a
/// wedge from its top (or bottom) edge to the state's nearest edge.
pub(crate) fn draw_note_vertical(
    out: &mut Vec<Item>,
    rect: &Rect,
    fill: Color,
    look: &ClassLook,
    toward: &Rect,
    tip: Option<Point>,
) {
    let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height);
    let p = paint(Some(fill), Some(stroke(look.note_border, 0.5)));
    let tip_x = tip
        .map_or(toward.x + toward.width / 2.0, |t| t.x)
        .clamp(toward.x, toward.x + toward.width);
    // The wedge's base: where the line from the tip to the note's centre
    // crosses the note's edge.
    let (ncx, ncy) = (x + w / 2.0, y + h / 2.0);
    let tip_y = if toward.y >= y + h {
        toward.y
    } else {
        toward.y + toward.height
    };
    let edge_y = if toward.y >= y + h { y + h } else { y };
    let along = if (ncy - tip_y).abs() > 1e-6 {
        (edge_y - tip_y) / (ncy - tip_y)
    } else {
        1.0
    };
    let cx = (tip_x + (ncx - tip_x) * along).clamp(x + 8.0, x + w - 18.0);
    let mut builder = PathBuilder::new().move_to(x, y).line_to(x, y + h);
    if toward.y >= y + h {
        // The state is below: the wedge leaves the bottom edge.
        builder = builder
            .line_to(cx - 4.0, y + h)
            .line_to(tip_x, toward.y)
            .line_to(cx + 4.0, y + h);
    }
    builder = builder
        .line_to(x + w, y + h)
        .line_to(x + w, y + 10.0)
        .line_to(x + w - 10.0, y);
    if toward.y + toward.height <= y {
        builder = builder
            .line_to(cx + 4.0, y)
            .line_to(tip_x, toward.y + toward.height)
            .line_to(cx - 4.0, y);
    }
    builder.line_to(x, y).close().push(out, p);
    PathBuilder::new()
        .move_to(x + w - 10.0, y)
        .line_to(x + w - 10.0, y + 10.0)
        .line_to(x + w, y + 10.0)
        .line_to(x + w - 10.0, y)
        .close()
        .push(out, p);
}

/// A note's name in PlantUML's SVG: its alias, or `GMN` and its number,
/// after its composite's qualified name (`Outer.GMN5`).
fn note_name(state: &StateDiagram, note: &puml_sema::state::StateNote) -> String {
    let own = match &note.target {
        NoteTarget::Floating { alias } => alias.clone(),
        _ => format!("GMN{}", note.serial),
    };
    match note.parent {
        Some(parent) => marker_name(&format!("{}.{own}", state.qualified_name(parent))),
        None => marker_name(&own),
    }
}

fn level_size(levels: &[(LevelKey, LevelLayout)], key: LevelKey) -> (f64, f64) {
    levels
        .iter()
        .find(|(k, _)| *k == key)
        .map_or((0.0, 0.0), |(_, l)| l.size)
}

/// A skinparam scoped to one of the state's stereotypes
/// (`skinparam state { BackgroundColor<<hot>> red }`), the last written.
fn stereotyped_color(state: &StateDiagram, id: StateId, look: &StateLook, key: &str) -> Option<Color> {
    let stereotypes = &state.states[id.index()].stereotypes;
    if stereotypes.is_empty() {
        return None;
    }
    look.base
        .stereotyped
        .iter()
        .rev()
        .filter(|(stereo, k, _)| k == key && stereotypes.iter().any(|s| s.trim().eq_ignore_ascii_case(stereo)))
        .find_map(|(_, _, value)| parse_color(value.trim()))
}

fn fill_of(state: &StateDiagram, id: StateId, look: &StateLook) -> Color {
    state.states[id.index()]
        .color
        .as_deref()
        .and_then(parse_color)
        .or_else(|| stereotyped_color(state, id, look, "statebackgroundcolor"))
        .unwrap_or(look.background)
}

fn border_of(state: &StateDiagram, id: StateId, look: &StateLook) -> Color {
    state.states[id.index()]
        .line_color
        .as_deref()
        .and_then(parse_color)
        .or_else(|| stereotyped_color(state, id, look, "statebordercolor"))
        .unwrap_or(look.border)
}

fn font_color_of(state: &StateDiagram, id: StateId, look: &StateLook) -> Color {
    stereotyped_color(state, id, look, "statefontcolor").unwrap_or(look.font_color)
}

/// A composite state's frame: the name bar with its rounded top, the
/// rounded outline, the bar's line and the name.
fn draw_composite(
    out: &mut Vec<Item>,
    state: &StateDiagram,
    id: StateId,
    r: &Rect,
    look: &StateLook,
    metrics: &dyn TextMeasure,
) {
    let s = &state.states[id.index()];
    let fill = fill_of(state, id, look);
    let border = border_of(state, id, look);
    let radius = 12.5;
    let (x, y, w) = (r.x, r.y, r.width);
    PathBuilder::new()
        .move_to(x + radius, y)
        .line_to(x + w - radius, y)
        .cubic_to(x + w - radius * 0.448, y, x + w, y + radius * 0.448, x + w, y + radius)
        .line_to(x + w, y + look.name_bar)
        .line_to(x, y + look.name_bar)
        .line_to(x, y + radius)
        .cubic_to(x, y + radius * 0.448, x + radius * 0.448, y, x + radius, y)
        .push(out, paint(Some(fill), None));
    rect(out, x, y, w, r.height, radius, paint(None, Some(stroke(border, 0.5))));
    line(out, x, y + look.name_bar, x + w, y + look.name_bar, stroke(border, 0.5));
    let name_w = metrics.width(&s.display, &look.font);
    out.push(text_run(
        x + (w - name_w) / 2.0,
        y + look.baseline,
        &s.display,
        look.font,
        font_color_of(state, id, look),
        name_w,
    ));
}

fn draw_leaf(
    out: &mut Vec<Item>,
    state: &StateDiagram,
    id: StateId,
    r: &Rect,
    look: &StateLook,
    metrics: &dyn TextMeasure,
) {
    let s = &state.states[id.index()];
    let (cx, cy) = (r.x + r.width / 2.0, r.y + r.height / 2.0);
    let fill = fill_of(state, id, look);
    let border = border_of(state, id, look);
    match s.kind {
        StateKind::Start => ellipse(
            out,
            cx,
            cy,
            10.0,
            10.0,
            paint(Some(look.pseudo), Some(stroke(look.pseudo, 1.0))),
        ),
        StateKind::End => {
            ellipse(out, cx, cy, 11.0, 11.0, paint(None, Some(stroke(look.pseudo, 1.0))));
            ellipse(
                out,
                cx,
                cy,
                6.0,
                6.0,
                paint(Some(look.pseudo), Some(stroke(look.pseudo, 1.0))),
            );
        }
        StateKind::Choice => polygon(
            out,
            &[
                (cx, r.y),
                (r.x + r.width, cy),
                (cx, r.y + r.height),
                (r.x, cy),
                (cx, r.y),
            ],
            paint(Some(fill), Some(stroke(border, 0.5))),
        ),
        StateKind::Fork | StateKind::Join => {
            rect(out, r.x, r.y, r.width, r.height, 0.0, paint(Some(look.bar), None));
        }
        StateKind::History | StateKind::DeepHistory => {
            ellipse(out, cx, cy, 11.0, 11.0, paint(Some(fill), Some(stroke(border, 0.5))));
            let label = if s.kind == StateKind::History { "H" } else { "H*" };
            let w = metrics.width(label, &look.font);
            out.push(text_run(
                cx - w / 2.0,
                cy + 4.847,
                label,
                look.font,
                font_color_of(state, id, look),
                w,
            ));
        }
        StateKind::EntryPoint | StateKind::ExitPoint => {
            ellipse(out, cx, cy, 6.0, 6.0, paint(Some(fill), Some(stroke(border, 1.5))));
            if s.kind == StateKind::ExitPoint {
                let d = 3.889;
                line(out, cx + d, cy + d, cx - d, cy - d, stroke(border, 1.5));
                line(out, cx + d, cy - d, cx - d, cy + d, stroke(border, 1.5));
            }
            // The name: above an entry point, below an exit point
            // (observed: 12 px over the text's line, or right under).
            let w = metrics.width(&s.display, &look.font);
            let ascent = look.baseline - 5.0;
            let baseline = if s.kind == StateKind::EntryPoint {
                r.y - (look.line_height - ascent) - 12.0
            } else {
                r.y + r.height + ascent
            };
            out.push(text_run(
                cx - w / 2.0,
                baseline,
                &s.display,
                look.font,
                font_color_of(state, id, look),
                w,
            ));
        }
        StateKind::Pin => rect(
            out,
            r.x,
            r.y,
            r.width,
            r.height,
            0.0,
            paint(Some(fill), Some(stroke(border, 1.5))),
        ),
        StateKind::Normal => {
            rect(
                out,
                r.x,
                r.y,
                r.width,
                r.height,
                12.5,
                paint(Some(fill), Some(stroke(border, 0.5))),
            );
            let lines: Vec<String> = s.description.iter().flat_map(|d| state_text_lines(d)).collect();
            let bar_hidden = hides_its_bar(state, id);
            // Without its bar, the name sits in the middle of the box.
            let name_top = if bar_hidden {
                (r.height - look.line_height) / 2.0 - 5.0
            } else {
                0.0
            };
            if !(lines.is_empty() && state.hide_empty_description) {
                line(
                    out,
                    r.x,
                    r.y + look.name_bar,
                    r.x + r.width,
                    r.y + look.name_bar,
                    stroke(border, 0.5),
                );
            }
            for (k, name) in state_text_lines(&s.display).iter().enumerate() {
                let w = metrics.width(name, &look.font);
                out.push(text_run(
                    r.x + (r.width - w) / 2.0,
                    r.y + name_top + look.baseline + look.line_height * k as f64,
                    name,
                    look.font,
                    font_color_of(state, id, look),
                    w,
                ));
            }
            for (k, l) in lines.iter().enumerate() {
                let w = metrics.width(l, &look.font);
                out.push(text_run(
                    r.x + 5.0,
                    r.y + look.name_bar + look.baseline + look.line_height * k as f64,
                    l,
                    look.font,
                    font_color_of(state, id, look),
                    w,
                ));
            }
        }
    }
}
