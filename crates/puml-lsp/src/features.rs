//! Answers that need only an analysis result and the text: symbols,
//! hover, completion, definitions, references and folding ranges.

use crate::text::{word_at, LineTable};
use puml_ide::explain::{Explanation, ParticipantSummary};
use puml_ide::highlight::{Highlight, HighlightClass};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, FoldingRange, FoldingRangeKind, Position, Range,
    SelectionRange, SemanticToken, SemanticTokenType, SemanticTokensEdit, SemanticTokensLegend, SymbolKind,
};

/// The participant a word names (by name or alias), over every diagram.
pub fn participant<'a>(participants: &'a [ParticipantSummary], word: &str) -> Option<&'a ParticipantSummary> {
    participants
        .iter()
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
pub fn hover(text: &str, offset: usize, participants: &[ParticipantSummary]) -> Option<(String, usize, usize)> {
    let (start, word) = word_at(text, offset)?;
    let end = start + word.len();
    if let Some(p) = participant(participants, word) {
        let mut out = format!("**{}** `{}`", p.kind.keyword(), p.name);
        if let Some(alias) = &p.alias {
            out.push_str(&format!(" (alias `{alias}`)"));
        }
        out.push_str("\n\n");
        let declaration_here = p.declared_line.is_some_and(|line| {
            text.lines()
                .nth(line.saturating_sub(1) as usize)
                .is_some_and(|l| l.contains(&p.name) || p.alias.as_deref().is_some_and(|a| l.contains(a)))
        });
        match p.declared_line {
            Some(line) if declaration_here => out.push_str(&format!("Declared on line {line}. ")),
            Some(_) => out.push_str("Declared in an included file. "),
            None => out.push_str("Not declared: created by its first use. "),
        }
        out.push_str(&format!(
            "Sends {} message(s), receives {}.",
            p.messages_sent, p.messages_received
        ));
        return Some((out, start, end));
    }
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    if text[line_start..start].trim().eq_ignore_ascii_case("skinparam") {
        if let Some((name, kind)) = puml_ide::skinparams::find(word) {
            return Some((format!("**skinparam {name}**: {}", kind.describe()), start, end));
        }
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
pub fn completions(text: &str, offset: usize, participants: &[ParticipantSummary]) -> Vec<CompletionItem> {
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
    let lower = typed.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("skinparam ") {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let naming = words.is_empty() || (words.len() == 1 && !rest.ends_with(' '));
        if naming {
            for (name, kind) in puml_ide::skinparams::SKINPARAMS {
                items.push(CompletionItem {
                    label: name.to_string(),
                    kind: Some(CompletionItemKind::PROPERTY),
                    detail: Some(kind.describe()),
                    ..CompletionItem::default()
                });
            }
        } else if let Some((_, kind)) = puml_ide::skinparams::find(words[0]) {
            let values: &[&str] = match kind {
                puml_ide::skinparams::ValueKind::Boolean => &["true", "false"],
                puml_ide::skinparams::ValueKind::Choice(words) => words,
                _ => &[],
            };
            for value in values {
                items.push(CompletionItem {
                    label: value.to_string(),
                    kind: Some(CompletionItemKind::VALUE),
                    ..CompletionItem::default()
                });
            }
        }
        return items;
    }
    if lower.starts_with("!theme") && typed.contains(' ') {
        for theme in puml_ide::render::THEME_NAMES {
            items.push(CompletionItem {
                label: theme.to_string(),
                kind: Some(CompletionItemKind::ENUM_MEMBER),
                ..CompletionItem::default()
            });
        }
        return items;
    }
    if let Some(dollar) = typed.rfind('$') {
        if !typed[dollar..].contains(char::is_whitespace) {
            for (name, detail) in preprocessor_names(text) {
                if seen.insert(name.clone()) {
                    items.push(CompletionItem {
                        label: name,
                        kind: Some(CompletionItemKind::FUNCTION),
                        detail: Some(detail),
                        ..CompletionItem::default()
                    });
                }
            }
            return items;
        }
    }
    if expects_participant {
        for p in participants {
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
    if let Some(closer) = open_block_closer(&text[..line_start]) {
        seen.insert(closer.to_string());
        items.push(CompletionItem {
            label: closer.to_string(),
            kind: Some(CompletionItemKind::KEYWORD),
            detail: Some("closes the open block".to_string()),
            preselect: Some(true),
            ..CompletionItem::default()
        });
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
        // Statement completion is for sequence diagrams; activity keywords
        // would only mislead there (completion does not yet know the block's kind).
        if primitive.category == puml_ide::primitives::Category::Activity {
            continue;
        }
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

/// `$names` the preprocessor defines in `text`: procedures, functions and
/// variables, with the line that defines each.
pub fn preprocessor_names(text: &str) -> Vec<(String, String)> {
    let mut names = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let lower = trimmed.to_ascii_lowercase();
        let rest = [
            "!procedure ",
            "!unquoted procedure ",
            "!function ",
            "!unquoted function ",
            "!global ",
            "!local ",
        ]
        .iter()
        .find_map(|p| lower.starts_with(p).then(|| &trimmed[p.len()..]))
        .or_else(|| trimmed.strip_prefix('!').filter(|r| r.starts_with('$')));
        let Some(rest) = rest else {
            continue;
        };
        let rest = rest.trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| *c == '$' || c.is_alphanumeric() || *c == '_')
            .collect();
        if name.starts_with('$') && name.len() > 1 {
            names.push((name, trimmed.to_string()));
        }
    }
    names
}

/// The `$name(` call around `offset` on its line, with the index of the
/// argument the cursor is in.
pub fn call_at(text: &str, offset: usize) -> Option<(String, u32)> {
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..offset];
    let mut depth = 0i32;
    let mut commas = 0u32;
    for (at, ch) in before.char_indices().rev() {
        match ch {
            ')' => depth += 1,
            ',' if depth == 0 => commas += 1,
            '(' if depth == 0 => {
                let head = &before[..at];
                let name: String = head
                    .chars()
                    .rev()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                return name.starts_with('$').then_some((name, commas));
            }
            '(' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The closer the innermost block open before `text`'s end waits for.
pub fn open_block_closer(text: &str) -> Option<&'static str> {
    let mut stack: Vec<&'static str> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let lower = line.to_ascii_lowercase();
        if let Some(top) = stack.last() {
            let squashed = lower.replace(' ', "");
            if squashed == top.replace(' ', "") || (*top == "end" && (lower == "end" || lower.starts_with("end "))) {
                stack.pop();
                continue;
            }
            if *top == "'/" {
                continue;
            }
        }
        if let Some(closer) = opener(line) {
            stack.push(closer);
        }
    }
    stack.last().copied()
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

/// The token types, in the order of [`HighlightClass::ALL`] minus plain text
/// (label text keeps the editor's default colour).
pub fn semantic_legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: HighlightClass::ALL.iter().filter_map(|c| token_type(*c)).collect(),
        token_modifiers: Vec::new(),
    }
}

fn token_type(class: HighlightClass) -> Option<SemanticTokenType> {
    Some(match class {
        HighlightClass::Comment => SemanticTokenType::COMMENT,
        HighlightClass::Keyword => SemanticTokenType::KEYWORD,
        HighlightClass::Directive => SemanticTokenType::MACRO,
        HighlightClass::Participant => SemanticTokenType::VARIABLE,
        HighlightClass::String => SemanticTokenType::STRING,
        HighlightClass::Arrow => SemanticTokenType::OPERATOR,
        HighlightClass::Color => SemanticTokenType::ENUM_MEMBER,
        HighlightClass::Stereotype => SemanticTokenType::DECORATOR,
        HighlightClass::Number => SemanticTokenType::NUMBER,
        HighlightClass::Text => return None,
    })
}

/// Encodes highlights as LSP semantic tokens (relative lines and UTF-16
/// columns); a token over several lines becomes one per line.
pub fn semantic_tokens(text: &str, highlights: &[Highlight]) -> Vec<SemanticToken> {
    let legend = semantic_legend();
    let table = LineTable::new(text);
    let mut tokens = Vec::new();
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for highlight in highlights {
        let Some(kind) = token_type(highlight.class) else {
            continue;
        };
        let index = legend.token_types.iter().position(|t| *t == kind).unwrap_or(0) as u32;
        let (start, end) = (usize::from(highlight.range.start()), usize::from(highlight.range.end()));
        let mut piece_start = start;
        for piece in text[start..end].split_inclusive('\n') {
            let piece_text = piece.trim_end_matches(['\n', '\r']);
            let length = piece_text.encode_utf16().count() as u32;
            let position = table.position(piece_start);
            piece_start += piece.len();
            if length == 0 {
                continue;
            }
            let delta_line = position.line - last_line;
            let delta_start = if delta_line == 0 {
                position.character - last_start
            } else {
                position.character
            };
            tokens.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: index,
                token_modifiers_bitset: 0,
            });
            last_line = position.line;
            last_start = position.character;
        }
    }
    tokens
}

/// The one edit that turns `old` into `new` (common prefix and suffix
/// kept), in the integer units LSP counts (5 per token).
pub fn token_delta(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    if prefix == old.len() && prefix == new.len() {
        return None;
    }
    Some(SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: ((old.len() - prefix - suffix) * 5) as u32,
        data: Some(new[prefix..new.len() - suffix].to_vec()),
    })
}

/// `!include` / `!includesub` targets: byte range of the path and the path.
pub fn include_targets(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let lower = trimmed.to_ascii_lowercase();
        if let Some(directive) = ["!include_many", "!include_once", "!includesub", "!include"]
            .iter()
            .find(|d| lower.starts_with(**d))
        {
            let rest = &trimmed[directive.len()..];
            let target = rest.trim().trim_end_matches(['\r', '\n']);
            let target = target.split('!').next().unwrap_or(target).trim();
            let target = target.trim_start_matches('<').trim_end_matches('>');
            let is_url = target.contains("://");
            if !target.is_empty() && !is_url {
                if let Some(at) = line.find(target) {
                    let _ = indent;
                    out.push((offset + at, offset + at + target.len(), target.to_string()));
                }
            }
        }
        offset += line.len();
    }
    out
}

/// Word → line → each enclosing block → the whole text.
pub fn selection_range(
    text: &str,
    table: &LineTable<'_>,
    folds: &[FoldingRange],
    position: Position,
) -> SelectionRange {
    let offset = table.offset(position);
    let mut ranges: Vec<Range> = Vec::new();
    if let Some((start, word)) = word_at(text, offset) {
        ranges.push(Range::new(table.position(start), table.position(start + word.len())));
    }
    let line_start = table.offset(Position::new(position.line, 0));
    let line_end = text[line_start..].find('\n').map_or(text.len(), |n| line_start + n);
    ranges.push(Range::new(table.position(line_start), table.position(line_end)));
    let mut enclosing: Vec<&FoldingRange> = folds
        .iter()
        .filter(|f| f.start_line <= position.line && position.line <= f.end_line)
        .collect();
    enclosing.sort_by_key(|f| f.end_line - f.start_line);
    for fold in enclosing {
        let start = table.offset(Position::new(fold.start_line, 0));
        let end_start = table.offset(Position::new(fold.end_line, 0));
        let end = text[end_start..].find('\n').map_or(text.len(), |n| end_start + n);
        ranges.push(Range::new(table.position(start), table.position(end)));
    }
    ranges.push(Range::new(Position::new(0, 0), table.position(text.len())));
    ranges.dedup();
    let mut parent: Option<Box<SelectionRange>> = None;
    for range in ranges.into_iter().rev() {
        parent = Some(Box::new(SelectionRange { range, parent }));
    }
    parent.map(|b| *b).unwrap_or(SelectionRange {
        range: Range::new(position, position),
        parent: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "@startuml\nparticipant Alice as A\nA -> Bob : hi\nalt ok\n  Bob -> A\nelse no\n  note over A\n    text\n  end note\nend\n/' a\n b '/\n@enduml\n";

    fn explain() -> Vec<Explanation> {
        vec![puml_ide::explain::explain(SOURCE)]
    }

    fn participants(text: &str) -> Vec<ParticipantSummary> {
        puml_ide::explain::explain(text).participants
    }

    #[test]
    fn completion_knows_skinparams_themes_blocks_and_procedures() {
        let labels = |text: &str| -> Vec<String> {
            let at = text.find('|').expect("cursor");
            let text = text.replacen('|', "", 1);
            completions(&text, at, &[]).into_iter().map(|c| c.label).collect()
        };
        assert!(labels("skinparam Arr|").contains(&"ArrowColor".to_string()));
        assert_eq!(labels("skinparam Shadowing |"), vec!["true", "false"]);
        assert!(labels("!theme |").contains(&"plain".to_string()));
        assert_eq!(labels("alt x\n  A -> B\n|")[0], "end");
        assert_eq!(labels("loop\nalt x\nend\n|")[0], "end");
        assert_ne!(labels("alt x\nend\n|")[0], "end");
        assert_eq!(
            labels("!procedure $greet($who)\n!$count = 1\nA -> B : $gr|"),
            vec!["$greet", "$count"]
        );
        let hover_text = "skinparam ArrowColor red";
        let (markdown, _, _) = hover(hover_text, 12, &[]).expect("hover");
        assert!(markdown.contains("a color"), "{markdown}");
    }

    #[test]
    fn calls_of_procedures() {
        let text = "!procedure $pair($a, $b)\n$pair(1, f(2), 3)\n";
        let call = text.find("3)").expect("third");
        assert_eq!(call_at(text, call), Some(("$pair".to_string(), 2)));
        assert_eq!(call_at(text, text.find("f(2)").expect("f") + 2), None);
    }

    #[test]
    fn semantic_tokens_are_relative_and_utf16() {
        let text = "@startuml\nÄ -> Bob : hi\n@enduml\n";
        let parse_highlights = {
            let (host, file) = puml_ide::AnalysisHost::single_file(None, text.to_string(), Default::default());
            host.analysis().highlights(file).expect("not cancelled")
        };
        let tokens = semantic_tokens(text, &parse_highlights);
        let flat: Vec<(u32, u32, u32)> = tokens.iter().map(|t| (t.delta_line, t.delta_start, t.length)).collect();
        // @startuml; Ä (1 unit); -> at column 2; Bob at 5; @enduml.
        assert_eq!(flat, vec![(0, 0, 9), (1, 0, 1), (0, 2, 2), (0, 3, 3), (1, 0, 7)]);
        let mut changed = tokens.clone();
        changed[3].length = 4;
        let edit = token_delta(&tokens, &changed).expect("a change");
        assert_eq!((edit.start, edit.delete_count), (15, 5));
        assert!(token_delta(&tokens, &tokens).is_none());
    }

    #[test]
    fn include_targets_and_selection_ranges() {
        let text = "@startuml\n  !include parts/a.iuml\n!include <C4/C4>\n!include https://x/y.puml\n@enduml\n";
        let targets = include_targets(text);
        assert_eq!(targets.len(), 2, "{targets:?}");
        assert_eq!(&text[targets[0].0..targets[0].1], "parts/a.iuml");
        let table = LineTable::new(SOURCE);
        let folds = folding_ranges(SOURCE);
        let selection = selection_range(SOURCE, &table, &folds, Position::new(4, 4));
        let mut lines = Vec::new();
        let mut at = Some(&selection);
        while let Some(s) = at {
            lines.push((s.range.start.line, s.range.end.line));
            at = s.parent.as_deref();
        }
        assert_eq!(lines, vec![(4, 4), (4, 4), (3, 9), (0, 13)]);
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
        let (markdown, start, end) = hover(SOURCE, at, &participants(SOURCE)).expect("hover");
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
        let labels: Vec<String> = completions(text, at, &participants(text))
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert_eq!(labels, vec!["A"]);
        let keywords = completions(text, text.find("@enduml").expect("end"), &[]);
        assert!(keywords.iter().any(|c| c.label == "participant"));
        assert!(keywords.iter().any(|c| c.label == "alt"));
    }
}
