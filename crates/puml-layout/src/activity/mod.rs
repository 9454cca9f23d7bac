//! Activity diagram layout: model → one scene.
//!
//! PlantUML lays activity diagrams out without Graphviz, as nested "tiles"
//! stacked top to bottom; so does this module. The flat step list of the
//! model is first rebuilt into a tree with an explicit stack (blocks nested
//! deeper than [`MAX_DEPTH`] are flattened: their inner steps are drawn in
//! sequence, without the block's own shapes, and no diagnostic is raised),
//! then every node becomes a [`Tile`]: its items in local coordinates, its
//! size, where the incoming edge ends and where the outgoing edge starts.
//! A sequence stacks tiles 20 px apart on a common axis; branches sit side
//! by side; edges are orthogonal polylines. Recursion over the tree is
//! bounded by [`MAX_DEPTH`], so no input can exhaust the call stack.
//!
//! Sizes, paddings, colours and fonts are the ones PlantUML 1.2026.8 draws
//! (read from its SVGs of small probe diagrams): actions are 12 px text in
//! a box padded by 10 with 12.5 px corners, diamonds 24 px high with 11 px
//! text, notes 13 px text, swimlane headers 18 px, partitions 14 px.
#![allow(clippy::too_many_arguments)]

use crate::color::{parse_color, parse_gradient};
use crate::creole::{self, Align, TextBlock};
use crate::font::TextMeasure;
use crate::scene::{round3, Color, Font, FontFamily, Gradient, Item, Scene, Stroke, TextRun};
use crate::sequence::{item_x_range, item_y_range, shift_item};
use crate::shapes::{ellipse, fading, line, paint, polygon, rect, stroke, PathBuilder};
use crate::theme::{Sides, TextElement, Theme};
use crate::LayoutOptions;
use puml_sema::activity::{
    Action, ActionShape, ActivityDiagram, ActivityNote, ActivityNotePosition, ArrowStyle, ContainerKind, LaneId, Step,
};
use puml_sema::model::{Diagram, HorizontalAlign, VerticalAlign};

mod action;
mod branch;
mod compress;
mod container;
mod fork;
mod lanes;
mod loops;
mod measure;
mod page;
mod stack;
mod style;
mod switch;
mod tile;
mod tree;

use compress::*;
use measure::*;
use style::*;
use tile::*;
use tree::*;

/// Blocks nested deeper than this are flattened (see the module docs).
pub const MAX_DEPTH: usize = 48;

/// Vertical distance between two stacked tiles (the arrow's length).
const GAP: f64 = 20.0;
/// Padding around an action's text.
const ACTION_PAD: f64 = 10.0;
const ACTION_RADIUS: f64 = 12.5;
/// Half the height of a diamond (and its horizontal point's inset).
const DIAMOND_HALF: f64 = 12.0;
/// PlantUML's room between two tiles of a sequence before its vertical
/// compression, which closes it to [`GAP`] under the arrow head.
const UNCOMPRESSED_GAP: f64 = 35.0;
/// Half the room PlantUML's `repeat` keeps above and below its body before
/// the vertical compression (four hexagon halves each side).
const UNCOMPRESSED_REPEAT_ROOM: f64 = 24.0;
/// How far a bypass or loop line runs outside what it goes around.
const LOOP_MARGIN: f64 = 12.0;
/// Room a repeat loop keeps left of its shapes.
const REPEAT_LEFT_ROOM: f64 = 9.0;
/// What PlantUML's `repeat` keeps under its condition for a `not` label,
/// in the dimension an enclosing frame wraps.
const REPEAT_NOT_LABEL_ROOM: f64 = 8.0;
/// How much further below its body a repeat with a backward action draws
/// its condition.
const REPEAT_BACKWARD_DROP: f64 = 10.0;
/// Space between branches placed side by side.
const BRANCH_GAP: f64 = 20.0;
const FORK_GAP: f64 = 10.0;
/// The width an `elseif` chain without `else` counts for the missing column
/// when centring the flow (observed, PlantUML 1.2026.8).
const EMPTY_ELSE_W: f64 = 25.27;
/// How far a note centred on its element may reach into the gap above.
const NOTE_REACH_ABOVE: f64 = 10.0;
/// What a step half-way between two steps of a parallel branch adds to their gap.
const RANK_EXTRA: f64 = 15.0;
/// What a lone branch's middle gap may gain beyond [`RANK_EXTRA`] before
/// the difference of its halves' heights takes it back (`layout_lone_branch`).
const LONE_BALANCE: f64 = 2.5;
/// How far the flow between two side-by-side columns keeps from the one it
/// did not come through.
const FLOW_CLEARANCE: f64 = 21.0;
const SPLIT_GAP: f64 = 28.0;
/// A fork bar reaches this far past its outer branches before the
/// page-wide compression (`compress`), which closes the room inside its
/// 2 px ends to 10 px where nothing above or below holds it open; an
/// `if`'s line running over it does (corpus activity 025/026, an `if`
/// holding a `fork` in an `else`; `test-data/render/activity/fork`).
const BAR_OVERHANG: f64 = 14.0;
const BAR_HEIGHT: f64 = 6.0;
/// From an element to the note beside it (the note's pointer spans it).
const NOTE_GAP: f64 = 20.0;
/// An arrow label starts this far right of the line, this far plus its
/// font's descent below its start.
const LABEL_DX: f64 = 4.0;
const LABEL_DROP: f64 = 8.5;
/// A labelled arrow into another lane's column: its label this far below
/// its start, its turn across this far below the label's bottom.
const CROSS_LABEL_DY: f64 = 5.549;
const CROSS_LABEL_ROOM: f64 = 9.455;
/// Where the whole drawing starts, and the margin right of and below it.
const ORIGIN_X: f64 = 16.0;
const ORIGIN_Y: f64 = 15.0;
const LANE_ORIGIN_X: f64 = 20.0;
const LANE_ORIGIN_Y: f64 = 17.745;
const END_MARGIN: f64 = 19.0;
const LANE_END_MARGIN: f64 = 28.0;
/// A container frame: the room above its tab and below its content.
const FRAME_OUTSIDE: f64 = 10.0;
const FRAME_PAD_X: f64 = 10.0;
/// PlantUML keeps this much room left of a condition diamond at a tile's
/// edge, and right of an `if`'s bypass line; around a `while` loop's lines.
const NUDE_PAD_LEFT: f64 = 9.0;
const NUDE_PAD_RIGHT: f64 = 16.0;
/// How far a swimlane holds room beyond a lone branch's bypass line or a
/// loop's line back on the left (probes `lanes_inner_*`).
const LANE_BYPASS_ROOM: f64 = 13.0;
/// `normalize` without extra room.
const NO_REACH: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);
/// How far a partition's frame reaches beyond a two-branch `if`'s branches
/// before the page-wide compression, which closes it to 2 px where nothing
/// else on the page holds it (probes `if_else_*_d4_*`: a partition 12 px
/// from the boxes; corpus activity 009: 20 px above a wider flow).
const IF_FRAME_ROOM: f64 = 10.0;
/// How far PlantUML's own dimension of a two-branch `if` (what a frame wraps
/// once the compression closed `IF_FRAME_ROOM`) or of a `split` reaches past
/// its branches.
const IF_DIMENSION_ROOM: f64 = 2.0;
/// The room a two-branch `if` opening an `else` keeps on its left.
const NESTED_IF_ROOM: f64 = 10.0;
/// How much lower than a straight branch a lone `if` branch whose entry
/// is off its axis (an `elseif` chain) starts, for the turn.
const LONE_DOGLEG_DROP: f64 = 7.3;
/// How far PlantUML's `elseif` chain reaches above its first diamond.
const ELSEIF_HEAD_ROOM: f64 = 10.0;
const WHILE_PAD_LEFT: f64 = 13.0;
const WHILE_PAD_RIGHT: f64 = 15.25;

pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let empty = ActivityDiagram::default();
    let activity = diagram.activity.as_deref().unwrap_or(&empty);
    let theme = Theme::for_settings(&diagram.settings, options.theme.as_deref());
    let theme_name = options.theme.as_deref().or(diagram.settings.theme.as_deref());
    let style = Style::new(&theme, diagram, theme_name);
    let ctx = Ctx {
        style,
        metrics,
        theme: &theme,
        beside_branch: std::cell::Cell::new(false),
        extras_beside_rows: std::cell::Cell::new(false),
        inside_while_or_if: std::cell::Cell::new(false),
        notes_uncompressed: std::cell::Cell::new(false),
        rows_closed_outside: std::cell::Cell::new(false),
        if_rows_closed_outside: std::cell::Cell::new(false),
        rows_held_beside: std::cell::RefCell::new(Vec::new()),
        first_step_after_shape: std::cell::Cell::new(false),
        first_after_action: std::cell::Cell::new(false),
        lane_marks: std::cell::Cell::new(false),
        repeat_end_lane: std::cell::Cell::new(None),
        rows_uncompressed: std::cell::Cell::new(false),
        bypass_left: std::cell::Cell::new(false),
        loop_if_middle_extra: std::cell::Cell::new(None),
        then_beside_else: std::cell::Cell::new(false),
        else_beside_then: std::cell::Cell::new(false),
        breaks_out_of_repeat: std::cell::Cell::new(false),
    };
    let tree = build_tree(activity);
    let body = if activity.lanes.is_empty() {
        // Nothing reaches above the drawing's top: a note beside a first
        // action without `start` moves it down (PlantUML draws the note
        // from the top).
        let mut body = ctx.layout_seq(&tree, 0).lowered_under_reach();
        compress_x(&mut body);
        body
    } else {
        let mut body = ctx.layout_lanes(activity, &tree);
        strip_marks(&mut body.items);
        body
    };
    vec![ctx.finish(diagram, body, !activity.lanes.is_empty())]
}

/// What every construct's placement reads: the look, the text measure, the theme.
struct Ctx<'m> {
    style: Style,
    metrics: &'m dyn TextMeasure,
    theme: &'m Theme,
    /// Set while an `if` branch with a non-empty branch beside it is laid
    /// out: the other branch covers the rows under a `fork`'s bar, so
    /// PlantUML's page-wide vertical compression leaves the partitions
    /// opening the fork's branches 20 px under the bar instead of 10
    /// (probes `if_fork_partitions_*`, corpus activity 009).
    beside_branch: std::cell::Cell<bool>,
    /// Set just before laying out a branch of an `if` holding a `fork`,
    /// whose gaps' extra room comes from the other branch's rows: a note
    /// hanging below a step then adds to that room rather than taking it
    /// up (probes `if_note_rows_*`, corpus activity 025/026; beside a
    /// `fork`'s branches and a loop's line it takes it up). Taken by the
    /// next [`Ctx::layout_seq_spaced`].
    extras_beside_rows: std::cell::Cell<bool>,
    /// Set while the body of a `while` or a branch of an `if` is laid out
    /// (cleared inside a `repeat`): a plain `repeat` there gains 15 px in
    /// its body's middle gap, 7.5 elsewhere (probes `repeat_plain_mid_d{2,3}_*`,
    /// corpus activity 028).
    inside_while_or_if: std::cell::Cell<bool>,
    /// Set while a loop is laid out as PlantUML lays it out before its
    /// vertical compression (`Ctx::repeat_tile`): a note reaching above
    /// its step moves the step down all the way; the loop closes the rows
    /// nothing covers afterwards.
    notes_uncompressed: std::cell::Cell<bool>,
    /// Set while the body of a loop laid out before the vertical
    /// compression is laid out: a loop of actions in it is laid out so too
    /// and leaves closing the rows to the outermost one, whose lines and
    /// heads hold rows of the inner loop open (probes
    /// `nested_note_loop_*_in_while_*`, `while_exit_*_d2_*`).
    rows_closed_outside: std::cell::Cell<bool>,
    /// Set while the branches of a two-branch `if` of actions and such
    /// `if`s are laid out as PlantUML lays them out before its vertical
    /// compression (`Ctx::if_tile`): an `if` nested in them is laid out so
    /// too and leaves closing the rows to the outermost one.
    if_rows_closed_outside: std::cell::Cell<bool>,
    /// Set just before laying out an `if` branch that opens with a loop:
    /// the rows (from the branch's top) the other branch covers, which
    /// that loop's closing of rows keeps open, as PlantUML's page-wide
    /// compression does (probes `nested_note_loop_repeat_in_if_else_*`).
    /// Taken by the next loop laid out.
    rows_held_beside: std::cell::RefCell<Vec<(f64, f64)>>,
    /// Set just before a `while` body with nothing on its exit line is
    /// laid out: its first step's note reaches 10 px into the gap above at
    /// most, as after an action (probes `loop_notes_while_*_bare`). Taken
    /// by the next sequence's first node.
    first_step_after_shape: std::cell::Cell<bool>,
    /// Set just before laying out a branch of an `if` across swimlanes:
    /// its first step's note reaches up as after an action (seed 001's
    /// `complete-example`). Taken by the next sequence laid out.
    first_after_action: std::cell::Cell<bool>,
    /// Set while a top-level block whose steps change swimlanes is laid
    /// out: each node's items are marked with its lane (`lanes.rs`), which
    /// then draws each in its lane's column.
    lane_marks: std::cell::Cell<bool>,
    /// Set (with `lane_marks`) just before a `repeat` is laid out whose
    /// `repeat while` is written in another lane: its condition is drawn
    /// there (probe `lanes_inner_repeat_mid`). Taken by `Ctx::repeat_tile`.
    repeat_end_lane: std::cell::Cell<Option<usize>>,
    /// Set (with `lane_marks`) just before an `if` whose branches change
    /// swimlanes is laid out: PlantUML does not close its rows, so its two
    /// branches start 20 px under the diamond and its merge 10 px under
    /// them (probes `lanes_inner_*`), not 10 and 6; an `if` inside them
    /// that keeps its lane closes its own (held-out
    /// `fibonacci-history-lanes`). Taken by `Ctx::if_tile`.
    rows_uncompressed: std::cell::Cell<bool>,
    /// Set (with `lane_marks`) just before a lone `then` or a `repeat`
    /// whose steps move to a lane on the right is laid out: PlantUML puts
    /// its bypass or way back left of the diamond, away from them (probes
    /// `lanes_inner_if_then_*`, `lanes_inner_repeat_*`). Taken by
    /// `Ctx::if_tile` and `Ctx::repeat_tile`.
    bypass_left: std::cell::Cell<bool>,
    /// Set just before a loop body that is one two-branch `if` is laid
    /// out: the extra room of the middle gap of its longest branch (an
    /// even count of rows), which the head on the loop's way back holds
    /// open in PlantUML's compression (probes `loop_if_middle_*`). Taken by
    /// the next `if` laid out.
    loop_if_middle_extra: std::cell::Cell<Option<f64>>,
    /// Set while the `then` branch of an `if` with a non-empty `else` is
    /// laid out: a `while` with an `is` label there keeps its body's
    /// middle gap 15 px wide, as without the label (probes
    /// `nested_note_loop_while_plain_in_if_else_*`). Taken by the next
    /// `while` laid out.
    then_beside_else: std::cell::Cell<bool>,
    /// Set while the `else` branch of an `if` with a non-empty `then` is
    /// laid out: a `while` without an `is` label there starts its body
    /// 4.3 px lower, as in such a `then` (probes `while_else_beside_then_*`).
    /// Taken by the next `while` laid out.
    else_beside_then: std::cell::Cell<bool>,
    /// Set while a `repeat`'s body is laid out (cleared in a `while`'s): a
    /// `break` there leaves a point for the repeat's way out
    /// (`Ctx::with_break_exit`); a `while`'s break needs none.
    breaks_out_of_repeat: std::cell::Cell<bool>,
}
