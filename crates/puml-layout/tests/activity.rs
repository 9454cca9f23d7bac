//! Activity layout on hand-built models (independent of the parser): the
//! geometry PlantUML 1.2026.8 draws for the same diagrams, bounded work on
//! deep nesting, determinism.

use puml_layout::scene::{describe, Item};
use puml_layout::{layout, try_layout, LayoutOptions};
use puml_sema::activity::*;
use puml_sema::model::Diagram;

fn act(text: &str) -> Step {
    Step::Action(Action {
        text: text.into(),
        shape: ActionShape::Plain,
        color: None,
        stereotype: None,
        lane: None,
    })
}

fn diagram(steps: Vec<Step>) -> Diagram {
    Diagram {
        activity: Some(Box::new(ActivityDiagram {
            lanes: Vec::new(),
            steps,
        })),
        ..Diagram::default()
    }
}

fn scene(steps: Vec<Step>) -> puml_layout::Scene {
    layout(&diagram(steps), &LayoutOptions::default()).remove(0)
}

fn rects(s: &puml_layout::Scene) -> Vec<(f64, f64, f64, f64)> {
    s.items
        .iter()
        .filter_map(|i| match i {
            Item::Rect {
                x, y, width, height, ..
            } => Some((*x, *y, *width, *height)),
            _ => None,
        })
        .collect()
}

#[test]
fn actions_stack_like_plantuml() {
    // PlantUML: start at (78.831, 25), boxes 87.271 × 33.969 at (35.195, 55) and
    // 125.662 × 47.938 at (16, 108.969), canvas 161 × 218.
    let s = scene(vec![
        Step::Start,
        act("Hello world"),
        act("This is defined on\nseveral **lines**"),
        Step::Stop,
    ]);
    let r = rects(&s);
    assert_eq!(r.len(), 2, "{}", describe(&s));
    assert!((r[0].0 - 35.195).abs() < 0.5 && (r[0].1 - 55.0).abs() < 0.5, "{r:?}");
    assert!((r[1].0 - 16.0).abs() < 0.5 && (r[1].1 - 108.969).abs() < 0.5, "{r:?}");
    assert!((r[1].2 - 125.662).abs() < 0.5 && (r[1].3 - 47.938).abs() < 0.5, "{r:?}");
    assert_eq!((s.width, s.height), (161.0, 218.0));
}

#[test]
fn deep_nesting_is_bounded() {
    let mut steps = vec![Step::Start];
    for i in 0..20_000 {
        steps.push(Step::IfStart {
            condition: format!("c{i}"),
            then_label: None,
            color: None,
        });
    }
    steps.push(act("deep"));
    for _ in 0..20_000 {
        steps.push(Step::EndIf);
    }
    steps.push(Step::Stop);
    let d = diagram(steps);
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || layout(&d, &LayoutOptions::default()))
        .expect("spawn");
    let scenes = handle.join().expect("no stack overflow");
    assert!(scenes[0].texts().any(|t| t.text == "deep"));
}

#[test]
fn limits_apply() {
    let d = diagram(vec![act("a"), act("b"), act("c")]);
    let options = LayoutOptions {
        max_events: 2,
        ..LayoutOptions::default()
    };
    assert!(try_layout(&d, &options).is_err());
}

#[test]
fn dump_probes() {
    if std::env::var_os("DUMP").is_none() {
        return;
    }
    let probes: Vec<(&str, Vec<Step>)> = vec![
        (
            "if1",
            vec![
                Step::Start,
                Step::IfStart {
                    condition: "Graphviz installed?".into(),
                    then_label: Some("yes".into()),
                    color: None,
                },
                act("process all\ndiagrams"),
                Step::Else {
                    label: Some("no".into()),
                },
                act("process only\n__sequence__ and __activity__ diagrams"),
                Step::EndIf,
                Step::Stop,
            ],
        ),
        (
            "if3",
            vec![
                Step::Start,
                Step::IfStart {
                    condition: "x?".into(),
                    then_label: None,
                    color: None,
                },
                act("A"),
                Step::EndIf,
                act("B"),
                Step::End,
            ],
        ),
        (
            "wh2",
            vec![
                Step::Start,
                Step::WhileStart {
                    condition: "more?".into(),
                    label: None,
                },
                act("x"),
                Step::EndWhile { label: None },
                act("after"),
                Step::Arrow(ArrowStyle {
                    label: Some("lbl".into()),
                    ..ArrowStyle::default()
                }),
                act("next"),
                Step::Stop,
            ],
        ),
        (
            "rep",
            vec![
                Step::Start,
                Step::RepeatStart {
                    label: Some("foo".into()),
                },
                act("read data"),
                act("generate diagrams"),
                Step::Backward(Action {
                    text: "This is backward".into(),
                    shape: ActionShape::Plain,
                    color: None,
                    stereotype: None,
                    lane: None,
                }),
                Step::RepeatWhile {
                    condition: Some("more data?".into()),
                    is_label: Some("yes".into()),
                    not_label: Some("no".into()),
                },
                Step::Stop,
            ],
        ),
        (
            "fork",
            vec![
                Step::Start,
                Step::ForkStart,
                act("action 1"),
                Step::ForkAgain,
                act("action 2 long text"),
                Step::ForkAgain,
                act("action 3"),
                Step::EndFork {
                    merge: false,
                    label: None,
                },
                Step::Stop,
            ],
        ),
        (
            "if2",
            vec![
                Step::Start,
                Step::IfStart {
                    condition: "condition A".into(),
                    then_label: Some("yes".into()),
                    color: None,
                },
                act("Text 1"),
                Step::ElseIf {
                    condition: "condition B".into(),
                    then_label: Some("yes".into()),
                },
                act("Text 2"),
                Step::Stop,
                Step::ElseIf {
                    condition: "condition C".into(),
                    then_label: Some("yes".into()),
                },
                act("Text 3"),
                Step::Else {
                    label: Some("nothing".into()),
                },
                act("Text else"),
                Step::EndIf,
                Step::Stop,
            ],
        ),
    ];
    let lanes = vec![
        Swimlane {
            code: "Alpha".into(),
            display: "Alpha".into(),
            color: Some("LightBlue".into()),
        },
        Swimlane {
            code: "Beta Lane".into(),
            display: "Beta Lane".into(),
            color: None,
        },
    ];
    let lane_steps = vec![
        Step::Lane(LaneId(0)),
        Step::Start,
        act("one"),
        Step::Lane(LaneId(1)),
        act("two"),
        act("three"),
        Step::Lane(LaneId(0)),
        act("four"),
        Step::Stop,
    ];
    let note = |position, text: &str| {
        Step::Note(ActivityNote {
            position,
            floating: false,
            text: text.into(),
            color: None,
        })
    };
    let part = |kind, name: &str| Step::ContainerStart {
        kind,
        name: name.into(),
        color: None,
    };
    let probes = probes.into_iter().map(|(n, s)| (n, diagram(s))).chain([
        (
            "lanes",
            Diagram {
                activity: Some(Box::new(ActivityDiagram {
                    lanes,
                    steps: lane_steps,
                })),
                ..Diagram::default()
            },
        ),
        (
            "notes",
            diagram(vec![
                act("first"),
                note(ActivityNotePosition::Right, "a note"),
                act("second"),
                note(ActivityNotePosition::Left, "multi\nline **note**"),
            ]),
        ),
        (
            "part",
            diagram(vec![
                Step::Start,
                part(ContainerKind::Partition, "Init"),
                act("read config"),
                Step::ContainerEnd,
                part(ContainerKind::Group, "G1"),
                act("in group"),
                Step::ContainerEnd,
                part(ContainerKind::Package, "Pkg"),
                act("in pkg"),
                Step::ContainerEnd,
                part(ContainerKind::Rectangle, "Rect"),
                act("in rect"),
                Step::ContainerEnd,
                part(ContainerKind::Card, "Crd"),
                act("in card"),
                Step::ContainerEnd,
                Step::Kill,
            ]),
        ),
    ]);
    for (name, d) in probes {
        let s = layout(&d, &LayoutOptions::default()).remove(0);
        println!("== {name} {}x{}", s.width, s.height);
        for t in s.texts() {
            println!("text {} {} {:?}", t.x, t.y, t.text);
        }
        for i in &s.items {
            match i {
                Item::Rect {
                    x, y, width, height, ..
                } => println!("rect {x} {y} {width} {height}"),
                Item::Polygon { points, .. } if points.len() >= 5 => println!(
                    "poly {}",
                    points
                        .iter()
                        .map(|p| format!("{},{}", p.x, p.y))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                Item::Ellipse { cx, cy, rx, .. } => println!("ellipse {cx} {cy} {rx}"),
                _ => {}
            }
        }
    }
}
