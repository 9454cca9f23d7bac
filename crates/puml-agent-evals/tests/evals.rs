//! Replays every eval of `agent-pack/tests/evals/` against the real
//! `puml-mcp` over stdio and checks the spec's pass criteria; compares the
//! final sources, diagnostics, SVGs and MCP transcripts with the snapshots
//! under `agent-pack/tests/` (`UPDATE_SNAPSHOTS=1` rewrites them).

use puml_agent_evals::{load_all, repo_root, run_eval, server_binary, CATEGORIES, PROMPTS, SKILLS};
use std::collections::BTreeMap;
use std::path::Path;

const SERVER: &str = env!("CARGO_BIN_EXE_puml-mcp-evals");

fn compare_snapshot(path: &Path, actual: &str, failures: &mut Vec<String>) {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let expected = std::fs::read_to_string(path).ok();
    if expected.as_deref() == Some(actual) {
        return;
    }
    if update {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
    } else {
        failures.push(format!(
            "snapshot {} differs (UPDATE_SNAPSHOTS=1 cargo test -p puml-agent-evals refreshes it)",
            path.strip_prefix(repo_root()).unwrap_or(path).display()
        ));
    }
}

#[test]
fn every_eval_passes_its_criteria() {
    let evals = load_all().expect("evals load");
    let server = server_binary(SERVER);
    let pack_tests = repo_root().join("agent-pack/tests");
    let mut failures: Vec<String> = Vec::new();
    let mut per_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (_, eval) in &evals {
        let entry = per_category
            .entry(CATEGORIES.iter().find(|c| **c == eval.category).unwrap())
            .or_default();
        entry.0 += 1;
        match run_eval(eval, &server) {
            Ok(outcome) => {
                let mut snap_failures = Vec::new();
                let base = pack_tests.join("snapshots").join(&eval.category).join(&eval.id);
                if let Some(source) = &outcome.final_source {
                    compare_snapshot(&base.with_extension("puml"), source, &mut snap_failures);
                }
                let diagnostics = serde_json::json!({
                    "trajectory_checks": outcome.check_diagnostics,
                    "final": outcome.final_diagnostics,
                });
                compare_snapshot(
                    &base.with_extension("diagnostics.json"),
                    &(serde_json::to_string_pretty(&diagnostics).unwrap() + "\n"),
                    &mut snap_failures,
                );
                if let Some(svg) = &outcome.svg {
                    compare_snapshot(&base.with_extension("svg"), svg, &mut snap_failures);
                }
                let transcript = pack_tests
                    .join("mcp-transcripts")
                    .join(&eval.category)
                    .join(format!("{}.txt", eval.id));
                compare_snapshot(&transcript, &outcome.transcript, &mut snap_failures);
                if snap_failures.is_empty() {
                    entry.1 += 1;
                } else {
                    failures.extend(
                        snap_failures
                            .into_iter()
                            .map(|f| format!("{}/{}: {f}", eval.category, eval.id)),
                    );
                }
            }
            Err(errs) => failures.extend(errs.into_iter().map(|f| format!("{}/{}: {f}", eval.category, eval.id))),
        }
    }
    println!("eval suite against {}:", server.display());
    for (category, (total, passed)) in &per_category {
        println!("  {category:<22} {passed}/{total}");
    }
    let total: usize = per_category.values().map(|v| v.0).sum();
    let passed: usize = per_category.values().map(|v| v.1).sum();
    println!("  {:<22} {passed}/{total}", "all");
    assert!(failures.is_empty(), "eval failures:\n  {}", failures.join("\n  "));
}

#[test]
fn the_suite_covers_every_category_prompt_and_skill() {
    let evals = load_all().expect("evals load");
    for category in CATEGORIES {
        let n = evals.iter().filter(|(_, e)| e.category == category).count();
        assert!(n >= 3, "category {category} has {n} evals; at least 3 are required");
    }
    for prompt in PROMPTS {
        assert!(
            evals.iter().any(|(_, e)| e.prompt.name == prompt),
            "no eval goes through the prompt {prompt}"
        );
    }
    for skill in SKILLS {
        assert!(
            evals.iter().any(|(_, e)| e.skill == skill),
            "no eval exercises the skill {skill}"
        );
    }
    for (path, eval) in &evals {
        assert!(
            SKILLS.contains(&eval.skill.as_str()),
            "{}: unknown skill {}",
            path.display(),
            eval.skill
        );
        assert!(
            PROMPTS.contains(&eval.prompt.name.as_str()),
            "{}: unknown prompt {}",
            path.display(),
            eval.prompt.name
        );
        assert!(!eval.task.trim().is_empty(), "{}: empty task", path.display());
        assert!(!eval.steps.is_empty(), "{}: empty trajectory", path.display());
    }
    // Every primitive family of the catalog is exercised somewhere.
    let used: std::collections::BTreeSet<&str> = evals
        .iter()
        .flat_map(|(_, e)| e.required_primitives.iter().map(String::as_str))
        .collect();
    for p in [
        "participant",
        "actor",
        "boundary",
        "control",
        "entity",
        "database",
        "collections",
        "queue",
        "alias",
        "sync",
        "async",
        "reply",
        "lost",
        "found",
        "self",
        "note",
        "note_over",
        "ref",
        "alt",
        "else",
        "opt",
        "loop",
        "par",
        "break",
        "critical",
        "group",
        "activate",
        "deactivate",
        "activation_shorthand",
        "create",
        "destroy",
        "autonumber",
        "theme",
        "skinparam",
        "include",
        "title",
        "divider",
        "delay",
    ] {
        assert!(used.contains(p), "no eval requires the primitive {p}");
    }
}

/// The checker is not a rubber stamp: trajectories that break the workflow fail.
#[test]
fn the_checker_rejects_bad_trajectories() {
    let server = server_binary(SERVER);
    let fresh = || {
        load_all()
            .unwrap()
            .into_iter()
            .map(|(_, e)| e)
            .find(|e| e.category == "groups" && e.id == "alt-else")
            .unwrap()
    };
    let expect_failure = |eval: puml_agent_evals::Eval, needle: &str| {
        let errs = run_eval(&eval, &server).err().unwrap_or_default();
        assert!(
            errs.iter().any(|e| e.contains(needle)),
            "expected a failure mentioning {needle:?}, got {errs:?}"
        );
    };

    // The answer differs from what was checked (edited after the last check).
    let mut e = fresh();
    e.answer.source = Some(e.answer.source.unwrap().replace("404", "404 not found"));
    expect_failure(e, "never checked");

    // A check of other text after the final check.
    let mut e = fresh();
    e.steps.push(puml_agent_evals::Step {
        tool: "puml_check".into(),
        arguments: serde_json::json!({"source": "@startuml\nA -> B : other\n@enduml\n"}),
        adversarial: false,
        expect: Default::default(),
        note: None,
    });
    expect_failure(e, "after the last puml_check");

    // A write without write: true, and a path outside the workspace.
    let mut e = fresh();
    e.steps.push(puml_agent_evals::Step {
        tool: "puml_render_file".into(),
        arguments: serde_json::json!({"source": e.answer.source.clone().unwrap(), "output_path": "../out.svg"}),
        adversarial: false,
        expect: Default::default(),
        note: None,
    });
    let errs = run_eval(&e, &server).err().unwrap_or_default();
    assert!(errs.iter().any(|m| m.contains("without write: true")), "{errs:?}");
    assert!(errs.iter().any(|m| m.contains("path traversal")), "{errs:?}");

    // An invalid final diagram, even if the trajectory claims a passing check.
    let mut e = fresh();
    // (`participant A` first: a block of such messages alone is a legacy
    // activity diagram for PlantUML, which it accepts.)
    let broken = "@startuml\nparticipant A\nA -> B hello\n@enduml\n".to_string();
    e.answer.source = Some(broken.clone());
    e.steps[0].arguments = serde_json::json!({"source": broken});
    e.steps[0].expect = Default::default();
    expect_failure(e, "does not check");

    // A missing required primitive.
    let mut e = fresh();
    e.required_primitives.push("loop".into());
    expect_failure(e, "required primitive loop");
}
