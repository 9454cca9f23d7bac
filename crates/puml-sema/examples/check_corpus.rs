//! Analyzes every file named on the command line ROUNDS times, as
//! `puml check` does in process (`cargo xtask bench-check` times the same
//! work): a fixed workload for `valgrind --tool=callgrind`, whose
//! instruction counts are reproducible on a busy machine.
//!
//! `cargo run --release -p puml-sema --example check_corpus -- ROUNDS FILE…`
use std::path::PathBuf;

// The allocator the CLI and the benches use, so that allocation costs count as they do there.
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let sources: Vec<(PathBuf, String)> = args
        .filter_map(|path| {
            std::fs::read_to_string(&path)
                .ok()
                .map(|text| (PathBuf::from(path), text))
        })
        .collect();
    let mut diagnostics = 0usize;
    for _ in 0..rounds {
        for (path, text) in &sources {
            let options = puml_sema::AnalysisOptions {
                file_path: Some(path.clone()),
                ..Default::default()
            };
            let analysis = puml_sema::analyze(text, &options, &puml_sema::FsLoader);
            diagnostics += std::hint::black_box(analysis).diagnostics.len();
        }
    }
    println!("{} files, {rounds} rounds, {diagnostics} diagnostics", sources.len());
}
