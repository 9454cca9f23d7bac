//! What `server-compat` and `bench-serve` share: starting `puml serve` (in
//! this process, on a port the kernel picks) and PlantUML's PicoWeb (the
//! jar, on a free port), and a minimal HTTP/1.1 client (one request per
//! connection: PicoWeb does not keep connections alive).

use puml_mcp::security::Roots;
use puml_server::plantuml::PlantumlOptions;
use puml_server::{HttpOptions, HttpRateLimit, HttpServer};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `puml serve` on a thread of its own with `workers` async threads.
pub fn start_puml(workers: usize) -> Result<SocketAddr, String> {
    let root = std::env::temp_dir();
    let roots = Roots::new(&[root]).map_err(|e| e.to_string())?;
    let mut options = HttpOptions::new(SocketAddr::from(([127, 0, 0, 1], 0)));
    options.plantuml = Some(PlantumlOptions::default());
    options.rate_limit = HttpRateLimit {
        burst: u32::MAX,
        period: Duration::from_secs(1),
    };
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers.max(1))
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => {
                let _ = sender.send(Err(e.to_string()));
                return;
            }
        };
        runtime.block_on(async move {
            match HttpServer::bind(roots, options).await {
                Ok(server) => {
                    let _ = sender.send(server.local_addr().map_err(|e| e.to_string()));
                    server.run().await;
                }
                Err(e) => {
                    let _ = sender.send(Err(e));
                }
            }
        });
    });
    receiver.recv().map_err(|e| e.to_string())?
}

/// PlantUML's own server; killed when dropped.
pub struct PicoWeb {
    child: Child,
    pub addr: SocketAddr,
}

impl Drop for PicoWeb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start_picoweb(jar: &Path) -> Result<PicoWeb, String> {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let child = Command::new("java")
        .arg("-Djava.awt.headless=true")
        .arg("-jar")
        .arg(jar)
        .arg(format!("-picoweb:{port}:127.0.0.1"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start PicoWeb: {e}"))?;
    let server = PicoWeb {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if TcpStream::connect(server.addr).is_ok() {
            return Ok(server);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err("PicoWeb did not start within 30 s".into())
}

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Read to the end (a server that stops mid-body fails the request).
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path` on a fresh connection, read to the end.
pub fn get(addr: SocketAddr, path: &str) -> Result<Reply, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(|e| e.to_string())?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line `{}`", line.trim()))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if let Some((name, value)) = trimmed.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let mut body = Vec::new();
    reader.read_to_end(&mut body).map_err(|e| e.to_string())?;
    Ok(Reply { status, headers, body })
}
