//! `puml-mcp`, built from the same library entry point as the released binary.
fn main() -> std::process::ExitCode {
    puml_server::main_from_args(std::env::args_os().skip(1))
}
