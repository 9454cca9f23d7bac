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
use puml_sema::class::{ClassDiagram, Element as ClassElement, ElementKind};
use puml_sema::description::{DescriptionDiagram, Shape};
use puml_sema::model::Diagram;

/// The description diagram as the class layout reads it.
fn as_class_diagram(diagram: &Diagram, description: &DescriptionDiagram) -> ClassDiagram {
    let components_as_rectangles = shapes::component_as_rectangle(diagram);
    let elements = description
        .elements
        .iter()
        .map(|element| {
            let shape = match element.shape {
                Shape::Component if components_as_rectangles => Shape::Rectangle,
                shape => shape,
            };
            ClassElement {
                kind: ElementKind::Mixed,
                keyword: shape.keyword().to_string(),
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
            }
        })
        .collect();
    ClassDiagram {
        elements,
        packages: description.containers.clone(),
        links: description.links.clone(),
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
