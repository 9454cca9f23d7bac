//! Positions: LSP speaks lines and UTF-16 code units, the compiler speaks
//! byte offsets. A [`LineTable`] converts both ways for one text.

use puml_syntax::{TextRange, TextSize};
use tower_lsp_server::ls_types::{Position, Range};

pub struct LineTable<'a> {
    text: &'a str,
    /// Byte offset of each line's first character.
    starts: Vec<usize>,
}

impl<'a> LineTable<'a> {
    pub fn new(text: &'a str) -> LineTable<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        LineTable { text, starts }
    }

    /// The byte offset of `position`; positions past a line's end clamp to
    /// it, lines past the end clamp to the end of the text.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        let line = &self.text[start..end];
        let mut units = 0u32;
        for (at, ch) in line.char_indices() {
            if units >= position.character {
                return start + at;
            }
            units += ch.len_utf16() as u32;
        }
        end
    }

    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let mut boundary = offset;
        while !self.text.is_char_boundary(boundary) {
            boundary -= 1;
        }
        let character = self.text[start..boundary].encode_utf16().count() as u32;
        Position::new(line as u32, character)
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range::new(
            self.position(usize::from(range.start())),
            self.position(usize::from(range.end())),
        )
    }

    pub fn text_range(&self, range: Range) -> TextRange {
        let start = self.offset(range.start);
        let end = self.offset(range.end).max(start);
        TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
    }

    /// The text the table measures.
    pub fn text(&self) -> &'a str {
        self.text
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

/// Applies an LSP content change (a range, or the whole text) to an open
/// document's rope: the position is found in O(log n) and the edit is a
/// splice, whatever the size of the file. Positions are read as
/// [`LineTable::offset`] reads them (lines end at `\n`; a column past a
/// line's end clamps to it; a line past the end clamps to the end).
pub fn apply_rope_change(rope: &mut ropey::Rope, range: Option<Range>, new_text: &str) {
    match range {
        None => *rope = ropey::Rope::from_str(new_text),
        Some(range) => {
            let start = rope_char(rope, range.start);
            let end = rope_char(rope, range.end).max(start);
            rope.remove(start..end);
            rope.insert(start, new_text);
        }
    }
}

/// The rope's text as one shared string, sized once and filled chunk by
/// chunk (`to_string` goes through the formatter and grows the string as
/// it goes: a tenth of a label edit's cost in a 5,000-line file).
pub fn rope_text(rope: &ropey::Rope) -> std::sync::Arc<str> {
    let mut text = String::with_capacity(rope.len_bytes());
    rope.chunks().for_each(|chunk| text.push_str(chunk));
    std::sync::Arc::from(text)
}

/// The char index of `position` in `rope`.
fn rope_char(rope: &ropey::Rope, position: Position) -> usize {
    let line_index = position.line as usize;
    // Without the `cr_lines`/`unicode_lines` features ropey breaks lines at
    // `\n` only, like `LineTable`.
    if line_index >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line_index);
    let line = rope.line(line_index);
    let mut content = line.len_chars();
    if content > 0 && line.char(content - 1) == '\n' {
        content -= 1;
    }
    let mut units = 0u32;
    for (index, ch) in line.chars().take(content).enumerate() {
        if units >= position.character {
            return start + index;
        }
        units += ch.len_utf16() as u32;
    }
    start + content
}

/// The identifier-like word around `offset` (letters, digits, `_`, `.`).
pub fn word_at(text: &str, offset: usize) -> Option<(usize, &str)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(offset, |(at, _)| at);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(at, _)| offset + at);
    (end > start).then(|| (start, &text[start..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_round_trip_with_non_ascii() {
        let text = "@startuml\nÄlice -> 😀Bob : hé\n@enduml";
        let table = LineTable::new(text);
        let bob = text.find("Bob").expect("Bob");
        let position = table.position(bob);
        // "Älice -> " is 9 units, the emoji 2 more.
        assert_eq!(position, Position::new(1, 11));
        assert_eq!(table.offset(position), bob);
        assert_eq!(table.offset(Position::new(1, 999)), text.find("\n@end").expect("eol"));
        assert_eq!(table.offset(Position::new(99, 0)), text.len());
    }

    #[test]
    fn changes_apply_in_place() {
        let mut rope = ropey::Rope::from_str("a\nbé c\n");
        apply_rope_change(
            &mut rope,
            Some(Range::new(Position::new(1, 1), Position::new(1, 2))),
            "ee",
        );
        assert_eq!(rope.to_string(), "a\nbee c\n");
        apply_rope_change(&mut rope, None, "new");
        assert_eq!(rope.to_string(), "new");
    }

    /// The rope reads positions exactly as `LineTable` does (the table is
    /// what every other request converts with): non-ASCII, emoji halves,
    /// CRLF and lone CR, columns and lines past the end.
    #[test]
    fn rope_changes_land_where_the_line_table_says() {
        let texts = [
            "@startuml\nÄlice -> 😀Bob : hé\n@enduml",
            "a\r\nb̈c\r\n\r\nend\r\n",
            "x\ry\nz",
            "",
            "é\n\n😀😀\n",
        ];
        let mut seed = 11u64;
        let mut next = |n: u32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % u64::from(n.max(1))) as u32
        };
        for text in texts {
            for _ in 0..300 {
                let (a, b) = (Position::new(next(6), next(12)), Position::new(next(6), next(12)));
                let (start, end) = if (a.line, a.character) <= (b.line, b.character) {
                    (a, b)
                } else {
                    (b, a)
                };
                let insert = ["", "x", "😀", "\n", "é\r\n"][next(5) as usize];
                let table = LineTable::new(text);
                let span = table.text_range(Range::new(start, end));
                let mut expected = text.to_string();
                expected.replace_range(usize::from(span.start())..usize::from(span.end()), insert);
                let mut rope = ropey::Rope::from_str(text);
                apply_rope_change(&mut rope, Some(Range::new(start, end)), insert);
                assert_eq!(rope.to_string(), expected, "{text:?} {start:?}..{end:?} <- {insert:?}");
                assert_eq!(&*rope_text(&rope), expected);
            }
        }
    }

    #[test]
    fn words_include_dots_and_stop_at_arrows() {
        let text = "Alice.b->Bob";
        assert_eq!(word_at(text, 2), Some((0, "Alice.b")));
        assert_eq!(word_at(text, 10), Some((9, "Bob")));
        assert_eq!(word_at(text, 8), None);
    }
}
