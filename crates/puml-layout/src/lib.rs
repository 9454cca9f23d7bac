//! Model → scene: the geometry of a sequence, activity, legacy activity, class, description or state diagram, one [`Scene`] per
//! page. Deterministic and free of I/O; text is measured with the
//! embedded DejaVu fonts ([`font::EmbeddedMetrics`]) so that the same model
//! gives the same scene on every machine.

pub mod activity;
mod class;
pub mod color;
pub mod creole;
mod description;
pub mod font;
mod latex;
mod legacy_activity;
pub mod scene;
mod sequence;
mod shapes;
mod sketch;
mod spot_glyphs;
mod state;
pub mod theme;
mod theme_sheets;

#[doc(hidden)]
pub use class::class_graph_dot;
#[doc(hidden)]
pub use description::description_graph_dot;
pub use font::{embedded_font_files, EmbeddedMetrics, TextMeasure};
pub use scene::{
    Color, Font, FontFamily, Gradient, GradientDirection, Item, Paint, PathSegment, Point, Scene, Stroke, TextRun,
};
pub use theme::{Sides, Spacing, Theme, THEME_NAMES};

use puml_sema::model::Diagram;

/// Options that change the look or bound the work.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutOptions {
    /// Overrides the diagram's `!theme` (one of [`THEME_NAMES`]).
    pub theme: Option<String>,
    /// Diagrams with more participants are refused by [`try_layout`].
    pub max_participants: usize,
    /// Diagrams with more events (messages, notes, …) are refused by [`try_layout`].
    pub max_events: usize,
    /// Class diagrams with more elements (classes, objects, notes) are
    /// refused by [`try_layout`].
    pub max_classes: usize,
    /// Class diagrams with more links are refused by [`try_layout`].
    pub max_links: usize,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            theme: None,
            max_participants: 5_000,
            max_events: 500_000,
            max_classes: 2_000,
            max_links: 20_000,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// The diagram is over a configured size limit.
    TooLarge {
        what: &'static str,
        count: usize,
        limit: usize,
    },
    /// `--theme` named a theme that does not exist.
    UnknownTheme(String),
    /// The graph layout engine refused the graph a diagram makes (more
    /// nodes once long links are split at every rank they cross than it
    /// lays out within its bounds): the engine's own message.
    GraphTooLarge(String),
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::TooLarge { what, count, limit } => {
                write!(f, "diagram too large to render: {count} {what} (limit {limit})")
            }
            LayoutError::UnknownTheme(name) => {
                write!(f, "unknown theme `{name}` (known: {})", THEME_NAMES.join(", "))
            }
            LayoutError::GraphTooLarge(why) => write!(f, "diagram too large to render: {why}"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Lays out every page of `diagram` (no size limits are checked).
pub fn layout(diagram: &Diagram, options: &LayoutOptions) -> Vec<Scene> {
    layout_with(diagram, options, &EmbeddedMetrics)
}

/// [`layout`] with a custom text measurer.
pub fn layout_with(diagram: &Diagram, options: &LayoutOptions, metrics: &dyn TextMeasure) -> Vec<Scene> {
    let mut scenes = if diagram.legacy_activity.is_some() {
        legacy_activity::layout_diagram(diagram, options, metrics)
    } else if diagram.state.is_some() {
        state::layout_diagram(diagram, options, metrics)
    } else if diagram.class.is_some() {
        class::layout_diagram(diagram, options, metrics)
    } else if diagram.description.is_some() {
        description::layout_diagram(diagram, options, metrics)
    } else if diagram.activity.is_some() {
        activity::layout_diagram(diagram, options, metrics)
    } else {
        sequence::layout_diagram(diagram, options, metrics)
    };
    let theme_name = options.theme.as_deref().or(diagram.settings.theme.as_deref());
    if theme_name.is_some_and(Theme::is_hand_drawn) {
        scenes.iter_mut().for_each(sketch::sketch);
    }
    if Theme::is_monochrome(&diagram.settings) {
        scenes.iter_mut().for_each(scene::to_grey);
    }
    let dpi_factor = Theme::dpi_for(&diagram.settings, options.theme.as_deref()) / 96.0;
    if diagram.settings.scale.is_some() || dpi_factor != 1.0 {
        for scene in &mut scenes {
            let scale = diagram
                .settings
                .scale
                .map_or(1.0, |s| s.factor(scene.width, scene.height));
            scene::scale_scene(scene, scale * dpi_factor);
        }
    }
    scenes
}

thread_local! {
    /// The graph engine's refusal during the current layout on this thread.
    /// The four graph kinds call the engine deep inside their layout, where
    /// [`layout`] (no limits) keeps drawing a refused graph's boxes in plain
    /// rows; [`try_layout`] turns a refusal into an error instead, so that a
    /// user sees why no links were drawn.
    static GRAPH_REFUSAL: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The engine's layout of `graph`, or `fallback`'s when the engine refuses
/// it (the refusal is remembered for [`try_layout`]).
pub(crate) fn graph_layout_or(
    graph: &puml_graph::Graph,
    fallback: impl FnOnce(&puml_graph::Graph) -> puml_graph::Layout,
) -> puml_graph::Layout {
    match puml_graph::layout(graph) {
        Ok(layout) => layout,
        Err(refusal) => {
            if matches!(refusal, puml_graph::LayoutError::TooLarge { .. }) {
                GRAPH_REFUSAL.with(|slot| *slot.borrow_mut() = Some(refusal.to_string()));
            }
            fallback(graph)
        }
    }
}

/// [`layout`] after checking the size limits and the theme name; a graph
/// the layout engine refuses is an error too ([`LayoutError::GraphTooLarge`]).
pub fn try_layout(diagram: &Diagram, options: &LayoutOptions) -> Result<Vec<Scene>, LayoutError> {
    if let Some(name) = &options.theme {
        if Theme::named(name).is_none() {
            return Err(LayoutError::UnknownTheme(name.clone()));
        }
    }
    // What each kind of diagram counts against which limit. The layout
    // engine's own bounds (`puml_graph::MAX_NODES`) hold too; these are the
    // renderer's, checked before any work.
    let mut counts: Vec<(&'static str, usize, usize)> = Vec::new();
    if let Some(class) = &diagram.class {
        counts.push(("classes", class.elements.len() + class.notes.len(), options.max_classes));
        counts.push(("links", class.links.len(), options.max_links));
    }
    if let Some(description) = &diagram.description {
        let elements = description.elements.len() + description.notes.len();
        counts.push(("elements", elements, options.max_classes));
        counts.push(("links", description.links.len(), options.max_links));
    }
    if let Some(state) = &diagram.state {
        counts.push(("states", state.states.len() + state.notes.len(), options.max_classes));
        counts.push(("transitions", state.transitions.len(), options.max_links));
    }
    if let Some(legacy) = &diagram.legacy_activity {
        counts.push((
            "activities",
            legacy.nodes.len() + legacy.notes.len(),
            options.max_classes,
        ));
        counts.push(("links", legacy.links.len(), options.max_links));
    }
    if let Some(activity) = &diagram.activity {
        // Swimlanes are an activity diagram's columns, its steps its events.
        counts.push(("swimlanes", activity.lanes.len(), options.max_participants));
        counts.push(("steps", activity.steps.len(), options.max_events));
    }
    counts.push(("participants", diagram.participants.len(), options.max_participants));
    counts.push(("events", diagram.events.len(), options.max_events));
    if let Some(&(what, count, limit)) = counts.iter().find(|&&(_, count, limit)| count > limit) {
        return Err(LayoutError::TooLarge { what, count, limit });
    }
    GRAPH_REFUSAL.with(|slot| slot.borrow_mut().take());
    let scenes = layout(diagram, options);
    match GRAPH_REFUSAL.with(|slot| slot.borrow_mut().take()) {
        Some(why) => Err(LayoutError::GraphTooLarge(why)),
        None => Ok(scenes),
    }
}
