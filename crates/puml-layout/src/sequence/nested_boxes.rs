//! Participant boxes nested in boxes (`box … box … end box … end box`), as
//! PlantUML 1.2026 draws them (with or without `!pragma teoz true`, the
//! output is the same):
//!
//! - a box encloses the participants of the boxes nested in it, so its
//!   span of slots covers theirs;
//! - boxes that share an edge participant share that edge: the outer and
//!   the inner box end at the same x, the wider of the two deciding (an
//!   inner title wider than its heads widens the outer box, an outer title
//!   wider than its heads widens the inner box up to it);
//! - a nested box starts one title row below its parent (the parent's title
//!   height plus 5 px), every head sits below the lowest title, 4 px under
//!   it, and every box ends at the same bottom;
//! - an outer box is drawn before the boxes inside it.
//!
//! Also the room a note keeps from a box before its participant
//! (`box_reach_before`).

use super::{box_title_font, BoxSpan, Context, Length, BOX_INSET};
use puml_sema::model::ParticipantBox;

/// Room between a box's title and the top of a box nested in it.
const NESTED_BOX_GAP: f64 = 5.0;
/// Room between the lowest box title and the heads.
const HEADS_BELOW_TITLE: f64 = 4.0;

/// The boxes `index` is nested in, innermost first (indices into
/// `Diagram::boxes`). A parent always comes before its child, so the walk
/// ends; the bound guards a malformed model all the same.
pub(super) fn ancestors(boxes: &[ParticipantBox], index: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut current = boxes.get(index).and_then(|b| b.parent);
    while let Some(parent) = current {
        if parent >= index || chain.len() > boxes.len() {
            break;
        }
        chain.push(parent);
        current = boxes.get(parent).and_then(|b| b.parent);
    }
    chain
}

/// Whether `outer` (a `Diagram::boxes` index) holds `span`, at any depth.
fn holds(span: &BoxSpan, outer: usize) -> bool {
    span.ancestors.contains(&outer)
}

impl Context<'_> {
    /// A box's reach before its first lifeline and after its last one,
    /// shared with the boxes nested in it or holding it that end on the same
    /// participant (PlantUML draws such edges at one x, the widest).
    pub(super) fn shared_box_sides(&self, span: &BoxSpan, self_reach: &[(f64, f64)]) -> (f64, f64) {
        let mut sides = self.box_sides(span, self_reach);
        if !self.has_nested_boxes() {
            return sides;
        }
        for other in &self.box_spans {
            if other.index == span.index || !(holds(other, span.index) || holds(span, other.index)) {
                continue;
            }
            let (before, after) = self.box_sides(other, self_reach);
            if other.first == span.first {
                sides.0 = sides.0.at_least(before);
            }
            if other.last == span.last {
                sides.1 = sides.1.at_least(after);
            }
        }
        sides
    }

    /// For the participant in 1-based `slot`, right after a box that ends on
    /// the participant before it: how far right of that participant's
    /// lifeline the box's outline reaches.
    pub(super) fn box_reach_before(&self, slot: usize, self_reach: &[(f64, f64)]) -> Option<f64> {
        let before = slot.checked_sub(2)?;
        self.box_spans
            .iter()
            .filter(|span| span.last == before)
            .map(|span| self.shared_box_sides(span, self_reach).1 + BOX_INSET)
            .reduce(f64::at_least)
    }

    /// Whether any box is nested in another.
    pub(super) fn has_nested_boxes(&self) -> bool {
        self.box_spans.iter().any(|span| !span.ancestors.is_empty())
    }

    /// How far before its first lifeline the widest box starting at `slot`
    /// reaches (none starts there: `None`).
    pub(super) fn box_before_at(&self, slot: usize, self_reach: &[(f64, f64)]) -> Option<f64> {
        self.box_spans
            .iter()
            .filter(|span| span.first == slot)
            .map(|span| self.shared_box_sides(span, self_reach).0)
            .reduce(f64::at_least)
    }

    /// The height of the title of `Diagram::boxes[index]` (none: 0).
    fn box_title_height(&self, index: usize) -> f64 {
        self.diagram
            .boxes
            .get(index)
            .and_then(|b| b.title.as_ref())
            .map_or(0.0, |t| self.text(t, box_title_font(&self.theme)).height)
    }

    /// How far below the outermost boxes' top this box starts: one title row
    /// (its title and 5 px) per box it is nested in.
    pub(super) fn box_top_offset(&self, span: &BoxSpan) -> f64 {
        span.ancestors
            .iter()
            .map(|&outer| self.box_title_height(outer) + NESTED_BOX_GAP)
            .sum()
    }

    /// From the outermost boxes' top to the heads: below the lowest title.
    pub(super) fn heads_below_box_top(&self) -> f64 {
        self.box_spans
            .iter()
            .map(|span| self.box_top_offset(span) + self.box_title_height(span.index))
            .fold(0.0_f64, f64::at_least)
            + HEADS_BELOW_TITLE
    }

    /// The boxes in drawing order: an outer box before those nested in it
    /// (declaration order).
    pub(super) fn boxes_in_drawing_order(&self) -> Vec<&BoxSpan> {
        let mut spans: Vec<&BoxSpan> = self.box_spans.iter().collect();
        if self.has_nested_boxes() {
            spans.sort_by_key(|span| span.index);
        }
        spans
    }
}
