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

const USAGE: &str =
    "usage: cargo xtask bench-wasm [--corpus DIR] [--rounds N] [--keystrokes N] [--no-browser] [--keystroke-only] [--native-only]";

/// Keystrokes each keystroke measure types (the median is reported).
const DEFAULT_KEYSTROKES: usize = 40;

pub fn run(args: &[String]) -> Result<(), String> {
    let root = workspace_root();
    let mut corpus = std::env::var_os("PUML_SHARED_DIR")
        .map_or_else(|| root.join("../shared"), PathBuf::from)
        .join("corpus");
    let mut rounds = 5usize;
    let mut browser = true;
    let mut keystrokes = DEFAULT_KEYSTROKES;
    let mut corpus_part = true;
    let mut wasm_part = true;
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
            "--keystrokes" => {
                keystrokes = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--keystrokes needs a positive number")?
            }
            "--no-browser" => browser = false,
            // The keystroke measures alone (e.g. under `valgrind
            // --tool=callgrind` with --native-only: instructions, not time).
            "--keystroke-only" => corpus_part = false,
            "--native-only" => {
                wasm_part = false;
                browser = false
            }
            _ => return Err(USAGE.to_string()),
        }
    }
    let npm = root.join("editors/npm");
    if wasm_part && !npm.join("dist/puml_wasm_bg.wasm").exists() {
        return Err("the package is not built: run `cargo xtask wasm` first".into());
    }
    if corpus_part {
        corpus_figures(&npm, &corpus, rounds, wasm_part)?;
    }
    keystroke_figures(&root, &npm, keystrokes, wasm_part, browser)
}

/// Per-diagram check and SVG render over the corpus, natively and (unless
/// `wasm` is false) in Node's WebAssembly.
fn corpus_figures(npm: &Path, corpus: &Path, rounds: usize, wasm: bool) -> Result<(), String> {
    let sources = corpus_sources(corpus)?;
    println!(
        "corpus: {} ({} diagrams), best of {rounds} rounds",
        corpus.display(),
        sources.len()
    );

    let native = native_figures(corpus, &sources, rounds);
    let native_check = native.check_ms / sources.len() as f64;
    let native_render = native.render_ms / native.drawn.max(1) as f64;
    if !wasm {
        println!("per diagram, native: check {native_check:.3} ms, SVG render {native_render:.3} ms");
        return Ok(());
    }
    let wasm = node_json(
        npm,
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

/// The playground's benchmark diagram: 500 lines, 10 participants, messages
/// in groups of 20. Written to a file that the Node and Chromium halves
/// read, so that all three type into the same text.
fn keystroke_diagram() -> String {
    let mut lines = vec!["@startuml".to_string()];
    lines.extend((0..10).map(|p| format!("participant P{p}")));
    let mut message = 0;
    while lines.len() < 498 {
        lines.push(format!("group step {message}"));
        for _ in 0..20 {
            if lines.len() >= 497 {
                break;
            }
            lines.push(format!(
                "P{} -> P{} : message {message}",
                message % 10,
                (message * 3 + 1) % 10
            ));
            message += 1;
        }
        lines.push("end".to_string());
    }
    while lines.len() < 499 {
        lines.push("' padding".to_string());
    }
    lines.push("@enduml".to_string());
    lines.join("\n") + "\n"
}

/// The `k`-th keystroke: an `x` typed at the end of one of five message
/// labels near the middle (an edit inside a label, the commonest while
/// writing a diagram). `bench/keystroke*.mjs` type the same.
fn type_key(text: &mut String, k: usize) {
    let label = format!(": message {}", 200 + k % 5);
    if let Some(at) = text.find(&label) {
        text.insert(at + label.len(), 'x');
    }
}

/// Median of `values` (the upper one of an even count, as the Node halves).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// What the playground does on a keystroke, step by step: the
/// diagnostics, the page count, the address (PlantUML's URL encoding),
/// the SVG. Medians in milliseconds, in that order, then their sum's.
fn native_keystrokes(text: &str, keystrokes: usize) -> [f64; 5] {
    let mut session = Session::new();
    let mut text = text.to_string();
    // The page as loaded: everything computed once.
    let _ = session.check_json(&text);
    let _ = session.render_svg(&text, None, Some(1));
    let mut steps: [Vec<f64>; 5] = Default::default();
    for k in 0..keystrokes {
        type_key(&mut text, k);
        let mut lap = Instant::now();
        let mut split = |step: usize| {
            let now = Instant::now();
            steps[step].push((now - lap).as_secs_f64() * 1000.0);
            lap = now;
        };
        let _ = std::hint::black_box(session.check_json(&text));
        split(0);
        let _ = std::hint::black_box(session.page_count(&text));
        split(1);
        let _ = std::hint::black_box(puml_wasm::encode_url(&text));
        split(2);
        let _ = std::hint::black_box(session.render_svg(&text, None, Some(1)));
        split(3);
    }
    steps[4] = (0..keystrokes).map(|k| (0..4).map(|s| steps[s][k]).sum()).collect();
    steps.map(|mut values| median(&mut values))
}

/// The keystroke → repainted SVG measures on the 500-line diagram:
/// natively, in Node's WebAssembly (the same calls as the playground), and
/// in the playground itself in headless Chromium.
fn keystroke_figures(root: &Path, npm: &Path, keystrokes: usize, wasm: bool, browser: bool) -> Result<(), String> {
    let text = keystroke_diagram();
    let native = native_keystrokes(&text, keystrokes);
    let steps = [
        "check (diagnostics JSON)",
        "page count",
        "address (URL encoding)",
        "SVG render",
        "total",
    ];
    println!(
        "keystroke in a {}-line diagram, median of {keystrokes}",
        text.lines().count()
    );
    if !wasm {
        for (step, ms) in steps.iter().zip(native) {
            println!("  {step:<26} native {ms:>8.3} ms");
        }
        return Ok(());
    }
    let diagram = std::env::temp_dir().join(format!("puml-bench-wasm-{}.puml", std::process::id()));
    std::fs::write(&diagram, &text).map_err(|e| format!("cannot write {}: {e}", diagram.display()))?;
    let diagram = diagram.to_string_lossy().into_owned();
    let count = keystrokes.to_string();
    let node = node_json(npm, &["bench/keystroke-node.mjs", &diagram, &count]);
    let browser_keys = browser.then(|| {
        let index = root.join("editors/playground/dist/index.html");
        node_json(
            npm,
            &["bench/keystroke.mjs", &index.to_string_lossy(), &diagram, &count],
        )
    });
    let _ = std::fs::remove_file(&diagram);
    let node = node?;
    let keys = ["checkMs", "pagesMs", "encodeMs", "renderMs", "totalMs"];
    println!(
        "  {:<26} {:>10} {:>14} {:>12}",
        "", "native", "wasm (Node)", "wasm/native"
    );
    for ((step, native_ms), key) in steps.iter().zip(native).zip(keys) {
        let wasm_ms = node[key].as_f64().unwrap_or(f64::NAN);
        println!(
            "  {step:<26} {native_ms:>7.3} ms {wasm_ms:>11.3} ms {:>11.2}×",
            wasm_ms / native_ms
        );
    }
    if let Some(keys) = browser_keys {
        let keys = keys?;
        let number = |key: &str| keys[key].as_f64().unwrap_or(f64::NAN);
        println!(
            "  playground (headless Chromium): keystroke → SVG in the page, median {:.1} ms (p90 {:.1}); → its frame rendered, median {:.1} ms (p90 {:.1}); target ≤ 16 ms",
            number("domMedianMs"),
            number("domP90Ms"),
            number("frameMedianMs"),
            number("frameP90Ms"),
        );
        if keys["errors"].as_u64() != Some(0) {
            return Err("the 500-line benchmark diagram has errors".into());
        }
    }
    Ok(())
}
