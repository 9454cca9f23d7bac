//! `puml fmt|normalize|edit|explain|lint|primitives|convert`. Owned by the
//! source-tools work (issue 4).
use std::process::ExitCode;

macro_rules! placeholder {
    ($($args:ident $run:ident),*) => {$(
        #[derive(clap::Args)]
        pub struct $args {}
        pub fn $run(_args: $args) -> ExitCode {
            eprintln!("being built");
            ExitCode::from(2)
        }
    )*};
}
placeholder!(FmtArgs run_fmt, NormalizeArgs run_normalize, EditArgs run_edit, ExplainArgs run_explain, LintArgs run_lint, PrimitivesArgs run_primitives, ConvertArgs run_convert);
