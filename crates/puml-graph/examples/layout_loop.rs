//! Lays out the graphs of `test-data/graph` (`class-*.dot` unless other
//! files are named) ROUNDS times: a profiling aid for the engine alone
//! (`valgrind --tool=callgrind`), with none of the renderer around it, so
//! that a build of this crate with line tables attributes instructions to
//! lines.
//!
//! `cargo run --release -p puml-graph --example layout_loop -- ROUNDS [FILE.dot...]`
//!
//! With `LAYOUT_LOOP_DUMP=FILE` set, the first round's layouts are written
//! there (`{:?}`), so that two builds can be compared byte for byte.

// The allocator every puml binary runs with: its instruction counts are
// the tools'.
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

#[allow(dead_code)]
#[path = "../tests/support/dot.rs"]
mod dot;

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let mut files: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if files.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/graph");
        files = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "dot")
                    && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("class-"))
            })
            .collect();
        files.sort();
    }
    let graphs: Vec<puml_graph::Graph> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|text| dot::read_dot(&text).graph)
        .collect();
    let mut dump = String::new();
    let start = std::time::Instant::now();
    for round in 0..rounds {
        for graph in &graphs {
            let laid = std::hint::black_box(puml_graph::layout(graph));
            if round == 0 {
                dump.push_str(&format!("{laid:?}\n"));
            }
        }
    }
    println!(
        "{} layouts ({} graphs x {rounds}), {:.3} ms per layout",
        graphs.len() * rounds,
        graphs.len(),
        start.elapsed().as_secs_f64() * 1e3 / (graphs.len() * rounds).max(1) as f64
    );
    if let Some(path) = std::env::var_os("LAYOUT_LOOP_DUMP") {
        let _ = std::fs::write(path, dump);
    }
}
