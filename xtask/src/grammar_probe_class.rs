//! The class half of `cargo xtask grammar-probe --class`: PlantUML's class
//! diagram syntax enumerated combinatorially (declarations × names ×
//! options × bodies, members, relations × heads × bodies × labels ×
//! styles, packages, notes, hide/show, object/map/json, ER links) and the
//! near-misses people and language models write (Mermaid `classDiagram`
//! syntax, `extends`/`implements` misuse, unclosed bodies, unknown heads,
//! Java generics), stored with PlantUML's verdicts in
//! `test-data/grammar/class/cases.tsv` and read by
//! `puml-ide/tests/grammar.rs`.

use crate::grammar_probe::{diagram, Case};

/// `lines` after a class declaration, so that the block is no sequence
/// diagram whatever the lines are.
fn anchored(category: &'static str, lines: &[&str]) -> Case {
    let mut all = vec!["class Anchor"];
    all.extend_from_slice(lines);
    diagram(category, &all)
}

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    declarations(&mut out);
    bodies(&mut out);
    relations(&mut out);
    packages_and_notes(&mut out);
    commands(&mut out);
    objects(&mut out);
    mistakes(&mut out);
    out
}

fn declarations(out: &mut Vec<Case>) {
    let keywords = [
        "class",
        "abstract class",
        "abstract",
        "static class",
        "interface",
        "enum",
        "annotation",
        "entity",
        "exception",
        "metaclass",
        "protocol",
        "stereotype",
        "struct",
        "record",
        "dataclass",
        "object",
        "circle",
        "diamond",
        "Class",
        "INTERFACE",
    ];
    let names = [
        "A",
        "\"Long name\" as L",
        "L as \"Long name\"",
        "a.b.C",
        "a::b::C",
        "A<T>",
        "A<T extends B>",
        "A<K, V>",
        "A-b",
        "A:",
        "\"Quoted\"",
        "A as B",
        "Ünïcode",
        "A$1",
    ];
    let options = [
        "",
        " <<S>>",
        " <<S>> <<T>>",
        " << (S,#FF7700) Singleton >>",
        " #pink",
        " #pink;line:red;line.dashed;text:blue",
        " ##[dashed]blue",
        " <<S>> #pink",
        " #pink <<S>>",
        " [[http://x.org]]",
        " extends B",
        " implements I",
        " extends B implements I, J",
        " implements I extends B",
        " {}",
        " $tag",
    ];
    for keyword in keywords {
        for name in names {
            out.push(anchored("class-decl", &[&format!("{keyword} {name}")]));
        }
        for option in options {
            out.push(anchored("class-decl", &[&format!("{keyword} A{option}")]));
        }
    }
}

fn bodies(out: &mut Vec<Case>) {
    let members = [
        "+ field : int",
        "- field",
        "# method()",
        "~ method(a : int) : String",
        "{static} count : int",
        "{abstract} run()",
        "{field} weird()",
        "{method} plain",
        "{classifier} x",
        "+{static} both()",
        "--",
        "..",
        "==",
        "__",
        "-- title --",
        ".. title ..",
        "RED",
        "RED, GREEN",
        "* id : number <<PK>>",
        "' a comment",
        "",
        "{",
        "}}",
        "<<interface>>",
    ];
    for keyword in ["class", "interface", "enum", "entity", "abstract class", "struct"] {
        for member in members {
            out.push(anchored("class-body", &[&format!("{keyword} A {{"), member, "}"]));
        }
    }
    // Brace placement and closing.
    let shapes: &[&[&str]] = &[
        &["class A {", "}"],
        &["class A{", "+ x", "}"],
        &["class A", "{", "+ x", "}"],
        &["class A {", "+ x", "  }  "],
        &["class A {", "+ x"],
        &["class A {", "+ x", "} class B"],
        &["class A { + x }"],
        &["class A {+ x", "}"],
        &["class A {}", "class B{}"],
        &["class A {", "}", "}"],
        &["A : + field", "A : method()"],
        &["A : field", "A:field"],
        &["\"Long\" : field"],
        &["a.b.C : field"],
    ];
    for lines in shapes {
        out.push(anchored("class-body", lines));
    }
}

fn relations(out: &mut Vec<Case>) {
    let left = [
        "", "<|", "<", "*", "o", "#", "x", "}", "+", "^", "|o", "||", "}o", "}|", "<||", "<|:", "()", "(", ")",
    ];
    let right = [
        "", "|>", ">", "*", "o", "#", "x", "{", "+", "^", "o|", "||", "o{", "|{", "||>", ":|>", "()", "(", ")", "}",
    ];
    for l in left {
        for r in right {
            out.push(anchored("class-head", &[&format!("A {l}--{r} B")]));
        }
    }
    let bodies = [
        "-",
        "--",
        "---",
        "----",
        ".",
        "..",
        "...",
        "==",
        "-up-",
        "-u-",
        "-down-",
        "-do-",
        "-left-",
        "-le-",
        "-right-",
        "-r-",
        ".up.",
        "-[#red]-",
        "-[#red,dashed]-",
        "-[hidden]-",
        "-[norank]-",
        "-[bold]-",
        "-[dotted]-",
        "-[#red,thickness=2]-",
        "-[ #red ]-",
        "-[]-",
        "-[#red]up-",
        "-up[#red]-",
        "-0-",
        "-(0)-",
        "~~",
        "-~-",
        "-->-",
        "- -",
    ];
    for body in bodies {
        out.push(anchored("class-body-style", &[&format!("A {body}> B")]));
        out.push(anchored("class-body-style", &[&format!("A <|{body} B")]));
    }
    let ends = [
        ("A", "B"),
        ("\"Long A\"", "\"Long B\""),
        ("a.b.C", "d::E"),
        ("(A, B)", "C"),
        ("C", "(A, B)"),
        ("A", "A"),
        ("[A]", "B"),
        ("(A)", "B"),
        ("A#red", "B"),
        ("A", "B #red"),
        ("A", "B#red"),
        (":A:", "B"),
        ("A B", "C"),
    ];
    for (from, to) in ends {
        out.push(anchored(
            "class-ends",
            &["class B", "class C", &format!("{from} --> {to}")],
        ));
    }
    let labels = [
        " : label",
        " : owns >",
        " : < owns",
        " : > owns",
        " :",
        " : ",
        " :label",
        " : \"quoted\"",
        " : <<use>>",
        " [[http://x]] : l",
    ];
    for label in labels {
        out.push(anchored("class-label", &[&format!("A --> B{label}")]));
    }
    let multiplicities = [
        "A \"1\" --> \"*\" B",
        "A \"1\" --> B",
        "A --> \"0..*\" B",
        "A \"1\"--> \"*\"B",
        "A \"a role\" *-- \"many\" B : has >",
        "A [qual] --> B",
        "A --> [qual] B",
        "A \"1\" [q] --> B",
        "A '1' --> B",
        "A 1 --> * B",
    ];
    for line in multiplicities {
        out.push(anchored("class-multiplicity", &[line]));
    }
}

fn packages_and_notes(out: &mut Vec<Case>) {
    let packages: &[&[&str]] = &[
        &["package p {", "class A", "}"],
        &["package p", "class A", "end package"],
        &["package p {}"],
        &["package \"Long p\" {", "}"],
        &["package p <<Folder>> {", "}"],
        &["package p <<Node>> #pink {", "}"],
        &["package p as q {", "}"],
        &["package a.b {", "class C", "}"],
        &["package p {", "package q {", "class A", "}", "}"],
        &["namespace n {", "class A", "}"],
        &["namespace n", "class A", "end namespace"],
        &["node N {", "class A", "}"],
        &["folder F {", "}"],
        &["frame F {", "}"],
        &["cloud C {", "}"],
        &["database D {", "}"],
        &["rectangle R {", "}"],
        &["card C {", "}"],
        &["component C {", "}"],
        &["agent A {", "}"],
        &["together {", "class A", "class B", "}"],
        &["package p {", "class A"],
        &["}"],
        &["package p {", "}", "}"],
        &["set separator ::", "class a::B"],
        &["set separator none", "class a.B"],
        &["set namespaceSeparator ::", "class a::B"],
        &["package p {", "class A", "}", "p.A --> B"],
        &["package p {", "}", "package q {", "}", "p --> q"],
    ];
    for lines in packages {
        out.push(anchored("class-package", lines));
    }
    let notes: &[&[&str]] = &[
        &["note left of Anchor : x"],
        &["note right of Anchor : x"],
        &["note top of Anchor : x"],
        &["note bottom of Anchor : x"],
        &["note left of Missing : x"],
        &["note left : x"],
        &["note of Anchor : x"],
        &["note left of Anchor #pink : x"],
        &["note left of Anchor", "text", "end note"],
        &["note left of Anchor", "text", "endnote"],
        &["note left of Anchor", "text"],
        &["note \"x\" as N"],
        &["note \"x\" as N", "N .. Anchor"],
        &["note as N", "text", "end note"],
        &["note as N", "text", "end note", "N --> Anchor"],
        &["note \"x\""],
        &["class B", "Anchor --> B", "note on link : x"],
        &["class B", "Anchor --> B", "note left on link : x"],
        &["class B", "Anchor --> B", "note on link", "x", "end note"],
        &["note on link : x"],
        &["note left of Anchor::field : x"],
        &["note over Anchor : x"],
        &["note left of \"Anchor\" : x"],
    ];
    for lines in notes {
        out.push(anchored("class-note", lines));
    }
}

fn commands(out: &mut Vec<Case>) {
    let lines = [
        "hide empty members",
        "hide members",
        "hide methods",
        "hide fields",
        "hide attributes",
        "hide circle",
        "hide stereotype",
        "hide Anchor",
        "hide Anchor members",
        "hide <<S>> circle",
        "hide class circle",
        "hide @unlinked",
        "show Anchor methods",
        "remove Anchor",
        "remove @unlinked",
        "restore Anchor",
        "hide private members",
        "left to right direction",
        "top to bottom direction",
        "right to left direction",
        "allowmixing",
        "allow_mixing",
        "skinparam classAttributeIconSize 0",
        "skinparam class {",
        "title A title",
        "newpage",
        "newpage x",
        "scale 2",
        "url of Anchor is [[http://x]]",
        "Anchor <<S>>",
        "!theme plain",
        "footer f",
        "caption c",
        "legend",
    ];
    for line in lines {
        let case = match line {
            "skinparam class {" => anchored("class-command", &[line, "BackgroundColor pink", "}"]),
            "legend" => anchored("class-command", &[line, "text", "endlegend"]),
            _ => anchored("class-command", &[line]),
        };
        out.push(case);
    }
    // Mixed elements, with and without `allowmixing`.
    for element in [
        "actor X",
        "usecase X",
        "component X",
        "node X",
        "rectangle X",
        "() X",
        "<> X",
        "file X [",
        "[X]",
    ] {
        let lines: Vec<&str> = if element.ends_with('[') {
            vec![element, "text", "]"]
        } else {
            vec![element]
        };
        out.push(anchored("class-mixing", &lines));
        let mut mixed = vec!["allowmixing"];
        mixed.extend(lines.iter().copied());
        out.push(anchored("class-mixing", &mixed));
    }
}

fn objects(out: &mut Vec<Case>) {
    let cases: &[&[&str]] = &[
        &["object o"],
        &["object o {", "name = \"x\"", "}"],
        &["object \"Long\" as o"],
        &["object o #pink"],
        &["map m {", "k => v", "}"],
        &["map m {", "k => v", "k2 => v2", "}"],
        &["map m {", "k *-> Anchor", "}"],
        &["map m"],
        &["json j {", "\"a\": 1", "}"],
        &["json j {", "\"a\": {", "\"b\": [1, 2]", "}", "}"],
        &["json j"],
        &["json j {", "\"a\": 1"],
        &["entity E {", "* id : int", "--", "name : text", "}"],
        &["entity E", "entity F", "E ||--o{ F"],
        &["entity E", "entity F", "E }|..|| F"],
        &["entity E", "entity F", "E |o--o| F"],
        &["entity E", "entity F", "E }o--|{ F"],
    ];
    for lines in cases {
        out.push(anchored("class-object", lines));
    }
}

/// The mistakes people and language models make: Mermaid's class syntax,
/// Java written as PlantUML, misplaced keywords.
fn mistakes(out: &mut Vec<Case>) {
    let cases: &[&[&str]] = &[
        &["classDiagram", "class A"],
        &["class A~T~"],
        &["class A {", "<<interface>>", "}"],
        &["A <|-- B : extends"],
        &["A : +int x"],
        &["A \"1\" --> \"*\" B : has"],
        &["class A {", "+method() bool", "}"],
        &["class A extends"],
        &["class A implements"],
        &["class A extends B, C"],
        &["class A extends B extends C"],
        &["interface I extends J"],
        &["A extends B"],
        &["A implements B"],
        &["class A<T extends Comparable<T>>"],
        &["class A<? super T>"],
        &["class A<T>> "],
        &["class A<<T>>"],
        &["class A<T"],
        &["class A {", "+ x"],
        &["class A {{", "}"],
        &["class A {", "}}"],
        &["A --|| B"],
        &["A <--> B"],
        &["A <|--|> B"],
        &["A -->> B"],
        &["A --o| B"],
        &["A ->> B"],
        &["A ~~> B"],
        &["A --* B : a : b"],
        &["public class A"],
        &["private class A"],
        &["class A;"],
        &["class A {", "public int x;", "}"],
        &["class A {", "void run() {", "}", "}"],
        &["class A : B"],
        &["class A(B)"],
        &["A -- B -- C"],
        &["A, B --> C"],
        &["classDiagram-v2"],
        &["direction LR"],
        &["direction TB"],
        // Settled for the named class-diagram mistakes (E0130-E0136) and
        // the lines their repairs write.
        &["<<interface>> A"],
        &["<<Interface>> Shape"],
        &["class A", "<<interface>> A"],
        &["interface A"],
        &["class A", "interface A"],
        &["class A <<interface>>"],
        &["class A { +int x }"],
        &["class A {+int x}"],
        &["class A { + x ; + y }"],
        &["class A {", "+ x ; + y", "}"],
        &["note for A \"text\""],
        &["class A", "note for A \"text\""],
        &["class A", "note right of A : text"],
        &["class A[\"Label\"]"],
        &["class \"Label\" as A"],
        &["style A fill:#f9f"],
        &["classDef foo fill:#f9f"],
        &["cssClass \"A\" foo"],
        &["%% comment"],
        &["click A href \"http://x\""],
        &["callback A \"fn\""],
        &["link A \"http://x\""],
        &["+ x"],
        &["+run()"],
        &["int x"],
        &["+ x : int"],
        &["- run() : void"],
        &["{static} x"],
        &["class A", "+ x"],
        &["class A", "A : + x"],
        &["class A {", "+ x", "}", "+ y"],
        &["class A extends B<T>"],
        &["class A extends B<T> implements C<T>"],
        &["class A implements Comparable<A>"],
        &["interface I<T> extends J<T>"],
        &["class A extends B<T>, C {", "}"],
        &["class A extends B<T> {", "}"],
        &["class A extends B<T>", "{", "}"],
        &["class A extends B<T> implements C {", "}"],
        &["class A extends B<T> implements C<T> {", "}"],
        &["class A implements Comparable<A> {}"],
        &["class A implements Comparable<A> {", "}"],
        &["class A extends a.b.C<T>"],
        &["class A<T>>", "{", "}"],
        &["class A<T>"],
        &["A implements B, C"],
        &["B <|.. A", "C <|.. A"],
        &["class A extends B implements"],
        &["final class A"],
        &["public abstract class A"],
        &["public interface I"],
        &["interface I : J, K"],
        &["interface I extends J, K"],
        &["direction RL"],
        &["direction BT"],
        &["left to right direction"],
        &["A ..|>> B"],
        &["A --|>> B"],
        &["A -->o B"],
        &["A -- B", "B -- C"],
        &["A --> C", "B --> C"],
        &["class A extends B <<S>>"],
    ];
    for lines in cases {
        out.push(anchored("class-mistake", lines));
    }
}
