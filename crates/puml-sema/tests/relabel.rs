//! The label-edit shortcut (`reanalyze_label_edit`) gives exactly the
//! analysis a full lowering gives, and is taken for ordinary typing in labels.

use puml_sema::{analyze_parsed, reanalyze_label_edit, AnalysisOptions, NoIncludes};
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

/// What people type into labels, and what could change a label's meaning
/// or the statement's shape (a colon, a quote, markup, a line break).
const PIECES: &[&str] = &[
    "a", " ", "é", "😀", "x y", ":", "\"", "<b>", "#red", "->", "++", "\\n", "\\", "[", "]", "'", "/'", "<<s>>", "@",
    "!", "\t", "|", "&", "--", "**", "{a}", ";", "\n",
];

/// An edit at a random place, or (more often) inside a message's label.
fn edit(text: &str, rng: &mut Rng) -> String {
    let labels: Vec<usize> = text
        .match_indices(" : ")
        .map(|(at, _)| at + 3)
        .filter(|&at| text[at..].find('\n').is_some_and(|n| n > 0))
        .collect();
    let mut at = if labels.is_empty() || rng.below(4) == 0 {
        rng.below(text.len() + 1)
    } else {
        let start = labels[rng.below(labels.len())];
        let line_len = text[start..].find('\n').unwrap_or(0);
        start + rng.below(line_len + 1)
    };
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut out = String::with_capacity(text.len() + 8);
    if rng.below(3) == 0 {
        let mut end = (at + 1 + rng.below(3)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push_str(&text[..at]);
        out.push_str(&text[end..]);
    } else {
        out.push_str(&text[..at]);
        out.push_str(PIECES[rng.below(PIECES.len())]);
        out.push_str(&text[at..]);
    }
    out
}

#[test]
fn label_edits_give_the_full_analysis() {
    let files = sample_files();
    assert!(files.len() >= 20, "sample files found: {}", files.len());
    let options = AnalysisOptions::default();
    let mut rng = Rng(0x5eed_1abe1);
    let (mut shortcuts, mut edits) = (0usize, 0usize);
    for path in &files {
        let Ok(original) = std::fs::read_to_string(path) else {
            continue;
        };
        let original_parse = puml_syntax::parse(&original);
        let original_analysis = analyze_parsed(&original, &original_parse, &options, &NoIncludes);
        let (mut text, mut parse, mut analysis) = (String::new(), original_parse.clone(), original_analysis.clone());
        for round in 0..30 {
            // Chains of five edits from the file as written: one stray
            // character in a block sends its later edits the slow way.
            if round % 5 == 0 {
                text = original.clone();
                parse = original_parse.clone();
                analysis = original_analysis.clone();
            }
            let next = edit(&text, &mut rng);
            let next_parse = parse.reparse(&text, &next);
            let full = analyze_parsed(&next, &next_parse, &options, &NoIncludes);
            if let Some(quick) = reanalyze_label_edit(&parse, &analysis, &next_parse) {
                shortcuts += 1;
                assert_eq!(quick, full, "{}: edit {text:?} -> {next:?}", path.display());
            }
            edits += 1;
            text = next;
            parse = next_parse;
            analysis = full;
        }
    }
    // Most edits land in labels, but many files have errors (the mutants)
    // or use the preprocessor, where the shortcut stands aside.
    assert!(
        shortcuts >= 1_000 && shortcuts * 8 >= edits,
        "shortcut taken for {shortcuts} of {edits} edits"
    );
    println!("label shortcut: {shortcuts} of {edits} edits");
}
