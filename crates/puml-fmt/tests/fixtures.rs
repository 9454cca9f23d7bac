//! Snapshot tests: `test-data/fmt/NAME.puml` formats to `NAME.formatted`
//! (`UPDATE_EXPECT=1 cargo test -p puml-fmt --test fixtures` refreshes).

use puml_fmt::{format, FormatOptions};
use std::path::PathBuf;

#[test]
fn fmt_fixtures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/fmt");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test-data/fmt exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 4, "expected the fmt fixtures");
    for input in &inputs {
        let text = std::fs::read_to_string(input).unwrap();
        let formatted = format(&text, &FormatOptions::default());
        expect_test::expect_file![input.with_extension("formatted")].assert_eq(&formatted);
    }
}

#[test]
fn indent_width_is_configurable() {
    let text = "@startuml\nalt x\nA -> B\nend\n@enduml\n";
    let formatted = format(text, &FormatOptions { indent_width: 4 });
    assert_eq!(formatted, "@startuml\nalt x\n    A -> B\nend\n@enduml\n");
}

#[test]
fn crlf_line_endings_are_kept() {
    let text = "@startuml\r\nalt x\r\nA->B\r\nend\r\n@enduml\r\n";
    let formatted = format(text, &FormatOptions::default());
    assert_eq!(formatted, "@startuml\r\nalt x\r\n  A -> B\r\nend\r\n@enduml\r\n");
}
