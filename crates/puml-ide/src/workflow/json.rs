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

/// Nesting deeper than this is refused (the reader recurses).
const MAX_NESTING: usize = 256;

/// Reads a JSON document, keeping object keys in their order (so an
/// `outputSchema` round-trips as written). Errors name the byte offset.
pub fn parse(text: &str) -> Result<JsonValue, String> {
    let mut p = Reader {
        bytes: text.as_bytes(),
        text,
        pos: 0,
    };
    p.skip_ws();
    let value = p.value(0)?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error("text after the JSON value"));
    }
    Ok(value)
}

struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.text[..self.pos.min(self.text.len())].matches('\n').count() + 1;
        format!("{what} at line {line} (byte {})", self.pos)
    }

    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && matches!(self.bytes[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<JsonValue, String> {
        if depth > MAX_NESTING {
            return Err(self.error("nesting too deep"));
        }
        self.skip_ws();
        match self.bytes.get(self.pos) {
            None => Err(self.error("unexpected end of input")),
            Some(b'{') => {
                self.pos += 1;
                let mut fields = Vec::new();
                if self.eat(b'}') {
                    return Ok(JsonValue::Object(fields));
                }
                loop {
                    self.skip_ws();
                    if self.bytes.get(self.pos) != Some(&b'"') {
                        return Err(self.error("expected a string key"));
                    }
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return Err(self.error("expected `:`"));
                    }
                    let value = self.value(depth + 1)?;
                    fields.push((key, value));
                    if self.eat(b',') {
                        continue;
                    }
                    if self.eat(b'}') {
                        return Ok(JsonValue::Object(fields));
                    }
                    return Err(self.error("expected `,` or `}`"));
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(JsonValue::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b',') {
                        continue;
                    }
                    if self.eat(b']') {
                        return Ok(JsonValue::Array(items));
                    }
                    return Err(self.error("expected `,` or `]`"));
                }
            }
            Some(b'"') => Ok(JsonValue::String(self.string()?)),
            Some(b't') if self.bytes[self.pos..].starts_with(b"true") => {
                self.pos += 4;
                Ok(JsonValue::Bool(true))
            }
            Some(b'f') if self.bytes[self.pos..].starts_with(b"false") => {
                self.pos += 5;
                Ok(JsonValue::Bool(false))
            }
            Some(b'n') if self.bytes[self.pos..].starts_with(b"null") => {
                self.pos += 4;
                Ok(JsonValue::Null)
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                while self.pos < self.bytes.len()
                    && matches!(self.bytes[self.pos], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    self.pos += 1;
                }
                let n = &self.text[start..self.pos];
                if n.parse::<f64>().is_err() {
                    return Err(self.error("malformed number"));
                }
                Ok(JsonValue::Number(n.to_string()))
            }
            Some(_) => Err(self.error("unexpected character")),
        }
    }

    /// At a `"`: the string's value.
    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(rest) = self.text.get(self.pos..) else {
                return Err(self.error("unterminated string"));
            };
            let Some(i) = rest.find(['"', '\\']) else {
                return Err(self.error("unterminated string"));
            };
            out.push_str(&rest[..i]);
            self.pos += i;
            if self.bytes[self.pos] == b'"' {
                self.pos += 1;
                return Ok(out);
            }
            self.pos += 1;
            let Some(&esc) = self.bytes.get(self.pos) else {
                return Err(self.error("unterminated string"));
            };
            self.pos += 1;
            match esc {
                b'"' => out.push('"'),
                b'\\' => out.push('\\'),
                b'/' => out.push('/'),
                b'b' => out.push('\u{8}'),
                b'f' => out.push('\u{c}'),
                b'n' => out.push('\n'),
                b'r' => out.push('\r'),
                b't' => out.push('\t'),
                b'u' => {
                    let mut code = self.hex4()?;
                    if (0xD800..0xDC00).contains(&code) && self.bytes[self.pos..].starts_with(b"\\u") {
                        self.pos += 2;
                        let low = self.hex4()?;
                        code = 0x10000 + ((code - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                    }
                    out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
                _ => return Err(self.error("unknown escape")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("short \\u escape"))?;
        let code = u32::from_str_radix(digits, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.pos += 4;
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_what_it_prints() {
        let text = r#"{"b": [1, -2.5e3, true, null, "x\n\"y\" \u00e9"], "a": {}}"#;
        let v = super::parse(text).unwrap();
        assert_eq!(
            v.to_compact(),
            r#"{"b": [1, -2.5e3, true, null, "x\n\"y\" é"], "a": {}}"#
        );
        assert_eq!(super::parse(&v.to_pretty()).unwrap(), v);
        assert!(super::parse("{\"a\": }").is_err());
        assert!(super::parse(&"[".repeat(10_000)).is_err());
    }
}
