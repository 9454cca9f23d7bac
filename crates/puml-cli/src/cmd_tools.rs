//! `puml fmt|normalize|edit|explain|lint|primitives|convert`: argv, files,
//! JSON and exit codes over the plain functions of `puml_ide`.

use crate::io_util::{max_bytes_from_env, read_input_bytes, InputError};
use puml_ide::edit::{apply_edit, ArgValue, Edit};
use puml_ide::explain::render_text;
use puml_ide::format::{format, unified_diff, FormatOptions};
use puml_ide::fs::{collect_diagram_files, write_atomic};
use puml_ide::lint::LintOptions;
use puml_ide::normalize::{normalize, NormalizeOptions};
use puml_ide::primitives::{catalog, markdown};
use puml_json::{diagnostics_json, explanations_json};
use puml_sema::AnalysisOptions;
use puml_syntax::{LineIndex, TextEdit};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

pub(crate) fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads a file (or stdin) as UTF-8 text, with a clear message on failure.
pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    let bytes = read_input_bytes(path, max_bytes_from_env()).map_err(|e| match e {
        InputError::Io(message) => message,
        InputError::TooLarge { size, limit } => format!(
            "{}: {size} bytes is over the limit of {limit} (set PUML_MAX_BYTES to raise it)",
            display_name(path)
        ),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not valid UTF-8 (byte {})",
            display_name(path),
            e.utf8_error().valid_up_to()
        )
    })
}

pub(crate) fn fail(message: impl AsRef<str>) -> ExitCode {
    eprintln!("error: {}", message.as_ref());
    ExitCode::from(2)
}

fn analysis_options(path: &Path) -> AnalysisOptions {
    AnalysisOptions {
        file_path: (!is_stdin(path)).then(|| path.to_path_buf()),
        include_root: None,
        allow_url_includes: false,
    }
}

fn edits_json(text: &str, edits: &[TextEdit]) -> Vec<Value> {
    let index = LineIndex::new(text);
    edits
        .iter()
        .map(|e| {
            let start = index.line_col(text, e.range.start());
            let end = index.line_col(text, e.range.end());
            json!({
                "line": start.line,
                "column": start.col,
                "end_line": end.line,
                "end_column": end.col,
                "new_text": e.new_text,
            })
        })
        .collect()
}

fn print_json(value: &Value) {
    println!("{}", serde_json::to_string_pretty(value).unwrap_or_default());
}

// ------------------------------------------------------------------ fmt

#[derive(clap::Args)]
pub struct FmtArgs {
    /// Files, directories, globs, or `-` (stdin to stdout).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write nothing; list the files that would change and exit 1 if any.
    #[arg(long)]
    pub check: bool,
    /// Write nothing; print a unified diff of the changes (exit 1 if any).
    #[arg(long)]
    pub diff: bool,
    /// Spaces per indentation level.
    #[arg(long, default_value_t = 2)]
    pub indent: usize,
    /// Also declare implicit participants (see `puml normalize`).
    #[arg(long)]
    pub normalize: bool,
}

pub fn run_fmt(args: FmtArgs) -> ExitCode {
    let options = FormatOptions {
        indent_width: args.indent.min(16),
    };
    let rewrite = |text: &str| -> String {
        if args.normalize {
            normalize(
                text,
                &NormalizeOptions {
                    add_explicit_participants: true,
                    format: true,
                    indent_width: options.indent_width,
                },
            )
            .source
        } else {
            format(text, &options)
        }
    };
    if args.paths.iter().any(|p| is_stdin(p)) {
        if args.paths.len() > 1 {
            return fail("`-` (stdin) cannot be combined with other paths");
        }
        let text = match read_text(Path::new("-")) {
            Ok(t) => t,
            Err(e) => return fail(e),
        };
        let formatted = rewrite(&text);
        let changed = formatted != text;
        if args.diff {
            print!("{}", unified_diff(&text, &formatted, "<stdin>", "<stdin> (formatted)"));
        } else if args.check {
            if changed {
                println!("<stdin>");
            }
        } else {
            print!("{formatted}");
            return ExitCode::SUCCESS;
        }
        return if changed { ExitCode::from(1) } else { ExitCode::SUCCESS };
    }
    let (files, errors) = collect_diagram_files(&args.paths);
    for e in &errors {
        eprintln!("error: {e}");
    }
    let mut changed_files = 0;
    let mut io_failed = !errors.is_empty();
    for path in &files {
        let text = match read_text(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                io_failed = true;
                continue;
            }
        };
        let formatted = rewrite(&text);
        if formatted == text {
            continue;
        }
        changed_files += 1;
        let name = path.display().to_string();
        if args.diff {
            print!(
                "{}",
                unified_diff(&text, &formatted, &name, &format!("{name} (formatted)"))
            );
        } else if args.check {
            println!("{name}");
        } else if let Err(e) = write_atomic(path, formatted.as_bytes()) {
            eprintln!("error: {name}: {e}");
            io_failed = true;
        } else {
            eprintln!("formatted {name}");
        }
    }
    if io_failed {
        ExitCode::from(2)
    } else if (args.check || args.diff) && changed_files > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

// ------------------------------------------------------------ normalize

#[derive(clap::Args)]
pub struct NormalizeArgs {
    /// A file, or `-` for stdin.
    pub path: PathBuf,
    /// Do not declare implicit participants.
    #[arg(long)]
    pub no_declare: bool,
    /// Do not run the formatter.
    #[arg(long)]
    pub no_format: bool,
    /// Rewrite the file instead of printing the result.
    #[arg(long, conflicts_with = "format")]
    pub write: bool,
    /// `text` prints the source; `json` prints {source, edits, declared}.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

pub fn run_normalize(args: NormalizeArgs) -> ExitCode {
    let text = match read_text(&args.path) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let result = normalize(
        &text,
        &NormalizeOptions {
            add_explicit_participants: !args.no_declare,
            format: !args.no_format,
            indent_width: 2,
        },
    );
    if args.write {
        if is_stdin(&args.path) {
            return fail("--write needs a file, not stdin");
        }
        if result.source != text {
            if let Err(e) = write_atomic(&args.path, result.source.as_bytes()) {
                return fail(format!("{}: {e}", args.path.display()));
            }
        }
        return ExitCode::SUCCESS;
    }
    if args.format == "json" {
        print_json(&json!({
            "source": result.source,
            "edits": edits_json(&text, &result.edits),
            "declared": result.declared,
        }));
    } else {
        print!("{}", result.source);
    }
    ExitCode::SUCCESS
}

// ----------------------------------------------------------------- edit

#[derive(clap::Args)]
pub struct EditArgs {
    /// The diagram file (or `-` for stdin).
    pub file: PathBuf,
    /// Sequence: add_participant, add_message, add_note, wrap_group,
    /// rename_participant, remove_message; any kind: change_theme,
    /// set_title; class: add_class, add_member, add_relation,
    /// remove_relation, rename_class; state: add_state, add_transition;
    /// use case, component, deployment: add_element, add_link.
    #[arg(long)]
    pub kind: String,
    /// The edit's arguments as a JSON object, e.g. '{"from":"A","to":"B","label":"hi"}'.
    #[arg(long, default_value = "{}")]
    pub args: String,
    /// Rewrite the file (atomically) instead of printing the result.
    #[arg(long)]
    pub write: bool,
    /// `text` prints the new source; `json` prints {source, edits, diagnostics}.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

/// JSON → the protocol-neutral argument values of `puml_ide::edit`.
pub fn arg_value(value: &Value) -> ArgValue {
    match value {
        Value::Null => ArgValue::Null,
        Value::Bool(b) => ArgValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => ArgValue::Number(i),
            None => ArgValue::Text(n.to_string()),
        },
        Value::String(s) => ArgValue::Text(s.clone()),
        Value::Array(items) => ArgValue::List(items.iter().map(arg_value).collect()),
        Value::Object(_) => ArgValue::Text(value.to_string()),
    }
}

pub fn run_edit(args: EditArgs) -> ExitCode {
    let text = match read_text(&args.file) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let parsed: Value = match serde_json::from_str(&args.args) {
        Ok(v) => v,
        Err(e) => return fail(format!("--args is not valid JSON: {e}")),
    };
    let Value::Object(object) = parsed else {
        return fail("--args must be a JSON object");
    };
    let map: BTreeMap<String, ArgValue> = object.iter().map(|(k, v)| (k.clone(), arg_value(v))).collect();
    let edit = match Edit::parse(&args.kind, &map) {
        Ok(e) => e,
        Err(e) => return fail(e.to_string()),
    };
    let result = match apply_edit(&text, &edit) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e} (the file is unchanged)");
            return ExitCode::from(1);
        }
    };
    for d in result.diagnostics.iter().filter(|d| d.is_error()) {
        eprintln!("warning: the edited diagram has an error: [{}] {}", d.code, d.message);
    }
    if args.write {
        if is_stdin(&args.file) {
            return fail("--write needs a file, not stdin");
        }
        if result.source != text {
            if let Err(e) = write_atomic(&args.file, result.source.as_bytes()) {
                return fail(format!("{}: {e}", args.file.display()));
            }
        }
        if args.format == "json" {
            print_json(&json!({
                "edits": edits_json(&text, &result.edits),
                "diagnostics": diagnostics_json(&result.source, &result.diagnostics),
            }));
        }
        return ExitCode::SUCCESS;
    }
    if args.format == "json" {
        print_json(&json!({
            "source": result.source,
            "edits": edits_json(&text, &result.edits),
            "diagnostics": diagnostics_json(&result.source, &result.diagnostics),
        }));
    } else {
        print!("{}", result.source);
    }
    ExitCode::SUCCESS
}

// -------------------------------------------------------------- explain

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A file, or `-` for stdin.
    pub path: PathBuf,
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

pub fn run_explain(args: ExplainArgs) -> ExitCode {
    let text = match read_text(&args.path) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let (analysis, file) = crate::analysis::open(analysis_options(&args.path).file_path, &text, None);
    let explanations = crate::analysis::answer(analysis.explain(file));
    if explanations.is_empty() {
        return ExitCode::SUCCESS;
    }
    if args.format == "json" {
        print_json(&explanations_json(&text, &explanations));
    } else {
        let texts: Vec<String> = explanations.iter().map(render_text).collect();
        print!("{}", texts.join("\n"));
    }
    ExitCode::SUCCESS
}

// ----------------------------------------------------------------- lint

#[derive(clap::Args)]
pub struct LintArgs {
    /// Files, directories, globs, or `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[arg(long, value_parser = ["human", "json"], default_value = "human")]
    pub format: String,
    /// Exit 1 when there is any finding (default: only findings of severity warning).
    #[arg(long)]
    pub strict: bool,
}

pub fn run_lint(args: LintArgs) -> ExitCode {
    let stdin = args.paths.iter().any(|p| is_stdin(p));
    let (files, errors) = if stdin {
        (vec![PathBuf::from("-")], Vec::new())
    } else {
        collect_diagram_files(&args.paths)
    };
    for e in &errors {
        eprintln!("error: {e}");
    }
    let mut io_failed = !errors.is_empty();
    let mut results = Vec::new();
    let (mut warnings, mut infos) = (0, 0);
    for path in &files {
        let text = match read_text(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                io_failed = true;
                continue;
            }
        };
        let (analysis, file) = crate::analysis::open(analysis_options(path).file_path, &text, None);
        let findings = crate::analysis::answer(analysis.lint(file, &LintOptions::default()));
        warnings += findings
            .iter()
            .filter(|f| f.severity == puml_syntax::Severity::Warning)
            .count();
        infos += findings
            .iter()
            .filter(|f| f.severity != puml_syntax::Severity::Warning)
            .count();
        if args.format == "human" {
            let index = LineIndex::new(&text);
            for f in &findings {
                let at = index.line_col(&text, f.range.start());
                println!(
                    "{}:{}:{}: {}[{}]: {}",
                    display_name(path),
                    at.line,
                    at.col,
                    f.severity.as_str(),
                    f.code,
                    f.message
                );
                for fix in &f.fixes {
                    println!("  help: {}", fix.title);
                }
            }
        }
        results.push(json!({
            "path": display_name(path),
            "findings": diagnostics_json(&text, &findings),
        }));
    }
    if args.format == "json" {
        print_json(&json!({ "files": results, "warnings": warnings, "infos": infos }));
    } else if files.len() > 1 || warnings + infos > 0 {
        eprintln!("{} files linted: {warnings} warnings, {infos} infos", files.len());
    }
    if io_failed {
        ExitCode::from(2)
    } else if warnings > 0 || (args.strict && infos > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

// ----------------------------------------------------------- primitives

#[derive(clap::Args)]
pub struct PrimitivesArgs {
    #[arg(long, value_parser = ["markdown", "json"], default_value = "markdown")]
    pub format: String,
}

pub fn run_primitives(args: PrimitivesArgs) -> ExitCode {
    if args.format == "json" {
        let rows: Vec<Value> = catalog()
            .iter()
            .map(|p| {
                json!({
                    "category": p.category.as_str(),
                    "name": p.name,
                    "syntax": p.syntax,
                    "meaning": p.meaning,
                    "example": p.example,
                })
            })
            .collect();
        print_json(&Value::Array(rows));
    } else {
        print!("{}", markdown());
    }
    ExitCode::SUCCESS
}

// -------------------------------------------------------------- convert

#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The source notation.
    #[arg(long, value_parser = ["mermaid"])]
    pub from: String,
    /// A Mermaid file, or `-` for stdin.
    pub input: PathBuf,
    /// Write the result here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// `text` prints the puml; `json` prints {source, warnings}.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

pub fn run_convert(args: ConvertArgs) -> ExitCode {
    let text = match read_text(&args.input) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let name = display_name(&args.input);
    let conversion = match puml_ide::mermaid::convert(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return ExitCode::from(1);
        }
    };
    if args.format == "json" {
        print_json(&json!({
            "source": conversion.source,
            "warnings": conversion.warnings.iter().map(|w| json!({"line": w.line, "message": w.message})).collect::<Vec<_>>(),
        }));
        return ExitCode::SUCCESS;
    }
    for w in &conversion.warnings {
        eprintln!("{name}:{}: warning: {}", w.line, w.message);
    }
    match &args.output {
        Some(out) => {
            if let Err(e) = write_atomic(out, conversion.source.as_bytes()) {
                return fail(format!("{}: {e}", out.display()));
            }
        }
        None => print!("{}", conversion.source),
    }
    ExitCode::SUCCESS
}
