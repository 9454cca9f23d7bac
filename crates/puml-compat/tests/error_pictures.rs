//! The drop-in's error picture against PlantUML's, text by text, over
//! `test-data/dropin-errors/` (each `NAME.puml` an invalid diagram beside
//! PlantUML 1.2026.8's error picture `NAME.plantuml.svg`): an error in each
//! kind of diagram (PlantUML's "Assumed diagram type"), each stray closer
//! of an activity diagram ("Cannot find X"), an unknown colour, comment
//! lines. Texts are matched as `../shared/tools/geometry-fidelity` matches
//! them (same string, within 2 px).
//!
//! Every text of PlantUML's picture is drawn where PlantUML draws it but
//! its header, which names PlantUML's build ("PlantUML version 1.2026.8 /
//! 149874a [...]"): the drop-in says what it is there instead. A diagram
//! puml does not read as PlantUML does is listed with its misses, and the
//! count of such diagrams may only fall.

mod dropin_pictures;

use dropin_pictures::{draw_first_block, picture_texts, texts};
use std::collections::HashMap;
use std::path::Path;

const TOLERANCE_PX: f64 = 2.0;
/// Diagrams whose picture misses more than the header (when last counted:
/// the timing diagram, a kind puml does not draw, which gets puml's picture
/// for such kinds).
const PARTIAL_AT_MOST: usize = 1;

/// PlantUML's texts the drop-in's picture of `file` leaves unplaced.
fn misses(file: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(file).unwrap();
    let theirs = texts(&std::fs::read_to_string(file.with_extension("plantuml.svg")).unwrap());
    let ours = picture_texts(&draw_first_block(file, &source).unwrap());
    let mut pool: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
    for (t, x, y) in ours {
        pool.entry(t).or_default().push((x, y));
    }
    let mut missed = Vec::new();
    for (t, x, y) in theirs {
        let candidates = pool.entry(t.clone()).or_default();
        let nearest = candidates
            .iter()
            .enumerate()
            .filter(|(_, (cx, cy))| (cx - x).abs() <= TOLERANCE_PX && (cy - y).abs() <= TOLERANCE_PX)
            .min_by(|a, b| {
                ((a.1 .0 - x).abs() + (a.1 .1 - y).abs()).total_cmp(&((b.1 .0 - x).abs() + (b.1 .1 - y).abs()))
            })
            .map(|(i, _)| i);
        match nearest {
            Some(i) => {
                candidates.remove(i);
            }
            None => missed.push(t),
        }
    }
    missed
}

#[test]
fn error_pictures_say_what_plantuml_says_where_plantuml_says_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/dropin-errors");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{} pictures found", files.len());
    let mut partial = Vec::new();
    for file in &files {
        let missed = misses(file);
        let (header, other): (Vec<_>, Vec<_>) = missed.iter().partition(|t| t.starts_with("PlantUML version "));
        assert_eq!(header.len(), 1, "{}: PlantUML's header is its own", file.display());
        if !other.is_empty() {
            println!("{}: also misses {other:?}", file.display());
            partial.push(file.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    println!(
        "{} error pictures, {} with every text but the header where PlantUML draws it",
        files.len(),
        files.len() - partial.len()
    );
    assert!(
        partial.len() <= PARTIAL_AT_MOST,
        "{} pictures miss more than the header (at most {PARTIAL_AT_MOST} before): {partial:?}",
        partial.len()
    );
}
