//! Stage 4: coordinates in top-to-bottom space (x centre of each node, y of
//! each rank's axis).

use crate::layered::Layered;
use crate::{Graph, RankDir};

pub(crate) struct Coordinates {
    /// Centre x of every layered node.
    pub x: Vec<f64>,
    /// The axis (centre y) of every rank.
    pub rank_y: Vec<f64>,
}

pub(crate) fn assign_coordinates(layered: &Layered, graph: &Graph) -> Coordinates {
    let sideways = matches!(graph.options.rank_dir, RankDir::LeftToRight | RankDir::RightToLeft);
    let _ = sideways;
    let node_sep = graph.options.node_sep;
    let mut x = vec![0.0; layered.nodes.len()];
    for rank in &layered.ranks {
        let mut cursor = 0.0;
        for &v in rank {
            let node = &layered.nodes[v];
            x[v] = cursor + node.left;
            cursor = x[v] + node.right + node_sep;
        }
    }
    let mut rank_y = Vec::with_capacity(layered.ranks.len());
    let rank_sep = if layered.doubled {
        graph.options.rank_sep / 2.0
    } else {
        graph.options.rank_sep
    };
    let mut previous_half = 0.0;
    let mut y = 0.0;
    for (r, rank) in layered.ranks.iter().enumerate() {
        let half = rank.iter().map(|&v| layered.nodes[v].height / 2.0).fold(0.0, f64::max);
        if r > 0 {
            y += previous_half + rank_sep + half;
        }
        rank_y.push(y);
        previous_half = half;
    }
    Coordinates { x, rank_y }
}
