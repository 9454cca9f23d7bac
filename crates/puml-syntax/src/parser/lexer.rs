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

/// Byte classes of ASCII, looked up once per byte by the scans asked of
/// every line (a table load where each scan tested ranges and lists).
const NAME_BYTE: u8 = 1;
const WORD_BYTE: u8 = 2;
const UPPER_BYTE: u8 = 4;
const BLANK_BYTE: u8 = 8;

static BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        let mut class = 0;
        if byte.is_ascii_alphanumeric() || byte == b'_' {
            class |= NAME_BYTE | WORD_BYTE;
        }
        if matches!(byte, b'.' | b'@' | b'$') {
            class |= NAME_BYTE;
        }
        if byte.is_ascii_uppercase() {
            class |= UPPER_BYTE;
        }
        if byte == b' ' || byte == b'\t' {
            class |= BLANK_BYTE;
        }
        table[b] = class;
        b += 1;
    }
    table
};

fn byte_class(b: u8) -> u8 {
    BYTE_CLASS[usize::from(b)]
}

/// The length of the name at the start of `text` (the bytes before the
/// first character that is not [`is_name_char`]). ASCII bytes are tested
/// directly; decoding every character for it showed in the parse profile.
pub(crate) fn name_len_of(text: &str) -> usize {
    let bytes = text.as_bytes();
    let len = bytes
        .iter()
        .position(|&b| byte_class(b) & NAME_BYTE == 0)
        .unwrap_or(bytes.len());
    if bytes.get(len).is_some_and(|b| !b.is_ascii()) {
        return len + text[len..].find(|c: char| !is_name_char(c)).unwrap_or(text.len() - len);
    }
    len
}

/// The length of the blanks at the start of `text` (any whitespace; the
/// line's terminator is not part of it). Spaces and tabs by bytes, the
/// rest by characters. Inlined for the usual answer, none: a text that
/// starts with an ASCII byte other than whitespace (the parser asks this
/// of every line and before every word, and the call cost more than the
/// test).
#[inline(always)]
pub(crate) fn blank_len_of(text: &str) -> usize {
    match text.as_bytes().first() {
        None => 0,
        Some(&b) if b.is_ascii() && !char::from(b).is_whitespace() => 0,
        Some(_) => blank_run_len(text),
    }
}

/// [`blank_len_of`] past its first byte's test (kept out of line, so
/// that the test alone is inlined).
#[inline(never)]
fn blank_run_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut len = 0;
    // Indentation is mostly spaces: eight bytes at a time, the first one
    // that is not a space found from the word's lowest set byte.
    while let Some(&chunk) = bytes.get(len..).and_then(|rest| rest.first_chunk::<8>()) {
        let other = u64::from_le_bytes(chunk) ^ u64::from_le_bytes([b' '; 8]);
        if other != 0 {
            len += (other.trailing_zeros() / 8) as usize;
            break;
        }
        len += 8;
    }
    while len < bytes.len() && (bytes[len] == b' ' || bytes[len] == b'\t') {
        len += 1;
    }
    if bytes
        .get(len)
        .is_some_and(|&b| !b.is_ascii() || char::from(b).is_whitespace())
    {
        len += text[len..]
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(text.len() - len);
    }
    len
}

/// `text.trim_start()`, with spaces and tabs skipped by bytes.
#[inline]
pub(crate) fn trim_blanks_start(text: &str) -> &str {
    &text[blank_len_of(text)..]
}

impl<'a> LineLexer<'a> {
    pub(crate) fn new(text: &'a str) -> LineLexer<'a> {
        LineLexer {
            text,
            pos: 0,
            pieces: Vec::new(),
        }
    }

    /// A lexer whose pieces go into `pieces` (emptied first).
    pub(crate) fn with_buffer(text: &'a str, mut pieces: Vec<(SyntaxKind, usize, usize)>) -> LineLexer<'a> {
        pieces.clear();
        LineLexer { text, pos: 0, pieces }
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

    /// Spaces and tabs (and other non-newline whitespace). Inlined: it is
    /// called between almost every two tokens, and the call cost about
    /// what its loop does.
    #[inline]
    pub(crate) fn ws(&mut self) -> bool {
        // Most calls stand before a word or a sign: one byte settles it.
        // Spaces and tabs are then skipped in place; other blanks (and
        // non-ASCII text) go through `blank_len_of`'s general reading. The
        // end is always a char boundary, so no `push` check is needed.
        let bytes = self.text.as_bytes();
        let mut end = self.pos;
        while end < bytes.len() && (bytes[end] == b' ' || bytes[end] == b'\t') {
            end += 1;
        }
        if bytes
            .get(end)
            .is_some_and(|&b| b >= 0x80 || char::from(b).is_whitespace())
        {
            end += blank_len_of(&self.text[end..]);
        }
        if end == self.pos {
            return false;
        }
        self.pieces.push((WHITESPACE, self.pos, end));
        self.pos = end;
        true
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
        let rest = self.rest().as_bytes();
        // Bytes: `word` is ASCII, so equal bytes end on a char boundary.
        rest.len() >= word.len()
            && rest[..word.len()].eq_ignore_ascii_case(word.as_bytes())
            && match rest.get(word.len()) {
                None => true,
                Some(&b) if b < 0x80 => byte_class(b) & WORD_BYTE == 0,
                Some(_) => !self.rest()[word.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_'),
            }
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
        name_len_of(self.rest())
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

/// The first word of a line (letters, digits, `_`, and `@` or `!` first),
/// lowercased; borrowed when it already is. The parser asks this of nearly
/// every line, so the common case (ASCII blanks, an ASCII word) is one byte
/// pass; anything else takes the general path.
pub(crate) fn first_word(line: &str) -> std::borrow::Cow<'_, str> {
    let bytes = line.as_bytes();
    let lead = bytes
        .iter()
        .position(|&b| byte_class(b) & BLANK_BYTE == 0)
        .unwrap_or(bytes.len());
    let mut classes = 0;
    let mut end = lead;
    if bytes.get(lead).is_some_and(|&b| b == b'@' || b == b'!') {
        end += 1;
    }
    while let Some(&b) = bytes.get(end) {
        let class = byte_class(b);
        if class & WORD_BYTE == 0 {
            break;
        }
        classes |= class;
        end += 1;
    }
    let upper = classes & UPPER_BYTE != 0;
    // Other whitespace before the word, or a non-ASCII character in or
    // right after it: the general reading.
    if bytes.get(end).is_some_and(|&b| !b.is_ascii())
        || (end == lead && bytes.get(lead).is_some_and(|&b| char::from(b).is_whitespace()))
    {
        return first_word_general(line);
    }
    let word = &line[lead..end];
    if upper {
        std::borrow::Cow::Owned(word.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(word)
    }
}

/// [`first_word`] for any text: Unicode blanks and word characters.
fn first_word_general(line: &str) -> std::borrow::Cow<'_, str> {
    let trimmed = line.trim_start();
    let is_word_char = |i: usize, c: char| c.is_alphanumeric() || c == '_' || ((c == '@' || c == '!') && i == 0);
    let end = trimmed
        .char_indices()
        .find(|&(i, c)| !is_word_char(i, c))
        .map_or(trimmed.len(), |(i, _)| i);
    let word = &trimmed[..end];
    if word.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(word.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(word)
    }
}

#[cfg(test)]
mod byte_scan_tests {
    /// The byte scans agree with the character readings they replace.
    #[test]
    fn byte_scans_agree_with_char_scans() {
        let samples = [
            "",
            " ",
            "\t x",
            "  \u{a0}a",
            "\u{2003} b",
            "\x0b c",
            "\r",
            "Alice->Bob",
            "A.b@c$d_e -> x",
            "é->x",
            "aé b",
            "a\u{2013}>b",
            "a\u{a0}b",
            "\"q\" x",
            "Ａb c",
            "x\u{3000}y",
            "\u{3000}",
            "abc",
            "-> b",
            "a\tb",
        ];
        for s in samples {
            let name = s.find(|c: char| !super::is_name_char(c)).unwrap_or(s.len());
            assert_eq!(super::name_len_of(s), name, "{s:?}");
            let blank = s.find(|c: char| !c.is_whitespace()).unwrap_or(s.len());
            assert_eq!(super::blank_len_of(s), blank, "{s:?}");
        }
    }
}

#[cfg(test)]
mod first_word_tests {
    /// The byte reading agrees with the general one on every line of
    /// the test data and on awkward blanks and characters.
    #[test]
    fn fast_path_agrees_with_the_general_reading() {
        let mut lines: Vec<String> = [
            "",
            " ",
            "\t",
            "  Alice -> Bob",
            "\u{a0}note",
            "\u{2003}Note over",
            "\x0bskin",
            "\r",
            "\rTitle",
            "@StartUml x",
            "!define X",
            "!!x",
            "@@",
            "é->x",
            "Aé b",
            "abc\u{2013}>d",
            "_a_B1",
            "\t\tpartIcipant é",
            "x\u{a0}y",
            "Ａctor",
            "a@b",
            "A!b",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for text in crate::parser::tests::syntax_test_texts() {
            lines.extend(text.lines().map(str::to_string));
        }
        assert!(lines.len() > 1000, "{} lines", lines.len());
        for line in &lines {
            assert_eq!(super::first_word(line), super::first_word_general(line), "{line:?}");
        }
    }
}
