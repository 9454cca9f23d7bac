//! The structure of activity diagrams for editors: each diagram's range,
//! its swimlanes, its blocks (`if`, `switch`, `while`, `repeat`, `fork`,
//! `split`, partitions and groups) with their opening and closing
//! statements and their nesting, and the steps written over several lines
//! (multi-line actions, block notes). Read from the activity model and its
//! source map, so it agrees with the parser: a stray closer is no block end,
//! a block never closed has no closer.
//!
//! The nesting is a flat list with parent indices (built with an explicit
//! stack), so no depth of input can overflow a walk over it.

use puml_sema::activity::{ContainerKind, Step};
use puml_sema::Analysis;
use puml_syntax::{TextRange, TextSize};

/// What kind of block opens with a statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActivityBlockKind {
    If,
    Switch,
    While,
    Repeat,
    Fork,
    Split,
    Container(ContainerKind),
}

impl ActivityBlockKind {
    /// The keyword that opens it.
    pub fn keyword(self) -> &'static str {
        match self {
            ActivityBlockKind::If => "if",
            ActivityBlockKind::Switch => "switch",
            ActivityBlockKind::While => "while",
            ActivityBlockKind::Repeat => "repeat",
            ActivityBlockKind::Fork => "fork",
            ActivityBlockKind::Split => "split",
            ActivityBlockKind::Container(ContainerKind::Partition) => "partition",
            ActivityBlockKind::Container(ContainerKind::Group) => "group",
            ActivityBlockKind::Container(ContainerKind::Package) => "package",
            ActivityBlockKind::Container(ContainerKind::Rectangle) => "rectangle",
            ActivityBlockKind::Container(ContainerKind::Card) => "card",
        }
    }

    /// The statements that may stand between its opener and its closer.
    pub fn middles(self) -> &'static [&'static str] {
        match self {
            ActivityBlockKind::If => &["else", "elseif"],
            ActivityBlockKind::Switch => &["case"],
            ActivityBlockKind::While => &["break"],
            ActivityBlockKind::Repeat => &["backward", "break"],
            ActivityBlockKind::Fork => &["fork again"],
            ActivityBlockKind::Split => &["split again"],
            ActivityBlockKind::Container(_) => &[],
        }
    }
}

/// One block of an activity diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityBlock {
    pub kind: ActivityBlockKind,
    /// The condition (`if`, `switch`, `while`, `repeat while`) or the name
    /// (partitions, groups); empty when it has none.
    pub label: String,
    /// The opening statement.
    pub opener: TextRange,
    /// The closing statement; `None` when the block is never closed
    /// (PlantUML closes it at the end of the diagram).
    pub closer: Option<TextRange>,
    /// What closes it as written: `endif`, `end fork`, `}`, `end group`…
    pub closer_text: &'static str,
    /// The enclosing block (an index into the same list, always smaller).
    pub parent: Option<usize>,
    /// Enclosing blocks (0 at the top).
    pub depth: usize,
}

/// A swimlane: its name as shown, the code `|code|` lines use, and where
/// it was first declared or used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityLane {
    pub name: String,
    pub code: String,
    pub range: TextRange,
}

/// The editor's view of one activity diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityOutline {
    /// Which diagram of the file (0-based).
    pub diagram_index: usize,
    /// The whole `@startuml … @enduml` range.
    pub range: TextRange,
    pub lanes: Vec<ActivityLane>,
    /// In order of their openers; a block's parent comes before it.
    pub blocks: Vec<ActivityBlock>,
    /// Actions, `backward` actions and notes written over several lines.
    pub multiline_steps: Vec<TextRange>,
}

impl ActivityOutline {
    /// Whether `offset` lies in this diagram.
    pub fn contains(&self, offset: TextSize) -> bool {
        self.range.start() <= offset && offset <= self.range.end()
    }

    /// The blocks open at `offset` (opened by a statement that ends before
    /// it, not closed by one that starts before it), innermost last.
    pub fn open_blocks_at(&self, offset: TextSize) -> Vec<&ActivityBlock> {
        let innermost = self
            .blocks
            .iter()
            .enumerate()
            .rev()
            .find(|(_, b)| is_open_at(b, offset))
            .map(|(i, _)| i);
        let mut chain = Vec::new();
        let mut at = innermost;
        while let Some(index) = at {
            let Some(block) = self.blocks.get(index) else {
                break;
            };
            chain.push(block);
            at = block.parent;
        }
        chain.reverse();
        chain
    }
}

fn is_open_at(block: &ActivityBlock, offset: TextSize) -> bool {
    block.opener.end() <= offset && block.closer.is_none_or(|c| offset <= c.start())
}

/// The outline of every activity diagram of an analysis of `source`.
pub fn activity_outlines(source: &str, analysis: &Analysis) -> Vec<ActivityOutline> {
    let mut outlines = Vec::new();
    for (diagram_index, (diagram, map)) in analysis
        .document
        .diagrams
        .iter()
        .zip(&analysis.source_map.diagrams)
        .enumerate()
    {
        let (Some(activity), Some(steps_map)) = (diagram.activity.as_deref(), map.activity.as_ref()) else {
            continue;
        };
        let lanes = activity
            .lanes
            .iter()
            .enumerate()
            .map(|(i, lane)| ActivityLane {
                name: lane.display.clone(),
                code: lane.code.clone(),
                range: steps_map.lanes.get(i).copied().unwrap_or(map.range),
            })
            .collect();
        let mut blocks: Vec<ActivityBlock> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut multiline_steps = Vec::new();
        for (step, range) in activity.steps.iter().zip(&steps_map.steps) {
            let written = source.get(usize::from(range.start())..usize::from(range.end()));
            let opened = match step {
                Step::IfStart { condition, .. } => Some((ActivityBlockKind::If, condition.clone(), "endif")),
                Step::SwitchStart { condition } => Some((ActivityBlockKind::Switch, condition.clone(), "endswitch")),
                Step::WhileStart { condition, .. } => Some((ActivityBlockKind::While, condition.clone(), "endwhile")),
                Step::RepeatStart { label } => Some((
                    ActivityBlockKind::Repeat,
                    label.clone().unwrap_or_default(),
                    "repeat while",
                )),
                Step::ForkStart => Some((ActivityBlockKind::Fork, String::new(), "end fork")),
                Step::SplitStart => Some((ActivityBlockKind::Split, String::new(), "end split")),
                Step::ContainerStart { kind, name, .. } => {
                    let braced = written.is_some_and(|w| w.contains('{'));
                    let closer = if braced { "}" } else { "end group" };
                    Some((ActivityBlockKind::Container(*kind), name.clone(), closer))
                }
                _ => None,
            };
            if let Some((kind, label, closer_text)) = opened {
                let parent = open.last().copied();
                blocks.push(ActivityBlock {
                    kind,
                    label,
                    opener: *range,
                    closer: None,
                    closer_text,
                    parent,
                    depth: open.len(),
                });
                open.push(blocks.len() - 1);
                continue;
            }
            if step.closes_block() {
                // Lowering adds a closer only when it closes the innermost
                // open block, so the pairing is the model's own.
                if let Some(block) = open.pop().and_then(|i| blocks.get_mut(i)) {
                    block.closer = Some(*range);
                    if let Step::RepeatWhile {
                        condition: Some(condition),
                        ..
                    } = step
                    {
                        if block.label.is_empty() {
                            block.label = condition.clone();
                        }
                    }
                    if let Step::EndFork { merge: true, .. } = step {
                        block.closer_text = "end merge";
                    }
                }
                continue;
            }
            let spans_lines = matches!(step, Step::Action(_) | Step::Backward(_) | Step::Note(_))
                && written.is_some_and(|w| w.trim_end().contains('\n'));
            if spans_lines {
                multiline_steps.push(*range);
            }
        }
        outlines.push(ActivityOutline {
            diagram_index,
            range: map.range,
            lanes,
            blocks,
            multiline_steps,
        });
    }
    outlines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(source: &str) -> Vec<ActivityOutline> {
        let analysis = puml_sema::analyze(source, &Default::default(), &puml_sema::NoIncludes);
        activity_outlines(source, &analysis)
    }

    fn lines(source: &str, range: TextRange) -> (usize, usize) {
        let line = |at: TextSize| source[..usize::from(at)].matches('\n').count();
        (line(range.start()), line(range.end()))
    }

    #[test]
    fn blocks_nest_and_pair_with_their_closers() {
        let source = "@startuml\n|Shop|\nstart\npartition Billing {\nif (paid?) then (yes)\n  while (more?)\n    :Pack\n    item;\n  endwhile\nelse (no)\n  fork\n    :A;\n  fork again\n    :B;\n  end merge\nendif\n}\n|Courier|\n:Ship;\nstop\n@enduml\n";
        let outlines = outline(source);
        assert_eq!(outlines.len(), 1);
        let outline = &outlines[0];
        let lanes: Vec<(&str, usize)> = outline
            .lanes
            .iter()
            .map(|l| (l.name.as_str(), lines(source, l.range).0))
            .collect();
        assert_eq!(lanes, vec![("Shop", 1), ("Courier", 17)]);
        type Shown<'a> = (&'a str, &'a str, (usize, usize), Option<usize>, &'a str);
        let blocks: Vec<Shown> = outline
            .blocks
            .iter()
            .map(|b| {
                (
                    b.kind.keyword(),
                    b.label.as_str(),
                    (lines(source, b.opener).0, b.closer.map_or(0, |c| lines(source, c).0)),
                    b.parent,
                    b.closer_text,
                )
            })
            .collect();
        assert_eq!(
            blocks,
            vec![
                ("partition", "Billing", (3, 16), None, "}"),
                ("if", "paid?", (4, 15), Some(0), "endif"),
                ("while", "more?", (5, 8), Some(1), "endwhile"),
                ("fork", "", (10, 14), Some(1), "end merge"),
            ]
        );
        let multiline: Vec<(usize, usize)> = outline.multiline_steps.iter().map(|r| lines(source, *r)).collect();
        assert_eq!(multiline, vec![(6, 7)]);
        let at = TextSize::from(source.find("  fork again").expect("fork again") as u32);
        let open: Vec<&str> = outline.open_blocks_at(at).iter().map(|b| b.kind.keyword()).collect();
        assert_eq!(open, vec!["partition", "if", "fork"]);
    }

    #[test]
    fn unclosed_blocks_and_stray_closers() {
        let source = "@startuml\nstart\nendwhile\nif (a) then\n  repeat\n    :x;\n";
        let outline = &outline(source)[0];
        let blocks: Vec<(&str, bool)> = outline
            .blocks
            .iter()
            .map(|b| (b.kind.keyword(), b.closer.is_some()))
            .collect();
        assert_eq!(blocks, vec![("if", false), ("repeat", false)]);
        let end = TextSize::from(source.len() as u32);
        let open: Vec<&str> = outline.open_blocks_at(end).iter().map(|b| b.kind.keyword()).collect();
        assert_eq!(open, vec!["if", "repeat"]);
    }

    #[test]
    fn sequence_diagrams_have_no_outline() {
        assert!(outline("@startuml\nA -> B\nalt x\nend\n@enduml\n").is_empty());
    }
}
