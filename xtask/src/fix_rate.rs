//! `cargo xtask fix-rate`: how often `puml check --fix` turns a diagram that
//! PlantUML rejects into one that PlantUML accepts.
//!
//! The cases are every PlantUML-invalid file of `../shared/corpus-mutants`
//! (PlantUML's verdicts are stored in its `MANIFEST.tsv`) and of
//! `test-data/` (asked of the oracle here), plus the held-out
//! language-model mistakes of `test-data/fix/llm/`. Each one goes through
//! `puml check --fix --stdout` (the release binary when built, else the
//! debug one), and the oracle judges the output again. The invalid mutants
//! are copied to `test-data/fix/mutants/` and every case is listed in
//! `test-data/fix/cases.tsv` with both verdicts, so that the repaired
//! outputs are snapshot-tested by `cargo test` without Java
//! (`crates/puml-ide/tests/fix.rs`).

use crate::corpus::{flag_value, workspace_root};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    /// Path relative to the workspace root (the mutants' copies included).
    rel: String,
    operator: String,
    input_verdict: String,
    fixed_verdict: String,
    changed: bool,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let root = workspace_root();
    let shared = shared_dir(&root).ok_or("cannot find ../shared (with tools/plantuml-oracle) above the workspace")?;
    let oracle = shared.join("tools/plantuml-oracle");
    let mutants_dir = flag_value(args, "--mutants")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared.join("corpus-mutants"));
    let bin = match flag_value(args, "--bin") {
        Some(b) => PathBuf::from(b),
        None => ["release", "debug"]
            .iter()
            .map(|p| root.join("target").join(p).join("puml"))
            .find(|p| p.exists())
            .ok_or("build puml first (cargo build -p puml-cli [--release])")?,
    };
    let verbose = args.iter().any(|a| a == "--verbose");
    let jar = oracle_jar(&oracle)?;

    // 1. The invalid mutants, copied into test-data/fix/mutants/.
    let mut cases = Vec::new();
    let copies = root.join("test-data/fix/mutants");
    std::fs::create_dir_all(&copies).map_err(|e| e.to_string())?;
    let manifest = std::fs::read_to_string(mutants_dir.join("MANIFEST.tsv"))
        .map_err(|e| format!("cannot read {}/MANIFEST.tsv: {e}", mutants_dir.display()))?;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [id, _source, operator, verdict] = cols[..] else {
            continue;
        };
        if !verdict.starts_with("INVALID") {
            continue;
        }
        let text = std::fs::read_to_string(mutants_dir.join(format!("{id}.puml"))).map_err(|e| format!("{id}: {e}"))?;
        let copy = copies.join(format!("{id}.puml"));
        if std::fs::read_to_string(&copy).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&copy, &text).map_err(|e| e.to_string())?;
        }
        cases.push(Case {
            rel: format!("test-data/fix/mutants/{id}.puml"),
            operator: operator.to_string(),
            input_verdict: verdict.to_string(),
            fixed_verdict: String::new(),
            changed: false,
        });
    }

    // 2. Every other diagram of test-data/: the oracle says which are invalid.
    let mut others = Vec::new();
    collect_puml(&root.join("test-data"), &mut others);
    // test-data/ide holds cursor-marked fixtures (`$0`), not diagrams.
    let cursor_fixtures = root.join("test-data/ide");
    others.retain(|p| !p.starts_with(&copies) && !p.starts_with(&cursor_fixtures));
    others.sort();
    let sources: Vec<(PathBuf, String)> = others
        .iter()
        .filter_map(|p| Some((p.clone(), std::fs::read_to_string(p).ok()?)))
        .collect();
    eprintln!("fix-rate: asking the oracle about {} test-data diagrams", sources.len());
    let verdicts = oracle_batch(&jar, &oracle, &sources)?;
    for ((path, _), verdict) in sources.iter().zip(verdicts) {
        if verdict == "VALID" || verdict.starts_with("CRASH") {
            continue;
        }
        let rel = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let operator = if rel.starts_with("test-data/fix/llm/") {
            "llm-mistake".to_string()
        } else if rel.starts_with("test-data/preprocess/") {
            // The preprocessor's deliberate failures (a failed `!assert`, an
            // include outside the root, runaway recursion…): no repair has
            // a clear intent, so they are listed but not in the overall share.
            "preprocess".to_string()
        } else {
            "test-data".to_string()
        };
        cases.push(Case {
            rel,
            operator,
            input_verdict: verdict,
            fixed_verdict: String::new(),
            changed: false,
        });
    }

    // 3. Repair each case with the binary, then ask the oracle about the outputs.
    let mut fixed_sources = Vec::new();
    for case in &mut cases {
        let path = root.join(&case.rel);
        let input = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", case.rel))?;
        let out = Command::new(&bin)
            .args(["check", "--fix", "--stdout"])
            .arg(&path)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
        let fixed = String::from_utf8_lossy(&out.stdout).into_owned();
        case.changed = fixed != input;
        fixed_sources.push((path, fixed));
    }
    eprintln!(
        "fix-rate: asking the oracle about {} repaired outputs",
        fixed_sources.len()
    );
    let fixed_verdicts = oracle_batch(&jar, &oracle, &fixed_sources)?;
    for (case, verdict) in cases.iter_mut().zip(fixed_verdicts) {
        case.fixed_verdict = verdict;
    }

    // 4. Report, and record the cases for the snapshot test.
    let mut per_operator: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut tsv = String::from("path\toperator\tinput_verdict\tfixed_verdict\n");
    for case in &cases {
        let repaired = accepted(&case.fixed_verdict);
        let entry = per_operator.entry(case.operator.as_str()).or_default();
        entry.0 += usize::from(repaired);
        entry.1 += 1;
        let _ = writeln!(
            tsv,
            "{}\t{}\t{}\t{}",
            case.rel, case.operator, case.input_verdict, case.fixed_verdict
        );
        if verbose && !repaired {
            println!(
                "not repaired: {} ({}){}: {}",
                case.rel,
                case.operator,
                if case.changed { "" } else { " [unchanged]" },
                case.fixed_verdict
            );
        }
    }
    std::fs::write(root.join("test-data/fix/cases.tsv"), tsv).map_err(|e| e.to_string())?;
    println!("{:<16} {:>9} {:>6}", "operator", "repaired", "share");
    let (mut total_ok, mut total) = (0, 0);
    for (operator, (ok, n)) in &per_operator {
        if *operator != "preprocess" {
            total_ok += ok;
            total += n;
        }
        println!("{operator:<16} {:>9} {:>5.1}%", format!("{ok}/{n}"), percent(*ok, *n));
    }
    println!(
        "{:<16} {:>9} {:>5.1}%\n(overall: every operator but `preprocess`)",
        "overall",
        format!("{total_ok}/{total}"),
        percent(total_ok, total)
    );
    println!("binary: {}", bin.display());
    Ok(())
}

fn accepted(verdict: &str) -> bool {
    verdict == "VALID" || verdict.starts_with("CRASH")
}

fn percent(ok: usize, n: usize) -> f64 {
    if n == 0 {
        100.0
    } else {
        ok as f64 * 100.0 / n as f64
    }
}

/// `../shared` of the main checkout, also from a worktree nested deeper.
pub fn shared_dir(root: &Path) -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("PUML_SHARED") {
        return Some(PathBuf::from(dir));
    }
    root.ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|s| s.join("tools/plantuml-oracle").exists())
}

pub(crate) fn oracle_jar(oracle: &Path) -> Result<PathBuf, String> {
    let out = Command::new(oracle)
        .arg("jar")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", oracle.display()))?;
    let jar = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if out.status.success() && jar.exists() {
        Ok(jar)
    } else {
        Err("the oracle has no PlantUML jar (needs Java; see plantuml-oracle --install)".into())
    }
}

fn collect_puml(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_puml(&path, out);
        } else if path.extension().is_some_and(|e| e == "puml") {
            out.push(path);
        }
    }
}

/// PlantUML's verdict on each text, as `plantuml-oracle check` words it.
/// One JVM judges them all (JVM start-up dominates a single check); each
/// text is written beside its original file, so relative `!include`s
/// resolve, under a unique name, since PlantUML reports errors by file
/// name. A file the batch cannot settle (no diagram found: PlantUML's file
/// mode skips a block without `@enduml`) goes to the oracle script alone.
pub(crate) fn oracle_batch(jar: &Path, oracle: &Path, texts: &[(PathBuf, String)]) -> Result<Vec<String>, String> {
    Ok(oracle_batch_typed(jar, oracle, texts)?
        .into_iter()
        .map(|(verdict, _)| verdict)
        .collect())
}

/// [`oracle_batch`] with the diagram type PlantUML drew (`SEQUENCE`,
/// `CLASS`, …, from the SVG's `data-diagram-type`; empty when none).
pub(crate) fn oracle_batch_typed(
    jar: &Path,
    oracle: &Path,
    texts: &[(PathBuf, String)],
) -> Result<Vec<(String, String)>, String> {
    let pid = std::process::id();
    let out_dir = std::env::temp_dir().join(format!("puml-fix-rate-{pid}"));
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let mut temps = Vec::new();
    for (i, (original, text)) in texts.iter().enumerate() {
        let dir = original.parent().unwrap_or(Path::new("."));
        let temp = dir.join(format!("fixrate-{pid}-{i}.puml"));
        std::fs::write(&temp, text).map_err(|e| e.to_string())?;
        temps.push(temp);
    }
    let result = Command::new("java")
        .args(["-Djava.awt.headless=true", "-jar"])
        .arg(jar)
        .args(["-tsvg", "-stdrpt:2", "--no-error-image", "-o"])
        .arg(&out_dir)
        .args(&temps)
        .output();
    let verdicts = result.map_err(|e| format!("cannot run java: {e}")).map(|out| {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let svgs: Vec<String> = std::fs::read_dir(&out_dir)
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        temps
            .iter()
            .map(|temp| {
                let stem = temp.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                let prefix = format!("{stem}.puml:");
                if let Some(line) = stderr.lines().find(|l| l.starts_with(&prefix) && l.contains(":error:")) {
                    let rest = &line[prefix.len()..];
                    let (number, message) = rest.split_once(":error:").unwrap_or((rest, ""));
                    return (format!("INVALID:{number}:{message}"), String::new());
                }
                let pages: Vec<&String> = svgs
                    .iter()
                    .filter(|s| s.starts_with(&format!("{stem}.")) || s.starts_with(&format!("{stem}_")))
                    .collect();
                if pages.is_empty() {
                    return (single_check(oracle, temp), String::new());
                }
                let first = std::fs::read_to_string(out_dir.join(pages[0])).unwrap_or_default();
                let kind = first
                    .split_once("data-diagram-type=\"")
                    .and_then(|(_, rest)| rest.split('"').next())
                    .unwrap_or("")
                    .to_string();
                let crashed = pages
                    .iter()
                    .any(|s| std::fs::read_to_string(out_dir.join(s)).is_ok_and(|svg| svg.contains("has crashed")));
                if crashed {
                    ("CRASH:0:".to_string(), kind)
                } else {
                    ("VALID".to_string(), kind)
                }
            })
            .collect()
    });
    for temp in &temps {
        let _ = std::fs::remove_file(temp);
        let _ = std::fs::remove_file(temp.with_extension("puml.svg"));
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    verdicts
}

fn single_check(oracle: &Path, file: &Path) -> String {
    let verdict = Command::new(oracle)
        .arg("check")
        .arg(file)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|e| format!("INVALID:0:cannot run the oracle: {e}"));
    // The oracle writes its rendering beside the file; remove every page.
    if let (Some(dir), Some(name)) = (file.parent(), file.file_name()) {
        let name = name.to_string_lossy().into_owned();
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let other = entry.file_name().to_string_lossy().into_owned();
                if other.starts_with(&name) && other.ends_with(".svg") {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }
    verdict
}
