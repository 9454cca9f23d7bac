//! Stage 1: ranks. Cycles are broken, `rank=same` groups merged, and every
//! node gets a layer so that each constraining edge spans at least its
//! `min_len` ranks.

use crate::simplex::{solve, Balance, Input, Limits, SimplexEdge};
use crate::Graph;

/// Pivots of network simplex allowed for ranking (dot: unbounded; ours
/// bounded so that huge graphs end, with a feasible if not optimal answer).
const MAX_ITERATIONS: usize = 20_000;
/// Negative cut values examined per pivot (PlantUML sets dot's `searchsize=500`).
const SEARCH_SIZE: usize = 500;

/// A constraint of the ranking problem: `rank[head] - rank[tail] >= min_len`,
/// with `weight` the cost of each rank of length (network simplex's own
/// edge, so that the problem is handed over without a copy).
pub(crate) type RankEdge = SimplexEdge;

/// The rank of every node of `graph`, the least rank being 0.
///
/// Clusters are ranked as dot ranks them (without `newrank`): from the
/// innermost out, each cluster is ranked on its own edges, then collapsed
/// into a leader that carries its nodes at fixed offsets; an edge that
/// enters or leaves a collapsed cluster becomes a soft constraint (a slack
/// node with edges to both ends' leaders, pointing backwards costs ten times
/// more), so clusters stay compact.
// (Kept out of line: profiles then show the phase apart.)
#[inline(never)]
pub(crate) fn assign_ranks(graph: &Graph) -> Vec<i32> {
    let n = graph.nodes.len();
    let scale = if has_edge_labels(graph) { 2 } else { 1 };
    let tree = ClusterTree::new(graph);
    // offset[v]: the rank of v relative to the leader of the innermost scope
    // ranked so far that contains it; leader[c]: that leader for cluster c.
    let mut offset = vec![0i32; n];
    let mut leader: Vec<Option<usize>> = vec![None; graph.clusters.len()];
    // Edges by the scope that ranks them (the deepest cluster holding both ends).
    let mut edges_of_scope: Vec<Vec<usize>> = vec![Vec::new(); graph.clusters.len() + 1];
    for (i, edge) in graph.edges.iter().enumerate() {
        if edge.constraint && edge.tail != edge.head {
            let scope = tree.common_scope(graph.nodes[edge.tail].cluster, graph.nodes[edge.head].cluster);
            edges_of_scope[scope.map_or(0, |c| c + 1)].push(i);
        }
    }
    let mut groups_of_scope: Vec<Vec<usize>> = vec![Vec::new(); graph.clusters.len() + 1];
    for (i, group) in graph.same_rank.iter().enumerate() {
        let mut scope = group.first().and_then(|&v| graph.nodes[v].cluster);
        for &v in group {
            scope = tree.common_scope(scope, graph.nodes[v].cluster);
        }
        groups_of_scope[scope.map_or(0, |c| c + 1)].push(i);
    }
    let mut scopes: Vec<Option<usize>> = tree.deepest_first.iter().map(|&c| Some(c)).collect();
    scopes.push(None);
    // Per node: the index of the unit it is (or NO_UNIT) and the unit of
    // the scope's problem holding it; both tables serve every scope.
    let mut unit_index = vec![NO_UNIT; n];
    let mut local_of = vec![0usize; n];
    let mut units: Vec<usize> = Vec::new();
    for scope in scopes {
        let members = tree.members(scope);
        if members.is_empty() {
            continue;
        }
        // Units: direct member nodes, and the leaders of child clusters.
        for &u in &units {
            unit_index[u] = NO_UNIT;
        }
        units.clear();
        for &v in members {
            let u = match tree.child_toward(graph, scope, v) {
                None => v,
                Some(child) => leader[child].unwrap_or(v),
            };
            if unit_index[u] == NO_UNIT {
                unit_index[u] = units.len();
                units.push(u);
            }
            local_of[v] = unit_index[u];
        }
        let local = |v: usize| local_of[v];
        let in_child = |v: usize| graph.nodes[v].cluster != scope;
        // rank=same groups of this scope: their units share one rank.
        let mut same = UnionFind::new(units.len());
        for &g in &groups_of_scope[scope.map_or(0, |c| c + 1)] {
            let group = &graph.same_rank[g];
            for pair in group.windows(2) {
                same.union(local(pair[0]), local(pair[1]));
            }
        }
        let mut count = units.len();
        let mut rank_edges = Vec::new();
        for &i in &edges_of_scope[scope.map_or(0, |c| c + 1)] {
            let edge = &graph.edges[i];
            let (t, h) = (same.find(local(edge.tail)), same.find(local(edge.head)));
            let min_len = edge.min_len.min(1_000) as i32 * scale;
            if in_child(edge.tail) || in_child(edge.head) {
                let (t_rank, h_rank) = (
                    offset_in_child(&offset, in_child(edge.tail), edge.tail),
                    offset_in_child(&offset, in_child(edge.head), edge.head),
                );
                let shift = min_len + t_rank - h_rank;
                let (t_len, h_len) = if shift > 0 { (0, shift) } else { (-shift, 0) };
                let slack = count;
                count += 1;
                rank_edges.push(RankEdge {
                    tail: slack,
                    head: t,
                    min_len: t_len,
                    weight: CLUSTER_BACK_PENALTY * edge.weight,
                });
                rank_edges.push(RankEdge {
                    tail: slack,
                    head: h,
                    min_len: h_len,
                    weight: edge.weight,
                });
            } else if t != h {
                rank_edges.push(RankEdge {
                    tail: t,
                    head: h,
                    min_len,
                    weight: edge.weight,
                });
            }
        }
        // Nothing holds the units apart (a cluster of one node, or of nodes
        // without edges among them): network simplex would leave every
        // unit on rank 0, which `None` stands for, without building its
        // tables (the corpora have hundreds of such scopes).
        let unit_rank = if rank_edges.is_empty() {
            None
        } else {
            // Graphviz keeps each node's edges sorted by the other end.
            rank_edges.sort_by_key(|e| (e.tail, e.head));
            break_cycles(count, &mut rank_edges);
            let limits = Limits {
                max_iterations: MAX_ITERATIONS,
                search_size: SEARCH_SIZE,
            };
            let has_children = members.iter().any(|&v| in_child(v));
            let balance = if has_children {
                Balance::Components
            } else {
                Balance::Ranks
            };
            let input = Input {
                nodes: count,
                edges: &rank_edges,
                order: component_order(count, &rank_edges),
                initial: None,
                normal: units.len(),
            };
            Some(solve(&input, balance, &limits))
        };
        for &v in members {
            let r = unit_rank.as_ref().map_or(0, |ranks| ranks[same.find(local(v))]);
            offset[v] = r + if in_child(v) { offset[v] } else { 0 };
        }
        if let Some(c) = scope {
            let least = members.iter().map(|&v| offset[v]).min().unwrap_or(0);
            for &v in members {
                offset[v] -= least;
            }
            leader[c] = members.iter().copied().find(|&v| offset[v] == 0);
        }
    }
    let least = offset.iter().copied().min().unwrap_or(0);
    offset.into_iter().map(|r| r - least).collect()
}

/// Not a unit of the scope being ranked.
const NO_UNIT: usize = usize::MAX;

/// How much more an edge into or out of a collapsed cluster costs when it
/// points backwards (dot's CL_BACK).
const CLUSTER_BACK_PENALTY: f64 = 10.0;

/// The rank of `v` within the collapsed child cluster holding it (0 when
/// `v` is a direct member of the scope).
fn offset_in_child(offset: &[i32], inside: bool, v: usize) -> i32 {
    if inside {
        offset[v]
    } else {
        0
    }
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }
    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }
    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (low, high) = if a < b { (a, b) } else { (b, a) };
            self.parent[high] = low;
        }
    }
}

/// The clusters' nesting, for walking scopes.
pub(crate) struct ClusterTree {
    pub depth: Vec<usize>,
    pub parent: Vec<Option<usize>>,
    /// Clusters, deepest first.
    pub deepest_first: Vec<usize>,
    /// Nodes per scope subtree (index 0: the whole graph; c + 1: cluster c).
    subtree_nodes: Vec<Vec<usize>>,
}

impl ClusterTree {
    pub(crate) fn new(graph: &Graph) -> Self {
        let count = graph.clusters.len();
        let parent: Vec<Option<usize>> = graph.clusters.iter().map(|c| c.parent).collect();
        // Validation guarantees the parent chains end; the cap is a second guard.
        let depth: Vec<usize> = (0..count)
            .map(|mut c| {
                let mut d = 0;
                while let Some(p) = parent[c] {
                    c = p;
                    d += 1;
                    if d > count {
                        break;
                    }
                }
                d
            })
            .collect();
        let mut deepest_first: Vec<usize> = (0..count).collect();
        deepest_first.sort_by_key(|&c| std::cmp::Reverse(depth[c]));
        let mut subtree_nodes = vec![Vec::new(); count + 1];
        for (v, node) in graph.nodes.iter().enumerate() {
            subtree_nodes[0].push(v);
            let mut current = node.cluster;
            let mut steps = 0;
            while let Some(c) = current {
                subtree_nodes[c + 1].push(v);
                current = parent[c];
                steps += 1;
                if steps > count {
                    break;
                }
            }
        }
        ClusterTree {
            depth,
            parent,
            deepest_first,
            subtree_nodes,
        }
    }

    fn members(&self, scope: Option<usize>) -> &[usize] {
        &self.subtree_nodes[scope.map_or(0, |c| c + 1)]
    }

    /// The deepest cluster containing both (None: the graph itself).
    pub(crate) fn common_scope(&self, a: Option<usize>, b: Option<usize>) -> Option<usize> {
        let (mut a, mut b) = (a, b);
        let depth = |c: Option<usize>| c.map_or(0, |c| self.depth[c] + 1);
        while depth(a) > depth(b) {
            a = a.and_then(|c| self.parent[c]);
        }
        while depth(b) > depth(a) {
            b = b.and_then(|c| self.parent[c]);
        }
        while a != b {
            a = a.and_then(|c| self.parent[c]);
            b = b.and_then(|c| self.parent[c]);
        }
        a
    }

    /// The child cluster of `scope` that holds node `v`, or None when `v` is
    /// a direct member of `scope`.
    pub(crate) fn child_toward(&self, graph: &Graph, scope: Option<usize>, v: usize) -> Option<usize> {
        let mut current = graph.nodes[v].cluster;
        while let Some(c) = current {
            if self.parent[c] == scope {
                return Some(c);
            }
            current = self.parent[c];
        }
        None
    }
}

/// Whether any edge has a middle label (dot then doubles every `min_len` so
/// that the label can take the rank between the edge's ends).
pub(crate) fn has_edge_labels(graph: &Graph) -> bool {
    graph.edges.iter().any(|e| e.label.is_some())
}

/// dot's node list for ranking: each connected component depth-first in
/// preorder from its first node, out-edges before in-edges.
fn component_order(n: usize, edges: &[RankEdge]) -> Vec<usize> {
    // Each node's neighbours in one list: heads of its out-edges, then
    // tails of its in-edges, each in edge order.
    let mut start = vec![0usize; n + 1];
    for e in edges {
        start[e.tail + 1] += 1;
        start[e.head + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut neighbours = vec![0usize; start[n]];
    for e in edges {
        neighbours[fill[e.tail]] = e.head;
        fill[e.tail] += 1;
    }
    for e in edges {
        neighbours[fill[e.head]] = e.tail;
        fill[e.head] += 1;
    }
    let adjacent = |v: usize| &neighbours[start[v]..start[v + 1]];
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        order.push(root);
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if let Some(&w) = adjacent(v).get(i) {
                top.1 += 1;
                if !seen[w] {
                    seen[w] = true;
                    order.push(w);
                    stack.push((w, 0));
                }
            } else {
                stack.pop();
            }
        }
    }
    order
}

/// Reverses the edges that close a cycle, found by a depth-first search from
/// the nodes in input order (as dot does), with an explicit stack.
pub(crate) fn break_cycles(n: usize, edges: &mut [RankEdge]) {
    // Each node's out-edges (indices in edge order) in one list.
    let mut start = vec![0usize; n + 1];
    for e in edges.iter() {
        start[e.tail + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut out_edges = vec![0usize; edges.len()];
    for (i, e) in edges.iter().enumerate() {
        out_edges[fill[e.tail]] = i;
        fill[e.tail] += 1;
    }
    let out = |v: usize| &out_edges[start[v]..start[v + 1]];
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut reverse = vec![false; edges.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in component_order(n, edges) {
        if mark[root] != Mark::New {
            continue;
        }
        mark[root] = Mark::OnStack;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&e) = out(v).get(*next) {
                *next += 1;
                let w = edges[e].head;
                match mark[w] {
                    Mark::New => {
                        mark[w] = Mark::OnStack;
                        stack.push((w, 0));
                    }
                    Mark::OnStack => reverse[e] = true,
                    Mark::Done => {}
                }
            } else {
                mark[v] = Mark::Done;
                stack.pop();
            }
        }
    }
    for (e, flip) in edges.iter_mut().zip(reverse) {
        if flip {
            std::mem::swap(&mut e.tail, &mut e.head);
        }
    }
}
