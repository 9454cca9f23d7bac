//! The graph PlantUML hands to `dot` for a class diagram (its `svek.dot`,
//! read with `-debugsvek`), built for puml's own engine:
//! - one node per drawn element, of the element's own size, and one per
//!   note;
//! - one edge per link, tail at the left-hand end as written, `minlen` the
//!   arrow's length less one (`-` is 0: same rank), reversed for `-up->`
//!   and `-left->`; labels and multiplicities as fixed-size boxes (their
//!   text's size, truncated to whole pixels as PlantUML writes them);
//! - a package is three nested clusters (PlantUML's `clusterNp0`, `clusterN`
//!   with the title, `clusterNp1`), 8 px of margin each;
//! - a note beside an element is a node joined to it by an edge of `minlen`
//!   0 (left, right) or 1 (top, bottom);
//! - elements with no link are set in a square grid by invisible edges
//!   (rows of ⌈√n⌉, when a package or the top level holds three or more);
//! - `left to right direction` turns the ranks (`rankdir=LR`).

use super::entity::{entity_box, EntityBox};
use super::look::ClassLook;
use super::shown::{shown, Shown};
use crate::font::TextMeasure;
use puml_graph::{Cluster, Edge, Graph, GraphOptions, Node, NodeId, RankDir, Size};
use puml_sema::class::{ClassDiagram, LinkDirection, LinkEnd, NoteSide, NoteTarget};

/// Dot's margin around a cluster's contents (8 points, 1 px each).
const CLUSTER_MARGIN: f64 = 8.0;
/// The point node a link to a package reaches (`shape=point,width=.01`).
const POINT_SIZE: f64 = 0.72;

/// The title box PlantUML gives a package's cluster in `svek.dot`
/// (observed with the oracle): the widest of its lines (each stereotype
/// shown, then the name's lines), their heights less 5 px; a node's title
/// is 60 px wider and 5 px taller than that, a database's 15 px taller. A
/// package's `<<Node>>`, `<<Database>>`, … names its shape and is not
/// shown.
fn cluster_title(package: &puml_sema::class::Package, look: &ClassLook, metrics: &dyn TextMeasure) -> Size {
    const SHAPES: [&str; 6] = ["node", "database", "rectangle", "folder", "frame", "cloud"];
    let is_package = matches!(package.keyword.as_str(), "package" | "namespace");
    let shape_stereotype = |s: &String| is_package && SHAPES.iter().any(|k| s.eq_ignore_ascii_case(k));
    let shape = package
        .stereotypes
        .iter()
        .find(|s| shape_stereotype(s))
        .map_or(package.keyword.to_ascii_lowercase(), |s| s.to_ascii_lowercase());
    // Stereotypes in the package font, upright and not bold.
    let stereotype_font = crate::scene::Font {
        bold: false,
        italic: false,
        ..look.package_font
    };
    let lines: Vec<(String, &crate::scene::Font)> = package
        .stereotypes
        .iter()
        .filter(|s| !shape_stereotype(s))
        .map(|s| (format!("«{s}»"), &stereotype_font))
        .chain(
            package
                .display
                .split("\\n")
                .flat_map(|l| l.split('\n'))
                .map(|l| (l.to_string(), &look.package_font)),
        )
        .collect();
    let width = lines.iter().map(|(l, font)| metrics.width(l, font)).fold(0.0, f64::max);
    let height = metrics.line_height(&look.package_font) * lines.len() as f64;
    let (extra_w, extra_h) = match shape.as_str() {
        "node" => (60.0, 0.0),
        "database" => (0.0, 10.0),
        _ => (0.0, -5.0),
    };
    let padding = 2.0 * look.padding;
    table(width + extra_w + padding, height + extra_h + padding)
}

/// A drawn element: its node and its drawing at the origin.
pub(crate) struct PlacedEntity {
    pub node: NodeId,
    pub body: EntityBox,
}

/// A note: its node (when it has one of its own), size and text lines.
pub(crate) struct NoteBox {
    pub node: Option<NodeId>,
    /// The edge joining a note beside an element to it (an index into the
    /// graph's edges), and whether the note is that edge's tail.
    pub edge: Option<(usize, bool)>,
    pub width: f64,
    pub height: f64,
    pub lines: Vec<String>,
}

/// A link's edge and which way it runs in the graph.
pub(crate) struct LinkEdge {
    pub edge: usize,
    /// The edge runs `to → from` (`-up->`, `-left->`).
    pub reversed: bool,
    pub label: Option<Size>,
}

pub(crate) struct Built {
    pub graph: Graph,
    /// Per element (`None`: not drawn).
    pub entities: Vec<Option<PlacedEntity>>,
    /// Per note.
    pub notes: Vec<NoteBox>,
    /// Per link (`None`: an end is not drawn).
    pub links: Vec<Option<LinkEdge>>,
    /// Per package: the cluster drawn (the one with the title), when it
    /// holds anything drawn.
    pub packages: Vec<Option<usize>>,
    /// Per package: the title's width (px, untruncated).
    pub package_titles: Vec<f64>,
    /// Per package that a link ends at: the point node the link reaches
    /// (PlantUML's `za` point inside the titled cluster).
    pub package_points: Vec<Option<NodeId>>,
}

/// A label as drawn: without the quotes it may be written in.
pub(crate) fn unquote(text: &str) -> &str {
    let t = text.trim();
    t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(t)
}

/// A link's label as drawn: unquoted, `<<word>>` as `«word»`.
pub(crate) fn label_text(text: &str) -> String {
    super::entity::guillemets(unquote(text))
}

/// Truncates a measured size to whole pixels, as PlantUML writes its
/// label tables' `WIDTH`/`HEIGHT`.
fn table(width: f64, height: f64) -> Size {
    Size::new(width.max(0.0).floor(), height.max(0.0).floor())
}

pub(crate) fn build(class: &ClassDiagram, look: &ClassLook, metrics: &dyn TextMeasure) -> Built {
    let mut graph = Graph {
        options: GraphOptions {
            rank_dir: if class.left_to_right {
                RankDir::LeftToRight
            } else {
                RankDir::TopToBottom
            },
            node_sep: look.node_sep,
            rank_sep: look.rank_sep,
        },
        ..Graph::default()
    };
    // A node per element and note (and a few package points), an edge per
    // link and note: sized once, not grown by doublings that copy them.
    graph
        .nodes
        .reserve(class.elements.len() + class.notes.len() + class.packages.len());
    graph.edges.reserve(class.links.len() + class.notes.len());

    // Which elements have a link or a note (the rest may go to the grid).
    let mut linked = vec![false; class.elements.len()];
    let mark = |end: &LinkEnd, linked: &mut Vec<bool>| {
        if let LinkEnd::Element(e) = end {
            if let Some(slot) = linked.get_mut(e.index()) {
                *slot = true;
            }
        }
    };
    for link in &class.links {
        mark(&link.from, &mut linked);
        mark(&link.to, &mut linked);
    }
    let mut has_note = vec![false; class.elements.len()];
    for note in &class.notes {
        if let NoteTarget::Element { element, .. } = note.target {
            if let Some(slot) = has_note.get_mut(element.index()) {
                *slot = true;
            }
        }
    }

    let shown_all: Vec<Shown> = class
        .elements
        .iter()
        .map(|e| {
            let mut s = shown(class, e);
            s.circle &= !look.strict_uml;
            s
        })
        .collect();
    let drawn: Vec<bool> = class
        .elements
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let s = &shown_all[i];
            s.element && (s.unlinked || linked[i])
        })
        .collect();

    // Packages: a cluster chain per package that holds something drawn.
    let mut holds = vec![false; class.packages.len()];
    for (i, e) in class.elements.iter().enumerate() {
        if !drawn[i] {
            continue;
        }
        let mut p = e.package;
        let mut steps = 0;
        while let Some(id) = p {
            if steps > class.packages.len() || id.index() >= holds.len() {
                break;
            }
            holds[id.index()] = true;
            p = class.packages[id.index()].parent;
            steps += 1;
        }
    }
    for note in &class.notes {
        let mut p = note.package;
        let mut steps = 0;
        while let Some(id) = p {
            if steps > class.packages.len() || id.index() >= holds.len() {
                break;
            }
            holds[id.index()] = true;
            p = class.packages[id.index()].parent;
            steps += 1;
        }
    }
    // Packages a link ends at: PlantUML wraps them in two more clusters
    // (`clusterNa` outside, `clusterNi` inside the titled one) and puts a
    // point node in the titled cluster for the links to reach.
    let mut package_linked = vec![false; class.packages.len()];
    let noted_packages = class.notes.iter().filter_map(|note| match note.target {
        NoteTarget::Package { package, .. } => Some(package),
        _ => None,
    });
    let linked_packages = class
        .links
        .iter()
        .flat_map(|link| [&link.from, &link.to])
        .filter_map(|end| match end {
            LinkEnd::Package(p) => Some(*p),
            _ => None,
        });
    for p in linked_packages.chain(noted_packages) {
        if let Some(slot) = package_linked.get_mut(p.index()) {
            *slot = true;
        }
    }
    let mut package_points: Vec<Option<NodeId>> = vec![None; class.packages.len()];
    let mut packages: Vec<Option<usize>> = vec![None; class.packages.len()];
    let mut inner: Vec<Option<usize>> = vec![None; class.packages.len()];
    let mut package_titles = vec![0.0; class.packages.len()];
    // Parents come before their children in the model.
    for (i, package) in class.packages.iter().enumerate() {
        let title_w = metrics.width(&package.display, &look.package_font);
        package_titles[i] = title_w;
        if !holds[i] {
            continue;
        }
        let mut parent = package.parent.filter(|p| p.index() < i).and_then(|p| inner[p.index()]);
        if package_linked[i] {
            parent = Some(graph.add_cluster(Cluster {
                parent,
                label: None,
                margin: CLUSTER_MARGIN,
            }));
        }
        let outer = graph.add_cluster(Cluster {
            parent,
            label: None,
            margin: CLUSTER_MARGIN,
        });
        let titled = graph.add_cluster(Cluster {
            parent: Some(outer),
            label: Some(cluster_title(package, look, metrics)),
            margin: CLUSTER_MARGIN,
        });
        let mut contents_parent = titled;
        if package_linked[i] {
            let mut point = Node::new(POINT_SIZE, POINT_SIZE);
            point.cluster = Some(titled);
            package_points[i] = Some(graph.add_node(point));
            contents_parent = graph.add_cluster(Cluster {
                parent: Some(titled),
                label: None,
                margin: CLUSTER_MARGIN,
            });
        }
        let contents = graph.add_cluster(Cluster {
            parent: Some(contents_parent),
            label: None,
            margin: CLUSTER_MARGIN,
        });
        packages[i] = Some(titled);
        inner[i] = Some(contents);
    }
    let cluster_of = |p: Option<puml_sema::class::PackageId>| p.and_then(|p| inner.get(p.index()).copied().flatten());

    let mut entities: Vec<Option<PlacedEntity>> = Vec::with_capacity(class.elements.len());
    for (i, element) in class.elements.iter().enumerate() {
        if !drawn[i] {
            entities.push(None);
            continue;
        }
        let body = entity_box(element, &shown_all[i], look, metrics);
        let mut node = Node::new(body.width, body.height);
        node.cluster = cluster_of(element.package);
        let node = graph.add_node(node);
        entities.push(Some(PlacedEntity { node, body }));
    }

    // Notes.
    let note_font = look.note_font;
    let note_lh = metrics.line_height(&note_font);
    let mut notes = Vec::with_capacity(class.notes.len());
    let mut note_on_link: Vec<Option<usize>> = vec![None; class.links.len()];
    // A note's edge to its element joins the graph after the links (most
    // files write their notes after their relations; PlantUML keeps the
    // order of the statements).
    let mut note_edges: Vec<Edge> = Vec::new();
    for (i, note) in class.notes.iter().enumerate() {
        let lines: Vec<String> = note
            .text
            .split('\n')
            .flat_map(|l| l.split("\\n"))
            .map(str::to_string)
            .collect();
        let text_w = lines.iter().map(|l| metrics.width(l, &note_font)).fold(0.0, f64::max);
        let width = text_w + 21.0;
        let height = note_lh * lines.len() as f64 + 10.0;
        let mut node_id = None;
        let mut note_edge = None;
        match &note.target {
            NoteTarget::Link(link) => {
                if let Some(slot) = note_on_link.get_mut(link.index()) {
                    *slot = Some(i);
                }
            }
            NoteTarget::Element { .. } | NoteTarget::Package { .. } => {
                let (target, side) = match note.target {
                    NoteTarget::Element { element, side } => (
                        entities.get(element.index()).and_then(|p| p.as_ref()).map(|p| p.node),
                        side,
                    ),
                    NoteTarget::Package { package, side } => {
                        (package_points.get(package.index()).copied().flatten(), side)
                    }
                    _ => (None, NoteSide::Right),
                };
                if let Some(target) = target {
                    let mut node = Node::new(width, height);
                    node.cluster = cluster_of(note.package);
                    let n = graph.add_node(node);
                    // A note beside its element shares its rank (`minlen`
                    // 0); one before or after it along the ranks gets a
                    // rank of its own. Sideways (`left to right
                    // direction`) the ranks are columns: top and bottom
                    // share the rank, left and right do not.
                    let sideways = class.left_to_right;
                    let (tail, head, min_len) = match side {
                        NoteSide::Right => (target, n, u32::from(sideways)),
                        NoteSide::Left => (n, target, u32::from(sideways)),
                        NoteSide::Top => (n, target, u32::from(!sideways)),
                        NoteSide::Bottom => (target, n, u32::from(!sideways)),
                    };
                    let mut edge = Edge::new(tail, head);
                    edge.min_len = min_len;
                    // Numbered among the note edges for now; offset once
                    // they join the graph after the links.
                    note_edge = Some((note_edges.len(), tail == n));
                    note_edges.push(edge);
                    node_id = Some(n);
                }
            }
            NoteTarget::Floating { .. } => {
                let mut node = Node::new(width, height);
                node.cluster = cluster_of(note.package);
                node_id = Some(graph.add_node(node));
            }
        }
        notes.push(NoteBox {
            node: node_id,
            edge: note_edge,
            width,
            height,
            lines,
        });
    }

    // Links.
    let arrow_lh = metrics.line_height(&look.arrow_font);
    let mut links = Vec::with_capacity(class.links.len());
    for (i, link) in class.links.iter().enumerate() {
        let node_of = |end: &LinkEnd| match end {
            LinkEnd::Element(e) => entities.get(e.index()).and_then(|p| p.as_ref()).map(|p| p.node),
            LinkEnd::Note(n) => notes.get(*n as usize).and_then(|n: &NoteBox| n.node),
            LinkEnd::Package(p) => package_points.get(p.index()).copied().flatten(),
            LinkEnd::Link(_) => None,
        };
        let (Some(from), Some(to)) = (node_of(&link.from), node_of(&link.to)) else {
            links.push(None);
            continue;
        };
        let mut min_len = link.length.saturating_sub(1);
        let mut reversed = false;
        match link.direction {
            Some(LinkDirection::Up) => {
                reversed = true;
                min_len = min_len.max(1);
            }
            Some(LinkDirection::Down) => min_len = min_len.max(1),
            Some(LinkDirection::Left) => {
                reversed = true;
                min_len = 0;
            }
            Some(LinkDirection::Right) => min_len = 0,
            None => {}
        }
        let (tail, head) = if reversed { (to, from) } else { (from, to) };
        let mut edge = Edge::new(tail, head);
        edge.min_len = min_len;
        edge.constraint = !link.norank;
        let mut label = link
            .label
            .as_deref()
            .map(label_text)
            .filter(|l| !l.is_empty())
            .map(|text| {
                let lines: Vec<&str> = text.split("\\n").collect();
                let w = lines
                    .iter()
                    .map(|l| crate::creole::measure_width(l, look.arrow_font, metrics))
                    .fold(0.0, f64::max);
                let arrow = if link.label_arrow.is_some() {
                    look.arrow_font.size
                } else {
                    0.0
                };
                (w + 2.0 + arrow, arrow_lh * lines.len() as f64 + 2.0)
            });
        if let Some(note) = note_on_link[i] {
            let n = &notes[note];
            label = Some(match label {
                Some((w, h)) => (w.max(n.width), h + n.height),
                None => (n.width, n.height),
            });
        }
        // A link from an element to itself gets 10 px more room for its
        // label (observed: corpus 052, 060).
        let self_room = if from == to { 10.0 } else { 0.0 };
        let label = label.map(|(w, h)| table(w + self_room, h + self_room));
        let end_label = |text: &Option<String>| {
            text.as_deref().map(unquote).filter(|t| !t.is_empty()).map(|t| {
                // `*` is drawn as `✱` but measured as written.
                table(metrics.width(t, &look.arrow_font), arrow_lh)
            })
        };
        let from_label = end_label(&link.from_label);
        let to_label = end_label(&link.to_label);
        // Under `linetype ortho` the label is an `xlabel`: no node of its own.
        edge.label = label.filter(|_| !look.ortho);
        if reversed {
            edge.tail_label = to_label;
            edge.head_label = from_label;
        } else {
            edge.tail_label = from_label;
            edge.head_label = to_label;
        }
        let id = graph.edges.len();
        graph.edges.push(edge);
        links.push(Some(LinkEdge {
            edge: id,
            reversed,
            label,
        }));
    }

    let first_note_edge = graph.edges.len();
    for note in &mut notes {
        if let Some((edge, _)) = note.edge.as_mut() {
            *edge += first_note_edge;
        }
    }
    graph.edges.extend(note_edges);

    // The elements with no link, set in squares (PlantUML's "magmas").
    let floating: Vec<(Option<u32>, NodeId)> = class
        .notes
        .iter()
        .zip(&notes)
        .filter(|(note, _)| matches!(note.target, NoteTarget::Floating { .. }))
        .filter_map(|(note, placed)| Some((note.package.map(|p| p.0), placed.node?)))
        .collect();
    let standalone: Vec<(Option<u32>, NodeId)> = class
        .elements
        .iter()
        .enumerate()
        .filter(|(i, _)| !linked[*i] && !has_note[*i])
        .filter_map(|(i, e)| Some((e.package.map(|p| p.0), entities[i].as_ref()?.node)))
        .chain(
            floating
                .iter()
                .copied()
                .filter(|(_, n)| !graph.edges.iter().any(|e| e.tail == *n || e.head == *n)),
        )
        .collect();
    add_magmas(&mut graph, class, &standalone);

    let mut built = Built {
        graph,
        entities,
        notes,
        links,
        packages,
        package_titles,
        package_points,
    };
    renumber_as_svek(&mut built);
    built
}

/// A square of unlinked nodes: PlantUML links the standalone leaves of a
/// package (three or more) in rows of ⌈√n⌉ by invisible edges, then the
/// squares of a package's sub-packages (three or more) the same way, from
/// one square's top right (in a row) or bottom left (to the next row) to
/// the next one's top left.
struct Magma {
    package: Option<u32>,
    top_left: NodeId,
    top_right: NodeId,
    bottom_left: NodeId,
}

/// Links `items` in rows of ⌈√n⌉ through `link(from, to, same_row)`.
fn square<T>(items: &[T], mut link: impl FnMut(&T, &T, bool)) -> usize {
    let branch = ((items.len() as f64).sqrt().ceil() as usize).max(1);
    let mut row_head = 0;
    for i in 1..items.len() {
        if i - row_head == branch {
            link(&items[row_head], &items[i], false);
            row_head = i;
        } else {
            link(&items[i - 1], &items[i], true);
        }
    }
    branch
}

fn add_magmas(graph: &mut Graph, class: &ClassDiagram, standalone: &[(Option<u32>, NodeId)]) {
    let invisible = |graph: &mut Graph, from: NodeId, to: NodeId, same_row: bool| {
        let mut edge = Edge::new(from, to);
        edge.min_len = u32::from(!same_row);
        graph.edges.push(edge);
    };
    // The top level, then the packages in the order they were made.
    let groups: Vec<Option<u32>> = std::iter::once(None)
        .chain((0..class.packages.len()).map(|p| Some(p as u32)))
        .collect();
    let mut magmas: Vec<Magma> = Vec::new();
    for group in &groups {
        let items: Vec<NodeId> = standalone.iter().filter(|(p, _)| p == group).map(|(_, n)| *n).collect();
        if items.len() < 3 {
            continue;
        }
        let branch = square(&items, |a, b, same_row| invisible(graph, *a, *b, same_row));
        magmas.push(Magma {
            package: *group,
            top_left: items[0],
            top_right: items[branch.min(items.len()) - 1],
            bottom_left: items[(items.len() - 1) / branch * branch],
        });
    }
    for group in &groups {
        let children: Vec<&Magma> = magmas
            .iter()
            .filter(|m| {
                let parent = m
                    .package
                    .and_then(|p| class.packages.get(p as usize))
                    .and_then(|p| p.parent)
                    .map(|p| p.0);
                m.package.is_some() && parent == *group
            })
            .collect();
        if children.len() < 3 {
            continue;
        }
        square(&children, |a, b, same_row| {
            let from = if same_row { a.top_right } else { a.bottom_left };
            invisible(graph, from, b.top_left, same_row);
        });
    }
}

/// The edges in the order PlantUML writes them: those of `minlen` 0 first,
/// each followed by the later ones between the same two nodes (PlantUML
/// keeps the links between two elements together).
fn svek_edge_order(edges: &[Edge]) -> Vec<usize> {
    let mut order = Vec::with_capacity(edges.len());
    let mut used = vec![false; edges.len()];
    for flat in [true, false] {
        let part: Vec<usize> = (0..edges.len()).filter(|&e| (edges[e].min_len == 0) == flat).collect();
        // Sized for every edge at once: no rehash while it fills.
        let mut by_pair: std::collections::HashMap<(NodeId, NodeId), Vec<usize>> =
            std::collections::HashMap::with_capacity(part.len());
        for &e in &part {
            let (a, b) = (edges[e].tail, edges[e].head);
            by_pair.entry((a.min(b), a.max(b))).or_default().push(e);
        }
        for &e in &part {
            if used[e] {
                continue;
            }
            let (a, b) = (edges[e].tail, edges[e].head);
            for &same in &by_pair[&(a.min(b), a.max(b))] {
                if !used[same] {
                    used[same] = true;
                    order.push(same);
                }
            }
        }
    }
    order
}

/// Puts the nodes and edges in the order `svek.dot` gives them to dot,
/// which reads nodes in order of first mention and keeps edges in file
/// order (its ordering phase starts from that order): PlantUML writes the
/// edges of `minlen` 0 first, then the top-level nodes, then each cluster
/// (its nodes, then its sub-clusters), then the other edges.
fn renumber_as_svek(built: &mut Built) {
    let reversed_links: Vec<usize> = built
        .links
        .iter()
        .flatten()
        .filter(|l| l.reversed)
        .map(|l| l.edge)
        .collect();
    let graph = &mut built.graph;
    let edge_order = svek_edge_order(&graph.edges);
    let mut node_order: Vec<NodeId> = Vec::with_capacity(graph.nodes.len());
    let mut seen = vec![false; graph.nodes.len()];
    let mut visit = |n: NodeId, order: &mut Vec<NodeId>| {
        if let Some(slot) = seen.get_mut(n) {
            if !*slot {
                *slot = true;
                order.push(n);
            }
        }
    };
    // PlantUML's `printCluster1`: each cluster (the top level first, before
    // the edges of `minlen` 0) names first the graph tails of its reversed
    // links (`-up->`, `-left->`), the latest link's first.
    let reversed_tails = |cluster: Option<usize>| -> Vec<NodeId> {
        let mut firsts = Vec::new();
        for &edge in &reversed_links {
            let tail = graph.edges[edge].tail;
            if graph.nodes[tail].cluster == cluster {
                firsts.insert(0, tail);
            }
        }
        firsts
    };
    for n in reversed_tails(None) {
        visit(n, &mut node_order);
    }
    for &e in &edge_order {
        let edge = &graph.edges[e];
        if edge.min_len == 0 {
            visit(edge.tail, &mut node_order);
            visit(edge.head, &mut node_order);
        }
    }
    for n in 0..graph.nodes.len() {
        if graph.nodes[n].cluster.is_none() {
            visit(n, &mut node_order);
        }
    }
    // Clusters depth first (parents come before their children), with an
    // explicit stack.
    let clusters = graph.clusters.len();
    let mut stack: Vec<usize> = (0..clusters)
        .rev()
        .filter(|&c| graph.clusters[c].parent.is_none())
        .collect();
    let mut steps = 0;
    while let Some(c) = stack.pop() {
        steps += 1;
        if steps > clusters + 1 {
            break;
        }
        for n in reversed_tails(Some(c)) {
            visit(n, &mut node_order);
        }
        for n in 0..graph.nodes.len() {
            if graph.nodes[n].cluster == Some(c) {
                visit(n, &mut node_order);
            }
        }
        stack.extend((0..clusters).rev().filter(|&k| graph.clusters[k].parent == Some(c)));
    }
    for n in 0..graph.nodes.len() {
        visit(n, &mut node_order);
    }
    let mut new_node = vec![0; graph.nodes.len()];
    for (new, &old) in node_order.iter().enumerate() {
        new_node[old] = new;
    }
    let mut new_edge = vec![0; graph.edges.len()];
    for (new, &old) in edge_order.iter().enumerate() {
        new_edge[old] = new;
    }
    let old_nodes = std::mem::take(&mut graph.nodes);
    graph.nodes = node_order.iter().map(|&old| old_nodes[old].clone()).collect();
    let old_edges = std::mem::take(&mut graph.edges);
    graph.edges = edge_order
        .iter()
        .map(|&old| {
            let mut edge = old_edges[old].clone();
            edge.tail = new_node[edge.tail];
            edge.head = new_node[edge.head];
            edge
        })
        .collect();
    for group in &mut graph.same_rank {
        for n in group.iter_mut() {
            *n = new_node[*n];
        }
    }
    for placed in built.entities.iter_mut().flatten() {
        placed.node = new_node[placed.node];
    }
    for note in &mut built.notes {
        if let Some(n) = note.node.as_mut() {
            *n = new_node[*n];
        }
        if let Some((edge, _)) = note.edge.as_mut() {
            *edge = new_edge[*edge];
        }
    }
    for link in built.links.iter_mut().flatten() {
        link.edge = new_edge[link.edge];
    }
    for n in built.package_points.iter_mut().flatten() {
        *n = new_node[*n];
    }
}

/// The engine's answer, or (when it refuses the graph) the nodes in rows.
pub(crate) fn place(built: &Built) -> puml_graph::Layout {
    crate::graph_layout_or(&built.graph, fallback_grid)
}

/// Nodes in rows of ⌈√n⌉, no edges routed: what is drawn when the engine
/// refuses a graph.
fn fallback_grid(graph: &Graph) -> puml_graph::Layout {
    let n = graph.nodes.len();
    let per_row = ((n as f64).sqrt().ceil() as usize).max(1);
    let mut layout = puml_graph::Layout::default();
    let (mut x, mut y, mut row_h) = (0.0f64, 0.0f64, 0.0f64);
    for (i, node) in graph.nodes.iter().enumerate() {
        if i > 0 && i % per_row == 0 {
            x = 0.0;
            y += row_h + graph.options.rank_sep;
            row_h = 0.0;
        }
        layout.nodes.push(puml_graph::Rect {
            x,
            y,
            width: node.width,
            height: node.height,
        });
        x += node.width + graph.options.node_sep;
        row_h = row_h.max(node.height);
        layout.width = layout.width.max(x);
    }
    layout.height = y + row_h;
    layout.edges = vec![puml_graph::EdgeRoute::default(); graph.edges.len()];
    layout.clusters = vec![puml_graph::Rect::default(); graph.clusters.len()];
    layout
}

/// The graph in Graphviz's dot language, laid out as PlantUML's
/// `svek.dot` is (sizes in inches, separations, `minlen`, label tables,
/// clusters), to compare with PlantUML's `-debugsvek` output and to run
/// `dot` on it while developing.
pub(crate) fn to_dot(graph: &Graph) -> String {
    use std::fmt::Write;
    let mut out = String::from("digraph unix {\n");
    let _ = writeln!(
        out,
        "nodesep={:.6};\nranksep={:.6};\nremincross=true;\nsearchsize=500;",
        graph.options.node_sep / 72.0,
        graph.options.rank_sep / 72.0
    );
    if graph.options.rank_dir == RankDir::LeftToRight {
        out.push_str("rankdir=LR;\n");
    }
    let node_line = |out: &mut String, id: usize| {
        let n = &graph.nodes[id];
        let _ = writeln!(
            out,
            "sh{id:04} [shape=rect,label=\"\",width={:.6},height={:.6}];",
            n.width / 72.0,
            n.height / 72.0
        );
    };
    let table = |s: Size| {
        format!(
            "<<TABLE FIXEDSIZE=\"TRUE\" WIDTH=\"{}\" HEIGHT=\"{}\"><TR><TD></TD></TR></TABLE>>",
            s.width, s.height
        )
    };
    let edge_line = |out: &mut String, e: &Edge| {
        let _ = write!(
            out,
            "sh{:04}->sh{:04}[arrowtail=none,arrowhead=none,minlen={}",
            e.tail, e.head, e.min_len
        );
        if let Some(l) = e.label {
            let _ = write!(out, ",label={}", table(l));
        }
        if let Some(l) = e.tail_label {
            let _ = write!(out, ",taillabel={}", table(l));
        }
        if let Some(l) = e.head_label {
            let _ = write!(out, ",headlabel={}", table(l));
        }
        if !e.constraint {
            out.push_str(",constraint=false");
        }
        out.push_str("];\n");
    };
    // Every node first, in the graph's order (the order the engine reads,
    // as dot reads a file's nodes in order of first mention); clusters
    // then name their members, edges follow in the graph's order.
    for id in 0..graph.nodes.len() {
        node_line(&mut out, id);
    }
    // Clusters, nested, children after their parent (an explicit stack).
    let roots: Vec<usize> = (0..graph.clusters.len())
        .filter(|&c| graph.clusters[c].parent.is_none())
        .collect();
    let children = |parent: Option<usize>| -> Vec<usize> {
        match parent {
            None => roots.clone(),
            Some(p) => (0..graph.clusters.len())
                .filter(|&c| graph.clusters[c].parent == Some(p))
                .collect(),
        }
    };
    let mut work: Vec<(usize, bool)> = children(None).into_iter().rev().map(|c| (c, false)).collect();
    let mut guard = 0;
    while let Some((c, closing)) = work.pop() {
        guard += 1;
        if guard > 4 * graph.clusters.len() + 4 {
            break;
        }
        if closing {
            out.push_str("}\n");
            continue;
        }
        let _ = write!(out, "subgraph cluster{c} {{");
        match graph.clusters[c].label {
            Some(l) => {
                let _ = writeln!(out, "style=solid;labeljust=\"c\";label={};", table(l));
            }
            None => out.push_str("label=\"\";\n"),
        }
        for id in 0..graph.nodes.len() {
            if graph.nodes[id].cluster == Some(c) {
                let _ = writeln!(out, "sh{id:04};");
            }
        }
        work.push((c, true));
        for child in children(Some(c)).into_iter().rev() {
            work.push((child, false));
        }
    }
    for e in &graph.edges {
        edge_line(&mut out, e);
    }
    out.push_str("}\n");
    out
}
