//! One function per statement form. Each consumes one line (or a block of
//! lines) starting at `Parser::pos`.

use super::arrow::scan_arrow;
use super::lexer::{first_word, is_name_char, name_len_of, trim_blanks_start, LineLexer};
use super::{Line, Parser};
use crate::codes;
use crate::{Diagnostic, SyntaxKind, TextEdit};
use rowan::{TextRange, TextSize};
use SyntaxKind::*;

pub const PARTICIPANT_KINDS: [&str; 8] = [
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
];
pub const GROUP_KEYWORDS: [&str; 8] = ["alt", "opt", "loop", "par", "par2", "break", "critical", "group"];
const WRONG_ENDS: [&str; 9] = [
    "endloop",
    "endalt",
    "endif",
    "endopt",
    "endpar",
    "endgroup",
    "endbreak",
    "endcritical",
    "endwhile",
];

/// Every keyword that starts a statement, for "did you mean" suggestions
/// and for the primitive catalog.
pub const STATEMENT_KEYWORDS: &[&str] = &[
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
    "create",
    "activate",
    "deactivate",
    "destroy",
    "autoactivate",
    "return",
    "note",
    "hnote",
    "rnote",
    "ref",
    "alt",
    "opt",
    "loop",
    "par",
    "break",
    "critical",
    "group",
    "else",
    "end",
    "box",
    "newpage",
    "autonumber",
    "title",
    "header",
    "footer",
    "legend",
    "caption",
    "mainframe",
    "hide",
    "show",
    "skinparam",
    "scale",
];

impl<'a> Parser<'a> {
    pub(crate) fn parse_statement(&mut self) {
        let line = self.lines[self.pos];
        let trimmed = trim_blanks_start(line.content);
        if trimmed.is_empty() || trimmed.starts_with('\'') {
            self.emit_trivia_line(&line);
            self.pos += 1;
            return;
        }
        if trimmed.starts_with("/'") {
            self.block_comment(&line);
            return;
        }
        let lines_before = self.pos;
        if self.looks_like_message(trimmed) {
            self.message(&line);
        } else {
            // Only now: a message's first word is a name, often capitalised,
            // and lowercasing it allocated for nothing.
            let word = first_word(line.content);
            self.keyword_statement(&line, &word, trimmed);
        }
        if self.pos == lines_before {
            self.pos += 1;
        }
    }

    pub(crate) fn keyword_statement(&mut self, line: &Line<'a>, word: &str, trimmed: &str) {
        match word {
            w if w.starts_with('!') => self.directive(line, w),
            w if PARTICIPANT_KINDS.contains(&w) => self.participant(line, PARTICIPANT, None),
            "create" => self.create(line),
            "activate" | "deactivate" | "destroy" => self.lifecycle(line, word),
            "autoactivate" => {
                if line.content.trim().eq_ignore_ascii_case("autoactivate") {
                    // PlantUML wants `on` or `off`.
                    let range = self.line_range(line);
                    self.error(
                        Diagnostic::error(
                            codes::SYNTAX_ERROR,
                            range,
                            "`autoactivate` needs `on` or `off`, e.g. `autoactivate on`",
                        )
                        .with_fix("Write `autoactivate on`", vec![TextEdit::insert(range.end(), " on")]),
                    );
                }
                self.simple(line, AUTOACTIVATE, "autoactivate")
            }
            "return" => self.simple(line, RETURN, "return"),
            "note" | "hnote" | "rnote" => self.note(line),
            "ref" => self.reference(line),
            w if GROUP_KEYWORDS.contains(&w) => self.group_start(line, w),
            "else" => self.else_(line),
            "elseif" | "elif" | "elsif" | "otherwise" => self.wrong_else(line, word),
            "end" => self.end(line),
            w if WRONG_ENDS.contains(&w) => self.wrong_end(line, w),
            "endbox" => self.simple(line, BOX_END, "endbox"),
            "box" => self.box_start(line),
            "newpage" => self.simple(line, NEWPAGE, "newpage"),
            "autonumber" => self.simple(line, AUTONUMBER, "autonumber"),
            "title" => self.titled_block(line, TITLE, "title", &["end title", "endtitle"]),
            "header" => self.titled_block(line, HEADER, "header", &["end header", "endheader"]),
            "footer" => self.titled_block(line, FOOTER, "footer", &["end footer", "endfooter"]),
            "left" | "right" | "center" if self.is_aligned_header(line) => self.aligned_header(line),
            "legend" => self.titled_block(line, LEGEND, "legend", &["end legend", "endlegend"]),
            "caption" => self.simple(line, CAPTION, "caption"),
            "mainframe" => self.simple(line, MAINFRAME, "mainframe"),
            "hide" | "show" => self.simple(line, HIDE_SHOW, word),
            "skinparam" | "skinparamlocked" => self.skinparam(line, word),
            "scale" => {
                // PlantUML reads `scale 2`, `scale 2/3`, `scale 200 width`,
                // `scale max 800*600`, … and refuses any other `scale` line.
                let words: Vec<&str> = trimmed.split_whitespace().collect();
                if !super::legacy_activity::is_scale(&words) {
                    let range = self.line_range(line);
                    self.error(Diagnostic::error(
                        codes::SYNTAX_ERROR,
                        range,
                        "`scale` takes a factor (`scale 2`, `scale 2/3`), a size (`scale 200 width`, `scale 800*600`) \
                         or a bound (`scale max 800*600`)",
                    ));
                }
                self.simple(line, SKINPARAM, word)
            }
            "skin" => self.simple(line, SKINPARAM, word),
            "sprite" => self.sprite(line),
            _ => self.punctuation_statement(line, word, trimmed),
        }
    }

    fn punctuation_statement(&mut self, line: &Line<'a>, word: &str, trimmed: &str) {
        if trimmed.starts_with("==") {
            self.divider(line);
        } else if trimmed.starts_with("...") {
            self.delay(line);
        } else if trimmed.starts_with("||") {
            self.space(line);
        } else if (trimmed.starts_with('/') || trimmed.starts_with('&')) && first_word(&trimmed[1..]).ends_with("note")
        {
            self.note(line);
        } else if trimmed.to_ascii_lowercase().starts_with("<style") {
            self.style(line);
        } else if trimmed.starts_with('$') || (trimmed.starts_with('%') && !trimmed.starts_with("%%")) {
            // A procedure or function call of the preprocessor.
            self.simple_text(line, PREPROC);
        } else if let Some(kind) = standalone_lifecycle(trimmed) {
            self.lifecycle_shorthand(line, kind);
        } else {
            self.unknown(line, word, trimmed);
        }
    }

    /// `A ++` / `A -- #color` on a line of its own: PlantUML's shorthand
    /// for `activate A` / `deactivate A`.
    fn lifecycle_shorthand(&mut self, line: &Line<'a>, kind: SyntaxKind) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        self.name(&mut lx, line);
        lx.ws();
        lx.push(LIFECYCLE, 2);
        let checkpoint = lx.checkpoint();
        lx.ws();
        if !lx.color() {
            lx.rewind(checkpoint);
        }
        lx.ws();
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    // ---------------------------------------------------------------- comments

    pub(crate) fn block_comment(&mut self, line: &Line<'a>) {
        self.looked_ahead.set(true);
        let start_in_file = line.start + (line.content.len() - line.content.trim_start().len());
        let after_open = start_in_file + 2;
        let end = self.text[after_open..].find("'/").map(|i| after_open + i + 2);
        let comment_end = end.unwrap_or(self.text.len());
        // Leading whitespace of the first line.
        let lead = &self.text[line.start..start_in_file];
        if !lead.is_empty() {
            self.builder.token(WHITESPACE.into(), lead);
        }
        self.builder
            .token(BLOCK_COMMENT.into(), &self.text[start_in_file..comment_end]);
        if end.is_none() {
            let range = TextRange::new(
                TextSize::from(start_in_file as u32),
                TextSize::from((start_in_file + 2) as u32),
            );
            // The likeliest intent: a one-line comment missing its close.
            let first_line_end = TextSize::from((line.start + line.content.trim_end().len()) as u32);
            self.error(
                Diagnostic::error(
                    codes::UNCLOSED_COMMENT,
                    range,
                    "this `/'` comment is never closed by `'/`: everything after it is ignored",
                )
                .with_fix(
                    "Close the comment at the end of its line",
                    vec![TextEdit::insert(first_line_end, " '/")],
                ),
            );
        }
        // Skip the lines the comment covers; the rest of its last line is
        // parsed as trivia or flagged.
        while self.pos < self.lines.len() {
            let l = self.lines[self.pos];
            let line_end = l.start + l.content.len();
            if line_end >= comment_end {
                let rest_start = comment_end - l.start;
                let rest = &l.content[rest_start.min(l.content.len())..];
                let mut lx = LineLexer::new(rest);
                lx.ws();
                if !lx.at_end() {
                    let range = TextRange::new(
                        TextSize::from((comment_end + (rest.len() - rest.trim_start().len())) as u32),
                        TextSize::from((l.start + l.content.trim_end().len()) as u32),
                    );
                    lx.error_to_end();
                    self.error(Diagnostic::error(
                        codes::SYNTAX_ERROR,
                        range,
                        "text after the end of a block comment: put it on its own line",
                    ));
                }
                for (kind, s, e) in lx.pieces {
                    self.builder.token(kind.into(), &rest[s..e]);
                }
                if !l.newline.is_empty() {
                    self.builder.token(NEWLINE.into(), l.newline);
                }
                self.pos += 1;
                return;
            }
            self.pos += 1;
        }
    }

    // ---------------------------------------------------------------- helpers

    /// A statement of the form `KEYWORD [free text]`.
    fn simple(&mut self, line: &Line<'a>, kind: SyntaxKind, keyword: &str) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.literal(KEYWORD, keyword);
        lx.ws();
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// A statement whose whole content is one text token.
    fn simple_text(&mut self, line: &Line<'a>, kind: SyntaxKind) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.text_to_end();
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// A participant name: quoted, or bare.
    fn name(&mut self, lx: &mut LineLexer<'a>, line: &Line<'a>) -> bool {
        match lx.string() {
            Ok(true) => true,
            Ok(false) => lx.ident(),
            Err(()) => {
                let (_, s, e) = lx.pieces.last().copied().unwrap_or((ERROR_TOKEN, 0, 0));
                let range = self.range(line, s, e);
                let close_at = s + closing_quote_offset(&line.content[s..e]);
                let at = self.range(line, close_at, close_at);
                self.error(
                    Diagnostic::error(
                        codes::UNTERMINATED_STRING,
                        range,
                        "this `\"` is never closed on its line",
                    )
                    .with_fix("Close the quote", vec![TextEdit::insert(at.start(), "\"")]),
                );
                true
            }
        }
    }

    fn report_leftover(&mut self, lx: &mut LineLexer<'a>, line: &Line<'a>, what: &str) {
        if let Some((s, e)) = lx.error_to_end() {
            let range = self.range(line, s, e);
            let found = &line.content[s..e];
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                format!("unexpected `{}` {what}", shorten(found)),
            ));
        }
    }

    // ---------------------------------------------------------------- directives

    fn directive(&mut self, line: &Line<'a>, word: &str) {
        let kind = match word {
            "!theme" => THEME,
            "!pragma" => PRAGMA,
            _ => PREPROC,
        };
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let len = lx.rest().find(|c: char| c.is_whitespace()).unwrap_or(lx.rest().len());
        lx.push(DIRECTIVE, len);
        lx.ws();
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    // ---------------------------------------------------------------- participants

    /// `participant "Long" as L <<stereo>> [[url]] order 10 #color [`
    pub(crate) fn participant(&mut self, line: &Line<'a>, kind: SyntaxKind, prefix: Option<&str>) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        if let Some(prefix) = prefix {
            lx.keyword(prefix);
            lx.ws();
        }
        let kind_word = first_word(lx.rest());
        if PARTICIPANT_KINDS.contains(&&*kind_word) {
            lx.keyword(&kind_word);
            lx.ws();
        }
        let mut multiline = false;
        if lx.at_end() {
            let range = self.line_range(line);
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                format!("`{}` needs a participant name", kind_word),
            ));
        } else if lx.rest().starts_with('[') {
            multiline = true;
        } else if !self.name(&mut lx, line) {
            self.report_leftover(&mut lx, line, "where a participant name was expected");
        }
        let mut has_alias = false;
        // Stereotypes, `order N` and the colour, in the order written: PlantUML
        // takes them only in that order (and one colour), so the line is checked below.
        let mut options: Vec<(DeclarationOption, usize, usize)> = Vec::new();
        let mut has_url = false;
        loop {
            let checkpoint = lx.checkpoint();
            lx.ws();
            if lx.at_end() {
                lx.rewind(checkpoint);
                break;
            }
            if !has_alias && lx.keyword("as") {
                let (_, as_start, as_end) = lx.pieces.last().copied().unwrap_or((ERROR_TOKEN, 0, 0));
                lx.ws();
                has_alias = true;
                if lx.at_end() {
                    // `participant A as`: PlantUML rejects the line.
                    let removed_from = line.content[..as_start].trim_end().len();
                    self.error(
                        Diagnostic::error(
                            codes::SYNTAX_ERROR,
                            self.range(line, as_start, as_end),
                            "`as` needs an alias after it",
                        )
                        .with_fix(
                            "Remove `as`",
                            vec![TextEdit::delete(self.range(line, removed_from, as_end))],
                        ),
                    );
                } else if !self.name(&mut lx, line) {
                    self.report_leftover(&mut lx, line, "where an alias was expected after `as`");
                }
                continue;
            }
            if lx.stereotype() {
                let (_, start, end) = lx.pieces[lx.pieces.len() - 1];
                options.push((DeclarationOption::Stereotype, start, end));
                continue;
            }
            if lx.url() {
                has_url = true;
                continue;
            }
            if lx.color() {
                let (_, start, end) = lx.pieces[lx.pieces.len() - 1];
                options.push((DeclarationOption::Color, start, end));
                continue;
            }
            if lx.keyword("order") {
                let start = lx.pieces[lx.pieces.len() - 1].1;
                lx.ws();
                if !lx.number() {
                    self.report_leftover(&mut lx, line, "where a number was expected after `order`");
                }
                options.push((DeclarationOption::Order, start, lx.pos));
                continue;
            }
            if lx.rest().trim_end() == "[" {
                multiline = true;
                lx.push(L_BRACKET, 1);
                continue;
            }
            lx.rewind(checkpoint);
            break;
        }
        self.check_declaration_options(line, &options, has_url);
        if !multiline {
            self.report_leftover(&mut lx, line, "in a participant declaration");
        } else {
            lx.ws();
            if lx.rest().starts_with('[') {
                lx.push(L_BRACKET, 1);
            }
            lx.ws();
            self.report_leftover(&mut lx, line, "after `[`");
        }
        self.emit_line(line, lx);
        if multiline {
            match self.find_block_end(|l| l.starts_with(']')) {
                Some(end) => {
                    self.builder.start_node(MULTILINE_NAME.into());
                    self.emit_body(end);
                    let close = self.lines[end];
                    let mut lx = LineLexer::new(close.content);
                    lx.ws();
                    lx.push(R_BRACKET, 1);
                    // Options may follow the closing bracket.
                    loop {
                        let checkpoint = lx.checkpoint();
                        lx.ws();
                        if lx.at_end() {
                            lx.rewind(checkpoint);
                            break;
                        }
                        if lx.keyword("as") {
                            lx.ws();
                            self.name(&mut lx, &close);
                            continue;
                        }
                        if lx.stereotype() || lx.color() || lx.url() {
                            continue;
                        }
                        lx.rewind(checkpoint);
                        break;
                    }
                    self.report_leftover(&mut lx, &close, "after `]`");
                    self.emit_line(&close, lx);
                    self.builder.finish_node();
                    self.pos = end + 1;
                }
                None => {
                    let range = self.line_range(line);
                    self.error(Diagnostic::error(
                        codes::UNCLOSED_BLOCK,
                        range,
                        "this multi-line participant name is never closed by a line starting with `]`",
                    ));
                    self.pos += 1;
                }
            }
        } else {
            self.pos += 1;
        }
        self.builder.finish_node();
    }

    /// PlantUML reads a declaration's options as `<<stereotypes>>`, then
    /// `order N`, then one `#colour`; any other order, or a second colour,
    /// makes the line an error. The fix writes them in that order (keeping
    /// the first colour).
    fn check_declaration_options(
        &mut self,
        line: &Line<'a>,
        options: &[(DeclarationOption, usize, usize)],
        has_url: bool,
    ) {
        let in_order = options.windows(2).all(|pair| pair[0].0 <= pair[1].0);
        let colors = options.iter().filter(|(o, ..)| *o == DeclarationOption::Color).count();
        let orders = options.iter().filter(|(o, ..)| *o == DeclarationOption::Order).count();
        if in_order && colors <= 1 && orders <= 1 {
            return;
        }
        let (Some(first), Some(last)) = (options.first(), options.last()) else {
            return;
        };
        let span = self.range(line, first.1, last.2);
        let message = if colors > 1 {
            "a participant takes one colour; PlantUML rejects a second one"
        } else {
            "PlantUML reads a declaration's options in this order only: `<<stereotype>>`, then `order N`, then `#colour`"
        };
        let mut diagnostic = Diagnostic::error(codes::SYNTAX_ERROR, span, message);
        if !has_url {
            let mut sorted: Vec<&(DeclarationOption, usize, usize)> = options.iter().collect();
            sorted.sort_by_key(|(option, ..)| *option);
            let mut seen_color = false;
            let mut seen_order = false;
            let parts: Vec<&str> = sorted
                .into_iter()
                .filter(|(option, ..)| match option {
                    DeclarationOption::Color => !std::mem::replace(&mut seen_color, true),
                    DeclarationOption::Order => !std::mem::replace(&mut seen_order, true),
                    DeclarationOption::Stereotype => true,
                })
                .map(|(_, start, end)| line.content[*start..*end].trim())
                .collect();
            diagnostic = diagnostic.with_fix(
                "Write the stereotypes, then `order`, then one colour",
                vec![TextEdit::replace(span, parts.join(" "))],
            );
        }
        self.error(diagnostic);
    }

    fn create(&mut self, line: &Line<'a>) {
        self.participant(line, CREATE, Some("create"));
    }

    fn lifecycle(&mut self, line: &Line<'a>, word: &str) {
        let kind = match word {
            "activate" => ACTIVATE,
            "deactivate" => DEACTIVATE,
            _ => DESTROY,
        };
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword(word);
        lx.ws();
        if lx.at_end() {
            if kind == ACTIVATE {
                let range = self.line_range(line);
                // PlantUML's own shorthand (`A -> B ++`) activates the last
                // message's receiver: the likeliest intent of a bare `activate`.
                let receiver = (0..self.pos)
                    .rev()
                    .map(|idx| self.lines[idx])
                    .find(|l| self.looks_like_message(l.content))
                    .and_then(|l| message_receiver(l.content));
                let diagnostic = Diagnostic::error(
                    codes::ACTIVATE_WITHOUT_NAME,
                    range,
                    "`activate` needs the participant to activate, e.g. `activate Server`",
                );
                self.error(match receiver {
                    Some(name) => diagnostic.with_fix(
                        format!("Activate `{name}`, the last message's receiver"),
                        vec![TextEdit::insert(range.end(), format!(" {name}"))],
                    ),
                    None => diagnostic.with_fix("Remove this line", vec![TextEdit::delete(self.full_line_range(line))]),
                });
            } else if kind == DESTROY {
                let range = self.line_range(line);
                self.error(Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "`destroy` needs the participant to destroy, e.g. `destroy Session`",
                ));
            }
        } else {
            if !self.name(&mut lx, line) {
                self.report_leftover(&mut lx, line, "where a participant name was expected");
            }
            // PlantUML takes up to two colours (`activate A #red #blue`).
            for _ in 0..2 {
                let checkpoint = lx.checkpoint();
                lx.ws();
                if !lx.color() {
                    lx.rewind(checkpoint);
                    break;
                }
            }
            self.report_leftover(&mut lx, line, "after the participant name");
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    // ---------------------------------------------------------------- messages

    /// Does the line (`content`, from its start or from its first
    /// non-blank) start (after `&` and `{anchor}`) with an endpoint and an arrow?
    fn looks_like_message(&self, content: &'a str) -> bool {
        let mut rest = trim_blanks_start(content);
        if let Some(r) = rest.strip_prefix('&') {
            rest = trim_blanks_start(r);
        }
        if rest.starts_with('{') {
            if let Some(close) = rest.find('}') {
                rest = trim_blanks_start(&rest[close + 1..]);
            }
        }
        if let Some(r) = rest.strip_prefix('[').or_else(|| rest.strip_prefix('?')) {
            return scan_arrow(r).is_some() || mermaid_arrow_len(r).is_some();
        }
        if scan_arrow(rest).is_some() {
            return true;
        }
        let name_len = if let Some(r) = rest.strip_prefix('"') {
            match r.find('"') {
                Some(e) => e + 2,
                None => return false,
            }
        } else {
            name_len_of(rest)
        };
        if name_len == 0 {
            return false;
        }
        let after = trim_blanks_start(&rest[name_len..]);
        self.arrow_len(after).is_some() || mermaid_arrow_len(after).is_some()
    }

    /// [`scan_arrow`], remembering its last answer: a message's arrow is
    /// scanned by `looks_like_message` and again by `message`, on the same
    /// text of the line. The text is borrowed for the whole parse, so the
    /// same address and length are the same text.
    fn arrow_len(&self, text: &'a str) -> Option<usize> {
        let key = (text.as_ptr() as usize, text.len());
        let (address, len, answer) = self.last_arrow.get();
        if (address, len) == key {
            return answer;
        }
        let answer = scan_arrow(text);
        self.last_arrow.set((key.0, key.1, answer));
        answer
    }

    /// `-[ #red ]->`, `-[#red, dashed]->`: PlantUML takes no whitespace
    /// inside an arrow's style bracket (the line is an error); the fix
    /// removes it. Nor an empty bracket (`-[]->`).
    fn spaced_style_bracket(&self, line: &Line<'a>, arrow_start: usize, arrow_text: &str) -> Option<Diagnostic> {
        // A byte search: asked of every arrow, almost all two or three
        // bytes long, where `str::find`'s searcher costs several times it.
        let open = arrow_text.bytes().position(|b| b == b'[')?;
        let close = open + arrow_text[open..].find(']')?;
        let inner = &arrow_text[open + 1..close];
        // `-[]->`: an empty bracket is refused too; the fix removes it.
        if inner.is_empty() {
            let range = self.range(line, arrow_start + open, arrow_start + close + 1);
            return Some(
                Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "PlantUML takes no empty style bracket in an arrow",
                )
                .with_fix("Remove the empty `[]`", vec![TextEdit::delete(range)]),
            );
        }
        if !inner.contains(char::is_whitespace) {
            return None;
        }
        let fixed: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
        let range = self.range(line, arrow_start + open + 1, arrow_start + close);
        Some(
            Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "PlantUML takes no spaces inside an arrow's style bracket",
            )
            .with_fix(format!("Write `[{fixed}]`"), vec![TextEdit::replace(range, fixed)]),
        )
    }

    fn message(&mut self, line: &Line<'a>) {
        self.builder.start_node(MESSAGE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        if lx.rest().starts_with('&') {
            lx.push(AMP, 1);
            lx.ws();
        }
        let mut anchored = false;
        if lx.rest().starts_with('{') {
            if let Some(close) = lx.rest().find('}') {
                lx.push(ANCHOR, close + 1);
                lx.ws();
                anchored = true;
            }
        }
        // Left endpoint (absent in `-> B`, which PlantUML rejects).
        let left_start = lx.pos;
        if lx.rest().starts_with('[') || lx.rest().starts_with('?') {
            let kind = if lx.rest().starts_with('[') {
                L_BRACKET
            } else {
                QUESTION
            };
            lx.push(kind, 1);
        } else if scan_arrow(lx.rest()).is_none() {
            self.name(&mut lx, line);
        }
        // `{start} <-> {end}`: a teoz duration between two anchors.
        let left_missing = left_start == lx.pos && !anchored;
        let checkpoint = lx.checkpoint();
        lx.ws();
        // The arrow.
        let arrow_start = lx.pos;
        let mut mermaid_fix: Option<Diagnostic> = None;
        if let Some(len) = self.arrow_len(lx.rest()) {
            let arrow_text = &lx.rest()[..len];
            let after = &lx.rest()[len..];
            if let Some(spaced) = self.spaced_style_bracket(line, arrow_start, arrow_text) {
                self.error(spaced);
            }
            if (arrow_text.ends_with(">>") || arrow_text.ends_with('>'))
                && (after.starts_with('+') || after.starts_with('-'))
                && !after.starts_with("++")
                && !after.starts_with("--")
            {
                // Mermaid activation shorthand: `A->>+B`.
                let activation = if after.starts_with('+') { "++" } else { "--" };
                let plantuml_arrow = arrow_text.trim_end_matches('>').to_string() + ">";
                let arrow_range = self.range(line, arrow_start, arrow_start + len + 1);
                mermaid_fix = Some(self.mermaid_activation_fix(line, arrow_range, &plantuml_arrow, activation));
                lx.push(ARROW, len);
                lx.push(ERROR_TOKEN, 1);
            } else {
                lx.push(ARROW, len);
            }
            if lx.rest().starts_with('(') {
                if let Some(close) = lx.rest().find(')') {
                    if lx.rest()[1..close].trim().chars().all(|c| c.is_ascii_digit()) {
                        lx.push(SLANT, close + 1);
                    }
                }
            }
        } else if let Some((len, replacement)) = mermaid_arrow_len(lx.rest()) {
            let found = lx.rest()[..len].to_string();
            let range = self.range(line, lx.pos, lx.pos + len);
            lx.push(ERROR_TOKEN, len);
            self.error(
                Diagnostic::error(
                    codes::MERMAID_ARROW,
                    range,
                    format!("`{found}` is a Mermaid arrow, not PlantUML; use `{replacement}`"),
                )
                .with_fix(
                    format!("Replace `{found}` with `{replacement}`"),
                    vec![TextEdit::replace(range, replacement)],
                ),
            );
        } else {
            lx.rewind(checkpoint);
        }
        let arrow_end = lx.pos;
        lx.ws();
        // Right endpoint.
        let right_start = lx.pos;
        if (lx.rest().starts_with(']') || lx.rest().starts_with('?')) && right_start > arrow_end {
            // PlantUML reads `->]` and `->?` only written together.
            let range = self.range(line, arrow_end, right_start);
            self.error(
                Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "no space may separate an arrow from its `]` or `?` end: write `->]`",
                )
                .with_fix("Remove the space", vec![TextEdit::delete(range)]),
            );
        }
        if lx.rest().starts_with(']') || lx.rest().starts_with('?') {
            let kind = if lx.rest().starts_with(']') {
                R_BRACKET
            } else {
                QUESTION
            };
            lx.push(kind, 1);
        } else if anchored && lx.rest().starts_with('{') && lx.rest().contains('}') {
            let close = lx.rest().find('}').unwrap_or(0);
            lx.push(ANCHOR, close + 1);
        } else if !lx.rest().starts_with(':') && !lx.at_end() {
            self.name(&mut lx, line);
        }
        // A message with no sender comes from outside, as `[->` does
        // (PlantUML draws `-> B` and `[-> B` alike); with no participant
        // on either side it is no message.
        let right_is_name =
            right_start != lx.pos && !matches!(line.content.as_bytes().get(right_start), Some(b']' | b'?' | b'{'));
        let left_is_outside = matches!(line.content.as_bytes().get(left_start), Some(b'[' | b'?'));
        let slanted = lx.pieces.iter().any(|(kind, ..)| *kind == SLANT);
        let right_is_outside = matches!(line.content.as_bytes().get(right_start), Some(b']' | b'?'));
        if (left_missing || left_is_outside) && !right_is_name {
            let range = self.range(line, arrow_start, arrow_end.max(arrow_start));
            self.error(Diagnostic::error(
                codes::MISSING_ENDPOINT,
                range,
                "this arrow has no participant on either side: write `A -> B`, or `[-> B` for a message from outside",
            ));
        } else if slanted && right_is_outside {
            // PlantUML slants a message between two participants only.
            let range = self.range(line, arrow_start, lx.pos);
            self.error(Diagnostic::error(
                codes::MISSING_ENDPOINT,
                range,
                "a slanted arrow (`->(10)`) needs a participant at its end, not `]` or `?`",
            ));
        }
        if right_start != lx.pos {
            // `A --> "Long name" as L`: the target declared in passing.
            let cp = lx.checkpoint();
            lx.ws();
            if lx.keyword("as") {
                lx.ws();
                self.name(&mut lx, line);
            } else {
                lx.rewind(cp);
            }
        }
        // Lifecycle shorthands.
        let lifecycle_checkpoint = lx.checkpoint();
        lx.ws();
        // PlantUML takes one of `++ -- ** !!`, or `++--`/`--++` written
        // together, then an optional colour; any other combination (`**++`,
        // `++ --`, `+++`) is a syntax error.
        let mut any_lifecycle = false;
        let rest = lx.rest();
        if let Some(first) = ["++", "--", "**", "!!"].into_iter().find(|p| rest.starts_with(p)) {
            lx.push(LIFECYCLE, 2);
            any_lifecycle = true;
            let second = match first {
                "++" => Some("--"),
                "--" => Some("++"),
                _ => None,
            };
            if second.is_some_and(|second| lx.rest().starts_with(second)) {
                lx.push(LIFECYCLE, 2);
            }
            let cp = lx.checkpoint();
            lx.ws();
            if !lx.color() {
                lx.rewind(cp);
            }
        }
        if !any_lifecycle {
            lx.rewind(lifecycle_checkpoint);
        }
        if !lx.colon_label() {
            let checkpoint = lx.checkpoint();
            lx.ws();
            if !lx.at_end() {
                let start = lx.pos;
                let end = start + lx.rest().trim_end().len();
                let label = &line.content[start..end];
                lx.push(ERROR_TOKEN, end - start);
                lx.ws();
                let range = self.range(line, start, end);
                let insert_at = self.range(line, checkpoint.0, checkpoint.0).start();
                self.error(
                    Diagnostic::error(
                        codes::MISSING_LABEL_COLON,
                        range,
                        format!(
                            "a message label must follow a `:`; found `{}` after the target",
                            shorten(label)
                        ),
                    )
                    .with_fix("Insert `:` before the label", vec![TextEdit::insert(insert_at, " :")]),
                );
            } else {
                lx.rewind(checkpoint);
            }
        }
        if let Some(diagnostic) = mermaid_fix {
            self.error(diagnostic);
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    /// `A->>+B: x` → `A -> B ++ : x`: Mermaid's `+`/`-` suffix becomes a
    /// PlantUML lifecycle shorthand after the target.
    fn mermaid_activation_fix(
        &self,
        line: &Line<'a>,
        arrow_range: TextRange,
        arrow: &str,
        activation: &str,
    ) -> Diagnostic {
        let local_end = usize::from(arrow_range.end()) - line.start;
        let after = &line.content[local_end..];
        let ws = after.len() - after.trim_start().len();
        let name_start = local_end + ws;
        let rest = &line.content[name_start..];
        let name_len = if let Some(r) = rest.strip_prefix('"') {
            r.find('"').map(|e| e + 2).unwrap_or(rest.len())
        } else {
            name_len_of(rest)
        };
        let name_end = self.range(line, name_start + name_len, name_start + name_len).start();
        let found = &self.text[arrow_range];
        Diagnostic::error(
            codes::MERMAID_ARROW,
            arrow_range,
            format!(
                "`{found}` is Mermaid's arrow with an activation suffix; in PlantUML write `{arrow}` and put `{activation}` after the target"
            ),
        )
        .with_fix(
            format!("Use `{arrow}` and `{activation}`"),
            vec![TextEdit::replace(arrow_range, format!("{arrow} ")), TextEdit::insert(name_end, format!(" {activation}"))],
        )
    }

    // ---------------------------------------------------------------- notes and refs

    fn note(&mut self, line: &Line<'a>) {
        self.builder.start_node(NOTE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        if lx.rest().starts_with('/') {
            lx.push(SLASH, 1);
            lx.ws();
        } else if lx.rest().starts_with('&') {
            lx.push(AMP, 1);
            lx.ws();
        }
        let word = first_word(lx.rest());
        lx.keyword(&word);
        lx.ws();
        let mut ok = true;
        // For the fixes: where `over` is, and where its first name ends.
        let mut over_at = None;
        let mut first_name_end = None;
        // `hnote left` / `rnote right` without `of`: PlantUML takes the one-line form only.
        let mut side_without_of = false;
        if lx.keyword("left") || lx.keyword("right") {
            let cp = lx.checkpoint();
            lx.ws();
            if lx.keyword("of") {
                let after_of = lx.checkpoint();
                lx.ws();
                let nothing_named = lx.at_end() || lx.rest().starts_with(':') || lx.rest().starts_with('#');
                if nothing_named {
                    // `note left of : text`: PlantUML accepts it without a participant.
                    lx.rewind(after_of);
                } else if !self.name(&mut lx, line) {
                    ok = false;
                }
            } else if lx.rest().starts_with('"') || lx.name_len() > 0 {
                // `note right Bob` (without `of`) is accepted by PlantUML.
                self.name(&mut lx, line);
            } else {
                side_without_of = true;
                lx.rewind(cp);
            }
        } else if lx.keyword("top") || lx.keyword("bottom") {
            // A note above or below the last message; `top of` is an error,
            // and like `left`/`right` alone, `hnote top` takes one line only.
            side_without_of = true;
            let cp = lx.checkpoint();
            lx.ws();
            if lx.looking_at_word("of") {
                ok = false;
            }
            lx.rewind(cp);
        } else if lx.keyword("over") {
            over_at = Some(lx.pos - "over".len());
            lx.ws();
            if !self.name(&mut lx, line) {
                ok = false;
            } else {
                first_name_end = Some(lx.pos);
            }
            let cp = lx.checkpoint();
            lx.ws();
            if lx.rest().starts_with(',') {
                lx.push(COMMA, 1);
                lx.ws();
                if !self.name(&mut lx, line) {
                    ok = false;
                }
            } else {
                lx.rewind(cp);
            }
        } else if lx.keyword("across") {
        } else {
            ok = false;
        }
        let cp = lx.checkpoint();
        lx.ws();
        if !lx.color() {
            lx.rewind(cp);
        }
        let colon_at = lx.pos + (lx.rest().len() - lx.rest().trim_start().len());
        let one_line = lx.colon_label();
        let shaped = matches!(word.to_ascii_lowercase().as_str(), "hnote" | "rnote");
        let block_on_message = shaped && side_without_of && !one_line && lx.rest().trim().is_empty();
        let malformed = !ok || (!one_line && !lx.rest().trim().is_empty());
        if malformed {
            let range = self.line_range(line);
            let message = if !ok {
                "a note needs a position: `note left of A`, `note right of A`, `note over A`, `note over A, B` or `note across`"
            } else {
                "unexpected text in a note header: put the text after a `:`, or on the following lines (ended by `end note`); separate several participants with `,`"
            };
            let mut diagnostic = Diagnostic::error(codes::BAD_NOTE, range, message);
            let rest = &line.content[lx.pos..];
            if !ok && first_name_end.is_none() {
                // `note over : text`: over whom is unknown; across all of them.
                if let Some(at) = over_at {
                    diagnostic = diagnostic.with_fix(
                        "Write `note across`",
                        vec![TextEdit::replace(self.range(line, at, at + "over".len()), "across")],
                    );
                }
            } else if let Some(end) = first_name_end.filter(|_| second_name_then_colon(rest)) {
                // `note over A B: text`: the participants need a comma.
                diagnostic = diagnostic.with_fix(
                    "Separate the participants with `,`",
                    vec![TextEdit::insert(self.range(line, end, end).start(), ",")],
                );
            }
            lx.error_to_end();
            self.error(diagnostic);
        }
        if block_on_message && !malformed {
            let range = self.line_range(line);
            let keyword = word.to_ascii_lowercase();
            self.error(Diagnostic::error(
                codes::BAD_NOTE,
                range,
                format!("a `{keyword}` on a message is one line (`{keyword} left : text`); for a block, name a participant (`{keyword} left of A`) or use `note`"),
            ));
        }
        self.emit_line(line, lx);
        if one_line && !malformed && self.colon_block_note_end().is_some() {
            // `note left of A: first line` + more lines + `end note`: a block
            // note written with a colon. The body is the block's; one error.
            let end = self.colon_block_note_end().unwrap_or(self.pos + 1);
            let colon = self.range(line, colon_at, colon_at + 1);
            let label_start =
                colon_at + 1 + (line.content[colon_at + 1..].len() - line.content[colon_at + 1..].trim_start().len());
            let label_range = self.range(line, colon_at, label_start);
            // PlantUML reads the one-line note and fails on the line after it.
            let next = self.lines[self.pos + 1];
            let at = self.line_range(&next);
            self.error(
                Diagnostic::error(
                    codes::BAD_NOTE,
                    at,
                    "the note above has a `:`, so it is one line; this line and the `end note` after it belong to no note: drop the `:` to make it a block note",
                )
                .with_related(colon, "the one-line note's `:`")
                .with_fix("Move the text after `:` into the note's body", vec![TextEdit::replace(label_range, "\n")]),
            );
            self.emit_body(end);
            self.emit_block_end(end);
            self.pos = end + 1;
        } else if one_line || malformed {
            self.pos += 1;
        } else {
            self.block_body(line, "note", is_note_end);
        }
        self.builder.finish_node();
    }

    /// The body and end line of a block whose header is at `self.pos`.
    fn block_body(&mut self, header: &Line<'a>, what: &str, is_end: impl Fn(&str) -> bool) {
        match self.find_block_end(is_end) {
            Some(end) => {
                self.emit_body(end);
                self.emit_block_end(end);
                self.pos = end + 1;
            }
            None => {
                // The body runs until the next line that reads as a
                // statement; it stays the block's body (one error, not one
                // per line), and the fix closes the block after it.
                let range = self.line_range(header);
                let mut body_end = self.pos + 1;
                let mut last_text = None;
                while body_end < self.lines.len() && !self.looks_like_statement(&self.lines[body_end]) {
                    if !self.lines[body_end].content.trim().is_empty() {
                        last_text = Some(body_end);
                    }
                    body_end += 1;
                }
                let diagnostic = Diagnostic::error(
                    codes::UNCLOSED_BLOCK,
                    range,
                    format!("this {what} is never closed by `end {what}`"),
                );
                let close_before = last_text.map_or(self.pos + 1, |l| l + 1);
                let diagnostic = match self.lines.get(close_before) {
                    Some(next) => diagnostic.with_fix(
                        format!("Close the {what} with `end {what}`"),
                        vec![TextEdit::insert(
                            TextSize::from(next.start as u32),
                            format!("end {what}\n"),
                        )],
                    ),
                    None => diagnostic,
                };
                self.error(diagnostic);
                let body_end = close_before.min(self.lines.len());
                self.emit_body(body_end);
                self.pos = body_end.max(self.pos + 1);
            }
        }
    }

    /// After a one-line note at `self.pos`: the `end note` line that closes
    /// it as if it were a block, when only body text comes before it.
    fn colon_block_note_end(&self) -> Option<usize> {
        self.looked_ahead.set(true);
        for idx in self.pos + 1..self.lines.len() {
            if is_note_end(self.lines[idx].content) {
                return (idx > self.pos + 1).then_some(idx);
            }
            if self.looks_like_statement(&self.lines[idx]) {
                return None;
            }
        }
        None
    }

    /// Whether no line after `self.pos` is a statement or an `@enduml`.
    ///
    /// Every unknown line asks this, so a block of unknown lines (a class
    /// diagram read as a sequence one first) would scan the rest of the
    /// file once per line: the first statement line found is remembered
    /// with where the scan started, and a later question from before it
    /// has the same answer without a scan (each line is scanned once).
    fn only_text_follows(&self) -> bool {
        self.looked_ahead.set(true);
        let from = self.pos + 1;
        let (scanned_from, found) = self.next_statement_line.get();
        let next = if scanned_from <= from && from <= found && found <= self.lines.len() {
            found
        } else {
            let found = self.lines[from.min(self.lines.len())..]
                .iter()
                .position(|l| {
                    let trimmed = l.content.trim_start();
                    !trimmed.is_empty() && (trimmed.starts_with('@') || self.looks_like_statement(l))
                })
                .map_or(self.lines.len(), |i| from + i);
            self.next_statement_line.set((from, found));
            found
        };
        next >= self.lines.len()
    }

    /// Whether a line reads as a statement of its own (a keyword, a
    /// message, a divider…), not as text in a block's body.
    fn looks_like_statement(&self, line: &Line<'a>) -> bool {
        let trimmed = trim_blanks_start(line.content);
        if ["@", "==", "||", "...", "!"].iter().any(|p| trimmed.starts_with(p)) {
            return true;
        }
        // `first_word` is lowercase already.
        let word = first_word(trimmed);
        STATEMENT_KEYWORDS.contains(&&*word) || self.looks_like_message(trimmed)
    }

    fn reference(&mut self, line: &Line<'a>) {
        self.builder.start_node(REF.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword("ref");
        lx.ws();
        let mut ok = lx.keyword("over");
        if ok {
            lx.ws();
            ok = self.name(&mut lx, line);
            loop {
                let cp = lx.checkpoint();
                lx.ws();
                if lx.rest().starts_with(',') {
                    lx.push(COMMA, 1);
                    lx.ws();
                    self.name(&mut lx, line);
                } else {
                    lx.rewind(cp);
                    break;
                }
            }
        }
        let cp = lx.checkpoint();
        lx.ws();
        let colored = lx.color();
        if !colored {
            lx.rewind(cp);
        }
        let color_end = lx.checkpoint().0;
        let one_line = lx.colon_label();
        // PlantUML 1.2026.8 takes a colour on a block ref (`ref over A #red`
        // then its lines) but refuses one on a one-line ref (observed).
        if ok && colored && one_line {
            self.error(
                Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    self.line_range(line),
                    "a one-line ref takes no colour (PlantUML refuses it): drop the colour, or write the text on the lines below and end it with `end ref`",
                )
                .with_fix(
                    "Drop the colour",
                    vec![TextEdit::delete(self.range(line, cp.0, color_end))],
                ),
            );
        }
        if !ok || (!one_line && !lx.rest().trim().is_empty()) {
            let range = self.line_range(line);
            lx.error_to_end();
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "a ref needs `over` and participants: `ref over A, B : text`",
            ));
        }
        self.emit_line(line, lx);
        if one_line || !ok {
            self.pos += 1;
        } else {
            self.block_body(line, "ref", |l| {
                let compact: String = l.split_whitespace().collect::<Vec<_>>().join(" ");
                compact == "end ref" || compact == "endref"
            });
        }
        self.builder.finish_node();
    }

    // ---------------------------------------------------------------- groups and boxes

    fn group_start(&mut self, line: &Line<'a>, word: &str) {
        self.builder.start_node(GROUP_START.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.literal(KEYWORD, word);
        lx.color();
        lx.ws();
        // The body's colour is a single one (a gradient there is label text).
        if lx.solid_color() {
            lx.ws();
        }
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    fn else_(&mut self, line: &Line<'a>) {
        self.builder.start_node(ELSE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword("else");
        lx.ws();
        if lx.solid_color() {
            lx.ws();
        }
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    fn wrong_else(&mut self, line: &Line<'a>, word: &str) {
        let message = format!("PlantUML has no `{word}`: a further branch of an `alt` is `else`");
        self.wrong_keyword(line, word, ELSE, codes::WRONG_ELSE, message, "else");
    }

    /// A near-miss keyword (`elseif`, `endloop`): parsed as the statement it
    /// was meant to be, with an error whose fix writes the right keyword.
    fn wrong_keyword(
        &mut self,
        line: &Line<'a>,
        word: &str,
        kind: SyntaxKind,
        code: &'static str,
        message: String,
        replacement: &str,
    ) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let start = lx.pos;
        lx.push(ERROR_TOKEN, word.len());
        let range = self.range(line, start, start + word.len());
        lx.ws();
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.error(Diagnostic::error(code, range, message).with_fix(
            format!("Replace with `{replacement}`"),
            vec![TextEdit::replace(range, replacement)],
        ));
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    fn end(&mut self, line: &Line<'a>) {
        let after: String = line
            .content
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase();
        let block_ends = ["note", "hnote", "rnote", "ref", "legend", "title", "header", "footer"];
        if after == "box" {
            self.builder.start_node(BOX_END.into());
            let mut lx = self.lexer(line.content);
            lx.ws();
            lx.keyword("end");
            lx.ws();
            lx.keyword("box");
            lx.ws();
            self.emit_line(line, lx);
            self.builder.finish_node();
            self.pos += 1;
            return;
        }
        // `end note`/`end ref` with no note or ref open: PlantUML closes the
        // open group with it (a warning and the `end` fix below); with no
        // group open either, the semantic layer reports it.
        let closes_a_group = matches!(after.as_str(), "note" | "hnote" | "rnote" | "ref");
        if block_ends.contains(&after.as_str()) && !closes_a_group {
            self.builder.start_node(ERROR_STATEMENT.into());
            let range = self.line_range(line);
            let mut lx = self.lexer(line.content);
            lx.error_to_end();
            self.error(Diagnostic::error(
                codes::STRAY_BLOCK_END,
                range,
                format!("`end {after}` with no {after} open"),
            ));
            self.emit_line(line, lx);
            self.builder.finish_node();
            self.pos += 1;
            return;
        }
        self.builder.start_node(END.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword("end");
        let cp = lx.checkpoint();
        lx.ws();
        if !lx.at_end() {
            let start = lx.pos;
            let words_end = start + lx.rest().trim_end().len();
            lx.push(TEXT, words_end - start);
            lx.ws();
            let range = self.range(line, cp.0, words_end);
            self.error(
                Diagnostic::warning(
                    codes::END_WITH_WORDS,
                    range,
                    format!(
                        "`end {}`: the words after `end` mean nothing to PlantUML; a group ends with `end` alone",
                        shorten(&line.content[start..words_end])
                    ),
                )
                .with_fix("Remove the words after `end`", vec![TextEdit::delete(range)]),
            );
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    fn wrong_end(&mut self, line: &Line<'a>, word: &str) {
        let message = format!("PlantUML has no `{word}`: every group (`alt`, `loop`, `opt`, …) ends with `end`");
        self.wrong_keyword(line, word, END, codes::WRONG_GROUP_END, message, "end");
    }

    fn box_start(&mut self, line: &Line<'a>) {
        self.builder.start_node(BOX_START.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword("box");
        lx.ws();
        let open_quote = lx.rest().starts_with('"') && !lx.rest()[1..].contains('"');
        let quoted = !open_quote && lx.string() == Ok(true);
        if quoted {
            lx.ws();
            lx.color();
        } else if !lx.color() && !lx.at_end() {
            // An unquoted title, possibly followed by a color. PlantUML
            // reads a title whose quote is never closed the same way, the
            // quote becoming part of the title.
            let rest = lx.rest().trim_end();
            let title_len = rest
                .rfind(" #")
                .filter(|&i| !rest[i + 2..].contains(' '))
                .unwrap_or(rest.len());
            let title_start = lx.pos;
            lx.push(TEXT, title_len);
            if open_quote {
                let range = self.range(line, title_start, title_start + 1);
                let insert_at = self
                    .range(line, title_start + title_len, title_start + title_len)
                    .start();
                self.error(
                    Diagnostic::warning(
                        codes::BOX_TITLE_OPEN_QUOTE,
                        range,
                        "this `\"` is never closed: PlantUML shows it as part of the box title",
                    )
                    .with_suggestion("Close the quote", vec![TextEdit::insert(insert_at, "\"")]),
                );
            }
            lx.ws();
            lx.color();
        }
        lx.ws();
        self.report_leftover(&mut lx, line, "in a `box` line");
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    // ---------------------------------------------------------------- layout statements

    fn divider(&mut self, line: &Line<'a>) {
        self.builder.start_node(DIVIDER.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let rest = lx.rest().trim_end();
        let lead = rest.len() - rest.trim_start_matches('=').len();
        let body = &rest[lead..];
        let trail = body.len() - body.trim_end_matches('=').len();
        if trail < 2 {
            let range = self.line_range(line);
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "a divider is written `== text ==`, with `==` on both sides",
            ));
        }
        lx.push(KEYWORD, lead);
        let inner = body.len() - trail;
        let inner_text = &body[..inner];
        let lead_ws = inner_text.len() - inner_text.trim_start().len();
        lx.push(WHITESPACE, lead_ws);
        let trimmed_inner = inner_text.trim();
        lx.push(TEXT, trimmed_inner.len());
        lx.push(WHITESPACE, inner - lead_ws - trimmed_inner.len());
        lx.push(KEYWORD, trail);
        lx.ws();
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    fn delay(&mut self, line: &Line<'a>) {
        self.builder.start_node(DELAY.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let rest = lx.rest().trim_end();
        let lead = rest.len() - rest.trim_start_matches('.').len();
        let body = &rest[lead..];
        let trail = body.len() - body.trim_end_matches('.').len();
        lx.push(KEYWORD, lead);
        let inner = body.len() - trail;
        let inner_text = &body[..inner];
        let lead_ws = inner_text.len() - inner_text.trim_start().len();
        lx.push(WHITESPACE, lead_ws);
        let trimmed_inner = inner_text.trim();
        lx.push(TEXT, trimmed_inner.len());
        lx.push(WHITESPACE, inner - lead_ws - trimmed_inner.len());
        lx.push(KEYWORD, trail);
        lx.ws();
        if !trimmed_inner.is_empty() && trail < 3 {
            let range = self.line_range(line);
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "a delay with text is written `... text ...`, with dots on both sides",
            ));
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    fn space(&mut self, line: &Line<'a>) {
        self.builder.start_node(SPACE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let rest = lx.rest().trim_end();
        let ok = rest == "|||"
            || (rest.len() > 4
                && rest.starts_with("||")
                && rest.ends_with("||")
                && rest[2..rest.len() - 2].chars().all(|c| c.is_ascii_digit()));
        if ok && rest != "|||" {
            lx.push(KEYWORD, 2);
            let inner = &rest[2..rest.len() - 2];
            let lead = inner.len() - inner.trim_start().len();
            lx.push(WHITESPACE, lead);
            lx.number();
            lx.ws();
            lx.push(KEYWORD, 2);
        } else if ok {
            lx.push(KEYWORD, 3);
        } else {
            let range = self.line_range(line);
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "extra space is written `|||` or `||45||` (pixels)",
            ));
            lx.error_to_end();
        }
        lx.ws();
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    /// `title text` on one line, or `title` … `end title` as a block.
    fn titled_block(&mut self, line: &Line<'a>, kind: SyntaxKind, keyword: &str, ends: &[&str]) {
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword(keyword);
        lx.ws();
        let mut block = lx.at_end();
        if kind == LEGEND {
            // `legend top left` opens a block too.
            let words: Vec<String> = lx.rest().split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
            let positional = words
                .iter()
                .all(|w| matches!(w.as_str(), "top" | "bottom" | "left" | "right" | "center"));
            if positional {
                block = true;
                while !lx.at_end() {
                    let word = first_word(lx.rest());
                    if word.is_empty() {
                        break;
                    }
                    lx.keyword(&word);
                    lx.ws();
                }
            }
        }
        if !lx.at_end() {
            if lx.rest().starts_with(':') {
                lx.push(COLON, 1);
                lx.ws();
            }
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        if block {
            let what = keyword.to_string();
            let ends: Vec<String> = ends.iter().map(|s| s.to_string()).collect();
            self.block_body(line, &what, move |l| {
                let compact: String = l.split_whitespace().collect::<Vec<_>>().join(" ");
                ends.contains(&compact)
            });
        } else {
            self.pos += 1;
        }
        self.builder.finish_node();
    }

    pub(crate) fn is_aligned_header(&self, line: &Line<'a>) -> bool {
        let mut words = line.content.split_whitespace().skip(1);
        matches!(
            words.next().map(|w| w.to_ascii_lowercase()).as_deref(),
            Some("header" | "footer")
        )
    }

    /// `left header …`, `center footer …`.
    fn aligned_header(&mut self, line: &Line<'a>) {
        let second = line
            .content
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_ascii_lowercase();
        let (kind, ends): (SyntaxKind, &[&str]) = if second == "header" {
            (HEADER, &["end header", "endheader"])
        } else {
            (FOOTER, &["end footer", "endfooter"])
        };
        self.builder.start_node(kind.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let align = first_word(lx.rest());
        lx.keyword(&align);
        lx.ws();
        lx.keyword(&second);
        lx.ws();
        let block = lx.at_end();
        if !block {
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        if block {
            let ends: Vec<String> = ends.iter().map(|s| s.to_string()).collect();
            let what = second.clone();
            self.block_body(line, &what, move |l| {
                let compact: String = l.split_whitespace().collect::<Vec<_>>().join(" ");
                ends.contains(&compact)
            });
        } else {
            self.pos += 1;
        }
        self.builder.finish_node();
    }

    fn skinparam(&mut self, line: &Line<'a>, word: &str) {
        self.builder.start_node(SKINPARAM.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword(word);
        lx.ws();
        let opens_block = lx.rest().trim_end().ends_with('{');
        // `skinparam` takes a name and a value (or opens a block): PlantUML
        // rejects `skinparam` alone and `skinparam Name` with no value.
        if !opens_block && lx.rest().split_whitespace().count() < 2 {
            let range = self.line_range(line);
            self.error(
                Diagnostic::error(
                    codes::SYNTAX_ERROR,
                    range,
                    "`skinparam` needs a name and a value, e.g. `skinparam ArrowColor red`",
                )
                .with_suggestion("Remove the line", vec![TextEdit::delete(self.full_line_range(line))]),
            );
        }
        if !lx.at_end() {
            let rest = lx.rest().trim_end();
            if opens_block {
                let before = rest[..rest.len() - 1].trim_end();
                lx.push(TEXT, before.len());
                lx.ws();
                lx.push(L_BRACE, 1);
                lx.ws();
            } else {
                lx.text_to_end();
            }
        }
        self.emit_line(line, lx);
        if opens_block {
            // Nested braces (`skinparam { sequence { … } }`) are counted.
            let mut depth = 1i32;
            let mut end = None;
            self.looked_ahead.set(true);
            for idx in self.pos + 1..self.lines.len() {
                let content = self.lines[idx].content.trim();
                if content.to_ascii_lowercase().starts_with("@enduml") {
                    break;
                }
                depth += content.matches('{').count() as i32;
                depth -= content.matches('}').count() as i32;
                if depth <= 0 {
                    end = Some(idx);
                    break;
                }
            }
            match end {
                Some(end) => {
                    self.emit_body(end);
                    let close = self.lines[end];
                    self.builder.start_node(BLOCK_END.into());
                    let mut lx = LineLexer::new(close.content);
                    lx.ws();
                    let before_brace = lx.rest().rfind('}').unwrap_or(0);
                    if before_brace > 0 {
                        lx.push(TEXT, before_brace);
                    }
                    lx.push(R_BRACE, 1);
                    lx.ws();
                    self.report_leftover(&mut lx, &close, "after `}`");
                    self.emit_line(&close, lx);
                    self.builder.finish_node();
                    self.pos = end + 1;
                }
                None => {
                    self.unterminated_block.set(true);
                    let range = self.line_range(line);
                    self.error(Diagnostic::error(
                        codes::UNCLOSED_BLOCK,
                        range,
                        "this skinparam block is never closed by `}`",
                    ));
                    self.pos += 1;
                }
            }
        } else {
            self.pos += 1;
        }
        self.builder.finish_node();
    }

    /// `sprite $name [WxH/16] {` … `}`, or a one-line sprite.
    fn sprite(&mut self, line: &Line<'a>) {
        self.builder.start_node(SPRITE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.keyword("sprite");
        lx.ws();
        let block = lx.rest().trim_end().ends_with('{');
        lx.text_to_end();
        self.emit_line(line, lx);
        if block {
            match self.find_block_end(|l| l.starts_with('}')) {
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
                        "this sprite is never closed by `}`",
                    ));
                    self.pos += 1;
                }
            }
        } else {
            self.pos += 1;
        }
        self.builder.finish_node();
    }

    fn style(&mut self, line: &Line<'a>) {
        self.builder.start_node(STYLE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let same_line_close = lx.rest().to_ascii_lowercase().contains("</style>");
        lx.text_to_end();
        self.emit_line(line, lx);
        if same_line_close {
            self.pos += 1;
        } else {
            match self.find_block_end(|l| l.starts_with("</style>")) {
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
                        "this `<style>` block is never closed by `</style>`",
                    ));
                    self.pos += 1;
                }
            }
        }
        self.builder.finish_node();
    }

    // ---------------------------------------------------------------- errors

    fn unknown(&mut self, line: &Line<'a>, word: &str, trimmed: &str) {
        self.builder.start_node(ERROR_STATEMENT.into());
        let range = self.line_range(line);
        let word_start = line.content.len() - trimmed.len();
        let word_range = self.range(line, word_start, word_start + word.len());
        if self.probing && word_range.start() == range.start() {
            // A trial reading is discarded once it has an error; only
            // where its first error starts counts, and every diagnosis
            // below starts there (at the word or the line, which begin
            // together unless the line starts with other blanks).
            self.error(Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                "not a sequence-diagram statement",
            ));
            let mut lx = self.lexer(line.content);
            lx.error_to_end();
            self.emit_line(line, lx);
            self.builder.finish_node();
            self.pos += 1;
            return;
        }
        let lower = trimmed.to_ascii_lowercase();
        let diagnostic = if matches!(word, "flowchart" | "graph") {
            Diagnostic::error(
                codes::MERMAID_FLOWCHART,
                range,
                "this is Mermaid's flowchart header; a PlantUML activity diagram has no header (write `start`, `:action;`, `if (…) then` … `endif`)",
            )
            .with_fix("Remove the Mermaid header", vec![TextEdit::delete(self.full_line_range(line))])
        } else if word == "classdiagram" {
            Diagnostic::error(
                codes::MERMAID_HEADER,
                range,
                "`classDiagram` is Mermaid's header; a PlantUML class diagram has none (write `class A`, `A <|-- B` between `@startuml` and `@enduml`)",
            )
            .with_fix("Remove the Mermaid header", vec![TextEdit::delete(self.full_line_range(line))])
        } else if word == "sequencediagram" {
            Diagnostic::error(
                codes::MERMAID_HEADER,
                range,
                "`sequenceDiagram` is Mermaid's header; PlantUML diagrams start with `@startuml` (convert with `puml convert --from mermaid`)",
            )
            .with_fix("Remove the Mermaid header", vec![TextEdit::delete(self.full_line_range(line))])
        } else if word == "rect" {
            Diagnostic::error(
                codes::MERMAID_RECT,
                range,
                "`rect` is Mermaid syntax; in PlantUML highlight a region with `group` (or `box` for participants)",
            )
            .with_fix_pair(self.rect_fix(line, range))
        } else if word == "and" || word == "option" {
            Diagnostic::error(
                codes::MERMAID_SYNTAX,
                range,
                format!("`{word}` is Mermaid syntax; a further branch of `par`/`critical` is `else` in PlantUML"),
            )
            .with_fix("Replace with `else`", vec![TextEdit::replace(word_range, "else")])
        } else if trimmed.starts_with("%%") {
            let marker = self.range(line, word_start, word_start + 2);
            Diagnostic::error(
                codes::MERMAID_SYNTAX,
                range,
                "`%%` comments are Mermaid syntax; PlantUML comments start with `'`",
            )
            .with_fix("Use a `'` comment", vec![TextEdit::replace(marker, "'")])
        } else if word == "link" || word == "links" {
            Diagnostic::error(
                codes::MERMAID_SYNTAX,
                range,
                "Mermaid `link` lines have no PlantUML equivalent; put `[[url]]` in a participant declaration instead",
            )
            .with_suggestion("Remove the line", vec![TextEdit::delete(self.full_line_range(line))])
        } else if (word == "if" && lower.contains("then"))
            || matches!(
                word,
                "start"
                    | "stop"
                    | "endwhile"
                    | "repeat"
                    | "fork"
                    | "class"
                    | "interface"
                    | "enum"
                    | "usecase"
                    | "component"
                    | "node"
                    | "package"
                    | "state"
            )
            || (trimmed.starts_with(':') && trimmed.trim_end().ends_with(';'))
        {
            let diagnostic = Diagnostic::error(
                codes::FOREIGN_DIAGRAM_SYNTAX,
                range,
                format!("`{}` belongs to another kind of PlantUML diagram (activity/class/component), not to a sequence diagram; for a condition use `alt`/`opt`", shorten(trimmed.trim_end())),
            );
            match activity_if_condition(trimmed) {
                // `if (cond) then` … `else` … `endif`: the `alt` it meant
                // (the `endif`/`end` is matched as the group's end).
                Some(condition) => diagnostic.with_fix(
                    "Replace `if (…) then` with `alt …`",
                    vec![TextEdit::replace(range, format!("alt {condition}"))],
                ),
                // Nothing better: keep the line, as a comment that says why.
                None => diagnostic.with_fix(
                    "Comment the line out",
                    vec![TextEdit::insert(range.start(), COMMENTED_OUT)],
                ),
            }
        } else if let Some(kind_fix) = participant_kind_typo(word, trimmed) {
            kind_fix(self, word_range, range)
        } else if let Some(keyword) = closest_keyword(word) {
            Diagnostic::error(
                codes::UNKNOWN_KEYWORD,
                word_range,
                format!(
                    "unknown keyword `{}`; did you mean `{keyword}`?",
                    shorten(&trimmed[..word.len()])
                ),
            )
            .with_fix(
                format!("Replace with `{keyword}`"),
                vec![TextEdit::replace(word_range, keyword)],
            )
        } else {
            let diagnostic = Diagnostic::error(
                codes::SYNTAX_ERROR,
                range,
                format!(
                    "`{}` is not a sequence-diagram statement (expected a message `A -> B : text`, a participant declaration, a note, a group …)",
                    shorten(trimmed.trim_end())
                ),
            );
            if self.only_text_follows() {
                // Text after the diagram whose `@enduml` is missing: the
                // diagram ended before it.
                diagnostic.with_fix(
                    "End the diagram before this text (`@enduml` is missing)",
                    vec![TextEdit::insert(TextSize::from(line.start as u32), "@enduml\n")],
                )
            } else {
                // Nothing better: keep the line, as a comment that says why.
                diagnostic.with_fix(
                    "Comment the line out",
                    vec![TextEdit::insert(range.start(), COMMENTED_OUT)],
                )
            }
        };
        self.error(diagnostic);
        let mut lx = self.lexer(line.content);
        lx.error_to_end();
        self.emit_line(line, lx);
        self.builder.finish_node();
        self.pos += 1;
    }

    /// Mermaid's `rect COLOR` … `end`: a `box` when it wraps participant
    /// declarations (with the color, and `end box`), else a `group`.
    fn rect_fix(&self, line: &Line<'a>, range: TextRange) -> (String, Vec<TextEdit>) {
        const DECLARATIONS: [&str; 8] = [
            "participant",
            "actor",
            "boundary",
            "control",
            "entity",
            "database",
            "collections",
            "queue",
        ];
        self.looked_ahead.set(true);
        let mut end_line = None;
        let mut only_declarations = true;
        for idx in self.pos + 1..self.lines.len() {
            let content = self.lines[idx].content.trim();
            let first = content.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
            if first == "end" || first.starts_with("@enduml") {
                end_line = (first == "end").then_some(idx);
                break;
            }
            if !content.is_empty() && !content.starts_with('\'') && !DECLARATIONS.contains(&first.as_str()) {
                only_declarations = false;
            }
        }
        match end_line {
            Some(idx) if only_declarations && idx > self.pos + 1 => {
                let end = self.lines[idx];
                let color = rect_color(line.content).map(|c| format!(" {c}")).unwrap_or_default();
                (
                    "Replace `rect … end` with `box … end box`".to_string(),
                    vec![
                        TextEdit::replace(range, format!("box{color}")),
                        TextEdit::replace(self.line_range(&end), "end box"),
                    ],
                )
            }
            _ => (
                "Replace `rect …` with `group`".to_string(),
                vec![TextEdit::replace(range, "group")],
            ),
        }
    }

    pub(crate) fn full_line_range(&self, line: &Line<'a>) -> TextRange {
        TextRange::new(
            TextSize::from(line.start as u32),
            TextSize::from((line.start + line.content.len() + line.newline.len()) as u32),
        )
    }
}

/// The statement kind of `A ++` / `A --` (an optional colour after), or
/// `None` when `trimmed` is not that shorthand.
/// A participant declaration's options, in the order PlantUML reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum DeclarationOption {
    Stereotype,
    Order,
    Color,
}

fn standalone_lifecycle(trimmed: &str) -> Option<SyntaxKind> {
    let name_len = if let Some(rest) = trimmed.strip_prefix('"') {
        rest.find('"')? + 2
    } else {
        trimmed.find(|c: char| !is_name_char(c)).unwrap_or(trimmed.len())
    };
    if name_len == 0 {
        return None;
    }
    let rest = trimmed[name_len..].trim_start();
    let (kind, after) = if let Some(after) = rest.strip_prefix("++") {
        (ACTIVATE, after)
    } else if let Some(after) = rest.strip_prefix("--") {
        (DEACTIVATE, after)
    } else {
        return None;
    };
    let after = after.trim();
    let is_color = after.is_empty()
        || (after.starts_with('#') && after.len() > 1 && after[1..].chars().all(|c| c.is_ascii_alphanumeric()));
    is_color.then_some(kind)
}

/// The prefix of a line that `--fix` could only comment out: the reason
/// stays with the line, and removing the prefix restores it.
const COMMENTED_OUT: &str = "' not a sequence-diagram statement (commented out by puml --fix): ";

/// Where the closing quote of an unterminated name belongs: before what
/// follows a name in a declaration (` as alias`, ` <<stereotype>>`,
/// ` #color`, ` order N`, ` : label`), else at the end of the text.
fn closing_quote_offset(unterminated: &str) -> usize {
    let lower = unterminated.to_ascii_lowercase();
    let trimmed_end = unterminated.trim_end().len();
    [" as ", " <<", " #", " order ", " :", " [["]
        .iter()
        .filter_map(|marker| lower.find(marker))
        .min()
        .unwrap_or(trimmed_end)
}

/// A Mermaid `rect`'s color as PlantUML writes it: `rgb(200, 220, 255)` →
/// `#C8DCFF` (the alpha of `rgba` dropped), a name or hex kept with `#`.
fn rect_color(content: &str) -> Option<String> {
    let rest = content.trim_start().get(4..)?.trim();
    let lower = rest.to_ascii_lowercase();
    if lower.starts_with("rgb") {
        let inner = rest.split_once('(')?.1.split_once(')')?.0;
        let parts: Vec<u8> = inner
            .split(',')
            .take(3)
            .map(|p| p.trim().parse::<f64>().ok().map(|v| v.clamp(0.0, 255.0) as u8))
            .collect::<Option<_>>()?;
        let [r, g, b] = parts[..] else { return None };
        return Some(format!("#{r:02X}{g:02X}{b:02X}"));
    }
    let word = rest.split_whitespace().next()?;
    let word = word.trim_start_matches('#');
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric())).then(|| format!("#{word}"))
}

type KindFix<'a> = fn(&Parser<'a>, TextRange, TextRange) -> Diagnostic;

/// `service Foo`, `component Bar`: a declaration with a kind PlantUML lacks.
fn participant_kind_typo<'a>(word: &str, trimmed: &str) -> Option<KindFix<'a>> {
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    let looks_like_decl = words.len() >= 2 && !word.is_empty() && words.get(1).is_some_and(|w| !w.starts_with(':'));
    let known = [
        "service", "server", "system", "api", "user", "person", "db", "process", "client", "external", "module",
    ];
    if !looks_like_decl || !known.contains(&word) || closest_keyword(word).is_some() {
        return None;
    }
    Some(|_parser, word_range, _range| {
        Diagnostic::error(
            codes::UNKNOWN_PARTICIPANT_KIND,
            word_range,
            "PlantUML has no such participant kind; use one of participant, actor, boundary, control, entity, database, collections, queue",
        )
        .with_fix("Declare it as a `participant`", vec![TextEdit::replace(word_range, "participant")])
        .with_suggestion("Declare it as a `control`", vec![TextEdit::replace(word_range, "control")])
    })
}

/// Mermaid arrows PlantUML lacks, with their PlantUML equivalent.
fn mermaid_arrow_len(s: &str) -> Option<(usize, &'static str)> {
    const FORMS: [(&str, &str); 6] = [
        ("--)", "-->>"),
        ("-)", "->>"),
        ("~~>", "-->"),
        ("~>", "->"),
        ("-->>+", "-->"),
        ("->>+", "->"),
    ];
    // Every form starts with `-` or `~`; most text tried here starts with
    // a name.
    if !matches!(s.as_bytes().first(), Some(b'-' | b'~')) {
        return None;
    }
    for (form, replacement) in FORMS {
        if let Some(rest) = s.strip_prefix(form) {
            let after = rest.chars().next();
            if form.ends_with('+') && after.is_some_and(|c| c == '+') {
                continue;
            }
            return Some((form.len(), replacement));
        }
    }
    None
}

/// The statement keyword a misspelt word most likely meant (edit distance
/// 1, or 2 for keywords of six letters or more; a swap of two neighbouring
/// letters counts as one edit). `None` for a keyword itself.
pub fn closest_keyword(word: &str) -> Option<&'static str> {
    // Within distance 2 of a keyword means within 2 of its length: longer
    // words (a line of expanded text can be megabytes) are never close.
    let longest_keyword = STATEMENT_KEYWORDS.iter().map(|k| k.len()).max().unwrap_or(0);
    if word.len() < 3 || word.len() > longest_keyword + 2 {
        return None;
    }
    let mut best: Option<(usize, &'static str)> = None;
    // Keywords are ASCII: compare lengths in characters.
    let word_chars = word.chars().count();
    for &keyword in STATEMENT_KEYWORDS {
        if keyword == word {
            return None;
        }
        let limit = if keyword.len() >= 6 { 2 } else { 1 };
        // The distance is at least the difference in length: skip the
        // table for the many keywords that cannot be close (every unknown
        // line asks, and a class diagram read as a sequence one first is
        // all unknown lines).
        if word_chars.abs_diff(keyword.len()) > limit {
            continue;
        }
        let Some(distance) = edit_distance_within(word, keyword, limit) else {
            continue;
        };
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, keyword));
        }
    }
    best.map(|(_, k)| k)
}

/// [`edit_distance`] when it is at most `limit`, else `None`, found
/// without filling the whole table: the names compared against a word
/// (keywords, skinparams) are many, and most differ at once.
pub fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    if a.is_ascii() && b.is_ascii() {
        // Keywords and skinparam names are ASCII, and so is most of what
        // is compared with them: no character vectors to build.
        bounded_distance(a.as_bytes(), b.as_bytes(), limit)
    } else {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        bounded_distance(&a, &b, limit)
    }
}

fn bounded_distance<T: PartialEq>(a: &[T], b: &[T], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    // Three rows of the table; names and keywords fit on the stack (a
    // check compares a misspelt skinparam with hundreds of names, so three
    // allocations per comparison were most of its cost).
    const ON_STACK: usize = 64;
    let width = b.len() + 1;
    if width <= ON_STACK {
        let mut rows = [[0usize; ON_STACK]; 3];
        let [before_prev, prev, current] = &mut rows;
        banded_distance(
            a,
            b,
            limit,
            [&mut before_prev[..width], &mut prev[..width], &mut current[..width]],
        )
    } else {
        let (mut before_prev, mut prev, mut current) = (vec![0; width], vec![0; width], vec![0; width]);
        banded_distance(a, b, limit, [&mut before_prev, &mut prev, &mut current])
    }
}

/// The table of [`edit_distance`] filled only within `limit` of its
/// diagonal: a cell further off costs more than `limit` (each step off the
/// diagonal is an edit, and costs never fall along a path), so it reads as
/// `limit + 1`, as does every cell past it. `rows` are three rows of
/// `b.len() + 1` cells each.
fn banded_distance<T: PartialEq>(a: &[T], b: &[T], limit: usize, rows: [&mut [usize]; 3]) -> Option<usize> {
    let too_far = limit + 1;
    let [mut before_prev, mut prev, mut current] = rows;
    for (j, cell) in prev.iter_mut().enumerate() {
        *cell = j.min(too_far);
    }
    before_prev.copy_from_slice(prev);
    let mut prev_min = 0;
    for i in 1..=a.len() {
        let first = i.saturating_sub(limit).max(1);
        let last = (i + limit).min(b.len());
        current[first - 1] = if first == 1 { i.min(too_far) } else { too_far };
        let mut row_min = current[first - 1];
        for j in first..=last {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut cell = (prev[j] + 1).min(current[j - 1] + 1).min(prev[j - 1] + cost);
            // Two neighbouring letters swapped (`atl` for `alt`): one edit.
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cell = cell.min(before_prev[j - 2] + 1);
            }
            let cell = cell.min(too_far);
            current[j] = cell;
            row_min = row_min.min(cell);
        }
        if last < b.len() {
            current[last + 1] = too_far;
        }
        // A cell is at least its upper neighbour's row minimum, or one more
        // than the minimum two rows up (a swap): two rows over the limit
        // mean every later row is.
        if row_min > limit && prev_min > limit {
            return None;
        }
        prev_min = row_min;
        std::mem::swap(&mut before_prev, &mut prev);
        std::mem::swap(&mut prev, &mut current);
    }
    Some(prev[b.len()]).filter(|d| *d <= limit)
}

/// Edits (insert, delete, replace, swap of two neighbours) from `a` to `b`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut before_prev: Vec<usize> = prev.clone();
    for i in 1..=a.len() {
        let mut current = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            current[j] = (prev[j] + 1).min(current[j - 1] + 1).min(prev[j - 1] + cost);
            // Two neighbouring letters swapped (`atl` for `alt`): one edit.
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = current[j].min(before_prev[j - 2] + 1);
            }
        }
        before_prev = std::mem::replace(&mut prev, current);
    }
    prev[b.len()]
}

/// After `note over A`: ` B` or ` B: text` (a second name without its comma).
fn second_name_then_colon(rest: &str) -> bool {
    let Some(after_space) = rest.strip_prefix(|c: char| c.is_whitespace()) else {
        return false;
    };
    let name = after_space.trim_start();
    let len = if let Some(r) = name.strip_prefix('"') {
        r.find('"').map_or(0, |e| e + 2)
    } else {
        name.find(|c: char| !is_name_char(c)).unwrap_or(name.len())
    };
    let after = name[len..].trim_start();
    len > 0 && (after.is_empty() || after.starts_with(':') || after.starts_with('#'))
}

/// `if (cond) then` (activity syntax) → `cond`, the label of the `alt` it meant.
fn activity_if_condition(trimmed: &str) -> Option<String> {
    let rest = trimmed.trim_end();
    let lower = rest.to_ascii_lowercase();
    if !lower.starts_with("if") {
        return None;
    }
    let body = rest[2..].trim_start();
    let body = match body.to_ascii_lowercase().rfind("then") {
        Some(at) if body[at..].trim().len() <= "then".len() + 20 => body[..at].trim_end(),
        _ => return None,
    };
    let condition = body
        .strip_prefix('(')
        .and_then(|b| b.rfind(')').map(|close| &b[..close]))
        .unwrap_or(body)
        .trim();
    Some(condition.to_string())
}

/// The receiver of a message line `A -> B : x` (`A` for `A <- B`), as written.
fn message_receiver(content: &str) -> Option<String> {
    let mut rest = content.trim_start();
    if let Some(r) = rest.strip_prefix('&') {
        rest = r.trim_start();
    }
    let name_len = |s: &str| -> usize {
        if let Some(r) = s.strip_prefix('"') {
            r.find('"').map(|e| e + 2).unwrap_or(0)
        } else {
            name_len_of(s)
        }
    };
    let sender_len = name_len(rest);
    let sender = &rest[..sender_len];
    let after = rest[sender_len..].trim_start();
    let arrow_len = scan_arrow(after).or_else(|| mermaid_arrow_len(after).map(|(len, _)| len))?;
    let arrow = &after[..arrow_len];
    let target_text = after[arrow_len..].trim_start();
    let target = &target_text[..name_len(target_text)];
    let leftward = arrow.contains('<') && !arrow.contains('>');
    let receiver = if leftward { sender } else { target };
    (!receiver.is_empty()).then(|| receiver.to_string())
}

/// Whether a line closes a note: `end note`, `endnote`, `end hnote`,
/// `endhnote`, `end rnote` or `endrnote`, in any case, with any blanks
/// around and between the words. Compares words in place: the line
/// joined into a fresh string (as this was written first) cost a few
/// allocations per line of every note body.
pub(crate) fn is_note_end(line: &str) -> bool {
    const KINDS: [&str; 3] = ["note", "hnote", "rnote"];
    // Either way the first word starts with `end`: every other line (most
    // of a note's body, asked line by line) is settled without splitting
    // it into words.
    if !super::lexer::trim_blanks_start(line)
        .get(..3)
        .is_some_and(|start| start.eq_ignore_ascii_case("end"))
    {
        return false;
    }
    let mut words = line.split_whitespace();
    let (Some(first), second, None) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    let is_kind = |word: &str| KINDS.iter().any(|k| word.eq_ignore_ascii_case(k));
    match second {
        None => {
            first.get(..3).is_some_and(|end| end.eq_ignore_ascii_case("end")) && first.get(3..).is_some_and(is_kind)
        }
        Some(second) => first.eq_ignore_ascii_case("end") && is_kind(second),
    }
}

pub(crate) fn shorten(text: &str) -> String {
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}…")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod note_end_tests {
    /// The in-place comparison agrees with joining the words and matching.
    #[test]
    fn note_end_agrees_with_the_joined_reading() {
        let joined = |l: &str| {
            let compact = l.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
            matches!(
                compact.as_str(),
                "end note" | "endnote" | "end hnote" | "endhnote" | "end rnote" | "endrnote"
            )
        };
        let lines = [
            "end note",
            "  End   Note  ",
            "endnote",
            "ENDNOTE",
            "end hnote",
            "endrnote",
            "end  rnote x",
            "end",
            "note",
            "end notes",
            "endnot",
            "end\tnote",
            "é",
            "endé",
            "end\u{a0}note",
            "",
            " ",
            "end note end",
            "xend note",
            "end\u{3000}note",
            "endhNote",
            "end note;",
            "énd note",
        ];
        for l in lines {
            assert_eq!(super::is_note_end(l), joined(l), "{l:?}");
        }
    }
}

#[cfg(test)]
mod edit_distance_tests {
    use super::{edit_distance, edit_distance_within};

    /// The bounded distance is the full one whenever that is within the
    /// bound, and `None` otherwise, over every pair of a set of words made
    /// to be near and far (swaps, repeats, non-ASCII).
    #[test]
    fn the_bounded_distance_agrees_with_the_full_one() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "alt",
            "atl",
            "lat",
            "else",
            "esle",
            "participant",
            "partcipant",
            "particpiant",
            "skinparam",
            "skniparam",
            "aaaa",
            "aaab",
            "abab",
            "baba",
            "é",
            "éa",
            "aé",
            "endnote",
            "note",
            "group",
            // Longer than the rows kept on the stack.
            "sequenceParticipantBackgroundColorsequenceParticipantBorderColor0",
            "sequenceParticipantBackgroundColorsequenceParticipantBordreColor0",
            "sequenceParticipantBackgroundColorsequenceParticipantBorderColor01",
        ];
        for a in words {
            for b in words {
                let full = edit_distance(a, b);
                for limit in 0..4 {
                    let bounded = edit_distance_within(a, b, limit);
                    assert_eq!(bounded, (full <= limit).then_some(full), "{a:?} {b:?} within {limit}");
                }
            }
        }
    }
}
