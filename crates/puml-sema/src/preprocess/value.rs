//! Preprocessor values: PlantUML's are strings, integers and JSON; puml
//! keeps strings, integers and arrays (what `%splitstr` and `!foreach`
//! need).

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Int(i64),
    Str(String),
    Array(Vec<Value>),
}

impl Value {
    pub fn bool(b: bool) -> Value {
        Value::Int(i64::from(b))
    }

    /// The text substituted into a diagram line.
    pub fn to_text(&self) -> String {
        match self {
            Value::Int(n) => n.to_string(),
            Value::Str(s) => s.clone(),
            Value::Array(items) => {
                let inner: Vec<String> = items
                    .iter()
                    .map(|item| match item {
                        Value::Str(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
                        other => other.to_text(),
                    })
                    .collect();
                format!("[{}]", inner.join(","))
            }
        }
    }

    /// An integer, if the value is one or is a string holding one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Str(s) => s.trim().parse().ok(),
            Value::Array(_) => None,
        }
    }

    /// As in PlantUML's `!if`: a number is true when not 0, any non-empty
    /// string is true (even "0" and "false").
    pub fn truthy(&self) -> bool {
        match self {
            Value::Int(n) => *n != 0,
            Value::Str(s) => !s.is_empty(),
            Value::Array(items) => !items.is_empty(),
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
}
