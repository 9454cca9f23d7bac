//! Tokenizing one line. The language is line-oriented and what a character
//! means depends on the statement (a `:` starts a label in a message, `-`
//! is part of an arrow or of a name in a declaration), so the parser drives
//! this cursor statement by statement instead of lexing the file up front.

use crate::SyntaxKind::{self, *};

/// A cursor over one line's content (terminator excluded). Every byte
/// consumed becomes part of exactly one piece, so the pieces of a line
/// always concatenate back to the line.
pub(crate) struct LineLexer<'a> {
    pub(crate) text: &'a str,
    pub(crate) pos: usize,
    pub(crate) pieces: Vec<(SyntaxKind, usize, usize)>,
}

/// A character of an unquoted name. The en dash is not one: PlantUML reads
/// it as `-` (so `A–>B` is `A->B`).
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '_' | '.' | '@' | '$')
        || (!c.is_ascii() && !c.is_whitespace() && c != super::arrow::EN_DASH)
}

impl<'a> LineLexer<'a> {
    pub(crate) fn new(text: &'a str) -> LineLexer<'a> {
        LineLexer {
            text,
            pos: 0,
            pieces: Vec::new(),
        }
    }

    pub(crate) fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    pub(crate) fn push(&mut self, kind: SyntaxKind, len: usize) {
        // Never split a character or run past the line, whatever a caller computed.
        let mut len = len.min(self.text.len() - self.pos);
        while !self.text.is_char_boundary(self.pos + len) {
            len -= 1;
        }
        if len > 0 {
            self.pieces.push((kind, self.pos, self.pos + len));
            self.pos += len;
        }
    }

    /// Spaces and tabs (and other non-newline whitespace).
    pub(crate) fn ws(&mut self) -> bool {
        let len = self
            .rest()
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(self.rest().len());
        self.push(WHITESPACE, len);
        len > 0
    }

    /// A case-insensitive keyword that is not followed by a name character.
    pub(crate) fn keyword(&mut self, word: &str) -> bool {
        if self.looking_at_word(word) {
            self.push(KEYWORD, word.len());
            true
        } else {
            false
        }
    }

    pub(crate) fn looking_at_word(&self, word: &str) -> bool {
        let rest = self.rest();
        rest.len() >= word.len()
            && rest.is_char_boundary(word.len())
            && rest[..word.len()].eq_ignore_ascii_case(word)
            && !rest[word.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
    }

    /// A case-insensitive literal prefix (no word-boundary check).
    pub(crate) fn literal(&mut self, kind: SyntaxKind, lit: &str) -> bool {
        let rest = self.rest();
        if rest.len() >= lit.len() && rest.is_char_boundary(lit.len()) && rest[..lit.len()].eq_ignore_ascii_case(lit) {
            self.push(kind, lit.len());
            true
        } else {
            false
        }
    }

    pub(crate) fn name_len(&self) -> usize {
        self.rest()
            .find(|c: char| !is_name_char(c))
            .unwrap_or(self.rest().len())
    }

    /// A bare name.
    pub(crate) fn ident(&mut self) -> bool {
        let len = self.name_len();
        self.push(IDENT, len);
        len > 0
    }

    /// `"…"`. Returns `Err(())` when the quote is not closed on the line (the
    /// rest of the line is then consumed as an error token).
    pub(crate) fn string(&mut self) -> Result<bool, ()> {
        if !self.rest().starts_with('"') {
            return Ok(false);
        }
        match self.rest()[1..].find('"') {
            Some(end) => {
                self.push(STRING, end + 2);
                Ok(true)
            }
            None => {
                let len = self.rest().len();
                self.push(ERROR_TOKEN, len);
                Err(())
            }
        }
    }

    /// `#color`, `#FF00FF`, `#red/blue`, `#red-blue`, `#red\blue`, `#red|blue`.
    pub(crate) fn color(&mut self) -> bool {
        let rest = self.rest();
        if !rest.starts_with('#') {
            return false;
        }
        let len = 1 + rest[1..]
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '/' | '\\' | '-' | '|' | '_')))
            .unwrap_or(rest.len() - 1);
        if len == 1 {
            return false;
        }
        self.push(COLOR, len);
        true
    }

    /// A single colour: a `#…` written as a gradient (`#red-blue`) is not
    /// taken (PlantUML 1.2026.8 reads it as text where one colour goes,
    /// e.g. `alt #red-blue cond` is labelled `#red-blue cond`).
    pub(crate) fn solid_color(&mut self) -> bool {
        let rest = self.rest();
        let token_len = rest
            .get(1..)
            .and_then(|r| r.find(|c: char| !(c.is_alphanumeric() || matches!(c, '/' | '\\' | '-' | '|' | '_'))))
            .map_or(rest.len(), |at| at + 1);
        if rest[..token_len].contains(['/', '\\', '-', '|']) {
            return false;
        }
        self.color()
    }

    /// `<< … >>`, possibly containing `(C,#color)`.
    pub(crate) fn stereotype(&mut self) -> bool {
        let rest = self.rest();
        if !rest.starts_with("<<") {
            return false;
        }
        match rest[2..].find(">>") {
            Some(end) => {
                self.push(STEREOTYPE, end + 4);
                true
            }
            None => false,
        }
    }

    /// `[[url label]]`
    pub(crate) fn url(&mut self) -> bool {
        let rest = self.rest();
        if !rest.starts_with("[[") {
            return false;
        }
        match rest.find("]]") {
            Some(end) => {
                self.push(URL, end + 2);
                true
            }
            None => false,
        }
    }

    pub(crate) fn number(&mut self) -> bool {
        let rest = self.rest();
        let sign = usize::from(rest.starts_with('-') || rest.starts_with('+'));
        let digits = rest[sign..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - sign);
        if digits == 0 {
            return false;
        }
        self.push(NUMBER, sign + digits);
        true
    }

    /// The rest of the line as free text, with its trailing whitespace kept
    /// as a separate whitespace token (so the formatter can drop it).
    pub(crate) fn text_to_end(&mut self) {
        let rest = self.rest();
        let trimmed = rest.trim_end();
        self.push(TEXT, trimmed.len());
        let ws = self.rest().len();
        self.push(WHITESPACE, ws);
    }

    /// Consumes whatever is left as an error token (after whitespace).
    pub(crate) fn error_to_end(&mut self) -> Option<(usize, usize)> {
        self.ws();
        if self.at_end() {
            return None;
        }
        let start = self.pos;
        let rest = self.rest();
        let trimmed = rest.trim_end();
        self.push(ERROR_TOKEN, trimmed.len());
        let end = self.pos;
        let ws = self.rest().len();
        self.push(WHITESPACE, ws);
        Some((start, end))
    }

    /// Consumes `: text` if present. Returns whether a colon was found.
    pub(crate) fn colon_label(&mut self) -> bool {
        let save = (self.pos, self.pieces.len());
        self.ws();
        if self.rest().starts_with(':') {
            self.push(COLON, 1);
            self.ws();
            self.text_to_end();
            true
        } else {
            self.pos = save.0;
            self.pieces.truncate(save.1);
            false
        }
    }

    pub(crate) fn checkpoint(&self) -> (usize, usize) {
        (self.pos, self.pieces.len())
    }

    pub(crate) fn rewind(&mut self, checkpoint: (usize, usize)) {
        self.pos = checkpoint.0;
        self.pieces.truncate(checkpoint.1);
    }
}

/// The first word of a line (letters, digits, `_`, `@`, `!`, `#`), lowercased.
/// The line's first word, lowercased; borrowed when it already is (the
/// parser asks this of every line, several times).
pub(crate) fn first_word(line: &str) -> std::borrow::Cow<'_, str> {
    let trimmed = line.trim_start();
    let is_word_char = |i: usize, c: char| c.is_alphanumeric() || c == '_' || ((c == '@' || c == '!') && i == 0);
    // Bytes while they are ASCII (nearly every keyword): the parser asks
    // this of every line several times, and decoding chars cost 2 % of a
    // corpus render (`perf`).
    let ascii_end = trimmed
        .bytes()
        .enumerate()
        .find(|&(i, b)| !b.is_ascii() || !is_word_char(i, char::from(b)))
        .map_or(trimmed.len(), |(i, _)| i);
    let end = if trimmed.as_bytes().get(ascii_end).is_some_and(|b| !b.is_ascii()) {
        trimmed[ascii_end..]
            .char_indices()
            .find(|&(i, c)| !is_word_char(ascii_end + i, c))
            .map_or(trimmed.len(), |(i, _)| ascii_end + i)
    } else {
        ascii_end
    };
    let word = &trimmed[..end];
    if word.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(word.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(word)
    }
}
