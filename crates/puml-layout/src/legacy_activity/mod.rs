//! Legacy activity diagrams (`(*) --> "First"`): `LegacyActivityDiagram`
//! → `Scene`, the way PlantUML 1.2026.8's svek step draws them: every
//! activity, diamond, bar and note is a node of one graph handed to the
//! layered engine (`puml-graph`, as PlantUML hands it to dot), each
//! partition a cluster.
//!
//! What PlantUML puts in its `svek.dot` (observed): the start a 20 px
//! circle, the end a 22 px one, an activity a rounded box its text (12 px)
//! wide plus 20 and 33.969 px high, a diamond 24 px, a bar 80 × 8; an
//! arrow's `minlen` is its dashes less one (`->` 0, `-->` 1), `-right->`
//! 0, `-left->` 0 and `-up->` the other way round; an arrow's label is a
//! middle label, a branch condition the head label of the arrow into the
//! diamond; a note a node beside its activity (`minlen=0` right and left,
//! 1 above and below); the edges with `minlen=0` come first. Arrows,
//! notes, the title and the legend are drawn with the class layout's
//! code, the shapes with the colours PlantUML uses.

use crate::class::draw::{
    add_banner, add_legend, add_title, bezier_segments, decoration, direction_at, draw_note, marker_name,
};
use crate::class::look::ClassLook;
use crate::color::parse_color;
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, Item, Scene, TextRun};
use crate::shapes::{dashed, ellipse, line, paint, polygon, rect, stroke};
use crate::LayoutOptions;
use puml_graph::{Cluster, ClusterId, Edge, Graph, GraphOptions, Layout, Node, NodeId, Point, RankDir, Rect, Size};
use puml_sema::class::LinkHead;
use puml_sema::legacy_activity::{LegacyActivityDiagram, LegacyDirection, LegacyNodeKind};
use puml_sema::model::Diagram;

/// PlantUML's margin around the drawing.
const MARGIN: f64 = 7.0;
/// An activity's text is this far inside its box, each side.
const ACTION_PADDING: f64 = 10.0;
const ACTION_RADIUS: f64 = 12.5;
/// A bar's length and thickness.
const BAR_LENGTH: f64 = 80.0;
const BAR_THICKNESS: f64 = 8.0;
/// dot's cluster margin (8 points).
const CLUSTER_MARGIN: f64 = 8.0;

/// The colours and fonts legacy activity diagrams are drawn with.
struct Look {
    base: ClassLook,
    background: Color,
    border: Color,
    font: Font,
    font_color: Color,
    pseudo: Color,
    bar: Color,
    diamond_bg: Color,
    diamond_border: Color,
    partition_border: Color,
    partition_font: Font,
    /// Arrow labels and branch conditions: 11 px (PlantUML's SVGs).
    arrow_font: Font,
    /// dot's `nodesep` and `ranksep` as PlantUML sets them for this kind
    /// (0.277778 and 0.555556 in `svek.dot`), unless a skinparam says.
    node_sep: f64,
    rank_sep: f64,
}

impl Look {
    fn new(diagram: &Diagram, options: &LayoutOptions) -> Look {
        let base = ClassLook::new(diagram, options.theme.as_deref());
        let mut look = Look {
            background: Color::hex(0xF1F1F1),
            border: Color::hex(0x181818),
            font: Font::sans(12.0),
            font_color: Color::hex(0x000000),
            pseudo: Color::hex(0x222222),
            bar: Color::hex(0x555555),
            diamond_bg: Color::hex(0xF1F1F1),
            diamond_border: Color::hex(0x181818),
            partition_border: Color::hex(0x000000),
            partition_font: Font {
                bold: true,
                ..Font::sans(14.0)
            },
            node_sep: 20.0,
            rank_sep: 40.0,
            arrow_font: Font::sans(11.0),
            base,
        };
        let set = |name: &str| diagram.settings.skinparams.iter().any(|(key, _)| key == name);
        if set("nodesep") {
            look.node_sep = look.base.node_sep;
        }
        if set("ranksep") {
            look.rank_sep = look.base.rank_sep;
        }
        for (key, value) in &diagram.settings.skinparams {
            let color = parse_color(value.trim());
            match key.as_str() {
                "nodesep" | "ranksep" => {}
                "activitybackgroundcolor" => look.background = color.unwrap_or(look.background),
                "activitybordercolor" => look.border = color.unwrap_or(look.border),
                "activityfontcolor" => look.font_color = color.unwrap_or(look.font_color),
                "activitystartcolor" | "activityendcolor" => look.pseudo = color.unwrap_or(look.pseudo),
                "activitybarcolor" => look.bar = color.unwrap_or(look.bar),
                "activitydiamondbackgroundcolor" => look.diamond_bg = color.unwrap_or(look.diamond_bg),
                "activitydiamondbordercolor" => look.diamond_border = color.unwrap_or(look.diamond_border),
                "activityfontsize" => {
                    if let Some(size) = value.trim().parse::<f64>().ok().filter(|n| *n > 0.0 && *n < 200.0) {
                        look.font.size = size;
                    }
                }
                _ => {}
            }
        }
        look
    }
}

/// What a graph node stands for.
#[derive(Clone, Copy)]
enum Drawn {
    Node(usize),
    Note(usize),
}

/// The graph built for the engine, and how to read its layout back.
struct Built {
    graph: Graph,
    /// Per graph node, what it draws.
    drawn: Vec<Drawn>,
    /// Per model node, its graph node.
    node_of: Vec<NodeId>,
    /// Per note, its graph node.
    note_of: Vec<NodeId>,
    /// Per link, its edge and whether the edge runs from `to` to `from`.
    link_edges: Vec<(usize, bool)>,
    /// Per partition, its titled cluster and title width.
    partition_clusters: Vec<(ClusterId, f64)>,
}

fn text_lines(text: &str) -> Vec<&str> {
    text.split("\\n").flat_map(|l| l.split('\n')).collect()
}

fn node_size(legacy: &LegacyActivityDiagram, i: usize, look: &Look, metrics: &dyn TextMeasure) -> (f64, f64) {
    let node = &legacy.nodes[i];
    match node.kind {
        LegacyNodeKind::Start => (20.0, 20.0),
        LegacyNodeKind::End => (22.0, 22.0),
        LegacyNodeKind::Branch => (24.0, 24.0),
        LegacyNodeKind::Bar if legacy.left_to_right => (BAR_THICKNESS, BAR_LENGTH),
        LegacyNodeKind::Bar => (BAR_LENGTH, BAR_THICKNESS),
        LegacyNodeKind::Action => {
            let lines = text_lines(&node.display);
            let width = lines
                .iter()
                .map(|l| crate::creole::measure_width(l, look.font, metrics))
                .fold(0.0, f64::max);
            (
                width + 2.0 * ACTION_PADDING,
                metrics.line_height(&look.font) * lines.len() as f64 + 2.0 * ACTION_PADDING,
            )
        }
    }
}

fn note_size(text: &str, look: &Look, metrics: &dyn TextMeasure) -> (f64, f64) {
    let font = look.base.note_font;
    let lines = text_lines(text);
    let width = lines.iter().map(|l| metrics.width(l, &font)).fold(0.0, f64::max);
    (width + 21.0, metrics.line_height(&font) * lines.len() as f64 + 10.0)
}

/// A label's box as PlantUML sizes it in `svek.dot` (whole pixels).
fn label_size(text: &str, look: &Look, metrics: &dyn TextMeasure, extra: f64) -> Size {
    let font = look.arrow_font;
    let lines = text_lines(text);
    let width = lines
        .iter()
        .map(|l| crate::creole::measure_width(l, font, metrics))
        .fold(0.0, f64::max);
    Size::new(
        (width + extra).floor(),
        (metrics.line_height(&font) * lines.len() as f64 + extra).floor(),
    )
}

fn build(legacy: &LegacyActivityDiagram, look: &Look, metrics: &dyn TextMeasure) -> Built {
    let mut graph = Graph {
        options: GraphOptions {
            rank_dir: if legacy.left_to_right {
                RankDir::LeftToRight
            } else {
                RankDir::TopToBottom
            },
            node_sep: look.node_sep,
            rank_sep: look.rank_sep,
        },
        ..Graph::default()
    };
    // Partitions: a cluster holding a titled cluster holding the contents,
    // as PlantUML nests them (`cluster6p0`, `cluster6`, `cluster6p1`).
    let mut partition_clusters: Vec<(ClusterId, f64)> = Vec::with_capacity(legacy.partitions.len());
    let mut contents: Vec<ClusterId> = Vec::with_capacity(legacy.partitions.len());
    for partition in &legacy.partitions {
        let parent = partition.parent.and_then(|p| contents.get(p).copied());
        let outer = graph.add_cluster(Cluster {
            parent,
            label: None,
            margin: CLUSTER_MARGIN,
        });
        let title_w = metrics.width(&partition.name, &look.partition_font);
        let titled = graph.add_cluster(Cluster {
            parent: Some(outer),
            label: Some(Size::new((title_w + 2.0).floor(), 11.0)),
            margin: CLUSTER_MARGIN,
        });
        let inner = graph.add_cluster(Cluster {
            parent: Some(titled),
            label: None,
            margin: CLUSTER_MARGIN,
        });
        partition_clusters.push((titled, title_w));
        contents.push(inner);
    }
    let mut drawn = Vec::new();
    let mut node_of = vec![0; legacy.nodes.len()];
    let mut note_of = vec![0; legacy.notes.len()];
    // The written target of each `-up->` and `-left->` link comes first,
    // the later link's before the earlier's (observed in `svek.dot`).
    let mut first: Vec<usize> = Vec::new();
    for link in &legacy.links {
        if matches!(link.direction, Some(LegacyDirection::Up | LegacyDirection::Left)) && !first.contains(&link.to) {
            first.insert(0, link.to);
        }
    }
    for &i in &first {
        let (w, h) = node_size(legacy, i, look, metrics);
        let mut node = Node::new(w, h);
        node.cluster = legacy.nodes[i].partition.and_then(|p| contents.get(p).copied());
        node_of[i] = graph.add_node(node);
        drawn.push(Drawn::Node(i));
    }
    // Then the nodes in the order PlantUML created them: each note after
    // the nodes written before it.
    let mut notes = legacy.notes.iter().enumerate().peekable();
    // One step past the last node, for the notes written after it.
    for i in (0..legacy.nodes.len()).chain([legacy.nodes.len()]) {
        while let Some((n, note)) = notes.next_if(|(_, note)| note.nodes_before <= i) {
            let (w, h) = note_size(&note.text, look, metrics);
            let mut node = Node::new(w, h);
            node.cluster = legacy
                .nodes
                .get(note.node)
                .and_then(|t| t.partition)
                .and_then(|p| contents.get(p).copied());
            note_of[n] = graph.add_node(node);
            drawn.push(Drawn::Note(n));
        }
        if i == legacy.nodes.len() {
            break;
        }
        if first.contains(&i) {
            continue;
        }
        let (w, h) = node_size(legacy, i, look, metrics);
        let mut node = Node::new(w, h);
        node.cluster = legacy.nodes[i].partition.and_then(|p| contents.get(p).copied());
        node_of[i] = graph.add_node(node);
        drawn.push(Drawn::Node(i));
    }
    // Edges in creation order (each note's after the links written before
    // it), then those with `minlen=0` moved first, as in `svek.dot`.
    let mut edges: Vec<(Edge, Option<(usize, bool)>)> = Vec::new();
    let mut notes = legacy.notes.iter().enumerate().peekable();
    for l in 0..=legacy.links.len() {
        while let Some((n, note)) = notes.next_if(|(_, note)| note.links_before <= l) {
            let Some(&target) = node_of.get(note.node) else {
                continue;
            };
            let node = note_of[n];
            let (tail, head, min_len) = match note.side {
                LegacyDirection::Right => (target, node, 0),
                LegacyDirection::Left => (node, target, 0),
                LegacyDirection::Up => (node, target, 1),
                LegacyDirection::Down => (target, node, 1),
            };
            let mut edge = Edge::new(tail, head);
            edge.min_len = min_len;
            edges.push((edge, None));
        }
        let Some(link) = legacy.links.get(l) else { break };
        let (from, to) = (node_of[link.from], node_of[link.to]);
        let mut min_len = link.length.saturating_sub(1);
        let mut reversed = false;
        match link.direction {
            Some(LegacyDirection::Up) => {
                reversed = true;
                min_len = min_len.max(1);
            }
            Some(LegacyDirection::Down) => min_len = min_len.max(1),
            Some(LegacyDirection::Left) => {
                reversed = true;
                min_len = 0;
            }
            Some(LegacyDirection::Right) => min_len = 0,
            None => {}
        }
        let (tail, head) = if reversed { (to, from) } else { (from, to) };
        let mut edge = Edge::new(tail, head);
        edge.min_len = min_len;
        let self_loop = from == to;
        edge.label = link
            .label
            .as_deref()
            .map(|label| label_size(label, look, metrics, if self_loop { 12.0 } else { 2.0 }));
        edge.head_label = link
            .head_label
            .as_deref()
            .map(|label| label_size(label, look, metrics, 0.0));
        edges.push((edge, Some((l, reversed))));
    }
    edges.sort_by_key(|(edge, _)| edge.min_len != 0);
    let mut link_edges = vec![(0, false); legacy.links.len()];
    for (k, (edge, link)) in edges.into_iter().enumerate() {
        if let Some((l, reversed)) = link {
            link_edges[l] = (k, reversed);
        }
        graph.edges.push(edge);
    }
    // `svek.dot` writes the `minlen=0` edges after the targets of `-up->`
    // and `-left->` links and before every other node, so dot meets their
    // ends there: its node order (and so its initial order within ranks,
    // and which arm of a branch goes left) follows.
    let mut order: Vec<NodeId> = Vec::with_capacity(graph.nodes.len());
    let mut placed = vec![false; graph.nodes.len()];
    let leading = graph.edges.iter().take_while(|e| e.min_len == 0);
    let declared_first = 0..first.len();
    let ends = leading.flat_map(|e| [e.tail, e.head]);
    for v in declared_first.chain(ends).chain(0..graph.nodes.len()) {
        if !placed[v] {
            placed[v] = true;
            order.push(v);
        }
    }
    let mut new_id = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_id[old] = new;
    }
    let mut old_nodes: Vec<Option<Node>> = std::mem::take(&mut graph.nodes).into_iter().map(Some).collect();
    graph.nodes = order.iter().filter_map(|&old| old_nodes[old].take()).collect();
    let mut old_drawn: Vec<Option<Drawn>> = drawn.into_iter().map(Some).collect();
    let drawn: Vec<Drawn> = order.iter().filter_map(|&old| old_drawn[old].take()).collect();
    for edge in &mut graph.edges {
        edge.tail = new_id[edge.tail];
        edge.head = new_id[edge.head];
    }
    for id in node_of.iter_mut().chain(note_of.iter_mut()) {
        *id = new_id[*id];
    }
    Built {
        graph,
        drawn,
        node_of,
        note_of,
        link_edges,
        partition_clusters,
    }
}

/// The nodes in one row, no edges routed: what is drawn when the engine
/// refuses the graph.
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
    layout.clusters = vec![Rect::default(); graph.clusters.len()];
    layout
}

/// Lays out a legacy activity diagram (one page).
pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let empty = LegacyActivityDiagram::default();
    let legacy = diagram.legacy_activity.as_deref().unwrap_or(&empty);
    let look = Look::new(diagram, options);
    vec![draw(diagram, legacy, &look, metrics)]
}

fn begin(out: &mut Vec<Item>, class: &str, data: Vec<(String, String)>) {
    out.push(Item::Begin {
        class: class.to_string(),
        title: None,
        link: None,
        data,
    });
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

/// A node's name in PlantUML's SVG markers.
fn node_name(legacy: &LegacyActivityDiagram, i: usize) -> String {
    let node = &legacy.nodes[i];
    match node.kind {
        LegacyNodeKind::Start => "start".into(),
        LegacyNodeKind::End => "end".into(),
        LegacyNodeKind::Branch => marker_name(&node.code),
        _ => marker_name(&node.code),
    }
}

fn draw(diagram: &Diagram, legacy: &LegacyActivityDiagram, look: &Look, metrics: &dyn TextMeasure) -> Scene {
    let built = build(legacy, look, metrics);
    let layout = crate::graph_layout_or(&built.graph, row);
    // The drawing's extent: boxes, clusters, routes and labels.
    let (mut min_x, mut min_y) = (f64::INFINITY, f64::INFINITY);
    for r in layout.nodes.iter().chain(&layout.clusters) {
        if r.width > 0.0 || r.height > 0.0 {
            min_x = min_x.min(r.x);
            min_y = min_y.min(r.y);
        }
    }
    for (edge, route) in built.graph.edges.iter().zip(&layout.edges) {
        for p in &route.points {
            min_x = min_x.min(p.x);
            min_y = min_y.min(p.y);
        }
        for (size, centre) in [(edge.label, route.label), (edge.head_label, route.head_label)] {
            if let (Some(size), Some(c)) = (size, centre) {
                min_x = min_x.min(c.x - size.width / 2.0);
                min_y = min_y.min(c.y - size.height / 2.0);
            }
        }
    }
    if !min_x.is_finite() {
        (min_x, min_y) = (0.0, 0.0);
    }
    let (dx, dy) = (MARGIN - min_x, MARGIN - min_y);
    let place = |r: &Rect| Rect {
        x: r.x + dx,
        y: r.y + dy,
        width: r.width,
        height: r.height,
    };
    let shift = |p: &Point| Point::new(p.x + dx, p.y + dy);
    let (mut max_x, mut max_y) = (0.0f64, 0.0f64);
    let mut grow = |x: f64, y: f64| {
        max_x = max_x.max(x + MARGIN);
        max_y = max_y.max(y + MARGIN);
    };
    let mut out = Vec::new();
    let ids: Vec<String> = (0..legacy.nodes.len()).map(|i| format!("ent{:04}", i + 1)).collect();
    // Partitions first: their frames lie under everything else.
    for (p, partition) in legacy.partitions.iter().enumerate() {
        let Some(&(cluster, title_w)) = built.partition_clusters.get(p) else {
            continue;
        };
        let Some(r) = layout.clusters.get(cluster).map(place) else {
            continue;
        };
        grow(r.x + r.width, r.y + r.height);
        begin(
            &mut out,
            "cluster",
            vec![("data-qualified-name".into(), marker_name(&partition.name))],
        );
        draw_partition(
            &mut out,
            &r,
            &partition.name,
            title_w,
            partition.color.as_deref(),
            look,
            metrics,
        );
        out.push(Item::End);
    }
    // PlantUML draws each partition's contents (partitions in order), then
    // the rest, each group in creation order.
    let group_of = |what: &Drawn| {
        let node = match *what {
            Drawn::Node(i) => i,
            Drawn::Note(n) => legacy.notes[n].node,
        };
        legacy.nodes.get(node).and_then(|n| n.partition).unwrap_or(usize::MAX)
    };
    // Creation order: a node by its index, a note after the nodes written
    // before it.
    let created = |what: &Drawn| match *what {
        Drawn::Node(i) => (i, 0),
        Drawn::Note(n) => (legacy.notes[n].nodes_before.saturating_sub(1), n + 1),
    };
    let mut drawing_order: Vec<usize> = (0..built.drawn.len()).collect();
    drawing_order.sort_by_key(|&k| (group_of(&built.drawn[k]), created(&built.drawn[k])));
    for k in drawing_order {
        let what = &built.drawn[k];
        let Some(r) = layout.nodes.get(k).map(place) else {
            continue;
        };
        grow(r.x + r.width, r.y + r.height);
        match *what {
            Drawn::Node(i) => {
                let class = match legacy.nodes[i].kind {
                    LegacyNodeKind::Start => "start_entity",
                    LegacyNodeKind::End => "end_entity",
                    _ => "entity",
                };
                begin(
                    &mut out,
                    class,
                    vec![
                        ("data-qualified-name".into(), node_name(legacy, i)),
                        ("id".into(), ids[i].clone()),
                    ],
                );
                draw_node(&mut out, legacy, i, &r, look, metrics);
                out.push(Item::End);
            }
            Drawn::Note(n) => {
                let note = &legacy.notes[n];
                begin(
                    &mut out,
                    "entity",
                    vec![
                        ("data-qualified-name".into(), format!("GN{n}")),
                        ("id".into(), format!("note{n}")),
                    ],
                );
                let toward = built
                    .node_of
                    .get(note.node)
                    .and_then(|node| layout.nodes.get(*node))
                    .map(place);
                let fill = note.color.as_deref().and_then(parse_color).unwrap_or(look.base.note_bg);
                match toward.filter(|t| t.y + t.height <= r.y || t.y >= r.y + r.height) {
                    // Above or below its activity: the wedge leaves the top
                    // or bottom edge, as for state diagrams.
                    Some(t) => crate::state::draw_note_vertical(&mut out, &r, fill, &look.base, &t, None),
                    None => draw_note(&mut out, &r, fill, &look.base, toward.as_ref()),
                }
                let font = look.base.note_font;
                let (lh, ascent) = (metrics.line_height(&font), metrics.ascent(&font));
                for (row, l) in text_lines(&note.text).iter().enumerate() {
                    let w = metrics.width(l, &font);
                    out.push(text_run(
                        r.x + 6.0,
                        r.y + 5.0 + ascent + lh * row as f64,
                        l,
                        font,
                        look.base.note_font_color,
                        w,
                    ));
                }
                out.push(Item::End);
            }
        }
    }
    let _ = &built.note_of;
    for (l, link) in legacy.links.iter().enumerate() {
        let (edge_index, reversed) = built.link_edges[l];
        let Some(route) = layout.edges.get(edge_index) else {
            continue;
        };
        if route.points.len() < 2 {
            continue;
        }
        let edge = &built.graph.edges[edge_index];
        let mut points: Vec<Point> = route.points.iter().map(shift).collect();
        for p in &points {
            grow(p.x, p.y);
        }
        begin(
            &mut out,
            "link",
            vec![
                ("data-entity-1".into(), ids[link.from].clone()),
                ("data-entity-2".into(), ids[link.to].clone()),
                ("id".into(), format!("lnk{}", l + 1)),
            ],
        );
        if reversed {
            points.reverse();
        }
        let color = link
            .color
            .as_deref()
            .and_then(parse_color)
            .unwrap_or(look.base.arrow_color);
        let n = points.len();
        let tip = points[n - 1];
        let dir = direction_at(tip, &points[..n - 1]);
        points[n - 1] = Point::new(tip.x - dir.0 * 5.0, tip.y - dir.1 * 5.0);
        let line_stroke = if link.dotted {
            dashed(color, 1.0, 7.0, 7.0)
        } else {
            stroke(color, 1.0)
        };
        out.push(Item::Path {
            segments: bezier_segments(&points),
            paint: paint(None, Some(line_stroke)),
        });
        decoration(&mut out, LinkHead::Arrow, tip, dir, color, 1.0, look.base.background);
        let labels = [
            (link.label.as_deref(), route.label, edge.label),
            (link.head_label.as_deref(), route.head_label, edge.head_label),
        ];
        for (k, (text, centre, size)) in labels.into_iter().enumerate() {
            let (Some(text), Some(mut c), Some(size)) = (text, centre.as_ref().map(shift), size) else {
                continue;
            };
            let font = look.arrow_font;
            let lh = metrics.line_height(&font);
            // A branch condition sits beside the arrow's head, away from
            // where the arrow comes from: left of an arrow coming straight
            // down or from the left (box 6 px before the tip, 8 px above
            // it), right of one coming from the right (14 px after the tip,
            // 3 px above it), as dot's head-label placement leaves it in
            // PlantUML's SVGs (top to bottom).
            if k == 1 && !legacy.left_to_right {
                c = if dir.0 < -0.1 {
                    Point::new(tip.x + 14.0 + size.width / 2.0, tip.y - 2.7 - size.height / 2.0)
                } else {
                    Point::new(tip.x - 5.8 - size.width / 2.0, tip.y - 8.3 - size.height / 2.0)
                };
            }
            let top = c.y - size.height / 2.0;
            for (row, l) in text_lines(text).iter().enumerate() {
                let block = crate::creole::measure(l, font, metrics);
                block.draw(
                    c.x - block.width / 2.0,
                    top + 1.0 + lh * row as f64,
                    crate::creole::Align::Left,
                    look.base.arrow_font_color,
                    &mut out,
                );
            }
            grow(c.x + size.width / 2.0, c.y + size.height / 2.0);
        }
        out.push(Item::End);
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

fn draw_node(
    out: &mut Vec<Item>,
    legacy: &LegacyActivityDiagram,
    i: usize,
    r: &Rect,
    look: &Look,
    metrics: &dyn TextMeasure,
) {
    let node = &legacy.nodes[i];
    let (cx, cy) = (r.x + r.width / 2.0, r.y + r.height / 2.0);
    let color = node.color.as_deref().and_then(parse_color);
    match node.kind {
        LegacyNodeKind::Start => ellipse(
            out,
            cx,
            cy,
            10.0,
            10.0,
            paint(Some(look.pseudo), Some(stroke(look.pseudo, 1.0))),
        ),
        LegacyNodeKind::End => {
            ellipse(out, cx, cy, 11.0, 11.0, paint(None, Some(stroke(look.pseudo, 1.5))));
            ellipse(
                out,
                cx,
                cy,
                6.0,
                6.0,
                paint(Some(look.pseudo), Some(stroke(look.pseudo, 1.0))),
            );
        }
        LegacyNodeKind::Branch => polygon(
            out,
            &[
                (cx, r.y),
                (r.x + r.width, cy),
                (cx, r.y + r.height),
                (r.x, cy),
                (cx, r.y),
            ],
            paint(
                Some(color.unwrap_or(look.diamond_bg)),
                Some(stroke(look.diamond_border, 0.5)),
            ),
        ),
        LegacyNodeKind::Bar => rect(
            out,
            r.x,
            r.y,
            r.width,
            r.height,
            0.0,
            paint(Some(color.unwrap_or(look.bar)), None),
        ),
        LegacyNodeKind::Action => {
            rect(
                out,
                r.x,
                r.y,
                r.width,
                r.height,
                ACTION_RADIUS,
                paint(Some(color.unwrap_or(look.background)), Some(stroke(look.border, 0.5))),
            );
            let lh = metrics.line_height(&look.font);
            for (row, l) in text_lines(&node.display).iter().enumerate() {
                let block = crate::creole::measure(l, look.font, metrics);
                block.draw(
                    r.x + ACTION_PADDING,
                    r.y + ACTION_PADDING + lh * row as f64,
                    crate::creole::Align::Left,
                    look.font_color,
                    out,
                );
            }
        }
    }
}

/// A partition's frame: a folder-like outline with the name in its tab
/// (PlantUML's package look: no fill, 1.5 px black).
fn draw_partition(
    out: &mut Vec<Item>,
    r: &Rect,
    name: &str,
    title_w: f64,
    color: Option<&str>,
    look: &Look,
    metrics: &dyn TextMeasure,
) {
    let (x, y, w, h) = (r.x, r.y, r.width, r.height);
    let tab_h = metrics.line_height(&look.partition_font) + 6.0;
    let tab_right = x + title_w + 8.0;
    let fill = color.and_then(parse_color);
    let border = stroke(look.partition_border, 1.5);
    polygon(
        out,
        &[
            (x, y),
            (tab_right, y),
            (tab_right + 7.0, y + tab_h),
            (x + w, y + tab_h),
            (x + w, y + h),
            (x, y + h),
            (x, y),
        ],
        paint(fill, Some(border)),
    );
    line(out, x, y + tab_h, tab_right + 7.0, y + tab_h, border);
    out.push(text_run(
        x + 4.0,
        y + 2.0 + metrics.ascent(&look.partition_font),
        name,
        look.partition_font,
        look.font_color,
        title_w,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font::EmbeddedMetrics;

    fn scene_of(text: &str) -> Scene {
        let analysis = puml_sema::analyze(text, &Default::default(), &puml_sema::NoIncludes);
        let diagram = &analysis.document.diagrams[0];
        assert!(diagram.legacy_activity.is_some(), "{:?}", analysis.diagnostics);
        layout_diagram(diagram, &LayoutOptions::default(), &EmbeddedMetrics).remove(0)
    }

    #[test]
    fn activities_are_stacked_and_linked_top_down() {
        let scene = scene_of("@startuml\n(*) --> \"First\"\n\"First\" --> \"Second\"\n\"Second\" --> (*)\n@enduml\n");
        let boxes: Vec<(f64, f64, f64, f64)> = scene
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Rect {
                    x, y, width, height, ..
                } => Some((*x, *y, *width, *height)),
                _ => None,
            })
            .collect();
        assert_eq!(boxes.len(), 2, "{boxes:?}");
        assert!(boxes[0].1 < boxes[1].1, "First above Second: {boxes:?}");
        assert!(
            (boxes[0].2 - 46.127).abs() < 0.5,
            "First is its text plus 20 wide: {boxes:?}"
        );
        let links = scene
            .items
            .iter()
            .filter(|item| matches!(item, Item::Begin { class, .. } if class == "link"))
            .count();
        assert_eq!(links, 3);
    }
}
