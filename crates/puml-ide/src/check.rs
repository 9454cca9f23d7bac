//! `check`: every diagnostic of a source, in 1-based line/column terms, plus
//! a summary of what the diagram contains. The JSON shape of
//! `puml check --format json` (and of the MCP and LSP diagnostics) is a
//! direct serialization of these structs, done by the glue crates.

use puml_sema::{AnalysisOptions, FileLoader};
use puml_syntax::{Diagnostic, LineIndex, Severity, TextRange};
use std::path::PathBuf;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// The file's path, for relative `!include`s and the default include root.
    pub file_path: Option<PathBuf>,
    /// Includes are resolved only inside this directory (default: the file's directory).
    pub include_root: Option<PathBuf>,
    pub allow_url_includes: bool,
}

impl CheckOptions {
    pub fn analysis_options(&self) -> AnalysisOptions {
        AnalysisOptions {
            file_path: self.file_path.clone(),
            include_root: self.include_root.clone(),
            allow_url_includes: self.allow_url_includes,
        }
    }
}

/// A 1-based range; columns count Unicode scalar values; the end is exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineColRange {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl LineColRange {
    pub fn from_range(text: &str, index: &LineIndex, range: TextRange) -> LineColRange {
        let start = index.line_col(text, range.start());
        let end = index.line_col(text, range.end());
        LineColRange {
            line: start.line,
            column: start.col,
            end_line: end.line,
            end_column: end.col,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineColEdit {
    pub range: LineColRange,
    pub new_text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineColFix {
    pub title: String,
    pub machine_applicable: bool,
    pub edits: Vec<LineColEdit>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineColRelated {
    pub file: Option<String>,
    pub range: LineColRange,
    pub message: String,
}

/// A diagnostic located by line and column.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineColDiagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    /// `None`: the checked source; `Some(path)`: an included file.
    pub file: Option<String>,
    pub range: LineColRange,
    /// Byte range in the file the diagnostic belongs to.
    pub byte_range: TextRange,
    pub related: Vec<LineColRelated>,
    pub fixes: Vec<LineColFix>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CheckSummary {
    pub diagrams: usize,
    /// How many of the diagrams are activity diagrams (the rest are
    /// sequence diagrams).
    pub activity_diagrams: usize,
    /// Diagrams read as class (object, ER) diagrams.
    pub class_diagrams: usize,
    /// Diagrams read as description (use case, component, deployment) diagrams.
    pub description_diagrams: usize,
    /// Diagrams read as state diagrams.
    pub state_diagrams: usize,
    pub participants: usize,
    /// Messages, notes, refs, activations, dividers… (every model event).
    pub events: usize,
    pub pages: usize,
    pub errors: usize,
    pub warnings: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    pub diagnostics: Vec<LineColDiagnostic>,
    pub summary: CheckSummary,
}

impl CheckReport {
    pub fn ok(&self) -> bool {
        self.summary.errors == 0
    }
}

/// Checks a source text. Never panics; every problem is a diagnostic.
pub fn check_source(text: &str, options: &CheckOptions, loader: &dyn FileLoader) -> CheckReport {
    let analysis = puml_sema::analyze(text, &options.analysis_options(), loader);
    report_from_analysis(text, &analysis)
}

/// Checks raw bytes: invalid UTF-8 is reported (with its byte offset), not a panic.
pub fn check_bytes(bytes: &[u8], options: &CheckOptions, loader: &dyn FileLoader) -> CheckReport {
    match decode_source(bytes) {
        Ok(text) => check_source(text, options, loader),
        Err(diagnostic) => undecodable_report(bytes, &diagnostic),
    }
}

/// The report for bytes that are not UTF-8 (`diagnostic` from [`decode_source`]).
pub fn undecodable_report(bytes: &[u8], diagnostic: &Diagnostic) -> CheckReport {
    let lossy = String::from_utf8_lossy(bytes);
    let index = LineIndex::new(&lossy);
    let located = locate(&lossy, &index, diagnostic, &[]);
    CheckReport {
        diagnostics: vec![located],
        summary: CheckSummary {
            errors: 1,
            ..CheckSummary::default()
        },
    }
}

/// Decodes a file's bytes as UTF-8, or explains where it is not.
// The error is returned once per file read, so its size does not matter.
#[allow(clippy::result_large_err)]
pub fn decode_source(bytes: &[u8]) -> Result<&str, Diagnostic> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(err) => {
            let offset = err.valid_up_to();
            let binary = bytes.iter().take(8192).any(|&b| b == 0);
            let message = if binary {
                format!("this looks like a binary file, not a diagram (NUL byte; invalid UTF-8 at byte {offset})")
            } else {
                format!("the file is not valid UTF-8: invalid byte sequence at byte offset {offset}")
            };
            // Point at the valid prefix's end, in the lossily decoded text.
            let prefix = String::from_utf8_lossy(&bytes[..offset]);
            let at = puml_syntax::TextSize::of(prefix.as_ref());
            Err(Diagnostic::error(
                puml_sema::codes::INVALID_UTF8,
                TextRange::empty(at),
                message,
            ))
        }
    }
}

pub fn report_from_analysis(text: &str, analysis: &puml_sema::Analysis) -> CheckReport {
    // Most checked files are clean: the line index is built only when
    // there is something to locate.
    let diagnostics: Vec<LineColDiagnostic> = if analysis.diagnostics.is_empty() {
        Vec::new()
    } else {
        let index = LineIndex::new(text);
        let included = IncludedTexts::new(&analysis.included_files);
        analysis
            .diagnostics
            .iter()
            .map(|d| locate_in(text, &index, d, &included))
            .collect()
    };
    let document = &analysis.document;
    let summary = CheckSummary {
        diagrams: document.diagrams.len(),
        activity_diagrams: document.diagrams.iter().filter(|d| d.activity.is_some()).count(),
        class_diagrams: document.diagrams.iter().filter(|d| d.class.is_some()).count(),
        description_diagrams: document.diagrams.iter().filter(|d| d.description.is_some()).count(),
        state_diagrams: document.diagrams.iter().filter(|d| d.state.is_some()).count(),
        participants: document.diagrams.iter().map(|d| d.participants.len()).sum(),
        events: document.diagrams.iter().map(|d| d.events.len()).sum(),
        pages: document.diagrams.iter().map(|d| d.page_count()).sum(),
        errors: diagnostics.iter().filter(|d| d.severity == Severity::Error).count(),
        warnings: diagnostics.iter().filter(|d| d.severity == Severity::Warning).count(),
    };
    CheckReport { diagnostics, summary }
}

/// Converts byte ranges to line/column, using the text of the file the
/// diagnostic belongs to (the main text, or an included file's).
pub fn locate(
    text: &str,
    index: &LineIndex,
    diagnostic: &Diagnostic,
    included_files: &[(String, String)],
) -> LineColDiagnostic {
    locate_in(text, index, diagnostic, &IncludedTexts::new(included_files))
}

/// The included files' texts, each with its line index built the first
/// time a diagnostic points into it: once per report, not once per
/// diagnostic (a style file pulled in by `!include` can draw dozens).
struct IncludedTexts<'a> {
    files: &'a [(String, String)],
    indexes: Vec<std::cell::OnceCell<LineIndex>>,
}

impl<'a> IncludedTexts<'a> {
    fn new(files: &'a [(String, String)]) -> Self {
        IncludedTexts {
            files,
            indexes: files.iter().map(|_| std::cell::OnceCell::new()).collect(),
        }
    }

    fn find(&self, path: &str) -> Option<(&'a str, &LineIndex)> {
        let at = self.files.iter().position(|(p, _)| p == path)?;
        let text = self.files[at].1.as_str();
        Some((text, self.indexes[at].get_or_init(|| LineIndex::new(text))))
    }
}

fn locate_in(text: &str, index: &LineIndex, diagnostic: &Diagnostic, included: &IncludedTexts) -> LineColDiagnostic {
    let (file_text, file_index) = diagnostic
        .file
        .as_deref()
        .and_then(|path| included.find(path))
        .unwrap_or((text, index));
    let range_in = |file: &Option<String>, range: TextRange| {
        if file == &diagnostic.file {
            LineColRange::from_range(file_text, file_index, range)
        } else if file.is_none() {
            LineColRange::from_range(text, index, range)
        } else {
            match file.as_deref().and_then(|path| included.find(path)) {
                Some((t, t_index)) => LineColRange::from_range(t, t_index, range),
                None => LineColRange::from_range(text, index, range),
            }
        }
    };
    LineColDiagnostic {
        severity: diagnostic.severity,
        code: diagnostic.code,
        message: diagnostic.message.clone(),
        file: diagnostic.file.clone(),
        range: LineColRange::from_range(file_text, file_index, diagnostic.range),
        byte_range: diagnostic.range,
        related: diagnostic
            .related
            .iter()
            .map(|r| LineColRelated {
                file: r.file.clone(),
                range: range_in(&r.file, r.range),
                message: r.message.clone(),
            })
            .collect(),
        fixes: diagnostic
            .fixes
            .iter()
            .map(|f| LineColFix {
                title: f.title.clone(),
                machine_applicable: f.machine_applicable,
                edits: f
                    .edits
                    .iter()
                    .map(|e| LineColEdit {
                        range: LineColRange::from_range(file_text, file_index, e.range),
                        new_text: e.new_text.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Applies the machine-applicable fixes to a fixpoint (see [`crate::fix`]).
/// Returns the fixed text and the number of fixes applied.
pub fn fix_source(text: &str, options: &CheckOptions, loader: &dyn FileLoader) -> (String, usize) {
    let outcome = crate::fix::fix_all(text, options, loader);
    (outcome.source, outcome.applied)
}
