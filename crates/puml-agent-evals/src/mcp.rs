//! A newline-delimited JSON-RPC client for `puml-mcp` over its real stdio.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The server's tools (the README's table).
pub const TOOLS: [&str; 13] = [
    "puml_parse",
    "puml_check",
    "puml_render_svg",
    "puml_export",
    "puml_normalize",
    "puml_apply_edit",
    "puml_explain",
    "puml_list_primitives",
    "puml_lint_readability",
    "puml_render_file",
    "puml_workflow_import",
    "puml_workflow_export",
    "puml_workflow_validate",
];

pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    next_id: u64,
}

impl Session {
    /// Starts `server --root workspace` in `workspace` and initializes it
    /// (a client that offers no roots, as Claude Code's and Codex's do not).
    pub fn start(server: &Path, workspace: &Path) -> Result<Session, String> {
        let mut command = Command::new(server);
        command
            .arg("--root")
            .arg(workspace)
            .current_dir(workspace)
            .stderr(Stdio::null());
        let mut session = Session::spawn(command).map_err(|e| format!("{}: {e}", server.display()))?;
        let init = session.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "puml-agent-evals", "version": "1"}}),
        )?;
        if init["result"]["serverInfo"]["name"] != "puml-mcp" {
            return Err(format!("initialize: {init}"));
        }
        session.notify("notifications/initialized", json!({}))?;
        Ok(session)
    }

    /// Runs `command` with piped stdin and stdout (its stderr as the caller
    /// set it), without initializing: a peer for any newline-delimited
    /// JSON-RPC server (the pack validator starts puml-mcp through its launchers).
    pub fn spawn(mut command: Command) -> Result<Session, String> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Session {
            child,
            stdin,
            lines: rx,
            next_id: 1,
        })
    }

    /// A notification (no answer).
    pub fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    fn send(&mut self, msg: &Value) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin closed")?;
        writeln!(stdin, "{msg}").map_err(|e| e.to_string())?;
        stdin.flush().map_err(|e| e.to_string())
    }

    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .map_err(|_| format!("no answer to {method} within 60 s"))?;
            let Ok(value) = serde_json::from_str::<Value>(&line) else {
                return Err(format!("not JSON on stdout: {line}"));
            };
            if value["id"] == id {
                return Ok(value);
            }
        }
    }

    /// `tools/call`; a transport failure becomes a JSON-RPC-shaped error.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .unwrap_or_else(|e| json!({"error": {"code": 0, "message": e}}))
    }

    /// Closes stdin and waits for the exit status.
    pub fn close(mut self) -> Option<i32> {
        drop(self.stdin.take());
        for _ in 0..100 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
