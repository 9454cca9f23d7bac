//! The six validation rules of seed 001, as diagnostics located on the
//! note or statement that breaks them (byte ranges of the diagram text; a
//! workflow read from JSON has no text and its diagnostics name the node).

use super::annotation::closest;
use super::codes;
use super::import::{diag, find_in, note_line, NodeSource, WorkflowImport};
use super::model::{NodeType, Workflow};
use puml_syntax::{Diagnostic, Fix, Severity, TextEdit, TextRange};
use std::collections::{HashMap, HashSet};

/// The prompt templates that exist (rule 3).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TemplateRegistry {
    pub ids: Vec<String>,
}

pub const OPERATORS: [&str; 8] = ["==", "!=", ">", "<", ">=", "<=", "contains", "matches"];

/// A `{{name}}`, `{{node.output}}` or `$NAME` reference in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// As written: `{{quality.feedback}}`, `$VAR`.
    pub written: String,
    /// `quality.feedback`, `VAR`.
    pub path: String,
}

pub fn references(text: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(['{', '$']) {
        let tail = &rest[i..];
        if let Some(inner) = tail.strip_prefix("{{") {
            if let Some(end) = inner.find("}}") {
                let path = inner[..end].trim();
                if !path.is_empty()
                    && path
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '-')
                {
                    out.push(Reference {
                        written: tail[..end + 4].to_string(),
                        path: path.to_string(),
                    });
                }
                rest = &inner[end + 2..];
                continue;
            }
        } else if let Some(name) = tail.strip_prefix('$') {
            let len = name
                .char_indices()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '.'))
                .map_or(name.len(), |(k, _)| k);
            let path = name[..len].trim_end_matches('.');
            if path.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
                out.push(Reference {
                    written: format!("${path}"),
                    path: path.to_string(),
                });
            }
            rest = &name[len..];
            continue;
        }
        rest = &tail[1..];
    }
    out
}

/// Rules 1–6 over an imported (or JSON-read) workflow. `text` is the
/// diagram's text when there is one.
pub fn validate(import: &WorkflowImport, text: &str, registry: Option<&TemplateRegistry>) -> Vec<Diagnostic> {
    let wf = &import.workflow;
    let mut out = Vec::new();
    let source = |i: usize| import.sources.get(i).copied().unwrap_or_default();
    let index: HashMap<&str, usize> = wf.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut structure = Vec::new();
    let mut seen = HashSet::new();
    for n in &wf.nodes {
        if !seen.insert(n.id.as_str()) {
            structure.push(format!("two nodes have the id `{}`", n.id));
        }
    }
    for e in &wf.edges {
        for end in [&e.source, &e.target] {
            if !index.contains_key(end.as_str()) {
                structure.push(format!(
                    "the edge {} → {} names an unknown node `{end}`",
                    e.source, e.target
                ));
            }
        }
    }
    if !structure.is_empty() {
        return structure
            .into_iter()
            .map(|m| diag(codes::BAD_JSON, Severity::Error, m, TextRange::default()))
            .collect();
    }
    let n = wf.nodes.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &wf.edges {
        preds[index[e.target.as_str()]].push(index[e.source.as_str()]);
    }
    // Upstream of each node: every node with a path to it (loops included:
    // a loop's later outputs are there on the next round).
    let upstream = |node: usize| -> Vec<usize> {
        let mut seen = vec![false; n];
        let mut todo = preds[node].clone();
        let mut out = Vec::new();
        while let Some(p) = todo.pop() {
            if !seen[p] {
                seen[p] = true;
                out.push(p);
                todo.extend(preds[p].iter().copied());
            }
        }
        out
    };
    let variables: Vec<&str> = wf.variables.iter().map(|v| v.name.as_str()).collect();
    let at = |i: usize, needle: &str| -> TextRange {
        let s: NodeSource = source(i);
        s.note
            .and_then(|r| find_in(text, r, needle))
            .or_else(|| find_in(text, s.statement, needle))
            .unwrap_or(s.statement)
    };

    // Rule 1: every reference has a source.
    for (i, node) in wf.nodes.iter().enumerate() {
        let d = &node.data;
        let texts: Vec<&str> = match node.node_type {
            NodeType::PromptBlock | NodeType::Router => [d.input.as_deref(), d.template.as_deref()]
                .into_iter()
                .flatten()
                .collect(),
            NodeType::Condition | NodeType::Evaluator => d.expression.as_deref().into_iter().collect(),
            _ => Vec::new(),
        };
        if texts.is_empty() {
            continue;
        }
        let up = upstream(i);
        let mut defined: Vec<&str> = variables.clone();
        defined.push("input");
        defined.extend(up.iter().filter_map(|&u| wf.nodes[u].data.output.as_deref()));
        let up_ids: Vec<&str> = up.iter().map(|&u| wf.nodes[u].id.as_str()).collect();
        let mut reported = HashSet::new();
        for text_field in texts {
            for r in references(text_field) {
                let head = r.path.split('.').next().unwrap_or("");
                let ok = defined.contains(&head) || (r.path.contains('.') && up_ids.contains(&head));
                if ok || !reported.insert(r.written.clone()) {
                    continue;
                }
                let range = at(i, &r.written);
                let mut dg = diag(
                    codes::UNDEFINED_VARIABLE,
                    Severity::Error,
                    format!(
                        "`{}` in `{}` has no source: no input variable and no upstream output is named `{head}`",
                        r.written, node.id
                    ),
                    range,
                );
                if let Some(c) = closest(head, defined.iter().copied()) {
                    let fixed = r.written.replacen(head, c, 1);
                    dg.message.push_str(&format!(" (did you mean `{c}`?)"));
                    if !text.is_empty() && range != source(i).statement {
                        dg.fixes.push(Fix {
                            title: format!("write `{fixed}`"),
                            edits: vec![TextEdit::replace(range, fixed)],
                            machine_applicable: true,
                        });
                    }
                }
                out.push(dg);
            }
        }
    }

    // Rule 2: swimlane names are unique.
    let mut declared: HashMap<String, (Option<String>, TextRange)> = HashMap::new();
    for lane in &import.lanes {
        let Some(color) = &lane.color else { continue };
        match declared.get(&lane.code) {
            Some((first_color, first)) => {
                let same = first_color.as_deref() == Some(color.as_str());
                let mut dg = diag(
                    codes::DUPLICATE_SWIMLANE,
                    Severity::Error,
                    format!(
                        "swimlane `{}` is declared twice{}: each agent needs one swimlane",
                        lane.code,
                        if same { "" } else { " with different colours" }
                    ),
                    lane.range,
                );
                dg.related.push(puml_syntax::diagnostic::Related {
                    file: None,
                    range: *first,
                    message: "first declared here".to_string(),
                });
                dg.fixes.push(Fix {
                    title: format!("keep the first declaration: write `|{}|`", lane.code),
                    edits: vec![TextEdit::replace(lane.range, format!("|{}|", lane.code))],
                    machine_applicable: same,
                });
                out.push(dg);
            }
            None => {
                declared.insert(lane.code.clone(), (Some(color.clone()), lane.range));
            }
        }
    }
    let mut names: HashMap<String, &str> = HashMap::new();
    for (k, agent) in wf.agents.iter().enumerate() {
        let key = agent.name.to_lowercase();
        if let Some(other) = names.get(&key) {
            let range = import
                .lanes
                .iter()
                .find(|l| l.code == agent.name)
                .map(|l| l.range)
                .unwrap_or_default();
            let dup_decl = out
                .iter()
                .any(|d| d.code == codes::DUPLICATE_SWIMLANE && d.range == range && range != TextRange::default());
            if !dup_decl {
                out.push(diag(
                    codes::DUPLICATE_SWIMLANE,
                    Severity::Error,
                    if *other == agent.name {
                        format!("agent `{}` is listed twice (agents[{k}])", agent.name)
                    } else {
                        format!(
                            "swimlanes `{other}` and `{}` differ only in case: agents would be ambiguous",
                            agent.name
                        )
                    },
                    range,
                ));
            }
        } else {
            names.insert(key, agent.name.as_str());
        }
    }

    // Rule 3: templates exist in the registry.
    let template_id = |t: &str| !t.contains(char::is_whitespace) && !t.contains("{{") && !t.is_empty();
    let referenced: Vec<usize> = (0..n)
        .filter(|&i| wf.nodes[i].data.template.as_deref().is_some_and(template_id))
        .collect();
    match registry {
        None => {
            if let Some(&first) = referenced.first() {
                out.push(diag(
                    codes::TEMPLATES_NOT_CHECKED,
                    Severity::Info,
                    format!(
                        "{} template reference(s) not checked: no template registry was given (--templates DIR|FILE.json)",
                        referenced.len()
                    ),
                    source(first).note.map(|r| note_line(text, r, 0)).unwrap_or(source(first).statement),
                ));
            }
        }
        Some(registry) => {
            for &i in &referenced {
                let t = wf.nodes[i].data.template.as_deref().unwrap_or("");
                if registry.ids.iter().any(|id| id == t) {
                    continue;
                }
                let range = at(i, &format!("template: {t}"));
                let mut dg = diag(
                    codes::UNKNOWN_TEMPLATE,
                    Severity::Error,
                    format!("template `{t}` of `{}` is not in the template registry", wf.nodes[i].id),
                    range,
                );
                if let Some(c) = closest(t, registry.ids.iter().map(String::as_str)) {
                    dg.message.push_str(&format!(" (did you mean `{c}`?)"));
                    if range != source(i).statement {
                        dg.fixes.push(Fix {
                            title: format!("use template `{c}`"),
                            edits: vec![TextEdit::replace(range, format!("template: {c}"))],
                            machine_applicable: true,
                        });
                    }
                }
                out.push(dg);
            }
        }
    }

    // Rule 4: conditions use the supported operators.
    for (i, node) in wf.nodes.iter().enumerate() {
        if !matches!(node.node_type, NodeType::Condition | NodeType::Evaluator) {
            continue;
        }
        let expr = node
            .data
            .expression
            .clone()
            .unwrap_or_else(|| super::import::expression(&node.data.label));
        let ops = operators(&expr);
        if ops.is_empty() {
            out.push(diag(
                codes::UNSUPPORTED_OPERATOR,
                Severity::Warning,
                format!(
                    "condition `{expr}` of `{}` uses no operator; write a comparison with one of {}",
                    node.id,
                    OPERATORS.join(" ")
                ),
                source(i).statement,
            ));
        }
        for op in ops {
            if OPERATORS.contains(&op.as_str()) {
                continue;
            }
            let replacement = match op.as_str() {
                "=" | "===" => Some("=="),
                "!==" | "<>" => Some("!="),
                "=>" => Some(">="),
                "=<" => Some("<="),
                "=~" | "~=" | "~" => Some("matches"),
                _ => None,
            };
            let range = find_in(text, source(i).statement, &format!(" {op} "))
                .map(|r| {
                    TextRange::at(
                        r.start() + puml_syntax::TextSize::from(1),
                        puml_syntax::TextSize::of(op.as_str()),
                    )
                })
                .or_else(|| find_in(text, source(i).statement, &op))
                .unwrap_or(source(i).statement);
            let mut dg = diag(
                codes::UNSUPPORTED_OPERATOR,
                Severity::Error,
                format!(
                    "operator `{op}` in condition `{expr}` is not supported; the operators are {}",
                    OPERATORS.join(" ")
                ),
                range,
            );
            if let Some(r) = replacement {
                dg.message.push_str(&format!(" (did you mean `{r}`?)"));
                if range != source(i).statement {
                    dg.fixes.push(Fix {
                        title: format!("write `{r}`"),
                        edits: vec![TextEdit::replace(range, r)],
                        machine_applicable: true,
                    });
                }
            }
            out.push(dg);
        }
    }

    // Rule 5: aggregator inputs come from upstream.
    for (i, node) in wf.nodes.iter().enumerate() {
        if node.node_type != NodeType::Aggregator {
            continue;
        }
        let up = upstream(i);
        let mut defined: Vec<&str> = up.iter().filter_map(|&u| wf.nodes[u].data.output.as_deref()).collect();
        defined.extend(variables.iter().copied());
        let inputs_line = source(i).note.and_then(|r| find_in(text, r, "inputs:")).map(|r| {
            // The rest of the `inputs:` line.
            let end = text[usize::from(r.start())..]
                .find('\n')
                .map_or(text.len(), |k| usize::from(r.start()) + k);
            TextRange::new(r.start(), puml_syntax::TextSize::from(end as u32))
        });
        for input in &node.data.inputs {
            if defined.contains(&input.as_str()) {
                continue;
            }
            let range = inputs_line
                .and_then(|l| find_in(text, l, input))
                .unwrap_or(source(i).note.unwrap_or(source(i).statement));
            let mut dg = diag(
                codes::AGGREGATOR_INPUT,
                Severity::Error,
                format!(
                    "aggregator `{}` input `{input}` is not an output of any step upstream of it",
                    node.id
                ),
                range,
            );
            if let Some(c) = closest(input, defined.iter().copied()) {
                dg.message.push_str(&format!(" (did you mean `{c}`?)"));
                if inputs_line.is_some() {
                    dg.fixes.push(Fix {
                        title: format!("use `{c}`"),
                        edits: vec![TextEdit::replace(range, c)],
                        machine_applicable: true,
                    });
                }
            }
            out.push(dg);
        }
    }

    // Rule 6: no cycle but an evaluator's loop.
    let mut indegree = vec![0usize; n];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &wf.edges {
        let (s, t) = (index[e.source.as_str()], index[e.target.as_str()]);
        if e.source_handle == "loop" && wf.nodes[s].node_type == NodeType::Evaluator {
            continue;
        }
        succ[s].push(t);
        indegree[t] += 1;
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut done = 0;
    while let Some(i) = ready.pop() {
        done += 1;
        for &t in &succ[i] {
            indegree[t] -= 1;
            if indegree[t] == 0 {
                ready.push(t);
            }
        }
    }
    if done < n {
        // Left over: the cycles and what follows them; keep the nodes that
        // lead back to themselves.
        let left: Vec<bool> = indegree.iter().map(|&d| d > 0).collect();
        let on_cycle = |start: usize| {
            let mut seen = vec![false; n];
            let mut todo: Vec<usize> = succ[start].iter().copied().filter(|&t| left[t]).collect();
            while let Some(i) = todo.pop() {
                if i == start {
                    return true;
                }
                if !seen[i] {
                    seen[i] = true;
                    todo.extend(succ[i].iter().copied().filter(|&t| left[t]));
                }
            }
            false
        };
        let stuck: Vec<usize> = (0..n).filter(|&i| left[i] && on_cycle(i)).collect();
        let names: Vec<&str> = stuck.iter().map(|&i| wf.nodes[i].id.as_str()).collect();
        out.push(diag(
            codes::CYCLE,
            Severity::Error,
            format!(
                "circular dependency through {}: only a repeat/while evaluator may loop back (its `loop` edge)",
                names.join(", ")
            ),
            stuck.first().map(|&i| source(i).statement).unwrap_or_default(),
        ));
    }
    out.sort_by_key(|d| (d.range.start(), d.code));
    out
}

/// The operator-like tokens of a condition, quoted strings skipped.
pub fn operators(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if "=!<>&|~".contains(c) {
            let start = i;
            while i < chars.len() && "=!<>&|~".contains(chars[i]) {
                i += 1;
            }
            let op: String = chars[start..i].iter().collect();
            // A lone `!` is a negation, not a comparison.
            if op != "!" {
                out.push(op);
            }
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let before = start.checked_sub(1).map(|k| chars[k]);
            let standalone = before.is_none_or(|b| b == ' ');
            if standalone && ["contains", "matches", "and", "or", "AND", "OR"].contains(&word.as_str()) {
                out.push(word);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// A workflow read from JSON has no text: its diagnostics carry empty ranges.
pub fn validate_workflow(workflow: &Workflow, registry: Option<&TemplateRegistry>) -> Vec<Diagnostic> {
    let import = WorkflowImport {
        workflow: workflow.clone(),
        ..WorkflowImport::default()
    };
    validate(&import, "", registry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_and_operators() {
        let refs: Vec<String> = references("{{code}}, {{quality.feedback}} $VAR costs $5 {{ x }}")
            .into_iter()
            .map(|r| r.path)
            .collect();
        assert_eq!(refs, ["code", "quality.feedback", "VAR", "x"]);
        assert_eq!(operators("$text contains \"a == b\""), ["contains"]);
        assert_eq!(operators("a = 1 and b <> 2"), ["=", "and", "<>"]);
        assert_eq!(operators("evaluation.pass == false"), ["=="]);
    }
}
