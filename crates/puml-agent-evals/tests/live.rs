//! Judges trajectories recorded from a real agent (`agent-pack/tests/evals/run-live.sh`)
//! with the same checker as the recorded suite. Skipped unless
//! `PUML_EVALS_LIVE_DIR` names the directory `run-live.sh` wrote.

use puml_agent_evals::{load_all, run_eval, server_binary, Answer, Expect, Step};
use serde_json::Value;

const SERVER: &str = env!("CARGO_BIN_EXE_puml-mcp-evals");

#[test]
fn live_trajectories_pass_the_criteria() {
    let Some(dir) = std::env::var_os("PUML_EVALS_LIVE_DIR") else {
        println!("PUML_EVALS_LIVE_DIR is not set: no live trajectories to judge");
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let server = server_binary(SERVER);
    let (mut judged, mut passed) = (0, 0);
    let mut failures = Vec::new();
    for (_, mut eval) in load_all().expect("evals load") {
        let file = dir.join(format!("{}--{}.json", eval.category, eval.id));
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let live: Value = serde_json::from_str(&text).expect("live trajectory JSON");
        eval.steps = live["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| Step {
                tool: s["tool"].as_str().unwrap_or("").to_string(),
                arguments: s["arguments"].clone(),
                adversarial: false,
                expect: Expect::default(),
                note: None,
            })
            .collect();
        // Live answers are inline; a file answer stays a file answer.
        let source = live["answer"]["source"].as_str().map(str::to_string);
        eval.answer = Answer {
            source: if eval.answer.source_path.is_some() {
                None
            } else {
                source
            },
            source_path: eval.answer.source_path.clone(),
            artifact: eval.answer.artifact.clone(),
            refusal: false,
            text: live["answer"]["text"].as_str().map(str::to_string),
        };
        judged += 1;
        match run_eval(&eval, &server) {
            Ok(_) => passed += 1,
            Err(errs) => failures.extend(errs.into_iter().map(|e| format!("{}/{}: {e}", eval.category, eval.id))),
        }
    }
    println!("live trajectories: {passed}/{judged} pass");
    assert!(judged > 0, "no trajectories found in {}", dir.display());
    assert!(failures.is_empty(), "live failures:\n  {}", failures.join("\n  "));
}
