//! The `puml-mcp` command line: MCP over stdio (`puml-mcp`'s library), or
//! with `--http` this crate's server (MCP, REST). Shared by the `puml-mcp`
//! binary and the eval harness's copy of it.

use crate::{HttpOptions, HttpServer, MCP_PATH};
use puml_mcp::McpOptions;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// The parsed command line: the MCP server's options, and HTTP's when `--http` was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLine {
    pub mcp: McpOptions,
    /// Serve HTTP (streamable MCP + REST) instead of stdio.
    pub http: Option<HttpOptions>,
}

const USAGE: &str = "\
puml-mcp: the puml MCP server (Model Context Protocol over stdio or HTTP)

Usage: puml-mcp [--root DIR]... [--http ADDR [HTTP OPTIONS]]

Options:
  --root DIR   A directory the server may read and write in (repeatable).
               Default: the current directory. A client's MCP roots can
               narrow these further, never widen them.
  --http ADDR  Serve HTTP on ADDR (IP:PORT, or PORT for 127.0.0.1:PORT)
               instead of stdio: MCP streamable HTTP at /mcp, and
               POST /api/verify, /api/render, /api/svg with {\"code\": ...}.
  -h, --help   Print this help.
  -V, --version

HTTP options:
  --allow-remote        Permit a non-loopback ADDR (no TLS, no auth).
  --allowed-host NAME   Also accept NAME in the Host header (repeatable).
  --max-body BYTES      Request-body limit (default 1000000); 413 beyond.
  --rate-limit N/SECS   Per-client-IP limit (default 60/10); 429 beyond.
";

enum Parsed {
    Run(Box<CommandLine>),
    Exit(ExitCode),
}

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Parsed {
    match parse_options(args) {
        Ok(Some(options)) => Parsed::Run(Box::new(options)),
        Ok(None) => Parsed::Exit(ExitCode::SUCCESS),
        Err(message) => {
            eprintln!("puml-mcp: {message}\n\n{USAGE}");
            Parsed::Exit(ExitCode::from(2))
        }
    }
}

/// The options, or `None` when help or the version was printed.
fn parse_options(args: impl IntoIterator<Item = OsString>) -> Result<Option<CommandLine>, String> {
    let mut options = CommandLine::default();
    let mut http_addr = None;
    let mut http_flags = Vec::new();
    let mut allow_remote = false;
    let mut allowed_hosts = Vec::new();
    let mut max_body = None;
    let mut rate_limit = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        let (flag, inline_value) = match text.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
            _ => (text.clone(), None),
        };
        let mut value = |what: &str| match inline_value.clone() {
            Some(value) => Ok(value),
            None => args
                .next()
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| format!("{flag} needs {what}")),
        };
        match flag.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "-V" | "--version" => {
                println!("puml-mcp {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            "--root" => options.mcp.roots.push(PathBuf::from(value("a directory")?)),
            "--http" => http_addr = Some(crate::parse_addr(&value("an address")?)?),
            "--allow-remote" if inline_value.is_none() => {
                allow_remote = true;
                http_flags.push(flag);
            }
            "--allowed-host" => {
                allowed_hosts.push(value("a host name")?);
                http_flags.push(flag);
            }
            "--max-body" => {
                let bytes = value("a byte count")?;
                max_body = Some(
                    bytes
                        .parse::<usize>()
                        .ok()
                        .filter(|&b| b > 0)
                        .ok_or_else(|| format!("invalid --max-body `{bytes}`: expected a positive byte count"))?,
                );
                http_flags.push(flag);
            }
            "--rate-limit" => {
                rate_limit = Some(crate::HttpRateLimit::parse(&value("REQUESTS/SECONDS")?)?);
                http_flags.push(flag);
            }
            _ => return Err(format!("unknown argument `{text}`")),
        }
    }
    match http_addr {
        Some(addr) => {
            let mut http = HttpOptions::new(addr);
            http.allow_remote = allow_remote;
            http.allowed_hosts = allowed_hosts;
            http.max_body_bytes = max_body.unwrap_or(http.max_body_bytes);
            http.rate_limit = rate_limit.unwrap_or(http.rate_limit);
            options.http = Some(http);
        }
        None => {
            if let Some(flag) = http_flags.first() {
                return Err(format!("{flag} only applies with --http"));
            }
        }
    }
    Ok(Some(options))
}

/// Entry point of the `puml-mcp` binary.
pub fn main_from_args(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    match parse_args(args) {
        Parsed::Run(options) => match &options.http {
            Some(http_options) => run_http(&options.mcp, http_options),
            None => puml_mcp::run_stdio(&options.mcp),
        },
        Parsed::Exit(code) => code,
    }
}

/// Serves streamable HTTP MCP and the REST API until the process is stopped.
/// Refuses a non-loopback address without `--allow-remote`. Logs go to stderr.
pub fn run_http(options: &McpOptions, http_options: &HttpOptions) -> ExitCode {
    if let Err(refusal) = crate::check_bind_address(http_options.addr, http_options.allow_remote) {
        eprintln!("puml-mcp: {refusal}");
        return ExitCode::from(2);
    }
    let roots = match puml_mcp::roots_of(options) {
        Ok(roots) => roots,
        Err(e) => {
            eprintln!("puml-mcp: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("puml-mcp: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(async move {
        let server = match HttpServer::bind(roots, http_options.clone()).await {
            Ok(server) => server,
            Err(e) => {
                eprintln!("puml-mcp: {e}");
                return ExitCode::from(2);
            }
        };
        match server.local_addr() {
            Ok(addr) if http_options.plantuml.is_some() => eprintln!(
                "puml serve: listening on http://{addr} (PlantUML server at /plantuml/{{svg,png,txt}}/…, editor at /plantuml/uml/, Kroki at /plantuml/… and POST /; MCP at {}; REST at /api/…)",
                MCP_PATH
            ),
            Ok(addr) => eprintln!(
                "puml-mcp: listening on http://{addr} (MCP at {}; REST at /api/verify, /api/render, /api/svg)",
                MCP_PATH
            ),
            Err(e) => eprintln!("puml-mcp: listening ({e})"),
        }
        server.run().await;
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Option<CommandLine> {
        match parse_args(args.iter().map(OsString::from)) {
            Parsed::Run(options) => Some(*options),
            Parsed::Exit(_) => None,
        }
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&[]), Some(CommandLine::default()));
        assert_eq!(
            parse(&["--root", "a", "--root=b"]).unwrap().mcp.roots,
            vec![PathBuf::from("a"), PathBuf::from("b")]
        );
        assert_eq!(parse(&["--root"]), None);
        assert_eq!(parse(&["--bogus"]), None);
        assert_eq!(parse(&["--help"]), None);
        assert_eq!(parse(&["-V"]), None);
        assert_eq!(parse(&["--root=a", "--http"]), None);
        assert_eq!(parse(&["--allow-remote"]), None, "HTTP flags need --http");
        assert_eq!(parse(&["--http", "nowhere"]), None);
        assert_eq!(parse(&["--http", "1", "--max-body", "0"]), None);
        assert_eq!(parse(&["--http", "1", "--rate-limit", "fast"]), None);
        let http = parse(&[
            "--http=0.0.0.0:8080",
            "--allow-remote",
            "--allowed-host",
            "puml.example",
            "--max-body=2000",
            "--rate-limit",
            "5/1",
        ])
        .unwrap()
        .http
        .unwrap();
        assert_eq!(http.addr, "0.0.0.0:8080".parse().unwrap());
        assert!(http.allow_remote);
        assert_eq!(http.allowed_hosts, vec!["puml.example".to_string()]);
        assert_eq!(http.max_body_bytes, 2000);
        assert_eq!(http.rate_limit.burst, 5);
        assert!(parse(&["--http", "8080"])
            .unwrap()
            .http
            .is_some_and(|h| !h.allow_remote));
    }

    #[test]
    fn a_remote_address_is_refused_without_the_flag() {
        assert_eq!(
            main_from_args(["--http", "0.0.0.0:0"].map(OsString::from)),
            ExitCode::from(2)
        );
    }

    #[test]
    fn a_missing_root_is_refused() {
        assert_eq!(
            main_from_args(["--root", "/definitely/not/here"].map(OsString::from)),
            ExitCode::from(2)
        );
        assert_eq!(
            main_from_args(["--root", "/definitely/not/here", "--http", "127.0.0.1:0"].map(OsString::from)),
            ExitCode::from(2)
        );
    }
}
