//! Workflow diagnostic codes (`F…`), documented in `docs/diagnostics.md`.
//! `F00xx`: the input is not a workflow; `F01xx`: annotation notes;
//! `F02xx`: the six validation rules of seed 001.

/// The file holds no activity diagram to read as a workflow.
pub const NOT_ACTIVITY: &str = "F0001";
/// The Workflow JSON does not have the documented shape.
pub const BAD_JSON: &str = "F0002";
/// The workflow cannot be written as an activity diagram (not structured).
pub const NOT_STRUCTURED: &str = "F0003";

pub const BAD_YAML: &str = "F0101";
pub const UNKNOWN_ANNOTATION: &str = "F0102";
pub const MISSING_FIELD: &str = "F0103";
pub const BAD_FIELD: &str = "F0104";
pub const UNKNOWN_FIELD: &str = "F0105";
/// An annotation on a step it cannot describe (`<<input>>` on an action…).
pub const MISPLACED_ANNOTATION: &str = "F0106";
/// A construct the workflow mapping does not cover (`switch`, `break`…).
pub const UNMAPPED: &str = "F0107";

pub const UNDEFINED_VARIABLE: &str = "F0201";
pub const DUPLICATE_SWIMLANE: &str = "F0202";
pub const UNKNOWN_TEMPLATE: &str = "F0203";
pub const TEMPLATES_NOT_CHECKED: &str = "F0204";
pub const UNSUPPORTED_OPERATOR: &str = "F0205";
pub const AGGREGATOR_INPUT: &str = "F0206";
pub const CYCLE: &str = "F0207";
