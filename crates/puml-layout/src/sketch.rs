//! The hand-drawn look of PlantUML's `sketchy` themes, approximated: every
//! straight outline (boxes, lines, polygons) becomes a polyline, each side
//! cut into at least 5 pieces of about 10 px whose joints move across the
//! outline by up to a tenth of a piece, as PlantUML's SVG shows. The
//! offsets are a function of the drawing, so a diagram always renders to
//! the same bytes. Texts, ellipses and curves are drawn as they are.

use crate::scene::{round3, Item, PathSegment, Point, Scene};

/// Length of the pieces a long side is cut into.
const STEP: f64 = 10.0;
/// The fewest pieces a side is cut into, however short.
const MIN_PIECES: usize = 5;
/// How far a joint may move across the outline, as a share of its piece.
const AMPLITUDE: f64 = 0.1;

/// Redraws `scene`'s straight outlines by hand.
pub fn sketch(scene: &mut Scene) {
    for (index, item) in scene.items.iter_mut().enumerate() {
        let mut jitter = Jitter::new(index as u64);
        let replacement = match item {
            Item::Rect {
                x,
                y,
                width,
                height,
                paint,
                ..
            } if *width > 0.0 && *height > 0.0 => {
                let corners = [
                    Point { x: *x, y: *y },
                    Point { x: *x + *width, y: *y },
                    Point {
                        x: *x + *width,
                        y: *y + *height,
                    },
                    Point { x: *x, y: *y + *height },
                ];
                Some(Item::Polygon {
                    points: closed_outline(&corners, &mut jitter),
                    paint: *paint,
                })
            }
            Item::Polygon { points, paint } if points.len() >= 3 => Some(Item::Polygon {
                points: closed_outline(points, &mut jitter),
                paint: *paint,
            }),
            Item::Line { x1, y1, x2, y2, stroke } => {
                let mut segments = vec![PathSegment::MoveTo { x: *x1, y: *y1 }];
                let from = Point { x: *x1, y: *y1 };
                let to = Point { x: *x2, y: *y2 };
                for point in along(from, to, &mut jitter).into_iter().skip(1) {
                    segments.push(PathSegment::LineTo { x: point.x, y: point.y });
                }
                segments.push(PathSegment::LineTo { x: *x2, y: *y2 });
                Some(Item::Path {
                    segments,
                    paint: crate::scene::Paint {
                        fill: None,
                        stroke: Some(*stroke),
                        gradient: None,
                        shadow: None,
                    },
                })
            }
            _ => None,
        };
        if let Some(replacement) = replacement {
            *item = replacement;
        }
    }
}

/// The outline through `corners` (closed), with jittered points between them.
fn closed_outline(corners: &[Point], jitter: &mut Jitter) -> Vec<Point> {
    let mut points = Vec::new();
    for (i, &from) in corners.iter().enumerate() {
        let to = corners[(i + 1) % corners.len()];
        points.extend(along(from, to, jitter));
    }
    points
}

/// `from` and the jittered joints of the pieces towards `to` (not `to`).
fn along(from: Point, to: Point, jitter: &mut Jitter) -> Vec<Point> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let length = dx.hypot(dy);
    // Bounded: a side of any length gets at most 1,000 pieces.
    let steps = ((length / STEP).floor() as usize).clamp(MIN_PIECES, 1_000);
    let amplitude = (AMPLITUDE * length / steps as f64).min(1.0);
    let (nx, ny) = if length > 0.0 {
        (-dy / length, dx / length)
    } else {
        (0.0, 0.0)
    };
    let mut points = vec![from];
    for step in 1..steps {
        let t = step as f64 / steps as f64;
        let offset = jitter.next() * amplitude;
        points.push(Point {
            x: round3(from.x + dx * t + nx * offset),
            y: round3(from.y + dy * t + ny * offset),
        });
    }
    points
}

/// A small deterministic generator (xorshift) of offsets in [-1, 1].
struct Jitter(u64);

impl Jitter {
    fn new(seed: u64) -> Jitter {
        Jitter(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Color, Paint, Stroke};

    fn scene_with(items: Vec<Item>) -> Scene {
        Scene {
            width: 100.0,
            height: 100.0,
            background: Color::WHITE,
            items,
        }
    }

    #[test]
    fn outlines_become_jittered_polylines_that_stay_close_and_repeat() {
        let stroke = Stroke {
            color: Color::BLACK,
            width: 1.0,
            dash: None,
        };
        let items = vec![
            Item::Rect {
                x: 10.0,
                y: 10.0,
                width: 50.0,
                height: 20.0,
                radius: 0.0,
                paint: Paint {
                    fill: Some(Color::WHITE),
                    stroke: Some(stroke),
                    gradient: None,
                    shadow: None,
                },
            },
            Item::Line {
                x1: 0.0,
                y1: 50.0,
                x2: 95.0,
                y2: 50.0,
                stroke,
            },
        ];
        let mut first = scene_with(items.clone());
        sketch(&mut first);
        let mut second = scene_with(items);
        sketch(&mut second);
        assert_eq!(first.items, second.items, "the same drawing jitters the same way");
        let Item::Polygon { points, .. } = &first.items[0] else {
            panic!("a box becomes a polygon: {:?}", first.items[0]);
        };
        assert_eq!(points.len(), 4 * 5, "every side in 5 pieces");
        assert!(points
            .iter()
            .all(|p| (9.0..=61.0).contains(&p.x) && (9.0..=31.0).contains(&p.y)));
        let Item::Path { segments, .. } = &first.items[1] else {
            panic!("a line becomes a path: {:?}", first.items[1]);
        };
        assert_eq!(segments.len(), 1 + 9, "a 95 px line in 9 pieces");
        assert!(segments
            .iter()
            .any(|s| matches!(s, PathSegment::LineTo { y, .. } if *y != 50.0)));
        assert!(segments.iter().all(|s| match s {
            PathSegment::MoveTo { y, .. } | PathSegment::LineTo { y, .. } => (y - 50.0).abs() <= 1.0,
            _ => false,
        }));
    }
}
