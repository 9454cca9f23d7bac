//! Placing partitions and groups.

use super::*;

/// How much of each side of a partition's or group's frame holds columns
/// apart in the page-wide compression.
const FRAME_SIDE: f64 = 2.0;
/// The blank a package keeps beside its frame.
const PACKAGE_BLANK_LEFT: f64 = 9.0;
const PACKAGE_BLANK_RIGHT: f64 = 10.0;
/// A partition (or any container) entered by a labelled arrow stands this
/// much higher than an action would (PlantUML 1.2026.8, probes
/// `label_container_into_*`).
const LABELLED_ENTRY_RISE: f64 = 8.148;
/// A labelled arrow leaving a container: its label starts this much higher
/// than under an action's bottom, counted from the frame's bottom, and the
/// next step stands this much closer (probes `label_container_after_*`).
const LABELLED_EXIT_LABEL_RISE: f64 = 3.594;
const LABELLED_EXIT_CLOSER: f64 = 2.188;

impl Ctx<'_> {
    pub(super) fn container_tile(
        &self,
        kind: ContainerKind,
        name: &str,
        color: Option<&str>,
        body: &Seq<'_>,
        depth: usize,
        extra: &[f64],
    ) -> Tile {
        let t = self.layout_seq_spaced(body, depth, extra);
        let partition = kind == ContainerKind::Partition;
        let (title_font, title_color, frame_color) = match kind {
            ContainerKind::Partition => (
                self.style.partition_font,
                self.style.partition_font_color,
                self.style.frame_color,
            ),
            ContainerKind::Group => (
                self.style.group_font,
                self.style.group_font_color,
                self.style.group_frame_color,
            ),
            _ => (self.style.frame_font, self.style.font_color, self.style.frame_color),
        };
        let title = self.text(name, title_font);
        let frame = stroke(frame_color, self.style.frame_line);
        let fill = color
            .and_then(parse_color)
            .or(if partition { self.style.partition_bg } else { None });
        let title_h = title.height + 3.0;
        let (head, centered) = match kind {
            ContainerKind::Partition | ContainerKind::Group => (title_h + 17.0, false),
            ContainerKind::Package => (title_h + 14.0 + 3.0, false),
            ContainerKind::Rectangle | ContainerKind::Card => (title_h + 17.0, true),
        };
        // A partition or group is as wide as its content or its title,
        // 10 px either side (PlantUML 1.2026.8); the other frames keep more
        // room beside the title.
        // What the frame wraps is the body's framed range (its drawing,
        // or PlantUML's dimension where that differs: `Tile::frame`).
        let (flo, fhi) = t.framed();
        let framed_w = fhi - flo;
        // A package is as wide as its content or its title, 10 px either
        // side, but keeps 9 px blank left of its frame and 10 right of it
        // (probes `package_widths_*`).
        let inner_w = if matches!(
            kind,
            ContainerKind::Partition | ContainerKind::Group | ContainerKind::Package
        ) {
            framed_w.max(title.width)
        } else {
            framed_w.max(title.width + if centered { 20.0 } else { 40.0 })
        };
        let fw = inner_w + 2.0 * FRAME_PAD_X;
        let body_x = FRAME_PAD_X + (inner_w - framed_w) / 2.0 - flo;
        let fy = -FRAME_OUTSIDE;
        // A body that reaches above its first step (a frame) may reach
        // 7 px into the header; PlantUML moves it down by the rest (probes
        // `partition_*_d4_*`, `group_*_d4_*`). A note beside a first action
        // reaching above it moves it down all the way (`note_*_d4_*`).
        let reach_up = items_y_range(&t.items).map_or(0.0, |(lo, _)| -lo).max(t.head_room);
        let noted_first_action = body
            .nodes
            .first()
            .is_some_and(|n| matches!(n.kind, Kind::Action(_)) && !n.notes.is_empty());
        let allowance = if noted_first_action { 0.0 } else { 7.0 };
        let sink = (reach_up - allowance).max(0.0);
        let body_top = fy + head + sink;
        // PlantUML leaves 12 px under a partition's or group's content, 20 under the others'.
        let below = match kind {
            ContainerKind::Partition | ContainerKind::Group => 12.0,
            _ => 20.0,
        };
        let fh = head + sink + t.frame_bottom.unwrap_or(t.h + t.overhang) + below;
        let mut items = Vec::new();
        let p = paint(fill, Some(frame));
        match kind {
            ContainerKind::Partition | ContainerKind::Group => {
                // PlantUML's frame holds columns apart by its 2 px sides
                // only: the padding inside and what lies under the tab close
                // up where nothing else on the page holds them (corpus
                // activity 009's forks of partitions), but a title wider
                // than what the frame holds keeps the frame's width (probes
                // `if_partition_first_short_*`).
                sides_only_for_compression(&mut items, FRAME_SIDE, FRAME_SIDE, |items| {
                    rect(items, 0.0, fy, fw, fh, self.style.frame_radius, p)
                });
                // The tab runs 10 px past the title's advance (its 3 px
                // indent included: probes `partition_*`, `group_*`).
                let tab_w = title.width + 10.0;
                let draw_tab = |items: &mut Vec<Item>| {
                    PathBuilder::new()
                        .move_to(tab_w, fy)
                        .line_to(tab_w, fy + title_h - 10.0)
                        .line_to(tab_w - 10.0, fy + title_h)
                        .line_to(0.0, fy + title_h)
                        .push(items, paint(None, Some(frame)));
                };
                ignored_for_compression(&mut items, |items| rigid_in_compression(items, draw_tab));
                if title.width > framed_w {
                    title.draw(3.0, fy + 1.0, Align::Left, title_color, &mut items);
                } else {
                    ignored_for_compression(&mut items, |items| {
                        title.draw(3.0, fy + 1.0, Align::Left, title_color, items)
                    });
                }
            }
            ContainerKind::Package => {
                let tab_w = title.width + 6.0;
                let tab_h = title_h + 3.0;
                polygon(
                    &mut items,
                    &[
                        (0.0, fy),
                        (tab_w, fy),
                        (tab_w + 7.0, fy + tab_h),
                        (fw, fy + tab_h),
                        (fw, fy + fh),
                        (0.0, fy + fh),
                    ],
                    p,
                );
                line(&mut items, 0.0, fy + tab_h, tab_w + 7.0, fy + tab_h, frame);
                title.draw(4.0, fy + 2.0, Align::Left, self.style.font_color, &mut items);
            }
            ContainerKind::Rectangle | ContainerKind::Card => {
                rect(&mut items, 0.0, fy, fw, fh, 0.0, p);
                if kind == ContainerKind::Card {
                    line(&mut items, 0.0, fy + title_h + 1.0, fw, fy + title_h + 1.0, frame);
                }
                title.draw(
                    (fw - title.width) / 2.0,
                    fy + 2.0,
                    Align::Center,
                    self.style.font_color,
                    &mut items,
                );
            }
        }
        let in_x = body_x + t.in_x;
        let t_anchor = t.anchor;
        let out_x = body_x + t.out_x;
        let (in_y, out_y, open, tail, empty) = (t.in_y, t.out_y, t.open, t.tail.clone(), t.is_empty());
        // What the body's labels keep out of PlantUML's dimension (see
        // `Tile::dimension`) stays out of the frame's (probes
        // `fork_partition_if_*`).
        let body_slack = t.dimension.map(|(lo, hi)| (lo.max(0.0), (t.w - hi).max(0.0)));
        t.place(body_x, body_top, &mut items);
        // The frame starts 10 px into the gap above it and ends at the tile's bottom.
        let h = fy + fh;
        let mut tile = Tile {
            items,
            w: fw,
            h,
            anchor: body_x + t_anchor,
            in_x,
            in_y: if empty { 0.0 } else { body_top + in_y },
            out_x,
            out_y: if empty { h } else { body_top + out_y },
            open,
            tail,
            overhang: 0.0,
            spans: Vec::new(),
            frame: None,
            head_room: 0.0,
            dimension: body_slack.map(|(lo, hi)| (lo, fw - hi)),
            frame_bottom: None,
        };
        if empty {
            tile.anchor = fw / 2.0;
            tile.in_x = fw / 2.0;
            tile.out_x = fw / 2.0;
        }
        // Items left of the frame (a body drawn beyond its framed range)
        // are part of the tile.
        if let Some((lo, hi)) = items_x_range(&tile.items) {
            let dx = (-lo).max(0.0);
            if dx > 0.0 {
                for item in &mut tile.items {
                    shift_item(item, dx, 0.0);
                }
                tile.anchor += dx;
                tile.dimension = tile.dimension.map(|(lo, hi)| (lo + dx, hi + dx));
                tile.in_x += dx;
                tile.out_x += dx;
            }
            tile.w = (tile.w + dx).max(hi + dx);
        }
        if kind == ContainerKind::Package {
            for item in &mut tile.items {
                shift_item(item, PACKAGE_BLANK_LEFT, 0.0);
            }
            let right = tile.w + PACKAGE_BLANK_LEFT;
            phantom_cover(&mut tile.items, 0.0, PACKAGE_BLANK_LEFT, fy);
            phantom_cover(&mut tile.items, right, right + PACKAGE_BLANK_RIGHT, fy);
            tile.w = right + PACKAGE_BLANK_RIGHT;
            tile.anchor += PACKAGE_BLANK_LEFT;
            tile.in_x += PACKAGE_BLANK_LEFT;
            tile.out_x += PACKAGE_BLANK_LEFT;
            tile.dimension = tile
                .dimension
                .map(|(lo, hi)| (lo + PACKAGE_BLANK_LEFT, hi + PACKAGE_BLANK_LEFT));
        }
        // Items above y = 0 (the frame's top) are part of the tile.
        let (lo, _) = items_y_range(&tile.items).unwrap_or((0.0, 0.0));
        if lo < fy - 0.5 {
            let dy = fy - lo;
            for item in &mut tile.items {
                shift_item(item, 0.0, dy);
            }
            tile.h += dy;
            tile.in_y += dy;
            tile.out_y += dy;
        }
        tile
    }
}

impl Ctx<'_> {
    /// `tile`, `node`'s, moved for the labelled arrows around it when `node`
    /// is a container: the one into it (when `entered` in its sequence, the
    /// step before in the same column) and the one out to `next` (in the
    /// same column too).
    pub(super) fn container_between_labels(
        &self,
        mut tile: Tile,
        node: &Node<'_>,
        entered: bool,
        next: Option<&Node<'_>>,
    ) -> Tile {
        if !matches!(node.kind, Kind::Container { .. }) {
            return tile;
        }
        let labelled = |arrow: Option<&ArrowStyle>| self.label(arrow.and_then(|a| a.label.as_deref())).is_some();
        if entered && labelled(node.arrow) {
            tile = self.container_entered_by_label(tile);
        }
        if let Some(next) = next.filter(|n| labelled(n.arrow)) {
            tile = self.container_left_by_label(tile, next.arrow);
        }
        tile
    }

    /// A container tile entered by a labelled arrow: raised into the gap
    /// above it, what follows with it.
    fn container_entered_by_label(&self, mut tile: Tile) -> Tile {
        for item in &mut tile.items {
            shift_item(item, 0.0, -LABELLED_ENTRY_RISE);
        }
        tile.h -= LABELLED_ENTRY_RISE;
        tile.in_y -= LABELLED_ENTRY_RISE;
        tile.out_y -= LABELLED_ENTRY_RISE;
        tile.frame_bottom = tile.frame_bottom.map(|b| b - LABELLED_ENTRY_RISE);
        tile
    }

    /// A container tile left by a labelled arrow: its way out runs on to
    /// just above the frame's bottom, where the arrow (and its label) start,
    /// and the next step stands a little closer.
    fn container_left_by_label(&self, mut tile: Tile, arrow: Option<&ArrowStyle>) -> Tile {
        let exit = tile.h - LABELLED_EXIT_LABEL_RISE;
        if !tile.open || exit <= tile.out_y {
            return tile;
        }
        polyline(
            &mut tile.items,
            &[(tile.out_x, tile.out_y), (tile.out_x, exit)],
            self.stroke_for(arrow),
            false,
        );
        tile.out_y = exit;
        tile.overhang = tile.overhang.min(0.0) - LABELLED_EXIT_CLOSER;
        tile
    }
}
