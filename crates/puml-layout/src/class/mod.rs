//! Class diagrams (with object and ER diagrams): `ClassDiagram` → `Scene`,
//! the way PlantUML's "svek" step draws them. Every element is measured
//! here ([`entity`]), the graph PlantUML would hand to Graphviz `dot` is
//! built ([`graph`]: node sizes, `minlen` from the arrows' lengths, labels
//! as fixed-size boxes, packages as clusters, the grid of unlinked
//! elements), puml's own layered layout engine (`puml-graph`) places it,
//! and everything is drawn at the places it returns ([`draw`]), with the
//! SVG markers PlantUML writes (`<g class="entity" data-qualified-name=…>`,
//! `class="cluster"`, `<g class="link" data-entity-1=… data-entity-2=…>`).
//!
//! Work is bounded: [`crate::try_layout`] refuses a diagram over
//! `LayoutOptions::max_classes`/`max_links`, and the engine has its own
//! caps; a graph the engine refuses is drawn as a plain grid.

pub(crate) mod draw;
pub(crate) mod entity;
mod graph;
pub(crate) mod look;
mod shown;

use crate::font::TextMeasure;
use crate::scene::Scene;
use crate::LayoutOptions;
use puml_sema::class::ClassDiagram;
use puml_sema::model::Diagram;

/// Lays out a class diagram (one page).
pub fn layout_diagram(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    layout_diagram_with(diagram, options, metrics, &|_| {})
}

/// Lays out a class diagram with its look changed by `adjust` (the
/// description layout's own defaults).
pub(crate) fn layout_diagram_with(
    diagram: &Diagram,
    options: &LayoutOptions,
    metrics: &dyn TextMeasure,
    adjust: &dyn Fn(&mut look::ClassLook),
) -> Vec<Scene> {
    let empty = ClassDiagram::default();
    let class = diagram.class.as_deref().unwrap_or(&empty);
    let mut look = look::ClassLook::new(diagram, options.theme.as_deref());
    adjust(&mut look);
    let mut built = graph::build(class, &look, metrics);
    let placed = graph::place(&built);
    vec![draw::draw(diagram, class, &look, &mut built, &placed, metrics)]
}

/// The graph the class layout hands to its engine, in dot's language (as
/// PlantUML's `svek.dot`), for the diagram's class part: to compare with
/// PlantUML's `-debugsvek` and with `dot` while developing.
#[doc(hidden)]
pub fn class_graph_dot(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Option<String> {
    class_graph_dot_with(diagram, options, metrics, &|_| {})
}

/// [`class_graph_dot`] with the look changed by `adjust`.
pub(crate) fn class_graph_dot_with(
    diagram: &Diagram,
    options: &LayoutOptions,
    metrics: &dyn TextMeasure,
    adjust: &dyn Fn(&mut look::ClassLook),
) -> Option<String> {
    let class = diagram.class.as_deref()?;
    let mut look = look::ClassLook::new(diagram, options.theme.as_deref());
    adjust(&mut look);
    Some(graph::to_dot(&graph::build(class, &look, metrics).graph))
}

#[cfg(test)]
mod tests;
