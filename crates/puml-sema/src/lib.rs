//! Semantics of PlantUML sequence diagrams: preprocessing (`!include`,
//! `!define`, `!if`, procedures), name resolution and normalization of the
//! syntax tree into a position-free [`model::Document`], with a
//! [`model::SourceMap`] back to the syntax and the semantic diagnostics.

pub mod activity;
pub mod class;
pub mod codes;
pub mod colors;
pub mod description;
pub mod legacy_activity;
mod lower;
mod lower_activity;
mod lower_class;
mod lower_description;
mod lower_legacy_activity;
mod lower_state;
pub mod model;
mod other_kind;
pub mod preprocess;
mod relabel;
pub mod skinparams;
pub mod state;
pub mod style;
pub mod themes;

pub use lower::{analyze, analyze_parsed, Analysis, AnalysisOptions, MAX_DRAWN_LINE_CHARS};
pub use preprocess::{FileLoader, FsLoader, NoIncludes};
pub use relabel::reanalyze_label_edit;
