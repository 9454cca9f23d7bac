//! puml's features as plain Rust functions over plain data: no protocol
//! types (LSP, MCP, JSON) here. The CLI, the LSP and the MCP server are thin
//! glue over this crate.
//!
//! Module ownership while the first version is built:
//! `check`, `fs` — compiler core; `render` — rendering;
//! `format`, `normalize`, `edit`, `explain`, `lint`, `primitives`,
//! `mermaid` — source tools.

pub mod check;
pub mod class_outline;
pub mod class_symbols;
mod description_outline;
pub mod diff;
pub mod edit;
pub mod explain;
pub mod fix;
pub mod format;
pub mod fs;
pub mod fuzz;
pub mod highlight;
pub mod host;
pub mod includers;
mod legacy_outline;
pub mod lint;
pub mod mermaid;
pub mod normalize;
pub mod outline;
pub mod primitives;
pub mod render;
pub mod skinparams;
mod state_outline;
pub mod symbols;
pub mod workflow;

pub use host::{
    Analysis, AnalysisHost, Cancellable, Cancelled, FileId, HostConfig, MessageNumber, ParticipantRef, Rename,
};
