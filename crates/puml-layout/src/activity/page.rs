//! The page: the drawing with its decorations (title, legend, notices, …).

use super::*;

impl Ctx<'_> {
    /// The page: the drawing and its decorations (header, title, legend,
    /// caption, footer) stacked as PlantUML 1.2026.8 stacks them, observed
    /// one decoration at a time and all together: each is a block 1 px
    /// apart from the next, all centred in a column as wide as the widest
    /// (the drawing with 6 px left and 8 px right of it, the title with
    /// 10 px either side, the legend's frame with 12, the caption with 1),
    /// 10 px from the page's edges.
    pub(super) fn finish(&self, diagram: &Diagram, body: Tile, lanes: bool) -> Scene {
        // The drawing's own room is measured from PlantUML's default page
        // margin; a theme's margin (`page_margin`) moves everything.
        const PAGE_MARGIN: f64 = 10.0;
        let page_margin = self.style.page_margin;
        const BLOCK_GAP: f64 = 1.0;
        const TITLE_PAD: f64 = 10.0;
        let legend_margin = self.style.legend_margin;
        let caption_margin = self.style.caption_margin;
        let theme = self.theme;
        let deco = theme.font(10.0);
        let header = diagram
            .header
            .as_ref()
            .filter(|h| !h.text.trim().is_empty())
            .map(|h| (self.text(&h.text, deco), h.align));
        let title = diagram
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| self.text(t, theme.font_of(TextElement::Title, theme.title_font_size).bold()));
        let legend_font = theme.font_of(TextElement::Legend, 14.0);
        let legend_top = diagram
            .legend
            .as_ref()
            .filter(|l| l.vertical == Some(VerticalAlign::Top))
            .map(|l| (l, self.text(&l.text, legend_font)));
        let legend_bottom = diagram
            .legend
            .as_ref()
            .filter(|l| l.vertical != Some(VerticalAlign::Top))
            .map(|l| (l, self.text(&l.text, legend_font)));
        let caption = diagram
            .caption
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(|c| self.text(c, theme.font(14.0)));
        let footer = diagram
            .footer
            .as_ref()
            .filter(|f| !f.text.trim().is_empty())
            .map(|f| (self.text(&f.text, deco), f.align));
        let notices = self.deprecation_notices(diagram);

        // The drawing's own margins inside its block.
        let lane_shift = if lanes {
            // The lanes' top follows the header's descent (observed at 16,
            // 18 and 22 px): LANE_ORIGIN_Y is the default 18 px header's.
            let descent = |size: f64| {
                self.metrics.descent(&Font {
                    size,
                    ..self.style.lane_font
                })
            };
            descent(self.style.lane_font.size) - descent(18.0)
        } else {
            0.0
        };
        let (mut pad_left, pad_top, pad_right) = if lanes {
            (
                LANE_ORIGIN_X - PAGE_MARGIN,
                LANE_ORIGIN_Y + lane_shift - PAGE_MARGIN,
                LANE_END_MARGIN - PAGE_MARGIN - BLOCK_GAP,
            )
        } else {
            (
                ORIGIN_X - PAGE_MARGIN,
                ORIGIN_Y - PAGE_MARGIN,
                END_MARGIN - PAGE_MARGIN - BLOCK_GAP,
            )
        };
        let pad_bottom = END_MARGIN - PAGE_MARGIN - BLOCK_GAP;
        // PlantUML starts a drawing whose leftmost shape is a note or a
        // text (a branch label reaching past the diamond's left: probes
        // deco_branch_label_*, deco_default_font_16) 1 px further left.
        let note_left = body
            .items
            .iter()
            .filter_map(|i| item_x_range(i).map(|r| (r.0, matches!(i, Item::Path { .. } | Item::Text(_)))))
            .fold((f64::INFINITY, false), |acc, (x, is_note)| {
                if x < acc.0 - 0.001 {
                    (x, is_note)
                } else {
                    acc
                }
            });
        if note_left.1 && note_left.0 < 0.5 {
            pad_left -= 1.0;
        }
        // What reaches past the tile's right or bottom edge widens the
        // drawing; what reaches into the margin left or above stays there
        // (the page grows below when it would leave the page).
        // A shape casting a shadow reaches 6 px further right and down
        // (its offset and blur: observed with `skin rose`, `materia` and
        // `skinparam shadowing true`); a note's shadow adds nothing.
        let shadowed = |item: &Item| match item {
            Item::Rect { paint, .. } | Item::Polygon { paint, .. } | Item::Ellipse { paint, .. } => {
                paint.shadow.is_some()
            }
            _ => false,
        };
        let shadow_reach = |range: fn(&Item) -> Option<(f64, f64)>| {
            body.items
                .iter()
                .filter(|i| shadowed(i))
                .filter_map(range)
                .fold(f64::NEG_INFINITY, |acc, r| acc.max(r.1 + 6.0))
        };
        let hi = items_x_range(&body.items)
            .map_or(body.w, |r| r.1.max(body.w))
            .max(shadow_reach(item_x_range));
        let low = items_y_range(&body.items)
            .map_or(body.h, |r| r.1.max(body.h))
            .max(shadow_reach(item_y_range));
        let drawing_w = pad_left + hi + pad_right;
        let drawing_h = pad_top + low + pad_bottom;

        let legend_w = |(l, b): &(&puml_sema::model::Legend, TextBlock)| {
            let inner = self
                .legend_table(&l.text)
                .map_or(b.width, |t| t.cols.iter().sum::<f64>());
            inner + 2.0 * self.style.legend_padding + 2.0 * legend_margin
        };
        // A box of notices stands on the drawing, left-aligned with it in
        // one block (PlantUML: a drawing narrower than its notices is not
        // centred under them, but the block is centred under a title).
        let block_w = notices.as_ref().map_or(drawing_w, |n| drawing_w.max(n.width));
        // A theme's title stands in a frame: its padding inside, its margin
        // around (PlantUML 1.2026.8, `test-data/activity-themes`: 6 and 10
        // px with the bootstrap-like themes, 5 and 5 with aws-orange).
        let framed = theme.title_bg.is_some() || theme.title_border.is_some();
        let (title_margin, title_padding) = (self.style.title_margin, self.style.title_padding);
        let title_w = |b: &TextBlock| {
            if framed || self.style.title_spacing_set {
                b.width + title_padding.left + title_padding.right + title_margin.left + title_margin.right
            } else {
                b.width + 2.0 * TITLE_PAD
            }
        };
        let width = [
            Some(block_w),
            header.as_ref().map(|(b, _)| b.width + 2.0 * self.style.header_margin),
            title.as_ref().map(title_w),
            legend_top.as_ref().map(legend_w),
            legend_bottom.as_ref().map(legend_w),
            caption.as_ref().map(|b| b.width + 2.0 * caption_margin),
            footer.as_ref().map(|(b, _)| b.width + 2.0 * self.style.footer_margin),
        ]
        .into_iter()
        .flatten()
        .fold(0.0, f64::max);
        let left = page_margin;
        let right = page_margin + width;
        let centred = |w: f64| left + (width - w) / 2.0;
        // (`room`: a header's or footer's margin, kept from the sides)
        let aligned = |w: f64, align: HorizontalAlign, room: f64| match align {
            HorizontalAlign::Left => left + room,
            HorizontalAlign::Center => centred(w),
            HorizontalAlign::Right => right - w - room,
        };

        let mut items: Vec<Item> = Vec::new();
        let mut y = page_margin;
        if let Some((block, align)) = &header {
            let room = self.style.header_margin;
            let x = aligned(block.width, align.unwrap_or(HorizontalAlign::Right), room);
            block.draw(x, y + room, Align::Left, theme.header_color, &mut items);
            y += room + block.height + room + BLOCK_GAP;
        }
        if let Some(block) = title.as_ref().filter(|_| framed) {
            let (x, top) = (centred(block.width), y + title_margin.top);
            let h = block.height + title_padding.top + title_padding.bottom;
            let border = theme.title_border.map(|c| stroke(c, 1.0));
            let frame = match theme.title_bg {
                Some(fill) => crate::shapes::fading_or_none(fill, theme.fades.title, border),
                None => paint(None, border),
            };
            rect(
                &mut items,
                x - title_padding.left,
                top,
                block.width + title_padding.left + title_padding.right,
                h,
                theme.frame_round_corner,
                frame,
            );
            block.draw(x, top + title_padding.top, Align::Center, theme.title_color, &mut items);
            y = top + h + title_margin.bottom + BLOCK_GAP;
        } else if let Some(block) = title.as_ref().filter(|_| self.style.title_spacing_set) {
            let top = y + title_margin.top + title_padding.top;
            block.draw(centred(block.width), top, Align::Center, theme.title_color, &mut items);
            y = top + block.height + title_padding.bottom + title_margin.bottom + BLOCK_GAP;
        } else if let Some(block) = &title {
            block.draw(
                centred(block.width),
                y + TITLE_PAD,
                Align::Center,
                theme.title_color,
                &mut items,
            );
            // (A larger title keeps the same room: the 8.3 px corpus
            // activity 023 and 024 seemed to add under a 23 px title is the
            // room their first note takes above its action.)
            y += block.height + 2.0 * TITLE_PAD + BLOCK_GAP;
        }
        let legend_range = (left + legend_margin, right - legend_margin);
        if let Some((l, _)) = legend_top {
            let h = self.legend(&mut items, l, y + legend_margin, legend_range.0, legend_range.1);
            y += h + 2.0 * legend_margin + BLOCK_GAP;
        }
        if let Some(notices) = notices {
            y += notices.draw(centred(block_w), block_w, y, &mut items) + BLOCK_GAP;
        }
        let ox = centred(block_w) + pad_left;
        let oy = y + pad_top;
        body.place(ox, oy, &mut items);
        y += drawing_h + BLOCK_GAP;
        if let Some((l, _)) = legend_bottom {
            let h = self.legend(&mut items, l, y + legend_margin, legend_range.0, legend_range.1);
            y += h + 2.0 * legend_margin + BLOCK_GAP;
        }
        if let Some(block) = &caption {
            block.draw(
                centred(block.width),
                y + caption_margin,
                Align::Center,
                self.style.caption_color.unwrap_or(theme.font_color),
                &mut items,
            );
            y += block.height + 2.0 * caption_margin + BLOCK_GAP;
        }
        if let Some((block, align)) = &footer {
            let room = self.style.footer_margin;
            let x = aligned(block.width, align.unwrap_or(HorizontalAlign::Center), room);
            block.draw(x, y + room, Align::Left, theme.header_color, &mut items);
            y += room + block.height + room + BLOCK_GAP;
        }
        self.trim_runs(&mut items);
        // Anything left of or above a 5 px margin moves the whole page.
        let (lo, _) = items_x_range(&items).unwrap_or((left, right));
        let (top, _) = items_y_range(&items).unwrap_or((0.0, y));
        let dx = if lo < 5.0 { 5.0 - lo } else { 0.0 };
        let dy = if top < 5.0 { 5.0 - top } else { 0.0 };
        if dx != 0.0 || dy != 0.0 {
            for item in &mut items {
                shift_item(item, dx, dy);
            }
        }
        let mut scene = Scene {
            width: round3((right + BLOCK_GAP + page_margin + dx).ceil().max(1.0)),
            height: round3((y + page_margin + dy).ceil().max(1.0)),
            background: theme.background,
            items,
        };
        crate::shapes::fade_page(&mut scene, theme.fades.page);
        scene
    }

    /// PlantUML's notices for the actions coloured the deprecated way
    /// (`#color:text…;`), if any.
    fn deprecation_notices(&self, diagram: &Diagram) -> Option<NoticeBox> {
        let notices = &diagram.activity.as_ref()?.deprecation_notices;
        if notices.is_empty() {
            return None;
        }
        let font = Font {
            family: FontFamily::Mono,
            ..Font::sans(10.0)
        };
        // One line per notice: PlantUML collects them in a set, in the
        // order first met (four `#LightBlue:` actions, one line: corpus
        // activity 028).
        let lines: Vec<(String, f64)> = notices
            .iter()
            .map(|text| (text.clone(), self.metrics.width(text, &font)))
            .collect();
        let widest = lines.iter().map(|(_, w)| *w).fold(0.0, f64::max);
        Some(NoticeBox {
            width: NoticeBox::LEFT + NoticeBox::TEXT_LEFT + widest + NoticeBox::TEXT_RIGHT + NoticeBox::RIGHT,
            lines,
            font,
        })
    }

    /// PlantUML draws the words of a line without the spaces around a run
    /// (`a **b** c` is three texts `a`, `b`, `c`): trim each run, moving
    /// its start past the leading spaces.
    fn trim_runs(&self, items: &mut [Item]) {
        for item in items {
            if let Item::Text(t) = item {
                let trimmed_start = t.text.trim_start();
                if trimmed_start.len() != t.text.len() {
                    let lead = &t.text[..t.text.len() - trimmed_start.len()];
                    let dx = self.metrics.width(lead, &t.font);
                    t.x = round3(t.x + dx);
                    t.width = round3((t.width - dx).max(0.0));
                    t.text = trimmed_start.to_string();
                }
                let trimmed_end = t.text.trim_end();
                if trimmed_end.len() != t.text.len() {
                    let tail = &t.text[trimmed_end.len()..];
                    let dw = self.metrics.width(tail, &t.font);
                    t.width = round3((t.width - dw).max(0.0));
                    t.text = trimmed_end.to_string();
                }
            }
        }
    }

    /// Opens a legend's group and draws its rounded frame, `w` × `h` from
    /// `top`, aligned as the legend says between `min_x` and `max_x`;
    /// returns the frame's left.
    fn legend_frame(
        &self,
        out: &mut Vec<Item>,
        legend: &puml_sema::model::Legend,
        (top, w, h): (f64, f64, f64),
        min_x: f64,
        max_x: f64,
    ) -> f64 {
        let x = match legend.horizontal {
            Some(HorizontalAlign::Left) => min_x,
            Some(HorizontalAlign::Right) => max_x - w,
            _ => (min_x + max_x) / 2.0 - w / 2.0,
        };
        out.push(Item::Begin {
            class: "legend".into(),
            title: None,
            link: None,
            data: Vec::new(),
        });
        rect(out, x, top, w, h, 7.5, {
            let (fill, gradient) = self.theme.legend_fill();
            crate::shapes::fading_or_none(fill, gradient, Some(stroke(self.theme.legend_border, 1.0)))
        });
        x
    }

    pub(super) fn legend(
        &self,
        out: &mut Vec<Item>,
        legend: &puml_sema::model::Legend,
        top: f64,
        min_x: f64,
        max_x: f64,
    ) -> f64 {
        if let Some(table) = self.legend_table(&legend.text) {
            return self.legend_with_table(out, legend, &table, top, min_x, max_x);
        }
        // (in the theme's legend face and colour: cerulean's is #343A40 Verdana)
        let block = self.text(&legend.text, self.theme.font_of(TextElement::Legend, 14.0));
        let pad = self.style.legend_padding;
        let (w, h) = (block.width + 2.0 * pad, block.height + 2.0 * pad);
        let x = self.legend_frame(out, legend, (top, w, h), min_x, max_x);
        block.draw(x + pad, top + pad, Align::Left, self.theme.legend_font_color, out);
        out.push(Item::End);
        h
    }
}

/// A legend holding only a creole table (every line `| … |`, a `|=` cell
/// a bold header, `<#colour>` at a cell's start its background), as
/// PlantUML 1.2026.8 draws it (probes `deco_legend_table_*`): each cell as
/// wide as its text with the blanks written around it (`| x |` keeps a
/// space either side), a column as wide as its widest cell, a row one line
/// of the legend font tall, 7 px above and below the table inside the
/// frame (5 beside it), the grid in 1 px black lines over the cells.
pub(super) struct LegendTable {
    pub(super) cols: Vec<f64>,
    pub(super) row_h: f64,
    rows: Vec<Vec<LegendCell>>,
}

struct LegendCell {
    block: TextBlock,
    lead: f64,
    bg: Option<Color>,
}

/// Room above and below a legend's table inside its frame.
const LEGEND_TABLE_PAD_Y: f64 = 7.0;

impl Ctx<'_> {
    /// The legend's text read as a creole table, if every line is a row.
    pub(super) fn legend_table(&self, text: &str) -> Option<LegendTable> {
        let font = self.theme.font_of(TextElement::Legend, 14.0);
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        if lines.is_empty()
            || !lines
                .iter()
                .all(|l| l.len() >= 2 && l.starts_with('|') && l.ends_with('|'))
        {
            return None;
        }
        let line_h = self.text("x", font).height;
        let mut rows = Vec::new();
        let mut cols: Vec<f64> = Vec::new();
        let mut row_h = line_h;
        for line in lines {
            let mut row = Vec::new();
            for (i, raw) in line[1..line.len() - 1].split('|').enumerate() {
                let (raw, font) = match raw.strip_prefix('=') {
                    Some(rest) => (rest, font.bold()),
                    None => (raw, font),
                };
                let (raw, bg) = match raw.strip_prefix("<#").and_then(|r| r.split_once('>')) {
                    Some((colour, rest)) => (rest, parse_color(colour)),
                    None => (raw, None),
                };
                let body = raw.trim();
                let (lead, width) = if body.is_empty() {
                    (0.0, self.metrics.width(raw, &font))
                } else {
                    let start = raw.len() - raw.trim_start().len();
                    let end = raw.trim_end().len();
                    let lead = self.metrics.width(&raw[..start], &font);
                    let trail = self.metrics.width(&raw[end..], &font);
                    (lead, lead + self.text(body, font).width + trail)
                };
                let block = self.text(body, font);
                row_h = row_h.max(block.height);
                if cols.len() <= i {
                    cols.push(0.0);
                }
                cols[i] = cols[i].max(width);
                row.push(LegendCell { block, lead, bg });
            }
            rows.push(row);
        }
        Some(LegendTable { cols, row_h, rows })
    }

    fn legend_with_table(
        &self,
        out: &mut Vec<Item>,
        legend: &puml_sema::model::Legend,
        table: &LegendTable,
        top: f64,
        min_x: f64,
        max_x: f64,
    ) -> f64 {
        let pad = self.style.legend_padding;
        let table_w: f64 = table.cols.iter().sum();
        let table_h = table.row_h * table.rows.len() as f64;
        let (w, h) = (table_w + 2.0 * pad, table_h + 2.0 * LEGEND_TABLE_PAD_Y);
        let x = self.legend_frame(out, legend, (top, w, h), min_x, max_x);
        let (left, upper) = (x + pad, top + LEGEND_TABLE_PAD_Y);
        for (r, row) in table.rows.iter().enumerate() {
            let y = upper + table.row_h * r as f64;
            let mut cx = left;
            for (cell, col_w) in row.iter().zip(&table.cols) {
                if let Some(bg) = cell.bg {
                    rect(
                        out,
                        cx,
                        y,
                        *col_w,
                        table.row_h,
                        0.0,
                        crate::shapes::paint(Some(bg), None),
                    );
                }
                cell.block
                    .draw(cx + cell.lead, y, Align::Left, self.theme.legend_font_color, out);
                cx += col_w;
            }
        }
        let grid = stroke(Color::BLACK, 1.0);
        for r in 0..=table.rows.len() {
            let y = upper + table.row_h * r as f64;
            line(out, left, y, left + table_w, y, grid);
        }
        let mut cx = left;
        for c in 0..=table.cols.len() {
            line(out, cx, upper, cx, upper + table_h, grid);
            cx += table.cols.get(c).copied().unwrap_or(0.0);
        }
        out.push(Item::End);
        h
    }
}

/// PlantUML's box of notices above an activity diagram (observed in
/// 1.2026.8, probes `deprecated_action_color`): a pale yellow box with a
/// thick light orange border, 3 px inside the page's column and as wide as
/// it, one 10 pt monospaced line per notice, 21.64 px apart; it is a block
/// of the page's stack after the title and a top legend.
struct NoticeBox {
    /// The room the box asks of the page's column.
    pub(super) width: f64,
    pub(super) lines: Vec<(String, f64)>,
    pub(super) font: Font,
}

impl NoticeBox {
    /// From the column's left edge to the box, and from the box to the
    /// column's right edge.
    pub(super) const LEFT: f64 = 3.0;
    pub(super) const RIGHT: f64 = 6.0;
    /// From the box's left edge to its text, and from its widest text to
    /// its right edge.
    pub(super) const TEXT_LEFT: f64 = 7.0;
    pub(super) const TEXT_RIGHT: f64 = 3.0;
    pub(super) const TOP: f64 = 3.0;
    pub(super) const BOTTOM: f64 = 1.0;
    pub(super) const ONE_LINE_HEIGHT: f64 = 16.641;
    pub(super) const LINE_PITCH: f64 = 21.64;
    pub(super) const BASELINE: f64 = 10.641;

    /// Draws the box in a column starting at `left`, `column_width` wide,
    /// from `top`; returns the height it takes.
    pub(super) fn draw(&self, left: f64, column_width: f64, top: f64, out: &mut Vec<Item>) -> f64 {
        let box_top = top + Self::TOP;
        let height = Self::ONE_LINE_HEIGHT + Self::LINE_PITCH * (self.lines.len().saturating_sub(1)) as f64;
        rect(
            out,
            left + Self::LEFT,
            box_top,
            column_width - Self::LEFT - Self::RIGHT,
            height,
            2.5,
            paint(Some(Color::hex(0xFFFFCC)), Some(stroke(Color::hex(0xFFDD88), 3.0))),
        );
        for (i, (text, width)) in self.lines.iter().enumerate() {
            out.push(Item::Text(TextRun {
                x: round3(left + Self::LEFT + Self::TEXT_LEFT),
                y: round3(box_top + Self::BASELINE + Self::LINE_PITCH * i as f64),
                width: round3(*width),
                text: text.clone(),
                font: self.font,
                color: Color::BLACK,
                underline: false,
                strike: false,
                link: None,
            }));
        }
        Self::TOP + height + Self::BOTTOM
    }
}
