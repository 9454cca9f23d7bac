//! Where puml draws each text and shape, against PlantUML's SVG of the
//! same page, per construct (`cargo xtask fidelity` prints the table).
//!
//! Both SVGs go through the same classifier, so a shape counts under the
//! same construct on both sides whatever each tool calls it: a dashed
//! vertical line is a lifeline, a 10 px wide rectangle an activation bar,
//! a small polygon an arrowhead, anything above the lifelines' top or
//! below their bottom belongs to a participant's head or foot, and so on.
//! Within a construct each of PlantUML's shapes is paired with the nearest
//! unused shape of ours (closest pairs first); a shape is placed when all
//! four sides of its bounding box are within the tolerance of PlantUML's.
//! Texts are paired like `../shared/tools/geometry-fidelity` pairs them
//! (same string, nearest first) and placed when x and y are within the
//! tolerance; their construct is the element puml drew them in.

use std::collections::BTreeMap;

pub const TOLERANCE_PX: f64 = 2.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Construct {
    Title,
    Participant,
    Lifeline,
    Activation,
    MessageLine,
    Arrowhead,
    Message,
    GroupFrame,
    /// Filled rectangles: group and box backgrounds, dividers, references.
    FilledRect,
    /// Paths: note outlines, group header tabs.
    NoteOrTab,
    Note,
    Group,
    Legend,
    HeaderFooter,
    // Activity diagrams (`data-diagram-type="ACTIVITY"` on PlantUML's page).
    /// Rounded boxes: actions, whatever their colour or stereotype.
    Action,
    /// `if`/`elseif`/`while`/`repeat while` hexagons and merge diamonds.
    Diamond,
    /// `fork`/`split` bars and their joins.
    Bar,
    /// `start`, `stop`, `end` (and the cross `end` draws), connectors.
    Disc,
    /// The segments arrows are drawn with.
    ArrowLine,
    /// A note's outline and its folded corner.
    NoteOutline,
    /// A partition's or group's frame (and a coloured partition's fill).
    Frame,
    /// The tab a partition or group writes its title in.
    FrameTab,
    /// The vertical lines between swimlanes.
    LaneBorder,
    /// A coloured swimlane's background.
    LaneBackground,
    /// Boxes of the page rather than the flow: PlantUML's warning banner.
    Banner,
    ActionText,
    ConditionText,
    FrameTitle,
    LaneHeader,
    /// Arrow labels, branch labels (`then (yes)`), loop labels.
    FlowLabel,
    Other,
}

impl Construct {
    pub fn name(self) -> &'static str {
        match self {
            Construct::Title => "title",
            Construct::Participant => "participant head/foot",
            Construct::Lifeline => "lifeline",
            Construct::Activation => "activation bar",
            Construct::MessageLine => "message/separator line",
            Construct::Arrowhead => "arrowhead",
            Construct::Message => "message label",
            Construct::GroupFrame => "group/ref frame",
            Construct::FilledRect => "filled rect (backgrounds, dividers)",
            Construct::NoteOrTab => "note outline / group tab",
            Construct::Note => "note text",
            Construct::Group => "group header text",
            Construct::Legend => "legend",
            Construct::HeaderFooter => "header/footer",
            Construct::Action => "action box",
            Construct::Diamond => "diamond (if/merge/while/repeat)",
            Construct::Bar => "fork/join bar",
            Construct::Disc => "start/stop/end disc, connector",
            Construct::ArrowLine => "arrow segment",
            Construct::NoteOutline => "note outline",
            Construct::Frame => "partition/group frame",
            Construct::FrameTab => "partition/group title tab",
            Construct::LaneBorder => "swimlane border",
            Construct::LaneBackground => "swimlane background",
            Construct::Banner => "warning banner",
            Construct::ActionText => "action text",
            Construct::ConditionText => "condition text",
            Construct::FrameTitle => "partition/group title",
            Construct::LaneHeader => "swimlane header",
            Construct::FlowLabel => "arrow/branch label",
            Construct::Other => "other",
        }
    }
}

/// A shape's bounding box and what it was classified as.
#[derive(Debug, Clone, Copy)]
struct Shape {
    construct: Construct,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

#[derive(Debug, Clone)]
struct Text {
    construct: Construct,
    text: String,
    x: f64,
    y: f64,
}

/// Placed / total per construct, texts and shapes apart.
#[derive(Default, Debug, Clone)]
pub struct Tally {
    pub texts: BTreeMap<Construct, (usize, usize)>,
    pub shapes: BTreeMap<Construct, (usize, usize)>,
    /// PlantUML's texts and shapes left unplaced, with puml's nearest
    /// partner (`cargo xtask fidelity --misses` lists them per diagram).
    pub misses: Vec<String>,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        for (k, (p, t)) in &other.texts {
            let e = self.texts.entry(*k).or_default();
            e.0 += p;
            e.1 += t;
        }
        for (k, (p, t)) in &other.shapes {
            let e = self.shapes.entry(*k).or_default();
            e.0 += p;
            e.1 += t;
        }
    }

    /// Texts and shapes placed / total over every construct.
    pub fn totals(&self) -> ((usize, usize), (usize, usize)) {
        let sum = |m: &BTreeMap<Construct, (usize, usize)>| m.values().fold((0, 0), |(a, b), (p, t)| (a + p, b + t));
        (sum(&self.texts), sum(&self.shapes))
    }

    /// Counts PlantUML's shapes of a page that puml did not draw at all
    /// (its page missing or not rendered).
    pub fn count_unplaced(&mut self, plantuml_svg: &str) {
        if let Some(page) = read_page(plantuml_svg, true, is_activity(plantuml_svg)) {
            for t in page.texts {
                self.texts.entry(t.construct).or_default().1 += 1;
            }
            for s in page.shapes {
                self.shapes.entry(s.construct).or_default().1 += 1;
            }
        }
    }
}

/// Compares one page: PlantUML's SVG text with puml's.
pub fn compare(plantuml_svg: &str, puml_svg: &str) -> Tally {
    let mut tally = Tally::default();
    let activity = is_activity(plantuml_svg);
    let (Some(theirs), Some(ours)) = (
        read_page(plantuml_svg, true, activity),
        read_page(puml_svg, false, activity),
    ) else {
        tally.count_unplaced(plantuml_svg);
        return tally;
    };
    // Texts: a text's construct is the one puml drew it in; PlantUML's own
    // groups (title, legend, header, footer) name theirs when they have one.
    let pairs = pair_nearest(theirs.texts.len(), ours.texts.len(), |i, j| {
        let (a, b) = (&theirs.texts[i], &ours.texts[j]);
        (a.text == b.text).then(|| (a.x - b.x).abs().max((a.y - b.y).abs()))
    });
    for (i, text) in theirs.texts.iter().enumerate() {
        let (construct, placed) = match pairs[i] {
            Some(j) => {
                let o = &ours.texts[j];
                let construct = if text.construct == Construct::Other {
                    o.construct
                } else {
                    text.construct
                };
                let placed = (o.x - text.x).abs() <= TOLERANCE_PX && (o.y - text.y).abs() <= TOLERANCE_PX;
                (construct, placed)
            }
            None => (text.construct, false),
        };
        if !placed {
            let ours = pairs[i].map(|j| format!("({:.1}, {:.1})", ours.texts[j].x, ours.texts[j].y));
            tally.misses.push(format!(
                "{} {:?}: plantuml ({:.1}, {:.1}) puml {}",
                construct.name(),
                text.text,
                text.x,
                text.y,
                ours.as_deref().unwrap_or("none")
            ));
        }
        let e = tally.texts.entry(construct).or_default();
        e.0 += usize::from(placed);
        e.1 += 1;
    }
    let pairs = pair_nearest(theirs.shapes.len(), ours.shapes.len(), |i, j| {
        let (a, b) = (&theirs.shapes[i], &ours.shapes[j]);
        (a.construct == b.construct).then(|| {
            (a.x0 - b.x0)
                .abs()
                .max((a.y0 - b.y0).abs())
                .max((a.x1 - b.x1).abs())
                .max((a.y1 - b.y1).abs())
        })
    });
    for (i, shape) in theirs.shapes.iter().enumerate() {
        let placed = pairs[i].is_some_and(|j| {
            let o = &ours.shapes[j];
            (o.x0 - shape.x0).abs() <= TOLERANCE_PX
                && (o.y0 - shape.y0).abs() <= TOLERANCE_PX
                && (o.x1 - shape.x1).abs() <= TOLERANCE_PX
                && (o.y1 - shape.y1).abs() <= TOLERANCE_PX
        });
        if !placed {
            let ours = pairs[i].map(|j| {
                let o = &ours.shapes[j];
                format!("[{:.1} {:.1} {:.1} {:.1}]", o.x0, o.y0, o.x1, o.y1)
            });
            tally.misses.push(format!(
                "{}: plantuml [{:.1} {:.1} {:.1} {:.1}] puml {}",
                shape.construct.name(),
                shape.x0,
                shape.y0,
                shape.x1,
                shape.y1,
                ours.as_deref().unwrap_or("none")
            ));
        }
        let e = tally.shapes.entry(shape.construct).or_default();
        e.0 += usize::from(placed);
        e.1 += 1;
    }
    tally
}

/// Whether PlantUML's page is an activity diagram's (PlantUML names the
/// kind on its root element), whose shapes are classified as activity
/// constructs on both sides.
pub fn is_activity(plantuml_svg: &str) -> bool {
    plantuml_svg
        .get(..plantuml_svg.len().min(2_000))
        .unwrap_or(plantuml_svg)
        .contains(r#"data-diagram-type="ACTIVITY""#)
}

/// Pairs left items with right items, closest pairs first; `distance`
/// is `None` when the two may not pair. Returns each left item's partner.
fn pair_nearest(left: usize, right: usize, distance: impl Fn(usize, usize) -> Option<f64>) -> Vec<Option<usize>> {
    let mut candidates = Vec::new();
    for i in 0..left {
        for j in 0..right {
            if let Some(d) = distance(i, j) {
                candidates.push((d, i, j));
            }
        }
    }
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut partner = vec![None; left];
    let mut taken = vec![false; right];
    for (_, i, j) in candidates {
        if partner[i].is_none() && !taken[j] {
            partner[i] = Some(j);
            taken[j] = true;
        }
    }
    partner
}

struct Page {
    texts: Vec<Text>,
    shapes: Vec<Shape>,
}

/// What one SVG draws, classified. `plantuml` says whose SVG it is: only
/// for a sequence diagram's texts, whose construct comes from PlantUML's
/// named groups on one side and puml's element classes on the other. An
/// activity diagram's texts take the construct of the shape they are
/// written in, on either side (PlantUML names none of its elements there).
fn read_page(svg: &str, plantuml: bool, activity: bool) -> Option<Page> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    // A multi-page answer from puml is several SVG documents in a row;
    // the first page is compared.
    let first = match svg.find("</svg>") {
        Some(end) => &svg[..end + "</svg>".len()],
        None => svg,
    };
    let doc = roxmltree::Document::parse_with_options(first, options).ok()?;
    let root = doc.root_element();
    let canvas = (
        number(root.attribute("width")).unwrap_or(0.0),
        number(root.attribute("height")).unwrap_or(0.0),
    );
    let mut raw = Vec::new();
    let mut texts = Vec::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        let tag = node.tag_name().name();
        if tag == "text" {
            let text: String = node
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            if text.trim().is_empty() || text.starts_with("Please use") {
                continue;
            }
            let (Some(x), Some(y)) = (number(node.attribute("x")), number(node.attribute("y"))) else {
                continue;
            };
            texts.push(Text {
                // An activity page's texts are classified by their shapes below.
                construct: text_construct(node, plantuml || activity),
                text,
                x,
                y,
            });
            continue;
        }
        if let Some(shape) = raw_shape(node, canvas) {
            raw.push(shape);
        }
    }
    if activity {
        let shapes = classify_activity(raw);
        for text in &mut texts {
            if text.construct == Construct::Other {
                text.construct = activity_text_construct(text, &shapes);
            }
        }
        return Some(Page { texts, shapes });
    }
    Some(Page {
        texts,
        shapes: classify(raw),
    })
}

/// The construct of the smallest action, diamond, note or frame tab the
/// text starts in; a text in the swimlanes' header row is a lane header;
/// anything else labels the flow.
fn activity_text_construct(text: &Text, shapes: &[Shape]) -> Construct {
    // Just inside the text's start: a branch label ends where its diamond
    // begins, and the next one starts where it ends.
    let (x, y) = (text.x + 0.5, text.y - 3.0);
    let holder = shapes
        .iter()
        .filter(|s| {
            matches!(
                s.construct,
                Construct::Action | Construct::Diamond | Construct::NoteOutline | Construct::FrameTab | Construct::Disc
            )
        })
        .filter(|s| s.x0 <= x && x <= s.x1 && s.y0 <= y && y <= s.y1)
        .min_by(|a, b| ((a.x1 - a.x0) * (a.y1 - a.y0)).total_cmp(&((b.x1 - b.x0) * (b.y1 - b.y0))));
    match holder.map(|s| s.construct) {
        Some(Construct::Action) => return Construct::ActionText,
        Some(Construct::Diamond) => return Construct::ConditionText,
        Some(Construct::NoteOutline) => return Construct::Note,
        Some(Construct::FrameTab) => return Construct::FrameTitle,
        Some(_) => return Construct::Other,
        None => {}
    }
    let lane_top = shapes
        .iter()
        .filter(|s| s.construct == Construct::LaneBorder)
        .map(|s| s.y0)
        .fold(f64::INFINITY, f64::min);
    // The header row is the first line of text under the lanes' top.
    if lane_top.is_finite() && text.y > lane_top && text.y - lane_top <= 30.0 {
        return Construct::LaneHeader;
    }
    Construct::FlowLabel
}

/// An activity diagram's shapes by their geometry, the same rules for
/// both tools: rounded boxes are actions, polygons arrowheads (small, four
/// corners) or diamonds and hexagons, flat rectangles bars, ellipses the
/// start/stop/end discs and connectors, thick vertical lines swimlane
/// borders, filled paths notes and open ones the tabs of frames.
fn classify_activity(raw: Vec<RawShape>) -> Vec<Shape> {
    // Swimlane borders: thick vertical lines, every one from the lanes' top
    // to their bottom (a thick arrow segment shares neither end with another).
    let thick_vertical = |s: &RawShape| s.tag == "line" && s.x0 == s.x1 && s.stroke_width >= 1.4 && s.y1 - s.y0 > 20.0;
    let is_lane_border = |s: &RawShape| {
        thick_vertical(s)
            && raw
                .iter()
                .filter(|o| thick_vertical(o) && o.x0 != s.x0 && o.y0 == s.y0 && o.y1 == s.y1)
                .count()
                > 0
    };
    let inside_an_ellipse = |s: &RawShape| {
        raw.iter()
            .any(|e| e.tag == "ellipse" && e.x0 <= s.x0 && s.x1 <= e.x1 && e.y0 <= s.y0 && s.y1 <= e.y1)
    };
    let lane_top = raw
        .iter()
        .filter(|s| is_lane_border(s))
        .map(|s| s.y0)
        .fold(f64::INFINITY, f64::min);
    let mut seen = std::collections::HashSet::new();
    raw.iter()
        .filter_map(|s| {
            let (w, h) = (s.x1 - s.x0, s.y1 - s.y0);
            let construct = match s.tag {
                "ellipse" => Construct::Disc,
                "line" if is_lane_border(s) => Construct::LaneBorder,
                // `end`'s cross, drawn over its disc.
                "line" if w > 0.0 && h > 0.0 && w <= 20.0 && h <= 20.0 => Construct::Disc,
                "line" => Construct::ArrowLine,
                "polygon" if s.points <= 4 && w <= 16.0 && h <= 16.0 => Construct::Arrowhead,
                "polygon" if s.points <= 6 => Construct::Diamond,
                // SDL-shaped actions (`:a|`, `:a>`, …).
                "polygon" => Construct::Action,
                // PlantUML's invisible box behind the swimlanes' header row.
                "rect" if !s.filled && !s.stroked => return None,
                "rect" if h <= 8.5 => Construct::Bar,
                "rect" if s.rx >= 5.0 => Construct::Action,
                // PlantUML's colours for its warnings ("This syntax is deprecated").
                "rect" if s.fill_colour == "#FFFFCC" && s.stroke_colour == "#FFDD88" => Construct::Banner,
                "rect" if s.filled && (s.y0 - lane_top).abs() < 1.0 => Construct::LaneBackground,
                "rect" => Construct::Frame,
                // A glyph PlantUML draws as an outline (a connector's letter).
                "path" if s.points > 12 || inside_an_ellipse(s) => return None,
                "path" if s.filled => Construct::NoteOutline,
                "path" => Construct::FrameTab,
                _ => Construct::Other,
            };
            Some(Shape {
                construct,
                x0: s.x0,
                y0: s.y0,
                x1: s.x1,
                y1: s.y1,
            })
        })
        .filter(|shape| {
            let key = (
                shape.construct,
                [shape.x0, shape.y0, shape.x1, shape.y1].map(|v| (v * 1000.0).round() as i64),
            );
            seen.insert(key)
        })
        .collect()
}

fn text_construct(node: roxmltree::Node, plantuml: bool) -> Construct {
    let class = node
        .ancestors()
        .filter_map(|a| a.attribute("class"))
        .next()
        .unwrap_or("");
    match class {
        "title" => return Construct::Title,
        "legend" => return Construct::Legend,
        "header" | "footer" => return Construct::HeaderFooter,
        _ => {}
    }
    if plantuml {
        return Construct::Other;
    }
    match class {
        "participant" | "participant-foot" => Construct::Participant,
        "note" => Construct::Note,
        "group" => Construct::Group,
        _ => {
            // Outside a named element: a message label follows its line
            // and head, the title comes before anything is drawn.
            let previous = node
                .prev_siblings()
                .filter(|s| s.is_element() && s.tag_name().name() != "text")
                .map(|s| s.tag_name().name())
                .next();
            match previous {
                Some("line" | "polygon" | "path") => Construct::Message,
                None => Construct::Title,
                _ => Construct::Other,
            }
        }
    }
}

/// A drawn element before classification.
struct RawShape {
    tag: &'static str,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    dashed: bool,
    filled: bool,
    /// Whether an outline is drawn (`stroke:none` draws none).
    stroked: bool,
    stroke_width: f64,
    /// A rectangle's corner radius.
    rx: f64,
    /// Distinct corners of a polygon, end points of a path.
    points: usize,
    /// The fill and outline colours as `#RRGGBB` (empty when none).
    fill_colour: String,
    stroke_colour: String,
}

fn raw_shape(node: roxmltree::Node, canvas: (f64, f64)) -> Option<RawShape> {
    let attr = |name: &str| number(node.attribute(name));
    let style = node.attribute("style").unwrap_or("");
    let style_value = |name: &str| {
        style
            .split(';')
            .filter_map(|kv| kv.split_once(':'))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_string())
    };
    let dash = node
        .attribute("stroke-dasharray")
        .map(str::to_string)
        .or_else(|| style_value("stroke-dasharray"));
    let fill = node
        .attribute("fill")
        .map(str::to_string)
        .or_else(|| style_value("fill"));
    let invisible = node
        .attribute("fill-opacity")
        .is_some_and(|o| number(Some(o)) == Some(0.0));
    let filled = fill.as_deref().is_some_and(|f| f != "none") && !invisible;
    let stroke = node
        .attribute("stroke")
        .map(str::to_string)
        .or_else(|| style_value("stroke"));
    let stroked = stroke.as_deref().is_some_and(|s| s != "none");
    let stroke_width = number(node.attribute("stroke-width"))
        .or_else(|| number(style_value("stroke-width").as_deref()))
        .unwrap_or(1.0);
    let mut points = 0;
    let (tag, x0, y0, x1, y1) = match node.tag_name().name() {
        "rect" => {
            let (x, y, w, h) = (attr("x")?, attr("y")?, attr("width")?, attr("height")?);
            // PlantUML's invisible hit areas over lifelines, and puml's
            // page background, are not drawn shapes.
            if invisible || (x == 0.0 && y == 0.0 && (w - canvas.0).abs() < 1.0 && (h - canvas.1).abs() < 1.0) {
                return None;
            }
            ("rect", x, y, x + w, y + h)
        }
        "line" => {
            let (x1, y1, x2, y2) = (attr("x1")?, attr("y1")?, attr("x2")?, attr("y2")?);
            ("line", x1.min(x2), y1.min(y2), x1.max(x2), y1.max(y2))
        }
        "ellipse" | "circle" => {
            let (cx, cy) = (attr("cx")?, attr("cy")?);
            let rx = attr("rx").or_else(|| attr("r"))?;
            let ry = attr("ry").or_else(|| attr("r"))?;
            ("ellipse", cx - rx, cy - ry, cx + rx, cy + ry)
        }
        "polygon" | "polyline" => {
            let coords = numbers(node.attribute("points")?);
            points = distinct_points(&coords);
            let (x0, y0, x1, y1) = bounds(&coords)?;
            ("polygon", x0, y0, x1, y1)
        }
        "path" => {
            let coords = path_points(node.attribute("d")?);
            points = distinct_points(&coords);
            let (x0, y0, x1, y1) = bounds(&coords)?;
            ("path", x0, y0, x1, y1)
        }
        _ => return None,
    };
    Some(RawShape {
        tag,
        x0,
        y0,
        x1,
        y1,
        dashed: dash.is_some_and(|d| d != "none"),
        filled,
        stroked,
        stroke_width,
        rx: attr("rx").unwrap_or(0.0),
        points,
        fill_colour: fill.as_deref().map(full_hex).unwrap_or_default(),
        stroke_colour: stroke.as_deref().map(full_hex).unwrap_or_default(),
    })
}

/// `#FD8` and `#ffdd88` both as `#FFDD88`; anything else unchanged.
fn full_hex(colour: &str) -> String {
    let colour = colour.trim().to_ascii_uppercase();
    match colour.strip_prefix('#') {
        Some(short) if short.len() == 3 => {
            let mut full = String::from("#");
            for c in short.chars() {
                full.push(c);
                full.push(c);
            }
            full
        }
        _ => colour,
    }
}

/// How many different points a list of coordinates visits (a closed
/// outline repeats its first one).
fn distinct_points(coords: &[f64]) -> usize {
    let mut seen: Vec<(i64, i64)> = coords
        .chunks_exact(2)
        .map(|p| ((p[0] * 100.0).round() as i64, (p[1] * 100.0).round() as i64))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

fn classify(raw: Vec<RawShape>) -> Vec<Shape> {
    let is_lifeline = |s: &RawShape| s.tag == "line" && s.x0 == s.x1 && s.dashed && s.y1 - s.y0 > 20.0;
    let lifelines: Vec<&RawShape> = raw.iter().filter(|s| is_lifeline(s)).collect();
    let top = lifelines.iter().map(|s| s.y0).fold(f64::INFINITY, f64::min);
    let bottom = lifelines.iter().map(|s| s.y1).fold(f64::NEG_INFINITY, f64::max);
    let mut seen = std::collections::HashSet::new();
    raw.iter()
        .map(|s| {
            let construct = if is_lifeline(s) {
                Construct::Lifeline
            } else if s.tag == "rect" && ((s.x1 - s.x0) - 10.0).abs() < 0.01 && s.y1 - s.y0 > 0.0 {
                Construct::Activation
            } else if s.tag == "polygon" && s.x1 - s.x0 <= 16.0 && s.y1 - s.y0 <= 16.0 {
                Construct::Arrowhead
            } else if !lifelines.is_empty() && (s.y1 <= top + 0.01 || s.y0 >= bottom - 0.01) {
                Construct::Participant
            } else {
                match s.tag {
                    "line" => Construct::MessageLine,
                    "rect" if s.filled => Construct::FilledRect,
                    "rect" => Construct::GroupFrame,
                    "path" | "polygon" => Construct::NoteOrTab,
                    _ => Construct::Other,
                }
            };
            Shape {
                construct,
                x0: s.x0,
                y0: s.y0,
                x1: s.x1,
                y1: s.y1,
            }
        })
        // A shape drawn again exactly over itself adds nothing to the
        // picture (PlantUML strokes each group frame twice): count it once.
        .filter(|shape| {
            let key = (
                shape.construct,
                [shape.x0, shape.y0, shape.x1, shape.y1].map(|v| (v * 1000.0).round() as i64),
            );
            seen.insert(key)
        })
        .collect()
}

fn number(v: Option<&str>) -> Option<f64> {
    v?.trim()
        .trim_end_matches("px")
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
}

/// Every number in a list such as `points` or a path's data.
fn numbers(text: &str) -> Vec<f64> {
    let mut out = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<f64>| {
        if let Ok(n) = current.parse::<f64>() {
            out.push(n);
        }
        current.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || c == '.' || (c == '-' && current.is_empty()) || c == 'e' {
            current.push(c);
        } else if c == '-' {
            flush(&mut current, &mut out);
            current.push(c);
        } else {
            flush(&mut current, &mut out);
        }
    }
    flush(&mut current, &mut out);
    out
}

/// The end points of a path's absolute commands (M, L, Q, C, A, H, V);
/// control points are left out, so a curve's box is its end points'.
fn path_points(d: &str) -> Vec<f64> {
    // Split into (command, its numbers) first, then walk the commands.
    let mut commands: Vec<(char, String)> = Vec::new();
    for c in d.chars() {
        if c.is_ascii_alphabetic() && c != 'e' {
            commands.push((c, String::new()));
        } else if let Some((_, args)) = commands.last_mut() {
            args.push(c);
        }
    }
    let mut points = Vec::new();
    let mut last = (0.0, 0.0);
    for (command, args) in commands {
        let n = numbers(&args);
        let ends: Vec<(f64, f64)> = match command {
            'M' | 'L' | 'T' => n.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
            'Q' | 'S' => n.chunks_exact(4).map(|p| (p[2], p[3])).collect(),
            'C' => n.chunks_exact(6).map(|p| (p[4], p[5])).collect(),
            'A' => n.chunks_exact(7).map(|p| (p[5], p[6])).collect(),
            'H' => n.iter().map(|&x| (x, last.1)).collect(),
            'V' => n.iter().map(|&y| (last.0, y)).collect(),
            _ => Vec::new(),
        };
        for (x, y) in ends {
            points.push(x);
            points.push(y);
            last = (x, y);
        }
    }
    points
}

fn bounds(coords: &[f64]) -> Option<(f64, f64, f64, f64)> {
    if coords.len() < 2 {
        return None;
    }
    let mut b = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in coords.chunks_exact(2) {
        b = (b.0.min(p[0]), b.1.min(p[1]), b.2.max(p[0]), b.3.max(p[1]));
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLANTUML: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="200">
<g class="title"><text x="10" y="20">T</text></g>
<g><title>A</title><rect x="1" y="50" width="8" height="100" fill="#000" fill-opacity="0"/>
<line x1="5" y1="50" x2="5" y2="150" style="stroke:#181818;stroke-dasharray:5,5;"/></g>
<rect x="0" y="60" width="10" height="30" fill="#FFF"/>
<rect x="0" y="20" width="30" height="30" fill="#E2E2F0"/>
<text x="3" y="40">A</text>
<polygon points="50,70,60,74,50,78,54,74" fill="#181818"/>
<line x1="5" y1="74" x2="60" y2="74" style="stroke:#181818;"/>
<text x="12" y="70">hello</text>
</svg>"##;

    #[test]
    fn identical_pages_place_everything_per_construct() {
        let tally = compare(PLANTUML, PLANTUML);
        let ((tp, tt), (sp, st)) = tally.totals();
        assert_eq!((tp, tt), (3, 3));
        assert_eq!((sp, st), (5, 5), "{tally:?}");
        assert_eq!(tally.shapes[&Construct::Lifeline], (1, 1));
        assert_eq!(tally.shapes[&Construct::Activation], (1, 1));
        assert_eq!(tally.shapes[&Construct::Arrowhead], (1, 1));
        assert_eq!(tally.shapes[&Construct::Participant], (1, 1));
        assert_eq!(tally.shapes[&Construct::MessageLine], (1, 1));
        assert_eq!(tally.texts[&Construct::Title], (1, 1));
    }

    #[test]
    fn a_moved_shape_or_text_is_not_placed() {
        let moved = PLANTUML
            .replace(r#"<rect x="0" y="60""#, r#"<rect x="0" y="63""#)
            .replace(r#"<text x="12" y="70">"#, r#"<text x="15" y="70">"#);
        let tally = compare(PLANTUML, &moved);
        assert_eq!(tally.shapes[&Construct::Activation], (0, 1));
        let ((tp, tt), (sp, st)) = tally.totals();
        assert_eq!((tp, tt), (2, 3));
        assert_eq!((sp, st), (4, 5));
    }

    const ACTIVITY: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" data-diagram-type="ACTIVITY" width="300" height="300">
<rect x="20" y="17" width="200" height="20" fill="none" style="stroke:none;"/>
<ellipse cx="84" cy="53" rx="10" ry="10" fill="#222" style="stroke:#222;stroke-width:1;"/>
<rect x="26" y="83" width="116" height="34" fill="#F1F1F1" style="stroke:#181818;stroke-width:0.5;" rx="12.5" ry="12.5"/>
<text x="36" y="104">Check</text>
<polygon points="37,130,61,130,73,142,61,154,37,154,25,142,37,130" fill="#F1F1F1"/>
<text x="40" y="146">ok?</text>
<text x="80" y="140">yes</text>
<rect x="30" y="170" width="100" height="6" fill="#555" rx="2"/>
<rect x="24" y="180" width="150" height="60" fill="none" style="stroke:#000;stroke-width:1.5;"/>
<path d="M60,180 L60,188 L52,196 L24,196" fill="none" style="stroke:#000;stroke-width:1.5;"/>
<text x="26" y="192">Part</text>
<path d="M150,90 L150,120 L200,120 L200,100 L190,90 L150,90" fill="#FEFFDD" style="stroke:#181818;"/>
<text x="155" y="110">a note</text>
<line x1="84" y1="63" x2="84" y2="83" style="stroke:#181818;stroke-width:1;"/>
<polygon points="80,73,84,83,88,73,84,77" fill="#181818"/>
<line x1="20" y1="17" x2="20" y2="280" style="stroke:#000;stroke-width:1.5;"/>
<line x1="220" y1="17" x2="220" y2="280" style="stroke:#000;stroke-width:1.5;"/>
<text x="60" y="33">Lane</text>
<ellipse cx="84" cy="260" rx="10" ry="10" fill="#F1F1F1"/>
<path d="M82,256 L80,262 L84,262 L82,256 Z" fill="#000"/>
</svg>"##;

    #[test]
    fn activity_shapes_and_texts_are_classified_by_geometry() {
        let page = read_page(ACTIVITY, true, is_activity(ACTIVITY)).unwrap();
        let shapes: Vec<Construct> = page.shapes.iter().map(|s| s.construct).collect();
        assert_eq!(
            shapes,
            [
                Construct::Disc,
                Construct::Action,
                Construct::Diamond,
                Construct::Bar,
                Construct::Frame,
                Construct::FrameTab,
                Construct::NoteOutline,
                Construct::ArrowLine,
                Construct::Arrowhead,
                Construct::LaneBorder,
                Construct::LaneBorder,
                Construct::Disc,
            ],
            "the invisible header box and the connector's glyph are not shapes"
        );
        let texts: Vec<(&str, Construct)> = page.texts.iter().map(|t| (t.text.as_str(), t.construct)).collect();
        assert_eq!(
            texts,
            [
                ("Check", Construct::ActionText),
                ("ok?", Construct::ConditionText),
                ("yes", Construct::FlowLabel),
                ("Part", Construct::FrameTitle),
                ("a note", Construct::Note),
                ("Lane", Construct::LaneHeader),
            ]
        );
        let moved = ACTIVITY.replace(r#"<rect x="26" y="83""#, r#"<rect x="26" y="86""#);
        let tally = compare(ACTIVITY, &moved);
        assert_eq!(tally.shapes[&Construct::Action], (0, 1));
        assert_eq!(tally.shapes[&Construct::Diamond], (1, 1));
    }

    #[test]
    fn path_bounds_follow_end_points() {
        let p = path_points("M23,213.6 L663,213.6 A10,10 0 0 1 673,223.6 L673,370 L13,370 Z");
        assert_eq!(bounds(&p), Some((13.0, 213.6, 673.0, 370.0)));
        assert_eq!(numbers("1,-2 3e2-4"), vec![1.0, -2.0, 300.0, -4.0]);
    }
}
