//! Typed views over the CST.
use crate::SyntaxNode;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Root {
    pub syntax: SyntaxNode,
}
