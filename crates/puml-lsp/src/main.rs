//! `puml-lsp`: the language server of puml, over stdio.

use std::process::ExitCode;

/// The allocator every puml binary uses (see `puml`'s main.rs for why).
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--version" || a == "-V") {
        println!("puml-lsp {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!(
            "puml-lsp {}: the PlantUML language server of puml.\n\n\
             Speaks the Language Server Protocol over stdin/stdout; start it from your editor.\n\
             Options: --stdio (the default, accepted for clients that pass it), --version, --help.",
            env!("CARGO_PKG_VERSION")
        );
        return ExitCode::SUCCESS;
    }
    if let Some(unknown) = args.iter().find(|a| a.as_str() != "--stdio") {
        eprintln!("puml-lsp: unknown option {unknown} (see --help)");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("puml-lsp: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(puml_lsp::serve_stdio());
    ExitCode::SUCCESS
}
