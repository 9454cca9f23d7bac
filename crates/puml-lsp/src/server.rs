//! The protocol handlers. One `AnalysisHost` holds every open document;
//! a handler changes it under the lock (briefly), takes a snapshot, and
//! computes on a blocking thread, so a newer edit cancels stale work
//! (`ContentModified`) and a panic in a feature becomes an error answer
//! while the server keeps running.

use crate::features;
use crate::text::{apply_rope_change, rope_text, LineTable};
use base64::Engine as _;
use puml_ide::format::FormatOptions;
use puml_ide::lint::LintOptions;
use puml_ide::render::{Format, Region, RenderFailure, RenderOptions};
use puml_ide::{Analysis, AnalysisHost, Cancellable, FileId};
use puml_syntax::{Diagnostic as PumlDiagnostic, Severity, TextEdit as PumlEdit, TextSize};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, ClientSocket, LanguageServer, LspService};

/// The code action kind of "fix all" (a sub-kind of `source.fixAll`).
pub const FIX_ALL_KIND: &str = "source.fixAll.puml";
/// The source action that normalizes the whole file.
pub const NORMALIZE_KIND: &str = "source.normalize.puml";

struct Document {
    file: FileId,
    version: i32,
    /// Where edits land (see `text::apply_rope_change`).
    rope: ropey::Rope,
    /// The rope's text, shared with the host and the snapshots (one copy
    /// of the file per change, whoever reads it).
    text: Arc<str>,
}

struct State {
    host: AnalysisHost,
    documents: HashMap<String, Document>,
    lint: bool,
    theme: Option<String>,
    /// The last semantic tokens sent per document, for deltas (shared: a
    /// delta reads the old ones without copying them).
    tokens: HashMap<String, (String, Arc<Vec<SemanticToken>>)>,
    next_result: u64,
    /// The workspace folders (from `initialize`): where the files that
    /// include an open document are looked for.
    roots: Vec<PathBuf>,
    /// The last search for the files that include a document (its path
    /// and what was found), reused by the next references, prepare-rename
    /// or rename started in the same file (the usual prepare-rename then
    /// rename pair walks the workspace once). Dropped by every change it
    /// may depend on: a document opened, changed or closed, the settings,
    /// watched files.
    includers: Option<(PathBuf, Arc<Mutex<puml_ide::includers::Includers>>)>,
    /// Counts those changes, so that a search that overlapped one is not
    /// kept.
    includers_generation: u64,
}

impl State {
    fn forget_includers(&mut self) {
        self.includers = None;
        self.includers_generation += 1;
    }
}

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    docs_url: Option<String>,
}

/// The service with puml's custom requests.
pub fn service() -> (LspService<Backend>, ClientSocket) {
    LspService::build(Backend::new)
        .custom_method("puml/render", Backend::render)
        .custom_method("puml/model", Backend::model)
        .finish()
}

/// A consistent view of one document.
struct Snapshot {
    analysis: Analysis,
    file: FileId,
    text: Arc<str>,
    version: i32,
}

fn content_modified() -> Error {
    Error {
        code: ErrorCode::ContentModified,
        message: "the document changed; the request was cancelled".into(),
        data: None,
    }
}

fn request_failed(message: impl Into<String>) -> Error {
    Error {
        // LSP's RequestFailed, which the jsonrpc crate does not name.
        code: ErrorCode::ServerError(-32803),
        message: message.into().into(),
        data: None,
    }
}

fn unknown_document(uri: &Uri) -> Error {
    Error::invalid_params(format!("the document {} is not open", uri.as_str()))
}

/// Runs analysis work off the async threads. Cancellation becomes
/// `ContentModified`; a panic becomes an internal error, never a crash.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Cancellable<T> + Send + 'static) -> Result<T> {
    let task = tokio::task::spawn_blocking(move || std::panic::catch_unwind(AssertUnwindSafe(work)));
    match task.await {
        Ok(Ok(Ok(value))) => Ok(value),
        Ok(Ok(Err(_cancelled))) => Err(content_modified()),
        Ok(Err(_)) | Err(_) => Err(Error {
            code: ErrorCode::InternalError,
            message: "puml-lsp failed on this request (a bug: the server keeps running)".into(),
            data: None,
        }),
    }
}

fn key(uri: &Uri) -> String {
    uri.as_str().to_string()
}

/// Where `docs/diagnostics.md` is, for `codeDescription` links: next to an
/// installed binary (`share/puml/`) or in the source tree it was built in.
fn find_docs() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let candidates = [
        dir.join("../share/puml/diagnostics.md"),
        dir.join("docs/diagnostics.md"),
        dir.join("../../docs/diagnostics.md"),
    ];
    let found = candidates.iter().find(|p| p.is_file())?;
    let path = found.canonicalize().ok()?;
    Uri::from_file_path(path).map(|u| u.as_str().to_string())
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Arc::new(Mutex::new(State {
                host: AnalysisHost::new(),
                documents: HashMap::new(),
                lint: true,
                theme: None,
                tokens: HashMap::new(),
                next_result: 0,
                roots: Vec::new(),
                includers: None,
                includers_generation: 0,
            })),
            docs_url: find_docs(),
        }
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, State>> {
        self.state.lock().map_err(|_| Error::internal_error())
    }

    fn snapshot(&self, uri: &Uri) -> Result<Snapshot> {
        let state = self.lock()?;
        let document = state.documents.get(&key(uri)).ok_or_else(|| unknown_document(uri))?;
        Ok(Snapshot {
            analysis: state.host.analysis(),
            file: document.file,
            text: document.text.clone(),
            version: document.version,
        })
    }

    fn current_version(&self, uri: &Uri) -> Option<i32> {
        self.state.lock().ok()?.documents.get(&key(uri)).map(|d| d.version)
    }

    fn apply_settings(&self, value: &Value) {
        let settings = value.get("puml").unwrap_or(value);
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        if let Some(lint) = settings.get("lint").and_then(Value::as_bool) {
            state.lint = lint;
        }
        if let Some(theme) = settings.get("theme").and_then(Value::as_str) {
            state.theme = (!theme.is_empty()).then(|| theme.to_string());
        }
        let mut config = state.host.config().clone();
        if let Some(roots) = settings.get("includeRoots").and_then(Value::as_array) {
            config.include_root = roots.iter().filter_map(Value::as_str).next().map(PathBuf::from);
        }
        config.theme = state.theme.clone();
        state.host.set_config(config);
        state.forget_includers();
    }

    /// Recomputes and publishes the diagnostics of `uri`, unless a newer
    /// version arrived meanwhile.
    async fn publish(&self, uri: Uri) {
        let Ok(snapshot) = self.snapshot(&uri) else {
            return;
        };
        let lint = self.state.lock().map(|s| s.lint).unwrap_or(true);
        let version = snapshot.version;
        let docs = self.docs_url.clone();
        let target = uri.clone();
        let work = move || {
            let mut found = snapshot.analysis.diagnostics(snapshot.file)?;
            if lint {
                found.extend(snapshot.analysis.lint(snapshot.file, &LintOptions::default())?);
            }
            if found.is_empty() {
                return Ok(Vec::new());
            }
            let table = LineTable::new(&snapshot.text);
            Ok(found
                .iter()
                .map(|d| to_lsp_diagnostic(&table, &snapshot.text, &target, docs.as_deref(), d))
                .collect::<Vec<_>>())
        };
        let result = blocking(work).await;
        match result {
            Ok(diagnostics) if self.current_version(&uri) == Some(version) => {
                self.client.publish_diagnostics(uri, diagnostics, Some(version)).await;
            }
            Ok(_) | Err(_) => {}
        }
        // The parse and analysis this edit replaced are freed here, after
        // publishing and on another thread: freeing a 5,000-line model
        // costs a tenth of a label edit, none of it needed for the answer.
        if let Ok(state) = self.state.lock() {
            let garbage = state.host.take_garbage();
            drop(state);
            drop(tokio::task::spawn_blocking(move || drop(garbage)));
        }
    }

    /// `puml/render`: the current document rendered for a preview. With a
    /// `region` (diagram coordinates, SVG only) just that part of the page
    /// is drawn, the answer's `width`/`height` still being the whole page's
    /// and `region` the part drawn (clamped to the page); without one the
    /// answer is the whole page.
    pub async fn render(&self, params: RenderParams) -> Result<Value> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        let format = match params.format.as_deref().unwrap_or("svg") {
            "svg" => Format::Svg,
            "png" => Format::Png,
            "pdf" => Format::Pdf,
            other => {
                return Err(Error::invalid_params(format!(
                    "unknown format `{other}` (svg, png or pdf)"
                )))
            }
        };
        if params.region.is_some() && format != Format::Svg {
            return Err(Error::invalid_params("a region is drawn as SVG only"));
        }
        let page = params.page.unwrap_or(0);
        let theme = params.theme.clone().filter(|t| !t.is_empty());
        let region = params.region.map(|r| Region {
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
        });
        let version = snapshot.version;
        let rendered = blocking(move || {
            let pages = snapshot.analysis.page_count(snapshot.file)?;
            let report = snapshot.analysis.check(snapshot.file)?;
            let options = RenderOptions {
                format,
                theme,
                page: Some(page.saturating_add(1)),
                ..RenderOptions::default()
            };
            let result = match region {
                None => snapshot.analysis.render(snapshot.file, &options)?.map(Drawn::Pages),
                Some(region) => snapshot
                    .analysis
                    .render_region(snapshot.file, &options, region)?
                    .map(Drawn::Region),
            };
            Ok((pages, report.summary, result))
        })
        .await?;
        if self.current_version(&params.text_document.uri) != Some(version) {
            return Err(content_modified());
        }
        let (page_count, summary, result) = rendered;
        let drawn = match result {
            Ok(drawn) => drawn,
            Err(RenderFailure::Diagnostics(diagnostics)) => {
                let first = diagnostics
                    .iter()
                    .find(|d| d.severity == Severity::Error)
                    .map(|d| format!("line {}: {}", d.range.line, d.message))
                    .unwrap_or_else(|| "the diagram has errors".to_string());
                return Err(request_failed(first));
            }
            Err(RenderFailure::BadRegion(why)) => return Err(Error::invalid_params(format!("region: {why}"))),
            Err(other) => return Err(request_failed(other.to_string())),
        };
        let page = match drawn {
            Drawn::Region(drawn) => {
                return Ok(json!({
                    "version": version,
                    "format": format.name(),
                    "page": params.page.unwrap_or(0),
                    "pageCount": page_count,
                    "width": drawn.page_width,
                    "height": drawn.page_height,
                    "region": {
                        "x": drawn.region.x,
                        "y": drawn.region.y,
                        "width": drawn.region.width,
                        "height": drawn.region.height,
                    },
                    "data": drawn.svg,
                    "errors": summary.errors,
                    "warnings": summary.warnings,
                }))
            }
            Drawn::Pages(pages) => match pages.into_iter().next() {
                Some(page) => page,
                None => return Err(request_failed("nothing to render")),
            },
        };
        let data = if format == Format::Svg {
            String::from_utf8_lossy(&page.bytes).into_owned()
        } else {
            base64::engine::general_purpose::STANDARD.encode(&page.bytes)
        };
        Ok(json!({
            "version": version,
            "format": format.name(),
            "page": params.page.unwrap_or(0),
            "pageCount": page_count,
            "width": page.width,
            "height": page.height,
            "data": data,
            "errors": summary.errors,
            "warnings": summary.warnings,
        }))
    }

    /// `puml/model`: the semantic model as JSON.
    pub async fn model(&self, params: ModelParams) -> Result<Value> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        let document = blocking(move || snapshot.analysis.document(snapshot.file)).await?;
        serde_json::to_value(&document).map_err(|e| request_failed(e.to_string()))
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderParams {
    pub text_document: TextDocumentIdentifier,
    pub format: Option<String>,
    pub page: Option<usize>,
    pub theme: Option<String>,
    /// Draw only this part of the page (diagram coordinates, SVG only).
    pub region: Option<RegionParams>,
}

/// A rectangle of the page, in the diagram's own pixels.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct RegionParams {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// What `puml/render` drew: whole pages, or one page's region.
enum Drawn {
    Pages(Vec<puml_ide::render::RenderedPage>),
    Region(puml_ide::render::RenderedRegion),
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelParams {
    pub text_document: TextDocumentIdentifier,
}

fn to_lsp_diagnostic(
    table: &LineTable<'_>,
    text: &str,
    uri: &Uri,
    docs: Option<&str>,
    d: &PumlDiagnostic,
) -> Diagnostic {
    // A diagnostic inside an included file is shown on the `!include`
    // line that brought it in, its message naming the file.
    let (range, message) = match &d.file {
        None => (table.range(d.range), d.message.clone()),
        Some(file) => {
            let name = std::path::Path::new(file)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| file.clone());
            let at = text
                .match_indices("!include")
                .find(|(at, _)| text[*at..].lines().next().is_some_and(|l| l.contains(&name)))
                .map_or(0, |(at, _)| at);
            let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
            (
                Range::new(table.position(at), table.position(end)),
                format!("{file}: {}", d.message),
            )
        }
    };
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter(|r| r.file.is_none())
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), table.range(r.range)),
            message: r.message.clone(),
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            _ => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: docs.and_then(|base| {
            format!("{base}#{}", d.code.to_ascii_lowercase())
                .parse::<Uri>()
                .ok()
                .map(|href| CodeDescription { href })
        }),
        source: Some("puml".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The engines' edits as the editor gets them: narrowed to the spans that
/// change (a rename is one edit per occurrence covering the name alone),
/// in UTF-16 positions.
fn to_lsp_edits(table: &LineTable<'_>, edits: &[PumlEdit]) -> Vec<TextEdit> {
    puml_ide::diff::refine(table.text(), edits)
        .iter()
        .map(|e| TextEdit::new(table.range(e.range), e.new_text.clone()))
        .collect()
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

/// Refactors offered for a selection: declare the implicit participants,
/// wrap the selected statements in a group, convert a Mermaid selection,
/// and normalize the whole file.
fn refactors(
    snapshot: &Snapshot,
    table: &LineTable<'_>,
    uri: &Uri,
    range: Range,
    rewrites: bool,
    normalize: bool,
) -> Cancellable<Vec<CodeActionOrCommand>> {
    use puml_ide::normalize::NormalizeOptions;
    let mut actions = Vec::new();
    let action = |title: String, kind: CodeActionKind, edits: Vec<PumlEdit>| {
        CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(kind),
            edit: Some(workspace_edit(uri, to_lsp_edits(table, &edits))),
            ..CodeAction::default()
        })
    };
    if normalize {
        let normalized = snapshot
            .analysis
            .normalize(snapshot.file, &NormalizeOptions::default())?;
        if *normalized.source != *snapshot.text {
            actions.push(action(
                "Normalize the file (declare participants, format)".to_string(),
                CodeActionKind::from(NORMALIZE_KIND.to_string()),
                normalized.edits,
            ));
        }
    }
    if !rewrites {
        return Ok(actions);
    }
    let declare = NormalizeOptions {
        add_explicit_participants: true,
        format: false,
        ..NormalizeOptions::default()
    };
    let declared = snapshot.analysis.normalize(snapshot.file, &declare)?;
    if !declared.declared.is_empty() {
        actions.push(action(
            format!("Declare {} implicit participant(s)", declared.declared.len()),
            CodeActionKind::REFACTOR_REWRITE,
            declared.edits,
        ));
    }
    let selection = table.text_range(range);
    let selected = &snapshot.text[selection];
    if selected.contains("sequenceDiagram") {
        if let Ok(conversion) = puml_ide::mermaid::convert(selected) {
            actions.push(action(
                "Convert the Mermaid diagram to PlantUML".to_string(),
                CodeActionKind::REFACTOR_REWRITE,
                vec![PumlEdit {
                    range: selection,
                    new_text: conversion.source,
                }],
            ));
        }
    } else if !selected.trim().is_empty() {
        let last_line = if range.end.character == 0 && range.end.line > range.start.line {
            range.end.line
        } else {
            range.end.line + 1
        };
        let wrap = puml_ide::edit::Edit::WrapGroup {
            kind: puml_sema::model::GroupKind::Group,
            label: "group".to_string(),
            start_line: range.start.line + 1,
            end_line: last_line,
            else_at: Vec::new(),
        };
        if let Ok(wrapped) = snapshot.analysis.apply_edit(snapshot.file, &wrap)? {
            actions.push(action(
                "Wrap the selected statements in a group".to_string(),
                CodeActionKind::REFACTOR_REWRITE,
                wrapped.edits,
            ));
        }
    }
    Ok(actions)
}

fn overlaps(a: Range, b: Range) -> bool {
    let before = |x: Position, y: Position| (x.line, x.character) < (y.line, y.character);
    !(before(a.end, b.start) || before(b.end, a.start))
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        if let Some(options) = &params.initialization_options {
            self.apply_settings(options);
        }
        #[allow(deprecated)] // `rootUri`: older clients send only it
        let mut roots: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|folder| folder.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        #[allow(deprecated)]
        if roots.is_empty() {
            roots.extend(
                params
                    .root_uri
                    .as_ref()
                    .and_then(|u| u.to_file_path().map(|p| p.into_owned())),
            );
        }
        if let Ok(mut state) = self.state.lock() {
            state.roots = roots;
        }
        let utf16 = PositionEncodingKind::UTF16;
        Ok(InitializeResult {
            server_info: Some(ServerInfo {
                name: "puml-lsp".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            capabilities: ServerCapabilities {
                position_encoding: Some(utf16),
                text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
                code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                    code_action_kinds: Some(vec![
                        CodeActionKind::QUICKFIX,
                        CodeActionKind::REFACTOR_REWRITE,
                        CodeActionKind::from(NORMALIZE_KIND.to_string()),
                        CodeActionKind::SOURCE_FIX_ALL,
                        CodeActionKind::from(FIX_ALL_KIND.to_string()),
                    ]),
                    ..CodeActionOptions::default()
                })),
                document_formatting_provider: Some(OneOf::Left(true)),
                document_range_formatting_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![">".to_string(), " ".to_string(), "$".to_string()]),
                    ..CompletionOptions::default()
                }),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_highlight_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                })),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                    SemanticTokensOptions {
                        legend: features::semantic_legend(),
                        full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                        range: None,
                        work_done_progress_options: WorkDoneProgressOptions::default(),
                    },
                )),
                document_link_provider: Some(DocumentLinkOptions {
                    resolve_provider: Some(false),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }),
                selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
                inlay_hint_provider: Some(OneOf::Left(true)),
                document_on_type_formatting_provider: Some(DocumentOnTypeFormattingOptions {
                    first_trigger_character: "\n".to_string(),
                    more_trigger_character: Some(vec!["d".to_string()]),
                }),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                signature_help_provider: Some(SignatureHelpOptions {
                    trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
                    retrigger_characters: None,
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }),
                ..ServerCapabilities::default()
            },
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.client
            .log_message(
                MessageType::INFO,
                format!("puml-lsp {} ready", env!("CARGO_PKG_VERSION")),
            )
            .await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.apply_settings(&params.settings);
        let uris: Vec<Uri> = match self.state.lock() {
            Ok(state) => state.documents.keys().filter_map(|k| k.parse().ok()).collect(),
            Err(_) => return,
        };
        for uri in uris {
            self.publish(uri).await;
        }
    }

    /// Files changed on disk (for clients that watch them): the files
    /// open documents include are read again, and the last search for
    /// includers is dropped (a diagram on disk may have started or stopped
    /// including a file).
    async fn did_change_watched_files(&self, _: DidChangeWatchedFilesParams) {
        let uris: Vec<Uri> = match self.state.lock() {
            Ok(mut state) => {
                state.forget_includers();
                state.host.refresh_included_files();
                state.documents.keys().filter_map(|k| k.parse().ok()).collect()
            }
            Err(_) => return,
        };
        for uri in uris {
            self.publish(uri).await;
        }
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        {
            let Ok(mut state) = self.state.lock() else {
                return;
            };
            state.forget_includers();
            let path = document.uri.to_file_path().map(|p| p.into_owned());
            let text: Arc<str> = Arc::from(document.text);
            let file = match state.documents.get(&key(&document.uri)) {
                Some(open) => {
                    let file = open.file;
                    state.host.set_file_text(file, text.clone());
                    file
                }
                None => state.host.add_file(path, text.clone()),
            };
            state.documents.insert(
                key(&document.uri),
                Document {
                    file,
                    version: document.version,
                    rope: ropey::Rope::from_str(&text),
                    text,
                },
            );
        }
        self.publish(document.uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let Ok(mut state) = self.state.lock() else {
                return;
            };
            state.forget_includers();
            let State { host, documents, .. } = &mut *state;
            let Some(document) = documents.get_mut(&key(&uri)) else {
                return;
            };
            for change in &params.content_changes {
                apply_rope_change(&mut document.rope, change.range, &change.text);
            }
            document.text = rope_text(&document.rope);
            document.version = params.text_document.version;
            host.set_file_text(document.file, document.text.clone());
        }
        self.publish(uri).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        if let Ok(mut state) = self.state.lock() {
            state.forget_includers();
            state.tokens.remove(&key(&uri));
            if let Some(document) = state.documents.remove(&key(&uri)) {
                state.host.remove_file(document.file);
            }
        }
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        let snapshot = self.snapshot(&uri)?;
        let docs = self.docs_url.clone();
        let wanted = |kind: &CodeActionKind| match &params.context.only {
            None => true,
            Some(only) => only
                .iter()
                .any(|o| kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str()))),
        };
        let want_quick_fixes = wanted(&CodeActionKind::QUICKFIX);
        let want_refactors = wanted(&CodeActionKind::REFACTOR_REWRITE);
        let want_normalize = wanted(&CodeActionKind::from(NORMALIZE_KIND.to_string()));
        let want_fix_all = wanted(&CodeActionKind::from(FIX_ALL_KIND.to_string()));
        let range = params.range;
        let target = uri.clone();
        let actions = blocking(move || {
            let table = LineTable::new(&snapshot.text);
            let mut actions = Vec::new();
            if want_quick_fixes {
                for d in snapshot.analysis.diagnostics(snapshot.file)? {
                    if d.file.is_some() || d.fixes.is_empty() || !overlaps(table.range(d.range), range) {
                        continue;
                    }
                    let lsp = to_lsp_diagnostic(&table, &snapshot.text, &target, docs.as_deref(), &d);
                    for (index, fix) in d.fixes.iter().enumerate() {
                        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                            title: fix.title.clone(),
                            kind: Some(CodeActionKind::QUICKFIX),
                            diagnostics: Some(vec![lsp.clone()]),
                            edit: Some(workspace_edit(&target, to_lsp_edits(&table, &fix.edits))),
                            is_preferred: Some(index == 0 && fix.machine_applicable),
                            ..CodeAction::default()
                        }));
                    }
                }
            }
            if want_refactors || want_normalize {
                actions.extend(refactors(
                    &snapshot,
                    &table,
                    &target,
                    range,
                    want_refactors,
                    want_normalize,
                )?);
            }
            if want_fix_all {
                let outcome = snapshot.analysis.fix_all(snapshot.file)?;
                if outcome.applied > 0 && *outcome.source != *snapshot.text {
                    let edits = puml_ide::diff::minimal_edits(&snapshot.text, &outcome.source);
                    actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title: format!("Fix all auto-fixable problems ({} fix(es))", outcome.applied),
                        kind: Some(CodeActionKind::from(FIX_ALL_KIND.to_string())),
                        edit: Some(workspace_edit(&target, to_lsp_edits(&table, &edits))),
                        ..CodeAction::default()
                    }));
                }
            }
            Ok(actions)
        })
        .await?;
        Ok(Some(actions))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        let options = FormatOptions {
            indent_width: params.options.tab_size.clamp(1, 16) as usize,
        };
        let edits = blocking(move || {
            let formatted = snapshot.analysis.format(snapshot.file, &options)?;
            let table = LineTable::new(&snapshot.text);
            let edits = puml_ide::diff::minimal_edits(&snapshot.text, &formatted);
            Ok(to_lsp_edits(&table, &edits))
        })
        .await?;
        Ok(Some(edits))
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        let options = FormatOptions {
            indent_width: params.options.tab_size.clamp(1, 16) as usize,
        };
        let (first, last) = (params.range.start.line, params.range.end.line);
        let edits = blocking(move || {
            let edits = snapshot.analysis.format_range(snapshot.file, first, last, &options)?;
            let table = LineTable::new(&snapshot.text);
            Ok(to_lsp_edits(&table, &edits))
        })
        .await?;
        Ok(Some(edits))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        let symbols = blocking(move || {
            let explanations = snapshot.analysis.explain(snapshot.file)?;
            let outlines = snapshot.analysis.activity_outlines(snapshot.file)?;
            let classes = snapshot.analysis.class_structures(snapshot.file)?;
            Ok(features::document_symbols(
                &snapshot.text,
                &explanations,
                &outlines,
                &classes,
            ))
        })
        .await?;
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        blocking(move || {
            let outlines = snapshot.analysis.activity_outlines(snapshot.file)?;
            let classes = snapshot.analysis.class_structures(snapshot.file)?;
            Ok(Some(features::folding_ranges(&snapshot.text, &outlines, &classes)))
        })
        .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        if let Some((element, text)) = self
            .class_element_at(&position.text_document.uri, position.position)
            .await?
        {
            let table = LineTable::new(&text);
            let offset = puml_syntax::TextSize::from(table.offset(position.position) as u32);
            let range = element.uses.iter().find(|r| r.contains_inclusive(offset)).copied();
            return Ok(Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: features::class_hover(&element),
                }),
                range: range.map(|r| table.range(r)),
            }));
        }
        let snapshot = self.snapshot(&position.text_document.uri)?;
        blocking(move || {
            let participants = snapshot.analysis.participants(snapshot.file)?;
            let outlines = snapshot.analysis.activity_outlines(snapshot.file)?;
            let table = LineTable::new(&snapshot.text);
            let offset = table.offset(position.position);
            Ok(
                features::hover(&snapshot.text, offset, &participants, &outlines).map(|(markdown, start, end)| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: markdown,
                    }),
                    range: Some(Range::new(table.position(start), table.position(end))),
                }),
            )
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let position = params.text_document_position;
        let snapshot = self.snapshot(&position.text_document.uri)?;
        blocking(move || {
            let offset = LineTable::new(&snapshot.text).offset(position.position);
            let classes = snapshot
                .analysis
                .completion_outlines(snapshot.file, TextSize::from(offset as u32))?;
            if let Some(items) = features::class_completions(&snapshot.text, offset, &classes) {
                return Ok(Some(CompletionResponse::Array(items)));
            }
            let participants = snapshot.analysis.participants(snapshot.file)?;
            let outlines = snapshot.analysis.activity_outlines(snapshot.file)?;
            let items = features::completions(&snapshot.text, offset, &participants, &outlines);
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let position = params.text_document_position_params;
        let uri = position.text_document.uri.clone();
        if let Some((symbol, text)) = self.preprocessor_symbol_at(&uri, position.position).await? {
            // Defined in an included file: the definition there.
            if let Some(path) = symbol.definition_file.clone() {
                let found = self.included_locations(&uri, vec![(path, symbol.definition)]).await?;
                return Ok(found.into_iter().next().map(GotoDefinitionResponse::Scalar));
            }
            let range = LineTable::new(&text).range(symbol.definition);
            return Ok(Some(GotoDefinitionResponse::Scalar(Location::new(uri, range))));
        }
        if let Some(found) = self.include_definition(&uri, position.position)? {
            return Ok(Some(GotoDefinitionResponse::Scalar(found)));
        }
        if let Some((element, text)) = self.class_element_at(&uri, position.position).await? {
            let range = LineTable::new(&text).range(element.declaration);
            return Ok(Some(GotoDefinitionResponse::Scalar(Location::new(uri, range))));
        }
        let Some((participant, table_text)) = self.participant_at(&uri, position.position).await? else {
            return Ok(None);
        };
        // Declared in an included file: the declaration there.
        if let Some(declared) = participant.included_declaration.clone() {
            if let Some(found) = self.included_locations(&uri, vec![declared]).await?.pop() {
                return Ok(Some(GotoDefinitionResponse::Scalar(found)));
            }
        }
        let table = LineTable::new(&table_text);
        let range = table.range(participant.declaration);
        Ok(Some(GotoDefinitionResponse::Scalar(Location::new(uri, range))))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let position = params.text_document_position;
        let uri = position.text_document.uri.clone();
        if let Some((symbol, text)) = self.preprocessor_symbol_at(&uri, position.position).await? {
            let table = LineTable::new(&text);
            let is_definition = |file: Option<&PathBuf>, range: &puml_syntax::TextRange| {
                file == symbol.definition_file.as_ref() && *range == symbol.definition
            };
            let keep = |file: Option<&PathBuf>, range: &puml_syntax::TextRange| {
                params.context.include_declaration || !is_definition(file, range)
            };
            let mut locations: Vec<Location> = symbol
                .uses
                .iter()
                .filter(|r| keep(None, r))
                .map(|r| Location::new(uri.clone(), table.range(*r)))
                .collect();
            let elsewhere: Vec<(PathBuf, puml_syntax::TextRange)> = symbol
                .included_uses
                .iter()
                .filter(|(file, r)| keep(Some(file), r))
                .cloned()
                .collect();
            locations.extend(self.included_locations(&uri, elsewhere).await?);
            // Inside a file others include: the name as they read it, in
            // them and in everything they include.
            if let Some((name, _, found)) = self.preprocessor_in_includers(&uri, position.position).await? {
                let definition_here = (symbol.definition_file.is_none())
                    .then(|| Location::new(uri.clone(), table.range(symbol.definition)));
                let mut seen: std::collections::HashSet<Location> = locations.iter().cloned().collect();
                for location in found {
                    let hidden = !params.context.include_declaration && Some(&location) == definition_here.as_ref();
                    if name == symbol.name && !hidden && seen.insert(location.clone()) {
                        locations.push(location);
                    }
                }
            }
            return Ok(Some(locations));
        }
        if let Some((element, text)) = self.class_element_at(&uri, position.position).await? {
            let table = LineTable::new(&text);
            let locations = element
                .uses
                .iter()
                .filter(|r| params.context.include_declaration || **r != element.declaration)
                .map(|r| Location::new(uri.clone(), table.range(*r)))
                .collect();
            return Ok(Some(locations));
        }
        let local = self.participant_at(&uri, position.position).await?;
        let mut locations: Vec<Location> = Vec::new();
        if let Some((participant, text)) = &local {
            let table = LineTable::new(text);
            locations.extend(
                participant
                    .uses
                    .iter()
                    .map(|r| Location::new(uri.clone(), table.range(*r))),
            );
            locations.extend(self.included_locations(&uri, participant.included_uses.clone()).await?);
        }
        // Inside a file others include: the participant as they read it,
        // in them and in everything they include.
        let here = uri.clone();
        let elsewhere = self
            .with_includers(&uri, position.position, move |includers, offset, text| {
                let mut found = includers.participant_references(offset);
                if found.is_empty() {
                    // A `$variable` or procedure this file uses but only
                    // its includers define.
                    found = includers
                        .preprocessor_references(offset)
                        .map(|p| p.occurrences)
                        .unwrap_or_default();
                }
                Backend::includer_locations(&here, text, includers, &found)
            })
            .await?
            .unwrap_or_default();
        let mut seen: std::collections::HashSet<Location> = locations.iter().cloned().collect();
        for location in elsewhere {
            if seen.insert(location.clone()) {
                locations.push(location);
            }
        }
        if local.is_none() && locations.is_empty() {
            return Ok(None);
        }
        Ok(Some(locations))
    }

    async fn document_highlight(&self, params: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        let position = params.text_document_position_params;
        if let Some((symbol, text)) = self
            .preprocessor_symbol_at(&position.text_document.uri, position.position)
            .await?
        {
            let table = LineTable::new(&text);
            return Ok(Some(
                symbol
                    .uses
                    .iter()
                    .map(|r| DocumentHighlight {
                        range: table.range(*r),
                        kind: Some(if symbol.definition_file.is_none() && *r == symbol.definition {
                            DocumentHighlightKind::WRITE
                        } else {
                            DocumentHighlightKind::READ
                        }),
                    })
                    .collect(),
            ));
        }
        if let Some((element, text)) = self
            .class_element_at(&position.text_document.uri, position.position)
            .await?
        {
            let table = LineTable::new(&text);
            return Ok(Some(
                element
                    .uses
                    .iter()
                    .map(|r| DocumentHighlight {
                        range: table.range(*r),
                        kind: Some(if *r == element.declaration {
                            DocumentHighlightKind::WRITE
                        } else {
                            DocumentHighlightKind::READ
                        }),
                    })
                    .collect(),
            ));
        }
        let Some((participant, text)) = self
            .participant_at(&position.text_document.uri, position.position)
            .await?
        else {
            return Ok(None);
        };
        let table = LineTable::new(&text);
        Ok(Some(
            participant
                .uses
                .iter()
                .map(|r| DocumentHighlight {
                    range: table.range(*r),
                    kind: Some(DocumentHighlightKind::TEXT),
                })
                .collect(),
        ))
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        if let Some((symbol, text)) = self
            .preprocessor_symbol_at(&params.text_document.uri, params.position)
            .await?
        {
            let table = LineTable::new(&text);
            let offset = puml_syntax::TextSize::from(table.offset(params.position) as u32);
            return Ok(symbol
                .occurs_at(offset)
                .map(|range| PrepareRenameResponse::RangeWithPlaceholder {
                    range: table.range(range),
                    placeholder: symbol.name.clone(),
                }));
        }
        if let Some((element, text)) = self
            .class_element_at(&params.text_document.uri, params.position)
            .await?
        {
            let table = LineTable::new(&text);
            let offset = puml_syntax::TextSize::from(table.offset(params.position) as u32);
            let found = element.uses.iter().find(|r| r.contains_inclusive(offset));
            return Ok(found.map(|range| PrepareRenameResponse::RangeWithPlaceholder {
                range: table.range(*range),
                placeholder: text[*range].trim_matches('"').to_string(),
            }));
        }
        let Some((participant, text)) = self.participant_at(&params.text_document.uri, params.position).await? else {
            // Inside a file others include: the name they read there.
            let uri = params.text_document.uri.clone();
            let found = self
                .with_includers(&uri, params.position, |includers, offset, text| {
                    let table = LineTable::new(text);
                    let Some((_, range)) = includers.participant_name_at(offset) else {
                        // A `$variable` or procedure its includers define.
                        let found = includers.preprocessor_references(offset)?;
                        return Some(PrepareRenameResponse::RangeWithPlaceholder {
                            range: table.range(found.range),
                            placeholder: found.name,
                        });
                    };
                    Some(PrepareRenameResponse::RangeWithPlaceholder {
                        range: table.range(range),
                        placeholder: text
                            .get(range.start().into()..range.end().into())?
                            .trim_matches('"')
                            .to_string(),
                    })
                })
                .await?;
            return Ok(found.flatten());
        };
        let table = LineTable::new(&text);
        let offset = table.offset(params.position);
        let Some(range) = participant
            .uses
            .iter()
            .find(|r| usize::from(r.start()) <= offset && offset <= usize::from(r.end()))
        else {
            return Ok(None);
        };
        Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
            range: table.range(*range),
            placeholder: text[*range].to_string(),
        }))
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let position = params.text_document_position;
        let uri = position.text_document.uri.clone();
        if let Some((symbol, text)) = self.preprocessor_symbol_at(&uri, position.position).await? {
            let new_name = preprocessor_new_name(&params.new_name)?;
            let table = LineTable::new(&text);
            let edits = symbol
                .uses
                .iter()
                .map(|r| TextEdit::new(table.range(*r), new_name.clone()))
                .collect();
            let mut edit = workspace_edit(&uri, edits);
            // The included files that define or use the name, each with its edits.
            let changes = edit.changes.get_or_insert_with(HashMap::new);
            for location in self.included_locations(&uri, symbol.included_uses.clone()).await? {
                changes
                    .entry(location.uri)
                    .or_default()
                    .push(TextEdit::new(location.range, new_name.clone()));
            }
            // Inside a file others include (a library of procedures and
            // variables): the name in them and everything they include.
            if let Some((name, _, found)) = self.preprocessor_in_includers(&uri, position.position).await? {
                if name == symbol.name {
                    for (target, edits) in Backend::renamed_at(found, &new_name) {
                        // The includers' edits win for every file they
                        // reach (they read each of those files whole).
                        changes.insert(target, edits);
                    }
                }
            }
            return Ok(Some(edit));
        }
        if let Some((element, text)) = self.class_element_at(&uri, position.position).await? {
            let edits = puml_ide::class_symbols::rename_class_edits(&text, &element, &params.new_name)
                .map_err(|error| Error::invalid_params(error.0))?;
            let table = LineTable::new(&text);
            return Ok(Some(workspace_edit(&uri, to_lsp_edits(&table, &edits))));
        }
        // Inside a file others include: the rename as each of them reads
        // it, in them and in everything they include (this file too).
        let here = uri.clone();
        let to = params.new_name.clone();
        let elsewhere = self
            .with_includers(&uri, position.position, move |includers, offset, text| {
                let renamed = includers.rename_participant(offset, &to)?;
                Some(renamed.map(|files| {
                    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
                    for (path, edits) in files {
                        // Narrowed against the text the includers read.
                        let edits = match includers.text(&path) {
                            Some(source) => puml_ide::diff::refine(&source, &edits),
                            None => edits,
                        };
                        let ranges: Vec<(PathBuf, puml_syntax::TextRange)> =
                            edits.iter().map(|e| (path.clone(), e.range)).collect();
                        let locations = Backend::includer_location_each(&here, text, includers, &ranges);
                        for (location, edit) in locations.into_iter().zip(&edits) {
                            let Some(location) = location else {
                                continue;
                            };
                            changes
                                .entry(location.uri)
                                .or_default()
                                .push(TextEdit::new(location.range, edit.new_text.clone()));
                        }
                    }
                    changes
                }))
            })
            .await?
            .flatten();
        let elsewhere = match elsewhere {
            Some(Ok(changes)) => Some(changes),
            Some(Err(error)) => return Err(Error::invalid_params(format!("cannot rename: {error:?}"))),
            None => None,
        };
        let Some((participant, _)) = self.participant_at(&uri, position.position).await? else {
            return match elsewhere {
                Some(changes) => Ok(Some(WorkspaceEdit {
                    changes: Some(changes),
                    ..WorkspaceEdit::default()
                })),
                None => match self.preprocessor_in_includers(&uri, position.position).await? {
                    // A `$variable` or procedure this file uses but only
                    // its includers define.
                    Some((_, _, found)) => {
                        let new_name = preprocessor_new_name(&params.new_name)?;
                        Ok(Some(WorkspaceEdit {
                            changes: Some(Backend::renamed_at(found, &new_name)),
                            ..WorkspaceEdit::default()
                        }))
                    }
                    None => Err(Error::invalid_params("there is no participant to rename here")),
                },
            };
        };
        let snapshot = self.snapshot(&uri)?;
        let (from, to) = (participant.code.clone(), params.new_name.clone());
        let result = blocking(move || {
            let result = snapshot.analysis.rename_participant(snapshot.file, &from, &to)?;
            let mut texts = Vec::new();
            if let Ok(rename) = &result {
                for (path, _) in &rename.included {
                    texts.push(snapshot.analysis.included_text(snapshot.file, path)?);
                }
            }
            Ok((result, snapshot.text, texts))
        })
        .await?;
        match result {
            (Ok(rename), text, included_texts) => {
                let table = LineTable::new(&text);
                let mut edit = workspace_edit(&uri, to_lsp_edits(&table, &rename.edits));
                // The included files that declare or use the participant
                // are renamed too, each with its own edits.
                let changes = edit.changes.get_or_insert_with(HashMap::new);
                for ((path, edits), text) in rename.included.iter().zip(included_texts) {
                    let (Some(text), Some(target)) = (text, Uri::from_file_path(path)) else {
                        continue;
                    };
                    changes.insert(target, to_lsp_edits(&LineTable::new(&text), edits));
                }
                // The includers' edits win for every file they reach (this
                // one included): they read each of those files whole, and
                // two sets of edits over one file could overlap.
                for (target, edits) in elsewhere.into_iter().flatten() {
                    changes.insert(target, edits);
                }
                Ok(Some(edit))
            }
            (Err(error), _, _) => Err(Error::invalid_params(format!("cannot rename: {error:?}"))),
        }
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        let tokens = self.semantic_tokens(&uri).await?;
        let id = self.remember_tokens(&uri, Arc::new(tokens.clone()));
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: Some(id),
            data: tokens,
        })))
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri;
        let tokens = Arc::new(self.semantic_tokens(&uri).await?);
        let previous = self
            .lock()?
            .tokens
            .get(&key(&uri))
            .filter(|(id, _)| *id == params.previous_result_id)
            .map(|(_, data)| data.clone());
        let id = self.remember_tokens(&uri, tokens.clone());
        Ok(Some(match previous {
            Some(old) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                result_id: Some(id),
                edits: features::token_delta(&old, &tokens).into_iter().collect(),
            }),
            None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
                result_id: Some(id),
                data: Arc::unwrap_or_clone(tokens),
            }),
        }))
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        let uri = params.text_document.uri;
        let snapshot = self.snapshot(&uri)?;
        let base = uri.to_file_path().and_then(|p| p.parent().map(|d| d.to_path_buf()));
        let table = LineTable::new(&snapshot.text);
        let links = features::include_targets(&snapshot.text)
            .into_iter()
            .filter_map(|(start, end, target)| {
                let path = std::path::Path::new(&target);
                let path = if path.is_absolute() {
                    path.to_path_buf()
                } else {
                    base.as_ref()?.join(path)
                };
                Some(DocumentLink {
                    range: Range::new(table.position(start), table.position(end)),
                    target: Uri::from_file_path(path),
                    tooltip: Some(format!("open {target}")),
                    data: None,
                })
            })
            .collect();
        Ok(Some(links))
    }

    async fn selection_range(&self, params: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        blocking(move || {
            let outlines = snapshot.analysis.activity_outlines(snapshot.file)?;
            let classes = snapshot.analysis.class_structures(snapshot.file)?;
            let table = LineTable::new(&snapshot.text);
            let folds = features::folding_ranges(&snapshot.text, &outlines, &classes);
            let ranges = params
                .positions
                .iter()
                .map(|position| features::selection_range(&snapshot.text, &table, &folds, *position))
                .collect();
            Ok(Some(ranges))
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let snapshot = self.snapshot(&params.text_document.uri)?;
        let wanted = params.range;
        blocking(move || {
            let numbers = snapshot.analysis.message_numbers(snapshot.file)?;
            let table = LineTable::new(&snapshot.text);
            Ok(Some(
                numbers
                    .into_iter()
                    .filter_map(|n| {
                        let range = table.range(n.statement);
                        overlaps(range, wanted).then(|| InlayHint {
                            position: range.start,
                            label: InlayHintLabel::String(format!("{} ", n.number)),
                            kind: None,
                            text_edits: None,
                            tooltip: Some(InlayHintTooltip::String("autonumber".to_string())),
                            padding_left: None,
                            padding_right: None,
                            data: None,
                        })
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn on_type_formatting(&self, params: DocumentOnTypeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let position = params.text_document_position;
        let snapshot = self.snapshot(&position.text_document.uri)?;
        let options = FormatOptions {
            indent_width: params.options.tab_size.clamp(1, 16) as usize,
        };
        // After a newline, indent the new line; after typing `d` of `end`,
        // re-indent that line.
        let line = position.position.line;
        let (first, last) = (line.saturating_sub(1), line);
        blocking(move || {
            let edits = snapshot.analysis.format_range(snapshot.file, first, last, &options)?;
            let table = LineTable::new(&snapshot.text);
            Ok(Some(to_lsp_edits(&table, &edits)))
        })
        .await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let position = params.text_document_position_params;
        let snapshot = self.snapshot(&position.text_document.uri)?;
        let offset = LineTable::new(&snapshot.text).offset(position.position);
        let Some((name, argument)) = features::call_at(&snapshot.text, offset) else {
            return Ok(None);
        };
        let Some((_, definition)) = features::preprocessor_names(&snapshot.text)
            .into_iter()
            .find(|(n, _)| *n == name)
        else {
            return Ok(None);
        };
        let label = definition
            .split_once(' ')
            .map_or(definition.clone(), |(_, rest)| rest.trim().to_string());
        let parameters = label
            .split_once('(')
            .and_then(|(_, rest)| rest.rsplit_once(')'))
            .map(|(inside, _)| {
                inside
                    .split(',')
                    .map(|p| ParameterInformation {
                        label: ParameterLabel::Simple(p.trim().to_string()),
                        documentation: None,
                    })
                    .collect::<Vec<_>>()
            });
        Ok(Some(SignatureHelp {
            signatures: vec![SignatureInformation {
                label,
                documentation: None,
                parameters,
                active_parameter: Some(argument),
            }],
            active_signature: Some(0),
            active_parameter: Some(argument),
        }))
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        let open: Vec<(Uri, Snapshot)> = {
            let state = self.lock()?;
            state
                .documents
                .iter()
                .filter_map(|(k, d)| {
                    let uri: Uri = k.parse().ok()?;
                    Some((
                        uri,
                        Snapshot {
                            analysis: state.host.analysis(),
                            file: d.file,
                            text: d.text.clone(),
                            version: d.version,
                        },
                    ))
                })
                .collect()
        };
        let query = params.query.to_lowercase();
        blocking(move || {
            let mut found = Vec::new();
            for (uri, snapshot) in open {
                let explanations = snapshot.analysis.explain(snapshot.file)?;
                let outlines = snapshot.analysis.activity_outlines(snapshot.file)?;
                let classes = snapshot.analysis.class_structures(snapshot.file)?;
                // Nested symbols (activity blocks, class members) are searched too.
                let mut pending = features::document_symbols(&snapshot.text, &explanations, &outlines, &classes);
                pending.reverse();
                while let Some(mut symbol) = pending.pop() {
                    if let Some(children) = symbol.children.take() {
                        pending.extend(children.into_iter().rev());
                    }
                    if symbol.name.to_lowercase().contains(&query) {
                        found.push(WorkspaceSymbol {
                            name: symbol.name,
                            kind: symbol.kind,
                            tags: None,
                            container_name: None,
                            location: OneOf::Left(Location::new(uri.clone(), symbol.range)),
                            data: None,
                        });
                    }
                }
            }
            Ok(Some(WorkspaceSymbolResponse::Nested(found)))
        })
        .await
    }
}

impl Backend {
    /// The participant under the cursor and the text its ranges index.
    async fn participant_at(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Result<Option<(puml_ide::ParticipantRef, Arc<str>)>> {
        let snapshot = self.snapshot(uri)?;
        blocking(move || {
            let offset = LineTable::new(&snapshot.text).offset(position);
            let found = snapshot
                .analysis
                .participant_at(snapshot.file, puml_syntax::TextSize::from(offset as u32))?;
            Ok(found.map(|p| (p, snapshot.text)))
        })
        .await
    }

    /// The class-diagram element under the cursor and the text its ranges index.
    async fn class_element_at(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Result<Option<(puml_ide::class_symbols::ClassElementRef, Arc<str>)>> {
        let snapshot = self.snapshot(uri)?;
        blocking(move || {
            let offset = LineTable::new(&snapshot.text).offset(position);
            let found = snapshot
                .analysis
                .class_element_at(snapshot.file, puml_syntax::TextSize::from(offset as u32))?;
            Ok(found.map(|element| (element, snapshot.text)))
        })
        .await
    }

    /// Locations of ranges in files that `uri`'s document includes.
    async fn included_locations(
        &self,
        uri: &Uri,
        ranges: Vec<(PathBuf, puml_syntax::TextRange)>,
    ) -> Result<Vec<Location>> {
        if ranges.is_empty() {
            return Ok(Vec::new());
        }
        let snapshot = self.snapshot(uri)?;
        blocking(move || {
            let mut texts: HashMap<PathBuf, Option<String>> = HashMap::new();
            let mut locations = Vec::new();
            for (path, range) in ranges {
                if !texts.contains_key(&path) {
                    let text = snapshot.analysis.included_text(snapshot.file, &path)?;
                    texts.insert(path.clone(), text);
                }
                let (Some(Some(text)), Some(target)) = (texts.get(&path), Uri::from_file_path(&path)) else {
                    continue;
                };
                locations.push(Location::new(target, LineTable::new(text).range(range)));
            }
            Ok(locations)
        })
        .await
    }

    /// The files that include `uri`'s document (open documents first, then
    /// diagram files under the workspace folders and the include root),
    /// analysed, handed to `answer` with the cursor's byte offset and the
    /// document's text, on the blocking pool; `None` for a document that is
    /// not a file.
    async fn with_includers<T: Send + 'static>(
        &self,
        uri: &Uri,
        position: Position,
        answer: impl FnOnce(&puml_ide::includers::Includers, puml_syntax::TextSize, &str) -> T + Send + 'static,
    ) -> Result<Option<T>> {
        let Some(path) = uri.to_file_path().map(|p| p.into_owned()) else {
            return Ok(None);
        };
        let (config, open, roots, text, cached, generation) = {
            let state = self.lock()?;
            let cached = state
                .includers
                .as_ref()
                .filter(|(target, _)| *target == path)
                .map(|(_, found)| found.clone());
            let text = state
                .documents
                .get(&key(uri))
                .map(|d| d.text.clone())
                .ok_or_else(|| unknown_document(uri))?;
            let open: Vec<(PathBuf, Arc<str>)> = state
                .documents
                .iter()
                .filter_map(|(k, d)| {
                    let uri: Uri = k.parse().ok()?;
                    Some((uri.to_file_path()?.into_owned(), d.text.clone()))
                })
                .collect();
            let config = state.host.config().clone();
            let mut roots = state.roots.clone();
            roots.extend(config.include_root.clone());
            roots.dedup();
            (config, open, roots, text, cached, state.includers_generation)
        };
        let offset = puml_syntax::TextSize::from(LineTable::new(&text).offset(position) as u32);
        let state = self.state.clone();
        blocking(move || {
            let found = match cached {
                Some(found) => found,
                None => {
                    let found = Arc::new(Mutex::new(puml_ide::includers::Includers::find(
                        config, &open, &roots, &path,
                    )));
                    if let Ok(mut state) = state.lock() {
                        // Kept only when nothing changed during the search.
                        if state.includers_generation == generation {
                            state.includers = Some((path, found.clone()));
                        }
                    }
                    found
                }
            };
            // A panic in an earlier answer poisons the lock; the search itself
            // is read-only, so what it found is still whole.
            let found = found.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            Ok(Some(answer(&found, offset, &text)))
        })
        .await
    }

    /// `(file, range)` pairs as locations: ranges in `uri`'s document
    /// index `text`, the others the text the includers' analyses read.
    fn includer_locations(
        uri: &Uri,
        text: &str,
        includers: &puml_ide::includers::Includers,
        ranges: &[(PathBuf, puml_syntax::TextRange)],
    ) -> Vec<Location> {
        Backend::includer_location_each(uri, text, includers, ranges)
            .into_iter()
            .flatten()
            .collect()
    }

    /// [`Backend::includer_locations`], one answer per pair (`None` for a
    /// file whose text or URI is unknown).
    fn includer_location_each(
        uri: &Uri,
        text: &str,
        includers: &puml_ide::includers::Includers,
        ranges: &[(PathBuf, puml_syntax::TextRange)],
    ) -> Vec<Option<Location>> {
        let here = uri.to_file_path().map(|p| p.into_owned());
        let here = here.map(|p| std::fs::canonicalize(&p).unwrap_or(p));
        let mut texts: HashMap<PathBuf, Option<String>> = HashMap::new();
        let mut locations = Vec::new();
        for (path, range) in ranges {
            if Some(path) == here.as_ref() {
                locations.push(Some(Location::new(uri.clone(), LineTable::new(text).range(*range))));
                continue;
            }
            let text = texts.entry(path.clone()).or_insert_with(|| includers.text(path));
            let location = match (text.as_deref(), Uri::from_file_path(path)) {
                (Some(text), Some(target)) => Some(Location::new(target, LineTable::new(text).range(*range))),
                _ => None,
            };
            locations.push(location);
        }
        locations
    }

    /// The preprocessor name (`$variable`, procedure, function) at
    /// `position` as the files that include `uri`'s document read it: its
    /// name, its range here, and its occurrences in them and in everything
    /// they include (this document too).
    async fn preprocessor_in_includers(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Result<Option<(String, Range, Vec<Location>)>> {
        let here = uri.clone();
        let found = self
            .with_includers(uri, position, move |includers, offset, text| {
                let found = includers.preprocessor_references(offset)?;
                let locations = Backend::includer_locations(&here, text, includers, &found.occurrences);
                Some((found.name, LineTable::new(text).range(found.range), locations))
            })
            .await?;
        Ok(found.flatten())
    }

    /// Each location replaced by `new_text`, grouped by file.
    fn renamed_at(locations: Vec<Location>, new_text: &str) -> HashMap<Uri, Vec<TextEdit>> {
        let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
        for location in locations {
            changes
                .entry(location.uri)
                .or_default()
                .push(TextEdit::new(location.range, new_text.to_string()));
        }
        changes
    }

    /// The preprocessor symbol (`$variable`, procedure, function) at `position`.
    async fn preprocessor_symbol_at(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Result<Option<(puml_ide::symbols::PreprocessorSymbol, Arc<str>)>> {
        let snapshot = self.snapshot(uri)?;
        blocking(move || {
            let offset = LineTable::new(&snapshot.text).offset(position);
            let symbols = snapshot.analysis.preprocessor_symbols(snapshot.file)?;
            let found = puml_ide::symbols::symbol_at(&symbols, puml_syntax::TextSize::from(offset as u32)).cloned();
            Ok(found.map(|symbol| (symbol, snapshot.text)))
        })
        .await
    }

    /// The file an `!include` at `position` names.
    fn include_definition(&self, uri: &Uri, position: Position) -> Result<Option<Location>> {
        let snapshot = self.snapshot(uri)?;
        let text = &snapshot.text;
        let table = LineTable::new(text);
        let offset = table.offset(position);
        let base = uri.to_file_path().and_then(|p| p.parent().map(|d| d.to_path_buf()));
        for (start, end, target) in features::include_targets(text) {
            if start <= offset && offset <= end {
                let Some(path) = base.as_ref().map(|b| b.join(&target)) else {
                    return Ok(None);
                };
                let origin = Position::new(0, 0);
                return Ok(Uri::from_file_path(path).map(|target| Location::new(target, Range::new(origin, origin))));
            }
        }
        Ok(None)
    }

    async fn semantic_tokens(&self, uri: &Uri) -> Result<Vec<SemanticToken>> {
        let snapshot = self.snapshot(uri)?;
        blocking(move || {
            let highlights = snapshot.analysis.highlights(snapshot.file)?;
            Ok(features::semantic_tokens(&snapshot.text, &highlights))
        })
        .await
    }

    fn remember_tokens(&self, uri: &Uri, tokens: Arc<Vec<SemanticToken>>) -> String {
        let Ok(mut state) = self.state.lock() else {
            return String::new();
        };
        state.next_result += 1;
        let id = state.next_result.to_string();
        state.tokens.insert(key(uri), (id.clone(), tokens));
        id
    }
}

/// The new name of a `$variable` or procedure as a rename asks for it: a
/// `$name` keeps its `$` (`greet` renames `$greet` to `$greet`'s new word),
/// and it must be a name the preprocessor reads.
fn preprocessor_new_name(requested: &str) -> Result<String> {
    let new_name = if requested.starts_with('$') {
        requested.to_string()
    } else {
        format!("${requested}")
    };
    if !puml_ide::symbols::is_valid_name(&new_name) {
        return Err(Error::invalid_params(format!(
            "`{new_name}` is not a preprocessor name: `$` then a letter or `_`, then letters, digits or `_`"
        )));
    }
    Ok(new_name)
}
