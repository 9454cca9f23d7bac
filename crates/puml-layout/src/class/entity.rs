//! One element's box, measured and drawn as PlantUML 1.2026.8 draws it
//! (its "EntityImageClass"): a header (spot circle, stereotypes, name,
//! generics box) above compartments (fields, then methods; or blocks cut
//! by the separators written in the body). Every size below was read off
//! PlantUML's SVGs and `svek.dot` node sizes (probe files and
//! `../shared/corpus-class`).
//!
//! The box is drawn at the origin into plain items; the caller moves them
//! to where the graph layout put the node ([`translate`]).

use super::look::ClassLook;
use super::shown::Shown;
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, Item, Paint, PathSegment, Point, TextRun};
use crate::shapes::{dashed, ellipse, line, paint, polygon, rect, stroke};
use crate::spot_glyphs::draw_spot_letter;
use puml_sema::class::{Element, ElementKind, Member, MemberItem, SeparatorStyle, Visibility};

/// Around the spot circle: its block is the diameter and this wide (26
/// px for the default radius of 11), its centre this far in plus the
/// radius, and a header with a spot at least the diameter and
/// [`HEADER_MARGIN`] tall.
const SPOT_SIDE: f64 = 4.0;
/// Room the name's text takes beyond its width (3 px each side).
const NAME_MARGIN: f64 = 6.0;
/// Room each stereotype line takes beyond its width.
const STEREO_MARGIN: f64 = 2.0;
/// Vertical room around the header's text block.
const HEADER_MARGIN: f64 = 10.0;
/// Left and right margins of a member's text.
const MEMBER_MARGIN: f64 = 6.0;
/// A compartment's margin above and below its rows.
const COMPARTMENT_MARGIN: f64 = 4.0;
/// An object with no fields still has this much body.
const EMPTY_OBJECT_BODY: f64 = 16.0;

/// A measured element: its size and its drawing at the origin.
#[derive(Debug, Clone)]
pub(crate) struct EntityBox {
    pub width: f64,
    pub height: f64,
    pub items: Vec<Item>,
}

/// One line of a compartment.
enum Row<'a> {
    Member(Drawn),
    /// A blank line of the body: an empty row, a line high.
    Blank,
    /// A separator that has a title, drawn across the box.
    Title {
        title: &'a str,
        style: SeparatorStyle,
    },
}

/// A run of rows drawn between two lines.
struct Compartment<'a> {
    rows: Vec<Row<'a>>,
    /// The line drawn above it: the header's line, or a separator's.
    line: CompartmentLine,
    icons: bool,
}

#[derive(Clone, Copy)]
enum CompartmentLine {
    /// The thin line under the header or between fields and methods.
    Plain,
    Separator(SeparatorStyle),
}

/// Measures and draws `element`.
pub(crate) fn entity_box(element: &Element, shown: &Shown, look: &ClassLook, metrics: &dyn TextMeasure) -> EntityBox {
    let scoped = look.for_stereotypes(&element.stereotypes);
    let look = scoped.as_ref().unwrap_or(look);
    match element.kind {
        ElementKind::Circle => circle_box(element, look, metrics),
        ElementKind::Diamond => diamond_box(look),
        // The description diagrams' shapes (actor, use case, component, …).
        ElementKind::Mixed => crate::description::shape_box(element, look, metrics)
            .unwrap_or_else(|| object_box(element, shown, look, metrics)),
        ElementKind::Object | ElementKind::Map | ElementKind::Json => object_box(element, shown, look, metrics),
        _ => class_box(element, shown, look, metrics),
    }
}

fn text_run(x: f64, baseline: f64, text: &str, font: Font, color: Color, width: f64) -> Item {
    owned_text_run(x, baseline, text.to_string(), font, color, width)
}

/// [`text_run`] with a text of its own.
fn owned_text_run(x: f64, baseline: f64, text: String, font: Font, color: Color, width: f64) -> Item {
    Item::Text(TextRun {
        x: round3(x),
        y: round3(baseline),
        text,
        font,
        color,
        width: round3(width),
        underline: false,
        strike: false,
        link: None,
    })
}

fn box_paint(look: &ClassLook, element: &Element) -> Paint {
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
    if matches!(element.style.line_style, Some(puml_sema::class::LineStyle::Dashed)) {
        p.stroke = Some(dashed(border, width, 7.0, 7.0));
    } else if matches!(element.style.line_style, Some(puml_sema::class::LineStyle::Dotted)) {
        p.stroke = Some(dashed(border, width, 1.0, 3.0));
    }
    p.shadowed(look.shadow)
}

fn font_color(look: &ClassLook, element: &Element) -> Color {
    element
        .style
        .text_color
        .as_deref()
        .and_then(crate::color::parse_color)
        .unwrap_or(look.class_font_color)
}

/// The name as drawn: the display name, one line per `\n`.
fn name_lines(element: &Element) -> Vec<&str> {
    let name = if element.display.is_empty() {
        element.qualified_name.as_str()
    } else {
        element.display.as_str()
    };
    // Most names are one line: no substring searcher set up for them.
    if !name.bytes().any(|b| b == b'\\' || b == b'\n') {
        return vec![name];
    }
    name.split("\\n").flat_map(|part| part.split('\n')).collect()
}

/// Whether a name has creole markup (`//italic//`, `**bold**`, tags).
fn name_has_markup(name: &str) -> bool {
    has_markup(name) || find_pair(name, b'/').is_some() || find_pair(name, b'_').is_some()
}

fn name_width(name: &str, font: Font, metrics: &dyn TextMeasure) -> f64 {
    if name_has_markup(name) {
        crate::creole::measure(name, font, metrics).width
    } else {
        metrics.width(name, &font)
    }
}

/// A one-line name ending in `<…>` (`Foo<T>`): the name and the generics.
fn split_generic(names: Vec<&str>) -> (Vec<&str>, Option<String>) {
    if let [only] = names.as_slice() {
        if let Some(open) = only.find('<') {
            if only.ends_with('>') && open > 0 && !only.starts_with("<<") {
                let inner = &only[open + 1..only.len() - 1];
                if !inner.is_empty() {
                    return (vec![&only[..open]], Some(inner.to_string()));
                }
            }
        }
    }
    (names, None)
}

fn class_box(element: &Element, shown: &Shown, look: &ClassLook, metrics: &dyn TextMeasure) -> EntityBox {
    let color = font_color(look, element);
    let italic_name = matches!(element.kind, ElementKind::AbstractClass | ElementKind::Interface);
    let name_font = if italic_name {
        look.name_font.italic()
    } else {
        look.name_font
    };
    let name_lh = metrics.line_height(&name_font);
    // `interface "Foo<T>" as F`: PlantUML draws `T` in the generics box.
    // (Only a declared display name with an alias: a quoted name used in
    // links keeps its `<…>`.)
    let (names, display_generic) = if element.alias.is_some() {
        split_generic(name_lines(element))
    } else {
        (name_lines(element), None)
    };
    let generic = element.generic.clone().or(display_generic);
    let name_widths: Vec<f64> = names.iter().map(|n| name_width(n, name_font, metrics)).collect();
    let name_w = name_widths.iter().copied().fold(0.0, f64::max);
    let name_h = name_lh * names.len() as f64;

    let stereos: Vec<String> = if shown.stereotype {
        element.stereotypes.iter().map(|s| format!("«{s}»")).collect()
    } else {
        Vec::new()
    };
    let stereo_font = look.stereotype_font;
    let stereo_lh = metrics.line_height(&stereo_font);
    let stereo_widths: Vec<f64> = stereos.iter().map(|s| metrics.width(s, &stereo_font)).collect();
    let stereo_w = stereo_widths.iter().copied().fold(0.0, f64::max);

    let spot = if shown.circle {
        look.spot_of(element.kind).map(|(letter, color)| match &element.spot {
            Some(spot) => (
                spot.letter,
                spot.color
                    .as_deref()
                    .and_then(crate::color::parse_color)
                    .unwrap_or(color),
            ),
            None => (letter, color),
        })
    } else {
        None
    };
    let radius = look.spot_radius;
    let spot_w = if spot.is_some() { 2.0 * radius + SPOT_SIDE } else { 0.0 };

    let generic_font = Font::sans(12.0).italic();
    let generic_w = generic.as_deref().map(|g| metrics.width(g, &generic_font));

    let text_block_w = (stereo_w + STEREO_MARGIN).max(name_w + NAME_MARGIN);
    let header_w = spot_w + text_block_w + generic_w.map_or(0.0, |w| w + 4.0);
    let text_block_h = stereos.len() as f64 * stereo_lh + name_h;
    let header_h = (text_block_h + HEADER_MARGIN).max(if spot.is_some() {
        2.0 * radius + HEADER_MARGIN
    } else {
        0.0
    });

    let mut compartments = compartments(element, shown, look);
    let member_lh = metrics.line_height(&look.member_font);
    let mut body_w: f64 = 0.0;
    let mut body_h = 0.0;
    for c in &compartments {
        body_w = body_w.max(compartment_width(c, look, metrics));
        body_h += compartment_height(c, member_lh);
    }
    let width = header_w.max(body_w);
    let height = header_h + body_h;

    // Sized for the usual box, not grown item by item: its outlines and
    // spot, an item per name and stereotype line, a line per compartment,
    // and up to two items per member (its text and visibility icon).
    let rows: usize = compartments.iter().map(|c| c.rows.len()).sum();
    let mut items = Vec::with_capacity(8 + names.len() + stereos.len() + compartments.len() + 2 * rows);
    rect(
        &mut items,
        0.0,
        0.0,
        width,
        height,
        look.radius,
        box_paint(look, element),
    );
    if let Some(header) = look.header_bg {
        // As PlantUML draws it: the header in its own colour (outline
        // too), square at the bottom, then the box's outline again.
        let own = box_paint(look, element).stroke.map(|s| stroke(header, s.width));
        let header_paint = paint(Some(header), own);
        rect(&mut items, 0.0, 0.0, width, header_h, look.radius, header_paint);
        rect(
            &mut items,
            0.0,
            header_h - look.radius,
            width,
            look.radius,
            0.0,
            header_paint,
        );
        let border = box_paint(look, element).stroke;
        rect(&mut items, 0.0, 0.0, width, height, look.radius, paint(None, border));
    }

    // PlantUML spreads the header's spare width: a little between the spot
    // and the text (at most a quarter of the spot), the rest on both sides.
    let spare = (width - header_w).max(0.0);
    let between = (spot_w / 4.0).min(spare * 0.1);
    let before = (spare - between) / 2.0;
    if let Some((letter, fill)) = spot {
        let cx = before + SPOT_SIDE + radius;
        let cy = header_h / 2.0;
        ellipse(
            &mut items,
            cx,
            cy,
            radius,
            radius,
            paint(Some(fill), Some(stroke(look.spot_border_of(letter), 1.0))),
        );
        if !draw_spot_letter(&mut items, letter, cx, cy) {
            let font = Font {
                family: crate::scene::FontFamily::Mono,
                size: 17.0,
                bold: true,
                italic: false,
            };
            let w = metrics.width(&letter.to_string(), &font);
            items.push(text_run(
                cx - w / 2.0,
                cy + 6.0,
                &letter.to_string(),
                font,
                Color::BLACK,
                w,
            ));
        }
    }
    let block_x = before + spot_w + between;
    let mut y = (header_h - text_block_h) / 2.0;
    let stereo_ascent = metrics.ascent(&stereo_font);
    for (s, w) in stereos.iter().zip(&stereo_widths) {
        let x = block_x + (text_block_w - (w + STEREO_MARGIN)) / 2.0 + 1.0;
        items.push(text_run(
            x,
            y + stereo_ascent,
            s,
            stereo_font,
            look.stereotype_font_color,
            *w,
        ));
        y += stereo_lh;
    }
    let name_ascent = metrics.ascent(&name_font);
    for (n, w) in names.iter().zip(&name_widths) {
        let x = block_x + (text_block_w - (w + NAME_MARGIN)) / 2.0 + 3.0;
        if name_has_markup(n) {
            crate::creole::measure(n, name_font, metrics).draw(x, y, crate::creole::Align::Left, color, &mut items);
        } else {
            items.push(text_run(x, y + name_ascent, n, name_font, color, *w));
        }
        y += name_lh;
    }
    if let (Some(generic), Some(gw)) = (generic.as_deref(), generic_w) {
        let glh = metrics.line_height(&generic_font);
        let gx = width + 3.0 - (gw + 2.0);
        rect(
            &mut items,
            gx,
            -3.0,
            gw + 2.0,
            glh + 2.0,
            0.0,
            paint(Some(Color::WHITE), Some(dashed(look.class_border, 1.0, 2.0, 2.0))),
        );
        items.push(text_run(
            gx + 1.0,
            -2.0 + metrics.ascent(&generic_font),
            generic,
            generic_font,
            color,
            gw,
        ));
    }

    let mut top = header_h;
    for c in &mut compartments {
        draw_compartment(&mut items, c, top, width, look, color, metrics);
        top += compartment_height(c, member_lh);
    }
    EntityBox { width, height, items }
}

/// The compartments PlantUML draws for a class-like element: fields then
/// methods, or, when the body has separators, the blocks between them.
fn compartments<'a>(element: &'a Element, shown: &Shown, look: &ClassLook) -> Vec<Compartment<'a>> {
    let has_separator = element.members.iter().any(|m| matches!(m, Member::Separator { .. }));
    let icons = |rows: &[Row<'_>]| {
        look.visibility_icons
            && rows
                .iter()
                .any(|r| matches!(r, Row::Member(m) if m.item.visibility.is_some() || m.mandatory))
    };
    let mut out = Vec::new();
    if has_separator {
        if !shown.fields && !shown.methods {
            return out;
        }
        let mut rows: Vec<Row<'a>> = Vec::new();
        let mut line = CompartmentLine::Plain;
        // Blank lines before the first member are not drawn.
        let first = element.members.iter().position(|m| !matches!(m, Member::Blank));
        for member in &element.members[first.unwrap_or(element.members.len())..] {
            match member {
                Member::Item(item) => rows.push(Row::Member(clean_member(item))),
                Member::Blank => rows.push(Row::Blank),
                Member::Separator {
                    style,
                    title: Some(title),
                } => rows.push(Row::Title {
                    title: title.as_str(),
                    style: *style,
                }),
                Member::Separator { style, title: None } => {
                    let taken = std::mem::take(&mut rows);
                    let icons = icons(&taken);
                    out.push(Compartment {
                        rows: taken,
                        line,
                        icons,
                    });
                    line = CompartmentLine::Separator(*style);
                }
            }
        }
        let icons = icons(&rows);
        out.push(Compartment { rows, line, icons });
        return out;
    }
    // A blank line is an empty row of the methods when a method is on
    // either side of it, of the fields otherwise; a compartment drops the
    // blank rows at its start and end.
    let is_method = |m: Option<&Member>| matches!(m, Some(Member::Item(item)) if item.is_method);
    let mut fields: Vec<Row<'a>> = Vec::new();
    let mut methods: Vec<Row<'a>> = Vec::new();
    for (i, member) in element.members.iter().enumerate() {
        match member {
            Member::Blank => {
                let around_methods =
                    i > 0 && is_method(element.members.get(i - 1)) && is_method(element.members.get(i + 1));
                let rows = if around_methods { &mut methods } else { &mut fields };
                if !rows.is_empty() {
                    rows.push(Row::Blank);
                }
            }
            Member::Item(item) => {
                let rows = if item.is_method { &mut methods } else { &mut fields };
                rows.push(Row::Member(clean_member(item)));
            }
            Member::Separator { .. } => {}
        }
    }
    for rows in [&mut fields, &mut methods] {
        while matches!(rows.last(), Some(Row::Blank)) {
            rows.pop();
        }
    }
    if shown.fields && !(fields.is_empty() && shown.hide_empty_fields) {
        let icons = icons(&fields);
        out.push(Compartment {
            rows: fields,
            line: CompartmentLine::Plain,
            icons,
        });
    }
    if shown.methods && !(methods.is_empty() && shown.hide_empty_methods) {
        let icons = icons(&methods);
        out.push(Compartment {
            rows: methods,
            line: CompartmentLine::Plain,
            icons,
        });
    }
    out
}

/// A member as PlantUML draws it: the text trimmed, the modifiers
/// `{static}` `{classifier}` `{abstract}` `{field}` `{method}` taken out
/// (wherever the reading left them) and `<<x>>` written `«x»`.
/// A member ready to draw.
struct Drawn {
    item: MemberItem,
    /// `* name` in an ER entity: drawn after a black dot (PlantUML's
    /// `IE_MANDATORY` icon).
    mandatory: bool,
    /// The width of a text without markup, once measured (the box's
    /// width, then its drawing, ask for it).
    plain_width: std::cell::Cell<Option<f64>>,
}

fn clean_member(item: &MemberItem) -> Drawn {
    let mut out = MemberItem {
        text: String::new(),
        ..*item
    };
    let trimmed = trim(&item.text);
    let mandatory = trimmed.starts_with('*') && !trimmed.starts_with("**") && item.visibility.is_none();
    // (Every modifier opens with a brace: most members have none, and
    // their text is only trimmed.)
    if !trimmed.contains('{') {
        out.text = guillemets(
            trimmed
                .strip_prefix('*')
                .filter(|_| mandatory)
                .unwrap_or(trimmed)
                .trim_start(),
        );
        return Drawn {
            item: out,
            mandatory,
            plain_width: std::cell::Cell::new(None),
        };
    }
    let mut text = trimmed.to_string();
    if mandatory {
        text.remove(0);
    }
    let modifiers = if text.contains('{') {
        &[
            ("{static}", 1),
            ("{classifier}", 1),
            ("{abstract}", 2),
            ("{field}", 0),
            ("{method}", 0),
        ][..]
    } else {
        &[]
    };
    for &(word, flag) in modifiers {
        while let Some(at) = find_ignoring_case(&text, word) {
            // The modifier goes with one of the blanks around it.
            let end = at + word.len();
            let blank_after = text[end..].starts_with(' ');
            let blank_before = text[..at].ends_with(' ');
            let (from, to) = if blank_after && blank_before {
                (at, end + 1)
            } else {
                (at, end)
            };
            text.replace_range(from..to, "");
            match flag {
                1 => out.is_static = true,
                2 => out.is_abstract = true,
                _ => {}
            }
        }
    }
    out.text = guillemets(text.trim());
    Drawn {
        item: out,
        mandatory,
        plain_width: std::cell::Cell::new(None),
    }
}

/// `text.trim()`, answered at once for a text whose first and last
/// bytes are printable ASCII (nearly every member: the call and its
/// whitespace test per end were most of a member's trimming).
fn trim(text: &str) -> &str {
    let plain = |b: &u8| (b'!'..=b'~').contains(b);
    match (text.as_bytes().first(), text.as_bytes().last()) {
        (Some(first), Some(last)) if plain(first) && plain(last) => text,
        _ => text.trim(),
    }
}

/// Where `word` (lowercase ASCII) first stands in `text`, ASCII case
/// ignored: what `text.to_ascii_lowercase().find(word)` answers (lowering
/// ASCII keeps every byte's place), without the lowered copy and the
/// substring searcher each modifier of each member set up.
fn find_ignoring_case(text: &str, word: &str) -> Option<usize> {
    let word = word.as_bytes();
    if word.is_empty() {
        return Some(0);
    }
    text.as_bytes()
        .windows(word.len())
        .position(|window| window.eq_ignore_ascii_case(word))
}

/// `<<word>>` written `«word»`, as PlantUML shows stereotypes in text;
/// nested generics (`Map<String,List<String>>`) stay as written.
pub(crate) fn guillemets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = find_pair(rest, b'<') {
        let after = &rest[open + 2..];
        match find_pair(after, b'>') {
            Some(close) if !after[..close].contains(['<', '>', ',']) && close > 0 => {
                out.push_str(&rest[..open]);
                out.push('«');
                out.push_str(&after[..close]);
                out.push('»');
                rest = &after[close + 2..];
            }
            _ => {
                out.push_str(&rest[..open + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where `text` first has `byte` twice in a row (an ASCII byte): a byte
/// search, where a substring search sets up a searcher for every member.
fn find_pair(text: &str, byte: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = bytes[from..].iter().position(|&b| b == byte) {
        let at = from + at;
        if bytes.get(at + 1) == Some(&byte) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The member's text as drawn: with its visibility character when icons
/// are off.
fn member_text<'a>(item: &'a MemberItem, look: &ClassLook) -> std::borrow::Cow<'a, str> {
    match item.visibility {
        Some(v) if !look.visibility_icons => {
            let c = match v {
                Visibility::Private => '-',
                Visibility::Protected => '#',
                Visibility::Package => '~',
                Visibility::Public => '+',
            };
            std::borrow::Cow::Owned(format!("{c}{}", item.text))
        }
        _ => std::borrow::Cow::Borrowed(&item.text),
    }
}

/// Whether a member's text has creole markup PlantUML interprets in a
/// class body (bold, colours, icons…); other texts are drawn as written
/// (`__repr__()` and `List<String>` stay literal).
fn has_markup(text: &str) -> bool {
    /// The tags that open with `<` (after it); `**` and `~~` are the others.
    const TAGS: &[&[u8]] = &[
        b"b>", b"i>", b"u>", b"s>", b"color", b"size", b"&", b"font", b"back", b"strike>", b"del>", b"sup>", b"sub>",
    ];
    // One pass over the text (every member of every class is asked, twice:
    // fifteen substring searches each were 6 % of a class diagram's render),
    // looking closer only at the three bytes that can open markup.
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(offset) = bytes[from..].iter().position(|&b| MARKUP_OPENERS[usize::from(b)]) {
        let at = from + offset;
        let rest = &bytes[at + 1..];
        let opens = match bytes[at] {
            b'<' => TAGS.iter().any(|tag| rest.starts_with(tag)),
            b => rest.first() == Some(&b),
        };
        if opens {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The bytes that can open markup (`*`, `~`, `<`), as a table: one load a
/// byte where three comparisons were (every member's text is scanned).
const MARKUP_OPENERS: [bool; 256] = {
    let mut table = [false; 256];
    table[b'*' as usize] = true;
    table[b'~' as usize] = true;
    table[b'<' as usize] = true;
    table
};

/// The width of a member's text as drawn.
fn member_width(member: &Drawn, look: &ClassLook, metrics: &dyn TextMeasure) -> f64 {
    let item = &member.item;
    let text = member_text(item, look);
    if has_markup(&text) {
        crate::creole::measure(&text, member_font(item, look), metrics).width
    } else {
        let width = metrics.width(&text, &member_font(item, look));
        member.plain_width.set(Some(width));
        width
    }
}

fn member_font(item: &MemberItem, look: &ClassLook) -> Font {
    if item.is_abstract {
        look.member_font.italic()
    } else {
        look.member_font
    }
}

fn compartment_width(c: &Compartment<'_>, look: &ClassLook, metrics: &dyn TextMeasure) -> f64 {
    let mut w: f64 = 0.0;
    for row in &c.rows {
        match row {
            Row::Member(m) => w = w.max(member_width(m, look, metrics)),
            Row::Blank => {}
            Row::Title { title, .. } => w = w.max(metrics.width(title, &look.member_font)),
        }
    }
    w + 2.0 * MEMBER_MARGIN + if c.icons { look.icon_column } else { 0.0 }
}

fn compartment_height(c: &Compartment<'_>, lh: f64) -> f64 {
    let mut h = 2.0 * COMPARTMENT_MARGIN;
    for row in &c.rows {
        h += match row {
            Row::Member(_) | Row::Blank => lh,
            // A titled separator: its title's line and 4 px.
            Row::Title { .. } => lh + COMPARTMENT_MARGIN,
        };
    }
    h
}

fn separator_stroke(style: SeparatorStyle, color: Color) -> crate::scene::Stroke {
    match style {
        SeparatorStyle::Solid => stroke(color, 1.0),
        SeparatorStyle::Dotted => dashed(color, 1.0, 1.0, 2.0),
        SeparatorStyle::Double => stroke(color, 1.0),
        SeparatorStyle::Thick => stroke(color, 2.0),
    }
}

fn draw_compartment(
    items: &mut Vec<Item>,
    c: &mut Compartment<'_>,
    top: f64,
    width: f64,
    look: &ClassLook,
    color: Color,
    metrics: &dyn TextMeasure,
) {
    match c.line {
        CompartmentLine::Plain => line(
            items,
            1.0,
            top,
            width - 1.0,
            top,
            stroke(look.class_border, look.class_border_width),
        ),
        CompartmentLine::Separator(style) => {
            let s = separator_stroke(style, look.class_border);
            line(items, 1.0, top, width - 1.0, top, s);
            if style == SeparatorStyle::Double {
                line(items, 1.0, top + 2.0, width - 1.0, top + 2.0, s);
            }
        }
    }
    let lh = metrics.line_height(&look.member_font);
    let mut y = top + COMPARTMENT_MARGIN;
    let text_x = MEMBER_MARGIN + if c.icons { look.icon_column } else { 0.0 };
    for row in &mut c.rows {
        match row {
            Row::Member(m) => {
                if c.icons {
                    if let Some(v) = m.item.visibility {
                        visibility_icon(items, v, m.item.is_method, y, lh, look.monochrome_icons);
                    } else if m.mandatory {
                        let p = paint(Some(Color::BLACK), Some(stroke(Color::BLACK, 1.0)));
                        ellipse(items, MEMBER_MARGIN + 5.0, y + lh / 2.0 + 1.5, 3.0, 3.0, p);
                    }
                }
                draw_member(items, m, text_x, y, look, color, metrics);
                y += lh;
            }
            Row::Blank => y += lh,
            Row::Title { title, style } => {
                let w = metrics.width(title, &look.member_font);
                let mid = y + COMPARTMENT_MARGIN + lh / 2.0;
                let x = (width - w) / 2.0;
                let s = separator_stroke(*style, look.class_border);
                line(items, 1.0, mid, x, mid, s);
                items.push(text_run(
                    x,
                    y + 3.5 + metrics.ascent(&look.member_font),
                    title,
                    look.member_font,
                    color,
                    w,
                ));
                line(items, x + w, mid, width - 1.0, mid, s);
                y += lh + COMPARTMENT_MARGIN;
            }
        }
    }
}

/// One member's text, its line's top at `top` (the last use of the
/// member: its text is moved into the run, not copied).
fn draw_member(
    items: &mut Vec<Item>,
    member: &mut Drawn,
    x: f64,
    top: f64,
    look: &ClassLook,
    color: Color,
    metrics: &dyn TextMeasure,
) {
    let item = &member.item;
    let font = member_font(item, look);
    let text = member_text(item, look);
    // Measured plain when the box was: a text without markup.
    let w = match member.plain_width.get() {
        Some(w) => w,
        None if has_markup(&text) => {
            crate::creole::measure(&text, font, metrics).draw(x, top, crate::creole::Align::Left, color, items);
            return;
        }
        None => metrics.width(&text, &font),
    };
    let baseline = top + metrics.ascent(&font);
    let is_static = item.is_static;
    let text = match text {
        std::borrow::Cow::Owned(text) => text,
        std::borrow::Cow::Borrowed(_) => std::mem::take(&mut member.item.text),
    };
    let mut run = owned_text_run(x, baseline, text, font, color, w);
    if let Item::Text(t) = &mut run {
        t.underline = is_static;
    }
    items.push(run);
}

/// PlantUML's visibility icons: outlined for fields, filled for methods.
fn visibility_icon(
    items: &mut Vec<Item>,
    v: Visibility,
    method: bool,
    top: f64,
    lh: f64,
    monochrome: Option<(Color, Color)>,
) {
    let cx = MEMBER_MARGIN + 5.0;
    let (border, fill) = match v {
        Visibility::Private => (0xC82930, 0xF24D5C),
        Visibility::Protected => (0xB38D22, 0xFFFF44),
        Visibility::Package => (0x1963A0, 0x4177AF),
        Visibility::Public => (0x038048, 0x84BE84),
    };
    let p = match monochrome {
        Some((fill, line)) => paint(method.then_some(fill), Some(stroke(line, 1.0))),
        None => paint(method.then(|| Color::hex(fill)), Some(stroke(Color::hex(border), 1.0))),
    };
    let mid = top + lh / 2.0;
    match v {
        Visibility::Private => rect(items, cx - 3.0, mid + 1.5 - 3.0, 6.0, 6.0, 0.0, p),
        Visibility::Protected => polygon(
            items,
            &[
                (cx, mid + 0.5 - 4.0),
                (cx + 4.0, mid + 0.5),
                (cx, mid + 0.5 + 4.0),
                (cx - 4.0, mid + 0.5),
            ],
            p,
        ),
        Visibility::Package => polygon(
            items,
            &[(cx, mid - 2.5), (cx - 4.0, mid + 3.5), (cx + 4.0, mid + 3.5)],
            p,
        ),
        Visibility::Public => ellipse(items, cx, mid + 1.5, 3.0, 3.0, p),
    }
}

/// Objects, maps and JSON: the name centred over one compartment of rows.
fn object_box(element: &Element, shown: &Shown, look: &ClassLook, metrics: &dyn TextMeasure) -> EntityBox {
    let color = font_color(look, element);
    let font = look.name_font;
    let lh = metrics.line_height(&font);
    let names = name_lines(element);
    let name_widths: Vec<f64> = names.iter().map(|n| metrics.width(n, &font)).collect();
    let name_w = name_widths.iter().copied().fold(0.0, f64::max);
    let header_h = lh * names.len() as f64 + 4.0;
    let mut rows: Vec<Drawn> = if shown.fields || shown.methods {
        element
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Item(i) => Some(clean_member(i)),
                Member::Separator { .. } | Member::Blank => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let member_lh = metrics.line_height(&look.member_font);
    let rows_w = rows.iter().map(|r| member_width(r, look, metrics)).fold(0.0, f64::max);
    let width = (name_w + 14.0).max(rows_w + 2.0 * MEMBER_MARGIN);
    let body_h = if rows.is_empty() {
        EMPTY_OBJECT_BODY
    } else {
        2.0 * COMPARTMENT_MARGIN + member_lh * rows.len() as f64
    };
    let height = header_h + body_h;
    let mut items = Vec::new();
    rect(
        &mut items,
        0.0,
        0.0,
        width,
        height,
        look.radius,
        box_paint(look, element),
    );
    let ascent = metrics.ascent(&font);
    for (i, (n, w)) in names.iter().zip(&name_widths).enumerate() {
        items.push(text_run(
            (width - w) / 2.0,
            2.0 + ascent + lh * i as f64,
            n,
            font,
            color,
            *w,
        ));
    }
    line(
        &mut items,
        1.0,
        header_h,
        width - 1.0,
        header_h,
        stroke(look.class_border, look.class_border_width),
    );
    let mut y = header_h + COMPARTMENT_MARGIN;
    for r in &mut rows {
        draw_member(&mut items, r, MEMBER_MARGIN, y, look, color, metrics);
        y += member_lh;
    }
    EntityBox { width, height, items }
}

/// `circle`: a small circle, its name below it (the name is no shape, so
/// the box is the circle's).
fn circle_box(element: &Element, look: &ClassLook, metrics: &dyn TextMeasure) -> EntityBox {
    let mut items = Vec::new();
    ellipse(
        &mut items,
        8.0,
        8.0,
        8.0,
        8.0,
        paint(Some(look.class_bg), Some(stroke(look.class_border, 0.5))),
    );
    let name = name_lines(element).join(" ");
    let w = metrics.width(&name, &look.name_font);
    items.push(text_run(
        8.0 - w / 2.0,
        16.0 + 12.995 + 2.0,
        &name,
        look.name_font,
        font_color(look, element),
        w,
    ));
    EntityBox {
        width: 16.0,
        height: 16.0,
        items,
    }
}

/// `diamond`: an n-ary association's diamond, 24 px.
fn diamond_box(look: &ClassLook) -> EntityBox {
    let mut items = Vec::new();
    polygon(
        &mut items,
        &[(12.0, 0.0), (24.0, 12.0), (12.0, 24.0), (0.0, 12.0)],
        paint(Some(look.class_bg), Some(stroke(look.class_border, 0.5))),
    );
    EntityBox {
        width: 24.0,
        height: 24.0,
        items,
    }
}

/// Moves items drawn at the origin by `(dx, dy)`.
pub(crate) fn translate(items: &mut [Item], dx: f64, dy: f64) {
    let p = |x: &mut f64, d: f64| *x = round3(*x + d);
    for item in items {
        match item {
            Item::Rect { x, y, .. } => {
                p(x, dx);
                p(y, dy);
            }
            Item::Line { x1, y1, x2, y2, .. } => {
                p(x1, dx);
                p(y1, dy);
                p(x2, dx);
                p(y2, dy);
            }
            Item::Polygon { points, .. } => {
                for Point { x, y } in points {
                    p(x, dx);
                    p(y, dy);
                }
            }
            Item::Ellipse { cx, cy, .. } => {
                p(cx, dx);
                p(cy, dy);
            }
            Item::Path { segments, .. } => {
                for s in segments {
                    match s {
                        PathSegment::MoveTo { x, y } | PathSegment::LineTo { x, y } => {
                            p(x, dx);
                            p(y, dy);
                        }
                        PathSegment::CubicTo { x1, y1, x2, y2, x, y } => {
                            p(x1, dx);
                            p(y1, dy);
                            p(x2, dx);
                            p(y2, dy);
                            p(x, dx);
                            p(y, dy);
                        }
                        PathSegment::Close => {}
                    }
                }
            }
            Item::Text(t) => {
                p(&mut t.x, dx);
                p(&mut t.y, dy);
            }
            Item::Begin { .. } | Item::End => {}
        }
    }
}

#[cfg(test)]
mod markup_tests {
    /// `find_ignoring_case` answers what a search in the lowered text does.
    #[test]
    fn find_ignoring_case_finds_what_the_lowered_search_finds() {
        let pieces = [
            "", "{", "}", "{static}", "{STATIC}", "{Static", "static}", "é", "x", " ",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    for word in ["{static}", "{field}", "s"] {
                        assert_eq!(
                            super::find_ignoring_case(&text, word),
                            text.to_ascii_lowercase().find(word),
                            "{text:?} {word:?}"
                        );
                    }
                }
            }
        }
    }

    /// `find_pair` is the byte form of `str::find("<<")` / `find(">>")`.
    #[test]
    fn find_pair_finds_what_a_substring_search_finds() {
        let pieces = ["", "<", ">", "<<", ">>", "a", "é", " "];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    assert_eq!(super::find_pair(&text, b'<'), text.find("<<"), "{text:?}");
                    assert_eq!(super::find_pair(&text, b'>'), text.find(">>"), "{text:?}");
                }
            }
        }
        assert_eq!(super::guillemets("a <<b>> c <<d"), "a «b» c <<d");
    }

    /// `has_markup` is the one-pass form of "contains any of these tags".
    #[test]
    fn has_markup_finds_exactly_the_tags() {
        const TAGS: &[&str] = &[
            "**", "<b>", "<i>", "<u>", "<s>", "<color", "<size", "<&", "<font", "<back", "<strike>", "<del>", "<sup>",
            "<sub>", "~~",
        ];
        let pieces = [
            "", "*", "~", "<", ">", "b", "i", "s", "u", "&", "color", "size", "font", "back", "strike", "del", "sup",
            "sub", "x", " ", "é", "<<",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    let expected = TAGS.iter().any(|t| text.contains(t));
                    assert_eq!(super::has_markup(&text), expected, "{text:?}");
                }
            }
        }
    }
}
