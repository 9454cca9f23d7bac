//! Agreement with PlantUML on real description diagrams (use case,
//! component, deployment, rectangle: `../shared/corpus-description`) and
//! state diagrams (`../shared/corpus-state`): a file PlantUML draws gets no error from puml and
//! is recognised as the kind PlantUML names in its SVG
//! (`data-diagram-type`); a file PlantUML refuses gets an error on
//! PlantUML's line. Prints the figures; fails under the level reached.

use puml_sema::{analyze, AnalysisOptions, FsLoader};
use puml_syntax::LineIndex;
use std::path::{Path, PathBuf};

/// `../shared` beside the checkout (looked for upwards, so that a
/// worktree nested deeper finds it too).
fn shared() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .map(|dir| dir.join("shared"))
        .find(|dir| dir.join("corpus-description").is_dir())
        .unwrap_or_else(|| manifest.join("../../../shared"))
}

/// `(file, PlantUML's verdict)` for each line of the corpus's manifest.
fn manifest(dir: &Path) -> Vec<(PathBuf, String)> {
    let Ok(text) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Some((
                dir.join(format!("{}.puml", fields.first()?)),
                fields.get(5)?.to_string(),
            ))
        })
        .collect()
}

/// The kind PlantUML drew, from its SVG beside the file.
fn drawn_kind(path: &Path) -> Option<String> {
    let svg = std::fs::read_to_string(path.with_extension("puml.svg")).ok()?;
    let after = svg.split("data-diagram-type=\"").nth(1)?;
    Some(after.split('"').next()?.to_string())
}

/// `Ok(())` when puml agrees with PlantUML on the file.
fn agrees(path: &Path, verdict: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let options = AnalysisOptions {
        file_path: Some(path.to_path_buf()),
        ..Default::default()
    };
    let analysis = analyze(&text, &options, &FsLoader);
    let index = LineIndex::new(&text);
    let errors: Vec<(u32, String)> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && d.file.is_none())
        .map(|d| (index.line_col(&text, d.range.start()).line, d.message.clone()))
        .collect();
    if let Some(line) = verdict.strip_prefix("INVALID:") {
        let expected: u32 = line.split(':').next().and_then(|l| l.parse().ok()).unwrap_or(0);
        return if errors.iter().any(|(line, _)| *line == expected) {
            Ok(())
        } else {
            Err(format!("PlantUML: error at line {expected}; puml: {errors:?}"))
        };
    }
    if let Some((line, message)) = errors.first() {
        return Err(format!("PlantUML draws it; puml: error at line {line}: {message}"));
    }
    let ours = analysis.document.diagrams.iter().find_map(|d| {
        d.other_kind.map(|k| k.plantuml_name().to_string()).or_else(|| {
            // The kinds puml draws.
            if d.description.is_some() {
                Some("DESCRIPTION".to_string())
            } else if d.state.is_some() {
                Some("STATE".to_string())
            } else if d.class.is_some() {
                Some("CLASS".to_string())
            } else {
                None
            }
        })
    });
    let theirs = drawn_kind(path);
    if ours == theirs {
        Ok(())
    } else {
        Err(format!("PlantUML draws a {theirs:?} diagram, puml recognises {ours:?}"))
    }
}

/// Files agreed on when the level was last raised. Raise them as the
/// readings improve.
const DESCRIPTION_AGREED_AT_LEAST: usize = 53;
const STATE_AGREED_AT_LEAST: usize = 8;

fn agreement(corpus: &str, at_least: usize) {
    let cases = manifest(&shared().join(corpus));
    if cases.is_empty() {
        eprintln!("{corpus}: not present, nothing to compare");
        return;
    }
    let mut agreed = 0;
    let mut misses = Vec::new();
    for (path, verdict) in &cases {
        match agrees(path, verdict) {
            Ok(()) => agreed += 1,
            Err(why) => misses.push(format!("  {}: {why}", path.display())),
        }
    }
    println!(
        "{corpus}: puml agrees with PlantUML on {agreed}/{} files ({:.1} %)",
        cases.len(),
        agreed as f64 * 100.0 / cases.len() as f64
    );
    for miss in &misses {
        println!("{miss}");
    }
    assert!(
        agreed >= at_least,
        "{corpus}: agreement fell to {agreed} (it was {at_least}):\n{}",
        misses.join("\n")
    );
}

#[test]
fn description_diagrams_agree_with_plantuml() {
    agreement("corpus-description", DESCRIPTION_AGREED_AT_LEAST);
}

#[test]
fn state_diagrams_agree_with_plantuml() {
    agreement("corpus-state", STATE_AGREED_AT_LEAST);
}

/// Description files the parser reads as description diagrams (which
/// puml then draws), rather than leaving them to the fallback reading.
const DESCRIPTION_PARSED_AT_LEAST: usize = 52;

#[test]
fn description_diagrams_are_read_as_description_statements() {
    let cases = manifest(&shared().join("corpus-description"));
    let mut parsed = 0;
    let mut others = Vec::new();
    for (path, verdict) in &cases {
        if !verdict.starts_with("VALID") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let analysis = analyze(&text, &AnalysisOptions::default(), &FsLoader);
        if analysis.document.diagrams.iter().all(|d| d.description.is_some()) {
            parsed += 1;
        } else {
            others.push(path.display().to_string());
        }
    }
    println!("corpus-description: {parsed} files read as description diagrams; not: {others:?}");
    assert!(parsed >= DESCRIPTION_PARSED_AT_LEAST, "fell to {parsed}: {others:?}");
}
