//! Source tools: `puml_normalize`, `puml_apply_edit`, `puml_explain`, `puml_lint_readability`.

use super::inspect::PathOrSource;
use super::{check_options, load_source, sources, McpTool, Reply, ToolContext, ToolFailure};
use crate::backend;
use crate::wire::{self, Diagnostic, Edit, Fix, Range};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NormalizeInput {
    /// The diagram source text. Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
    /// Declare every implicitly created participant explicitly, in order of appearance.
    #[serde(rename = "addExplicitParticipants")]
    pub add_explicit_participants: Option<bool>,
    /// Also apply the canonical formatting (default true).
    pub format: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct NormalizeOutput {
    pub ok: bool,
    /// The normalized source.
    pub source: String,
    /// The edits that turn the input into `source` (1-based ranges in the input).
    pub patch: Vec<Edit>,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct Normalize;

impl McpTool for Normalize {
    const NAME: &'static str = "puml_normalize";
    const TITLE: &'static str = "Normalize a diagram";
    const DESCRIPTION: &'static str = "Return the canonical source of a diagram (formatted; optionally with every participant declared explicitly) and the patch from the input to it.";
    type Input = NormalizeInput;
    type Output = NormalizeOutput;

    fn run(ctx: &ToolContext, input: NormalizeInput) -> Result<Reply<NormalizeOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = backend::NormalizeRequest {
            add_explicit_participants: input.add_explicit_participants.unwrap_or(false),
            format: input.format.unwrap_or(true),
        };
        let check = check_options(ctx, &loaded, None, None)?;
        let normalized = backend::normalize(&loaded.text, &options, &check, sources(ctx))?;
        let ok = !normalized.has_errors;
        let mut summary = if normalized.patch.is_empty() {
            "already canonical: no change".to_string()
        } else {
            format!("{} edit(s) to the canonical form", normalized.patch.len())
        };
        if !ok {
            summary.push_str("; the diagram has errors:\n");
            summary.push_str(&wire::diagnostics_text(&normalized.diagnostics));
        }
        let output = NormalizeOutput {
            ok,
            source: normalized.source.clone(),
            patch: normalized.patch,
            diagnostics: normalized.diagnostics,
        };
        let mut reply = Reply::new(output, ok, summary);
        reply.artifact = Some(normalized.source);
        Ok(reply)
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> NormalizeOutput {
        NormalizeOutput {
            ok: false,
            source: String::new(),
            patch: Vec::new(),
            diagnostics,
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyEditInput {
    /// The diagram source text. Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
    pub edit: backend::EditRequest,
    /// Write the edited source to `outputPath` (requires write: true; overwrite: true to replace).
    #[serde(rename = "outputPath")]
    pub output_path: Option<String>,
    pub write: Option<bool>,
    pub overwrite: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ApplyEditOutput {
    pub ok: bool,
    /// The edited source (unchanged input when not ok).
    pub source: String,
    pub diagnostics: Vec<Diagnostic>,
    /// The written file, when `write: true`.
    pub path: Option<String>,
    /// A unified diff from the input to the edited source.
    pub diff: String,
}

pub struct ApplyEdit;

impl McpTool for ApplyEdit {
    const NAME: &'static str = "puml_apply_edit";
    const TITLE: &'static str = "Apply a structural edit";
    const DESCRIPTION: &'static str = "Apply a structural edit (add_participant, add_message, add_note, wrap_group, rename_participant, change_theme, remove_message, set_title) to a diagram, on a class diagram (add_class, add_member, add_relation, remove_relation, rename_class), on a state diagram (add_state, add_transition), or on a description (use case, component, deployment) diagram (add_element, add_link), without string surgery; returns the edited source, checked. Writes only with write: true and outputPath.";
    const READ_ONLY: bool = false;
    type Input = ApplyEditInput;
    type Output = ApplyEditOutput;

    fn run(ctx: &ToolContext, input: ApplyEditInput) -> Result<Reply<ApplyEditOutput>, ToolFailure> {
        let target = super::export::plan_write(
            ctx,
            input.write.unwrap_or(false),
            input.output_path.as_deref(),
            input.overwrite.unwrap_or(false),
            super::export::ExportFormat::Puml,
        )?;
        let loaded = load_source(ctx, input.source, input.path)?;
        let edited = backend::apply_edit(&loaded.text, &input.edit)?;
        let diff = backend::unified_diff(&loaded.text, &edited.source);
        let mut path = None;
        let mut summary = format!("applied {}", input.edit.kind_name());
        if let Some(target) = target {
            if edited.has_errors {
                summary.push_str("; not written: the edited diagram has errors");
            } else {
                let written =
                    super::export::write_artifact(ctx, &target, &backend::Artifact::Text(edited.source.clone()))?;
                summary.push_str(&format!("; wrote {}", written.display));
                path = Some(written.display);
            }
        }
        let ok = !edited.has_errors;
        if !ok {
            summary.push_str("; the edited diagram has errors:\n");
            summary.push_str(&wire::diagnostics_text(&edited.diagnostics));
        }
        let output = ApplyEditOutput {
            ok,
            source: edited.source.clone(),
            diagnostics: edited.diagnostics,
            path,
            diff,
        };
        let mut reply = Reply::new(output, ok, summary);
        reply.artifact = Some(edited.source);
        Ok(reply)
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ApplyEditOutput {
        ApplyEditOutput {
            ok: false,
            source: String::new(),
            diagnostics,
            path: None,
            diff: String::new(),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExplainOutput {
    pub ok: bool,
    /// A few sentences on what the diagram shows.
    pub summary: String,
    pub title: Option<String>,
    pub participants: Vec<backend::ExplainedParticipant>,
    /// The interaction, step by step, in order.
    pub flow: Vec<backend::FlowStep>,
    pub groups: Vec<backend::ExplainedGroup>,
    pub notes: Vec<backend::ExplainedNote>,
    /// For an activity diagram: its swimlanes and steps in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity: Option<backend::ExplainedActivity>,
    /// For a class diagram: its elements, relations and inheritance tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<backend::ExplainedClass>,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct Explain;

impl McpTool for Explain {
    const NAME: &'static str = "puml_explain";
    const TITLE: &'static str = "Explain a diagram";
    const DESCRIPTION: &'static str = "A structured explanation of a diagram: summary, participants and the flow step by step (sequence), swimlanes and steps with their nesting (activity), or classes with members, relations and the inheritance tree (class), for agents and docs.";
    type Input = PathOrSource;
    type Output = ExplainOutput;

    fn run(ctx: &ToolContext, input: PathOrSource) -> Result<Reply<ExplainOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = check_options(ctx, &loaded, None, None)?;
        let explained = backend::explain(&loaded.text, &options, sources(ctx))?;
        let ok = !explained.has_errors;
        let mut summary = explained.summary.clone();
        for step in &explained.flow {
            summary.push_str(&format!(
                "\n{}. {} -> {}: {}",
                step.number, step.from, step.to, step.label
            ));
        }
        if let Some(activity) = &explained.activity {
            for step in &activity.steps {
                let lane = step.lane.as_deref().map(|l| format!(" [{l}]")).unwrap_or_default();
                summary.push_str(&format!("\n{}{}{lane}", "  ".repeat(step.depth), step.text));
            }
        }
        if let Some(class) = &explained.class {
            for relation in &class.relations {
                summary.push_str(&format!("\n{} {} {}", relation.from, relation.kind, relation.to));
            }
        }
        if !ok {
            summary.push_str("\nthe diagram has errors:\n");
            summary.push_str(&wire::diagnostics_text(&explained.diagnostics));
        }
        let output = ExplainOutput {
            ok,
            summary: explained.summary,
            title: explained.title,
            participants: explained.participants,
            flow: explained.flow,
            groups: explained.groups,
            notes: explained.notes,
            activity: explained.activity,
            class: explained.class,
            diagnostics: explained.diagnostics,
        };
        Ok(Reply::new(output, ok, summary))
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ExplainOutput {
        ExplainOutput {
            ok: false,
            summary: String::new(),
            title: None,
            participants: Vec::new(),
            flow: Vec::new(),
            groups: Vec::new(),
            notes: Vec::new(),
            activity: None,
            class: None,
            diagnostics,
        }
    }
}

/// One piece of readability advice.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Finding {
    pub severity: String,
    pub code: String,
    pub message: String,
    pub span: Range,
    /// Mechanical fixes, when the finding has one.
    pub fixes: Vec<Fix>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct LintOutput {
    /// True when the source has no compiler errors (findings are advice, never errors).
    pub ok: bool,
    pub findings: Vec<Finding>,
    pub diagnostics: Vec<Diagnostic>,
}

pub struct LintReadability;

impl McpTool for LintReadability {
    const NAME: &'static str = "puml_lint_readability";
    const TITLE: &'static str = "Readability advice";
    const DESCRIPTION: &'static str = "Non-blocking readability advice (long labels, too many participants, deep nesting…), separate from compiler diagnostics.";
    type Input = PathOrSource;
    type Output = LintOutput;

    fn run(ctx: &ToolContext, input: PathOrSource) -> Result<Reply<LintOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = check_options(ctx, &loaded, None, None)?;
        let linted = backend::lint(&loaded.text, &options, sources(ctx))?;
        let ok = !linted.has_errors;
        let mut summary = format!("{} finding(s)", linted.findings.len());
        for f in &linted.findings {
            summary.push_str(&format!(
                "\n{}:{}: {}[{}]: {}",
                f.span.line, f.span.column, f.severity, f.code, f.message
            ));
        }
        if !ok {
            summary.push_str("\nthe diagram has compiler errors (see puml_check):\n");
            summary.push_str(&wire::diagnostics_text(&linted.diagnostics));
        }
        let output = LintOutput {
            ok,
            findings: linted.findings,
            diagnostics: linted.diagnostics,
        };
        Ok(Reply::new(output, ok, summary))
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> LintOutput {
        LintOutput {
            ok: false,
            findings: Vec::new(),
            diagnostics,
        }
    }
}
