//! Hostile inputs are answered within bounds: the size of a raster or PDF
//! is checked from the layout before any of that work starts, and text
//! lines are cut to a length the renderers handle. (Time and memory are
//! measured by `cargo xtask bench-render`'s hostile table, not here.)

use puml_ide::check::{check_source, CheckOptions};
use puml_ide::render::{render_source, Format, RenderFailure, RenderOptions, MAX_DRAWN_ITEMS, MAX_PNG_PIXELS};
use puml_layout::Scene;
use puml_render::RenderError;
use puml_sema::NoIncludes;

fn render(text: &str, format: Format) -> Result<Vec<puml_ide::render::RenderedPage>, RenderFailure> {
    let options = RenderOptions {
        format,
        ..RenderOptions::default()
    };
    render_source(text, &options, &NoIncludes)
}

fn many_messages(n: usize) -> String {
    let mut text = String::from("@startuml\n");
    for i in 0..n {
        text.push_str(&format!(
            "Participant{} -> Participant{} : msg {i}\n",
            i % 40,
            (i * 7 + 3) % 40
        ));
    }
    text.push_str("@enduml\n");
    text
}

#[test]
fn a_huge_canvas_is_refused_from_the_scene_size_alone() {
    // No items at all: were a pixmap allocated first, this would take
    // gigabytes.
    let scene = Scene {
        width: 40_000.0,
        height: 2_000_000.0,
        background: puml_layout::Color::rgb(255, 255, 255),
        items: Vec::new(),
    };
    match puml_render::to_png(&scene, 1.0) {
        Err(RenderError::TooManyPixels { width, height, limit }) => {
            assert_eq!((width, height, limit), (40_000, 2_000_000, MAX_PNG_PIXELS));
        }
        other => panic!("expected a pixel refusal, got {other:?}"),
    }
    assert!(
        puml_render::check_png_budget(&scene, 0.001).is_err(),
        "bad scale is refused"
    );
}

#[test]
fn forty_five_thousand_messages_render_as_svg_and_are_refused_as_png_and_pdf() {
    let text = many_messages(45_000);
    let svg = render(&text, Format::Svg).expect("SVG has no size limit but the event count");
    assert_eq!(svg.len(), 1);
    assert!(matches!(
        render(&text, Format::Png),
        Err(RenderFailure::Render(RenderError::TooManyPixels { .. }))
    ));
    match render(&text, Format::Pdf) {
        Err(RenderFailure::Render(RenderError::TooManyItems { items, limit, .. })) => {
            assert!(items > limit && limit == MAX_DRAWN_ITEMS);
        }
        other => panic!("expected an item refusal, got {:?}", other.map(|p| p.len())),
    }
}

#[test]
fn ten_thousand_nested_groups_are_refused_as_png() {
    let depth = 10_000;
    let mut text = String::from("@startuml\n");
    for i in 0..depth {
        text.push_str(&format!("alt level {i}\n"));
    }
    text.push_str("A -> B : deep\n");
    text.push_str(&"end\n".repeat(depth));
    text.push_str("@enduml\n");
    assert!(matches!(render(&text, Format::Png), Err(RenderFailure::Render(_))));
    assert!(render(&text, Format::Svg).is_ok());
}

#[test]
fn a_megabyte_label_is_cut_when_drawn_and_the_checker_says_where() {
    let label = "word ".repeat(210_000);
    let text = format!("@startuml\nA -> B : {label}\n@enduml\n");
    let report = check_source(&text, &CheckOptions::default(), &NoIncludes);
    let cut = report
        .diagnostics
        .iter()
        .find(|d| d.code == "W0208")
        .expect("a W0208 warning");
    assert_eq!(cut.range.line, 2);
    let limit = puml_layout::creole::MAX_LINE_CHARS;
    assert_eq!(
        limit,
        puml_sema::MAX_DRAWN_LINE_CHARS,
        "the checker and the layout agree on the cap"
    );
    for format in [Format::Svg, Format::Png, Format::Pdf, Format::Txt] {
        let pages = render(&text, format).unwrap_or_else(|e| panic!("{}: {e}", format.name()));
        assert_eq!(pages.len(), 1);
    }
    let svg = String::from_utf8(render(&text, Format::Svg).unwrap()[0].bytes.clone()).unwrap();
    let longest = svg
        .split('>')
        .map(|piece| piece.split('<').next().unwrap_or("").chars().count())
        .max()
        .unwrap_or(0);
    assert!(longest <= limit + 1, "a drawn text of {longest} characters");
    assert!(svg.contains('…'));
}

#[test]
fn many_line_breaks_in_one_label_stay_linear() {
    // `<br>` splitting once re-scanned the rest of the line for each break.
    let text = format!("@startuml\nA -> B : {}\n@enduml\n", "x<br>".repeat(20_000));
    assert!(render(&text, Format::Svg).is_ok());
}
