//! Diagnostics as plain data. Every layer (syntax, preprocessing, semantics,
//! lint) reports problems with these types; the glue crates turn them into
//! JSON, LSP or MCP shapes at the edge.

use text_size::{TextRange, TextSize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A replacement of `range` (byte offsets into the file the diagnostic
/// belongs to) by `new_text`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

impl TextEdit {
    pub fn replace(range: TextRange, new_text: impl Into<String>) -> TextEdit {
        TextEdit {
            range,
            new_text: new_text.into(),
        }
    }
    pub fn insert(offset: text_size::TextSize, new_text: impl Into<String>) -> TextEdit {
        TextEdit {
            range: TextRange::empty(offset),
            new_text: new_text.into(),
        }
    }
    pub fn delete(range: TextRange) -> TextEdit {
        TextEdit {
            range,
            new_text: String::new(),
        }
    }
}

/// A repair for a diagnostic. `machine_applicable` fixes are applied by
/// `puml check --fix`; the others are only offered (e.g. as code actions).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub machine_applicable: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub file: Option<String>,
    pub range: TextRange,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Stable code, e.g. `E0101`. Listed in `docs/diagnostics.md`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// `None`: the file being checked. `Some(path)`: an included file, with
    /// `range` pointing into that file's text.
    pub file: Option<String>,
    pub range: TextRange,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// Rewrites every offset of the diagnostic (its range, related
    /// locations, fix edits) with `f`: text moved under it.
    pub fn map_offsets(&mut self, f: impl Fn(TextSize) -> TextSize) {
        let map = |range: &mut TextRange| {
            let start = f(range.start());
            let end = f(range.end()).max(start);
            *range = TextRange::new(start, end);
        };
        map(&mut self.range);
        for related in &mut self.related {
            map(&mut related.range);
        }
        for fix in &mut self.fixes {
            for edit in &mut fix.edits {
                map(&mut edit.range);
            }
        }
    }
    pub fn new(code: &'static str, severity: Severity, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            file: None,
            range,
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }
    pub fn error(code: &'static str, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, range, message)
    }
    pub fn warning(code: &'static str, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, range, message)
    }
    pub fn info(code: &'static str, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Info, range, message)
    }
    pub fn with_fix(mut self, title: impl Into<String>, edits: Vec<TextEdit>) -> Diagnostic {
        self.fixes.push(Fix {
            title: title.into(),
            edits,
            machine_applicable: true,
        });
        self
    }
    /// [`Diagnostic::with_fix`] from a `(title, edits)` pair.
    pub fn with_fix_pair(self, (title, edits): (String, Vec<TextEdit>)) -> Diagnostic {
        self.with_fix(title, edits)
    }
    pub fn with_suggestion(mut self, title: impl Into<String>, edits: Vec<TextEdit>) -> Diagnostic {
        self.fixes.push(Fix {
            title: title.into(),
            edits,
            machine_applicable: false,
        });
        self
    }
    pub fn with_related(mut self, range: TextRange, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            file: None,
            range,
            message: message.into(),
        });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Applies non-overlapping edits to `text`. Overlapping edits (after the
/// first of an overlapping pair, by start offset) are skipped so that a bad
/// fix can never corrupt the file; the count of skipped edits is returned.
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> (String, usize) {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start(), e.range.end()));
    let mut out = String::with_capacity(text.len());
    let mut cursor = 0usize;
    let mut skipped = 0;
    for edit in sorted {
        let start = usize::from(edit.range.start());
        let end = usize::from(edit.range.end());
        if start < cursor || end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            skipped += 1;
            continue;
        }
        out.push_str(&text[cursor..start]);
        out.push_str(&edit.new_text);
        cursor = end;
    }
    out.push_str(&text[cursor..]);
    (out, skipped)
}
