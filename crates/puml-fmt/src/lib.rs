//! The formatter. It walks the lossless syntax tree statement by statement
//! (the tree is flat: groups, boxes and `!if` blocks are sibling statements,
//! so nesting is a counter here, never recursion) and prints:
//!
//! - one statement per line, indented by nesting depth (groups, `else`,
//!   boxes, preprocessor blocks; bodies of block notes, refs, legends, titles
//!   and skinparam blocks one level deeper than their header);
//! - single spaces around arrows and around the `:` of messages, notes and
//!   refs; other whitespace runs collapsed to one space;
//! - keywords in lower case; names, labels and free text untouched;
//! - comments where they were; runs of blank lines collapsed to one.
//!
//! A statement that carries a syntax error is printed verbatim, so a file
//! with errors is still formatted everywhere else and no error moves.

use puml_syntax::{Severity, SyntaxElement, SyntaxKind, SyntaxNode, TextEdit, TextRange, TextSize};
use rowan::NodeOrToken;
use SyntaxKind::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatOptions {
    /// Spaces per nesting level.
    pub indent_width: usize,
}

impl Default for FormatOptions {
    fn default() -> FormatOptions {
        FormatOptions { indent_width: 2 }
    }
}

/// Formats a whole file.
pub fn format(text: &str, options: &FormatOptions) -> String {
    chunks(text, options).into_iter().map(|c| c.text).collect()
}

/// Formats the statements that touch the 0-based lines `first_line ..=
/// last_line` and returns the edits against `text` (empty when that part is
/// already formatted). Indentation is computed from the whole file.
pub fn format_range(text: &str, first_line: u32, last_line: u32, options: &FormatOptions) -> Vec<TextEdit> {
    let index = puml_syntax::LineIndex::new(text);
    let start = index
        .line_range(text, first_line as usize)
        .map_or(TextSize::of(text), |r| r.start());
    let end = index
        .line_range(text, last_line as usize)
        .map_or(TextSize::of(text), |r| r.end());
    let wanted = TextRange::new(start, end.max(start));
    chunks(text, options)
        .into_iter()
        .filter(|c| {
            c.range.intersect(wanted).is_some_and(|i| !i.is_empty())
                || (wanted.is_empty() && c.range.contains(wanted.start()))
        })
        .filter(|c| text.get(std::ops::Range::<usize>::from(c.range)) != Some(c.text.as_str()))
        .map(|c| TextEdit::replace(c.range, c.text))
        .collect()
}

/// A piece of the source (`range`) and its formatted text. Chunks cover the
/// source contiguously, so concatenating their texts gives the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub range: TextRange,
    pub text: String,
}

/// The formatted file as chunks (one per statement or trivia line).
pub fn chunks(text: &str, options: &FormatOptions) -> Vec<Chunk> {
    let parse = puml_syntax::parse(text);
    let root = parse.syntax();
    let error_ranges = broken_elements(&root, parse.errors(), text.len());
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut printer = Printer {
        options,
        error_ranges,
        newline,
        out: Vec::new(),
        depth: 0,
        // Blank lines at the very start of the file are dropped, unless a
        // byte-order mark follows them: moved to the start, it would turn
        // from text into a BOM.
        blank_run: usize::from(
            !text.trim_start_matches(['\n', '\r']).starts_with('\u{feff}') || text.starts_with('\u{feff}'),
        ),
        line: Vec::new(),
        defined_names: defined_names(text),
        definition_depth: None,
        keep_procedure_bodies: has_glued_procedure_call(text),
        unclosed_block_start: unclosed_block_start(text),
        source: text,
    };
    let mut outside_text_line = false;
    for element in root.children_with_tokens() {
        match element {
            // A block of another language (`@startmindmap`, …) is not
            // puml's to format: kept as written.
            NodeOrToken::Node(node)
                if node.kind() == DIAGRAM
                    && (puml_syntax::ast::Diagram { syntax: node.clone() })
                        .foreign_tag()
                        .is_some() =>
            {
                outside_text_line = false;
                printer.verbatim(&NodeOrToken::Node(node));
            }
            NodeOrToken::Node(node) if node.kind() == DIAGRAM => {
                outside_text_line = false;
                printer.flush_line();
                printer.diagram(&node);
            }
            // Blank lines and comments between diagrams get the same
            // treatment as inside them; other outside text is verbatim.
            // The rest of a line that began with outside text stays as
            // written too.
            NodeOrToken::Token(token) if outside_text_line && token.kind() != NEWLINE => {
                printer.verbatim(&NodeOrToken::Token(token));
            }
            NodeOrToken::Token(token) if matches!(token.kind(), WHITESPACE | NEWLINE | COMMENT) => {
                let is_newline = token.kind() == NEWLINE;
                printer.line.push(NodeOrToken::Token(token));
                if is_newline {
                    printer.flush_line();
                    outside_text_line = false;
                }
            }
            other => {
                printer.verbatim(&other);
                outside_text_line = true;
            }
        }
    }
    printer.flush_line();
    let mut out = printer.out;
    // A formatted file ends with exactly one line terminator.
    if let Some(last) = out.iter_mut().rev().find(|c| !c.text.is_empty()) {
        // A lone `\r` at the very end is kept as written: completing it to
        // `\r\n` would turn it from stray text into a line break.
        if !last.text.ends_with(['\n', '\r']) {
            last.text.push_str(newline);
        }
    }
    out
}

struct Printer<'a> {
    options: &'a FormatOptions,
    /// Top-level elements (statements, loose tokens) that hold a syntax
    /// error, sorted and disjoint.
    error_ranges: Vec<TextRange>,
    newline: &'static str,
    out: Vec<Chunk>,
    depth: usize,
    /// Blank lines seen in a row (only the first is kept).
    blank_run: usize,
    /// Loose tokens of the current trivia line at diagram level.
    line: Vec<SyntaxElement>,
    /// Names the file `!define`s: the preprocessor replaces them only as
    /// written, so a keyword spelt like one keeps its case.
    defined_names: Vec<String>,
    /// Set inside a `!procedure` body when the file calls a procedure glued
    /// to other text (`pre$p()`): the depth of its header. PlantUML expands
    /// body lines as written, so such a call puts their indentation and
    /// spacing into the text; those bodies are printed as written.
    definition_depth: Option<usize>,
    keep_procedure_bodies: bool,
    /// Where a `!while`/`!foreach`/`!procedure`/`!function` that is never
    /// closed starts: it repeats or captures the rest of the file, so the
    /// lines after it may land anywhere (inside a note, say) and their
    /// indentation may become text. Everything from there on is kept.
    unclosed_block_start: Option<TextSize>,
    /// The whole source, to see whether the line before a statement ends
    /// in a continuation `\`.
    source: &'a str,
}

impl Printer<'_> {
    fn indent(&self, depth: usize) -> String {
        " ".repeat(depth * self.options.indent_width)
    }

    fn push(&mut self, range: TextRange, text: String) {
        self.out.push(Chunk { range, text });
    }

    fn verbatim(&mut self, element: &SyntaxElement) {
        self.flush_line();
        let text = element_text(element);
        self.blank_run = 0;
        self.push(element.text_range(), text);
    }

    fn diagram(&mut self, diagram: &SyntaxNode) {
        self.depth = 0;
        self.definition_depth = None;
        for element in diagram.children_with_tokens() {
            match element {
                NodeOrToken::Token(token) => {
                    let is_newline = token.kind() == NEWLINE;
                    self.line.push(NodeOrToken::Token(token));
                    if is_newline {
                        self.flush_line();
                    }
                }
                NodeOrToken::Node(node) => {
                    if self.line.iter().any(|e| !is_blank(e)) {
                        // Something loose before a statement on the same line
                        // (e.g. a block comment): keep that line as written.
                        self.line.push(NodeOrToken::Node(node));
                        self.flush_verbatim_line();
                    } else {
                        let leading = std::mem::take(&mut self.line);
                        self.statement(&node, leading);
                    }
                }
            }
        }
        self.flush_line();
        self.depth = 0;
    }

    /// A line made only of loose tokens: blank, comments, or stray errors.
    fn flush_line(&mut self) {
        if self.line.is_empty() {
            return;
        }
        let elements = std::mem::take(&mut self.line);
        let range = span(&elements);
        let has_error = elements
            .iter()
            .any(|e| e.kind() == ERROR_TOKEN || self.overlaps_error(e.text_range()));
        let content: Vec<&SyntaxElement> = elements.iter().filter(|e| !is_blank(e)).collect();
        let ends_with_newline = elements.last().is_some_and(|e| e.kind() == NEWLINE);
        let after_unclosed_block = self.unclosed_block_start.is_some_and(|start| range.start() > start)
            || self.continues_previous_line(range.start());
        if has_error || after_unclosed_block {
            self.blank_run = 0;
            let text: String = elements.iter().map(element_text).collect();
            self.push(range, text);
            return;
        }
        if content.is_empty() {
            self.blank_run += 1;
            let text = if self.blank_run == 1 && ends_with_newline {
                self.newline.to_string()
            } else {
                String::new()
            };
            self.push(range, text);
            return;
        }
        self.blank_run = 0;
        let mut text = self.indent(self.depth);
        let mut first = true;
        for element in &content {
            if !first {
                text.push(' ');
            }
            first = false;
            text.push_str(element_text(element).trim_end());
        }
        if ends_with_newline {
            text.push_str(self.newline);
        }
        self.push(range, text);
    }

    fn flush_verbatim_line(&mut self) {
        let elements = std::mem::take(&mut self.line);
        let range = span(&elements);
        let text: String = elements.iter().map(element_text).collect();
        self.blank_run = 0;
        self.push(range, text);
    }

    /// Whether the line before `offset` ends in `\`: PlantUML joins the
    /// line at `offset` to it as written.
    /// Directive lines in between do not count: the preprocessor consumes
    /// them before lines are joined.
    fn continues_previous_line(&self, offset: TextSize) -> bool {
        let mut before = self.source.get(..usize::from(offset)).unwrap_or("");
        loop {
            let Some(rest) = before.strip_suffix('\n') else {
                return false;
            };
            let rest = rest.strip_suffix('\r').unwrap_or(rest);
            let line_start = rest.rfind('\n').map_or(0, |i| i + 1);
            let line = &rest[line_start..];
            if line.ends_with('\\') {
                return true;
            }
            if !line.trim_start().starts_with('!') {
                return false;
            }
            before = &before[..line_start];
        }
    }

    /// Whether `range` touches a top-level element that holds a syntax error.
    fn overlaps_error(&self, range: TextRange) -> bool {
        let first = self.error_ranges.partition_point(|r| r.end() <= range.start());
        self.error_ranges
            .get(first)
            .is_some_and(|r| r.start() < range.end() || r.start() == range.start())
    }

    fn statement(&mut self, node: &SyntaxNode, leading: Vec<SyntaxElement>) {
        self.blank_run = 0;
        let (before, after) = depth_change(node);
        // `@startuml`/`@enduml` are always at the margin, even when a group
        // was left open.
        let own_depth = if matches!(node.kind(), START_LINE | END_LINE) {
            0
        } else {
            self.depth.saturating_sub(before)
        };
        // A statement continued over lines with a trailing `\` is read by
        // PlantUML as one line made of the pieces as written.
        let continued = has_continuation_line(&node.text().to_string());
        // An action or arrow label whose text goes on over lines is kept as
        // written: its lines are text (an arrow label's leading blanks are
        // drawn; keeping them cannot change what PlantUML reads).
        // (A line break that is not the statement's last token: the last
        // line of a file may end without one.)
        let multi_line_action = matches!(node.kind(), ACTION | BACKWARD | REPEAT_START | ACT_ARROW) && {
            let last = node.last_token().map(|t| t.text_range());
            node.children_with_tokens()
                .any(|e| e.kind() == NEWLINE && Some(e.text_range()) != last)
        };
        let broken = continued
            || multi_line_action
            || node.kind() == ERROR_STATEMENT
            || node.descendants_with_tokens().any(|e| e.kind() == ERROR_TOKEN)
            || self.overlaps_error(node.text_range());
        let mut range = node.text_range();
        if let Some(first) = leading.first() {
            range = TextRange::new(first.text_range().start(), range.end());
        }
        let after_unclosed_block = self
            .unclosed_block_start
            .is_some_and(|start| node.text_range().end() > start)
            || self.continues_previous_line(range_start(&leading, node));
        let closes_definition = self.definition_depth == Some(own_depth) && before > 0;
        let in_definition_body = self.definition_depth.is_some() && !closes_definition;
        if broken || in_definition_body || after_unclosed_block {
            let mut text: String = leading.iter().map(element_text).collect();
            text.push_str(&node.text().to_string());
            self.push(range, text);
        } else {
            let text = self.format_statement(node, own_depth);
            self.push(range, text);
        }
        if closes_definition {
            self.definition_depth = None;
        } else if self.keep_procedure_bodies && self.definition_depth.is_none() && after > 0 && opens_procedure(node) {
            self.definition_depth = Some(own_depth);
        }
        self.depth = own_depth + after;
    }

    fn format_statement(&self, node: &SyntaxNode, depth: usize) -> String {
        let mut out = self.indent(depth);
        let mut header: Vec<SyntaxElement> = Vec::new();
        let mut rest = Vec::new();
        let mut in_header = true;
        for element in node.children_with_tokens() {
            if in_header {
                if element.kind() == NEWLINE {
                    in_header = false;
                    continue;
                }
                if element.as_node().is_some() {
                    in_header = false;
                    rest.push(element);
                    continue;
                }
                header.push(element);
            } else {
                rest.push(element);
            }
        }
        out.push_str(&format_tokens(node.kind(), &header, &self.defined_names));
        if !in_header {
            out.push_str(self.newline);
        }
        for element in rest {
            match element {
                NodeOrToken::Node(child) => self.block_part(&child, node.kind(), depth, &mut out),
                // A class body's `{` on a line of its own stays there.
                NodeOrToken::Token(token) if token.kind() == L_BRACE && node.kind() == CLASS_DECL => {
                    out.push_str(&self.indent(depth));
                    out.push('{');
                    out.push_str(self.newline);
                }
                NodeOrToken::Token(token) => {
                    // Only the header's terminator is expected here; anything
                    // else is kept as written.
                    if !matches!(token.kind(), NEWLINE | WHITESPACE) {
                        out.push_str(token.text());
                    }
                }
            }
        }
        out
    }

    /// One line per NEWLINE, one level in; blank lines are part of the text
    /// and are kept. PlantUML removes the indentation common to all lines
    /// and keeps the rest, so the lines move together and keep their
    /// relative indentation.
    fn indented_lines(&self, text: &str, depth: usize, out: &mut String) {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let common = lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
            .min()
            .unwrap_or(0);
        for line in lines {
            let has_newline = line.ends_with('\n');
            let content = line.trim_end_matches(['\n', '\r']);
            if !content.trim().is_empty() {
                out.push_str(&self.indent(depth + 1));
                // Trailing whitespace is kept: it is part of the text
                // (PlantUML draws it, e.g. after an inline `<latex>`).
                out.push_str(content.get(common..).unwrap_or(content));
            }
            if has_newline {
                out.push_str(self.newline);
            }
        }
    }

    fn block_part(&self, child: &SyntaxNode, parent: SyntaxKind, depth: usize, out: &mut String) {
        match child.kind() {
            // A `json` value keeps its own layout (its lines move together).
            CLASS_BODY if is_json_declaration(child) => self.indented_lines(&child.text().to_string(), depth, out),
            CLASS_BODY => {
                // PlantUML trims every member line: each goes one level in.
                for member in child.children() {
                    let content: String = member
                        .children_with_tokens()
                        .filter(|e| !matches!(e.kind(), WHITESPACE | NEWLINE))
                        .map(|e| element_text(&e))
                        .collect();
                    if !content.is_empty() {
                        out.push_str(&self.indent(depth + 1));
                        out.push_str(&content);
                    }
                    if member.children_with_tokens().any(|e| e.kind() == NEWLINE) {
                        out.push_str(self.newline);
                    }
                }
            }
            BODY if parent == STYLE => out.push_str(&child.text().to_string()),
            BODY if has_continuation_line(&child.text().to_string()) => {
                // PlantUML joins a line ending in `\` with the next one as
                // written, indentation included: re-indenting would change
                // the text.
                out.push_str(&child.text().to_string());
            }
            BODY => self.indented_lines(&child.text().to_string(), depth, out),
            BLOCK_END if parent == STYLE => {
                // The model keeps this line (whitespace runs aside): only
                // its indentation changes.
                let text = child.text().to_string();
                out.push_str(&self.indent(depth));
                out.push_str(text.trim_start().trim_end_matches(['\n', '\r']).trim_end());
                if text.ends_with('\n') {
                    out.push_str(self.newline);
                }
            }
            BLOCK_END => {
                let tokens: Vec<SyntaxElement> = child.children_with_tokens().filter(|e| e.kind() != NEWLINE).collect();
                out.push_str(&self.indent(depth));
                out.push_str(&format_tokens(BLOCK_END, &tokens, &self.defined_names));
                if child.children_with_tokens().any(|e| e.kind() == NEWLINE) {
                    out.push_str(self.newline);
                }
            }
            MULTILINE_NAME => {
                for part in child.children_with_tokens() {
                    match part {
                        NodeOrToken::Node(body) => self.block_part(&body, parent, depth, out),
                        NodeOrToken::Token(token) => match token.kind() {
                            NEWLINE => out.push_str(self.newline),
                            WHITESPACE => {}
                            _ => {
                                if out.ends_with('\n') {
                                    out.push_str(&self.indent(depth));
                                }
                                out.push_str(token.text());
                            }
                        },
                    }
                }
            }
            _ => out.push_str(&child.text().to_string()),
        }
    }
}

/// The ranges of the top-level elements (children of a DIAGRAM, or of the
/// root outside diagrams) that an error touches. Found by binary search, so
/// a file with thousands of errors stays linear.
fn broken_elements(root: &SyntaxNode, errors: &[puml_syntax::Diagnostic], len: usize) -> Vec<TextRange> {
    let mut tops: Vec<TextRange> = Vec::new();
    for element in root.children_with_tokens() {
        match element {
            NodeOrToken::Node(node) if node.kind() == DIAGRAM => {
                tops.extend(node.children_with_tokens().map(|e| e.text_range()));
            }
            other => tops.push(other.text_range()),
        }
    }
    let mut marked = vec![false; tops.len()];
    for error in errors
        .iter()
        .filter(|d| d.severity == Severity::Error && d.file.is_none())
    {
        let start = error.range.start();
        let end = error.range.end().max(start + TextSize::from(1));
        let first = tops.partition_point(|r| r.end() <= start);
        let last = tops.partition_point(|r| r.start() < end);
        if first < last {
            marked[first..last].iter_mut().for_each(|m| *m = true);
        } else if usize::from(start) >= len {
            if let Some(m) = marked.last_mut() {
                *m = true;
            }
        }
    }
    tops.into_iter()
        .zip(marked)
        .filter(|(_, m)| *m)
        .map(|(r, _)| r)
        .collect()
}

/// Where a statement's chunk starts: at its leading trivia, if any.
fn range_start(leading: &[SyntaxElement], node: &SyntaxNode) -> TextSize {
    leading
        .first()
        .map_or(node.text_range().start(), |first| first.text_range().start())
}

/// Whether a line of `text` ends in `\` and so continues on the next, or
/// would once its trailing blanks were trimmed.
fn has_continuation_line(text: &str) -> bool {
    text.lines().any(|l| l.trim_end().ends_with('\\'))
}

fn is_blank(element: &SyntaxElement) -> bool {
    matches!(element.kind(), WHITESPACE | NEWLINE)
}

fn element_text(element: &SyntaxElement) -> String {
    match element {
        NodeOrToken::Node(n) => n.text().to_string(),
        NodeOrToken::Token(t) => t.text().to_string(),
    }
}

fn span(elements: &[SyntaxElement]) -> TextRange {
    match (elements.first(), elements.last()) {
        (Some(first), Some(last)) => TextRange::new(first.text_range().start(), last.text_range().end()),
        _ => TextRange::default(),
    }
}

/// How a statement changes the nesting depth: levels it closes before it
/// is printed, and levels it opens after.
fn depth_change(node: &SyntaxNode) -> (usize, usize) {
    match node.kind() {
        GROUP_START | BOX_START => (0, 1),
        ELSE => (1, 1),
        END | BOX_END => (1, 0),
        // Activity blocks: bodies one level in; `else`, `case`, `fork
        // again`, `backward` at their block's level.
        IF_START | SWITCH_START | WHILE_START | REPEAT_START | FORK_START => (0, 1),
        ELSE_IF | ACT_ELSE | CASE | FORK_AGAIN | BACKWARD => (1, 1),
        END_IF | END_SWITCH | END_WHILE | REPEAT_WHILE | FORK_END | CONTAINER_END => (1, 0),
        CONTAINER_START if node.children_with_tokens().any(|e| e.kind() == L_BRACE) => (0, 1),
        // Class diagrams: packages, namespaces and `together` one level in
        // (`package p {}` opens nothing).
        PACKAGE_START | TOGETHER_START
            if node.children_with_tokens().any(|e| e.kind() == L_BRACE)
                && !node.children_with_tokens().any(|e| e.kind() == R_BRACE) =>
        {
            (0, 1)
        }
        // State diagrams: a composite state's contents one level in, its
        // `--`/`||` separators at the contents' level.
        STATE_DECL if node.children_with_tokens().any(|e| e.kind() == L_BRACE) => (0, 1),
        BRACE_END => (1, 0),
        // Legacy activity diagrams: a partition's and a branch's contents
        // one level in (a link whose target is a new branch opens one),
        // `else` at the branch's level.
        LEGACY_PARTITION | LEGACY_IF => (0, 1),
        LEGACY_LINK
            if node
                .children_with_tokens()
                .any(|e| e.kind() == KEYWORD && e.as_token().is_some_and(|t| t.text().eq_ignore_ascii_case("if"))) =>
        {
            (0, 1)
        }
        LEGACY_ELSE => (1, 1),
        LEGACY_ENDIF => (1, 0),
        // Description diagrams: containers one level in.
        DESC_CONTAINER_START => (0, 1),
        DESC_CONTAINER_END => (1, 0),
        PREPROC => {
            let directive = node
                .children_with_tokens()
                .filter_map(|e| e.into_token())
                .find(|t| t.kind() == DIRECTIVE)
                .map(|t| t.text().to_ascii_lowercase())
                .unwrap_or_default();
            match directive.as_str() {
                "!if" | "!ifdef" | "!ifndef" | "!while" | "!foreach" | "!procedure" | "!function" | "!unquoted"
                | "!startsub" => {
                    if is_one_line_definition(node, &directive) {
                        (0, 0)
                    } else {
                        (0, 1)
                    }
                }
                "!else" | "!elseif" => (1, 1),
                "!endif" | "!endwhile" | "!endfor" | "!endprocedure" | "!endfunction" | "!enddefinelong"
                | "!endsub" => (1, 0),
                _ => (0, 0),
            }
        }
        _ => (0, 0),
    }
}

/// The start of the first `!while`, `!foreach`, `!procedure` or
/// `!function` block that no closer matches. Read from the lines, not the
/// tree: a directive may sit inside another statement's body (a
/// `skinparam { … }` block) and still repeat the rest of the file.
fn unclosed_block_start(text: &str) -> Option<TextSize> {
    let mut open: Vec<(&'static str, usize)> = Vec::new();
    let mut first_unclosed: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        if !trimmed.starts_with('!') {
            continue;
        }
        let lower = trimmed.to_ascii_lowercase();
        let word = lower
            .split(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or("");
        let one_line = lower.contains("!return") || lower.contains("!endfunction") || lower.contains("!endprocedure");
        match word {
            "!while" => open.push(("!endwhile", start)),
            "!foreach" => open.push(("!endfor", start)),
            "!function" if !one_line => open.push(("!endfunction", start)),
            "!procedure" if !one_line => open.push(("!endprocedure", start)),
            "!unquoted" if !one_line => {
                if lower.contains("function") {
                    open.push(("!endfunction", start));
                } else {
                    open.push(("!endprocedure", start));
                }
            }
            closer @ ("!endwhile" | "!endfor" | "!endprocedure" | "!endfunction") => {
                // A closer of another kind leaves the inner block open.
                while let Some((expected, opened)) = open.pop() {
                    if expected == closer {
                        break;
                    }
                    first_unclosed = Some(first_unclosed.map_or(opened, |f| f.min(opened)));
                }
            }
            _ => {}
        }
    }
    for (_, opened) in open {
        first_unclosed = Some(first_unclosed.map_or(opened, |f| f.min(opened)));
    }
    first_unclosed.map(|o| TextSize::from(o as u32))
}

/// Whether `node` is the header of a `!procedure` block (functions print
/// nothing, so their bodies format freely).
fn opens_procedure(node: &SyntaxNode) -> bool {
    node.kind() == PREPROC && procedure_name(&node.text().to_string()).is_some()
}

/// The name a `!procedure` / `!unquoted procedure` line defines.
fn procedure_name(line: &str) -> Option<&str> {
    let lower = line.trim_start().to_ascii_lowercase();
    let rest_at = ["!procedure", "!unquoted procedure"]
        .iter()
        .find(|d| lower.starts_with(*d))
        .map(|d| line.len() - line.trim_start().len() + d.len())?;
    let rest = line[rest_at..].trim_start();
    let name = &rest[..rest.find(|c: char| c == '(' || c.is_whitespace()).unwrap_or(rest.len())];
    (!name.is_empty()).then_some(name)
}

/// Whether a procedure defined in `text` is called after other text on a
/// line (`pre$p()`, `A -> B : $p()`).
fn has_glued_procedure_call(text: &str) -> bool {
    let names: Vec<String> = text
        .lines()
        .filter_map(procedure_name)
        .map(|n| format!("{n}("))
        .collect();
    if names.is_empty() {
        return false;
    }
    text.lines().filter(|l| procedure_name(l).is_none()).any(|line| {
        names.iter().any(|call| {
            line.match_indices(call.as_str())
                .any(|(at, _)| !line[..at].trim().is_empty())
        })
    })
}

/// `!function $f() !return 1` style one-liners open no block.
fn is_one_line_definition(node: &SyntaxNode, directive: &str) -> bool {
    if !matches!(directive, "!function" | "!procedure" | "!unquoted") {
        return false;
    }
    let text = node.text().to_string().to_ascii_lowercase();
    text.contains("!return") || text.contains("!endfunction") || text.contains("!endprocedure")
}

/// The names `!define NAME …` and `!definelong NAME …` lines define.
fn defined_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let rest = line
                .strip_prefix("!definelong")
                .or_else(|| line.strip_prefix("!define"))?;
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Whether a class body belongs to a `json` declaration.
fn is_json_declaration(body: &SyntaxNode) -> bool {
    body.parent().is_some_and(|declaration| {
        declaration
            .children_with_tokens()
            .find(|e| e.kind() == KEYWORD)
            .is_some_and(|k| element_text(&k).eq_ignore_ascii_case("json"))
    })
}

/// Prints the tokens of one statement line with canonical spacing.
fn format_tokens(kind: SyntaxKind, elements: &[SyntaxElement], defined_names: &[String]) -> String {
    // (token text, had whitespace before it)
    let mut tokens: Vec<(SyntaxKind, String, bool)> = Vec::new();
    let mut pending_space = false;
    for element in elements {
        match element.kind() {
            WHITESPACE | NEWLINE => pending_space = true,
            k => {
                let mut text = element_text(element);
                // A keyword spelt like a `!define`d name (`!define
                // RECTANGLE class`) keeps its case: the preprocessor
                // replaces the name only as written.
                if k == KEYWORD && !defined_names.contains(&text) {
                    text = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
                }
                tokens.push((k, text, pending_space));
                pending_space = false;
            }
        }
    }
    let spaced_colon = matches!(kind, MESSAGE | NOTE | REF);
    let mut out = String::new();
    for (i, (k, text, had_space)) in tokens.iter().enumerate() {
        if i > 0 {
            let prev = tokens[i - 1].0;
            let space = match (prev, *k) {
                // Edge endpoints stay glued to their arrow: `[->`, `->]`, `?->`.
                (L_BRACKET | QUESTION, ARROW) | (ARROW, R_BRACKET | QUESTION) => false,
                // `->(30)` slant and teoz anchors keep their original spacing.
                (ARROW, SLANT) => false,
                (ANCHOR, _) | (_, ANCHOR) => *had_space,
                (_, ARROW) | (ARROW, _) if kind == MESSAGE => true,
                (_, COLON) | (COLON, _) if spaced_colon => true,
                // `++--` is one suffix to PlantUML; `++ --` an error.
                (LIFECYCLE, LIFECYCLE) => false,
                (_, LIFECYCLE) if kind == MESSAGE => true,
                (AMP, _) => true,
                (_, COMMA) => false,
                (COMMA, _) if kind == NOTE || kind == REF => true,
                _ => *had_space,
            };
            if space {
                out.push(' ');
            }
        }
        out.push_str(text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        format(text, &FormatOptions::default())
    }

    #[test]
    fn canonical_layout() {
        let input = "@startuml\n' comment\nPARTICIPANT   Alice\nalt  ok\n   Alice->Bob : hi\n\n\n\nELSE   no\nAlice -> Bob++:x\nend\nnote over Alice,Bob\n      text\nEND NOTE\n@enduml\n";
        expect_test::expect![[r#"
            @startuml
            ' comment
            participant Alice
            alt ok
              Alice -> Bob : hi

            else no
              Alice -> Bob ++ : x
            end
            note over Alice, Bob
              text
            end note
            @enduml
        "#]]
        .assert_eq(&fmt(input));
    }

    #[test]
    fn a_block_of_another_language_is_kept_as_written() {
        let input = "@startuml\nA->B : hi\n@enduml\n\n@startmindmap\n*  root\n  ** child\n@endmindmap\n@startjson\n{ \"a\":  1 }";
        let out = fmt(input);
        assert_eq!(
            out,
            "@startuml\nA -> B : hi\n@enduml\n\n@startmindmap\n*  root\n  ** child\n@endmindmap\n@startjson\n{ \"a\":  1 }\n"
        );
        assert_eq!(fmt(&out), out);
    }

    #[test]
    fn idempotent_on_sample() {
        let input = "@startuml\n[->A:x\nA->]:y\n?->A\nbox \"B\"\nparticipant X\nend box\n!if 1\nA->B\n!endif\n@enduml";
        let once = fmt(input);
        assert_eq!(fmt(&once), once);
        assert!(once.contains("[-> A : x\n"), "{once}");
        assert!(once.contains("  participant X\n"), "{once}");
        assert!(once.ends_with("@enduml\n"), "{once:?}");
    }

    #[test]
    fn broken_statements_are_verbatim() {
        let input = "@startuml\nalt x\n   foo bar   baz\nA->B\nend\n@enduml\n";
        let out = fmt(input);
        assert!(out.contains("\n   foo bar   baz\n"), "{out}");
        assert!(out.contains("\n  A -> B\n"), "{out}");
    }

    #[test]
    fn range_formatting_touches_only_the_range() {
        let input = "@startuml\nA->B\nB->A\n@enduml\n";
        let edits = format_range(input, 2, 2, &FormatOptions::default());
        assert_eq!(edits.len(), 1);
        let (out, _) = puml_syntax::apply_edits(input, &edits);
        assert_eq!(out, "@startuml\nA->B\nB -> A\n@enduml\n");
    }
}
