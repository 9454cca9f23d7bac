//! The whole answer (boxes, cluster boxes, routes, label centres) for a few
//! reference graphs, as text snapshots beside them in
//! `test-data/graph/layout/` (`UPDATE_EXPECT=1` rewrites them after an
//! intended change; the agreement with dot is measured in dot_reference.rs).

// Each test binary uses part of the readers.
#[allow(dead_code)]
mod support;

use expect_test::expect_file;
use puml_graph::{layout, Layout, Point};
use std::fmt::Write;
use std::path::Path;
use support::dot::read_dot;

fn describe(names: &[String], drawn: &Layout) -> String {
    let mut out = String::new();
    let p = |p: &Point| format!("{:.1},{:.1}", p.x, p.y);
    writeln!(out, "size {:.1} x {:.1}", drawn.width, drawn.height).unwrap();
    for (name, r) in names.iter().zip(&drawn.nodes) {
        writeln!(out, "node {name} {:.1},{:.1} {:.1}x{:.1}", r.x, r.y, r.width, r.height).unwrap();
    }
    for (i, r) in drawn.clusters.iter().enumerate() {
        writeln!(out, "cluster {i} {:.1},{:.1} {:.1}x{:.1}", r.x, r.y, r.width, r.height).unwrap();
    }
    for (i, e) in drawn.edges.iter().enumerate() {
        let points: Vec<String> = e.points.iter().map(p).collect();
        write!(out, "edge {i} {}", points.join(" ")).unwrap();
        for (what, at) in [("label", &e.label), ("tail", &e.tail_label), ("head", &e.head_label)] {
            if let Some(at) = at {
                write!(out, " {what} {}", p(at)).unwrap();
            }
        }
        out.push('\n');
    }
    out
}

fn check(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/graph");
    let dot = read_dot(&std::fs::read_to_string(dir.join(format!("{name}.dot"))).unwrap());
    let drawn = layout(&dot.graph).unwrap();
    expect_file![dir.join(format!("layout/{name}.txt"))].assert_eq(&describe(&dot.names, &drawn));
}

#[test]
fn diamond() {
    check("gen-diamond");
}

#[test]
fn labels() {
    check("gen-labels");
}

#[test]
fn end_labels() {
    check("gen-end-labels");
}

#[test]
fn nested_clusters() {
    check("gen-clusters-nested");
}

#[test]
fn sideways_cluster() {
    check("gen-lr-cluster");
}

#[test]
fn self_loops_and_flat_edges() {
    check("gen-self-loop");
    check("gen-flat");
}
