//! Snapshot tests over `test-data/syntax/{ok,err}/*.puml`: next to each
//! input, `NAME.rast` (the tree), `NAME.diagnostics` and `NAME.model`.
//! Refresh with `UPDATE_EXPECT=1 cargo test -p puml-sema --test data`.

use expect_test::expect_file;
use puml_sema::{analyze, AnalysisOptions, FsLoader};
use puml_syntax::{debug_dump, LineIndex};
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn inputs(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("test-data/syntax").join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {dir}");
    files
}

fn render_diagnostics(text: &str, analysis: &puml_sema::Analysis) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for d in &analysis.diagnostics {
        let lc = index.line_col(text, d.range.start());
        out.push_str(&format!(
            "{}:{} {} {}: {}\n",
            lc.line,
            lc.col,
            d.severity.as_str(),
            d.code,
            d.message
        ));
        for fix in &d.fixes {
            let edits: Vec<String> = fix
                .edits
                .iter()
                .map(|e| {
                    let s = index.line_col(text, e.range.start());
                    format!("{}:{}+{:?}", s.line, s.col, e.new_text)
                })
                .collect();
            out.push_str(&format!(
                "    fix{}: {} [{}]\n",
                if fix.machine_applicable { "" } else { "?" },
                fix.title,
                edits.join(", ")
            ));
        }
    }
    out
}

fn check_dir(dir: &str, expect_errors: bool) {
    for path in inputs(dir) {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = puml_syntax::parse(&text);
        assert_eq!(
            parse.syntax().text().to_string(),
            text,
            "{}: tree is not lossless",
            path.display()
        );
        expect_file![path.with_extension("rast")].assert_eq(&debug_dump(&parse.syntax()));
        let options = AnalysisOptions {
            file_path: Some(path.clone()),
            ..Default::default()
        };
        let analysis = analyze(&text, &options, &FsLoader);
        let diagnostics = render_diagnostics(&text, &analysis);
        expect_file![path.with_extension("diagnostics")].assert_eq(&diagnostics);
        expect_file![path.with_extension("model")].assert_eq(&format!("{:#?}\n", analysis.document));
        let has_errors = analysis.diagnostics.iter().any(|d| d.is_error());
        assert_eq!(has_errors, expect_errors, "{}:\n{diagnostics}", path.display());
    }
}

#[test]
fn ok_files_have_no_errors() {
    check_dir("ok", false);
}

#[test]
fn err_files_have_errors() {
    check_dir("err", true);
}
