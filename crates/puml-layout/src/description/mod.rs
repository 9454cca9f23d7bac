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

pub(crate) use shapes::shape_box;

use crate::font::TextMeasure;
use crate::scene::Scene;
use crate::LayoutOptions;
use puml_sema::class::{ClassDiagram, Element as ClassElement, ElementId, ElementKind, Link, LinkEnd};
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
    let mut elements: Vec<ClassElement> = description
        .elements
        .iter()
        .map(|element| ClassElement {
            kind: ElementKind::Mixed,
            keyword: keyword_of(element.shape).to_string(),
            qualified_name: element.qualified_name.clone(),
            display: element.display.clone(),
            alias: None,
            generic: None,
            stereotypes: element.stereotypes.clone(),
            spot: None,
            style: element.style.clone(),
            members: Vec::new(),
            package: element.container,
            declared: element.declared,
            json: None,
        })
        .collect();
    // Empty containers become elements.
    let mut as_element: Vec<Option<ElementId>> = vec![None; description.containers.len()];
    for (index, container) in description.containers.iter().enumerate() {
        if holds[index] {
            continue;
        }
        let shape = Shape::from_keyword(&container.keyword).unwrap_or(Shape::Rectangle);
        as_element[index] = Some(ElementId(elements.len() as u32));
        elements.push(ClassElement {
            kind: ElementKind::Mixed,
            keyword: keyword_of(shape).to_string(),
            qualified_name: container.qualified_name.clone(),
            display: container.display.clone(),
            alias: None,
            generic: None,
            stereotypes: container.stereotypes.clone(),
            spot: None,
            style: container.style.clone(),
            members: Vec::new(),
            package: container.parent,
            declared: true,
            json: None,
        });
    }
    let end = |end: LinkEnd| match end {
        LinkEnd::Package(p) => as_element.get(p.index()).copied().flatten().map_or(end, LinkEnd::Element),
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
    ClassDiagram {
        elements,
        packages: description.containers.clone(),
        links,
        notes: description.notes.clone(),
        visibility: Vec::new(),
        left_to_right: description.left_to_right,
        together: Vec::new(),
        separator: None,
    }
}

/// The diagram with its description part as a class part.
fn as_class(diagram: &Diagram) -> Diagram {
    let mut shadow = diagram.clone();
    if let Some(description) = diagram.description.as_deref() {
        shadow.class = Some(Box::new(as_class_diagram(diagram, description)));
    }
    shadow.description = None;
    shadow
}

/// Lays out a description diagram (one page).
pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    crate::class::layout_diagram(&as_class(diagram), options, metrics)
}

/// The graph the description layout hands to its engine, in dot's
/// language (as PlantUML's `svek.dot`).
#[doc(hidden)]
pub fn description_graph_dot(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Option<String> {
    diagram.description.as_ref()?;
    crate::class::class_graph_dot(&as_class(diagram), options, metrics)
}
