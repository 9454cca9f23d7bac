//! Stage 5: edge routes, labels, cluster boxes, and the turn from
//! top-to-bottom space into the graph's rank direction.

use crate::layered::{Kind, Layered};
use crate::position::Coordinates;
use crate::{EdgeRoute, Graph, Layout, Point, RankDir, Rect, Size};

// (Kept out of line: profiles then show the phase apart.)
#[inline(never)]
pub(crate) fn finish(graph: &Graph, layered: &Layered, coords: &Coordinates) -> Layout {
    let centre = |v: usize| Point::new(coords.x[v], coords.rank_y[layered.nodes[v].rank]);
    let half_height = |v: usize| layered.nodes[v].height / 2.0;
    let mut nodes: Vec<Rect> = (0..graph.nodes.len())
        .map(|v| {
            let c = centre(v);
            let node = &graph.nodes[v];
            Rect {
                x: c.x - node.width / 2.0,
                y: c.y - node.height / 2.0,
                width: node.width,
                height: node.height,
            }
        })
        .collect();

    // Half the height of each rank's tallest node: the band an edge crosses
    // on that rank.
    let mut rank_half_height = vec![0.0f64; layered.ranks.len()];
    for (r, rank) in layered.ranks.iter().enumerate() {
        for &v in rank {
            rank_half_height[r] = rank_half_height[r].max(half_height(v));
        }
    }
    // dot's right bound of the routes: the rightmost node of each rank,
    // 16 points more for every rank from there down.
    let mut right_bound = 0.0f64;
    for rank in &layered.ranks {
        if let Some(&v) = rank.last() {
            right_bound = right_bound.max(coords.x[v] + layered.nodes[v].right);
        }
        right_bound += 16.0;
    }
    // dot routes the edges one by one, shortest first (fewest ranks, then
    // least sideways), and each route moves its virtual nodes to where it
    // passes (recover_slack), which bounds the routes after it.
    let positioned = Placed {
        x: coords.x.clone(),
        left: layered.nodes.iter().map(|n| n.left).collect(),
    };
    let mut placed = Placed {
        x: positioned.x.clone(),
        left: positioned.left.clone(),
    };
    let mut routing_order: Vec<usize> = (0..graph.edges.len()).collect();
    routing_order.sort_by_key(|&i| {
        let chain = &layered.chains[i];
        let (Some(&first), Some(&last)) = (chain.nodes.first(), chain.nodes.last()) else {
            return (0, 0, 0, i);
        };
        let span = layered.nodes[last].rank.abs_diff(layered.nodes[first].rank);
        let sideways = (coords.x[first] - coords.x[last]).abs() as i64;
        (usize::from(span > 0), span, sideways, i)
    });
    let mut routes: Vec<EdgeRoute> = vec![EdgeRoute::default(); graph.edges.len()];
    for index in routing_order {
        let edge = &graph.edges[index];
        let chain = &layered.chains[index];
        let mut route = EdgeRoute::default();
        let mut label_left: Option<f64> = None;
        let polyline: Vec<Point> = if edge.tail == edge.head {
            let r = nodes[edge.tail];
            let right = r.x + r.width;
            let mid = r.y + r.height / 2.0;
            // dot's loop reaches the node gap right of its node (whatever
            // room the positions left it), and its label starts there.
            let reach = graph.options.node_sep.round().max(10.0);
            // A cubic whose controls stand 4/3 of the reach out peaks at
            // the reach.
            let control = reach * 4.0 / 3.0;
            route.points = vec![
                Point::new(right, mid - r.height / 4.0),
                Point::new(right + control, mid - r.height / 2.0),
                Point::new(right + control, mid + r.height / 2.0),
                Point::new(right, mid + r.height / 4.0),
            ];
            route.label = edge.label.map(|s| Point::new(right + reach + s.width / 2.0, mid));
            Vec::new()
        } else if chain.nodes.len() == 2 && layered.nodes[chain.nodes[0]].rank == layered.nodes[chain.nodes[1]].rank {
            let (a, b) = (centre(edge.tail), centre(edge.head));
            let (ra, rb) = (&layered.nodes[edge.tail], &layered.nodes[edge.head]);
            if a.x <= b.x {
                vec![Point::new(a.x + ra.right, a.y), Point::new(b.x - rb.left, b.y)]
            } else {
                vec![Point::new(a.x - ra.left, a.y), Point::new(b.x + rb.right, b.y)]
            }
        } else {
            // dot routes from centre to centre through the boxes of the
            // virtual nodes, then clips the spline where it leaves the end
            // boxes: on the line from an end's centre toward the next bend.
            let last = chain.nodes.len() - 1;
            let mut points: Vec<Point> = chain.nodes.iter().map(|&v| centre(v)).collect();
            let bounds = pull_taut(
                &mut points,
                &chain.nodes,
                layered,
                &placed,
                &positioned,
                graph.options.node_sep.round(),
                right_bound,
            );
            for (end, next) in [(0, 1), (last, last - 1)] {
                let v = chain.nodes[end];
                let node = &layered.nodes[v];
                points[end] = exit_point(points[end], points[next], node.left, node.right, half_height(v));
            }
            if let Some(v) = chain.label_node {
                // The label starts where the edge passes (its rightmost
                // point on the label's rank), which the box of the label's
                // node bounds.
                label_left = chain.nodes.iter().position(|&w| w == v).map(|k| {
                    let passes = extent_in_band(&points, k, rank_half_height[layered.nodes[v].rank]).1;
                    bounds.get(k).map_or(passes, |b| passes.min(b.1))
                });
            }
            // Each virtual node now spans where the edge passes on its rank
            // (a label's node ends there, its label beyond).
            for k in 1..last {
                let (Some(&(lo, hi)), v) = (bounds.get(k), chain.nodes[k]) else {
                    continue;
                };
                let (from, to) = extent_in_band(&points, k, rank_half_height[layered.nodes[v].rank]);
                let (from, to) = (from.max(lo), to.min(hi).max(from.max(lo)));
                if matches!(layered.nodes[v].kind, Kind::Label { .. }) {
                    placed.x[v] = to;
                    placed.left[v] = to - from;
                } else {
                    placed.x[v] = (from + to) / 2.0;
                    placed.left[v] = (to - from) / 2.0;
                }
            }
            if chain.upwards {
                points.reverse();
            }
            points
        };
        if !polyline.is_empty() {
            route.points = polyline_to_bezier(&polyline);
            if let Some(size) = edge.label {
                route.label = Some(match chain.label_node {
                    // A flat edge's label is its own node's box.
                    Some(v) if chain.nodes.len() == 2 => centre(v),
                    Some(v) => {
                        let c = centre(v);
                        debug_assert!(matches!(layered.nodes[v].kind, Kind::Label { .. }));
                        // dot: the label starts where the edge passes
                        // (its rightmost point on the label's rank).
                        Point::new(label_left.unwrap_or(c.x) + size.width / 2.0, c.y)
                    }
                    None => {
                        let m = midpoint(&polyline);
                        Point::new(m.x + size.width / 2.0 + 2.0, m.y)
                    }
                });
            }
            route.tail_label = edge.tail_label.map(|s| end_label(polyline[0], polyline[1], s));
            let n = polyline.len();
            route.head_label = edge.head_label.map(|s| end_label(polyline[n - 1], polyline[n - 2], s));
        }
        routes[index] = route;
    }
    let mut edges = routes;

    let mut clusters: Vec<Rect> = coords
        .clusters
        .iter()
        .map(|b| Rect {
            x: b[0],
            y: b[1],
            width: b[2] - b[0],
            height: b[3] - b[1],
        })
        .collect();
    let b = coords.bounds;
    let bounds = Rect {
        x: b[0],
        y: b[1],
        width: b[2] - b[0],
        height: b[3] - b[1],
    };
    orient(graph.options.rank_dir, bounds, &mut nodes, &mut edges, &mut clusters)
}

/// Where the virtual nodes are as routing goes: dot's positions, moved by
/// each route to where it passes.
struct Placed {
    x: Vec<f64>,
    /// Extent left of x (dot's lw, which routing resizes; the right extent
    /// it compares against stays the one from positioning).
    left: Vec<f64>,
}

/// Pulls the bends of a chain (its virtual nodes) as straight as their
/// boxes allow, as dot's spline router keeps an edge inside the boxes of its
/// virtual nodes (a label's node only its left part, the label being on the
/// right) and otherwise takes the shortest way: each bend moves toward the
/// line between its neighbours, within its box, until nothing moves.
fn pull_taut(
    points: &mut [Point],
    chain: &[usize],
    layered: &Layered,
    placed: &Placed,
    positioned: &Placed,
    node_sep: f64,
    right_bound: f64,
) -> Vec<(f64, f64)> {
    let n = points.len();
    if n < 3 || chain.len() != n {
        return Vec::new();
    }
    // dot gives a virtual node all the room up to its neighbours on the
    // rank (half the node gap from a real neighbour, a quarter from another
    // edge), a label's node only 10 points right of where its label starts.
    let bounds: Vec<(f64, f64)> = chain
        .iter()
        .map(|&v| {
            let node = &layered.nodes[v];
            let x = placed.x[v];
            let own = match node.kind {
                Kind::Label { .. } => (x - placed.left[v], x + 10.0),
                _ => (x - placed.left[v], x + node.right),
            };
            let rank = &layered.ranks[node.rank];
            let Some(at) = rank.iter().position(|&w| w == v) else {
                return own;
            };
            // A label's box ends where the routes made before it pass
            // (dot's recover_slack); other bends keep to the positions.
            let near = if matches!(node.kind, Kind::Label { .. }) {
                placed
            } else {
                positioned
            };
            let gap = |w: usize| match layered.nodes[w].kind {
                Kind::Real(_) => node_sep / 2.0,
                _ => node_sep / 4.0,
            };
            let lo = match at.checked_sub(1).map(|k| rank[k]) {
                Some(w) => own.0.min(near.x[w] + layered.nodes[w].right + gap(w)),
                None => f64::NEG_INFINITY,
            };
            let hi = match rank.get(at + 1) {
                Some(&w) => own.1.max(near.x[w] - near.left[w] - gap(w)),
                None => own.1.max(right_bound),
            };
            match node.kind {
                // dot leaves the room for the label itself: the box ends
                // the label's width short of its right bound (at the node
                // when that leaves nothing).
                Kind::Label { .. } => {
                    let hi = hi.min(right_bound) - node.right;
                    (lo, if hi < lo { x } else { hi })
                }
                _ => (lo, hi),
            }
        })
        .collect();
    // Bounded: each sweep moves every bend to within its box; a few dozen
    // sweeps settle chains of any practical length.
    for _ in 0..64 {
        let mut moved = false;
        for i in 1..n - 1 {
            let (a, b) = (points[i - 1], points[i + 1]);
            let t = if (b.y - a.y).abs() > f64::EPSILON {
                (points[i].y - a.y) / (b.y - a.y)
            } else {
                0.5
            };
            let target = (a.x + (b.x - a.x) * t).clamp(bounds[i].0, bounds[i].1);
            if (target - points[i].x).abs() > 0.01 {
                points[i].x = target;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    bounds
}

/// The least and greatest x of the polyline within `half_height` of bend
/// `k`'s y (the band of its rank).
fn extent_in_band(points: &[Point], k: usize, half_height: f64) -> (f64, f64) {
    let centre = points[k];
    let (top, bottom) = (centre.y - half_height, centre.y + half_height);
    let (mut left, mut right) = (centre.x, centre.x);
    for (a, b) in [(k.checked_sub(1), k), (Some(k), k + 1)] {
        let (Some(a), Some(&pb)) = (a.map(|a| points[a]), points.get(b)) else {
            continue;
        };
        for y in [top, bottom] {
            let (lo, hi) = (a.y.min(pb.y), a.y.max(pb.y));
            let x = if y >= lo && y <= hi && (pb.y - a.y).abs() > f64::EPSILON {
                Some(a.x + (pb.x - a.x) * (y - a.y) / (pb.y - a.y))
            } else if y < lo || y > hi {
                // The whole piece lies inside the band on this side.
                let end = if (y - a.y).abs() < (y - pb.y).abs() { a } else { pb };
                (end.y >= top && end.y <= bottom).then_some(end.x)
            } else {
                None
            };
            if let Some(x) = x {
                left = left.min(x);
                right = right.max(x);
            }
        }
    }
    (left, right)
}

/// Where the line from a box's centre `c` toward `toward` leaves the box
/// (`left`, `right`: the box's extent either side of the centre).
fn exit_point(c: Point, toward: Point, left: f64, right: f64, half_height: f64) -> Point {
    let (dx, dy) = (toward.x - c.x, toward.y - c.y);
    if dy.abs() > f64::EPSILON {
        let t = half_height / dy.abs();
        let x = c.x + dx * t;
        if x >= c.x - left && x <= c.x + right {
            return Point::new(x, c.y + half_height * dy.signum());
        }
    }
    if dx.abs() <= f64::EPSILON {
        return c;
    }
    let reach = if dx > 0.0 { right } else { left };
    Point::new(c.x + reach * dx.signum(), c.y + dy * reach / dx.abs())
}

/// The label of an edge's end: beside the end point, off the line.
fn end_label(end: Point, toward: Point, size: Size) -> Point {
    let (dx, dy) = (toward.x - end.x, toward.y - end.y);
    let length = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / length, dy / length);
    let along = 4.0 + size.height / 2.0;
    let aside = 4.0 + size.width / 2.0;
    Point::new(end.x + ux * along - uy * aside, end.y + uy * along + ux * aside)
}

fn midpoint(points: &[Point]) -> Point {
    let n = points.len();
    if n % 2 == 1 {
        points[n / 2]
    } else {
        let (a, b) = (points[n / 2 - 1], points[n / 2]);
        Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
    }
}

/// A smooth curve through the points as cubic Bézier pieces, `p0 (c1 c2
/// p)+` (a Catmull-Rom spline: each knot's tangent parallel to the line
/// between its neighbours). Two points give a straight line, as dot draws
/// an edge between neighbouring ranks; chains through virtual nodes bend
/// smoothly, as dot's splines do.
pub(crate) fn polyline_to_bezier(points: &[Point]) -> Vec<Point> {
    let n = points.len();
    let mut out = Vec::with_capacity(n * 3);
    out.push(points[0]);
    for i in 0..n.saturating_sub(1) {
        let before = points[i.saturating_sub(1)];
        let (a, b) = (points[i], points[i + 1]);
        let after = points[(i + 2).min(n - 1)];
        out.push(Point::new(a.x + (b.x - before.x) / 6.0, a.y + (b.y - before.y) / 6.0));
        out.push(Point::new(b.x - (after.x - a.x) / 6.0, b.y - (after.y - a.y) / 6.0));
        out.push(b);
    }
    out
}

/// Turns top-to-bottom coordinates into the graph's rank direction and moves
/// everything so that the least coordinates are 0.
fn orient(
    rank_dir: RankDir,
    bounds: Rect,
    nodes: &mut [Rect],
    edges: &mut [EdgeRoute],
    clusters: &mut [Rect],
) -> Layout {
    let map_point = |p: Point| match rank_dir {
        RankDir::TopToBottom => p,
        RankDir::BottomToTop => Point::new(p.x, -p.y),
        // dot turns the picture a quarter counter-clockwise (y up): positions
        // within a rank run bottom to top.
        RankDir::LeftToRight => Point::new(p.y, -p.x),
        RankDir::RightToLeft => Point::new(-p.y, -p.x),
    };
    let map_rect = |r: Rect| {
        let a = map_point(Point::new(r.x, r.y));
        let b = map_point(Point::new(r.x + r.width, r.y + r.height));
        Rect {
            x: a.x.min(b.x),
            y: a.y.min(b.y),
            width: (a.x - b.x).abs(),
            height: (a.y - b.y).abs(),
        }
    };
    for r in nodes.iter_mut().chain(clusters.iter_mut()) {
        *r = map_rect(*r);
    }
    for route in edges.iter_mut() {
        for p in route
            .points
            .iter_mut()
            .chain(route.label.iter_mut())
            .chain(route.tail_label.iter_mut())
            .chain(route.head_label.iter_mut())
        {
            *p = map_point(*p);
        }
    }
    // The drawing's box as dot computes it: edges may stray outside it.
    // (Widened by the fraction of a point dot's whole-point sizes leave out,
    // so that no box starts left of or above the origin.)
    let frame = map_rect(bounds);
    let (mut min_x, mut min_y) = (frame.x, frame.y);
    let (mut max_x, mut max_y) = (frame.x + frame.width, frame.y + frame.height);
    for r in nodes.iter().chain(clusters.iter()) {
        min_x = min_x.min(r.x);
        min_y = min_y.min(r.y);
        max_x = max_x.max(r.x + r.width);
        max_y = max_y.max(r.y + r.height);
    }
    for r in nodes.iter_mut().chain(clusters.iter_mut()) {
        r.x -= min_x;
        r.y -= min_y;
    }
    for route in edges.iter_mut() {
        for p in route
            .points
            .iter_mut()
            .chain(route.label.iter_mut())
            .chain(route.tail_label.iter_mut())
            .chain(route.head_label.iter_mut())
        {
            p.x -= min_x;
            p.y -= min_y;
        }
    }
    Layout {
        width: max_x - min_x,
        height: max_y - min_y,
        nodes: nodes.to_vec(),
        edges: edges.to_vec(),
        clusters: clusters.to_vec(),
    }
}
