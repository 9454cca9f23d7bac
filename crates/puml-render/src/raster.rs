//! SVG → PNG (resvg) and SVG → PDF (svg2pdf), with the embedded fonts as
//! the only fonts: no system font is ever consulted.

use crate::svg::to_svg;
use crate::RenderError;
use puml_layout::Scene;
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// Largest PNG we agree to allocate (width × height pixels): 4096 × 4096,
/// a 64 MB pixmap. Together with [`MAX_DRAWN_ITEMS`] it keeps any PNG
/// render within about a second and 256 MB.
pub const MAX_PNG_PIXELS: u64 = 4096 * 4096;
/// Most shapes and texts a PNG or PDF page may draw: the SVG tree that
/// rasterizing and PDF conversion build grows with them.
pub const MAX_DRAWN_ITEMS: usize = 40_000;
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
    svg_to_png(&to_svg(scene), scale)
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
pub fn to_pdf(scene: &Scene) -> Result<Vec<u8>, RenderError> {
    check_pdf_budget(scene)?;
    let tree = parse_tree(&to_svg(scene))?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| RenderError::Encode(format!("PDF conversion failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

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
