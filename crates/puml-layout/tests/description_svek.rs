//! The graph the description layout hands to its engine, against the graph
//! PlantUML hands to dot: for every `test-data/description-svek/NNN.dot`
//! (the `svek.dot` PlantUML 1.2026.8 writes with `-debugsvek` for
//! `../shared/corpus-description/NNN.puml`), the graph puml builds for the
//! same file, written by `description_graph_dot`, is read back and
//! compared (nodes, sizes, order, clusters, edges, labels: see
//! `svek/mod.rs`).
//!
//! Prints the diagrams that differ (with `PUML_SVEK_ONLY=NNN`, the
//! differences) and fails when the counts fall under the level reached.

mod svek;

use puml_layout::{description_graph_dot, EmbeddedMetrics, LayoutOptions};
use std::path::Path;

/// Diagrams whose nodes, clusters and edges agree with PlantUML's (of 52).
const NODES_AT_LEAST: usize = 43;
const CLUSTERS_AT_LEAST: usize = 48;
const EDGES_AT_LEAST: usize = 47;

#[test]
fn description_graphs_are_plantumls_svek_graphs() {
    svek::ratchet(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/description-svek"),
        "",
        &svek::shared().join("corpus-description"),
        |diagram| description_graph_dot(diagram, &LayoutOptions::default(), &EmbeddedMetrics),
        svek::Floors {
            nodes: NODES_AT_LEAST,
            clusters: CLUSTERS_AT_LEAST,
            edges: EDGES_AT_LEAST,
        },
    );
}
