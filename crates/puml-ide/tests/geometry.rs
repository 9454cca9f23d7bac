//! Where puml draws each text, compared with where PlantUML draws it, over
//! `../shared/corpus` (each `NAME.puml` beside PlantUML's `NAME.plantuml.svg`).
//! The same measure as `../shared/tools/geometry-fidelity`: each of
//! PlantUML's texts is matched with the nearest unused text of the same
//! string on puml's first page, and counts as placed when both coordinates
//! are within 2 px. Prints the figures; fails when fewer texts are placed
//! than the level reached, so the layout never silently drifts back.

use puml_ide::check::CheckOptions;
use puml_ide::render::{render_source, RenderOptions};
use puml_sema::FsLoader;
use std::collections::HashMap;
use std::path::Path;

/// Texts placed when the level was last raised (of 9,312; issue 13's goal is 95 %):
/// 9,306 (99.9 %; 152 of 153 diagrams whole) with creole lists (9,303 in
/// the offsets round with corpus 228's reversed notes across boxes; 9,239
/// in the tail2 round, 8,693 before the teoz, latexfonts and tail rounds),
/// less a small margin.
const PLACED_AT_LEAST: usize = 9_295;
const TOLERANCE_PX: f64 = 2.0;

fn texts(svg: &str) -> Vec<(String, f64, f64)> {
    let Ok(doc) = roxmltree::Document::parse(svg) else {
        return Vec::new();
    };
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let text: String = n.descendants().filter_map(|d| d.text()).collect();
            let text = text.replace('\u{a0}', " ").trim().to_string();
            let x = n.attribute("x")?.parse::<f64>().ok()?;
            let y = n.attribute("y")?.parse::<f64>().ok()?;
            (!text.is_empty()).then_some((text, x, y))
        })
        .collect()
}

#[test]
fn texts_land_where_plantuml_draws_them() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let (placed, total) = measure_texts(&corpus);
    readme_figure_is_the_measured_one(100.0 * placed as f64 / total.max(1) as f64);
    assert!(
        placed >= PLACED_AT_LEAST,
        "only {placed} texts placed, fewer than the {PLACED_AT_LEAST} reached before: a layout change moved texts away from PlantUML's positions"
    );
}

// The activity measure (`../shared/corpus-activity`) is
// `crates/puml-compat/tests/activity_geometry.rs`: it measures the picture
// the drop-in draws, an invalid diagram's error picture included.

/// (PlantUML's texts puml places within [`TOLERANCE_PX`], PlantUML's texts)
/// over the diagrams of `corpus`, printed with the diagrams whole.
fn measure_texts(corpus: &Path) -> (usize, usize) {
    let Ok(entries) = std::fs::read_dir(corpus) else {
        panic!(
            "{} is missing: the geometry measure needs PlantUML's SVGs",
            corpus.display()
        );
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    let (mut placed, mut total, mut whole, mut diagrams) = (0, 0, 0, 0);
    for file in files {
        let reference = file.with_extension("plantuml.svg");
        let (Ok(source), Ok(theirs)) = (std::fs::read_to_string(&file), std::fs::read_to_string(&reference)) else {
            continue;
        };
        let theirs: Vec<_> = texts(&theirs)
            .into_iter()
            .filter(|(t, _, _)| !t.starts_with("Please use"))
            .collect();
        if theirs.is_empty() {
            continue;
        }
        let options = RenderOptions {
            page: Some(1),
            check: CheckOptions {
                file_path: Some(file.clone()),
                ..CheckOptions::default()
            },
            ..RenderOptions::default()
        };
        let ours = match render_source(&source, &options, &FsLoader) {
            Ok(pages) => pages
                .first()
                .map(|p| texts(&String::from_utf8_lossy(&p.bytes)))
                .unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        let mut pool: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
        for (t, x, y) in ours {
            pool.entry(t).or_default().push((x, y));
        }
        let mut here = 0;
        for (t, x, y) in &theirs {
            let Some(candidates) = pool.get_mut(t) else { continue };
            let nearest = candidates
                .iter()
                .enumerate()
                .min_by(|a, b| {
                    let da = (a.1 .0 - x).abs() + (a.1 .1 - y).abs();
                    let db = (b.1 .0 - x).abs() + (b.1 .1 - y).abs();
                    da.total_cmp(&db)
                })
                .map(|(i, c)| (i, *c));
            if let Some((i, (cx, cy))) = nearest {
                if (cx - x).abs() <= TOLERANCE_PX && (cy - y).abs() <= TOLERANCE_PX {
                    here += 1;
                    candidates.remove(i);
                }
            }
        }
        if std::env::var_os("GEOMETRY_VERBOSE").is_some() {
            println!("{} {here}/{}", file.display(), theirs.len());
        }
        diagrams += 1;
        total += theirs.len();
        placed += here;
        if here == theirs.len() {
            whole += 1;
        }
    }
    println!(
        "{}: texts within {TOLERANCE_PX} px of PlantUML: {placed}/{total} = {:.1} %; diagrams with every text placed: {whole}/{diagrams}",
        corpus.display(),
        100.0 * placed as f64 / total.max(1) as f64
    );
    (placed, total)
}

/// The VS Code extension's README quotes this measure ("… in 99.9 % of the
/// cases"): the figure there is never above the measured one, nor more
/// than half a point below it (a figure from memory drifts; this one is
/// read from the measurement).
fn readme_figure_is_the_measured_one(measured: f64) {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../editors/vscode/README.md");
    let text = std::fs::read_to_string(&readme).expect("the extension's README");
    let phrase = "where PlantUML puts them in ";
    let at = text.find(phrase).expect("the README states where texts land") + phrase.len();
    let figure: f64 = text[at..]
        .split(" %")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .expect("a percentage after the phrase");
    assert!(
        figure <= (measured * 10.0).round() / 10.0 && figure >= measured - 0.5,
        "editors/vscode/README.md says {figure} % of texts land where PlantUML puts them; measured {measured:.1} %"
    );
}
