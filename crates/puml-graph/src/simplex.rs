//! Network simplex over integer "ranks" (Gansner et al. 1993, section 2.3):
//! find integer values `rank[v]` with `rank[head] - rank[tail] >= min_len`
//! for every edge, minimising Σ weight × (rank[head] − rank[tail]). dot uses
//! it twice, and so do we: for the layer of every node, and for x
//! coordinates on the auxiliary graph.
//!
//! Ties between optimal answers are broken as dot breaks them, because the
//! pictures differ by them: the same node list order, the initial tight
//! subtrees merged smallest first through their tightest edge, the leaving
//! edge searched cyclically among at most `search_size` negative cut values,
//! the entering edge searched depth-first below the leaving edge, and the
//! same balancing afterwards. Every search uses an explicit stack; the
//! pivots are capped.

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
    /// Ranks: a node whose in-weight equals its out-weight moves to the
    /// feasible rank with the fewest nodes (dot's TB_balance).
    Ranks,
    /// Ranks without balancing (dot does not balance graphs with clusters).
    Components,
    /// Coordinates: a subtree held by a zero-cut-value edge moves halfway
    /// into its slack (dot's LR_balance), centring nodes between neighbours.
    Coordinates,
}

pub(crate) struct Limits {
    pub max_iterations: usize,
    pub search_size: usize,
}

/// A problem for [`solve`].
pub(crate) struct Input<'a> {
    pub nodes: usize,
    pub edges: &'a [SimplexEdge],
    /// dot's node list: the order searches start in (all nodes, once each).
    pub order: Vec<usize>,
    /// Starting values, used when they satisfy every edge.
    pub initial: Option<Vec<i32>>,
    /// Nodes below this index are the problem's own; the others are helpers
    /// (slack nodes) that do not count when normalising and balancing.
    pub normal: usize,
}

/// The solution; each connected component is solved apart and, for ranks,
/// normalised so that its least normal node has rank 0.
pub(crate) fn solve(input: &Input, balance: Balance, limits: &Limits) -> Vec<i32> {
    solve_in_label_space(input, balance, limits, LABEL_SPACE)
}

/// [`solve`] with the tree's labels spread over `label_space` (the tests
/// make it small, so that pivots run out of room and relabel from
/// scratch).
fn solve_in_label_space(input: &Input, balance: Balance, limits: &Limits, label_space: u64) -> Vec<i32> {
    let n = input.nodes;
    let out = Adjacency::new(n, input.edges.iter().map(|e| (e.tail, e.head)));
    let incoming = Adjacency::new(n, input.edges.iter().map(|e| (e.head, e.tail)));
    let mut rank = match &input.initial {
        Some(initial)
            if input
                .edges
                .iter()
                .all(|e| initial[e.head] - initial[e.tail] >= e.min_len) =>
        {
            initial.clone()
        }
        _ => init_rank(n, input.edges, &out, &incoming, &input.order),
    };
    // Components in node-list order.
    let mut component = vec![usize::MAX; n];
    let mut lists: Vec<Vec<usize>> = Vec::new();
    for &start in &input.order {
        if component[start] != usize::MAX {
            continue;
        }
        let id = lists.len();
        component[start] = id;
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            for &e in out[v].iter().chain(incoming[v].iter()) {
                let w = if input.edges[e].tail == v {
                    input.edges[e].head
                } else {
                    input.edges[e].tail
                };
                if component[w] == usize::MAX {
                    component[w] = id;
                    stack.push(w);
                }
            }
        }
        lists.push(Vec::new());
    }
    for &v in &input.order {
        lists[component[v]].push(v);
    }
    let mut state = State {
        edges: input.edges,
        out: &out,
        incoming: &incoming,
        rank: &mut rank,
        in_tree: vec![false; input.edges.len()],
        tree_edges: Vec::new(),
        tree_index: vec![usize::MAX; input.edges.len()],
        tree_out: vec![Vec::new(); n],
        tree_in: vec![Vec::new(); n],
        cut: vec![0.0; input.edges.len()],
        cut_by_place: Vec::new(),
        parent: vec![None; n],
        low: vec![0; n],
        lim: vec![0; n],
        size: vec![0; n],
        root: 0,
        label_space,
        search_start: 0,
        subtree_of: vec![NO_SUBTREE; n],
        number_stack: Vec::new(),
        rerank_stack: Vec::new(),
        pair_stack: Vec::new(),
        walk_stack: Vec::new(),
        enter_stack: Vec::new(),
    };
    let mut budget_left = crate::SIMPLEX_WORK_BUDGET;
    for list in &lists {
        state.tree_edges.clear();
        state.search_start = 0;
        state.feasible_tree(list);
        state.cut_by_place.clear();
        state.cut_by_place.resize(state.tree_edges.len(), 0.0);
        state.init_cut_values(list[0], list.len());
        // The work budget: each pivot walks at most the component, so no
        // solve costs more than about SIMPLEX_WORK_BUDGET node visits
        // however many pivots `limits` allows. A solve stopped early keeps
        // its feasible tree (as dot's `nslimit` does).
        let cap = limits.max_iterations.min(budget_left / list.len().max(1));
        let mut iterations = 0;
        while iterations < cap {
            let Some(leave) = state.leave_edge(limits.search_size) else {
                break;
            };
            let Some(enter) = state.enter_edge(leave) else { break };
            state.update(leave, enter);
            iterations += 1;
        }
        let mut spent = iterations * list.len();
        budget_left = budget_left.saturating_sub(spent);
        let normal: Vec<usize> = list.iter().copied().filter(|&v| v < input.normal).collect();
        match balance {
            Balance::Ranks => {
                state.normalize(list, &normal);
                state.balance_ranks(&normal);
            }
            Balance::Components => state.normalize(list, &normal),
            Balance::Coordinates => {
                let balanced = state.balance_coordinates(budget_left);
                budget_left -= balanced;
                spent += balanced;
            }
        }
        WORK.with(|work| {
            let (pivots, visits) = work.get();
            work.set((pivots + iterations, visits + spent as u64));
        });
    }
    rank
}

thread_local! {
    /// Pivots made and their bound on nodes visited (pivots × size of the
    /// component pivoted in), since the last [`take_work`] on this thread.
    static WORK: std::cell::Cell<(usize, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// The pivots made on this thread since the last call, and their bound on
/// nodes visited; resets both.
pub(crate) fn take_work() -> (usize, u64) {
    WORK.with(|work| work.replace((0, 0)))
}

/// The least ranks satisfying every edge, visiting nodes from the node list
/// (Kahn's algorithm). Nodes on a cycle keep rank 0 (infeasible input).
fn init_rank(n: usize, edges: &[SimplexEdge], out: &Adjacency, incoming: &Adjacency, order: &[usize]) -> Vec<i32> {
    let mut waiting: Vec<usize> = (0..n).map(|v| incoming[v].len()).collect();
    let mut rank = vec![0; n];
    let mut queue: std::collections::VecDeque<usize> = order.iter().copied().filter(|&v| waiting[v] == 0).collect();
    while let Some(v) = queue.pop_front() {
        rank[v] = incoming[v]
            .iter()
            .map(|&e| rank[edges[e].tail] + edges[e].min_len)
            .max()
            .unwrap_or(0)
            .max(0);
        for &e in &out[v] {
            let w = edges[e].head;
            waiting[w] -= 1;
            if waiting[w] == 0 {
                queue.push_back(w);
            }
        }
    }
    rank
}

/// Each node's edges (indices, in edge order) of one direction, all in one
/// list (a vector per node was a good part of a small solve's time), and
/// beside them their far ends (the entering-edge search reads the far end
/// of every edge it passes; from here it is one load fewer than through
/// the edge).
struct Adjacency {
    /// Node v's edges are `edges[start[v]..start[v + 1]]`.
    start: Vec<usize>,
    edges: Vec<usize>,
    far: Vec<usize>,
}

impl Adjacency {
    /// From each edge's (end on this side, far end): (tail, head) for
    /// out-edges.
    fn new(nodes: usize, ends: impl Iterator<Item = (usize, usize)> + Clone) -> Adjacency {
        let mut start = vec![0usize; nodes + 1];
        for (v, _) in ends.clone() {
            start[v + 1] += 1;
        }
        for v in 0..nodes {
            start[v + 1] += start[v];
        }
        let mut next = start.clone();
        let mut edges = vec![0; start[nodes]];
        let mut far = vec![0; start[nodes]];
        for (i, (v, w)) in ends.enumerate() {
            edges[next[v]] = i;
            far[next[v]] = w;
            next[v] += 1;
        }
        Adjacency { start, edges, far }
    }

    /// Node v's far ends, in the order of its edges.
    #[inline(always)]
    fn far_ends(&self, v: usize) -> &[usize] {
        &self.far[self.start[v]..self.start[v + 1]]
    }
}

impl std::ops::Index<usize> for Adjacency {
    type Output = [usize];
    fn index(&self, v: usize) -> &[usize] {
        &self.edges[self.start[v]..self.start[v + 1]]
    }
}

/// An initial tight subtree and its place in the merge heap.
struct Subtree {
    rep: usize,
    size: usize,
    heap_index: Option<usize>,
    parent: usize,
}

struct State<'a> {
    edges: &'a [SimplexEdge],
    out: &'a Adjacency,
    incoming: &'a Adjacency,
    rank: &'a mut Vec<i32>,
    in_tree: Vec<bool>,
    /// Tree edges in dot's order (the leaving-edge search walks it).
    tree_edges: Vec<usize>,
    tree_index: Vec<usize>,
    /// Each node's tree edges by direction, in dot's order. (Held in the
    /// node's slots of one flat list instead, the walks over them took
    /// more instructions than the per-node allocations save.)
    tree_out: Vec<Vec<usize>>,
    tree_in: Vec<Vec<usize>>,
    cut: Vec<f64>,
    /// The tree edges' cut values again, by place in `tree_edges`: the
    /// leaving-edge search reads them in that order, and through the edge
    /// each read was one load more.
    cut_by_place: Vec<f64>,
    parent: Vec<Option<usize>>,
    /// Postorder labels with gaps: `lim[v]` is v's label, above every
    /// label of its subtree, and `low[v]` at most the least of them, the
    /// ranges of siblings apart. The searches compare labels only for order
    /// and nesting, so a pivot relabels only the subtree it moves, inside
    /// the gap it moves into (a full relabelling when the gap is too small).
    low: Vec<u64>,
    lim: Vec<u64>,
    /// Each node's subtree size (tree below it, itself included).
    size: Vec<usize>,
    /// The component's tree root (pivots never move it).
    root: usize,
    /// See [`LABEL_SPACE`].
    label_space: u64,
    search_start: usize,
    /// Scratch for `feasible_tree`: each node's initial tight subtree.
    subtree_of: Vec<usize>,
    /// The walks' stacks, reused from pivot to pivot: (node, parent edge,
    /// next number, place) for `number`, nodes for `rerank`.
    number_stack: Vec<(usize, Option<usize>, usize, usize)>,
    rerank_stack: Vec<usize>,
    /// (node, place) for `tight_subtree`, (node, came from) for `tree_adjust`.
    pair_stack: Vec<(usize, usize)>,
    /// (node, came from or parent edge, place) for `inter_tree_edge` and
    /// `init_cut_values`.
    walk_stack: Vec<(usize, Option<usize>, usize)>,
    /// (node, phase, place) for `enter_edge`.
    enter_stack: Vec<(usize, u8, usize)>,
}

#[cfg(test)]
thread_local! {
    /// How many times a pivot found no room for its labels and the
    /// component was labelled afresh (the tests make sure it happens).
    static RELABELLINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A node not yet in an initial tight subtree.
const NO_SUBTREE: usize = usize::MAX;

/// The labels one component's tree spreads over (see `State::low`): room
/// for about 60 halvings of a gap before a relabelling from scratch.
const LABEL_SPACE: u64 = 1 << 62;

impl State<'_> {
    #[inline(always)]
    fn slack(&self, e: usize) -> i32 {
        let e = &self.edges[e];
        self.rank[e.head] - self.rank[e.tail] - e.min_len
    }

    /// How many edges touch `v` (in and out).
    #[inline(always)]
    fn degree(&self, v: usize) -> usize {
        self.incoming[v].len() + self.out[v].len()
    }

    /// `v`'s edge number `i` counting its in-edges first, then its out-edges.
    #[inline(always)]
    fn in_then_out(&self, v: usize, i: usize) -> usize {
        nth_of_both(&self.incoming[v], &self.out[v], i)
    }

    /// `v`'s edge number `i` counting its out-edges first, then its in-edges.
    #[inline(always)]
    fn out_then_in(&self, v: usize, i: usize) -> usize {
        nth_of_both(&self.out[v], &self.incoming[v], i)
    }

    /// How many tree edges touch `v`.
    #[inline(always)]
    fn tree_degree(&self, v: usize) -> usize {
        self.tree_out[v].len() + self.tree_in[v].len()
    }

    /// `v`'s tree edge number `i` counting its tree out-edges first.
    #[inline(always)]
    fn tree_out_then_in(&self, v: usize, i: usize) -> usize {
        nth_of_both(&self.tree_out[v], &self.tree_in[v], i)
    }

    /// The end of edge `e` that is not `v`.
    #[inline(always)]
    fn other_end(&self, e: usize, v: usize) -> usize {
        let edge = self.edges[e];
        if edge.tail == v {
            edge.head
        } else {
            edge.tail
        }
    }

    fn add_tree_edge(&mut self, e: usize) {
        self.in_tree[e] = true;
        self.tree_index[e] = self.tree_edges.len();
        self.tree_edges.push(e);
        let edge = self.edges[e];
        self.tree_out[edge.tail].push(e);
        self.tree_in[edge.head].push(e);
    }

    /// dot's feasible_tree: tight subtrees grown from each node of the list,
    /// then merged smallest first through the tightest edge leaving them.
    fn feasible_tree(&mut self, list: &[usize]) {
        // Each node's initial subtree (NO_SUBTREE: none yet). One table for
        // the whole solve: components share no nodes.
        let mut subtree_of = std::mem::take(&mut self.subtree_of);
        let mut trees: Vec<Subtree> = Vec::new();
        for &v in list {
            if subtree_of[v] != NO_SUBTREE {
                continue;
            }
            let id = trees.len();
            let size = self.tight_subtree(v, id, &mut subtree_of);
            trees.push(Subtree {
                rep: v,
                size,
                heap_index: None,
                parent: id,
            });
        }
        let mut heap: Vec<usize> = (0..trees.len()).collect();
        for (i, &t) in heap.iter().enumerate() {
            trees[t].heap_index = Some(i);
        }
        for i in (0..=heap.len() / 2).rev() {
            heapify(&mut heap, &mut trees, i);
        }
        while heap.len() > 1 {
            // Extract the smallest.
            let smallest = heap[0];
            trees[smallest].heap_index = None;
            let last = heap.pop().unwrap_or(smallest);
            if !heap.is_empty() {
                heap[0] = last;
                trees[last].heap_index = Some(0);
                heapify(&mut heap, &mut trees, 0);
            }
            let Some(e) = self.inter_tree_edge(trees[smallest].rep, &subtree_of, &mut trees) else {
                break;
            };
            let t0 = find(&mut trees, subtree_of[self.edges[e].tail]);
            let t1 = find(&mut trees, subtree_of[self.edges[e].head]);
            if trees[t0].heap_index.is_none() {
                let delta = self.slack(e);
                if delta != 0 {
                    self.tree_adjust(trees[t0].rep, delta);
                }
            } else {
                let delta = -self.slack(e);
                if delta != 0 {
                    self.tree_adjust(trees[t1].rep, delta);
                }
            }
            self.add_tree_edge(e);
            // Union: the root stays the one on the heap (the larger if both).
            let root = match (trees[t0].heap_index, trees[t1].heap_index) {
                (_, None) => t0,
                (None, _) => t1,
                _ if trees[t1].size < trees[t0].size => t0,
                _ => t1,
            };
            let size = trees[t0].size + trees[t1].size;
            trees[t0].parent = root;
            trees[t1].parent = root;
            trees[root].size = size;
            if let Some(i) = trees[root].heap_index {
                heapify(&mut heap, &mut trees, i);
            }
        }
        self.subtree_of = subtree_of;
    }

    /// Grows the tight subtree of `root` (in-edges before out-edges, depth
    /// first) and returns its size.
    fn tight_subtree(&mut self, root: usize, id: usize, subtree_of: &mut [usize]) -> usize {
        subtree_of[root] = id;
        let mut size = 1;
        // (node, place in its in-edges followed by its out-edges)
        let mut stack = std::mem::take(&mut self.pair_stack);
        stack.clear();
        stack.push((root, 0));
        while let Some(&(v, cursor)) = stack.last() {
            let next = (cursor..self.degree(v)).find_map(|i| {
                let e = self.in_then_out(v, i);
                let w = self.other_end(e, v);
                (!self.in_tree[e] && subtree_of[w] == NO_SUBTREE && self.slack(e) == 0).then_some((i, e, w))
            });
            let Some((i, e, w)) = next else {
                stack.pop();
                continue;
            };
            if let Some(top) = stack.last_mut() {
                top.1 = i + 1;
            }
            self.add_tree_edge(e);
            subtree_of[w] = id;
            size += 1;
            stack.push((w, 0));
        }
        self.pair_stack = stack;
        size
    }

    /// The tightest edge from the tree of `rep` to another tree, searched
    /// depth-first through the tree (dot's inter_tree_edge_search).
    fn inter_tree_edge(&mut self, rep: usize, subtree_of: &[usize], trees: &mut [Subtree]) -> Option<usize> {
        let own = find(trees, subtree_of[rep]);
        let mut best: Option<usize> = None;
        // (node, came from, place in its out-edges followed by its in-edges)
        let mut stack = std::mem::take(&mut self.walk_stack);
        stack.clear();
        stack.push((rep, None, 0));
        'walk: while let Some(&(v, from, cursor)) = stack.last() {
            if cursor == 0 && best.is_some_and(|b| self.slack(b) == 0) {
                stack.pop();
                continue;
            }
            for i in cursor..self.degree(v) {
                let e = self.out_then_in(v, i);
                let w = self.other_end(e, v);
                if self.in_tree[e] {
                    if Some(w) == from {
                        continue;
                    }
                    if let Some(top) = stack.last_mut() {
                        top.2 = i + 1;
                    }
                    stack.push((w, Some(v), 0));
                    continue 'walk;
                } else if find(trees, subtree_of[w]) != own && best.is_none_or(|b| self.slack(e) < self.slack(b)) {
                    best = Some(e);
                }
            }
            stack.pop();
        }
        self.walk_stack = stack;
        best
    }

    /// Moves the whole tree containing `v` by `delta`.
    fn tree_adjust(&mut self, v: usize, delta: i32) {
        let mut stack = std::mem::take(&mut self.pair_stack);
        stack.clear();
        stack.push((v, usize::MAX));
        while let Some((u, from)) = stack.pop() {
            self.rank[u] += delta;
            for &e in self.tree_in[u].iter() {
                let w = self.edges[e].tail;
                if w != from {
                    stack.push((w, u));
                }
            }
            for &e in self.tree_out[u].iter() {
                let w = self.edges[e].head;
                if w != from {
                    stack.push((w, u));
                }
            }
        }
        self.pair_stack = stack;
    }

    /// Postorder numbers from `root`, parents, and cut values (dot's
    /// dfs_range and dfs_cutval: tree out-edges before tree in-edges).
    fn init_cut_values(&mut self, root: usize, nodes: usize) {
        self.root = root;
        self.size[root] = nodes;
        self.number_all();
        // Cut values children first: the same walk, edges set on the way back.
        // (node, its parent edge, place in its tree out-edges then tree in-edges)
        let mut stack = std::mem::take(&mut self.walk_stack);
        stack.clear();
        stack.push((root, None, 0));
        'walk: while let Some(&(v, par, cursor)) = stack.last() {
            for i in cursor..self.tree_degree(v) {
                let e = self.tree_out_then_in(v, i);
                if Some(e) != par {
                    if let Some(top) = stack.last_mut() {
                        top.2 = i + 1;
                    }
                    stack.push((self.other_end(e, v), Some(e), 0));
                    continue 'walk;
                }
            }
            if let Some(f) = par {
                let value = self.cut_value(f);
                self.cut[f] = value;
                self.cut_by_place[self.tree_index[f]] = value;
            }
            stack.pop();
        }
        self.walk_stack = stack;
    }

    /// dot's dfs_range with gaps: parents, labels `step` apart from
    /// `start` (each node's `low` on the way down, its `lim` on the way up)
    /// and subtree sizes below `root`, tree out-edges before tree in-edges.
    fn number(&mut self, root: usize, par: Option<usize>, start: u64, step: u64) {
        // (node, parent edge, nodes visited before it, place in its tree
        // out-edges then tree in-edges)
        let mut stack = std::mem::take(&mut self.number_stack);
        stack.clear();
        let mut next = start;
        self.parent[root] = par;
        self.low[root] = next;
        next += step;
        stack.push((root, par, 0, 0));
        let mut visited = 1;
        'walk: while let Some(&(v, p, before, cursor)) = stack.last() {
            for i in cursor..self.tree_degree(v) {
                let e = self.tree_out_then_in(v, i);
                if Some(e) != p {
                    let w = self.other_end(e, v);
                    if let Some(top) = stack.last_mut() {
                        top.3 = i + 1;
                    }
                    self.parent[w] = Some(e);
                    self.low[w] = next;
                    next += step;
                    stack.push((w, Some(e), visited, 0));
                    visited += 1;
                    continue 'walk;
                }
            }
            self.lim[v] = next;
            next += step;
            self.size[v] = visited - before;
            stack.pop();
        }
        self.number_stack = stack;
    }

    /// Labels the whole component afresh, evenly spread over the label
    /// space.
    fn number_all(&mut self) {
        let nodes = self.size[self.root].max(1) as u64;
        self.number(self.root, None, 1, self.label_space / (2 * nodes + 2));
    }

    #[inline(always)]
    fn in_subtree(&self, v: usize, w: usize) -> bool {
        self.low[v] <= self.lim[w] && self.lim[w] <= self.lim[v]
    }

    /// The cut value of tree edge `f` from the edges at its lower end and
    /// the cut values below it (dot's x_cutval).
    fn cut_value(&self, f: usize) -> f64 {
        let (v, dir) = if self.parent[self.edges[f].tail] == Some(f) {
            (self.edges[f].tail, 1)
        } else {
            (self.edges[f].head, -1)
        };
        let mut sum = 0.0;
        for &e in self.out[v].iter().chain(self.incoming[v].iter()) {
            let edge = self.edges[e];
            let other = if edge.tail == v { edge.head } else { edge.tail };
            let (outside, mut value) = if !self.in_subtree(v, other) {
                (true, edge.weight)
            } else {
                (false, (if self.in_tree[e] { self.cut[e] } else { 0.0 }) - edge.weight)
            };
            let mut d = if dir > 0 {
                if edge.head == v {
                    1
                } else {
                    -1
                }
            } else if edge.tail == v {
                1
            } else {
                -1
            };
            if outside {
                d = -d;
            }
            if d < 0 {
                value = -value;
            }
            sum += value;
        }
        sum
    }

    /// dot's leave_edge: from where the last search stopped, the most
    /// negative of the first `search_size` negative cut values.
    fn leave_edge(&mut self, search_size: usize) -> Option<usize> {
        let count = self.tree_edges.len();
        let start = self.search_start;
        let first = if count == 0 { 0 } else { start % count };
        let (tree_edges, cut) = (&self.tree_edges, &self.cut_by_place);
        #[cfg(debug_assertions)]
        for (place, &f) in tree_edges.iter().enumerate() {
            assert_eq!(
                cut[place].to_bits(),
                self.cut[f].to_bits(),
                "cut value of tree edge {f}"
            );
        }
        let mut best: Option<(f64, usize)> = None;
        let mut found = 0;
        // From the place to the end, then from the beginning up to it (two
        // plain passes: a wrap test or division per step was a good part
        // of the search).
        for (offset, part) in [(first, &cut[first..]), (0, &cut[..first])] {
            for (k, &value) in part.iter().enumerate() {
                if value < 0.0 {
                    if best.is_none_or(|(b, _)| b > value) {
                        best = Some((value, tree_edges[offset + k]));
                    }
                    found += 1;
                    if found >= search_size {
                        self.search_start = offset + k;
                        return best.map(|(_, f)| f);
                    }
                }
            }
        }
        // A whole round: dot's index ends where it started, or past the
        // end when it started at 0.
        self.search_start = if start == 0 { count } else { start };
        best.map(|(_, f)| f)
    }

    /// dot's enter_edge: below the lower end of `leave`, depth first, the
    /// non-tree edge of least slack crossing back.
    fn enter_edge(&mut self, leave: usize) -> Option<usize> {
        let edge = self.edges[leave];
        let (v, outward) = if self.lim[edge.tail] < self.lim[edge.head] {
            (edge.tail, false)
        } else {
            (edge.head, true)
        };
        let (low, lim) = (self.low[v], self.lim[v]);
        // The least slack so far (wider than any slack: none yet) and its edge.
        let mut best_slack = i64::MAX;
        let mut best = None;
        let (edges, in_tree, numbers, rank) = (self.edges, &self.in_tree, &self.lim, &*self.rank);
        let (side, tree_back) = if outward {
            (self.out, &self.tree_in)
        } else {
            (self.incoming, &self.tree_out)
        };
        let near = |e: usize| if outward { edges[e].tail } else { edges[e].head };
        // (node, phase 0: edges / 1: tree edges back, position)
        let mut stack = std::mem::take(&mut self.enter_stack);
        stack.clear();
        stack.push((v, 0, 0));
        'walk: while let Some(top) = stack.last_mut() {
            let (u, phase, at) = *top;
            let lim_u = numbers[u];
            if phase == 0 {
                let (ends_e, ends_w) = (&side[u], side.far_ends(u));
                for i in at..ends_e.len().min(ends_w.len()) {
                    let (e, w) = (ends_e[i], ends_w[i]);
                    let lim_w = numbers[w];
                    if !in_tree[e] {
                        if !(low <= lim_w && lim_w <= lim) {
                            let head = edges[e].head;
                            let tail = edges[e].tail;
                            let slack = (rank[head] - rank[tail] - edges[e].min_len) as i64;
                            if slack < best_slack {
                                best_slack = slack;
                                best = Some(e);
                            }
                        }
                    } else if lim_w < lim_u {
                        top.2 = i + 1;
                        stack.push((w, 0, 0));
                        continue 'walk;
                    }
                }
                *top = (u, 1, 0);
                continue;
            }
            if best_slack > 0 {
                let back = &tree_back[u];
                // An index loop: resumed with `enumerate().skip(at)`, the
                // walk took more instructions.
                #[allow(clippy::needless_range_loop)]
                for i in at..back.len() {
                    let w = near(back[i]);
                    if numbers[w] < lim_u {
                        top.2 = i + 1;
                        stack.push((w, 0, 0));
                        continue 'walk;
                    }
                }
            }
            stack.pop();
        }
        self.enter_stack = stack;
        best
    }

    /// Lowers the ranks of `v`'s subtree (away from its parent) by `delta`.
    fn rerank(&mut self, v: usize, delta: i32) {
        let mut stack = std::mem::take(&mut self.rerank_stack);
        stack.clear();
        stack.push(v);
        while let Some(u) = stack.pop() {
            self.rank[u] -= delta;
            for &e in self.tree_out[u].iter() {
                if Some(e) != self.parent[u] {
                    stack.push(self.edges[e].head);
                }
            }
            for &e in self.tree_in[u].iter() {
                if Some(e) != self.parent[u] {
                    stack.push(self.edges[e].tail);
                }
            }
        }
        self.rerank_stack = stack;
    }

    fn update(&mut self, e: usize, f: usize) {
        let delta = self.slack(f);
        let (tail, head) = (self.edges[e].tail, self.edges[e].head);
        if delta > 0 {
            if self.tree_in[tail].len() + self.tree_out[tail].len() == 1 {
                self.rerank(tail, delta);
            } else if self.tree_in[head].len() + self.tree_out[head].len() == 1 {
                self.rerank(head, -delta);
            } else if self.lim[tail] < self.lim[head] {
                self.rerank(tail, delta);
            } else {
                self.rerank(head, -delta);
            }
        }
        let cut_value = self.cut[e];
        let (f_tail, f_head) = (self.edges[f].tail, self.edges[f].head);
        let lca = self.tree_update(f_tail, f_head, cut_value, true);
        self.tree_update(f_head, f_tail, cut_value, false);
        // The subtree below e moves: it hangs from f's end outside it now.
        let (moved, upper) = if self.lim[tail] < self.lim[head] {
            (tail, head)
        } else {
            (head, tail)
        };
        let moved_size = self.size[moved];
        let (new_root, hook) = if self.in_subtree(moved, f_tail) {
            (f_tail, f_head)
        } else {
            (f_head, f_tail)
        };
        self.add_to_path_sizes(upper, lca, moved_size.wrapping_neg());
        self.add_to_path_sizes(hook, lca, moved_size);
        self.cut[f] = -cut_value;
        self.cut[e] = 0.0;
        // Exchange e for f in the tree, in place as dot does.
        let slot = self.tree_index[e];
        self.tree_edges[slot] = f;
        self.cut_by_place[slot] = -cut_value;
        self.tree_index[f] = slot;
        self.tree_index[e] = usize::MAX;
        self.in_tree[e] = false;
        self.in_tree[f] = true;
        if let Some(j) = self.tree_out[tail].iter().position(|&x| x == e) {
            self.tree_out[tail].swap_remove(j);
        }
        if let Some(j) = self.tree_in[head].iter().position(|&x| x == e) {
            self.tree_in[head].swap_remove(j);
        }
        self.tree_out[f_tail].push(f);
        self.tree_in[f_head].push(f);
        // Relabel the moved subtree inside the hook's range, above its
        // other children's labels and below its own; every other label
        // keeps its place in the order.
        let mut floor = self.low[hook];
        for i in 0..self.tree_degree(hook) {
            let g = self.tree_out_then_in(hook, i);
            if g != f && Some(g) != self.parent[hook] {
                floor = floor.max(self.lim[self.other_end(g, hook)]);
            }
        }
        let step = (self.lim[hook] - floor) / (2 * moved_size as u64 + 1);
        if step == 0 {
            #[cfg(test)]
            RELABELLINGS.with(|count| count.set(count.get() + 1));
            self.number_all();
        } else {
            self.number(new_root, Some(f), floor + step, step);
        }
        #[cfg(debug_assertions)]
        self.check_numbers(lca);
    }

    /// Adds `delta` (wrapping: it may stand for a negative number) to the
    /// subtree sizes from `node` up to `top`, `top` left out.
    fn add_to_path_sizes(&mut self, mut node: usize, top: usize, delta: usize) {
        while node != top {
            self.size[node] = self.size[node].wrapping_add(delta);
            let Some(e) = self.parent[node] else { break };
            node = self.other_end(e, node);
        }
    }

    /// Debug builds: the labels below `root` are a postorder labelling of
    /// the tree as it is (each node's children's ranges lie apart inside
    /// its own, below its label), as a relabelling from scratch would
    /// leave them up to gaps and the order of children, and the sizes add
    /// up.
    #[cfg(debug_assertions)]
    fn check_numbers(&self, root: usize) {
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            let mut children: Vec<usize> = Vec::new();
            for &e in self.tree_out[u].iter().chain(self.tree_in[u].iter()) {
                if Some(e) != self.parent[u] {
                    let w = self.other_end(e, u);
                    assert_eq!(self.parent[w], Some(e), "parent edge of {w}");
                    children.push(w);
                }
            }
            children.sort_by_key(|&w| self.low[w]);
            let mut next = self.low[u];
            for &w in &children {
                assert!(self.low[w] >= next, "labels below {u}");
                next = self.lim[w] + 1;
            }
            assert!(self.lim[u] >= next, "label of {u}");
            let sizes: usize = children.iter().map(|&w| self.size[w]).sum();
            assert_eq!(self.size[u], sizes + 1, "size of {u}");
            stack.extend(children);
        }
    }

    /// dot's treeupdate: from `v` up to the common ancestor with `w`,
    /// adding or removing `cut_value`.
    fn tree_update(&mut self, mut v: usize, w: usize, cut_value: f64, dir: bool) -> usize {
        while !self.in_subtree(v, w) {
            let Some(e) = self.parent[v] else { break };
            let edge = self.edges[e];
            let d = if v == edge.tail { dir } else { !dir };
            let place = self.tree_index[e];
            if d {
                self.cut[e] += cut_value;
                self.cut_by_place[place] += cut_value;
            } else {
                self.cut[e] -= cut_value;
                self.cut_by_place[place] -= cut_value;
            }
            v = if self.lim[edge.tail] > self.lim[edge.head] {
                edge.tail
            } else {
                edge.head
            };
        }
        v
    }

    fn normalize(&mut self, list: &[usize], normal: &[usize]) {
        let least = normal.iter().map(|&v| self.rank[v]).min().unwrap_or(0);
        for &v in list {
            self.rank[v] -= least;
        }
    }

    fn balance_ranks(&mut self, normal: &[usize]) {
        let max_rank = normal.iter().map(|&v| self.rank[v]).max().unwrap_or(0).max(0);
        let mut count = vec![0usize; max_rank as usize + 1];
        for &v in normal {
            if (0..=max_rank).contains(&self.rank[v]) {
                count[self.rank[v] as usize] += 1;
            }
        }
        for &v in normal {
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
            low = low.max(0);
            if in_weight == out_weight && low <= high && (0..=max_rank).contains(&self.rank[v]) {
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

    /// Returns the nodes its searches visited (a bound): the walk stops
    /// when the next search would take it over `budget`.
    fn balance_coordinates(&mut self, budget: usize) -> usize {
        let mut spent = 0usize;
        for i in 0..self.tree_edges.len() {
            let e = self.tree_edges[i];
            if self.cut[e] != 0.0 {
                continue;
            }
            // The search and the move walk the subtree below the edge.
            let (tail, head) = (self.edges[e].tail, self.edges[e].head);
            let below = if self.lim[tail] < self.lim[head] { tail } else { head };
            let subtree = self.size[below];
            if spent + subtree > budget {
                break;
            }
            spent += subtree;
            let Some(f) = self.enter_edge(e) else { continue };
            let delta = self.slack(f);
            if delta <= 1 {
                continue;
            }
            let (tail, head) = (self.edges[e].tail, self.edges[e].head);
            if self.lim[tail] < self.lim[head] {
                self.rerank(tail, delta / 2);
            } else {
                self.rerank(head, -delta / 2);
            }
        }
        spent
    }
}

/// Item `i` of `first` followed by `second` (the searches walk a node's
/// edges of both directions as one list, in dot's order).
#[inline(always)]
fn nth_of_both(first: &[usize], second: &[usize], i: usize) -> usize {
    match first.get(i) {
        Some(&e) => e,
        None => second[i - first.len()],
    }
}

fn find(trees: &mut [Subtree], mut t: usize) -> usize {
    while trees[t].parent != t {
        let grand = trees[trees[t].parent].parent;
        trees[t].parent = grand;
        t = grand;
    }
    t
}

/// Restores the heap property below `i` (smallest subtree first).
fn heapify(heap: &mut [usize], trees: &mut [Subtree], mut i: usize) {
    loop {
        let (left, right) = (2 * i + 1, 2 * i + 2);
        let mut smallest = i;
        if left < heap.len() && trees[heap[left]].size < trees[heap[smallest]].size {
            smallest = left;
        }
        if right < heap.len() && trees[heap[right]].size < trees[heap[smallest]].size {
            smallest = right;
        }
        if smallest == i {
            break;
        }
        heap.swap(i, smallest);
        trees[heap[i]].heap_index = Some(i);
        trees[heap[smallest]].heap_index = Some(smallest);
        i = smallest;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(tail: usize, head: usize, min_len: i32) -> SimplexEdge {
        SimplexEdge {
            tail,
            head,
            min_len,
            weight: 1.0,
        }
    }

    fn limits() -> Limits {
        Limits {
            max_iterations: 1000,
            search_size: 30,
        }
    }

    fn run(n: usize, edges: &[SimplexEdge], balance: Balance) -> Vec<i32> {
        let input = Input {
            nodes: n,
            edges,
            order: (0..n).collect(),
            initial: None,
            normal: n,
        };
        solve(&input, balance, &limits())
    }

    #[test]
    fn zero_length_edges_stay_level() {
        let edges = [
            edge(0, 1, 0),
            edge(1, 2, 0),
            edge(3, 4, 0),
            edge(4, 5, 0),
            edge(0, 3, 1),
        ];
        assert_eq!(run(6, &edges, Balance::Ranks), vec![0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn long_edges_are_shortened() {
        let edges = [
            edge(0, 1, 1),
            edge(1, 2, 1),
            edge(2, 3, 1),
            edge(0, 4, 1),
            edge(4, 3, 1),
            edge(5, 3, 1),
        ];
        let ranks = run(6, &edges, Balance::Components);
        assert_eq!(&ranks[..4], &[0, 1, 2, 3]);
        assert_eq!(ranks[5], 2, "a source hanging from the bottom is pulled down to it");
    }

    /// Pivots in a label space too small for their gaps relabel from
    /// scratch, and reach the same answer as with room to spare.
    #[test]
    fn crowded_labels_give_the_same_answers() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        RELABELLINGS.with(|count| count.set(0));
        for _ in 0..60 {
            let n = 10 + next(30) as usize;
            let mut edges = Vec::new();
            for _ in 0..3 * n {
                let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
                if a < b {
                    let mut e = edge(a, b, next(3) as i32);
                    e.weight = (1 + next(4)) as f64;
                    edges.push(e);
                }
            }
            let input = Input {
                nodes: n,
                edges: &edges,
                order: (0..n).collect(),
                initial: None,
                normal: n,
            };
            for balance in [Balance::Ranks, Balance::Coordinates] {
                let roomy = solve_in_label_space(&input, balance, &limits(), LABEL_SPACE);
                let crowded = solve_in_label_space(&input, balance, &limits(), 1 << 9);
                assert_eq!(roomy, crowded, "{edges:?}");
            }
        }
        assert!(RELABELLINGS.with(|count| count.get()) > 0, "no pivot ran out of room");
    }

    #[test]
    fn small_graphs_reach_the_optimum() {
        // Random small acyclic graphs against brute force over all ranks.
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let n = 2 + next(4) as usize;
            let mut edges = Vec::new();
            for _ in 0..next(7) {
                let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
                if a < b {
                    let mut e = edge(a, b, next(3) as i32);
                    e.weight = (1 + next(3)) as f64;
                    edges.push(e);
                }
            }
            let ranks = run(n, &edges, Balance::Components);
            assert!(
                edges.iter().all(|e| ranks[e.head] - ranks[e.tail] >= e.min_len),
                "infeasible: {edges:?} {ranks:?}"
            );
            let cost = |r: &[i32]| {
                edges
                    .iter()
                    .map(|e| e.weight * (r[e.head] - r[e.tail]) as f64)
                    .sum::<f64>()
            };
            let mut best = f64::INFINITY;
            let span = 7i32;
            let total = (span as usize).pow(n as u32);
            for code in 0..total {
                let r: Vec<i32> = (0..n)
                    .map(|i| ((code / (span as usize).pow(i as u32)) % span as usize) as i32)
                    .collect();
                if edges.iter().all(|e| r[e.head] - r[e.tail] >= e.min_len) {
                    best = best.min(cost(&r));
                }
            }
            assert_eq!(cost(&ranks), best, "not optimal: {edges:?} {ranks:?}");
        }
    }
}
