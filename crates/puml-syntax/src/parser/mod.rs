//! The parser: lines → statements → rowan green tree.
//!
//! It never fails and never panics. Each statement is parsed on its own, so
//! one bad line becomes one `ERROR_STATEMENT` (with a diagnostic) and the
//! next line parses normally. Every byte of the input ends up in exactly one
//! token: the tree's text is the input.

pub(crate) mod activity;
pub mod arrow;
mod builder;
pub(crate) mod class;
mod class_mistakes;
pub(crate) mod description;
pub(crate) mod incremental;
pub(crate) mod legacy_activity;
mod lexer;
pub(crate) mod state;
pub(crate) mod statements;

use crate::codes;
use crate::{Diagnostic, DiagramKind, SyntaxKind, TextEdit};
use builder::TreeBuilder;
use lexer::{first_word, LineLexer};
use rowan::{GreenNode, TextRange, TextSize};
use std::cell::Cell;
use SyntaxKind::*;

/// A parse, and whether a later edit may re-parse a single statement of it
/// (see `incremental`).
pub(crate) struct ParsedText {
    pub(crate) green: GreenNode,
    pub(crate) errors: Vec<Diagnostic>,
    /// False when a block opener searched to the end of its diagram without
    /// finding its end: a line edited anywhere after it could close it.
    pub(crate) reparsable: bool,
    pub(crate) derivation: incremental::Derivation,
    /// Per `DIAGRAM` node, in order: the kind it was read as (see
    /// [`crate::Parse::diagram_kinds`]).
    pub(crate) diagram_kinds: Vec<DiagramKind>,
    /// Per `DIAGRAM` node: where the class reading stopped, when it was
    /// tried and lost (see [`Parser::parse_diagram_by_trial`]).
    pub(crate) class_stops: Vec<Option<TextSize>>,
}

pub(crate) fn parse_text(text: &str) -> ParsedText {
    let mut parser = Parser::new(text);
    parser.parse_root();
    let errors = {
        let mut errors = std::mem::take(&mut parser.errors);
        errors.sort_by_key(|d| (d.range.start(), d.range.end()));
        errors
    };
    ParsedText {
        reparsable: !parser.unterminated_block.get(),
        green: parser.builder.finish(ROOT.into()),
        errors,
        derivation: incremental::Derivation::default(),
        diagram_kinds: parser.diagram_kinds,
        class_stops: parser.class_stops,
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    /// Byte offset of the line's first byte in the file.
    pub(crate) start: usize,
    /// The line without its terminator.
    pub(crate) content: &'a str,
    /// `"\n"`, `"\r\n"` or `""` (last line).
    pub(crate) newline: &'a str,
}

/// The first `\n` in `bytes` at or after `from`.
#[cfg(test)]
fn find_newline(bytes: &[u8], from: usize) -> Option<usize> {
    let mut newlines = Newlines::new(bytes);
    newlines.skip_to(from);
    newlines.next()
}

/// The offsets of every `\n` of a text, in order, found sixteen bytes at a
/// time: each block of the text becomes a bit mask of its line feeds, and
/// the mask's set bits are the answers (a search per line started again
/// for every line, and lines are short: about 31 bytes in the corpus).
struct Newlines<'a> {
    bytes: &'a [u8],
    /// Where the block of `mask` starts.
    block: usize,
    /// The line feeds of that block not yet handed out, bit `i` for byte `block + i`.
    mask: u32,
}

const BLOCK: usize = 16;

impl<'a> Newlines<'a> {
    fn new(bytes: &'a [u8]) -> Newlines<'a> {
        Newlines {
            bytes,
            block: 0,
            mask: newline_mask(bytes, 0),
        }
    }

    /// Drops the line feeds before `offset`.
    #[cfg(test)]
    fn skip_to(&mut self, offset: usize) {
        self.block = offset - offset % BLOCK;
        self.mask = newline_mask(self.bytes, self.block) & (u32::MAX << (offset % BLOCK));
    }
}

impl Iterator for Newlines<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.block += BLOCK;
            if self.block >= self.bytes.len() {
                return None;
            }
            self.mask = newline_mask(self.bytes, self.block);
        }
        let at = self.block + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

/// Bit `i` set when `bytes[start + i]` is `\n`, for the (up to) sixteen
/// bytes from `start`.
#[inline]
fn newline_mask(bytes: &[u8], start: usize) -> u32 {
    match bytes.get(start..start + BLOCK) {
        Some(block) => block_newline_mask(block.try_into().unwrap_or(&[0; BLOCK])),
        None => {
            // The last, short block: padded with zeros (no line feeds).
            let mut block = [0u8; BLOCK];
            let tail = bytes.get(start..).unwrap_or_default();
            block[..tail.len()].copy_from_slice(tail);
            block_newline_mask(&block)
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn block_newline_mask(block: &[u8; BLOCK]) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    // SAFETY: SSE2 is part of every x86_64 target; the load reads the
    // sixteen bytes of `block` (unaligned loads are allowed).
    unsafe {
        let chunk = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'\n' as i8))) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn block_newline_mask(block: &[u8; BLOCK]) -> u32 {
    let mut mask = 0;
    for (i, &byte) in block.iter().enumerate() {
        mask |= u32::from(byte == b'\n') << i;
    }
    mask
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
    // Sized for lines of about 32 bytes (the corpus' average) rather than
    // grown from empty: fewer reallocations, and no extra pass to count.
    let mut lines = Vec::with_capacity(text.len() / 32 + 1);
    let bytes = text.as_bytes();
    // The logical line being read, and its last physical line: PlantUML
    // joins a line ending in one `\` (outside a `'` comment, not the last)
    // with the next, so the line feed after it is part of the line.
    let mut start = 0;
    let mut physical_start = 0;
    for newline in Newlines::new(bytes) {
        let content_end = if newline > physical_start && bytes[newline - 1] == b'\r' {
            newline - 1
        } else {
            newline
        };
        let continued = content_end > start
            && bytes[content_end - 1] == b'\\'
            && !(content_end - 1 > start && bytes[content_end - 2] == b'\\')
            && newline + 1 < bytes.len()
            // Only a continued line needs the comment test.
            && !text[physical_start..content_end].trim_start().starts_with('\'');
        physical_start = newline + 1;
        if continued {
            continue;
        }
        lines.push(Line {
            start,
            content: &text[start..content_end],
            newline: &text[content_end..newline + 1],
        });
        start = newline + 1;
    }
    if start < text.len() {
        lines.push(Line {
            start,
            content: &text[start..],
            newline: "",
        });
    }
    lines
}

pub(crate) struct Parser<'a> {
    pub(crate) text: &'a str,
    pub(crate) lines: Vec<Line<'a>>,
    /// Index of the next line to parse.
    pub(crate) pos: usize,
    pub(crate) builder: TreeBuilder,
    pub(crate) errors: Vec<Diagnostic>,
    /// Set when a statement read lines after its own (a block's body).
    pub(crate) looked_ahead: Cell<bool>,
    /// Set when such a search reached the end of the diagram.
    pub(crate) unterminated_block: Cell<bool>,
    /// `only_text_follows`'s last scan: where it started, and the first
    /// statement line at or after it (`lines.len()`: none). A pure
    /// function of the lines, so it holds across trial readings.
    pub(crate) next_statement_line: Cell<(usize, usize)>,
    /// `arrow_label_end`'s last search: where it started, and the first
    /// line at or after it that ends a label or the diagram
    /// (`lines.len()`: none). Also a pure function of the lines.
    pub(crate) next_label_end: Cell<(usize, usize)>,
    /// `arrow_len`'s last scan: the text's address and length, and its answer.
    pub(crate) last_arrow: Cell<(usize, usize, Option<usize>)>,
    /// A trial reading that is discarded once it has an error (the first
    /// reading of `parse_diagram_by_trial`): only where its first error
    /// starts matters, so an unknown line need not be diagnosed in full.
    pub(crate) probing: bool,
    /// A trial reading of `parse_diagram_by_trial` (the first, the class
    /// one) while only whether it has an error matters: it ends after the
    /// statement that reports the first one (a block whose first line
    /// another kind's reading takes costs a line, not a reading of every
    /// line).
    stop_at_first_error: bool,
    /// The kind decided for each diagram so far.
    pub(crate) diagram_kinds: Vec<DiagramKind>,
    /// Per diagram so far: where a losing class reading stopped.
    pub(crate) class_stops: Vec<Option<TextSize>>,
    /// `allowmixing` was read in the class diagram being parsed.
    pub(crate) class_mixing: bool,
    /// Names written so far in the class diagram being parsed (a note may
    /// only be attached to one of them).
    pub(crate) class_names: rustc_hash::FxHashSet<String>,
    /// A link was read in the class diagram being parsed.
    pub(crate) class_linked: bool,
    /// The description reading's memory between lines (see `description.rs`).
    pub(crate) description: description::DescriptionReading,
    /// The state reading of the block being parsed.
    pub(crate) state: state::StateReading,
    /// The legacy activity reading of the block being parsed.
    pub(crate) legacy: legacy_activity::LegacyReading,
    /// The pieces buffer of the last line emitted, handed to the next
    /// line's lexer: one buffer for the whole parse instead of a vector
    /// grown for every line.
    spare_pieces: Vec<(SyntaxKind, usize, usize)>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            lines: split_lines(text),
            pos: 0,
            builder: TreeBuilder::default(),
            errors: Vec::new(),
            looked_ahead: Cell::new(false),
            unterminated_block: Cell::new(false),
            next_statement_line: Cell::new((usize::MAX, 0)),
            next_label_end: Cell::new((usize::MAX, 0)),
            last_arrow: Cell::new((0, usize::MAX, None)),
            probing: false,
            stop_at_first_error: false,
            diagram_kinds: Vec::new(),
            class_mixing: false,
            class_names: rustc_hash::FxHashSet::default(),
            class_linked: false,
            description: description::DescriptionReading::default(),
            class_stops: Vec::new(),
            state: state::StateReading::default(),
            legacy: legacy_activity::LegacyReading::default(),
            spare_pieces: Vec::with_capacity(16),
        }
    }

    /// A lexer over `text` that reuses the parse's pieces buffer.
    pub(crate) fn lexer(&mut self, text: &'a str) -> LineLexer<'a> {
        LineLexer::with_buffer(text, std::mem::take(&mut self.spare_pieces))
    }

    pub(crate) fn range(&self, line: &Line, start: usize, end: usize) -> TextRange {
        TextRange::new(
            TextSize::from((line.start + start) as u32),
            TextSize::from((line.start + end) as u32),
        )
    }

    pub(crate) fn line_range(&self, line: &Line) -> TextRange {
        let trimmed_start = line.content.len() - line.content.trim_start().len();
        let end = line.content.trim_end().len().max(trimmed_start);
        self.range(line, trimmed_start, end)
    }

    pub(crate) fn error(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    /// Emits a line's pieces as tokens, then its terminator.
    pub(crate) fn emit_line(&mut self, line: &Line<'a>, lexer: LineLexer<'a>) {
        let mut cursor = 0;
        let mut pieces = lexer.pieces;
        for &(kind, start, end) in &pieces {
            debug_assert_eq!(start, cursor);
            self.builder.token(kind.into(), &line.content[start..end]);
            cursor = end;
        }
        pieces.clear();
        self.spare_pieces = pieces;
        if cursor < line.content.len() {
            self.builder.token(ERROR_TOKEN.into(), &line.content[cursor..]);
        }
        if !line.newline.is_empty() {
            self.builder.token(NEWLINE.into(), line.newline);
        }
    }

    /// Takes a blank line, a `'` comment or the start of a `/' … '/` block
    /// comment as trivia, as each graph kind's statement reader begins; true
    /// when the line was one (`self.pos` is then past it).
    fn take_comment_or_blank(&mut self, line: &Line<'a>) -> bool {
        let trimmed = lexer::trim_blanks_start(line.content);
        if trimmed.is_empty() || trimmed.starts_with('\'') {
            self.emit_trivia_line(line);
            self.pos += 1;
            return true;
        }
        if trimmed.starts_with("/'") {
            self.block_comment(line);
            return true;
        }
        false
    }

    /// A line holding only trivia (blank, or a `'` comment), as direct children.
    fn emit_trivia_line(&mut self, line: &Line<'a>) {
        let mut lx = self.lexer(line.content);
        lx.ws();
        if lx.rest().starts_with('\'') {
            let len = lx.rest().trim_end().len();
            lx.push(COMMENT, len);
            lx.ws();
        }
        self.emit_line(line, lx);
    }

    fn parse_root(&mut self) {
        self.builder.start_node(ROOT.into());
        if self.text.starts_with('\u{feff}') {
            self.builder.token(BOM.into(), "\u{feff}");
            if let Some(first) = self.lines.first_mut() {
                first.start += 3;
                first.content = &first.content[3..];
            }
        }
        // Any `@start…` tag makes a diagram: `@startmindmap`, `@startgantt`, …
        let has_start = self.lines.iter().any(|l| is_start_tag(&first_word(l.content)));
        if !has_start {
            let has_content = self.lines.iter().any(|l| {
                let t = l.content.trim();
                !t.is_empty() && !t.starts_with('\'')
            });
            if has_content {
                let first = self.lines.iter().find(|l| !l.content.trim().is_empty()).copied();
                if let Some(first) = first {
                    let range = self.line_range(&first);
                    let at = TextSize::from(first.start as u32);
                    self.error(
                        Diagnostic::warning(
                            codes::MISSING_STARTUML,
                            range,
                            "no `@startuml` line: the whole file is read as one diagram",
                        )
                        .with_fix("Insert `@startuml`", vec![TextEdit::insert(at, "@startuml\n")]),
                    );
                }
                self.parse_diagram(true);
            }
        }
        while self.pos < self.lines.len() {
            let line = self.lines[self.pos];
            let word = first_word(line.content);
            if word.starts_with("@startuml") {
                self.parse_diagram(false);
                continue;
            }
            if is_start_tag(&word) {
                self.parse_foreign_diagram();
                continue;
            }
            let trimmed = line.content.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('\'') {
                self.emit_trivia_line(&line);
            } else {
                self.builder.start_node(OUTSIDE_TEXT.into());
                let mut lx = self.lexer(line.content);
                lx.ws();
                lx.text_to_end();
                self.emit_line(&line, lx);
                self.builder.finish_node();
            }
            self.pos += 1;
        }
        self.builder.finish_node();
    }

    fn parse_diagram(&mut self, implicit: bool) {
        self.builder.start_node(DIAGRAM.into());
        if !implicit {
            let line = self.lines[self.pos];
            self.start_line(&line);
            self.pos += 1;
        }
        let activity = self.block_is_activity();
        let first = if activity {
            DiagramKind::Activity
        } else {
            DiagramKind::Sequence
        };
        let (kind, closed, class_stop) = self.parse_diagram_by_trial(implicit, first);
        self.diagram_kinds.push(kind);
        self.class_stops.push(class_stop);
        if !closed && !implicit {
            let end = TextSize::of(self.text);
            let needs_newline = !self.text.is_empty() && !self.text.ends_with('\n');
            let insert = if needs_newline { "\n@enduml\n" } else { "@enduml\n" };
            let last_line = self.lines.iter().rev().find(|l| !l.content.trim().is_empty()).copied();
            let range = match last_line {
                Some(l) => self.line_range(&l),
                None => TextRange::empty(end),
            };
            self.error(
                Diagnostic::warning(
                    codes::MISSING_ENDUML,
                    range,
                    "the diagram has no `@enduml`: PlantUML's editors accept this, but `plantuml FILE` finds no diagram",
                )
                .with_fix("Add `@enduml` at the end", vec![TextEdit::insert(end, insert)]),
            );
        }
        self.builder.finish_node();
    }

    /// PlantUML's kind decision for a block that is no activity diagram:
    /// the sequence reading first; when it meets an error, the class
    /// reading, kept when it reads every line or gets past the sequence
    /// reading's first error (PlantUML reports the reading that got
    /// furthest, the first tried on a tie). Also returns where a losing
    /// class reading stopped (its first error), which lets a later edit
    /// past that line keep the decision without reading the block again;
    /// `None` when the class reading was not tried, won, or stopped at a
    /// block it could not close (an edit further down may close it).
    ///
    /// A block whose first decisive line is an activity statement is read
    /// as an activity diagram first (PlantUML tries that kind after the
    /// class one, but the two rarely read the same block whole; a block
    /// both read, like a lone `package x {`, is the exception).
    fn parse_diagram_by_trial(&mut self, implicit: bool, first: DiagramKind) -> (DiagramKind, bool, Option<TextSize>) {
        let start = self.pos;
        let mark = self.builder.mark();
        let errors_before = self.errors.len();
        let (looked_ahead, unterminated) = (self.looked_ahead.get(), self.unterminated_block.get());
        // With no error this reading is kept as it is, and it has none
        // when it never meets an unknown line, so it is read in probing
        // mode; with an error it is read again (below) or the class
        // reading replaces it. Until then only whether it has an error
        // matters, so it ends at its first: where the first error of the
        // whole reading starts (an unclosed block is reported at its
        // opening line once the block's end is reached) is found by
        // reading it whole, only when the decision needs it
        // (`sequence_error_whole`).
        self.probing = true;
        self.stop_at_first_error = true;
        let sequence = self.parse_diagram_body(implicit, first);
        self.stop_at_first_error = false;
        self.probing = false;
        let sequence_failed = self.first_error_since(errors_before).is_some();
        let only_shared = |parser: &Parser<'a>| {
            let mut kinds = parser
                .builder
                .node_kinds_since(mark)
                .map(SyntaxKind::from_raw_rowan)
                .peekable();
            kinds.peek().is_some()
                && parser
                    .builder
                    .node_kinds_since(mark)
                    .map(SyntaxKind::from_raw_rowan)
                    .all(class::is_shared_statement)
                && parser
                    .builder
                    .node_kinds_since(mark)
                    .map(SyntaxKind::from_raw_rowan)
                    .any(|k| k != END_LINE && k != START_LINE)
        };
        let rewind = |parser: &mut Parser<'a>| {
            parser.pos = start;
            parser.builder.rewind(mark);
            parser.errors.truncate(errors_before);
            parser.looked_ahead.set(looked_ahead);
            parser.unterminated_block.set(unterminated);
        };
        // No error, and something besides shared statements: a sequence
        // diagram. (With only shared statements PlantUML's sequence
        // reading finds an empty diagram and the class reading takes it.)
        let sequence_only_shared = match sequence_failed {
            true => false,
            false if first == DiagramKind::Sequence && only_shared(self) => true,
            false if first == DiagramKind::Activity && self.only_arrows_decide(start) => {
                // `--> "First"` alone: both languages read it, and
                // PlantUML tries the sequence reading first.
                let activity_end = self.pos;
                rewind(self);
                self.probing = true;
                self.stop_at_first_error = true;
                let sequence = self.parse_diagram_body(implicit, DiagramKind::Sequence);
                self.stop_at_first_error = false;
                self.probing = false;
                if self.first_error_since(errors_before).is_none() && !only_shared(self) {
                    return (sequence.0, sequence.1, None);
                }
                rewind(self);
                self.probing = true;
                let activity = self.parse_diagram_body(implicit, first);
                self.probing = false;
                debug_assert_eq!(self.pos, activity_end);
                return (activity.0, activity.1, None);
            }
            false => return (sequence.0, sequence.1, None),
        };
        rewind(self);
        // Where the first reading's first error starts, and where that
        // reading ends: the first reading again, whole (still probing).
        let sequence_error_whole = |parser: &mut Parser<'a>| {
            rewind(parser);
            parser.probing = true;
            parser.parse_diagram_body(implicit, first);
            parser.probing = false;
            let error = parser.first_error_since(errors_before);
            let end = parser.pos;
            rewind(parser);
            (error.unwrap_or(TextSize::from(u32::MAX)), end)
        };
        // A block with a line only state diagrams have (`state`, `[*]`,
        // `--`): the class and description readings refuse it, so it is a
        // state diagram when the state reading reads every line.
        let state_tried = self.block_has_state_marker(start);
        if state_tried {
            self.start_state_reading(start);
            let state = self.parse_diagram_body(implicit, DiagramKind::State);
            if self.first_error_since(errors_before).is_none() {
                return (state.0, state.1, None);
            }
            rewind(self);
        }
        // The class reading, to its first error: with none it is kept as it
        // is; with one, only its whole reading (below) says where it
        // stopped and whether it is kept, which matters only when the
        // description and legacy activity readings do not take the block.
        self.stop_at_first_error = true;
        let class = self.parse_diagram_body(implicit, DiagramKind::Class);
        self.stop_at_first_error = false;
        if self.first_error_since(errors_before).is_none() {
            return (class.0, class.1, None);
        }
        if sequence_only_shared {
            rewind(self);
            let again = self.parse_diagram_body(implicit, first);
            return (again.0, again.1, None);
        }
        // PlantUML's description reading comes after the class one:
        // kept when it reads every line and makes an element.
        rewind(self);
        let description = self.parse_diagram_body(implicit, DiagramKind::Description);
        // A comment or block left open swallows the rest of the block:
        // the readings before decide it.
        let open_block = self.unterminated_block.get();
        let description_error = self.first_error_since(errors_before);
        if description_error.is_none() && self.description.elements > 0 && !open_block {
            return (description.0, description.1, None);
        }
        // Where the description reading stopped (`None`: nowhere a later
        // edit could not change).
        let description_stop = description_error.filter(|_| !open_block);
        // PlantUML's legacy activity reading comes after the
        // description one: kept when it reads every line and makes a
        // link (its first error ends the trial).
        rewind(self);
        self.start_legacy_reading();
        let legacy = self.parse_diagram_body(implicit, DiagramKind::LegacyActivity);
        let open_block = self.unterminated_block.get();
        let legacy_error = self.first_error_since(errors_before);
        if legacy_error.is_none() && self.legacy.links > 0 && !open_block {
            return (legacy.0, legacy.1, None);
        }
        // A later edit must lie past where this reading stopped too.
        let description_stop = match (description_stop, legacy_error.filter(|_| !open_block)) {
            (Some(d), Some(l)) => Some(d.max(l)),
            _ => None,
        };
        let (sequence_error, sequence_end) = sequence_error_whole(self);
        // The class reading whole: its tree is the one kept when it wins.
        let class = self.parse_diagram_body(implicit, DiagramKind::Class);
        let class_error = self
            .first_error_since(errors_before)
            .unwrap_or(TextSize::from(u32::MAX));
        // PlantUML reports lines: the readings are compared by the line of
        // their first error (a named class mistake's span may start inside
        // its line). On a tie the first reading tried wins, unless every
        // error of the class reading is a named mistake only class
        // diagrams make: it read every other line, and its diagnostics say
        // what is wrong.
        let class_only_mistakes = self.errors[errors_before..]
            .iter()
            .filter(|d| d.is_error())
            .all(|d| class::is_class_only_mistake(d.code));
        let (class_line, sequence_line) = (self.line_start_at(class_error), self.line_start_at(sequence_error));
        if class_line > sequence_line || (class_line == sequence_line && class_only_mistakes) {
            return (class.0, class.1, None);
        }
        // Whether the class reading stopped at a block it could not close
        // (an edit further down may close it).
        let class_unclosed = self.errors[errors_before..]
            .iter()
            .any(|d| d.code == codes::UNCLOSED_BLOCK || d.code == codes::UNCLOSED_COMMENT);
        rewind(self);
        let again = self.parse_diagram_body(implicit, first);
        debug_assert_eq!(self.pos, sequence_end);
        // A block the state reading was tried on keeps no stop: an
        // edit anywhere may let that reading read every line.
        let stop = (!class_unclosed && first == DiagramKind::Sequence && !state_tried).then_some(class_error);
        // A later edit must lie past where both losing readings
        // stopped: the later of the two stops.
        let stop = match description_stop {
            Some(description_error) => stop.map(|s| s.max(description_error)),
            None => None,
        };
        (again.0, again.1, stop)
    }

    /// Whether every line of the block from `start` that decides between
    /// the sequence and activity languages is an arrow (`->`, `--> "X"`):
    /// such a block is read as an activity diagram first, but the sequence
    /// reading may read it whole too.
    fn only_arrows_decide(&self, start: usize) -> bool {
        let mut arrows = 0;
        for line in &self.lines[start..] {
            let trimmed = line.content.trim();
            if trimmed.starts_with('@') {
                break;
            }
            match activity::line_class(line.content) {
                activity::LineClass::Neutral => {}
                activity::LineClass::Activity if trimmed.starts_with('-') => arrows += 1,
                _ => return false,
            }
        }
        arrows > 0
    }

    /// The start of the line holding `offset`.
    fn line_start_at(&self, offset: TextSize) -> TextSize {
        let offset = usize::from(offset);
        let idx = self.lines.partition_point(|l| l.start <= offset);
        let start = idx.checked_sub(1).map_or(offset, |i| self.lines[i].start);
        TextSize::from(start as u32)
    }

    /// Where the first error reported since `errors_before` starts.
    fn first_error_since(&self, errors_before: usize) -> Option<TextSize> {
        self.errors[errors_before..]
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.range.start())
            .min()
    }

    /// The statements of a diagram up to its `@enduml` (included), read as
    /// `kind`; whether the end line was found.
    fn parse_diagram_body(&mut self, implicit: bool, kind: DiagramKind) -> (DiagramKind, bool) {
        let mut closed = false;
        let errors_before = self.errors.len();
        self.class_mixing = false;
        self.class_names.clear();
        self.class_linked = false;
        self.description = description::DescriptionReading::default();
        while self.pos < self.lines.len() {
            let line = self.lines[self.pos];
            // Only a line starting with `@` can end or restart the diagram:
            // the others skip the word (the statement reads its own).
            let word = if lexer::trim_blanks_start(line.content).starts_with('@') {
                first_word(line.content)
            } else {
                std::borrow::Cow::Borrowed("")
            };
            if word.starts_with("@end") {
                self.builder.start_node(END_LINE.into());
                let mut lx = self.lexer(line.content);
                lx.ws();
                let len = lx.rest().find(char::is_whitespace).unwrap_or(lx.rest().len());
                lx.push(KEYWORD, len);
                lx.ws();
                if !lx.at_end() {
                    lx.text_to_end();
                }
                self.emit_line(&line, lx);
                self.builder.finish_node();
                self.pos += 1;
                closed = true;
                break;
            }
            if word.starts_with("@startuml") && !implicit {
                let range = self.line_range(&line);
                let full = TextRange::new(
                    TextSize::from(line.start as u32),
                    TextSize::from((line.start + line.content.len() + line.newline.len()) as u32),
                );
                self.error(
                    Diagnostic::warning(
                        codes::NESTED_STARTUML,
                        range,
                        "a second `@startuml` inside a diagram is ignored; did you forget `@enduml` before it?",
                    )
                    .with_fix("Remove the extra `@startuml`", vec![TextEdit::delete(full)]),
                );
                self.start_line(&line);
                self.pos += 1;
                continue;
            }
            match kind {
                DiagramKind::Activity => self.parse_activity_statement(),
                DiagramKind::Class => self.parse_class_statement(),
                DiagramKind::Description => self.parse_description_statement(),
                DiagramKind::State => {
                    self.parse_state_statement();
                    // The state reading is a trial kept only when it reads
                    // every line: its first error ends it (the caller
                    // rewinds), so a block that is no state diagram costs
                    // a line or two, not a second reading.
                    if self.errors[errors_before..].iter().any(|d| d.is_error()) {
                        break;
                    }
                }
                DiagramKind::LegacyActivity => {
                    self.parse_legacy_statement();
                    // A trial like the state reading: its first error ends it.
                    if self.errors[errors_before..].iter().any(|d| d.is_error()) {
                        break;
                    }
                }
                DiagramKind::Sequence => self.parse_statement(),
            }
            if self.stop_at_first_error && self.errors[errors_before..].iter().any(|d| d.is_error()) {
                break;
            }
        }
        (kind, closed)
    }

    /// A `@startmindmap`, `@startgantt`, … block: another language, which
    /// puml does not read. Its start line, its lines as one `BODY` of text
    /// lines, and its `@end…` line, if any; lowering names its kind.
    fn parse_foreign_diagram(&mut self) {
        self.builder.start_node(DIAGRAM.into());
        self.diagram_kinds.push(DiagramKind::Sequence);
        let line = self.lines[self.pos];
        self.builder.start_node(START_LINE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let len = lx
            .rest()
            .find(|c: char| !(c.is_alphanumeric() || c == '@' || c == '_'))
            .unwrap_or(lx.rest().len());
        lx.push(KEYWORD, len);
        lx.ws();
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.emit_line(&line, lx);
        self.builder.finish_node();
        self.pos += 1;
        let end = (self.pos..self.lines.len()).find(|&i| {
            lexer::trim_blanks_start(self.lines[i].content).starts_with('@')
                && first_word(self.lines[i].content).starts_with("@end")
        });
        let body_end = end.unwrap_or(self.lines.len());
        if self.pos < body_end {
            self.builder.start_node(BODY.into());
            for idx in self.pos..body_end {
                let line = self.lines[idx];
                let mut lx = self.lexer(line.content);
                lx.ws();
                lx.text_to_end();
                self.emit_line(&line, lx);
            }
            self.builder.finish_node();
        }
        self.pos = body_end;
        if let Some(end) = end {
            let line = self.lines[end];
            self.builder.start_node(END_LINE.into());
            let mut lx = self.lexer(line.content);
            lx.ws();
            let len = lx.rest().find(char::is_whitespace).unwrap_or(lx.rest().len());
            lx.push(KEYWORD, len);
            lx.ws();
            if !lx.at_end() {
                lx.text_to_end();
            }
            self.emit_line(&line, lx);
            self.builder.finish_node();
            self.pos = end + 1;
        }
        self.builder.finish_node();
    }

    fn start_line(&mut self, line: &Line<'a>) {
        self.builder.start_node(START_LINE.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        lx.literal(KEYWORD, "@startuml");
        lx.ws();
        if !lx.at_end() {
            lx.text_to_end();
        }
        self.emit_line(line, lx);
        self.builder.finish_node();
    }

    /// Finds the line that ends a block opened at `self.pos`, stopping at
    /// `@enduml`. `is_end` sees the trimmed, lowercased line.
    pub(crate) fn find_block_end(&self, is_end: impl Fn(&str) -> bool) -> Option<usize> {
        self.looked_ahead.set(true);
        // One buffer for every line's lowercased copy (a block's body can
        // be long, and a fresh string per line showed in the profile).
        let mut content = String::new();
        for idx in self.pos + 1..self.lines.len() {
            content.clear();
            content.push_str(self.lines[idx].content.trim());
            content.make_ascii_lowercase();
            if content.starts_with("@enduml") {
                break;
            }
            if is_end(&content) {
                return Some(idx);
            }
        }
        self.unterminated_block.set(true);
        None
    }

    /// Emits lines `self.pos + 1 .. end` as a `BODY` node of text lines.
    pub(crate) fn emit_body(&mut self, end: usize) {
        if self.pos + 1 >= end {
            return;
        }
        self.builder.start_node(BODY.into());
        for idx in self.pos + 1..end {
            let line = self.lines[idx];
            let mut lx = self.lexer(line.content);
            lx.ws();
            lx.text_to_end();
            self.emit_line(&line, lx);
        }
        self.builder.finish_node();
    }

    /// Emits the closing line of a block as a `BLOCK_END` node.
    pub(crate) fn emit_block_end(&mut self, idx: usize) {
        let line = self.lines[idx];
        self.builder.start_node(BLOCK_END.into());
        let mut lx = self.lexer(line.content);
        lx.ws();
        let rest = lx.rest().trim_end();
        lx.push(KEYWORD, rest.len());
        lx.ws();
        self.emit_line(&line, lx);
        self.builder.finish_node();
    }
}

/// `@startuml`, `@startmindmap`, `@startgantt`, …: a line that starts a
/// diagram (`word` is the line's first word, lower case).
fn is_start_tag(word: &str) -> bool {
    word.len() > "@start".len() && word.starts_with("@start")
}

#[cfg(test)]
mod tests;
