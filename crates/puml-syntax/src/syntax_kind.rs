//! Every token and node kind of the concrete syntax tree.
//!
//! The tree is line-oriented like the language: a `DIAGRAM` holds one node
//! per statement, and every statement node ends with its `NEWLINE` token (if
//! the line has one). Block-structured constructs whose depth is bounded
//! (block notes, refs, legends, titles, skinparam/style blocks, multi-line
//! participant names) are one node with their body inside. Constructs that
//! nest without bound (groups, boxes, `!if`) are **flat**: `GROUP_START`,
//! `ELSE`, `END` are sibling statements, so the tree depth is bounded and
//! no walk over it can overflow the stack. Consumers that need nesting count
//! starts and ends (see `puml_sema` and `puml_fmt`).

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
#[allow(non_camel_case_types)]
pub enum SyntaxKind {
    // ---- tokens: trivia
    WHITESPACE = 0,
    NEWLINE,
    /// `' …` to the end of the line.
    COMMENT,
    /// `/' … '/`, possibly over several lines.
    BLOCK_COMMENT,
    /// A U+FEFF byte-order mark at the start of the file.
    BOM,

    // ---- tokens: significant
    /// A keyword (`participant`, `note`, `alt`, `end`, `@startuml`, …); the
    /// text tells which. Keywords are matched case-insensitively.
    KEYWORD,
    /// A preprocessor directive word including its `!` (`!include`, `!define`).
    DIRECTIVE,
    /// A bare name (`Alice`, `DB_1`, `Ω`).
    IDENT,
    /// `"…"` (quotes included).
    STRING,
    /// An arrow, e.g. `->`, `-->>`, `<->o`, `-[#red,dashed]>`, `->x`.
    ARROW,
    /// `#red`, `#FF00AA`, `#red/blue`, `#red-blue`.
    COLOR,
    /// `<< … >>` including the brackets.
    STEREOTYPE,
    /// `[[url label]]`
    URL,
    NUMBER,
    COLON,
    COMMA,
    AMP,
    /// `++`, `--`, `**`, `!!` after a message target, or `++`/`--` before a
    /// participant on `deactivate`-like statements.
    LIFECYCLE,
    /// `{name}` teoz anchor.
    ANCHOR,
    /// `(10)` slant of an arrow.
    SLANT,
    L_BRACKET,
    R_BRACKET,
    L_BRACE,
    R_BRACE,
    /// `?` short-arrow endpoint.
    QUESTION,
    /// `/` at the start of an aligned note.
    SLASH,
    /// `=` in `!$x = 1` and `order = 10` style forms.
    EQ,
    /// Free text: message labels, note bodies, titles, divider text,
    /// skinparam values, preprocessor arguments. Kept verbatim.
    TEXT,
    /// A character sequence the parser could not place. Always accompanied by
    /// a syntax error.
    ERROR_TOKEN,
    /// Activity diagrams: `(…)` with its parentheses (an `if`/`while`
    /// condition, a branch label, a connector name). Nested parentheses
    /// inside are part of it.
    PAREN,
    /// Activity diagrams: the character that closes an action (`;`, `|`,
    /// `<`, `>`, `/`, `]`, `}`); it picks the action's shape.
    TERMINATOR,
    /// Activity diagrams: a `|` of a swimlane line (`|#color|alias| Name`).
    PIPE,
    /// Class diagrams: `<T extends Bar>` after a class name (brackets included).
    GENERIC,

    // ---- nodes
    ROOT,
    /// `@startuml … @enduml` (the end line may be missing).
    DIAGRAM,
    /// The `@startuml [name]` line.
    START_LINE,
    /// The `@enduml` line.
    END_LINE,
    /// `participant "Long" as L <<stereo>> #color order 10` (any kind keyword);
    /// may contain a `MULTILINE_NAME` body.
    PARTICIPANT,
    /// `[` … `]` multi-line display name inside a `PARTICIPANT`.
    MULTILINE_NAME,
    /// `create [kind] Name`.
    CREATE,
    /// `A -> B ++ : label`, including `[->`, `->]`, `?->`, `& A -> B`.
    MESSAGE,
    /// The left or right endpoint of a message (a name, `[`, `]`, or `?`).
    ENDPOINT,
    /// `return label`
    RETURN,
    /// `activate A #color`
    ACTIVATE,
    DEACTIVATE,
    DESTROY,
    /// `autoactivate on|off`
    AUTOACTIVATE,
    /// A note: one-line (`note left: text`) or block (header, body, `end note`).
    NOTE,
    /// The lines of a block note, ref or legend between header and end line.
    BODY,
    /// `end note`, `endnote`, `end hnote`, `endrnote`, `end ref`, `endlegend`,
    /// `end title`, `endheader`, `endfooter`, `end box`… as part of their block.
    BLOCK_END,
    /// `ref over A, B : text` or a block ref.
    REF,
    /// `alt cond`, `loop 10 times`, `group Label [secondary]`, `alt#Gold #Blue x`
    GROUP_START,
    /// `else cond`
    ELSE,
    /// `end` closing a group (also the mistaken `end alt`, `endloop`… forms,
    /// which carry an error).
    END,
    /// `box "Title" #color`
    BOX_START,
    /// `end box`
    BOX_END,
    /// `== text ==`
    DIVIDER,
    /// `...` or `... text ...`
    DELAY,
    /// `|||` or `||45||`
    SPACE,
    /// `newpage [title]`
    NEWPAGE,
    /// `autonumber …`
    AUTONUMBER,
    /// `title text` or `title` … `end title`
    TITLE,
    HEADER,
    FOOTER,
    /// `legend [pos]` … `endlegend`
    LEGEND,
    CAPTION,
    MAINFRAME,
    /// `hide footbox`, `hide unlinked`, `show footbox`, other `hide`/`show`.
    HIDE_SHOW,
    /// `skinparam key value` or `skinparam [prefix] {` … `}`
    SKINPARAM,
    /// `<style>` … `</style>`
    STYLE,
    /// `!theme name [from …]`
    THEME,
    /// `!pragma key [value]`
    PRAGMA,
    /// Any other preprocessor line: `!include`, `!define`, `!if`, `!endif`,
    /// `!procedure`, `!$x = …`, …
    PREPROC,
    /// A line that is not a statement of the sequence language.
    ERROR_STATEMENT,
    /// Text outside `@startuml … @enduml` (ignored by PlantUML).
    OUTSIDE_TEXT,
    /// `sprite $name [16x16/16] {` … `}`
    SPRITE,

    // ---- activity diagrams (PlantUML's "new" activity syntax). A block
    // whose statements PlantUML reads as an activity diagram (see
    // `parser::activity::block_is_activity`) holds these instead of the
    // sequence statements; the common ones (title, skinparam, style,
    // legend, preprocessor lines, …) keep their kinds. Like groups, every
    // block construct is flat: `IF_START`, `ELSE_IF`, `ACT_ELSE`, `END_IF`
    // are sibling statements.
    /// `:text;` (`#color:text;`, a stereotype after the terminator); the
    /// text may span lines (the node then holds several `NEWLINE`s). Also
    /// the one-line `- text` / `* text` (a `KEYWORD` `-`/`*`, no `COLON`).
    ACTION,
    /// `start`, `stop`, `end`, `kill`, `detach`, `break` (the keyword tells).
    ACT_FLOW,
    /// `if (cond) then (label)`, `if (a) is (b) then`, `if (a) equals (b) then`.
    IF_START,
    /// `elseif (cond) then (label)`, `else if (…) then (…)`.
    ELSE_IF,
    /// `else (label)` inside an activity `if`.
    ACT_ELSE,
    /// `endif`, `end if`.
    END_IF,
    /// `switch (cond)`.
    SWITCH_START,
    /// `case (label)`.
    CASE,
    /// `endswitch`.
    END_SWITCH,
    /// `while (cond) is (label)`.
    WHILE_START,
    /// `endwhile (label)`, `end while`.
    END_WHILE,
    /// `repeat`, `repeat :text;`.
    REPEAT_START,
    /// `repeat while (cond) is (label) not (label)`.
    REPEAT_WHILE,
    /// `backward :text;`.
    BACKWARD,
    /// `fork`, `split` (the keyword tells).
    FORK_START,
    /// `fork again`, `split again`.
    FORK_AGAIN,
    /// `end fork`, `end merge`, `end split` (`{label}` after them).
    FORK_END,
    /// `|Lane|`, `|#color|Lane|`, `|#color|alias| Name`.
    SWIMLANE,
    /// `partition Name {` (also `group`, `package`, `rectangle`, `card`).
    CONTAINER_START,
    /// `}` closing a container.
    CONTAINER_END,
    /// `->`, `-> label;`, `-[#red,dashed]-> label;` between two steps.
    ACT_ARROW,
    /// `note left: text`, `floating note right` … `end note`.
    ACT_NOTE,
    /// `(A)` connector.
    CONNECTOR,

    // ---- class diagrams (class, object and ER diagrams). A block that is
    // no valid sequence diagram but reads whole as a class diagram (see
    // `parser::class`) holds these; the shared statements (title,
    // skinparam, style, legend, preprocessor lines, …) keep their kinds.
    // Packages, namespaces and `together` are flat like groups: their
    // start and their `}` are sibling statements. A class body is bounded
    // (its members are lines, never blocks), so it is one node.
    /// `class A<T> as "x" <<s>> #color {` with its body (`CLASS_BODY` and
    /// `BLOCK_END`) when it has one; also `interface`, `enum`, `abstract
    /// class`, `entity`, `object`, `map`, `json`, `circle`, `diamond`, `()`,
    /// `<>`, and elements of other kinds under `allowmixing`.
    CLASS_DECL,
    /// The member lines of a class body (`CLASS_MEMBER` nodes).
    CLASS_BODY,
    /// One line of a class body (a field, method, separator, map row).
    CLASS_MEMBER,
    /// `A : text`: a member added on a line of its own.
    MEMBER_LINE,
    /// `A "1" *-- "many" B : label >`, `(A, B) .. C`, `A ()- B`.
    CLASS_LINK,
    /// `package a.b <<Node>> #color {`, `namespace x {`, `node N {`, `package p`.
    PACKAGE_START,
    /// `together {`.
    TOGETHER_START,
    /// `}` (or `end package`, `end namespace`) closing a package,
    /// namespace or `together`.
    BRACE_END,
    /// `note left of A : text`, `note "text" as N`, `note on link`, block forms.
    CLASS_NOTE,
    /// `set separator ::`, `left to right direction`, `allowmixing`, `url of A is [[…]]`.
    CLASS_OPTION,

    // ---- description diagrams (use case, component, deployment,
    // `rectangle`). A block that neither the sequence nor the class
    // statements read but that reads whole as a description diagram (see
    // `parser::description`) holds these; the shared statements keep their
    // kinds. Containers are flat like packages: their start and their `}`
    // are sibling statements.
    /// `actor "Long" as A <<s>> #pink`, `[Component] as C`, `(Use case)`,
    /// `:Actor:`, `() I`, `port P`; the multi-line forms (`component C [`
    /// … `]`) hold a `BODY` and a `BLOCK_END`.
    DESC_ELEMENT,
    /// `[A] -[#red,dashed]-> (B) : label`, `A "1" -- "*" B`.
    DESC_LINK,
    /// `note left of A : text`, `note "text" as N`, `note on link`, block forms.
    DESC_NOTE,
    /// `node "Server" as S {`, `package P {`, `together {`.
    DESC_CONTAINER_START,
    /// `}` closing a container.
    DESC_CONTAINER_END,
    /// `left to right direction`, `set separator ::`.
    DESC_OPTION,
    // ---- state diagrams. A block that is no valid sequence diagram but
    // reads whole with PlantUML's state grammar (see `parser::state`)
    // holds these, plus the shared statements. A composite state's `{` and
    // its `}` (`BRACE_END`) are flat sibling statements, like packages.
    /// `state "Long" as L <<choice>> #pink ##[dashed]blue : text`, `state A {`.
    STATE_DECL,
    /// `A -left[#red]-> B : label`, `[*] --> A`, `A --> [H*]`.
    STATE_LINK,
    /// `A : text`: a line of a state's description.
    STATE_DESC,
    /// `note left of A : text`, `note "text" as N`, `note on link`, block forms.
    STATE_NOTE,
    /// `--` or `||` between the concurrent regions of a composite state.
    STATE_SEPARATOR,
    /// `left to right direction`, `top to bottom direction`.
    STATE_OPTION,
    // ---- legacy activity diagrams (`(*) --> "First"`). A block that no
    // sequence, class or description reading takes but that reads whole
    // with PlantUML's legacy activity grammar (see `parser::legacy_activity`)
    // holds these, plus the shared statements. `if`/`else`/`endif` and a
    // partition's `{` and its `}` (`BRACE_END`) are flat sibling statements.
    /// `(*) --> "First"`, `"A" as a -up->[label] ===B1=== #pink`,
    /// `-->[yes] if "c" then` (the target a new branch).
    LEGACY_LINK,
    /// `if "condition" then` after an activity.
    LEGACY_IF,
    /// `else` of an open `if`.
    LEGACY_ELSE,
    /// `endif` of an open `if`.
    LEGACY_ENDIF,
    /// `note left: text`, or `note right` … `end note` (with `BODY` and
    /// `BLOCK_END`), placed by the last activity.
    LEGACY_NOTE,
    /// `partition Name #color {`.
    LEGACY_PARTITION,
    /// `left to right direction`, `top to bottom direction`, `set namespaceSeparator x`.
    LEGACY_OPTION,
}

impl SyntaxKind {
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            SyntaxKind::WHITESPACE | SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT | SyntaxKind::BOM
        )
    }
    /// A statement node of an activity diagram (only such blocks hold them).
    pub fn is_activity_statement(self) -> bool {
        (self as u16) >= (SyntaxKind::ACTION as u16) && (self as u16) <= (SyntaxKind::CONNECTOR as u16)
    }
    /// A statement node of a class diagram (only such blocks hold them).
    pub fn is_class_statement(self) -> bool {
        (self as u16) >= (SyntaxKind::CLASS_DECL as u16) && (self as u16) <= (SyntaxKind::CLASS_OPTION as u16)
    }
    /// A statement node of a description diagram (only such blocks hold them).
    pub fn is_description_statement(self) -> bool {
        (self as u16) >= (SyntaxKind::DESC_ELEMENT as u16) && (self as u16) <= (SyntaxKind::DESC_OPTION as u16)
    }
    /// A statement node of a state diagram (only such blocks hold them).
    pub fn is_state_statement(self) -> bool {
        (self as u16) >= (SyntaxKind::STATE_DECL as u16) && (self as u16) <= (SyntaxKind::STATE_OPTION as u16)
    }
    /// A statement node of a legacy activity diagram (only such blocks hold them).
    pub fn is_legacy_activity_statement(self) -> bool {
        (self as u16) >= (SyntaxKind::LEGACY_LINK as u16) && (self as u16) <= (SyntaxKind::LEGACY_OPTION as u16)
    }
    pub fn is_token(self) -> bool {
        (self as u16) < (SyntaxKind::ROOT as u16)
    }
    /// The kind of a rowan node built by the parser.
    pub(crate) fn from_raw_rowan(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }
    const LAST: u16 = SyntaxKind::LEGACY_OPTION as u16;
    pub fn from_raw(raw: u16) -> SyntaxKind {
        assert!(raw <= SyntaxKind::LAST);
        // SAFETY: `SyntaxKind` is `repr(u16)` with contiguous discriminants
        // from 0 to `LAST`, checked just above.
        unsafe { std::mem::transmute::<u16, SyntaxKind>(raw) }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

#[derive(Debug, Copy, Clone, Ord, PartialOrd, Eq, PartialEq, Hash)]
pub enum PumlLanguage {}

impl rowan::Language for PumlLanguage {
    type Kind = SyntaxKind;
    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }
    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

pub type SyntaxNode = rowan::SyntaxNode<PumlLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<PumlLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<PumlLanguage>;
