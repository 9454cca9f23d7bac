//! Stable diagnostic codes of the semantic layer and the drivers. Syntax
//! codes live in `puml_syntax`; preprocessor codes in `preprocess`.
//! Every code is documented in `docs/diagnostics.md`.

/// The input is not UTF-8 (or is binary).
pub const INVALID_UTF8: &str = "E0001";
/// The input is larger than the configured limit.
pub const TOO_LARGE: &str = "E0002";

/// `else` outside any group.
pub const ELSE_OUTSIDE_GROUP: &str = "E0201";
/// `end` with no open group (PlantUML: "Cannot create group").
pub const END_WITHOUT_GROUP: &str = "E0202";
/// `return` with no message to return from.
pub const RETURN_WITHOUT_CALL: &str = "E0203";
/// `deactivate` without a name while nothing is active.
pub const NOTHING_TO_DEACTIVATE: &str = "E0204";
/// `end box` without `box`.
pub const END_BOX_WITHOUT_BOX: &str = "E0205";

/// An `autonumber` line PlantUML rejects (an unknown form, `inc` or
/// `resume` with no numbering started).
pub const BAD_AUTONUMBER: &str = "E0207";

/// `deactivate`/`destroy` (or `A --`, `A !!`) before any message or
/// activation (PlantUML: "You cannot deactivate here").
pub const LIFELINE_BEFORE_MESSAGE: &str = "E0208";
/// `create X` followed by a message that does not go to `X` (PlantUML:
/// "After create command, you have to send a message to X").
pub const CREATE_WITHOUT_MESSAGE: &str = "E0209";

/// A color name PlantUML does not know (PlantUML: "No such color").
pub const UNKNOWN_COLOR: &str = "E0206";

/// The file holds no diagram at all (empty, or only comments/text).
pub const NO_DIAGRAM: &str = "W0105";

/// A group never closed by `end`.
pub const UNCLOSED_GROUP: &str = "W0201";
/// A `box` never closed by `end box`.
pub const UNCLOSED_BOX: &str = "W0202";
/// `deactivate X` while `X` is not active.
pub const DEACTIVATE_INACTIVE: &str = "W0203";
/// A note naming a participant nothing introduced.
pub const NOTE_UNKNOWN_PARTICIPANT: &str = "W0204";
/// A participant declared twice.
pub const DUPLICATE_PARTICIPANT: &str = "W0205";
/// A participant declared after a message or note already introduced it.
pub const DECLARED_AFTER_USE: &str = "W0206";
/// A teoz duration `{a} <-> {b}` naming an anchor no message carries.
pub const UNKNOWN_ANCHOR: &str = "W0207";
/// A line longer than the renderer draws (`puml_layout`'s line cap): the
/// drawing cuts it.
pub const LINE_CUT_WHEN_DRAWN: &str = "W0208";

/// `!theme NAME` names no theme PlantUML ships ("Cannot load theme").
pub const UNKNOWN_THEME: &str = "E0230";
/// `!theme NAME from DIR-or-URL`: puml never reads themes from files or
/// URLs, the diagram is drawn with puml's default look.
pub const THEME_NOT_DRAWN: &str = "W0230";
/// `<style>`: a selector PlantUML does not know (it ignores the block's rules for it).
pub const UNKNOWN_STYLE_SELECTOR: &str = "W0231";
/// `<style>`: a property PlantUML does not know (it ignores the declaration).
pub const UNKNOWN_STYLE_PROPERTY: &str = "W0232";
/// `<style>`: a `{` never closed; PlantUML drops the whole block.
pub const UNCLOSED_STYLE_BLOCK: &str = "W0233";
/// A `skinparam` name a sequence diagram does not read.
pub const IGNORED_SKINPARAM: &str = "W0234";
/// Activity: a middle or closing statement with no matching open block
/// (`else` without `if`, `endwhile` inside an `if`, a stray `}`).
pub const ACTIVITY_UNBALANCED: &str = "E0210";
/// Activity: a statement where PlantUML refuses it (`kill` right after
/// `start`, a step between `switch` and its first `case`, a second `else`,
/// the first swimlane after the first step).
pub const ACTIVITY_MISPLACED: &str = "E0212";
/// Activity: `end split` closing a `fork`, `end fork` closing a `split`.
pub const ACTIVITY_WRONG_CLOSER: &str = "E0211";
/// Activity: a block (`if`, `while`, `repeat`, `fork`, `partition`, …)
/// never closed; PlantUML closes it at the end of the diagram.
pub const ACTIVITY_UNCLOSED: &str = "W0209";
/// Activity: `#color:text;`, deprecated in PlantUML 1.2026 (`:text; <<#color>>`).
pub const DEPRECATED_ACTION_COLOR: &str = "W0210";
/// Activity: an action without `;` on its first line whose text runs over
/// lines that read as statements (PlantUML makes them text).
pub const ACTION_SWALLOWS_LINES: &str = "W0211";
/// Activity: an arrow label without `;` whose text runs over lines that
/// read as statements (PlantUML makes them label text: an action vanishes).
pub const ARROW_LABEL_SWALLOWS_LINES: &str = "W0212";
/// Activity: two labelled arrows in a row; PlantUML draws one arrow with
/// the last label only.
pub const ARROW_LABEL_DROPPED: &str = "W0213";

/// The block is no sequence diagram, but PlantUML reads every line of it as
/// another diagram type (and draws that) that puml does not draw: it
/// reports this instead of the sequence errors, and does not render the
/// block (description diagrams the parser reads are drawn, without it).
pub const OTHER_DIAGRAM_KIND: &str = "W0240";
/// No diagram type reads the whole block, and one of PlantUML's other
/// readings (class, description, legacy activity, state) gets past the
/// sequence reading's first error: PlantUML reports the error where that
/// reading stops, and so does puml, with the sequence errors before it as
/// related locations and their repairs.
pub const FURTHEST_READING: &str = "E0241";
/// A `@startuml` block whose first line is another language's (`nwdiag {`,
/// `salt`, `digraph G {`, `ditaa`): PlantUML refuses it at the block's end,
/// "This looks like a … diagram. Please use @start… instead of @startuml".
pub const MISPLACED_LANGUAGE: &str = "E0242";
/// A `@start…` tag PlantUML does not know (`@startfoo`): "Diagram not
/// supported by this release of PlantUML".
pub const UNKNOWN_START_TAG: &str = "E0243";

/// Class diagram: a `}` (or `end package`) with no package, namespace or
/// `together` open.
pub const CLASS_STRAY_CLOSE: &str = "E0250";
/// Class diagram: a `package`, `namespace` or `together` block never
/// closed by `}` (PlantUML closes it at the end of the diagram).
pub const CLASS_UNCLOSED_GROUP: &str = "W0251";
/// Class or description diagram: a `newpage`. PlantUML draws only the page
/// before the first one (in SVG, PNG and every other format), so the
/// statements after it are not drawn.
pub const LATER_PAGES_NOT_DRAWN: &str = "W0252";
