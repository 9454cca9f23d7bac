//! Stable codes of the diagnostics the parser reports. Every code is
//! documented, with a bad and a fixed example, in `docs/diagnostics.md`.

/// A line that is not a statement of the sequence-diagram language.
pub const SYNTAX_ERROR: &str = "E0100";
/// A `"` that is not closed on its line.
pub const UNTERMINATED_STRING: &str = "E0101";
/// A Mermaid arrow (`-)`, `~>`, `->>+`, `-x`) in a PlantUML diagram.
pub const MERMAID_ARROW: &str = "E0102";
/// Text after a message target without the `:` that starts a label.
pub const MISSING_LABEL_COLON: &str = "E0103";
/// A misspelt keyword (`lop`, `participnt`, `autonumbr`).
pub const UNKNOWN_KEYWORD: &str = "E0104";
/// `endloop`, `endif`, `endalt`… instead of `end`.
pub const WRONG_GROUP_END: &str = "E0105";
/// `elseif` / `elif` instead of `else`.
pub const WRONG_ELSE: &str = "E0106";
/// Mermaid `rect` block.
pub const MERMAID_RECT: &str = "E0107";
/// Other Mermaid syntax: `and`, `option`, `%%` comments, `link`.
pub const MERMAID_SYNTAX: &str = "E0108";
/// A Mermaid `sequenceDiagram` header.
pub const MERMAID_HEADER: &str = "E0109";
/// Activity- or class-diagram syntax inside a sequence diagram.
pub const FOREIGN_DIAGRAM_SYNTAX: &str = "E0110";
/// `activate` without a participant.
pub const ACTIVATE_WITHOUT_NAME: &str = "E0111";
/// A block note, ref, legend, title… never closed.
pub const UNCLOSED_BLOCK: &str = "E0112";
/// A participant kind PlantUML does not have (`service`, `component`).
pub const UNKNOWN_PARTICIPANT_KIND: &str = "E0113";
/// A malformed note header (`note over A B`, `note sideways of A`).
pub const BAD_NOTE: &str = "E0114";
/// A `/' … '/` comment never closed.
pub const UNCLOSED_COMMENT: &str = "E0116";
/// A message with a missing endpoint (`A ->` with nothing after).
pub const MISSING_ENDPOINT: &str = "E0117";
/// A stray block end (`end note` with no note open).
pub const STRAY_BLOCK_END: &str = "E0118";

/// An activity `:action` never closed by `;`.
pub const ACTION_WITHOUT_SEMICOLON: &str = "E0120";
/// The legacy activity syntax (`(*) --> "x"`) in a diagram of the new one.
pub const LEGACY_ACTIVITY: &str = "E0121";
/// Mermaid flowchart syntax (`flowchart TD`, `graph LR`, `A --> B[x]`).
pub const MERMAID_FLOWCHART: &str = "E0122";

/// Class diagram: Mermaid's class syntax (`<<interface>> A`, `note for A`,
/// `class A["x"]`, `direction LR`, `%%`, `style`/`classDef`/`click` lines).
pub const CLASS_MERMAID_SYNTAX: &str = "E0130";
/// Class diagram: Java, C# or Kotlin written as PlantUML (`public class A`,
/// `class A : B`, `A extends B` as a statement, a dangling or repeated `extends`).
pub const CLASS_JAVA_SYNTAX: &str = "E0131";
/// Class diagram: type arguments PlantUML refuses (`class A<T`, `class A<T>>`,
/// `class A extends B<T>` without a body).
pub const CLASS_GENERIC: &str = "E0132";
/// Class diagram: an arrow PlantUML does not know (`A ~~> B`, `A --|>> B`).
pub const CLASS_UNKNOWN_ARROW: &str = "E0133";
/// Class diagram: several links on one line (`A -- B -- C`, `A, B --> C`).
pub const CLASS_CHAINED_LINK: &str = "E0134";
/// Class diagram: a member outside any body (`+ name : int` on its own).
pub const CLASS_MEMBER_OUTSIDE: &str = "E0135";
/// Class diagram: a body on the declaration's line (`class A { +x }`, `class A {{`).
pub const CLASS_BODY_ON_LINE: &str = "E0136";

/// No `@enduml` (PlantUML's editors accept it; its file mode finds no diagram).
pub const MISSING_ENDUML: &str = "W0101";
/// A second `@startuml` inside a diagram (ignored by PlantUML).
pub const NESTED_STARTUML: &str = "W0102";
/// `end alt`, `end group`: accepted by PlantUML, but the words after `end` mean nothing.
pub const END_WITH_WORDS: &str = "W0103";
/// No `@startuml` at all: the file is read as one diagram.
pub const MISSING_STARTUML: &str = "W0104";
/// A `box` title whose `"` is never closed (PlantUML shows the quote).
pub const BOX_TITLE_OPEN_QUOTE: &str = "W0106";
