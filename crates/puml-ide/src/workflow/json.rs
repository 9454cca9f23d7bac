//! A small JSON value with a deterministic printer. Workflow JSON is built
//! and read here without a protocol crate (the IDE layer knows none, see
//! `tests/tidy.rs`); the glue crates convert it to and from `serde_json`.

/// A JSON value. Objects keep their keys in insertion order, numbers their
/// textual form, so a document prints the same way every time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonValue {
    Null,
    Bool(bool),
    /// The number as JSON writes it (`3`, `0.8`, `-1e5`).
    Number(String),
    String(String),
    Array(Vec<JsonValue>),
    Object(Vec<(String, JsonValue)>),
}

impl JsonValue {
    pub fn str(s: impl Into<String>) -> JsonValue {
        JsonValue::String(s.into())
    }

    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        match self {
            JsonValue::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            JsonValue::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            JsonValue::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[JsonValue]> {
        match self {
            JsonValue::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Pretty-printed with two-space indentation (as `serde_json` pretty
    /// prints), ending without a newline.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        write_value(self, Some(0), &mut out);
        out
    }

    /// On one line, `, ` and `: ` between items (the seed's inline style).
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        write_value(self, None, &mut out);
        out
    }
}

/// `indent`: `Some(level)` pretty, `None` on one line. Arrays and objects
/// nest; the depth is bounded by the input's own (a YAML note or a JSON
/// document the glue already parsed), and notes are small.
fn write_value(value: &JsonValue, indent: Option<usize>, out: &mut String) {
    match value {
        JsonValue::Null => out.push_str("null"),
        JsonValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JsonValue::Number(n) => out.push_str(n),
        JsonValue::String(s) => write_string(s, out),
        JsonValue::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if indent.is_none() {
                        out.push(' ');
                    }
                }
                newline(indent.map(|l| l + 1), out);
                write_value(item, indent.map(|l| l + 1), out);
            }
            newline(indent, out);
            out.push(']');
        }
        JsonValue::Object(fields) => {
            if fields.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (key, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if indent.is_none() {
                        out.push(' ');
                    }
                }
                newline(indent.map(|l| l + 1), out);
                write_string(key, out);
                out.push_str(": ");
                write_value(item, indent.map(|l| l + 1), out);
            }
            newline(indent, out);
            out.push('}');
        }
    }
}

fn newline(indent: Option<usize>, out: &mut String) {
    if let Some(level) = indent {
        out.push('\n');
        for _ in 0..level {
            out.push_str("  ");
        }
    }
}

/// A JSON string literal (also a valid YAML double-quoted scalar).
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

pub fn quoted(s: &str) -> String {
    let mut out = String::new();
    write_string(s, &mut out);
    out
}
