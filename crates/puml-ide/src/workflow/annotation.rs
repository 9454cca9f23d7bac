//! Annotation notes (seed 001): a PlantUML note whose first line is
//! `<<prompt>>`, `<<router>>`, `<<aggregator>>` or `<<input>>`, followed by
//! YAML. The YAML is read by `saphyr` (a maintained YAML 1.2 library); this
//! module only checks the fields each kind needs.
//!
//! One leniency, because the seed writes it everywhere: `input: {{code}}`
//! is not a string in YAML (`{` opens a flow mapping), so a `key:` whose
//! plain value starts with `{{` is quoted before the YAML is read. The
//! line count stays the same, so error lines still point into the note.
//! A second one: the seed's multi-line `outputSchema: {` closes its JSON
//! with a `}` under the key, which YAML reads as leaving the mapping; the
//! lines of a flow collection that spans lines are indented two more.

use super::codes;
use super::json::JsonValue;
use super::model::{NodeData, Route, Variable};
use puml_syntax::Severity;
use saphyr::{LoadableYamlNode, Scalar, Yaml};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnnotationKind {
    Prompt,
    Router,
    Aggregator,
    Input,
}

impl AnnotationKind {
    pub const ALL: [AnnotationKind; 4] = [
        AnnotationKind::Prompt,
        AnnotationKind::Router,
        AnnotationKind::Aggregator,
        AnnotationKind::Input,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            AnnotationKind::Prompt => "prompt",
            AnnotationKind::Router => "router",
            AnnotationKind::Aggregator => "aggregator",
            AnnotationKind::Input => "input",
        }
    }

    fn fields(self) -> &'static [&'static str] {
        match self {
            AnnotationKind::Prompt => &[
                "template",
                "input",
                "output",
                "outputMode",
                "outputSchema",
                "retries",
                "timeout",
            ],
            AnnotationKind::Router => &["template", "input", "output", "routes", "retries", "timeout"],
            AnnotationKind::Aggregator => &["strategy", "inputs", "output", "separator"],
            AnnotationKind::Input => &["variables"],
        }
    }

    fn required(self) -> &'static [&'static str] {
        match self {
            AnnotationKind::Prompt => &["template", "input", "output"],
            AnnotationKind::Router => &["template", "input", "routes"],
            AnnotationKind::Aggregator => &["strategy", "inputs", "output"],
            AnnotationKind::Input => &["variables"],
        }
    }
}

pub const OUTPUT_MODES: [&str; 5] = ["full", "json", "jsonpath", "regex", "first_line"];
pub const STRATEGIES: [&str; 5] = ["concatenate", "merge", "array", "first", "vote"];

/// An annotation read from a note: the node fields it sets (prompt, router,
/// aggregator) or the workflow's input variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    pub kind: AnnotationKind,
    pub data: NodeData,
    pub variables: Vec<Variable>,
}

/// A problem in a note, located by its 0-based line in the note's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteProblem {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub line: usize,
    /// The text on `line` to replace and its replacement, when the intent is clear.
    pub fix: Option<(String, String)>,
}

/// Reads one note. `(None, [])`: an ordinary note, no annotation.
pub fn parse_note(text: &str) -> (Option<Annotation>, Vec<NoteProblem>) {
    let mut problems = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let Some(first) = lines.iter().position(|l| !l.trim().is_empty()) else {
        return (None, problems);
    };
    let head = lines[first].trim();
    let Some(name) = head.strip_prefix("<<").and_then(|h| h.strip_suffix(">>")) else {
        return (None, problems);
    };
    let name = name.trim();
    let Some(kind) = AnnotationKind::ALL.into_iter().find(|k| k.keyword() == name) else {
        let closest = closest(name, AnnotationKind::ALL.iter().map(|k| k.keyword()));
        let future = ["include", "onError", "metrics", "approval"].contains(&name);
        problems.push(NoteProblem {
            code: codes::UNKNOWN_ANNOTATION,
            severity: Severity::Error,
            message: format!(
                "unknown annotation `<<{name}>>`{}: expected <<prompt>>, <<router>>, <<aggregator>> or <<input>>",
                if future {
                    " (a future extension of the workflow schema)"
                } else {
                    ""
                }
            ),
            line: first,
            fix: closest.map(|c| (format!("<<{name}>>"), format!("<<{c}>>"))),
        });
        return (None, problems);
    };
    // The YAML: everything after the `<<kind>>` line, same line numbers.
    let mut body = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i > first {
            body.push_str(line);
        }
        body.push('\n');
    }
    let body = quote_template_values(&body);
    let yaml = match Yaml::load_from_str(&body) {
        Ok(docs) => docs.into_iter().next().unwrap_or(Yaml::Value(Scalar::Null)),
        Err(error) => {
            let line = error
                .marker()
                .line()
                .saturating_sub(1)
                .min(lines.len().saturating_sub(1));
            problems.push(NoteProblem {
                code: codes::BAD_YAML,
                severity: Severity::Error,
                message: format!("the <<{name}>> annotation is not valid YAML: {}", error.info()),
                line,
                fix: None,
            });
            return (None, problems);
        }
    };
    let line_of = |key: &str| -> usize {
        lines
            .iter()
            .enumerate()
            .skip(first + 1)
            .find(|(_, l)| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with(':'))
            })
            .map_or(first, |(i, _)| i)
    };
    let mut fields: Vec<(String, &Yaml)> = Vec::new();
    match &yaml {
        Yaml::Mapping(map) => {
            for (k, v) in map {
                fields.push((scalar_text(k).unwrap_or_default(), v));
            }
        }
        Yaml::Value(Scalar::Null) => {}
        _ => {
            problems.push(NoteProblem {
                code: codes::BAD_YAML,
                severity: Severity::Error,
                message: format!("the <<{name}>> annotation must be `field: value` lines"),
                line: (first + 1).min(lines.len().saturating_sub(1)),
                fix: None,
            });
            return (None, problems);
        }
    }
    let get = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
    for (key, _) in &fields {
        if !kind.fields().contains(&key.as_str()) {
            let closest = closest(key, kind.fields().iter().copied());
            problems.push(NoteProblem {
                code: codes::UNKNOWN_FIELD,
                severity: Severity::Warning,
                message: format!(
                    "<<{name}>> has no field `{key}` (it is ignored); its fields are {}",
                    kind.fields().join(", ")
                ),
                line: line_of(key),
                fix: closest.map(|c| (format!("{key}:"), format!("{c}:"))),
            });
        }
    }
    let mut missing = Vec::new();
    for key in kind.required() {
        if get(key).is_none_or(|v| matches!(v, Yaml::Value(Scalar::Null))) {
            missing.push(*key);
        }
    }
    if !missing.is_empty() {
        problems.push(NoteProblem {
            code: codes::MISSING_FIELD,
            severity: Severity::Error,
            message: format!(
                "<<{name}>> needs {} `{}`",
                if missing.len() == 1 { "the field" } else { "the fields" },
                missing.join("`, `")
            ),
            line: first,
            fix: None,
        });
    }
    let bad = |key: &str, expected: &str, problems: &mut Vec<NoteProblem>| {
        problems.push(NoteProblem {
            code: codes::BAD_FIELD,
            severity: Severity::Error,
            message: format!("<<{name}>> field `{key}`: expected {expected}"),
            line: line_of(key),
            fix: None,
        });
    };
    let text_field = |key: &str, problems: &mut Vec<NoteProblem>| -> Option<String> {
        let value = get(key)?;
        match value {
            Yaml::Value(Scalar::Null) => None,
            v => match scalar_text(v) {
                Some(s) => Some(s),
                None => {
                    bad(key, "text", problems);
                    None
                }
            },
        }
    };
    let mut data = NodeData::default();
    let mut variables = Vec::new();
    match kind {
        AnnotationKind::Prompt | AnnotationKind::Router => {
            data.template = text_field("template", &mut problems);
            data.input = text_field("input", &mut problems);
            data.output = text_field("output", &mut problems);
            data.output_mode = text_field("outputMode", &mut problems);
            if let Some(mode) = &data.output_mode {
                if !OUTPUT_MODES.contains(&mode.as_str()) {
                    let fix = closest(mode, OUTPUT_MODES.iter().copied()).map(|c| (mode.clone(), c.to_string()));
                    problems.push(NoteProblem {
                        code: codes::BAD_FIELD,
                        severity: Severity::Error,
                        message: format!("outputMode `{mode}` is not one of {}", OUTPUT_MODES.join(", ")),
                        line: line_of("outputMode"),
                        fix,
                    });
                }
            }
            data.output_schema = get("outputSchema").map(to_json);
            for (key, slot) in [("retries", &mut data.retries), ("timeout", &mut data.timeout)] {
                if let Some(v) = get(key) {
                    match v {
                        Yaml::Value(Scalar::Integer(n)) if *n >= 0 => *slot = Some(*n),
                        _ => bad(key, "a whole number ≥ 0", &mut problems),
                    }
                }
            }
            if kind == AnnotationKind::Router {
                if let Some(v) = get("routes") {
                    match v {
                        Yaml::Sequence(items) => {
                            for item in items {
                                let category = item.as_mapping_get("category").and_then(scalar_text);
                                let target = item.as_mapping_get("target").and_then(scalar_text);
                                match (category, target) {
                                    (Some(category), Some(target)) => data.routes.push(Route { category, target }),
                                    _ => bad("routes", "a list of `- category: …` / `target: …` items", &mut problems),
                                }
                            }
                        }
                        Yaml::Value(Scalar::Null) => {}
                        _ => bad("routes", "a list of `- category: …` / `target: …` items", &mut problems),
                    }
                }
            }
        }
        AnnotationKind::Aggregator => {
            data.strategy = text_field("strategy", &mut problems);
            if let Some(strategy) = &data.strategy {
                if !STRATEGIES.contains(&strategy.as_str()) {
                    let fix = closest(strategy, STRATEGIES.iter().copied()).map(|c| (strategy.clone(), c.to_string()));
                    problems.push(NoteProblem {
                        code: codes::BAD_FIELD,
                        severity: Severity::Error,
                        message: format!("strategy `{strategy}` is not one of {}", STRATEGIES.join(", ")),
                        line: line_of("strategy"),
                        fix,
                    });
                }
            }
            match get("inputs") {
                Some(Yaml::Sequence(items)) => {
                    for item in items {
                        match scalar_text(item) {
                            Some(s) => data.inputs.push(s),
                            None => bad("inputs", "a list of output names", &mut problems),
                        }
                    }
                }
                // `inputs: a, b` reads as one string: split it.
                Some(v @ Yaml::Value(Scalar::String(_))) => {
                    if let Some(s) = scalar_text(v) {
                        data.inputs = s
                            .split(',')
                            .map(|p| p.trim().to_string())
                            .filter(|p| !p.is_empty())
                            .collect();
                    }
                }
                Some(Yaml::Value(Scalar::Null)) | None => {}
                Some(_) => bad("inputs", "a list of output names", &mut problems),
            }
            data.output = text_field("output", &mut problems);
            data.separator = text_field("separator", &mut problems);
        }
        AnnotationKind::Input => match get("variables") {
            Some(Yaml::Sequence(items)) => {
                for item in items {
                    let Some(name) = item.as_mapping_get("name").and_then(scalar_text) else {
                        bad("variables", "a list of `- name: …` items", &mut problems);
                        continue;
                    };
                    let required = match item.as_mapping_get("required") {
                        None => None,
                        Some(Yaml::Value(Scalar::Boolean(b))) => Some(*b),
                        Some(_) => {
                            bad("required", "true or false", &mut problems);
                            None
                        }
                    };
                    variables.push(Variable {
                        name,
                        var_type: item.as_mapping_get("type").and_then(scalar_text),
                        required,
                        default: item.as_mapping_get("default").map(to_json),
                        description: item.as_mapping_get("description").and_then(scalar_text),
                    });
                }
            }
            Some(Yaml::Value(Scalar::Null)) | None => {}
            Some(_) => bad("variables", "a list of `- name: …` items", &mut problems),
        },
    }
    (Some(Annotation { kind, data, variables }), problems)
}

/// Quotes the value of `key: {{…` lines (outside block scalars) so YAML
/// reads it as the text it is meant to be.
fn quote_template_values(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 16);
    let mut block_indent: Option<usize> = None;
    // Open brackets of a flow collection that continues on the next line.
    let mut open_brackets = 0i32;
    for line in body.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if open_brackets > 0 {
            out.push_str("  ");
            out.push_str(line);
            open_brackets += bracket_balance(content);
            continue;
        }
        let indent = content.len() - content.trim_start().len();
        if let Some(block) = block_indent {
            if content.trim().is_empty() || indent > block {
                out.push_str(line);
                continue;
            }
            block_indent = None;
        }
        let trimmed = content.trim_start();
        let key_end = trimmed.find(':').filter(|&i| {
            let key = trimmed[..i].trim_start_matches("- ");
            !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        });
        if let Some(colon) = key_end {
            let value = trimmed[colon + 1..].trim();
            if value.starts_with('|') || value.starts_with('>') {
                block_indent = Some(indent);
            } else if (value.starts_with('{') && !value.starts_with("{{")) || value.starts_with('[') {
                open_brackets = bracket_balance(value).max(0);
            } else if value.starts_with("{{") {
                out.push_str(&content[..indent]);
                out.push_str(&trimmed[..=colon]);
                out.push_str(" '");
                out.push_str(&value.replace('\'', "''"));
                out.push('\'');
                out.push_str(&line[content.len()..]);
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

/// Opened minus closed brackets of a line, quoted strings skipped.
fn bracket_balance(line: &str) -> i32 {
    let mut balance = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '{' | '[' => balance += 1,
                '}' | ']' => balance -= 1,
                '#' => break,
                _ => {}
            },
        }
    }
    balance
}

/// The text of a scalar (numbers and booleans as written), `None` for a
/// collection.
pub(crate) fn scalar_text(y: &Yaml) -> Option<String> {
    match y {
        Yaml::Value(Scalar::String(s)) => Some(s.to_string()),
        Yaml::Value(Scalar::Integer(n)) => Some(n.to_string()),
        Yaml::Value(Scalar::FloatingPoint(f)) => Some(f.to_string()),
        Yaml::Value(Scalar::Boolean(b)) => Some(b.to_string()),
        Yaml::Value(Scalar::Null) => Some(String::new()),
        Yaml::Representation(s, _, _) => Some(s.to_string()),
        Yaml::Tagged(_, inner) => scalar_text(inner),
        _ => None,
    }
}

/// YAML → JSON (`outputSchema`, variable defaults). YAML nests as deep as
/// its text; notes are small, and saphyr bounds its own recursion.
pub(crate) fn to_json(y: &Yaml) -> JsonValue {
    match y {
        Yaml::Value(Scalar::Null) => JsonValue::Null,
        Yaml::Value(Scalar::Boolean(b)) => JsonValue::Bool(*b),
        Yaml::Value(Scalar::Integer(n)) => JsonValue::Number(n.to_string()),
        Yaml::Value(Scalar::FloatingPoint(f)) => {
            if f.is_finite() {
                JsonValue::Number(f.to_string())
            } else {
                JsonValue::Null
            }
        }
        Yaml::Value(Scalar::String(s)) => JsonValue::String(s.to_string()),
        Yaml::Representation(s, _, _) => JsonValue::String(s.to_string()),
        Yaml::Sequence(items) => JsonValue::Array(items.iter().map(to_json).collect()),
        Yaml::Mapping(map) => JsonValue::Object(
            map.iter()
                .map(|(k, v)| (scalar_text(k).unwrap_or_default(), to_json(v)))
                .collect(),
        ),
        Yaml::Tagged(_, inner) => to_json(inner),
        _ => JsonValue::Null,
    }
}

/// The candidate closest to `name` (edit distance at most a third of its
/// length, at least 2), for "did you mean" fixes.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .filter(|c| *c != name)
        .map(|c| (puml_syntax::edit_distance(&name.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_prompt_with_schema_and_inline_template() {
        let (a, p) = parse_note(
            "<<prompt>>\ntemplate: |\n  Review this code for obvious issues:\n  {{code}}\n\n  Respond with: OK or list issues.\ninput: {{code}}, {{language}}\noutput: quickCheck\noutputMode: json\noutputSchema: {\n  \"summary\": \"string\",\n  \"issues\": [{\n    \"severity\": \"string\"\n  }],\n  \"score\": \"number\"\n}\n",
        );
        assert_eq!(p, vec![]);
        let a = a.unwrap();
        assert_eq!(
            a.data.template.as_deref(),
            Some("Review this code for obvious issues:\n{{code}}\n\nRespond with: OK or list issues.\n")
        );
        assert_eq!(a.data.input.as_deref(), Some("{{code}}, {{language}}"));
        assert_eq!(
            a.data.output_schema.unwrap().to_compact(),
            r#"{"summary": "string", "issues": [{"severity": "string"}], "score": "number"}"#
        );
    }

    #[test]
    fn malformed_notes_are_problems() {
        let (_, p) = parse_note("<<promt>>\ntemplate: x\n");
        assert_eq!(p[0].code, codes::UNKNOWN_ANNOTATION);
        assert_eq!(p[0].fix, Some(("<<promt>>".into(), "<<prompt>>".into())));
        let (_, p) = parse_note("<<prompt>>\ntemplate: [x\n");
        assert_eq!(p[0].code, codes::BAD_YAML);
        let (_, p) = parse_note("<<prompt>>\ntemplate: x\n");
        assert_eq!(p[0].code, codes::MISSING_FIELD);
        assert!(parse_note("just a comment").0.is_none());
    }
}
