//! The shapes of a description diagram's elements, measured and drawn as
//! PlantUML 1.2026.8 draws them. Each size is the node size PlantUML's
//! `svek.dot` gives the element (read with `-debugsvek` from probes of
//! every keyword with texts of many widths): most shapes are the text's
//! block plus fixed margins; the use case's ellipse follows PlantUML's
//! ellipse around its text, whose flatness is bounded on both sides (the
//! table below holds the bound observed for long texts).
//!
//! A box is drawn at the origin into plain items; the class layout moves
//! it to where the graph puts its node.

use crate::class::entity::EntityBox;
use crate::class::look::ClassLook;
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, Item, Paint, TextRun};
use crate::shapes::{dashed, ellipse, line, paint, polygon, rect, stroke, PathBuilder};
use puml_sema::class::{Element, LineStyle, Package};
use puml_sema::description::Shape;

/// The flattest and the roundest a use case's ellipse is drawn
/// (height over width, PlantUML's bounds on its text's proportions).
const USECASE_FLATTEST: f64 = 0.2;
const USECASE_ROUNDEST: f64 = 0.8;
/// What PlantUML adds to the ellipse around the text, each dimension.
const USECASE_GROWTH: f64 = 6.0;
/// The room a use case's compartment after a separator takes above and
/// below its lines (PlantUML's margin around a compartment's text).
const COMPARTMENT_MARGIN: f64 = 4.0;

/// A use case's ellipse around its text: its size (width, height) and
/// where the text block's top left corner lands inside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct UsecaseEllipse {
    pub width: f64,
    pub height: f64,
    pub text_x: f64,
    pub text_y: f64,
}

/// The use case ellipse around compartments of lines (each line's width;
/// lines and compartments centred on each other, every compartment after
/// the first below a separator), as PlantUML 1.2026.8 draws it (probes
/// `usecase-separators`):
///
/// - the ellipse's flatness is the text block's (height over width, kept
///   within [`USECASE_FLATTEST`, `USECASE_ROUNDEST`]); `skinparam padding`
///   widens the block it is taken from, not what the ellipse encloses
///   (probe `padding-shapes`: "Log in" under `padding 30`);
/// - a compartment after a separator has [`COMPARTMENT_MARGIN`] above and
///   below its lines;
/// - the ellipse is the smallest of that flatness around the box of every
///   line — the box `ascent - line_height + 1.5` below the line's top,
///   where PlantUML's footprint of a text is — and around two corners of
///   each compartment after a separator (top left and bottom right, the
///   footprint of its margin's empty box: the reason such use cases are
///   larger and lean to the right), then drawn 6 px larger;
/// - the text is drawn with the circle's centre on the ellipse's centre,
///   2 px higher.
///
/// The corners, squeezed vertically by the flatness, need the smallest
/// circle around them: found by searches by thirds (its farthest corner's
/// distance is convex in the centre), over the corners' convex hull.
pub(crate) fn usecase_ellipse(
    compartments: &[Vec<f64>],
    line_height: f64,
    ascent: f64,
    padding: f64,
) -> UsecaseEllipse {
    let text_w = compartments.iter().flatten().copied().fold(0.0, f64::max);
    let mut corners = Vec::new();
    let mut y = 0.0;
    for (index, widths) in compartments.iter().enumerate() {
        let block_w = widths.iter().copied().fold(0.0, f64::max);
        let block_x = (text_w - block_w) / 2.0;
        let margin = if index == 0 { 0.0 } else { COMPARTMENT_MARGIN };
        let block_h = line_height * widths.len() as f64 + 2.0 * margin;
        if index > 0 {
            corners.push((block_x, y));
            corners.push((block_x + block_w, y + block_h));
        }
        for (i, w) in widths.iter().enumerate() {
            let x = (text_w - w) / 2.0;
            let top = y + margin + line_height * i as f64 + ascent - line_height + 1.5;
            corners.extend([
                (x, top),
                (x + w, top),
                (x, top + line_height),
                (x + w, top + line_height),
            ]);
        }
        y += block_h;
    }
    let text_h = y;
    if text_w <= 0.0 || text_h <= 0.0 {
        return UsecaseEllipse {
            width: USECASE_GROWTH,
            height: USECASE_GROWTH,
            text_x: USECASE_GROWTH / 2.0,
            text_y: USECASE_GROWTH / 2.0 - 2.0,
        };
    }
    let flatness = ((text_h + 2.0 * padding) / (text_w + 2.0 * padding)).clamp(USECASE_FLATTEST, USECASE_ROUNDEST);
    let squeezed: Vec<(f64, f64)> = corners.iter().map(|&(x, y)| (x, y / flatness)).collect();
    let ((centre_x, centre_y), radius) = smallest_enclosing_circle(&convex_hull(squeezed));
    let width = 2.0 * radius + USECASE_GROWTH;
    let height = 2.0 * radius * flatness + USECASE_GROWTH;
    UsecaseEllipse {
        width,
        height,
        text_x: width / 2.0 - centre_x,
        text_y: height / 2.0 - centre_y * flatness - 2.0,
    }
}

/// The points' convex hull (Andrew's monotone chain); fewer than three
/// points come back as they are.
fn convex_hull(mut points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let half = |ordered: &mut dyn Iterator<Item = (f64, f64)>| {
        let mut chain: Vec<(f64, f64)> = Vec::new();
        for p in ordered {
            while chain.len() >= 2 && cross(chain[chain.len() - 2], chain[chain.len() - 1], p) <= 0.0 {
                chain.pop();
            }
            chain.push(p);
        }
        chain.pop();
        chain
    };
    let mut hull = half(&mut points.iter().copied());
    hull.extend(half(&mut points.iter().rev().copied()));
    hull
}

/// The smallest circle around the points ((centre), radius), exactly: the
/// incremental construction (each point outside the circle so far lies on
/// the new circle's boundary, with one or two of the earlier points), on
/// squared distances. The points are a convex hull of a few text corners,
/// so its cubic worst case stays tiny; an earlier nested ternary search
/// called `hypot` hundreds of thousands of times per use case.
fn smallest_enclosing_circle(points: &[(f64, f64)]) -> ((f64, f64), f64) {
    type Circle = ((f64, f64), f64);
    // A point on the boundary counts as inside (rounding of the
    // circumcentre must not make the construction restart).
    const SLACK: f64 = 1e-7;
    let squared = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2);
    let holds = |(centre, radius_sq): Circle, p: (f64, f64)| squared(centre, p) <= radius_sq * (1.0 + SLACK) + SLACK;
    let through_two = |a: (f64, f64), b: (f64, f64)| -> Circle {
        let centre = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        (centre, squared(centre, a))
    };
    let through_three = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| -> Circle {
        let (bx, by) = (b.0 - a.0, b.1 - a.1);
        let (cx, cy) = (c.0 - a.0, c.1 - a.1);
        let d = 2.0 * (bx * cy - by * cx);
        if d.abs() < 1e-12 {
            // Collinear: the circle over the two farthest apart.
            return [through_two(a, b), through_two(a, c), through_two(b, c)]
                .into_iter()
                .fold((a, 0.0), |best, circle| if circle.1 > best.1 { circle } else { best });
        }
        let (b2, c2) = (bx * bx + by * by, cx * cx + cy * cy);
        let ux = (cy * b2 - by * c2) / d;
        let uy = (bx * c2 - cx * b2) / d;
        let centre = (a.0 + ux, a.1 + uy);
        (centre, ux * ux + uy * uy)
    };
    let Some(&first) = points.first() else {
        return ((0.0, 0.0), 0.0);
    };
    let mut circle: Circle = (first, 0.0);
    for i in 1..points.len() {
        if holds(circle, points[i]) {
            continue;
        }
        circle = (points[i], 0.0);
        for j in 0..i {
            if holds(circle, points[j]) {
                continue;
            }
            circle = through_two(points[i], points[j]);
            for k in 0..j {
                if !holds(circle, points[k]) {
                    circle = through_three(points[i], points[j], points[k]);
                }
            }
        }
    }
    (circle.0, circle.1.sqrt())
}

/// The kind of line a separator in an element's text draws (`--`, `..`,
/// `==`, `__`), as PlantUML reads a line of a body: starting and ending
/// with two of the same character (`...` is text).
///
/// A separator with a title (`-- title --`) stays a line of text: puml
/// does not draw titled separators yet.
fn separator_kind(line: &str) -> Option<char> {
    let line = line.trim();
    if line.chars().count() > 4 {
        return None;
    }
    ['-', '=', '_', '.'].into_iter().find(|&c| {
        let pair: String = [c, c].iter().collect();
        line.starts_with(&pair) && line.ends_with(&pair) && line != "..."
    })
}

/// The lines of an element's text (`\n` written or real), after a line
/// per stereotype (`«name»`, in italics).
fn text_lines(element: &Element) -> Vec<(String, bool)> {
    let name = if element.display.is_empty() {
        element.qualified_name.as_str()
    } else {
        element.display.as_str()
    };
    let stereotypes = element.stereotypes.iter().map(|s| (format!("«{s}»"), true));
    let names = name
        .split('\n')
        .flat_map(|l| l.split("\\n"))
        .map(|l| (l.to_string(), false));
    stereotypes.chain(names).collect()
}

fn line_font(font: Font, italic: bool) -> Font {
    Font { italic, ..font }
}

fn fill_and_border(look: &ClassLook, element: &Element) -> Paint {
    let fill = element
        .style
        .background
        .as_deref()
        .and_then(crate::color::parse_color)
        .unwrap_or(look.class_bg);
    let border = element
        .style
        .line_color
        .as_deref()
        .and_then(crate::color::parse_color)
        .unwrap_or(look.class_border);
    let width = element.style.thickness.map_or(look.class_border_width, f64::from);
    let mut p = paint(Some(fill), Some(stroke(border, width)));
    match element.style.line_style {
        Some(LineStyle::Dashed) => p.stroke = Some(dashed(border, width, 7.0, 7.0)),
        Some(LineStyle::Dotted) => p.stroke = Some(dashed(border, width, 1.0, 3.0)),
        _ => {}
    }
    p.shadowed(look.shadow)
}

fn text_color(look: &ClassLook, element: &Element) -> Color {
    element
        .style
        .text_color
        .as_deref()
        .and_then(crate::color::parse_color)
        .unwrap_or(look.class_font_color)
}

/// Writes `lines` centred on `center_x`, the first baseline at `top` plus
/// the font's ascent.
/// Lines of text, each with whether it is italic (a stereotype).
type TextLines = Vec<(String, bool)>;

/// A use case's lines cut into compartments at its separators: each
/// compartment with the separator above it (none for the first).
fn usecase_compartments(lines: TextLines) -> Vec<(Option<char>, TextLines)> {
    let mut compartments = vec![(None, Vec::new())];
    for (text, italic) in lines {
        match separator_kind(&text).filter(|_| !italic) {
            Some(kind) => compartments.push((Some(kind), Vec::new())),
            None => {
                if let Some((_, lines)) = compartments.last_mut() {
                    lines.push((text, italic));
                }
            }
        }
    }
    compartments
}

/// A separator across a use case's ellipse (`width` × `height`) at `y`:
/// the ellipse's chord there, 1 px short at each end, as PlantUML clips
/// it; `==` draws a second line 2 px lower, `..` dots it and `__` is
/// thinner.
fn separator_line(out: &mut Vec<Item>, kind: char, y: f64, width: f64, height: f64, color: Color) {
    let chord = |y: f64| {
        let off_centre = (2.0 * y / height - 1.0).clamp(-1.0, 1.0);
        let half = (1.0 - off_centre * off_centre).sqrt() * width / 2.0;
        (width / 2.0 - half + 1.0, width / 2.0 + half - 1.0)
    };
    let style = match kind {
        '.' => dashed(color, 1.0, 1.0, 2.0),
        '_' => stroke(color, 0.5),
        _ => stroke(color, 1.0),
    };
    let ys: &[f64] = if kind == '=' { &[y, y + 2.0] } else { &[y] };
    for &y in ys {
        let (x1, x2) = chord(y);
        line(out, x1, y, x2, y, style);
    }
}

fn centred_text(
    out: &mut Vec<Item>,
    lines: &[(String, bool)],
    center_x: f64,
    top: f64,
    font: Font,
    color: Color,
    metrics: &dyn TextMeasure,
) {
    let lh = metrics.line_height(&font);
    let ascent = metrics.ascent(&font);
    for (i, (l, italic)) in lines.iter().enumerate() {
        let font = line_font(font, *italic);
        let w = metrics.width(l, &font);
        out.push(Item::Text(TextRun {
            x: round3(center_x - w / 2.0),
            y: round3(top + ascent + lh * i as f64),
            text: l.clone(),
            font,
            color,
            width: round3(w),
            underline: false,
            strike: false,
            link: None,
        }));
    }
}

/// Whether `skinparam componentStyle rectangle` draws components as plain
/// rectangles.
pub(crate) fn component_as_rectangle(diagram: &puml_sema::model::Diagram) -> bool {
    diagram
        .settings
        .skinparam("componentstyle")
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("rectangle"))
}

/// The box of a description element (an element of the class model whose
/// keyword is a description shape); `None` for a keyword it does not know.
pub(crate) fn shape_box(element: &Element, look: &ClassLook, metrics: &dyn TextMeasure) -> Option<EntityBox> {
    let shape = Shape::from_keyword(&element.keyword)?;
    let font = look.name_font;
    let lines = text_lines(element);
    let lh = metrics.line_height(&font);
    // `skinparam padding` widens the text block on every side; a use
    // case's ellipse takes only its flatness from it (`usecase_size`).
    let padding = match shape {
        Shape::Usecase | Shape::UsecaseBusiness | Shape::Port | Shape::PortIn | Shape::PortOut => 0.0,
        _ => look.padding,
    };
    let text_w = lines
        .iter()
        .map(|(l, italic)| metrics.width(l, &line_font(font, *italic)))
        .fold(0.0, f64::max)
        + 2.0 * padding;
    let text_h = lh * lines.len() as f64 + 2.0 * padding;
    let fill = fill_and_border(look, element);
    let color = text_color(look, element);
    let mut items = Vec::new();
    // (width, height, text top) of a box around the text.
    let boxed = |dx: f64, dy: f64| (text_w + dx, text_h + dy);
    let (width, height) = match shape {
        Shape::Actor | Shape::ActorBusiness if look.awesome_actor => {
            // PlantUML's awesome actor (probe `actor-awesome`): a 16 px
            // head over a rounded bust 54 px wide, the name 61 px below
            // the top; the node is at least 55 px wide.
            let width = text_w.max(55.0);
            let cx = width / 2.0;
            ellipse(&mut items, cx, 16.5, 16.0, 16.0, fill);
            PathBuilder::new()
                .move_to(cx, 36.5)
                .cubic_to(cx + 4.0, 36.5, cx + 7.0, 36.5, cx + 11.0, 32.5)
                .cubic_to(cx + 19.0, 32.5, cx + 27.0, 40.5, cx + 27.0, 48.5)
                .line_to(cx + 27.0, 52.5)
                .cubic_to(cx + 27.0, 56.5, cx + 23.0, 60.5, cx + 19.0, 60.5)
                .line_to(cx - 19.0, 60.5)
                .cubic_to(cx - 23.0, 60.5, cx - 27.0, 56.5, cx - 27.0, 52.5)
                .line_to(cx - 27.0, 48.5)
                .cubic_to(cx - 27.0, 40.5, cx - 19.0, 32.5, cx - 11.0, 32.5)
                .cubic_to(cx - 7.0, 36.5, cx - 4.0, 36.5, cx, 36.5)
                .push(&mut items, fill);
            centred_text(&mut items, &lines, cx, 61.0, font, color, metrics);
            (width, 61.0 + text_h)
        }
        Shape::Actor | Shape::ActorBusiness => {
            // The figure grows with its outline: 26 px wide and 59 px tall
            // besides twice its width (PlantUML: 27 × 60 at 0.5 px, 28 ×
            // 61 under `!theme amiga`'s 1 px, corpus 020).
            let outline = element.style.thickness.map_or(look.class_border_width, f64::from);
            let figure_w = 26.0 + 2.0 * outline;
            let figure_h = 59.0 + 2.0 * outline;
            let width = text_w.max(figure_w);
            let cx = width / 2.0;
            ellipse(&mut items, cx, 9.0, 8.0, 8.0, fill);
            let body = PathBuilder::new()
                .move_to(cx, 17.0)
                .line_to(cx, 44.0)
                .move_to(cx - 13.0, 25.0)
                .line_to(cx + 13.0, 25.0)
                .move_to(cx, 44.0)
                .line_to(cx - 13.0, 59.0)
                .move_to(cx, 44.0)
                .line_to(cx + 13.0, 59.0);
            body.push(&mut items, Paint { fill: None, ..fill });
            centred_text(&mut items, &lines, cx, figure_h, font, color, metrics);
            (width, figure_h + text_h)
        }
        Shape::Usecase | Shape::UsecaseBusiness => {
            let compartments = usecase_compartments(lines.clone());
            let widths: Vec<Vec<f64>> = compartments
                .iter()
                .map(|(_, lines)| {
                    lines
                        .iter()
                        .map(|(l, italic)| metrics.width(l, &line_font(font, *italic)))
                        .collect()
                })
                .collect();
            let geometry = usecase_ellipse(&widths, lh, metrics.ascent(&font), look.padding);
            let (w, h) = (geometry.width, geometry.height);
            ellipse(&mut items, w / 2.0, h / 2.0, w / 2.0, h / 2.0, fill);
            let block_w = widths.iter().flatten().copied().fold(0.0, f64::max);
            let centre_x = geometry.text_x + block_w / 2.0;
            let border = fill.stroke.map_or(look.class_border, |s| s.color);
            let mut top = geometry.text_y;
            for (separator, lines) in &compartments {
                if let Some(kind) = separator {
                    separator_line(&mut items, *kind, top, w, h, border);
                    top += COMPARTMENT_MARGIN;
                }
                centred_text(&mut items, lines, centre_x, top, font, color, metrics);
                top += lh * lines.len() as f64;
                if separator.is_some() {
                    top += COMPARTMENT_MARGIN;
                }
            }
            (w, h)
        }
        Shape::Component => {
            let (w, h) = boxed(40.0, 30.0);
            rect(&mut items, 0.0, 0.0, w, h, 2.5, fill);
            rect(&mut items, w - 20.0, 5.0, 15.0, 10.0, 0.0, fill);
            rect(&mut items, w - 22.0, 7.0, 4.0, 2.0, 0.0, fill);
            rect(&mut items, w - 22.0, 11.0, 4.0, 2.0, 0.0, fill);
            centred_text(&mut items, &lines, (w - 10.0) / 2.0, 15.0, font, color, metrics);
            (w, h)
        }
        Shape::Interface | Shape::Circle => {
            // PlantUML's table around the circle: the name's height above
            // it as below it.
            let w = text_w.max(19.0);
            let above = text_h.max(lh);
            ellipse(&mut items, w / 2.0, above + 9.0, 8.0, 8.0, fill);
            centred_text(&mut items, &lines, w / 2.0, above + 18.0, font, color, metrics);
            (w, 2.0 * above + 18.0)
        }
        Shape::Node => {
            let (w, h) = boxed(40.0, 30.0);
            polygon(
                &mut items,
                &[
                    (0.0, 10.0),
                    (10.0, 0.0),
                    (w, 0.0),
                    (w, h - 10.0),
                    (w - 10.0, h),
                    (0.0, h),
                ],
                fill,
            );
            let edge = fill.stroke.unwrap_or_else(|| stroke(look.class_border, 0.5));
            line(&mut items, w - 10.0, 10.0, w, 0.0, edge);
            line(&mut items, 0.0, 10.0, w - 10.0, 10.0, edge);
            line(&mut items, w - 10.0, 10.0, w - 10.0, h, edge);
            centred_text(&mut items, &lines, (w - 10.0) / 2.0, 20.0, font, color, metrics);
            (w, h)
        }
        Shape::Artifact => {
            let (w, h) = boxed(30.0, 23.0);
            rect(&mut items, 0.0, 0.0, w, h, 0.0, fill);
            polygon(
                &mut items,
                &[
                    (w - 17.0, 5.0),
                    (w - 11.0, 5.0),
                    (w - 7.0, 9.0),
                    (w - 7.0, 19.0),
                    (w - 17.0, 19.0),
                ],
                fill,
            );
            centred_text(&mut items, &lines, (w - 10.0) / 2.0, 10.0, font, color, metrics);
            (w, h)
        }
        Shape::Database => {
            let (w, h) = boxed(20.0, 29.0);
            let half = w / 2.0;
            PathBuilder::new()
                .move_to(0.0, 10.0)
                .cubic_to(0.0, 0.0, half, 0.0, half, 0.0)
                .cubic_to(half, 0.0, w, 0.0, w, 10.0)
                .line_to(w, h - 10.0)
                .cubic_to(w, h, half, h, half, h)
                .cubic_to(half, h, 0.0, h, 0.0, h - 10.0)
                .line_to(0.0, 10.0)
                .push(&mut items, fill);
            PathBuilder::new()
                .move_to(0.0, 10.0)
                .cubic_to(0.0, 20.0, half, 20.0, half, 20.0)
                .cubic_to(half, 20.0, w, 20.0, w, 10.0)
                .push(&mut items, Paint { fill: None, ..fill });
            centred_text(&mut items, &lines, half, 22.0, font, color, metrics);
            (w, h)
        }
        Shape::Queue => {
            let (w, h) = boxed(20.0, 10.0);
            PathBuilder::new()
                .move_to(5.0, 0.0)
                .line_to(w - 5.0, 0.0)
                .cubic_to(w, 0.0, w, h / 2.0, w, h / 2.0)
                .cubic_to(w, h / 2.0, w, h, w - 5.0, h)
                .line_to(5.0, h)
                .cubic_to(0.0, h, 0.0, h / 2.0, 0.0, h / 2.0)
                .cubic_to(0.0, h / 2.0, 0.0, 0.0, 5.0, 0.0)
                .push(&mut items, fill);
            centred_text(&mut items, &lines, w / 2.0, 5.0, font, color, metrics);
            (w, h)
        }
        Shape::Cloud => {
            let (w, h) = boxed(30.0, 30.0);
            let w = w.max(70.0);
            let h = h.max(text_h + 38.0);
            PathBuilder::new()
                .move_to(w * 0.15, h * 0.3)
                .cubic_to(w * 0.1, 0.0, w * 0.45, 0.0, w * 0.5, h * 0.15)
                .cubic_to(w * 0.6, 0.0, w * 0.95, 0.0, w * 0.85, h * 0.35)
                .cubic_to(w, h * 0.45, w, h * 0.9, w * 0.8, h * 0.85)
                .cubic_to(w * 0.7, h, w * 0.35, h, w * 0.3, h * 0.88)
                .cubic_to(0.0, h, 0.0, h * 0.35, w * 0.15, h * 0.3)
                .push(&mut items, fill);
            centred_text(&mut items, &lines, w / 2.0, (h - text_h) / 2.0, font, color, metrics);
            (w, h)
        }
        Shape::Hexagon => {
            let (w, h) = boxed(10.0, 10.0);
            let w = w.max(19.0);
            polygon(
                &mut items,
                &[
                    (0.0, h / 2.0),
                    (5.0, 0.0),
                    (w - 5.0, 0.0),
                    (w, h / 2.0),
                    (w - 5.0, h),
                    (5.0, h),
                ],
                fill,
            );
            centred_text(&mut items, &lines, w / 2.0, 5.0, font, color, metrics);
            (w, h)
        }
        Shape::Label => {
            let (w, h) = boxed(20.0, 20.0);
            centred_text(&mut items, &lines, w / 2.0, 10.0, font, color, metrics);
            (w, h)
        }
        Shape::Frame => {
            let (w, h) = boxed(40.0, 30.0);
            rect(&mut items, 0.0, 0.0, w, h, 0.0, fill);
            centred_text(&mut items, &lines, w / 2.0, 15.0, font, color, metrics);
            (w, h)
        }
        // An empty package drawn as an element: a tab as wide as its bold
        // name plus 25 px, the name left at 10 px, 17 px of body below
        // (PlantUML's outline for corpus 017's `package minesweeper.core`).
        Shape::Package => {
            let bold = Font { bold: true, ..font };
            let name_w = lines.iter().map(|(l, _)| metrics.width(l, &bold)).fold(0.0, f64::max);
            let (tab_w, tab_h) = (name_w + 25.0, text_h + 6.0);
            let (w, h) = (name_w + 42.0, text_h + 23.0);
            polygon(
                &mut items,
                &[
                    (0.0, 0.0),
                    (tab_w - 7.0, 0.0),
                    (tab_w, tab_h),
                    (w, tab_h),
                    (w, h),
                    (0.0, h),
                ],
                fill,
            );
            let edge = fill.stroke.unwrap_or_else(|| stroke(look.class_border, 0.5));
            line(&mut items, 0.0, tab_h, tab_w, tab_h, edge);
            centred_text(&mut items, &lines, 10.0 + name_w / 2.0, 3.0, bold, color, metrics);
            (w, h)
        }
        Shape::Folder => {
            let (w, h) = boxed(30.0, 38.0);
            let w = w.max(70.0);
            polygon(
                &mut items,
                &[
                    (0.0, 0.0),
                    (w * 0.4, 0.0),
                    (w * 0.4 + 5.0, 8.0),
                    (w, 8.0),
                    (w, h),
                    (0.0, h),
                ],
                fill,
            );
            centred_text(&mut items, &lines, w / 2.0, 18.0, font, color, metrics);
            (w, h)
        }
        Shape::Stack => {
            let (w, h) = boxed(50.0, 20.0);
            rect(&mut items, 15.0, 0.0, w - 30.0, h, 0.0, fill);
            centred_text(&mut items, &lines, w / 2.0, 10.0, font, color, metrics);
            (w, h)
        }
        Shape::Card => {
            let (w, h) = boxed(20.0, 6.0);
            rect(&mut items, 0.0, 0.0, w, h, 0.0, fill);
            centred_text(&mut items, &lines, w / 2.0, 3.0, font, color, metrics);
            (w, h)
        }
        Shape::Boundary | Shape::Control | Shape::Entity => {
            let w = text_w.max(32.0);
            let h = 32.0 + text_h;
            let cx = w / 2.0;
            ellipse(&mut items, cx, 13.0, 12.0, 12.0, fill);
            if shape == Shape::Boundary {
                let edge = fill.stroke.unwrap_or_else(|| stroke(look.class_border, 0.5));
                line(&mut items, cx - 20.0, 1.0, cx - 20.0, 25.0, edge);
                line(&mut items, cx - 20.0, 13.0, cx - 12.0, 13.0, edge);
            }
            centred_text(&mut items, &lines, cx, 30.0, font, color, metrics);
            (w, h)
        }
        Shape::Person => {
            let (w, h) = boxed(20.0, 33.764);
            rect(&mut items, 0.0, 20.0, w, h - 20.0, 10.0, fill);
            ellipse(&mut items, w / 2.0, 9.0, 9.0, 9.0, fill);
            centred_text(&mut items, &lines, w / 2.0, 28.0, font, color, metrics);
            (w, h)
        }
        Shape::Action => {
            let (w, h) = boxed(30.0, 20.0);
            polygon(
                &mut items,
                &[(0.0, 0.0), (w - 10.0, 0.0), (w, h / 2.0), (w - 10.0, h), (0.0, h)],
                fill,
            );
            centred_text(&mut items, &lines, (w - 10.0) / 2.0, 10.0, font, color, metrics);
            (w, h)
        }
        Shape::Process => {
            let (w, h) = boxed(40.0, 20.0);
            polygon(
                &mut items,
                &[
                    (0.0, 0.0),
                    (w - 10.0, 0.0),
                    (w, h / 2.0),
                    (w - 10.0, h),
                    (0.0, h),
                    (10.0, h / 2.0),
                ],
                fill,
            );
            centred_text(&mut items, &lines, w / 2.0, 10.0, font, color, metrics);
            (w, h)
        }
        Shape::Port | Shape::PortIn | Shape::PortOut => {
            rect(&mut items, 0.0, 0.0, 12.0, 12.0, 0.0, fill);
            (12.0, 12.0)
        }
        // Rectangle, file, storage, agent, collections: a box around the text.
        _ => {
            let (w, h) = boxed(20.0, 20.0);
            let radius = if shape == Shape::Storage { 17.5 } else { 0.0 };
            rect(&mut items, 0.0, 0.0, w, h, radius, fill);
            centred_text(&mut items, &lines, w / 2.0, 10.0, font, color, metrics);
            (w, h)
        }
    };
    if padding > 0.0 {
        // The text sits `padding` below the top of its padded block.
        for item in &mut items {
            if let Item::Text(run) = item {
                run.y = round3(run.y + padding);
            }
        }
    }
    Some(EntityBox { width, height, items })
}

/// The outline PlantUML draws around a container, by keyword.
#[derive(Clone, Copy, PartialEq)]
enum Outline {
    /// A rounded rectangle, the title centred at the top.
    Rectangle,
    /// A rectangle with a line under the title (`card`).
    Card,
    /// A 3D box (`node`).
    Node,
    /// A rectangle with a cut tab around the title, at the left (`frame`).
    Frame,
    /// A cylinder (`database`).
    Database,
    /// A horizontal cylinder (`queue`).
    Queue,
    /// A box between two flanges 15 px wide (`stack`).
    Stack,
    /// A scalloped outline (`cloud`).
    Cloud,
}

/// Draws a description container (a cluster) the way PlantUML 1.2026.8
/// draws its keyword (probe `test-data/description-probes/container-shapes`);
/// `false` for a keyword drawn as a package tab (`package`, `folder`: the
/// class layout draws those). The outline is 1 px of the element border
/// colour, no fill unless one is written.
pub(crate) fn draw_container(
    out: &mut Vec<Item>,
    rect: &puml_graph::Rect,
    title: &str,
    container: &Package,
    look: &ClassLook,
    metrics: &dyn TextMeasure,
) -> bool {
    let outline = match container.keyword.as_str() {
        "rectangle" | "agent" | "storage" | "file" | "component" | "hexagon" | "artifact" => Outline::Rectangle,
        "card" => Outline::Card,
        "node" => Outline::Node,
        "frame" => Outline::Frame,
        "database" => Outline::Database,
        "queue" => Outline::Queue,
        "stack" => Outline::Stack,
        "cloud" => Outline::Cloud,
        _ => return false,
    };
    let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height);
    let border = container
        .style
        .line_color
        .as_deref()
        .and_then(crate::color::parse_color)
        .unwrap_or(look.class_border);
    let fill = container
        .style
        .background
        .as_deref()
        .and_then(crate::color::parse_color);
    let line_paint = stroke(border, 1.0);
    let outlined = paint(fill, Some(line_paint));
    let font = Font {
        bold: true,
        ..look.package_font
    };
    let lines: Vec<(String, bool)> = container
        .stereotypes
        .iter()
        .map(|s| (format!("«{s}»"), false))
        .chain(title.split("\\n").map(|l| (l.to_string(), false)))
        .collect();
    let title_w = lines.iter().map(|(l, _)| metrics.width(l, &font)).fold(0.0, f64::max);
    let lh = metrics.line_height(&font);
    // Where the title's first line starts, below the outline's top.
    let mut title_top = 2.0;
    let mut title_left: Option<f64> = None;
    match outline {
        Outline::Rectangle => rect_item(out, x, y, w, h, outlined),
        Outline::Card => {
            rect_item(out, x, y, w, h, outlined);
            let under = y + lh * lines.len() as f64 + 4.0;
            line(out, x, under, x + w, under, line_paint);
        }
        Outline::Node => {
            let depth = 10.0;
            polygon(
                out,
                &[
                    (x, y + depth),
                    (x + depth, y),
                    (x + w, y),
                    (x + w, y + h - depth),
                    (x + w - depth, y + h),
                    (x, y + h),
                ],
                outlined,
            );
            line(out, x + w - depth, y + depth, x + w, y, line_paint);
            line(out, x, y + depth, x + w - depth, y + depth, line_paint);
            line(out, x + w - depth, y + depth, x + w - depth, y + h, line_paint);
            title_top = depth + 3.0;
        }
        Outline::Frame => {
            rect_item(out, x, y, w, h, outlined);
            let (tab_w, tab_h) = (title_w + 11.0, lh * lines.len() as f64 + 3.0);
            PathBuilder::new()
                .move_to(x + tab_w, y)
                .line_to(x + tab_w, y + tab_h - 10.0)
                .line_to(x + tab_w - 10.0, y + tab_h)
                .line_to(x, y + tab_h)
                .push(out, Paint { fill: None, ..outlined });
            title_top = 1.0;
            title_left = Some(x + 3.0);
        }
        Outline::Database => {
            let half = w / 2.0;
            PathBuilder::new()
                .move_to(x, y + 10.0)
                .cubic_to(x, y, x + half, y, x + half, y)
                .cubic_to(x + half, y, x + w, y, x + w, y + 10.0)
                .line_to(x + w, y + h - 10.0)
                .cubic_to(x + w, y + h, x + half, y + h, x + half, y + h)
                .cubic_to(x + half, y + h, x, y + h, x, y + h - 10.0)
                .line_to(x, y + 10.0)
                .push(out, outlined);
            PathBuilder::new()
                .move_to(x, y + 10.0)
                .cubic_to(x, y + 20.0, x + half, y + 20.0, x + half, y + 20.0)
                .cubic_to(x + half, y + 20.0, x + w, y + 20.0, x + w, y + 10.0)
                .push(out, Paint { fill: None, ..outlined });
            title_top = 22.0;
        }
        Outline::Queue => {
            let mid = y + h / 2.0;
            PathBuilder::new()
                .move_to(x + 5.0, y)
                .line_to(x + w - 5.0, y)
                .cubic_to(x + w, y, x + w, mid, x + w, mid)
                .cubic_to(x + w, mid, x + w, y + h, x + w - 5.0, y + h)
                .line_to(x + 5.0, y + h)
                .cubic_to(x, y + h, x, mid, x, mid)
                .cubic_to(x, mid, x, y, x + 5.0, y)
                .push(out, outlined);
            PathBuilder::new()
                .move_to(x + w - 5.0, y)
                .cubic_to(x + w - 10.0, y, x + w - 10.0, mid, x + w - 10.0, mid)
                .cubic_to(x + w - 10.0, y + h, x + w - 5.0, y + h, x + w - 5.0, y + h)
                .push(out, Paint { fill: None, ..outlined });
        }
        Outline::Stack => {
            let (left, right) = (x + 15.0, x + w - 15.0);
            rect_item(out, left, y, right - left, h, paint(fill, None));
            PathBuilder::new()
                .move_to(x, y)
                .line_to(left - 2.5, y)
                .cubic_to(left - 1.12, y, left, y + 1.12, left, y + 2.5)
                .line_to(left, y + h - 2.5)
                .cubic_to(left, y + h - 1.12, left + 1.12, y + h, left + 2.5, y + h)
                .line_to(right - 2.5, y + h)
                .cubic_to(right - 1.12, y + h, right, y + h - 1.12, right, y + h - 2.5)
                .line_to(right, y + 2.5)
                .cubic_to(right, y + 1.12, right + 1.12, y, right + 2.5, y)
                .line_to(x + w, y)
                .push(out, Paint { fill: None, ..outlined });
            title_top = 13.0;
        }
        Outline::Cloud => {
            cloud_outline(out, x, y, w, h, outlined);
            title_top = 8.0;
        }
    }
    let ascent = metrics.ascent(&font);
    for (i, (l, _)) in lines.iter().enumerate() {
        let lw = metrics.width(l, &font);
        let left = title_left.unwrap_or_else(|| {
            let centre = if outline == Outline::Node {
                x + (w - 10.0) / 2.0
            } else {
                x + w / 2.0
            };
            centre - lw / 2.0
        });
        out.push(Item::Text(TextRun {
            x: round3(left),
            y: round3(y + title_top + ascent + lh * i as f64),
            text: l.clone(),
            font,
            color: look.package_font_color,
            width: round3(lw),
            underline: false,
            strike: false,
            link: None,
        }));
    }
    true
}

/// A cloud's scalloped outline just around a box: arcs about 20 px long
/// bulging 4.5 px out of each side (PlantUML draws random-looking bumps of
/// that size; these are regular).
fn cloud_outline(out: &mut Vec<Item>, x: f64, y: f64, w: f64, h: f64, p: Paint) {
    const BUMP: f64 = 4.5;
    const STEP: f64 = 20.0;
    let across = ((w / STEP).round() as usize).clamp(1, 1000);
    let down = ((h / STEP).round() as usize).clamp(1, 1000);
    let corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
    let mut path = PathBuilder::new().move_to(x, y);
    for side in 0..4 {
        let (from, to) = (corners[side], corners[(side + 1) % 4]);
        let pieces = if side % 2 == 0 { across } else { down };
        // Outward normal of this side (the outline runs clockwise).
        let (nx, ny) = match side {
            0 => (0.0, -BUMP),
            1 => (BUMP, 0.0),
            2 => (0.0, BUMP),
            _ => (-BUMP, 0.0),
        };
        for k in 0..pieces {
            let at = |t: f64| (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
            let (a, b) = (k as f64 / pieces as f64, (k + 1) as f64 / pieces as f64);
            let (c1, c2, end) = (at(a + (b - a) / 4.0), at(b - (b - a) / 4.0), at(b));
            path = path.cubic_to(c1.0 + nx, c1.1 + ny, c2.0 + nx, c2.1 + ny, end.0, end.1);
        }
    }
    path.push(out, p);
}

fn rect_item(out: &mut Vec<Item>, x: f64, y: f64, w: f64, h: f64, p: Paint) {
    rect(out, x, y, w, h, 2.5, p);
}

#[cfg(test)]
mod tests {
    use super::{separator_kind, usecase_ellipse};

    /// The font PlantUML's use cases are written in by default: 16.297 px
    /// lines, 12.995 px above the baseline.
    const LINE: f64 = 16.297;
    const ASCENT: f64 = 12.995;

    /// Use case ellipses PlantUML drew (its text's line widths → node size
    /// in its `svek.dot`), within 2 px.
    /// The smallest enclosing circle holds every point, touches at least
    /// two, and no circle of a slightly smaller radius around a nearby
    /// centre holds them all.
    #[test]
    fn smallest_enclosing_circle_is_minimal() {
        let mut seed = 12_345_u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1_u64 << 53) as f64 * 200.0
        };
        for n in 1..12 {
            let points: Vec<(f64, f64)> = (0..n).map(|_| (next(), next() / 3.0)).collect();
            let ((cx, cy), r) = super::smallest_enclosing_circle(&points);
            let distance = |&(x, y): &(f64, f64)| (x - cx).hypot(y - cy);
            assert!(points.iter().all(|p| distance(p) <= r + 1e-6), "{points:?}");
            if n > 1 {
                assert!(
                    points.iter().filter(|p| (distance(p) - r).abs() < 1e-6).count() >= 2,
                    "{points:?}"
                );
            }
            for (dx, dy) in [(0.5, 0.0), (-0.5, 0.0), (0.0, 0.5), (0.0, -0.5)] {
                let reach = points
                    .iter()
                    .map(|&(x, y)| (x - cx - dx).hypot(y - cy - dy))
                    .fold(0.0, f64::max);
                assert!(reach >= r - 1e-9, "a nearby centre does better: {points:?}");
            }
        }
    }

    #[test]
    fn usecase_ellipses_measure_like_plantuml() {
        // "Log in" under `skinparam padding 30`.
        let padded = usecase_ellipse(&[vec![42.465]], LINE, ASCENT, 30.0);
        assert!((padded.width - 53.77).abs() < 0.1 && (padded.height - 41.57).abs() < 0.1);
        let cases: [(&[f64], f64, f64); 6] = [
            (&[9.591], 28.516, 24.013),
            (&[38.015], 59.761, 29.047),
            (&[80.876], 120.376, 29.047),
            (&[160.111], 185.653, 41.931),
            (&[372.928], 387.726, 82.345),
            (&[40.94, 40.94], 62.127, 50.684),
        ];
        for (widths, w, h) in cases {
            let ours = usecase_ellipse(&[widths.to_vec()], LINE, ASCENT, 0.0);
            assert!(
                (ours.width - w).abs() < 2.0 && (ours.height - h).abs() < 2.0,
                "{widths:?}: ({}, {}) vs ({w}, {h})",
                ours.width,
                ours.height
            );
        }
    }

    /// Use cases with separators PlantUML drew (probes
    /// `test-data/description-probes/usecase-separators*`): the ellipse's
    /// size and where the widest line starts, to a hundredth of a pixel.
    #[test]
    fn usecase_compartments_measure_like_plantuml() {
        let w = 138.428;
        // (compartments, ellipse width and height, widest line's left edge
        // and first baseline inside the ellipse's box).
        type Case = (Vec<Vec<f64>>, f64, f64, f64, f64);
        let cases: [Case; 6] = [
            // "Preconditions / -- / Character must … / greater than zero." (corpus 015)
            (
                vec![vec![94.835], vec![271.448, 127.142]],
                345.912,
                77.24,
                18.098,
                18.641,
            ),
            (
                vec![vec![67.655], vec![333.061, 187.612]],
                396.032,
                84.006,
                31.486,
                16.405,
            ),
            (vec![vec![w], vec![w]], 206.158, 64.696, 33.865, 23.947),
            (vec![vec![w], vec![w], vec![w]], 204.502, 99.052, 33.038, 28.977),
            (vec![vec![w], vec![w; 4]], 203.748, 133.83, 32.66, 34.069),
            (vec![vec![3.9], vec![276.855]], 308.336, 66.468, 15.705, 15.799),
        ];
        for (compartments, width, height, left, baseline) in cases {
            let ours = usecase_ellipse(&compartments, LINE, ASCENT, 0.0);
            assert!(
                (ours.width - width).abs() < 0.01
                    && (ours.height - height).abs() < 0.01
                    && (ours.text_x - left).abs() < 0.01
                    && (ours.text_y + ASCENT - baseline).abs() < 0.01,
                "{compartments:?}: {ours:?} vs ({width}, {height}) at ({left}, {baseline})"
            );
        }
    }

    #[test]
    fn separators_are_read_as_plantuml_reads_a_body() {
        for line in ["--", "----", " -- ", "..", "==", "__", "===="] {
            assert!(separator_kind(line).is_some(), "{line}");
        }
        for line in ["...", "-", "a--", "--a", "-- title --", "-.", ""] {
            assert_eq!(separator_kind(line), None, "{line}");
        }
    }
}
