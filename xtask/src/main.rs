//! Project tasks: `cargo xtask <task>`. Each task lives in its own module;
//! this file only dispatches.

mod activity_fidelity;
mod agent_pack;
mod bench_check;
mod bench_layout;
mod bench_lsp;
mod bench_render;
mod bench_serve;
mod bench_wasm;
mod bench_workflow;
mod corpus;
mod dist;
mod fidelity;
mod fix_rate;
mod fuzz;
mod gallery;
mod grammar_probe;
mod grammar_probe_activity;
mod grammar_probe_class;
mod grammar_probe_kinds;
mod serve_common;
mod server_compat;
mod shape_fidelity;
mod wasm;

use std::process::ExitCode;

/// The allocator every puml binary runs with (see crates/puml-cli/src/main.rs),
/// so the in-process benches measure what the binaries do.
#[global_allocator]
static GLOBAL: puml_alloc::MiMalloc = puml_alloc::MiMalloc;

const USAGE: &str = "usage: cargo xtask <task> [args]

tasks:
  bench-check [--corpus DIR] [--no-plantuml] [--puml PATH] [--puml-before PATH]
                                        check throughput, incremental re-check through the
                                        database, the one-diagram `puml check` process against
                                        /bin/true (and a previous build), PlantUML -checkonly
                                        timing when installed
  bench-layout                          puml-graph's layout time against size (10…2,000 class-like
                                        nodes) and the 2,000-node, 20,000-edge stress case (≤ 2 s)
  bench-workflow [--activities N]      agent-workflow import of a generated 1,000-activity
                                        diagram (target ≤ 10 ms), with validate and export
  bench-lsp [--edits-only N]            language server latencies on a 5,000-line diagram (edit →
                                        diagnostics, hover, completion, tokens, formatting) and the
                                        MCP server's repeated check through its host vs uncached;
                                        --edits-only: open + N edits only (for callgrind)
  fix-rate [--bin PATH] [--mutants DIR] [--verbose]
                                        `puml check --fix` on every PlantUML-invalid mutant and
                                        test-data diagram, judged again by PlantUML: the repaired
                                        share per mutation operator; updates test-data/fix/
  fuzz [--minutes N] [--seed S] [--timeout SECONDS]
                                        the seeded mutation fuzzer of `cargo test` for longer;
                                        failing inputs go to test-data/fuzz/ (replayed by tests)
  grammar-probe [--activity|--class|--description|--state|--legacy]
                                        the sequence language's forms enumerated and judged by
                                        PlantUML; writes test-data/grammar/cases.tsv (cargo test
                                        measures puml's agreement with it); --activity: the
                                        activity language's, to test-data/grammar/activity/;
                                        --description, --state, --legacy: those kinds' forms
                                        and near-misses, to test-data/grammar/<kind>/
  bench-serve [--diagram FILE] [--seconds N] [--burst-only]
                                        puml serve vs PlantUML's PicoWeb (requests/s, p50/p99) and
                                        puml-plantuml -tsvg -pipe vs java -jar plantuml.jar as processes,
                                        then puml serve's resident memory over a burst
  server-compat [--limit N] [--verbose]
                                        `puml serve` beside PlantUML's PicoWeb on the shared corpus
                                        and mutants: same status, content type, error line (±1)
  sync-agent-pack [--check]             copy skills/ and agents/ into agent-pack/ (and regenerate
                                        the author skill's syntax.md from the primitive catalog);
                                        --check only reports what is out of date
  validate-agent-pack [--pack DIR] [--marketplace-root DIR] [--bin-dir DIR] [--no-source]
                                        check the agent pack as Claude Code and Codex read it, and
                                        start puml-mcp / puml-lsp through its launchers
  dist [--target TRIPLE] [--out DIR] [--skip-build] [--no-validate] [--no-vsix|--only-vsix]
                                        release binaries, Claude Code and Codex bundles, standalone
                                        archives, the VS Code .vsix with puml-lsp inside, SBOM and
                                        SHA256SUMS in target/dist/
  wasm [--wasm-opt] [--skip-build]     the WebAssembly build: the npm package (editors/npm/dist)
                                        and the static playground (editors/playground/dist), with
                                        the .wasm's size raw and gzipped
  bench-wasm [--corpus DIR] [--rounds N] [--no-browser]
                                        per-diagram check and SVG render in Node's WebAssembly vs
                                        native (target ≤ 2×), and the playground's keystroke →
                                        repainted SVG on a 500-line diagram in headless Chromium
  fidelity [--corpus DIR] [--verbose] [--misses]
                                        compare puml's rendering with PlantUML's SVGs;
                                        --misses lists each unplaced shape
  fidelity --activity [--misses]       activity shapes and texts per construct (corpus-activity,
                                        test-data/activity-probes, seed 001's workflows)
  gallery [--corpus DIR] [--out DIR] [--only A.puml,B.puml]
                                        write docs/gallery (puml PNG beside PlantUML PNG; every
                                        activity corpus diagram and seed 001 workflow too)
  bench-render [--corpus DIR] [--no-plantuml] [--svg-only ROUNDS]
                                        render throughput, 5,000-message diagram, linearity,
                                        PlantUML -tsvg timing when the jar is installed";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(task) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let result = match task.as_str() {
        "fidelity" => fidelity::run(rest),
        "gallery" => gallery::run(rest),
        "bench-render" => bench_render::run(rest),
        "bench-check" => bench_check::run(rest),
        "bench-layout" => bench_layout::run(rest),
        "bench-lsp" => bench_lsp::run(rest),
        "bench-workflow" => bench_workflow::run(rest),
        "fix-rate" => fix_rate::run(rest),
        "fuzz" => fuzz::run(rest),
        "grammar-probe" => grammar_probe::run(rest),
        "server-compat" => server_compat::run(rest),
        "bench-serve" => bench_serve::run(rest),
        "sync-agent-pack" => agent_pack::sync(rest),
        "validate-agent-pack" => agent_pack::validate(rest),
        "dist" => dist::run(rest),
        "wasm" => wasm::run(rest),
        "bench-wasm" => bench_wasm::run(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown task `{other}`\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {task}: {e}");
            ExitCode::FAILURE
        }
    }
}
