//! The structure of class diagrams for editors: packages (and namespaces)
//! holding elements holding members, with the range each covers and the
//! range of its name, and the ranges an editor folds (class bodies,
//! packages, `together` groups, notes over several lines). Read from the
//! syntax tree as written (what the editor shows), not from the expanded
//! text of the preprocessor.
//!
//! Packages are flat statements in the tree (a start, then a `}` sibling),
//! so the nesting is rebuilt with an explicit stack into a flat list with
//! parent indices: no depth of input can overflow a walk over it.

use puml_syntax::ast::{self, Root};
use puml_syntax::{Parse, SyntaxKind, SyntaxNode, TextRange, TextSize};

/// What a symbol of a class diagram is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClassSymbolKind {
    /// `package`, `namespace`, or a description keyword used as one
    /// (`node`, `folder`, `frame`, …).
    Package,
    /// A class, interface, enum, object, entity, … declaration.
    Element,
    /// A field of a body (or an enum constant, a map row).
    Field,
    /// A method of a body.
    Method,
    /// A state of a state diagram (a composite one holds the states
    /// written inside it): see `state_outline`.
    State,
    /// An activity or a synchronisation bar of a legacy activity diagram
    /// (a partition is a `Package`): see `legacy_outline`.
    Activity,
}

/// One symbol of a class diagram's outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassSymbol {
    pub kind: ClassSymbolKind,
    /// The name as written, quotes removed (a member's whole text).
    pub name: String,
    /// The keyword it is declared with (`class`, `package`, …), a generic
    /// and stereotypes after it; for members, `field` or `method` with
    /// the visibility's word.
    pub detail: String,
    /// The whole statement: a package to its `}` (to the diagram's end
    /// when never closed), a class with its body.
    pub range: TextRange,
    /// Its name (a member's text).
    pub selection: TextRange,
    /// The enclosing symbol (an index into the same list, always smaller).
    pub parent: Option<usize>,
    /// Enclosing symbols (0 at the top).
    pub depth: usize,
}

/// The editor's view of one class diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassStructure {
    /// The whole `@startuml … @enduml` range.
    pub range: TextRange,
    /// In text order; a symbol's parent comes before it.
    pub symbols: Vec<ClassSymbol>,
    /// What folds: class bodies, packages and `together` groups (an unclosed
    /// one to the diagram's last line), notes written over several lines.
    pub folds: Vec<TextRange>,
}

/// The class (and state and legacy activity) diagrams of a parse, in order.
pub fn class_structures(parse: &Parse) -> Vec<ClassStructure> {
    structures(parse, None)
}

/// The class, state and description diagrams of a parse, in order: a
/// description diagram's elements are read from `analysis`'s model (see
/// `description_outline`), the analysis of the same text.
pub fn class_structures_with_model(parse: &Parse, analysis: &puml_sema::Analysis) -> Vec<ClassStructure> {
    structures(parse, Some(analysis))
}

fn structures(parse: &Parse, analysis: Option<&puml_sema::Analysis>) -> Vec<ClassStructure> {
    let root = Root { syntax: parse.syntax() };
    // The model of the description diagram whose block is `range`.
    let description_of = |range: TextRange| {
        let analysis = analysis?;
        let (diagram, map) = analysis
            .document
            .diagrams
            .iter()
            .zip(&analysis.source_map.diagrams)
            .find(|(_, map)| map.range == range)?;
        Some((diagram.description.as_deref()?, map.description.as_ref()?))
    };
    root.diagrams()
        .filter_map(|diagram| {
            if let Some((model, map)) = description_of(diagram.syntax.text_range()) {
                return Some(crate::description_outline::description_structure(&diagram, model, map));
            }
            // A composite state's `}` is the class diagrams' `BRACE_END`
            // too: ask about states first.
            if diagram.is_state() {
                Some(crate::state_outline::state_structure(&diagram))
            } else if diagram.is_legacy_activity() {
                Some(crate::legacy_outline::legacy_structure(&diagram))
            } else if diagram.is_class() {
                Some(structure(&diagram))
            } else {
                None
            }
        })
        .collect()
}

/// What an open `{` of a class diagram belongs to.
enum Open {
    /// A package: its symbol's index.
    Package(usize),
    /// `together {`: where it starts.
    Together(TextSize),
}

fn structure(diagram: &ast::Diagram) -> ClassStructure {
    let mut symbols: Vec<ClassSymbol> = Vec::new();
    let mut folds = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let body_end = diagram
        .statements()
        .last()
        .map_or(diagram.syntax.text_range().end(), |s| ast::statement_range(&s).end());
    for statement in diagram.statements() {
        let parent = open.iter().rev().find_map(|o| match o {
            Open::Package(index) => Some(*index),
            Open::Together(_) => None,
        });
        let depth = parent.map_or(0, |p| symbols[p].depth + 1);
        match statement.kind() {
            SyntaxKind::PACKAGE_START => {
                let tokens = ast::significant_tokens(&statement);
                let opens = tokens.iter().any(|t| t.kind() == SyntaxKind::L_BRACE)
                    && !tokens.iter().any(|t| t.kind() == SyntaxKind::R_BRACE);
                let Some(name) = tokens
                    .iter()
                    .find(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::STRING))
                else {
                    continue;
                };
                symbols.push(ClassSymbol {
                    kind: ClassSymbolKind::Package,
                    name: unquote(name.text()),
                    detail: keyword_detail(&tokens),
                    range: ast::statement_range(&statement),
                    selection: name.text_range(),
                    parent,
                    depth,
                });
                if opens {
                    open.push(Open::Package(symbols.len() - 1));
                }
            }
            SyntaxKind::TOGETHER_START => open.push(Open::Together(ast::statement_range(&statement).start())),
            SyntaxKind::BRACE_END => {
                let end = ast::statement_range(&statement).end();
                match open.pop() {
                    Some(Open::Package(index)) => {
                        let symbol = &mut symbols[index];
                        symbol.range = TextRange::new(symbol.range.start(), end);
                        folds.push(symbol.range);
                    }
                    Some(Open::Together(start)) => folds.push(TextRange::new(start, end)),
                    None => {}
                }
            }
            SyntaxKind::CLASS_DECL => {
                let tokens = ast::significant_tokens(&statement);
                let names: Vec<_> = tokens
                    .iter()
                    .take_while(|t| {
                        !(t.kind() == SyntaxKind::KEYWORD
                            && (t.text().eq_ignore_ascii_case("extends")
                                || t.text().eq_ignore_ascii_case("implements")))
                    })
                    .filter(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::STRING))
                    .collect();
                // `class "Display" as Code`: the code names it in links.
                let Some(name) = names
                    .get(1)
                    .filter(|_| names[0].kind() == SyntaxKind::STRING)
                    .or(names.first())
                else {
                    continue;
                };
                let range = ast::statement_range(&statement);
                symbols.push(ClassSymbol {
                    kind: ClassSymbolKind::Element,
                    name: unquote(name.text()),
                    detail: keyword_detail(&tokens),
                    range,
                    selection: name.text_range(),
                    parent,
                    depth,
                });
                let element = symbols.len() - 1;
                if let Some(body) = statement.children().find(|n| n.kind() == SyntaxKind::CLASS_BODY) {
                    if line_count(&statement) > 1 {
                        folds.push(range);
                    }
                    members(&body, element, depth + 1, &mut symbols);
                }
            }
            SyntaxKind::CLASS_NOTE if line_count(&statement) > 1 => {
                folds.push(ast::statement_range(&statement));
            }
            _ => {}
        }
    }
    // Blocks never closed reach the diagram's last statement.
    for block in open {
        match block {
            Open::Package(index) => {
                let symbol = &mut symbols[index];
                symbol.range = TextRange::new(symbol.range.start(), body_end.max(symbol.range.end()));
                folds.push(symbol.range);
            }
            Open::Together(start) => folds.push(TextRange::new(start, body_end.max(start))),
        }
    }
    folds.sort_by_key(|r| (r.start(), r.end()));
    ClassStructure {
        range: diagram.syntax.text_range(),
        symbols,
        folds,
    }
}

/// The members of a class body: fields and methods (separators and blank
/// lines are not symbols).
fn members(body: &SyntaxNode, parent: usize, depth: usize, symbols: &mut Vec<ClassSymbol>) {
    for member in body.children().filter(|n| n.kind() == SyntaxKind::CLASS_MEMBER) {
        let Some(text) = member
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == SyntaxKind::TEXT)
        else {
            continue;
        };
        let written = text.text().trim_end();
        if written.is_empty() || is_separator(written) {
            continue;
        }
        let selection = TextRange::at(text.text_range().start(), TextSize::from(written.len() as u32));
        let parts = member_parts(written);
        symbols.push(ClassSymbol {
            kind: if parts.is_method {
                ClassSymbolKind::Method
            } else {
                ClassSymbolKind::Field
            },
            name: written[parts.text_start..].trim().to_string(),
            detail: member_detail(&parts),
            range: selection,
            selection,
            parent: Some(parent),
            depth,
        });
    }
}

/// `--`, `..`, `==`, `__`, with or without a title.
fn is_separator(text: &str) -> bool {
    ["--", "..", "==", "__"].iter().any(|mark| text.starts_with(mark))
}

/// How a member line reads: its modifiers, visibility and where its text
/// starts (byte offsets in the line as written, trimmed at the start).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberParts {
    /// `{static}`, `{abstract}`, `{field}`, `{method}`, `{classifier}`
    /// as written, with their ranges in the line.
    pub modifiers: Vec<(usize, usize)>,
    /// The visibility character (`-`, `#`, `~`, `+`) and its offset.
    pub visibility: Option<(char, usize)>,
    /// Where the name or signature starts.
    pub text_start: usize,
    pub is_method: bool,
    pub is_static: bool,
    pub is_abstract: bool,
}

/// Reads a member line as lowering does (`puml_sema`'s member reading):
/// modifiers and the visibility character in any order at the start, a
/// method when it has `(` or `{method}` (and no `{field}`).
pub fn member_parts(line: &str) -> MemberParts {
    let mut parts = MemberParts::default();
    let mut at = line.len() - line.trim_start().len();
    let (mut field, mut method) = (false, false);
    // At most one of each, in any order.
    for _ in 0..6 {
        let rest = &line[at..];
        let lower = rest.get(..12).unwrap_or(rest).to_ascii_lowercase();
        let modifier = ["{static}", "{classifier}", "{abstract}", "{field}", "{method}"]
            .into_iter()
            .find(|m| lower.starts_with(m));
        if let Some(modifier) = modifier {
            parts.modifiers.push((at, at + modifier.len()));
            match modifier {
                "{abstract}" => parts.is_abstract = true,
                "{field}" => field = true,
                "{method}" => method = true,
                _ => parts.is_static = true,
            }
            at += modifier.len();
        } else if let Some(mark) = rest
            .chars()
            .next()
            .filter(|c| parts.visibility.is_none() && rest.len() > 1 && matches!(c, '-' | '#' | '~' | '+'))
        {
            parts.visibility = Some((mark, at));
            at += 1;
        } else {
            break;
        }
        at += line[at..].len() - line[at..].trim_start().len();
    }
    parts.text_start = at;
    parts.is_method = method || (!field && line[at..].contains('('));
    parts
}

fn member_detail(parts: &MemberParts) -> String {
    let visibility = match parts.visibility.map(|(c, _)| c) {
        Some('-') => "private ",
        Some('#') => "protected ",
        Some('~') => "package ",
        Some('+') => "public ",
        _ => "",
    };
    let modifiers = match (parts.is_static, parts.is_abstract) {
        (true, true) => "static abstract ",
        (true, false) => "static ",
        (false, true) => "abstract ",
        (false, false) => "",
    };
    let what = if parts.is_method { "method" } else { "field" };
    format!("{visibility}{modifiers}{what}")
}

/// The keyword words of a declaration, then its generic and stereotypes:
/// `abstract class <T> <<Entity>>`.
fn keyword_detail(tokens: &[puml_syntax::SyntaxToken]) -> String {
    let mut words: Vec<String> = tokens
        .iter()
        .take_while(|t| t.kind() == SyntaxKind::KEYWORD)
        .map(|t| t.text().to_ascii_lowercase())
        .collect();
    words.extend(
        tokens
            .iter()
            .filter(|t| matches!(t.kind(), SyntaxKind::GENERIC | SyntaxKind::STEREOTYPE))
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
fn line_count(node: &SyntaxNode) -> usize {
    let text = node.text().to_string();
    text.trim_end().lines().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_read_their_modifiers_and_visibility() {
        let parts = member_parts("  - {static} count : int");
        assert_eq!(parts.visibility, Some(('-', 2)));
        assert_eq!(parts.modifiers, vec![(4, 12)]);
        assert_eq!(&"  - {static} count : int"[parts.text_start..], "count : int");
        assert!(parts.is_static && !parts.is_method);
        let parts = member_parts("{abstract} +draw(c : Canvas)");
        assert_eq!(parts.visibility, Some(('+', 11)));
        assert!(parts.is_abstract && parts.is_method);
        assert!(!member_parts("{field} run()").is_method);
        assert!(member_parts("{method} refresh").is_method);
        // A lone `-` is a name, not a visibility.
        assert_eq!(member_parts("-").visibility, None);
        assert_eq!(member_parts("RED").visibility, None);
    }
}
