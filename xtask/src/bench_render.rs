//! `cargo xtask bench-render`: render throughput over the corpus (SVG and
//! PNG), the time for a 5,000-message diagram, linearity (10× messages),
//! and — when the PlantUML jar is installed — PlantUML's `-tsvg` on the
//! same files in the same run, as a ratio; then the same for activity
//! diagrams (`corpus-activity`), class diagrams (`corpus-class`) and for
//! every corpus together (sequence, activity, class, description, state),
//! and the layout engine's time against size (`--no-kinds` skips these).
//! A benchmark, not a test: it prints figures and never fails on them.

use crate::corpus;
use puml_ide::check::CheckOptions;
use puml_ide::render::{render_source, Format, RenderOptions};
use puml_sema::{FsLoader, NoIncludes};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub fn run(args: &[String]) -> Result<(), String> {
    let dir = corpus::corpus_dir(args);
    let entries = corpus::load(&dir)?;
    let sources: Vec<(PathBuf, String)> = entries
        .iter()
        .filter(|e| e.valid)
        .filter_map(|e| std::fs::read_to_string(&e.source).ok().map(|t| (e.source.clone(), t)))
        .collect();
    if sources.is_empty() {
        return Err(format!("no diagrams in {}", dir.display()));
    }
    println!("corpus: {} diagrams from {}", sources.len(), dir.display());

    // `--svg-only ROUNDS`: only the one-core SVG loop, that many passes over
    // the corpus — a fixed amount of work, to run under a profiler or
    // `perf stat -e instructions` (a count that load on the machine does
    // not disturb, unlike the time).
    if let Some(rounds) = corpus::flag_value(args, "--svg-only") {
        let rounds: u32 = rounds
            .parse()
            .map_err(|_| format!("--svg-only {rounds}: not a number of rounds"))?;
        let start = Instant::now();
        for _ in 0..rounds {
            time_corpus(&sources, Format::Svg, Duration::ZERO);
        }
        let per = start.elapsed() / (rounds.max(1) * sources.len() as u32);
        println!("SVG: {:.4} ms per diagram ({rounds} rounds)", ms(per));
        return Ok(());
    }
    let analyze_per_diagram = time_analyze(&sources, Duration::from_secs(1));
    println!(
        "analyze only (parse + lower, for reference): {:.3} ms per diagram",
        ms(analyze_per_diagram)
    );
    let svg_per_diagram = time_corpus(&sources, Format::Svg, Duration::from_secs(3));
    println!(
        "SVG: {:.3} ms per diagram ({:.0} diagrams/s)",
        ms(svg_per_diagram),
        1.0 / svg_per_diagram.as_secs_f64()
    );
    let svg_parallel = time_corpus_parallel(&sources, 20);
    println!(
        "SVG on all cores (as `puml render DIR` runs): {:.3} ms per diagram ({:.0} diagrams/s)",
        ms(svg_parallel),
        1.0 / svg_parallel.as_secs_f64()
    );
    let png_per_diagram = time_corpus(&sources, Format::Png, Duration::from_secs(1));
    println!(
        "PNG: {:.3} ms per diagram ({:.0} diagrams/s)",
        ms(png_per_diagram),
        1.0 / png_per_diagram.as_secs_f64()
    );

    let t5000 = time_big(5_000, 9)?;
    println!(
        "5,000-message diagram (analyze + layout + SVG): {:.2} ms (target < 50 ms)",
        ms(t5000)
    );
    let t1k = time_big(1_000, 21)?;
    let t10k = time_big(10_000, 9)?;
    println!(
        "linearity: 1,000 messages {:.2} ms, 10,000 messages {:.2} ms, ratio {:.2}x (target <= 11x)",
        ms(t1k),
        ms(t10k),
        t10k.as_secs_f64() / t1k.as_secs_f64()
    );

    let jar = if args.iter().any(|a| a == "--no-plantuml") {
        None
    } else {
        corpus::plantuml_jar()
    };
    if !args.iter().any(|a| a == "--no-kinds") {
        kinds(&dir, jar.as_deref());
    }
    if args.iter().any(|a| a == "--no-plantuml") {
        return Ok(());
    }
    match jar {
        None => println!("PlantUML: jar not installed (plantuml-oracle --install), no ratio"),
        Some(jar) => {
            let files: Vec<&Path> = sources.iter().map(|(p, _)| p.as_path()).collect();
            match plantuml_time(&jar, &files, Some(1)) {
                Ok(per) => println!(
                    "PlantUML -tsvg: {:.1} ms per diagram (one JVM for the whole corpus) -> puml SVG is {:.0}x faster (target >= 200x; {:.0}x on all cores)",
                    ms(per),
                    per.as_secs_f64() / svg_per_diagram.as_secs_f64(),
                    per.as_secs_f64() / svg_parallel.as_secs_f64()
                ),
                Err(e) => println!("PlantUML: {e}"),
            }
            // What a user running PlantUML once per file pays (JVM start included).
            if let Some(first) = files.first() {
                match plantuml_time(&jar, &[first], Some(1)) {
                    Ok(t) => println!(
                        "PlantUML -tsvg, one JVM per file: {:.0} ms -> puml SVG is {:.0}x faster per invocation",
                        ms(t),
                        t.as_secs_f64() / svg_per_diagram.as_secs_f64()
                    ),
                    Err(e) => println!("PlantUML single file: {e}"),
                }
            }
            let big = std::env::temp_dir().join(format!("puml-bench-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&big);
            let big_file = big.join("big5000.puml");
            if std::fs::write(&big_file, big_diagram(5_000)).is_ok() {
                match plantuml_time(&jar, &[big_file.as_path()], Some(1)) {
                    Ok(t) => println!(
                        "PlantUML -tsvg 5,000 messages: {:.0} ms -> puml is {:.0}x faster",
                        ms(t),
                        t.as_secs_f64() / t5000.as_secs_f64()
                    ),
                    Err(e) => println!("PlantUML 5,000 messages: {e}"),
                }
            }
            let _ = std::fs::remove_dir_all(&big);
            // Into the temporary directory (a disk here), then into a
            // memory file system when there is one: the two show how much
            // of the figure is the disk's inode allocator, not either tool.
            let tmpfs = Path::new("/dev/shm");
            let mut parents = vec![("the temporary directory", std::env::temp_dir())];
            if tmpfs.is_dir() {
                parents.push(("a tmpfs (/dev/shm)", tmpfs.to_path_buf()));
            }
            for (place, parent) in parents {
                match whole_process(&jar, &files, &parent) {
                    Ok(whole) => println!(
                        "whole process, {} files to SVG files in a new directory under {place}: `puml render --out-dir` {:.0} ms, PlantUML `-tsvg -o` (one JVM, its default threads) {:.0} ms -> puml is {:.0}x faster (target >= 100x); over its previous outputs {:.0} ms ({:.0}x)",
                        files.len(),
                        ms(whole.fresh),
                        ms(whole.plantuml),
                        whole.plantuml.as_secs_f64() / whole.fresh.as_secs_f64(),
                        ms(whole.over_previous),
                        whole.plantuml.as_secs_f64() / whole.over_previous.as_secs_f64()
                    ),
                    Err(e) => println!("whole process under {place}: {e}"),
                }
            }
        }
    }
    Ok(())
}

/// The corpora of the other diagram kinds, beside the sequence corpus
/// (`../shared/corpus-class`, …), in the order they are reported.
const KIND_CORPORA: &[&str] = &["corpus-activity", "corpus-class", "corpus-description", "corpus-state"];

/// Activity diagrams, class diagrams, and the corpus as a whole (every
/// kind), in process against PlantUML (with Graphviz `dot` for the class
/// diagrams) on the same files in the same run (one JVM, one thread, as for
/// the sequence figure); then the layout engine's time against size
/// (`bench-layout`'s curve).
fn kinds(sequence_dir: &Path, jar: Option<&Path>) {
    let Some(shared) = sequence_dir.parent() else { return };
    let load = |name: &str| -> Vec<(PathBuf, String)> {
        corpus::load(&shared.join(name))
            .unwrap_or_default()
            .iter()
            .filter(|e| e.valid)
            .filter_map(|e| std::fs::read_to_string(&e.source).ok().map(|t| (e.source.clone(), t)))
            .collect()
    };
    let sequence = load(sequence_dir.file_name().and_then(|n| n.to_str()).unwrap_or("corpus"));
    let mut whole = sequence.clone();
    let mut class = Vec::new();
    let mut activity = Vec::new();
    for name in KIND_CORPORA {
        let sources = load(name);
        match *name {
            "corpus-class" => class = sources.clone(),
            "corpus-activity" => activity = sources.clone(),
            _ => {}
        }
        whole.extend(sources);
    }
    for (label, target, sources) in [
        ("activity diagrams", 200.0, &activity),
        ("class diagrams", 200.0, &class),
        ("the corpus as a whole", 100.0, &whole),
    ] {
        if sources.is_empty() {
            println!("{label}: no corpus found beside {}", sequence_dir.display());
            continue;
        }
        let puml = time_corpus(sources, Format::Svg, Duration::from_secs(3));
        let line = format!(
            "{label} ({} diagrams): puml SVG in process {:.3} ms per diagram",
            sources.len(),
            ms(puml)
        );
        let files: Vec<&Path> = sources.iter().map(|(p, _)| p.as_path()).collect();
        match jar.map(|jar| plantuml_time(jar, &files, Some(1))) {
            Some(Ok(per)) => println!(
                "{line}; PlantUML -tsvg {:.1} ms per diagram -> puml is {:.0}x faster (target >= {target:.0}x)",
                ms(per),
                per.as_secs_f64() / puml.as_secs_f64()
            ),
            Some(Err(e)) => println!("{line}; PlantUML: {e}"),
            None => println!("{line}; PlantUML not run, no ratio"),
        }
    }
    println!("layout time against size (class-like graphs, `cargo xtask bench-layout`):");
    if let Err(e) = crate::bench_layout::run(&[]) {
        println!("bench-layout: {e}");
    }
}

/// What a user pays to turn the corpus into SVG files with one command:
/// `puml render --out-dir` (fastest of 5 runs, the process and its writes
/// included) against PlantUML `-tsvg -o` over the same files in one JVM.
///
/// Each run writes into a directory of its own, as a first build does, and
/// the directories are removed after the last run. Removing them between
/// runs would time the file system instead: ext4 without a journal (this
/// machine's disk) will not reuse an inode freed a few seconds ago, and
/// checks every recently freed one before it picks a free inode, so a
/// render right after `rm -rf` of its previous outputs pays for that scan
/// in every file it creates. The third figure is a re-render over the
/// previous run's outputs (each rename frees the replaced file's inode).
fn whole_process(jar: &Path, files: &[&Path], parent: &Path) -> Result<WholeProcess, String> {
    let puml = corpus::build_release_binary(&corpus::workspace_root(), "puml")?;
    let runs_dir = parent.join(format!("puml-bench-whole-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&runs_dir);
    let render_into = |out_dir: &Path| -> Result<Duration, String> {
        let start = Instant::now();
        let output = Command::new(&puml)
            .arg("render")
            .arg("--out-dir")
            .arg(out_dir)
            .args(files)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", puml.display()))?;
        let elapsed = start.elapsed();
        if !output.status.success() {
            return Err(format!(
                "puml render failed: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(elapsed)
    };
    let mut fresh = Duration::MAX;
    let mut over_previous = Duration::MAX;
    let measured = (|| {
        for run in 0..5 {
            fresh = fresh.min(render_into(&runs_dir.join(format!("run-{run}")))?);
        }
        for _ in 0..5 {
            over_previous = over_previous.min(render_into(&runs_dir.join("run-0"))?);
        }
        Ok::<(), String>(())
    })();
    let _ = std::fs::remove_dir_all(&runs_dir);
    measured?;
    let plantuml = plantuml_time_into(jar, files, None, parent)? * files.len() as u32;
    Ok(WholeProcess {
        fresh,
        over_previous,
        plantuml,
    })
}

/// [`whole_process`]'s figures: puml into a new directory, puml over its
/// previous outputs, and PlantUML into a new directory.
struct WholeProcess {
    fresh: Duration,
    over_previous: Duration,
    plantuml: Duration,
}

/// SVG over the corpus on every core; time per diagram.
fn time_corpus_parallel(sources: &[(PathBuf, String)], rounds: u32) -> Duration {
    let (per_diagram, _) = crate::corpus::time_on_all_cores(sources, rounds, |path, text| {
        let options = RenderOptions {
            format: Format::Svg,
            check: CheckOptions {
                file_path: Some(path.to_path_buf()),
                ..CheckOptions::default()
            },
            ..RenderOptions::default()
        };
        let _ = std::hint::black_box(render_source(text, &options, &FsLoader));
    });
    per_diagram
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn time_analyze(sources: &[(PathBuf, String)], budget: Duration) -> Duration {
    let start = Instant::now();
    let mut count = 0u32;
    while start.elapsed() < budget || count == 0 {
        for (path, text) in sources {
            let options = puml_sema::AnalysisOptions {
                file_path: Some(path.clone()),
                ..puml_sema::AnalysisOptions::default()
            };
            std::hint::black_box(puml_sema::analyze(text, &options, &FsLoader));
            count += 1;
        }
    }
    start.elapsed() / count.max(1)
}

/// Mean time per diagram, looping over the corpus for at least `budget`.
fn time_corpus(sources: &[(PathBuf, String)], format: Format, budget: Duration) -> Duration {
    let start = Instant::now();
    let mut rendered = 0u32;
    let mut failed = 0u32;
    loop {
        for (path, text) in sources {
            let options = RenderOptions {
                format,
                check: CheckOptions {
                    file_path: Some(path.clone()),
                    ..CheckOptions::default()
                },
                ..RenderOptions::default()
            };
            match render_source(text, &options, &FsLoader) {
                Ok(pages) => {
                    std::hint::black_box(pages);
                }
                Err(_) if rendered < sources.len() as u32 => failed += 1,
                Err(_) => {}
            }
            rendered += 1;
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    if failed > 0 {
        println!("  ({failed} diagram(s) refused: puml reports errors in them)");
    }
    start.elapsed() / rendered.max(1)
}

/// A diagram with `messages` messages among 10 participants, with notes,
/// activations and groups sprinkled in.
pub fn big_diagram(messages: usize) -> String {
    let mut s = String::from("@startuml\n");
    for p in 0..10 {
        s.push_str(&format!("participant P{p}\n"));
    }
    for i in 0..messages {
        let from = i % 10;
        let to = (i * 7 + 3) % 10;
        let to = if to == from { (to + 1) % 10 } else { to };
        if i % 100 == 0 {
            s.push_str("group batch\n");
        }
        s.push_str(&format!("P{from} -> P{to} : message {i}\n"));
        if i % 50 == 25 {
            s.push_str(&format!("note right of P{to} : note {i}\n"));
        }
        if i % 100 == 99 {
            s.push_str("end\n");
        }
    }
    if !messages.is_multiple_of(100) {
        s.push_str("end\n");
    }
    s.push_str("@enduml\n");
    s
}

/// Fastest of `runs` timings of analyze + layout + SVG (the minimum is the
/// least disturbed by other work on a shared machine).
fn time_big(messages: usize, runs: usize) -> Result<Duration, String> {
    let text = big_diagram(messages);
    let options = RenderOptions::default();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let pages = render_source(&text, &options, &NoIncludes).map_err(|e| format!("{messages} messages: {e}"))?;
        times.push(start.elapsed());
        std::hint::black_box(pages);
    }
    times.sort();
    Ok(times[0])
}

/// PlantUML `-tsvg` over `files` in one JVM (`threads`: its `-nbthread`,
/// `None` for its default); returns the mean per file.
fn plantuml_time(jar: &Path, files: &[&Path], threads: Option<usize>) -> Result<Duration, String> {
    plantuml_time_into(jar, files, threads, &std::env::temp_dir())
}

/// [`plantuml_time`] writing into a new directory under `parent`.
fn plantuml_time_into(jar: &Path, files: &[&Path], threads: Option<usize>, parent: &Path) -> Result<Duration, String> {
    let out_dir = parent.join(format!("puml-bench-out-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut java = Command::new("java");
    java.arg("-Djava.awt.headless=true").arg("-jar").arg(jar).arg("-tsvg");
    if let Some(n) = threads {
        java.arg("-nbthread").arg(n.to_string());
    }
    let status = java
        .arg("-o")
        .arg(&out_dir)
        .args(files)
        .output()
        .map_err(|e| format!("cannot run java: {e}"))?;
    let elapsed = start.elapsed();
    let _ = std::fs::remove_dir_all(&out_dir);
    if !status.status.success() && status.stdout.is_empty() && status.stderr.len() > 10_000 {
        return Err("PlantUML failed".into());
    }
    Ok(elapsed / files.len().max(1) as u32)
}
