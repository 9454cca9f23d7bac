//! Builds the green tree without rowan's `NodeCache`.
//!
//! The cache hashes every token and keeps every distinct one in a table; in
//! a diagram almost every label is distinct, so the table grows with the
//! file, its probes miss the CPU cache, and parse time grew faster than the
//! file. Here only short tokens (`->`, `:`, blanks, keywords up to six
//! bytes) are shared, through a key packed into one integer; longer ones
//! are allocated as they come.

use rowan::{GreenNode, GreenToken, NodeOrToken, SyntaxKind};
use rustc_hash::FxHashMap;

const SHORT: usize = 6;

#[derive(Default)]
pub(crate) struct TreeBuilder {
    /// Open nodes: kind and where their children start in `children`.
    open: Vec<(SyntaxKind, usize)>,
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    short_tokens: FxHashMap<u64, GreenToken>,
    space: Option<GreenToken>,
    newline: Option<GreenToken>,
}

const WHITESPACE_KIND: SyntaxKind = SyntaxKind(crate::SyntaxKind::WHITESPACE as u16);
const NEWLINE_KIND: SyntaxKind = SyntaxKind(crate::SyntaxKind::NEWLINE as u16);

impl TreeBuilder {
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.open.push((kind, self.children.len()));
    }

    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &str) {
        // A single space and a line feed are most of the tokens: kept at
        // hand, they skip the table.
        if text.len() == 1 {
            let slot = match (
                kind == WHITESPACE_KIND && text == " ",
                kind == NEWLINE_KIND && text == "\n",
            ) {
                (true, _) => Some(&mut self.space),
                (_, true) => Some(&mut self.newline),
                _ => None,
            };
            if let Some(slot) = slot {
                let token = slot.get_or_insert_with(|| GreenToken::new(kind, text)).clone();
                self.children.push(NodeOrToken::Token(token));
                return;
            }
        }
        let token = match short_key(kind, text) {
            Some(key) => self
                .short_tokens
                .entry(key)
                .or_insert_with(|| GreenToken::new(kind, text))
                .clone(),
            None => GreenToken::new(kind, text),
        };
        self.children.push(NodeOrToken::Token(token));
    }

    /// Where the tree stands: [`TreeBuilder::rewind`] goes back to it
    /// (the kind decision parses a block twice when the first reading fails).
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.open.len(), self.children.len())
    }

    /// The kinds of the nodes built since `mark` at the level it was taken.
    pub(crate) fn node_kinds_since(&self, mark: (usize, usize)) -> impl Iterator<Item = SyntaxKind> + '_ {
        self.children[mark.1.min(self.children.len())..]
            .iter()
            .filter_map(|child| child.as_node().map(|n| n.kind()))
    }

    /// Drops everything built since `mark`.
    pub(crate) fn rewind(&mut self, mark: (usize, usize)) {
        self.open.truncate(mark.0);
        self.children.truncate(mark.1);
    }

    /// Closes the innermost open node; a call without one is ignored (the
    /// parser always pairs them, and a tree is better than a panic).
    pub(crate) fn finish_node(&mut self) {
        let Some((kind, first)) = self.open.pop() else {
            return;
        };
        let node = GreenNode::new(kind, self.children.drain(first..));
        self.children.push(NodeOrToken::Node(node));
    }

    /// The root: the single node built at the top level.
    pub(crate) fn finish(mut self, root_kind: SyntaxKind) -> GreenNode {
        while !self.open.is_empty() {
            self.finish_node();
        }
        if self.children.len() == 1 {
            if let Some(NodeOrToken::Node(root)) = self.children.pop() {
                return root;
            }
        }
        GreenNode::new(root_kind, self.children)
    }
}

/// `kind`, length and up to six bytes of text in one `u64`.
fn short_key(kind: SyntaxKind, text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.len() > SHORT || kind.0 > 0xff {
        return None;
    }
    let mut key = (u64::from(kind.0) << 56) | ((bytes.len() as u64) << 48);
    for (i, &b) in bytes.iter().enumerate() {
        key |= u64::from(b) << (8 * i);
    }
    Some(key)
}
