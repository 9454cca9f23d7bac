//! Re-parsing after an edit inside one line.
//!
//! Editors send one keystroke at a time; re-parsing a 5,000-line file for
//! each costs milliseconds. When the change stays inside a single-line
//! statement, that statement is parsed on its own and spliced into the old
//! green tree, whose other nodes are shared. Every condition under which a
//! one-line parse could differ from parsing the whole file sends the edit
//! to the full parser instead; `tests::reparse_equals_parse` checks the
//! result against a full parse over the corpus.

use super::{lexer::first_word, parse_text, ParsedText, Parser};
use crate::{codes, Diagnostic, SyntaxKind};
use rowan::{GreenNode, GreenNodeData, Language, NodeOrToken, TextRange, TextSize};
use std::cell::Cell;
use SyntaxKind::*;

/// The previous parse an edit starts from.
pub(crate) struct OldParse<'a> {
    pub(crate) green: &'a GreenNode,
    pub(crate) errors: &'a [Diagnostic],
    pub(crate) reparsable: bool,
    pub(crate) derivation: &'a Derivation,
    pub(crate) diagram_kinds: &'a [crate::DiagramKind],
    pub(crate) class_stops: &'a [Option<TextSize>],
}

/// What the one-statement re-parse knows about how it made a tree from the
/// previous one, kept with the tree for the next edit and for
/// [`replaced_statement`]. Not part of the parse's value: equality and
/// hashing ignore it (a re-parse equals a full parse).
#[derive(Debug, Clone, Default)]
pub(crate) struct Derivation {
    /// The tree this one was made from, and the statement replaced in it:
    /// the diagram's index among the root's children, the statement's
    /// among the diagram's, and the statement's start. Holding the old
    /// root keeps alive only what the new tree does not share with it.
    replaced: Option<(GreenNode, usize, usize, TextSize)>,
    /// The diagram (by index) the edit was in, and how long a prefix of its
    /// text decided that it is read as a sequence diagram: a later edit
    /// past that prefix cannot change the kind, so it is not decided again.
    sequence_decided_by: Option<(usize, usize)>,
}

impl PartialEq for Derivation {
    fn eq(&self, _: &Derivation) -> bool {
        true
    }
}

impl Eq for Derivation {}

impl std::hash::Hash for Derivation {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

thread_local! {
    static FAST_REPARSES: Cell<usize> = const { Cell::new(0) };
}

/// How many re-parses on this thread took the one-statement path (tests
/// use it to check the path is taken).
pub(crate) fn fast_reparses() -> usize {
    FAST_REPARSES.with(Cell::get)
}

/// The parse of `new_text`, reusing `old` (the parse of `old_text`).
pub(crate) fn reparse(old: OldParse, old_text: &str, new_text: &str) -> ParsedText {
    match try_reparse(&old, old_text, new_text) {
        Some(parsed) => {
            FAST_REPARSES.with(|count| count.set(count.get() + 1));
            parsed
        }
        None => parse_text(new_text),
    }
}

fn try_reparse(old: &OldParse, old_text: &str, new_text: &str) -> Option<ParsedText> {
    // `old_text` must be the text `old` was parsed from; a caller that
    // passes another gets a full parse, not a wrong tree or a panic.
    let consistent = TextSize::try_from(old_text.len()).is_ok_and(|len| len == old.green.text_len());
    if !consistent
        || !old.reparsable
        || old
            .errors
            .iter()
            .any(|e| is_file_level(e.code) || depends_on_other_statements(e.code))
    {
        return None;
    }
    let (start, old_end, new_end) = changed_span(old_text, new_text)?;
    let changed = |text: &str, end: usize| text[start..end].contains(['\n', '\r']);
    if changed(old_text, old_end) || changed(new_text, new_end) {
        return None;
    }
    let ((diagram_index, diagram, diagram_start), (statement_index, statement, statement_start)) =
        match last_edited_statement(old, start) {
            Some(found) => found,
            None => {
                let (diagram_index, diagram, diagram_start) = child_containing(old.green, TextSize::from(0), start)?;
                if kind_of(diagram.kind()) != DIAGRAM {
                    return None;
                }
                let statement = child_containing(diagram, diagram_start, start)?;
                ((diagram_index, diagram, diagram_start), statement)
            }
        };
    // A `BODY` straight in a diagram is a `@startmindmap`-like block's
    // text, another language: parsed whole.
    if matches!(kind_of(statement.kind()), START_LINE | END_LINE | BODY) {
        return None;
    }
    let statement_start = usize::from(statement_start);
    let statement_end = statement_start + usize::from(statement.text_len());
    let old_line = old_text.get(statement_start..statement_end)?;
    let content_len = old_line.trim_end_matches(['\n', '\r']).len();
    // One physical line, with the change inside its content.
    if old_line[..content_len].contains(['\n', '\r']) || old_end > statement_start + content_len {
        return None;
    }
    let delta = new_end as i64 - old_end as i64;
    let new_line_end = (statement_end as i64 + delta) as usize;
    let new_line = new_text.get(statement_start..new_line_end)?;
    let new_content = new_line.trim_end_matches(['\n', '\r']);
    if !single_line_statement_text(&old_line[..content_len]) || !single_line_statement_text(new_content) {
        return None;
    }
    let diagram_start_offset = usize::from(diagram_start);
    let diagram_end = diagram_start_offset + usize::from(diagram.text_len());
    // Both texts agree before `start`: when an earlier edit of this diagram
    // found its kind decided by a prefix that ends before it, both are
    // sequence diagrams and that prefix still decides.
    let sequence_decided_by = match old.derivation.sequence_decided_by {
        Some((index, decided_by)) if index == diagram_index && diagram_start_offset + decided_by <= start => decided_by,
        _ => {
            let old_diagram = old_text.get(diagram_start_offset..diagram_end)?;
            let new_diagram = new_text.get(diagram_start_offset..(diagram_end as i64 + delta) as usize)?;
            match (sequence_decided_by(old_diagram), sequence_decided_by(new_diagram)) {
                (Some(_), Some(decided_by)) => decided_by,
                _ => return None,
            }
        }
    };

    // Only a sequence block is re-parsed a statement at a time. While the
    // sequence reading meets an error in it, PlantUML (and the parser) go
    // on to the class reading, kept when it gets further: the decision
    // stands only when the edit lies past where the class reading stopped
    // and no sequence error comes before that point.
    let ordinal = old
        .green
        .children()
        .take(diagram_index)
        .filter(|c| kind_of(c.kind()) == DIAGRAM)
        .count();
    if old.diagram_kinds.get(ordinal) != Some(&crate::DiagramKind::Sequence) {
        return None;
    }
    let (node, mut line_errors) = parse_one_statement(new_line)?;
    if line_errors.iter().any(|e| depends_on_other_statements(e.code)) {
        return None;
    }
    // A block of shared statements only is a class diagram: the edited
    // block must keep a statement of its own.
    let keeps_own_statement = !super::class::is_shared_statement(kind_of(node.kind()))
        || diagram.children().enumerate().any(|(i, c)| {
            i != statement_index && c.as_node().is_some() && !super::class::is_shared_statement(kind_of(c.kind()))
        });
    if !keeps_own_statement {
        return None;
    }
    let diagram_range = TextRange::at(diagram_start, diagram.text_len());
    let old_statement_range = TextRange::new((statement_start as u32).into(), (statement_end as u32).into());
    let first_sequence_error = old
        .errors
        .iter()
        .filter(|e| e.is_error() && diagram_range.contains(e.range.start()) && !belongs_to(e, old_statement_range))
        .map(|e| e.range.start())
        .chain(
            line_errors
                .iter()
                .filter(|e| e.is_error())
                .map(|e| e.range.start() + TextSize::from(statement_start as u32)),
        )
        .min();
    let class_stop = match (first_sequence_error, old.class_stops.get(ordinal).copied().flatten()) {
        (None, _) => None,
        (Some(error), Some(stop)) if usize::from(stop) < statement_start && stop <= error => Some(stop),
        (Some(_), _) => return None,
    };
    let new_diagram = diagram.replace_child(statement_index, node.into());
    let green = old.green.replace_child(diagram_index, new_diagram.into());

    let old_statement = TextRange::new((statement_start as u32).into(), (statement_end as u32).into());
    let edit_end = TextSize::from(old_end as u32);
    let moved = |offset: TextSize| {
        if offset >= edit_end {
            TextSize::from((i64::from(u32::from(offset)) + delta) as u32)
        } else {
            offset
        }
    };
    let mut errors: Vec<Diagnostic> = old
        .errors
        .iter()
        .filter(|e| !belongs_to(e, old_statement))
        .cloned()
        .map(|mut e| {
            if e.range.start() < old_statement.start() {
                // An earlier statement's ranges may end where the edited
                // one starts (a fix deleting its whole line): that end
                // stays put even when the edit inserts right there.
                e.map_offsets(|offset| {
                    if offset == old_statement.start() {
                        offset
                    } else {
                        moved(offset)
                    }
                });
            } else {
                e.map_offsets(moved);
            }
            e
        })
        .collect();
    let base = TextSize::from(statement_start as u32);
    for error in &mut line_errors {
        error.map_offsets(|offset| offset + base);
    }
    errors.append(&mut line_errors);
    errors.sort_by_key(|d| (d.range.start(), d.range.end()));
    Some(ParsedText {
        derivation: Derivation {
            replaced: Some((
                old.green.clone(),
                diagram_index,
                statement_index,
                TextSize::from(statement_start as u32),
            )),
            sequence_decided_by: Some((diagram_index, sequence_decided_by)),
        },
        green,
        errors,
        reparsable: true,
        // The same diagrams, and the edited one a sequence diagram before
        // and after the edit (`sequence_decided_by` above).
        diagram_kinds: old.diagram_kinds.to_vec(),
        class_stops: old
            .class_stops
            .iter()
            .enumerate()
            .map(|(index, stop)| match index.cmp(&ordinal) {
                std::cmp::Ordering::Less => *stop,
                std::cmp::Ordering::Equal => class_stop,
                std::cmp::Ordering::Greater => stop.map(moved),
            })
            .collect(),
    })
}

fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
    crate::PumlLanguage::kind_from_raw(raw)
}

/// Diagnostics about the file's frame, whose place depends on lines other
/// than the one they point at.
fn is_file_level(code: &str) -> bool {
    matches!(
        code,
        codes::MISSING_STARTUML | codes::MISSING_ENDUML | codes::NESTED_STARTUML
    )
}

/// A diagnostic whose fix reads other statements (a bare `activate` is
/// fixed with the last message's receiver): an edit anywhere may change
/// it, and the statement alone cannot compute it, so only a full parse is
/// right while one is present.
fn depends_on_other_statements(code: &str) -> bool {
    // A Mermaid `rect` becomes `box … end box` when only declarations come
    // before its `end`, else `group`: its fix reads the lines after it.
    code == codes::ACTIVATE_WITHOUT_NAME || code == codes::MERMAID_RECT
}

/// A diagnostic the statement's own parse produced: statements are
/// disjoint, and each reports inside itself.
fn belongs_to(error: &Diagnostic, statement: TextRange) -> bool {
    statement.contains(error.range.start())
}

/// Text whose parse never depends on other lines: not a frame line
/// (`@startuml`, `@enduml`), not continued by a trailing backslash, not the
/// start of a block comment.
fn single_line_statement_text(content: &str) -> bool {
    let word = first_word(content);
    !word.starts_with('@') && !content.ends_with('\\') && !content.trim_start().starts_with("/'")
}

/// Whether a diagram's text is read as a sequence diagram, the only kind
/// whose statements are re-parsed alone: an activity block is always parsed
/// whole (its actions and notes span lines), and an edit may flip a block's
/// kind, so the kind is decided again, by the parser's own rule, before and
/// after. `Some` with the length of the prefix that decided it.
fn sequence_decided_by(diagram_text: &str) -> Option<usize> {
    match super::activity::kind_decision_with_extent(diagram_text) {
        (false, decided_by) => Some(decided_by),
        (true, _) => None,
    }
}

/// The first differing byte and the ends of the differing parts in the old
/// and the new text, on character boundaries (`None` when they are equal):
/// `old[start..old_end]` became `new[start..new_end]`.
fn changed_span(old: &str, new: &str) -> Option<(usize, usize, usize)> {
    if old == new {
        return None;
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut start = common_prefix(a, b);
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let max_suffix = a.len().min(b.len()) - start;
    let mut suffix = common_suffix(&a[start..], &b[start..]).min(max_suffix);
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    Some((start, a.len() - suffix, b.len() - suffix))
}

/// Compared a block at a time (a slice comparison is a `memcmp`), then
/// byte by byte inside the first differing block.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 64;
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..len].iter().zip(&b[at..len]).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 64;
    let len = a.len().min(b.len());
    let (a_end, b_end) = (a.len(), b.len());
    let mut matched = 0;
    while matched + BLOCK <= len
        && a[a_end - matched - BLOCK..a_end - matched] == b[b_end - matched - BLOCK..b_end - matched]
    {
        matched += BLOCK;
    }
    matched
        + a[..a_end - matched]
            .iter()
            .rev()
            .zip(b[..b_end - matched].iter().rev())
            .take_while(|(x, y)| x == y)
            .count()
}

/// The statement `old`'s tree has where `new`'s tree differs from it, and
/// the statement in its place in `new`'s, when that is the only difference:
/// every other child on the way down is the very same green element, as
/// [`reparse`]'s one-statement path leaves them. Found by comparing
/// pointers, so it costs a walk over the children, not over the text.
pub(crate) fn replaced_statement<'a>(
    old: &'a GreenNodeData,
    new: &'a GreenNodeData,
    new_derivation: &Derivation,
) -> Option<(crate::ast::GreenStatement<'a>, crate::ast::GreenStatement<'a>)> {
    // When `new` was re-parsed from `old` itself, the re-parse says which
    // statement it replaced: no walk over the diagram's children.
    if let Some((from, diagram_index, statement_index, start)) = &new_derivation.replaced {
        if std::ptr::eq::<GreenNodeData>(&**from, old) {
            let old_statement = nth_node(nth_node(old, *diagram_index)?, *statement_index)?;
            let new_statement = nth_node(nth_node(new, *diagram_index)?, *statement_index)?;
            return Some((
                crate::ast::GreenStatement {
                    green: old_statement,
                    start: *start,
                },
                crate::ast::GreenStatement {
                    green: new_statement,
                    start: *start,
                },
            ));
        }
    }
    let (old_diagram, new_diagram, diagram_start) = only_replaced_child(old, new, TextSize::from(0))?;
    if kind_of(old_diagram.kind()) != DIAGRAM {
        return None;
    }
    let (old_statement, new_statement, start) = only_replaced_child(old_diagram, new_diagram, diagram_start)?;
    Some((
        crate::ast::GreenStatement {
            green: old_statement,
            start,
        },
        crate::ast::GreenStatement {
            green: new_statement,
            start,
        },
    ))
}

/// The `index`th child of `node`, when it is a node.
fn nth_node(node: &GreenNodeData, index: usize) -> Option<&GreenNodeData> {
    match node.children().nth(index)? {
        NodeOrToken::Node(child) => Some(child),
        NodeOrToken::Token(_) => None,
    }
}

/// The one child node that differs between `old` and `new` (same kind,
/// same number of children, all others the very same elements or equal
/// tokens), with its start; `None` when none or more than one differ.
fn only_replaced_child<'a>(
    old: &'a GreenNodeData,
    new: &'a GreenNodeData,
    start: TextSize,
) -> Option<(&'a GreenNodeData, &'a GreenNodeData, TextSize)> {
    if old.kind() != new.kind() || old.children().len() != new.children().len() {
        return None;
    }
    let mut offset = start;
    let mut replaced = None;
    for pair in old.children().zip(new.children()) {
        let same = match pair {
            (NodeOrToken::Node(a), NodeOrToken::Node(b)) => std::ptr::eq(a, b),
            (NodeOrToken::Token(a), NodeOrToken::Token(b)) => a == b,
            _ => false,
        };
        if !same {
            match (pair, replaced) {
                ((NodeOrToken::Node(a), NodeOrToken::Node(b)), None) if a.kind() == b.kind() => {
                    replaced = Some((a, b, offset));
                }
                _ => return None,
            }
        }
        offset += pair.0.text_len();
    }
    replaced
}

/// The diagram and the statement holding `offset` when it lies in the
/// statement the previous re-parse replaced (typing goes on in the line
/// just edited): found by index, where [`child_containing`] walks the
/// diagram's statements up to it (thousands in a long diagram, each a
/// node to read its length from).
#[allow(clippy::type_complexity)]
fn last_edited_statement<'a>(
    old: &OldParse<'a>,
    offset: usize,
) -> Option<(
    (usize, &'a GreenNodeData, TextSize),
    (usize, &'a GreenNodeData, TextSize),
)> {
    let (_, diagram_index, statement_index, statement_start) = old.derivation.replaced.as_ref()?;
    let diagram = nth_node(old.green, *diagram_index)?;
    let statement = nth_node(diagram, *statement_index)?;
    let offset = TextSize::try_from(offset).ok()?;
    if kind_of(diagram.kind()) != DIAGRAM || !TextRange::at(*statement_start, statement.text_len()).contains(offset) {
        return None;
    }
    // The diagram's start: the lengths of the root's children before it
    // (a handful: blank lines and other diagrams).
    let diagram_start = old
        .green
        .children()
        .take(*diagram_index)
        .map(|child| child.text_len())
        .sum::<TextSize>();
    Some((
        (*diagram_index, diagram, diagram_start),
        (*statement_index, statement, *statement_start),
    ))
}

/// The child node of `parent` whose text holds `offset` (the byte at it,
/// or the end of the node for an insertion at its end).
fn child_containing(
    parent: &GreenNodeData,
    parent_start: TextSize,
    offset: usize,
) -> Option<(usize, &GreenNodeData, TextSize)> {
    let offset = TextSize::from(offset as u32);
    let mut start = parent_start;
    for (index, child) in parent.children().enumerate() {
        let end = start + child.text_len();
        if offset >= start && offset < end {
            return match child {
                NodeOrToken::Node(node) => Some((index, node, start)),
                NodeOrToken::Token(_) => None,
            };
        }
        start = end;
    }
    None
}

/// Parses `line` as one diagram statement; `None` when the result is not
/// exactly one statement node made from this line alone.
fn parse_one_statement(line: &str) -> Option<(GreenNode, Vec<Diagnostic>)> {
    let mut parser = Parser::new(line);
    if parser.lines.len() != 1 {
        return None;
    }
    parser.builder.start_node(DIAGRAM.into());
    parser.parse_statement();
    parser.builder.finish_node();
    if parser.pos != 1 || parser.looked_ahead.get() || parser.unterminated_block.get() {
        return None;
    }
    let errors = std::mem::take(&mut parser.errors);
    let wrapper = parser.builder.finish(DIAGRAM.into());
    let mut children = wrapper.children();
    let only = children.next()?;
    if children.next().is_some() {
        return None;
    }
    match only {
        NodeOrToken::Node(node) if !matches!(kind_of(node.kind()), START_LINE | END_LINE) => {
            Some((node.to_owned(), errors))
        }
        _ => None,
    }
}
