//! Class diagrams (with object and ER `entity` diagrams): PlantUML's
//! "class" reading of a block.
//!
//! PlantUML tries its diagram types in turn and keeps the first that reads
//! every line; the sequence reading comes first, the class one second. The
//! parser does the same (see `Parser::parse_diagram`): a block the sequence
//! statements read with an error is read again with these statements, and
//! the class reading is kept when it reads every line (or gets further).
//!
//! Each line is scanned by pure functions that return its significant
//! pieces (`Pieces`); the gaps between them are blanks, so a line's tokens
//! always cover it. The grammar follows PlantUML's commands for class
//! diagrams: a name is `a.b::C`-like or quoted, a link is two ends around
//! an arrow of heads and a `-`/`.`/`=` body, a body runs to a line that is
//! only `}`.

use super::class_mistakes::{self, Mistake};
use super::lexer::{first_word, trim_blanks_start};
use super::{Line, Parser};
use crate::{codes, Diagnostic, SyntaxKind, TextEdit};
use SyntaxKind::*;

/// Significant pieces of a line: `(kind, start, end)`, byte offsets into the
/// line's content, in order and disjoint.
type Pieces = Vec<(SyntaxKind, usize, usize)>;

/// Keywords that declare a class-like element with an optional body.
pub(crate) const CLASS_KEYWORDS: &[&str] = &[
    "class",
    "interface",
    "enum",
    "annotation",
    "abstract",
    "entity",
    "protocol",
    "struct",
    "exception",
    "metaclass",
    "stereotype",
    "record",
    "dataclass",
];

/// Keywords of the description diagrams that draw a package-like box when
/// followed by `{` (`node N {`), in class diagrams too.
const PACKAGE_SYMBOLS: &[&str] = &[
    "node",
    "folder",
    "frame",
    "cloud",
    "database",
    "rectangle",
    "card",
    "component",
    "storage",
    "artifact",
    "file",
    "hexagon",
    "queue",
    "stack",
];

/// Elements of the description diagrams a class diagram takes after
/// `allowmixing`.
const MIXING_KEYWORDS: &[&str] = &[
    "actor",
    "usecase",
    "component",
    "node",
    "artifact",
    "folder",
    "file",
    "frame",
    "cloud",
    "database",
    "storage",
    "agent",
    "stack",
    "boundary",
    "control",
    "queue",
    "card",
    "rectangle",
    "label",
    "person",
    "hexagon",
    "collections",
    "action",
    "process",
];

/// The shared statements a class diagram reads like every diagram.
const SHARED_WORDS: &[&str] = &[
    "title",
    "header",
    "footer",
    "legend",
    "caption",
    "mainframe",
    "skinparam",
    "skinparamlocked",
    "skin",
    "scale",
    "sprite",
];

/// Statements every diagram kind reads (and the frame lines): a block made
/// only of these is no sequence diagram for PlantUML (an empty one), and
/// its class reading draws it.
pub(crate) fn is_shared_statement(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        TITLE
            | HEADER
            | FOOTER
            | LEGEND
            | CAPTION
            | MAINFRAME
            | HIDE_SHOW
            | SKINPARAM
            | STYLE
            | THEME
            | PRAGMA
            | PREPROC
            | SPRITE
            | START_LINE
            | END_LINE
    )
}

/// A character of a class name's part (PlantUML's `[\pL\pN_$]`).
fn is_code_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The length of a namespace separator at the start of `text`.
fn separator_len(text: &str) -> usize {
    if text.starts_with("::") || text.starts_with("\\\\") {
        2
    } else if text.starts_with('.') || text.starts_with('\\') {
        1
    } else {
        0
    }
}

/// The ASCII bytes of a name's part (letters, digits, `_`, `$`), as a
/// table: one load a byte where three tests were (every link end's name
/// is scanned).
const ASCII_CODE_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    table
};

/// The length of a class name (`a.b.C`, `a::b`, `.C`) at the start of
/// `text`, 0 when there is none.
pub(crate) fn code_len(text: &str) -> usize {
    let mut pos = separator_len(text);
    // A part's length: ASCII bytes settled by a byte test, other
    // characters decoded (what a `find` over the chars answers, without
    // decoding the ASCII names nearly every line has).
    let bytes = text.as_bytes();
    let part = |from: usize| {
        let mut at = from;
        while let Some(&b) = bytes.get(at) {
            if ASCII_CODE_BYTE[usize::from(b)] {
                at += 1;
            } else if b < 0x80 {
                break;
            } else {
                match text[at..].chars().next() {
                    Some(c) if is_code_char(c) => at += c.len_utf8(),
                    _ => break,
                }
            }
        }
        at - from
    };
    let first = part(pos);
    if first == 0 {
        return 0;
    }
    pos += first;
    loop {
        let sep = separator_len(&text[pos..]);
        if sep == 0 {
            return pos;
        }
        let next = part(pos + sep);
        if next == 0 {
            return pos;
        }
        pos += sep + next;
    }
}

/// `"…"` at the start of `text` (at least one character inside).
pub(crate) fn quoted_len(text: &str) -> usize {
    if !text.starts_with('"') {
        return 0;
    }
    match text[1..].find('"') {
        Some(end) if end > 0 => end + 2,
        _ => 0,
    }
}

/// The blanks at `text[pos..]`.
pub(crate) fn blanks(text: &str, pos: usize) -> usize {
    // Most calls stand on a printable ASCII byte: no blank to skip.
    if text.as_bytes().get(pos).is_some_and(|b| (b'!'..=b'~').contains(b)) {
        return pos;
    }
    pos + (text[pos..].len() - text[pos..].trim_start().len())
}

/// A word (case-insensitive) at `pos` followed by a blank or the end.
pub(crate) fn word_at(text: &str, pos: usize, word: &str) -> bool {
    let rest = &text[pos..];
    rest.len() >= word.len()
        && rest.is_char_boundary(word.len())
        && rest[..word.len()].eq_ignore_ascii_case(word)
        && rest[word.len()..].chars().next().is_none_or(|c| !is_code_char(c))
}

/// A balanced `<…>` at `pos` (a generic), its end.
fn generic_end(text: &str, pos: usize) -> Option<usize> {
    if !text[pos..].starts_with('<') || text[pos..].starts_with("<<") {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in text[pos..].char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(pos + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// An element's name: quoted, or a class name; its kind and end.
pub(crate) fn name_at(text: &str, pos: usize) -> Option<(SyntaxKind, usize)> {
    let q = quoted_len(&text[pos..]);
    if q > 0 {
        return Some((STRING, pos + q));
    }
    let c = code_len(&text[pos..]);
    (c > 0).then_some((IDENT, pos + c))
}

/// A declared element's name: quoted, or any run of characters but
/// blanks, braces, quotes and angle brackets (PlantUML's declaration takes
/// `agentData:` or `a-b` as a name, where a link end takes only `a.b::C`).
fn declared_name_at(text: &str, pos: usize) -> Option<(SyntaxKind, usize)> {
    let q = quoted_len(&text[pos..]);
    if q > 0 {
        return Some((STRING, pos + q));
    }
    let len = text[pos..]
        .find(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | '"' | '<' | '>'))
        .unwrap_or(text.len() - pos);
    (len > 0).then_some((IDENT, pos + len))
}

/// `#color`, `#back;line:red;text:blue`, `#red/blue`, `##[dashed]blue`: to
/// the next blank, `{` or `[[`.
pub(crate) fn color_end(text: &str, pos: usize) -> Option<usize> {
    if !text[pos..].starts_with('#') {
        return None;
    }
    let rest = &text[pos..];
    let len = rest
        .char_indices()
        .skip(1)
        .find(|&(i, c)| c.is_whitespace() || c == '{' || rest[i..].starts_with("[["))
        .map_or(rest.len(), |(i, _)| i);
    (len > 1).then_some(pos + len)
}

/// `<< … >>` at `pos`, its end.
pub(crate) fn stereotype_end(text: &str, pos: usize) -> Option<usize> {
    if !text[pos..].starts_with("<<") {
        return None;
    }
    text[pos + 2..].find(">>").map(|e| pos + 2 + e + 2)
}

/// `[[…]]` at `pos`, its end.
fn url_end(text: &str, pos: usize) -> Option<usize> {
    if !text[pos..].starts_with("[[") {
        return None;
    }
    text[pos..].find("]]").map(|e| pos + e + 2)
}

/// What a declaration line opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opens {
    Nothing,
    /// `{` at the end: a body follows, up to a line `}`.
    Body,
    /// `json X {`: a JSON value follows, up to its matching `}`.
    Json,
}

/// A declaration: `KEYWORD name [generic] [as alias] [options] [{]`.
/// `keywords` is how many words the keyword has (`abstract class`: 2).
fn scan_declaration(text: &str, keywords: usize, json: bool) -> Option<(Pieces, Opens)> {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    for i in 0..keywords {
        if i > 0 {
            let after = blanks(text, pos);
            if after == pos {
                return None;
            }
            pos = after;
        }
        let len = text[pos..].find(|c: char| !is_code_char(c)).unwrap_or(text.len() - pos);
        pieces.push((KEYWORD, pos, pos + len));
        pos += len;
    }
    let after = blanks(text, pos);
    if after == pos {
        return None;
    }
    pos = after;
    let (kind, end) = declared_name_at(text, pos)?;
    pieces.push((kind, pos, end));
    pos = end;
    if let Some(end) = generic_end(text, pos) {
        pieces.push((GENERIC, pos, end));
        pos = end;
    }
    // `as alias`
    let save = pos;
    let after = blanks(text, pos);
    if after > pos && word_at(text, after, "as") {
        let alias_at = blanks(text, after + 2);
        if alias_at > after + 2 {
            // `class A as B`: one of the two names is the quoted display.
            let first_quoted = pieces.last().is_some_and(|p| p.0 == STRING);
            if let Some((kind, end)) = name_at(text, alias_at).filter(|(k, _)| first_quoted || *k == STRING) {
                pieces.push((KEYWORD, after, after + 2));
                pieces.push((kind, alias_at, end));
                pos = end;
                if let Some(end) = generic_end(text, pos) {
                    pieces.push((GENERIC, pos, end));
                    pos = end;
                }
            }
        }
    }
    if pos == save {
        let after = blanks(text, pos);
        if let Some(end) = generic_end(text, after) {
            pieces.push((GENERIC, after, end));
            pos = end;
        }
    }
    let mut opens = Opens::Nothing;
    // PlantUML reads the options in this order: stereotypes and tags, a
    // link, colours, `extends`, `implements`, the brace.
    let mut stage = 0;
    loop {
        pos = blanks(text, pos);
        if pos >= text.len() {
            break;
        }
        let rest = &text[pos..];
        if let Some(end) = stereotype_end(text, pos).filter(|_| stage <= 1) {
            pieces.push((STEREOTYPE, pos, end));
            pos = end;
            stage = 1;
        } else if let Some(end) = url_end(text, pos).filter(|_| stage <= 2) {
            pieces.push((URL, pos, end));
            pos = end;
            stage = 2;
        } else if let Some(end) = color_end(text, pos).filter(|_| stage <= 3) {
            pieces.push((COLOR, pos, end));
            pos = end;
            stage = 3;
        } else if rest.starts_with('$') && code_len(&rest[1..]) > 0 && stage <= 1 {
            // A stereotag `$tag`.
            let end = pos + 1 + code_len(&rest[1..]);
            pieces.push((TEXT, pos, end));
            pos = end;
        } else if (word_at(text, pos, "extends") && stage <= 3) || (word_at(text, pos, "implements") && stage <= 4) {
            let keyword_len = if word_at(text, pos, "extends") { 7 } else { 10 };
            stage = if keyword_len == 7 { 4 } else { 5 };
            pieces.push((KEYWORD, pos, pos + keyword_len));
            pos = blanks(text, pos + keyword_len);
            let mut any = false;
            while let Some((kind, end)) = name_at(text, pos) {
                any = true;
                pieces.push((kind, pos, end));
                pos = end;
                if let Some(end) = generic_end(text, pos) {
                    pieces.push((GENERIC, pos, end));
                    pos = end;
                }
                let after = blanks(text, pos);
                if text[after..].starts_with(',') {
                    pieces.push((COMMA, after, after + 1));
                    pos = blanks(text, after + 1);
                } else {
                    break;
                }
            }
            if !any {
                return None;
            }
        } else if rest.trim_end() == "{" {
            pieces.push((L_BRACE, pos, pos + 1));
            opens = if json { Opens::Json } else { Opens::Body };
            pos += 1;
        } else if rest.trim_end() == "{}" || rest.trim_end() == "{ }" {
            let end = pos + rest.trim_end().len();
            pieces.push((L_BRACE, pos, pos + 1));
            pieces.push((R_BRACE, end - 1, end));
            pos = end;
        } else {
            return None;
        }
    }
    Some((pieces, opens))
}

/// Heads a link may start with, longest first (`o` and `x` only after a
/// blank, see `scan_link`).
const LEFT_HEADS: &[&str] = &[
    "<_|:", "<_||", "<|:", "<||", "<|", "[|", "}o", "}|", "|o", "||", "<_", ")_", "#_", "[_", "*_", "+_", "^_", "}_",
    ")", "#", "[", "<", "*", "+", "^", "}",
];
/// Heads a link may end with, longest first (`o`/`x` followed by a blank
/// are tried apart).
const RIGHT_HEADS: &[&str] = &[
    ":>>", ":|>", "||>", "|>", "|]", "o{", "|{", "o|", "||", ":>", "_>", ">", "(", "#", "]", "*", "+", "^", "{",
];
const DIRECTIONS: &[&str] = &["left", "right", "down", "up", "le", "ri", "do", "l", "r", "u", "d"];

/// `text.starts_with(head)`, the first bytes compared before the rest:
/// most heads differ from the text there, and the whole comparison is a
/// call to `memcmp` (a link's line tried each head so, 34 calls a link).
fn starts_with_head(text: &str, head: &str) -> bool {
    text.as_bytes().first() == head.as_bytes().first() && text.starts_with(head)
}

fn is_body_char(c: char) -> bool {
    matches!(c, '-' | '=' | '.')
}

/// The arrow at `text[pos..]`: the ends of its candidate readings, longest
/// right head first (the caller keeps the first one the rest of the line
/// reads after).
fn arrow_candidates(text: &str, pos: usize, after_blank: bool) -> Vec<usize> {
    let rest = &text[pos..];
    let mut at = 0;
    let body_follows = |i: usize| rest[i..].chars().next().is_some_and(is_body_char);
    if after_blank && (rest.starts_with('o') || rest.starts_with('x')) && body_follows(1) {
        at = 1;
    } else if let Some(head) = LEFT_HEADS
        .iter()
        .find(|h| starts_with_head(rest, h) && body_follows(h.len()))
    {
        at = head.len();
    }
    let body1 = rest[at..].find(|c: char| !is_body_char(c)).unwrap_or(rest.len() - at);
    if body1 == 0 {
        return Vec::new();
    }
    at += body1;
    // `[#red,dashed]`: not empty, no blanks (PlantUML refuses `[ #red ]`).
    let style = |i: usize| -> usize {
        if rest[i..].starts_with('[') && !rest[i..].starts_with("[[") {
            match rest[i..].find(']') {
                Some(e) if e > 1 && !rest[i..i + e].contains(char::is_whitespace) => i + e + 1,
                _ => i,
            }
        } else {
            i
        }
    };
    at = style(at);
    if let Some(dir) = DIRECTIONS.iter().find(|d| {
        rest.len() >= at + d.len()
            && rest.is_char_boundary(at + d.len())
            && rest[at..at + d.len()].eq_ignore_ascii_case(d)
            && rest[at + d.len()..]
                .chars()
                .next()
                .is_some_and(|c| is_body_char(c) || c == '[' || c == '>' || c == '(' || c == '0' || c == '*')
    }) {
        at += dir.len();
    }
    for inside in ["(0)", "(0", "0)", "0"] {
        if rest[at..].starts_with(inside) && rest[at + inside.len()..].chars().next().is_some_and(is_body_char) {
            at += inside.len();
            break;
        }
    }
    at = style(at);
    at += rest[at..].find(|c: char| !is_body_char(c)).unwrap_or(rest.len() - at);
    let mut ends = Vec::new();
    for head in RIGHT_HEADS {
        if starts_with_head(&rest[at..], head) {
            ends.push(pos + at + head.len());
        }
    }
    if (rest[at..].starts_with('o') || rest[at..].starts_with('x'))
        && rest[at + 1..].chars().next().is_some_and(char::is_whitespace)
    {
        ends.push(pos + at + 1);
    }
    ends.push(pos + at);
    ends
}

/// `(A, B)`: an association class's pair, its end.
fn couple_end(text: &str, pos: usize) -> Option<usize> {
    if !text[pos..].starts_with('(') {
        return None;
    }
    let mut at = blanks(text, pos + 1);
    let (_, end) = name_at(text, at)?;
    at = blanks(text, end);
    if !text[at..].starts_with(',') {
        return None;
    }
    at = blanks(text, at + 1);
    let (_, end) = name_at(text, at)?;
    at = blanks(text, end);
    text[at..].starts_with(')').then_some(at + 1)
}

/// A link end: a name or an association pair.
fn end_at(text: &str, pos: usize) -> Option<(SyntaxKind, usize)> {
    if let Some(end) = couple_end(text, pos) {
        return Some((PAREN, end));
    }
    name_at(text, pos)
}

/// ` [qualifier] ` at `pos` (blanks around required), its piece.
fn qualifier_at(text: &str, pos: usize) -> Option<(usize, usize)> {
    let at = blanks(text, pos);
    if at == pos || !text[at..].starts_with('[') || text[at..].starts_with("[[") {
        return None;
    }
    let close = at + text[at..].find(']')?;
    if close == at + 1 || text[at + 1..close].contains('[') {
        return None;
    }
    let after = blanks(text, close + 1);
    (after > close + 1).then_some((at, close + 1))
}

/// What follows a link's arrow: `["label"] [qualifier] END [#color] [[[url]]] [: label]`.
fn scan_link_tail(text: &str, mut pos: usize, pieces: &mut Pieces) -> Option<()> {
    let after_arrow = pos;
    pos = blanks(text, pos);
    let q = quoted_len(&text[pos..]);
    if q == 0 {
        pos = after_arrow;
    }
    if q > 0 {
        // A quoted text followed by another name is the label at the end.
        let after = blanks(text, pos + q);
        if name_at(text, after).is_some() || qualifier_at(text, pos + q).is_some() {
            pieces.push((STRING, pos, pos + q));
            pos += q;
        }
    }
    if let Some((start, end)) = qualifier_at(text, pos) {
        pieces.push((TEXT, start, end));
        pos = end;
    }
    pos = blanks(text, pos);
    let (kind, end) = end_at(text, pos)?;
    pieces.push((kind, pos, end));
    pos = blanks(text, end);
    if pos == end && text[pos..].starts_with('#') {
        // `B#red` is no name and its colour.
        return None;
    }
    if let Some(end) = color_end(text, pos) {
        pieces.push((COLOR, pos, end));
        pos = blanks(text, end);
    }
    if let Some(end) = url_end(text, pos) {
        pieces.push((URL, pos, end));
        pos = blanks(text, end);
    }
    if pos >= text.len() {
        return Some(());
    }
    if text[pos..].starts_with(':') {
        pieces.push((COLON, pos, pos + 1));
        let label = blanks(text, pos + 1);
        let end = text.trim_end().len().max(label);
        // PlantUML wants a label after the colon.
        if end == label {
            return None;
        }
        pieces.push((TEXT, label, end));
        return Some(());
    }
    None
}

/// A link `A "1" *-- "n" B : label`.
pub(crate) fn scan_link(text: &str) -> Option<Pieces> {
    // A link has up to ~8 pieces: sized once, not grown from empty.
    let mut pieces = Vec::with_capacity(8);
    let mut pos = blanks(text, 0);
    // `@1.5 ` weight prefix.
    if text[pos..].starts_with('@') {
        let end = pos + 1 + text[pos + 1..].find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        if end == pos + 1 {
            return None;
        }
        pieces.push((NUMBER, pos, end));
        pos = blanks(text, end);
    }
    let (kind, end) = end_at(text, pos)?;
    pieces.push((kind, pos, end));
    pos = end;
    if let Some((start, end)) = qualifier_at(text, pos) {
        pieces.push((TEXT, start, end));
        pos = end;
    }
    pos = blanks(text, pos);
    let q = quoted_len(&text[pos..]);
    if q > 0 {
        pieces.push((STRING, pos, pos + q));
        pos = blanks(text, pos + q);
    }
    let after_blank = text[..pos].ends_with(char::is_whitespace);
    // One tail buffer for every arrow tried.
    let mut tail = Vec::with_capacity(8);
    for arrow_end in arrow_candidates(text, pos, after_blank) {
        tail.clear();
        if scan_link_tail(text, arrow_end, &mut tail).is_some() {
            pieces.push((ARROW, pos, arrow_end));
            pieces.append(&mut tail);
            return Some(pieces);
        }
    }
    None
}

/// `A <<S>>`: a stereotype given to an element.
fn stereotype_command(text: &str) -> Option<Pieces> {
    let pos = blanks(text, 0);
    let (kind, end) = name_at(text, pos)?;
    let at = blanks(text, end);
    let close = stereotype_end(text, at)?;
    (text[close..].trim().is_empty()).then(|| vec![(kind, pos, end), (STEREOTYPE, at, close)])
}

/// `A : text`: a member added to `A` (a blank before the colon).
fn scan_member_line(text: &str) -> Option<Pieces> {
    let pos = blanks(text, 0);
    let (kind, end) = name_at(text, pos)?;
    let colon = blanks(text, end);
    // PlantUML wants a blank before the colon (`A: x` is no member line).
    if colon == end || !text[colon..].starts_with(':') || text[colon..].starts_with("::") {
        return None;
    }
    let mut pieces = vec![(kind, pos, end), (COLON, colon, colon + 1)];
    let label = blanks(text, colon + 1);
    let label_end = text.trim_end().len().max(label);
    if label_end > label {
        pieces.push((TEXT, label, label_end));
    }
    Some(pieces)
}

/// What a note line is.
enum NoteForm {
    /// `… : text` on the line.
    OneLine,
    /// The text follows up to `end note`.
    Block,
}

/// `note left of A [#c] : t`, `note "t" as N`, `note as N`, `note on link : t`,
/// `note left : t` (the last element).
fn scan_note(text: &str) -> Option<(Pieces, NoteForm)> {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    pieces.push((KEYWORD, pos, pos + 4));
    pos = blanks(text, pos + 4);
    let side = ["left", "right", "top", "bottom"]
        .into_iter()
        .find(|w| word_at(text, pos, w));
    if let Some(side) = side {
        pieces.push((KEYWORD, pos, pos + side.len()));
        pos = blanks(text, pos + side.len());
        if word_at(text, pos, "of") {
            pieces.push((KEYWORD, pos, pos + 2));
            pos = blanks(text, pos + 2);
            let (kind, end) = name_at(text, pos)?;
            // `A::member` and `A::method()` tips.
            let end = if text[end..].starts_with("::") || text[end..].starts_with('(') {
                end + text[end..].find(char::is_whitespace).unwrap_or(text.len() - end)
            } else {
                end
            };
            pieces.push((kind, pos, end));
            pos = blanks(text, end);
        } else if word_at(text, pos, "on") {
            pieces.push((KEYWORD, pos, pos + 2));
            pos = blanks(text, pos + 2);
            if !word_at(text, pos, "link") {
                return None;
            }
            pieces.push((KEYWORD, pos, pos + 4));
            pos = blanks(text, pos + 4);
        }
    } else if word_at(text, pos, "on") {
        pieces.push((KEYWORD, pos, pos + 2));
        pos = blanks(text, pos + 2);
        if !word_at(text, pos, "link") {
            return None;
        }
        pieces.push((KEYWORD, pos, pos + 4));
        pos = blanks(text, pos + 4);
    } else {
        let q = quoted_len(&text[pos..]);
        if q > 0 {
            pieces.push((STRING, pos, pos + q));
            pos = blanks(text, pos + q);
        }
        if word_at(text, pos, "as") {
            pieces.push((KEYWORD, pos, pos + 2));
            pos = blanks(text, pos + 2);
            let len = code_len(&text[pos..]);
            if len == 0 {
                return None;
            }
            pieces.push((IDENT, pos, pos + len));
            pos = blanks(text, pos + len);
        } else {
            // `note "x"` alone is no note PlantUML reads.
            return None;
        }
        if let Some(end) = color_end(text, pos) {
            pieces.push((COLOR, pos, end));
            pos = blanks(text, end);
        }
        if pos < text.len() {
            return None;
        }
        return Some((pieces, if q > 0 { NoteForm::OneLine } else { NoteForm::Block }));
    }
    if let Some(end) = color_end(text, pos) {
        pieces.push((COLOR, pos, end));
        pos = blanks(text, end);
    }
    if let Some(end) = url_end(text, pos) {
        pieces.push((URL, pos, end));
        pos = blanks(text, end);
    }
    if pos >= text.len() {
        return Some((pieces, NoteForm::Block));
    }
    // A note on a member (`A::field`) takes a block only.
    let on_member = pieces
        .iter()
        .any(|&(k, s, e)| matches!(k, IDENT | STRING) && text[s..e].contains("::"));
    if text[pos..].starts_with(':') && !on_member {
        pieces.push((COLON, pos, pos + 1));
        let label = blanks(text, pos + 1);
        let end = text.trim_end().len().max(label);
        if end > label {
            pieces.push((TEXT, label, end));
        }
        return Some((pieces, NoteForm::OneLine));
    }
    None
}

/// `package a.b [as x] [<<S>>] [#c] [{]`, `namespace x {`, `node N {`.
fn scan_package(text: &str, keyword_len: usize, needs_brace: bool) -> Option<Pieces> {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    pieces.push((KEYWORD, pos, pos + keyword_len));
    pos += keyword_len;
    let after = blanks(text, pos);
    let mut has_brace = false;
    if after > pos {
        pos = after;
        let q = quoted_len(&text[pos..]);
        let name_len = if q > 0 {
            q
        } else {
            text[pos..]
                .find(|c: char| c.is_whitespace() || c == '{' || c == '#')
                .unwrap_or(text.len() - pos)
        };
        if name_len > 0 && !text[pos..].starts_with("<<") {
            pieces.push((if q > 0 { STRING } else { IDENT }, pos, pos + name_len));
            pos += name_len;
        }
        loop {
            pos = blanks(text, pos);
            if pos >= text.len() {
                break;
            }
            if word_at(text, pos, "as") {
                let at = blanks(text, pos + 2);
                let (kind, end) = name_at(text, at)?;
                pieces.push((KEYWORD, pos, pos + 2));
                pieces.push((kind, at, end));
                pos = end;
            } else if let Some(end) = stereotype_end(text, pos) {
                pieces.push((STEREOTYPE, pos, end));
                pos = end;
            } else if let Some(end) = url_end(text, pos) {
                pieces.push((URL, pos, end));
                pos = end;
            } else if let Some(end) = color_end(text, pos) {
                pieces.push((COLOR, pos, end));
                pos = end;
            } else if text[pos..].trim_end() == "{" {
                pieces.push((L_BRACE, pos, pos + 1));
                has_brace = true;
                pos += 1;
            } else if text[pos..].trim_end() == "{}" {
                pieces.push((L_BRACE, pos, pos + 1));
                pieces.push((R_BRACE, pos + 1, pos + 2));
                has_brace = true;
                pos += 2;
            } else {
                return None;
            }
        }
    } else if text[pos..].trim_end() == "{" {
        pieces.push((L_BRACE, pos, pos + 1));
        has_brace = true;
    } else if !text[pos..].trim().is_empty() {
        return None;
    }
    if needs_brace && !has_brace {
        return None;
    }
    Some(pieces)
}

/// Whether `code` is a named class-diagram mistake that no sequence
/// diagram makes (Mermaid's `classDiagram` header among them): a class
/// reading whose only errors are these keeps the block on a tie. Unknown
/// arrows, chained links and stray members are left out: a sequence
/// message with a Mermaid arrow reads as a class link with a bad arrow.
pub(crate) fn is_class_only_mistake(code: &str) -> bool {
    matches!(
        code,
        codes::MERMAID_HEADER
            | codes::CLASS_MERMAID_SYNTAX
            | codes::CLASS_JAVA_SYNTAX
            | codes::CLASS_GENERIC
            | codes::CLASS_BODY_ON_LINE
    )
}

/// How many keywords a declaration line starts with (`abstract class`:
/// 2), when it starts with a declaration keyword.
fn declaration_keywords(text: &str) -> Option<usize> {
    let word = first_word(text);
    // (The first two words joined only for the two words that may start
    // a two-word keyword: a diagnosis looks back over many lines.)
    let two_words = || {
        let compact: String = text.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        compact.eq_ignore_ascii_case(&format!("{word} class"))
    };
    if (word == "abstract" || word == "static") && two_words() {
        Some(2)
    } else if CLASS_KEYWORDS.contains(&&*word) {
        Some(1)
    } else {
        None
    }
}

/// The type arguments of a supertype that PlantUML refuses in a
/// declaration's pieces: on a declaration that opens no body, or followed
/// by another supertype (`extends B<T>, C`).
fn refused_supertype_generic(text: &str, pieces: &Pieces, opens_body: bool) -> Option<(usize, usize)> {
    let supers_from = pieces.iter().position(|&(k, s, e)| {
        k == KEYWORD && (text[s..e].eq_ignore_ascii_case("extends") || text[s..e].eq_ignore_ascii_case("implements"))
    })?;
    let generics = pieces[supers_from..].iter().enumerate().filter(|(_, p)| p.0 == GENERIC);
    for (i, &(_, start, end)) in generics {
        let followed_by_comma = pieces.get(supers_from + i + 1).is_some_and(|p| p.0 == COMMA);
        if !opens_body || followed_by_comma {
            return Some((start, end));
        }
    }
    None
}

/// Whether the class reading takes `text` as a statement of one line
/// (a declaration without a body, a member line, a link): the check every
/// repair of `class_mistakes` passes before it is offered.
pub(crate) fn line_reads(text: &str) -> bool {
    if let Some(keywords) = declaration_keywords(text) {
        if let Some((pieces, opens)) = scan_declaration(text, keywords, false) {
            return opens == Opens::Nothing && refused_supertype_generic(text, &pieces, false).is_none();
        }
    }
    scan_member_line(text).is_some() || scan_link(text).is_some()
}

impl<'a> Parser<'a> {
    /// One statement of a class diagram, starting at `self.pos`.
    pub(crate) fn parse_class_statement(&mut self) {
        let line = self.lines[self.pos];
        if self.take_comment_or_blank(&line) {
            return;
        }
        let trimmed = trim_blanks_start(line.content);
        let lines_before = self.pos;
        let word = first_word(line.content);
        let line_end = trimmed.trim_end();
        // The line lowercased with its blanks collapsed, which only a few
        // keywords' arms compare: made when the first of them asks.
        let compact_cell = std::cell::OnceCell::new();
        let compact = || -> &str {
            compact_cell.get_or_init(|| {
                line_end
                    .to_ascii_lowercase()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        };
        let content = line.content;
        match &*word {
            w if w.starts_with('!') => self.keyword_statement(&line, &word, trimmed),
            "left" | "top" if compact() == "left to right direction" || compact() == "top to bottom direction" => {
                self.class_words(&line, CLASS_OPTION)
            }
            // `scale` is a command only before a blank (`Scale"1" -- A` is a link).
            w if SHARED_WORDS.contains(&w)
                && (w != "scale" || trimmed[word.len()..].starts_with(char::is_whitespace)) =>
            {
                self.keyword_statement(&line, &word, trimmed)
            }
            "left" | "right" | "center" if self.is_aligned_header(&line) => {
                self.keyword_statement(&line, &word, trimmed)
            }
            _ if line_end
                .get(..6)
                .is_some_and(|start| start.eq_ignore_ascii_case("<style")) =>
            {
                self.keyword_statement(&line, &word, trimmed)
            }
            "newpage" if compact() == "newpage" => self.class_keyword_text(&line, NEWPAGE, 1),
            "hide" | "show" | "remove" | "restore" => self.class_keyword_text(&line, HIDE_SHOW, 1),
            "set"
                if compact().starts_with("set separator ")
                    || compact().starts_with("set namespaceseparator ")
                    || compact() == "set separator none" =>
            {
                self.class_keyword_text(&line, CLASS_OPTION, 2)
            }
            "allowmixing" | "allow_mixing" if compact() == &*word => {
                self.class_mixing = true;
                self.class_words(&line, CLASS_OPTION)
            }
            "url" if compact().starts_with("url of ") || compact().starts_with("url for ") => {
                self.class_keyword_text(&line, CLASS_OPTION, 2)
            }
            "together" if compact() == "together {" => self.class_words(&line, TOGETHER_START),
            "end" | "endpackage" | "endnamespace"
                if matches!(
                    compact(),
                    "end package" | "endpackage" | "end namespace" | "endnamespace"
                ) =>
            {
                self.class_words(&line, BRACE_END)
            }
            // (The collapsed line is `}` exactly when the trimmed one is.)
            _ if line_end.trim_start() == "}" => self.class_words(&line, BRACE_END),
            "package" | "namespace" => {
                let pieces = scan_package(content, word.len(), true);
                self.class_pieces(&line, PACKAGE_START, pieces)
            }
            w if PACKAGE_SYMBOLS.contains(&w) && line_end.ends_with('{') => {
                let pieces = scan_package(content, word.len(), true);
                self.class_pieces(&line, PACKAGE_START, pieces)
            }
            "note" => self.class_note(&line),
            "abstract" | "static" if compact().starts_with(&format!("{word} class ")) => {
                self.class_declaration(&line, 2)
            }
            w if CLASS_KEYWORDS.contains(&w) => self.class_declaration(&line, 1),
            "object" | "map" | "circle" | "diamond" => self.class_declaration(&line, 1),
            "json" => self.class_declaration(&line, 1),
            w if MIXING_KEYWORDS.contains(&w) && line_end.ends_with('[') => self.class_bracketed_element(&line),
            w if MIXING_KEYWORDS.contains(&w) && self.class_mixing => self.class_declaration(&line, 1),
            _ if stereotype_command(content).is_some() => {
                let pieces = stereotype_command(content);
                self.class_pieces(&line, CLASS_OPTION, pieces)
            }
            _ => {
                if let Some(pieces) = scan_member_line(content) {
                    self.class_pieces(&line, MEMBER_LINE, Some(pieces))
                } else if let Some(pieces) = scan_link(content) {
                    self.class_pieces(&line, CLASS_LINK, Some(pieces))
                } else if trimmed.starts_with("()") || trimmed.starts_with("<>") {
                    self.class_declaration_symbol(&line)
                } else {
                    self.class_unknown(&line, &word)
                }
            }
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    /// Emits a line as `pieces` with the blanks between them; the
    /// statement node `kind` is opened by the caller or here.
    fn emit_pieces(&mut self, line: &Line<'a>, pieces: &Pieces) {
        let mut lx = self.lexer(line.content);
        for &(kind, start, end) in pieces {
            if start > lx.pos {
                let gap = &line.content[lx.pos..start];
                // (Nearly every gap is spaces: no whitespace test of `trim`.)
                let blank = gap.bytes().all(|b| b == b' ') || gap.trim().is_empty();
                let k = if blank { WHITESPACE } else { ERROR_TOKEN };
                lx.push(k, start - lx.pos);
            }
            lx.push(kind, end - start);
        }
        let rest = lx.rest().len();
        if rest > 0 {
            let k = if lx.rest().trim().is_empty() {
                WHITESPACE
            } else {
                ERROR_TOKEN
            };
            lx.push(k, rest);
        }
        self.emit_line(line, lx);
    }

    /// Notes the names a statement's pieces write (a note may only be
    /// attached to an element named before it).
    fn remember_names(&mut self, line: &Line<'a>, pieces: &Pieces) {
        for &(kind, start, end) in pieces {
            let text = &line.content[start..end];
            match kind {
                IDENT | STRING => self.remember_name(text.trim_matches('"')),
                PAREN => {
                    for part in text.trim_start_matches('(').trim_end_matches(')').split(',') {
                        self.remember_name(part.trim().trim_matches('"'));
                    }
                }
                _ => {}
            }
        }
    }

    /// Notes a class name; copied only when new (most link ends name a
    /// class met before, and the copy was an allocation and a free each).
    fn remember_name(&mut self, name: &str) {
        if !self.class_names.contains(name) {
            self.class_names.insert(name.to_string());
        }
    }

    /// Whether the classes of every `(A, B)` pair were named before.
    fn pairs_known(&self, line: &Line<'a>, pieces: &Pieces) -> bool {
        pieces.iter().filter(|p| p.0 == PAREN).all(|&(_, s, e)| {
            line.content[s..e]
                .trim_start_matches('(')
                .trim_end_matches(')')
                .split(',')
                .all(|part| self.class_names.contains(part.trim().trim_matches('"')))
        })
    }

    /// A one-line statement read by a scanner; `None` is a syntax error.
    fn class_pieces(&mut self, line: &Line<'a>, kind: SyntaxKind, pieces: Option<Pieces>) {
        match pieces {
            Some(pieces) if kind == CLASS_LINK && !self.pairs_known(line, &pieces) => {
                let range = self.line_range(line);
                self.error(Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "an association class `(A, B)` needs both classes declared before it",
                ));
                self.builder.start_node(ERROR_STATEMENT.into());
                let mut lx = self.lexer(line.content);
                lx.ws();
                lx.error_to_end();
                self.emit_line(line, lx);
                self.builder.finish_node();
            }
            Some(pieces) => {
                self.remember_names(line, &pieces);
                if kind == CLASS_LINK {
                    self.class_linked = true;
                }
                self.builder.start_node(kind.into());
                self.emit_pieces(line, &pieces);
                self.builder.finish_node();
            }
            None => {
                let word = first_word(line.content);
                self.class_unknown(line, &word)
            }
        }
    }

    /// A statement made of keywords only (`together {`, `}`, `allowmixing`).
    fn class_words(&mut self, line: &Line<'a>, kind: SyntaxKind) {
        let mut pieces = Vec::new();
        let text = line.content;
        let mut pos = blanks(text, 0);
        while pos < text.trim_end().len() {
            let end = text[pos..].find(char::is_whitespace).map_or(text.len(), |e| pos + e);
            let k = match &text[pos..end] {
                "{" => L_BRACE,
                "}" => R_BRACE,
                _ => KEYWORD,
            };
            pieces.push((k, pos, end));
            pos = blanks(text, end);
        }
        self.builder.start_node(kind.into());
        self.emit_pieces(line, &pieces);
        self.builder.finish_node();
    }

    /// `keywords` words, then the rest as text (`hide empty members`).
    fn class_keyword_text(&mut self, line: &Line<'a>, kind: SyntaxKind, keywords: usize) {
        let text = line.content;
        let mut pieces = Vec::new();
        let mut pos = blanks(text, 0);
        for _ in 0..keywords {
            let end = text[pos..].find(char::is_whitespace).map_or(text.len(), |e| pos + e);
            pieces.push((KEYWORD, pos, end));
            pos = blanks(text, end);
        }
        let end = text.trim_end().len();
        if end > pos {
            pieces.push((TEXT, pos, end));
        }
        self.builder.start_node(kind.into());
        self.emit_pieces(line, &pieces);
        self.builder.finish_node();
    }

    /// `class A …` with its body when the line ends with `{`.
    fn class_declaration(&mut self, line: &Line<'a>, keywords: usize) {
        let word = first_word(line.content);
        let json = word == "json";
        // Circles, diamonds and mixed-in elements take no body; a `json` needs one.
        let bodiless = matches!(&*word, "circle" | "diamond") || MIXING_KEYWORDS.contains(&&*word);
        // An object takes a name, an alias, stereotypes, a plain colour
        // and a body: no generics, inheritance, tags or line styles.
        let object = word == "object";
        let object_refuses = |pieces: &Pieces| {
            pieces.iter().any(|&(k, s, e)| {
                let text = &line.content[s..e];
                matches!(k, GENERIC | R_BRACE | TEXT)
                    || (k == KEYWORD
                        && (text.eq_ignore_ascii_case("extends") || text.eq_ignore_ascii_case("implements")))
                    || (k == COLOR && (text.starts_with("##") || text.contains(';')))
            })
        };
        let scanned = scan_declaration(line.content, keywords, json).filter(|(pieces, opens)| {
            let refused_body = bodiless && *opens != Opens::Nothing;
            let missing_json = json && *opens != Opens::Json;
            let refused_option = object && object_refuses(pieces);
            !(refused_body || missing_json || refused_option)
        });
        let Some((pieces, mut opens)) = scanned else {
            // `Class "1" *-- "n" B`: a keyword is also a name.
            if let Some(pieces) = scan_member_line(line.content) {
                return self.class_pieces(line, MEMBER_LINE, Some(pieces));
            }
            if let Some(pieces) = scan_link(line.content) {
                return self.class_pieces(line, CLASS_LINK, Some(pieces));
            }
            let word = first_word(line.content);
            return self.class_unknown(line, &word);
        };
        // The `{` of a body may stand alone on the next line.
        let mut brace_line = None;
        if opens == Opens::Nothing && !bodiless && !pieces.iter().any(|p| p.0 == R_BRACE) {
            if let Some(next) = self.lines.get(self.pos + 1) {
                if next.content.trim() == "{" {
                    brace_line = Some(self.pos + 1);
                    opens = if json { Opens::Json } else { Opens::Body };
                }
            }
        }
        let body_from = brace_line.unwrap_or(self.pos);
        let saved_pos = self.pos;
        self.pos = body_from;
        let end = match opens {
            Opens::Nothing => None,
            Opens::Body => self.find_block_end(|l| l == "}"),
            Opens::Json => self.json_end(),
        };
        self.pos = saved_pos;
        if end.is_none() && opens != Opens::Nothing {
            if brace_line.is_none() {
                return self.unclosed_body(line, &pieces);
            }
            // A `{` line with no `}` after it is no body's.
            opens = Opens::Nothing;
        }
        if let Some(generic) = refused_supertype_generic(line.content, &pieces, opens == Opens::Body) {
            let context = self.mistake_context(line);
            let mistake = class_mistakes::generic_supertype(line.content, generic, opens == Opens::Body, &context);
            return self.report_mistake(line, mistake);
        }
        self.remember_names(line, &pieces);
        self.builder.start_node(CLASS_DECL.into());
        self.emit_pieces(line, &pieces);
        if let (Some(_), Some(brace)) = (end, brace_line) {
            let brace_line = self.lines[brace];
            let mut lx = self.lexer(brace_line.content);
            lx.ws();
            lx.push(L_BRACE, 1);
            lx.ws();
            self.emit_line(&brace_line, lx);
            self.pos = brace;
        }
        if let Some(end) = end {
            if self.pos + 1 < end {
                self.builder.start_node(CLASS_BODY.into());
                for idx in self.pos + 1..end {
                    let member = self.lines[idx];
                    self.builder.start_node(CLASS_MEMBER.into());
                    let mut lx = self.lexer(member.content);
                    lx.ws();
                    if lx.rest().starts_with('\'') && opens == Opens::Body {
                        let len = lx.rest().trim_end().len();
                        lx.push(COMMENT, len);
                        lx.ws();
                    } else if !lx.at_end() {
                        lx.text_to_end();
                    }
                    self.emit_line(&member, lx);
                    self.builder.finish_node();
                }
                self.builder.finish_node();
            }
            self.emit_block_end(end);
            self.pos = end + 1;
        }
        self.builder.finish_node();
    }

    /// The line closing a `json` value: braces and brackets balance (outside strings).
    fn json_end(&self) -> Option<usize> {
        self.looked_ahead.set(true);
        let mut depth: i64 = 1;
        for idx in self.pos + 1..self.lines.len() {
            let content = self.lines[idx].content;
            if content.trim_start().to_ascii_lowercase().starts_with("@enduml") {
                break;
            }
            let mut in_string = false;
            let mut escaped = false;
            for c in content.chars() {
                if in_string {
                    match (escaped, c) {
                        (true, _) => escaped = false,
                        (false, '\\') => escaped = true,
                        (false, '"') => in_string = false,
                        _ => {}
                    }
                    continue;
                }
                match c {
                    '"' => in_string = true,
                    '{' | '[' => depth += 1,
                    '}' | ']' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 {
                return Some(idx);
            }
        }
        self.unterminated_block.set(true);
        None
    }

    /// A declaration whose `{` is never closed: the line alone, with an error.
    fn unclosed_body(&mut self, line: &Line<'a>, pieces: &Pieces) {
        let range = self.line_range(line);
        self.error(
            Diagnostic::error(
                codes::UNCLOSED_BLOCK,
                range,
                "this body is never closed: end it with a line holding only `}`",
            )
            .with_fix(
                "Close the body at the end of the diagram",
                vec![TextEdit::insert(self.diagram_end_offset(), "}\n")],
            ),
        );
        self.builder.start_node(CLASS_DECL.into());
        self.emit_pieces(line, pieces);
        self.builder.finish_node();
    }

    /// Where text inserted before the diagram's `@enduml` goes.
    fn diagram_end_offset(&self) -> crate::TextSize {
        let end = (self.pos + 1..self.lines.len())
            .find(|&i| first_word(self.lines[i].content).starts_with("@end"))
            .map_or(self.text.len(), |i| self.lines[i].start);
        crate::TextSize::from(end as u32)
    }

    /// `file F #color [` … `]`: a description element whose text runs
    /// over lines (class diagrams take it without `allowmixing`).
    fn class_bracketed_element(&mut self, line: &Line<'a>) {
        let text = line.content;
        let open = text.trim_end().len() - 1;
        let Some((mut pieces, _)) = scan_declaration(&text[..open], 1, false) else {
            let word = first_word(text);
            return self.class_unknown(line, &word);
        };
        pieces.push((L_BRACKET, open, open + 1));
        self.remember_names(line, &pieces);
        let Some(end) = self.find_block_end(|l| l.ends_with(']')) else {
            let word = first_word(text);
            return self.class_unknown(line, &word);
        };
        self.builder.start_node(CLASS_DECL.into());
        self.emit_pieces(line, &pieces);
        self.emit_body(end);
        // The closing line is text up to its `]`.
        let closing = self.lines[end];
        self.builder.start_node(BLOCK_END.into());
        let mut lx = self.lexer(closing.content);
        lx.ws();
        let text_len = lx.rest().trim_end().len().saturating_sub(1);
        if text_len > 0 {
            lx.push(TEXT, text_len);
        }
        lx.push(R_BRACKET, 1);
        lx.ws();
        self.emit_line(&closing, lx);
        self.builder.finish_node();
        self.pos = end + 1;
        self.builder.finish_node();
    }

    /// `() name` and `<> name`.
    fn class_declaration_symbol(&mut self, line: &Line<'a>) {
        let text = line.content;
        let pos = blanks(text, 0);
        let mut pieces = vec![(KEYWORD, pos, pos + 2)];
        let at = blanks(text, pos + 2);
        match name_at(text, at) {
            Some((kind, end)) if at > pos + 2 || text[pos + 2..].starts_with('"') => {
                pieces.push((kind, at, end));
                let mut p = blanks(text, end);
                if word_at(text, p, "as") {
                    let alias_at = blanks(text, p + 2);
                    if let Some((k, e)) = name_at(text, alias_at) {
                        pieces.push((KEYWORD, p, p + 2));
                        pieces.push((k, alias_at, e));
                        p = blanks(text, e);
                    }
                }
                while p < text.trim_end().len() {
                    if let Some(e) = stereotype_end(text, p) {
                        pieces.push((STEREOTYPE, p, e));
                        p = blanks(text, e);
                    } else if let Some(e) = color_end(text, p) {
                        pieces.push((COLOR, p, e));
                        p = blanks(text, e);
                    } else {
                        let word = first_word(text);
                        return self.class_unknown(line, &word);
                    }
                }
                self.remember_names(line, &pieces);
                self.builder.start_node(CLASS_DECL.into());
                self.emit_pieces(line, &pieces);
                self.builder.finish_node();
            }
            _ => {
                let word = first_word(text);
                self.class_unknown(line, &word)
            }
        }
    }

    /// A note: one line, or a block to `end note`.
    fn class_note(&mut self, line: &Line<'a>) {
        let Some((pieces, form)) = scan_note(line.content) else {
            return self.class_unknown(line, "note");
        };
        // PlantUML attaches a note to an element named before it (`note
        // left : x` to the last one, `note on link` to the last link).
        let keyword = |word: &str| {
            pieces
                .iter()
                .any(|&(k, s, e)| k == KEYWORD && line.content[s..e].eq_ignore_ascii_case(word))
        };
        let target = pieces
            .iter()
            .find(|p| matches!(p.0, IDENT | STRING))
            .map(|&(_, s, e)| line.content[s..e].trim_matches('"'));
        let missing = if keyword("of") {
            let element = target.map(|t| t.split("::").next().unwrap_or(t)).unwrap_or("");
            (!self.class_names.contains(element)).then(|| format!("`{element}` is not declared before this note"))
        } else if keyword("link") {
            (!self.class_linked).then(|| "`note on link` needs a link before it".to_string())
        } else if ["left", "right", "top", "bottom"].into_iter().any(keyword) {
            self.class_names
                .is_empty()
                .then(|| "this note goes on the last element, and none comes before it".to_string())
        } else {
            None
        };
        if let Some(message) = missing {
            let range = self.line_range(line);
            self.error(Diagnostic::error(codes::SYNTAX_ERROR, range, message));
            self.builder.start_node(ERROR_STATEMENT.into());
            let mut lx = self.lexer(line.content);
            lx.ws();
            lx.error_to_end();
            self.emit_line(line, lx);
            self.builder.finish_node();
            return;
        }
        if !keyword("of") {
            self.remember_names(line, &pieces);
        }
        self.builder.start_node(CLASS_NOTE.into());
        self.emit_pieces(line, &pieces);
        if let NoteForm::Block = form {
            match self.find_block_end(|l| l == "end note" || l == "endnote" || l.starts_with("end note ")) {
                Some(end) => {
                    self.emit_body(end);
                    self.emit_block_end(end);
                    self.pos = end + 1;
                }
                None => {
                    let range = self.line_range(line);
                    self.error(
                        Diagnostic::error(
                            codes::UNCLOSED_BLOCK,
                            range,
                            "this note is never closed: end it with `end note`",
                        )
                        .with_fix(
                            "Close the note at the end of the diagram",
                            vec![TextEdit::insert(self.diagram_end_offset(), "end note\n")],
                        ),
                    );
                }
            }
        }
        self.builder.finish_node();
    }

    /// What `class_mistakes` may know about the diagram before `line`.
    fn mistake_context(&self, line: &Line<'a>) -> class_mistakes::Context<'_> {
        // The last declaration before the line (bounded look-back).
        let last_class = (self.pos.saturating_sub(200)..self.pos).rev().find_map(|idx| {
            let text = self.lines[idx].content;
            let keywords = declaration_keywords(text)?;
            let (pieces, _) = scan_declaration(text, keywords, false)
                .or_else(|| scan_declaration(text.trim_end().trim_end_matches('{'), keywords, false))?;
            // The alias when there is one, else the name.
            let piece = |i: usize| pieces.get(i).map(|&(k, s, e)| (k, &text[s..e]));
            let alias = match piece(keywords + 1) {
                Some((KEYWORD, word)) if word.eq_ignore_ascii_case("as") => piece(keywords + 2),
                _ => None,
            };
            let name = alias
                .or_else(|| piece(keywords))
                .filter(|(k, _)| matches!(k, IDENT | STRING))?;
            Some(name.1.to_string())
        });
        class_mistakes::Context {
            newline: if line.newline.is_empty() { "\n" } else { line.newline },
            last_class,
            known: &self.class_names,
        }
    }

    /// A recognised mistake: one error statement holding the whole line,
    /// the diagnostic on the mistake's own span, with its repair.
    fn report_mistake(&mut self, line: &Line<'a>, mistake: Mistake) {
        let range = self.range(line, mistake.start, mistake.end);
        let mut diagnostic = Diagnostic::error(mistake.code, range, mistake.message);
        if let Some(repair) = mistake.repair {
            let edits = repair
                .edits
                .into_iter()
                .map(|(start, end, text)| TextEdit::replace(self.range(line, start, end), text))
                .collect();
            diagnostic = if repair.applicable {
                diagnostic.with_fix(repair.title, edits)
            } else {
                diagnostic.with_suggestion(repair.title, edits)
            };
        }
        self.builder.start_node(ERROR_STATEMENT.into());
        self.error(diagnostic);
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.error_to_end();
        self.emit_line(line, lx);
        // A declaration that opens a body keeps its body (members, and
        // the `}` that is no stray close), as the repaired line will.
        if line.content.trim_end().ends_with('{') {
            if let Some(end) = self.find_block_end(|l| l == "}") {
                self.emit_body(end);
                self.emit_block_end(end);
                self.pos = end + 1;
            }
        }
        self.builder.finish_node();
    }

    /// A line the class reading does not know.
    fn class_unknown(&mut self, line: &Line<'a>, word: &str) {
        let context = self.mistake_context(line);
        if let Some(mistake) = class_mistakes::recognise(line.content, &context) {
            return self.report_mistake(line, mistake);
        }
        let message = if MIXING_KEYWORDS.contains(&word) && !self.class_mixing {
            format!("`{word}` is no element of a class diagram; write `allowmixing` before it to mix classes with other UML elements")
        } else {
            "this line is not a statement of a class diagram".to_string()
        };
        self.unread_line(line, message);
    }

    /// A line a diagram kind's reading (class, description, state) does not
    /// take: one error statement holding the whole line, with `message`.
    pub(crate) fn unread_line(&mut self, line: &Line<'a>, message: String) {
        self.builder.start_node(ERROR_STATEMENT.into());
        let range = self.line_range(line);
        self.error(Diagnostic::error(codes::SYNTAX_ERROR, range, message));
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.error_to_end();
        self.emit_line(line, lx);
        self.builder.finish_node();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(pieces: &Pieces, text: &str) -> Vec<(SyntaxKind, String)> {
        pieces.iter().map(|&(k, s, e)| (k, text[s..e].to_string())).collect()
    }

    #[test]
    fn links_split_into_ends_labels_and_arrow() {
        let text = "A \"1\" *-- \"many\" B : owns >";
        let pieces = scan_link(text).unwrap();
        assert_eq!(
            kinds(&pieces, text),
            vec![
                (IDENT, "A".into()),
                (STRING, "\"1\"".into()),
                (ARROW, "*--".into()),
                (STRING, "\"many\"".into()),
                (IDENT, "B".into()),
                (COLON, ":".into()),
                (TEXT, "owns >".into()),
            ]
        );
        for ok in [
            "A <|-- B",
            "A --|> B",
            "A ..> B",
            "A o-- B",
            "A --o B",
            "A -up-> B",
            "A -[#red,dashed]-> B",
            "A }o--o{ B",
            "A |o--|| B",
            "(A, B) .. C",
            "a.b.C --> d::E",
            "A -- B",
            "A - B",
            "A ==> B",
            "A -[hidden]- B",
            "A --> \"x y\"",
        ] {
            assert!(scan_link(ok).is_some(), "{ok}");
        }
        for bad in ["A ~~> B", "[A] --> B", "A -> ", "A B", "(A) --> B"] {
            assert!(scan_link(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn declarations_read_names_generics_aliases_and_options() {
        let (pieces, opens) = scan_declaration("class Foo<T> as \"F\" <<S>> #pink {", 1, false).unwrap();
        assert!(opens == Opens::Body);
        assert_eq!(pieces.iter().filter(|p| p.0 == GENERIC).count(), 1);
        assert!(scan_declaration("class \"Long name\" as L", 1, false).is_some());
        assert!(scan_declaration("class A extends B implements C, D {", 1, false).is_some());
        assert!(scan_declaration("class A B", 1, false).is_none());
        // One side of `as` is the quoted display name.
        assert!(scan_declaration("class A as B", 1, false).is_none());
        // Stereotypes come before colours.
        assert!(scan_declaration("class A #pink <<S>>", 1, false).is_none());
    }
}
