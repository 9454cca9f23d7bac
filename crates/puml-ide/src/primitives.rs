//! The catalog of supported syntax: one row per primitive, by category, with
//! its syntax, a one-line meaning and an example that parses cleanly (a test
//! checks every example with the analyzer). `docs/syntax.md` is generated
//! from this table by [`markdown`].

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Participants,
    Arrows,
    Notes,
    Groups,
    Lifecycle,
    Styling,
    Preprocessor,
    Layout,
    /// Activity diagrams (PlantUML's new activity syntax).
    Activity,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::Participants,
        Category::Arrows,
        Category::Notes,
        Category::Groups,
        Category::Lifecycle,
        Category::Styling,
        Category::Preprocessor,
        Category::Layout,
        Category::Activity,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Participants => "participants",
            Category::Arrows => "arrows",
            Category::Notes => "notes",
            Category::Groups => "groups",
            Category::Lifecycle => "lifecycle",
            Category::Styling => "styling",
            Category::Preprocessor => "preprocessor",
            Category::Layout => "layout",
            Category::Activity => "activity",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Category::Participants => "Participants",
            Category::Arrows => "Arrows and messages",
            Category::Notes => "Notes and references",
            Category::Groups => "Groups",
            Category::Lifecycle => "Lifecycle and activation",
            Category::Styling => "Styling",
            Category::Preprocessor => "Preprocessor",
            Category::Layout => "Layout and page decorations",
            Category::Activity => "Activity diagrams",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Primitive {
    pub category: Category,
    pub name: &'static str,
    /// The syntax in a compact notation: `[x]` optional, `A|B` a choice.
    pub syntax: &'static str,
    pub meaning: &'static str,
    /// The body of a diagram (without `@startuml`/`@enduml`) showing it.
    pub example: &'static str,
}

const fn p(
    category: Category,
    name: &'static str,
    syntax: &'static str,
    meaning: &'static str,
    example: &'static str,
) -> Primitive {
    Primitive {
        category,
        name,
        syntax,
        meaning,
        example,
    }
}

use Category::*;

static CATALOG: &[Primitive] = &[
    // ---- participants
    p(Participants, "participant", "participant NAME", "Declares a participant drawn as a box; declaration order is display order.", "participant Alice\nparticipant Bob\nAlice -> Bob : hi"),
    p(Participants, "actor", "actor NAME", "A participant drawn as a stick figure.", "actor User\nUser -> User : think"),
    p(Participants, "boundary", "boundary NAME", "A participant drawn as a boundary symbol.", "boundary Web\nactor User\nUser -> Web : open"),
    p(Participants, "control", "control NAME", "A participant drawn as a control symbol.", "control Controller\nController -> Controller : tick"),
    p(Participants, "entity", "entity NAME", "A participant drawn as an entity symbol.", "entity Order\nOrder -> Order : save"),
    p(Participants, "database", "database NAME", "A participant drawn as a database cylinder.", "participant API\ndatabase DB\nAPI -> DB : SELECT"),
    p(Participants, "collections", "collections NAME", "A participant drawn as a stack of boxes.", "collections Workers\nWorkers -> Workers : run"),
    p(Participants, "queue", "queue NAME", "A participant drawn as a queue.", "queue Jobs\nparticipant API\nAPI -> Jobs : enqueue"),
    p(Participants, "alias", "KIND \"Display name\" as CODE", "A long display name with a short code that messages use.", "participant \"Payment Service\" as Pay\nPay -> Pay : charge"),
    p(Participants, "stereotype", "KIND NAME <<stereotype>>", "Adds a stereotype label under the name.", "participant API <<REST>>\nAPI -> API : serve"),
    p(Participants, "color", "KIND NAME #color", "Background color of the participant head.", "participant API #LightBlue\nAPI -> API : serve"),
    p(Participants, "order", "KIND NAME order N", "Display position, lowest first, instead of declaration order.", "participant Second order 20\nparticipant First order 10\nFirst -> Second : go"),
    p(Participants, "multiline name", "KIND NAME [\\n=Title\\n----\\nlines\\n]", "A head with several lines of text.", "participant Svc [\n  =Service\n  ----\n  v2\n]\nSvc -> Svc : run"),
    p(Participants, "box", "box [\"Title\"] [#color] … end box", "Draws a box around the participants declared inside.", "box \"Backend\" #LightGray\n  participant API\n  database DB\nend box\nAPI -> DB : query"),
    // ---- arrows
    p(Arrows, "sync message", "A -> B : label", "A synchronous call drawn with a solid line and a filled head.", "Alice -> Bob : request"),
    p(Arrows, "reply", "A --> B : label", "A dotted line, usually a reply.", "Alice -> Bob : request\nBob --> Alice : response"),
    p(Arrows, "async message", "A ->> B : label", "An open (thin) head, usually an asynchronous message.", "Alice ->> Bob : event"),
    p(Arrows, "reversed", "B <- A : label", "The same message written right to left.", "Bob <- Alice : request"),
    p(Arrows, "bidirectional", "A <-> B : label", "Heads at both ends.", "Alice <-> Bob : sync"),
    p(Arrows, "lost", "A ->x B : label", "A message that ends in a cross (lost or rejected).", "Alice ->x Bob : dropped"),
    p(Arrows, "circle end", "A ->o B : label", "A small circle at the head end (`o->` at the tail).", "Alice ->o Bob : ping"),
    p(Arrows, "half head", "A -\\ B, A -/ B, A -\\\\ B, A -// B", "Only the upper or lower half of the head.", "Alice -\\ Bob : upper\nAlice -/ Bob : lower"),
    p(Arrows, "styled arrow", "A -[#color,bold|dashed|dotted|hidden]> B", "Color and line style inside the arrow.", "Alice -[#red]> Bob : alert\nAlice -[#blue,dashed]> Bob : hint"),
    p(Arrows, "self message", "A -> A : label", "A message from a participant to itself.", "Alice -> Alice : think"),
    p(Arrows, "found message", "[-> A : label", "A message from outside the diagram (left edge); `[<-` for the reverse.", "[-> Alice : request\nAlice ->] : forward"),
    p(Arrows, "short found/lost", "?-> A, A ->?", "Edge messages drawn short, next to the participant.", "?-> Alice : in\nAlice ->? : out"),
    p(Arrows, "multiline label", "A -> B : line1\\nline2", "`\\n` breaks a label into lines.", "Alice -> Bob : first line\\nsecond line"),
    p(Arrows, "return", "return label", "A reply to the caller of the innermost activation.", "Alice -> Bob ++ : request\nreturn response"),
    p(Arrows, "slanted arrow", "A ->(N) B", "A message that slants down by N pixels (teoz).", "!pragma teoz true\nAlice ->(10) Bob : slow"),
    p(Arrows, "parallel message", "& A -> B", "Drawn on the same row as the previous message (teoz).", "!pragma teoz true\nAlice -> Bob : one\n& Alice -> Carol : two"),
    p(Arrows, "autonumber", "autonumber [start] [step] [\"format\"]", "Numbers the messages that follow.", "autonumber\nAlice -> Bob : one\nBob --> Alice : two"),
    p(Arrows, "autonumber control", "autonumber stop | resume | inc A", "Pauses, resumes or bumps the numbering.", "autonumber 10 10\nAlice -> Bob : numbered\nautonumber stop\nAlice -> Bob : plain\nautonumber resume\nAlice -> Bob : numbered again"),
    // ---- notes
    p(Notes, "note left/right", "note left|right of A : text", "A note beside a participant.", "participant Alice\nnote left of Alice : a note\nnote right of Alice : another"),
    p(Notes, "note over", "note over A[, B] : text", "A note over one participant or spanning several.", "Alice -> Bob : hi\nnote over Alice, Bob : shared context"),
    p(Notes, "note on message", "note left|right : text", "A note attached to the previous message.", "Alice -> Bob : hi\nnote right : about the message"),
    p(Notes, "note across", "note across : text", "A note across every participant.", "Alice -> Bob : hi\nnote across : everyone"),
    p(Notes, "block note", "note over A … end note", "A note over several lines.", "participant Alice\nnote over Alice\n  line one\n  line two\nend note"),
    p(Notes, "note shapes", "hnote | rnote over A : text", "Hexagonal or rectangular notes.", "participant Alice\nhnote over Alice : idle\nrnote over Alice : state"),
    p(Notes, "note color", "note over A #color : text", "Note background color.", "participant Alice\nnote over Alice #Pink : careful"),
    p(Notes, "aligned note", "/ note over B : text", "Drawn on the same row as the previous note.", "participant Alice\nparticipant Bob\nnote over Alice : one\n/ note over Bob : two"),
    p(Notes, "ref", "ref over A[, B] : text", "A reference frame to another interaction.", "participant Alice\nparticipant Bob\nref over Alice, Bob : login flow"),
    p(Notes, "block ref", "ref over A … end ref", "A reference frame over several lines.", "participant Alice\nref over Alice\n  see the login\n  diagram\nend ref"),
    // ---- groups
    p(Groups, "alt/else", "alt cond … else cond … end", "Alternative branches.", "alt success\n  Alice -> Bob : ok\nelse failure\n  Alice -> Bob : retry\nend"),
    p(Groups, "opt", "opt cond … end", "An optional fragment.", "opt cache miss\n  Alice -> Bob : fetch\nend"),
    p(Groups, "loop", "loop cond … end", "A repeated fragment.", "loop 3 times\n  Alice -> Bob : poll\nend"),
    p(Groups, "par", "par … else … end", "Fragments that run in parallel.", "par\n  Alice -> Bob : one\nelse\n  Alice -> Carol : two\nend"),
    p(Groups, "par2", "par2 … else … end", "Like `par`, with the tab reading `par2`.", "par2\n  Alice -> Bob : one\nelse\n  Alice -> Carol : two\nend"),
    p(Groups, "break", "break cond … end", "Leaves the enclosing fragment.", "break on error\n  Alice -> Bob : abort\nend"),
    p(Groups, "critical", "critical cond … end", "A critical region.", "critical lock held\n  Alice -> Bob : write\nend"),
    p(Groups, "group", "group Label [secondary] … end", "A fragment with a custom label.", "group Retry [up to 3]\n  Alice -> Bob : again\nend"),
    p(Groups, "group colors", "alt#FrameColor #background cond", "Frame and background colors of a fragment.", "alt#Gold #LightBlue success\n  Alice -> Bob : ok\nend"),
    // ---- lifecycle
    p(Lifecycle, "activate", "activate A [#color]", "Starts an activation bar on A.", "Alice -> Bob : call\nactivate Bob\nBob --> Alice : done\ndeactivate Bob"),
    p(Lifecycle, "deactivate", "deactivate A", "Ends the innermost activation of A.", "activate Alice\nAlice -> Alice : work\ndeactivate Alice"),
    p(Lifecycle, "activation shorthand", "A -> B ++ | -- | ** | !!", "`++` activates the target, `--` deactivates the source, `**` creates the target, `!!` destroys it.", "Alice -> Bob ++ : call\nBob --> Alice -- : done"),
    p(Lifecycle, "create", "create [KIND] NAME", "The participant's head is drawn at its first message.", "Alice -> Alice : start\ncreate Bob\nAlice -> Bob : new"),
    p(Lifecycle, "destroy", "destroy A", "Ends A's lifeline with a cross.", "Alice -> Bob : close\ndestroy Bob"),
    p(Lifecycle, "autoactivate", "autoactivate on|off", "Activates targets of messages and deactivates on replies automatically.", "autoactivate on\nAlice -> Bob : call\nBob --> Alice : done"),
    // ---- styling
    p(Styling, "skinparam", "skinparam KEY VALUE", "Sets one rendering parameter.", "skinparam sequenceMessageAlign center\nAlice -> Bob : hi"),
    p(Styling, "skinparam block", "skinparam PREFIX { KEY VALUE … }", "Sets several parameters with a common prefix.", "skinparam participant {\n  BackgroundColor LightBlue\n  BorderColor Navy\n}\nAlice -> Bob : hi"),
    p(Styling, "monochrome", "skinparam monochrome true", "Draws everything in black and white.", "skinparam monochrome true\nAlice -> Bob : hi"),
    p(Styling, "theme", "!theme NAME", "Applies a built-in theme.", "!theme plain\nAlice -> Bob : hi"),
    p(Styling, "style sheet", "<style> … </style>", "A CSS-like style sheet.", "<style>\nsequenceDiagram {\n  LineColor Navy\n}\n</style>\nAlice -> Bob : hi"),
    p(Styling, "hide footbox", "hide footbox", "Does not repeat participant heads at the bottom.", "hide footbox\nAlice -> Bob : hi"),
    p(Styling, "show footbox", "show footbox", "Repeats participant heads at the bottom (the default).", "show footbox\nAlice -> Bob : hi"),
    p(Styling, "hide unlinked", "hide unlinked", "Hides participants that take part in no message.", "hide unlinked\nparticipant Unused\nAlice -> Bob : hi"),
    p(Styling, "creole", "**bold** //italic// \"\"mono\"\" --strike-- __under__", "Inline text markup in labels and notes.", "Alice -> Bob : **bold** and //italic//"),
    // ---- preprocessor
    p(Preprocessor, "include", "!include FILE", "Inserts another file (paths are confined to the include root).", "!include common.iuml\nShared -> Shared : hi"),
    p(Preprocessor, "define", "!define NAME VALUE", "A text macro replaced wherever NAME appears.", "!define SERVER Backend\nAlice -> SERVER : hi"),
    p(Preprocessor, "variable", "!$name = value", "A preprocessor variable, used as `$name`.", "!$target = \"Bob\"\nAlice -> $target : hi"),
    p(Preprocessor, "conditional", "!if COND … !else … !endif", "Keeps one branch of text.", "!$debug = 1\n!if $debug == 1\nAlice -> Bob : debug\n!else\nAlice -> Bob : quiet\n!endif"),
    p(Preprocessor, "ifdef", "!ifdef NAME … !endif", "Keeps text when a macro is defined.", "!define VERBOSE\n!ifdef VERBOSE\nAlice -> Bob : details\n!endif"),
    p(Preprocessor, "procedure", "!procedure $name($arg) … !endprocedure", "A reusable block of statements.", "!procedure $call($from, $to)\n$from -> $to : call\n!endprocedure\n$call(Alice, Bob)"),
    p(Preprocessor, "pragma", "!pragma KEY [VALUE]", "Engine switches, e.g. `teoz true` for the newer layout.", "!pragma teoz true\nAlice -> Bob : hi"),
    // ---- layout
    p(Layout, "title", "title text | title … end title", "The diagram title.", "title Checkout\nAlice -> Bob : pay"),
    p(Layout, "header/footer", "[left|center|right] header|footer text", "Page header and footer.", "header draft\nfooter page %page%\nAlice -> Bob : hi"),
    p(Layout, "caption", "caption text", "A caption under the diagram.", "caption Figure 1\nAlice -> Bob : hi"),
    p(Layout, "legend", "legend [top|bottom] [left|center|right] … endlegend", "A legend box.", "Alice -> Bob : hi\nlegend right\n  Alice: the client\nendlegend"),
    p(Layout, "mainframe", "mainframe text", "A frame around the whole diagram.", "mainframe sd Checkout\nAlice -> Bob : hi"),
    p(Layout, "scale", "scale FACTOR | scale W width | scale H height", "Scales the rendered image.", "scale 1.5\nAlice -> Bob : hi"),
    p(Layout, "divider", "== text ==", "A horizontal divider between phases.", "Alice -> Bob : login\n== Browsing ==\nAlice -> Bob : list"),
    p(Layout, "delay", "... | ... text ...", "Marks time passing.", "Alice -> Bob : send\n... 5 minutes later ...\nBob --> Alice : reply"),
    p(Layout, "space", "||| | ||N||", "Extra vertical space (N pixels).", "Alice -> Bob : one\n|||\nAlice -> Bob : two\n||45||\nAlice -> Bob : three"),
    p(Layout, "newpage", "newpage [title]", "Starts a new page.", "Alice -> Bob : one\nnewpage Part 2\nAlice -> Bob : two"),
    // ---- activity diagrams (a block whose first line only one language
    // reads is an activity line is an activity diagram)
    p(Activity, "start and stop", "start | stop | end | kill | detach", "Where the flow begins and ends (`end` and `kill` end it with a cross, `detach` lets it run off).", "start\n:Work;\nstop"),
    p(Activity, "action", ":text;", "A step, drawn as a rounded box; the text may span lines and use creole. It ends only at `;`.", "start\n:Receive the order\nand check it;\nstop"),
    p(Activity, "action color", ":text; <<#color>>", "A coloured action (the older `#color:text;` is deprecated and reads differently).", "start\n:Ship; <<#LightGreen>>\nstop"),
    p(Activity, "action stereotype", ":text; <<stereotype>>", "A stereotype on an action (agent workflows use `<<prompt>>`, `<<router>>`…).", "start\n:Summarize; <<prompt>>\nstop"),
    p(Activity, "if", "if (cond) then [(label)] … [elseif (cond) then [(label)]] … [else [(label)]] … endif", "A decision: a diamond, one branch per `then`/`elseif`/`else`.", "start\nif (in stock?) then (yes)\n  :Ship;\nelseif (backorder?) then (yes)\n  :Wait;\nelse (no)\n  :Cancel;\nendif\nstop"),
    p(Activity, "if is/equals", "if (a) is (b) then | if (a) equals (b) then", "A decision written as a comparison.", "start\nif (color) equals (red) then\n  :Stop;\nendif\nstop"),
    p(Activity, "switch", "switch (cond) case (label) … endswitch", "A multi-way decision; a `case` comes before any step.", "start\nswitch (kind?)\ncase (A)\n  :Handle A;\ncase (B)\n  :Handle B;\nendswitch\nstop"),
    p(Activity, "while", "while (cond) [is (label)] … endwhile [(label)]", "A loop tested before each pass.", "start\nwhile (more items?) is (yes)\n  :Process item;\nendwhile (no)\nstop"),
    p(Activity, "repeat", "repeat [:label;] … [backward :text;] repeat while (cond) [is (l)] [not (l)]", "A loop tested after each pass, with an optional action on the way back.", "start\nrepeat\n  :Try;\nbackward:Wait;\nrepeat while (failed?) is (yes) not (no)\nstop"),
    p(Activity, "break", "break", "Leaves the enclosing loop.", "start\nwhile (more?)\n  if (broken?) then (yes)\n    break\n  endif\n  :Next;\nendwhile\nstop"),
    p(Activity, "fork", "fork … fork again … end fork | end merge", "Parallel branches, joined by a bar (`end merge`: merged without waiting).", "start\nfork\n  :Email;\nfork again\n  :SMS;\nend fork\nstop"),
    p(Activity, "split", "split … split again … end split", "Branches that start separately, without a fork bar.", "start\nsplit\n  :Web;\nsplit again\n  :Mobile;\nend split\nstop"),
    p(Activity, "swimlane", "|Name| | |#color|Name| | |#color|alias| Name", "The following steps are drawn in this lane; declare the first lane before the first step.", "|Customer|\nstart\n:Order;\n|#AntiqueWhite|Shop|\n:Pack;\nstop"),
    p(Activity, "partition", "partition|group|package|rectangle|card Name [#color] { … }", "A titled frame around steps.", "start\npartition Billing {\n  :Invoice;\n}\nstop"),
    p(Activity, "activity arrow", "-> [label;] | -[#color,dashed|dotted|bold|hidden]-> [label;]", "Styles (and labels) the arrow to the next step.", "start\n:Pay;\n-[#green,dashed]-> paid;\n:Ship;\nstop"),
    p(Activity, "activity note", "[floating] note left|right: text | note left|right … end note", "A note beside the previous step (or floating).", "start\n:Ship;\nnote right: by courier\nfloating note left: optional\nstop"),
    p(Activity, "connector", "(A)", "A named circle; two connectors with one name link parts of the flow.", "start\n:Part one;\n(A)\ndetach\n(A)\n:Part two;\nstop"),
];

/// Every supported primitive, in catalog order (by category).
pub fn catalog() -> &'static [Primitive] {
    CATALOG
}

/// Wraps an example body in a full diagram.
pub fn example_document(primitive: &Primitive) -> String {
    format!("@startuml\n{}\n@enduml\n", primitive.example)
}

/// The catalog as Markdown (the content of `docs/syntax.md`).
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# puml syntax reference\n\n");
    out.push_str("<!-- Generated from crates/puml-ide/src/primitives.rs by `puml primitives --format markdown`. Do not edit. -->\n\n");
    out.push_str("Every primitive of PlantUML sequence diagrams and activity diagrams (the new syntax) that puml supports, by category. ");
    out.push_str("In the syntax lines `[x]` is optional and `a|b` is a choice. ");
    out.push_str("Every example is checked by the test suite to be a valid diagram when put between `@startuml` and `@enduml`.\n\n");
    for category in Category::ALL {
        out.push_str(&format!("- [{}](#{})\n", category.title(), anchor(category.title())));
    }
    for category in Category::ALL {
        out.push_str(&format!("\n## {}\n", category.title()));
        for primitive in CATALOG.iter().filter(|p| p.category == category) {
            out.push_str(&format!(
                "\n### {}\n\n`{}`\n\n{}\n\n```plantuml\n{}\n```\n",
                primitive.name,
                primitive.syntax.replace('`', "'"),
                primitive.meaning,
                primitive.example
            ));
        }
    }
    out
}

fn anchor(title: &str) -> String {
    title
        .to_ascii_lowercase()
        .chars()
        .filter_map(|c| match c {
            'a'..='z' | '0'..='9' | '-' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_has_entries_and_names_are_unique() {
        for category in Category::ALL {
            assert!(CATALOG.iter().any(|p| p.category == category), "{category:?} is empty");
        }
        let mut names: Vec<(Category, &str)> = CATALOG.iter().map(|p| (p.category, p.name)).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "duplicate primitive names");
    }
}
