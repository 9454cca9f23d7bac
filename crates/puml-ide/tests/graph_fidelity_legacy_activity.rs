//! How puml lays out legacy activity diagrams (`(*) --> "First"`),
//! compared with PlantUML's pictures: the generated probes of
//! `test-data/legacy-activity-probes` (each construct alone and after
//! neighbours: `scripts/legacy_activity_probes.py`) and the real files of
//! `test-data/legacy-activity-real` (sources in its `SOURCES.md`), each
//! `NAME.puml` beside PlantUML's `NAME.puml.svg`. The measures of the
//! other graph ratchets (elements drawn, entities sized within 2 px,
//! pairs in PlantUML's vertical and horizontal order, links drawn, whole
//! layouts, paints), in process.
//!
//! PlantUML wraps only some shapes of this kind in `<g class="entity">`
//! (the start, the end, diamonds and notes); activities and bars are bare
//! `<rect>`s, and the links name them by ids no group carries. So the
//! elements are read in drawing order (PlantUML draws them in creation
//! order, as puml does): the n-th node of PlantUML's picture is matched
//! with puml's n-th, the bare shapes taking the ids the links use and no
//! group defines, in increasing order.

use puml_ide::render::{render_source, RenderOptions};
use puml_sema::FsLoader;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

mod graph_svg;
use graph_svg::*;

/// The levels reached (over the 42 probes and 10 real files: 345 of 345
/// elements drawn, 333 of 336 entities sized, 1757 and 1753 of 1757 pairs
/// in vertical and horizontal order, 309 of 309 links, 47 of 52 whole
/// layouts, 52 of 52 paints), less a small margin for the engine's
/// ordering, which `puml-graph` improves. The misses: notes above or below
/// an activity a few pixels wider than PlantUML's, a partition's width.
const DRAWN_AT_LEAST: usize = 345;
const ENTITIES_SIZED_AT_LEAST: usize = 330;
const VERTICAL_AT_LEAST: usize = 1750;
const HORIZONTAL_AT_LEAST: usize = 1740;
const LINKS_AT_LEAST: usize = 305;
const SAME_LAYOUT_AT_LEAST: usize = 46;
const PAINTS_AT_LEAST: usize = 51;

/// One picture's elements: nodes (`n0`, `n1`, …) and partitions (`c0`,
/// …) in drawing order, their boxes, and the links as pairs of names;
/// `created`: per node, its creation number (its id's), when known.
struct Picture {
    order: Vec<String>,
    boxes: Boxes,
    links: HashSet<(String, String)>,
    created: Vec<Option<u32>>,
}

fn id_number(id: &str) -> Option<u32> {
    id.strip_prefix("ent")?.parse().ok()
}

fn bounds(points: &[(f64, f64)]) -> [f64; 4] {
    points.iter().fold(
        [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY],
        |b, p| [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)],
    )
}

/// Reads a picture. PlantUML's bare shapes take the ids the links use and
/// no group carries in creation order, which drawing order is not when
/// partitions group the drawing: `creation_hint` (puml's picture's
/// `created`, node for node) orders them.
fn read_picture(svg: &str, creation_hint: &[Option<u32>]) -> Picture {
    let mut picture = Picture {
        order: Vec::new(),
        boxes: HashMap::new(),
        links: HashSet::new(),
        created: Vec::new(),
    };
    let first = match svg.find("</svg>") {
        Some(end) => &svg[..end + 6],
        None => svg,
    };
    let Ok(doc) = roxmltree::Document::parse(first) else {
        return picture;
    };
    // The group holding the drawing: the first `<g>` of the document.
    let Some(drawing) = doc.descendants().find(|n| n.has_tag_name("g")) else {
        return picture;
    };
    let mut node_ids: Vec<Option<String>> = Vec::new();
    let mut raw_links = Vec::new();
    let mut clusters = 0;
    for child in drawing.children().filter(|n| n.is_element()) {
        let classes: Vec<&str> = child.attribute("class").unwrap_or("").split_whitespace().collect();
        if child.has_tag_name("rect") {
            // An activity (rounded) or a bar, drawn bare.
            let points = shape_points(child);
            let name = format!("n{}", node_ids.len());
            picture.boxes.insert(name.clone(), (Kind::Entity, bounds(&points)));
            picture.order.push(name);
            node_ids.push(None);
        } else if child.has_tag_name("g")
            && classes
                .iter()
                .any(|c| matches!(*c, "entity" | "start_entity" | "end_entity"))
        {
            let points: Vec<(f64, f64)> = child
                .descendants()
                .filter(|d| *d != child && d.is_element() && !d.has_tag_name("g") && !d.has_tag_name("text"))
                .flat_map(shape_points)
                .collect();
            if points.is_empty() {
                continue;
            }
            let name = format!("n{}", node_ids.len());
            picture.boxes.insert(name.clone(), (Kind::Entity, bounds(&points)));
            picture.order.push(name);
            node_ids.push(child.attribute("id").map(str::to_string));
        } else if child.has_tag_name("g") && classes.contains(&"cluster") {
            let points: Vec<(f64, f64)> = child
                .descendants()
                .filter(|d| *d != child && d.is_element() && !d.has_tag_name("text"))
                .flat_map(shape_points)
                .collect();
            if points.is_empty() {
                continue;
            }
            let name = format!("c{clusters}");
            clusters += 1;
            picture.boxes.insert(name.clone(), (Kind::Cluster, bounds(&points)));
            picture.order.push(name);
        } else if child.has_tag_name("g") && classes.contains(&"link") {
            if let (Some(a), Some(b)) = (child.attribute("data-entity-1"), child.attribute("data-entity-2")) {
                raw_links.push((a.to_string(), b.to_string()));
            }
        }
    }
    // The bare shapes take the ids the links use and no group carries,
    // in increasing order.
    let known: HashSet<&String> = node_ids.iter().flatten().collect();
    let mut unclaimed: Vec<String> = raw_links
        .iter()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .filter(|id| !known.contains(id))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    unclaimed.sort_by_key(|id| id_number(id).unwrap_or(u32::MAX));
    let mut bare: Vec<usize> = (0..node_ids.len()).filter(|&i| node_ids[i].is_none()).collect();
    bare.sort_by_key(|&i| (creation_hint.get(i).copied().flatten().unwrap_or(u32::MAX), i));
    for (slot, id) in bare.into_iter().zip(unclaimed) {
        node_ids[slot] = Some(id);
    }
    picture.created = node_ids.iter().map(|id| id.as_deref().and_then(id_number)).collect();
    let index: HashMap<&String, usize> = node_ids
        .iter()
        .enumerate()
        .filter_map(|(i, id)| id.as_ref().map(|id| (id, i)))
        .collect();
    for (a, b) in &raw_links {
        if let (Some(a), Some(b)) = (index.get(a), index.get(b)) {
            let (a, b) = (format!("n{a}"), format!("n{b}"));
            picture.links.insert(if a <= b { (a, b) } else { (b, a) });
        }
    }
    picture
}

fn probe_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let mut files = Vec::new();
    for dir in [root.join("legacy-activity-probes"), root.join("legacy-activity-real")] {
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
    files
}

#[test]
fn legacy_activity_diagrams_are_laid_out_as_plantuml_lays_them_out() {
    let mut t = Totals::default();
    let mut painted = 0;
    let mut worst: Vec<(usize, String)> = Vec::new();
    for file in probe_files() {
        let reference = file.with_extension("puml.svg");
        let (Ok(source), Ok(theirs_svg)) = (std::fs::read_to_string(&file), std::fs::read_to_string(&reference)) else {
            continue;
        };
        let ours_svg = match render_source(&source, &RenderOptions::default(), &FsLoader) {
            Ok(pages) => pages
                .into_iter()
                .next()
                .map(|p| String::from_utf8_lossy(&p.bytes).into_owned())
                .unwrap_or_default(),
            Err(_) => String::new(),
        };
        let ours = read_picture(&ours_svg, &[]);
        let theirs = read_picture(&theirs_svg, &ours.created);
        if theirs.boxes.is_empty() {
            continue;
        }
        let common: Vec<&String> = theirs.order.iter().filter(|n| ours.boxes.contains_key(*n)).collect();
        let entities = theirs.boxes.values().filter(|v| v.0 == Kind::Entity).count();
        let (mut sized, mut entities_sized) = (0, 0);
        let mut off_size = Vec::new();
        for n in &common {
            let (kind, tb) = theirs.boxes[*n];
            let ob = ours.boxes[*n].1;
            if ((tb[2] - tb[0]) - (ob[2] - ob[0])).abs() <= TOLERANCE_PX
                && ((tb[3] - tb[1]) - (ob[3] - ob[1])).abs() <= TOLERANCE_PX
            {
                sized += 1;
                entities_sized += usize::from(kind == Kind::Entity);
            } else {
                off_size.push(format!(
                    "{n} {:.0}x{:.0} (PlantUML {:.0}x{:.0})",
                    ob[2] - ob[0],
                    ob[3] - ob[1],
                    tb[2] - tb[0],
                    tb[3] - tb[1]
                ));
            }
        }
        let centre = |b: [f64; 4]| ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
        let (mut pairs, mut vertical, mut horizontal) = (0, 0, 0);
        for (i, p) in common.iter().enumerate() {
            for q in &common[i + 1..] {
                let (tp, tq) = (centre(theirs.boxes[*p].1), centre(theirs.boxes[*q].1));
                let (op, oq) = (centre(ours.boxes[*p].1), centre(ours.boxes[*q].1));
                pairs += 1;
                vertical += usize::from(relation(tp.1, tq.1) == relation(op.1, oq.1));
                horizontal += usize::from(relation(tp.0, tq.0) == relation(op.0, oq.0));
            }
        }
        let links_drawn = theirs.links.intersection(&ours.links).count();
        let same =
            common.len() == theirs.boxes.len() && sized == common.len() && vertical == pairs && horizontal == pairs;
        let (their_paints, our_paints) = (paints(&theirs_svg), paints(&ours_svg));
        painted += usize::from(their_paints.is_subset(&our_paints));
        t.elements += theirs.boxes.len();
        t.drawn += common.len();
        t.entities += entities;
        t.entities_sized += entities_sized;
        t.pairs += pairs;
        t.vertical += vertical;
        t.horizontal += horizontal;
        t.links += theirs.links.len();
        t.links_drawn += links_drawn;
        t.diagrams += 1;
        t.same_layout += usize::from(same);
        let missing = theirs.boxes.len() - common.len()
            + (entities - entities_sized)
            + (theirs.links.len() - links_drawn)
            + (pairs - vertical)
            + (pairs - horizontal);
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let unpainted: Vec<&String> = their_paints.difference(&our_paints).collect();
        worst.push((
            missing,
            format!(
                "{name}: drawn {}/{}, entities sized {entities_sized}/{entities}, vertical {vertical}/{pairs}, horizontal {horizontal}/{pairs}, links {links_drawn}/{}, paints missing {unpainted:?}, off_size {off_size:?}",
                common.len(),
                theirs.boxes.len(),
                theirs.links.len()
            ),
        ));
    }
    worst.sort_by_key(|w| std::cmp::Reverse(w.0));
    for (_, line) in worst.iter().take(20) {
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
