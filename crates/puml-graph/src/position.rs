//! Stage 4: coordinates in top-to-bottom space, as dot's position phase
//! computes them.
//!
//! y: each rank's axis, from the tallest box on each rank (half heights in
//! whole points), `rank_sep` between ranks (halved when edges have labels),
//! and room for cluster margins and titles.
//!
//! x: network simplex on the auxiliary graph (Gansner et al. 1993,
//! section 4.2): neighbours on a rank are kept apart by an edge whose
//! minimum length is their half widths plus `node_sep`; every edge of the
//! layered graph becomes a slack node with two edges to its ends, so that
//! minimising the weighted total length pulls edges straight (long edges
//! hardest); clusters get a left and a right boundary node that hold their
//! nodes inside, keep other nodes out and keep sibling clusters apart.

use crate::layered::{Kind, Layered};
use crate::rank::ClusterTree;
use crate::simplex::{solve, Balance, Input, Limits, SimplexEdge};
use crate::Graph;

/// dot's CL_OFFSET: the least gap around a cluster's contents and between
/// clusters, points.
const CLUSTER_OFFSET: f64 = 8.0;
/// dot's separation on odd ranks (the label ranks) when edges have labels.
const LABEL_RANK_SEP: f64 = 5.0;
/// dot pads a cluster's title by 16 points across and 8 down.
const TITLE_PAD: (f64, f64) = (16.0, 8.0);
/// The weight that pulls a cluster's sides together.
const CLUSTER_COMPACTION: f64 = 128.0;
/// Room a self-loop takes right of its node (dot's SELF_EDGE_SIZE).
const SELF_LOOP_SIZE: f64 = 18.0;
/// Pivots allowed for x coordinates, per node of the auxiliary graph.
const PIVOTS_PER_NODE: usize = 8;
/// Negative cut values examined per pivot (PlantUML sets `searchsize=500`).
const SEARCH_SIZE: usize = 500;

pub(crate) struct Coordinates {
    /// Centre x of every layered node.
    pub x: Vec<f64>,
    /// The axis (centre y, downwards) of every rank.
    pub rank_y: Vec<f64>,
    /// Each cluster's box (left, top, right, bottom).
    pub clusters: Vec<[f64; 4]>,
    /// The drawing's box as dot computes it (left, top, right, bottom).
    pub bounds: [f64; 4],
}

// (Kept out of line: profiles then show the phase apart.)
#[inline(never)]
pub(crate) fn assign_coordinates(layered: &Layered, graph: &Graph) -> Coordinates {
    let tree = ClusterTree::new(graph);
    let clusters = ClusterSpans::new(layered, graph, &tree);
    let (rank_y, cluster_y, top, bottom) = y_coordinates(layered, graph, &tree, &clusters);
    let (x, cluster_x) = x_coordinates(layered, graph, &tree, &clusters);

    let mut boxes = vec![[0.0; 4]; graph.clusters.len()];
    for c in 0..graph.clusters.len() {
        boxes[c] = [cluster_x[c].0, cluster_y[c].0, cluster_x[c].1, cluster_y[c].1];
    }
    // dot's bounding box: the real nodes' extents on each rank, and 8 points
    // beyond each top-level cluster.
    let (mut left, mut right) = (f64::INFINITY, f64::NEG_INFINITY);
    for rank in &layered.ranks {
        for &v in rank {
            if matches!(layered.nodes[v].kind, Kind::Real(_)) {
                left = left.min(x[v] - layered.nodes[v].left);
                right = right.max(x[v] + layered.nodes[v].right);
            }
        }
    }
    for (c, b) in boxes.iter().enumerate() {
        if graph.clusters[c].parent.is_none() && clusters.has_nodes(c) {
            left = left.min(b[0] - CLUSTER_OFFSET);
            right = right.max(b[2] + CLUSTER_OFFSET);
        }
    }
    if !left.is_finite() {
        (left, right) = (0.0, 0.0);
    }
    Coordinates {
        x,
        rank_y,
        clusters: boxes,
        bounds: [left, top, right, bottom],
    }
}

/// Which ranks each cluster spans, and its leftmost and rightmost node on each.
struct ClusterSpans {
    /// Per cluster: (min rank, max rank), or None when it holds no node.
    span: Vec<Option<(usize, usize)>>,
    /// Per cluster, per rank from its min rank: (leftmost, rightmost) layered node.
    ends: Vec<Vec<Option<(usize, usize)>>>,
    /// Clusters of each layered node, innermost first.
    path: Vec<Vec<usize>>,
    /// Position of each layered node within its rank.
    pos: Vec<usize>,
}

impl ClusterSpans {
    fn new(layered: &Layered, graph: &Graph, tree: &ClusterTree) -> Self {
        let count = graph.clusters.len();
        let mut pos = vec![0; layered.nodes.len()];
        for rank in &layered.ranks {
            for (i, &v) in rank.iter().enumerate() {
                pos[v] = i;
            }
        }
        let path: Vec<Vec<usize>> = layered
            .nodes
            .iter()
            .map(|node| {
                let mut p = Vec::new();
                let mut current = node.cluster;
                while let Some(c) = current {
                    p.push(c);
                    current = tree.parent[c];
                    if p.len() > count {
                        break;
                    }
                }
                p
            })
            .collect();
        let mut span: Vec<Option<(usize, usize)>> = vec![None; count];
        for (v, clusters) in path.iter().enumerate() {
            let r = layered.nodes[v].rank;
            for &c in clusters {
                span[c] = Some(match span[c] {
                    None => (r, r),
                    Some((a, b)) => (a.min(r), b.max(r)),
                });
            }
        }
        let mut ends: Vec<Vec<Option<(usize, usize)>>> = span
            .iter()
            .map(|s| s.map_or(Vec::new(), |(a, b)| vec![None; b - a + 1]))
            .collect();
        for (v, clusters) in path.iter().enumerate() {
            let r = layered.nodes[v].rank;
            for &c in clusters {
                let (min_rank, _) = span[c].unwrap_or((r, r));
                let slot = &mut ends[c][r - min_rank];
                *slot = Some(match *slot {
                    None => (v, v),
                    Some((a, b)) => (if pos[v] < pos[a] { v } else { a }, if pos[v] > pos[b] { v } else { b }),
                });
            }
        }
        ClusterSpans { span, ends, path, pos }
    }

    fn has_nodes(&self, c: usize) -> bool {
        self.span[c].is_some()
    }

    fn contains(&self, c: usize, v: usize) -> bool {
        self.path[v].contains(&c)
    }
}

/// A cluster title's padded size (dot's border), or zero.
/// Sideways the graph's sizes are turned, and so is the padding.
fn title(graph: &Graph, c: usize) -> (f64, f64) {
    let (pad_x, pad_y) = if sideways(graph) {
        (TITLE_PAD.1, TITLE_PAD.0)
    } else {
        TITLE_PAD
    };
    graph.clusters[c]
        .label
        .map_or((0.0, 0.0), |s| (s.width.round() + pad_x, s.height.round() + pad_y))
}

/// Rank axes (y downwards) and each cluster's top and bottom, plus the
/// drawing's top and bottom.
fn y_coordinates(
    layered: &Layered,
    graph: &Graph,
    tree: &ClusterTree,
    spans: &ClusterSpans,
) -> (Vec<f64>, Vec<(f64, f64)>, f64, f64) {
    let flip = sideways(graph);
    let rank_count = layered.ranks.len();
    let count = graph.clusters.len();
    // Half heights of whole-point heights, as dot keeps them.
    let half = |v: usize| layered.nodes[v].height.round() / 2.0;
    let mut primitive = vec![0.0f64; rank_count];
    let mut above = vec![0.0f64; rank_count]; // dot's ht2: room above the axis
    let mut below = vec![0.0f64; rank_count]; // ht1: room below
    let mut cluster_above = vec![0.0f64; count];
    let mut cluster_below = vec![0.0f64; count];
    let (mut root_above, mut root_below) = (0.0f64, 0.0f64);
    let max_rank = rank_count.saturating_sub(1);
    // A self-loop's label needs room above and below its node: dot takes
    // the label's height as given, even when the graph runs sideways (this
    // engine has turned label sizes by then, so that is the width here).
    let sideways_graph = sideways(graph);
    let mut loop_label_half = vec![0.0f64; graph.nodes.len()];
    for edge in &graph.edges {
        if let (true, Some(label)) = (edge.tail == edge.head, edge.label) {
            let height = if sideways_graph { label.width } else { label.height };
            loop_label_half[edge.tail] = loop_label_half[edge.tail].max(height / 2.0);
        }
    }
    for (r, rank) in layered.ranks.iter().enumerate() {
        for &v in rank {
            let mut h = half(v);
            if let Kind::Real(id) = layered.nodes[v].kind {
                h = h.max(loop_label_half[id]);
            }
            primitive[r] = primitive[r].max(h);
            match layered.nodes[v].cluster {
                Some(c) => {
                    let margin = graph.clusters[c].margin;
                    if let Some((lo, hi)) = spans.span[c] {
                        if r == lo {
                            cluster_above[c] = cluster_above[c].max(h + margin);
                        }
                        if r == hi {
                            cluster_below[c] = cluster_below[c].max(h + margin);
                        }
                    }
                }
                None => {
                    if r == 0 {
                        root_above = root_above.max(h);
                    }
                    if r == max_rank {
                        root_below = root_below.max(h);
                    }
                }
            }
        }
    }
    above.copy_from_slice(&primitive);
    below.copy_from_slice(&primitive);
    // Clusters from the inside out: children's room plus the parent's margin,
    // plus the title on top.
    for &c in &tree.deepest_first {
        let Some((lo, hi)) = spans.span[c] else { continue };
        if !flip {
            let (_, title_height) = title(graph, c);
            cluster_above[c] += title_height;
        }
        above[lo] = above[lo].max(cluster_above[c]);
        below[hi] = below[hi].max(cluster_below[c]);
        match tree.parent[c] {
            Some(p) => {
                let margin = graph.clusters[p].margin;
                if let Some((plo, phi)) = spans.span[p] {
                    if plo == lo {
                        cluster_above[p] = cluster_above[p].max(cluster_above[c] + margin);
                    }
                    if phi == hi {
                        cluster_below[p] = cluster_below[p].max(cluster_below[c] + margin);
                    }
                }
            }
            None => {
                if lo == 0 {
                    root_above = root_above.max(cluster_above[c] + CLUSTER_OFFSET);
                }
                if hi == max_rank {
                    root_below = root_below.max(cluster_below[c] + CLUSTER_OFFSET);
                }
            }
        }
    }
    // dot's ranksep in whole points, halved (rounding up) when edges have labels.
    let mut rank_sep = graph.options.rank_sep.round();
    if layered.doubled {
        rank_sep = ((rank_sep as i64 + 1) / 2) as f64;
    }
    // Axes upwards from the last rank, as dot does, then turned downwards.
    let mut up_y = vec![0.0f64; rank_count];
    if rank_count > 0 {
        up_y[max_rank] = below[max_rank];
        for r in (0..max_rank).rev() {
            let nodes_apart = primitive[r + 1] + primitive[r] + rank_sep;
            let clusters_apart = above[r + 1] + below[r] + CLUSTER_OFFSET;
            up_y[r] = up_y[r + 1] + nodes_apart.max(clusters_apart);
        }
    }
    if flip && rank_count > 0 && graph.clusters.iter().any(|c| c.label.is_some()) {
        // Sideways, titles sit along the ranks: clusters too short for
        // theirs grow, pushing ranks apart (dot's adjustRanks).
        let mut stretch = Stretch {
            up_y: &mut up_y,
            above: &mut above,
            below: &mut below,
            cluster_above: &mut cluster_above,
            cluster_below: &mut cluster_below,
        };
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); count + 1];
        for c in 0..count {
            if spans.span[c].is_some() {
                children[tree.parent[c].map_or(0, |p| p + 1)].push(c);
            }
        }
        // Post-order over the cluster tree, children in input order.
        let mut stack: Vec<(Option<usize>, usize)> = vec![(None, 0)];
        while let Some(top) = stack.last_mut() {
            let (scope, i) = *top;
            let kids = &children[scope.map_or(0, |c| c + 1)];
            if i < kids.len() {
                top.1 += 1;
                stack.push((Some(kids[i]), 0));
                continue;
            }
            stack.pop();
            let Some(c) = scope else {
                for &k in kids {
                    let (lo, hi) = spans.span[k].unwrap_or((0, 0));
                    if hi == max_rank {
                        root_below = root_below.max(stretch.cluster_below[k] + CLUSTER_OFFSET);
                    }
                    if lo == 0 {
                        root_above = root_above.max(stretch.cluster_above[k] + CLUSTER_OFFSET);
                    }
                }
                continue;
            };
            let (lo, hi) = spans.span[c].unwrap_or((0, 0));
            let margin = graph.clusters[c].margin;
            for &k in kids {
                let (klo, khi) = spans.span[k].unwrap_or((0, 0));
                if khi == hi {
                    stretch.cluster_below[c] = stretch.cluster_below[c].max(stretch.cluster_below[k] + margin);
                }
                if klo == lo {
                    stretch.cluster_above[c] = stretch.cluster_above[c].max(stretch.cluster_above[k] + margin);
                }
            }
            if graph.clusters[c].label.is_some() {
                let (_, along) = title(graph, c);
                let extent = stretch.up_y[lo] - stretch.up_y[hi];
                let delta = along - (extent + stretch.cluster_below[c] + stretch.cluster_above[c]);
                if delta > 0.0 {
                    stretch.grow(c, lo, hi, delta.round());
                }
            }
            stretch.above[lo] = stretch.above[lo].max(stretch.cluster_above[c]);
            stretch.below[hi] = stretch.below[hi].max(stretch.cluster_below[c]);
        }
    }
    let top_up = if rank_count > 0 { up_y[0] + root_above } else { 0.0 };
    let bottom_up = if rank_count > 0 {
        up_y[max_rank] - root_below
    } else {
        0.0
    };
    let rank_y: Vec<f64> = up_y.iter().map(|y| top_up - y).collect();
    let cluster_y = (0..count)
        .map(|c| match spans.span[c] {
            Some((lo, hi)) => (rank_y[lo] - cluster_above[c], rank_y[hi] + cluster_below[c]),
            None => (0.0, 0.0),
        })
        .collect();
    (rank_y, cluster_y, 0.0, top_up - bottom_up)
}

fn sideways(graph: &Graph) -> bool {
    matches!(
        graph.options.rank_dir,
        crate::RankDir::LeftToRight | crate::RankDir::RightToLeft
    )
}

/// What dot's adjustRanks changes: rank axes (upwards) and room above and
/// below ranks and clusters.
struct Stretch<'a> {
    up_y: &'a mut [f64],
    above: &'a mut [f64],
    below: &'a mut [f64],
    cluster_above: &'a mut [f64],
    cluster_below: &'a mut [f64],
}

impl Stretch<'_> {
    /// Grows cluster `c` (ranks `lo..=hi`) by `delta`: half below, half
    /// above, moving its ranks and those above it up where the room on
    /// the ranks does not suffice (dot's adjustSimple).
    fn grow(&mut self, c: usize, lo: usize, hi: usize, delta: f64) {
        let bottom = ((delta as i64 + 1) / 2) as f64;
        let below_short = self.cluster_below[c] + bottom - self.below[hi];
        let top_short = if below_short > 0.0 {
            for r in lo..=hi {
                self.up_y[r] += below_short;
            }
            self.cluster_above[c] + (delta - bottom) + below_short - self.above[lo]
        } else {
            self.cluster_above[c] + (delta - bottom) - self.above[lo]
        };
        if top_short > 0.0 {
            for r in 0..lo {
                self.up_y[r] += top_short;
            }
        }
        self.cluster_above[c] += delta - bottom;
        self.cluster_below[c] += bottom;
    }
}

struct AuxGraph {
    count: usize,
    edges: Vec<SimplexEdge>,
}

impl AuxGraph {
    fn node(&mut self) -> usize {
        self.count += 1;
        self.count - 1
    }
    fn edge(&mut self, tail: usize, head: usize, min_len: f64, weight: f64) {
        self.edges.push(SimplexEdge {
            tail,
            head,
            min_len: min_len.round() as i32,
            weight,
        });
    }
}

/// x of every layered node, and each cluster's left and right side.
fn x_coordinates(
    layered: &Layered,
    graph: &Graph,
    tree: &ClusterTree,
    spans: &ClusterSpans,
) -> (Vec<f64>, Vec<(f64, f64)>) {
    let n = layered.nodes.len();
    let flip = sideways(graph);
    let right_title = |c: usize| {
        if flip && graph.clusters[c].label.is_some() {
            title(graph, c).0
        } else {
            0.0
        }
    };
    let mut aux = AuxGraph {
        count: n,
        edges: Vec::new(),
    };
    let node_sep = graph.options.node_sep.round();
    // Self-loops take room right of their node.
    let mut right_extra = vec![0.0; n];
    for edge in &graph.edges {
        if edge.tail == edge.head {
            right_extra[edge.tail] += SELF_LOOP_SIZE + edge.label.map_or(0.0, |l| l.width);
        }
    }
    let right = |v: usize| layered.nodes[v].right + right_extra[v];
    // Neighbours on a rank stay apart.
    let mut separation_edge = rustc_hash::FxHashMap::default();
    for (r, rank) in layered.ranks.iter().enumerate() {
        let sep = if layered.doubled && r % 2 == 1 {
            LABEL_RANK_SEP
        } else {
            node_sep
        };
        for (k, &u) in rank.iter().enumerate() {
            if let Some(&v) = rank.get(k + 1) {
                separation_edge.insert((u, v), aux.edges.len());
                aux.edge(u, v, right(u) + layered.nodes[v].left + sep, 0.0);
            }
            // The label of a flat edge (on the rank above it) lies between
            // the edge's ends.
            if let Some(&(_, index)) = layered.flat_labels.iter().find(|&&(n, _)| n == u) {
                let edge = &graph.edges[index];
                let (a, b) = (layered.chains[index].nodes[0], layered.chains[index].nodes[1]);
                let (left_end, right_end) = if spans.pos[a] < spans.pos[b] { (a, b) } else { (b, a) };
                let scale = if layered.doubled { 2 } else { 1 };
                let reach = ((edge.min_len as i64 * scale * node_sep as i64) / 2) as f64;
                let weight = if edge.constraint { edge.weight } else { 0.0 };
                aux.edge(left_end, u, reach + right(left_end) + layered.nodes[u].left, weight);
                aux.edge(u, right_end, reach + right(u) + layered.nodes[right_end].left, weight);
            }
        }
    }
    // Flat edges: at least their length apart; between non-neighbours they pull.
    for (i, edge) in graph.edges.iter().enumerate() {
        let chain = &layered.chains[i];
        if chain.nodes.len() != 2 || layered.nodes[chain.nodes[0]].rank != layered.nodes[chain.nodes[1]].rank {
            continue;
        }
        let (a, b) = (chain.nodes[0], chain.nodes[1]);
        let (t, h) = if spans.pos[a] < spans.pos[b] { (a, b) } else { (b, a) };
        let width = right(t) + layered.nodes[h].left;
        let mut min_len = edge.min_len as f64 * node_sep + width;
        if let Some(&e) = separation_edge.get(&(t, h)) {
            // Neighbours joined by a labelled flat edge leave room for the
            // label between them (dot's ED_dist).
            if let Some(label) = edge.label {
                min_len = min_len.max(width + node_sep + label.width.round());
            }
            let current = aux.edges[e].min_len;
            aux.edges[e].min_len = current.max(min_len.round() as i32);
            // ... and the flat edge pulls them together (dot gives the
            // separation edge the flat edge's weight).
            let weight = if edge.constraint { edge.weight } else { 0.0 };
            aux.edges[e].weight = aux.edges[e].weight.max(weight);
        } else if edge.label.is_none() {
            aux.edge(t, h, min_len, edge.weight);
        }
    }
    // Every edge between ranks: a slack node below both ends pulls them
    // together. Made in dot's order: by upper end along the node list, then
    // that node's edges in order.
    let node_list = crate::order::node_list(layered, graph);
    let mut edges_below: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in layered.edges.iter().enumerate() {
        edges_below[e.upper].push(i);
    }
    // A flat edge's label node pulls its label's left side to the edge's
    // tail and its right side to the edge's head (dot's two edges with
    // ports from the label's node; made first, that node being the newest).
    let mut flat_label_slacks = Vec::new();
    for &(u, index) in layered.flat_labels.iter().rev() {
        let edge = &graph.edges[index];
        let weight = if edge.constraint { edge.weight } else { 0.0 };
        let (tail, head) = (edge.tail, edge.head);
        for (end, offset) in [
            (tail, right(tail) + layered.nodes[u].left),
            (head, layered.nodes[head].left - right(u)),
        ] {
            let (to_label, to_end) = if offset > 0.0 { (offset, 0.0) } else { (0.0, -offset) };
            let slack = aux.node();
            aux.edge(slack, u, to_label.round() + 1.0, weight);
            aux.edge(slack, end, to_end.round() + 1.0, weight);
            flat_label_slacks.push((slack, u, end, to_label.round() + 1.0, to_end.round() + 1.0));
        }
    }
    let mut slack_of_edge = vec![0; layered.edges.len()];
    for &v in &node_list {
        for &i in &edges_below[v] {
            let e = &layered.edges[i];
            let slack = aux.node();
            slack_of_edge[i] = slack;
            aux.edge(slack, e.upper, 1.0, e.weight);
            aux.edge(slack, e.lower, 1.0, e.weight);
        }
    }
    // Clusters.
    let count = graph.clusters.len();
    let mut sides: Vec<Option<(usize, usize)>> = vec![None; count];
    if spans.span.iter().any(Option::is_some) {
        let mut make_sides = |c: usize, aux: &mut AuxGraph| -> (usize, usize) {
            if let Some(s) = sides[c] {
                return s;
            }
            let (l, r) = (aux.node(), aux.node());
            sides[c] = Some((l, r));
            (l, r)
        };
        let root_sides = (aux.node(), aux.node());
        // Clusters in dot's order: parents before children, siblings in input order.
        let mut ordered: Vec<usize> = (0..count).filter(|&c| spans.has_nodes(c)).collect();
        ordered.sort_by_key(|&c| (tree.depth[c], c));
        // Nodes held inside, and the sides pulled together.
        for &c in &ordered {
            let (l, r) = make_sides(c, &mut aux);
            let margin = graph.clusters[c].margin;
            let (title_width, _) = title(graph, c);
            if graph.clusters[c].label.is_some() && !flip {
                aux.edge(l, r, title_width, CLUSTER_COMPACTION);
            } else {
                aux.edge(l, r, 1.0, CLUSTER_COMPACTION);
            }
            // Sideways, the title takes room on the right (the top once turned).
            let title_side = right_title(c);
            for &(first, last) in spans.ends[c].iter().flatten() {
                aux.edge(l, first, layered.nodes[first].left + margin, 0.0);
                aux.edge(last, r, right(last) + margin + title_side, 0.0);
            }
        }
        // Other nodes kept out.
        for &c in &ordered {
            let (l, r) = make_sides(c, &mut aux);
            let margin = graph.clusters[c].margin;
            let (lo, _) = spans.span[c].unwrap_or((0, 0));
            for (offset, ends) in spans.ends[c].iter().enumerate() {
                let Some((first, last)) = *ends else { continue };
                let rank = &layered.ranks[lo + offset];
                let unrelated = |u: usize| match layered.nodes[u].kind {
                    Kind::Real(_) => true,
                    Kind::Virtual { edge } | Kind::Label { edge } => {
                        let e = &graph.edges[edge];
                        !spans.contains(c, e.tail) && !spans.contains(c, e.head)
                    }
                };
                if let Some(&u) = rank[..spans.pos[first]].iter().rev().find(|&&u| unrelated(u)) {
                    aux.edge(u, l, margin + right(u), 0.0);
                }
                if let Some(&u) = rank[spans.pos[last] + 1..].iter().find(|&&u| unrelated(u)) {
                    aux.edge(r, u, margin + layered.nodes[u].left, 0.0);
                }
            }
        }
        // Children inside their parents (top-level clusters inside the drawing).
        for &c in &ordered {
            let (l, r) = make_sides(c, &mut aux);
            let (pl, pr, margin, title_side) = match tree.parent[c] {
                Some(p) => {
                    let (pl, pr) = make_sides(p, &mut aux);
                    (pl, pr, graph.clusters[p].margin, right_title(p))
                }
                None => (root_sides.0, root_sides.1, CLUSTER_OFFSET, 0.0),
            };
            aux.edge(pl, l, margin, 0.0);
            aux.edge(r, pr, margin + title_side, 0.0);
        }
        // Siblings that share a rank apart, in their order on it.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); count + 1];
        for &c in &ordered {
            children[tree.parent[c].map_or(0, |p| p + 1)].push(c);
        }
        for siblings in &children {
            for (i, &a) in siblings.iter().enumerate() {
                for &b in &siblings[i + 1..] {
                    let (Some(sa), Some(sb)) = (spans.span[a], spans.span[b]) else {
                        continue;
                    };
                    let (low, high, shigh) = if sa.0 > sb.0 { (b, a, sa) } else { (a, b, sb) };
                    let slow = spans.span[low].unwrap_or(sa);
                    if slow.1 < shigh.0 {
                        continue;
                    }
                    // Their order on the first rank where both have nodes.
                    let common = (shigh.0..=slow.1.min(shigh.1)).find_map(|r| {
                        let a = spans.ends[low][r - slow.0]?;
                        let b = spans.ends[high][r - shigh.0]?;
                        Some((spans.pos[a.0], spans.pos[b.0]))
                    });
                    let Some((first_low, first_high)) = common else {
                        continue;
                    };
                    let (left, right) = if first_low < first_high {
                        (low, high)
                    } else {
                        (high, low)
                    };
                    let (_, left_r) = make_sides(left, &mut aux);
                    let (right_l, _) = make_sides(right, &mut aux);
                    let margin = tree.parent[a].map_or(CLUSTER_OFFSET, |p| graph.clusters[p].margin);
                    aux.edge(left_r, right_l, margin, 0.0);
                }
            }
        }
    }
    let pivots = (PIVOTS_PER_NODE as f64 * aux.count as f64 * layered.effort * layered.effort) as usize;
    let limits = Limits {
        max_iterations: pivots + 100,
        search_size: SEARCH_SIZE,
    };
    // dot's starting values: each rank packed from 0 (whole points, as its
    // integer ranks truncate), slack nodes just left of their ends; used
    // when they satisfy every constraint.
    let mut initial = vec![0i32; aux.count];
    for (r, rank) in layered.ranks.iter().enumerate() {
        let sep = if layered.doubled && r % 2 == 1 {
            LABEL_RANK_SEP
        } else {
            node_sep
        };
        let mut last = 0.0f64;
        for pair in rank.windows(2) {
            let width = right(pair[0]) + layered.nodes[pair[1]].left + sep;
            last = (last + width).trunc();
            initial[pair[1]] = last as i32;
        }
    }
    for (i, e) in layered.edges.iter().enumerate() {
        initial[slack_of_edge[i]] = (initial[e.upper] - 1).min(initial[e.lower] - 1);
    }
    for &(slack, u, end, to_label, to_end) in &flat_label_slacks {
        initial[slack] = (initial[u] - to_label as i32).min(initial[end] - to_end as i32);
    }
    // dot's node list: helper nodes first, newest first, then the layered
    // graph's own list.
    let mut order: Vec<usize> = (n..aux.count).rev().collect();
    // Flat edges' label nodes were made last, and dot puts a new node first.
    order.extend(layered.flat_labels.iter().rev().map(|&(u, _)| u));
    order.extend(
        node_list
            .into_iter()
            .filter(|v| !layered.flat_labels.iter().any(|&(u, _)| u == *v)),
    );
    let input = Input {
        nodes: aux.count,
        edges: &aux.edges,
        order,
        initial: Some(initial),
        normal: n,
    };
    let solution = solve(&input, Balance::Coordinates, &limits);
    let x: Vec<f64> = solution[..n].iter().map(|&v| v as f64).collect();
    let cluster_x = (0..count)
        .map(|c| match sides[c] {
            Some((l, r)) => (solution[l] as f64, solution[r] as f64),
            None => (0.0, 0.0),
        })
        .collect();
    (x, cluster_x)
}
