//! Rendering and export tools: `puml_render_svg`, `puml_export`, `puml_render_file`.
//! Writes happen only here and in `puml_apply_edit`, only with `write: true`
//! and an explicit target inside the roots, atomically.

use super::{bound_output, check_options, load_source, sources, McpTool, Reply, ToolContext, ToolFailure};
use crate::backend::{self, Artifact, RenderRequest};
use crate::security::{codes, Refusal, MAX_BINARY_OUTPUT_BYTES};
use crate::wire::{self, Diagnostic};
use base64::Engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderSvgInput {
    /// The diagram source text. Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
    /// Theme name (default, plain, minimal, docs, dark, sand, blueprint); overrides `!theme`.
    pub theme: Option<String>,
    /// 0-based page (diagrams split by `newpage`); default 0.
    pub page: Option<u32>,
    /// Directory (inside the workspace) that `!include` may read from.
    #[serde(rename = "includeRoot")]
    pub include_root: Option<String>,
    /// Accept `!include` of URLs syntactically; they are never fetched.
    pub allow_url_includes: Option<bool>,
    /// Also return a PNG rendering as image content, so the model can look at the diagram.
    pub preview_png: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RenderSvgOutput {
    pub ok: bool,
    /// The SVG document (no scripts; every text escaped). Empty when not ok.
    pub svg: String,
    pub width: f64,
    pub height: f64,
    pub diagnostics: Vec<Diagnostic>,
    /// Present when the SVG was cut at the output size limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

pub struct RenderSvg;

impl McpTool for RenderSvg {
    const NAME: &'static str = "puml_render_svg";
    const TITLE: &'static str = "Render a diagram to SVG";
    const DESCRIPTION: &'static str = "Render a valid PlantUML sequence diagram to SVG (returned as text, never as an image). Refuses sources with errors and returns their diagnostics; run puml_check first. With preview_png: true, also returns a PNG image to look at.";
    type Input = RenderSvgInput;
    type Output = RenderSvgOutput;

    fn run(ctx: &ToolContext, input: RenderSvgInput) -> Result<Reply<RenderSvgOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = check_options(ctx, &loaded, input.include_root.as_deref(), input.allow_url_includes)?;
        let request = RenderRequest {
            theme: input.theme,
            page: input.page.unwrap_or(0) as usize,
        };
        let rendered = backend::render(&loaded.text, &options, sources(ctx), &request, backend::Format::Svg)?;
        let diagnostics = wire::diagnostics(&rendered.warnings);
        let Artifact::Text(mut svg) = rendered.artifact else {
            return Err(internal("the SVG renderer returned binary data"));
        };
        let note = bound_output(&mut svg);
        let png = if input.preview_png.unwrap_or(false) {
            match backend::render(&loaded.text, &options, sources(ctx), &request, backend::Format::Png)?.artifact {
                Artifact::Binary(bytes) if bytes.len() <= MAX_BINARY_OUTPUT_BYTES => Some(bytes),
                _ => None,
            }
        } else {
            None
        };
        let mut summary = format!(
            "rendered SVG, {} x {} px, {} bytes",
            rendered.width,
            rendered.height,
            svg.len()
        );
        if let Some(note) = &note {
            summary.push_str(&format!("; {note}"));
        }
        let output = RenderSvgOutput {
            ok: true,
            svg: svg.clone(),
            width: rendered.width,
            height: rendered.height,
            diagnostics,
            note,
        };
        let mut reply = Reply::new(output, true, summary);
        reply.artifact = Some(svg);
        reply.png = png;
        Ok(reply)
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> RenderSvgOutput {
        RenderSvgOutput {
            ok: false,
            svg: String::new(),
            width: 0.0,
            height: 0.0,
            diagnostics,
            note: None,
        }
    }
}

/// Output formats of `puml_export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum ExportFormat {
    #[serde(rename = "svg")]
    Svg,
    #[serde(rename = "png")]
    Png,
    #[serde(rename = "pdf")]
    Pdf,
    /// The canonical (formatted) source.
    #[serde(rename = "puml")]
    Puml,
    /// The lossless syntax tree.
    #[serde(rename = "ast-json")]
    AstJson,
    /// The checked, normalized semantic model.
    #[serde(rename = "model-json")]
    ModelJson,
    /// The laid-out scene (boxes, lines, texts with coordinates).
    #[serde(rename = "scene-json")]
    SceneJson,
    /// Text art (ASCII/Unicode).
    #[serde(rename = "txt")]
    Txt,
}

impl ExportFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            ExportFormat::Svg => "svg",
            ExportFormat::Png => "png",
            ExportFormat::Pdf => "pdf",
            ExportFormat::Puml => "puml",
            ExportFormat::AstJson => "ast-json",
            ExportFormat::ModelJson => "model-json",
            ExportFormat::SceneJson => "scene-json",
            ExportFormat::Txt => "txt",
        }
    }

    /// File extensions a written export may carry (a fail-closed guard
    /// against writing, say, a `.bashrc` or a `.py` through this tool).
    pub fn allowed_extensions(self) -> &'static [&'static str] {
        match self {
            ExportFormat::Svg => &["svg"],
            ExportFormat::Png => &["png"],
            ExportFormat::Pdf => &["pdf"],
            ExportFormat::Puml => &puml_ide::fs::DIAGRAM_EXTENSIONS,
            ExportFormat::AstJson | ExportFormat::ModelJson | ExportFormat::SceneJson => &["json"],
            ExportFormat::Txt => &["txt"],
        }
    }

    fn is_binary(self) -> bool {
        matches!(self, ExportFormat::Png | ExportFormat::Pdf)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportInput {
    /// The diagram source text. Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
    pub format: ExportFormat,
    /// Theme name; overrides `!theme` (svg, png, pdf, scene-json, txt).
    pub theme: Option<String>,
    /// 0-based page for svg, png, pdf, scene-json and txt; default 0.
    pub page: Option<u32>,
    /// Where to write, relative to the workspace root. Used only with `write: true`.
    #[serde(rename = "outputPath")]
    pub output_path: Option<String>,
    /// Must be true to write `outputPath`; otherwise the export is returned inline.
    pub write: Option<bool>,
    /// Must be true to replace an existing file.
    pub overwrite: Option<bool>,
    /// Directory (inside the workspace) that `!include` may read from.
    #[serde(rename = "includeRoot")]
    pub include_root: Option<String>,
    /// Accept `!include` of URLs syntactically; they are never fetched.
    pub allow_url_includes: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportOutput {
    pub ok: bool,
    pub format: String,
    /// The export inline (text formats as text; png/pdf base64-encoded). Absent when written to a file.
    pub content: Option<String>,
    /// `utf-8` or `base64`.
    pub encoding: Option<String>,
    /// The written file, relative to the workspace root (only with `write: true`).
    pub path: Option<String>,
    /// Size of the export in bytes.
    pub bytes: usize,
    /// Whether an existing file was replaced.
    pub replaced: bool,
    /// Start of the written content (text formats), to confirm what was written.
    pub preview: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// Present when the inline content was cut at the output size limit.
    pub note: Option<String>,
}

pub struct Export;

impl McpTool for Export {
    const NAME: &'static str = "puml_export";
    const TITLE: &'static str = "Export a diagram";
    const DESCRIPTION: &'static str = "Export a diagram as svg, png, pdf, puml (canonical source), ast-json, model-json, scene-json or txt. Returned inline (PNG also as image content) unless write: true with outputPath, which writes the file atomically inside the workspace; an existing file is replaced only with overwrite: true.";
    const READ_ONLY: bool = false;
    type Input = ExportInput;
    type Output = ExportOutput;

    fn run(ctx: &ToolContext, input: ExportInput) -> Result<Reply<ExportOutput>, ToolFailure> {
        let write = input.write.unwrap_or(false);
        let target = plan_write(
            ctx,
            write,
            input.output_path.as_deref(),
            input.overwrite.unwrap_or(false),
            input.format,
        )?;
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = check_options(ctx, &loaded, input.include_root.as_deref(), input.allow_url_includes)?;
        let request = RenderRequest {
            theme: input.theme,
            page: input.page.unwrap_or(0) as usize,
        };
        let exported = export_artifact(ctx, &loaded.text, &options, &request, input.format)?;
        let diagnostics = wire::diagnostics(&exported.warnings);
        let format = input.format;
        let bytes = exported.artifact.byte_len();
        if let Some(target) = target {
            let written = write_artifact(ctx, &target, &exported.artifact)?;
            let summary = format!(
                "wrote {} ({bytes} bytes, {}){}",
                written.display,
                format.as_str(),
                if written.replaced {
                    ", replacing the existing file"
                } else {
                    ""
                }
            );
            let output = ExportOutput {
                ok: true,
                format: format.as_str().to_string(),
                content: None,
                encoding: None,
                path: Some(written.display),
                bytes,
                replaced: written.replaced,
                preview: written.preview,
                diagnostics,
                note: None,
            };
            return Ok(Reply::new(output, true, summary));
        }
        let (content, encoding, note, png, artifact) = match exported.artifact {
            Artifact::Text(mut text) => {
                let note = bound_output(&mut text);
                (text.clone(), "utf-8", note, None, Some(text))
            }
            Artifact::Binary(data) => {
                if data.len() > MAX_BINARY_OUTPUT_BYTES {
                    return Err(Refusal::new(
                        codes::TOO_LARGE,
                        format!(
                            "the {} is {} bytes, over the inline limit of {MAX_BINARY_OUTPUT_BYTES}; write it to a file with write: true and outputPath",
                            format.as_str(),
                            data.len()
                        ),
                    )
                    .into());
                }
                let encoded = base64::engine::general_purpose::STANDARD.encode(&data);
                let png = (format == ExportFormat::Png).then_some(data);
                (encoded, "base64", None, png, None)
            }
        };
        let mut summary = format!("exported {} ({bytes} bytes)", format.as_str());
        if let Some(note) = &note {
            summary.push_str(&format!("; {note}"));
        }
        if format.is_binary() && format == ExportFormat::Png {
            summary.push_str("; the image follows");
        }
        let output = ExportOutput {
            ok: true,
            format: format.as_str().to_string(),
            content: Some(content),
            encoding: Some(encoding.to_string()),
            path: None,
            bytes,
            replaced: false,
            preview: None,
            diagnostics,
            note,
        };
        let mut reply = Reply::new(output, true, summary);
        reply.artifact = artifact;
        reply.png = png;
        Ok(reply)
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ExportOutput {
        ExportOutput {
            ok: false,
            format: String::new(),
            content: None,
            encoding: None,
            path: None,
            bytes: 0,
            replaced: false,
            preview: None,
            diagnostics,
            note: None,
        }
    }
}

/// Output formats of `puml_render_file`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RenderFileFormat {
    Svg,
    Png,
    Pdf,
    Txt,
}

impl RenderFileFormat {
    fn export_format(self) -> ExportFormat {
        match self {
            RenderFileFormat::Svg => ExportFormat::Svg,
            RenderFileFormat::Png => ExportFormat::Png,
            RenderFileFormat::Pdf => ExportFormat::Pdf,
            RenderFileFormat::Txt => ExportFormat::Txt,
        }
    }

    fn from_extension(path: &str) -> Option<RenderFileFormat> {
        let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(RenderFileFormat::Svg),
            "png" => Some(RenderFileFormat::Png),
            "pdf" => Some(RenderFileFormat::Pdf),
            "txt" => Some(RenderFileFormat::Txt),
            _ => None,
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderFileInput {
    /// The diagram source text. Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
    /// The file to write, relative to the workspace root (.svg, .png, .pdf or .txt).
    pub output_path: String,
    /// Default: from the extension of `output_path`.
    pub format: Option<RenderFileFormat>,
    pub theme: Option<String>,
    /// 0-based page; default 0.
    pub page: Option<u32>,
    /// Must be true: this tool writes a file.
    pub write: Option<bool>,
    /// Must be true to replace an existing file.
    pub overwrite: Option<bool>,
    #[serde(rename = "includeRoot")]
    pub include_root: Option<String>,
    pub allow_url_includes: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RenderFileOutput {
    pub ok: bool,
    /// The written file, relative to the workspace root; null when nothing was written.
    pub output_path: Option<String>,
    pub bytes: usize,
    pub replaced: bool,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct RenderFile;

impl McpTool for RenderFile {
    const NAME: &'static str = "puml_render_file";
    const TITLE: &'static str = "Render a diagram to a file";
    const DESCRIPTION: &'static str = "Render a valid diagram (source or workspace path) to output_path (.svg/.png/.pdf/.txt) inside the workspace. Requires write: true; replaces an existing file only with overwrite: true. Refuses sources with errors.";
    const READ_ONLY: bool = false;
    type Input = RenderFileInput;
    type Output = RenderFileOutput;

    fn run(ctx: &ToolContext, input: RenderFileInput) -> Result<Reply<RenderFileOutput>, ToolFailure> {
        let format = match input
            .format
            .or_else(|| RenderFileFormat::from_extension(&input.output_path))
        {
            Some(format) => format.export_format(),
            None => {
                return Err(Refusal::new(
                    codes::UNSUPPORTED,
                    "cannot tell the format: give `format` or an output_path ending in .svg, .png, .pdf or .txt",
                )
                .into())
            }
        };
        let overwrite = input.overwrite.unwrap_or(false);
        let target = plan_write(
            ctx,
            input.write.unwrap_or(false),
            Some(&input.output_path),
            overwrite,
            format,
        )?;
        let Some(target) = target else {
            return Err(internal("no write target"));
        };
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = check_options(ctx, &loaded, input.include_root.as_deref(), input.allow_url_includes)?;
        let request = RenderRequest {
            theme: input.theme,
            page: input.page.unwrap_or(0) as usize,
        };
        let exported = export_artifact(ctx, &loaded.text, &options, &request, format)?;
        let bytes = exported.artifact.byte_len();
        let written = write_artifact(ctx, &target, &exported.artifact)?;
        let summary = format!("wrote {} ({bytes} bytes)", written.display);
        let output = RenderFileOutput {
            ok: true,
            output_path: Some(written.display),
            bytes,
            replaced: written.replaced,
            diagnostics: wire::diagnostics(&exported.warnings),
        };
        Ok(Reply::new(output, true, summary))
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> RenderFileOutput {
        RenderFileOutput {
            ok: false,
            output_path: None,
            bytes: 0,
            replaced: false,
            diagnostics,
        }
    }
}

fn internal(message: &str) -> ToolFailure {
    Refusal::new(codes::INTERNAL, message).into()
}

/// A checked write target.
pub struct WriteTarget {
    pub path: std::path::PathBuf,
    pub exists: bool,
}

/// Applies the write policy before any work is done: no target without
/// `write: true`, no `write: true` without a target, the target inside the
/// roots with an extension that fits the format, and no overwrite unless asked.
pub fn plan_write(
    ctx: &ToolContext,
    write: bool,
    output_path: Option<&str>,
    overwrite: bool,
    format: ExportFormat,
) -> Result<Option<WriteTarget>, ToolFailure> {
    match (write, output_path) {
        (false, None) => Ok(None),
        (false, Some(path)) => Err(Refusal::new(
            codes::WRITE_NOT_ALLOWED,
            format!("{path}: not written: writing a file requires write: true"),
        )
        .into()),
        (true, None) => Err(Refusal::new(
            codes::WRITE_NOT_ALLOWED,
            "write: true needs an explicit target (outputPath)",
        )
        .into()),
        (true, Some(path)) => {
            check_extension(path, format.allowed_extensions())?;
            let (path, exists) = ctx.roots.resolve_write_target(path, overwrite)?;
            Ok(Some(WriteTarget { path, exists }))
        }
    }
}

pub fn check_extension(path: &str, allowed: &[&str]) -> Result<(), Refusal> {
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    if allowed.iter().any(|a| a.eq_ignore_ascii_case(ext)) {
        Ok(())
    } else {
        Err(Refusal::new(
            codes::WRITE_NOT_ALLOWED,
            format!(
                "{path}: the file name must end in .{} for this format",
                allowed.join(" or .")
            ),
        ))
    }
}

pub struct Written {
    pub display: String,
    pub replaced: bool,
    pub preview: Option<String>,
}

/// Writes atomically (temporary file + rename); the target was resolved by [`plan_write`].
pub fn write_artifact(ctx: &ToolContext, target: &WriteTarget, artifact: &Artifact) -> Result<Written, ToolFailure> {
    let bytes: &[u8] = match artifact {
        Artifact::Text(text) => text.as_bytes(),
        Artifact::Binary(data) => data,
    };
    puml_ide::fs::write_generated(&target.path, bytes, false).map_err(|e| {
        ToolFailure::from(Refusal::new(
            codes::WRITE_FAILED,
            format!("{}: {e}", ctx.roots.display(&target.path)),
        ))
    })?;
    let preview = match artifact {
        Artifact::Text(text) => {
            let mut head: String = text.lines().take(20).collect::<Vec<_>>().join("\n");
            crate::security::truncate_utf8(&mut head, 2000);
            Some(head)
        }
        Artifact::Binary(_) => None,
    };
    Ok(Written {
        display: ctx.roots.display(&target.path),
        replaced: target.exists,
        preview,
    })
}

pub struct Exported {
    pub artifact: Artifact,
    pub warnings: Vec<puml_ide::check::LineColDiagnostic>,
}

/// Produces one export format through the backend that owns it.
fn export_artifact(
    ctx: &ToolContext,
    text: &str,
    options: &puml_ide::check::CheckOptions,
    request: &RenderRequest,
    format: ExportFormat,
) -> Result<Exported, ToolFailure> {
    let sources = sources(ctx);
    let rendered = |format| -> Result<Exported, ToolFailure> {
        let r = backend::render(text, options, sources, request, format)?;
        Ok(Exported {
            artifact: r.artifact,
            warnings: r.warnings,
        })
    };
    match format {
        ExportFormat::Svg => rendered(backend::Format::Svg),
        ExportFormat::Png => rendered(backend::Format::Png),
        ExportFormat::Pdf => rendered(backend::Format::Pdf),
        ExportFormat::Txt => rendered(backend::Format::Txt),
        ExportFormat::SceneJson => rendered(backend::Format::SceneJson),
        ExportFormat::Puml => {
            let source = backend::canonical_source(text)?;
            Ok(Exported {
                artifact: Artifact::Text(source),
                warnings: Vec::new(),
            })
        }
        ExportFormat::AstJson => {
            let parse = sources.run(text, options, |analysis, file| analysis.parse(file));
            let (tree, _, _) = super::inspect::syntax_tree_json(&parse.syntax(), usize::MAX);
            let json = serde_json::to_string_pretty(&tree).map_err(|e| internal(&e.to_string()))?;
            Ok(Exported {
                artifact: Artifact::Text(json),
                warnings: Vec::new(),
            })
        }
        ExportFormat::ModelJson => {
            let (document, report) = backend::model(text, options, sources);
            if !report.ok() {
                return Err(ToolFailure::Failed(wire::diagnostics(&report.diagnostics)));
            }
            let json = serde_json::to_string_pretty(&document).map_err(|e| internal(&e.to_string()))?;
            Ok(Exported {
                artifact: Artifact::Text(json),
                warnings: report.diagnostics,
            })
        }
    }
}
