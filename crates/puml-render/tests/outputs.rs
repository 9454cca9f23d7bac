//! Output formats: determinism, byte-exact SVG snapshots, PNG/PDF
//! signatures and limits, text art.

use puml_layout::{layout, LayoutOptions, Scene};
use puml_render::{to_pdf, to_png, to_scene_json, to_svg, to_text, RenderError};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data/render")
        .join(name)
}

fn scenes(file: &str) -> Vec<Scene> {
    let source = std::fs::read_to_string(data(file)).expect("test diagram");
    let analysis = analyze(&source, &AnalysisOptions::default(), &NoIncludes);
    analysis
        .document
        .diagrams
        .iter()
        .flat_map(|d| layout(d, &LayoutOptions::default()))
        .collect()
}

/// Compares with a snapshot file; `UPDATE_EXPECT=1` rewrites it.
fn check_snapshot(name: &str, actual: &str) {
    let path = data(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs (UPDATE_EXPECT=1 to accept)",
        path.display()
    );
}

#[test]
fn svg_snapshots_are_byte_exact() {
    for name in [
        "basic",
        "kinds",
        "arrows",
        "style_stereotype",
        "style_elements",
        "theme_cerulean",
        "theme_mars",
        "participant_gradients",
        "gradient_skinparams",
        "gradient_styles",
        "gradient_page",
        "shadowing_elements",
        "header_footer_backgrounds",
        "faded_page_frames",
    ] {
        let scene = &scenes(&format!("{name}.puml"))[0];
        check_snapshot(&format!("{name}.svg"), &to_svg(scene));
    }
}

#[test]
fn activity_svg_snapshots_are_byte_exact() {
    for name in ["basic", "if", "lanes", "notes"] {
        let scene = &scenes(&format!("activity/{name}.puml"))[0];
        check_snapshot(&format!("activity/{name}.svg"), &to_svg(scene));
    }
}

/// Class diagrams: the SVG carries PlantUML's markers (`class="entity"`
/// with `data-qualified-name` and `id`, `class="link"` with
/// `data-entity-1`/`data-entity-2`), byte for byte.
#[test]
fn class_svg_snapshots_are_byte_exact() {
    for name in ["class-members", "class-relations", "class-packages-notes"] {
        let scene = &scenes(&format!("class/{name}.puml"))[0];
        let svg = to_svg(scene);
        assert!(svg.contains("<g class=\"entity\" data-qualified-name="), "{name}");
        check_snapshot(&format!("class/{name}.svg"), &svg);
    }
    let relations = to_svg(&scenes("class/class-relations.puml")[0]);
    assert!(
        relations.contains("<g class=\"link\" data-entity-1=\"ent"),
        "links are marked"
    );
    let packages = to_svg(&scenes("class/class-packages-notes.puml")[0]);
    assert!(
        packages.contains("<g class=\"cluster\" data-qualified-name=\"shop\""),
        "packages are marked"
    );
}

/// Description diagrams (use case, component, deployment): PlantUML's
/// markers, byte for byte; PlantUML's own picture of each is beside it
/// (`NAME.plantuml.svg`).
#[test]
fn description_svg_snapshots_are_byte_exact() {
    for name in [
        "description-usecase",
        "description-usecase-separators",
        "description-component",
        "description-deployment",
    ] {
        let scene = &scenes(&format!("description/{name}.puml"))[0];
        let svg = to_svg(scene);
        assert!(svg.contains("<g class=\"entity\" data-qualified-name="), "{name}");
        assert!(svg.contains("<g class=\"link\" data-entity-1=\"ent"), "{name}");
        assert!(svg.contains("<g class=\"cluster\" data-qualified-name="), "{name}");
        check_snapshot(&format!("description/{name}.svg"), &svg);
    }
}

#[test]
fn class_renders_to_every_format_deterministically() {
    for file in [
        "class-members",
        "class-relations",
        "class-packages-notes",
        "class-er",
        "class-hide-ltr",
    ] {
        let a = &scenes(&format!("class/{file}.puml"))[0];
        let b = &scenes(&format!("class/{file}.puml"))[0];
        assert_eq!(to_svg(a), to_svg(b), "{file}");
        let png = to_png(a, 1.0).expect("png");
        assert_eq!(png, to_png(b, 1.0).expect("png"), "{file}");
        let pdf = to_pdf(a).expect("pdf");
        assert!(pdf.starts_with(b"%PDF"), "{file}");
        assert!(!to_text(a, true).is_empty(), "{file}");
    }
}

#[test]
fn activity_renders_to_every_format_deterministically() {
    for file in [
        "if",
        "while",
        "repeat",
        "fork",
        "lanes",
        "containers",
        "notes",
        "arrows",
    ] {
        let a = &scenes(&format!("activity/{file}.puml"))[0];
        let b = &scenes(&format!("activity/{file}.puml"))[0];
        assert_eq!(to_svg(a), to_svg(b), "{file}");
        assert_eq!(to_text(a, true), to_text(b, true), "{file}");
        let png = to_png(a, 1.0).expect("png");
        assert_eq!(png, to_png(b, 1.0).expect("png"), "{file}");
        assert!(png.starts_with(b"\x89PNG"), "{file}");
        let pdf = to_pdf(a).expect("pdf");
        assert!(pdf.starts_with(b"%PDF"), "{file}");
    }
}

#[test]
fn text_art_snapshots() {
    let scene = &scenes("basic.puml")[0];
    check_snapshot("basic.txt", &to_text(scene, false));
    check_snapshot("basic.utxt", &to_text(scene, true));
}

#[test]
fn rendering_twice_gives_identical_bytes() {
    for file in ["groups.puml", "notes.puml", "creole.puml"] {
        let a = &scenes(file)[0];
        let b = &scenes(file)[0];
        assert_eq!(to_svg(a), to_svg(b));
        assert_eq!(to_png(a, 1.0).expect("png"), to_png(b, 1.0).expect("png"));
        assert_eq!(to_text(a, true), to_text(b, true));
        assert_eq!(to_scene_json(a), to_scene_json(b));
    }
}

#[test]
fn png_and_pdf_have_their_signatures() {
    let scene = &scenes("basic.puml")[0];
    let png = to_png(scene, 2.0).expect("png");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    assert_eq!(f64::from(width), (scene.width * 2.0).ceil());
    let pdf = to_pdf(scene).expect("pdf");
    assert!(pdf.starts_with(b"%PDF-"));
    // Text is embedded as text (with a subset of the embedded font), not lost.
    assert!(pdf.windows(9).any(|w| w == b"/FontFile"), "PDF has no embedded font");
}

#[test]
fn png_limits_are_clear_errors() {
    let scene = &scenes("basic.puml")[0];
    assert!(matches!(to_png(scene, 0.0), Err(RenderError::BadScale(_))));
    assert!(matches!(to_png(scene, f64::NAN), Err(RenderError::BadScale(_))));
    assert!(matches!(to_png(scene, 11.0), Err(RenderError::BadScale(_))));
    let huge = Scene {
        width: 100_000.0,
        height: 100_000.0,
        ..scene.clone()
    };
    let err = to_png(&huge, 1.0).unwrap_err();
    assert!(matches!(err, RenderError::TooManyPixels { .. }));
    assert!(err.to_string().contains("limit"));
}

#[test]
fn text_art_draws_every_label() {
    for file in ["basic.puml", "groups.puml", "notes.puml"] {
        let scene = &scenes(file)[0];
        let art = to_text(scene, false);
        assert!(art.is_ascii(), "{file}: ASCII art must be ASCII");
        for run in scene.texts() {
            let first_word = run.text.split_whitespace().next().unwrap_or("");
            if first_word.len() > 2 && first_word.is_ascii() {
                assert!(art.contains(first_word), "{file}: {first_word:?} missing from\n{art}");
            }
        }
    }
}
