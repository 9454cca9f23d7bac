//! `puml`: argv, files and exit codes over `puml-ide`. Computes nothing itself.
//!
//! Exit codes: 0 success, 1 the input has errors (or `--check` found
//! changes), 2 usage or I/O error.

mod allocator;
mod analysis;
mod cmd_check;
mod cmd_mcp;
mod cmd_render;
mod cmd_serve;
mod cmd_tools;
mod cmd_workflow;
mod io_util;

/// The system's allocator for one file on the main thread, mimalloc once
/// several threads may allocate (see `allocator`).
#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::Allocator;

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
    let command = match hot_command(std::env::args_os().skip(1)) {
        Some(command) => command,
        None => match Cli::try_parse() {
            Ok(cli) => cli.command,
            Err(err) => {
                let code = if err.use_stderr() { 2 } else { 0 };
                let _ = err.print();
                return ExitCode::from(code);
            }
        },
    };
    // Checking and rendering choose mimalloc where they start threads;
    // every other command (servers among them) has it from the start.
    if !matches!(command, Command::Check(_) | Command::Render(_)) {
        allocator::use_mimalloc();
    }
    if !matches!(command, Command::Mcp(_) | Command::Serve(_)) {
        die_quietly_on_closed_pipe();
    }
    match command {
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

/// The forms a tool that runs `puml` once per diagram uses (`check FILE…`,
/// `render [-f FORMAT] [-o OUTPUT] FILE…`), read without clap: building
/// clap's tree of every subcommand and option was about 15 % of such a
/// process's instructions. Anything else (another option, a value clap
/// would refuse, `--help`, an option given twice) is `None`, and clap
/// parses it as always, with its messages; the arguments are the ones clap
/// gives for the same words (tested).
fn hot_command(mut args: impl Iterator<Item = std::ffi::OsString>) -> Option<Command> {
    let subcommand = args.next()?;
    let mut paths = Vec::new();
    let (mut format, mut output) = (None, None);
    let is_render = match subcommand.to_str()? {
        "check" => false,
        "render" => true,
        _ => return None,
    };
    while let Some(arg) = args.next() {
        let bytes = arg.as_encoded_bytes();
        if !bytes.starts_with(b"-") || bytes == b"-" {
            paths.push(std::path::PathBuf::from(arg));
            continue;
        }
        match arg.to_str() {
            Some("-f" | "--format") if is_render && format.is_none() => {
                let value = args.next()?.into_string().ok()?;
                cmd_render::FORMATS.contains(&value.as_str()).then_some(())?;
                format = Some(value);
            }
            Some("-o" | "--output") if is_render && output.is_none() => {
                let value = args.next()?;
                // clap reads a value that looks like a flag as one.
                let bytes = value.as_encoded_bytes();
                (!bytes.starts_with(b"-") || bytes == b"-").then_some(())?;
                output = Some(std::path::PathBuf::from(value));
            }
            _ => return None,
        }
    }
    if paths.is_empty() {
        return None;
    }
    Some(if is_render {
        Command::Render(cmd_render::RenderArgs::for_paths(paths, format, output))
    } else {
        Command::Check(cmd_check::CheckArgs::for_paths(paths))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clap_command(words: &[&str]) -> Option<Command> {
        Cli::try_parse_from(std::iter::once("puml").chain(words.iter().copied()))
            .ok()
            .map(|cli| cli.command)
    }

    fn hot(words: &[&str]) -> Option<Command> {
        hot_command(words.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn the_hand_read_forms_give_what_clap_gives() {
        for words in [
            &["check", "a.puml"][..],
            &["check", "a.puml", "dir", "-"],
            &["render", "a.puml"],
            &["render", "-f", "png", "a.puml"],
            &["render", "a.puml", "--format", "pdf", "-o", "-"],
            &["render", "--output", "out.svg", "a.puml"],
            &["render", "-o", "x.txt", "-f", "utxt", "-"],
        ] {
            let (Some(hot), Some(clap)) = (hot(words), clap_command(words)) else {
                panic!("{words:?}: both parse");
            };
            match (hot, clap) {
                (Command::Check(a), Command::Check(b)) => assert_eq!(a, b, "{words:?}"),
                (Command::Render(a), Command::Render(b)) => assert_eq!(a, b, "{words:?}"),
                _ => panic!("{words:?}: another subcommand"),
            }
        }
    }

    #[test]
    fn every_other_form_is_left_to_clap() {
        for words in [
            &[][..],
            &["check"],
            &["render"],
            &["check", "--help"],
            &["check", "--format", "json", "a.puml"],
            &["check", "--fix", "a.puml"],
            &["check", "-f", "svg", "a.puml"],
            &["render", "-f", "gif", "a.puml"],
            &["render", "-f", "svg", "-f", "png", "a.puml"],
            &["render", "-o", "--theme", "a.puml"],
            &["render", "-f"],
            &["render", "--format=svg", "a.puml"],
            &["render", "--theme", "dark", "a.puml"],
            &["fmt", "a.puml"],
            &["--version"],
        ] {
            assert!(hot(words).is_none(), "{words:?} is clap's");
        }
    }
}
