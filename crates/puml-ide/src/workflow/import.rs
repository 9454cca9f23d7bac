//! Activity model → Workflow (seed 001). One pass over the flat step list
//! with an explicit stack of open blocks (never recursion): `frontier`
//! holds the exits waiting for the next node (`(node, sourceHandle)`), and
//! each new node takes them as its incoming edges.

use super::annotation::{parse_note, AnnotationKind};
use super::codes;
use super::model::{Agent, Edge, LoopKind, Node, NodeData, NodeType, Resolution, Workflow};
use puml_sema::activity::{ActivityDiagram, ActivitySourceMap, Step};
use puml_syntax::{Diagnostic, Fix, Severity, TextEdit, TextRange, TextSize};
use std::collections::HashMap;

/// Where a node came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeSource {
    /// The step's statement (`:Analyze Code;`, `if (…) then`, `start`).
    pub statement: TextRange,
    /// Its annotation note, if any.
    pub note: Option<TextRange>,
}

/// A `|Lane|` line: which lane, where, and whether it declares (has a colour).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneStatement {
    pub code: String,
    pub display: String,
    pub color: Option<String>,
    pub range: TextRange,
}

/// The result of reading one activity diagram as a workflow.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkflowImport {
    pub workflow: Workflow,
    /// Parallel to `workflow.nodes`.
    pub sources: Vec<NodeSource>,
    /// The `<<input>>` note, where the variables are declared.
    pub variables_note: Option<TextRange>,
    pub lanes: Vec<LaneStatement>,
    /// Annotation problems and unmapped constructs (not the six rules).
    pub diagnostics: Vec<Diagnostic>,
}

impl WorkflowImport {
    /// `(start, end)` byte offsets per node, for [`Workflow::to_json`].
    pub fn spans(&self) -> Vec<(u32, u32)> {
        self.sources
            .iter()
            .map(|s| (u32::from(s.statement.start()), u32::from(s.statement.end())))
            .collect()
    }
}

struct Builder<'a> {
    text: &'a str,
    out: WorkflowImport,
    ids: HashMap<String, usize>,
    /// Every id given out, so a suffixed id never repeats an earlier one.
    used: std::collections::HashSet<String>,
    frontier: Vec<(usize, String)>,
}

enum Frame {
    If {
        current: usize,
        exits: Vec<(usize, String)>,
        has_else: bool,
    },
    Parallel {
        entry: Vec<(usize, String)>,
        exits: Vec<(usize, String)>,
    },
    Repeat {
        first: Option<usize>,
    },
    While {
        evaluator: usize,
    },
    Other,
}

pub fn import(
    diagram: &ActivityDiagram,
    map: &ActivitySourceMap,
    title: Option<&str>,
    name: Option<&str>,
    text: &str,
) -> WorkflowImport {
    let mut b = Builder {
        text,
        out: WorkflowImport::default(),
        ids: HashMap::new(),
        used: std::collections::HashSet::new(),
        frontier: Vec::new(),
    };
    b.out.workflow.title = title.or(name).unwrap_or_default().trim().to_string();
    for lane in &diagram.lanes {
        b.out.workflow.agents.push(Agent {
            name: lane.code.clone(),
            label: (lane.display != lane.code).then(|| lane.display.clone()),
            color: lane.color.clone(),
            resolution: Resolution::for_name(&lane.code),
        });
    }
    let range_of = |i: usize| map.steps.get(i).copied().unwrap_or_default();
    let mut stack: Vec<Frame> = Vec::new();
    // The node the next note attaches to, if the previous step made one.
    let mut last_node: Option<usize> = None;
    let mut i = 0;
    while i < diagram.steps.len() {
        let step = &diagram.steps[i];
        let range = range_of(i);
        let mut made = None;
        match step {
            Step::Start => {
                made = Some(b.node(NodeType::WorkflowStart, "start", NodeData::label("Start"), range));
            }
            Step::Stop | Step::End => {
                made = Some(b.node(NodeType::Output, "output", NodeData::label("Output"), range));
                b.frontier.clear();
            }
            Step::Kill | Step::Detach => {
                b.frontier.clear();
            }
            Step::Action(action) => {
                let mut data = NodeData::label(action.text.trim());
                data.agent = action
                    .lane
                    .and_then(|l| diagram.lanes.get(l.index()))
                    .map(|l| l.code.clone());
                let base = data.label.clone();
                made = Some(b.node(NodeType::PromptBlock, &base, data, range));
            }
            Step::Note(note) => {
                let (annotation, problems) = parse_note(&note.text);
                for p in problems {
                    let at = note_line(text, range, p.line);
                    let mut d = diag(p.code, p.severity, p.message, at);
                    if let Some((from, to)) = p.fix {
                        if let Some(found) = find_in(text, at, &from) {
                            d.fixes.push(Fix {
                                title: format!("write `{to}`"),
                                edits: vec![TextEdit::replace(found, to)],
                                machine_applicable: true,
                            });
                        }
                    }
                    b.out.diagnostics.push(d);
                }
                if let Some(a) = annotation {
                    b.annotate(last_node, a, range);
                }
            }
            Step::Lane(id) => {
                if let Some(lane) = diagram.lanes.get(id.index()) {
                    let written = text
                        .get(usize::from(range.start())..usize::from(range.end()))
                        .unwrap_or("");
                    b.out.lanes.push(LaneStatement {
                        code: lane.code.clone(),
                        display: lane.display.clone(),
                        color: written
                            .trim_start()
                            .starts_with("|#")
                            .then(|| lane.color.clone())
                            .flatten(),
                        range,
                    });
                }
            }
            Step::IfStart {
                condition, then_label, ..
            } => {
                let c = b.condition(condition, then_label.clone(), range);
                made = Some(c);
                stack.push(Frame::If {
                    current: c,
                    exits: Vec::new(),
                    has_else: false,
                });
                b.frontier = vec![(c, "true".to_string())];
            }
            Step::ElseIf { condition, then_label } => {
                if let Some(Frame::If { current, exits, .. }) = stack.last_mut() {
                    exits.append(&mut b.frontier);
                    b.frontier = vec![(*current, "false".to_string())];
                    let c = b.condition(condition, then_label.clone(), range);
                    if let Some(Frame::If { current, .. }) = stack.last_mut() {
                        *current = c;
                    }
                    b.frontier = vec![(c, "true".to_string())];
                    made = Some(c);
                }
            }
            Step::Else { label } => {
                if let Some(Frame::If {
                    current,
                    exits,
                    has_else,
                }) = stack.last_mut()
                {
                    exits.append(&mut b.frontier);
                    *has_else = true;
                    b.out.workflow.nodes[*current].data.false_label = label.clone();
                    b.frontier = vec![(*current, "false".to_string())];
                }
            }
            Step::EndIf => {
                if let Some(Frame::If {
                    current,
                    mut exits,
                    has_else,
                }) = stack.pop()
                {
                    if !has_else {
                        exits.push((current, "false".to_string()));
                    }
                    exits.append(&mut b.frontier);
                    b.frontier = exits;
                }
            }
            Step::ForkStart | Step::SplitStart | Step::SwitchStart { .. } => {
                if let Step::SwitchStart { .. } = step {
                    b.out.diagnostics.push(diag(
                        codes::UNMAPPED,
                        Severity::Warning,
                        "`switch` is not part of the workflow mapping: its cases are read as parallel branches; use `if`/`elseif` for conditions".to_string(),
                        range,
                    ));
                }
                stack.push(Frame::Parallel {
                    entry: b.frontier.clone(),
                    exits: Vec::new(),
                });
            }
            Step::ForkAgain | Step::SplitAgain | Step::Case { .. } => {
                if let Some(Frame::Parallel { entry, exits }) = stack.last_mut() {
                    // A `switch`'s first `case` opens its first branch.
                    if !(matches!(step, Step::Case { .. }) && exits.is_empty() && b.frontier == *entry) {
                        exits.append(&mut b.frontier);
                    }
                    b.frontier = entry.clone();
                }
            }
            Step::EndFork { .. } | Step::EndSplit | Step::EndSwitch => {
                if let Some(Frame::Parallel { mut exits, .. }) = stack.pop() {
                    exits.append(&mut b.frontier);
                    b.frontier = exits;
                }
            }
            Step::RepeatStart { .. } => {
                stack.push(Frame::Repeat { first: None });
            }
            Step::RepeatWhile {
                condition,
                is_label,
                not_label,
                ..
            } => {
                if let Some(Frame::Repeat { first }) = stack.pop() {
                    let label = condition.clone().unwrap_or_default();
                    let mut data = NodeData::label(label.trim());
                    data.expression = Some(expression(&label));
                    data.loop_kind = Some(LoopKind::Repeat);
                    data.loop_label = is_label.clone();
                    data.exit_label = not_label.clone();
                    // `repeat while (…) is (retry)` then `->done;`: the
                    // arrow's label names the exit.
                    if data.exit_label.is_none() {
                        if let Some(Step::Arrow(style)) = diagram.steps.get(i + 1) {
                            data.exit_label = style.label.clone();
                        }
                    }
                    let base = format!("loop {}", data.expression.as_deref().unwrap_or(""));
                    let e = b.node(NodeType::Evaluator, &base, data, range);
                    if let Some(first) = first {
                        b.edge(e, first, "loop");
                    }
                    b.frontier = vec![(e, "output".to_string())];
                    made = Some(e);
                }
            }
            Step::WhileStart { condition, label } => {
                let mut data = NodeData::label(condition.trim());
                data.expression = Some(expression(condition));
                data.loop_kind = Some(LoopKind::While);
                data.loop_label = label.clone();
                let base = format!("loop {}", data.expression.as_deref().unwrap_or(""));
                let e = b.node(NodeType::Evaluator, &base, data, range);
                stack.push(Frame::While { evaluator: e });
                b.frontier = vec![(e, "loop".to_string())];
                made = Some(e);
            }
            Step::EndWhile { label } => {
                if let Some(Frame::While { evaluator }) = stack.pop() {
                    let back = std::mem::take(&mut b.frontier);
                    for (from, handle) in back {
                        b.edge(from, evaluator, &handle);
                    }
                    b.out.workflow.nodes[evaluator].data.exit_label = label.clone();
                    b.frontier = vec![(evaluator, "output".to_string())];
                }
            }
            Step::Break | Step::Backward(_) | Step::Connector { .. } => {
                let what = match step {
                    Step::Break => "`break`",
                    Step::Backward(_) => "`backward`",
                    _ => "a connector",
                };
                b.out.diagnostics.push(diag(
                    codes::UNMAPPED,
                    Severity::Warning,
                    format!("{what} is not part of the workflow mapping and is ignored"),
                    range,
                ));
            }
            Step::ContainerStart { .. } => stack.push(Frame::Other),
            Step::ContainerEnd => {
                if let Some(Frame::Other) = stack.last() {
                    stack.pop();
                }
            }
            Step::Arrow(_) => {}
        }
        if let Some(n) = made {
            // The first node after `repeat` is where its loop returns.
            for frame in stack.iter_mut() {
                if let Frame::Repeat { first: first @ None } = frame {
                    *first = Some(n);
                }
            }
        }
        if !matches!(step, Step::Note(_) | Step::Arrow(_) | Step::Lane(_)) {
            last_node = made;
        }
        i += 1;
    }
    b.assign_routes();
    b.out
}

impl NodeData {
    fn label(label: &str) -> NodeData {
        NodeData {
            label: label.to_string(),
            ..NodeData::default()
        }
    }
}

impl Builder<'_> {
    /// A new node, joined to every waiting exit.
    fn node(&mut self, node_type: NodeType, base: &str, data: NodeData, range: TextRange) -> usize {
        let id = self.unique_id(base);
        let index = self.out.workflow.nodes.len();
        self.out.workflow.nodes.push(Node { id, node_type, data });
        self.out.sources.push(NodeSource {
            statement: range,
            note: None,
        });
        for (from, handle) in std::mem::take(&mut self.frontier) {
            self.edge(from, index, &handle);
        }
        self.frontier = vec![(index, "output".to_string())];
        index
    }

    fn edge(&mut self, from: usize, to: usize, handle: &str) {
        let nodes = &self.out.workflow.nodes;
        self.out.workflow.edges.push(Edge {
            source: nodes[from].id.clone(),
            target: nodes[to].id.clone(),
            source_handle: handle.to_string(),
            target_handle: "input".to_string(),
        });
    }

    fn condition(&mut self, condition: &str, then_label: Option<String>, range: TextRange) -> usize {
        let mut data = NodeData::label(condition.trim());
        data.expression = Some(expression(condition));
        data.true_label = then_label;
        let base = format!("if {}", data.expression.as_deref().unwrap_or(""));
        self.node(NodeType::Condition, &base, data, range)
    }

    /// `static_analysis`, then `static_analysis_2`, … for a repeated text.
    fn unique_id(&mut self, base: &str) -> String {
        let mut slug = slug(base);
        if slug.is_empty() {
            slug = "step".to_string();
        }
        let count = self.ids.entry(slug.clone()).or_insert(0);
        *count += 1;
        let mut id = if *count == 1 {
            slug.clone()
        } else {
            format!("{slug}_{count}")
        };
        // `a_2` may itself be the slug of an earlier step's text.
        while self.used.contains(&id) {
            let count = self.ids.entry(slug.clone()).or_insert(0);
            *count += 1;
            id = format!("{slug}_{count}");
        }
        self.used.insert(id.clone());
        id
    }

    fn annotate(&mut self, node: Option<usize>, annotation: super::annotation::Annotation, range: TextRange) {
        let kind = annotation.kind;
        let target = node.map(|n| (n, self.out.workflow.nodes[n].node_type));
        match (kind, target) {
            (AnnotationKind::Input, Some((n, NodeType::WorkflowStart))) => {
                self.out.workflow.variables.extend(annotation.variables);
                self.out.variables_note = Some(range);
                self.out.sources[n].note = Some(range);
            }
            (
                AnnotationKind::Prompt | AnnotationKind::Router | AnnotationKind::Aggregator,
                Some((n, NodeType::PromptBlock)),
            ) => {
                let node = &mut self.out.workflow.nodes[n];
                node.node_type = match kind {
                    AnnotationKind::Router => NodeType::Router,
                    AnnotationKind::Aggregator => NodeType::Aggregator,
                    _ => NodeType::PromptBlock,
                };
                let label = std::mem::take(&mut node.data.label);
                let agent = node.data.agent.take();
                node.data = NodeData {
                    label,
                    agent,
                    ..annotation.data
                };
                self.out.sources[n].note = Some(range);
            }
            _ => {
                let on = match target {
                    Some((_, NodeType::WorkflowStart)) => "`start`",
                    Some((_, NodeType::PromptBlock | NodeType::Router | NodeType::Aggregator)) => "an activity",
                    Some(_) => "this step",
                    None => "nothing (it follows no step)",
                };
                let belongs = match kind {
                    AnnotationKind::Input => "`start`",
                    _ => "an activity `:…;`",
                };
                self.out.diagnostics.push(diag(
                    codes::MISPLACED_ANNOTATION,
                    Severity::Error,
                    format!(
                        "a <<{}>> note is on {on}; it belongs right after {belongs}",
                        kind.keyword()
                    ),
                    note_line(self.text, range, 0),
                ));
            }
        }
    }

    /// A router's outgoing edges take its routes' categories as handles:
    /// the route whose `target` names the branch's agent (or its node),
    /// else, with several branches, the routes in order.
    fn assign_routes(&mut self) {
        let wf = &mut self.out.workflow;
        for r in 0..wf.nodes.len() {
            if wf.nodes[r].node_type != NodeType::Router || wf.nodes[r].data.routes.is_empty() {
                continue;
            }
            let id = wf.nodes[r].id.clone();
            let outs: Vec<usize> = (0..wf.edges.len()).filter(|&e| wf.edges[e].source == id).collect();
            let routes = wf.nodes[r].data.routes.clone();
            let mut used = vec![false; routes.len()];
            let mut pending = Vec::new();
            for &e in &outs {
                let target = wf.nodes.iter().find(|n| n.id == wf.edges[e].target);
                let matched = routes.iter().enumerate().position(|(k, route)| {
                    !used[k]
                        && target.is_some_and(|t| {
                            t.data.agent.as_deref() == Some(route.target.as_str())
                                || t.id == route.target
                                || t.data.label == route.target
                        })
                });
                match matched {
                    Some(k) => {
                        used[k] = true;
                        wf.edges[e].source_handle = routes[k].category.clone();
                    }
                    None => pending.push(e),
                }
            }
            if outs.len() > 1 {
                for e in pending {
                    if let Some(k) = used.iter().position(|u| !u) {
                        used[k] = true;
                        wf.edges[e].source_handle = routes[k].category.clone();
                    }
                }
            }
        }
    }
}

/// The condition without PlantUML's customary trailing `?`.
pub fn expression(condition: &str) -> String {
    condition.trim().trim_end_matches('?').trim_end().to_string()
}

/// A readable identifier: lower-case words of the text joined by `_`
/// (`Static Analysis` → `static_analysis`), at most 48 characters.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('_');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
        if out.len() >= 48 {
            break;
        }
    }
    out
}

pub(crate) fn diag(code: &'static str, severity: Severity, message: String, range: TextRange) -> Diagnostic {
    Diagnostic {
        code,
        severity,
        message,
        file: None,
        range,
        related: Vec::new(),
        fixes: Vec::new(),
    }
}

/// The source range of line `line` (0-based) of a block note's body: the
/// note's first source line is `note right`, its body follows. Trimmed.
pub(crate) fn note_line(text: &str, note: TextRange, line: usize) -> TextRange {
    let start = usize::from(note.start());
    let Some(slice) = text.get(start..usize::from(note.end())) else {
        return note;
    };
    let mut offset = start;
    for (k, l) in slice.split_inclusive('\n').enumerate() {
        if k == line + 1 {
            let content = l.trim_end_matches(['\n', '\r']);
            let lead = content.len() - content.trim_start().len();
            let len = content.trim().len();
            return TextRange::at(TextSize::from((offset + lead) as u32), TextSize::from(len as u32));
        }
        offset += l.len();
    }
    note
}

/// The first occurrence of `needle` inside `within`.
pub(crate) fn find_in(text: &str, within: TextRange, needle: &str) -> Option<TextRange> {
    let start = usize::from(within.start());
    let slice = text.get(start..usize::from(within.end()))?;
    let at = slice.find(needle)?;
    Some(TextRange::at(
        TextSize::from((start + at) as u32),
        TextSize::from(needle.len() as u32),
    ))
}
