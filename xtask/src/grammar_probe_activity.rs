//! The activity half of `cargo xtask grammar-probe`: PlantUML's new
//! activity syntax enumerated combinatorially (each statement form, label
//! and condition forms, colours, terminators, stereotypes, arrows,
//! swimlanes, containers, notes, block nesting two deep, crossed and
//! missing closers, and the mistakes people and language models make),
//! stored with PlantUML's verdicts in `test-data/grammar/activity/cases.tsv`
//! and read by `puml-ide/tests/grammar.rs`.

use crate::grammar_probe::{diagram, Case};

/// A statement between `start` and `stop`.
fn wrapped(category: &'static str, body: &[&str]) -> Case {
    let mut lines = vec!["start"];
    lines.extend_from_slice(body);
    lines.push("stop");
    diagram(category, &lines)
}

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    actions(&mut out);
    flow(&mut out);
    conditions(&mut out);
    loops(&mut out);
    forks(&mut out);
    lanes_and_containers(&mut out);
    arrows(&mut out);
    notes(&mut out);
    nesting(&mut out);
    mistakes(&mut out);
    kinds(&mut out);
    multiline_parens(&mut out);
    condition_keywords(&mut out);
    out
}

/// `if (c) is (x) then` and its spellings: PlantUML reads `c` and `x` when
/// nothing follows `then`, the text from the first `(` to the last `)`
/// otherwise (probes `if_is_*`).
fn condition_keywords(out: &mut Vec<Case>) {
    for i in [
        "if (c) equal (x) then",
        "if (c) IS (x) then",
        "if (c)is(x)then",
        "if (c) is () then",
        "if (c) is (x)",
        "if (c) is x then",
    ] {
        out.push(wrapped("if-is", &[i, ":a;", "endif"]));
    }
    for e in [
        "elseif (d) is (x) then",
        "elseif (d) equals (x) then",
        "elseif (d) equal (x) then",
    ] {
        out.push(wrapped("if-is", &["if (c) then (yes)", ":a;", e, ":b;", "endif"]));
    }
}

fn actions(out: &mut Vec<Case>) {
    let texts = [
        "a",
        "Two words",
        "with (parens)",
        "with: colon",
        "**bold** text",
        "x;y",
        "",
    ];
    let terminators = [";", "|", "<", ">", "/", "]", "}", ";;", "", " ;"];
    for text in texts {
        for t in terminators {
            out.push(wrapped("action", &[&format!(":{text}{t}")]));
        }
    }
    for suffix in [
        " <<#red>>",
        " <<input>>",
        "<<input>>",
        " <<input>> <<x>>",
        " <<#zzqq>>",
        " <<input>> x",
        " ' comment",
        " x",
        "   ",
        " <<#red>><<input>>",
    ] {
        out.push(wrapped("action-suffix", &[&format!(":a;{suffix}")]));
    }
    for prefix in ["#red", "#LightBlue", "#zzqq", "#red ", "# red"] {
        out.push(wrapped("action-color", &[&format!("{prefix}:a;")]));
        out.push(wrapped("action-color", &[&format!("{prefix}:a;"), ":b;"]));
        out.push(wrapped("action-color", &[&format!("{prefix}:a"), "b;"]));
    }
    for lines in [
        &[":a", "b;"][..],
        &[":a", "", "b;"],
        &[":a", "' c", "b;"],
        &[":a", "b|"],
        &[":a", "b", "c;"],
        &[":a", "  b;"],
        &[":a", "b; <<input>>"],
        &[":a", "stop"],
        &["  :a;  "],
        &["\t:a;"],
        &[":a;", ":b;", ":c;"],
    ] {
        out.push(wrapped("action-multiline", lines));
    }
}

fn flow(out: &mut Vec<Case>) {
    for word in ["start", "stop", "end", "kill", "detach", "break"] {
        for form in [
            word.to_string(),
            word.to_uppercase(),
            format!("{word};"),
            format!("{word} ;"),
            format!("{word} now"),
            format!("  {word}  "),
        ] {
            out.push(diagram("flow", &[":a;", &form]));
            out.push(diagram("flow", &[&form, ":a;"]));
        }
    }
    for pair in [
        ["start", "start"],
        ["stop", "stop"],
        ["stop", ":a;"],
        ["end", "stop"],
        ["kill", ":a;"],
        ["detach", ":a;"],
    ] {
        out.push(diagram("flow-pair", &[pair[0], pair[1]]));
    }
}

fn conditions(out: &mut Vec<Case>) {
    let ifs = [
        "if (c) then (yes)",
        "if (c) then",
        "if (c)",
        "if (c) then yes",
        "if (c) is (x) then",
        "if (c) equals (x) then",
        "if (c) is (x) then (y)",
        "if (c) not (x) then",
        "if c then",
        "if (c (nested)) then (y)",
        "if () then ([x])",
        "IF (c) THEN (y)",
        "if (c) then (yes) ' comment",
        "if(c)then(yes)",
        "#red:if (c) then (yes)",
    ];
    let elses = [
        "else",
        "else (no)",
        "else no",
        "ELSE (no)",
        "else(no)",
        "elseif (d) then (y)",
        "else if (d) then (y)",
        "elseif (d)",
        "elseif (d) then",
    ];
    let ends = ["endif", "end if", "ENDIF", "endif (x)", "endif x", "endif;"];
    for i in ifs {
        out.push(wrapped("if", &[i, ":a;", "endif"]));
    }
    for e in elses {
        out.push(wrapped("else", &["if (c) then (yes)", ":a;", e, ":b;", "endif"]));
    }
    for e in ends {
        out.push(wrapped("endif", &["if (c) then (yes)", ":a;", e]));
    }
    out.push(wrapped(
        "if",
        &["if (c) then (yes)", "elseif (d) then (y)", ":b;", "else (n)", "endif"],
    ));
    out.push(wrapped("if", &["if (c) then (yes)", "else", "else", "endif"]));
    out.push(wrapped(
        "if",
        &["if (c) then (yes)", "else", "elseif (d) then", "endif"],
    ));
    out.push(wrapped("if", &["if (c) then (yes)", "endif"]));
    for sw in ["switch (x)", "switch (x?)", "switch x", "switch ()"] {
        out.push(wrapped(
            "switch",
            &[sw, "case (a)", ":a;", "case (b)", ":b;", "endswitch"],
        ));
    }
    for case in ["case (a)", "case a", "case ()", "CASE (a)", "case (a) ' c"] {
        out.push(wrapped("switch", &["switch (x)", case, ":a;", "endswitch"]));
    }
    for end in ["endswitch", "end switch", "endswitch (x)", "ENDSWITCH"] {
        out.push(wrapped("switch", &["switch (x)", "case (a)", ":a;", end]));
    }
    out.push(wrapped("switch", &["switch (x)", ":a;", "endswitch"]));
    out.push(wrapped("switch", &["switch (x)", "endswitch"]));
}

fn loops(out: &mut Vec<Case>) {
    for w in [
        "while (c)",
        "while (c) is (yes)",
        "while (c?) is (yes)",
        "while c",
        "while (c) equals (x)",
        "while ()",
        "WHILE (c)",
        "while (c) is yes",
    ] {
        out.push(wrapped("while", &[w, ":a;", "endwhile"]));
    }
    for e in [
        "endwhile",
        "endwhile (no)",
        "end while",
        "endwhile no",
        "end while (no)",
        "ENDWHILE",
        "endwhile;",
    ] {
        out.push(wrapped("while", &["while (c)", ":a;", e]));
    }
    out.push(wrapped("while", &["while (c)", "endwhile"]));
    out.push(wrapped("while", &["while (c)", ":a;", "break", "endwhile"]));
    out.push(wrapped("while", &["while (c)", ":a;", "backward:b;", "endwhile"]));
    for r in [
        "repeat",
        "repeat :first;",
        "repeat:first;",
        "repeat #red:first;",
        "REPEAT",
        "repeat x",
        "repeat :first",
    ] {
        out.push(wrapped("repeat", &[r, ":a;", "repeat while (c)"]));
    }
    for rw in [
        "repeat while (c)",
        "repeat while",
        "repeat while (c) is (yes)",
        "repeat while (c) is (yes) not (no)",
        "repeat while (c) not (no)",
        "repeat while (c) is yes",
        "repeatwhile (c)",
        "repeat while c",
        "REPEAT WHILE (c)",
        "repeat while (c) ' x",
    ] {
        out.push(wrapped("repeat", &["repeat", ":a;", rw]));
    }
    for b in [
        "backward:b;",
        "backward :b;",
        "backward",
        "backward:b",
        "BACKWARD:b;",
        "backward b;",
    ] {
        out.push(wrapped("backward", &["repeat", ":a;", b, "repeat while (c)"]));
    }
    out.push(wrapped("backward", &[":a;", "backward:b;"]));
    out.push(wrapped("repeat", &["repeat", ":a;", "break", "repeat while (c)"]));
}

fn forks(out: &mut Vec<Case>) {
    for (open, again, ends) in [
        (
            "fork",
            "fork again",
            &[
                "end fork",
                "endfork",
                "end merge",
                "end fork {and}",
                "end fork {or}",
                "end split",
                "endsplit",
                "END FORK",
                "end fork;",
                "end",
            ][..],
        ),
        (
            "split",
            "split again",
            &[
                "end split",
                "endsplit",
                "end fork",
                "end merge",
                "END SPLIT",
                "end split {x}",
                "end",
            ],
        ),
    ] {
        for end in ends {
            out.push(wrapped("fork", &[open, ":a;", again, ":b;", end]));
            out.push(wrapped("fork", &[open, ":a;", end]));
        }
        out.push(wrapped("fork", &[open, ":a;", again, ":b;"]));
        out.push(wrapped("fork", &[again, ":a;"]));
        out.push(wrapped("fork", &[open, again, again, "end fork"]));
        out.push(wrapped(
            "fork",
            &[&open.to_uppercase(), ":a;", &again.to_uppercase(), ":b;", "end fork"],
        ));
    }
    out.push(wrapped("fork", &["fork", ":a;", "split again", ":b;", "end fork"]));
    out.push(wrapped("fork", &["split", ":a;", "fork again", ":b;", "end split"]));
}

fn lanes_and_containers(out: &mut Vec<Case>) {
    for lane in [
        "|A|",
        "|Two words|",
        "|#red|A|",
        "|#LightBlue|A|",
        "|#zzqq|A|",
        "|#red|a| Alpha",
        "|a| Alpha",
        "|A",
        "| A |",
        "|A| ' c",
        "||A||",
        "|#red|",
        "|\"A\"|",
        "|A|B|",
    ] {
        out.push(diagram("swimlane", &[lane, "start", ":a;", "stop"]));
    }
    out.push(diagram(
        "swimlane",
        &["|A|", "start", ":a;", "|B|", ":b;", "|A|", ":c;", "stop"],
    ));
    out.push(diagram("swimlane", &["start", "|A|", ":a;", "stop"]));
    for kind in ["partition", "group", "package", "rectangle", "card"] {
        for head in [
            format!("{kind} P {{"),
            format!("{kind} \"P q\" {{"),
            format!("{kind} P #red {{"),
            format!("{kind} P"),
            format!("{kind} P{{"),
            format!("{kind} {{"),
            format!("{kind} P <<s>> {{"),
        ] {
            out.push(wrapped("container", &[&head, ":a;", "}"]));
        }
        out.push(wrapped("container", &[&format!("{kind} P {{"), ":a;"]));
        out.push(wrapped(
            "container",
            &[&format!("{kind} P"), ":a;", &format!("end {kind}")],
        ));
    }
    out.push(wrapped("container", &[":a;", "}"]));
    out.push(wrapped(
        "container",
        &["partition P {", "partition Q {", ":a;", "}", "}"],
    ));
}

fn arrows(out: &mut Vec<Case>) {
    for arrow in [
        "->",
        "-->",
        "-",
        "->>",
        "->x",
        "-> label;",
        "-> label",
        "->label;",
        "-> a; b",
        "-[#red]->",
        "-[#red,dashed]->",
        "-[#red;dashed]->",
        "-[dashed]->",
        "-[dotted]->",
        "-[bold]->",
        "-[hidden]->",
        "-[#zzqq]->",
        "-[#red]-> label;",
        "-[#red]>",
        "-[ #red ]->",
        "<-",
        "<- label",
        "=>",
        "-> <<s>>",
    ] {
        out.push(wrapped("arrow", &[":a;", arrow, ":b;"]));
    }
    out.push(wrapped("arrow", &[":a;", "->", "->", ":b;"]));
    out.push(wrapped("arrow", &["->", ":a;"]));
    out.push(wrapped("arrow", &[":a;", "->"]));
    for connector in ["(A)", "(Long name)", "(A) ' c", "()", "(A", "#red:(A)", "(A) #red"] {
        out.push(wrapped("connector", &[":a;", connector]));
    }
    out.push(wrapped("connector", &[":a;", "(A)", "detach", "(A)", ":b;"]));
}

fn notes(out: &mut Vec<Case>) {
    for note in [
        "note left: hi",
        "note right: hi",
        "note: hi",
        "note top: hi",
        "note bottom: hi",
        "note left #red: hi",
        "note left #zzqq: hi",
        "note left : hi",
        "note left:hi",
        "floating note left: hi",
        "floating note: hi",
        "note left of A: hi",
        "note over A: hi",
        "note left: ",
        "NOTE LEFT: hi",
        "note left <<s>>: hi",
    ] {
        out.push(wrapped("note", &[":a;", note]));
    }
    for header in [
        "note left",
        "note right",
        "note",
        "floating note right",
        "note left #red",
        "note left #zzqq",
    ] {
        for end in ["end note", "endnote", "END NOTE", "end  note"] {
            out.push(wrapped("note-block", &[":a;", header, "text", "more", end]));
        }
        out.push(wrapped("note-block", &[":a;", header, "text"]));
    }
    out.push(wrapped("note-block", &[":a;", "note left", "  indented", "end note"]));
    out.push(wrapped("note", &["note left: first", ":a;"]));
}

/// Each block kind inside each other one, and with crossed closers.
fn nesting(out: &mut Vec<Case>) {
    let blocks: [(&str, &str, &str); 8] = [
        ("if (c) then (y)", "else (n)", "endif"),
        ("while (c)", "", "endwhile"),
        ("repeat", "", "repeat while (c)"),
        ("fork", "fork again", "end fork"),
        ("split", "split again", "end split"),
        ("switch (x)", "case (a)", "endswitch"),
        ("partition P {", "", "}"),
        ("group G {", "", "}"),
    ];
    for (o_open, o_mid, o_close) in blocks {
        for (i_open, i_mid, i_close) in blocks {
            let mut lines = vec![o_open];
            if o_open.starts_with("switch") {
                lines.push("case (o)");
            }
            lines.push(i_open);
            if i_open.starts_with("switch") {
                lines.push("case (i)");
            }
            lines.push(":a;");
            if !i_mid.is_empty() {
                lines.push(i_mid);
                lines.push(":b;");
            }
            lines.push(i_close);
            if !o_mid.is_empty() && !o_open.starts_with("switch") {
                lines.push(o_mid);
                lines.push(":c;");
            }
            lines.push(o_close);
            out.push(wrapped("nesting", &lines));
            // Closers crossed: the outer one first.
            if o_close != i_close {
                let crossed = [o_open, i_open, ":a;", o_close, i_close];
                out.push(wrapped("nesting-crossed", &crossed));
            }
            // The inner block left open.
            out.push(wrapped("nesting-open", &[o_open, i_open, ":a;", o_close]));
        }
    }
}

/// The mistakes people and language models make.
fn mistakes(out: &mut Vec<Case>) {
    let sets: &[&[&str]] = &[
        &["start", "(*) --> \"a\"", "stop"],
        &["(*) --> \"a\"", "\"a\" --> (*)"],
        &["start", ":a;", "\"a\" --> (*)"],
        &["start", ":a;", "-->[yes] \"b\""],
        &["flowchart TD", "start", ":a;", "stop"],
        &["graph TD", "start", ":a;", "stop"],
        &["start", "A --> B", "stop"],
        &["start", "A[Start] --> B{ok?}", "stop"],
        &["start", ":a;", "A -> B : msg", "stop"],
        &["start", "if (c) then (y)", ":a;", "stop"],
        &["start", "else", ":a;", "stop"],
        &["start", "elseif (c) then", ":a;", "stop"],
        &["start", "endif", "stop"],
        &["start", ":a", "stop"],
        &["start", ":a", ":b;", "stop"],
        &["start", "a;", "stop"],
        &["start", "fork", ":a;", "fork again", ":b;", "end split", "stop"],
        &["start", "split", ":a;", "end fork", "stop"],
        &["start", "while (c)", ":a;", "stop"],
        &["start", "repeat", ":a;", "stop"],
        &["start", "partition P {", ":a;", "stop"],
        &["start", "endwhile", "stop"],
        &["start", "repeat while (c)", "stop"],
        &["start", "end fork", "stop"],
        &["start", "if c then", ":a;", "endif", "stop"],
        &["start", "if (c) then (y)", ":a;", "else (n)", ":b;", "end", "stop"],
        &["start", "if (c) then (y)", ":a;", "fi", "stop"],
        &["start", "if (c) then (y):", ":a;", "endif", "stop"],
        &["start", "if (c) {", ":a;", "}", "stop"],
        &["start", "while (c) {", ":a;", "}", "stop"],
        &["start", "loop (c)", ":a;", "end loop", "stop"],
        &["start", ":a;", "note: hi", "stop"],
        &["start", "::a;", "stop"],
        &["start", ":a;;", "stop"],
        &["start", "action :a;", "stop"],
        &["start", "activity a", "stop"],
        &["start", "if (c) then (y)", ":a;", "elif (d) then (z)", "endif", "stop"],
        &["start", "endif", "if (c) then", "stop"],
        &["start", "switch (x)", "case a:", ":a;", "endswitch", "stop"],
        &["start", "|A|", ":a;", "|B", "stop"],
        &["start", "stop", "stop"],
    ];
    for lines in sets {
        out.push(diagram("mistake", lines));
    }
}

/// Blocks mixing lines of both languages, and blocks only one of them
/// reads: which type PlantUML assumes decides which lines are errors.
fn kinds(out: &mut Vec<Case>) {
    let sets: &[&[&str]] = &[
        &["A -> B", "start"],
        &["start", "A -> B"],
        &["participant A", ":a;"],
        &[":a;", "participant A"],
        &["title T", "start", ":a;", "stop"],
        &["skinparam x y", ":a;"],
        &["note left: hi", ":a;"],
        &["A -> B", ":a;", ":b;"],
        &[":a;", ":b;", "A -> B"],
        &["== sep ==", ":a;"],
        &[":a;", "== sep =="],
        &["|||", ":a;"],
        &["group G", ":a;", "end"],
        &["alt x", ":a;", "end"],
        &["start", "alt x", "end"],
        &["activate A", "start"],
        &["!define X 1", "start", ":a;", "stop"],
        &["legend", "text", "endlegend", "start"],
        &["title", "multi", "end title", ":a;"],
        &["header h", "footer f", "caption c", "start"],
        // Lines neither language reads: both fail there, sequence wins.
        &["rect x", ":a;"],
        &["foo bar", ":a;"],
        &["else", ":a;"],
        &["A -) B: hi", ":a;"],
        &["hide footbox", ":a;"],
        &["mainframe x", ":a;"],
        &["->", ":a;"],
        &["(*) --> \"a\"", ":a;"],
        &["autonumber", ":a;"],
        &["rect x", "A -) B: hi", "end"],
    ];
    for lines in sets {
        out.push(diagram("kind", lines));
    }
}

/// A parenthesised text whose `)` comes on a later line: PlantUML reads
/// the condition or label of `if`, `elseif`, `else` and `repeat while` on
/// up to the next line ending in `)` (or `);`), and no other statement's;
/// a `(` never closed that way is an error on its own line.
fn multiline_parens(out: &mut Vec<Case>) {
    let sets: &[&[&str]] = &[
        &["if (c) then ([a", "b])", ":x;", "else (n)", ":y;", "endif"],
        &["if (c", "d) then (a)", ":x;", "endif"],
        &["if (c) then (a)", ":x;", "else (n", "m)", ":y;", "endif"],
        &["if (c) then (a)", ":x;", "elseif (d) then (e", "f)", ":y;", "endif"],
        &["if (c) then (a)", ":x;", "elseif (d", "e) then (f)", ":y;", "endif"],
        &["repeat", ":x;", "repeat while (c) is (a", "b)"],
        &["repeat", ":x;", "repeat while (c", "d)"],
        &["if (c) then (a", "b", "c)", ":x;", "endif"],
        &["if (c) then (a", "", "b)", ":x;", "endif"],
        &["if (c) then (a", "   b   )", ":x;", "endif"],
        &["if (c) then (a", "b);", ":x;", "endif"],
        &["if (c) then (a", "b)  ", ":x;", "endif"],
        &["if (c) then (a)", ":x;", "else (n", "m);", ":y;", "endif"],
        &["if (c", "d)", ":x;", "endif"],
        // Near misses PlantUML refuses.
        &["if (c) then (a", ":x;", "endif"],
        &["if (c) then (a", "b) x", ":x;", "endif"],
        &["if (c) then (a)", ":x;", "else (n", ":y;", "endif"],
        &["if (c) then (a", "(x)", "b)", ":x;", "endif"],
        &["if (c) then (a (x)", "b)", ":x;", "endif"],
        &["repeat", ":x;", "repeat while (c) is (a", "b) -> back;"],
        &["while (c) is (a", "b)", ":x;", "endwhile"],
        &["while (c", "d)", ":x;", "endwhile"],
        &["while (c", ":x;", "endwhile"],
        &["while (c) is (a)", ":x;", "endwhile (e", "f)"],
        &["switch (t", "u)", "case (a)", ":x;", "endswitch"],
        &["switch (t)", "case (a", "b)", ":x;", "endswitch"],
    ];
    for lines in sets {
        out.push(wrapped("multiline-paren", lines));
    }
}
