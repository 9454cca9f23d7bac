//! The model of a class diagram (with object and ER `entity` diagrams):
//! PlantUML's "class" reading of an `@startuml … @enduml` block.
//!
//! Like the other models it holds **no positions** (`ClassSourceMap` links
//! items to source ranges apart), and nothing in it is nested by pointers:
//! elements, packages, links and notes are flat vectors and refer to each
//! other by index, so every walk over them is iterative. Packages form a
//! tree through `Package::parent`; an element's package is
//! `Element::package`. The layout turns this into a plain graph for the
//! layered layout engine (`puml-graph`), as PlantUML hands it to `dot`.

use text_size::TextRange;

#[cfg(feature = "serde")]
use serde::Serialize;

/// One class diagram.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ClassDiagram {
    /// In order of first appearance (declaration or first use in a link).
    pub elements: Vec<Element>,
    /// Packages and namespaces, parents before their children.
    pub packages: Vec<Package>,
    /// Relations in source order.
    pub links: Vec<Link>,
    /// Notes in source order (on an element, on a link, or floating).
    pub notes: Vec<ClassNote>,
    /// `hide`/`show`/`remove` commands in source order (later ones win).
    pub visibility: Vec<VisibilityRule>,
    /// `left to right direction` (dot's `rankdir=LR`).
    pub left_to_right: bool,
    /// `together { … }` groups: elements kept side by side.
    pub together: Vec<Vec<ElementId>>,
    /// `set separator X` (`None`: the default `.`; `Some("")`: `set separator none`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub separator: Option<String>,
}

/// Index into `ClassDiagram::elements`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ElementId(pub u32);

/// Index into `ClassDiagram::packages`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct PackageId(pub u32);

/// Index into `ClassDiagram::links`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct LinkId(pub u32);

impl ElementId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl PackageId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl LinkId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What an element is declared as (its keyword); an element only used in a
/// link is a `Class`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum ElementKind {
    Class,
    AbstractClass,
    Interface,
    Enum,
    Annotation,
    Entity,
    Exception,
    Metaclass,
    Protocol,
    Stereotype,
    Struct,
    Record,
    /// `circle`: a small circle (also `()` lollipop ends).
    Circle,
    /// `diamond`: an n-ary association's diamond.
    Diamond,
    /// `object`.
    Object,
    /// `map` (rows `key => value`).
    Map,
    /// `json` (a JSON value drawn as a table).
    Json,
    /// An element of another family allowed by `allowmixing` (`actor`,
    /// `usecase`, `component`, …); the keyword is kept in `Element::keyword`.
    Mixed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Element {
    pub kind: ElementKind,
    /// The keyword as written, lowercased (`abstract class` → `abstract`).
    pub keyword: String,
    /// The full name, qualified by its packages with the diagram's separator
    /// (`a.b.C`): what links, notes and `data-qualified-name` use.
    pub qualified_name: String,
    /// The name as displayed (`class "Long name" as L` → `Long name`;
    /// otherwise the last part of the qualified name).
    pub display: String,
    /// `as L` or the quoted name's alias.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub alias: Option<String>,
    /// `Foo<T extends Bar>` → `T extends Bar`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub generic: Option<String>,
    /// `<< a >> << b >>`, without the guillemets, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub stereotypes: Vec<String>,
    /// `<< (S,#FF7700) Singleton >>`: the spot's letter and colour.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub spot: Option<Spot>,
    /// Colours and line style written on the declaration (`#pink;line:red;line.dashed;text:blue`,
    /// `##[dashed]blue`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "ElementStyle::is_empty"))]
    pub style: ElementStyle,
    /// Members in source order, body and one-line (`Foo : bar()`) forms
    /// together, separators included.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub members: Vec<Member>,
    /// The innermost package holding it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub package: Option<PackageId>,
    /// False when the element only appears in links (never declared).
    pub declared: bool,
    /// `json`/`map` bodies and object fields are members too; a `json`
    /// element's raw text is kept here for its table.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub json: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Spot {
    pub letter: char,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub color: Option<String>,
}

/// Colours and line style on an element, package or note as written
/// (colour values as in the source: `#pink`, `#FF0000`, `pink`, `#red/blue`
/// gradients kept whole).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ElementStyle {
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub background: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub line_color: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub text_color: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub line_style: Option<LineStyle>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub thickness: Option<u32>,
}

impl ElementStyle {
    pub fn is_empty(&self) -> bool {
        *self == ElementStyle::default()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum LineStyle {
    Solid,
    Dashed,
    Dotted,
    Bold,
}

/// A line of a class body.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case", tag = "type"))]
pub enum Member {
    /// A field, method or enum constant.
    Item(MemberItem),
    /// `--`, `..`, `==`, `__`, optionally with a title (`-- title --`).
    Separator {
        style: SeparatorStyle,
        title: Option<String>,
    },
    /// A blank line of a body: PlantUML draws an empty row for one between
    /// two members of the same compartment.
    Blank,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct MemberItem {
    /// The text after the visibility character and modifiers, as drawn.
    pub text: String,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub visibility: Option<Visibility>,
    /// `{static}`/`{classifier}`: drawn underlined.
    pub is_static: bool,
    /// `{abstract}`: drawn in italics.
    pub is_abstract: bool,
    /// A method (its text has `(`, or `{method}`) rather than a field
    /// (`{field}`); decides the compartment.
    pub is_method: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum Visibility {
    /// `-`
    Private,
    /// `#`
    Protected,
    /// `~`
    Package,
    /// `+`
    Public,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum SeparatorStyle {
    /// `--`
    Solid,
    /// `..`
    Dotted,
    /// `==`
    Double,
    /// `__`
    Thick,
}

/// `package`, `namespace` (with their drawing style).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Package {
    /// `package`, `namespace`, or a description keyword used as a package
    /// (`node`, `folder`, `frame`, `cloud`, `database`, `rectangle`).
    pub keyword: String,
    pub qualified_name: String,
    pub display: String,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub alias: Option<String>,
    /// `<<Node>>`, `<<Folder>>`, …, or other stereotypes.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub stereotypes: Vec<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "ElementStyle::is_empty"))]
    pub style: ElementStyle,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub parent: Option<PackageId>,
}

/// One end of a link: an element, or a package (`pkg1 --> pkg2` links
/// clusters), or a point on another link (association class `(A, B) .. C`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum LinkEnd {
    Element(ElementId),
    Package(PackageId),
    /// The middle of another link (association classes).
    Link(LinkId),
    /// A floating note (`note "…" as N`, then `N .. A`), by index into
    /// `ClassDiagram::notes`.
    Note(u32),
}

/// The decoration at one end of a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum LinkHead {
    None,
    /// `>` / `<`
    Arrow,
    /// `|>` / `<|` (extension)
    Triangle,
    /// `*` (composition)
    Composition,
    /// `o` (aggregation)
    Aggregation,
    /// `#`
    Square,
    /// `x`
    Cross,
    /// `}` / `{` (crow's foot)
    Crowfoot,
    /// `+` (nested/inner class)
    Plus,
    /// `^` (extension, open triangle)
    OpenTriangle,
    /// `()` lollipop
    Circle,
    /// `(` half circle (socket)
    HalfCircle,
    /// ER: `|o` / `o|` zero or one
    ZeroOrOne,
    /// ER: `||` exactly one
    ExactlyOne,
    /// ER: `}o` / `o{` zero or many
    ZeroOrMany,
    /// ER: `}|` / `|{` one or many
    OneOrMany,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum LinkDirection {
    Up,
    Down,
    Left,
    Right,
}

/// A relation `A "1" *-- "many" B : label >`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Link {
    /// The left-hand end as written.
    pub from: LinkEnd,
    /// The right-hand end as written.
    pub to: LinkEnd,
    /// The decoration at `from` (`<|--`: Triangle).
    pub from_head: LinkHead,
    /// The decoration at `to` (`-->`: Arrow).
    pub to_head: LinkHead,
    /// `..` bodies are dashed; `[dashed]`/`[dotted]`/`[bold]` override.
    pub line: LineStyle,
    /// The number of body characters (`--` is 2, `---` is 3): dot's
    /// `minlen` is `length - 1`. A single character (`-`) is 1: same rank
    /// (PlantUML draws it horizontal).
    pub length: u32,
    /// `-up->`, `-l->`, …
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub direction: Option<LinkDirection>,
    /// `[hidden]`: takes part in the layout, not drawn.
    pub hidden: bool,
    /// `[norank]`: does not constrain ranks.
    pub norank: bool,
    /// `[#red]`, `[#red,dashed,thickness=2]`: colour as written.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub color: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub thickness: Option<u32>,
    /// `: label` (without a trailing `>`/`<` label arrow).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub label: Option<String>,
    /// `: owns >` → `Some(Right)`; `: < owns` → `Some(Left)`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub label_arrow: Option<LinkDirection>,
    /// `"1"` before the arrow (multiplicity or role at `from`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub from_label: Option<String>,
    /// `"many"` after the arrow (at `to`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub to_label: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum NoteSide {
    Top,
    Bottom,
    Left,
    Right,
}

/// What a note is attached to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum NoteTarget {
    /// `note left of A`, `note "…" as N` linked by `N .. A` is `Floating`.
    Element { element: ElementId, side: NoteSide },
    /// `note on link` (after a link).
    Link(LinkId),
    /// `note "text" as N1`: an element of its own, linked like one.
    Floating { alias: Option<String> },
    /// `note bottom of N` where `N` is a container that holds something
    /// (`node N { … }` in a description diagram): PlantUML links the note
    /// to the container's point.
    Package { package: PackageId, side: NoteSide },
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ClassNote {
    pub target: NoteTarget,
    /// Multi-line text joined with `\n`.
    pub text: String,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub color: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub package: Option<PackageId>,
    /// PlantUML's id counter when the note is read: one number per package,
    /// element and link created before it, three per earlier note (its
    /// name, its entity, its link; two for a note on a member). PlantUML names the note `GMN` and this
    /// plus one, so the name follows the note's place in the source.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub created_after: u32,
}

/// `hide`/`show`/`remove` commands.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct VisibilityRule {
    pub action: VisibilityAction,
    /// What it is about: `members`, `methods`, `fields`, `attributes`,
    /// `circle`, `stereotype`, `empty members`, `@unlinked`, …, lowercased.
    pub what: String,
    /// Which elements: `None` for all; `Some("Foo")`, `Some("<<S>>")`,
    /// `Some("class")` (a kind) otherwise.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub target: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum VisibilityAction {
    Hide,
    Show,
    Remove,
    Restore,
}

/// Where each item of a `ClassDiagram` came from (ranges in the original
/// text), index for index.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClassSourceMap {
    /// The declaration, or the first use when never declared.
    pub elements: Vec<TextRange>,
    /// Every range where an element's name is written (declaration, links,
    /// notes, one-line members): references and rename.
    pub element_references: Vec<Vec<TextRange>>,
    pub packages: Vec<TextRange>,
    pub links: Vec<TextRange>,
    pub notes: Vec<TextRange>,
}
