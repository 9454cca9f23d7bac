//! The tools: each one a typed input (validated by serde, unknown fields
//! rejected), a typed output (whose JSON Schema is the tool's output schema)
//! and a `run` that calls into `puml-ide`. This module holds the machinery
//! every tool shares: argument decoding, source loading, panic recovery and
//! the conversion to an MCP result.

mod export;
mod inspect;
mod source_tools;
mod workflow;
pub use source_tools::Finding;

use crate::security::{self, codes, Refusal, Roots};
use crate::wire::{self, Diagnostic};
use base64::Engine;
use puml_ide::check::CheckOptions;
use rmcp::handler::server::common::{schema_for_input, schema_for_output};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use rmcp::ErrorData;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// What a tool sees of the server: the roots in force for this call.
pub struct ToolContext {
    pub roots: Roots,
}

/// How a tool run ends when it does not produce its normal output.
pub enum ToolFailure {
    /// The call itself is malformed (a JSON-RPC error, not a tool result).
    Protocol(ErrorData),
    /// The tool ran and refused or failed: an `isError` result with these diagnostics.
    Failed(Vec<Diagnostic>),
}

impl From<Refusal> for ToolFailure {
    fn from(refusal: Refusal) -> ToolFailure {
        ToolFailure::Failed(vec![Diagnostic::from(&refusal)])
    }
}

/// A finished tool run: the structured output plus what the model reads.
pub struct Reply<O> {
    pub output: O,
    pub ok: bool,
    /// A short human summary (first text content item).
    pub summary: String,
    /// The main textual artifact (SVG, source…), sent as a second text item.
    pub artifact: Option<String>,
    /// A PNG to show the model as image content.
    pub png: Option<Vec<u8>>,
}

impl<O> Reply<O> {
    pub fn new(output: O, ok: bool, summary: impl Into<String>) -> Reply<O> {
        Reply {
            output,
            ok,
            summary: summary.into(),
            artifact: None,
            png: None,
        }
    }
}

pub trait McpTool {
    const NAME: &'static str;
    const TITLE: &'static str;
    const DESCRIPTION: &'static str;
    /// False for the tools that may write files (only with `write: true`).
    const READ_ONLY: bool = true;
    type Input: DeserializeOwned + JsonSchema + 'static;
    type Output: Serialize + JsonSchema + 'static;
    fn run(ctx: &ToolContext, input: Self::Input) -> Result<Reply<Self::Output>, ToolFailure>;
    /// The output reporting a failure, so that even an error result matches the output schema.
    fn failure(diagnostics: Vec<Diagnostic>) -> Self::Output;
}

/// A tool as the server lists and calls it.
pub struct ToolEntry {
    pub name: &'static str,
    pub describe: fn() -> Tool,
    pub call: fn(&ToolContext, JsonObject) -> Result<CallToolResult, ErrorData>,
}

fn entry<T: McpTool>() -> ToolEntry {
    ToolEntry {
        name: T::NAME,
        describe: describe::<T>,
        call: call::<T>,
    }
}

/// Every tool, in the order `tools/list` shows them.
pub fn all() -> Vec<ToolEntry> {
    vec![
        entry::<inspect::Parse>(),
        entry::<inspect::Check>(),
        entry::<export::RenderSvg>(),
        entry::<export::Export>(),
        entry::<source_tools::Normalize>(),
        entry::<source_tools::ApplyEdit>(),
        entry::<source_tools::Explain>(),
        entry::<inspect::ListPrimitives>(),
        entry::<source_tools::LintReadability>(),
        entry::<export::RenderFile>(),
        entry::<workflow::Import>(),
        entry::<workflow::Export>(),
        entry::<workflow::Validate>(),
    ]
}

fn describe<T: McpTool>() -> Tool {
    let input =
        schema_for_input::<T::Input>().unwrap_or_else(|_| rmcp::handler::server::common::schema_for_empty_input());
    let annotations = ToolAnnotations::with_title(T::TITLE)
        .read_only(T::READ_ONLY)
        .destructive(false)
        .idempotent(true)
        .open_world(false);
    Tool::new(T::NAME, T::DESCRIPTION, input)
        .with_title(T::TITLE)
        .with_raw_output_schema(schema_for_output::<T::Output>())
        .with_annotations(annotations)
}

fn call<T: McpTool>(ctx: &ToolContext, arguments: JsonObject) -> Result<CallToolResult, ErrorData> {
    let input: T::Input = serde_json::from_value(serde_json::Value::Object(arguments))
        .map_err(|e| ErrorData::invalid_params(format!("{}: invalid arguments: {e}", T::NAME), None))?;
    let outcome = catch_unwind(AssertUnwindSafe(|| T::run(ctx, input)));
    let reply = match outcome {
        Ok(Ok(reply)) => reply,
        Ok(Err(ToolFailure::Protocol(error))) => return Err(error),
        Ok(Err(ToolFailure::Failed(diagnostics))) => failed_reply::<T>(diagnostics),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            failed_reply::<T>(vec![Diagnostic::server_error(
                codes::INTERNAL,
                format!(
                    "internal error in {} ({what}); the server recovered and keeps serving",
                    T::NAME
                ),
            )])
        }
    };
    Ok(into_result(reply))
}

fn failed_reply<T: McpTool>(diagnostics: Vec<Diagnostic>) -> Reply<T::Output> {
    let summary = format!("{} failed:\n{}", T::NAME, wire::diagnostics_text(&diagnostics));
    Reply::new(T::failure(diagnostics), false, summary)
}

fn into_result<O: Serialize>(reply: Reply<O>) -> CallToolResult {
    let mut content = vec![ContentBlock::text(reply.summary)];
    if let Some(artifact) = reply.artifact {
        content.push(ContentBlock::text(artifact));
    }
    if let Some(png) = reply.png {
        content.push(ContentBlock::image(
            base64::engine::general_purpose::STANDARD.encode(png),
            "image/png",
        ));
    }
    let mut result = if reply.ok {
        CallToolResult::success(content)
    } else {
        CallToolResult::error(content)
    };
    result.structured_content = Some(serde_json::to_value(&reply.output).unwrap_or(serde_json::Value::Null));
    result
}

/// A diagram to work on: the text, and the file it came from when given by path.
pub struct Loaded {
    pub text: String,
    pub path: Option<PathBuf>,
}

/// Takes exactly one of `source` and `path`; reads `path` inside the roots.
pub fn load_source(ctx: &ToolContext, source: Option<String>, path: Option<String>) -> Result<Loaded, ToolFailure> {
    match (source, path) {
        (Some(text), None) => {
            if text.len() > security::MAX_SOURCE_BYTES {
                return Err(security::too_large_input(text.len()).into());
            }
            Ok(Loaded { text, path: None })
        }
        (None, Some(path)) => {
            let (path, text) = security::read_source_file(&ctx.roots, &path)?;
            Ok(Loaded { text, path: Some(path) })
        }
        (Some(_), Some(_)) => Err(ToolFailure::Protocol(ErrorData::invalid_params(
            "give either `source` or `path`, not both",
            None,
        ))),
        (None, None) => Err(ToolFailure::Protocol(ErrorData::invalid_params(
            "missing input: give `source` (diagram text) or `path` (a workspace file)",
            None,
        ))),
    }
}

/// Analysis options for a loaded diagram: includes resolve inside
/// `includeRoot` (itself inside the roots), else the file's directory, else
/// the first root; the loader refuses anything outside the roots and every URL.
pub fn check_options(
    ctx: &ToolContext,
    loaded: &Loaded,
    include_root: Option<&str>,
    allow_url_includes: Option<bool>,
) -> Result<CheckOptions, ToolFailure> {
    let include_root = match include_root {
        Some(dir) => Some(ctx.roots.resolve_dir(dir)?),
        None => match &loaded.path {
            Some(path) => path.parent().map(|p| p.to_path_buf()),
            None => ctx.roots.dirs().first().cloned(),
        },
    };
    Ok(CheckOptions {
        file_path: loaded.path.clone(),
        include_root,
        allow_url_includes: allow_url_includes.unwrap_or(false),
    })
}

/// The server's analysis host, confined to the request's roots.
pub fn sources(ctx: &ToolContext) -> crate::analyzer::Sources<'_> {
    crate::analyzer::Sources {
        analyzer: crate::analyzer::shared(),
        roots: &ctx.roots,
    }
}

/// Cuts a text output at the limit; returns the note to show when it was cut.
pub fn bound_output(text: &mut String) -> Option<String> {
    let full = text.len();
    if security::truncate_utf8(text, security::MAX_OUTPUT_BYTES) {
        Some(format!(
            "output truncated from {full} to {} bytes; write it to a file instead (puml_export with write: true and outputPath)",
            text.len()
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Panicking;
    impl McpTool for Panicking {
        const NAME: &'static str = "panicking";
        const TITLE: &'static str = "Panics";
        const DESCRIPTION: &'static str = "A tool that panics, to test recovery.";
        type Input = inspect::PathOrSource;
        type Output = inspect::CheckOutput;
        fn run(_ctx: &ToolContext, _input: Self::Input) -> Result<Reply<Self::Output>, ToolFailure> {
            panic!("boom")
        }
        fn failure(diagnostics: Vec<Diagnostic>) -> Self::Output {
            inspect::CheckOutput {
                ok: false,
                diagnostics,
                summary: wire::Summary::default(),
                fixed_source: None,
                fixes_applied: None,
            }
        }
    }

    #[test]
    fn a_panic_becomes_an_error_result() {
        let dir = std::env::temp_dir();
        let ctx = ToolContext {
            roots: Roots::new(&[dir]).unwrap(),
        };
        let mut args = JsonObject::new();
        args.insert("source".into(), serde_json::json!("@startuml\n@enduml\n"));
        let result = call::<Panicking>(&ctx, args).unwrap();
        assert_eq!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["ok"], false);
        assert_eq!(structured["diagnostics"][0]["code"], codes::INTERNAL);
        assert!(structured["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("boom"));
    }
}
