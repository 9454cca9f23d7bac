//! PlantUML's server protocol and Kroki's API for PlantUML, so that every
//! integration that calls a PlantUML server (the VS Code extension's server
//! mode, GitLab, Gitea, markdown-it and Kroki clients, wikis) can point at
//! `puml serve` instead:
//!
//! - `GET /plantuml/{svg,png,img,txt,utxt,pdf}/ENCODED`: the diagram in the
//!   URL, in PlantUML's encoding (deflate + its base64, or `~h` hex) or
//!   Kroki's (zlib + base64url; told apart by the zlib header);
//! - `POST /plantuml/{svg,png,txt,…}` with the source as the body (or Kroki's
//!   JSON `{"diagram_source": …}`), and Kroki's `POST /` with
//!   `{diagram_source, diagram_type, output_format}`;
//! - `GET /plantuml/uml/ENCODED`: a small editor page (no external assets).
//!
//! Answers carry PlantUML's `X-PlantUML-Diagram-Width/-Height/-Description`
//! headers; a diagram with an error is a 400 with `X-PlantUML-Diagram-Error`
//! and `-Error-Line` and an error image, as PlantUML's own server answers.
//! A kind of diagram puml does not draw is handed to `--fallback` (a
//! PlantUML server) when one is configured, else refused with a 400 and an
//! image that says so. Local `!include`s read only under `--include-root`
//! (none by default, as PlantUML's server refuses them); URL includes never.

use crate::{ApiError, HttpBody};
use bytes::Bytes;
use http::{header, HeaderValue, Method, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use puml_compat::encoding::{decode, encode_plantuml};
use puml_compat::{unsupported_message, ImageFormat, Outcome, RenderSettings, Renderer, ServerAnswer};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Default limit of a diagram's decoded source.
pub const DEFAULT_MAX_SOURCE_BYTES: usize = 1_000_000;

/// Settings of the PlantUML-compatible endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlantumlOptions {
    /// `!include` of local files only under this directory; `None`: refused.
    pub include_root: Option<PathBuf>,
    /// A PlantUML server (`http://host:port[/prefix]`) for the kinds puml does not draw.
    pub fallback: Option<String>,
    pub max_source_bytes: usize,
    /// Renders running at once; more wait their turn.
    pub max_concurrent_renders: usize,
    /// Longest a render may take before the answer is a 503.
    pub render_timeout: Duration,
}

impl Default for PlantumlOptions {
    fn default() -> PlantumlOptions {
        PlantumlOptions {
            include_root: None,
            fallback: None,
            max_source_bytes: DEFAULT_MAX_SOURCE_BYTES,
            max_concurrent_renders: std::thread::available_parallelism().map_or(2, |n| n.get()) * 2,
            render_timeout: Duration::from_secs(10),
        }
    }
}

/// The endpoints' shared state: options, a pool of renderers (each owns an
/// analysis host; a request borrows one) and the concurrency bound.
pub struct PlantumlApi {
    options: PlantumlOptions,
    /// Idle renderers, each with the size of the source its host memoizes.
    renderers: Mutex<Vec<(Renderer, usize)>>,
    slots: Arc<Semaphore>,
}

/// Renderers kept idle at most.
const POOLED_RENDERERS: usize = 64;
/// A renderer whose last source was larger than this is not kept: what its
/// host memoized (tree, model, scene, image) is many times the source, and
/// a long-running server's footprint should follow its load, not its
/// largest request.
const POOLED_SOURCE_BYTES_EACH: usize = 64 * 1024;
/// The sources the idle renderers memoize, in bytes, at most.
const POOLED_SOURCE_BYTES: usize = 1024 * 1024;

impl PlantumlApi {
    pub fn new(options: PlantumlOptions) -> PlantumlApi {
        let slots = Arc::new(Semaphore::new(options.max_concurrent_renders.max(1)));
        PlantumlApi {
            options,
            renderers: Mutex::new(Vec::new()),
            slots,
        }
    }

    pub fn options(&self) -> &PlantumlOptions {
        &self.options
    }

    fn take_renderer(&self) -> Renderer {
        let pooled = self.renderers.lock().ok().and_then(|mut pool| pool.pop());
        pooled.map_or_else(|| Renderer::new(self.options.include_root.clone()), |(r, _)| r)
    }

    /// Returns a renderer to the pool after a request for `source_bytes` of
    /// source, whose image was `rendered` or refused. A refused request's
    /// work is dropped, and so is a large one's or one past the pool's byte
    /// budget; after dropping a large one the allocator is asked to hand
    /// the freed memory back to the system.
    fn give_back(&self, renderer: Renderer, source_bytes: usize, rendered: bool) {
        let keep = rendered && source_bytes <= POOLED_SOURCE_BYTES_EACH;
        if keep {
            if let Ok(mut pool) = self.renderers.lock() {
                let held: usize = pool.iter().map(|(_, bytes)| bytes).sum();
                if pool.len() < POOLED_RENDERERS && held + source_bytes <= POOLED_SOURCE_BYTES {
                    pool.push((renderer, source_bytes));
                    return;
                }
            }
        }
        drop(renderer);
        if source_bytes > POOLED_SOURCE_BYTES_EACH {
            crate::memory::return_freed_memory();
        }
    }
}

/// Does `path` belong to these endpoints (`/plantuml/…`, Kroki's `POST /`)?
pub fn handles(method: &Method, path: &str) -> bool {
    path == "/plantuml" || path.starts_with("/plantuml/") || (path == "/" && method == Method::POST)
}

/// What a request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Request {
    Image { format: ImageFormat, source: String },
    Editor { source: String },
}

fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
}

/// Answers one request on these endpoints. `body` is the (already limited) request body.
pub async fn respond(
    api: Arc<PlantumlApi>,
    method: Method,
    path: String,
    content_type: Option<String>,
    body: Bytes,
) -> Result<Response<HttpBody>, ApiError> {
    let request = parse_request(&api, &method, &path, content_type.as_deref(), &body)?;
    match request {
        Request::Editor { source } => Ok(editor_page(&source)),
        Request::Image { format, source } => render(api, format, source).await,
    }
}

fn parse_request(
    api: &PlantumlApi,
    method: &Method,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Request, ApiError> {
    let limit = api.options.max_source_bytes;
    if path == "/" {
        let (source, format) = kroki_json(body, None)?;
        return Ok(Request::Image { format, source });
    }
    let rest = path.trim_start_matches("/plantuml").trim_start_matches('/');
    let (kind, encoded) = rest.split_once('/').unwrap_or((rest, ""));
    if kind.is_empty() || kind == "uml" {
        if method != Method::GET {
            return Err(ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "the editor page answers GET",
            ));
        }
        let source = if encoded.is_empty() {
            "@startuml\nAlice -> Bob : hello\n@enduml\n".to_string()
        } else {
            decode_source(encoded, limit)?
        };
        return Ok(Request::Editor { source });
    }
    let format = ImageFormat::from_name(kind).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such output: /plantuml/{kind}/ (puml serves svg, png, img, txt, utxt, pdf and uml)"),
        )
    })?;
    match *method {
        Method::GET | Method::HEAD => {
            if encoded.is_empty() {
                return Err(bad_request(format!(
                    "GET /plantuml/{kind}/ needs the encoded diagram after the slash"
                )));
            }
            Ok(Request::Image {
                format,
                source: decode_source(encoded, limit)?,
            })
        }
        Method::POST => {
            let is_json = content_type.is_some_and(|t| t.starts_with("application/json"));
            let source = if is_json {
                kroki_json(body, Some(format))?.0
            } else {
                String::from_utf8(body.to_vec()).map_err(|_| bad_request("the request body is not UTF-8"))?
            };
            if source.len() > limit {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload_too_large",
                    format!("the diagram exceeds the limit of {limit} bytes"),
                ));
            }
            Ok(Request::Image { format, source })
        }
        _ => Err(ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{path} accepts GET and POST"),
        )),
    }
}

fn decode_source(encoded: &str, limit: usize) -> Result<String, ApiError> {
    // Encoded text may arrive percent-escaped (`~h` is sometimes `%7Eh`).
    let unescaped = percent_decode(encoded);
    decode(&unescaped, limit)
        .map(|(text, _)| text)
        .map_err(|error| match error {
            puml_compat::encoding::DecodeError::TooLarge { .. } => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", error.to_string())
            }
            other => bad_request(format!("cannot decode the diagram in the URL: {other}")),
        })
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            if let Some(value) = text
                .get(index + 1..index + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            {
                out.push(value);
                index += 3;
                continue;
            }
        }
        out.push(bytes[index]);
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Kroki's JSON body. `path_format` (from `/plantuml/svg`) wins over `output_format`.
fn kroki_json(body: &[u8], path_format: Option<ImageFormat>) -> Result<(String, ImageFormat), ApiError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| bad_request(format!("the body is not valid JSON ({e})")))?;
    let source = value
        .get("diagram_source")
        .and_then(Value::as_str)
        .ok_or_else(|| bad_request("the JSON body needs a string diagram_source"))?
        .to_string();
    if let Some(kind) = value.get("diagram_type").and_then(Value::as_str) {
        if !kind.eq_ignore_ascii_case("plantuml") {
            return Err(bad_request(format!(
                "diagram_type `{kind}` is not served here; puml serves plantuml"
            )));
        }
    }
    let format = match (path_format, value.get("output_format").and_then(Value::as_str)) {
        (Some(format), _) => format,
        (None, Some(name)) => ImageFormat::from_name(name).ok_or_else(|| {
            bad_request(format!(
                "output_format `{name}` is not served (svg, png, pdf, txt, utxt)"
            ))
        })?,
        (None, None) => ImageFormat::Svg,
    };
    Ok((source, format))
}

async fn render(api: Arc<PlantumlApi>, format: ImageFormat, source: String) -> Result<Response<HttpBody>, ApiError> {
    let Ok(_permit) = api.slots.clone().acquire_owned().await else {
        return Err(ApiError::internal("the render queue is closed"));
    };
    let worker_api = api.clone();
    let work = tokio::task::spawn_blocking(move || {
        let mut renderer = worker_api.take_renderer();
        let answer = renderer.render_request(&source, &RenderSettings::new(format));
        let rendered = matches!(
            answer,
            Some(ServerAnswer {
                outcome: Outcome::Rendered { .. },
                ..
            })
        );
        worker_api.give_back(renderer, source.len(), rendered);
        (source, answer)
    });
    let (text, answer) = match tokio::time::timeout(api.options.render_timeout, work).await {
        Ok(Ok(done)) => done,
        Ok(Err(_panicked)) => {
            return Err(ApiError::internal(
                "internal error while rendering; the server keeps serving",
            ))
        }
        Err(_elapsed) => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "timeout",
                format!(
                    "the diagram took longer than {} s to render",
                    api.options.render_timeout.as_secs()
                ),
            ))
        }
    };
    let Some(ServerAnswer { outcome, error_line }) = answer else {
        return Err(bad_request("no diagram in the request (expected @startuml … @enduml)"));
    };
    match outcome {
        Outcome::Rendered { pages, description, .. } => {
            let page = pages.into_iter().next().unwrap_or_else(|| puml_compat::Page {
                bytes: Vec::new(),
                width: 0.0,
                height: 0.0,
            });
            let mut response = image_response(StatusCode::OK, format, page.bytes, page.width, page.height);
            set_header(&mut response, "x-plantuml-diagram-description", &description);
            Ok(response)
        }
        Outcome::Error {
            line, message, image, ..
        } => {
            let mut response = image_response(StatusCode::BAD_REQUEST, format, image.bytes, image.width, image.height);
            set_header(&mut response, "x-plantuml-diagram-description", "(Error)");
            set_header(&mut response, "x-plantuml-diagram-error", &message);
            set_header(
                &mut response,
                "x-plantuml-diagram-error-line",
                &error_line.unwrap_or(line + 1).to_string(),
            );
            Ok(response)
        }
        Outcome::Unsupported { kind, image } => {
            if let Some(fallback) = api.options.fallback.clone() {
                return forward(&fallback, format, &text).await;
            }
            let mut response = image_response(StatusCode::BAD_REQUEST, format, image.bytes, image.width, image.height);
            set_header(&mut response, "x-plantuml-diagram-description", "(Error)");
            set_header(
                &mut response,
                "x-plantuml-diagram-error",
                &unsupported_message(kind).replace('\n', " "),
            );
            set_header(&mut response, "x-puml-unsupported-kind", kind);
            Ok(response)
        }
    }
}

fn image_response(
    status: StatusCode,
    format: ImageFormat,
    bytes: Vec<u8>,
    width: f64,
    height: f64,
) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(bytes)).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(format.mime_type()));
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    // The URL holds the diagram: a success never changes; an error may be fixed server-side (fallback).
    let cache = if status == StatusCode::OK {
        "public, max-age=86400"
    } else {
        "no-cache"
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    set_header(
        &mut response,
        "x-plantuml-diagram-width",
        &(width.ceil() as i64).to_string(),
    );
    set_header(
        &mut response,
        "x-plantuml-diagram-height",
        &(height.ceil() as i64).to_string(),
    );
    response
}

/// Header values are visible ASCII: other characters become `?` (`…` becomes `...`).
fn set_header(response: &mut Response<HttpBody>, name: &'static str, value: &str) {
    let ascii: String = value
        .replace('…', "...")
        .chars()
        .map(|c| if c == ' ' || c.is_ascii_graphic() { c } else { '?' })
        .take(1000)
        .collect();
    if let Ok(value) = HeaderValue::from_str(&ascii) {
        response.headers_mut().insert(name, value);
    }
}

/// Hands a diagram puml does not draw to the fallback PlantUML server.
async fn forward(fallback: &str, format: ImageFormat, text: &str) -> Result<Response<HttpBody>, ApiError> {
    let (authority, prefix) =
        parse_fallback(fallback).map_err(|e| ApiError::new(StatusCode::BAD_GATEWAY, "bad_gateway", e))?;
    let kind = match format {
        ImageFormat::Txt => "txt",
        other => other.extension(),
    };
    let path = format!("{prefix}/plantuml/{kind}/{}", encode_plantuml(text));
    let unavailable = |e: String| {
        ApiError::new(
            StatusCode::BAD_GATEWAY,
            "bad_gateway",
            format!("the fallback PlantUML server at {fallback} failed: {e}"),
        )
    };
    let stream = tokio::time::timeout(Duration::from_secs(5), tokio::net::TcpStream::connect(&authority))
        .await
        .map_err(|_| unavailable("connection timed out".into()))?
        .map_err(|e| unavailable(e.to_string()))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
        .await
        .map_err(|e| unavailable(e.to_string()))?;
    tokio::spawn(connection);
    let request = http::Request::get(&path)
        .header(header::HOST, &authority)
        .body(http_body_util::Empty::<Bytes>::new())
        .map_err(|e| unavailable(e.to_string()))?;
    let answer = tokio::time::timeout(Duration::from_secs(60), sender.send_request(request))
        .await
        .map_err(|_| unavailable("no answer within 60 s".into()))?
        .map_err(|e| unavailable(e.to_string()))?;
    let (parts, body) = answer.into_parts();
    let bytes = http_body_util::Limited::new(body, 64 * 1024 * 1024)
        .collect()
        .await
        .map_err(|e| unavailable(e.to_string()))?
        .to_bytes();
    let mut response = Response::new(Full::new(bytes).boxed());
    *response.status_mut() = parts.status;
    for (name, value) in &parts.headers {
        let keep = name == header::CONTENT_TYPE || name.as_str().starts_with("x-plantuml-");
        if keep {
            response.headers_mut().insert(name.clone(), value.clone());
        }
    }
    response
        .headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    Ok(response)
}

/// `http://host:port/prefix` → (`host:port`, `/prefix`). Plain HTTP only.
pub fn parse_fallback(url: &str) -> Result<(String, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("the fallback `{url}` must be an http:// URL (puml speaks plain HTTP to it)"))?;
    let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
    if authority.is_empty() {
        return Err(format!("the fallback `{url}` has no host"));
    }
    let authority = if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    let prefix = path
        .trim_end_matches('/')
        .trim_end_matches("plantuml")
        .trim_end_matches('/');
    let prefix = if prefix.is_empty() {
        String::new()
    } else {
        format!("/{prefix}")
    };
    Ok((authority, prefix))
}

/// The editor page: source on the left, live preview and diagnostics on the
/// right. Self-contained (inline script and style, no external asset); it
/// renders through `POST /plantuml/svg` and reads the error headers.
fn editor_page(source: &str) -> Response<HttpBody> {
    let escaped = source.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let html = EDITOR_HTML
        .replace("{{SOURCE}}", &escaped)
        .replace("{{VERSION}}", puml_compat::VERSION);
    let mut response = Response::new(Full::new(Bytes::from(html)).boxed());
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; img-src 'self' blob: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'"),
    );
    response
}

const EDITOR_HTML: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>puml — PlantUML editor</title>
<style>
body{margin:0;font:14px system-ui,sans-serif;display:flex;flex-direction:column;height:100vh}
header{padding:6px 10px;background:#222;color:#eee}
main{flex:1;display:flex;min-height:0}
textarea{width:45%;font:13px ui-monospace,monospace;border:0;border-right:1px solid #ccc;padding:8px;resize:none}
#right{flex:1;display:flex;flex-direction:column;min-width:0}
#preview{flex:1;overflow:auto;padding:8px}
#status{padding:6px 10px;border-top:1px solid #ccc;white-space:pre-wrap;font:12px ui-monospace,monospace}
#status.error{background:#fee;color:#900}
</style></head><body>
<header>puml {{VERSION}} — PlantUML-compatible server (sequence diagrams drawn without Java)</header>
<main><textarea id="source" spellcheck="false">{{SOURCE}}</textarea>
<div id="right"><div id="preview"></div><div id="status">ready</div></div></main>
<script>
const source = document.getElementById('source');
const preview = document.getElementById('preview');
const status = document.getElementById('status');
let pending = 0;
async function update() {
  const ticket = ++pending;
  const response = await fetch('../svg', {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: source.value});
  if (ticket !== pending) return;
  const svg = await response.blob();
  const img = document.createElement('img');
  img.src = URL.createObjectURL(svg);
  img.alt = 'diagram';
  preview.replaceChildren(img);
  const error = response.headers.get('X-PlantUML-Diagram-Error');
  if (error) {
    status.className = 'error';
    status.textContent = 'line ' + response.headers.get('X-PlantUML-Diagram-Error-Line') + ': ' + error;
  } else {
    status.className = '';
    status.textContent = (response.headers.get('X-PlantUML-Diagram-Description') || 'ok') + ' — ' +
      response.headers.get('X-PlantUML-Diagram-Width') + '×' + response.headers.get('X-PlantUML-Diagram-Height');
  }
}
let timer;
source.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(update, 120); });
update();
</script></body></html>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn pooled(api: &PlantumlApi) -> (usize, usize) {
        let pool = api.renderers.lock().expect("pool");
        (pool.len(), pool.iter().map(|(_, bytes)| bytes).sum())
    }

    /// The idle renderers keep what small, answered requests built; a
    /// refused request's work and a large one's are dropped, and the pool
    /// holds a bounded number of source bytes whatever the load.
    #[test]
    fn the_renderer_pool_is_bounded_by_bytes_and_drops_refused_work() {
        let api = PlantumlApi::new(PlantumlOptions::default());
        api.give_back(api.take_renderer(), 1_000, true);
        assert_eq!(pooled(&api), (1, 1_000));
        api.give_back(api.take_renderer(), 1_000, false);
        assert_eq!(pooled(&api), (0, 0), "a refused request's renderer is dropped");
        api.give_back(api.take_renderer(), POOLED_SOURCE_BYTES_EACH + 1, true);
        assert_eq!(pooled(&api), (0, 0), "a large request's renderer is dropped");
        let renderers: Vec<Renderer> = (0..POOLED_RENDERERS * 2).map(|_| api.take_renderer()).collect();
        for renderer in renderers {
            api.give_back(renderer, POOLED_SOURCE_BYTES_EACH, true);
        }
        let (count, bytes) = pooled(&api);
        assert!(
            bytes <= POOLED_SOURCE_BYTES && count <= POOLED_RENDERERS,
            "{count} renderers, {bytes} bytes"
        );
        assert_eq!(count, POOLED_SOURCE_BYTES / POOLED_SOURCE_BYTES_EACH);
    }

    #[test]
    fn fallback_urls() {
        assert_eq!(
            parse_fallback("http://127.0.0.1:8080"),
            Ok(("127.0.0.1:8080".into(), String::new()))
        );
        assert_eq!(
            parse_fallback("http://plantuml.local/plantuml/"),
            Ok(("plantuml.local:80".into(), String::new()))
        );
        assert_eq!(
            parse_fallback("http://h:1/base/plantuml"),
            Ok(("h:1".into(), "/base".into()))
        );
        assert!(parse_fallback("https://h").is_err());
    }

    #[test]
    fn percent_escapes() {
        assert_eq!(percent_decode("%7Eh4142"), "~h4142");
        assert_eq!(percent_decode("abc%zz"), "abc%zz");
    }
}
