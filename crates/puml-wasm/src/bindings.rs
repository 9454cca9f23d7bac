//! The JavaScript surface (wasm32 only): plain strings, numbers and bytes
//! in and out; errors are thrown as JSON text (`{message, diagnostics}`)
//! that the npm package's `index.js` turns into a `PumlError`. The
//! package's wrapper gives these their public names and shapes.

use crate::session::{self, RenderRequest, Session, SessionError};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

unsafe extern "C" {
    /// The constructors the linker gathered (salsa registers its queries
    /// through `inventory`, which runs at start-up).
    fn __wasm_call_ctors();
}

/// Runs the constructors once, when the module is instantiated. Without an
/// export that calls them, the linker takes the module for a command (run
/// once) and calls them at the top of every export: salsa's registrations
/// again on each call from JavaScript.
#[wasm_bindgen(start)]
fn run_constructors() {
    // SAFETY: called once, by wasm-bindgen's start-up, before any other
    // export; the constructors only register statics (and inventory's are
    // idempotent).
    unsafe { __wasm_call_ctors() }
}

thread_local! {
    static SESSION: RefCell<Session> = RefCell::new(Session::new());
}

/// Runs `f` on the one session. A call made from inside the include
/// resolver (the session is busy) is an error, not a trap.
fn with_session<T>(f: impl FnOnce(&mut Session) -> Result<T, SessionError>) -> Result<T, JsValue> {
    SESSION.with(|cell| match cell.try_borrow_mut() {
        Ok(mut session) => f(&mut session).map_err(|e| JsValue::from_str(&e.to_json())),
        Err(_) => Err(JsValue::from_str(
            &SessionError {
                message: "puml was called from inside its own include resolver".to_string(),
                diagnostics: Vec::new(),
            }
            .to_json(),
        )),
    })
}

#[wasm_bindgen(js_name = checkJson)]
pub fn check_json(source: &str) -> Result<String, JsValue> {
    with_session(|s| s.check_json(source))
}

#[wasm_bindgen(js_name = formatSource)]
pub fn format_source(source: &str) -> Result<String, JsValue> {
    with_session(|s| s.format(source))
}

/// `{"source": …, "applied": n}`.
#[wasm_bindgen(js_name = fixJson)]
pub fn fix_json(source: &str) -> Result<String, JsValue> {
    with_session(|s| {
        s.fix(source)
            .map(|(source, applied)| serde_json::json!({"source": source, "applied": applied}).to_string())
    })
}

#[wasm_bindgen(js_name = explainJson)]
pub fn explain_json(source: &str) -> Result<String, JsValue> {
    with_session(|s| s.explain_json(source))
}

#[wasm_bindgen(js_name = pageCount)]
pub fn page_count(source: &str) -> Result<u32, JsValue> {
    with_session(|s| s.page_count(source).map(|n| n as u32))
}

/// The page's bytes (UTF-8 for text formats); `page` 0 means the first,
/// `scale` 0 the default.
#[wasm_bindgen(js_name = renderBytes)]
pub fn render_bytes(
    source: &str,
    format: &str,
    theme: Option<String>,
    page: u32,
    scale: f64,
) -> Result<Vec<u8>, JsValue> {
    let request = RenderRequest {
        format: format.to_string(),
        theme: theme.filter(|t| !t.is_empty()),
        page: (page > 0).then_some(page as usize),
        scale: (scale > 0.0).then_some(scale),
    };
    with_session(|s| s.render(source, &request).map(|r| r.bytes))
}

/// The SVG of one page as text (`page` 0 means the first).
#[wasm_bindgen(js_name = renderSvg)]
pub fn render_svg(source: &str, theme: Option<String>, page: u32) -> Result<String, JsValue> {
    with_session(|s| {
        s.render_svg(
            source,
            theme.filter(|t| !t.is_empty()),
            (page > 0).then_some(page as usize),
        )
    })
}

/// What the playground needs after each change, in one call (the source
/// crosses into the module once): `{diagnostics, errors, pages, page, svg,
/// failure}`: the diagnostics as JSON text, how many are errors, the page
/// count, the page drawn (`page` 0 means the first; past the end, the
/// last), its SVG (`null` when errors refuse it) and, when the render
/// failed, why (the JSON text a thrown error carries).
#[wasm_bindgen]
pub fn preview(source: &str, theme: Option<String>, page: u32) -> Result<js_sys::Object, JsValue> {
    let preview = with_session(|s| {
        s.preview(
            source,
            theme.filter(|t| !t.is_empty()),
            (page > 0).then_some(page as usize),
        )
    })?;
    let (svg, failure) = match preview.svg {
        Some(Ok(svg)) => (JsValue::from_str(&svg), JsValue::NULL),
        Some(Err(error)) => (JsValue::NULL, JsValue::from_str(&error.to_json())),
        None => (JsValue::NULL, JsValue::NULL),
    };
    let answer = js_sys::Object::new();
    for (key, value) in [
        ("diagnostics", JsValue::from_str(&preview.diagnostics_json)),
        ("errors", JsValue::from(preview.errors as u32)),
        ("pages", JsValue::from(preview.pages as u32)),
        ("page", JsValue::from(preview.page as u32)),
        ("svg", svg),
        ("failure", failure),
    ] {
        js_sys::Reflect::set(&answer, &JsValue::from_str(key), &value)?;
    }
    Ok(answer)
}

#[wasm_bindgen(js_name = themeNames)]
pub fn theme_names() -> Vec<String> {
    session::theme_names().iter().map(|t| t.to_string()).collect()
}

#[wasm_bindgen(js_name = encodeUrl)]
pub fn encode_url(text: &str) -> String {
    session::encode_url(text)
}

#[wasm_bindgen(js_name = decodeUrl)]
pub fn decode_url(encoded: &str) -> Result<String, JsValue> {
    session::decode_url(encoded).map_err(|e| JsValue::from_str(&e.to_json()))
}

#[wasm_bindgen(js_name = pumlVersion)]
pub fn puml_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// `resolver(path)` answers an `!include` path (relative, `/` separated)
/// with the file's text, or `null`/`undefined` when there is none; a
/// resolver that throws counts as "no such file". `null` removes it.
#[wasm_bindgen(js_name = setIncludeResolver)]
pub fn set_include_resolver(resolver: Option<js_sys::Function>) {
    crate::includes::set_include_resolver(resolver.map(|function| {
        Box::new(move |path: &str| {
            function
                .call1(&JsValue::NULL, &JsValue::from_str(path))
                .ok()
                .and_then(|answer| answer.as_string())
        }) as crate::IncludeResolver
    }));
}
