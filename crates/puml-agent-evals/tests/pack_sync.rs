//! The installed plugin must not reach outside `agent-pack/`, so the
//! single-source `skills/` and `agents/` are copied into it by
//! `cargo xtask sync-agent-pack`; this test fails when the copies drift.

use puml_agent_evals::{mcp::Session, repo_root, server_binary};
use std::path::{Path, PathBuf};

const SERVER: &str = env!("CARGO_BIN_EXE_puml-mcp-evals");

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path().strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[cfg(unix)]
fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o111 != 0
}
#[cfg(not(unix))]
fn executable(_: &Path) -> bool {
    true
}

#[test]
fn pack_copies_of_skills_and_agents_are_in_sync() {
    let root = repo_root();
    let mut stale = Vec::new();
    for top in ["skills", "agents"] {
        let source = files(&root.join(top));
        let copy = files(&root.join("agent-pack").join(top));
        if source != copy {
            stale.push(format!("{top}: files differ: {source:?} vs {copy:?}"));
            continue;
        }
        for rel in source {
            let a = root.join(top).join(&rel);
            let b = root.join("agent-pack").join(top).join(&rel);
            if std::fs::read(&a).unwrap() != std::fs::read(&b).unwrap() || executable(&a) != executable(&b) {
                stale.push(format!("{top}/{}", rel.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "agent-pack is out of sync; run `cargo xtask sync-agent-pack`:\n  {}",
        stale.join("\n  ")
    );
}

#[test]
fn syntax_reference_is_generated_from_the_primitive_catalog() {
    let path = repo_root().join("skills/puml-sequence-author/references/syntax.md");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text == puml_ide::primitives::markdown(),
        "{} is stale; run `cargo xtask sync-agent-pack`",
        path.display()
    );
}

#[test]
fn launchers_are_one_script() {
    let bin = repo_root().join("agent-pack/bin");
    let puml = std::fs::read(bin.join("puml")).unwrap();
    for tool in ["puml-lsp", "puml-mcp"] {
        assert_eq!(
            std::fs::read(bin.join(tool)).unwrap(),
            puml,
            "bin/{tool} differs from bin/puml"
        );
        assert!(executable(&bin.join(tool)));
    }
}

/// Every `plantuml` block of the skills' references and of the pack README
/// passes `puml_check` with no diagnostic.
#[test]
fn every_example_in_the_skills_checks() {
    let root = repo_root();
    let mut docs: Vec<PathBuf> = files(&root.join("skills"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| !p.ends_with("syntax.md")) // bodies without @startuml; checked by puml-ide's own test
        .map(|p| root.join("skills").join(p))
        .collect();
    docs.push(root.join("agent-pack/README.md"));
    let workspace = std::env::temp_dir();
    let mut session = Session::start(&server_binary(SERVER), &workspace).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("```plantuml\n") {
            let body = &rest[start + 12..];
            let end = body.find("```").unwrap();
            let source = &body[..end];
            rest = &body[end + 3..];
            let result = session.call("puml_check", serde_json::json!({"source": source}));
            let sc = &result["result"]["structuredContent"];
            checked += 1;
            if sc["ok"] != true || sc["diagnostics"].as_array().is_none_or(|d| !d.is_empty()) {
                failures.push(format!("{}: {}\n{source}", doc.display(), sc["diagnostics"]));
            }
        }
    }
    session.close();
    assert!(checked >= 7, "only {checked} examples found");
    assert!(
        failures.is_empty(),
        "examples that do not check:\n{}",
        failures.join("\n")
    );
}
