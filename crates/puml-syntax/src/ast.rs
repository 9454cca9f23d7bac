//! Typed access to the CST: thin, allocation-light views that the
//! semantic layer, the formatter and the IDE features share.

use crate::{PumlLanguage, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use rowan::{GreenNodeData, Language, NodeOrToken};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Root {
    pub syntax: SyntaxNode,
}

impl Root {
    /// The `@startuml … @enduml` blocks, in order.
    pub fn diagrams(&self) -> impl Iterator<Item = Diagram> {
        self.syntax
            .children()
            .filter(|n| n.kind() == SyntaxKind::DIAGRAM)
            .map(|syntax| Diagram { syntax })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagram {
    pub syntax: SyntaxNode,
}

impl Diagram {
    /// `@startuml name` → `name` (and `{name.png}` → `name.png`).
    pub fn name(&self) -> Option<String> {
        let start = self.syntax.children().find(|n| n.kind() == SyntaxKind::START_LINE)?;
        let text = tokens_of(&start, SyntaxKind::TEXT).next()?.text().trim().to_string();
        let text = text
            .trim_start_matches('{')
            .trim_end_matches('}')
            .trim_matches('"')
            .trim()
            .to_string();
        (!text.is_empty()).then_some(text)
    }
    /// The word of a start tag other than `@startuml`, lower case:
    /// `mindmap` for `@startmindmap`. Such a block is another language, its
    /// lines one `BODY` of text the parser does not read.
    pub fn foreign_tag(&self) -> Option<String> {
        let start = self.syntax.children().find(|n| n.kind() == SyntaxKind::START_LINE)?;
        let keyword = tokens_of(&start, SyntaxKind::KEYWORD).next()?;
        let tag = keyword.text().get("@start".len()..)?.to_ascii_lowercase();
        (!tag.is_empty() && !tag.starts_with("uml")).then_some(tag)
    }
    /// Whether PlantUML reads this block as an activity diagram (the
    /// parser then built activity statements: see `SyntaxKind::ACTION`).
    /// Decided again from the text, as the parser did: a block whose
    /// activity lines are all errors holds no activity node.
    pub fn is_activity(&self) -> bool {
        if self.is_class() {
            return false;
        }
        // Lowering asks this of every diagram on every edit: read only the
        // first statements (the kind is decided by the first line only one
        // language reads, nearly always among the first few), trying the
        // decision on a short prefix first and on a longer one only when
        // the short one does not decide, and the whole text only when
        // neither does.
        // The green tree, not cursors: a cursor step allocates, and this
        // walk was 5 % of a corpus render (callgrind).
        let mut prefix = String::new();
        let green = self.syntax.green();
        let mut children = green.children();
        let mut limit = 512;
        loop {
            let mut complete = true;
            for child in children.by_ref() {
                let kind = SyntaxKind::from_raw(child.kind().0);
                if kind.is_activity_statement() {
                    return true;
                }
                // The activity reading builds no message: a block only
                // arrows decide (`--> "First"`) that the sequence reading
                // read whole is a sequence diagram.
                if kind == SyntaxKind::MESSAGE {
                    return false;
                }
                match child {
                    rowan::NodeOrToken::Node(n) => push_green_text(&mut prefix, n),
                    rowan::NodeOrToken::Token(t) => prefix.push_str(t.text()),
                }
                if prefix.len() >= limit {
                    complete = false;
                    break;
                }
            }
            if let Some(decided) = crate::parser::activity::text_kind_decision(&prefix, complete) {
                return decided;
            }
            if complete || limit >= 4096 {
                break;
            }
            limit = 4096;
        }
        self.syntax.children().any(|n| n.kind().is_activity_statement())
            || crate::parser::activity::text_is_activity(&self.syntax.text().to_string())
    }
    /// Whether the parser read this block as a class diagram (it holds
    /// class statements: see `SyntaxKind::CLASS_DECL`).
    pub fn is_class(&self) -> bool {
        self.syntax
            .green()
            .children()
            .any(|c| SyntaxKind::from_raw(c.kind().0).is_class_statement())
    }
    /// Whether the parser read this block as a state diagram (it holds
    /// state statements: see `SyntaxKind::STATE_DECL`).
    pub fn is_state(&self) -> bool {
        self.syntax
            .green()
            .children()
            .any(|c| SyntaxKind::from_raw(c.kind().0).is_state_statement())
    }
    /// Whether the parser read this block as a legacy activity diagram (it
    /// holds legacy activity statements: see `SyntaxKind::LEGACY_LINK`).
    pub fn is_legacy_activity(&self) -> bool {
        self.syntax
            .green()
            .children()
            .any(|c| SyntaxKind::from_raw(c.kind().0).is_legacy_activity_statement())
    }
    /// Statement nodes (everything but the start and end lines), in order.
    pub fn statements(&self) -> impl Iterator<Item = SyntaxNode> {
        self.syntax
            .children()
            .filter(|n| !matches!(n.kind(), SyntaxKind::START_LINE | SyntaxKind::END_LINE))
    }
    /// The `@enduml` line: always the diagram's last child node when present.
    pub fn end_line(&self) -> Option<SyntaxNode> {
        self.syntax.last_child().filter(|n| n.kind() == SyntaxKind::END_LINE)
    }
}

/// Direct child tokens of `node` of one kind.
pub fn tokens_of(node: &SyntaxNode, kind: SyntaxKind) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(move |t| t.kind() == kind)
}

/// Direct child tokens that carry meaning (no whitespace, comments or newlines).
pub fn significant_tokens(node: &SyntaxNode) -> Vec<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia() && t.kind() != SyntaxKind::NEWLINE)
        .collect()
}

/// The range of a statement without its leading whitespace and trailing
/// whitespace/newline (what a diagnostic should underline).
pub fn statement_range(node: &SyntaxNode) -> TextRange {
    let green = node.green();
    GreenStatement {
        green: &green,
        start: node.text_range().start(),
    }
    .range()
}

/// The range of the first line of a statement (its header, for block statements).
pub fn header_range(node: &SyntaxNode) -> TextRange {
    let mut start = None;
    let mut end = None;
    for token in node.children_with_tokens().filter_map(|e| e.into_token()) {
        match token.kind() {
            SyntaxKind::NEWLINE => break,
            SyntaxKind::WHITESPACE => {}
            _ => {
                start.get_or_insert(token.text_range().start());
                end = Some(token.text_range().end());
            }
        }
    }
    match (start, end) {
        (Some(s), Some(e)) => TextRange::new(s, e),
        _ => statement_range(node),
    }
}

/// The text lines of a block's `BODY` child (block notes, refs, legends,
/// multi-line titles), with the indentation common to all non-blank lines
/// removed (PlantUML keeps the relative indentation) and trailing
/// whitespace dropped.
pub fn body_lines(node: &SyntaxNode) -> Option<Vec<String>> {
    body_lines_with_trailing(node).map(|lines| lines.into_iter().map(|l| l.trim_end().to_string()).collect())
}

/// Like [`body_lines`], but each line keeps its trailing blanks: PlantUML
/// counts them in a note's width (not in its drawn text).
pub fn body_lines_with_trailing(node: &SyntaxNode) -> Option<Vec<String>> {
    let green = node.green();
    GreenStatement {
        green: &green,
        start: node.text_range().start(),
    }
    .body_lines_with_trailing()
}

/// The first keyword token of a statement, lowercased.
pub fn leading_keyword(node: &SyntaxNode) -> Option<String> {
    significant_tokens(node)
        .into_iter()
        .find(|t| t.kind() == SyntaxKind::KEYWORD)
        .map(|t| t.text().to_ascii_lowercase())
}

/// The participant name a token stands for: quotes removed.
pub fn name_text(token: &SyntaxToken) -> String {
    unquote(token.text())
}

pub fn unquote(text: &str) -> String {
    unquote_str(text).to_string()
}

/// [`unquote`] without allocating: trimmed, one pair of `"` removed.
pub fn unquote_str(text: &str) -> &str {
    let t = text.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        &t[1..t.len() - 1]
    } else {
        t
    }
}

/// Counts of comments in a tree (line and block), for formatter invariants.
pub fn comment_count(node: &SyntaxNode) -> usize {
    node.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| matches!(t.kind(), SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT))
        .count()
}

/// A token seen through the green tree. The cursor API allocates a node for
/// every element it hands out; lowering reads every token of every
/// statement, and that allocation used to be most of its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok<'a> {
    pub kind: SyntaxKind,
    pub text: &'a str,
    pub range: TextRange,
}

impl<'a> From<&'a SyntaxToken> for Tok<'a> {
    fn from(token: &'a SyntaxToken) -> Tok<'a> {
        Tok {
            kind: token.kind(),
            text: token.text(),
            range: token.text_range(),
        }
    }
}

impl<'a> Tok<'a> {
    /// The participant name this token stands for: quotes removed.
    pub fn name(&self) -> String {
        self.name_str().to_string()
    }

    /// [`Tok::name`] without allocating.
    pub fn name_str(&self) -> &'a str {
        unquote_str(self.text)
    }
}

/// A statement node as green data plus its offset in the file.
#[derive(Clone, Copy)]
pub struct GreenStatement<'a> {
    pub green: &'a GreenNodeData,
    pub start: TextSize,
}

impl<'a> GreenStatement<'a> {
    pub fn kind(&self) -> SyntaxKind {
        PumlLanguage::kind_from_raw(self.green.kind())
    }

    /// Direct child tokens, with their ranges.
    pub fn tokens(&self) -> impl Iterator<Item = Tok<'a>> + 'a {
        let mut offset = self.start;
        self.green.children().filter_map(move |child| {
            let start = offset;
            offset += child.text_len();
            match child {
                NodeOrToken::Token(token) => Some(Tok {
                    kind: PumlLanguage::kind_from_raw(token.kind()),
                    text: token.text(),
                    range: TextRange::at(start, token.text_len()),
                }),
                NodeOrToken::Node(_) => None,
            }
        })
    }

    /// Direct child tokens that carry meaning (no whitespace, comments or newlines).
    pub fn significant_tokens(&self) -> Vec<Tok<'a>> {
        let mut tokens = Vec::with_capacity(self.green.children().len());
        tokens.extend(
            self.tokens()
                .filter(|t| !t.kind.is_trivia() && t.kind != SyntaxKind::NEWLINE),
        );
        tokens
    }

    /// Direct child nodes, with their offsets.
    pub fn child_nodes(&self) -> impl Iterator<Item = GreenStatement<'a>> + 'a {
        let mut offset = self.start;
        self.green.children().filter_map(move |child| {
            let start = offset;
            offset += child.text_len();
            child.into_node().map(|green| GreenStatement { green, start })
        })
    }

    /// The first direct child node of `kind`.
    pub fn child(&self, kind: SyntaxKind) -> Option<GreenStatement<'a>> {
        self.child_nodes().find(|n| n.kind() == kind)
    }

    /// The whole text (what `SyntaxNode::text().to_string()` gives).
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(usize::from(self.green.text_len()));
        push_green_text(&mut out, self.green);
        out
    }

    /// Whether the text ends with a line feed, read from the last
    /// non-empty token (no copy of the text).
    pub fn ends_with_newline(&self) -> bool {
        let mut node = self.green;
        loop {
            let Some(last) = node.children().rev().find(|child| child.text_len() > 0.into()) else {
                return false;
            };
            match last {
                NodeOrToken::Token(token) => return token.text().ends_with('\n'),
                NodeOrToken::Node(inner) => node = inner,
            }
        }
    }

    /// The node's range, leading and trailing blanks included.
    pub fn full_range(&self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    /// [`body_lines`] read from green data.
    pub fn body_lines(&self) -> Option<Vec<String>> {
        self.body_lines_with_trailing()
            .map(|lines| lines.into_iter().map(|l| l.trim_end().to_string()).collect())
    }

    /// [`body_lines_with_trailing`] read from green data.
    pub fn body_lines_with_trailing(&self) -> Option<Vec<String>> {
        let (text, lines) = self.body_line_ranges()?;
        Some(lines.into_iter().map(|line| text[line].to_string()).collect())
    }

    /// The body's text and, in it, the range of each line as
    /// [`body_lines_with_trailing`] gives it (common indentation cut,
    /// trailing blanks kept): one string for the whole body, so a caller
    /// that joins the lines again copies each once.
    pub fn body_line_ranges(&self) -> Option<(String, Vec<std::ops::Range<usize>>)> {
        let body = self.child(SyntaxKind::BODY)?;
        let mut text = String::with_capacity(usize::from(body.green.text_len()));
        let mut lines = Vec::new();
        let mut line_start = 0;
        for token in body.tokens() {
            if token.kind == SyntaxKind::NEWLINE {
                lines.push(line_start..text.len());
                line_start = text.len();
            } else {
                text.push_str(token.text);
            }
        }
        if !text[line_start..].trim().is_empty() {
            lines.push(line_start..text.len());
        }
        let indent = |line: &std::ops::Range<usize>| {
            let l = &text[line.clone()];
            l.len() - l.trim_start().len()
        };
        let common = lines
            .iter()
            .filter(|line| !text[(*line).clone()].trim().is_empty())
            .map(indent)
            .min()
            .unwrap_or(0);
        for line in &mut lines {
            let start = line.start + common.min(indent(line));
            let kept = text[start..line.end].trim_end_matches(['\r', '\n']).len();
            *line = start..start + kept;
        }
        Some((text, lines))
    }

    /// Every token below this node, in order, with its range (an explicit
    /// stack: blocks nest as deep as the input says).
    pub fn descendant_tokens(&self) -> Vec<Tok<'a>> {
        let mut out = Vec::with_capacity(self.green.children().len());
        let mut stack = vec![(self.green.children(), self.start)];
        while let Some((children, offset)) = stack.last_mut() {
            let Some(child) = children.next() else {
                stack.pop();
                continue;
            };
            let start = *offset;
            *offset += child.text_len();
            match child {
                NodeOrToken::Token(token) => out.push(Tok {
                    kind: PumlLanguage::kind_from_raw(token.kind()),
                    text: token.text(),
                    range: TextRange::at(start, token.text_len()),
                }),
                NodeOrToken::Node(node) => stack.push((node.children(), start)),
            }
        }
        out
    }

    /// [`GreenStatement::significant_tokens`] and [`GreenStatement::range`]
    /// in one pass over the children when the statement has no child node
    /// (lowering asks both of every statement; the second walk was 2 % of
    /// analysing the corpus).
    pub fn significant_tokens_and_range(&self) -> (Vec<Tok<'a>>, TextRange) {
        let mut tokens = Vec::with_capacity(self.green.children().len());
        let mut solid: Option<(TextSize, TextSize)> = None;
        let mut has_nodes = false;
        let mut offset = self.start;
        for child in self.green.children() {
            let start = offset;
            offset += child.text_len();
            match child {
                NodeOrToken::Token(token) => {
                    let kind = PumlLanguage::kind_from_raw(token.kind());
                    let range = TextRange::at(start, token.text_len());
                    if !matches!(kind, SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE) {
                        match &mut solid {
                            Some((_, last)) => *last = range.end(),
                            None => solid = Some((range.start(), range.end())),
                        }
                    }
                    if !kind.is_trivia() && kind != SyntaxKind::NEWLINE {
                        tokens.push(Tok {
                            kind,
                            text: token.text(),
                            range,
                        });
                    }
                }
                NodeOrToken::Node(_) => has_nodes = true,
            }
        }
        let range = if has_nodes {
            self.range()
        } else {
            match solid {
                Some((start, end)) if start < end => TextRange::new(start, end),
                _ => TextRange::empty(self.start),
            }
        };
        (tokens, range)
    }

    /// Whether the statement has child nodes (a body, a block end, …).
    pub fn has_child_nodes(&self) -> bool {
        self.green.children().any(|child| child.as_node().is_some())
    }

    /// Whether a token below this node satisfies `test` (given its kind and text).
    pub fn any_token(&self, test: impl Fn(SyntaxKind, &str) -> bool + Copy) -> bool {
        fn walk(node: &GreenNodeData, test: impl Fn(SyntaxKind, &str) -> bool + Copy) -> bool {
            node.children().any(|child| match child {
                NodeOrToken::Token(token) => test(PumlLanguage::kind_from_raw(token.kind()), token.text()),
                NodeOrToken::Node(node) => walk(node, test),
            })
        }
        walk(self.green, test)
    }

    /// The statement without its leading whitespace and trailing
    /// whitespace/newline (see [`statement_range`]), without building
    /// cursor nodes.
    pub fn range(&self) -> TextRange {
        // The start of the first non-blank token, walked to from the front,
        // and the end of the last one, walked to from the back: a class's
        // body is not walked through (one walk over every token was ~3 % of
        // lowering a class diagram).
        fn is_blank(kind: rowan::SyntaxKind) -> bool {
            matches!(
                PumlLanguage::kind_from_raw(kind),
                SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE
            )
        }
        fn first(node: &GreenNodeData, offset: TextSize) -> Option<TextSize> {
            let mut offset = offset;
            for child in node.children() {
                match child {
                    NodeOrToken::Token(token) if !is_blank(token.kind()) => return Some(offset),
                    NodeOrToken::Token(_) => {}
                    NodeOrToken::Node(inner) => {
                        if let Some(found) = first(inner, offset) {
                            return Some(found);
                        }
                    }
                }
                offset += child.text_len();
            }
            None
        }
        fn last(node: &GreenNodeData, end: TextSize) -> Option<TextSize> {
            let mut end = end;
            for child in node.children().rev() {
                match child {
                    NodeOrToken::Token(token) if !is_blank(token.kind()) => return Some(end),
                    NodeOrToken::Token(_) => {}
                    NodeOrToken::Node(inner) => {
                        if let Some(found) = last(inner, end) {
                            return Some(found);
                        }
                    }
                }
                end -= child.text_len();
            }
            None
        }
        match (
            first(self.green, self.start),
            last(self.green, self.start + self.green.text_len()),
        ) {
            (Some(start), Some(end)) if start < end => TextRange::new(start, end),
            _ => TextRange::empty(self.start),
        }
    }
}

/// Appends a node's text token by token (cheaper than formatting its
/// `SyntaxText`, which walks the tree through the formatter).
/// Appends the text of `node`'s tokens, in order. A stack, not recursion:
/// blocks nest as deep as the input says.
fn push_green_text(out: &mut String, node: &rowan::GreenNodeData) {
    let mut stack = vec![node.children()];
    while let Some(children) = stack.last_mut() {
        match children.next() {
            Some(rowan::NodeOrToken::Node(n)) => stack.push(n.children()),
            Some(rowan::NodeOrToken::Token(t)) => out.push_str(t.text()),
            None => {
                stack.pop();
            }
        }
    }
}
