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

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

/// Applies an LSP content change (a range, or the whole text) to `text`.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        None => *text = new_text.to_string(),
        Some(range) => {
            let table = LineTable::new(text);
            let span = table.text_range(range);
            let (start, end) = (usize::from(span.start()), usize::from(span.end()));
            text.replace_range(start..end, new_text);
        }
    }
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
        let mut text = "a\nbé c\n".to_string();
        apply_change(
            &mut text,
            Some(Range::new(Position::new(1, 1), Position::new(1, 2))),
            "ee",
        );
        assert_eq!(text, "a\nbee c\n");
        apply_change(&mut text, None, "new");
        assert_eq!(text, "new");
    }

    #[test]
    fn words_include_dots_and_stop_at_arrows() {
        let text = "Alice.b->Bob";
        assert_eq!(word_at(text, 2), Some((0, "Alice.b")));
        assert_eq!(word_at(text, 10), Some((9, "Bob")));
        assert_eq!(word_at(text, 8), None);
    }
}
