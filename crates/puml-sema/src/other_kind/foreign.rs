//! Diagrams of other languages: every `@start…` tag other than `@startuml`
//! (`@startmindmap`, `@startgantt`, `@startjson`, …), and the `@startuml`
//! blocks PlantUML reads as another language by their first line (a timing
//! diagram's `robust "Web" as WB`; `nwdiag {`, `salt`, `digraph G {` and
//! `ditaa`, which PlantUML refuses inside `@startuml`, naming the tag to
//! use). puml reads none of them: a block of a kind PlantUML draws gets one
//! warning naming the kind (W0240) and is not drawn; a block PlantUML
//! refuses gets its error where PlantUML reports it.

use crate::codes;
use crate::model::{Document, OtherKind};
use puml_syntax::{ast, Diagnostic, Parse, TextRange};

/// What PlantUML makes of a start tag (the word after `@start`, lower case).
enum Tag {
    /// A kind PlantUML 1.2026.8 draws, named as its SVG names it.
    Drawn(&'static str),
    /// A tag this PlantUML does not know (`@startfoo`; `@startchronology`
    /// is announced but not in 1.2026.8): "Diagram not supported by this
    /// release of PlantUML", exit 200.
    Unknown,
}

/// The tags PlantUML 1.2026.8 draws (observed with the oracle), and the
/// name of each kind (its SVG's `data-diagram-type`, or the tag's where the
/// SVG names none).
fn tag_kind(tag: &str) -> Tag {
    Tag::Drawn(match tag {
        "mindmap" => "MINDMAP",
        "wbs" => "WBS",
        "gantt" => "GANTT",
        "salt" => "SALT",
        "json" => "JSON",
        "yaml" => "YAML",
        "ditaa" => "DITAA",
        "dot" => "DOT",
        "regex" => "REGEX",
        "ebnf" => "EBNF",
        "chen" => "CHEN_EER",
        "files" => "FILES",
        "nwdiag" => "NWDIAG",
        "packetdiag" => "PACKET",
        "board" => "BOARD",
        "git" => "GIT",
        "chart" => "CHART",
        "wire" => "WIRE",
        "math" | "latex" => "MATH",
        "creole" => "CREOLE",
        "def" => "DEFINITION",
        _ => return Tag::Unknown,
    })
}

/// What a `@startuml` block's first line says about its language.
pub(super) enum Body {
    /// A timing diagram (`robust`, `concise`, `clock`, `binary`, `analog`
    /// declarations), which PlantUML draws.
    Timing,
    /// A language PlantUML wants under its own tag: `(kind prose, tag)`.
    Misplaced(&'static str, &'static str),
}

/// The first line of a `@startuml` block that is not blank or a comment,
/// read for a language other than PlantUML's UML ones.
pub(super) fn body_kind(first_line: &str) -> Option<Body> {
    let line = first_line.trim();
    let lower = line.to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next()?;
    let has_more = words.next().is_some();
    match first {
        "robust" | "concise" | "clock" | "binary" | "analog" if has_more => Some(Body::Timing),
        "nwdiag" if line.ends_with('{') => Some(Body::Misplaced("network", "@startnwdiag")),
        "salt" if !has_more => Some(Body::Misplaced("salt", "@startsalt")),
        "ditaa" => Some(Body::Misplaced("DITAA", "@startditaa")),
        "digraph" | "graph" | "strict" if line.ends_with('{') => Some(Body::Misplaced("DOT", "@startdot")),
        _ => None,
    }
}

/// Marks every block of another language (a `@start…` tag other than
/// `@startuml`): its lines are not puml's to read, so every diagnostic the
/// sequence reading made of them gives way to one warning naming the kind
/// (or, for a tag PlantUML does not know, one error).
pub(super) fn recognize_tagged(parse: &Parse, document: &mut Document, diagnostics: &mut Vec<Diagnostic>) {
    for (index, diagram) in parse.root().diagrams().enumerate() {
        let Some(tag) = diagram.foreign_tag() else {
            continue;
        };
        let range = diagram.syntax.text_range();
        diagnostics.retain(|d| !(d.file.is_none() && !d.code.starts_with('P') && range.contains_range(d.range)));
        let start = start_line_range(&diagram);
        match tag_kind(&tag) {
            Tag::Drawn(name) => {
                diagnostics.push(Diagnostic::warning(
                    codes::OTHER_DIAGRAM_KIND,
                    start,
                    format!(
                        "`@start{tag}` starts a {} diagram, which PlantUML draws; puml does not draw {} diagrams yet (it checks and draws sequence, activity (also legacy), class, description and state diagrams)",
                        OtherKind::Other(name).describe(),
                        OtherKind::Other(name).describe()
                    ),
                ));
                if let Some(model) = document.diagrams.get_mut(index) {
                    model.other_kind = Some(OtherKind::Other(name));
                }
            }
            Tag::Unknown => diagnostics.push(Diagnostic::error(
                codes::UNKNOWN_START_TAG,
                start,
                format!("PlantUML 1.2026.8 knows no `@start{tag}` diagram (\"Diagram not supported by this release of PlantUML\"); use `@startuml`, or a tag such as `@startmindmap`, `@startgantt`, `@startjson`"),
            )),
        }
    }
}

/// The start line of a diagram, without its line end.
fn start_line_range(diagram: &ast::Diagram) -> TextRange {
    match diagram
        .syntax
        .children()
        .find(|n| n.kind() == puml_syntax::SyntaxKind::START_LINE)
    {
        Some(start) => {
            let text = start.text().to_string();
            let content = text.trim_end_matches(['\n', '\r']).trim_end();
            let lead = content.len() - content.trim_start().len();
            let from = start.text_range().start() + puml_syntax::TextSize::from(lead as u32);
            TextRange::new(from, from + puml_syntax::TextSize::from((content.len() - lead) as u32))
        }
        None => TextRange::empty(diagram.syntax.text_range().start()),
    }
}
