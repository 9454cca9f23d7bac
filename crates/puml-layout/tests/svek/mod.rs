//! Reads a graph in dot's language (PlantUML's `svek.dot`, or the graph
//! puml writes for the same diagram) and compares two of them, part by
//! part; shared by the class and description graph ratchets.
//! - nodes: how many, their sizes (within 1 px) and their order (dot reads
//!   nodes in order of first mention, and its ordering starts from it);
//! - clusters: their nesting and title sizes, and each node's depth;
//! - edges: ends, `minlen`, label, tail and head label sizes,
//!   `constraint=false`, in file order; and `rankdir`.

use puml_sema::model::Diagram;
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::path::{Path, PathBuf};

pub fn shared() -> PathBuf {
    match std::env::var_os("PUML_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

#[derive(Debug, Default)]
pub struct DotNode {
    size: Option<(f64, f64)>,
    cluster: Option<usize>,
}

#[derive(Debug, PartialEq)]
pub struct DotEdge {
    tail: usize,
    head: usize,
    min_len: u32,
    label: Option<(f64, f64)>,
    tail_label: Option<(f64, f64)>,
    head_label: Option<(f64, f64)>,
    constraint: bool,
}

/// A width and height in px.
type Size = (f64, f64);

#[derive(Debug, Default)]
pub struct DotGraph {
    names: Vec<String>,
    nodes: Vec<DotNode>,
    /// Per cluster: its parent and title size.
    clusters: Vec<(Option<usize>, Option<Size>)>,
    edges: Vec<DotEdge>,
    left_to_right: bool,
}

/// `WIDTH="54" HEIGHT="17"` of the first table in `text`.
fn table(text: &str) -> Option<(f64, f64)> {
    let number = |key: &str| -> Option<f64> {
        let at = text.find(&format!(" {key}=\""))? + key.len() + 3;
        let end = text[at..].find('"')? + at;
        text[at..end].parse().ok()
    };
    Some((number("WIDTH")?, number("HEIGHT")?))
}

/// The size of a `shape=plaintext` node whose label is a 3 × 3 table
/// around a port cell (an interface's circle with its name below): the
/// middle row's widths and the middle column's heights added up.
fn port_table(line: &str) -> Option<(f64, f64)> {
    let mut cells = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(" WIDTH=\"") {
        rest = &rest[at + 8..];
        let width: f64 = rest[..rest.find('"')?].parse().ok()?;
        let at = rest.find(" HEIGHT=\"")? + 9;
        rest = &rest[at..];
        let height: f64 = rest[..rest.find('"')?].parse().ok()?;
        cells.push((width, height));
    }
    match cells[..] {
        [top, left, port, right, bottom] => Some((left.0 + port.0 + right.0, top.1 + port.1 + bottom.1)),
        _ => None,
    }
}

/// The value of `key=` in an attribute list (not `taillabel=` for `label=`).
fn attribute<'a>(attrs: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(at) = attrs[from..].find(&format!("{key}=")).map(|i| i + from) {
        let before = attrs[..at].chars().next_back();
        if matches!(before, None | Some(',') | Some('[') | Some(' ')) {
            let rest = &attrs[at + key.len() + 1..];
            let end = if rest.starts_with("<<") {
                rest.find("</TABLE>>").map_or(rest.len(), |i| i + 9)
            } else {
                rest.find([',', ']']).unwrap_or(rest.len())
            };
            return Some(&rest[..end]);
        }
        from = at + key.len();
    }
    None
}

impl DotGraph {
    fn node(&mut self, name: &str) -> usize {
        let name = name.split(':').next().unwrap_or(name).trim();
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return i;
        }
        self.names.push(name.to_string());
        self.nodes.push(DotNode::default());
        self.nodes.len() - 1
    }

    pub fn read(text: &str) -> DotGraph {
        let mut g = DotGraph::default();
        let mut stack: Vec<usize> = Vec::new();
        for line in text.lines().map(str::trim) {
            // A package's link point, then its inner clusters, on one line:
            // `zaent0001 [shape=point,width=.01,label=""];subgraph …`.
            let is_edge = line.split('[').next().is_some_and(|ends| ends.contains("->"));
            let line = match line
                .strip_prefix("za")
                .filter(|_| !is_edge)
                .and_then(|_| line.split_once("];"))
            {
                Some((point, rest)) => {
                    let name = point.split(' ').next().unwrap_or(point);
                    let id = g.node(name);
                    g.nodes[id].cluster = stack.last().copied();
                    g.nodes[id].size = Some((0.72, 0.72));
                    rest.trim()
                }
                None => line,
            };
            if line.starts_with("subgraph") {
                for part in line.split("subgraph ").skip(1) {
                    let label = if part.contains("TABLE") { table(part) } else { None };
                    g.clusters.push((stack.last().copied(), label));
                    stack.push(g.clusters.len() - 1);
                }
            } else if line.starts_with('}') {
                for _ in line.chars().filter(|&c| c == '}') {
                    stack.pop();
                }
            } else if line.starts_with("rankdir=LR") {
                g.left_to_right = true;
            } else if let Some((ends, attrs)) = line
                .split_once('[')
                .or_else(|| line.strip_suffix(';').map(|ends| (ends, "")))
                .filter(|(ends, _)| ends.contains("->"))
            {
                let (tail, head) = ends.split_once("->").unwrap_or_default();
                let (tail, head) = (g.node(tail), g.node(head));
                g.edges.push(DotEdge {
                    tail,
                    head,
                    min_len: attribute(attrs, "minlen").and_then(|v| v.parse().ok()).unwrap_or(1),
                    label: attribute(attrs, "label").and_then(table),
                    tail_label: attribute(attrs, "taillabel").and_then(table),
                    head_label: attribute(attrs, "headlabel").and_then(table),
                    constraint: attribute(attrs, "constraint") != Some("false"),
                });
            } else if line.starts_with("sh") || line.starts_with("za") {
                let name = line.split(['[', ';', ' ']).next().unwrap_or(line);
                let id = g.node(name);
                g.nodes[id].cluster = stack.last().copied();
                let inches = |key: &str| {
                    attribute(line, key)
                        .and_then(|v| v.parse::<f64>().ok())
                        .map(|v| v * 72.0)
                };
                if let (Some(w), Some(h)) = (inches("width"), inches("height")) {
                    g.nodes[id].size = Some((w, h));
                } else if let Some(size) = port_table(line) {
                    g.nodes[id].size = Some(size);
                }
            }
        }
        g
    }

    fn depth(&self, mut cluster: Option<usize>) -> usize {
        let mut depth = 0;
        while let Some(c) = cluster {
            depth += 1;
            cluster = self.clusters.get(c).and_then(|c| c.0);
            if depth > self.clusters.len() {
                break;
            }
        }
        depth
    }
}

fn near(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a.0 - b.0).abs() <= 1.0 && (a.1 - b.1).abs() <= 1.0,
        (None, None) => true,
        _ => false,
    }
}

/// The differences between puml's graph and PlantUML's, per part.
pub fn compare(ours: &DotGraph, theirs: &DotGraph) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut nodes = Vec::new();
    if ours.nodes.len() != theirs.nodes.len() {
        nodes.push(format!(
            "{} nodes, PlantUML {}: {:?}, PlantUML {:?}",
            ours.nodes.len(),
            theirs.nodes.len(),
            ours.names,
            theirs.names
        ));
    }
    for (i, (o, t)) in ours.nodes.iter().zip(&theirs.nodes).enumerate() {
        if !near(o.size, t.size) {
            nodes.push(format!("node {i}: {:?}, PlantUML {:?}", o.size, t.size));
        }
    }
    let mut clusters = Vec::new();
    let shape = |g: &DotGraph| -> Vec<(usize, Option<(f64, f64)>)> {
        g.clusters
            .iter()
            .map(|(parent, label)| (g.depth(*parent), *label))
            .collect()
    };
    if shape(ours) != shape(theirs) {
        clusters.push(format!("clusters {:?}, PlantUML {:?}", shape(ours), shape(theirs)));
    }
    for (i, (o, t)) in ours.nodes.iter().zip(&theirs.nodes).enumerate() {
        if ours.depth(o.cluster) != theirs.depth(t.cluster) {
            clusters.push(format!(
                "node {i} at depth {}, PlantUML {}",
                ours.depth(o.cluster),
                theirs.depth(t.cluster)
            ));
        }
    }
    let mut edges = Vec::new();
    if ours.left_to_right != theirs.left_to_right {
        edges.push(format!(
            "rankdir LR {}, PlantUML {}",
            ours.left_to_right, theirs.left_to_right
        ));
    }
    if ours.edges.len() != theirs.edges.len() {
        edges.push(format!("{} edges, PlantUML {}", ours.edges.len(), theirs.edges.len()));
    }
    for (i, (o, t)) in ours.edges.iter().zip(&theirs.edges).enumerate() {
        let same = o.tail == t.tail
            && o.head == t.head
            && o.min_len == t.min_len
            && o.constraint == t.constraint
            && near(o.label, t.label)
            && near(o.tail_label, t.tail_label)
            && near(o.head_label, t.head_label);
        if !same {
            edges.push(format!("edge {i}: {o:?}\n   PlantUML {t:?}"));
        }
    }
    (nodes, clusters, edges)
}

/// How many diagrams must agree with PlantUML, per part.
pub struct Floors {
    pub nodes: usize,
    pub clusters: usize,
    pub edges: usize,
}

/// Compares, for every `{prefix}NNN.dot` in `references`, the graph `build`
/// writes for `corpus/NNN.puml` with the stored one. Prints the diagrams
/// that differ (with `PUML_SVEK_ONLY=NNN`, the differences) and fails when
/// the counts fall under `floors`. `PUML_SVEK_DUMP=1` beside
/// `PUML_SVEK_ONLY` prints the graph puml builds.
pub fn ratchet(references: &Path, prefix: &str, corpus: &Path, build: fn(&Diagram) -> Option<String>, floors: Floors) {
    assert!(
        corpus.is_dir(),
        "{} is missing: the comparison needs the corpus' sources",
        corpus.display()
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(references)
        .expect("the stored svek.dot files")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "dot")
                && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    files.sort();
    let only = std::env::var("PUML_SVEK_ONLY").ok();
    let (mut diagrams, mut nodes_ok, mut clusters_ok, mut edges_ok) = (0, 0, 0, 0);
    for reference in files {
        let stem = reference.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let number = stem.trim_start_matches(prefix).to_string();
        if only.as_ref().is_some_and(|o| *o != number) {
            continue;
        }
        let (Ok(theirs), Ok(source)) = (
            std::fs::read_to_string(&reference),
            std::fs::read_to_string(corpus.join(format!("{number}.puml"))),
        ) else {
            continue;
        };
        let analysis = analyze(&source, &AnalysisOptions::default(), &NoIncludes);
        let ours: String = analysis.document.diagrams.iter().filter_map(build).take(1).collect();
        if only.is_some() && std::env::var_os("PUML_SVEK_DUMP").is_some() {
            println!("{ours}");
        }
        let (nodes, clusters, edges) = compare(&DotGraph::read(&ours), &DotGraph::read(&theirs));
        diagrams += 1;
        nodes_ok += usize::from(nodes.is_empty());
        clusters_ok += usize::from(clusters.is_empty());
        edges_ok += usize::from(edges.is_empty());
        if !(nodes.is_empty() && clusters.is_empty() && edges.is_empty()) {
            let parts: Vec<&str> = [("nodes", &nodes), ("clusters", &clusters), ("edges", &edges)]
                .iter()
                .filter(|(_, d)| !d.is_empty())
                .map(|(what, _)| *what)
                .collect();
            println!("{number}: {} differ", parts.join(", "));
            if only.is_some() {
                for line in nodes.iter().chain(&clusters).chain(&edges) {
                    println!("  {line}");
                }
            }
        }
    }
    println!("{diagrams} diagrams: nodes agree on {nodes_ok}, clusters on {clusters_ok}, edges on {edges_ok}");
    if only.is_none() {
        assert!(
            nodes_ok >= floors.nodes,
            "nodes agree on {nodes_ok} (level {})",
            floors.nodes
        );
        assert!(
            clusters_ok >= floors.clusters,
            "clusters agree on {clusters_ok} (level {})",
            floors.clusters
        );
        assert!(
            edges_ok >= floors.edges,
            "edges agree on {edges_ok} (level {})",
            floors.edges
        );
    }
}
