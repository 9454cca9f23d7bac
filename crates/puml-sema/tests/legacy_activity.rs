//! Legacy activity diagrams read by the parser: every generated probe of
//! `test-data/legacy-activity-probes` and real file of
//! `test-data/legacy-activity-real` (all drawn by PlantUML) is read as a
//! `DiagramKind::LegacyActivity` block with no error, and the model lowered
//! from the tree is the one the line reading of `legacy_activity::read`
//! (which the layout ratchet was measured with) builds from the same lines.

use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use puml_syntax::DiagramKind;
use std::path::{Path, PathBuf};

fn legacy_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let mut files = Vec::new();
    for dir in ["legacy-activity-probes", "legacy-activity-real"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("test data") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "puml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_legacy_file_is_read_by_the_parser_into_the_same_model() {
    let files = legacy_files();
    assert!(files.len() >= 50, "{} files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read");
        let parse = puml_syntax::parse(&text);
        let name = path.file_name().unwrap().to_string_lossy();
        if parse.diagram_kinds() != [DiagramKind::LegacyActivity] {
            failures.push(format!("{name}: read as {:?}", parse.diagram_kinds()));
            continue;
        }
        let analysis = analyze(&text, &AnalysisOptions::default(), &NoIncludes);
        let errors: Vec<_> = analysis.diagnostics.iter().filter(|d| d.is_error()).collect();
        if !errors.is_empty() {
            failures.push(format!("{name}: errors {errors:?}"));
            continue;
        }
        let from_tree = analysis.document.diagrams[0].legacy_activity.as_deref().cloned();
        let body: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("@startuml"))
            .skip(1)
            .collect();
        let from_lines = puml_sema::legacy_activity::read(body);
        if from_tree.as_ref() != Some(&from_lines) {
            failures.push(format!("{name}: the tree's model differs from the line reading's"));
        }
        let map = analysis.source_map.diagrams[0]
            .legacy_activity
            .as_ref()
            .expect("source map");
        if map.node_references.len() != from_lines.nodes.len() || map.node_references.iter().any(Vec::is_empty) {
            failures.push(format!("{name}: a node without an occurrence in the source map"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
