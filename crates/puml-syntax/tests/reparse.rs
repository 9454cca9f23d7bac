//! Incremental re-parsing gives exactly the tree and the errors of a full
//! parse, and takes its fast path for ordinary one-line edits.

use puml_syntax::{fast_reparse_count, parse, Parse};
use std::path::{Path, PathBuf};

/// xorshift64: a fixed seed, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn sample_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // `../shared` beside the main checkout, also seen from a worktree nested deeper.
    let shared = root
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|s| s.join("corpus").is_dir())
        .unwrap_or_else(|| root.join("../shared"));
    let mut files = Vec::new();
    for dir in [
        root.join("test-data/syntax/ok"),
        root.join("test-data/syntax/err"),
        root.join("test-data/examples"),
        shared.join("corpus"),
        shared.join("corpus-mutants"),
        shared.join("corpus-activity"),
    ] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "puml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Characters that open and close constructs, start comments, continue
/// lines, or are ordinary text.
const PIECES: &[&str] = &[
    "a", " ", "#", ":", "-", ">", "<", "\"", "[", "]", "{", "}", "\\", "/", "'", "@", "!", "(", ")", "*", "+", "é",
    "note", "end", "alt ", "as ", "\t", "|", "&", "?", "=", ".",
];

fn edit(text: &str, rng: &mut Rng) -> String {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut out = String::with_capacity(text.len() + 8);
    match rng.below(3) {
        0 => {
            out.push_str(&text[..at]);
            out.push_str(PIECES[rng.below(PIECES.len())]);
            out.push_str(&text[at..]);
        }
        1 => {
            let mut end = (at + 1 + rng.below(3)).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            out.push_str(&text[..at]);
            out.push_str(&text[end..]);
        }
        _ => {
            let mut end = (at + 1).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            out.push_str(&text[..at]);
            out.push_str(PIECES[rng.below(PIECES.len())]);
            out.push_str(&text[end..]);
        }
    }
    out
}

/// Re-parses, reporting whether the one-statement fast path ran.
fn reparse_counted(old: &Parse, old_text: &str, new_text: &str) -> (Parse, bool) {
    let before = fast_reparse_count();
    let parse = old.reparse(old_text, new_text);
    (parse, fast_reparse_count() > before)
}

#[test]
fn reparse_equals_parse() {
    let files = sample_files();
    assert!(!files.is_empty());
    let mut rng = Rng(0x5eed_cafe_f00d);
    let (mut edits, mut incremental) = (0usize, 0usize);
    for path in &files {
        let Ok(original) = std::fs::read_to_string(path) else {
            continue;
        };
        let mut text = original;
        let mut current: Parse = parse(&text);
        // A chain of edits: each re-parse starts from the previous one.
        for _ in 0..12 {
            let next = edit(&text, &mut rng);
            let (reparsed, fast) = reparse_counted(&current, &text, &next);
            let full = parse(&next);
            assert_eq!(
                reparsed.syntax().text().to_string(),
                next,
                "{}: lossless after re-parse",
                path.display()
            );
            assert_eq!(
                reparsed,
                full,
                "{}: re-parse differs from a full parse of\n{next}",
                path.display()
            );
            edits += 1;
            incremental += usize::from(fast);
            text = next;
            current = reparsed;
        }
    }
    println!(
        "{edits} edits over {} files, {incremental} re-parsed incrementally",
        files.len()
    );
    assert!(
        incremental * 3 > edits,
        "the fast path ran for only {incremental} of {edits} edits"
    );
}

#[test]
fn typing_a_label_reuses_the_tree() {
    let mut text = String::from("@startuml\n");
    for i in 0..200 {
        text.push_str(&format!("A -> B : message {i}\n"));
    }
    text.push_str("@enduml\n");
    let mut current = parse(&text);
    let at = text.find("message 100").unwrap() + "message 100".len();
    for ch in "abc def".chars() {
        let mut next = text.clone();
        next.insert(at, ch);
        let (reparsed, fast) = reparse_counted(&current, &text, &next);
        assert!(fast);
        assert_eq!(reparsed, parse(&next));
        text = next;
        current = reparsed;
    }
}

/// Typing goes on in the line edited last (the re-parse finds it by the
/// previous one's record), then moves to other lines, before and after it
/// and at its very end: each step equals a full parse.
#[test]
fn typing_in_one_line_then_others() {
    let mut text = String::from("@startuml\n");
    for i in 0..60 {
        text.push_str(&format!("A -> B : message {i}\n"));
    }
    text.push_str("@enduml\n");
    let mut current = parse(&text);
    let places = [
        ("message 30", 0),
        ("message 30", 1),
        ("message 30", 2),
        ("message 10", 0),
        ("message 50", 0),
        ("message 50", 0),
    ];
    for (step, (label, extra)) in places.into_iter().enumerate() {
        let at = text.find(label).unwrap() + label.len() + extra;
        let mut next = text.clone();
        next.insert(at, char::from(b'a' + step as u8));
        let (reparsed, fast) = reparse_counted(&current, &text, &next);
        assert!(fast, "step {step}");
        assert_eq!(reparsed, parse(&next), "step {step}");
        text = next;
        current = reparsed;
    }
    // The next line, then the very start of the line after the last
    // edited one (its end, exclusive: the next line's text).
    let at = text.find("message 51").unwrap();
    let mut next = text.clone();
    next.insert(at, 'z');
    let (reparsed, _) = reparse_counted(&current, &text, &next);
    assert_eq!(reparsed, parse(&next));
    let at = text.find("message 50").unwrap();
    let line_end = at + text[at..].find('\n').unwrap() + 1;
    let mut after = next.clone();
    after.insert(line_end, 'y');
    let (reparsed, _) = reparse_counted(&reparsed, &next, &after);
    assert_eq!(reparsed, parse(&after));
}

/// After an edit past the lines that decide a block's kind, the re-parse
/// trusts that decision; an edit of those lines must still decide again
/// (here it turns the block into an activity diagram).
#[test]
fn an_edit_of_the_deciding_lines_decides_the_kind_again() {
    let mut text = String::from("@startuml\n' comment\nA -> B : first\n");
    for i in 0..100 {
        text.push_str(&format!("B -> A : message {i}\n"));
    }
    text.push_str("@enduml\n");
    let mut current = parse(&text);
    let at = text.find("message 50").unwrap() + "message 50".len();
    for _ in 0..2 {
        let mut next = text.clone();
        next.insert(at, 'x');
        let (reparsed, fast) = reparse_counted(&current, &text, &next);
        assert!(fast);
        assert_eq!(reparsed, parse(&next));
        text = next;
        current = reparsed;
    }
    // `A -> B : first` decides; `:A -> B : first` (an activity action
    // line now) flips the block, which only a full parse reads.
    let at = text.find("A -> B : first").unwrap();
    let mut next = text.clone();
    next.insert(at, ':');
    let (reparsed, fast) = reparse_counted(&current, &text, &next);
    assert!(!fast);
    assert_eq!(reparsed, parse(&next));
}

/// A broken sequence block whose description reading stops on its last
/// line: fixing that line makes it a description diagram, which the fast
/// path must not miss (the class reading stopped long before).
#[test]
fn an_edit_that_completes_the_description_reading_decides_the_kind_again() {
    let mut text = String::from("@startuml\nactor User\nUser -> Shop : hello\nUser --> (Buy)\n");
    for i in 0..20 {
        text.push_str(&format!("[Cart{i}] ..> (Buy)\n"));
    }
    text.push_str("activate User\n@enduml\n");
    let text = text.as_str();
    let current = parse(text);
    let next = text.replace("activate User", "[Cart] --> (Pay)");
    let (reparsed, _) = reparse_counted(&current, text, &next);
    assert_eq!(reparsed, parse(&next));
    assert_eq!(parse(&next).diagram_kinds(), &[puml_syntax::DiagramKind::Description]);
}

#[test]
fn edits_that_change_structure_fall_back() {
    let text = "@startuml\nnote left of A\nx\nA -> B : hi\n@enduml\n";
    let current = parse(text);
    // Closing the unterminated note two lines later changes the earlier block.
    let next = text.replace("A -> B : hi", "end note");
    let (reparsed, fast) = reparse_counted(&current, text, &next);
    assert!(!fast);
    assert_eq!(reparsed, parse(&next));
    let text = "@startuml\nA -> B : one\nA -> B : two\n@enduml\n";
    let current = parse(text);
    for next in [
        text.replace("A -> B : one", "note left of A"),
        text.replace("A -> B : one", "A -> B : one \\"),
        text.replace("A -> B : one", "/' A -> B"),
        text.replace("A -> B : one", "@enduml"),
        text.replace("A -> B : one", ""),
        text.replace("one\n", "one\nA -> C\n"),
    ] {
        let (reparsed, fast) = reparse_counted(&current, text, &next);
        assert!(!fast, "{next}");
        assert_eq!(reparsed, parse(&next), "{next}");
    }
}

/// The green-tree views the semantic layer reads agree with the cursor API.
#[test]
fn green_views_agree_with_cursor_views() {
    use puml_syntax::ast::{self, GreenStatement, Tok};
    use puml_syntax::SyntaxKind;
    let mut statements = 0;
    for path in sample_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let parse = parse(&text);
        for diagram in parse.root().diagrams() {
            for node in diagram.statements() {
                let green_data = node.green();
                let green = GreenStatement {
                    green: &green_data,
                    start: node.text_range().start(),
                };
                assert_eq!(green.kind(), node.kind());
                // The underlined range, computed through the cursor API:
                // from the first to the last token that is not a blank.
                let solid: Vec<_> = node
                    .descendants_with_tokens()
                    .filter_map(|e| e.into_token())
                    .filter(|t| !matches!(t.kind(), SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE))
                    .map(|t| t.text_range())
                    .collect();
                let expected = match (solid.first(), solid.last()) {
                    (Some(first), Some(last)) if first.start() < last.end() => {
                        puml_syntax::TextRange::new(first.start(), last.end())
                    }
                    _ => puml_syntax::TextRange::empty(node.text_range().start()),
                };
                let text = node.text();
                assert_eq!(green.range(), expected, "{}: {text:?}", path.display());
                let cursor_tokens = ast::significant_tokens(&node);
                let expected: Vec<Tok> = cursor_tokens.iter().map(Tok::from).collect();
                assert_eq!(green.significant_tokens(), expected);
                assert_eq!(green.significant_tokens_and_range(), (expected, green.range()));
                let below: Vec<_> = node
                    .descendants_with_tokens()
                    .filter_map(|e| e.into_token())
                    .map(|t| (t.kind(), t.text().to_string(), t.text_range()))
                    .collect();
                let green_below: Vec<_> = green
                    .descendant_tokens()
                    .into_iter()
                    .map(|t| (t.kind, t.text.to_string(), t.range))
                    .collect();
                assert_eq!(green_below, below);
                assert_eq!(green.text(), text.to_string());
                assert_eq!(green.ends_with_newline(), text.to_string().ends_with('\n'));
                assert_eq!(green.full_range(), node.text_range());
                let children: Vec<_> = green.child_nodes().map(|c| (c.kind(), c.full_range())).collect();
                let expected: Vec<_> = node.children().map(|c| (c.kind(), c.text_range())).collect();
                assert_eq!(children, expected);
                statements += 1;
            }
        }
    }
    assert!(statements > 1000, "only {statements} statements seen");
}

/// The kinds the parser records for its diagrams (what lowering reads)
/// are the kinds `ast::Diagram::is_activity` decides again from the text.
#[test]
fn recorded_diagram_kinds_agree_with_the_text() {
    let (mut diagrams, mut activity) = (0, 0);
    for path in sample_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let parse = parse(&text);
        let decided: Vec<bool> = parse.root().diagrams().map(|d| d.is_activity()).collect();
        assert_eq!(parse.activity_diagrams(), decided.as_slice(), "{}", path.display());
        diagrams += decided.len();
        activity += decided.iter().filter(|&&a| a).count();
    }
    assert!(
        diagrams > 300 && activity > 10,
        "{diagrams} diagrams, {activity} activity"
    );
}

/// A caller passing the wrong old text gets a full parse, not a panic.
#[test]
fn mismatched_old_text_falls_back() {
    let text = "@startuml\nA -> B : é one\nA -> B : two\n@enduml\n";
    let current = parse(text);
    for wrong_old in ["", "@startuml\n", "@startuml\nA -> B : xé one\nA -> B : two\n@enduml\n"] {
        let next = text.replace("two", "three");
        let (reparsed, _) = reparse_counted(&current, wrong_old, &next);
        assert_eq!(reparsed, parse(&next));
    }
}
