//! Description diagrams (use case, component, deployment, `rectangle`):
//! `DescriptionDiagram` → `Scene`, the way PlantUML's "svek" step draws
//! them. PlantUML hands these to `dot` exactly as class diagrams (one node
//! per element of its shape's size, containers as clusters, links as
//! edges with `minlen` from the arrow's length), so the description model,
//! whose links, notes and containers are the class model's types, is
//! handed to the class layout as a class diagram of "mixed" elements: the
//! class layout builds the graph, places it with `puml-graph` and draws
//! links, clusters, notes and the SVG markers; each element's own shape is
//! measured and drawn here ([`shapes`], called from the class layout's
//! element boxes for every element of a description keyword).

mod shapes;

pub(crate) use shapes::{draw_container, shape_box};

use crate::class::look::ClassLook;
use crate::font::TextMeasure;
use crate::scene::Scene;
use crate::theme::Theme;
use crate::LayoutOptions;
use puml_sema::class::{
    ClassDiagram, Element as ClassElement, ElementId, ElementKind, ElementStyle, Link, LinkEnd, NoteTarget,
};
use puml_sema::description::{DescriptionDiagram, Shape};
use puml_sema::model::Diagram;

/// The description diagram as the class layout reads it. A container that
/// holds nothing (`component jackson {` `}`) is drawn by PlantUML as an
/// element of its keyword, and links to it join that element.
fn as_class_diagram(diagram: &Diagram, description: &DescriptionDiagram) -> ClassDiagram {
    let components_as_rectangles = shapes::component_as_rectangle(diagram);
    let keyword_of = |shape: Shape| match shape {
        Shape::Component if components_as_rectangles => Shape::Rectangle.keyword(),
        shape => shape.keyword(),
    };
    let mut holds = vec![false; description.containers.len()];
    let parents = description
        .elements
        .iter()
        .map(|e| e.container)
        .chain(description.containers.iter().map(|c| c.parent))
        .chain(description.notes.iter().map(|n| n.package));
    for parent in parents.flatten() {
        if let Some(slot) = holds.get_mut(parent.index()) {
            *slot = true;
        }
    }
    let element_of = |element: &puml_sema::description::Element| ClassElement {
        kind: ElementKind::Mixed,
        keyword: keyword_of(element.shape).to_string(),
        qualified_name: element.qualified_name.clone(),
        display: element.display.clone(),
        alias: None,
        generic: None,
        stereotypes: element.stereotypes.clone(),
        spot: None,
        style: with_skinparams(diagram, keyword_of(element.shape), &element.style),
        members: Vec::new(),
        package: element.container,
        declared: element.declared,
        json: None,
    };
    let container_element = |container: &puml_sema::class::Package| {
        let shape = Shape::from_keyword(&container.keyword).unwrap_or(Shape::Rectangle);
        ClassElement {
            kind: ElementKind::Mixed,
            keyword: keyword_of(shape).to_string(),
            qualified_name: container.qualified_name.clone(),
            display: container.display.clone(),
            alias: None,
            generic: None,
            stereotypes: container.stereotypes.clone(),
            spot: None,
            style: with_skinparams(diagram, keyword_of(shape), &container.style),
            members: Vec::new(),
            package: container.parent,
            declared: true,
            json: None,
        }
    };
    // The elements in creation order, each empty container (drawn as an
    // element of its keyword) where it was opened: PlantUML hands dot its
    // nodes in that order.
    let mut elements: Vec<ClassElement> = Vec::with_capacity(description.elements.len());
    let mut element_index: Vec<ElementId> = Vec::with_capacity(description.elements.len());
    let mut as_element: Vec<Option<ElementId>> = vec![None; description.containers.len()];
    let mut next_container = 0;
    let mut place_containers_up_to = |created: usize, elements: &mut Vec<ClassElement>| {
        while next_container < description.containers.len() {
            let after = description
                .containers_after_elements
                .get(next_container)
                .map_or(usize::MAX, |&n| n as usize);
            if after > created {
                break;
            }
            if !holds[next_container] {
                as_element[next_container] = Some(ElementId(elements.len() as u32));
                elements.push(container_element(&description.containers[next_container]));
            }
            next_container += 1;
        }
    };
    for (created, element) in description.elements.iter().enumerate() {
        place_containers_up_to(created, &mut elements);
        element_index.push(ElementId(elements.len() as u32));
        elements.push(element_of(element));
    }
    // The rest (a model without creation places puts them all here).
    place_containers_up_to(usize::MAX, &mut elements);
    let renumbered = |id: ElementId| element_index.get(id.index()).copied().unwrap_or(id);
    let end = |end: LinkEnd| match end {
        LinkEnd::Package(p) => as_element
            .get(p.index())
            .copied()
            .flatten()
            .map_or(end, LinkEnd::Element),
        LinkEnd::Element(e) => LinkEnd::Element(renumbered(e)),
        other => other,
    };
    let links = description
        .links
        .iter()
        .map(|link| Link {
            from: end(link.from),
            to: end(link.to),
            ..link.clone()
        })
        .collect();
    // `skinparam packageStyle rectangle` draws packages as rectangles.
    let packages_as_rectangles = diagram
        .settings
        .skinparam("packagestyle")
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("rectangle"));
    let packages = description
        .containers
        .iter()
        .map(|container| {
            let mut container = container.clone();
            if packages_as_rectangles && container.keyword == "package" {
                container.keyword = "rectangle".to_string();
            }
            container.style = with_skinparams(diagram, &container.keyword, &container.style);
            container
        })
        .collect();
    // A note of an empty container is a note of the element it became.
    let notes = description
        .notes
        .iter()
        .map(|note| {
            let mut note = note.clone();
            match note.target {
                NoteTarget::Package { package, side } => {
                    if let Some(element) = as_element.get(package.index()).copied().flatten() {
                        note.target = NoteTarget::Element { element, side };
                    }
                }
                NoteTarget::Element { element, side } => {
                    note.target = NoteTarget::Element {
                        element: renumbered(element),
                        side,
                    };
                }
                _ => {}
            }
            note
        })
        .collect();
    ClassDiagram {
        elements,
        packages,
        links,
        notes,
        visibility: Vec::new(),
        left_to_right: description.left_to_right,
        together: Vec::new(),
        separator: None,
    }
}

/// An element's colours: those written on it, else its keyword's
/// skinparams (`skinparam component { BackgroundColor … }`,
/// `usecaseBorderColor`, `actorFontColor`, …).
fn with_skinparams(diagram: &Diagram, keyword: &str, written: &ElementStyle) -> ElementStyle {
    let keyword = keyword.trim_end_matches('/');
    let param = |name: &str| {
        diagram
            .settings
            .skinparam(&format!("{keyword}{name}"))
            .map(str::to_string)
    };
    let mut style = written.clone();
    style.background = style.background.or_else(|| param("backgroundcolor"));
    style.line_color = style.line_color.or_else(|| param("bordercolor"));
    style.text_color = style.text_color.or_else(|| param("fontcolor"));
    style
}

/// The diagram with its description part as a class part. The class
/// skinparams (`skinparam class { BackgroundColor … }`) are PlantUML's
/// class diagrams' own: a description diagram's elements do not take them
/// (corpus 047 keeps its grey components under `class { BackgroundColor
/// White }`).
fn as_class(diagram: &Diagram) -> Diagram {
    let mut shadow = diagram.clone();
    shadow
        .settings
        .skinparams
        .retain(|(key, _)| !key.to_ascii_lowercase().starts_with("class"));
    if let Some(description) = diagram.description.as_deref() {
        shadow.class = Some(Box::new(as_class_diagram(diagram, description)));
    }
    shadow.description = None;
    shadow
}

/// The description look over the class look: a named theme's element,
/// arrow, note and cluster colours (PlantUML's themes style description
/// elements as they style participants: `!theme amiga`'s blue fills and
/// white lines and text, corpus 019 and 020). `plain` and `carbon-gray`
/// are the class look's own.
fn description_look(diagram: &Diagram, options: &LayoutOptions) -> impl Fn(&mut ClassLook) {
    let name = options
        .theme
        .as_deref()
        .or(diagram.settings.theme.as_deref())
        .map(str::to_ascii_lowercase);
    let theme = name
        .as_deref()
        .filter(|n| !matches!(*n, "plain" | "carbon-gray"))
        .and_then(Theme::named);
    move |look: &mut ClassLook| {
        let Some(theme) = &theme else { return };
        look.class_bg = theme.participant_bg;
        look.class_border = theme.participant_border;
        look.class_font_color = theme.participant_font_color;
        look.stereotype_font_color = theme.participant_font_color;
        look.arrow_color = theme.arrow_color;
        look.arrow_font_color = theme.arrow_font_color;
        look.note_bg = theme.note_bg;
        look.note_border = theme.note_border;
        look.note_font_color = theme.note_font_color;
        look.package_border = theme.participant_border;
        look.package_font_color = theme.participant_font_color;
        // The participants' outline width (amiga's 1 px).
        let participant = puml_sema::model::ParticipantKind::ALL
            .iter()
            .position(|k| *k == puml_sema::model::ParticipantKind::Participant);
        if let Some(width) = participant.and_then(|i| theme.kind_line_thickness[i]) {
            look.class_border_width = width;
        }
    }
}

/// Lays out a description diagram (one page).
pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let adjust = description_look(diagram, options);
    crate::class::layout_diagram_with(&as_class(diagram), options, metrics, &adjust)
}

/// The graph the description layout hands to its engine, in dot's
/// language (as PlantUML's `svek.dot`).
#[doc(hidden)]
pub fn description_graph_dot(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Option<String> {
    diagram.description.as_ref()?;
    let adjust = description_look(diagram, options);
    crate::class::class_graph_dot_with(&as_class(diagram), options, metrics, &adjust)
}
