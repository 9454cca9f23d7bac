//! The scene: plain geometry produced by layout and consumed by the
//! renderers. Coordinates are pixels, origin top-left, y down, rounded to
//! 1/1000 px so that the same model always gives the same numbers.
//!
//! Items are a flat list drawn in order (later items on top). Grouping is
//! expressed by `Begin`/`End` markers rather than nesting so that every walk
//! over a scene stays iterative.

#[cfg(feature = "serde")]
use serde::Serialize;

/// An sRGB color with alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Color {
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    pub const WHITE: Color = Color::rgb(255, 255, 255);

    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b, a: 255 }
    }

    /// `0xRRGGBB`.
    pub const fn hex(v: u32) -> Color {
        Color::rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
    }

    /// `#RRGGBB` (alpha is written separately as an opacity).
    pub fn to_hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.r, self.g, self.b)
    }

    /// Relative luminance in 0..=1, used to pick readable text colors.
    pub fn luminance(self) -> f64 {
        (0.2126 * f64::from(self.r) + 0.7152 * f64::from(self.g) + 0.0722 * f64::from(self.b)) / 255.0
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Stroke {
    pub color: Color,
    pub width: f64,
    /// Dash and gap lengths; `None` for a solid line.
    pub dash: Option<(f64, f64)>,
}

/// Fill and outline of a closed shape; either may be absent.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Paint {
    pub fill: Option<Color>,
    pub stroke: Option<Stroke>,
    /// The fill fades from `fill` to this gradient's colour.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub gradient: Option<Gradient>,
    /// PlantUML's drop shadow (`skinparam shadowing true`, the shadowing
    /// themes): a blurred copy of the shape drawn this far right and down,
    /// in px, behind it (see `SHADOW_OFFSET`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub shadow: Option<f64>,
}

/// How far PlantUML 1.2026.8 moves a shape's shadow right and down (its
/// SVG filter: `feOffset dx=4 dy=4` over a `feGaussianBlur` of deviation 2
/// at 40 % black; observed with the oracle, scaled with the drawing).
pub const SHADOW_OFFSET: f64 = 4.0;

impl Paint {
    /// This paint with PlantUML's drop shadow behind the shape when `on`.
    pub fn shadowed(self, on: bool) -> Paint {
        Paint {
            shadow: on.then_some(SHADOW_OFFSET),
            ..self
        }
    }
}

/// A two-colour linear gradient over a shape's box: PlantUML's `#A-B`,
/// `#A|B`, `#A/B` and `#A\B` fills (the first colour is the paint's fill).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Gradient {
    pub to: Color,
    pub direction: GradientDirection,
}

/// Which way a gradient runs, as PlantUML 1.2026.8 draws each separator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum GradientDirection {
    /// `-`
    TopToBottom,
    /// `|`
    LeftToRight,
    /// `/`
    TopLeftToBottomRight,
    /// `\`
    BottomLeftToTopRight,
}

#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(tag = "op", rename_all = "snake_case"))]
pub enum PathSegment {
    MoveTo {
        x: f64,
        y: f64,
    },
    LineTo {
        x: f64,
        y: f64,
    },
    CubicTo {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        x: f64,
        y: f64,
    },
    Close,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum FontFamily {
    Sans,
    Mono,
    Serif,
    /// DejaVu Sans Condensed: not embedded; its advances are DejaVu Sans's
    /// at 90 % (see `font.rs`), drawn as DejaVu Sans squeezed to them.
    #[cfg_attr(feature = "serde", serde(rename = "sans-condensed"))]
    SansCondensed,
    /// DejaVu Serif Condensed, measured and drawn like [`FontFamily::SansCondensed`].
    #[cfg_attr(feature = "serde", serde(rename = "serif-condensed"))]
    SerifCondensed,
}

impl FontFamily {
    /// Whether this is one of the condensed faces (90 % advances).
    pub fn is_condensed(self) -> bool {
        matches!(self, FontFamily::SansCondensed | FontFamily::SerifCondensed)
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Font {
    pub family: FontFamily,
    pub size: f64,
    pub bold: bool,
    pub italic: bool,
}

impl Font {
    pub const fn sans(size: f64) -> Font {
        Font {
            family: FontFamily::Sans,
            size,
            bold: false,
            italic: false,
        }
    }
    pub const fn bold(self) -> Font {
        Font { bold: true, ..self }
    }
    pub const fn italic(self) -> Font {
        Font { italic: true, ..self }
    }
}

/// One run of text in a single font, drawn from its baseline start point.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct TextRun {
    pub x: f64,
    /// Baseline.
    pub y: f64,
    pub text: String,
    pub font: Font,
    pub color: Color,
    /// Advance width measured with the embedded font.
    pub width: f64,
    pub underline: bool,
    pub strike: bool,
    /// An `http(s)` link target (`[[url label]]`), already validated.
    pub link: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(tag = "type", rename_all = "snake_case"))]
pub enum Item {
    Rect {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
        /// Corner radius.
        radius: f64,
        paint: Paint,
    },
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        stroke: Stroke,
    },
    Polygon {
        points: Vec<Point>,
        paint: Paint,
    },
    Ellipse {
        cx: f64,
        cy: f64,
        rx: f64,
        ry: f64,
        paint: Paint,
    },
    Path {
        segments: Vec<PathSegment>,
        paint: Paint,
    },
    Text(TextRun),
    /// Opens a logical group (`participant`, `message`, `note`, …) until the matching `End`.
    Begin {
        class: String,
        /// A tooltip/title (the participant's name, …).
        title: Option<String>,
        /// An `http(s)` link wrapping the group.
        link: Option<String>,
        /// Attributes written on the group after its class, in order
        /// (`id`, `data-qualified-name`, `data-entity-1`, …): the markers
        /// PlantUML writes on a graph diagram's elements and links, which
        /// people's CSS and scripts read.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
        data: Vec<(String, String)>,
    },
    End,
}

/// One page of a diagram, ready to render.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    pub background: Color,
    pub items: Vec<Item>,
}

impl Scene {
    /// Every text string drawn, in drawing order.
    pub fn texts(&self) -> impl Iterator<Item = &TextRun> {
        self.items.iter().filter_map(|item| match item {
            Item::Text(run) => Some(run),
            _ => None,
        })
    }
}

/// Rounds to 1/1000 px: keeps output stable and short.
///
/// Inlined with one test for what nearly every coordinate is (finite, not
/// negative, far below 2^53 thousandths), where the general path tests
/// finiteness, magnitude and sign apart: the same rounding, the others out
/// of line (layout rounds every coordinate it writes).
#[inline]
pub fn round3(v: f64) -> f64 {
    let thousandths = v * 1000.0;
    // NaN and infinities fail the comparison.
    if (0.0..9.0e15).contains(&thousandths) {
        (thousandths + 0.5) as i64 as f64 / 1000.0
    } else {
        round3_general(v)
    }
}

/// [`round3`] for any number.
#[inline(never)]
fn round3_general(v: f64) -> f64 {
    if !v.is_finite() {
        return 0.0;
    }
    let thousandths = v * 1000.0;
    if thousandths.abs() >= 9.0e15 {
        return v;
    }
    // Half away from zero, as `f64::round`, without its libm call (the
    // default x86-64 target has no rounding instruction and layout rounds
    // every coordinate).
    let rounded = if thousandths >= 0.0 {
        (thousandths + 0.5) as i64
    } else {
        (thousandths - 0.5) as i64
    };
    rounded as f64 / 1000.0
}

/// A compact, line-per-item text form of a scene, for snapshot tests and
/// debugging (`puml render -f scene-json` gives the full JSON).
pub fn describe(scene: &Scene) -> String {
    use std::fmt::Write;
    fn color(c: Color) -> String {
        if c.a == 255 {
            c.to_hex()
        } else {
            format!("{}/{:02X}", c.to_hex(), c.a)
        }
    }
    fn paint(p: &Paint) -> String {
        let mut s = String::new();
        if let Some(f) = p.fill {
            let _ = write!(s, " fill {}", color(f));
        }
        if let Some(g) = p.gradient {
            let _ = write!(s, " to {} {:?}", color(g.to), g.direction);
        }
        if let Some(st) = &p.stroke {
            s.push_str(&stroke(st));
        }
        if let Some(d) = p.shadow {
            let _ = write!(s, " shadow {d}");
        }
        s
    }
    fn stroke(st: &Stroke) -> String {
        let mut s = format!(" stroke {} {}", color(st.color), st.width);
        if let Some((a, b)) = st.dash {
            let _ = write!(s, " dash {a},{b}");
        }
        s
    }
    let mut out = format!(
        "scene {}x{} bg {}\n",
        scene.width,
        scene.height,
        color(scene.background)
    );
    let mut depth = 0usize;
    for item in &scene.items {
        if matches!(item, Item::End) {
            depth = depth.saturating_sub(1);
        }
        out.push_str(&"  ".repeat(depth.min(20)));
        let _ = match item {
            Item::Rect {
                x,
                y,
                width,
                height,
                radius,
                paint: p,
            } => writeln!(out, "rect {x},{y} {width}x{height} r{radius}{}", paint(p)),
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                stroke: s,
            } => writeln!(out, "line {x1},{y1} {x2},{y2}{}", stroke(s)),
            Item::Polygon { points, paint: p } => writeln!(
                out,
                "polygon {}{}",
                points
                    .iter()
                    .map(|p| format!("{},{}", p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(" "),
                paint(p)
            ),
            Item::Ellipse {
                cx,
                cy,
                rx,
                ry,
                paint: p,
            } => writeln!(out, "ellipse {cx},{cy} {rx}x{ry}{}", paint(p)),
            Item::Path { segments, paint: p } => writeln!(out, "path {} segments{}", segments.len(), paint(p)),
            Item::Text(t) => writeln!(
                out,
                "text {},{} {:?} {}{}{}{} {} w{}{}{}{}",
                t.x,
                t.y,
                t.text,
                match t.font.family {
                    FontFamily::Sans => "sans",
                    FontFamily::Mono => "mono",
                    FontFamily::Serif => "serif",
                    FontFamily::SansCondensed => "sans-condensed",
                    FontFamily::SerifCondensed => "serif-condensed",
                },
                t.font.size,
                if t.font.bold { " bold" } else { "" },
                if t.font.italic { " italic" } else { "" },
                color(t.color),
                t.width,
                if t.underline { " underline" } else { "" },
                if t.strike { " strike" } else { "" },
                t.link.as_deref().map(|l| format!(" link {l}")).unwrap_or_default()
            ),
            Item::Begin {
                class,
                title,
                link,
                data,
            } => writeln!(
                out,
                "begin {class}{}{}{}",
                title.as_deref().map(|t| format!(" {t:?}")).unwrap_or_default(),
                link.as_deref().map(|l| format!(" link {l}")).unwrap_or_default(),
                data.iter().map(|(k, v)| format!(" {k}={v:?}")).collect::<String>()
            ),
            Item::End => writeln!(out, "end"),
        };
        if matches!(item, Item::Begin { .. }) {
            depth += 1;
        }
    }
    out
}

/// Turns every colour of the scene grey, as `skinparam monochrome true`
/// does in PlantUML 1.2026.8: each colour becomes its luma (0.299 R +
/// 0.587 G + 0.114 B, truncated; observed: #E2E2F0 → #E3E3E3, red →
/// #4C4C4C, green → #4B4B4B, LightBlue → #CCCCCC), alpha kept.
pub fn to_grey(scene: &mut Scene) {
    fn grey(c: &mut Color) {
        let luma = 0.299 * f64::from(c.r) + 0.587 * f64::from(c.g) + 0.114 * f64::from(c.b);
        // The weights sum to 1 in decimal, not in binary: a grey such as
        // #F1F1F1 must stay itself (corpus activity 029), not truncate to
        // #F0F0F0.
        let v = (luma + 1e-9).clamp(0.0, 255.0) as u8;
        *c = Color {
            r: v,
            g: v,
            b: v,
            a: c.a,
        };
    }
    fn paint(p: &mut Paint) {
        if let Some(f) = &mut p.fill {
            grey(f);
        }
        if let Some(s) = &mut p.stroke {
            grey(&mut s.color);
        }
        if let Some(g) = &mut p.gradient {
            grey(&mut g.to);
        }
    }
    grey(&mut scene.background);
    for item in &mut scene.items {
        match item {
            Item::Rect { paint: p, .. }
            | Item::Polygon { paint: p, .. }
            | Item::Ellipse { paint: p, .. }
            | Item::Path { paint: p, .. } => paint(p),
            Item::Line { stroke, .. } => grey(&mut stroke.color),
            Item::Text(run) => grey(&mut run.color),
            Item::Begin { .. } | Item::End => {}
        }
    }
}

/// Multiplies every length of the scene by `factor` (`scale …`): PlantUML
/// scales the finished drawing as a whole, coordinates, sizes, font sizes,
/// stroke widths and dash patterns alike, so a scaled diagram is the
/// unscaled one magnified.
pub fn scale_scene(scene: &mut Scene, factor: f64) {
    if !(factor.is_finite() && factor > 0.0) || factor == 1.0 {
        return;
    }
    let s = |v: &mut f64| *v = round3(*v * factor);
    let stroke = |st: &mut Stroke| {
        st.width = round3(st.width * factor);
        if let Some((a, b)) = &mut st.dash {
            *a = round3(*a * factor);
            *b = round3(*b * factor);
        }
    };
    let paint = |p: &mut Paint| {
        if let Some(st) = &mut p.stroke {
            stroke(st);
        }
        if let Some(d) = &mut p.shadow {
            *d = round3(*d * factor);
        }
    };
    scene.width = round3(scene.width * factor);
    scene.height = round3(scene.height * factor);
    for item in &mut scene.items {
        match item {
            Item::Rect {
                x,
                y,
                width,
                height,
                radius,
                paint: p,
            } => {
                for v in [x, y, width, height, radius] {
                    s(v);
                }
                paint(p);
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                stroke: st,
            } => {
                for v in [x1, y1, x2, y2] {
                    s(v);
                }
                stroke(st);
            }
            Item::Polygon { points, paint: p } => {
                for pt in points {
                    s(&mut pt.x);
                    s(&mut pt.y);
                }
                paint(p);
            }
            Item::Ellipse {
                cx,
                cy,
                rx,
                ry,
                paint: p,
            } => {
                for v in [cx, cy, rx, ry] {
                    s(v);
                }
                paint(p);
            }
            Item::Path { segments, paint: p } => {
                for seg in segments {
                    match seg {
                        PathSegment::MoveTo { x, y } | PathSegment::LineTo { x, y } => {
                            s(x);
                            s(y);
                        }
                        PathSegment::CubicTo { x1, y1, x2, y2, x, y } => {
                            for v in [x1, y1, x2, y2, x, y] {
                                s(v);
                            }
                        }
                        PathSegment::Close => {}
                    }
                }
                paint(p);
            }
            Item::Text(t) => {
                s(&mut t.x);
                s(&mut t.y);
                s(&mut t.width);
                s(&mut t.font.size);
            }
            Item::Begin { .. } | Item::End => {}
        }
    }
}

#[cfg(test)]
mod round_tests {
    use super::round3;

    #[test]
    fn round3_rounds_half_away_from_zero_like_f64_round() {
        for i in -200_000..200_000 {
            let v = f64::from(i) * 0.000_37 + 0.000_5;
            assert_eq!(round3(v), (v * 1000.0).round() / 1000.0, "{v}");
        }
        assert_eq!(round3(2.0005), 2.001);
        assert_eq!(round3(-2.0005), -2.001);
        assert_eq!(round3(f64::NAN), 0.0);
        assert_eq!(round3(1.0e300), 1.0e300);
    }

    /// The inlined fast path rounds exactly as the general one, inside its
    /// range, at its edges and outside it.
    #[test]
    fn round3_fast_path_agrees_with_the_general_rounding() {
        let mut values = vec![
            0.0,
            -0.0,
            0.0005,
            -0.0005,
            -0.0001,
            8.999_999e12,
            9.0e12,
            9.1e12,
            -1.0e13,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
        ];
        values.extend((-100_000..400_000).map(|i| f64::from(i) * 0.000_37 + 0.000_5));
        values.extend((0..20_000).map(|i| f64::from(i) * 17.123_456_7));
        for v in values {
            assert_eq!(round3(v).to_bits(), super::round3_general(v).to_bits(), "{v}");
        }
    }
}
