//! `puml render` end to end: formats, stdin/stdout, page naming, refusing
//! diagrams with errors, never overwriting an input, option bounds.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn puml(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puml"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("puml runs");
    if let Some(input) = stdin {
        // A usage error may exit before reading stdin: a broken pipe is fine then.
        let _ = child.stdin.take().expect("stdin").write_all(input);
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("puml exits")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("puml-render-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

const PAGED: &str = "@startuml\nAlice -> Bob : one\nnewpage\nBob -> Alice : two\n@enduml\n";

#[test]
fn stdin_to_stdout_in_every_format() {
    for (format, magic) in [
        ("svg", &b"<svg"[..]),
        ("png", &b"\x89PNG"[..]),
        ("pdf", &b"%PDF"[..]),
        ("txt", &b" "[..]),
        ("utxt", &b" "[..]),
        ("scene-json", &b"{"[..]),
    ] {
        let out = puml(
            &["render", "-", "-f", format, "--page", "1"],
            Some(b"@startuml\nA -> B : hi\n@enduml\n"),
        );
        assert!(
            out.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.starts_with(magic), "{format}");
    }
}

#[test]
fn pages_get_numbered_files_and_inputs_are_never_overwritten() {
    let dir = temp_dir("pages");
    let input = dir.join("flow.puml");
    std::fs::write(&input, PAGED).expect("write input");
    let out = puml(&["render", input.to_str().expect("utf-8 path")], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("flow-1.svg").exists() && dir.join("flow-2.svg").exists());

    let out = puml(
        &[
            "render",
            input.to_str().expect("path"),
            "--page",
            "2",
            "-o",
            input.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).expect("input"), PAGED);

    let out = puml(&["render", input.to_str().expect("path"), "--page", "3"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("page 3"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diagrams_with_errors_are_refused_with_diagnostics() {
    let out = puml(&["render", "-"], Some(b"@startuml\nthis is not a statement\n@enduml\n"));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[") && stderr.contains("not rendered"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_options_are_usage_errors() {
    let input = Some(&b"@startuml\nA -> B\n@enduml\n"[..]);
    for args in [
        &["render", "-", "--scale", "0"][..],
        &["render", "-", "--scale", "100"],
        &["render", "-", "--theme", "neon"],
        &["render", "-", "-f", "gif"],
    ] {
        let out = puml(args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = puml(&["render", "-", "-f", "png"], Some(PAGED.as_bytes()));
    assert_eq!(out.status.code(), Some(2), "several PNG pages cannot go to stdout");
}

/// Two inputs naming the same output (same file name in two directories,
/// one --out-dir): the first keeps it, the second is an error (not a
/// silent overwrite), whatever the order threads finish in.
#[test]
fn same_output_name_from_two_inputs_is_reported() {
    let dir = temp_dir("collide");
    let out = dir.join("out");
    for (sub, label) in [("a", "from a"), ("b", "from b")] {
        std::fs::create_dir_all(dir.join(sub)).expect("subdir");
        std::fs::write(
            dir.join(sub).join("shared.puml"),
            format!("@startuml\nA -> B : {label}\n@enduml\n"),
        )
        .expect("write input");
    }
    for _ in 0..3 {
        let _ = std::fs::remove_dir_all(&out);
        let result = puml(
            &[
                "render",
                dir.join("a").to_str().expect("utf-8"),
                dir.join("b").to_str().expect("utf-8"),
                "--out-dir",
                out.to_str().expect("utf-8"),
            ],
            None,
        );
        assert_ne!(result.status.code(), Some(0));
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains("already written by an earlier input"), "{stderr}");
        let svg = std::fs::read_to_string(out.join("shared.svg")).expect("first output kept");
        assert!(svg.contains("from a") && !svg.contains("from b"));
        // The second input's output was staged before the collision was
        // known: its temporary file is gone too.
        let names: Vec<String> = std::fs::read_dir(&out)
            .expect("list out dir")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        assert_eq!(names, ["shared.svg"]);
    }
}

#[test]
fn outputs_replace_old_ones_whole_with_or_without_sync_and_leave_no_temporary_file() {
    let dir = temp_dir("sync");
    let input = dir.join("flow.puml");
    std::fs::write(&input, "@startuml\nA -> B : hi\n@enduml\n").expect("write input");
    let output = dir.join("flow.svg");
    std::fs::write(&output, "an older rendering").expect("write old output");
    for extra in [&[][..], &["--sync"][..]] {
        let mut args = vec![
            "render",
            input.to_str().expect("utf-8 path"),
            "--out-dir",
            dir.to_str().expect("utf-8 path"),
        ];
        args.extend_from_slice(extra);
        let out = puml(&args, None);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let svg = std::fs::read_to_string(&output).expect("output written");
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{extra:?}: {svg}"
        );
        let names: Vec<String> = std::fs::read_dir(&dir)
            .expect("list dir")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        assert!(names.iter().all(|n| !n.contains("puml-tmp")), "{extra:?}: {names:?}");
    }
}

/// A diagram kept in a file named like an output (`*.svg`) is still an
/// input: rendering it beside itself is refused and the file is intact.
#[test]
fn an_input_named_like_its_output_is_not_overwritten() {
    let dir = temp_dir("named-like-output");
    let input = dir.join("diagram.svg");
    let source = "@startuml\nA -> B : hi\n@enduml\n";
    std::fs::write(&input, source).expect("write input");
    let out = puml(&["render", input.to_str().expect("utf-8 path")], None);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to overwrite the input file"));
    assert_eq!(std::fs::read_to_string(&input).expect("input"), source);
    let _ = std::fs::remove_dir_all(&dir);
}

/// More files than the renderers may run ahead of the writer: every
/// output is written, and messages come out in input order.
#[test]
fn a_large_batch_is_written_whole_and_reported_in_input_order() {
    let dir = temp_dir("large-batch");
    let out_dir = dir.join("out");
    let mut inputs = Vec::new();
    for i in 0..150 {
        let input = dir.join(format!("d{i:03}.puml"));
        let body = if i % 50 == 7 {
            "@startuml\nparticipant A\nA -> : \n-> -> ->\n@enduml\n".to_string()
        } else {
            format!("@startuml\nA -> B : message {i}\n@enduml\n")
        };
        std::fs::write(&input, body).expect("write input");
        inputs.push(input.to_str().expect("utf-8 path").to_string());
    }
    let mut args = vec!["render", "--out-dir", out_dir.to_str().expect("utf-8 path")];
    args.extend(inputs.iter().map(String::as_str));
    let out = puml(&args, None);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    for i in 0..150 {
        let output = out_dir.join(format!("d{i:03}.svg"));
        assert_eq!(output.exists(), i % 50 != 7, "d{i:03}");
        // Each worker reuses one host for its files: every output is its
        // own input's drawing, also right after a file with errors.
        if i % 50 != 7 {
            let svg = std::fs::read_to_string(&output).expect("output");
            assert!(svg.contains(&format!(">message {i}<")), "d{i:03}: {svg}");
        }
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let refused: Vec<&str> = stderr.lines().filter(|l| l.contains("not rendered")).collect();
    assert_eq!(refused.len(), 3, "{stderr}");
    assert!(
        refused[0].contains("d007") && refused[1].contains("d057") && refused[2].contains("d107"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-o new/dir/a.svg` creates the missing folders as `--out-dir` does, and
/// leaves only the finished file there (the write is still atomic).
#[test]
fn output_file_in_missing_folders_creates_them() {
    let dir = temp_dir("deep-output");
    let input = dir.join("a.puml");
    std::fs::write(&input, "@startuml\nA -> B : hi\n@enduml\n").expect("write input");
    let output = dir.join("new").join("dir").join("a.svg");
    let out = puml(
        &[
            "render",
            input.to_str().expect("utf-8"),
            "-o",
            output.to_str().expect("utf-8"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&output).expect("written").starts_with("<svg"));
    let left: Vec<_> = std::fs::read_dir(output.parent().expect("parent"))
        .expect("listed")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("a.svg")]);
}

/// The help says what the tool is for today without naming a closed list
/// of diagram kinds that would go stale.
#[test]
fn help_describes_the_tool() {
    let out = puml(&["--help"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("A compiler toolchain for PlantUML diagrams"), "{text}");
    assert!(!text.contains("sequence diagrams\n"), "{text}");
}
