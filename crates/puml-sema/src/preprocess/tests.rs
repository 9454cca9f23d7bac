//! Snapshot tests over `test-data/preprocess/<case>/main.puml` (with the
//! case directory as include root) and invariants over adversarial input.
//! `UPDATE_EXPECT=1 cargo test -p puml-sema` refreshes `main.expected`.

use super::*;
use puml_syntax::LineIndex;
use std::collections::HashSet;
use std::fmt::Write as _;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/preprocess")
}

fn fixed_options(file: &Path) -> PreprocessOptions {
    PreprocessOptions {
        file_path: Some(file.to_path_buf()),
        now: Some(1_795_325_415),
        ..PreprocessOptions::default()
    }
}

/// Shows a path relative to the case directory, so snapshots do not
/// depend on where the repository lives.
fn shorten(path: &str, case_dir: &Path) -> String {
    let case = include::normalize_lexically(case_dir);
    Path::new(path)
        .strip_prefix(&case)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| path.to_owned())
}

fn position(file: Option<&str>, main_text: &str, offset: TextSize) -> String {
    let text = match file {
        None => main_text.to_owned(),
        Some(path) => std::fs::read_to_string(path).unwrap_or_default(),
    };
    let index = LineIndex::new(&text);
    let lc = index.line_col(&text, offset);
    format!("{}:{}", lc.line, lc.col)
}

use puml_syntax::TextSize;

pub(crate) fn render(result: &Preprocessed, main_text: &str, case_dir: &Path) -> String {
    let mut out = String::new();
    let name = |file: &Option<String>| match file {
        None => "main".to_owned(),
        Some(f) => shorten(f, case_dir),
    };
    writeln!(out, "--- changed: {}", result.changed).ok();
    writeln!(out, "--- text").ok();
    out.push_str(&result.text);
    if !result.text.ends_with('\n') {
        out.push_str("⏎ (no final newline)\n");
    }
    writeln!(out, "--- lines").ok();
    for (i, origin) in result.lines.iter().enumerate() {
        writeln!(
            out,
            "{:>3} <- {}:{}{}",
            i + 1,
            name(&origin.file),
            origin.line + 1,
            if origin.verbatim { "" } else { " (rewritten)" }
        )
        .ok();
    }
    writeln!(out, "--- diagnostics").ok();
    for d in &result.diagnostics {
        let file = d.file.as_deref();
        writeln!(
            out,
            "{} {}[{}] {}-{}: {}",
            name(&d.file),
            d.severity.as_str(),
            d.code,
            position(file, main_text, d.range.start()),
            position(file, main_text, d.range.end()),
            d.message.replace(
                &include::normalize_lexically(case_dir).to_string_lossy().into_owned(),
                "<case>"
            )
        )
        .ok();
        for r in &d.related {
            writeln!(
                out,
                "    related {} {}: {}",
                name(&r.file),
                position(r.file.as_deref(), main_text, r.range.start()),
                r.message
            )
            .ok();
        }
        for f in &d.fixes {
            let edits: Vec<String> = f.edits.iter().map(|e| format!("{:?}", e.new_text)).collect();
            let kind = if f.machine_applicable { "fix" } else { "suggestion" };
            writeln!(out, "    {kind}: {} -> {}", f.title, edits.join(", ")).ok();
        }
    }
    out
}

#[test]
fn snapshot_cases() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("test-data/preprocess exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("main.puml").is_file())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 20,
        "expected the preprocessor cases, found {}",
        dirs.len()
    );
    for dir in dirs {
        let dir = std::fs::canonicalize(&dir).expect("case dir");
        let main = dir.join("main.puml");
        let text = std::fs::read_to_string(&main).expect("main.puml");
        let result = engine::run(&text, &fixed_options(&main), &FsLoader);
        check_invariants(&text, &result);
        expect_test::expect_file![dir.join("main.expected")].assert_eq(&render(&result, &text, &dir));
    }
}

/// What must hold for every input: one origin per output line, origins
/// inside their files, verbatim lines really equal.
fn check_invariants(input: &str, result: &Preprocessed) {
    let out_lines = lines::split_lines(&result.text);
    assert_eq!(out_lines.len(), result.lines.len(), "one origin per output line");
    let input_lines = lines::split_lines(input);
    for (range, origin) in out_lines.iter().zip(&result.lines) {
        if origin.file.is_none() {
            let source = input_lines
                .get(origin.line as usize)
                .unwrap_or_else(|| panic!("origin line {} beyond the input", origin.line));
            if origin.verbatim {
                assert_eq!(&result.text[range.clone()], &input[source.clone()]);
            }
        }
    }
    assert_eq!(result.changed, result.text != input);
}

#[test]
fn plain_diagrams_are_untouched() {
    let text = "@startuml\r\n!theme plain\r\nA -> B : 50% done\r\n@enduml";
    assert!(!needs_preprocessing(text));
    let result = preprocess(text, &PreprocessOptions::default(), &NoIncludes);
    assert!(!result.changed);
    assert_eq!(result.text, text);
    assert_eq!(result.lines.len(), 4);
    // Running the engine itself gives the same answer.
    let full = engine::run(text, &PreprocessOptions::default(), &NoIncludes);
    assert_eq!(full, result);
}

#[test]
fn needs_preprocessing_is_a_line_scan() {
    assert!(!needs_preprocessing(
        "@startuml\n!theme plain\n  !pragma teoz true\nA -> B : $x 100%\n@enduml\n"
    ));
    assert!(needs_preprocessing("@startuml\n  !$x = 1\n@enduml\n"));
    assert!(needs_preprocessing("@startuml\n!include a.iuml\n@enduml\n"));
    assert!(needs_preprocessing("A -> B : %upper(\"x\")\n"));
    assert!(!needs_preprocessing("A -> B : %nobuiltin(\"x\")\n"));
    assert!(!needs_preprocessing(""));
}

/// The scan that tests sixteen bytes at a time for a `!` or a `%` gives
/// the answer of asking every line, wherever in a block the marks fall.
#[test]
fn the_block_scan_agrees_with_asking_every_line() {
    let lines = [
        "A -> B : hello!",
        "  !$x = 1",
        "\t!theme plain",
        "!pragma teoz true",
        "A -> B : 50% done",
        "A -> B : %upper(\"x\")",
        "\u{3000}!include a.iuml",
        "note: ünïcode ! text %",
        "",
        "x!y",
    ];
    for pad in 0..40 {
        for (a, first) in lines.iter().enumerate() {
            for second in &lines[a..] {
                let text = format!(
                    "{}{first}\n{}{second}\r\nA -> B\n",
                    "-".repeat(pad),
                    " ".repeat(pad % 7)
                );
                let by_lines = text.split('\n').any(line_needs_preprocessing);
                assert_eq!(needs_preprocessing(&text), by_lines, "{text:?}");
            }
        }
    }
}

#[test]
fn crlf_input_keeps_line_map() {
    let text = "@startuml\r\n!$x = \"B\"\r\nA -> $x\r\n@enduml\r\n";
    let result = preprocess(text, &PreprocessOptions::default(), &NoIncludes);
    assert_eq!(result.text, "@startuml\nA -> B\n@enduml\n");
    assert_eq!(result.lines.iter().map(|o| o.line).collect::<Vec<_>>(), vec![0, 2, 3]);
    check_invariants(text, &result);
}

#[test]
fn url_include_goes_through_the_loader_only_with_opt_in() {
    struct Remote;
    impl FileLoader for Remote {
        fn load(&self, _: &Path) -> io::Result<String> {
            Err(io::Error::other("no files"))
        }
        fn fetch_url(&self, url: &str) -> io::Result<String> {
            Ok(format!("@startuml\nR -> R : {url}\n@enduml\n"))
        }
    }
    let text = "@startuml\n!include https://example.com/x.puml\n@enduml\n";
    let refused = preprocess(text, &PreprocessOptions::default(), &Remote);
    assert_eq!(refused.diagnostics[0].code, codes::URL_INCLUDE_REFUSED);
    assert!(!refused.text.contains("R -> R"));
    let options = PreprocessOptions {
        allow_url_includes: true,
        ..PreprocessOptions::default()
    };
    let fetched = preprocess(text, &options, &Remote);
    assert!(fetched.diagnostics.is_empty(), "{:?}", fetched.diagnostics);
    assert!(fetched.text.contains("R -> R : https://example.com/x.puml"));
    assert_eq!(fetched.lines[1].file.as_deref(), Some("https://example.com/x.puml"));
    // The default loaders refuse even with the opt-in.
    let default_loader = preprocess(text, &options, &FsLoader);
    assert_eq!(default_loader.diagnostics[0].code, codes::URL_INCLUDE_REFUSED);
    assert!(default_loader.diagnostics[0].message.contains("not available"));
}

#[cfg(unix)]
#[test]
fn symlink_escape_is_refused() {
    let base = std::env::temp_dir().join(format!("puml-preproc-symlink-{}", std::process::id()));
    let root = base.join("root");
    let outside = base.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.iuml"), "SECRET -> X\n").unwrap();
    std::fs::write(root.join("ok.iuml"), "OK -> X\n").unwrap();
    let link = root.join("link.iuml");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(outside.join("secret.iuml"), &link).unwrap();
    let inner_link = root.join("inner.iuml");
    let _ = std::fs::remove_file(&inner_link);
    std::os::unix::fs::symlink(root.join("ok.iuml"), &inner_link).unwrap();
    let main = root.join("main.puml");
    let text = "@startuml\n!include link.iuml\n!include inner.iuml\n@enduml\n";
    let result = preprocess(text, &fixed_options(&main), &FsLoader);
    std::fs::remove_dir_all(&base).ok();
    assert_eq!(result.diagnostics.len(), 1, "{:?}", result.diagnostics);
    assert_eq!(result.diagnostics[0].code, codes::INCLUDE_OUTSIDE_ROOT);
    assert!(!result.text.contains("SECRET"));
    assert!(result.text.contains("OK -> X"), "a symlink inside the root is fine");
}

#[test]
fn stdin_without_root_refuses_includes() {
    let text = "@startuml\n!include foo.iuml\n@enduml\n";
    let result = preprocess(text, &PreprocessOptions::default(), &FsLoader);
    assert_eq!(result.diagnostics[0].code, codes::NO_INCLUDE_ROOT);
}

/// Limits hold for hostile input, and nothing panics.
#[test]
fn runaway_inputs_terminate_with_a_diagnostic() {
    let cases: &[(&str, &str)] = &[
        ("!procedure $p()\n$p()\n!endprocedure\n$p()\n", codes::CALL_DEPTH_LIMIT),
        ("!function $f($n)\n!return $f($n + 1)\n!endfunction\nA -> B : $f(1)\n", codes::CALL_DEPTH_LIMIT),
        ("!$s = \"xx\"\n!while 1\n!$s = $s + $s\n!endwhile\n", codes::OUTPUT_LIMIT),
        ("!while 1\n!endwhile\n", codes::LOOP_LIMIT),
        (
            "!procedure $a()\nA -> B : 0123456789012345678901234567890123456789\nA -> B\n!endprocedure\n!procedure $b()\n$a()\n$a()\n$a()\n$a()\n$a()\n$a()\n$a()\n$a()\n!endprocedure\n!procedure $c()\n$b()\n$b()\n$b()\n$b()\n$b()\n$b()\n$b()\n$b()\n!endprocedure\n!procedure $d()\n$c()\n$c()\n$c()\n$c()\n$c()\n$c()\n$c()\n$c()\n!endprocedure\n!procedure $e()\n$d()\n$d()\n$d()\n$d()\n$d()\n$d()\n$d()\n$d()\n!endprocedure\n!procedure $f()\n$e()\n$e()\n$e()\n$e()\n$e()\n$e()\n$e()\n$e()\n!endprocedure\n$f()\n$f()\n$f()\n$f()\n",
            codes::OUTPUT_LIMIT,
        ),
    ];
    let options = PreprocessOptions {
        max_output_bytes: 1 << 20,
        ..PreprocessOptions::default()
    };
    for (body, code) in cases {
        let text = format!("@startuml\n{body}@enduml\n");
        let result = preprocess(&text, &options, &NoIncludes);
        assert!(
            result.diagnostics.iter().any(|d| d.code == *code),
            "{code} expected for {body:?}, got {:?}",
            result.diagnostics
        );
        assert!(result.text.len() <= options.max_output_bytes + 4096);
        check_invariants(&text, &result);
    }
    let nested_loops =
        "!$i = 0\n!while $i < 1000\n!$j = 0\n!while $j < 1000\n!$j = $j + 1\n!endwhile\n!$i = $i + 1\n!endwhile\n";
    let limited = PreprocessOptions {
        max_steps: 50_000,
        ..PreprocessOptions::default()
    };
    let result = preprocess(nested_loops, &limited, &NoIncludes);
    assert!(result.diagnostics.iter().any(|d| d.code == codes::WORK_LIMIT));
}

/// A fixed-seed mutation run: random edits of a directive-heavy source
/// never panic and always keep the line map consistent.
#[test]
fn mutations_never_panic() {
    let seed_text = std::fs::read_to_string(cases_dir().join("procedures/main.puml")).unwrap_or_default()
        + &std::fs::read_to_string(cases_dir().join("conditions/main.puml")).unwrap_or_default();
    let pieces = [
        "!if ",
        "!endif\n",
        "!else\n",
        "(",
        ")",
        "\"",
        "$x",
        "!procedure $q(",
        "!endprocedure\n",
        "!while 1\n",
        "!endwhile\n",
        "%strlen(",
        ",",
        "\n",
        "!define D(a) a a\n",
        "D(D(",
        "!return ",
        "/'",
        "'/",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    let options = PreprocessOptions {
        max_steps: 20_000,
        max_output_bytes: 64 * 1024,
        ..PreprocessOptions::default()
    };
    for _ in 0..1500 {
        let mut text = seed_text.clone();
        for _ in 0..1 + next(4) {
            let mut at = next(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match next(3) {
                0 => text.insert_str(at, pieces[next(pieces.len())]),
                1 => {
                    let mut end = (at + next(12)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    text.replace_range(at..end, "");
                }
                _ => {
                    let lines: Vec<&str> = text.lines().collect();
                    if lines.len() > 2 {
                        let (a, b) = (next(lines.len()), next(lines.len()));
                        let mut swapped: Vec<&str> = lines.clone();
                        swapped.swap(a, b);
                        text = swapped.join("\n");
                    }
                }
            }
        }
        let result = preprocess(&text, &options, &NoIncludes);
        check_invariants(&text, &result);
    }
}

struct DocExample {
    code: String,
    bad: (String, bool),
    fixed: (String, bool),
}

/// `### Pxxxx …` sections of docs/preprocessor.md with their `Bad:` and
/// `Fixed:` blocks (`puml stdin` marks an example run without a file path).
fn doc_examples(markdown: &str) -> Vec<DocExample> {
    let mut examples = Vec::new();
    let mut code: Option<String> = None;
    let mut label = "";
    let mut block: Option<(String, bool)> = None;
    let mut bad = None;
    for line in markdown.lines() {
        if let Some((text, stdin)) = block.as_mut() {
            if line.starts_with("```") {
                let finished = (std::mem::take(text), *stdin);
                block = None;
                match label {
                    "Bad:" => bad = Some(finished),
                    "Fixed:" => {
                        if let (Some(code), Some(bad)) = (code.clone(), bad.take()) {
                            examples.push(DocExample {
                                code,
                                bad,
                                fixed: finished,
                            });
                        }
                    }
                    _ => {}
                }
            } else {
                text.push_str(line);
                text.push('\n');
            }
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            code = heading
                .split_whitespace()
                .next()
                .filter(|c| c.starts_with('P'))
                .map(str::to_owned);
            bad = None;
        } else if line == "Bad:" || line == "Fixed:" {
            label = if line == "Bad:" { "Bad:" } else { "Fixed:" };
        } else if let Some(info) = line.strip_prefix("```puml") {
            block = Some((String::new(), info.trim() == "stdin"));
        }
    }
    examples
}

#[test]
fn docs_examples() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/preprocessor.md");
    let markdown = std::fs::read_to_string(docs).expect("docs/preprocessor.md");
    let examples = doc_examples(&markdown);
    let fixtures = std::fs::canonicalize(cases_dir().join("docs-fixtures")).expect("docs fixtures");
    let run = |(text, stdin): &(String, bool)| {
        let options = PreprocessOptions {
            file_path: (!stdin).then(|| fixtures.join("example.puml")),
            // Lower limits than the defaults keep the runaway examples quick.
            max_include_depth: 3,
            max_output_bytes: 1 << 20,
            max_steps: 300_000,
            ..fixed_options(&fixtures.join("example.puml"))
        };
        let result = preprocess(text, &options, &FsLoader);
        check_invariants(text, &result);
        result.diagnostics
    };
    let mut documented = HashSet::new();
    for example in &examples {
        let bad = run(&example.bad);
        assert!(
            bad.iter().any(|d| d.code == example.code),
            "the bad example of {} does not produce it: {bad:?}",
            example.code
        );
        let fixed = run(&example.fixed);
        assert!(
            fixed.iter().all(|d| d.code != example.code && !d.is_error()),
            "the fixed example of {} still has problems: {fixed:?}",
            example.code
        );
        documented.insert(example.code.clone());
    }
    let source = include_str!("codes.rs");
    for line in source.lines() {
        if let Some(code) = line
            .split('"')
            .nth(1)
            .filter(|c| c.starts_with('P') && line.contains("pub const"))
        {
            assert!(
                documented.contains(code),
                "{code} has no example in docs/preprocessor.md"
            );
        }
    }
}

/// Worst-case nesting on a 2 MiB thread (the default for spawned threads
/// and tokio workers): the recursion bounds keep the stack small.
#[test]
fn deep_nesting_fits_a_small_stack() {
    let mut cases = Vec::new();
    cases.push(format!("!$x = {}1\nA -> B : $x\n", "1 + ".repeat(499)));
    cases.push(format!(
        "{}A -> B\n{}",
        "!if 1\n".repeat(10_000),
        "!endif\n".repeat(10_000)
    ));
    cases.push(format!(
        "!procedure $p($n)\n{}$p($n + 1)\n{}!endprocedure\n$p(1)\n",
        "!if $n < 1000\n".repeat(60),
        "!endif\n".repeat(60)
    ));
    cases.push(format!(
        "!function $f($n)\n{}!return $f($n + 1) + {}1\n{}!endfunction\nA -> B : $f(1)\n",
        "!while 1\n".repeat(60),
        "1 + ".repeat(400),
        "!endwhile\n".repeat(60)
    ));
    cases.push(format!("!$x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000)));
    cases.push("!function $f($n)\n!return %eval(\"$f(\" + $n + \")\")\n!endfunction\nA -> B : $f(1)\n".to_owned());
    cases.push("!define R(x) R(x) R(x)\nA -> B : R(1)\n".to_owned());
    cases.push(format!("A -> B : {}1{}\n", "%upper(".repeat(5_000), ")".repeat(5_000)));
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for case in cases {
                let text = format!("@startuml\n{case}@enduml\n");
                let result = preprocess(&text, &PreprocessOptions::default(), &NoIncludes);
                check_invariants(&text, &result);
            }
        })
        .expect("spawn");
    handle.join().expect("no stack overflow");
}

/// An in-memory loader: paths are taken lexically, as an editor's unsaved
/// buffers would be.
struct MemoryLoader(Vec<(&'static str, String)>);

impl FileLoader for MemoryLoader {
    fn load(&self, path: &Path) -> io::Result<String> {
        self.0
            .iter()
            .find(|(name, _)| path.ends_with(name))
            .map(|(_, text)| text.clone())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not in memory"))
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        Ok(include::normalize_lexically(path))
    }
}

#[test]
fn in_memory_loader_and_included_texts() {
    let loader = MemoryLoader(vec![
        (
            "style.iuml",
            "!$color = \"#red\"\nskinparam ArrowColor $color\n".to_owned(),
        ),
        ("huge.iuml", "A -> B\n".repeat(2000)),
    ]);
    let options = PreprocessOptions {
        file_path: Some(PathBuf::from("/virtual/main.puml")),
        max_output_bytes: 4096,
        ..PreprocessOptions::default()
    };
    let text = "@startuml\n!include style.iuml\n!include huge.iuml\nA -> B : $color\n@enduml\n";
    let result = preprocess(text, &options, &loader);
    assert_eq!(
        result.text,
        "@startuml\nskinparam ArrowColor #red\nA -> B : #red\n@enduml\n"
    );
    assert_eq!(result.lines[1].file.as_deref(), Some("/virtual/style.iuml"));
    assert_eq!(result.lines[1].line, 1);
    assert_eq!(result.included.len(), 1, "the skipped file is not listed");
    assert_eq!(result.included[0].0, "/virtual/style.iuml");
    assert_eq!(result.diagnostics.len(), 1, "{:?}", result.diagnostics);
    assert_eq!(result.diagnostics[0].code, codes::OUTPUT_LIMIT);
    check_invariants(text, &result);
}

/// The memchr scan agrees with reading every line that holds a `!` or a `%`.
#[test]
fn needs_preprocessing_agrees_with_the_line_by_line_reading() {
    let by_lines = |text: &str| {
        text.split('\n')
            .any(|line| (line.contains('!') || line.contains('%')) && super::line_needs_preprocessing(line))
    };
    let pieces = [
        "A -> B : hi!\n",
        "  !define X\n",
        "\t!theme plain\n",
        "x ! y\n",
        "!pragma teoz true\n",
        "\u{a0}!include a\n",
        "\u{2003}x!\n",
        "A -> B : %upper(\"x\")\n",
        "%nobuiltin(1)\n",
        "!\n",
        "  !\n",
        "é!\n",
        "\r\n",
        "!!x\n",
        "! theme\n",
        "a\n",
        "\x0b!if 1\n",
        "note: 100%\n",
        "!$x = 1\n",
        "",
    ];
    let mut checked = 0;
    for a in pieces {
        for b in pieces {
            for c in pieces {
                let text = format!("{a}{b}{c}");
                assert_eq!(needs_preprocessing(&text), by_lines(&text), "{text:?}");
                let trimmed = text.trim_end_matches('\n');
                assert_eq!(needs_preprocessing(trimmed), by_lines(trimmed), "{trimmed:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, pieces.len().pow(3));
}

/// The words a line is made of skip their look-ups only when no name of
/// their class was ever defined: every way of defining one still
/// substitutes it (a global, a macro with and without parameters, a
/// function, a procedure's parameter, `%set_variable_value`).
#[test]
fn every_kind_of_definition_is_still_substituted() {
    let text = "@startuml\n\
!$color = \"red\"\n\
!define LABEL hello\n\
!define TWICE(x) x x\n\
!function $plus($a, $b)\n\
!return $a + $b\n\
!endfunction\n\
!procedure $say($who)\n\
$who -> B : LABEL\n\
!endprocedure\n\
%set_variable_value(\"$late\", \"later\")\n\
A -> B : $color LABEL TWICE(go) $plus(1, 2) $late\n\
$say(\"Carol\")\n\
@enduml\n";
    let result = preprocess(text, &PreprocessOptions::default(), &NoIncludes);
    assert!(result.diagnostics.is_empty(), "{:?}", result.diagnostics);
    assert!(
        result.text.contains("A -> B : red hello go go 3 later\n"),
        "{}",
        result.text
    );
    assert!(result.text.contains("Carol -> B : hello\n"), "{}", result.text);
    check_invariants(text, &result);
}
