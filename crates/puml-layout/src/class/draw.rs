//! Draws a placed class diagram: packages (tab folders), element boxes,
//! notes and links (dot's spline as PlantUML draws it, shortened at each
//! end by the decoration drawn there), in PlantUML's order and inside the
//! groups PlantUML writes.

use super::entity::translate;
use super::graph::{Built, LinkEdge};
use super::look::ClassLook;
use crate::color::parse_color;
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, Item, Paint, PathSegment, Scene, Stroke, TextRun};
use crate::shapes::{dashed, ellipse, line, paint, polygon, stroke, PathBuilder};
use puml_graph::{Layout, Point, Rect};
use puml_sema::class::{ClassDiagram, LineStyle, Link, LinkDirection, LinkEnd, LinkHead, NoteTarget};
use puml_sema::model::Diagram;

/// PlantUML leaves this much room around the drawing (its margin, with
/// the half pixel dot's boxes sit in).
const MARGIN: f64 = 7.0;
/// Packages are drawn one pixel further out than nodes.
const CLUSTER_MARGIN: f64 = 6.0;
/// Quarter-circle control distance for a cubic Bézier.
const KAPPA: f64 = 0.552_284_75;

struct Ids {
    next: u32,
}

impl Ids {
    fn take(&mut self) -> u32 {
        self.next += 1;
        self.next
    }
}

/// `prefix` then `n` in decimal, zero-padded to `width` digits: what
/// `format!("ent{n:04}")` and `format!("lnk{n}")` write, without the
/// formatter (a page names every entity and link).
pub(crate) fn numbered(prefix: &str, n: u32, width: usize) -> String {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let len = digits.len() - at;
    let mut out = String::with_capacity(prefix.len() + len.max(width));
    out.push_str(prefix);
    for _ in len..width {
        out.push('0');
    }
    // ASCII digits only.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
    out
}

/// A name as PlantUML writes it in `data-qualified-name`: every character
/// but ASCII letters, digits, `_`, `-` and spaces becomes `.` (observed:
/// `a::b` → `a..b`, `(x)` → `.x.`, Cyrillic letters → `.`, `Use-A-Portal`
/// kept).
pub(crate) fn marker_name(name: &str) -> String {
    if name.is_ascii() {
        // One byte per character: mapped byte for byte.
        let bytes = name
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || matches!(b, b'_' | b' ' | b'-') {
                    b
                } else {
                    b'.'
                }
            })
            .collect();
        return String::from_utf8(bytes).unwrap_or_default();
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | ' ' | '-') {
                c
            } else {
                '.'
            }
        })
        .collect()
}

pub(crate) fn group(out: &mut Vec<Item>, class: &str, data: Vec<(String, String)>) {
    out.push(Item::Begin {
        class: class.to_string(),
        title: None,
        link: None,
        data,
    });
}

pub(crate) fn text(x: f64, baseline: f64, s: &str, font: Font, color: Color, width: f64) -> Item {
    Item::Text(TextRun {
        x: round3(x),
        y: round3(baseline),
        text: s.to_string(),
        font,
        color,
        width: round3(width),
        underline: false,
        strike: false,
        link: None,
    })
}

pub(crate) fn draw(
    diagram: &Diagram,
    class: &ClassDiagram,
    look: &ClassLook,
    built: &mut Built,
    placed: &Layout,
    metrics: &dyn TextMeasure,
) -> Scene {
    // Move the drawing so that its boxes start at PlantUML's margin.
    let mut min_x = f64::INFINITY;
    let mut min_y = f64::INFINITY;
    let mut max_x: f64 = 0.0;
    let mut max_y: f64 = 0.0;
    let extra = look.extra_margin;
    for rect in &placed.nodes {
        min_x = min_x.min(rect.x - MARGIN - extra);
        min_y = min_y.min(rect.y - MARGIN - extra);
    }
    for cluster in built.packages.iter().flatten() {
        if let Some(rect) = placed.clusters.get(*cluster).filter(|r| r.width > 0.0) {
            min_x = min_x.min(rect.x - CLUSTER_MARGIN - extra);
            min_y = min_y.min(rect.y - CLUSTER_MARGIN - extra);
        }
    }
    if !min_x.is_finite() {
        min_x = 0.0;
        min_y = 0.0;
    }
    let (dx, dy) = (-min_x, -min_y);
    let shift = |r: &Rect| Rect {
        x: r.x + dx,
        y: r.y + dy,
        width: r.width,
        height: r.height,
    };

    // The boxes' items, and room for the links, notes and packages (each
    // a handful of items): grown from empty, the page's list was copied
    // at every doubling.
    let boxes: usize = built.entities.iter().flatten().map(|e| e.body.items.len()).sum();
    let mut out: Vec<Item> = Vec::with_capacity(
        boxes + 2 * class.elements.len() + 8 * (class.links.len() + class.notes.len() + class.packages.len()) + 16,
    );
    let mut ids = Ids { next: 0 };
    let mut entity_ids: Vec<Option<String>> = vec![None; class.elements.len()];
    let mut package_ids: Vec<Option<String>> = vec![None; class.packages.len()];

    // Packages, parents first.
    for (i, package) in class.packages.iter().enumerate() {
        let Some(cluster) = built.packages[i] else { continue };
        let Some(rect) = placed.clusters.get(cluster).filter(|r| r.width > 0.0).map(shift) else {
            continue;
        };
        let id = ids.take();
        package_ids[i] = Some(numbered("ent", id, 4));
        group(
            &mut out,
            "cluster",
            vec![
                ("data-qualified-name".into(), marker_name(&package.qualified_name)),
                ("id".into(), numbered("ent", id, 4)),
            ],
        );
        draw_package(
            &mut out,
            &rect,
            &package.display,
            built.package_titles[i],
            package,
            look,
            metrics,
        );
        out.push(Item::End);
        max_x = max_x.max(rect.x + rect.width + CLUSTER_MARGIN);
        max_y = max_y.max(rect.y + rect.height + CLUSTER_MARGIN);
    }

    // Elements.
    for (i, element) in class.elements.iter().enumerate() {
        let Some(entity) = &mut built.entities[i] else { continue };
        let rect = shift(&placed.nodes[entity.node]);
        let id = numbered("ent", ids.take(), 4);
        group(
            &mut out,
            "entity",
            vec![
                ("data-qualified-name".into(), marker_name(&element.qualified_name)),
                ("id".into(), id.clone()),
            ],
        );
        entity_ids[i] = Some(id);
        // The box's items are drawn once: moved onto the page, not copied.
        let from = out.len();
        out.append(&mut entity.body.items);
        translate(&mut out[from..], rect.x, rect.y);
        out.push(Item::End);
        max_x = max_x.max(rect.x + rect.width + MARGIN);
        max_y = max_y.max(rect.y + rect.height + MARGIN);
    }

    // Notes with a node of their own.
    let note_lh = metrics.line_height(&look.note_font);
    let note_ascent = metrics.ascent(&look.note_font);
    // PlantUML names a note `GMN` and the number its id counter gives it
    // when the note is read (`ClassNote::created_after`), qualified by the
    // package the note is written in.
    let mut note_ids: Vec<Option<String>> = vec![None; class.notes.len()];
    for (i, note) in class.notes.iter().enumerate() {
        let boxed = &built.notes[i];
        let Some(node) = boxed.node else { continue };
        let rect = shift(&placed.nodes[node]);
        let name = match &note.target {
            NoteTarget::Floating { alias: Some(alias) } => marker_name(alias),
            _ => {
                let own = format!("GMN{}", note.created_after + 1);
                match note.package.and_then(|p| class.packages.get(p.index())) {
                    Some(package) => marker_name(&format!("{}.{own}", package.qualified_name)),
                    None => own,
                }
            }
        };
        let id = numbered("ent", ids.take(), 4);
        note_ids[i] = Some(id.clone());
        group(
            &mut out,
            "entity",
            vec![("data-qualified-name".into(), name), ("id".into(), id)],
        );
        let fill = note.color.as_deref().and_then(parse_color).unwrap_or(look.note_bg);
        // A note beside an element points at it (PlantUML's "opale"
        // wedge) when the end of their edge at the element lies straight
        // beside or above or below the note; otherwise the note is drawn
        // alone and the edge as a dashed link.
        let toward = match &note.target {
            NoteTarget::Element { element, .. } => built
                .entities
                .get(element.index())
                .and_then(|e| e.as_ref())
                .map(|e| (entity_ids[element.index()].clone(), shift(&placed.nodes[e.node]))),
            NoteTarget::Package { package, .. } => built
                .packages
                .get(package.index())
                .copied()
                .flatten()
                .and_then(|cluster| placed.clusters.get(cluster))
                .map(|rect| (package_ids[package.index()].clone(), shift(rect))),
            _ => None,
        };
        // A container's note is linked to it by a dashed link (corpus 041).
        let pointing = matches!(note.target, NoteTarget::Element { .. });
        let route: Option<(Vec<Point>, bool)> = boxed.edge.and_then(|(edge, note_is_tail)| {
            let route = placed.edges.get(edge)?;
            (route.points.len() >= 2).then(|| {
                let points = route.points.iter().map(|p| Point::new(p.x + dx, p.y + dy)).collect();
                (points, note_is_tail)
            })
        });
        // PlantUML draws the wedge only when dot's path for the note's edge
        // is one Bézier piece (and never in strict UML style). A flat edge
        // (note beside its element on one rank) whose ends have another box
        // between them is routed around that box in several pieces.
        let flat = boxed
            .edge
            .and_then(|(edge, _)| built.graph.edges.get(edge))
            .is_some_and(|e| e.min_len == 0);
        let across = built.graph.options.rank_dir != puml_graph::RankDir::LeftToRight;
        let one_piece = !look.strict_uml
            && match &toward {
                Some((_, element)) if flat => !box_between_on_rank(&rect, element, across, &placed.nodes, &shift),
                _ => true,
            };
        let wedge = match (&toward, &route) {
            _ if !pointing || !one_piece => None,
            (Some((_, element)), Some((points, note_is_tail))) => {
                let (at_element, at_note) = if *note_is_tail {
                    (points[points.len() - 1], points[0])
                } else {
                    (points[0], points[points.len() - 1])
                };
                // Off to a side of the note: a straight path between
                // neighbouring ranks that no other box of either rank's
                // band stands in is still one piece, and PlantUML points
                // the wedge from the note's side nearest the path's end.
                opale(&rect, element, at_element, at_note).or_else(|| {
                    let clear = !flat
                        && straight(points)
                        && !crosses_rank_neighbour(at_note, at_element, &rect, element, across, &placed.nodes, &shift);
                    clear.then(|| nearest_side_wedge(&rect, at_element, at_note))
                })
            }
            (Some((_, element)), None) => opale(&rect, element, element_centre(element), element_centre(&rect)),
            _ => None,
        };
        draw_note_with_wedge(&mut out, &rect, fill, look, wedge);
        for (k, l) in boxed.lines.iter().enumerate() {
            let w = metrics.width(l, &look.note_font);
            out.push(text(
                rect.x + 6.0,
                rect.y + 5.0 + note_ascent + note_lh * k as f64,
                l,
                look.note_font,
                look.note_font_color,
                w,
            ));
        }
        out.push(Item::End);
        max_x = max_x.max(rect.x + rect.width + MARGIN);
        max_y = max_y.max(rect.y + rect.height + MARGIN);
        if let (None, Some((Some(element_id), _)), Some((points, _))) = (wedge, &toward, &route) {
            group(
                &mut out,
                "link",
                vec![
                    ("data-entity-1".into(), element_id.clone()),
                    ("data-entity-2".into(), note_ids[i].clone().unwrap_or_default()),
                    ("id".into(), numbered("lnk", ids.take(), 0)),
                ],
            );
            out.push(Item::Path {
                segments: bezier_segments(points),
                paint: Paint {
                    fill: None,
                    stroke: Some(dashed(look.arrow_color, look.arrow_thickness, 7.0, 7.0)),
                    gradient: None,
                    shadow: None,
                },
            });
            out.push(Item::End);
            for p in points {
                max_x = max_x.max(p.x + MARGIN);
                max_y = max_y.max(p.y + MARGIN);
            }
        }
    }

    // Links.
    for (i, link) in class.links.iter().enumerate() {
        let Some(edge) = &built.links[i] else { continue };
        if link.hidden {
            continue;
        }
        let Some(route) = placed.edges.get(edge.edge) else {
            continue;
        };
        if route.points.len() < 2 {
            continue;
        }
        let end_id = |end: &LinkEnd| match end {
            LinkEnd::Element(e) => entity_ids.get(e.index()).cloned().flatten(),
            LinkEnd::Note(n) => note_ids.get(*n as usize).cloned().flatten(),
            LinkEnd::Package(p) => package_ids.get(p.index()).cloned().flatten(),
            LinkEnd::Link(_) => None,
        };
        let (Some(from_id), Some(to_id)) = (end_id(&link.from), end_id(&link.to)) else {
            continue;
        };
        let id = ids.take();
        group(
            &mut out,
            "link",
            vec![
                ("data-entity-1".into(), from_id),
                ("data-entity-2".into(), to_id),
                ("id".into(), numbered("lnk", id, 0)),
            ],
        );
        let mut points: Vec<Point> = route.points.iter().map(|p| Point::new(p.x + dx, p.y + dy)).collect();
        // A link to a package stops at the package's border (the engine
        // routes it to the point inside).
        let (tail_end, head_end) = if edge.reversed {
            (&link.to, &link.from)
        } else {
            (&link.from, &link.to)
        };
        let package_rect = |end: &LinkEnd| match end {
            LinkEnd::Package(p) => built
                .packages
                .get(p.index())
                .copied()
                .flatten()
                .and_then(|c| placed.clusters.get(c))
                .map(shift),
            _ => None,
        };
        if let Some(rect) = package_rect(head_end) {
            points = clip_at(&points, &rect);
        }
        if let Some(rect) = package_rect(tail_end) {
            points.reverse();
            points = clip_at(&points, &rect);
            points.reverse();
        }
        if points.len() < 2 {
            out.push(Item::End);
            continue;
        }
        // `linetype ortho`/`polyline`: dot's routes of straight pieces.
        let end_rect = |end: &LinkEnd| match end {
            LinkEnd::Element(e) => built
                .entities
                .get(e.index())
                .and_then(|p| p.as_ref())
                .map(|p| shift(&placed.nodes[p.node])),
            LinkEnd::Note(n) => built
                .notes
                .get(*n as usize)
                .and_then(|b| b.node)
                .map(|node| shift(&placed.nodes[node])),
            LinkEnd::Package(_) | LinkEnd::Link(_) => None,
        };
        if look.ortho {
            if let (Some(tail), Some(head)) = (end_rect(tail_end), end_rect(head_end)) {
                let (from, to) = (points[0], points[points.len() - 1]);
                points = orthogonal_route(&tail, &head, from, to);
            }
        } else if look.polyline {
            points = straight_route(&points);
        }
        for p in &points {
            max_x = max_x.max(p.x + MARGIN);
            max_y = max_y.max(p.y + MARGIN);
        }
        draw_link(&mut out, link, edge, &points, look);
        let shifted = |p: Option<Point>| p.map(|p| Point::new(p.x + dx, p.y + dy));
        draw_link_texts(
            &mut out,
            link,
            edge,
            shifted(route.label).or_else(|| edge.label.map(|_| middle(&points))),
            shifted(route.tail_label),
            shifted(route.head_label),
            &points,
            look,
            metrics,
        );
        for p in [route.label, route.tail_label, route.head_label].into_iter().flatten() {
            max_x = max_x.max(p.x + dx + MARGIN + 20.0);
            max_y = max_y.max(p.y + dy + MARGIN + 10.0);
        }
        out.push(Item::End);
    }

    let (width, height) = add_legend(&mut out, diagram, metrics, max_x.max(10.0), max_y.max(10.0));
    let (width, height) = add_title(&mut out, diagram, look, metrics, width, height);
    let (width, height) = add_header_footer(&mut out, diagram, metrics, width, height);
    let (width, height) = add_banner(&mut out, diagram, metrics, width, height);
    Scene {
        width: round3(width),
        height: round3(height),
        background: look.background,
        items: out,
    }
}

/// `legend … endlegend`: a grey box of the text's lines (5 px of padding,
/// 7.5 px corners) centred under the drawing, as PlantUML 1.2026.8 draws
/// a class diagram's legend by default.
pub(crate) fn add_legend(
    out: &mut Vec<Item>,
    diagram: &Diagram,
    metrics: &dyn TextMeasure,
    width: f64,
    height: f64,
) -> (f64, f64) {
    let Some(legend) = diagram.legend.as_ref().filter(|l| !l.text.trim().is_empty()) else {
        return (width, height);
    };
    let font = Font::sans(14.0);
    let block = crate::creole::measure(&legend.text, font, metrics);
    let (w, h) = (block.width + 10.0, block.height + 10.0);
    let x = ((width - w) / 2.0).max(7.0);
    let y = height + 3.0;
    group(out, "legend", Vec::new());
    crate::shapes::rect(
        out,
        x,
        y,
        w,
        h,
        7.5,
        paint(Some(Color::hex(0xDDDDDD)), Some(stroke(Color::BLACK, 1.0))),
    );
    block.draw(x + 5.0, y + 5.0, crate::creole::Align::Left, Color::BLACK, out);
    out.push(Item::End);
    (width.max(x + w + 7.0), y + h + 18.0)
}

/// PlantUML's banner for the deprecated skinparams the diagram uses, in
/// one box above the drawing, a line per skinparam: `handwritten` (any
/// value) and `padding` (any value; probes
/// `test-data/description-probes/padding-*`). Each line is 21.64 px below
/// the one before; the drawing moves down by the box and 5 px.
pub(crate) fn add_banner(
    out: &mut Vec<Item>,
    diagram: &Diagram,
    metrics: &dyn TextMeasure,
    width: f64,
    height: f64,
) -> (f64, f64) {
    const BANNER_HEIGHT: f64 = 16.641;
    const LINE_STEP: f64 = 21.64;
    let uses = |name: &str| diagram.settings.skinparams.iter().any(|(k, _)| k == name);
    // (text, the box's width beyond the text)
    let mut lines: Vec<(&str, f64)> = Vec::new();
    if uses("padding") {
        lines.push(("Please use CSS style instead of skinparam padding", 10.0));
    }
    if uses("handwritten") {
        lines.push(("Please use '!option handwritten true' to enable handwritten", 12.0));
    }
    if lines.is_empty() {
        return (width, height);
    }
    let font = Font {
        family: crate::scene::FontFamily::Mono,
        ..Font::sans(10.0)
    };
    let widths: Vec<f64> = lines.iter().map(|(t, _)| metrics.width(t, &font)).collect();
    let text_box = lines
        .iter()
        .zip(&widths)
        .map(|((_, extra), w)| w + extra)
        .fold(0.0, f64::max);
    let box_h = BANNER_HEIGHT + LINE_STEP * (lines.len() - 1) as f64;
    // Observed: 21.641 px of room for one line (3 px above the box, 2
    // below), 43.281 for two.
    let room = 3.0 + box_h + 2.0;
    super::entity::translate(out, 0.0, room);
    let banner_w = (width - 15.0).max(text_box);
    let mut items = Vec::new();
    crate::shapes::rect(
        &mut items,
        3.0,
        3.0,
        banner_w,
        box_h,
        2.5,
        paint(Some(Color::hex(0xFFFFCC)), Some(stroke(Color::hex(0xFFDD88), 3.0))),
    );
    for (k, ((line, _), w)) in lines.iter().zip(&widths).enumerate() {
        items.push(text(10.0, 13.641 + LINE_STEP * k as f64, line, font, Color::BLACK, *w));
    }
    out.splice(0..0, items);
    (width.max(banner_w + 16.0), height + room)
}

/// `header` and `footer`: 10 px grey lines, the header right-aligned
/// above the drawing (which moves down by its lines and 1 px), the footer
/// centred 1 px below it, unless written `left`/`center`/`right` (PlantUML
/// 1.2026.8, probe `test-data/description-probes/header-footer`).
pub(crate) fn add_header_footer(
    out: &mut Vec<Item>,
    diagram: &Diagram,
    metrics: &dyn TextMeasure,
    width: f64,
    mut height: f64,
) -> (f64, f64) {
    use puml_sema::model::HorizontalAlign;
    let font = Font::sans(10.0);
    let color = Color::hex(0x888888);
    let lh = metrics.line_height(&font);
    let ascent = metrics.ascent(&font);
    let lines_of = |text: &str| -> Vec<(String, f64)> {
        text.split("\\n")
            .flat_map(|l| l.split('\n'))
            .map(|l| (l.to_string(), metrics.width(l, &font)))
            .collect()
    };
    let x_of = |align: HorizontalAlign, w: f64| match align {
        HorizontalAlign::Left => 0.0,
        HorizontalAlign::Center => (width - w) / 2.0,
        HorizontalAlign::Right => width - w,
    };
    if let Some(header) = diagram.header.as_ref().filter(|h| !h.text.trim().is_empty()) {
        let lines = lines_of(&header.text);
        let room = lh * lines.len() as f64 + 1.0;
        super::entity::translate(out, 0.0, room);
        let align = header.align.unwrap_or(HorizontalAlign::Right);
        let items: Vec<Item> = lines
            .iter()
            .enumerate()
            .map(|(k, (l, w))| text(x_of(align, *w), ascent + lh * k as f64, l, font, color, *w))
            .collect();
        out.splice(0..0, items);
        height += room;
    }
    if let Some(footer) = diagram.footer.as_ref().filter(|f| !f.text.trim().is_empty()) {
        let lines = lines_of(&footer.text);
        let top = height + 1.0;
        let align = footer.align.unwrap_or(HorizontalAlign::Center);
        for (k, (l, w)) in lines.iter().enumerate() {
            out.push(text(x_of(align, *w), top + ascent + lh * k as f64, l, font, color, *w));
        }
        height = top + lh * lines.len() as f64;
    }
    (width, height)
}

/// `title`: bold, centred above the drawing, which moves down (and right,
/// under a wider title) as PlantUML 1.2026.8 places it (observed: the
/// title's text 10 px from the top, the drawing 21 px below its line).
pub(crate) fn add_title(
    out: &mut Vec<Item>,
    diagram: &Diagram,
    look: &ClassLook,
    metrics: &dyn TextMeasure,
    width: f64,
    height: f64,
) -> (f64, f64) {
    let Some(title) = diagram.title.as_deref().filter(|t| !t.trim().is_empty()) else {
        return (width, height);
    };
    let font = Font::sans(14.0).bold();
    let lh = metrics.line_height(&font);
    let lines: Vec<&str> = title.split("\\n").flat_map(|l| l.split('\n')).collect();
    let widths: Vec<f64> = lines.iter().map(|l| metrics.width(l, &font)).collect();
    let title_w = widths.iter().copied().fold(0.0, f64::max) + 20.0;
    let title_h = lh * lines.len() as f64 + 21.0;
    let dx = ((title_w - width) / 2.0).max(0.0);
    super::entity::translate(out, dx, title_h);
    let total_w = width.max(title_w);
    let mut items = Vec::with_capacity(lines.len());
    for (k, (l, w)) in lines.iter().zip(&widths).enumerate() {
        items.push(text(
            (total_w - w) / 2.0,
            10.0 + metrics.ascent(&font) + lh * k as f64,
            l,
            font,
            look.class_font_color,
            *w,
        ));
    }
    out.splice(0..0, items);
    (total_w, height + title_h)
}

/// A rounded rectangle's path with quarter circles of radius `r`, and a
/// tab of `tab_w` × `tab_h` on its top left (PlantUML's package folder).
fn draw_package(
    out: &mut Vec<Item>,
    rect: &Rect,
    title: &str,
    title_w: f64,
    package: &puml_sema::class::Package,
    look: &ClassLook,
    metrics: &dyn TextMeasure,
) {
    // The description diagrams' containers have shapes of their own.
    if crate::description::draw_container(out, rect, title, package, look, metrics) {
        return;
    }
    let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height);
    let lh = metrics.line_height(&look.package_font);
    let tab_h = lh + 6.0;
    let tab_right = x + title_w + 13.0;
    let r = 2.5;
    let k = r * KAPPA;
    let border = package
        .style
        .line_color
        .as_deref()
        .and_then(parse_color)
        .unwrap_or(look.package_border);
    let fill = package
        .style
        .background
        .as_deref()
        .and_then(parse_color)
        .or(look.package_bg);
    let mut path = PathBuilder::new()
        .move_to(x + r, y)
        .line_to(tab_right - 9.5, y)
        .cubic_to(
            tab_right - 9.5 + 2.0,
            y,
            tab_right - 7.0,
            y + 0.5,
            tab_right - 7.0,
            y + r,
        )
        .line_to(tab_right, y + tab_h)
        .line_to(x + w - r, y + tab_h)
        .cubic_to(x + w - r + k, y + tab_h, x + w, y + tab_h + r - k, x + w, y + tab_h + r)
        .line_to(x + w, y + h - r)
        .cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h)
        .line_to(x + r, y + h)
        .cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r)
        .line_to(x, y + r)
        .cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    path = path.close();
    path.push(out, paint(fill, Some(stroke(border, 1.5))));
    line(out, x, y + tab_h, tab_right, y + tab_h, stroke(border, 1.5));
    out.push(text(
        x + 4.0,
        y + 2.0 + metrics.ascent(&look.package_font),
        title,
        look.package_font,
        look.package_font_color,
        title_w,
    ));
}

/// Whether another box of the rank of `a` and `b` (a row when ranks run
/// `across` the page, a column otherwise) sits between them: dot's flat
/// edge between them is then not a straight line between neighbours.
fn box_between_on_rank(a: &Rect, b: &Rect, across: bool, nodes: &[Rect], shift: &dyn Fn(&Rect) -> Rect) -> bool {
    const LEVEL: f64 = 1.0;
    // (position along the rank, position across it)
    let key = |r: &Rect| {
        let c = element_centre(r);
        if across {
            (c.x, c.y)
        } else {
            (c.y, c.x)
        }
    };
    let ((a_along, a_level), (b_along, _)) = (key(a), key(b));
    let (lo, hi) = (a_along.min(b_along), a_along.max(b_along));
    nodes.iter().map(shift).any(|r| {
        let (along, level) = key(&r);
        (level - a_level).abs() <= LEVEL && along > lo + LEVEL && along < hi - LEVEL
    })
}

/// Whether the straight path from `from` (on `a`) to `to` (on `b`) passes,
/// within the band of `a`'s rank or of `b`'s, over another box of that rank
/// (where dot's route between neighbouring ranks has to bend).
fn crosses_rank_neighbour(
    from: Point,
    to: Point,
    a: &Rect,
    b: &Rect,
    across: bool,
    nodes: &[Rect],
    shift: &dyn Fn(&Rect) -> Rect,
) -> bool {
    const LEVEL: f64 = 1.0;
    // (along the rank, across it), and a box's extents so.
    let turn = |p: Point| if across { (p.x, p.y) } else { (p.y, p.x) };
    let extent = |r: &Rect| {
        if across {
            (r.x, r.x + r.width, r.y, r.y + r.height)
        } else {
            (r.y, r.y + r.height, r.x, r.x + r.width)
        }
    };
    let (f, t) = (turn(from), turn(to));
    let boxes: Vec<Rect> = nodes.iter().map(shift).collect();
    [a, b].iter().any(|end| {
        let (_, _, top, bottom) = extent(end);
        let level = (top + bottom) / 2.0;
        let on_rank: Vec<(f64, f64, f64, f64)> = boxes
            .iter()
            .map(extent)
            .filter(|e| ((e.2 + e.3) / 2.0 - level).abs() <= LEVEL)
            .collect();
        let band_top = on_rank.iter().map(|e| e.2).fold(top, f64::min);
        let band_bottom = on_rank.iter().map(|e| e.3).fold(bottom, f64::max);
        // The path's extent along the rank within the band.
        let at = |y: f64| {
            if (t.1 - f.1).abs() <= f64::EPSILON {
                f.0
            } else {
                f.0 + (t.0 - f.0) * ((y - f.1) / (t.1 - f.1)).clamp(0.0, 1.0)
            }
        };
        let (y0, y1) = (band_top.max(f.1.min(t.1)), band_bottom.min(f.1.max(t.1)));
        if y0 > y1 {
            return false;
        }
        let (x0, x1) = (at(y0).min(at(y1)), at(y0).max(at(y1)));
        on_rank.iter().any(|e| {
            let own = [a, b].iter().any(|r| extent(r) == *e);
            !own && e.0 < x1 && e.1 > x0
        })
    })
}

/// Whether a route of Bézier pieces (`p0 (c1 c2 p)+`) runs straight: its
/// knots on one line (dot draws such a path as a single piece).
fn straight(points: &[Point]) -> bool {
    let (Some(&a), Some(&b)) = (points.first(), points.last()) else {
        return false;
    };
    let length = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    if length <= f64::EPSILON {
        return false;
    }
    points.iter().step_by(3).all(|p| {
        let off_line = ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)).abs() / length;
        off_line <= 1.0
    })
}

/// The wedge from the side of `note` nearest `at_note` (where the path
/// meets the note) to `at_element`.
fn nearest_side_wedge(note: &Rect, at_element: Point, at_note: Point) -> Wedge {
    let (x, y, w, h) = (note.x, note.y, note.width, note.height);
    let left = (at_note.x - x).abs();
    let right = (at_note.x - (x + w)).abs();
    let top = (at_note.y - y).abs();
    let bottom = (at_note.y - (y + h)).abs();
    if left <= right && left <= top && left <= bottom {
        Wedge::Left { tip: at_element }
    } else if right <= left && right <= top && right <= bottom {
        Wedge::Right { tip: at_element }
    } else if top <= bottom {
        Wedge::Up {
            base_x: at_note.x.clamp(x + 4.0, x + w - 14.0),
            tip: at_element,
        }
    } else {
        Wedge::Down {
            base_x: at_note.x.clamp(x + 4.0, x + w - 4.0),
            tip: at_element,
        }
    }
}

/// Where a note's wedge points: the side of the note it leaves from, the
/// wedge's tip, and (for the top and bottom) the centre of its base.
#[derive(Clone, Copy)]
pub(crate) enum Wedge {
    Left { tip: Point },
    Right { tip: Point },
    Up { base_x: f64, tip: Point },
    Down { base_x: f64, tip: Point },
}

fn element_centre(r: &Rect) -> Point {
    Point::new(r.x + r.width / 2.0, r.y + r.height / 2.0)
}

/// PlantUML's choice for a note's wedge: by where the edge meets the
/// element (`at_element`), seen from the note: straight left or right of
/// it (within its height), or straight above or below it (within its
/// width). Anywhere else the note has no wedge.
fn opale(note: &Rect, element: &Rect, at_element: Point, at_note: Point) -> Option<Wedge> {
    let (x, y, w, h) = (note.x, note.y, note.width, note.height);
    let beside = at_element.y >= y && at_element.y <= y + h;
    let straight = at_element.x >= x && at_element.x <= x + w;
    if beside && at_element.x < x {
        let tip = Point::new(
            element.x + element.width + 0.6,
            (element.y + element.height / 2.0).clamp(y, y + h),
        );
        return Some(Wedge::Left { tip });
    }
    if beside && at_element.x > x + w {
        let tip = Point::new(element.x - 0.6, (element.y + element.height / 2.0).clamp(y, y + h));
        return Some(Wedge::Right { tip });
    }
    if straight && at_element.y < y {
        let base_x = at_note.x.clamp(x + 4.0, x + w - 14.0);
        return Some(Wedge::Up {
            base_x,
            tip: at_element,
        });
    }
    if straight && at_element.y > y + h {
        let base_x = at_note.x.clamp(x + 4.0, x + w - 4.0);
        return Some(Wedge::Down {
            base_x,
            tip: at_element,
        });
    }
    None
}

/// Straight pieces as Bézier pieces (`p0 (c1 c2 p)+`, the controls a third
/// and two thirds along each piece), as dot writes its polylines.
fn straight_pieces(corners: &[Point]) -> Vec<Point> {
    let mut out = vec![corners[0]];
    for w in corners.windows(2) {
        let (a, b) = (w[0], w[1]);
        let at = |t: f64| Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        out.extend([at(1.0 / 3.0), at(2.0 / 3.0), b]);
    }
    out
}

/// `linetype polyline`: straight from knot to knot of the route.
fn straight_route(points: &[Point]) -> Vec<Point> {
    let knots: Vec<Point> = points.iter().step_by(3).copied().collect();
    if knots.len() < 2 || !(points.len() - 1).is_multiple_of(3) {
        return points.to_vec();
    }
    straight_pieces(&knots)
}

/// `linetype ortho`, as dot routes it between two boxes: one straight
/// piece where they face each other (across their common stretch), else
/// an elbow leaving the tail's side toward the head and entering the
/// head's top or bottom. `from` and `to` are the spline's ends (where the
/// straight piece runs when they share a stretch).
fn orthogonal_route(tail: &Rect, head: &Rect, from: Point, to: Point) -> Vec<Point> {
    const FACING: f64 = 10.0;
    let centre = |r: &Rect| Point::new(r.x + r.width / 2.0, r.y + r.height / 2.0);
    let (tc, hc) = (centre(tail), centre(head));
    let (x_lo, x_hi) = (tail.x.max(head.x), (tail.x + tail.width).min(head.x + head.width));
    let (y_lo, y_hi) = (tail.y.max(head.y), (tail.y + tail.height).min(head.y + head.height));
    let below = hc.y > tc.y;
    let right = hc.x > tc.x;
    let corners = if x_hi - x_lo >= FACING && (y_hi - y_lo) < FACING {
        let x = ((from.x + to.x) / 2.0).clamp(x_lo + 2.0, x_hi - 2.0);
        let (y0, y1) = if below {
            (tail.y + tail.height, head.y)
        } else {
            (tail.y, head.y + head.height)
        };
        vec![Point::new(x, y0), Point::new(x, y1)]
    } else if y_hi - y_lo >= FACING && (x_hi - x_lo) < FACING {
        let y = ((from.y + to.y) / 2.0).clamp(y_lo + 2.0, y_hi - 2.0);
        let (x0, x1) = if right {
            (tail.x + tail.width, head.x)
        } else {
            (tail.x, head.x + head.width)
        };
        vec![Point::new(x0, y), Point::new(x1, y)]
    } else if (y_hi - y_lo) < FACING && (x_hi - x_lo) < FACING {
        let x0 = if right { tail.x + tail.width } else { tail.x };
        let y1 = if below { head.y } else { head.y + head.height };
        vec![Point::new(x0, tc.y), Point::new(hc.x, tc.y), Point::new(hc.x, y1)]
    } else {
        // Overlapping boxes: the spline as it is.
        return vec![from, from, to, to];
    };
    straight_pieces(&corners)
}

/// A path through a route's Bézier points (`p0 (c1 c2 p)+`), as dot
/// gives them; shared by every graph kind's links.
pub(crate) fn bezier_segments(points: &[Point]) -> Vec<PathSegment> {
    // The move, a cubic per three points, at most two lines: sized once.
    let mut segments = Vec::with_capacity(3 + points.len() / 3);
    segments.push(PathSegment::MoveTo {
        x: round3(points[0].x),
        y: round3(points[0].y),
    });
    let mut i = 1;
    while i + 2 < points.len() {
        segments.push(PathSegment::CubicTo {
            x1: round3(points[i].x),
            y1: round3(points[i].y),
            x2: round3(points[i + 1].x),
            y2: round3(points[i + 1].y),
            x: round3(points[i + 2].x),
            y: round3(points[i + 2].y),
        });
        i += 3;
    }
    for p in &points[i..] {
        segments.push(PathSegment::LineTo {
            x: round3(p.x),
            y: round3(p.y),
        });
    }
    segments
}

/// A note: a folded corner, and a wedge toward the element it is about
/// when that element lies wholly to its left or right.
pub(crate) fn draw_note(out: &mut Vec<Item>, rect: &Rect, fill: Color, look: &ClassLook, toward: Option<&Rect>) {
    let wedge = toward.and_then(|t| {
        let tip_y = (t.y + t.height / 2.0).clamp(rect.y, rect.y + rect.height);
        if t.x + t.width <= rect.x {
            Some(Wedge::Left {
                tip: Point::new(t.x + t.width + 0.6, tip_y),
            })
        } else if t.x >= rect.x + rect.width {
            Some(Wedge::Right {
                tip: Point::new(t.x - 0.6, tip_y),
            })
        } else {
            None
        }
    });
    draw_note_with_wedge(out, rect, fill, look, wedge);
}

/// A note: a folded corner, and its wedge (if any).
pub(crate) fn draw_note_with_wedge(
    out: &mut Vec<Item>,
    rect: &Rect,
    fill: Color,
    look: &ClassLook,
    wedge: Option<Wedge>,
) {
    let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height);
    let p = paint(Some(fill), Some(stroke(look.note_border, 0.5)));
    let mut builder = PathBuilder::new().move_to(x, y);
    let cy = y + h / 2.0;
    if let Some(Wedge::Left { tip }) = wedge {
        builder = builder.line_to(x, cy - 4.0).line_to(tip.x, tip.y).line_to(x, cy + 4.0);
    }
    builder = builder.line_to(x, y + h);
    if let Some(Wedge::Down { base_x, tip }) = wedge {
        builder = builder
            .line_to(base_x - 4.0, y + h)
            .line_to(tip.x, tip.y)
            .line_to(base_x + 4.0, y + h);
    }
    builder = builder.line_to(x + w, y + h);
    if let Some(Wedge::Right { tip }) = wedge {
        builder = builder
            .line_to(x + w, cy + 4.0)
            .line_to(tip.x, tip.y)
            .line_to(x + w, cy - 4.0);
    }
    builder = builder.line_to(x + w, y + 10.0).line_to(x + w - 10.0, y);
    if let Some(Wedge::Up { base_x, tip }) = wedge {
        builder = builder
            .line_to(base_x + 4.0, y)
            .line_to(tip.x, tip.y)
            .line_to(base_x - 4.0, y);
    }
    builder.line_to(x, y).close().push(out, p);
    PathBuilder::new()
        .move_to(x + w - 10.0, y)
        .line_to(x + w - 10.0, y + 10.0)
        .line_to(x + w, y + 10.0)
        .line_to(x + w - 10.0, y)
        .close()
        .push(out, p);
}

fn link_color(link: &Link, look: &ClassLook) -> Color {
    link.color.as_deref().and_then(parse_color).unwrap_or(look.arrow_color)
}

fn link_stroke(link: &Link, look: &ClassLook) -> Stroke {
    let color = link_color(link, look);
    let width = link.thickness.map_or(look.arrow_thickness, f64::from);
    match link.line {
        LineStyle::Dashed => dashed(color, width, 7.0, 7.0),
        LineStyle::Dotted => dashed(color, width, 1.0, 3.0),
        LineStyle::Bold => stroke(color, width.max(2.0)),
        LineStyle::Solid => stroke(color, width),
    }
}

/// How far a decoration reaches back from the end of the link.
fn head_length(head: LinkHead) -> f64 {
    match head {
        LinkHead::None => 0.0,
        LinkHead::Arrow => 5.0,
        LinkHead::Triangle | LinkHead::OpenTriangle => 18.0,
        LinkHead::Composition | LinkHead::Aggregation => 12.0,
        LinkHead::Plus | LinkHead::Circle => 16.0,
        LinkHead::Square => 10.0,
        LinkHead::Cross => 10.0,
        LinkHead::Crowfoot => 8.0,
        LinkHead::HalfCircle => 8.0,
        LinkHead::ExactlyOne => 8.0,
        LinkHead::ZeroOrOne | LinkHead::ZeroOrMany => 18.0,
        LinkHead::OneOrMany => 8.0,
    }
}

/// The unit vector pointing into the end `end` of the path, from the
/// nearest distinct point before it.
pub(crate) fn direction_at(end: Point, before: &[Point]) -> (f64, f64) {
    direction_from(end, before.iter().rev())
}

/// [`direction_at`] over the points in the order given, nearest first (a
/// path's start reads its points forward, with no reversed copy).
fn direction_from<'p>(end: Point, nearest_first: impl Iterator<Item = &'p Point>) -> (f64, f64) {
    for p in nearest_first {
        let (vx, vy) = (end.x - p.x, end.y - p.y);
        let len = (vx * vx + vy * vy).sqrt();
        if len > 1e-6 {
            return (vx / len, vy / len);
        }
    }
    (0.0, 1.0)
}

fn draw_link(out: &mut Vec<Item>, link: &Link, edge: &LinkEdge, points: &[Point], look: &ClassLook) {
    // Which decoration sits at the path's start (the tail) and end.
    let (tail_head, head_head) = if edge.reversed {
        (link.to_head, link.from_head)
    } else {
        (link.from_head, link.to_head)
    };
    let mut pts: Vec<Point> = points.to_vec();
    let n = pts.len();
    let start = pts[0];
    let end = pts[n - 1];
    let start_dir = direction_from(start, pts[1..].iter());
    let end_dir = direction_at(end, &pts[..n - 1]);
    let cut = head_length(tail_head);
    if cut > 0.0 {
        pts[0] = Point::new(start.x - start_dir.0 * cut, start.y - start_dir.1 * cut);
    }
    let cut = head_length(head_head);
    if cut > 0.0 {
        pts[n - 1] = Point::new(end.x - end_dir.0 * cut, end.y - end_dir.1 * cut);
    }
    let segments = bezier_segments(&pts);
    let s = link_stroke(link, look);
    out.push(Item::Path {
        segments,
        paint: Paint {
            fill: None,
            stroke: Some(s),
            gradient: None,
            shadow: None,
        },
    });
    let color = link_color(link, look);
    let width = link.thickness.map_or(look.arrow_thickness, f64::from);
    decoration(out, tail_head, start, start_dir, color, width, look.background);
    decoration(out, head_head, end, end_dir, color, width, look.background);
}

/// Draws `head` with its tip at `tip`, `dir` pointing into the element.
pub(crate) fn decoration(
    out: &mut Vec<Item>,
    head: LinkHead,
    tip: Point,
    dir: (f64, f64),
    color: Color,
    width: f64,
    bg: Color,
) {
    let (dx, dy) = dir;
    let (nx, ny) = (-dy, dx);
    let at = |back: f64, side: f64| (tip.x - dx * back + nx * side, tip.y - dy * back + ny * side);
    let filled = paint(Some(color), Some(stroke(color, width)));
    let open = paint(None, Some(stroke(color, width)));
    let s = stroke(color, width);
    let seg = |out: &mut Vec<Item>, a: (f64, f64), b: (f64, f64)| line(out, a.0, a.1, b.0, b.1, s);
    match head {
        LinkHead::None => {}
        LinkHead::Arrow => polygon(
            out,
            &[at(0.0, 0.0), at(9.0, 4.0), at(5.0, 0.0), at(9.0, -4.0), at(0.0, 0.0)],
            filled,
        ),
        LinkHead::Triangle => polygon(out, &[at(0.0, 0.0), at(18.0, 6.0), at(18.0, -6.0), at(0.0, 0.0)], open),
        LinkHead::OpenTriangle => {
            seg(out, at(0.0, 0.0), at(18.0, 6.0));
            seg(out, at(0.0, 0.0), at(18.0, -6.0));
        }
        LinkHead::Composition => polygon(
            out,
            &[at(0.0, 0.0), at(6.0, 4.0), at(12.0, 0.0), at(6.0, -4.0), at(0.0, 0.0)],
            filled,
        ),
        LinkHead::Aggregation => polygon(
            out,
            &[at(0.0, 0.0), at(6.0, 4.0), at(12.0, 0.0), at(6.0, -4.0), at(0.0, 0.0)],
            open,
        ),
        LinkHead::Plus => {
            let c = at(8.0, 0.0);
            ellipse(out, c.0, c.1, 8.0, 8.0, paint(Some(bg), Some(stroke(color, width))));
            seg(out, at(0.0, 0.0), at(16.0, 0.0));
            seg(out, at(8.0, 8.0), at(8.0, -8.0));
        }
        LinkHead::Circle => {
            let c = at(8.0, 0.0);
            ellipse(out, c.0, c.1, 8.0, 8.0, paint(Some(bg), Some(stroke(color, width))));
        }
        LinkHead::HalfCircle => {
            let c = at(8.0, 0.0);
            ellipse(out, c.0, c.1, 8.0, 8.0, open);
        }
        LinkHead::Square => {
            let pts = [at(0.0, 5.0), at(10.0, 5.0), at(10.0, -5.0), at(0.0, -5.0), at(0.0, 5.0)];
            polygon(out, &pts, paint(Some(bg), Some(stroke(color, width))));
        }
        LinkHead::Cross => {
            let c = at(5.0, 0.0);
            ellipse(out, c.0, c.1, 5.0, 5.0, paint(Some(bg), Some(stroke(color, width))));
            seg(out, at(1.5, 3.5), at(8.5, -3.5));
            seg(out, at(1.5, -3.5), at(8.5, 3.5));
        }
        LinkHead::Crowfoot => {
            seg(out, at(8.0, 0.0), at(0.0, 6.0));
            seg(out, at(8.0, 0.0), at(0.0, -6.0));
            seg(out, at(8.0, 0.0), at(0.0, 0.0));
        }
        LinkHead::ExactlyOne => {
            seg(out, at(4.0, 4.0), at(4.0, -4.0));
            seg(out, at(7.0, 4.0), at(7.0, -4.0));
            seg(out, at(8.0, 0.0), at(0.0, 0.0));
        }
        LinkHead::ZeroOrOne => {
            seg(out, at(4.0, 4.0), at(4.0, -4.0));
            seg(out, at(8.0, 0.0), at(0.0, 0.0));
            let c = at(14.0, 0.0);
            ellipse(out, c.0, c.1, 4.0, 4.0, open);
        }
        LinkHead::ZeroOrMany => {
            seg(out, at(8.0, 0.0), at(0.0, 6.0));
            seg(out, at(8.0, 0.0), at(0.0, -6.0));
            seg(out, at(8.0, 0.0), at(0.0, 0.0));
            let c = at(14.0, 0.0);
            ellipse(out, c.0, c.1, 4.0, 4.0, open);
        }
        LinkHead::OneOrMany => {
            seg(out, at(8.0, 0.0), at(0.0, 6.0));
            seg(out, at(8.0, 0.0), at(0.0, -6.0));
            seg(out, at(8.0, 0.0), at(0.0, 0.0));
            seg(out, at(8.0, 4.0), at(8.0, -4.0));
        }
    }
}

/// A Bézier chain (`p0 (c1 c2 p)+`) that ends inside `rect`, cut where
/// it enters it: the segments wholly inside are dropped and the one that
/// crosses the border becomes a straight piece to the crossing.
fn clip_at(points: &[Point], rect: &Rect) -> Vec<Point> {
    let inside = |p: &Point| p.x > rect.x && p.x < rect.x + rect.width && p.y > rect.y && p.y < rect.y + rect.height;
    if points.len() < 4 || !(points.len() - 1).is_multiple_of(3) || !inside(&points[points.len() - 1]) {
        return points.to_vec();
    }
    let mut kept = points.to_vec();
    while kept.len() >= 4 && inside(&kept[kept.len() - 4]) {
        kept.truncate(kept.len() - 3);
    }
    if kept.len() < 4 {
        return points.to_vec();
    }
    let (from, to) = (kept[kept.len() - 4], kept[kept.len() - 1]);
    // Where the straight line from `from` to `to` meets the border.
    let mut t_cross = 1.0f64;
    for (edge_at, along_x) in [
        (rect.x, true),
        (rect.x + rect.width, true),
        (rect.y, false),
        (rect.y + rect.height, false),
    ] {
        let (a, b) = if along_x { (from.x, to.x) } else { (from.y, to.y) };
        if (b - a).abs() > 1e-9 {
            let t = (edge_at - a) / (b - a);
            if (0.0..t_cross).contains(&t) {
                let p = Point::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
                let on_border = if along_x {
                    p.y >= rect.y - 0.01 && p.y <= rect.y + rect.height + 0.01
                } else {
                    p.x >= rect.x - 0.01 && p.x <= rect.x + rect.width + 0.01
                };
                if on_border {
                    t_cross = t;
                }
            }
        }
    }
    let at = |t: f64| Point::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
    let n = kept.len();
    kept[n - 3] = at(t_cross / 3.0);
    kept[n - 2] = at(t_cross * 2.0 / 3.0);
    kept[n - 1] = at(t_cross);
    kept
}

/// The point halfway along a polyline (where an `xlabel` sits).
fn middle(points: &[Point]) -> Point {
    let length: f64 = points
        .windows(2)
        .map(|w| (w[1].x - w[0].x).hypot(w[1].y - w[0].y))
        .sum();
    let mut left = length / 2.0;
    for w in points.windows(2) {
        let step = (w[1].x - w[0].x).hypot(w[1].y - w[0].y);
        if step >= left && step > 0.0 {
            let t = left / step;
            return Point::new(w[0].x + (w[1].x - w[0].x) * t, w[0].y + (w[1].y - w[0].y) * t);
        }
        left -= step;
    }
    points.first().copied().unwrap_or_default()
}

#[allow(clippy::too_many_arguments)]
fn draw_link_texts(
    out: &mut Vec<Item>,
    link: &Link,
    edge: &LinkEdge,
    label_at: Option<Point>,
    tail_at: Option<Point>,
    head_at: Option<Point>,
    points: &[Point],
    look: &ClassLook,
    metrics: &dyn TextMeasure,
) {
    let font = look.arrow_font;
    let lh = metrics.line_height(&font);
    let ascent = metrics.ascent(&font);
    let color = look.arrow_font_color;
    if let (Some(text_label), Some(size), Some(c)) = (
        link.label.as_deref().map(super::graph::label_text),
        edge.label,
        label_at,
    ) {
        let left = c.x - size.width / 2.0;
        let top = c.y - size.height / 2.0;
        let mut x = left + 1.0;
        if let Some(dir) = link.label_arrow {
            // The arrow points along the link, from→to for `>`.
            let (sx, sy) = (points[0], points[points.len() - 1]);
            let (mut vx, mut vy) = (sy.x - sx.x, sy.y - sx.y);
            if edge.reversed {
                vx = -vx;
                vy = -vy;
            }
            if matches!(dir, LinkDirection::Left | LinkDirection::Up) {
                vx = -vx;
                vy = -vy;
            }
            let len = (vx * vx + vy * vy).sqrt().max(1e-6);
            let (ux, uy) = (vx / len, vy / len);
            let (cx, cy) = (left + 5.0, top + 1.0 + lh / 2.0 + 1.0);
            polygon(
                out,
                &[
                    (cx + ux * 4.5, cy + uy * 4.5),
                    (cx - ux * 4.5 - uy * 3.0, cy - uy * 4.5 + ux * 3.0),
                    (cx - ux * 4.5 + uy * 3.0, cy - uy * 4.5 - ux * 3.0),
                    (cx + ux * 4.5, cy + uy * 4.5),
                ],
                paint(Some(color), Some(stroke(color, 1.0))),
            );
            x = left + 1.0 + font.size;
        }
        for (k, l) in text_label.split("\\n").enumerate() {
            crate::creole::measure(l, font, metrics).draw(
                x,
                top + 1.0 + lh * k as f64,
                crate::creole::Align::Left,
                color,
                out,
            );
        }
    }
    let end_text = |out: &mut Vec<Item>, t: &Option<String>, at: Option<Point>| {
        if let (Some(t), Some(c)) = (t.as_deref().map(super::graph::unquote).filter(|t| !t.is_empty()), at) {
            let t = if t == "*" { "✱" } else { t };
            let w = metrics.width(t, &font);
            out.push(text(c.x - w / 2.0, c.y - lh / 2.0 + ascent, t, font, color, w));
        }
    };
    let (tail_text, head_text) = if edge.reversed {
        (&link.to_label, &link.from_label)
    } else {
        (&link.from_label, &link.to_label)
    };
    end_text(out, tail_text, tail_at);
    end_text(out, head_text, head_at);
}
