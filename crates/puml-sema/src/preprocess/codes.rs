//! Stable codes of the preprocessor's diagnostics (the `P` range). Each is
//! documented with a bad and a fixed example in `docs/preprocessor.md`.

/// A `!word` that is not a preprocessor directive.
pub const UNKNOWN_DIRECTIVE: &str = "P0001";
/// A directive whose arguments cannot be read (`!define` without a name, a
/// bad procedure signature, `!foreach` without `in`, …).
pub const MALFORMED_DIRECTIVE: &str = "P0002";
/// An expression that does not parse or cannot be evaluated.
pub const BAD_EXPRESSION: &str = "P0003";
/// A `%name(…)` builtin that PlantUML does not have (or puml does not
/// implement), or a call of an undefined function inside an expression.
pub const UNKNOWN_FUNCTION: &str = "P0004";
/// A closing directive without its opening one (`!endif` without `!if`,
/// `!else` after `!else`, `!endwhile` closing a `!foreach`, …).
pub const UNMATCHED_BLOCK_END: &str = "P0005";
/// A block (`!if`, `!while`, `!procedure`, …) never closed. PlantUML accepts
/// it, so this is a warning.
pub const UNCLOSED_BLOCK: &str = "P0006";
/// Wrong arguments in a call of a user procedure or function.
pub const BAD_CALL_ARGUMENTS: &str = "P0007";
/// `!return` outside a function.
pub const RETURN_OUTSIDE_FUNCTION: &str = "P0008";

/// The included file does not exist or cannot be read.
pub const INCLUDE_NOT_FOUND: &str = "P0010";
/// The include resolves outside the include root (`..`, an absolute path or
/// a symlink that leaves it).
pub const INCLUDE_OUTSIDE_ROOT: &str = "P0011";
/// A file includes itself, directly or through other files.
pub const INCLUDE_CYCLE: &str = "P0012";
/// A URL include without `allow_url_includes`, or one the loader refused.
pub const URL_INCLUDE_REFUSED: &str = "P0013";
/// Includes nested deeper than `max_include_depth`.
pub const INCLUDE_TOO_DEEP: &str = "P0014";
/// `!include <lib/…>`: PlantUML's standard library is not bundled.
pub const STDLIB_INCLUDE: &str = "P0015";
/// `!includesub file!PART` where the file has no `!startsub PART`.
pub const INCLUDE_PART_NOT_FOUND: &str = "P0016";
/// A PlantUML directive puml does not support (`!import`, `!includedef`,
/// `!include_sprites`).
pub const UNSUPPORTED_DIRECTIVE: &str = "P0017";
/// Relative includes with neither a file path nor an include root (stdin).
pub const NO_INCLUDE_ROOT: &str = "P0018";
/// `!include file!N` / `file!ID` naming a diagram the file does not have
/// (a warning: PlantUML 1.2026 ignores the selector and takes the first).
pub const INCLUDE_SELECTOR_NOT_FOUND: &str = "P0019";

/// `!assert` with a false condition.
pub const ASSERTION_FAILED: &str = "P0020";
/// `!log` output (info).
pub const LOG_MESSAGE: &str = "P0021";

/// A `!while`/`!foreach` ran more than `max_loop_iterations` times.
pub const LOOP_LIMIT: &str = "P0030";
/// Procedure/function calls nested deeper than `max_call_depth` (runaway
/// recursion).
pub const CALL_DEPTH_LIMIT: &str = "P0031";
/// The expanded text grew past `max_output_bytes`.
pub const OUTPUT_LIMIT: &str = "P0032";
/// The preprocessor did more than `max_steps` units of work.
pub const WORK_LIMIT: &str = "P0033";
