//! `puml-lsp`: the Language Server Protocol front of puml (tower-lsp-server
//! over stdio). Glue only: every answer comes from `puml_ide`'s
//! `AnalysisHost`/`Analysis`; this crate converts positions (UTF-16 lines
//! and columns ↔ byte offsets) and protocol types, and keeps one host for
//! the open documents.
//!
//! Code map: [`text`] positions and edits; `server` the protocol handlers;
//! `features` the answers built from analysis results (symbols, hover,
//! completion, folding) as plain functions, tested without a client.

pub mod features;
mod server;
pub mod text;

pub use server::{service, Backend};

/// Serves one client over stdin/stdout until it exits.
pub async fn serve_stdio() {
    let (service, socket) = service();
    tower_lsp_server::Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
        .serve(service)
        .await;
}
