//! A layered ("hierarchical") graph layout engine, after the algorithms behind
//! Graphviz `dot` (Gansner, Koutsofios, North, Vo, "A Technique for Drawing
//! Directed Graphs", IEEE TSE 1993). It knows nothing of PlantUML: the input is
//! a plain [`Graph`] of boxes with sizes in px, directed edges, clusters and
//! `rank=same` groups; the output is a [`Layout`] of boxes, cluster boxes and
//! edge routes in px (origin top-left, y downwards).
//!
//! The stages, each in its own module:
//! 1. [`rank`]: cycles are broken (depth-first, back edges reversed), every
//!    node gets a rank (its layer) so that each constraining edge spans at
//!    least its `min_len` ranks, by network simplex (total weighted edge
//!    length minimal), as dot does.
//! 2. [`layered`]: edges longer than one rank get a chain of virtual nodes;
//!    edge labels become virtual nodes of their own (ranks are doubled when any
//!    edge has a label, as dot does, so the label sits on a rank between its
//!    ends).
//! 3. [`order`]: the order of nodes within each rank: an initial depth-first
//!    order, then weighted-median sweeps and transposition, with iteration caps.
//! 4. [`position`]: x coordinates (nodes pulled towards their neighbours, edges
//!    straightened, `node_sep` respected), y coordinates per rank (`rank_sep`).
//! 5. [`route`]: edge routes as cubic Bézier control points through the
//!    positions of their virtual nodes; self-loops beside their node.
//!
//! Work is bounded: graphs above [`MAX_NODES`] nodes or [`MAX_EDGES`] edges are
//! refused with [`LayoutError::TooLarge`], every iterative stage has an
//! iteration cap, each network simplex solve has a budget of node visits
//! (`SIMPLEX_WORK_BUDGET`; [`layout_counting_work`] counts them), and nothing recurses to a depth the input decides.
//!
//! ```
//! use puml_graph::{layout, Edge, Graph, Node};
//! let mut graph = Graph::default();
//! let a = graph.add_node(Node::new(80.0, 40.0));
//! let b = graph.add_node(Node::new(60.0, 30.0));
//! graph.edges.push(Edge::new(a, b));
//! let drawn = layout(&graph).unwrap();
//! assert!(drawn.nodes[a].y + drawn.nodes[a].height < drawn.nodes[b].y);
//! ```

mod layered;
mod order;
mod position;
mod rank;
mod route;
mod simplex;

/// Index of a node in [`Graph::nodes`].
pub type NodeId = usize;
/// Index of a cluster in [`Graph::clusters`].
pub type ClusterId = usize;

/// Graphs with more nodes than this are refused ([`LayoutError::TooLarge`]).
pub const MAX_NODES: usize = 5_000;
/// Graphs with more edges than this are refused ([`LayoutError::TooLarge`]).
pub const MAX_EDGES: usize = 50_000;

/// Graphs whose layered form (nodes plus one virtual node per rank crossed
/// by each edge) would exceed this are refused ([`LayoutError::TooLarge`]).
pub const MAX_LAYERED_NODES: usize = 40_000;

/// The most node visits one network simplex solve may spend on pivots
/// (each pivot walks at most the connected component it pivots in, so the
/// pivots allowed are this divided by the component's size). Graphs of
/// real diagrams stop far below it; random graphs whose edges span many
/// ranks (tens of thousands of virtual nodes) stop early, keeping the
/// feasible solution reached, as dot's `nslimit` does.
pub(crate) const SIMPLEX_WORK_BUDGET: usize = 20_000_000;

/// Layered graphs larger than this get proportionally fewer sweeps of
/// crossing reduction and pivots of network simplex, so that time stays
/// bounded (dot's `mclimit` and `nslimit` do this by hand).
const FULL_EFFORT_NODES: usize = 2_000;

/// A width and height in px.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

impl Size {
    pub fn new(width: f64, height: f64) -> Self {
        Size { width, height }
    }
}

/// A point in px (origin top-left, y downwards).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
}

/// A box in px: top-left corner, width, height.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn center(&self) -> Point {
        Point::new(self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
}

/// The direction ranks follow (dot's `rankdir`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RankDir {
    /// Ranks top to bottom (dot's `TB`, the default).
    #[default]
    TopToBottom,
    /// Ranks left to right (`LR`; PlantUML's `left to right direction`).
    LeftToRight,
    /// Ranks bottom to top (`BT`).
    BottomToTop,
    /// Ranks right to left (`RL`).
    RightToLeft,
}

/// Graph-wide settings.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphOptions {
    pub rank_dir: RankDir,
    /// The least gap between neighbouring boxes of one rank, px (dot's `nodesep`).
    pub node_sep: f64,
    /// The least gap between ranks, px (dot's `ranksep`).
    pub rank_sep: f64,
}

impl Default for GraphOptions {
    /// dot's defaults: `nodesep=0.25`, `ranksep=0.5` (inches).
    fn default() -> Self {
        GraphOptions {
            rank_dir: RankDir::TopToBottom,
            node_sep: 18.0,
            rank_sep: 36.0,
        }
    }
}

/// A box to place.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub width: f64,
    pub height: f64,
    /// The innermost cluster the node belongs to.
    pub cluster: Option<ClusterId>,
}

impl Node {
    pub fn new(width: f64, height: f64) -> Self {
        Node {
            width,
            height,
            cluster: None,
        }
    }
}

/// A directed edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub tail: NodeId,
    pub head: NodeId,
    /// The least rank distance head − tail (dot's `minlen`, default 1; 0 allows
    /// a flat edge).
    pub min_len: u32,
    /// How much shortening and straightening this edge matters (dot's `weight`,
    /// default 1).
    pub weight: f64,
    /// `false`: the edge takes no part in ranking (dot's `constraint=false`).
    pub constraint: bool,
    /// The size of a label placed beside the edge's middle.
    pub label: Option<Size>,
    /// The size of a label near the tail end (dot's `taillabel`).
    pub tail_label: Option<Size>,
    /// The size of a label near the head end (dot's `headlabel`).
    pub head_label: Option<Size>,
}

impl Edge {
    pub fn new(tail: NodeId, head: NodeId) -> Self {
        Edge {
            tail,
            head,
            min_len: 1,
            weight: 1.0,
            constraint: true,
            label: None,
            tail_label: None,
            head_label: None,
        }
    }
}

/// A cluster: a box drawn around its nodes and sub-clusters, kept apart from
/// nodes outside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    pub parent: Option<ClusterId>,
    /// The size of the cluster's title, reserved at its top.
    pub label: Option<Size>,
    /// The gap between the cluster's border and its contents, px.
    pub margin: f64,
}

impl Default for Cluster {
    /// dot's default cluster margin: 8 points.
    fn default() -> Self {
        Cluster {
            parent: None,
            label: None,
            margin: 8.0,
        }
    }
}

/// The graph to lay out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub clusters: Vec<Cluster>,
    /// Groups of nodes that share one rank (dot's `rank=same`).
    pub same_rank: Vec<Vec<NodeId>>,
    pub options: GraphOptions,
}

impl Graph {
    /// Adds a node and returns its id.
    pub fn add_node(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Adds a cluster and returns its id.
    pub fn add_cluster(&mut self, cluster: Cluster) -> ClusterId {
        self.clusters.push(cluster);
        self.clusters.len() - 1
    }
}

/// Why a graph was not laid out.
#[derive(Clone, Debug, PartialEq)]
pub enum LayoutError {
    /// More nodes or edges than the engine accepts ([`MAX_NODES`], [`MAX_EDGES`]).
    TooLarge { nodes: usize, edges: usize },
    /// An edge, `same_rank` group or node refers to a node or cluster that
    /// does not exist, or clusters' parents form a cycle.
    InvalidReference(String),
    /// A size or separation is negative, infinite or not a number.
    InvalidSize(String),
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::TooLarge { nodes, edges } => write!(
                f,
                "graph too large to lay out: {nodes} nodes, {edges} edges (limits: {MAX_NODES} nodes, {MAX_EDGES} edges, \
                 {MAX_LAYERED_NODES} nodes once long edges are split at every rank they cross)"
            ),
            LayoutError::InvalidReference(what) => write!(f, "invalid reference: {what}"),
            LayoutError::InvalidSize(what) => write!(f, "invalid size: {what}"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Where an edge goes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EdgeRoute {
    /// Cubic Bézier control points as dot gives them: `p0 (c1 c2 p)+`, from
    /// the tail's border to the head's border (px, y downwards).
    pub points: Vec<Point>,
    /// The centre of the edge's label, when it has one.
    pub label: Option<Point>,
    /// The centre of the tail label, when it has one.
    pub tail_label: Option<Point>,
    /// The centre of the head label, when it has one.
    pub head_label: Option<Point>,
}

/// The answer: every box, edge and cluster placed, in px (origin top-left,
/// y downwards), in the order of the input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub nodes: Vec<Rect>,
    pub edges: Vec<EdgeRoute>,
    pub clusters: Vec<Rect>,
}

/// How much work a layout took, counted in units no machine's speed or
/// load changes (for tests of the engine's bounds and the benchmark).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutWork {
    /// Nodes of the layered graph: the real ones and a virtual node per rank
    /// crossed by each edge (0 when refused before it was counted).
    pub layered_nodes: usize,
    /// Network simplex pivots, ranking and coordinates together.
    pub simplex_pivots: usize,
    /// A bound on the nodes those pivots visited: each pivot counts the size
    /// of the connected component it was made in.
    pub simplex_work: u64,
}

/// Lays out `graph`, as [`layout`] does, and tells how much work it took.
pub fn layout_counting_work(graph: &Graph) -> (Result<Layout, LayoutError>, LayoutWork) {
    simplex::take_work();
    let mut layered_nodes = 0;
    let answer = layout_counting(graph, &mut layered_nodes);
    let (simplex_pivots, simplex_work) = simplex::take_work();
    let work = LayoutWork {
        layered_nodes,
        simplex_pivots,
        simplex_work,
    };
    (answer, work)
}

/// Lays out `graph`.
pub fn layout(graph: &Graph) -> Result<Layout, LayoutError> {
    layout_counting(graph, &mut 0)
}

/// Lays out `graph`, noting the size of its layered form in `layered_nodes`.
fn layout_counting(graph: &Graph, layered_nodes_out: &mut usize) -> Result<Layout, LayoutError> {
    validate(graph)?;
    // Everything is laid out top to bottom; sideways graphs swap each box's
    // width and height first and turn the picture at the end.
    let sideways = matches!(graph.options.rank_dir, RankDir::LeftToRight | RankDir::RightToLeft);
    let turned;
    let work = if sideways {
        turned = turned_sizes(graph);
        &turned
    } else {
        graph
    };
    let ranks = rank::assign_ranks(work);
    // Long edges become chains of virtual nodes: refuse before making them
    // when there would be too many.
    let layered_nodes = layered::Layered::count_nodes(work, &ranks);
    *layered_nodes_out = layered_nodes;
    if layered_nodes > MAX_LAYERED_NODES {
        return Err(LayoutError::TooLarge {
            nodes: graph.nodes.len(),
            edges: graph.edges.len(),
        });
    }
    let mut layered = layered::Layered::build(work, &ranks);
    order::reduce_crossings(&mut layered, work);
    layered.place_flat_labels(work);
    let coords = position::assign_coordinates(&layered, work);
    Ok(route::finish(work, &layered, &coords))
}

/// The graph with every width and height swapped (for sideways rank directions).
fn turned_sizes(graph: &Graph) -> Graph {
    let swap = |s: Option<Size>| s.map(|s| Size::new(s.height, s.width));
    let mut turned = graph.clone();
    for node in &mut turned.nodes {
        std::mem::swap(&mut node.width, &mut node.height);
    }
    for edge in &mut turned.edges {
        edge.label = swap(edge.label);
        edge.tail_label = swap(edge.tail_label);
        edge.head_label = swap(edge.head_label);
    }
    for cluster in &mut turned.clusters {
        cluster.label = swap(cluster.label);
    }
    turned
}

fn validate(graph: &Graph) -> Result<(), LayoutError> {
    if graph.nodes.len() > MAX_NODES || graph.edges.len() > MAX_EDGES {
        return Err(LayoutError::TooLarge {
            nodes: graph.nodes.len(),
            edges: graph.edges.len(),
        });
    }
    let finite = |v: f64| v.is_finite() && v >= 0.0;
    let options = &graph.options;
    if !finite(options.node_sep) || !finite(options.rank_sep) {
        return Err(LayoutError::InvalidSize("node_sep or rank_sep".into()));
    }
    let size_ok = |s: &Option<Size>| s.is_none_or(|s| finite(s.width) && finite(s.height));
    for (id, node) in graph.nodes.iter().enumerate() {
        if !finite(node.width) || !finite(node.height) {
            return Err(LayoutError::InvalidSize(format!("node {id}")));
        }
        if node.cluster.is_some_and(|c| c >= graph.clusters.len()) {
            return Err(LayoutError::InvalidReference(format!(
                "node {id} is in a cluster that does not exist"
            )));
        }
    }
    for (id, edge) in graph.edges.iter().enumerate() {
        if edge.tail >= graph.nodes.len() || edge.head >= graph.nodes.len() {
            return Err(LayoutError::InvalidReference(format!(
                "edge {id} joins a node that does not exist"
            )));
        }
        if !edge.weight.is_finite() || edge.weight < 0.0 {
            return Err(LayoutError::InvalidSize(format!("weight of edge {id}")));
        }
        if !size_ok(&edge.label) || !size_ok(&edge.tail_label) || !size_ok(&edge.head_label) {
            return Err(LayoutError::InvalidSize(format!("label of edge {id}")));
        }
    }
    for group in &graph.same_rank {
        if group.iter().any(|&n| n >= graph.nodes.len()) {
            return Err(LayoutError::InvalidReference(
                "a same-rank group names a node that does not exist".into(),
            ));
        }
    }
    for (id, cluster) in graph.clusters.iter().enumerate() {
        if !finite(cluster.margin) || !size_ok(&cluster.label) {
            return Err(LayoutError::InvalidSize(format!("cluster {id}")));
        }
        // Walking up the parents must end within as many steps as there are clusters.
        let mut current = cluster.parent;
        let mut steps = 0;
        while let Some(parent) = current {
            if parent >= graph.clusters.len() || steps > graph.clusters.len() {
                return Err(LayoutError::InvalidReference(format!(
                    "cluster {id} has a missing parent or its parents form a cycle"
                )));
            }
            current = graph.clusters[parent].parent;
            steps += 1;
        }
    }
    Ok(())
}
