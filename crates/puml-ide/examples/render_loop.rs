//! Renders the valid diagrams of one or more corpora to SVG, ROUNDS times
//! (a profiling aid): the same call `cargo xtask bench-render` times, over a
//! fixed amount of work, so that an instruction count (`valgrind
//! --tool=callgrind`, `perf stat -e instructions`) divided by the printed
//! number of renders is a per-diagram cost the machine's load does not
//! disturb.
//!
//! `cargo run --release -p puml-ide --example render_loop -- ROUNDS DIR...`
//!
//! With `RENDER_LOOP_DUMP=OUTDIR` set, the first round's SVG pages are also
//! written there (`N.P.svg`, N counting diagrams over all the corpora): two
//! builds' dumps compared with `diff -r` show whether a change moved any
//! picture.
// The allocator the bench (and every puml binary) runs with: its
// instruction counts are the bench's.
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

use puml_ide::check::CheckOptions;
use puml_ide::render::{render_source, Format, RenderOptions};
use puml_sema::FsLoader;
use std::path::{Path, PathBuf};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let dirs: Vec<String> = args.collect();
    let dirs = if dirs.is_empty() {
        vec!["../shared/corpus".to_string()]
    } else {
        dirs
    };
    let mut sources = Vec::new();
    for dir in &dirs {
        sources.extend(valid_sources(Path::new(dir)));
    }
    let dump = std::env::var_os("RENDER_LOOP_DUMP").map(PathBuf::from);
    let start = std::time::Instant::now();
    let mut count = 0usize;
    for round in 0..rounds {
        for (index, (path, text)) in sources.iter().enumerate() {
            let options = RenderOptions {
                format: Format::Svg,
                check: CheckOptions {
                    file_path: Some(path.clone()),
                    ..CheckOptions::default()
                },
                ..RenderOptions::default()
            };
            let rendered = std::hint::black_box(render_source(text, &options, &FsLoader));
            if let (Some(dir), 0, Ok(pages)) = (&dump, round, &rendered) {
                for (page, rendered) in pages.iter().enumerate() {
                    let _ = std::fs::write(dir.join(format!("{index}.{page}.svg")), &rendered.bytes);
                }
            }
            count += 1;
        }
    }
    println!(
        "{count} renders ({} diagrams x {rounds}), {:.3} ms per diagram",
        sources.len(),
        start.elapsed().as_secs_f64() * 1e3 / count.max(1) as f64
    );
}

/// The diagrams MANIFEST.tsv marks VALID (as the bench reads them); every
/// `.puml` file of the directory when there is no manifest.
fn valid_sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let paths: Vec<PathBuf> = match std::fs::read_to_string(dir.join("MANIFEST.tsv")) {
        Ok(manifest) => manifest
            .lines()
            .skip(1)
            .map(|line| line.split('\t').collect::<Vec<_>>())
            .filter(|cols| cols.len() >= 7 && cols[5] == "VALID")
            .map(|cols| dir.join(format!("{}.puml", cols[0])))
            .collect(),
        Err(_) => {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "puml"))
                .collect();
            paths.sort();
            paths
        }
    };
    paths
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect()
}
