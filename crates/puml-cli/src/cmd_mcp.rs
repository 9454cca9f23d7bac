//! `puml mcp`: runs the MCP server of `puml-mcp` on stdio.
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct McpArgs {
    /// A directory the server may read and write in (repeatable; default: the current directory).
    /// A client's MCP roots can narrow these, never widen them.
    #[arg(long = "root", value_name = "DIR")]
    roots: Vec<PathBuf>,
}

pub fn run(args: McpArgs) -> ExitCode {
    puml_mcp::run_stdio(&puml_mcp::McpOptions { roots: args.roots })
}
