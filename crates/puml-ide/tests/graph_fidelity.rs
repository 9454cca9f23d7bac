//! How puml lays out class diagrams, compared with PlantUML's pictures of
//! `../shared/corpus-class` (each `NAME.puml` beside PlantUML's
//! `NAME.puml.svg`, drawn with Graphviz dot). The measures of
//! `../shared/tools/graph-fidelity`, computed in process: the elements
//! PlantUML marks (`<g class="entity"|"cluster" data-qualified-name=…>`,
//! boxes = the bounding box of the shapes inside) and links
//! (`<g class="link" data-entity-1=… data-entity-2=…>`) are matched by
//! qualified name; counted are the elements drawn, the entities sized
//! within 2 px, the pairs of elements in PlantUML's vertical and
//! horizontal order (centres within 10 px are level), the links drawn, and
//! the diagrams with PlantUML's whole layout. Prints the figures; fails
//! when any falls under the level reached, so the layout never silently
//! drifts back.

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

/// The levels reached (counts over the corpus), less a margin: 2,240 of
/// 2,240 elements drawn, 1,761 of 1,769 entities sized (4 of the misses
/// are corpus 011's, drawn under `scale max 2192 width`, whose factor
/// follows the layout's width; the others are notes whose wedge or place
/// follows the layout), 83,282 and 82,832 of 83,440 pairs in vertical and
/// horizontal order, 1,602 of 1,602 links, 70 of 99 whole layouts. The
/// orders and 011 follow the layout engine (`puml-graph`) and get the
/// widest margin.
const DRAWN_AT_LEAST: usize = 2_240;
const ENTITIES_SIZED_AT_LEAST: usize = 1_757;
const VERTICAL_AT_LEAST: usize = 82_900;
const HORIZONTAL_AT_LEAST: usize = 82_300;
const LINKS_AT_LEAST: usize = 1_602;
const SAME_LAYOUT_AT_LEAST: usize = 69;
mod graph_svg;
use graph_svg::*;

#[test]
fn class_diagrams_are_laid_out_as_plantuml_lays_them_out() {
    let corpus = shared().join("corpus-class");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        panic!(
            "{} is missing: the graph measure needs PlantUML's SVGs",
            corpus.display()
        );
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    let mut t = Totals::default();
    let mut worst: Vec<(usize, String)> = Vec::new();
    // PUML_GRAPH_MISSES=1: every entity not sized and every link not drawn
    // (file, element, puml's size against PlantUML's).
    let show_misses = std::env::var_os("PUML_GRAPH_MISSES").is_some();
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
            } else if show_misses && kind == Kind::Entity {
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
        if show_misses {
            for (a, b) in their_links.difference(&our_links) {
                println!("link miss {}: {a} -- {b}", file.display());
            }
        }
        let centre = |b: [f64; 4]| ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
        let (mut pairs, mut vertical, mut horizontal) = (0, 0, 0);
        for (i, p) in common.iter().enumerate() {
            for q in &common[i + 1..] {
                let (tp, tq) = (centre(theirs[*p].1), centre(theirs[*q].1));
                let (op, oq) = (centre(ours[*p].1), centre(ours[*q].1));
                pairs += 1;
                vertical += usize::from(relation(tp.1, tq.1) == relation(op.1, oq.1));
                horizontal += usize::from(relation(tp.0, tq.0) == relation(op.0, oq.0));
            }
        }
        let links_drawn = their_links.intersection(&our_links).count();
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
        let missing = theirs.len() - common.len() + (entities - entities_sized) + (their_links.len() - links_drawn);
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
    // PUML_GRAPH_ALL=1: every diagram's line (to sort by the measure of
    // interest while working on the layout).
    let shown = if std::env::var_os("PUML_GRAPH_ALL").is_some() {
        worst.len()
    } else {
        12
    };
    for (_, line) in worst.iter().take(shown) {
        println!("{line}");
    }
    t.report_and_check(
        None,
        &Floors {
            drawn: DRAWN_AT_LEAST,
            entities_sized: ENTITIES_SIZED_AT_LEAST,
            vertical: VERTICAL_AT_LEAST,
            horizontal: HORIZONTAL_AT_LEAST,
            links_drawn: LINKS_AT_LEAST,
            same_layout: SAME_LAYOUT_AT_LEAST,
            paints: None,
        },
    );
}
