//! Where the drop-in (`puml-plantuml`) draws each text of an activity
//! diagram, compared with where PlantUML draws it, over
//! `../shared/corpus-activity` (each `NAME.puml` beside PlantUML's
//! `NAME.plantuml.svg`). The same measure as
//! `../shared/tools/geometry-fidelity`: each of PlantUML's texts is matched
//! with the nearest unused text of the same string on puml's first page,
//! and counts as placed when both coordinates are within 2 px.
//!
//! It measures the picture a PlantUML user gets from puml: a diagram
//! drawn, or for an invalid one (corpus 027, 032) the error picture drawn
//! in its place, against PlantUML's error picture (more error pictures:
//! `error_pictures.rs`). Fails when fewer texts are placed than the level
//! reached, so the layout never silently drifts back.

mod dropin_pictures;

use dropin_pictures::{draw_first_block, picture_texts, texts};
use puml_compat::Outcome;
use std::collections::HashMap;
use std::path::Path;

/// Activity texts placed when the level was last raised (of 479; issue
/// 31's goal is 95 %), less a small margin: 296 with diagrams alone (10 of
/// 17 whole); 337 with the error pictures of 027/032, whose texts now
/// follow PlantUML's (indented source, the skipped middle of a long one,
/// the file's name); their headers and messages stay puml's own. 443
/// (13 of 17 whole) with a lone branch's middle gap from its halves'
/// heights (002/003), partitions opening branches and fork branches
/// inside an `if` where PlantUML leaves them, and a partition's frame
/// holding columns apart by its 2 px sides only (009 whole). 465 (97.1 %)
/// with an `if` opening an `else` keeping 10 px of room (025/026: 56 of
/// 61 each). 475 (99.2 %, 15 of 17 whole: every diagram but the error
/// pictures of 027/032) with the note's overhang adding to the row room in
/// an `if` holding a `fork`, and a `fork` bar's 14 px before compression.
/// 477 (99.6 %) with the error pictures writing PlantUML's message line
/// where PlantUML writes it ("Syntax Error? (Assumed diagram type:
/// activity)" in 027, "Cannot find repeat (…)" in 032), puml's diagnostic
/// under it; only their headers, which name PlantUML's build, stay
/// unmatched.
const ACTIVITY_PLACED_AT_LEAST: usize = 474;
const TOLERANCE_PX: f64 = 2.0;

/// The texts of the first picture the drop-in draws for `file`.
fn dropin_texts(file: &Path, source: &str) -> Vec<(String, f64, f64)> {
    match draw_first_block(file, source) {
        Some(outcome @ (Outcome::Rendered { .. } | Outcome::Error { .. })) => picture_texts(&outcome),
        Some(Outcome::Unsupported { .. }) | None => Vec::new(),
    }
}

#[test]
fn activity_texts_land_where_plantuml_draws_them() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus-activity");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
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
        let mut pool: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
        for (t, x, y) in dropin_texts(&file, &source) {
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
    assert!(
        placed >= ACTIVITY_PLACED_AT_LEAST,
        "only {placed} activity texts placed, fewer than the {ACTIVITY_PLACED_AT_LEAST} reached before"
    );
}
