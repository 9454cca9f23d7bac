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
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod small_blocks;

#[cfg(target_arch = "wasm32")]
mod bindings;

/// The wasm32 heap: free lists of small blocks (up to 256 bytes) in front
/// of talc. Rust's default there is dlmalloc, whose malloc, free and chunk
/// unlinking were about 5 % of a render's time in V8's profile; talc was
/// faster, and still about 12 % of a corpus render; a small block from its
/// size class's list costs a load and a store (see docs/wasm.md for the
/// measured differences).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: small_blocks::SmallBlocks<talc::wasm::WasmDynamicTalc> =
    small_blocks::SmallBlocks::new(talc::wasm::new_wasm_dynamic_allocator());

pub use includes::{set_include_resolver, IncludeResolver, MAX_INCLUDED_BYTES, MAX_INCLUDE_LOADS};
pub use session::{
    decode_url, encode_url, theme_names, Preview, RenderRequest, Rendered, Session, SessionError, VIRTUAL_FILE,
};
