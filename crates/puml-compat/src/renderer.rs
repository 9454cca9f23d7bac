//! One diagram block in, its pages or a located error out. Goes through an
//! [`AnalysisHost`] like every consumer: a command or a server thread keeps
//! one renderer, and the same block asked for twice costs a lookup.

use crate::blocks::{kind_of_tag, other_kind_at_error, server_blocks, Block, DiagramKind};
use crate::error_image::error_scene;
use puml_ide::check::CheckSummary;
use puml_ide::render::{encode, Format, RenderFailure, RenderOptions};
use puml_ide::{Analysis, AnalysisHost, Cancellable, FileId, HostConfig};
use puml_layout::Scene;
use puml_syntax::Severity;
use std::path::PathBuf;

/// The image formats of PlantUML's `-t` flags that puml writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    Svg,
    Png,
    Pdf,
    /// `-ttxt`: ASCII art, written as `.atxt`.
    Txt,
    /// `-tutxt`: Unicode box drawing, written as `.utxt`.
    Utxt,
}

impl ImageFormat {
    /// `svg` (from `-tsvg`, a server path segment, or Kroki's `output_format`).
    pub fn from_name(name: &str) -> Option<ImageFormat> {
        Some(match name.to_ascii_lowercase().as_str() {
            "svg" => ImageFormat::Svg,
            "png" | "img" => ImageFormat::Png,
            "pdf" => ImageFormat::Pdf,
            "txt" | "atxt" => ImageFormat::Txt,
            "utxt" => ImageFormat::Utxt,
            _ => return None,
        })
    }

    /// The extension PlantUML gives the output file.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Svg => "svg",
            ImageFormat::Png => "png",
            ImageFormat::Pdf => "pdf",
            ImageFormat::Txt => "atxt",
            ImageFormat::Utxt => "utxt",
        }
    }

    pub fn mime_type(self) -> &'static str {
        match self {
            ImageFormat::Svg => "image/svg+xml",
            ImageFormat::Png => "image/png",
            ImageFormat::Pdf => "application/pdf",
            ImageFormat::Txt | ImageFormat::Utxt => "text/plain; charset=utf-8",
        }
    }

    fn ide_format(self) -> Format {
        match self {
            ImageFormat::Svg => Format::Svg,
            ImageFormat::Png => Format::Png,
            ImageFormat::Pdf => Format::Pdf,
            ImageFormat::Txt => Format::Txt,
            ImageFormat::Utxt => Format::Utxt,
        }
    }
}

/// How to render.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderSettings {
    pub format: ImageFormat,
    /// A puml theme name (overrides the diagram's `!theme`).
    pub theme: Option<String>,
    /// Every page (`newpage`), or the first only (PlantUML's `-pipe` and server).
    pub all_pages: bool,
    /// Where the block's text comes from, for relative `!include`s.
    pub path: Option<PathBuf>,
}

impl RenderSettings {
    pub fn new(format: ImageFormat) -> RenderSettings {
        RenderSettings {
            format,
            theme: None,
            all_pages: false,
            path: None,
        }
    }
}

/// One output image.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub bytes: Vec<u8>,
    pub width: f64,
    pub height: f64,
}

/// What became of one block.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Rendered {
        pages: Vec<Page>,
        /// The kind as PlantUML names it: `SEQUENCE` or `ACTIVITY`.
        kind: &'static str,
        /// PlantUML's one-line description, e.g. `(2 participants)`.
        description: String,
    },
    /// The diagram has an error: PlantUML's error image stands in for it.
    Error {
        /// 0-based line within the block's text.
        line: usize,
        message: String,
        /// The diagnostic code (`E0103`…), empty for size-limit refusals.
        code: &'static str,
        /// The line PlantUML's error picture shows for this error ("Syntax
        /// Error? (Assumed diagram type: activity)"), drawn above puml's
        /// message; none when PlantUML's picture says something else.
        plantuml_message: Option<String>,
        image: Page,
    },
    /// A kind of diagram puml does not draw.
    Unsupported { kind: &'static str, image: Page },
}

impl Outcome {
    /// The image to show: the first page, the error image or the refusal.
    pub fn first_image(&self) -> Option<&Page> {
        match self {
            Outcome::Rendered { pages, .. } => pages.first(),
            Outcome::Error { image, .. } | Outcome::Unsupported { image, .. } => Some(image),
        }
    }
}

/// The message shown for a kind puml does not draw.
pub fn unsupported_message(kind: &str) -> String {
    format!(
        "puml draws sequence, activity (also legacy), class, description and state diagrams only; this is a {kind} diagram.\nUse PlantUML for it (puml-plantuml --fallback-jar, puml serve --fallback)."
    )
}

/// What a server answers for one request.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerAnswer {
    pub outcome: Outcome,
    /// For an error: its 1-based line in the request's text.
    pub error_line: Option<usize>,
}

/// Renders blocks through one analysis host.
pub struct Renderer {
    host: AnalysisHost,
    file: Option<(Option<PathBuf>, FileId)>,
}

impl Renderer {
    /// `include_root`: `!include` reads only inside it (`None`: the block's
    /// own directory, or no local includes at all for text without a path).
    pub fn new(include_root: Option<PathBuf>) -> Renderer {
        let mut host = AnalysisHost::new();
        host.set_config(HostConfig {
            include_root,
            ..HostConfig::default()
        });
        Renderer { host, file: None }
    }

    /// Renders one block.
    pub fn render(&mut self, block: &Block, settings: &RenderSettings) -> Outcome {
        match kind_of_tag(&block.tag) {
            // A tag PlantUML does not know: its error, on the start line.
            Some(DiagramKind::Other("UNKNOWN")) => {
                let message = format!(
                    "Diagram not supported by this release of PlantUML: @start{} is not recognized",
                    block.tag
                );
                return error_outcome(&block.text, 0, message, "E0243", None, settings);
            }
            Some(DiagramKind::Other(kind)) => return unsupported(kind, settings.format),
            _ => {}
        }
        let file = self.load(&block.text, settings.path.clone());
        let analysis = self.host.analysis();
        answer(render_file(&analysis, file, block, settings))
    }

    /// A server request's text (PlantUML's server rules, see
    /// [`server_blocks`]): the first diagram's image, or the first error of
    /// the whole text with its 1-based line in the text.
    pub fn render_request(&mut self, text: &str, settings: &RenderSettings) -> Option<ServerAnswer> {
        let (blocks, stray) = server_blocks(text);
        let first = blocks.first()?;
        let outcome = self.render(first, settings);
        let mut answer = ServerAnswer {
            error_line: None,
            outcome,
        };
        if let Outcome::Error { line, .. } = &answer.outcome {
            answer.error_line = Some(first.first_line + line + 1);
            return Some(answer);
        }
        if matches!(answer.outcome, Outcome::Unsupported { .. }) {
            return Some(answer);
        }
        // The later diagrams and stray lines make the whole request an error, in text order.
        let mut check = settings.clone();
        check.format = ImageFormat::Txt;
        for block in &blocks[1..] {
            if stray.is_some_and(|line| line < block.first_line) {
                break;
            }
            if let Outcome::Error {
                line,
                message,
                code,
                plantuml_message,
                ..
            } = self.render(block, &check)
            {
                let line = block.first_line + line;
                answer.outcome = error_outcome(text, line, message, code, plantuml_message, settings);
                answer.error_line = Some(line + 1);
                return Some(answer);
            }
        }
        if let Some(line) = stray {
            let message = "Syntax Error? (text outside @startuml … @enduml)".to_string();
            answer.outcome = error_outcome(text, line, message, "", None, settings);
            answer.error_line = Some(line + 1);
        }
        Some(answer)
    }

    /// Makes `text` the content of the renderer's file (the path decides
    /// which file: includes resolve against it).
    fn load(&mut self, text: &str, path: Option<PathBuf>) -> FileId {
        match &self.file {
            Some((current, file)) if *current == path => {
                let file = *file;
                self.host.set_file_text(file, text.to_string());
                file
            }
            _ => {
                if let Some((_, old)) = self.file.take() {
                    self.host.remove_file(old);
                }
                let file = self.host.add_file(path.clone(), text.to_string());
                self.file = Some((path, file));
                file
            }
        }
    }
}

/// A renderer's host is changed only by its owner, between requests.
fn answer<T>(result: Cancellable<T>) -> T {
    match result {
        Ok(value) => value,
        Err(cancelled) => unreachable!("a renderer's host is never changed under a request: {cancelled}"),
    }
}

fn render_file(analysis: &Analysis, file: FileId, block: &Block, settings: &RenderSettings) -> Cancellable<Outcome> {
    let report = analysis.check(file)?;
    let first_error = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .min_by_key(|d| (d.file.is_some(), d.range.line, d.range.column));
    if let Some(error) = first_error {
        // An error inside an included file is reported on the main file's first line.
        let line = if error.file.is_none() {
            error.range.line.saturating_sub(1) as usize
        } else {
            0
        };
        // An error in a diagram puml read as an activity diagram is that
        // diagram's error, not a sign of a kind puml does not draw. The
        // description, state, legacy activity and timing readings are
        // puml's own (W0240 when PlantUML draws the block): an error left
        // in such a block is PlantUML's error too, so only the class kinds,
        // whose reading is still the narrow one, are guessed from the text.
        let read_as_activity = report.summary.activity_diagrams > 0;
        if let Some(kind) = other_kind_at_error(&block.text, line)
            .filter(|k| !(read_as_activity && *k == "ACTIVITY"))
            .filter(|k| matches!(*k, "CLASS" | "OBJECT"))
        {
            return Ok(unsupported(kind, settings.format));
        }
        let message = format!("{} [{}]", error.message, error.code);
        let other_kind = analysis
            .document(file)?
            .diagrams
            .iter()
            .find_map(|d| d.other_kind)
            .map(|kind| kind.plantuml_name());
        let assumed = furthest_reading(error.code, &error.message).unwrap_or(assumed_kind(&report.summary, other_kind));
        let failing_line = block.text.lines().nth(line).unwrap_or("");
        // PlantUML's own words where they name the same fault as puml's
        // diagnostic (observed with the oracle: a stray closer, an unknown
        // colour in a sequence diagram, corpus 208); its generic ones otherwise.
        let headline = match (error.code, cannot_find(failing_line)) {
            ("E0210", Some(block_name)) => format!("Cannot find {block_name} (Assumed diagram type: {assumed})"),
            ("E0206", _) if assumed == "sequence" => format!("No such color (Assumed diagram type: {assumed})"),
            _ => format!("Syntax Error? (Assumed diagram type: {assumed})"),
        };
        return Ok(error_outcome(
            &block.text,
            line,
            message,
            error.code,
            Some(headline),
            settings,
        ));
    }
    let options = RenderOptions {
        format: settings.format.ide_format(),
        theme: settings.theme.clone(),
        page: (!settings.all_pages).then_some(1),
        ..RenderOptions::default()
    };
    match analysis.render(file, &options)? {
        Ok(pages) => Ok(Outcome::Rendered {
            pages: pages
                .into_iter()
                .map(|page| Page {
                    bytes: page.bytes,
                    width: page.width,
                    height: page.height,
                })
                .collect(),
            kind: kind_of(&report.summary),
            description: describe(&report.summary),
        }),
        // PlantUML reads the block as another diagram type (W0240: class,
        // description, state, legacy activity, timing, …): answered as for
        // any other diagram type puml does not draw, named as PlantUML names it.
        Err(RenderFailure::OtherDiagramKind(_)) => {
            let document = analysis.document(file)?;
            let kind = document
                .diagrams
                .iter()
                .find_map(|d| d.other_kind)
                .map_or("UNKNOWN", |kind| kind.plantuml_name());
            Ok(unsupported(kind, settings.format))
        }
        Err(RenderFailure::NoDiagram) => Ok(error_outcome(
            &block.text,
            0,
            "No diagram found".into(),
            "",
            None,
            settings,
        )),
        Err(failure) => Ok(error_outcome(&block.text, 0, failure.to_string(), "", None, settings)),
    }
}

fn kind_of(summary: &CheckSummary) -> &'static str {
    if summary.activity_diagrams > 0 {
        "ACTIVITY"
    } else if summary.class_diagrams > 0 {
        "CLASS"
    } else if summary.description_diagrams > 0 {
        "DESCRIPTION"
    } else if summary.state_diagrams > 0 {
        "STATE"
    } else {
        "SEQUENCE"
    }
}

/// PlantUML's description: the participant count of a sequence diagram;
/// `activity3` (its name for the `start`/`:action;` syntax) for an activity
/// diagram.
fn describe(summary: &CheckSummary) -> String {
    if summary.activity_diagrams > 0 {
        return "activity3".into();
    }

    match summary.participants {
        1 => "(1 participant)".into(),
        n => format!("({n} participants)"),
    }
}

/// The diagram type PlantUML names when it cannot read a block
/// ("Syntax Error? (Assumed diagram type: X)"), for the reading puml gave
/// it. Observed with the oracle on an error in each kind: use case,
/// component and deployment diagrams are all `component`, object diagrams
/// `class`, the legacy `(*)` syntax `activity`, timing diagrams `timing`.
fn assumed_kind(summary: &CheckSummary, other_kind: Option<&str>) -> &'static str {
    if summary.activity_diagrams > 0 {
        return "activity";
    }
    if summary.class_diagrams > 0 {
        return "class";
    }
    if summary.description_diagrams > 0 {
        return "component";
    }
    if summary.state_diagrams > 0 {
        return "state";
    }
    match other_kind {
        Some("ACTIVITY") => "activity",
        Some("CLASS") => "class",
        Some("DESCRIPTION") => "component",
        Some("STATE") => "state",
        Some("TIMING") => "timing",
        _ => "sequence",
    }
}

/// The type PlantUML assumes for a block no reading takes whole: the one
/// that gets furthest, which puml's E0241 names ("PlantUML's state reading
/// gets furthest …"; `test-data/dropin-errors/kind_*` hold PlantUML's
/// pictures, so a change of that wording fails their test).
fn furthest_reading(code: &str, message: &str) -> Option<&'static str> {
    if code != "E0241" {
        return None;
    }
    [
        ("PlantUML's description", "component"),
        ("PlantUML's legacy activity", "activity"),
        ("PlantUML's state", "state"),
        ("PlantUML's class", "class"),
        ("PlantUML's timing", "timing"),
    ]
    .into_iter()
    .find(|(reading, _)| message.contains(reading))
    .map(|(_, kind)| kind)
}

/// The block a stray closer or middle statement of an activity diagram
/// belongs to, as PlantUML names it in "Cannot find X" (observed with the
/// oracle for each of these lines with no open block or another one
/// innermost; `}` closes PlantUML's "group", which a partition is).
fn cannot_find(line: &str) -> Option<&'static str> {
    let line = line.trim().to_ascii_lowercase();
    let words: Vec<&str> = line.split_whitespace().collect();
    let starts = |prefix: &[&str]| words.len() >= prefix.len() && words[..prefix.len()] == *prefix;
    if starts(&["}"]) || line.starts_with('}') {
        Some("group")
    } else if starts(&["endif"]) || starts(&["else"]) || line.starts_with("else(") {
        Some("if")
    } else if starts(&["endwhile"]) {
        Some("while")
    } else if starts(&["repeat", "while"]) || line.starts_with("repeat while(") {
        Some("repeat")
    } else if starts(&["end", "fork"]) || starts(&["fork", "again"]) {
        Some("fork")
    } else if starts(&["end", "split"]) || starts(&["split", "again"]) {
        Some("split")
    } else if starts(&["endswitch"]) {
        Some("switch")
    } else {
        None
    }
}

/// The error answer. Its picture says what PlantUML's says where PlantUML
/// says it (`plantuml_message` under the source: "Syntax Error? (Assumed
/// diagram type: X)" or "Cannot find X (…)") and puml's own diagnostic,
/// with its code, on the lines after; the message reported on stderr and
/// in headers is puml's alone.
fn error_outcome(
    text: &str,
    line: usize,
    message: String,
    code: &'static str,
    plantuml_message: Option<String>,
    settings: &RenderSettings,
) -> Outcome {
    // PlantUML names the file the diagram was read from ("string" for a
    // text without one: a pipe, the server).
    let origin = settings
        .path
        .as_deref()
        .and_then(|p| p.file_name())
        .map(|name| name.to_string_lossy());
    let shown = match &plantuml_message {
        Some(headline) => format!("{headline}\n{message}"),
        None => message.clone(),
    };
    let image = image_of(
        &error_scene(text, Some(line), &shown, origin.as_deref()),
        settings.format,
    );
    Outcome::Error {
        line,
        message,
        code,
        plantuml_message,
        image,
    }
}

fn unsupported(kind: &'static str, format: ImageFormat) -> Outcome {
    let message = unsupported_message(kind);
    let image = image_of(&error_scene("", None, &message, None), format);
    Outcome::Unsupported { kind, image }
}

/// Encodes an error panel. The panel is small and bounded, so encoding
/// cannot exceed a budget; should it fail all the same, the SVG stands in.
fn image_of(scene: &Scene, format: ImageFormat) -> Page {
    let bytes = encode(scene, format.ide_format(), 1.0)
        .or_else(|_| encode(scene, Format::Svg, 1.0))
        .unwrap_or_default();
    Page {
        bytes,
        width: scene.width,
        height: scene.height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::split_blocks;

    fn render_text(text: &str, format: ImageFormat) -> Vec<Outcome> {
        let mut renderer = Renderer::new(None);
        split_blocks(text, true)
            .iter()
            .map(|block| renderer.render(block, &RenderSettings::new(format)))
            .collect()
    }

    #[test]
    fn renders_a_sequence_diagram() {
        let outcomes = render_text("@startuml\nA -> B : hi\n@enduml\n", ImageFormat::Svg);
        let Outcome::Rendered { pages, description, .. } = &outcomes[0] else {
            panic!("{outcomes:?}")
        };
        assert_eq!(description, "(2 participants)");
        assert!(String::from_utf8_lossy(&pages[0].bytes).starts_with("<svg"));
        assert!(pages[0].width > 50.0);
    }

    #[test]
    fn an_error_is_located_within_the_block() {
        let outcomes = render_text(
            "@startuml\nA -> B\n@enduml\n@startuml\nA -> B : hi\nfoo bar baz\n@enduml\n",
            ImageFormat::Png,
        );
        assert!(matches!(outcomes[0], Outcome::Rendered { .. }));
        let Outcome::Error { line, image, .. } = &outcomes[1] else {
            panic!("{outcomes:?}")
        };
        assert_eq!(*line, 2);
        assert!(image.bytes.starts_with(b"\x89PNG"));
    }

    /// The red lines of an error picture: PlantUML's message, then puml's.
    fn message_lines(outcome: &Outcome) -> Vec<String> {
        let svg = String::from_utf8_lossy(&outcome.first_image().unwrap().bytes).into_owned();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        doc.descendants()
            .filter(|n| {
                n.has_tag_name("text") && n.attribute("fill").is_some_and(|f| f.eq_ignore_ascii_case("#FF0000"))
            })
            .map(|n| {
                n.descendants()
                    .filter(|d| d.is_text())
                    .filter_map(|d| d.text())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_error_picture_says_what_plantuml_says_then_what_puml_says() {
        // Each headline as PlantUML 1.2026.8 writes it for the same text.
        let cases = [
            (
                "@startuml\nstart\n:a;\nfoo bar baz (\nstop\n@enduml\n",
                "Syntax Error? (Assumed diagram type: activity)",
            ),
            (
                "@startuml\nAlice -> Bob : hi\nfoo bar baz (\n@enduml\n",
                "Syntax Error? (Assumed diagram type: sequence)",
            ),
            (
                "@startuml\nstart\nrepeat\nif (a) then\n:x;\nrepeat while (b)\n@enduml\n",
                "Cannot find repeat (Assumed diagram type: activity)",
            ),
            (
                "@startuml\nstart\n:x;\n}\n@enduml\n",
                "Cannot find group (Assumed diagram type: activity)",
            ),
            (
                "@startuml\nstart\nwhile (a)\n:x;\nendif\n@enduml\n",
                "Cannot find if (Assumed diagram type: activity)",
            ),
            (
                "@startuml\nparticipant A\nA -> B\nnote over A #Light\nhi\nend note\n@enduml\n",
                "No such color (Assumed diagram type: sequence)",
            ),
        ];
        for (text, headline) in cases {
            let outcomes = render_text(text, ImageFormat::Svg);
            let Outcome::Error {
                message,
                plantuml_message,
                ..
            } = &outcomes[0]
            else {
                panic!("{text}: {outcomes:?}")
            };
            assert_eq!(plantuml_message.as_deref(), Some(headline), "{text}");
            let lines = message_lines(&outcomes[0]);
            assert_eq!(lines, [headline, message.as_str()], "{text}");
            assert!(message.contains("[E"), "puml's message keeps its code: {message}");
        }
    }

    #[test]
    fn other_kinds_are_refused_by_name() {
        // Class diagrams are drawn; a mind map is refused by name.
        let outcomes = render_text(
            "@startuml\nclass Foo\nFoo <|-- Bar\n@enduml\n@startmindmap\n* root\n@endmindmap\n",
            ImageFormat::Svg,
        );
        assert!(matches!(outcomes[0], Outcome::Rendered { .. }), "{outcomes:?}");
        assert!(matches!(outcomes[1], Outcome::Unsupported { kind: "MINDMAP", .. }));
        let svg = String::from_utf8_lossy(&outcomes[1].first_image().unwrap().bytes).into_owned();
        assert!(
            svg.contains("sequence, activity (also legacy), class, description and state diagrams only"),
            "{svg}"
        );
    }

    #[test]
    fn only_the_first_page_unless_asked() {
        let text = "@startuml\nA -> B\nnewpage\nB -> A\n@enduml\n";
        let block = &split_blocks(text, false)[0];
        let mut renderer = Renderer::new(None);
        let mut settings = RenderSettings::new(ImageFormat::Txt);
        let Outcome::Rendered { pages, .. } = renderer.render(block, &settings) else {
            panic!()
        };
        assert_eq!(pages.len(), 1);
        settings.all_pages = true;
        let Outcome::Rendered { pages, .. } = renderer.render(block, &settings) else {
            panic!()
        };
        assert_eq!(pages.len(), 2);
    }
}
