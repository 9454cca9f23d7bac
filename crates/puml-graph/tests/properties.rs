//! Invariants of every layout, over seeded random graphs: no panic, every
//! position finite, boxes on one rank apart by `node_sep`, edges from border
//! to border, clusters around their nodes and apart from their siblings.

use puml_graph::{layout, Cluster, Edge, Graph, GraphOptions, Layout, Node, Point, RankDir, Rect, Size};

/// A small deterministic generator (xorshift), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn size(&mut self, low: usize, high: usize) -> f64 {
        (low + self.below(high - low + 1)) as f64 + if self.chance(30) { 0.37 } else { 0.0 }
    }
}

fn random_graph(seed: u64) -> Graph {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let rank_dir = [
        RankDir::TopToBottom,
        RankDir::LeftToRight,
        RankDir::BottomToTop,
        RankDir::RightToLeft,
    ][rng.below(4)];
    let mut graph = Graph {
        options: GraphOptions {
            rank_dir,
            node_sep: rng.size(5, 40),
            rank_sep: rng.size(10, 60),
        },
        ..Graph::default()
    };
    let cluster_count = if rng.chance(50) { rng.below(5) } else { 0 };
    for c in 0..cluster_count {
        let parent = if c > 0 && rng.chance(50) {
            Some(rng.below(c))
        } else {
            None
        };
        let label = rng.chance(50).then(|| Size::new(rng.size(10, 80), rng.size(8, 20)));
        graph.add_cluster(Cluster {
            parent,
            label,
            margin: 8.0,
        });
    }
    let node_count = 1 + rng.below(25);
    for _ in 0..node_count {
        let mut node = Node::new(rng.size(1, 150), rng.size(1, 90));
        if cluster_count > 0 && rng.chance(60) {
            node.cluster = Some(rng.below(cluster_count));
        }
        graph.add_node(node);
    }
    let edge_count = rng.below(node_count * 2 + 1);
    for _ in 0..edge_count {
        let mut edge = Edge::new(rng.below(node_count), rng.below(node_count));
        edge.min_len = [0, 1, 1, 1, 2, 3][rng.below(6)];
        edge.weight = [0.0, 1.0, 1.0, 2.0, 5.0][rng.below(5)];
        edge.constraint = !rng.chance(10);
        if rng.chance(25) {
            edge.label = Some(Size::new(rng.size(5, 80), rng.size(8, 20)));
        }
        if rng.chance(15) {
            edge.tail_label = Some(Size::new(rng.size(5, 20), 15.0));
        }
        if rng.chance(15) {
            edge.head_label = Some(Size::new(rng.size(5, 20), 15.0));
        }
        graph.edges.push(edge);
    }
    if node_count > 2 && rng.chance(20) {
        let group: Vec<usize> = (0..2 + rng.below(2)).map(|_| rng.below(node_count)).collect();
        graph.same_rank.push(group);
    }
    graph
}

fn on_border(p: Point, r: &Rect) -> bool {
    const SLACK: f64 = 1.0;
    let inside_x = p.x >= r.x - SLACK && p.x <= r.x + r.width + SLACK;
    let inside_y = p.y >= r.y - SLACK && p.y <= r.y + r.height + SLACK;
    let near_side = (p.x - r.x).abs() <= SLACK
        || (p.x - r.x - r.width).abs() <= SLACK
        || (p.y - r.y).abs() <= SLACK
        || (p.y - r.y - r.height).abs() <= SLACK;
    inside_x && inside_y && near_side
}

fn check(seed: u64, graph: &Graph, drawn: &Layout) -> Result<(), String> {
    let finite = |p: &Point| p.x.is_finite() && p.y.is_finite();
    for (i, r) in drawn.nodes.iter().enumerate() {
        if ![r.x, r.y, r.width, r.height].iter().all(|v| v.is_finite()) {
            return Err(format!("node {i} not finite: {r:?}"));
        }
    }
    for (i, r) in drawn.nodes.iter().chain(&drawn.clusters).enumerate() {
        let inside = r.x >= -1e-9
            && r.y >= -1e-9
            && r.x + r.width <= drawn.width + 1e-6
            && r.y + r.height <= drawn.height + 1e-6;
        if !inside {
            return Err(format!(
                "box {i} {r:?} outside the drawing {} x {}",
                drawn.width, drawn.height
            ));
        }
    }
    for (i, e) in drawn.edges.iter().enumerate() {
        if !e.points.iter().all(finite) || !e.label.iter().all(finite) {
            return Err(format!("edge {i} not finite"));
        }
    }
    // Boxes on one rank (same centre across the rank axis) keep node_sep apart.
    let sideways = matches!(graph.options.rank_dir, RankDir::LeftToRight | RankDir::RightToLeft);
    let axis = |r: &Rect| if sideways { r.center().x } else { r.center().y };
    let span = |r: &Rect| {
        if sideways {
            (r.y, r.y + r.height)
        } else {
            (r.x, r.x + r.width)
        }
    };
    for a in 0..drawn.nodes.len() {
        for b in a + 1..drawn.nodes.len() {
            let (ra, rb) = (&drawn.nodes[a], &drawn.nodes[b]);
            if (axis(ra) - axis(rb)).abs() > 0.01 {
                continue;
            }
            let ((a0, a1), (b0, b1)) = (span(ra), span(rb));
            let gap = if a0 <= b0 { b0 - a1 } else { a0 - b1 };
            // dot keeps widths in whole points: half a point either side.
            if gap < graph.options.node_sep.round() - 1.01 {
                return Err(format!("nodes {a} and {b} on one rank {gap:.2} apart (seed {seed})"));
            }
        }
    }
    for (i, (edge, route)) in graph.edges.iter().zip(&drawn.edges).enumerate() {
        let (Some(first), Some(last)) = (route.points.first(), route.points.last()) else {
            return Err(format!("edge {i} has no route"));
        };
        if (route.points.len() - 1) % 3 != 0 {
            return Err(format!("edge {i}: {} points is not p0 (c1 c2 p)+", route.points.len()));
        }
        if !on_border(*first, &drawn.nodes[edge.tail]) || !on_border(*last, &drawn.nodes[edge.head]) {
            return Err(format!("edge {i} does not run border to border: {first:?} … {last:?}"));
        }
        if edge.label.is_some() != route.label.is_some() {
            return Err(format!("edge {i}: label placed iff given"));
        }
    }
    // Clusters hold their nodes and their sub-clusters.
    let contains = |outer: &Rect, inner: &Rect| {
        inner.x >= outer.x - 0.5
            && inner.y >= outer.y - 0.5
            && inner.x + inner.width <= outer.x + outer.width + 0.5
            && inner.y + inner.height <= outer.y + outer.height + 0.5
    };
    for (v, node) in graph.nodes.iter().enumerate() {
        let mut current = node.cluster;
        while let Some(c) = current {
            if !contains(&drawn.clusters[c], &drawn.nodes[v]) {
                return Err(format!(
                    "cluster {c} does not hold node {v}: {:?} vs {:?}",
                    drawn.clusters[c], drawn.nodes[v]
                ));
            }
            current = graph.clusters[c].parent;
        }
    }
    let has_nodes = |c: usize| {
        graph.nodes.iter().any(|n| {
            let mut current = n.cluster;
            while let Some(k) = current {
                if k == c {
                    return true;
                }
                current = graph.clusters[k].parent;
            }
            false
        })
    };
    for a in 0..graph.clusters.len() {
        for b in a + 1..graph.clusters.len() {
            if graph.clusters[a].parent != graph.clusters[b].parent || !has_nodes(a) || !has_nodes(b) {
                continue;
            }
            let (ra, rb) = (&drawn.clusters[a], &drawn.clusters[b]);
            let apart = ra.x + ra.width <= rb.x + 0.5
                || rb.x + rb.width <= ra.x + 0.5
                || ra.y + ra.height <= rb.y + 0.5
                || rb.y + rb.height <= ra.y + 0.5;
            if !apart {
                return Err(format!("sibling clusters {a} and {b} overlap: {ra:?} {rb:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn random_graphs_keep_the_invariants() {
    let mut failures = Vec::new();
    for seed in 0..400u64 {
        let graph = random_graph(seed);
        match layout(&graph) {
            Ok(drawn) => {
                if let Err(message) = check(seed, &graph, &drawn) {
                    failures.push(format!("seed {seed}: {message}"));
                }
            }
            Err(e) => failures.push(format!("seed {seed}: refused: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 400 graphs break an invariant:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn oversized_graphs_are_refused() {
    let mut graph = Graph::default();
    for _ in 0..=puml_graph::MAX_NODES {
        graph.add_node(Node::new(10.0, 10.0));
    }
    assert!(matches!(layout(&graph), Err(puml_graph::LayoutError::TooLarge { .. })));
}

#[test]
fn bad_references_are_errors_not_panics() {
    let mut graph = Graph::default();
    graph.add_node(Node::new(10.0, 10.0));
    graph.edges.push(Edge::new(0, 5));
    assert!(matches!(
        layout(&graph),
        Err(puml_graph::LayoutError::InvalidReference(_))
    ));
    let mut graph = Graph::default();
    graph.add_cluster(Cluster {
        parent: Some(1),
        ..Cluster::default()
    });
    graph.add_cluster(Cluster {
        parent: Some(0),
        ..Cluster::default()
    });
    assert!(matches!(
        layout(&graph),
        Err(puml_graph::LayoutError::InvalidReference(_))
    ));
    let mut graph = Graph::default();
    graph.add_node(Node::new(f64::NAN, 10.0));
    assert!(matches!(layout(&graph), Err(puml_graph::LayoutError::InvalidSize(_))));
}
