//! JSON shapes shared by every tool: diagnostics (the shape of
//! `puml check --format json`, plus `related` and `machine_applicable`),
//! ranges and summaries, converted from the
//! plain data of `puml-ide` at the edge.

use crate::security::{Refusal, MAX_DIAGNOSTICS};
use puml_ide::check::{CheckReport, LineColDiagnostic, LineColRange};
use schemars::JsonSchema;
use serde::Serialize;

/// A 1-based range; columns count Unicode scalar values; the end is exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Range {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl From<LineColRange> for Range {
    fn from(r: LineColRange) -> Range {
        Range {
            line: r.line,
            column: r.column,
            end_line: r.end_line,
            end_column: r.end_column,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Edit {
    #[serde(flatten)]
    pub range: Range,
    pub new_text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Fix {
    pub title: String,
    /// True when the fix is safe to apply without review.
    pub machine_applicable: bool,
    pub edits: Vec<Edit>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Related {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(flatten)]
    pub range: Range,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl From<puml_syntax::Severity> for Severity {
    fn from(s: puml_syntax::Severity) -> Severity {
        match s {
            puml_syntax::Severity::Error => Severity::Error,
            puml_syntax::Severity::Warning => Severity::Warning,
            puml_syntax::Severity::Info => Severity::Info,
        }
    }
}

/// One problem in a diagram, located by line and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code: `E…`/`W…` from the compiler, `M…` from the MCP layer.
    pub code: String,
    pub message: String,
    /// Absent for the checked source; the path of an included file otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Where: `line`, `column`, `end_line`, `end_column` (1-based, end exclusive).
    #[serde(flatten)]
    pub range: Range,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
}

impl From<&LineColDiagnostic> for Diagnostic {
    fn from(d: &LineColDiagnostic) -> Diagnostic {
        Diagnostic {
            severity: d.severity.into(),
            code: d.code.to_string(),
            message: d.message.clone(),
            file: d.file.clone(),
            range: d.range.into(),
            related: d
                .related
                .iter()
                .map(|r| Related {
                    file: r.file.clone(),
                    range: r.range.into(),
                    message: r.message.clone(),
                })
                .collect(),
            fixes: d
                .fixes
                .iter()
                .map(|f| Fix {
                    title: f.title.clone(),
                    machine_applicable: f.machine_applicable,
                    edits: f
                        .edits
                        .iter()
                        .map(|e| Edit {
                            range: e.range.into(),
                            new_text: e.new_text.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

impl Diagnostic {
    /// An error of the MCP layer itself (a refused path, a size limit…), placed at 1:1.
    pub fn server_error(code: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code: code.to_string(),
            message: message.into(),
            file: None,
            range: Range {
                line: 1,
                column: 1,
                end_line: 1,
                end_column: 1,
            },
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }
}

impl From<&Refusal> for Diagnostic {
    fn from(r: &Refusal) -> Diagnostic {
        Diagnostic::server_error(r.code, r.message.clone())
    }
}

/// Converts diagnostics, keeping at most [`MAX_DIAGNOSTICS`] and saying how many were dropped.
pub fn diagnostics(list: &[LineColDiagnostic]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = list.iter().take(MAX_DIAGNOSTICS).map(Diagnostic::from).collect();
    if list.len() > MAX_DIAGNOSTICS {
        out.push(Diagnostic {
            severity: Severity::Info,
            ..Diagnostic::server_error(
                crate::security::codes::TOO_LARGE,
                format!("{} more diagnostics not shown", list.len() - MAX_DIAGNOSTICS),
            )
        });
    }
    out
}

/// What a checked source contains.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Summary {
    pub diagrams: usize,
    pub participants: usize,
    pub events: usize,
    pub pages: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl From<&CheckReport> for Summary {
    fn from(report: &CheckReport) -> Summary {
        let s = report.summary;
        Summary {
            diagrams: s.diagrams,
            participants: s.participants,
            events: s.events,
            pages: s.pages,
            errors: s.errors,
            warnings: s.warnings,
        }
    }
}

/// The text shown to a model next to the structured content: one line per
/// diagnostic, `line:column: severity[code]: message`.
pub fn diagnostics_text(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let file = d.file.as_deref().map(|f| format!("{f}:")).unwrap_or_default();
        out.push_str(&format!(
            "{file}{}:{}: {severity}[{}]: {}\n",
            d.range.line, d.range.column, d.code, d.message
        ));
    }
    out
}
