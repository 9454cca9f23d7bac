//! PlantUML's fallback to another diagram type. PlantUML tries its diagram
//! types in turn and draws a block as the first one that reads every line
//! of it: a block that is no sequence diagram (`A -- B : m`, `class A`,
//! `actor as A`) is drawn as a class or a description (usecase, component)
//! diagram. puml checks and draws sequence and activity diagrams only, so
//! for such a block it reports one warning (W0240) instead of the sequence
//! reading's errors, and refuses to draw it.
//!
//! The recognizer runs only on a sequence block whose reading has errors
//! (so a valid diagram pays nothing), reads each statement's first line as
//! text and says which of the two other types read it. Its grammar is
//! fitted to PlantUML's verdicts on the generated `fallback-*` cases of
//! `test-data/grammar/cases.tsv` (`cargo xtask grammar-probe`), and it is
//! deliberately narrow: a line it does not know keeps the sequence errors.

use crate::codes;
use crate::model::{Document, OtherKind};
use puml_syntax::ast;
use puml_syntax::{Diagnostic, Parse, TextRange};

/// Which of the fallback diagram types read a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Readers {
    pub class: bool,
    pub description: bool,
}

impl Readers {
    const NONE: Readers = Readers {
        class: false,
        description: false,
    };
    const BOTH: Readers = Readers {
        class: true,
        description: true,
    };
    const CLASS: Readers = Readers {
        class: true,
        description: false,
    };
    const DESCRIPTION: Readers = Readers {
        class: false,
        description: true,
    };
    fn and(self, other: Readers) -> Readers {
        Readers {
            class: self.class && other.class,
            description: self.description && other.description,
        }
    }
    fn or(self, other: Readers) -> Readers {
        Readers {
            class: self.class || other.class,
            description: self.description || other.description,
        }
    }
}

/// Replaces the sequence errors of every block PlantUML reads as another
/// diagram type by one W0240 warning, and marks the diagram
/// (`Diagram::other_kind`). `diagnostics` are in `parse`'s coordinates.
pub(crate) fn recognize(parse: &Parse, document: &mut Document, diagnostics: &mut Vec<Diagnostic>) {
    if !diagnostics.iter().any(|d| d.is_error() && d.file.is_none()) {
        return;
    }
    let text = parse.root().syntax.text().to_string();
    for (index, diagram) in parse.root().diagrams().enumerate() {
        let range = diagram.syntax.text_range();
        let in_block = |d: &Diagnostic| d.file.is_none() && !d.code.starts_with('P') && range.contains_range(d.range);
        let Some(first_error) = diagnostics
            .iter()
            .filter(|d| d.is_error() && in_block(d))
            .min_by_key(|d| d.range.start())
        else {
            continue;
        };
        let Some(kind) = block_kind(&diagram) else {
            continue;
        };
        let Some(model) = document.diagrams.get_mut(index) else {
            continue;
        };
        let line = line_range(&text, first_error.range.start().into());
        let line_text = text
            .get(usize::from(line.start())..usize::from(line.end()))
            .unwrap_or("");
        let mut warning = Diagnostic::warning(
            codes::OTHER_DIAGRAM_KIND,
            line,
            format!(
                "PlantUML reads this block as a {} diagram (this line, `{}`, is not sequence syntax); puml checks and draws only sequence and activity diagrams",
                kind.describe(),
                line_text
            ),
        );
        // A link with a class-only arrow was probably meant as a message:
        // the sequence arrow is offered, never applied by `--fix` (PlantUML
        // accepts the block as it is).
        if let Some((arrow, replacement)) = sequence_arrow_for(line_text) {
            let start = u32::from(line.start()) + arrow.start as u32;
            let range = TextRange::new(start.into(), (start + arrow.len() as u32).into());
            warning = warning.with_suggestion(
                format!("Read it as a sequence message: `{replacement}`"),
                vec![puml_syntax::TextEdit {
                    range,
                    new_text: replacement.to_string(),
                }],
            );
        }
        diagnostics.retain(|d| !in_block(d));
        diagnostics.push(warning);
        model.other_kind = Some(kind);
    }
}

/// The trimmed line around `offset`.
fn line_range(text: &str, offset: usize) -> TextRange {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[start..end];
    let lead = line.len() - line.trim_start().len();
    let trimmed = line.trim();
    let from = start + lead;
    TextRange::new((from as u32).into(), ((from + trimmed.len()) as u32).into())
}

/// The type PlantUML draws the block as when every line is read by it
/// (class first: PlantUML tries it before the description types). The
/// block's lines are read as text, with the multi-line forms the other
/// types share (notes, legends, titles, skinparam and style blocks, block
/// comments, `{ … }` bodies) tracked here: the sequence parser's reading of
/// them is no guide, it is the one that failed.
fn block_kind(diagram: &ast::Diagram) -> Option<OtherKind> {
    let text = diagram.syntax.text().to_string();
    let mut lines = text.lines();
    // The `@startuml` line (a text without one is a diagram too).
    if diagram
        .syntax
        .children()
        .any(|n| n.kind() == puml_syntax::SyntaxKind::START_LINE)
    {
        lines.next()?;
    }
    let mut readers = Readers::BOTH;
    // A block of shared lines only (titles, comments) is no class diagram:
    // at least one element or link is needed.
    let mut elements = 0usize;
    let mut open_containers = 0usize;
    while let Some(raw) = lines.next() {
        let line = raw.trim();
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("@enduml") {
            break;
        }
        // Multi-line forms, skipped to their end line.
        if line.starts_with("/'") && line.ends_with("'/") && line.len() >= 4 {
            continue;
        }
        let end = if line.starts_with("/'") && !line[2..].contains("'/") {
            Some(BlockEnd::Comment)
        } else if lower == "legend" || lower.starts_with("legend ") {
            Some(BlockEnd::Legend)
        } else if matches!(lower.as_str(), "title" | "header" | "footer") {
            Some(BlockEnd::Named(lower.clone()))
        } else if (lower.starts_with("skinparam ") && line.ends_with('{')) || class_body_header(line).is_some() {
            if let Some(body_readers) = class_body_header(line) {
                readers = readers.and(body_readers);
                elements += 1;
            }
            Some(BlockEnd::Brace)
        } else if lower == "<style>" {
            Some(BlockEnd::Style)
        } else if is_note_block_header(line) {
            Some(BlockEnd::Note)
        } else {
            None
        };
        if let Some(end) = end {
            let mut closed = false;
            for body in lines.by_ref() {
                let body = body.trim().to_ascii_lowercase();
                if body.starts_with("@enduml") {
                    return None;
                }
                if end.closes(&body) {
                    closed = true;
                    break;
                }
            }
            if !closed {
                return None;
            }
        } else if line == "}" {
            open_containers = open_containers.checked_sub(1)?;
        } else if let Some(container_readers) = container_header(line) {
            readers = readers.and(container_readers);
            open_containers += 1;
            elements += 1;
        } else {
            readers = readers.and(line_readers(line));
            if is_element_line(line) {
                elements += 1;
            }
        }
        if readers == Readers::NONE {
            return None;
        }
    }
    if open_containers > 0 || elements == 0 {
        return None;
    }
    if readers.class {
        Some(OtherKind::Class)
    } else {
        Some(OtherKind::Description)
    }
}

/// How a multi-line form ends.
enum BlockEnd {
    Comment,
    Legend,
    /// `end title`, `endheader`, … for the block's keyword.
    Named(String),
    Brace,
    Style,
    Note,
}

impl BlockEnd {
    /// Whether `line` (trimmed, lower case) ends the block.
    fn closes(&self, line: &str) -> bool {
        match self {
            BlockEnd::Comment => line.contains("'/"),
            BlockEnd::Legend => matches!(line, "endlegend" | "end legend"),
            BlockEnd::Named(keyword) => line.strip_prefix("end").map(str::trim_start) == Some(keyword.as_str()),
            BlockEnd::Brace => line == "}",
            BlockEnd::Style => line == "</style>",
            BlockEnd::Note => matches!(line, "end note" | "endnote"),
        }
    }
}

/// `note as N` opens a block note tied to no element.
fn is_note_block_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    matches!(words.as_slice(), [note, as_, name]
        if note.eq_ignore_ascii_case("note") && as_.eq_ignore_ascii_case("as") && is_plain_name(name))
}

/// `class A {`: a class diagram's element with a body of members (class
/// diagrams only; the members are any text up to `}`).
fn class_body_header(line: &str) -> Option<Readers> {
    let head = line.strip_suffix('{')?.trim_end();
    let words: Vec<&str> = head.split_whitespace().collect();
    let keyword = words.first()?.to_ascii_lowercase();
    if !CLASS_KEYWORDS.contains(&keyword.as_str()) || matches!(keyword.as_str(), "circle" | "diamond") {
        return None;
    }
    declaration_readers(&words).class.then_some(Readers::CLASS)
}

/// `package P {`, `node N {`, `together {`: a container whose lines are
/// statements of their own, up to `}`.
fn container_header(line: &str) -> Option<Readers> {
    const CONTAINERS: &[&str] = &[
        "component",
        "database",
        "node",
        "folder",
        "frame",
        "cloud",
        "package",
        "queue",
        "storage",
        "artifact",
        "card",
        "file",
        "rectangle",
        "stack",
        "hexagon",
    ];
    let head = line.strip_suffix('{')?.trim_end();
    if head.eq_ignore_ascii_case("together") {
        return Some(Readers::BOTH);
    }
    let words: Vec<&str> = head.split_whitespace().collect();
    let keyword = words.first()?.to_ascii_lowercase();
    if keyword == "namespace" && words.len() == 2 && is_plain_name(words[1]) {
        return Some(Readers::CLASS);
    }
    if !CONTAINERS.contains(&keyword.as_str()) {
        return None;
    }
    declaration_readers(&words).description.then_some(Readers::BOTH)
}

/// `note as N` or `note "text" as N`: a note tied to no element, which
/// both other types read (`note left of A` needs an element `A`).
fn is_free_note(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [note, as_, name] => note.eq_ignore_ascii_case("note") && as_.eq_ignore_ascii_case("as") && is_plain_name(name),
        [note, ..] if note.eq_ignore_ascii_case("note") => {
            let rest = line[note.len()..].trim_start();
            let Some(after_quote) = rest.strip_prefix('"') else {
                return false;
            };
            let Some(close) = after_quote.find('"') else {
                return false;
            };
            let tail: Vec<&str> = after_quote[close + 1..].split_whitespace().collect();
            matches!(tail.as_slice(), [as_, name] if as_.eq_ignore_ascii_case("as") && is_plain_name(name))
        }
        _ => false,
    }
}

/// A line declaring an element or linking two (not a shared statement).
fn is_element_line(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    declaration_readers(&words) != Readers::NONE
        || link_readers(line) != Readers::NONE
        || member_readers(line) != Readers::NONE
        || (words.len() == 1 && (line.starts_with("...") || description_element(line).is_some_and(str::is_empty)))
}

/// Which of the other types read one line.
pub(crate) fn line_readers(line: &str) -> Readers {
    let line = line.trim();
    if line.is_empty() || line.starts_with('\'') {
        return Readers::BOTH;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return Readers::BOTH;
    };
    match (first.as_str(), words.len()) {
        ("title" | "header" | "footer" | "caption" | "mainframe", 2..) => return Readers::BOTH,
        ("skinparam", 3..) | ("hide" | "show" | "remove", 2..) => return Readers::BOTH,
        ("scale", 2) if words[1].parse::<f64>().is_ok() => return Readers::BOTH,
        ("newpage", 1) => return Readers::BOTH,
        ("!pragma", 2..) => return Readers::BOTH,
        ("set", 3) if words[1] == "namespaceSeparator" => return Readers::BOTH,
        ("left", 4) | ("top", 4) if line == "left to right direction" || line == "top to bottom direction" => {
            return Readers::BOTH
        }
        _ => {}
    }
    // `...` and `...x`: a description diagram's (PlantUML reads the dots as
    // a link body), never a class diagram's.
    if line.starts_with("...") && words.len() == 1 {
        return Readers::DESCRIPTION;
    }
    if is_free_note(line) {
        return Readers::BOTH;
    }
    if words.len() == 1 && description_element(line).is_some_and(|rest| rest.is_empty()) {
        return Readers::DESCRIPTION;
    }
    declaration_readers(&words)
        .or(link_readers(line))
        .or(member_readers(line))
}

/// Keywords declaring a class diagram's element.
const CLASS_KEYWORDS: &[&str] = &[
    "class",
    "abstract",
    "interface",
    "enum",
    "entity",
    "annotation",
    "protocol",
    "struct",
    "exception",
    "circle",
    "diamond",
    "object",
    "map",
    "metaclass",
    "stereotype",
    "dataclass",
    "record",
];
/// Class keywords the description types read too (with a name free of `::` and `-`).
const SHARED_KEYWORDS: &[&str] = &["interface", "entity", "circle"];
/// Keywords declaring a description diagram's element.
const DESCRIPTION_KEYWORDS: &[&str] = &[
    "actor",
    "usecase",
    "component",
    "database",
    "node",
    "folder",
    "frame",
    "cloud",
    "package",
    "queue",
    "collections",
    "boundary",
    "control",
    "storage",
    "artifact",
    "card",
    "file",
    "rectangle",
    "agent",
    "person",
    "stack",
    "label",
    "hexagon",
];

/// `KEYWORD NAME [as ALIAS] [<<stereotype>>] [#color]`, and a description
/// diagram's `WORD as NAME` (any one word: `participant as A`).
fn declaration_readers(words: &[&str]) -> Readers {
    let Some(keyword) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return Readers::NONE;
    };
    if let [word, as_, alias] = words {
        if as_.eq_ignore_ascii_case("as") && is_word(word) && is_plain_name(alias) {
            return Readers::DESCRIPTION;
        }
    }
    let mut rest = &words[1..];
    if keyword == "abstract" && rest.first().is_some_and(|w| w.eq_ignore_ascii_case("class")) {
        rest = &rest[1..];
    }
    let class_keyword = CLASS_KEYWORDS.contains(&keyword.as_str());
    let description_keyword = DESCRIPTION_KEYWORDS.contains(&keyword.as_str());
    if !class_keyword && !description_keyword {
        return Readers::NONE;
    }
    // The name (a quoted name needs an alias: `"Long" as L`), then the options.
    let (name, options) = match rest {
        [quoted, as_, alias, options @ ..] if as_.eq_ignore_ascii_case("as") && is_quoted(quoted) => {
            if !is_plain_name(alias) {
                return Readers::NONE;
            }
            (*alias, options)
        }
        [name, as_, quoted, options @ ..] if as_.eq_ignore_ascii_case("as") && is_quoted(quoted) => (*name, options),
        [name, options @ ..] => (*name, options),
        [] => return Readers::NONE,
    };
    if !is_plain_name(name) {
        return Readers::NONE;
    }
    let options_ok = options.iter().enumerate().all(|(i, option)| {
        (option.starts_with("<<") && option.ends_with(">>") && option.len() > 4 && i == 0)
            || (option.starts_with('#') && option.len() > 1 && option[1..].chars().all(|c| c.is_ascii_alphanumeric()))
    });
    if !options_ok {
        return Readers::NONE;
    }
    let simple = !name.contains("::") && !name.contains('-');
    if class_keyword {
        Readers {
            class: true,
            description: simple && SHARED_KEYWORDS.contains(&keyword.as_str()),
        }
    } else if simple {
        Readers::DESCRIPTION
    } else {
        Readers::NONE
    }
}

/// `A : field`: a class member, class diagrams only.
fn member_readers(line: &str) -> Readers {
    let Some((name, member)) = line.split_once(" : ") else {
        return Readers::NONE;
    };
    if is_plain_name(name.trim()) && !member.trim().is_empty() {
        Readers::CLASS
    } else {
        Readers::NONE
    }
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn is_quoted(text: &str) -> bool {
    text.len() >= 2 && text.starts_with('"') && text.ends_with('"') && !text[1..text.len() - 1].contains('"')
}

/// A whole text that is one plain name.
fn is_plain_name(text: &str) -> bool {
    let (name, rest) = scan_name(text);
    !name.is_empty() && rest.is_empty()
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '/') || !c.is_ascii()
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
        if c == '-' && previous_is_name && next.is_some_and(|n| n.is_alphanumeric() || n == '_') {
            continue;
        }
        return (&text[..at], &text[at..]);
    }
    (text, "")
}

/// An endpoint of a link: a plain or quoted name (both types), or a
/// description element written `[component]`, `(usecase)`, `:actor:`.
/// Returns who reads it and the rest of the text.
fn scan_endpoint(text: &str) -> Option<(Readers, &str)> {
    if let Some(rest) = description_element(text) {
        return Some((Readers::DESCRIPTION, rest));
    }
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        if close == 0 {
            return None;
        }
        return Some((Readers::BOTH, &after[close + 1..]));
    }
    let (name, rest) = scan_name(text);
    (!name.is_empty()).then_some((Readers::BOTH, rest))
}

/// `[component]`, `(usecase)`, `:actor:` at the start of `text`: the rest.
fn description_element(text: &str) -> Option<&str> {
    for (open, close) in [('[', ']'), ('(', ')'), (':', ':')] {
        if let Some(after) = text.strip_prefix(open) {
            let end = after.find(close)?;
            let inner = &after[..end];
            // `(*)` is an old activity diagram's start or end, which
            // PlantUML tries before the description types.
            if inner.trim().is_empty() || inner.contains(['[', '(', '"', '*']) {
                return None;
            }
            return Some(&after[end + 1..]);
        }
    }
    None
}

/// Arrow heads a class diagram's link may start with (longest first).
const LEFT_HEADS: &[&str] = &["<<", "<|", "<", "*", "o", "#", "x", "}", "+", "^"];
/// Arrow heads a class diagram's link may end with (longest first).
const RIGHT_HEADS: &[&str] = &[">>", "|>", ">", "*", "o", "#", "x", "{", "+", "^"];

/// `NAME ["mult"] ARROW ["mult"] NAME [#color] [: label]`.
fn link_readers(line: &str) -> Readers {
    let Some((from, rest)) = scan_endpoint(line) else {
        return Readers::NONE;
    };
    let rest = skip_multiplicity(rest.trim_start());
    let Some((arrow, rest)) = scan_arrow(rest) else {
        return Readers::NONE;
    };
    let rest = skip_multiplicity(rest.trim_start());
    let Some((to, rest)) = scan_endpoint(rest) else {
        return Readers::NONE;
    };
    let spaced = rest.starts_with(char::is_whitespace);
    let mut rest = rest.trim_start();
    if let Some(color) = rest.strip_prefix('#').filter(|_| spaced) {
        let end = color.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(color.len());
        if end == 0 {
            return Readers::NONE;
        }
        rest = color[end..].trim_start();
    }
    if !rest.is_empty() {
        let Some(label) = rest.strip_prefix(':') else {
            return Readers::NONE;
        };
        if label.trim().is_empty() {
            return Readers::NONE;
        }
    }
    from.and(to).and(arrow)
}

/// A `"1"`-style multiplicity beside a link's arrow: a quoted text that a
/// name or an arrow follows (else the quoted text is the name itself).
fn skip_multiplicity(text: &str) -> &str {
    if let Some(after) = text.strip_prefix('"') {
        if let Some(close) = after.find('"') {
            let rest = after[close + 1..].trim_start();
            let followed = rest.chars().next().is_some_and(|c| {
                c.is_alphanumeric() || matches!(c, '"' | '_' | '[' | '(' | '-' | '.' | '=' | '~' | '<' | '/')
            }) || LEFT_HEADS.iter().any(|h| rest.starts_with(h));
            if followed {
                return rest;
            }
        }
    }
    text
}

/// A link arrow: `[head] body [head]`, the body a run of `-`, `.` or `=`
/// (class) or of `~` (description) with at most one `[style]` bracket and
/// one direction word (`up`, `do`, `l`, …) after its first character.
fn scan_arrow(text: &str) -> Option<(Readers, &str)> {
    let mut left = LEFT_HEADS.iter().find(|h| text.starts_with(**h)).copied().unwrap_or("");
    // `/` before a body of two or more line characters (`A /-- B`,
    // `A /-[#red]- B`) is a head PlantUML reads, not before one (`A /- B`,
    // `A /-[bold] B`): checked once the body is read.
    if left.is_empty() && text.starts_with('/') {
        left = "/";
    }
    let after_left = &text[left.len()..];
    let line_char = after_left.chars().next()?;
    if !matches!(line_char, '-' | '.' | '=' | '~') {
        return None;
    }
    let tilde = line_char == '~';
    let is_line = |c: char| if tilde { c == '~' } else { matches!(c, '-' | '.' | '=') };
    let mut rest = after_left.trim_start_matches(is_line);
    let mut styled = false;
    let mut directed = false;
    loop {
        if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            let style = &after[..close];
            if styled || tilde || style.trim().is_empty() || style.trim() != style {
                return None;
            }
            styled = true;
            rest = &after[close + 1..];
        } else if let Some(word_len) = direction_prefix(rest) {
            if directed || tilde {
                return None;
            }
            directed = true;
            rest = &rest[word_len..];
        } else {
            break;
        }
    }
    let before_tail = rest;
    rest = rest.trim_start_matches(is_line);
    let line_chars =
        (after_left.len() - after_left.trim_start_matches(is_line).len()) + (before_tail.len() - rest.len());
    if left == "/" && line_chars < 2 {
        return None;
    }
    let right = RIGHT_HEADS
        .iter()
        .find(|h| rest.starts_with(**h))
        .copied()
        .unwrap_or("");
    rest = &rest[right.len()..];
    // A name or a space follows the arrow, never more arrow characters.
    if rest.starts_with(['-', '.', '=', '~', '>', '<', '|', '\\', '/', '[', '(', '*']) && !rest.starts_with('(') {
        return None;
    }
    // The description types read every class head and body but the `/`
    // head; `~` bodies are theirs alone.
    let readers = if tilde {
        Readers::DESCRIPTION
    } else if left == "/" {
        Readers::CLASS
    } else {
        Readers::BOTH
    };
    Some((readers, rest))
}

/// The length of a direction word (`up`, `down`, `left`, `right` or a
/// prefix of one, any case) at the start of `text`.
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

/// For a link line `A -- B : m`, the byte range of its arrow in the line
/// and the sequence arrow it most likely meant (`->`, or `-->` for a
/// dashed or dotted body).
fn sequence_arrow_for(line: &str) -> Option<(std::ops::Range<usize>, &'static str)> {
    if link_readers(line) == Readers::NONE {
        return None;
    }
    let (_, rest) = scan_endpoint(line)?;
    let rest_trimmed = rest.trim_start();
    let arrow_start = line.len() - rest_trimmed.len();
    let (_, after) = scan_arrow(rest_trimmed)?;
    let arrow = &line[arrow_start..line.len() - after.len()];
    let body_chars = arrow.chars().filter(|c| matches!(c, '-' | '.' | '=' | '~')).count();
    let replacement = if arrow.contains('.') || body_chars >= 2 {
        "-->"
    } else {
        "->"
    };
    let reversed = arrow.starts_with('<') && !arrow.ends_with('>');
    let replacement = match (reversed, replacement) {
        (true, "->") => "<-",
        (true, _) => "<--",
        (false, r) => r,
    };
    (arrow != replacement).then_some((arrow_start..arrow_start + arrow.len(), replacement))
}

#[cfg(test)]
mod tests {
    use crate::model::OtherKind;
    use crate::{analyze, AnalysisOptions, NoIncludes};
    use puml_syntax::Severity;

    fn kind_and_codes(text: &str) -> (Option<OtherKind>, Vec<(&'static str, Severity)>) {
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let kind = analysis.document.diagrams.first().and_then(|d| d.other_kind);
        (
            kind,
            analysis.diagnostics.iter().map(|d| (d.code, d.severity)).collect(),
        )
    }

    #[test]
    fn a_class_link_among_messages_makes_a_class_diagram() {
        let (kind, codes) = kind_and_codes("@startuml\nA -> B : m\nA -- B : n\n@enduml\n");
        assert_eq!(kind, Some(OtherKind::Class));
        assert_eq!(codes, vec![("W0240", Severity::Warning)]);
    }

    #[test]
    fn description_only_lines_make_a_description_diagram() {
        for text in [
            "@startuml\nactor as A\nA -> A : m\n@enduml\n",
            "@startuml\nA -> B : m\n...x\n@enduml\n",
            "@startuml\nmain ~> Bridge : run\n@enduml\n",
        ] {
            assert_eq!(kind_and_codes(text).0, Some(OtherKind::Description), "{text}");
        }
    }

    #[test]
    fn a_broken_sequence_diagram_keeps_its_errors() {
        for text in [
            // A sequence-only statement PlantUML's class diagrams refuse.
            "@startuml\nA - B : m\nactivate A\n@enduml\n",
            "@startuml\nA -- B : m\nnote over A : x\n@enduml\n",
            "@startuml\nA -> B : m\nfoo bar\n@enduml\n",
            // An arrow neither type has.
            "@startuml\nA ->x B : m\nA -- B\n@enduml\n",
            "@startuml\nA -[ #red ]-> B : m\n@enduml\n",
            "@startuml\nA -> B : m\nalt x\nA -- B\nend\n@enduml\n",
        ] {
            let (kind, codes) = kind_and_codes(text);
            assert_eq!(kind, None, "{text}");
            assert!(codes.iter().any(|(_, s)| *s == Severity::Error), "{text}: {codes:?}");
        }
    }

    #[test]
    fn the_warning_suggests_the_sequence_arrow() {
        let text = "@startuml\nAlice -> Bob : hello\nBob -- Alice : hi\n@enduml\n";
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let warning = &analysis.diagnostics[0];
        assert_eq!(&text[warning.range], "Bob -- Alice : hi");
        let fix = &warning.fixes[0];
        assert!(!fix.machine_applicable);
        let (fixed, _) = puml_syntax::apply_edits(text, &fix.edits);
        assert_eq!(fixed, "@startuml\nAlice -> Bob : hello\nBob --> Alice : hi\n@enduml\n");
    }

    #[test]
    fn shared_lines_alone_or_a_text_without_startuml_are_no_class_diagram() {
        for text in [":@", ":", "@startuml\ntitle x\nfoo\n@enduml\n", "endif @start <->uml\r"] {
            assert_eq!(kind_and_codes(text).0, None, "{text}");
        }
    }

    #[test]
    fn a_valid_block_beside_a_class_block_keeps_its_kind() {
        let text = "@startuml\nA -> B : m\n@enduml\n@startuml\nclass A\nA <|-- B\n@enduml\n";
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let kinds: Vec<_> = analysis.document.diagrams.iter().map(|d| d.other_kind).collect();
        assert_eq!(kinds, vec![None, Some(OtherKind::Class)]);
    }
}
