//! Preprocessor values: strings, integers and JSON (arrays, objects and the
//! literals `true`, `false`, `null` and non-integer numbers), as in
//! PlantUML.

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Int(i64),
    Str(String),
    Array(Vec<Value>),
    /// Keys in insertion order, as PlantUML prints them.
    Object(Vec<(String, Value)>),
    /// A JSON literal kept as written: `true`, `false`, `null`, `1.5`.
    Raw(String),
}

impl Value {
    pub fn bool(b: bool) -> Value {
        Value::Int(i64::from(b))
    }

    /// The text substituted into a diagram line: strings as they are, JSON
    /// values in compact JSON.
    pub fn to_text(&self) -> String {
        match self {
            Value::Int(n) => n.to_string(),
            Value::Str(s) | Value::Raw(s) => s.clone(),
            Value::Array(_) | Value::Object(_) => {
                let mut out = String::new();
                self.write_json(&mut out);
                out
            }
        }
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Value::Str(s) => {
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '\n' => out.push_str("\\n"),
                        _ => out.push(c),
                    }
                }
                out.push('"');
            }
            Value::Int(n) => out.push_str(&n.to_string()),
            Value::Raw(s) => out.push_str(s),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Value::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    Value::Str(key.clone()).write_json(out);
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }

    /// An integer, if the value is one or is a string holding one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Str(s) | Value::Raw(s) => s.trim().parse().ok(),
            Value::Array(_) | Value::Object(_) => None,
        }
    }

    /// As in PlantUML's `!if`: a number is true when not 0, any non-empty
    /// string is true (even "0" and "false"), JSON `false` and `null` are
    /// false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Int(n) => *n != 0,
            Value::Str(s) => !s.is_empty(),
            Value::Raw(s) => !matches!(s.as_str(), "false" | "null" | "0"),
            Value::Array(items) => !items.is_empty(),
            Value::Object(entries) => !entries.is_empty(),
        }
    }

    /// `%boolval`: reads "true"/"false" and numbers in strings too.
    pub fn parse_bool(&self) -> bool {
        match self {
            Value::Str(s) => {
                let s = s.trim();
                match s.parse::<i64>() {
                    Ok(n) => n != 0,
                    Err(_) => !s.is_empty() && !s.eq_ignore_ascii_case("false"),
                }
            }
            other => other.truthy(),
        }
    }

    /// `%get_json_type`.
    pub fn json_type(&self) -> &'static str {
        match self {
            Value::Int(_) => "number",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
            Value::Raw(s) if s == "true" || s == "false" => "boolean",
            Value::Raw(s) if s == "null" => "null",
            Value::Raw(_) => "number",
        }
    }

    /// `value.key` / `value["key"]`; a missing key is the empty string, as
    /// in PlantUML.
    pub fn member(&self, key: &str) -> Option<Value> {
        match self {
            Value::Object(entries) => Some(
                entries
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.clone())
                    .unwrap_or(Value::Str(String::new())),
            ),
            _ => None,
        }
    }

    /// `value[index]`: an array element (empty when out of range) or an
    /// object member.
    pub fn index(&self, index: &Value) -> Option<Value> {
        match (self, index) {
            (Value::Array(items), i) => {
                let i = i.as_int()?;
                Some(
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| items.get(i))
                        .cloned()
                        .unwrap_or(Value::Str(String::new())),
                )
            }
            (Value::Object(_), key) => self.member(&key.to_text()),
            _ => None,
        }
    }

    /// Approximate size in bytes, for the output limit.
    pub fn weight(&self) -> usize {
        match self {
            Value::Int(_) => 8,
            Value::Str(s) | Value::Raw(s) => s.len(),
            Value::Array(items) => items.iter().map(|v| v.weight() + 1).sum(),
            Value::Object(entries) => entries.iter().map(|(k, v)| k.len() + v.weight() + 2).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text() {
        let v = Value::Object(vec![
            ("a".into(), Value::Array(vec![Value::Int(1), Value::Str("x\"y".into())])),
            ("b".into(), Value::Raw("true".into())),
        ]);
        assert_eq!(v.to_text(), r#"{"a":[1,"x\"y"],"b":true}"#);
        assert_eq!(v.member("zz"), Some(Value::Str(String::new())));
        assert_eq!(v.json_type(), "object");
        assert!(!Value::Raw("false".into()).truthy());
        assert!(Value::Str("false".into()).truthy());
    }
}
