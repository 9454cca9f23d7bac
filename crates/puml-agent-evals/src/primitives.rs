//! Whether a diagram uses a primitive: arrow kinds, participant kinds and
//! groups from `puml_explain`, everything else from the source's lines.

use serde_json::Value;

/// `Some(true|false)`, or `None` for a name this table does not know.
pub fn present(name: &str, source: &str, explain: &Value) -> Option<bool> {
    let lines: Vec<&str> = source.lines().map(str::trim).collect();
    let starts = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    let contains = |needle: &str| lines.iter().any(|l| l.contains(needle));
    let arrow = |kind: &str| {
        explain["flow"]
            .as_array()
            .is_some_and(|f| f.iter().any(|m| m["arrow_kind"] == kind))
    };
    let kind = |k: &str| {
        explain["participants"]
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["kind"] == k))
    };
    let group = |k: &str| lines.iter().any(|l| l.split_whitespace().next() == Some(k));
    fn is_declaration(l: &str) -> bool {
        [
            "participant ",
            "actor ",
            "boundary ",
            "control ",
            "entity ",
            "database ",
            "collections ",
            "queue ",
        ]
        .iter()
        .any(|k| l.starts_with(k))
    }
    let declarations: Vec<&str> = lines.iter().copied().filter(|l| is_declaration(l)).collect();
    Some(match name {
        "participant" | "actor" | "boundary" | "control" | "entity" | "database" | "collections" | "queue" => {
            kind(name)
        }
        "explicit_participants" => !declarations.is_empty(),
        "alias" => declarations.iter().any(|l| l.contains(" as ")),
        "quoted_name" => declarations.iter().any(|l| l.contains('"')),
        "stereotype" => declarations.iter().any(|l| l.contains("<<") && l.contains(">>")),
        "order" => declarations.iter().any(|l| l.contains(" order ")),
        "box" => starts("box"),
        "sync" | "async" | "reply" | "lost" | "found" | "self" => arrow(name),
        "bidirectional" => contains("<->"),
        "lost_x" => contains("->x ") || contains("->x\t"),
        "styled_arrow" => contains("-[#"),
        "short_arrow" => contains("?->") || contains("->?"),
        "multiline_label" => contains("\\n"),
        "autonumber" => starts("autonumber"),
        "note" => starts("note ") || starts("hnote ") || starts("rnote "),
        "note_over" => starts("note over"),
        "note_across" => starts("note across"),
        "note_on_message" => lines.iter().any(|l| {
            *l == "note left" || *l == "note right" || l.starts_with("note left :") || l.starts_with("note right :")
        }),
        "block_note" => starts("end note"),
        "ref" => starts("ref over"),
        "block_ref" => starts("end ref"),
        "alt" | "opt" | "loop" | "par" | "break" | "critical" | "group" => group(name),
        "else" => group("else"),
        "nested_groups" => {
            let mut depth = 0i32;
            let mut max = 0;
            for l in &lines {
                let first = l.split_whitespace().next().unwrap_or("");
                if ["alt", "opt", "loop", "par", "break", "critical", "group"].contains(&first) {
                    depth += 1;
                    max = max.max(depth);
                } else if first == "end"
                    && !l.starts_with("end note")
                    && !l.starts_with("end ref")
                    && !l.starts_with("end box")
                {
                    depth -= 1;
                }
            }
            max >= 2
        }
        "activate" => starts("activate "),
        "deactivate" => starts("deactivate "),
        "activation_shorthand" => contains(" ++") || contains(" --"),
        "create" => starts("create ") || contains(" ** "),
        "destroy" => starts("destroy ") || contains(" !!"),
        "autoactivate" => starts("autoactivate on"),
        "return" => starts("return"),
        "theme" => starts("!theme "),
        "skinparam" => starts("skinparam "),
        "style" => starts("<style>"),
        "hide_footbox" => starts("hide footbox"),
        "color" => declarations.iter().any(|l| l.contains(" #")),
        "include" => starts("!include"),
        "define" => starts("!define "),
        "variable" => starts("!$"),
        "procedure" => starts("!procedure "),
        "conditional" => starts("!if ") || starts("!ifdef "),
        "title" => starts("title"),
        "divider" => lines
            .iter()
            .any(|l| l.starts_with("==") && l.ends_with("==") && l.len() > 4),
        "delay" => starts("..."),
        "space" => starts("|||") || starts("||"),
        "newpage" => starts("newpage"),
        "legend" => starts("legend"),
        "caption" => starts("caption "),
        "header_footer" => starts("header ") || starts("footer "),
        _ => return None,
    })
}
