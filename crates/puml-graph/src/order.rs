//! Stage 3: the order of nodes within each rank, to reduce crossings
//! (Gansner et al. 1993, section 3, as dot's mincross does it).
//!
//! Clusters are ordered from the outside in: at each scope (the whole graph,
//! then each cluster) the scope's direct nodes and its child clusters are the
//! "units"; a child cluster is one block per rank, so it stays contiguous.
//! For each scope: an initial order by breadth-first search from the
//! sources, then sweeps down and up that sort each rank's units by the
//! weighted median of their neighbours' positions, followed by transposition
//! of neighbouring units while that removes crossings, keeping the best
//! order seen. Iterations are capped as dot caps them (`mclimit` 1: 24
//! sweeps, stop after 8 without improvement). The graph's connected
//! components are ordered apart and placed left to right.

use crate::layered::Layered;
use crate::rank::ClusterTree;
use crate::Graph;

/// Sweeps in the last pass (dot: 24 × mclimit).
const MAX_ITERATIONS: usize = 24;
/// Sweeps in each of the first two passes.
const BUILD_PASS_ITERATIONS: usize = 4;
/// Sweeps without a real improvement before giving up (dot's MinQuit).
const MIN_QUIT: usize = 8;
/// An improvement below this factor does not count (dot's Convergence).
const CONVERGENCE: f64 = 0.995;
/// Rounds of transposition per call, a bound dot does not have.
const MAX_TRANSPOSE_ROUNDS: usize = 64;
/// Ranks longer than this are sorted rather than bubble-exchanged.
const BUBBLE_LIMIT: usize = 256;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Unit {
    Node(usize),
    Cluster(usize),
}

pub(crate) fn reduce_crossings(layered: &mut Layered, graph: &Graph) {
    let tree = ClusterTree::new(graph);
    let mut orderer = Orderer::new(layered, &tree);
    orderer.creation = creation_order(layered, graph);
    orderer.flip = matches!(graph.options.rank_dir, crate::RankDir::LeftToRight | crate::RankDir::RightToLeft);
    orderer.run(graph);
    layered.ranks = orderer.ranks;
    debug_assert!(clusters_contiguous(layered, &tree), "a cluster is split on a rank");
}

/// dot's node list of the layered graph: depth first from the real nodes
/// in input order (out-edges, in-edges, flat edges).
pub(crate) fn node_list(layered: &Layered, graph: &Graph) -> Vec<usize> {
    let tree = ClusterTree::new(graph);
    let orderer = Orderer::new(layered, &tree);
    let mut list: Vec<usize> = (0..layered.nodes.len()).collect();
    list.sort_by_key(|&v| orderer.list_order[v]);
    list
}

/// Whether every cluster's nodes are contiguous on every rank.
fn clusters_contiguous(layered: &Layered, tree: &ClusterTree) -> bool {
    for rank in &layered.ranks {
        for c in 0..tree.parent.len() {
            let inside: Vec<bool> = rank
                .iter()
                .map(|&v| {
                    let mut current = layered.nodes[v].cluster;
                    while let Some(k) = current {
                        if k == c {
                            return true;
                        }
                        current = tree.parent[k];
                    }
                    false
                })
                .collect();
            let starts = inside.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(inside.first() == Some(&true));
            if starts > 1 {
                return false;
            }
        }
    }
    true
}

/// One ordering problem: some nodes whose positions form one contiguous
/// slice per rank, grouped into units at a nesting level.
struct Problem {
    members: Vec<usize>,
    /// Units are the clusters at this index of each node's cluster path (or
    /// the node itself when its path is shorter).
    level: usize,
    min_rank: usize,
    max_rank: usize,
    /// The whole graph's component (builds its order twice, both ways, and
    /// transposes after building, as dot does at the root only).
    root: bool,
}

struct Orderer<'a> {
    ranks: Vec<Vec<usize>>,
    pos: Vec<usize>,
    rank_of: Vec<usize>,
    /// Neighbours on the rank above and below.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// Flat edges (same rank), tail to head.
    flat_out: Vec<Vec<usize>>,
    /// Clusters of each node, outermost first.
    path: Vec<Vec<usize>>,
    edges: Vec<(usize, usize)>,
    tree: &'a ClusterTree,
    /// Each node's place in dot's node list: depth-first preorder from the
    /// real nodes in input order, out-edges, then in-edges, then flat edges.
    list_order: Vec<usize>,
    /// Each node's place in the order dot makes the nodes of a cluster: each
    /// real node, then the virtual nodes of the edges it is the tail of.
    creation: Vec<usize>,
    /// The graph runs sideways (dot's GD_flip).
    flip: bool,
}

fn creation_order(layered: &Layered, graph: &Graph) -> Vec<usize> {
    use crate::layered::Kind;
    let key = |v: usize| match layered.nodes[v].kind {
        Kind::Real(id) => (id, 0, v),
        Kind::Virtual { edge } | Kind::Label { edge } => (graph.edges[edge].tail, 1, v),
    };
    let mut sequence: Vec<usize> = (0..layered.nodes.len()).collect();
    sequence.sort_by_key(|&v| key(v));
    let mut place = vec![0; sequence.len()];
    for (i, v) in sequence.into_iter().enumerate() {
        place[v] = i;
    }
    place
}

impl<'a> Orderer<'a> {
    fn new(layered: &Layered, tree: &'a ClusterTree) -> Self {
        let n = layered.nodes.len();
        let mut up = vec![Vec::new(); n];
        let mut down = vec![Vec::new(); n];
        let mut edges = Vec::with_capacity(layered.edges.len());
        for e in &layered.edges {
            up[e.lower].push(e.upper);
            down[e.upper].push(e.lower);
            edges.push((e.upper, e.lower));
        }
        let mut flat_out = vec![Vec::new(); n];
        for &(a, b) in &layered.flat {
            if a != b {
                flat_out[a].push(b);
            }
        }
        let path = layered
            .nodes
            .iter()
            .map(|node| {
                let mut p = Vec::new();
                let mut current = node.cluster;
                while let Some(c) = current {
                    p.push(c);
                    current = tree.parent[c];
                    if p.len() > tree.parent.len() {
                        break;
                    }
                }
                p.reverse();
                p
            })
            .collect();
        let rank_of = layered.nodes.iter().map(|node| node.rank).collect();
        let mut orderer = Orderer {
            ranks: layered.ranks.clone(),
            pos: vec![0; n],
            rank_of,
            up,
            down,
            flat_out,
            path,
            edges,
            tree,
            list_order: Vec::new(),
            creation: Vec::new(),
            flip: false,
        };
        orderer.list_order = orderer.depth_first_list(layered);
        orderer.refresh_positions();
        orderer
    }

    fn depth_first_list(&self, layered: &Layered) -> Vec<usize> {
        let n = layered.nodes.len();
        let mut flat_in = vec![Vec::new(); n];
        for (a, outs) in self.flat_out.iter().enumerate() {
            for &b in outs {
                flat_in[b].push(a);
            }
        }
        let mut place = vec![usize::MAX; n];
        let mut next = 0;
        let real = layered.nodes.iter().take_while(|node| matches!(node.kind, crate::layered::Kind::Real(_))).count();
        for start in (0..real).chain(real..n) {
            if place[start] != usize::MAX {
                continue;
            }
            place[start] = next;
            next += 1;
            // (node, list index, position in list)
            let mut stack: Vec<(usize, usize, usize)> = vec![(start, 0, 0)];
            while let Some(top) = stack.last_mut() {
                let (v, list, i) = *top;
                let neighbours: &[usize] = match list {
                    0 => &self.down[v],
                    1 => &self.up[v],
                    2 => &self.flat_out[v],
                    3 => &flat_in[v],
                    _ => {
                        stack.pop();
                        continue;
                    }
                };
                if i >= neighbours.len() {
                    top.1 += 1;
                    top.2 = 0;
                    continue;
                }
                top.2 += 1;
                let w = neighbours[i];
                if place[w] == usize::MAX {
                    place[w] = next;
                    next += 1;
                    stack.push((w, 0, 0));
                }
            }
        }
        place
    }

    fn refresh_positions(&mut self) {
        for rank in &self.ranks {
            for (i, &v) in rank.iter().enumerate() {
                self.pos[v] = i;
            }
        }
    }

    fn unit(&self, level: usize, v: usize) -> Unit {
        match self.path[v].get(level) {
            Some(&c) => Unit::Cluster(c),
            None => Unit::Node(v),
        }
    }

    fn run(&mut self, _graph: &Graph) {
        let n = self.pos.len();
        if n == 0 {
            return;
        }
        // Connected components over all edges, in order of their first node.
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut v: usize) -> usize {
            while parent[v] != v {
                parent[v] = parent[parent[v]];
                v = parent[v];
            }
            v
        }
        let mut join = |a: usize, b: usize, parent: &mut Vec<usize>| {
            let (a, b) = (find(parent, a), find(parent, b));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        };
        for &(a, b) in &self.edges {
            join(a, b, &mut parent);
        }
        for a in 0..n {
            for i in 0..self.flat_out[a].len() {
                join(a, self.flat_out[a][i], &mut parent);
            }
        }
        // Nodes of one top-level cluster stay in one component.
        let mut first_of_cluster = vec![usize::MAX; self.tree.parent.len()];
        for v in 0..n {
            if let Some(&c) = self.path[v].first() {
                if first_of_cluster[c] == usize::MAX {
                    first_of_cluster[c] = v;
                } else {
                    join(first_of_cluster[c], v, &mut parent);
                }
            }
        }
        let mut component_index = vec![usize::MAX; n];
        let mut components: Vec<Vec<usize>> = Vec::new();
        for v in 0..n {
            let root = find(&mut parent, v);
            if component_index[root] == usize::MAX {
                component_index[root] = components.len();
                components.push(Vec::new());
            }
            components[component_index[root]].push(v);
        }
        // Components side by side, each contiguous in every rank.
        for rank in &mut self.ranks {
            rank.clear();
        }
        for component in &components {
            for &v in component {
                self.ranks[self.rank_of[v]].push(v);
            }
        }
        self.refresh_positions();
        for component in &components {
            let problem = self.problem(component.clone(), 0, true);
            self.mincross(&problem, 0);
        }
        // Then each cluster, parents before children.
        let mut clusters: Vec<usize> = (0..self.tree.parent.len()).collect();
        clusters.sort_by_key(|&c| self.tree.depth[c]);
        for c in clusters {
            let members: Vec<usize> = (0..n).filter(|&v| self.path[v].contains(&c)).collect();
            if members.is_empty() {
                continue;
            }
            let problem = self.problem(members, self.tree.depth[c] + 1, false);
            self.build(&problem, 0);
            self.mincross(&problem, 2);
        }
    }

    fn problem(&self, members: Vec<usize>, level: usize, root: bool) -> Problem {
        let min_rank = members.iter().map(|&v| self.rank_of[v]).min().unwrap_or(0);
        let max_rank = members.iter().map(|&v| self.rank_of[v]).max().unwrap_or(0);
        Problem { members, level, min_rank, max_rank, root }
    }

    /// The slice of rank `r` the problem owns: start and length.
    fn slice(&self, problem: &Problem, r: usize) -> (usize, usize) {
        let mut start = usize::MAX;
        let mut count = 0;
        for &v in &problem.members {
            if self.rank_of[v] == r {
                start = start.min(self.pos[v]);
                count += 1;
            }
        }
        (if count == 0 { 0 } else { start }, count)
    }

    /// The units of a rank's slice, in order, with their nodes in order.
    fn units(&self, problem: &Problem, r: usize) -> (usize, Vec<(Unit, Vec<usize>)>) {
        let (start, count) = self.slice(problem, r);
        let mut units: Vec<(Unit, Vec<usize>)> = Vec::new();
        for &v in &self.ranks[r][start..start + count] {
            let unit = self.unit(problem.level, v);
            match units.last_mut() {
                Some((last, nodes)) if *last == unit => nodes.push(v),
                _ => {
                    // A unit seen before (not contiguous) joins its first block.
                    if let Some((_, nodes)) = units.iter_mut().find(|(u, _)| *u == unit) {
                        nodes.push(v);
                    } else {
                        units.push((unit, vec![v]));
                    }
                }
            }
        }
        (start, units)
    }

    fn write(&mut self, r: usize, start: usize, units: &[(Unit, Vec<usize>)]) {
        let mut i = start;
        for (_, nodes) in units {
            for &v in nodes {
                self.ranks[r][i] = v;
                self.pos[v] = i;
                i += 1;
            }
        }
    }

    /// The initial order: breadth-first from the units without predecessors
    /// (pass 0: downwards, out-edges first; pass 1: upwards from the units
    /// without successors), each unit appended to its rank(s) when reached.
    fn build(&mut self, problem: &Problem, pass: usize) {
        let level = problem.level;
        let mut unit_index: std::collections::HashMap<(bool, usize), usize> = std::collections::HashMap::new();
        let mut unit_list: Vec<Unit> = Vec::new();
        let mut unit_nodes: Vec<Vec<usize>> = Vec::new();
        let key = |u: Unit| match u {
            Unit::Node(v) => (false, v),
            Unit::Cluster(c) => (true, c),
        };
        let mut members = problem.members.clone();
        if problem.root {
            members.sort_by_key(|&v| self.list_order[v]);
        } else {
            // dot builds a cluster's node list by prepending: child clusters'
            // skeletons first, then each node and its edges' virtual nodes,
            // so the list runs backwards.
            members.sort_by_key(|&v| match self.unit(level, v) {
                Unit::Cluster(c) => (0, c, self.creation[v]),
                Unit::Node(_) => (1, self.creation[v], 0),
            });
            members.reverse();
        }
        let mut in_problem = std::collections::HashSet::new();
        for &v in &members {
            in_problem.insert(v);
        }
        // Members of clusters keep their current relative order.
        let mut by_position = members.clone();
        by_position.sort_by_key(|&v| (self.rank_of[v], self.pos[v]));
        for &v in &members {
            let u = self.unit(level, v);
            unit_index.entry(key(u)).or_insert_with(|| {
                unit_list.push(u);
                unit_nodes.push(Vec::new());
                unit_list.len() - 1
            });
        }
        for &v in &by_position {
            let i = unit_index[&key(self.unit(level, v))];
            unit_nodes[i].push(v);
        }
        let count = unit_list.len();
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut ins: Vec<Vec<usize>> = vec![Vec::new(); count];
        // A cluster starts a search like dot's skeleton: when nothing enters
        // its top rank (pass 0) or leaves its bottom rank (pass 1).
        let top = |u: usize| unit_nodes[u].iter().map(|&v| self.rank_of[v]).min().unwrap_or(0);
        let bottom = |u: usize| unit_nodes[u].iter().map(|&v| self.rank_of[v]).max().unwrap_or(0);
        let mut entered_at_top = vec![false; count];
        let mut left_at_bottom = vec![false; count];
        for &v in &members {
            let a = unit_index[&key(self.unit(level, v))];
            for &w in &self.down[v] {
                if !in_problem.contains(&w) {
                    continue;
                }
                let b = unit_index[&key(self.unit(level, w))];
                if a != b {
                    outs[a].push(b);
                    ins[b].push(a);
                    if self.rank_of[w] == top(b) {
                        entered_at_top[b] = true;
                    }
                    if self.rank_of[v] == bottom(a) {
                        left_at_bottom[a] = true;
                    }
                }
            }
        }
        let mut marked = vec![false; count];
        let mut order: Vec<usize> = Vec::with_capacity(count);
        let mut queue = std::collections::VecDeque::new();
        for start in 0..count {
            let blocked = if pass == 0 { entered_at_top[start] } else { left_at_bottom[start] };
            if blocked || marked[start] {
                continue;
            }
            marked[start] = true;
            queue.push_back(start);
            while let Some(u) = queue.pop_front() {
                order.push(u);
                let (first, second) = if pass == 0 { (&outs[u], &ins[u]) } else { (&ins[u], &outs[u]) };
                for &w in first.iter().chain(second.iter()) {
                    if !marked[w] {
                        marked[w] = true;
                        queue.push_back(w);
                    }
                }
            }
        }
        // Units only on cycles of zero-length paths (not reached): in input order.
        for u in 0..count {
            if !marked[u] {
                order.push(u);
            }
        }
        for r in problem.min_rank..=problem.max_rank {
            let (start, _) = self.slice(problem, r);
            let mut units: Vec<(Unit, Vec<usize>)> = Vec::new();
            for &u in &order {
                let nodes: Vec<usize> = unit_nodes[u].iter().copied().filter(|&v| self.rank_of[v] == r).collect();
                if !nodes.is_empty() {
                    units.push((unit_list[u], nodes));
                }
            }
            self.flat_reorder(&mut units);
            if self.flip && problem.root {
                // Sideways graphs: dot reverses each rank after building it.
                units.reverse();
            }
            self.write(r, start, &units);
        }
        if problem.root && self.crossings() > 0 {
            self.transpose(problem, false);
        }
    }

    /// Puts the tail of every flat edge left of its head where the edges
    /// allow it (a stable topological sort; cycles keep their order).
    fn flat_reorder(&self, units: &mut Vec<(Unit, Vec<usize>)>) {
        let count = units.len();
        let index_of = |v: usize| units.iter().position(|(_, nodes)| nodes.contains(&v));
        let mut after: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut indegree = vec![0usize; count];
        let mut any = false;
        for (i, (_, nodes)) in units.iter().enumerate() {
            for &v in nodes {
                for &w in &self.flat_out[v] {
                    if let Some(j) = index_of(w) {
                        if j != i {
                            after[i].push(j);
                            indegree[j] += 1;
                            any = true;
                        }
                    }
                }
            }
        }
        if !any {
            return;
        }
        let mut placed = vec![false; count];
        let mut result = Vec::with_capacity(count);
        while result.len() < count {
            // The leftmost unit with no unplaced predecessor; on a cycle, the leftmost unplaced.
            let next = (0..count)
                .find(|&i| !placed[i] && indegree[i] == 0)
                .or_else(|| (0..count).find(|&i| !placed[i]))
                .unwrap_or(0);
            placed[next] = true;
            result.push(next);
            for &j in &after[next] {
                indegree[j] = indegree[j].saturating_sub(1);
            }
        }
        let mut taken: Vec<Option<(Unit, Vec<usize>)>> = units.drain(..).map(Some).collect();
        for i in result {
            if let Some(unit) = taken[i].take() {
                units.push(unit);
            }
        }
    }

    /// Whether unit `a` must stay left of unit `b` (a flat edge from a to b).
    fn must_stay_left(&self, a: &[usize], b: &[usize]) -> bool {
        a.iter().any(|&v| self.flat_out[v].iter().any(|w| b.contains(w)))
    }

    /// dot's mincross for one problem, from `start_pass` (0: build twice, then
    /// iterate; 2: iterate from the current order).
    fn mincross(&mut self, problem: &Problem, start_pass: usize) {
        if problem.max_rank == problem.min_rank && !problem.root {
            // One rank: only flat edges matter, already honoured by build.
            return;
        }
        let mut best_cross = usize::MAX;
        let mut cur_cross = usize::MAX;
        let mut best = self.snapshot(problem);
        for pass in start_pass..=2 {
            let max_this_pass;
            if pass <= 1 {
                max_this_pass = BUILD_PASS_ITERATIONS.min(MAX_ITERATIONS);
                if problem.root {
                    self.build(problem, pass);
                }
                cur_cross = self.crossings();
                if cur_cross <= best_cross {
                    best = self.snapshot(problem);
                    best_cross = cur_cross;
                }
            } else {
                max_this_pass = MAX_ITERATIONS;
                if best_cross == usize::MAX {
                    best_cross = self.crossings();
                    best = self.snapshot(problem);
                }
                if cur_cross > best_cross {
                    self.restore(problem, &best);
                }
                cur_cross = best_cross;
            }
            let mut trying = 0;
            for iteration in 0..max_this_pass {
                if trying >= MIN_QUIT || cur_cross == 0 {
                    break;
                }
                trying += 1;
                self.step(problem, iteration);
                cur_cross = self.crossings();
                if cur_cross <= best_cross {
                    best = self.snapshot(problem);
                    if (cur_cross as f64) < CONVERGENCE * best_cross as f64 {
                        trying = 0;
                    }
                    best_cross = cur_cross;
                }
            }
            if cur_cross == 0 {
                break;
            }
        }
        if cur_cross > best_cross {
            self.restore(problem, &best);
        }
        if best_cross > 0 {
            self.transpose(problem, false);
        }
        self.align_clusters(problem);
    }

    /// Sibling clusters keep one left-to-right order on every rank they
    /// share (the coordinates keep them apart by that order): where ranks
    /// disagree, the clusters' blocks are rearranged among their places by
    /// the clusters' mean position.
    fn align_clusters(&mut self, problem: &Problem) {
        let mut mean: Vec<(usize, f64, usize)> = Vec::new();
        for r in problem.min_rank..=problem.max_rank {
            let (start, units) = self.units(problem, r);
            let mut at = start;
            for (unit, nodes) in &units {
                if let Unit::Cluster(c) = unit {
                    let place = at as f64 / self.ranks[r].len().max(1) as f64;
                    match mean.iter_mut().find(|m| m.0 == *c) {
                        Some(m) => {
                            m.1 += place;
                            m.2 += 1;
                        }
                        None => mean.push((*c, place, 1)),
                    }
                }
                at += nodes.len();
            }
        }
        if mean.len() < 2 {
            return;
        }
        // Only when two clusters swap sides between ranks.
        let mut seen_before: std::collections::HashSet<(usize, usize)> = std::collections::HashSet::new();
        let mut consistent = true;
        for r in problem.min_rank..=problem.max_rank {
            let (_, units) = self.units(problem, r);
            let order: Vec<usize> = units.iter().filter_map(|(u, _)| if let Unit::Cluster(c) = u { Some(*c) } else { None }).collect();
            for i in 0..order.len() {
                for j in i + 1..order.len() {
                    if seen_before.contains(&(order[j], order[i])) {
                        consistent = false;
                    }
                    seen_before.insert((order[i], order[j]));
                }
            }
        }
        if consistent {
            return;
        }
        let key = |c: usize| mean.iter().find(|m| m.0 == c).map_or(0.0, |m| m.1 / m.2 as f64);
        for r in problem.min_rank..=problem.max_rank {
            let (start, mut units) = self.units(problem, r);
            let slots: Vec<usize> = (0..units.len()).filter(|&i| matches!(units[i].0, Unit::Cluster(_))).collect();
            let mut blocks: Vec<(Unit, Vec<usize>)> = slots.iter().map(|&i| units[i].clone()).collect();
            blocks.sort_by(|a, b| {
                let (Unit::Cluster(x), Unit::Cluster(y)) = (a.0, b.0) else { return std::cmp::Ordering::Equal };
                key(x).total_cmp(&key(y)).then(x.cmp(&y))
            });
            for (slot, block) in slots.into_iter().zip(blocks) {
                units[slot] = block;
            }
            self.write(r, start, &units);
        }
    }

    fn snapshot(&self, problem: &Problem) -> Vec<(usize, Vec<usize>)> {
        (problem.min_rank..=problem.max_rank)
            .map(|r| {
                let (start, count) = self.slice(problem, r);
                (start, self.ranks[r][start..start + count].to_vec())
            })
            .collect()
    }

    fn restore(&mut self, problem: &Problem, saved: &[(usize, Vec<usize>)]) {
        for (offset, (start, nodes)) in saved.iter().enumerate() {
            let r = problem.min_rank + offset;
            for (i, &v) in nodes.iter().enumerate() {
                self.ranks[r][start + i] = v;
                self.pos[v] = start + i;
            }
        }
    }

    /// One sweep (dot's mincross_step): down on even iterations, up on odd;
    /// equal medians exchange on the first two of every four.
    fn step(&mut self, problem: &Problem, iteration: usize) {
        let reverse = iteration % 4 < 2;
        let ranks: Vec<usize> = if iteration % 2 == 1 {
            (problem.min_rank..problem.max_rank).rev().collect()
        } else {
            (problem.min_rank + 1..=problem.max_rank).collect()
        };
        let downward = iteration % 2 == 0;
        for r in ranks {
            let (start, mut units) = self.units(problem, r);
            let mut medians: Vec<f64> = units.iter().map(|(unit, nodes)| self.median(*unit, nodes, r, downward)).collect();
            self.reorder(&mut units, &mut medians, reverse);
            self.write(r, start, &units);
        }
        self.transpose(problem, !reverse);
    }

    /// The weighted median of a unit's neighbours on the rank before it in
    /// the sweep (dot's medians), or −1 when it has none there.
    fn median(&self, unit: Unit, nodes: &[usize], r: usize, downward: bool) -> f64 {
        let mut list: Vec<f64> = Vec::new();
        for &v in nodes {
            let neighbours = if downward { &self.up[v] } else { &self.down[v] };
            for &w in neighbours {
                list.push(self.pos[w] as f64);
            }
        }
        if list.is_empty() {
            if let Unit::Cluster(c) = unit {
                // A cluster's block follows its own block on the other rank.
                let other = if downward { r.checked_sub(1) } else { Some(r + 1) };
                if let Some(other) = other.filter(|&o| o < self.ranks.len()) {
                    if let Some(i) = self.ranks[other].iter().position(|&w| self.path[w].contains(&c)) {
                        return i as f64;
                    }
                }
            }
            return -1.0;
        }
        list.sort_by(f64::total_cmp);
        let m = list.len();
        if m == 1 {
            return list[0];
        }
        if m == 2 {
            return (list[0] + list[1]) / 2.0;
        }
        let mid = m / 2;
        if m % 2 == 1 {
            return list[mid];
        }
        let left = list[mid - 1] - list[0];
        let right = list[m - 1] - list[mid];
        if left + right == 0.0 {
            (list[mid - 1] + list[mid]) / 2.0
        } else {
            (list[mid - 1] * right + list[mid] * left) / (left + right)
        }
    }

    /// dot's reorder: units with a median move past each other into median
    /// order; units without one stay where they are.
    fn reorder(&self, units: &mut [(Unit, Vec<usize>)], medians: &mut [f64], reverse: bool) {
        let n = units.len();
        if n > BUBBLE_LIMIT {
            // Sort the movable units by median among the fixed ones.
            let slots: Vec<usize> = (0..n).filter(|&i| medians[i] >= 0.0).collect();
            let mut movable: Vec<(f64, usize)> = slots.iter().map(|&i| (medians[i], i)).collect();
            movable.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let original: Vec<(Unit, Vec<usize>)> = units.to_vec();
            for (slot, (m, from)) in slots.iter().zip(movable) {
                units[*slot] = original[from].clone();
                medians[*slot] = m;
            }
            return;
        }
        let mut end = n;
        for _ in 0..n {
            let mut left = 0;
            while left < end {
                while left < end && medians[left] < 0.0 {
                    left += 1;
                }
                if left >= end {
                    break;
                }
                let mut right = left + 1;
                let mut must_stay = false;
                while right < end {
                    if self.must_stay_left(&units[left].1, &units[right].1) {
                        must_stay = true;
                        break;
                    }
                    if medians[right] >= 0.0 {
                        break;
                    }
                    right += 1;
                }
                if right >= end {
                    break;
                }
                if !must_stay {
                    let (p1, p2) = (medians[left], medians[right]);
                    if p1 > p2 || (p1 == p2 && reverse) {
                        units.swap(left, right);
                        medians.swap(left, right);
                    }
                }
                left = right;
            }
            if !reverse {
                end -= 1;
            }
        }
    }

    /// Exchanges neighbouring units while that removes crossings (dot's
    /// transpose; `reverse`: equal counts exchange too).
    fn transpose(&mut self, problem: &Problem, reverse: bool) {
        let span = problem.max_rank - problem.min_rank + 1;
        let mut candidate = vec![true; span];
        for _ in 0..MAX_TRANSPOSE_ROUNDS {
            let mut delta: i64 = 0;
            for offset in 0..span {
                if !candidate[offset] {
                    continue;
                }
                candidate[offset] = false;
                let r = problem.min_rank + offset;
                let (start, mut units) = self.units(problem, r);
                let mut changed = false;
                for i in 0..units.len().saturating_sub(1) {
                    if self.must_stay_left(&units[i].1, &units[i + 1].1) {
                        continue;
                    }
                    let c0 = self.pair_crossings(&units[i].1, &units[i + 1].1, r);
                    let c1 = self.pair_crossings(&units[i + 1].1, &units[i].1, r);
                    if c1 < c0 || (c0 > 0 && reverse && c1 == c0) {
                        units.swap(i, i + 1);
                        // Keep positions current for the next pair.
                        self.write(r, start, &units);
                        delta += c0 as i64 - c1 as i64;
                        changed = true;
                    }
                }
                if changed {
                    candidate[offset] = true;
                    if offset > 0 {
                        candidate[offset - 1] = true;
                    }
                    if offset + 1 < span {
                        candidate[offset + 1] = true;
                    }
                }
            }
            if delta < 1 {
                break;
            }
        }
    }

    /// Crossings between the edges of `left` and `right` (neighbours on one
    /// rank, `left` first) to the ranks above and below.
    fn pair_crossings(&self, left: &[usize], right: &[usize], _r: usize) -> usize {
        let mut count = 0;
        for adjacency in [&self.up, &self.down] {
            for &w in right {
                for &wn in &adjacency[w] {
                    for &v in left {
                        for &vn in &adjacency[v] {
                            if self.pos[vn] > self.pos[wn] {
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
        count
    }

    /// All crossings between neighbouring ranks (counted by sorting: each
    /// edge crosses the earlier edges whose lower end lies right of its own).
    fn crossings(&self) -> usize {
        let rank_count = self.ranks.len();
        let mut by_rank: Vec<Vec<(usize, usize)>> = vec![Vec::new(); rank_count];
        for &(a, b) in &self.edges {
            by_rank[self.rank_of[a]].push((self.pos[a], self.pos[b]));
        }
        let mut total = 0;
        for (r, pairs) in by_rank.iter_mut().enumerate() {
            if pairs.len() < 2 || r + 1 >= rank_count {
                continue;
            }
            pairs.sort_unstable();
            let width = self.ranks[r + 1].len() + 1;
            let mut tree = vec![0usize; width + 1];
            let mut seen = 0;
            for &(_, lower) in pairs.iter() {
                // Earlier edges with a lower end strictly right of this one.
                let mut at_or_left = 0;
                let mut i = lower + 1;
                while i > 0 {
                    at_or_left += tree[i];
                    i -= i & i.wrapping_neg();
                }
                total += seen - at_or_left;
                let mut i = lower + 1;
                while i <= width {
                    tree[i] += 1;
                    i += i & i.wrapping_neg();
                }
                seen += 1;
            }
        }
        total
    }
}
