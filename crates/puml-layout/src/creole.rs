//! Creole markup in labels: `**bold**`, `//italic//`, `""mono""`,
//! `--strike--`, `__underline__`, `~~wave~~`, `<b> <i> <u> <s>`,
//! `<color:…>`, `<size:…>`, `[[url label]]`, `~` escapes and line breaks
//! (`\n`, real newlines, `<br>`, `%newline()`). The parser is a flat scan
//! with explicit state: no recursion whatever the input.

use crate::color::parse_color;
use crate::font::TextMeasure;
use crate::latex;
use crate::scene::{round3, Color, Font, FontFamily, Item, TextRun};
use crate::shapes::{ellipse, paint, rect};

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SpanStyle {
    pub bold: bool,
    pub italic: bool,
    pub mono: bool,
    pub underline: bool,
    pub strike: bool,
    pub color: Option<Color>,
    pub size: Option<f64>,
    /// Points added to the base font size by a heading line (`= h1`).
    pub grow: f64,
    /// An OpenIconic icon (`<&person>`): the span's text is the icon's
    /// name; it takes an icon's room and draws no text.
    pub icon: bool,
    /// A `<latex>` formula: the span's text is its source; it takes the
    /// room PlantUML's math layout gives it (see [`crate::latex`]).
    pub formula: bool,
    /// `<sup>` (1) or `<sub>` (-1): 3 points smaller, raised or lowered.
    pub script: i8,
    /// A list item's marker (`* item`, `# item` at a line's start): the
    /// span draws the bullet or the number, not its text.
    pub marker: Option<ListMarker>,
}

/// The marker of a creole list item, as PlantUML 1.2026.8 draws it
/// (probes `creole_lists`): `*` … `****` bullets, `#` … `###` numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListMarker {
    /// `level` stars: a disc for the first level, a small square below.
    Bullet { level: u8 },
    /// `level` hashes: `ordinal.` counted among the item's siblings.
    Number { level: u8, ordinal: u32 },
}

/// Where a bullet's text starts: 12 px in for a first-level disc, 16 px
/// for a second-level square, 8 px more a level further down.
fn bullet_indent(level: u8) -> f64 {
    match level {
        0 | 1 => 12.0,
        deeper => 16.0 + 8.0 * f64::from(deeper - 2),
    }
}

/// A disc of radius 2.5 centred 5.5 px in and 7.5 px above the line's
/// bottom; a 3.5 px square 7 px left of the text and 10 px above the
/// line's bottom (whatever the font's size).
const BULLET_DISC_X: f64 = 5.5;
const BULLET_DISC_RISE: f64 = 7.5;
const BULLET_DISC_RADIUS: f64 = 2.5;
const BULLET_SQUARE: f64 = 3.5;
const BULLET_SQUARE_BEFORE_TEXT: f64 = 7.0;
const BULLET_SQUARE_RISE: f64 = 10.0;

/// A list item's marker at the start of `line`, and the item's text: one
/// or more `*` or `#` right at the start (not after a blank) and some
/// text after them. `**bold** …` stays bold text.
fn list_marker(line: &str) -> Option<(ListMarker, &str)> {
    let first = *line.as_bytes().first()?;
    if first != b'*' && first != b'#' {
        return None;
    }
    let level = line.bytes().take_while(|&b| b == first).count();
    let rest = &line[level..];
    if rest.trim().is_empty() || level > usize::from(u8::MAX) {
        return None;
    }
    // `**bold** …`: the stars open a bold run that closes later.
    if first == b'*' && level >= 2 && rest.contains("**") {
        return None;
    }
    let level = level as u8;
    let marker = if first == b'*' {
        ListMarker::Bullet { level }
    } else {
        ListMarker::Number { level, ordinal: 0 }
    };
    Some((marker, rest.trim_start()))
}

/// Counts the numbered items of `lines`: each level counts from 1 among
/// its siblings; a deeper level starts again under each item, and a line
/// that is not a numbered item ends the list.
fn number_lists(lines: &mut [Line]) {
    let mut counters: Vec<u32> = Vec::new();
    for line in lines {
        let marker = line
            .spans
            .first_mut()
            .and_then(|s| s.style.marker.as_mut().map(|m| (m, &mut s.text)));
        match marker {
            Some((ListMarker::Number { level, ordinal }, text)) => {
                let depth = usize::from(*level);
                counters.resize(depth, 0);
                counters[depth - 1] += 1;
                *ordinal = counters[depth - 1];
                *text = format!("{ordinal}.");
            }
            _ => counters.clear(),
        }
    }
}

/// How far PlantUML moves a `<sup>` run's baseline up and a `<sub>` run's
/// down, whatever the size (measured at 13 and 20 pt), and how much
/// smaller their font is.
const SUP_RAISE: f64 = 5.2925;
const SUB_DROP: f64 = 3.7075;
const SCRIPT_SHRINK: f64 = 3.0;

/// The baseline shift of a run (positive down).
fn script_shift(style: &SpanStyle) -> f64 {
    match style.script {
        1 => -SUP_RAISE,
        -1 => SUB_DROP,
        _ => 0.0,
    }
}

/// The room PlantUML gives an OpenIconic icon (`<&name>`) in text of
/// `size` points: measured from its SVGs (11.333 px at 14 pt, 10.667 at
/// 13, 22 at 30), whatever the icon.
pub fn icon_width(size: f64) -> f64 {
    size * 2.0 / 3.0 + 2.0
}

#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub text: String,
    pub style: SpanStyle,
    pub link: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Line {
    pub spans: Vec<Span>,
}

impl Line {
    pub fn plain_text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }
}

/// Longest line of text drawn, in characters: longer lines are cut and end
/// in `…` (the checker warns about them). A drawn line costs layout, SVG
/// and raster work in proportion to its length; this many characters is
/// already some 15,000 px wide.
pub const MAX_LINE_CHARS: usize = 2_000;

/// Cuts `line` to [`MAX_LINE_CHARS`] characters, marking the cut, and
/// writes an en dash (U+2013) as `-`, as PlantUML 1.2026.8 does in every
/// text it draws (titles, labels, notes, names; its em dash and the other
/// dashes stay as written; probe `en_dash`).
fn cap_line(mut line: String) -> String {
    // Most lines are ASCII: one vectorised scan rules the dash out.
    if !line.is_ascii() && line.contains('\u{2013}') {
        line = line.replace('\u{2013}', "-");
    }
    // A line of at most MAX_LINE_CHARS bytes has at most that many chars:
    // no need to walk it.
    if line.len() <= MAX_LINE_CHARS {
        return line;
    }
    if let Some((at, _)) = line.char_indices().nth(MAX_LINE_CHARS) {
        line.truncate(at);
        line.push('…');
    }
    line
}

/// Splits `text` into display lines (PlantUML's `\n` escape, real line
/// breaks, `<br>`, `%newline()`, `\l`/`\r`), each at most
/// [`MAX_LINE_CHARS`] long.
pub fn split_lines(text: &str) -> Vec<String> {
    let joined = join_continued_lines(text);
    let text = joined.as_ref();
    // Fast path: most labels are one plain line (a byte scan: a char-set
    // pattern decodes every char).
    if !has_split_marker(text) {
        return vec![cap_line(text.to_string())];
    }
    // One pass over the bytes: plain runs are copied whole, and each
    // marker either breaks the line or stands for one character. Every
    // marker is ASCII, so the cuts fall on char boundaries.
    enum Marker {
        Break,
        Char(&'static str),
    }
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut plain_from = 0;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let (len, marker) = match rest[0] {
            b'\\' => match rest.get(1) {
                Some(b'n' | b'l' | b'r') => (2, Marker::Break),
                Some(b't') => (2, Marker::Char("\t")),
                Some(b'\\') => (2, Marker::Char("\\")),
                _ => {
                    at += 1;
                    continue;
                }
            },
            b'\n' | 0 => (1, Marker::Break),
            b'\r' => (1, Marker::Char("")),
            b'<' if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case(b"<br>") => (4, Marker::Break),
            b'<' if rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"<br/>") => (5, Marker::Break),
            b'%' if rest.starts_with(b"%newline()") => (10, Marker::Break),
            _ => {
                at += 1;
                continue;
            }
        };
        current.push_str(&text[plain_from..at]);
        match marker {
            Marker::Break => lines.push(cap_line(std::mem::take(&mut current))),
            Marker::Char(c) => current.push_str(c),
        }
        at += len;
        plain_from = at;
    }
    current.push_str(&text[plain_from..]);
    lines.push(cap_line(current));
    lines
}

/// Joins the source lines a trailing backslash continues (`one \` then
/// `two`): PlantUML drops the backslash and the line break, so the text
/// reads `one two` (probe `line_continuation`). A doubled backslash at the
/// end is text, as for the parser's logical lines.
fn join_continued_lines(text: &str) -> std::borrow::Cow<'_, str> {
    // No backslash (nearly every label): one memchr, not two substring
    // searches.
    if !text.contains('\\') || (!text.contains("\\\n") && !text.contains("\\\r\n")) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches('\n').trim_end_matches('\r');
        if line.ends_with('\n') && content.ends_with('\\') && !content.ends_with("\\\\") {
            out.push_str(&content[..content.len() - 1]);
        } else {
            out.push_str(line);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Parses a label into styled lines.
pub fn parse(text: &str) -> Vec<Line> {
    let mut lines: Vec<Line> = split_lines(text).into_iter().map(parse_line).collect();
    number_lists(&mut lines);
    lines
}

/// Parses a multi-line block (a `note … end note` body): PlantUML keeps
/// `\n` literal there, only real line breaks split lines.
pub fn parse_block(text: &str) -> Vec<Line> {
    let joined = join_continued_lines(text);
    let text = joined.as_ref();
    if !text.contains('\n') {
        return parse(text);
    }
    // One loop pushing into one vector (a vector per line, flattened, was
    // an allocation and a copy per note line).
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        // A line with nothing `split_lines` would act on (most note
        // lines) is one line as it stands (it holds no `\n`).
        if !has_split_marker(line) {
            out.push(parse_line(cap_line(line.to_string())));
            continue;
        }
        // Still honour `<br>` and `%newline()` inside block lines.
        out.extend(split_lines(&line.replace('\\', "\\\\")).into_iter().map(parse_line));
    }
    number_lists(&mut out);
    out
}

/// Only `http:`/`https:` targets become links; anything else is dropped.
pub fn safe_url(url: &str) -> Option<String> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    let ok = (lower.starts_with("http://") || lower.starts_with("https://"))
        && !url
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '"' || c == '<' || c == '>');
    ok.then(|| url.to_string())
}

struct LineBuilder {
    spans: Vec<Span>,
    current: String,
    style: SpanStyle,
    link: Option<String>,
    colors: Vec<Option<Color>>,
    sizes: Vec<Option<f64>>,
}

impl LineBuilder {
    fn flush(&mut self) {
        if !self.current.is_empty() {
            self.spans.push(Span {
                text: std::mem::take(&mut self.current),
                style: self.style,
                link: self.link.clone(),
            });
        }
    }
    fn set(&mut self, change: impl FnOnce(&mut SpanStyle)) {
        self.flush();
        change(&mut self.style);
    }
}

const TOGGLES: [&str; 6] = ["**", "//", "\"\"", "--", "__", "~~"];

/// The characters markup can start with (escapes, links, tags,
/// stereotypes, style toggles, tabs).
const MARKUP_STARTS: [char; 9] = ['~', '[', '<', '*', '/', '"', '-', '_', '\t'];

/// Byte classes for the scans over every label: one table lookup a byte
/// where the tests were a comparison against each of the nine markup
/// characters (measured: `plain_prefix_len` was 4.8 M of the corpus
/// render's instructions, `split_lines`' marker scan 1.8 M).
const STOPS_PLAIN: u8 = 1;
/// What [`split_lines`] acts on (`\`, line breaks, `<br>`, `%newline()`).
const SPLITS: u8 = 2;
/// May start a two-byte C1 control (U+0080..=U+009F is 0xC2 0x80..=0x9F).
const C1_LEAD: u8 = 4;
/// May start an en dash (U+2013 is 0xE2 0x80 0x93), which `cap_line` rewrites.
const EN_DASH_LEAD: u8 = 8;
/// Markup starts that are plain text alone: what they start needs the
/// same character twice (`//`, `--`, `__`, `""`, `[[`).
const LONE_PLAIN: u8 = 16;
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = STOPS_PLAIN;
        b += 1;
    }
    table[0x7f] = STOPS_PLAIN;
    let mut i = 0;
    while i < MARKUP_STARTS.len() {
        table[MARKUP_STARTS[i] as usize] |= STOPS_PLAIN;
        i += 1;
    }
    table[b'\\' as usize] |= SPLITS;
    table[b'\n' as usize] |= SPLITS;
    table[b'\r' as usize] |= SPLITS;
    table[b'<' as usize] |= SPLITS;
    table[b'%' as usize] |= SPLITS;
    table[0xC2] |= C1_LEAD;
    table[0xE2] |= EN_DASH_LEAD;
    table[b'/' as usize] |= LONE_PLAIN;
    table[b'-' as usize] |= LONE_PLAIN;
    table[b'_' as usize] |= LONE_PLAIN;
    table[b'"' as usize] |= LONE_PLAIN;
    table[b'[' as usize] |= LONE_PLAIN;
    table
};

/// Whether `parse_styled_line(SpanStyle::default(), line)` is `line` itself
/// as one unstyled span, in one pass of one table lookup a byte: no
/// control character and no markup start, but for a lone `/`, `-`, `_`,
/// `"` or `[` (a path, a date, a snake_case name: their markup needs the
/// character twice, and such labels took the markup parser, 1,300
/// instructions a line). With `whole_label`, also nothing `split_lines`
/// acts on and no en dash (`cap_line` rewrites it).
fn reads_plain(line: &str, whole_label: bool) -> bool {
    let bytes = line.as_bytes();
    bytes.iter().enumerate().all(|(i, &b)| {
        let class = BYTE_CLASS[usize::from(b)];
        if class == 0 {
            true
        } else if whole_label && class & SPLITS != 0 {
            false
        } else if class & LONE_PLAIN != 0 {
            bytes.get(i + 1) != Some(&b)
        } else if class & STOPS_PLAIN != 0 {
            false
        } else if class & C1_LEAD != 0 {
            !bytes.get(i + 1).is_some_and(|next| (0x80..=0x9F).contains(next))
        } else if class & EN_DASH_LEAD != 0 && whole_label {
            bytes.get(i + 1..i + 3) != Some(&[0x80, 0x93])
        } else {
            // `\\` and `%` within a line.
            true
        }
    })
}

/// Whether `text` holds a byte [`split_lines`] acts on.
fn has_split_marker(text: &str) -> bool {
    text.bytes().any(|b| BYTE_CLASS[usize::from(b)] & SPLITS != 0)
}

/// The length of `text`'s prefix free of [`MARKUP_STARTS`] and control
/// characters, scanned as bytes (labels are parsed by the thousand; a
/// char-by-char search was a tenth of the layout). Exact: the markup
/// characters are ASCII, and the only non-ASCII controls, U+0080 to U+009F,
/// are encoded as 0xC2 then 0x80..=0x9F.
fn plain_prefix_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .position(|(i, &b)| {
            let class = BYTE_CLASS[usize::from(b)];
            class & STOPS_PLAIN != 0
                || (class & C1_LEAD != 0 && bytes.get(i + 1).is_some_and(|next| (0x80..=0x9F).contains(next)))
        })
        .unwrap_or(bytes.len())
}

/// PlantUML sets a tab (`\t` or a real one) as eight spaces, wherever it
/// stands in the line.
const TAB: &str = "        ";

/// A creole heading line (`= h1` … `==== h4`, at the very start of the
/// line): its style and the text after the `=`s. PlantUML draws levels 1–3
/// bold and 4, 2 and 1 points larger than the text around them, level 4 and
/// deeper italic at the same size. `== x ==` is a titled separator, not a
/// heading, and a line of `=` alone stays text.
fn heading(line: &str) -> Option<(SpanStyle, &str)> {
    // Nearly every line: no `=` to trim.
    if !line.starts_with('=') {
        return None;
    }
    let rest = line.trim_start_matches('=');
    let level = line.len() - rest.len();
    let text = rest.trim_start();
    if level == 0 || text.is_empty() || (level >= 2 && rest.trim_end().ends_with("==")) {
        return None;
    }
    let style = match level {
        1 => SpanStyle {
            bold: true,
            grow: 4.0,
            ..SpanStyle::default()
        },
        2 => SpanStyle {
            bold: true,
            grow: 2.0,
            ..SpanStyle::default()
        },
        3 => SpanStyle {
            bold: true,
            grow: 1.0,
            ..SpanStyle::default()
        },
        _ => SpanStyle {
            italic: true,
            ..SpanStyle::default()
        },
    };
    Some((style, text))
}

/// Whether `line` is a creole heading (`= h1` …), which PlantUML draws
/// without the blanks around its text.
pub fn is_heading(line: &str) -> bool {
    heading(line).is_some()
}

/// Takes the line by value: a plain line (nearly every label) becomes its
/// single span's text as it is, without a copy.
fn parse_line(line: String) -> Line {
    if let Some((style, text)) = heading(&line) {
        return parse_styled_line(style, text);
    }
    if let Some((marker, item)) = list_marker(&line) {
        let mut parsed = parse_styled_line(SpanStyle::default(), item);
        parsed.spans.insert(
            0,
            Span {
                text: String::new(),
                style: SpanStyle {
                    marker: Some(marker),
                    ..SpanStyle::default()
                },
                link: None,
            },
        );
        return parsed;
    }
    if reads_plain(&line, false) {
        return plain_line(line, SpanStyle::default());
    }
    parse_styled_line(SpanStyle::default(), &line)
}

/// A line without markup: one span, or none when it is empty.
fn plain_line(text: String, style: SpanStyle) -> Line {
    let spans = if text.is_empty() {
        Vec::new()
    } else {
        vec![Span {
            text,
            style,
            link: None,
        }]
    };
    Line { spans }
}

fn parse_styled_line(base_style: SpanStyle, line: &str) -> Line {
    if plain_prefix_len(line) == line.len() {
        return plain_line(line.to_string(), base_style);
    }
    let mut b = LineBuilder {
        spans: Vec::new(),
        current: String::with_capacity(line.len()),
        style: base_style,
        link: None,
        colors: Vec::new(),
        sizes: Vec::new(),
    };
    let rest = line;
    let mut i = 0;
    let bytes = rest.as_bytes();
    while i < rest.len() {
        let tail = &rest[i..];
        // Text up to the next character that may start markup is copied
        // whole (the checks below look at one character at a time).
        let plain = plain_prefix_len(tail);
        if plain > 0 {
            b.current.push_str(&tail[..plain]);
            i += plain;
            continue;
        }
        // `~` escapes the next markup character (`~40` stays literal).
        if let Some(after) = tail.strip_prefix('~') {
            if let Some(next) = after.chars().next() {
                if !after.starts_with('~') && !next.is_alphanumeric() && !next.is_whitespace() {
                    b.current.push(next);
                    i += 1 + next.len_utf8();
                    continue;
                }
            }
        }
        if tail.starts_with("[[") {
            if let Some(end) = tail.find("]]") {
                let inner = &tail[2..end];
                let (target, label) = match inner.find([' ', '\t']) {
                    Some(sp) => (&inner[..sp], inner[sp..].trim()),
                    None => (inner, ""),
                };
                let target = target.split('{').next().unwrap_or(target);
                let label = if label.is_empty() { target } else { label };
                b.flush();
                let saved_underline = b.style.underline;
                b.link = safe_url(target);
                let saved_color = b.style.color;
                // Links are drawn blue and underlined, as in PlantUML, whatever
                // their target (`[[Paiement réussi]]`, `[[javascript:… x]]`:
                // probe `link_without_scheme`); only a safe one is kept as a link.
                b.style.underline = true;
                b.style.color = b.style.color.or(Some(Color::hex(0x0000FF)));
                b.current.push_str(label);
                b.flush();
                b.link = None;
                b.style.underline = saved_underline;
                b.style.color = saved_color;
                i += end + 2;
                continue;
            }
        }
        // `<<stereotype>>` in any label is drawn with guillemets.
        if let Some(after) = tail.strip_prefix("<<") {
            if let Some(end) = after.find(">>") {
                // PlantUML drops the spaces inside: `<< x >>` is «x».
                b.current.push('«');
                b.current.push_str(after[..end].trim());
                b.current.push('»');
                i += 2 + end + 2;
                continue;
            }
        }
        if tail.len() >= 7 && tail.as_bytes()[..7].eq_ignore_ascii_case(b"<latex>") {
            let inner = &tail[7..];
            let (source, consumed) = match find_ignore_case(inner, "</latex>") {
                Some(end) => (&inner[..end], 7 + end + 8),
                None => (inner, tail.len()),
            };
            b.flush();
            let style = b.style;
            b.spans.push(Span {
                text: source.to_string(),
                style: SpanStyle { formula: true, ..style },
                link: b.link.clone(),
            });
            i += consumed;
            continue;
        }
        if tail.starts_with('<') {
            if let Some(consumed) = parse_tag(tail, &mut b) {
                i += consumed;
                continue;
            }
        }
        if let Some(marker) = TOGGLES.iter().find(|m| tail.starts_with(**m)) {
            let is_url_slashes = *marker == "//" && i > 0 && bytes[i - 1] == b':';
            let active = toggle_active(&b.style, marker);
            let closes_later = rest[i + 2..].contains(marker);
            if !is_url_slashes && (active || closes_later) {
                b.set(|s| toggle(s, marker));
                i += 2;
                continue;
            }
        }
        let c = tail.chars().next().unwrap_or(' ');
        if c == '\t' {
            b.current.push_str(TAB);
        } else if !c.is_control() {
            b.current.push(c);
        }
        i += c.len_utf8();
    }
    b.flush();
    Line { spans: b.spans }
}

/// Where `needle` (ASCII) first occurs in `haystack`, ignoring ASCII case.
fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    (0..(h.len() + 1).saturating_sub(n.len())).find(|&at| h[at..at + n.len()].eq_ignore_ascii_case(n))
}

fn toggle_active(s: &SpanStyle, marker: &str) -> bool {
    match marker {
        "**" => s.bold,
        "//" => s.italic,
        "\"\"" => s.mono,
        "--" => s.strike,
        _ => s.underline,
    }
}

fn toggle(s: &mut SpanStyle, marker: &str) {
    match marker {
        "**" => s.bold = !s.bold,
        "//" => s.italic = !s.italic,
        "\"\"" => s.mono = !s.mono,
        "--" => s.strike = !s.strike,
        _ => s.underline = !s.underline,
    }
}

/// Recognizes an HTML-like tag at the start of `tail`; returns its length.
fn parse_tag(tail: &str, b: &mut LineBuilder) -> Option<usize> {
    let end = tail.find('>')?;
    let inner = &tail[1..end];
    if inner.len() > 64 || inner.contains('<') {
        return None;
    }
    let lower = inner.to_ascii_lowercase();
    let lower = lower.trim();
    match lower {
        "b" | "strong" => b.set(|s| s.bold = true),
        "/b" | "/strong" => b.set(|s| s.bold = false),
        "i" | "em" => b.set(|s| s.italic = true),
        "/i" | "/em" => b.set(|s| s.italic = false),
        "u" => b.set(|s| s.underline = true),
        "/u" => b.set(|s| s.underline = false),
        "s" | "strike" | "del" => b.set(|s| s.strike = true),
        "/s" | "/strike" | "/del" => b.set(|s| s.strike = false),
        "/color" | "/font" => {
            let prev = b.colors.pop().flatten();
            b.set(|s| s.color = prev);
        }
        "/size" => {
            let prev = b.sizes.pop().flatten();
            b.set(|s| s.size = prev);
        }
        "sup" => b.set(|s| s.script = 1),
        "sub" => b.set(|s| s.script = -1),
        "/sup" | "/sub" => b.set(|s| s.script = 0),
        "/back" | "/code" | "/plain" | "/w" => b.flush(),
        "plain" | "w" | "code" => b.flush(),
        _ => {
            if let Some(value) = lower.strip_prefix("color:").or_else(|| lower.strip_prefix("color ")) {
                let color = parse_color(value);
                let prev = b.style.color;
                b.colors.push(prev);
                b.set(|s| s.color = color.or(prev));
            } else if let Some(value) = lower.strip_prefix("size:").or_else(|| lower.strip_prefix("size ")) {
                let size = value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| *v > 0.0)
                    .map(|v| v.min(200.0));
                let prev = b.style.size;
                b.sizes.push(prev);
                b.set(|s| s.size = size.or(prev));
            } else if let Some(attrs) = lower.strip_prefix("font") {
                // `<font color=red size=12>`
                let prev_color = b.style.color;
                let prev_size = b.style.size;
                b.colors.push(prev_color);
                b.sizes.push(prev_size);
                let mut color = prev_color;
                let mut size = prev_size;
                for attr in attrs.split_whitespace() {
                    if let Some(v) = attr.strip_prefix("color=") {
                        color = parse_color(v.trim_matches(['"', '\''])).or(color);
                    } else if let Some(v) = attr.strip_prefix("size=") {
                        size = v
                            .trim_matches(['"', '\''])
                            .parse::<f64>()
                            .ok()
                            .map(|v| v.clamp(1.0, 200.0))
                            .or(size);
                    }
                }
                b.set(|s| {
                    s.color = color;
                    s.size = size;
                });
            } else if let Some(name) = inner.trim().strip_prefix('&') {
                b.flush();
                let style = b.style;
                b.spans.push(Span {
                    text: name.to_string(),
                    style: SpanStyle { icon: true, ..style },
                    link: b.link.clone(),
                });
            } else if lower.starts_with("back:")
                || lower.starts_with("img:")
                || lower.starts_with("img ")
                || lower.starts_with("$")
            {
                b.flush();
            } else {
                return None;
            }
        }
    }
    Some(end + 1)
}

/// Where PlantUML draws a formula's source inside the formula's room
/// (its fallback picture): 5 px in, baseline 17.995 px down.
const LATEX_TEXT_X: f64 = 5.0;
const LATEX_TEXT_BASELINE: f64 = 17.995;

/// A label laid out as lines of measured runs, ready to be placed.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    pub lines: Vec<MeasuredLine>,
    pub width: f64,
    pub height: f64,
    /// The font the block was measured in (an empty line is drawn in it).
    pub base_font: Font,
    /// Room kept blank on every side of the text, counted in `width` and
    /// `height` (`skinparam padding`, see [`TextBlock::padded`]).
    pub padding: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MeasuredLine {
    /// `(span, font, width, widths of the span's leading and trailing whitespace)`.
    pub runs: Vec<(Span, Font, f64, (f64, f64))>,
    pub width: f64,
    pub ascent: f64,
    pub height: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// Measures `text` (creole) in `base` font.
pub fn measure(text: &str, base: Font, metrics: &dyn TextMeasure) -> TextBlock {
    // Most labels are one plain line: its one span is built directly,
    // without the line split's vector and the markup parse (what `parse`
    // gives for such a text, see `is_simple_line`).
    if is_simple_line(text) {
        let span = (!text.is_empty()).then(|| Span {
            text: text.to_string(),
            style: SpanStyle::default(),
            link: None,
        });
        // As `measure_lines` measures its one line, without the vectors of
        // lines and spans it takes.
        let base_metrics = (metrics.ascent(&base), metrics.line_height(&base));
        let line = measure_line(span, base, base_metrics, metrics);
        return TextBlock {
            width: 0.0_f64.max(line.width),
            height: 0.0 + line.height,
            lines: vec![line],
            base_font: base,
            padding: 0.0,
        };
    }
    measure_lines(parse(text), base, metrics)
}

/// Whether `parse(text)` is `text` itself as one line of at most one
/// unstyled span: nothing `split_lines` acts on (line breaks, escapes,
/// `<br>`, `%newline()`, a trailing `\`), nothing `cap_line` changes (no
/// en dash, not too long), no markup or control character, and no heading.
fn is_simple_line(text: &str) -> bool {
    // One pass (four scans were 250 instructions a label).
    // A heading (`=`) or a numbered item (`#`) is not plain text; a
    // bullet's `*` already stops `reads_plain`.
    text.len() <= MAX_LINE_CHARS && !text.starts_with(['=', '#']) && reads_plain(text, true)
}

/// `measure(text, base, metrics).width`, without building the block when
/// the text is one plain line (group tabs, conditions, titles are
/// measured several times for their width alone).
pub fn measure_width(text: &str, base: Font, metrics: &dyn TextMeasure) -> f64 {
    if is_simple_line(text) {
        if text.is_empty() {
            return 0.0;
        }
        // As `measure_lines` sums it: the one run's width onto 0, the
        // block's width the larger of that and 0.
        let line_width = 0.0 + metrics.width(text, &simple_span_font(base));
        return 0.0_f64.max(line_width);
    }
    measure(text, base, metrics).width
}

/// `measure(text, base, metrics).height`, without building the block when
/// the text is one plain line: the base font's line box.
pub fn measure_height(text: &str, base: Font, metrics: &dyn TextMeasure) -> f64 {
    if is_simple_line(text) {
        // The one run is in the base font itself, so the line is as tall
        // as the base font's line box (see `measure_lines`).
        return 0.0 + metrics.line_height(&base);
    }
    measure(text, base, metrics).height
}

/// The font `measure_lines` gives an unstyled span in `base`.
fn simple_span_font(base: Font) -> Font {
    Font {
        family: base.family,
        size: base.size + 0.0,
        bold: base.bold,
        italic: base.italic,
    }
}

pub fn measure_lines(lines: Vec<Line>, base: Font, metrics: &dyn TextMeasure) -> TextBlock {
    let mut out = Vec::with_capacity(lines.len());
    let mut width: f64 = 0.0;
    let mut height = 0.0;
    // Each font's metrics are asked once: they are lookups behind a
    // `dyn` call, and this loop runs for every label.
    let base_metrics = (metrics.ascent(&base), metrics.line_height(&base));
    for line in lines {
        let line = measure_line(line.spans, base, base_metrics, metrics);
        width = width.max(line.width);
        height += line.height;
        out.push(line);
    }
    TextBlock {
        lines: out,
        width,
        height,
        base_font: base,
        padding: 0.0,
    }
}

/// Measures one line's spans in `base` (whose ascent and line height are
/// `base_metrics`). Takes any exact-size iterator of spans, so that a
/// one-span label needs no vector of spans (see `measure`).
fn measure_line<I>(
    spans: I,
    base: Font,
    (base_ascent, base_line_height): (f64, f64),
    metrics: &dyn TextMeasure,
) -> MeasuredLine
where
    I: IntoIterator<Item = Span>,
    I::IntoIter: ExactSizeIterator,
{
    let spans = spans.into_iter();
    let mut runs = Vec::with_capacity(spans.len());
    let mut line_width = 0.0;
    let mut ascent = base_ascent;
    let mut line_height = base_line_height;
    let mut formula_height: f64 = 0.0;
    let mut text_descent = base_line_height - base_ascent;
    let mut scripted = false;
    for span in spans {
        let size = span.style.size.unwrap_or(base.size + span.style.grow);
        let font = Font {
            family: if span.style.mono { FontFamily::Mono } else { base.family },
            size: if span.style.script != 0 {
                (size - SCRIPT_SHRINK).max(1.0)
            } else {
                size
            },
            bold: base.bold || span.style.bold,
            italic: base.italic || span.style.italic,
        };
        if span.style.icon {
            let w = icon_width(font.size);
            line_width += w;
            runs.push((span, font, w, (0.0, 0.0)));
            continue;
        }
        if let Some(marker) = span.style.marker {
            // The marker's room: the bullet's indent, or the deeper
            // levels' indents (each the width of `1. `) and `N. `. A
            // number's run keeps the width of `N.` and of `N. ` where a
            // text keeps its blanks': the number is drawn that far before
            // the item's text.
            let (w, number) = match marker {
                ListMarker::Bullet { level } => (bullet_indent(level), (0.0, 0.0)),
                ListMarker::Number { level, .. } => {
                    let digits = metrics.width(&span.text, &font);
                    let with_space = digits + metrics.width(" ", &font);
                    let indent = f64::from(level.saturating_sub(1)) * metrics.width("1. ", &font);
                    (indent + with_space, (digits, with_space))
                }
            };
            line_width += w;
            runs.push((span, font, w, number));
            continue;
        }
        if span.style.formula {
            // Drawn as PlantUML draws a formula it cannot typeset: its
            // source in 14 px monospace; the run keeps that text's
            // width and the formula's height in place of its blanks.
            let (w, h) = latex::formula_size(&span.text);
            let font = Font {
                family: FontFamily::Mono,
                size: 14.0,
                bold: false,
                italic: false,
            };
            let drawn = metrics.width(&span.text, &font);
            formula_height = formula_height.max(h);
            line_width += w;
            runs.push((span, font, w, (drawn, h)));
            continue;
        }
        let w = metrics.width(&span.text, &font);
        let (lead_len, trail_len) = blank_edges(&span.text);
        let blank_width = |len: usize, at_start: bool| {
            if len == 0 || len == span.text.len() {
                0.0
            } else if at_start {
                metrics.width(&span.text[..len], &font)
            } else {
                metrics.width(&span.text[span.text.len() - len..], &font)
            }
        };
        let lead = (blank_width(lead_len, true), blank_width(trail_len, false));
        let shift = script_shift(&span.style);
        // An unstyled run is in the base font (most runs): its metrics
        // are known.
        let (font_ascent, font_line_height) = if font == base {
            (base_ascent, base_line_height)
        } else {
            (metrics.ascent(&font), metrics.line_height(&font))
        };
        ascent = ascent.max(font_ascent - shift);
        line_height = line_height.max(font_line_height);
        text_descent = text_descent.max(font_line_height - font_ascent + shift);
        if shift != 0.0 {
            scripted = true;
        }
        line_width += w;
        runs.push((span, font, w, lead));
    }
    if scripted {
        // Raised and lowered runs stand out of the line: it grows by
        // what they add above and below the common baseline.
        line_height = line_height.max(ascent + text_descent);
    }
    if formula_height > 0.0 {
        // PlantUML sets a line's pieces on a common bottom: a formula
        // taller than the text makes the line taller and pushes the
        // text down.
        line_height = line_height.max(formula_height);
        ascent = line_height - text_descent;
    }
    MeasuredLine {
        runs,
        width: line_width,
        ascent,
        height: line_height,
    }
}

/// Whether `b`, read as an ASCII character, is whitespace to `char::is_whitespace`.
fn is_ascii_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// `text.trim()`, answered without the char-decoding trim (60
/// instructions a call, twice per drawn run) when both ends are ASCII and
/// not blank, as nearly every label's are.
fn trimmed(text: &str) -> &str {
    match (text.as_bytes().first(), text.as_bytes().last()) {
        (Some(&first), Some(&last))
            if first < 0x80 && last < 0x80 && !is_ascii_blank(first) && !is_ascii_blank(last) =>
        {
            text
        }
        _ => text.trim(),
    }
}

/// The byte lengths of `text`'s leading and trailing whitespace (as
/// `trim_start` and `trim_end` see it), with the same shortcut as [`trimmed`].
fn blank_edges(text: &str) -> (usize, usize) {
    let lead = match text.as_bytes().first() {
        Some(&b) if b < 0x80 && !is_ascii_blank(b) => 0,
        _ => text.len() - text.trim_start().len(),
    };
    let trail = match text.as_bytes().last() {
        Some(&b) if b < 0x80 && !is_ascii_blank(b) => 0,
        _ => text.len() - text.trim_end().len(),
    };
    (lead, trail)
}

/// Splits every run of `block` at its spaces, each word and each space its
/// own run, as PlantUML draws a text it wrapped (`maxMessageSize`).
pub fn split_words(block: TextBlock, metrics: &dyn TextMeasure) -> TextBlock {
    let lines = block
        .lines
        .into_iter()
        .map(|line| {
            let mut runs = Vec::with_capacity(line.runs.len());
            for (span, font, w, blanks) in line.runs {
                if span.style.icon
                    || span.style.formula
                    || span.style.marker.is_some()
                    || !span.text.trim().contains(' ')
                {
                    runs.push((span, font, w, blanks));
                    continue;
                }
                let mut rest = span.text.as_str();
                while !rest.is_empty() {
                    let end = if rest.starts_with(' ') {
                        1
                    } else {
                        rest.find(' ').unwrap_or(rest.len())
                    };
                    let (piece, tail) = rest.split_at(end);
                    let width = metrics.width(piece, &font);
                    runs.push((
                        Span {
                            text: piece.to_string(),
                            style: span.style,
                            link: span.link.clone(),
                        },
                        font,
                        width,
                        (0.0, 0.0),
                    ));
                    rest = tail;
                }
            }
            MeasuredLine { runs, ..line }
        })
        .collect();
    TextBlock { lines, ..block }
}

impl TextBlock {
    pub fn is_empty(&self) -> bool {
        self.lines.iter().all(|l| l.runs.is_empty())
    }

    /// The block with `padding` more room on every side, as PlantUML's
    /// `skinparam padding N` gives every text it draws (its sheet of text
    /// is 2N wider and taller, the text N in from the top left; probes
    /// `test-data/skinparam-sequence/s_padding_*`). An empty text keeps no
    /// room: PlantUML draws nothing for it.
    pub fn padded(mut self, padding: f64) -> TextBlock {
        if padding > 0.0 && !self.is_empty() {
            self.width += 2.0 * padding;
            self.height += 2.0 * padding;
            self.padding += padding;
        }
        self
    }

    /// Emits text runs with the block's top-left (or top-center/right
    /// reference, per `align`) at `(x, y)`.
    pub fn draw(&self, x: f64, y: f64, align: Align, color: Color, out: &mut Vec<Item>) {
        let mut top = y + self.padding;
        let several_lines = self.lines.len() > 1;
        for line in &self.lines {
            // The padding is on both sides of `width`: a centred line
            // needs no correction.
            let mut cx = match align {
                Align::Left => x + self.padding,
                Align::Center => x + (self.width - line.width) / 2.0,
                Align::Right => x + self.width - line.width - self.padding,
            };
            let baseline = top + line.ascent;
            let blank_line = line.runs.iter().all(|(span, ..)| trimmed(&span.text).is_empty());
            // PlantUML writes a no-break space for an empty line of a block
            // and for the blank between two differently styled words.
            let blank_at = |x: f64, font: Font, out: &mut Vec<Item>| {
                out.push(Item::Text(TextRun {
                    x: round3(x),
                    y: round3(baseline),
                    text: "\u{a0}".to_string(),
                    font,
                    color,
                    width: 0.0,
                    underline: false,
                    strike: false,
                    link: None,
                }));
            };
            if blank_line && several_lines {
                let font = line.runs.first().map_or(self.base_font, |r| r.1);
                blank_at(cx, font, out);
            }
            let run_count = line.runs.len();
            for (i, (span, font, w, (lead, trail))) in line.runs.iter().enumerate() {
                if let Some(marker) = span.style.marker {
                    let ink = span.style.color.unwrap_or(color);
                    let bottom = top + line.height;
                    match marker {
                        ListMarker::Bullet { level: 0 | 1 } => ellipse(
                            out,
                            cx + BULLET_DISC_X,
                            bottom - BULLET_DISC_RISE,
                            BULLET_DISC_RADIUS,
                            BULLET_DISC_RADIUS,
                            paint(Some(ink), None),
                        ),
                        ListMarker::Bullet { .. } => rect(
                            out,
                            cx + w - BULLET_SQUARE_BEFORE_TEXT,
                            bottom - BULLET_SQUARE_RISE,
                            BULLET_SQUARE,
                            BULLET_SQUARE,
                            0.0,
                            paint(Some(ink), None),
                        ),
                        ListMarker::Number { .. } => {
                            // `N.` then a space before the item's text.
                            out.push(Item::Text(TextRun {
                                x: round3(cx + w - trail),
                                y: round3(baseline),
                                text: span.text.clone(),
                                font: *font,
                                color: ink,
                                width: round3(*lead),
                                underline: false,
                                strike: false,
                                link: None,
                            }));
                        }
                    }
                    cx += w;
                    continue;
                }
                let glyphs = trimmed(&span.text);
                // A blank after a formula is written even at the end of
                // the line.
                let after_formula = i > 0 && line.runs[i - 1].0.style.formula;
                if !blank_line
                    && i > 0
                    && (i + 1 < run_count || after_formula)
                    && !span.text.is_empty()
                    && glyphs.is_empty()
                {
                    blank_at(cx, *font, out);
                }
                if span.style.formula {
                    let (drawn, h) = (*lead, *trail);
                    out.push(Item::Text(TextRun {
                        x: round3(cx + LATEX_TEXT_X),
                        y: round3(top + line.height - h + LATEX_TEXT_BASELINE),
                        text: span.text.clone(),
                        font: *font,
                        color: span.style.color.unwrap_or(color),
                        width: round3(drawn),
                        underline: false,
                        strike: false,
                        link: span.link.clone(),
                    }));
                    cx += w;
                    continue;
                }
                if !glyphs.is_empty() && !span.style.icon {
                    // PlantUML draws a run's surrounding whitespace as space,
                    // not as characters (indented note lines, the space after
                    // a bold word): the text is exactly its glyphs.
                    out.push(Item::Text(TextRun {
                        x: round3(cx + lead),
                        y: round3(baseline + script_shift(&span.style)),
                        text: glyphs.to_string(),
                        font: *font,
                        color: span.style.color.unwrap_or(color),
                        width: round3(*w - lead - trail),
                        underline: span.style.underline,
                        strike: span.style.strike,
                        link: span.link.clone(),
                    }));
                }
                cx += w;
            }
            top += line.height;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `check` with every string of up to `max_pieces` pieces drawn
    /// from `pieces` (each shortcut is checked against the reading it
    /// replaces over all of them).
    fn for_each_string_of(pieces: &[&str], max_pieces: u32, mut check: impl FnMut(String)) {
        for length in 0..=max_pieces {
            for mut code in 0..pieces.len().pow(length) {
                let mut text = String::new();
                for _ in 0..length {
                    text.push_str(pieces[code % pieces.len()]);
                    code /= pieces.len();
                }
                check(text);
            }
        }
    }

    /// The two-pass reading `split_lines` replaced (escapes and real
    /// breaks first, then `<br>` and `%newline()` in each piece), kept as
    /// the reference the one-pass scan must agree with.
    fn split_lines_two_pass(text: &str) -> Vec<String> {
        let joined = join_continued_lines(text);
        let text = joined.as_ref();
        if !text.contains(['\\', '\n', '\r', '<', '%']) {
            return vec![cap_line(text.to_string())];
        }
        let mut lines = Vec::new();
        let mut current = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.peek() {
                    Some('n') | Some('l') | Some('r') => {
                        chars.next();
                        lines.push(std::mem::take(&mut current));
                    }
                    Some('t') => {
                        chars.next();
                        current.push('\t');
                    }
                    Some('\\') => {
                        chars.next();
                        current.push('\\');
                    }
                    _ => current.push('\\'),
                },
                '\n' => lines.push(std::mem::take(&mut current)),
                '\r' => {}
                _ => current.push(c),
            }
        }
        lines.push(current);
        let mut out = Vec::new();
        for line in lines {
            let line = line.replace("%newline()", "\u{0}");
            let lower = line.to_ascii_lowercase();
            let mut from = 0;
            let mut at = 0;
            while at < line.len() {
                let skip = if line.as_bytes()[at] == 0 {
                    1
                } else if lower.as_bytes()[at..].starts_with(b"<br>") {
                    4
                } else if lower.as_bytes()[at..].starts_with(b"<br/>") {
                    5
                } else {
                    at += 1;
                    continue;
                };
                out.push(cap_line(line[from..at].to_string()));
                at += skip;
                from = at;
            }
            out.push(cap_line(line[from..].to_string()));
        }
        out
    }

    #[test]
    fn split_lines_agrees_with_the_two_pass_reading() {
        // Every string of up to four pieces from an alphabet of the markers,
        // their fragments and plain text (a carriage return is left out: the
        // one-pass scan drops it where it stands, so `<b` CR `r>` is no
        // break there, a difference no real label shows).
        let pieces = [
            "a",
            "\\",
            "n",
            "t",
            "l",
            "\\n",
            "\\t",
            "\\\\",
            "\n",
            "<br>",
            "<BR/>",
            "<b",
            "r>",
            "%newline()",
            "%newline",
            "()",
            "é",
            "\u{2013}",
            "\u{0}",
            "<",
        ];
        let mut checked = 0;
        for_each_string_of(&pieces, 4, |text| {
            assert_eq!(split_lines(&text), split_lines_two_pass(&text), "{text:?}");
            checked += 1;
        });
        assert!(checked > 10_000, "only {checked} strings checked");
    }

    #[test]
    fn simple_lines_measure_as_the_full_parse_measures() {
        // Every string of up to three pieces: markup, breaks, controls, en
        // dashes, headings and plain text, ASCII or not.
        let pieces = [
            "a", " ", "=", "-", "/", "*", "<b>", "\\n", "\\", "\n", "\t", "%", "\u{2013}", "\u{2014}", "\u{85}",
            "\u{a0}", "é", "日", "~", "[", "\u{e2}", "\u{c2}", "_", "\"", ":", "]", "\r", "* ", "\u{2022}", "#",
        ];
        let metrics = crate::font::EmbeddedMetrics;
        let fonts = [Font::sans(13.0), Font::sans(11.0).bold()];
        let mut simple = 0;
        for_each_string_of(&pieces, 3, |text| {
            if !text.contains('\n') && heading(&text).is_none() && list_marker(&text).is_none() {
                // The line reading's shortcut against the markup parser.
                assert_eq!(
                    parse_line(text.clone()),
                    parse_styled_line(SpanStyle::default(), &text),
                    "{text:?}"
                );
            }
            if is_simple_line(&text) {
                simple += 1;
                let spans = if text.is_empty() {
                    Vec::new()
                } else {
                    vec![Span {
                        text: text.clone(),
                        style: SpanStyle::default(),
                        link: None,
                    }]
                };
                assert_eq!(parse(&text), vec![Line { spans }], "{text:?}");
            }
            for font in fonts {
                let full = measure_lines(parse(&text), font, &metrics);
                assert_eq!(measure(&text, font, &metrics), full, "{text:?}");
                assert_eq!(
                    measure_width(&text, font, &metrics).to_bits(),
                    full.width.to_bits(),
                    "{text:?}"
                );
                assert_eq!(
                    measure_height(&text, font, &metrics).to_bits(),
                    full.height.to_bits(),
                    "{text:?}"
                );
            }
        });
        assert!(simple > 4_000, "only {simple} simple lines");
        assert!(!is_simple_line(&"x".repeat(MAX_LINE_CHARS + 1)));
    }

    #[test]
    fn trimming_shortcuts_agree_with_str_trim() {
        let pieces = [
            "a", " ", "\t", "\u{b}", "\u{c}", "\r", "\n", "\u{85}", "\u{a0}", "\u{3000}", "é", "\u{1c}", "x y",
        ];
        for_each_string_of(&pieces, 3, |text| {
            assert_eq!(trimmed(&text), text.trim(), "{text:?}");
            let edges = (text.len() - text.trim_start().len(), text.len() - text.trim_end().len());
            assert_eq!(blank_edges(&text), edges, "{text:?}");
        });
    }

    #[test]
    fn plain_prefix_stops_where_a_char_search_stops() {
        let by_chars = |text: &str| {
            text.find(|c: char| MARKUP_STARTS.contains(&c) || c.is_control())
                .unwrap_or(text.len())
        };
        for text in [
            "",
            "plain label",
            "a-b",
            "get_user",
            "«x» then *",
            "é\u{85}next",
            "\u{9f}",
            "\u{a0}no-break",
            "ĉ\u{80}",
            "tab\there",
            "del\u{7f}",
            "日本語/slash",
            "~escaped",
            "emoji 🎉 <b>",
        ] {
            assert_eq!(plain_prefix_len(text), by_chars(text), "{text:?}");
        }
    }

    fn show(text: &str) -> String {
        parse(text)
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| {
                        let st = s.style;
                        let mut flags = String::new();
                        for (on, f) in [
                            (st.bold, 'b'),
                            (st.italic, 'i'),
                            (st.mono, 'm'),
                            (st.underline, 'u'),
                            (st.strike, 's'),
                            (st.color.is_some(), 'c'),
                            (st.size.is_some(), 'z'),
                            (s.link.is_some(), 'L'),
                        ] {
                            if on {
                                flags.push(f);
                            }
                        }
                        format!("[{}|{}]", flags, s.text)
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn markup() {
        assert_eq!(show("a **b** //c// \"\"d\"\""), "[|a ][b|b][| ][i|c][| ][m|d]");
        assert_eq!(show("x\\ny<br>z"), "[|x]\n[|y]\n[|z]");
        assert_eq!(show("<color:red>r</color> <size:20>big</size>"), "[c|r][| ][z|big]");
        assert_eq!(show("--s-- __u__ <b>B</b>"), "[s|s][| ][u|u][| ][b|B]");
        assert_eq!(show("see http://x.org"), "[|see http://x.org]");
        assert_eq!(show("a -- b"), "[|a -- b]");
        assert_eq!(show("~**lit"), "[|**lit]");
        assert_eq!(show("[[https://e.com site]]"), "[ucL|site]");
        // Styled like any link (PlantUML draws it blue and underlined),
        // but no href kept.
        assert_eq!(show("[[javascript:alert(1) x]]"), "[uc|x]");
        assert_eq!(show("<unknown>"), "[|<unknown>]");
        assert_eq!(show("= h1\\n== h2\\n==== h4"), "[b|h1]\n[b|h2]\n[i|h4]");
        assert_eq!(show("== sep ==\\n=\\n = x"), "[|== sep ==]\n[|=]\n[| = x]");
    }
}
