//! Participant spacing rules taken from PlantUML 1.2026 (each checked against
//! the oracle on a small diagram): what does and does not push lifelines apart.

use puml_layout::{layout, Item, LayoutOptions, Scene};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};

fn scene(source: &str) -> Scene {
    let analysis = analyze(source, &AnalysisOptions::default(), &NoIncludes);
    let diagram = analysis.document.diagrams.first().expect("one diagram");
    layout(diagram, &LayoutOptions::default()).remove(0)
}

/// The x of each participant's lifeline, in display order.
fn lifelines(scene: &Scene) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for item in &scene.items {
        match item {
            Item::Begin { class, title, .. } if class == "lifeline" => current = title.clone(),
            Item::Line { x1, .. } => {
                if let Some(name) = current.take() {
                    out.push((name, *x1));
                }
            }
            Item::End => current = None,
            _ => {}
        }
    }
    out
}

fn gap(scene: &Scene, a: &str, b: &str) -> f64 {
    let lines = lifelines(scene);
    let x = |name: &str| {
        lines
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, x)| *x)
            .expect("lifeline drawn")
    };
    x(b) - x(a)
}

fn text<'a>(scene: &'a Scene, needle: &str) -> &'a puml_layout::scene::TextRun {
    scene
        .items
        .iter()
        .find_map(|i| match i {
            Item::Text(t) if t.text == needle => Some(t),
            _ => None,
        })
        .expect("text drawn")
}

const THREE: &str = "participant A\nparticipant B\nparticipant C\nA -> B : hi\nB -> C : x\n";

#[test]
fn a_note_outside_groups_does_not_spread_the_participants() {
    let plain = scene(&format!("@startuml\n{THREE}@enduml\n"));
    let noted = scene(&format!(
        "@startuml\n{THREE}note right of B : a fairly long note text here\nnote over B : another fairly long note text\n@enduml\n"
    ));
    assert_eq!(gap(&plain, "B", "C"), gap(&noted, "B", "C"));
    assert_eq!(gap(&plain, "A", "B"), gap(&noted, "A", "B"));
}

#[test]
fn a_note_in_a_group_pushes_the_participant_after_the_group() {
    let source = "@startuml\nparticipant A\nparticipant B\nparticipant C\nloop x\nA -> B : hi\n\
                  note right of B : a fairly long note text here\nend\nB -> C : x\n@enduml\n";
    let s = scene(source);
    let note = text(&s, "a fairly long note text here");
    let b = gap(&s, "A", "B") + lifelines(&s)[0].1;
    // The note starts right of B; C's lifeline is beyond the note and the frame.
    assert!(gap(&s, "B", "C") > note.x + note.width - b + 20.0);
}

#[test]
fn a_note_over_several_participants_is_centered_without_spreading_them() {
    let plain = scene(&format!("@startuml\n{THREE}@enduml\n"));
    let noted = scene(&format!(
        "@startuml\n{THREE}note over A, B : a fairly long note text here that is wide\n@enduml\n"
    ));
    assert_eq!(gap(&plain, "A", "B"), gap(&noted, "A", "B"));
    assert!(noted.width > plain.width);
}

#[test]
fn a_box_keeps_its_neighbours_at_plantuml_distances() {
    let s = scene(
        "@startuml\nparticipant A\nbox \"x\"\nparticipant B\nend box\nparticipant C\nA -> B : hi\nB -> C : yo\n@enduml\n",
    );
    let plain = scene("@startuml\nparticipant A\nparticipant B\nparticipant C\nA -> B : hi\nB -> C : yo\n@enduml\n");
    // Before the box: 10 from A's head to the box; after it: 20 to C's head.
    assert!(gap(&s, "B", "C") > gap(&plain, "B", "C"));
    assert!(gap(&s, "A", "B") >= gap(&plain, "A", "B"));
}

#[test]
fn a_box_title_wider_than_the_heads_widens_the_box_on_both_sides() {
    let title = "A very long box title here";
    let s = scene(&format!(
        "@startuml\nparticipant A\nbox \"{title}\"\nparticipant B\nend box\nparticipant C\nA -> B : hi\nB -> C : yo\n@enduml\n"
    ));
    let t = text(&s, title);
    let lines = lifelines(&s);
    let b = lines[1].1;
    // The title is centered on B and stays clear of A's and C's lifelines.
    assert!((t.x + t.width / 2.0 - b).abs() < 0.5);
    assert!(t.x > lines[0].1 && t.x + t.width < lines[2].1);
}

#[test]
fn a_reversed_self_message_loops_left_of_its_lifeline() {
    let s = scene("@startuml\nparticipant A\nparticipant B\nB <- B : look left\n@enduml\n");
    let label = text(&s, "look left");
    let b = lifelines(&s)[1].1;
    assert!(label.x + label.width <= b - 5.0);
    assert!(gap(&s, "A", "B") >= label.width + 14.0);
}

#[test]
fn a_teoz_duration_is_a_vertical_arrow_between_the_anchored_rows() {
    let s = scene(
        "@startuml\n!pragma teoz true\n{start} A -> B : one\nB -> C : two\n{end} B -> A : three\n\
         {start} <-> {end} : some time\n@enduml\n",
    );
    let label = text(&s, "some time");
    let vertical = s.items.iter().find_map(|i| match i {
        Item::Line { x1, y1, x2, y2, .. } if x1 == x2 && (label.x - x1 - 4.0).abs() < 0.01 => Some((*y1, *y2)),
        _ => None,
    });
    let (top, bottom) = vertical.expect("the duration line");
    assert!(top < label.y && label.y < bottom);
    assert!(bottom - top > 40.0, "spans the rows of the three messages");
}

#[test]
fn participant_padding_changes_nothing_as_in_plantuml() {
    let plain = scene(&format!("@startuml\n{THREE}@enduml\n"));
    let padded = scene(&format!("@startuml\nskinparam participantPadding 30\n{THREE}@enduml\n"));
    assert_eq!(lifelines(&plain), lifelines(&padded));
}
