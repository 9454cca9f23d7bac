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
//! sweeps, stop after 8 without improvement; sooner after four sweeps in
//! a row that moved nothing, which every further one would repeat). A
//! problem with at most one unit per rank is not swept at all. The graph's
//! connected components are ordered apart and placed left to right.

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
/// What crossing a collapsed cluster's skeleton costs (dot's CL_CROSS).
const SKELETON_CROSSING: usize = 1000;
/// Crossings between two ranks joined by at most this many edges are
/// counted pair by pair (below it, faster than sorting).
const DIRECT_COUNT_LIMIT: usize = 16;
/// Ranks longer than this are sorted rather than bubble-exchanged.
const BUBBLE_LIMIT: usize = 256;

/// Debugging aid (the `trace` feature): with `PUML_GRAPH_TRACE` set, prints
/// the progress of crossing reduction in the words of `dot -v` (its
/// "mincross: pass … iter … cur_cross … best_cross …" lines) and each
/// initial order, so that `scripts/graph_trace.sh` can find the first step
/// where the engine and dot part.
#[cfg(feature = "trace")]
fn trace(line: impl FnOnce() -> String) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("PUML_GRAPH_TRACE").is_some()) {
        eprintln!("{}", line());
    }
}

#[cfg(not(feature = "trace"))]
fn trace(_line: impl FnOnce() -> String) {}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Unit {
    Node(usize),
    Cluster(usize),
}

/// A unit's nodes on one rank, in order. Most units are one node, held
/// inline: the sweeps make these lists for every rank many times, and a
/// vector each was a good part of the orderer's time.
#[derive(Clone, Debug)]
enum Members {
    One(usize),
    Many(Vec<usize>),
}

impl Members {
    fn push(&mut self, v: usize) {
        match self {
            Members::One(first) => {
                // (Room for a few more: a cluster's nodes on a rank are
                // gathered one by one.)
                let mut list = Vec::with_capacity(8);
                list.extend([*first, v]);
                *self = Members::Many(list);
            }
            Members::Many(list) => list.push(v),
        }
    }
}

impl std::ops::Deref for Members {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        match self {
            Members::One(v) => std::slice::from_ref(v),
            Members::Many(list) => list,
        }
    }
}

impl<'m> IntoIterator for &'m Members {
    type Item = &'m usize;
    type IntoIter = std::slice::Iter<'m, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

pub(crate) fn reduce_crossings(layered: &mut Layered, graph: &Graph) {
    let tree = ClusterTree::new(graph);
    let mut orderer = Orderer::new(layered, &tree);
    orderer.creation = creation_order(layered, graph);
    orderer.flip = matches!(
        graph.options.rank_dir,
        crate::RankDir::LeftToRight | crate::RankDir::RightToLeft
    );
    orderer.run(graph);
    layered.ranks = orderer.ranks;
    debug_assert!(clusters_contiguous(layered, &tree), "a cluster is split on a rank");
}

/// dot's node list: places in a depth-first walk (recursive in dot, a stack
/// here) from each start not yet reached, in order, following each node's
/// `lists` in turn (out-edges, in-edges, flat out-edges, flat in-edges).
/// Nodes never reached keep `usize::MAX`.
fn depth_first_places(total: usize, starts: impl Iterator<Item = usize>, lists: [&[Vec<usize>]; 4]) -> Vec<usize> {
    let mut place = vec![usize::MAX; total];
    let mut next = 0;
    for start in starts {
        if place[start] != usize::MAX {
            continue;
        }
        place[start] = next;
        next += 1;
        // (node, list index, position in list)
        let mut stack: Vec<(usize, usize, usize)> = vec![(start, 0, 0)];
        while let Some(top) = stack.last_mut() {
            let (v, list, i) = *top;
            let Some(neighbours) = lists.get(list).map(|l| &l[v]) else {
                stack.pop();
                continue;
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

/// A unit's edges up (`[0]`) and down (`[1]`) as (place, weight), by place.
/// (Ranges of one buffer of (place, weight) pairs, shared by a rank's units:
/// a vector each was much of transposition's time.)
type EdgeLists = [std::ops::Range<usize>; 2];

/// Weighted crossings between the edges of two neighbouring units (`left`
/// first), each given as its edges up and down as (place, weight) sorted by
/// place: an edge of `left` crosses one of `right` on the same side when it
/// ends further right.
/// (The crossings above the rank, `[0]`, and below it, `[1]`.)
fn pair_crossings_by_side(buffer: &[(usize, usize)], left: &EdgeLists, right: &EdgeLists) -> [usize; 2] {
    let mut counts = [0; 2];
    for (side, count) in counts.iter_mut().enumerate() {
        let (l, r) = (&buffer[left[side].clone()], &buffer[right[side].clone()]);
        let total: usize = l.iter().map(|&(_, w)| w).sum();
        let mut at_or_left = 0;
        let mut k = 0;
        for &(place, weight) in r {
            while k < l.len() && l[k].0 <= place {
                at_or_left += l[k].1;
                k += 1;
            }
            *count += weight * (total - at_or_left);
        }
    }
    counts
}

/// dot's node list of the layered graph: depth first from the real nodes
/// in input order (out-edges, in-edges, flat edges).
pub(crate) fn node_list(layered: &Layered, _graph: &Graph) -> Vec<usize> {
    // (Only the adjacency the walk follows: a whole `Orderer` was 2 % of a
    // class diagram's render.)
    let n = layered.nodes.len();
    let mut up = vec![Vec::new(); n];
    let mut down = vec![Vec::new(); n];
    for e in &layered.edges {
        up[e.lower].push(e.upper);
        down[e.upper].push(e.lower);
    }
    let mut flat_out = vec![Vec::new(); n];
    for &(a, b) in &layered.flat {
        if a != b {
            flat_out[a].push(b);
        }
    }
    let list_order = depth_first_list(&down, &up, &flat_out);
    let mut list: Vec<usize> = (0..n).collect();
    list.sort_by_key(|&v| list_order[v]);
    list
}

/// dot's node list order: each node's place in a depth-first walk from the
/// nodes in order, through out-edges (`down`), in-edges (`up`), flat out-
/// and flat in-edges.
fn depth_first_list(down: &[Vec<usize>], up: &[Vec<usize>], flat_out: &[Vec<usize>]) -> Vec<usize> {
    let n = down.len();
    let mut flat_in = vec![Vec::new(); n];
    for (a, outs) in flat_out.iter().enumerate() {
        for &b in outs {
            flat_in[b].push(a);
        }
    }
    depth_first_places(n, 0..n, [down, up, flat_out, &flat_in])
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
            let starts =
                inside.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(inside.first() == Some(&true));
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
    /// Members per rank, from `min_rank`.
    by_rank: Vec<Vec<usize>>,
    /// Per rank, from `min_rank`: whether every member is a unit of its
    /// own (no cluster at `level`), so a rank's units are its nodes.
    nodes_only: Vec<bool>,
    /// Per rank, from `min_rank`, where the problem's slice starts, when
    /// that stays while it is ordered: a component's (components lie side
    /// by side, and its ordering moves its nodes within its slices) and the
    /// final pass's (whole ranks). A cluster's slice is looked for.
    fixed_starts: Option<Vec<usize>>,
    /// dot's final pass over the whole graph (`remincross`): every node is
    /// a unit, and only nodes of the same innermost cluster trade places.
    remincross: bool,
    /// A component of the whole graph: dot counts the crossings of the
    /// component being ordered only (its nodes are one slice of each rank);
    /// for a cluster or the final pass, those of the whole graph.
    own: bool,
    /// For a cluster or the final pass: the crossings outside its ranks,
    /// which its ordering cannot change (see `remember_crossings_elsewhere`).
    crossings_elsewhere: std::cell::Cell<Option<usize>>,
    /// For a cluster: the part of each gap's count its order cannot change
    /// (edges without an end in its slices), by gap from the one above its
    /// top rank; made when the gap is first counted (see `count_gap`).
    gap_bases: std::cell::RefCell<Vec<Option<usize>>>,
}

struct Orderer<'a> {
    ranks: Vec<Vec<usize>>,
    pos: Vec<usize>,
    rank_of: Vec<usize>,
    /// Neighbours on the rank above and below.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// The same through the edges that count in crossing reduction.
    /// (neighbour, weight: dot's xpenalty, one per edge merged into it).
    up_crossing: Vec<Vec<(usize, usize)>>,
    down_crossing: Vec<Vec<(usize, usize)>>,
    /// Flat edges (same rank), tail to head.
    flat_out: Vec<Vec<usize>>,
    /// Flat edges (same rank), head to tail.
    flat_in: Vec<Vec<usize>>,
    /// The flat edges that keep their tail left of their head (those that
    /// take part in ranking).
    flat_ordering: Vec<Vec<usize>>,
    /// Clusters of each node, outermost first.
    path: Vec<Vec<usize>>,
    /// Each node's innermost cluster (`NO_CLUSTER` outside clusters): the
    /// final pass compares it for every pair it may exchange.
    innermost: Vec<usize>,
    /// Edges by the rank of their upper end.
    edges_by_rank: Vec<Vec<(usize, usize, usize)>>,
    tree: &'a ClusterTree,
    /// Each node's place in dot's node list (see `depth_first_list`) at the
    /// top level, where dot sees each top-level cluster as a skeleton (one node per rank, joined by an edge down; edges into
    /// the cluster end there): the place of every node outside clusters,
    /// and for a node in a cluster, the place of its cluster's top node
    /// (`[0]`, where the first build starts it) or bottom node (`[1]`, where
    /// the second build, upwards, starts it).
    root_list_order: [Vec<usize>; 2],
    /// Each node's place in the order dot makes the nodes of a cluster: each
    /// real node, then the virtual nodes of the edges it is the tail of.
    creation: Vec<usize>,
    /// The graph runs sideways (dot's GD_flip).
    flip: bool,
    /// 1, or less for huge graphs (fewer sweeps).
    effort: f64,
    /// Every edge between ranks (upper, lower), in the order made.
    edge_list: Vec<(usize, usize)>,
    /// Each node's kind (its name in traces).
    kinds: Vec<crate::layered::Kind>,
    /// Per rank, dot's table of the pairs flat edges keep in order (by
    /// `flat_index`), once made: see `flat_breakcycles`.
    /// (Each table a sorted list of pairs: a rank has few flat edges, and
    /// exchanges and sweeps look pairs up often.)
    flat_matrix: Vec<Option<Vec<(usize, usize)>>>,
    /// Each node's place when its rank's table was last made (dot's ND_low).
    flat_index: Vec<usize>,
    /// Clusters already expanded; a collapsed cluster takes one place on
    /// each of its ranks, as dot's skeleton nodes do until the cluster's
    /// own turn.
    expanded: Vec<bool>,
    /// Per node, the outermost collapsed cluster holding it (kept with
    /// `expanded`: crossing counts ask for it on every edge).
    collapsed_of: Vec<Option<usize>>,
    /// Per rank r, the crossings between r and r + 1 counted for the
    /// problem being ordered, until either rank changes (dot's per-rank
    /// `cache_nc`): most sweeps change few ranks.
    rank_crossings: std::cell::RefCell<Vec<Option<usize>>>,
    /// Per rank, what transposition is known to leave as it is within the
    /// problem being ordered (`TRANSPOSE_*`): set when a transposition
    /// ends with the rank looked at and unchanged, cleared when the rank
    /// or a neighbouring rank changes, so a sweep that moved nothing near
    /// a rank does not have its pairs compared again for nothing.
    transpose_stable: std::cell::RefCell<Vec<u8>>,
    /// Each node's place on its rank counting a collapsed cluster once
    /// (what medians and crossings compare).
    slot: Vec<usize>,
    /// Reused lists of `crossings_between` (it runs after every sweep).
    crossing_scratch: std::cell::RefCell<CrossingScratch>,
    /// The lists a sweep reuses from rank to rank and call to call: the
    /// rank's units, their medians, and the median's working lists.
    sweep_scratch: SweepScratch,
    /// Each rank's units in transposition (reused from call to call).
    transpose_units: Vec<Vec<(Unit, Members)>>,
    /// Transposition's other lists, reused from call to call.
    transpose_scratch: TransposeScratch,
    /// See `BuildScratch`.
    build_scratch: BuildScratch,
    /// Set whenever a rank's order changes (mincross clears it before a
    /// sweep to see whether the sweep moved anything).
    moved: bool,
    /// Each node's edges down (indices into `edge_list`, in the order
    /// made): `out_edges[out_edge_start[v]..out_edge_start[v + 1]]`.
    out_edges: Vec<usize>,
    out_edge_start: Vec<usize>,
    /// Per cluster, its block in the units `units_into` is making
    /// (`NO_BLOCK` between calls).
    cluster_block: std::cell::RefCell<Vec<usize>>,
    /// A node of each cluster on each rank it spans (its block's place).
    cluster_member: rustc_hash::FxHashMap<(usize, usize), usize>,
}

/// See `Orderer::sweep_scratch`.
type SweepScratch = (Vec<(Unit, Members)>, Vec<f64>, (Vec<i64>, Vec<Unit>, ReorderScratch));

/// The lists `Orderer::reorder` reuses from call to call.
#[derive(Default)]
struct ReorderScratch {
    /// The first place at or after each place holding a unit with a median.
    next_median: Vec<usize>,
    /// For a rank of nodes alone: the places holding a median, and the
    /// medians and their nodes in their current order there.
    slots: Vec<usize>,
    values: Vec<f64>,
    nodes: Vec<usize>,
}

/// The lists `Orderer::transpose` reuses from call to call (see there).
#[derive(Default)]
struct TransposeScratch {
    candidate: Vec<bool>,
    lists: Vec<Option<EdgeLists>>,
    buffer: Vec<(usize, usize)>,
    starts: Vec<Option<usize>>,
}

/// The lists `Orderer::build` reuses from call to call.
#[derive(Default)]
struct BuildScratch {
    /// The problem's nodes in dot's node list order.
    members: Vec<usize>,
    /// Each node's unit (`NOT_MEMBER` outside the problem, and between calls).
    unit_of_node: Vec<usize>,
    /// Each cluster's unit (`NOT_MEMBER` when it is none, and between calls).
    unit_of_cluster: Vec<usize>,
    units: Vec<Unit>,
    /// Where each unit's nodes start in `nodes` (one more entry: the end).
    node_start: Vec<usize>,
    /// The units' nodes, by rank and place within each unit.
    nodes: Vec<usize>,
    /// Per unit: top rank, bottom rank, and whether a search may not start there.
    span: Vec<(usize, usize, bool)>,
    /// (unit, rank, edge made, neighbouring unit) of the edges the search follows.
    edges: Vec<(usize, usize, usize, usize)>,
    /// Where each unit's edges start in `edges`.
    edge_start: Vec<usize>,
    marked: Vec<bool>,
    /// The units in the order the search reaches them.
    order: Vec<usize>,
    /// Fill positions (per unit, then per rank).
    cursor: Vec<usize>,
    /// The problem's nodes rank by rank in their new order.
    ranked: Vec<usize>,
}

/// A node outside the problem `Orderer::build` orders.
const NOT_MEMBER: usize = usize::MAX;

/// `Orderer::innermost` of a node outside every cluster.
const NO_CLUSTER: usize = usize::MAX;

/// A cluster without a block in the units being made.
const NO_BLOCK: usize = usize::MAX;

/// `Orderer::transpose_stable`: nothing known.
const TRANSPOSE_UNKNOWN: u8 = 0;
/// A transposition that exchanges only pairs it improves leaves the rank.
const TRANSPOSE_STABLE_STRICT: u8 = 1;
/// Also one that exchanges pairs of equal counts (it exchanged none, so
/// neither would the strict one).
const TRANSPOSE_STABLE_ALWAYS: u8 = 2;

/// The working lists of `Orderer::crossings_between`.
#[derive(Default)]
struct CrossingScratch {
    /// (upper place, lower place, weight) of the edges between two ranks.
    pairs: Vec<(usize, usize, usize)>,
    sorted: Vec<(usize, usize, usize)>,
    /// (cluster, place) of the collapsed clusters on the upper rank.
    upper: Vec<(usize, usize)>,
    /// The Fenwick tree over lower places.
    tree: Vec<usize>,
    /// Bucket starts of the counting sort.
    counts: Vec<usize>,
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
        let mut up_crossing = vec![Vec::new(); n];
        let mut down_crossing = vec![Vec::new(); n];
        for e in &layered.edges {
            up[e.lower].push(e.upper);
            down[e.upper].push(e.lower);
            if e.crossing_weight > 0 {
                up_crossing[e.lower].push((e.upper, e.crossing_weight));
                down_crossing[e.upper].push((e.lower, e.crossing_weight));
                edges.push((e.upper, e.lower, e.crossing_weight));
            }
        }
        let mut flat_out = vec![Vec::new(); n];
        let mut flat_ordering = vec![Vec::new(); n];
        let mut flat_in = vec![Vec::new(); n];
        for (&(a, b), &constraint) in layered.flat.iter().zip(&layered.flat_constraint) {
            if a != b {
                flat_out[a].push(b);
                flat_in[b].push(a);
                if constraint {
                    flat_ordering[a].push(b);
                }
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
                    if p.len() > tree.parent.len() {
                        break;
                    }
                }
                p.reverse();
                p
            })
            .collect();
        let innermost = path
            .iter()
            .map(|p: &Vec<usize>| p.last().copied().unwrap_or(NO_CLUSTER))
            .collect();
        let rank_of: Vec<usize> = layered.nodes.iter().map(|node| node.rank).collect();
        let mut edges_by_rank = vec![Vec::new(); layered.ranks.len()];
        for &(a, b, w) in &edges {
            edges_by_rank[rank_of[a]].push((a, b, w));
        }
        // Each node's edges down, by node and then in the order made.
        let mut out_edge_start = vec![0; n + 1];
        for e in &layered.edges {
            out_edge_start[e.upper + 1] += 1;
        }
        for v in 0..n {
            out_edge_start[v + 1] += out_edge_start[v];
        }
        let mut out_edges = vec![0; layered.edges.len()];
        let mut fill = out_edge_start.clone();
        for (made, e) in layered.edges.iter().enumerate() {
            out_edges[fill[e.upper]] = made;
            fill[e.upper] += 1;
        }
        let mut orderer = Orderer {
            ranks: layered.ranks.clone(),
            pos: vec![0; n],
            rank_of,
            up,
            down,
            up_crossing,
            down_crossing,
            flat_out,
            flat_in,
            flat_ordering,
            path,
            innermost,
            edges_by_rank,
            tree,
            root_list_order: [Vec::new(), Vec::new()],
            creation: Vec::new(),
            flip: false,
            effort: layered.effort,
            flat_matrix: vec![None; layered.ranks.len()],
            flat_index: vec![0; n],
            edge_list: layered.edges.iter().map(|e| (e.upper, e.lower)).collect(),
            kinds: layered.nodes.iter().map(|node| node.kind).collect(),
            expanded: vec![false; tree.parent.len()],
            collapsed_of: vec![None; n],
            rank_crossings: std::cell::RefCell::new(vec![None; layered.ranks.len()]),
            transpose_stable: std::cell::RefCell::new(vec![TRANSPOSE_UNKNOWN; layered.ranks.len()]),
            slot: vec![0; n],
            cluster_member: rustc_hash::FxHashMap::default(),
            cluster_block: std::cell::RefCell::new(vec![NO_BLOCK; tree.parent.len()]),
            sweep_scratch: Default::default(),
            transpose_units: Vec::new(),
            transpose_scratch: TransposeScratch::default(),
            build_scratch: BuildScratch::default(),
            moved: false,
            out_edges,
            out_edge_start,
            crossing_scratch: std::cell::RefCell::new(CrossingScratch::default()),
        };
        for v in 0..n {
            for &c in &orderer.path[v] {
                orderer.cluster_member.entry((c, orderer.rank_of[v])).or_insert(v);
            }
            orderer.collapsed_of[v] = orderer.path[v].first().copied();
        }
        orderer.root_list_order = [
            orderer.skeleton_list_order(layered, false),
            orderer.skeleton_list_order(layered, true),
        ];
        orderer.refresh_positions();
        orderer
    }

    fn skeleton_list_order(&self, layered: &Layered, bottom: bool) -> Vec<usize> {
        let n = layered.nodes.len();
        // Skeleton nodes: n + index into `leaders`.
        let mut leaders: Vec<(usize, usize)> = Vec::new();
        let mut leader_of: rustc_hash::FxHashMap<(usize, usize), usize> = rustc_hash::FxHashMap::default();
        let mut span: std::collections::BTreeMap<usize, (usize, usize)> = std::collections::BTreeMap::new();
        for v in 0..n {
            if let Some(&c) = self.path[v].first() {
                let r = self.rank_of[v];
                let entry = span.entry(c).or_insert((r, r));
                entry.0 = entry.0.min(r);
                entry.1 = entry.1.max(r);
            }
        }
        for (&c, &(low, high)) in &span {
            for r in low..=high {
                leader_of.insert((c, r), n + leaders.len());
                leaders.push((c, r));
            }
        }
        let total = n + leaders.len();
        let unit = |v: usize| match self.path[v].first() {
            Some(&c) => leader_of[&(c, self.rank_of[v])],
            None => v,
        };
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); total];
        let mut inn: Vec<Vec<usize>> = vec![Vec::new(); total];
        // The skeletons' edges come first (dot builds them before the rest).
        for (i, &(c, r)) in leaders.iter().enumerate() {
            if let Some(&below) = leader_of.get(&(c, r + 1)) {
                out[n + i].push(below);
                inn[below].push(n + i);
            }
        }
        for e in &layered.edges {
            let (a, b) = (unit(e.upper), unit(e.lower));
            let same_cluster = a >= n && b >= n && leaders[a - n].0 == leaders[b - n].0;
            if a == b || same_cluster || out[a].contains(&b) {
                continue;
            }
            out[a].push(b);
            inn[b].push(a);
        }
        let mut flat_out: Vec<Vec<usize>> = vec![Vec::new(); total];
        let mut flat_in: Vec<Vec<usize>> = vec![Vec::new(); total];
        for (a, heads) in self.flat_out.iter().enumerate() {
            for &b in heads {
                if self.path[a].is_empty() && self.path[b].is_empty() {
                    flat_out[a].push(b);
                    flat_in[b].push(a);
                }
            }
        }
        let place = depth_first_places(total, (0..n).map(unit), [&out, &inn, &flat_out, &flat_in]);
        (0..n)
            .map(|v| match self.path[v].first() {
                Some(&c) => {
                    let (low, high) = span[&c];
                    place[leader_of[&(c, if bottom { high } else { low })]]
                }
                None => place[v],
            })
            .collect()
    }

    /// An iteration count scaled down for huge graphs (at least one).
    fn scaled(&self, iterations: usize) -> usize {
        ((iterations as f64 * self.effort).round() as usize).max(1)
    }

    fn refresh_positions(&mut self) {
        self.forget_crossings();
        for rank in &self.ranks {
            for (i, &v) in rank.iter().enumerate() {
                self.pos[v] = i;
            }
        }
        for r in 0..self.ranks.len() {
            self.refresh_slots(r);
        }
    }

    /// The outermost collapsed cluster holding `v`, if any.
    fn collapsed(&self, v: usize) -> Option<usize> {
        self.collapsed_of[v]
    }

    /// Marks cluster `c` expanded; its members are then held by the
    /// outermost cluster inside it still collapsed, if any.
    fn expand(&mut self, c: usize, members: &[usize]) {
        self.expanded[c] = true;
        for &v in members {
            self.collapsed_of[v] = self.path[v].iter().copied().find(|&k| !self.expanded[k]);
            // Only the gaps around the members' ranks count the cluster
            // differently now.
            self.rank_changed(self.rank_of[v]);
        }
    }

    /// Forgets every rank's crossing count (a new problem, or a cluster
    /// expanded).
    fn forget_crossings(&self) {
        self.rank_crossings.borrow_mut().iter_mut().for_each(|c| *c = None);
    }

    fn remember_rank_crossings(&self, r: usize, count: usize) {
        if let Some(c) = self.rank_crossings.borrow_mut().get_mut(r) {
            *c = Some(count);
        }
    }

    /// Two neighbouring units of rank `r` traded places, which took the
    /// crossings between their edges from `before` to `after` (above the
    /// rank, below it): the kept counts of the gaps above and below change
    /// by as much (`below` false: the units' edges below were not looked
    /// at, and that count is forgotten).
    fn rank_exchanged(&self, r: usize, before: [usize; 2], after: [usize; 2], below: bool) {
        let mut cache = self.rank_crossings.borrow_mut();
        let adjust = |count: &mut Option<usize>, side: usize| {
            *count = count.and_then(|c| (c + after[side]).checked_sub(before[side]));
        };
        if let Some(count) = r.checked_sub(1).and_then(|above| cache.get_mut(above)) {
            adjust(count, 0);
        }
        if let Some(count) = cache.get_mut(r) {
            if below {
                adjust(count, 1);
            } else {
                *count = None;
            }
        }
    }

    /// The crossings between ranks `r` and `r + 1`, counted again whatever
    /// is kept (a check of the kept counts in debug builds).
    #[cfg(debug_assertions)]
    fn count_gap_afresh(&self, problem: &Problem, r: usize) -> usize {
        let saved = self.rank_crossings.borrow_mut()[r].take();
        let fresh = self.crossings_between(problem, r..=r);
        self.rank_crossings.borrow_mut()[r] = saved;
        fresh
    }

    /// Whether the counts kept for the gaps above and below rank `r` are
    /// those a recount gives (a check of `rank_exchanged` in debug builds).
    fn kept_counts_fresh(&self, problem: &Problem, r: usize) -> bool {
        let kept: Vec<(usize, usize)> = {
            let cache = self.rank_crossings.borrow();
            [r.checked_sub(1), Some(r)]
                .into_iter()
                .flatten()
                .filter_map(|g| cache.get(g).copied().flatten().map(|c| (g, c)))
                .collect()
        };
        kept.into_iter().all(|(gap, count)| {
            let saved = self.rank_crossings.borrow_mut()[gap].take();
            let fresh = self.crossings_between(problem, gap..=gap);
            self.rank_crossings.borrow_mut()[gap] = saved;
            fresh == count
        })
    }

    /// Forgets the crossing counts rank `r`'s order enters: above and below
    /// it (and what transposition knew of it and its neighbours).
    fn rank_changed(&self, r: usize) {
        self.transposition_unknown(r);
        let mut cache = self.rank_crossings.borrow_mut();
        if let Some(c) = cache.get_mut(r) {
            *c = None;
        }
        if let Some(c) = r.checked_sub(1).and_then(|above| cache.get_mut(above)) {
            *c = None;
        }
    }

    /// Rank `r` changed: transposition of it and its neighbours (whose
    /// pairs' crossings it enters) must look again.
    fn transposition_unknown(&self, r: usize) {
        let mut stable = self.transpose_stable.borrow_mut();
        let end = (r + 2).min(stable.len());
        stable[r.saturating_sub(1)..end].fill(TRANSPOSE_UNKNOWN);
    }

    /// Whether every slot of rank `r` is what `refresh_slots` would make.
    fn slots_fresh(&self, r: usize) -> bool {
        let mut next = 0;
        let mut previous: Option<Option<usize>> = None;
        for &v in &self.ranks[r] {
            let key = self.collapsed(v);
            let same = key.is_some() && previous == Some(key);
            if !same && previous.is_some() {
                next += 1;
            }
            if self.slot[v] != next {
                return false;
            }
            previous = Some(key);
        }
        true
    }

    fn refresh_slots(&mut self, r: usize) {
        let mut next = 0;
        let mut previous: Option<Option<usize>> = None;
        for i in 0..self.ranks[r].len() {
            let v = self.ranks[r][i];
            let key = self.collapsed(v);
            let same = key.is_some() && previous == Some(key);
            if !same && previous.is_some() {
                next += 1;
            }
            self.slot[v] = next;
            previous = Some(key);
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
        let join = |a: usize, b: usize, parent: &mut Vec<usize>| {
            let (a, b) = (find(parent, a), find(parent, b));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        };
        for a in 0..n {
            for i in 0..self.down[a].len() {
                join(a, self.down[a][i], &mut parent);
            }
        }
        // Flat edges join only nodes outside clusters: dot drops a flat
        // edge into a collapsed cluster at the top level.
        for a in 0..n {
            for i in 0..self.flat_out[a].len() {
                let b = self.flat_out[a][i];
                if self.path[a].is_empty() && self.path[b].is_empty() {
                    join(a, b, &mut parent);
                }
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
            if self.one_unit_per_rank(&problem) {
                // (The order cannot change and has no crossings: dot's
                // build and count end there, leaving only the table of the
                // flat edges' pairs.)
                trace(|| format!("one unit per rank:\n{}", self.describe(&problem)));
                self.flat_breakcycles(&problem);
                continue;
            }
            self.mincross(&problem, 0);
        }
        // (The components' counts were of their own edges only.)
        self.forget_crossings();
        // Then each cluster, depth first (dot's mincross_clust): expanded
        // from its block, ordered inside, then its children.
        let count = self.tree.parent.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); count + 1];
        for c in 0..count {
            children[self.tree.parent[c].map_or(0, |p| p + 1)].push(c);
        }
        let mut members_of: Vec<Vec<usize>> = vec![Vec::new(); count];
        for v in 0..n {
            for &c in &self.path[v] {
                members_of[c].push(v);
            }
        }
        let mut stack: Vec<usize> = children[0].iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            stack.extend(children[c + 1].iter().rev().copied());
            let members = std::mem::take(&mut members_of[c]);
            self.expand(c, &members);
            if members.is_empty() {
                continue;
            }
            let problem = self.problem(members, self.tree.depth[c] + 1, false);
            for r in problem.min_rank..=problem.max_rank {
                self.refresh_slots(r);
            }
            if self.one_unit_per_rank(&problem) {
                // Building keeps the order, and no sweep or exchange can
                // change it: dot's eight sweeps without improvement would
                // only count the same crossings again.
                trace(|| format!("one unit per rank:\n{}", self.describe(&problem)));
                self.flat_breakcycles(&problem);
                continue;
            }
            self.build(&problem, 0);
            self.mincross(&problem, 2);
        }
        if count > 0 && (0..count).any(|c| self.expanded[c]) {
            let mut problem = self.problem((0..n).collect(), usize::MAX, false);
            problem.remincross = true;
            // (Every node: each slice is its whole rank.)
            problem.fixed_starts = Some(vec![0; problem.by_rank.len()]);
            self.mincross(&problem, 2);
        }
    }

    /// Whether every rank of the problem holds at most one unit (one node,
    /// or nodes of one child cluster): then no sweep, exchange or
    /// flat-edge reordering can move anything.
    fn one_unit_per_rank(&self, problem: &Problem) -> bool {
        problem.by_rank.iter().all(|nodes| match nodes.split_first() {
            None => true,
            Some((&first, rest)) => {
                let unit = self.unit(problem.level, first);
                rest.is_empty()
                    || (matches!(unit, Unit::Cluster(_)) && rest.iter().all(|&v| self.unit(problem.level, v) == unit))
            }
        })
    }

    /// The order of the problem's ranks, for tracing: real nodes by id,
    /// virtual nodes as `v` and label nodes as `L` with their edge.
    fn describe(&self, problem: &Problem) -> String {
        let mut text = String::new();
        for r in problem.min_rank..=problem.max_rank {
            text.push_str(&format!("  [{r}]"));
            for &v in &self.ranks[r] {
                let name = match self.kinds[v] {
                    crate::layered::Kind::Real(id) => id.to_string(),
                    crate::layered::Kind::Virtual { edge } => format!("v{edge}"),
                    crate::layered::Kind::Label { edge } => format!("L{edge}"),
                };
                match self.collapsed(v) {
                    Some(c) => text.push_str(&format!(" {name}@{c}")),
                    None => text.push_str(&format!(" {name}")),
                }
            }
            text.push('\n');
        }
        text
    }

    fn problem(&self, members: Vec<usize>, level: usize, root: bool) -> Problem {
        let min_rank = members.iter().map(|&v| self.rank_of[v]).min().unwrap_or(0);
        let max_rank = members.iter().map(|&v| self.rank_of[v]).max().unwrap_or(0);
        let mut by_rank = vec![Vec::new(); max_rank - min_rank + 1];
        for &v in &members {
            by_rank[self.rank_of[v] - min_rank].push(v);
        }
        let nodes_only = by_rank
            .iter()
            .map(|nodes| nodes.iter().all(|&v| self.path[v].len() <= level))
            .collect();
        let own = root;
        let fixed_starts = root.then(|| {
            by_rank
                .iter()
                .map(|nodes| nodes.iter().map(|&v| self.pos[v]).min().unwrap_or(0))
                .collect()
        });
        Problem {
            fixed_starts,
            nodes_only,
            members,
            level,
            min_rank,
            max_rank,
            root,
            by_rank,
            remincross: false,
            own,
            crossings_elsewhere: std::cell::Cell::new(None),
            gap_bases: std::cell::RefCell::new(vec![None; max_rank - min_rank + 2]),
        }
    }

    /// The slice of rank `r` the problem owns: start and length.
    fn slice(&self, problem: &Problem, r: usize) -> (usize, usize) {
        let Some(offset) = r.checked_sub(problem.min_rank) else {
            return (0, 0);
        };
        let Some(nodes) = problem.by_rank.get(offset) else {
            return (0, 0);
        };
        if let Some(starts) = &problem.fixed_starts {
            debug_assert_eq!(
                Some(starts[offset]),
                Some(nodes.iter().map(|&v| self.pos[v]).min().unwrap_or(0)),
                "rank {r}: the problem's slice moved"
            );
            return (starts[offset], nodes.len());
        }
        let start = nodes.iter().map(|&v| self.pos[v]).min().unwrap_or(0);
        (start, nodes.len())
    }

    /// The units of a rank's slice, in order, with their nodes in order.
    fn units(&self, problem: &Problem, r: usize) -> (usize, Vec<(Unit, Members)>) {
        let mut units = Vec::new();
        let start = self.units_into(problem, r, &mut units);
        (start, units)
    }

    /// `units` into a list the caller keeps from call to call (the sweeps
    /// and transposition ask for every rank's units many times); returns
    /// where the slice starts.
    fn units_into(&self, problem: &Problem, r: usize, units: &mut Vec<(Unit, Members)>) -> usize {
        let (start, count) = self.slice(problem, r);
        units.clear();
        units.reserve(count);
        let slice = &self.ranks[r][start..start + count];
        if r >= problem.min_rank && problem.nodes_only.get(r - problem.min_rank) == Some(&true) {
            units.extend(slice.iter().map(|&v| (Unit::Node(v), Members::One(v))));
            return start;
        }
        // Each cluster's block on this rank (index into `units`), reset
        // before returning.
        let mut cluster_block = self.cluster_block.borrow_mut();
        for &v in slice {
            let unit = self.unit(problem.level, v);
            match (units.last_mut(), unit) {
                (Some((last, nodes)), _) if *last == unit => nodes.push(v),
                (_, Unit::Cluster(c)) => {
                    // A cluster seen before (not contiguous) joins its first block.
                    match cluster_block[c] {
                        NO_BLOCK => {
                            cluster_block[c] = units.len();
                            units.push((unit, Members::One(v)));
                        }
                        i => units[i].1.push(v),
                    }
                }
                (_, Unit::Node(_)) => units.push((unit, Members::One(v))),
            }
        }
        for (unit, _) in units.iter() {
            if let Unit::Cluster(c) = unit {
                cluster_block[*c] = NO_BLOCK;
            }
        }
        start
    }

    /// `write` from a list of the nodes in their new order.
    fn write_nodes(&mut self, r: usize, start: usize, nodes: &[usize]) {
        let mut changed = false;
        for (i, &v) in (start..).zip(nodes) {
            changed |= self.ranks[r][i] != v;
            self.ranks[r][i] = v;
            self.pos[v] = i;
        }
        if changed {
            self.moved = true;
            self.rank_changed(r);
            self.refresh_slots(r);
        }
        debug_assert!(self.slots_fresh(r), "rank {r}: slots out of date");
    }

    fn write(&mut self, r: usize, start: usize, units: &[(Unit, Members)]) {
        let mut i = start;
        let mut changed = false;
        for (_, nodes) in units {
            for &v in nodes {
                changed |= self.ranks[r][i] != v;
                self.ranks[r][i] = v;
                self.pos[v] = i;
                i += 1;
            }
        }
        // (Slots follow the order: an unchanged rank keeps them.)
        if changed {
            self.moved = true;
            self.rank_changed(r);
            self.refresh_slots(r);
        }
        debug_assert!(self.slots_fresh(r), "rank {r}: slots out of date");
    }

    /// The initial order: breadth-first from the units without predecessors
    /// (pass 0: downwards, out-edges first; pass 1: upwards from the units
    /// without successors), each unit appended to its rank(s) when reached.
    fn build(&mut self, problem: &Problem, pass: usize) {
        // (The counts kept for ranks it reorders are forgotten as it writes them.)
        let level = problem.level;
        let mut scratch = std::mem::take(&mut self.build_scratch);
        let BuildScratch {
            members,
            unit_of_node,
            unit_of_cluster,
            units: unit_list,
            node_start,
            nodes: unit_nodes,
            span,
            edges,
            edge_start,
            marked,
            order,
            cursor,
            ranked,
        } = &mut scratch;
        members.clear();
        members.extend_from_slice(&problem.members);
        if problem.root {
            members.sort_by_key(|&v| self.root_list_order[pass.min(1)][v]);
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
        // Each member's unit (index into `unit_list`), numbered in the order
        // of the node list; NOT_MEMBER for the nodes outside the problem
        // (both maps are all NOT_MEMBER between calls).
        unit_of_node.resize(self.pos.len(), NOT_MEMBER);
        unit_of_cluster.resize(self.tree.parent.len(), NOT_MEMBER);
        unit_list.clear();
        for &v in members.iter() {
            let unit = self.unit(level, v);
            let index = match unit {
                Unit::Node(_) => NOT_MEMBER,
                Unit::Cluster(c) => unit_of_cluster[c],
            };
            unit_of_node[v] = if index == NOT_MEMBER {
                unit_list.push(unit);
                if let Unit::Cluster(c) = unit {
                    unit_of_cluster[c] = unit_list.len() - 1;
                }
                unit_list.len() - 1
            } else {
                index
            };
        }
        let count = unit_list.len();
        // Each unit's nodes by rank, then place (members of clusters keep
        // their current relative order): `unit_nodes[node_start[u]..node_start[u + 1]]`.
        node_start.clear();
        node_start.resize(count + 1, 0);
        for &v in members.iter() {
            node_start[unit_of_node[v] + 1] += 1;
        }
        for u in 0..count {
            node_start[u + 1] += node_start[u];
        }
        cursor.clear();
        cursor.extend_from_slice(&node_start[..count]);
        unit_nodes.clear();
        unit_nodes.resize(members.len(), 0);
        // (The problem's ranks in order, each in its order, are its nodes
        // by rank and place.)
        for r in problem.min_rank..=problem.max_rank {
            let (start, length) = self.slice(problem, r);
            for &v in &self.ranks[r][start..start + length] {
                let u = unit_of_node[v];
                if u == NOT_MEMBER {
                    // (Cannot happen: a problem's nodes are one slice of each rank.)
                    continue;
                }
                unit_nodes[cursor[u]] = v;
                cursor[u] += 1;
            }
        }
        // A cluster starts a search like dot's skeleton: when nothing enters
        // its top rank (pass 0) or leaves its bottom rank (pass 1). Per
        // unit: (top rank, bottom rank, blocked).
        span.clear();
        span.extend((0..count).map(|u| {
            let nodes = &unit_nodes[node_start[u]..node_start[u + 1]];
            (self.rank_of[nodes[0]], self.rank_of[nodes[nodes.len() - 1]], false)
        }));
        // Each unit's neighbours the search follows (pass 0: down, pass 1:
        // up) in the order of its edge lists (dot's ND_out or ND_in, in the
        // order the edges were made); a cluster's rank by rank from its
        // top, as dot walks its skeleton: (unit, rank, made, neighbour),
        // sorted.
        edges.clear();
        for &v in members.iter() {
            let a = unit_of_node[v];
            for &made in &self.out_edges[self.out_edge_start[v]..self.out_edge_start[v + 1]] {
                let w = self.edge_list[made].1;
                let b = unit_of_node[w];
                if b == NOT_MEMBER || a == b {
                    continue;
                }
                if pass == 0 {
                    edges.push((a, self.rank_of[v], made, b));
                    if self.rank_of[w] == span[b].0 {
                        span[b].2 = true;
                    }
                } else {
                    edges.push((b, self.rank_of[w], made, a));
                    if self.rank_of[v] == span[a].1 {
                        span[a].2 = true;
                    }
                }
            }
        }
        edges.sort_unstable();
        edge_start.clear();
        edge_start.resize(count + 1, 0);
        for &(u, ..) in edges.iter() {
            edge_start[u + 1] += 1;
        }
        for u in 0..count {
            edge_start[u + 1] += edge_start[u];
        }
        // Breadth first; `order` is the queue too (units leave it in the
        // order they enter).
        marked.clear();
        marked.resize(count, false);
        order.clear();
        for start in 0..count {
            if span[start].2 || marked[start] {
                continue;
            }
            marked[start] = true;
            order.push(start);
            let mut head = order.len() - 1;
            while head < order.len() {
                let u = order[head];
                head += 1;
                for &(_, _, _, w) in &edges[edge_start[u]..edge_start[u + 1]] {
                    if !marked[w] {
                        marked[w] = true;
                        order.push(w);
                    }
                }
            }
        }
        // Units only on cycles of zero-length paths (not reached): in input order.
        order.extend((0..count).filter(|&u| !marked[u]));
        // Each rank's nodes: the units in that order (reversed on sideways
        // graphs: dot reverses each rank after building it), each with its
        // nodes on the rank in their order.
        let rank_count = problem.max_rank - problem.min_rank + 1;
        cursor.clear();
        cursor.resize(rank_count + 1, 0);
        for (k, nodes) in problem.by_rank.iter().enumerate() {
            cursor[k + 1] = cursor[k] + nodes.len();
        }
        ranked.clear();
        ranked.resize(members.len(), 0);
        if self.flip && problem.root {
            order.reverse();
        }
        for &u in order.iter() {
            for &v in &unit_nodes[node_start[u]..node_start[u + 1]] {
                let k = self.rank_of[v] - problem.min_rank;
                ranked[cursor[k]] = v;
                cursor[k] += 1;
            }
        }
        // Every map back to NOT_MEMBER.
        for &v in members.iter() {
            unit_of_node[v] = NOT_MEMBER;
        }
        for unit in unit_list.iter() {
            if let Unit::Cluster(c) = unit {
                unit_of_cluster[*c] = NOT_MEMBER;
            }
        }
        let mut from = 0;
        for r in problem.min_rank..=problem.max_rank {
            let (start, length) = self.slice(problem, r);
            self.write_nodes(r, start, &ranked[from..from + length]);
            from += length;
        }
        self.build_scratch = scratch;
        trace(|| format!("built:\n{}", self.describe(problem)));
        if problem.root && self.crossings(problem) > 0 {
            self.transpose(problem, false);
        }
        // Then flat edges are made to point one way (dot: flat_reorder after
        // build_ranks, and after expanding a cluster), once dot has recorded
        // which pairs they pin (its flat_breakcycles, first build only).
        if pass == 0 {
            self.flat_breakcycles(problem);
        }
        for (r, nodes) in (problem.min_rank..=problem.max_rank).zip(&problem.by_rank) {
            // (A rank without flat edges that order their ends stays as it is.)
            if nodes.iter().all(|&v| self.flat_ordering[v].is_empty()) {
                continue;
            }
            let (start, mut units) = self.units(problem, r);
            self.flat_reorder(&mut units, self.flipped(problem));
            self.write(r, start, &units);
        }
    }

    /// Puts the tail of every flat edge left of its head, as dot's
    /// flat_reorder does: the rank is scanned from the right; a unit without
    /// flat edges is taken as it comes, a unit that only starts flat edges
    /// brings, depth first, everything its flat edges reach (post-order);
    /// the list is then reversed. Units on flat cycles that nothing reached
    /// keep their order at the end.
    fn flat_reorder(&self, units: &mut Vec<(Unit, Members)>, flip: bool) {
        let count = units.len();
        let flat = |(unit, nodes): &(Unit, Members)| {
            matches!(unit, Unit::Node(_)) && nodes.iter().any(|&v| !self.flat_ordering[v].is_empty())
        };
        if !units.iter().any(flat) {
            return;
        }
        let mut unit_of: rustc_hash::FxHashMap<usize, usize> = rustc_hash::FxHashMap::default();
        for (i, (_, nodes)) in units.iter().enumerate() {
            for &v in nodes {
                unit_of.insert(v, i);
            }
        }
        let index_of = |v: usize| unit_of.get(&v).copied();
        let mut after: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut indegree = vec![0usize; count];
        let mut any = false;
        for (i, (unit, nodes)) in units.iter().enumerate() {
            if matches!(unit, Unit::Cluster(_)) {
                continue;
            }
            for &v in nodes {
                for &w in &self.flat_ordering[v] {
                    if let Some(j) = index_of(w) {
                        if j != i && matches!(units[j].0, Unit::Node(_)) && !after[i].contains(&j) {
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
        let mut marked = vec![false; count];
        let mut sequence: Vec<usize> = Vec::with_capacity(count);
        // (Sideways graphs: from the left, and not reversed, as dot does.)
        let scan: Vec<usize> = if flip {
            (0..count).collect()
        } else {
            (0..count).rev().collect()
        };
        for i in scan {
            if indegree[i] == 0 && after[i].is_empty() {
                marked[i] = true;
                sequence.push(i);
            } else if !marked[i] && indegree[i] == 0 {
                // Post-order from i through flat out-edges, with a stack.
                marked[i] = true;
                let mut stack: Vec<(usize, usize)> = vec![(i, 0)];
                while let Some(top) = stack.last_mut() {
                    let (u, next) = *top;
                    if let Some(&w) = after[u].get(next) {
                        top.1 += 1;
                        if !marked[w] {
                            marked[w] = true;
                            stack.push((w, 0));
                        }
                    } else {
                        sequence.push(u);
                        stack.pop();
                    }
                }
            }
        }
        if !flip {
            sequence.reverse();
        }
        sequence.extend((0..count).filter(|&i| !marked[i]));
        let mut taken: Vec<Option<(Unit, Members)>> = units.drain(..).map(Some).collect();
        for i in sequence {
            if let Some(unit) = taken[i].take() {
                units.push(unit);
            }
        }
    }

    /// Whether the problem runs sideways as dot sees it: dot marks only the
    /// root graph as flipped, so a cluster's own passes order it as if it
    /// ran top to bottom.
    fn flipped(&self, problem: &Problem) -> bool {
        self.flip && (problem.root || problem.remincross)
    }

    /// Whether two neighbouring units may not trade places: a flat edge
    /// between two nodes (dot keeps no order for flat edges that reach into
    /// a collapsed cluster: its skeleton is no node of the problem), or (in
    /// the final pass) different innermost clusters.
    #[inline]
    fn pinned(&self, problem: &Problem, a: &(Unit, Members), b: &(Unit, Members)) -> bool {
        let (Unit::Node(v), Unit::Node(w)) = (a.0, b.0) else {
            // (The final pass has no cluster units; a cluster's is pinned
            // by nothing but the final pass.)
            if problem.remincross {
                let cluster = self.innermost[a.1[0]];
                return a.1.iter().chain(b.1.iter()).any(|&v| self.innermost[v] != cluster);
            }
            return false;
        };
        // (A node unit's only node is itself.)
        if problem.remincross && self.innermost[v] != self.innermost[w] {
            return true;
        }
        let Some(matrix) = &self.flat_matrix[self.rank_of[v]] else {
            return false;
        };
        // Sideways, flat edges run right to left (dot swaps the pair).
        let (left, right) = if self.flipped(problem) { (w, v) } else { (v, w) };
        matrix
            .binary_search(&(self.flat_index[left], self.flat_index[right]))
            .is_ok()
    }

    /// Whether `pinned` can hold for any pair of rank `r` (in the final
    /// pass, or with a table of flat edges' pairs on the rank).
    fn may_pin(&self, problem: &Problem, r: usize) -> bool {
        problem.remincross || self.flat_matrix.get(r).is_some_and(|m| m.is_some())
    }

    /// The crossings between ranks `g` and `g + 1` as the problem counts
    /// them (kept until either rank changes).
    fn gap_crossings(&self, problem: &Problem, g: usize) -> usize {
        self.crossings_between(problem, g..=g)
    }

    /// dot's flat_breakcycles: on each rank of the problem that has a node
    /// with flat edges, a new table of the pairs (by place in the problem's
    /// slice, then) that flat edges keep in order, filled depth first (an
    /// edge closing a cycle pins its ends the other way). Every node of the
    /// slice takes its place as its index. dot keeps each table until it
    /// makes a new one for that rank, indices and all, so a later component
    /// or cluster without flat edges is still pinned by an earlier one's
    /// table at its nodes' places; so is this engine.
    fn flat_breakcycles(&mut self, problem: &Problem) {
        // (New tables pin other pairs: what transposition knew is void.)
        self.transpose_stable.borrow_mut().fill(TRANSPOSE_UNKNOWN);
        // (The sweeps' list of units, borrowed: every build makes these tables.)
        let mut units = std::mem::take(&mut self.sweep_scratch.0);
        for r in problem.min_rank..=problem.max_rank {
            self.units_into(problem, r, &mut units);
            let mut has_flat = false;
            for (i, (unit, _)) in units.iter().enumerate() {
                if let Unit::Node(v) = unit {
                    self.flat_index[*v] = i;
                    // dot's flat edges of v at this level: not those into a
                    // collapsed cluster (dropped until it expands), and at
                    // the top level none into any cluster.
                    has_flat |= self.flat_out[*v].iter().any(|&w| {
                        if problem.root {
                            self.path[w].is_empty()
                        } else {
                            self.path[w].len() <= problem.level || self.unit(problem.level, w) == Unit::Node(w)
                        }
                    });
                }
            }
            if !has_flat {
                continue;
            }
            let slice: Vec<usize> = units
                .iter()
                .filter_map(|(unit, _)| match unit {
                    Unit::Node(v) => Some(*v),
                    Unit::Cluster(_) => None,
                })
                .collect();
            let places: rustc_hash::FxHashMap<usize, usize> = slice.iter().enumerate().map(|(k, &v)| (v, k)).collect();
            let mut matrix: Vec<(usize, usize)> = Vec::new();
            let mut marked = vec![false; slice.len()];
            let mut on_stack = vec![false; slice.len()];
            for start in 0..slice.len() {
                if marked[start] {
                    continue;
                }
                marked[start] = true;
                on_stack[start] = true;
                let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
                while let Some(top) = stack.last_mut() {
                    let (k, next) = *top;
                    let v = slice[k];
                    let Some(&w) = self.flat_ordering[v].get(next) else {
                        on_stack[k] = false;
                        stack.pop();
                        continue;
                    };
                    top.1 += 1;
                    let Some(&j) = places.get(&w) else { continue };
                    if on_stack[j] {
                        matrix.push((self.flat_index[w], self.flat_index[v]));
                    } else {
                        matrix.push((self.flat_index[v], self.flat_index[w]));
                        if !marked[j] {
                            marked[j] = true;
                            on_stack[j] = true;
                            stack.push((j, 0));
                        }
                    }
                }
            }
            matrix.sort_unstable();
            matrix.dedup();
            self.flat_matrix[r] = Some(matrix);
        }
        self.sweep_scratch.0 = units;
    }

    /// dot's mincross for one problem, from `start_pass` (0: build twice, then
    /// iterate; 2: iterate from the current order).
    fn mincross(&mut self, problem: &Problem, start_pass: usize) {
        // A component counts its own edges only: its counts are its own.
        // The clusters' and the final pass count every edge, and keep the
        // counts of the gaps the previous problem left as they were.
        if problem.own {
            self.forget_crossings();
        }
        // (What transposition knew was of the previous problem's units.)
        self.transpose_stable.borrow_mut().fill(TRANSPOSE_UNKNOWN);
        self.remember_crossings_elsewhere(problem);
        let mut best_cross = usize::MAX;
        let mut cur_cross = usize::MAX;
        let mut best = self.snapshot(problem);
        for pass in start_pass..=2 {
            let max_this_pass;
            if pass <= 1 {
                max_this_pass = self.scaled(BUILD_PASS_ITERATIONS);
                if problem.root {
                    self.build(problem, pass);
                }
                trace(|| self.describe(problem));
                cur_cross = self.crossings(problem);
                if cur_cross <= best_cross {
                    self.snapshot_into(problem, &mut best);
                    best_cross = cur_cross;
                }
            } else {
                max_this_pass = self.scaled(MAX_ITERATIONS);
                if best_cross == usize::MAX {
                    best_cross = self.crossings(problem);
                    self.snapshot_into(problem, &mut best);
                }
                if cur_cross > best_cross {
                    self.restore(problem, &best);
                }
                cur_cross = best_cross;
            }
            let mut trying = 0;
            // Sweeps in a row that moved nothing: a sweep depends only on
            // the order and its iteration's kind (down or up, equal medians
            // exchanged or not: four kinds in turn), so after four, every
            // further sweep would move nothing either, and the count and
            // best order would stay as they are until dot's loop ends.
            let mut unmoved = 0;
            for iteration in 0..max_this_pass {
                trace(|| {
                    format!("mincross: pass {pass} iter {iteration} trying {trying} cur_cross {cur_cross} best_cross {best_cross}")
                });
                if trying >= MIN_QUIT || cur_cross == 0 || unmoved >= 4 {
                    break;
                }
                trying += 1;
                self.moved = false;
                self.step(problem, iteration);
                unmoved = if self.moved { 0 } else { unmoved + 1 };
                cur_cross = self.crossings(problem);
                if cur_cross <= best_cross {
                    self.snapshot_into(problem, &mut best);
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
        let mut seen_before: rustc_hash::FxHashSet<(usize, usize)> = rustc_hash::FxHashSet::default();
        let mut consistent = true;
        for r in problem.min_rank..=problem.max_rank {
            let (_, units) = self.units(problem, r);
            let order: Vec<usize> = units
                .iter()
                .filter_map(|(u, _)| if let Unit::Cluster(c) = u { Some(*c) } else { None })
                .collect();
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
            let slots: Vec<usize> = (0..units.len())
                .filter(|&i| matches!(units[i].0, Unit::Cluster(_)))
                .collect();
            let mut blocks: Vec<(Unit, Members)> = slots.iter().map(|&i| units[i].clone()).collect();
            blocks.sort_by(|a, b| {
                let (Unit::Cluster(x), Unit::Cluster(y)) = (a.0, b.0) else {
                    return std::cmp::Ordering::Equal;
                };
                key(x).total_cmp(&key(y)).then(x.cmp(&y))
            });
            for (slot, block) in slots.into_iter().zip(blocks) {
                units[slot] = block;
            }
            self.write(r, start, &units);
        }
    }

    fn snapshot(&self, problem: &Problem) -> Vec<(usize, Vec<usize>)> {
        let mut saved = Vec::new();
        self.snapshot_into(problem, &mut saved);
        saved
    }

    /// `snapshot` into `saved`, reusing its lists (mincross keeps its best
    /// order after most sweeps).
    fn snapshot_into(&self, problem: &Problem, saved: &mut Vec<(usize, Vec<usize>)>) {
        saved.resize_with(problem.max_rank - problem.min_rank + 1, Default::default);
        for (r, (start, nodes)) in (problem.min_rank..=problem.max_rank).zip(saved.iter_mut()) {
            let (first, count) = self.slice(problem, r);
            *start = first;
            nodes.clear();
            nodes.extend_from_slice(&self.ranks[r][first..first + count]);
        }
    }

    fn restore(&mut self, problem: &Problem, saved: &[(usize, Vec<usize>)]) {
        for (offset, (start, nodes)) in saved.iter().enumerate() {
            let r = problem.min_rank + offset;
            let mut changed = false;
            for (i, &v) in nodes.iter().enumerate() {
                changed |= self.ranks[r][start + i] != v;
                self.ranks[r][start + i] = v;
                self.pos[v] = start + i;
            }
            if changed {
                self.moved = true;
                self.rank_changed(r);
                self.refresh_slots(r);
            }
            debug_assert!(self.slots_fresh(r), "rank {r}: slots out of date");
        }
    }

    /// One sweep (dot's mincross_step): down on even iterations, up on odd;
    /// equal medians exchange on the first two of every four.
    fn step(&mut self, problem: &Problem, iteration: usize) {
        let reverse = iteration % 4 < 2;
        // A cluster's end ranks follow the ranks outside it too (dot: first--).
        let last_rank = self.ranks.len().saturating_sub(1);
        // The ranks swept, low..=high, upwards on odd iterations (none when
        // high < low).
        let upwards = iteration % 2 == 1;
        let (low, high) = if upwards {
            let first = if problem.max_rank < last_rank {
                problem.max_rank
            } else {
                problem.max_rank.saturating_sub(1)
            };
            if problem.max_rank == 0 && last_rank == 0 {
                (1, 0)
            } else {
                (problem.min_rank, first)
            }
        } else {
            let first = if problem.min_rank > 0 {
                problem.min_rank
            } else {
                problem.min_rank + 1
            };
            (first, problem.max_rank)
        };
        let count = (high + 1).saturating_sub(low);
        let ranks = (0..count).map(|i| if upwards { high - i } else { low + i });
        let downward = iteration.is_multiple_of(2);
        let (mut units, mut medians, mut scratch) = std::mem::take(&mut self.sweep_scratch);
        for r in ranks {
            let start = self.units_into(problem, r, &mut units);
            medians.clear();
            for (unit, nodes) in &units {
                medians.push(self.median(*unit, nodes, r, downward, &mut scratch));
            }
            let has_fixed = self.flat_medians(&units, &mut medians);
            self.reorder(problem, &mut units, &mut medians, reverse, has_fixed, &mut scratch.2);
            self.write(r, start, &units);
        }
        self.sweep_scratch = (units, medians, scratch);
        self.transpose(problem, !reverse);
    }

    /// The weighted median of a unit's neighbours on the rank before it in
    /// the sweep (dot's medians, on its integer scale: 256 per place), or
    /// −1 when it has none there. A cluster counts its edges to the outside
    /// and its own block on that rank (dot's skeleton edge).
    /// (`scratch`: two lists for the work, reused from call to call.)
    fn median(
        &self,
        unit: Unit,
        nodes: &[usize],
        r: usize,
        downward: bool,
        scratch: &mut (Vec<i64>, Vec<Unit>, ReorderScratch),
    ) -> f64 {
        const SCALE: i64 = 256;
        let val = |w: usize| SCALE * self.slot[w] as i64;
        let (list, seen, _) = scratch;
        list.clear();
        seen.clear();
        let inside = |w: usize| matches!(unit, Unit::Cluster(c) if self.path[w].contains(&c));
        // Edges between the same two ends of dot's graph (a node, or a
        // collapsed cluster's skeleton) are one merged edge there, so count
        // once.
        for &v in nodes {
            let neighbours = if downward {
                &self.up_crossing[v]
            } else {
                &self.down_crossing[v]
            };
            for &(w, _) in neighbours {
                if !inside(w) {
                    let end = self.collapsed(w).map_or(Unit::Node(w), Unit::Cluster);
                    let merged = matches!(unit, Unit::Cluster(_)) || matches!(end, Unit::Cluster(_));
                    if merged {
                        if seen.contains(&end) {
                            continue;
                        }
                        seen.push(end);
                    }
                    list.push(val(w));
                }
            }
        }
        if let Unit::Cluster(c) = unit {
            let other = if downward { r.checked_sub(1) } else { Some(r + 1) };
            if let Some(&w) = other.and_then(|o| self.cluster_member.get(&(c, o))) {
                list.push(val(w));
            }
        }
        let m = list.len();
        let value = match m {
            0 => return -1.0,
            1 => list[0],
            2 => (list[0] + list[1]) / 2,
            _ => {
                list.sort_unstable();
                if m % 2 == 1 {
                    list[m / 2]
                } else {
                    let (lm, rm) = (m / 2 - 1, m / 2);
                    let right_span = list[m - 1] - list[rm];
                    let left_span = list[lm] - list[0];
                    if left_span == right_span {
                        (list[lm] + list[rm]) / 2
                    } else {
                        let w = list[lm] as f64 * right_span as f64 + list[rm] as f64 * left_span as f64;
                        (w / (left_span + right_span) as f64) as i64
                    }
                }
            }
        };
        value as f64
    }

    /// dot's flat_mval: a node with no edges to other ranks but flat ones
    /// takes its median from its flat neighbours, just right of the
    /// rightmost tail of its flat in-edges or else just left of the leftmost
    /// head of its flat out-edges; a node left without one is fixed (and
    /// the sweep then compares all of the rank each round). Returns whether
    /// one is.
    fn flat_medians(&self, units: &[(Unit, Members)], medians: &mut [f64]) -> bool {
        let mut has_fixed = false;
        for i in 0..units.len() {
            let v = match units[i].0 {
                Unit::Node(v) => v,
                Unit::Cluster(c) => {
                    // A collapsed cluster is dot's skeleton node: fixed when
                    // it has no edges at all (no ranks above or below, and no
                    // edges out of the cluster), as it has no flat edges.
                    let r = self.rank_of[units[i].1[0]];
                    let skeleton = [r.checked_sub(1), Some(r + 1)]
                        .into_iter()
                        .flatten()
                        .any(|o| self.cluster_member.contains_key(&(c, o)));
                    let outside = units[i].1.iter().any(|&v| {
                        self.up[v]
                            .iter()
                            .chain(&self.down[v])
                            .any(|&w| !self.path[w].contains(&c))
                    });
                    has_fixed |= !skeleton && !outside;
                    continue;
                }
            };
            if !self.up[v].is_empty() || !self.down[v].is_empty() {
                continue;
            }
            let median_of = |w: usize, medians: &[f64]| {
                units
                    .iter()
                    .position(|(_, nodes)| nodes.contains(&w))
                    .map_or(-1.0, |k| medians[k])
            };
            let mut fixed = true;
            if let Some(&tail) = self.flat_in[v].iter().max_by_key(|&&w| self.pos[w]) {
                let m = median_of(tail, medians);
                if m >= 0.0 {
                    medians[i] = m + 1.0;
                    fixed = false;
                }
            } else if let Some(&head) = self.flat_out[v].iter().min_by_key(|&&w| self.pos[w]) {
                let m = median_of(head, medians);
                if m > 0.0 {
                    medians[i] = m - 1.0;
                    fixed = false;
                }
            }
            has_fixed |= fixed;
        }
        has_fixed
    }

    /// dot's reorder: units with a median move past each other into median
    /// order; units without one stay where they are.
    fn reorder(
        &self,
        problem: &Problem,
        units: &mut [(Unit, Members)],
        medians: &mut [f64],
        reverse: bool,
        has_fixed: bool,
        scratch: &mut ReorderScratch,
    ) {
        let n = units.len();
        let may_pin = units
            .first()
            .is_some_and(|(_, nodes)| self.may_pin(problem, self.rank_of[nodes[0]]));
        if n > BUBBLE_LIMIT {
            if problem.remincross {
                // Sorting would move nodes across cluster borders; transposition
                // alone improves long ranks in the final pass.
                return;
            }
            // Sort the movable units by median among the fixed ones.
            let slots: Vec<usize> = (0..n).filter(|&i| medians[i] >= 0.0).collect();
            let mut movable: Vec<(f64, usize)> = slots.iter().map(|&i| (medians[i], i)).collect();
            movable.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let original: Vec<(Unit, Members)> = units.to_vec();
            for (slot, (m, from)) in slots.iter().zip(movable) {
                units[*slot] = original[from].clone();
                medians[*slot] = m;
            }
            return;
        }
        // Units trade places only with units that have a median too, so the
        // places holding one stay the same from pass to pass: each pass
        // starts at the first, and `next_median[i]` (the first place at or
        // after `i` holding one, `n` when none) holds for every pass.
        if !may_pin && reorder_nodes(units, medians, reverse, has_fixed, scratch) {
            return;
        }
        let next_median = &mut scratch.next_median;
        next_median.clear();
        next_median.resize(n + 1, n);
        for i in (0..n).rev() {
            next_median[i] = if medians[i] >= 0.0 { i } else { next_median[i + 1] };
        }
        let first_median = next_median[0];
        if first_median == n {
            return;
        }
        // `pinned` for this rank, with the rank's table looked up once.
        let matrix = if may_pin {
            self.flat_matrix[self.rank_of[units[0].1[0]]].as_deref()
        } else {
            None
        };
        let flipped = self.flipped(problem);
        let remincross = problem.remincross;
        let pinned = |a: &(Unit, Members), b: &(Unit, Members)| -> bool {
            let (Unit::Node(v), Unit::Node(w)) = (a.0, b.0) else {
                return self.pinned(problem, a, b);
            };
            if remincross && self.innermost[v] != self.innermost[w] {
                return true;
            }
            let Some(matrix) = matrix else {
                return false;
            };
            let (left, right) = if flipped { (w, v) } else { (v, w) };
            matrix
                .binary_search(&(self.flat_index[left], self.flat_index[right]))
                .is_ok()
        };
        let mut end = n;
        for _ in 0..n {
            // A pass that exchanges nothing leaves nothing for the next
            // ones, which compare the same pairs or fewer: stop there.
            let mut exchanged = false;
            let mut left = first_median;
            while left < end {
                left = next_median[left];
                if left >= end {
                    break;
                }
                let mut right = left + 1;
                let mut must_stay = false;
                // dot looks past units without a median for the next one to
                // compare, but once it has passed a collapsed cluster it skips
                // every further one (its `sawclust`); in the final pass every
                // node counts as in a cluster (the root is one then).
                let mut passed_cluster = false;
                while right < end {
                    let in_cluster = remincross || matches!(units[right].0, Unit::Cluster(_));
                    if passed_cluster && in_cluster {
                        right += 1;
                        continue;
                    }
                    if may_pin && pinned(&units[left], &units[right]) {
                        must_stay = true;
                        break;
                    }
                    if medians[right] >= 0.0 {
                        break;
                    }
                    passed_cluster |= in_cluster;
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
                        exchanged = true;
                    }
                }
                left = right;
            }
            if !exchanged {
                break;
            }
            if !reverse && !has_fixed {
                end -= 1;
            }
        }
    }

    /// Exchanges neighbouring units while that removes crossings (dot's
    /// transpose; `reverse`: equal counts exchange too).
    fn transpose(&mut self, problem: &Problem, reverse: bool) {
        let span = problem.max_rank - problem.min_rank + 1;
        // A rank this transposition is known to leave as it is would be
        // looked at for nothing (and then again only if it or a neighbour
        // changes).
        let stable_enough = if reverse {
            TRANSPOSE_STABLE_ALWAYS
        } else {
            TRANSPOSE_STABLE_STRICT
        };
        let TransposeScratch {
            mut candidate,
            mut lists,
            mut buffer,
            mut starts,
        } = std::mem::take(&mut self.transpose_scratch);
        candidate.clear();
        candidate.extend(
            self.transpose_stable.borrow()[problem.min_rank..=problem.max_rank]
                .iter()
                .map(|&known| known < stable_enough),
        );
        // (Each rank's in turn, reused.)
        lists.clear();
        buffer.clear();
        // Each rank's units and where they start, made when the rank is
        // first looked at: only this loop reorders ranks meanwhile, and it
        // exchanges the units in place too.
        let mut rank_units = std::mem::take(&mut self.transpose_units);
        if rank_units.len() < span {
            rank_units.resize_with(span, Default::default);
        }
        starts.clear();
        starts.resize(span, None);
        // Debug builds look at the ranks known to stay too, until they or a
        // neighbour change, and check that they do not move.
        #[cfg(debug_assertions)]
        let mut unchecked: Vec<bool> = candidate.iter().map(|&c| !c).collect();
        for _ in 0..self.scaled(MAX_TRANSPOSE_ROUNDS) {
            let mut delta: i64 = 0;
            for offset in 0..span {
                #[cfg(debug_assertions)]
                let checking = std::mem::take(&mut unchecked[offset]);
                #[cfg(not(debug_assertions))]
                let checking = false;
                if !candidate[offset] && !checking {
                    continue;
                }
                candidate[offset] = false;
                let r = problem.min_rank + offset;
                // A cluster's own pass does not look below its bottom rank
                // (dot's rank list of a cluster is empty there).
                let below = problem.root || problem.remincross || r < problem.max_rank;
                // An exchange changes only crossings between the two units'
                // edges, which the gaps' counts include: with none above and
                // below the rank, no exchange can gain. (The counts are kept
                // for the crossing count that follows the sweep.)
                let above_clear = r == 0 || self.gap_crossings(problem, r - 1) == 0;
                let below_clear = !below || r + 1 >= self.ranks.len() || self.gap_crossings(problem, r) == 0;
                if above_clear && below_clear {
                    continue;
                }
                let units = &mut rank_units[offset];
                let start = match starts[offset] {
                    Some(start) => start,
                    None => {
                        let start = self.units_into(problem, r, units);
                        starts[offset] = Some(start);
                        start
                    }
                };
                // Each unit's edges up and down, by place: they stay put while
                // this rank changes.
                // (Made when first needed: in the final pass most pairs are pinned.)
                lists.clear();
                lists.resize(units.len(), None);
                buffer.clear();
                let mut changed = false;
                // `from`: where units[i] starts on the rank.
                let mut from = start;
                let may_pin = self.may_pin(problem, r);
                for i in 0..units.len().saturating_sub(1) {
                    if !(may_pin && self.pinned(problem, &units[i], &units[i + 1])) {
                        let (sides0, sides1) = match (units[i].0, units[i + 1].0) {
                            (Unit::Node(v), Unit::Node(w)) if self.few_edge_pairs(v, w, below) => {
                                self.node_pair_crossings(v, w, below)
                            }
                            _ => {
                                for k in [i, i + 1] {
                                    if lists[k].is_none() {
                                        lists[k] = Some(self.edge_lists(&units[k], r, below, &mut buffer));
                                    }
                                }
                                match (&lists[i], &lists[i + 1]) {
                                    (Some(left), Some(right)) => (
                                        pair_crossings_by_side(&buffer, left, right),
                                        pair_crossings_by_side(&buffer, right, left),
                                    ),
                                    _ => ([0; 2], [0; 2]),
                                }
                            }
                        };
                        let (c0, c1) = (sides0[0] + sides0[1], sides1[0] + sides1[1]);
                        if c1 < c0 || (c0 > 0 && reverse && c1 == c0) {
                            // Each unit is one place (a node, or a collapsed
                            // cluster): the two trade places and positions.
                            let first_slot = self.slot[units[i].1[0]];
                            units.swap(i, i + 1);
                            lists.swap(i, i + 1);
                            let mut at = from;
                            for (k, (_, nodes)) in units[i..i + 2].iter().enumerate() {
                                for &v in nodes {
                                    self.ranks[r][at] = v;
                                    self.pos[v] = at;
                                    self.slot[v] = first_slot + k;
                                    at += 1;
                                }
                            }
                            // The exchange changes only the crossings between
                            // the two units' edges: the counts kept for the
                            // gaps above and below follow by the difference
                            // (dot's transpose keeps its counts so too).
                            // Below a cluster's bottom rank its own pass did
                            // not look: that count is made again.
                            self.rank_exchanged(r, [sides0[0], sides0[1]], [sides1[0], sides1[1]], below);
                            debug_assert!(
                                self.kept_counts_fresh(problem, r),
                                "rank {r}: a kept crossing count is wrong"
                            );
                            delta += c0 as i64 - c1 as i64;
                            changed = true;
                            self.moved = true;
                        }
                    }
                    from += units[i].1.len();
                }
                if changed {
                    assert!(!checking, "rank {r}: transposition moved a rank known to stay");
                    self.transposition_unknown(r);
                    let near = offset.saturating_sub(1)..(offset + 2).min(span);
                    candidate[near.clone()].fill(true);
                    #[cfg(debug_assertions)]
                    unchecked[near].fill(false);
                }
            }
            if delta < 1 {
                break;
            }
        }
        // A rank no longer a candidate was looked at without an exchange
        // (or skipped as known), and nothing near it changed since.
        let mut stable = self.transpose_stable.borrow_mut();
        for (offset, &looked_again) in candidate.iter().enumerate() {
            let known = &mut stable[problem.min_rank + offset];
            *known = if looked_again {
                TRANSPOSE_UNKNOWN
            } else {
                (*known).max(stable_enough)
            };
        }
        drop(stable);
        self.transpose_units = rank_units;
        self.transpose_scratch = TransposeScratch {
            candidate,
            lists,
            buffer,
            starts,
        };
    }

    /// Whether two nodes have so few edges on each side that comparing
    /// every pair is cheaper than sorted lists (most are virtual nodes, one
    /// edge each way).
    fn few_edge_pairs(&self, v: usize, w: usize, below: bool) -> bool {
        const LIMIT: usize = 16;
        self.up_crossing[v].len() * self.up_crossing[w].len() <= LIMIT
            && (!below || self.down_crossing[v].len() * self.down_crossing[w].len() <= LIMIT)
    }

    /// The weighted crossings between the edges of nodes `v` and `w` with
    /// `v` left of `w`, and with `w` left of `v` (each above the rank,
    /// `[0]`, and below it, `[1]`, which is not looked at when `below` is
    /// false): every pair of edges on a side compared (dot's in_cross and
    /// out_cross). Edges ending at one place cross neither way.
    fn node_pair_crossings(&self, v: usize, w: usize, below: bool) -> ([usize; 2], [usize; 2]) {
        let (mut v_left, mut w_left) = ([0; 2], [0; 2]);
        for (side, adjacency) in [&self.up_crossing, &self.down_crossing].into_iter().enumerate() {
            if side == 1 && !below {
                break;
            }
            for &(x, weight_x) in &adjacency[v] {
                let place_x = self.slot[x];
                for &(y, weight_y) in &adjacency[w] {
                    let place_y = self.slot[y];
                    if place_x > place_y {
                        v_left[side] += weight_x * weight_y;
                    } else if place_x < place_y {
                        w_left[side] += weight_x * weight_y;
                    }
                }
            }
        }
        (v_left, w_left)
    }

    /// A unit's edges up and down as (place, weight), sorted by place
    /// (none down when `below` is false), appended to `buffer`.
    fn edge_lists(&self, unit: &(Unit, Members), r: usize, below: bool, buffer: &mut Vec<(usize, usize)>) -> EdgeLists {
        let start = buffer.len();
        self.unit_edges(unit.0, &unit.1, r, true, buffer);
        let middle = buffer.len();
        if below {
            self.unit_edges(unit.0, &unit.1, r, false, buffer);
        }
        let end = buffer.len();
        buffer[start..middle].sort_unstable();
        buffer[middle..end].sort_unstable();
        [start..middle, middle..end]
    }

    /// A unit's edges to the rank above (`up`) or below, as (place, weight),
    /// appended to `list`: a collapsed cluster has its edges to the outside
    /// and, like dot's skeleton, one heavy edge to its own block (crossing
    /// it costs 1,000).
    fn unit_edges(&self, unit: Unit, nodes: &[usize], r: usize, up: bool, list: &mut Vec<(usize, usize)>) {
        let adjacency = if up { &self.up_crossing } else { &self.down_crossing };
        match unit {
            Unit::Node(v) => list.extend(adjacency[v].iter().map(|&(w, weight)| (self.slot[w], weight))),
            Unit::Cluster(c) => {
                for &v in nodes {
                    for &(w, weight) in &adjacency[v] {
                        if !self.path[w].contains(&c) {
                            list.push((self.slot[w], weight));
                        }
                    }
                }
                let other = if up { r.checked_sub(1) } else { Some(r + 1) };
                if let Some(&w) = other.and_then(|o| self.cluster_member.get(&(c, o))) {
                    list.push((self.slot[w], SKELETON_CROSSING));
                }
            }
        }
    }

    /// All crossings between neighbouring ranks (counted by sorting: each
    /// edge crosses the earlier edges whose lower end lies right of its own).
    /// (Only between the ranks the problem can change: the others are constant.)
    fn crossings(&self, problem: &Problem) -> usize {
        if problem.own {
            self.crossings_between(problem, problem.min_rank..=problem.max_rank)
        } else {
            self.crossings_between(problem, problem.min_rank.saturating_sub(1)..=problem.max_rank)
                + problem.crossings_elsewhere.get().unwrap_or(0)
        }
    }

    /// dot counts a cluster's crossings over the whole graph, but only the
    /// ranks the cluster spans (and the gaps to its neighbours) change while
    /// it is ordered: the rest is counted once per problem.
    fn remember_crossings_elsewhere(&self, problem: &Problem) {
        if problem.own {
            return;
        }
        let last = self.ranks.len().saturating_sub(1);
        let before = self.crossings_between(problem, 0..=problem.min_rank.saturating_sub(2));
        let before = if problem.min_rank >= 2 { before } else { 0 };
        let after = if problem.max_rank < last {
            self.crossings_between(problem, problem.max_rank + 1..=last)
        } else {
            0
        };
        problem.crossings_elsewhere.set(Some(before + after));
    }

    /// Crossings between rank r and r + 1 for each r of `ranks`.
    fn crossings_between(&self, problem: &Problem, ranks: std::ops::RangeInclusive<usize>) -> usize {
        #[cfg(debug_assertions)]
        for r in ranks.clone() {
            let kept = self.rank_crossings.borrow().get(r).copied().flatten();
            if let Some(kept) = kept {
                let fresh = self.count_gap_afresh(problem, r);
                assert_eq!(kept, fresh, "gap below rank {r}: the kept crossing count is stale");
            }
        }
        let rank_count = self.ranks.len();
        let mut total = 0;
        let mut scratch = self.crossing_scratch.borrow_mut();
        for r in ranks {
            if r + 1 >= rank_count {
                continue;
            }
            if let Some(known) = self.rank_crossings.borrow().get(r).copied().flatten() {
                total += known;
                continue;
            }
            let count = match self.slice_gap(problem, r) {
                Some(gap) => {
                    // Only the edges with an end in the cluster's slices
                    // change their crossings while it is ordered (the
                    // others keep their ends' order, and the slices lie
                    // between the same outside places): the rest is
                    // counted once per problem.
                    let moving = self.count_gap(problem, r, Some(gap), &mut scratch);
                    let mut bases = problem.gap_bases.borrow_mut();
                    let offset = r + 1 - problem.min_rank;
                    match bases[offset] {
                        Some(base) => {
                            debug_assert_eq!(
                                base + moving,
                                self.count_gap(problem, r, None, &mut scratch),
                                "gap below rank {r}: the constant part of the count changed"
                            );
                            base + moving
                        }
                        None => {
                            let full = self.count_gap(problem, r, None, &mut scratch);
                            bases[offset] = Some(full - moving);
                            full
                        }
                    }
                }
                None => self.count_gap(problem, r, None, &mut scratch),
            };
            self.remember_rank_crossings(r, count);
            total += count;
        }
        total
    }

    /// For a cluster's problem and a gap its order can change (from the
    /// gap above its top rank to the gap below its bottom rank): the
    /// slices of the problem on the ranks above and below the gap (start
    /// and length; empty outside the problem's ranks), when each is one
    /// block.
    fn slice_gap(&self, problem: &Problem, r: usize) -> Option<[(usize, usize); 2]> {
        if problem.own || problem.remincross || r + 1 < problem.min_rank || r > problem.max_rank {
            return None;
        }
        let upper = if r >= problem.min_rank {
            self.block(problem, r)?
        } else {
            (0, 0)
        };
        let lower = if r < problem.max_rank {
            self.block(problem, r + 1)?
        } else {
            (0, 0)
        };
        Some([upper, lower])
    }

    /// The problem's slice of rank `r` (start and length) when its nodes
    /// lie side by side there (a cluster not yet built may be split).
    fn block(&self, problem: &Problem, r: usize) -> Option<(usize, usize)> {
        let nodes = problem.by_rank.get(r - problem.min_rank)?;
        let (mut first, mut last) = (usize::MAX, 0);
        for &v in nodes {
            first = first.min(self.pos[v]);
            last = last.max(self.pos[v]);
        }
        match nodes.len() {
            0 => Some((0, 0)),
            count if last - first + 1 == count => Some((first, count)),
            _ => None,
        }
    }

    /// The weighted crossings between ranks `r` and `r + 1`: of every edge
    /// the problem counts (`moving` None), or only among the edges with an
    /// end in the given slices of the two ranks.
    fn count_gap(
        &self,
        problem: &Problem,
        r: usize,
        moving: Option<[(usize, usize); 2]>,
        scratch: &mut CrossingScratch,
    ) -> usize {
        let CrossingScratch {
            pairs,
            sorted,
            upper,
            tree,
            counts,
        } = scratch;
        // A component counts only its own edges, and its nodes are one
        // slice of each rank (components lie side by side): it looks at
        // that slice alone, not at every component's nodes and edges.
        let nodes_counted = |r: usize| -> &[usize] {
            if problem.own {
                let (start, count) = self.slice(problem, r);
                &self.ranks[r][start..start + count]
            } else {
                &self.ranks[r]
            }
        };
        pairs.clear();
        let mut add = |a: usize, b: usize, weight: usize| {
            let (ca, cb) = (self.collapsed(a), self.collapsed(b));
            // Inside a collapsed cluster: its skeleton stands for it.
            if ca.is_none() || ca != cb {
                pairs.push((self.slot[a], self.slot[b], weight));
            }
        };
        let (upper_nodes, lower_nodes) = match moving {
            Some([(upper_start, upper_count), (lower_start, lower_count)]) => {
                let upper_nodes = &self.ranks[r][upper_start..upper_start + upper_count];
                let lower_nodes = &self.ranks[r + 1][lower_start..lower_start + lower_count];
                for &a in upper_nodes {
                    for &(b, weight) in &self.down_crossing[a] {
                        add(a, b, weight);
                    }
                }
                let in_upper = |a: usize| (upper_start..upper_start + upper_count).contains(&self.pos[a]);
                for &b in lower_nodes {
                    for &(a, weight) in &self.up_crossing[b] {
                        if !in_upper(a) {
                            add(a, b, weight);
                        }
                    }
                }
                (upper_nodes, lower_nodes)
            }
            None => {
                let upper_nodes = nodes_counted(r);
                if problem.own {
                    for &a in upper_nodes {
                        for &(b, weight) in &self.down_crossing[a] {
                            add(a, b, weight);
                        }
                    }
                } else {
                    for &(a, b, weight) in &self.edges_by_rank[r] {
                        add(a, b, weight);
                    }
                }
                (upper_nodes, nodes_counted(r + 1))
            }
        };
        // Skeleton edges of the clusters collapsed on both ranks.
        upper.clear();
        for &v in upper_nodes {
            if let Some(c) = self.collapsed(v) {
                if upper.last().is_none_or(|&(last, _)| last != c) {
                    upper.push((c, self.slot[v]));
                }
            }
        }
        if !upper.is_empty() {
            for &w in lower_nodes {
                if let Some(c) = self.collapsed(w) {
                    if let Some(i) = upper.iter().position(|&(k, _)| k == c) {
                        let (_, slot) = upper.swap_remove(i);
                        pairs.push((slot, self.slot[w], SKELETON_CROSSING));
                    }
                }
            }
        }
        if pairs.len() < 2 {
            return 0;
        }
        let mut total = 0;
        if pairs.len() <= DIRECT_COUNT_LIMIT {
            // Few edges: every pair compared (two edges cross when their
            // ends lie in opposite orders), cheaper than sorting.
            for (i, &(upper_a, lower_a, weight_a)) in pairs.iter().enumerate() {
                for &(upper_b, lower_b, weight_b) in &pairs[i + 1..] {
                    let crossed = (upper_a < upper_b && lower_a > lower_b) | (upper_a > upper_b && lower_a < lower_b);
                    total += usize::from(crossed) * weight_a * weight_b;
                }
            }
            return total;
        }
        // By upper place, then lower place: two counting passes (the
        // places are small; a comparison sort was most of the work).
        sort_by_places(pairs, sorted, counts, self.ranks[r].len(), self.ranks[r + 1].len());
        let width = self.ranks[r + 1].len() + 1;
        tree.clear();
        tree.resize(width + 1, 0);
        let mut seen = 0usize;
        for &(_, lower, weight) in pairs.iter() {
            // Weight of earlier edges with a lower end strictly right of this one.
            let mut at_or_left = 0;
            let mut i = lower + 1;
            while i > 0 {
                at_or_left += tree[i];
                i -= i & i.wrapping_neg();
            }
            total += weight * (seen - at_or_left);
            let mut i = lower + 1;
            while i <= width {
                tree[i] += weight;
                i += i & i.wrapping_neg();
            }
            seen += weight;
        }
        total
    }
}

/// `Orderer::reorder` for a rank of nodes alone and no pairs pinned: each
/// pass compares the units with a median in turn, each with the next one
/// (the units without one stay and are looked past), so the passes are
/// made on those medians alone, in a compact list, and the nodes moved to
/// their new places once at the end. The same passes, exchanges and order
/// as the general loop. Returns false (having changed nothing) when the
/// rank holds a cluster.
fn reorder_nodes(
    units: &mut [(Unit, Members)],
    medians: &mut [f64],
    reverse: bool,
    has_fixed: bool,
    scratch: &mut ReorderScratch,
) -> bool {
    let n = units.len();
    let ReorderScratch {
        slots, values, nodes, ..
    } = scratch;
    slots.clear();
    values.clear();
    nodes.clear();
    for (i, ((unit, _), &m)) in units.iter().zip(medians.iter()).enumerate() {
        let Unit::Node(v) = *unit else {
            return false;
        };
        if m >= 0.0 {
            slots.push(i);
            values.push(m);
            nodes.push(v);
        }
    }
    // Pairs compared in a pass: those whose right unit lies before `end`.
    let mut end = n;
    let mut compared = slots.len();
    let mut moved = false;
    for _ in 0..n {
        let mut exchanged = false;
        for k in 1..compared {
            let (p1, p2) = (values[k - 1], values[k]);
            if p1 > p2 || (p1 == p2 && reverse) {
                values.swap(k - 1, k);
                nodes.swap(k - 1, k);
                exchanged = true;
            }
        }
        if !exchanged {
            break;
        }
        moved = true;
        if !reverse && !has_fixed {
            end -= 1;
            while compared > 0 && slots[compared - 1] >= end {
                compared -= 1;
            }
        }
    }
    if moved {
        for ((&slot, &v), &m) in slots.iter().zip(nodes.iter()).zip(values.iter()) {
            units[slot] = (Unit::Node(v), Members::One(v));
            medians[slot] = m;
        }
    }
    true
}

/// Sorts (upper place, lower place, weight) triples by upper then lower
/// place (the weight's order does not matter to the crossing count), with
/// two stable counting passes: by lower place into `scratch`, then by upper
/// place back. Places are below the ranks' widths (a larger one, which
/// cannot happen, falls back to a comparison sort).
fn sort_by_places(
    pairs: &mut Vec<(usize, usize, usize)>,
    scratch: &mut Vec<(usize, usize, usize)>,
    start: &mut Vec<usize>,
    upper_width: usize,
    lower_width: usize,
) {
    if pairs.iter().any(|&(u, l, _)| u >= upper_width || l >= lower_width) {
        pairs.sort_unstable();
        return;
    }
    let pass = |from: &[(usize, usize, usize)],
                to: &mut Vec<(usize, usize, usize)>,
                start: &mut Vec<usize>,
                width: usize,
                key: fn(&(usize, usize, usize)) -> usize| {
        start.clear();
        start.resize(width + 1, 0);
        for p in from {
            start[key(p) + 1] += 1;
        }
        for i in 1..=width {
            start[i] += start[i - 1];
        }
        to.clear();
        to.resize(from.len(), (0, 0, 0));
        for p in from {
            let k = key(p);
            to[start[k]] = *p;
            start[k] += 1;
        }
    };
    pass(pairs, scratch, start, lower_width, |p| p.1);
    pass(scratch, pairs, start, upper_width, |p| p.0);
}
