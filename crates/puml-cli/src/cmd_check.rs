//! `puml check` and `puml dump`.

use crate::analysis::BatchHost;
use crate::io_util::{max_bytes_from_env, parallel_map, read_input_bytes, InputError};
use puml_ide::check::{self, CheckOptions, CheckReport, LineColDiagnostic};
pub use puml_json::diagnostic_json;
use puml_syntax::Severity;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug, PartialEq)]
pub struct CheckArgs {
    /// Files, directories (searched for .puml .plantuml .pu .iuml), globs, or `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = ["human", "json"], default_value = "human")]
    pub format: String,
    /// Exit 1 when there are warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Apply every machine-applicable fix and rewrite the file (atomically).
    #[arg(long)]
    pub fix: bool,
    /// With --fix: print the fixed source instead of writing the file.
    #[arg(long, requires = "fix")]
    pub stdout: bool,
    /// Resolve `!include` only inside this directory (default: each file's directory).
    #[arg(long)]
    pub include_root: Option<PathBuf>,
    /// Refuse inputs larger than this many bytes (default 8 MiB, or $PUML_MAX_BYTES).
    #[arg(long)]
    pub max_bytes: Option<u64>,
}

impl CheckArgs {
    /// `puml check PATHS…` without options: what clap gives for it.
    pub fn for_paths(paths: Vec<PathBuf>) -> CheckArgs {
        CheckArgs {
            paths,
            format: "human".to_string(),
            deny_warnings: false,
            fix: false,
            stdout: false,
            include_root: None,
            max_bytes: None,
        }
    }
}

#[derive(clap::Args)]
pub struct DumpArgs {
    /// What to print.
    #[arg(value_parser = ["ast", "model", "scene"])]
    pub what: String,
    /// A file, or `-` for stdin.
    #[arg(default_value = "-")]
    pub path: PathBuf,
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
}

struct FileResult {
    display: String,
    source: String,
    report: CheckReport,
}

pub fn run_check(args: CheckArgs) -> ExitCode {
    let limit = args.max_bytes.unwrap_or_else(max_bytes_from_env);
    let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    let (files, mut io_errors) = if stdin {
        (vec![PathBuf::from("-")], Vec::new())
    } else {
        puml_ide::fs::collect_diagram_files(&args.paths)
    };
    let options_for = |path: &PathBuf| CheckOptions {
        file_path: (path.as_os_str() != "-").then(|| path.clone()),
        include_root: args.include_root.clone(),
        allow_url_includes: false,
    };
    // Without --fix every file is independent: check them on all cores,
    // then report in the order the files were given.
    let mut checked = if args.fix || stdin {
        Vec::new()
    } else {
        check_in_parallel(&files, limit, &options_for)
    }
    .into_iter();
    let mut results = Vec::new();
    for path in &files {
        let display = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let options = options_for(path);
        let outcome = match checked.next() {
            Some(outcome) => outcome,
            None => read_input_bytes(path, limit).map(|bytes| {
                let report = crate::analysis::check_bytes(&bytes, &options);
                (bytes, report)
            }),
        };
        match outcome {
            Ok((bytes, report)) => {
                let source = String::from_utf8_lossy(&bytes).into_owned();
                if args.fix
                    && report
                        .diagnostics
                        .iter()
                        .any(|d| d.fixes.iter().any(|f| f.machine_applicable))
                {
                    if let Ok(text) = std::str::from_utf8(&bytes) {
                        let (analysis, file) = crate::analysis::open_with(text, &options);
                        let outcome = crate::analysis::answer(analysis.fix_all(file));
                        let (fixed, applied) = (outcome.source, outcome.applied);
                        if args.stdout {
                            print!("{fixed}");
                        } else if applied > 0 && path.as_os_str() != "-" {
                            if let Err(e) = puml_ide::fs::write_atomic(path, fixed.as_bytes()) {
                                io_errors.push(format!("{display}: cannot write: {e}"));
                            } else {
                                eprintln!("{display}: applied {applied} fix(es)");
                            }
                        }
                        let report = crate::analysis::check_text(&fixed, &options);
                        results.push(FileResult {
                            display,
                            source: fixed,
                            report,
                        });
                        continue;
                    }
                } else if args.fix && args.stdout {
                    print!("{source}");
                }
                results.push(FileResult {
                    display,
                    source,
                    report,
                });
            }
            Err(InputError::Io(message)) => io_errors.push(message),
            Err(InputError::TooLarge { size, limit }) => {
                let diagnostic = LineColDiagnostic {
                    severity: Severity::Error,
                    code: puml_sema::codes::TOO_LARGE,
                    message: format!(
                        "the input is too large ({size} bytes; the limit is {limit} bytes, see --max-bytes)"
                    ),
                    file: None,
                    range: check::LineColRange {
                        line: 1,
                        column: 1,
                        end_line: 1,
                        end_column: 1,
                    },
                    byte_range: Default::default(),
                    related: Vec::new(),
                    fixes: Vec::new(),
                };
                let report = CheckReport {
                    diagnostics: vec![diagnostic],
                    summary: check::CheckSummary {
                        errors: 1,
                        ..Default::default()
                    },
                };
                results.push(FileResult {
                    display,
                    source: String::new(),
                    report,
                });
            }
        }
    }
    let errors: usize = results.iter().map(|r| r.report.summary.errors).sum();
    let warnings: usize = results.iter().map(|r| r.report.summary.warnings).sum();
    let quiet_stdout = args.fix && args.stdout;
    if args.format == "json" && !quiet_stdout {
        let value = json!({
            "files": results.iter().map(|r| json!({
                "path": r.display,
                "diagnostics": r.report.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "summary": {"files": results.len(), "errors": errors, "warnings": warnings},
        });
        println!("{value}");
    } else {
        let mut err = std::io::stderr().lock();
        let mut out = std::io::stdout().lock();
        for result in &results {
            for d in &result.report.diagnostics {
                let sink: &mut dyn Write = if quiet_stdout { &mut err } else { &mut out };
                let _ = write!(sink, "{}", render_human(&result.display, &result.source, d));
            }
        }
        let sink: &mut dyn Write = if quiet_stdout { &mut err } else { &mut out };
        let _ = writeln!(
            sink,
            "{} file(s) checked: {errors} error(s), {warnings} warning(s)",
            results.len()
        );
    }
    for message in &io_errors {
        eprintln!("puml: {message}");
    }
    if !io_errors.is_empty() {
        ExitCode::from(2)
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A file's bytes and its report, or why it could not be read.
type CheckOutcome = Result<(Vec<u8>, CheckReport), InputError>;

/// Reads and checks `files` on every available core; results in file order.
fn check_in_parallel(
    files: &[PathBuf],
    limit: u64,
    options_for: &(dyn Fn(&PathBuf) -> CheckOptions + Sync),
) -> Vec<CheckOutcome> {
    let check = |host: &mut BatchHost, path: &PathBuf| {
        read_input_bytes(path, limit).map(|bytes| {
            let report = host.check_bytes(&bytes, &options_for(path));
            (bytes, report)
        })
    };
    if let [path] = files {
        // One file (`puml check FILE`, what a tool running puml once per
        // diagram pays for): its host is left to the process's exit, which
        // follows the report. Tearing the database down (every table salsa
        // built) was about 40,000 instructions, a tenth of such a process.
        let mut host = std::mem::ManuallyDrop::new(BatchHost::default());
        return vec![check(&mut host, path)];
    }
    parallel_map(files, BatchHost::default, check)
}

/// rustc-style: `path:line:col: error[CODE]: message`, the line, a caret, help.
fn render_human(path: &str, source: &str, d: &LineColDiagnostic) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let file = d.file.as_deref().unwrap_or(path);
    let _ = writeln!(
        out,
        "{file}:{}:{}: {}[{}]: {}",
        d.range.line,
        d.range.column,
        d.severity.as_str(),
        d.code,
        d.message
    );
    if d.file.is_none() {
        if let Some(line_text) = source.lines().nth(d.range.line.saturating_sub(1) as usize) {
            let number = d.range.line.to_string();
            let pad = " ".repeat(number.len());
            let shown: String = line_text.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
            let start = d.range.column.saturating_sub(1) as usize;
            let width = if d.range.end_line == d.range.line {
                (d.range.end_column.saturating_sub(d.range.column) as usize).max(1)
            } else {
                shown.chars().count().saturating_sub(start).max(1)
            };
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{number} | {shown}");
            let _ = writeln!(out, "{pad} | {}{}", " ".repeat(start), "^".repeat(width));
        }
    }
    for fix in &d.fixes {
        let replacement = fix
            .edits
            .first()
            .map(|e| {
                if e.new_text.trim().is_empty() {
                    String::new()
                } else {
                    format!(": `{}`", e.new_text.trim())
                }
            })
            .unwrap_or_default();
        let _ = writeln!(out, "  help: {}{replacement}", fix.title);
    }
    out
}

pub fn run_dump(args: DumpArgs) -> ExitCode {
    let bytes = match read_input_bytes(&args.path, max_bytes_from_env()) {
        Ok(b) => b,
        Err(InputError::Io(m)) => {
            eprintln!("puml: {m}");
            return ExitCode::from(2);
        }
        Err(InputError::TooLarge { size, limit }) => {
            eprintln!("puml: input too large ({size} bytes, limit {limit})");
            return ExitCode::from(2);
        }
    };
    let text = match check::decode_source(&bytes) {
        Ok(t) => t,
        Err(d) => {
            eprintln!("puml: {}", d.message);
            return ExitCode::from(1);
        }
    };
    let file_path = (args.path.as_os_str() != "-").then(|| args.path.clone());
    match args.what.as_str() {
        "ast" => {
            let (analysis, file) = crate::analysis::open(file_path, text, None);
            let parse = crate::analysis::answer(analysis.parse(file));
            if args.format == "json" {
                println!("{}", syntax_json(&parse.syntax()));
            } else {
                print!("{}", puml_syntax::debug_dump(&parse.syntax()));
            }
        }
        "model" => {
            let (analysis, file) = crate::analysis::open(file_path, text, None);
            let document = crate::analysis::answer(analysis.document(file));
            if args.format == "json" {
                match serde_json::to_string_pretty(&document) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("puml: {e}");
                        return ExitCode::from(2);
                    }
                }
            } else {
                println!("{document:#?}");
            }
        }
        _ => {
            eprintln!("puml: `dump scene` is `puml render -f scene-json`");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// The CST as JSON: `{kind, range: [start, end], children | text}`.
pub fn syntax_json(node: &puml_syntax::SyntaxNode) -> Value {
    // Built iteratively: the tree is shallow by construction, but the walk
    // should not depend on that.
    let mut stack: Vec<(puml_syntax::SyntaxNode, Vec<Value>)> = vec![(node.clone(), Vec::new())];
    let mut iterators = vec![node.children_with_tokens()];
    loop {
        let next = iterators.last_mut().and_then(|it| it.next());
        match next {
            Some(puml_syntax::NodeOrToken::Token(t)) => {
                let range = t.text_range();
                if let Some((_, children)) = stack.last_mut() {
                    children.push(json!({"kind": format!("{:?}", t.kind()), "range": [u32::from(range.start()), u32::from(range.end())], "text": t.text()}));
                }
            }
            Some(puml_syntax::NodeOrToken::Node(n)) => {
                iterators.push(n.children_with_tokens());
                stack.push((n, Vec::new()));
            }
            None => {
                iterators.pop();
                let (n, children) = stack.pop().unwrap_or_else(|| (node.clone(), Vec::new()));
                let range = n.text_range();
                let value = json!({"kind": format!("{:?}", n.kind()), "range": [u32::from(range.start()), u32::from(range.end())], "children": children});
                match stack.last_mut() {
                    Some((_, parent)) => parent.push(value),
                    None => return value,
                }
            }
        }
    }
}
