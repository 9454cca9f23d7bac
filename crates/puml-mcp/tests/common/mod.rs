//! A raw JSON-RPC client for the server, in process over an in-memory pipe:
//! what goes over the wire is exactly what a stdio client would see.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::task::JoinHandle;

pub struct Session {
    writer: Option<WriteHalf<DuplexStream>>,
    reader: BufReader<ReadHalf<DuplexStream>>,
    next_id: u64,
    pub transcript: String,
    /// What the client answers to the server's `roots/list` (None: offers no roots).
    pub client_roots: Option<Vec<String>>,
    server: Option<JoinHandle<Result<(), String>>>,
    root: PathBuf,
}

/// A fresh workspace directory with a few diagrams, and a sibling outside it.
pub fn workspace(name: &str) -> PathBuf {
    let base = std::env::temp_dir().join(format!("puml-mcp-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("ws/docs")).unwrap();
    std::fs::create_dir_all(base.join("outside")).unwrap();
    std::fs::write(base.join("ws/docs/login.puml"), LOGIN).unwrap();
    std::fs::write(
        base.join("ws/broken.puml"),
        "@startuml\nAlice -> Bob : hi\nend\nalt unclosed\n@enduml\n",
    )
    .unwrap();
    std::fs::write(base.join("ws/notes.txt"), "not a diagram").unwrap();
    std::fs::write(
        base.join("outside/secret.puml"),
        "@startuml\nSecret -> Leak : TOP-SECRET-TOKEN\n@enduml\n",
    )
    .unwrap();
    base.join("ws").canonicalize().unwrap()
}

pub const LOGIN: &str = "@startuml\nactor User\nparticipant API\ndatabase DB\nUser -> API : POST /login\nAPI -> DB : SELECT user\nDB --> API : row\nAPI --> User : token\n@enduml\n";

impl Session {
    pub async fn start(root: &Path) -> Session {
        Session::start_with(root, None).await
    }

    /// Starts a server over `root`; a client with `client_roots` offers MCP roots.
    pub async fn start_with(root: &Path, client_roots: Option<Vec<String>>) -> Session {
        let server = puml_mcp::build_server(&puml_mcp::McpOptions {
            roots: vec![root.to_path_buf()],
        })
        .unwrap();
        let (client_end, server_end) = tokio::io::duplex(1 << 22);
        let (server_read, server_write) = tokio::io::split(server_end);
        let handle = tokio::spawn(puml_mcp::serve(server, (server_read, server_write)));
        let (read, write) = tokio::io::split(client_end);
        Session {
            writer: Some(write),
            reader: BufReader::new(read),
            next_id: 1,
            transcript: String::new(),
            client_roots,
            server: Some(handle),
            root: root.to_path_buf(),
        }
    }

    /// `initialize` + `notifications/initialized`; returns the initialize result.
    pub async fn initialize(&mut self) -> Value {
        let capabilities = if self.client_roots.is_some() {
            json!({"roots": {"listChanged": true}})
        } else {
            json!({})
        };
        let response = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": capabilities,
                    "clientInfo": {"name": "puml-mcp-tests", "version": "1.0.0"}
                }),
            )
            .await;
        self.notify("notifications/initialized", None).await;
        response
    }

    async fn send(&mut self, message: &Value) {
        let line = serde_json::to_string(message).unwrap();
        self.transcript.push_str(&format!("--> {}\n", self.redacted(message)));
        let writer = self.writer.as_mut().expect("stdin already closed");
        writer.write_all(line.as_bytes()).await.unwrap();
        writer.write_all(b"\n").await.unwrap();
        writer.flush().await.unwrap();
    }

    pub async fn notify(&mut self, method: &str, params: Option<Value>) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        self.send(&message).await;
    }

    /// Sends a request and returns the whole response message (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.read_response(id).await
    }

    /// Sends a raw line (for malformed-JSON tests) and returns the next message.
    pub async fn raw(&mut self, line: &str) -> Value {
        self.transcript.push_str(&format!("--> {line}\n"));
        let writer = self.writer.as_mut().unwrap();
        writer.write_all(line.as_bytes()).await.unwrap();
        writer.write_all(b"\n").await.unwrap();
        writer.flush().await.unwrap();
        self.read_message().await
    }

    /// Sends a raw line that gets no answer.
    pub async fn raw_no_reply(&mut self, line: &str) {
        self.transcript.push_str(&format!("--> {line}\n"));
        let writer = self.writer.as_mut().unwrap();
        writer.write_all(line.as_bytes()).await.unwrap();
        writer.write_all(b"\n").await.unwrap();
        writer.flush().await.unwrap();
    }

    async fn read_message(&mut self) -> Value {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line).await.unwrap();
        assert!(n > 0, "the server closed the connection");
        let message: Value = serde_json::from_str(&line).unwrap();
        self.transcript.push_str(&format!("<-- {}\n", self.redacted(&message)));
        message
    }

    async fn read_response(&mut self, id: u64) -> Value {
        loop {
            let message = self.read_message().await;
            if message.get("method").and_then(Value::as_str) == Some("roots/list") {
                let roots: Vec<Value> = self
                    .client_roots
                    .clone()
                    .unwrap_or_default()
                    .iter()
                    .map(|uri| json!({"uri": uri, "name": "client root"}))
                    .collect();
                let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": {"roots": roots}});
                self.send(&answer).await;
                continue;
            }
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
        }
    }

    /// `tools/call`; returns the response message.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    /// `tools/call` that must succeed at the protocol level; returns `result`.
    pub async fn call_result(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.call(tool, arguments).await;
        assert!(response.get("error").is_none(), "protocol error: {response}");
        response["result"].clone()
    }

    /// Closes stdin and waits for the server to finish.
    pub async fn shutdown(&mut self) -> Result<(), String> {
        self.transcript.push_str("--> (client closes stdin)\n");
        if let Some(mut writer) = self.writer.take() {
            writer.shutdown().await.unwrap();
        }
        let handle = self.server.take().unwrap();
        let outcome = handle.await.unwrap();
        self.transcript.push_str(&format!(
            "<-- (server exits: {})\n",
            if outcome.is_ok() { "ok" } else { "error" }
        ));
        outcome
    }

    /// The message for the transcript: machine-specific text replaced
    /// before long strings are shortened, so their lengths are stable too.
    fn redacted(&self, message: &Value) -> String {
        let text = self.redact(&serde_json::to_string(message).unwrap());
        elide(&serde_json::from_str(&text).unwrap())
    }

    fn redact(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), "$ROOT")
            .replace(env!("CARGO_PKG_VERSION"), "$VERSION")
    }
}

/// The JSON with long strings shortened, so a transcript stays readable
/// and does not churn with every rendering change.
pub fn elide(value: &Value) -> String {
    fn walk(v: &Value) -> Value {
        match v {
            Value::String(s) if s.len() > 240 => {
                let head: String = s.chars().take(80).collect();
                Value::String(format!("{head}…({} bytes)", s.len()))
            }
            Value::Array(items) => Value::Array(items.iter().map(walk).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), walk(v))).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string(&walk(value)).unwrap()
}

pub fn structured(result: &Value) -> &Value {
    &result["structuredContent"]
}

pub fn is_error(result: &Value) -> bool {
    result["isError"] == json!(true)
}

pub fn codes(result: &Value) -> Vec<String> {
    structured(result)["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}
