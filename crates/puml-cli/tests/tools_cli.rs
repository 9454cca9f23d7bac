//! End-to-end checks of the source-tool commands: exit codes, stdin/stdout,
//! `--check`/`--diff`, and that `--write` changes the file only on success.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn puml(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puml"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("puml runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn temp_file(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("puml-tools-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

const MESSY: &str = "@startuml\nalt ok\nA->B:hi\nend\n@enduml\n";
const TIDY: &str = "@startuml\nalt ok\n  A -> B : hi\nend\n@enduml\n";

#[test]
fn fmt_stdin_check_diff_and_write() {
    let out = puml(&["fmt", "-"], Some(MESSY));
    assert_eq!(String::from_utf8_lossy(&out.stdout), TIDY);
    assert_eq!(out.status.code(), Some(0));

    let file = temp_file("messy.puml", MESSY);
    let path = file.to_str().unwrap();
    let out = puml(&["fmt", "--check", path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("messy.puml"));
    let out = puml(&["fmt", "--diff", path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("+  A -> B : hi"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        MESSY,
        "--check/--diff write nothing"
    );

    assert_eq!(puml(&["fmt", path], None).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), TIDY);
    assert_eq!(puml(&["fmt", "--check", path], None).status.code(), Some(0));
}

#[test]
fn edit_writes_only_valid_edits() {
    let file = temp_file("edit.puml", TIDY);
    let path = file.to_str().unwrap();
    let out = puml(
        &[
            "edit",
            path,
            "--kind",
            "add_message",
            "--args",
            r#"{"from":"A","to":"Z"}"#,
            "--write",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown participant `Z`"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), TIDY);

    let args = r#"{"from":"B","to":"A","label":"bye","arrow":"-->"}"#;
    let out = puml(
        &["edit", path, "--kind", "add_message", "--args", args, "--write"],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("end\nB --> A : bye\n@enduml"));

    let out = puml(&["edit", path, "--kind", "add_message", "--args", "not json"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn convert_explain_lint_primitives() {
    let out = puml(
        &["convert", "--from", "mermaid", "-"],
        Some("sequenceDiagram\nA->>B: hi\n"),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "@startuml\nA -> B : hi\n@enduml\n"
    );
    let out = puml(&["convert", "--from", "mermaid", "-"], Some("graph TD\nA-->B\n"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only Mermaid sequenceDiagram can be converted"));

    let out = puml(&["explain", "-", "--format", "json"], Some(TIDY));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("explain prints JSON");
    assert_eq!(json["flow"][0]["arrow_kind"], "sync");
    assert_eq!(json["flow"][0]["group_path"][0], "alt ok");

    let out = puml(
        &["lint", "-", "--format", "json"],
        Some("@startuml\nA -> B : x\nA -> B : x\n@enduml\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("lint prints JSON");
    assert_eq!(json["files"][0]["findings"][0]["code"], "L010");

    let out = puml(&["primitives", "--format", "json"], None);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("primitives prints JSON");
    assert!(json.as_array().is_some_and(|rows| rows.len() > 50));
}
