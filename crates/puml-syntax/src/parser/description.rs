//! Description diagrams (use case, component, deployment and `rectangle`
//! diagrams): PlantUML's "description" reading of a block.
//!
//! PlantUML tries its diagram types in turn (sequence, class, …,
//! description, …) and keeps the first that reads every line; the parser
//! does the same (see `Parser::parse_diagram_by_trial`): a block that
//! neither the sequence nor the class statements read is read again with
//! these, and kept when they read every line.
//!
//! Which lines the reading takes is decided by the line grammar shared with
//! `puml-sema`'s fallback reading (`crate::description_grammar`, fitted to
//! PlantUML's verdicts); this module cuts an accepted line into its pieces
//! (keyword, names and displays, stereotypes, colours, arrow, label), so a
//! line's tokens always cover it, and tracks what the reading needs beyond
//! one line: open containers, the names read so far (a note is placed by
//! one), the type each code was created with (PlantUML refuses a second
//! declaration of a code with another type), whether a link came before a
//! `note on link`.

use super::lexer::{first_word, trim_blanks_start};
use super::{Line, Parser};
use crate::description_grammar as grammar;
use crate::{codes, Diagnostic, SyntaxKind};
use std::collections::{HashMap, HashSet};
use SyntaxKind::*;

/// Significant pieces of a line: `(kind, start, end)`, byte offsets into the
/// line's content, in order and disjoint.
type Pieces = Vec<(SyntaxKind, usize, usize)>;

/// What the description reading remembers between lines.
#[derive(Debug, Default, Clone)]
pub(crate) struct DescriptionReading {
    /// Containers opened and not closed yet.
    depth: usize,
    /// Codes and displays read so far (a note is placed by one of them).
    names: HashSet<String>,
    /// The type each code was created with (`None`: by a link, from its plain name).
    types: HashMap<String, Option<&'static str>>,
    /// Elements and links read.
    pub(crate) elements: usize,
    /// A link was read (`note on link` needs one).
    linked: bool,
}

/// A colour PlantUML knows (`A --> B#red` glues one to a name; `A#b` is refused).
fn known_color(text: &str) -> bool {
    crate::colors::is_valid_color(text)
}

fn blanks(text: &str, pos: usize) -> usize {
    pos + (text[pos..].len() - text[pos..].trim_start().len())
}

/// The offset in `line` of a suffix `rest` of it.
fn offset_of(line: &str, rest: &str) -> usize {
    line.len() - rest.len()
}

/// Options after an element or a link (stereotypes, `[[url]]`, colours and
/// styles, tags), from `pos` to `end`; anything else is text.
fn push_options(text: &str, mut pos: usize, end: usize, pieces: &mut Pieces) {
    pos = blanks(text, pos).min(end);
    while pos < end {
        let rest = &text[pos..end];
        let len = if let Some(after) = rest.strip_prefix("<<") {
            after.find(">>").map(|c| (STEREOTYPE, c + 4))
        } else if let Some(after) = rest.strip_prefix("[[") {
            after.find("]]").map(|c| (URL, c + 4))
        } else if rest.starts_with('#') || rest.starts_with('$') {
            Some((COLOR, rest.find(char::is_whitespace).unwrap_or(rest.len())))
        } else {
            None
        };
        match len {
            Some((kind, len)) => {
                pieces.push((kind, pos, pos + len));
                pos = blanks(text, pos + len).min(end);
            }
            None => {
                pieces.push((TEXT, pos, pos + rest.trim_end().len()));
                return;
            }
        }
    }
}

/// The kind of a name piece: a quoted display is a `STRING`, a short form
/// (`[C]`, `(U)`, `:A:`, `() I`) or a plain name an `IDENT`.
fn name_kind(text: &str) -> SyntaxKind {
    if text.starts_with('"') {
        STRING
    } else {
        IDENT
    }
}

/// A name or display at `pos` (see `grammar::display_or_name`): its end.
fn name_end(text: &str, pos: usize) -> Option<usize> {
    let (_, rest) = grammar::display_or_name(&text[pos..])?;
    Some(offset_of(text, rest))
}

/// `[KEYWORD] NAME [<<s>>] [as NAME] options` from `pos` (`keyword_len`
/// bytes of keyword first, if any), up to `end`.
fn declaration_pieces(text: &str, keyword_len: usize, end: usize) -> Pieces {
    declaration_pieces_in(text, keyword_len, end, false)
}

/// [`declaration_pieces`]; a container's plain name may hold `-` and `::`
/// (`rectangle Use-A-Portal{`).
fn declaration_pieces_in(text: &str, keyword_len: usize, end: usize, container: bool) -> Pieces {
    let mut pieces = Vec::new();
    let mut pos = blanks(text, 0);
    if keyword_len > 0 {
        pieces.push((KEYWORD, pos, pos + keyword_len));
        pos = blanks(text, pos + keyword_len);
    }
    let head = &text[..end];
    if pos >= end {
        return pieces;
    }
    let plain_container_name = || {
        let rest = &head[pos..];
        let len = rest
            .find(|c: char| c.is_whitespace() || c == '"' || c == '#' || c == '<')
            .unwrap_or(rest.len());
        (len > 0).then_some(pos + len)
    };
    let first_end = if container && !head[pos..].starts_with(['"', '[', '(', ':']) {
        plain_container_name()
    } else {
        name_end(head, pos)
    };
    let Some(first_end) = first_end.or_else(|| {
        // A container's name may hold `-` and `::` (`rectangle Use-A-Portal {`).
        let rest = &head[pos..];
        let len = rest
            .find(|c: char| c.is_whitespace() || c == '"' || c == '#' || c == '<')
            .unwrap_or(rest.len());
        (len > 0).then_some(pos + len)
    }) else {
        pieces.push((TEXT, pos, pos + head[pos..].trim_end().len()));
        return pieces;
    };
    pieces.push((name_kind(&head[pos..first_end]), pos, first_end));
    pos = blanks(head, first_end);
    // Stereotypes may stand before `as`.
    let mut stereo = Vec::new();
    let mut at = pos;
    while head[at..].starts_with("<<") {
        match head[at + 2..].find(">>") {
            Some(close) => {
                stereo.push((STEREOTYPE, at, at + close + 4));
                at = blanks(head, at + close + 4);
            }
            None => break,
        }
    }
    if let Some(alias) = grammar::strip_word(&head[at..], "as") {
        let alias_at = offset_of(head, alias);
        if let Some(alias_end) = name_end(head, alias_at) {
            pieces.extend(stereo);
            pieces.push((KEYWORD, at, at + 2));
            pieces.push((name_kind(&head[alias_at..alias_end]), alias_at, alias_end));
            pos = alias_end;
        }
    }
    push_options(head, pos, end, &mut pieces);
    pieces
}

/// `FROM ["m"] ARROW ["m"] TO [options] [: label]`.
fn link_pieces(text: &str) -> Option<Pieces> {
    let mut pieces = Vec::new();
    let start = blanks(text, 0);
    let (_, rest) = grammar::endpoint(&text[start..])?;
    let from_end = offset_of(text, rest);
    pieces.push((name_kind(&text[start..from_end]), start, from_end));
    let mut pos = from_end;
    if rest.starts_with(char::is_whitespace) {
        let at = blanks(text, pos);
        if text[at..].starts_with('"') {
            let close = text[at + 1..].find('"')? + at + 2;
            pieces.push((STRING, at, close));
            pos = close;
        }
    }
    let at = blanks(text, pos);
    let after_arrow = grammar::arrow(&text[at..])?;
    let arrow_end = offset_of(text, after_arrow);
    pieces.push((ARROW, at, arrow_end));
    let mut pos = blanks(text, arrow_end);
    let rest = &text[pos..];
    if rest.starts_with('"')
        && rest[1..].find('"').is_some_and(|close| {
            let tail = rest[close + 2..].trim_start();
            !tail.is_empty() && !tail.starts_with(':')
        })
    {
        let close = rest[1..].find('"')? + pos + 2;
        pieces.push((STRING, pos, close));
        pos = blanks(text, close);
    }
    let (_, rest) = grammar::endpoint(&text[pos..])?;
    let to_end = offset_of(text, rest);
    pieces.push((name_kind(&text[pos..to_end]), pos, to_end));
    let label = text[to_end..].find(':').map(|c| c + to_end);
    let options_end = label.unwrap_or(text.trim_end().len());
    push_options(text, to_end, options_end, &mut pieces);
    if let Some(colon) = label {
        pieces.push((COLON, colon, colon + 1));
        let at = blanks(text, colon + 1);
        let end = text.trim_end().len();
        if end > at {
            pieces.push((TEXT, at, end));
        }
    }
    Some(pieces)
}

/// `note …`: keyword, position words, the target, options, `: text`.
fn note_pieces(text: &str) -> Pieces {
    let mut pieces = Vec::new();
    let start = blanks(text, 0);
    pieces.push((KEYWORD, start, start + 4));
    let mut pos = blanks(text, start + 4);
    let trimmed_end = text.trim_end().len();
    // `note "text" as N`.
    if text[pos..].starts_with('"') {
        if let Some(close) = text[pos + 1..].find('"') {
            pieces.push((STRING, pos, pos + close + 2));
            pos = blanks(text, pos + close + 2);
        }
    }
    while pos < trimmed_end {
        let rest = &text[pos..trimmed_end];
        if rest.starts_with(':') {
            pieces.push((COLON, pos, pos + 1));
            let at = blanks(text, pos + 1);
            if trimmed_end > at {
                pieces.push((TEXT, at, trimmed_end));
            }
            break;
        }
        let word_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let word = rest[..word_len].to_ascii_lowercase();
        if word_len > 0
            && matches!(
                word.as_str(),
                "left" | "right" | "top" | "bottom" | "of" | "on" | "link" | "as"
            )
            && rest[word_len..].chars().next().is_none_or(|c| !c.is_alphanumeric())
        {
            pieces.push((KEYWORD, pos, pos + word_len));
            pos = blanks(text, pos + word_len);
            continue;
        }
        if rest.starts_with("<<") || rest.starts_with('#') {
            let len = rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len());
            let kind = if rest.starts_with('#') { COLOR } else { STEREOTYPE };
            pieces.push((kind, pos, pos + len));
            pos = blanks(text, pos + len);
            continue;
        }
        match grammar::endpoint(rest) {
            Some((_, tail)) if tail.len() < rest.len() => {
                let end = pos + rest.len() - tail.len();
                pieces.push((name_kind(&text[pos..end]), pos, end));
                pos = blanks(text, end);
            }
            _ => {
                pieces.push((TEXT, pos, trimmed_end));
                break;
            }
        }
    }
    pieces
}

/// A block note's header: `note left of A`, `note right`, `note on link`,
/// `note as N`, alone on their line.
fn note_block_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let is = |word: &str, expected: &str| word.eq_ignore_ascii_case(expected);
    let position = |word: &str| ["left", "right", "top", "bottom"].iter().any(|p| is(word, p));
    match words.as_slice() {
        [note, ..] if !is(note, "note") => false,
        [_, position_word] => position(position_word),
        [_, as_, name] if is(as_, "as") => !grammar::name(name).0.is_empty(),
        [_, on, link] if is(on, "on") && is(link, "link") => true,
        // `note left of A`, `note right of (Use) #pink`.
        _ => grammar::note_block_target(line).is_some(),
    }
}

impl<'a> Parser<'a> {
    /// One statement of a description diagram, starting at `self.pos`.
    pub(crate) fn parse_description_statement(&mut self) {
        let line = self.lines[self.pos];
        if self.take_comment_or_blank(&line) {
            return;
        }
        let trimmed = trim_blanks_start(line.content);
        let lines_before = self.pos;
        let word = first_word(line.content);
        let text = trimmed.trim_end();
        let lower = text.to_ascii_lowercase();
        let compact: String = lower.split_whitespace().collect::<Vec<_>>().join(" ");
        match &*word {
            w if w.starts_with('!') => self.keyword_statement(&line, &word, trimmed),
            "left" | "top" if compact == "left to right direction" || compact == "top to bottom direction" => {
                self.description_words(&line, DESC_OPTION)
            }
            "title" | "header" | "footer" | "legend" | "caption" | "mainframe" | "skinparam" | "skinparamlocked"
            | "skin" | "scale" | "sprite" => self.keyword_statement(&line, &word, trimmed),
            "left" | "right" | "center" if self.is_aligned_header(&line) => {
                self.keyword_statement(&line, &word, trimmed)
            }
            _ if lower.starts_with("<style") => self.keyword_statement(&line, &word, trimmed),
            "newpage" if compact == "newpage" => self.description_words(&line, NEWPAGE),
            "hide" | "show" | "remove" | "restore" if grammar::setting(text) => {
                self.description_keyword_text(&line, HIDE_SHOW, 1)
            }
            "set" if grammar::setting(text) => self.description_keyword_text(&line, DESC_OPTION, 2),
            _ if compact == "}" => {
                if self.description.depth == 0 {
                    self.description_unknown(&line, "this `}` closes no container");
                } else {
                    self.description.depth -= 1;
                    self.description_words(&line, DESC_CONTAINER_END);
                }
            }
            "together" if compact == "together {" => {
                self.description.depth += 1;
                self.description_words(&line, DESC_CONTAINER_START);
            }
            _ if grammar::container_header(text) => {
                let open = line.content.rfind('{').unwrap_or(line.content.len());
                let mut pieces = declaration_pieces_in(line.content, word.len(), open, true);
                pieces.push((L_BRACE, open, open + 1));
                if let Some(code) = grammar::container_code(text) {
                    self.description.names.insert(code);
                }
                self.description
                    .names
                    .extend(grammar::first_names(text, 3).into_iter().skip(1));
                self.description.depth += 1;
                self.description_node(&line, DESC_CONTAINER_START, &pieces);
            }
            "note" | "Note" | "NOTE" => self.description_note(&line, text),
            _ if grammar::refused_multi_line_header(text).is_some() => {
                self.description_unknown(&line, "PlantUML refuses this element's text over several lines")
            }
            _ => {
                if let Some(form) = grammar::multi_line_header(text) {
                    self.description_multi_line(&line, text, form);
                } else {
                    self.description_element_or_link(&line, text, &word);
                }
            }
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    /// An element (with a keyword or a short form), a port, or a link.
    fn description_element_or_link(&mut self, line: &Line<'a>, text: &str, word: &str) {
        let is_port = ["port", "portin", "portout"]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(word));
        let port_allowed =
            is_port && ((self.description.depth > 0 && grammar::port(text)) || grammar::port_short_form(text));
        let form = if port_allowed {
            None
        } else {
            match grammar::line_form(text, &known_color) {
                Some(form @ (grammar::LineForm::Declaration | grammar::LineForm::Link)) => Some(form),
                _ => return self.description_unknown(line, "this line is not a statement of a description diagram"),
            }
        };
        // A line read as a link is no declaration (`line_form` tried
        // those first), and its endpoints need no second link test.
        let is_link = form == Some(grammar::LineForm::Link);
        let declared =
            if port_allowed || is_link || (grammar::greedy_only_declaration(text) && grammar::link(text, &known_color))
            {
                None
            } else {
                grammar::declared(text)
            };
        match declared {
            Some((code, kind)) => {
                if let Some(existing) = self.description.types.get(&code) {
                    if existing.is_none_or(|existing| existing != kind) {
                        let message = format!("`{code}` is already defined with another type: PlantUML refuses to declare it again as `{kind}`");
                        return self.description_unknown(line, &message);
                    }
                }
                self.description.names.insert(code.clone());
                self.description.names.extend(grammar::first_names(text, 2));
                self.description.types.entry(code).or_insert(Some(kind));
                let keyword_len = if grammar::split_keyword(text).is_some() {
                    word.len()
                } else {
                    0
                };
                let end = line.content.trim_end().len();
                let pieces = declaration_pieces(line.content, keyword_len, end);
                self.description.elements += 1;
                self.description_node(line, DESC_ELEMENT, &pieces);
            }
            None if port_allowed => {
                let end = line.content.trim_end().len();
                let pieces = declaration_pieces(line.content, word.len(), end);
                self.description
                    .names
                    .extend(grammar::first_names(text, 3).into_iter().skip(1));
                self.description.elements += 1;
                self.description_node(line, DESC_ELEMENT, &pieces);
            }
            None => {
                let endpoints = if is_link {
                    grammar::link_endpoints_of_link(text)
                } else {
                    grammar::link_endpoints(text, &known_color)
                };
                let Some(pieces) = link_pieces(line.content).filter(|_| !endpoints.is_empty()) else {
                    return self.description_unknown(line, "this line is not a statement of a description diagram");
                };
                for (code, kind) in endpoints {
                    self.description.names.insert(code.clone());
                    self.description.types.entry(code).or_insert(kind);
                }
                self.description.elements += 1;
                self.description.linked = true;
                self.description_node(line, DESC_LINK, &pieces);
            }
        }
    }

    /// `component C [` … `]`, `usecase U as "text` … `"`: an element whose
    /// text runs over lines.
    fn description_multi_line(&mut self, line: &Line<'a>, text: &str, form: grammar::MultiLine) {
        let Some(end) = self.find_block_end(|l| form.closes(l)) else {
            return self.description_unknown(line, "this element's text is never closed");
        };
        self.description.names.extend(grammar::first_names(text, 2));
        if let Some((_, rest)) = grammar::split_keyword(text) {
            let (name, _) = grammar::name(rest);
            if !name.is_empty() {
                self.description.names.insert(name.to_string());
            }
        }
        self.description.elements += 1;
        let content = line.content.trim_end();
        let opener = match form {
            grammar::MultiLine::Bracket => content.len() - 1,
            grammar::MultiLine::Quote => content.find('"').unwrap_or(content.len()),
        };
        let word = first_word(line.content);
        let mut pieces = declaration_pieces(line.content, word.len(), opener);
        match form {
            grammar::MultiLine::Bracket => pieces.push((L_BRACKET, opener, opener + 1)),
            grammar::MultiLine::Quote => pieces.push((TEXT, opener, content.len())),
        }
        self.builder.start_node(DESC_ELEMENT.into());
        self.emit_pieces_line(line, &pieces);
        self.emit_body(end);
        let closing = self.lines[end];
        self.builder.start_node(BLOCK_END.into());
        let mut lx = self.lexer(closing.content);
        lx.ws();
        let text_len = lx.rest().trim_end().len().saturating_sub(1);
        if text_len > 0 {
            lx.push(TEXT, text_len);
        }
        match form {
            grammar::MultiLine::Bracket => lx.push(R_BRACKET, 1),
            grammar::MultiLine::Quote => lx.push(TEXT, 1),
        }
        lx.ws();
        self.emit_line(&closing, lx);
        self.builder.finish_node();
        self.pos = end + 1;
        self.builder.finish_node();
    }

    /// A note: one line, or a block to `end note`.
    fn description_note(&mut self, line: &Line<'a>, text: &str) {
        let one_line = grammar::note(text);
        let block = !one_line && note_block_header(text);
        if !one_line && !block {
            return self.description_unknown(line, "this note is not one PlantUML reads");
        }
        // A note is placed by an element read before it (`note left : x`
        // by the last one, `note on link` by the last link).
        let target = grammar::note_target(text);
        let missing = match &target {
            Some(target) if !self.description.names.contains(target) => {
                Some(format!("`{target}` is not declared before this note"))
            }
            Some(_) => None,
            None if grammar::note_on_link_block(text) || text.to_ascii_lowercase().contains(" on link") => {
                (!self.description.linked).then(|| "`note on link` needs a link before it".to_string())
            }
            None if grammar::note_by_last_element(text) || (block && !text.to_ascii_lowercase().contains(" as ")) => {
                (self.description.elements == 0)
                    .then(|| "this note goes by the last element, and none comes before it".to_string())
            }
            None => None,
        };
        if let Some(message) = missing {
            return self.description_unknown(line, &message);
        }
        let lower = text.to_ascii_lowercase();
        if let Some(alias) = lower.find(" as ") {
            let name = text[alias + 4..].trim();
            self.description.names.insert(name.to_string());
        }
        let pieces = note_pieces(line.content);
        self.builder.start_node(DESC_NOTE.into());
        self.emit_pieces_line(line, &pieces);
        if block {
            match self.find_block_end(|l| l == "end note" || l == "endnote" || l.starts_with("end note ")) {
                Some(end) => {
                    self.emit_body(end);
                    self.emit_block_end(end);
                    self.pos = end + 1;
                }
                None => {
                    let range = self.line_range(line);
                    self.error(Diagnostic::error(
                        codes::UNCLOSED_BLOCK,
                        range,
                        "this note is never closed: end it with `end note`",
                    ));
                }
            }
        }
        self.builder.finish_node();
    }

    /// A statement node of one line made of `pieces`.
    fn description_node(&mut self, line: &Line<'a>, kind: SyntaxKind, pieces: &Pieces) {
        self.builder.start_node(kind.into());
        self.emit_pieces_line(line, pieces);
        self.builder.finish_node();
    }

    /// Emits a line as `pieces` with the blanks between them.
    fn emit_pieces_line(&mut self, line: &Line<'a>, pieces: &Pieces) {
        let mut lx = self.lexer(line.content);
        for &(kind, start, end) in pieces {
            if start < lx.pos || end <= start {
                continue;
            }
            if start > lx.pos {
                let gap = &line.content[lx.pos..start];
                let k = if gap.trim().is_empty() { WHITESPACE } else { TEXT };
                lx.push(k, start - lx.pos);
            }
            lx.push(kind, end - start);
        }
        let rest = lx.rest().len();
        if rest > 0 {
            let k = if lx.rest().trim().is_empty() { WHITESPACE } else { TEXT };
            lx.push(k, rest);
        }
        self.emit_line(line, lx);
    }

    /// A statement made of words only (`}`, `left to right direction`).
    fn description_words(&mut self, line: &Line<'a>, kind: SyntaxKind) {
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
        self.description_node(line, kind, &pieces);
    }

    /// `keywords` words, then the rest as text (`hide stereotype`).
    fn description_keyword_text(&mut self, line: &Line<'a>, kind: SyntaxKind, keywords: usize) {
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
        self.description_node(line, kind, &pieces);
    }

    /// A line the description reading does not take.
    fn description_unknown(&mut self, line: &Line<'a>, message: &str) {
        self.unread_line(line, message.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(pieces: &Pieces, text: &str) -> Vec<(SyntaxKind, String)> {
        pieces.iter().map(|&(k, s, e)| (k, text[s..e].to_string())).collect()
    }

    #[test]
    fn declarations_split_into_keyword_names_and_options() {
        let text = "node \"Server\" <<device>> as S #pink";
        assert_eq!(
            kinds(&declaration_pieces(text, 4, text.len()), text),
            vec![
                (KEYWORD, "node".into()),
                (STRING, "\"Server\"".into()),
                (STEREOTYPE, "<<device>>".into()),
                (KEYWORD, "as".into()),
                (IDENT, "S".into()),
                (COLOR, "#pink".into()),
            ]
        );
        let text = "[Client] as c";
        assert_eq!(
            kinds(&declaration_pieces(text, 0, text.len()), text),
            vec![(IDENT, "[Client]".into()), (KEYWORD, "as".into()), (IDENT, "c".into())]
        );
    }

    #[test]
    fn links_split_into_ends_arrow_and_label() {
        let text = "[A] \"1\" -[#red,dashed]-> \"*\" (B) #blue : calls it";
        assert_eq!(
            kinds(&link_pieces(text).unwrap(), text),
            vec![
                (IDENT, "[A]".into()),
                (STRING, "\"1\"".into()),
                (ARROW, "-[#red,dashed]->".into()),
                (STRING, "\"*\"".into()),
                (IDENT, "(B)".into()),
                (COLOR, "#blue".into()),
                (COLON, ":".into()),
                (TEXT, "calls it".into()),
            ]
        );
    }
}
