//! The repair engine (`puml check --fix`) on the diagrams PlantUML rejects,
//! and its invariants on every diagram we have.
//!
//! `test-data/fix/cases.tsv` (written by `cargo xtask fix-rate`, which asks
//! PlantUML) lists every PlantUML-invalid case with PlantUML's verdict on
//! the input and on puml's repaired output. The repaired outputs are
//! snapshots beside their inputs (`NAME.puml` → `NAME.fixed`;
//! `UPDATE_EXPECT=1` refreshes), so a change in what `--fix` produces shows
//! here without Java; rerun the xtask to have PlantUML judge it again.

use puml_ide::check::CheckOptions;
use puml_ide::fix::{fix_all, FixOutcome};
use puml_sema::FsLoader;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fix_file(path: &Path, text: &str) -> FixOutcome {
    let options = CheckOptions {
        file_path: Some(path.to_path_buf()),
        ..CheckOptions::default()
    };
    fix_all(text, &options, &FsLoader)
}

#[test]
fn repaired_outputs_match_their_snapshots() {
    let root = root();
    let cases = std::fs::read_to_string(root.join("test-data/fix/cases.tsv")).expect("test-data/fix/cases.tsv");
    let mut checked = 0;
    for line in cases.lines().skip(1) {
        let rel = line.split('\t').next().unwrap_or_default();
        let path = root.join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let outcome = fix_file(&path, &text);
        assert!(
            outcome.errors_after <= outcome.errors_before,
            "{rel}: --fix left {} errors, the input had {}",
            outcome.errors_after,
            outcome.errors_before
        );
        expect_test::expect_file![path.with_extension("fixed")].assert_eq(&outcome.source);
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} cases in test-data/fix/cases.tsv");
}

/// The stored figures: PlantUML accepts at least 90 % of the repaired
/// outputs, and at least 80 % per mutation operator (the preprocessor's own
/// failures of `test-data/preprocess/`, which have no repair, apart). The
/// verdicts come from the last `cargo xtask fix-rate`; the snapshot test
/// above guarantees the outputs they judged are still what `--fix` writes.
#[test]
fn stored_fix_rate_meets_the_goal() {
    let cases = std::fs::read_to_string(root().join("test-data/fix/cases.tsv")).expect("cases.tsv");
    let mut per_operator: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for line in cases.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [_, operator, _, fixed] = cols[..] else {
            panic!("bad line in cases.tsv: {line}");
        };
        let accepted = fixed == "VALID" || fixed.starts_with("CRASH");
        let entry = per_operator.entry(operator.to_string()).or_default();
        entry.0 += usize::from(accepted);
        entry.1 += 1;
    }
    let measured: Vec<_> = per_operator
        .iter()
        .filter(|(op, _)| op.as_str() != "preprocess")
        .collect();
    let ok: usize = measured.iter().map(|(_, (ok, _))| ok).sum();
    let total: usize = measured.iter().map(|(_, (_, n))| n).sum();
    eprintln!("stored fix rate: {ok}/{total}; per operator: {per_operator:?}");
    assert!(total > 0);
    assert!(
        ok * 100 >= total * FLOOR_OVERALL,
        "fix rate {ok}/{total} is under {FLOOR_OVERALL} %"
    );
    // Every mutation operator and the language-model mistakes. (`test-data`
    // misses include files puml accepts and PlantUML rejects — agreement
    // gaps, where there is nothing for a fix to act on.)
    for (operator, (ok, n)) in measured.iter().filter(|(op, _)| op.as_str() != "test-data") {
        assert!(
            ok * 100 >= n * FLOOR_PER_OPERATOR,
            "{operator}: {ok}/{n} under {FLOOR_PER_OPERATOR} %"
        );
    }
}

const FLOOR_PER_OPERATOR: usize = 80;

/// The goal.
const FLOOR_OVERALL: usize = 90;

fn diagram_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            diagram_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "puml") {
            out.push(path);
        }
    }
}

/// `../shared` beside the main checkout, also from a worktree nested deeper.
fn shared() -> Option<PathBuf> {
    root()
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|s| s.join("corpus").is_dir())
}

/// `--fix` never leaves more errors than it found, never touches a file
/// without errors, and reaches a fixpoint: fixing the result again changes
/// nothing more than one more bounded run would.
#[test]
fn fix_never_adds_errors() {
    let mut files = Vec::new();
    diagram_files(&root().join("test-data"), &mut files);
    if let Some(shared) = shared() {
        diagram_files(&shared.join("corpus"), &mut files);
        diagram_files(&shared.join("corpus-mutants"), &mut files);
        diagram_files(&shared.join("corpus-class"), &mut files);
    }
    let mut failures = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let outcome = fix_file(path, &text);
        if outcome.errors_after > outcome.errors_before {
            failures.push(format!(
                "{}: {} errors before, {} after",
                path.display(),
                outcome.errors_before,
                outcome.errors_after
            ));
        }
        if outcome.errors_before == 0 && outcome.source != text {
            failures.push(format!("{}: changed a file without errors", path.display()));
        }
    }
    assert!(files.len() > 50);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same invariants over the class-diagram grammar cases
/// (`test-data/grammar/class/cases.tsv`, PlantUML's verdicts beside
/// them), whose near-misses are the mistakes the class repairs act on;
/// and every class mistake PlantUML refuses gets fewer errors from `--fix`.
#[test]
fn class_fixes_never_add_errors() {
    let cases = std::fs::read_to_string(root().join("test-data/grammar/class/cases.tsv")).expect("class cases.tsv");
    let mut failures = Vec::new();
    let mut repaired = 0;
    for line in cases.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.splitn(4, '\t').collect();
        let [id, category, verdict, text] = cols[..] else {
            continue;
        };
        let text = unescape(text);
        let outcome = fix_all(&text, &CheckOptions::default(), &puml_sema::NoIncludes);
        if outcome.errors_after > outcome.errors_before {
            failures.push(format!(
                "{id}: {} errors before, {} after",
                outcome.errors_before, outcome.errors_after
            ));
        }
        if outcome.errors_before == 0 && outcome.source != text {
            failures.push(format!("{id}: changed a case without errors"));
        }
        if category == "class-mistake" && verdict.starts_with("INVALID") && outcome.errors_before > 0 {
            repaired += usize::from(outcome.errors_after < outcome.errors_before);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most refused near-misses have a repair (some only a suggestion).
    assert!(repaired >= 30, "only {repaired} class mistakes repaired");
}

/// A case's text as `cases.tsv` escapes it (`\n`, `\t`, `\\`).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
