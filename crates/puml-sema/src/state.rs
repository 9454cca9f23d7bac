//! The model of a state diagram (PlantUML's "state" diagrams): states,
//! pseudo-states (`[*]`, choice, fork, join, history, entry and exit
//! points), composite states with their concurrent regions, transitions
//! and notes. Position-free, like the rest of the model; where each item
//! was written is in [`StateSourceMap`].

#[cfg(feature = "serde")]
use serde::Serialize;

/// An index into [`StateDiagram::states`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct StateId(pub u32);

impl StateId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a state is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub enum StateKind {
    /// A rounded box with its name and description (a composite state when
    /// it has children).
    Normal,
    /// `[*]` as a transition's source: the filled start disc.
    Start,
    /// `[*]` as a transition's target, or `<<end>>`: the bullseye.
    End,
    /// `<<choice>>`: a diamond.
    Choice,
    /// `<<fork>>`: a bar.
    Fork,
    /// `<<join>>`: a bar.
    Join,
    /// `[H]` or `<<history>>`: a circle with `H`.
    History,
    /// `[H*]` or `<<history*>>`: a circle with `H*`.
    DeepHistory,
    /// `<<entryPoint>>`: a small circle on the composite's border.
    EntryPoint,
    /// `<<exitPoint>>`: a small crossed circle on the border.
    ExitPoint,
    /// `<<inputPin>>`, `<<outputPin>>`, `<<expansionInput>>`,
    /// `<<expansionOutput>>`: a small square on the border.
    Pin,
}

impl StateKind {
    /// The kind a stereotype makes a state (`<<choice>>` …), if any.
    pub fn of_stereotype(stereotype: &str) -> Option<StateKind> {
        Some(match stereotype.trim().to_ascii_lowercase().as_str() {
            "choice" => StateKind::Choice,
            "fork" => StateKind::Fork,
            "join" => StateKind::Join,
            "end" => StateKind::End,
            "start" => StateKind::Start,
            "history" => StateKind::History,
            "history*" => StateKind::DeepHistory,
            "entrypoint" => StateKind::EntryPoint,
            "exitpoint" => StateKind::ExitPoint,
            "inputpin" | "outputpin" | "expansioninput" | "expansionoutput" => StateKind::Pin,
            _ => return None,
        })
    }
}

/// One state or pseudo-state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct State {
    /// The name transitions use (`L` of `state "Long" as L`); a
    /// pseudo-state's is `*start*`, `*end*`, `*historical*`, … with its
    /// composite's name after it.
    pub name: String,
    /// The name as drawn (`Long`).
    pub display: String,
    pub kind: StateKind,
    /// The composite state it lies in (`None`: the diagram's top level).
    pub parent: Option<StateId>,
    /// Which concurrent region of its parent it lies in (0: the first).
    pub region: u32,
    /// Description lines (`S : text`, `state S : text`), in order.
    pub description: Vec<String>,
    /// Stereotypes other than the ones that make the kind.
    pub stereotypes: Vec<String>,
    /// `#pink`: the background.
    pub color: Option<String>,
    /// `##[dashed]blue`: the border's colour and style.
    pub line_color: Option<String>,
    pub line_style: Option<String>,
    /// Declared with `{`: a composite state (it may hold no child).
    pub composite: bool,
    /// The separators of its regions, in order (`true`: `||`, side by side).
    pub region_separators: Vec<bool>,
    /// PlantUML's creation number: states, transitions, region separators
    /// and notes are numbered in the order it reads them, which names them
    /// in its SVG (`ent0007`, `lnk7`, `GMN7`).
    pub serial: u32,
    /// Per region separator, the number that names the region after it
    /// (`CONCn`; regions are counted over the diagram in source order).
    pub region_serials: Vec<u32>,
}

/// The direction word of an arrow (`-up->`, `-l->`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// One transition, as written left to right (`B <- A` is stored `A → B`
/// with `head_on_left`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Transition {
    /// The written left end and right end.
    pub from: StateId,
    pub to: StateId,
    /// The arrow points at `from` (`A <- B`).
    pub head_on_left: bool,
    pub label: Option<String>,
    pub direction: Option<Direction>,
    /// How many `-` the arrow has (`->` 1, `-->` 2).
    pub length: u32,
    /// `[#red,dashed]`: the colour.
    pub color: Option<String>,
    pub dashed: bool,
    pub dotted: bool,
    pub bold: bool,
    pub hidden: bool,
    /// PlantUML's creation number (see [`State::serial`]).
    pub serial: u32,
}

/// Where a note is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub enum NoteTarget {
    State {
        state: StateId,
        side: Direction,
    },
    /// `note on link`: the transition before it.
    Transition(u32),
    /// `note "text" as N`.
    Floating {
        alias: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct StateNote {
    pub target: NoteTarget,
    pub text: String,
    pub color: Option<String>,
    /// The composite state it lies in.
    pub parent: Option<StateId>,
    /// PlantUML's creation number (see [`State::serial`]).
    pub serial: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct StateDiagram {
    pub states: Vec<State>,
    pub transitions: Vec<Transition>,
    pub notes: Vec<StateNote>,
    /// `left to right direction`.
    pub left_to_right: bool,
    /// `hide empty description`: a state with no description is drawn
    /// as a plain rounded box with its name.
    pub hide_empty_description: bool,
}

impl StateDiagram {
    /// The children of `parent` (`None`: the top level), in order.
    pub fn children(&self, parent: Option<StateId>) -> impl Iterator<Item = StateId> + '_ {
        self.states
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.parent == parent)
            .map(|(i, _)| StateId(i as u32))
    }
    /// How deep `id` is nested (0: top level), bounded by the state count.
    pub fn depth(&self, id: StateId) -> usize {
        let mut depth = 0;
        let mut at = self.states.get(id.index()).and_then(|s| s.parent);
        while let Some(p) = at {
            depth += 1;
            if depth > self.states.len() {
                break;
            }
            at = self.states.get(p.index()).and_then(|s| s.parent);
        }
        depth
    }
    /// The qualified name PlantUML writes in its SVG: `A.B`, and
    /// `A.CONC1.C` for a state in a composite's second region.
    pub fn qualified_name(&self, id: StateId) -> String {
        let mut parts = Vec::new();
        let mut at = Some(id);
        let mut steps = 0;
        while let Some(current) = at {
            steps += 1;
            if steps > self.states.len() + 1 {
                break;
            }
            let Some(state) = self.states.get(current.index()) else {
                break;
            };
            parts.push(state.name.clone());
            if let Some(parent) = state.parent {
                if state.region > 0 {
                    if let Some(serial) = self
                        .states
                        .get(parent.index())
                        .and_then(|p| p.region_serials.get(state.region as usize - 1))
                    {
                        parts.push(format!("CONC{serial}"));
                    }
                }
            }
            at = state.parent;
        }
        parts.reverse();
        parts.join(".")
    }
}

/// Where the state diagram's items were written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StateSourceMap {
    /// Per state: the statement that first named it.
    pub states: Vec<puml_syntax::TextRange>,
    /// Per state: every occurrence of its name.
    pub state_references: Vec<Vec<puml_syntax::TextRange>>,
    /// Per transition: its statement.
    pub transitions: Vec<puml_syntax::TextRange>,
    /// Per note: its statement.
    pub notes: Vec<puml_syntax::TextRange>,
}
