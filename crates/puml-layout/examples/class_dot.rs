//! Prints the graph the class layout builds for each class diagram of a
//! file, in dot's language (`cargo run -p puml-layout --example class_dot
//! FILE.puml | dot -Tplain`): to compare with PlantUML's `-debugsvek`.

use puml_layout::{class_graph_dot, EmbeddedMetrics, LayoutOptions};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: class_dot FILE.puml");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let analysis = analyze(&text, &AnalysisOptions::default(), &NoIncludes);
    for diagram in &analysis.document.diagrams {
        if let Some(dot) = class_graph_dot(diagram, &LayoutOptions::default(), &EmbeddedMetrics) {
            print!("{dot}");
        }
    }
}
