//! Scene → output: SVG, PNG, PDF, text art and scene JSON.
//!
//! Every renderer is a pure function of the scene (and, for text art, of
//! nothing else either), so equal scenes give byte-identical output.

mod json;
mod raster;
mod svg;
mod text;

pub use json::to_scene_json;
pub use raster::{
    check_pdf_budget, check_png_budget, rgba_to_png, svg_to_png, svg_to_rgba, to_pdf, to_png, Rgba, MAX_DRAWN_ITEMS,
    MAX_PNG_PIXELS, SCALE_RANGE,
};
pub use svg::{item_bounds, to_svg, to_svg_bytes, to_svg_region, Region};
pub use text::to_text;

/// Why an output could not be produced.
#[derive(Debug, Clone, PartialEq)]
pub enum RenderError {
    /// `scale` outside [`SCALE_RANGE`].
    BadScale(f64),
    /// The PNG would exceed [`MAX_PNG_PIXELS`].
    TooManyPixels { width: u64, height: u64, limit: u64 },
    /// The page draws more than [`MAX_DRAWN_ITEMS`] shapes and texts.
    TooManyItems {
        format: &'static str,
        items: usize,
        limit: usize,
    },
    /// The SVG could not be parsed (a bug when it is our own SVG).
    Svg(String),
    /// PNG/PDF encoding failed.
    Encode(String),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::BadScale(s) => write!(
                f,
                "scale {s} is out of range (allowed {} to {})",
                SCALE_RANGE.0, SCALE_RANGE.1
            ),
            RenderError::TooManyPixels { width, height, limit } => write!(
                f,
                "PNG would be {width}x{height} pixels, over the limit of {limit} pixels; \
                 use a smaller --scale, split the diagram with `newpage`, or render SVG"
            ),
            RenderError::TooManyItems { format, items, limit } => write!(
                f,
                "the page draws {items} shapes and texts, over the {format} limit of {limit}; \
                 split the diagram with `newpage`, or render SVG"
            ),
            RenderError::Svg(e) => write!(f, "cannot read SVG: {e}"),
            RenderError::Encode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RenderError {}
