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
    /// A `}` closed no partition: PlantUML reads no activity after it.
    pub closed_root: bool,
}

// ---------------------------------------------------------------- grammar
//
// The line grammar, a pure function of the line and the counters, fitted to
// PlantUML 1.2026.8's verdicts on the generated cases of
// `test-data/grammar/legacy/cases.tsv` (each line form after an activity,
// before any, inside a branch).

/// Whether `text` starts with `prefix`, ASCII case ignored (never cut
/// inside a character).
fn starts_with_ci(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

fn is_position(word: &str) -> bool {
    ["left", "right", "top", "bottom"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(word))
}

/// A direction word at the start of `text` (a prefix of `up`, `down`,
/// `left`, `right`, any case): its length.
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

fn is_body(c: char) -> bool {
    c == '-' || c == '.'
}

/// An arrow at the start of `text`: a run of `-` and `.`, an optional
/// direction word, an optional `[style]` (not empty, no blanks), a run of
/// `-` and `.`, and `>`. Its length.
fn arrow_len(text: &str) -> Option<usize> {
    let rest = text.trim_start_matches(is_body);
    if rest.len() == text.len() {
        return None;
    }
    let mut rest = rest;
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
    let rest = rest.trim_start_matches(is_body).strip_prefix('>')?;
    Some(text.len() - rest.len())
}

/// A plain activity name: letters, digits, `_`, `.`. Its length.
fn plain_name_len(text: &str) -> usize {
    text.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len())
}

/// A bar `==B1==` (at least two `=` each side of a name): its length.
fn bar_len(text: &str) -> Option<usize> {
    let after = text.strip_prefix("==")?.trim_start_matches('=');
    let close = after.find('=')?;
    if after[..close].trim().is_empty() {
        return None;
    }
    let tail = &after[close..];
    let run = tail.len() - tail.trim_start_matches('=').len();
    (run >= 2).then(|| text.len() - tail.len() + run)
}

/// `(*)` or `(*top)`: its length.
fn star_len(text: &str) -> Option<usize> {
    ["(*)", "(*top)"]
        .into_iter()
        .find(|s| text.starts_with(s))
        .map(str::len)
}

/// A quoted activity, `"text"` or `"text" as NAME`: its length.
fn quoted_len(text: &str) -> Option<usize> {
    let after = text.strip_prefix('"')?;
    let close = after.find('"')? + 2;
    let rest = &text[close..];
    let trimmed = rest.trim_start();
    if starts_with_ci(trimmed, "as") && trimmed[2..].starts_with(char::is_whitespace) {
        let alias = trimmed[2..].trim_start();
        let len = plain_name_len(alias);
        if len == 0 {
            return None;
        }
        return Some(text.len() - alias.len() + len);
    }
    Some(close)
}

/// A link's source: `(*)`, `(*top)`, a quoted activity, a bar, a plain name.
fn source_len(text: &str) -> Option<usize> {
    if let Some(len) = star_len(text) {
        return Some(len);
    }
    if text.starts_with('"') {
        return quoted_len(text);
    }
    if text.starts_with("==") {
        return bar_len(text);
    }
    let len = plain_name_len(text);
    (len > 0).then_some(len)
}

/// Only `#colour` and `<<stereotype>>` words in `text`.
fn only_decorations(text: &str) -> bool {
    text.split_whitespace().all(|word| {
        (word.starts_with('#') && word.len() > 1) || (word.starts_with("<<") && word.ends_with(">>") && word.len() >= 4)
    })
}

/// A link's target: a branch `if …`, or `(*)`, a quoted activity or a bar
/// followed by decorations only, or a plain name followed by any text
/// (PlantUML draws `--> browser  serve the box` and `--> A : b` as one
/// activity each).
fn target_reads(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("if ") || lower == "if" {
        return true;
    }
    // A plain name takes any text after it.
    if text.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return true;
    }
    let fixed = if text.starts_with('"') {
        quoted_len(text)
    } else if text.starts_with('=') {
        bar_len(text)
    } else {
        star_len(text)
    };
    fixed.is_some_and(|len| only_decorations(&text[len..]))
}

/// `[SOURCE] ARROW [[label]] TARGET`: SOURCE left out for an arrow from
/// the last activity (`has_last`).
fn link_reads(line: &str, has_last: bool) -> bool {
    let rest = if line.starts_with(is_body) {
        if !has_last {
            return false;
        }
        line
    } else {
        match source_len(line) {
            Some(len) => line[len..].trim_start(),
            None => return false,
        }
    };
    let Some(arrow) = arrow_len(rest) else {
        return false;
    };
    // `->+`, `->-`: a sequence activation glued to the head.
    if rest[arrow..].starts_with(['+', '-']) {
        return false;
    }
    let mut rest = rest[arrow..].trim_start();
    if let Some(after) = rest.strip_prefix('[') {
        let Some(close) = after.find(']') else {
            return false;
        };
        if close == 0 {
            return false;
        }
        rest = after[close + 1..].trim_start();
    }
    !rest.is_empty() && target_reads(rest)
}

/// `note left: text`, `note right #pink : text`, `note on link: text`;
/// `note left` alone opens a block. `(one_line, on_link)` when it is one.
fn note_form(line: &str) -> Option<(bool, bool)> {
    let rest = line.get(4..).filter(|_| line[..4].eq_ignore_ascii_case("note"))?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let (head, one_line) = match rest.find(':') {
        Some(colon) => (&rest[..colon], true),
        None => (rest, false),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    match words.as_slice() {
        [on, link] if on.eq_ignore_ascii_case("on") && link.eq_ignore_ascii_case("link") => Some((one_line, true)),
        [side, colors @ ..] if is_position(side) && colors.iter().all(|c| c.starts_with('#') && c.len() > 1) => {
            Some((one_line, false))
        }
        _ => None,
    }
}

/// `if "condition" then`, `if c`, `if then` (lower case).
fn is_branch(lower: &str) -> bool {
    lower.starts_with("if ") && !lower[3..].trim().is_empty()
}

/// `scale 1.5`, `scale 2/3`, `scale 200 width`, `scale 800*600`,
/// `scale 800 x 600`, `scale max 500*600`, `scale max 800 width`:
/// PlantUML's scale commands, which every diagram type reads (`words` is
/// the line split at blanks, `scale` first). Fitted to the oracle: a factor
/// may be negative (`scale -1`), never zero, and is digits and dots (no
/// exponent); `scale 2 3`, `scale max 800`, `scale 5 x` are refused.
pub(crate) fn is_scale(words: &[&str]) -> bool {
    let rest = words.get(1..).unwrap_or_default().join(" ");
    let rest = rest.trim();
    let digits = |w: &str| {
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.') && w.contains(|c: char| c.is_ascii_digit())
    };
    let nonzero = |w: &str| digits(w) && w.parse::<f64>().ok().is_none_or(|v| v != 0.0);
    // `A*B`, `A x B`, `AXB`, blanks optional around the sign.
    let size = |text: &str| {
        text.split_once(['*', 'x', 'X'])
            .is_some_and(|(a, b)| digits(a.trim()) && digits(b.trim()))
    };
    let unit = |w: &str| w.eq_ignore_ascii_case("width") || w.eq_ignore_ascii_case("height");
    let parts: Vec<&str> = rest.split_whitespace().collect();
    if parts.first().is_some_and(|w| w.eq_ignore_ascii_case("max")) {
        let after = rest[3..].trim();
        return match after.split_whitespace().collect::<Vec<_>>().as_slice() {
            [n, u] if unit(u) => digits(n),
            _ => size(after),
        };
    }
    match parts.as_slice() {
        [n, u] if unit(u) => digits(n),
        _ if rest.contains('/') => rest
            .split_once('/')
            .is_some_and(|(a, b)| nonzero(a.trim()) && nonzero(b.trim())),
        [one] if one.contains(['*', 'x', 'X']) => size(one),
        [one] => nonzero(one.strip_prefix('-').unwrap_or(one)),
        _ => size(rest),
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
    /// `else`, `else if "c" then`.
    Else,
    /// `endif`, `end if`.
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
    // The multi-line forms every reading takes.
    if lower == "legend" || lower.starts_with("legend ") || matches!(lower.as_str(), "title" | "header" | "footer") {
        return Some(LineForm::Shared);
    }
    if lower.starts_with("skinparam ") && line.ends_with('{') {
        return Some(LineForm::Shared);
    }
    if line == "}" {
        return Some(LineForm::PartitionEnd);
    }
    if first == "partition" {
        return Some(LineForm::Partition);
    }
    // Preprocessor lines (the reading sees the expanded text).
    if line.starts_with('!') {
        return Some(LineForm::Shared);
    }
    // The lines every reading shares.
    match (first.as_str(), words.len()) {
        ("title" | "header" | "footer" | "caption" | "mainframe", 2..)
        | ("skinparam", 3..)
        | ("hide" | "show", 2..) => return Some(LineForm::Shared),
        ("scale", 2..) if is_scale(&words) => return Some(LineForm::Shared),
        ("set", 3) if words[1] == "namespaceSeparator" => return Some(LineForm::Option),
        ("left", 4) | ("top", 4) if lower == "left to right direction" || lower == "top to bottom direction" => {
            return Some(LineForm::Option)
        }
        _ => {}
    }
    // After a `}` that closed no partition, PlantUML reads no more
    // activities.
    let readable = !reading.closed_root;
    if first == "note" {
        let (one_line, on_link) = note_form(line)?;
        if on_link && (!one_line || reading.links == 0) {
            return None;
        }
        return match one_line {
            true => Some(LineForm::OneLineNote),
            false => Some(LineForm::NoteBlock),
        };
    }
    if lower == "else" {
        return (reading.open_branches > 0).then_some(LineForm::Else);
    }
    if lower.starts_with("else ") && is_branch(lower[5..].trim_start()) {
        return Some(LineForm::Else);
    }
    if lower == "endif" || (words.len() == 2 && first == "end" && words[1].eq_ignore_ascii_case("if")) {
        return (reading.open_branches > 0).then_some(LineForm::Endif);
    }
    if is_branch(&lower) {
        return (readable && reading.links > 0).then_some(LineForm::Branch);
    }
    (readable && link_reads(line, reading.links > 0)).then_some(LineForm::Link)
}

/// What reading a line of `form` changes in the counters.
fn advance(reading: &mut LegacyReading, form: LineForm, text: &str) {
    match form {
        LineForm::Link => {
            reading.links += 1;
            // `--> if "c" then`: the target is a new branch.
            if link_opens_branch(text) {
                reading.open_branches += 1;
            }
        }
        LineForm::Branch => reading.open_branches += 1,
        LineForm::Endif => reading.open_branches = reading.open_branches.saturating_sub(1),
        LineForm::Partition if text.ends_with('{') => reading.open_partitions += 1,
        LineForm::PartitionEnd => match reading.open_partitions.checked_sub(1) {
            Some(open) => reading.open_partitions = open,
            None => reading.closed_root = true,
        },
        _ => {}
    }
}

/// Whether a link's target is a new branch (`-->[yes] if "c" then`).
fn link_opens_branch(text: &str) -> bool {
    link_pieces(text)
        .iter()
        .any(|&(kind, start, end)| kind == KEYWORD && text[start..end].eq_ignore_ascii_case("if"))
}

/// PlantUML's legacy activity grammar, line by line, for readers of a
/// block's text (`puml-sema`'s fallback recogniser uses it to know where
/// the legacy reading of a block the parser read otherwise stops).
#[derive(Default)]
pub struct LegacyLineReader {
    reading: LegacyReading,
}

impl LegacyLineReader {
    /// Reads the next line (a statement's line, not a line inside a note,
    /// title, legend or skinparam block, which the caller skips):
    /// `Some(true)` for a link, `Some(false)` for another statement, `None`
    /// where PlantUML's legacy reading stops.
    pub fn read(&mut self, line: &str) -> Option<bool> {
        let text = line.trim();
        if text.is_empty() || text.starts_with('\'') {
            return Some(false);
        }
        let form = line_form(text, &self.reading)?;
        advance(&mut self.reading, form, text);
        Some(form == LineForm::Link)
    }
}

// ---------------------------------------------------------------- pieces

/// The first non-blank at or after `pos`, at most `end`.
fn skip(text: &str, pos: usize, end: usize) -> usize {
    blanks(text, pos).min(end)
}

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
        let at = skip(text, quoted_end, end);
        if at < end && text[at..end].len() > 2 && starts_with_ci(&text[at..end], "as") {
            let alias_at = skip(text, at + 2, end);
            if alias_at > at + 2 {
                let alias = &text[alias_at..end];
                let alias_len = plain_name_len(alias);
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
    let name_len = plain_name_len(rest);
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
    let start = skip(text, 0, end);
    let mut pieces = Vec::new();
    let cut = (|| {
        let mut pos = start;
        if !text[pos..].starts_with(['-', '.']) {
            pos = activity_pieces(text, pos, end, false, &mut pieces)?;
            pos = skip(text, pos, end);
        }
        let arrow = arrow_end(text, pos)?;
        pieces.push((ARROW, pos, arrow));
        pos = skip(text, arrow, end);
        if text[pos..end].starts_with('[') {
            let close = pos + text[pos..end].find(']')?;
            pieces.push((L_BRACKET, pos, pos + 1));
            let inner = skip(text, pos + 1, end);
            let inner_end = pos + 1 + text[pos + 1..close].trim_end().len();
            if inner_end > inner {
                pieces.push((TEXT, inner, inner_end));
            }
            pieces.push((R_BRACKET, close, close + 1));
            pos = skip(text, close + 1, end);
        }
        if pos >= end {
            return None;
        }
        if text[pos..end].len() > 3 && starts_with_ci(&text[pos..end], "if ") {
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
    let cond_start = skip(text, pos + 2, end);
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

/// `note left: text`, `note right #pink`, `note on link: x`: keywords,
/// colours, colon, text.
fn note_pieces(text: &str) -> Pieces {
    let end = text.trim_end().len();
    let start = skip(text, 0, end);
    let mut pieces = vec![(KEYWORD, start, start + 4)];
    let mut pos = skip(text, start + 4, end);
    while pos < end {
        let rest = &text[pos..end];
        if rest.starts_with(':') {
            pieces.push((COLON, pos, pos + 1));
            let label = skip(text, pos + 1, end);
            if end > label {
                pieces.push((TEXT, label, end));
            }
            return pieces;
        }
        let word_end = pos + rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len());
        let kind = if rest.starts_with('#') { COLOR } else { KEYWORD };
        pieces.push((kind, pos, word_end));
        pos = skip(text, word_end, end);
    }
    pieces
}

/// `partition "Long" #pink {`: keyword, name, colour, `{`.
fn partition_pieces(text: &str) -> Pieces {
    let end = text.trim_end().len();
    let start = skip(text, 0, end);
    let mut pieces = vec![(KEYWORD, start, start + "partition".len())];
    let braced = text[..end].ends_with('{') && end > start + "partition".len();
    let brace = if braced { end - 1 } else { end };
    let mut pos = skip(text, start + "partition".len(), brace);
    if text[pos..brace].starts_with('"') {
        if let Some(close) = text[pos + 1..brace].find('"') {
            pieces.push((STRING, pos, pos + close + 2));
            pos = pos + close + 2;
        }
    }
    push_words(text, pos, brace, &mut pieces);
    if braced {
        pieces.push((L_BRACE, brace, end));
    }
    pieces
}

/// Words as keywords (`else`, `endif`, `}`, `left to right direction`).
fn word_pieces(text: &str, kind: SyntaxKind) -> Pieces {
    let end = text.trim_end().len();
    let mut pieces = Vec::new();
    let mut pos = skip(text, 0, end);
    while pos < end {
        let word_end = text[pos..end].find(char::is_whitespace).map_or(end, |e| pos + e);
        pieces.push((kind, pos, word_end));
        pos = skip(text, word_end, end);
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
            self.unread_line(
                &line,
                "this line is not a statement of a legacy activity diagram".to_string(),
            );
            self.pos += 1;
            return;
        };
        let content = line.content;
        advance(&mut self.legacy, form, text);
        let end = content.trim_end().len();
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
            LineForm::Link => self.legacy_pieces(&line, LEGACY_LINK, &link_pieces(content)),
            LineForm::Branch => {
                let mut pieces = Vec::new();
                branch_pieces(content, blanks(content, 0), end, &mut pieces);
                self.legacy_pieces(&line, LEGACY_IF, &pieces);
            }
            LineForm::Else => {
                let start = blanks(content, 0);
                let mut pieces = vec![(KEYWORD, start, start + 4)];
                let branch = blanks(content, start + 4).min(end);
                if branch < end {
                    // `else if "c" then`.
                    branch_pieces(content, branch, end, &mut pieces);
                }
                self.legacy_pieces(&line, LEGACY_ELSE, &pieces)
            }
            LineForm::Endif => self.legacy_pieces(&line, LEGACY_ENDIF, &word_pieces(content, KEYWORD)),
            LineForm::OneLineNote => self.legacy_pieces(&line, LEGACY_NOTE, &note_pieces(content)),
            LineForm::NoteBlock => self.legacy_note_block(&line),
            LineForm::Partition => self.legacy_pieces(&line, LEGACY_PARTITION, &partition_pieces(content)),
            LineForm::PartitionEnd => self.legacy_pieces(&line, BRACE_END, &word_pieces(content, R_BRACE)),
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
            vec![
                (IDENT, "===B1===".into()),
                (ARROW, "-->".into()),
                (KEYWORD, "(*)".into())
            ]
        );
    }

    #[test]
    fn the_grammar_reads_the_legacy_forms_and_refuses_near_misses() {
        let after = |links| LegacyReading {
            links,
            open_branches: 1,
            open_partitions: 0,
            closed_root: false,
        };
        for line in [
            "-->[ok] \"Second\"",
            "..> (*)",
            "-.-> \"X\"",
            "-up[#red]-> \"X\"",
            "(*) --> ===B1===",
            "-[#red]->[x] \"B\"",
            "(*) --> \"A\" <<s>>",
            "(*top) --> \"A\"",
            "if \"c\" then",
            "if then",
            "else",
            "else if \"d\" then",
            "endif",
            "end if",
            "--> queue.enqueue(null)",
            "--> X Y Z",
            "===B2=== --> \"S\" as c1.1",
            "(*) --> if \"t\" then",
            "note right: hello",
            "note right #pink: hello",
            "note on link: hello",
            "note left",
            "partition P",
            "partition {",
            "Left to right direction",
            "A -> B hi",
        ] {
            assert!(line_form(line, &after(1)).is_some(), "{line}");
        }
        for (line, links) in [
            ("--> \"A\"", 0),
            ("if \"c\" then", 0),
            ("note on link: x", 0),
            ("(*) -->", 0),
            ("foo bar", 1),
            ("-->[] \"B\"", 1),
            ("-[ #red ]-> \"B\"", 1),
            ("--> \"X\" extra", 1),
            ("--> ====", 1),
            ("--> ===B9", 1),
            ("a-b --> \"X\"", 1),
            ("$a --> \"X\"", 1),
            ("a::b --> \"X\"", 1),
            ("<-- \"X\"", 1),
            ("First ->+ Second", 1),
            ("note up: x", 1),
            ("note right of A", 1),
            ("note \"x\" as N", 1),
            ("<style>", 1),
            ("skinparam x", 1),
            ("scale 2 3", 1),
        ] {
            assert_eq!(line_form(line, &after(links)), None, "{line}");
        }
        // After a `}` that closed no partition, no more activities.
        let closed = LegacyReading {
            links: 1,
            closed_root: true,
            ..LegacyReading::default()
        };
        assert_eq!(line_form("--> \"X\"", &closed), None);
    }

    #[test]
    fn lines_with_wide_characters_never_cut_inside_one() {
        for line in ["\"A\" 中", "--> \"A\" 中文", "--> i中", "(*) --> \"A\" a中", "note 中"] {
            let _ = line_form(
                line,
                &LegacyReading {
                    links: 1,
                    ..LegacyReading::default()
                },
            );
            let _ = link_pieces(line);
            let text = format!("@startuml\n(*) --> \"First\"\n{line}\n@enduml\n");
            assert_eq!(crate::parse(&text).syntax().to_string(), text);
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
            (
                "@startuml\n(*) --> \"A\"\nfoo bar baz\n@enduml\n",
                DiagramKind::Sequence,
            ),
        ] {
            let parse = crate::parse(text);
            assert_eq!(parse.diagram_kinds(), &[kind], "{text}");
            assert_eq!(parse.syntax().to_string(), text);
            if kind == DiagramKind::LegacyActivity {
                assert!(parse.errors().is_empty(), "{text}: {:?}", parse.errors());
            }
        }
    }

    /// PlantUML's verdicts (`test-data/grammar/legacy/cases.tsv`, g0028
    /// and oracle checks): a block only arrows decide is read by the
    /// sequence reading first; an arrow's block with an activity line is an
    /// activity diagram.
    #[test]
    fn a_block_only_arrows_decide_is_a_sequence_diagram_when_that_reading_takes_it() {
        for (text, kind, errors) in [
            ("@startuml\n--> \"First\"\n@enduml\n", DiagramKind::Sequence, false),
            ("@startuml\n-> First\n@enduml\n", DiagramKind::Sequence, false),
            ("@startuml\n--> \"First\"\n:a;\n@enduml\n", DiagramKind::Activity, false),
            ("@startuml\n-> First;\n@enduml\n", DiagramKind::Activity, false),
            ("@startuml\n->\n:a;\n@enduml\n", DiagramKind::Activity, false),
            ("@startuml\nif then\n:a;\nendif\n@enduml\n", DiagramKind::Activity, true),
        ] {
            let parse = crate::parse(text);
            assert_eq!(parse.diagram_kinds(), &[kind], "{text}");
            assert_eq!(
                parse.errors().iter().any(|e| e.is_error()),
                errors,
                "{text}: {:?}",
                parse.errors()
            );
            let activity = parse.root().diagrams().map(|d| d.is_activity()).collect::<Vec<_>>();
            assert_eq!(activity, [kind == DiagramKind::Activity], "{text}");
        }
    }

    /// PlantUML's verdicts on `scale` lines after `A -> B` (oracle checks).
    #[test]
    fn scale_lines_read_as_plantuml_reads_them() {
        let valid = [
            "scale 2",
            "scale 0.5",
            "scale .5",
            "scale -1",
            "scale 2/3",
            "scale 2 / 3",
            "scale 200 width",
            "scale 2 Width",
            "scale max 800 height",
            "scale Max 800 width",
            "scale 800*600",
            "scale 800 * 600",
            "scale 800x600",
            "scale 800 x 600",
            "scale 800X600",
            "scale max 800x600",
            "scale max 800 * 600",
        ];
        let invalid = [
            "scale 2 3",
            "scale 0",
            "scale 150%",
            "scale 1,5",
            "scale max 2",
            "scale max 800",
            "scale 1-2",
            "scale max -5 width",
            "scale 0.5/0",
            "scale ..",
            "scale -",
            "scale 5 x",
            "scale x",
            "scale 1e3",
        ];
        for (lines, expected) in [(&valid[..], true), (&invalid[..], false)] {
            for line in lines {
                let words: Vec<&str> = line.split_whitespace().collect();
                assert_eq!(is_scale(&words), expected, "{line}");
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
