//! Layout invariants over hand-built models (no parser involved).

use puml_layout::{layout, try_layout, Item, LayoutError, LayoutOptions};
use puml_sema::model::*;

fn participant(name: &str, kind: ParticipantKind) -> Participant {
    Participant {
        kind,
        code: name.into(),
        name: name.into(),
        alias: None,
        display: name.into(),
        order: None,
        stereotype: None,
        color: None,
        url: None,
        declared: true,
        in_box: None,
        created: false,
        destroyed: false,
    }
}

fn message(from: u32, to: u32, label: &str) -> Event {
    Event::Message(Message {
        from: Endpoint::Participant {
            id: ParticipantId(from),
        },
        to: Endpoint::Participant { id: ParticipantId(to) },
        arrow: Arrow {
            tail_head: Head::NONE,
            head: Head::FILLED,
            line: LineStyle::Solid,
            color: None,
            bold: false,
            written_reversed: false,
        },
        label: label.into(),
        number: None,
        slant: None,
        parallel: false,
        anchor: None,
        is_return: false,
    })
}

fn diagram(participants: usize, events: Vec<Event>) -> Diagram {
    Diagram {
        participants: (0..participants)
            .map(|i| participant(&format!("P{i}"), ParticipantKind::ALL[i % 8]))
            .collect(),
        events: events.into(),
        ..Diagram::default()
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 10_000;
    let mut events = Vec::new();
    for _ in 0..depth {
        events.push(Event::GroupStart(Group {
            kind: GroupKind::Alt,
            label: Some("c".into()),
            secondary: None,
            label_trailing_blanks: 0,
            frame_color: None,
            color: None,
        }));
    }
    events.push(message(0, 1, "deep"));
    events.extend(std::iter::repeat_n(Event::GroupEnd, depth));
    let scenes = layout(&diagram(2, events), &LayoutOptions::default());
    assert_eq!(scenes.len(), 1);
    let frames = scenes[0]
        .items
        .iter()
        .filter(|i| matches!(i, Item::Begin { class, .. } if class == "group"))
        .count();
    assert_eq!(frames, depth);
}

#[test]
fn unbalanced_groups_are_tolerated() {
    let events = vec![
        Event::GroupEnd,
        Event::GroupElse {
            label: None,
            color: None,
        },
        message(0, 1, "x"),
    ];
    let scenes = layout(&diagram(2, events), &LayoutOptions::default());
    assert_eq!(scenes.len(), 1);
}

#[test]
fn one_scene_per_page_and_deterministic() {
    let events = vec![
        message(0, 1, "a"),
        Event::NewPage {
            title: Some("two".into()),
        },
        message(1, 0, "b"),
        Event::NewPage { title: None },
        message(0, 0, "c"),
    ];
    let d = diagram(2, events);
    let a = layout(&d, &LayoutOptions::default());
    let b = layout(&d, &LayoutOptions::default());
    assert_eq!(a.len(), d.page_count());
    assert_eq!(a, b);
}

#[test]
fn every_participant_kind_has_a_head_and_fits_its_label() {
    let d = diagram(8, (0..7).map(|i| message(i, i + 1, "m")).collect());
    let scene = &layout(&d, &LayoutOptions::default())[0];
    for i in 0..8 {
        let name = format!("P{i}");
        let drawn = scene.texts().filter(|t| t.text == name).count();
        assert_eq!(drawn, 2, "{name} head and foot");
    }
    assert!(scene.width > 8.0 * 30.0);
}

#[test]
fn labels_fit_between_lifelines() {
    let long = "a very long message label that must push the participants apart";
    let d = diagram(2, vec![message(0, 1, long)]);
    let scene = &layout(&d, &LayoutOptions::default())[0];
    let label = scene.texts().find(|t| t.text == long).expect("label drawn");
    let arrow_end = scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Line { x2, stroke, .. } if stroke.dash.is_none() => Some(*x2),
            _ => None,
        })
        .fold(f64::MIN, f64::max);
    assert!(
        label.x + label.width <= arrow_end + 1.0,
        "{} > {}",
        label.x + label.width,
        arrow_end
    );
}

#[test]
fn limits_are_enforced_with_clear_errors() {
    let d = diagram(3, vec![message(0, 1, "a"), message(1, 2, "b")]);
    let options = LayoutOptions {
        max_events: 1,
        ..LayoutOptions::default()
    };
    let err = try_layout(&d, &options).unwrap_err();
    assert_eq!(
        err,
        LayoutError::TooLarge {
            what: "events",
            count: 2,
            limit: 1
        }
    );
    assert!(err.to_string().contains("limit 1"));
    let options = LayoutOptions {
        theme: Some("nope".into()),
        ..LayoutOptions::default()
    };
    assert!(matches!(try_layout(&d, &options), Err(LayoutError::UnknownTheme(_))));
}

#[test]
fn thousand_participants_and_hundred_thousand_messages_lay_out() {
    let d = diagram(1_000, (0..999).map(|i| message(i, i + 1, "m")).collect());
    let scene = &layout(&d, &LayoutOptions::default())[0];
    assert!(scene.width > 1_000.0 * 20.0);
    let d = diagram(
        10,
        (0..100_000u32)
            .map(|i| message(i % 10, (i * 3 + 1) % 10, "m"))
            .collect(),
    );
    let scene = &layout(&d, &LayoutOptions::default())[0];
    assert!(scene.height > 100_000.0 * 20.0);
}

#[test]
fn every_theme_lays_out() {
    let d = diagram(3, vec![message(0, 1, "a"), message(1, 2, "b")]);
    let mut backgrounds = Vec::new();
    for theme in puml_layout::THEME_NAMES {
        let options = LayoutOptions {
            theme: Some(theme.into()),
            ..LayoutOptions::default()
        };
        let scene = &try_layout(&d, &options).expect("known theme")[0];
        backgrounds.push(scene.background);
    }
    assert!(backgrounds.iter().any(|b| *b != backgrounds[0]), "themes differ");
}
