//! Re-analysis after an edit inside one message's label.
//!
//! Typing in a label is most of what happens in an editor, and a label is
//! the one part of a message that nothing else reads: no other statement,
//! no diagnostic and no autonumber depends on its text. So when an edit
//! changed only the label text of one message, the new analysis is the old
//! one with that label replaced and every range after the edit moved, which
//! costs a copy instead of lowering 5,000 statements again.
//!
//! Every condition under which that could differ from a full analysis makes
//! [`reanalyze_label_edit`] answer `None` (the caller then lowers the whole
//! text); `tests/relabel.rs` compares the result with a full analysis over
//! thousands of chained random edits.

use crate::lower::{Analysis, MAX_DRAWN_LINE_CHARS};
use crate::model::Event;
use crate::preprocess::line_needs_preprocessing;
use puml_syntax::ast::{GreenStatement, Tok};
use puml_syntax::{Parse, SyntaxKind, TextRange, TextSize};
use SyntaxKind::*;

/// The analysis of the text parsed as `new_parse`, derived from `old`, the
/// analysis of the text parsed as `old_parse`, when `new_parse` is
/// `old_parse` with one message statement replaced (as the incremental
/// re-parse leaves it) and only that message's label text differs; `None`
/// otherwise. Works on the trees alone: the texts are not read.
pub fn reanalyze_label_edit(old_parse: &Parse, old: &Analysis, new_parse: &Parse) -> Option<Analysis> {
    // Expanded text (includes too) maps its ranges through the
    // preprocessor: not here.
    if old.preprocessed {
        return None;
    }
    let (old_statement, new_statement) = old_parse.replaced_statement(new_parse)?;
    // The fallback to other diagram types reads a block's lines, labels
    // included, when the block has errors: only error-free blocks here.
    let old_range = TextRange::at(old_statement.start, old_statement.green.text_len());
    let (block, block_map) = old
        .document
        .diagrams
        .iter()
        .zip(&old.source_map.diagrams)
        .find(|(_, map)| map.range.contains_range(old_range))?;
    let block_range = block_map.range;
    // A legacy activity block was read from its lines, labels included.
    if block.other_kind.is_some()
        || block.legacy_activity.is_some()
        || old
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.file.is_none() && block_range.contains_range(d.range))
    {
        return None;
    }
    let (old_label, new_label) = changed_label(&old_statement, &new_statement)?;
    // A builtin call (`%date()`) typed into the label needs the preprocessor.
    if line_needs_preprocessing(new_label.text) {
        return None;
    }
    // The label's start is the same in both texts (everything before it is).
    let label_start = old_label.range.start();
    let delta = i64::from(u32::from(new_label.range.len())) - i64::from(u32::from(old_label.range.len()));
    let new_range = TextRange::at(new_statement.start, new_statement.green.text_len());
    // A line the drawing cuts is reported (and its warning's range would
    // depend on the label).
    if usize::from(new_range.len()) > MAX_DRAWN_LINE_CHARS {
        return None;
    }
    // Diagnostics about the statement itself may read its text.
    if old.diagnostics.iter().any(|d| touches(d.range, old_range))
        || new_parse.errors().iter().any(|d| touches(d.range, new_range))
    {
        return None;
    }

    let mut new = old.clone();
    let document = std::sync::Arc::make_mut(&mut new.document);
    let mut relabeled = 0;
    for (diagram, map) in document.diagrams.iter_mut().zip(&new.source_map.diagrams) {
        // The events the statement made, found through the source map; the
        // event list itself is shared with the old model (see
        // `model::Events`), and only the relabeled message is copied.
        for (index, _) in map
            .events
            .iter()
            .enumerate()
            .filter(|(_, range)| old_range.contains(range.start()))
        {
            match diagram.events.get(index) {
                Some(Event::Message(message)) if *message.label == *old_label.text => {
                    if let Some(Event::Message(message)) = diagram.events.get_mut(index) {
                        message.label = new_label.text.into();
                        relabeled += 1;
                    }
                }
                // Events that carry no text of the statement.
                Some(
                    Event::Create { .. } | Event::Activate { .. } | Event::Deactivate { .. } | Event::Destroy { .. },
                ) => {}
                _ => return None,
            }
        }
    }
    if relabeled != 1 {
        return None;
    }

    let moved = |offset: TextSize| {
        if offset > label_start {
            TextSize::from((i64::from(u32::from(offset)) + delta) as u32)
        } else {
            offset
        }
    };
    let move_range = |range: &mut TextRange| {
        // A range that ends before the label does not move (most of them
        // for an edit early in the text; the test is cheaper than moving).
        if range.end() <= label_start {
            return;
        }
        let start = moved(range.start());
        *range = TextRange::new(start, moved(range.end()).max(start));
    };
    for map in &mut new.source_map.diagrams {
        move_range(&mut map.range);
        map.participants.iter_mut().for_each(move_range);
        map.participant_uses.iter_mut().flatten().for_each(move_range);
        map.events.iter_mut().for_each(move_range);
        if let Some(activity) = &mut map.activity {
            activity.steps.iter_mut().for_each(move_range);
            activity.lanes.iter_mut().for_each(move_range);
        }
    }
    for diagnostic in &mut new.diagnostics {
        diagnostic.map_offsets(moved);
    }
    Some(new)
}

/// Whether a diagnostic's range overlaps (or touches) the statement's.
fn touches(range: TextRange, statement: TextRange) -> bool {
    range.start() <= statement.end() && statement.start() <= range.end()
}

/// The label tokens of two message statements that differ only there: the
/// same tokens, kinds and texts, except the text after the colon.
fn changed_label<'a>(old: &GreenStatement<'a>, new: &GreenStatement<'a>) -> Option<(Tok<'a>, Tok<'a>)> {
    if old.kind() != MESSAGE || new.kind() != MESSAGE || old.has_child_nodes() || new.has_child_nodes() {
        return None;
    }
    let old_tokens: Vec<_> = old.tokens().collect();
    let new_tokens: Vec<_> = new.tokens().collect();
    if old_tokens.len() != new_tokens.len() {
        return None;
    }
    let mut label = None;
    for (i, (a, b)) in old_tokens.iter().zip(&new_tokens).enumerate() {
        if a.kind != b.kind {
            return None;
        }
        if a.text == b.text {
            continue;
        }
        // Only the text right after the message's colon may differ, once.
        let after_colon = old_tokens[..i]
            .iter()
            .rev()
            .find(|t| !t.kind.is_trivia())
            .is_some_and(|t| t.kind == COLON);
        if a.kind != TEXT || !after_colon || label.is_some() {
            return None;
        }
        label = Some((*a, *b));
    }
    label
}
