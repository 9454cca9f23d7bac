//! Scene snapshots: every `test-data/render/*.puml` is analyzed, laid out,
//! and compared with `NAME.scene` (the compact description of every page).
//! `UPDATE_EXPECT=1 cargo test -p puml-layout` rewrites the snapshots.

use puml_layout::scene::describe;
use puml_layout::{layout, LayoutOptions};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/render")
}

fn scene_text(source: &str) -> String {
    let analysis = analyze(source, &AnalysisOptions::default(), &NoIncludes);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == puml_syntax_severity_error())
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "test diagram has errors: {errors:?}");
    let mut out = String::new();
    for diagram in &analysis.document.diagrams {
        for (page, scene) in layout(diagram, &LayoutOptions::default()).iter().enumerate() {
            out.push_str(&format!("# page {}\n", page + 1));
            out.push_str(&describe(scene));
        }
    }
    out
}

fn puml_syntax_severity_error() -> puml_syntax::Severity {
    puml_syntax::Severity::Error
}

#[test]
fn scene_snapshots() {
    check_dir(data_dir(), 10);
}

/// `test-data/render/activity/*.puml`: one diagram per activity construct.
#[test]
fn activity_scene_snapshots() {
    check_dir(data_dir().join("activity"), 12);
}

/// `test-data/render/class/*.puml`: class diagrams (members, relations,
/// packages and notes, ER, hidden parts; PlantUML's picture beside each).
#[test]
fn class_scene_snapshots() {
    check_dir(data_dir().join("class"), 5);
}

/// `test-data/render/state/*.puml`: state diagrams (pseudo-states,
/// composites, regions, notes; PlantUML's picture beside each).
#[test]
fn state_scene_snapshots() {
    check_dir(data_dir().join("state"), 5);
}

fn check_dir(dir: PathBuf, at_least: usize) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test-data/render exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    entries.sort();
    assert!(
        entries.len() >= at_least,
        "expected the construct diagrams in {}",
        dir.display()
    );
    let mut mismatches = Vec::new();
    for path in entries {
        let source = std::fs::read_to_string(&path).expect("readable test diagram");
        let actual = scene_text(&source);
        let snapshot = path.with_extension("scene");
        if update {
            std::fs::write(&snapshot, &actual).expect("write snapshot");
            continue;
        }
        let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
        if expected != actual {
            let first_diff = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(actual.lines().count()));
            mismatches.push(format!(
                "{}: differs from line {}:\n  expected: {:?}\n  actual:   {:?}",
                snapshot.display(),
                first_diff + 1,
                expected.lines().nth(first_diff).unwrap_or("<end>"),
                actual.lines().nth(first_diff).unwrap_or("<end>")
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "scene snapshots differ (UPDATE_EXPECT=1 to accept):\n{}",
        mismatches.join("\n")
    );
}
