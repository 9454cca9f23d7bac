//! `puml workflow import|export|validate`: agent workflows (seed 001)
//! between activity diagrams and Workflow JSON, over `puml_ide`'s host.

use crate::cmd_check::diagnostic_json;
use crate::cmd_tools::{display_name, fail, read_text};
use puml_ide::workflow::{self, TemplateRegistry};
use puml_syntax::{Diagnostic, LineIndex, Severity};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct WorkflowArgs {
    #[command(subcommand)]
    pub command: WorkflowCommand,
}

#[derive(clap::Subcommand)]
pub enum WorkflowCommand {
    /// Activity diagram → Workflow JSON (stdout); diagnostics on stderr.
    Import {
        /// The diagram, or `-` for stdin.
        file: PathBuf,
        /// Leave out each node's source span (`span: {start, end}`).
        #[arg(long)]
        no_spans: bool,
    },
    /// Workflow JSON → PlantUML activity diagram (stdout).
    Export {
        /// The Workflow JSON, or `-` for stdin.
        file: PathBuf,
    },
    /// The diagram's diagnostics, then the six workflow rules.
    Validate {
        /// A diagram or a Workflow JSON file, or `-` for stdin.
        file: PathBuf,
        /// Template registry: a directory (file names are ids) or a JSON file.
        #[arg(long)]
        templates: Option<PathBuf>,
        #[arg(long, value_parser = ["human", "json"], default_value = "human")]
        format: String,
    },
}

/// `path:line:col: severity[code]: message`, with fixes as `help:` lines.
fn print_human(path: &Path, text: &str, diagnostics: &[Diagnostic], to_stderr: bool) {
    let index = LineIndex::new(text);
    for d in diagnostics {
        let at = index.line_col(text, d.range.start());
        let line = format!(
            "{}:{}:{}: {}[{}]: {}",
            display_name(path),
            at.line,
            at.col,
            d.severity.as_str(),
            d.code,
            d.message
        );
        let helps: Vec<String> = d.fixes.iter().map(|f| format!("  help: {}", f.title)).collect();
        if to_stderr {
            eprintln!("{line}");
            helps.iter().for_each(|h| eprintln!("{h}"));
        } else {
            println!("{line}");
            helps.iter().for_each(|h| println!("{h}"));
        }
    }
}

fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

pub fn run(args: WorkflowArgs) -> ExitCode {
    match args.command {
        WorkflowCommand::Import { file, no_spans } => import(&file, no_spans),
        WorkflowCommand::Export { file } => export(&file),
        WorkflowCommand::Validate {
            file,
            templates,
            format,
        } => validate(&file, templates.as_deref(), &format),
    }
}

fn import(path: &Path, no_spans: bool) -> ExitCode {
    let text = match read_text(path) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let file_path = (path.as_os_str() != "-").then(|| path.to_path_buf());
    let (analysis, file) = crate::analysis::open(file_path, &text, None);
    let report = crate::analysis::answer(analysis.workflow_import(file));
    print_human(path, &text, &report.diagnostics, true);
    match &report.import {
        Some(import) if !report.has_errors() => {
            let spans = (!no_spans).then(|| import.spans());
            println!("{}", import.workflow.to_json(spans.as_deref()).to_pretty());
            ExitCode::SUCCESS
        }
        _ => ExitCode::from(1),
    }
}

fn export(path: &Path) -> ExitCode {
    let text = match read_text(path) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let result = workflow::workflow_from_json_text(&text).and_then(|w| workflow::export_workflow(&w));
    match result {
        Ok(diagram) => {
            print!("{diagram}");
            ExitCode::SUCCESS
        }
        Err(diagnostics) => {
            for d in diagnostics {
                eprintln!(
                    "{}: {}[{}]: {}",
                    display_name(path),
                    d.severity.as_str(),
                    d.code,
                    d.message
                );
            }
            ExitCode::from(1)
        }
    }
}

fn validate(path: &Path, templates: Option<&Path>, format: &str) -> ExitCode {
    let text = match read_text(path) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let registry = match templates.map(TemplateRegistry::load).transpose() {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let is_json = path.extension().is_some_and(|e| e == "json") || workflow::looks_like_json(&text);
    let diagnostics = if is_json {
        match workflow::workflow_from_json_text(&text) {
            Ok(w) => workflow::validate_workflow(&w, registry.as_ref()),
            Err(d) => d,
        }
    } else {
        let file_path = (path.as_os_str() != "-").then(|| path.to_path_buf());
        let (analysis, file) = crate::analysis::open(file_path, &text, None);
        crate::analysis::answer(analysis.workflow_validate(file, registry.as_ref()))
    };
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
    if format == "json" {
        let index = LineIndex::new(&text);
        let list: Vec<serde_json::Value> = diagnostics
            .iter()
            .map(|d| diagnostic_json(&puml_ide::check::locate(&text, &index, d, &[])))
            .collect();
        let value = json!({
            "path": display_name(path),
            "valid": errors == 0,
            "templates_checked": registry.is_some(),
            "diagnostics": list,
            "errors": errors,
            "warnings": warnings,
        });
        println!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
    } else {
        print_human(path, &text, &diagnostics, false);
        eprintln!(
            "{}: {}",
            display_name(path),
            if errors == 0 {
                format!("valid workflow ({warnings} warnings)")
            } else {
                format!("{errors} errors, {warnings} warnings")
            }
        );
    }
    if has_errors(&diagnostics) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
