//! Drawing primitives shared by the layout: participant heads of every
//! kind, arrow heads, notes, frames. Each pushes plain scene items.
//! They take plain geometry and colors as arguments, hence the allow.
#![allow(clippy::too_many_arguments)]

use crate::creole::{Align, TextBlock};
use crate::scene::{round3, Color, Gradient, Item, Paint, PathSegment, Point, Stroke};
use crate::theme::{Sides, Theme};
use puml_sema::model::{HeadShape, NoteShape, ParticipantKind};

pub fn stroke(color: Color, width: f64) -> Stroke {
    Stroke {
        color,
        width,
        dash: None,
    }
}

pub fn dashed(color: Color, width: f64, dash: f64, gap: f64) -> Stroke {
    Stroke {
        color,
        width,
        dash: Some((dash, gap)),
    }
}

pub fn paint(fill: Option<Color>, stroke: Option<Stroke>) -> Paint {
    Paint {
        fill,
        stroke,
        gradient: None,
        shadow: None,
    }
}

/// `fading`, but a fully transparent fill (`BackGroundColor none`) is no
/// fill at all, as PlantUML writes it (`fill="none"`).
pub fn fading_or_none(fill: Color, gradient: Option<Gradient>, stroke: Option<Stroke>) -> Paint {
    if fill.a == 0 {
        paint(None, stroke)
    } else {
        fading(fill, gradient, stroke)
    }
}

/// A fill that fades to `gradient` when there is one (PlantUML's `#A-B`).
pub fn fading(fill: Color, gradient: Option<Gradient>, stroke: Option<Stroke>) -> Paint {
    Paint {
        fill: Some(fill),
        stroke,
        gradient,
        shadow: None,
    }
}

/// Fades the page's background (PlantUML paints a page written `#A-B` with
/// a gradient over the whole canvas): a rect under everything else, over
/// the solid background the renderers lay first.
pub fn fade_page(scene: &mut crate::scene::Scene, gradient: Option<Gradient>) {
    if gradient.is_none() {
        return;
    }
    let mut page = Vec::with_capacity(1);
    rect(
        &mut page,
        0.0,
        0.0,
        scene.width,
        scene.height,
        0.0,
        fading(scene.background, gradient, None),
    );
    scene.items.splice(0..0, page);
}

pub fn pt(x: f64, y: f64) -> Point {
    Point {
        x: round3(x),
        y: round3(y),
    }
}

pub fn rect(out: &mut Vec<Item>, x: f64, y: f64, w: f64, h: f64, radius: f64, p: Paint) {
    out.push(Item::Rect {
        x: round3(x),
        y: round3(y),
        width: round3(w.max(0.0)),
        height: round3(h.max(0.0)),
        radius: round3(radius),
        paint: p,
    });
}

pub fn line(out: &mut Vec<Item>, x1: f64, y1: f64, x2: f64, y2: f64, s: Stroke) {
    out.push(Item::Line {
        x1: round3(x1),
        y1: round3(y1),
        x2: round3(x2),
        y2: round3(y2),
        stroke: s,
    });
}

pub fn polygon(out: &mut Vec<Item>, points: &[(f64, f64)], p: Paint) {
    out.push(Item::Polygon {
        points: points.iter().map(|&(x, y)| pt(x, y)).collect(),
        paint: p,
    });
}

pub fn ellipse(out: &mut Vec<Item>, cx: f64, cy: f64, rx: f64, ry: f64, p: Paint) {
    out.push(Item::Ellipse {
        cx: round3(cx),
        cy: round3(cy),
        rx: round3(rx),
        ry: round3(ry),
        paint: p,
    });
}

/// A path builder with rounded coordinates.
pub struct PathBuilder(Vec<PathSegment>);

impl PathBuilder {
    pub fn new() -> Self {
        // Room for the usual outline (a note's body is six segments, its
        // corner five): grown from empty, each path reallocated twice
        // (3,500 reallocations over the corpus's notes alone).
        PathBuilder(Vec::with_capacity(8))
    }
    pub fn move_to(mut self, x: f64, y: f64) -> Self {
        self.0.push(PathSegment::MoveTo {
            x: round3(x),
            y: round3(y),
        });
        self
    }
    pub fn line_to(mut self, x: f64, y: f64) -> Self {
        self.0.push(PathSegment::LineTo {
            x: round3(x),
            y: round3(y),
        });
        self
    }
    pub fn cubic_to(mut self, x1: f64, y1: f64, x2: f64, y2: f64, x: f64, y: f64) -> Self {
        self.0.push(PathSegment::CubicTo {
            x1: round3(x1),
            y1: round3(y1),
            x2: round3(x2),
            y2: round3(y2),
            x: round3(x),
            y: round3(y),
        });
        self
    }
    pub fn close(mut self) -> Self {
        self.0.push(PathSegment::Close);
        self
    }
    pub fn push(self, out: &mut Vec<Item>, p: Paint) {
        out.push(Item::Path {
            segments: self.0,
            paint: p,
        });
    }
}

/// PlantUML's actor and database columns are the name's width plus this,
/// the name centered 3 px left of the figure's axis (observed in its SVGs).
const ACTOR_NAME_EXTRA: f64 = 6.0;
/// Half the width of a boundary's bar and circle (41 px).
const BOUNDARY_HALF_WIDTH: f64 = 20.5;
/// How far a collections head's back box stands right of and above its
/// front one.
const COLLECTIONS_OFFSET: f64 = 4.0;

/// The narrowest actor column: the stick figure's arms and a margin, for
/// the default 0.5 px stroke (`DEFAULT_LINE_THICKNESS`; PlantUML adds
/// twice the stroke's thickness).
const ACTOR_MIN_WIDTH: f64 = 27.0;
/// How far a queue's shape reaches below its row: PlantUML starts the
/// lifelines right under a queue but 1 px under every other head, so a
/// queue stands 1 px lower than its neighbours (and a row of queues alone
/// is 1 px shorter).
const QUEUE_BELOW_ROW: f64 = 1.0;

/// The room PlantUML keeps for a shadow (`skinparam shadowing true`, the
/// materia themes): a participant or collections head, a note, is laid out
/// this much wider and taller, its shape drawn at the top left of that
/// room; an actor's head is this much taller (observed with probes of each
/// element, shadowing on and off; the other kinds keep their size).
pub(crate) const SHADOW_ROOM: f64 = 3.0;

/// Room taken by a stereotype spot (circle and gap) before the name
/// (PlantUML 1.2026.8: the name starts 28 px further right).
pub(crate) const SPOT_WIDTH: f64 = 28.0;

/// Size of a participant head and how far it reaches left/right of the lifeline.
#[derive(Debug, Clone)]
pub struct HeadMetrics {
    pub kind: ParticipantKind,
    pub label: TextBlock,
    /// `<< (C,#color) >>`: a circled letter left of the name (participants only).
    pub spot: Option<(char, Color)>,
    /// The whole head's height, margins included.
    pub height: f64,
    pub left: f64,
    pub right: f64,
    /// Room around a participant box, counted in `height`, `left` and
    /// `right`; the box is drawn inside it.
    pub margin: Sides,
    /// Room between a participant box and its name, (vertical, horizontal).
    pub padding: (f64, f64),
    /// `skinparam minClassWidth`: the narrowest a participant box's name
    /// room is (the name stays at its padding from the left edge).
    pub min_text_width: f64,
    /// Width of the head's outline (`actor { LineThickness }`, each kind's
    /// own): an actor's figure grows with it and is offset by it, counted
    /// in `height`, `left` and `right`.
    pub line_thickness: f64,
    /// `skinparam actorStyle awesome`: an actor is a big head over a
    /// rounded bust instead of a stick figure.
    pub awesome_actor: bool,
    /// The room kept for a shadow (`SHADOW_ROOM` when shadowing), counted
    /// in `height`, `left` and `right` for the kinds that keep it.
    pub shadow_room: f64,
}

impl HeadMetrics {
    /// A head whose participant box (the `participant` kind only) has
    /// `padding` (vertical, horizontal) around its name and `margin` around it.
    pub fn with_box_room(
        kind: ParticipantKind,
        label: TextBlock,
        spot: Option<(char, Color)>,
        padding: (f64, f64),
        margin: Sides,
    ) -> HeadMetrics {
        let spot = spot.filter(|_| kind == ParticipantKind::Participant);
        let tw = label.width + if spot.is_some() { SPOT_WIDTH } else { 0.0 };
        let th = label.height;
        let (_width, height, left, right) = match kind {
            ParticipantKind::Participant => {
                let w = tw + 2.0 * padding.1;
                (
                    w,
                    th + 2.0 * padding.0 + margin.top + margin.bottom,
                    w / 2.0 + margin.left,
                    w / 2.0 + margin.right,
                )
            }
            // Two stacked boxes 4 px apart, each `padding` around the name;
            // the lifeline runs through the middle of the pair (PlantUML:
            // 2 px right of the front box's centre).
            ParticipantKind::Collections => {
                let w = tw + 2.0 * padding.1 + COLLECTIONS_OFFSET;
                (
                    w,
                    th + 2.0 * padding.0 + COLLECTIONS_OFFSET + margin.top + margin.bottom,
                    w / 2.0 + margin.left,
                    w / 2.0 + margin.right,
                )
            }
            ParticipantKind::Queue => (
                tw + 20.0,
                th + 10.0 - QUEUE_BELOW_ROW,
                (tw + 20.0) / 2.0,
                (tw + 20.0) / 2.0,
            ),
            ParticipantKind::Actor => {
                // PlantUML's actor column: the name plus 6 px (the name sits
                // 3 px left of the figure's axis), at least 27 px for the figure.
                let w = (tw + ACTOR_NAME_EXTRA).max(ACTOR_MIN_WIDTH);
                (w, th + 59.0, w / 2.0, w / 2.0)
            }
            // The lifeline runs through the middle of the column (for a
            // boundary, between its bar and its circle), the name centered
            // 3 px left of it, as PlantUML draws them.
            ParticipantKind::Boundary => {
                // 4 px of room on either side of the figure.
                let half = ((tw + ACTOR_NAME_EXTRA) / 2.0).max(BOUNDARY_HALF_WIDTH + 4.0);
                (half * 2.0, th + 31.0, half, half)
            }
            ParticipantKind::Control | ParticipantKind::Entity => {
                let half = ((tw + ACTOR_NAME_EXTRA) / 2.0).max(16.0);
                (half * 2.0, th + 31.0, half, half)
            }
            ParticipantKind::Database => {
                // Like the actor: the name plus 6 px, at least the 36 px cylinder.
                let half = ((tw + ACTOR_NAME_EXTRA) / 2.0).max(18.0);
                (half * 2.0, th + 45.0, half, half)
            }
        };
        let (margin, padding) = if matches!(kind, ParticipantKind::Participant | ParticipantKind::Collections) {
            (margin, padding)
        } else {
            (Sides::all(0.0), (7.0, 7.0))
        };
        HeadMetrics {
            kind,
            label,
            spot,
            height,
            left,
            right,
            margin,
            padding,
            min_text_width: 0.0,
            line_thickness: DEFAULT_LINE_THICKNESS,
            awesome_actor: false,
            shadow_room: 0.0,
        }
    }

    /// A head with room for its shadow (see `SHADOW_ROOM`): participant and
    /// collections heads grow right and down, a stick actor's down (below
    /// its figure); the other kinds keep their size.
    pub fn with_shadow_room(mut self, room: f64) -> HeadMetrics {
        match self.kind {
            ParticipantKind::Participant | ParticipantKind::Collections => {
                self.left += room / 2.0;
                self.right += room / 2.0;
                self.height += room;
            }
            // The awesome actor keeps its size (PlantUML, probe
            // `shadowing_awesome_actor`).
            ParticipantKind::Actor if !self.awesome_actor => self.height += room,
            _ => return self,
        }
        self.shadow_room = room;
        self
    }

    /// The head drawn with outlines `thickness` wide and, for an actor,
    /// in the awesome style if `awesome`. PlantUML 1.2026.8 (observed
    /// with `actor { LineThickness }` from 0 to 30): an actor's figure
    /// starts one thickness below the head's top and its name two
    /// thicknesses below the stick figure's 0.5 px outline; the narrowest
    /// stick-figure column is `26 + 2 × thickness`; the awesome figure is
    /// 1 px taller and 54 px plus two thicknesses wide. The other kinds
    /// keep their size.
    pub fn with_outline(mut self, thickness: f64, awesome: bool) -> HeadMetrics {
        self.line_thickness = thickness;
        if self.kind == ParticipantKind::Actor {
            self.awesome_actor = awesome;
            let grow = 2.0 * (thickness - DEFAULT_LINE_THICKNESS);
            self.height += grow + if awesome { 1.0 } else { 0.0 };
            let half = if awesome {
                self.left.max(AWESOME_HALF_WIDTH + thickness)
            } else {
                (self.label.width + ACTOR_NAME_EXTRA).max(ACTOR_MIN_WIDTH + grow) / 2.0
            };
            self.left = half;
            self.right = half;
        }
        self
    }
}

/// PlantUML's outline width of participant heads.
pub const DEFAULT_LINE_THICKNESS: f64 = 0.5;
/// Half the width of the awesome actor's bust.
const AWESOME_HALF_WIDTH: f64 = 27.0;
/// Radius of the awesome actor's head.
const AWESOME_HEAD_RADIUS: f64 = 16.0;

/// The awesome actor: a 16 px head over a rounded bust 54 px wide, its
/// shape as PlantUML 1.2026.8 draws it (observed), filled like the head.
fn draw_awesome_actor(out: &mut Vec<Item>, cx: f64, figure_top: f64, body: Paint) {
    let r = AWESOME_HEAD_RADIUS;
    let cy = figure_top + r;
    ellipse(out, cx, cy, r, r, body);
    // Offsets from the head's centre, clockwise from the neck.
    let (x, y) = (cx, cy);
    let w = AWESOME_HALF_WIDTH;
    PathBuilder::new()
        .move_to(x, y + 20.0)
        .cubic_to(x + 4.0, y + 20.0, x + 7.0, y + 20.0, x + 11.0, y + 16.0)
        .cubic_to(x + 19.0, y + 16.0, x + w, y + 24.0, x + w, y + 32.0)
        .line_to(x + w, y + 36.0)
        .cubic_to(x + w, y + 40.0, x + 23.0, y + 44.0, x + 19.0, y + 44.0)
        .line_to(x - 19.0, y + 44.0)
        .cubic_to(x - 23.0, y + 44.0, x - w, y + 40.0, x - w, y + 36.0)
        .line_to(x - w, y + 32.0)
        .cubic_to(x - w, y + 24.0, x - 19.0, y + 16.0, x - 11.0, y + 16.0)
        .cubic_to(x - 7.0, y + 20.0, x - 4.0, y + 20.0, x, y + 20.0)
        .push(out, body);
}

/// Draws a head with its lifeline at `cx`, occupying `top..top + head.height`.
/// `foot` mirrors the icon kinds (name above the icon).
pub fn draw_head(
    out: &mut Vec<Item>,
    head: &HeadMetrics,
    cx: f64,
    top: f64,
    foot: bool,
    body: Paint,
    text_color: Color,
    theme: &Theme,
) {
    let tw = head.label.width;
    let th = head.label.height;
    // `defaultTextAlignment right`: a name under a wider stereotype line
    // ends where the line ends (probe `s_defaulttextalignment_right`).
    let label_align = if theme.default_text_right {
        Align::Right
    } else {
        Align::Center
    };
    let border = body.stroke.map_or(Color::BLACK, |s| s.color);
    let outline = paint(None, body.stroke);
    // The figures drawn as lines (an actor's limbs, a boundary's bar) cast
    // their shadow too; the inner curves of databases and queues, a
    // control's arrow and an entity's underline do not (observed).
    let figure = Paint {
        shadow: body.shadow,
        ..outline
    };
    match head.kind {
        ParticipantKind::Participant => {
            // The box stands at the left of its shadow's room.
            let cx = cx - head.shadow_room / 2.0;
            let spot_w = if head.spot.is_some() { SPOT_WIDTH } else { 0.0 };
            let (pad_y, pad_x) = head.padding;
            let w = (tw + spot_w).max(head.min_text_width) + 2.0 * pad_x;
            let top = top + head.margin.top;
            rect(out, cx - w / 2.0, top, w, th + 2.0 * pad_y, theme.round_corner, body);
            if let Some((letter, color)) = head.spot {
                let scx = cx - w / 2.0 + pad_x + 11.0;
                // Level with the first line (the stereotype), not centred
                // on the whole label, as PlantUML places it.
                let scy = top + pad_y + 11.0;
                ellipse(out, scx, scy, 11.0, 11.0, paint(Some(color), Some(stroke(border, 1.0))));
                // PlantUML draws the letter as an outline; a character
                // without one is drawn as text.
                if !crate::spot_glyphs::draw_spot_letter(out, letter, scx, scy) {
                    let font = crate::scene::Font::sans(13.0).bold();
                    out.push(Item::Text(crate::scene::TextRun {
                        x: round3(scx - 4.5),
                        y: round3(scy + 4.5),
                        text: letter.to_string(),
                        font,
                        color: Color::BLACK,
                        width: 0.0,
                        underline: false,
                        strike: false,
                        link: None,
                    }));
                }
            }
            head.label
                .draw(cx - w / 2.0 + pad_x + spot_w, top + pad_y, label_align, text_color, out);
        }
        ParticipantKind::Collections => {
            let (pad_y, pad_x) = head.padding;
            let top = top + head.margin.top;
            let w = tw + 2.0 * pad_x;
            let h = th + 2.0 * pad_y;
            let x = cx - head.shadow_room / 2.0 - w / 2.0 - COLLECTIONS_OFFSET / 2.0;
            rect(out, x + COLLECTIONS_OFFSET, top, w, h, 0.0, body);
            rect(out, x, top + COLLECTIONS_OFFSET, w, h, 0.0, body);
            head.label.draw(
                x + pad_x,
                top + COLLECTIONS_OFFSET + pad_y,
                label_align,
                text_color,
                out,
            );
        }
        ParticipantKind::Queue => {
            let w = tw + 20.0;
            let x = cx - w / 2.0;
            // 1 px taller than its head: at the top the shape reaches into
            // the 1 px between the row and the lifelines, at the foot it
            // stands on its row's top.
            let h = head.height + QUEUE_BELOW_ROW;
            let mid = top + h / 2.0;
            PathBuilder::new()
                .move_to(x + 5.0, top)
                .line_to(x + w - 5.0, top)
                .cubic_to(x + w, top, x + w, mid, x + w, mid)
                .cubic_to(x + w, mid, x + w, top + h, x + w - 5.0, top + h)
                .line_to(x + 5.0, top + h)
                .cubic_to(x, top + h, x, mid, x, mid)
                .cubic_to(x, mid, x, top, x + 5.0, top)
                .close()
                .push(out, body);
            PathBuilder::new()
                .move_to(x + w - 5.0, top)
                .cubic_to(x + w - 10.0, top, x + w - 10.0, mid, x + w - 10.0, mid)
                .cubic_to(x + w - 10.0, top + h, x + w - 5.0, top + h, x + w - 5.0, top + h)
                .push(out, outline);
            head.label.draw(x + 5.0, top + 5.0, label_align, text_color, out);
        }
        ParticipantKind::Actor => {
            let t = head.line_thickness;
            let figure_height = 59.0 + 2.0 * (t - DEFAULT_LINE_THICKNESS) + if head.awesome_actor { 1.0 } else { 0.0 };
            let (figure_top, text_top) = if foot {
                (top + th + t, top)
            } else {
                // The shadow's room lies between the figure and the name.
                (top + t, top + figure_height + 1.0 + head.shadow_room)
            };
            if head.awesome_actor {
                draw_awesome_actor(out, cx, figure_top, body);
            } else {
                let cy = figure_top + 8.0;
                ellipse(out, cx, cy, 8.0, 8.0, body);
                let neck = cy + 8.0;
                PathBuilder::new()
                    .move_to(cx, neck)
                    .line_to(cx, neck + 27.0)
                    .move_to(cx - 13.0, neck + 8.0)
                    .line_to(cx + 13.0, neck + 8.0)
                    .move_to(cx, neck + 27.0)
                    .line_to(cx - 13.0, neck + 42.0)
                    .move_to(cx, neck + 27.0)
                    .line_to(cx + 13.0, neck + 42.0)
                    .push(out, figure);
            }
            head.label.draw(
                cx - ACTOR_NAME_EXTRA / 2.0 - tw / 2.0,
                text_top,
                label_align,
                text_color,
                out,
            );
        }
        ParticipantKind::Boundary | ParticipantKind::Control | ParticipantKind::Entity => {
            let (icon_top, text_top) = if foot {
                (top + th + 4.0, top)
            } else {
                (top + 4.0, top + 32.0)
            };
            let cy = icon_top + 12.0;
            match head.kind {
                ParticipantKind::Boundary => {
                    // Bar and circle (41 px together) centered on the lifeline.
                    let bar = cx - BOUNDARY_HALF_WIDTH;
                    let circle = bar + 29.0;
                    PathBuilder::new()
                        .move_to(bar, cy - 12.0)
                        .line_to(bar, cy + 12.0)
                        .move_to(bar, cy)
                        .line_to(circle - 12.0, cy)
                        .push(out, figure);
                    ellipse(out, circle, cy, 12.0, 12.0, body);
                }
                ParticipantKind::Control => {
                    ellipse(out, cx, cy, 12.0, 12.0, body);
                    polygon(
                        out,
                        &[
                            (cx - 4.0, cy - 12.0),
                            (cx + 2.0, cy - 17.0),
                            (cx, cy - 12.0),
                            (cx + 2.0, cy - 7.0),
                        ],
                        paint(Some(border), Some(stroke(border, 1.0))),
                    );
                }
                _ => {
                    ellipse(out, cx, cy, 12.0, 12.0, body);
                    line(out, cx - 12.0, cy + 14.0, cx + 12.0, cy + 14.0, stroke(border, 0.5));
                }
            }
            head.label.draw(
                cx - ACTOR_NAME_EXTRA / 2.0 - tw / 2.0,
                text_top,
                label_align,
                text_color,
                out,
            );
        }
        ParticipantKind::Database => {
            let (icon_top, text_top) = if foot { (top + th, top) } else { (top + 0.0, top + 46.0) };
            let x0 = cx - 18.0;
            let x1 = cx + 18.0;
            let t = icon_top + 10.0;
            let b = icon_top + 36.0;
            PathBuilder::new()
                .move_to(x0, t)
                .cubic_to(x0, t - 10.0, cx, t - 10.0, cx, t - 10.0)
                .cubic_to(cx, t - 10.0, x1, t - 10.0, x1, t)
                .line_to(x1, b)
                .cubic_to(x1, b + 10.0, cx, b + 10.0, cx, b + 10.0)
                .cubic_to(cx, b + 10.0, x0, b + 10.0, x0, b)
                .line_to(x0, t)
                .close()
                .push(out, body);
            PathBuilder::new()
                .move_to(x0, t)
                .cubic_to(x0, t + 10.0, cx, t + 10.0, cx, t + 10.0)
                .cubic_to(cx, t + 10.0, x1, t + 10.0, x1, t)
                .push(out, outline);
            head.label.draw(
                cx - ACTOR_NAME_EXTRA / 2.0 - tw / 2.0,
                text_top,
                label_align,
                text_color,
                out,
            );
        }
    }
}

/// Arrow head with its tip at `(tip_x, y)`; `dir` is +1 pointing right, -1 left.
pub fn arrow_head(out: &mut Vec<Item>, shape: HeadShape, tip_x: f64, y: f64, dir: f64, color: Color, strict: bool) {
    let back = tip_x - 10.0 * dir;
    let inner = tip_x - 6.0 * dir;
    let filled = paint(Some(color), Some(stroke(color, 1.0)));
    match shape {
        HeadShape::None => {}
        HeadShape::Filled if strict => polygon(out, &[(back, y - 4.0), (tip_x, y), (back, y + 4.0)], filled),
        HeadShape::Filled => polygon(out, &[(back, y - 4.0), (tip_x, y), (back, y + 4.0), (inner, y)], filled),
        HeadShape::Open => {
            line(out, tip_x, y, back, y - 4.0, stroke(color, 1.0));
            line(out, tip_x, y, back, y + 4.0, stroke(color, 1.0));
        }
        // A half head is a plain triangle: its third point is level with
        // the first, on the line (PlantUML, probes `arrows`, `half_heads_left`).
        HeadShape::HalfUpper => polygon(out, &[(back, y - 4.0), (tip_x, y), (back, y)], filled),
        HeadShape::HalfLower => polygon(out, &[(back, y), (tip_x, y), (back, y + 4.0)], filled),
        HeadShape::HalfUpperOpen => line(out, tip_x, y, back, y - 4.0, stroke(color, 1.0)),
        HeadShape::HalfLowerOpen => line(out, tip_x, y, back, y + 4.0, stroke(color, 1.0)),
        HeadShape::Cross => {
            let cx = tip_x - 5.0 * dir;
            line(out, cx - 5.0, y - 5.0, cx + 5.0, y + 5.0, stroke(color, 2.0));
            line(out, cx - 5.0, y + 5.0, cx + 5.0, y - 5.0, stroke(color, 2.0));
        }
    }
}

/// A note body of `shape` at `(x, y)` sized `w × h`, filled with `fill`
/// (a colour and the gradient it may fade along).
#[allow(clippy::too_many_arguments)]
pub fn note_shape(
    out: &mut Vec<Item>,
    shape: NoteShape,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    fill: (Color, Option<Gradient>),
    border: Color,
) {
    let p = Paint {
        fill: Some(fill.0),
        stroke: Some(stroke(border, 0.5)),
        gradient: fill.1,
        shadow: None,
    };
    match shape {
        NoteShape::Note => {
            PathBuilder::new()
                .move_to(x, y)
                .line_to(x, y + h)
                .line_to(x + w, y + h)
                .line_to(x + w, y + 10.0)
                .line_to(x + w - 10.0, y)
                .line_to(x, y)
                .close()
                .push(out, p);
            PathBuilder::new()
                .move_to(x + w - 10.0, y)
                .line_to(x + w - 10.0, y + 10.0)
                .line_to(x + w, y + 10.0)
                .line_to(x + w - 10.0, y)
                .close()
                .push(out, p);
        }
        NoteShape::Hexagon => {
            // PlantUML draws the body between the points at whole pixels
            // (its width and the points' height rounded down).
            let right = x + 10.0 + (w - 20.0).floor();
            let h = h.floor();
            let mid = y + (h / 2.0).floor();
            polygon(
                out,
                &[
                    (x + 10.0, y),
                    (right, y),
                    (right + 10.0, mid),
                    (right, y + h),
                    (x + 10.0, y + h),
                    (x, mid),
                ],
                p,
            )
        }
        NoteShape::Rectangle => rect(out, x, y, w, h, 0.0, p),
    }
}

/// Gives a drawn shape PlantUML's drop shadow (see `Paint::shadowed`);
/// lines and texts cast none.
pub fn cast_shadow(item: &mut Item) {
    match item {
        Item::Rect { paint, .. }
        | Item::Polygon { paint, .. }
        | Item::Ellipse { paint, .. }
        | Item::Path { paint, .. } => {
            *paint = paint.shadowed(true);
        }
        Item::Line { .. } | Item::Text(_) | Item::Begin { .. } | Item::End => {}
    }
}

/// A frame tab (group/ref/mainframe label) with a cut corner.
pub fn tab(
    out: &mut Vec<Item>,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    fill: (Color, Option<Gradient>),
    border: Color,
    width: f64,
) {
    // A width of 0 draws no outline (most of PlantUML's themes).
    let outline = (width > 0.0).then(|| stroke(border, width));
    PathBuilder::new()
        .move_to(x, y)
        .line_to(x + w, y)
        .line_to(x + w, y + h - 10.0)
        .line_to(x + w - 10.0, y + h)
        .line_to(x, y + h)
        .line_to(x, y)
        .close()
        .push(out, fading_or_none(fill.0, fill.1, outline));
}
