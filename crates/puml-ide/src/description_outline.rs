//! The structure of description diagrams (use case, component, deployment,
//! `rectangle`) for editors, in the class outline's terms
//! (`ClassStructure`): containers (`package`, `node`, `rectangle`, … opened
//! with `{`) holding the elements written inside them, each with the range
//! it covers and the range of its name, and what folds (containers,
//! `together` groups, notes and elements written over several lines).
//!
//! The elements come from the model (`DescriptionDiagram`), which already
//! knows what the short forms make (`[C]` a component, `(U)` a use case,
//! `:A:` an actor, a plain name in a link an actor or an interface) and
//! which spellings name one element; the syntax tree gives where each
//! container's `}` is (the `{` and the `}` are flat sibling statements, so
//! they are matched with an explicit stack, never by recursion).

use crate::class_outline::{ClassStructure, ClassSymbol, ClassSymbolKind};
use puml_sema::description::{DescriptionDiagram, DescriptionSourceMap};
use puml_syntax::ast;
use puml_syntax::{SyntaxKind, TextRange, TextSize};
use std::collections::HashMap;

/// The outline of one description diagram.
pub(crate) fn description_structure(
    diagram: &ast::Diagram,
    model: &DescriptionDiagram,
    map: &DescriptionSourceMap,
) -> ClassStructure {
    let diagram_range = diagram.syntax.text_range();
    let statements: Vec<_> = diagram.statements().collect();
    let body_end = statements
        .last()
        .map_or(diagram_range.end(), |s| ast::statement_range(s).end());
    let mut folds = Vec::new();
    // Each container statement's start → where its `}` ends (the body's
    // end when never closed); its name token's range.
    let mut closing: HashMap<TextSize, TextSize> = HashMap::new();
    let mut names: HashMap<TextSize, TextRange> = HashMap::new();
    let mut open: Vec<TextSize> = Vec::new();
    for statement in &statements {
        let range = ast::statement_range(statement);
        match statement.kind() {
            SyntaxKind::DESC_CONTAINER_START => {
                open.push(range.start());
                let tokens = ast::significant_tokens(statement);
                if let Some(name) = tokens
                    .iter()
                    .find(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::STRING))
                {
                    names.insert(range.start(), inner_name_range(name.text(), name.text_range()));
                }
            }
            SyntaxKind::DESC_CONTAINER_END => {
                if let Some(start) = open.pop() {
                    closing.insert(start, range.end());
                    folds.push(TextRange::new(start, range.end()));
                }
            }
            SyntaxKind::DESC_NOTE | SyntaxKind::DESC_ELEMENT if line_count(statement) > 1 => folds.push(range),
            _ => {}
        }
    }
    for start in open {
        closing.insert(start, body_end.max(start));
        folds.push(TextRange::new(start, body_end.max(start)));
    }

    // Every item with where it starts, to be listed in text order.
    enum Item {
        Container(usize),
        Element(usize),
    }
    let inside = |r: &TextRange| diagram_range.contains_range(*r);
    let mut items: Vec<(TextSize, Item)> = Vec::new();
    for (index, range) in map.containers.iter().enumerate().filter(|(_, r)| inside(r)) {
        items.push((range.start(), Item::Container(index)));
    }
    for (index, range) in map.elements.iter().enumerate().filter(|(_, r)| inside(r)) {
        items.push((range.start(), Item::Element(index)));
    }
    items.sort_by_key(|(start, item)| (*start, matches!(item, Item::Element(_))));

    let mut symbols: Vec<ClassSymbol> = Vec::new();
    let mut container_symbol: HashMap<usize, usize> = HashMap::new();
    for (_, item) in items {
        let (kind, name, detail, range, selection, container) = match item {
            Item::Container(index) => {
                let Some(container) = model.containers.get(index) else {
                    continue;
                };
                let start = map.containers[index];
                let range = TextRange::new(
                    start.start(),
                    closing
                        .get(&start.start())
                        .copied()
                        .unwrap_or(start.end())
                        .max(start.end()),
                );
                let selection = names.get(&start.start()).copied().unwrap_or(start);
                let name = container
                    .alias
                    .clone()
                    .unwrap_or_else(|| last_part(&container.qualified_name));
                let detail = with_stereotypes(&container.keyword, &container.stereotypes);
                (
                    ClassSymbolKind::Package,
                    name,
                    detail,
                    range,
                    selection,
                    container.parent,
                )
            }
            Item::Element(index) => {
                let Some(element) = model.elements.get(index) else {
                    continue;
                };
                let range = map.elements[index];
                let selection = map
                    .element_references
                    .get(index)
                    .and_then(|refs| {
                        refs.iter()
                            .copied()
                            .filter(|r| range.contains_range(*r))
                            .min_by_key(|r| r.start())
                    })
                    .unwrap_or(range);
                let detail = with_stereotypes(element.shape.keyword(), &element.stereotypes);
                (
                    ClassSymbolKind::Element,
                    element.code.clone(),
                    detail,
                    range,
                    selection,
                    element.container,
                )
            }
        };
        // The parent is listed before its children; one that is not (an
        // element declared in an included file) is shown at the top.
        let parent = container
            .and_then(|c| container_symbol.get(&c.index()).copied())
            .filter(|p| symbols[*p].range.contains_range(range));
        let depth = parent.map_or(0, |p| symbols[p].depth + 1);
        if let Item::Container(index) = item {
            container_symbol.insert(index, symbols.len());
        }
        symbols.push(ClassSymbol {
            kind,
            name,
            detail,
            range,
            selection,
            parent,
            depth,
        });
    }
    folds.sort_by_key(|r| (r.start(), r.end()));
    ClassStructure {
        range: diagram_range,
        symbols,
        folds,
    }
}

/// `node <<server>>`: the keyword, then the stereotypes.
fn with_stereotypes(keyword: &str, stereotypes: &[String]) -> String {
    let mut words = vec![keyword.to_string()];
    words.extend(stereotypes.iter().map(|s| format!("<<{s}>>")));
    words.join(" ")
}

fn last_part(qualified: &str) -> String {
    qualified.rsplit('.').next().unwrap_or(qualified).to_string()
}

/// Where the name is written inside a name token (`"Web tier"` → inside
/// the quotes).
fn inner_name_range(text: &str, range: TextRange) -> TextRange {
    let name = puml_syntax::description_grammar::unwrap_name(text);
    match text.find(name.as_str()).filter(|_| !name.is_empty()) {
        Some(at) => TextRange::at(
            range.start() + TextSize::from(at as u32),
            TextSize::from(name.len() as u32),
        ),
        None => range,
    }
}

/// How many lines a statement spans (its trailing line break aside).
fn line_count(node: &puml_syntax::SyntaxNode) -> usize {
    node.text().to_string().trim_end().lines().count()
}

#[cfg(test)]
mod tests {
    use crate::class_outline::{class_structures_with_model, ClassSymbolKind};

    fn structures(text: &str) -> Vec<crate::class_outline::ClassStructure> {
        let parse = puml_syntax::parse(text);
        let analysis = puml_sema::analyze(text, &Default::default(), &puml_sema::NoIncludes);
        class_structures_with_model(&parse, &analysis)
    }

    #[test]
    fn containers_hold_the_elements_written_inside_them_with_their_kinds() {
        let text = "@startuml\nactor User\nrectangle Shop <<system>> {\n  (Buy) as B\n  usecase Pay\n  node \"Web tier\" as W {\n    [Cart]\n  }\n}\nUser --> B\nB ..> :Clerk: : asks\nnote right of User\n  two\n  lines\nend note\n@enduml\n";
        let structures = structures(text);
        assert_eq!(structures.len(), 1);
        let symbols = &structures[0].symbols;
        let listed: Vec<(&str, usize, &str, ClassSymbolKind)> = symbols
            .iter()
            .map(|s| (s.name.as_str(), s.depth, s.detail.as_str(), s.kind))
            .collect();
        assert_eq!(
            listed,
            vec![
                ("User", 0, "actor", ClassSymbolKind::Element),
                ("Shop", 0, "rectangle <<system>>", ClassSymbolKind::Package),
                ("B", 1, "usecase", ClassSymbolKind::Element),
                ("Pay", 1, "usecase", ClassSymbolKind::Element),
                ("W", 1, "node", ClassSymbolKind::Package),
                ("Cart", 2, "component", ClassSymbolKind::Element),
                ("Clerk", 0, "actor", ClassSymbolKind::Element),
            ]
        );
        let shop = &symbols[1];
        assert_eq!(&text[shop.selection], "Shop");
        assert!(text[shop.range].ends_with("}\n}"), "{:?}", &text[shop.range]);
        assert_eq!(&text[symbols[4].selection], "Web tier");
        assert_eq!(&text[symbols[5].selection], "Cart");
        assert_eq!(symbols[5].parent, Some(4));
        // An element never declared is a symbol where it is first written.
        assert_eq!(&text[symbols[6].selection], "Clerk");
        // The two containers and the block note fold.
        assert_eq!(structures[0].folds.len(), 3);
    }

    #[test]
    fn an_unclosed_container_reaches_the_last_statement() {
        let text = "@startuml\nnode N {\n  [A] --> [B]\n@enduml\n";
        for structure in structures(text) {
            assert!(!structure.symbols.is_empty());
            for symbol in &structure.symbols {
                assert!(structure.range.contains_range(symbol.range));
                if let Some(parent) = symbol.parent {
                    assert!(structure.symbols[parent].range.contains_range(symbol.range));
                }
            }
        }
    }
}
