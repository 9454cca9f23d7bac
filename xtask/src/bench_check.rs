//! `cargo xtask bench-check`: `check` throughput over the corpus
//! (diagrams/s, MB/s), the time to new diagnostics after a one-character
//! edit in a generated 5,000-line diagram through the salsa database, and —
//! when the PlantUML jar is installed — PlantUML's `-syntax` (one diagram
//! per run, as that option works) and `-checkonly` (all files in one JVM)
//! on the same files in the same run, as ratios. A benchmark: it prints, never fails
//! on figures.

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
