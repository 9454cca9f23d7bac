//! The engine against dot's own layouts: every `test-data/graph/NAME.dot`
//! (PlantUML's svek.dot requests and generated graphs) beside dot's
//! `NAME.plain` answer (made by `scripts/graph_reference.sh`). Agreement is
//! measured per stage (ranks: vertical order; order within ranks: horizontal
//! order; coordinates: boxes within 2 px) and must not fall under the level
//! reached (a ratchet: raise the floors as the engine improves).

mod support;

use puml_graph::layout;
use std::path::Path;
use support::dot::{read_dot, read_plain};

/// Share of node pairs in dot's vertical order, over all references.
const FLOOR_VERTICAL_ORDER: f64 = 0.994;
/// Share of node pairs in dot's horizontal order, over all references.
const FLOOR_HORIZONTAL_ORDER: f64 = 0.984;
/// Share of node pairs on one rank (in both layouts) in dot's left-right order.
const FLOOR_ORDER_WITHIN_RANKS: f64 = 0.985;
/// Share of graphs whose vertical order is dot's for every pair (ranks equal).
const FLOOR_RANKS_EQUAL: f64 = 0.915;
/// Share of graphs whose horizontal order is dot's for every pair.
const FLOOR_ORDER_EQUAL: f64 = 0.83;
/// Share of nodes whose centre is within 2 px of dot's.
const FLOOR_NODES_WITHIN_2PX: f64 = 0.775;
/// Share of graphs with every node within 2 px of dot's (whole layout).
const FLOOR_LAYOUT_EQUAL: f64 = 0.75;

/// Share of edge labels whose centre is within 2 px of dot's.
const FLOOR_LABELS_WITHIN_2PX: f64 = 0.425;

/// Two coordinates closer than this are "level" (dot's plain output has
/// four or five significant digits).
const LEVEL: f64 = 1.0;

fn order(a: f64, b: f64) -> i8 {
    if (a - b).abs() <= LEVEL {
        0
    } else if a < b {
        -1
    } else {
        1
    }
}

#[derive(Default)]
struct Tally {
    graphs: usize,
    pairs: usize,
    vertical_agree: usize,
    horizontal_agree: usize,
    ranks_equal: usize,
    order_equal: usize,
    nodes: usize,
    nodes_within: usize,
    layouts_equal: usize,
    failures: Vec<String>,
    /// Pairs on one rank in both layouts, and those in dot's left-right order.
    same_rank_pairs: usize,
    same_rank_agree: usize,
    /// Edge labels dot placed, and those we place within 2 px.
    labels: usize,
    labels_within: usize,
    worst: Vec<(f64, String)>,
}

#[test]
fn layouts_agree_with_dot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/graph");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("test-data/graph")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dot") && p.with_extension("plain").exists())
        .collect();
    files.sort();
    // PUML_GRAPH_ONLY=NAME: just that reference (for tracing one graph).
    if let Ok(only) = std::env::var("PUML_GRAPH_ONLY") {
        files.retain(|f| f.file_stem().is_some_and(|s| s.to_string_lossy() == only));
    }
    assert!(!files.is_empty(), "no references in {}", dir.display());
    let mut tally = Tally::default();
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let dot = read_dot(&std::fs::read_to_string(file).unwrap());
        let plain = read_plain(&std::fs::read_to_string(file.with_extension("plain")).unwrap());
        if std::env::var_os("PUML_GRAPH_TRACE").is_some() {
            eprintln!("=== {name}");
        }
        let ours = match layout(&dot.graph) {
            Ok(l) => l,
            Err(e) => {
                tally.failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        tally.graphs += 1;
        // Positions up to a translation: dot's drawing box also holds the
        // head and tail labels it places afterwards, which moves everything.
        let mut theirs = Vec::new();
        let mut mine = Vec::new();
        for (id, node_name) in dot.names.iter().enumerate() {
            if let Some(&(x, y, w, h)) = plain.nodes.get(node_name) {
                theirs.push((x, y, w, h));
                let r = ours.nodes[id];
                let c = r.center();
                mine.push((c.x, c.y, r.width, r.height));
            }
        }
        let normalise = |points: &mut Vec<(f64, f64, f64, f64)>| {
            let left = points.iter().map(|p| p.0 - p.2 / 2.0).fold(f64::INFINITY, f64::min);
            let top = points.iter().map(|p| p.1 - p.3 / 2.0).fold(f64::INFINITY, f64::min);
            for p in points.iter_mut() {
                p.0 -= left;
                p.1 -= top;
            }
            (left, top)
        };
        let offset_theirs = normalise(&mut theirs);
        let offset_mine = normalise(&mut mine);
        if std::env::var("PUML_GRAPH_SHOW").is_ok_and(|s| s == name) {
            for (id, node_name) in dot.names.iter().enumerate() {
                let c = ours.nodes[id].center();
                let t = plain.nodes.get(node_name).map(|t| (t.0, t.1)).unwrap_or_default();
                println!(
                    "{node_name}: dot ({:.1}, {:.1}) ours ({:.1}, {:.1})",
                    t.0, t.1, c.x, c.y
                );
            }
        }
        let (mut pairs, mut v_ok, mut h_ok) = (0, 0, 0);
        for i in 0..theirs.len() {
            for j in i + 1..theirs.len() {
                if order(theirs[i].1, theirs[j].1) == 0 && order(mine[i].1, mine[j].1) == 0 {
                    tally.same_rank_pairs += 1;
                    tally.same_rank_agree +=
                        usize::from(order(theirs[i].0, theirs[j].0) == order(mine[i].0, mine[j].0));
                }
                pairs += 1;
                v_ok += usize::from(order(theirs[i].1, theirs[j].1) == order(mine[i].1, mine[j].1));
                h_ok += usize::from(order(theirs[i].0, theirs[j].0) == order(mine[i].0, mine[j].0));
            }
        }
        // Edge labels: dot's centre against ours, matched by ends in order,
        // moved by the same translation as the nodes.
        let mut used = vec![false; plain.edges.len()];
        for (i, edge) in dot.graph.edges.iter().enumerate() {
            let (Some(ours_label), Some(_)) = (ours.edges[i].label, edge.label) else {
                continue;
            };
            let (tail, head) = (&dot.names[edge.tail], &dot.names[edge.head]);
            let found = plain
                .edges
                .iter()
                .enumerate()
                .position(|(k, e)| !used[k] && &e.0 == tail && &e.1 == head);
            if let Some(k) = found {
                used[k] = true;
                if let Some((lx, ly)) = plain.edges[k].3 {
                    tally.labels += 1;
                    let (tx, ty) = (lx - offset_theirs.0, ly - offset_theirs.1);
                    let (mx, my) = (ours_label.x - offset_mine.0, ours_label.y - offset_mine.1);
                    if (tx - mx).abs() <= 2.0 && (ty - my).abs() <= 2.0 {
                        tally.labels_within += 1;
                    }
                    if std::env::var("PUML_GRAPH_SHOW").is_ok_and(|s| s == name) {
                        println!("label {tail}->{head}: dot ({tx:.1}, {ty:.1}) ours ({mx:.1}, {my:.1})");
                    }
                }
            }
        }
        let within = theirs
            .iter()
            .zip(&mine)
            .filter(|(a, b)| (a.0 - b.0).abs() <= 2.0 && (a.1 - b.1).abs() <= 2.0)
            .count();
        tally.pairs += pairs;
        tally.vertical_agree += v_ok;
        tally.horizontal_agree += h_ok;
        tally.ranks_equal += usize::from(v_ok == pairs);
        tally.order_equal += usize::from(h_ok == pairs);
        tally.nodes += theirs.len();
        tally.nodes_within += within;
        tally.layouts_equal += usize::from(within == theirs.len());
        let score = if pairs == 0 {
            1.0
        } else {
            (v_ok + h_ok) as f64 / (2 * pairs) as f64
        };
        tally.worst.push((
            score,
            format!(
                "{name}: v {v_ok}/{pairs} h {h_ok}/{pairs} within {within}/{}",
                theirs.len()
            ),
        ));
    }
    let share = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    let vertical = share(tally.vertical_agree, tally.pairs);
    let horizontal = share(tally.horizontal_agree, tally.pairs);
    let ranks_equal = share(tally.ranks_equal, tally.graphs);
    let order_equal = share(tally.order_equal, tally.graphs);
    let within = share(tally.nodes_within, tally.nodes);
    let rank_order = share(tally.same_rank_agree, tally.same_rank_pairs);
    let labels_within = share(tally.labels_within, tally.labels);
    let layout_equal = share(tally.layouts_equal, tally.graphs);
    tally.worst.sort_by(|a, b| a.0.total_cmp(&b.0));
    if std::env::var_os("PUML_GRAPH_VERBOSE").is_some() {
        for (_, line) in &tally.worst {
            println!("{line}");
        }
    }
    println!(
        "{} graphs: ranks equal on {}/{} ({:.1} %), vertical order {:.2} %, horizontal order {:.2} %, \
         order within ranks {:.2} %, order equal on {}/{} ({:.1} %), nodes within 2 px {:.1} %, whole layout on {}/{} ({:.1} %)",
        tally.graphs,
        tally.ranks_equal,
        tally.graphs,
        100.0 * ranks_equal,
        100.0 * vertical,
        100.0 * horizontal,
        100.0 * rank_order,
        tally.order_equal,
        tally.graphs,
        100.0 * order_equal,
        100.0 * within,
        tally.layouts_equal,
        tally.graphs,
        100.0 * layout_equal,
    );
    println!(
        "edge labels within 2 px of dot's: {}/{} ({:.1} %)",
        tally.labels_within,
        tally.labels,
        100.0 * labels_within
    );
    assert!(tally.failures.is_empty(), "layout refused: {:?}", tally.failures);
    let floors = [
        ("vertical order", vertical, FLOOR_VERTICAL_ORDER),
        ("horizontal order", horizontal, FLOOR_HORIZONTAL_ORDER),
        ("ranks equal", ranks_equal, FLOOR_RANKS_EQUAL),
        ("order within ranks", rank_order, FLOOR_ORDER_WITHIN_RANKS),
        ("order equal", order_equal, FLOOR_ORDER_EQUAL),
        ("nodes within 2 px", within, FLOOR_NODES_WITHIN_2PX),
        ("whole layout", layout_equal, FLOOR_LAYOUT_EQUAL),
        ("edge labels within 2 px", labels_within, FLOOR_LABELS_WITHIN_2PX),
    ];
    for (what, reached, floor) in floors {
        assert!(
            reached + 1e-9 >= floor,
            "{what} fell to {:.2} % (floor {:.2} %)",
            100.0 * reached,
            100.0 * floor
        );
    }
}
