//! A note over two participants written right to left (`note over B, A`)
//! across a box edge, as PlantUML 1.2026 spaces it (probes with the box on
//! the left participant, the right one, both, and `BoxPadding` 0 and 20;
//! corpus 228).
//!
//! PlantUML draws such a note at its own width, centred between the two
//! lifelines, but reserves room for it as if it hung centred over each of
//! the two participants: the box holding the left one reaches past that
//! note's right edge, the box holding the right one starts before its left
//! edge, both by the mean of the two heads' half widths and 9 px (24 px
//! for two one-letter heads; each head's width counts a quarter, whichever
//! side it is on: probes with long names on either side), and the right
//! participant keeps clear of the left box as if it had a box of its own.
//! Without a box between them nothing spreads (the note overhangs the
//! pair, like a note written left to right).

use super::{note_size, Context, Event, Length, Prepared, BOX_INSET};
use puml_sema::model::NotePosition;

/// From a reversed note's edge (centred over one participant) to the box
/// outline beyond it, besides the heads' mean half width (PlantUML,
/// whatever `BoxPadding`).
const REVERSED_NOTE_BOX_ROOM: f64 = 9.0;

impl Context<'_> {
    /// Per slot (1-based, like the positions): how far left and right of
    /// its lifeline the reversed notes over it reach, with their room to a
    /// box outline (before the box's inset). Only notes whose pair a box
    /// edge separates count.
    pub(super) fn reversed_note_reach(&self, events: &[Event], prepared: &[Prepared], n: usize) -> Vec<(f64, f64)> {
        let mut reach = vec![(0.0_f64, 0.0_f64); n + 2];
        for (event, prep) in events.iter().zip(prepared) {
            let (Event::Note(note), Prepared::Note(block)) = (event, prep) else {
                continue;
            };
            let NotePosition::Over {
                first,
                last: Some(last),
            } = note.position
            else {
                continue;
            };
            let (Some(right), Some(left)) = (self.slot(first), self.slot(last)) else {
                continue;
            };
            if right <= left || !self.box_edge_between(left, right) {
                continue;
            }
            let heads = (self.heads[last.index()].right + self.heads[first.index()].left) / 2.0;
            let half = note_size(note.shape, block, &self.theme).0 / 2.0 + heads + REVERSED_NOTE_BOX_ROOM - BOX_INSET;
            if let Some(entry) = reach.get_mut(left + 1) {
                entry.1 = entry.1.at_least(half);
            }
            if let Some(entry) = reach.get_mut(right + 1) {
                entry.0 = entry.0.at_least(half);
            }
        }
        reach
    }

    /// Whether a box ends on slot `left` or starts on slot `right` (0-based),
    /// with `left < right`: a box edge lies between them.
    fn box_edge_between(&self, left: usize, right: usize) -> bool {
        self.box_spans
            .iter()
            .any(|span| (span.last >= left && span.last < right) || (span.first > left && span.first <= right))
    }
}
