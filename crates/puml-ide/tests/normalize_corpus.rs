//! `normalize` over every diagram of `test-data/` and `../shared/corpus`:
//! idempotent, the participants keep their order and kinds, every one ends
//! up declared, and no new error appears.

use puml_ide::normalize::{normalize, NormalizeOptions};
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

type Shape = Vec<Vec<(String, &'static str, bool)>>;

fn shape(text: &str) -> (Shape, Vec<&'static str>) {
    let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
    let participants = analysis
        .document
        .diagrams
        .iter()
        .map(|d| {
            // A block PlantUML reads as another diagram type (W0240) has no
            // participants for normalize to declare.
            if d.other_kind.is_some() {
                return Vec::new();
            }
            d.participants
                .iter()
                .map(|p| (p.code.clone(), p.kind.keyword(), p.declared || p.created))
                .collect()
        })
        .collect();
    let mut errors: Vec<&'static str> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    errors.sort();
    (participants, errors)
}

#[test]
fn normalize_keeps_order_and_declares_everyone() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    diagram_files(&root.join("test-data"), &mut files);
    diagram_files(&root.join("../shared/corpus"), &mut files);
    let options = NormalizeOptions::default();
    let mut failures = Vec::new();
    let mut declared = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let once = normalize(&text, &options);
        declared += once.declared.len();
        let (patched, _) = puml_syntax::apply_edits(&text, &once.edits);
        if patched != once.source {
            failures.push(format!("{}: the edits do not produce the source", path.display()));
        }
        if normalize(&once.source, &options).source != once.source {
            failures.push(format!("{}: not idempotent", path.display()));
        }
        let (before, errors_before) = shape(&text);
        let (after, errors_after) = shape(&once.source);
        let strip = |s: &Shape| -> Vec<Vec<(String, &'static str)>> {
            s.iter()
                .map(|d| d.iter().map(|(c, k, _)| (c.clone(), *k)).collect())
                .collect()
        };
        if strip(&before) != strip(&after) {
            failures.push(format!("{}: participant order or kinds changed", path.display()));
        }
        if errors_before.is_empty() && after.iter().flatten().any(|(_, _, declared)| !declared) {
            failures.push(format!("{}: a participant is still implicit", path.display()));
        }
        if errors_after.len() > errors_before.len() {
            failures.push(format!("{}: new errors {errors_after:?}", path.display()));
        }
    }
    println!(
        "normalize checked on {} files, {declared} participants declared",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
