//! Placing actions and the notes beside them.

use super::*;

impl Ctx<'_> {
    pub(super) fn action_tile(&self, action: &Action) -> Tile {
        let block = self.wrapped_text(&action.text, self.style.action_font, self.style.action_max_width);
        let pad = self.style.action_pad;
        let (w, h) = (block.width + 2.0 * pad, block.height + 2.0 * pad);
        let mut items = Vec::new();
        let fill = action
            .color
            .as_deref()
            .and_then(parse_color)
            .map_or((self.style.action_bg, self.style.action_gradient), |inline| {
                (inline, None)
            });
        self.draw_action_shape(&mut items, action.shape, 0.0, 0.0, w, h, fill);
        block.draw(pad, pad, Align::Left, self.style.action_font_color, &mut items);
        let mut t = Tile::shape(items, w, h);
        if let Some(st) = action.stereotype.as_deref().filter(|s| !s.trim().is_empty()) {
            // `<<stereo>>` is drawn above the text, inside the box.
            let sblock = self.text(&format!("«{}»", st.trim()), self.style.action_font.italic());
            let mut items = Vec::new();
            let w2 = w.max(sblock.width + 2.0 * pad);
            let h2 = h + sblock.height;
            self.draw_action_shape(&mut items, action.shape, 0.0, 0.0, w2, h2, fill);
            sblock.draw(
                (w2 - sblock.width) / 2.0,
                pad,
                Align::Center,
                self.style.action_font_color,
                &mut items,
            );
            block.draw(
                (w2 - block.width) / 2.0,
                pad + sblock.height,
                Align::Left,
                self.style.action_font_color,
                &mut items,
            );
            t = Tile::shape(items, w2, h2);
        }
        t
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_action_shape(
        &self,
        out: &mut Vec<Item>,
        shape: ActionShape,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: (Color, Option<Gradient>),
    ) {
        let p = fading(
            fill.0,
            fill.1,
            Some(stroke(self.style.action_border, self.style.action_line)),
        )
        .shadowed(self.style.shadows);
        let mid = y + h / 2.0;
        match shape {
            ActionShape::Plain => rect(out, x, y, w, h, self.style.action_radius, p),
            ActionShape::Square => rect(out, x, y, w, h, 0.0, p),
            ActionShape::Box => {
                rect(out, x, y, w, h, 0.0, p);
                let s = stroke(self.style.action_border, self.style.action_line);
                line(out, x + 5.0, y, x + 5.0, y + h, s);
                line(out, x + w - 5.0, y, x + w - 5.0, y + h, s);
            }
            ActionShape::Receive => polygon(
                out,
                &[(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x + 10.0, mid)],
                p,
            ),
            ActionShape::Send => polygon(
                out,
                &[
                    (x, y),
                    (x + w - 10.0, y),
                    (x + w, mid),
                    (x + w - 10.0, y + h),
                    (x, y + h),
                ],
                p,
            ),
            ActionShape::Slant => polygon(out, &[(x + 10.0, y), (x + w, y), (x + w - 10.0, y + h), (x, y + h)], p),
            ActionShape::Brace => polygon(
                out,
                &[
                    (x + 10.0, y),
                    (x + w - 10.0, y),
                    (x + w, mid),
                    (x + w - 10.0, y + h),
                    (x + 10.0, y + h),
                    (x, mid),
                ],
                p,
            ),
        }
    }

    /// Puts notes beside a tile (a leaf's notes point at it).
    pub(super) fn with_notes(&self, mut tile: Tile, notes: &[&ActivityNote], leaf: bool, after_action: bool) -> Tile {
        let mut right_y = 0.0_f64;
        let mut left_y = 0.0_f64;
        let mut right_items = Vec::new();
        let mut left_items = Vec::new();
        let mut right_w = 0.0_f64;
        let mut left_w = 0.0_f64;
        let mut total_h = tile.h;
        // The element the notes point at: a leaf's whole box, a block's top.
        let (ex1, ecy) = if leaf { (tile.w, tile.h / 2.0) } else { (tile.w, 12.0) };
        for note in notes {
            let block = match self.style.note_max_width {
                Some(_) => self.wrapped_text(&note.text, self.style.note_font, self.style.note_max_width),
                None => creole::measure_lines(creole::parse_block(&note.text), self.style.note_font, self.metrics),
            };
            let nw = block.width + 21.0;
            let nh = block.height + 10.0;
            let fill = note
                .color
                .as_deref()
                .and_then(|c| Some((parse_color(c)?, parse_gradient(c))))
                .unwrap_or((self.style.note_bg, self.style.note_gradient));
            let right = note.position == ActivityNotePosition::Right;
            let (items, y) = if right {
                (&mut right_items, &mut right_y)
            } else {
                (&mut left_items, &mut left_y)
            };
            let top = if *y == 0.0 && leaf { ecy - nh / 2.0 } else { *y };
            let pointer = (!note.floating && *y == 0.0).then_some(ecy);
            let x = if right { ex1 + NOTE_GAP } else { -NOTE_GAP - nw };
            self.draw_note(items, x, top, nw, nh, fill, pointer, right);
            block.draw(x + 6.0, top + 5.0, Align::Left, self.style.note_font_color, items);
            *y = top + nh + 10.0;
            total_h = total_h.max(top + nh);
            if right {
                right_w = right_w.max(NOTE_GAP + nw);
            } else {
                left_w = left_w.max(NOTE_GAP + nw);
            }
        }
        // Notes reaching above the element push it down.
        let min_top = items_y_range(&right_items)
            .into_iter()
            .chain(items_y_range(&left_items))
            .map(|r| r.0)
            .fold(0.0_f64, f64::min);
        // A note may reach into the gap above (PlantUML centers it on the
        // element); below, what follows keeps its distance from the note.
        // After an action or `start` it reaches 10 px at most, what it
        // reaches further pushing the element down (PlantUML 1.2026.8,
        // `note_tall_*`; seed 001's workflows, notes of four lines after
        // `start`);
        // elsewhere one reaching further up than the gap pushes it down
        // entirely.
        let dy = if self.notes_uncompressed.get() {
            -min_top
        } else if after_action {
            (-min_top - NOTE_REACH_ABOVE).max(0.0)
        } else if -min_top > GAP {
            -min_top
        } else {
            0.0
        };
        let mut items = std::mem::take(&mut tile.items);
        items.extend(right_items);
        items.extend(left_items);
        for item in &mut items {
            shift_item(item, left_w, dy);
        }
        Tile {
            items,
            w: tile.w + left_w + right_w,
            h: tile.h + dy,
            overhang: (total_h - tile.h).max(tile.overhang),
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
            frame_bottom: None,
            anchor: tile.anchor + left_w,
            in_x: tile.in_x + left_w,
            in_y: tile.in_y + dy,
            out_x: tile.out_x + left_w,
            out_y: tile.out_y + dy,
            open: tile.open,
            tail: tile.tail,
        }
        .pad_bottom()
    }

    /// A note written after `endif`: PlantUML draws it without a pointer in
    /// the gap above the diamond, from the diamond's right point (up to its
    /// left point when the bypass runs right), reaching 10 px into the gap
    /// and moving the diamond down to its bottom (probes `if_note_*`).
    pub(super) fn note_above_if(&self, tile: Tile, note: &ActivityNote, diamond_w: f64, left: bool) -> Tile {
        let block = creole::measure_lines(creole::parse_block(&note.text), self.style.note_font, self.metrics);
        let (nw, nh) = (block.width + 21.0, block.height + 10.0);
        let fill = note
            .color
            .as_deref()
            .and_then(|c| Some((parse_color(c)?, parse_gradient(c))))
            .unwrap_or((self.style.note_bg, self.style.note_gradient));
        let drop = (nh - 10.0).max(0.0);
        let x = if left {
            tile.in_x - diamond_w / 2.0 - nw
        } else {
            tile.in_x + diamond_w / 2.0
        };
        let dx = (-x).max(0.0);
        let mut items = tile.items;
        for item in &mut items {
            shift_item(item, dx, drop);
        }
        self.draw_note(&mut items, x + dx, drop - nh, nw, nh, fill, None, true);
        block.draw(
            x + dx + 6.0,
            drop - nh + 5.0,
            Align::Left,
            self.style.note_font_color,
            &mut items,
        );
        let w = (tile.w + dx).max(x + dx + nw);
        Tile {
            items,
            w,
            h: tile.h + drop,
            anchor: tile.anchor + dx,
            in_x: tile.in_x + dx,
            in_y: tile.in_y + drop,
            out_x: tile.out_x + dx,
            out_y: tile.out_y + drop,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: None,
            frame_bottom: None,
            ..tile
        }
    }

    /// A note body with its folded corner and, unless floating, a pointer
    /// toward the element at height `pointer`.
    fn draw_note(
        &self,
        out: &mut Vec<Item>,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: (Color, Option<Gradient>),
        pointer: Option<f64>,
        right: bool,
    ) {
        let p = fading(
            fill.0,
            fill.1,
            Some(stroke(self.style.note_border, self.style.note_line)),
        );
        let mut path = PathBuilder::new().move_to(x, y);
        match pointer {
            Some(py) if right => {
                let py = py.clamp(y + 4.0, y + h - 4.0);
                path = path
                    .line_to(x, py - 4.0)
                    .line_to(x - NOTE_GAP, py)
                    .line_to(x, py + 4.0)
                    .line_to(x, y + h)
                    .line_to(x + w, y + h)
                    .line_to(x + w, y + 10.0)
                    .line_to(x + w - 10.0, y);
            }
            Some(py) => {
                let py = py.clamp(y + 4.0, y + h - 4.0);
                path = path
                    .line_to(x, y + h)
                    .line_to(x + w, y + h)
                    .line_to(x + w, py + 4.0)
                    .line_to(x + w + NOTE_GAP, py)
                    .line_to(x + w, py - 4.0)
                    .line_to(x + w, y + 10.0)
                    .line_to(x + w - 10.0, y);
            }
            None => {
                path = path
                    .line_to(x, y + h)
                    .line_to(x + w, y + h)
                    .line_to(x + w, y + 10.0)
                    .line_to(x + w - 10.0, y);
            }
        }
        // The body casts PlantUML's shadow, the fold does not.
        path.line_to(x, y).close().push(out, p.shadowed(self.style.shadows));
        PathBuilder::new()
            .move_to(x + w - 10.0, y)
            .line_to(x + w - 10.0, y + 10.0)
            .line_to(x + w, y + 10.0)
            .line_to(x + w - 10.0, y)
            .close()
            .push(out, p);
    }
}
