//! The elements of class diagrams (and of description diagrams, read in
//! the class model's terms) as editor symbols: the element whose name
//! is under the cursor, with its declaration, every place its name is
//! written (`ClassSourceMap::element_references`: declarations, links,
//! notes, one-line members), what hover shows (kind, members, relations in
//! and out), and the edits of a rename (one per occurrence, the name alone).

use puml_sema::class::{ClassDiagram, ClassSourceMap, LinkEnd, Member, Visibility};
use puml_sema::legacy_activity::{LegacyActivityDiagram, LegacyActivitySourceMap, LegacyNodeKind};
use puml_sema::state::{StateDiagram, StateId, StateKind, StateSourceMap};
use puml_sema::Analysis;
use puml_syntax::{TextEdit, TextRange, TextSize};

/// A class-diagram element found at a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassElementRef {
    pub qualified_name: String,
    /// The name as displayed (the quoted display name, else the last part).
    pub display: String,
    /// The keyword it is declared with (`class`, `interface`, …).
    pub keyword: String,
    /// The name in its declaration, else its first use.
    pub declaration: TextRange,
    /// Every occurrence of its name in this file, in text order.
    pub uses: Vec<TextRange>,
    /// Fields, methods and constants as written, with their visibility.
    pub members: Vec<String>,
    /// The elements this one's relations point to (`A --> B` from A: `B`),
    /// with the arrow as the model reads it.
    pub relations_out: Vec<String>,
    /// The elements whose relations point to this one.
    pub relations_in: Vec<String>,
    /// `<<s>>` stereotypes, without the guillemets, in order.
    pub stereotypes: Vec<String>,
    /// The qualified name of the package (or description container:
    /// `node`, `rectangle`, …) it is written in.
    pub container: Option<String>,
    /// Whether it is an element of a description diagram (use case,
    /// component, deployment): its relations are links, it has no members.
    pub in_description: bool,
}

/// The class-diagram element whose name is written at `offset` in `text`.
pub fn class_element_at(analysis: &Analysis, text: &str, offset: TextSize) -> Option<ClassElementRef> {
    for (diagram, map) in analysis.document.diagrams.iter().zip(&analysis.source_map.diagrams) {
        if let (Some(description), Some(description_map)) = (diagram.description.as_deref(), map.description.as_ref()) {
            // A description diagram's elements, in the class model's terms.
            let (class, class_map) = crate::explain::description_as_class(description, Some(description_map));
            let Some(class_map) = class_map else { continue };
            for (index, references) in class_map.element_references.iter().enumerate() {
                if references.iter().any(|r| r.contains_inclusive(offset)) {
                    let mut found = element_ref(&class, &class_map, index, text);
                    found.in_description = true;
                    return Some(found);
                }
            }
            for (index, references) in description_map.container_references.iter().enumerate() {
                if references.iter().any(|r| r.contains_inclusive(offset)) {
                    return container_ref(description, description_map, index, text);
                }
            }
            continue;
        }
        if let (Some(legacy), Some(legacy_map)) = (diagram.legacy_activity.as_deref(), map.legacy_activity.as_ref()) {
            for (index, references) in legacy_map.node_references.iter().enumerate() {
                if references.iter().any(|r| r.contains_inclusive(offset)) {
                    return legacy_ref(legacy, legacy_map, index, text);
                }
            }
            continue;
        }
        if let (Some(state), Some(state_map)) = (diagram.state.as_deref(), map.state.as_ref()) {
            for (index, references) in state_map.state_references.iter().enumerate() {
                if references.iter().any(|r| r.contains_inclusive(offset)) {
                    return state_ref(state, state_map, index, text);
                }
            }
            continue;
        }
        let (Some(class), Some(class_map)) = (diagram.class.as_deref(), map.class.as_ref()) else {
            continue;
        };
        for (index, references) in class_map.element_references.iter().enumerate() {
            if references.iter().any(|r| r.contains_inclusive(offset)) {
                return Some(element_ref(class, class_map, index, text));
            }
        }
    }
    None
}

fn element_ref(class: &ClassDiagram, map: &ClassSourceMap, index: usize, text: &str) -> ClassElementRef {
    let element = &class.elements[index];
    let uses = uses_in_text(&map.element_references[index], text);
    let statement = map.elements.get(index).copied();
    let declaration = statement
        .filter(|_| element.declared)
        .and_then(|s| uses.iter().copied().find(|r| s.contains_range(*r)))
        .or_else(|| uses.first().copied())
        .unwrap_or_default();
    let name_of = |end: &LinkEnd| match end {
        LinkEnd::Element(id) => class.elements.get(id.index()).map(|e| e.qualified_name.clone()),
        LinkEnd::Package(id) => class.packages.get(id.index()).map(|p| p.qualified_name.clone()),
        LinkEnd::Link(_) | LinkEnd::Note(_) => None,
    };
    let me = LinkEnd::Element(puml_sema::class::ElementId(index as u32));
    let mut relations_out = Vec::new();
    let mut relations_in = Vec::new();
    for link in &class.links {
        if link.from == me {
            relations_out.extend(name_of(&link.to));
        }
        if link.to == me {
            relations_in.extend(name_of(&link.from));
        }
    }
    ClassElementRef {
        qualified_name: element.qualified_name.clone(),
        display: element.display.clone(),
        keyword: element.keyword.clone(),
        declaration,
        uses,
        members: element
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Item(item) => {
                    let visibility = match item.visibility {
                        Some(Visibility::Private) => "-",
                        Some(Visibility::Protected) => "#",
                        Some(Visibility::Package) => "~",
                        Some(Visibility::Public) => "+",
                        None => "",
                    };
                    Some(format!("{visibility}{}", item.text))
                }
                Member::Separator { .. } | Member::Blank => None,
            })
            .collect(),
        relations_out,
        relations_in,
        stereotypes: element.stereotypes.clone(),
        container: element
            .package
            .and_then(|p| class.packages.get(p.index()))
            .map(|p| p.qualified_name.clone()),
        in_description: false,
    }
}

/// A description diagram's container (`package`, `node`, `rectangle`, …
/// with `{ }`), in the class element's terms: its keyword, the container
/// around it, the links naming it (`Shop --> DB` links the cluster).
fn container_ref(
    description: &puml_sema::description::DescriptionDiagram,
    map: &puml_sema::description::DescriptionSourceMap,
    index: usize,
    text: &str,
) -> Option<ClassElementRef> {
    let container = description.containers.get(index)?;
    let uses = uses_in_text(map.container_references.get(index)?, text);
    let statement = map.containers.get(index).copied();
    let declaration = statement
        .and_then(|s| uses.iter().copied().find(|r| s.contains_range(*r)))
        .or_else(|| uses.first().copied())
        .unwrap_or_default();
    let name_of = |end: &LinkEnd| match end {
        LinkEnd::Element(id) => description.elements.get(id.index()).map(|e| e.code.clone()),
        LinkEnd::Package(id) => description.containers.get(id.index()).map(|p| p.qualified_name.clone()),
        LinkEnd::Link(_) | LinkEnd::Note(_) => None,
    };
    let me = LinkEnd::Package(puml_sema::class::PackageId(index as u32));
    let mut relations_out = Vec::new();
    let mut relations_in = Vec::new();
    for link in &description.links {
        if link.from == me {
            relations_out.extend(name_of(&link.to));
        }
        if link.to == me {
            relations_in.extend(name_of(&link.from));
        }
    }
    Some(ClassElementRef {
        qualified_name: container.qualified_name.clone(),
        display: container.display.clone(),
        keyword: container.keyword.clone(),
        declaration,
        uses,
        members: Vec::new(),
        relations_out,
        relations_in,
        stereotypes: container.stereotypes.clone(),
        container: container
            .parent
            .and_then(|p| description.containers.get(p.index()))
            .map(|p| p.qualified_name.clone()),
        in_description: true,
    })
}

/// A state of a state diagram, in the class element's terms: the keyword
/// `state`, its description lines as members, the states its transitions
/// lead to and come from as relations. `[*]` and `[H]` are not symbols.
fn state_ref(state: &StateDiagram, map: &StateSourceMap, index: usize, text: &str) -> Option<ClassElementRef> {
    let me = state.states.get(index)?;
    if me.name.starts_with('*') {
        return None;
    }
    let uses = uses_in_text(&map.state_references[index], text);
    let declaration = *uses.first()?;
    let name_of = |id: StateId| {
        let s = state.states.get(id.index())?;
        Some(match s.kind {
            StateKind::Start | StateKind::End if s.name.starts_with('*') => "[*]".to_string(),
            StateKind::History if s.name.starts_with('*') => "[H]".to_string(),
            StateKind::DeepHistory if s.name.starts_with('*') => "[H*]".to_string(),
            _ => state.qualified_name(id),
        })
    };
    let id = StateId(index as u32);
    let mut relations_out = Vec::new();
    let mut relations_in = Vec::new();
    for transition in &state.transitions {
        if transition.from == id {
            relations_out.extend(name_of(transition.to));
        }
        if transition.to == id {
            relations_in.extend(name_of(transition.from));
        }
    }
    Some(ClassElementRef {
        qualified_name: state.qualified_name(id),
        display: me.display.clone(),
        keyword: "state".to_string(),
        declaration,
        uses,
        members: me.description.clone(),
        relations_out,
        relations_in,
        stereotypes: me.stereotypes.clone(),
        container: me.parent.map(|p| state.qualified_name(p)),
        in_description: false,
    })
}

/// An activity or bar of a legacy activity diagram, in the class element's
/// terms: the keyword `activity` or `bar`, the notes placed by it as
/// members, the nodes its links lead to and come from as relations (`(*)`
/// for the start and end, `if` for a branch's diamond). `(*)` and the
/// diamonds are not symbols.
fn legacy_ref(
    legacy: &LegacyActivityDiagram,
    map: &LegacyActivitySourceMap,
    index: usize,
    text: &str,
) -> Option<ClassElementRef> {
    let me = legacy.nodes.get(index)?;
    let keyword = match me.kind {
        LegacyNodeKind::Action => "activity",
        LegacyNodeKind::Bar => "bar",
        LegacyNodeKind::Start | LegacyNodeKind::End | LegacyNodeKind::Branch => return None,
    };
    let uses = uses_in_text(&map.node_references[index], text);
    let declaration = *uses.first()?;
    let name_of = |node: usize| {
        let n = legacy.nodes.get(node)?;
        Some(match n.kind {
            LegacyNodeKind::Start | LegacyNodeKind::End => "(*)".to_string(),
            LegacyNodeKind::Branch => "if".to_string(),
            LegacyNodeKind::Bar => format!("==={}===", n.code),
            LegacyNodeKind::Action => n.code.clone(),
        })
    };
    let mut relations_out = Vec::new();
    let mut relations_in = Vec::new();
    for link in &legacy.links {
        if link.from == index {
            relations_out.extend(name_of(link.to));
        }
        if link.to == index {
            relations_in.extend(name_of(link.from));
        }
    }
    Some(ClassElementRef {
        qualified_name: me.code.clone(),
        display: if me.kind == LegacyNodeKind::Bar {
            me.code.clone()
        } else {
            me.display.clone()
        },
        keyword: keyword.to_string(),
        declaration,
        uses,
        members: legacy
            .notes
            .iter()
            .filter(|n| n.node == index)
            .map(|n| n.text.clone())
            .collect(),
        relations_out,
        relations_in,
        stereotypes: Vec::new(),
        container: me
            .partition
            .and_then(|p| legacy.partitions.get(p))
            .map(|p| p.name.clone()),
        in_description: false,
    })
}

/// A symbol's recorded occurrences that lie in `text`, in source order,
/// each once: ranges read from an included file index that file, so those
/// past this text's end or off its character boundaries are dropped.
fn uses_in_text(recorded: &[TextRange], text: &str) -> Vec<TextRange> {
    let mut uses: Vec<TextRange> = recorded
        .iter()
        .copied()
        .filter(|r| usize::from(r.end()) <= text.len() && text.is_char_boundary(r.start().into()))
        .collect();
    uses.sort_by_key(|r| (r.start(), r.end()));
    uses.dedup();
    uses
}

/// A class diagram's place in the file and its element names: what
/// completion offers inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassOutline {
    /// Which diagram of the file (0-based).
    pub diagram_index: usize,
    /// The whole `@startuml … @enduml` range.
    pub range: TextRange,
    /// Qualified names (a description diagram's: the codes links name its
    /// elements by) with their keywords, in order of first appearance.
    pub elements: Vec<(String, String)>,
    /// Whether it is a description diagram (use case, component,
    /// deployment): its elements' keywords are their shapes' (`actor`,
    /// `usecase`, `component`, `node`, …).
    pub description: bool,
    /// Whether it is a legacy activity diagram (`(*) --> "First"`): its
    /// elements are its activities and bars as a line names them
    /// (`First`, `"Long text"`, `===B1===`), keyword `activity` or `bar`.
    pub legacy_activity: bool,
}

/// How a line of a legacy activity diagram names `node` (`None` for the
/// start, end and branch diamonds, which no line names): a plain name as
/// it is (PlantUML reads `First` and `"First"` as one activity), any other
/// quoted, a bar between `===`.
fn legacy_written_name(node: &puml_sema::legacy_activity::LegacyNode) -> Option<(String, String)> {
    use puml_sema::legacy_activity::LegacyNodeKind;
    match node.kind {
        LegacyNodeKind::Action => {
            let plain = !node.code.is_empty()
                && node.code.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && !node.code.starts_with('.');
            let written = if plain {
                node.code.clone()
            } else {
                format!("\"{}\"", node.code)
            };
            Some((written, "activity".to_string()))
        }
        LegacyNodeKind::Bar => Some((format!("==={}===", node.code), "bar".to_string())),
        LegacyNodeKind::Start | LegacyNodeKind::End | LegacyNodeKind::Branch => None,
    }
}

/// The class diagrams of an analysis.
pub fn class_outlines(analysis: &Analysis) -> Vec<ClassOutline> {
    analysis
        .document
        .diagrams
        .iter()
        .zip(&analysis.source_map.diagrams)
        .enumerate()
        .filter_map(|(diagram_index, (diagram, map))| {
            let elements = match (diagram.class.as_deref(), diagram.description.as_deref()) {
                (Some(class), _) => class
                    .elements
                    .iter()
                    .map(|e| (e.qualified_name.clone(), e.keyword.clone()))
                    .collect(),
                // Description diagrams: each element by the code a link
                // names it with (PlantUML reads `P.E` in a link as a new
                // element, not as `E` of container `P`), with its shape's
                // keyword; a code used twice once.
                (None, Some(description)) => {
                    let mut seen = std::collections::HashSet::new();
                    description
                        .elements
                        .iter()
                        .filter(|e| seen.insert(e.code.as_str()))
                        .map(|e| (e.code.clone(), e.shape.keyword().to_string()))
                        .collect()
                }
                (None, None) => {
                    let legacy = diagram.legacy_activity.as_deref()?;
                    let mut seen = std::collections::HashSet::new();
                    let elements = legacy
                        .nodes
                        .iter()
                        .filter_map(legacy_written_name)
                        .filter(|(written, _)| seen.insert(written.clone()))
                        .collect();
                    return Some(ClassOutline {
                        diagram_index,
                        range: map.range,
                        elements,
                        description: false,
                        legacy_activity: true,
                    });
                }
            };
            Some(ClassOutline {
                diagram_index,
                range: map.range,
                elements,
                description: diagram.class.is_none(),
                legacy_activity: false,
            })
        })
        .collect()
}

/// The class outlines of `text` with the line holding `offset` blanked
/// (every byte a space, so offsets stay), when one of them holds `offset`:
/// what completion reads while that line is half written.
pub(crate) fn outlines_without_line(text: &str, offset: TextSize) -> Option<Vec<ClassOutline>> {
    let at = usize::from(offset).min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let end = text[at..].find(['\r', '\n']).map_or(text.len(), |n| at + n);
    if start == end {
        return None;
    }
    let blanked = format!("{}{}{}", &text[..start], " ".repeat(end - start), &text[end..]);
    let analysis = puml_sema::analyze(&blanked, &Default::default(), &puml_sema::NoIncludes);
    let outlines = class_outlines(&analysis);
    outlines
        .iter()
        .any(|o| o.range.contains_inclusive(offset))
        .then_some(outlines)
}

/// Why a class cannot be renamed to a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadClassName(pub String);

/// The edits renaming `element` to `new_name` in `text`: one per occurrence,
/// replacing the last part of the name as written (`a.b.C` keeps `a.b.`,
/// `"C"` keeps its quotes).
pub fn rename_class_edits(
    text: &str,
    element: &ClassElementRef,
    new_name: &str,
) -> Result<Vec<TextEdit>, BadClassName> {
    let new_name = new_name.trim();
    if new_name.is_empty()
        || new_name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '{' | '}' | '<' | '>' | ':' | '.'))
    {
        return Err(BadClassName(format!(
            "`{new_name}` is not a class name: no blanks, quotes, braces, angle brackets, `.` or `:`"
        )));
    }
    // A description element's name goes inside `[…]`, `(…)` and `:…:`.
    if element.in_description && new_name.contains(['[', ']', '(', ')']) {
        return Err(BadClassName(format!(
            "`{new_name}` is not an element name: no brackets or parentheses"
        )));
    }
    let mut edits = Vec::new();
    for range in &element.uses {
        let Some(written) = text.get(usize::from(range.start())..usize::from(range.end())) else {
            continue;
        };
        let inner_start = usize::from(written.starts_with('"'));
        let inner_end = written.len() - usize::from(written.len() > 1 && written.ends_with('"'));
        let inner = &written[inner_start..inner_end];
        let last = inner
            .rfind("::")
            .map(|i| i + 2)
            .or_else(|| inner.rfind('.').map(|i| i + 1))
            .unwrap_or(0);
        let start = usize::from(range.start()) + inner_start + last;
        let end = usize::from(range.start()) + inner_end;
        edits.push(TextEdit::replace(
            TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
            new_name.to_string(),
        ));
    }
    Ok(edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(text: &str) -> Analysis {
        puml_sema::analyze(text, &Default::default(), &puml_sema::NoIncludes)
    }

    const SOURCE: &str = "@startuml\nclass Car {\n  +drive()\n}\nclass Wheel\nCar *-- Wheel\nnote right of Car : fast\nCar : +brake()\npackage a.b {\n  class Engine\n}\nCar --> a.b.Engine\n@enduml\n";

    fn at(text: &str, needle: &str, nth: usize) -> TextSize {
        let offset = text.match_indices(needle).nth(nth).expect("needle").0;
        TextSize::from(offset as u32 + 1)
    }

    #[test]
    fn finds_a_class_from_a_link_with_its_members_and_relations() {
        let analysis = analyze(SOURCE);
        let found = class_element_at(&analysis, SOURCE, at(SOURCE, "Car *--", 0)).expect("Car");
        assert_eq!(found.qualified_name, "Car");
        assert_eq!(found.keyword, "class");
        assert_eq!(found.members, vec!["+drive()", "+brake()"]);
        assert_eq!(found.relations_out, vec!["Wheel", "a.b.Engine"]);
        assert!(found.relations_in.is_empty());
        // Declaration, link, note, one-line member, second link.
        assert_eq!(found.uses.len(), 5, "{found:?}");
        assert_eq!(&SOURCE[found.declaration], "Car");
        assert!(found.declaration.start() < found.uses[1].start());
    }

    #[test]
    fn renames_every_occurrence_and_only_the_last_part_of_a_qualified_name() {
        let analysis = analyze(SOURCE);
        let engine = class_element_at(&analysis, SOURCE, at(SOURCE, "Engine", 0)).expect("Engine");
        assert_eq!(engine.qualified_name, "a.b.Engine");
        let edits = rename_class_edits(SOURCE, &engine, "Motor").expect("valid");
        let (renamed, _) = puml_syntax::apply_edits(SOURCE, &edits);
        assert!(
            renamed.contains("class Motor\n") && renamed.contains("Car --> a.b.Motor\n"),
            "{renamed}"
        );
        assert!(edits.iter().all(|e| usize::from(e.range.len()) == "Engine".len()));

        let car = class_element_at(&analysis, SOURCE, at(SOURCE, "Car", 0)).expect("Car");
        let (renamed, _) = puml_syntax::apply_edits(SOURCE, &rename_class_edits(SOURCE, &car, "Auto").unwrap());
        assert!(!renamed.contains("Car"), "{renamed}");
        assert_eq!(renamed.matches("Auto").count(), 5);
        assert!(rename_class_edits(SOURCE, &car, "two words").is_err());
    }

    #[test]
    fn nothing_outside_names() {
        let analysis = analyze(SOURCE);
        assert!(class_element_at(&analysis, SOURCE, at(SOURCE, "+drive", 0)).is_none());
        assert!(class_element_at(&analysis, SOURCE, TextSize::from(2)).is_none());
    }

    #[test]
    fn finds_and_renames_a_legacy_activity_and_a_bar_everywhere_they_are_written() {
        let text = "@startuml\n(*) --> \"First step\" as F\nF -->[ok] ===B1===\nnote right: waits\n===B1=== --> F\nF --> (*)\n@enduml\n";
        let analysis = analyze(text);
        let first = class_element_at(&analysis, text, at(text, "F -->[ok]", 0)).expect("F");
        assert_eq!(first.keyword, "activity");
        assert_eq!(first.display, "First step");
        // The alias where it is made, and the three links naming it.
        let written: Vec<&str> = first.uses.iter().map(|r| &text[*r]).collect();
        assert_eq!(written, ["F", "F", "F", "F"]);
        assert_eq!(first.relations_out, ["===B1===", "(*)"]);
        let bar = class_element_at(&analysis, text, at(text, "B1", 0)).expect("bar");
        assert_eq!(bar.keyword, "bar");
        assert_eq!(bar.members, ["waits"]);
        let edits = rename_class_edits(text, &bar, "Sync").expect("a name");
        let (renamed, _) = puml_syntax::apply_edits(text, &edits);
        assert!(
            renamed.contains("===Sync=== --> F") && renamed.contains("-->[ok] ===Sync==="),
            "{renamed}"
        );
        // `(*)` is no symbol.
        assert!(class_element_at(&analysis, text, at(text, "(*)", 0)).is_none());
    }

    #[test]
    fn finds_and_renames_a_state_everywhere_it_is_written() {
        let text = "@startuml\n[*] --> Idle\nstate Idle : waits\nIdle --> Busy : job\nstate Busy {\n  [*] --> Load\n}\nBusy --> Idle\nnote left of Idle : start\n@enduml\n";
        let analysis = analyze(text);
        let idle = class_element_at(&analysis, text, at(text, "Idle", 2)).expect("Idle");
        assert_eq!(idle.qualified_name, "Idle");
        assert_eq!(idle.keyword, "state");
        assert_eq!(idle.members, vec!["waits"]);
        assert_eq!(idle.relations_out, vec!["Busy"]);
        assert_eq!(idle.relations_in, vec!["[*]", "Busy"]);
        assert_eq!(idle.declaration, idle.uses[0]);
        let edits = rename_class_edits(text, &idle, "Waiting").expect("valid");
        let (renamed, _) = puml_syntax::apply_edits(text, &edits);
        assert!(!renamed.contains("Idle"), "{renamed}");
        assert_eq!(renamed.matches("Waiting").count(), 5, "{renamed}");
        let load = class_element_at(&analysis, text, at(text, "Load", 0)).expect("Load");
        assert_eq!(load.qualified_name, "Busy.Load");
        // The pseudo-states are not symbols.
        assert!(class_element_at(&analysis, text, at(text, "[*]", 0)).is_none());
    }

    #[test]
    fn finds_and_renames_a_description_element_inside_its_short_forms() {
        let text = "@startuml\nactor User\n[Cart] as C\nUser --> (Buy)\nC ..> (Buy) : uses\nnote right of (Buy) : main\n@enduml\n";
        let analysis = analyze(text);
        let buy = class_element_at(&analysis, text, at(text, "Buy", 0)).expect("Buy");
        assert_eq!(buy.qualified_name, "Buy");
        assert_eq!(buy.keyword, "usecase");
        assert_eq!(buy.relations_in, vec!["User", "C"]);
        let edits = rename_class_edits(text, &buy, "Pay").expect("valid");
        let (renamed, _) = puml_syntax::apply_edits(text, &edits);
        assert_eq!(
            renamed,
            "@startuml\nactor User\n[Cart] as C\nUser --> (Pay)\nC ..> (Pay) : uses\nnote right of (Pay) : main\n@enduml\n"
        );
        let outlines = class_outlines(&analysis);
        assert_eq!(outlines.len(), 1);
        assert!(outlines[0]
            .elements
            .contains(&("C".to_string(), "component".to_string())));
    }

    #[test]
    fn every_spelling_of_a_description_element_resolves_and_renames_as_written() {
        // Both sources checked VALID by PlantUML.
        let text = "@startuml\n:Admin:\n[Auth Service] as Auth\n:Admin: --> (Login)\nAdmin --> Auth : uses\nAuth ..> [DB]\nnote right of Auth : checks\n@enduml\n";
        let analysis = analyze(text);
        // `:Admin:` declared, `:Admin:` and `Admin` in links: one actor.
        for nth in 0..3 {
            let admin = class_element_at(&analysis, text, at(text, "Admin", nth)).expect("Admin");
            assert_eq!(admin.qualified_name, "Admin");
            assert_eq!(admin.keyword, "actor");
            assert_eq!(admin.uses.len(), 3, "{admin:?}");
            assert!(admin.in_description);
        }
        let auth = class_element_at(&analysis, text, at(text, "Auth ..>", 0)).expect("Auth");
        assert_eq!(
            (auth.keyword.as_str(), auth.display.as_str()),
            ("component", "Auth Service")
        );
        assert_eq!(auth.relations_out, vec!["DB"]);
        assert_eq!(auth.relations_in, vec!["Admin"]);
        let admin = class_element_at(&analysis, text, at(text, "Admin", 0)).expect("Admin");
        let mut edits = rename_class_edits(text, &admin, "Boss").expect("valid");
        edits.extend(rename_class_edits(text, &auth, "Gate").expect("valid"));
        assert!(rename_class_edits(text, &admin, "(Boss)").is_err());
        let (renamed, _) = puml_syntax::apply_edits(text, &edits);
        assert_eq!(
            renamed,
            "@startuml\n:Boss:\n[Auth Service] as Gate\n:Boss: --> (Login)\nBoss --> Gate : uses\nGate ..> [DB]\nnote right of Gate : checks\n@enduml\n"
        );
    }

    #[test]
    fn a_description_element_knows_its_container_and_stereotypes() {
        let text = "@startuml\nnode Server {\n  component [API] <<rest>>\n}\n[API] --> [Store]\n@enduml\n";
        let analysis = analyze(text);
        let api = class_element_at(&analysis, text, at(text, "API] -->", 0)).expect("API");
        assert_eq!(api.qualified_name, "Server.API");
        assert_eq!(api.container.as_deref(), Some("Server"));
        assert_eq!(api.stereotypes, vec!["rest"]);
        assert_eq!(api.uses.len(), 2);
    }
}
