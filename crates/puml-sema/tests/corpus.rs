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
    // `PUML_SHARED_DIR` for a checkout that does not sit beside `shared/`
    // (a worktree elsewhere).
    match std::env::var_os("PUML_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
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

/// Class, object and ER diagrams (`../shared/corpus-class`): puml must
/// agree with every verdict, read every diagram as a class diagram, and
/// find in it every element PlantUML draws (its SVG names each by its
/// qualified name, `data-qualified-name`).
#[test]
fn agreement_with_plantuml_on_class_diagrams() {
    let dir = shared().join("corpus-class");
    let cases = read_manifest(&dir, 0, 5);
    if cases.is_empty() {
        eprintln!("class corpus agreement: ../shared/corpus-class not present, nothing to compare");
        return;
    }
    let mut failures = Vec::new();
    let (mut drawn, mut found) = (0usize, 0usize);
    for case in &cases {
        if let Err(why) = agrees(case) {
            failures.push(format!("{}: {why} (verdict {})", case.path.display(), case.verdict));
        }
        let text = std::fs::read_to_string(&case.path).unwrap_or_default();
        let options = AnalysisOptions {
            file_path: Some(case.path.clone()),
            ..Default::default()
        };
        let analysis = analyze(&text, &options, &FsLoader);
        if analysis.document.diagrams.iter().any(|d| d.class.is_none()) {
            failures.push(format!("{}: not read as a class diagram", case.path.display()));
            continue;
        }
        // Entities PlantUML drew (the first diagram's SVG sits beside the file).
        let svg = std::fs::read_to_string(case.path.with_extension("puml.svg")).unwrap_or_default();
        let names: Vec<&str> = svg
            .split("<g class=\"entity\" data-qualified-name=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        let Some(class) = analysis.document.diagrams.first().and_then(|d| d.class.as_ref()) else {
            continue;
        };
        // PlantUML writes the qualified name joined with `.`, every other
        // character but letters, digits, `_`, `-` and blanks made a `.`.
        let sanitize = |name: &str| -> String {
            name.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | '.') {
                        c
                    } else {
                        '.'
                    }
                })
                .collect()
        };
        let ours: Vec<String> = class
            .elements
            .iter()
            .map(|e| sanitize(&e.qualified_name))
            .chain(class.notes.iter().filter_map(|n| match &n.target {
                puml_sema::class::NoteTarget::Floating { alias: Some(a) } => Some(sanitize(a)),
                _ => None,
            }))
            .collect();
        for name in names {
            let unescaped = name
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"");
            // Notes without an alias get generated names (`GMN12`).
            let last = unescaped.rsplit('.').next().unwrap_or(&unescaped);
            if last
                .strip_prefix("GMN")
                .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
            {
                continue;
            }
            drawn += 1;
            if ours.iter().any(|o| *o == sanitize(&unescaped)) {
                found += 1;
            }
        }
    }
    let share = 100.0 * found as f64 / drawn.max(1) as f64;
    println!(
        "class corpus agreement: {}/{}; elements PlantUML draws found in the model: {found}/{drawn} = {share:.1}%",
        cases.len() - failures.len().min(cases.len()),
        cases.len()
    );
    assert!(failures.is_empty(), "disagreements:\n{}", failures.join("\n"));
    assert!(
        share >= 90.0,
        "only {share:.1}% of the elements PlantUML draws are in the model"
    );
}
