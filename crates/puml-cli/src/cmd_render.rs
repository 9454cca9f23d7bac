//! `puml render`. Owned by the rendering work (issue 3).
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RenderArgs {}

pub fn run(_args: RenderArgs) -> ExitCode {
    eprintln!("puml render: being built");
    ExitCode::from(2)
}
