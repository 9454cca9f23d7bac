//! The primitive catalog: every example is a valid diagram, and
//! `docs/syntax.md` is generated from it (`UPDATE_EXPECT=1` regenerates).

use puml_ide::primitives::{catalog, example_document, markdown};
use puml_sema::{analyze, AnalysisOptions, FileLoader};
use std::io;
use std::path::{Path, PathBuf};

/// Serves the one include file the catalog's `!include` example names.
struct CatalogIncludes;

impl FileLoader for CatalogIncludes {
    fn load(&self, path: &Path) -> io::Result<String> {
        if path.file_name().is_some_and(|n| n == "common.iuml") {
            Ok("participant Shared\n".to_string())
        } else {
            Err(io::Error::new(io::ErrorKind::NotFound, "only common.iuml exists here"))
        }
    }
    /// The files are virtual: paths are taken as they are.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        Ok(path.to_path_buf())
    }
}

#[test]
fn every_example_is_valid() {
    let options = AnalysisOptions {
        file_path: Some(PathBuf::from("/catalog/example.puml")),
        include_root: Some(PathBuf::from("/catalog")),
        allow_url_includes: false,
    };
    let mut failures = Vec::new();
    for primitive in catalog() {
        let text = example_document(primitive);
        let analysis = analyze(&text, &options, &CatalogIncludes);
        let errors: Vec<String> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.severity != puml_syntax::Severity::Info)
            .map(|d| format!("[{}] {}", d.code, d.message))
            .collect();
        if !errors.is_empty() {
            failures.push(format!(
                "{} / {}: {}",
                primitive.category.as_str(),
                primitive.name,
                errors.join("; ")
            ));
        }
        if analysis.document.diagrams.is_empty() {
            failures.push(format!("{}: no diagram", primitive.name));
        }
    }
    println!("{} catalog examples checked", catalog().len());
    assert!(
        failures.is_empty(),
        "{} invalid examples:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn docs_syntax_md_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/syntax.md");
    expect_test::expect_file![path].assert_eq(&markdown());
}

/// Every statement keyword the parser knows is shown by some example (as
/// the first word of a line), so the catalog cannot fall behind the parser.
#[test]
fn catalog_covers_the_parser_keywords() {
    let first_words: Vec<String> = catalog()
        .iter()
        .flat_map(|p| p.example.lines())
        .filter_map(|l| l.split_whitespace().next())
        .map(|w| w.trim_start_matches('/').to_ascii_lowercase())
        .collect();
    let shown = |keyword: &str| {
        first_words
            .iter()
            .any(|w| w == keyword || (w.starts_with(keyword) && !w[keyword.len()..].starts_with(char::is_alphanumeric)))
    };
    let keywords = puml_syntax::keywords::STATEMENT_KEYWORDS
        .iter()
        .chain(puml_syntax::keywords::PARTICIPANT_KINDS.iter())
        .chain(puml_syntax::keywords::GROUP_KEYWORDS.iter());
    let missing: Vec<&str> = keywords.copied().filter(|k| !shown(k)).collect();
    assert!(missing.is_empty(), "keywords without a catalog example: {missing:?}");
}
