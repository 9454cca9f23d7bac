//! Stage 3: the order of nodes within each rank, to reduce crossings.

use crate::layered::Layered;
use crate::Graph;

/// Sweeps of the barycentre heuristic, down and up alternately.
const SWEEPS: usize = 8;

pub(crate) fn reduce_crossings(layered: &mut Layered, _graph: &Graph) {
    let n = layered.nodes.len();
    let mut up: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut down: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for e in &layered.edges {
        up[e.lower].push((e.upper, e.weight));
        down[e.upper].push((e.lower, e.weight));
    }
    for sweep in 0..SWEEPS {
        let position = layered.positions();
        let downwards = sweep % 2 == 0;
        let rank_count = layered.ranks.len();
        for step in 1..rank_count {
            let r = if downwards { step } else { rank_count - 1 - step };
            let neighbours = if downwards { &up } else { &down };
            let mut keyed: Vec<(f64, usize, usize)> = layered.ranks[r]
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let adj = &neighbours[v];
                    let key = if adj.is_empty() {
                        i as f64
                    } else {
                        adj.iter().map(|&(u, _)| position[u] as f64).sum::<f64>() / adj.len() as f64
                    };
                    (key, i, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            layered.ranks[r] = keyed.into_iter().map(|(_, _, v)| v).collect();
        }
    }
}
