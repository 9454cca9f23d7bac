//! `puml-mcp`: the Model Context Protocol server of puml, on `rmcp`: its
//! tools, resources and prompts, served over stdio here ([`run_stdio`]) and
//! over streamable HTTP by `puml-server` (which also holds the `puml-mcp`
//! binary and its command line). Thin glue over `puml-ide`: it validates inputs, enforces the
//! workspace roots and the write policy, and converts plain data to MCP
//! results. It computes nothing about diagrams itself.
//!
//! Code map: [`server`] routes requests; [`tools`] (one module per group of
//! tools) declares the typed inputs and outputs; [`security`] holds the
//! roots, path resolution, size limits and the include loader;
//! [`resources`] and [`prompts`]; [`wire`] the JSON shapes of diagnostics;
//! [`backend`] the calls into `puml-ide`; [`analyzer`] the process-wide host.
//!
//! Architecture invariant: no file outside the roots is ever read or
//! written, no process is spawned, and no socket is opened except the
//! listening one of `puml-server` (no outgoing connections ever).

pub mod analyzer;
pub mod backend;
pub mod prompts;
pub mod resources;
pub mod security;
pub mod server;
pub mod tools;
pub mod wire;

use rmcp::ServiceExt;
use std::path::PathBuf;
use std::process::ExitCode;

pub use server::PumlServer;

/// What an MCP server is given, over any transport.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpOptions {
    /// Allowed workspace roots; empty means the current directory.
    pub roots: Vec<PathBuf>,
}

/// Builds the server for `options` (canonical roots; the current directory by default).
pub fn build_server(options: &McpOptions) -> std::io::Result<PumlServer> {
    Ok(PumlServer::new(roots_of(options)?))
}

/// The canonical roots of `options`: the current directory when none were given.
pub fn roots_of(options: &McpOptions) -> std::io::Result<security::Roots> {
    let dirs = if options.roots.is_empty() {
        vec![std::env::current_dir()?]
    } else {
        options.roots.clone()
    };
    security::Roots::new(&dirs)
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

    #[test]
    fn missing_root_fails_to_build() {
        let options = McpOptions {
            roots: vec![PathBuf::from("/definitely/not/here")],
        };
        assert!(build_server(&options).is_err());
        assert_eq!(run_stdio(&options), ExitCode::from(2));
    }
}
