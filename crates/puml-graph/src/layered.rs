//! Stage 2: the layered graph. Every edge that spans more than one rank gets a
//! chain of virtual nodes, one per rank it crosses; an edge label becomes a
//! virtual node as wide as the label on the middle rank of its edge.

use crate::{ClusterId, Graph, NodeId};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Real(NodeId),
    /// A bend point of input edge `edge`.
    Virtual {
        edge: usize,
    },
    /// The label of input edge `edge`; the edge passes on the node's left side.
    Label {
        edge: usize,
    },
}

#[derive(Clone, Debug)]
pub(crate) struct LNode {
    pub kind: Kind,
    /// Extent left and right of the node's x, and its height (TB space).
    pub left: f64,
    pub right: f64,
    pub height: f64,
    pub rank: usize,
    pub cluster: Option<ClusterId>,
}

/// An edge between neighbouring ranks, from the upper node to the lower one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LEdge {
    pub upper: usize,
    pub lower: usize,
    pub weight: f64,
    /// What crossing this edge costs when ordering (dot's xpenalty): 1 per
    /// input edge merged into it; 0 for edges that take no part in ranking
    /// (`constraint=false`), which dot leaves out of crossing reduction.
    pub crossing_weight: usize,
}

/// One input edge in the layered graph.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chain {
    /// Layered nodes from the edge's upper end to its lower end, ends included.
    /// Empty for self-loops; two entries for flat edges.
    pub nodes: Vec<usize>,
    /// The chain runs from head to tail (the edge points upwards).
    pub upwards: bool,
    /// The chain's label node, if any.
    pub label_node: Option<usize>,
    /// Index of the chain's first edge in `Layered::edges` (its edges follow).
    pub first_edge: usize,
}

#[derive(Clone, Debug)]
pub(crate) struct Layered {
    pub nodes: Vec<LNode>,
    /// Node ids per rank, in order within the rank.
    pub ranks: Vec<Vec<usize>>,
    pub edges: Vec<LEdge>,
    /// Edges between nodes of one rank (layered ids, left end first not implied).
    pub flat: Vec<(usize, usize)>,
    /// Per entry of `flat`: the edge takes part in ranking (dot gives
    /// `constraint=false` edges weight 0, and flat edges of weight 0 do not
    /// order their ends).
    pub flat_constraint: Vec<bool>,
    pub chains: Vec<Chain>,
    /// Ranks were doubled for labels: the gap between ranks is halved.
    pub doubled: bool,
    /// 1 for graphs of ordinary size; less for huge ones, which get fewer
    /// iterations in the later stages.
    pub effort: f64,
    /// Labels of flat edges whose ends are not neighbours: (label node,
    /// input edge). dot puts each on a node of its own on the rank above,
    /// between the edge's ends, once the order is known.
    pub flat_labels: Vec<(usize, usize)>,
}

impl Layered {
    pub(crate) fn build(graph: &Graph, ranks: &[i32]) -> Layered {
        let doubled = crate::rank::has_edge_labels(graph);
        let tree = crate::rank::ClusterTree::new(graph);
        let rank_count = ranks.iter().copied().max().map_or(0, |r| r as usize + 1);
        let mut layered = Layered {
            nodes: Vec::new(),
            ranks: vec![Vec::new(); rank_count],
            edges: Vec::new(),
            flat: Vec::new(),
            flat_constraint: Vec::new(),
            chains: vec![Chain::default(); graph.edges.len()],
            doubled,
            effort: 1.0,
            flat_labels: Vec::new(),
        };
        for (id, node) in graph.nodes.iter().enumerate() {
            layered.push(LNode {
                kind: Kind::Real(id),
                // dot keeps sizes in whole points.
                left: node.width.round() / 2.0,
                right: node.width.round() / 2.0,
                height: node.height.round(),
                rank: ranks[id] as usize,
                cluster: node.cluster,
            });
        }
        // dot's weight classes: how many edges a real node has (capped at 3);
        // a node with at most one is a "singleton".
        let mut weight_class = vec![0u8; graph.nodes.len()];
        for edge in &graph.edges {
            weight_class[edge.tail] = (weight_class[edge.tail] + 1).min(3);
            weight_class[edge.head] = (weight_class[edge.head] + 1).min(3);
        }
        // dot's virtual nodes are a line plus half a node gap on each side
        // (integer points, as dot keeps them).
        let half_gap = (graph.options.node_sep.round() / 2.0).floor();
        // Edges in dot's order of building the layered graph: by tail in node
        // order, then by head in node order (Graphviz keeps a node's edges
        // sorted so), then in input order. The orders of neighbours, and so
        // the initial order within ranks, follow from it.
        let mut by_tail: Vec<usize> = (0..graph.edges.len()).collect();
        by_tail.sort_by_key(|&i| (graph.edges[i].tail, graph.edges[i].head));
        // First chain made for each (upper, lower) pair without labels: later
        // parallel edges share it (dot merges multi-edges).
        let mut made: rustc_hash::FxHashMap<(usize, usize), usize> = rustc_hash::FxHashMap::default();
        for index in by_tail {
            let edge = &graph.edges[index];
            let (tail_rank, head_rank) = (ranks[edge.tail], ranks[edge.head]);
            let mut chain = Chain::default();
            if edge.tail == edge.head {
                layered.chains[index] = chain;
                continue;
            }
            let (upper, lower) = if tail_rank <= head_rank {
                (edge.tail, edge.head)
            } else {
                chain.upwards = true;
                (edge.head, edge.tail)
            };
            if edge.label.is_none() {
                if let Some(&first) = made.get(&(upper, lower)) {
                    let weight = if edge.constraint { edge.weight } else { 0.0 };
                    layered.merge_into(
                        first,
                        index,
                        weight,
                        usize::from(edge.constraint),
                        half_gap,
                        chain.upwards,
                    );
                    continue;
                }
            }
            if tail_rank == head_rank {
                chain.nodes = vec![edge.tail, edge.head];
                layered.flat.push((edge.tail, edge.head));
                layered.flat_constraint.push(edge.constraint);
                layered.chains[index] = chain;
                made.insert((upper, lower), index);
                continue;
            }
            let (top, bottom) = (tail_rank.min(head_rank) as usize, tail_rank.max(head_rank) as usize);
            let label_rank = edge.label.map(|_| (top + bottom) / 2);
            // Virtual nodes belong to the deepest cluster holding both ends.
            let cluster = tree.common_scope(graph.nodes[edge.tail].cluster, graph.nodes[edge.head].cluster);
            chain.nodes.push(upper);
            for rank in top + 1..bottom {
                let is_label = label_rank == Some(rank) && edge.label.is_some();
                let node = match edge.label.filter(|_| is_label) {
                    Some(size) => LNode {
                        kind: Kind::Label { edge: index },
                        left: graph.options.node_sep.round(),
                        right: size.width,
                        height: size.height,
                        rank,
                        cluster,
                    },
                    None => LNode {
                        kind: Kind::Virtual { edge: index },
                        left: 1.0 + half_gap,
                        right: 1.0 + half_gap,
                        height: 1.0,
                        rank,
                        cluster,
                    },
                };
                let id = layered.push(node);
                if is_label {
                    chain.label_node = Some(id);
                }
                chain.nodes.push(id);
            }
            chain.nodes.push(lower);
            chain.first_edge = layered.edges.len();
            let class = |v: usize| match layered.nodes[v].kind {
                Kind::Real(id) if weight_class[id] <= 1 => 1,
                Kind::Real(_) => 0,
                _ => 2,
            };
            for pair in chain.nodes.windows(2) {
                // dot's straightening factors: inner segments of long edges pull hardest.
                const TABLE: [[f64; 3]; 3] = [[1.0, 1.0, 1.0], [1.0, 2.0, 2.0], [1.0, 2.0, 4.0]];
                let factor = TABLE[class(pair[0])][class(pair[1])];
                // dot: edges outside the ranking neither pull nor count as crossings.
                layered.edges.push(LEdge {
                    upper: pair[0],
                    lower: pair[1],
                    weight: if edge.constraint { edge.weight * factor } else { 0.0 },
                    crossing_weight: usize::from(edge.constraint),
                });
            }
            if edge.label.is_none() {
                made.insert((upper, lower), index);
            }
            layered.chains[index] = chain;
        }
        layered.effort = (crate::FULL_EFFORT_NODES as f64 / layered.nodes.len().max(1) as f64).min(1.0);
        layered
    }

    /// How many nodes `build` would make: the real ones and one per rank
    /// crossed by each edge.
    pub(crate) fn count_nodes(graph: &Graph, ranks: &[i32]) -> usize {
        let mut count = graph.nodes.len();
        for edge in &graph.edges {
            let span = (ranks[edge.tail] - ranks[edge.head]).unsigned_abs() as usize;
            count = count.saturating_add(span.saturating_sub(1));
        }
        count
    }

    /// Edge `index` runs beside the chain already made for edge `first`:
    /// it shares its virtual nodes, which widen, and adds its weight.
    fn merge_into(
        &mut self,
        first: usize,
        index: usize,
        weight: f64,
        crossing_weight: usize,
        half_gap: f64,
        upwards: bool,
    ) {
        let mut chain = self.chains[first].clone();
        chain.upwards = upwards;
        chain.label_node = None;
        let spans_ranks = chain.nodes.len() == 2 && self.nodes[chain.nodes[0]].rank != self.nodes[chain.nodes[1]].rank;
        if chain.nodes.len() > 2 || spans_ranks {
            for k in 0..chain.nodes.len() - 1 {
                let e = &mut self.edges[chain.first_edge + k];
                e.weight += weight;
                e.crossing_weight += crossing_weight;
            }
        }
        for &v in &chain.nodes[1..chain.nodes.len().saturating_sub(1)] {
            self.nodes[v].left += half_gap;
            self.nodes[v].right += half_gap;
        }
        self.chains[index] = chain;
    }

    /// dot's `flat_edges`, after crossing reduction: the label of a flat
    /// edge whose ends have a real node or another label between them goes
    /// on a node of its own on the rank above (as wide as the label, outside
    /// every cluster), at the place dot's `flat_limits` finds for it among
    /// that rank's edges. A flat edge on the top rank keeps its label beside
    /// it (dot would add a rank above the graph).
    pub(crate) fn place_flat_labels(&mut self, graph: &Graph) {
        let mut order_of = vec![0usize; self.nodes.len()];
        for rank in &self.ranks {
            for (i, &v) in rank.iter().enumerate() {
                order_of[v] = i;
            }
        }
        let mut lowers: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            lowers[e.upper].push(e.lower);
        }
        for (index, edge) in graph.edges.iter().enumerate() {
            let Some(size) = edge.label else { continue };
            let chain = &self.chains[index];
            if edge.tail == edge.head || chain.nodes.len() != 2 {
                continue;
            }
            let (a, b) = (chain.nodes[0], chain.nodes[1]);
            let r = self.nodes[a].rank;
            if r != self.nodes[b].rank || r == 0 {
                continue;
            }
            // Ends in different clusters: the label's node would have to
            // cross a cluster's side (dot's constraints then contradict).
            if self.nodes[a].cluster != self.nodes[b].cluster {
                continue;
            }
            let (lpos, rpos) = (order_of[a].min(order_of[b]), order_of[a].max(order_of[b]));
            let between = &self.ranks[r][lpos + 1..rpos];
            let adjacent = between
                .iter()
                .all(|&v| matches!(self.nodes[v].kind, Kind::Virtual { .. }));
            if adjacent {
                continue;
            }
            // flat_limits: hard and soft bounds from the virtual nodes above.
            let above = &self.ranks[r - 1];
            // dot's bounds: hard left, hard right, soft left, soft right.
            const HL: usize = 0;
            const HR: usize = 1;
            const SL: usize = 2;
            const SR: usize = 3;
            let mut bounds = [-1i64, above.len() as i64, -1, above.len() as i64];
            let flat_label_ends: Vec<Option<(usize, usize)>> = above
                .iter()
                .map(|&v| {
                    self.flat_labels.iter().find(|&&(n, _)| n == v).map(|&(_, e)| {
                        let c = &self.chains[e];
                        let (x, y) = (order_of[c.nodes[0]], order_of[c.nodes[1]]);
                        (x.min(y), x.max(y))
                    })
                })
                .collect();
            let set_bounds = |k: usize, bounds: &mut [i64; 4]| {
                let v = above[k];
                if matches!(self.nodes[v].kind, Kind::Real(_)) {
                    return;
                }
                let ord = k as i64;
                if let Some((l, r)) = flat_label_ends[k] {
                    if r <= lpos {
                        bounds[SL] = ord;
                        bounds[HL] = ord;
                    } else if l >= rpos {
                        bounds[SR] = ord;
                        bounds[HR] = ord;
                    } else if !(l < lpos && r > rpos) {
                        // Overlapping ranges (one spanning this one is ignored).
                        if l < lpos || (l == lpos && r < rpos) {
                            bounds[SL] = ord;
                        }
                        if r > rpos || (r == rpos && l > lpos) {
                            bounds[SR] = ord;
                        }
                    }
                } else {
                    let (mut on_left, mut on_right) = (false, false);
                    for &w in &lowers[v] {
                        if order_of[w] <= lpos {
                            on_left = true;
                        } else if order_of[w] >= rpos {
                            on_right = true;
                        }
                    }
                    if on_left && !on_right {
                        bounds[HL] = ord + 1;
                    }
                    if on_right && !on_left {
                        bounds[HR] = ord - 1;
                    }
                }
            };
            let (mut lnode, mut rnode) = (0i64, above.len() as i64 - 1);
            while lnode <= rnode {
                set_bounds(lnode as usize, &mut bounds);
                if lnode != rnode {
                    set_bounds(rnode as usize, &mut bounds);
                }
                lnode += 1;
                rnode -= 1;
                if bounds[HR] - bounds[HL] <= 1 {
                    break;
                }
            }
            let place = if bounds[HL] <= bounds[HR] {
                (bounds[HL] + bounds[HR] + 1) / 2
            } else {
                (bounds[SL] + bounds[SR] + 1) / 2
            };
            let place = place.clamp(0, above.len() as i64) as usize;
            // The label's node belongs to no cluster: where that place lies
            // inside a cluster that does not hold the edge, the label stays
            // beside its edge (dot's constraints would contradict each other).
            let clusters_of = |v: usize| {
                let mut list = Vec::new();
                let mut current = self.nodes[v].cluster;
                while let Some(c) = current {
                    if list.len() > graph.clusters.len() {
                        break;
                    }
                    list.push(c);
                    current = graph.clusters[c].parent;
                }
                list
            };
            if place > 0 && place < above.len() {
                let (left, right) = (clusters_of(above[place - 1]), clusters_of(above[place]));
                let ends = [clusters_of(a), clusters_of(b)];
                let splits = left
                    .iter()
                    .any(|c| right.contains(c) && !(ends[0].contains(c) && ends[1].contains(c)));
                if splits {
                    continue;
                }
            }
            let id = self.nodes.len();
            self.nodes.push(LNode {
                kind: Kind::Label { edge: index },
                left: size.width / 2.0,
                right: size.width / 2.0,
                height: size.height,
                rank: r - 1,
                cluster: None,
            });
            order_of.push(place);
            lowers.push(Vec::new());
            self.ranks[r - 1].insert(place, id);
            for (i, &v) in self.ranks[r - 1].iter().enumerate() {
                order_of[v] = i;
            }
            self.flat_labels.push((id, index));
            self.chains[index].label_node = Some(id);
        }
    }

    fn push(&mut self, node: LNode) -> usize {
        let id = self.nodes.len();
        self.ranks[node.rank].push(id);
        self.nodes.push(node);
        id
    }
}
