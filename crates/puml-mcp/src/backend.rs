//! The one place that calls the rendering and source-tool backends of
//! `puml-ide`, so that the tools read the same whatever their signatures.

use crate::analyzer::Sources;
use crate::security::codes;
use crate::tools::ToolFailure;
use crate::wire::{self, Diagnostic};
use puml_ide::check::{CheckOptions, CheckReport, LineColDiagnostic};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    Pdf,
    Txt,
    SceneJson,
}

pub struct RenderRequest {
    pub theme: Option<String>,
    pub page: usize,
}

pub enum Artifact {
    Text(String),
    Binary(Vec<u8>),
}

impl Artifact {
    pub fn byte_len(&self) -> usize {
        match self {
            Artifact::Text(text) => text.len(),
            Artifact::Binary(data) => data.len(),
        }
    }
}

pub struct Rendered {
    pub artifact: Artifact,
    pub width: f64,
    pub height: f64,
    /// Warnings of a source that rendered (errors refuse the render).
    pub warnings: Vec<LineColDiagnostic>,
}

/// Renders one page (0-based) of a source that has no errors; a source
/// with errors is refused with its diagnostics.
pub fn render(
    text: &str,
    options: &CheckOptions,
    sources: Sources<'_>,
    request: &RenderRequest,
    format: Format,
) -> Result<Rendered, ToolFailure> {
    use puml_ide::render::{self as r, RenderFailure};
    if let Some(theme) = &request.theme {
        if !r::THEME_NAMES.iter().any(|t| t.eq_ignore_ascii_case(theme.trim())) {
            return Err(failure(
                codes::UNSUPPORTED,
                format!("unknown theme `{theme}`; available: {}", r::THEME_NAMES.join(", ")),
            ));
        }
    }
    let render_format = match format {
        Format::Svg => r::Format::Svg,
        Format::Png => r::Format::Png,
        Format::Pdf => r::Format::Pdf,
        Format::Txt => r::Format::Txt,
        Format::SceneJson => r::Format::SceneJson,
    };
    let render_options = r::RenderOptions {
        format: render_format,
        theme: request.theme.clone(),
        page: Some(request.page + 1),
        check: options.clone(),
        ..r::RenderOptions::default()
    };
    let rendered = sources.run(text, options, |analysis, file| analysis.render(file, &render_options));
    let mut pages = match rendered {
        Ok(pages) => pages,
        Err(RenderFailure::Diagnostics(diagnostics)) => {
            return Err(ToolFailure::Failed(wire::diagnostics(&diagnostics)));
        }
        Err(RenderFailure::PageOutOfRange { available, .. }) => {
            return Err(failure(
                codes::UNSUPPORTED,
                format!(
                    "page {} does not exist: pages are numbered 0 to {}",
                    request.page,
                    available.saturating_sub(1)
                ),
            ));
        }
        Err(other) => return Err(failure(codes::UNSUPPORTED, other.to_string())),
    };
    if pages.is_empty() {
        return Err(failure(codes::UNSUPPORTED, "nothing was rendered"));
    }
    let page = pages.swap_remove(0);
    let artifact = if render_format.is_binary() {
        Artifact::Binary(page.bytes)
    } else {
        Artifact::Text(String::from_utf8_lossy(&page.bytes).into_owned())
    };
    // The render succeeded, so the source has no errors: what is left to
    // report are its warnings.
    let report = sources.check(text, options);
    Ok(Rendered {
        artifact,
        width: page.width,
        height: page.height,
        warnings: report.diagnostics,
    })
}

/// The canonical (formatted) source.
pub fn canonical_source(text: &str) -> Result<String, ToolFailure> {
    Ok(puml_ide::format::format(
        text,
        &puml_ide::format::FormatOptions::default(),
    ))
}

/// The semantic model and the check report of a source.
pub fn model(text: &str, options: &CheckOptions, sources: Sources<'_>) -> (puml_sema::model::Document, CheckReport) {
    sources.run(text, options, |analysis, file| {
        Ok((analysis.document(file)?, analysis.check(file)?))
    })
}

fn failure(code: &str, message: impl Into<String>) -> ToolFailure {
    ToolFailure::Failed(vec![Diagnostic::server_error(code, message)])
}

/// Locates raw diagnostics of the main text by line and column.
fn located(text: &str, diagnostics: &[puml_syntax::Diagnostic]) -> Vec<Diagnostic> {
    let index = puml_syntax::LineIndex::new(text);
    let list: Vec<LineColDiagnostic> = diagnostics
        .iter()
        .map(|d| puml_ide::check::locate(text, &index, d, &[]))
        .collect();
    wire::diagnostics(&list)
}

pub struct NormalizeRequest {
    pub add_explicit_participants: bool,
    pub format: bool,
}

pub struct Normalized {
    pub source: String,
    pub patch: Vec<wire::Edit>,
    pub diagnostics: Vec<Diagnostic>,
    pub has_errors: bool,
}

/// Normalizes `text` and checks the result (the diagnostics are those of the normalized source).
pub fn normalize(
    text: &str,
    request: &NormalizeRequest,
    options: &CheckOptions,
    sources: Sources<'_>,
) -> Result<Normalized, ToolFailure> {
    let normalize_options = puml_ide::normalize::NormalizeOptions {
        add_explicit_participants: request.add_explicit_participants,
        format: request.format,
        ..puml_ide::normalize::NormalizeOptions::default()
    };
    let normalized = puml_ide::normalize::normalize(text, &normalize_options);
    let report = sources.check(&normalized.source, options);
    Ok(Normalized {
        patch: text_edits(text, &normalized.edits),
        source: normalized.source,
        diagnostics: wire::diagnostics(&report.diagnostics),
        has_errors: !report.ok(),
    })
}

/// Byte-range edits of `text` as line/column edits.
fn text_edits(text: &str, edits: &[puml_syntax::TextEdit]) -> Vec<wire::Edit> {
    let index = puml_syntax::LineIndex::new(text);
    edits
        .iter()
        .map(|e| wire::Edit {
            range: puml_ide::check::LineColRange::from_range(text, &index, e.range).into(),
            new_text: e.new_text.clone(),
        })
        .collect()
}

/// A structural edit: `kind` and its `args` (the argument names of `puml edit`).
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", content = "args", rename_all = "snake_case", deny_unknown_fields)]
pub enum EditRequest {
    /// Declare a participant (after `after`, else after the last declaration).
    AddParticipant(AddParticipantArgs),
    /// Add a message (after line `after_line`, or at the end of the group starting at `in_group`, else at the end).
    AddMessage(AddMessageArgs),
    /// Add a note.
    AddNote(AddNoteArgs),
    /// Wrap lines `start_line..=end_line` in a group, with `else` before each line of `else_at` (alt only).
    WrapGroup(WrapGroupArgs),
    /// Rename a participant everywhere it is used.
    RenameParticipant(RenameParticipantArgs),
    /// Set (or, with an empty/absent theme, remove) `!theme`.
    ChangeTheme(ChangeThemeArgs),
    /// Remove the message on a line.
    RemoveMessage(RemoveMessageArgs),
    /// Set (or, with an empty/absent title, remove) the title.
    SetTitle(SetTitleArgs),
    /// Class diagrams: declare a class (`keyword` default `class`) before `@enduml`.
    AddClass(AddClassArgs),
    /// Class diagrams: add a member as `Class : member`.
    AddMember(AddMemberArgs),
    /// Class diagrams: add a relation `from arrow to : label` (arrow default `-->`).
    AddRelation(AddRelationArgs),
    /// Class diagrams: remove the first relation between two classes (either way round).
    RemoveRelation(RemoveRelationArgs),
    /// Class diagrams: rename a class everywhere its name is written.
    RenameClass(RenameClassArgs),
    /// State diagrams: declare a state, at the top or inside the composite state `parent`.
    AddState(AddStateArgs),
    /// State diagrams: add a transition `from arrow to : label` (arrow default `-->`; `[*]` for a start or end).
    AddTransition(AddTransitionArgs),
    /// Description diagrams (use case, component, deployment): declare an element (or, with `container`, an empty container), at the top or inside the container `parent`.
    AddElement(AddElementArgs),
    /// Description diagrams: add a link `from arrow to : label` (arrow default `-->`) in the innermost container holding both ends.
    AddLink(AddLinkArgs),
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddElementArgs {
    /// actor, usecase, component, interface, node, artifact, database, cloud, folder, frame, file, package, queue, stack, storage, card, agent, boundary, control, entity, collections, hexagon, label, person, rectangle, circle, action, process, port, portin, portout (ports inside a `parent`), `actor/` or `usecase/`.
    pub kind: String,
    /// The name shown; quoted when it is more than letters, digits and `_` (no quotes, brackets, braces, angle brackets or `:`).
    pub name: String,
    /// The code links name it by (letters, digits and `_`), written `kind "name" as alias`.
    pub alias: Option<String>,
    /// The container (`package`, `node`, `rectangle`, … with `{ }`) to declare it in, before its `}`; default the top level.
    pub parent: Option<String>,
    /// A stereotype, `service` or `<<service>>`.
    pub stereotype: Option<String>,
    /// `true`: declare an empty container `kind name {` … `}` instead of an element (`kind` one of component, database, node, folder, frame, cloud, package, queue, storage, artifact, card, file, rectangle, stack, hexagon, action, process); elements then go inside it with `parent`.
    pub container: Option<bool>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddLinkArgs {
    /// An element (its alias or code, qualified name, or shown name) or a container.
    pub from: String,
    /// An element or a container, as `from`.
    pub to: String,
    /// e.g. `-->`, `->`, `..>`, `--`, `-up->`, `-[#red]->`, `-[dashed]->`, `--0`, `-[hidden]-`; default `-->`.
    pub arrow: Option<String>,
    pub label: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddStateArgs {
    /// Letters, digits and `_`.
    pub name: String,
    /// The composite state to declare it in (before its `}`); default the top level.
    pub parent: Option<String>,
    /// A description line, written `state name : description`.
    pub description: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddTransitionArgs {
    /// A state's name, or `[*]` (the start of the composite the other end is in).
    pub from: String,
    /// A state's name, or `[*]` (the end of the composite the other end is in).
    pub to: String,
    /// e.g. `->`, `-->`, `-up->`, `-[#red]->`, `-[dashed]->`; default `-->`.
    pub arrow: Option<String>,
    pub label: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddClassArgs {
    pub name: String,
    /// class, abstract class, interface, enum, annotation, entity, exception, struct, record, protocol, metaclass, stereotype or object.
    pub keyword: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddMemberArgs {
    /// The class (qualified name, alias, or its last name part when unique).
    pub class: String,
    /// The member as written, e.g. `+total() : int`, `-id : long`.
    pub member: String,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddRelationArgs {
    pub from: String,
    pub to: String,
    /// e.g. `<|--`, `*--`, `o--`, `-->`, `..>`, `..|>`, `--`, `-up->`; default `-->`.
    pub arrow: Option<String>,
    pub label: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveRelationArgs {
    pub from: String,
    pub to: String,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameClassArgs {
    pub from: String,
    /// The new last name part (no `.`, `:` or blanks).
    pub to: String,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddParticipantArgs {
    pub name: String,
    /// participant, actor, boundary, control, entity, database, collections, queue.
    pub kind: Option<String>,
    /// Displayed name when `name` is a short code.
    pub alias: Option<String>,
    /// Insert after this participant's declaration.
    pub after: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddMessageArgs {
    pub from: String,
    pub to: String,
    pub label: String,
    /// The arrow, e.g. `->`, `-->`, `->>`; default `->`.
    pub arrow: Option<String>,
    /// 1-based line after which to insert.
    pub after_line: Option<u32>,
    /// 1-based line of a group's start: insert at the end of that group.
    pub in_group: Option<u32>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddNoteArgs {
    pub text: String,
    /// left, right, over or across.
    pub position: String,
    /// The participants the note is attached to (one for left/right, one or two for over).
    pub participants: Vec<String>,
    pub after_line: Option<u32>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WrapGroupArgs {
    /// alt, opt, loop, par, break, critical or group.
    pub kind: String,
    pub label: String,
    pub start_line: u32,
    pub end_line: u32,
    pub else_at: Option<Vec<u32>>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameParticipantArgs {
    pub from: String,
    pub to: String,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeThemeArgs {
    pub theme: Option<String>,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveMessageArgs {
    /// 1-based line of the message.
    pub line: u32,
}

#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetTitleArgs {
    pub title: Option<String>,
}

impl EditRequest {
    pub fn kind_name(&self) -> &'static str {
        match self {
            EditRequest::AddParticipant(_) => "add_participant",
            EditRequest::AddMessage(_) => "add_message",
            EditRequest::AddNote(_) => "add_note",
            EditRequest::WrapGroup(_) => "wrap_group",
            EditRequest::RenameParticipant(_) => "rename_participant",
            EditRequest::ChangeTheme(_) => "change_theme",
            EditRequest::RemoveMessage(_) => "remove_message",
            EditRequest::SetTitle(_) => "set_title",
            EditRequest::AddClass(_) => "add_class",
            EditRequest::AddMember(_) => "add_member",
            EditRequest::AddRelation(_) => "add_relation",
            EditRequest::RemoveRelation(_) => "remove_relation",
            EditRequest::RenameClass(_) => "rename_class",
            EditRequest::AddState(_) => "add_state",
            EditRequest::AddTransition(_) => "add_transition",
            EditRequest::AddElement(_) => "add_element",
            EditRequest::AddLink(_) => "add_link",
        }
    }

    /// The arguments as the edit engine's protocol-neutral values.
    fn engine_args(&self) -> std::collections::BTreeMap<String, puml_ide::edit::ArgValue> {
        fn convert(value: &serde_json::Value) -> puml_ide::edit::ArgValue {
            use puml_ide::edit::ArgValue;
            match value {
                serde_json::Value::Null => ArgValue::Null,
                serde_json::Value::Bool(b) => ArgValue::Bool(*b),
                serde_json::Value::Number(n) => ArgValue::Number(n.as_i64().unwrap_or(-1)),
                serde_json::Value::String(s) => ArgValue::Text(s.clone()),
                serde_json::Value::Array(items) => ArgValue::List(items.iter().map(convert).collect()),
                serde_json::Value::Object(_) => ArgValue::Null,
            }
        }
        let value = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        match value.get("args") {
            Some(serde_json::Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), convert(v))).collect(),
            _ => std::collections::BTreeMap::new(),
        }
    }
}

pub struct Edited {
    pub source: String,
    pub diagnostics: Vec<Diagnostic>,
    pub has_errors: bool,
}

pub fn apply_edit(text: &str, request: &EditRequest) -> Result<Edited, ToolFailure> {
    let edit = puml_ide::edit::Edit::parse(request.kind_name(), &request.engine_args())
        .map_err(|e| failure(codes::EDIT_REJECTED, e.to_string()))?;
    let result = puml_ide::edit::apply_edit(text, &edit).map_err(|e| failure(codes::EDIT_REJECTED, e.to_string()))?;
    let has_errors = result.diagnostics.iter().any(|d| d.is_error());
    Ok(Edited {
        diagnostics: located(&result.source, &result.diagnostics),
        source: result.source,
        has_errors,
    })
}

pub fn unified_diff(before: &str, after: &str) -> String {
    puml_ide::format::unified_diff(before, after, "before.puml", "after.puml")
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedParticipant {
    /// The code used in messages.
    pub name: String,
    /// The displayed name when it differs (`participant "Long name" as L`).
    pub alias: Option<String>,
    /// participant, actor, boundary, control, entity, database, collections, queue.
    pub kind: String,
    /// 1-based line of its declaration; null when only used.
    pub declared_line: Option<u32>,
    pub messages_sent: usize,
    pub messages_received: usize,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct FlowStep {
    /// 1-based position in the flow.
    pub number: usize,
    /// 1-based source line (0 when unknown).
    pub line: u32,
    pub from: String,
    pub to: String,
    pub label: String,
    /// sync, async, reply, lost, found or self.
    pub arrow_kind: String,
    /// The enclosing groups, outermost first.
    pub group_path: Vec<String>,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedGroup {
    /// alt, opt, loop, par, break, critical, group…
    pub kind: String,
    pub label: Option<String>,
    pub line: u32,
    pub depth: usize,
    /// Label, line and message count of the first branch and every `else`.
    pub branches: Vec<ExplainedBranch>,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedBranch {
    pub label: Option<String>,
    pub line: u32,
    pub messages: usize,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedNote {
    pub line: u32,
    pub position: String,
    pub participants: Vec<String>,
    pub text: String,
}

/// A class diagram's elements, relations and inheritance (absent for other
/// kinds).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedClass {
    pub elements: Vec<ExplainedClassElement>,
    pub relations: Vec<ExplainedRelation>,
    /// The inheritance forest, depth first, each name with its depth (0: a root).
    pub inheritance: Vec<ExplainedInheritance>,
    /// Qualified names of the packages and namespaces.
    pub packages: Vec<String>,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedClassElement {
    /// Qualified name.
    pub name: String,
    /// `class`, `interface`, `abstract`, `enum`, …
    pub keyword: String,
    /// 1-based line of its declaration (or first use when `declared` is false).
    pub line: u32,
    pub declared: bool,
    /// Fields, methods and constants as written, with their visibility.
    pub members: Vec<String>,
    pub relations_out: usize,
    pub relations_in: usize,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedRelation {
    pub line: u32,
    pub from: String,
    pub to: String,
    /// `extension`, `implementation`, `composition`, `aggregation`, `dependency`, `association`, `link`.
    pub kind: String,
    pub label: Option<String>,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedInheritance {
    pub depth: usize,
    pub name: String,
}

/// An activity diagram's swimlanes and steps (absent for sequence diagrams).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedActivity {
    pub lanes: Vec<ExplainedLane>,
    /// Every step in source order, with its block depth.
    pub steps: Vec<ExplainedStep>,
    pub actions: usize,
    /// `if`, `elseif` and `switch` blocks.
    pub decisions: usize,
    /// `while` and `repeat` blocks.
    pub loops: usize,
    /// `fork` and `split` blocks.
    pub parallel: usize,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedLane {
    pub name: String,
    pub color: Option<String>,
    /// 1-based line of its first declaration or use.
    pub line: u32,
    pub actions: usize,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainedStep {
    /// 1-based source line (0 when unknown).
    pub line: u32,
    /// Block nesting (0 at the top).
    pub depth: usize,
    /// The step in words, e.g. `action "Ship"`, `if "in stock?" then "yes"`.
    pub text: String,
    /// The swimlane it is drawn in.
    pub lane: Option<String>,
}

pub struct Explained {
    pub activity: Option<ExplainedActivity>,
    pub class: Option<ExplainedClass>,
    pub summary: String,
    pub title: Option<String>,
    pub participants: Vec<ExplainedParticipant>,
    pub flow: Vec<FlowStep>,
    pub groups: Vec<ExplainedGroup>,
    pub notes: Vec<ExplainedNote>,
    pub diagnostics: Vec<Diagnostic>,
    pub has_errors: bool,
}

pub fn explain(text: &str, options: &CheckOptions, sources: Sources<'_>) -> Result<Explained, ToolFailure> {
    let (explanations, report) = sources.run(text, options, |analysis, file| {
        Ok((analysis.explain(file)?, analysis.check(file)?))
    });
    let Some(e) = explanations.into_iter().next() else {
        return Err(failure(codes::UNSUPPORTED, "nothing to explain"));
    };
    Ok(Explained {
        class: e.class.map(|c| ExplainedClass {
            elements: c
                .elements
                .into_iter()
                .map(|e| ExplainedClassElement {
                    name: e.name,
                    keyword: e.keyword,
                    line: e.line,
                    declared: e.declared,
                    members: e.members,
                    relations_out: e.relations_out,
                    relations_in: e.relations_in,
                })
                .collect(),
            relations: c
                .relations
                .into_iter()
                .map(|r| ExplainedRelation {
                    line: r.line,
                    from: r.from,
                    to: r.to,
                    kind: r.kind,
                    label: r.label,
                })
                .collect(),
            inheritance: c
                .inheritance
                .into_iter()
                .map(|l| ExplainedInheritance {
                    depth: l.depth,
                    name: l.name,
                })
                .collect(),
            packages: c.packages,
        }),
        activity: e.activity.map(|a| ExplainedActivity {
            lanes: a
                .lanes
                .into_iter()
                .map(|l| ExplainedLane {
                    name: l.name,
                    color: l.color,
                    line: l.line,
                    actions: l.actions,
                })
                .collect(),
            steps: a
                .steps
                .into_iter()
                .map(|s| ExplainedStep {
                    line: s.line,
                    depth: s.depth,
                    text: s.text,
                    lane: s.lane,
                })
                .collect(),
            actions: a.actions,
            decisions: a.decisions,
            loops: a.loops,
            parallel: a.parallel,
        }),
        summary: e.summary,
        title: e.title,
        participants: e
            .participants
            .into_iter()
            .map(|p| ExplainedParticipant {
                name: p.name,
                alias: p.alias,
                kind: p.kind.keyword().to_string(),
                declared_line: p.declared_line,
                messages_sent: p.messages_sent,
                messages_received: p.messages_received,
            })
            .collect(),
        flow: e
            .flow
            .into_iter()
            .map(|f| FlowStep {
                number: f.number,
                line: f.line,
                from: f.from,
                to: f.to,
                label: f.label,
                arrow_kind: f.arrow_kind.as_str().to_string(),
                group_path: f.group_path,
            })
            .collect(),
        groups: e
            .groups
            .into_iter()
            .map(|g| ExplainedGroup {
                kind: g.kind.keyword().to_string(),
                label: g.label,
                line: g.line,
                depth: g.depth,
                branches: g
                    .branches
                    .into_iter()
                    .map(|b| ExplainedBranch {
                        label: b.label,
                        line: b.line,
                        messages: b.messages,
                    })
                    .collect(),
            })
            .collect(),
        notes: e
            .notes
            .into_iter()
            .map(|n| ExplainedNote {
                line: n.line,
                position: n.position,
                participants: n.participants,
                text: n.text,
            })
            .collect(),
        diagnostics: wire::diagnostics(&report.diagnostics),
        has_errors: !report.ok(),
    })
}

pub struct Linted {
    pub findings: Vec<crate::tools::Finding>,
    pub diagnostics: Vec<Diagnostic>,
    pub has_errors: bool,
}

pub fn lint(text: &str, options: &CheckOptions, sources: Sources<'_>) -> Result<Linted, ToolFailure> {
    let (raw, report) = sources.run(text, options, |analysis, file| {
        Ok((
            analysis.lint(file, &puml_ide::lint::LintOptions::default())?,
            analysis.check(file)?,
        ))
    });
    let findings = located(text, &raw)
        .into_iter()
        .map(|d| crate::tools::Finding {
            severity: match d.severity {
                wire::Severity::Error => "error",
                wire::Severity::Warning => "warning",
                wire::Severity::Info => "info",
            }
            .to_string(),
            code: d.code,
            message: d.message,
            span: d.range,
            fixes: d.fixes,
        })
        .collect();
    Ok(Linted {
        findings,
        diagnostics: wire::diagnostics(&report.diagnostics),
        has_errors: !report.ok(),
    })
}

/// A Markdown description of a theme: its intent, how to use it, and its
/// palette as the renderer resolves it.
pub fn theme_markdown(name: &str) -> String {
    let intent = match name {
        "dark" => "Light text and lines on a dark background, for dark-mode documentation and slides.",
        "minimal" => "Quiet black-and-white lines with little decoration, for dense technical docs.",
        _ => "puml's default look: PlantUML-like colors, readable on white pages.",
    };
    // Only a theme PlantUML ships may be named in the source: PlantUML
    // rejects `!theme` with any other name ("Cannot load theme").
    let in_source = puml_ide::render::PLANTUML_THEMES.contains(&name);
    let usage = if in_source {
        format!("Use it with `!theme {name}` right after `@startuml`, or pass `theme: \"{name}\"` to puml_render_svg / puml_export.")
    } else {
        format!("Pass `theme: \"{name}\"` to puml_render_svg / puml_export (or `puml render --theme {name}`). Do not write `!theme {name}` in the source: PlantUML has no theme of that name and rejects the diagram.")
    };
    let mut out = format!(
        "# Theme `{name}`\n\n{intent}\n\n{usage} Other themes: {}.\n",
        puml_ide::render::THEME_NAMES.join(", ")
    );
    if let Some(theme) = puml_layout::Theme::named(name) {
        out.push_str("\n| element | color |\n| --- | --- |\n");
        let rows = [
            ("background", theme.background),
            ("text", theme.font_color),
            ("participant fill", theme.participant_bg),
            ("participant border", theme.participant_border),
            ("lifeline", theme.lifeline_color),
            ("activation", theme.activation_bg),
            ("arrow", theme.arrow_color),
            ("arrow label", theme.arrow_font_color),
            ("note fill", theme.note_bg),
            ("note border", theme.note_border),
            ("group border", theme.group_border),
            ("group header", theme.group_header_bg),
        ];
        for (element, color) in rows {
            out.push_str(&format!("| {element} | `{}` |\n", color.to_hex()));
        }
    }
    let directive = if in_source {
        format!("!theme {name}\n")
    } else {
        String::new()
    };
    out.push_str(&format!(
        "\n```plantuml\n@startuml\n{directive}Alice -> Bob : request\nBob --> Alice : response\n@enduml\n```\n"
    ));
    out
}
