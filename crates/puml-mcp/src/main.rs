//! `puml-mcp`: the MCP server binary. All logic lives in the library.
fn main() -> std::process::ExitCode {
    puml_mcp::main_from_args(std::env::args_os().skip(1))
}
