//! The structure of state diagrams for editors, in the class outline's
//! terms (`ClassStructure`): composite states holding the states written
//! inside them, each with the range it covers and the range of its name,
//! and what folds (composite states, notes written over several lines).
//! Read from the syntax tree as written, like the class outline.
//!
//! A state need not be declared: `A --> B` names two. A state declared
//! with `state` is a symbol at its declaration (a composite one to its
//! `}`); a state never declared is one at the first place its name is
//! written. `[*]`, `[H]` and `[H*]` are not symbols.
//!
//! Composite states are flat statements in the tree (a `state X {`, then a
//! `}` sibling), so the nesting is rebuilt with an explicit stack.

use crate::class_outline::{ClassStructure, ClassSymbol, ClassSymbolKind};
use puml_syntax::ast;
use puml_syntax::{SyntaxKind, SyntaxToken, TextRange};
use std::collections::HashSet;

/// The outline of one state diagram.
pub(crate) fn state_structure(diagram: &ast::Diagram) -> ClassStructure {
    let statements: Vec<_> = diagram.statements().collect();
    // Names declared anywhere: those are symbols at their declaration only.
    let declared: HashSet<String> = statements
        .iter()
        .filter(|s| s.kind() == SyntaxKind::STATE_DECL)
        .filter_map(|s| declared_name(&ast::significant_tokens(s)).map(|t| unquote(t.text())))
        .collect();
    let body_end = statements
        .last()
        .map_or(diagram.syntax.text_range().end(), |s| ast::statement_range(s).end());
    let mut symbols: Vec<ClassSymbol> = Vec::new();
    let mut folds = Vec::new();
    // The composite states open: their symbols' indices.
    let mut open: Vec<usize> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for statement in &statements {
        let parent = open.last().copied();
        let depth = parent.map_or(0, |p| symbols[p].depth + 1);
        let tokens = ast::significant_tokens(statement);
        match statement.kind() {
            SyntaxKind::STATE_DECL => {
                let Some(name) = declared_name(&tokens) else { continue };
                let opens = tokens.iter().any(|t| t.kind() == SyntaxKind::L_BRACE);
                let written = unquote(name.text());
                // `state A` twice (or `state A` then `state A {`): the
                // first declaration is the symbol, a later `{` reopens it.
                if !seen.insert(written.clone()) && !opens {
                    continue;
                }
                symbols.push(ClassSymbol {
                    kind: ClassSymbolKind::State,
                    name: written,
                    detail: state_detail(&tokens),
                    range: ast::statement_range(statement),
                    selection: name.text_range(),
                    parent,
                    depth,
                });
                if opens {
                    open.push(symbols.len() - 1);
                }
            }
            SyntaxKind::BRACE_END => {
                if let Some(index) = open.pop() {
                    let symbol = &mut symbols[index];
                    symbol.range = TextRange::new(symbol.range.start(), ast::statement_range(statement).end());
                    folds.push(symbol.range);
                }
            }
            SyntaxKind::STATE_LINK | SyntaxKind::STATE_DESC => {
                for name in tokens.iter().filter(|t| t.kind() == SyntaxKind::IDENT) {
                    let written = name.text().to_string();
                    if declared.contains(&written) || !seen.insert(written.clone()) {
                        continue;
                    }
                    symbols.push(ClassSymbol {
                        kind: ClassSymbolKind::State,
                        name: written,
                        detail: "state".to_string(),
                        range: name.text_range(),
                        selection: name.text_range(),
                        parent,
                        depth,
                    });
                }
            }
            SyntaxKind::STATE_NOTE if line_count(statement) > 1 => folds.push(ast::statement_range(statement)),
            _ => {}
        }
    }
    // Composites never closed reach the diagram's last statement.
    for index in open {
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

/// The name a `state` declaration gives: its alias when the first name is
/// a quoted display (`state "Long name" as L`), else the first name.
fn declared_name(tokens: &[SyntaxToken]) -> Option<SyntaxToken> {
    let names: Vec<&SyntaxToken> = tokens
        .iter()
        .take_while(|t| !matches!(t.kind(), SyntaxKind::COLON | SyntaxKind::L_BRACE))
        .filter(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::STRING))
        .collect();
    let first = names.first()?;
    let chosen = match names.get(1) {
        Some(alias) if first.kind() == SyntaxKind::STRING => alias,
        _ => first,
    };
    Some((*chosen).clone())
}

/// `state`, then the stereotypes: `state <<choice>>`.
fn state_detail(tokens: &[SyntaxToken]) -> String {
    let mut words = vec!["state".to_string()];
    words.extend(
        tokens
            .iter()
            .filter(|t| t.kind() == SyntaxKind::STEREOTYPE)
            .map(|t| t.text().to_string()),
    );
    words.join(" ")
}

fn unquote(text: &str) -> String {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
        .to_string()
}

/// How many lines a statement spans (its trailing line break aside).
fn line_count(node: &puml_syntax::SyntaxNode) -> usize {
    node.text().to_string().trim_end().lines().count()
}

#[cfg(test)]
mod tests {
    use crate::class_outline::{class_structures, ClassSymbolKind};

    #[test]
    fn composites_hold_the_states_written_inside_them() {
        let text = "@startuml\n[*] --> Idle\nstate \"Running job\" as Run {\n  [*] --> Load\n  Load --> Work : go\n  state Work <<choice>>\n}\nIdle --> Run\nnote right of Idle\n  waits\nend note\n@enduml\n";
        let parse = puml_syntax::parse(text);
        let structures = class_structures(&parse);
        assert_eq!(structures.len(), 1);
        let symbols = &structures[0].symbols;
        let names: Vec<(&str, usize, &str)> = symbols
            .iter()
            .map(|s| (s.name.as_str(), s.depth, s.detail.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("Idle", 0, "state"),
                ("Run", 0, "state"),
                ("Load", 1, "state"),
                ("Work", 1, "state <<choice>>"),
            ]
        );
        assert!(symbols.iter().all(|s| s.kind == ClassSymbolKind::State));
        let run = &symbols[1];
        assert_eq!(&text[run.selection], "Run");
        assert!(text[run.range].ends_with('}'), "{:?}", &text[run.range]);
        assert_eq!(symbols[2].parent, Some(1));
        // The composite and the block note fold.
        assert_eq!(structures[0].folds.len(), 2);
    }

    #[test]
    fn an_unclosed_composite_reaches_the_last_statement() {
        let text = "@startuml\nstate X {\n  A --> B\n@enduml\n";
        let parse = puml_syntax::parse(text);
        for structure in class_structures(&parse) {
            for symbol in &structure.symbols {
                assert!(structure.range.contains_range(symbol.range));
            }
        }
    }
}
