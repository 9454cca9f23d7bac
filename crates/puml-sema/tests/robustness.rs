//! Bad input never panics, never overflows the stack, and the tree always
//! reproduces its input.

use puml_sema::{analyze, AnalysisOptions, NoIncludes};

fn check_lossless_and_analyze(text: &str) {
    let parse = puml_syntax::parse(text);
    assert_eq!(parse.syntax().text().to_string(), text);
    let _ = analyze(text, &AnalysisOptions::default(), &NoIncludes);
}

#[test]
fn ten_thousand_nested_groups() {
    let depth = 10_000;
    let mut text = String::from("@startuml\n");
    for i in 0..depth {
        text.push_str(&format!("alt level {i}\n"));
    }
    text.push_str("A -> B : deep\n");
    for _ in 0..depth {
        text.push_str("end\n");
    }
    text.push_str("@enduml\n");
    let analysis = analyze(&text, &AnalysisOptions::default(), &NoIncludes);
    assert!(
        analysis.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        analysis.diagnostics.first()
    );
    assert_eq!(analysis.document.diagrams[0].events.len(), 2 * depth + 1);
}

#[test]
fn unclosed_deep_nesting_reports_every_group() {
    let text = format!("@startuml\n{}@enduml\n", "loop\n".repeat(500));
    let analysis = analyze(&text, &AnalysisOptions::default(), &NoIncludes);
    let unclosed = analysis
        .diagnostics
        .iter()
        .filter(|d| d.code == puml_sema::codes::UNCLOSED_GROUP)
        .count();
    assert_eq!(unclosed, 500);
}

#[test]
fn odd_inputs() {
    for text in [
        "",
        "\u{feff}",
        "@startuml",
        "@enduml",
        "@startuml\n@startuml\n@enduml\n@enduml\n",
        "\0\0\0binary\u{1}\u{2}",
        "@startuml\n\"\n\"\"\"\n[\n]\n->\n<-\n::::\n@enduml",
        "@startuml\nparticipant X [\n",
        "@startuml\nskinparam x {\n{\n",
        "@startuml\nA -> B : \u{202e}rtl\u{202c} <script>\n@enduml",
        "@startuml\n!include /etc/passwd\n@enduml",
        "@startuml\nA -[\n@enduml",
        "@startuml\nA -[#red\n@enduml",
        "@startuml\n/'\n",
        "\r\n\r",
    ] {
        check_lossless_and_analyze(text);
    }
}

/// A small deterministic generator (no dependency needed for a fixed seed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn seeds() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut texts = Vec::new();
    for dir in [
        root.join("../shared/corpus"),
        root.join("test-data/syntax/ok"),
        root.join("test-data/syntax/err"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "puml"))
            .collect();
        paths.sort();
        for path in paths {
            if let Ok(text) = std::fs::read_to_string(&path) {
                texts.push(text);
            }
        }
    }
    assert!(!texts.is_empty());
    texts
}

/// Random byte insertions, deletions and line swaps over every seed file,
/// with a fixed seed: no panic, and a lossless tree every time.
#[test]
fn mutations_never_panic_and_stay_lossless() {
    const PIECES: &[&str] = &[
        "\n", "\"", "[", "]", "->", "--", "<<", ">>", "#", ":", "end", "note", "alt", "/'", "'/", "\\", "\r", "é", "{",
        "}", "!", "@enduml", "\t", "++",
    ];
    let seeds = seeds();
    let mut rng = Lcg(0x5EED_0F09_u64);
    let mut cases = 0;
    while cases < 3000 {
        let seed = &seeds[rng.below(seeds.len())];
        let mut text = seed.clone();
        for _ in 0..1 + rng.below(4) {
            match rng.below(3) {
                0 => {
                    let mut at = rng.below(text.len() + 1);
                    while !text.is_char_boundary(at) {
                        at -= 1;
                    }
                    text.insert_str(at, PIECES[rng.below(PIECES.len())]);
                }
                1 if !text.is_empty() => {
                    let mut start = rng.below(text.len());
                    while !text.is_char_boundary(start) {
                        start -= 1;
                    }
                    let mut end = (start + 1 + rng.below(8)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(start..end, "");
                }
                _ => {
                    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
                    if lines.len() > 1 {
                        let a = rng.below(lines.len());
                        let b = rng.below(lines.len());
                        lines.swap(a, b);
                    }
                    text = lines.concat();
                }
            }
        }
        check_lossless_and_analyze(&text);
        cases += 1;
    }
}
