//! `cargo xtask grammar-probe`: enumerates the sequence language's forms
//! combinatorially (arrow heads on either end × bodies × style brackets,
//! found/lost and short arrows, lifecycle suffixes with colours, sender- or
//! receiver-less messages, participant declarations, notes, groups,
//! autonumber, lifecycle lines, separators, teoz; and the `fallback-*`
//! categories: class/description links, names, declarations and shared
//! statements, beside a line only those diagram types read, which tell
//! when PlantUML reads a block as another diagram type), asks PlantUML about each
//! (one JVM for the lot) and stores the verdicts (`VALID`, `VALID:<TYPE>`
//! when PlantUML drew another diagram type, `INVALID:<line>`) in
//! `test-data/grammar/cases.tsv`. `cargo test` (`puml-ide/tests/grammar.rs`)
//! reads the stored verdicts, so it needs no Java.

use crate::fix_rate::{oracle_batch_typed, oracle_jar, shared_dir};
use std::path::{Path, PathBuf};

/// One generated diagram.
pub struct Case {
    pub category: &'static str,
    pub text: String,
}

/// `lines` between `@startuml` and `@enduml`.
pub(crate) fn diagram(category: &'static str, lines: &[&str]) -> Case {
    let mut text = String::from("@startuml\n");
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("@enduml\n");
    Case { category, text }
}

/// Every case, in a stable order.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    arrows(&mut out);
    edge_arrows(&mut out);
    lifecycle(&mut out);
    declarations(&mut out);
    notes(&mut out);
    groups(&mut out);
    numbering_and_lines(&mut out);
    fallbacks(&mut out);
    en_dash_arrows(&mut out);
    out
}

/// Arrows written with an en dash (U+2013, which PlantUML reads as `-`) or
/// an em dash (U+2014, which it refuses); appended last so earlier cases
/// keep their ids.
fn en_dash_arrows(out: &mut Vec<Case>) {
    for form in [
        "A \u{2013}> B : m",
        "A \u{2013}>> B : m",
        "A <\u{2013} B : m",
        "A \u{2013}\u{2013}> B : m",
        "A -\u{2013}> B : m",
        "A \u{2013}-> B : m",
        "A <\u{2013}> B : m",
        "A \u{2013}>x B : m",
        "A \u{2013}>o B : m",
        "A x\u{2013}> B : m",
        "A \u{2013}[#red]\u{2013}> B : m",
        "A\u{2013}>B:m",
        "A<\u{2013}B",
        "A \u{2013}> A : m",
        "A \u{2013}> B ++ : m",
        "A \u{2013}>+ B : m",
        "[\u{2013}> A : m",
        "A \u{2013}>] : m",
        "A \u{2013} B : m",
        "A \u{2014}> B : m",
        "A \u{2014}>> B : m",
        "A <\u{2014} B : m",
        "A \u{2014}\u{2014}> B : m",
        "participant A\u{2013}B",
    ] {
        out.push(diagram("en-dash-arrow", &[form]));
    }
}

fn arrows(out: &mut Vec<Case>) {
    let left = ["", "<", "<<", "/", "//", "\\", "\\\\", "x", "o", "o<", "x<", "o<<"];
    let right = ["", ">", ">>", "/", "//", "\\", "\\\\", "x", "o", ">o", ">x", ">>o"];
    let bodies = [
        "-",
        "--",
        "---",
        "-[#red]-",
        "-[#red,dashed]-",
        "[#blue]-",
        "-[bold]",
        "-[hidden]-",
    ];
    for l in left {
        for r in right {
            for body in bodies {
                let arrow = format!("{l}{body}{r}");
                out.push(diagram("arrow", &[&format!("A {arrow} B : m")]));
            }
        }
    }
    // Spacing around the arrow and around style brackets, self messages,
    // quoted and odd participant names.
    for arrow in [
        "->",
        "-->",
        "->>",
        "<-",
        "<->",
        "-[#red]>",
        "-[#red]->",
        "-[ #red ]->",
        "-[#red] ->",
        "- ->",
        "-> >",
    ] {
        for (from, to) in [
            ("A", "B"),
            ("A", "A"),
            ("\"Long name\"", "B"),
            ("A.b", "C::d"),
            ("Ünïcode", "名前"),
            ("A-b", "B"),
            ("A", "\"B\""),
        ] {
            out.push(diagram("arrow-spacing", &[&format!("{from} {arrow} {to} : m")]));
            out.push(diagram("arrow-spacing", &[&format!("{from}{arrow}{to}:m")]));
        }
    }
}

fn edge_arrows(out: &mut Vec<Case>) {
    let forms = [
        "[-> A",
        "[o-> A",
        "[x-> A",
        "[->> A",
        "[--> A",
        "[<- A",
        "[<-- A",
        "[x<- A",
        "[o<- A",
        "A ->]",
        "A ->o]",
        "A ->x]",
        "A -->]",
        "A <-]",
        "A <--]",
        "A o<-]",
        "?-> A",
        "A ->?",
        "A ?->",
        "?<- A",
        "A <-?",
        "[-[#red]-> A",
        "A -[#red]->]",
        "A -> ]",
        "[ -> A",
        "-> A",
        "A ->",
        "<- A",
        "A <-",
        "[->",
        "->]",
        "A ->(10) B",
        "A -(10)> B",
        "A ->(10)] ",
        "A -> B ++",
        "[-> A ++",
        "A ->] --",
    ];
    for form in forms {
        out.push(diagram("edge-arrow", &["participant A", "participant B", form]));
        out.push(diagram(
            "edge-arrow",
            &["participant A", "participant B", &format!("{form} : label")],
        ));
    }
}

fn lifecycle(out: &mut Vec<Case>) {
    let suffixes = [
        "++",
        "--",
        "**",
        "!!",
        "++ #red",
        "++ #FFAAAA",
        "-- #red",
        "** #red",
        "!! #red",
        "++--",
        "--++",
        "++ --",
        "-- ++",
        "**++",
        "++**",
        "!!--",
        "++#red",
        "++ red",
        "+",
        "-",
        "+++",
        "--- ",
    ];
    for suffix in suffixes {
        out.push(diagram(
            "lifecycle",
            &["participant A", "participant B", &format!("A -> B {suffix} : m")],
        ));
        out.push(diagram(
            "lifecycle",
            &["participant A", "participant B", &format!("A -> B {suffix}")],
        ));
        out.push(diagram(
            "lifecycle",
            &[
                "participant A",
                "participant B",
                "A -> B ++",
                &format!("B -> A {suffix} : back"),
            ],
        ));
    }
    for line in [
        "A ++",
        "B --",
        "A **",
        "A !!",
        "activate A",
        "activate A #red",
        "activate A #red #blue",
        "deactivate A",
        "deactivate",
        "activate",
        "destroy A",
        "destroy",
        "create A",
        "create participant A",
        "create actor Z",
        "create",
        "return",
        "return x",
        "autoactivate on",
        "autoactivate off",
        "autoactivate",
    ] {
        out.push(diagram("lifecycle-line", &["participant A", "participant B", line]));
        out.push(diagram(
            "lifecycle-line",
            &[
                "participant A",
                "participant B",
                "A -> B ++ : call",
                line,
                "A -> B : after",
            ],
        ));
        out.push(diagram(
            "lifecycle-line",
            &["participant A", "participant B", line, "B -> A : after"],
        ));
    }
}

fn declarations(out: &mut Vec<Case>) {
    let kinds = [
        "participant",
        "actor",
        "boundary",
        "control",
        "entity",
        "database",
        "collections",
        "queue",
        "Participant",
        "ACTOR",
    ];
    let forms = [
        "A",
        "\"Long Name\" as A",
        "A as \"Long Name\"",
        "A as B",
        "A <<stereo>>",
        "A << (C,#red) stereo >>",
        "A #red",
        "A #FF0000",
        "A order 10",
        "\"Q\" as A <<s>> #red order 3",
        "A as \"L\" #red",
        "A #red <<s>>",
        "A [[http://x]]",
        "\"A\"",
        "A as",
        "as A",
        "A #",
        "\"Unclosed as A",
        "A.b",
        "A::b",
        "A-b",
        "名前",
        "A order x",
    ];
    for kind in kinds {
        for form in forms {
            out.push(diagram("declaration", &[&format!("{kind} {form}"), "A -> A : m"]));
        }
    }
    for line in [
        "participant A [\n  =Title\n  ----\n  body\n]",
        "participant A [",
        "box \"Group\" #LightBlue\nparticipant A\nend box",
        "box Group\nparticipant A\nend box",
        "box\nparticipant A\nend box",
        "box \"x\"\nparticipant A",
        "end box",
    ] {
        out.push(diagram("declaration-block", &[line, "A -> A : m"]));
    }
}

fn notes(out: &mut Vec<Case>) {
    let kinds = ["note", "hnote", "rnote", "Note", "NOTE"];
    let positions = [
        "left",
        "right",
        "over A",
        "left of A",
        "right of A",
        "over A, B",
        "over A,B",
        "over A B",
        "over",
        "left of",
        "top",
        "across",
        "over A #red",
        "left #red",
        "right of A #LightBlue",
        "over B, A",
    ];
    for kind in kinds {
        for position in positions {
            out.push(diagram(
                "note",
                &[
                    "participant A",
                    "participant B",
                    "A -> B : m",
                    &format!("{kind} {position} : text"),
                ],
            ));
            out.push(diagram(
                "note",
                &[
                    "participant A",
                    "participant B",
                    "A -> B : m",
                    &format!("{kind} {position}"),
                    "text",
                    &format!("end {}", kind.to_ascii_lowercase()),
                ],
            ));
        }
    }
    for lines in [
        vec!["note left of A: x", "more", "end note"],
        vec!["note over A", "x"],
        vec!["end note"],
        vec!["note across: x"],
        vec!["/ note over A : x"],
        vec!["note over A : x", "/ note over B : y"],
        vec!["ref over A, B : x"],
        vec!["ref over A", "x", "end ref"],
        vec!["ref over A : x", "end ref"],
        vec!["ref A : x"],
        vec!["ref over : x"],
    ] {
        let mut all = vec!["participant A", "participant B", "A -> B : m"];
        all.extend(lines);
        out.push(diagram("note-other", &all));
    }
}

fn groups(out: &mut Vec<Case>) {
    let openers = [
        "alt",
        "opt",
        "loop",
        "par",
        "break",
        "critical",
        "group",
        "ALT",
        "alt x",
        "alt #red x",
        "alt#Gold #LightBlue x",
        "loop 10 times",
        "group name [second]",
        "group [x]",
        "par#red",
        "else",
        "end",
        "endloop",
        "end alt",
    ];
    for opener in openers {
        out.push(diagram("group", &["A -> B : m", opener, "A -> B : in", "end"]));
        out.push(diagram(
            "group",
            &["A -> B : m", opener, "A -> B : in", "else other", "B -> A : out", "end"],
        ));
        out.push(diagram("group", &["A -> B : m", opener, "A -> B : in"]));
    }
    for closer in [
        "end",
        "End",
        "end group",
        "end alt",
        "endloop",
        "end loop",
        "end box",
        "end note",
        "end ref",
        "}",
    ] {
        out.push(diagram("group-end", &["alt x", "A -> B : in", closer]));
    }
    for else_line in [
        "else",
        "else x",
        "else #red x",
        "Else",
        "ELSE x",
        "else if x",
        "elseif x",
    ] {
        out.push(diagram(
            "group-else",
            &["alt x", "A -> B : in", else_line, "B -> A : out", "end"],
        ));
    }
}

fn numbering_and_lines(out: &mut Vec<Case>) {
    for line in [
        "autonumber",
        "autonumber 10",
        "autonumber 10 5",
        "autonumber \"<b>[000]\"",
        "autonumber 1 \"<b>\"",
        "autonumber 10 10 \"[000]\"",
        "autonumber stop",
        "autonumber resume",
        "autonumber resume 5",
        "autonumber resume \"x\"",
        "autonumber inc A",
        "autonumber inc B",
        "autonumber 1.1.1",
        "autonumber 2.1 \"x\"",
        "autonumber x",
        "autonumber -1",
        "autonumber 10 -5",
        "autonumber off",
    ] {
        out.push(diagram("autonumber", &[line, "A -> B : one", "B -> A : two"]));
    }
    for line in [
        "== sep ==",
        "==sep==",
        "== sep",
        "=== sep ===",
        "...",
        "... 5 min ...",
        "...x",
        "|||",
        "||45||",
        "||x||",
        "|| 45 ||",
        "newpage",
        "newpage title",
        "newpage \"x\"",
        "delay",
        "hide footbox",
        "show footbox",
        "hide unlinked",
        "skinparam sequenceArrowThickness 2",
        "skinparam sequence {\nArrowColor red\n}",
        "skinparam x",
        "skinparam",
        "<style>\nsequenceDiagram {\nLineColor red\n}\n</style>",
        "title x",
        "title",
        "header x",
        "footer x",
        "caption x",
        "legend\nx\nendlegend",
        "legend left\nx\nend legend",
        "mainframe x",
        "scale 2",
        "scale 0.5",
        "!pragma teoz true",
        "& B -> A : together",
        "{start} A -> B : s",
        "{start} <-> {end} : d",
        "A -> B : <<stereo>>",
        "A -> B : [[http://x]]",
        "A -> B : \"quoted\"",
        "A -> B : ",
        "A -> B :",
        "A -> B",
        "A B",
        "A -> B -> C",
        "A -> B : x : y",
        "A -> \"B\" : x",
        "A -> B : \\",
        "'comment",
        "/' block '/",
        "/' open",
        "@startuml",
        "foo",
        "class A",
        ":action;",
    ] {
        out.push(diagram("line", &["A -> B : before", line, "B -> A : after"]));
    }
    for teoz in [
        vec!["!pragma teoz true", "A -> B : one", "& B -> C : two"],
        vec![
            "!pragma teoz true",
            "{s} A -> B : one",
            "{e} B -> A : two",
            "{s} <-> {e} : d",
        ],
        vec!["A -> B : one", "& B -> C : two"],
        vec!["!pragma teoz true", "& A -> B : first"],
    ] {
        out.push(diagram("teoz", &teoz));
    }
}

/// A line with no reading as a sequence statement but one as a class and
/// a description (usecase, component) diagram's link: beside it, a line
/// PlantUML reads as a class diagram's makes the block `VALID:CLASS`, one
/// it reads only as a description diagram's `VALID:DESCRIPTION`, any other
/// `INVALID`. So each probed line, put before it, tells which of the other
/// diagram types read that line.
const EITHER_CONTEXT: &str = "Z1 -- Z2";
/// Read by description diagrams only: tells whether they read a line that
/// class diagrams read too.
const DESCRIPTION_CONTEXT: &str = "usecase Z1";

/// Candidates for PlantUML's fallback to another diagram type when a block
/// is no sequence diagram: class/description links (heads × bodies × style
/// brackets and direction words × names × labels), declarations of every
/// element kind, and the statements the languages may share, each beside a
/// line only the other types read (see `EITHER_CONTEXT`).
fn fallbacks(out: &mut Vec<Case>) {
    let lefts = ["", "<", "<|", "*", "o", "#", "x", "}", "+", "^", "<<", "\\", "/"];
    let rights = ["", ">", "|>", "*", "o", "#", "x", "{", "+", "^", ">>", "\\", "/"];
    let bodies = ["-", "--", ".", "..", "-[#red]-", "-[bold]", "-up-", "~"];
    for l in lefts {
        for r in rights {
            for body in bodies {
                out.push(diagram(
                    "fallback-link",
                    &[&format!("A {l}{body}{r} B : m"), EITHER_CONTEXT],
                ));
            }
        }
    }
    for body in [
        "---",
        "...",
        "-[#red]up-",
        "-up[#red]-",
        "-[hidden]-",
        "-[#red,dashed]-",
        "-down-",
        "-left-",
        "-right-",
        "-d-",
        "-l-",
        "-r-",
        ".up.",
        "-[dotted]-",
        "=",
        "==",
        "~~",
        "-.-",
        ".-",
        "-[#red]-[#blue]-",
        "- -",
        "-[#red] -",
        "-up",
        "up-",
        "-UP-",
        "-do-",
        "-le-",
        "-ri-",
        "-[]-",
        "-[#red]",
    ] {
        for (l, r) in [("", ""), ("", ">"), ("<", ""), ("", "|>")] {
            out.push(diagram(
                "fallback-link",
                &[&format!("A {l}{body}{r} B : m"), EITHER_CONTEXT],
            ));
        }
    }
    let names = [
        "A",
        "A-b",
        "A.b",
        "A::b",
        "a.b.c",
        "A_b",
        "\"Long name\"",
        "Ünï",
        "1",
        "A1",
        "[C]",
        "(U)",
        ":Act:",
        "-A",
        "A-",
        "A:b",
        "A/b",
        "A#b",
        "A$b",
        "A b",
        "A<b>",
        "\"A\" as X",
        "A*",
        "A&",
        "A--b",
        "()",
        "[]",
    ];
    for name in names {
        for arrow in ["--", "->", "..>"] {
            out.push(diagram(
                "fallback-name",
                &[&format!("{name} {arrow} B : m"), EITHER_CONTEXT],
            ));
            out.push(diagram(
                "fallback-name",
                &[&format!("B {arrow} {name} : m"), EITHER_CONTEXT],
            ));
        }
        out.push(diagram("fallback-name", &[&format!("{name}-->B"), EITHER_CONTEXT]));
    }
    for line in [
        "A -- B",
        "A -- B :",
        "A -- B : ",
        "A -- B :m",
        "A--B:m",
        "A -- B : m : n",
        "A -- B : <<s>>",
        "A -- B : m >",
        "A -- B : < m",
        "A \"1\" -- \"*\" B",
        "A \"1\" -- B : m",
        "A -- \"n\" B",
        "A -- B m",
        "A -- B \"m\"",
        "A -- B : [[http://x]]",
        "A -- B #red",
        "A -- B : m\\nn",
        "A --",
        "-- B",
        "A -- B -- C",
        "A -- B : \"q\"",
        "A -- B ++",
        "A -- B : m ++",
        "A -> B ++",
        "A -> B : m ++",
        "A ->x B",
        "A ->o B",
        "A ->>o B",
        "A -\\ B",
        "A <-> B",
        "A <->o B",
        "A o<-> B",
        "A -> B -> C",
        "A ->(10) B",
        "A ->]",
        "[-> A",
        "?-> A",
        "A ->?",
        "& A -> B",
        "{s} A -> B",
        "A -[#red]> B",
        "A -[#red]>> B",
        "A <<- B",
        "A <- B",
        "A --> B",
        "A -->> B",
        "A x<- B",
        "A o<- B",
        "A -/ B",
        "A -// B",
    ] {
        out.push(diagram("fallback-line", &[line, EITHER_CONTEXT]));
    }
    let kinds = [
        "class",
        "abstract",
        "abstract class",
        "interface",
        "enum",
        "entity",
        "annotation",
        "protocol",
        "struct",
        "exception",
        "circle",
        "diamond",
        "object",
        "map",
        "metaclass",
        "stereotype",
        "dataclass",
        "record",
        "actor",
        "usecase",
        "component",
        "database",
        "node",
        "folder",
        "frame",
        "cloud",
        "package",
        "queue",
        "collections",
        "boundary",
        "control",
        "participant",
        "storage",
        "artifact",
        "card",
        "file",
        "rectangle",
        "agent",
        "person",
        "stack",
        "label",
        "hexagon",
        "Class",
        "ACTOR",
        "namespace",
        "state",
        "json",
    ];
    let forms = [
        "A",
        "A::b",
        "A-b",
        "\"Long\" as L",
        "A as \"Long\"",
        "as A",
        "A <<s>>",
        "A #red",
        "A {\n}",
        "A.b",
    ];
    for kind in kinds {
        for form in forms {
            for context in [EITHER_CONTEXT, DESCRIPTION_CONTEXT] {
                out.push(diagram("fallback-decl", &[&format!("{kind} {form}"), context]));
            }
        }
    }
    for line in [
        "participant A",
        "actor A",
        "activate A",
        "deactivate A",
        "destroy A",
        "create A",
        "return",
        "return x",
        "autoactivate on",
        "note left of A : x",
        "note right of A : x",
        "note over A : x",
        "note left : x",
        "note top of A : x",
        "note \"x\" as N",
        "note as N\nx\nend note",
        "note left of A\nx\nend note",
        "note over A\nx\nend note",
        "hnote over A : x",
        "ref over A : x",
        "title x",
        "title\nx\nend title",
        "header x",
        "footer x",
        "caption x",
        "legend\nx\nendlegend",
        "legend left\nx\nend legend",
        "mainframe x",
        "scale 2",
        "skinparam x y",
        "skinparam sequence {\nArrowColor red\n}",
        "<style>\nsequenceDiagram {\nLineColor red\n}\n</style>",
        "hide footbox",
        "show footbox",
        "hide unlinked",
        "hide empty members",
        "hide circle",
        "left to right direction",
        "top to bottom direction",
        "== x ==",
        "...",
        "...x",
        "... x ...",
        "|||",
        "||45||",
        "newpage",
        "newpage x",
        "autonumber",
        "autonumber -1",
        "autonumber 10",
        "autonumber stop",
        "alt x\nend",
        "loop x\nend",
        "group x\nend",
        "box\nend box",
        "' comment",
        "/' c '/",
        "!pragma teoz true",
        "A : field",
        "A : +m()",
        "A : m : n",
        "together {\n}",
        "package P {\n}",
        "A ++",
        "A --",
        "delay",
        "newpage",
        "set namespaceSeparator ::",
        "allowmixing",
        "remove A",
        "hide A",
        "A",
        "A B",
        "A,B",
        "skinparam",
        "[C]",
        "(U)",
        ":Act:",
        "end",
        "else",
        "foo bar",
        "@startuml",
        "A -> B",
        "A -> B : m",
        "A --> B : m",
        "A ->> B : m",
        "A <- B : m",
    ] {
        for context in [EITHER_CONTEXT, DESCRIPTION_CONTEXT] {
            out.push(diagram("fallback-line", &[line, context]));
        }
    }
    // Whether the description types read the class links too: beside a
    // line only they read (appended last, so earlier cases keep their ids).
    for l in lefts {
        for r in rights {
            for body in ["--", "-[#red]-"] {
                out.push(diagram(
                    "fallback-link",
                    &[&format!("A {l}{body}{r} B : m"), DESCRIPTION_CONTEXT],
                ));
            }
        }
    }
}

/// The TSV line's text field: one line, reversible.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n").replace('\t', "\\t")
}

pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--class") {
        return run_set(
            args,
            crate::grammar_probe_class::cases(),
            "test-data/grammar/class/cases.tsv",
            "CLASS",
        );
    }
    if args.iter().any(|a| a == "--activity") {
        return run_set(
            args,
            crate::grammar_probe_activity::cases(),
            "test-data/grammar/activity/cases.tsv",
            "ACTIVITY",
        );
    }
    run_set(args, cases(), "test-data/grammar/cases.tsv", "SEQUENCE")
}

/// Asks PlantUML about `cases` and writes their verdicts to `out_path`;
/// a case drawn as `native` (the set's own type) is plain `VALID`.
fn run_set(args: &[String], cases: Vec<Case>, out_path: &str, native: &str) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = shared_dir(&root).ok_or("cannot find ../shared (with tools/plantuml-oracle) above the workspace")?;
    let oracle = shared.join("tools/plantuml-oracle");
    let jar = oracle_jar(&oracle)?;
    let tmp = std::env::temp_dir().join(format!("puml-grammar-probe-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let texts: Vec<(PathBuf, String)> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (tmp.join(format!("case{i}.puml")), c.text.clone()))
        .collect();
    eprintln!("grammar-probe: asking PlantUML about {} cases", texts.len());
    let mut verdicts = Vec::new();
    // Batches keep one JVM's output and temporary files manageable.
    for chunk in texts.chunks(400) {
        verdicts.extend(oracle_batch_typed(&jar, &oracle, chunk)?);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let mut tsv = String::from(
        "# Generated by `cargo xtask grammar-probe` (`--activity` for activity diagrams, `--class` for class diagrams) from PlantUML 1.2026.8's verdicts; read by puml-ide/tests/grammar.rs.\n\
         # id\tcategory\tverdict\ttext (\\n, \\t, \\\\ escaped)\n",
    );
    let mut valid = 0;
    for (i, (case, (verdict, kind))) in cases.iter().zip(&verdicts).enumerate() {
        // The message is PlantUML's wording, not needed: the line is. A
        // diagram PlantUML drew as another type (`A -- B` is a class
        // diagram's link) is `VALID:CLASS`: accepted, but not as a
        // sequence diagram.
        let accepted = |kind: &str| {
            if kind.is_empty() || kind == native {
                "VALID".to_string()
            } else {
                format!("VALID:{kind}")
            }
        };
        let verdict = match verdict.split(':').collect::<Vec<_>>().as_slice() {
            ["VALID"] => {
                valid += 1;
                accepted(kind)
            }
            ["CRASH", ..] => {
                valid += 1;
                accepted(kind)
            }
            ["INVALID", line, ..] => format!("INVALID:{line}"),
            _ => format!("INVALID:{verdict}"),
        };
        tsv.push_str(&format!(
            "g{i:04}\t{}\t{verdict}\t{}\n",
            case.category,
            escape(&case.text)
        ));
    }
    let out = root.join(out_path);
    std::fs::create_dir_all(out.parent().unwrap_or(&root)).map_err(|e| e.to_string())?;
    std::fs::write(&out, tsv).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "grammar-probe: {} cases, {valid} valid and {} invalid per PlantUML; written to {}",
        cases.len(),
        cases.len() - valid,
        out.display()
    );
    if args.iter().any(|a| a == "--verbose") {
        println!("run `cargo test -p puml-ide --test grammar -- --nocapture` for puml's agreement");
    }
    Ok(())
}
