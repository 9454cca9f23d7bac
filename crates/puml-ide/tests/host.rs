//! The host is incremental: the execution log shows which queries ran.

use puml_ide::render::{Format, RenderOptions};
use puml_ide::{AnalysisHost, HostConfig};
use puml_syntax::{TextRange, TextSize};
use std::path::PathBuf;

const SOURCE: &str = "@startuml\n' a comment\nAlice -> Bob : hello\nBob --> Alice : ok\n@enduml\n";

fn ran(log: &[String], query: &str) -> bool {
    log.iter().any(|entry| entry.starts_with(&format!("{query}(")))
}

fn svg() -> RenderOptions {
    RenderOptions {
        format: Format::Svg,
        ..RenderOptions::default()
    }
}

#[test]
fn a_repeated_request_executes_no_query() {
    let mut host = AnalysisHost::with_execution_log();
    let file = host.add_file(None, SOURCE.to_string());
    let analysis = host.analysis();
    let first = analysis.check(file).expect("not cancelled");
    assert!(first.ok(), "{:?}", first.diagnostics);
    let pages = analysis.render(file, &svg()).expect("not cancelled").expect("renders");
    assert_eq!(pages.len(), 1);
    let log = host.take_execution_log();
    assert!(ran(&log, "parse") && ran(&log, "rendered"), "{log:?}");

    // The same questions again, from a new snapshot of the same revision.
    let analysis = host.analysis();
    assert_eq!(analysis.check(file).expect("not cancelled"), first);
    assert_eq!(
        analysis.render(file, &svg()).expect("not cancelled").expect("renders"),
        pages
    );
    assert_eq!(analysis.explain(file).expect("ok").len(), 1);
    analysis.explain(file).expect("ok");
    let log = host.take_execution_log();
    assert!(
        !ran(&log, "parse") && !ran(&log, "check_report") && !ran(&log, "rendered"),
        "{log:?}"
    );

    // Setting the same text is not a change.
    host.set_file_text(file, SOURCE.to_string());
    host.analysis().render(file, &svg()).expect("ok").expect("renders");
    assert!(host.take_execution_log().is_empty());
}

#[test]
fn typing_in_a_comment_reruns_no_layout_and_no_render() {
    let mut host = AnalysisHost::with_execution_log();
    let file = host.add_file(None, SOURCE.to_string());
    let before = host.analysis().render(file, &svg()).expect("ok").expect("renders");
    host.take_execution_log();

    let at = SOURCE.find("a comment").expect("comment") + 1;
    let offset = TextSize::from(at as u32);
    host.edit_file(file, TextRange::empty(offset), "nother")
        .expect("in bounds");
    let after = host.analysis().render(file, &svg()).expect("ok").expect("renders");
    let log = host.take_execution_log();
    assert!(ran(&log, "parse"), "the edit is seen: {log:?}");
    assert!(!ran(&log, "page_scenes") && !ran(&log, "rendered"), "{log:?}");
    assert_eq!(before, after);

    // A real change to the picture re-runs both.
    let text = host.analysis().file_text(file).expect("ok");
    let at = TextSize::from(text.find("hello").expect("label") as u32);
    host.edit_file(file, TextRange::empty(at), "say ").expect("in bounds");
    let changed = host.analysis().render(file, &svg()).expect("ok").expect("renders");
    let log = host.take_execution_log();
    assert!(ran(&log, "page_scenes") && ran(&log, "rendered"), "{log:?}");
    assert!(String::from_utf8_lossy(&changed[0].bytes).contains("say hello"));
}

#[test]
fn an_edit_to_an_included_file_reruns_its_includer_only() {
    let dir = std::env::temp_dir().join(format!("puml-host-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let included = dir.join("parts.iuml");
    std::fs::write(&included, "Alice -> Bob : from the include\n").expect("write");
    let includer = "@startuml\n!include parts.iuml\n@enduml\n";
    let unrelated = "@startuml\nCarol -> Dave : alone\n@enduml\n";

    let mut host = AnalysisHost::with_execution_log();
    host.set_config(HostConfig {
        include_root: Some(dir.clone()),
        ..HostConfig::default()
    });
    let a = host.add_file(Some(dir.join("a.puml")), includer.to_string());
    let b = host.add_file(Some(dir.join("b.puml")), unrelated.to_string());
    let analysis = host.analysis();
    let explained = analysis.explain(a).expect("ok");
    assert_eq!(explained[0].flow.len(), 1, "{explained:?}");
    assert!(analysis.check(b).expect("ok").ok());
    drop(analysis);
    host.take_execution_log();

    std::fs::write(&included, "Alice -> Bob : from the include\nBob -> Alice : and back\n").expect("write");
    host.refresh_included_files();
    let analysis = host.analysis();
    assert!(analysis.check(b).expect("ok").ok());
    assert!(
        host.take_execution_log().is_empty(),
        "nothing of the unrelated file re-runs"
    );
    let explained = analysis.explain(a).expect("ok");
    assert_eq!(explained[0].flow.len(), 2);
    let log = host.take_execution_log();
    assert!(ran(&log, "analysis") && !ran(&log, "parse"), "{log:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_stale_snapshot_is_cancelled_not_answered() {
    let mut host = AnalysisHost::new();
    let file = host.add_file(None, SOURCE.to_string());
    let stale = host.analysis();
    let worker = std::thread::spawn(move || {
        // Ask until the edit below cancels this snapshot (the edit cannot
        // complete while the snapshot is alive, so this ends).
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(60) {
            if stale.check(file).is_err() {
                return true;
            }
            std::thread::yield_now();
        }
        false
    });
    host.set_file_text(file, SOURCE.replace("hello", "bye"));
    // The write waited for the snapshot to be dropped or cancelled.
    let report = host.analysis().check(file).expect("fresh snapshot answers");
    assert!(report.ok());
    assert!(worker.join().expect("no panic"), "the stale snapshot saw Cancelled");
}

#[test]
fn unknown_and_removed_files_read_as_empty() {
    let mut host = AnalysisHost::new();
    let file = host.add_file(Some(PathBuf::from("gone.puml")), SOURCE.to_string());
    host.remove_file(file);
    assert_eq!(host.analysis().file_text(file).expect("ok"), "");
    assert!(host.file_for_path(std::path::Path::new("gone.puml")).is_none());
    let out_of_bounds = TextRange::new(TextSize::from(0), TextSize::from(10_000));
    let other = host.add_file(None, "x".to_string());
    assert!(host.edit_file(other, out_of_bounds, "").is_err());
}
