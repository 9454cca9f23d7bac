//! What `hide`/`show`/`remove` leave of each element: its spot, its
//! stereotypes, its compartments, or the element itself. Rules apply in
//! source order; a later rule about the same thing wins.

use puml_sema::class::{ClassDiagram, Element, ElementKind, VisibilityAction, VisibilityRule};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shown {
    pub circle: bool,
    pub stereotype: bool,
    pub fields: bool,
    pub methods: bool,
    pub hide_empty_fields: bool,
    pub hide_empty_methods: bool,
    /// `hide Foo` / `remove Foo`: not drawn at all.
    pub element: bool,
    /// `hide @unlinked` / `remove @unlinked` applies to it when it has no link.
    pub unlinked: bool,
}

impl Default for Shown {
    fn default() -> Self {
        Shown {
            circle: true,
            stereotype: true,
            fields: true,
            methods: true,
            hide_empty_fields: false,
            hide_empty_methods: false,
            element: true,
            unlinked: true,
        }
    }
}

fn kind_word(kind: ElementKind) -> &'static str {
    match kind {
        ElementKind::Class => "class",
        ElementKind::AbstractClass => "abstract",
        ElementKind::Interface => "interface",
        ElementKind::Enum => "enum",
        ElementKind::Annotation => "annotation",
        ElementKind::Entity => "entity",
        ElementKind::Exception => "exception",
        ElementKind::Metaclass => "metaclass",
        ElementKind::Protocol => "protocol",
        ElementKind::Stereotype => "stereotype",
        ElementKind::Struct => "struct",
        ElementKind::Record => "record",
        ElementKind::Circle => "circle",
        ElementKind::Diamond => "diamond",
        ElementKind::Object => "object",
        ElementKind::Map => "map",
        ElementKind::Json => "json",
        ElementKind::Mixed => "",
    }
}

fn targets(rule: &VisibilityRule, element: &Element) -> bool {
    let Some(target) = rule.target.as_deref() else {
        return true;
    };
    let target = target.trim();
    if let Some(stereo) = target.strip_prefix("<<").and_then(|t| t.strip_suffix(">>")) {
        let stereo = stereo.trim();
        return element
            .stereotypes
            .iter()
            .any(|s| s.trim().eq_ignore_ascii_case(stereo));
    }
    if target.eq_ignore_ascii_case(kind_word(element.kind))
        || (target.eq_ignore_ascii_case("abstract class") && element.kind == ElementKind::AbstractClass)
    {
        return true;
    }
    target == element.qualified_name || target == element.display || element.alias.as_deref() == Some(target)
}

/// What the rules of `diagram` leave of `element`.
pub(crate) fn shown(diagram: &ClassDiagram, element: &Element) -> Shown {
    let mut s = Shown::default();
    for rule in &diagram.visibility {
        if !targets(rule, element) {
            continue;
        }
        let on = matches!(rule.action, VisibilityAction::Show | VisibilityAction::Restore);
        let what = rule.what.trim().to_ascii_lowercase();
        let what = what.split_whitespace().collect::<Vec<_>>().join(" ");
        match what.as_str() {
            "members" | "member" => {
                s.fields = on;
                s.methods = on;
            }
            "fields" | "field" | "attributes" | "attribute" => s.fields = on,
            "methods" | "method" => s.methods = on,
            "circle" | "circles" | "spot" | "spots" => s.circle = on,
            "stereotype" | "stereotypes" => s.stereotype = on,
            "empty members" | "empty member" => {
                s.hide_empty_fields = !on;
                s.hide_empty_methods = !on;
            }
            "empty fields" | "empty attributes" | "empty field" | "empty attribute" => s.hide_empty_fields = !on,
            "empty methods" | "empty method" => s.hide_empty_methods = !on,
            "@unlinked" => s.unlinked = on,
            "" => s.element = on,
            _ => {}
        }
    }
    s
}
