//! `render`: source text → rendered pages (SVG, PNG, PDF, text art, scene
//! JSON). The CLI (`puml render`, `puml dump scene`) and the MCP server
//! both call [`render_source`]; nothing here touches the disk except
//! through the caller's [`FileLoader`] for `!include`.
//!
//! Diagrams with errors are refused: the failure carries the diagnostics
//! (the same located diagnostics `check` reports).

use crate::check::{report_from_analysis, CheckOptions, LineColDiagnostic};
use puml_layout::{LayoutError, LayoutOptions, Scene};
use puml_render::RenderError;
use puml_sema::model::Document;
use puml_sema::FileLoader;
use puml_syntax::Severity;

pub use puml_layout::THEME_NAMES;
pub use puml_render::{Region, MAX_DRAWN_ITEMS, MAX_PNG_PIXELS, SCALE_RANGE};
/// The themes PlantUML ships (what `!theme NAME` may name).
pub use puml_sema::themes::PLANTUML_THEMES;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Svg,
    Png,
    Pdf,
    /// ASCII art (PlantUML's `-ttxt`).
    Txt,
    /// Unicode box-drawing art (PlantUML's `-tutxt`).
    Utxt,
    /// The laid-out geometry as JSON.
    SceneJson,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Svg,
        Format::Png,
        Format::Pdf,
        Format::Txt,
        Format::Utxt,
        Format::SceneJson,
    ];

    /// The name used on the command line and in MCP arguments.
    pub fn name(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Pdf => "pdf",
            Format::Txt => "txt",
            Format::Utxt => "utxt",
            Format::SceneJson => "scene-json",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name.trim()))
    }

    /// File extension for output files.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Pdf => "pdf",
            Format::Txt => "txt",
            Format::Utxt => "utxt",
            Format::SceneJson => "scene.json",
        }
    }

    /// MIME type of the output.
    pub fn mime_type(self) -> &'static str {
        match self {
            Format::Svg => "image/svg+xml",
            Format::Png => "image/png",
            Format::Pdf => "application/pdf",
            Format::Txt | Format::Utxt => "text/plain; charset=utf-8",
            Format::SceneJson => "application/json",
        }
    }

    /// Whether the output is binary (PNG, PDF) rather than UTF-8 text.
    pub fn is_binary(self) -> bool {
        matches!(self, Format::Png | Format::Pdf)
    }
}

/// How to render.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    pub format: Format,
    /// Overrides the diagram's `!theme` (one of [`THEME_NAMES`]).
    pub theme: Option<String>,
    /// Render only this page (1-based, counted over all diagrams of the file).
    pub page: Option<usize>,
    /// PNG scale factor, within [`SCALE_RANGE`]. Ignored by other formats.
    pub scale: f64,
    /// Where the source lives, for `!include` resolution.
    pub check: CheckOptions,
    /// Size limits: larger diagrams are refused with [`RenderFailure::Layout`].
    pub max_participants: usize,
    pub max_events: usize,
}

impl Default for RenderOptions {
    fn default() -> Self {
        let layout = LayoutOptions::default();
        RenderOptions {
            format: Format::Svg,
            theme: None,
            page: None,
            scale: 1.0,
            check: CheckOptions::default(),
            max_participants: layout.max_participants,
            max_events: layout.max_events,
        }
    }
}

/// One output: a page of one diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedPage {
    /// Index of the diagram in the file (0-based).
    pub diagram: usize,
    /// Page within the diagram (0-based; `newpage` splits).
    pub page: usize,
    /// `@startuml name`, if any.
    pub name: Option<String>,
    /// Canvas size in pixels (before `scale`).
    pub width: f64,
    pub height: f64,
    pub format: Format,
    pub bytes: Vec<u8>,
}

/// The laid-out geometry of one page, before encoding.
#[derive(Debug, Clone, PartialEq)]
pub struct PageScene {
    /// Index of the diagram in the file (0-based).
    pub diagram: usize,
    /// Page within the diagram (0-based).
    pub page: usize,
    /// `@startuml name`, if any.
    pub name: Option<String>,
    pub scene: Scene,
}

/// One page drawn only inside a region (see [`crate::Analysis::render_region`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedRegion {
    /// Index of the diagram in the file (0-based).
    pub diagram: usize,
    /// Page within the diagram (0-based).
    pub page: usize,
    /// The whole page's size, so a viewer can size its scroll area.
    pub page_width: f64,
    pub page_height: f64,
    /// The region drawn: the one asked for, clamped to the page.
    pub region: Region,
    /// An SVG document whose `viewBox` is `region`.
    pub svg: String,
}

/// `requested` clamped to a `width` × `height` page. Refused when a number
/// is not finite, the size is not positive, or nothing of it is on the page.
pub fn clamp_region(requested: Region, width: f64, height: f64) -> Result<Region, RenderFailure> {
    let Region {
        x,
        y,
        width: w,
        height: h,
    } = requested;
    if ![x, y, w, h].iter().all(|v| v.is_finite()) {
        return Err(RenderFailure::BadRegion("its numbers must be finite".to_string()));
    }
    if w <= 0.0 || h <= 0.0 {
        return Err(RenderFailure::BadRegion(format!(
            "its size must be positive, not {w} x {h}"
        )));
    }
    // Sums of huge finite numbers overflow to infinity, which `min` clamps.
    let (left, top) = (x.max(0.0), y.max(0.0));
    let (right, bottom) = ((x + w).min(width), (y + h).min(height));
    if right <= left || bottom <= top {
        return Err(RenderFailure::BadRegion(format!(
            "({x}, {y}, {w} x {h}) lies outside the {width} x {height} page"
        )));
    }
    Ok(Region {
        x: left,
        y: top,
        width: right - left,
        height: bottom - top,
    })
}

/// The part of an already laid-out page inside `region` (clamped first).
pub fn render_region(page: &PageScene, region: Region) -> Result<RenderedRegion, RenderFailure> {
    let region = clamp_region(region, page.scene.width, page.scene.height)?;
    Ok(RenderedRegion {
        diagram: page.diagram,
        page: page.page,
        page_width: page.scene.width,
        page_height: page.scene.height,
        region,
        svg: puml_render::to_svg_region(&page.scene, &region),
    })
}

/// Why nothing was rendered.
#[derive(Debug, Clone, PartialEq)]
pub enum RenderFailure {
    /// The source has errors; they are listed (warnings included).
    Diagnostics(Vec<LineColDiagnostic>),
    /// The text contains no diagram.
    NoDiagram,
    /// `page` is past the last page.
    PageOutOfRange { requested: usize, available: usize },
    /// Bad option or over a size limit.
    Layout(LayoutError),
    /// The output could not be encoded (PNG pixel limit, scale, …).
    Render(RenderError),
    /// A clip region that cannot be drawn (not finite, empty, outside the
    /// page, or asked of a format other than SVG).
    BadRegion(String),
    /// A block is no sequence or activity diagram: PlantUML reads it as
    /// another type (the W0240 warning tells which and where), which puml
    /// does not draw.
    OtherDiagramKind(Box<LineColDiagnostic>),
}

impl std::fmt::Display for RenderFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderFailure::Diagnostics(d) => {
                let errors = d.iter().filter(|d| d.severity == Severity::Error).count();
                write!(f, "the diagram has {errors} error(s); fix them before rendering")
            }
            RenderFailure::NoDiagram => write!(f, "no diagram found (expected @startuml … @enduml)"),
            RenderFailure::PageOutOfRange { requested, available } => {
                write!(
                    f,
                    "page {requested} does not exist (the source has {available} page(s))"
                )
            }
            RenderFailure::Layout(e) => write!(f, "{e}"),
            RenderFailure::Render(e) => write!(f, "{e}"),
            RenderFailure::BadRegion(why) => write!(f, "bad region: {why}"),
            RenderFailure::OtherDiagramKind(d) => {
                write!(f, "line {}: {} [{}]; not rendered", d.range.line, d.message, d.code)
            }
        }
    }
}

impl std::error::Error for RenderFailure {}

/// Analyzes, lays out and renders `text`. Every page of every diagram is
/// returned in order unless `options.page` selects one.
pub fn render_source(
    text: &str,
    options: &RenderOptions,
    loader: &dyn FileLoader,
) -> Result<Vec<RenderedPage>, RenderFailure> {
    let pages = scenes_for_source(text, options, loader)?;
    pages
        .into_iter()
        .map(
            |PageScene {
                 diagram,
                 page,
                 name,
                 scene,
             }| {
                let bytes = encode(&scene, options.format, options.scale).map_err(RenderFailure::Render)?;
                Ok(RenderedPage {
                    diagram,
                    page,
                    name,
                    width: scene.width,
                    height: scene.height,
                    format: options.format,
                    bytes,
                })
            },
        )
        .collect()
}

/// The scenes (geometry) of `text`, one per page.
pub fn scenes_for_source(
    text: &str,
    options: &RenderOptions,
    loader: &dyn FileLoader,
) -> Result<Vec<PageScene>, RenderFailure> {
    let analysis = puml_sema::analyze(text, &options.check.analysis_options(), loader);
    if analysis.diagnostics.iter().any(|d| d.severity == Severity::Error) {
        let report = report_from_analysis(text, &analysis);
        return Err(RenderFailure::Diagnostics(report.diagnostics));
    }
    if analysis.document.diagrams.iter().any(|d| d.other_kind.is_some()) {
        let report = report_from_analysis(text, &analysis);
        if let Some(refusal) = other_kind_refusal(&report.diagnostics) {
            return Err(refusal);
        }
    }
    scenes_for_document(&analysis.document, options)
}

/// The refusal for a file with a block PlantUML reads as another diagram
/// type (W0240): drawing its sequence reading would be a wrong picture.
pub(crate) fn other_kind_refusal(diagnostics: &[LineColDiagnostic]) -> Option<RenderFailure> {
    diagnostics
        .iter()
        .find(|d| d.code == puml_sema::codes::OTHER_DIAGRAM_KIND)
        .map(|d| RenderFailure::OtherDiagramKind(Box::new(d.clone())))
}

/// The scenes of an already analyzed (error-free) document.
pub fn scenes_for_document(document: &Document, options: &RenderOptions) -> Result<Vec<PageScene>, RenderFailure> {
    if document.diagrams.is_empty() {
        return Err(RenderFailure::NoDiagram);
    }
    let layout_options = LayoutOptions {
        theme: options.theme.clone(),
        max_participants: options.max_participants,
        max_events: options.max_events,
        ..LayoutOptions::default()
    };
    let available: usize = document.diagrams.iter().map(|d| d.page_count()).sum();
    if let Some(requested) = options.page {
        if requested == 0 || requested > available {
            return Err(RenderFailure::PageOutOfRange { requested, available });
        }
    }
    let mut out = Vec::new();
    let mut global_page = 0;
    for (index, diagram) in document.diagrams.iter().enumerate() {
        let pages = diagram.page_count();
        if let Some(requested) = options.page {
            if requested <= global_page || requested > global_page + pages {
                global_page += pages;
                continue;
            }
        }
        let scenes = puml_layout::try_layout(diagram, &layout_options).map_err(RenderFailure::Layout)?;
        for (page, scene) in scenes.into_iter().enumerate() {
            global_page += 1;
            if options.page.is_none_or(|p| p == global_page) {
                out.push(PageScene {
                    diagram: index,
                    page,
                    name: diagram.name.clone(),
                    scene,
                });
            }
        }
    }
    Ok(out)
}

/// Encodes one scene in `format`.
pub fn encode(scene: &Scene, format: Format, scale: f64) -> Result<Vec<u8>, RenderError> {
    Ok(match format {
        Format::Svg => puml_render::to_svg_bytes(scene),
        Format::Png => puml_render::to_png(scene, scale)?,
        Format::Pdf => puml_render::to_pdf(scene)?,
        Format::Txt => puml_render::to_text(scene, false).into_bytes(),
        Format::Utxt => puml_render::to_text(scene, true).into_bytes(),
        Format::SceneJson => puml_render::to_scene_json(scene).into_bytes(),
    })
}

/// `puml dump scene`: the scene JSON of every page, one document per page
/// separated by newlines (a single page gives a single JSON document).
pub fn dump_scene(text: &str, options: &RenderOptions, loader: &dyn FileLoader) -> Result<String, RenderFailure> {
    let options = RenderOptions {
        format: Format::SceneJson,
        ..options.clone()
    };
    let pages = render_source(text, &options, loader)?;
    Ok(pages
        .into_iter()
        .map(|p| String::from_utf8_lossy(&p.bytes).into_owned())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use puml_sema::NoIncludes;

    const SOURCE: &str = "@startuml\nAlice -> Bob : hello\nnewpage\nBob -> Alice : bye\n@enduml\n";

    fn render(text: &str, format: Format, page: Option<usize>) -> Result<Vec<RenderedPage>, RenderFailure> {
        let options = RenderOptions {
            format,
            page,
            ..RenderOptions::default()
        };
        render_source(text, &options, &NoIncludes)
    }

    #[test]
    fn a_class_diagram_is_drawn_and_another_kind_is_refused() {
        // The class reading reads this block from its first line
        // (`Alice -> Bob : hello` is a class link too): it is drawn, with
        // PlantUML's markers.
        let text = "@startuml\nAlice -> Bob : hello\nBob -- Alice : hi\n@enduml\n";
        let pages = render(text, Format::Svg, None).expect("a class diagram is drawn");
        let svg = String::from_utf8_lossy(&pages[0].bytes);
        assert!(
            svg.contains("<g class=\"entity\" data-qualified-name=\"Alice\""),
            "{svg}"
        );
        assert!(svg.contains("<g class=\"link\" data-entity-1="), "{svg}");
        // A state diagram is drawn too.
        let state = "@startuml\nstate S1\n[*] --> S1\nS1 --> [*]\n@enduml\n";
        let pages = render(state, Format::Svg, None).expect("a state diagram is drawn");
        assert!(String::from_utf8_lossy(&pages[0].bytes).contains("data-qualified-name=\"S1\""));
        // A legacy activity diagram is drawn too, through the host as well.
        let legacy = "@startuml\n(*) --> \"First\"\n\"First\" --> (*)\n@enduml\n";
        let pages = render(legacy, Format::Svg, None).expect("a legacy activity diagram is drawn");
        let svg = String::from_utf8_lossy(&pages[0].bytes);
        assert!(svg.contains("<g class=\"start_entity\""), "{svg}");
        assert!(svg.contains("data-qualified-name=\"First\""), "{svg}");
        let (host, file) = crate::AnalysisHost::single_file(None, legacy.to_string(), Default::default());
        assert!(host.analysis().render(file, &RenderOptions::default()).unwrap().is_ok());
        // A timing diagram is still refused, through the host too (CLI,
        // MCP, LSP, compat).
        let timing = "@startuml\nrobust \"Web\" as WB\n@0\nWB is Idle\n@enduml\n";
        match render(timing, Format::Svg, None) {
            Err(RenderFailure::OtherDiagramKind(warning)) => {
                assert_eq!(warning.code, "W0240");
                assert!(RenderFailure::OtherDiagramKind(warning)
                    .to_string()
                    .contains("PlantUML reads this block as a timing diagram"));
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        let (host, file) = crate::AnalysisHost::single_file(None, timing.to_string(), Default::default());
        let rendered = host.analysis().render(file, &RenderOptions::default()).unwrap();
        assert!(matches!(rendered, Err(RenderFailure::OtherDiagramKind(_))));
        let (host, file) = crate::AnalysisHost::single_file(None, text.to_string(), Default::default());
        assert!(host.analysis().render(file, &RenderOptions::default()).unwrap().is_ok());
    }

    #[test]
    fn every_format_renders_every_page() {
        for format in Format::ALL {
            let pages = render(SOURCE, format, None).expect("renders");
            assert_eq!(pages.len(), 2, "{}", format.name());
            assert!(pages.iter().all(|p| !p.bytes.is_empty() && p.format == format));
            if !format.is_binary() {
                assert!(std::str::from_utf8(&pages[0].bytes).is_ok());
            }
        }
        let svg =
            String::from_utf8(render(SOURCE, Format::Svg, Some(2)).expect("page 2")[0].bytes.clone()).expect("utf-8");
        assert!(svg.contains(">bye</text>") && !svg.contains(">hello</text>"));
    }

    #[test]
    fn errors_and_bad_requests_are_refused_with_reasons() {
        let broken = "@startuml\nA -> B\nend\nthis is not valid\n@enduml\n";
        match render(broken, Format::Svg, None) {
            Err(RenderFailure::Diagnostics(d)) => assert!(d.iter().any(|d| d.severity == Severity::Error)),
            other => panic!("expected diagnostics, got {other:?}"),
        }
        assert_eq!(
            render(SOURCE, Format::Svg, Some(3)).unwrap_err(),
            RenderFailure::PageOutOfRange {
                requested: 3,
                available: 2
            }
        );
        let options = RenderOptions {
            theme: Some("neon".into()),
            ..RenderOptions::default()
        };
        assert!(matches!(
            render_source(SOURCE, &options, &NoIncludes),
            Err(RenderFailure::Layout(LayoutError::UnknownTheme(_)))
        ));
        let options = RenderOptions {
            format: Format::Png,
            scale: 50.0,
            ..RenderOptions::default()
        };
        assert!(matches!(
            render_source(SOURCE, &options, &NoIncludes),
            Err(RenderFailure::Render(RenderError::BadScale(_)))
        ));
    }

    #[test]
    fn format_names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("jpeg"), None);
    }
}
