//! `cargo xtask bench-wasm`: the WebAssembly build against the native one
//! in the same run. Per-diagram check and SVG render over the corpus in
//! Node's WebAssembly (`editors/npm/bench/corpus.mjs`) and natively (the
//! same `puml_wasm::Session`, in this release process); PlantUML's
//! JavaScript build when npm has it; and the playground's keystroke →
//! repainted SVG on a 500-line diagram in headless Chromium
//! (`editors/npm/bench/keystroke.mjs`). Needs `cargo xtask wasm` first.
//!
//! Every measure is taken warm on both sides (unmeasured rounds or
//! keystrokes first: V8 starts a module in its baseline compiler, Liftoff,
//! and recompiles the hot functions with TurboFan in the background, so
//! early rounds measure the baseline code), and both as wall time and as
//! the process's CPU time: on the shared, loaded machine the wall time
//! stretches with the competition for the cores (up to ten times the CPU
//! time at a load of 15 on 2 cores), the CPU time much less. The cold
//! figures (the first pass or keystroke) are printed beside them.

use crate::corpus::workspace_root;
use puml_wasm::{set_include_resolver, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const USAGE: &str =
    "usage: cargo xtask bench-wasm [--corpus DIR] [--rounds N] [--warmup N] [--keystrokes N] [--no-browser] [--keystroke-only] [--native-only]";

/// Keystrokes each keystroke measure types (the median is reported).
const DEFAULT_KEYSTROKES: usize = 40;

/// Unmeasured corpus passes before the measured rounds (V8's tier-up). V8
/// optimises a function once it has run a budget of its code, so the many
/// functions a corpus pass calls only a few times each stay in baseline
/// code for several passes: after 3 passes the render measured 0.33-0.36 ms
/// per diagram, after 12 it measured 0.25-0.29 ms, as with every function
/// optimised at once (`node --no-wasm-dynamic-tiering`: 0.29 ms); native
/// code does not change with more (docs/wasm.md).
const DEFAULT_WARMUP_ROUNDS: usize = 15;

/// Unmeasured keystrokes before the measured ones (V8's tier-up).
const WARMUP_KEYSTROKES: usize = 10;

/// Milliseconds of CPU time this process has used (all its threads).
#[cfg(unix)]
fn cpu_ms() -> f64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to write.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) } != 0 {
        return f64::NAN;
    }
    now.tv_sec as f64 * 1000.0 + now.tv_nsec as f64 / 1e6
}

#[cfg(not(unix))]
fn cpu_ms() -> f64 {
    f64::NAN
}

/// A lap of wall and CPU time.
#[derive(Clone, Copy)]
struct Lap {
    wall: Instant,
    cpu_ms: f64,
}

impl Lap {
    fn now() -> Lap {
        Lap {
            wall: Instant::now(),
            cpu_ms: cpu_ms(),
        }
    }

    /// Wall and CPU milliseconds from `self` to `later`.
    fn until(self, later: Lap) -> (f64, f64) {
        (
            (later.wall - self.wall).as_secs_f64() * 1000.0,
            later.cpu_ms - self.cpu_ms,
        )
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let root = workspace_root();
    let mut corpus = std::env::var_os("PUML_SHARED_DIR")
        .map_or_else(|| root.join("../shared"), PathBuf::from)
        .join("corpus");
    let mut rounds = 5usize;
    let mut warmup = DEFAULT_WARMUP_ROUNDS;
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
            "--warmup" => {
                warmup = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--warmup needs a number")?
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
        corpus_figures(&npm, &corpus, rounds, warmup, wasm_part)?;
    }
    keystroke_figures(&root, &npm, keystrokes, wasm_part, browser)
}

/// Per-diagram check and SVG render over the corpus, natively and (unless
/// `wasm` is false) in Node's WebAssembly.
fn corpus_figures(npm: &Path, corpus: &Path, rounds: usize, warmup: usize, wasm: bool) -> Result<(), String> {
    let sources = corpus_sources(corpus)?;
    println!(
        "corpus: {} ({} diagrams), best of {rounds} rounds after {warmup} unmeasured",
        corpus.display(),
        sources.len()
    );

    let native = native_figures(corpus, &sources, rounds, warmup);
    let per_file = |ms: f64| ms / sources.len() as f64;
    let per_drawn = |ms: f64| ms / native.drawn.max(1) as f64;
    let native_check = [per_file(native.check.wall), per_file(native.check.cpu)];
    let native_render = [per_drawn(native.render.wall), per_drawn(native.render.cpu)];
    if !wasm {
        println!(
            "per diagram, native: check {:.3} ms ({:.3} ms CPU), SVG render {:.3} ms ({:.3} ms CPU)",
            native_check[0], native_check[1], native_render[0], native_render[1]
        );
        return Ok(());
    }
    let wasm = node_json(
        npm,
        &[
            "bench/corpus.mjs",
            &corpus.to_string_lossy(),
            &rounds.to_string(),
            &warmup.to_string(),
        ],
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
    let wasm_check = [number(&wasm, "checkMs") / files, number(&wasm, "checkCpuMs") / files];
    let wasm_render = [number(&wasm, "renderMs") / drawn, number(&wasm, "renderCpuMs") / drawn];
    println!("per diagram, warm      native     wasm (Node)   wasm/native   target");
    for (name, native, wasm) in [
        ("check, wall", native_check[0], wasm_check[0]),
        ("check, CPU", native_check[1], wasm_check[1]),
        ("SVG render, wall", native_render[0], wasm_render[0]),
        ("SVG render, CPU", native_render[1], wasm_render[1]),
    ] {
        println!(
            "{name:<20} {native:>8.3} ms {wasm:>8.3} ms {:>10.2}×      ≤ 2×",
            wasm / native
        );
    }
    println!(
        "cold (the first pass, wall): check {:.3} ms native, {:.3} ms wasm; SVG render {:.3} ms native, {:.3} ms wasm",
        per_file(native.check_cold),
        number(&wasm, "checkColdMs") / files,
        per_file(native.render_cold),
        number(&wasm, "renderColdMs") / files,
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

/// The best wall and the best CPU time of a pass (milliseconds).
struct Best {
    wall: f64,
    cpu: f64,
}

struct Native {
    check: Best,
    render: Best,
    /// The first pass's wall time (over every file, for the render too).
    check_cold: f64,
    render_cold: f64,
    drawn: usize,
}

/// The same calls as the Node half, on the same `Session`, natively, in the
/// same order: a cold pass, the warm-up passes, the measured rounds.
fn native_figures(corpus: &Path, sources: &[String], rounds: usize, warmup: usize) -> Native {
    // The included files are read once and then answered from memory, as
    // the Node half does: the figures are puml's, not the file system's.
    let dir = corpus.to_path_buf();
    let read: std::cell::RefCell<std::collections::HashMap<String, Option<String>>> = Default::default();
    set_include_resolver(Some(Box::new(move |path: &str| {
        read.borrow_mut()
            .entry(path.to_string())
            .or_insert_with(|| std::fs::read_to_string(dir.join(path)).ok())
            .clone()
    })));
    let mut session = Session::new();
    let best = |session: &mut Session, f: &dyn Fn(&mut Session)| {
        for _ in 0..warmup {
            f(session);
        }
        let mut best = Best {
            wall: f64::INFINITY,
            cpu: f64::INFINITY,
        };
        for _ in 0..rounds {
            let started = Lap::now();
            f(session);
            let (wall, cpu) = started.until(Lap::now());
            best.wall = best.wall.min(wall);
            best.cpu = best.cpu.min(cpu);
        }
        best
    };
    let check_all = |s: &mut Session| {
        for source in sources {
            let _ = s.check(source);
        }
    };
    let started = Instant::now();
    check_all(&mut session);
    let check_cold = started.elapsed().as_secs_f64() * 1000.0;
    let check = best(&mut session, &check_all);
    let started = Instant::now();
    let drawable: Vec<&String> = sources
        .iter()
        .filter(|s| session.render_svg(s, None, None).is_ok())
        .collect();
    let render_cold = started.elapsed().as_secs_f64() * 1000.0;
    let render = best(&mut session, &|s| {
        for source in &drawable {
            let _ = s.render_svg(source, None, None);
        }
    });
    set_include_resolver(None);
    Native {
        check,
        render,
        check_cold,
        render_cold,
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
/// the SVG. Medians in milliseconds, in that order, then their sum's: wall
/// time, then CPU time; then the first keystroke's wall time.
fn native_keystrokes(text: &str, keystrokes: usize) -> ([f64; 5], [f64; 5], f64) {
    let mut session = Session::new();
    let mut text = text.to_string();
    // The page as loaded: everything computed once.
    let _ = session.check_json(&text);
    let _ = session.render_svg(&text, None, Some(1));
    let mut wall: [Vec<f64>; 5] = Default::default();
    let mut cpu: [Vec<f64>; 5] = Default::default();
    let mut first_ms = f64::NAN;
    for k in 0..WARMUP_KEYSTROKES + keystrokes {
        type_key(&mut text, k);
        let mut laps = [Lap::now(); 5];
        let _ = std::hint::black_box(session.check_json(&text));
        laps[1] = Lap::now();
        let _ = std::hint::black_box(session.page_count(&text));
        laps[2] = Lap::now();
        let _ = std::hint::black_box(puml_wasm::encode_url(&text));
        laps[3] = Lap::now();
        let _ = std::hint::black_box(session.render_svg(&text, None, Some(1)));
        laps[4] = Lap::now();
        if k == 0 {
            first_ms = laps[0].until(laps[4]).0;
        }
        if k < WARMUP_KEYSTROKES {
            continue;
        }
        for step in 0..4 {
            let (w, c) = laps[step].until(laps[step + 1]);
            wall[step].push(w);
            cpu[step].push(c);
        }
        let (w, c) = laps[0].until(laps[4]);
        wall[4].push(w);
        cpu[4].push(c);
    }
    (
        wall.map(|mut values| median(&mut values)),
        cpu.map(|mut values| median(&mut values)),
        first_ms,
    )
}

/// What the playground calls on a keystroke since it asks in one call:
/// `Session::preview` (the diagnostics, the page count and the SVG from
/// one pass over the text). Median wall and CPU milliseconds, in a session
/// of its own typing the same keystrokes.
fn native_previews(text: &str, keystrokes: usize) -> (f64, f64) {
    let mut session = Session::new();
    let mut text = text.to_string();
    let _ = session.preview(&text, None, Some(1));
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for k in 0..WARMUP_KEYSTROKES + keystrokes {
        type_key(&mut text, k);
        let started = Lap::now();
        let _ = std::hint::black_box(session.preview(&text, None, Some(1)));
        let (w, c) = started.until(Lap::now());
        if k >= WARMUP_KEYSTROKES {
            wall.push(w);
            cpu.push(c);
        }
    }
    (median(&mut wall), median(&mut cpu))
}

/// The keystroke → repainted SVG measures on the 500-line diagram:
/// natively, in Node's WebAssembly (the same calls as the playground), and
/// in the playground itself in headless Chromium.
fn keystroke_figures(root: &Path, npm: &Path, keystrokes: usize, wasm: bool, browser: bool) -> Result<(), String> {
    let text = keystroke_diagram();
    let (native_wall, native_cpu, native_first) = native_keystrokes(&text, keystrokes);
    let (preview_wall, preview_cpu) = native_previews(&text, keystrokes);
    let steps = [
        "check (diagnostics JSON)",
        "page count",
        "address (URL encoding)",
        "SVG render",
        "total",
    ];
    println!(
        "keystroke in a {}-line diagram, median of {keystrokes} after {WARMUP_KEYSTROKES} unmeasured",
        text.lines().count()
    );
    if !wasm {
        for ((step, wall), cpu) in steps.iter().zip(native_wall).zip(native_cpu) {
            println!("  {step:<26} native {wall:>8.3} ms ({cpu:.3} ms CPU)");
        }
        println!("  one call (check, pages, SVG) native {preview_wall:>8.3} ms ({preview_cpu:.3} ms CPU)");
        println!("  first keystroke (cold), native {native_first:.3} ms");
        return Ok(());
    }
    let diagram = std::env::temp_dir().join(format!("puml-bench-wasm-{}.puml", std::process::id()));
    std::fs::write(&diagram, &text).map_err(|e| format!("cannot write {}: {e}", diagram.display()))?;
    let diagram = diagram.to_string_lossy().into_owned();
    let count = keystrokes.to_string();
    let node = node_json(
        npm,
        &[
            "bench/keystroke-node.mjs",
            &diagram,
            &count,
            &WARMUP_KEYSTROKES.to_string(),
        ],
    );
    let browser_keys = browser.then(|| {
        let index = root.join("editors/playground/dist/index.html");
        node_json(
            npm,
            &[
                "bench/keystroke.mjs",
                &index.to_string_lossy(),
                &diagram,
                &count,
                &WARMUP_KEYSTROKES.to_string(),
            ],
        )
    });
    let _ = std::fs::remove_file(&diagram);
    let node = node?;
    let number = |key: &str| node[key].as_f64().unwrap_or(f64::NAN);
    let keys = ["check", "pages", "encode", "render", "total"];
    println!(
        "  {:<26} {:>10} {:>14} {:>12}   {:>10} {:>14} {:>12}",
        "", "native", "wasm (Node)", "wasm/native", "CPU native", "CPU wasm", "wasm/native"
    );
    for (((step, wall), cpu), key) in steps.iter().zip(native_wall).zip(native_cpu).zip(keys) {
        let wasm_wall = number(&format!("{key}Ms"));
        let wasm_cpu = number(&format!("{key}CpuMs"));
        println!(
            "  {step:<26} {wall:>7.3} ms {wasm_wall:>11.3} ms {:>11.2}×   {cpu:>7.3} ms {wasm_cpu:>11.3} ms {:>11.2}×",
            wasm_wall / wall,
            wasm_cpu / cpu
        );
    }
    let (wasm_wall, wasm_cpu) = (number("previewMs"), number("previewCpuMs"));
    println!(
        "  {:<26} {preview_wall:>7.3} ms {wasm_wall:>11.3} ms {:>11.2}×   {preview_cpu:>7.3} ms {wasm_cpu:>11.3} ms {:>11.2}×",
        "one call (check+pages+SVG)",
        wasm_wall / preview_wall,
        wasm_cpu / preview_cpu
    );
    println!(
        "  first keystroke (cold, wall): native {native_first:.3} ms, wasm {:.3} ms",
        number("firstMs")
    );
    if let Some(keys) = browser_keys {
        let keys = keys?;
        let number = |key: &str| keys[key].as_f64().unwrap_or(f64::NAN);
        println!(
            "  playground (headless Chromium): the paint (check, page count, render in one call, patch of the picture), median {:.1} ms (p90 {:.1}); keystroke → SVG in the page, median {:.1} ms (p90 {:.1}; target ≤ 16 ms); → its frame rendered, median {:.1} ms (p90 {:.1})",
            number("paintMedianMs"),
            number("paintP90Ms"),
            number("domMedianMs"),
            number("domP90Ms"),
            number("frameMedianMs"),
            number("frameP90Ms"),
        );
        println!(
            "  playground CPU per keystroke (Chromium's counters): main thread {:.1} ms, renderer process {:.1} ms; script {:.1} ms, style {:.1} ms, layout {:.1} ms",
            number("threadCpuMs"),
            number("processCpuMs"),
            number("scriptMs"),
            number("styleMs"),
            number("layoutMs"),
        );
        if keys["errors"].as_u64() != Some(0) {
            return Err("the 500-line benchmark diagram has errors".into());
        }
    }
    Ok(())
}
