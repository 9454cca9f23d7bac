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
    pub events: Events,
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
    /// `Some` when PlantUML reads this block as a class diagram (class,
    /// object, ER); the sequence fields other than the decorations and
    /// settings are then empty.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub class: Option<Box<crate::class::ClassDiagram>>,
    /// `Some` when PlantUML reads this block as a description diagram (use
    /// case, component, deployment, `rectangle`); the sequence fields other
    /// than the decorations and settings are then empty.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub description: Option<Box<crate::description::DescriptionDiagram>>,
    /// `Some` when PlantUML reads this block as a state diagram; the
    /// sequence fields other than the decorations and settings are then
    /// empty.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub state: Option<Box<crate::state::StateDiagram>>,
    /// `Some` when PlantUML reads this block as a legacy activity diagram
    /// (`(*) --> "First"`); the sequence fields other than the decorations
    /// and settings are then empty.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub legacy_activity: Option<Box<crate::legacy_activity::LegacyActivityDiagram>>,
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
    /// Another language PlantUML draws (`@startmindmap`, `@startgantt`, a
    /// timing diagram's `robust "Web" as WB`, …), named as PlantUML's SVG
    /// names it: `MINDMAP`, `GANTT`, `TIMING`, …
    Other(&'static str),
}

impl OtherKind {
    /// The type's name as PlantUML's SVG names it (`data-diagram-type`).
    pub fn plantuml_name(self) -> &'static str {
        match self {
            OtherKind::Class => "CLASS",
            OtherKind::Description => "DESCRIPTION",
            OtherKind::Activity => "ACTIVITY",
            OtherKind::State => "STATE",
            OtherKind::Other(name) => name,
        }
    }
    /// In prose: "class", "description (usecase/component)".
    pub fn describe(self) -> &'static str {
        match self {
            OtherKind::Class => "class",
            OtherKind::Description => "description (usecase/component)",
            OtherKind::Activity => "legacy activity",
            OtherKind::State => "state",
            OtherKind::Other(name) => match name {
                "MINDMAP" => "mindmap",
                "WBS" => "work breakdown structure (WBS)",
                "GANTT" => "Gantt",
                "SALT" => "salt (wireframe)",
                "JSON" => "JSON",
                "YAML" => "YAML",
                "DITAA" => "ditaa",
                "DOT" => "DOT (Graphviz)",
                "REGEX" => "regular expression",
                "EBNF" => "EBNF",
                "CHEN_EER" => "Chen entity-relationship",
                "FILES" => "files",
                "NWDIAG" => "network (nwdiag)",
                "PACKET" => "packet (packetdiag)",
                "BOARD" => "board",
                "GIT" => "git",
                "CHART" => "chart",
                "WIRE" => "wire",
                "MATH" => "math",
                "CREOLE" => "creole",
                "DEFINITION" => "definition",
                "TIMING" => "timing",
                _ => "other",
            },
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

/// A diagram's events, in order: a list of pieces, each a range of a shared
/// vector, so that a copy of the model shares the events instead of
/// copying them. Lowering builds one piece (a plain vector, which layout
/// reads as one slice); changing an event after the model was copied (a
/// label edit) copies only that event into a piece of its own, so a label
/// edit in a 5,000-event diagram copies one event rather than 5,000, and
/// freeing the old model frees one. Read it like a slice: `len`, `iter`,
/// `get`, `events[i]`, `for event in &events`; [`Events::slice`] gives a
/// contiguous run (borrowed when it lies in one piece).
#[derive(Clone, Default)]
pub struct Events {
    pieces: Vec<Piece>,
    len: usize,
}

/// A run of [`Events`] (opaque; named by [`EventsIterMut`]).
#[derive(Clone)]
pub struct Piece {
    shared: Arc<Vec<Event>>,
    start: usize,
    end: usize,
}

impl Piece {
    fn events(&self) -> &[Event] {
        &self.shared[self.start..self.end]
    }
    /// This piece's events, copied out of the shared vector first when
    /// another model holds it too.
    fn events_mut(&mut self) -> &mut [Event] {
        if Arc::get_mut(&mut self.shared).is_none() {
            self.shared = Arc::new(self.events().to_vec());
            self.end -= self.start;
            self.start = 0;
        }
        let (start, end) = (self.start, self.end);
        match Arc::get_mut(&mut self.shared) {
            Some(events) => &mut events[start..end],
            None => &mut [],
        }
    }
}

impl Events {
    /// Past this many pieces (many different events edited since the last
    /// full lowering) the pieces are joined into one again: a copy of the
    /// whole list, once per this many edits.
    const MAX_PIECES: usize = 64;

    pub fn new() -> Events {
        Events::default()
    }

    /// An empty list with room for `capacity` events in one piece (lowering
    /// knows about how many statements a diagram has: growing the vector
    /// event by event copied it several times).
    pub fn with_capacity(capacity: usize) -> Events {
        if capacity == 0 {
            return Events::default();
        }
        Events {
            pieces: vec![Piece {
                shared: Arc::new(Vec::with_capacity(capacity)),
                start: 0,
                end: 0,
            }],
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, event: Event) {
        self.len += 1;
        if let Some(last) = self.pieces.last_mut() {
            let end = last.end;
            if let Some(events) = Arc::get_mut(&mut last.shared) {
                if events.len() == end {
                    events.push(event);
                    last.end += 1;
                    return;
                }
            }
        }
        self.pieces.push(Piece {
            shared: Arc::new(vec![event]),
            start: 0,
            end: 1,
        });
    }

    pub fn iter(&self) -> EventsIter<'_> {
        EventsIter {
            pieces: self.pieces.iter(),
            front: [].iter(),
            back: [].iter(),
            remaining: self.len,
        }
    }

    /// Every event, mutably (each shared piece is copied first).
    pub fn iter_mut(&mut self) -> EventsIterMut<'_> {
        self.pieces.iter_mut().flat_map(Piece::events_mut)
    }

    /// The piece holding event `index`, and the index within the piece.
    fn locate(&self, index: usize) -> Option<(usize, usize)> {
        if index >= self.len {
            return None;
        }
        let mut first = 0;
        for (piece_index, piece) in self.pieces.iter().enumerate() {
            let len = piece.end - piece.start;
            if index < first + len {
                return Some((piece_index, index - first));
            }
            first += len;
        }
        None
    }

    pub fn get(&self, index: usize) -> Option<&Event> {
        let (piece, at) = self.locate(index)?;
        self.pieces[piece].events().get(at)
    }

    pub fn first(&self) -> Option<&Event> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&Event> {
        self.pieces.last()?.events().last()
    }

    /// Event `index`, mutably. When its piece is shared with another model,
    /// only this event is copied: it becomes a piece of its own between
    /// the two halves of the shared one.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut Event> {
        let (mut piece, mut at) = self.locate(index)?;
        let whole = &mut self.pieces[piece];
        if whole.end - whole.start > 1 && Arc::get_mut(&mut whole.shared).is_none() {
            let whole = whole.clone();
            let mut replacement = Vec::with_capacity(3);
            if at > 0 {
                replacement.push(Piece {
                    end: whole.start + at,
                    ..whole.clone()
                });
            }
            replacement.push(Piece {
                shared: Arc::new(vec![whole.events()[at].clone()]),
                start: 0,
                end: 1,
            });
            if whole.start + at + 1 < whole.end {
                replacement.push(Piece {
                    start: whole.start + at + 1,
                    ..whole
                });
            }
            self.pieces.splice(piece..piece + 1, replacement);
            piece += usize::from(at > 0);
            at = 0;
            if self.pieces.len() > Events::MAX_PIECES {
                self.join();
                (piece, at) = self.locate(index)?;
            }
        }
        self.pieces[piece].events_mut().get_mut(at)
    }

    /// All pieces joined into one vector of their own.
    fn join(&mut self) {
        let events: Vec<Event> = self.iter().cloned().collect();
        *self = Events::from(events);
    }

    /// Events `range`, contiguous: borrowed when they lie in one piece
    /// (always, for a model no edit patched), else copied.
    pub fn slice(&self, range: std::ops::Range<usize>) -> std::borrow::Cow<'_, [Event]> {
        use std::borrow::Cow;
        if range.start >= range.end {
            return Cow::Borrowed(&[]);
        }
        if let Some((piece, at)) = self.locate(range.start) {
            let events = self.pieces[piece].events();
            if let Some(run) = events.get(at..at + (range.end - range.start)) {
                return Cow::Borrowed(run);
            }
        }
        Cow::Owned(
            self.iter()
                .skip(range.start)
                .take(range.end - range.start)
                .cloned()
                .collect(),
        )
    }
}

/// The iterator of [`Events::iter`].
#[derive(Clone)]
pub struct EventsIter<'a> {
    pieces: std::slice::Iter<'a, Piece>,
    front: std::slice::Iter<'a, Event>,
    back: std::slice::Iter<'a, Event>,
    remaining: usize,
}

impl<'a> Iterator for EventsIter<'a> {
    type Item = &'a Event;

    fn next(&mut self) -> Option<&'a Event> {
        loop {
            if let Some(event) = self.front.next() {
                self.remaining -= 1;
                return Some(event);
            }
            match self.pieces.next() {
                Some(piece) => self.front = piece.events().iter(),
                None => {
                    let event = self.back.next()?;
                    self.remaining -= 1;
                    return Some(event);
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl DoubleEndedIterator for EventsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(event) = self.back.next_back() {
                self.remaining -= 1;
                return Some(event);
            }
            match self.pieces.next_back() {
                Some(piece) => self.back = piece.events().iter(),
                None => {
                    let event = self.front.next_back()?;
                    self.remaining -= 1;
                    return Some(event);
                }
            }
        }
    }
}

impl ExactSizeIterator for EventsIter<'_> {}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = EventsIter<'a>;
    fn into_iter(self) -> EventsIter<'a> {
        self.iter()
    }
}

/// The iterator of [`Events::iter_mut`].
pub type EventsIterMut<'a> =
    std::iter::FlatMap<std::slice::IterMut<'a, Piece>, &'a mut [Event], fn(&'a mut Piece) -> &'a mut [Event]>;

impl<'a> IntoIterator for &'a mut Events {
    type Item = &'a mut Event;
    type IntoIter = EventsIterMut<'a>;
    fn into_iter(self) -> EventsIterMut<'a> {
        self.iter_mut()
    }
}

impl std::ops::Index<usize> for Events {
    type Output = Event;
    fn index(&self, index: usize) -> &Event {
        match self.get(index) {
            Some(event) => event,
            None => panic!("event index {index} out of range for {} events", self.len),
        }
    }
}

impl From<Vec<Event>> for Events {
    fn from(events: Vec<Event>) -> Events {
        let len = events.len();
        Events {
            pieces: if len == 0 {
                Vec::new()
            } else {
                vec![Piece {
                    shared: Arc::new(events),
                    start: 0,
                    end: len,
                }]
            },
            len,
        }
    }
}

impl FromIterator<Event> for Events {
    fn from_iter<I: IntoIterator<Item = Event>>(iter: I) -> Events {
        Events::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl Extend<Event> for Events {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, iter: I) {
        iter.into_iter().for_each(|event| self.push(event));
    }
}

/// Equal when the events are: pieces shared by both lists are equal
/// without a look (a label edit's model against the one it came from
/// compares one event, not 5,000).
impl PartialEq for Events {
    fn eq(&self, other: &Events) -> bool {
        if self.len != other.len {
            return false;
        }
        let same_cut = self.pieces.len() == other.pieces.len()
            && self
                .pieces
                .iter()
                .zip(&other.pieces)
                .all(|(a, b)| a.end - a.start == b.end - b.start);
        if same_cut {
            return self
                .pieces
                .iter()
                .zip(&other.pieces)
                .all(|(a, b)| (Arc::ptr_eq(&a.shared, &b.shared) && a.start == b.start) || a.events() == b.events());
        }
        self.iter().eq(other.iter())
    }
}

impl Eq for Events {}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl Serialize for Events {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
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
    /// The title as PlantUML measures it: an unquoted title keeps the
    /// blanks before its colour (drawn trimmed, centred with them).
    pub title: Option<String>,
    pub color: Option<String>,
    /// The participants declared directly in this box (not in a box nested in it).
    pub participants: Vec<ParticipantId>,
    /// The box this one is nested in (index into `Diagram::boxes`); PlantUML
    /// draws nested boxes inside their parent, one title row lower.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub parent: Option<usize>,
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
    /// `/ note …` (or `& note …`): drawn on the same row as the previous note.
    pub aligned: bool,
    /// `& note …`: right after a message, drawn on the message's row
    /// (PlantUML centres it on the arrow).
    pub parallel: bool,
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
    /// The blanks between a `group` label and its `[secondary]`: PlantUML
    /// 1.2026.8 keeps them in the header tab, each as wide as a space
    /// (`group Custom  [x]` has a tab two spaces wider than `group
    /// Custom[x]`), though the tab's text is drawn without them.
    pub label_trailing_blanks: usize,
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

impl HorizontalAlign {
    /// `left`, `center` or `right`, in any case (as `left header` and a
    /// style's `HorizontalAlignment` write them).
    pub fn from_keyword(word: &str) -> Option<HorizontalAlign> {
        [HorizontalAlign::Left, HorizontalAlign::Center, HorizontalAlign::Right]
            .into_iter()
            .find(|align| {
                word.eq_ignore_ascii_case(match align {
                    HorizontalAlign::Left => "left",
                    HorizontalAlign::Center => "center",
                    HorizontalAlign::Right => "right",
                })
            })
    }
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
    /// `skin NAME` (lower-case): `skin rose` draws PlantUML's former look.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub skin: Option<String>,
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
    /// Set exactly when the diagram is a class diagram.
    pub class: Option<crate::class::ClassSourceMap>,
    /// Set exactly when the diagram is a description diagram.
    pub description: Option<crate::description::DescriptionSourceMap>,
    /// Set exactly when the diagram is a state diagram.
    pub state: Option<crate::state::StateSourceMap>,
    /// Set exactly when the diagram is a legacy activity diagram (read by
    /// the parser; a block only the fallback recogniser reads has none).
    pub legacy_activity: Option<crate::legacy_activity::LegacyActivitySourceMap>,
    /// Parallel to `participants` when the diagram read included files
    /// (empty otherwise): the declaration's file and range in that file,
    /// for participants declared in an included file.
    pub included_participants: Vec<Option<(String, TextRange)>>,
    /// Parallel to `participant_uses` when the diagram read included files
    /// (empty otherwise): the uses written in included files, each with
    /// the file (as the preprocessor names it) and its range there.
    pub included_participant_uses: Vec<Vec<(String, TextRange)>>,
}

#[cfg(test)]
mod events_tests {
    use super::{Event, Events};

    fn divider(i: usize) -> Event {
        Event::Divider {
            text: i.to_string(),
            spaced: false,
        }
    }

    fn texts(events: &Events) -> Vec<String> {
        events
            .iter()
            .map(|e| match e {
                Event::Divider { text, .. } => text.clone(),
                _ => String::new(),
            })
            .collect()
    }

    /// Editing copies of a list one event at a time (as label edits do)
    /// reads like editing a vector, leaves the copies alone, and keeps the
    /// pieces bounded.
    #[test]
    fn edits_of_shared_lists_read_like_a_vector() {
        let original: Events = (0..300).map(divider).collect();
        let mut expected: Vec<String> = texts(&original);
        let mut current = original.clone();
        let mut state = 7u64;
        for round in 0..200 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let index = (state >> 33) as usize % 300;
            let previous = current.clone();
            let previous_texts = texts(&previous);
            if let Some(Event::Divider { text, .. }) = current.get_mut(index) {
                *text = format!("edit {round}");
            }
            expected[index] = format!("edit {round}");
            assert_eq!(texts(&current), expected);
            assert_eq!(texts(&previous), previous_texts, "the copy is untouched");
            assert_ne!(current, previous);
            assert!(current.pieces.len() <= Events::MAX_PIECES);
            assert_eq!(current.len(), 300);
            let backwards: Vec<String> = texts(&current).into_iter().rev().collect();
            let rev: Vec<String> = current
                .iter()
                .rev()
                .map(|e| match e {
                    Event::Divider { text, .. } => text.clone(),
                    _ => String::new(),
                })
                .collect();
            assert_eq!(rev, backwards);
            let slice = current.slice(100..200);
            assert_eq!(slice.len(), 100);
            assert_eq!(slice[0], current[100]);
            assert_eq!(current.iter().len(), 300);
        }
        assert_eq!(texts(&original), (0..300).map(|i| i.to_string()).collect::<Vec<_>>());
        let joined: Events = current.iter().cloned().collect();
        assert_eq!(joined, current);
        assert!(current.get(300).is_none());
        assert_eq!(current.last(), current.get(299));
    }

    #[test]
    fn a_fresh_list_is_one_slice() {
        let events: Events = (0..10).map(divider).collect();
        assert!(matches!(events.slice(0..10), std::borrow::Cow::Borrowed(_)));
        assert!(Events::new().slice(0..0).is_empty());
    }
}
