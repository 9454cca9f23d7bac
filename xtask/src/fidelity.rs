//! `cargo xtask fidelity`: how close puml's rendering is to PlantUML's on
//! the corpus. Two figures: the share of PlantUML's text strings that puml
//! draws too, and the share of pages whose canvas is within ±15 % of
//! PlantUML's in both width and height.

use crate::corpus::{self, normalize, read_plantuml_svg};
use crate::shape_fidelity::{self, Tally};
use puml_ide::check::CheckOptions;
use puml_ide::render::{encode, scenes_for_source, Format, RenderFailure, RenderOptions};
use puml_layout::Scene;
use puml_sema::FsLoader;
use std::collections::HashSet;

pub const SIZE_TOLERANCE: f64 = 0.15;

#[derive(Default)]
pub struct Totals {
    pub texts: usize,
    pub matched: usize,
    pub pages: usize,
    pub pages_in_size: usize,
    pub failed: usize,
    /// Sums of |ours - theirs| / theirs, for the mean size error.
    pub width_error: f64,
    pub height_error: f64,
}

pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--activity") {
        return crate::activity_fidelity::run(args);
    }
    let dir = corpus::corpus_dir(args);
    let verbose = args.iter().any(|a| a == "--verbose");
    let misses = args.iter().any(|a| a == "--misses");
    let entries = corpus::load(&dir)?;
    let mut totals = Totals::default();
    let mut geometry = Tally::default();
    println!(
        "{:<5} {:>5} {:>11} {:>7} {:>15} {:>15} {:>4}",
        "id", "pages", "texts", "share", "width us/pu", "height us/pu", "size"
    );
    for entry in entries.iter().filter(|e| e.valid && !e.plantuml_svgs.is_empty()) {
        let text = match std::fs::read_to_string(&entry.source) {
            Ok(t) => t,
            Err(e) => {
                println!("{:<5} cannot read: {e}", entry.id);
                totals.failed += 1;
                continue;
            }
        };
        let options = RenderOptions {
            check: CheckOptions {
                file_path: Some(entry.source.clone()),
                ..CheckOptions::default()
            },
            ..RenderOptions::default()
        };
        let scenes: Vec<Scene> = match scenes_for_source(&text, &options, &FsLoader) {
            Ok(pages) => pages.into_iter().map(|p| p.scene).collect(),
            Err(failure) => {
                let why = match failure {
                    RenderFailure::Diagnostics(d) => d
                        .first()
                        .map(|d| format!("line {}: {}", d.range.line, d.message))
                        .unwrap_or_default(),
                    other => other.to_string(),
                };
                println!("{:<5} NOT RENDERED: {why}", entry.id);
                totals.failed += 1;
                for svg in &entry.plantuml_svgs {
                    if let Ok(pu) = read_plantuml_svg(svg) {
                        totals.texts += pu.texts.len();
                        totals.pages += 1;
                    }
                    if let Ok(plantuml) = std::fs::read_to_string(svg) {
                        geometry.count_unplaced(&plantuml);
                    }
                }
                continue;
            }
        };
        for (page, svg_path) in entry.plantuml_svgs.iter().enumerate() {
            let pu = read_plantuml_svg(svg_path)?;
            totals.pages += 1;
            totals.texts += pu.texts.len();
            let Some(scene) = scenes.get(page) else {
                println!(
                    "{:<5} page {} missing (puml drew {} page(s))",
                    entry.id,
                    page + 1,
                    scenes.len()
                );
                if let Ok(plantuml) = std::fs::read_to_string(svg_path) {
                    geometry.count_unplaced(&plantuml);
                }
                continue;
            };
            if let (Ok(plantuml), Ok(ours)) = (std::fs::read_to_string(svg_path), encode(scene, Format::Svg, 1.0)) {
                let page_tally = shape_fidelity::compare(&plantuml, &String::from_utf8_lossy(&ours));
                if misses {
                    for miss in &page_tally.misses {
                        println!("{:<5} miss {miss}", entry.id);
                    }
                }
                geometry.add(&page_tally);
            }
            let (matched, missing) = match_texts(scene, &pu.texts);
            totals.matched += matched;
            let in_size = within(scene.width, pu.width) && within(scene.height, pu.height);
            if pu.width > 0.0 && pu.height > 0.0 {
                totals.width_error += (scene.width - pu.width).abs() / pu.width;
                totals.height_error += (scene.height - pu.height).abs() / pu.height;
            }
            if in_size {
                totals.pages_in_size += 1;
            }
            let share = if pu.texts.is_empty() {
                100.0
            } else {
                100.0 * matched as f64 / pu.texts.len() as f64
            };
            println!(
                "{:<5} {:>5} {:>5}/{:<5} {:>6.1}% {:>7.0}/{:<7.0} {:>7.0}/{:<7.0} {:>4}",
                entry.id,
                page + 1,
                matched,
                pu.texts.len(),
                share,
                scene.width,
                pu.width,
                scene.height,
                pu.height,
                if in_size { "ok" } else { "--" }
            );
            if verbose && !missing.is_empty() {
                for m in missing.iter().take(8) {
                    println!("        missing: {m:?}");
                }
            }
        }
    }
    println!();
    println!(
        "text fidelity: {}/{} strings = {:.1}% (target >= 98%)",
        totals.matched,
        totals.texts,
        percent(totals.matched, totals.texts)
    );
    println!(
        "canvas within ±15%: {}/{} pages = {:.1}%",
        totals.pages_in_size,
        totals.pages,
        percent(totals.pages_in_size, totals.pages)
    );
    let compared = totals.pages.max(1) as f64;
    println!(
        "mean size error: width {:.1}%, height {:.1}%",
        100.0 * totals.width_error / compared,
        100.0 * totals.height_error / compared
    );
    println!("not rendered (analysis errors on a VALID diagram): {}", totals.failed);
    print_geometry(&geometry);
    Ok(())
}

/// Where texts and shapes land, per construct, worst first.
pub fn print_geometry(tally: &Tally) {
    let tol = shape_fidelity::TOLERANCE_PX;
    let ((tp, tt), (sp, st)) = tally.totals();
    println!();
    println!("geometry (within {tol} px of PlantUML's position; per construct, worst first):");
    for (what, map, placed, total) in [("texts", &tally.texts, tp, tt), ("shapes", &tally.shapes, sp, st)] {
        println!("  {what}: {placed}/{total} = {:.1}%", percent(placed, total));
        let mut rows: Vec<_> = map.iter().collect();
        rows.sort_by(|a, b| percent(a.1 .0, a.1 .1).total_cmp(&percent(b.1 .0, b.1 .1)));
        for (construct, (p, t)) in rows {
            println!(
                "    {:<38} {:>6}/{:<6} {:>6.1}%",
                construct.name(),
                p,
                t,
                percent(*p, *t)
            );
        }
    }
}

fn percent(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn within(ours: f64, theirs: f64) -> bool {
    theirs > 0.0 && (ours - theirs).abs() <= SIZE_TOLERANCE * theirs
}

/// Counts PlantUML strings that puml draws too: as a run, as a whole
/// line of adjacent runs, or inside such a line.
pub fn match_texts(scene: &Scene, theirs: &[String]) -> (usize, Vec<String>) {
    let mut runs: Vec<(f64, f64, f64, String)> = scene
        .texts()
        .map(|t| (t.y, t.x, t.x + t.width, t.text.clone()))
        .collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut exact: HashSet<String> = HashSet::new();
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut last: Option<(f64, f64)> = None;
    for (y, x0, x1, text) in &runs {
        exact.insert(normalize(text));
        let joins = last.is_some_and(|(ly, lx1)| (ly - y).abs() < 0.5 && (x0 - lx1).abs() < 2.0);
        if !joins && !current.is_empty() {
            lines.push(normalize(&std::mem::take(&mut current)));
        }
        current.push_str(text);
        last = Some((*y, *x1));
    }
    if !current.is_empty() {
        lines.push(normalize(&current));
    }
    for l in &lines {
        exact.insert(l.clone());
    }
    let mut matched = 0;
    let mut missing = Vec::new();
    for t in theirs {
        if exact.contains(t) || lines.iter().any(|l| l.contains(t.as_str())) {
            matched += 1;
        } else {
            missing.push(t.clone());
        }
    }
    (matched, missing)
}
