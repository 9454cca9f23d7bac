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
}

#[derive(Clone, Debug)]
pub(crate) struct Layered {
    pub nodes: Vec<LNode>,
    /// Node ids per rank, in order within the rank.
    pub ranks: Vec<Vec<usize>>,
    pub edges: Vec<LEdge>,
    /// Edges between nodes of one rank (layered ids, left end first not implied).
    pub flat: Vec<(usize, usize)>,
    pub chains: Vec<Chain>,
    /// Ranks were doubled for labels: the gap between ranks is halved.
    pub doubled: bool,
}

impl Layered {
    pub(crate) fn build(graph: &Graph, ranks: &[i32]) -> Layered {
        let doubled = crate::rank::has_edge_labels(graph);
        let rank_count = ranks.iter().copied().max().map_or(0, |r| r as usize + 1);
        let mut layered = Layered {
            nodes: Vec::new(),
            ranks: vec![Vec::new(); rank_count],
            edges: Vec::new(),
            flat: Vec::new(),
            chains: Vec::with_capacity(graph.edges.len()),
            doubled,
        };
        for (id, node) in graph.nodes.iter().enumerate() {
            layered.push(LNode {
                kind: Kind::Real(id),
                left: node.width / 2.0,
                right: node.width / 2.0,
                height: node.height,
                rank: ranks[id] as usize,
                cluster: node.cluster,
            });
        }
        for (index, edge) in graph.edges.iter().enumerate() {
            let (tail_rank, head_rank) = (ranks[edge.tail], ranks[edge.head]);
            let mut chain = Chain::default();
            if edge.tail == edge.head {
                layered.chains.push(chain);
                continue;
            }
            if tail_rank == head_rank {
                chain.nodes = vec![edge.tail, edge.head];
                layered.flat.push((edge.tail, edge.head));
                layered.chains.push(chain);
                continue;
            }
            let (upper, lower) = if tail_rank < head_rank {
                (edge.tail, edge.head)
            } else {
                chain.upwards = true;
                (edge.head, edge.tail)
            };
            let (top, bottom) = (tail_rank.min(head_rank) as usize, tail_rank.max(head_rank) as usize);
            let label_rank = edge.label.map(|_| (top + bottom).div_ceil(2));
            // Virtual nodes are as narrow as a line; clusters of the ends are
            // shared only when both ends are in the same cluster.
            let cluster = if graph.nodes[edge.tail].cluster == graph.nodes[edge.head].cluster {
                graph.nodes[edge.tail].cluster
            } else {
                None
            };
            chain.nodes.push(upper);
            for rank in top + 1..bottom {
                let is_label = label_rank == Some(rank);
                let (kind, right, height) = match (is_label, edge.label) {
                    (true, Some(size)) => (Kind::Label { edge: index }, 1.0 + size.width, size.height),
                    _ => (Kind::Virtual { edge: index }, 1.0, 2.0),
                };
                let id = layered.push(LNode {
                    kind,
                    left: 1.0,
                    right,
                    height,
                    rank,
                    cluster,
                });
                if is_label {
                    chain.label_node = Some(id);
                }
                chain.nodes.push(id);
            }
            chain.nodes.push(lower);
            for pair in chain.nodes.windows(2) {
                let ends_virtual = pair
                    .iter()
                    .filter(|&&v| !matches!(layered.nodes[v].kind, Kind::Real(_)))
                    .count();
                // dot's straightening factors: long edges' inner segments pull hardest.
                let factor = [1.0, 2.0, 8.0][ends_virtual];
                layered.edges.push(LEdge {
                    upper: pair[0],
                    lower: pair[1],
                    weight: edge.weight * factor,
                });
            }
            layered.chains.push(chain);
        }
        layered
    }

    fn push(&mut self, node: LNode) -> usize {
        let id = self.nodes.len();
        self.ranks[node.rank].push(id);
        self.nodes.push(node);
        id
    }

    /// Position of every node within its rank.
    pub(crate) fn positions(&self) -> Vec<usize> {
        let mut position = vec![0; self.nodes.len()];
        for rank in &self.ranks {
            for (i, &v) in rank.iter().enumerate() {
                position[v] = i;
            }
        }
        position
    }
}
