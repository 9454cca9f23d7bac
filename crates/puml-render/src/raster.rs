//! SVG → PNG (resvg) and SVG → PDF (svg2pdf), with the embedded fonts as
//! the only fonts: no system font is ever consulted.

use crate::svg::{item_bounds, item_shadow, to_svg};
use crate::RenderError;
use puml_layout::{Color, Item, Paint, PathSegment, Scene, Stroke};
use resvg::{tiny_skia, usvg};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// Largest PNG we agree to allocate (width × height pixels): 4096 × 4096,
/// a 64 MB pixmap. Together with [`MAX_DRAWN_ITEMS`] it keeps any PNG
/// render within about a second and 256 MB.
pub const MAX_PNG_PIXELS: u64 = 4096 * 4096;
/// Most shapes and texts a PNG or PDF page may draw: the SVG tree that
/// rasterizing and PDF conversion build grows with them.
pub const MAX_DRAWN_ITEMS: usize = 40_000;
/// Most pixels the blurred shadows of one page may cost to rasterize:
/// each shadow filter works on a pixmap three times its shape's size each
/// way (PlantUML's filter region), clipped to the page. Past this, the
/// shadows are drawn as flat offset shapes instead (see
/// [`bounded_shadows`]): sixty nested group frames with shadows once took
/// minutes and 1.3 GB to rasterize.
pub const MAX_SHADOW_PIXELS: f64 = MAX_PNG_PIXELS as f64;
/// The scale svg2pdf rasterizes filters at when it writes a PDF.
#[cfg(not(target_arch = "wasm32"))]
const PDF_FILTER_SCALE: f64 = 1.5;
/// Accepted range of `scale` for PNG output.
pub const SCALE_RANGE: (f64, f64) = (0.1, 10.0);

fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        for data in puml_layout::embedded_font_files() {
            db.load_font_data(data.to_vec());
        }
        db.set_sans_serif_family(puml_layout::font::SANS_FAMILY);
        db.set_monospace_family(puml_layout::font::MONO_FAMILY);
        db.set_serif_family(puml_layout::font::SERIF_FAMILY);
        Arc::new(db)
    })
    .clone()
}

fn parse_tree(svg: &str) -> Result<usvg::Tree, RenderError> {
    let options = usvg::Options {
        fontdb: fontdb(),
        font_family: puml_layout::font::SANS_FAMILY.to_string(),
        resources_dir: None,
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| RenderError::Svg(e.to_string()))
}

/// Whether `scene` may be rasterized at `scale`: checked from the scene's
/// size and item count alone, before any SVG, tree or pixmap is built, so
/// an over-large diagram is refused at once.
pub fn check_png_budget(scene: &Scene, scale: f64) -> Result<(), RenderError> {
    if !scale.is_finite() || scale < SCALE_RANGE.0 || scale > SCALE_RANGE.1 {
        return Err(RenderError::BadScale(scale));
    }
    let width = (scene.width * scale).ceil().max(1.0);
    let height = (scene.height * scale).ceil().max(1.0);
    if width * height > MAX_PNG_PIXELS as f64 {
        return Err(RenderError::TooManyPixels {
            width: width as u64,
            height: height as u64,
            limit: MAX_PNG_PIXELS,
        });
    }
    check_items(scene, "PNG")
}

/// Whether `scene` may be converted to PDF (see [`MAX_DRAWN_ITEMS`]).
pub fn check_pdf_budget(scene: &Scene) -> Result<(), RenderError> {
    check_items(scene, "PDF")
}

fn check_items(scene: &Scene, format: &'static str) -> Result<(), RenderError> {
    if scene.items.len() > MAX_DRAWN_ITEMS {
        return Err(RenderError::TooManyItems {
            format,
            items: scene.items.len(),
            limit: MAX_DRAWN_ITEMS,
        });
    }
    Ok(())
}

/// Rasterizes `scene` at `scale` (1.0 = one pixel per scene unit).
pub fn to_png(scene: &Scene, scale: f64) -> Result<Vec<u8>, RenderError> {
    check_png_budget(scene, scale)?;
    svg_to_png(&to_svg(&bounded_shadows(scene, scale)), scale)
}

/// `scene` as it may be rasterized at `scale`: unchanged when its blurred
/// shadows fit [`MAX_SHADOW_PIXELS`], else each shadow is drawn as a flat
/// copy of its shape (40 % black, as PlantUML's shadow colour), offset
/// like the blur, with no filter. The SVG output keeps the blur either way:
/// a browser draws it on demand.
pub fn bounded_shadows(scene: &Scene, scale: f64) -> Cow<'_, Scene> {
    if shadow_pixels(scene, scale) <= MAX_SHADOW_PIXELS {
        return Cow::Borrowed(scene);
    }
    let mut flat = Scene {
        width: scene.width,
        height: scene.height,
        background: scene.background,
        items: Vec::with_capacity(scene.items.len() * 2),
    };
    for item in &scene.items {
        match item_shadow(item) {
            Some(offset) => {
                let mut shadow = item.clone();
                flatten_shadow(&mut shadow, offset);
                flat.items.push(shadow);
                let mut shape = item.clone();
                if let Some(paint) = paint_mut(&mut shape) {
                    paint.shadow = None;
                }
                flat.items.push(shape);
            }
            None => flat.items.push(item.clone()),
        }
    }
    Cow::Owned(flat)
}

/// What the blurred shadows of `scene` cost to rasterize at `scale`, in
/// filter-region pixels.
fn shadow_pixels(scene: &Scene, scale: f64) -> f64 {
    let page = (scene.width * scale).max(0.0) * (scene.height * scale).max(0.0);
    scene
        .items
        .iter()
        .filter(|item| item_shadow(item).is_some())
        .filter_map(item_bounds)
        .map(|b| {
            let region =
                (3.0 * b.width * scale).min(scene.width * scale) * (3.0 * b.height * scale).min(scene.height * scale);
            if region.is_finite() {
                region.clamp(0.0, page)
            } else {
                page
            }
        })
        .sum()
}

fn paint_mut(item: &mut Item) -> Option<&mut Paint> {
    match item {
        Item::Rect { paint, .. }
        | Item::Polygon { paint, .. }
        | Item::Ellipse { paint, .. }
        | Item::Path { paint, .. } => Some(paint),
        Item::Line { .. } | Item::Text(_) | Item::Begin { .. } | Item::End => None,
    }
}

/// Turns a copy of a shadowed shape into its flat shadow: moved by
/// `offset` right and down, painted 40 % black where the shape paints.
fn flatten_shadow(item: &mut Item, offset: f64) {
    const SHADOW: Color = Color {
        r: 0,
        g: 0,
        b: 0,
        a: 102,
    };
    match item {
        Item::Rect { x, y, .. } => {
            *x += offset;
            *y += offset;
        }
        Item::Ellipse { cx, cy, .. } => {
            *cx += offset;
            *cy += offset;
        }
        Item::Polygon { points, .. } => {
            for p in points {
                p.x += offset;
                p.y += offset;
            }
        }
        Item::Path { segments, .. } => {
            for segment in segments {
                match segment {
                    PathSegment::MoveTo { x, y } | PathSegment::LineTo { x, y } => {
                        *x += offset;
                        *y += offset;
                    }
                    PathSegment::CubicTo { x1, y1, x2, y2, x, y } => {
                        for v in [x1, y1, x2, y2, x, y] {
                            *v += offset;
                        }
                    }
                    PathSegment::Close => {}
                }
            }
        }
        Item::Line { .. } | Item::Text(_) | Item::Begin { .. } | Item::End => {}
    }
    if let Some(paint) = paint_mut(item) {
        *paint = Paint {
            fill: paint.fill.map(|_| SHADOW),
            stroke: paint.stroke.map(|s| Stroke { color: SHADOW, ..s }),
            gradient: None,
            shadow: None,
        };
    }
}

/// Rasterizes any SVG text with the embedded fonts (also used to turn
/// PlantUML's own SVG into a PNG for side-by-side comparisons).
pub fn svg_to_png(svg: &str, scale: f64) -> Result<Vec<u8>, RenderError> {
    svg_to_pixmap(svg, scale)?
        .encode_png()
        .map_err(|e| RenderError::Encode(e.to_string()))
}

/// An RGBA image (premultiplied alpha, row by row, 4 bytes a pixel).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// Rasterizes any SVG text like [`svg_to_png`], to pixels (for the
/// gallery's pixel comparison with PlantUML).
pub fn svg_to_rgba(svg: &str, scale: f64) -> Result<Rgba, RenderError> {
    let pixmap = svg_to_pixmap(svg, scale)?;
    Ok(Rgba {
        width: pixmap.width(),
        height: pixmap.height(),
        pixels: pixmap.take(),
    })
}

/// Encodes RGBA pixels (premultiplied alpha) as a PNG.
pub fn rgba_to_png(image: &Rgba) -> Result<Vec<u8>, RenderError> {
    let too_large = || RenderError::TooManyPixels {
        width: u64::from(image.width),
        height: u64::from(image.height),
        limit: MAX_PNG_PIXELS,
    };
    let size = tiny_skia::IntSize::from_wh(image.width, image.height).ok_or_else(too_large)?;
    let pixmap = tiny_skia::Pixmap::from_vec(image.pixels.clone(), size).ok_or_else(too_large)?;
    pixmap.encode_png().map_err(|e| RenderError::Encode(e.to_string()))
}

fn svg_to_pixmap(svg: &str, scale: f64) -> Result<tiny_skia::Pixmap, RenderError> {
    if !scale.is_finite() || scale < SCALE_RANGE.0 || scale > SCALE_RANGE.1 {
        return Err(RenderError::BadScale(scale));
    }
    let tree = parse_tree(svg)?;
    let size = tree.size();
    let width = (f64::from(size.width()) * scale).ceil().max(1.0);
    let height = (f64::from(size.height()) * scale).ceil().max(1.0);
    let pixels = width * height;
    if pixels > MAX_PNG_PIXELS as f64 {
        return Err(RenderError::TooManyPixels {
            width: width as u64,
            height: height as u64,
            limit: MAX_PNG_PIXELS,
        });
    }
    let mut pixmap = tiny_skia::Pixmap::new(width as u32, height as u32).ok_or(RenderError::TooManyPixels {
        width: width as u64,
        height: height as u64,
        limit: MAX_PNG_PIXELS,
    })?;
    let transform = tiny_skia::Transform::from_scale(scale as f32, scale as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Converts `scene` to a one-page PDF (vector, text as outlines).
#[cfg(not(target_arch = "wasm32"))]
pub fn to_pdf(scene: &Scene) -> Result<Vec<u8>, RenderError> {
    check_pdf_budget(scene)?;
    let tree = parse_tree(&to_svg(&bounded_shadows(scene, PDF_FILTER_SCALE)))?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| RenderError::Encode(format!("PDF conversion failed: {e}")))
}

/// The WebAssembly build leaves PDF out (see Cargo.toml): an error, not a page.
#[cfg(target_arch = "wasm32")]
pub fn to_pdf(scene: &Scene) -> Result<Vec<u8>, RenderError> {
    check_pdf_budget(scene)?;
    Err(RenderError::Encode(
        "PDF is not in the WebAssembly build (render SVG or PNG)".to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed_page(frames: usize, size: f64) -> Scene {
        let frame = |i: usize| Item::Rect {
            x: i as f64,
            y: i as f64,
            width: size - 2.0 * i as f64,
            height: size - 2.0 * i as f64,
            radius: 0.0,
            paint: Paint {
                fill: None,
                stroke: Some(Stroke {
                    color: Color::BLACK,
                    width: 1.5,
                    dash: None,
                }),
                gradient: None,
                shadow: None,
            }
            .shadowed(true),
        };
        Scene {
            width: size,
            height: size,
            background: Color::rgb(255, 255, 255),
            items: (0..frames).map(frame).collect(),
        }
    }

    #[test]
    fn a_few_shadows_keep_their_blur() {
        let scene = framed_page(3, 200.0);
        assert!(matches!(bounded_shadows(&scene, 1.0), Cow::Borrowed(_)));
        assert!(to_svg(&scene).contains("feGaussianBlur"));
    }

    #[test]
    fn shadows_past_the_budget_are_drawn_flat() {
        // Sixty nested frames over a 1,000 px page: 60 filter regions of a
        // whole page each, far past the budget.
        let scene = framed_page(60, 1000.0);
        let flat = bounded_shadows(&scene, 1.0);
        assert_eq!(flat.items.len(), 120, "a flat shadow before each frame");
        for pair in flat.items.chunks(2) {
            let (
                Item::Rect {
                    x: sx, paint: shadow, ..
                },
                Item::Rect { x, paint, .. },
            ) = (&pair[0], &pair[1])
            else {
                panic!("rectangles expected");
            };
            assert_eq!(*sx, x + 4.0);
            assert_eq!(shadow.stroke.map(|s| s.color.a), Some(102));
            assert_eq!((shadow.shadow, paint.shadow), (None, None));
        }
        let svg = to_svg(&flat);
        assert!(!svg.contains("<filter"), "no filter left to rasterize");
        assert!(to_png(&scene, 1.0).is_ok());
    }

    /// PNG and PDF draw a serif text with the face it was measured in.
    #[test]
    fn font_database_resolves_each_family_to_the_measured_face() {
        use usvg::fontdb::{Family, Query};
        let db = fontdb();
        for (family, expected) in [
            (Family::Serif, puml_layout::font::SERIF_FAMILY),
            (
                Family::Name(puml_layout::font::SERIF_FAMILY),
                puml_layout::font::SERIF_FAMILY,
            ),
            (Family::SansSerif, puml_layout::font::SANS_FAMILY),
            (Family::Monospace, puml_layout::font::MONO_FAMILY),
        ] {
            let id = db.query(&Query {
                families: &[family],
                ..Query::default()
            });
            let name = id.and_then(|id| db.face(id)).map(|face| face.families[0].0.clone());
            assert_eq!(name.as_deref(), Some(expected));
        }
    }
}
