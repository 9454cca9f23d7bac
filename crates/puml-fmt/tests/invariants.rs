//! The formatter's invariants, checked on every diagram of `test-data/` and
//! of the shared corpora (`../shared/corpus`, `../shared/corpus-mutants`,
//! `../shared/corpus-activity`, `../shared/corpus-class`,
//! `../shared/corpus-description`,
//! when present beside the repository):
//!
//! - idempotent: `fmt(fmt(x)) == fmt(x)`;
//! - the model is equal before and after;
//! - the number of comments is equal;
//! - no new diagnostics (by code).

use puml_fmt::{format, FormatOptions};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use puml_syntax::SyntaxKind;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn diagram_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            diagram_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| ["puml", "plantuml", "pu", "iuml"].contains(&e.to_string_lossy().as_ref()))
        {
            out.push(path);
        }
    }
}

fn comment_count(text: &str) -> usize {
    puml_syntax::parse(text)
        .syntax()
        .descendants_with_tokens()
        .filter(|e| matches!(e.kind(), SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT))
        .count()
}

fn diagnostic_codes(text: &str) -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = analyze(text, &AnalysisOptions::default(), &NoIncludes)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect();
    codes.sort();
    codes
}

/// Returns the failures for one file (empty when every invariant holds).
fn check(path: &Path, text: &str) -> Vec<String> {
    let options = FormatOptions::default();
    let mut failures = Vec::new();
    let once = format(text, &options);
    let twice = format(&once, &options);
    if once != twice {
        failures.push(format!("{}: not idempotent", path.display()));
    }
    let before = analyze(text, &AnalysisOptions::default(), &NoIncludes);
    let after = analyze(&once, &AnalysisOptions::default(), &NoIncludes);
    if before.document != after.document {
        failures.push(format!("{}: the model changed", path.display()));
    }
    if comment_count(text) != comment_count(&once) {
        failures.push(format!("{}: comment count changed", path.display()));
    }
    let old = diagnostic_codes(text);
    let mut remaining = old.clone();
    for code in diagnostic_codes(&once) {
        match remaining.iter().position(|c| *c == code) {
            Some(i) => {
                remaining.remove(i);
            }
            None => failures.push(format!("{}: new diagnostic {code}", path.display())),
        }
    }
    failures
}

#[test]
fn formatter_invariants_hold_on_every_file() {
    let root = repo_root();
    let mut files = Vec::new();
    diagram_files(&root.join("test-data"), &mut files);
    let local = files.len();
    let shared = std::env::var_os("PUML_SHARED_DIR").map_or_else(|| root.join("../shared"), PathBuf::from);
    diagram_files(&shared.join("corpus"), &mut files);
    let corpus = files.len() - local;
    diagram_files(&shared.join("corpus-mutants"), &mut files);
    let mutants = files.len() - local - corpus;
    diagram_files(&shared.join("corpus-activity"), &mut files);
    let before_class = files.len();
    diagram_files(&shared.join("corpus-class"), &mut files);
    let class = files.len() - before_class;
    diagram_files(&shared.join("corpus-description"), &mut files);
    let mut failures = Vec::new();
    let mut with_messages = 0;
    let mut changed = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let analysis = analyze(&text, &AnalysisOptions::default(), &NoIncludes);
        if analysis.document.diagrams.iter().any(|d| d.messages().next().is_some()) {
            with_messages += 1;
        }
        if format(&text, &FormatOptions::default()) != text {
            changed += 1;
        }
        failures.extend(check(path, &text));
    }
    println!(
        "fmt invariants checked on {} files ({local} test-data, {corpus} corpus, {mutants} corpus mutants, {class} class diagrams); \
         {with_messages} have messages in their model, {changed} are reformatted",
        files.len()
    );
    assert!(local > 0, "no test-data files found");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Cut-off files (an editor mid-typing) never panic and still format
/// idempotently.
#[test]
fn truncated_inputs_format_idempotently() {
    let root = repo_root();
    let mut files = Vec::new();
    diagram_files(&root.join("test-data"), &mut files);
    diagram_files(&root.join("../shared/corpus"), &mut files);
    let options = FormatOptions::default();
    let mut checked = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for part in 1..8 {
            let mut cut = text.len() * part / 8;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let prefix = &text[..cut];
            let once = format(prefix, &options);
            assert_eq!(format(&once, &options), once, "{} cut at {cut}", path.display());
            checked += 1;
        }
    }
    println!("{checked} truncated inputs formatted idempotently");
}

/// The same invariants over the generated grammar cases of `path` (each
/// statement form, nested blocks, broken ones); at least `minimum` of them.
fn check_grammar_cases(path: &Path, minimum: usize) {
    let Ok(tsv) = std::fs::read_to_string(path) else {
        return;
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let Some(text) = line.splitn(4, '\t').nth(3) else {
            continue;
        };
        let text = text.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\");
        let id = line.split('\t').next().unwrap_or("?");
        failures.extend(check(Path::new(id), &text));
        checked += 1;
    }
    assert!(checked >= minimum, "only {checked} cases");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The activity grammar cases (`test-data/grammar/activity/cases.tsv`).
#[test]
fn formatter_invariants_hold_on_the_activity_grammar_cases() {
    check_grammar_cases(&repo_root().join("test-data/grammar/activity/cases.tsv"), 500);
}

/// The legacy activity grammar cases (`test-data/grammar/legacy/cases.tsv`:
/// each line form after an activity, before any and inside a branch; the
/// probes and real files of `test-data/legacy-activity-*` are among every
/// file of `test-data` above).
#[test]
fn formatter_invariants_hold_on_the_legacy_activity_grammar_cases() {
    check_grammar_cases(&repo_root().join("test-data/grammar/legacy/cases.tsv"), 50);
}
