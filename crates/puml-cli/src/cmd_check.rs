//! `puml check` and `puml dump` (in progress).
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {}
#[derive(clap::Args)]
pub struct DumpArgs {}

pub fn run_check(_args: CheckArgs) -> ExitCode {
    ExitCode::from(2)
}
pub fn run_dump(_args: DumpArgs) -> ExitCode {
    ExitCode::from(2)
}
