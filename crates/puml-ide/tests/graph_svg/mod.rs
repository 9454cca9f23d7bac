//! What the graph-fidelity tests read from an SVG, PlantUML's or puml's:
//! the boxes of entities and clusters by their `data-qualified-name`
//! markers, and the links between them (the measures of
//! `../shared/tools/graph-fidelity`, in process). Shared by the class,
//! description, state and legacy activity ratchets (with the colours a
//! picture paints); each uses a part of it.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

pub const TOLERANCE_PX: f64 = 2.0;
pub const LEVEL_PX: f64 = 10.0;

#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Entity,
    Cluster,
}

pub type Boxes = HashMap<String, (Kind, [f64; 4])>;

pub fn numbers(text: &str) -> Vec<f64> {
    let mut out = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<f64>| {
        if let Ok(v) = current.parse::<f64>() {
            out.push(v);
        }
        current.clear();
    };
    for c in text.chars() {
        let starts_new = c == '-' && !current.is_empty() && !current.ends_with(['e', 'E']);
        if starts_new {
            flush(&mut current, &mut out);
        }
        if c.is_ascii_digit() || c == '.' || c == '-' || ((c == 'e' || c == 'E') && !current.is_empty()) {
            current.push(c);
        } else {
            flush(&mut current, &mut out);
        }
    }
    flush(&mut current, &mut out);
    out
}

pub fn shape_points(node: roxmltree::Node<'_, '_>) -> Vec<(f64, f64)> {
    let f = |k: &str| node.attribute(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    match node.tag_name().name() {
        "rect" => {
            let (x, y) = (f("x"), f("y"));
            vec![(x, y), (x + f("width"), y + f("height"))]
        }
        "ellipse" => vec![
            (f("cx") - f("rx"), f("cy") - f("ry")),
            (f("cx") + f("rx"), f("cy") + f("ry")),
        ],
        "circle" => vec![
            (f("cx") - f("r"), f("cy") - f("r")),
            (f("cx") + f("r"), f("cy") + f("r")),
        ],
        "line" => vec![(f("x1"), f("y1")), (f("x2"), f("y2"))],
        "polygon" | "polyline" => pairs(&numbers(node.attribute("points").unwrap_or(""))),
        "path" => path_points(node.attribute("d").unwrap_or("")),
        _ => Vec::new(),
    }
}

/// The points a path passes through or bends toward: the end points of
/// its commands and the control points of its curves. An arc (`A rx,ry
/// rotation large sweep x,y`, how PlantUML rounds the corners of packages
/// and notes) counts by its end point only: read as plain pairs of numbers,
/// its radii and flags would land as points near the origin.
pub fn path_points(d: &str) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut command = 'M';
    let mut args = String::new();
    let flush = |command: char, args: &str, points: &mut Vec<(f64, f64)>| {
        let v = numbers(args);
        match command.to_ascii_uppercase() {
            'A' => points.extend(v.chunks_exact(7).map(|c| (c[5], c[6]))),
            'H' | 'V' | 'Z' => {}
            _ => points.extend(pairs(&v)),
        }
    };
    for c in d.chars() {
        if c.is_ascii_alphabetic() && c != 'e' && c != 'E' {
            flush(command, &args, &mut points);
            args.clear();
            command = c;
        } else {
            args.push(c);
        }
    }
    flush(command, &args, &mut points);
    points
}

pub fn pairs(v: &[f64]) -> Vec<(f64, f64)> {
    v.chunks_exact(2).map(|c| (c[0], c[1])).collect()
}

/// The first page's marked elements (in document order) and links.
pub fn elements(svg: &str) -> (Vec<String>, Boxes, HashSet<(String, String)>) {
    let first = match svg.find("</svg>") {
        Some(end) => &svg[..end + 6],
        None => svg,
    };
    let Ok(doc) = roxmltree::Document::parse(first) else {
        return (Vec::new(), HashMap::new(), HashSet::new());
    };
    let mut order = Vec::new();
    let mut boxes: Boxes = HashMap::new();
    let mut ids: HashMap<String, String> = HashMap::new();
    let mut raw_links = Vec::new();
    for g in doc.descendants().filter(|n| n.has_tag_name("g")) {
        let classes: Vec<&str> = g.attribute("class").unwrap_or("").split_whitespace().collect();
        let kind = if classes.contains(&"entity") {
            Some(Kind::Entity)
        } else if classes.contains(&"cluster") {
            Some(Kind::Cluster)
        } else {
            None
        };
        if let Some(kind) = kind {
            let Some(name) = g.attribute("data-qualified-name") else {
                continue;
            };
            let points: Vec<(f64, f64)> = g
                .descendants()
                .filter(|d| *d != g && d.is_element() && !d.has_tag_name("g"))
                .flat_map(shape_points)
                .collect();
            if points.is_empty() {
                continue;
            }
            let b = points.iter().fold(
                [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY],
                |b, p| [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)],
            );
            if !boxes.contains_key(name) {
                boxes.insert(name.to_string(), (kind, b));
                order.push(name.to_string());
            }
            if let Some(id) = g.attribute("id") {
                ids.insert(id.to_string(), name.to_string());
            }
        } else if classes.contains(&"link") {
            if let (Some(a), Some(b)) = (g.attribute("data-entity-1"), g.attribute("data-entity-2")) {
                raw_links.push((a.to_string(), b.to_string()));
            }
        }
    }
    let links = raw_links
        .into_iter()
        .filter_map(|(a, b)| {
            let (a, b) = (ids.get(&a)?.clone(), ids.get(&b)?.clone());
            Some(if a <= b { (a, b) } else { (b, a) })
        })
        .collect();
    (order, boxes, links)
}

pub fn relation(a: f64, b: f64) -> i8 {
    if (a - b).abs() <= LEVEL_PX {
        0
    } else if a > b {
        1
    } else {
        -1
    }
}

#[derive(Default, Debug)]
pub struct Totals {
    pub elements: usize,
    pub drawn: usize,
    pub entities: usize,
    pub entities_sized: usize,
    pub pairs: usize,
    pub vertical: usize,
    pub horizontal: usize,
    pub links: usize,
    pub links_drawn: usize,
    pub diagrams: usize,
    pub same_layout: usize,
}

/// The levels a graph ratchet has reached, under which it fails.
pub struct Floors {
    pub drawn: usize,
    pub entities_sized: usize,
    pub vertical: usize,
    pub horizontal: usize,
    pub links_drawn: usize,
    pub same_layout: usize,
    /// Diagrams with every paint, where the ratchet measures paints.
    pub paints: Option<usize>,
}

impl Totals {
    /// Prints the figures (`painted`: diagrams with every paint, where
    /// measured) and fails on any under its floor.
    pub fn report_and_check(&self, painted: Option<usize>, floors: &Floors) {
        let t = self;
        println!(
            "elements drawn: {}; entities sized within {TOLERANCE_PX} px: {}",
            pct(t.drawn, t.elements),
            pct(t.entities_sized, t.entities)
        );
        println!(
            "pairs in PlantUML's vertical order: {}; horizontal order: {}; links drawn: {}",
            pct(t.vertical, t.pairs),
            pct(t.horizontal, t.pairs),
            pct(t.links_drawn, t.links)
        );
        match painted {
            Some(painted) => println!(
                "diagrams with PlantUML's layout: {}; with PlantUML's paints: {}",
                pct(t.same_layout, t.diagrams),
                pct(painted, t.diagrams)
            ),
            None => println!("diagrams with PlantUML's layout: {}", pct(t.same_layout, t.diagrams)),
        }
        let mut checks = vec![
            ("elements drawn", t.drawn, floors.drawn),
            ("entities sized", t.entities_sized, floors.entities_sized),
            ("vertical pairs", t.vertical, floors.vertical),
            ("horizontal pairs", t.horizontal, floors.horizontal),
            ("links drawn", t.links_drawn, floors.links_drawn),
            ("whole layouts", t.same_layout, floors.same_layout),
        ];
        if let (Some(painted), Some(floor)) = (painted, floors.paints) {
            checks.push(("paints", painted, floor));
        }
        for (what, got, floor) in checks {
            assert!(got >= floor, "{what}: {got}, under the level reached ({floor})");
        }
    }
}

pub fn pct(x: usize, y: usize) -> String {
    format!("{x}/{y} = {:.1}%", 100.0 * x as f64 / y.max(1) as f64)
}

/// The colours a picture fills and strokes with (`fill="#…"`, `stroke:#…`).
pub fn paints(svg: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for key in ["fill=\"", "stroke:", "stroke=\""] {
        let mut rest = svg;
        while let Some(at) = rest.find(key) {
            rest = &rest[at + key.len()..];
            let value: String = rest
                .chars()
                .take_while(|c| *c == '#' || c.is_ascii_alphanumeric())
                .collect();
            if value.starts_with('#') {
                out.insert(normalize_colour(&value));
            }
        }
    }
    out
}

/// `#222` → `#222222`, upper case.
pub fn normalize_colour(value: &str) -> String {
    let hex = value.trim_start_matches('#').to_ascii_uppercase();
    if hex.len() == 3 {
        hex.chars().flat_map(|c| [c, c]).collect::<String>()
    } else {
        hex
    }
}
