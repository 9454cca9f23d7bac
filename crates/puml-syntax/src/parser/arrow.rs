//! Arrows: recognising one in a line and decomposing it into its parts.
//!
//! An arrow is `[left head] body [right head]`: the body is one or more `-`
//! with at most one `[style]` among them (`-[#red,bold]->`); two or more
//! dashes make it dotted. Heads: `>` `>>` `\` `\\` `/` `//` on the right,
//! `<` `<<` `\` `\\` `/` `//` on the left, each optionally with `x` (a
//! cross, `->x`) or `o` (a circle, `->o`, `o->`) on the outside.
//!
//! PlantUML reads an en dash (U+2013) as a `-` wherever it stands (observed
//! with 1.2026.8: `A –> B` is `A -> B`, `––>` is dotted, `—` is refused), so
//! a body dash is either; the tree keeps what was written.

/// The en dash PlantUML reads as `-` (never the em dash).
pub(crate) const EN_DASH: char = '\u{2013}';
/// [`EN_DASH`] in UTF-8.
const EN_DASH_BYTES: &[u8] = "\u{2013}".as_bytes();

use super::lexer::is_name_char;

/// The head drawn at one end of an arrow, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeadSyntax {
    None,
    Filled,
    Open,
    HalfUpper,
    HalfLower,
    HalfUpperOpen,
    HalfLowerOpen,
    Cross,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineSyntax {
    Solid,
    Dotted,
}

/// An arrow as written, left to right in the source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArrowSyntax {
    pub left_head: HeadSyntax,
    pub left_circle: bool,
    pub right_head: HeadSyntax,
    pub right_circle: bool,
    pub line: LineSyntax,
    /// Contents of `-[…]>` split on `,` and trimmed, e.g. `["#red", "bold"]`.
    pub styles: Vec<String>,
}

impl ArrowSyntax {
    /// `true` when the arrow points right-to-left only (`<-`, `<<--`).
    pub fn points_left(&self) -> bool {
        self.left_head != HeadSyntax::None && self.right_head == HeadSyntax::None
    }
}

const LEFT_HEADS: [(&str, HeadSyntax); 6] = [
    ("<<", HeadSyntax::Open),
    ("<", HeadSyntax::Filled),
    ("//", HeadSyntax::HalfLowerOpen),
    ("/", HeadSyntax::HalfLower),
    ("\\\\", HeadSyntax::HalfUpperOpen),
    ("\\", HeadSyntax::HalfUpper),
];

const RIGHT_HEADS: [(&str, HeadSyntax); 6] = [
    (">>", HeadSyntax::Open),
    (">", HeadSyntax::Filled),
    ("\\\\", HeadSyntax::HalfUpperOpen),
    ("\\", HeadSyntax::HalfUpper),
    ("//", HeadSyntax::HalfLowerOpen),
    ("/", HeadSyntax::HalfLower),
];

/// Length in bytes of the arrow at the start of `s`, if there is one.
/// Inlined: the parser asks it of nearly every statement's first word and
/// of the word after it, which mostly cannot start an arrow, and the call
/// into [`decompose`] (a large frame to set up) cost more than that test.
#[inline]
pub(crate) fn scan_arrow(s: &str) -> Option<usize> {
    if !may_start_arrow(s.as_bytes().first()) {
        return None;
    }
    decompose(s).map(|(len, _)| len)
}

/// Every arrow starts with a decoration, a head, a dash, a style bracket
/// or an en dash (first byte 0xE2).
#[inline]
fn may_start_arrow(first: Option<&u8>) -> bool {
    matches!(first, Some(b'o' | b'x' | b'<' | b'/' | b'\\' | b'-' | b'[' | 0xE2))
}

/// Decomposes a whole arrow token. `None` when `text` is not exactly one arrow.
pub fn parse_arrow(text: &str) -> Option<ArrowSyntax> {
    match decompose(text) {
        Some((len, arrow)) if len == text.len() => Some(arrow),
        _ => None,
    }
}

fn decompose(s: &str) -> Option<(usize, ArrowSyntax)> {
    let bytes = s.as_bytes();
    // The parser tries this on every statement's first word, which is
    // nearly always a name.
    if !may_start_arrow(bytes.first()) {
        return None;
    }
    let mut i = 0;
    let mut arrow = ArrowSyntax {
        left_head: HeadSyntax::None,
        left_circle: false,
        right_head: HeadSyntax::None,
        right_circle: false,
        line: LineSyntax::Solid,
        styles: Vec::new(),
    };
    // Left decorations: `o` or `x` only directly before a head or the body.
    if i < bytes.len() && (bytes[i] == b'o' || bytes[i] == b'x') {
        let next = bytes.get(1).copied();
        if matches!(next, Some(b'<' | b'-' | b'/' | b'\\' | b'[')) || bytes[1..].starts_with(EN_DASH_BYTES) {
            if bytes[i] == b'o' {
                arrow.left_circle = true;
            } else {
                arrow.left_head = HeadSyntax::Cross;
            }
            i += 1;
        }
    }
    // A head may follow the decoration (`x<-`, `o<<-`); after `x` the
    // cross is what is drawn.
    // Heads and dashes compared as bytes (the arrow test runs on nearly
    // every line; `str` slices cost a boundary check each).
    for (lit, head) in LEFT_HEADS {
        if bytes[i..].starts_with(lit.as_bytes()) {
            if arrow.left_head == HeadSyntax::None {
                arrow.left_head = head;
            }
            i += lit.len();
            break;
        }
    }
    // Body.
    let mut dashes = 0;
    let mut seen_style = false;
    loop {
        match bytes.get(i) {
            Some(b'-') => {
                dashes += 1;
                i += 1;
            }
            Some(0xE2) if bytes[i..].starts_with(EN_DASH_BYTES) => {
                dashes += 1;
                i += EN_DASH.len_utf8();
            }
            // PlantUML takes the style bracket anywhere in the body, also
            // before its first dash (`[#blue]->`, `<[#blue]-`).
            Some(b'[') if !seen_style => {
                let close = s[i..].find(']')?;
                let inner = &s[i + 1..i + close];
                if inner.contains('[') || (dashes == 0 && (inner.is_empty() || inner.contains(['-', '<', '>']))) {
                    return None;
                }
                arrow.styles = inner
                    .split(',')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect();
                seen_style = true;
                i += close + 1;
            }
            _ => break,
        }
    }
    if dashes == 0 {
        return None;
    }
    if dashes >= 2 {
        arrow.line = LineSyntax::Dotted;
    }
    for (lit, head) in RIGHT_HEADS {
        if bytes[i..].starts_with(lit.as_bytes()) {
            arrow.right_head = head;
            i += lit.len();
            break;
        }
    }
    // Right decoration, only when it cannot be the start of a name.
    if let Some(&c) = bytes.get(i) {
        if c == b'o' || c == b'x' || c == b'X' {
            let after = s[i + 1..].chars().next();
            if !after.is_some_and(is_name_char) {
                if c == b'o' {
                    arrow.right_circle = true;
                } else if arrow.right_head == HeadSyntax::Filled || arrow.right_head == HeadSyntax::None {
                    arrow.right_head = HeadSyntax::Cross;
                } else {
                    return None;
                }
                i += 1;
            }
        }
    }
    // Circles alone (`-o`, `o--`) make a class diagram's link, not a
    // message: PlantUML then reads the file as a class diagram.
    if arrow.left_head == HeadSyntax::None && arrow.right_head == HeadSyntax::None {
        return None;
    }
    Some((i, arrow))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_forms() {
        let cases = [
            ("->", true),
            ("-->", true),
            ("->>", true),
            ("-\\", true),
            ("-/", true),
            ("\\\\-", true),
            ("//--", true),
            ("->x", true),
            ("->o", true),
            ("o->", true),
            ("<->", true),
            ("<->o", true),
            ("-[#red]>", true),
            ("-[#c,dashed,bold]>", true),
            ("-[#red]->", true),
            ("<-", true),
            ("<--", true),
            ("-", false),
            ("--", false),
            ("-)", false),
            ("~>", false),
            ("-x", true),
            ("--X", true),
        ];
        for (text, ok) in cases {
            assert_eq!(parse_arrow(text).is_some(), ok, "{text}");
        }
        let a = parse_arrow("-[#red,bold]->>").unwrap();
        assert_eq!(a.right_head, HeadSyntax::Open);
        assert_eq!(a.line, LineSyntax::Dotted);
        assert_eq!(a.styles, vec!["#red", "bold"]);
        let x = parse_arrow("->x").unwrap();
        assert_eq!(x.right_head, HeadSyntax::Cross);
        assert!(parse_arrow("<-").unwrap().points_left());
        // `->oscar`: the `o` begins a name, not a circle.
        assert_eq!(scan_arrow("->oscar"), Some(2));
    }

    #[test]
    fn en_dash_is_a_dash() {
        // PlantUML 1.2026.8 reads U+2013 as `-`; the em dash is no dash.
        for (text, line) in [
            ("\u{2013}>", LineSyntax::Solid),
            ("\u{2013}>>", LineSyntax::Solid),
            ("<\u{2013}", LineSyntax::Solid),
            ("\u{2013}\u{2013}>", LineSyntax::Dotted),
            ("-\u{2013}>", LineSyntax::Dotted),
            ("\u{2013}[#red]\u{2013}>", LineSyntax::Dotted),
            ("x\u{2013}>", LineSyntax::Solid),
        ] {
            assert_eq!(parse_arrow(text).map(|a| a.line), Some(line), "{text}");
        }
        assert!(parse_arrow("\u{2014}>").is_none());
        assert!(parse_arrow("\u{2013}").is_none());
        assert_eq!(scan_arrow("\u{2013}>B"), Some(4));
    }
}
