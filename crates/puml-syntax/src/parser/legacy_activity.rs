//! Legacy activity diagrams: PlantUML's old activity grammar
//! (`(*) --> "First"`, `"First" -->[yes] "Second"`, `if "c" then` …
//! `else` … `endif`, `===B1===` bars, notes beside the last activity,
//! `partition P {` … `}`).
//!
//! PlantUML tries its diagram types in turn and keeps the first that reads
//! every line: the legacy activity reading comes after the sequence, class
//! and description ones. The parser tries it (see
//! `Parser::parse_diagram_by_trial`) on a block that neither of those reads
//! whole, and keeps it when it reads every line and makes at least one
//! link.
//!
//! The line grammar is the one `puml-sema`'s fallback recogniser was fitted
//! to (`other_kind.rs`: `activity_line`, and its widening
//! `other_kind/legacy_activity.rs`), fitted to PlantUML's verdicts by
//! `cargo xtask grammar-probe --legacy` and the real files of
//! `test-data/legacy-activity-real`: `[SOURCE] ARROW [[label]] TARGET`
//! with SOURCE left out for an arrow from the last activity, a branch after
//! an activity, `else`/`endif` of an open branch, notes placed by the last
//! activity, partitions, and the lines every kind shares. A test checks the
//! two readings agree on the grammar cases.
//!
//! Every line is read on its own with a few counters carried between
//! lines (links read, branches and partitions open): linear, no recursion.

use super::class::blanks;
use super::lexer::{first_word, trim_blanks_start};
use super::{Line, Parser};
use crate::{codes, Diagnostic, SyntaxKind, TextEdit};
use SyntaxKind::*;

/// Significant pieces of a line: `(kind, start, end)`, byte offsets into the
/// line's content, in order and disjoint.
type Pieces = Vec<(SyntaxKind, usize, usize)>;

/// What the legacy reading of the block being parsed has seen so far.
#[derive(Default)]
pub(crate) struct LegacyReading {
    /// Links read (an arrow without a source, a branch or a note needs one
    /// before it; a block without any is no legacy activity diagram).
    pub links: usize,
    /// `if`s read and not yet closed by `endif`.
    pub open_branches: usize,
    /// `partition P {` read and not yet closed by `}`.
    pub open_partitions: usize,
}

// ---------------------------------------------------------------- grammar
//
// The line grammar, a pure function of the line and the counters: the
// verdicts of the recogniser's `activity_line` (narrow) and its widening
// `refine`.

/// PlantUML reads an en dash (U+2013) as `-` wherever it stands.
const EN_DASH: char = '\u{2013}';

fn is_dash(c: char) -> bool {
    c == '-' || c == EN_DASH
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '/') || (!c.is_ascii() && c != EN_DASH)
}

/// The longest plain name at the start of `text` (letters, digits, `_`,
/// `.`, `$`, `/`, `::`, and `-` between name characters; one leading `-`).
fn scan_name(text: &str) -> (&str, &str) {
    let mut end = 0;
    if text.starts_with('-') && text[1..].chars().next().is_some_and(|c| c.is_alphanumeric()) {
        end = 1;
    }
    let mut chars = text[end..].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = end + i;
        if is_name_char(c) {
            continue;
        }
        let next = text[at + c.len_utf8()..].chars().next();
        let previous_is_name = at > 0 && text[..at].chars().next_back().is_some_and(is_name_char);
        if c == ':' && next == Some(':') && previous_is_name {
            chars.next();
            continue;
        }
        if is_dash(c) && previous_is_name && next.is_some_and(|n| n.is_alphanumeric() || n == '_') {
            continue;
        }
        return (&text[..at], &text[at..]);
    }
    (text, "")
}

fn direction_prefix(text: &str) -> Option<usize> {
    let len = text.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(text.len());
    if len == 0 {
        return None;
    }
    let word = text[..len].to_ascii_lowercase();
    ["up", "down", "left", "right"]
        .iter()
        .any(|d| d.starts_with(&word))
        .then_some(len)
}

/// A one-headed arrow of `body` characters (at most one direction word and
/// one `[style]` bracket, `>` at its right end): the rest.
fn one_headed_arrow(text: &str, body: char) -> Option<&str> {
    let mut rest = text;
    let is_line = |c: char| c == body;
    let trimmed = rest.trim_start_matches(is_line);
    let mut line_chars = rest.len() - trimmed.len();
    rest = trimmed;
    if line_chars == 0 {
        return None;
    }
    if let Some(word) = direction_prefix(rest) {
        rest = &rest[word..];
    }
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']')?;
        if after[..close].is_empty() || after[..close].contains(char::is_whitespace) {
            return None;
        }
        rest = &after[close + 1..];
    }
    let trimmed = rest.trim_start_matches(is_line);
    line_chars += rest.len() - trimmed.len();
    rest = trimmed;
    if line_chars == 0 {
        return None;
    }
    rest.strip_prefix('>')
}

fn is_position(word: &str) -> bool {
    ["left", "right", "top", "bottom"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(word))
}

/// `note left : text`: a one-line note beside the last activity.
fn one_line_note(line: &str) -> bool {
    let Some(rest) = line.get(4..).filter(|_| line[..4].eq_ignore_ascii_case("note")) else {
        return false;
    };
    let rest = rest.trim_start();
    let position_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    if !is_position(&rest[..position_len]) {
        return false;
    }
    rest[position_len..].trim_start().starts_with(':')
}

/// `note left` alone: a note block beside the last activity, up to `end note`.
fn note_block_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    matches!(words.as_slice(), [note, position] if note.eq_ignore_ascii_case("note") && is_position(position))
}

/// A quoted activity, `"text"` or `"text" as NAME`: the rest.
fn quoted_activity(text: &str) -> Option<&str> {
    let after = text.strip_prefix('"')?;
    let close = after.find('"')?;
    let quoted_end = &after[close + 1..];
    let rest = quoted_end.trim_start();
    let Some(alias) = rest.strip_prefix("as ").or_else(|| rest.strip_prefix("AS ")) else {
        return Some(quoted_end);
    };
    let (name, rest) = scan_name(alias.trim_start());
    (!name.is_empty()).then_some(rest)
}

/// The narrow reading's link: `[FROM] ARROW TARGET`, FROM a plain name
/// (without `::`), `(*)` or a quoted activity, TARGET nearly any text.
fn narrow_link(line: &str) -> bool {
    let rest = if let Some(rest) = line.strip_prefix("(*)") {
        rest
    } else if line.starts_with('"') {
        let Some(rest) = quoted_activity(line) else {
            return false;
        };
        rest
    } else {
        let (name, rest) = scan_name(line);
        if name.contains("::") {
            return false;
        }
        rest
    };
    let rest = rest.trim_start();
    let Some(body) = rest.chars().next().filter(|c| matches!(c, '-' | '.')) else {
        return false;
    };
    let Some(after) = one_headed_arrow(rest, body) else {
        return false;
    };
    if after.starts_with(['+', '-']) {
        return false;
    }
    let target = after.split(':').next().unwrap_or("").trim();
    if target.is_empty() || target.starts_with(['>', '<', '|', '[']) {
        return false;
    }
    if target.starts_with('(') && !target.starts_with("(*)") {
        return false;
    }
    if target.starts_with('"') {
        return quoted_activity(after.trim()).is_some_and(str::is_empty);
    }
    true
}

/// `if "condition" then`, `if condition then`, `if "condition"` (lower case).
fn is_branch(lower: &str) -> bool {
    let Some(rest) = lower.strip_prefix("if ") else {
        return false;
    };
    let rest = rest.trim();
    let rest = rest.strip_suffix("then").map_or(rest, str::trim_end);
    !rest.is_empty()
}

/// The widened reading's activity: `(*)`, `"text" [as NAME]`, a bar
/// `===B1===`, a plain name. The rest.
fn wide_activity(text: &str) -> Option<&str> {
    if let Some(rest) = text.strip_prefix("(*)") {
        return Some(rest);
    }
    if let Some(after) = text.strip_prefix("==") {
        let after = after.trim_start_matches('=');
        let close = after.find("==")?;
        let rest = after[close..].trim_start_matches('=');
        return (close > 0).then_some(rest);
    }
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        let rest = &after[close + 1..];
        let trimmed = rest.trim_start();
        if let Some(alias) = trimmed.strip_prefix("as ") {
            let alias = alias.trim_start();
            let end = alias
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(alias.len());
            return (end > 0).then(|| &alias[end..]);
        }
        return Some(rest);
    }
    if !text.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len());
    Some(&text[end..])
}

/// The widened reading's arrow: a run of `-` or `.` with a direction word
/// or a `[style]` bracket, and the `>` head. The rest.
fn wide_arrow(text: &str) -> Option<&str> {
    let body = text.chars().next().filter(|c| matches!(c, '-' | '.'))?;
    let mut rest = text.trim_start_matches(body);
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']')?;
        if after[..close].is_empty() || after[..close].contains(char::is_whitespace) {
            return None;
        }
        rest = &after[close + 1..];
    } else {
        let len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let word = rest[..len].to_ascii_lowercase();
        if len > 0 && ["up", "down", "left", "right"].iter().any(|d| d.starts_with(&word)) {
            rest = &rest[len..];
        }
    }
    rest.trim_start_matches(body).strip_prefix('>')
}

/// The widened reading's link: `[SOURCE] ARROW [[label]] TARGET [#colour]
/// [<<s>>]`, SOURCE left out after an activity, TARGET a branch too.
fn wide_link(line: &str, after_activity: bool) -> bool {
    let rest = match wide_activity(line) {
        Some(rest) => rest.trim_start(),
        None if after_activity && line.starts_with(['-', '.']) => line,
        None => return false,
    };
    let Some(rest) = wide_arrow(rest) else {
        return false;
    };
    let rest = match rest.trim_start().strip_prefix('[') {
        Some(after) => match after.find(']') {
            Some(close) if close > 0 => &after[close + 1..],
            _ => return false,
        },
        None => rest,
    };
    if is_branch(&rest.trim().to_ascii_lowercase()) {
        return true;
    }
    let rest = rest.trim_start();
    let rest = if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        &rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..]
    } else {
        match wide_activity(rest) {
            Some(rest) => rest,
            None => return false,
        }
    };
    let mut rest = rest.trim_start();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<<") {
            let Some(close) = after.find(">>") else {
                return false;
            };
            rest = after[close + 2..].trim_start();
        } else if rest.starts_with('#') {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end < 2 {
                return false;
            }
            rest = rest[end..].trim_start();
        } else {
            return false;
        }
    }
    true
}

/// `partition P {`, `partition "Long name" #pink {`.
fn partition_header(line: &str) -> bool {
    let Some(head) = line.strip_suffix('{') else {
        return false;
    };
    let mut words = head.split_whitespace();
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("partition")) && words.next().is_some()
}

/// `scale 1.5`, `scale 200 width`, `scale 800*600`, `scale max 500*600`:
/// PlantUML's scale command (as `puml-sema`'s `Scale::parse` reads it).
fn is_scale(words: &[&str]) -> bool {
    let words = &words[1..];
    let (max, words) = match words.split_first() {
        Some((first, rest)) if first.eq_ignore_ascii_case("max") => (true, rest),
        _ => (false, words),
    };
    let number = |w: &str| w.parse::<f64>().is_ok_and(|v| v.is_finite() && v > 0.0);
    let size = |w: &str| w.split_once('*').is_some_and(|(a, b)| number(a) && number(b));
    match words {
        [one] if !max => {
            if let Some((a, b)) = one.split_once('/') {
                return number(a) && number(b) && (a.parse::<f64>().unwrap_or(0.0) / b.parse::<f64>().unwrap_or(1.0)).is_finite();
            }
            if one.contains('*') {
                return size(one);
            }
            number(one)
        }
        [one] => size(one),
        [n, unit] => (unit.eq_ignore_ascii_case("width") || unit.eq_ignore_ascii_case("height")) && number(n),
        _ => false,
    }
}

/// What a line of a legacy activity block is, by the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineForm {
    /// A line every kind shares (title, skinparam, `hide`, …), read by the
    /// shared statement parser.
    Shared,
    /// `left to right direction`, `set namespaceSeparator x`.
    Option,
    Link,
    Branch,
    Else,
    Endif,
    OneLineNote,
    NoteBlock,
    Partition,
    PartitionEnd,
}

/// The grammar's verdict on one line (trimmed, not blank, no comment):
/// its form, or `None` when PlantUML's legacy reading stops there.
fn line_form(line: &str, reading: &LegacyReading) -> Option<LineForm> {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
    let after_activity = reading.links > 0;
    // The multi-line forms every reading takes.
    if lower == "legend" || lower.starts_with("legend ") || matches!(lower.as_str(), "title" | "header" | "footer") {
        return Some(LineForm::Shared);
    }
    if lower.starts_with("skinparam ") && line.ends_with('{') {
        return Some(LineForm::Shared);
    }
    if note_block_header(line) {
        return Some(LineForm::NoteBlock);
    }
    if line == "}" {
        return (reading.open_partitions > 0).then_some(LineForm::PartitionEnd);
    }
    if partition_header(line) {
        return Some(LineForm::Partition);
    }
    // Preprocessor lines (the reading sees the expanded text).
    if line.starts_with('!') {
        return Some(LineForm::Shared);
    }
    // The lines every reading shares.
    match (first.as_str(), words.len()) {
        ("remove", _) => return None,
        ("title" | "header" | "footer" | "caption" | "mainframe", 2..)
        | ("skinparam", 3..)
        | ("hide" | "show", 2..) => return Some(LineForm::Shared),
        ("scale", 2..) if is_scale(&words) => return Some(LineForm::Shared),
        ("set", 3) if words[1] == "namespaceSeparator" => return Some(LineForm::Option),
        ("left", 4) | ("top", 4) if line == "left to right direction" || line == "top to bottom direction" => {
            return Some(LineForm::Option)
        }
        _ => {}
    }
    if first == "note" && after_activity && one_line_note(line) {
        return Some(LineForm::OneLineNote);
    }
    if first != "note" && !(line.starts_with(['-', '.']) && !after_activity) && narrow_link(line) {
        return Some(LineForm::Link);
    }
    if after_activity && is_branch(&lower) {
        return Some(LineForm::Branch);
    }
    if lower == "else" && reading.open_branches > 0 {
        return Some(LineForm::Else);
    }
    if lower == "endif" && reading.open_branches > 0 {
        return Some(LineForm::Endif);
    }
    wide_link(line, after_activity).then_some(LineForm::Link)
}

// ---------------------------------------------------------------- pieces

/// Pushes the words of `text[from..to]` as pieces: `#colour` as `COLOR`,
/// `<<s>>` as `STEREOTYPE`, anything else as `TEXT`.
fn push_words(text: &str, from: usize, to: usize, pieces: &mut Pieces) {
    let mut pos = blanks(text, from).min(to);
    while pos < to {
        let end = text[pos..to].find(char::is_whitespace).map_or(to, |e| pos + e);
        let word = &text[pos..end];
        let kind = if word.starts_with('#') && word.len() > 1 {
            COLOR
        } else if word.starts_with("<<") && word.ends_with(">>") && word.len() >= 4 {
            STEREOTYPE
        } else {
            TEXT
        };
        pieces.push((kind, pos, end));
        pos = blanks(text, end).min(to);
    }
}

/// An activity at `pos`: its pieces and end, or `None` when none starts
/// there. `as_target`: a plain name runs to the line's trailing colours
/// and stereotypes (PlantUML draws `--> browser  serve the box` as one
/// activity), else to a blank or the arrow.
fn activity_pieces(text: &str, pos: usize, end: usize, as_target: bool, pieces: &mut Pieces) -> Option<usize> {
    let rest = &text[pos..end];
    if rest.starts_with("(*)") {
        pieces.push((KEYWORD, pos, pos + 3));
        return Some(pos + 3);
    }
    if rest.starts_with("==") {
        let after = rest.trim_start_matches('=');
        let close = after.find('=')?;
        let bar_end = end - after[close..].trim_start_matches('=').len();
        pieces.push((IDENT, pos, bar_end));
        return Some(bar_end);
    }
    if let Some(after) = rest.strip_prefix('"') {
        let close = after.find('"')?;
        let quoted_end = pos + close + 2;
        pieces.push((STRING, pos, quoted_end));
        let at = blanks(text, quoted_end);
        if at < end && text[at..end].len() > 2 && text[at..at + 2].eq_ignore_ascii_case("as") {
            let alias_at = blanks(text, at + 2);
            if alias_at > at + 2 {
                let alias = &text[alias_at..end];
                let alias_len = alias
                    .find(|c: char| !(is_name_char(c) || c == ':'))
                    .unwrap_or(alias.len());
                if alias_len > 0 {
                    pieces.push((KEYWORD, at, at + 2));
                    pieces.push((IDENT, alias_at, alias_at + alias_len));
                    return Some(alias_at + alias_len);
                }
            }
        }
        return Some(quoted_end);
    }
    if as_target {
        // The name runs to the trailing `#colour` and `<<s>>` words.
        let mut name_end = end;
        loop {
            let head = text[pos..name_end].trim_end();
            let Some(space) = head.rfind(char::is_whitespace) else {
                break;
            };
            let last = &head[space + 1..];
            if (last.starts_with('#') && last.len() > 1) || (last.starts_with("<<") && last.ends_with(">>")) {
                name_end = pos + space;
            } else {
                break;
            }
        }
        let name_end = pos + text[pos..name_end].trim_end().len();
        if name_end == pos {
            return None;
        }
        pieces.push((TEXT, pos, name_end));
        return Some(name_end);
    }
    let (name, _) = scan_name(rest);
    let name_len = if name.is_empty() {
        rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len())
    } else {
        name.len()
    };
    if name_len == 0 {
        return None;
    }
    pieces.push((IDENT, pos, pos + name_len));
    Some(pos + name_len)
}

/// The end of an arrow at `pos` (`-->`, `-up->`, `-[#red]->`, `..>`).
fn arrow_end(text: &str, pos: usize) -> Option<usize> {
    let rest = &text[pos..];
    let body = rest.chars().next().filter(|c| matches!(c, '-' | '.'))?;
    let mut at = rest.trim_start_matches(body);
    if let Some(word) = direction_prefix(at) {
        at = &at[word..];
    }
    if let Some(after) = at.strip_prefix('[') {
        at = &after[after.find(']')? + 1..];
    }
    let at = at.trim_start_matches(body).strip_prefix('>')?;
    Some(text.len() - at.len())
}

/// A link line's pieces: source, arrow, label, target, decorations.
fn link_pieces(text: &str) -> Pieces {
    let end = text.trim_end().len();
    let start = blanks(text, 0);
    let mut pieces = Vec::new();
    let cut = (|| {
        let mut pos = start;
        if !text[pos..].starts_with(['-', '.']) {
            pos = activity_pieces(text, pos, end, false, &mut pieces)?;
            pos = blanks(text, pos);
        }
        let arrow = arrow_end(text, pos)?;
        pieces.push((ARROW, pos, arrow));
        pos = blanks(text, arrow);
        if text[pos..end].starts_with('[') {
            let close = pos + text[pos..end].find(']')?;
            pieces.push((L_BRACKET, pos, pos + 1));
            let inner = blanks(text, pos + 1);
            let inner_end = pos + 1 + text[pos + 1..close].trim_end().len();
            if inner_end > inner {
                pieces.push((TEXT, inner, inner_end));
            }
            pieces.push((R_BRACKET, close, close + 1));
            pos = blanks(text, close + 1);
        }
        if pos >= end {
            return None;
        }
        if text[pos..end].len() > 3 && text[pos..pos + 3].eq_ignore_ascii_case("if ") {
            branch_pieces(text, pos, end, &mut pieces);
            return Some(());
        }
        pos = activity_pieces(text, pos, end, true, &mut pieces)?;
        push_words(text, pos, end, &mut pieces);
        Some(())
    })();
    if cut.is_none() {
        // The grammar read the line: this cut never fails on it, but a
        // line is kept whole rather than lost if it does.
        pieces.clear();
        if end > start {
            pieces.push((TEXT, start, end));
        }
    }
    pieces
}

/// `if "condition" then` from `pos`: `if`, the condition, `then`.
fn branch_pieces(text: &str, pos: usize, end: usize, pieces: &mut Pieces) {
    pieces.push((KEYWORD, pos, pos + 2));
    let cond_start = blanks(text, pos + 2);
    let mut cond_end = end;
    let head = &text[cond_start..end];
    let then_at = head.len().checked_sub(4).filter(|&at| {
        head.is_char_boundary(at)
            && head[at..].eq_ignore_ascii_case("then")
            && (at == 0 || head[..at].ends_with(char::is_whitespace) || head[..at].ends_with('"'))
    });
    if let Some(at) = then_at {
        cond_end = cond_start + head[..at].trim_end().len();
    }
    if cond_end > cond_start {
        let cond = &text[cond_start..cond_end];
        let kind = if cond.len() >= 2 && cond.starts_with('"') && cond.ends_with('"') {
            STRING
        } else {
            TEXT
        };
        pieces.push((kind, cond_start, cond_end));
    }
    if let Some(at) = then_at {
        pieces.push((KEYWORD, cond_start + at, cond_start + at + 4));
    }
}

/// `note left: text`, `note right`: keyword, side, colon, text.
fn note_pieces(text: &str) -> Pieces {
    let end = text.trim_end().len();
    let start = blanks(text, 0);
    let mut pieces = vec![(KEYWORD, start, start + 4)];
    let side = blanks(text, start + 4);
    let side_end = side
        + text[side..]
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(end - side);
    pieces.push((KEYWORD, side, side_end));
    let colon = blanks(text, side_end);
    if colon < end && text[colon..].starts_with(':') {
        pieces.push((COLON, colon, colon + 1));
        let label = blanks(text, colon + 1);
        if end > label {
            pieces.push((TEXT, label, end));
        }
    } else {
        push_words(text, colon, end, &mut pieces);
    }
    pieces
}

/// `partition "Long" #pink {`: keyword, name, colour, `{`.
fn partition_pieces(text: &str) -> Pieces {
    let end = text.trim_end().len();
    let start = blanks(text, 0);
    let mut pieces = vec![(KEYWORD, start, start + "partition".len())];
    let brace = end - 1;
    let mut pos = blanks(text, start + "partition".len());
    if text[pos..brace].starts_with('"') {
        if let Some(close) = text[pos + 1..brace].find('"') {
            pieces.push((STRING, pos, pos + close + 2));
            pos = pos + close + 2;
        }
    }
    push_words(text, pos, brace, &mut pieces);
    // `push_words` took a word glued to the brace up to it.
    pieces.push((L_BRACE, brace, end));
    pieces
}

/// Words as keywords (`else`, `endif`, `}`, `left to right direction`).
fn word_pieces(text: &str, kind: SyntaxKind) -> Pieces {
    let end = text.trim_end().len();
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    while pos < end {
        let word_end = text[pos..end].find(char::is_whitespace).map_or(end, |e| pos + e);
        pieces.push((kind, pos, word_end));
        pos = blanks(text, word_end);
    }
    pieces
}

impl<'a> Parser<'a> {
    /// Prepares the legacy reading of a block.
    pub(crate) fn start_legacy_reading(&mut self) {
        self.legacy = LegacyReading::default();
    }

    pub(crate) fn parse_legacy_statement(&mut self) {
        let line = self.lines[self.pos];
        if self.take_comment_or_blank(&line) {
            return;
        }
        let lines_before = self.pos;
        let trimmed = trim_blanks_start(line.content);
        let text = trimmed.trim_end();
        let Some(form) = line_form(text, &self.legacy) else {
            self.unread_line(&line, "this line is not a statement of a legacy activity diagram".to_string());
            self.pos += 1;
            return;
        };
        let content = line.content;
        match form {
            LineForm::Shared => {
                let word = first_word(content);
                self.keyword_statement(&line, &word, trimmed);
            }
            LineForm::Option => {
                // `set namespaceSeparator ::` keeps its case (a formatter
                // lower-cases keywords).
                let kind = if text.starts_with("set") { TEXT } else { KEYWORD };
                self.legacy_pieces(&line, LEGACY_OPTION, &word_pieces(content, kind))
            }
            LineForm::Link => {
                self.legacy.links += 1;
                let pieces = link_pieces(content);
                // `--> if "c" then`: the target is a new branch.
                if pieces
                    .iter()
                    .any(|&(k, s, e)| k == KEYWORD && content[s..e].eq_ignore_ascii_case("if"))
                {
                    self.legacy.open_branches += 1;
                }
                self.legacy_pieces(&line, LEGACY_LINK, &pieces);
            }
            LineForm::Branch => {
                self.legacy.open_branches += 1;
                let mut pieces = Vec::new();
                let start = blanks(content, 0);
                branch_pieces(content, start, content.trim_end().len(), &mut pieces);
                self.legacy_pieces(&line, LEGACY_IF, &pieces);
            }
            LineForm::Else => self.legacy_pieces(&line, LEGACY_ELSE, &word_pieces(content, KEYWORD)),
            LineForm::Endif => {
                self.legacy.open_branches -= 1;
                self.legacy_pieces(&line, LEGACY_ENDIF, &word_pieces(content, KEYWORD))
            }
            LineForm::OneLineNote => self.legacy_pieces(&line, LEGACY_NOTE, &note_pieces(content)),
            LineForm::NoteBlock => self.legacy_note_block(&line),
            LineForm::Partition => {
                self.legacy.open_partitions += 1;
                self.legacy_pieces(&line, LEGACY_PARTITION, &partition_pieces(content))
            }
            LineForm::PartitionEnd => {
                self.legacy.open_partitions -= 1;
                self.legacy_pieces(&line, BRACE_END, &word_pieces(content, R_BRACE))
            }
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    /// Emits a line as `pieces` with the blanks between them.
    fn legacy_pieces(&mut self, line: &Line<'a>, kind: SyntaxKind, pieces: &Pieces) {
        self.builder.start_node(kind.into());
        self.legacy_line(line, pieces);
        self.builder.finish_node();
    }

    /// A line's tokens: `pieces`, whitespace between them, an error token
    /// for anything they leave out (they leave out nothing but blanks).
    fn legacy_line(&mut self, line: &Line<'a>, pieces: &Pieces) {
        let mut lx = self.lexer(line.content);
        for &(piece, start, end) in pieces {
            if start > lx.pos {
                let gap = &line.content[lx.pos..start];
                let k = if gap.trim().is_empty() { WHITESPACE } else { ERROR_TOKEN };
                lx.push(k, start - lx.pos);
            }
            lx.push(piece, end - start);
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

    /// `note left` … `end note`: the header, the body, the end line.
    fn legacy_note_block(&mut self, line: &Line<'a>) {
        self.builder.start_node(LEGACY_NOTE.into());
        let pieces = note_pieces(line.content);
        self.legacy_line(line, &pieces);
        match self.find_block_end(|l| l == "end note" || l == "endnote") {
            Some(end) => {
                self.emit_body(end);
                self.emit_block_end(end);
                self.pos = end + 1;
            }
            None => {
                let range = self.line_range(line);
                let end = (self.pos..self.lines.len())
                    .find(|&i| trim_blanks_start(self.lines[i].content).starts_with("@end"))
                    .map_or(self.text.len(), |i| self.lines[i].start);
                self.error(
                    Diagnostic::error(
                        codes::UNCLOSED_BLOCK,
                        range,
                        "this note is never closed: end it with `end note`",
                    )
                    .with_fix(
                        "Close the note at the end of the diagram",
                        vec![TextEdit::insert(crate::TextSize::from(end as u32), "end note\n")],
                    ),
                );
            }
        }
        self.builder.finish_node();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DiagramKind;

    fn kinds(pieces: &Pieces, text: &str) -> Vec<(SyntaxKind, String)> {
        pieces.iter().map(|&(k, s, e)| (k, text[s..e].to_string())).collect()
    }

    #[test]
    fn links_split_into_source_arrow_label_and_target() {
        let text = "\"First\" as f -up[#red]->[yes] \"Second\" #pink <<s>>";
        assert_eq!(
            kinds(&link_pieces(text), text),
            vec![
                (STRING, "\"First\"".into()),
                (KEYWORD, "as".into()),
                (IDENT, "f".into()),
                (ARROW, "-up[#red]->".into()),
                (L_BRACKET, "[".into()),
                (TEXT, "yes".into()),
                (R_BRACKET, "]".into()),
                (STRING, "\"Second\"".into()),
                (COLOR, "#pink".into()),
                (STEREOTYPE, "<<s>>".into()),
            ]
        );
        let text = "  --> browser  serve the box #pink";
        assert_eq!(
            kinds(&link_pieces(text), text),
            vec![
                (ARROW, "-->".into()),
                (TEXT, "browser  serve the box".into()),
                (COLOR, "#pink".into()),
            ]
        );
        let text = "(*) --> if \"t\" then";
        assert_eq!(
            kinds(&link_pieces(text), text),
            vec![
                (KEYWORD, "(*)".into()),
                (ARROW, "-->".into()),
                (KEYWORD, "if".into()),
                (STRING, "\"t\"".into()),
                (KEYWORD, "then".into()),
            ]
        );
        let text = "===B1=== --> (*)";
        assert_eq!(
            kinds(&link_pieces(text), text),
            vec![(IDENT, "===B1===".into()), (ARROW, "-->".into()), (KEYWORD, "(*)".into())]
        );
    }

    #[test]
    fn the_grammar_reads_the_legacy_forms_and_refuses_near_misses() {
        let after = |links| LegacyReading {
            links,
            open_branches: 1,
            open_partitions: 0,
        };
        for line in [
            "-->[ok] \"Second\"",
            "..> (*)",
            "(*) --> ===B1===",
            "-[#red]->[x] \"B\"",
            "(*) --> \"A\" <<s>>",
            "if \"c\" then",
            "else",
            "endif",
            "--> queue.enqueue(null)",
            "===B2=== --> \"S\" as c1.1",
            "(*) --> if \"t\" then",
            "note right: hello",
            "note left",
            "A -> B hi",
        ] {
            assert!(line_form(line, &after(1)).is_some(), "{line}");
        }
        for (line, links) in [
            ("--> \"A\"", 0),
            ("if \"c\" then", 0),
            ("(*) -->", 0),
            ("foo bar", 1),
            ("-->[] \"B\"", 1),
            ("note right of A", 1),
            ("<style>", 1),
            ("}", 1),
        ] {
            assert_eq!(line_form(line, &after(links)), None, "{line}");
        }
    }

    #[test]
    fn a_block_only_the_legacy_reading_reads_is_one() {
        for (text, kind) in [
            (
                "@startuml\n(*) --> \"First\"\nif \"c\" then\n-->[yes] \"A\"\nelse\n--> (*)\nendif\n@enduml\n",
                DiagramKind::LegacyActivity,
            ),
            (
                "@startuml\npartition P {\n(*) --> ===B1===\n}\nnote left\n  n\nend note\n@enduml\n",
                DiagramKind::LegacyActivity,
            ),
            // A sequence diagram stays one.
            ("@startuml\nA -> B : hi\n@enduml\n", DiagramKind::Sequence),
            // A line no legacy diagram has: not one.
            ("@startuml\n(*) --> \"A\"\nfoo bar baz\n@enduml\n", DiagramKind::Sequence),
        ] {
            let parse = crate::parse(text);
            assert_eq!(parse.diagram_kinds(), &[kind], "{text}");
            assert_eq!(parse.syntax().to_string(), text);
            if kind == DiagramKind::LegacyActivity {
                assert!(parse.errors().is_empty(), "{text}: {:?}", parse.errors());
            }
        }
    }

    #[test]
    fn an_edit_that_makes_a_block_a_legacy_diagram_reparses_it_whole() {
        let old = "@startuml\n(*) --> \"A\"\nfoo bar baz\n@enduml\n";
        let new = "@startuml\n(*) --> \"A\"\n\"A\" --> (*)\n@enduml\n";
        let parsed = crate::parse(old);
        let reparsed = parsed.reparse(old, new);
        assert_eq!(reparsed, crate::parse(new));
        assert_eq!(reparsed.diagram_kinds(), &[DiagramKind::LegacyActivity]);
    }
}
