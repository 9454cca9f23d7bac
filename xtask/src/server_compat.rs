//! `cargo xtask server-compat`: `puml serve` side by side with PlantUML's
//! own server (PicoWeb, from the jar) on the shared corpus and its mutants.
//! Every diagram is sent to both as the same `GET /plantuml/svg/ENCODED`
//! URL; they agree when the status and the content type match and, for a
//! 400, the error lines are within one of each other, or puml's is the line
//! PlantUML's command line reports (the corpus manifests' verdicts): the
//! server and the command number some lines differently (a `sprite` body,
//! a line without `:`). Prints the agreement and every disagreement; fails
//! under 99 %.

use crate::corpus::{flag_value, plantuml_jar, workspace_root};
use crate::fix_rate::shared_dir;
use crate::serve_common::{get, start_picoweb, start_puml, Reply};
use puml_compat::encoding::encode_plantuml;
use std::path::PathBuf;

const REQUIRED_AGREEMENT: f64 = 0.99;

pub fn run(args: &[String]) -> Result<(), String> {
    let jar = plantuml_jar().ok_or("PlantUML's jar is not installed (../shared/tools/plantuml-oracle --install)")?;
    let shared = shared_dir(&workspace_root()).ok_or("cannot find ../shared")?;
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["corpus", "corpus-mutants"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(shared.join(dir))
            .map_err(|e| format!("{dir}: {e}"))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "puml"))
            .collect();
        found.sort();
        files.extend(found);
    }
    if let Some(limit) = flag_value(args, "--limit").and_then(|n| n.parse::<usize>().ok()) {
        files.truncate(limit);
    }
    let verbose = args.iter().any(|a| a == "--verbose");
    let puml = start_puml(2)?;
    let pico = start_picoweb(&jar)?;
    let cli_lines = command_line_error_lines(&shared);
    let mut agreed = 0;
    let mut disagreements = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let path = format!("/plantuml/svg/{}", encode_plantuml(&text));
        let theirs = get(pico.addr, &path).map_err(|e| format!("PicoWeb on {}: {e}", file.display()))?;
        let ours = get(puml, &path).map_err(|e| format!("puml on {}: {e}", file.display()))?;
        let name = file.strip_prefix(&shared).unwrap_or(file).display().to_string();
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match compare(&theirs, &ours, cli_lines.get(&stem).copied()) {
            None => {
                agreed += 1;
                if verbose {
                    println!("agree  {name}: {}", summary(&ours));
                }
            }
            Some(why) => disagreements.push(format!(
                "{name}: {why} (PlantUML {}; puml {})",
                summary(&theirs),
                summary(&ours)
            )),
        }
    }
    for line in &disagreements {
        println!("differ {line}");
    }
    let share = agreed as f64 / files.len().max(1) as f64;
    println!(
        "server-compat: puml serve agrees with PlantUML's PicoWeb on {agreed}/{} diagrams ({:.1} %): status, content type, error line ±1",
        files.len(),
        share * 100.0
    );
    if share < REQUIRED_AGREEMENT {
        return Err(format!("agreement under {:.0} %", REQUIRED_AGREEMENT * 100.0));
    }
    Ok(())
}

fn media_type(reply: &Reply) -> String {
    reply
        .header("content-type")
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

fn error_line(reply: &Reply) -> Option<i64> {
    reply.header("x-plantuml-diagram-error-line")?.trim().parse().ok()
}

/// The error line of each INVALID verdict in the corpus manifests
/// (`003` → 41), as PlantUML's command line reported it.
fn command_line_error_lines(shared: &std::path::Path) -> std::collections::HashMap<String, i64> {
    let mut lines = std::collections::HashMap::new();
    for dir in ["corpus", "corpus-mutants"] {
        let manifest = std::fs::read_to_string(shared.join(dir).join("MANIFEST.tsv")).unwrap_or_default();
        for row in manifest.lines() {
            let mut fields = row.split('\t');
            let Some(id) = fields.next() else { continue };
            let line = fields
                .find_map(|field| field.strip_prefix("INVALID:"))
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse().ok());
            if let Some(line) = line {
                lines.insert(id.to_string(), line);
            }
        }
    }
    lines
}

/// `None` when the answers agree, else why not.
fn compare(theirs: &Reply, ours: &Reply, command_line: Option<i64>) -> Option<String> {
    if theirs.status != ours.status {
        return Some("status".into());
    }
    if media_type(theirs) != media_type(ours) {
        return Some("content type".into());
    }
    // PlantUML answers every request with an image, errors included; so must puml.
    if !ours.body.starts_with(b"<svg") {
        return Some("no SVG image in the body".into());
    }
    match (error_line(theirs), error_line(ours)) {
        (Some(a), Some(b)) if (a - b).abs() > 1 && command_line != Some(b) => Some("error line".into()),
        (Some(_), None) | (None, Some(_)) => Some("error line header".into()),
        _ => None,
    }
}

fn summary(reply: &Reply) -> String {
    match error_line(reply) {
        Some(line) => format!("{} {} line {line}", reply.status, media_type(reply)),
        None => format!("{} {}", reply.status, media_type(reply)),
    }
}
