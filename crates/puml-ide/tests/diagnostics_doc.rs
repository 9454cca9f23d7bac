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
        } else if line == "```puml" {
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
        let bad = check_source(&blocks[0], &CheckOptions::default(), &NoIncludes);
        assert!(
            bad.diagnostics.iter().any(|d| d.code == code),
            "{code}: bad example does not produce it: {:?}",
            bad.diagnostics
        );
        let fixed = check_source(&blocks[1], &CheckOptions::default(), &NoIncludes);
        assert!(
            fixed
                .diagnostics
                .iter()
                .all(|d| d.code != code && d.severity != puml_syntax::Severity::Error),
            "{code}: fixed example still has problems: {:?}",
            fixed.diagnostics
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} examples");
}

#[test]
fn every_code_is_documented() {
    let doc = doc();
    let sources = [
        include_str!("../../puml-syntax/src/codes.rs"),
        include_str!("../../puml-sema/src/codes.rs"),
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
