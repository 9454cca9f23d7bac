//! Scene → SVG. Self-contained and deterministic: no scripts, no event
//! handlers, no `foreignObject`, no external references; every string is
//! XML-escaped and stripped of characters XML cannot carry; links are only
//! the `http(s)` targets layout already validated.

use puml_layout::{Color, FontFamily, Gradient, GradientDirection, Item, Paint, PathSegment, Scene, Stroke, TextRun};
use std::fmt::Write;

/// Renders `scene` as an SVG document.
pub fn to_svg(scene: &Scene) -> String {
    write_svg(scene, None).into_string()
}

/// [`to_svg`]'s document as bytes (UTF-8), for a caller that writes bytes:
/// the same bytes, without checking a whole document that is UTF-8 by
/// construction.
pub fn to_svg_bytes(scene: &Scene) -> Vec<u8> {
    let bytes = write_svg(scene, None).0;
    debug_assert!(std::str::from_utf8(&bytes).is_ok());
    bytes
}

/// A rectangle of the page in diagram coordinates (pixels, origin top-left).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Region {
    /// Whether the closed rectangles overlap (touching counts, so an item of
    /// zero width on the region's edge is kept).
    pub fn intersects(&self, other: &Region) -> bool {
        self.x <= other.x + other.width
            && other.x <= self.x + self.width
            && self.y <= other.y + other.height
            && other.y <= self.y + self.height
    }
}

/// Renders the part of `scene` inside `region`: only the items whose
/// [`item_bounds`] intersect it are written, and the root `<svg>` has the
/// region's `viewBox` and size, so a viewer can place it at the region's
/// offset over a page-sized placeholder. Groups (`Begin`/`End`) are written
/// only around items that are drawn. `region` is used as given
/// (callers clamp it to the page); a non-finite region draws nothing.
pub fn to_svg_region(scene: &Scene, region: &Region) -> String {
    write_svg(scene, Some(region)).into_string()
}

/// The box an item may paint into, strokes and text extents included
/// (generously: a text run's box is its advance width by one font size above
/// the baseline and a third below). `None` for the group markers.
pub fn item_bounds(item: &Item) -> Option<Region> {
    fn span(xs: impl Iterator<Item = (f64, f64)>, pad: f64) -> Option<Region> {
        let mut bounds: Option<(f64, f64, f64, f64)> = None;
        for (x, y) in xs {
            let b = bounds.get_or_insert((x, y, x, y));
            *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        bounds.map(|(x0, y0, x1, y1)| Region {
            x: x0 - pad,
            y: y0 - pad,
            width: x1 - x0 + 2.0 * pad,
            height: y1 - y0 + 2.0 * pad,
        })
    }
    fn pad(paint: &Paint) -> f64 {
        // A shadow reaches its offset plus about three deviations of blur.
        let shadow = paint
            .shadow
            .map_or(0.0, |d| if d.is_finite() { d.abs() * 2.5 } else { 0.0 });
        paint.stroke.map_or(0.0, |s| s.width.abs() / 2.0) + shadow
    }
    match item {
        Item::Rect {
            x,
            y,
            width,
            height,
            paint,
            ..
        } => span([(*x, *y), (x + width, y + height)].into_iter(), pad(paint)),
        Item::Line { x1, y1, x2, y2, stroke } => span([(*x1, *y1), (*x2, *y2)].into_iter(), stroke.width.abs() / 2.0),
        Item::Polygon { points, paint } => span(points.iter().map(|p| (p.x, p.y)), pad(paint)),
        Item::Ellipse { cx, cy, rx, ry, paint } => {
            span([(cx - rx, cy - ry), (cx + rx, cy + ry)].into_iter(), pad(paint))
        }
        // A cubic lies inside the hull of its control points.
        Item::Path { segments, paint } => span(
            segments.iter().flat_map(|s| match *s {
                PathSegment::MoveTo { x, y } | PathSegment::LineTo { x, y } => vec![(x, y)],
                PathSegment::CubicTo { x1, y1, x2, y2, x, y } => vec![(x1, y1), (x2, y2), (x, y)],
                PathSegment::Close => Vec::new(),
            }),
            pad(paint),
        ),
        Item::Text(run) => {
            let size = run.font.size.abs();
            span(
                [(run.x, run.y - size), (run.x + run.width.max(0.0), run.y + size / 3.0)].into_iter(),
                0.0,
            )
        }
        Item::Begin { .. } | Item::End => None,
    }
}

/// A group opened in the scene: written at once when not clipping, else
/// when its first drawn item comes (a group that draws nothing in the
/// region is left out, so thousands of off-screen messages cost nothing).
struct OpenGroup<'a> {
    class: &'a str,
    title: Option<&'a str>,
    link: Option<&'a str>,
    data: &'a [(String, String)],
    /// The closing tag once written.
    tag: Option<&'static str>,
}

fn open_group(out: &mut SvgOut, group: &mut OpenGroup<'_>) {
    match group.link.filter(|l| is_safe_link(l)) {
        Some(href) => {
            out.push_str("<a xlink:href=\"");
            escape_into(out, href);
            out.push_str("\" target=\"_top\"");
            group.tag = Some("a");
        }
        None => {
            out.push_str("<g");
            group.tag = Some("g");
        }
    }
    out.push_str(" class=\"");
    escape_into(out, group.class);
    out.push('"');
    for (name, value) in group.data {
        // Only plain attribute names (`id`, `data-…`): a name is never
        // taken from the diagram's text, but stay safe if it ever were.
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') && !name.starts_with("on") {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            escape_into(out, value);
            out.push('"');
        }
    }
    out.push('>');
    if let Some(title) = group.title {
        out.push_str("<title>");
        escape_into(out, title);
        out.push_str("</title>");
    }
}

fn write_svg(scene: &Scene, clip: Option<&Region>) -> SvgOut {
    let region = clip.copied().unwrap_or(Region {
        x: 0.0,
        y: 0.0,
        width: scene.width,
        height: scene.height,
    });
    let finite = [region.x, region.y, region.width, region.height]
        .iter()
        .all(|v| v.is_finite());
    // About 135 bytes an item over the class corpus (a text run with its
    // attributes, a path's points): sized above that, the page is written
    // without the copy of a late doubling.
    let capacity = match clip {
        None => 256 + scene.items.len() * 160,
        Some(_) => 4096,
    };
    let mut out = SvgOut::with_capacity(capacity);
    out.push_str(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"",
    );
    push_num(&mut out, region.width);
    out.push_str("px\" height=\"");
    push_num(&mut out, region.height);
    out.push_str("px\" viewBox=\"");
    push_num(&mut out, region.x);
    out.push(' ');
    push_num(&mut out, region.y);
    out.push(' ');
    push_num(&mut out, region.width);
    out.push(' ');
    push_num(&mut out, region.height);
    out.push_str("\" style=\"width:");
    push_num(&mut out, region.width);
    out.push_str("px;height:");
    push_num(&mut out, region.height);
    out.push_str("px;background:");
    out.push_str(&scene.background.to_hex());
    out.push_str(";\">");
    out.push_str("<defs/>");
    out.push_str("<rect");
    push_attr(&mut out, "x", region.x);
    push_attr(&mut out, "y", region.y);
    push_attr(&mut out, "width", region.width);
    push_attr(&mut out, "height", region.height);
    fill_attrs(&mut out, Some(scene.background));
    out.push_str("/>");
    out.push_str("<g font-family=\"DejaVu Sans, sans-serif\" xml:space=\"preserve\">");
    // Begin/End form a flat bracket sequence; remember what each opened.
    let mut open: Vec<OpenGroup<'_>> = Vec::new();
    // Each gradient is defined once, where it is first used (SVG lets a
    // gradient stand anywhere; a region drawn alone defines only its own).
    let mut gradients_written: Vec<(Color, Gradient)> = Vec::new();
    // Shadow filters likewise, one per offset (a scaled drawing has one).
    let mut shadows_written: Vec<f64> = Vec::new();
    for item in &scene.items {
        match item {
            Item::Begin {
                class,
                title,
                link,
                data,
            } => {
                let mut group = OpenGroup {
                    class,
                    title: title.as_deref(),
                    link: link.as_deref(),
                    data,
                    tag: None,
                };
                if clip.is_none() {
                    open_group(&mut out, &mut group);
                }
                open.push(group);
                continue;
            }
            Item::End => {
                if let Some(group) = open.pop() {
                    if let Some(tag) = group.tag {
                        push_close_tag(&mut out, tag);
                    }
                }
                continue;
            }
            _ => {}
        }
        if clip.is_some() {
            let inside = finite && item_bounds(item).is_some_and(|b| b.intersects(&region));
            if !inside {
                continue;
            }
            // Open the enclosing groups not written yet, outermost first.
            for group in open.iter_mut().filter(|g| g.tag.is_none()) {
                open_group(&mut out, group);
            }
        }
        if let Some((from, gradient)) = item_gradient(item) {
            if !gradients_written.contains(&(from, gradient)) {
                write_gradient(&mut out, from, gradient);
                gradients_written.push((from, gradient));
            }
        }
        if let Some(offset) = item_shadow(item) {
            if !shadows_written.contains(&offset) {
                write_shadow_filter(&mut out, offset);
                shadows_written.push(offset);
            }
        }
        match item {
            Item::Begin { .. } | Item::End => {}
            Item::Rect {
                x,
                y,
                width,
                height,
                radius,
                paint,
            } => {
                out.push_str("<rect");
                push_attr(&mut out, "x", *x);
                push_attr(&mut out, "y", *y);
                push_attr(&mut out, "width", *width);
                push_attr(&mut out, "height", *height);
                if *radius > 0.0 {
                    push_attr(&mut out, "rx", *radius);
                    push_attr(&mut out, "ry", *radius);
                }
                paint_attrs(&mut out, paint);
                out.push_str("/>");
            }
            Item::Line { x1, y1, x2, y2, stroke } => {
                out.push_str("<line");
                push_attr(&mut out, "x1", *x1);
                push_attr(&mut out, "y1", *y1);
                push_attr(&mut out, "x2", *x2);
                push_attr(&mut out, "y2", *y2);
                stroke_attrs(&mut out, Some(stroke));
                out.push_str("/>");
            }
            Item::Polygon { points, paint } => {
                out.push_str("<polygon points=\"");
                for (i, p) in points.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    push_point(&mut out, p.x, p.y);
                }
                out.push('"');
                paint_attrs(&mut out, paint);
                out.push_str("/>");
            }
            Item::Ellipse { cx, cy, rx, ry, paint } => {
                out.push_str("<ellipse");
                push_attr(&mut out, "cx", *cx);
                push_attr(&mut out, "cy", *cy);
                push_attr(&mut out, "rx", *rx);
                push_attr(&mut out, "ry", *ry);
                paint_attrs(&mut out, paint);
                out.push_str("/>");
            }
            Item::Path { segments, paint } => {
                out.push_str("<path d=\"");
                for (i, seg) in segments.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    match *seg {
                        PathSegment::MoveTo { x, y } => {
                            out.push('M');
                            push_point(&mut out, x, y);
                        }
                        PathSegment::LineTo { x, y } => {
                            out.push('L');
                            push_point(&mut out, x, y);
                        }
                        PathSegment::CubicTo { x1, y1, x2, y2, x, y } => {
                            out.push('C');
                            push_point(&mut out, x1, y1);
                            out.push(' ');
                            push_point(&mut out, x2, y2);
                            out.push(' ');
                            push_point(&mut out, x, y);
                        }
                        PathSegment::Close => out.push('Z'),
                    }
                }
                out.push('"');
                paint_attrs(&mut out, paint);
                out.push_str("/>");
            }
            Item::Text(run) => text(&mut out, run),
        }
    }
    while let Some(group) = open.pop() {
        if let Some(tag) = group.tag {
            push_close_tag(&mut out, tag);
        }
    }
    out.push_str("</g></svg>\n");
    out
}

/// The SVG being written, as bytes: numbers (most of an SVG) are formatted
/// straight into it, digits laid out in a stack buffer and copied once,
/// where a `String` checked its capacity and encoded a `char` per digit.
/// Only `&str`s and ASCII are ever pushed, so the bytes are UTF-8.
struct SvgOut(Vec<u8>);

impl SvgOut {
    fn with_capacity(capacity: usize) -> Self {
        SvgOut(Vec::with_capacity(capacity))
    }

    #[inline]
    fn push_str(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    fn push(&mut self, c: char) {
        // Nearly every pushed char is ASCII punctuation (`"`, ` `, `<`):
        // one byte stored, no copy of a variable length.
        if c.is_ascii() {
            self.0.push(c as u8);
        } else {
            let mut encoded = [0u8; 4];
            self.push_str(c.encode_utf8(&mut encoded));
        }
    }

    fn into_string(self) -> String {
        // Cannot fail (see above); a lossy copy rather than a panic if a
        // future change ever pushed a broken sequence.
        String::from_utf8(self.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

impl std::fmt::Write for SvgOut {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.push_str(text);
        Ok(())
    }
}

fn text(out: &mut SvgOut, run: &TextRun) {
    // A lone no-break space is PlantUML's mark of an empty line or a blank
    // between styled words: kept, as PlantUML writes it.
    if run.text != "\u{a0}" && !run.text.chars().any(|c| keep(c) && !c.is_whitespace()) {
        return;
    }
    let link = run.link.as_deref().filter(|l| is_safe_link(l));
    if let Some(href) = link {
        out.push_str("<a xlink:href=\"");
        escape_into(out, href);
        out.push_str("\" target=\"_top\">");
    }
    out.push_str("<text");
    push_attr(out, "x", run.x);
    push_attr(out, "y", run.y);
    push_attr(out, "font-size", run.font.size);
    fill_attrs(out, Some(run.color));
    // The face the text was measured in, then its generic kind; sans is
    // the document's default and needs no attribute.
    match run.font.family {
        FontFamily::Sans => {}
        FontFamily::Mono => out.push_str(" font-family=\"DejaVu Sans Mono, monospace\""),
        FontFamily::Serif => out.push_str(" font-family=\"DejaVu Serif, serif\""),
        FontFamily::SansCondensed => out.push_str(" font-family=\"DejaVu Sans Condensed, DejaVu Sans, sans-serif\""),
        FontFamily::SerifCondensed => out.push_str(" font-family=\"DejaVu Serif Condensed, DejaVu Serif, serif\""),
    }
    if run.font.bold {
        out.push_str(" font-weight=\"700\"");
    }
    if run.font.italic {
        out.push_str(" font-style=\"italic\"");
    }
    match (run.underline, run.strike) {
        (true, true) => out.push_str(" text-decoration=\"underline line-through\""),
        (true, false) => out.push_str(" text-decoration=\"underline\""),
        (false, true) => out.push_str(" text-decoration=\"line-through\""),
        (false, false) => {}
    }
    if run.width > 0.0 {
        push_attr(out, "textLength", run.width);
        if run.font.family.is_condensed() {
            // The condensed faces are not embedded: where the viewer (or
            // resvg, for PNG and PDF) lacks them, the regular face is
            // squeezed to the condensed advances, which is what the
            // condensed faces are (90 % wide).
            out.push_str(" lengthAdjust=\"spacingAndGlyphs\"");
        } else {
            out.push_str(" lengthAdjust=\"spacing\"");
        }
    }
    out.push('>');
    if run.font.family == FontFamily::Mono {
        // PlantUML writes a monospaced text's spaces as no-break spaces.
        escape_into(out, &run.text.replace(' ', "\u{a0}"));
    } else {
        escape_into(out, &run.text);
    }
    out.push_str("</text>");
    if link.is_some() {
        out.push_str("</a>");
    }
}

fn push_close_tag(out: &mut SvgOut, tag: &str) {
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

fn paint_attrs(out: &mut SvgOut, paint: &Paint) {
    match (paint.fill, paint.gradient) {
        (Some(from), Some(gradient)) => {
            out.push_str(" fill=\"url(#");
            push_gradient_id(out, from, gradient);
            out.push_str(")\"");
        }
        (fill, _) => fill_attrs(out, fill),
    }
    stroke_attrs(out, paint.stroke.as_ref());
    if let Some(offset) = paint.shadow {
        out.push_str(" filter=\"url(#");
        push_shadow_id(out, offset);
        out.push_str(")\"");
    }
}

/// The offset of the shadow an item casts, if it casts one.
pub(crate) fn item_shadow(item: &Item) -> Option<f64> {
    match item {
        Item::Rect { paint, .. }
        | Item::Polygon { paint, .. }
        | Item::Ellipse { paint, .. }
        | Item::Path { paint, .. } => paint.shadow.filter(|d| d.is_finite()),
        _ => None,
    }
}

/// A shadow filter's id, named after its offset in thousandths of a px
/// (`shadow-4000`), so the output stays deterministic.
fn push_shadow_id(out: &mut SvgOut, offset: f64) {
    out.push_str("shadow-");
    push_num(out, (offset * 1000.0).round());
}

/// Defines PlantUML's drop shadow as its SVG draws it: the shape's alpha
/// blurred (deviation half the offset), made 40 % black, moved right and
/// down by `offset`, the shape drawn over it. The filter region reaches one
/// box beyond the shape on every side, as PlantUML's does.
fn write_shadow_filter(out: &mut SvgOut, offset: f64) {
    out.push_str("<filter id=\"");
    push_shadow_id(out, offset);
    out.push_str("\" x=\"-1\" y=\"-1\" width=\"300%\" height=\"300%\"><feGaussianBlur result=\"blurOut\"");
    push_attr(out, "stdDeviation", offset / 2.0);
    out.push_str(
        "/><feColorMatrix type=\"matrix\" in=\"blurOut\" result=\"blurOut2\" \
         values=\"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 .4 0\"/><feOffset result=\"blurOut3\" in=\"blurOut2\"",
    );
    push_attr(out, "dx", offset);
    push_attr(out, "dy", offset);
    out.push_str("/><feBlend in=\"SourceGraphic\" in2=\"blurOut3\" mode=\"normal\"/></filter>");
}

/// The gradient an item's fill fades along, with its first colour.
fn item_gradient(item: &Item) -> Option<(Color, Gradient)> {
    let paint = match item {
        Item::Rect { paint, .. }
        | Item::Polygon { paint, .. }
        | Item::Ellipse { paint, .. }
        | Item::Path { paint, .. } => paint,
        _ => return None,
    };
    Some((paint.fill?, paint.gradient?))
}

/// A gradient's id, named after what it draws so equal gradients share one
/// definition and the output stays deterministic.
fn push_gradient_id(out: &mut SvgOut, from: Color, gradient: Gradient) {
    out.push_str("gradient-");
    push_hex_digits(out, from);
    out.push('-');
    push_hex_digits(out, gradient.to);
    out.push_str(match gradient.direction {
        GradientDirection::TopToBottom => "-v",
        GradientDirection::LeftToRight => "-h",
        GradientDirection::TopLeftToBottomRight => "-d",
        GradientDirection::BottomLeftToTopRight => "-u",
    });
}

/// Defines a gradient over its shape's box, running as PlantUML runs each
/// separator (observed in its SVG: `-` top to bottom, `|` left to right,
/// `/` top left to bottom right, `\` bottom left to top right).
fn write_gradient(out: &mut SvgOut, from: Color, gradient: Gradient) {
    let (x1, y1, x2, y2) = match gradient.direction {
        GradientDirection::TopToBottom => ("50%", "0%", "50%", "100%"),
        GradientDirection::LeftToRight => ("0%", "50%", "100%", "50%"),
        GradientDirection::TopLeftToBottomRight => ("0%", "0%", "100%", "100%"),
        GradientDirection::BottomLeftToTopRight => ("0%", "100%", "100%", "0%"),
    };
    out.push_str("<linearGradient id=\"");
    push_gradient_id(out, from, gradient);
    for (name, value) in [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)] {
        out.push_str("\" ");
        out.push_str(name);
        out.push_str("=\"");
        out.push_str(value);
    }
    out.push_str("\">");
    for (color, offset) in [(from, "0%"), (gradient.to, "100%")] {
        out.push_str("<stop offset=\"");
        out.push_str(offset);
        out.push_str("\" stop-color=\"");
        push_hex(out, color);
        out.push('"');
        if color.a < 255 {
            push_attr(out, "stop-opacity", f64::from(color.a) / 255.0);
        }
        out.push_str("/>");
    }
    out.push_str("</linearGradient>");
}

fn fill_attrs(out: &mut SvgOut, fill: Option<Color>) {
    match fill {
        // A fully transparent fill is none, as PlantUML writes it.
        Some(c) if c.a == 0 => out.push_str(" fill=\"none\""),
        Some(c) => {
            out.push_str(" fill=\"");
            push_hex(out, c);
            out.push('"');
            if c.a < 255 {
                push_attr(out, "fill-opacity", f64::from(c.a) / 255.0);
            }
        }
        None => out.push_str(" fill=\"none\""),
    }
}

fn stroke_attrs(out: &mut SvgOut, stroke: Option<&Stroke>) {
    if let Some(s) = stroke {
        out.push_str(" stroke=\"");
        push_hex(out, s.color);
        out.push('"');
        push_attr(out, "stroke-width", s.width);
        if s.color.a < 255 {
            push_attr(out, "stroke-opacity", f64::from(s.color.a) / 255.0);
        }
        if let Some((dash, gap)) = s.dash {
            out.push_str(" stroke-dasharray=\"");
            push_point(out, dash, gap);
            out.push('"');
        }
    }
}

/// "00" to "99", for writing two digits at once.
const DIGIT_PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends a coordinate with at most three decimals, no `-0`, never NaN.
/// Digits are pushed straight into the output: no formatter, no
/// allocation (this is the SVG writer's hot path).
fn push_num(out: &mut SvgOut, v: f64) {
    push_num_then(out, v, None);
}

/// [`push_num`], then `closing` (an attribute's closing quote): written in
/// the same block, one copy and one capacity check fewer per attribute.
/// Inlined: most numbers (0 to 999.999) take the short path, a few
/// instructions and [`push_short_num`]; the rest is out of line, so the
/// common path does not pay for its registers (18 instructions a number
/// of entry and exit when it was one function).
#[inline(always)]
fn push_num_then(out: &mut SvgOut, v: f64, closing: Option<u8>) {
    let scaled = v * 1000.0;
    let shifted = scaled + 0.5;
    // What `push_any_num_then` computes for these (its thousandths are
    // `shifted` truncated, below a million); NaN fails both tests.
    // Converted through `u32` (both ranges fit it): a float's conversion to
    // `usize` also handles values above 2^63 (a second conversion and a
    // mask), which these never are.
    if scaled >= 0.0 && shifted < 1_000_000.0 {
        push_short_num(out, shifted as u32, closing);
    } else if scaled >= 0.0 && shifted < 10_000_000.0 {
        // Wide or tall pages (class diagrams): 1,000 to 9,999.999.
        push_four_digit_num(out, shifted as u32, closing);
    } else if scaled >= 0.0 && shifted < 100_000_000.0 {
        // The largest class pages: 10,000 to 99,999.999.
        push_five_digit_num(out, shifted as u32, closing);
    } else {
        push_any_num_then(out, v, closing);
    }
}

/// A number from 1,000 to 9,999.999, in thousandths: its four digits and
/// its fraction in one 64-bit word, as [`push_short_num`] writes the
/// shorter ones (what `push_any_num_then` writes for them).
#[inline]
fn push_four_digit_num(out: &mut SvgOut, thousandths: u32, closing: Option<u8>) {
    let (whole, fraction) = (thousandths / 1000, thousandths % 1000);
    let units = PADDED_WHOLES[(whole % 1000) as usize];
    let tail = FRACTION_WORDS[fraction as usize];
    let word = u64::from(b'0' + (whole / 1000 % 10) as u8)
        | u64::from(units[0]) << 8
        | u64::from(units[1]) << 16
        | u64::from(units[2]) << 24
        | (tail & 0xFFFF_FFFF) << 32;
    let keep = out.0.len() + 4 + (tail >> 32) as usize;
    out.0.extend_from_slice(&word.to_le_bytes());
    out.0.truncate(keep);
    if let Some(c) = closing {
        out.0.push(c);
    }
}

/// A number from 10,000 to 99,999.999, in thousandths: its five digits,
/// its fraction and the closing byte laid out in a block of fixed size,
/// appended whole and cut to length (what `push_any_num_then` writes for
/// them, without its general path).
#[inline(never)]
fn push_five_digit_num(out: &mut SvgOut, thousandths: u32, closing: Option<u8>) {
    let (whole, fraction) = (thousandths / 1000, thousandths % 1000);
    let thousands = whole / 1000 % 100;
    let tail = FRACTION_WORDS[fraction as usize];
    let mut block = [0u8; 16];
    block[0] = b'0' + (thousands / 10) as u8;
    block[1] = b'0' + (thousands % 10) as u8;
    block[2..5].copy_from_slice(&PADDED_WHOLES[(whole % 1000) as usize]);
    block[5..9].copy_from_slice(&(tail as u32).to_le_bytes());
    push_block(out, block, 5 + (tail >> 32) as usize, closing);
}

/// Appends the first `len` bytes of `block`, then `closing` if any. The
/// whole block is copied (one fixed-size copy) and the tail cut off, which is
/// cheaper than a copy of a length known only at run time.
#[inline(always)]
fn push_block<const N: usize>(out: &mut SvgOut, mut block: [u8; N], mut len: usize, closing: Option<u8>) {
    if let Some(c) = closing {
        block[len] = c;
        len += 1;
    }
    let keep = out.0.len() + len;
    out.0.extend_from_slice(&block);
    out.0.truncate(keep);
}

/// [`push_num_then`] for any number.
#[inline(never)]
fn push_any_num_then(out: &mut SvgOut, v: f64, closing: Option<u8>) {
    if !v.is_finite() {
        out.push('0');
        if let Some(c) = closing {
            out.0.push(c);
        }
        return;
    }
    // Integer thousandths: exact on the 3-decimal grid, and much faster
    // than shortest-float formatting.
    let scaled = v * 1000.0;
    if scaled.abs() >= 9.0e15 {
        let _ = write!(out, "{}", v.round());
        if let Some(c) = closing {
            out.0.push(c);
        }
        return;
    }
    // Half away from zero, like `f64::round`, without its libm call
    // (the default x86-64 target has no rounding instruction).
    let thousandths = if scaled >= 0.0 {
        (scaled + 0.5) as i64
    } else {
        (scaled - 0.5) as i64
    };
    if (0..1_000_000).contains(&thousandths) {
        push_short_num(out, thousandths as u32, closing);
        return;
    }
    // Written front to back into a block of fixed size, which is then
    // appended whole and cut to length: a copy of constant length is two
    // register moves, where a variable one is a call to `memcpy` (that call
    // was a fifth of this function's cost). The longest number is
    // `-` + 13 digits + `.` + 3 digits = 18 bytes.
    let mut block = [0u8; NUM_BLOCK];
    let mut len = 0;
    if thousandths < 0 {
        block[0] = b'-';
        len = 1;
    }
    let magnitude = thousandths.unsigned_abs();
    let whole = magnitude / 1000;
    if whole < 1000 {
        // Nearly every coordinate: its digits from a table, in one copy.
        let entry = SMALL_WHOLES[whole as usize];
        block[len..len + 3].copy_from_slice(&entry[..3]);
        len += usize::from(entry[3]);
    } else if whole < 1_000_000 {
        // Tall diagrams' y coordinates: the thousands from the same table,
        // then three digits zero-padded (the digit count and the two-digit
        // loop below were 2.4 M instructions of the corpus's SVG).
        let (thousands, units) = ((whole / 1000) as usize, (whole % 1000) as usize);
        let entry = SMALL_WHOLES[thousands];
        block[len..len + 3].copy_from_slice(&entry[..3]);
        len += usize::from(entry[3]);
        block[len..len + 3].copy_from_slice(&PADDED_WHOLES[units]);
        len += 3;
    } else {
        len += decimal_digits(whole);
        // Two digits at a time from a table, from the last digit backwards.
        let mut rest = whole;
        let mut at = len;
        while rest >= 100 {
            let pair = (rest % 100) as usize * 2;
            rest /= 100;
            at -= 2;
            block[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if rest >= 10 {
            let pair = rest as usize * 2;
            block[at - 2..at].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            block[at - 1] = b'0' + rest as u8;
        }
    }
    // `.ddd` with trailing zeros left off, from a table (nothing for 0).
    let fraction = FRACTIONS[(magnitude % 1000) as usize];
    block[len..len + 4].copy_from_slice(&fraction[..4]);
    len += usize::from(fraction[4]);
    // At most 18 bytes so far: the closing byte fits the block.
    push_block(out, block, len, closing);
}

/// A number from 0 to 999.999 (most coordinates), in thousandths, laid
/// out in one 64-bit word, least significant byte first: the digits from a
/// table, the fraction from another, the closing byte, at most 8 bytes.
/// The word is appended whole and cut to length: no zeroed block, no
/// bounds checks (a 128-bit word for every number below a million, signs
/// included, measured slower than the block: its variable shifts are
/// several instructions each).
#[inline]
fn push_short_num(out: &mut SvgOut, thousandths: u32, closing: Option<u8>) {
    // 32-bit division and remainder: shorter multiply-and-shift sequences
    // than 64-bit ones. (`whole` is below 1,000 here; the remainder only
    // spares the table's bounds check.)
    let (whole, fraction) = (thousandths / 1000, thousandths % 1000);
    let digits = WHOLE_WORDS[(whole % 1000) as usize];
    let tail = FRACTION_WORDS[fraction as usize];
    let mut word = u64::from(digits & 0xFF_FFFF);
    let mut bits = (digits >> 24) * 8;
    // At most 24 then 56 bits in: every shift stays below 64.
    word |= (tail & 0xFFFF_FFFF) << bits;
    bits += (tail >> 32) as u32 * 8;
    if let Some(c) = closing {
        word |= u64::from(c) << bits;
        bits += 8;
    }
    let keep = out.0.len() + (bits / 8) as usize;
    out.0.extend_from_slice(&word.to_le_bytes());
    out.0.truncate(keep);
}

/// [`SMALL_WHOLES`] as words: the digits in the low three bytes (first
/// digit lowest), their count in the high byte.
const WHOLE_WORDS: [u32; 1000] = {
    let mut table = [0u32; 1000];
    let mut n = 0;
    while n < 1000 {
        let e = SMALL_WHOLES[n];
        table[n] = e[0] as u32 | (e[1] as u32) << 8 | (e[2] as u32) << 16 | (e[3] as u32) << 24;
        n += 1;
    }
    table
};

/// [`FRACTIONS`] as words: `.ddd` in the low four bytes, its length above.
const FRACTION_WORDS: [u64; 1000] = {
    let mut table = [0u64; 1000];
    let mut n = 0;
    while n < 1000 {
        let e = FRACTIONS[n];
        table[n] = e[0] as u64 | (e[1] as u64) << 8 | (e[2] as u64) << 16 | (e[3] as u64) << 24 | (e[4] as u64) << 32;
        n += 1;
    }
    table
};

/// The digits of 0 to 999, left-aligned, then their count.
const SMALL_WHOLES: [[u8; 4]; 1000] = {
    let mut table = [[0u8; 4]; 1000];
    let mut n = 0;
    while n < 1000 {
        // The padded digits without their leading zeros.
        let digits = PADDED_WHOLES[n];
        let skip = if n >= 100 {
            0
        } else if n >= 10 {
            1
        } else {
            2
        };
        let mut i = 0;
        while i < 3 - skip {
            table[n][i] = digits[skip + i];
            i += 1;
        }
        table[n][3] = (3 - skip) as u8;
        n += 1;
    }
    table
};

/// The digits of 0 to 999, zero-padded to three.
const PADDED_WHOLES: [[u8; 3]; 1000] = {
    let mut table = [[0u8; 3]; 1000];
    let mut n = 0;
    while n < 1000 {
        table[n] = [
            b'0' + (n / 100) as u8,
            b'0' + (n / 10 % 10) as u8,
            b'0' + (n % 10) as u8,
        ];
        n += 1;
    }
    table
};

/// A fraction of 0 to 999 thousandths as `.ddd` without trailing zeros,
/// then its length (0 for no fraction at all).
const FRACTIONS: [[u8; 5]; 1000] = {
    let mut table = [[0u8; 5]; 1000];
    let mut n = 1;
    while n < 1000 {
        let digits = [(n / 100) as u8, (n / 10 % 10) as u8, (n % 10) as u8];
        let kept = if n % 10 != 0 {
            3
        } else if n % 100 != 0 {
            2
        } else {
            1
        };
        table[n][0] = b'.';
        let mut i = 0;
        while i < kept {
            table[n][1 + i] = b'0' + digits[i];
            i += 1;
        }
        table[n][4] = (1 + kept) as u8;
        n += 1;
    }
    table
};

/// The size of the block [`push_num`] writes a number into.
const NUM_BLOCK: usize = 24;

/// How many decimal digits `n` has (1 for 0).
fn decimal_digits(n: u64) -> usize {
    let mut digits = 1;
    let mut bound = 10;
    while n >= bound && digits < 20 {
        digits += 1;
        bound = bound.saturating_mul(10);
    }
    digits
}

/// Appends `#RRGGBB`.
fn push_hex(out: &mut SvgOut, color: Color) {
    let digits = hex_digits(color);
    let mut block = [b'#'; 7];
    block[1..].copy_from_slice(&digits);
    out.0.extend_from_slice(&block);
}

/// Appends `RRGGBB`.
fn push_hex_digits(out: &mut SvgOut, color: Color) {
    out.0.extend_from_slice(&hex_digits(color));
}

/// `RRGGBB` as bytes: built in a block and copied once (a copy of constant
/// length), not pushed one byte at a time.
fn hex_digits(color: Color) -> [u8; 6] {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut digits = [0u8; 6];
    for (pair, channel) in digits.chunks_exact_mut(2).zip([color.r, color.g, color.b]) {
        pair[0] = DIGITS[usize::from(channel >> 4)];
        pair[1] = DIGITS[usize::from(channel & 15)];
    }
    digits
}

/// Appends ` name="value"` for a number. Always inlined: `name` is a
/// constant at every call, so its copy becomes a few moves instead of a
/// `memcpy` call (it was not inlined under `#[inline]`: 235,000 calls and
/// as many `memcpy`s over the corpus).
#[inline(always)]
fn push_attr(out: &mut SvgOut, name: &str, value: f64) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    push_num_then(out, value, Some(b'"'));
}

/// Appends `x,y`: the comma written with `x`, as an attribute's closing
/// quote is (a path's points are most of a class diagram's numbers).
fn push_point(out: &mut SvgOut, x: f64, y: f64) {
    push_num_then(out, x, Some(b','));
    push_num_then(out, y, None);
}

fn is_safe_link(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && !url.chars().any(|c| c.is_control() || c.is_whitespace())
}

/// Whether XML can carry `c` at all (even escaped it cannot carry most
/// C0 controls); C1 controls are dropped too.
fn keep(c: char) -> bool {
    !matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{FFFE}' | '\u{FFFF}')
}

/// The bytes [`escape_into`] must look at: the ASCII it escapes or drops,
/// and the lead bytes of the non-ASCII characters [`keep`] refuses (C1
/// controls are 0xC2 0x80..=0x9F, U+FFFE and U+FFFF are 0xEF 0xBF 0xBE/BF).
const ESCAPE_LOOK: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[0x7f] = true;
    table[b'&' as usize] = true;
    table[b'<' as usize] = true;
    table[b'>' as usize] = true;
    table[b'"' as usize] = true;
    table[b'\'' as usize] = true;
    table[0xC2] = true;
    table[0xEF] = true;
    table
};

/// Writes `text` XML-escaped, without what XML cannot carry (see [`keep`]).
fn escape_into(out: &mut SvgOut, text: &str) {
    // Most texts are printable ASCII with nothing to escape: one byte scan
    // (compares the compiler unrolls, cheaper than table lookups), one copy.
    if text
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) && !matches!(b, b'&' | b'<' | b'>' | b'"' | b'\''))
    {
        out.push_str(text);
        return;
    }
    // Else one pass over the bytes, one table lookup each, the runs that
    // need nothing copied whole (a char walk with a `keep` test for each
    // char was most of this function's 10.8 M instructions over the
    // corpus: the no-break spaces and non-ASCII labels take this path).
    let bytes = text.as_bytes();
    let mut plain_from = 0;
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if !ESCAPE_LOOK[usize::from(b)] {
            at += 1;
            continue;
        }
        let next = |offset: usize| bytes.get(at + offset).copied().unwrap_or(0);
        let (replacement, len): (&[u8], usize) = match b {
            b'\t' | b'\n' | b'\r' => (b" ", 1),
            b'&' => (b"&amp;", 1),
            b'<' => (b"&lt;", 1),
            b'>' => (b"&gt;", 1),
            b'"' => (b"&quot;", 1),
            b'\'' => (b"&apos;", 1),
            0xC2 if (0x80..=0x9F).contains(&next(1)) => (b"", 2),
            0xEF if next(1) == 0xBF && matches!(next(2), 0xBE | 0xBF) => (b"", 3),
            0xC2 | 0xEF => {
                at += 1;
                continue;
            }
            // The other C0 controls and DEL.
            _ => (b"", 1),
        };
        // Cut before an ASCII byte or a lead byte: a char boundary, so the
        // output stays UTF-8.
        out.0.extend_from_slice(&bytes[plain_from..at]);
        out.0.extend_from_slice(replacement);
        at += len;
        plain_from = at;
    }
    out.0.extend_from_slice(&bytes[plain_from..]);
}

#[cfg(test)]
mod escape_tests {
    use super::{escape_into, keep, SvgOut};

    /// The char-by-char reading the byte scan replaced.
    fn escaped_by_chars(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            match c {
                '\t' | '\n' | '\r' => out.push(' '),
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&apos;"),
                c if !keep(c) => {}
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn escaping_agrees_with_the_char_reading() {
        let pieces = [
            "a", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{0}", "\u{7}", "\u{1f}", "\u{7f}", "\u{80}",
            "\u{85}", "\u{9f}", "\u{a0}", "\u{c2}", "é", "\u{fffe}", "\u{ffff}", "\u{fffd}", "\u{efbf}", "\u{f000}",
            "日", "🎉", "«",
        ];
        let mut checked = 0;
        for length in 0..=3u32 {
            for mut code in 0..pieces.len().pow(length) {
                let mut text = String::new();
                for _ in 0..length {
                    text.push_str(pieces[code % pieces.len()]);
                    code /= pieces.len();
                }
                let mut out = SvgOut::with_capacity(0);
                escape_into(&mut out, &text);
                assert_eq!(out.into_string(), escaped_by_chars(&text), "{text:?}");
                checked += 1;
            }
        }
        assert!(checked > 20_000, "only {checked} strings checked");
    }
}

#[cfg(test)]
mod number_tests {
    use super::{push_num, SvgOut};

    fn formatted(v: f64) -> String {
        let mut out = SvgOut::with_capacity(0);
        push_num(&mut out, v);
        out.into_string()
    }

    #[test]
    fn numbers_have_at_most_three_decimals_and_no_negative_zero() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (-0.0004, "0"),
            (12.0, "12"),
            (12.5, "12.5"),
            (-12.5, "-12.5"),
            (0.05, "0.05"),
            (3.007, "3.007"),
            (1.0005, "1.001"),
            (-1.0005, "-1.001"),
            (1234567.125, "1234567.125"),
            (0.9999, "1"),
            (0.1, "0.1"),
            (100.02, "100.02"),
            (-0.5, "-0.5"),
            (1000.0, "1000"),
            (-9.99, "-9.99"),
            (f64::NAN, "0"),
            (f64::INFINITY, "0"),
            (1.0e16, "10000000000000000"),
            (1000.5, "1000.5"),
            (10001.001, "10001.001"),
            (-123456.07, "-123456.07"),
            (999999.999, "999999.999"),
            (1000000.0, "1000000"),
        ];
        for (value, expected) in cases {
            assert_eq!(formatted(value), expected, "{value}");
        }
    }

    #[test]
    fn points_are_their_two_numbers_and_a_comma() {
        let values = [
            0.0,
            0.5,
            7.25,
            999.999,
            999.9995,
            1000.0,
            1234.5,
            -0.4,
            -3.5,
            54_321.125,
            f64::NAN,
        ];
        for x in values {
            for y in values {
                let mut out = SvgOut::with_capacity(0);
                super::push_point(&mut out, x, y);
                assert_eq!(
                    out.into_string(),
                    format!("{},{}", formatted(x), formatted(y)),
                    "{x} {y}"
                );
            }
        }
    }

    #[test]
    fn numbers_match_the_formatter_on_the_three_decimal_grid() {
        // Every whole part of 1 to 7 digits (the two-digit table's edges
        // included), with and without a fraction, either sign.
        let reference = |thousandths: i64| {
            let text = format!("{:.3}", thousandths as f64 / 1000.0);
            let text = text.trim_end_matches('0').trim_end_matches('.');
            if text == "-0" {
                "0".to_string()
            } else {
                text.to_string()
            }
        };
        let mut whole: i64 = 0;
        while whole < 10_000_000 {
            for fraction in [0, 5, 250, 999] {
                for sign in [1, -1] {
                    let thousandths = sign * (whole * 1000 + fraction);
                    assert_eq!(
                        formatted(thousandths as f64 / 1000.0),
                        reference(thousandths),
                        "{thousandths} thousandths"
                    );
                }
            }
            whole = if whole < 1000 { whole + 1 } else { whole * 3 + 7 };
        }
        // Every fraction, around the short path's edges (a million
        // thousandths and a million wholes).
        for whole in [
            0, 7, 999, 1000, 1001, 4321, 9999, 10_000, 54_321, 99_999, 100_000, 999_999, 1_000_000, 1_000_001,
        ] {
            for fraction in 0..1000 {
                for sign in [1, -1] {
                    let thousandths = sign * (whole * 1000 + fraction);
                    assert_eq!(
                        formatted(thousandths as f64 / 1000.0),
                        reference(thousandths),
                        "{thousandths} thousandths"
                    );
                }
            }
        }
        let mut whole = 1000;
        while whole < 1_000_000 {
            let thousandths = whole * 1000 + 125;
            assert_eq!(formatted(thousandths as f64 / 1000.0), reference(thousandths));
            whole += 997;
        }
        // With a closing byte (an attribute's quote, a point's comma), on
        // each path's range.
        for whole in [0, 12, 999, 1000, 9999, 10_000, 67_890, 99_999, 100_000, 2_000_000] {
            for fraction in [0, 100, 120, 123] {
                let thousandths: i64 = whole * 1000 + fraction;
                let mut out = SvgOut::with_capacity(0);
                super::push_num_then(&mut out, thousandths as f64 / 1000.0, Some(b'"'));
                assert_eq!(out.into_string(), format!("{}\"", reference(thousandths)));
            }
        }
    }
}
