//! `puml mcp`: runs the MCP server of `puml-mcp` on stdio, or with `--http`
//! over streamable HTTP plus the REST endpoints (`puml-server`).
use puml_server::{HttpOptions, HttpRateLimit};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct McpArgs {
    /// A directory the server may read and write in (repeatable; default: the current directory).
    /// A client's MCP roots can narrow these, never widen them.
    #[arg(long = "root", value_name = "DIR")]
    roots: Vec<PathBuf>,
    /// Serve HTTP on ADDR (IP:PORT, or PORT for 127.0.0.1) instead of stdio: MCP streamable HTTP
    /// at /mcp, and POST /api/verify, /api/render, /api/svg with {"code": ...}.
    #[arg(long, value_name = "ADDR", value_parser = puml_server::parse_addr)]
    http: Option<SocketAddr>,
    /// Permit a non-loopback --http address (there is no TLS and no authentication).
    #[arg(long, requires = "http")]
    allow_remote: bool,
    /// Also accept NAME in the Host header (repeatable; loopback names are always accepted).
    #[arg(long = "allowed-host", value_name = "NAME", requires = "http")]
    allowed_hosts: Vec<String>,
    /// Request-body limit in bytes (413 beyond).
    #[arg(long, value_name = "BYTES", default_value_t = puml_server::DEFAULT_MAX_BODY_BYTES,
          value_parser = clap::value_parser!(usize), requires = "http")]
    max_body: usize,
    /// Per-client-IP rate limit, REQUESTS/SECONDS (429 beyond).
    #[arg(long, value_name = "N/SECS", default_value = "60/10", value_parser = HttpRateLimit::parse, requires = "http")]
    rate_limit: HttpRateLimit,
}

pub fn run(args: McpArgs) -> ExitCode {
    let http = args.http.map(|addr| {
        let mut http = HttpOptions::new(addr);
        http.allow_remote = args.allow_remote;
        http.allowed_hosts = args.allowed_hosts;
        http.max_body_bytes = args.max_body.max(1);
        http.rate_limit = args.rate_limit;
        http
    });
    let options = puml_mcp::McpOptions { roots: args.roots };
    match &http {
        Some(http) => puml_server::run_http(&options, http),
        None => puml_mcp::run_stdio(&options),
    }
}
