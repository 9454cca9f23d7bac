//! Agreement with PlantUML's own verdicts on real-world diagrams
//! (`../shared/corpus`) and on their broken variants
//! (`../shared/corpus-mutants`): a VALID verdict means no error from puml;
//! `INVALID:<line>` means puml reports an error at that line. Also checks
//! that every tree is lossless. Prints the figures; fails under 97 %.

use puml_sema::{analyze, AnalysisOptions, FsLoader};
use puml_syntax::LineIndex;
use std::path::{Path, PathBuf};

struct Case {
    path: PathBuf,
    verdict: String,
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn read_manifest(dir: &Path, id_column: usize, verdict_column: usize) -> Vec<Case> {
    let Ok(text) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let id = fields.get(id_column)?;
            let verdict = fields.get(verdict_column)?;
            Some(Case {
                path: dir.join(format!("{id}.puml")),
                verdict: verdict.to_string(),
            })
        })
        .collect()
}

/// `Ok(())` when puml agrees with the verdict, else a description.
fn agrees(case: &Case) -> Result<(), String> {
    let text = std::fs::read_to_string(&case.path).map_err(|e| e.to_string())?;
    let parse = puml_syntax::parse(&text);
    if parse.syntax().text().to_string() != text {
        return Err("tree is not lossless".into());
    }
    let options = AnalysisOptions {
        file_path: Some(case.path.clone()),
        ..Default::default()
    };
    let analysis = analyze(&text, &options, &FsLoader);
    let index = LineIndex::new(&text);
    let error_lines: Vec<u32> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && d.file.is_none())
        .map(|d| index.line_col(&text, d.range.start()).line)
        .collect();
    if case.verdict == "VALID" || case.verdict.starts_with("CRASH") {
        return match error_lines.first() {
            None => Ok(()),
            Some(line) => Err(format!("PlantUML accepts it, puml reports an error at line {line}")),
        };
    }
    let expected: u32 = case.verdict.split(':').nth(1).and_then(|l| l.parse().ok()).unwrap_or(0);
    if error_lines.contains(&expected) {
        Ok(())
    } else {
        Err(format!(
            "PlantUML: error at line {expected}; puml: errors at {error_lines:?}"
        ))
    }
}

#[test]
fn agreement_with_plantuml_verdicts() {
    let shared = shared();
    let corpus = read_manifest(&shared.join("corpus"), 0, 5);
    let mutants = read_manifest(&shared.join("corpus-mutants"), 0, 3);
    if corpus.is_empty() && mutants.is_empty() {
        eprintln!("corpus agreement: ../shared/corpus not present, nothing to compare");
        return;
    }
    let mut total_ok = 0;
    let mut total = 0;
    for (name, cases) in [("corpus", &corpus), ("corpus-mutants", &mutants)] {
        let mut ok = 0;
        for case in cases.iter() {
            match agrees(case) {
                Ok(()) => ok += 1,
                Err(why) => eprintln!("  disagree {}: {why} (verdict {})", case.path.display(), case.verdict),
            }
        }
        let share = if cases.is_empty() {
            100.0
        } else {
            100.0 * ok as f64 / cases.len() as f64
        };
        println!("corpus agreement [{name}]: {ok}/{} = {share:.1}%", cases.len());
        total_ok += ok;
        total += cases.len();
    }
    let share = 100.0 * total_ok as f64 / total as f64;
    println!("corpus agreement [all]: {total_ok}/{total} = {share:.1}%");
    assert!(share >= 97.0, "agreement {share:.1}% is under 97%");
}

/// Activity diagrams (`../shared/corpus-activity`): puml must agree with
/// every verdict (valid, or the error on PlantUML's line), and read every
/// file as an activity diagram.
#[test]
fn agreement_with_plantuml_on_activity_diagrams() {
    let dir = shared().join("corpus-activity");
    let cases = read_manifest(&dir, 0, 5);
    if cases.is_empty() {
        eprintln!("activity corpus agreement: ../shared/corpus-activity not present, nothing to compare");
        return;
    }
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(why) = agrees(case) {
            failures.push(format!("{}: {why} (verdict {})", case.path.display(), case.verdict));
        }
        let text = std::fs::read_to_string(&case.path).unwrap_or_default();
        let analysis = analyze(&text, &AnalysisOptions::default(), &FsLoader);
        if analysis.document.diagrams.iter().any(|d| d.activity.is_none()) {
            failures.push(format!("{}: not read as an activity diagram", case.path.display()));
        }
    }
    println!(
        "activity corpus agreement: {}/{}",
        cases.len() - failures.len().min(cases.len()),
        cases.len()
    );
    assert!(failures.is_empty(), "disagreements:\n{}", failures.join("\n"));
}
