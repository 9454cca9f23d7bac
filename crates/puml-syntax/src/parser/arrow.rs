//! Decomposition of an arrow token into its parts.

/// The head drawn at one end of an arrow, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeadSyntax {
    None,
    Filled,
    Open,
    HalfUpper,
    HalfLower,
    HalfUpperOpen,
    HalfLowerOpen,
    Cross,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineSyntax {
    Solid,
    Dotted,
}

/// An arrow as written, left to right in the source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArrowSyntax {
    pub left_head: HeadSyntax,
    pub left_circle: bool,
    pub right_head: HeadSyntax,
    pub right_circle: bool,
    pub line: LineSyntax,
    /// Contents of `-[…]>` split on `,`, e.g. `["#red", "bold"]`.
    pub styles: Vec<String>,
}

pub fn parse_arrow(_text: &str) -> Option<ArrowSyntax> {
    None
}
