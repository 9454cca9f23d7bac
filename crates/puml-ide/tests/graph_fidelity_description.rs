//! How puml lays out description diagrams (use case, component,
//! deployment, `rectangle`), compared with PlantUML's pictures of
//! `../shared/corpus-description` (each `NAME.puml` beside PlantUML's
//! `NAME.puml.svg`, drawn with Graphviz dot): the measures of
//! `../shared/tools/graph-fidelity` computed in process, as
//! `graph_fidelity.rs` computes them for class diagrams (the measuring code
//! is that file's; each test binary keeps its own copy), and the paints:
//! every colour PlantUML fills or strokes a diagram with, puml uses too.
//! The probes of `test-data/description-probes` (each rule settled with
//! the oracle, PlantUML's SVG beside it) are measured with the corpus.
//! Prints the figures (`PUML_GRAPH_MISSES=1`: every size, vertical order,
//! link and paint miss); fails when any falls under the level reached.

use puml_ide::render::{render_source, RenderOptions};
use puml_sema::FsLoader;

use std::path::{Path, PathBuf};

/// `../shared` beside the checkout, or `PUML_SHARED_DIR` for a checkout
/// that does not sit beside it (a worktree elsewhere).
fn shared() -> PathBuf {
    match std::env::var_os("PUML_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// The levels reached over the corpus and the probes of
/// `test-data/description-probes` (counts), less a margin: 1,076 of 1,076
/// elements drawn, 920 of 922 entities sized (the misses: a cloud's
/// bumps, a container whose shape is in a probe), 16,197 and 16,170 of
/// 16,358 pairs in vertical and horizontal order, 911 of 911 links, 39 of
/// 61 whole layouts, 61 of 61 diagrams with every PlantUML paint. The
/// orders follow the layout engine (`puml-graph`) and get the widest
/// margin.
const DRAWN_AT_LEAST: usize = 1_064;
const ENTITIES_SIZED_AT_LEAST: usize = 917;
const VERTICAL_AT_LEAST: usize = 16_152;
const HORIZONTAL_AT_LEAST: usize = 15_950;
const LINKS_AT_LEAST: usize = 905;
const SAME_LAYOUT_AT_LEAST: usize = 38;
const PAINTS_AT_LEAST: usize = 59;

mod graph_svg;
use graph_svg::*;

#[test]
fn description_diagrams_are_laid_out_as_plantuml_lays_them_out() {
    // The corpus, then the probes that settle a rule with the oracle
    // (`test-data/description-probes`: each `NAME.puml` beside PlantUML's
    // `NAME.puml.svg`).
    let mut files = Vec::new();
    for dir in [
        shared().join("corpus-description"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/description-probes"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("{} is missing: the graph measure needs PlantUML's SVGs", dir.display());
        };
        let mut these: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "puml"))
            .collect();
        these.sort();
        files.extend(these);
    }
    let mut t = Totals::default();
    let mut worst: Vec<(usize, String)> = Vec::new();
    let mut painted = 0;
    let misses = std::env::var_os("PUML_GRAPH_MISSES").is_some();
    for file in files {
        let reference = file.with_extension("puml.svg");
        let (Ok(source), Ok(theirs_svg)) = (std::fs::read_to_string(&file), std::fs::read_to_string(&reference)) else {
            continue;
        };
        let (order, theirs, their_links) = elements(&theirs_svg);
        if theirs.is_empty() {
            continue;
        }
        let options = RenderOptions::default();
        let ours_svg = match render_source(&source, &options, &FsLoader) {
            Ok(pages) => pages
                .into_iter()
                .next()
                .map(|p| String::from_utf8_lossy(&p.bytes).into_owned())
                .unwrap_or_default(),
            Err(_) => String::new(),
        };
        let (_, ours, our_links) = elements(&ours_svg);
        let common: Vec<&String> = order.iter().filter(|n| ours.contains_key(*n)).collect();
        let entities = theirs.values().filter(|v| v.0 == Kind::Entity).count();
        let mut sized = 0;
        let mut entities_sized = 0;
        for n in &common {
            let (kind, tb) = theirs[*n];
            let ob = ours[*n].1;
            if ((tb[2] - tb[0]) - (ob[2] - ob[0])).abs() <= TOLERANCE_PX
                && ((tb[3] - tb[1]) - (ob[3] - ob[1])).abs() <= TOLERANCE_PX
            {
                sized += 1;
                entities_sized += usize::from(kind == Kind::Entity);
            } else if misses {
                println!(
                    "size miss {}: {n}: puml {:.1}x{:.1}, PlantUML {:.1}x{:.1}",
                    file.display(),
                    ob[2] - ob[0],
                    ob[3] - ob[1],
                    tb[2] - tb[0],
                    tb[3] - tb[1]
                );
            }
        }
        let centre = |b: [f64; 4]| ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
        let (mut pairs, mut vertical, mut horizontal) = (0, 0, 0);
        for (i, p) in common.iter().enumerate() {
            for q in &common[i + 1..] {
                let (tp, tq) = (centre(theirs[*p].1), centre(theirs[*q].1));
                let (op, oq) = (centre(ours[*p].1), centre(ours[*q].1));
                pairs += 1;
                let vertical_kept = relation(tp.1, tq.1) == relation(op.1, oq.1);
                vertical += usize::from(vertical_kept);
                horizontal += usize::from(relation(tp.0, tq.0) == relation(op.0, oq.0));
                if misses && !vertical_kept {
                    println!("vertical miss {}: {p} / {q}", file.display());
                }
            }
        }
        let links_drawn = their_links.intersection(&our_links).count();
        if misses {
            for link in their_links.difference(&our_links) {
                println!("link miss {}: {link:?}", file.display());
            }
        }
        let their_paints = paints(&theirs_svg);
        let our_paints = paints(&ours_svg);
        let paints_match = their_paints.is_subset(&our_paints);
        painted += usize::from(paints_match);
        if misses && !paints_match {
            let unpainted: Vec<&String> = their_paints.difference(&our_paints).collect();
            println!("paint miss {}: {unpainted:?}", file.display());
        }
        let same = common.len() == theirs.len() && sized == common.len() && vertical == pairs && horizontal == pairs;
        t.elements += theirs.len();
        t.drawn += common.len();
        t.entities += entities;
        t.entities_sized += entities_sized;
        t.pairs += pairs;
        t.vertical += vertical;
        t.horizontal += horizontal;
        t.links += their_links.len();
        t.links_drawn += links_drawn;
        t.diagrams += 1;
        t.same_layout += usize::from(same);
        let missing = theirs.len() - common.len()
            + (entities - entities_sized)
            + (their_links.len() - links_drawn)
            + usize::from(!paints_match);
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        worst.push((
            missing,
            format!(
                "{name}: drawn {}/{}, entities sized {entities_sized}/{entities}, vertical {vertical}/{pairs}, horizontal {horizontal}/{pairs}, links {links_drawn}/{}",
                common.len(),
                theirs.len(),
                their_links.len()
            ),
        ));
    }
    worst.sort_by_key(|w| std::cmp::Reverse(w.0));
    for (_, line) in worst.iter().take(12) {
        println!("{line}");
    }
    t.report_and_check(
        Some(painted),
        &Floors {
            drawn: DRAWN_AT_LEAST,
            entities_sized: ENTITIES_SIZED_AT_LEAST,
            vertical: VERTICAL_AT_LEAST,
            horizontal: HORIZONTAL_AT_LEAST,
            links_drawn: LINKS_AT_LEAST,
            same_layout: SAME_LAYOUT_AT_LEAST,
            paints: Some(PAINTS_AT_LEAST),
        },
    );
}
