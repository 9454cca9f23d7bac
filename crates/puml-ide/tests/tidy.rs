//! Layering rules that `Cargo.toml` can show: the compiler core and the
//! IDE layer depend on no protocol or CLI crate. And the architecture
//! invariant: consumers (every crate that is not a compiler phase, the
//! database or this façade) reach the compiler only through
//! `AnalysisHost`/`Analysis`. Calling a phase function, or one of the
//! façade's uncached text-in entry points, would bypass the database: the
//! work would be redone on every request and never shared.

use std::path::{Path, PathBuf};

#[test]
fn core_crates_know_no_protocol() {
    let forbidden = [
        "serde_json",
        "rmcp",
        "tower-lsp",
        "tower-lsp-server",
        "lsp-types",
        "clap",
        "tokio",
        "schemars",
        "wasm-bindgen",
        "js-sys",
    ];
    let core = [
        "puml-syntax",
        "puml-sema",
        "puml-db",
        "puml-layout",
        "puml-fmt",
        "puml-ide",
    ];
    for krate in core {
        let path = format!("{}/../{krate}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(&path).unwrap();
        let dependencies = manifest.split("[dependencies]").nth(1).unwrap_or("");
        let dependencies = dependencies.split("\n[").next().unwrap_or("");
        for name in forbidden {
            let uses = dependencies.lines().any(|l| {
                l.trim_start().starts_with(&format!("{name} "))
                    || l.trim_start().starts_with(&format!("{name}."))
                    || l.trim_start().starts_with(&format!("{name}="))
            });
            assert!(
                !uses,
                "{krate} depends on {name}: protocol and CLI crates belong to the glue layer"
            );
        }
    }
}

#[test]
fn syntax_knows_nothing_above_it() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../puml-syntax/Cargo.toml")).unwrap();
    for name in ["puml-sema", "puml-layout", "puml-render", "puml-ide", "salsa", "serde"] {
        assert!(
            !manifest.contains(&format!("\n{name}")),
            "puml-syntax must not depend on {name}"
        );
    }
}

/// The dependencies of a crate's `[dependencies]` section, by name.
fn dependencies_of(krate: &str) -> Vec<String> {
    let path = format!("{}/../{krate}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(&path).unwrap();
    let section = manifest.split("\n[dependencies]").nth(1).unwrap_or("");
    let section = section.split("\n[").next().unwrap_or("");
    section
        .lines()
        .filter_map(|l| l.split(['=', '.', ' ']).next())
        .map(str::trim)
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The HTTP server has one home: `puml-server` holds the transports, their
/// limits and PlantUML's protocol (`puml-compat`); `puml-mcp` is the MCP
/// tools, resources and prompts, and knows no HTTP.
#[test]
fn http_lives_in_the_server_crate() {
    let mcp = dependencies_of("puml-mcp");
    for http in [
        "hyper",
        "hyper-util",
        "http",
        "http-body-util",
        "bytes",
        "puml-compat",
        "puml-server",
    ] {
        assert!(
            !mcp.iter().any(|d| d == http),
            "puml-mcp depends on {http}: HTTP belongs to puml-server ({mcp:?})"
        );
    }
    let server = dependencies_of("puml-server");
    for needed in ["hyper", "puml-mcp", "puml-compat"] {
        assert!(
            server.iter().any(|d| d == needed),
            "puml-server lacks {needed}: {server:?}"
        );
    }
    assert!(
        !dependencies_of("puml-compat")
            .iter()
            .any(|d| d.starts_with("puml-mcp") || d == "puml-server"),
        "puml-compat is below the servers"
    );
}

/// The compiler itself: these crates may call each other's phases.
const COMPILER: &[&str] = &[
    "puml-syntax",
    "puml-sema",
    "puml-layout",
    "puml-render",
    "puml-fmt",
    "puml-db",
    "puml-ide",
];

/// Calls that run a phase (or all of them) outside the database.
const BYPASSES: &[&str] = &[
    "puml_syntax::parse(",
    "puml_sema::analyze(",
    "puml_sema::analyze_parsed(",
    "puml_sema::preprocess(",
    "puml_sema::lower(",
    "puml_layout::layout(",
    "puml_layout::try_layout(",
    "puml_render::to_svg(",
    "puml_render::to_png(",
    "puml_render::to_pdf(",
    "check_source(",
    "check::check_bytes(",
    "fix_source(",
    "fix::fix_all(",
    "render_source(",
    "scenes_for_source(",
    "dump_scene(",
    "explain_with(",
    "explain_all_with(",
    "lint_with(",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `file:line: call` for every bypass in `source` (comments skipped).
fn bypasses(name: &str, source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for call in BYPASSES {
            if code.contains(call) {
                found.push(format!("{name}:{}: {call}", number + 1));
            }
        }
    }
    found
}

#[test]
fn the_scanner_sees_a_bypass() {
    let source = "fn f(t: &str) {\n    let p = puml_syntax::parse(t); // parse\n    // puml_sema::analyze(t) in a comment is fine\n}\n";
    assert_eq!(
        bypasses("x.rs", source),
        vec!["x.rs:2: puml_syntax::parse(".to_string()]
    );
}

#[test]
fn consumers_go_through_the_analysis_host() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut consumers = Vec::new();
    for entry in std::fs::read_dir(&crates).expect("crates/").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().join("Cargo.toml").exists() && !COMPILER.contains(&name.as_str()) {
            consumers.push(name);
        }
    }
    for front_end in [
        "puml-cli",
        "puml-mcp",
        "puml-server",
        "puml-lsp",
        "puml-compat",
        "puml-wasm",
        "puml-json",
    ] {
        assert!(
            consumers.iter().any(|c| c == front_end),
            "the consumers were found: {consumers:?}"
        );
    }
    let mut found = Vec::new();
    for consumer in &consumers {
        let mut files = Vec::new();
        rust_files(&crates.join(consumer).join("src"), &mut files);
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap_or_default();
            let name = file.strip_prefix(&crates).unwrap_or(&file).display().to_string();
            found.extend(bypasses(&name, &source));
        }
    }
    assert!(
        found.is_empty(),
        "consumers must use puml_ide::AnalysisHost/Analysis, not these:\n{}",
        found.join("\n")
    );
}
