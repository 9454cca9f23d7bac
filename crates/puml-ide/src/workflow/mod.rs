//! Agent workflows written as activity diagrams (seed 001): import
//! (activity model → Workflow JSON), export (Workflow → PlantUML), the six
//! validation rules, and the Workflow JSON shape. Plain data, no protocol:
//! [`JsonValue`] is printed here and converted by the glue crates.
//!
//! Consumers reach import and validation through
//! [`Analysis::workflow_import`](crate::Analysis::workflow_import) and
//! [`Analysis::workflow_validate`](crate::Analysis::workflow_validate);
//! export and the JSON-side checks take a [`Workflow`] and need no database.

pub mod annotation;
pub mod bench;
pub mod codes;
pub mod export;
pub mod import;
pub mod json;
pub mod model;
pub mod validate;

pub use export::export;
pub use import::{NodeSource, WorkflowImport};
pub use json::JsonValue;
pub use model::{Agent, Edge, LoopKind, Node, NodeData, NodeType, Resolution, Route, Variable, Workflow};
pub use validate::{validate_workflow, TemplateRegistry};

use puml_syntax::{Diagnostic, Severity};
use std::path::Path;

/// What `puml workflow import` answers: the workflow (absent when the
/// file has errors or no activity diagram) and every diagnostic, the
/// diagram's own first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkflowReport {
    pub import: Option<WorkflowImport>,
    pub diagnostics: Vec<Diagnostic>,
}

impl WorkflowReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }
}

impl TemplateRegistry {
    /// A directory (each file's name without its extension is a template
    /// id) or a JSON file: an array of ids, an object keyed by id, or
    /// `{"templates": [...]}` whose items are ids or objects with `id`.
    pub fn load(path: &Path) -> Result<TemplateRegistry, String> {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut ids: Vec<String> = entries
                .flatten()
                .filter(|e| e.path().is_file())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let stem = name.split('.').next().unwrap_or("").to_string();
                    (!stem.is_empty()).then_some(stem)
                })
                .collect();
            ids.sort();
            ids.dedup();
            return Ok(TemplateRegistry { ids });
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        TemplateRegistry::from_json_text(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// JSON is YAML 1.2, so the YAML reader takes the registry file too.
    pub fn from_json_text(text: &str) -> Result<TemplateRegistry, String> {
        use saphyr::{LoadableYamlNode, Yaml};
        let docs = Yaml::load_from_str(text).map_err(|e| format!("not JSON: {}", e.info()))?;
        let Some(doc) = docs.first() else {
            return Ok(TemplateRegistry::default());
        };
        let doc = doc.as_mapping_get("templates").unwrap_or(doc);
        let mut ids = Vec::new();
        match doc {
            Yaml::Sequence(items) => {
                for item in items {
                    let id = item.as_mapping_get("id").unwrap_or(item);
                    match annotation::scalar_text(id) {
                        Some(s) if !s.is_empty() => ids.push(s),
                        _ => return Err("expected template ids (strings, or objects with `id`)".to_string()),
                    }
                }
            }
            Yaml::Mapping(map) => {
                for key in map.keys() {
                    if let Some(s) = annotation::scalar_text(key) {
                        ids.push(s);
                    }
                }
            }
            _ => return Err("expected an array of template ids or an object keyed by id".to_string()),
        }
        Ok(TemplateRegistry { ids })
    }
}

/// Export as the CLI and the MCP server need it: the diagram text, or the
/// reasons the workflow has none, as diagnostics.
pub fn export_workflow(workflow: &Workflow) -> Result<String, Vec<Diagnostic>> {
    export(workflow).map_err(|errors| {
        errors
            .into_iter()
            .map(|m| {
                let code = if m.contains("cycle") {
                    codes::CYCLE
                } else {
                    codes::NOT_STRUCTURED
                };
                import::diag(code, Severity::Error, m, Default::default())
            })
            .collect()
    })
}

/// Reads Workflow JSON (already parsed by the caller) into a workflow, or
/// F0002 diagnostics naming each problem.
pub fn workflow_from_json(value: &JsonValue) -> Result<Workflow, Vec<Diagnostic>> {
    Workflow::from_json(value).map_err(|errors| {
        errors
            .into_iter()
            .map(|m| {
                import::diag(
                    codes::BAD_JSON,
                    Severity::Error,
                    format!("Workflow JSON: {m}"),
                    Default::default(),
                )
            })
            .collect()
    })
}

/// Workflow JSON text → workflow, or F0002 diagnostics.
pub fn workflow_from_json_text(text: &str) -> Result<Workflow, Vec<Diagnostic>> {
    match json::parse(text) {
        Ok(value) => workflow_from_json(&value),
        Err(e) => Err(vec![import::diag(
            codes::BAD_JSON,
            Severity::Error,
            format!("not JSON: {e}"),
            Default::default(),
        )]),
    }
}

/// Whether a text is Workflow JSON rather than a diagram (its first
/// non-blank character opens an object).
pub fn looks_like_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with('{')
}
