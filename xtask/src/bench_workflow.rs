//! `cargo xtask bench-workflow`: agent-workflow import (seed 001) of a
//! generated 1,000-activity diagram (every activity with a `<<prompt>>`
//! note, four swimlanes, `if`, `fork` and `repeat` blocks). Prints the
//! median of: the whole import through a fresh `AnalysisHost` (parse,
//! lowering, YAML notes, graph), the conversion alone over an analysed
//! model, validation, and export. The target is an import within 10 ms.
//! A benchmark: it prints, never fails on figures.

use puml_ide::workflow;
use puml_ide::{AnalysisHost, HostConfig};
use puml_sema::{AnalysisOptions, NoIncludes};
use std::time::{Duration, Instant};

fn median(mut f: impl FnMut(), min_runs: usize) -> Duration {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < min_runs || start.elapsed() < Duration::from_secs(2) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
        if times.len() >= 10_000 {
            break;
        }
    }
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let activities: usize = match args.iter().position(|a| a == "--activities") {
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or("--activities needs a number")?,
        None => 1000,
    };
    let text = workflow::bench::generated_diagram(activities);
    println!(
        "generated workflow: {activities} activities, {} lines, {:.1} KB",
        text.lines().count(),
        text.len() as f64 / 1024.0
    );

    let fresh = || {
        let (host, file) = AnalysisHost::single_file(None, text.clone(), HostConfig::default());
        (host, file)
    };
    let (host, file) = fresh();
    let report = host.analysis().workflow_import(file).map_err(|e| e.to_string())?;
    if report.has_errors() {
        return Err(format!(
            "the generated diagram has errors: {:?}",
            &report.diagnostics[..1]
        ));
    }
    let imported = report.import.clone().ok_or("no workflow")?;
    println!(
        "workflow: {} nodes, {} edges",
        imported.workflow.nodes.len(),
        imported.workflow.edges.len()
    );

    let whole = median(
        || {
            let (host, file) = fresh();
            let _ = host.analysis().workflow_import(file);
        },
        20,
    );
    let analysis = puml_sema::analyze(&text, &AnalysisOptions::default(), &NoIncludes);
    let (diagram, map) = analysis
        .document
        .diagrams
        .iter()
        .zip(&analysis.source_map.diagrams)
        .find_map(|(d, m)| Some((d, d.activity.as_deref()?, m.activity.as_ref()?)))
        .map(|(d, a, m)| ((d, a), m))
        .ok_or("no activity diagram")?;
    let convert = median(
        || {
            let _ = workflow::import::import(diagram.1, map, diagram.0.title.as_deref(), None, &text);
        },
        50,
    );
    let parse_lower = median(
        || {
            let _ = puml_sema::analyze(&text, &AnalysisOptions::default(), &NoIncludes);
        },
        20,
    );
    let validate = median(
        || {
            let _ = workflow::validate::validate(&imported, &text, None);
        },
        20,
    );
    let export = median(
        || {
            let _ = workflow::export(&imported.workflow);
        },
        20,
    );
    let json = median(
        || {
            let _ = imported.workflow.to_json(Some(&imported.spans())).to_pretty();
        },
        50,
    );
    let repeated = median(
        || {
            let _ = host.analysis().workflow_import(file);
        },
        100,
    );
    println!(
        "import, whole (fresh host: parse + lower + notes + graph): {}  (target ≤ 10 ms)",
        ms(whole)
    );
    println!(
        "  of which parse + lower:                                 {}",
        ms(parse_lower)
    );
    println!(
        "  of which notes (YAML) + graph:                          {}",
        ms(convert)
    );
    println!(
        "import again, same revision (a query lookup):             {}",
        ms(repeated)
    );
    println!("Workflow JSON printed:                                    {}", ms(json));
    println!(
        "validate (six rules):                                     {}",
        ms(validate)
    );
    println!(
        "export to PlantUML:                                       {}",
        ms(export)
    );
    Ok(())
}
