//! Renders every corpus diagram to SVG in a loop (a profiling aid).
use puml_ide::render::{render_source, RenderOptions};
use puml_sema::NoIncludes;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/corpus".into());
    let mut sources = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "puml") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                sources.push(text);
            }
        }
    }
    let start = std::time::Instant::now();
    let mut count = 0usize;
    for _ in 0..40 {
        for text in &sources {
            let _ = std::hint::black_box(render_source(text, &RenderOptions::default(), &NoIncludes));
            count += 1;
        }
    }
    println!(
        "{:.3} ms per diagram",
        start.elapsed().as_secs_f64() * 1e3 / count as f64
    );
}
