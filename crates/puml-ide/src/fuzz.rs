//! A seeded mutation fuzzer over real diagrams, shared by the fuzz test in
//! `cargo test` (a fixed budget) and `cargo xtask fuzz --minutes N`.
//!
//! Each input is a seed diagram changed by a few random edits (PlantUML
//! tokens inserted, lines dropped, duplicated, swapped or cut, characters
//! replaced, lines spliced in from another diagram). Every input goes
//! through what a user can reach: parse, check, format, fix, incremental
//! edits through an [`AnalysisHost`], and rendering to SVG and text, and
//! must keep the invariants listed by [`check_input`]. The inputs are
//! deterministic for a seed, so a failure found once is found again.

use crate::check::CheckOptions;
use crate::render::{Format, RenderFailure, RenderOptions};
use crate::AnalysisHost;
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use puml_syntax::{SyntaxKind, TextEdit, TextRange, TextSize};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A small, fast, deterministic generator (SplitMix64): the fuzzer needs
/// reproducible streams, not cryptographic quality.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Fragments of the sequence language and of the mistakes people make
/// with it, inserted at random places.
const TOKENS: &[&str] = &[
    "->",
    "-->",
    "<-",
    "<--",
    "->>",
    "-\\",
    "-/",
    "->x",
    "o->o",
    "<->",
    "[->",
    "->]",
    "?->",
    "->?",
    "-[#red]->",
    "-[#blue,dashed]>",
    "-[bold]->",
    "-[hidden]->",
    "->(3)",
    "++",
    "--",
    "**",
    "!!",
    " ++ #gold",
    ":",
    " : ",
    "\"",
    "\"\"",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    "<<",
    ">>",
    "<<stereo>>",
    "#red",
    "#",
    "&",
    "\\",
    "\\n",
    "/'",
    "'/",
    "'",
    "as",
    " as X",
    "participant ",
    "actor ",
    "boundary ",
    "database ",
    "queue ",
    "collections ",
    "create ",
    "destroy ",
    "activate ",
    "deactivate ",
    "return ",
    "return",
    "alt",
    "else",
    "opt",
    "loop",
    "par",
    "break",
    "critical",
    "group",
    "end",
    "end note",
    "endloop",
    "note left",
    "note over A, B",
    "note right of A: x",
    "hnote",
    "rnote",
    "ref over A",
    "end ref",
    "box",
    "end box",
    "autonumber",
    "autonumber 10 5 \"<b>[000]\"",
    "newpage",
    "title",
    "header",
    "footer",
    "legend",
    "endlegend",
    "skinparam ",
    "skinparam sequence {",
    "<style>",
    "</style>",
    "!theme plain",
    "!include x.puml",
    "!define X Y",
    "!$x = 1",
    "!if $x",
    "!endif",
    "!procedure $p($a)",
    "!endprocedure",
    "$p(1)",
    "%date()",
    "@startuml",
    "@enduml",
    "@startmindmap",
    "...",
    "|||",
    "||45||",
    "== sep ==",
    "hide footbox",
    "mainframe x",
    "teoz",
    "!pragma teoz true",
    "{start}",
    "{end} <-> {start} : d",
    "<b>",
    "</b>",
    "<color:red>",
    "**bold**",
    "~~",
    "\u{e9}",
    "\u{4e2d}",
    "\u{1F600}",
    "\u{202e}",
    "\t",
    "\r",
    "\0",
    " ",
    "\n",
    "\n\n",
    "rect",
    "sequenceDiagram",
    "A->>B: hi",
    "class A",
    ":action;",
    "if (x) then",
    "endif",
];

/// Makes one input from `seeds`: a seed diagram and 1–4 edits. Returns the
/// seed's index and the edits in the order they apply (each range is in
/// the text as left by the previous edits).
pub fn mutate(rng: &mut Rng, seeds: &[String]) -> (usize, Vec<TextEdit>) {
    let index = rng.below(seeds.len());
    let mut text = seeds[index].clone();
    let mut edits = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let edit = one_edit(rng, &text, seeds);
        let (next, _) = puml_syntax::apply_edits(&text, std::slice::from_ref(&edit));
        text = next;
        edits.push(edit);
    }
    (index, edits)
}

/// The byte offsets where lines start, plus the end of the text.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if *starts.last().unwrap_or(&0) != text.len() {
        starts.push(text.len());
    }
    starts
}

/// A char boundary at or before `offset`.
fn boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
}

fn one_edit(rng: &mut Rng, text: &str, seeds: &[String]) -> TextEdit {
    let starts = line_starts(text);
    let lines = starts.len().saturating_sub(1).max(1);
    let line = rng.below(lines);
    let line_start = starts.get(line).copied().unwrap_or(0);
    let line_end = starts.get(line + 1).copied().unwrap_or(text.len());
    let anywhere = boundary(text, rng.below(text.len() + 1));
    match rng.below(9) {
        // A token at a random place, or at the start or end of a line.
        0..=2 => {
            let at = match rng.below(3) {
                0 => anywhere,
                1 => line_start,
                _ => boundary(text, line_end.saturating_sub(1).max(line_start)),
            };
            let mut token = rng.pick(TOKENS).to_string();
            if rng.chance(3) {
                token.push(' ');
                token.push_str(rng.pick(TOKENS));
            }
            TextEdit::insert(TextSize::from(at as u32), token)
        }
        // Drop a line, or a short run of bytes.
        3 => TextEdit::delete(range(line_start, line_end)),
        4 => {
            let end = boundary(text, anywhere + 1 + rng.below(12));
            TextEdit::delete(range(anywhere, end.max(anywhere)))
        }
        // Duplicate a line (sometimes many times), or move one elsewhere.
        5 => {
            let copies = if rng.chance(8) { 2 + rng.below(60) } else { 1 };
            let content = text[line_start..line_end].to_string();
            let mut copy = content.clone();
            if !copy.ends_with('\n') {
                copy.insert(0, '\n');
            }
            TextEdit::insert(TextSize::from(line_end as u32), copy.repeat(copies))
        }
        // Cut the text short (an editor mid-typing).
        6 => TextEdit::delete(range(anywhere, text.len())),
        // Replace one character with another, sometimes multi-byte.
        7 => {
            let end = boundary(text, anywhere + 1);
            let end = if end == anywhere {
                text[anywhere..]
                    .chars()
                    .next()
                    .map_or(anywhere, |c| anywhere + c.len_utf8())
            } else {
                end
            };
            let replacement =
                ['"', ':', '>', '-', '#', '\\', '[', '\n', '\u{e9}', ' ', '@', '!', '{'][rng.below(13)].to_string();
            TextEdit::replace(range(anywhere, end), replacement)
        }
        // Splice a line from another diagram.
        _ => {
            let other = &seeds[rng.below(seeds.len())];
            let other_starts = line_starts(other);
            let pick = rng.below(other_starts.len().saturating_sub(1).max(1));
            let from = other_starts.get(pick).copied().unwrap_or(0);
            let to = other_starts.get(pick + 1).copied().unwrap_or(other.len());
            let mut spliced = other[from..to].to_string();
            if !spliced.ends_with('\n') {
                spliced.push('\n');
            }
            TextEdit::insert(TextSize::from(line_start as u32), spliced)
        }
    }
}

fn comment_count(text: &str) -> usize {
    puml_syntax::parse(text)
        .syntax()
        .descendants_with_tokens()
        .filter(|e| matches!(e.kind(), SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT))
        .count()
}

/// Diagnostic codes, with the preprocessor's work bounds read as one: a
/// runaway expansion trips whichever bound it reaches first, and
/// re-indenting the file changes how much text it makes.
fn sorted_codes(diagnostics: &[puml_syntax::Diagnostic]) -> Vec<&'static str> {
    use puml_sema::preprocess::codes::{OUTPUT_LIMIT, WORK_LIMIT};
    let mut codes: Vec<&'static str> = diagnostics
        .iter()
        .map(|d| if d.code == OUTPUT_LIMIT { WORK_LIMIT } else { d.code })
        .collect();
    codes.sort();
    codes
}

/// The invariants every input keeps; returns what broke (empty when all
/// hold):
/// - the syntax tree reproduces the text byte for byte;
/// - formatting is idempotent, keeps the model, the comments and adds no
///   diagnostic;
/// - `--fix` never leaves more errors and never changes an error-free text;
/// - an error-free text renders to SVG and text art, or is refused with a
///   size-limit reason, never anything else.
pub fn check_input(text: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let parse = puml_syntax::parse(text);
    if parse.syntax().text() != text {
        failures.push("the syntax tree does not reproduce the text".to_string());
    }
    let options = AnalysisOptions::default();
    let analysis = analyze(text, &options, &NoIncludes);

    let format_options = puml_fmt::FormatOptions::default();
    let once = puml_fmt::format(text, &format_options);
    if once != text {
        if puml_fmt::format(&once, &format_options) != once {
            failures.push("formatting is not idempotent".to_string());
        }
        let after = analyze(&once, &options, &NoIncludes);
        // A runaway expansion is cut where a work bound trips, and
        // indentation changes where: the cut-off model is no meaning.
        let cut = |a: &puml_sema::Analysis| {
            use puml_sema::preprocess::codes::{OUTPUT_LIMIT, WORK_LIMIT};
            a.diagnostics
                .iter()
                .any(|d| d.code == OUTPUT_LIMIT || d.code == WORK_LIMIT)
        };
        // `%date()`/`%now()` read the clock, which may tick between the two analyses.
        let reads_clock = text.contains("%date") || text.contains("%now");
        if after.document != analysis.document && !cut(&analysis) && !cut(&after) && !reads_clock {
            failures.push("formatting changed the model".to_string());
        }
        if comment_count(&once) != comment_count(text) {
            failures.push("formatting changed the number of comments".to_string());
        }
        // Codes as a set: a line that a preprocessor loop repeats may be
        // reported once per round or once in all, as its mapping allows.
        let before = sorted_codes(&analysis.diagnostics);
        let mut added = sorted_codes(&after.diagnostics);
        added.dedup();
        for code in added.into_iter().filter(|c| !before.contains(c)) {
            failures.push(format!("formatting added the diagnostic {code}"));
        }
    }

    failures.extend(outline_failures(text, &analysis));

    let outcome = crate::fix::fix_all(text, &CheckOptions::default(), &NoIncludes);
    if outcome.errors_after > outcome.errors_before {
        failures.push(format!(
            "--fix left {} errors where there were {}",
            outcome.errors_after, outcome.errors_before
        ));
    }
    if outcome.errors_before == 0 && outcome.source != text {
        failures.push("--fix changed a text without errors".to_string());
    }

    if !analysis.diagnostics.iter().any(|d| d.is_error()) {
        for format in [Format::Svg, Format::Txt] {
            let render_options = RenderOptions {
                format,
                ..RenderOptions::default()
            };
            match crate::render::render_source(text, &render_options, &NoIncludes) {
                Ok(pages) => {
                    if format == Format::Svg
                        && pages.iter().any(|p| {
                            let svg = String::from_utf8_lossy(&p.bytes);
                            !svg.starts_with("<?xml") && !svg.starts_with("<svg") || !svg.trim_end().ends_with("</svg>")
                        })
                    {
                        failures.push("an SVG page is not a whole SVG document".to_string());
                    }
                }
                Err(
                    RenderFailure::NoDiagram
                    | RenderFailure::Layout(_)
                    | RenderFailure::Render(_)
                    | RenderFailure::OtherDiagramKind(_),
                ) => {}
                Err(other) => failures.push(format!("render to {} failed: {other}", format.name())),
            }
        }
    }
    failures
}

/// The activity outline's shape: a block's parent comes before it and is
/// one level out, a closer follows its opener (in text the preprocessor did
/// not expand), every range lies in the text.
fn outline_failures(text: &str, analysis: &puml_sema::Analysis) -> Vec<String> {
    let mut failures = Vec::new();
    let end = puml_syntax::TextSize::from(text.len() as u32);
    for outline in crate::outline::activity_outlines(text, analysis) {
        for (index, block) in outline.blocks.iter().enumerate() {
            let parent_depth = block.parent.and_then(|p| outline.blocks.get(p).filter(|_| p < index));
            let nested = match (block.parent, parent_depth) {
                (None, _) => block.depth == 0,
                (Some(_), Some(parent)) => block.depth == parent.depth + 1,
                (Some(_), None) => false,
            };
            if !nested {
                failures.push(format!("outline block {index} is misnested"));
            }
            // Preprocessed text maps expanded lines back to where they were
            // written (a procedure's body, its call), which need not be in order.
            if !analysis.preprocessed && block.closer.is_some_and(|c| c.start() < block.opener.end()) {
                failures.push(format!("outline block {index} closes before it opens"));
            }
            if block.opener.end() > end || block.closer.is_some_and(|c| c.end() > end) {
                failures.push(format!("outline block {index} lies past the text"));
            }
        }
    }
    failures
}

/// Applies `edits` one by one to a host holding `base` (the incremental
/// path an editor takes) and checks that its diagnostics after each edit
/// equal those of a fresh analysis of the same text.
pub fn check_edits(base: &str, edits: &[TextEdit]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut host = AnalysisHost::new();
    let file = host.add_file(None, base.to_string());
    // Read once so that the next edit has an old parse to reuse.
    let _ = host.analysis().diagnostics(file);
    let mut text = base.to_string();
    for (step, edit) in edits.iter().enumerate() {
        if host.edit_file(file, edit.range, &edit.new_text).is_err() {
            failures.push(format!("edit {step} was refused as out of bounds"));
            return failures;
        }
        text = puml_syntax::apply_edits(&text, std::slice::from_ref(edit)).0;
        let analysis = host.analysis();
        let (Ok(incremental), Ok(held)) = (analysis.diagnostics(file), analysis.file_text(file)) else {
            failures.push("a snapshot was cancelled with no newer edit".to_string());
            return failures;
        };
        if held != text {
            failures.push(format!("after edit {step} the host holds another text"));
            return failures;
        }
        let fresh = analyze(&text, &AnalysisOptions::default(), &NoIncludes).diagnostics;
        // `%date()`/`%now()` read the clock, which moves between the two.
        let reads_clock = text.contains("%date") || text.contains("%now");
        if incremental != fresh && !reads_clock {
            let show = |d: Option<&puml_syntax::Diagnostic>| {
                d.map_or("nothing".to_string(), |d| {
                    format!("{} at {:?}: {}", d.code, d.range, d.message)
                })
            };
            let at = incremental.iter().zip(&fresh).take_while(|(a, b)| a == b).count();
            failures.push(format!(
                "after edit {step} the incremental diagnostics differ from a fresh analysis: {} instead of {}",
                show(incremental.get(at)),
                show(fresh.get(at))
            ));
        }
    }
    failures
}

/// One failing input and what it broke.
#[derive(Debug, Clone)]
pub struct Failure {
    pub input: String,
    pub problems: Vec<String>,
    /// The seed and the text after each edit (the last is `input`): what
    /// an editor sends, for replaying a failure of the incremental path.
    pub steps: Vec<String>,
}

impl Failure {
    /// Whether only the incremental path failed (the final text alone
    /// keeps every invariant), so the steps are needed to replay it.
    pub fn needs_steps(&self) -> bool {
        self.problems
            .iter()
            .all(|p| p.starts_with("after edit") || p.starts_with("edit "))
    }
}

/// The texts after each of `edits`, starting with `base`.
pub fn steps(base: &str, edits: &[TextEdit]) -> Vec<String> {
    let mut texts = vec![base.to_string()];
    for edit in edits {
        let next = puml_syntax::apply_edits(texts.last().map_or("", String::as_str), std::slice::from_ref(edit)).0;
        texts.push(next);
    }
    texts
}

/// One edit that turns `old` into `new` (their common prefix and suffix
/// kept), for replaying recorded steps.
pub fn diff_edit(old: &str, new: &str) -> TextEdit {
    let mut prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let max_suffix = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    TextEdit::replace(range(prefix, old.len() - suffix), &new[prefix..new.len() - suffix])
}

/// Replays recorded steps through the incremental path.
pub fn check_steps(steps: &[String]) -> Vec<String> {
    let Some(base) = steps.first() else {
        return Vec::new();
    };
    let edits: Vec<TextEdit> = steps.windows(2).map(|w| diff_edit(&w[0], &w[1])).collect();
    check_case(base, &edits)
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub inputs: usize,
    pub failures: Vec<Failure>,
    /// The slowest input's time, and the input.
    pub slowest: Duration,
    /// The slowest case: the seed and the text after each edit.
    pub slowest_steps: Vec<String>,
}

/// When to stop a run.
#[derive(Debug, Clone, Copy)]
pub enum Budget {
    Inputs(usize),
    Time(Duration),
}

/// Checks one input: its invariants, its edits from the seed, panics.
pub fn check_case(seed_text: &str, edits: &[TextEdit]) -> Vec<String> {
    let text = edits.iter().fold(seed_text.to_string(), |text, edit| {
        puml_syntax::apply_edits(&text, std::slice::from_ref(edit)).0
    });
    let run = std::panic::catch_unwind(|| {
        let mut problems = check_input(&text);
        problems.extend(check_edits(seed_text, edits));
        problems
    });
    run.unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        vec![format!("panicked: {message}")]
    })
}

/// Runs the fuzzer over `seeds` in `shards` threads: shard `i` draws its
/// inputs from `seed + i`, so a run with the same seed and shard count
/// checks the same inputs on any machine.
pub fn run(seeds: &[String], seed: u64, shards: usize, budget: Budget, timeout: Duration) -> Report {
    let shards = shards.clamp(1, 64);
    let shard_budget = |i: usize| match budget {
        Budget::Inputs(n) => Budget::Inputs(n / shards + usize::from(i < n % shards)),
        time => time,
    };
    // A panic inside a case is caught and reported; keep its message off
    // the output (the hook is global: set once here, not per shard).
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..shards)
            .map(|i| scope.spawn(move || run_shard(seeds, seed.wrapping_add(i as u64), shard_budget(i), timeout)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| Report {
                    failures: vec![Failure {
                        input: String::new(),
                        problems: vec!["a fuzz shard panicked".into()],
                        steps: Vec::new(),
                    }],
                    ..Report::default()
                })
            })
            .collect()
    });
    std::panic::set_hook(hook);
    let mut report = Report::default();
    for shard in reports {
        report.inputs += shard.inputs;
        if shard.slowest > report.slowest {
            report.slowest = shard.slowest;
            report.slowest_steps = shard.slowest_steps;
        }
        report.failures.extend(shard.failures);
    }
    report
}

/// One shard of [`run`]. Each input runs on a worker thread; one that takes
/// longer than `timeout` is a failure and ends the shard (its thread cannot
/// be stopped, so the caller should exit soon after).
fn run_shard(seeds: &[String], seed: u64, budget: Budget, timeout: Duration) -> Report {
    let mut report = Report::default();
    if seeds.is_empty() {
        return report;
    }
    let started = Instant::now();
    let mut rng = Rng::new(seed);
    let (request_tx, request_rx) = mpsc::channel::<(String, Vec<TextEdit>)>();
    let (answer_tx, answer_rx) = mpsc::channel::<Vec<String>>();
    let worker = std::thread::Builder::new()
        .name("fuzz-worker".into())
        .stack_size(64 << 20)
        .spawn(move || {
            for (seed_text, edits) in request_rx {
                if answer_tx.send(check_case(&seed_text, &edits)).is_err() {
                    break;
                }
            }
        });
    let Ok(worker) = worker else {
        report.failures.push(Failure {
            input: String::new(),
            problems: vec!["could not start the worker thread".into()],
            steps: Vec::new(),
        });
        return report;
    };
    loop {
        let done = match budget {
            Budget::Inputs(n) => report.inputs >= n,
            Budget::Time(limit) => started.elapsed() >= limit,
        };
        if done {
            break;
        }
        let (index, edits) = mutate(&mut rng, seeds);
        let texts = steps(&seeds[index], &edits);
        let input = texts.last().cloned().unwrap_or_default();
        let case_started = Instant::now();
        if request_tx.send((seeds[index].clone(), edits)).is_err() {
            break;
        }
        report.inputs += 1;
        match answer_rx.recv_timeout(timeout) {
            Ok(problems) => {
                if case_started.elapsed() > report.slowest {
                    report.slowest = case_started.elapsed();
                    report.slowest_steps = texts.clone();
                }
                if !problems.is_empty() {
                    report.failures.push(Failure {
                        input,
                        problems,
                        steps: texts,
                    });
                }
            }
            Err(_) => {
                report.failures.push(Failure {
                    input,
                    problems: vec![format!("did not finish within {timeout:?}")],
                    steps: texts,
                });
                return report;
            }
        }
    }
    drop(request_tx);
    let _ = worker.join();
    report
}

/// A file name for a failing input: stable for the same text.
pub fn failure_file_name(input: &str) -> String {
    // FNV-1a: short, stable across runs and platforms.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in input.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    format!("case-{hash:016x}.input")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let seeds = vec!["@startuml\nA -> B : hi\n@enduml\n".to_string()];
        let a: Vec<_> = (0..50)
            .map({
                let mut rng = Rng::new(7);
                move |_| mutate(&mut rng, &seeds.clone())
            })
            .collect();
        let seeds = vec!["@startuml\nA -> B : hi\n@enduml\n".to_string()];
        let b: Vec<_> = (0..50)
            .map({
                let mut rng = Rng::new(7);
                move |_| mutate(&mut rng, &seeds.clone())
            })
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|(_, edits)| edits.len() > 1));
    }

    #[test]
    fn the_checks_see_a_broken_invariant() {
        // A text whose render is refused for errors is not a render
        // failure; but a panic inside a case is reported, not propagated.
        let problems = check_case("x", &[TextEdit::insert(TextSize::from(5), "y")]);
        assert!(!problems.is_empty(), "an out-of-bounds edit must be reported");
    }
}
