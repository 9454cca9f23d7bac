//! `cargo xtask bench-layout`: time of `puml_graph::layout` against graph
//! size, on generated graphs shaped like class diagrams (boxes of class
//! sizes, most links to a near earlier class, some labels and packages),
//! 10 to 2,000 nodes; then random graphs whose edges join any two nodes
//! (long edges: many virtual nodes, the engine's worst case short of
//! refusal), 100 to 2,000 nodes at 1.5 and 3 edges per node, with the
//! engine's work counts; then the stress case the engine promises to answer
//! (laid out or refused) within 2 s and 256 MB: 2,000 nodes and 20,000
//! random edges. Prints median times and the process's peak memory. A
//! benchmark: it prints, never fails on figures (run it with --release).

use puml_graph::{layout, layout_counting_work, Cluster, Edge, Graph, Node, Size};
use std::time::{Duration, Instant};

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
}

/// A class-diagram-like graph: `nodes` boxes, about 1.3 links per box, a
/// package (cluster) per 25 boxes, a label on every fifth link.
fn class_like(nodes: usize, seed: u64) -> Graph {
    let mut rng = Rng(seed | 1);
    let mut graph = Graph::default();
    graph.options.node_sep = 35.0;
    graph.options.rank_sep = 60.0;
    let packages = nodes / 25;
    for _ in 0..packages {
        graph.add_cluster(Cluster {
            label: Some(Size::new(60.0, 11.0)),
            ..Cluster::default()
        });
    }
    for i in 0..nodes {
        let mut node = Node::new(80.0 + rng.below(160) as f64, 40.0 + rng.below(100) as f64);
        if packages > 0 && rng.below(3) > 0 {
            node.cluster = Some((i / 25).min(packages - 1));
        }
        graph.add_node(node);
    }
    for i in 1..nodes {
        let parent = i.saturating_sub(1 + rng.below(8));
        let mut edge = Edge::new(parent, i);
        if rng.below(5) == 0 {
            edge.label = Some(Size::new(40.0 + rng.below(60) as f64, 17.0));
        }
        graph.edges.push(edge);
        if rng.below(10) < 3 {
            graph.edges.push(Edge::new(rng.below(nodes), i));
        }
    }
    graph
}

fn random_dense(nodes: usize, edges: usize, seed: u64) -> Graph {
    let mut rng = Rng(seed | 1);
    let mut graph = Graph::default();
    for _ in 0..nodes {
        graph.add_node(Node::new(80.0 + rng.below(100) as f64, 40.0 + rng.below(60) as f64));
    }
    for _ in 0..edges {
        graph.edges.push(Edge::new(rng.below(nodes), rng.below(nodes)));
    }
    graph
}

/// Nodes of diagram sizes and `edges_per_node × nodes` edges between
/// random pairs: ranks are deep and edges span many of them.
fn random_long_edges(nodes: usize, edges_per_node: f64, seed: u64) -> Graph {
    let edges = (nodes as f64 * edges_per_node) as usize;
    let mut graph = random_dense(nodes, edges, seed);
    graph.options.node_sep = 35.0;
    graph.options.rank_sep = 60.0;
    graph
}

fn median(mut run: impl FnMut(), budget: Duration) -> (Duration, usize) {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || (start.elapsed() < budget && times.len() < 200) {
        let t = Instant::now();
        run();
        times.push(t.elapsed());
    }
    times.sort();
    (times[times.len() / 2], times.len())
}

fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

pub fn run(_args: &[String]) -> Result<(), String> {
    if cfg!(debug_assertions) {
        eprintln!("note: a debug build; run `cargo xtask bench-layout` from a --release build for real figures");
    }
    println!(
        "{:>7} {:>7} {:>10} {:>12} {:>6}",
        "nodes", "edges", "clusters", "median", "runs"
    );
    for &n in &[10usize, 30, 100, 300, 1000, 2000] {
        let graph = class_like(n, 7 + n as u64);
        let mut outcome = String::new();
        let (time, runs) = median(
            || {
                outcome = match layout(&graph) {
                    Ok(_) => String::new(),
                    Err(e) => format!("  ({e})"),
                }
            },
            Duration::from_secs(2),
        );
        println!(
            "{:>7} {:>7} {:>10} {:>9.2} ms {:>6}{outcome}",
            n,
            graph.edges.len(),
            graph.clusters.len(),
            time.as_secs_f64() * 1000.0,
            runs
        );
    }
    println!();
    println!(
        "{:>7} {:>7} {:>12} {:>8} {:>14} {:>12} {:>6}",
        "random", "edges", "layered", "pivots", "pivot work", "median", "runs"
    );
    for &n in &[100usize, 300, 1000, 2000] {
        for &per_node in &[1.5, 3.0] {
            let graph = random_long_edges(n, per_node, 31 + n as u64);
            let (answer, work) = layout_counting_work(&graph);
            let outcome = match answer {
                Ok(_) => String::new(),
                Err(e) => format!("  (refused: {e})"),
            };
            let (time, runs) = median(
                || {
                    std::hint::black_box(layout(&graph)).ok();
                },
                Duration::from_secs(2),
            );
            println!(
                "{:>7} {:>7} {:>12} {:>8} {:>14} {:>9.2} ms {:>6}{outcome}",
                n,
                graph.edges.len(),
                work.layered_nodes,
                work.simplex_pivots,
                work.simplex_work,
                time.as_secs_f64() * 1000.0,
                runs
            );
        }
    }
    let stress = random_dense(2000, 20_000, 99);
    let start = Instant::now();
    let answer = layout(&stress);
    let took = start.elapsed();
    println!(
        "stress 2,000 nodes, 20,000 random edges: {} in {:.0} ms (limit 2,000 ms)",
        match &answer {
            Ok(_) => "laid out".to_string(),
            Err(e) => format!("refused ({e})"),
        },
        took.as_secs_f64() * 1000.0
    );
    match peak_memory_mb() {
        Some(mb) => println!("peak memory of this process: {mb:.0} MB (limit 256 MB)"),
        None => println!("peak memory: not available on this system"),
    }
    Ok(())
}
