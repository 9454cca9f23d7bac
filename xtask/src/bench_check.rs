//! `cargo xtask bench-check`: `check` throughput over the corpus
//! (diagrams/s, MB/s), the time to new diagnostics after a one-character
//! edit in a generated 5,000-line diagram through the salsa database, and —
//! when the PlantUML jar is installed — PlantUML's `-syntax` (one diagram
//! per run, as that option works) and `-checkonly` (all files in one JVM)
//! on the same files in the same run, as ratios; and the whole `puml check`
//! process on a one-message diagram against `/bin/true` (what a tool that
//! runs puml once per diagram pays), for this build's `puml` and, with
//! `--puml-before PATH`, a previous build, interleaved in the same run. A
//! benchmark: it prints, never fails on figures.

use crate::corpus;
use puml_db::{diagnostics, Config, Database, SourceFile};
use puml_ide::check::{check_source, CheckOptions};
use puml_sema::FsLoader;
use salsa::Setter;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn run(args: &[String]) -> Result<(), String> {
    let dir = corpus::corpus_dir(args);
    let entries = corpus::load(&dir)?;
    let sources: Vec<(PathBuf, String)> = entries
        .iter()
        .filter_map(|e| std::fs::read_to_string(&e.source).ok().map(|t| (e.source.clone(), t)))
        .collect();
    if sources.is_empty() {
        return Err(format!("no diagrams in {}", dir.display()));
    }
    let bytes: usize = sources.iter().map(|(_, t)| t.len()).sum();
    println!(
        "corpus: {} diagrams, {:.1} KB, from {}",
        sources.len(),
        bytes as f64 / 1024.0,
        dir.display()
    );

    // Cold check of every file, repeated for about two seconds.
    let start = Instant::now();
    let mut rounds = 0u32;
    while start.elapsed() < Duration::from_secs(2) || rounds == 0 {
        for (path, text) in &sources {
            let options = CheckOptions {
                file_path: Some(path.clone()),
                ..Default::default()
            };
            std::hint::black_box(check_source(text, &options, &FsLoader));
        }
        rounds += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let diagrams = sources.len() as f64 * rounds as f64;
    let per_diagram = elapsed / diagrams;
    println!(
        "puml check: {:.0} diagrams/s, {:.1} MB/s ({:.3} ms per diagram, {rounds} rounds)",
        diagrams / elapsed,
        bytes as f64 * rounds as f64 / elapsed / 1e6,
        per_diagram * 1e3
    );

    let parallel_per_diagram = parallel_throughput(&sources, bytes);

    incremental();

    process_start(args)?;

    if args.iter().any(|a| a == "--no-plantuml") {
        return Ok(());
    }
    let Some(jar) = corpus::plantuml_jar() else {
        println!("PlantUML jar not installed (../shared/tools/plantuml-oracle --install): no ratio");
        return Ok(());
    };
    // `-syntax` (the baseline the issue names) reads one diagram from
    // stdin, so each diagram costs a JVM: timed on an even sample.
    if let Some(syntax_per_diagram) = plantuml_syntax(&jar, &sources, SYNTAX_SAMPLE) {
        println!(
            "PlantUML -syntax (one diagram per run, {SYNTAX_SAMPLE} sampled): {:.1} ms per diagram",
            syntax_per_diagram * 1e3
        );
        println!(
            "ratio vs -syntax: puml check is {:.0}x PlantUML's throughput (target >= 500x)",
            syntax_per_diagram / per_diagram
        );
    }
    // The stricter comparison: every file in one warm JVM.
    if let Some(batch_per_diagram) = plantuml_checkonly(&jar, &sources) {
        println!(
            "PlantUML -checkonly (one JVM for all files, start-up included): {:.3} ms per diagram",
            batch_per_diagram * 1e3
        );
        println!(
            "ratio vs -checkonly batch: puml check is {:.0}x PlantUML's throughput ({:.0}x on all cores)",
            batch_per_diagram / per_diagram,
            batch_per_diagram / parallel_per_diagram
        );
    }
    Ok(())
}

const SYNTAX_SAMPLE: usize = 12;

/// Runs of each process in the start-up comparison.
const START_RUNS: usize = 400;

/// The one-diagram `puml check` process against `/bin/true`, interleaved
/// so that the machine's load falls on all of them alike: median wall time
/// of each, and puml's excess over `/bin/true` (target: at most 1 ms).
/// `--puml PATH` picks the binary (default: `puml` beside this xtask, the
/// release build), `--puml-before PATH` adds a previous build.
fn process_start(args: &[String]) -> Result<(), String> {
    let here = std::env::current_exe().map_err(|e| e.to_string())?;
    let puml = corpus::flag_value(args, "--puml")
        .map(PathBuf::from)
        .unwrap_or_else(|| here.with_file_name("puml"));
    if !puml.exists() {
        println!(
            "process start: no {} (cargo build --release --bin puml, or --puml PATH)",
            puml.display()
        );
        return Ok(());
    }
    let diagram = std::env::temp_dir().join(format!("puml-bench-start-{}.puml", std::process::id()));
    std::fs::write(&diagram, "@startuml\nAlice -> Bob : hello\n@enduml\n").map_err(|e| e.to_string())?;
    let mut contenders: Vec<(String, Vec<String>)> = vec![("/bin/true".into(), vec!["/bin/true".into()])];
    let check = |bin: &Path| vec![bin.display().to_string(), "check".into(), diagram.display().to_string()];
    contenders.push(("puml check".into(), check(&puml)));
    if let Some(before) = corpus::flag_value(args, "--puml-before") {
        contenders.push(("puml check (before)".into(), check(Path::new(before))));
    }
    for (name, argv) in &contenders[1..] {
        let status = Command::new(&argv[0])
            .args(&argv[1..])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("{name}: {e}"))?;
        if !status.success() {
            let _ = std::fs::remove_file(&diagram);
            return Err(format!("{name} failed on the one-message diagram"));
        }
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(START_RUNS); contenders.len()];
    for _ in 0..START_RUNS {
        for (argv, times) in contenders.iter().map(|(_, argv)| argv).zip(samples.iter_mut()) {
            let start = Instant::now();
            let status = Command::new(&argv[0])
                .args(&argv[1..])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            times.push(start.elapsed());
            if status.is_err() {
                break;
            }
        }
    }
    let _ = std::fs::remove_file(&diagram);
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|times| {
            times.sort();
            times[times.len() / 2].as_secs_f64() * 1e3
        })
        .collect();
    let baseline = medians[0];
    println!("process start ({START_RUNS} interleaved runs each, median): /bin/true {baseline:.3} ms");
    for ((name, argv), median) in contenders.iter().zip(&medians).skip(1) {
        println!(
            "  {name}, one-message diagram: {median:.3} ms, {:.3} ms beyond /bin/true (target <= 1 ms; {})",
            median - baseline,
            linkage(Path::new(&argv[0]))
        );
    }
    Ok(())
}

/// How an ELF executable is linked, as far as start-up goes: whether the
/// dynamic loader runs (a `PT_INTERP` program header) and whether the
/// binary is position-independent (`ET_DYN`). The shipped `puml` on
/// x86_64 Linux is static (scripts/static-bins.sh); `cargo build` makes a
/// dynamic one, slower to start.
fn linkage(binary: &Path) -> &'static str {
    const PT_INTERP: u32 = 3;
    const ET_DYN: u16 = 3;
    let Ok(bytes) = std::fs::read(binary) else {
        return "linkage unknown";
    };
    let u16_at = |at: usize| bytes.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let u64_at = |at: usize| {
        bytes
            .get(at..at + 8)
            .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    };
    // Only 64-bit little-endian ELF is read; anything else is not judged.
    if !bytes.starts_with(b"\x7fELF\x02\x01") {
        return "linkage unknown";
    }
    let (Some(kind), Some(table), Some(entry_size), Some(entries)) = (u16_at(16), u64_at(32), u16_at(54), u16_at(56))
    else {
        return "linkage unknown";
    };
    let interpreted =
        (0..usize::from(entries)).any(|i| u32_at(table as usize + i * usize::from(entry_size)) == Some(PT_INTERP));
    match (interpreted, kind == ET_DYN) {
        (false, false) => "static executable",
        (false, true) => "static position-independent executable",
        (true, false) => "dynamically linked; scripts/static-bins.sh links it statically",
        (true, true) => "dynamically linked, position-independent",
    }
}

fn plantuml_syntax(jar: &Path, sources: &[(PathBuf, String)], sample: usize) -> Option<f64> {
    let step = (sources.len() / sample).max(1);
    let picked: Vec<&(PathBuf, String)> = sources.iter().step_by(step).take(sample).collect();
    let start = Instant::now();
    for (_, text) in &picked {
        let mut child = Command::new("java")
            .arg("-Djava.awt.headless=true")
            .arg("-jar")
            .arg(jar)
            .arg("-syntax")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        child.stdin.take()?.write_all(text.as_bytes()).ok()?;
        child.wait().ok()?;
    }
    Some(start.elapsed().as_secs_f64() / picked.len().max(1) as f64)
}

/// The same cold checks spread over every core, as `puml check DIR` runs
/// them. Returns seconds per diagram.
fn parallel_throughput(sources: &[(PathBuf, String)], bytes: usize) -> f64 {
    let rounds = 40u32;
    let (per_diagram, workers) = corpus::time_on_all_cores(sources, rounds, |path, text| {
        let options = CheckOptions {
            file_path: Some(path.to_path_buf()),
            ..Default::default()
        };
        std::hint::black_box(check_source(text, &options, &FsLoader));
    });
    let per_diagram = per_diagram.as_secs_f64();
    let mean_bytes = bytes as f64 / sources.len().max(1) as f64;
    println!(
        "puml check on {workers} cores: {:.0} diagrams/s, {:.1} MB/s ({:.3} ms per diagram)",
        1.0 / per_diagram,
        mean_bytes / per_diagram / 1e6,
        per_diagram * 1e3
    );
    per_diagram
}

/// A generated 5,000-line diagram; one character of a label changes per
/// iteration and the new diagnostics are read from the database.
fn incremental() {
    let mut text = String::from("@startuml\nparticipant Client\nparticipant Server\n");
    let mut line = 3;
    let mut group_open = false;
    while line < 4_998 {
        if line % 50 == 0 {
            if group_open {
                text.push_str("end\n");
            } else {
                text.push_str("alt branch\n");
            }
            group_open = !group_open;
        } else {
            text.push_str(&format!("Client -> Server : request {line}\n"));
        }
        line += 1;
    }
    if group_open {
        text.push_str("end\n");
    }
    text.push_str("@enduml\n");
    let lines = text.lines().count();
    let mut db = Database::default();
    let file = SourceFile::new(&db, None, text.clone().into());
    let config = Config::new(&db, None, false, None);
    let cold = Instant::now();
    let count = diagnostics(&db, file, config).len();
    let cold = cold.elapsed();
    let target = text.find("request 2501").unwrap_or(text.len() / 2) + "request ".len();
    let mut samples = Vec::new();
    for i in 0..50 {
        let digit = char::from(b'0' + (i % 10) as u8);
        let mut edited = text.clone();
        edited.replace_range(target..target + 1, &digit.to_string());
        let start = Instant::now();
        file.set_text(&mut db).to(edited.into());
        std::hint::black_box(diagnostics(&db, file, config).len());
        samples.push(start.elapsed());
    }
    samples.sort();
    let median = samples[samples.len() / 2];
    println!(
        "incremental: {lines}-line diagram, cold {:.2} ms ({count} diagnostics); one-character edit → new diagnostics: median {:.3} ms, max {:.3} ms (target <= 1 ms); {:.1}x faster than cold (target >= 20x)",
        cold.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        samples.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        cold.as_secs_f64() / median.as_secs_f64().max(1e-9),
    );
}

fn plantuml_checkonly(jar: &Path, sources: &[(PathBuf, String)]) -> Option<f64> {
    let start = Instant::now();
    let status = Command::new("java")
        .arg("-Djava.awt.headless=true")
        .arg("-jar")
        .arg(jar)
        .arg("-checkonly")
        .args(sources.iter().map(|(p, _)| p))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    let _ = status;
    Some(start.elapsed().as_secs_f64() / sources.len() as f64)
}
