//! SVG safety: hostile text in every text position must come out
//! well-formed (checked with an XML parser) and inert: no script, no
//! event handler, no foreignObject, no external or `javascript:` reference.

use puml_layout::{layout, LayoutOptions};
use puml_render::to_svg;
use puml_sema::model::*;

const HOSTILE: &[&str] = &[
    "<script>alert(1)</script>",
    "\" onload=\"alert(1)",
    "' onclick='alert(1)",
    "]]> <![CDATA[ x ]]>",
    "&amp; &lt; &#x3C;script&#x3E; &unknown; &",
    "ctrl\u{0}\u{1}\u{7}\u{8}\u{b}\u{c}\u{1b}\u{7f}\u{85}end",
    "rtl \u{202e}txet\u{202c} עברית العربية",
    "<foreignObject><body/></foreignObject>",
    "[[javascript:alert(1) click]] [[https://example.com/?a=1&b=2 ok]] [[https://x.org/\"onload=\"y z]]",
    "<img src=x onerror=alert(1)> <a href='javascript:x'>",
];

fn text(i: usize) -> String {
    HOSTILE[i % HOSTILE.len()].to_string()
}

fn hostile_diagram(seed: usize) -> Diagram {
    let participants: Vec<Participant> = ParticipantKind::ALL
        .iter()
        .enumerate()
        .map(|(i, kind)| Participant {
            kind: *kind,
            code: format!("p{i}"),
            name: text(seed + i),
            alias: None,
            display: text(seed + i),
            order: None,
            stereotype: Some(Stereotype {
                labels: vec![text(seed + i + 1)],
                spot: None,
            }),
            color: Some(text(seed + i + 2)),
            url: Some("javascript:alert(1)".into()),
            declared: true,
            in_box: Some(0),
            created: false,
            destroyed: false,
        })
        .collect();
    let id = |i: u32| ParticipantId(i);
    let msg = |from: u32, to: u32, label: String| {
        Event::Message(Message {
            from: Endpoint::Participant { id: id(from) },
            to: Endpoint::Participant { id: id(to) },
            arrow: Arrow {
                tail_head: Head::NONE,
                head: Head::FILLED,
                line: LineStyle::Solid,
                color: Some(text(seed + 3)),
                bold: false,
                written_reversed: false,
            },
            label: label.into(),
            number: Some(text(seed + 4).into()),
            slant: None,
            parallel: false,
            anchor: None,
            is_return: false,
        })
    };
    let events = vec![
        msg(0, 1, text(seed)),
        msg(1, 1, text(seed + 1)),
        Event::Note(Note {
            position: NotePosition::Left { of: Some(id(0)) },
            shape: NoteShape::Note,
            text: text(seed + 2),
            color: Some(text(seed + 3)),
            aligned: false,
            parallel: false,
        }),
        Event::Note(Note {
            position: NotePosition::Over {
                first: id(1),
                last: Some(id(3)),
            },
            shape: NoteShape::Hexagon,
            text: text(seed + 3),
            color: None,
            aligned: false,
            parallel: false,
        }),
        Event::Note(Note {
            position: NotePosition::Across,
            shape: NoteShape::Rectangle,
            text: text(seed + 4),
            color: None,
            aligned: false,
            parallel: false,
        }),
        Event::Ref(Reference {
            participants: vec![id(2), id(4)],
            text: text(seed + 5),
            color: Some(text(seed + 6)),
        }),
        Event::GroupStart(Group {
            kind: GroupKind::Group,
            label: Some(text(seed + 6)),
            secondary: Some(text(seed + 7)),
            label_trailing_blanks: 0,
            frame_color: Some(text(seed + 8)),
            color: Some(text(seed + 9)),
        }),
        msg(2, 3, text(seed + 7)),
        Event::GroupElse {
            label: Some(text(seed + 8)),
            color: Some(text(seed)),
        },
        msg(3, 2, text(seed + 9)),
        Event::GroupEnd,
        Event::Divider {
            text: text(seed + 1),
            spaced: false,
        },
        Event::Delay {
            text: Some(text(seed + 2)),
        },
        Event::Activate {
            participant: id(5),
            color: Some(text(seed + 3)),
        },
        msg(4, 5, text(seed + 4)),
        Event::Deactivate { participant: id(5) },
        Event::NewPage {
            title: Some(text(seed + 5)),
        },
        msg(6, 7, text(seed + 6)),
    ];
    Diagram {
        name: Some(text(seed)),
        participants,
        boxes: vec![ParticipantBox {
            title: Some(text(seed + 1)),
            color: Some(text(seed + 2)),
            participants: vec![id(0), id(1)],
            parent: None,
        }],
        events: events.into(),
        title: Some(text(seed + 2)),
        header: Some(Decoration {
            text: text(seed + 3),
            align: None,
        }),
        footer: Some(Decoration {
            text: text(seed + 4),
            align: Some(HorizontalAlign::Left),
        }),
        legend: Some(Legend {
            text: text(seed + 5),
            vertical: None,
            horizontal: None,
        }),
        caption: Some(text(seed + 6)),
        mainframe: Some(text(seed + 7)),
        settings: Settings::default(),
        activity: None,
        class: None,
        description: None,
        state: None,
        legacy_activity: None,
        other_kind: None,
    }
}

fn assert_inert(svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("SVG is not well-formed XML: {e}\n{svg}"));
    for node in doc.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name().to_ascii_lowercase();
        assert!(
            !matches!(
                name.as_str(),
                "script" | "foreignobject" | "iframe" | "image" | "use" | "style"
            ),
            "forbidden element <{name}>"
        );
        for attr in node.attributes() {
            let key = attr.name().to_ascii_lowercase();
            assert!(!key.starts_with("on"), "event handler attribute {key}");
            let value = attr.value().to_ascii_lowercase();
            if key == "href" {
                assert!(
                    value.starts_with("http://") || value.starts_with("https://"),
                    "non-http link {value}"
                );
            }
            assert!(!value.contains("javascript:"), "javascript: in attribute {key}");
            assert!(!value.contains("url("), "external reference in attribute {key}");
        }
    }
}

fn drawn_text(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).expect("well-formed");
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

#[test]
fn hostile_text_everywhere_is_escaped_and_inert() {
    for seed in 0..HOSTILE.len() {
        let scenes = layout(&hostile_diagram(seed), &LayoutOptions::default());
        assert_eq!(scenes.len(), 2);
        for scene in &scenes {
            let svg = to_svg(scene);
            assert_inert(&svg);
            assert!(!svg.to_ascii_lowercase().contains("<script"));
        }
    }
    // The hostile strings are drawn as text, never interpreted as markup.
    let svg = to_svg(&layout(&hostile_diagram(0), &LayoutOptions::default())[0]);
    let text = drawn_text(&svg);
    assert!(text.contains("<script>alert(1)</script>"));
    assert!(text.contains("<foreignObject><body/></foreignObject>"));
    assert!(text.contains("&amp; &lt; &#x3C;script&#x3E; &unknown; &"));
}

#[test]
fn https_links_survive_and_others_do_not() {
    let scenes = layout(&hostile_diagram(8), &LayoutOptions::default());
    let svg = to_svg(&scenes[0]);
    assert!(svg.contains("xlink:href=\"https://example.com/?a=1&amp;b=2\""));
    assert!(
        !svg.contains("xlink:href=\"https://x.org"),
        "a URL with quotes is not linked"
    );
    assert_inert(&svg);
}

/// A tiny deterministic generator (no extra dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }
}

fn random_event(rng: &mut Lcg, participants: u32) -> Event {
    let id = |rng: &mut Lcg| ParticipantId(rng.next(u64::from(participants)) as u32);
    let endpoint = |rng: &mut Lcg| match rng.next(6) {
        0 => Endpoint::Edge {
            side: Side::Left,
            short: rng.next(2) == 0,
        },
        1 => Endpoint::Edge {
            side: Side::Right,
            short: rng.next(2) == 0,
        },
        _ => Endpoint::Participant { id: id(rng) },
    };
    let shapes = [
        HeadShape::None,
        HeadShape::Filled,
        HeadShape::Open,
        HeadShape::HalfUpper,
        HeadShape::HalfLower,
        HeadShape::HalfUpperOpen,
        HeadShape::HalfLowerOpen,
        HeadShape::Cross,
    ];
    match rng.next(14) {
        0..=4 => Event::Message(Message {
            from: endpoint(rng),
            to: endpoint(rng),
            arrow: Arrow {
                tail_head: Head {
                    shape: shapes[rng.next(8) as usize],
                    circle: rng.next(5) == 0,
                },
                head: Head {
                    shape: shapes[rng.next(8) as usize],
                    circle: rng.next(5) == 0,
                },
                line: [LineStyle::Solid, LineStyle::Dotted, LineStyle::Hidden][rng.next(3) as usize],
                color: None,
                bold: rng.next(2) == 0,
                written_reversed: false,
            },
            label: text(rng.next(10) as usize).into(),
            number: (rng.next(3) == 0).then(|| rng.next(100).to_string().into()),
            slant: (rng.next(6) == 0).then(|| rng.next(50) as u32),
            parallel: rng.next(6) == 0,
            anchor: None,
            is_return: false,
        }),
        5 => Event::Note(Note {
            position: match rng.next(5) {
                0 => NotePosition::Left { of: None },
                1 => NotePosition::Right { of: Some(id(rng)) },
                2 => NotePosition::Over {
                    first: id(rng),
                    last: Some(id(rng)),
                },
                3 => NotePosition::Across,
                _ => NotePosition::Left { of: Some(id(rng)) },
            },
            shape: [NoteShape::Note, NoteShape::Hexagon, NoteShape::Rectangle][rng.next(3) as usize],
            text: text(rng.next(10) as usize),
            color: None,
            aligned: rng.next(4) == 0,
            parallel: rng.next(4) == 0,
        }),
        6 => Event::Activate {
            participant: id(rng),
            color: None,
        },
        7 => Event::Deactivate { participant: id(rng) },
        8 => Event::GroupStart(Group {
            kind: GroupKind::ALL[rng.next(7) as usize],
            label: Some(text(rng.next(10) as usize)),
            secondary: None,
            label_trailing_blanks: 0,
            frame_color: None,
            color: None,
        }),
        9 => Event::GroupElse {
            label: None,
            color: None,
        },
        10 => Event::GroupEnd,
        11 => Event::Create { participant: id(rng) },
        12 => Event::Destroy { participant: id(rng) },
        _ => match rng.next(5) {
            0 => Event::Divider {
                text: text(1),
                spaced: false,
            },
            1 => Event::Delay { text: None },
            2 => Event::Space {
                pixels: Some(rng.next(100) as u32),
            },
            3 => Event::NewPage { title: None },
            _ => Event::Ref(Reference {
                participants: vec![id(rng), id(rng)],
                text: text(3),
                color: None,
            }),
        },
    }
}

#[test]
fn random_models_lay_out_and_render_well_formed() {
    let mut rng = Lcg(0x5eed);
    for round in 0..60 {
        let participants = 1 + rng.next(6) as u32;
        let mut d = hostile_diagram(round);
        d.participants.truncate(participants as usize);
        for p in &mut d.participants {
            p.in_box = None;
            p.created = rng.next(4) == 0;
        }
        d.boxes.clear();
        d.events = (0..rng.next(40))
            .map(|_| random_event(&mut rng, participants))
            .collect();
        let scenes = layout(&d, &LayoutOptions::default());
        assert_eq!(scenes.len(), d.page_count());
        for scene in &scenes {
            assert!(scene.width.is_finite() && scene.height.is_finite() && scene.width > 0.0);
            assert_inert(&to_svg(scene));
        }
    }
}

fn hostile_activity(seed: usize, steps: Vec<puml_sema::activity::Step>) -> Diagram {
    use puml_sema::activity::*;
    Diagram {
        title: Some(text(seed)),
        caption: Some(text(seed + 1)),
        activity: Some(Box::new(ActivityDiagram {
            lanes: (0..3)
                .map(|i| Swimlane {
                    code: format!("l{i}"),
                    display: text(seed + i),
                    color: Some(text(seed + i + 1)),
                })
                .collect(),
            steps,
            deprecated_action_colors: vec![text(seed + 5)],
            deprecation_notices: vec![text(seed + 5)],
        })),
        ..Diagram::default()
    }
}

/// Every activity step kind, with hostile text wherever text goes.
fn activity_steps(seed: usize) -> Vec<puml_sema::activity::Step> {
    use puml_sema::activity::*;
    let action = |i: usize, shape| Action {
        text: text(seed + i),
        shape,
        color: Some(text(seed + i + 1)),
        stereotype: Some(text(seed + i + 2)),
        lane: None,
    };
    let arrow = |i: usize| ArrowStyle {
        label: Some(text(seed + i)),
        color: Some(text(seed + i + 1)),
        dashed: i.is_multiple_of(2),
        dotted: i.is_multiple_of(3),
        bold: i.is_multiple_of(5),
        hidden: false,
    };
    let note = |i: usize, position| ActivityNote {
        position,
        floating: i.is_multiple_of(2),
        text: text(seed + i),
        color: Some(text(seed + i + 1)),
    };
    vec![
        Step::Lane(LaneId(0)),
        Step::Start,
        Step::Action(action(0, ActionShape::Plain)),
        Step::Note(note(1, ActivityNotePosition::Right)),
        Step::Arrow(arrow(2)),
        Step::Action(action(3, ActionShape::Send)),
        Step::Note(note(4, ActivityNotePosition::Left)),
        Step::IfStart {
            condition: text(seed + 5),
            then_label: Some(text(seed + 6)),
            color: Some(text(seed + 7)),
        },
        Step::Action(action(8, ActionShape::Receive)),
        Step::ElseIf {
            condition: text(seed + 9),
            then_label: Some(text(seed + 1)),
        },
        Step::Lane(LaneId(1)),
        Step::Action(action(2, ActionShape::Slant)),
        Step::Else {
            label: Some(text(seed + 3)),
        },
        Step::Stop,
        Step::EndIf,
        Step::SwitchStart {
            condition: text(seed + 4),
        },
        Step::Case {
            label: text(seed + 5),
            spaces: (1, 1),
        },
        Step::Action(action(6, ActionShape::Box)),
        Step::Case {
            label: text(seed + 7),
            spaces: (0, 0),
        },
        Step::EndSwitch,
        Step::WhileStart {
            condition: text(seed + 8),
            label: Some(text(seed + 9)),
        },
        Step::Action(action(0, ActionShape::Square)),
        Step::Break,
        Step::EndWhile {
            label: Some(text(seed + 1)),
        },
        Step::RepeatStart {
            label: Some(text(seed + 2)),
        },
        Step::Action(action(3, ActionShape::Brace)),
        Step::Backward(action(4, ActionShape::Plain)),
        Step::Note(note(5, ActivityNotePosition::Right)),
        Step::RepeatWhile {
            condition: Some(text(seed + 6)),
            is_label: Some(text(seed + 7)),
            not_label: Some(text(seed + 8)),
            back_label: Some(text(seed + 9)),
        },
        Step::ForkStart,
        Step::Lane(LaneId(2)),
        Step::Action(action(9, ActionShape::Plain)),
        Step::ForkAgain,
        Step::Lane(LaneId(1)),
        Step::Action(action(0, ActionShape::Plain)),
        Step::EndFork {
            merge: seed.is_multiple_of(2),
            label: Some(text(seed + 1)),
        },
        Step::SplitStart,
        Step::Connector {
            name: text(seed + 2),
            color: Some(text(seed + 3)),
        },
        Step::SplitAgain,
        Step::Kill,
        Step::EndSplit,
        Step::ContainerStart {
            kind: ContainerKind::Package,
            name: text(seed + 4),
            color: Some(text(seed + 5)),
        },
        Step::Action(action(6, ActionShape::Plain)),
        Step::ContainerEnd,
        Step::End,
    ]
}

#[test]
fn hostile_text_in_activity_diagrams_is_escaped_and_inert() {
    for seed in 0..HOSTILE.len() {
        let scenes = layout(&hostile_activity(seed, activity_steps(seed)), &LayoutOptions::default());
        let svg = to_svg(&scenes[0]);
        assert_inert(&svg);
        assert!(!svg.to_ascii_lowercase().contains("<script"));
    }
    let svg = to_svg(&layout(&hostile_activity(0, activity_steps(0)), &LayoutOptions::default())[0]);
    let text = drawn_text(&svg);
    assert!(text.contains("<script>alert(1)</script>"), "{text}");
}

/// Random step lists (unbalanced blocks, stray middles and closers, lanes
/// out of range) lay out and render well-formed: the layout tolerates
/// whatever the model holds.
#[test]
fn random_activity_models_lay_out_and_render_well_formed() {
    let mut rng = Lcg(0xac7);
    for round in 0..80 {
        let pool = activity_steps(round);
        let len = rng.next(60) as usize;
        let steps: Vec<_> = (0..len)
            .map(|_| pool[rng.next(pool.len() as u64) as usize].clone())
            .collect();
        let d = hostile_activity(round, steps);
        for scene in layout(&d, &LayoutOptions::default()) {
            assert!(scene.width.is_finite() && scene.height.is_finite());
            assert_inert(&to_svg(&scene));
        }
    }
}
