//! `cargo xtask bench-wasm`: the WebAssembly build against the native one
//! in the same run. Per-diagram check and SVG render over the corpus in
//! Node's WebAssembly (`editors/npm/bench/corpus.mjs`) and natively (the
//! same `puml_wasm::Session`, in this release process); PlantUML's
//! JavaScript build when npm has it; and the playground's keystroke →
//! repainted SVG on a 500-line diagram in headless Chromium
//! (`editors/npm/bench/keystroke.mjs`). Needs `cargo xtask wasm` first.

use crate::corpus::workspace_root;
use puml_wasm::{set_include_resolver, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask bench-wasm [--corpus DIR] [--rounds N] [--no-browser]";

pub fn run(args: &[String]) -> Result<(), String> {
    let root = workspace_root();
    let mut corpus = std::env::var_os("PUML_SHARED_DIR")
        .map_or_else(|| root.join("../shared"), PathBuf::from)
        .join("corpus");
    let mut rounds = 5usize;
    let mut browser = true;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--corpus" => corpus = PathBuf::from(rest.next().ok_or("--corpus needs a folder")?),
            "--rounds" => {
                rounds = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--rounds needs a number")?
            }
            "--no-browser" => browser = false,
            _ => return Err(USAGE.to_string()),
        }
    }
    let npm = root.join("editors/npm");
    if !npm.join("dist/puml_wasm_bg.wasm").exists() {
        return Err("the package is not built: run `cargo xtask wasm` first".into());
    }
    let sources = corpus_sources(&corpus)?;
    println!(
        "corpus: {} ({} diagrams), best of {rounds} rounds",
        corpus.display(),
        sources.len()
    );

    let native = native_figures(&corpus, &sources, rounds);
    let wasm = node_json(
        &npm,
        &["bench/corpus.mjs", &corpus.to_string_lossy(), &rounds.to_string()],
    )?;
    let number = |value: &Value, key: &str| value[key].as_f64().unwrap_or(f64::NAN);
    let files = number(&wasm, "files");
    let drawn = number(&wasm, "drawn");
    if files as usize != sources.len() || drawn as usize != native.drawn {
        println!(
            "note: native drew {} of {}, wasm {drawn} of {files}",
            native.drawn,
            sources.len()
        );
    }
    let wasm_check = number(&wasm, "checkMs") / files;
    let wasm_render = number(&wasm, "renderMs") / drawn;
    let native_check = native.check_ms / sources.len() as f64;
    let native_render = native.render_ms / native.drawn.max(1) as f64;
    println!("per diagram            native     wasm (Node)   wasm/native   target");
    println!(
        "check                {native_check:>8.3} ms {wasm_check:>8.3} ms {:>10.2}×      ≤ 2×",
        wasm_check / native_check
    );
    println!(
        "SVG render           {native_render:>8.3} ms {wasm_render:>8.3} ms {:>10.2}×      ≤ 2×",
        wasm_render / native_render
    );
    println!(
        "package start-up (import, compile, instantiate): {:.1} ms",
        number(&wasm, "startupMs")
    );
    println!(
        "PlantUML's JavaScript build: not measured — npm has no package of it (`plantuml` there is a 0.0.2 placeholder; node-plantuml and the like run the Java jar)"
    );
    if browser {
        let index = root.join("editors/playground/dist/index.html");
        let keys = node_json(&npm, &["bench/keystroke.mjs", &index.to_string_lossy(), "40"])?;
        println!(
            "playground keystroke, {} lines, {} keystrokes: to decoded SVG median {:.1} ms (p90 {:.1}); to the next frame median {:.1} ms (p90 {:.1}); target ≤ 16 ms",
            keys["lines"], keys["keystrokes"],
            number(&keys, "decodedMedianMs"),
            number(&keys, "decodedP90Ms"),
            number(&keys, "frameMedianMs"),
            number(&keys, "frameP90Ms"),
        );
        if keys["errors"].as_u64() != Some(0) {
            return Err("the 500-line benchmark diagram has errors".into());
        }
    }
    Ok(())
}

fn corpus_sources(dir: &Path) -> Result<Vec<String>, String> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect()
}

struct Native {
    check_ms: f64,
    render_ms: f64,
    drawn: usize,
}

/// The same calls as the Node half, on the same `Session`, natively.
fn native_figures(corpus: &Path, sources: &[String], rounds: usize) -> Native {
    let dir = corpus.to_path_buf();
    set_include_resolver(Some(Box::new(move |path: &str| {
        std::fs::read_to_string(dir.join(path)).ok()
    })));
    let mut session = Session::new();
    let drawable: Vec<&String> = sources
        .iter()
        .filter(|s| session.render_svg(s, None, None).is_ok())
        .collect();
    let best = |session: &mut Session, f: &dyn Fn(&mut Session)| {
        (0..rounds)
            .map(|_| {
                let started = Instant::now();
                f(session);
                started.elapsed().as_secs_f64() * 1000.0
            })
            .fold(f64::INFINITY, f64::min)
    };
    let check_ms = best(&mut session, &|s| {
        for source in sources {
            let _ = s.check(source);
        }
    });
    let render_ms = best(&mut session, &|s| {
        for source in &drawable {
            let _ = s.render_svg(source, None, None);
        }
    });
    set_include_resolver(None);
    Native {
        check_ms,
        render_ms,
        drawn: drawable.len(),
    }
}

fn node_json(dir: &Path, args: &[&str]) -> Result<Value, String> {
    let output = Command::new("node")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "node {} failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or("");
    serde_json::from_str(line).map_err(|e| format!("node {}: not JSON ({e}): {line}", args.join(" ")))
}
