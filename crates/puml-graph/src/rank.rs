//! Stage 1: ranks. Cycles are broken, `rank=same` groups merged, and every
//! node gets a layer so that each constraining edge spans at least its
//! `min_len` ranks.

use crate::Graph;

/// A constraint of the ranking problem: `rank[head] - rank[tail] >= min_len`,
/// with `weight` the cost of each rank of length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RankEdge {
    pub tail: usize,
    pub head: usize,
    pub min_len: i32,
    pub weight: f64,
}

/// The rank of every node of `graph`, the least rank being 0.
pub(crate) fn assign_ranks(graph: &Graph) -> Vec<i32> {
    let n = graph.nodes.len();
    let group = same_rank_groups(graph);
    let scale = if has_edge_labels(graph) { 2 } else { 1 };
    let mut edges = Vec::new();
    for edge in &graph.edges {
        if !edge.constraint {
            continue;
        }
        let (tail, head) = (group[edge.tail], group[edge.head]);
        if tail == head {
            continue;
        }
        edges.push(RankEdge {
            tail,
            head,
            min_len: edge.min_len.min(1_000) as i32 * scale,
            weight: edge.weight,
        });
    }
    break_cycles(n, &mut edges);
    let group_rank = longest_path(n, &edges);
    let ranks: Vec<i32> = (0..n).map(|v| group_rank[group[v]]).collect();
    let least = ranks.iter().copied().min().unwrap_or(0);
    ranks.into_iter().map(|r| r - least).collect()
}

/// Whether any edge has a middle label (dot then doubles every `min_len` so
/// that the label can take the rank between the edge's ends).
pub(crate) fn has_edge_labels(graph: &Graph) -> bool {
    graph.edges.iter().any(|e| e.label.is_some())
}

/// For every node, the representative of its `rank=same` group (the group's
/// first node), or itself.
pub(crate) fn same_rank_groups(graph: &Graph) -> Vec<usize> {
    let n = graph.nodes.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    for group in &graph.same_rank {
        let mut members = group.iter().copied();
        if let Some(first) = members.next() {
            for other in members {
                let (a, b) = (find(&mut parent, first), find(&mut parent, other));
                if a != b {
                    let (low, high) = if a < b { (a, b) } else { (b, a) };
                    parent[high] = low;
                }
            }
        }
    }
    (0..n).map(|v| find(&mut parent, v)).collect()
}

/// Reverses the edges that close a cycle, found by a depth-first search from
/// the nodes in input order (as dot does), with an explicit stack.
pub(crate) fn break_cycles(n: usize, edges: &mut [RankEdge]) {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        out[e.tail].push(i);
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut reverse = vec![false; edges.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        mark[root] = Mark::OnStack;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next < out[v].len() {
                let e = out[v][*next];
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

/// The least ranks that satisfy every edge of an acyclic constraint graph:
/// each node as low as its predecessors allow.
fn longest_path(n: usize, edges: &[RankEdge]) -> Vec<i32> {
    let mut indegree = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        indegree[e.head] += 1;
        out[e.tail].push(i);
    }
    let mut rank = vec![0i32; n];
    let mut queue: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        for &i in &out[v] {
            let e = edges[i];
            rank[e.head] = rank[e.head].max(rank[v] + e.min_len);
            indegree[e.head] -= 1;
            if indegree[e.head] == 0 {
                queue.push(e.head);
            }
        }
    }
    rank
}
