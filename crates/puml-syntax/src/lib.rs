//! Lossless syntax for PlantUML sequence diagrams.
//!
//! `parse` never fails: it returns a rowan green tree whose text is the input
//! byte for byte, plus the syntax errors found. The crate knows nothing of
//! diagram meaning, salsa, serde or I/O.

pub mod ast;
pub mod codes;
pub mod colors;
pub mod description_grammar;
pub mod diagnostic;
pub mod line_index;
mod parser;
pub mod syntax_kind;

pub use diagnostic::{apply_edits, Diagnostic, Fix, Related, Severity, TextEdit};
pub use line_index::{LineCol, LineIndex};
pub use parser::arrow::{parse_arrow, ArrowSyntax, HeadSyntax, LineSyntax};
pub use parser::legacy_activity::LegacyLineReader;
pub use parser::statements::{closest_keyword, edit_distance, edit_distance_within};
pub use rowan::{GreenNode, NodeOrToken, TextRange, TextSize, WalkEvent};
pub use syntax_kind::{PumlLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken};

/// The result of parsing: a green tree (cheap to clone, `Send`) and the
/// syntax errors, in source order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<Diagnostic>,
    reparsable: bool,
    /// How a re-parse made this tree from the previous one (equality and
    /// hashing ignore it: it describes the way, not the value).
    derivation: parser::incremental::Derivation,
    /// Per `DIAGRAM` node: the kind it was read as (a function of the
    /// text, like the tree, so equality may compare it).
    diagram_kinds: Vec<DiagramKind>,
    /// `diagram_kinds`, as whether each is an activity diagram.
    activity_diagrams: Vec<bool>,
    /// Per `DIAGRAM` node: where a losing class reading stopped (kept for
    /// the incremental re-parse).
    class_stops: Vec<Option<TextSize>>,
}

/// The kind a block of `@startuml … @enduml` is read as. PlantUML tries
/// its diagram types in turn and keeps the first that reads every line;
/// the parser decides among the kinds it has statements for (the other
/// kinds are recognised later, from the text, by `puml-sema`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiagramKind {
    /// Sequence statements (also the reading kept for a block no kind reads).
    Sequence,
    /// PlantUML's "new" activity syntax (`:action;`, `if (…) then`).
    Activity,
    /// Class, object and ER diagrams (`class A`, `A <|-- B`, `entity E`).
    Class,
    /// Use case, component, deployment and `rectangle` diagrams
    /// (`actor A`, `[C] --> (U)`, `node N {`).
    Description,
    /// State diagrams (`state A {`, `[*] --> A`, `A : text`).
    State,
    /// PlantUML's legacy activity diagrams (`(*) --> "First"`, `if "c"
    /// then`, `===B1===`).
    LegacyActivity,
}

impl Parse {
    pub fn green(&self) -> &GreenNode {
        &self.green
    }
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }
    pub fn root(&self) -> ast::Root {
        ast::Root { syntax: self.syntax() }
    }
    pub fn errors(&self) -> &[Diagnostic] {
        &self.errors
    }
    /// For each `DIAGRAM` node of the root, in order, whether the parser
    /// read it as an activity diagram: the answer of
    /// [`ast::Diagram::is_activity`], which decides it again from the text
    /// (lowering asked that of every diagram, 3 % of analysing the corpus).
    pub fn activity_diagrams(&self) -> &[bool] {
        &self.activity_diagrams
    }
    /// For each `DIAGRAM` node of the root, in order, the kind the parser
    /// read it as.
    pub fn diagram_kinds(&self) -> &[DiagramKind] {
        &self.diagram_kinds
    }

    /// The parse of `new_text`, given that `self` is the parse of
    /// `old_text`. Always equal to `parse(new_text)`; when the change stays
    /// inside one single-line statement, only that statement is parsed and
    /// the rest of the tree is shared with `self`.
    pub fn reparse(&self, old_text: &str, new_text: &str) -> Parse {
        let old = parser::incremental::OldParse {
            green: &self.green,
            errors: &self.errors,
            reparsable: self.reparsable,
            derivation: &self.derivation,
            diagram_kinds: &self.diagram_kinds,
            class_stops: &self.class_stops,
        };
        Parse::from(parser::incremental::reparse(old, old_text, new_text))
    }

    /// The statement where `new` (a re-parse of this tree's text after an
    /// edit) differs from this tree, and the statement in its place in
    /// `new`, when `new`'s tree is this one with only that statement
    /// replaced; `None` when anything else differs (e.g. after a full parse).
    pub fn replaced_statement<'a>(
        &'a self,
        new: &'a Parse,
    ) -> Option<(ast::GreenStatement<'a>, ast::GreenStatement<'a>)> {
        parser::incremental::replaced_statement(&self.green, &new.green, &new.derivation)
    }
}

impl From<parser::ParsedText> for Parse {
    fn from(parsed: parser::ParsedText) -> Parse {
        Parse {
            green: parsed.green,
            errors: parsed.errors,
            reparsable: parsed.reparsable,
            derivation: parsed.derivation,
            activity_diagrams: parsed
                .diagram_kinds
                .iter()
                .map(|k| *k == DiagramKind::Activity)
                .collect(),
            diagram_kinds: parsed.diagram_kinds,
            class_stops: parsed.class_stops,
        }
    }
}

/// How many [`Parse::reparse`] calls on this thread took the one-statement
/// fast path (for tests and benchmarks).
#[doc(hidden)]
pub fn fast_reparse_count() -> usize {
    parser::incremental::fast_reparses()
}

/// Parses a whole file. Never panics, for any input.
pub fn parse(text: &str) -> Parse {
    Parse::from(parser::parse_text(text))
}

/// An indented dump of the tree, one element per line, for snapshot files.
pub fn debug_dump(node: &SyntaxNode) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut depth = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                let indent = "  ".repeat(depth);
                match element {
                    rowan::NodeOrToken::Node(n) => {
                        let _ = writeln!(out, "{indent}{:?}@{:?}", n.kind(), n.text_range());
                    }
                    rowan::NodeOrToken::Token(t) => {
                        let _ = writeln!(out, "{indent}{:?}@{:?} {:?}", t.kind(), t.text_range(), t.text());
                    }
                }
                depth += 1;
            }
            rowan::WalkEvent::Leave(_) => depth -= 1,
        }
    }
    out
}

/// The parser's own keyword tables (the primitive catalog is checked against them).
pub mod keywords {
    pub use crate::parser::statements::{GROUP_KEYWORDS, PARTICIPANT_KINDS, STATEMENT_KEYWORDS};
}
