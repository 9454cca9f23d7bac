//! Network simplex over integer "ranks" (Gansner et al. 1993, section 2.3):
//! find integer values `rank[v]` with `rank[head] - rank[tail] >= min_len`
//! for every edge, minimising Σ weight × (rank[head] − rank[tail]). dot uses
//! it twice, and so do we: for the layer of every node, and for x
//! coordinates on the auxiliary graph.
//!
//! The feasible spanning tree is grown like Prim's algorithm (tight edges
//! first, then the edge of least slack, shifting the tree onto it), so it is
//! O(m log m); the pivots are capped (`max_iterations`) and search for the
//! leaving edge at most `search_size` negative cut values at a time (dot's
//! `searchsize`). Everything iterates with explicit stacks.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug)]
pub(crate) struct SimplexEdge {
    pub tail: usize,
    pub head: usize,
    pub min_len: i32,
    pub weight: f64,
}

/// What to do with the freedom left once the optimum is reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Balance {
    None,
    /// Ranks: a node whose in-weight equals its out-weight moves to the
    /// feasible rank with the fewest nodes (dot's TB_balance); each
    /// connected component starts at 0.
    Ranks,
    /// Each connected component starts at 0, no balancing.
    Components,
    /// Coordinates: a subtree held by a zero-cut-value edge moves halfway
    /// into its slack (dot's LR_balance), centring nodes between neighbours.
    Coordinates,
}

pub(crate) struct Limits {
    pub max_iterations: usize,
    pub search_size: usize,
}

/// The solution, normalised so that the least value is 0 (per connected
/// component when balancing ranks, as dot ranks components apart). The
/// constraint graph must be acyclic over edges with positive `min_len`
/// constraints, or at least feasible.
pub(crate) fn solve(n: usize, edges: &[SimplexEdge], initial: Option<Vec<i32>>, balance: Balance, limits: &Limits) -> Vec<i32> {
    if n == 0 {
        return Vec::new();
    }
    let mut s = Simplex::new(n, edges);
    s.rank = initial.unwrap_or_else(|| s.longest_path());
    s.feasible_tree();
    debug_assert!((0..edges.len()).all(|e| s.slack(e) >= 0), "infeasible constraints (a cycle of positive length)");
    s.init_cut_values();
    let mut iterations = 0;
    let mut search_start = 0;
    while iterations < limits.max_iterations {
        let Some(leave) = s.leave_edge(&mut search_start, limits.search_size) else {
            break;
        };
        let Some(enter) = s.enter_edge(leave) else {
            break;
        };
        s.update(leave, enter);
        iterations += 1;
    }
    match balance {
        Balance::None => s.normalize(),
        Balance::Ranks => {
            for component in s.components() {
                s.normalize_some(&component);
                s.balance_ranks(&component);
            }
        }
        Balance::Components => {
            for component in s.components() {
                s.normalize_some(&component);
            }
        }
        Balance::Coordinates => {
            s.balance_coordinates();
            s.normalize();
        }
    }
    s.rank
}

struct Simplex<'a> {
    n: usize,
    edges: &'a [SimplexEdge],
    out: Vec<Vec<usize>>,
    incoming: Vec<Vec<usize>>,
    rank: Vec<i32>,
    in_tree: Vec<bool>,
    /// Tree edges in the order dot keeps them (the leaving-edge search walks it).
    tree_edges: Vec<usize>,
    /// Position of each tree edge in `tree_edges`.
    tree_slot: Vec<usize>,
    /// Tree edges at each node.
    tree_adj: Vec<Vec<usize>>,
    cut: Vec<f64>,
    parent_edge: Vec<Option<usize>>,
    low: Vec<usize>,
    lim: Vec<usize>,
    /// Roots of the spanning forest (one per connected component).
    roots: Vec<usize>,
}

impl<'a> Simplex<'a> {
    fn new(n: usize, edges: &'a [SimplexEdge]) -> Self {
        let mut out = vec![Vec::new(); n];
        let mut incoming = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            out[e.tail].push(i);
            incoming[e.head].push(i);
        }
        Simplex {
            n,
            edges,
            out,
            incoming,
            rank: vec![0; n],
            in_tree: vec![false; edges.len()],
            tree_edges: Vec::new(),
            tree_slot: vec![usize::MAX; edges.len()],
            tree_adj: vec![Vec::new(); n],
            cut: vec![0.0; edges.len()],
            parent_edge: vec![None; n],
            low: vec![0; n],
            lim: vec![0; n],
            roots: Vec::new(),
        }
    }

    fn slack(&self, e: usize) -> i32 {
        let e = &self.edges[e];
        self.rank[e.head] - self.rank[e.tail] - e.min_len
    }

    /// Initial ranks: each node as low as its predecessors allow, visiting
    /// nodes in input order (Kahn's algorithm). Nodes on a cycle (only
    /// possible through zero-length edges) keep rank 0.
    fn longest_path(&self) -> Vec<i32> {
        let mut indegree: Vec<usize> = self.incoming.iter().map(Vec::len).collect();
        let mut rank = vec![0; self.n];
        let mut queue: Vec<usize> = (0..self.n).filter(|&v| indegree[v] == 0).collect();
        let mut at = 0;
        while at < queue.len() {
            let v = queue[at];
            at += 1;
            for &e in &self.out[v] {
                let edge = self.edges[e];
                rank[edge.head] = rank[edge.head].max(rank[v] + edge.min_len);
                indegree[edge.head] -= 1;
                if indegree[edge.head] == 0 {
                    queue.push(edge.head);
                }
            }
        }
        rank
    }

    fn add_tree_edge(&mut self, e: usize) {
        self.in_tree[e] = true;
        self.tree_slot[e] = self.tree_edges.len();
        self.tree_edges.push(e);
        let edge = self.edges[e];
        self.tree_adj[edge.tail].push(e);
        self.tree_adj[edge.head].push(e);
    }

    /// A spanning forest of tight edges, grown from each component's first
    /// node: tight edges join at once; otherwise the tree shifts onto the
    /// incident edge of least slack (kept in two heaps keyed so that a shift
    /// of the whole tree needs no update).
    fn feasible_tree(&mut self) {
        let mut in_tree = vec![false; self.n];
        for root in 0..self.n {
            if in_tree[root] {
                continue;
            }
            self.roots.push(root);
            // Ranks of tree nodes are stored relative to `shift`.
            let mut shift: i64 = 0;
            let mut stored: Vec<(usize, i64)> = Vec::new();
            // out_heap: edges tail∈T → head∉T keyed by rank[head] − stored[tail] − min_len
            // (slack = key − shift); in_heap: head∈T, tail∉T keyed by
            // stored[head] − rank[tail] − min_len (slack = key + shift).
            let mut out_heap: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
            let mut in_heap: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
            let mut pending: Vec<usize> = vec![root];
            in_tree[root] = true;
            loop {
                while let Some(v) = pending.pop() {
                    let base = self.rank[v] as i64 - shift;
                    stored.push((v, base));
                    for i in 0..self.out[v].len() {
                        let e = self.out[v][i];
                        let edge = self.edges[e];
                        if in_tree[edge.head] {
                            continue;
                        }
                        if self.rank[edge.head] as i64 - (base + shift) - edge.min_len as i64 == 0 {
                            in_tree[edge.head] = true;
                            self.add_tree_edge(e);
                            pending.push(edge.head);
                        } else {
                            out_heap.push(Reverse((self.rank[edge.head] as i64 - base - edge.min_len as i64, e)));
                        }
                    }
                    for i in 0..self.incoming[v].len() {
                        let e = self.incoming[v][i];
                        let edge = self.edges[e];
                        if in_tree[edge.tail] {
                            continue;
                        }
                        if base + shift - self.rank[edge.tail] as i64 - edge.min_len as i64 == 0 {
                            in_tree[edge.tail] = true;
                            self.add_tree_edge(e);
                            pending.push(edge.tail);
                        } else {
                            in_heap.push(Reverse((base - self.rank[edge.tail] as i64 - edge.min_len as i64, e)));
                        }
                    }
                }
                // Drop stale entries (both ends already in the tree).
                while out_heap.peek().is_some_and(|Reverse((_, e))| in_tree[self.edges[*e].head]) {
                    out_heap.pop();
                }
                while in_heap.peek().is_some_and(|Reverse((_, e))| in_tree[self.edges[*e].tail]) {
                    in_heap.pop();
                }
                let out_best = out_heap.peek().map(|Reverse((k, e))| (k - shift, *e));
                let in_best = in_heap.peek().map(|Reverse((k, e))| (k + shift, *e));
                let (slack, e, outward) = match (out_best, in_best) {
                    (None, None) => break,
                    (Some((s, e)), None) => (s, e, true),
                    (None, Some((s, e))) => (s, e, false),
                    (Some((so, eo)), Some((si, ei))) => {
                        if so <= si {
                            (so, eo, true)
                        } else {
                            (si, ei, false)
                        }
                    }
                };
                // Shift the tree so that edge e becomes tight, then take it in.
                let edge = self.edges[e];
                let joining = if outward {
                    shift += slack;
                    out_heap.pop();
                    edge.head
                } else {
                    shift -= slack;
                    in_heap.pop();
                    edge.tail
                };
                in_tree[joining] = true;
                self.add_tree_edge(e);
                pending.push(joining);
            }
            for &(v, base) in &stored {
                self.rank[v] = (base + shift) as i32;
            }
        }
    }

    /// Postorder numbers (`lim`), the least number in each subtree (`low`)
    /// and parent edges, for the subtree of `root` (entered through `parent`),
    /// numbering from `first`.
    fn number_subtree(&mut self, root: usize, parent: Option<usize>, first: usize) -> usize {
        let mut next = first;
        self.parent_edge[root] = parent;
        self.low[root] = first;
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if *i < self.tree_adj[v].len() {
                let e = self.tree_adj[v][*i];
                *i += 1;
                if Some(e) == self.parent_edge[v] {
                    continue;
                }
                let edge = self.edges[e];
                let w = if edge.tail == v { edge.head } else { edge.tail };
                self.parent_edge[w] = Some(e);
                self.low[w] = next;
                stack.push((w, 0));
            } else {
                self.lim[v] = next;
                next += 1;
                stack.pop();
            }
        }
        next
    }

    fn in_subtree(&self, v: usize, w: usize) -> bool {
        self.low[v] <= self.lim[w] && self.lim[w] <= self.lim[v]
    }

    fn init_cut_values(&mut self) {
        let mut next = 0;
        for i in 0..self.roots.len() {
            next = self.number_subtree(self.roots[i], None, next);
        }
        // Nodes in postorder: children before parents.
        let mut order: Vec<usize> = (0..self.n).collect();
        order.sort_by_key(|&v| self.lim[v]);
        for v in order {
            if let Some(f) = self.parent_edge[v] {
                self.cut[f] = self.cut_value_below(v, f);
            }
        }
    }

    /// The cut value of tree edge `f`, whose lower end (in the tree) is `v`,
    /// from the edges at `v` and the cut values of `v`'s child edges.
    fn cut_value_below(&self, v: usize, f: usize) -> f64 {
        // dir: whether f points away from v (v is f's tail).
        let v_is_tail = self.edges[f].tail == v;
        let mut sum = 0.0;
        for &e in self.out[v].iter().chain(self.incoming[v].iter()) {
            let edge = self.edges[e];
            let other = if edge.tail == v { edge.head } else { edge.tail };
            let outside = !self.in_subtree(v, other);
            let mut value = if outside {
                edge.weight
            } else {
                (if self.in_tree[e] { self.cut[e] } else { 0.0 }) - edge.weight
            };
            // Sign: does e cross the cut in f's direction?
            let mut same = if v_is_tail { edge.tail == v } else { edge.head == v };
            if !outside {
                same = !same;
            }
            if !same {
                value = -value;
            }
            sum += value;
        }
        sum
    }

    /// A tree edge with a negative cut value: the most negative among the
    /// first `search_size` found, searching cyclically from where the last
    /// search stopped (dot's leave_edge).
    fn leave_edge(&self, start: &mut usize, search_size: usize) -> Option<usize> {
        let count = self.tree_edges.len();
        let mut best: Option<usize> = None;
        let mut found = 0;
        let first = *start;
        for step in 0..count {
            let slot = (first + step) % count;
            let e = self.tree_edges[slot];
            if self.cut[e] < 0.0 {
                if best.is_none_or(|b| self.cut[e] < self.cut[b]) {
                    best = Some(e);
                }
                found += 1;
                if found >= search_size {
                    *start = slot;
                    return best;
                }
            }
        }
        *start = 0;
        best
    }

    /// The non-tree edge of least slack that reconnects the two parts left
    /// when tree edge `leave` is removed, crossing in the opposite direction.
    fn enter_edge(&self, leave: usize) -> Option<usize> {
        let edge = self.edges[leave];
        // The subtree side, and whether we look for edges leaving it (out) or entering it.
        let (v, outward) = if self.lim[edge.tail] < self.lim[edge.head] { (edge.tail, false) } else { (edge.head, true) };
        let mut best: Option<(i32, usize)> = None;
        let mut stack = vec![v];
        while let Some(u) = stack.pop() {
            let candidates = if outward { &self.out[u] } else { &self.incoming[u] };
            for &e in candidates {
                if self.in_tree[e] {
                    continue;
                }
                let other = if outward { self.edges[e].head } else { self.edges[e].tail };
                if !self.in_subtree(v, other) {
                    let slack = self.slack(e);
                    if best.is_none_or(|(s, _)| slack < s) {
                        best = Some((slack, e));
                    }
                }
            }
            for &e in &self.tree_adj[u] {
                if Some(e) == self.parent_edge[u] {
                    continue;
                }
                let te = self.edges[e];
                stack.push(if te.tail == u { te.head } else { te.tail });
            }
        }
        best.map(|(_, e)| e)
    }

    /// Shifts the subtree below tree edge `e` by `delta` in the direction
    /// that tightens non-tree edge `f`.
    fn shift_subtree_toward(&mut self, e: usize, f: usize, delta: i32) {
        let edge = self.edges[e];
        let root = if self.lim[edge.tail] < self.lim[edge.head] { edge.tail } else { edge.head };
        let tail_inside = self.in_subtree(root, self.edges[f].tail);
        let by = if tail_inside { delta } else { -delta };
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            self.rank[u] += by;
            for &t in &self.tree_adj[u] {
                if Some(t) == self.parent_edge[u] {
                    continue;
                }
                let te = self.edges[t];
                stack.push(if te.tail == u { te.head } else { te.tail });
            }
        }
    }

    fn update(&mut self, leave: usize, enter: usize) {
        let delta = self.slack(enter);
        if delta > 0 {
            self.shift_subtree_toward(leave, enter, delta);
        }
        let cut_value = self.cut[leave];
        let f = self.edges[enter];
        let lca = self.adjust_path(f.tail, f.head, cut_value, true);
        let lca_other = self.adjust_path(f.head, f.tail, cut_value, false);
        debug_assert_eq!(lca, lca_other);
        self.cut[enter] = -cut_value;
        self.cut[leave] = 0.0;
        // Exchange the edges in the tree.
        let slot = self.tree_slot[leave];
        self.tree_edges[slot] = enter;
        self.tree_slot[enter] = slot;
        self.tree_slot[leave] = usize::MAX;
        self.in_tree[leave] = false;
        self.in_tree[enter] = true;
        let l = self.edges[leave];
        for end in [l.tail, l.head] {
            if let Some(p) = self.tree_adj[end].iter().position(|&x| x == leave) {
                self.tree_adj[end].swap_remove(p);
            }
        }
        self.tree_adj[f.tail].push(enter);
        self.tree_adj[f.head].push(enter);
        let (parent, low) = (self.parent_edge[lca], self.low[lca]);
        self.number_subtree(lca, parent, low);
    }

    /// Walks from `v` up to the least common ancestor of `v` and `w`,
    /// adding or removing `cut_value` on the tree edges passed (dot's treeupdate).
    fn adjust_path(&mut self, mut v: usize, w: usize, cut_value: f64, dir: bool) -> usize {
        while !self.in_subtree(v, w) {
            let Some(e) = self.parent_edge[v] else { break };
            let edge = self.edges[e];
            let d = if v == edge.tail { dir } else { !dir };
            if d {
                self.cut[e] += cut_value;
            } else {
                self.cut[e] -= cut_value;
            }
            v = if self.lim[edge.tail] > self.lim[edge.head] { edge.tail } else { edge.head };
        }
        v
    }

    /// Shifts every component so that its least rank is 0.
    fn normalize(&mut self) {
        let least = self.rank.iter().copied().min().unwrap_or(0);
        for r in &mut self.rank {
            *r -= least;
        }
    }

    /// The nodes of each tree of the spanning forest (each connected component).
    fn components(&self) -> Vec<Vec<usize>> {
        let mut all = Vec::with_capacity(self.roots.len());
        for &root in &self.roots {
            let mut members = Vec::new();
            let mut stack = vec![root];
            while let Some(u) = stack.pop() {
                members.push(u);
                for &t in &self.tree_adj[u] {
                    if Some(t) == self.parent_edge[u] {
                        continue;
                    }
                    let te = self.edges[t];
                    stack.push(if te.tail == u { te.head } else { te.tail });
                }
            }
            members.sort_unstable();
            all.push(members);
        }
        all
    }

    fn normalize_some(&mut self, nodes: &[usize]) {
        let least = nodes.iter().map(|&v| self.rank[v]).min().unwrap_or(0);
        for &v in nodes {
            self.rank[v] -= least;
        }
    }

    fn balance_ranks(&mut self, nodes: &[usize]) {
        let max_rank = nodes.iter().map(|&v| self.rank[v]).max().unwrap_or(0);
        let mut count = vec![0usize; max_rank as usize + 1];
        for &v in nodes {
            count[self.rank[v] as usize] += 1;
        }
        for &v in nodes {
            let (mut in_weight, mut out_weight) = (0.0, 0.0);
            let (mut low, mut high) = (0, max_rank);
            for &e in &self.incoming[v] {
                let edge = self.edges[e];
                in_weight += edge.weight;
                low = low.max(self.rank[edge.tail] + edge.min_len);
            }
            for &e in &self.out[v] {
                let edge = self.edges[e];
                out_weight += edge.weight;
                high = high.min(self.rank[edge.head] - edge.min_len);
            }
            if in_weight == out_weight && low <= high {
                let mut choice = low;
                for r in low + 1..=high {
                    if count[r as usize] < count[choice as usize] {
                        choice = r;
                    }
                }
                count[self.rank[v] as usize] -= 1;
                count[choice as usize] += 1;
                self.rank[v] = choice;
            }
        }
    }

    fn balance_coordinates(&mut self) {
        for i in 0..self.tree_edges.len() {
            let e = self.tree_edges[i];
            if self.cut[e] != 0.0 {
                continue;
            }
            let Some(f) = self.enter_edge(e) else { continue };
            let delta = self.slack(f);
            if delta <= 1 {
                continue;
            }
            self.shift_subtree_toward(e, f, delta / 2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(tail: usize, head: usize, min_len: i32) -> SimplexEdge {
        SimplexEdge { tail, head, min_len, weight: 1.0 }
    }

    fn limits() -> Limits {
        Limits { max_iterations: 1000, search_size: 30 }
    }

    #[test]
    fn zero_length_edges_stay_level() {
        let edges = [edge(0, 1, 0), edge(1, 2, 0), edge(3, 4, 0), edge(4, 5, 0), edge(0, 3, 1)];
        let ranks = solve(6, &edges, None, Balance::Ranks, &limits());
        assert_eq!(ranks, vec![0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn long_edges_are_shortened() {
        // 0 → 1 → 2 → 3 and 0 → 4 → 3: node 4 may sit anywhere between;
        // the short chain is pulled, 4 → 3 and 0 → 4 add to 3 either way.
        let edges = [edge(0, 1, 1), edge(1, 2, 1), edge(2, 3, 1), edge(0, 4, 1), edge(4, 3, 1), edge(5, 3, 1)];
        let ranks = solve(6, &edges, None, Balance::None, &limits());
        assert_eq!(&ranks[..4], &[0, 1, 2, 3]);
        assert_eq!(ranks[5], 2, "a source hanging from the bottom is pulled down to it");
    }
}
