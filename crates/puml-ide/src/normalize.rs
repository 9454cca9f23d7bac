//! `normalize`: canonical source, optionally with every implicit participant
//! declared, and the patch from the original to it.

use crate::format::line_edits;
use puml_fmt::FormatOptions;
use puml_sema::model::{Diagram, DiagramSourceMap};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use puml_syntax::{SyntaxKind, SyntaxNode, TextEdit, TextSize};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizeOptions {
    /// Declare every implicit participant, in order of first appearance.
    pub add_explicit_participants: bool,
    /// Run the formatter over the result.
    pub format: bool,
    pub indent_width: usize,
}

impl Default for NormalizeOptions {
    fn default() -> NormalizeOptions {
        NormalizeOptions {
            add_explicit_participants: true,
            format: true,
            indent_width: 2,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    pub source: String,
    /// Edits against the original source (apply them all at once).
    pub edits: Vec<TextEdit>,
    /// Codes of the participants that were declared.
    pub declared: Vec<String>,
}

pub fn normalize(source: &str, options: &NormalizeOptions) -> Normalized {
    let mut text = source.to_string();
    let mut declared = Vec::new();
    if options.add_explicit_participants {
        let (with_declarations, names) = declare_implicit_participants(&text);
        text = with_declarations;
        declared = names;
    }
    if options.format {
        text = puml_fmt::format(
            &text,
            &FormatOptions {
                indent_width: options.indent_width,
            },
        );
    }
    Normalized {
        edits: line_edits(source, &text),
        source: text,
        declared,
    }
}

/// A participant name as it can be written unquoted, else quoted.
pub(crate) fn written_name(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$'))
    {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "'"))
    }
}

fn declaration(diagram: &Diagram, index: usize) -> String {
    let p = &diagram.participants[index];
    format!("{} {}", p.kind.keyword(), written_name(&p.code))
}

fn participant_order(text: &str) -> Vec<Vec<(String, &'static str)>> {
    analyze(text, &AnalysisOptions::default(), &NoIncludes)
        .document
        .diagrams
        .iter()
        .map(|d| {
            d.participants
                .iter()
                .map(|p| (p.code.clone(), p.kind.keyword()))
                .collect()
        })
        .collect()
}

/// Inserts declarations for the implicit participants: at the top of each
/// diagram when that keeps the participant order, otherwise just before
/// each participant's first use (which always keeps it).
fn declare_implicit_participants(text: &str) -> (String, Vec<String>) {
    let analysis = analyze(text, &AnalysisOptions::default(), &NoIncludes);
    let empty = DiagramSourceMap::default();
    let tree = puml_syntax::parse(text).syntax();
    let mut top_edits = Vec::new();
    let mut use_edits = Vec::new();
    let mut after_use_edits = Vec::new();
    let mut names = Vec::new();
    for (d, diagram) in analysis.document.diagrams.iter().enumerate() {
        // A block PlantUML reads as another diagram type (W0240) has no
        // participants to declare: a declaration would make it a broken
        // sequence diagram.
        if diagram.other_kind.is_some() {
            continue;
        }
        let map = analysis.source_map.diagrams.get(d).unwrap_or(&empty);
        // Likewise a block no reading takes whole where another kind's
        // reading gets furthest (E0241): its arrows are that kind's links,
        // and declarations would move where the readings stop.
        let read_furthest_as_another_kind = analysis.diagnostics.iter().any(|diagnostic| {
            diagnostic.code == puml_sema::codes::FURTHEST_READING
                && diagnostic.file.is_none()
                && map.range.contains_range(diagnostic.range)
        });
        if read_furthest_as_another_kind {
            continue;
        }
        let implicit: Vec<usize> = (0..diagram.participants.len())
            .filter(|&i| !diagram.participants[i].declared && !diagram.participants[i].created)
            .filter(|&i| map.participants.get(i).is_some())
            .collect();
        if implicit.is_empty() {
            continue;
        }
        // Top: the start of the line of the earliest participant mention.
        let first_mention = map
            .participants
            .iter()
            .map(|r| r.start())
            .min()
            .unwrap_or(map.range.start());
        let top = line_start(text, first_mention);
        let indent = leading_whitespace(text, top);
        let block: String = implicit
            .iter()
            .map(|&i| format!("{indent}{}\n", declaration(diagram, i)))
            .collect();
        top_edits.push(TextEdit::insert(top, block));
        for &i in &implicit {
            let at = line_start(text, map.participants[i].start());
            let indent = leading_whitespace(text, at);
            use_edits.push(TextEdit::insert(at, format!("{indent}{}\n", declaration(diagram, i))));
            let after = statement_end(&tree, text, map.participants[i].end());
            let newline = if usize::from(after) == text.len() && !text.ends_with('\n') {
                "\n"
            } else {
                ""
            };
            after_use_edits.push(TextEdit::insert(
                after,
                format!("{newline}{indent}{}\n", declaration(diagram, i)),
            ));
            names.push(diagram.participants[i].code.clone());
        }
    }
    if names.is_empty() {
        return (text.to_string(), names);
    }
    let original_order = participant_order(text);
    let (at_top, _) = puml_syntax::apply_edits(text, &top_edits);
    if participant_order(&at_top) == original_order {
        return (at_top, names);
    }
    let (at_use, _) = puml_syntax::apply_edits(text, &use_edits);
    if participant_order(&at_use) == original_order {
        return (at_use, names);
    }
    // A declaration just after the first use never changes the order
    // (another participant declared late can make the line before wrong).
    let (after_use, _) = puml_syntax::apply_edits(text, &after_use_edits);
    (after_use, names)
}

fn line_start(text: &str, offset: TextSize) -> TextSize {
    let offset = usize::from(offset).min(text.len());
    TextSize::from(text[..offset].rfind('\n').map_or(0, |i| i + 1) as u32)
}

/// The end of the statement holding `offset` (after its newline), so that a
/// line inserted there never lands inside a block note or a multi-line name.
fn statement_end(tree: &SyntaxNode, text: &str, offset: TextSize) -> TextSize {
    let statement = tree
        .descendants()
        .filter(|n| n.parent().is_some_and(|p| p.kind() == SyntaxKind::DIAGRAM))
        .find(|n| n.text_range().contains(offset) || n.text_range().end() == offset);
    match statement {
        Some(node) => node.text_range().end(),
        None => {
            let offset = usize::from(offset).min(text.len());
            TextSize::from(text[offset..].find('\n').map_or(text.len(), |i| offset + i + 1) as u32)
        }
    }
}

fn leading_whitespace(text: &str, line_start: TextSize) -> String {
    text[usize::from(line_start)..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// Kinds of statements that may come before the participant block.
pub(crate) fn is_header_statement(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    matches!(
        kind,
        THEME | PRAGMA | SKINPARAM | STYLE | TITLE | HIDE_SHOW | HEADER | FOOTER | CAPTION | MAINFRAME | PREPROC
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declares_implicit_participants_at_the_top() {
        let source = "@startuml\ntitle T\nAlice -> Bob : hi\n\"Web App\" -> Bob : x\n@enduml\n";
        let result = normalize(source, &NormalizeOptions::default());
        assert_eq!(
            result.source,
            "@startuml\ntitle T\nparticipant Alice\nparticipant Bob\nparticipant \"Web App\"\nAlice -> Bob : hi\n\"Web App\" -> Bob : x\n@enduml\n"
        );
        assert_eq!(result.declared, ["Alice", "Bob", "Web App"]);
        let (patched, _) = puml_syntax::apply_edits(source, &result.edits);
        assert_eq!(patched, result.source);
    }

    #[test]
    fn keeps_order_when_a_declaration_comes_late() {
        let source = "@startuml\nA -> B\nparticipant C\nC -> A\n@enduml\n";
        let result = normalize(source, &NormalizeOptions::default());
        assert_eq!(participant_order(&result.source), participant_order(source));
        assert!(result.source.contains("participant A\n"));
    }

    #[test]
    fn late_declaration_goes_after_the_whole_first_statement() {
        let source = "@startuml\nnote over Ghost\n  text\nend note\nparticipant A\nA -> Ghost\n@enduml\n";
        let result = normalize(source, &NormalizeOptions::default());
        assert_eq!(participant_order(&result.source), participant_order(source));
        assert!(!result.source.contains("  participant Ghost"), "{}", result.source);
    }

    #[test]
    fn nothing_to_do() {
        let source = "@startuml\nparticipant A\nA -> A\n@enduml\n";
        let result = normalize(source, &NormalizeOptions::default());
        assert_eq!(result.source, source);
        assert!(result.edits.is_empty());
    }
}
