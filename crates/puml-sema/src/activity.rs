//! The model of an activity diagram (PlantUML's "new" activity syntax:
//! `start`, `:action;`, `if (…) then`, swimlanes `|Lane|`, …).
//!
//! Like the sequence model it holds **no positions** (an edit inside a
//! comment leaves it equal, so salsa stops there) and it is a **flat list**
//! of steps in source order: blocks are bracketed by their opening, middle
//! and closing steps (`IfStart`/`ElseIf`/`Else`/`EndIf`, …), so every walk
//! over it is iterative and no nesting depth can overflow a stack. The
//! layout and the workflow converter rebuild the nesting with an explicit
//! stack. `ActivitySourceMap::steps[i]` is the source range of `steps[i]`.

use text_size::TextRange;

#[cfg(feature = "serde")]
use serde::Serialize;

/// One activity diagram (`@startuml … @enduml` block read as activity).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ActivityDiagram {
    /// Swimlanes in order of first appearance (declaration or use).
    pub lanes: Vec<Swimlane>,
    pub steps: Vec<Step>,
    /// The colours written before actions in the deprecated form
    /// (`#color:text…;`), in source order: PlantUML 1.2026.8 draws such an
    /// action uncoloured and prints a notice for each one above the diagram.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub deprecated_action_colors: Vec<String>,
    /// PlantUML's notices above the diagram, each once, in the order first
    /// met: the deprecated action colours' and those for a container
    /// opened without `{` or closed with `end group` (probes
    /// `group_*` in `test-data/activity-probes`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub deprecation_notices: Vec<String>,
}

/// Index into `ActivityDiagram::lanes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct LaneId(pub u32);

impl LaneId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Swimlane {
    /// The identifier used in `|code|` lines: the alias if there is one.
    pub code: String,
    /// What the header shows (`|#color|alias| Display` → `Display`).
    pub display: String,
    pub color: Option<String>,
}

/// The shape an action's closing character gives it (`:text;` is the
/// rounded box; `|`, `<`, `>`, `/`, `]`, `}` are SDL shapes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum ActionShape {
    /// `;`
    Plain,
    /// `|`
    Box,
    /// `<`
    Receive,
    /// `>`
    Send,
    /// `/`
    Slant,
    /// `]`
    Square,
    /// `}`
    Brace,
}

impl ActionShape {
    pub fn from_terminator(c: char) -> Option<ActionShape> {
        Some(match c {
            ';' => ActionShape::Plain,
            '|' => ActionShape::Box,
            '<' => ActionShape::Receive,
            '>' => ActionShape::Send,
            '/' => ActionShape::Slant,
            ']' => ActionShape::Square,
            '}' => ActionShape::Brace,
            _ => return None,
        })
    }
    pub fn terminator(self) -> char {
        match self {
            ActionShape::Plain => ';',
            ActionShape::Box => '|',
            ActionShape::Receive => '<',
            ActionShape::Send => '>',
            ActionShape::Slant => '/',
            ActionShape::Square => ']',
            ActionShape::Brace => '}',
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Action {
    /// The text between `:` and the terminator, lines joined with `\n`
    /// (creole left to layout).
    pub text: String,
    pub shape: ActionShape,
    /// `#color:text;`
    pub color: Option<String>,
    /// `:text; <<stereo>>`
    pub stereotype: Option<String>,
    /// The swimlane the action is drawn in (the last `|Lane|` line before it).
    pub lane: Option<LaneId>,
}

/// `->`, `-> label;`, `-[#red,dashed]-> label;` between two steps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ArrowStyle {
    pub label: Option<String>,
    pub color: Option<String>,
    pub dashed: bool,
    pub dotted: bool,
    pub bold: bool,
    pub hidden: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum ActivityNotePosition {
    Left,
    Right,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ActivityNote {
    pub position: ActivityNotePosition,
    pub floating: bool,
    /// Body lines joined with `\n`, each line's common indentation removed
    /// (YAML annotations of seed 001 live here, verbatim otherwise).
    pub text: String,
    pub color: Option<String>,
}

/// `partition`, `group`, `package`, `rectangle`, `card`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum ContainerKind {
    Partition,
    Group,
    Package,
    Rectangle,
    Card,
}

/// The label of a branch: `then (yes)`, `else (no)`, `is (x)`, `not (x)`.
pub type BranchLabel = Option<String>;

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub enum Step {
    Start,
    Stop,
    End,
    Kill,
    Detach,
    Action(Action),
    /// An arrow written between two steps; it styles the edge that follows.
    Arrow(ArrowStyle),
    /// `note left|right` attached to the previous step (or floating).
    Note(ActivityNote),
    /// `|Lane|`: the following steps are in this swimlane.
    Lane(LaneId),
    /// `(A)` connector.
    Connector {
        name: String,
        color: Option<String>,
    },
    /// `if (cond) then (label)`; `equals` forms keep `cond` as written.
    IfStart {
        condition: String,
        then_label: BranchLabel,
        color: Option<String>,
    },
    /// `elseif (cond) then (label)`; `else if` is read the same way.
    ElseIf {
        condition: String,
        then_label: BranchLabel,
    },
    Else {
        label: BranchLabel,
    },
    EndIf,
    SwitchStart {
        condition: String,
    },
    Case {
        label: String,
        /// The spaces around the label inside its parentheses (`case ( A )`):
        /// PlantUML draws them, which moves and widens the case.
        spaces: (usize, usize),
    },
    EndSwitch,
    /// `while (cond) is (label)`.
    WhileStart {
        condition: String,
        label: BranchLabel,
    },
    /// `endwhile (label)`.
    EndWhile {
        label: BranchLabel,
    },
    RepeatStart {
        label: Option<String>,
    },
    /// `backward :text;` inside a repeat.
    Backward(Action),
    /// `repeat while (cond) is (yes) not (no) -> back`: `back_label` is
    /// the label of the arrow back to the loop's start.
    RepeatWhile {
        condition: Option<String>,
        is_label: BranchLabel,
        not_label: BranchLabel,
        back_label: BranchLabel,
    },
    Break,
    ForkStart,
    ForkAgain,
    /// `end fork` (`merge: false`) or `end merge` (`merge: true`), with
    /// `end fork {label}`.
    EndFork {
        merge: bool,
        label: Option<String>,
    },
    SplitStart,
    SplitAgain,
    EndSplit,
    ContainerStart {
        kind: ContainerKind,
        name: String,
        color: Option<String>,
    },
    ContainerEnd,
}

impl Step {
    /// Whether the step opens a block: `if`, `switch`, `while`, `repeat`,
    /// `fork`, `split` or a container (`partition`, `group`, …).
    pub fn opens_block(&self) -> bool {
        matches!(
            self,
            Step::IfStart { .. }
                | Step::SwitchStart { .. }
                | Step::WhileStart { .. }
                | Step::RepeatStart { .. }
                | Step::ForkStart
                | Step::SplitStart
                | Step::ContainerStart { .. }
        )
    }

    /// Whether the step closes the innermost open block.
    pub fn closes_block(&self) -> bool {
        matches!(
            self,
            Step::EndIf
                | Step::EndSwitch
                | Step::EndWhile { .. }
                | Step::RepeatWhile { .. }
                | Step::EndFork { .. }
                | Step::EndSplit
                | Step::ContainerEnd
        )
    }

    /// Whether the step starts another part of the open block: `elseif`,
    /// `else`, `case`, `fork again`, `split again`, `backward`.
    pub fn divides_block(&self) -> bool {
        matches!(
            self,
            Step::ElseIf { .. }
                | Step::Else { .. }
                | Step::Case { .. }
                | Step::ForkAgain
                | Step::SplitAgain
                | Step::Backward(_)
        )
    }
}

/// Positions of an activity diagram's items in the source.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ActivitySourceMap {
    /// The range of `steps[i]`'s statement (a note's range covers its body
    /// and `end note`).
    pub steps: Vec<TextRange>,
    /// Where each lane was first declared or used.
    pub lanes: Vec<TextRange>,
}
