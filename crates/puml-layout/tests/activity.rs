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
            deprecated_action_colors: Vec::new(),
            deprecation_notices: Vec::new(),
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

/// A probe's name, PlantUML's canvas width and texts (string, x, baseline).
type Probe = (&'static str, Option<f64>, &'static [(&'static str, f64, f64)]);

/// Probe diagrams rendered by PlantUML 1.2026.8: the canvas and where
/// the given texts start (values read from its SVGs). `DUMP=1` prints
/// every text and shape of puml's layout, to compare by hand.
#[test]
fn probes_match_plantuml() {
    // (PlantUML's canvas width, when its SVG has no warning banner.)
    let expected: &[Probe] = &[
        (
            "if1",
            Some(352.0),
            &[
                ("yes", 58.663, 64.406),
                ("no", 206.762, 64.406),
                ("process all", 26.0, 110.139),
            ],
        ),
        (
            "if3",
            Some(120.0),
            &[("x?", 42.826, 70.808), ("A", 44.896, 120.139), ("B", 44.884, 218.107)],
        ),
        (
            "wh2",
            Some(146.0),
            &[
                ("more?", 53.0, 70.808),
                ("after", 55.987, 196.107),
                ("lbl", 74.287, 230.242),
            ],
        ),
        (
            "fork",
            Some(342.0),
            &[("action 1", 38.0, 102.139), ("action 3", 252.195, 102.139)],
        ),
        (
            "if2",
            Some(437.0),
            &[("condition A", 37.0, 70.808), ("yes", 71.94, 89.21)],
        ),
        (
            "lanes",
            Some(210.0),
            &[
                ("one", 40.424, 104.837),
                ("two", 121.635, 158.806),
                ("Beta Lane", 86.179, 34.453),
            ],
        ),
        ("part", None, &[("Init", 19.0, 59.0), ("read config", 36.0, 102.436)]),
    ];
    let dump = std::env::var_os("DUMP").is_some();
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
                    back_label: None,
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
                    deprecated_action_colors: Vec::new(),
                    deprecation_notices: Vec::new(),
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
        if let Some((_, size, texts)) = expected.iter().find(|(n, ..)| *n == name) {
            // Heights differ where PlantUML's vertical spacing is irregular;
            // widths and the listed texts are PlantUML's.
            if let Some(width) = size {
                assert_eq!(s.width, *width, "{name} width");
            }
            for (text, x, y) in texts.iter() {
                assert!(
                    s.texts()
                        .any(|t| t.text == *text && (t.x - x).abs() < 0.5 && (t.y - y).abs() < 0.5),
                    "{name}: {text:?} not at ({x}, {y})"
                );
            }
        }
        if !dump {
            continue;
        }
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
