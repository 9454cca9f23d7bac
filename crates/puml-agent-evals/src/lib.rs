//! The agent pack's eval suite.
//!
//! Every eval is a JSON file under `agent-pack/tests/evals/<category>/`: a
//! task prompt, the primitives and constraints the answer must meet, the tool
//! calls the workflow requires, and a recorded trajectory (the MCP calls an
//! agent following the pack's skills makes, broken first drafts included).
//! [`run_eval`] replays the trajectory against the real `puml-mcp` over stdio
//! and checks the spec's pass criteria; the same checker judges a trajectory
//! recorded from a live agent (see `agent-pack/tests/evals/README.md`).

pub mod mcp;
pub mod primitives;

use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The spec's 17 categories, then the class-diagram ones, then the
/// description-diagram (use case, component, deployment) one.
pub const CATEGORIES: [&str; 21] = [
    "basic_authoring",
    "participant_aliases",
    "arrows",
    "self_messages",
    "found_lost",
    "notes",
    "refs",
    "groups",
    "lifecycle",
    "styling",
    "includes",
    "docs_integration",
    "repair_invalid",
    "convert_from_prose",
    "convert_from_mermaid",
    "readability_review",
    "security_adversarial",
    "class_authoring",
    "class_repair",
    "class_refactor",
    "description_refactor",
];

pub const SKILLS: [&str; 4] = [
    "puml-sequence-author",
    "puml-sequence-reviewer",
    "puml-class-author",
    "puml-docs-integrator",
];
pub const PROMPTS: [&str; 5] = [
    "write_sequence_diagram",
    "write_class_diagram",
    "review_sequence_diagram",
    "convert_to_puml",
    "explain_sequence_diagram",
];

/// Tools that write a file when given a target.
const WRITING: [(&str, &str); 3] = [
    ("puml_render_file", "output_path"),
    ("puml_export", "outputPath"),
    ("puml_apply_edit", "outputPath"),
];
/// Arguments that name workspace paths.
const PATH_ARGS: [&str; 6] = [
    "path",
    "output_path",
    "outputPath",
    "includeRoot",
    "workflowPath",
    "templates",
];
/// Tools an answer may call after its last check without invalidating it,
/// provided they act on the same source.
const READ_ONLY_AFTER_CHECK: [&str; 7] = [
    "puml_list_primitives",
    "puml_render_svg",
    "puml_render_file",
    "puml_export",
    "puml_lint_readability",
    "puml_explain",
    "puml_parse",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Eval {
    pub id: String,
    pub category: String,
    pub skill: String,
    pub prompt: PromptRef,
    pub task: String,
    #[serde(default)]
    pub required_primitives: Vec<String>,
    #[serde(default)]
    pub constraints: Constraints,
    #[serde(default)]
    pub required_tools: Vec<String>,
    #[serde(default)]
    pub render: bool,
    /// Files created in the workspace before the replay (path → text).
    #[serde(default)]
    pub workspace: BTreeMap<String, String>,
    pub steps: Vec<Step>,
    pub answer: Answer,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptRef {
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraints {
    #[serde(default)]
    pub must_contain: Vec<String>,
    #[serde(default)]
    pub must_not_contain: Vec<String>,
    pub min_participants: Option<usize>,
    pub max_participants: Option<usize>,
    #[serde(default)]
    pub title: bool,
    /// `!theme NAME` in the source, or a render call with `theme: NAME`.
    pub theme: Option<String>,
    /// Warnings allowed in the final source (errors never are).
    #[serde(default)]
    pub allow_warnings: bool,
    /// Files that must exist in the workspace after the replay.
    #[serde(default)]
    pub files_written: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub tool: String,
    pub arguments: Value,
    /// A call an attacker (or a confused prompt) asks for: it must be refused.
    #[serde(default)]
    pub adversarial: bool,
    #[serde(default)]
    pub expect: Expect,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub ok: Option<bool>,
    /// Diagnostic codes that must be reported.
    #[serde(default)]
    pub codes: Vec<String>,
    /// A JSON-RPC error code instead of a result (e.g. -32602).
    pub protocol_error: Option<i64>,
    /// Substrings that must not appear in the result's text (e.g. `<script`).
    #[serde(default)]
    pub absent: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The diagram source given in the final answer.
    pub source: Option<String>,
    /// Or: the workspace file holding it.
    pub source_path: Option<String>,
    /// The artifact delivered: a workspace path, or `inline-svg`.
    pub artifact: Option<String>,
    /// The answer declines the request (security cases).
    #[serde(default)]
    pub refusal: bool,
    #[serde(default)]
    pub text: Option<String>,
}

/// What the replay recorded, for snapshots.
#[derive(Debug, Default)]
pub struct Outcome {
    pub final_source: Option<String>,
    pub final_diagnostics: Value,
    pub svg: Option<String>,
    /// One line per call: tool, arguments summary, result summary.
    pub transcript: String,
    /// The diagnostics of every check in the trajectory.
    pub check_diagnostics: Vec<Value>,
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

pub fn evals_dir() -> PathBuf {
    repo_root().join("agent-pack/tests/evals")
}

/// Every eval file, sorted by path.
pub fn load_all() -> Result<Vec<(PathBuf, Eval)>, String> {
    let mut out = Vec::new();
    for category in CATEGORIES {
        let dir = evals_dir().join(category);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
            let eval: Eval = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            if eval.category != category {
                return Err(format!(
                    "{}: category {} in the folder {category}",
                    file.display(),
                    eval.category
                ));
            }
            let stem = file.file_stem().unwrap().to_string_lossy();
            if eval.id != stem {
                return Err(format!("{}: id {} differs from the file name", file.display(), eval.id));
            }
            out.push((file, eval));
        }
    }
    Ok(out)
}

/// Expands `{"$generate": {"prefix", "line", "times", "suffix"}}` (huge inputs
/// stay out of the JSON files).
fn expand(value: &Value) -> Value {
    match value {
        Value::Object(map) if map.contains_key("$generate") => {
            let g = &map["$generate"];
            let times = g["times"].as_u64().unwrap_or(1) as usize;
            let mut s = g["prefix"].as_str().unwrap_or("").to_string();
            s.push_str(&g["line"].as_str().unwrap_or("").repeat(times));
            s.push_str(g["suffix"].as_str().unwrap_or(""));
            Value::String(s)
        }
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), expand(v))).collect()),
        Value::Array(items) => Value::Array(items.iter().map(expand).collect()),
        other => other.clone(),
    }
}

fn codes_of(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .map(|d| {
            d.iter()
                .filter_map(|d| d["code"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn short(text: &str, max: usize) -> String {
    let one_line = text.replace('\n', "⏎");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max).collect();
        format!("{cut}…({} chars)", text.chars().count())
    }
}

fn summarize_args(args: &Value) -> String {
    let Some(map) = args.as_object() else {
        return args.to_string();
    };
    let parts: Vec<String> = map
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={:?}", short(s, 60)),
            other => format!("{k}={}", short(&other.to_string(), 60)),
        })
        .collect();
    parts.join(" ")
}

fn summarize_result(response: &Value) -> String {
    if let Some(err) = response.get("error") {
        return format!("protocol error {}", err["code"]);
    }
    let sc = &response["result"]["structuredContent"];
    let mut s = format!("ok={}", sc["ok"]);
    let codes = codes_of(&sc["diagnostics"]);
    if !codes.is_empty() {
        s.push_str(&format!(" codes={}", codes.join(",")));
    }
    for key in [
        "fixes_applied",
        "width",
        "height",
        "output_path",
        "path",
        "bytes",
        "format",
    ] {
        if !sc[key].is_null() {
            s.push_str(&format!(" {key}={}", sc[key]));
        }
    }
    if let Some(f) = sc["findings"].as_array() {
        let codes: Vec<&str> = f.iter().filter_map(|f| f["code"].as_str()).collect();
        s.push_str(&format!(" findings={}", codes.join(",")));
    }
    s
}

/// Replays one eval in a fresh workspace and checks every pass criterion.
/// Returns the outcome (for snapshots) or the list of failures.
pub fn run_eval(eval: &Eval, server: &Path) -> Result<Outcome, Vec<String>> {
    let mut failures = Vec::new();
    let mut outcome = Outcome::default();
    let workspace = std::env::temp_dir().join(format!(
        "puml-evals-{}-{}-{}",
        std::process::id(),
        eval.category,
        eval.id
    ));
    let _ = std::fs::remove_dir_all(&workspace);
    std::fs::create_dir_all(&workspace).map_err(|e| vec![e.to_string()])?;
    let workspace = workspace.canonicalize().map_err(|e| vec![e.to_string()])?;
    for (rel, text) in &eval.workspace {
        let path = workspace.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| vec![e.to_string()])?;
        std::fs::write(&path, text).map_err(|e| vec![e.to_string()])?;
    }
    let before = snapshot_files(&workspace);

    let mut session = match mcp::Session::start(server, &workspace) {
        Ok(s) => s,
        Err(e) => return Err(vec![format!("starting puml-mcp: {e}")]),
    };

    // The prompt the task goes through must exist and carry the workflow.
    match session.request(
        "prompts/get",
        json!({"name": eval.prompt.name, "arguments": eval.prompt.arguments}),
    ) {
        Ok(resp) => {
            let text = resp["result"]["messages"].to_string();
            if resp.get("error").is_some() || text.len() < 40 {
                failures.push(format!("prompts/get {}: {resp}", eval.prompt.name));
            } else if eval.prompt.name != "explain_sequence_diagram" && !text.contains("puml_check") {
                failures.push(format!("prompt {} does not require puml_check", eval.prompt.name));
            }
            outcome
                .transcript
                .push_str(&format!("prompts/get {} → {} bytes\n", eval.prompt.name, text.len()));
        }
        Err(e) => failures.push(format!("prompts/get: {e}")),
    }

    // Replay.
    let mut results: Vec<Value> = Vec::new();
    let mut tools_called = BTreeSet::new();
    let mut allowed_writes = BTreeSet::new();
    for (i, step) in eval.steps.iter().enumerate() {
        let args = expand(&step.arguments);
        let n = i + 1;
        // Policy: paths stay inside the workspace, writes are explicit.
        if !step.adversarial {
            tools_called.insert(step.tool.clone());
            for key in PATH_ARGS {
                if let Some(p) = args[key].as_str() {
                    if p.starts_with('/') || p.contains("..") || p.starts_with('~') || p.contains('\\') {
                        failures.push(format!("step {n}: {key} {p:?} leaves the workspace (path traversal)"));
                    }
                }
            }
            for (tool, target) in WRITING {
                if step.tool == tool && args[target].is_string() {
                    if args["write"] != true {
                        failures.push(format!("step {n}: {tool} with {target} but without write: true"));
                    } else {
                        allowed_writes.insert(args[target].as_str().unwrap().to_string());
                    }
                }
            }
            if !mcp::TOOLS.contains(&step.tool.as_str()) {
                failures.push(format!("step {n}: {} is not a puml tool", step.tool));
            }
        }
        let response = match session.request("tools/call", json!({"name": step.tool, "arguments": args})) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("step {n}: {e}"));
                break;
            }
        };
        outcome.transcript.push_str(&format!(
            "{n}. {}{} {} → {}\n",
            if step.adversarial { "[adversarial] " } else { "" },
            step.tool,
            summarize_args(&args),
            summarize_result(&response)
        ));
        let sc = &response["result"]["structuredContent"];
        if step.tool == "puml_check" {
            outcome
                .check_diagnostics
                .push(json!({"step": n, "ok": sc["ok"], "diagnostics": sc["diagnostics"]}));
        }
        // Expectations.
        let e = &step.expect;
        if let Some(code) = e.protocol_error {
            if response["error"]["code"] != code {
                failures.push(format!(
                    "step {n}: expected protocol error {code}, got {}",
                    summarize_result(&response)
                ));
            }
        } else if response.get("error").is_some() {
            failures.push(format!("step {n}: unexpected protocol error {}", response["error"]));
        }
        if let Some(ok) = e.ok {
            if sc["ok"] != ok {
                failures.push(format!(
                    "step {n}: expected ok={ok}, got {}",
                    summarize_result(&response)
                ));
            }
        }
        let codes = codes_of(&sc["diagnostics"]);
        for c in &e.codes {
            if !codes.contains(c) {
                failures.push(format!("step {n}: expected {c} among {codes:?}"));
            }
        }
        let text = response.to_string();
        for a in &e.absent {
            if text.contains(a.as_str()) {
                failures.push(format!("step {n}: the result contains {a:?}"));
            }
        }
        if step.adversarial {
            let refused = response.get("error").is_some() || sc["ok"] == false || response["result"]["isError"] == true;
            // A render of hostile text is "refused" by escaping it: `absent` says what must not appear.
            if !refused && e.absent.is_empty() {
                failures.push(format!("step {n}: the adversarial call was not refused"));
            }
        }
        results.push(response);
    }

    for t in &eval.required_tools {
        if !tools_called.contains(t) {
            failures.push(format!("required tool {t} was never called"));
        }
    }

    // What was written: only the targets of explicit writes.
    let after = snapshot_files(&workspace);
    for (path, hash) in &after {
        if before.get(path) != Some(hash) && !allowed_writes.contains(path) {
            failures.push(format!("{path} was written without an explicit write: true call"));
        }
    }
    for f in &eval.constraints.files_written {
        if !after.contains_key(f) {
            failures.push(format!("{f} was not written"));
        }
    }

    // The answer.
    let final_source = match (&eval.answer.source, &eval.answer.source_path) {
        (Some(s), _) => Some(s.clone()),
        (None, Some(p)) => std::fs::read_to_string(workspace.join(p)).ok(),
        (None, None) => None,
    };
    if eval.answer.refusal && eval.answer.text.as_deref().is_none_or(str::is_empty) {
        failures.push("a refusal must say why (answer.text)".into());
    }
    if let Some(source) = &final_source {
        check_final(eval, source, &results, &mut session, &mut failures, &mut outcome);
    } else if !eval.answer.refusal {
        failures.push("the answer has no diagram source and is not a refusal".into());
    }
    outcome.final_source = final_source;

    let code = session.close();
    if code != Some(0) {
        failures.push(format!("puml-mcp exited with {code:?} when stdin closed"));
    }
    let _ = std::fs::remove_dir_all(&workspace);
    if failures.is_empty() {
        Ok(outcome)
    } else {
        Err(failures)
    }
}

/// The final source was checked after its last edit, and independently
/// parses, normalizes, renders and meets the eval's constraints.
fn check_final(
    eval: &Eval,
    source: &str,
    results: &[Value],
    session: &mut mcp::Session,
    failures: &mut Vec<String>,
    outcome: &mut Outcome,
) {
    let same = |args: &Value| -> bool {
        args["source"].as_str() == Some(source)
            || (eval.answer.source_path.is_some() && args["path"].as_str() == eval.answer.source_path.as_deref())
    };
    // puml_check on exactly this text, ok, with nothing changed after it.
    let last_check = eval.steps.iter().enumerate().rev().find(|(i, s)| {
        let args = expand(&s.arguments);
        s.tool == "puml_check"
            && !s.adversarial
            && same(&args)
            && results.get(*i).is_some_and(|r| {
                let sc = &r["result"]["structuredContent"];
                sc["ok"] == true && sc["fixes_applied"].as_u64().unwrap_or(0) == 0
            })
    });
    match last_check {
        None => failures.push("the final source was never checked with puml_check (ok) in the trajectory".into()),
        Some((i, _)) => {
            for (j, s) in eval.steps.iter().enumerate().skip(i + 1) {
                if s.adversarial {
                    continue;
                }
                let args = expand(&s.arguments);
                let acts_on_it = same(&args) || args["source"].is_null() && args["path"].is_null();
                if !READ_ONLY_AFTER_CHECK.contains(&s.tool.as_str()) || !acts_on_it {
                    failures.push(format!(
                        "step {}: {} after the last puml_check (step {}) — the answer was edited after its last check",
                        j + 1,
                        s.tool,
                        i + 1
                    ));
                }
            }
            if eval.render {
                let rendered = eval.steps.iter().enumerate().skip(i + 1).any(|(j, s)| {
                    ["puml_render_svg", "puml_render_file", "puml_export"].contains(&s.tool.as_str())
                        && same(&expand(&s.arguments))
                        && results
                            .get(j)
                            .is_some_and(|r| r["result"]["structuredContent"]["ok"] == true)
                });
                if !rendered {
                    failures
                        .push("render requested, but no successful render of the final source after its check".into());
                }
            }
        }
    }

    // Independent verification (of the file itself when the answer is a file,
    // so that its `!include`s resolve beside it).
    let subject = match &eval.answer.source_path {
        Some(p) => json!({"path": p}),
        None => json!({"source": source}),
    };
    let check = session.call("puml_check", subject.clone());
    let sc = &check["result"]["structuredContent"];
    outcome.final_diagnostics = sc["diagnostics"].clone();
    if sc["ok"] != true {
        failures.push(format!("the final source does not check: {}", summarize_result(&check)));
    }
    if !eval.constraints.allow_warnings && sc["diagnostics"].as_array().is_some_and(|d| !d.is_empty()) {
        failures.push(format!(
            "the final source has diagnostics {:?}",
            codes_of(&sc["diagnostics"])
        ));
    }
    let parse = session.call("puml_parse", subject.clone());
    if parse["result"]["structuredContent"]["ok"] != true {
        failures.push("the final source does not parse".into());
    }
    let normalized = session.call("puml_normalize", subject.clone());
    if normalized["result"]["structuredContent"]["ok"] != true {
        failures.push("the final source does not normalize".into());
    }
    let theme = eval.constraints.theme.clone();
    let mut render_args = subject.clone();
    if let Some(t) = &theme {
        render_args["theme"] = t.clone().into();
    }
    let render = session.call("puml_render_svg", render_args);
    let svg = render["result"]["structuredContent"]["svg"]
        .as_str()
        .unwrap_or("")
        .to_string();
    if render["result"]["structuredContent"]["ok"] != true
        || !svg.starts_with("<svg")
        || !svg.trim_end().ends_with("</svg>")
    {
        failures.push(format!(
            "the final source does not render: {}",
            summarize_result(&render)
        ));
    }
    if svg.contains("<script") || svg.contains("onload=") || svg.contains("foreignObject") {
        failures.push("the SVG contains active content".into());
    }
    if eval.render {
        outcome.svg = Some(svg);
    }

    // Primitives and constraints.
    let explain = session.call("puml_explain", subject);
    let ex = &explain["result"]["structuredContent"];
    for p in &eval.required_primitives {
        match primitives::present(p, source, ex) {
            Some(true) => {}
            Some(false) => failures.push(format!("required primitive {p} is not used")),
            None => failures.push(format!("unknown primitive {p} in the eval")),
        }
    }
    let c = &eval.constraints;
    for s in &c.must_contain {
        if !source.contains(s.as_str()) {
            failures.push(format!("the source lacks {s:?}"));
        }
    }
    for s in &c.must_not_contain {
        if source.contains(s.as_str()) {
            failures.push(format!("the source contains {s:?}"));
        }
    }
    let participants = ex["participants"].as_array().map(Vec::len).unwrap_or(0);
    if c.min_participants.is_some_and(|m| participants < m) || c.max_participants.is_some_and(|m| participants > m) {
        failures.push(format!(
            "{participants} participants, outside {:?}..{:?}",
            c.min_participants, c.max_participants
        ));
    }
    if c.title && ex["title"].is_null() {
        failures.push("the diagram has no title".into());
    }
    if let Some(t) = &theme {
        let in_source = source.lines().any(|l| l.trim() == format!("!theme {t}"));
        let in_render = eval.steps.iter().any(|s| {
            (s.tool.starts_with("puml_render") || s.tool == "puml_export") && s.arguments["theme"].as_str() == Some(t)
        });
        if !in_source && !in_render {
            failures.push(format!(
                "theme {t} requested but neither `!theme {t}` nor a render with theme {t}"
            ));
        }
    }
    // An artifact path named in the answer was written by the trajectory.
    if let Some(a) = &eval.answer.artifact {
        if a != "inline-svg" && !c.files_written.contains(a) {
            failures.push(format!(
                "answer names artifact {a} but constraints.files_written does not list it"
            ));
        }
    }
}

/// Path (relative, `/`-separated) → content hash of every file under `dir`.
fn snapshot_files(dir: &Path) -> BTreeMap<String, u64> {
    use std::hash::{Hash, Hasher};
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                bytes.hash(&mut h);
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, h.finish());
            }
        }
    }
    out
}

/// The server binary: `PUML_MCP_BIN`, else this package's `puml-mcp-evals`.
pub fn server_binary(default: &str) -> PathBuf {
    std::env::var_os("PUML_MCP_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(default))
}
