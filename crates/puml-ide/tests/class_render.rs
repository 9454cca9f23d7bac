//! Class diagrams never make the renderer panic: seeded mutations of
//! `../shared/corpus-class` (lines dropped, duplicated, swapped, cut in half,
//! braces and arrows inserted) are each rendered to SVG through the same
//! path as `puml render`, and every answer is a picture or a refusal.

use puml_ide::render::{render_source, RenderOptions};
use puml_sema::FsLoader;
use std::path::{Path, PathBuf};

/// `../shared` beside the checkout, or `PUML_SHARED_DIR` for a checkout
/// that does not sit beside it (a worktree elsewhere).
fn shared() -> PathBuf {
    match std::env::var_os("PUML_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Mutated inputs rendered (each file's small mutations; kept small so
/// that the suite stays well under a minute in debug builds).
const INPUTS: usize = 600;
/// Seeds longer than this are skipped (the big diagrams are measured by
/// `graph_fidelity.rs` already).
const MAX_SEED_LINES: usize = 120;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INSERTS: &[&str] = &[
    "}",
    "{",
    "A --> B",
    "A \"1\" *-- \"many\" B : label >",
    "package p {",
    "note left of A : n",
    "hide empty members",
    "left to right direction",
    "class C<T> <<S>> #red {",
    "-- title --",
    "A -[hidden]-> A",
    "A -up-|> A",
    "(A, B) .. C",
    "skinparam classAttributeIconSize 0",
];

fn mutate(seed: &str, rng: &mut Lcg) -> String {
    let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        if lines.len() < 3 {
            break;
        }
        // Keep `@startuml` and `@enduml` where they are.
        let at = 1 + rng.below(lines.len() - 2);
        match rng.below(5) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let line = lines[at].clone();
                lines.insert(at, line);
            }
            2 => {
                let other = 1 + rng.below(lines.len() - 2);
                lines.swap(at, other);
            }
            3 => {
                let line = &lines[at];
                let cut = line
                    .char_indices()
                    .map(|(i, _)| i)
                    .nth(line.chars().count() / 2)
                    .unwrap_or(0);
                lines[at] = line[..cut].to_string();
            }
            _ => lines.insert(at, INSERTS[rng.below(INSERTS.len())].to_string()),
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_class_diagrams_render_or_are_refused() {
    let corpus = shared().join("corpus-class");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        eprintln!("{} not present: nothing to mutate", corpus.display());
        return;
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    let seeds: Vec<String> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|s| s.lines().count() <= MAX_SEED_LINES)
        .collect();
    assert!(!seeds.is_empty(), "no class diagrams to mutate");
    let mut rng = Lcg(0x00c1_a55e);
    let options = RenderOptions::default();
    let mut pictures = 0;
    for i in 0..INPUTS {
        let input = mutate(&seeds[i % seeds.len()], &mut rng);
        let rendered = std::panic::catch_unwind(|| render_source(&input, &options, &FsLoader));
        match rendered {
            Ok(Ok(pages)) => {
                for page in pages {
                    let svg = String::from_utf8_lossy(&page.bytes);
                    assert!(
                        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
                        "{input:?}"
                    );
                    assert!(!svg.contains("NaN") && !svg.contains("inf\""), "{input:?}");
                }
                pictures += 1;
            }
            Ok(Err(_)) => {}
            Err(_) => panic!("rendering panicked on:\n{input}"),
        }
    }
    println!("{pictures} of {INPUTS} mutated class diagrams drawn, the rest refused");
    assert!(
        pictures > INPUTS / 3,
        "most mutations still draw a picture ({pictures})"
    );
}
