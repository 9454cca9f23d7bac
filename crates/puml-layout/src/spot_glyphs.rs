//! The letters of stereotype spots (`<< (C,#ADD1B2) >>`) as outlines, the
//! way PlantUML 1.2026.8 draws them: a path of the glyph of DejaVu Sans Mono
//! Bold at 17 px, filled black, its outline's box centred on the circle
//! 0.2 px above its centre (observed: probe `render/spot_letters`, corpus
//! 126-129; the outlines' sizes match the font's to 0.01 px).
//!
//! The outlines are read from the DejaVu Sans Mono Bold that puml embeds
//! for its metrics (the `dejavu` crate). Letters and digits only: PlantUML
//! was observed with those; any other spot character is drawn as text.

use crate::scene::{round3, Color, Item, Paint, PathSegment};
use std::sync::OnceLock;

/// The spot letter's size (PlantUML's font for it).
const SIZE: f64 = 17.0;
/// PlantUML centres the outline this far above the circle's centre.
const RAISE: f64 = 0.2;

fn spot_face() -> Option<&'static ttf_parser::Face<'static>> {
    static FACE: OnceLock<Option<ttf_parser::Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(dejavu::sans_mono::bold(), 0).ok())
        .as_ref()
}

/// One outline step in font units (y up).
#[derive(Clone, Copy)]
enum Step {
    Move(f32, f32),
    Line(f32, f32),
    Quad(f32, f32, f32, f32),
    Cubic(f32, f32, f32, f32, f32, f32),
    Close,
}

#[derive(Default)]
struct Outline(Vec<Step>);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Step::Move(x, y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(Step::Line(x, y));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.push(Step::Quad(x1, y1, x, y));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.push(Step::Cubic(x1, y1, x2, y2, x, y));
    }
    fn close(&mut self) {
        self.0.push(Step::Close);
    }
}

impl Outline {
    /// Every point of the outline, control points included (PlantUML
    /// centres the box of all of them).
    fn points(&self) -> impl Iterator<Item = (f32, f32)> + '_ {
        self.0
            .iter()
            .flat_map(|step| match *step {
                Step::Move(x, y) | Step::Line(x, y) => [Some((x, y)), None, None],
                Step::Quad(qx, qy, x, y) => [Some((qx, qy)), Some((x, y)), None],
                Step::Cubic(ax, ay, bx, by, x, y) => [Some((ax, ay)), Some((bx, by)), Some((x, y))],
                Step::Close => [None, None, None],
            })
            .flatten()
    }
}

/// One outline step relative to the letter's anchor, in page units (y
/// down): a font point's offset from the middle of the outline's box,
/// scaled to the spot's size. Tracing adds the spot's centre to these,
/// the same sum in the same order as scaling in place, so the page gets
/// the same numbers to the last digit.
#[derive(Clone, Copy)]
enum Offset {
    Move(f64, f64),
    Line(f64, f64),
    Quad(f64, f64, f64, f64),
    Cubic(f64, f64, f64, f64, f64, f64),
    Close,
}

/// A letter's outline scaled once to the spot's size, relative to the
/// middle of the box of all its points.
struct Glyph {
    offsets: Vec<Offset>,
}

/// The outline of `letter` (an ASCII letter or digit), read from the font
/// and scaled once per process: parsing it was most of a class box's
/// drawing, scaling it again for every class a tenth of what was left.
fn glyph(letter: char) -> Option<&'static Glyph> {
    static GLYPHS: OnceLock<Vec<Option<Glyph>>> = OnceLock::new();
    let glyphs = GLYPHS.get_or_init(|| (0..128u8).map(|b| read_glyph(char::from(b))).collect());
    glyphs.get(letter as usize)?.as_ref()
}

fn read_glyph(letter: char) -> Option<Glyph> {
    if !letter.is_ascii_alphanumeric() {
        return None;
    }
    let face = spot_face()?;
    let glyph = face.glyph_index(letter)?;
    let mut outline = Outline::default();
    face.outline_glyph(glyph, &mut outline)?;
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (x, y) in outline.points() {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return None;
    }
    let mid_x = (f64::from(x0) + f64::from(x1)) / 2.0;
    let mid_y = (f64::from(y0) + f64::from(y1)) / 2.0;
    let k = SIZE / f64::from(face.units_per_em());
    // Font units (y up) to offsets from the box's middle; the page's y
    // subtracts them.
    let dx = |x: f32| (f64::from(x) - mid_x) * k;
    let dy = |y: f32| (f64::from(y) - mid_y) * k;
    let offsets = outline
        .0
        .iter()
        .map(|step| match *step {
            Step::Move(x, y) => Offset::Move(dx(x), dy(y)),
            Step::Line(x, y) => Offset::Line(dx(x), dy(y)),
            Step::Quad(qx, qy, x, y) => Offset::Quad(dx(qx), dy(qy), dx(x), dy(y)),
            Step::Cubic(ax, ay, bx, by, x, y) => Offset::Cubic(dx(ax), dy(ay), dx(bx), dy(by), dx(x), dy(y)),
            Step::Close => Offset::Close,
        })
        .collect();
    Some(Glyph { offsets })
}

/// Draws `letter` centred on the spot circle at `(cx, cy)`; false when there
/// is no outline for it (the caller then draws it as text).
pub(crate) fn draw_spot_letter(out: &mut Vec<Item>, letter: char, cx: f64, cy: f64) -> bool {
    // Boxes are drawn at the origin, so a diagram's spots sit at the same
    // few centres: a path drawn lately is copied, not traced again.
    let key = (letter, cx.to_bits(), cy.to_bits());
    let cached = DRAWN.with(|drawn| {
        let drawn = drawn.borrow();
        drawn
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, segments)| segments.clone())
    });
    let segments = match cached {
        Some(segments) => segments,
        None => {
            let Some(segments) = trace_spot_letter(letter, cx, cy) else {
                return false;
            };
            DRAWN.with(|drawn| {
                let mut drawn = drawn.borrow_mut();
                if drawn.len() >= DRAWN_KEPT {
                    drawn.remove(0);
                }
                drawn.push((key, segments.clone()));
            });
            segments
        }
    };
    out.push(Item::Path {
        segments,
        paint: Paint {
            fill: Some(Color::BLACK),
            stroke: None,
            gradient: None,
            shadow: None,
        },
    });
    true
}

/// How many drawn spot paths each thread keeps.
const DRAWN_KEPT: usize = 16;

/// A spot path drawn lately: by letter and centre (the bits of `cx`, `cy`).
type DrawnSpot = ((char, u64, u64), Vec<PathSegment>);

thread_local! {
    static DRAWN: std::cell::RefCell<Vec<DrawnSpot>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The path of `letter` centred on `(cx, cy)`; `None` when there is no
/// outline for it.
fn trace_spot_letter(letter: char, cx: f64, cy: f64) -> Option<Vec<PathSegment>> {
    let Glyph { offsets } = glyph(letter)?;
    // The box's middle on the centre, raised.
    let top = cy - RAISE;
    let at = |dx: f64, dy: f64| (cx + dx, top - dy);
    // One segment per step, pushed into a path sized once and rounded as
    // `PathBuilder` rounds (its calls, out of line, were half the tracing).
    let mut segments = Vec::with_capacity(offsets.len());
    let mut current = (0.0, 0.0);
    for offset in offsets {
        segments.push(match *offset {
            Offset::Move(x, y) => {
                current = at(x, y);
                PathSegment::MoveTo {
                    x: round3(current.0),
                    y: round3(current.1),
                }
            }
            Offset::Line(x, y) => {
                current = at(x, y);
                PathSegment::LineTo {
                    x: round3(current.0),
                    y: round3(current.1),
                }
            }
            Offset::Quad(qx, qy, x, y) => {
                // The quadratic as the cubic that draws it, from the page's
                // numbers (from the offsets it would round otherwise).
                let (q, end) = (at(qx, qy), at(x, y));
                let c1 = (
                    current.0 + 2.0 / 3.0 * (q.0 - current.0),
                    current.1 + 2.0 / 3.0 * (q.1 - current.1),
                );
                let c2 = (end.0 + 2.0 / 3.0 * (q.0 - end.0), end.1 + 2.0 / 3.0 * (q.1 - end.1));
                current = end;
                cubic(c1, c2, end)
            }
            Offset::Cubic(ax, ay, bx, by, x, y) => {
                let (a, b, end) = (at(ax, ay), at(bx, by), at(x, y));
                current = end;
                cubic(a, b, end)
            }
            Offset::Close => PathSegment::Close,
        });
    }
    Some(segments)
}

/// A cubic segment through rounded points (inlined: most of a letter's
/// segments are cubics).
#[inline(always)]
fn cubic(c1: (f64, f64), c2: (f64, f64), end: (f64, f64)) -> PathSegment {
    PathSegment::CubicTo {
        x1: round3(c1.0),
        y1: round3(c1.1),
        x2: round3(c2.0),
        y2: round3(c2.1),
        x: round3(end.0),
        y: round3(end.1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_digits_have_outlines_centred_on_the_spot() {
        for letter in ('0'..='9').chain('A'..='Z').chain('a'..='z') {
            let mut out = Vec::new();
            assert!(draw_spot_letter(&mut out, letter, 100.0, 50.0), "{letter}");
            assert_eq!(out.len(), 1);
        }
        let mut out = Vec::new();
        assert!(!draw_spot_letter(&mut out, '€', 100.0, 50.0));
        assert!(out.is_empty());
    }
}
