//! The normalized diagram model. It holds **no positions**: an edit that
//! only moves text (whitespace, comments) leaves the model equal, so salsa
//! stops there and layout/render do not re-run. `SourceMap` links model
//! items back to syntax ranges.
//!
//! Events are a flat list; groups are bracketed by `GroupStart` /
//! `GroupElse` / `GroupEnd`. A flat list keeps every walk iterative, so a
//! 10,000-deep nesting cannot overflow the stack anywhere downstream.

use std::sync::Arc;
use text_size::TextRange;

#[cfg(feature = "serde")]
use serde::Serialize;

/// Index into `Diagram::participants`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ParticipantId(pub u32);

impl ParticipantId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// All diagrams of one file (`@startuml … @enduml` blocks, in order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Document {
    pub diagrams: Vec<Diagram>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Diagram {
    /// `@startuml name` or `@startuml{name.png}`.
    pub name: Option<String>,
    /// In display order (after `order N` is applied, stable otherwise).
    pub participants: Vec<Participant>,
    pub boxes: Vec<ParticipantBox>,
    pub events: Vec<Event>,
    pub title: Option<String>,
    pub header: Option<Decoration>,
    pub footer: Option<Decoration>,
    pub legend: Option<Legend>,
    pub caption: Option<String>,
    pub mainframe: Option<String>,
    pub settings: Settings,
    /// `Some` when PlantUML reads this block as an activity diagram; the
    /// sequence fields above other than the decorations and settings are
    /// then empty.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub activity: Option<Box<crate::activity::ActivityDiagram>>,
    /// `Some` when the block is no sequence diagram but PlantUML reads
    /// every line of it as another diagram type's (it then draws that
    /// type): puml neither checks nor draws it, and the sequence fields
    /// above are a reading PlantUML does not use.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub other_kind: Option<OtherKind>,
}

/// A diagram type PlantUML falls back to when a block is not a sequence
/// diagram and puml does not draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum OtherKind {
    /// A class diagram (links like `A -- B`, `A <|-- B`; `class`, `entity`, …).
    Class,
    /// A description diagram: usecase, component, deployment (`actor`, `usecase`, `A ~> B`, …).
    Description,
    /// A legacy activity diagram (`A -> B -> C`, `(*) --> A`, `--> B`).
    Activity,
    /// A state diagram (`state A`, `[*] --> A`, `A : text`).
    State,
}

impl OtherKind {
    /// The type's name as PlantUML's SVG names it (`data-diagram-type`).
    pub fn plantuml_name(self) -> &'static str {
        match self {
            OtherKind::Class => "CLASS",
            OtherKind::Description => "DESCRIPTION",
            OtherKind::Activity => "ACTIVITY",
            OtherKind::State => "STATE",
        }
    }
    /// In prose: "class", "description (usecase/component)".
    pub fn describe(self) -> &'static str {
        match self {
            OtherKind::Class => "class",
            OtherKind::Description => "description (usecase/component)",
            OtherKind::Activity => "legacy activity",
            OtherKind::State => "state",
        }
    }
}

impl Diagram {
    pub fn participant(&self, id: ParticipantId) -> &Participant {
        &self.participants[id.index()]
    }
    /// Number of pages (`newpage` splits).
    pub fn page_count(&self) -> usize {
        1 + self
            .events
            .iter()
            .filter(|e| matches!(e, Event::NewPage { .. }))
            .count()
    }
    pub fn messages(&self) -> impl Iterator<Item = &Message> {
        self.events.iter().filter_map(|e| match e {
            Event::Message(m) => Some(m),
            _ => None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum ParticipantKind {
    Participant,
    Actor,
    Boundary,
    Control,
    Entity,
    Database,
    Collections,
    Queue,
}

impl ParticipantKind {
    pub const ALL: [ParticipantKind; 8] = [
        ParticipantKind::Participant,
        ParticipantKind::Actor,
        ParticipantKind::Boundary,
        ParticipantKind::Control,
        ParticipantKind::Entity,
        ParticipantKind::Database,
        ParticipantKind::Collections,
        ParticipantKind::Queue,
    ];
    pub fn keyword(self) -> &'static str {
        match self {
            ParticipantKind::Participant => "participant",
            ParticipantKind::Actor => "actor",
            ParticipantKind::Boundary => "boundary",
            ParticipantKind::Control => "control",
            ParticipantKind::Entity => "entity",
            ParticipantKind::Database => "database",
            ParticipantKind::Collections => "collections",
            ParticipantKind::Queue => "queue",
        }
    }
    pub fn from_keyword(word: &str) -> Option<ParticipantKind> {
        ParticipantKind::ALL
            .into_iter()
            .find(|k| k.keyword().eq_ignore_ascii_case(word))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Participant {
    pub kind: ParticipantKind,
    /// The identifier messages use: the alias if there is one, else the name.
    pub code: String,
    /// The name as written (quotes removed); `participant "Long" as L` → `Long`.
    pub name: String,
    pub alias: Option<String>,
    /// What is drawn in the head box (`\n` already turned into line breaks
    /// is left to layout: this is the raw display text).
    pub display: String,
    pub order: Option<i64>,
    pub stereotype: Option<Stereotype>,
    /// Background color as written (`#LightBlue`, `#ff0000`, gradients kept verbatim).
    pub color: Option<String>,
    pub url: Option<String>,
    /// `true` when declared by a participant statement, `false` when it
    /// appeared first in a message, note or activation.
    pub declared: bool,
    /// Index into `Diagram::boxes`.
    pub in_box: Option<usize>,
    /// `create` was used: the head is drawn at the first message to it.
    pub created: bool,
    pub destroyed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Stereotype {
    /// Texts of every `<< … >>` in order.
    pub labels: Vec<String>,
    /// `<< (C,#ADD1B2) label >>`: the spot character and its color.
    pub spot: Option<(char, Option<String>)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ParticipantBox {
    pub title: Option<String>,
    pub color: Option<String>,
    pub participants: Vec<ParticipantId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(tag = "type", rename_all = "snake_case"))]
pub enum Event {
    Message(Message),
    Note(Note),
    Ref(Reference),
    /// The participant's head is drawn here (after `create`).
    Create {
        participant: ParticipantId,
    },
    Activate {
        participant: ParticipantId,
        color: Option<String>,
    },
    Deactivate {
        participant: ParticipantId,
    },
    Destroy {
        participant: ParticipantId,
    },
    GroupStart(Group),
    /// `else [label]` inside the innermost open group.
    GroupElse {
        label: Option<String>,
        color: Option<String>,
    },
    GroupEnd,
    /// `== text ==`: the text between the first two and the last two `=`
    /// (so `=== x ==` is `= x`, a creole heading), trimmed.
    Divider {
        text: String,
        /// Written with a blank before the closing `==` (`== x ==`, not
        /// `== x==`): PlantUML's box keeps the width of one blank more.
        spaced: bool,
    },
    /// `...` or `... text ...`
    Delay {
        text: Option<String>,
    },
    /// `|||` (None) or `||45||`.
    Space {
        pixels: Option<u32>,
    },
    NewPage {
        title: Option<String>,
    },
    /// teoz `{start} <-> {end} : label`: a vertical double-headed arrow from
    /// the message anchored `{start}` to the one anchored `{end}`
    /// (`Message::anchor`). Unknown anchors draw nothing.
    Duration {
        from_anchor: String,
        to_anchor: String,
        label: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(tag = "kind", rename_all = "snake_case"))]
pub enum Endpoint {
    Participant {
        id: ParticipantId,
    },
    /// `[->`, `->]` (`short == false`) and `?->`, `->?` (`short == true`).
    Edge {
        side: Side,
        short: bool,
    },
}

impl Endpoint {
    pub fn participant(&self) -> Option<ParticipantId> {
        match self {
            Endpoint::Participant { id } => Some(*id),
            Endpoint::Edge { .. } => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum Side {
    Left,
    Right,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Message {
    /// Always the sender, whatever the direction the arrow was written in
    /// (`B <- A` has `from == A`).
    pub from: Endpoint,
    pub to: Endpoint,
    pub arrow: Arrow,
    /// Raw label text; `\n` and creole markup are interpreted by layout.
    /// Shared (`Arc`): the model is copied on every edit of a label, and
    /// 5,000 label copies were most of that copy's cost.
    pub label: Arc<str>,
    /// The autonumber text for this message, formatted (shared, like the label).
    pub number: Option<Arc<str>>,
    /// `->(10)`: vertical slant in pixels.
    pub slant: Option<u32>,
    /// teoz `&`: drawn on the same row as the previous message.
    pub parallel: bool,
    /// teoz `{name}` anchor on this message.
    pub anchor: Option<String>,
    /// Produced by `return`.
    pub is_return: bool,
}

impl Message {
    pub fn is_self(&self) -> bool {
        matches!((&self.from, &self.to), (Endpoint::Participant { id: a }, Endpoint::Participant { id: b }) if a == b)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Arrow {
    /// The head at the sender's end (usually `None`; `<->` has both).
    pub tail_head: Head,
    /// The head at the receiver's end.
    pub head: Head,
    pub line: LineStyle,
    pub color: Option<String>,
    pub bold: bool,
    /// Written right-to-left (`A <- B`), kept for round-tripping/explain.
    pub written_reversed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Head {
    pub shape: HeadShape,
    /// `o` decoration (`->o`, `o->`).
    pub circle: bool,
}

impl Head {
    pub const NONE: Head = Head {
        shape: HeadShape::None,
        circle: false,
    };
    pub const FILLED: Head = Head {
        shape: HeadShape::Filled,
        circle: false,
    };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum HeadShape {
    None,
    /// `>`
    Filled,
    /// `>>`
    Open,
    /// `\` (upper half)
    HalfUpper,
    /// `/` (lower half)
    HalfLower,
    /// `\\`
    HalfUpperOpen,
    /// `//`
    HalfLowerOpen,
    /// `x`
    Cross,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum LineStyle {
    Solid,
    /// `--`
    Dotted,
    /// `-[hidden]>`
    Hidden,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Note {
    pub position: NotePosition,
    pub shape: NoteShape,
    pub text: String,
    pub color: Option<String>,
    /// `/ note …`: drawn on the same row as the previous note.
    pub aligned: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(tag = "kind", rename_all = "snake_case"))]
pub enum NotePosition {
    /// `note left of A`; `of == None`: attached to the previous message.
    Left {
        of: Option<ParticipantId>,
    },
    Right {
        of: Option<ParticipantId>,
    },
    /// `note over A` or `note over A, B` (the span from `first` to `last`).
    Over {
        first: ParticipantId,
        last: Option<ParticipantId>,
    },
    Across,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum NoteShape {
    Note,
    /// `hnote`: hexagon.
    Hexagon,
    /// `rnote`: rectangle.
    Rectangle,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Reference {
    pub participants: Vec<ParticipantId>,
    pub text: String,
    pub color: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum GroupKind {
    Alt,
    Opt,
    Loop,
    Par,
    Break,
    Critical,
    Group,
}

impl GroupKind {
    pub const ALL: [GroupKind; 7] = [
        GroupKind::Alt,
        GroupKind::Opt,
        GroupKind::Loop,
        GroupKind::Par,
        GroupKind::Break,
        GroupKind::Critical,
        GroupKind::Group,
    ];
    pub fn keyword(self) -> &'static str {
        match self {
            GroupKind::Alt => "alt",
            GroupKind::Opt => "opt",
            GroupKind::Loop => "loop",
            GroupKind::Par => "par",
            GroupKind::Break => "break",
            GroupKind::Critical => "critical",
            GroupKind::Group => "group",
        }
    }
    pub fn from_keyword(word: &str) -> Option<GroupKind> {
        GroupKind::ALL
            .into_iter()
            .find(|k| k.keyword().eq_ignore_ascii_case(word))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Group {
    pub kind: GroupKind,
    /// For `group`, the tab text is `label`; for the others the tab shows the
    /// keyword and `label` is drawn as the condition.
    pub label: Option<String>,
    /// `group Label [secondary]`.
    pub secondary: Option<String>,
    /// `alt#Gold`: the header tab's fill (PlantUML 1.2026.8 fills the tab with
    /// it and keeps the frame's stroke).
    pub frame_color: Option<String>,
    /// `alt #LightBlue`: the background.
    pub color: Option<String>,
}

/// `header`/`footer` text with its alignment.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Decoration {
    pub text: String,
    pub align: Option<HorizontalAlign>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum HorizontalAlign {
    Left,
    Center,
    Right,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Legend {
    pub text: String,
    /// `legend top left` → (Some(Top), Some(Left)).
    pub vertical: Option<VerticalAlign>,
    pub horizontal: Option<HorizontalAlign>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum VerticalAlign {
    Top,
    Bottom,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Settings {
    /// `!theme NAME`.
    pub theme: Option<String>,
    /// `skinparam` entries in order; keys lowercased (PlantUML ignores case),
    /// block forms flattened (`skinparam sequence { ArrowColor red }` →
    /// `("sequencearrowcolor", "red")`).
    pub skinparams: Vec<(String, String)>,
    /// `<style>` sheets, in order, each with its place among the skinparams
    /// (PlantUML applies both in source order: the later one wins).
    pub styles: Vec<StyleBlock>,
    /// `!pragma teoz true`.
    pub teoz: bool,
    /// `scale …`: the last one given (PlantUML resizes the whole drawing).
    pub scale: Option<Scale>,
    pub hide_footbox: bool,
    pub hide_unlinked: bool,
    /// Other `!pragma` entries, lowercased keys.
    pub pragmas: Vec<(String, String)>,
}

/// How `scale …` resizes the drawing. Every value is finite and positive
/// (the reader drops anything else), so equality is total.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum Scale {
    /// `scale 1.5`, `scale 2/3`.
    Factor(f64),
    /// `scale 200 width` (`max`: only shrink).
    Width { width: f64, max: bool },
    /// `scale 200 height`.
    Height { height: f64, max: bool },
    /// `scale 200*100`: the largest factor that fits both.
    Fit { width: f64, height: f64, max: bool },
}

impl Eq for Scale {}

impl Scale {
    /// Reads the words after `scale`; `None` when PlantUML's forms do not match.
    pub fn parse(text: &str) -> Option<Scale> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (max, words) = match words.split_first() {
            Some((first, rest)) if first.eq_ignore_ascii_case("max") => (true, rest),
            _ => (false, &words[..]),
        };
        let number = |w: &str| w.parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0);
        match words {
            [one] if !max => {
                if let Some((a, b)) = one.split_once('/') {
                    let factor = number(a)? / number(b)?;
                    return Some(Scale::Factor(factor)).filter(|_| factor.is_finite());
                }
                if let Some((w, h)) = one.split_once('*') {
                    return Some(Scale::Fit {
                        width: number(w)?,
                        height: number(h)?,
                        max,
                    });
                }
                Some(Scale::Factor(number(one)?))
            }
            [one] => {
                let (w, h) = one.split_once('*')?;
                Some(Scale::Fit {
                    width: number(w)?,
                    height: number(h)?,
                    max,
                })
            }
            [n, unit] if unit.eq_ignore_ascii_case("width") => Some(Scale::Width { width: number(n)?, max }),
            [n, unit] if unit.eq_ignore_ascii_case("height") => Some(Scale::Height {
                height: number(n)?,
                max,
            }),
            _ => None,
        }
    }

    /// The factor for a drawing of `width` × `height` pixels.
    pub fn factor(self, width: f64, height: f64) -> f64 {
        let fit = |target: f64, size: f64, max: bool| {
            let f = if size > 0.0 { target / size } else { 1.0 };
            if max {
                f.min(1.0)
            } else {
                f
            }
        };
        match self {
            Scale::Factor(f) => f,
            Scale::Width { width: w, max } => fit(w, width, max),
            Scale::Height { height: h, max } => fit(h, height, max),
            Scale::Fit {
                width: w,
                height: h,
                max,
            } => fit(w, width, max).min(fit(h, height, max)),
        }
    }
}

/// One `<style>` block: its text (runs of whitespace collapsed) and how
/// many `skinparam` entries came before it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct StyleBlock {
    pub text: String,
    pub after_skinparams: usize,
}

impl Settings {
    /// The last value set for a skinparam (case-insensitive key).
    pub fn skinparam(&self, key: &str) -> Option<&str> {
        self.skinparams
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// Where model items came from. Ranges are byte ranges in the main file's
/// text; an item read from an included file has an empty range at 0 here,
/// and its place in that file is in `included_participants` /
/// `included_participant_uses`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    pub diagrams: Vec<DiagramSourceMap>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DiagramSourceMap {
    /// The whole `@startuml … @enduml` range.
    pub range: TextRange,
    /// Declaration (or first use) of each participant, parallel to `participants`.
    pub participants: Vec<TextRange>,
    /// Every use of each participant name (declaration, messages, notes,
    /// activations, …): the range of the name token itself.
    pub participant_uses: Vec<Vec<TextRange>>,
    /// Parallel to `events`: the statement each event came from.
    pub events: Vec<TextRange>,
    /// Set exactly when the diagram is an activity diagram.
    pub activity: Option<crate::activity::ActivitySourceMap>,
    /// Parallel to `participants` when the diagram read included files
    /// (empty otherwise): the declaration's file and range in that file,
    /// for participants declared in an included file.
    pub included_participants: Vec<Option<(String, TextRange)>>,
    /// Parallel to `participant_uses` when the diagram read included files
    /// (empty otherwise): the uses written in included files, each with
    /// the file (as the preprocessor names it) and its range there.
    pub included_participant_uses: Vec<Vec<(String, TextRange)>>,
}
