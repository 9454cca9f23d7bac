//! `puml-plantuml` run in-process on temporary directories: output names,
//! exit codes and the stdout/stderr lines integrations read, as PlantUML
//! 1.2026.8 produces them (each expectation was observed with its jar).

use puml_compat::command::{run, Io, EXIT_ERROR, EXIT_NO_DIAGRAM, EXIT_OK, EXIT_UNSUPPORTED_KIND, EXIT_USAGE};
use std::path::{Path, PathBuf};

const OK: &str = "@startuml\nA -> B : hi\n@enduml\n";
const BAD: &str = "@startuml\nA -> B : hi\nfoo bar baz\n@enduml\n";

struct Ran {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

impl Ran {
    fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

fn run_with(args: &[&str], stdin: &str) -> Ran {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut input = stdin.as_bytes();
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let code = run(
        &args,
        &mut Io {
            stdin: &mut input,
            stdout: &mut stdout,
            stderr: &mut stderr,
        },
    );
    Ran {
        code,
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("puml-plantuml-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn pipe_writes_one_image_per_diagram() {
    let ran = run_with(&["-tsvg", "-pipe"], &format!("{OK}{OK}"));
    assert_eq!(ran.code, EXIT_OK, "{}", ran.stderr);
    assert_eq!(ran.stdout_text().matches("<svg").count(), 2);
    let delimited = run_with(&["-tsvg", "-pipe", "-pipedelimitor", "@@DELIM@@"], &format!("{OK}{OK}"));
    assert_eq!(delimited.stdout_text().matches("@@DELIM@@\n").count(), 2);
    // A text without @startuml is one diagram.
    let bare = run_with(&["-ttxt", "-pipe"], "A -> B : bare\n");
    assert_eq!(bare.code, EXIT_OK);
    assert!(bare.stdout_text().contains("bare"));
    // Only the first page of each diagram.
    let pages = run_with(&["-tsvg", "-pipe"], "@startuml\nA -> B\nnewpage\nC -> D\n@enduml\n");
    assert_eq!(pages.stdout_text().matches("<svg").count(), 1);
    // Nothing to draw: exit 50, nothing written.
    let empty = run_with(&["-tsvg", "-pipe"], "");
    assert_eq!((empty.code, empty.stdout.len()), (EXIT_NO_DIAGRAM, 0));
}

#[test]
fn pipe_errors_are_three_stderr_lines_and_exit_200() {
    let ran = run_with(&["-tpng", "-pipe"], &format!("{OK}{BAD}{OK}"));
    assert_eq!(ran.code, EXIT_ERROR);
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(lines[0], "ERROR");
    assert_eq!(lines[1], "2", "0-based line within the diagram, as PlantUML");
    assert!(lines[2].contains("foo bar baz"), "{}", lines[2]);
    // Three images, the middle one the error image.
    assert_eq!(ran.stdout.windows(4).filter(|w| w == b"\x89PNG").count(), 3);
    let report = run_with(&["-tsvg", "-pipe", "-stdrpt:1"], BAD);
    assert!(
        report
            .stderr
            .starts_with("protocolVersion=1\nstatus=ERROR\nlineNumber=3\nlabel="),
        "{}",
        report.stderr
    );
}

#[test]
fn files_are_named_as_plantuml_names_them() {
    let dir = scratch("names");
    std::fs::write(
        dir.join("multi.puml"),
        "@startuml\nA -> B\nnewpage\nB -> A\n@enduml\n\n@startuml second\nC -> D\n@enduml\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("three.puml"),
        "@startuml\nA -> B\n@enduml\n@startuml\nA -> B\nnewpage\nC -> D\n@enduml\n@startuml\nX -> Y\n@enduml\n",
    )
    .unwrap();
    let ran = run_with(
        &["-tsvg", path(&dir.join("multi.puml")), path(&dir.join("three.puml"))],
        "",
    );
    assert_eq!(ran.code, EXIT_OK, "{}", ran.stderr);
    assert_eq!(
        names(&dir),
        [
            "multi.puml",
            "multi.svg",
            "multi_001.svg",
            "second.svg",
            "three.puml",
            "three.svg",
            "three_001.svg",
            "three_002.svg",
            "three_003.svg"
        ]
    );
}

#[test]
fn directories_and_output_dirs_relative_to_each_input() {
    let dir = scratch("dirs");
    std::fs::write(dir.join("ok.puml"), OK).unwrap();
    std::fs::write(dir.join("bad.puml"), BAD).unwrap();
    std::fs::write(dir.join("notes.txt"), "no diagram here").unwrap();
    std::fs::write(dir.join("image.png"), "not scanned").unwrap();
    let excluded = run_with(&["-tsvg", "-x", "*bad*", "-o", "kept", path(&dir)], "");
    assert_eq!(excluded.code, EXIT_OK, "{}", excluded.stderr);
    assert_eq!(names(&dir.join("kept")), ["ok.svg"]);
    let ran = run_with(&["-tsvg", "-o", "out", path(&dir)], "");
    assert_eq!(ran.code, EXIT_ERROR);
    assert_eq!(names(&dir.join("out")), ["bad.svg", "ok.svg"]);
    let bad = dir.join("bad.puml");
    assert_eq!(
        ran.stderr,
        format!(
            "Error line 3 in file: {}\nWarning: no image in {}\nSome diagram description contains errors\n",
            bad.display(),
            dir.join("notes.txt").display()
        )
    );
    let style2 = run_with(&["-stdrpt:2", "-tsvg", path(&bad)], "");
    assert!(
        style2.stderr.starts_with(&format!("{}:3:error:", bad.display())),
        "{}",
        style2.stderr
    );
}

#[test]
fn checkonly_and_failfast_write_nothing() {
    let dir = scratch("check");
    std::fs::write(dir.join("a_bad.puml"), BAD).unwrap();
    std::fs::write(dir.join("b_ok.puml"), OK).unwrap();
    let check = run_with(&["-checkonly", path(&dir)], "");
    assert_eq!(
        (check.code, check.stderr.as_str()),
        (EXIT_ERROR, "Some diagram description contains errors\n")
    );
    let fast2 = run_with(&["-failfast2", "-tsvg", path(&dir)], "");
    assert_eq!(fast2.code, EXIT_ERROR);
    assert_eq!(
        names(&dir),
        ["a_bad.puml", "b_ok.puml"],
        "-failfast2 checks before writing"
    );
    let fast = run_with(&["-failfast", "-tsvg", path(&dir)], "");
    assert_eq!(fast.code, EXIT_ERROR);
    assert_eq!(
        names(&dir),
        ["a_bad.puml", "b_ok.puml"],
        "-failfast stops at the first error"
    );
    let fine = run_with(&["-checkonly", path(&dir.join("b_ok.puml"))], "");
    assert_eq!((fine.code, fine.stderr.as_str()), (EXIT_OK, ""));
}

#[test]
fn syntax_prints_the_type_or_the_error() {
    let ok = run_with(&["-syntax"], OK);
    assert_eq!(
        (ok.code, ok.stdout_text().as_str()),
        (EXIT_OK, "SEQUENCE\n(2 participants)\n")
    );
    let bad = run_with(&["-syntax"], BAD);
    assert_eq!(bad.code, EXIT_ERROR);
    assert!(bad.stdout_text().starts_with("ERROR\n2\n"));
    // PlantUML 1.2026.8 answers `ACTIVITY` and `activity3` for the
    // `start`/`:action;` syntax.
    let activity = run_with(
        &["-syntax"],
        "@startuml\nstart\n:a;\nif (x) then\n:b;\nendif\nstop\n@enduml\n",
    );
    assert_eq!(
        (activity.code, activity.stdout_text().as_str()),
        (EXIT_OK, "ACTIVITY\nactivity3\n")
    );
    // An error in an activity diagram is its error (PlantUML's `ERROR`, the
    // 0-based line), not a refusal of the kind.
    let broken = run_with(
        &["-syntax"],
        "@startuml\nstart\nrepeat\n:a;\nif (x) then\nrepeat while (y)\n@enduml\n",
    );
    assert_eq!(broken.code, EXIT_ERROR, "{}", broken.stdout_text());
    assert!(
        broken.stdout_text().starts_with("ERROR\n5\n"),
        "{}",
        broken.stdout_text()
    );
}

#[test]
fn other_kinds_are_refused_with_a_distinct_code() {
    // Class diagrams are drawn (with PlantUML's markers)…
    let class = run_with(&["-tsvg", "-pipe"], "@startuml\nclass Foo\nFoo <|-- Bar\n@enduml\n");
    assert_eq!(class.code, 0, "{}", class.stderr);
    assert!(class
        .stdout_text()
        .contains("<g class=\"entity\" data-qualified-name=\"Foo\""));
    // …and state diagrams…
    let state = run_with(
        &["-tsvg", "-pipe"],
        "@startuml\nstate S1\n[*] --> S1\nS1 --> [*]\n@enduml\n",
    );
    assert_eq!(state.code, 0, "{}", state.stderr);
    assert!(state
        .stdout_text()
        .contains("<g class=\"entity\" data-qualified-name=\"S1\""));
    // …and legacy activity diagrams; a timing diagram is not drawn yet.
    let legacy = run_with(
        &["-tsvg", "-pipe"],
        "@startuml\n(*) --> \"First\"\n\"First\" --> (*)\n@enduml\n",
    );
    assert_eq!(legacy.code, 0, "{}", legacy.stderr);
    assert!(legacy.stdout_text().contains("<g class=\"start_entity\""));
    let ran = run_with(
        &["-tsvg", "-pipe"],
        "@startuml\nrobust \"Web\" as WB\n@0\nWB is Idle\n@enduml\n",
    );
    assert_eq!(ran.code, EXIT_UNSUPPORTED_KIND);
    assert!(ran
        .stdout_text()
        .contains("sequence, activity (also legacy), class, description and state diagrams only"));
    let mindmap = run_with(&["-syntax"], "@startmindmap\n* a\n@endmindmap\n");
    assert!(mindmap.stdout_text().starts_with("MINDMAP\n"));
}

/// Every kind puml does not draw, by its tag or by what PlantUML reads in
/// a `@startuml` block (each verdict observed with PlantUML 1.2026.8):
/// PlantUML draws it, so `-pipe` answers puml's refusal naming the kind
/// with the "other kind" status, never a syntax error.
#[test]
fn every_kind_puml_does_not_draw_is_named_never_a_syntax_error() {
    let cases: &[(&str, &str)] = &[
        ("@startmindmap\n* root\n** child\n@endmindmap\n", "MINDMAP"),
        ("@startwbs\n* root\n** child\n@endwbs\n", "WBS"),
        ("@startgantt\n[Task] lasts 5 days\n@endgantt\n", "GANTT"),
        ("@startsalt\n{\n  Login | \"x\"\n}\n@endsalt\n", "SALT"),
        ("@startjson\n{\"a\": 1}\n@endjson\n", "JSON"),
        ("@startyaml\na: 1\n@endyaml\n", "YAML"),
        ("@startditaa\n+---+\n| A |\n+---+\n@endditaa\n", "DITAA"),
        ("@startregex\n[a-z]+\n@endregex\n", "REGEX"),
        ("@startebnf\na = \"x\";\n@endebnf\n", "EBNF"),
        ("@startchen\nentity A {\n}\n@endchen\n", "CHEN_EER"),
        ("@startfiles\n/a/b.txt\n@endfiles\n", "FILES"),
        (
            "@startnwdiag\nnwdiag {\n network n {\n  a;\n }\n}\n@endnwdiag\n",
            "NWDIAG",
        ),
        ("@startboard\nA\n+B\n@endboard\n", "BOARD"),
        ("@startmath\nx^2\n@endmath\n", "MATH"),
        ("@startlatex\nx^2\n@endlatex\n", "MATH"),
        ("@startcreole\n**bold**\n@endcreole\n", "CREOLE"),
        ("@startuml\nrobust \"Web\" as WB\n@0\nWB is Idle\n@enduml\n", "TIMING"),
    ];
    for (text, kind) in cases {
        let ran = run_with(&["-tsvg", "-pipe"], text);
        assert_eq!(ran.code, EXIT_UNSUPPORTED_KIND, "{text}: {}", ran.stderr);
        assert!(
            ran.stderr.contains(&format!("this is a {kind} diagram")),
            "{text}: {}",
            ran.stderr
        );
        let syntax = run_with(&["-syntax"], text);
        assert!(
            syntax.stdout_text().starts_with(&format!("{kind}\n")),
            "{text}: {}",
            syntax.stdout_text()
        );
    }
}

/// Description diagrams (use case, component, deployment) are drawn:
/// exit 0, an SVG, and `-syntax` names the type as PlantUML does.
#[test]
fn description_diagrams_are_drawn() {
    for text in [
        "@startuml\nleft to right direction\nactor \"Browser User\" as B\nrectangle \"Shop\" {\n  (Buy) as buy\n}\nB --> buy\n@enduml\n",
        "@startuml\nnode \"Server\" <<device>> as S {\n  [API]\n}\ndatabase DB\n[API] ..> DB : SQL\n@enduml\n",
    ] {
        let ran = run_with(&["-tsvg", "-pipe"], text);
        assert_eq!(ran.code, 0, "{text}: {}", ran.stderr);
        assert!(ran.stdout_text().contains("<g class=\"entity\""), "{text}");
        let syntax = run_with(&["-syntax"], text);
        assert!(
            syntax.stdout_text().starts_with("DESCRIPTION\n"),
            "{text}: {}",
            syntax.stdout_text()
        );
    }
}

/// What PlantUML refuses: a tag it does not know, and another language
/// under `@startuml` (reported on the block's last line).
#[test]
fn kinds_plantuml_refuses_are_errors_where_it_reports_them() {
    let unknown = run_with(&["-tsvg", "-pipe"], "@startfoo\nx\n@endfoo\n");
    assert_eq!(unknown.code, EXIT_ERROR, "{}", unknown.stderr);
    assert!(unknown.stderr.starts_with("ERROR\n0\n"), "{}", unknown.stderr);
    let misplaced = run_with(&["-tsvg", "-pipe"], "@startuml\nsalt\n{\n  Login\n}\n@enduml\n");
    assert_eq!(misplaced.code, EXIT_ERROR, "{}", misplaced.stderr);
    assert!(misplaced.stderr.starts_with("ERROR\n5\n"), "{}", misplaced.stderr);
    assert!(misplaced.stderr.contains("@startsalt"), "{}", misplaced.stderr);
}

#[test]
fn defines_config_and_includes_go_in_front_of_every_diagram() {
    let dir = scratch("prelude");
    std::fs::write(dir.join("config.cfg"), "skinparam monochrome true\n").unwrap();
    std::fs::write(dir.join("parts.iuml"), "participant Included\n").unwrap();
    let config = dir.join("config.cfg");
    let include = format!("-I{}", path(&dir.join("parts.iuml")));
    let source = "@startuml\nA -> B : WHO\nfoo bar baz\n@enduml\n";
    let ran = run_with(
        &["-ttxt", "-pipe", "-DWHO=world", "-config", path(&config), &include],
        source,
    );
    // The error is still reported on the line as written.
    assert_eq!(ran.stderr.lines().nth(1), Some("2"), "{}", ran.stderr);
    let fine = run_with(
        &["-ttxt", "-pipe", "-DWHO=world", "-I", path(&dir.join("parts.iuml"))],
        "@startuml\nA -> B : WHO\n@enduml\n",
    );
    assert_eq!(fine.code, EXIT_OK, "{}", fine.stderr);
    let art = fine.stdout_text();
    assert!(art.contains("world") && art.contains("Included"), "{art}");
}

#[test]
fn flags_puml_has_no_use_for_are_warnings() {
    let ran = run_with(
        &[
            "-graphvizdot",
            "/usr/bin/dot",
            "-nbthread",
            "4",
            "-quiet",
            "-Djava.awt.headless=true",
            "-tsvg",
            "-pipe",
            "-nometadata",
            "-charset",
            "UTF-8",
        ],
        OK,
    );
    assert_eq!(ran.code, EXIT_OK);
    assert!(ran.stderr.contains("-graphvizdot"), "{}", ran.stderr);
    assert_eq!(run_with(&["-pipemap"], OK).code, EXIT_USAGE);
    let eps = run_with(&["-teps", "-pipe"], OK);
    assert_eq!(eps.code, EXIT_USAGE);
    assert!(eps.stderr.contains("eps"));
    let version = run_with(&["-version"], "");
    // PlantUML's first line, naming the release whose language puml
    // follows (what `plantuml -version` checks look for), then puml's own.
    assert_eq!(version.code, EXIT_OK);
    let text = version.stdout_text();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    assert!(first.starts_with("PlantUML version 1.2026.8 ("), "{text}");
    assert!(lines.next().unwrap_or_default().starts_with("puml-plantuml "), "{text}");
    assert!(text.contains("Draws: sequence"), "{text}");
    let missing = run_with(&["-tsvg", "/nonexistent/x.puml"], "");
    assert_eq!(missing.code, EXIT_NO_DIAGRAM);
    assert!(missing.stderr.ends_with("No file found\n"));
}

#[test]
fn latin1_input_with_charset() {
    let mut bytes = b"@startuml\nA -> B : caf".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(b"\n@enduml\n");
    let dir = scratch("latin1");
    std::fs::write(dir.join("l.puml"), &bytes).unwrap();
    let ran = run_with(&["-ttxt", "-charset", "ISO-8859-1", path(&dir.join("l.puml"))], "");
    assert_eq!(ran.code, EXIT_OK, "{}", ran.stderr);
    let art = std::fs::read_to_string(dir.join("l.atxt")).unwrap();
    assert!(art.contains("café"), "{art}");
}

#[test]
fn encode_and_decode_urls() {
    let dir = scratch("urls");
    std::fs::write(dir.join("ok.puml"), OK).unwrap();
    let encoded = run_with(&["-encodeurl", path(&dir.join("ok.puml"))], "");
    // PlantUML 1.2026.8 prints the same string for this file.
    assert_eq!(encoded.stdout_text(), "SrJGjLDmKh1IoCW40000\n");
    let decoded = run_with(&["-decodeurl", "SrJGjLDmKh1IoCW40000"], "");
    assert_eq!(decoded.stdout_text(), "@startuml\nA -> B : hi\n@enduml\n");
}
