//! `puml`: argv, files and exit codes over `puml-ide`. Computes nothing itself.
//!
//! Exit codes: 0 success, 1 the input has errors (or `--check` found
//! changes), 2 usage or I/O error.

mod analysis;
mod cmd_check;
mod cmd_mcp;
mod cmd_render;
mod cmd_serve;
mod cmd_tools;
mod cmd_workflow;
mod io_util;

/// glibc's allocator spent about a quarter of a corpus render in malloc and
/// free (many small, short-lived allocations on several threads);
/// mimalloc's per-thread free lists take a fraction of that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "puml",
    version,
    about = "A compiler toolchain for PlantUML diagrams: check, fix, format, edit and render them, run workflows written as diagrams, and serve editors and agents"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in diagrams (files, directories, globs or `-`).
    Check(cmd_check::CheckArgs),
    /// Print the syntax tree or the model.
    Dump(cmd_check::DumpArgs),
    /// Render diagrams to SVG, PNG, PDF, text art or scene JSON.
    Render(cmd_render::RenderArgs),
    /// Format diagrams in place (or stdin to stdout with `-`).
    Fmt(cmd_tools::FmtArgs),
    /// Canonical source, optionally declaring implicit participants.
    Normalize(cmd_tools::NormalizeArgs),
    /// Apply a structural edit (add_message, rename_participant, …).
    Edit(cmd_tools::EditArgs),
    /// Explain a diagram: participants, flow, groups, summary.
    Explain(cmd_tools::ExplainArgs),
    /// Readability advice, separate from compiler diagnostics.
    Lint(cmd_tools::LintArgs),
    /// The catalog of supported syntax.
    Primitives(cmd_tools::PrimitivesArgs),
    /// Convert another notation (Mermaid sequenceDiagram) to puml.
    Convert(cmd_tools::ConvertArgs),
    /// Run the MCP server on stdio (or over HTTP with --http ADDR).
    Mcp(cmd_mcp::McpArgs),
    /// Serve PlantUML's HTTP protocol and Kroki's API (plus MCP and REST) for existing integrations.
    Serve(cmd_serve::ServeArgs),
    /// Agent workflows (activity diagram ⇄ Workflow JSON): import, export, validate.
    Workflow(cmd_workflow::WorkflowArgs),
}

/// `puml check … | head` must end quietly when `head` closes the pipe, as
/// Unix tools do, instead of panicking in `println!`. Rust ignores SIGPIPE
/// by default; restoring the default action gives the usual behaviour.
fn die_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL
    // is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    if !matches!(cli.command, Command::Mcp(_) | Command::Serve(_)) {
        die_quietly_on_closed_pipe();
    }
    match cli.command {
        Command::Check(args) => cmd_check::run_check(args),
        Command::Dump(args) => cmd_check::run_dump(args),
        Command::Render(args) => cmd_render::run(args),
        Command::Fmt(args) => cmd_tools::run_fmt(args),
        Command::Normalize(args) => cmd_tools::run_normalize(args),
        Command::Edit(args) => cmd_tools::run_edit(args),
        Command::Explain(args) => cmd_tools::run_explain(args),
        Command::Lint(args) => cmd_tools::run_lint(args),
        Command::Primitives(args) => cmd_tools::run_primitives(args),
        Command::Convert(args) => cmd_tools::run_convert(args),
        Command::Mcp(args) => cmd_mcp::run(args),
        Command::Serve(args) => cmd_serve::run(args),
        Command::Workflow(args) => cmd_workflow::run(args),
    }
}
