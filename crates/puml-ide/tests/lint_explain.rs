//! Snapshot tests of `lint` over `test-data/lint/*.puml` (→ `NAME.lint`)
//! and of `explain` over `test-data/explain/*.puml` (→ `NAME.explain`).
//! `UPDATE_EXPECT=1` refreshes.

use puml_syntax::LineIndex;
use std::path::PathBuf;

fn inputs(dir: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture directory exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

#[test]
fn lint_fixtures() {
    for input in inputs("lint") {
        let text = std::fs::read_to_string(&input).unwrap();
        let index = LineIndex::new(&text);
        let mut out = String::new();
        let findings = puml_ide::lint::lint(&text);
        for f in &findings {
            let at = index.line_col(&text, f.range.start());
            out.push_str(&format!(
                "{}:{} {} {}: {}\n",
                at.line,
                at.col,
                f.severity.as_str(),
                f.code,
                f.message
            ));
            for fix in &f.fixes {
                let (fixed, _) = puml_syntax::apply_edits(&text, &fix.edits);
                let changed: Vec<&str> = fixed.lines().filter(|l| !text.lines().any(|o| o == *l)).collect();
                out.push_str(&format!(
                    "  fix{}: {} => {:?}\n",
                    if fix.machine_applicable { "" } else { " (suggestion)" },
                    fix.title,
                    changed
                ));
            }
        }
        if findings.is_empty() {
            out.push_str("no findings\n");
        }
        expect_test::expect_file![input.with_extension("lint")].assert_eq(&out);
    }
}

#[test]
fn explain_fixtures() {
    for input in inputs("explain") {
        let text = std::fs::read_to_string(&input).unwrap();
        let explanations = puml_ide::explain::explain_all_with(&text, &Default::default(), &puml_sema::NoIncludes);
        let texts: Vec<String> = explanations.iter().map(puml_ide::explain::render_text).collect();
        expect_test::expect_file![input.with_extension("explain")].assert_eq(&texts.join("\n"));
    }
}
