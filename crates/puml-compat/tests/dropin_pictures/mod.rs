//! What the ratchets over the drop-in's pictures share: reading an SVG's
//! texts and drawing a file's first block as `puml-plantuml` draws it.

use puml_compat::{split_blocks, ImageFormat, Outcome, RenderSettings, Renderer};
use std::path::Path;

/// Each `<text>` of an SVG with its position (no-break spaces as spaces,
/// blank texts left out).
pub fn texts(svg: &str) -> Vec<(String, f64, f64)> {
    let Ok(doc) = roxmltree::Document::parse(svg) else {
        return Vec::new();
    };
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let text: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            let text = text.replace('\u{a0}', " ").trim().to_string();
            let x = n.attribute("x")?.parse::<f64>().ok()?;
            let y = n.attribute("y")?.parse::<f64>().ok()?;
            (!text.is_empty()).then_some((text, x, y))
        })
        .collect()
}

/// The drop-in's outcome for the first block of `file` (its text
/// `source`), drawn as SVG with the file's folder for includes.
pub fn draw_first_block(file: &Path, source: &str) -> Option<Outcome> {
    let block = split_blocks(source, true).into_iter().next()?;
    let mut renderer = Renderer::new(file.parent().map(Path::to_path_buf));
    let mut settings = RenderSettings::new(ImageFormat::Svg);
    settings.path = Some(file.to_path_buf());
    Some(renderer.render(&block, &settings))
}

/// The texts of an outcome's first picture.
pub fn picture_texts(outcome: &Outcome) -> Vec<(String, f64, f64)> {
    outcome
        .first_image()
        .map(|page| texts(&String::from_utf8_lossy(&page.bytes)))
        .unwrap_or_default()
}
