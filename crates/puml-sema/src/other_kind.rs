//! PlantUML's fallback to another diagram type. PlantUML tries its diagram
//! types in turn and draws a block as the first one that reads every line
//! of it: a block that is no sequence diagram (`A -- B : m`, `class A`,
//! `actor as A`, `A -> B -> C`, `[*] --> A`) is drawn as a class, a
//! description (usecase, component), a legacy activity or a state diagram.
//! puml checks and draws sequence, activity, class, description, state
//! and legacy activity diagrams (the parser reads those kinds); for a
//! block of another type it reports one warning (W0240) instead of the
//! sequence reading's errors, and refuses to draw it. The legacy activity
//! reading here is the parser's own line grammar
//! (`puml_syntax::LegacyLineReader`): it says where that reading stops in a
//! block the parser read otherwise. When no type reads the whole block,
//! PlantUML reports the error of the reading that got furthest (the first
//! type tried on a tie); when that is past the sequence reading's first
//! error, puml reports one error there (E0241) that carries the sequence
//! errors before it and their repairs.
//!
//! The readings run only on a block whose reading has errors (so a valid
//! diagram pays nothing), read each line once as text and note where each
//! type stops. Their grammars are fitted to PlantUML's verdicts on the
//! generated `fallback-*` cases of `test-data/grammar/cases.tsv` (`cargo
//! xtask grammar-probe`) and to probes of the oracle, and are deliberately
//! narrow: a line a reading does not know stops it, so an error is never
//! moved past the line PlantUML reports, and a block with such a line keeps
//! its sequence errors.

mod description;
mod foreign;
mod state;

use crate::codes;
use crate::model::{Document, OtherKind};
use puml_syntax::ast;
use puml_syntax::{Diagnostic, Parse, TextRange, TextSize};

/// Which of the fallback diagram types read a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Readers {
    pub class: bool,
    pub description: bool,
}

impl Readers {
    const NONE: Readers = Readers {
        class: false,
        description: false,
    };
    const BOTH: Readers = Readers {
        class: true,
        description: true,
    };
    const CLASS: Readers = Readers {
        class: true,
        description: false,
    };
    const DESCRIPTION: Readers = Readers {
        class: false,
        description: true,
    };
    fn and(self, other: Readers) -> Readers {
        Readers {
            class: self.class && other.class,
            description: self.description && other.description,
        }
    }
    fn or(self, other: Readers) -> Readers {
        Readers {
            class: self.class || other.class,
            description: self.description || other.description,
        }
    }
}

/// Replaces the sequence errors of every block PlantUML reads as another
/// diagram type by one W0240 warning, and marks the diagram
/// (`Diagram::other_kind`); when no type reads the whole block and one of
/// the other readings gets past the sequence reading's first error, moves
/// the error to where that reading stops (E0241), as PlantUML reports it.
/// `diagnostics` are in `parse`'s coordinates.
pub(crate) fn recognize(
    parse: &Parse,
    document: &mut Document,
    source_map: &mut crate::model::SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
) {
    foreign::recognize_tagged(parse, document, diagnostics);
    let mut text = None;
    description_gives_way_to_class(parse, &mut text, document, diagnostics);
    legacy_gives_way_to_earlier_readings(parse, &mut text, document, source_map, diagnostics);
    if !diagnostics.iter().any(|d| d.is_error() && d.file.is_none()) {
        return;
    }
    let text = source_text(parse, &mut text);
    for (index, diagram) in parse.root().diagrams().enumerate() {
        if diagram.foreign_tag().is_some() {
            continue;
        }
        let range = diagram.syntax.text_range();
        let in_block = |d: &Diagnostic| d.file.is_none() && !d.code.starts_with('P') && range.contains_range(d.range);
        let Some(first_error) = diagnostics
            .iter()
            .filter(|d| d.is_error() && in_block(d))
            .min_by_key(|d| d.range.start())
        else {
            continue;
        };
        // A theme PlantUML cannot load fails the block whatever type reads it.
        if diagnostics
            .iter()
            .any(|d| d.code == codes::UNKNOWN_THEME && in_block(d))
        {
            continue;
        }
        let first_error_line = line_start(text, first_error.range.start().into());
        // A first line of another language decides the block's kind.
        let reading = match first_content_line(text, &diagram).and_then(foreign::body_kind) {
            Some(foreign::Body::Timing) => BlockReading {
                complete: Some(OtherKind::Other("TIMING")),
                furthest: None,
            },
            Some(foreign::Body::Misplaced(language, tag)) => {
                let end = end_line_range(text, &diagram);
                diagnostics.retain(|d| !in_block(d));
                diagnostics.push(Diagnostic::error(
                    codes::MISPLACED_LANGUAGE,
                    end,
                    format!("this block is a {language} diagram, which PlantUML reads only under its own tag: \"This looks like a {language} diagram. Please use {tag} instead of @startuml\" (PlantUML reports it on the block's last line)"),
                ));
                continue;
            }
            None => read_block(text, &diagram, &READINGS),
        };
        let Some(kind) = reading.complete else {
            if let Some((stop, furthest)) = reading.furthest {
                if stop > first_error_line {
                    move_to_furthest_stop(text, stop, furthest, diagnostics, &in_block);
                }
            }
            continue;
        };
        let Some(model) = document.diagrams.get_mut(index) else {
            continue;
        };
        let line = line_range(text, first_error.range.start().into());
        let line_text = text
            .get(usize::from(line.start())..usize::from(line.end()))
            .unwrap_or("");
        let mut warning = Diagnostic::warning(
            codes::OTHER_DIAGRAM_KIND,
            line,
            match kind {
                // puml draws these kinds, but its own reading of this block
                // stopped on a line PlantUML's reading takes.
                OtherKind::Class | OtherKind::Description | OtherKind::Activity | OtherKind::State => format!(
                    "PlantUML reads this block as a {} diagram (this line, `{}`, is not sequence syntax); puml's {} reading does not take every line of this block, so puml does not draw it",
                    kind.describe(),
                    line_text,
                    kind.describe()
                ),
                OtherKind::Other(_) => format!(
                    "PlantUML reads this block as a {} diagram (this line, `{}`, is not sequence syntax); puml does not draw {} diagrams yet (it checks and draws sequence, activity (also legacy), class, description and state diagrams)",
                    kind.describe(),
                    line_text,
                    kind.describe()
                ),
            },
        );
        // A link with a class-only arrow was probably meant as a message:
        // the sequence arrow is offered, never applied by `--fix` (PlantUML
        // accepts the block as it is).
        if let Some((arrow, replacement)) = sequence_arrow_for(line_text) {
            let start = u32::from(line.start()) + arrow.start as u32;
            let range = TextRange::new(start.into(), (start + arrow.len() as u32).into());
            warning = warning.with_suggestion(
                format!("Read it as a sequence message: `{replacement}`"),
                vec![puml_syntax::TextEdit {
                    range,
                    new_text: replacement.to_string(),
                }],
            );
        }
        // The sequence reading's repairs stay on offer, as suggestions only
        // (PlantUML accepts the block as it is: `--fix` leaves it alone).
        for error in diagnostics.iter().filter(|d| d.is_error() && in_block(d)) {
            for fix in &error.fixes {
                if !warning.fixes.iter().any(|f| f.edits == fix.edits) {
                    warning = warning.with_suggestion(fix.title.clone(), fix.edits.clone());
                }
            }
        }
        diagnostics.retain(|d| !in_block(d));
        diagnostics.push(warning);
        model.other_kind = Some(kind);
    }
}

/// PlantUML tries the class reading before the description one: a block
/// the parser read as a description diagram that the (wider) fallback class
/// reading reads whole is a class diagram for PlantUML (`A ->> B : m` with
/// `Z1 -- Z2`), which puml recognises without drawing (W0240).
fn description_gives_way_to_class(
    parse: &Parse,
    text: &mut Option<String>,
    document: &mut Document,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if !document.diagrams.iter().any(|d| d.description.is_some()) {
        return;
    }
    let text = source_text(parse, text);
    for (index, diagram) in parse.root().diagrams().enumerate() {
        if document.diagrams.get(index).is_none_or(|d| d.description.is_none()) {
            continue;
        }
        // Only whether the class reading reads every line matters: it
        // is the first preferred, and the others need not be read.
        if read_block(text, &diagram, &[OtherKind::Class]).complete != Some(OtherKind::Class) {
            continue;
        }
        let Some(model) = document.diagrams.get_mut(index) else {
            continue;
        };
        let at = first_content_line(text, &diagram)
            .map(|line| line.as_ptr() as usize - text.as_ptr() as usize)
            .unwrap_or_else(|| usize::from(diagram.syntax.text_range().start()));
        diagnostics.push(Diagnostic::warning(
            codes::OTHER_DIAGRAM_KIND,
            line_range(text, at),
            "PlantUML reads this block as a class diagram (its class reading, tried before the description one, reads every line); puml does not draw such class diagrams yet",
        ));
        model.description = None;
        model.other_kind = Some(OtherKind::Class);
    }
}

/// PlantUML tries the class and description readings before the legacy
/// activity one: a block the parser read as a legacy activity diagram that
/// the fallback's class or description reading reads whole (`A-b -> B :
/// m`: a class diagram's link, whose dashed name the parser's class
/// reading refuses) is that kind for PlantUML, which puml recognises
/// without drawing here (W0240).
fn legacy_gives_way_to_earlier_readings(
    parse: &Parse,
    text: &mut Option<String>,
    document: &mut Document,
    source_map: &mut crate::model::SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if !document.diagrams.iter().any(|d| d.legacy_activity.is_some()) {
        return;
    }
    let text = source_text(parse, text);
    for (index, diagram) in parse.root().diagrams().enumerate() {
        if document.diagrams.get(index).is_none_or(|d| d.legacy_activity.is_none()) {
            continue;
        }
        // The two readings preferred to the legacy activity one decide.
        let wanted = [OtherKind::Class, OtherKind::Description];
        let kind = match read_block(text, &diagram, &wanted).complete {
            Some(kind @ (OtherKind::Class | OtherKind::Description)) => kind,
            _ => continue,
        };
        let Some(model) = document.diagrams.get_mut(index) else {
            continue;
        };
        let at = first_content_line(text, &diagram)
            .map(|line| line.as_ptr() as usize - text.as_ptr() as usize)
            .unwrap_or_else(|| usize::from(diagram.syntax.text_range().start()));
        diagnostics.push(Diagnostic::warning(
            codes::OTHER_DIAGRAM_KIND,
            line_range(text, at),
            format!(
                "PlantUML reads this block as a {} diagram (its {} reading, tried before the legacy activity one, reads every line); puml does not draw such {} diagrams yet",
                kind.describe(),
                kind.describe(),
                kind.describe()
            ),
        ));
        model.legacy_activity = None;
        model.other_kind = Some(kind);
        if let Some(map) = source_map.diagrams.get_mut(index) {
            map.legacy_activity = None;
        }
    }
}

/// The parse's text, made once for the passes that read blocks as text
/// (`slot` keeps it). Read from the green tree's tokens directly: the
/// cursor tree's `text().to_string()` allocated a node per element and was
/// a tenth of checking a description diagram, three times over.
fn source_text<'s>(parse: &Parse, slot: &'s mut Option<String>) -> &'s str {
    slot.get_or_insert_with(|| {
        let green = parse.green();
        let mut text = String::with_capacity(usize::from(green.text_len()));
        // An explicit stack: the tree's depth is the input's to decide.
        let mut open = vec![green.children()];
        while let Some(children) = open.last_mut() {
            match children.next() {
                Some(puml_syntax::NodeOrToken::Node(node)) => open.push(node.children()),
                Some(puml_syntax::NodeOrToken::Token(token)) => text.push_str(token.text()),
                None => {
                    open.pop();
                }
            }
        }
        text
    })
}

/// The first line of a block after its `@startuml` line that is not blank,
/// a comment or a line every kind shares (`title`, `skinparam`, …).
fn first_content_line<'t>(text: &'t str, diagram: &ast::Diagram) -> Option<&'t str> {
    let range = diagram.syntax.text_range();
    let block = text.get(..usize::from(range.end()))?;
    let has_start = diagram
        .syntax
        .children()
        .any(|n| n.kind() == puml_syntax::SyntaxKind::START_LINE);
    lines_from(block, usize::from(range.start()))
        .skip(usize::from(has_start))
        .map(|(_, line)| line.trim())
        .find(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            !line.is_empty() && !line.starts_with('\'') && !is_shared_line(line, &words)
        })
}

/// The block's `@enduml` line, or its last line when it has none.
fn end_line_range(text: &str, diagram: &ast::Diagram) -> TextRange {
    let range = diagram.syntax.text_range();
    let at = match diagram
        .syntax
        .children()
        .find(|n| n.kind() == puml_syntax::SyntaxKind::END_LINE)
    {
        Some(end) => usize::from(end.text_range().start()),
        None => {
            let block = text.get(..usize::from(range.end())).unwrap_or(text).trim_end();
            line_start(text, block.len().max(usize::from(range.start())))
        }
    };
    line_range(text, at)
}

/// PlantUML reports the error of the reading that got furthest: the
/// sequence errors before the line where it stops give way to one error
/// there (E0241), which keeps them as related locations and carries their
/// repairs (the block was meant as a sequence diagram, and the line that
/// broke it is where the fix belongs).
fn move_to_furthest_stop(
    text: &str,
    stop: usize,
    furthest: OtherKind,
    diagnostics: &mut Vec<Diagnostic>,
    in_block: &dyn Fn(&Diagnostic) -> bool,
) {
    // The sequence errors up to the end of that line: the one error
    // reported there stands for them (one mistake, one error).
    let next_line = text
        .get(stop..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |i| stop + i + 1);
    let next_line = TextSize::from(next_line as u32);
    let (demoted, kept): (Vec<Diagnostic>, Vec<Diagnostic>) = std::mem::take(diagnostics)
        .into_iter()
        .partition(|d| d.is_error() && in_block(d) && d.range.start() < next_line);
    *diagnostics = kept;
    let Some(first) = demoted.first() else {
        return;
    };
    let line = line_range(text, stop);
    let line_text = text
        .get(usize::from(line.start())..usize::from(line.end()))
        .unwrap_or("");
    let mut error = Diagnostic::error(
        codes::FURTHEST_READING,
        line,
        format!(
            "no diagram type reads this whole block: PlantUML's {} reading gets furthest and stops at this line (`{}`), where PlantUML reports the error; the sequence reading stops earlier: {}",
            furthest.describe(),
            line_text,
            first.message
        ),
    );
    for d in &demoted {
        error = error.with_related(
            d.range,
            format!("the sequence reading stops here ({}): {}", d.code, d.message),
        );
    }
    // The repairs of the sequence reading: together first (one per error,
    // none overlapping another, as `--fix` would take them), then each.
    let mut union: Vec<puml_syntax::TextEdit> = Vec::new();
    let mut titles: Vec<&str> = Vec::new();
    for d in &demoted {
        let Some(fix) = d.fixes.iter().find(|f| f.machine_applicable && !f.edits.is_empty()) else {
            continue;
        };
        let clashes = fix
            .edits
            .iter()
            .any(|e| union.iter().any(|u| edits_overlap(u.range, e.range)));
        if !clashes {
            union.extend(fix.edits.iter().cloned());
            titles.push(&fix.title);
        }
    }
    if titles.len() > 1 {
        error = error.with_fix(format!("Repair the sequence diagram: {}", titles.join("; ")), union);
    }
    for d in demoted.iter() {
        error.fixes.extend(d.fixes.iter().cloned());
    }
    diagnostics.push(error);
}

/// Whether two edits touch the same text (or insert at one point).
fn edits_overlap(a: TextRange, b: TextRange) -> bool {
    if a.is_empty() || b.is_empty() {
        return a.start() == b.start()
            || (a.start() > b.start() && a.start() < b.end())
            || (b.start() > a.start() && b.start() < a.end());
    }
    a.start() < b.end() && b.start() < a.end()
}

/// The offset where the line around `offset` starts.
fn line_start(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// The trimmed line around `offset`.
fn line_range(text: &str, offset: usize) -> TextRange {
    let start = line_start(text, offset);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..end];
    let lead = line.len() - line.trim_start().len();
    let trimmed = line.trim();
    let from = start + lead;
    TextRange::new((from as u32).into(), ((from + trimmed.len()) as u32).into())
}

/// The other readings, in the order PlantUML prefers one that reads the
/// whole block (and names one when several stop on the same line).
const READINGS: [OtherKind; 4] = [
    OtherKind::Class,
    OtherKind::Description,
    OtherKind::Activity,
    OtherKind::State,
];

/// How far one reading gets through a block.
#[derive(Debug, Clone, Copy, Default)]
struct Progress {
    /// The offset of the first line the reading does not read.
    stopped_at: Option<usize>,
    /// Lines that make a diagram of the type (an element, a link): a block
    /// of shared lines alone (titles, comments) is none.
    elements: usize,
    /// `{` containers open (`package P {`, `state S {`).
    open: usize,
}

impl Progress {
    fn reading(&self) -> bool {
        self.stopped_at.is_none()
    }
    /// Records the reading's verdict on the line at `offset`: `None` stops it,
    /// `Some(element)` reads it.
    fn read(&mut self, offset: usize, verdict: Option<bool>) {
        if !self.reading() {
            return;
        }
        match verdict {
            Some(element) => self.elements += usize::from(element),
            None => self.stopped_at = Some(offset),
        }
    }
}

/// What the other readings make of a block.
#[derive(Debug, Clone, Copy, Default)]
struct BlockReading {
    /// The type that reads every line, if one does.
    complete: Option<OtherKind>,
    /// Else the line (its offset) where the reading that got furthest stops.
    furthest: Option<(usize, OtherKind)>,
}

/// The lines of `text` from `from` on, with their offsets, without line ends.
fn lines_from(text: &str, from: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = from;
    text.get(from..).unwrap_or("").split_inclusive('\n').map(move |raw| {
        let at = offset;
        offset += raw.len();
        (at, raw.trim_end_matches(['\n', '\r']))
    })
}

/// Reads a block's lines with each of PlantUML's other diagram types, as
/// text, with the multi-line forms they share (notes, legends, titles,
/// skinparam and style blocks, block comments, `{ … }` bodies) tracked
/// here: the sequence parser's reading of them is no guide, it is the one
/// that failed. Linear: each line is read once, and the reading ends when
/// every type has stopped.
///
/// Only the readings in `wanted` are made: the others count as stopped on
/// the block's first line (a caller that asks whether one kind reads the
/// whole block need not read the others, nor read on once that one has
/// stopped). `complete` names a wanted reading only when no reading
/// before it in [`READINGS`] is wanted and complete, so a caller asks for
/// every reading before the one it is after.
fn read_block(text: &str, diagram: &ast::Diagram, wanted: &[OtherKind]) -> BlockReading {
    let range = diagram.syntax.text_range();
    let block = text.get(..usize::from(range.end())).unwrap_or(text);
    let mut lines = lines_from(block, usize::from(range.start()));
    // The `@startuml` line (a text without one is a diagram too).
    if diagram
        .syntax
        .children()
        .any(|n| n.kind() == puml_syntax::SyntaxKind::START_LINE)
        && lines.next().is_none()
    {
        return BlockReading::default();
    }
    let start = |kind: OtherKind| Progress {
        stopped_at: (!wanted.contains(&kind)).then_some(usize::from(range.start())),
        ..Progress::default()
    };
    let (mut class, mut description, mut activity, mut state) = (
        start(OtherKind::Class),
        start(OtherKind::Description),
        start(OtherKind::Activity),
        start(OtherKind::State),
    );
    let mut mixing = false;
    // The state reading takes a note placed by an element that is named
    // nowhere in the block, and then fails on the note's line at the end.
    let mut state_notes: Vec<(usize, &str)> = Vec::new();
    let mut state_named: std::collections::HashSet<&str> = std::collections::HashSet::new();
    // The names the description reading has read (a note is placed by one).
    let mut description_names: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut description_fails_at_end = false;
    // The legacy activity reading: the parser's line grammar.
    let mut legacy = puml_syntax::LegacyLineReader::default();
    // The type of each element the description reading has read (`None`:
    // created by a link from its plain name).
    let mut description_types: std::collections::HashMap<String, Option<&'static str>> =
        std::collections::HashMap::new();
    while let Some((offset, raw)) = lines.next() {
        if !(class.reading() || description.reading() || activity.reading() || state.reading()) {
            break;
        }
        let line = raw.trim();
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("@enduml") {
            break;
        }
        // Multi-line forms: who reads them, then skipped to their end line.
        // A second `@startuml` inside the block is read as nothing.
        if (line.starts_with("/'") && line.ends_with("'/") && line.len() >= 4) || lower.starts_with("@startuml") {
            continue;
        }
        let form = if line.starts_with("/'") && !line[2..].contains("'/") {
            Some((BlockEnd::Comment, [Some(false); 4]))
        } else if lower == "legend" || lower.starts_with("legend ") {
            Some((BlockEnd::Legend, [Some(false); 4]))
        } else if matches!(lower.as_str(), "title" | "header" | "footer") {
            Some((BlockEnd::Named(lower.clone()), [Some(false); 4]))
        } else if lower.starts_with("skinparam ") && line.ends_with('{') {
            Some((BlockEnd::Brace, [Some(false); 4]))
        } else if is_data_body_header(&lower) {
            Some((BlockEnd::Brace, [Some(true), Some(true), None, None]))
        } else if let Some(body_readers) = class_body_header(line) {
            let class_reads = body_readers.class.then_some(true);
            Some((BlockEnd::Brace, [class_reads, None, None, None]))
        } else if lower == "<style>" {
            Some((BlockEnd::Style, [Some(false), Some(false), None, None]))
        } else if is_note_block_header(line) {
            Some((BlockEnd::Note, [Some(false), Some(false), None, Some(false)]))
        } else if let Some(multi_line) = description::refused_multi_line_header(line) {
            description_fails_at_end = true;
            Some((BlockEnd::Description(multi_line), [None, Some(false), None, None]))
        } else if let Some(multi_line) = description::multi_line_header(line) {
            description_names.extend(description::first_names(line, 2));
            Some((BlockEnd::Description(multi_line), [None, Some(true), None, None]))
        } else if positioned_note_block(line).is_none() && description::note_block_target(line).is_some() {
            // `note right of (Use)`, `note left of [A]`: the description
            // reading's alone.
            let by_known = description::note_block_target(line).is_some_and(|t| description_names.contains(&t));
            description_fails_at_end = !by_known;
            Some((BlockEnd::Note, [None, Some(false), None, None]))
        } else if description::note_on_link_block(line) {
            let after_link = description.elements > 0;
            let after_transition = state.elements > 0;
            Some((
                BlockEnd::Note,
                [
                    None,
                    after_link.then_some(false),
                    None,
                    after_transition.then_some(false),
                ],
            ))
        } else {
            positioned_note_block(line).map(|attached| {
                // The description reading places a note by an element it
                // knows, or by the last one; by another it fails at the
                // note's end line.
                let by_known = match description::note_target(line) {
                    Some(target) => description_names.contains(&target),
                    None => description.elements > 0,
                };
                description_fails_at_end = !by_known;
                (
                    BlockEnd::Note,
                    [None, Some(false), (!attached).then_some(false), Some(false)],
                )
            })
        };
        if let Some((end, verdicts)) = form {
            for (progress, verdict) in [&mut class, &mut description, &mut activity, &mut state]
                .into_iter()
                .zip(verdicts)
            {
                progress.read(offset, verdict);
            }
            let closing = lines
                .by_ref()
                .map(|(at, body)| match end {
                    // A quoted or bracketed text keeps its case: it ends with its closer.
                    BlockEnd::Description(_) => (at, body.trim().to_string()),
                    _ => (at, body.trim().to_ascii_lowercase()),
                })
                .find(|(_, body)| body.to_ascii_lowercase().starts_with("@enduml") || end.closes(body))
                .filter(|(_, body)| end.closes(body));
            let closed = closing.is_some();
            if let Some((at, _)) = closing.filter(|_| std::mem::take(&mut description_fails_at_end)) {
                if description.reading() {
                    description.stopped_at = Some(at);
                }
            }
            // An unclosed form: where the types stop is not known here;
            // the header line is a safe (never too far) guess.
            if !closed {
                for progress in [&mut class, &mut description, &mut activity, &mut state] {
                    progress.read(offset, None);
                }
            }
            continue;
        }
        if line == "}" {
            for progress in [&mut class, &mut description, &mut state] {
                let verdict = (progress.open > 0).then_some(false);
                progress.read(offset, verdict);
                if progress.reading() {
                    progress.open -= 1;
                }
            }
            if activity.reading() {
                activity.read(offset, legacy.read(line));
            }
            continue;
        }
        // `partition P {`: the legacy activity reading's group alone.
        if line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("partition"))
        {
            for progress in [&mut class, &mut description, &mut state] {
                progress.read(offset, None);
            }
            if activity.reading() {
                activity.read(offset, legacy.read(line));
            }
            continue;
        }
        let container = container_header(line);
        if container.is_some() || description::container_header(line) {
            let container_readers = container.unwrap_or(Readers::NONE);
            class.read(offset, container_readers.class.then_some(true));
            // The description reading's own grammar opens more containers
            // (`rectangle "System" as S #pink {`, `node N <<device>> {`).
            let description_reads = container_readers.description || description::container_header(line);
            description.read(offset, description_reads.then_some(true));
            if description.reading() {
                description_names.extend(description::container_code(line));
            }
            class.open += 1;
            description.open += 1;
            activity.read(offset, None);
            state.read(offset, None);
            continue;
        }
        if lower == "allowmixing" {
            mixing = true;
            // A class diagram even with no element besides.
            class.read(offset, Some(true));
            for progress in [&mut description, &mut activity, &mut state] {
                progress.read(offset, None);
            }
            continue;
        }
        // A line is judged only by the readings still reading it: a
        // stopped reading's verdict changes nothing.
        let (readers, element) = if class.reading() || description.reading() {
            (line_readers(line), is_element_line(line))
        } else {
            (Readers::NONE, false)
        };
        if class.reading() {
            // `allowmixing` lets the class reading take the description types'
            // elements, declared with their keywords (never by short forms).
            let mixed_in = mixing && readers.description && !description::uses_short_form(line);
            class.read(offset, (readers.class || mixed_in).then_some(element));
        }
        if description.reading() {
            // The narrow reading takes `A::b --> B` and `A-b --> B`, which
            // PlantUML's description grammar refuses (its names have neither).
            let scoped_name = readers.description && (line.contains("::") || has_dashed_name(line));
            let description_verdict = if readers.description && !(scoped_name && description::line(line).is_none()) {
                Some(element)
            } else if (description.open > 0 && description::port(line)) || description::port_short_form(line) {
                Some(true)
            } else {
                description::line(line)
            };
            // A one-line note by an element the reading does not know stops it.
            let description_verdict = match description::note_target(line) {
                Some(target) if !description_names.contains(&target) => None,
                None if description.elements == 0 && description::note_by_last_element(line) => None,
                _ => description_verdict,
            };
            // A declaration of an element a link created, or that exists with
            // another type, stops the reading ("already defined").
            let declared = description_verdict.and(description::declared(line));
            let description_verdict = match &declared {
                Some((code, kind)) => match description_types.get(code) {
                    Some(existing) if existing.is_none_or(|existing| existing != *kind) => None,
                    _ => description_verdict,
                },
                None => description_verdict,
            };
            description.read(offset, description_verdict);
            if description.reading() {
                match declared {
                    Some((code, kind)) => {
                        description_names.insert(code.clone());
                        description_types.entry(code).or_insert(Some(kind));
                    }
                    None => {
                        for (code, kind) in description::link_endpoints(line) {
                            description_names.insert(code.clone());
                            description_types.entry(code).or_insert(kind);
                        }
                    }
                }
            }
        }
        if activity.reading() {
            activity.read(offset, legacy.read(line));
        }
        if !state.reading() {
            continue;
        }
        if is_state_container(line) {
            state.read(offset, Some(true));
            state.open += 1;
        } else {
            state.read(offset, state::refine(line, state_line(line)));
        }
        if state.reading() {
            match note_target(line) {
                Some(target) => state_notes.push((offset, target)),
                None => {
                    state_named.extend(state_names(line));
                    state_named.extend(state::transition_names(line));
                }
            }
        }
    }
    if state.reading() {
        if let Some((offset, _)) = state_notes.iter().find(|(_, target)| !state_named.contains(target)) {
            state.stopped_at = Some(*offset);
        }
    }
    let readings = [
        (OtherKind::Class, class),
        (OtherKind::Description, description),
        (OtherKind::Activity, activity),
        (OtherKind::State, state),
    ];
    // PlantUML's description, state and legacy activity readings close the
    // containers left open at the end (`package P {`, `state A {`,
    // `partition P {` without `}`); the class reading refuses them.
    let complete = readings
        .iter()
        .find(|(kind, p)| {
            p.reading()
                && (p.open == 0 || matches!(kind, OtherKind::Description | OtherKind::State | OtherKind::Activity))
                && p.elements > 0
        })
        .map(|(kind, _)| *kind);
    let mut furthest: Option<(usize, OtherKind)> = None;
    for kind in READINGS {
        let Some((_, progress)) = readings.iter().find(|(k, _)| *k == kind) else {
            continue;
        };
        if let Some(stop) = progress.stopped_at {
            if furthest.is_none_or(|(best, _)| stop > best) {
                furthest = Some((stop, kind));
            }
        }
    }
    BlockReading { complete, furthest }
}

/// Whether a word of `line` holds a `-` between name characters (`A-b`).
fn has_dashed_name(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    chars
        .windows(3)
        .any(|w| w[1] == '-' && w[0].is_alphanumeric() && w[2].is_alphanumeric())
}

/// How a multi-line form ends.
enum BlockEnd {
    Comment,
    Legend,
    /// `end title`, `endheader`, … for the block's keyword.
    Named(String),
    Brace,
    Style,
    Note,
    /// A description element's text over several lines.
    Description(puml_syntax::description_grammar::MultiLine),
}

impl BlockEnd {
    /// Whether `line` (trimmed, lower case) ends the block.
    fn closes(&self, line: &str) -> bool {
        match self {
            BlockEnd::Comment => line.contains("'/"),
            BlockEnd::Legend => matches!(line, "endlegend" | "end legend"),
            BlockEnd::Named(keyword) => line.strip_prefix("end").map(str::trim_start) == Some(keyword.as_str()),
            BlockEnd::Brace => line == "}",
            BlockEnd::Style => line == "</style>",
            BlockEnd::Note => matches!(line, "end note" | "endnote"),
            BlockEnd::Description(multi_line) => multi_line.closes(line),
        }
    }
}

/// `map A {` and `json A {`: an object's body, which both the class and the
/// description readings take (up to `}`).
fn is_data_body_header(lower: &str) -> bool {
    let Some(head) = lower.strip_suffix('{') else {
        return false;
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    matches!(words.as_slice(), [keyword, name] if matches!(*keyword, "map" | "json") && is_plain_name(name))
}

/// `note left` / `note top of A` (no text after it) opens a block note
/// placed beside an element: `Some(true)` when it names the element (`of A`),
/// which the legacy activity reading refuses (it places a note beside the
/// last activity only).
fn positioned_note_block(line: &str) -> Option<bool> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (note, position, rest) = match words.as_slice() {
        [note, position, rest @ ..] => (note, position, rest),
        _ => return None,
    };
    if !note.eq_ignore_ascii_case("note") || !is_position(position) {
        return None;
    }
    match rest {
        [] => Some(false),
        [of, name] if of.eq_ignore_ascii_case("of") && is_plain_name(name) => Some(true),
        _ => None,
    }
}

fn is_position(word: &str) -> bool {
    ["left", "right", "top", "bottom"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(word))
}

/// Lines every other diagram type reads (titles, skinparams, `hide`, …),
/// without the one-word `newpage` (the state and legacy activity readings
/// refuse it).
fn is_shared_line(line: &str, words: &[&str]) -> bool {
    let Some(first) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return true;
    };
    match (first.as_str(), words.len()) {
        ("title" | "header" | "footer" | "caption" | "mainframe", 2..) => true,
        ("skinparam", 3..) | ("hide" | "show" | "remove", 2..) => true,
        ("scale", 2..) => is_scale(line),
        ("!pragma" | "!theme", 2..) => true,
        ("set", 3) => words[1] == "namespaceSeparator",
        ("left", 4) | ("top", 4) => line == "left to right direction" || line == "top to bottom direction",
        _ => false,
    }
}

/// `scale 1.5`, `scale 200 width`, `scale max 500*600`: PlantUML's scale
/// command, which every diagram type reads.
fn is_scale(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("scale"))
        && crate::model::Scale::parse(&words.collect::<Vec<_>>().join(" ")).is_some()
}

/// `state A {`: a state with sub-states, up to `}`.
fn is_state_container(line: &str) -> bool {
    let Some(head) = line.strip_suffix('{') else {
        return false;
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    words.len() >= 2 && words[0].eq_ignore_ascii_case("state")
}

/// The state reading of one line: `Some(element)` when it reads it, as
/// probed: `state …`, transitions between names and `[*]` with one head
/// (`->`, `<-`, `-up->`, `<up-`, `-[#red]->`), `A : description`, notes
/// placed `of` an element, the `--`/`||` separators, the shared lines.
fn state_line(line: &str) -> Option<bool> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('\'') {
        return Some(false);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
    if is_shared_line(line, &words) || line == "--" || line == "||" {
        return Some(false);
    }
    if first == "state" && words.len() >= 2 {
        // `state A-b` is refused (`state A::b`, `state A.b` are read).
        return (!words[1].contains('-')).then_some(true);
    }
    if first == "note" {
        return positioned_note(line, true).then_some(false);
    }
    if state_transition(line) {
        return Some(true);
    }
    // `A : text` (and `A:text`): the state's description.
    let (name, rest) = scan_name(line);
    (!name.is_empty() && rest.trim_start().starts_with(':')).then_some(true)
}

/// The element a one-line `note top of A : text` is placed by.
fn note_target(line: &str) -> Option<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [note, position, of, name, ..]
            if note.eq_ignore_ascii_case("note") && is_position(position) && of.eq_ignore_ascii_case("of") =>
        {
            let (name, _) = scan_name(name);
            (!name.is_empty()).then_some(name)
        }
        _ => None,
    }
}

/// The element names a line the state reading took mentions (a note's
/// target apart): `state A`, `state "Long" as L`, both ends of a
/// transition, the `A` of `A : text`.
fn state_names(line: &str) -> Vec<&str> {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first().is_some_and(|w| w.eq_ignore_ascii_case("state")) {
        return match words.as_slice() {
            [_, _, as_, alias, ..] if as_.eq_ignore_ascii_case("as") && !alias.starts_with('"') => {
                vec![scan_name(alias).0]
            }
            [_, name, ..] => vec![scan_name(name).0],
            _ => Vec::new(),
        };
    }
    let (first, rest) = scan_name(line);
    let mut names = vec![first];
    if let Some(after_arrow) = one_headed_arrow(rest.trim_start(), &['-'], true) {
        names.push(scan_name(after_arrow.trim_start()).0);
    }
    names.retain(|n| !n.is_empty());
    names
}

/// `note left : text`, and with `of_element`, `note top of A : text`.
fn positioned_note(line: &str, of_element: bool) -> bool {
    let Some(rest) = line.get(4..).filter(|_| line[..4].eq_ignore_ascii_case("note")) else {
        return false;
    };
    let rest = rest.trim_start();
    let position_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    if !is_position(&rest[..position_len]) {
        return false;
    }
    let mut rest = rest[position_len..].trim_start();
    if of_element {
        if let Some(after) = rest.strip_prefix("of ") {
            let (name, after_name) = scan_name(after.trim_start());
            if name.is_empty() {
                return false;
            }
            rest = after_name.trim_start();
        }
    }
    rest.starts_with(':')
}

/// A state transition's endpoint: a name or `[*]`; the rest.
fn state_endpoint(text: &str) -> Option<&str> {
    if let Some(rest) = text.strip_prefix("[*]") {
        return Some(rest);
    }
    let (name, rest) = scan_name(text);
    (!name.is_empty()).then_some(rest)
}

/// `A -> B`, `[*] --> A : label`, `A <up- B`, `A -down[#red]-> B`.
fn state_transition(line: &str) -> bool {
    let Some(rest) = state_endpoint(line) else {
        return false;
    };
    let Some(rest) = one_headed_arrow(rest.trim_start(), &['-'], true) else {
        return false;
    };
    let Some(rest) = state_endpoint(rest.trim_start()) else {
        return false;
    };
    let rest = rest.trim_start();
    rest.is_empty() || rest.starts_with(':')
}

/// An arrow of `body` characters with at most one direction word and one
/// `[style]` bracket, and one head: `>` on the right, or `<` on the left
/// when `left_head` allows it. Returns the rest.
fn one_headed_arrow<'a>(text: &'a str, body: &[char], left_head: bool) -> Option<&'a str> {
    let left = left_head && text.starts_with('<');
    let mut rest = if left { &text[1..] } else { text };
    let is_line = |c: char| body.contains(&c);
    let mut line_chars = 0;
    let trimmed = rest.trim_start_matches(is_line);
    line_chars += rest.len() - trimmed.len();
    rest = trimmed;
    // A direction word comes after a body character or the left head
    // (`-up->`, `<up-`), never first (`A up-> B`).
    if line_chars == 0 && !left {
        return None;
    }
    if let Some(word) = direction_prefix(rest) {
        rest = &rest[word..];
    }
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']')?;
        // `-[ #red ]->`, `-[]->`: PlantUML's readings refuse whitespace in
        // the bracket, and an empty one.
        if after[..close].is_empty() || after[..close].contains(char::is_whitespace) {
            return None;
        }
        rest = &after[close + 1..];
    }
    let trimmed = rest.trim_start_matches(is_line);
    line_chars += rest.len() - trimmed.len();
    rest = trimmed;
    if line_chars == 0 {
        return None;
    }
    let right = rest.starts_with('>');
    if right {
        rest = &rest[1..];
    }
    (left != right).then_some(rest)
}

/// `note as N` opens a block note tied to no element.
fn is_note_block_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    matches!(words.as_slice(), [note, as_, name]
        if note.eq_ignore_ascii_case("note") && as_.eq_ignore_ascii_case("as") && is_plain_name(name))
}

/// `class A {`: a class diagram's element with a body of members (class
/// diagrams only; the members are any text up to `}`).
fn class_body_header(line: &str) -> Option<Readers> {
    let head = line.strip_suffix('{')?.trim_end();
    let words: Vec<&str> = head.split_whitespace().collect();
    let keyword = words.first()?.to_ascii_lowercase();
    if !CLASS_KEYWORDS.contains(&keyword.as_str()) || matches!(keyword.as_str(), "circle" | "diamond") {
        return None;
    }
    declaration_readers(&words).class.then_some(Readers::CLASS)
}

/// `package P {`, `node N {`, `together {`: a container whose lines are
/// statements of their own, up to `}`.
fn container_header(line: &str) -> Option<Readers> {
    const CONTAINERS: &[&str] = &[
        "component",
        "database",
        "node",
        "folder",
        "frame",
        "cloud",
        "package",
        "queue",
        "storage",
        "artifact",
        "card",
        "file",
        "rectangle",
        "stack",
        "hexagon",
    ];
    let head = line.strip_suffix('{')?.trim_end();
    if head.eq_ignore_ascii_case("together") {
        return Some(Readers::BOTH);
    }
    let words: Vec<&str> = head.split_whitespace().collect();
    let keyword = words.first()?.to_ascii_lowercase();
    if keyword == "namespace" && words.len() == 2 && is_plain_name(words[1]) {
        return Some(Readers::CLASS);
    }
    if !CONTAINERS.contains(&keyword.as_str()) {
        return None;
    }
    declaration_readers(&words).description.then_some(Readers::BOTH)
}

/// `note as N` or `note "text" as N`: a note tied to no element, which
/// both other types read (`note left of A` needs an element `A`).
fn is_free_note(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [note, as_, name] => note.eq_ignore_ascii_case("note") && as_.eq_ignore_ascii_case("as") && is_plain_name(name),
        [note, ..] if note.eq_ignore_ascii_case("note") => {
            let rest = line[note.len()..].trim_start();
            let Some(after_quote) = rest.strip_prefix('"') else {
                return false;
            };
            let Some(close) = after_quote.find('"') else {
                return false;
            };
            let tail: Vec<&str> = after_quote[close + 1..].split_whitespace().collect();
            matches!(tail.as_slice(), [as_, name] if as_.eq_ignore_ascii_case("as") && is_plain_name(name))
        }
        _ => false,
    }
}

/// A line declaring an element or linking two (not a shared statement).
fn is_element_line(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    declaration_readers(&words) != Readers::NONE
        || link_readers(line) != Readers::NONE
        || member_readers(line) != Readers::NONE
        || (words.len() == 1 && (line.starts_with("...") || description_element(line).is_some_and(str::is_empty)))
}

/// Which of the other types read one line.
pub(crate) fn line_readers(line: &str) -> Readers {
    let line = line.trim();
    if line.is_empty() || line.starts_with('\'') {
        return Readers::BOTH;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return Readers::BOTH;
    };
    match (first.as_str(), words.len()) {
        ("title" | "header" | "footer" | "caption" | "mainframe", 2..) => return Readers::BOTH,
        ("skinparam", 3..) | ("hide" | "show" | "remove", 2..) => return Readers::BOTH,
        ("scale", 2..) if is_scale(line) => return Readers::BOTH,
        ("newpage", 1) => return Readers::BOTH,
        ("!pragma" | "!theme", 2..) => return Readers::BOTH,
        ("set", 3) if words[1] == "namespaceSeparator" => return Readers::BOTH,
        ("left", 4) | ("top", 4) if line == "left to right direction" || line == "top to bottom direction" => {
            return Readers::BOTH
        }
        _ => {}
    }
    // `...` and `...x`: a description diagram's (PlantUML reads the dots as
    // a link body), never a class diagram's.
    if line.starts_with("...") && words.len() == 1 {
        return Readers::DESCRIPTION;
    }
    if is_free_note(line) {
        return Readers::BOTH;
    }
    if words.len() == 1 && description_element(line).is_some_and(|rest| rest.is_empty()) {
        return Readers::DESCRIPTION;
    }
    declaration_readers(&words)
        .or(link_readers(line))
        .or(member_readers(line))
}

/// Keywords declaring a class diagram's element.
const CLASS_KEYWORDS: &[&str] = &[
    "class",
    "abstract",
    "interface",
    "enum",
    "entity",
    "annotation",
    "protocol",
    "struct",
    "exception",
    "circle",
    "diamond",
    "object",
    "map",
    "metaclass",
    "stereotype",
    "dataclass",
    "record",
];
/// Class keywords the description types read too (with a name free of `::` and `-`).
const SHARED_KEYWORDS: &[&str] = &["interface", "entity", "circle"];
/// Keywords declaring a description diagram's element.
const DESCRIPTION_KEYWORDS: &[&str] = &[
    "actor",
    "usecase",
    "component",
    "database",
    "node",
    "folder",
    "frame",
    "cloud",
    "package",
    "queue",
    "collections",
    "boundary",
    "control",
    "storage",
    "artifact",
    "card",
    "file",
    "rectangle",
    "agent",
    "person",
    "stack",
    "label",
    "hexagon",
];

/// `KEYWORD NAME [as ALIAS] [<<stereotype>>] [#color]`, and a description
/// diagram's `WORD as NAME` (any one word: `participant as A`).
fn declaration_readers(words: &[&str]) -> Readers {
    let Some(keyword) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return Readers::NONE;
    };
    if let [word, as_, alias] = words {
        if as_.eq_ignore_ascii_case("as") && is_word(word) && is_plain_name(alias) {
            return Readers::DESCRIPTION;
        }
    }
    let mut rest = &words[1..];
    if keyword == "abstract" && rest.first().is_some_and(|w| w.eq_ignore_ascii_case("class")) {
        rest = &rest[1..];
    }
    let class_keyword = CLASS_KEYWORDS.contains(&keyword.as_str());
    let description_keyword = DESCRIPTION_KEYWORDS.contains(&keyword.as_str());
    if !class_keyword && !description_keyword {
        return Readers::NONE;
    }
    // The name (a quoted name needs an alias: `"Long" as L`), then the options.
    let mut aliased = false;
    let (name, options) = match rest {
        [quoted, as_, alias, options @ ..] if as_.eq_ignore_ascii_case("as") && is_quoted(quoted) => {
            if !is_plain_name(alias) {
                return Readers::NONE;
            }
            (*alias, options)
        }
        [name, as_, quoted, options @ ..] if as_.eq_ignore_ascii_case("as") && is_quoted(quoted) => (*name, options),
        // `actor A as b`: the description types' (a class keyword refuses it).
        [name, as_, alias, options @ ..]
            if as_.eq_ignore_ascii_case("as") && is_plain_name(name) && is_plain_name(alias) =>
        {
            aliased = true;
            (*alias, options)
        }
        // `actor "Client"`, `class "Long"`: a quoted name alone.
        [quoted, options @ ..] if is_quoted(quoted) => ("quoted", options),
        [name, options @ ..] => (*name, options),
        [] => return Readers::NONE,
    };
    if !is_plain_name(name) {
        return Readers::NONE;
    }
    let options_ok = options.iter().enumerate().all(|(i, option)| {
        (option.starts_with("<<") && option.ends_with(">>") && option.len() > 4 && i == 0)
            || (option.starts_with('#') && option.len() > 1 && option[1..].chars().all(|c| c.is_ascii_alphanumeric()))
    });
    if !options_ok {
        return Readers::NONE;
    }
    let simple = !name.contains("::") && !name.contains('-');
    if aliased {
        let description = simple && (description_keyword || SHARED_KEYWORDS.contains(&keyword.as_str()));
        return Readers {
            class: false,
            description,
        };
    }
    if class_keyword {
        Readers {
            class: true,
            description: simple && SHARED_KEYWORDS.contains(&keyword.as_str()),
        }
    } else if simple {
        Readers::DESCRIPTION
    } else {
        Readers::NONE
    }
}

/// `A : field`: a class member, class diagrams only.
fn member_readers(line: &str) -> Readers {
    let Some((name, member)) = line.split_once(" : ") else {
        return Readers::NONE;
    };
    if is_plain_name(name.trim()) && !member.trim().is_empty() {
        Readers::CLASS
    } else {
        Readers::NONE
    }
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn is_quoted(text: &str) -> bool {
    text.len() >= 2 && text.starts_with('"') && text.ends_with('"') && !text[1..text.len() - 1].contains('"')
}

/// A whole text that is one plain name.
fn is_plain_name(text: &str) -> bool {
    let (name, rest) = scan_name(text);
    !name.is_empty() && rest.is_empty()
}

/// PlantUML reads an en dash (U+2013) as `-` wherever it stands
/// (observed with 1.2026.8: `A – B` is a class diagram's link).
const EN_DASH: char = '\u{2013}';

/// A line character of a link: `-`, `.`, `=` (or the en dash read as `-`).
fn is_dash(c: char) -> bool {
    c == '-' || c == EN_DASH
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '/') || (!c.is_ascii() && c != EN_DASH)
}

/// The longest plain name at the start of `text` (letters, digits, `_`,
/// `.`, `$`, `/`, `::`, and `-` between name characters; one leading `-`).
fn scan_name(text: &str) -> (&str, &str) {
    let mut end = 0;
    if text.starts_with('-') && text[1..].chars().next().is_some_and(|c| c.is_alphanumeric()) {
        end = 1;
    }
    let mut chars = text[end..].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = end + i;
        if is_name_char(c) {
            continue;
        }
        let next = text[at + c.len_utf8()..].chars().next();
        let previous_is_name = at > 0 && text[..at].chars().next_back().is_some_and(is_name_char);
        if c == ':' && next == Some(':') && previous_is_name {
            chars.next();
            continue;
        }
        if is_dash(c) && previous_is_name && next.is_some_and(|n| n.is_alphanumeric() || n == '_') {
            continue;
        }
        return (&text[..at], &text[at..]);
    }
    (text, "")
}

/// An endpoint of a link: a plain or quoted name (both types), or a
/// description element written `[component]`, `(usecase)`, `:actor:`.
/// Returns who reads it and the rest of the text.
fn scan_endpoint(text: &str) -> Option<(Readers, &str)> {
    if let Some(rest) = description_element(text) {
        return Some((Readers::DESCRIPTION, rest));
    }
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        if close == 0 {
            return None;
        }
        return Some((Readers::BOTH, &after[close + 1..]));
    }
    let (name, rest) = scan_name(text);
    (!name.is_empty()).then_some((Readers::BOTH, rest))
}

/// `[component]`, `(usecase)`, `:actor:` at the start of `text`: the rest.
fn description_element(text: &str) -> Option<&str> {
    for (open, close) in [('[', ']'), ('(', ')'), (':', ':')] {
        if let Some(after) = text.strip_prefix(open) {
            let end = after.find(close)?;
            let inner = &after[..end];
            // `(*)` is an old activity diagram's start or end, which
            // PlantUML tries before the description types.
            if inner.trim().is_empty() || inner.contains(['[', '(', '"', '*']) {
                return None;
            }
            return Some(&after[end + 1..]);
        }
    }
    None
}

/// Arrow heads a class diagram's link may start with (longest first).
const LEFT_HEADS: &[&str] = &["<<", "<|", "<", "*", "o", "#", "x", "}", "+", "^"];
/// Arrow heads a class diagram's link may end with (longest first).
const RIGHT_HEADS: &[&str] = &[">>", "|>", ">", "*", "o", "#", "x", "{", "+", "^"];

/// `NAME ["mult"] ARROW ["mult"] NAME [#color] [: label]`.
fn link_readers(line: &str) -> Readers {
    let Some((from, rest)) = scan_endpoint(line) else {
        return Readers::NONE;
    };
    let rest = skip_multiplicity(rest.trim_start());
    let Some((arrow, rest)) = scan_arrow(rest) else {
        return Readers::NONE;
    };
    let rest = skip_multiplicity(rest.trim_start());
    let Some((to, rest)) = scan_endpoint(rest) else {
        return Readers::NONE;
    };
    let spaced = rest.starts_with(char::is_whitespace);
    let mut rest = rest.trim_start();
    if let Some(color) = rest.strip_prefix('#').filter(|_| spaced) {
        let end = color.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(color.len());
        if end == 0 {
            return Readers::NONE;
        }
        rest = color[end..].trim_start();
    }
    if !rest.is_empty() {
        let Some(label) = rest.strip_prefix(':') else {
            return Readers::NONE;
        };
        if label.trim().is_empty() {
            return Readers::NONE;
        }
    }
    from.and(to).and(arrow)
}

/// A `"1"`-style multiplicity beside a link's arrow: a quoted text that a
/// name or an arrow follows (else the quoted text is the name itself).
fn skip_multiplicity(text: &str) -> &str {
    if let Some(after) = text.strip_prefix('"') {
        if let Some(close) = after.find('"') {
            let rest = after[close + 1..].trim_start();
            let followed = rest.chars().next().is_some_and(|c| {
                c.is_alphanumeric() || matches!(c, '"' | '_' | '[' | '(' | '-' | '.' | '=' | '~' | '<' | '/')
            }) || LEFT_HEADS.iter().any(|h| rest.starts_with(h));
            if followed {
                return rest;
            }
        }
    }
    text
}

/// A link arrow: `[head] body [head]`, the body a run of `-`, `.` or `=`
/// (class) or of `~` (description) with at most one `[style]` bracket and
/// one direction word (`up`, `do`, `l`, …) after its first character.
fn scan_arrow(text: &str) -> Option<(Readers, &str)> {
    let mut left = LEFT_HEADS.iter().find(|h| text.starts_with(**h)).copied().unwrap_or("");
    // `/` before a body of two or more line characters (`A /-- B`,
    // `A /-[#red]- B`) is a head PlantUML reads, not before one (`A /- B`,
    // `A /-[bold] B`): checked once the body is read.
    if left.is_empty() && text.starts_with('/') {
        left = "/";
    }
    let after_left = &text[left.len()..];
    let line_char = after_left.chars().next()?;
    if !(matches!(line_char, '.' | '=' | '~') || is_dash(line_char)) {
        return None;
    }
    let tilde = line_char == '~';
    let is_line = |c: char| {
        if tilde {
            c == '~'
        } else {
            matches!(c, '.' | '=') || is_dash(c)
        }
    };
    let mut rest = after_left.trim_start_matches(is_line);
    let mut styled = false;
    let mut directed = false;
    loop {
        if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            let style = &after[..close];
            if styled || tilde || style.trim().is_empty() || style.trim() != style {
                return None;
            }
            styled = true;
            rest = &after[close + 1..];
        } else if let Some(word_len) = direction_prefix(rest) {
            if directed || tilde {
                return None;
            }
            directed = true;
            rest = &rest[word_len..];
        } else {
            break;
        }
    }
    let before_tail = rest;
    rest = rest.trim_start_matches(is_line);
    let run = |text: &str| text.chars().take_while(|c| is_line(*c)).count();
    let line_chars = run(after_left) + run(before_tail);
    if left == "/" && line_chars < 2 {
        return None;
    }
    let right = RIGHT_HEADS
        .iter()
        .find(|h| rest.starts_with(**h))
        .copied()
        .unwrap_or("");
    rest = &rest[right.len()..];
    // A name or a space follows the arrow, never more arrow characters.
    if rest.starts_with(['-', EN_DASH, '.', '=', '~', '>', '<', '|', '\\', '/', '[', '(', '*'])
        && !rest.starts_with('(')
    {
        return None;
    }
    // The description types read every class head and body but the `/`
    // head; `~` bodies are theirs alone.
    let readers = if tilde {
        Readers::DESCRIPTION
    } else if left == "/" {
        Readers::CLASS
    } else {
        Readers::BOTH
    };
    Some((readers, rest))
}

/// The length of a direction word (`up`, `down`, `left`, `right` or a
/// prefix of one, any case) at the start of `text`.
fn direction_prefix(text: &str) -> Option<usize> {
    let len = text.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(text.len());
    if len == 0 {
        return None;
    }
    let word = text[..len].to_ascii_lowercase();
    ["up", "down", "left", "right"]
        .iter()
        .any(|d| d.starts_with(&word))
        .then_some(len)
}

/// For a link line `A -- B : m`, the byte range of its arrow in the line
/// and the sequence arrow it most likely meant (`->`, or `-->` for a
/// dashed or dotted body).
fn sequence_arrow_for(line: &str) -> Option<(std::ops::Range<usize>, &'static str)> {
    if link_readers(line) == Readers::NONE {
        return None;
    }
    let (_, rest) = scan_endpoint(line)?;
    let rest_trimmed = rest.trim_start();
    let arrow_start = line.len() - rest_trimmed.len();
    let (_, after) = scan_arrow(rest_trimmed)?;
    let arrow = &line[arrow_start..line.len() - after.len()];
    let body_chars = arrow.chars().filter(|c| matches!(c, '-' | '.' | '=' | '~')).count();
    let replacement = if arrow.contains('.') || body_chars >= 2 {
        "-->"
    } else {
        "->"
    };
    let reversed = arrow.starts_with('<') && !arrow.ends_with('>');
    let replacement = match (reversed, replacement) {
        (true, "->") => "<-",
        (true, _) => "<--",
        (false, r) => r,
    };
    (arrow != replacement).then_some((arrow_start..arrow_start + arrow.len(), replacement))
}

#[cfg(test)]
mod tests {
    use crate::model::OtherKind;
    use crate::{analyze, AnalysisOptions, NoIncludes};
    use puml_syntax::Severity;

    fn kind_and_codes(text: &str) -> (Option<OtherKind>, Vec<(&'static str, Severity)>) {
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let kind = analysis.document.diagrams.first().and_then(|d| d.other_kind);
        (
            kind,
            analysis.diagnostics.iter().map(|d| (d.code, d.severity)).collect(),
        )
    }

    #[test]
    fn a_class_link_among_messages_makes_a_class_diagram() {
        let text = "@startuml\nA -> B : m\nA -- B : n\n@enduml\n";
        let (kind, codes) = kind_and_codes(text);
        // puml draws class diagrams: no W0240, no other kind, a class model.
        assert_eq!(kind, None);
        assert_eq!(codes, vec![]);
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        assert!(analysis.document.diagrams[0].class.is_some());
    }

    #[test]
    fn description_only_lines_make_a_description_diagram() {
        for text in [
            "@startuml\nactor as A\nA -> A : m\n@enduml\n",
            "@startuml\nA -> B : m\n...x\n@enduml\n",
            "@startuml\nmain ~> Bridge : run\n@enduml\n",
        ] {
            // Either the parser reads them as description diagrams, which
            // puml draws (no other kind, no diagnostic, a description
            // model), or the fallback's wider reading names them (`actor as
            // A`, which the parser's description statements refuse).
            let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
            let diagram = analysis.document.diagrams.first().expect("a diagram");
            let drawn =
                diagram.other_kind.is_none() && diagram.description.is_some() && analysis.diagnostics.is_empty();
            let named = diagram.other_kind == Some(OtherKind::Description);
            assert!(drawn || named, "{text}: {:?}", analysis.diagnostics);
        }
    }

    #[test]
    fn a_broken_sequence_diagram_keeps_its_errors() {
        for text in [
            // A sequence-only statement PlantUML's class diagrams refuse.
            "@startuml\nA - B : m\nactivate A\n@enduml\n",
            "@startuml\nA -- B : m\nnote over A : x\n@enduml\n",
            "@startuml\nA -> B : m\nfoo bar\n@enduml\n",
            // An arrow neither type has.
            "@startuml\nA ->x B : m\nA -- B\n@enduml\n",
            "@startuml\nA -[ #red ]-> B : m\n@enduml\n",
            "@startuml\nA -> B : m\nalt x\nA -- B\nend\n@enduml\n",
        ] {
            // The class reading may get further (the parser then keeps it,
            // with its own errors): the block stays broken either way.
            let (kind, codes) = kind_and_codes(text);
            assert!(kind.is_none() || kind == Some(OtherKind::Class), "{text}");
            assert!(codes.iter().any(|(_, s)| *s == Severity::Error), "{text}: {codes:?}");
        }
    }

    /// The 1-based lines of the errors, with their codes.
    fn error_lines(text: &str) -> Vec<(usize, &'static str)> {
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        analysis
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (text[..usize::from(d.range.start())].matches('\n').count() + 1, d.code))
            .collect()
    }

    #[test]
    fn the_error_moves_to_where_the_furthest_reading_stops() {
        // State reads `state A` and stops at `Z1 -- Z2`; the legacy
        // activity reading reads `B -> A b : m`; PlantUML reports line 3 for
        // each. (When the class reading gets furthest, the parser keeps it
        // and reports its own error there: see below.)
        for text in [
            "@startuml\nstate A\nZ1 -- Z2\n@enduml\n",
            "@startuml\nB -> A b : m\nZ1 -- Z2\n@enduml\n",
            "@startuml\nnote top of A : x\nusecase Z1\n@enduml\n",
        ] {
            assert_eq!(error_lines(text), vec![(3, "E0241")], "{text}");
        }
        assert_eq!(
            error_lines("@startuml\nclass A\nusecase Z1\n@enduml\n"),
            vec![(3, "E0100")]
        );
        assert_eq!(
            error_lines("@startuml\nclass A {\n}\nusecase Z1\n@enduml\n"),
            vec![(4, "E0100")]
        );
    }

    #[test]
    fn the_moved_error_keeps_the_sequence_errors_and_their_repairs() {
        let text = "@startuml\nAlice -> Bob : hello\nusecase Checkout\nstate Paid\n@enduml\n";
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let errors: Vec<_> = analysis.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let error = errors[0];
        assert_eq!(&text[error.range], "state Paid");
        // Both sequence errors (`usecase Checkout`, and `state Paid` itself)
        // are related locations, and their fixes are carried: together first.
        let related: Vec<&str> = error.related.iter().map(|r| &text[r.range]).collect();
        assert_eq!(related, vec!["usecase Checkout", "state Paid"]);
        let fix = &error.fixes[0];
        assert!(fix.machine_applicable);
        let (fixed, skipped) = puml_syntax::apply_edits(text, &fix.edits);
        assert_eq!(skipped, 0);
        assert!(fixed.contains("by puml --fix): usecase Checkout\n"), "{fixed}");
        assert!(fixed.contains("by puml --fix): state Paid\n"), "{fixed}");
    }

    #[test]
    fn readings_stop_where_plantuml_stops_them() {
        // The state reading takes a note by an element named nowhere, then
        // fails on it at the end; a legacy arrow needs an activity before it.
        for (text, line) in [
            ("@startuml\nnote top of A : x\nClient -> Server : m\n@enduml\n", 2),
            ("@startuml\n-> B : m\nA -left-> B : m\nautonumber\n@enduml\n", 3),
            // The description types read `actor A as b`, the class one does not.
            (
                "@startuml\nusecase Z1\nactor Wallet as wallet\nactivate A\n@enduml\n",
                4,
            ),
            ("@startuml\nclass A as B\nactivate A\n@enduml\n", 2),
        ] {
            assert_eq!(error_lines(text).first().map(|e| e.0), Some(line), "{text}");
        }
        // A note by an element named later is the state reading's.
        let text = "@startuml\nnote top of A : x\nA -> B\n@enduml\n";
        assert_eq!(kind_and_codes(text).0, Some(OtherKind::State));
    }

    #[test]
    fn a_block_the_sequence_reading_gets_furthest_keeps_its_errors() {
        // Class stops at `activate A` (line 3) but the sequence reading's
        // first error is on line 4.
        let text = "@startuml\nA -> B : m\nactivate A\nfoo bar\n@enduml\n";
        assert_eq!(error_lines(text).first().map(|e| e.0), Some(4));
    }

    #[test]
    fn a_broken_message_plantuml_draws_as_legacy_activity_is_drawn() {
        // PlantUML draws `A -> B hi` as a legacy activity diagram (A to B);
        // so does puml, with nothing to report.
        let text = "@startuml\nA -> B hi\n@enduml\n";
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        assert!(analysis.diagnostics.is_empty(), "{:?}", analysis.diagnostics);
        let legacy = analysis.document.diagrams[0].legacy_activity.as_ref().expect("drawn");
        assert_eq!(legacy.nodes.len(), 2);
    }

    #[test]
    fn a_theme_plantuml_cannot_load_fails_every_reading() {
        let text = "@startuml\n!theme Cerulean\nAlice -> Bob : hi\n@enduml\n";
        assert_eq!(error_lines(text), vec![(2, "E0230")]);
    }

    #[test]
    fn a_legacy_activity_diagram_is_another_kind() {
        // A legacy activity diagram: puml draws it (no W0240).
        let text = "@startuml\nA -> B : before\nA -> B -> C\nB -> A : after\n@enduml\n";
        assert_eq!(kind_and_codes(text), (None, Vec::new()));
        let analysis = crate::analyze(text, &crate::AnalysisOptions::default(), &crate::NoIncludes);
        assert!(analysis.document.diagrams[0].legacy_activity.is_some());
        // A state diagram: the parser reads it, puml draws it.
        let text = "@startuml\nA -up-> B\n[*] --> A\n@enduml\n";
        assert_eq!(kind_and_codes(text).0, None);
        let analysis = crate::analyze(text, &crate::AnalysisOptions::default(), &crate::NoIncludes);
        assert!(analysis.document.diagrams[0].state.is_some());
    }

    #[test]
    fn the_warning_suggests_the_sequence_arrow() {
        // Offered for a line of a block that is no class diagram either
        // (a class block is read by the parser's class statements).
        let (arrow, replacement) = super::sequence_arrow_for("Bob -- Alice : hi").expect("a class-only arrow");
        assert_eq!((&"Bob -- Alice : hi"[arrow], replacement), ("--", "-->"));
    }

    #[test]
    fn shared_lines_alone_or_a_text_without_startuml_are_no_class_diagram() {
        for text in [":@", ":", "@startuml\ntitle x\nfoo\n@enduml\n", "endif @start <->uml\r"] {
            assert_eq!(kind_and_codes(text).0, None, "{text}");
        }
    }

    #[test]
    fn every_start_tag_is_a_diagram_of_its_kind() {
        let text = "@startuml\nA -> B : m\n@enduml\n@startmindmap\n* root\n** child\n@endmindmap\n@startgantt\n[Task] lasts 5 days\n@endgantt\n@startjson\n{\"a\": [1, 2]}\n@endjson\n";
        assert_eq!(puml_syntax::parse(text).syntax().text().to_string(), text);
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let kinds: Vec<_> = analysis.document.diagrams.iter().map(|d| d.other_kind).collect();
        assert_eq!(
            kinds,
            vec![
                None,
                Some(OtherKind::Other("MINDMAP")),
                Some(OtherKind::Other("GANTT")),
                Some(OtherKind::Other("JSON"))
            ]
        );
        let codes: Vec<_> = analysis.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec!["W0240", "W0240", "W0240"]);
        assert!(analysis.diagnostics[0]
            .message
            .contains("puml does not draw mindmap diagrams yet"));
        // A file of one such block alone, without `@startuml`.
        let (kind, codes) = kind_and_codes("@startwbs\n* a\n** b\n@endwbs\n");
        assert_eq!(
            (kind, codes),
            (Some(OtherKind::Other("WBS")), vec![("W0240", Severity::Warning)])
        );
    }

    #[test]
    fn a_start_tag_plantuml_does_not_know_is_an_error() {
        assert_eq!(error_lines("@startfoo\nx\n@endfoo\n"), vec![(1, "E0243")]);
    }

    #[test]
    fn a_timing_diagram_is_recognised_by_its_first_line() {
        for text in [
            "@startuml\nrobust \"Web\" as WB\nconcise \"User\" as U\n@0\nWB is Idle\n@enduml\n",
            "@startuml\ntitle T\nclock clk with period 1\n@enduml\n",
        ] {
            assert_eq!(kind_and_codes(text).0, Some(OtherKind::Other("TIMING")), "{text}");
        }
        // After a sequence line it is the sequence diagram's error.
        assert_eq!(
            kind_and_codes("@startuml\nA -> B\nrobust \"Web\" as WB\n@enduml\n").0,
            None
        );
    }

    #[test]
    fn another_language_under_startuml_is_refused_on_the_last_line() {
        for (text, line) in [
            ("@startuml\nnwdiag {\n  network dmz {\n    web01;\n  }\n}\n@enduml\n", 7),
            ("@startuml\nsalt\n{\n  Login\n}\n@enduml\n", 6),
            ("@startuml\ndigraph foo {\n  a -> b\n}\n@enduml\n", 5),
            ("@startuml\nditaa\nA\n@enduml\n", 4),
        ] {
            assert_eq!(error_lines(text), vec![(line, "E0242")], "{text}");
        }
    }

    #[test]
    fn a_valid_block_beside_a_class_block_keeps_its_kind() {
        let text = "@startuml\nA -> B : m\n@enduml\n@startuml\nclass A\nA <|-- B\n@enduml\n";
        let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
        let kinds: Vec<_> = analysis
            .document
            .diagrams
            .iter()
            .map(|d| (d.other_kind, d.class.is_some()))
            .collect();
        assert_eq!(kinds, vec![(None, false), (None, true)]);
    }
}
