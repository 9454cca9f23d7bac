//! `docs/diagnostics.md` matches the code: every code the compiler can
//! emit is documented, and each section's bad example produces its code
//! while the fixed example produces no error and not that code.

use puml_ide::check::{check_source, CheckOptions};
use puml_sema::NoIncludes;

fn doc() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/diagnostics.md")).unwrap()
}

fn sections(doc: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_block = false;
    let mut block = String::new();
    for line in doc.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            let code = title.split_whitespace().next().unwrap_or("").to_string();
            out.push((code, Vec::new()));
        } else if line == "```puml" || line == "```json" {
            in_block = true;
            block.clear();
        } else if line == "```" && in_block {
            in_block = false;
            if let Some(last) = out.last_mut() {
                last.1.push(block.clone());
            }
        } else if in_block {
            block.push_str(line);
            block.push('\n');
        }
    }
    out
}

#[test]
fn examples_produce_their_codes() {
    let doc = doc();
    let mut checked = 0;
    for (code, blocks) in sections(&doc) {
        if blocks.is_empty() {
            continue;
        }
        assert_eq!(blocks.len(), 2, "{code}: expected a bad and a fixed example");
        let diagnose = |text: &str| {
            if code.starts_with('F') {
                workflow_diagnostics(text)
                    .into_iter()
                    .map(|d| (d.code.to_string(), d.severity))
                    .collect::<Vec<_>>()
            } else {
                check_source(text, &CheckOptions::default(), &NoIncludes)
                    .diagnostics
                    .into_iter()
                    .map(|d| (d.code.to_string(), d.severity))
                    .collect::<Vec<_>>()
            }
        };
        let bad = diagnose(&blocks[0]);
        assert!(
            bad.iter().any(|(c, _)| *c == code),
            "{code}: bad example does not produce it: {bad:?}"
        );
        let fixed = diagnose(&blocks[1]);
        assert!(
            fixed
                .iter()
                .all(|(c, s)| *c != code && *s != puml_syntax::Severity::Error),
            "{code}: fixed example still has problems: {fixed:?}"
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} examples");
}

/// `puml workflow validate` of a diagram or a Workflow JSON text, with the
/// registry the document names.
fn workflow_diagnostics(text: &str) -> Vec<puml_syntax::Diagnostic> {
    use puml_ide::workflow::{self, TemplateRegistry};
    let registry = TemplateRegistry {
        ids: ["analyze-code", "review-analysis", "draft-article", "summarize"]
            .map(String::from)
            .to_vec(),
    };
    if workflow::looks_like_json(text) {
        return match workflow::workflow_from_json_text(text) {
            Ok(w) => workflow::validate_workflow(&w, Some(&registry)),
            Err(d) => d,
        };
    }
    let (host, file) = puml_ide::AnalysisHost::single_file(None, text.to_string(), Default::default());
    host.analysis().workflow_validate(file, Some(&registry)).unwrap()
}

#[test]
fn every_code_is_documented() {
    let doc = doc();
    let sources = [
        include_str!("../../puml-syntax/src/codes.rs"),
        include_str!("../../puml-sema/src/codes.rs"),
        include_str!("../src/workflow/codes.rs"),
    ];
    for source in sources {
        for line in source.lines() {
            if let Some(rest) = line.trim().strip_prefix("pub const ") {
                let code = rest.split('"').nth(1).unwrap_or_default();
                assert!(
                    doc.contains(&format!("## {code} ")),
                    "{code} is not documented in docs/diagnostics.md"
                );
            }
        }
    }
}
