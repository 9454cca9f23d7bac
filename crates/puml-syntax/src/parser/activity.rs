//! Activity diagrams (PlantUML's "new" activity syntax).
//!
//! PlantUML decides a block's type by trying each diagram type in turn and
//! keeping the one that reads every line, or, when none does, the one that
//! read furthest (sequence wins a tie, being tried first). Lines that both
//! languages read (titles, skinparams, notes, preprocessor lines) decide
//! nothing; a line neither reads makes both fail there, a tie that sequence
//! wins. So the type is that of the first line not shared by both: activity
//! when it is an activity line, sequence otherwise ([`line_class`],
//! `Parser::block_is_activity`). A block with no activity line before its
//! first other deciding line stays a sequence diagram.
//!
//! Every construct is flat (`IF_START`/`ELSE_IF`/`ACT_ELSE`/`END_IF` are
//! siblings): only actions whose text spans lines and block notes are
//! multi-line nodes, and their depth is bounded.

use super::lexer::{first_word, LineLexer};
use super::statements::PARTICIPANT_KINDS;
use super::{Line, Parser};
use crate::codes;
use crate::{Diagnostic, SyntaxKind, TextEdit};
use rowan::TextSize;
use SyntaxKind::*;

/// What one line says about its block's diagram type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineClass {
    /// Read only by the activity language.
    Activity,
    /// Read only by the sequence language.
    Sequence,
    /// Read by both, or by neither: decides nothing.
    Neutral,
}

/// Keywords that open an activity statement and mean nothing in a sequence diagram.
const ACTIVITY_WORDS: &[&str] = &[
    "start",
    "stop",
    "end",
    "kill",
    "detach",
    "if",
    "elseif",
    "endif",
    "while",
    "endwhile",
    "repeat",
    "backward",
    "fork",
    "split",
    "switch",
    "case",
    "endswitch",
    "partition",
    "package",
    "rectangle",
    "card",
    "floating",
    "endfork",
    "endsplit",
];

/// Keywords of statements only the sequence language has.
const SEQUENCE_WORDS: &[&str] = &[
    "create",
    "activate",
    "deactivate",
    "destroy",
    "autoactivate",
    "return",
    "autonumber",
    "ref",
    "box",
    "alt",
    "opt",
    "loop",
    "par",
    "critical",
    "newpage",
    "hnote",
    "rnote",
];

/// Keywords of statements both languages share, parsed by the sequence
/// parser's functions.
const COMMON_WORDS: &[&str] = &[
    "title",
    "header",
    "footer",
    "legend",
    "caption",
    "mainframe",
    "hide",
    "show",
    "skinparam",
    "skinparamlocked",
    "skin",
    "scale",
    "sprite",
    "left",
    "right",
    "center",
];

/// How a line's content classifies its block (see the module docs).
pub(crate) fn line_class(content: &str) -> LineClass {
    let trimmed = content.trim();
    if trimmed.is_empty() || trimmed.starts_with('\'') || trimmed.starts_with("/'") {
        return LineClass::Neutral;
    }
    let word = first_word(trimmed);
    if trimmed.starts_with(':')
        || (trimmed.starts_with('|') && !trimmed.starts_with("||"))
        || (trimmed.starts_with('#') && trimmed.contains(':') && !trimmed.contains("->"))
        || (is_connector(trimmed))
        || (ACTIVITY_WORDS.contains(&&*word) && word != "end")
        || (word == "end" && is_activity_end(trimmed))
    {
        return LineClass::Activity;
    }
    // `break` alone is an activity step or a sequence group; `break label`
    // only a sequence group.
    if word == "break" && trimmed.len() > "break".len() && !trimmed.eq_ignore_ascii_case("break;") {
        return LineClass::Sequence;
    }
    if SEQUENCE_WORDS.contains(&&*word)
        || PARTICIPANT_KINDS.contains(&&*word)
        || trimmed.starts_with("==")
        || trimmed.starts_with("...")
        || trimmed.starts_with("||")
        || (word == "note" && trimmed.to_ascii_lowercase().contains(" over "))
    {
        return LineClass::Sequence;
    }
    if trimmed.starts_with('-') && !trimmed.starts_with("--") || trimmed.starts_with("-->") {
        // `->`, `-[#red]->`: an activity arrow (no sequence message starts with one).
        return LineClass::Activity;
    }
    // Lines both languages read decide nothing.
    if trimmed.contains("(*)")
        || trimmed.starts_with('!')
        || trimmed.get(..6).is_some_and(|head| head.eq_ignore_ascii_case("<style"))
        || COMMON_WORDS.contains(&&*word)
        || matches!(&*word, "note" | "group" | "break")
    {
        return LineClass::Neutral;
    }
    // Any other line is no activity statement: a sequence statement, or a
    // line neither language reads, where both fail on the same line and
    // PlantUML (trying sequence diagrams first) keeps the sequence reading.
    LineClass::Sequence
}

/// Whether PlantUML reads the diagram whose text (its `@startuml` line
/// included, when it has one) is `diagram_text` as an activity diagram: the
/// parser's own decision, made again (for `ast::Diagram::is_activity` and
/// the incremental re-parse).
/// The kind decision over a diagram's text (from its `@startuml` line), or
/// over a prefix of it that ends at a line end (`complete` false): `None`
/// when the prefix does not decide.
pub(crate) fn text_kind_decision(text: &str, complete: bool) -> Option<bool> {
    let mut parser = Parser::new(text);
    if parser
        .lines
        .first()
        .is_some_and(|l| first_word(l.content).starts_with("@startuml"))
    {
        parser.pos = 1;
    }
    match parser.block_kind_decision(complete) {
        None if complete => Some(false),
        decided => decided,
    }
}

pub(crate) fn text_is_activity(diagram_text: &str) -> bool {
    kind_decision_with_extent(diagram_text).0
}

/// [`text_is_activity`], with the length of the text's prefix the decision
/// read (ending at a line end, or the whole text): a text that starts with
/// the same prefix is decided the same way. The incremental re-parse uses
/// it to skip the decision for an edit past that prefix.
pub(crate) fn kind_decision_with_extent(diagram_text: &str) -> (bool, usize) {
    // The kind is almost always decided within the first lines, and this
    // runs on every keystroke that edits inside the decided prefix: split
    // only a growing prefix of the text into lines rather than all of it.
    let mut prefix_len = 4096;
    loop {
        let whole = prefix_len >= diagram_text.len();
        let prefix = if whole {
            diagram_text
        } else {
            // Bytes, not `str` slicing: the prefix length may fall inside a
            // multi-byte character, a line break never does.
            let cut = diagram_text.as_bytes()[..prefix_len]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            &diagram_text[..cut]
        };
        let mut parser = Parser::new(prefix);
        if !whole {
            // A cut prefix's last line may be the first half of a line
            // continued with `\`: it decides nothing.
            parser.lines.pop();
        }
        if parser
            .lines
            .first()
            .is_some_and(|l| first_word(l.content).starts_with("@startuml"))
        {
            parser.pos = 1;
        }
        let (decision, lines_read) = parser.block_kind_decision_reading(whole);
        // The lines read, and the one after them for good measure (a line
        // is never joined with the next unless it ends in a backslash, but
        // the margin costs nothing).
        let extent = |lines_read: usize| {
            parser
                .lines
                .get(lines_read)
                .map_or(diagram_text.len(), |l| l.start + l.content.len() + l.newline.len())
        };
        match decision {
            Some(is_activity) => return (is_activity, extent(lines_read)),
            None if whole => return (false, diagram_text.len()),
            None => prefix_len = prefix_len.saturating_mul(4),
        }
    }
}

/// `end`, `end fork`, `end if`…: the activity closers (`end box`, `end
/// note` are not).
fn is_activity_end(trimmed: &str) -> bool {
    let lower = trimmed.to_ascii_lowercase();
    let mut words = lower.split_whitespace().skip(1);
    match words.next() {
        None => true,
        Some(second) => matches!(
            second.trim_end_matches(';'),
            "" | "fork" | "merge" | "split" | "if" | "while" | "switch"
        ),
    }
}

/// `name -> name`-ish: a name (or quoted name) then an arrow character.
fn looks_like_message_text(trimmed: &str) -> bool {
    let rest = trimmed.trim_start_matches(['&', '[', '?']);
    let name_end = if let Some(r) = rest.strip_prefix('"') {
        match r.find('"') {
            Some(e) => e + 2,
            None => return false,
        }
    } else {
        rest.find(|c: char| !super::lexer::is_name_char(c))
            .unwrap_or(rest.len())
    };
    let after = rest[name_end..].trim_start();
    after.starts_with("->")
        || after.starts_with("-->")
        || after.starts_with("<-")
        || after.starts_with("-[")
        || after.starts_with("->>")
        || after.starts_with("-\\")
        || after.starts_with("-/")
}

/// `(A)`: a connector.
fn is_connector(trimmed: &str) -> bool {
    trimmed.len() >= 3
        && trimmed.starts_with('(')
        && trimmed.ends_with(')')
        && !trimmed.starts_with("(*")
        && !trimmed[1..trimmed.len() - 1].contains(['(', ')'])
}

/// `#color:(A)`: a coloured connector.
fn colored_connector(trimmed: &str) -> bool {
    trimmed.starts_with('#')
        && trimmed
            .split_once(':')
            .is_some_and(|(color, rest)| !color.contains(char::is_whitespace) && is_connector(rest))
}

/// The block-opening lines whose body the type decision must skip (a note
/// body is free text): the predicate recognising the body's last line.
fn block_end_of(trimmed: &str) -> Option<fn(&str) -> bool> {
    let lower = trimmed.to_ascii_lowercase();
    let word = first_word(&lower);
    let compact = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    match &*word {
        "note" | "hnote" | "rnote" | "floating" if !lower.contains(':') => Some(|l: &str| {
            let c = l.split_whitespace().collect::<Vec<_>>().join(" ");
            matches!(
                c.as_str(),
                "end note" | "endnote" | "end hnote" | "endhnote" | "end rnote" | "endrnote"
            )
        }),
        "legend"
            if lower
                .split_whitespace()
                .skip(1)
                .all(|w| matches!(w, "top" | "bottom" | "left" | "right" | "center")) =>
        {
            Some(|l: &str| {
                let c = l.split_whitespace().collect::<Vec<_>>().join(" ");
                c == "end legend" || c == "endlegend"
            })
        }
        "title" if compact(&lower) == "title" => Some(|l: &str| {
            let c = l.split_whitespace().collect::<Vec<_>>().join(" ");
            c == "end title" || c == "endtitle"
        }),
        "header" if compact(&lower) == "header" => Some(|l: &str| {
            let c = l.split_whitespace().collect::<Vec<_>>().join(" ");
            c == "end header" || c == "endheader"
        }),
        "footer" if compact(&lower) == "footer" => Some(|l: &str| {
            let c = l.split_whitespace().collect::<Vec<_>>().join(" ");
            c == "end footer" || c == "endfooter"
        }),
        "skinparam" if lower.ends_with('{') => Some(|l: &str| l.starts_with('}')),
        _ if lower.starts_with("<style") => Some(|l: &str| l.starts_with("</style")),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    /// Whether the block whose statements start at `self.pos` is an
    /// activity diagram: its first line that only one language reads is an
    /// activity line.
    pub(crate) fn block_is_activity(&self) -> bool {
        self.block_kind_decision(true).unwrap_or(false)
    }

    /// `Some(true)` when the first line only one language reads is an
    /// activity line, `Some(false)` when it is a sequence line or the block
    /// ends first; `None` when the lines run out before either (or inside a
    /// block comment or, when the lines are only a prefix of the text
    /// (`complete` false), a block whose end is not among them).
    pub(crate) fn block_kind_decision(&self, complete: bool) -> Option<bool> {
        self.block_kind_decision_reading(complete).0
    }

    /// [`Parser::block_kind_decision`], with how many of `self.lines` it
    /// read (an index one past the furthest line it looked at).
    pub(crate) fn block_kind_decision_reading(&self, complete: bool) -> (Option<bool>, usize) {
        let mut idx = self.pos;
        let mut read = idx;
        let note = |idx: usize, read: &mut usize| *read = (*read).max((idx + 1).min(self.lines.len()));
        while idx < self.lines.len() {
            note(idx, &mut read);
            let content = self.lines[idx].content;
            let trimmed = content.trim();
            // Only a line starting with `@` can have a first word starting with one.
            if trimmed.starts_with('@') && {
                let word = first_word(trimmed);
                word.starts_with("@end") || word.starts_with("@start")
            } {
                return (Some(false), read);
            }
            if let Some(after) = trimmed.strip_prefix("/'") {
                // Skip to the line that closes the comment.
                if !after.contains("'/") {
                    idx += 1;
                    while idx < self.lines.len() && !self.lines[idx].content.contains("'/") {
                        idx += 1;
                    }
                    note(idx, &mut read);
                    if idx >= self.lines.len() {
                        return (None, self.lines.len());
                    }
                }
                idx += 1;
                continue;
            }
            match line_class(content) {
                LineClass::Activity => return (Some(true), read),
                LineClass::Sequence => return (Some(false), read),
                LineClass::Neutral => {}
            }
            if let Some(is_end) = block_end_of(trimmed) {
                let start = idx;
                idx += 1;
                // One buffer for every body line's lowercased copy.
                let mut l = String::new();
                while idx < self.lines.len() {
                    l.clear();
                    l.push_str(self.lines[idx].content.trim());
                    l.make_ascii_lowercase();
                    if l.starts_with("@end") || is_end(&l) {
                        break;
                    }
                    idx += 1;
                }
                note(idx, &mut read);
                if idx >= self.lines.len() {
                    if !complete {
                        // The end may lie past the prefix.
                        return (None, self.lines.len());
                    }
                    idx = start;
                }
            }
            idx += 1;
        }
        (None, self.lines.len())
    }

    /// One statement of an activity diagram, starting at `self.pos`.
    pub(crate) fn parse_activity_statement(&mut self) {
        let line = self.lines[self.pos];
        let trimmed = line.content.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('\'') {
            self.emit_trivia_line(&line);
            self.pos += 1;
            return;
        }
        if trimmed.starts_with("/'") {
            self.block_comment(&line);
            return;
        }
        let word = first_word(line.content);
        let lines_before = self.pos;
        let lower = trimmed.trim_end().to_ascii_lowercase();
        let compact: String = lower.split_whitespace().collect::<Vec<_>>().join(" ");
        // Closers take a `;` after them (`endif;`, `end fork;`).
        let closer = compact.strip_suffix(';').map(str::trim_end).unwrap_or(&compact);
        match &*word {
            w if w.starts_with('!') => self.keyword_statement(&line, &word, trimmed),
            w if COMMON_WORDS.contains(&w) => self.keyword_statement(&line, &word, trimmed),
            _ if lower.starts_with("<style") => self.keyword_statement(&line, &word, trimmed),
            "kill" if compact == "kill" || compact.starts_with("kill ") || compact.starts_with("kill;") => {
                self.act_keywords(&line, ACT_FLOW, 1)
            }
            "start" | "stop" | "end" | "kill" | "detach" | "break"
                if compact == *word || compact.strip_suffix(';').is_some_and(|c| c == &*word) =>
            {
                self.act_keywords(&line, ACT_FLOW, 1)
            }
            "end" | "endfork" | "endsplit"
                if matches!(closer, "end fork" | "endfork" | "end merge" | "end split" | "endsplit")
                    || compact.starts_with("end fork ")
                    || compact.starts_with("endfork ")
                    || compact.starts_with("end merge ")
                    || compact.starts_with("end split ")
                    || compact.starts_with("endsplit ") =>
            {
                self.fork_end(&line)
            }
            "end" if compact.starts_with("end if") => self.act_with_parens(&line, END_IF, 2),
            "end" if compact == "end group" => self.act_keywords(&line, CONTAINER_END, 2),
            "end" if compact.starts_with("end while") => self.act_with_parens(&line, END_WHILE, 2),
            "endif" => self.act_with_parens(&line, END_IF, 1),
            "endwhile" => self.act_with_parens(&line, END_WHILE, 1),
            "endswitch" => self.act_with_parens(&line, END_SWITCH, 1),
            "if" => self.act_with_parens(&line, IF_START, 1),
            "elseif" => self.act_with_parens(&line, ELSE_IF, 1),
            "else" if compact.starts_with("else if") => self.act_with_parens(&line, ELSE_IF, 2),
            "else" => self.act_with_parens(&line, ACT_ELSE, 1),
            "while" => self.act_with_parens(&line, WHILE_START, 1),
            "switch" => self.act_with_parens(&line, SWITCH_START, 1),
            "case" => self.act_with_parens(&line, CASE, 1),
            "repeat" if compact.starts_with("repeat while") => self.act_with_parens(&line, REPEAT_WHILE, 2),
            "repeatwhile" => self.act_with_parens(&line, REPEAT_WHILE, 1),
            "repeat" => self.prefixed_action(&line, REPEAT_START, 1),
            "backward" => self.prefixed_action(&line, BACKWARD, 1),
            "fork" | "split" if compact == *word => self.act_keywords(&line, FORK_START, 1),
            "fork" | "split" if compact == format!("{word} again") => self.act_keywords(&line, FORK_AGAIN, 2),
            "partition" | "group" | "package" | "rectangle" | "card" => self.container_start(&line),
            "note" | "floating" => self.act_note(&line),
            _ if trimmed.starts_with(':') => self.action(&line, ACTION, 0),
            _ if trimmed.starts_with('#') && trimmed.contains(':') && !colored_connector(trimmed.trim_end()) => {
                self.action(&line, ACTION, 0)
            }
            _ if trimmed.starts_with('|') && !trimmed.starts_with("||") => self.swimlane(&line),
            _ if trimmed.trim_end() == "}" => self.act_keywords(&line, CONTAINER_END, 0),
            _ if is_arrow_line(trimmed) => self.act_arrow(&line),
            _ if trimmed.starts_with(['-', '*']) => self.bullet_action(&line),
            _ if is_connector(trimmed.trim_end()) || colored_connector(trimmed.trim_end()) => self.connector(&line),
            _ => self.act_unknown(&line, &word, trimmed),
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    /// `KEYWORD…` (`keywords` words, or a lone `}` when 0) and nothing else.
    fn act_keywords(&mut self, line: &Line<'a>, kind: SyntaxKind, keywords: usize) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        if keywords == 0 {
            lx.push(R_BRACE, 1);
        }
        for i in 0..keywords {
            if i > 0 {
                lx.ws();
            }
            let word = first_word(lx.rest());
            lx.keyword(&word);
        }
        lx.ws();
        if kind == ACT_FLOW && lx.rest().starts_with(';') {
            lx.push(TERMINATOR, 1);
            lx.ws();
        }
        // `kill` takes anything after it (PlantUML ignores it).
        if kind == ACT_FLOW && first_word(line.content) == "kill" && !lx.at_end() {
            lx.text_to_end();
        }
        self.report_activity_leftover(&mut lx, line);
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// `if (a) then (b)`, `while (a) is (b)`, `repeat while (a) is (b) not (c)`,
    /// `else (b)`, `endif`, `case (x)`: keywords and parenthesised texts.
    /// Keywords allowed between the parentheses: `then`, `is`, `equals`,
    /// `equal` (PlantUML reads `if (c) equal (x) then`), `not`, `else`
    /// (already after the leading ones).
    fn act_with_parens(&mut self, line: &Line<'a>, kind: SyntaxKind, keywords: usize) {
        self.builder.start_node(kind.into());
        let mut line = *line;
        let mut lx = self.lexer(line.content);
        lx.ws();
        for i in 0..keywords {
            if i > 0 {
                lx.ws();
            }
            let word = first_word(lx.rest());
            lx.keyword(&word);
        }
        let mut condition = false;
        let mut spanned = false;
        loop {
            let cp = lx.checkpoint();
            lx.ws();
            if lx.at_end() {
                lx.rewind(cp);
                break;
            }
            // A text over lines may end with `);` (grammar cases `multiline-paren`).
            if lx.rest().trim_end() == ";" && (matches!(kind, END_IF | END_WHILE) || spanned) {
                lx.push(TERMINATOR, 1);
                continue;
            }
            // `endif` and `endswitch` take no label.
            if lx.rest().starts_with('(') && !matches!(kind, END_IF | END_SWITCH) {
                let open_on_line = paren_unclosed(lx.rest()) && !ends_with_paren(line.content);
                // `if (c) then ([a` … `b])`: the condition or label of an
                // `if`, `elseif`, `else` or `repeat while` goes on up to the
                // next line ending in `)` (grammar cases `multiline-paren`);
                // `while`, `endwhile`, `switch` and `case` take none.
                let continues = matches!(kind, IF_START | ELSE_IF | ACT_ELSE | REPEAT_WHILE);
                if let Some(end) = (open_on_line && continues).then(|| self.paren_label_end()).flatten() {
                    let offset = line.content.len() - lx.rest().len();
                    let head = Line {
                        start: line.start,
                        content: &line.content[..offset],
                        newline: "",
                    };
                    self.emit_line(&head, lx);
                    let last = self.lines[end];
                    let from = line.start + offset;
                    let span = &self.text[from..last.start + last.content.len()];
                    let span_end = from + paren_len(span);
                    self.builder.token(PAREN.into(), &self.text[from..span_end]);
                    line = Line {
                        start: span_end,
                        content: &last.content[span_end - last.start..],
                        newline: last.newline,
                    };
                    lx = self.lexer(line.content);
                    self.pos = end + 1;
                    condition = true;
                    spanned = true;
                    continue;
                }
                if open_on_line {
                    let range = self.range(&line, 0, line.content.len());
                    self.error(Diagnostic::error(
                        codes::SYNTAX_ERROR,
                        range,
                        if continues {
                            "this `(` is never closed: a text in parentheses may go on over lines, up to a line ending in `)`"
                        } else {
                            "this `(` is not closed on its line: close it with `)` (only `if`, `elseif`, `else` and `repeat while` texts may go on over lines)"
                        },
                    ));
                }
                let len = paren_len(lx.rest());
                lx.push(PAREN, len);
                condition = true;
                continue;
            }
            let word = first_word(lx.rest());
            if matches!(&*word, "then" | "is" | "equals" | "equal" | "not") {
                lx.keyword(&word);
                continue;
            }
            lx.rewind(cp);
            break;
        }
        lx.ws();
        // `repeat while (c) is (no) -> label`: the label of the arrow back
        // to the loop's start, to the end of the line (a `;` included).
        if kind == REPEAT_WHILE && lx.rest().starts_with('-') && lx.rest()[..arrow_len(lx.rest())].ends_with('>') {
            lx.push(ARROW, arrow_len(lx.rest()));
            lx.ws();
            lx.text_to_end();
        }
        // PlantUML reads no `if` without a condition in parentheses (`if`,
        // `if then` are refused on their line).
        if kind == IF_START && !condition && !lx.at_end() {
            self.report_activity_leftover(&mut lx, &line);
        } else if kind == IF_START && !condition {
            let range = self.range(&line, 0, line.content.len());
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "an `if` needs its condition in parentheses: `if (condition) then`",
            ));
        } else {
            self.report_activity_leftover(&mut lx, &line);
        }
        self.emit_line(&line, lx);
        self.builder.finish_node();
    }

    /// The line that ends a parenthesised text begun on `self.pos` and not
    /// closed there: the next one (not a comment) ending in `)` or `);`,
    /// before the diagram's end. Scans at most a bounded number of lines.
    fn paren_label_end(&self) -> Option<usize> {
        const MAX_LABEL_LINES: usize = 200;
        let from = self.pos + 1;
        let to = self.lines.len().min(from + MAX_LABEL_LINES);
        for idx in from..to {
            let content = self.lines[idx].content;
            if first_word(content).starts_with("@end") {
                return None;
            }
            if !content.trim_start().starts_with('\'') && ends_with_paren(content) {
                return Some(idx);
            }
        }
        None
    }

    /// `repeat`, `repeat :text;`, `backward :text;`: a keyword and an
    /// optional action on the same line (its text may go on over lines).
    fn prefixed_action(&mut self, line: &Line<'a>, kind: SyntaxKind, keywords: usize) {
        let content = line.content;
        let lead = content.len() - content.trim_start().len();
        let after_kw = lead + first_word(content).len();
        let rest = content[after_kw..].trim_start();
        // `repeat :label;` is one line, uncoloured; `backward` needs its action.
        let action_ok = if kind == REPEAT_START {
            rest.starts_with(':') && ends_action(rest)
        } else {
            rest.starts_with(':') || rest.starts_with('#')
        };
        if action_ok {
            self.action(line, kind, keywords);
        } else {
            if kind == BACKWARD && rest.is_empty() {
                let range = self.line_range(line);
                self.error(Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "`backward` needs the action drawn on the way back: `backward :text;`",
                ));
            }
            self.act_keywords(line, kind, keywords);
        }
    }

    /// `:text;` on one line or more, possibly after `keywords` keywords
    /// (`backward :text;`) and with a `#color` prefix. The action ends at
    /// the first line (this one included, unless the colour prefix is
    /// written before the `:`) whose text, without trailing stereotypes,
    /// ends with `;`. PlantUML 1.2026.8 reads `#color:text;` as the start
    /// of a multi-line action only (its one-line form is gone).
    fn action(&mut self, line: &Line<'a>, kind: SyntaxKind, keywords: usize) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        for _ in 0..keywords {
            let word = first_word(lx.rest());
            lx.keyword(&word);
            lx.ws();
        }
        let colored = lx.color();
        let first_can_end = !colored;
        if !lx.rest().starts_with(':') {
            self.report_activity_leftover(&mut lx, line);
            self.emit_line(line, lx);
            self.builder.finish_node();
            return;
        }
        lx.push(COLON, 1);
        let body = lx.rest();
        if first_can_end && ends_action(body) {
            self.action_last_line(line, lx);
            self.builder.finish_node();
            return;
        }
        // Multi-line: find the closing line.
        let mut end = None;
        self.looked_ahead.set(true);
        for idx in self.pos + 1..self.lines.len() {
            let content = self.lines[idx].content;
            if first_word(content).starts_with("@end") {
                break;
            }
            if ends_action(content) {
                end = Some(idx);
                break;
            }
        }
        let Some(end) = end else {
            self.unterminated_block.set(true);
            let range = self.line_range(line);
            let at = range.end();
            self.error(
                Diagnostic::error(
                    codes::ACTION_WITHOUT_SEMICOLON,
                    range,
                    "this action is never closed by `;` (an action is `:text;`, over one line or more)",
                )
                .with_fix("End the action with `;`", vec![TextEdit::insert(at, ";")]),
            );
            lx.text_to_end();
            self.emit_line(line, lx);
            self.pos += 1;
            self.builder.finish_node();
            return;
        };
        lx.text_to_end();
        self.emit_line(line, lx);
        for idx in self.pos + 1..end {
            let l = self.lines[idx];
            let mut lx = LineLexer::new(l.content);
            lx.ws();
            lx.text_to_end();
            self.emit_line(&l, lx);
        }
        let last = self.lines[end];
        let lx = LineLexer::new(last.content);
        self.action_last_line(&last, lx);
        self.pos = end + 1;
        self.builder.finish_node();
    }

    /// The rest of an action's last line: text, `;`, stereotypes.
    fn action_last_line(&mut self, line: &Line<'a>, mut lx: LineLexer<'a>) {
        let rest = lx.rest();
        let (text_end, _) = split_trailing_stereotypes(rest);
        // `text_end` points just after the `;`.
        let text_len = text_end.saturating_sub(1);
        lx.push(TEXT, text_len);
        lx.push(TERMINATOR, 1);
        loop {
            lx.ws();
            if !lx.stereotype() {
                break;
            }
        }
        lx.ws();
        self.report_activity_leftover(&mut lx, line);
        self.emit_line(line, lx);
    }

    /// `end fork`, `end merge`, `end split`, `end fork {label}`.
    fn fork_end(&mut self, line: &Line<'a>) {
        self.builder.start_node(FORK_END.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let word = first_word(lx.rest());
        lx.keyword(&word);
        if word == "end" {
            lx.ws();
            let second = first_word(lx.rest());
            lx.keyword(&second);
        }
        lx.ws();
        if lx.rest().starts_with(';') {
            lx.push(TERMINATOR, 1);
            lx.ws();
        }
        let split = word == "endsplit" || line.content.to_ascii_lowercase().contains("split");
        if lx.rest().starts_with('{') && !split {
            if let Some(close) = lx.rest().find('}') {
                lx.push(L_BRACE, 1);
                lx.push(TEXT, close - 1);
                lx.push(R_BRACE, 1);
            }
        }
        lx.ws();
        self.report_activity_leftover(&mut lx, line);
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// `|Lane|`, `|#color|Lane|`, `|#color|alias| Display`.
    fn swimlane(&mut self, line: &Line<'a>) {
        self.builder.start_node(SWIMLANE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let mut pipes = 0;
        while !lx.at_end() && pipes < 3 {
            if lx.rest().starts_with('|') {
                lx.push(PIPE, 1);
                pipes += 1;
                continue;
            }
            if pipes == 1 && lx.rest().starts_with('#') && lx.rest()[1..].contains('|') {
                // `|#color|…`: the colour runs to the next `|` (a colour
                // token would read `#red|blue` as a gradient).
                let len = lx.rest().find('|').unwrap_or(0);
                lx.push(COLOR, len);
                continue;
            }
            let len = lx.rest().find('|').unwrap_or(lx.rest().len());
            if pipes >= 2 && !lx.rest().contains('|') {
                break;
            }
            lx.push(TEXT, len);
        }
        let closed = pipes >= 2;
        if !lx.at_end() {
            lx.ws();
            if !lx.at_end() {
                lx.text_to_end();
            }
        }
        if !closed {
            let range = self.line_range(line);
            self.error(
                Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "a swimlane is written `|Name|` (with the closing `|`)",
                )
                .with_fix("Close the swimlane with `|`", vec![TextEdit::insert(range.end(), "|")]),
            );
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// `partition Name {`, `partition "Long name" #color {`, `group G {`.
    fn container_start(&mut self, line: &Line<'a>) {
        self.builder.start_node(CONTAINER_START.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let word = first_word(lx.rest());
        lx.keyword(&word);
        lx.ws();
        let rest = lx.rest().trim_end();
        let has_brace = rest.ends_with('{');
        let name_part = if has_brace { &rest[..rest.len() - 1] } else { rest };
        let name_trimmed = name_part.trim_end();
        // Name (quoted or text) and options (#color, stereotype) before the brace.
        if name_trimmed.starts_with('"') {
            if lx.string().is_err() {
                let range = self.line_range(line);
                self.error(Diagnostic::error(
                    codes::UNTERMINATED_STRING,
                    range,
                    "this `\"` is never closed on its line",
                ));
            }
        } else {
            // Up to a colour, stereotype or the brace.
            let stop = name_trimmed
                .find(" #")
                .or_else(|| name_trimmed.find(" <<"))
                .unwrap_or(name_trimmed.len());
            lx.push(TEXT, stop);
        }
        loop {
            let cp = lx.checkpoint();
            lx.ws();
            if lx.color() || lx.stereotype() {
                continue;
            }
            lx.rewind(cp);
            break;
        }
        lx.ws();
        if lx.rest().trim_end() == "{" {
            lx.push(L_BRACE, 1);
        }
        lx.ws();
        self.report_activity_leftover(&mut lx, line);
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// `->`, `-> label;`, `-[#red,dashed]-> label;`.
    fn act_arrow(&mut self, line: &Line<'a>) {
        self.builder.start_node(ACT_ARROW.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.push(ARROW, arrow_len(lx.rest()));
        lx.ws();
        let mut continued_to = None;
        if !lx.at_end() {
            let rest = lx.rest().trim_end();
            if let Some(body) = rest.strip_suffix(';') {
                lx.push(TEXT, body.len());
                lx.push(TERMINATOR, 1);
                lx.ws();
            } else {
                // PlantUML reads a label without `;` as the first line of a
                // label that goes on, whatever the next lines say, up to
                // the next line ending in `;` (probes `arrow_label_*`).
                continued_to = self.arrow_label_end();
                lx.text_to_end();
            }
        }
        self.emit_line(line, lx);
        if let Some(end) = continued_to {
            self.arrow_label_lines(end);
        }
        self.builder.finish_node();
    }

    /// `- text` or `* text`: PlantUML's oldest action form, one line whose
    /// text runs to its end (a `;` there is text), after one optional blank
    /// (probes `bullet_action_*`; `bluegray-game-rounds` of the wild set).
    fn bullet_action(&mut self, line: &Line<'a>) {
        self.builder.start_node(ACTION.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.push(KEYWORD, 1);
        if lx.rest().starts_with([' ', '\t']) {
            lx.push(WHITESPACE, 1);
        }
        lx.text_to_end();
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// The line that ends an arrow label begun on `self.pos` without `;`:
    /// the next one whose text ends with `;`, before the diagram's end.
    ///
    /// Each arrow line of a block asks (a class diagram read as an activity
    /// one has many, none ending in `;`), so the line found is remembered
    /// with where the search started: a later search from before it finds
    /// the same line without scanning (each line is scanned once).
    fn arrow_label_end(&self) -> Option<usize> {
        self.looked_ahead.set(true);
        let from = self.pos + 1;
        let (searched_from, found) = self.next_label_end.get();
        let stop = if searched_from <= from && from <= found {
            found
        } else {
            let stop = (from..self.lines.len())
                .find(|&idx| {
                    let content = self.lines[idx].content;
                    first_word(content).starts_with("@end")
                        || (content.trim_end().ends_with(';') && !content.trim_start().starts_with('\''))
                })
                .unwrap_or(self.lines.len());
            self.next_label_end.set((from, stop));
            stop
        };
        // The line found ends the label, unless it ends the diagram.
        self.lines
            .get(stop)
            .filter(|line| !first_word(line.content).starts_with("@end"))
            .map(|_| stop)
    }

    /// The lines after an arrow's first one, up to `end`, as the label's
    /// text (leading blanks kept: PlantUML draws them). The last line's
    /// `;` ends the label when it is the line's last character; after it,
    /// blanks make PlantUML keep the `;` as text.
    fn arrow_label_lines(&mut self, end: usize) {
        for idx in self.pos + 1..=end {
            let l = self.lines[idx];
            let mut lx = LineLexer::new(l.content);
            if l.content.trim_start().starts_with('\'') {
                lx.ws();
                let len = lx.rest().trim_end().len();
                lx.push(COMMENT, len);
                lx.ws();
            } else if idx == end && l.content.ends_with(';') {
                lx.push(TEXT, l.content.len() - 1);
                lx.push(TERMINATOR, 1);
            } else {
                lx.text_to_end();
            }
            self.emit_line(&l, lx);
        }
        self.pos = end + 1;
    }

    /// `(A)`.
    fn connector(&mut self, line: &Line<'a>) {
        self.builder.start_node(CONNECTOR.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        if lx.rest().starts_with('#') {
            let len = lx.rest().find(':').unwrap_or(0);
            lx.push(COLOR, len);
            lx.push(COLON, 1);
        }
        let len = lx.rest().trim_end().len();
        let name = lx.rest().trim_end().trim_start_matches('(').trim_end_matches(')');
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            let range = self.line_range(line);
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "a connector's name is one word: `(A)`",
            ));
        }
        lx.push(PAREN, len);
        lx.ws();
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// `note left: text`, `note right #color` … `end note`, `floating note left: text`.
    fn act_note(&mut self, line: &Line<'a>) {
        self.builder.start_node(ACT_NOTE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        if lx.keyword("floating") {
            lx.ws();
        }
        let ok = lx.keyword("note");
        lx.ws();
        let _ = lx.keyword("left") || lx.keyword("right");
        loop {
            let cp = lx.checkpoint();
            lx.ws();
            if lx.color() || lx.stereotype() {
                continue;
            }
            lx.rewind(cp);
            break;
        }
        lx.ws();
        let one_line = lx.rest().starts_with(':');
        if one_line {
            lx.push(COLON, 1);
            lx.ws();
            if !lx.at_end() {
                lx.text_to_end();
            }
        } else {
            self.report_activity_leftover(&mut lx, line);
        }
        self.emit_line(line, lx);
        if one_line || !ok {
            self.pos += 1;
        } else {
            let is_end = |l: &str| l == "end note" || l == "endnote";
            match self.find_block_end(is_end) {
                Some(end) => {
                    self.emit_body(end);
                    self.emit_block_end(end);
                    self.pos = end + 1;
                }
                None => {
                    let range = self.line_range(line);
                    let end_of_text = TextSize::of(self.text);
                    self.error(
                        Diagnostic::error(codes::UNCLOSED_BLOCK, range, "this note is never closed by `end note`")
                            .with_fix(
                                "Close the note with `end note`",
                                vec![TextEdit::insert(
                                    self.lines
                                        .iter()
                                        .skip(self.pos + 1)
                                        .find(|l| first_word(l.content).starts_with("@end"))
                                        .map_or(end_of_text, |l| TextSize::from(l.start as u32)),
                                    "end note\n",
                                )],
                            ),
                    );
                    self.pos += 1;
                }
            }
        }
        self.builder.finish_node();
    }

    /// A line the activity language does not read.
    fn act_unknown(&mut self, line: &Line<'a>, word: &str, trimmed: &str) {
        self.builder.start_node(ERROR_STATEMENT.into());
        let range = self.line_range(line);
        let diagnostic = if trimmed.contains("(*)") {
            let diagnostic = Diagnostic::error(
                codes::LEGACY_ACTIVITY,
                range,
                "`(*)` is the legacy activity syntax, which cannot be mixed with the new one: write `start`/`stop` and `:action;` lines",
            );
            match legacy_fix(trimmed.trim_end()) {
                Some(replacement) => diagnostic.with_fix(
                    "Write it in the new syntax",
                    vec![TextEdit::replace(range, replacement)],
                ),
                None => diagnostic,
            }
        } else if matches!(word, "flowchart" | "graph") {
            Diagnostic::error(
                codes::MERMAID_FLOWCHART,
                range,
                "this is Mermaid's flowchart header; a PlantUML activity diagram has no header (write `start`, `:action;`, `if (…) then` … `endif`)",
            )
            .with_fix("Remove the Mermaid header", vec![TextEdit::delete(self.full_line_range(line))])
        } else if looks_like_message_text(trimmed) || trimmed.contains("-->") {
            Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "a message or link (`A -> B`) is no statement of an activity diagram: steps follow each other in order (`:A;` then `:B;`), and a block is one diagram type",
            )
        } else {
            Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                format!(
                    "`{}` is not a statement of an activity diagram",
                    super::statements::shorten(trimmed.trim_end())
                ),
            )
        };
        self.error(diagnostic);
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.push(ERROR_TOKEN, lx.rest().trim_end().len());
        lx.ws();
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    fn report_activity_leftover(&mut self, lx: &mut LineLexer<'a>, line: &Line<'a>) {
        if let Some((s, e)) = lx.error_to_end() {
            let range = self.range(line, s, e);
            let found = &line.content[s..e];
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                format!(
                    "unexpected `{}` in this activity statement",
                    super::statements::shorten(found)
                ),
            ));
        }
    }
}

/// Whether a line (trimmed at its start) is an arrow as PlantUML reads one:
/// `->` or `-[style]->`; any other line starting with `-` is an action
/// ([`Parser::bullet_action`]: `--> x;` is the action `-> x;`).
fn is_arrow_line(trimmed: &str) -> bool {
    trimmed.starts_with("->")
        || trimmed
            .strip_prefix("-[")
            .and_then(|rest| rest.find(']').map(|close| &rest[close + 1..]))
            .is_some_and(|after| after.starts_with("->"))
}

/// The length of the arrow at the start of `text`: `->`, `-->`,
/// `-[#red,dashed]->`.
fn arrow_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut len = 0;
    while len < bytes.len() {
        match bytes[len] {
            b'-' | b'>' => len += 1,
            b'[' => match text[len..].find(']') {
                Some(close) => len += close + 1,
                None => break,
            },
            _ => break,
        }
    }
    len
}

/// `(*) --> "Text"` → `start` + `:Text;`; `"Text" --> (*)` → `:Text;` + `stop`.
fn legacy_fix(line: &str) -> Option<String> {
    let (left, right) = line.split_once("-->").or_else(|| line.split_once("->"))?;
    let (left, right) = (left.trim(), right.trim());
    let text = |t: &str| {
        let t = t.trim();
        (t.len() >= 2 && t.starts_with('"') && t.ends_with('"')).then(|| t[1..t.len() - 1].to_string())
    };
    match (left, right) {
        ("(*)", r) => text(r).map(|t| format!("start\n:{t};")),
        (l, "(*)") => text(l).map(|t| format!(":{t};\nstop")),
        _ => None,
    }
}

/// Length of the parenthesised text at the start of `text`: to the
/// matching `)`, or to the last `)` of the line when they do not balance.
fn paren_len(text: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    text.rfind(')').map_or(text.len(), |i| i + 1)
}

/// Whether the parenthesised text at the start of `text` is not closed on its line.
fn paren_unclosed(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// Whether a line ends with `)` (or `);`), blanks after it ignored.
fn ends_with_paren(content: &str) -> bool {
    let trimmed = content.trim_end();
    trimmed.strip_suffix(';').unwrap_or(trimmed).trim_end().ends_with(')')
}

/// Whether an action line ends the action: its text without trailing
/// stereotypes ends with `;`.
fn ends_action(text: &str) -> bool {
    let (end, _) = split_trailing_stereotypes(text);
    end > 0 && text[..end].ends_with(';')
}

/// Splits `text` (one action line) into its part before trailing
/// `<<…>>` stereotypes and whitespace: returns the byte length of that
/// part (trimmed) and whether stereotypes were found.
fn split_trailing_stereotypes(text: &str) -> (usize, bool) {
    let mut end = text.trim_end().len();
    let mut found = false;
    loop {
        let head = &text[..end];
        if !head.ends_with(">>") {
            break;
        }
        match head.rfind("<<") {
            Some(open) if open + 2 <= end - 2 => {
                let before = text[..open].trim_end();
                if !before.ends_with(';') && !text[..open].trim_end().ends_with(">>") {
                    break;
                }
                end = before.len();
                found = true;
            }
            _ => break,
        }
    }
    (end, found)
}

#[cfg(test)]
mod prefix_tests {
    use super::text_is_activity;

    #[test]
    fn a_prefix_cut_inside_a_character_decides_without_panicking() {
        // The first prefix ends at byte 4096; put a two-byte character across it.
        let mut text = String::from("@startuml\ntitle ");
        while text.len() < 4095 {
            text.push('x');
        }
        text.push_str("é\nA -> B : hi\n");
        for _ in 0..200 {
            text.push_str("B -> A : ok\n");
        }
        text.push_str("@enduml\n");
        assert_eq!(&text.as_bytes()[4095..4097], "é".as_bytes());
        assert!(!text_is_activity(&text));
        let activity = text.replace("A -> B : hi", "start");
        assert!(text_is_activity(&activity.replace("B -> A : ok\n", ":step;\n")));
    }
}
