//! `!pragma teoz true`: PlantUML 1.2026.8 draws a teoz diagram exactly as
//! its regular sequence engine does (`test-data/teoz`: its SVGs for each
//! probe with and without the pragma), so puml must too: the pragma changes
//! nothing in puml's scenes and brings no diagnostic.

use puml_layout::scene::describe;
use puml_layout::{layout, LayoutOptions};
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/teoz")
}

fn probes() -> Vec<(String, String)> {
    let mut probes: Vec<(String, String)> = std::fs::read_dir(data_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    probes.sort();
    assert!(probes.len() >= 3, "the teoz probes are missing: {probes:?}");
    probes
}

fn without_pragma(source: &str) -> String {
    let kept: Vec<&str> = source.lines().filter(|l| !l.contains("!pragma teoz")).collect();
    assert_ne!(kept.len(), source.lines().count(), "a teoz probe without the pragma");
    kept.join("\n") + "\n"
}

/// Every page's scene, and every diagnostic's code.
fn drawn(source: &str) -> (String, Vec<String>) {
    let analysis = analyze(source, &AnalysisOptions::default(), &NoIncludes);
    let codes = analysis.diagnostics.iter().map(|d| d.code.to_string()).collect();
    let mut out = String::new();
    for diagram in &analysis.document.diagrams {
        for scene in layout(diagram, &LayoutOptions::default()) {
            out.push_str(&describe(&scene));
        }
    }
    (out, codes)
}

fn without_source(svg: &str) -> String {
    match (
        svg.find("<?plantuml-src"),
        svg.find("<?plantuml-src")
            .and_then(|i| svg[i..].find("?>").map(|j| i + j + 2)),
    ) {
        (Some(start), Some(end)) => format!("{}{}", &svg[..start], &svg[end..]),
        _ => svg.to_string(),
    }
}

#[test]
fn plantuml_draws_teoz_as_its_regular_engine() {
    for (name, _) in probes() {
        let read = |kind: &str| std::fs::read_to_string(data_dir().join(format!("{name}.{kind}.svg"))).unwrap();
        let (teoz, regular) = (read("teoz"), read("regular"));
        assert!(teoz.contains("<svg"), "{name}: PlantUML's answer is not an SVG");
        assert_eq!(
            without_source(&teoz),
            without_source(&regular),
            "{name}: PlantUML draws teoz differently"
        );
    }
}

#[test]
fn the_pragma_changes_nothing_in_puml() {
    for (name, source) in probes() {
        let (teoz, teoz_codes) = drawn(&source);
        let (regular, regular_codes) = drawn(&without_pragma(&source));
        assert!(!teoz.is_empty(), "{name}: nothing drawn");
        assert_eq!(teoz, regular, "{name}: the pragma changed the scene");
        assert_eq!(teoz_codes, regular_codes, "{name}: the pragma changed the diagnostics");
    }
}
