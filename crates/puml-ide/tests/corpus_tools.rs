//! Property checks of explain, lint and rename over every diagram of
//! `test-data/` and `../shared/corpus`: nothing panics, and renaming every
//! participant keeps the diagram's shape and adds no error.

use puml_ide::edit::{apply_edit, Edit};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::path::{Path, PathBuf};

fn diagram_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            diagram_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "puml") {
            out.push(path);
        }
    }
}

#[test]
fn explain_lint_and_rename_over_the_corpus() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    diagram_files(&root.join("test-data"), &mut files);
    diagram_files(&root.join("../shared/corpus"), &mut files);
    let mut renames = 0;
    let mut failures = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let explanation = puml_ide::explain::explain(&text);
        assert!(!explanation.summary.is_empty());
        let _ = puml_ide::lint::lint(&text);
        let before = analyze(&text, &AnalysisOptions::default(), &NoIncludes);
        if before.diagnostics.iter().any(|d| d.is_error()) || text.contains('!') {
            continue;
        }
        let Some(diagram) = before.document.diagrams.first() else {
            continue;
        };
        for p in &diagram.participants {
            let edit = Edit::RenameParticipant {
                from: p.code.clone(),
                to: format!("{}_renamed", p.code.replace(|c: char| !c.is_alphanumeric(), "_")),
            };
            let Ok(result) = apply_edit(&text, &edit) else { continue };
            renames += 1;
            let after = analyze(&result.source, &AnalysisOptions::default(), &NoIncludes);
            let Some(new_diagram) = after.document.diagrams.first() else {
                failures.push(format!("{}: rename {} lost the diagram", path.display(), p.code));
                continue;
            };
            let same_shape = new_diagram.participants.len() == diagram.participants.len()
                && new_diagram.events.len() == diagram.events.len();
            if !same_shape || after.diagnostics.iter().any(|d| d.is_error()) {
                failures.push(format!("{}: rename {} changed the diagram", path.display(), p.code));
            }
        }
    }
    println!(
        "explain and lint ran on {} files; {renames} renames checked",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
