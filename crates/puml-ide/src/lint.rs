//! Readability lint: advice about diagrams that compile but read badly.
//! Findings are kept apart from compiler diagnostics (codes `L…`, severity
//! warning or info) and carry a fix where one is mechanical.

use puml_sema::model::{Diagram, DiagramSourceMap, Endpoint, Event, LineStyle, NotePosition, ParticipantId};
use puml_sema::{Analysis, AnalysisOptions, FileLoader, NoIncludes};
use puml_syntax::{Diagnostic, SyntaxKind, SyntaxNode, TextEdit, TextRange, TextSize};

/// Thresholds; the defaults are what the CLI uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintOptions {
    /// Characters in a message label (per line of it).
    pub max_label_len: usize,
    pub max_participants: usize,
    pub max_nesting: usize,
    /// Characters in a participant name written without an alias.
    pub max_name_len: usize,
}

impl Default for LintOptions {
    fn default() -> LintOptions {
        LintOptions {
            max_label_len: 60,
            max_participants: 10,
            max_nesting: 3,
            max_name_len: 24,
        }
    }
}

/// One lint rule: its stable code, a short name and what it looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LintRule {
    pub code: &'static str,
    pub name: &'static str,
    pub description: &'static str,
}

pub const RULES: [LintRule; 11] = [
    LintRule {
        code: "L001",
        name: "long-label",
        description: "a message label longer than the limit (60 characters per line)",
    },
    LintRule {
        code: "L002",
        name: "too-many-participants",
        description: "more participants than fit a readable diagram (10)",
    },
    LintRule {
        code: "L003",
        name: "unused-participant",
        description: "a declared participant that takes part in nothing",
    },
    LintRule {
        code: "L004",
        name: "implicit-participant",
        description: "a participant used without declaration in a diagram that declares others",
    },
    LintRule {
        code: "L005",
        name: "solid-reply",
        description: "a reply drawn solid while the other replies are dashed",
    },
    LintRule {
        code: "L006",
        name: "long-note",
        description: "a note with more lines than the diagram has messages",
    },
    LintRule {
        code: "L007",
        name: "deep-nesting",
        description: "groups nested deeper than 3",
    },
    LintRule {
        code: "L008",
        name: "unclosed-activation",
        description: "an activation that is never deactivated",
    },
    LintRule {
        code: "L009",
        name: "autonumber-without-title",
        description: "numbered messages in a diagram without a title",
    },
    LintRule {
        code: "L010",
        name: "duplicate-message",
        description: "the same message twice in a row",
    },
    LintRule {
        code: "L011",
        name: "long-name-without-alias",
        description: "a long participant name repeated in every message instead of a short alias",
    },
];

/// Lints `source` (includes disabled).
pub fn lint(source: &str) -> Vec<Diagnostic> {
    lint_with(
        source,
        &LintOptions::default(),
        &AnalysisOptions::default(),
        &NoIncludes,
    )
}

pub fn lint_with(
    source: &str,
    options: &LintOptions,
    analysis_options: &AnalysisOptions,
    loader: &dyn FileLoader,
) -> Vec<Diagnostic> {
    let analysis = puml_sema::analyze(source, analysis_options, loader);
    lint_analysis(source, &analysis, options)
}

/// Lints an analysis already computed from `source`.
pub fn lint_analysis(source: &str, analysis: &Analysis, options: &LintOptions) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let tree = puml_syntax::parse(source).syntax();
    let empty_map = DiagramSourceMap::default();
    for (index, diagram) in analysis.document.diagrams.iter().enumerate() {
        let map = analysis.source_map.diagrams.get(index).unwrap_or(&empty_map);
        let ctx = Ctx {
            source,
            tree: &tree,
            diagram,
            map,
            options,
        };
        ctx.run(&mut findings);
    }
    findings.sort_by_key(|d| (d.range.start(), d.code));
    findings
}

struct Ctx<'a> {
    source: &'a str,
    tree: &'a SyntaxNode,
    diagram: &'a Diagram,
    map: &'a DiagramSourceMap,
    options: &'a LintOptions,
}

impl Ctx<'_> {
    fn event_range(&self, index: usize) -> TextRange {
        self.map.events.get(index).copied().unwrap_or(self.map.range)
    }
    fn participant_range(&self, id: ParticipantId) -> TextRange {
        self.map.participants.get(id.index()).copied().unwrap_or(self.map.range)
    }
    fn name(&self, id: ParticipantId) -> &str {
        self.diagram
            .participants
            .get(id.index())
            .map_or("?", |p| p.code.as_str())
    }

    fn run(&self, out: &mut Vec<Diagnostic>) {
        self.long_labels(out);
        self.participant_rules(out);
        self.solid_replies(out);
        self.long_notes(out);
        self.nesting(out);
        self.activations(out);
        self.autonumber_without_title(out);
        self.duplicates(out);
    }

    fn long_labels(&self, out: &mut Vec<Diagnostic>) {
        let limit = self.options.max_label_len;
        for (index, event) in self.diagram.events.iter().enumerate() {
            let Event::Message(message) = event else { continue };
            let longest = message.label.split("\\n").map(|l| l.chars().count()).max().unwrap_or(0);
            if longest > limit {
                out.push(Diagnostic::warning(
                    "L001",
                    self.event_range(index),
                    format!(
                        "message label is {longest} characters long (limit {limit}); shorten it or break it with `\\n`"
                    ),
                ));
            }
        }
    }

    fn participant_rules(&self, out: &mut Vec<Diagnostic>) {
        let participants = &self.diagram.participants;
        if participants.len() > self.options.max_participants {
            let range = self.map.participants.first().copied().unwrap_or(self.map.range);
            out.push(Diagnostic::info(
                "L002",
                range,
                format!(
                    "{} participants (more than {}): consider splitting the diagram or grouping participants in boxes",
                    participants.len(),
                    self.options.max_participants
                ),
            ));
        }
        let used = self.used_participants();
        let any_declared = participants.iter().any(|p| p.declared);
        // Where new declarations go: after the last declaration line.
        let last_declaration_end = participants
            .iter()
            .enumerate()
            .filter(|(_, p)| p.declared)
            .filter_map(|(i, _)| self.map.participants.get(i))
            .map(|r| line_end(self.source, r.end()))
            .max();
        for (i, p) in participants.iter().enumerate() {
            let id = ParticipantId(i as u32);
            let range = self.participant_range(id);
            if p.declared && !used.get(i).copied().unwrap_or(true) {
                let line = full_line(self.source, range);
                let mut d = Diagnostic::warning(
                    "L003",
                    range,
                    format!("participant `{}` is declared but takes part in nothing", p.code),
                );
                if self
                    .source
                    .get(std::ops::Range::<usize>::from(line))
                    .is_some_and(|t| t.trim_start().len() < 200)
                    && !line.is_empty()
                {
                    d = d.with_suggestion("remove the declaration", vec![TextEdit::delete(line)]);
                }
                out.push(d);
            }
            if !p.declared && any_declared {
                let mut d = Diagnostic::info(
                    "L004",
                    range,
                    format!(
                        "participant `{}` is used without a declaration while others are declared",
                        p.code
                    ),
                );
                if let Some(at) = last_declaration_end {
                    let declaration = format!("{} {}\n", p.kind.keyword(), crate::normalize::written_name(&p.code));
                    let title = format!("declare `{}`", p.code);
                    let edits = vec![TextEdit::insert(at, declaration)];
                    // Declaring it after the other declarations keeps the
                    // display order only when it is first used after them.
                    d = if range.start() >= at {
                        d.with_fix(title, edits)
                    } else {
                        d.with_suggestion(title, edits)
                    };
                }
                out.push(d);
            }
            let name_len = p.name.chars().count();
            if p.alias.is_none() && name_len > self.options.max_name_len {
                out.push(Diagnostic::info(
                    "L011",
                    range,
                    format!(
                        "participant name is {name_len} characters long: declare it as `participant \"{}\" as Short` and use the alias",
                        p.name
                    ),
                ));
            }
        }
    }

    fn used_participants(&self) -> Vec<bool> {
        let mut used = vec![false; self.diagram.participants.len()];
        let mut mark = |id: ParticipantId| {
            if let Some(u) = used.get_mut(id.index()) {
                *u = true;
            }
        };
        for event in &self.diagram.events {
            match event {
                Event::Message(m) => {
                    m.from
                        .participant()
                        .into_iter()
                        .chain(m.to.participant())
                        .for_each(&mut mark);
                }
                Event::Note(n) => match &n.position {
                    NotePosition::Left { of } | NotePosition::Right { of } => of.iter().copied().for_each(&mut mark),
                    NotePosition::Over { first, last } => {
                        mark(*first);
                        last.iter().copied().for_each(&mut mark);
                    }
                    NotePosition::Across => {}
                },
                Event::Ref(r) => r.participants.iter().copied().for_each(&mut mark),
                Event::Create { participant }
                | Event::Activate { participant, .. }
                | Event::Deactivate { participant }
                | Event::Destroy { participant } => mark(*participant),
                _ => {}
            }
        }
        used
    }

    /// A reply is a message going back along a pair that already carried a
    /// call. When some replies are dashed, the solid ones are inconsistent.
    fn solid_replies(&self, out: &mut Vec<Diagnostic>) {
        let mut calls: Vec<(ParticipantId, ParticipantId)> = Vec::new();
        let mut replies: Vec<(usize, bool)> = Vec::new();
        for (index, event) in self.diagram.events.iter().enumerate() {
            let Event::Message(m) = event else { continue };
            let (Some(from), Some(to)) = (m.from.participant(), m.to.participant()) else {
                continue;
            };
            if from == to {
                continue;
            }
            let dotted = m.arrow.line == LineStyle::Dotted;
            if let Some(pos) = calls.iter().rposition(|&(a, b)| a == to && b == from) {
                calls.remove(pos);
                replies.push((index, dotted));
            } else if !dotted {
                calls.push((from, to));
            }
        }
        if !replies.iter().any(|&(_, dotted)| dotted) {
            return;
        }
        for &(index, dotted) in &replies {
            if dotted {
                continue;
            }
            let range = self.event_range(index);
            let mut d = Diagnostic::info(
                "L005",
                range,
                "this reply is drawn with a solid line while the other replies are dashed (`-->`)",
            );
            if let Some(at) = arrow_dash_offset(self.tree, range) {
                d = d.with_fix("draw the reply dashed", vec![TextEdit::insert(at, "-")]);
            }
            out.push(d);
        }
    }

    fn long_notes(&self, out: &mut Vec<Diagnostic>) {
        let messages = self.diagram.messages().count();
        for (index, event) in self.diagram.events.iter().enumerate() {
            let Event::Note(note) = event else { continue };
            let lines = note.text.lines().count().max(note.text.split("\\n").count());
            if lines >= 4 && lines > messages {
                out.push(Diagnostic::info(
                    "L006",
                    self.event_range(index),
                    format!("this note has {lines} lines, more than the {messages} messages of the diagram: move the prose to a legend or the documentation"),
                ));
            }
        }
    }

    fn nesting(&self, out: &mut Vec<Diagnostic>) {
        let mut depth = 0usize;
        for (index, event) in self.diagram.events.iter().enumerate() {
            match event {
                Event::GroupStart(group) => {
                    depth += 1;
                    if depth == self.options.max_nesting + 1 {
                        out.push(Diagnostic::info(
                            "L007",
                            self.event_range(index),
                            format!(
                                "`{}` is nested {depth} deep (limit {}): split the flow or flatten the conditions",
                                group.kind.keyword(),
                                self.options.max_nesting
                            ),
                        ));
                    }
                }
                Event::GroupEnd => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }

    fn activations(&self, out: &mut Vec<Diagnostic>) {
        // Per participant: the events of still-open activations.
        let mut open: Vec<Vec<usize>> = vec![Vec::new(); self.diagram.participants.len()];
        for (index, event) in self.diagram.events.iter().enumerate() {
            match event {
                Event::Activate { participant, .. } => {
                    if let Some(stack) = open.get_mut(participant.index()) {
                        stack.push(index);
                    }
                }
                Event::Deactivate { participant } => {
                    if let Some(stack) = open.get_mut(participant.index()) {
                        stack.pop();
                    }
                }
                Event::Destroy { participant } => {
                    if let Some(stack) = open.get_mut(participant.index()) {
                        stack.clear();
                    }
                }
                _ => {}
            }
        }
        for (i, stack) in open.iter().enumerate() {
            for &index in stack {
                out.push(Diagnostic::info(
                    "L008",
                    self.event_range(index),
                    format!(
                        "this activation of `{}` is never closed: add `deactivate {}` or `return`",
                        self.name(ParticipantId(i as u32)),
                        self.name(ParticipantId(i as u32))
                    ),
                ));
            }
        }
    }

    fn autonumber_without_title(&self, out: &mut Vec<Diagnostic>) {
        if self.diagram.title.is_some() {
            return;
        }
        let numbered = self
            .diagram
            .events
            .iter()
            .position(|e| matches!(e, Event::Message(m) if m.number.is_some()));
        if let Some(index) = numbered {
            let mut d = Diagnostic::info(
                "L009",
                self.event_range(index),
                "numbered messages are usually referred to from text: give the diagram a `title`",
            );
            let start = self.map.range.start();
            if !self.map.range.is_empty() {
                let at = line_end(self.source, start);
                d = d.with_suggestion("add a title", vec![TextEdit::insert(at, "title Untitled\n")]);
            }
            out.push(d);
        }
    }

    fn duplicates(&self, out: &mut Vec<Diagnostic>) {
        let mut previous: Option<&puml_sema::model::Message> = None;
        for (index, event) in self.diagram.events.iter().enumerate() {
            match event {
                Event::Message(m) => {
                    if let Some(p) = previous {
                        let same = p.from == m.from && p.to == m.to && p.label == m.label && p.arrow == m.arrow;
                        if same && !matches!(m.from, Endpoint::Edge { .. }) {
                            let range = self.event_range(index);
                            let line = full_line(self.source, range);
                            let mut d = Diagnostic::warning("L010", range, "the same message as the line before");
                            if !line.is_empty() {
                                d = d.with_suggestion("remove the duplicate", vec![TextEdit::delete(line)]);
                            }
                            out.push(d);
                        }
                    }
                    previous = Some(m);
                }
                // Anything between two messages makes a repeat meaningful.
                _ => previous = None,
            }
        }
    }
}

/// The offset just after the end of the line holding `offset` (after its `\n`).
fn line_end(source: &str, offset: TextSize) -> TextSize {
    let start = usize::from(offset).min(source.len());
    match source[start..].find('\n') {
        Some(i) => TextSize::from((start + i + 1) as u32),
        None => TextSize::of(source),
    }
}

/// The whole line(s) of `range`, including the final newline.
fn full_line(source: &str, range: TextRange) -> TextRange {
    let start = usize::from(range.start()).min(source.len());
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let end = line_end(source, range.end().max(range.start()));
    TextRange::new(TextSize::from(line_start as u32), end)
}

/// Where to insert a `-` to make the arrow of the message statement at
/// `range` dotted: just after the first `-` of its ARROW token.
fn arrow_dash_offset(tree: &SyntaxNode, range: TextRange) -> Option<TextSize> {
    let covering = match tree.covering_element(range) {
        puml_syntax::NodeOrToken::Node(node) => node,
        puml_syntax::NodeOrToken::Token(token) => token.parent()?,
    };
    let arrow = covering
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == SyntaxKind::ARROW)
        .find(|t| range.contains_range(t.text_range()))?;
    let dash = arrow.text().find('-')?;
    Some(arrow.text_range().start() + TextSize::from(dash as u32 + 1))
}
