//! State diagrams: PlantUML's "state" reading of a block.
//!
//! PlantUML tries its diagram types in turn and keeps the first that reads
//! every line; the state reading comes after the sequence, class, legacy
//! activity and description ones. The parser tries it (see
//! `Parser::parse_diagram_by_trial`) on a block the sequence statements
//! read with an error and that holds a line only a state diagram has
//! (`state …`, `[*]`, a `--`/`||` region separator): the class and
//! description readings refuse those lines, so such a block is a state
//! diagram exactly when the state reading reads every line of it.
//!
//! The grammar is the one `puml-sema`'s recogniser fitted to PlantUML's
//! verdicts (`other_kind/state.rs`, `cargo xtask grammar-probe --state`),
//! kept to the forms whose meaning puml draws: what this reading refuses
//! falls back to the recogniser, which still names the block a state
//! diagram (W0240) when PlantUML reads it. A test checks the two agree on
//! every probe this reading takes.

use super::class::{blanks, color_end, quoted_len, stereotype_end, word_at};
use super::lexer::{first_word, trim_blanks_start};
use super::{Line, Parser};
use crate::{codes, Diagnostic, SyntaxKind, TextEdit};
use SyntaxKind::*;

/// Significant pieces of a line: `(kind, start, end)`, byte offsets into the
/// line's content, in order and disjoint.
type Pieces = Vec<(SyntaxKind, usize, usize)>;

/// The most composite states open at once: deeper nesting is refused (a
/// syntax error), so every walk over the states stays bounded.
pub const MAX_STATE_DEPTH: usize = 64;

/// Stereotypes a top-level `state` declaration refuses (they belong inside
/// a composite state).
const INNER_ONLY_STEREOTYPES: &[&str] = &[
    "entrypoint",
    "exitpoint",
    "inputpin",
    "outputpin",
    "expansioninput",
    "expansionoutput",
];

/// What the state reading of the block being parsed has seen so far.
#[derive(Default)]
pub(crate) struct StateReading {
    /// Composite states open.
    pub depth: usize,
    /// A transition was read (`note on link` goes on the last one).
    pub linked: bool,
    /// Every name the block's transitions, declarations and descriptions
    /// mention (a note may only be placed by one of them, wherever it is).
    pub names: std::collections::HashSet<String>,
}

/// A state's name: letters, digits, `_`.
fn name_len(text: &str) -> usize {
    text.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len())
}

/// `[*]`, `[H]`, `[H*]` at the start of `text`: their length.
fn pseudo_len(text: &str) -> usize {
    for pseudo in ["[*]", "[H*]", "[H]", "[h*]", "[h]"] {
        if text.starts_with(pseudo) {
            return pseudo.len();
        }
    }
    0
}

/// A transition's end at `pos`: `(kind, end)`.
fn endpoint_at(text: &str, pos: usize) -> Option<(SyntaxKind, usize)> {
    let pseudo = pseudo_len(&text[pos..]);
    if pseudo > 0 {
        return Some((KEYWORD, pos + pseudo));
    }
    let len = name_len(&text[pos..]);
    (len > 0).then_some((IDENT, pos + len))
}

/// A state arrow at `pos`: `[<]` a run of `-` holding at most one direction
/// word and one `[style]` bracket, and `>` unless the head is on the left.
/// Its end.
pub(crate) fn arrow_end(text: &str, pos: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = pos;
    let left = bytes.get(i) == Some(&b'<');
    if left {
        i += 1;
    }
    let mut dashes = 0;
    let (mut directed, mut styled) = (false, false);
    loop {
        if bytes.get(i) == Some(&b'-') {
            dashes += 1;
            i += 1;
            continue;
        }
        if dashes == 0 && !left {
            return None;
        }
        if !styled && bytes.get(i) == Some(&b'[') {
            let close = text[i + 1..].find(']')?;
            let inside = &text[i + 1..i + 1 + close];
            if inside.is_empty() || inside.contains(char::is_whitespace) {
                return None;
            }
            styled = true;
            i += close + 2;
            continue;
        }
        if !directed {
            let word_len = text[i..]
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(text.len() - i);
            let word = text[i..i + word_len].to_ascii_lowercase();
            if word_len > 0 && ["up", "down", "left", "right"].iter().any(|d| d.starts_with(&word)) {
                directed = true;
                i += word_len;
                continue;
            }
        }
        break;
    }
    if dashes == 0 {
        return None;
    }
    let right = bytes.get(i) == Some(&b'>');
    if right {
        i += 1;
    }
    if left == right {
        return None;
    }
    match bytes.get(i) {
        Some(b'-' | b'.' | b'>' | b'<' | b'|') => None,
        _ => Some(i),
    }
}

/// `A -> B [: label]`: the pieces.
pub(crate) fn scan_transition(text: &str) -> Option<Pieces> {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    let (kind, end) = endpoint_at(text, pos)?;
    pieces.push((kind, pos, end));
    pos = blanks(text, end);
    let arrow = arrow_end(text, pos)?;
    pieces.push((ARROW, pos, arrow));
    pos = blanks(text, arrow);
    let (kind, end) = endpoint_at(text, pos)?;
    pieces.push((kind, pos, end));
    pos = blanks(text, end);
    let trimmed_end = text.trim_end().len();
    if pos >= trimmed_end {
        return Some(pieces);
    }
    if !text[pos..].starts_with(':') {
        return None;
    }
    pieces.push((COLON, pos, pos + 1));
    let label = blanks(text, pos + 1);
    if label >= trimmed_end {
        // `A --> B :`: PlantUML refuses an empty label.
        return None;
    }
    pieces.push((TEXT, label, trimmed_end));
    Some(pieces)
}

/// `A : text`: the pieces.
fn scan_description(text: &str) -> Option<Pieces> {
    let pos = blanks(text, 0);
    let len = name_len(&text[pos..]);
    if len == 0 {
        return None;
    }
    let mut pieces = vec![(IDENT, pos, pos + len)];
    let colon = blanks(text, pos + len);
    if !text[colon..].starts_with(':') {
        return None;
    }
    pieces.push((COLON, colon, colon + 1));
    let label = blanks(text, colon + 1);
    let end = text.trim_end().len().max(label);
    if end > label {
        pieces.push((TEXT, label, end));
    }
    Some(pieces)
}

/// `state NAME|"Display" [as ALIAS|"Display"] [<<s>>]* [#colour] [##[style]colour] [: text | {]`:
/// the pieces, and whether it opens a composite state.
fn scan_declaration(text: &str, top_level: bool) -> Option<(Pieces, bool)> {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    pieces.push((KEYWORD, pos, pos + 5));
    pos += 5;
    let after = blanks(text, pos);
    if after == pos {
        return None;
    }
    pos = after;
    let name = |pos: usize| {
        let q = quoted_len(&text[pos..]);
        if q > 0 {
            return Some((STRING, pos + q));
        }
        let len = name_len(&text[pos..]);
        (len > 0).then_some((IDENT, pos + len))
    };
    let (kind, end) = name(pos)?;
    pieces.push((kind, pos, end));
    pos = blanks(text, end);
    if word_at(text, pos, "as") {
        pieces.push((KEYWORD, pos, pos + 2));
        pos = blanks(text, pos + 2);
        let (alias_kind, end) = name(pos)?;
        // `state "A" as "B"`: one of the two must be a name.
        if alias_kind == STRING && kind == STRING {
            return None;
        }
        pieces.push((alias_kind, pos, end));
        pos = blanks(text, end);
    }
    let mut coloured = false;
    let trimmed_end = text.trim_end().len();
    while pos < trimmed_end {
        let rest = &text[pos..trimmed_end];
        if rest.starts_with(':') {
            pieces.push((COLON, pos, pos + 1));
            let label = blanks(text, pos + 1);
            if trimmed_end > label {
                pieces.push((TEXT, label, trimmed_end));
            }
            return Some((pieces, false));
        }
        if rest == "{" {
            pieces.push((L_BRACE, pos, pos + 1));
            return Some((pieces, true));
        }
        if let Some(end) = stereotype_end(text, pos).filter(|_| !coloured) {
            let word = text[pos + 2..end - 2].trim().to_ascii_lowercase();
            if top_level && INNER_ONLY_STEREOTYPES.contains(&word.as_str()) {
                return None;
            }
            pieces.push((STEREOTYPE, pos, end));
            pos = blanks(text, end);
            continue;
        }
        if let Some(end) = color_end(text, pos) {
            // A colour runs to a blank, `{` or `:`.
            let end = text[pos..end].find(':').map_or(end, |c| pos + c);
            if end < pos + 2 {
                return None;
            }
            coloured = true;
            pieces.push((COLOR, pos, end));
            pos = blanks(text, end);
            continue;
        }
        return None;
    }
    Some((pieces, false))
}

/// A note's line, scanned.
struct ScannedNote {
    pieces: Pieces,
    /// No text on the line: a body follows, up to `end note`.
    body_follows: bool,
    /// Where the name of the state it is placed by is.
    target: Option<(usize, usize)>,
}

/// The note forms: `note POSITION of NAME [#colour] [: text]`, `note "text"
/// as N`, `note on link [: text]`.
fn scan_note(text: &str) -> Option<ScannedNote> {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    pieces.push((KEYWORD, pos, pos + 4));
    pos = blanks(text, pos + 4);
    let trimmed_end = text.trim_end().len();
    let mut target = None;
    if text[pos..].starts_with('"') {
        let q = quoted_len(&text[pos..]);
        if q == 0 {
            return None;
        }
        pieces.push((STRING, pos, pos + q));
        pos = blanks(text, pos + q);
        if !word_at(text, pos, "as") {
            return None;
        }
        pieces.push((KEYWORD, pos, pos + 2));
        pos = blanks(text, pos + 2);
        let len = name_len(&text[pos..]);
        if len == 0 || blanks(text, pos + len) < trimmed_end {
            return None;
        }
        pieces.push((IDENT, pos, pos + len));
        return Some(ScannedNote {
            pieces,
            body_follows: false,
            target: None,
        });
    }
    if word_at(text, pos, "on") {
        pieces.push((KEYWORD, pos, pos + 2));
        pos = blanks(text, pos + 2);
        if !word_at(text, pos, "link") {
            return None;
        }
        pieces.push((KEYWORD, pos, pos + 4));
        pos = blanks(text, pos + 4);
    } else {
        let side = ["left", "right", "top", "bottom"]
            .into_iter()
            .find(|w| word_at(text, pos, w))?;
        pieces.push((KEYWORD, pos, pos + side.len()));
        pos = blanks(text, pos + side.len());
        if !word_at(text, pos, "of") {
            return None;
        }
        pieces.push((KEYWORD, pos, pos + 2));
        pos = blanks(text, pos + 2);
        let (kind, end) = endpoint_at(text, pos)?;
        if kind != IDENT {
            return None;
        }
        pieces.push((IDENT, pos, end));
        target = Some((pos, end));
        pos = blanks(text, end);
        if let Some(end) = color_end(text, pos) {
            let end = text[pos..end].find(':').map_or(end, |c| pos + c);
            pieces.push((COLOR, pos, end));
            pos = blanks(text, end);
        }
    }
    if pos >= trimmed_end {
        return Some(ScannedNote {
            pieces,
            body_follows: true,
            target,
        });
    }
    if !text[pos..].starts_with(':') {
        return None;
    }
    pieces.push((COLON, pos, pos + 1));
    let label = blanks(text, pos + 1);
    if trimmed_end > label {
        pieces.push((TEXT, label, trimmed_end));
    }
    Some(ScannedNote {
        pieces,
        body_follows: false,
        target,
    })
}

/// The names a line mentions, for the notes placed by them.
fn mentioned_names(text: &str) -> Vec<&str> {
    let word = first_word(text);
    if word == "state" {
        if let Some((pieces, _)) = scan_declaration(text, false) {
            // The alias when there is one, else the name.
            let names: Vec<&str> = pieces
                .iter()
                .filter(|p| p.0 == IDENT)
                .map(|&(_, s, e)| &text[s..e])
                .collect();
            return names.last().copied().into_iter().collect();
        }
        return Vec::new();
    }
    if let Some(pieces) = scan_transition(text) {
        return pieces
            .iter()
            .filter(|p| p.0 == IDENT)
            .map(|&(_, s, e)| &text[s..e])
            .collect();
    }
    if let Some(pieces) = scan_description(text) {
        return vec![&text[pieces[0].1..pieces[0].2]];
    }
    Vec::new()
}

/// Whether `text` holds `[*]`: a byte search for the rarer `*`, where a
/// substring search sets up a searcher for every line of the block.
fn holds_initial_marker(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = bytes[from..].iter().position(|&b| b == b'*') {
        let at = from + at;
        if at > 0 && bytes[at - 1] == b'[' && bytes.get(at + 1) == Some(&b']') {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Whether a line of a block is one only a state diagram has: `state …`,
/// a `[*]` end, a `--`/`||` region separator.
/// `first_word(trimmed) == "state"` for a trimmed line, without
/// lowercasing the first word of every line of the block (asked of each
/// line of every block that is not read as an activity diagram).
fn first_word_is_state(trimmed: &str) -> bool {
    trimmed.len() >= 5
        && trimmed.as_bytes()[..5].eq_ignore_ascii_case(b"state")
        && !trimmed[5..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

fn is_state_marker(text: &str) -> bool {
    let trimmed = text.trim();
    if trimmed == "--" || trimmed == "||" {
        return true;
    }
    if first_word_is_state(trimmed) {
        return true;
    }
    // `[*]` (not `[H]`: the description reading takes that as a component).
    // Only a line holding the three characters can have it as an end, and
    // most lines of a block that is no state diagram hold none.
    holds_initial_marker(text)
        && scan_transition(text).is_some_and(|pieces| {
            pieces
                .iter()
                .any(|&(kind, start, end)| kind == KEYWORD && &text[start..end] == "[*]")
        })
}

impl<'a> Parser<'a> {
    /// Whether the block starting at line `start` holds a line only a
    /// state diagram has (its state reading is worth a trial).
    pub(crate) fn block_has_state_marker(&self, start: usize) -> bool {
        for line in &self.lines[start..] {
            let trimmed = trim_blanks_start(line.content);
            if trimmed.starts_with("@end") {
                return false;
            }
            if is_state_marker(line.content) {
                return true;
            }
        }
        false
    }

    /// Prepares the state reading of the block starting at line `start`:
    /// the names its lines mention.
    pub(crate) fn start_state_reading(&mut self, start: usize) {
        self.state = StateReading::default();
        for line in &self.lines[start..] {
            if trim_blanks_start(line.content).starts_with("@end") {
                break;
            }
            for name in mentioned_names(line.content) {
                self.state.names.insert(name.to_string());
            }
        }
    }

    pub(crate) fn parse_state_statement(&mut self) {
        let line = self.lines[self.pos];
        if self.take_comment_or_blank(&line) {
            return;
        }
        let trimmed = trim_blanks_start(line.content);
        let lines_before = self.pos;
        let word = first_word(line.content);
        let lower = trimmed.trim_end().to_ascii_lowercase();
        let compact: String = lower.split_whitespace().collect::<Vec<_>>().join(" ");
        let content = line.content;
        match &*word {
            w if w.starts_with('!') => self.keyword_statement(&line, &word, trimmed),
            "left" | "top" if compact == "left to right direction" || compact == "top to bottom direction" => {
                self.state_words(&line, STATE_OPTION)
            }
            "title" | "header" | "footer" | "legend" | "caption" | "mainframe" | "skinparam" | "skinparamlocked"
            | "skin" | "scale" | "sprite" => self.keyword_statement(&line, &word, trimmed),
            "left" | "right" | "center" if self.is_aligned_header(&line) => {
                self.keyword_statement(&line, &word, trimmed)
            }
            _ if lower.starts_with("<style") => self.keyword_statement(&line, &word, trimmed),
            "hide" | "show" | "remove" | "restore" if compact.contains(' ') => self.state_hide_show(&line),
            _ if compact == "}" => {
                if self.state.depth == 0 {
                    self.state_unknown(&line, "this `}` closes no composite state");
                } else {
                    self.state.depth -= 1;
                    self.state_words(&line, BRACE_END)
                }
            }
            _ if compact == "--" || compact == "||" => self.state_words(&line, STATE_SEPARATOR),
            "state" => match scan_declaration(content, self.state.depth == 0) {
                Some((pieces, opens)) => {
                    if opens {
                        if self.state.depth >= MAX_STATE_DEPTH {
                            return self.finish_state_line(
                                lines_before,
                                Some(format!(
                                    "composite states nest at most {MAX_STATE_DEPTH} deep in puml; flatten this one"
                                )),
                                &line,
                            );
                        }
                        self.state.depth += 1;
                    }
                    self.state_pieces(&line, STATE_DECL, &pieces)
                }
                None => self.state_unknown(&line, "this `state` declaration is not one PlantUML reads"),
            },
            "note" => self.state_note(&line),
            _ => {
                if let Some(pieces) = scan_transition(content) {
                    self.state.linked = true;
                    self.state_pieces(&line, STATE_LINK, &pieces)
                } else if let Some(pieces) = scan_description(content) {
                    self.state_pieces(&line, STATE_DESC, &pieces)
                } else {
                    self.state_unknown(&line, "this line is not a statement of a state diagram")
                }
            }
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    fn finish_state_line(&mut self, lines_before: usize, message: Option<String>, line: &Line<'a>) {
        if let Some(message) = message {
            self.state_unknown(line, &message);
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    /// Emits a line as `pieces` with the blanks between them.
    fn state_pieces(&mut self, line: &Line<'a>, kind: SyntaxKind, pieces: &Pieces) {
        self.builder.start_node(kind.into());
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
        self.builder.finish_node();
    }

    /// A statement made of words only (`}`, `--`, `left to right direction`).
    fn state_words(&mut self, line: &Line<'a>, kind: SyntaxKind) {
        let text = line.content;
        let mut pieces = Vec::new();
        let mut pos = blanks(text, 0);
        let end_all = text.trim_end().len();
        while pos < end_all {
            let end = text[pos..].find(char::is_whitespace).map_or(text.len(), |e| pos + e);
            let k = match &text[pos..end] {
                "}" => R_BRACE,
                _ => KEYWORD,
            };
            pieces.push((k, pos, end));
            pos = blanks(text, end);
        }
        self.state_pieces(line, kind, &pieces);
    }

    /// `hide empty description`: the keyword, then the rest as text.
    fn state_hide_show(&mut self, line: &Line<'a>) {
        let text = line.content;
        let pos = blanks(text, 0);
        let end = text[pos..].find(char::is_whitespace).map_or(text.len(), |e| pos + e);
        let mut pieces = vec![(KEYWORD, pos, end)];
        let rest = blanks(text, end);
        let rest_end = text.trim_end().len();
        if rest_end > rest {
            pieces.push((TEXT, rest, rest_end));
        }
        self.state_pieces(line, HIDE_SHOW, &pieces);
    }

    fn state_note(&mut self, line: &Line<'a>) {
        let Some(ScannedNote {
            pieces,
            body_follows: block,
            target,
        }) = scan_note(line.content)
        else {
            return self.state_unknown(line, "this note is not one PlantUML's state diagrams read");
        };
        let on_link = pieces
            .iter()
            .any(|&(k, s, e)| k == KEYWORD && line.content[s..e].eq_ignore_ascii_case("link"));
        if on_link && !self.state.linked {
            return self.state_unknown(line, "`note on link` needs a transition before it");
        }
        if let Some((s, e)) = target {
            let name = &line.content[s..e];
            if !self.state.names.contains(name) {
                let message = format!("`{name}` is no state of this diagram: a note is placed by one");
                return self.state_unknown(line, &message);
            }
        }
        self.builder.start_node(STATE_NOTE.into());
        let mut lx = self.lexer(line.content);
        for &(piece, start, end) in &pieces {
            if start > lx.pos {
                lx.push(WHITESPACE, start - lx.pos);
            }
            lx.push(piece, end - start);
        }
        let rest = lx.rest().len();
        if rest > 0 {
            lx.push(WHITESPACE, rest);
        }
        self.emit_line(line, lx);
        if block {
            match self.find_block_end(|l| l == "end note" || l == "endnote") {
                Some(end) => {
                    self.emit_body(end);
                    self.emit_block_end(end);
                    self.pos = end + 1;
                }
                None => {
                    let range = self.line_range(line);
                    let at = self.state_diagram_end_offset();
                    self.error(
                        Diagnostic::error(
                            codes::UNCLOSED_BLOCK,
                            range,
                            "this note is never closed: end it with `end note`",
                        )
                        .with_fix(
                            "Close the note at the end of the diagram",
                            vec![TextEdit::insert(at, "end note\n")],
                        ),
                    );
                }
            }
        }
        self.builder.finish_node();
    }

    /// Where `@enduml` starts (or the end of the text).
    fn state_diagram_end_offset(&self) -> crate::TextSize {
        let end = (self.pos..self.lines.len())
            .find(|&i| trim_blanks_start(self.lines[i].content).starts_with("@end"))
            .map_or(self.text.len(), |i| self.lines[i].start);
        crate::TextSize::from(end as u32)
    }

    /// A line the state reading does not know.
    fn state_unknown(&mut self, line: &Line<'a>, message: &str) {
        self.unread_line(line, message.to_string());
    }
}

#[cfg(test)]
mod tests {
    /// The byte test agrees with the first word's on awkward lines.
    #[test]
    fn state_word_test_agrees_with_first_word() {
        for line in [
            "state",
            "State A",
            "STATE",
            "states",
            "state_x",
            "state1",
            "stateé",
            "state\u{a0}A",
            "state{",
            "state:",
            "stat",
            "",
            "ſtate",
            "\u{2003}state",
            "state-x",
            "state\u{2013}",
            "statE\t{",
            "@state",
            "Ｓtate",
        ] {
            let trimmed = line.trim();
            assert_eq!(
                super::first_word_is_state(trimmed),
                super::first_word(line) == "state",
                "{line:?}"
            );
        }
    }

    use super::*;

    fn kinds(pieces: &Pieces, text: &str) -> Vec<(SyntaxKind, String)> {
        pieces.iter().map(|&(k, s, e)| (k, text[s..e].to_string())).collect()
    }

    #[test]
    fn transitions_split_into_ends_arrow_and_label() {
        let text = "[*] -left[#red]-> S1 : go on";
        let pieces = scan_transition(text).unwrap();
        assert_eq!(
            kinds(&pieces, text),
            vec![
                (KEYWORD, "[*]".into()),
                (ARROW, "-left[#red]->".into()),
                (IDENT, "S1".into()),
                (COLON, ":".into()),
                (TEXT, "go on".into())
            ]
        );
        for refused in ["A --> B :", "A .> B", "A -> B C", "A <-> B", "A - B", "S1.a --> S2"] {
            assert!(scan_transition(refused).is_none(), "{refused}");
        }
        for read in ["A->B", "A <- B", "A <up- B", "A -[dashed]d-> B", "enAttente---->x:y"] {
            assert!(scan_transition(read).is_some(), "{read}");
        }
    }

    #[test]
    fn declarations_read_names_aliases_stereotypes_colours() {
        let text = "state \"Long\" as L <<choice>> #pink ##[dashed]blue : text";
        let (pieces, opens) = scan_declaration(text, true).unwrap();
        assert!(!opens);
        assert_eq!(
            kinds(&pieces, text).into_iter().map(|p| p.0).collect::<Vec<_>>(),
            vec![KEYWORD, STRING, KEYWORD, IDENT, STEREOTYPE, COLOR, COLOR, COLON, TEXT]
        );
        assert!(scan_declaration("state A {", true).unwrap().1);
        for refused in [
            "state A B",
            "state A as",
            "state A #pink <<s>>",
            "state A <<entryPoint>>",
        ] {
            assert!(scan_declaration(refused, true).is_none(), "{refused}");
        }
        assert!(scan_declaration("state A <<entryPoint>>", false).is_some());
    }

    #[test]
    fn an_edit_that_makes_a_block_a_state_diagram_reparses_it_whole() {
        let old = "@startuml\nstate A\nfoo bar baz\n@enduml\n";
        let new = "@startuml\nstate A\nA --> B\n@enduml\n";
        let parsed = crate::parse(old);
        let reparsed = parsed.reparse(old, new);
        assert_eq!(reparsed, crate::parse(new));
        assert_eq!(reparsed.diagram_kinds(), &[crate::DiagramKind::State]);
    }

    #[test]
    fn a_block_only_a_state_diagram_reads_is_one() {
        for (text, kind) in [
            (
                "@startuml\n[*] --> A\nA --> B : go\n@enduml\n",
                crate::DiagramKind::State,
            ),
            (
                "@startuml\nstate A {\n  B --> C\n  --\n  D --> E\n}\n@enduml\n",
                crate::DiagramKind::State,
            ),
            // `[H]` is a component to the description reading, which comes first.
            ("@startuml\nA --> [H]\n@enduml\n", crate::DiagramKind::Description),
            // A line no state diagram has: not one.
            ("@startuml\nstate A\nactor B\n@enduml\n", crate::DiagramKind::Sequence),
        ] {
            assert_eq!(crate::parse(text).diagram_kinds(), &[kind], "{text}");
        }
    }
}
