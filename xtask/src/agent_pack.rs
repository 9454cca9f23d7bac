//! The agent pack (`agent-pack/`): `cargo xtask sync-agent-pack` places the
//! single-source `skills/` and `agents/` inside the pack (and regenerates the
//! author skill's syntax reference from the primitive catalog);
//! `cargo xtask validate-agent-pack` checks the pack the way its hosts will
//! read it, and starts the real `puml-mcp` and `puml-lsp` through the pack's
//! launchers.

use puml_agent_evals::mcp::Session;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The plugin's name in both hosts.
pub const PLUGIN_NAME: &str = "puml-agent-pack";
/// The name the Codex listing shows.
pub const DISPLAY_NAME: &str = "puml Diagrams";
/// The spec's default prompts. Codex shows at most three (`MAX_DEFAULT_PROMPT_COUNT`
/// in its manifest loader): the manifest carries three of these, the README all five.
pub const SPEC_DEFAULT_PROMPTS: [&str; 5] = [
    "Create a sequence diagram for this flow and render it with puml.",
    "Review this .puml diagram for correctness and clarity.",
    "Convert this prose/API flow into a puml sequence diagram.",
    "Add a puml diagram to this README and verify it renders.",
    "Find sequence diagrams in this repo and render them.",
];
/// The MCP server's tools (README's table); `tools/list` must return exactly these.
pub const EXPECTED_TOOLS: [&str; 13] = [
    "puml_apply_edit",
    "puml_check",
    "puml_explain",
    "puml_export",
    "puml_lint_readability",
    "puml_list_primitives",
    "puml_normalize",
    "puml_parse",
    "puml_render_file",
    "puml_render_svg",
    "puml_workflow_export",
    "puml_workflow_import",
    "puml_workflow_validate",
];
pub const EXPECTED_PROMPTS: [&str; 6] = [
    "convert_to_puml",
    "explain_sequence_diagram",
    "review_sequence_diagram",
    "write_agent_workflow",
    "write_class_diagram",
    "write_sequence_diagram",
];
/// Skill → files it must ship.
pub const SKILLS: [(&str, &[&str]); 4] = [
    (
        "puml-sequence-author",
        &[
            "references/syntax.md",
            "references/style.md",
            "references/examples.md",
            "references/repair-loop.md",
            "scripts/validate-output.sh",
        ],
    ),
    (
        "puml-sequence-reviewer",
        &["references/review-rubric.md", "references/common-failures.md"],
    ),
    (
        "puml-class-author",
        &["references/class-syntax.md", "references/mistakes.md"],
    ),
    (
        "puml-docs-integrator",
        &[
            "references/markdown-embedding.md",
            "references/mdbook.md",
            "references/ci.md",
        ],
    ),
];
pub const AGENTS: [&str; 2] = ["puml-diagram-designer", "puml-diagram-reviewer"];
pub const PROMPT_FILES: [&str; 4] = [
    "write-sequence-diagram.md",
    "review-sequence-diagram.md",
    "convert-to-puml.md",
    "explain-sequence-diagram.md",
];
pub const LAUNCHERS: [&str; 3] = ["puml", "puml-lsp", "puml-mcp"];
const LSP_EXTENSIONS: [&str; 4] = [".puml", ".plantuml", ".iuml", ".pu"];
/// Keys Claude Code accepts for one LSP server (plugins reference, `.lsp.json`).
const LSP_KEYS: [&str; 12] = [
    "command",
    "args",
    "extensionToLanguage",
    "transport",
    "env",
    "initializationOptions",
    "settings",
    "workspaceFolder",
    "startupTimeout",
    "shutdownTimeout",
    "restartOnCrash",
    "maxRestarts",
];
const README_SECTIONS: [&str; 12] = [
    "supported hosts",
    "install for codex",
    "install for claude code",
    "skills",
    "mcp tools",
    "examples",
    "security model",
    "eval strategy",
    "troubleshooting",
    "development",
    "release",
    "default prompts",
];

pub fn repo_root() -> PathBuf {
    crate::corpus::workspace_root()
}

// ---------------------------------------------------------------------------
// sync
// ---------------------------------------------------------------------------

/// What `sync-agent-pack` would write: relative path → bytes (and the exec bit).
pub fn expected_pack_files(root: &Path) -> Result<BTreeMap<PathBuf, (Vec<u8>, bool)>, String> {
    let mut files = BTreeMap::new();
    for top in ["skills", "agents"] {
        for rel in list_files(&root.join(top))? {
            let src = root.join(top).join(&rel);
            let bytes = std::fs::read(&src).map_err(|e| format!("{}: {e}", src.display()))?;
            files.insert(Path::new(top).join(&rel), (bytes, is_executable(&src)));
        }
    }
    Ok(files)
}

pub fn syntax_reference() -> String {
    puml_ide::primitives::markdown()
}

pub fn sync(args: &[String]) -> Result<(), String> {
    let check_only = args.iter().any(|a| a == "--check");
    let root = repo_root();
    let syntax = root.join("skills/puml-sequence-author/references/syntax.md");
    let want = syntax_reference();
    let have = std::fs::read_to_string(&syntax).unwrap_or_default();
    let mut stale = Vec::new();
    if have != want {
        stale.push(syntax.strip_prefix(&root).unwrap_or(&syntax).display().to_string());
        if !check_only {
            std::fs::write(&syntax, &want).map_err(|e| format!("{}: {e}", syntax.display()))?;
        }
    }
    let pack = root.join("agent-pack");
    let expected = expected_pack_files(&root)?;
    for top in ["skills", "agents"] {
        for rel in list_files(&pack.join(top))? {
            let rel = Path::new(top).join(rel);
            if !expected.contains_key(&rel) {
                stale.push(format!("agent-pack/{} (not in the source)", rel.display()));
                if !check_only {
                    std::fs::remove_file(pack.join(&rel)).map_err(|e| e.to_string())?;
                }
            }
        }
    }
    for (rel, (bytes, exec)) in &expected {
        let dest = pack.join(rel);
        let same = std::fs::read(&dest).map(|b| &b == bytes).unwrap_or(false) && is_executable(&dest) == *exec;
        if same {
            continue;
        }
        stale.push(format!("agent-pack/{}", rel.display()));
        if !check_only {
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            std::fs::write(&dest, bytes).map_err(|e| format!("{}: {e}", dest.display()))?;
            set_executable(&dest, *exec)?;
        }
    }
    if !check_only {
        remove_empty_dirs(&pack.join("skills"));
        remove_empty_dirs(&pack.join("agents"));
    }
    if stale.is_empty() {
        println!("agent-pack: skills/ and agents/ are in sync ({} files)", expected.len());
        Ok(())
    } else if check_only {
        Err(format!(
            "out of sync (run `cargo xtask sync-agent-pack`):\n  {}",
            stale.join("\n  ")
        ))
    } else {
        println!("agent-pack: updated {} file(s):\n  {}", stale.len(), stale.join("\n  "));
        Ok(())
    }
}

fn remove_empty_dirs(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.path().is_dir() {
                remove_empty_dirs(&entry.path());
                let _ = std::fs::remove_dir(entry.path());
            }
        }
    }
}

/// Every file under `dir`, relative to it, sorted.
pub fn list_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    if !dir.exists() {
        return Ok(out);
    }
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let abs = dir.join(&rel);
        let entries = std::fs::read_dir(&abs).map_err(|e| format!("{}: {e}", abs.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let path = rel.join(entry.file_name());
            if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(unix)]
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}
#[cfg(not(unix))]
pub fn is_executable(_path: &Path) -> bool {
    true
}

#[cfg(unix)]
pub fn set_executable(path: &Path, exec: bool) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if exec { 0o755 } else { 0o644 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(|e| e.to_string())
}
#[cfg(not(unix))]
pub fn set_executable(_path: &Path, _exec: bool) -> Result<(), String> {
    Ok(())
}

// ---------------------------------------------------------------------------
// validate
// ---------------------------------------------------------------------------

struct Report {
    passed: usize,
    failures: Vec<String>,
}

impl Report {
    fn check(&mut self, ok: bool, what: impl Into<String>) -> bool {
        let what = what.into();
        if ok {
            self.passed += 1;
            println!("  ok    {what}");
        } else {
            println!("  FAIL  {what}");
            self.failures.push(what);
        }
        ok
    }
    fn fail(&mut self, what: impl Into<String>) {
        self.check(false, what);
    }
    fn section(&self, title: &str) {
        println!("{title}");
    }
}

pub struct ValidateOptions {
    pub pack: PathBuf,
    /// The directory holding the hosts' marketplace files (`.claude-plugin/marketplace.json`,
    /// `.agents/plugins/marketplace.json`), or `None` to skip them.
    pub marketplace_root: Option<PathBuf>,
    /// A directory with `puml-mcp` and `puml-lsp` binaries for the launchers
    /// (`PUML_BIN_DIR`), when the pack bundles none.
    pub bin_dir: Option<PathBuf>,
    /// The single-source tree to compare skills/agents with (the repository), if any.
    pub source_root: Option<PathBuf>,
    /// Which hosts' files the pack must carry.
    pub hosts: Hosts,
}

#[derive(Clone, Copy)]
pub struct Hosts {
    /// Codex's manifest, MCP file and marketplace (Claude Code's are always required).
    pub codex: bool,
}

pub fn validate(args: &[String]) -> Result<(), String> {
    let root = repo_root();
    let pack = crate::corpus::flag_value(args, "--pack")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("agent-pack"));
    let marketplace_root = if args.iter().any(|a| a == "--no-marketplace") {
        None
    } else {
        Some(
            crate::corpus::flag_value(args, "--marketplace-root")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.clone()),
        )
    };
    let bin_dir = match crate::corpus::flag_value(args, "--bin-dir") {
        Some(dir) => Some(PathBuf::from(dir)),
        None if bundled_binary(&pack, "puml-mcp").is_some() => None,
        None => Some(default_bin_dir(&root)?),
    };
    let source_root = if args.iter().any(|a| a == "--no-source") {
        None
    } else {
        Some(root)
    };
    let options = ValidateOptions {
        pack,
        marketplace_root,
        bin_dir,
        source_root,
        hosts: Hosts { codex: true },
    };
    let failures = validate_pack(&options);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} check(s) failed:\n  {}",
            failures.len(),
            failures.join("\n  ")
        ))
    }
}

/// `target/release` (building `puml-mcp` and `puml-lsp` there if they are missing).
fn default_bin_dir(root: &Path) -> Result<PathBuf, String> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let dir = target.join("release");
    if !(dir.join("puml-mcp").exists() && dir.join("puml-lsp").exists() && dir.join("puml").exists()) {
        println!("building puml, puml-mcp and puml-lsp (release) for the live checks");
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([
                "build",
                "--release",
                "-p",
                "puml-cli",
                "-p",
                "puml-server",
                "-p",
                "puml-lsp",
                "--bins",
            ])
            .current_dir(root)
            .status()
            .map_err(|e| format!("cargo build: {e}"))?;
        if !status.success() {
            return Err("cargo build of the binaries failed".into());
        }
    }
    Ok(dir)
}

/// `bin/<os>-<arch>/<tool>` as the launcher names it, when the pack bundles it.
pub fn bundled_binary(pack: &Path, tool: &str) -> Option<PathBuf> {
    let path = pack
        .join("bin")
        .join(platform_dir())
        .join(format!("{tool}{}", std::env::consts::EXE_SUFFIX));
    path.exists().then_some(path)
}

/// The launcher's name for this platform: `linux-x86_64`, `macos-aarch64`, …
pub fn platform_dir() -> String {
    format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH)
}

/// Runs every check, printing each; returns the failures.
pub fn validate_pack(options: &ValidateOptions) -> Vec<String> {
    let mut r = Report {
        passed: 0,
        failures: Vec::new(),
    };
    let pack = &options.pack;
    println!("validating the agent pack at {}", pack.display());

    r.section("files");
    let hosts = options.hosts;
    for file in ["README.md", "LICENSE", ".mcp.json", ".lsp.json", ".codex-mcp.json"] {
        if file == ".codex-mcp.json" && !hosts.codex {
            r.check(!pack.join(file).exists(), format!("{file} absent (Claude-only bundle)"));
            continue;
        }
        r.check(pack.join(file).is_file(), format!("{file} present"));
    }
    check_readme(&mut r, pack);

    r.section("Claude Code manifest (.claude-plugin/plugin.json)");
    let claude = read_json(&mut r, &pack.join(".claude-plugin/plugin.json"));
    let mut version = None;
    if let Some(m) = &claude {
        version = m["version"].as_str().map(str::to_string);
        check_metadata(&mut r, m, "claude");
        for key in [
            "skills",
            "agents",
            "commands",
            "hooks",
            "mcpServers",
            "lspServers",
            "outputStyles",
        ] {
            if let Some(v) = m.get(key) {
                check_manifest_paths(&mut r, pack, key, v, false);
            }
        }
    }
    check_only_manifest(&mut r, pack, ".claude-plugin");

    r.section("Codex manifest (.codex-plugin/plugin.json)");
    let codex = if hosts.codex {
        read_json(&mut r, &pack.join(".codex-plugin/plugin.json"))
    } else {
        r.check(
            !pack.join(".codex-plugin").exists(),
            "no .codex-plugin/ (Claude-only bundle)",
        );
        None
    };
    if let Some(m) = &codex {
        check_metadata(&mut r, m, "codex");
        r.check(
            m["version"].as_str() == version.as_deref(),
            format!("codex version equals claude version ({:?})", version),
        );
        for key in ["skills", "mcpServers", "apps", "hooks"] {
            if let Some(v) = m.get(key) {
                check_manifest_paths(&mut r, pack, key, v, true);
            }
        }
        r.check(
            m["skills"].is_string() || m["skills"].is_array(),
            "codex: skills declared",
        );
        r.check(
            m["mcpServers"].as_str() == Some("./.codex-mcp.json"),
            "codex: mcpServers is ./.codex-mcp.json",
        );
        check_codex_interface(&mut r, pack, &m["interface"]);
    }
    if hosts.codex {
        check_only_manifest(&mut r, pack, ".codex-plugin");
    }

    r.section("MCP configuration");
    check_claude_mcp(&mut r, pack);
    if hosts.codex {
        check_codex_mcp(&mut r, pack);
    }

    r.section("LSP configuration (.lsp.json)");
    check_lsp(&mut r, pack);

    r.section("launchers (bin/)");
    for tool in LAUNCHERS {
        let path = pack.join("bin").join(tool);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        r.check(
            path.is_file() && is_executable(&path) && text.starts_with("#!/bin/sh"),
            format!("bin/{tool}: executable POSIX sh launcher"),
        );
        r.check(
            !text.contains("curl ") && !text.contains("wget "),
            format!("bin/{tool}: downloads nothing"),
        );
    }

    r.section("skills");
    check_skills(&mut r, pack);
    r.section("agents");
    check_agents(&mut r, pack);
    if let Some(source) = &options.source_root {
        r.section("single source (skills/, agents/ → agent-pack/)");
        check_in_sync(&mut r, source, pack);
    }

    r.section("prompts and assets");
    for file in PROMPT_FILES {
        let text = std::fs::read_to_string(pack.join("prompts").join(file)).unwrap_or_default();
        r.check(text.contains("puml"), format!("prompts/{file}"));
    }
    for asset in [
        "icon.png",
        "logo.png",
        "screenshot-authoring.png",
        "screenshot-preview.png",
    ] {
        let bytes = std::fs::read(pack.join("assets").join(asset)).unwrap_or_default();
        r.check(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            format!("assets/{asset} is a PNG"),
        );
    }

    if let Some(root) = &options.marketplace_root {
        r.section("marketplaces");
        check_marketplaces(&mut r, root, pack, version.as_deref(), hosts);
    }

    r.section("live: puml-mcp through bin/puml-mcp");
    check_mcp_live(&mut r, pack, options.bin_dir.as_deref(), hosts);
    r.section("live: puml-lsp through bin/puml-lsp");
    check_lsp_live(&mut r, pack, options.bin_dir.as_deref());

    println!("\n{} check(s) passed, {} failed", r.passed, r.failures.len());
    r.failures
}

fn read_json(r: &mut Report, path: &Path) -> Option<Value> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            r.fail(format!("{}: {e}", path.display()));
            return None;
        }
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => {
            r.check(v.is_object(), format!("{} parses as a JSON object", path.display()));
            Some(v)
        }
        Err(e) => {
            r.fail(format!("{}: {e}", path.display()));
            None
        }
    }
}

fn check_readme(r: &mut Report, pack: &Path) {
    let readme = std::fs::read_to_string(pack.join("README.md")).unwrap_or_default();
    let headings: Vec<String> = readme
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_lowercase())
        .collect();
    for section in README_SECTIONS {
        r.check(
            headings.iter().any(|h| h.contains(section)),
            format!("README has a section on {section}"),
        );
    }
    let lower = readme.to_lowercase();
    r.check(
        !lower.contains("experimental") && !lower.contains("phase 1"),
        "README: no \"experimental\" or \"phase 1\" framing",
    );
    for tool in EXPECTED_TOOLS {
        r.check(
            readme.contains(&format!("`{tool}`")),
            format!("README's tools table lists {tool}"),
        );
    }
    for prompt in SPEC_DEFAULT_PROMPTS {
        r.check(
            readme.contains(prompt),
            format!("README lists the default prompt {prompt:?}"),
        );
    }
}

fn check_metadata(r: &mut Report, m: &Value, host: &str) {
    r.check(m["name"] == PLUGIN_NAME, format!("{host}: name is {PLUGIN_NAME}"));
    let version = m["version"].as_str().unwrap_or("");
    let semver = version.split('.').count() == 3
        && version
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    r.check(semver, format!("{host}: version {version:?} is semver"));
    r.check(
        m["description"].as_str().is_some_and(|d| d.len() >= 20),
        format!("{host}: description"),
    );
    r.check(
        m["author"]["name"].as_str().is_some_and(|n| !n.is_empty()),
        format!("{host}: author.name"),
    );
    r.check(
        m["license"].as_str().is_some_and(|n| !n.is_empty()),
        format!("{host}: license"),
    );
    for key in ["homepage", "repository"] {
        r.check(
            m[key].as_str().is_some_and(|u| u.starts_with("https://")),
            format!("{host}: {key} is an https URL"),
        );
    }
    r.check(
        m["keywords"]
            .as_array()
            .is_some_and(|k| !k.is_empty() && k.iter().all(Value::is_string)),
        format!("{host}: keywords"),
    );
}

/// A manifest path value: a string or a list of strings, each `./`-relative,
/// without `..`, and existing in the pack.
fn check_manifest_paths(r: &mut Report, pack: &Path, key: &str, value: &Value, codex: bool) {
    let paths: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        Value::Object(_) => return, // inline configuration
        _ => {
            r.fail(format!("{key}: a path or a list of paths"));
            return;
        }
    };
    for p in paths {
        let ok = relative_inside(p, codex) && pack.join(p).exists();
        r.check(ok, format!("{key}: {p} is ./-relative, inside the pack, and exists"));
    }
}

fn relative_inside(p: &str, require_dot_slash: bool) -> bool {
    let rest = match p.strip_prefix("./") {
        Some(rest) => rest,
        None if require_dot_slash => return false,
        None => p,
    };
    !rest.is_empty()
        && !Path::new(rest).is_absolute()
        && Path::new(rest)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Only the manifest inside the host's folder.
fn check_only_manifest(r: &mut Report, pack: &Path, dir: &str) {
    let files = list_files(&pack.join(dir)).unwrap_or_default();
    let extra: Vec<String> = files
        .iter()
        .filter(|f| f.as_path() != Path::new("plugin.json"))
        .map(|f| f.display().to_string())
        .collect();
    r.check(extra.is_empty(), format!("{dir}/ holds only plugin.json {extra:?}"));
}

fn check_codex_interface(r: &mut Report, pack: &Path, i: &Value) {
    r.check(
        i["displayName"] == DISPLAY_NAME,
        format!("codex: interface.displayName is {DISPLAY_NAME:?}"),
    );
    for key in ["shortDescription", "longDescription", "developerName", "category"] {
        r.check(
            i[key].as_str().is_some_and(|s| !s.is_empty()),
            format!("codex: interface.{key}"),
        );
    }
    let prompts: Vec<&str> = i["defaultPrompt"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    r.check(
        (1..=3).contains(&prompts.len()),
        format!(
            "codex: interface.defaultPrompt has 1 to 3 entries (Codex's limit), found {}",
            prompts.len()
        ),
    );
    for p in &prompts {
        r.check(
            p.chars().count() <= 128 && SPEC_DEFAULT_PROMPTS.contains(p),
            format!("codex: default prompt {p:?} is one of the spec's and at most 128 characters"),
        );
    }
    let long = i["longDescription"].as_str().unwrap_or("");
    for p in SPEC_DEFAULT_PROMPTS.iter().filter(|p| !prompts.contains(p)) {
        r.check(
            long.contains(p),
            format!("codex: the remaining default prompt {p:?} is in longDescription"),
        );
    }
    let mut assets: Vec<&str> = ["composerIcon", "logo"].iter().filter_map(|k| i[*k].as_str()).collect();
    assets.extend(
        i["screenshots"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str),
    );
    r.check(assets.len() >= 4, "codex: icon, logo and screenshots declared");
    for a in assets {
        r.check(
            relative_inside(a, true) && pack.join(a).is_file(),
            format!("codex: asset {a} is ./-relative and exists"),
        );
    }
}

fn check_claude_mcp(r: &mut Report, pack: &Path) {
    let Some(m) = read_json(r, &pack.join(".mcp.json")) else {
        return;
    };
    let servers = m["mcpServers"].as_object();
    r.check(
        servers.is_some_and(|s| s.len() == 1 && s.contains_key("puml")),
        ".mcp.json: mcpServers has the one server puml",
    );
    let server = &m["mcpServers"]["puml"];
    r.check(
        server["command"] == "${CLAUDE_PLUGIN_ROOT}/bin/puml-mcp",
        ".mcp.json: command is ${CLAUDE_PLUGIN_ROOT}/bin/puml-mcp",
    );
    check_no_absolute(r, ".mcp.json", server);
}

fn check_codex_mcp(r: &mut Report, pack: &Path) {
    let Some(m) = read_json(r, &pack.join(".codex-mcp.json")) else {
        return;
    };
    let server = &m["mcpServers"]["puml"];
    r.check(
        server["command"] == "./bin/puml-mcp" && server["cwd"] == ".",
        ".codex-mcp.json: ./bin/puml-mcp run from the plugin root (cwd \".\")",
    );
    r.check(
        server["env_vars"]
            .as_array()
            .is_some_and(|v| v.iter().any(|v| v == "PUML_MCP_ROOT")),
        ".codex-mcp.json: passes PUML_MCP_ROOT through (env_vars)",
    );
    let text = m.to_string();
    r.check(
        !text.contains("${"),
        ".codex-mcp.json: no host variables (Codex expands none)",
    );
    check_no_absolute(r, ".codex-mcp.json", server);
}

/// No absolute developer-machine path in a server's command, args or env.
fn check_no_absolute(r: &mut Report, file: &str, server: &Value) {
    let mut strings = vec![server["command"].as_str().unwrap_or("").to_string()];
    strings.extend(
        server["args"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string),
    );
    if let Some(env) = server["env"].as_object() {
        strings.extend(env.values().filter_map(Value::as_str).map(str::to_string));
    }
    let bad: Vec<&String> = strings
        .iter()
        .filter(|s| s.starts_with('/') || s.contains(":\\"))
        .collect();
    r.check(bad.is_empty(), format!("{file}: no absolute paths {bad:?}"));
}

fn check_lsp(r: &mut Report, pack: &Path) {
    let Some(m) = read_json(r, &pack.join(".lsp.json")) else {
        return;
    };
    let Some(servers) = m.as_object() else { return };
    r.check(
        servers.len() == 1 && servers.contains_key("puml"),
        ".lsp.json: one server, puml",
    );
    for (name, server) in servers {
        let Some(obj) = server.as_object() else {
            r.fail(format!(".lsp.json: {name} is not an object"));
            continue;
        };
        let unknown: Vec<&String> = obj.keys().filter(|k| !LSP_KEYS.contains(&k.as_str())).collect();
        r.check(
            unknown.is_empty(),
            format!(".lsp.json: {name}: only Claude Code's keys {unknown:?}"),
        );
        r.check(
            obj.get("command").and_then(Value::as_str) == Some("${CLAUDE_PLUGIN_ROOT}/bin/puml-lsp"),
            format!(".lsp.json: {name}: command is ${{CLAUDE_PLUGIN_ROOT}}/bin/puml-lsp"),
        );
        r.check(
            obj.get("args")
                .is_none_or(|a| a.as_array().is_some_and(|a| a.iter().all(Value::is_string))),
            format!(".lsp.json: {name}: args is a list of strings"),
        );
        let map = obj.get("extensionToLanguage").and_then(Value::as_object);
        r.check(
            map.is_some_and(|m| m.iter().all(|(k, v)| k.starts_with('.') && v.is_string())),
            format!(".lsp.json: {name}: extensionToLanguage maps .ext → language id"),
        );
        for ext in LSP_EXTENSIONS {
            r.check(
                map.and_then(|m| m.get(ext)).and_then(Value::as_str) == Some("puml"),
                format!(".lsp.json: {ext} → puml"),
            );
        }
        check_no_absolute(r, ".lsp.json", server);
    }
}

/// `---` YAML front matter of a Markdown file as flat `key: value` pairs.
pub fn front_matter(text: &str) -> Option<BTreeMap<String, String>> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let mut map = BTreeMap::new();
    for line in rest[..end].lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        if key.starts_with(' ') || key.contains(' ') {
            return None;
        }
        let value = value.trim();
        if value.starts_with(['|', '>', '{']) {
            return None; // block scalars and maps: not the flat form hosts document
        }
        map.insert(key.to_string(), value.trim_matches(['"', '\'']).to_string());
    }
    Some(map)
}

fn valid_skill_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

fn check_skills(r: &mut Report, pack: &Path) {
    let dir = pack.join("skills");
    let found: BTreeSet<String> = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let wanted: BTreeSet<String> = SKILLS.iter().map(|(n, _)| n.to_string()).collect();
    r.check(
        found == wanted,
        format!("skills/ holds exactly {wanted:?} (found {found:?})"),
    );
    for (name, files) in SKILLS {
        let skill_md = dir.join(name).join("SKILL.md");
        let text = std::fs::read_to_string(&skill_md).unwrap_or_default();
        let Some(fm) = front_matter(&text) else {
            r.fail(format!("skills/{name}/SKILL.md: front matter"));
            continue;
        };
        r.check(
            fm.get("name").map(String::as_str) == Some(name),
            format!("skills/{name}: name equals the folder"),
        );
        r.check(
            valid_skill_name(name),
            format!("skills/{name}: name is lowercase-hyphenated, ≤ 64 characters"),
        );
        let description = fm.get("description").cloned().unwrap_or_default();
        r.check(
            (40..=1024).contains(&description.chars().count()),
            format!(
                "skills/{name}: description of 40–1024 characters ({})",
                description.chars().count()
            ),
        );
        let unknown: Vec<&String> = fm
            .keys()
            .filter(|k| !["name", "description", "license", "metadata", "allowed-tools"].contains(&k.as_str()))
            .collect();
        r.check(
            unknown.is_empty(),
            format!("skills/{name}: only portable front-matter keys {unknown:?}"),
        );
        for file in files.iter() {
            r.check(dir.join(name).join(file).is_file(), format!("skills/{name}/{file}"));
            r.check(text.contains(file), format!("skills/{name}: SKILL.md points at {file}"));
        }
        if name == "puml-sequence-author" {
            r.check(text.contains("puml_check"), "author skill: puml_check is mandatory");
            r.check(
                text.to_lowercase().contains("could not validate"),
                "author skill: says it could not validate when the tools are unavailable",
            );
            let script = dir.join(name).join("scripts/validate-output.sh");
            r.check(
                is_executable(&script),
                "author skill: scripts/validate-output.sh is executable",
            );
        }
    }
}

fn check_agents(r: &mut Report, pack: &Path) {
    for name in AGENTS {
        let path = pack.join("agents").join(format!("{name}.md"));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let Some(fm) = front_matter(&text) else {
            r.fail(format!("agents/{name}.md: front matter"));
            continue;
        };
        r.check(
            fm.get("name").map(String::as_str) == Some(name),
            format!("agents/{name}: name equals the file"),
        );
        r.check(
            fm.get("description").is_some_and(|d| d.len() >= 40),
            format!("agents/{name}: description"),
        );
        let tools: Vec<&str> = fm
            .get("tools")
            .map(|t| t.split(',').map(str::trim).collect())
            .unwrap_or_default();
        r.check(
            !tools.is_empty() && tools.iter().all(|t| !t.is_empty()) && !tools.contains(&"Bash"),
            format!("agents/{name}: tools listed, no shell ({} tools)", tools.len()),
        );
        r.check(
            tools.iter().any(|t| t.ends_with("__puml_check")),
            format!("agents/{name}: may call puml_check"),
        );
        if name.ends_with("reviewer") {
            r.check(
                !tools
                    .iter()
                    .any(|t| ["Write", "Edit"].contains(t) || t.ends_with("__puml_render_file")),
                "reviewer agent: no write tools",
            );
        }
    }
}

fn check_in_sync(r: &mut Report, source: &Path, pack: &Path) {
    let expected = match expected_pack_files(source) {
        Ok(e) => e,
        Err(e) => {
            r.fail(e);
            return;
        }
    };
    let mut stale = Vec::new();
    for (rel, (bytes, exec)) in &expected {
        let dest = pack.join(rel);
        let same = std::fs::read(&dest).map(|b| &b == bytes).unwrap_or(false) && is_executable(&dest) == *exec;
        if !same {
            stale.push(rel.display().to_string());
        }
    }
    for top in ["skills", "agents"] {
        for rel in list_files(&pack.join(top)).unwrap_or_default() {
            if !expected.contains_key(&Path::new(top).join(&rel)) {
                stale.push(format!("{top}/{} (extra)", rel.display()));
            }
        }
    }
    r.check(
        stale.is_empty(),
        format!("agent-pack/skills and agent-pack/agents equal skills/ and agents/ {stale:?}"),
    );
    let syntax =
        std::fs::read_to_string(source.join("skills/puml-sequence-author/references/syntax.md")).unwrap_or_default();
    r.check(
        syntax == syntax_reference(),
        "skills/puml-sequence-author/references/syntax.md is generated from the primitive catalog",
    );
}

fn check_marketplaces(r: &mut Report, root: &Path, pack: &Path, version: Option<&str>, hosts: Hosts) {
    let pack_abs = pack.canonicalize().unwrap_or_else(|_| pack.to_path_buf());
    if let Some(m) = read_json(r, &root.join(".claude-plugin/marketplace.json")) {
        r.check(
            m["name"].as_str().is_some_and(valid_skill_name),
            "claude marketplace: name is kebab-case",
        );
        r.check(
            m["owner"]["name"].as_str().is_some_and(|n| !n.is_empty()),
            "claude marketplace: owner.name",
        );
        r.check(
            m["metadata"]["description"].is_string(),
            "claude marketplace: metadata.description",
        );
        let entry = m["plugins"]
            .as_array()
            .and_then(|p| p.iter().find(|e| e["name"] == PLUGIN_NAME));
        r.check(entry.is_some(), format!("claude marketplace: lists {PLUGIN_NAME}"));
        if let Some(e) = entry {
            let source = e["source"].as_str().unwrap_or("");
            let resolved = root.join(source).canonicalize().ok();
            r.check(
                source.starts_with("./") && resolved.as_deref() == Some(pack_abs.as_path()),
                format!("claude marketplace: source {source:?} is the pack"),
            );
            for key in ["description", "version", "license", "homepage"] {
                r.check(e[key].is_string(), format!("claude marketplace entry: {key}"));
            }
            r.check(e["author"]["name"].is_string(), "claude marketplace entry: author.name");
            r.check(
                e["version"].as_str() == version,
                "claude marketplace entry: version equals plugin.json's",
            );
        }
    }
    if !hosts.codex {
        return;
    }
    if let Some(m) = read_json(r, &root.join(".agents/plugins/marketplace.json")) {
        r.check(
            m["name"].as_str().is_some_and(valid_skill_name),
            "codex marketplace: name is kebab-case",
        );
        r.check(
            m["interface"]["displayName"].is_string(),
            "codex marketplace: interface.displayName",
        );
        let entry = m["plugins"]
            .as_array()
            .and_then(|p| p.iter().find(|e| e["name"] == PLUGIN_NAME));
        r.check(entry.is_some(), format!("codex marketplace: lists {PLUGIN_NAME}"));
        if let Some(e) = entry {
            let path = e["source"]["path"].as_str().or(e["source"].as_str()).unwrap_or("");
            let resolved = root.join(path).canonicalize().ok();
            r.check(
                relative_inside(path, true) && resolved.as_deref() == Some(pack_abs.as_path()),
                format!("codex marketplace: source path {path:?} is the pack"),
            );
            r.check(
                ["AVAILABLE", "INSTALLED_BY_DEFAULT"]
                    .contains(&e["policy"]["installation"].as_str().unwrap_or("AVAILABLE")),
                "codex marketplace: installation policy lets users install it",
            );
            r.check(
                ["ON_INSTALL", "ON_USE"].contains(&e["policy"]["authentication"].as_str().unwrap_or("ON_INSTALL")),
                "codex marketplace: authentication policy is valid",
            );
            r.check(e["category"].is_string(), "codex marketplace: category");
        }
    }
}

// --- live checks ----------------------------------------------------------

fn launcher(pack: &Path, tool: &str, bin_dir: Option<&Path>, cwd: &Path) -> Command {
    let mut command = Command::new(pack.join("bin").join(tool));
    command.current_dir(cwd);
    command.env_remove("PUML_MCP_ROOT");
    if let Some(dir) = bin_dir {
        command.env("PUML_BIN_DIR", dir);
    }
    command
}

/// Tool names, a `puml_check` answer, prompt names, resource URIs.
type LiveAnswers = (Vec<String>, Value, Vec<String>, Vec<String>);

fn check_mcp_live(r: &mut Report, pack: &Path, bin_dir: Option<&Path>, hosts: Hosts) {
    let workspace = std::env::temp_dir().join(format!("puml-pack-validate-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&workspace);
    let _ = std::fs::write(workspace.join("flow.puml"), "@startuml\nAlice -> Bob : hi\n@enduml\n");
    if hosts.codex {
        match mcp_session(pack, bin_dir, &workspace) {
            Ok(()) => {
                r.check(
                    true,
                    "Codex-style start (cwd = plugin root, ./bin/puml-mcp, PUML_MCP_ROOT) checks a project file",
                );
            }
            Err(e) => r.fail(format!("MCP session: {e}")),
        }
    }
    // The tools answer, and Claude's configuration starts the same launcher.
    let result = (|| -> Result<LiveAnswers, String> {
        let mut peer = Session::spawn(launcher(pack, "puml-mcp", bin_dir, &workspace))?;
        let init = peer.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "validate-agent-pack", "version": "1"}}),
        )?;
        if init["result"]["serverInfo"]["name"] != "puml-mcp" {
            return Err(format!("initialize answered {init}"));
        }
        peer.notify("notifications/initialized", json!({}))?;
        let tools = peer.request("tools/list", json!({}))?;
        let names = tools["result"]["tools"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter_map(|t| t["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let check = peer.request(
            "tools/call",
            json!({"name": "puml_check", "arguments": {"path": "flow.puml"}}),
        )?;
        let prompts = peer.request("prompts/list", json!({}))?;
        let prompt_names = prompts["result"]["prompts"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter_map(|t| t["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let resources = peer.request("resources/list", json!({}))?;
        let uris = resources["result"]["resources"]
            .as_array()
            .map(|t| t.iter().filter_map(|t| t["uri"].as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let code = peer.close();
        if code != Some(0) {
            return Err(format!("the server exited with {code:?} when stdin closed"));
        }
        Ok((names, check, prompt_names, uris))
    })();
    match result {
        Ok((names, check, prompts, uris)) => {
            let mut names = names;
            names.sort();
            r.check(
                names == EXPECTED_TOOLS,
                format!(
                    "tools/list returns the expected {} tools {names:?}",
                    EXPECTED_TOOLS.len()
                ),
            );
            r.check(
                check["result"]["structuredContent"]["ok"] == true,
                "tools/call puml_check on a workspace file: ok",
            );
            let mut prompts = prompts;
            prompts.sort();
            r.check(prompts == EXPECTED_PROMPTS, format!("prompts/list {prompts:?}"));
            r.check(
                uris.iter().any(|u| u == "puml://syntax/spec")
                    && uris.iter().any(|u| u.starts_with("puml://examples/")),
                format!("resources/list has the syntax and examples ({} resources)", uris.len()),
            );
        }
        Err(e) => r.fail(format!("MCP through bin/puml-mcp: {e}")),
    }
    let _ = std::fs::remove_dir_all(&workspace);
}

/// As Codex starts it: `./bin/puml-mcp` with the plugin root as working
/// directory, the project passed through `PUML_MCP_ROOT` (`env_vars`).
fn mcp_session(pack: &Path, bin_dir: Option<&Path>, workspace: &Path) -> Result<(), String> {
    let mut command = Command::new("./bin/puml-mcp");
    command.current_dir(pack).env("PUML_MCP_ROOT", workspace);
    if let Some(dir) = bin_dir {
        command.env("PUML_BIN_DIR", dir);
    }
    let mut peer = Session::spawn(command)?;
    let init = peer.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "codex-like", "version": "1"}}),
    )?;
    if init["result"]["serverInfo"]["name"] != "puml-mcp" {
        return Err(format!("Codex-style start: {init}"));
    }
    peer.notify("notifications/initialized", json!({}))?;
    let check = peer.request(
        "tools/call",
        json!({"name": "puml_check", "arguments": {"path": "flow.puml"}}),
    )?;
    peer.close();
    if check["result"]["structuredContent"]["ok"] == true {
        Ok(())
    } else {
        Err(format!(
            "Codex-style start: a project file through PUML_MCP_ROOT: {check}"
        ))
    }
}

fn check_lsp_live(r: &mut Report, pack: &Path, bin_dir: Option<&Path>) {
    let result = (|| -> Result<Value, String> {
        let cwd = std::env::temp_dir();
        let mut peer = LspPeer::spawn(launcher(pack, "puml-lsp", bin_dir, &cwd))?;
        let init = peer.request(
            1,
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        )?;
        peer.notify("initialized", json!({}))?;
        peer.request(2, "shutdown", Value::Null)?;
        peer.notify("exit", Value::Null)?;
        Ok(init)
    })();
    match result {
        Ok(init) => {
            let caps = &init["result"]["capabilities"];
            r.check(
                !caps["textDocumentSync"].is_null() && !caps["documentFormattingProvider"].is_null(),
                "initialize: text sync and formatting capabilities",
            );
        }
        Err(e) => r.fail(format!("LSP through bin/puml-lsp: {e}")),
    }
}

/// A minimal LSP client (Content-Length framing).
struct LspPeer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    messages: mpsc::Receiver<Value>,
}

impl LspPeer {
    fn spawn(mut command: Command) -> Result<LspPeer, String> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("spawn: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || loop {
            let mut length = 0usize;
            loop {
                let mut header = String::new();
                if stdout.read_line(&mut header).unwrap_or(0) == 0 {
                    return;
                }
                let header = header.trim();
                if header.is_empty() {
                    break;
                }
                if let Some(v) = header.strip_prefix("Content-Length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if stdout.read_exact(&mut body).is_err() {
                return;
            }
            if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Ok(LspPeer {
            child,
            stdin,
            messages: rx,
        })
    }

    fn send(&mut self, msg: Value) -> Result<(), String> {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).map_err(|e| e.to_string())?;
        self.stdin.flush().map_err(|e| e.to_string())
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Result<Value, String> {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let msg = self
                .messages
                .recv_timeout(Duration::from_secs(30))
                .map_err(|_| format!("no answer to {method} within 30 s"))?;
            if msg["id"] == id {
                return Ok(msg);
            }
        }
    }
}

impl Drop for LspPeer {
    fn drop(&mut self) {
        for _ in 0..30 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
