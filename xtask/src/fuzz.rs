//! `cargo xtask fuzz`: the fuzz test of `cargo test` for longer, with
//! a fresh seed each run; failing inputs are written to `test-data/fuzz/`,
//! where `cargo test` replays them from then on.

use puml_ide::fuzz::{self, Budget};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const USAGE: &str = "usage: cargo xtask fuzz [--minutes N] [--seed S] [--timeout SECONDS]";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn diagram_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            diagram_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "puml") {
            out.push(path);
        }
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut minutes = 1.0_f64;
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    let mut timeout = Duration::from_secs(10);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--minutes" => minutes = value()?.parse().map_err(|_| format!("bad --minutes\n{USAGE}"))?,
            "--seed" => seed = value()?.parse().map_err(|_| format!("bad --seed\n{USAGE}"))?,
            "--timeout" => {
                timeout = Duration::from_secs_f64(value()?.parse().map_err(|_| format!("bad --timeout\n{USAGE}"))?)
            }
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    let root = repo_root();
    let mut files = Vec::new();
    diagram_files(&root.join("../shared/corpus"), &mut files);
    diagram_files(&root.join("test-data"), &mut files);
    let seeds: Vec<String> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|t| t.len() < 16_000)
        .collect();
    if seeds.is_empty() {
        return Err("no seed diagrams found (../shared/corpus, test-data)".into());
    }
    println!(
        "fuzz: seed {seed}, {minutes} min, {} seed diagrams (replay a run with --seed)",
        seeds.len()
    );
    let shards = std::thread::available_parallelism().map_or(1, |n| n.get());
    let report = fuzz::run(
        &seeds,
        seed,
        shards,
        Budget::Time(Duration::from_secs_f64(minutes * 60.0)),
        timeout,
    );
    let out_dir = root.join("test-data/fuzz");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    for failure in &report.failures {
        let name = fuzz::failure_file_name(&failure.input);
        let path = if failure.needs_steps() {
            // The editor's path: the seed and the text after each edit.
            let dir = out_dir.join("edits").join(name.trim_end_matches(".input"));
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for (i, text) in failure.steps.iter().enumerate() {
                let step = dir.join(format!("step-{i}.input"));
                std::fs::write(&step, text).map_err(|e| format!("{}: {e}", step.display()))?;
            }
            dir
        } else {
            let path = out_dir.join(name);
            std::fs::write(&path, &failure.input).map_err(|e| format!("{}: {e}", path.display()))?;
            path
        };
        println!("{}\n  {}", path.display(), failure.problems.join("\n  "));
    }
    println!(
        "fuzz: {} inputs, {} failures, slowest input {:?}",
        report.inputs,
        report.failures.len(),
        report.slowest
    );
    for (i, text) in report.slowest_steps.iter().enumerate() {
        let path = std::env::temp_dir().join(format!("puml-fuzz-slowest-{i}.puml"));
        if std::fs::write(&path, text).is_ok() {
            println!("fuzz: the slowest case, step {i}: {}", path.display());
        }
    }
    if report.failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} failing inputs written to {} (cargo test replays them)",
            report.failures.len(),
            out_dir.display()
        ))
    }
}
