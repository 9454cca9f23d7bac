use crate::{debug_dump, parse};

fn assert_lossless(text: &str) {
    let parse = parse(text);
    assert_eq!(parse.syntax().text().to_string(), text, "tree text differs from input");
}

#[test]
fn lossless_on_awkward_inputs() {
    for text in [
        "",
        "\n",
        "\u{feff}@startuml\r\nA -> B : hi\r\n@enduml",
        "@startuml\n\tA->B\t \n",
        "/' open comment\nA -> B",
        "@startuml\nnote left\nno end\n@enduml\n",
        "@startuml\nparticipant \"unterminated\nA ->\n-> B\n@enduml",
        "@startuml\nparticipant X [\n=Title\n]\n@enduml\n",
        "\r\r\n\n",
        "é->ü: 🎉\n",
    ] {
        assert_lossless(text);
    }
}

#[test]
fn message_tree() {
    let parse = parse("@startuml\nAlice -> Bob ++ : hello\n@enduml\n");
    let dump = debug_dump(&parse.syntax());
    expect_test::expect![[r#"
        ROOT@0..42
          DIAGRAM@0..42
            START_LINE@0..10
              KEYWORD@0..9 "@startuml"
              NEWLINE@9..10 "\n"
            MESSAGE@10..34
              IDENT@10..15 "Alice"
              WHITESPACE@15..16 " "
              ARROW@16..18 "->"
              WHITESPACE@18..19 " "
              IDENT@19..22 "Bob"
              WHITESPACE@22..23 " "
              LIFECYCLE@23..25 "++"
              WHITESPACE@25..26 " "
              COLON@26..27 ":"
              WHITESPACE@27..28 " "
              TEXT@28..33 "hello"
              NEWLINE@33..34 "\n"
            END_LINE@34..42
              KEYWORD@34..41 "@enduml"
              NEWLINE@41..42 "\n"
    "#]]
    .assert_eq(&dump);
    assert!(parse.errors().is_empty());
}

/// A block of another language (`@startmindmap`) is one diagram: its
/// start line, its lines as one `BODY` of text, its end line; nothing in
/// it is read as a statement, and an edit inside it re-parses as a full
/// parse does.
#[test]
fn a_foreign_block_is_an_opaque_diagram() {
    let text =
        "@startuml\nA -> B\n@enduml\n@startmindmap\n* root\n** child\n@endmindmap\n@startgantt\n[T] lasts 5 days\n";
    assert_lossless(text);
    let parse = parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let tags: Vec<Option<String>> = parse.root().diagrams().map(|d| d.foreign_tag()).collect();
    assert_eq!(tags, vec![None, Some("mindmap".into()), Some("gantt".into())]);
    let dump = debug_dump(&parse.syntax());
    assert!(dump.contains("BODY@") && !dump.contains("MESSAGE@34"), "{dump}");
    for (old, new) in [
        ("* root", "* rooted"),
        ("* root\n** child", "* a\nA -> B : m"),
        ("[T] lasts", "[T] last"),
    ] {
        let edited = text.replacen(old, new, 1);
        assert_eq!(parse.reparse(text, &edited), crate::parse(&edited), "{edited}");
    }
}

/// The word-at-a-time newline search finds what a byte-by-byte one finds,
/// from every start, with newlines at every position of a word, beside
/// bytes that differ from `\n` by one bit or borrow into it.
#[test]
fn newline_search_agrees_with_a_byte_scan() {
    let mut texts: Vec<Vec<u8>> = vec![Vec::new(), b"\n".to_vec(), b"abc".to_vec()];
    for len in 1..40 {
        for at in 0..len {
            for filler in [b'a', 0x0b, 0x09, 0x8a, 0x00, 0x01, 0xff] {
                let mut bytes = vec![filler; len];
                bytes[at] = b'\n';
                texts.push(bytes.clone());
                if at + 3 < len {
                    bytes[at + 3] = b'\n';
                    texts.push(bytes);
                }
            }
        }
    }
    texts.push("é\u{2028}x\r\ny\n\nz".as_bytes().to_vec());
    for bytes in &texts {
        for from in 0..=bytes.len() {
            let expected = bytes[from..].iter().position(|&b| b == b'\n').map(|i| from + i);
            assert_eq!(super::find_newline(bytes, from), expected, "{bytes:?} from {from}");
        }
    }
}

/// The line splitter's offsets agree with a plain reading of its rule
/// (a line ending in one `\`, outside a `'` comment and not last, joins
/// the next; `\r\n` and `\n` end lines), on awkward texts and every file
/// of the syntax test data.
#[test]
fn split_lines_agrees_with_the_plain_rule() {
    fn plain(text: &str) -> Vec<(usize, String, String)> {
        let mut lines = Vec::new();
        let mut start = 0;
        let mut logical = String::new();
        let mut physical_start = 0;
        while physical_start < text.len() {
            let Some(nl) = text[physical_start..].find('\n').map(|i| physical_start + i) else {
                logical.push_str(&text[physical_start..]);
                lines.push((start, std::mem::take(&mut logical), String::new()));
                return lines;
            };
            let physical = &text[physical_start..nl];
            let (body, newline) = match physical.strip_suffix('\r') {
                Some(body) => (body, "\r\n"),
                None => (physical, "\n"),
            };
            let joined = body.ends_with('\\')
                && !body.ends_with("\\\\")
                && nl + 1 < text.len()
                && !body.trim_start().starts_with('\'');
            logical.push_str(body);
            if joined {
                logical.push_str(newline);
            } else {
                lines.push((start, std::mem::take(&mut logical), newline.to_string()));
                start = nl + 1;
            }
            physical_start = nl + 1;
        }
        lines
    }
    let mut texts: Vec<String> = [
        "",
        "\n",
        "a\\\nb\n",
        "a\\\r\nb\r\n",
        "a\\\\\nb\n",
        "' c \\\nb\n",
        "x\\\n  ' c \\\nb\\\n",
        "x\\",
        "x\\\n",
        "\r\n\r\n",
        "\r",
        "a\rb\n",
        "é\\\nü 🎉\nlast",
        "0123456789abcdef\n0123456\\\n789abcdef0123456789\\\r\nend",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    texts.extend(syntax_test_texts());
    assert!(texts.len() > 50, "{} texts", texts.len());
    for text in &texts {
        let split: Vec<(usize, String, String)> = super::split_lines(text)
            .iter()
            .map(|l| (l.start, l.content.to_string(), l.newline.to_string()))
            .collect();
        assert_eq!(split, plain(text), "{text:?}");
    }
}

/// Every text of `test-data/syntax/{ok,err}`: real inputs for the tests that
/// hold a fast path to its plain rule.
pub(super) fn syntax_test_texts() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/syntax");
    let mut texts = Vec::new();
    for dir in ["ok", "err"] {
        for entry in std::fs::read_dir(root.join(dir)).into_iter().flatten().flatten() {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                texts.push(text);
            }
        }
    }
    texts
}
