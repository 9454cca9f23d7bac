//! `puml mcp`. Owned by the MCP work (issue 5).
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct McpArgs {}

pub fn run(_args: McpArgs) -> ExitCode {
    eprintln!("puml mcp: being built");
    ExitCode::from(2)
}
