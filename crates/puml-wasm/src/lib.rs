//! puml for JavaScript: the WebAssembly build's glue over
//! [`puml_ide::AnalysisHost`], as the CLI, the language server and the MCP
//! server are glue over it.
//!
//! [`Session`] is the whole front end in plain Rust: one host holding one
//! file, whose text each call replaces (an edit re-parses incrementally and
//! re-renders only what changed), answers as the CLI's JSON shapes
//! (`puml-json`), and `!include` through a caller-supplied resolver,
//! bounded. `bindings` (wasm32 only) exports it to JavaScript with
//! wasm-bindgen; the npm package's `index.js` (`editors/npm/`) shapes the
//! answers into JavaScript values.

mod includes;
mod session;

#[cfg(target_arch = "wasm32")]
mod bindings;

pub use includes::{set_include_resolver, IncludeResolver, MAX_INCLUDED_BYTES, MAX_INCLUDE_LOADS};
pub use session::{decode_url, encode_url, theme_names, RenderRequest, Rendered, Session, SessionError, VIRTUAL_FILE};
