//! Byte offsets ↔ 1-based line/column. Columns count Unicode scalar values,
//! which is what people and the `puml check` JSON use; the LSP glue converts
//! to UTF-16 itself.

use text_size::{TextRange, TextSize};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of every line.
    line_starts: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// 1-based.
    pub line: u32,
    /// 1-based, in Unicode scalar values.
    pub col: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        const LOW_BITS: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);
        const LINE_FEEDS: u64 = u64::from_ne_bytes([b'\n'; 8]);
        let bytes = text.as_bytes();
        // Room for lines of about 32 bytes, and one more for the start.
        let mut line_starts = Vec::with_capacity(bytes.len() / 32 + 1);
        line_starts.push(0);
        // Eight bytes at a time: most words hold no line feed, which one
        // test without a branch per byte tells (a byte of `word ^
        // LINE_FEEDS` is zero exactly where a line feed is, and the
        // expression below is nonzero exactly when some byte is zero).
        let mut chunks = bytes.chunks_exact(8);
        let mut chunk_start = 0usize;
        for chunk in &mut chunks {
            let word = u64::from_ne_bytes(chunk.try_into().unwrap_or_default());
            let feeds = word ^ LINE_FEEDS;
            if feeds.wrapping_sub(LOW_BITS) & !feeds & HIGH_BITS != 0 {
                for (i, &b) in chunk.iter().enumerate() {
                    if b == b'\n' {
                        line_starts.push((chunk_start + i) as u32 + 1);
                    }
                }
            }
            chunk_start += 8;
        }
        for (i, &b) in chunks.remainder().iter().enumerate() {
            if b == b'\n' {
                line_starts.push((chunk_start + i) as u32 + 1);
            }
        }
        LineIndex { line_starts }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 0-based line of `offset`.
    pub fn line_of(&self, offset: TextSize) -> usize {
        let off = u32::from(offset);
        match self.line_starts.binary_search(&off) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    pub fn line_col(&self, text: &str, offset: TextSize) -> LineCol {
        let offset = offset.min(TextSize::of(text));
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let mut end = usize::from(offset);
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let col = text[start..end].chars().count() as u32 + 1;
        LineCol {
            line: line as u32 + 1,
            col,
        }
    }

    /// Byte range of 0-based `line`, without its line terminator.
    pub fn line_range(&self, text: &str, line: usize) -> Option<TextRange> {
        let start = *self.line_starts.get(line)? as usize;
        let next = self
            .line_starts
            .get(line + 1)
            .map(|&s| s as usize)
            .unwrap_or(text.len());
        let mut end = next;
        let bytes = text.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
            if end > start && bytes[end - 1] == b'\r' {
                end -= 1;
            }
        }
        Some(TextRange::new((start as u32).into(), (end as u32).into()))
    }

    /// Byte offset of a 1-based line/column; clamps to the line's end.
    pub fn offset(&self, text: &str, pos: LineCol) -> Option<TextSize> {
        let line = pos.line.checked_sub(1)? as usize;
        let range = self.line_range(text, line)?;
        let line_text = &text[range];
        let col = pos.col.saturating_sub(1) as usize;
        let byte = line_text
            .char_indices()
            .nth(col)
            .map(|(i, _)| i)
            .unwrap_or(line_text.len());
        Some(range.start() + TextSize::from(byte as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_scalar_values() {
        let text = "ab\r\nçé-> x\n";
        let idx = LineIndex::new(text);
        let arrow = text.find("->").unwrap() as u32;
        assert_eq!(idx.line_col(text, arrow.into()), LineCol { line: 2, col: 3 });
        assert_eq!(idx.offset(text, LineCol { line: 2, col: 3 }), Some(arrow.into()));
        assert_eq!(&text[idx.line_range(text, 0).unwrap()], "ab");
        assert_eq!(idx.line_count(), 3);
    }

    /// The word-at-a-time scan finds the line feeds a byte loop finds:
    /// feeds at every offset of a word, runs of them, bytes one off a line
    /// feed (which the zero-byte test must not take for one), non-ASCII
    /// text, and every length around a word's.
    #[test]
    fn line_starts_are_those_a_byte_loop_finds() {
        let by_bytes = |text: &str| {
            let mut starts = vec![0u32];
            starts.extend(
                text.bytes()
                    .enumerate()
                    .filter(|(_, b)| *b == b'\n')
                    .map(|(i, _)| i as u32 + 1),
            );
            starts
        };
        let pieces = [
            "",
            "\n",
            "\n\n",
            "a",
            "\u{b}",
            "\t",
            "\r\n",
            "é",
            "\u{8a}",
            "abcdefg",
            "\n\u{b}\n",
            "xyz\n",
        ];
        let mut texts = vec![String::new()];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    texts.push(format!("{a}{b}{c}"));
                    texts.push(format!("{a}{b}0123456789{c}{a}"));
                }
            }
        }
        for len in 0..40 {
            for feed_at in 0..len {
                let mut text = "a".repeat(len);
                text.replace_range(feed_at..=feed_at, "\n");
                texts.push(text);
            }
        }
        for text in &texts {
            assert_eq!(LineIndex::new(text).line_starts, by_bytes(text), "{text:?}");
        }
        assert!(texts.len() > 3_000, "only {}", texts.len());
    }
}
