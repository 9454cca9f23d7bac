//! `puml-server`: puml's HTTP server, one listener with three routes:
//!
//! - `/mcp`: MCP's streamable HTTP transport, served by rmcp's own
//!   [`StreamableHttpService`] with one [`PumlServer`] per session (so the
//!   same tools, resources, prompts, roots and security rules as stdio);
//! - `POST /api/verify`, `/api/render`, `/api/svg`: REST endpoints taking
//!   `{"code": "..."}` and running the same MCP tools (see [`rest`]);
//! - with [`HttpOptions::plantuml`] (`puml serve`): PlantUML's server
//!   protocol and Kroki's API for PlantUML under `/plantuml/…` and `POST /`
//!   (see [`plantuml`], over `puml-compat`).
//!
//! In front of all three: Host/Origin validation (against DNS rebinding), a
//! per-IP rate limit ([`limits`]), a request-body limit and timeouts. Every
//! error this layer produces is JSON `{"ok": false, "code": ..., "error": ...}`;
//! a panic while handling a request becomes a 500 and the server keeps serving.
//! Plain HTTP/1.1 only (no TLS): bind to loopback, or put a proxy in front.
//!
//! [`command`] is the `puml-mcp` command line (stdio through `puml-mcp`'s
//! library, or `--http` through this server); the `puml-mcp` binary lives
//! here because it can serve HTTP. `puml serve` and `puml mcp --http` call
//! [`run_http`]. The MCP tools, resources and prompts stay in `puml-mcp`.

pub mod command;
pub mod limits;
pub mod memory;
pub mod plantuml;
pub mod rest;

use bytes::Bytes;
use http::{header, HeaderMap, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use limits::{RateLimit, RateLimiter};
use puml_mcp::security::Roots;
use puml_mcp::server::PumlServer;
use puml_mcp::tools::{self, ToolContext, ToolEntry};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Map, Value};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

pub use command::{main_from_args, run_http};
pub use limits::RateLimit as HttpRateLimit;

/// The path of the MCP endpoint.
pub const MCP_PATH: &str = "/mcp";
/// Default request-body limit: 1 MB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1_000_000;
/// How long a client may take to send the request head.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a REST body, and a REST call may compute.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Connections served at once; more wait in the accept queue.
const MAX_CONNECTIONS: usize = 256;

pub type HttpBody = BoxBody<Bytes, Infallible>;

/// Options of the HTTP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    pub addr: SocketAddr,
    /// Permit a non-loopback bind address.
    pub allow_remote: bool,
    /// Extra names accepted in the `Host` header (besides loopback and the bind address).
    pub allowed_hosts: Vec<String>,
    pub max_body_bytes: usize,
    pub rate_limit: RateLimit,
    pub request_timeout: Duration,
    /// Serve PlantUML's and Kroki's endpoints too (`puml serve`).
    pub plantuml: Option<plantuml::PlantumlOptions>,
}

impl HttpOptions {
    pub fn new(addr: SocketAddr) -> HttpOptions {
        HttpOptions {
            addr,
            allow_remote: false,
            allowed_hosts: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            rate_limit: RateLimit::default(),
            request_timeout: REQUEST_TIMEOUT,
            plantuml: None,
        }
    }
}

/// Parses `--http`'s value: `HOST:PORT`, `:PORT` or `PORT` (the last two on 127.0.0.1).
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let port_only = text.strip_prefix(':').unwrap_or(text);
    if let Ok(port) = port_only.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    let with_localhost = match text.strip_prefix("localhost:") {
        Some(port) => format!("127.0.0.1:{port}"),
        None => text.to_string(),
    };
    with_localhost
        .parse()
        .map_err(|_| format!("invalid address `{text}`: expected IP:PORT, e.g. 127.0.0.1:8080"))
}

/// Refuses a non-loopback address unless remote access was asked for.
pub fn check_bind_address(addr: SocketAddr, allow_remote: bool) -> Result<(), String> {
    if addr.ip().is_loopback() || allow_remote {
        return Ok(());
    }
    Err(format!(
        "refusing to listen on {addr}: it is not a loopback address, so other machines could reach \
         the server (and through it the files under its roots). Use 127.0.0.1, or pass --allow-remote \
         if you mean it (there is no TLS and no authentication; put a proxy in front)."
    ))
}

/// The `Host` names the server answers to: loopback, the bind address and
/// `--allowed-host`s; empty (no check) when bound to a wildcard address
/// with `--allow-remote` and no names given.
fn allowed_hosts(options: &HttpOptions) -> Vec<String> {
    let ip = options.addr.ip();
    if ip.is_unspecified() && options.allowed_hosts.is_empty() {
        return Vec::new();
    }
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec();
    if !ip.is_unspecified() {
        hosts.push(ip.to_string());
    }
    hosts.extend(options.allowed_hosts.iter().cloned());
    hosts
}

/// An error answered as JSON: `{"ok": false, "code", "error", ...extra}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub extra: Map<String, Value>,
    pub retry_after: Option<Duration>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: Map::new(),
            retry_after: None,
        }
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the request body exceeds the limit of {limit} bytes"),
        )
    }

    /// The JSON body: `{"ok": false, "code", "error", ...extra}`.
    pub fn body(self) -> Value {
        let mut body = Map::new();
        body.insert("ok".into(), Value::Bool(false));
        body.insert("code".into(), Value::from(self.code));
        body.insert("error".into(), Value::String(self.message));
        body.extend(self.extra);
        Value::Object(body)
    }

    pub fn into_response(self) -> Response<HttpBody> {
        let status = self.status;
        let retry_after = self.retry_after;
        let mut response = json_response(status, &self.body());
        if let Some(wait) = retry_after {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        }
        response
    }
}

fn json_response(status: StatusCode, body: &Value) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// What every request handler shares.
struct Shared {
    roots: Roots,
    options: HttpOptions,
    allowed_hosts: Vec<String>,
    limiter: RateLimiter,
    tools: Arc<Vec<ToolEntry>>,
    mcp: StreamableHttpService<PumlServer, LocalSessionManager>,
    plantuml: Option<Arc<plantuml::PlantumlApi>>,
}

/// A bound server, ready to run. Binding first lets callers (and tests using
/// port 0) learn the address before serving.
pub struct HttpServer {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl HttpServer {
    /// Checks the address and binds it.
    pub async fn bind(roots: Roots, options: HttpOptions) -> Result<HttpServer, String> {
        check_bind_address(options.addr, options.allow_remote)?;
        let listener = TcpListener::bind(options.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
        let allowed_hosts = allowed_hosts(&options);
        let mut config = StreamableHttpServerConfig::default()
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_allowed_hosts(allowed_hosts.clone());
        if allowed_hosts.is_empty() {
            config = config.disable_allowed_hosts();
        }
        // A fresh handler per session: a client's roots never leak into another session.
        let session_roots = roots.clone();
        let mcp = StreamableHttpService::new(
            move || Ok(PumlServer::new(session_roots.clone())),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let plantuml = options
            .plantuml
            .clone()
            .map(|o| Arc::new(plantuml::PlantumlApi::new(o)));
        let shared = Shared {
            plantuml,
            roots,
            limiter: RateLimiter::new(options.rate_limit),
            options,
            allowed_hosts,
            tools: Arc::new(tools::all()),
            mcp,
        };
        Ok(HttpServer {
            listener,
            shared: Arc::new(shared),
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections until the task is dropped. Per-connection errors
    /// (a client hanging up, a slow header) end that connection only.
    pub async fn run(self) {
        let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
        loop {
            let Ok(permit) = slots.clone().acquire_owned().await else {
                return;
            };
            let (stream, peer) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: back off briefly and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let shared = self.shared.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let shared = shared.clone();
                    async move { Ok::<_, Infallible>(catch_panics(handle(shared, peer, request)).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                drop(permit);
            });
        }
    }
}

/// Runs `handler` as its own task so that a panic inside it becomes a 500
/// instead of tearing down the connection.
pub async fn catch_panics<F>(handler: F) -> Response<HttpBody>
where
    F: Future<Output = Response<HttpBody>> + Send + 'static,
{
    match tokio::spawn(handler).await {
        Ok(response) => response,
        Err(_) => {
            ApiError::internal("internal error while handling the request; the server keeps serving").into_response()
        }
    }
}

async fn handle(shared: Arc<Shared>, peer: SocketAddr, request: Request<Incoming>) -> Response<HttpBody> {
    match route(&shared, peer, request).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

async fn route(shared: &Shared, peer: SocketAddr, request: Request<Incoming>) -> Result<Response<HttpBody>, ApiError> {
    if let Err(wait) = shared.limiter.acquire(peer.ip(), Instant::now()) {
        let mut error = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!(
                "too many requests: at most {} per {} s per client",
                shared.options.rate_limit.burst,
                shared.options.rate_limit.period.as_secs()
            ),
        );
        error.retry_after = Some(wait);
        return Err(error);
    }
    check_host_and_origin(request.headers(), &shared.allowed_hosts)?;
    if declared_length(request.headers()).is_some_and(|len| len > shared.options.max_body_bytes) {
        return Err(ApiError::too_large(shared.options.max_body_bytes));
    }
    let path = request.uri().path();
    if let Some(api) = &shared.plantuml {
        let method = request.method().clone();
        if plantuml::handles(&method, path) || (path == "/" && method == Method::GET) {
            let path = if path == "/" && method == Method::GET {
                "/plantuml/uml/".to_string()
            } else {
                path.to_string()
            };
            let content_type = request
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let body = if method == Method::POST {
                read_body(
                    request.into_body(),
                    shared.options.max_body_bytes,
                    shared.options.request_timeout,
                )
                .await?
            } else {
                Bytes::new()
            };
            return plantuml::respond(api.clone(), method, path, content_type, body).await;
        }
    }
    if path == MCP_PATH {
        let ends_session = request.method() == Method::DELETE;
        let mut response = shared.mcp.handle(request).await;
        // rmcp acknowledges a session's end with 202; clients (the Python
        // SDK among them) expect 200 or 204 for a DELETE that succeeded.
        if ends_session && response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        return Ok(json_transport_error(response).await);
    }
    let Some(endpoint) = rest::Endpoint::from_path(path) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such endpoint: {path} (try POST /api/verify, /api/render, /api/svg, or MCP at {MCP_PATH})"),
        ));
    };
    if request.method() != Method::POST {
        let mut response = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{path} accepts POST only"),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return Ok(response);
    }
    let body = read_body(
        request.into_body(),
        shared.options.max_body_bytes,
        shared.options.request_timeout,
    )
    .await?;
    let code = rest::parse_body(&body)?;
    let ctx = ToolContext {
        roots: shared.roots.clone(),
    };
    // The tools are synchronous and CPU-bound: keep them off the async threads.
    let tools = shared.tools.clone();
    let work = tokio::task::spawn_blocking(move || rest::respond(endpoint, code, &tools, &ctx));
    match tokio::time::timeout(shared.options.request_timeout, work).await {
        Ok(Ok(Ok((status, body)))) => Ok(json_response(status, &body)),
        Ok(Ok(Err(error))) => Err(error),
        Ok(Err(_panicked)) => Err(ApiError::internal(
            "internal error while handling the request; the server keeps serving",
        )),
        Err(_elapsed) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!(
                "the request took longer than {} s",
                shared.options.request_timeout.as_secs()
            ),
        )),
    }
}

/// rmcp answers transport errors (no session id, a wrong `Accept`, a body
/// over the limit…) in plain text; rewrap them in this layer's JSON shape,
/// keeping the status and the other headers (`Allow`…).
async fn json_transport_error(response: Response<HttpBody>) -> Response<HttpBody> {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(response.status().is_client_error() || response.status().is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // Error bodies are small, complete buffers; an error while reading one
    // cannot happen (the error type is `Infallible`).
    let text = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let code = match parts.status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::NOT_ACCEPTABLE => "not_acceptable",
        StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        _ => "mcp_transport",
    };
    let message = String::from_utf8_lossy(&text).trim().to_string();
    let mut rewrapped = ApiError::new(parts.status, code, message).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    rewrapped.headers_mut().extend(parts.headers);
    rewrapped
}

fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers.get(header::CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

async fn read_body<B>(body: B, limit: usize, timeout: Duration) -> Result<Bytes, ApiError>
where
    B: hyper::body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    match tokio::time::timeout(timeout, Limited::new(body, limit).collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => Err(ApiError::too_large(limit)),
        Ok(Err(error)) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("cannot read the request body: {error}"),
        )),
        Err(_elapsed) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            format!("the request body took longer than {} s to arrive", timeout.as_secs()),
        )),
    }
}

/// Rejects a `Host` outside `allowed` and an `Origin` whose host is (DNS
/// rebinding and cross-site requests from a browser). Empty `allowed`: no check.
fn check_host_and_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    if allowed.is_empty() {
        return Ok(());
    }
    let forbidden = |what: &str| ApiError::new(StatusCode::FORBIDDEN, "forbidden", format!("{what} is not allowed"));
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .ok_or_else(|| forbidden("a request without a Host header"))?;
    if !host_is_allowed(authority_host(host), allowed) {
        return Err(forbidden(&format!("Host `{host}`")));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let authority = origin.split_once("://").map(|(_, rest)| rest).unwrap_or_default();
        if !host_is_allowed(authority_host(authority), allowed) {
            return Err(forbidden(&format!("Origin `{origin}`")));
        }
    }
    Ok(())
}

/// `host:port`, `[::1]:port`, `host` → the host.
fn authority_host(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    authority.split(':').next().unwrap_or_default()
}

fn host_is_allowed(host: &str, allowed: &[String]) -> bool {
    !host.is_empty() && allowed.iter().any(|a| a.eq_ignore_ascii_case(host))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn addresses() {
        assert_eq!(parse_addr("8080"), Ok(SocketAddr::from(([127, 0, 0, 1], 8080))));
        assert_eq!(parse_addr(":8080"), Ok(SocketAddr::from(([127, 0, 0, 1], 8080))));
        assert_eq!(parse_addr("localhost:9"), Ok(SocketAddr::from(([127, 0, 0, 1], 9))));
        assert_eq!(parse_addr("[::1]:9").map(|a| a.ip().is_loopback()), Ok(true));
        assert!(parse_addr("example.com:80").is_err());
        assert!(check_bind_address(SocketAddr::from(([127, 0, 0, 1], 0)), false).is_ok());
        assert!(check_bind_address(SocketAddr::from(([0, 0, 0, 0], 0)), false).is_err());
        assert!(check_bind_address(SocketAddr::from(([0, 0, 0, 0], 0)), true).is_ok());
    }

    #[test]
    fn hosts_and_origins() {
        let options = HttpOptions::new(SocketAddr::from(([127, 0, 0, 1], 80)));
        let allowed = allowed_hosts(&options);
        let headers = |pairs: &[(header::HeaderName, &str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.insert(name.clone(), HeaderValue::from_str(value).unwrap());
            }
            map
        };
        assert!(check_host_and_origin(&headers(&[(header::HOST, "127.0.0.1:80")]), &allowed).is_ok());
        assert!(check_host_and_origin(&headers(&[(header::HOST, "[::1]:80")]), &allowed).is_ok());
        assert!(check_host_and_origin(&headers(&[(header::HOST, "evil.example:80")]), &allowed).is_err());
        assert!(check_host_and_origin(&headers(&[]), &allowed).is_err());
        let cross_site = headers(&[(header::HOST, "localhost:80"), (header::ORIGIN, "https://evil.example")]);
        assert!(check_host_and_origin(&cross_site, &allowed).is_err());
        let same_site = headers(&[
            (header::HOST, "localhost:80"),
            (header::ORIGIN, "http://localhost:3000"),
        ]);
        assert!(check_host_and_origin(&same_site, &allowed).is_ok());
        let mut wildcard = HttpOptions::new(SocketAddr::from(([0, 0, 0, 0], 80)));
        wildcard.allow_remote = true;
        assert!(allowed_hosts(&wildcard).is_empty());
        wildcard.allowed_hosts.push("puml.example".into());
        assert!(allowed_hosts(&wildcard).contains(&"puml.example".to_string()));
    }

    #[tokio::test]
    async fn bodies_over_the_limit_are_413_whatever_their_framing() {
        let body = Full::new(Bytes::from(vec![b'x'; 2000]));
        let error = read_body(body, 1000, REQUEST_TIMEOUT).await.unwrap_err();
        assert_eq!(error.status, StatusCode::PAYLOAD_TOO_LARGE);
        let body = Full::new(Bytes::from(vec![b'x'; 1000]));
        assert_eq!(read_body(body, 1000, REQUEST_TIMEOUT).await.unwrap().len(), 1000);
    }

    #[tokio::test]
    async fn a_panicking_handler_becomes_a_500() {
        let response = catch_panics(async { panic!("boom") }).await;
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let body: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["code"], "internal");
        let fine = catch_panics(async { json_response(StatusCode::OK, &json!({"ok": true})) }).await;
        assert_eq!(fine.status(), StatusCode::OK);
    }
}
