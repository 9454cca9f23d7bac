//! Diagrams in a text, and what kind each one is.
//!
//! PlantUML reads every `@startXXX … @endXXX` block of a file as one
//! diagram and ignores the text between them; in `-pipe` mode and on its
//! server a text with no `@start` line at all is one `@startuml` diagram.
//! The kind comes from the start tag (`@startmindmap`, `@startgantt`, …)
//! and, for `@startuml`, from the content: PlantUML tries each diagram type
//! and keeps the first that reads every line. puml draws sequence and
//! activity diagrams, so what matters here is recognising the others and
//! naming them as PlantUML does, so that the error says what was found.

/// One diagram of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The diagram's lines, from its start line to its end line (included);
    /// the end line is added when the text had none.
    pub text: String,
    /// 0-based line of the start line in the whole text (0 for a text
    /// that had no start line: the added one is not counted).
    pub first_line: usize,
    /// Lines added in front of the text's own (1 when `@startuml` was added).
    pub added_lines: usize,
    /// The start tag's word: `uml`, `mindmap`, `gantt`, …
    pub tag: String,
    /// `@startuml name` or `@startuml(id=name)`, if given.
    pub name: Option<String>,
}

/// The kind of a diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiagramKind {
    Sequence,
    /// Any other kind, named as PlantUML names it (`CLASS`, `MINDMAP`, …).
    Other(&'static str),
}

impl DiagramKind {
    pub fn name(&self) -> &'static str {
        match self {
            DiagramKind::Sequence => "SEQUENCE",
            DiagramKind::Other(name) => name,
        }
    }
}

/// The diagrams of `text`. With `wrap_bare_text`, a text without any start
/// line is one diagram (PlantUML's `-pipe` and server behaviour).
pub fn split_blocks(text: &str, wrap_bare_text: bool) -> Vec<Block> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut blocks = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some(tag) = start_tag(lines[index]) else {
            index += 1;
            continue;
        };
        let start = index;
        let mut end = None;
        for (offset, line) in lines[start + 1..].iter().enumerate() {
            if is_end_line(line) {
                end = Some(start + 1 + offset);
                break;
            }
        }
        let last = end.unwrap_or(lines.len() - 1);
        let mut body: String = lines[start..=last].concat();
        if end.is_none() {
            if !body.ends_with('\n') {
                body.push('\n');
            }
            body.push_str(&format!("@end{tag}\n"));
        }
        blocks.push(Block {
            name: start_name(lines[start]),
            text: body,
            first_line: start,
            added_lines: 0,
            tag,
        });
        index = last + 1;
    }
    if blocks.is_empty() && wrap_bare_text && !text.trim().is_empty() {
        let mut body = String::from("@startuml\n");
        body.push_str(text);
        if !text.ends_with('\n') {
            body.push('\n');
        }
        body.push_str("@enduml\n");
        blocks.push(Block {
            text: body,
            first_line: 0,
            added_lines: 1,
            tag: "uml".into(),
            name: None,
        });
    }
    blocks
}

/// `@startXXX` (case-insensitive, leading spaces allowed) → `xxx`.
fn start_tag(line: &str) -> Option<String> {
    let trimmed = line.trim_start().trim_start_matches('\u{feff}');
    let rest = trimmed.get(..6).filter(|head| head.eq_ignore_ascii_case("@start"))?;
    let word: String = trimmed[rest.len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    (!word.is_empty()).then(|| word.to_ascii_lowercase())
}

fn is_end_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.get(..4).is_some_and(|head| head.eq_ignore_ascii_case("@end"))
}

/// `@startuml name`, `@startuml(id=name)` → the name.
fn start_name(line: &str) -> Option<String> {
    // The same line `start_tag` read: a byte-order mark before it is no part of the name.
    let trimmed = line.trim().trim_start_matches('\u{feff}');
    let after_tag = trimmed[6..].trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let name = if let Some(inner) = after_tag.trim().strip_prefix('(') {
        let inner = inner.trim_end_matches(')');
        inner
            .split(',')
            .find_map(|part| part.trim().strip_prefix("id=").map(str::to_string))
            .unwrap_or_default()
    } else {
        after_tag.trim().trim_matches('"').to_string()
    };
    (!name.is_empty()).then_some(name)
}

/// The kind a start tag fixes, named as PlantUML's SVG names it
/// (`data-diagram-type`; observed with 1.2026.8), `UNKNOWN` for a tag
/// PlantUML does not know, or `None` for `@startuml` (decided by content).
/// The same table as `puml_sema::model::OtherKind` names.
pub fn kind_of_tag(tag: &str) -> Option<DiagramKind> {
    let other = match tag {
        "uml" => return None,
        "mindmap" => "MINDMAP",
        "wbs" => "WBS",
        "gantt" => "GANTT",
        "json" => "JSON",
        "yaml" => "YAML",
        "salt" => "SALT",
        "ditaa" => "DITAA",
        "dot" => "DOT",
        "math" | "latex" => "MATH",
        "nwdiag" => "NWDIAG",
        "regex" => "REGEX",
        "ebnf" => "EBNF",
        "chen" => "CHEN_EER",
        "board" => "BOARD",
        "chart" => "CHART",
        "files" => "FILES",
        "wire" => "WIRE",
        "creole" => "CREOLE",
        "def" => "DEFINITION",
        "git" => "GIT",
        "packetdiag" => "PACKET",
        // PlantUML 1.2026.8 knows no other tag (`@startchronology` is not
        // in this release): "Diagram not supported by this release".
        _ => "UNKNOWN",
    };
    Some(DiagramKind::Other(other))
}

/// For a `@startuml` block whose first error is on `error_line` (0-based):
/// the other kind of diagram it is, if it is one. PlantUML reads a block as
/// another kind only when that kind reads all of it, so a foreign-looking
/// line after sequence statements (an `endif` or `if (…) then` in the middle
/// of messages) is a sequence diagram's error ("Assumed diagram type:
/// sequence"); the block is another kind when its failing line looks
/// foreign and every statement before it is foreign too or could belong to
/// either (settings, `actor`/`entity`/… declarations).
pub fn other_kind_at_error(text: &str, error_line: usize) -> Option<&'static str> {
    let lines: Vec<&str> = text.lines().collect();
    let failing = lines.get(error_line)?.trim();
    if is_neutral(failing) {
        return None;
    }
    let kind = kind_of_line(failing)?;
    for line in &lines[..error_line] {
        let line = line.trim();
        if !(is_neutral(line) || kind_of_line(line).is_some() || is_either_kind_declaration(line)) {
            return None;
        }
    }
    Some(kind)
}

/// Lines every kind of diagram has: blanks, comments, preprocessor,
/// start/end and settings.
fn is_neutral(line: &str) -> bool {
    let word = first_word(line).to_ascii_lowercase();
    line.is_empty()
        || line.starts_with('\'')
        || line.starts_with('@')
        || line.starts_with('!')
        || line.starts_with('}')
        || [
            "skinparam",
            "title",
            "hide",
            "show",
            "scale",
            "header",
            "footer",
            "caption",
            "legend",
            "endlegend",
            "left",
            "top",
            "allowmixing",
            "allow_mixing",
            "<style>",
            "</style>",
            "set",
            "skin",
        ]
        .contains(&word.as_str())
}

/// Declarations a sequence diagram shares with use-case and component ones.
fn is_either_kind_declaration(line: &str) -> bool {
    let word = first_word(line).to_ascii_lowercase();
    [
        "actor",
        "entity",
        "database",
        "collections",
        "queue",
        "boundary",
        "control",
        "participant",
    ]
    .contains(&word.as_str())
}

/// PlantUML's server reads a request's text as one source: a text that does
/// not start with `@start` is wrapped in `@startuml … @enduml` whole; one
/// that does holds one or more blocks, and any other non-blank line is an
/// error on that line. Returns the blocks and the first such stray line
/// (0-based in the text).
pub fn server_blocks(text: &str) -> (Vec<Block>, Option<usize>) {
    let starts_with_block = text
        .trim_start()
        .get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("@start"));
    if !starts_with_block {
        let mut body = String::from("@startuml\n");
        body.push_str(text);
        if !text.ends_with('\n') {
            body.push('\n');
        }
        body.push_str("@enduml\n");
        let block = Block {
            text: body,
            first_line: 0,
            added_lines: 1,
            tag: "uml".into(),
            name: None,
        };
        return (vec![block], None);
    }
    let blocks = split_blocks(text, false);
    let mut inside = vec![false; text.split_inclusive('\n').count()];
    for block in &blocks {
        let lines = block.text.split_inclusive('\n').count();
        for flag in inside.iter_mut().skip(block.first_line).take(lines) {
            *flag = true;
        }
    }
    let stray = text
        .split_inclusive('\n')
        .enumerate()
        .find(|(index, line)| !inside.get(*index).copied().unwrap_or(false) && !line.trim().is_empty())
        .map(|(index, _)| index);
    (blocks, stray)
}

fn first_word(line: &str) -> &str {
    line.split(|c: char| c.is_whitespace() || c == '(' || c == '{' || c == '"')
        .next()
        .unwrap_or("")
}

fn kind_of_line(line: &str) -> Option<&'static str> {
    let word = first_word(line).to_ascii_lowercase();
    let class_keywords = [
        "class",
        "interface",
        "enum",
        "abstract",
        "annotation",
        "struct",
        "protocol",
        "exception",
        "metaclass",
        "stereotype",
        "dataclass",
        "record",
    ];
    if class_keywords.contains(&word.as_str()) && line.split_whitespace().nth(1).is_some() {
        return Some("CLASS");
    }
    for relation in [
        "<|--", "--|>", "<|..", "..|>", "*--", "--*", "o--", "--o ", "\"1\" --", "-- \"", "<|-", "-|>",
    ] {
        if line.contains(relation) {
            return Some("CLASS");
        }
    }
    if ["object", "map"].contains(&word.as_str()) && line.split_whitespace().nth(1).is_some() {
        return Some("OBJECT");
    }
    if word == "state" || line.contains("[*]") {
        return Some("STATE");
    }
    let description = [
        "usecase",
        "component",
        "node",
        "cloud",
        "folder",
        "frame",
        "artifact",
        "storage",
        "rectangle",
        "package",
        "port",
        "portin",
        "portout",
        "card",
        "file",
        "hexagon",
        "label",
        "stack",
        "agent",
        "person",
        "action",
        "process",
        "interface",
        "circle",
    ];
    if description.contains(&word.as_str()) && line.split_whitespace().nth(1).is_some() {
        return Some("DESCRIPTION");
    }
    // Arrows to a `(use case)` or a `[component]`: neither is a sequence participant.
    let to_usecase = line.contains("-> (") || line.contains("->(") || line.contains(") <-") || line.contains(")<-");
    let to_component = line.contains("-> [") || line.contains("] ->") || line.contains("]->") || line.contains("<- [");
    if to_usecase || to_component {
        return Some("DESCRIPTION");
    }
    if (line.starts_with('[')
        && line.contains(']')
        && !line.starts_with("[-")
        && !line.starts_with("[o")
        && !line.starts_with("[x"))
        || (line.starts_with('(') && line.contains(')') && !line.starts_with("(*)"))
    {
        return Some("DESCRIPTION");
    }
    if ["robust", "concise", "clock", "binary", "analog"].contains(&word.as_str()) || line.starts_with('@') {
        return Some("TIMING");
    }
    let activity_starts = [
        "start", "stop", "end", "endif", "endwhile", "fork", "split", "repeat", "detach", "kill",
    ];
    if (line.starts_with(':') && line.ends_with([';', '|', '<', '>', '/', ']', '}']))
        || line.starts_with("(*)")
        || (word == "if" && line.contains("then"))
        || (word == "while" && line.contains('('))
        || (activity_starts.contains(&word.as_str()) && line.split_whitespace().count() == 1 && word != "end")
        || line.starts_with("|") && line.ends_with('|')
    {
        return Some("ACTIVITY");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_blocks_and_names_them() {
        let text = "junk\n@startuml\nA -> B\n@enduml\n\n@startuml second\nC -> D\n@enduml\n@startmindmap(id=m)\n* a\n@endmindmap";
        let blocks = split_blocks(text, true);
        assert_eq!(blocks.len(), 3);
        assert_eq!((blocks[0].first_line, blocks[0].name.as_deref()), (1, None));
        assert_eq!(blocks[0].text, "@startuml\nA -> B\n@enduml\n");
        assert_eq!((blocks[1].first_line, blocks[1].name.as_deref()), (5, Some("second")));
        assert_eq!(
            (blocks[2].tag.as_str(), blocks[2].name.as_deref()),
            ("mindmap", Some("m"))
        );
        assert_eq!(kind_of_tag(&blocks[2].tag), Some(DiagramKind::Other("MINDMAP")));
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_name() {
        let blocks = split_blocks("\u{feff}@startuml flow\nA -> B\n@enduml\n", false);
        assert_eq!(blocks[0].name.as_deref(), Some("flow"));
        let blocks = split_blocks("\u{feff}@startuml\nA -> B\n@enduml\n", false);
        assert_eq!(blocks[0].name, None);
    }

    #[test]
    fn bare_text_is_one_diagram_only_when_asked() {
        assert!(split_blocks("A -> B\n", false).is_empty());
        let blocks = split_blocks("A -> B", true);
        assert_eq!(blocks[0].text, "@startuml\nA -> B\n@enduml\n");
        assert_eq!(blocks[0].added_lines, 1);
        assert!(split_blocks("  \n", true).is_empty());
    }

    #[test]
    fn an_unclosed_block_is_closed() {
        let blocks = split_blocks("@startuml\nA -> B", false);
        assert_eq!(blocks[0].text, "@startuml\nA -> B\n@enduml\n");
    }

    #[test]
    fn server_texts_are_one_source() {
        let (blocks, stray) = server_blocks("\nWhich metrics?\n\n@startuml\nA -> B\n@enduml\n");
        assert_eq!((blocks.len(), blocks[0].added_lines, stray), (1, 1, None));
        assert!(blocks[0].text.contains("Which metrics?"));
        let (blocks, stray) = server_blocks("@startuml\nA -> B\n@enduml\n\nTODO: more\n");
        assert_eq!((blocks.len(), stray), (1, Some(4)));
        let (blocks, stray) = server_blocks("\n@startuml\nA -> B\n@enduml\n\n@startuml\nC -> D\n@enduml\n");
        assert_eq!((blocks.len(), stray), (2, None));
    }

    #[test]
    fn other_kinds_are_recognised() {
        assert_eq!(other_kind_at_error("class Foo\nFoo <|-- Bar", 0), Some("CLASS"));
        assert_eq!(other_kind_at_error("Foo <|-- Bar", 0), Some("CLASS"));
        assert_eq!(other_kind_at_error("start\n:hello;\nstop", 0), Some("ACTIVITY"));
        assert_eq!(other_kind_at_error("[*] --> Idle\nstate Idle", 0), Some("STATE"));
        assert_eq!(other_kind_at_error("component API\n[DB]", 0), Some("DESCRIPTION"));
        assert_eq!(other_kind_at_error("usecase (Login)", 0), Some("DESCRIPTION"));
        assert_eq!(other_kind_at_error("object user", 0), Some("OBJECT"));
        assert_eq!(other_kind_at_error("A -> B : hi\nfoo bar", 1), None);
        assert_eq!(other_kind_at_error("@startuml\nend", 1), None);
        assert_eq!(other_kind_at_error("@startuml\nA -> B\nendif\n@enduml", 2), None);
        assert_eq!(other_kind_at_error("@startuml\nA -> B\nif (ok) then\n@enduml", 2), None);
        assert_eq!(
            other_kind_at_error("@startuml\nskinparam x y\nactor User\nUser -> (Login)\n@enduml", 3),
            Some("DESCRIPTION")
        );
        assert_eq!(
            other_kind_at_error("@startuml\ntitle T\nclass A\n@enduml", 2),
            Some("CLASS")
        );
        assert_eq!(other_kind_at_error("[-> A : found\nA ->] : lost", 0), None);
    }
}
