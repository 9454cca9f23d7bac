//! Lowering of a legacy activity diagram's statements (see `puml_syntax`'s
//! `parser::legacy_activity`) into a [`LegacyActivityDiagram`] and its
//! [`LegacyActivitySourceMap`].
//!
//! Each statement goes to the [`LegacyBuilder`] that PlantUML's legacy
//! grammar amounts to (activities created on first use, `(*)` the start as
//! a source and the end as a target, an arrow without a source leaving the
//! last activity, `if` a diamond, notes by the last activity, partitions
//! flat like groups); the tree gives each statement's kind and where its
//! names are written, for the source map. Linear, no recursion.

use crate::legacy_activity::{LegacyActivityDiagram, LegacyActivitySourceMap, LegacyBuilder, NodeIndex};
use puml_syntax::ast::statement_range;
use puml_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use SyntaxKind::*;

#[derive(Default)]
pub(crate) struct LegacyLowering {
    builder: LegacyBuilder,
    map: LegacyActivitySourceMap,
}

/// The statement's own line's significant tokens (a note's body apart).
fn line_tokens(node: &SyntaxNode) -> Vec<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia() && t.kind() != NEWLINE)
        .collect()
}

/// The statement's own line, as written.
fn line_text(node: &SyntaxNode) -> String {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() != NEWLINE)
        .map(|t| t.text().to_string())
        .collect()
}

/// Where the name of the activity an end of a link names is written: the
/// alias of `"Long" as L`, the quoted text, a bar's name between its `=`,
/// a plain name; `(*)` itself. `None` for a new branch (`if "c" then`).
fn name_range(tokens: &[SyntaxToken]) -> Option<TextRange> {
    let first = tokens.first()?;
    match first.kind() {
        STRING => {
            let alias = tokens.iter().skip(1).find(|t| t.kind() == IDENT);
            Some(alias.unwrap_or(first).text_range())
        }
        IDENT if first.text().starts_with('=') => {
            let text = first.text();
            let lead = text.len() - text.trim_start_matches('=').len();
            let inner = text.trim_matches('=');
            let name_lead = inner.len() - inner.trim_start().len();
            let start = first.text_range().start() + TextSize::from((lead + name_lead) as u32);
            Some(TextRange::at(start, TextSize::from(inner.trim().len() as u32)))
        }
        KEYWORD if first.text().eq_ignore_ascii_case("if") => None,
        _ => Some(first.text_range()),
    }
}

/// Where a link's source and target names are written (its `[label]`
/// apart): see [`name_range`].
fn link_ends(tokens: &[SyntaxToken]) -> (Option<TextRange>, Option<TextRange>) {
    let Some(arrow) = tokens.iter().position(|t| t.kind() == ARROW) else {
        return (None, None);
    };
    let mut after = &tokens[arrow + 1..];
    if after.first().is_some_and(|t| t.kind() == L_BRACKET) {
        let close = after
            .iter()
            .position(|t| t.kind() == R_BRACKET)
            .map_or(after.len(), |i| i + 1);
        after = &after[close..];
    }
    (name_range(&tokens[..arrow]), name_range(after))
}

impl LegacyLowering {
    fn refer(&mut self, node: NodeIndex, range: TextRange) {
        if self.map.node_references.len() <= node {
            self.map.node_references.resize(node + 1, Vec::new());
        }
        let references = &mut self.map.node_references[node];
        if !references.contains(&range) {
            references.push(range);
        }
    }

    pub(crate) fn statement(&mut self, node: &SyntaxNode) {
        let range = statement_range(node);
        match node.kind() {
            LEGACY_LINK => {
                let text = line_text(node);
                if let Some((from, to)) = self.builder.link(&text) {
                    self.map.links.push(range);
                    let (source, target) = link_ends(&line_tokens(node));
                    // An arrow without a source leaves the last activity:
                    // no occurrence of it here.
                    if let Some(source) = source {
                        self.refer(from, source);
                    }
                    // A new branch's diamond is written as the whole line.
                    self.refer(to, target.unwrap_or(range));
                }
            }
            LEGACY_IF => {
                if let Some(diamond) = self.builder.branch(&line_text(node)) {
                    self.map.links.push(range);
                    self.refer(diamond, range);
                }
            }
            LEGACY_ELSE => {
                self.builder.else_();
                // `else if "c" then`: back to the branch, then a new one.
                let text = line_text(node);
                if let Some(branch) = crate::legacy_activity::else_if(&text) {
                    if let Some(diamond) = self.builder.branch(branch) {
                        self.map.links.push(range);
                        self.refer(diamond, range);
                    }
                }
            }
            LEGACY_ENDIF => self.builder.endif(),
            LEGACY_NOTE => {
                let body: Vec<String> = node
                    .children()
                    .filter(|c| c.kind() == BODY)
                    .flat_map(|body| body.text().to_string().lines().map(str::to_string).collect::<Vec<_>>())
                    .collect();
                let placed = self.builder.note(&line_text(node), body.iter().map(String::as_str));
                if placed {
                    self.map.notes.push(range);
                }
            }
            LEGACY_PARTITION => {
                let read = self.builder.partition(&line_text(node));
                if read {
                    self.map.partitions.push(range);
                }
            }
            BRACE_END => self.builder.close_partition(),
            LEGACY_OPTION => {
                let text = line_text(node).to_ascii_lowercase();
                if text.split_whitespace().collect::<Vec<_>>() == ["left", "to", "right", "direction"] {
                    self.builder.left_to_right();
                }
            }
            _ => {}
        }
    }

    pub(crate) fn finish(mut self) -> (LegacyActivityDiagram, LegacyActivitySourceMap) {
        let model = self.builder.finish();
        self.map.node_references.resize(model.nodes.len(), Vec::new());
        (model, self.map)
    }
}
