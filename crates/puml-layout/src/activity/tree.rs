//! Reading the model's flat steps into a tree of nodes (an explicit stack).

use super::*;

#[derive(Debug, Default)]
pub(super) struct Seq<'a> {
    pub(super) nodes: Vec<Node<'a>>,
    /// An arrow written after the last node: it styles the edge leaving the sequence.
    pub(super) tail: Option<&'a ArrowStyle>,
}

#[derive(Debug)]
pub(super) struct Node<'a> {
    pub(super) kind: Kind<'a>,
    pub(super) notes: Vec<&'a ActivityNote>,
    /// The arrow written before this node: it styles the edge into it.
    pub(super) arrow: Option<&'a ArrowStyle>,
    pub(super) lane: Option<LaneId>,
    /// The lane current where the block closes (`repeat while` draws its
    /// condition there).
    pub(super) end_lane: Option<LaneId>,
}

/// The labels of a `repeat … repeat while (c) is (a) not (b) -> back` loop.
#[derive(Debug, Clone, Copy)]
pub(super) struct RepeatLabels<'a> {
    pub(super) is: Option<&'a str>,
    pub(super) not: Option<&'a str>,
    pub(super) back: Option<&'a str>,
}

#[derive(Debug)]
pub(super) enum Kind<'a> {
    Start,
    Stop,
    End,
    Kill,
    Detach,
    Break,
    Action(&'a Action),
    Connector(&'a str, Option<&'a str>),
    /// A note with nothing before it to attach to.
    LoneNote,
    If {
        branches: Vec<(&'a str, Option<&'a str>, Seq<'a>)>,
        otherwise: Option<(Option<&'a str>, Seq<'a>)>,
        color: Option<&'a str>,
    },
    Switch {
        condition: &'a str,
        cases: Vec<(CaseLabel<'a>, Seq<'a>)>,
    },
    While {
        condition: &'a str,
        label: Option<&'a str>,
        body: Seq<'a>,
        end_label: Option<&'a str>,
    },
    Repeat {
        label: Option<&'a str>,
        body: Seq<'a>,
        backward: Option<(&'a Action, Vec<&'a ActivityNote>)>,
        condition: Option<&'a str>,
        labels: RepeatLabels<'a>,
        /// Whether `repeat while` closes the loop (PlantUML draws an
        /// unclosed one at the diagram's end without a condition).
        closed: bool,
    },
    Fork {
        branches: Vec<Seq<'a>>,
        merge: bool,
        label: Option<&'a str>,
    },
    Split {
        branches: Vec<Seq<'a>>,
    },
    Container {
        kind: ContainerKind,
        name: &'a str,
        color: Option<&'a str>,
        body: Seq<'a>,
    },
}

/// A `case` label and the spaces around it inside its parentheses.
pub(super) type CaseLabel<'a> = (&'a str, (usize, usize));

/// A block being read: what is known of it, and the sequence being filled.
pub(super) enum Open<'a> {
    If {
        branches: Vec<(&'a str, Option<&'a str>, Seq<'a>)>,
        pending: (&'a str, Option<&'a str>),
        in_else: Option<Option<&'a str>>,
        color: Option<&'a str>,
    },
    Switch {
        condition: &'a str,
        cases: Vec<(CaseLabel<'a>, Seq<'a>)>,
        pending: Option<CaseLabel<'a>>,
    },
    While {
        condition: &'a str,
        label: Option<&'a str>,
    },
    Repeat {
        label: Option<&'a str>,
        backward: Option<(&'a Action, Vec<&'a ActivityNote>)>,
    },
    Fork {
        branches: Vec<Seq<'a>>,
    },
    Split {
        branches: Vec<Seq<'a>>,
    },
    Container {
        kind: ContainerKind,
        name: &'a str,
        color: Option<&'a str>,
    },
}

pub(super) struct Builder<'a> {
    /// Open blocks, innermost last, each with the sequence it interrupted.
    pub(super) stack: Vec<(Open<'a>, Seq<'a>, Option<LaneId>, Option<&'a ArrowStyle>)>,
    pub(super) current: Seq<'a>,
    pub(super) pending_arrow: Option<&'a ArrowStyle>,
    pub(super) lane: Option<LaneId>,
    /// Blocks opened beyond `MAX_DEPTH`, read as plain sequences.
    pub(super) flattened: usize,
    /// The step before was `backward :…;` (or a note attached to it).
    pub(super) after_backward: bool,
}

impl<'a> Builder<'a> {
    pub(super) fn push(&mut self, kind: Kind<'a>) {
        let arrow = self.pending_arrow.take();
        self.current.nodes.push(Node {
            kind,
            notes: Vec::new(),
            arrow,
            lane: self.lane,
            end_lane: self.lane,
        });
    }

    fn take_seq(&mut self) -> Seq<'a> {
        let mut seq = std::mem::take(&mut self.current);
        seq.tail = self.pending_arrow.take();
        seq
    }

    pub(super) fn open(&mut self, open: Open<'a>) {
        let parent = std::mem::take(&mut self.current);
        let arrow = self.pending_arrow.take();
        self.stack.push((open, parent, self.lane, arrow));
    }

    /// Closes the innermost block into a node of its parent sequence.
    pub(super) fn close(&mut self, end: Option<&'a Step>) {
        let Some((open, parent, lane, arrow)) = self.stack.pop() else {
            return;
        };
        let body = self.take_seq();
        let kind = match open {
            Open::If {
                mut branches,
                pending,
                in_else,
                color,
            } => {
                let otherwise = match in_else {
                    Some(label) => Some((label, body)),
                    None => {
                        branches.push((pending.0, pending.1, body));
                        None
                    }
                };
                Kind::If {
                    branches,
                    otherwise,
                    color,
                }
            }
            Open::Switch {
                condition,
                mut cases,
                pending,
            } => {
                if let Some(label) = pending {
                    cases.push((label, body));
                }
                Kind::Switch { condition, cases }
            }
            Open::While { condition, label } => Kind::While {
                condition,
                label,
                body,
                end_label: match end {
                    Some(Step::EndWhile { label }) => label.as_deref(),
                    _ => None,
                },
            },
            Open::Repeat { label, backward } => {
                let closed = matches!(end, Some(Step::RepeatWhile { .. }));
                let (condition, is_label, not_label, back_label) = match end {
                    Some(Step::RepeatWhile {
                        condition,
                        is_label,
                        not_label,
                        back_label,
                    }) => (
                        condition.as_deref(),
                        is_label.as_deref(),
                        not_label.as_deref(),
                        back_label.as_deref(),
                    ),
                    _ => (None, None, None, None),
                };
                Kind::Repeat {
                    label,
                    body,
                    backward,
                    condition,
                    labels: RepeatLabels {
                        is: is_label,
                        not: not_label,
                        back: back_label,
                    },
                    closed,
                }
            }
            Open::Fork { mut branches } => {
                branches.push(body);
                let (merge, label) = match end {
                    Some(Step::EndFork { merge, label }) => (*merge, label.as_deref()),
                    _ => (false, None),
                };
                Kind::Fork { branches, merge, label }
            }
            Open::Split { mut branches } => {
                branches.push(body);
                Kind::Split { branches }
            }
            Open::Container { kind, name, color } => Kind::Container {
                kind,
                name,
                color,
                body,
            },
        };
        self.current = parent;
        self.current.nodes.push(Node {
            kind,
            notes: Vec::new(),
            arrow,
            lane,
            end_lane: self.lane,
        });
    }

    fn top_is(&self, test: impl Fn(&Open<'a>) -> bool) -> bool {
        self.stack.last().is_some_and(|(open, ..)| test(open))
    }
}

/// Rebuilds the nesting of the flat step list (iteratively).
pub(super) fn build_tree(activity: &ActivityDiagram) -> Seq<'_> {
    let mut b = Builder {
        stack: Vec::new(),
        current: Seq::default(),
        pending_arrow: None,
        lane: None,
        flattened: 0,
        after_backward: false,
    };
    for step in &activity.steps {
        let opens = step.opens_block();
        let closes = step.closes_block();
        let middle = step.divides_block();
        if b.flattened > 0 || (opens && b.stack.len() >= MAX_DEPTH) {
            if opens {
                b.flattened += 1;
                continue;
            }
            if closes {
                b.flattened -= 1;
                continue;
            }
            if middle {
                continue;
            }
        }
        let after_backward = b.after_backward;
        b.after_backward = matches!(step, Step::Backward(_)) || (after_backward && matches!(step, Step::Note(_)));
        match step {
            Step::Start => b.push(Kind::Start),
            Step::Stop => b.push(Kind::Stop),
            Step::End => b.push(Kind::End),
            Step::Kill => b.push(Kind::Kill),
            Step::Detach => b.push(Kind::Detach),
            Step::Break => b.push(Kind::Break),
            Step::Action(action) => b.push(Kind::Action(action)),
            Step::Connector { name, color } => b.push(Kind::Connector(name, color.as_deref())),
            Step::Arrow(style) => b.pending_arrow = Some(style),
            // A note right after `backward :…;` belongs to that action.
            Step::Note(note) if b.after_backward => {
                if let Some((
                    Open::Repeat {
                        backward: Some((_, notes)),
                        ..
                    },
                    ..,
                )) = b.stack.last_mut()
                {
                    notes.push(note);
                }
            }
            Step::Note(note) => match note_target(&mut b.current) {
                Some(node) => node.notes.push(note),
                None => {
                    b.push(Kind::LoneNote);
                    if let Some(node) = b.current.nodes.last_mut() {
                        node.notes.push(note);
                    }
                }
            },
            Step::Lane(id) => b.lane = Some(*id),
            Step::IfStart {
                condition,
                then_label,
                color,
            } => b.open(Open::If {
                branches: Vec::new(),
                pending: (condition, then_label.as_deref()),
                in_else: None,
                color: color.as_deref(),
            }),
            Step::ElseIf { condition, then_label } => {
                if b.top_is(|o| matches!(o, Open::If { in_else: None, .. })) {
                    let body = b.take_seq();
                    if let Some((Open::If { branches, pending, .. }, ..)) = b.stack.last_mut() {
                        branches.push((pending.0, pending.1, body));
                        *pending = (condition, then_label.as_deref());
                    }
                }
            }
            Step::Else { label } => {
                if b.top_is(|o| matches!(o, Open::If { in_else: None, .. })) {
                    let body = b.take_seq();
                    if let Some((
                        Open::If {
                            branches,
                            pending,
                            in_else,
                            ..
                        },
                        ..,
                    )) = b.stack.last_mut()
                    {
                        branches.push((pending.0, pending.1, body));
                        *in_else = Some(label.as_deref());
                    }
                }
            }
            Step::SwitchStart { condition } => b.open(Open::Switch {
                condition,
                cases: Vec::new(),
                pending: None,
            }),
            Step::Case { label, spaces } => {
                let label = (label.as_str(), *spaces);
                if b.top_is(|o| matches!(o, Open::Switch { .. })) {
                    let body = b.take_seq();
                    if let Some((Open::Switch { cases, pending, .. }, ..)) = b.stack.last_mut() {
                        if let Some(prev) = pending.replace(label) {
                            cases.push((prev, body));
                        }
                    }
                }
            }
            Step::WhileStart { condition, label } => b.open(Open::While {
                condition,
                label: label.as_deref(),
            }),
            Step::RepeatStart { label } => b.open(Open::Repeat {
                label: label.as_deref(),
                backward: None,
            }),
            Step::Backward(action) => {
                if let Some((Open::Repeat { backward, .. }, ..)) = b.stack.last_mut() {
                    *backward = Some((action, Vec::new()));
                }
            }
            Step::ForkStart => b.open(Open::Fork { branches: Vec::new() }),
            Step::SplitStart => b.open(Open::Split { branches: Vec::new() }),
            Step::ForkAgain | Step::SplitAgain => {
                if b.top_is(|o| matches!(o, Open::Fork { .. } | Open::Split { .. })) {
                    let body = b.take_seq();
                    if let Some((Open::Fork { branches } | Open::Split { branches }, ..)) = b.stack.last_mut() {
                        branches.push(body);
                    }
                }
            }
            Step::ContainerStart { kind, name, color } => b.open(Open::Container {
                kind: *kind,
                name,
                color: color.as_deref(),
            }),
            Step::EndIf => {
                if b.top_is(|o| matches!(o, Open::If { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndSwitch => {
                if b.top_is(|o| matches!(o, Open::Switch { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndWhile { .. } => {
                if b.top_is(|o| matches!(o, Open::While { .. })) {
                    b.close(Some(step));
                }
            }
            Step::RepeatWhile { .. } => {
                if b.top_is(|o| matches!(o, Open::Repeat { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndFork { .. } => {
                if b.top_is(|o| matches!(o, Open::Fork { .. })) {
                    b.close(Some(step));
                }
            }
            Step::EndSplit => {
                if b.top_is(|o| matches!(o, Open::Split { .. })) {
                    b.close(Some(step));
                }
            }
            Step::ContainerEnd => {
                if b.top_is(|o| matches!(o, Open::Container { .. })) {
                    b.close(Some(step));
                }
            }
        }
    }
    // Blocks left open at the end are closed where the diagram ends.
    while !b.stack.is_empty() {
        b.close(None);
    }
    let mut root = std::mem::take(&mut b.current);
    root.tail = b.pending_arrow.take();
    root
}

/// The node a note written last in `seq` belongs to: the last node, or,
/// after a partition (or any container) closed by `}`, the last step inside
/// it, so PlantUML draws the note beside that step, inside the frame (probes
/// `note_after_container_*`; `btldr-bootloader` of the wild set).
fn note_target<'n, 'a>(mut seq: &'n mut Seq<'a>) -> Option<&'n mut Node<'a>> {
    // Each turn goes one container deeper: bounded by the tree's depth.
    loop {
        let into_body = matches!(
            seq.nodes.last(),
            Some(Node { kind: Kind::Container { body, .. }, .. }) if !body.nodes.is_empty()
        );
        if !into_body {
            return seq.nodes.last_mut();
        }
        seq = match seq.nodes.last_mut() {
            Some(Node {
                kind: Kind::Container { body, .. },
                ..
            }) => body,
            _ => return None,
        };
    }
}
