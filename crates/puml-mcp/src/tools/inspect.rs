//! Read-only inspection tools: `puml_parse`, `puml_check`, `puml_list_primitives`.

use super::{check_options, load_source, sources, McpTool, Reply, ToolContext, ToolFailure};
use crate::wire::{self, Diagnostic, Summary};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A diagram given inline or by a workspace-relative path.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathOrSource {
    /// The diagram source text (`@startuml … @enduml`). Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file (.puml/.plantuml/.pu/.iuml), relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ParseOutput {
    pub ok: bool,
    /// The lossless syntax tree: nodes `{kind, range:[start,end], children}`, tokens `{kind, range, text}`; byte offsets.
    pub ast: serde_json::Value,
    /// Syntax errors only (no semantic checks; use puml_check for those).
    pub diagnostics: Vec<Diagnostic>,
}

pub struct Parse;

impl McpTool for Parse {
    const NAME: &'static str = "puml_parse";
    const TITLE: &'static str = "Parse a diagram";
    const DESCRIPTION: &'static str = "Parse PlantUML sequence-diagram source and return its lossless syntax tree and syntax errors. Does not normalize, check semantics or render; use puml_check to validate.";
    type Input = PathOrSource;
    type Output = ParseOutput;

    fn run(ctx: &ToolContext, input: PathOrSource) -> Result<Reply<ParseOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let parse = sources(ctx).run(&loaded.text, &Default::default(), |analysis, file| analysis.parse(file));
        let index = puml_syntax::LineIndex::new(&loaded.text);
        let located: Vec<_> = parse
            .errors()
            .iter()
            .map(|d| puml_ide::check::locate(&loaded.text, &index, d, &[]))
            .collect();
        let diagnostics = wire::diagnostics(&located);
        let (ast, elements, truncated) = syntax_tree_json(&parse.syntax(), AST_ELEMENT_BUDGET);
        let ok = !diagnostics.iter().any(|d| d.severity == wire::Severity::Error);
        let mut summary = format!(
            "parsed {elements} syntax elements; {} syntax diagnostics",
            diagnostics.len()
        );
        if truncated {
            summary.push_str(&format!(
                "; the tree is cut after {AST_ELEMENT_BUDGET} elements (output size limit)"
            ));
        }
        if !diagnostics.is_empty() {
            summary.push('\n');
            summary.push_str(&wire::diagnostics_text(&diagnostics));
        }
        Ok(Reply::new(ParseOutput { ok, ast, diagnostics }, ok, summary))
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> ParseOutput {
        ParseOutput {
            ok: false,
            ast: serde_json::json!({}),
            diagnostics,
        }
    }
}

/// At most this many nodes and tokens go into a returned tree.
const AST_ELEMENT_BUDGET: usize = 20_000;

/// The syntax tree as JSON, built without recursion. Returns the tree, the
/// number of elements written and whether the budget cut it.
pub fn syntax_tree_json(root: &puml_syntax::SyntaxNode, budget: usize) -> (serde_json::Value, usize, bool) {
    use puml_syntax::SyntaxElement;
    fn node_json(node: &puml_syntax::SyntaxNode) -> serde_json::Map<String, serde_json::Value> {
        let range = node.text_range();
        let mut map = serde_json::Map::new();
        map.insert("kind".into(), format!("{:?}", node.kind()).into());
        map.insert(
            "range".into(),
            serde_json::json!([u32::from(range.start()), u32::from(range.end())]),
        );
        map
    }
    // Each frame: the node's JSON map, its children so far, and the iterator over its children.
    let mut stack = vec![(node_json(root), Vec::new(), root.children_with_tokens())];
    let mut count = 1usize;
    let mut truncated = false;
    while let Some(next) = stack.last_mut().map(|frame| frame.2.next()) {
        match next {
            Some(_) if count >= budget => {
                truncated = true;
                // Drain this level: stop descending anywhere.
                if let Some((_, _, children)) = stack.last_mut() {
                    for _ in children.by_ref() {}
                }
            }
            Some(SyntaxElement::Node(node)) => {
                count += 1;
                stack.push((node_json(&node), Vec::new(), node.children_with_tokens()));
            }
            Some(SyntaxElement::Token(token)) => {
                count += 1;
                let range = token.text_range();
                let json = serde_json::json!({
                    "kind": format!("{:?}", token.kind()),
                    "range": [u32::from(range.start()), u32::from(range.end())],
                    "text": token.text(),
                });
                if let Some((_, kids, _)) = stack.last_mut() {
                    kids.push(json);
                }
            }
            None => {
                let Some((mut map, kids, _)) = stack.pop() else { break };
                map.insert("children".into(), serde_json::Value::Array(kids));
                let value = serde_json::Value::Object(map);
                match stack.last_mut() {
                    Some((_, parent_kids, _)) => parent_kids.push(value),
                    None => {
                        let mut value = value;
                        if truncated {
                            value["truncated"] = true.into();
                        }
                        return (value, count, truncated);
                    }
                }
            }
        }
    }
    (serde_json::json!({}), count, truncated)
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInput {
    /// The diagram source text. Give exactly one of `source` and `path`.
    pub source: Option<String>,
    /// A diagram file relative to the workspace root. Give exactly one of `source` and `path`.
    pub path: Option<String>,
    /// Directory (inside the workspace) that `!include` may read from; default: the file's directory, or the workspace root.
    #[serde(rename = "includeRoot")]
    pub include_root: Option<String>,
    /// Accept `!include` of http(s) URLs syntactically. The server never fetches them: each is reported as a diagnostic.
    pub allow_url_includes: Option<bool>,
    /// Apply every machine-applicable fix (repeatedly, until none is left) and return the repaired source in `fixed_source`; the diagnostics are then the repaired source's. Never writes a file.
    pub fix: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckOutput {
    /// True when the source has no errors (warnings allowed).
    pub ok: bool,
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Summary,
    /// With `fix: true`: the repaired source (the input itself when no fix applied).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_source: Option<String>,
    /// With `fix: true`: how many fixes were applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixes_applied: Option<usize>,
}

pub struct Check;

impl McpTool for Check {
    const NAME: &'static str = "puml_check";
    const TITLE: &'static str = "Check a diagram";
    const DESCRIPTION: &'static str = "Parse, preprocess and check a PlantUML sequence diagram; return every diagnostic (with fixes) and a summary. This is the mandatory validation step: repair until ok is true before presenting or rendering a diagram.";
    type Input = CheckInput;
    type Output = CheckOutput;

    fn run(ctx: &ToolContext, input: CheckInput) -> Result<Reply<CheckOutput>, ToolFailure> {
        let loaded = load_source(ctx, input.source, input.path)?;
        let options = check_options(ctx, &loaded, input.include_root.as_deref(), input.allow_url_includes)?;
        let (report, fixed) = if input.fix == Some(true) {
            let outcome = sources(ctx).run(&loaded.text, &options, |analysis, file| analysis.fix_all(file));
            let report = sources(ctx).check(&outcome.source, &options);
            (report, Some((outcome.source, outcome.applied)))
        } else {
            (sources(ctx).check(&loaded.text, &options), None)
        };
        let ok = report.ok();
        let summary = Summary::from(&report);
        let diagnostics = wire::diagnostics(&report.diagnostics);
        let mut text = if ok {
            format!(
                "ok: {} diagram(s), {} participant(s), {} event(s), {} page(s); {} warning(s)",
                summary.diagrams, summary.participants, summary.events, summary.pages, summary.warnings
            )
        } else {
            format!(
                "invalid: {} error(s), {} warning(s); repair and check again",
                summary.errors, summary.warnings
            )
        };
        if let Some((_, applied)) = &fixed {
            text.push_str(&format!(
                " (after {applied} fix(es); the repaired source is in fixed_source)"
            ));
        }
        if !diagnostics.is_empty() {
            text.push('\n');
            text.push_str(&wire::diagnostics_text(&diagnostics));
        }
        let (fixed_source, fixes_applied) = fixed.map_or((None, None), |(s, n)| (Some(s), Some(n)));
        Ok(Reply::new(
            CheckOutput {
                ok,
                diagnostics,
                summary,
                fixed_source,
                fixes_applied,
            },
            ok,
            text,
        ))
    }

    fn failure(diagnostics: Vec<Diagnostic>) -> CheckOutput {
        let errors = diagnostics.len();
        CheckOutput {
            ok: false,
            diagnostics,
            summary: Summary {
                errors,
                ..Summary::default()
            },
            fixed_source: None,
            fixes_applied: None,
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoInput {}

/// One supported syntax primitive.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Primitive {
    pub name: String,
    /// Compact notation: `[x]` optional, `a|b` a choice.
    pub syntax: String,
    pub meaning: String,
    /// A diagram body showing it (valid between `@startuml` and `@enduml`).
    pub example: String,
}

#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct PrimitivesOutput {
    pub participants: Vec<Primitive>,
    pub arrows: Vec<Primitive>,
    pub notes: Vec<Primitive>,
    pub groups: Vec<Primitive>,
    pub lifecycle: Vec<Primitive>,
    pub styling: Vec<Primitive>,
    pub preprocessor: Vec<Primitive>,
    pub layout: Vec<Primitive>,
    /// Activity diagrams (PlantUML's new activity syntax).
    pub activity: Vec<Primitive>,
}

pub struct ListPrimitives;

impl McpTool for ListPrimitives {
    const NAME: &'static str = "puml_list_primitives";
    const TITLE: &'static str = "List supported syntax";
    const DESCRIPTION: &'static str = "The catalog of sequence- and activity-diagram syntax puml supports, by category (participants, arrows, notes, groups, lifecycle, styling, preprocessor, layout, activity), each with syntax, meaning and a valid example. Use it instead of guessing syntax.";
    type Input = NoInput;
    type Output = PrimitivesOutput;

    fn run(_ctx: &ToolContext, _input: NoInput) -> Result<Reply<PrimitivesOutput>, ToolFailure> {
        use puml_ide::primitives::Category;
        let mut out = PrimitivesOutput::default();
        for primitive in puml_ide::primitives::catalog() {
            let item = Primitive {
                name: primitive.name.to_string(),
                syntax: primitive.syntax.to_string(),
                meaning: primitive.meaning.to_string(),
                example: primitive.example.to_string(),
            };
            let list = match primitive.category {
                Category::Participants => &mut out.participants,
                Category::Arrows => &mut out.arrows,
                Category::Notes => &mut out.notes,
                Category::Groups => &mut out.groups,
                Category::Lifecycle => &mut out.lifecycle,
                Category::Styling => &mut out.styling,
                Category::Preprocessor => &mut out.preprocessor,
                Category::Layout => &mut out.layout,
                Category::Activity => &mut out.activity,
            };
            list.push(item);
        }
        let summary = format!(
            "{} primitives; full reference with examples: resource puml://syntax/spec",
            puml_ide::primitives::catalog().len()
        );
        Ok(Reply::new(out, true, summary))
    }

    fn failure(_diagnostics: Vec<Diagnostic>) -> PrimitivesOutput {
        PrimitivesOutput::default()
    }
}
