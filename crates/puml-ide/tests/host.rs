//! The host is incremental: the execution log shows which queries ran.

use puml_ide::render::{Format, Region, RenderFailure, RenderOptions};
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

fn long_source(messages: usize) -> String {
    let mut text = String::from("@startuml\nparticipant Alice\nparticipant Bob\n");
    for i in 0..messages {
        text.push_str(&format!("Alice -> Bob : message {i}\n"));
    }
    text.push_str("@enduml\n");
    text
}

fn region(x: f64, y: f64, width: f64, height: f64) -> Region {
    Region { x, y, width, height }
}

#[test]
fn a_region_is_cut_from_the_memoized_layout() {
    let mut host = AnalysisHost::with_execution_log();
    let file = host.add_file(None, long_source(300));
    let full = host.analysis().render(file, &svg()).expect("ok").expect("renders");
    let (width, height) = (full[0].width, full[0].height);
    host.take_execution_log();

    // Regions of the page already laid out lay nothing out again.
    let analysis = host.analysis();
    let top = analysis
        .render_region(file, &svg(), region(0.0, 0.0, width, 500.0))
        .expect("ok")
        .expect("renders");
    let middle = analysis
        .render_region(file, &svg(), region(0.0, height / 2.0, width, 500.0))
        .expect("ok")
        .expect("renders");
    let log = host.take_execution_log();
    assert!(!ran(&log, "page_scenes") && !ran(&log, "parse"), "{log:?}");
    assert_eq!((top.page_width, top.page_height), (width, height));
    assert!(top.svg.contains(">message 0<") && !top.svg.contains(">message 299<"));
    assert!(middle.svg.contains(">message 150<") && !middle.svg.contains(">message 0<"));
    assert!(middle.svg.len() * 5 < full[0].bytes.len());

    // After an edit the layout runs once, whichever asks first.
    drop(analysis);
    let text = host.analysis().file_text(file).expect("ok");
    let at = TextSize::from(text.find("message 299").expect("label") as u32);
    host.edit_file(file, TextRange::empty(at), "last ").expect("in bounds");
    let analysis = host.analysis();
    let bottom = region(0.0, height - 400.0, width, 400.0);
    let first = analysis
        .render_region(file, &svg(), bottom)
        .expect("ok")
        .expect("renders");
    let again = analysis
        .render_region(file, &svg(), bottom)
        .expect("ok")
        .expect("renders");
    analysis.render(file, &svg()).expect("ok").expect("renders");
    let log = host.take_execution_log();
    let layouts = log.iter().filter(|e| e.starts_with("page_scenes(")).count();
    assert_eq!(layouts, 1, "{log:?}");
    assert!(first.svg.contains(">last message 299<"));
    assert_eq!(first, again);
}

#[test]
fn hostile_regions_are_refused_or_clamped_never_a_panic() {
    let mut host = AnalysisHost::new();
    let file = host.add_file(None, long_source(20));
    let analysis = host.analysis();
    let full = analysis.render(file, &svg()).expect("ok").expect("renders");
    let (width, height) = (full[0].width, full[0].height);
    let answer = |r: Region| analysis.render_region(file, &svg(), r).expect("not cancelled");

    // Clamped to the page: negative origins, huge sizes.
    let clamped = answer(region(-50.0, -1e300, 1e308, f64::MAX)).expect("clamped");
    assert_eq!(clamped.region, region(0.0, 0.0, width, height));
    let clamped = answer(region(10.0, height - 5.0, 1e9, 1e9)).expect("clamped");
    assert_eq!(clamped.region, region(10.0, height - 5.0, width - 10.0, 5.0));

    // Refused with a reason: not finite, empty, outside the page.
    for bad in [
        region(f64::NAN, 0.0, 10.0, 10.0),
        region(0.0, f64::INFINITY, 10.0, 10.0),
        region(0.0, 0.0, f64::NEG_INFINITY, 10.0),
        region(0.0, 0.0, 0.0, 10.0),
        region(0.0, 0.0, 10.0, -3.0),
        region(-100.0, -100.0, 50.0, 50.0),
        region(width + 1.0, 0.0, 10.0, 10.0),
        region(0.0, 1e308, 1e308, 1e308),
    ] {
        match answer(bad) {
            Err(RenderFailure::BadRegion(why)) => assert!(!why.is_empty()),
            other => panic!("{bad:?}: expected a refusal, got {other:?}"),
        }
    }

    // A region is SVG only, and the page must exist.
    let png = RenderOptions {
        format: Format::Png,
        ..RenderOptions::default()
    };
    assert!(matches!(
        analysis
            .render_region(file, &png, region(0.0, 0.0, 10.0, 10.0))
            .expect("ok"),
        Err(RenderFailure::BadRegion(_))
    ));
    let page_two = RenderOptions { page: Some(2), ..svg() };
    assert!(matches!(
        analysis
            .render_region(file, &page_two, region(0.0, 0.0, 10.0, 10.0))
            .expect("ok"),
        Err(RenderFailure::PageOutOfRange { .. })
    ));
    // A broken diagram is refused with its diagnostics, as a full render is.
    drop(analysis);
    host.set_file_text(file, "@startuml\nA -> B\nend\n@enduml\n".to_string());
    assert!(matches!(
        host.analysis()
            .render_region(file, &svg(), region(0.0, 0.0, 10.0, 10.0))
            .expect("ok"),
        Err(RenderFailure::Diagnostics(_))
    ));
}

#[test]
fn a_replaced_file_answers_like_a_fresh_host_with_its_path_and_text() {
    let dir = std::env::temp_dir().join(format!("puml-host-replace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("parts.iuml"), "participant Included\n").unwrap();
    let first_path = dir.join("first.puml");
    let second_path = dir.join("second.puml");
    let second_text = "@startuml\n!include parts.iuml\nIncluded -> Carol : hi\n@enduml\n";

    let mut host = AnalysisHost::new();
    let file = host.add_file(Some(first_path.clone()), SOURCE.to_string());
    let first = host.analysis().render(file, &svg()).unwrap().unwrap();
    host.replace_file(file, Some(second_path.clone()), second_text);
    let replaced = host.analysis();
    let (fresh_host, fresh_file) =
        AnalysisHost::single_file(Some(second_path.clone()), second_text.into(), HostConfig::default());
    let fresh = fresh_host.analysis();

    // The include is found beside the new path, and nothing of the first
    // file's parse or analysis is reused.
    assert_eq!(replaced.check(file).unwrap(), fresh.check(fresh_file).unwrap());
    assert!(replaced.check(file).unwrap().ok());
    let pages = replaced.render(file, &svg()).unwrap().unwrap();
    assert_eq!(pages, fresh.render(fresh_file, &svg()).unwrap().unwrap());
    assert_ne!(pages, first);
    assert_eq!(host.file_for_path(&second_path), Some(file));
    assert_eq!(host.file_for_path(&first_path), None);
    let _ = std::fs::remove_dir_all(&dir);
}
