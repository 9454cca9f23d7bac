//! The HTTP front (`--http`): MCP over streamable HTTP, the REST endpoints
//! and the limits, driven by a minimal HTTP/1.1 client over `TcpStream`
//! against a server on 127.0.0.1:0 (the kernel picks the port).

use puml_mcp::security::Roots;
use puml_server::{HttpOptions, HttpRateLimit, HttpServer};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const VALID: &str = "@startuml\nAlice -> Bob : hello\nBob --> Alice : hi\n@enduml\n";
const INVALID: &str = "@startuml\nAlice -> Bob : hello\nend\n@enduml\n";

fn workspace(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("puml-mcp-http-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.puml"), VALID).unwrap();
    root
}

fn loopback_options() -> HttpOptions {
    HttpOptions::new(SocketAddr::from(([127, 0, 0, 1], 0)))
}

/// Starts a server in a thread of its own; returns the address it listens on.
fn start(name: &str, options: HttpOptions) -> SocketAddr {
    let roots = Roots::new(&[workspace(name)]).unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let server = HttpServer::bind(roots, options).await.unwrap();
            sender.send(server.local_addr().unwrap()).unwrap();
            server.run().await;
        });
    });
    receiver.recv().unwrap()
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The JSON-RPC message of an MCP reply, sent as JSON or as SSE `data:` events.
    fn mcp_message(&self) -> Value {
        let content_type = self.header("content-type").unwrap_or_default();
        if content_type.starts_with("application/json") {
            return self.json();
        }
        assert!(content_type.starts_with("text/event-stream"), "{content_type}");
        let text = String::from_utf8_lossy(&self.body);
        text.split("\n\n")
            .filter_map(|event| {
                let data: Vec<&str> = event.lines().filter_map(|l| l.strip_prefix("data:")).collect();
                serde_json::from_str::<Value>(data.join("\n").trim()).ok()
            })
            .find(|message| message.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC response in the stream: {text}"))
    }
}

/// One request on a fresh connection (`Connection: close`), read to the end.
fn request(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-length")) {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    // One write: when the server answers before reading the body (413, 429),
    // the body is then already in its buffer, and closing the connection
    // does not reset it under our unread response.
    let mut message = head.into_bytes();
    message.extend_from_slice(body);
    stream.write_all(&message).unwrap();
    read_reply(stream)
}

fn read_reply(stream: TcpStream) -> Reply {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status: u16 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed.split_once(':').unwrap();
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            let size = usize::from_str_radix(line.trim(), 16).unwrap();
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).unwrap();
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        reader.read_to_end(&mut body).unwrap();
    }
    Reply { status, headers, body }
}

fn post_json(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    request(
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        body.to_string().as_bytes(),
    )
}

/// An MCP client session over streamable HTTP.
struct McpSession {
    addr: SocketAddr,
    session_id: String,
    next_id: u64,
}

const PROTOCOL_VERSION: &str = "2025-06-18";

impl McpSession {
    fn post(&self, message: &Value, session: Option<&str>) -> Reply {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        if let Some(id) = session {
            headers.push(("Mcp-Session-Id", id));
            headers.push(("MCP-Protocol-Version", PROTOCOL_VERSION));
        }
        request(self.addr, "POST", "/mcp", &headers, message.to_string().as_bytes())
    }

    fn initialize(addr: SocketAddr) -> McpSession {
        let mut session = McpSession {
            addr,
            session_id: String::new(),
            next_id: 1,
        };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": "http-test", "version": "1"}}});
        let reply = session.post(&init, None);
        assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
        session.session_id = reply.header("mcp-session-id").expect("a session id").to_string();
        let message = reply.mcp_message();
        assert_eq!(message["result"]["serverInfo"]["name"], "puml-mcp", "{message}");
        assert!(message["result"]["capabilities"]["tools"].is_object());
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let reply = session.post(&initialized, Some(&session.session_id));
        assert_eq!(reply.status, 202);
        session
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let reply = self.post(&message, Some(&self.session_id));
        assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
        let response = reply.mcp_message();
        assert_eq!(response["id"], self.next_id);
        response
    }
}

#[test]
fn mcp_over_streamable_http() {
    let addr = start("mcp", loopback_options());
    let mut session = McpSession::initialize(addr);

    let tools = session.call("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names.len(), 13, "{names:?}");
    assert!(names.contains(&"puml_check") && names.contains(&"puml_render_svg"));

    let check = session.call(
        "tools/call",
        json!({"name": "puml_check", "arguments": {"source": VALID}}),
    );
    assert_eq!(check["result"]["structuredContent"]["ok"], true, "{check}");
    assert_eq!(check["result"]["structuredContent"]["summary"]["participants"], 2);

    let broken = session.call(
        "tools/call",
        json!({"name": "puml_check", "arguments": {"source": INVALID}}),
    );
    assert_eq!(broken["result"]["isError"], true, "{broken}");
    assert_eq!(broken["result"]["structuredContent"]["ok"], false);

    // The same roots and security rules as stdio.
    let by_path = session.call(
        "tools/call",
        json!({"name": "puml_check", "arguments": {"path": "a.puml"}}),
    );
    assert_eq!(by_path["result"]["structuredContent"]["ok"], true, "{by_path}");
    let escape = session.call(
        "tools/call",
        json!({"name": "puml_check", "arguments": {"path": "../../etc/passwd"}}),
    );
    assert_eq!(escape["result"]["isError"], true, "{escape}");
    assert_eq!(escape["result"]["structuredContent"]["diagnostics"][0]["code"], "M0001");

    let unknown = session.call("tools/call", json!({"name": "puml_nope", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    let resources = session.call("resources/list", json!({}));
    assert!(!resources["result"]["resources"].as_array().unwrap().is_empty());
    let prompts = session.call("prompts/list", json!({}));
    assert!(!prompts["result"]["prompts"].as_array().unwrap().is_empty());

    // Without the session id, a request is refused by the transport.
    let orphan = session.post(
        &json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list", "params": {}}),
        None,
    );
    assert!(orphan.status >= 400, "{}", orphan.status);
    assert_eq!(orphan.json()["ok"], false, "transport errors are JSON too");
    let not_sse = request(addr, "GET", "/mcp", &[("Accept", "text/html")], b"");
    assert!(not_sse.status >= 400, "{}", not_sse.status);
    assert!(not_sse.json()["error"].as_str().is_some_and(|e| !e.is_empty()));

    let closed = request(
        addr,
        "DELETE",
        "/mcp",
        &[
            ("Mcp-Session-Id", &session.session_id),
            ("MCP-Protocol-Version", PROTOCOL_VERSION),
        ],
        b"",
    );
    assert!(closed.status < 300, "{}", closed.status);
}

#[test]
fn rest_endpoints() {
    let addr = start("rest", loopback_options());

    let ok = post_json(addr, "/api/verify", &json!({"code": VALID}));
    assert_eq!(ok.status, 200);
    assert_eq!(ok.header("content-type"), Some("application/json"));
    let body = ok.json();
    assert_eq!(body["ok"], true, "{body}");
    assert_eq!(body["summary"]["participants"], 2);

    let invalid = post_json(addr, "/api/verify", &json!({"code": INVALID})).json();
    assert_eq!(invalid["ok"], false, "{invalid}");
    assert_eq!(invalid["code"], "invalid_diagram");
    assert!(invalid["error"].as_str().unwrap().starts_with("line 3:"), "{invalid}");
    assert!(!invalid["diagnostics"].as_array().unwrap().is_empty());

    let render = post_json(addr, "/api/render", &json!({"code": VALID}));
    assert_eq!(render.status, 200);
    let render = render.json();
    let svg = render["svg"].as_str().unwrap();
    assert!(svg.contains("<svg") && svg.contains("Alice"), "{render}");
    assert!(render.get("filename").is_none());

    let export = post_json(addr, "/api/svg", &json!({"code": VALID}));
    assert_eq!(export.status, 200);
    let export = export.json();
    assert_eq!(export["svg"], render["svg"], "both endpoints render the same SVG");
    let filename = export["filename"].as_str().unwrap();
    assert!(
        filename.starts_with("diagram-")
            && filename.ends_with(".svg")
            && filename.len() == "diagram-2024-12-25T14-23-45.svg".len(),
        "{filename}"
    );

    for path in ["/api/render", "/api/svg"] {
        let refused = post_json(addr, path, &json!({"code": INVALID}));
        assert_eq!(refused.status, 422, "{path}");
        let refused = refused.json();
        assert_eq!(refused["code"], "invalid_diagram");
        assert!(refused.get("svg").is_none());
    }

    // Malformed bodies are 400 with a JSON error, on every endpoint.
    let malformed: [&[u8]; 6] = [
        b"{not json",
        br#"{"code": ""}"#,
        br#"{"code": 42}"#,
        br#"{"source": "@startuml\n@enduml"}"#,
        br#"{"code": "@startuml\n@enduml", "theme": "dark"}"#,
        br#"["@startuml"]"#,
    ];
    for path in ["/api/verify", "/api/render", "/api/svg"] {
        for body in malformed {
            let reply = request(addr, "POST", path, &[("Content-Type", "application/json")], body);
            assert_eq!(reply.status, 400, "{path} {}", String::from_utf8_lossy(body));
            let error = reply.json();
            assert_eq!(error["ok"], false);
            assert_eq!(error["code"], "invalid_input");
            assert!(error["error"].as_str().unwrap().starts_with("Invalid input"), "{error}");
        }
    }
    let empty = post_json(addr, "/api/verify", &json!({"code": ""})).json();
    assert_eq!(empty["error"], "Invalid input: code must be a non-empty string");

    let get = request(addr, "GET", "/api/verify", &[], b"");
    assert_eq!(get.status, 405);
    assert_eq!(get.header("allow"), Some("POST"));
    assert_eq!(get.json()["code"], "method_not_allowed");
    let missing = request(addr, "POST", "/api/nothing", &[], b"{}");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["code"], "not_found");

    // DNS rebinding: a foreign Host or Origin is refused.
    let foreign = request(addr, "POST", "/api/verify", &[("Host", "evil.example")], b"{}");
    assert_eq!(foreign.status, 403);
    assert_eq!(foreign.json()["code"], "forbidden");
    let cross_site = request(
        addr,
        "POST",
        "/api/verify",
        &[("Origin", "https://evil.example")],
        json!({"code": VALID}).to_string().as_bytes(),
    );
    assert_eq!(cross_site.status, 403);
}

#[test]
fn oversized_bodies_are_413() {
    let addr = start("large", loopback_options());
    // Declared beyond the default 1 MB: refused before a byte of it is read
    // (nothing is sent, so the connection closes cleanly).
    for path in ["/api/verify", "/api/render", "/api/svg", "/mcp"] {
        let reply = request(
            addr,
            "POST",
            path,
            &[("Content-Type", "application/json"), ("Content-Length", "1000001")],
            b"",
        );
        assert_eq!(reply.status, 413, "{path}");
        assert_eq!(reply.json()["code"], "payload_too_large");
    }
    // At the limit, a (valid) body is read and answered.
    let padding = " ".repeat(1_000_000 - json!({"code": VALID}).to_string().len());
    let body = format!("{}{padding}", json!({"code": VALID}));
    assert_eq!(body.len(), 1_000_000);
    let reply = request(addr, "POST", "/api/verify", &[], body.as_bytes());
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["ok"], true);
    // (A streamed body beyond the limit is cut by the same check: see the
    // unit test `bodies_over_the_limit_are_413_whatever_their_framing`.)
}

#[test]
fn clients_beyond_the_rate_limit_get_429() {
    let mut options = loopback_options();
    // Five requests, then one more per 12 minutes: no refill during the test.
    options.rate_limit = HttpRateLimit::parse("5/3600").unwrap();
    let addr = start("rate", options);
    for _ in 0..5 {
        assert_eq!(post_json(addr, "/api/verify", &json!({"code": VALID})).status, 200);
    }
    for path in ["/api/verify", "/mcp"] {
        let limited = post_json(addr, path, &json!({"code": VALID}));
        assert_eq!(limited.status, 429);
        let wait: u64 = limited.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=720).contains(&wait), "{wait}");
        let error = limited.json();
        assert_eq!(error["code"], "rate_limited");
        assert!(error["error"].as_str().unwrap().contains("5 per 3600 s"), "{error}");
    }
}

#[test]
fn non_loopback_addresses_need_allow_remote() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let roots = Roots::new(&[workspace("remote")]).unwrap();
    let mut options = HttpOptions::new(SocketAddr::from(([0, 0, 0, 0], 0)));
    let refused = runtime
        .block_on(HttpServer::bind(roots.clone(), options.clone()))
        .err()
        .unwrap();
    assert!(
        refused.contains("not a loopback address") && refused.contains("--allow-remote"),
        "{refused}"
    );
    options.allow_remote = true;
    let server = runtime.block_on(HttpServer::bind(roots, options)).unwrap();
    assert!(server.local_addr().unwrap().ip().is_unspecified());

    let binary = Command::new(env!("CARGO_BIN_EXE_puml-mcp"))
        .args(["--http", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(binary.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&binary.stderr);
    assert!(stderr.contains("--allow-remote"), "{stderr}");
}

#[test]
fn the_binary_serves_http() {
    let root = workspace("binary");
    let mut child = Command::new(env!("CARGO_BIN_EXE_puml-mcp"))
        .arg("--root")
        .arg(&root)
        .args(["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    let reply = post_json(addr, "/api/verify", &json!({"code": VALID}));
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["ok"], true);
}

/// `puml serve`: the same server with PlantUML's and Kroki's endpoints on.
fn start_plantuml(name: &str) -> SocketAddr {
    let mut options = loopback_options();
    options.plantuml = Some(puml_server::plantuml::PlantumlOptions::default());
    options.rate_limit = HttpRateLimit {
        burst: u32::MAX,
        period: Duration::from_secs(1),
    };
    start(name, options)
}

fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, &[], b"")
}

#[test]
fn plantuml_urls_render_with_plantumls_headers() {
    let addr = start_plantuml("pu-get");
    // PlantUML 1.2026.8's `-encodeurl` of `A -> B : hi`; PicoWeb answers 200,
    // image/svg+xml, width 79, height 129, "(2 participants)".
    let reply = get(addr, "/plantuml/svg/SrJGjLDmKh1IoCW40000");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("image/svg+xml"));
    assert_eq!(reply.header("x-plantuml-diagram-description"), Some("(2 participants)"));
    let width: f64 = reply.header("x-plantuml-diagram-width").unwrap().parse().unwrap();
    assert!((60.0..100.0).contains(&width), "{width}");
    assert!(String::from_utf8_lossy(&reply.body).starts_with("<svg"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));

    let png = get(
        addr,
        &format!("/plantuml/png/{}", puml_compat::encoding::encode_plantuml(VALID)),
    );
    assert_eq!((png.status, png.header("content-type")), (200, Some("image/png")));
    assert!(png.body.starts_with(b"\x89PNG"));
    let img = get(
        addr,
        &format!("/plantuml/img/{}", puml_compat::encoding::encode_plantuml(VALID)),
    );
    assert_eq!(img.header("content-type"), Some("image/png"));
    let hex: String = "A -> B : hex".bytes().map(|b| format!("{b:02x}")).collect();
    let txt = get(addr, &format!("/plantuml/txt/~h{hex}"));
    assert_eq!(txt.status, 200);
    assert!(String::from_utf8_lossy(&txt.body).contains("hex"));
    // PicoWeb describes an activity diagram as `activity3`.
    let activity = get(
        addr,
        &format!(
            "/plantuml/svg/{}",
            puml_compat::encoding::encode_plantuml("@startuml\nstart\n:a;\nstop\n@enduml\n")
        ),
    );
    assert_eq!(activity.status, 200);
    assert_eq!(activity.header("x-plantuml-diagram-description"), Some("activity3"));
}

#[test]
fn plantuml_errors_are_400_with_the_line() {
    let addr = start_plantuml("pu-error");
    let source = "@startuml\nA -> B : hi\nfoo bar baz\n@enduml\n";
    let reply = get(
        addr,
        &format!("/plantuml/svg/{}", puml_compat::encoding::encode_plantuml(source)),
    );
    assert_eq!(reply.status, 400);
    assert_eq!(reply.header("x-plantuml-diagram-error-line"), Some("3"));
    assert!(reply
        .header("x-plantuml-diagram-error")
        .unwrap()
        .contains("foo bar baz"));
    assert_eq!(reply.header("x-plantuml-diagram-description"), Some("(Error)"));
    let svg = String::from_utf8_lossy(&reply.body);
    assert!(svg.starts_with("<svg") && svg.contains("foo bar baz"), "{svg}");
    // The text without @startuml is wrapped, and the added line counts (as PlantUML does).
    let bare = get(
        addr,
        &format!(
            "/plantuml/svg/{}",
            puml_compat::encoding::encode_plantuml("A -> B\nfoo bar")
        ),
    );
    assert_eq!(bare.header("x-plantuml-diagram-error-line"), Some("3"));
    let post = request(
        addr,
        "POST",
        "/plantuml/png",
        &[("Content-Type", "text/plain")],
        source.as_bytes(),
    );
    assert_eq!((post.status, post.header("content-type")), (400, Some("image/png")));
}

#[test]
fn kroki_requests_are_told_apart_by_the_zlib_header() {
    let addr = start_plantuml("pu-kroki");
    let encoded = puml_compat::encoding::encode_kroki(VALID);
    let reply = get(addr, &format!("/plantuml/svg/{encoded}"));
    assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    let text = request(
        addr,
        "POST",
        "/plantuml/svg",
        &[("Content-Type", "text/plain")],
        VALID.as_bytes(),
    );
    assert_eq!(text.status, 200);
    let json = post_json(
        addr,
        "/",
        &json!({"diagram_source": VALID, "diagram_type": "plantuml", "output_format": "png"}),
    );
    assert_eq!((json.status, json.header("content-type")), (200, Some("image/png")));
    let other = post_json(
        addr,
        "/",
        &json!({"diagram_source": "graph TD", "diagram_type": "mermaid"}),
    );
    assert_eq!(other.status, 400);
    assert!(String::from_utf8_lossy(&other.body).contains("mermaid"));
}

#[test]
fn plantuml_endpoints_fail_closed_and_keep_serving() {
    let addr = start_plantuml("pu-bad");
    assert_eq!(get(addr, "/plantuml/svg/not*base64").status, 400);
    assert_eq!(get(addr, "/plantuml/svg/").status, 400);
    assert_eq!(get(addr, "/plantuml/eps/SrJGjLDmKh1IoCW40000").status, 404);
    // An inflation bomb stops at the limit.
    let bomb = puml_compat::encoding::encode_plantuml(&"A -> B\n".repeat(400_000));
    assert_eq!(get(addr, &format!("/plantuml/svg/{bomb}")).status, 413);
    // Class and legacy activity diagrams are drawn; other kinds are refused
    // by name, with an image.
    let class = get(
        addr,
        &format!(
            "/plantuml/svg/{}",
            puml_compat::encoding::encode_plantuml("class Foo\nFoo <|-- Bar")
        ),
    );
    assert_eq!(class.status, 200);
    let legacy = get(
        addr,
        &format!(
            "/plantuml/svg/{}",
            puml_compat::encoding::encode_plantuml("(*) --> \"First\"\n\"First\" --> (*)")
        ),
    );
    assert_eq!(legacy.status, 200);
    let timing = get(
        addr,
        &format!(
            "/plantuml/svg/{}",
            puml_compat::encoding::encode_plantuml("robust \"Web\" as WB\n@0\nWB is Idle")
        ),
    );
    assert_eq!(timing.status, 400);
    assert!(timing.header("x-puml-unsupported-kind").is_some());
    // Local includes are refused without --include-root.
    let include = get(
        addr,
        &format!(
            "/plantuml/txt/{}",
            puml_compat::encoding::encode_plantuml("!include /etc/passwd\nA -> B")
        ),
    );
    assert_eq!(include.status, 400);
    assert!(!String::from_utf8_lossy(&include.body).contains("root:"));
    // And the server still answers, MCP's REST API included.
    assert_eq!(get(addr, "/plantuml/svg/SrJGjLDmKh1IoCW40000").status, 200);
    assert_eq!(post_json(addr, "/api/verify", &json!({"code": INVALID})).status, 200);
}

#[test]
fn the_editor_page_is_self_contained() {
    let addr = start_plantuml("pu-editor");
    let source = "A -> B : <script>alert(1)</script>";
    let page = get(
        addr,
        &format!("/plantuml/uml/{}", puml_compat::encoding::encode_plantuml(source)),
    );
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let html = String::from_utf8_lossy(&page.body);
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    assert_eq!(get(addr, "/").status, 200);
}
