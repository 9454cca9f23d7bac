//! Text measurement with the embedded DejaVu fonts (Sans, Sans Mono and
//! Serif: the faces PlantUML's Java measures with here). Never the
//! system's fonts: the same text measures the same on every machine, and
//! the renderers load the very same bytes (see [`embedded_font_files`]).

use crate::scene::{Font, FontFamily};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// Measures text for layout. The built-in implementation is
/// [`EmbeddedMetrics`]; tests or callers may substitute their own.
pub trait TextMeasure {
    /// Advance width of `text` (one line, no markup) in pixels.
    fn width(&self, text: &str, font: &Font) -> f64;
    /// Distance from the top of a line box to its baseline.
    fn ascent(&self, font: &Font) -> f64;
    /// Distance from the baseline to the bottom of a line box.
    fn descent(&self, font: &Font) -> f64;
    /// Height of one line box.
    fn line_height(&self, font: &Font) -> f64 {
        self.ascent(font) + self.descent(font)
    }
}

/// The font files the renderers must load so that drawing matches measuring.
///
/// Never inlined: optimised for speed, this body (the `dejavu` calls inlined
/// into it) is small enough to be copied into each crate that calls it, and
/// each copy brought its own 4.8 MB of font bytes that the linker did not
/// merge (puml-layout at `opt-level = 2` in the WebAssembly build doubled
/// the fonts; docs/wasm.md).
#[inline(never)]
pub fn embedded_font_files() -> [&'static [u8]; 10] {
    [
        dejavu::sans::regular(),
        dejavu::sans::bold(),
        dejavu::sans::oblique(),
        dejavu::sans::bold_oblique(),
        dejavu::sans_mono::regular(),
        dejavu::sans_mono::bold(),
        dejavu::serif::regular(),
        dejavu::serif::bold(),
        dejavu::serif::italic(),
        dejavu::serif::bold_italic(),
    ]
}

/// Family names of the embedded fonts, as written in SVG.
pub const SANS_FAMILY: &str = "DejaVu Sans";
pub const MONO_FAMILY: &str = "DejaVu Sans Mono";
pub const SERIF_FAMILY: &str = "DejaVu Serif";

struct FaceMetrics {
    face: ttf_parser::Face<'static>,
    units_per_em: f64,
    ascii: [f64; 128],
    /// The same advances in the face's condensed variant (see
    /// [`condensed_units`]).
    ascii_condensed: [f64; 128],
    /// The face's own line box, as Java measures it (hhea): DejaVu Serif
    /// Bold stands taller (1923/2048 em) than the other faces (1901/2048).
    ascent_em: f64,
    descent_em: f64,
    /// The advances of the Basic Multilingual Plane's characters looked up
    /// so far (see [`FaceMetrics::bmp_advance`]), filled as text asks.
    bmp_advances: OnceLock<Box<[AtomicU32]>>,
}

/// How [`FaceMetrics::bmp_advances`] holds a lookup: 0 not looked up yet,
/// 1 no glyph (or no advance), else the advance in font units plus 2.
const ADVANCE_UNKNOWN: u32 = 0;
const ADVANCE_MISSING: u32 = 1;

impl FaceMetrics {
    fn new(data: &'static [u8]) -> Option<FaceMetrics> {
        let face = ttf_parser::Face::parse(data, 0).ok()?;
        let units_per_em = f64::from(face.units_per_em());
        let mut ascii = [0.0; 128];
        let mut ascii_condensed = [0.0; 128];
        for (code, (slot, condensed)) in ascii.iter_mut().zip(ascii_condensed.iter_mut()).enumerate() {
            let c = char::from(code as u8);
            let units = face.glyph_index(c).and_then(|g| face.glyph_hor_advance(g)).unwrap_or(0);
            *slot = f64::from(units) / units_per_em;
            *condensed = f64::from(condensed_units(units)) / units_per_em;
        }
        let ascent_em = f64::from(face.ascender()) / units_per_em;
        let descent_em = -f64::from(face.descender()) / units_per_em;
        Some(FaceMetrics {
            face,
            units_per_em,
            ascii,
            ascii_condensed,
            ascent_em,
            descent_em,
            bmp_advances: OnceLock::new(),
        })
    }

    /// The glyph advance of `c` in font units, `None` when the face has no
    /// glyph for it. A character of the Basic Multilingual Plane is looked
    /// up in the font's tables once per process: the cmap search cost
    /// about 1,150 instructions a character, for every non-ASCII character
    /// of every label (CJK labels are common).
    fn glyph_units(&self, c: char) -> Option<u16> {
        let lookup = |c: char| self.face.glyph_index(c).and_then(|g| self.face.glyph_hor_advance(g));
        let Some(slot) = self
            .bmp_advances
            .get_or_init(|| {
                std::iter::repeat_with(|| AtomicU32::new(ADVANCE_UNKNOWN))
                    .take(0x1_0000)
                    .collect()
            })
            .get(c as usize)
        else {
            return lookup(c);
        };
        // Relaxed: every thread would store the same value.
        match slot.load(Ordering::Relaxed) {
            ADVANCE_UNKNOWN => {
                let units = lookup(c);
                slot.store(units.map_or(ADVANCE_MISSING, |u| u32::from(u) + 2), Ordering::Relaxed);
                units
            }
            ADVANCE_MISSING => None,
            stored => u16::try_from(stored - 2).ok(),
        }
    }

    /// Advance of `c` in em units; characters the font lacks (CJK, emoji…)
    /// get 0.6 em, which is what PlantUML measures for them too, so that
    /// diagrams keep PlantUML's proportions.
    fn advance_em(&self, c: char, condensed: bool) -> f64 {
        if (c as u32) < 128 {
            return if condensed {
                self.ascii_condensed[c as usize]
            } else {
                self.ascii[c as usize]
            };
        }
        match self.glyph_units(c) {
            Some(adv) if condensed => f64::from(condensed_units(adv)) / self.units_per_em,
            Some(adv) => f64::from(adv) / self.units_per_em,
            None if is_zero_width(c) => 0.0,
            None => MISSING_GLYPH_EM,
        }
    }
}

const MISSING_GLYPH_EM: f64 = 0.6;

/// A glyph's advance in DejaVu Sans Condensed or Serif Condensed, from the
/// same glyph's in the regular face: 90 %, rounded down to whole font
/// units. True of every printable ASCII glyph of the eight condensed faces
/// against their regular faces (DejaVu 2.37, compared table by table), so
/// puml measures the condensed faces exactly as Java does on a machine
/// that has them, without embedding another 2.5 MB of fonts.
fn condensed_units(units: u16) -> u16 {
    // Cannot overflow: 9/10 of a u16 fits in a u16; computed in u32.
    (u32::from(units) * 9 / 10) as u16
}

fn is_zero_width(c: char) -> bool {
    matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2069 | 0xFE00..=0xFE0F | 0xFEFF) || c.is_control()
}

struct Faces {
    regular: FaceMetrics,
    bold: FaceMetrics,
    italic: FaceMetrics,
    bold_italic: FaceMetrics,
    mono: FaceMetrics,
    mono_bold: FaceMetrics,
    serif: FaceMetrics,
    serif_bold: FaceMetrics,
    serif_italic: FaceMetrics,
    serif_bold_italic: FaceMetrics,
}

impl Faces {
    /// The face `font` is measured in. Sans Mono has no oblique faces
    /// embedded: PlantUML's italic mono measures like the upright one.
    fn of(&self, font: &Font) -> &FaceMetrics {
        match (font.family, font.bold, font.italic) {
            (FontFamily::SansCondensed, _, _) => self.of(&Font {
                family: FontFamily::Sans,
                ..*font
            }),
            (FontFamily::SerifCondensed, _, _) => self.of(&Font {
                family: FontFamily::Serif,
                ..*font
            }),
            (FontFamily::Mono, false, _) => &self.mono,
            (FontFamily::Mono, true, _) => &self.mono_bold,
            (FontFamily::Sans, false, false) => &self.regular,
            (FontFamily::Sans, true, false) => &self.bold,
            (FontFamily::Sans, false, true) => &self.italic,
            (FontFamily::Sans, true, true) => &self.bold_italic,
            (FontFamily::Serif, false, false) => &self.serif,
            (FontFamily::Serif, true, false) => &self.serif_bold,
            (FontFamily::Serif, false, true) => &self.serif_italic,
            (FontFamily::Serif, true, true) => &self.serif_bold_italic,
        }
    }
}

fn faces() -> Option<&'static Faces> {
    static FACES: OnceLock<Option<Faces>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            Some(Faces {
                regular: FaceMetrics::new(dejavu::sans::regular())?,
                bold: FaceMetrics::new(dejavu::sans::bold())?,
                italic: FaceMetrics::new(dejavu::sans::oblique())?,
                bold_italic: FaceMetrics::new(dejavu::sans::bold_oblique())?,
                mono: FaceMetrics::new(dejavu::sans_mono::regular())?,
                mono_bold: FaceMetrics::new(dejavu::sans_mono::bold())?,
                serif: FaceMetrics::new(dejavu::serif::regular())?,
                serif_bold: FaceMetrics::new(dejavu::serif::bold())?,
                serif_italic: FaceMetrics::new(dejavu::serif::italic())?,
                serif_bold_italic: FaceMetrics::new(dejavu::serif::bold_italic())?,
            })
        })
        .as_ref()
}

/// Metrics of the embedded DejaVu Sans / Sans Mono / Serif faces.
#[derive(Debug, Clone, Copy, Default)]
pub struct EmbeddedMetrics;

/// DejaVu Sans values, used only if the embedded font failed to parse
/// (which would be a packaging bug): layout still works, just less exactly.
const FALLBACK_ASCENT_EM: f64 = 1901.0 / 2048.0;
const FALLBACK_DESCENT_EM: f64 = 483.0 / 2048.0;

impl TextMeasure for EmbeddedMetrics {
    fn width(&self, text: &str, font: &Font) -> f64 {
        let Some(faces) = faces() else {
            return text.chars().count() as f64 * font.size * 0.6;
        };
        let face = faces.of(font);
        let condensed = font.family.is_condensed();
        // ASCII text (most labels) skips the char decoding; the sum runs in
        // the same order, so the result is the same to the last bit.
        if text.is_ascii() {
            let table = if condensed { &face.ascii_condensed } else { &face.ascii };
            return text.bytes().map(|b| table[usize::from(b)]).sum::<f64>() * font.size;
        }
        text.chars().map(|c| face.advance_em(c, condensed)).sum::<f64>() * font.size
    }

    fn ascent(&self, font: &Font) -> f64 {
        faces().map_or(FALLBACK_ASCENT_EM, |f| f.of(font).ascent_em) * font.size
    }

    fn descent(&self, font: &Font) -> f64 {
        faces().map_or(FALLBACK_DESCENT_EM, |f| f.of(font).descent_em) * font.size
    }

    /// `ascent + descent` as the trait sums them, with one face lookup.
    fn line_height(&self, font: &Font) -> f64 {
        let (ascent_em, descent_em) = faces().map_or((FALLBACK_ASCENT_EM, FALLBACK_DESCENT_EM), |f| {
            let face = f.of(font);
            (face.ascent_em, face.descent_em)
        });
        ascent_em * font.size + descent_em * font.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_like_plantuml_within_one_percent() {
        // PlantUML (Java, DejaVu Sans) draws "Bob Long Name" at 14px as 111.385 wide
        // and its line box as 16.297 high.
        let m = EmbeddedMetrics;
        let w = m.width("Bob Long Name", &Font::sans(14.0));
        assert!((w - 111.385).abs() / 111.385 < 0.01, "{w}");
        assert!((m.line_height(&Font::sans(14.0)) - 16.297).abs() < 0.01);
    }

    #[test]
    fn cached_advances_are_the_font_tables_advances() {
        let Some(faces) = faces() else { return };
        for face in [&faces.regular, &faces.serif_bold] {
            let chars = (0x80u32..0x3100)
                .step_by(7)
                .chain([0xFFFD, 0xFFFF, 0x1F389])
                .filter_map(char::from_u32);
            for c in chars {
                let direct = face.face.glyph_index(c).and_then(|g| face.face.glyph_hor_advance(g));
                // Looked up, then read back from the cache.
                assert_eq!(face.glyph_units(c), direct, "{c:?}");
                assert_eq!(face.glyph_units(c), direct, "{c:?}");
            }
        }
        let m = EmbeddedMetrics;
        let font = Font::sans(13.0);
        assert_eq!(m.line_height(&font), m.ascent(&font) + m.descent(&font));
    }

    #[test]
    fn serif_measures_like_plantuml() {
        // PlantUML (Java, DejaVu Serif) with `defaultFontName serif`.
        let m = EmbeddedMetrics;
        let serif = |size| Font {
            family: FontFamily::Serif,
            ..Font::sans(size)
        };
        for (text, font, expected) in [
            ("Alice Wide", serif(14.0), 75.756),
            ("hello world mmm", serif(13.0), 115.102),
            ("bold text", serif(13.0).bold(), 64.346),
            ("italic text", serif(13.0).italic(), 62.334),
        ] {
            let w = m.width(text, &font);
            assert!((w - expected).abs() < 0.01, "{text}: {w}");
        }
        // DejaVu Serif Bold stands taller: a line holding it has its
        // baseline 0.139 px lower at 13 px (1923 against 1901 units).
        let lower = m.ascent(&serif(13.0).bold()) - m.ascent(&serif(13.0));
        assert!((lower - 0.1396).abs() < 0.001, "{lower}");
        assert_eq!(m.ascent(&Font::sans(13.0).bold()), m.ascent(&Font::sans(13.0)));
    }

    #[test]
    fn condensed_faces_measure_like_plantuml() {
        // PlantUML (Java, the installed DejaVu condensed faces) with
        // `defaultFontName DejaVu Sans Condensed` / `DejaVu Serif Condensed`.
        let m = EmbeddedMetrics;
        let font = |family, size| Font {
            family,
            ..Font::sans(size)
        };
        for (text, font, expected) in [
            ("Alice", font(FontFamily::SansCondensed, 14.0), 30.29),
            (
                "Hello World iiii WWWW 0123",
                font(FontFamily::SansCondensed, 13.0),
                167.724,
            ),
            ("Alice", font(FontFamily::SerifCondensed, 14.0), 31.657),
            (
                "Hello World iiii WWWW 0123",
                font(FontFamily::SerifCondensed, 13.0),
                175.17,
            ),
        ] {
            let w = m.width(text, &font);
            assert!((w - expected).abs() < 0.001, "{text}: {w}");
        }
    }

    #[test]
    fn bold_is_wider_and_missing_glyphs_measure_like_plantuml() {
        let m = EmbeddedMetrics;
        let f = Font::sans(13.0);
        assert!(m.width("hello", &f.bold()) > m.width("hello", &f));
        // PlantUML measures "配信者情報問い合わせ" (no DejaVu glyphs) as 78.013 px at 13 px.
        assert!((m.width("配信者情報問い合わせ", &f) - 78.0).abs() < 0.5);
    }
}
