//! The editor's view of class diagrams, through the `Analysis` façade:
//! each `test-data/class-outline/NAME.puml` beside `NAME.outline`, which
//! records the outline (packages → elements → members, with their ranges),
//! the folded line spans and the class highlights (`UPDATE_EXPECT=1`
//! refreshes).

use puml_ide::class_outline::ClassSymbolKind;
use puml_ide::highlight::HighlightClass;
use puml_ide::AnalysisHost;
use puml_syntax::{LineIndex, TextRange};
use std::fmt::Write as _;
use std::path::Path;

fn describe(text: &str) -> String {
    let mut host = AnalysisHost::new();
    let file = host.add_file(None, text.to_string());
    let analysis = host.analysis();
    let index = LineIndex::new(text);
    let at = |offset: puml_syntax::TextSize| {
        let p = index.line_col(text, offset);
        format!("{}:{}", p.line, p.col)
    };
    let span = |range: TextRange| format!("{}-{}", at(range.start()), at(range.end()));
    let mut out = String::new();
    for (number, structure) in analysis
        .class_structures(file)
        .expect("not cancelled")
        .iter()
        .enumerate()
    {
        writeln!(out, "class diagram {number} at {}", span(structure.range)).ok();
        for symbol in &structure.symbols {
            let kind = match symbol.kind {
                ClassSymbolKind::Package => "package",
                ClassSymbolKind::Element => "element",
                ClassSymbolKind::Field => "field",
                ClassSymbolKind::Method => "method",
                ClassSymbolKind::State => "state",
                ClassSymbolKind::Activity => "activity",
            };
            writeln!(
                out,
                "{}{kind} {:?} [{}] {} name {}",
                "  ".repeat(symbol.depth + 1),
                symbol.name,
                symbol.detail,
                span(symbol.range),
                span(symbol.selection)
            )
            .ok();
            assert!(
                symbol.range.contains_range(symbol.selection),
                "{symbol:?}: the name lies outside the symbol"
            );
            if let Some(parent) = symbol.parent {
                assert!(
                    structure.symbols[parent].range.contains_range(symbol.range),
                    "{symbol:?} lies outside its parent"
                );
            }
        }
        let folds: Vec<String> = structure
            .folds
            .iter()
            .map(|r| {
                format!(
                    "{}-{}",
                    index.line_col(text, r.start()).line,
                    index.line_col(text, r.end()).line
                )
            })
            .collect();
        writeln!(out, "  folds {}", folds.join(" ")).ok();
    }
    let highlights = analysis.highlights(file).expect("not cancelled");
    let class_highlights: Vec<String> = highlights
        .iter()
        .filter(|h| {
            matches!(
                h.class,
                HighlightClass::ClassName
                    | HighlightClass::Package
                    | HighlightClass::Field
                    | HighlightClass::Method
                    | HighlightClass::Modifier
                    | HighlightClass::Generic
            )
        })
        .map(|h| format!("{:?} {:?}", &text[h.range], h.class))
        .collect();
    writeln!(out, "highlights {}", class_highlights.join(", ")).ok();
    out
}

#[test]
fn class_outlines_folds_and_highlights() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/class-outline");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("test-data/class-outline")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 3, "{inputs:?}");
    for input in inputs {
        let text = std::fs::read_to_string(&input).expect("readable");
        expect_test::expect_file![input.with_extension("outline")].assert_eq(&describe(&text));
    }
}

/// Over every file of the class corpus, and every prefix of one (an editor
/// mid-typing): symbols lie inside their parents, names inside symbols,
/// folds inside the text, and highlights in order without overlaps.
#[test]
fn class_outlines_hold_on_the_corpus_and_on_prefixes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus-class");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("../shared/corpus-class not present");
        return;
    };
    // The state and description corpora too: state and description
    // diagrams have the same outline.
    let states = std::fs::read_dir(dir.join("../corpus-state")).into_iter().flatten();
    let descriptions = std::fs::read_dir(dir.join("../corpus-description"))
        .into_iter()
        .flatten();
    let mut texts: Vec<String> = entries
        .chain(states)
        .chain(descriptions)
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    let packages = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/class-outline/packages.puml"),
    )
    .expect("fixture");
    texts.extend(
        (0..packages.len())
            .filter(|i| packages.is_char_boundary(*i))
            .map(|i| packages[..i].to_string()),
    );
    let deployment = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/class-outline/deployment.puml"),
    )
    .expect("fixture");
    texts.extend(
        (0..deployment.len())
            .filter(|i| deployment.is_char_boundary(*i))
            .map(|i| deployment[..i].to_string()),
    );
    let mut symbols = 0;
    for text in &texts {
        let mut host = AnalysisHost::new();
        let file = host.add_file(None, text.clone());
        let analysis = host.analysis();
        let end = puml_syntax::TextSize::from(text.len() as u32);
        for structure in analysis.class_structures(file).expect("not cancelled") {
            for symbol in &structure.symbols {
                symbols += 1;
                assert!(symbol.range.contains_range(symbol.selection), "{symbol:?}");
                assert!(symbol.range.end() <= end, "{symbol:?}");
                if let Some(parent) = symbol.parent {
                    let outer = &structure.symbols[parent];
                    assert!(outer.range.contains_range(symbol.range), "{symbol:?} outside {outer:?}");
                    assert_eq!(symbol.depth, outer.depth + 1);
                }
            }
            assert!(structure.folds.iter().all(|f| f.end() <= end && f.start() <= f.end()));
        }
        let highlights = analysis.highlights(file).expect("not cancelled");
        assert!(
            highlights.windows(2).all(|w| w[0].range.end() <= w[1].range.start()),
            "highlights overlap"
        );
    }
    assert!(symbols > 1000, "only {symbols} symbols");
}
