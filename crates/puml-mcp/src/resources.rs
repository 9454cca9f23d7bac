//! Read-only resources: the syntax reference (generated from the primitive
//! catalog), example diagrams (each passes `puml_check`, asserted by a
//! test), theme descriptions, and the project's diagrams and their
//! diagnostics (bounded, paginated, inside the roots).

use crate::security::{self, Roots};
use crate::wire;
use puml_ide::primitives::{catalog, Category};
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use rmcp::ErrorData;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The example diagrams served as `puml://examples/{name}`.
pub const EXAMPLES: [(&str, &str, &str); 5] = [
    (
        "hello",
        "The smallest useful diagram: two participants, a message and its reply.",
        include_str!("../resources/examples/hello.puml"),
    ),
    (
        "login-flow",
        "Login with browser, API and database: explicit participants, activation, alt/else.",
        include_str!("../resources/examples/login-flow.puml"),
    ),
    (
        "async-job",
        "An asynchronous job: queue, asynchronous arrows, a polling loop and a note.",
        include_str!("../resources/examples/async-job.puml"),
    ),
    (
        "lifecycle",
        "Participant lifecycle: creation (**), activation, self-call and destruction (!!).",
        include_str!("../resources/examples/lifecycle.puml"),
    ),
    (
        "shop-classes",
        "A class diagram: a package, an interface, an abstract class, an enum, members, inheritance, a multiplicity and a note.",
        include_str!("../resources/examples/shop-classes.puml"),
    ),
];

/// The agent workflows served as `puml://workflow/examples/{name}`
/// (each passes `puml_workflow_validate`, asserted by a test).
pub const WORKFLOW_EXAMPLES: [(&str, &str, &str); 4] = [
    (
        "code-review",
        "Seed 001's complete example: parallel analysis, an aggregator, a condition, four agents.",
        include_str!("../resources/workflows/code-review.puml"),
    ),
    (
        "support-router",
        "A router classifying requests into three agents' branches (split).",
        include_str!("../resources/workflows/support-router.puml"),
    ),
    (
        "refine-loop",
        "An iterative refinement loop (repeat … repeat while) with a JSON output schema.",
        include_str!("../resources/workflows/refine-loop.puml"),
    ),
    (
        "parallel-research",
        "Parallel research (fork) combined by an aggregator.",
        include_str!("../resources/workflows/parallel-research.puml"),
    ),
];

/// The JSON Schema of Workflow JSON, `puml://workflow/schema`.
pub const WORKFLOW_SCHEMA: &str = include_str!("../../../docs/workflow.schema.json");

/// The syntax resources and the catalog category each one shows (`None`: all).
const SYNTAX: [(&str, Option<Category>); 7] = [
    ("spec", None),
    ("arrows", Some(Category::Arrows)),
    ("participants", Some(Category::Participants)),
    ("notes", Some(Category::Notes)),
    ("groups", Some(Category::Groups)),
    ("lifecycle", Some(Category::Lifecycle)),
    ("styling", Some(Category::Styling)),
];

pub const THEMES: [&str; 3] = ["default", "dark", "minimal"];

/// Files listed per page of `puml://project/diagrams`.
const DIAGRAMS_PAGE: usize = 200;
/// Files checked per page of `puml://project/diagnostics`.
const DIAGNOSTICS_PAGE: usize = 50;
/// The discovery walk stops after visiting this many directory entries.
const MAX_WALK_ENTRIES: usize = 50_000;
const MAX_WALK_DEPTH: usize = 32;

const FILE_TEMPLATE_PREFIX: &str = "puml://project/file/";

pub fn list() -> Vec<Resource> {
    let mut out = Vec::new();
    for (name, category) in SYNTAX {
        let description = match category {
            None => "The full syntax reference of supported sequence-diagram primitives, generated from the compiler's catalog.".to_string(),
            Some(c) => format!("Supported syntax: {}.", c.title()),
        };
        out.push(
            Resource::new(format!("puml://syntax/{name}"), format!("syntax-{name}"))
                .with_description(description)
                .with_mime_type("text/markdown"),
        );
    }
    for (name, description, _) in EXAMPLES {
        out.push(
            Resource::new(format!("puml://examples/{name}"), format!("example-{name}"))
                .with_description(format!("{description} Passes puml_check."))
                .with_mime_type("text/x-plantuml"),
        );
    }
    for name in THEMES {
        out.push(
            Resource::new(format!("puml://themes/{name}"), format!("theme-{name}"))
                .with_description(format!("The `{name}` theme: what it looks like and how to use it."))
                .with_mime_type("text/markdown"),
        );
    }
    out.push(
        Resource::new("puml://workflow/schema", "workflow-schema")
            .with_description(
                "The JSON Schema of Workflow JSON (puml_workflow_import's output, puml_workflow_export's input).",
            )
            .with_mime_type("application/schema+json"),
    );
    for (name, description, _) in WORKFLOW_EXAMPLES {
        out.push(
            Resource::new(
                format!("puml://workflow/examples/{name}"),
                format!("workflow-example-{name}"),
            )
            .with_description(format!("{description} Passes puml_workflow_validate."))
            .with_mime_type("text/x-plantuml"),
        );
    }
    out.push(
        Resource::new("puml://project/diagrams", "project-diagrams")
            .with_description(
                "The diagram files (.puml/.plantuml/.pu/.iuml) under the workspace roots, paginated (?page=N).",
            )
            .with_mime_type("application/json"),
    );
    out.push(
        Resource::new("puml://project/diagnostics", "project-diagnostics")
            .with_description("puml_check results for the workspace's diagram files, paginated (?page=N).")
            .with_mime_type("application/json"),
    );
    out
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{FILE_TEMPLATE_PREFIX}{{path}}"), "project-file")
            .with_description("One diagram file of the workspace, by path relative to the root (at most 1 MB).")
            .with_mime_type("text/x-plantuml"),
    ]
}

/// Whether reading `uri` touches the file system (and so needs the client's roots).
pub fn needs_roots(uri: &str) -> bool {
    uri.starts_with("puml://project/")
}

fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(format!("no such resource: {uri}"), None)
}

pub fn read(uri: &str, roots: &Roots) -> Result<ReadResourceResult, ErrorData> {
    let text = |body: String, mime: &str| {
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(body, uri).with_mime_type(mime)
        ]))
    };
    if let Some(name) = uri.strip_prefix("puml://syntax/") {
        let (_, category) = SYNTAX.iter().find(|(n, _)| *n == name).ok_or_else(|| not_found(uri))?;
        return text(syntax_markdown(*category), "text/markdown");
    }
    if let Some(name) = uri.strip_prefix("puml://examples/") {
        let (_, _, source) = EXAMPLES
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| not_found(uri))?;
        return text(source.to_string(), "text/x-plantuml");
    }
    if uri == "puml://workflow/schema" {
        return text(WORKFLOW_SCHEMA.to_string(), "application/schema+json");
    }
    if let Some(name) = uri.strip_prefix("puml://workflow/examples/") {
        let (_, _, source) = WORKFLOW_EXAMPLES
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| not_found(uri))?;
        return text(source.to_string(), "text/x-plantuml");
    }
    if let Some(name) = uri.strip_prefix("puml://themes/") {
        if !THEMES.contains(&name) {
            return Err(not_found(uri));
        }
        return text(crate::backend::theme_markdown(name), "text/markdown");
    }
    if let Some(encoded) = uri.strip_prefix(FILE_TEMPLATE_PREFIX) {
        let path =
            percent_decode(encoded).ok_or_else(|| ErrorData::invalid_params("malformed percent-encoding", None))?;
        return match security::read_source_file(roots, &path) {
            Ok((_, source)) => text(source, "text/x-plantuml"),
            Err(refusal) => Err(ErrorData::invalid_params(
                format!("{} [{}]", refusal.message, refusal.code),
                None,
            )),
        };
    }
    let (base, page) = split_page(uri)?;
    match base {
        "puml://project/diagrams" => text(json(&diagrams_page(roots, page)), "application/json"),
        "puml://project/diagnostics" => text(json(&diagnostics_page(roots, page)), "application/json"),
        _ => Err(not_found(uri)),
    }
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".to_string())
}

/// `uri?page=N` → (`uri`, N); no query → page 0.
fn split_page(uri: &str) -> Result<(&str, usize), ErrorData> {
    match uri.split_once('?') {
        None => Ok((uri, 0)),
        Some((base, query)) => {
            let page = query
                .strip_prefix("page=")
                .and_then(|n| n.parse::<usize>().ok())
                .ok_or_else(|| ErrorData::invalid_params(format!("unsupported query `{query}`: use ?page=N"), None))?;
            Ok((base, page))
        }
    }
}

/// The Markdown of one syntax resource, from the compiled catalog.
pub fn syntax_markdown(category: Option<Category>) -> String {
    let Some(category) = category else {
        return puml_ide::primitives::markdown();
    };
    let mut out = format!(
        "# {}\n\nIn the syntax lines `[x]` is optional and `a|b` is a choice.\n",
        category.title()
    );
    for primitive in catalog().iter().filter(|p| p.category == category) {
        out.push_str(&format!(
            "\n## {}\n\n`{}`\n\n{}\n\n```plantuml\n{}```\n",
            primitive.name,
            primitive.syntax,
            primitive.meaning,
            puml_ide::primitives::example_document(primitive)
        ));
    }
    out
}

#[derive(Debug, Serialize)]
struct DiagramFile {
    path: String,
    bytes: u64,
}

#[derive(Debug, Serialize)]
struct DiagramsPage {
    roots: Vec<String>,
    page: usize,
    files: Vec<DiagramFile>,
    total: usize,
    /// The walk stopped at its bound: more files may exist.
    incomplete: bool,
    next: Option<String>,
}

fn diagrams_page(roots: &Roots, page: usize) -> DiagramsPage {
    let (files, incomplete) = discover(roots);
    let total = files.len();
    let start = page.saturating_mul(DIAGRAMS_PAGE);
    let listed = files
        .iter()
        .skip(start)
        .take(DIAGRAMS_PAGE)
        .map(|p| DiagramFile {
            path: roots.display(p),
            bytes: std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
        })
        .collect();
    let next = (start + DIAGRAMS_PAGE < total).then(|| format!("puml://project/diagrams?page={}", page + 1));
    DiagramsPage {
        roots: root_names(roots),
        page,
        files: listed,
        total,
        incomplete,
        next,
    }
}

#[derive(Debug, Serialize)]
struct FileDiagnostics {
    path: String,
    ok: bool,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<wire::Diagnostic>,
}

#[derive(Debug, Serialize)]
struct DiagnosticsPage {
    roots: Vec<String>,
    page: usize,
    files: Vec<FileDiagnostics>,
    total: usize,
    incomplete: bool,
    next: Option<String>,
}

fn diagnostics_page(roots: &Roots, page: usize) -> DiagnosticsPage {
    let (files, incomplete) = discover(roots);
    let total = files.len();
    let start = page.saturating_mul(DIAGNOSTICS_PAGE);
    let sources = crate::analyzer::Sources {
        analyzer: crate::analyzer::shared(),
        roots,
    };
    let checked = files
        .iter()
        .skip(start)
        .take(DIAGNOSTICS_PAGE)
        .map(|path| {
            let display = roots.display(path);
            match security::read_source_file(roots, &path.to_string_lossy()) {
                Ok((path, text)) => {
                    let options = puml_ide::check::CheckOptions {
                        file_path: Some(path.clone()),
                        include_root: path.parent().map(Path::to_path_buf),
                        allow_url_includes: false,
                    };
                    let report = sources.check(&text, &options);
                    FileDiagnostics {
                        path: display,
                        ok: report.ok(),
                        errors: report.summary.errors,
                        warnings: report.summary.warnings,
                        diagnostics: wire::diagnostics(&report.diagnostics),
                    }
                }
                Err(refusal) => FileDiagnostics {
                    path: display,
                    ok: false,
                    errors: 1,
                    warnings: 0,
                    diagnostics: vec![wire::Diagnostic::from(&refusal)],
                },
            }
        })
        .collect();
    let next = (start + DIAGNOSTICS_PAGE < total).then(|| format!("puml://project/diagnostics?page={}", page + 1));
    DiagnosticsPage {
        roots: root_names(roots),
        page,
        files: checked,
        total,
        incomplete,
        next,
    }
}

fn root_names(roots: &Roots) -> Vec<String> {
    roots.dirs().iter().map(|d| d.display().to_string()).collect()
}

/// Diagram files under the roots, sorted: hidden directories, `target` and
/// `node_modules` skipped, symbolic links followed only when they stay
/// inside the roots, the walk bounded in entries and depth.
pub fn discover(roots: &Roots) -> (Vec<PathBuf>, bool) {
    let mut found = Vec::new();
    let mut visited = 0usize;
    let mut incomplete = false;
    for root in roots.dirs() {
        let mut stack = vec![(root.clone(), 0usize)];
        while let Some((dir, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries.flatten() {
                visited += 1;
                if visited > MAX_WALK_ENTRIES {
                    incomplete = true;
                    break;
                }
                let path = entry.path();
                let Ok(file_type) = entry.file_type() else { continue };
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if file_type.is_dir() {
                    if name.starts_with('.') || name == "target" || name == "node_modules" {
                        continue;
                    }
                    if depth + 1 > MAX_WALK_DEPTH {
                        incomplete = true;
                        continue;
                    }
                    stack.push((path, depth + 1));
                } else if puml_ide::fs::is_diagram_path(&path) {
                    if file_type.is_symlink() {
                        match path.canonicalize() {
                            Ok(target) if roots.contains(&target) && target.is_file() => {}
                            _ => continue,
                        }
                    }
                    if file_type.is_file() || file_type.is_symlink() {
                        found.push(path);
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    (found, incomplete)
}

/// Decodes `%XX` escapes; `None` on a malformed escape or invalid UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%2Fb%20c").as_deref(), Some("a/b c"));
        assert_eq!(percent_decode("plain/path.puml").as_deref(), Some("plain/path.puml"));
        assert_eq!(percent_decode("bad%2"), None);
        assert_eq!(percent_decode("bad%zz"), None);
        assert_eq!(percent_decode("%ff"), None);
    }

    #[test]
    fn pages_parse() {
        assert_eq!(
            split_page("puml://project/diagrams").unwrap(),
            ("puml://project/diagrams", 0)
        );
        assert_eq!(
            split_page("puml://project/diagrams?page=3").unwrap(),
            ("puml://project/diagrams", 3)
        );
        assert!(split_page("puml://project/diagrams?x=1").is_err());
    }

    #[test]
    fn twenty_two_resources_and_one_template() {
        assert_eq!(list().len(), 22);
        assert_eq!(templates().len(), 1);
    }
}
