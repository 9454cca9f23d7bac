//! Class diagrams are bounded: a diagram over the class limit is refused
//! before any work, one at the limit is laid out, and odd models (links to
//! nothing, deep packages, empty names) never panic.

use puml_layout::{layout, try_layout, LayoutError, LayoutOptions};
use puml_sema::class::{
    ClassDiagram, Element, ElementId, ElementKind, ElementStyle, LineStyle, Link, LinkEnd, LinkHead, Package, PackageId,
};
use puml_sema::model::Diagram;

fn class(name: &str, package: Option<PackageId>) -> Element {
    Element {
        kind: ElementKind::Class,
        keyword: "class".into(),
        qualified_name: name.into(),
        display: name.into(),
        alias: None,
        generic: None,
        stereotypes: Vec::new(),
        spot: None,
        style: ElementStyle::default(),
        members: Vec::new(),
        package,
        declared: true,
        json: None,
    }
}

fn link(from: u32, to: u32) -> Link {
    Link {
        from: LinkEnd::Element(ElementId(from)),
        to: LinkEnd::Element(ElementId(to)),
        from_head: LinkHead::Triangle,
        to_head: LinkHead::None,
        line: LineStyle::Solid,
        length: 2,
        direction: None,
        hidden: false,
        norank: false,
        color: None,
        thickness: None,
        label: Some("uses".into()),
        label_arrow: None,
        from_label: Some("1".into()),
        to_label: Some("*".into()),
    }
}

fn diagram(class_diagram: ClassDiagram) -> Diagram {
    Diagram {
        class: Some(Box::new(class_diagram)),
        ..Diagram::default()
    }
}

fn chain(n: u32) -> ClassDiagram {
    ClassDiagram {
        elements: (0..n).map(|i| class(&format!("C{i}"), None)).collect(),
        links: (1..n).map(|i| link(i / 2, i)).collect(),
        ..ClassDiagram::default()
    }
}

#[test]
fn too_many_classes_are_refused_before_layout() {
    let options = LayoutOptions {
        max_classes: 10,
        ..LayoutOptions::default()
    };
    let err = try_layout(&diagram(chain(11)), &options).unwrap_err();
    assert_eq!(
        err,
        LayoutError::TooLarge {
            what: "classes",
            count: 11,
            limit: 10
        }
    );
    assert!(try_layout(&diagram(chain(10)), &options).is_ok());
}

#[test]
fn a_large_class_tree_is_laid_out() {
    let scenes = try_layout(&diagram(chain(2_000)), &LayoutOptions::default()).expect("within the limits");
    let scene = &scenes[0];
    let entities = scene
        .items
        .iter()
        .filter(|i| matches!(i, puml_layout::Item::Begin { class, .. } if class == "entity"))
        .count();
    assert_eq!(entities, 2_000);
    assert!(scene.width.is_finite() && scene.height.is_finite());
}

#[test]
fn odd_models_do_not_panic() {
    // Links to elements and packages that do not exist, a package cycle,
    // empty names, a self link.
    let mut d = chain(3);
    d.elements.push(class("", Some(PackageId(0))));
    d.packages.push(Package {
        keyword: "package".into(),
        qualified_name: "p".into(),
        display: "p".into(),
        alias: None,
        stereotypes: Vec::new(),
        style: ElementStyle::default(),
        parent: Some(PackageId(0)),
    });
    d.links.push(link(0, 99));
    d.links.push(link(1, 1));
    d.links.push(Link {
        to: LinkEnd::Package(PackageId(7)),
        ..link(0, 0)
    });
    let scenes = layout(&diagram(d), &LayoutOptions::default());
    assert_eq!(scenes.len(), 1);
}

#[test]
fn a_graph_the_engine_refuses_is_an_error_not_a_silent_grid() {
    // Within the renderer's own limits (2,000 classes, 20,000 links) but far
    // beyond the engine's once long links are split at every rank they
    // cross: `try_layout` says so; `layout` still draws the boxes in rows.
    let n: u32 = 2_000;
    let mut state: u64 = 0x2545_f491;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % u64::from(n)) as u32
    };
    let links = (0..20_000)
        .map(|_| {
            let mut l = link(next(), next());
            l.label = None;
            l.from_label = None;
            l.to_label = None;
            l
        })
        .collect();
    let d = diagram(ClassDiagram {
        elements: (0..n).map(|i| class(&format!("C{i}"), None)).collect(),
        links,
        ..ClassDiagram::default()
    });
    let err = try_layout(&d, &LayoutOptions::default()).unwrap_err();
    assert!(
        matches!(&err, LayoutError::GraphTooLarge(why) if why.contains("graph too large")),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("diagram too large to render"), "{err}");
    let scenes = layout(&d, &LayoutOptions::default());
    assert!(scenes[0].width.is_finite());
    // A diagram the engine lays out leaves no refusal behind for the next.
    assert!(try_layout(&diagram(chain(10)), &LayoutOptions::default()).is_ok());
}
