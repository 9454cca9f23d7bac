//! In-process IDE features over cursor-marked fixtures: each
//! `test-data/ide/**/NAME.puml` holds one `$0` (the cursor); `NAME.expected`
//! beside it records what hover, definition, references and completion
//! answer there (`UPDATE_EXPECT=1` refreshes). Fixtures in a folder with
//! several files read their includes from it.

use expect_test::expect_file;
use puml_ide::{AnalysisHost, HostConfig};
use puml_lsp::features;
use puml_lsp::text::LineTable;
use puml_syntax::TextSize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            fixtures(&path, out);
        } else if path.extension().is_some_and(|e| e == "puml") {
            out.push(path);
        }
    }
}

fn describe(path: &Path) -> String {
    let marked = std::fs::read_to_string(path).expect("fixture");
    let cursor = marked.find("$0").expect("a $0 cursor marker");
    let text = marked.replacen("$0", "", 1);
    let dir = path.parent().expect("parent").to_path_buf();
    let mut host = AnalysisHost::new();
    host.set_config(HostConfig {
        include_root: Some(dir.clone()),
        ..HostConfig::default()
    });
    let file = host.add_file(Some(path.to_path_buf()), text.clone());
    let analysis = host.analysis();
    let table = LineTable::new(&text);
    let at = |offset: usize| {
        let p = table.position(offset);
        format!("{}:{}", p.line + 1, p.character + 1)
    };
    let mut out = String::new();
    let position = table.position(cursor);
    writeln!(out, "cursor {}:{}", position.line + 1, position.character + 1).ok();
    let diagnostics = analysis.diagnostics(file).expect("not cancelled");
    for d in &diagnostics {
        writeln!(
            out,
            "diagnostic {} {} {}",
            d.code,
            at(usize::from(d.range.start())),
            d.message
        )
        .ok();
    }
    let participants = analysis.participants(file).expect("not cancelled");
    let outlines = analysis.activity_outlines(file).expect("not cancelled");
    match features::hover(&text, cursor, &participants, &outlines) {
        Some((markdown, start, end)) => {
            writeln!(
                out,
                "hover {}..{}: {}",
                at(start),
                at(end),
                markdown.replace('\n', " / ")
            )
            .ok();
        }
        None => {
            writeln!(out, "hover: none").ok();
        }
    }
    // Declarations and uses in included files, as `file line:column`.
    let elsewhere = |path: &Path, range: puml_syntax::TextRange| {
        let text = analysis
            .included_text(file, path)
            .expect("not cancelled")
            .expect("an included file's text");
        let p = LineTable::new(&text).position(usize::from(range.start()));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("{name} {}:{}", p.line + 1, p.character + 1)
    };
    match analysis
        .participant_at(file, TextSize::from(cursor as u32))
        .expect("not cancelled")
    {
        Some(found) => {
            writeln!(out, "definition {}", at(usize::from(found.declaration.start()))).ok();
            let uses: Vec<String> = found.uses.iter().map(|r| at(usize::from(r.start()))).collect();
            writeln!(out, "references {}", uses.join(" ")).ok();
            if let Some((path, range)) = &found.included_declaration {
                writeln!(out, "definition in include {}", elsewhere(path, *range)).ok();
            }
            if !found.included_uses.is_empty() {
                let uses: Vec<String> = found.included_uses.iter().map(|(p, r)| elsewhere(p, *r)).collect();
                writeln!(out, "references in includes {}", uses.join(", ")).ok();
                let renamed = analysis
                    .rename_participant(file, &found.code, "Renamed")
                    .expect("not cancelled")
                    .expect("the rename applies");
                for (path, edits) in &renamed.included {
                    let mut included = analysis
                        .included_text(file, path)
                        .expect("not cancelled")
                        .unwrap_or_default();
                    included = puml_syntax::apply_edits(&included, edits).0;
                    writeln!(out, "renamed in include {:?}", included).ok();
                }
                let here = puml_syntax::apply_edits(&text, &renamed.edits).0;
                writeln!(out, "renamed here {:?}", here).ok();
            }
        }
        None => {
            writeln!(out, "definition: none").ok();
        }
    }
    let symbols = analysis.preprocessor_symbols(file).expect("not cancelled");
    if let Some(symbol) = puml_ide::symbols::symbol_at(&symbols, TextSize::from(cursor as u32)) {
        let uses: Vec<String> = symbol.uses.iter().map(|r| at(usize::from(r.start()))).collect();
        let defined = match &symbol.definition_file {
            Some(path) => elsewhere(path, symbol.definition),
            None => at(usize::from(symbol.definition.start())),
        };
        writeln!(
            out,
            "preprocessor {} {:?} defined {} used {}",
            symbol.name,
            symbol.kind,
            defined,
            uses.join(" ")
        )
        .ok();
        if !symbol.included_uses.is_empty() {
            let uses: Vec<String> = symbol.included_uses.iter().map(|(p, r)| elsewhere(p, *r)).collect();
            writeln!(out, "preprocessor in includes {}", uses.join(", ")).ok();
        }
    }
    // A class, state or description element: what the server answers
    // instead (hover, definition, references, a rename to `Renamed`).
    if let Some(element) = analysis
        .class_element_at(file, TextSize::from(cursor as u32))
        .expect("not cancelled")
    {
        writeln!(
            out,
            "element hover: {}",
            features::class_hover(&element).replace('\n', " / ")
        )
        .ok();
        writeln!(
            out,
            "element definition {}",
            at(usize::from(element.declaration.start()))
        )
        .ok();
        let uses: Vec<String> = element.uses.iter().map(|r| at(usize::from(r.start()))).collect();
        writeln!(out, "element references {}", uses.join(" ")).ok();
        if let Ok(edits) = puml_ide::class_symbols::rename_class_edits(&text, &element, "Renamed") {
            writeln!(out, "element renamed {:?}", puml_syntax::apply_edits(&text, &edits).0).ok();
        }
    }
    // Completion in a class or description diagram comes from its outline.
    let classes = analysis
        .completion_outlines(file, TextSize::from(cursor as u32))
        .expect("not cancelled");
    if let Some(items) = features::class_completions(&text, cursor, &classes) {
        let labels: Vec<&str> = items.iter().take(12).map(|c| c.label.as_str()).collect();
        writeln!(out, "element completion ({}) {}", items.len(), labels.join(" ")).ok();
        return out;
    }
    let completions = features::completions(&text, cursor, &participants, &outlines);
    let labels: Vec<&str> = completions.iter().take(12).map(|c| c.label.as_str()).collect();
    writeln!(out, "completion ({}) {}", completions.len(), labels.join(" ")).ok();
    out
}

#[test]
fn cursor_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/ide");
    let mut files = Vec::new();
    fixtures(&root, &mut files);
    files.sort();
    assert!(files.len() >= 5, "fixtures found: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("fixture");
        if !text.contains("$0") {
            continue; // an included file
        }
        let actual = describe(&path);
        expect_file![path.with_extension("expected")].assert_eq(&actual);
    }
}

/// A cursor inside an included file (`*.iuml` with `$0`): the files under
/// its folder that include it, what references and rename answer there
/// (through them), as `NAME.expected` beside it.
fn describe_included(path: &Path) -> String {
    let marked = std::fs::read_to_string(path).expect("fixture");
    let cursor = marked.find("$0").expect("a $0 cursor marker");
    let text = marked.replacen("$0", "", 1);
    let dir = path.parent().expect("parent").to_path_buf();
    let root = std::fs::canonicalize(&dir).expect("fixture folder");
    let config = HostConfig {
        include_root: Some(dir.clone()),
        ..HostConfig::default()
    };
    // The included file is open (its text without the marker).
    let open = vec![(path.to_path_buf(), std::sync::Arc::<str>::from(text.as_str()))];
    let includers = puml_ide::includers::Includers::find(config, &open, &[dir], path);
    let target = std::fs::canonicalize(path).expect("fixture");
    let name = |p: &Path| {
        p.strip_prefix(&root)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    let text_of = |p: &Path| {
        if p == target {
            Some(text.clone())
        } else {
            includers.text(p)
        }
    };
    let at = |p: &Path, range: puml_syntax::TextRange| {
        let text = text_of(p).unwrap_or_default();
        let position = LineTable::new(&text).position(usize::from(range.start()));
        format!("{} {}:{}", name(p), position.line + 1, position.character + 1)
    };
    let mut out = String::new();
    let offset = TextSize::from(cursor as u32);
    let mut paths: Vec<String> = includers.paths().iter().map(|p| name(p)).collect();
    paths.sort();
    writeln!(out, "included by {}", paths.join(", ")).ok();
    match includers.participant_name_at(offset) {
        Some((code, range)) => writeln!(out, "participant {code} at {}", at(&target, range)).ok(),
        None => writeln!(out, "participant: none").ok(),
    };
    let references: Vec<String> = includers
        .participant_references(offset)
        .iter()
        .map(|(p, r)| at(p, *r))
        .collect();
    writeln!(out, "references {}", references.join(", ")).ok();
    match includers.rename_participant(offset, "Renamed") {
        Some(Ok(files)) => {
            for (p, edits) in files {
                let renamed = puml_syntax::apply_edits(&text_of(&p).unwrap_or_default(), &edits).0;
                writeln!(out, "renamed {} {:?}", name(&p), renamed).ok();
            }
        }
        Some(Err(error)) => {
            writeln!(out, "rename refused: {error:?}").ok();
        }
        None => {
            writeln!(out, "rename: nothing here").ok();
        }
    }
    // A `$variable` or procedure the target defines or uses, as the
    // includers read it, and its rename to `$renamed` everywhere it occurs.
    match includers.preprocessor_references(offset) {
        Some(found) => {
            writeln!(out, "preprocessor {} at {}", found.name, at(&target, found.range)).ok();
            let references: Vec<String> = found.occurrences.iter().map(|(p, r)| at(p, *r)).collect();
            writeln!(out, "preprocessor references {}", references.join(", ")).ok();
            let mut files: Vec<(PathBuf, Vec<puml_syntax::TextEdit>)> = Vec::new();
            for (p, range) in &found.occurrences {
                let edit = puml_syntax::TextEdit {
                    range: *range,
                    new_text: "$renamed".to_string(),
                };
                match files.iter_mut().find(|(q, _)| q == p) {
                    Some((_, edits)) => edits.push(edit),
                    None => files.push((p.clone(), vec![edit])),
                }
            }
            for (p, edits) in files {
                let renamed = puml_syntax::apply_edits(&text_of(&p).unwrap_or_default(), &edits).0;
                writeln!(out, "preprocessor renamed {} {:?}", name(&p), renamed).ok();
            }
        }
        None => {
            writeln!(out, "preprocessor: none").ok();
        }
    }
    out
}

#[test]
fn included_file_cursor_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/ide");
    let mut folders = vec![root];
    let mut found = 0;
    while let Some(dir) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "iuml")
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains("$0"))
            {
                found += 1;
                expect_file![path.with_extension("expected")].assert_eq(&describe_included(&path));
            }
        }
    }
    assert!(found >= 1, "no included-file cursor fixture");
}

#[test]
fn a_sequence_of_edits_keeps_diagnostics_current() {
    let mut host = AnalysisHost::new();
    let file = host.add_file(None, "@startuml\nA -> B : hi\n@enduml\n".to_string());
    let codes = |host: &AnalysisHost| -> Vec<&'static str> {
        host.analysis()
            .diagnostics(file)
            .expect("not cancelled")
            .iter()
            .map(|d| d.code)
            .collect()
    };
    assert!(codes(&host).is_empty());
    let mut text = "@startuml\nA -> B : hi\n@enduml\n".to_string();
    // Delete the colon, then type it back one character at a time.
    for (range, replacement) in [(16..18, ""), (16..16, " "), (17..17, ":")] {
        crate::apply(&mut text, range.clone(), replacement);
        let span = puml_syntax::TextRange::new(TextSize::from(range.start as u32), TextSize::from(range.end as u32));
        host.edit_file(file, span, replacement).expect("in bounds");
        assert_eq!(host.analysis().file_text(file).expect("ok"), text);
    }
    assert!(codes(&host).is_empty(), "{text}");
    host.edit_file(
        file,
        puml_syntax::TextRange::new(TextSize::from(16), TextSize::from(18)),
        "",
    )
    .expect("in bounds");
    // `A -> B hi` alone is a legacy activity diagram for PlantUML (an
    // arrow takes any text after it), which puml draws: no diagnostic, not
    // the sequence reading's E0103.
    assert!(codes(&host).is_empty(), "{:?}", codes(&host));
}

fn apply(text: &mut String, range: std::ops::Range<usize>, replacement: &str) {
    text.replace_range(range, replacement);
}
