//! Snapshot tests of the Mermaid converter over `test-data/mermaid/*.mmd`:
//! each input has its converted `NAME.puml` and its `NAME.warnings` beside
//! it (`UPDATE_EXPECT=1 cargo test -p puml-ide --test mermaid` refreshes).

use std::path::PathBuf;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/mermaid")
}

#[test]
fn mermaid_fixtures() {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("test-data/mermaid exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 8,
        "expected the Mermaid fixtures, found {}",
        inputs.len()
    );
    for input in &inputs {
        let text = std::fs::read_to_string(input).unwrap();
        let conversion = puml_ide::mermaid::convert(&text).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
        let mut warnings: String = conversion
            .warnings
            .iter()
            .map(|w| format!("line {}: {}\n", w.line, w.message))
            .collect();
        if warnings.is_empty() {
            warnings.push_str("no warnings\n");
        }
        let puml = input.with_extension("puml");
        let warnings_file = input.with_extension("warnings");
        expect_test::expect_file![puml].assert_eq(&conversion.source);
        let analysis = puml_sema::analyze(&conversion.source, &Default::default(), &puml_sema::NoIncludes);
        let problems: Vec<String> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.severity != puml_syntax::Severity::Info)
            .map(|d| format!("[{}] {}", d.code, d.message))
            .collect();
        assert!(
            problems.is_empty(),
            "{}: the conversion does not check cleanly: {problems:?}",
            input.display()
        );
        expect_test::expect_file![warnings_file].assert_eq(&warnings);
    }
}
