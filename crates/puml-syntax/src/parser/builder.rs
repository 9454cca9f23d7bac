//! Builds the green tree without rowan's `NodeCache`.
//!
//! The cache hashes every token and keeps every distinct one in a table; in
//! a diagram almost every label is distinct, so the table grows with the
//! file, its probes miss the CPU cache, and parse time grew faster than the
//! file. Here short tokens (`->`, `:`, blanks, keywords up to six bytes)
//! are shared through a key packed into one integer, and longer ones of the
//! kinds that repeat (names, keywords, indentation) through a hash of
//! their text, each in a small direct-mapped table (a slot keeps the last
//! token that fell in it); labels and strings are allocated as they come.

use rowan::{GreenNode, GreenToken, NodeOrToken, SyntaxKind};
use std::hash::Hasher;

const SHORT: usize = 6;

/// Slots of each shared-token table (a power of two).
const SLOTS: usize = 256;

pub(crate) struct TreeBuilder {
    /// Open nodes: kind and where their children start in `children`.
    open: Vec<(SyntaxKind, usize)>,
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    /// The tables of shared tokens, kept by the thread between parses.
    shared: Option<Box<SharedTokens>>,
    /// `" "` and `"\n"`, made once per thread (see [`SharedTokens`]).
    space: GreenToken,
    newline: GreenToken,
}

/// Tokens shared within a tree. Each table is direct-mapped: a token lands
/// in one slot and replaces whatever was there. Sharing is only a saving,
/// never a meaning (trees compare by value), so a token made again is as
/// good; a probe is a multiplication and a comparison where a hash map's
/// was a group search. The tables outlive a parse (one per thread, handed
/// from parse to parse): building and dropping them for every parse cost
/// more than the sharing saved, and a token kept from an earlier file is
/// as good as a new one.
struct SharedTokens {
    /// Short tokens by key.
    short: [(u64, Option<GreenToken>); SLOTS],
    /// Longer tokens of the kinds that repeat (names, keywords, blanks,
    /// arrows, colours: a participant is named by every message), by a
    /// hash of their text; labels and strings, almost all distinct, are
    /// not looked up.
    long: [Option<GreenToken>; SLOTS],
    space: GreenToken,
    newline: GreenToken,
    /// The builder's two stacks, emptied, with the room the last parse
    /// grew them to (grown from empty, they were reallocated several times
    /// in every parse).
    open: Vec<(SyntaxKind, usize)>,
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
}

thread_local! {
    static SHARED_TOKENS: std::cell::Cell<Option<Box<SharedTokens>>> = const { std::cell::Cell::new(None) };
}

impl Default for TreeBuilder {
    fn default() -> TreeBuilder {
        let mut shared = SHARED_TOKENS.with(|cell| cell.take()).unwrap_or_else(|| {
            Box::new(SharedTokens {
                short: std::array::from_fn(|_| (0, None)),
                long: std::array::from_fn(|_| None),
                space: GreenToken::new(WHITESPACE_KIND, " "),
                newline: GreenToken::new(NEWLINE_KIND, "\n"),
                open: Vec::new(),
                children: Vec::new(),
            })
        });
        TreeBuilder {
            open: std::mem::take(&mut shared.open),
            children: std::mem::take(&mut shared.children),
            space: shared.space.clone(),
            newline: shared.newline.clone(),
            shared: Some(shared),
        }
    }
}

impl Drop for TreeBuilder {
    fn drop(&mut self) {
        if let Some(mut shared) = self.shared.take() {
            // A builder dropped midway (a panic) may still hold nodes: the
            // stacks go back empty, whatever they held freed here. A huge
            // file's stack is not kept for the thread's life.
            if self.children.capacity() <= KEPT_STACK {
                self.open.clear();
                self.children.clear();
                shared.open = std::mem::take(&mut self.open);
                shared.children = std::mem::take(&mut self.children);
            }
            // `try_with`: a builder dropped while the thread ends keeps nothing.
            let _ = SHARED_TOKENS.try_with(|cell| cell.set(Some(shared)));
        }
    }
}

/// The largest children stack handed on to the thread's next parse
/// (64 KB; a diagram's statements are its root's children).
const KEPT_STACK: usize = 4096;

const WHITESPACE_KIND: SyntaxKind = SyntaxKind(crate::SyntaxKind::WHITESPACE as u16);
const NEWLINE_KIND: SyntaxKind = SyntaxKind(crate::SyntaxKind::NEWLINE as u16);

impl TreeBuilder {
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.open.push((kind, self.children.len()));
    }

    /// A token. A single space and a line feed are most of the tokens:
    /// they are settled here, inlined into the caller, from two tokens
    /// kept at hand (a call with its register saves cost as much as the
    /// rest of that path); the others go through the shared tables.
    /// A short token met before is found in its slot here too, without
    /// the call (whose frame cost as much as the look-up).
    #[inline(always)]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &str) {
        if let [byte] = text.as_bytes() {
            let held = match *byte {
                b' ' if kind == WHITESPACE_KIND => Some(&self.space),
                b'\n' if kind == NEWLINE_KIND => Some(&self.newline),
                _ => None,
            };
            if let Some(held) = held {
                self.children.push(NodeOrToken::Token(held.clone()));
                return;
            }
        }
        if let (Some(key), Some(shared)) = (short_key(kind, text), self.shared.as_deref()) {
            if let (held, Some(token)) = &shared.short[slot_of(key)] {
                if *held == key {
                    let token = token.clone();
                    self.children.push(NodeOrToken::Token(token));
                    return;
                }
            }
        }
        self.shared_token(kind, text);
    }

    /// Any other token: shared through the tables when its kind repeats.
    #[inline(never)]
    fn shared_token(&mut self, kind: SyntaxKind, text: &str) {
        let Some(shared) = self.shared.as_deref_mut() else {
            self.children.push(NodeOrToken::Token(GreenToken::new(kind, text)));
            return;
        };
        let token = match short_key(kind, text) {
            Some(key) => match &mut shared.short[slot_of(key)] {
                (held, Some(token)) if *held == key => token.clone(),
                entry => {
                    let token = GreenToken::new(kind, text);
                    *entry = (key, Some(token.clone()));
                    token
                }
            },
            None if text.len() <= LONG && repeats(kind) => {
                let mut hasher = rustc_hash::FxHasher::default();
                hasher.write(text.as_bytes());
                let slot = slot_of(hasher.finish() ^ u64::from(kind.0));
                match &mut shared.long[slot] {
                    Some(token) if token.kind() == kind && token.text() == text => token.clone(),
                    entry => {
                        let token = GreenToken::new(kind, text);
                        *entry = Some(token.clone());
                        token
                    }
                }
            }
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
        GreenNode::new(root_kind, std::mem::take(&mut self.children))
    }
}

/// The longest token looked up in `long_tokens` (longer names are rare,
/// and hashing them would cost more than it saves).
const LONG: usize = 48;

/// The kinds of token whose texts repeat in a diagram.
fn repeats(kind: SyntaxKind) -> bool {
    use crate::SyntaxKind::*;
    [IDENT, KEYWORD, WHITESPACE, ARROW, COLOR, STEREOTYPE, DIRECTIVE]
        .iter()
        .any(|&k| kind.0 == k as u16)
}

/// A table slot for `key`: the top bits of its Fibonacci product.
#[inline]
fn slot_of(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
}

/// `kind`, length and up to six bytes of text in one `u64` (byte `i` of
/// the text in bits `8 * i`). The bytes are read as two overlapping words,
/// the first and the last two or four bytes, each shifted to where its
/// bytes belong: where they overlap they hold the same bytes, so or-ing
/// them gives the text once (a loop over the bytes cost twice this).
#[inline]
fn short_key(kind: SyntaxKind, text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    if len > SHORT || kind.0 > 0xff {
        return None;
    }
    let packed = match *bytes {
        [] => 0,
        [b] => u64::from(b),
        [a, b, ..] if len < 4 => {
            let last = u16::from_le_bytes([bytes[len - 2], bytes[len - 1]]);
            u64::from(u16::from_le_bytes([a, b])) | (u64::from(last) << (8 * (len - 2)))
        }
        [a, b, c, d, ..] => {
            let last = u32::from_le_bytes([bytes[len - 4], bytes[len - 3], bytes[len - 2], bytes[len - 1]]);
            u64::from(u32::from_le_bytes([a, b, c, d])) | (u64::from(last) << (8 * (len - 4)))
        }
        // Not reached: a slice of two or three bytes matched above.
        _ => return None,
    };
    Some((u64::from(kind.0) << 56) | ((len as u64) << 48) | packed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed key holds each byte of the text at its place, as a byte
    /// loop would put it, for every length it takes.
    #[test]
    fn short_key_packs_every_byte_in_place() {
        let kind = SyntaxKind(crate::SyntaxKind::IDENT as u16);
        for text in [
            "", "a", "ab", "abc", "abcd", "abcde", "abcdef", "->", "-->", "<<--", "é", "aé",
        ] {
            let mut expected = (u64::from(kind.0) << 56) | ((text.len() as u64) << 48);
            for (i, &b) in text.as_bytes().iter().enumerate() {
                expected |= u64::from(b) << (8 * i);
            }
            assert_eq!(short_key(kind, text), Some(expected), "{text:?}");
        }
        assert_eq!(short_key(kind, "abcdefg"), None);
    }
}
