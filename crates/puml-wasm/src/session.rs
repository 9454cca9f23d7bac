//! One host, one file, every feature: what the JavaScript API calls.

use crate::includes::{self, ResolverLoader};
use puml_ide::format::FormatOptions;
use puml_ide::render::{Format, RenderFailure, RenderOptions, THEME_NAMES};
use puml_ide::{Analysis, AnalysisHost, Cancellable, FileId, HostConfig};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;

/// The path the source is known by: includes resolve against its folder,
/// the virtual root `/`.
pub const VIRTUAL_FILE: &str = "/diagram.puml";

/// Why a request got no answer; a JSON object for JavaScript
/// (`{message, diagnostics}`), never a trap.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionError {
    pub message: String,
    /// The diagnostics behind a refused render (the CLI's JSON shape).
    pub diagnostics: Vec<Value>,
}

impl SessionError {
    fn new(message: impl Into<String>) -> SessionError {
        SessionError {
            message: message.into(),
            diagnostics: Vec::new(),
        }
    }

    pub fn to_json(&self) -> String {
        json!({"message": self.message, "diagnostics": self.diagnostics}).to_string()
    }
}

/// What `render` is asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderRequest {
    /// `svg`, `png`, `pdf`, `txt` or `utxt`.
    pub format: String,
    /// Overrides the diagram's `!theme`.
    pub theme: Option<String>,
    /// 1-based page over all diagrams of the source (default 1).
    pub page: Option<usize>,
    /// PNG scale factor.
    pub scale: Option<f64>,
}

impl Default for RenderRequest {
    fn default() -> Self {
        RenderRequest {
            format: "svg".to_string(),
            theme: None,
            page: None,
            scale: None,
        }
    }
}

/// One rendered page.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub bytes: Vec<u8>,
    /// Whether `bytes` is text (SVG, text art) or binary (PNG, PDF).
    pub binary: bool,
    pub width: f64,
    pub height: f64,
}

/// What [`Session::preview`] answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// The diagnostics as [`Session::check_json`] writes them.
    pub diagnostics_json: String,
    /// How many of them are errors.
    pub errors: usize,
    /// Pages over all diagrams (at least 1).
    pub pages: usize,
    /// The page drawn (the one asked for, within `1..=pages`).
    pub page: usize,
    /// The page's SVG, or why not; `None` when errors refuse the render.
    pub svg: Option<Result<String, SessionError>>,
}

/// The host behind every call. Each call replaces the file's text; the
/// database keeps what did not change, so the next check or render of an
/// edited source is incremental, as in the language server.
pub struct Session {
    host: AnalysisHost,
    file: FileId,
    /// The include resolver the database's answers were read with.
    resolver_generation: u64,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        let mut host = AnalysisHost::with_loader(Arc::new(ResolverLoader));
        host.set_config(HostConfig {
            include_root: Some(PathBuf::from("/")),
            ..HostConfig::default()
        });
        let file = host.add_file(Some(PathBuf::from(VIRTUAL_FILE)), String::new());
        Session {
            host,
            file,
            resolver_generation: includes::resolver_generation(),
        }
    }

    /// A snapshot of the host holding `source`.
    fn open(&mut self, source: &str) -> Analysis {
        includes::reset_budget();
        let generation = includes::resolver_generation();
        if generation != self.resolver_generation {
            // Another resolver: an include it failed (or answered) before
            // must be asked again, and only a new text re-runs the
            // preprocessor.
            self.resolver_generation = generation;
            self.host.set_file_text(self.file, "");
        }
        self.host.set_file_text(self.file, source);
        if includes::has_resolver() && self.reads_included_files() {
            // The resolver's answers are not tracked: ask again, so an
            // included file the caller changed is seen (unchanged ones are
            // no new revision). A source that reads no included file needs
            // none of them: nothing they say can reach it (its own
            // `!include` lines failed or were skipped without their text),
            // so it costs no call to the resolver. Asking for every file
            // included so far on each call made a pass over a corpus
            // quadratic in its includes; in Node the reads were 18 % of a
            // corpus render.
            self.host.refresh_included_files();
            // Those reads were the session's, not the request's.
            includes::reset_budget();
        }
        self.host.analysis()
    }

    /// Whether the file's analysis (with the included texts read so far)
    /// read any included file. Computes the analysis, which every answer
    /// but the formatter's needs anyway.
    fn reads_included_files(&self) -> bool {
        self.host
            .analysis()
            .included_paths(self.file)
            .map_or(true, |paths| !paths.is_empty())
    }

    /// Diagnostics as `puml check --format json` writes them (its
    /// `files[].diagnostics`).
    pub fn check(&mut self, source: &str) -> Result<Vec<Value>, SessionError> {
        let file = self.file;
        let report = answer(self.open(source).check(file))?;
        Ok(report.diagnostics.iter().map(puml_json::diagnostic_json).collect())
    }

    /// [`Session::check`] as JSON text.
    pub fn check_json(&mut self, source: &str) -> Result<String, SessionError> {
        self.check(source).map(|d| Value::Array(d).to_string())
    }

    /// The source as `puml fmt` writes it.
    pub fn format(&mut self, source: &str) -> Result<String, SessionError> {
        let file = self.file;
        answer(self.open(source).format(file, &FormatOptions::default()))
    }

    /// The source repaired by every machine-applicable fix (`puml check
    /// --fix`), with the number of fixes applied.
    pub fn fix(&mut self, source: &str) -> Result<(String, usize), SessionError> {
        let file = self.file;
        let outcome = answer(self.open(source).fix_all(file))?;
        Ok((outcome.source, outcome.applied))
    }

    /// `puml explain --format json` (`null` when there is no diagram).
    pub fn explain_json(&mut self, source: &str) -> Result<String, SessionError> {
        let file = self.file;
        let explanations = answer(self.open(source).explain(file))?;
        Ok(puml_json::explanations_json(source, &explanations).to_string())
    }

    /// Pages over all diagrams of the source (what a page picker offers).
    pub fn page_count(&mut self, source: &str) -> Result<usize, SessionError> {
        let file = self.file;
        answer(self.open(source).page_count(file))
    }

    /// What a live preview shows after each change, from one pass over
    /// `source` (one call from JavaScript, the text copied in once): the
    /// diagnostics, the page count and, when no error refuses it, the SVG of
    /// `page` (1-based, the last page when past the end). The three answers
    /// come from one snapshot of the host, sharing its parse and analysis.
    pub fn preview(
        &mut self,
        source: &str,
        theme: Option<String>,
        page: Option<usize>,
    ) -> Result<Preview, SessionError> {
        let file = self.file;
        let analysis = self.open(source);
        let report = answer(analysis.check(file))?;
        let errors = report
            .diagnostics
            .iter()
            .filter(|d| d.severity.as_str() == "error")
            .count();
        let diagnostics_json =
            Value::Array(report.diagnostics.iter().map(puml_json::diagnostic_json).collect()).to_string();
        let pages = answer(analysis.page_count(file))?.max(1);
        let page = page.unwrap_or(1).clamp(1, pages);
        let svg = if errors > 0 {
            None
        } else {
            let request = RenderRequest {
                theme,
                page: Some(page),
                ..RenderRequest::default()
            };
            Some(render_with(&analysis, file, &request).and_then(|rendered| {
                String::from_utf8(rendered.bytes).map_err(|_| SessionError::new("the SVG is not UTF-8"))
            }))
        };
        Ok(Preview {
            diagnostics_json,
            errors,
            pages,
            page,
            svg,
        })
    }

    /// One page (the first unless the request names one), or why not: the
    /// errors that refuse it, a page out of range, a size limit.
    pub fn render(&mut self, source: &str, request: &RenderRequest) -> Result<Rendered, SessionError> {
        let file = self.file;
        let analysis = self.open(source);
        render_with(&analysis, file, request)
    }

    /// The SVG of one page as text.
    pub fn render_svg(
        &mut self,
        source: &str,
        theme: Option<String>,
        page: Option<usize>,
    ) -> Result<String, SessionError> {
        let request = RenderRequest {
            theme,
            page,
            ..RenderRequest::default()
        };
        let rendered = self.render(source, &request)?;
        String::from_utf8(rendered.bytes).map_err(|_| SessionError::new("the SVG is not UTF-8"))
    }
}

/// One page of `file` in `analysis` as `request` asks.
fn render_with(analysis: &Analysis, file: FileId, request: &RenderRequest) -> Result<Rendered, SessionError> {
    let format = match Format::from_name(&request.format) {
        Some(format @ (Format::Svg | Format::Png | Format::Pdf | Format::Txt | Format::Utxt)) => format,
        _ => {
            return Err(SessionError::new(format!(
                "unknown format `{}` (svg, png, pdf, txt, utxt)",
                request.format
            )))
        }
    };
    if let Some(theme) = &request.theme {
        if !THEME_NAMES.iter().any(|t| t.eq_ignore_ascii_case(theme)) {
            return Err(SessionError::new(format!(
                "unknown theme `{theme}` (known: {})",
                THEME_NAMES.join(", ")
            )));
        }
    }
    let defaults = RenderOptions::default();
    let options = RenderOptions {
        format,
        theme: request.theme.clone(),
        page: Some(request.page.unwrap_or(1).max(1)),
        scale: request.scale.unwrap_or(defaults.scale),
        ..defaults
    };
    let pages = answer(analysis.render(file, &options))?.map_err(render_error)?;
    let page = pages
        .into_iter()
        .next()
        .ok_or_else(|| SessionError::new("no diagram found"))?;
    Ok(Rendered {
        binary: format.is_binary(),
        bytes: page.bytes,
        width: page.width,
        height: page.height,
    })
}

/// The themes a render may name.
pub fn theme_names() -> &'static [&'static str] {
    &THEME_NAMES
}

/// One host, used by one caller at a time: nothing can cancel its queries.
fn answer<T>(result: Cancellable<T>) -> Result<T, SessionError> {
    result.map_err(|cancelled| SessionError::new(cancelled.to_string()))
}

fn render_error(failure: RenderFailure) -> SessionError {
    let diagnostics = match &failure {
        RenderFailure::Diagnostics(diagnostics) => diagnostics.iter().map(puml_json::diagnostic_json).collect(),
        RenderFailure::OtherDiagramKind(diagnostic) => vec![puml_json::diagnostic_json(diagnostic)],
        _ => Vec::new(),
    };
    SessionError {
        message: failure.to_string(),
        diagnostics,
    }
}

/// PlantUML's URL text encoding of `text` (what its server's links carry).
pub fn encode_url(text: &str) -> String {
    puml_compat::encoding::encode_plantuml(text)
}

/// The text behind a PlantUML (or Kroki) URL encoding; at most 4 MiB.
pub fn decode_url(encoded: &str) -> Result<String, SessionError> {
    puml_compat::encoding::decode(encoded, includes::MAX_INCLUDED_BYTES)
        .map(|(text, _)| text)
        .map_err(|e| SessionError::new(e.to_string()))
}
