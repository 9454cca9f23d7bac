//! Box sizes against PlantUML 1.2026.8's (read off its SVG of the same
//! classes; the probe is in the test names).

use super::entity::entity_box;
use super::look::ClassLook;
use super::shown::Shown;
use crate::font::EmbeddedMetrics;
use puml_sema::class::{Element, ElementKind, ElementStyle, Member, MemberItem, SeparatorStyle, Spot, Visibility};
use puml_sema::model::Diagram;

fn element(kind: ElementKind, name: &str) -> Element {
    Element {
        kind,
        keyword: String::new(),
        qualified_name: name.into(),
        display: name.into(),
        alias: None,
        generic: None,
        stereotypes: Vec::new(),
        spot: None,
        style: ElementStyle::default(),
        members: Vec::new(),
        package: None,
        declared: true,
        json: None,
    }
}

fn member(text: &str, visibility: Option<Visibility>, is_method: bool) -> Member {
    Member::Item(MemberItem {
        text: text.into(),
        visibility,
        is_static: false,
        is_abstract: false,
        is_method,
    })
}

fn size(e: &Element, shown: &Shown) -> (f64, f64) {
    let look = ClassLook::new(&Diagram::default(), None);
    let b = entity_box(e, shown, &look, &EmbeddedMetrics);
    (
        (b.width * 1000.0).round() / 1000.0,
        (b.height * 1000.0).round() / 1000.0,
    )
}

fn close(actual: (f64, f64), expected: (f64, f64)) {
    assert!(
        (actual.0 - expected.0).abs() < 0.02 && (actual.1 - expected.1).abs() < 0.02,
        "{actual:?} != {expected:?}"
    );
}

#[test]
fn class_boxes_measure_like_plantuml() {
    let s = Shown::default();
    close(size(&element(ElementKind::Class, "A"), &s), (41.577, 48.0));
    close(size(&element(ElementKind::AbstractClass, "D"), &s), (42.78, 48.0));
    close(size(&element(ElementKind::Interface, "E"), &s), (40.846, 48.0));
    let mut b = element(ElementKind::Class, "B");
    b.members = vec![
        member("field : int", Some(Visibility::Public), false),
        member("priv : String", Some(Visibility::Private), false),
        member("prot()", Some(Visibility::Protected), true),
        member("pkg()", Some(Visibility::Package), true),
    ];
    close(size(&b, &s), (108.216, 113.188));
    let mut c = element(ElementKind::Class, "C");
    c.members = vec![member("plain", None, false), member("method()", None, true)];
    close(size(&c, &s), (76.989, 80.594));
    let mut f = element(ElementKind::Enum, "F");
    f.members = vec![member("RED", None, false), member("GREEN", None, false)];
    close(size(&f, &s), (60.74, 80.594));
    let mut g = element(ElementKind::Class, "G");
    g.generic = Some("T".into());
    close(size(&g, &s), (54.179, 48.0));
    let mut h = element(ElementKind::Class, "H");
    h.stereotypes = vec!["Entity".into()];
    close(size(&h, &s), (77.846, 56.266));
    let mut i = element(ElementKind::Class, "I");
    i.stereotypes = vec!["Singleton".into()];
    i.spot = Some(Spot {
        letter: 'S',
        color: Some("#FF7700".into()),
    });
    close(size(&i, &s), (99.355, 56.266));
    close(size(&element(ElementKind::Annotation, "J"), &s), (36.129, 48.0));
    let mut k = element(ElementKind::Class, "K");
    k.members = vec![
        Member::Item(MemberItem {
            text: "s : int".into(),
            visibility: None,
            is_static: true,
            is_abstract: false,
            is_method: false,
        }),
        Member::Item(MemberItem {
            text: "a()".into(),
            visibility: None,
            is_static: false,
            is_abstract: true,
            is_method: true,
        }),
        Member::Separator {
            style: SeparatorStyle::Solid,
            title: None,
        },
        member("x", None, false),
        Member::Separator {
            style: SeparatorStyle::Dotted,
            title: Some("title".into()),
        },
        member("y", None, false),
    ];
    close(size(&k, &s), (51.163, 133.484));
}

#[test]
fn hidden_parts_and_objects_measure_like_plantuml() {
    let no_circle = Shown {
        circle: false,
        ..Shown::default()
    };
    close(size(&element(ElementKind::Class, "A"), &no_circle), (15.577, 42.297));
    let no_members = Shown {
        fields: false,
        methods: false,
        ..Shown::default()
    };
    close(size(&element(ElementKind::Class, "A"), &no_members), (41.577, 32.0));
    let mut obj = element(ElementKind::Object, "obj");
    obj.members = vec![member("name = \"x\"", None, false)];
    close(size(&obj, &Shown::default()), (93.498, 44.594));
    close(
        size(&element(ElementKind::Object, "empty"), &Shown::default()),
        (58.912, 36.297),
    );
    let mut s2 = element(ElementKind::Class, "S");
    s2.stereotypes = vec!["A".into(), "Bee".into()];
    close(size(&s2, &Shown::default()), (65.811, 70.234));
}

/// The SVG ids (`ent0001`, `lnk12`) as the formatter writes them.
#[test]
fn numbered_ids_match_the_formatter() {
    for n in [0u32, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 123_456, u32::MAX] {
        assert_eq!(super::draw::numbered("ent", n, 4), format!("ent{n:04}"));
        assert_eq!(super::draw::numbered("lnk", n, 0), format!("lnk{n}"));
    }
}
