//! The page's decorations, around the body the walk draws. Above it
//! ([`Context::top_decorations`]): the header, the title's room, the
//! deprecation banners' rows, a legend on top and the mainframe's tab. Once
//! the body is drawn: the participant boxes ([`Context::draw_boxes`]), the
//! dividers' bands across the canvas ([`Context::draw_dividers`]), the
//! mainframe ([`Context::draw_mainframe`]). Below it
//! ([`Context::finish_page`]): the title centred on the canvas, a legend,
//! the caption and the footer, then the header's final place and the
//! banners, and the canvas is sized.

use super::*;

/// Where the header went, and how it moves once the canvas is known.
#[derive(Default)]
pub(super) struct HeaderPlacement {
    /// Its items' indices (in the top items): they overhang the canvas.
    pub(super) overhang: Vec<usize>,
    /// A header wider than the diagram: the canvas' edges it sets.
    pub(super) edges: Option<(f64, f64)>,
    /// Where a right-aligned header's right edge goes once the canvas is
    /// known (`None` for the other alignments and a header wider than the
    /// diagram): past the content's right edge, less its margin.
    pub(super) right_room: Option<f64>,
    /// A centred header's offset from the canvas' middle: it is centred on
    /// the page, as the footer is, not on the lifelines.
    pub(super) center_offset: Option<f64>,
    /// A left-aligned header's offset from the canvas' left edge (a title
    /// wider than the diagram moves the diagram, not the header).
    pub(super) left_room: Option<f64>,
}

/// What the decorations above the body leave for the rest of the page.
pub(super) struct TopDecorations {
    /// Where the body (participant boxes, else heads) starts.
    pub(super) y: f64,
    /// The header and a legend on top.
    pub(super) items: Vec<Item>,
    pub(super) header: HeaderPlacement,
    /// The title's block and top: centred once the canvas is known.
    pub(super) title: Option<(TextBlock, f64)>,
    /// Each deprecation banner's text and top.
    pub(super) banners: Vec<(&'static str, f64)>,
    /// The mainframe's label and top: drawn around the finished body.
    pub(super) mainframe: Option<(TextBlock, f64)>,
}

/// The page once its body is assembled: every item drawn so far, and the
/// bounds the decorations after it are placed against.
pub(super) struct Canvas {
    pub(super) items: Vec<Item>,
    /// Items that do not size the canvas (a side header, notes stretched
    /// past the heads, box outlines).
    pub(super) overhang: Vec<usize>,
    /// How many of `items` are the header and a legend on top.
    pub(super) top_len: usize,
    /// The content's x bounds less `overhang`, over the first `content_len` items.
    pub(super) content_bounds: (f64, f64),
    pub(super) content_len: usize,
    pub(super) min_x: f64,
    pub(super) max_x: f64,
    /// Every head's whole column, drawn or not.
    pub(super) heads_extent: (f64, f64),
    /// What the canvas holds besides the drawn items (heads' columns, room
    /// beside boxes, frames and notes).
    pub(super) body_edges: (f64, f64),
    /// The body's right edge a deprecation banner asks for.
    pub(super) banner_body_right: f64,
    /// The right edge of the participant boxes.
    pub(super) boxes_right: f64,
    /// How far right a divider wider than the diagram reaches.
    pub(super) divider_right: f64,
    /// The mainframe's left and right edges.
    pub(super) mainframe_span: Option<(f64, f64)>,
    /// Where the body ends (feet, boxes, mainframe).
    pub(super) bottom: f64,
    /// How far a participant's or an actor's foot reaches down.
    pub(super) feet_reach: f64,
    pub(super) has_feet: bool,
    pub(super) has_boxes: bool,
}

/// What is placed under the body: where the next thing goes and what came before it.
struct BelowBody {
    y: f64,
    after_legend: bool,
    after_caption: bool,
    /// A legend wider than the diagram: the canvas' edges it sets.
    legend_edges: Option<(f64, f64)>,
    /// Where such a legend puts a centred footer's middle.
    footer_mid: Option<f64>,
    /// The footer's bottom when it ends the page (PlantUML keeps less
    /// margin below it, see `finish_scene`).
    footer_bottom: Option<f64>,
}

/// The horizontal references the decorations below the body use.
struct Middles {
    /// The diagram without the header and a legend on top.
    diagram: (f64, f64),
    /// The content's middle (or the mainframe's): the title and a caption.
    content: f64,
    /// The canvas' middle, margins included: a legend and a footer below.
    canvas: f64,
}

impl Context<'_> {
    /// The header, the title's room, the banners' rows, a legend on top and
    /// the mainframe's tab, from the page's top down.
    pub(super) fn top_decorations(&self, title: Option<&str>, positions: &Positions, mid_x: f64) -> TopDecorations {
        let theme = &self.theme;
        let mut items = Vec::new();
        let mut y = MARGIN;
        let mut header = HeaderPlacement::default();
        if let Some((placement, below)) = self.draw_header(title, positions, mid_x, &mut items) {
            header = placement;
            y = below;
        }
        // The title is centered over the whole diagram once its width is known.
        let mut title_block = None;
        if let Some(title) = title.filter(|t| !t.trim().is_empty()) {
            let block = self.text(
                title,
                self.theme.font_of(TextElement::Title, theme.title_font_size).bold(),
            );
            // The gaps above and below hold PlantUML's default title margin
            // and padding; a theme's or `<style>`'s replace them.
            let (room, default_room) = (theme.title_spacing.outer(), Spacing::DEFAULT_TITLE.outer());
            let top = y + 5.0 + room.top - default_room.top;
            y = top + block.height + TITLE_GAP_BELOW + room.bottom - default_room.bottom;
            title_block = Some((block, top));
        }
        // PlantUML draws a banner for some deprecated skinparams below the
        // title and moves the diagram down by its height.
        let mut banners = Vec::new();
        for text in self.deprecation_banners() {
            banners.push((text, y - 2.0));
            y += BANNER_HEIGHT + 5.0;
        }
        if let Some(legend) = self
            .diagram
            .legend
            .as_ref()
            .filter(|l| l.vertical == Some(VerticalAlign::Top))
        {
            let n = positions.pos.len();
            let (left, right) = (positions.pos[0], positions.pos[n.saturating_sub(1)]);
            let (above, below) = self.legend_margin_change();
            let top = y + LEGEND_TOP_GAP + above;
            let (h, legend_items) = self.legend_items(legend, (left, right, (left + right) / 2.0), top);
            items.extend(legend_items);
            y = top + h + LEGEND_GAP + below;
        }
        // The mainframe surrounds the body (heads to feet), below the title.
        // PlantUML 1.2026.8 (probes `mainframe_*`): the frame 5 px below
        // where the heads would start, its 14 pt label in a tab 3 px taller
        // than the text, the heads 13 px below the tab.
        let mainframe = self.diagram.mainframe.as_deref().map(|label| {
            let block = self.text(label, self.theme.font(14.0));
            let top = y + MAINFRAME_TOP_GAP;
            y = top + block.height + MAINFRAME_TAB_EXTRA + MAINFRAME_HEADS_GAP;
            (block, top)
        });
        TopDecorations {
            y,
            items,
            header,
            title: title_block,
            banners,
            mainframe,
        }
    }

    /// The header at the page's top: where it goes and how it moves later,
    /// and where what follows it starts.
    fn draw_header(
        &self,
        title: Option<&str>,
        positions: &Positions,
        mid_x: f64,
        items: &mut Vec<Item>,
    ) -> Option<(HeaderPlacement, f64)> {
        let header = self.diagram.header.as_ref()?;
        let theme = &self.theme;
        let n = self.slots.len();
        let deco_font = self
            .theme
            .font_of(TextElement::Header, self.theme.header_font_size.unwrap_or(10.0));
        // The header does not size the canvas like the diagram does: a
        // right-aligned one overhangs the diagram's right edge into the page
        // margin without widening it (PlantUML: a boxed diagram's canvas is
        // as wide with a header as without one), and one wider than the
        // diagram keeps only 5 px to the canvas' edges (`edges`).
        let mut placement = HeaderPlacement::default();
        let block = self.text(&header.text, deco_font);
        let right = positions.pos[n + 1];
        let left = positions.pos[0];
        // What the header is wider than: the diagram, or a title wider
        // than it with its side margins (PlantUML right-aligns a header
        // narrower than such a title: `header_right_under_wide_title`).
        let title_span = title.filter(|t| !t.trim().is_empty()).map_or(0.0, |t| {
            self.text_width(t, self.theme.font(theme.title_font_size).bold()) + 2.0 * TITLE_SIDE_MARGIN
        });
        let span = (right - left).at_least(title_span);
        let room = theme.header_spacing.outer();
        let align = header.align.or(theme.header_align).unwrap_or(HorizontalAlign::Right);
        let x = match align {
            // A header wider than the diagram is centred over it, and
            // the canvas grows around both (PlantUML: the header at the
            // page margin, the diagram in the middle).
            _ if block.width > span => (left + right) / 2.0 - block.width / 2.0,
            // PlantUML: at the page margin, 5 px from the canvas' edge.
            HorizontalAlign::Left => left - (MARGIN - HEADER_PAGE_GAP) + room.left,
            HorizontalAlign::Center => mid_x - block.width / 2.0 + (room.left - room.right) / 2.0,
            // PlantUML: 4 px past the diagram's right edge.
            HorizontalAlign::Right => right - block.width + HEADER_RIGHT_OVERHANG - room.right,
        };
        let first = items.len();
        caption_frame(items, &theme.header_frame, theme.page_fade(), x, 5.0 + room.top, &block);
        block.draw(x, 5.0 + room.top, Align::Left, theme.header_color, items);
        placement.overhang.extend(first..items.len());
        if block.width > span {
            let inset = MARGIN - HEADER_PAGE_GAP;
            placement.edges = Some((x + inset, x + block.width - inset));
        } else if align == HorizontalAlign::Right {
            // Its text ends `skinparam padding` short of the overhang, not
            // its padded block (PlantUML 1.2026.8, probes `p_padding`,
            // `s_padding_10_*`).
            placement.right_room = Some(HEADER_RIGHT_OVERHANG - room.right - block.padding);
        } else if align == HorizontalAlign::Center {
            placement.center_offset = Some((room.left - room.right) / 2.0);
        } else if align == HorizontalAlign::Left {
            placement.left_room = Some(room.left - (MARGIN - HEADER_PAGE_GAP));
        }
        Some((placement, 5.0 + room.top + block.height + 6.0 + room.bottom))
    }

    /// The participant boxes, from `box_top` to 7 px below the foot boxes
    /// (6 below the lifelines' ends without them: PlantUML, probes
    /// `box_legend_*`), with their titles; and where the body then ends.
    pub(super) fn draw_boxes(
        &self,
        positions: &Positions,
        box_top: f64,
        bottom: f64,
        has_feet: bool,
    ) -> (Vec<Item>, f64) {
        let theme = &self.theme;
        let mut boxes = Vec::new();
        if self.box_spans.is_empty() {
            return (boxes, bottom);
        }
        let box_below_feet = if has_feet { 7.0 } else { 6.0 };
        for span in self.boxes_in_drawing_order() {
            let b = &self.diagram.boxes[span.index];
            let first = self.slots[span.first];
            let last = self.slots[span.last];
            let (Some(first_x), Some(last_x)) = (self.lifeline_x(positions, first), self.lifeline_x(positions, last))
            else {
                continue;
            };
            let box_top = box_top + self.box_top_offset(span);
            let (before, after) = self.shared_box_sides(span, &positions.self_reach);
            let lo = first_x - before - BOX_INSET;
            let hi = last_x + after + BOX_INSET;
            // An inline `#A-B` fades as the theme's `box` fill does.
            let (fill, gradient) = b
                .color
                .as_deref()
                .and_then(|c| Some((parse_color(c)?, parse_gradient(c))))
                .unwrap_or((theme.box_bg, theme.fades.boxes));
            rect(
                &mut boxes,
                lo,
                box_top,
                hi - lo,
                bottom + box_below_feet - box_top,
                0.0,
                shapes::fading(fill, gradient, Some(stroke(theme.box_border, 0.5))),
            );
            if let Some(title) = &b.title {
                let font = box_title_font(&self.theme);
                // Centred with the blanks an unquoted title keeps before
                // its colour (PlantUML), drawn without them.
                let width = self.text_width(title, font);
                let block = self.text(title.trim_end(), font);
                // The title block is centred; its lines are left-aligned within it.
                block.draw(
                    (lo + hi) / 2.0 - width / 2.0,
                    box_top,
                    Align::Left,
                    theme.box_font_color,
                    &mut boxes,
                );
            }
        }
        (boxes, bottom + box_below_feet + 4.0)
    }

    /// The page-break marks and the dividers' bands across the canvas, and
    /// the canvas' right edge a divider wider than the diagram asks for.
    pub(super) fn draw_dividers(&self, canvas: &mut Canvas, deferred: Vec<Deferred>, page_break_ys: &[f64]) {
        let theme = &self.theme;
        let (min_x, max_x) = (canvas.min_x, canvas.max_x);
        // How far right the canvas must reach for a divider wider than the
        // diagram: its box and 12 px each side, from the first head's left
        // edge even when a note left of it moves the diagram right
        // (PlantUML, probes `divider_wide_note_left`, corpus 084). Every
        // divider's band then reaches that far.
        let divider_anchor = if canvas.heads_extent.0.is_finite() {
            canvas.heads_extent.0.at_least(min_x)
        } else {
            min_x
        };
        let divider_right = deferred
            .iter()
            .map(|d| match d {
                Deferred::Divider { block, padding, .. } => {
                    divider_anchor + block.width + 14.0 + padding + 2.0 * DIVIDER_OVERHANG_MARGIN
                }
            })
            .filter(|right| *right > max_x)
            .fold(f64::NEG_INFINITY, f64::at_least);
        canvas.divider_right = divider_right;
        let band_right = max_x.at_least(divider_right);
        let items = &mut canvas.items;
        for &y in page_break_ys {
            line(
                items,
                min_x,
                y,
                band_right,
                y,
                dashed(theme.lifeline_color, 0.5, 2.0, 2.0),
            );
        }
        for d in deferred {
            match d {
                Deferred::Divider { top, block, padding } => {
                    let h = block.height + 8.0;
                    // PlantUML draws the 3 px band half a pixel below the
                    // label box's middle (every divider of the corpus).
                    let mid = top + h / 2.0 + 0.5;
                    rect(
                        items,
                        min_x,
                        mid - 1.5,
                        band_right - min_x,
                        3.0,
                        0.0,
                        divider_band_paint(theme).shadowed(theme.draws_shadows()),
                    );
                    line(
                        items,
                        min_x,
                        mid - 1.5,
                        band_right,
                        mid - 1.5,
                        stroke(theme.divider_border, 1.0),
                    );
                    line(
                        items,
                        min_x,
                        mid + 1.5,
                        band_right,
                        mid + 1.5,
                        stroke(theme.divider_border, 1.0),
                    );
                    // PlantUML's divider box: the text 6 px in, 14 px wider than it (and a blank).
                    let w = block.width + 14.0 + padding;
                    // Centered on the band (PlantUML widens the canvas for a
                    // divider wider than the diagram rather than move it).
                    let x = (min_x + band_right) / 2.0 - w / 2.0;
                    rect(
                        items,
                        x,
                        top,
                        w,
                        h,
                        0.0,
                        shapes::fading_or_none(
                            theme.divider_bg,
                            theme.fades.divider,
                            Some(stroke(theme.divider_border, 2.0)),
                        )
                        .shadowed(theme.draws_shadows()),
                    );
                    block.draw(x + 6.0, top + 4.0, Align::Center, theme.divider_font_color, items);
                }
            }
        }
    }

    /// The mainframe around everything drawn below the top decorations,
    /// with its label's tab; the body then ends below it.
    pub(super) fn draw_mainframe(&self, canvas: &mut Canvas, mainframe: Option<(TextBlock, f64)>) {
        let theme = &self.theme;
        let Some((block, top)) = mainframe else { return };
        let items = &mut canvas.items;
        let (lo, hi) = x_bounds(&items[canvas.top_len..]);
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 0.0) };
        // 10 px left of the content, 16 px right of it and below it,
        // at least as wide as the label and 20 px; lines 1.5 px wide;
        // the label 3 px in, the tab's corner 7 px past it.
        let x0 = lo - MAINFRAME_LEFT_ROOM;
        let x1 = (hi + MAINFRAME_RIGHT_ROOM).at_least(x0 + block.width + 20.0);
        // 1 px more below lifelines without foot boxes.
        let feet = !self.diagram.settings.hide_footbox && !theme.strict_uml;
        let frame_bottom = canvas.bottom + MAINFRAME_BOTTOM_ROOM + if feet { 0.0 } else { 1.0 };
        canvas.mainframe_span = Some((x0, x1));
        rect(
            items,
            x0,
            top,
            x1 - x0,
            frame_bottom - top,
            0.0,
            paint(None, Some(stroke(theme.mainframe_border, 1.5))),
        );
        shapes::tab(
            items,
            x0,
            top,
            block.width + 10.0,
            block.height + MAINFRAME_TAB_EXTRA,
            (theme.background, None),
            theme.mainframe_border,
            1.5,
        );
        block.draw(x0 + 3.0, top + 1.0, Align::Left, theme.group_font_color, items);
        // The canvas keeps 5 px below the frame besides its margin.
        canvas.bottom = frame_bottom + MAINFRAME_TOP_GAP;
    }

    /// Below the body: the title centred on the canvas, a legend, the
    /// caption and the footer; then the header's final place, the banners,
    /// and the canvas sized around it all.
    pub(super) fn finish_page(
        &self,
        mut canvas: Canvas,
        mut header: HeaderPlacement,
        title: Option<(TextBlock, f64)>,
        banners: Vec<(&'static str, f64)>,
    ) -> Scene {
        let theme = &self.theme;
        // After boxes, PlantUML puts a legend or caption 1 px higher and a
        // footer 1 px lower than after the same diagram without them.
        let box_lift = if canvas.has_boxes { 1.0 } else { 0.0 };
        let mut below = BelowBody {
            y: canvas.bottom - box_lift,
            after_legend: false,
            after_caption: false,
            legend_edges: None,
            footer_mid: None,
            footer_bottom: None,
        };
        // The title is centered on the canvas (PlantUML: a box outline or a
        // note left out of its width, a note stretched past the heads among
        // them, is left out here too, corpus 152, 133).
        // Three bounds in one pass (see `x_bounds_after`): the content's
        // (`x_bounds_except(&items, &overhang)`, continued from
        // `content_bounds` over what was drawn since), the diagram's
        // without the header and a legend on top, and that less `overhang`.
        let [(_, max_x_now), below_top, below_header] = x_bounds_after(
            &canvas.items,
            &canvas.overhang,
            (canvas.content_bounds, canvas.content_len),
            canvas.top_len.min(canvas.items.len()),
        );
        let heads_extent = canvas.heads_extent;
        // The diagram without the header and a legend on top: what a legend
        // below and the footer are placed against.
        let diagram = {
            let (lo, hi) = below_top;
            (
                lo.at_most(heads_extent.0),
                hi.at_least(heads_extent.1).at_least(canvas.banner_body_right),
            )
        };
        // The canvas's x range without the header (which may overhang it):
        // what a legend and a footer below are centred on, with the title.
        let body_span = {
            let (lo, hi) = below_header;
            (
                lo.at_most(canvas.body_edges.0),
                hi.at_least(canvas.body_edges.1).at_least(canvas.divider_right),
            )
        };
        // A title over a mainframe is centred on the frame less 1 px on the
        // right (PlantUML, probe `mainframe_title`).
        let content_mid = match canvas.mainframe_span {
            Some((left, right)) => (left + right - 1.0) / 2.0,
            None => {
                (canvas.min_x.at_most(heads_extent.0) + max_x_now.at_least(canvas.max_x).at_least(heads_extent.1)) / 2.0
            }
        };
        let title_edges = title.and_then(|title| self.place_title(&mut canvas, &mut header, title, content_mid));
        // A legend and a footer below the diagram are centred on the canvas
        // it will have, margins included (0.5 px left, PlantUML): with a box
        // on one side only, its wider margin moves them off the diagram's
        // centre (probes `box_legend_*`).
        let canvas_mid = {
            let (mut lo, mut hi) = body_span;
            if let Some((left, right)) = title_edges {
                (lo, hi) = (lo.at_most(left), hi.at_least(right));
            }
            (lo - theme.page_margin.left + hi + theme.page_margin.right) / 2.0 - 0.5
        };
        let middles = Middles {
            diagram,
            content: content_mid,
            canvas: canvas_mid,
        };
        self.legend_below(&mut canvas, &mut below, &middles);
        self.draw_caption(&mut canvas, &mut below, &middles);
        self.draw_footer(&mut canvas, &mut below, &middles, box_lift);
        if let (Some(offset), Some(&first), Some(&last)) =
            (header.center_offset, header.overhang.first(), header.overhang.last())
        {
            let mid = below.footer_mid.unwrap_or(self.centre_below(&middles));
            let (header_left, header_right) = x_bounds(&canvas.items[first..=last]);
            shift_items_x(
                &mut canvas.items[first..=last],
                mid + offset - (header_left + header_right) / 2.0,
            );
        }
        let mut edges = canvas.body_edges;
        if canvas.boxes_right.is_finite() {
            edges.1 = edges.1.at_least(canvas.boxes_right - theme.page_margin.right);
        }
        if let Some((left, right)) = title_edges {
            edges = (edges.0.at_most(left), edges.1.at_least(right));
        }
        edges.1 = edges.1.at_least(canvas.divider_right);
        if let Some((left, right)) = header.edges {
            edges = (edges.0.at_most(left), edges.1.at_least(right));
        }
        if let Some((left, right)) = below.legend_edges {
            edges = (edges.0.at_most(left), edges.1.at_least(right));
        }
        align_header_to_drawing(&mut canvas, &header, edges);
        // The banners span the body from 2 px left of it (371.23 px at
        // least); they move with it under a wider title.
        let banner_span = (
            canvas.min_x.at_most(heads_extent.0),
            max_x_now.at_least(canvas.max_x).at_least(heads_extent.1),
        );
        self.draw_banners(&mut canvas, banners, banner_span);
        // Beside a narrow diagram PlantUML's canvas reaches 1 px past the
        // banner's body.
        edges.1 = edges.1.at_least(canvas.banner_body_right + 1.0);
        // The legend's and caption's lift after boxes does not shorten the canvas.
        let mut scene = finish_scene(
            canvas.items,
            &canvas.overhang,
            edges,
            (
                below.y.at_least(canvas.bottom).at_least(canvas.feet_reach),
                below.footer_bottom,
            ),
            theme,
            self.metrics,
        );
        shapes::fade_page(&mut scene, theme.fades.page);
        scene
    }

    /// What a centred footer (and a centred header) is centred on.
    fn centre_below(&self, middles: &Middles) -> f64 {
        let (left, right) = middles.diagram;
        if left.is_finite() && right.is_finite() {
            middles.canvas
        } else {
            middles.content
        }
    }

    /// The title centred on the content, framed when a theme or a style
    /// says so, put first; the canvas' edges a title wider than the diagram sets.
    fn place_title(
        &self,
        canvas: &mut Canvas,
        header: &mut HeaderPlacement,
        (block, top): (TextBlock, f64),
        content_mid: f64,
    ) -> Option<(f64, f64)> {
        let theme = &self.theme;
        // A title margin or padding other than PlantUML's default moves
        // the title off centre by half their difference, and widens or
        // narrows the room beside a title wider than the diagram.
        let (room, default_room) = (theme.title_spacing.outer(), Spacing::DEFAULT_TITLE.outer());
        let (extra_left, extra_right) = (room.left - default_room.left, room.right - default_room.right);
        let left = content_mid - block.width / 2.0 + (extra_left - extra_right) / 2.0;
        // A title wider than the diagram widens the canvas by its side margins too.
        let title_edges = Some((
            left - TITLE_SIDE_MARGIN - extra_left,
            left + block.width + TITLE_SIDE_MARGIN + extra_right,
        ));
        let mut title_items = Vec::new();
        // Themes and `title { BackGroundColor; LineColor }` frame the
        // title (PlantUML: 6 px beside the text, rounded like its theme).
        if theme.title_bg.is_some() || theme.title_border.is_some() {
            // The frame lies 5 px around the text with PlantUML's
            // default title spacing (`skinparam titleBorderColor`,
            // `title { LineColor }`); the themes' frames 6 px beside it
            // and 1 above and below (both observed).
            let (inset_x, inset_y) = if theme.title_spacing == Spacing::DEFAULT_TITLE {
                (5.0, 5.0)
            } else {
                (6.0, 1.0)
            };
            rect(
                &mut title_items,
                left - inset_x,
                top - inset_y,
                block.width + 2.0 * inset_x,
                block.height + 2.0 * inset_y,
                theme.frame_round_corner,
                Paint {
                    // An unfilled frame shows the page's gradient again
                    // (PlantUML fills it with the page's paint).
                    gradient: match (theme.title_bg, theme.page_fade()) {
                        (Some(_), _) => theme.fades.title,
                        (None, page) => page.map(|(_, g)| g),
                    },
                    ..paint(
                        theme.title_bg.or(theme.page_fade().map(|(c, _)| c)),
                        theme.title_border.map(|c| stroke(c, 1.0)),
                    )
                },
            );
        }
        block.draw(left, top, Align::Center, theme.title_color, &mut title_items);
        for at in canvas.overhang.iter_mut().chain(header.overhang.iter_mut()) {
            *at += title_items.len();
        }
        canvas.items.splice(0..0, title_items);
        title_edges
    }

    /// A legend below the diagram; one wider than the diagram moves the
    /// diagram right and sets the canvas' edges.
    fn legend_below(&self, canvas: &mut Canvas, below: &mut BelowBody, middles: &Middles) {
        let theme = &self.theme;
        let Some(legend) = self
            .diagram
            .legend
            .as_ref()
            .filter(|l| l.vertical != Some(VerticalAlign::Top))
        else {
            return;
        };
        let (diagram_left, diagram_right) = middles.diagram;
        let canvas_mid = middles.canvas;
        let y = below.y;
        // With nothing drawn (a legend alone), the margin is both edges.
        let (left, right) = if diagram_left.is_finite() && diagram_right.is_finite() {
            (diagram_left, diagram_right)
        } else {
            (MARGIN, MARGIN)
        };
        let (above, under) = self.legend_margin_change();
        let padding = theme.legend_spacing.padding;
        let block_w = self
            .text(
                &legend.text,
                self.theme
                    .font_of(TextElement::Legend, self.theme.legend_font_size.unwrap_or(14.0)),
            )
            .width
            + padding.left
            + padding.right;
        let (left_inset, right_inset) = self.legend_insets();
        let (h, legend_items) = if block_w + 2.0 * left_inset > right - left {
            // Wider than the diagram: PlantUML draws it 7 px in from the
            // left and centers the diagram over it.
            let dx = (block_w + 2.0 * left_inset - (right - left)) / 2.0 + 0.5;
            for item in &mut canvas.items {
                shift_item(item, dx, 0.0);
            }
            below.legend_edges = Some((left, left + block_w + left_inset + right_inset));
            below.footer_mid = Some(left + left_inset + block_w / 2.0 + 0.5);
            let wide = puml_sema::model::Legend {
                horizontal: Some(HorizontalAlign::Left),
                ..legend.clone()
            };
            self.legend_items(&wide, (left, right, canvas_mid), y + LEGEND_GAP + above)
        } else {
            self.legend_items(legend, (left, right, canvas_mid), y + LEGEND_GAP + above)
        };
        canvas.items.extend(legend_items);
        below.y += LEGEND_GAP + above + h + under;
        below.after_legend = true;
    }

    /// The caption, centred under the diagram (or its legend).
    fn draw_caption(&self, canvas: &mut Canvas, below: &mut BelowBody, middles: &Middles) {
        let Some(caption) = self.diagram.caption.as_deref().filter(|c| !c.trim().is_empty()) else {
            return;
        };
        let block = self.text(caption, self.theme.font(14.0));
        // PlantUML: 7 px below the diagram, 14 below a legend.
        let gap = if below.after_legend {
            2.0 * CAPTION_GAP
        } else {
            CAPTION_GAP
        };
        block.draw(
            middles.content - block.width / 2.0,
            below.y + gap,
            Align::Center,
            self.theme.font_color,
            &mut canvas.items,
        );
        below.y += gap + block.height;
        below.after_caption = true;
    }

    /// The footer, last on the page.
    fn draw_footer(&self, canvas: &mut Canvas, below: &mut BelowBody, middles: &Middles, box_lift: f64) {
        let theme = &self.theme;
        let Some(footer) = &self.diagram.footer else { return };
        let block = self.text(
            &footer.text,
            self.theme
                .font_of(TextElement::Footer, self.theme.footer_font_size.unwrap_or(10.0)),
        );
        let room = theme.footer_spacing.outer();
        let x = match footer.align.or(theme.footer_align).unwrap_or(HorizontalAlign::Center) {
            // PlantUML: at the page margin, 5 px from the canvas' edge.
            HorizontalAlign::Left => canvas.min_x - (MARGIN - HEADER_PAGE_GAP) + room.left,
            // PlantUML centers it on the diagram (0.5 px left).
            HorizontalAlign::Center => {
                let mid = below.footer_mid.unwrap_or(self.centre_below(middles));
                mid - block.width / 2.0 + (room.left - room.right) / 2.0
            }
            // Like a right-aligned header: 4 px past the drawing's edge.
            HorizontalAlign::Right => canvas.max_x - block.width + HEADER_RIGHT_OVERHANG - room.right,
        };
        // PlantUML: 2 px below a caption, 13 below a legend, else 6
        // below the foot boxes, 5 below the lifelines without them or
        // below boxes (probes `footer_after_*`).
        let gap = if below.after_caption {
            2.0
        } else if below.after_legend {
            13.0
        } else if canvas.has_feet && !canvas.has_boxes {
            6.0
        } else {
            5.0 + box_lift
        };
        let y = below.y;
        let items = &mut canvas.items;
        let first = items.len();
        caption_frame(
            items,
            &theme.footer_frame,
            theme.page_fade(),
            x,
            y + gap + room.top,
            &block,
        );
        block.draw(x, y + gap + room.top, Align::Left, theme.footer_color, items);
        // Like the header, a footer at a side overhangs the drawing into
        // the page margin without widening the canvas.
        if footer.align.or(theme.footer_align).unwrap_or(HorizontalAlign::Center) != HorizontalAlign::Center {
            canvas.overhang.extend(first..items.len());
        }
        below.y += gap + room.top + block.height + room.bottom;
        if room.bottom == 0.0 {
            below.footer_bottom = Some(below.y);
        }
    }

    /// The deprecation banners across the body, put first; they do not
    /// count in the canvas's bounds (the body's edges already hold them).
    fn draw_banners(&self, canvas: &mut Canvas, banners: Vec<(&'static str, f64)>, (left, right): (f64, f64)) {
        let mut banner_items = Vec::new();
        let min_body = self.banner_min_body_width(banners.iter().map(|(text, _)| *text));
        for (text, top) in banners {
            rect(
                &mut banner_items,
                left - 2.0,
                top,
                (right - left).at_least(min_body + 1.0),
                BANNER_HEIGHT,
                2.5,
                paint(Some(Color::hex(0xFFFFCC)), Some(stroke(Color::hex(0xFFDD88), 3.0))),
            );
            let font = Font {
                family: FontFamily::Mono,
                ..Font::sans(10.0)
            };
            banner_items.push(Item::Text(TextRun {
                x: round3(left + 5.0),
                y: round3(top + 10.641),
                width: round3(self.metrics.width(text, &font)),
                text: text.to_string(),
                font,
                color: Color::BLACK,
                underline: false,
                strike: false,
                link: None,
            }));
        }
        for at in canvas.overhang.iter_mut() {
            *at += banner_items.len();
        }
        canvas.overhang.extend(0..banner_items.len());
        canvas.items.splice(0..0, banner_items);
    }
}

/// PlantUML right-aligns the header against the whole drawing (a legend or
/// title wider than the participants included). A left room applies after
/// a right one, measured on the result.
fn align_header_to_drawing(canvas: &mut Canvas, header: &HeaderPlacement, edges: (f64, f64)) {
    let (Some(&first), Some(&last)) = (header.overhang.first(), header.overhang.last()) else {
        return;
    };
    for (room, against_right) in [(header.right_room, true), (header.left_room, false)] {
        let Some(room) = room else { continue };
        let (content_left, content_right) = x_bounds_except(&canvas.items, &canvas.overhang);
        let (header_left, header_right) = x_bounds(&canvas.items[first..=last]);
        let dx = if against_right {
            content_right.at_least(edges.1) + room - header_right
        } else {
            content_left.at_most(edges.0) + room - header_left
        };
        shift_items_x(&mut canvas.items[first..=last], dx);
    }
}
