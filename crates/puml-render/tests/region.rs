//! Region rendering (what a windowed preview asks for): exactly the items
//! that intersect the region are drawn, under the region's `viewBox`, and
//! the region's picture is the full picture's pixels at that place.

use puml_layout::{layout, Item, LayoutOptions, Scene};
use puml_render::{item_bounds, svg_to_rgba, to_svg, to_svg_region, Region};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::path::PathBuf;

fn scene_of(source: &str) -> Scene {
    let analysis = analyze(source, &AnalysisOptions::default(), &NoIncludes);
    let diagram = analysis.document.diagrams.first().expect("a diagram");
    layout(diagram, &LayoutOptions::default())
        .into_iter()
        .next()
        .expect("a page")
}

fn test_diagram(name: &str) -> Scene {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data/render")
        .join(name);
    scene_of(&std::fs::read_to_string(path).expect("test diagram"))
}

/// Messages between participants, with notes and groups, `messages` long.
fn long_diagram(messages: usize) -> String {
    let mut text = String::from("@startuml\nparticipant Alice\nparticipant Bob\nparticipant Carol\n");
    for i in 0..messages {
        match i % 25 {
            0 => text.push_str("alt branch\n"),
            12 => text.push_str("else other\n"),
            24 => text.push_str("end\n"),
            7 => text.push_str(&format!("note over Bob : note {i}\n")),
            _ => {}
        }
        text.push_str(&format!("Alice -> Bob : message {i}\nBob --> Carol : reply {i}\n"));
    }
    text.push_str("@enduml\n");
    text
}

/// The drawing elements of an SVG in document order, as their source
/// text, leaving out the group wrappers (`g`, `a`, `title`) and the root's
/// background rectangle, so pictures can be compared item by item.
fn drawn(svg: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = document.root_element();
    let background = root.children().find(|n| n.has_tag_name("rect"));
    root.descendants()
        .filter(|n| n.is_element() && Some(*n) != background && *n != root)
        .filter(|n| !matches!(n.tag_name().name(), "g" | "a" | "title" | "defs"))
        .map(|n| svg[n.range()].to_string())
        .collect()
}

fn view_box(svg: &str) -> String {
    let document = roxmltree::Document::parse(svg).expect("well-formed SVG");
    document
        .root_element()
        .attribute("viewBox")
        .unwrap_or_default()
        .to_string()
}

/// The scene with only the items whose bounds meet `region` (no groups).
fn expected_items(scene: &Scene, region: &Region) -> Scene {
    Scene {
        items: scene
            .items
            .iter()
            .filter(|item| item_bounds(item).is_some_and(|b| b.intersects(region)))
            .cloned()
            .collect(),
        ..scene.clone()
    }
}

#[test]
fn a_region_draws_exactly_the_items_that_intersect_it() {
    let scene = scene_of(&long_diagram(400));
    assert!(scene.height > 10_000.0, "a long page: {}", scene.height);
    let regions = [
        Region {
            x: 0.0,
            y: scene.height / 2.0,
            width: scene.width,
            height: 900.0,
        },
        Region {
            x: 40.0,
            y: 3000.0,
            width: 120.0,
            height: 35.5,
        },
        Region {
            x: 0.0,
            y: scene.height - 600.0,
            width: scene.width,
            height: 600.0,
        },
        Region {
            x: 0.0,
            y: 0.0,
            width: 1.0,
            height: 1.0,
        },
    ];
    for region in regions {
        let svg = to_svg_region(&scene, &region);
        let expected = expected_items(&scene, &region);
        assert!(expected.items.len() < scene.items.len() / 4 || region.height < 2.0);
        assert_eq!(drawn(&svg), drawn(&to_svg(&expected)), "{region:?}");
        assert_eq!(
            view_box(&svg),
            format!("{} {} {} {}", region.x, region.y, region.width, region.height)
        );
        // Nothing drawn lies wholly outside the region.
        for item in &expected.items {
            let b = item_bounds(item).expect("a drawing item");
            assert!(
                b.y <= region.y + region.height && b.y + b.height >= region.y,
                "{item:?}"
            );
        }
    }
    // The middle of the page draws a few dozen messages, not hundreds.
    let middle = to_svg_region(&scene, &regions[0]);
    let messages = middle.matches(">message ").count();
    assert!((5..=60).contains(&messages), "{messages} messages in 900 px");
    assert!(middle.len() * 10 < to_svg(&scene).len());
}

#[test]
fn a_region_equal_to_the_page_draws_the_full_picture() {
    let mut scenes: Vec<Scene> = ["basic.puml", "kinds.puml", "arrows.puml", "activity/lanes.puml"]
        .into_iter()
        .map(test_diagram)
        .collect();
    scenes.push(scene_of(&long_diagram(30)));
    for scene in &scenes {
        let page = Region {
            x: 0.0,
            y: 0.0,
            width: scene.width,
            height: scene.height,
        };
        let full = to_svg(scene);
        let region = to_svg_region(scene, &page);
        assert_eq!(drawn(&region), drawn(&full));
        assert_eq!(view_box(&region), view_box(&full));
        let (a, b) = (
            svg_to_rgba(&full, 1.0).expect("rasterizes"),
            svg_to_rgba(&region, 1.0).expect("rasterizes"),
        );
        assert_eq!((a.width, a.height), (b.width, b.height));
        assert!(a.pixels == b.pixels, "the same pixels");
    }
}

#[test]
fn a_region_shows_the_pixels_of_the_full_picture_at_its_place() {
    let scene = scene_of(&long_diagram(40));
    let region = Region {
        x: 0.0,
        y: 600.0,
        width: scene.width.floor(),
        height: 400.0,
    };
    let full = svg_to_rgba(&to_svg(&scene), 1.0).expect("rasterizes");
    let part = svg_to_rgba(&to_svg_region(&scene, &region), 1.0).expect("rasterizes");
    assert_eq!((part.width, part.height), (region.width as u32, 400));
    let row = part.width as usize * 4;
    let full_row = full.width as usize * 4;
    let mut differing = 0usize;
    let mut ink = 0usize;
    // The rasterizer clips a shape crossing the canvas edge its own way, so
    // such a shape (an arrowhead is 8 px tall) may differ by anti-aliasing
    // near the edges; the rest matches.
    for y in 10..part.height as usize - 10 {
        let mine = &part.pixels[y * row..(y + 1) * row];
        let at = (y + 600) * full_row;
        let theirs = &full.pixels[at..at + row];
        differing += mine.iter().zip(theirs).filter(|(a, b)| a.abs_diff(**b) > 2).count();
        ink += mine.chunks(4).filter(|p| p[0] < 128).count();
    }
    assert_eq!(differing, 0);
    assert!(ink > 1000, "the region is not blank: {ink} dark pixels");
}

#[test]
fn groups_are_written_only_around_drawn_items() {
    let scene = scene_of(&long_diagram(200));
    let region = Region {
        x: 0.0,
        y: scene.height / 2.0,
        width: scene.width,
        height: 300.0,
    };
    let svg = to_svg_region(&scene, &region);
    let opened = svg.matches("<g").count();
    let closed = svg.matches("</g>").count();
    assert_eq!(opened, closed, "balanced groups");
    let groups_in_scene = scene.items.iter().filter(|i| matches!(i, Item::Begin { .. })).count();
    assert_eq!(to_svg(&scene).matches("<g").count(), groups_in_scene + 1);
    assert!(
        opened * 3 < groups_in_scene,
        "{opened} of {groups_in_scene} groups written"
    );
}

#[test]
fn a_region_outside_or_not_finite_draws_nothing_and_never_panics() {
    let scene = scene_of(&long_diagram(10));
    for region in [
        Region {
            x: f64::NAN,
            y: 0.0,
            width: 10.0,
            height: 10.0,
        },
        Region {
            x: 0.0,
            y: f64::INFINITY,
            width: 10.0,
            height: 10.0,
        },
        Region {
            x: -1e6,
            y: -1e6,
            width: 10.0,
            height: 10.0,
        },
        Region {
            x: 0.0,
            y: 0.0,
            width: -5.0,
            height: f64::MAX,
        },
    ] {
        let svg = to_svg_region(&scene, &region);
        assert!(drawn(&svg).is_empty(), "{region:?}: {svg}");
    }
}
