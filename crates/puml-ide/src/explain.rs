//! `explain`: what a diagram says, as plain data and as readable text,
//! computed from the model (never from the raw text) so that it agrees with
//! what is rendered.

use puml_sema::class::{
    ClassDiagram, ClassSourceMap, LineStyle as ClassLineStyle, Link, LinkEnd, LinkHead, Member, MemberItem, Visibility,
};
use puml_sema::model::{
    Diagram, Endpoint, Event, GroupKind, HeadShape, LineStyle, Message, NotePosition, ParticipantId, ParticipantKind,
    Side,
};
use puml_sema::{Analysis, AnalysisOptions, FileLoader, NoIncludes};
use puml_syntax::{Diagnostic, LineIndex, TextRange};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// One or two plain sentences.
    pub summary: String,
    pub title: Option<String>,
    pub participants: Vec<ParticipantSummary>,
    pub flow: Vec<FlowStep>,
    pub groups: Vec<GroupSummary>,
    pub notes: Vec<NoteSummary>,
    pub diagnostics: Vec<Diagnostic>,
    /// Number of `@startuml` blocks in the file.
    pub diagram_count: usize,
    /// Which of them this explains (0-based).
    pub diagram_index: usize,
    /// Set for an activity diagram (then `participants`, `flow` and
    /// `groups` are empty).
    pub activity: Option<ActivitySummary>,
    /// Set for a class diagram, and for a description diagram (use case,
    /// component, deployment: its elements with their keywords, its links,
    /// its containers as packages); then `participants`, `flow` and
    /// `groups` are empty.
    pub class: Option<ClassSummary>,
}

/// What a class diagram says: its elements, relations and inheritance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassSummary {
    pub elements: Vec<ClassElementSummary>,
    pub relations: Vec<RelationSummary>,
    /// The inheritance forest (`extends`/`implements`), depth first from
    /// each root, as a flat list with depths.
    pub inheritance: Vec<InheritanceLine>,
    /// Qualified names of the packages and namespaces.
    pub packages: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassElementSummary {
    /// Qualified name.
    pub name: String,
    /// The keyword it is declared with (`class`, `interface`, `abstract`, …).
    pub keyword: String,
    /// 1-based line of its declaration or first use.
    pub line: u32,
    pub declared: bool,
    /// Fields, methods and constants as written (separators left out).
    pub members: Vec<String>,
    pub relations_out: usize,
    pub relations_in: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationSummary {
    pub line: u32,
    /// The end the relation reads from, whichever side it is written on:
    /// the child of an extension or implementation, the whole of a
    /// composition or aggregation, the source of an arrow.
    pub from: String,
    pub to: String,
    /// `extension`, `implementation`, `composition`, `aggregation`,
    /// `dependency`, `association`, `link`.
    pub kind: String,
    pub label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InheritanceLine {
    /// 0 for a root.
    pub depth: usize,
    pub name: String,
}

/// What an activity diagram says: its swimlanes and its steps in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivitySummary {
    pub lanes: Vec<LaneSummary>,
    pub steps: Vec<ActivityStepSummary>,
    pub actions: usize,
    /// `if`, `elseif` and `switch` blocks.
    pub decisions: usize,
    /// `while` and `repeat` blocks.
    pub loops: usize,
    /// `fork` and `split` blocks.
    pub parallel: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneSummary {
    pub name: String,
    pub color: Option<String>,
    /// 1-based line of its first declaration or use.
    pub line: u32,
    pub actions: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityStepSummary {
    /// 1-based source line (0 when unknown).
    pub line: u32,
    /// Block nesting (0 at the top).
    pub depth: usize,
    /// The step in words, e.g. `action "Ship"`, `if "in stock?" then "yes"`.
    pub text: String,
    /// The swimlane it is drawn in.
    pub lane: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParticipantSummary {
    pub name: String,
    pub alias: Option<String>,
    pub kind: ParticipantKind,
    /// 1-based; `None` for participants that are only used, never declared.
    pub declared_line: Option<u32>,
    pub messages_sent: usize,
    pub messages_received: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrowKind {
    Sync,
    Async,
    Reply,
    Lost,
    Found,
    SelfCall,
}

impl ArrowKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ArrowKind::Sync => "sync",
            ArrowKind::Async => "async",
            ArrowKind::Reply => "reply",
            ArrowKind::Lost => "lost",
            ArrowKind::Found => "found",
            ArrowKind::SelfCall => "self",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowStep {
    /// 1-based position in the flow (not the autonumber text).
    pub number: usize,
    /// 1-based source line (0 when unknown).
    pub line: u32,
    /// Participant code, or `[`/`]`/`?` for the diagram edges.
    pub from: String,
    pub to: String,
    pub label: String,
    pub arrow_kind: ArrowKind,
    /// The enclosing groups, outermost first, e.g. `["alt success", "loop 3 times"]`.
    pub group_path: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSummary {
    pub kind: GroupKind,
    pub label: Option<String>,
    pub line: u32,
    /// 1 for a top-level group.
    pub depth: usize,
    /// The first branch and every `else`.
    pub branches: Vec<BranchSummary>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchSummary {
    pub label: Option<String>,
    pub line: u32,
    /// Messages directly or indirectly inside this branch.
    pub messages: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteSummary {
    pub line: u32,
    /// `left of A`, `right`, `over A, B`, `across`.
    pub position: String,
    pub participants: Vec<String>,
    pub text: String,
}

/// Explains `source` (includes disabled).
pub fn explain(source: &str) -> Explanation {
    explain_with(source, &AnalysisOptions::default(), &NoIncludes)
}

pub fn explain_with(source: &str, options: &AnalysisOptions, loader: &dyn FileLoader) -> Explanation {
    let analysis = puml_sema::analyze(source, options, loader);
    explain_analysis(source, &analysis)
}

/// Explains every diagram of `source`, in order (one explanation when the
/// file has none, saying so).
pub fn explain_all_with(source: &str, options: &AnalysisOptions, loader: &dyn FileLoader) -> Vec<Explanation> {
    let analysis = puml_sema::analyze(source, options, loader);
    explain_all_analysis(source, &analysis)
}

/// Explains every diagram of an analysis already computed from `source`.
pub fn explain_all_analysis(source: &str, analysis: &Analysis) -> Vec<Explanation> {
    let lines = Lines::new(source);
    let count = analysis.document.diagrams.len().max(1);
    (0..count)
        .map(|index| explain_diagram(&lines, analysis, index))
        .collect()
}

/// Explains the first diagram of an analysis already computed from `source`.
pub fn explain_analysis(source: &str, analysis: &Analysis) -> Explanation {
    explain_diagram(&Lines::new(source), analysis, 0)
}

fn explain_diagram(lines: &Lines, analysis: &Analysis, diagram_index: usize) -> Explanation {
    let diagram_count = analysis.document.diagrams.len();
    let Some(diagram) = analysis.document.diagrams.get(diagram_index) else {
        return Explanation {
            summary: "The file contains no diagram.".to_string(),
            title: None,
            participants: Vec::new(),
            flow: Vec::new(),
            groups: Vec::new(),
            notes: Vec::new(),
            diagnostics: analysis.diagnostics.clone(),
            diagram_count,
            diagram_index,
            activity: None,
            class: None,
        };
    };
    // The kinds other than sequence diagrams explain themselves in a
    // summary and their own part; the sequence parts stay empty.
    let other_kind = |summary: String, activity: Option<ActivitySummary>, class: Option<ClassSummary>| Explanation {
        summary,
        title: diagram.title.clone(),
        participants: Vec::new(),
        flow: Vec::new(),
        groups: Vec::new(),
        notes: Vec::new(),
        diagnostics: diagnostics_of(analysis, diagram_index),
        diagram_count,
        diagram_index,
        activity,
        class,
    };
    if let Some(activity) = &diagram.activity {
        let map = analysis
            .source_map
            .diagrams
            .get(diagram_index)
            .and_then(|m| m.activity.as_ref());
        let summary = activity_summary(lines, activity, map);
        return other_kind(summarize_activity(diagram, &summary), Some(summary), None);
    }
    if let Some(class) = &diagram.class {
        let map = analysis
            .source_map
            .diagrams
            .get(diagram_index)
            .and_then(|m| m.class.as_ref());
        let summary = class_summary(lines, class, map);
        return other_kind(summarize_class(diagram, &summary), None, Some(summary));
    }
    if let Some(description) = &diagram.description {
        let map = analysis
            .source_map
            .diagrams
            .get(diagram_index)
            .and_then(|m| m.description.as_ref());
        let (class, class_map) = description_as_class(description, map);
        let summary = class_summary(lines, &class, class_map.as_ref());
        return other_kind(summarize_description(diagram, &summary), None, Some(summary));
    }
    if let Some(state) = &diagram.state {
        return other_kind(summarize_state(state), None, None);
    }
    if let Some(legacy) = &diagram.legacy_activity {
        return other_kind(summarize_legacy_activity(legacy), None, None);
    }
    let map = analysis.source_map.diagrams.get(diagram_index);
    let event_line = |index: usize| map.and_then(|m| m.events.get(index)).map_or(0, |r| lines.line(*r));

    let mut participants: Vec<ParticipantSummary> = diagram
        .participants
        .iter()
        .enumerate()
        .map(|(i, p)| ParticipantSummary {
            name: p.name.clone(),
            alias: p.alias.clone(),
            kind: p.kind,
            declared_line: if p.declared {
                map.and_then(|m| m.participants.get(i)).map(|r| lines.line(*r))
            } else {
                None
            },
            messages_sent: 0,
            messages_received: 0,
        })
        .collect();

    let mut flow = Vec::new();
    let mut groups: Vec<GroupSummary> = Vec::new();
    let mut notes = Vec::new();
    // Open groups: (index into `groups`, text of the current branch, flow
    // length when the branch started). A branch's message count is the
    // growth of the flow while it is open, so nesting costs nothing per
    // message.
    let mut open: Vec<(usize, String, usize)> = Vec::new();
    for (index, event) in diagram.events.iter().enumerate() {
        match event {
            Event::Message(message) => {
                if let Some(p) = message
                    .from
                    .participant()
                    .and_then(|id| participants.get_mut(id.index()))
                {
                    p.messages_sent += 1;
                }
                if let Some(p) = message.to.participant().and_then(|id| participants.get_mut(id.index())) {
                    p.messages_received += 1;
                }
                flow.push(FlowStep {
                    number: flow.len() + 1,
                    line: event_line(index),
                    from: endpoint_name(diagram, &message.from),
                    to: endpoint_name(diagram, &message.to),
                    label: message.label.to_string(),
                    arrow_kind: arrow_kind(message),
                    group_path: group_path(&open),
                });
            }
            Event::GroupStart(group) => {
                let line = event_line(index);
                groups.push(GroupSummary {
                    kind: group.kind,
                    label: group.label.clone(),
                    line,
                    depth: open.len() + 1,
                    branches: vec![BranchSummary {
                        label: group.label.clone(),
                        line,
                        messages: 0,
                    }],
                });
                open.push((
                    groups.len() - 1,
                    with_label(group.kind.keyword(), group.label.as_deref()),
                    flow.len(),
                ));
            }
            Event::GroupElse { label, .. } => {
                if let Some((group, text, started)) = open.last_mut() {
                    if let Some(branch) = groups[*group].branches.last_mut() {
                        branch.messages = flow.len() - *started;
                    }
                    *started = flow.len();
                    let keyword = groups[*group].kind.keyword();
                    *text = with_label(&format!("{keyword} else"), label.as_deref());
                    groups[*group].branches.push(BranchSummary {
                        label: label.clone(),
                        line: event_line(index),
                        messages: 0,
                    });
                }
            }
            Event::GroupEnd => {
                if let Some((group, _, started)) = open.pop() {
                    if let Some(branch) = groups[group].branches.last_mut() {
                        branch.messages = flow.len() - started;
                    }
                }
            }
            Event::Note(note) => {
                let (position, ids) = note_position(&note.position);
                let names: Vec<String> = ids.iter().map(|id| code_of(diagram, *id)).collect();
                let position = match &note.position {
                    NotePosition::Left { of: Some(_) } => format!("left of {}", names.join(", ")),
                    NotePosition::Right { of: Some(_) } => format!("right of {}", names.join(", ")),
                    NotePosition::Over { .. } => format!("over {}", names.join(", ")),
                    _ => position.to_string(),
                };
                notes.push(NoteSummary {
                    line: event_line(index),
                    position,
                    participants: names,
                    text: note.text.clone(),
                });
            }
            _ => {}
        }
    }

    // Groups left open run to the end of the diagram.
    for (group, _, started) in open.drain(..) {
        if let Some(branch) = groups[group].branches.last_mut() {
            branch.messages = flow.len() - started;
        }
    }
    let summary = summarize(diagram, &flow, &groups);
    Explanation {
        summary,
        title: diagram.title.clone(),
        participants,
        flow,
        groups,
        notes,
        diagnostics: diagnostics_of(analysis, diagram_index),
        diagram_count,
        diagram_index,
        activity: None,
        class: None,
    }
}

/// Inheritance deeper than this is listed at this depth (the tree is
/// walked with an explicit stack; a cycle is cut where it closes).
const MAX_INHERITANCE_DEPTH: usize = 32;

fn class_summary(lines: &Lines, class: &ClassDiagram, map: Option<&ClassSourceMap>) -> ClassSummary {
    let end_name = |end: &LinkEnd| -> String {
        match end {
            LinkEnd::Element(id) => class
                .elements
                .get(id.index())
                .map_or_else(String::new, |e| e.qualified_name.clone()),
            LinkEnd::Package(id) => class
                .packages
                .get(id.index())
                .map_or_else(String::new, |p| p.qualified_name.clone()),
            LinkEnd::Link(_) => "(link)".to_string(),
            LinkEnd::Note(_) => "(note)".to_string(),
        }
    };
    let mut elements: Vec<ClassElementSummary> = class
        .elements
        .iter()
        .enumerate()
        .map(|(i, e)| ClassElementSummary {
            name: e.qualified_name.clone(),
            keyword: e.keyword.clone(),
            line: map.and_then(|m| m.elements.get(i)).map_or(0, |r| lines.line(*r)),
            declared: e.declared,
            members: e
                .members
                .iter()
                .filter_map(|m| match m {
                    Member::Item(item) => Some(member_text(item)),
                    Member::Separator { .. } | Member::Blank => None,
                })
                .collect(),
            relations_out: 0,
            relations_in: 0,
        })
        .collect();
    let mut relations = Vec::new();
    // child → parents, by element index.
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); class.elements.len()];
    for (i, link) in class.links.iter().enumerate() {
        if let LinkEnd::Element(id) = link.from {
            if let Some(e) = elements.get_mut(id.index()) {
                e.relations_out += 1;
            }
        }
        if let LinkEnd::Element(id) = link.to {
            if let Some(e) = elements.get_mut(id.index()) {
                e.relations_in += 1;
            }
        }
        let (kind, reversed) = relation_kind(link);
        let (from, to) = if reversed {
            (link.to, link.from)
        } else {
            (link.from, link.to)
        };
        if kind == "extension" || kind == "implementation" {
            if let (LinkEnd::Element(child), LinkEnd::Element(parent)) = (from, to) {
                if let Some(list) = parents.get_mut(child.index()) {
                    if child != parent && !list.contains(&parent.index()) {
                        list.push(parent.index());
                    }
                }
            }
        }
        relations.push(RelationSummary {
            line: map.and_then(|m| m.links.get(i)).map_or(0, |r| lines.line(*r)),
            from: end_name(&from),
            to: end_name(&to),
            kind: kind.to_string(),
            label: link.label.clone(),
        });
    }
    let inheritance = inheritance_forest(class, &parents);
    ClassSummary {
        elements,
        relations,
        inheritance,
        packages: class.packages.iter().map(|p| p.qualified_name.clone()).collect(),
    }
}

fn member_text(item: &MemberItem) -> String {
    let visibility = match item.visibility {
        Some(Visibility::Private) => "-",
        Some(Visibility::Protected) => "#",
        Some(Visibility::Package) => "~",
        Some(Visibility::Public) => "+",
        None => "",
    };
    format!("{visibility}{}", item.text)
}

fn is_inheritance_head(head: LinkHead) -> bool {
    matches!(head, LinkHead::Triangle | LinkHead::OpenTriangle)
}

/// A relation's kind in UML words, from its heads and line, and whether it
/// reads from its right-hand end (`A <|-- B`: B extends A; `A --* B`: B is
/// composed of A; `A <-- B`: B points at A).
fn relation_kind(link: &Link) -> (&'static str, bool) {
    let dashed = matches!(link.line, ClassLineStyle::Dashed | ClassLineStyle::Dotted);
    if is_inheritance_head(link.from_head) || is_inheritance_head(link.to_head) {
        let kind = if dashed { "implementation" } else { "extension" };
        return (kind, is_inheritance_head(link.from_head));
    }
    for (head, kind) in [
        (LinkHead::Composition, "composition"),
        (LinkHead::Aggregation, "aggregation"),
    ] {
        if link.from_head == head || link.to_head == head {
            return (kind, link.from_head != head);
        }
    }
    if link.from_head == LinkHead::Arrow || link.to_head == LinkHead::Arrow {
        let kind = if dashed { "dependency" } else { "association" };
        return (kind, link.to_head != LinkHead::Arrow);
    }
    ("link", false)
}

/// The relation as a phrase: `B extends A`, `Car is composed of Wheel`.
fn relation_verb(kind: &str) -> &str {
    match kind {
        "extension" => "extends",
        "implementation" => "implements",
        "composition" => "is composed of",
        "aggregation" => "aggregates",
        "dependency" => "depends on",
        "association" => "points to",
        _ => "is linked to",
    }
}

/// The inheritance forest as indented lines: roots are elements with
/// children and no parent, each subtree walked depth first (an element with
/// two parents is listed under each).
fn inheritance_forest(class: &ClassDiagram, parents: &[Vec<usize>]) -> Vec<InheritanceLine> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); parents.len()];
    for (child, list) in parents.iter().enumerate() {
        for parent in list {
            children[*parent].push(child);
        }
    }
    let mut out = Vec::new();
    for root in 0..parents.len() {
        if !parents[root].is_empty() || children[root].is_empty() {
            continue;
        }
        // The path from the root to the node being listed, so that a cycle
        // reached from a root stops where it closes.
        let mut on_path: Vec<usize> = Vec::new();
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some((node, depth)) = stack.pop() {
            on_path.truncate(depth);
            out.push(InheritanceLine {
                depth: depth.min(MAX_INHERITANCE_DEPTH),
                name: class.elements[node].qualified_name.clone(),
            });
            on_path.push(node);
            for child in children[node].iter().rev() {
                if !on_path.contains(child) {
                    stack.push((*child, depth + 1));
                }
            }
        }
    }
    out
}

/// A description diagram in the class summary's terms: its elements with
/// their keywords (`actor`, `usecase`, `component`, …), its links, its
/// containers as packages.
pub(crate) fn description_as_class(
    description: &puml_sema::description::DescriptionDiagram,
    map: Option<&puml_sema::description::DescriptionSourceMap>,
) -> (ClassDiagram, Option<ClassSourceMap>) {
    let elements = description
        .elements
        .iter()
        .map(|e| puml_sema::class::Element {
            kind: puml_sema::class::ElementKind::Mixed,
            keyword: e.shape.keyword().to_string(),
            qualified_name: e.qualified_name.clone(),
            display: e.display.clone(),
            alias: None,
            generic: None,
            stereotypes: e.stereotypes.clone(),
            spot: None,
            style: e.style.clone(),
            members: Vec::new(),
            package: e.container,
            declared: e.declared,
            json: None,
        })
        .collect();
    let class = ClassDiagram {
        elements,
        packages: description.containers.clone(),
        links: description.links.clone(),
        notes: description.notes.clone(),
        left_to_right: description.left_to_right,
        ..ClassDiagram::default()
    };
    let class_map = map.map(|m| ClassSourceMap {
        elements: m.elements.clone(),
        element_references: m.element_references.clone(),
        packages: m.containers.clone(),
        links: m.links.clone(),
        notes: m.notes.clone(),
    });
    (class, class_map)
}

fn summarize_description(diagram: &Diagram, summary: &ClassSummary) -> String {
    let mut sentence = String::new();
    if let Some(title) = &diagram.title {
        sentence.push_str(&format!("\"{}\": ", title.replace("\\n", " ")));
    }
    sentence.push_str(&format!(
        "A description diagram (use case, component, deployment) with {} and {}",
        count(summary.elements.len(), "element", "elements"),
        count(summary.relations.len(), "link", "links")
    ));
    if !summary.packages.is_empty() {
        sentence.push_str(&format!(
            " in {}",
            count(summary.packages.len(), "container", "containers")
        ));
    }
    sentence.push('.');
    sentence
}

fn summarize_class(diagram: &Diagram, summary: &ClassSummary) -> String {
    let mut sentence = String::new();
    if let Some(title) = &diagram.title {
        sentence.push_str(&format!("\"{}\": ", title.replace("\\n", " ")));
    }
    sentence.push_str(&format!(
        "A class diagram with {} and {}",
        count(summary.elements.len(), "element", "elements"),
        count(summary.relations.len(), "relation", "relations")
    ));
    if !summary.packages.is_empty() {
        sentence.push_str(&format!(" in {}", count(summary.packages.len(), "package", "packages")));
    }
    sentence.push('.');
    sentence
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\n', " "))
}

fn labelled(what: &str, label: &Option<String>) -> String {
    match label {
        Some(l) => format!("{what} {}", quoted(l)),
        None => what.to_string(),
    }
}

/// The steps of an activity diagram in words, with their nesting.
fn activity_summary(
    lines: &Lines,
    activity: &puml_sema::activity::ActivityDiagram,
    map: Option<&puml_sema::activity::ActivitySourceMap>,
) -> ActivitySummary {
    use puml_sema::activity::Step;
    let mut lanes: Vec<LaneSummary> = activity
        .lanes
        .iter()
        .enumerate()
        .map(|(i, l)| LaneSummary {
            name: l.display.clone(),
            color: l.color.clone(),
            line: map.and_then(|m| m.lanes.get(i)).map_or(0, |r| lines.line(*r)),
            actions: 0,
        })
        .collect();
    let (mut actions, mut decisions, mut loops, mut parallel) = (0, 0, 0, 0);
    let mut depth = 0usize;
    let mut steps = Vec::new();
    let mut lane: Option<String> = None;
    for (index, step) in activity.steps.iter().enumerate() {
        // Middles print one level out, closers close before they print.
        let (before, after) = if step.opens_block() {
            (0, 1)
        } else if step.divides_block() {
            (1, 1)
        } else if step.closes_block() {
            (1, 0)
        } else {
            (0, 0)
        };
        depth = depth.saturating_sub(before);
        let text = match step {
            Step::Start => "start".to_string(),
            Step::Stop => "stop".to_string(),
            Step::End => "end".to_string(),
            Step::Kill => "kill".to_string(),
            Step::Detach => "detach".to_string(),
            Step::Break => "break".to_string(),
            Step::Action(a) => {
                actions += 1;
                if let Some(l) = a.lane.and_then(|l| lanes.get_mut(l.index())) {
                    l.actions += 1;
                }
                match &a.stereotype {
                    Some(s) => format!("action {} <<{s}>>", quoted(&a.text)),
                    None => format!("action {}", quoted(&a.text)),
                }
            }
            Step::Arrow(arrow) => labelled("arrow", &arrow.label),
            Step::Note(note) => format!(
                "{}note {}: {}",
                if note.floating { "floating " } else { "" },
                match note.position {
                    puml_sema::activity::ActivityNotePosition::Left => "left",
                    puml_sema::activity::ActivityNotePosition::Right => "right",
                },
                quoted(&note.text)
            ),
            Step::Lane(id) => {
                lane = activity.lanes.get(id.index()).map(|l| l.display.clone());
                format!("swimlane {}", quoted(lane.as_deref().unwrap_or("")))
            }
            Step::Connector { name, .. } => format!("connector ({name})"),
            Step::IfStart {
                condition, then_label, ..
            } => {
                decisions += 1;
                labelled(&format!("if {} then", quoted(condition)), then_label)
            }
            Step::ElseIf { condition, then_label } => {
                decisions += 1;
                labelled(&format!("elseif {} then", quoted(condition)), then_label)
            }
            Step::Else { label } => labelled("else", label),
            Step::EndIf => "endif".to_string(),
            Step::SwitchStart { condition } => {
                decisions += 1;
                format!("switch {}", quoted(condition))
            }
            Step::Case { label, .. } => format!("case {}", quoted(label)),
            Step::EndSwitch => "endswitch".to_string(),
            Step::WhileStart { condition, label } => {
                loops += 1;
                labelled(&format!("while {}", quoted(condition)), label)
            }
            Step::EndWhile { label } => labelled("endwhile", label),
            Step::RepeatStart { label } => {
                loops += 1;
                labelled("repeat", label)
            }
            Step::Backward(a) => format!("backward {}", quoted(&a.text)),
            Step::RepeatWhile { condition, .. } => labelled("repeat while", condition),
            Step::ForkStart => {
                parallel += 1;
                "fork".to_string()
            }
            Step::ForkAgain => "fork again".to_string(),
            Step::EndFork { merge, .. } => if *merge { "end merge" } else { "end fork" }.to_string(),
            Step::SplitStart => {
                parallel += 1;
                "split".to_string()
            }
            Step::SplitAgain => "split again".to_string(),
            Step::EndSplit => "end split".to_string(),
            Step::ContainerStart { kind, name, .. } => {
                format!("{} {}", format!("{kind:?}").to_lowercase(), quoted(name))
            }
            Step::ContainerEnd => "end of container".to_string(),
        };
        steps.push(ActivityStepSummary {
            line: map.and_then(|m| m.steps.get(index)).map_or(0, |r| lines.line(*r)),
            depth,
            text,
            lane: lane.clone(),
        });
        depth += after;
    }
    ActivitySummary {
        lanes,
        steps,
        actions,
        decisions,
        loops,
        parallel,
    }
}

fn summarize_activity(diagram: &Diagram, summary: &ActivitySummary) -> String {
    let mut sentence = String::new();
    if let Some(title) = &diagram.title {
        sentence.push_str(&format!("\"{}\": ", title.replace("\\n", " ")));
    }
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    sentence.push_str(&format!(
        "An activity diagram with {}",
        plural(summary.actions, "action", "actions")
    ));
    if !summary.lanes.is_empty() {
        let names: Vec<&str> = summary.lanes.iter().map(|l| l.name.as_str()).collect();
        sentence.push_str(&format!(
            " in {} ({})",
            plural(summary.lanes.len(), "swimlane", "swimlanes"),
            names.join(", ")
        ));
    }
    let mut parts = Vec::new();
    if summary.decisions > 0 {
        parts.push(plural(summary.decisions, "decision", "decisions"));
    }
    if summary.loops > 0 {
        parts.push(plural(summary.loops, "loop", "loops"));
    }
    if summary.parallel > 0 {
        parts.push(plural(summary.parallel, "parallel block", "parallel blocks"));
    }
    if !parts.is_empty() {
        sentence.push_str(&format!(", {}", parts.join(", ")));
    }
    sentence.push('.');
    sentence
}

/// The diagnostics inside one diagram of a file that has several; those
/// outside every diagram (and in included files) go with the first.
fn diagnostics_of(analysis: &Analysis, diagram_index: usize) -> Vec<Diagnostic> {
    let maps = &analysis.source_map.diagrams;
    if maps.len() <= 1 {
        return analysis.diagnostics.clone();
    }
    let inside = |d: &Diagnostic, index: usize| {
        d.file.is_none() && maps.get(index).is_some_and(|m| m.range.contains_range(d.range))
    };
    analysis
        .diagnostics
        .iter()
        .filter(|d| inside(d, diagram_index) || (diagram_index == 0 && !(0..maps.len()).any(|i| inside(d, i))))
        .cloned()
        .collect()
}

struct Lines<'a> {
    text: &'a str,
    index: LineIndex,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }
    fn line(&self, range: TextRange) -> u32 {
        self.index.line_col(self.text, range.start()).line
    }
}

/// Deeper paths keep their innermost groups behind a leading `…`, so that
/// a pathological nesting cannot make the flow quadratic in size.
const MAX_GROUP_PATH: usize = 32;

fn group_path(open: &[(usize, String, usize)]) -> Vec<String> {
    if open.len() <= MAX_GROUP_PATH {
        return open.iter().map(|(_, text, _)| text.clone()).collect();
    }
    std::iter::once("…".to_string())
        .chain(
            open[open.len() - (MAX_GROUP_PATH - 1)..]
                .iter()
                .map(|(_, text, _)| text.clone()),
        )
        .collect()
}

fn with_label(keyword: &str, label: Option<&str>) -> String {
    match label {
        Some(l) if !l.is_empty() => format!("{keyword} {l}"),
        _ => keyword.to_string(),
    }
}

fn code_of(diagram: &Diagram, id: ParticipantId) -> String {
    diagram
        .participants
        .get(id.index())
        .map_or_else(|| format!("#{}", id.0), |p| p.code.clone())
}

fn display_of(diagram: &Diagram, id: ParticipantId) -> String {
    diagram.participants.get(id.index()).map_or_else(
        || format!("#{}", id.0),
        |p| {
            if p.name.is_empty() {
                p.code.clone()
            } else {
                p.name.replace("\\n", " ")
            }
        },
    )
}

fn endpoint_name(diagram: &Diagram, endpoint: &Endpoint) -> String {
    match endpoint {
        Endpoint::Participant { id } => code_of(diagram, *id),
        Endpoint::Edge { short: true, .. } => "?".to_string(),
        Endpoint::Edge { side: Side::Left, .. } => "[".to_string(),
        Endpoint::Edge { side: Side::Right, .. } => "]".to_string(),
    }
}

fn note_position(position: &NotePosition) -> (&'static str, Vec<ParticipantId>) {
    match position {
        NotePosition::Left { of } => ("left", of.iter().copied().collect()),
        NotePosition::Right { of } => ("right", of.iter().copied().collect()),
        NotePosition::Over { first, last } => ("over", std::iter::once(*first).chain(*last).collect()),
        NotePosition::Across => ("across", Vec::new()),
    }
}

/// Classifies a message the way a reader would name it.
pub fn arrow_kind(message: &Message) -> ArrowKind {
    if message.is_self() {
        return ArrowKind::SelfCall;
    }
    if matches!(message.from, Endpoint::Edge { .. }) {
        return ArrowKind::Found;
    }
    if matches!(message.to, Endpoint::Edge { .. }) || message.arrow.head.shape == HeadShape::Cross {
        return ArrowKind::Lost;
    }
    if message.is_return || message.arrow.line == LineStyle::Dotted {
        return ArrowKind::Reply;
    }
    if matches!(
        message.arrow.head.shape,
        HeadShape::Open | HeadShape::HalfUpperOpen | HeadShape::HalfLowerOpen
    ) {
        return ArrowKind::Async;
    }
    ArrowKind::Sync
}

fn summarize(diagram: &Diagram, flow: &[FlowStep], groups: &[GroupSummary]) -> String {
    let mut sentence = String::new();
    if let Some(title) = &diagram.title {
        sentence.push_str(&format!("\"{}\": ", title.replace("\\n", " ")));
    }
    // Who talks to whom, by sender in order of first message.
    let mut senders: Vec<(ParticipantId, Vec<(ParticipantId, bool)>)> = Vec::new();
    for message in diagram.messages() {
        let (Some(from), Some(to)) = (message.from.participant(), message.to.participant()) else {
            continue;
        };
        if from == to {
            continue;
        }
        let is_reply = arrow_kind(message) == ArrowKind::Reply;
        let entry = match senders.iter().position(|(s, _)| *s == from) {
            Some(i) => &mut senders[i].1,
            None => {
                senders.push((from, Vec::new()));
                &mut senders.last_mut().expect("just pushed").1
            }
        };
        match entry.iter_mut().find(|(t, _)| *t == to) {
            // A pair is a "reply" only when every message of it is one.
            Some((_, all_replies)) => *all_replies &= is_reply,
            None => entry.push((to, is_reply)),
        }
    }
    let clauses: Vec<String> = senders
        .iter()
        .take(4)
        .map(|(from, targets)| {
            let calls: Vec<String> = targets
                .iter()
                .filter(|(_, reply)| !reply)
                .map(|(t, _)| display_of(diagram, *t))
                .collect();
            let replies: Vec<String> = targets
                .iter()
                .filter(|(_, reply)| *reply)
                .map(|(t, _)| display_of(diagram, *t))
                .collect();
            let mut parts = Vec::new();
            if !calls.is_empty() {
                parts.push(format!("sends to {}", join_and(&calls)));
            }
            if !replies.is_empty() {
                parts.push(format!("replies to {}", join_and(&replies)));
            }
            format!("{} {}", display_of(diagram, *from), parts.join(" and "))
        })
        .collect();
    if clauses.is_empty() {
        let names: Vec<String> = (0..diagram.participants.len())
            .map(|i| display_of(diagram, ParticipantId(i as u32)))
            .collect();
        if names.is_empty() {
            sentence.push_str("An empty diagram");
        } else {
            sentence.push_str(&format!("{} without messages between participants", join_and(&names)));
        }
    } else {
        sentence.push_str(&clauses.join("; "));
        if senders.len() > 4 {
            sentence.push_str(&format!("; and {} more senders", senders.len() - 4));
        }
    }
    sentence.push_str(". ");
    let mut figures = vec![count(flow.len(), "message", "messages")];
    let mut kinds: Vec<(GroupKind, usize, usize)> = Vec::new();
    for group in groups {
        match kinds.iter_mut().find(|(k, _, _)| *k == group.kind) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 += group.branches.len();
            }
            None => kinds.push((group.kind, 1, group.branches.len())),
        }
    }
    for (kind, n, branches) in kinds {
        let keyword = kind.keyword();
        let mut text = if n == 1 {
            format!("one {keyword}")
        } else {
            format!("{n} {keyword}s")
        };
        if branches > n {
            text.push_str(&format!(" with {branches} branches"));
        }
        figures.push(text);
    }
    let participants = diagram.participants.len();
    figures.push(count(participants, "participant", "participants"));
    sentence.push_str(&capitalize(&join_and(&figures)));
    sentence.push('.');
    sentence
}

fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn render_class_text(class: &ClassSummary, out: &mut String) {
    if !class.elements.is_empty() {
        out.push_str("Elements:\n");
        for e in &class.elements {
            let declared = if e.declared {
                format!("line {}", e.line)
            } else {
                format!("implicit, line {}", e.line)
            };
            out.push_str(&format!(
                "  {} {} ({declared}): {}, {} out, {} in\n",
                e.keyword,
                e.name,
                count(e.members.len(), "member", "members"),
                e.relations_out,
                e.relations_in
            ));
            for member in &e.members {
                out.push_str(&format!("    {member}\n"));
            }
        }
    }
    if !class.relations.is_empty() {
        out.push_str("\nRelations:\n");
        for r in &class.relations {
            let label = r.label.as_deref().map(|l| format!(": {l}")).unwrap_or_default();
            out.push_str(&format!(
                "  {} {} {}{label}  (line {})\n",
                r.from,
                relation_verb(&r.kind),
                r.to,
                r.line
            ));
        }
    }
    if !class.inheritance.is_empty() {
        out.push_str("\nInheritance:\n");
        for line in &class.inheritance {
            out.push_str(&format!("{}{}\n", "  ".repeat(line.depth + 1), line.name));
        }
    }
}

/// The readable text form printed by `puml explain`.
pub fn render_text(explanation: &Explanation) -> String {
    let mut out = String::new();
    out.push_str(&explanation.summary);
    out.push_str("\n\n");
    if explanation.diagram_count > 1 {
        out.push_str(&format!(
            "(diagram {} of the {} in the file)\n\n",
            explanation.diagram_index + 1,
            explanation.diagram_count
        ));
    }
    if let Some(activity) = &explanation.activity {
        if !activity.lanes.is_empty() {
            out.push_str("Swimlanes:\n");
            for lane in &activity.lanes {
                out.push_str(&format!(
                    "  \"{}\" (line {}): {} action(s)\n",
                    lane.name, lane.line, lane.actions
                ));
            }
            out.push('\n');
        }
        out.push_str("Steps:\n");
        for step in &activity.steps {
            let indent = "  ".repeat(step.depth.min(MAX_GROUP_PATH) + 1);
            out.push_str(&format!("{indent}{}  (line {})\n", step.text, step.line));
        }
    }
    if let Some(class) = &explanation.class {
        render_class_text(class, &mut out);
    }
    if !explanation.participants.is_empty() {
        out.push_str("Participants:\n");
        for p in &explanation.participants {
            let alias = match &p.alias {
                Some(a) if *a != p.name => format!(" as {a}"),
                _ => String::new(),
            };
            let declared = match p.declared_line {
                Some(line) => format!("declared line {line}"),
                None => "implicit".to_string(),
            };
            out.push_str(&format!(
                "  {} \"{}\"{alias} ({declared}): sends {}, receives {}\n",
                p.kind.keyword(),
                p.name,
                p.messages_sent,
                p.messages_received
            ));
        }
    }
    if !explanation.flow.is_empty() {
        out.push_str("\nFlow:\n");
        for step in &explanation.flow {
            let indent = "  ".repeat(step.group_path.len() + 1);
            let label = if step.label.is_empty() {
                String::new()
            } else {
                format!(": {}", step.label)
            };
            let context = step.group_path.last().map(|g| format!("  [{g}]")).unwrap_or_default();
            out.push_str(&format!(
                "{indent}{}. {} -> {} ({}){label}  (line {}){context}\n",
                step.number,
                step.from,
                step.to,
                step.arrow_kind.as_str(),
                step.line
            ));
        }
    }
    if !explanation.groups.is_empty() {
        out.push_str("\nGroups:\n");
        for g in &explanation.groups {
            let indent = "  ".repeat(g.depth);
            let branches: Vec<String> = g
                .branches
                .iter()
                .map(|b| {
                    format!(
                        "{} ({})",
                        b.label.as_deref().unwrap_or("-"),
                        count(b.messages, "message", "messages")
                    )
                })
                .collect();
            out.push_str(&format!(
                "{indent}{} at line {}: {}\n",
                g.kind.keyword(),
                g.line,
                branches.join(" | ")
            ));
        }
    }
    if !explanation.notes.is_empty() {
        out.push_str("\nNotes:\n");
        for n in &explanation.notes {
            out.push_str(&format!(
                "  line {} {}: {}\n",
                n.line,
                n.position,
                n.text.replace('\n', " / ")
            ));
        }
    }
    if !explanation.diagnostics.is_empty() {
        let errors = explanation.diagnostics.iter().filter(|d| d.is_error()).count();
        out.push_str(&format!(
            "\n{} diagnostics ({errors} errors): run `puml check` for details.\n",
            explanation.diagnostics.len()
        ));
    }
    out
}

/// A state diagram in a sentence or two: its states (composites and
/// pseudo-states counted apart) and its first transitions.
fn summarize_state(state: &puml_sema::state::StateDiagram) -> String {
    use puml_sema::state::StateKind;
    let name = |id: puml_sema::state::StateId| {
        let s = &state.states[id.index()];
        match s.kind {
            StateKind::Start => "[*] (start)".to_string(),
            StateKind::End if s.name.starts_with('*') => "[*] (end)".to_string(),
            StateKind::History if s.name.starts_with('*') => "[H]".to_string(),
            StateKind::DeepHistory if s.name.starts_with('*') => "[H*]".to_string(),
            _ => s.display.clone(),
        }
    };
    let pseudo = state.states.iter().filter(|s| s.name.starts_with('*')).count();
    let composite = state.states.iter().filter(|s| s.composite).count();
    let states = state.states.len() - pseudo;
    let mut out = format!(
        "A state diagram: {states} state{} ({composite} composite), {} transition{}",
        if states == 1 { "" } else { "s" },
        state.transitions.len(),
        if state.transitions.len() == 1 { "" } else { "s" }
    );
    const SHOWN: usize = 12;
    let shown: Vec<String> = state
        .transitions
        .iter()
        .take(SHOWN)
        .map(|t| {
            let (from, to) = if t.head_on_left { (t.to, t.from) } else { (t.from, t.to) };
            match &t.label {
                Some(label) => format!("{} → {} ({label})", name(from), name(to)),
                None => format!("{} → {}", name(from), name(to)),
            }
        })
        .collect();
    if !shown.is_empty() {
        out.push_str(": ");
        out.push_str(&shown.join(", "));
        if state.transitions.len() > SHOWN {
            out.push_str(", …");
        }
    }
    out.push('.');
    out
}

/// A legacy activity diagram in one sentence: its activities, branches,
/// bars and the first links.
fn summarize_legacy_activity(legacy: &puml_sema::legacy_activity::LegacyActivityDiagram) -> String {
    use puml_sema::legacy_activity::LegacyNodeKind;
    let count = |kind: LegacyNodeKind| legacy.nodes.iter().filter(|n| n.kind == kind).count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let (branches, bars) = (count(LegacyNodeKind::Branch), count(LegacyNodeKind::Bar));
    let mut out = format!(
        "A legacy activity diagram: {}, {}, {}, {}",
        plural(count(LegacyNodeKind::Action), "activity").replace("activitys", "activities"),
        plural(branches, "branch").replace("branchs", "branches"),
        plural(bars, "synchronisation bar"),
        plural(legacy.links.len(), "link")
    );
    let name = |i: usize| {
        let node = &legacy.nodes[i];
        match node.kind {
            LegacyNodeKind::Start => "(*) (start)".to_string(),
            LegacyNodeKind::End => "(*) (end)".to_string(),
            LegacyNodeKind::Branch => "a branch".to_string(),
            LegacyNodeKind::Bar => format!("==={}===", node.code),
            LegacyNodeKind::Action => node.display.replace("\\n", " "),
        }
    };
    const SHOWN: usize = 12;
    let shown: Vec<String> = legacy
        .links
        .iter()
        .take(SHOWN)
        .map(|link| match (&link.label, &link.head_label) {
            (Some(label), _) | (None, Some(label)) => format!("{} → {} ({label})", name(link.from), name(link.to)),
            (None, None) => format!("{} → {}", name(link.from), name(link.to)),
        })
        .collect();
    if !shown.is_empty() {
        out.push_str(": ");
        out.push_str(&shown.join(", "));
        if legacy.links.len() > SHOWN {
            out.push_str(", …");
        }
    }
    out.push('.');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use puml_sema::model::*;

    #[test]
    fn a_legacy_activity_diagram_is_explained_by_its_links() {
        let text =
            "@startuml\n(*) --> \"First\"\nif \"ok\" then\n-->[yes] \"Second\"\nendif\n\"Second\" --> (*)\n@enduml\n";
        let explanation = explain(text);
        assert_eq!(
            explanation.summary,
            "A legacy activity diagram: 2 activities, 1 branch, 0 synchronisation bars, 4 links: (*) (start) → First, First → a branch (ok), a branch → Second (yes), Second → (*) (end)."
        );
    }
    use puml_syntax::TextSize;

    fn participant(code: &str, kind: ParticipantKind, declared: bool) -> Participant {
        Participant {
            kind,
            code: code.to_string(),
            name: code.to_string(),
            alias: None,
            display: code.to_string(),
            order: None,
            stereotype: None,
            color: None,
            url: None,
            declared,
            in_box: None,
            created: false,
            destroyed: false,
        }
    }

    fn message(from: u32, to: u32, label: &str, line: LineStyle) -> Event {
        Event::Message(Message {
            from: Endpoint::Participant {
                id: ParticipantId(from),
            },
            to: Endpoint::Participant { id: ParticipantId(to) },
            arrow: Arrow {
                tail_head: Head::NONE,
                head: Head::FILLED,
                line,
                color: None,
                bold: false,
                written_reversed: false,
            },
            label: label.into(),
            number: None,
            slant: None,
            parallel: false,
            anchor: None,
            is_return: false,
        })
    }

    /// A hand-built analysis; event `i` sits on line `i + 3`.
    fn analysis(participants: Vec<Participant>, events: Vec<Event>) -> (String, Analysis) {
        let mut text = String::from("@startuml\nx\n");
        let mut ranges = Vec::new();
        for _ in &events {
            let start = TextSize::of(&text);
            text.push_str("stmt\n");
            ranges.push(TextRange::at(start, TextSize::from(4)));
        }
        let participant_ranges = vec![TextRange::at(TextSize::from(10), TextSize::from(1)); participants.len()];
        let analysis = Analysis {
            document: Document {
                diagrams: vec![Diagram {
                    participants,
                    events: events.into(),
                    ..Diagram::default()
                }],
            }
            .into(),
            source_map: SourceMap {
                diagrams: vec![DiagramSourceMap {
                    events: ranges,
                    participants: participant_ranges,
                    ..DiagramSourceMap::default()
                }],
            },
            diagnostics: Vec::new(),
            included_files: Vec::new(),
            preprocessed: false,
        };
        (text, analysis)
    }

    #[test]
    fn explains_a_hand_built_model() {
        let (text, analysis) = analysis(
            vec![
                participant("User", ParticipantKind::Actor, true),
                participant("API", ParticipantKind::Participant, true),
                participant("DB", ParticipantKind::Database, false),
            ],
            vec![
                message(0, 1, "login", LineStyle::Solid),
                Event::GroupStart(Group {
                    kind: GroupKind::Alt,
                    label: Some("known user".into()),
                    secondary: None,
                    label_trailing_blanks: 0,
                    frame_color: None,
                    color: None,
                }),
                message(1, 2, "SELECT", LineStyle::Solid),
                message(2, 1, "row", LineStyle::Dotted),
                Event::GroupElse {
                    label: Some("unknown".into()),
                    color: None,
                },
                message(1, 0, "denied", LineStyle::Dotted),
                Event::GroupEnd,
                Event::Note(Note {
                    position: NotePosition::Over {
                        first: ParticipantId(0),
                        last: Some(ParticipantId(1)),
                    },
                    shape: NoteShape::Note,
                    text: "done".into(),
                    color: None,
                    aligned: false,
                    parallel: false,
                }),
            ],
        );
        let explanation = explain_analysis(&text, &analysis);
        expect_test::expect![[r#"
            User sends to API; API sends to DB and replies to User; DB replies to API. 4 messages, one alt with 2 branches and 3 participants.

            Participants:
              actor "User" (declared line 2): sends 1, receives 1
              participant "API" (declared line 2): sends 2, receives 2
              database "DB" (implicit): sends 1, receives 1

            Flow:
              1. User -> API (sync): login  (line 3)
                2. API -> DB (sync): SELECT  (line 5)  [alt known user]
                3. DB -> API (reply): row  (line 6)  [alt known user]
                4. API -> User (reply): denied  (line 8)  [alt else unknown]

            Groups:
              alt at line 4: known user (2 messages) | unknown (1 message)

            Notes:
              line 10 over User, API: done
        "#]]
        .assert_eq(&render_text(&explanation));
        assert_eq!(explanation.flow[3].group_path, ["alt else unknown"]);
    }

    #[test]
    fn empty_document() {
        let explanation = explain_analysis(
            "",
            &Analysis {
                document: Document::default().into(),
                source_map: SourceMap::default(),
                diagnostics: Vec::new(),
                included_files: Vec::new(),
                preprocessed: false,
            },
        );
        assert_eq!(explanation.summary, "The file contains no diagram.");
    }

    #[test]
    fn description_diagrams_list_elements_links_and_containers() {
        let source =
            "@startuml\nactor User\nrectangle Shop {\n  (Buy) as B\n}\nUser --> B : starts\n[Cart] ..> B\n@enduml\n";
        let explanation = explain(source);
        assert_eq!(
            explanation.summary,
            "A description diagram (use case, component, deployment) with 3 elements and 2 links in 1 container."
        );
        let summary = explanation.class.expect("a description summary");
        let elements: Vec<(String, String, u32)> = summary
            .elements
            .iter()
            .map(|e| (e.keyword.clone(), e.name.clone(), e.line))
            .collect();
        assert_eq!(
            elements,
            [
                ("actor".to_string(), "User".to_string(), 2),
                ("usecase".to_string(), "Shop.B".to_string(), 4),
                ("component".to_string(), "Cart".to_string(), 7),
            ]
        );
        let relations: Vec<String> = summary
            .relations
            .iter()
            .map(|r| format!("{} {} {}", r.from, r.kind, r.to))
            .collect();
        assert_eq!(relations, ["User association Shop.B", "Cart dependency Shop.B"]);
    }
}
