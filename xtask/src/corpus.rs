//! The shared corpus: `NNN.puml` beside PlantUML's `NNN.plantuml.svg`
//! (or `NNN.plantuml.1.svg`, `.2.svg`, … for several pages), and
//! `MANIFEST.tsv` with PlantUML's verdict and the features used.

use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone)]
pub struct Entry {
    pub id: String,
    pub source: PathBuf,
    /// PlantUML's SVG pages, in order.
    pub plantuml_svgs: Vec<PathBuf>,
    pub valid: bool,
    pub features: String,
    pub lines: usize,
}

/// `--corpus DIR` or the default `../shared/corpus` (relative to the workspace).
pub fn corpus_dir(args: &[String]) -> PathBuf {
    flag_value(args, "--corpus")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/corpus"))
}

pub fn flag_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// Builds the release binary `name` of the workspace and returns its path.
pub fn build_release_binary(root: &Path, name: &str) -> Result<PathBuf, String> {
    let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--quiet", "--bin", name])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --release --bin {name} failed"));
    }
    let target = std::env::var("CARGO_TARGET_DIR").map_or_else(|_| root.join("target"), PathBuf::from);
    Ok(target.join("release").join(name))
}

pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

pub fn load(dir: &Path) -> Result<Vec<Entry>, String> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv"))
        .map_err(|e| format!("cannot read {}/MANIFEST.tsv: {e}", dir.display()))?;
    let mut entries = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 7 {
            continue;
        }
        let id = cols[0].to_string();
        let source = dir.join(format!("{id}.puml"));
        if !source.exists() {
            continue;
        }
        let mut plantuml_svgs = Vec::new();
        let single = dir.join(format!("{id}.plantuml.svg"));
        if single.exists() {
            plantuml_svgs.push(single);
        } else {
            for page in 1.. {
                let p = dir.join(format!("{id}.plantuml.{page}.svg"));
                if !p.exists() {
                    break;
                }
                plantuml_svgs.push(p);
            }
        }
        entries.push(Entry {
            id,
            source,
            plantuml_svgs,
            valid: cols[5] == "VALID",
            features: cols[4].to_string(),
            lines: cols[6].parse().unwrap_or(0),
        });
    }
    Ok(entries)
}

/// What PlantUML drew: canvas size and every text string.
pub struct PlantumlSvg {
    pub width: f64,
    pub height: f64,
    pub texts: Vec<String>,
}

pub fn read_plantuml_svg(path: &Path) -> Result<PlantumlSvg, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc =
        roxmltree::Document::parse_with_options(&text, options).map_err(|e| format!("{}: {e}", path.display()))?;
    let root = doc.root_element();
    let dim = |name: &str| {
        root.attribute(name)
            .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            normalize(
                &n.descendants()
                    .filter(|d| d.is_text())
                    .filter_map(|d| d.text())
                    .collect::<String>(),
            )
        })
        .filter(|t| !t.is_empty())
        .collect();
    Ok(PlantumlSvg {
        width: dim("width"),
        height: dim("height"),
        texts,
    })
}

/// Collapses whitespace (including NBSP) so both sides compare equal.
pub fn normalize(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c == '\u{a0}')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `work` over every source `rounds` times, the sources spread over
/// all cores; returns the wall time per source processed and the number
/// of cores used.
pub fn time_on_all_cores(
    sources: &[(PathBuf, String)],
    rounds: u32,
    work: impl Fn(&Path, &str) + Sync,
) -> (std::time::Duration, usize) {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let work = &work;
            scope.spawn(move || {
                for _ in 0..rounds {
                    for (path, text) in sources.iter().skip(worker).step_by(workers) {
                        work(path, text);
                    }
                }
            });
        }
    });
    let processed = (sources.len() as u32 * rounds).max(1);
    (start.elapsed() / processed, workers)
}

/// The PlantUML jar: `PLANTUML_JAR`, or the one `plantuml-oracle` installed.
pub fn plantuml_jar() -> Option<PathBuf> {
    if let Ok(jar) = std::env::var("PLANTUML_JAR") {
        let p = PathBuf::from(jar);
        return p.exists().then_some(p);
    }
    let oracle = workspace_root().join("../shared/tools/plantuml-oracle");
    let out = Command::new(oracle).arg("jar").output().ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let p = PathBuf::from(path);
    (out.status.success() && p.exists()).then_some(p)
}
