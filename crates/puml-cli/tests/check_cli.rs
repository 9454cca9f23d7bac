//! `puml check` and `puml dump` end to end: exit codes, output shapes,
//! `--fix`, stdin, bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn puml(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puml"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("puml-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn valid_file_exits_zero() {
    let out = puml(
        &[
            "check",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../test-data/examples/login.puml"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn human_output_is_rustc_like() {
    let out = puml(&["check", "-"], Some(b"@startuml\nloop x\nA -> B\nendloop\n@enduml\n"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    expect_test::expect![[r#"
        <stdin>:4:1: error[E0105]: PlantUML has no `endloop`: every group (`alt`, `loop`, `opt`, …) ends with `end`
          |
        4 | endloop
          | ^^^^^^^
          help: Replace with `end`: `end`
        1 file(s) checked: 1 error(s), 0 warning(s)
    "#]]
    .assert_eq(&text);
}

#[test]
fn json_output_is_one_object() {
    let out = puml(
        &["check", "--format", "json", "-"],
        Some(b"@startuml\nA ->>+ B : x\n@enduml\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diagnostic = &value["files"][0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "E0102");
    assert_eq!(diagnostic["severity"], "error");
    assert_eq!(diagnostic["line"], 2);
    assert_eq!(diagnostic["column"], 3);
    assert!(diagnostic["fixes"][0]["edits"].as_array().unwrap().len() == 2);
    assert_eq!(value["summary"]["errors"], 1);
    assert_eq!(value["summary"]["files"], 1);
}

#[test]
fn warnings_pass_unless_denied() {
    let input = b"@startuml\nA -> B\n";
    assert_eq!(puml(&["check", "-"], Some(input)).status.code(), Some(0));
    assert_eq!(
        puml(&["check", "--deny-warnings", "-"], Some(input)).status.code(),
        Some(1)
    );
}

#[test]
fn fix_writes_atomically_and_only_when_asked() {
    let dir = temp_dir("fix");
    let file = dir.join("flow.puml");
    let original = "@startuml\nloop x\nA -> B\nendloop\nAlice->>+Bob: hi\n@enduml\n";
    std::fs::write(&file, original).unwrap();
    let check = puml(&["check", file.to_str().unwrap()], None);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original,
        "check without --fix must not write"
    );
    let preview = puml(&["check", "--fix", "--stdout", file.to_str().unwrap()], None);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original,
        "--stdout must not write"
    );
    let fixed_text = String::from_utf8(preview.stdout).unwrap();
    assert_eq!(
        fixed_text,
        "@startuml\nloop x\nA -> B\nend\nAlice-> Bob ++: hi\n@enduml\n"
    );
    let fixed = puml(&["check", "--fix", file.to_str().unwrap()], None);
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fixed.stdout)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), fixed_text);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary file left behind"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn directories_and_globs() {
    let dir = temp_dir("dirs");
    std::fs::write(dir.join("a.puml"), "@startuml\nA -> B\n@enduml\n").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/b.pu"), "@startuml\nendif\n@enduml\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a diagram").unwrap();
    let out = puml(&["check", "--format", "json", dir.to_str().unwrap()], None);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["summary"]["files"], 2);
    assert_eq!(out.status.code(), Some(1));
    let glob = format!("{}/*.puml", dir.display());
    let out = puml(&["check", &glob], None);
    assert_eq!(out.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_inputs_get_diagnostics_not_panics() {
    let out = puml(
        &["check", "--format", "json", "-"],
        Some(b"@startuml\n\xff\xfe\n@enduml\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["files"][0]["diagnostics"][0]["code"], "E0001");
    assert!(value["files"][0]["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("byte offset 10"));

    let big = vec![b'a'; 2048];
    let out = puml(&["check", "--max-bytes", "1000", "--format", "json", "-"], Some(&big));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["files"][0]["diagnostics"][0]["code"], "E0002");

    let out = puml(&["check", "-"], Some(b""));
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("W0105"));

    let out = puml(&["check", "/nonexistent/file.puml"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = puml(&["check"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn dump_ast_and_model() {
    let input = b"@startuml\nA -> B : hi\n@enduml\n";
    let ast = puml(&["dump", "ast", "-"], Some(input));
    assert!(String::from_utf8_lossy(&ast.stdout).contains("MESSAGE@10..22"));
    let json = puml(&["dump", "ast", "--format", "json", "-"], Some(input));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["kind"], "ROOT");
    let model = puml(&["dump", "model", "--format", "json", "-"], Some(input));
    let value: serde_json::Value = serde_json::from_slice(&model.stdout).unwrap();
    assert_eq!(value["diagrams"][0]["participants"][1]["code"], "B");
    assert_eq!(value["diagrams"][0]["events"][0]["type"], "message");
}

/// A directory is checked in parallel; the report lists the files in order
/// and each file's diagnostics equal those of checking it alone.
#[test]
fn directory_check_matches_file_by_file() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../test-data/syntax/err");
    let out = puml(&["check", dir, "--format", "json"], None);
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = all["files"].as_array().unwrap();
    assert!(files.len() >= 5);
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    for file in files {
        let path = file["path"].as_str().unwrap();
        let one = puml(&["check", path, "--format", "json"], None);
        let one: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
        assert_eq!(one["files"][0]["diagnostics"], file["diagnostics"], "{path}");
    }
}

/// `puml check … | head` ends quietly when the reader goes away.
#[cfg(unix)]
#[test]
fn closed_stdout_is_not_a_panic() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../test-data");
    let mut child = Command::new(env!("CARGO_BIN_EXE_puml"))
        .args(["check", dir, "--format", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader is gone before the report is written.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Diagrams of kinds puml does not draw are warnings through the whole
/// path (`puml check` → `AnalysisHost`), never errors: a mindmap by its
/// tag, a timing diagram by what PlantUML reads in it. A use case diagram
/// and a legacy activity diagram are drawn: they check clean.
#[test]
fn other_kinds_are_warnings_not_errors() {
    for (text, kind) in [
        ("@startmindmap\n* root\n** child\n@endmindmap\n", "mindmap"),
        ("@startuml\nrobust \"Web\" as WB\n@0\nWB is Idle\n@enduml\n", "timing"),
    ] {
        let out = puml(&["check", "-"], Some(text.as_bytes()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        assert!(stdout.contains("warning[W0240]"), "{stdout}");
        assert!(stdout.contains(&format!("puml does not draw {kind}")), "{stdout}");
        assert!(stdout.contains("0 error(s), 1 warning(s)"), "{stdout}");
    }
    let usecase = "@startuml\nleft to right direction\nactor \"Browser User\" as B\nrectangle \"Shop\" {\n  (Buy) as buy\n}\nB --> buy\n@enduml\n";
    let legacy = "@startuml\n(*) --> \"First\"\n\"First\" --> (*)\n@enduml\n";
    for text in [usecase, legacy] {
        let out = puml(&["check", "-"], Some(text.as_bytes()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        assert!(stdout.contains("0 error(s), 0 warning(s)"), "{stdout}");
    }
}
