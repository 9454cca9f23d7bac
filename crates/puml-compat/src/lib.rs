//! PlantUML compatibility, shared by the `puml-plantuml` command (a drop-in
//! for `plantuml`) and by `puml serve` (PlantUML's and Kroki's HTTP API):
//!
//! - [`encoding`]: PlantUML's URL text encoding (raw deflate + its own
//!   base64 alphabet, or `~h` hex) and Kroki's (zlib + base64url);
//! - [`blocks`]: splitting a text into `@startXXX … @endXXX` diagrams and
//!   deciding which kind each one is, as PlantUML would name it;
//! - [`error_image`]: the picture PlantUML draws instead of a diagram with
//!   an error (the source up to the faulty line, the message under it);
//! - [`Renderer`]: one diagram in, an image or a located error out, through
//!   the [`puml_ide::AnalysisHost`] like every other consumer.

pub mod blocks;
pub mod command;
pub mod encoding;
pub mod error_image;
mod renderer;

pub use blocks::{split_blocks, Block, DiagramKind};
pub use renderer::{unsupported_message, ImageFormat, Outcome, Page, RenderSettings, Renderer, ServerAnswer};

/// The version string printed by `-version` and sent in `Server` headers.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The PlantUML release whose language puml follows (every verdict and
/// picture is settled against it): the version `-version` names first, in
/// PlantUML's own form, for scripts that check a `plantuml` command.
pub const PLANTUML_VERSION: &str = "1.2026.8";

/// The diagram kinds puml draws, named as PlantUML names them.
pub const DRAWN_KINDS: &[&str] = &["SEQUENCE", "ACTIVITY", "CLASS", "DESCRIPTION", "STATE"];
