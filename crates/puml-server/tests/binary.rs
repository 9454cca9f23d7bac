//! The `puml-mcp` binary itself: arguments, and a session over real stdio
//! that ends when stdin closes.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_puml-mcp");

#[test]
fn help_version_and_bad_arguments() {
    let help = Command::new(BIN).arg("--help").output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--root DIR"));
    let version = Command::new(BIN).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("puml-mcp "));
    let bad = Command::new(BIN).arg("--bogus").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let missing = Command::new(BIN)
        .args(["--root", "/definitely/not/here"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/definitely/not/here"));
}

#[test]
fn a_stdio_session_ends_cleanly_when_stdin_closes() {
    let root = std::env::temp_dir().join(format!("puml-mcp-bin-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.puml"), "@startuml\nA -> B : hi\n@enduml\n").unwrap();
    let mut child = Command::new(BIN)
        .arg("--root")
        .arg(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let requests = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"puml_check","arguments":{"path":"a.puml"}}}"#,
    ];
    {
        let mut stdin = child.stdin.take().unwrap();
        for line in requests {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let check = lines
        .iter()
        .find(|m| m["id"] == 2)
        .expect("a response to the tools/call");
    assert_eq!(check["result"]["structuredContent"]["ok"], true, "{check}");
}
