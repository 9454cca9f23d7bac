//! `puml-plantuml`: the `plantuml` command line, drawn by puml (see
//! [`puml_compat::command`]). Link it as `plantuml` to use it in place of
//! PlantUML's.

/// The allocator every puml binary uses (see `puml`'s main.rs for why).
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut io = puml_compat::command::Io {
        stdin: &mut stdin.lock(),
        stdout: &mut stdout.lock(),
        stderr: &mut stderr.lock(),
    };
    let code = puml_compat::command::run(&args, &mut io);
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(1))
}
