//! The description, state and legacy activity halves of `cargo xtask
//! grammar-probe` (`--description`, `--state`, `--legacy`): each kind's
//! forms enumerated (declarations with every keyword and display, aliases,
//! stereotypes, colours; short forms; arrows with heads, styles,
//! directions, sockets; notes; containers and composite states; the legacy
//! syntax's `(*)`, bars, branches), each valid form beside its near-misses,
//! stored with PlantUML's verdicts (`VALID:<TYPE>` as PlantUML names the
//! type it drew, `INVALID:<line>`) in `test-data/grammar/{description,
//! state,legacy}/cases.tsv` and read by `puml-ide/tests/grammar.rs`. puml
//! recognises these kinds without drawing them: a case agrees when puml
//! names the kind PlantUML drew, or errs on PlantUML's line.

use crate::grammar_probe::{diagram, Case};

/// The description types' element keywords: the grammar's own table,
/// and `port` (read inside containers only).
fn keywords() -> impl Iterator<Item = &'static str> {
    puml_syntax::description_grammar::KEYWORDS
        .iter()
        .copied()
        .chain(["port"])
}

/// A line only the description types read, so that PlantUML decides the
/// block is one (alone, `actor A` is a sequence diagram's).
const DESCRIPTION_LINE: &str = "(Use) --> [Comp]";

pub fn description_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for keyword in keywords() {
        for form in [
            format!("{keyword} A"),
            format!("{keyword} \"Long name\" as A"),
            format!("{keyword} A as \"Long name\""),
            format!("{keyword} \"Long name\""),
            format!("{keyword} A <<s>>"),
            format!("{keyword} A #pink"),
            format!("{keyword} A <<s>> #pink"),
            format!("{keyword} A #pink <<s>>"),
            format!("{keyword} A as B"),
            format!("{keyword} A::b"),
            format!("{keyword} A-b"),
            format!("{keyword} [A]"),
            format!("{keyword} (A)"),
            format!("{keyword} :A:"),
            format!("{keyword} A B"),
            format!("{keyword} A as"),
            format!("{keyword} \"Ünïcode 名前\" as U1"),
        ] {
            out.push(diagram("decl", &[&form, DESCRIPTION_LINE]));
        }
        out.push(diagram(
            "container",
            &[&format!("{keyword} P {{"), "[X]", "}", DESCRIPTION_LINE],
        ));
        out.push(diagram(
            "container",
            &[
                &format!("{keyword} \"Long P\" as P #pink {{"),
                "[X]",
                "}",
                DESCRIPTION_LINE,
            ],
        ));
        out.push(diagram(
            "multiline",
            &[&format!("{keyword} A ["), "text", "more", "]", DESCRIPTION_LINE],
        ));
        out.push(diagram(
            "multiline",
            &[&format!("{keyword} A as \"text"), "more\"", DESCRIPTION_LINE],
        ));
    }
    for form in [
        "[A]",
        "[A] as a",
        "[A] as [a]",
        "[Long name] <<s>>",
        "[A] #red",
        "[A] as a #red",
        "[A B] as ab",
        "[]",
        "[A",
        "(A)",
        "(A) as (a)",
        "(A) as a",
        "(Long\\nname) as a #lightblue",
        "(A) as",
        "()",
        ":A:",
        ":A: as a",
        ":Long name: as a",
        "() I",
        "() \"I\" as i",
        "()I",
        "\"Text\" as (u)",
        "\"Text\" as [c]",
        "\"Text\" as c",
        "\"Text\"",
        "[\"quoted\"]",
        "A",
        "A B",
    ] {
        out.push(diagram("short", &[form, DESCRIPTION_LINE]));
    }
    let arrows = [
        "--",
        "-->",
        "->",
        "..",
        "..>",
        ".>",
        "==",
        "==>",
        "~~",
        "~~>",
        "-",
        ".",
        "<--",
        "<..",
        "<-->",
        "<|--",
        "--|>",
        "..|>",
        "<|..",
        "*--",
        "--*",
        "o--",
        "--o",
        "#--",
        "--#",
        "x--",
        "--x",
        "+--",
        "--+",
        "^--",
        "--^",
        "}--",
        "--{",
        "0--",
        "--0",
        ")--",
        "--(",
        "-(0)-",
        "-0-",
        "-(0-",
        "-0)-",
        "--(0",
        "0)--",
        "-[#red]->",
        "-[#red,dashed]->",
        "-[hidden]->",
        "-[dotted]->",
        "-[bold]-",
        "-[ #red ]->",
        "-[]->",
        "-up->",
        "-u->",
        "-down->",
        "-do->",
        "-left->",
        "-l->",
        "-right->",
        "-r->",
        "-up[#red]->",
        "-[#red]up->",
        "-UP->",
        "-foo->",
        ".up.>",
        "--|",
        "|--",
        "-\\\\",
        "-//",
        "--->",
        "---->",
        "->>",
        "-->>",
        "<<--",
        "-->x",
        "<->",
        "<-",
        "-)",
        "(-",
        "-->o",
        "o-->",
    ];
    for arrow in arrows {
        out.push(diagram("arrow", &[&format!("[A] {arrow} [B]")]));
        out.push(diagram("arrow", &[&format!("(A) {arrow} B : m"), "actor B"]));
    }
    for link in [
        "A --> B",
        "A --> B : m",
        "A --> B :",
        "A --> B : ",
        "A \"1\" --> \"n\" B",
        "A \"1\" --> \"n\" B : m",
        "A --> B #red",
        "A --> B#red",
        "A --> B <<s>>",
        "A --> B : m : n",
        "A-->B",
        "A -->",
        "--> B",
        "A --> B C",
        "A --> [B] : m",
        "[A] --> (B)",
        ":A: --> (B)",
        "A --> :B:",
        "\"A\" --> \"B\"",
        "A::b --> B",
        "A.b --> B",
        "A-b --> B",
        "A --> B-c",
        "() I --> B",
        "A --> () I",
        "A --> B --> C",
        "A --> B ; C",
        "A --> B' comment",
        "A --> B ' comment",
        "[A] -> [B] : m",
        "[A] -> [B]",
        "A -> B : m",
    ] {
        out.push(diagram("link", &[link, DESCRIPTION_LINE]));
    }
    for lines in [
        &["actor A", "note left of A : x", DESCRIPTION_LINE][..],
        &["actor A", "note right of A", "x", "end note", DESCRIPTION_LINE],
        &["actor A", "note top of Z : x", DESCRIPTION_LINE],
        &["actor A", "note top of Z", "x", "end note", DESCRIPTION_LINE],
        &["[A]", "note left of [A] : x", DESCRIPTION_LINE],
        &["[A]", "note left of [A]", "x", "end note", DESCRIPTION_LINE],
        &["(U) as u", "note right of (U) : x", DESCRIPTION_LINE],
        &["(U) as u", "note right of u : x", DESCRIPTION_LINE],
        &["note left : x", DESCRIPTION_LINE],
        &[DESCRIPTION_LINE, "note left : x"],
        &[DESCRIPTION_LINE, "note left", "x", "end note"],
        &[DESCRIPTION_LINE, "note on link : x"],
        &[DESCRIPTION_LINE, "note on link", "x", "end note"],
        &["note \"x\" as N", DESCRIPTION_LINE, "N .. [Comp]"],
        &["note as N", "x", "end note", DESCRIPTION_LINE, "N .. [Comp]"],
        &["note \"x\" as N #pink", DESCRIPTION_LINE],
        &["actor A", "note left of A #pink : x", DESCRIPTION_LINE],
        &["actor A", "note left of A", "x", DESCRIPTION_LINE],
        &["actor A", "note over A : x", DESCRIPTION_LINE],
        &["actor A", "note left of A x", DESCRIPTION_LINE],
    ] {
        out.push(diagram("note", lines));
    }
    for lines in [
        &["package P {", "[A]", "}", DESCRIPTION_LINE][..],
        &["package P {", "package Q {", "[A]", "}", "}", DESCRIPTION_LINE],
        &["package P {", "[A]", DESCRIPTION_LINE],
        &["[A]", "}", DESCRIPTION_LINE],
        &["package P {", "}", DESCRIPTION_LINE],
        &["package P{", "[A]", "}", DESCRIPTION_LINE],
        &["package a::b {", "[A]", "}", DESCRIPTION_LINE],
        &["rectangle Use-A-Portal {", "[A]", "}", DESCRIPTION_LINE],
        &["node \"N\" <<device>> as n {", "[A]", "}", DESCRIPTION_LINE],
        &["node \"N\" as n <<device>> #pink {", "[A]", "}", DESCRIPTION_LINE],
        &["together {", "[A]", "[B]", "}", DESCRIPTION_LINE],
        &["rectangle {", "[A]", "}", DESCRIPTION_LINE],
        &["package P {", "[A]", "} ' end", DESCRIPTION_LINE],
        &["package P", "[A]", "end package", DESCRIPTION_LINE],
        &["frame F {", "node N {", "[A] --> [B]", "}", "}"],
    ] {
        out.push(diagram("container", lines));
    }
    for setting in [
        "left to right direction",
        "top to bottom direction",
        "left to right",
        "skinparam actorStyle awesome",
        "skinparam packageStyle rectangle",
        "skinparam componentStyle uml2",
        "skinparam usecase {",
        "title T",
        "caption C",
        "hide stereotype",
        "hide <<s>> stereotype",
        "allowmixing",
        "scale 2",
        "newpage",
        "set separator ::",
        "sprite $s [8x8/4] AAAAAAAAAAA",
        "mainframe M",
        "header H",
        "footer F",
        "autonumber",
        "activate A",
        "== sep ==",
        "|||",
        "...",
    ] {
        if setting.ends_with('{') {
            out.push(diagram(
                "setting",
                &[setting, "BackgroundColor pink", "}", DESCRIPTION_LINE],
            ));
        } else {
            out.push(diagram("setting", &[setting, DESCRIPTION_LINE]));
            out.push(diagram("setting", &[DESCRIPTION_LINE, setting]));
        }
    }
    out.push(diagram(
        "setting",
        &[
            "<style>",
            "componentDiagram {",
            "  BackgroundColor pink",
            "}",
            "</style>",
            DESCRIPTION_LINE,
        ],
    ));
    out.push(diagram("setting", &["legend", "text", "endlegend", DESCRIPTION_LINE]));
    out.push(diagram("setting", &["title", "multi", "end title", DESCRIPTION_LINE]));
    // Sequence diagrams with one description line: which reading wins.
    for lines in [
        &["A -> B : m", "[C] --> [D]"][..],
        &["[C] --> [D]", "A -> B : m"],
        &["[C] --> [D]", "A -> B : m", "activate A"],
        &["participant P", "[C] --> [D]"],
        &["actor A", "A -> (U)"],
        &["actor A", "A -> B : m", "B --> (U)", "alt x", "end"],
        &["(U) --> [C]", "foo bar"],
        &["usecase U", "component C", "U --> C"],
        &["actor A", "usecase U", "A --> U", "A -> U : m"],
    ] {
        out.push(diagram("mixed", lines));
    }
    // `allowmixing` makes the class reading take description elements
    // declared with their keywords, never by their short forms.
    for lines in [
        &["allowmixing", "(Use) --> [Comp]"][..],
        &["allowmixing", "(Use)"],
        &["allowmixing", "[Comp]"],
        &["allowmixing", "[A] --> [B]"],
        &["allowmixing", ":Actor: --> (U)"],
        &["allowmixing", "class A", "A --> (U)"],
        &["allowmixing", "class A", "[C] --> A"],
        &["allowmixing", "actor X"],
        &["allowmixing", "class A", "usecase U", "A --> U"],
        &["allowmixing", "usecase U", "component C", "U --> C"],
    ] {
        out.push(diagram("allowmixing", lines));
    }
    out
}

/// A line only the state reading takes, so that PlantUML decides the
/// block is a state diagram.
const STATE_LINE: &str = "[*] --> S1";

pub fn state_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for decl in [
        "state A",
        "state \"Long name\" as A",
        "state A as \"Long name\"",
        "state \"Long name\"",
        "state A : text",
        "state A: text",
        "state \"Long\" as A : text",
        "state A <<choice>>",
        "state A <<fork>>",
        "state A <<join>>",
        "state A <<end>>",
        "state A <<entryPoint>>",
        "state A <<exitPoint>>",
        "state A <<inputPin>>",
        "state A <<expansionInput>>",
        "state A <<history>>",
        "state A <<history*>>",
        "state A <<sdlreceive>>",
        "state A <<s>>",
        "state A #pink",
        "state A #pink;line:red;line.dashed",
        "state A ##[dashed]blue",
        "state A <<s>> #pink",
        "state A #pink <<s>>",
        "state A::b",
        "state A.b",
        "state A-b",
        "state A B",
        "state",
        "state A as",
        "state \"Ünïcode 名前\" as U1",
        "STATE A",
        "A : text",
        "A : ",
        "A:text",
        "A",
        "A B",
    ] {
        out.push(diagram("state-decl", &[decl, STATE_LINE]));
    }
    for arrow in [
        "->",
        "-->",
        "--->",
        "-",
        "--",
        "..>",
        ".>",
        "-up->",
        "-u->",
        "-down->",
        "-left->",
        "-right->",
        "-r->",
        "-[#red]->",
        "-[#red,dashed]->",
        "-[dotted]->",
        "-[hidden]->",
        "-[ #red ]->",
        "-up[#red]->",
        "-[#red]up->",
        "<-",
        "<--",
        "<-up-",
        "<->",
        "-->>",
        "--|>",
        "<|--",
        "-->o",
        "*-->",
        "==>",
        "~~>",
        "-->x",
    ] {
        out.push(diagram("state-arrow", &[&format!("S1 {arrow} S2"), STATE_LINE]));
        out.push(diagram("state-arrow", &[&format!("[*] {arrow} S1 : ev")]));
    }
    for transition in [
        "S1 --> S2 : ev",
        "S1 --> S2 : ev [guard] / action",
        "S1 --> S2 :",
        "S1 --> [*]",
        "[*] --> [*]",
        "[H] --> S1",
        "S1 --> [H]",
        "S1 --> [H*]",
        "S1 --> S2 --> S3",
        "S1 --> S2 S3",
        "S1 --> S2 #red",
        "\"S 1\" --> S2",
        "S1 --> \"S 2\"",
        "S1::a --> S2",
        "S1.a --> S2",
        "S1 -->",
        "--> S2",
        "S1 -> S2 : m",
        "S1 ->",
    ] {
        out.push(diagram("state-transition", &[STATE_LINE, transition]));
    }
    for lines in [
        &["state A {", "[*] --> B", "B --> [*]", "}", STATE_LINE][..],
        &["state A {", "state B {", "[*] --> C", "}", "}", STATE_LINE],
        &["state A {", "[*] --> B", "--", "[*] --> C", "}", STATE_LINE],
        &["state A {", "[*] --> B", "||", "[*] --> C", "}", STATE_LINE],
        &["state A {", "[*] --> B", STATE_LINE],
        &["state A {", "}", STATE_LINE],
        &["state \"Long A\" as A {", "[*] --> B", "}", STATE_LINE],
        &["state A #pink {", "[*] --> B", "}", STATE_LINE],
        &["state A <<s>> {", "[*] --> B", "}", STATE_LINE],
        &["state A{", "[*] --> B", "}", STATE_LINE],
        &["[*] --> B", "}", STATE_LINE],
        &["state A {", "state B", "B : text", "}", STATE_LINE],
        &["state A {", "note left of B : x", "}", STATE_LINE],
        &["--", STATE_LINE],
        &[STATE_LINE, "||"],
    ] {
        out.push(diagram("state-composite", lines));
    }
    for lines in [
        &["state A", "note left of A : x", STATE_LINE][..],
        &["state A", "note right of A", "x", "end note", STATE_LINE],
        &["state A", "note top of Z : x", STATE_LINE],
        &["note left of S1 : x", STATE_LINE],
        &[STATE_LINE, "note left of S1 : x"],
        &[STATE_LINE, "note left : x"],
        &["note \"x\" as N", STATE_LINE, "N --> S1"],
        &["note as N", "x", "end note", STATE_LINE],
        &[STATE_LINE, "note on link : x"],
        &[STATE_LINE, "note on link", "x", "end note"],
        &["state A", "note left of A #pink : x", STATE_LINE],
        &["state A", "note over A : x", STATE_LINE],
    ] {
        out.push(diagram("state-note", lines));
    }
    for setting in [
        "hide empty description",
        "skinparam state {",
        "title T",
        "left to right direction",
        "scale 2",
        "skinparam StateBackgroundColor pink",
        "newpage",
        "allowmixing",
        "autonumber",
        "activate S1",
        "== sep ==",
    ] {
        if setting.ends_with('{') {
            out.push(diagram(
                "state-setting",
                &[setting, "BackgroundColor pink", "}", STATE_LINE],
            ));
        } else {
            out.push(diagram("state-setting", &[setting, STATE_LINE]));
            out.push(diagram("state-setting", &[STATE_LINE, setting]));
        }
    }
    for lines in [
        &["A -> B : m", STATE_LINE][..],
        &[STATE_LINE, "A -> B : m"],
        &[STATE_LINE, "A -> B : m", "activate A"],
        &["state A", "A -> B"],
        &["state A", "[*] --> A", "A --> (U)"],
        &["state A", "[*] --> A", "A --> [C]"],
        &["[*] --> A", "A --> B", "B --> [*]"],
        &[STATE_LINE, "foo bar"],
    ] {
        out.push(diagram("state-mixed", lines));
    }
    out
}

pub fn legacy_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for lines in [
        &["(*) --> \"First\"", "\"First\" --> (*)"][..],
        &["(*) --> First", "First --> (*)"],
        &["(*) -> \"First\"", "\"First\" -> (*)"],
        &["(*) --> \"First\"", "--> \"Second\"", "--> (*)"],
        &["(*) --> \"First\"", "-->[ok] \"Second\"", "-->[done] (*)"],
        &["(*) --> \"First\"", "-> \"Second\"", "-> (*)"],
        &["(*) -up-> \"First\"", "-down-> (*)"],
        &["(*) -right-> \"First\"", "-left-> (*)"],
        &["(*) -[#red]-> \"First\"", "--> (*)"],
        &["(*) ..> \"First\"", "..> (*)"],
        &["(*) --> \"First\" as F", "F --> (*)"],
        &["(*) --> \"Multi\\nline\"", "--> (*)"],
        &["(*) --> \"First\"", "\"First\" --> \"Second\"", "\"Second\" --> (*)"],
        &[
            "(*) --> ===B1===",
            "===B1=== --> \"A\"",
            "===B1=== --> \"B\"",
            "\"A\" --> ===B2===",
            "\"B\" --> ===B2===",
            "===B2=== --> (*)",
        ],
        &[
            "(*) --> \"First\"",
            "if \"ok?\" then",
            "-->[yes] \"A\"",
            "else",
            "-->[no] \"B\"",
            "endif",
            "--> (*)",
        ],
        &["(*) --> \"First\"", "if \"ok?\" then", "--> \"A\"", "endif", "--> (*)"],
        &[
            "(*) --> \"First\"",
            "if \"ok?\" then",
            "--> \"A\"",
            "else",
            "--> \"B\"",
            "--> (*)",
        ],
        &[
            "(*) --> \"First\"",
            "if \"ok?\" then",
            "--> \"A\"",
            "elseif \"b?\" then",
            "--> \"B\"",
            "endif",
            "--> (*)",
        ],
        &["(*) --> \"First\"", "if ok then", "--> \"A\"", "endif"],
        &["(*) --> \"First\"", "note right: x", "--> (*)"],
        &["(*) --> \"First\"", "note left", "x", "end note", "--> (*)"],
        &["(*) --> \"First\"", "note right of First : x"],
        &["partition P {", "(*) --> \"First\"", "}", "\"First\" --> (*)"],
        &["partition P {", "(*) --> \"First\"", "\"First\" --> (*)"],
        &["(*) --> \"First\"", "\"First\" --> \"First\""],
        &["(*) --> \"First\" : label"],
        &["(*) -->"],
        &["(*) --> \"First"],
        &["--> \"First\""],
        &["(*) --> \"First\"", "-->"],
        &["(*) --> \"First\"", "--> \"Second\" : x"],
        &["(*) --> \"First\"", "--> ()"],
        &["(*) --> \"First\"", "\"First\" --> (*)", "A -> B : m"],
        &["A -> B : m", "(*) --> \"First\""],
        &["(*) --> \"First\"", "start"],
        &["(*) --> \"First\"", ":a;"],
        &["(*) --> \"First\"", "\"First\" --> (*)", "foo bar"],
        &["(*) --> \"First\"", "title T", "skinparam x y", "--> (*)"],
        &["(*) --> \"First\"", "--> \"Second\"", "--> \"First\""],
        &["(*) --> First", "First -> Second", "Second -> (*)"],
        &["(*) --> First", "First --> Second Third"],
        &["(*) --> First", "First --> [Second]"],
        &["(*) --> First", "First --> (Second)"],
        &["(*) --> First", "First --> :Second:"],
        &["(*) --> \"A\"", "--> ===B1===", "--> \"B\"", "===B1=== --> \"C\""],
        &["(*) --> \"A\"", "-->[ ] \"B\""],
        &["(*) --> \"A\"", "-->[] \"B\""],
        &["(*) --> \"A\"", "-[#red]->[x] \"B\""],
        &["(*) --> \"A\"", "-->[x] \"B\" as b", "b --> (*)"],
        &["(*) --> \"A\" #pink", "--> (*)"],
        &["(*) --> \"A\" <<s>>", "--> (*)"],
        &["(*) --> \"A\"", "--> (*)", "(*) --> \"B\""],
        &[
            "(*) --> \"A\"",
            "if \"c\" then",
            "--> \"B\"",
            "else",
            "--> \"C\"",
            "endif",
            "\"B\" --> (*)",
        ],
        &["(*) --> \"A\"", "if \"c\" then", "endif"],
        &["(*) --> \"A\"", "if \"c\"", "--> \"B\"", "endif"],
        &["(*) --> \"A\"", "else", "--> \"B\""],
        &["(*) --> \"A\"", "endif"],
    ] {
        out.push(diagram("legacy", lines));
    }
    // Each line form alone, valid and near misses, after an activity, before
    // any, and inside a branch.
    for line in LEGACY_LINES {
        out.push(diagram("legacy-after", &["(*) --> \"First\"", line, "--> (*)"]));
        out.push(diagram("legacy-first", &[line, "(*) --> \"First\""]));
        out.push(diagram(
            "legacy-branch",
            &["(*) --> \"First\"", "if \"c\" then", line, "endif"],
        ));
    }
    out
}

/// The legacy activity line forms the generated cases place in contexts:
/// links (sources, arrows, labels, targets, decorations), notes, branches,
/// partitions and the shared lines, each with its near misses.
const LEGACY_LINES: &[&str] = &[
    "\"First\" --> \"Second\"",
    "First --> Second",
    "\"First\" as f --> \"Second\"",
    "\"First\" as f --> f2",
    "-->[label] \"X\"",
    "--> [label] \"X\"",
    "-->[ label ] \"X\"",
    "-->[] \"X\"",
    "-> \"X\"",
    "->\"X\"",
    "--->\"X\"",
    ".> \"X\"",
    "...> \"X\"",
    "-.-> \"X\"",
    "-u-> \"X\"",
    "-do-> \"X\"",
    "-le-> \"X\"",
    "-RIGHT-> \"X\"",
    "-up[#red]-> \"X\"",
    "-[#red,dashed]-> \"X\"",
    "-[dashed]-> \"X\"",
    "-[ #red ]-> \"X\"",
    "-[]-> \"X\"",
    "--> \"X\" #",
    "--> \"X\" <<s>> #pink",
    "--> \"X\" extra",
    "--> X : label",
    "--> X Y Z",
    "--> X#pink",
    "--> X #pink",
    "--> (*top)",
    "(*top) --> \"X\"",
    "--> (X)",
    "--> <X>",
    "--> |X|",
    "--> ==B9==",
    "--> ====",
    "--> ===B9",
    "==B9== --> \"X\"",
    "--> a.b",
    "a.b --> \"X\"",
    "a::b --> \"X\"",
    "a-b --> \"X\"",
    "$a --> \"X\"",
    "--> \"X\" as x #pink",
    "--> \"X\" as",
    "<-- \"X\"",
    "<--> \"X\"",
    "-->[yes] if \"c\" then",
    "--> if c then",
    "--> if \"c\"",
    "\"First\" --> if \"c\" then",
    "First ->+ Second",
    "First => Second",
    "First -- Second",
    "\"A\" --> \"B\" --> \"C\"",
    "note right: x",
    "note top: x",
    "note bottom : x",
    "note up: x",
    "note right #pink: x",
    "note right:x",
    "note \"x\" as N",
    "note on link: x",
    "if \"c\" then",
    "if then",
    "if \"\" then",
    "if (c) then",
    "else",
    "endif",
    "end if",
    "else if \"d\" then",
    "partition \"Long P\" {",
    "partition P #pink {",
    "partition {",
    "partition P",
    "}",
    "title T",
    "skinparam x",
    "skinparam backgroundColor #EEEEEE",
    "hide footbox",
    "scale 2",
    "scale 2 3",
    "scale 200 width",
    "left to right direction",
    "Left to right direction",
    "top to bottom direction",
    "caption C",
    "header H",
    "newpage",
    "<style>",
    "!pragma layout smetana",
    "allowmixing",
    "remove x",
    "' comment",
    "/' c '/",
];
