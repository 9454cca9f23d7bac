//! `puml serve`: `puml-server` with PlantUML's server protocol (`/plantuml/{svg,png,txt}/…`,
//! the `/plantuml/uml/…` editor) and Kroki's API for PlantUML, in the same
//! HTTP server as MCP (`/mcp`) and the REST API (`/api/…`). Existing
//! integrations that call a PlantUML or Kroki server point at it unchanged.
use puml_server::plantuml::{parse_fallback, PlantumlOptions, DEFAULT_MAX_SOURCE_BYTES};
use puml_server::{HttpOptions, HttpRateLimit};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (IP:PORT, or PORT for 127.0.0.1; port 0 picks a free one).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080", value_parser = puml_server::parse_addr)]
    listen: SocketAddr,
    /// Permit a non-loopback address (there is no TLS and no authentication).
    #[arg(long)]
    allow_remote: bool,
    /// Also accept NAME in the Host header (repeatable), e.g. the name a proxy forwards.
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,
    /// `!include` of local files reads only under DIR (default: none, as PlantUML's server).
    #[arg(long, value_name = "DIR")]
    include_root: Option<PathBuf>,
    /// A PlantUML server (http://host:port) that draws the kinds puml does not (class, activity, …).
    #[arg(long, value_name = "URL")]
    fallback: Option<String>,
    /// Request-body limit in bytes (413 beyond).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_SOURCE_BYTES)]
    max_body: usize,
    /// Renders running at once (default: twice the cores); more wait.
    #[arg(long, value_name = "N")]
    max_concurrent: Option<usize>,
    /// Seconds a render may take (503 beyond).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    render_timeout: u64,
    /// Per-client-IP rate limit, REQUESTS/SECONDS (default: none).
    #[arg(long, value_name = "N/SECS", value_parser = HttpRateLimit::parse)]
    rate_limit: Option<HttpRateLimit>,
    /// A directory MCP clients may read and write in (repeatable; default: the current directory).
    #[arg(long = "root", value_name = "DIR")]
    roots: Vec<PathBuf>,
}

pub fn run(args: ServeArgs) -> ExitCode {
    if let Some(fallback) = &args.fallback {
        if let Err(message) = parse_fallback(fallback) {
            eprintln!("puml serve: {message}");
            return ExitCode::from(2);
        }
    }
    if let Some(root) = &args.include_root {
        if !root.is_dir() {
            eprintln!("puml serve: --include-root {} is not a directory", root.display());
            return ExitCode::from(2);
        }
    }
    let mut plantuml = PlantumlOptions {
        include_root: args.include_root,
        fallback: args.fallback,
        max_source_bytes: args.max_body.max(1),
        render_timeout: Duration::from_secs(args.render_timeout.max(1)),
        ..PlantumlOptions::default()
    };
    if let Some(n) = args.max_concurrent {
        plantuml.max_concurrent_renders = n.max(1);
    }
    let mut http = HttpOptions::new(args.listen);
    http.allow_remote = args.allow_remote;
    http.allowed_hosts = args.allowed_hosts;
    http.max_body_bytes = args.max_body.max(1);
    http.rate_limit = args.rate_limit.unwrap_or(HttpRateLimit {
        burst: u32::MAX,
        period: Duration::from_secs(1),
    });
    http.plantuml = Some(plantuml);
    let options = puml_mcp::McpOptions { roots: args.roots };
    puml_server::run_http(&options, &http)
}
