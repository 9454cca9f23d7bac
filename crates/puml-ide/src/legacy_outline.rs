//! The structure of legacy activity diagrams (`(*) --> "First"`) for
//! editors, in the class outline's terms (`ClassStructure`): partitions
//! holding the activities and bars first written inside them, each with the
//! range it covers and the range of its name, and what folds (partitions,
//! `if` … `endif` branches, notes written over several lines). Read from the
//! syntax tree as written, like the class outline.
//!
//! An activity is a symbol at the first place it is written (`"First"`,
//! `"Long text" as L`, a plain name, a `===B1===` bar); `(*)` and the
//! branches' diamonds are not symbols. Partitions and branches are flat
//! statements in the tree (an opener, then a closing sibling), so the
//! nesting is rebuilt with explicit stacks.

use crate::class_outline::{ClassStructure, ClassSymbol, ClassSymbolKind};
use puml_syntax::ast;
use puml_syntax::{SyntaxKind, SyntaxToken, TextRange};
use std::collections::HashSet;

/// An activity written in a link: its name (how later lines refer to it),
/// the symbol's detail, and where its name is written.
struct Written {
    name: String,
    detail: &'static str,
    selection: TextRange,
    range: TextRange,
}

fn unquote(text: &str) -> String {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
        .to_string()
}

/// The activity named by `tokens` (one end of a link), if any.
fn activity(tokens: &[SyntaxToken]) -> Option<Written> {
    let first = tokens.first()?;
    let range = first.text_range().cover(tokens.last()?.text_range());
    match first.kind() {
        SyntaxKind::STRING => {
            // `"Long text" as L`: the alias names it.
            let alias = tokens.iter().skip(1).find(|t| t.kind() == SyntaxKind::IDENT);
            let named = alias.unwrap_or(first);
            Some(Written {
                name: unquote(named.text()),
                detail: "activity",
                selection: named.text_range(),
                range,
            })
        }
        SyntaxKind::IDENT if first.text().starts_with("==") => Some(Written {
            name: first.text().trim_matches('=').trim().to_string(),
            detail: "bar",
            selection: first.text_range(),
            range,
        }),
        SyntaxKind::IDENT | SyntaxKind::TEXT => Some(Written {
            name: first.text().to_string(),
            detail: "activity",
            selection: first.text_range(),
            range,
        }),
        _ => None,
    }
}

/// A link's two ends: the tokens before its arrow and those after it (its
/// `[label]` and trailing colours and stereotypes apart).
fn link_ends(tokens: &[SyntaxToken]) -> [&[SyntaxToken]; 2] {
    let Some(arrow) = tokens.iter().position(|t| t.kind() == SyntaxKind::ARROW) else {
        return [&[], &[]];
    };
    let mut after = &tokens[arrow + 1..];
    if after.first().is_some_and(|t| t.kind() == SyntaxKind::L_BRACKET) {
        let close = after
            .iter()
            .position(|t| t.kind() == SyntaxKind::R_BRACKET)
            .map_or(after.len(), |i| i + 1);
        after = &after[close..];
    }
    let end = after
        .iter()
        .position(|t| matches!(t.kind(), SyntaxKind::COLOR | SyntaxKind::STEREOTYPE))
        .unwrap_or(after.len());
    [&tokens[..arrow], &after[..end]]
}

/// Whether a link's target is a new branch (`--> if "c" then`).
fn opens_branch(tokens: &[SyntaxToken]) -> bool {
    tokens
        .iter()
        .any(|t| t.kind() == SyntaxKind::KEYWORD && t.text().eq_ignore_ascii_case("if"))
}

/// The outline of one legacy activity diagram.
pub(crate) fn legacy_structure(diagram: &ast::Diagram) -> ClassStructure {
    let statements: Vec<_> = diagram.statements().collect();
    let body_end = statements
        .last()
        .map_or(diagram.syntax.text_range().end(), |s| ast::statement_range(s).end());
    let mut symbols: Vec<ClassSymbol> = Vec::new();
    let mut folds = Vec::new();
    // The partitions open (their symbols' indices) and the branches open
    // (where each starts).
    let mut partitions: Vec<usize> = Vec::new();
    let mut branches: Vec<TextRange> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for statement in &statements {
        let parent = partitions.last().copied();
        let depth = parent.map_or(0, |p| symbols[p].depth + 1);
        let tokens = ast::significant_tokens(statement);
        let range = ast::statement_range(statement);
        match statement.kind() {
            SyntaxKind::LEGACY_PARTITION => {
                let name = tokens
                    .iter()
                    .skip(1)
                    .find(|t| matches!(t.kind(), SyntaxKind::STRING | SyntaxKind::TEXT));
                let Some(name) = name else { continue };
                symbols.push(ClassSymbol {
                    kind: ClassSymbolKind::Package,
                    name: unquote(name.text()),
                    detail: "partition".to_string(),
                    range,
                    selection: name.text_range(),
                    parent,
                    depth,
                });
                partitions.push(symbols.len() - 1);
            }
            SyntaxKind::BRACE_END => {
                if let Some(index) = partitions.pop() {
                    let symbol = &mut symbols[index];
                    symbol.range = symbol.range.cover(range);
                    folds.push(symbol.range);
                }
            }
            SyntaxKind::LEGACY_LINK => {
                for end in link_ends(&tokens) {
                    let Some(written) = activity(end) else { continue };
                    if !seen.insert(written.name.clone()) {
                        continue;
                    }
                    symbols.push(ClassSymbol {
                        kind: ClassSymbolKind::Activity,
                        name: written.name,
                        detail: written.detail.to_string(),
                        range: written.range,
                        selection: written.selection,
                        parent,
                        depth,
                    });
                }
                if opens_branch(&tokens) {
                    branches.push(range);
                }
            }
            SyntaxKind::LEGACY_IF => branches.push(range),
            SyntaxKind::LEGACY_ENDIF => {
                if let Some(start) = branches.pop() {
                    folds.push(start.cover(range));
                }
            }
            SyntaxKind::LEGACY_NOTE if statement.text().to_string().trim_end().lines().count() > 1 => folds.push(range),
            _ => {}
        }
    }
    // Partitions never closed reach the diagram's last statement.
    for index in partitions {
        let symbol = &mut symbols[index];
        symbol.range = TextRange::new(symbol.range.start(), body_end.max(symbol.range.end()));
        folds.push(symbol.range);
    }
    folds.sort_by_key(|r| (r.start(), r.end()));
    ClassStructure {
        range: diagram.syntax.text_range(),
        symbols,
        folds,
    }
}

#[cfg(test)]
mod tests {
    use crate::class_outline::{class_structures, ClassSymbolKind};

    #[test]
    fn partitions_hold_the_activities_first_written_in_them() {
        let text = "@startuml\n(*) --> \"First\"\npartition P {\n\"First\" -->[ok] \"Second\" as s\nif \"c\" then\n--> ===B1===\nelse\n--> (*)\nendif\n}\nnote left\nx\nend note\n@enduml\n";
        let parse = puml_syntax::parse(text);
        assert_eq!(parse.diagram_kinds(), &[puml_syntax::DiagramKind::LegacyActivity]);
        let structures = class_structures(&parse);
        assert_eq!(structures.len(), 1);
        let outline: Vec<(ClassSymbolKind, &str, &str, Option<usize>)> = structures[0]
            .symbols
            .iter()
            .map(|s| (s.kind, s.name.as_str(), s.detail.as_str(), s.parent))
            .collect();
        assert_eq!(
            outline,
            [
                (ClassSymbolKind::Activity, "First", "activity", None),
                (ClassSymbolKind::Package, "P", "partition", None),
                (ClassSymbolKind::Activity, "s", "activity", Some(1)),
                (ClassSymbolKind::Activity, "B1", "bar", Some(1)),
            ]
        );
        let selection = structures[0].symbols[2].selection;
        assert_eq!(&text[usize::from(selection.start())..usize::from(selection.end())], "s");
        // The partition, the branch and the note fold.
        let folds: Vec<&str> = structures[0]
            .folds
            .iter()
            .map(|r| {
                text[usize::from(r.start())..usize::from(r.end())]
                    .lines()
                    .next()
                    .unwrap_or("")
            })
            .collect();
        assert_eq!(folds, ["partition P {", "if \"c\" then", "note left"]);
    }
}
