//! The engine's work is bounded on adversarial graphs: random edges between
//! any two nodes make deep ranks and long edges (tens of thousands of
//! virtual nodes from a few hundred boxes), the case where network simplex
//! on the coordinate problem once took seconds. Work is counted (layered
//! nodes, simplex pivots and the nodes they may visit), never timed.

use puml_graph::{layout_counting_work, Edge, Graph, LayoutError, Node, MAX_LAYERED_NODES};

/// xorshift64: the same graphs on every machine.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn random_long_edges(nodes: usize, edges: usize, seed: u64) -> Graph {
    let mut rng = Rng(seed | 1);
    let mut graph = Graph::default();
    for _ in 0..nodes {
        graph.add_node(Node::new(80.0 + rng.below(100) as f64, 40.0 + rng.below(60) as f64));
    }
    for _ in 0..edges {
        let (tail, head) = (rng.below(nodes), rng.below(nodes));
        graph.edges.push(Edge::new(tail, head));
    }
    graph
}

/// Pivots × component size one simplex solve may spend (the engine's
/// `SIMPLEX_WORK_BUDGET`), and how many solves a graph without clusters
/// makes: ranking and coordinates, one each.
const SOLVE_BUDGET: u64 = 20_000_000;
const SOLVES: u64 = 2;

#[test]
fn random_long_edges_are_laid_out_within_the_work_budget() {
    // 300 boxes, 900 random edges: 35,397 layered nodes, under the refusal
    // limit, so the graph is laid out. Without the budget its solves made
    // 1,945 pivots and 138 million node visits (tens of seconds); with it,
    // 293 pivots and 20 million.
    let graph = random_long_edges(300, 900, 300);
    let (answer, work) = layout_counting_work(&graph);
    assert!(
        work.layered_nodes > 20_000 && work.layered_nodes <= MAX_LAYERED_NODES,
        "the graph no longer tests the budget: {work:?}"
    );
    let drawn = answer.expect("laid out, not refused");
    assert_eq!(drawn.edges.len(), graph.edges.len());
    assert!(
        drawn.edges.iter().all(|route| route.points.len() >= 4),
        "every edge routed"
    );
    assert!(
        work.simplex_work <= SOLVES * SOLVE_BUDGET,
        "simplex work over budget: {work:?}"
    );
    assert!(work.simplex_pivots > 0, "{work:?}");
}

#[test]
fn too_many_virtual_nodes_are_refused_before_the_work() {
    // 2,000 boxes, 3,000 random edges: the long edges would need more than
    // MAX_LAYERED_NODES virtual nodes, so the graph is refused after ranking.
    let graph = random_long_edges(2_000, 3_000, 2_000);
    let (answer, work) = layout_counting_work(&graph);
    assert!(matches!(answer, Err(LayoutError::TooLarge { .. })), "{work:?}");
    assert!(work.layered_nodes > MAX_LAYERED_NODES, "{work:?}");
    assert!(work.simplex_work <= SOLVE_BUDGET, "only ranking ran: {work:?}");
}
