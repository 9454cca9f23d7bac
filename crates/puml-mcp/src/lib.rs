//! `puml-mcp`: the Model Context Protocol server of puml, on `rmcp`, over
//! stdio. Thin glue over `puml-ide`: it validates inputs, enforces the
//! workspace roots and the write policy, and converts plain data to MCP
//! results. It computes nothing about diagrams itself.
//!
//! Code map: [`server`] routes requests; [`tools`] (one module per group of
//! tools) declares the typed inputs and outputs; [`security`] holds the
//! roots, path resolution, size limits and the include loader;
//! [`resources`] and [`prompts`]; [`wire`] the JSON shapes of diagnostics;
//! [`backend`] the calls into `puml-ide`.
//!
//! Architecture invariant: no file outside the roots is ever read or
//! written, no process is spawned and no socket is opened (stdio only).

pub mod backend;
pub mod prompts;
pub mod resources;
pub mod security;
pub mod server;
pub mod tools;
pub mod wire;

use rmcp::ServiceExt;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

pub use server::PumlServer;

/// Command-line options of `puml-mcp` and `puml mcp`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpOptions {
    /// Allowed workspace roots; empty means the current directory.
    pub roots: Vec<PathBuf>,
}

const USAGE: &str = "\
puml-mcp: the puml MCP server (Model Context Protocol over stdio)

Usage: puml-mcp [--root DIR]...

Options:
  --root DIR   A directory the server may read and write in (repeatable).
               Default: the current directory. A client's MCP roots can
               narrow these further, never widen them.
  -h, --help   Print this help.
  -V, --version
";

enum Parsed {
    Run(McpOptions),
    Exit(ExitCode),
}

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Parsed {
    let mut options = McpOptions::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        match text.as_ref() {
            "-h" | "--help" => {
                print!("{USAGE}");
                return Parsed::Exit(ExitCode::SUCCESS);
            }
            "-V" | "--version" => {
                println!("puml-mcp {}", env!("CARGO_PKG_VERSION"));
                return Parsed::Exit(ExitCode::SUCCESS);
            }
            "--root" => match args.next() {
                Some(dir) => options.roots.push(PathBuf::from(dir)),
                None => {
                    eprintln!("puml-mcp: --root needs a directory\n\n{USAGE}");
                    return Parsed::Exit(ExitCode::from(2));
                }
            },
            other => match other.strip_prefix("--root=") {
                Some(dir) => options.roots.push(PathBuf::from(dir)),
                None => {
                    eprintln!("puml-mcp: unknown argument `{other}`\n\n{USAGE}");
                    return Parsed::Exit(ExitCode::from(2));
                }
            },
        }
    }
    Parsed::Run(options)
}

/// Entry point of the `puml-mcp` binary.
pub fn main_from_args(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    match parse_args(args) {
        Parsed::Run(options) => run_stdio(&options),
        Parsed::Exit(code) => code,
    }
}

/// Builds the server for `options` (canonical roots; the current directory by default).
pub fn build_server(options: &McpOptions) -> std::io::Result<PumlServer> {
    let dirs = if options.roots.is_empty() {
        vec![std::env::current_dir()?]
    } else {
        options.roots.clone()
    };
    let roots = security::Roots::new(&dirs)?;
    Ok(PumlServer::new(roots))
}

/// Serves MCP on stdin/stdout until the client disconnects. Logs go to stderr.
pub fn run_stdio(options: &McpOptions) -> ExitCode {
    let server = match build_server(options) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("puml-mcp: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("puml-mcp: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(async move {
        match serve(server, rmcp::transport::stdio()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("puml-mcp: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

/// Serves one client over any byte transport (stdio, or an in-memory pipe in tests).
pub async fn serve<R, W>(server: PumlServer, transport: (R, W)) -> Result<(), String>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let running = server
        .serve(transport)
        .await
        .map_err(|e| format!("initialization failed: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("the session ended with an error: {e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Option<McpOptions> {
        match parse_args(args.iter().map(OsString::from)) {
            Parsed::Run(options) => Some(options),
            Parsed::Exit(_) => None,
        }
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&[]), Some(McpOptions::default()));
        assert_eq!(
            parse(&["--root", "a", "--root=b"]).unwrap().roots,
            vec![PathBuf::from("a"), PathBuf::from("b")]
        );
        assert_eq!(parse(&["--root"]), None);
        assert_eq!(parse(&["--bogus"]), None);
        assert_eq!(parse(&["--help"]), None);
        assert_eq!(parse(&["-V"]), None);
    }

    #[test]
    fn missing_root_fails_to_build() {
        let options = McpOptions {
            roots: vec![PathBuf::from("/definitely/not/here")],
        };
        assert!(build_server(&options).is_err());
        assert_eq!(
            main_from_args(["--root", "/definitely/not/here"].map(OsString::from)),
            ExitCode::from(2)
        );
    }
}
