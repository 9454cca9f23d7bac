//! Answers that need only an analysis result and the text: symbols,
//! hover, completion, definitions, references and folding ranges.

use crate::text::{word_at, LineTable};
use puml_ide::explain::Explanation;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, FoldingRange, FoldingRangeKind, Position, Range, SymbolKind,
};

/// The participant a word names (by name or alias), over every diagram.
pub fn participant<'a>(
    explanations: &'a [Explanation],
    word: &str,
) -> Option<&'a puml_ide::explain::ParticipantSummary> {
    explanations
        .iter()
        .flat_map(|e| e.participants.iter())
        .find(|p| p.name == word || p.alias.as_deref() == Some(word))
}

fn line_range(table: &LineTable<'_>, text: &str, line_1based: u32) -> Range {
    let line = line_1based.saturating_sub(1);
    let start = table.offset(Position::new(line, 0));
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    Range::new(table.position(start), table.position(end))
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelled out
pub fn document_symbols(text: &str, explanations: &[Explanation]) -> Vec<DocumentSymbol> {
    let table = LineTable::new(text);
    let mut symbols = Vec::new();
    for explanation in explanations {
        for p in &explanation.participants {
            let Some(line) = p.declared_line else {
                continue;
            };
            let range = line_range(&table, text, line);
            symbols.push(DocumentSymbol {
                name: p.name.clone(),
                detail: Some(match &p.alias {
                    Some(alias) => format!("{} as {alias}", p.kind.keyword()),
                    None => p.kind.keyword().to_string(),
                }),
                kind: SymbolKind::OBJECT,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            });
        }
        for group in &explanation.groups {
            let range = line_range(&table, text, group.line);
            let label = group.label.clone().unwrap_or_default();
            symbols.push(DocumentSymbol {
                name: format!("{} {label}", group.kind.keyword()).trim().to_string(),
                detail: Some(format!("{} branch(es)", group.branches.len())),
                kind: SymbolKind::NAMESPACE,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            });
        }
    }
    symbols
}

/// Markdown for the word under the cursor: a participant, or a keyword of
/// the primitive catalog.
pub fn hover(text: &str, offset: usize, explanations: &[Explanation]) -> Option<(String, usize, usize)> {
    let (start, word) = word_at(text, offset)?;
    let end = start + word.len();
    if let Some(p) = participant(explanations, word) {
        let mut out = format!("**{}** `{}`", p.kind.keyword(), p.name);
        if let Some(alias) = &p.alias {
            out.push_str(&format!(" (alias `{alias}`)"));
        }
        out.push_str("\n\n");
        match p.declared_line {
            Some(line) => out.push_str(&format!("Declared on line {line}. ")),
            None => out.push_str("Not declared: created by its first use. "),
        }
        out.push_str(&format!(
            "Sends {} message(s), receives {}.",
            p.messages_sent, p.messages_received
        ));
        return Some((out, start, end));
    }
    let primitive = puml_ide::primitives::catalog()
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(word) || keyword(p) == Some(word))?;
    Some((
        format!(
            "**{}**: {}\n\n```plantuml\n{}\n```",
            primitive.name, primitive.meaning, primitive.syntax
        ),
        start,
        end,
    ))
}

/// The keyword a primitive's syntax starts with (`alt`, `note`, `!theme`…),
/// if it starts with one rather than a placeholder.
fn keyword(primitive: &puml_ide::primitives::Primitive) -> Option<&'static str> {
    let first = primitive.syntax.split_whitespace().next()?;
    let word = first.trim_start_matches(['!', '@']);
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase())).then_some(first)
}

const PARTICIPANT_KINDS: &[&str] = &[
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
];

/// Completions at `offset`: participant names where a participant is
/// expected (after an arrow, `note over`, `activate`…), statement keywords
/// at the start of a line.
pub fn completions(text: &str, offset: usize, explanations: &[Explanation]) -> Vec<CompletionItem> {
    let line_start = text[..offset.min(text.len())].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..offset.min(text.len())];
    let typed = before.trim_start();
    let expects_participant = typed.contains("->")
        || typed.contains("<-")
        || [
            "note over",
            "note left of",
            "note right of",
            "activate",
            "deactivate",
            "destroy",
            "create",
            "ref over",
        ]
        .iter()
        .any(|k| typed.starts_with(k) && typed.len() > k.len());
    let mut items = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    if expects_participant {
        for p in explanations.iter().flat_map(|e| e.participants.iter()) {
            let label = p.alias.clone().unwrap_or_else(|| p.name.clone());
            if seen.insert(label.clone()) {
                items.push(CompletionItem {
                    label,
                    kind: Some(CompletionItemKind::VARIABLE),
                    detail: Some(format!("{} {}", p.kind.keyword(), p.name)),
                    ..CompletionItem::default()
                });
            }
        }
        return items;
    }
    if typed.contains(char::is_whitespace) {
        return items;
    }
    for kind in PARTICIPANT_KINDS {
        if seen.insert(kind.to_string()) {
            items.push(CompletionItem {
                label: kind.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some("participant declaration".to_string()),
                ..CompletionItem::default()
            });
        }
    }
    for primitive in puml_ide::primitives::catalog() {
        let Some(keyword) = keyword(primitive) else {
            continue;
        };
        if seen.insert(keyword.to_string()) {
            items.push(CompletionItem {
                label: keyword.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(primitive.meaning.to_string()),
                ..CompletionItem::default()
            });
        }
    }
    items
}

/// Whole-word occurrences of `word` (the same boundaries as [`word_at`]).
pub fn occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    text.match_indices(word)
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
        .map(|(at, _)| (at, at + word.len()))
        .collect()
}

/// Block openers and the closers they wait for.
fn opener(line: &str) -> Option<&'static str> {
    let first = line.split_whitespace().next()?;
    let lower = first.to_ascii_lowercase();
    match lower.as_str() {
        "alt" | "opt" | "loop" | "par" | "par2" | "break" | "critical" | "group" | "box" => Some("end"),
        "note" | "hnote" | "rnote" if !line.contains(':') => Some("end note"),
        "ref" if !line.contains(':') => Some("end ref"),
        "legend" => Some("endlegend"),
        _ if line.starts_with("/'") && !line.contains("'/") => Some("'/"),
        _ => None,
    }
}

/// Folding ranges for groups, boxes, block notes and refs, legends and
/// block comments.
pub fn folding_ranges(text: &str) -> Vec<FoldingRange> {
    let mut stack: Vec<(u32, &'static str)> = Vec::new();
    let mut ranges = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = number as u32;
        if let Some((start, closer)) = stack.last().copied() {
            let closes = if closer == "'/" {
                line.contains("'/")
            } else {
                let lower = line.to_ascii_lowercase();
                lower == closer
                    || (closer == "end" && (lower == "end" || lower.starts_with("end ") && lower != "end note"))
                    || (closer != "end" && lower.replace(' ', "") == closer.replace(' ', ""))
            };
            if closes {
                stack.pop();
                if number > start {
                    ranges.push(FoldingRange {
                        start_line: start,
                        start_character: None,
                        end_line: number,
                        end_character: None,
                        kind: Some(if closer == "'/" {
                            FoldingRangeKind::Comment
                        } else {
                            FoldingRangeKind::Region
                        }),
                        collapsed_text: None,
                    });
                }
                continue;
            }
            if closer == "'/" {
                continue;
            }
        }
        if let Some(closer) = opener(line) {
            stack.push((number, closer));
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "@startuml\nparticipant Alice as A\nA -> Bob : hi\nalt ok\n  Bob -> A\nelse no\n  note over A\n    text\n  end note\nend\n/' a\n b '/\n@enduml\n";

    fn explain() -> Vec<Explanation> {
        vec![puml_ide::explain::explain(SOURCE)]
    }

    #[test]
    fn folds_groups_notes_and_comments() {
        let folds: Vec<(u32, u32)> = folding_ranges(SOURCE)
            .iter()
            .map(|f| (f.start_line, f.end_line))
            .collect();
        assert_eq!(folds, vec![(6, 8), (3, 9), (10, 11)]);
    }

    #[test]
    fn symbols_list_declared_participants_and_groups() {
        let symbols = document_symbols(SOURCE, &explain());
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["Alice", "alt ok"]);
        assert_eq!(symbols[0].range.start.line, 1);
    }

    #[test]
    fn hover_names_a_participant_by_alias() {
        let at = SOURCE.find("A -> Bob").expect("message");
        let (markdown, start, end) = hover(SOURCE, at, &explain()).expect("hover");
        assert!(
            markdown.contains("`Alice`") && markdown.contains("alias `A`"),
            "{markdown}"
        );
        assert!(markdown.contains("Sends 1 message(s), receives 1"), "{markdown}");
        assert_eq!((start, end), (at, at + 1));
    }

    #[test]
    fn completion_offers_participants_after_an_arrow() {
        let text = "@startuml\nparticipant Alice as A\nA -> \n@enduml\n";
        let at = text.find("A -> ").expect("arrow") + 5;
        let labels: Vec<String> = completions(text, at, &[puml_ide::explain::explain(text)])
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert_eq!(labels, vec!["A"]);
        let keywords = completions(text, text.find("@enduml").expect("end"), &[]);
        assert!(keywords.iter().any(|c| c.label == "participant"));
        assert!(keywords.iter().any(|c| c.label == "alt"));
    }

    #[test]
    fn occurrences_are_whole_words() {
        assert_eq!(occurrences("A -> AB : A.x A", "A"), vec![(0, 1), (14, 15)]);
    }
}
