//! The generated workflow behind `cargo xtask bench-workflow` and the test
//! that checks it imports cleanly: `n` activities with prompt notes in
//! four swimlanes, in a rotation of plain steps, `if`/`else`, `fork` and
//! `repeat` blocks, each step reading the previous one's output.

pub fn generated_diagram(activities: usize) -> String {
    let lanes = ["Planner", "Researcher", "Writer", "Reviewer"];
    let colors = ["LightBlue", "LightGreen", "LightCoral", "Gold"];
    let mut out = String::from("@startuml\ntitle Generated workflow\n\n");
    for (lane, color) in lanes.iter().zip(colors) {
        out.push_str(&format!("|#{color}|{lane}|\n"));
    }
    out.push_str(
        "\nstart\nnote right\n  <<input>>\n  variables:\n    - name: out0\n      type: string\n      required: true\nend note\n",
    );
    let mut i = 0;
    let step = |out: &mut String, i: usize, indent: &str| {
        out.push_str(&format!(
            "{indent}|{}|\n{indent}:Step {i};\n{indent}note right\n{indent}  <<prompt>>\n{indent}  template: step-{}\n{indent}  input: {{{{out{}}}}}\n{indent}  output: out{}\n{indent}end note\n",
            lanes[i % lanes.len()],
            i % 7,
            // Every step reads an output defined before its block.
            i.saturating_sub(1) / 2 * 2,
            i + 1
        ));
    };
    while i < activities {
        match (i / 2) % 4 {
            0 => {
                step(&mut out, i, "");
                i += 1;
            }
            1 => {
                out.push_str(&format!(
                    "if (out{}.score > 0.5?) then (yes)\n",
                    i.saturating_sub(1) / 2 * 2
                ));
                step(&mut out, i, "  ");
                out.push_str("else (no)\n");
                step(&mut out, i + 1, "  ");
                out.push_str("endif\n");
                i += 2;
            }
            2 => {
                out.push_str("fork\n");
                step(&mut out, i, "  ");
                out.push_str("fork again\n");
                step(&mut out, i + 1, "  ");
                out.push_str("end fork\n");
                i += 2;
            }
            _ => {
                out.push_str("repeat\n");
                step(&mut out, i, "  ");
                step(&mut out, i + 1, "  ");
                out.push_str(&format!(
                    "repeat while (out{}.done == false?) is (again)\n->done;\n",
                    i + 2
                ));
                i += 2;
            }
        }
    }
    out.push_str("stop\n@enduml\n");
    out
}
