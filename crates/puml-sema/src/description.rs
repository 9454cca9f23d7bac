//! The model of a description diagram (use case, component, deployment and
//! `rectangle` diagrams): PlantUML's "description" reading of an
//! `@startuml … @enduml` block.
//!
//! Like the class model it holds **no positions** (`DescriptionSourceMap`
//! links items to source ranges apart) and is flat: elements, containers,
//! links and notes are vectors referring to each other by index. It shares
//! the class model's link, note, container and style types (`class::Link`,
//! `class::ClassNote`, `class::Package`, `class::ElementStyle`), so the
//! layout hands both kinds to the same graph code: a link end
//! `LinkEnd::Package` is a container (`node N { … }` linked as a whole),
//! `NoteTarget::Element` an element of this diagram, `NoteTarget::Package`
//! a container.

use crate::class::{ClassNote, ElementStyle, Link, Package, PackageId};
use text_size::TextRange;

#[cfg(feature = "serde")]
use serde::Serialize;

/// One description diagram.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct DescriptionDiagram {
    /// In order of first appearance (declaration or first use in a link).
    pub elements: Vec<Element>,
    /// Containers (`package`, `node`, `rectangle`, … opened with `{`),
    /// parents before their children; `Package::keyword` is the keyword.
    pub containers: Vec<Package>,
    /// Per container, how many elements had been created when it was
    /// opened: where it stands among the elements in creation order (an
    /// empty container is drawn as an element, in that place).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub containers_after_elements: Vec<u32>,
    /// Links in source order.
    pub links: Vec<Link>,
    /// Notes in source order (on an element, on a link, or floating).
    pub notes: Vec<ClassNote>,
    /// `left to right direction` (dot's `rankdir=LR`).
    pub left_to_right: bool,
}

/// What an element is drawn as: its keyword, or the short form that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "snake_case"))]
pub enum Shape {
    Actor,
    /// `actor/`.
    ActorBusiness,
    Usecase,
    /// `usecase/`.
    UsecaseBusiness,
    Component,
    Interface,
    Node,
    Artifact,
    Database,
    Cloud,
    Folder,
    Frame,
    File,
    Package,
    Queue,
    Stack,
    Storage,
    Card,
    Agent,
    Boundary,
    Control,
    Entity,
    Collections,
    Hexagon,
    Label,
    Person,
    Rectangle,
    Circle,
    Action,
    Process,
    Port,
    PortIn,
    PortOut,
}

impl Shape {
    /// The shape a keyword declares (any case; `actor/`, `usecase/` too).
    pub fn from_keyword(keyword: &str) -> Option<Shape> {
        Some(match keyword.to_ascii_lowercase().as_str() {
            "actor" => Shape::Actor,
            "actor/" => Shape::ActorBusiness,
            "usecase" => Shape::Usecase,
            "usecase/" => Shape::UsecaseBusiness,
            "component" => Shape::Component,
            "interface" => Shape::Interface,
            "node" => Shape::Node,
            "artifact" => Shape::Artifact,
            "database" => Shape::Database,
            "cloud" => Shape::Cloud,
            "folder" => Shape::Folder,
            "frame" => Shape::Frame,
            "file" => Shape::File,
            "package" => Shape::Package,
            "queue" => Shape::Queue,
            "stack" => Shape::Stack,
            "storage" => Shape::Storage,
            "card" => Shape::Card,
            "agent" => Shape::Agent,
            "boundary" => Shape::Boundary,
            "control" => Shape::Control,
            "entity" => Shape::Entity,
            "collections" => Shape::Collections,
            "hexagon" => Shape::Hexagon,
            "label" => Shape::Label,
            "person" => Shape::Person,
            "rectangle" => Shape::Rectangle,
            "circle" => Shape::Circle,
            "action" => Shape::Action,
            "process" => Shape::Process,
            "port" => Shape::Port,
            "portin" => Shape::PortIn,
            "portout" => Shape::PortOut,
            _ => return None,
        })
    }

    /// The keyword that declares it (`actor/` for the business actor).
    pub fn keyword(self) -> &'static str {
        match self {
            Shape::Actor => "actor",
            Shape::ActorBusiness => "actor/",
            Shape::Usecase => "usecase",
            Shape::UsecaseBusiness => "usecase/",
            Shape::Component => "component",
            Shape::Interface => "interface",
            Shape::Node => "node",
            Shape::Artifact => "artifact",
            Shape::Database => "database",
            Shape::Cloud => "cloud",
            Shape::Folder => "folder",
            Shape::Frame => "frame",
            Shape::File => "file",
            Shape::Package => "package",
            Shape::Queue => "queue",
            Shape::Stack => "stack",
            Shape::Storage => "storage",
            Shape::Card => "card",
            Shape::Agent => "agent",
            Shape::Boundary => "boundary",
            Shape::Control => "control",
            Shape::Entity => "entity",
            Shape::Collections => "collections",
            Shape::Hexagon => "hexagon",
            Shape::Label => "label",
            Shape::Person => "person",
            Shape::Rectangle => "rectangle",
            Shape::Circle => "circle",
            Shape::Action => "action",
            Shape::Process => "process",
            Shape::Port => "port",
            Shape::PortIn => "portin",
            Shape::PortOut => "portout",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Element {
    pub shape: Shape,
    /// The code links and notes name it by (the alias, else the name).
    pub code: String,
    /// The code after its containers' (`P.E` for `E` declared in `package
    /// P {`): what `data-qualified-name` shows.
    pub qualified_name: String,
    /// The text drawn (`actor "Long name" as A` → `Long name`; a
    /// multi-line element's whole text, lines joined with `\n`).
    pub display: String,
    /// `<<s>>` stereotypes, without the guillemets, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub stereotypes: Vec<String>,
    /// Colours and line style written on the declaration (`#pink;line:red`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "ElementStyle::is_empty"))]
    pub style: ElementStyle,
    /// The innermost container holding it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub container: Option<PackageId>,
    /// False when the element only appears in links (never declared).
    pub declared: bool,
}

/// Where each item of a `DescriptionDiagram` came from (ranges in the
/// original text), index for index.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescriptionSourceMap {
    /// The declaration, or the first use when never declared.
    pub elements: Vec<TextRange>,
    /// Every range where an element's name is written (declaration,
    /// links, notes): references and rename.
    pub element_references: Vec<Vec<TextRange>>,
    pub containers: Vec<TextRange>,
    /// Every range where a container's code is written (its declaration,
    /// links and notes naming it): hover, references and rename.
    pub container_references: Vec<Vec<TextRange>>,
    pub links: Vec<TextRange>,
    pub notes: Vec<TextRange>,
}
