//! Agent workflows (seed 001): `puml_workflow_import` (activity diagram →
//! Workflow JSON), `puml_workflow_export` (Workflow JSON → diagram) and
//! `puml_workflow_validate` (the diagram's diagnostics, then the six
//! rules). Paths are confined to the roots like every other tool's.

use super::{load_source, sources, McpTool, Reply, ToolContext, ToolFailure};
use crate::security::{self, codes, Refusal};
use crate::wire::{self, Diagnostic};
use puml_ide::check::CheckOptions;
use puml_ide::workflow::{self, TemplateRegistry, Workflow};
use rmcp::ErrorData;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn located(text: &str, diagnostics: &[puml_syntax::Diagnostic]) -> Vec<Diagnostic> {
    let index = puml_syntax::LineIndex::new(text);
    let list: Vec<_> = diagnostics
        .iter()
        .map(|d| puml_ide::check::locate(text, &index, d, &[]))
        .collect();
    wire::diagnostics(&list)
}

fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == wire::Severity::Error)
}

/// Workflow JSON given inline or as a workspace file.
fn load_workflow(
    ctx: &ToolContext,
    inline: Option<serde_json::Value>,
    path: Option<String>,
) -> Result<Result<Workflow, Vec<Diagnostic>>, ToolFailure> {
    let text = match (inline, path) {
        (Some(value), None) => {
            let text = serde_json::to_string(&value).unwrap_or_default();
            if text.len() > security::MAX_SOURCE_BYTES {
                return Err(security::too_large_input(text.len()).into());
            }
            text
        }
        (None, Some(path)) => security::read_source_file(&ctx.roots, &path)?.1,
        (Some(_), Some(_)) => {
            return Err(ToolFailure::Protocol(ErrorData::invalid_params(
                "give either `workflow` or `workflowPath`, not both",
                None,
            )))
        }
        (None, None) => {
            return Err(ToolFailure::Protocol(ErrorData::invalid_params(
                "missing input: give `workflow` (Workflow JSON) or `workflowPath` (a workspace .json file)",
                None,
            )))
        }
    };
    Ok(workflow::workflow_from_json_text(&text).map_err(|d| located("", &d)))
}

/// The registry named by `templates`, a directory or JSON file inside the roots.
fn load_registry(ctx: &ToolContext, templates: Option<&str>) -> Result<Option<TemplateRegistry>, ToolFailure> {
    let Some(requested) = templates else { return Ok(None) };
    let path = ctx.roots.resolve_existing(requested)?;
    if path.is_file() && std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) > security::MAX_SOURCE_BYTES as u64 {
        return Err(security::too_large_input(security::MAX_SOURCE_BYTES + 1).into());
    }
    TemplateRegistry::load(&path)
        .map(Some)
        .map_err(|e| Refusal::new(codes::PATH_UNREADABLE, format!("{requested}: {e}")).into())
}

fn to_value(w: &Workflow, spans: Option<&[(u32, u32)]>) -> serde_json::Value {
    serde_json::from_str(&w.to_json(spans).to_pretty()).unwrap_or(serde_json::Value::Null)
}

// ------------------------------------------------------------- import

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportInput {
    /// The activity diagram (`@startuml … @enduml`). Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ImportOutput {
    /// True when the diagram imported without errors.
    pub ok: bool,
    /// Workflow JSON (see the resource puml://workflow/schema); each node has a `span` (byte offsets into the source).
    pub workflow: Option<serde_json::Value>,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct Import;

impl McpTool for Import {
    const NAME: &'static str = "puml_workflow_import";
    const TITLE: &'static str = "Activity diagram → Workflow JSON";
    const DESCRIPTION: &'static str = "Read an agent workflow written as a PlantUML activity diagram (swimlanes are agents, <<prompt>>/<<router>>/<<aggregator>>/<<input>> YAML notes, if/repeat/while/fork/split) into Workflow JSON: title, nodes, edges, variables, agents. Diagram and annotation errors come back as diagnostics.";
    type Input = ImportInput;
    type Output = ImportOutput;

    fn run(ctx: &ToolContext, input: ImportInput) -> Result<Reply<ImportOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = CheckOptions {
            file_path: loaded.path.clone(),
            ..CheckOptions::default()
        };
        let report = sources(ctx).run(&loaded.text, &options, |analysis, file| analysis.workflow_import(file));
        let diagnostics = located(&loaded.text, &report.diagnostics);
        let ok = !has_errors(&diagnostics);
        let imported = report.import.as_ref().filter(|_| ok);
        let workflow = imported.map(|i| to_value(&i.workflow, Some(&i.spans())));
        let mut summary = match imported {
            Some(i) => format!(
                "workflow `{}`: {} nodes, {} edges, {} variables, {} agents",
                i.workflow.title,
                i.workflow.nodes.len(),
                i.workflow.edges.len(),
                i.workflow.variables.len(),
                i.workflow.agents.len()
            ),
            None => "no workflow: the diagram has errors".to_string(),
        };
        if !diagnostics.is_empty() {
            summary.push('\n');
            summary.push_str(&wire::diagnostics_text(&diagnostics));
        }
        let mut reply = Reply::new(
            ImportOutput {
                ok,
                workflow,
                diagnostics,
            },
            ok,
            summary,
        );
        reply.artifact = imported.map(|i| i.workflow.to_json(Some(&i.spans())).to_pretty());
        if let Some(text) = reply.artifact.as_mut() {
            if let Some(note) = super::bound_output(text) {
                reply.summary.push_str(&format!("\n{note}"));
            }
        }
        Ok(reply)
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ImportOutput {
        ImportOutput {
            ok: false,
            workflow: None,
            diagnostics,
        }
    }
}

// ------------------------------------------------------------- export

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExportInput {
    /// Workflow JSON (an object: title, nodes, edges, variables, agents). Give exactly one of `workflow` and `workflowPath`.
    pub workflow: Option<serde_json::Value>,
    /// A Workflow JSON file relative to the workspace root. Give exactly one of `workflow` and `workflowPath`.
    pub workflow_path: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportOutput {
    pub ok: bool,
    /// The activity diagram in the seed's style; check it with puml_workflow_validate.
    pub source: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct Export;

impl McpTool for Export {
    const NAME: &'static str = "puml_workflow_export";
    const TITLE: &'static str = "Workflow JSON → activity diagram";
    const DESCRIPTION: &'static str = "Write Workflow JSON as a PlantUML activity diagram (swimlanes, annotation notes, if/elseif/else, fork, split, repeat, while) that imports back to the same workflow.";
    type Input = ExportInput;
    type Output = ExportOutput;

    fn run(ctx: &ToolContext, input: ExportInput) -> Result<Reply<ExportOutput>, ToolFailure> {
        let result = load_workflow(ctx, input.workflow, input.workflow_path)?
            .and_then(|w| workflow::export_workflow(&w).map_err(|d| located("", &d)));
        Ok(match result {
            Ok(mut source) => {
                let mut summary = format!("exported {} lines", source.lines().count());
                if let Some(note) = super::bound_output(&mut source) {
                    summary.push_str(&format!("; {note}"));
                }
                let mut reply = Reply::new(
                    ExportOutput {
                        ok: true,
                        source: Some(source.clone()),
                        diagnostics: Vec::new(),
                    },
                    true,
                    summary,
                );
                reply.artifact = Some(source);
                reply
            }
            Err(diagnostics) => {
                let summary = format!("no diagram:\n{}", wire::diagnostics_text(&diagnostics));
                Reply::new(
                    ExportOutput {
                        ok: false,
                        source: None,
                        diagnostics,
                    },
                    false,
                    summary,
                )
            }
        })
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ExportOutput {
        ExportOutput {
            ok: false,
            source: None,
            diagnostics,
        }
    }
}

// ----------------------------------------------------------- validate

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateInput {
    /// The activity diagram. Give exactly one of `source`, `path` and `workflow`.
    pub source: Option<String>,
    /// A diagram (or Workflow JSON .json) file relative to the workspace root.
    pub path: Option<String>,
    /// Workflow JSON to validate instead of a diagram.
    pub workflow: Option<serde_json::Value>,
    /// The prompt template registry: a directory (file names are template ids) or a JSON file (array of ids, object keyed by id, or {"templates": [...]}) inside the workspace. Without it templates are reported as not checked.
    pub templates: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValidateOutput {
    /// True when no diagnostic is an error: the workflow passes the six rules.
    pub ok: bool,
    /// Whether template references were checked against a registry.
    pub templates_checked: bool,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct Validate;

impl McpTool for Validate {
    const NAME: &'static str = "puml_workflow_validate";
    const TITLE: &'static str = "Validate an agent workflow";
    const DESCRIPTION: &'static str = "Check an agent-workflow activity diagram (or Workflow JSON): activity syntax first, then annotation notes, then the six rules: every {{variable}} has a source, unique swimlanes, templates exist in the registry, supported condition operators (== != > < >= <= contains matches), aggregator inputs defined upstream, no cycle but repeat/while loops. Apply the fixes and validate again until ok is true.";
    type Input = ValidateInput;
    type Output = ValidateOutput;

    fn run(ctx: &ToolContext, input: ValidateInput) -> Result<Reply<ValidateOutput>, ToolFailure> {
        let registry = load_registry(ctx, input.templates.as_deref())?;
        let diagnostics = match (input.workflow, input.source, input.path) {
            (Some(value), None, None) => match load_workflow(ctx, Some(value), None)? {
                Ok(w) => located("", &workflow::validate_workflow(&w, registry.as_ref())),
                Err(d) => d,
            },
            (None, source, path) => {
                let loaded = load_source(ctx, source, path)?;
                let is_json = loaded
                    .path
                    .as_ref()
                    .is_some_and(|p| p.extension().is_some_and(|e| e == "json"))
                    || workflow::looks_like_json(&loaded.text);
                if is_json {
                    match workflow::workflow_from_json_text(&loaded.text) {
                        Ok(w) => located("", &workflow::validate_workflow(&w, registry.as_ref())),
                        Err(d) => located("", &d),
                    }
                } else {
                    let options = CheckOptions {
                        file_path: loaded.path.clone(),
                        ..CheckOptions::default()
                    };
                    let registry = registry.clone();
                    let raw = sources(ctx).run(&loaded.text, &options, move |analysis, file| {
                        analysis.workflow_validate(file, registry.as_ref())
                    });
                    located(&loaded.text, &raw)
                }
            }
            _ => {
                return Err(ToolFailure::Protocol(ErrorData::invalid_params(
                    "give exactly one of `source`, `path` and `workflow`",
                    None,
                )))
            }
        };
        let ok = !has_errors(&diagnostics);
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == wire::Severity::Error)
            .count();
        let mut summary = if ok {
            "valid workflow".to_string()
        } else {
            format!("{errors} error(s)")
        };
        if registry.is_none() {
            summary.push_str("; templates not checked (no registry given)");
        }
        if !diagnostics.is_empty() {
            summary.push('\n');
            summary.push_str(&wire::diagnostics_text(&diagnostics));
        }
        Ok(Reply::new(
            ValidateOutput {
                ok,
                templates_checked: registry.is_some(),
                diagnostics,
            },
            ok,
            summary,
        ))
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ValidateOutput {
        ValidateOutput {
            ok: false,
            templates_checked: false,
            diagnostics,
        }
    }
}
