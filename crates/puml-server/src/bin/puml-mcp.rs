//! `puml-mcp`: the MCP server binary. All logic lives in the library.
/// The allocator every puml binary uses (see `puml`'s main.rs for why).
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

fn main() -> std::process::ExitCode {
    puml_server::main_from_args(std::env::args_os().skip(1))
}
