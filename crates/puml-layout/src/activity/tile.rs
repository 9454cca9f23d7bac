//! Tiles (a laid-out node: items, size, entry and exit) and the drawing primitives they are made of.

use super::*;

/// A laid-out node or sequence in local coordinates (top-left at 0,0).
#[derive(Debug, Clone)]
pub(super) struct Tile {
    pub(super) items: Vec<Item>,
    pub(super) w: f64,
    pub(super) h: f64,
    /// The x a sequence aligns with its neighbours' anchors.
    pub(super) anchor: f64,
    /// Where the incoming edge ends.
    pub(super) in_x: f64,
    pub(super) in_y: f64,
    /// Where the outgoing edge starts.
    pub(super) out_x: f64,
    pub(super) out_y: f64,
    /// Whether the flow continues below (not after `stop`, `kill`, …).
    pub(super) open: bool,
    /// Styles the edge leaving this tile (an arrow written at a sequence's end).
    pub(super) tail: Option<ArrowStyle>,
    /// How far a note reaches below `h`: what follows in a sequence keeps
    /// its gap from it, the end of a branch does not (PlantUML).
    pub(super) overhang: f64,
    /// Where each stacked part starts and ends (top, bottom), for a tile
    /// straight out of `stack`: the rows a `backward` action aligns with.
    pub(super) spans: Vec<(f64, f64)>,
    /// The x range an enclosing partition or group frames (inside its
    /// 10 px padding) when it is not `0..w`: PlantUML's frame wraps the
    /// tile's own dimension, which differs from what it draws (a
    /// two-branch `if` keeps 2 px beyond its branches on either side).
    pub(super) frame: Option<(f64, f64)>,
    /// How far PlantUML's tile reaches above its top without drawing
    /// there: an enclosing frame counts it as it counts shapes drawn above.
    pub(super) head_room: f64,
    /// The x range PlantUML's own dimension spans when it is not `0..w`:
    /// a label beside an `if`'s diamond lies in the 10 px margin PlantUML
    /// keeps beyond the branches, and only what reaches past it widens
    /// the tile a `fork` centres its flow on.
    pub(super) dimension: Option<(f64, f64)>,
    /// Where an enclosing frame's content ends when it is not `h` plus
    /// the overhang: PlantUML's `repeat` keeps 8 px under its condition
    /// for a `not` label, which hangs lower without pushing the frame.
    pub(super) frame_bottom: Option<f64>,
}

impl Tile {
    pub(super) fn empty() -> Tile {
        Tile {
            items: Vec::new(),
            w: 0.0,
            h: 0.0,
            anchor: 0.0,
            in_x: 0.0,
            in_y: 0.0,
            out_x: 0.0,
            out_y: 0.0,
            open: true,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
            frame_bottom: None,
        }
    }

    /// A tile of one shape `w × h` whose edges meet its middle.
    pub(super) fn shape(items: Vec<Item>, w: f64, h: f64) -> Tile {
        Tile {
            items,
            w,
            h,
            anchor: w / 2.0,
            in_x: w / 2.0,
            in_y: 0.0,
            out_x: w / 2.0,
            out_y: h,
            open: true,
            tail: None,
            overhang: 0.0,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
            frame_bottom: None,
        }
    }

    /// The x range PlantUML's dimension spans (see [`Tile::dimension`]).
    pub(super) fn dimensioned(&self) -> (f64, f64) {
        self.dimension.unwrap_or((0.0, self.w))
    }

    /// The x range an enclosing frame wraps (see [`Tile::frame`]).
    pub(super) fn framed(&self) -> (f64, f64) {
        self.frame.unwrap_or((0.0, self.w))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.items.is_empty() && self.h == 0.0
    }

    /// Moves the tile's items by `(dx, dy)` into `out`.
    pub(super) fn place(self, dx: f64, dy: f64, out: &mut Vec<Item>) {
        let mut items = self.items;
        if dx != 0.0 || dy != 0.0 {
            for item in &mut items {
                shift_item(item, dx, dy);
            }
        }
        out.extend(items);
    }
}

/// The x range covered by `items`, if any.
pub(super) fn items_x_range(items: &[Item]) -> Option<(f64, f64)> {
    items
        .iter()
        .filter_map(item_x_range)
        .fold(None, |acc, (a, b)| match acc {
            None => Some((a, b)),
            Some((lo, hi)) => Some((lo.min(a), hi.max(b))),
        })
}

pub(super) fn items_y_range(items: &[Item]) -> Option<(f64, f64)> {
    items
        .iter()
        .filter_map(item_y_range)
        .fold(None, |acc, (a, b)| match acc {
            None => Some((a, b)),
            Some((lo, hi)) => Some((lo.min(a), hi.max(b))),
        })
}

/// Draws an orthogonal polyline with a filled head at its last point.
pub(super) fn polyline(out: &mut Vec<Item>, pts: &[(f64, f64)], st: Option<Stroke>, head: bool) {
    let Some(st) = st else { return };
    for pair in pts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if (a.0 - b.0).abs() > 1e-9 || (a.1 - b.1).abs() > 1e-9 {
            line(out, a.0, a.1, b.0, b.1, st);
        }
    }
    if head {
        if let [.., a, b] = pts {
            arrow_head(out, *a, *b, st.color);
        }
    }
}

/// PlantUML's activity arrow head: 10 long, 8 wide, notched at 6.
fn arrow_head(out: &mut Vec<Item>, from: (f64, f64), tip: (f64, f64), color: Color) {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-9 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let back = (tip.0 - 10.0 * ux, tip.1 - 10.0 * uy);
    let notch = (tip.0 - 6.0 * ux, tip.1 - 6.0 * uy);
    let (px, py) = (-uy * 4.0, ux * 4.0);
    polygon(
        out,
        &[(back.0 + px, back.1 + py), tip, (back.0 - px, back.1 - py), notch],
        paint(Some(color), Some(stroke(color, 1.0))),
    );
}

/// A head pointing along a vertical segment, its tip at the segment's middle.
pub(super) fn mid_head(out: &mut Vec<Item>, x: f64, y1: f64, y2: f64, st: Option<Stroke>) {
    if let Some(st) = st {
        let mid = (y1 + y2) / 2.0;
        let dir = if y2 >= y1 { 1.0 } else { -1.0 };
        arrow_head(out, (x, mid - 10.0 * dir), (x, mid + 5.0 * dir), st.color);
    }
}

/// An arrow head pointing from `y1` towards `y2` with its tip at their
/// middle (PlantUML's head on a loop's way back, before compression).
pub(super) fn mid_head_tip(out: &mut Vec<Item>, x: f64, y1: f64, y2: f64, st: Option<Stroke>) {
    if let Some(st) = st {
        let mid = (y1 + y2) / 2.0;
        let dir = if y2 >= y1 { 1.0 } else { -1.0 };
        arrow_head(out, (x, mid - 10.0 * dir), (x, mid), st.color);
    }
}

impl Tile {
    /// Moves what reaches above the tile's top (a tall note centred on its
    /// first step) into it: PlantUML starts an `if` branch under such a
    /// note (probes `if_note_first_*`).
    pub(super) fn lowered_under_reach(mut self) -> Tile {
        let lo = items_y_range(&self.items).map_or(0.0, |(lo, _)| lo);
        if lo < -1e-6 {
            for item in &mut self.items {
                shift_item(item, 0.0, -lo);
            }
            self.h -= lo;
            self.in_y -= lo;
            self.out_y -= lo;
            for span in &mut self.spans {
                span.0 -= lo;
                span.1 -= lo;
            }
        }
        self
    }

    /// Keeps `out_y` within the tile.
    pub(super) fn pad_bottom(mut self) -> Tile {
        self.h = self.h.max(self.out_y);
        self
    }
}

impl Ctx<'_> {
    /// Draws `d` with its top-left at `(x, y)`.
    pub(super) fn draw_diamond(&self, out: &mut Vec<Item>, d: &Diamond, x: f64, y: f64, fill: Option<Color>) {
        let mid = y + d.h / 2.0;
        let border = Some(stroke(self.style.diamond_border, self.style.diamond_line));
        let p = match fill {
            Some(inline) => paint(Some(inline), border),
            None => fading(self.style.diamond_bg, self.style.diamond_gradient, border),
        }
        .shadowed(self.style.shadows);
        if d.text.is_some() {
            polygon(
                out,
                &[
                    (x + DIAMOND_HALF, y),
                    (x + d.w - DIAMOND_HALF, y),
                    (x + d.w, mid),
                    (x + d.w - DIAMOND_HALF, y + d.h),
                    (x + DIAMOND_HALF, y + d.h),
                    (x, mid),
                ],
                p,
            );
        } else {
            polygon(
                out,
                &[(x + d.w / 2.0, y), (x + d.w, mid), (x + d.w / 2.0, y + d.h), (x, mid)],
                p,
            );
        }
        if let Some(t) = &d.text {
            let tx = x + (d.w - t.width) / 2.0;
            t.draw(
                tx,
                y + (d.h - t.height) / 2.0,
                Align::Left,
                self.style.diamond_font_color,
                out,
            );
        }
    }

    /// A label whose bottom-left is at `(x, y)` (above a line).
    pub(super) fn draw_label_above(&self, out: &mut Vec<Item>, label: &Option<TextBlock>, x: f64, line_y: f64) {
        if let Some(l) = label {
            l.draw(x, line_y - l.height, Align::Left, self.style.arrow_font_color, out);
        }
    }

    pub(super) fn draw_label_at(&self, out: &mut Vec<Item>, label: &Option<TextBlock>, x: f64, top: f64) {
        if let Some(l) = label {
            l.draw(x, top, Align::Left, self.style.arrow_font_color, out);
        }
    }

    pub(super) fn stroke_for(&self, arrow: Option<&ArrowStyle>) -> Option<Stroke> {
        self.style.edge_stroke(arrow)
    }

    /// The vertical room an edge takes: 20 px, more with a label.
    pub(super) fn gap(&self, arrow: Option<&ArrowStyle>) -> f64 {
        self.label(arrow.and_then(|a| a.label.as_deref()))
            .map_or(GAP, |l| self.labelled_gap(&l))
    }

    /// The room of an edge holding `label`: PlantUML keeps 26 px plus the
    /// label's font descent under the label's height, at most 30 px
    /// (28.593 at the default 11 px; observed for arrow labels of 8 to 30
    /// px, probes deco_arrow_font_*).
    pub(super) fn labelled_gap(&self, label: &TextBlock) -> f64 {
        let descent = self.metrics.descent(&self.style.arrow_font);
        (label.height + (26.0 + descent).min(30.0)).max(GAP)
    }

    /// How far below the edge's start its label's top is: 8.5 px plus the
    /// font's descent (11.09 at the default 11 px; probes
    /// deco_arrow_font_*).
    pub(super) fn label_drop(&self) -> f64 {
        LABEL_DROP + self.metrics.descent(&self.style.arrow_font)
    }

    /// An edge styled by `arrow`, its label beside its first segment.
    pub(super) fn edge(&self, out: &mut Vec<Item>, pts: &[(f64, f64)], arrow: Option<&ArrowStyle>, head: bool) {
        let st = self.stroke_for(arrow);
        polyline(out, pts, st, head);
        if st.is_none() {
            return;
        }
        let label = self.label(arrow.and_then(|a| a.label.as_deref()));
        if let (Some(l), Some(first)) = (label, pts.first()) {
            l.draw(
                first.0 + LABEL_DX,
                first.1 + self.label_drop(),
                Align::Left,
                self.style.arrow_font_color,
                out,
            );
        }
    }
}
