//! The structural edits of description diagrams (use case, component,
//! deployment, `rectangle`): `add_element` declares an element, or with
//! `container` an empty container `node N {` … `}` (at the top, or inside
//! a container, before its `}`), and `add_link` writes
//! `from arrow to : label` in the innermost container that holds both
//! ends, each end written so that PlantUML reads it as that element (its
//! code, quoted when it has blanks: `"Withdraw cash"` names the use case
//! `(Withdraw cash)`, checked with the oracle).

use super::{invalid, Context, EditError};
use puml_sema::class::PackageId;
use puml_sema::description::{DescriptionDiagram, DescriptionSourceMap, Shape};
use puml_syntax::{ast, SyntaxKind, TextSize};

/// What an alias may be: a plain code (letters, digits, `_`).
const ALIAS_RULE: &str = "must be a plain code: letters, digits and `_` only";

fn is_plain_code(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A name as a link or a declaration writes it: plain when it is a plain
/// code, else quoted.
fn written(code: &str) -> String {
    if is_plain_code(code) {
        code.to_string()
    } else {
        format!("\"{code}\"")
    }
}

/// A link arrow of the description grammar (`-->`, `..>`, `-up->`,
/// `-[#red]->`, `--0`, …): decided by the parser itself, `[A] ARROW [B]`
/// must read as one link of a description diagram, without error. A head
/// on the left (`<--`) is refused: the edit writes `from` first.
fn is_description_arrow(arrow: &str) -> bool {
    super::arrow_reads_as_one_link(
        arrow,
        &format!("@startuml\n[A] {arrow} [B]\n@enduml\n"),
        SyntaxKind::DESC_LINK,
    )
}

/// One end of a link: an element or a container.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Element(usize),
    Container(usize),
}

impl Context<'_> {
    /// The first diagram's description model, or why the edit does not apply.
    fn description_diagram(&self) -> Result<(&DescriptionDiagram, &DescriptionSourceMap), EditError> {
        let (d, map) = self.diagram().ok_or(EditError::NoDiagram)?;
        match (d.description.as_deref(), map.description.as_ref()) {
            (Some(description), Some(description_map)) => Ok((description, description_map)),
            _ => Err(invalid(
                "kind",
                "the first diagram is not a description (use case, component, deployment) diagram",
            )),
        }
    }

    /// The element `name` names: its code (alias), its qualified name, or
    /// (when one element alone has it) its displayed name.
    fn find_element(&self, name: &str) -> Result<Option<usize>, EditError> {
        let (description, _) = self.description_diagram()?;
        let name = name.trim();
        let elements = &description.elements;
        if let Some(i) = elements.iter().position(|e| e.code == name || e.qualified_name == name) {
            return Ok(Some(i));
        }
        let shown: Vec<usize> = (0..elements.len()).filter(|i| elements[*i].display == name).collect();
        Ok((shown.len() == 1).then(|| shown[0]))
    }

    /// The container `name` names: its alias, qualified name, code (the
    /// last part) or displayed name, when one container alone has it.
    fn find_container(&self, name: &str) -> Result<Option<usize>, EditError> {
        let (description, _) = self.description_diagram()?;
        let name = name.trim();
        let containers = &description.containers;
        if let Some(i) = containers
            .iter()
            .position(|c| c.alias.as_deref() == Some(name) || c.qualified_name == name)
        {
            return Ok(Some(i));
        }
        let matching: Vec<usize> = (0..containers.len())
            .filter(|i| container_code(&containers[*i]) == name || containers[*i].display == name)
            .collect();
        Ok((matching.len() == 1).then(|| matching[0]))
    }

    /// The names an error message lists.
    fn known_elements(&self) -> String {
        let Ok((description, _)) = self.description_diagram() else {
            return String::new();
        };
        let mut names: Vec<&str> = description.elements.iter().map(|e| e.code.as_str()).collect();
        names.extend(description.containers.iter().map(|c| c.qualified_name.as_str()));
        names.join(", ")
    }

    fn require_end(&self, name: &str, argument: &str) -> Result<End, EditError> {
        if let Some(i) = self.find_element(name)? {
            return Ok(End::Element(i));
        }
        if let Some(i) = self.find_container(name)? {
            return Ok(End::Container(i));
        }
        Err(invalid(
            argument,
            format!(
                "unknown element `{}`; known elements and containers: {}",
                name.trim(),
                self.known_elements()
            ),
        ))
    }

    /// Where a statement goes inside container `parent` (before its `}`,
    /// indented one level deeper than the `}`), or at the top level
    /// (before `@enduml`).
    fn end_of_container(&self, parent: Option<usize>) -> Result<(TextSize, String), EditError> {
        let Some(parent) = parent else {
            return Ok(self.end_of_flow());
        };
        let (description, map) = self.description_diagram()?;
        let name = &description.containers[parent].qualified_name;
        let opened_at = map.containers.get(parent).copied();
        // The `{` and the `}` are flat statements: match them with a stack
        // of whether each open one is the container sought.
        let mut open: Vec<bool> = Vec::new();
        for node in &self.statements {
            match node.kind() {
                SyntaxKind::DESC_CONTAINER_START => open.push(Some(ast::statement_range(node)) == opened_at),
                SyntaxKind::DESC_CONTAINER_END => {
                    let closes_parent = open.pop() == Some(true);
                    if closes_parent {
                        let indent = format!("{}  ", self.indent_of(node));
                        return Ok((super::line_start_of(self.source, node.text_range().start()), indent));
                    }
                }
                _ => {}
            }
        }
        Err(invalid(
            "parent",
            format!("the container `{name}` has no `}}` in this file"),
        ))
    }

    pub(super) fn add_element(
        &self,
        kind: &str,
        name: &str,
        alias: Option<&str>,
        parent: Option<&str>,
        stereotype: Option<&str>,
        container: bool,
    ) -> Result<String, EditError> {
        self.description_diagram()?;
        let keyword = kind.trim().to_ascii_lowercase();
        if container && !puml_syntax::description_grammar::CONTAINERS.contains(&keyword.as_str()) {
            return Err(invalid(
                "kind",
                format!(
                    "`{}` opens no container; containers are {}",
                    kind.trim(),
                    puml_syntax::description_grammar::CONTAINERS.join(", ")
                ),
            ));
        }
        let shape = Shape::from_keyword(kind.trim()).ok_or_else(|| {
            invalid(
                "kind",
                format!(
                    "`{}` is not an element keyword (actor, usecase, component, interface, node, database, …)",
                    kind.trim()
                ),
            )
        })?;
        let name = name.trim();
        if name.is_empty() || name.contains(['\n', '\r', '"', '[', ']', '(', ')', '{', '}', '<', '>', ':']) {
            return Err(invalid(
                "name",
                "must be a single line without quotes, brackets, braces, angle brackets or `:`",
            ));
        }
        let alias = alias.map(str::trim).filter(|a| !a.is_empty());
        if let Some(alias) = alias {
            if !is_plain_code(alias) {
                return Err(invalid("alias", ALIAS_RULE));
            }
        }
        let code = alias.unwrap_or(name);
        if self.find_element(code)?.is_some() || alias.is_none() && self.find_element(name)?.is_some() {
            return Err(invalid(
                if alias.is_some() { "alias" } else { "name" },
                format!("an element named `{code}` already exists"),
            ));
        }
        if container && self.find_container(code)?.is_some() {
            return Err(invalid(
                if alias.is_some() { "alias" } else { "name" },
                format!("a container named `{code}` already exists"),
            ));
        }
        let parent = parent
            .map(|p| {
                self.find_container(p)?
                    .ok_or_else(|| invalid("parent", format!("unknown container `{}`", p.trim())))
            })
            .transpose()?;
        // PlantUML reads a port only inside a container (checked: `port p`
        // at the top is a syntax error).
        if !container && matches!(shape, Shape::Port | Shape::PortIn | Shape::PortOut) && parent.is_none() {
            return Err(invalid(
                "parent",
                "a port is declared inside a container (give `parent`)",
            ));
        }
        let mut line = format!("{} {}", shape.keyword(), written(name));
        if let Some(alias) = alias {
            line.push_str(&format!(" as {alias}"));
        }
        if let Some(stereotype) = stereotype.map(str::trim).filter(|s| !s.is_empty()) {
            let inner = stereotype.trim_start_matches("<<").trim_end_matches(">>").trim();
            if inner.is_empty() || inner.contains(['\n', '\r', '<', '>']) {
                return Err(invalid(
                    "stereotype",
                    "must be one word or phrase, e.g. `service` or `<<service>>`",
                ));
            }
            line.push_str(&format!(" <<{inner}>>"));
        }
        let (offset, indent) = self.end_of_container(parent)?;
        if container {
            // A new empty container: its `{` and its `}` (PlantUML draws
            // an empty one as an element of its keyword).
            return Ok(self.insert_lines(offset, &[format!("{indent}{line} {{"), format!("{indent}}}")]));
        }
        Ok(self.insert_lines(offset, &[format!("{indent}{line}")]))
    }

    pub(super) fn add_link(
        &self,
        from: &str,
        to: &str,
        arrow: Option<&str>,
        label: Option<&str>,
    ) -> Result<String, EditError> {
        let from_end = self.require_end(from, "from")?;
        let to_end = self.require_end(to, "to")?;
        let arrow = arrow.unwrap_or("-->").trim();
        if !is_description_arrow(arrow) {
            return Err(invalid(
                "arrow",
                format!("`{arrow}` is not a link arrow (e.g. --> -> ..> -- -up-> -[#red]-> --0)"),
            ));
        }
        let (description, _) = self.description_diagram()?;
        // The containers around an end, innermost first, then the top.
        let chain = |end: End| -> Vec<Option<usize>> {
            let mut chain = Vec::new();
            let mut at: Option<PackageId> = match end {
                End::Element(i) => description.elements[i].container,
                End::Container(i) => description.containers[i].parent,
            };
            while let Some(p) = at {
                if chain.len() > description.containers.len() {
                    break;
                }
                chain.push(Some(p.index()));
                at = description.containers[p.index()].parent;
            }
            chain.push(None);
            chain
        };
        let to_chain = chain(to_end);
        let parent = chain(from_end).into_iter().find(|p| to_chain.contains(p)).flatten();
        let name_of = |end: End| match end {
            End::Element(i) => written(&description.elements[i].code),
            End::Container(i) => written(&container_code(&description.containers[i])),
        };
        let mut line = format!("{} {arrow} {}", name_of(from_end), name_of(to_end));
        if let Some(label) = label {
            if label.contains(['\n', '\r']) {
                return Err(invalid("label", "must be a single line"));
            }
            line.push_str(&format!(" : {}", label.trim()));
        }
        let (offset, indent) = self.end_of_container(parent)?;
        Ok(self.insert_lines(offset, &[format!("{indent}{line}")]))
    }
}

/// The code a container is named by in a link: its alias, else the last
/// part of its qualified name.
fn container_code(container: &puml_sema::class::Package) -> String {
    container.alias.clone().unwrap_or_else(|| {
        container
            .qualified_name
            .rsplit('.')
            .next()
            .unwrap_or(&container.qualified_name)
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{apply_edit, Edit};
    use puml_sema::class::{ElementId, LinkEnd};

    /// How many links of the model join `a` and `b` (either way round): the
    /// tests' check that an edit's link reads as meant.
    fn links_between(description: &DescriptionDiagram, a: usize, b: usize) -> usize {
        let (a, b) = (
            LinkEnd::Element(ElementId(a as u32)),
            LinkEnd::Element(ElementId(b as u32)),
        );
        description
            .links
            .iter()
            .filter(|l| (l.from == a && l.to == b) || (l.from == b && l.to == a))
            .count()
    }

    const SHOP: &str = "@startuml\nactor Customer\nrectangle Shop {\n  usecase \"Check out\" as CO\n  node \"Web tier\" {\n    [Cart]\n  }\n}\nCustomer --> CO\n@enduml\n";

    fn element(kind: &str, name: &str, alias: Option<&str>, parent: Option<&str>, stereotype: Option<&str>) -> Edit {
        Edit::AddElement {
            kind: kind.to_string(),
            name: name.to_string(),
            alias: alias.map(str::to_string),
            parent: parent.map(str::to_string),
            stereotype: stereotype.map(str::to_string),
            container: false,
        }
    }

    fn link(from: &str, to: &str, arrow: Option<&str>, label: Option<&str>) -> Edit {
        Edit::AddLink {
            from: from.to_string(),
            to: to.to_string(),
            arrow: arrow.map(str::to_string),
            label: label.map(str::to_string),
        }
    }

    #[test]
    fn elements_go_at_the_top_or_inside_their_container() {
        let done = apply_edit(SHOP, &element("database", "Orders", None, None, Some("<<sql>>"))).expect("applies");
        assert!(
            done.source.contains("database Orders <<sql>>\n@enduml"),
            "{}",
            done.source
        );
        let done =
            apply_edit(SHOP, &element("usecase", "Pay online", Some("Pay"), Some("Shop"), None)).expect("applies");
        assert!(
            done.source
                .contains("    [Cart]\n  }\n  usecase \"Pay online\" as Pay\n}\n"),
            "{}",
            done.source
        );
        let done = apply_edit(SHOP, &element("port", "p1", None, Some("Web tier"), None)).expect("applies");
        assert!(
            done.source.contains("    [Cart]\n    port p1\n  }\n"),
            "{}",
            done.source
        );
        assert!(done.diagnostics.is_empty(), "{:?}", done.diagnostics);
    }

    /// A new empty container, at the top or inside a parent, is read back
    /// as a container of the diagram (each output checked VALID by
    /// PlantUML: `test-data/edit/descriptions.*`), and elements can then be
    /// declared inside it.
    #[test]
    fn containers_are_added_empty_and_then_filled() {
        let container = |kind: &str, name: &str, parent: Option<&str>| Edit::AddElement {
            kind: kind.to_string(),
            name: name.to_string(),
            alias: None,
            parent: parent.map(str::to_string),
            stereotype: None,
            container: true,
        };
        let done = apply_edit(SHOP, &container("node", "Cache", None)).expect("applies");
        assert!(
            done.source.contains("Customer --> CO\nnode Cache {\n}\n@enduml"),
            "{}",
            done.source
        );
        assert!(done.diagnostics.is_empty(), "{:?}", done.diagnostics);
        let filled =
            apply_edit(&done.source, &element("database", "Redis", None, Some("Cache"), None)).expect("applies");
        assert!(
            filled.source.contains("node Cache {\n  database Redis\n}\n"),
            "{}",
            filled.source
        );
        let nested = apply_edit(SHOP, &container("frame", "Edge", Some("Web tier"))).expect("applies");
        assert!(
            nested.source.contains("    [Cart]\n    frame Edge {\n    }\n  }\n"),
            "{}",
            nested.source
        );
        let analysis = puml_sema::analyze(&nested.source, &Default::default(), &puml_sema::NoIncludes);
        let description = analysis.document.diagrams[0]
            .description
            .as_deref()
            .expect("a description diagram");
        let edge = description
            .containers
            .iter()
            .find(|c| c.qualified_name.ends_with("Edge"))
            .expect("Edge");
        assert_eq!(edge.keyword, "frame");
        assert!(edge.parent.is_some());
        let refused = |edit: Edit, argument: &str| match apply_edit(SHOP, &edit) {
            Err(EditError::InvalidArgument { name, .. }) => assert_eq!(name, argument),
            other => panic!("{other:?}"),
        };
        refused(container("actor", "Crowd", None), "kind");
        refused(container("rectangle", "Shop", None), "name");
    }

    #[test]
    fn bad_elements_are_refused_with_the_argument_named() {
        let refused = |edit: Edit, argument: &str| match apply_edit(SHOP, &edit) {
            Err(EditError::InvalidArgument { name, .. }) => assert_eq!(name, argument),
            other => panic!("{other:?}"),
        };
        refused(element("klass", "X", None, None, None), "kind");
        refused(element("actor", "Customer", None, None, None), "name");
        refused(element("actor", "Boss", Some("CO"), None, None), "alias");
        refused(element("actor", "Boss", Some("two words"), None, None), "alias");
        refused(element("actor", "[Boss]", None, None, None), "name");
        refused(element("actor", "Boss", None, Some("Nowhere"), None), "parent");
        refused(element("port", "p", None, None, None), "parent");
        refused(link("Customer", "Nobody", None, None), "to");
        refused(link("Customer", "CO", Some("<--"), None), "arrow");
        refused(link("Customer", "CO", Some("-> x"), None), "arrow");
        let class = "@startuml\nclass A\n@enduml\n";
        assert!(matches!(
            apply_edit(class, &element("actor", "B", None, None, None)),
            Err(EditError::InvalidArgument { .. })
        ));
    }

    #[test]
    fn links_go_in_the_innermost_container_holding_both_ends() {
        // Both ends inside `Shop`: the link is written there.
        let done = apply_edit(SHOP, &link("Cart", "Check out", Some("..>"), Some("fills"))).expect("applies");
        assert!(
            done.source.contains("  }\n  Cart ..> CO : fills\n}\n"),
            "{}",
            done.source
        );
        // One end outside: at the top, the quoted code of a node.
        let done = apply_edit(SHOP, &link("Customer", "Web tier", None, None)).expect("applies");
        assert!(
            done.source.contains("Customer --> \"Web tier\"\n@enduml"),
            "{}",
            done.source
        );
        let analysis = puml_sema::analyze(&done.source, &Default::default(), &puml_sema::NoIncludes);
        let description = analysis.document.diagrams[0]
            .description
            .as_deref()
            .expect("description");
        // No new element: the link reaches the declared ones.
        assert_eq!(description.elements.len(), 3);
        let cart = description.elements.iter().position(|e| e.code == "Cart").unwrap();
        let co = description.elements.iter().position(|e| e.code == "CO").unwrap();
        let done = apply_edit(SHOP, &link("Cart", "CO", Some("-[#red]->"), None)).expect("applies");
        let analysis = puml_sema::analyze(&done.source, &Default::default(), &puml_sema::NoIncludes);
        let description = analysis.document.diagrams[0]
            .description
            .as_deref()
            .expect("description");
        assert_eq!(links_between(description, cart, co), 1);
    }
}
