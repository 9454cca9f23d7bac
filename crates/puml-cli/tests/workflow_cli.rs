//! `puml workflow import|export|validate` end to end: exit codes, stdin,
//! the round trip through pipes, registries, bad input.

use std::io::Write;
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

fn fixture(path: &str) -> String {
    format!("{}/../../test-data/workflow/{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn import_export_round_trip_through_stdin() {
    let out = puml(&["workflow", "import", &fixture("seed/complete-example.puml")], None);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["nodes"].as_array().unwrap().len(), 9);
    assert!(json["nodes"][0]["span"]["end"].as_u64().unwrap() > 0);
    let exported = puml(&["workflow", "export", "-"], Some(&out.stdout));
    assert_eq!(
        exported.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let again = puml(&["workflow", "import", "-", "--no-spans"], Some(&exported.stdout));
    assert_eq!(again.status.code(), Some(0));
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("seed/complete-example.json")).unwrap()).unwrap();
    assert_eq!(again, expected);
}

#[test]
fn validate_exit_codes_and_json() {
    let ok = puml(&["workflow", "validate", &fixture("seed/complete-example.puml")], None);
    assert_eq!(ok.status.code(), Some(0));
    let bad = puml(
        &[
            "workflow",
            "validate",
            &fixture("rules/unknown-template.puml"),
            "--templates",
            &fixture("rules/templates.json"),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(bad.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["templates_checked"], true);
    assert_eq!(report["diagnostics"][0]["code"], "F0203");
    let cycle = puml(&["workflow", "validate", &fixture("rules/cycle.json")], None);
    assert_eq!(cycle.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&cycle.stdout).contains("F0207"));
    let missing = puml(&["workflow", "validate", "/nonexistent.puml"], None);
    assert_eq!(missing.status.code(), Some(2));
    let registry = puml(
        &[
            "workflow",
            "validate",
            &fixture("seed/loop.puml"),
            "--templates",
            "/nonexistent",
        ],
        None,
    );
    assert_eq!(registry.status.code(), Some(2));
}

#[test]
fn errors_are_diagnostics() {
    let seq = puml(&["workflow", "import", "-"], Some(b"@startuml\nA -> B : hi\n@enduml\n"));
    assert_eq!(seq.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&seq.stderr).contains("F0001"));
    assert!(seq.stdout.is_empty());
    let note = puml(&["workflow", "import", &fixture("malformed/bad-yaml.puml")], None);
    assert_eq!(note.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&note.stderr).contains("F0101"));
    let json = puml(&["workflow", "export", "-"], Some(b"{\"nodes\": 3}"));
    assert_eq!(json.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&json.stderr).contains("F0002"));
}
