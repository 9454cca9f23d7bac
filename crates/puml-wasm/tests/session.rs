//! The WebAssembly front end's plain-Rust core, natively: the answers the
//! JavaScript API wraps (the Node tests in `editors/npm/test` check the
//! same calls through the real `.wasm`).

use puml_wasm::{decode_url, encode_url, set_include_resolver, RenderRequest, Session, MAX_INCLUDED_BYTES};

const VALID: &str = "@startuml\nAlice -> Bob : hello\n@enduml\n";
const BROKEN: &str = "@startuml\nAlice -> Bob : hello\nend\n@enduml\n";

#[test]
fn check_answers_the_clis_json_shape() {
    let mut session = Session::new();
    assert_eq!(session.check_json(VALID).unwrap(), "[]");
    let diagnostics = session.check(BROKEN).unwrap();
    assert!(!diagnostics.is_empty());
    let first = diagnostics[0].as_object().unwrap();
    let mut keys: Vec<&str> = first.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "code",
            "column",
            "end_column",
            "end_line",
            "fixes",
            "line",
            "message",
            "severity"
        ]
    );
    assert_eq!(first["line"], 3);
}

#[test]
fn render_refuses_a_broken_diagram_with_its_diagnostics() {
    let mut session = Session::new();
    let svg = session.render_svg(VALID, None, None).unwrap();
    assert!(svg.starts_with("<?xml") || svg.starts_with("<svg"), "{}", &svg[..40]);
    let error = session.render(BROKEN, &RenderRequest::default()).unwrap_err();
    assert!(!error.diagnostics.is_empty(), "{error:?}");
    let bad_theme = RenderRequest {
        theme: Some("no-such-theme".into()),
        ..RenderRequest::default()
    };
    assert!(session
        .render(VALID, &bad_theme)
        .unwrap_err()
        .message
        .contains("unknown theme"));
    let past_the_end = RenderRequest {
        page: Some(2),
        ..RenderRequest::default()
    };
    assert!(session.render(VALID, &past_the_end).is_err());
    let png = RenderRequest {
        format: "png".into(),
        ..RenderRequest::default()
    };
    let rendered = session.render(VALID, &png).unwrap();
    assert!(rendered.binary && rendered.bytes.starts_with(b"\x89PNG"));
}

#[test]
fn one_session_follows_edits() {
    let mut session = Session::new();
    let first = session.render_svg(VALID, None, None).unwrap();
    let edited = VALID.replace("hello", "goodbye");
    let second = session.render_svg(&edited, None, None).unwrap();
    assert!(second.contains("goodbye") && !first.contains("goodbye"));
    assert_eq!(session.render_svg(VALID, None, None).unwrap(), first);
}

#[test]
fn preview_answers_what_the_separate_calls_answer() {
    let two_pages = "@startuml\nA -> B : one\nnewpage\nB -> A : two\n@enduml\n";
    let mut separate = Session::new();
    let mut session = Session::new();
    let preview = session.preview(two_pages, None, Some(2)).unwrap();
    assert_eq!(preview.diagnostics_json, separate.check_json(two_pages).unwrap());
    assert_eq!((preview.errors, preview.pages, preview.page), (0, 2, 2));
    assert_eq!(
        preview.svg,
        Some(Ok(separate.render_svg(two_pages, None, Some(2)).unwrap()))
    );
    // Past the end: the last page; none asked: the first.
    assert_eq!(session.preview(two_pages, None, Some(9)).unwrap().page, 2);
    assert_eq!(session.preview(two_pages, None, None).unwrap().page, 1);
    // Errors refuse the render; the diagnostics still come.
    let broken = session.preview(BROKEN, None, None).unwrap();
    assert!(broken.errors > 0 && broken.svg.is_none());
    assert_eq!(broken.diagnostics_json, separate.check_json(BROKEN).unwrap());
    // A bad theme is the render's failure, not the preview's.
    let themed = session.preview(VALID, Some("no-such-theme".into()), None).unwrap();
    assert!(matches!(themed.svg, Some(Err(e)) if e.message.contains("unknown theme")));
}

#[test]
fn fix_format_explain_and_pages() {
    let mut session = Session::new();
    let (fixed, applied) = session.fix(BROKEN).unwrap();
    assert!(applied > 0);
    assert_eq!(session.check_json(&fixed).unwrap(), "[]");
    let messy = "@startuml\n   Alice   ->   Bob :  hi\n@enduml\n";
    assert_eq!(
        session.format(messy).unwrap(),
        "@startuml\nAlice -> Bob : hi\n@enduml\n"
    );
    let explained: serde_json::Value = serde_json::from_str(&session.explain_json(VALID).unwrap()).unwrap();
    assert_eq!(explained["participants"].as_array().unwrap().len(), 2);
    assert!(session.explain_json("").unwrap().contains("\"diagram_count\":0"));
    let two_pages = "@startuml\nA -> B\nnewpage\nB -> A\n@enduml\n";
    assert_eq!(session.page_count(two_pages).unwrap(), 2);
}

#[test]
fn includes_go_through_the_resolver_and_are_bounded() {
    let mut session = Session::new();
    let source = "@startuml\n!include parts/people.iuml\nAlice -> Bob\n@enduml\n";
    set_include_resolver(None);
    let refused = session.check(source).unwrap();
    assert!(
        refused.iter().any(|d| d["severity"] == "error"),
        "no resolver, no include: {refused:?}"
    );
    set_include_resolver(Some(Box::new(|path: &str| {
        (path == "parts/people.iuml").then(|| "participant Alice\nparticipant Bob\n".to_string())
    })));
    assert_eq!(session.check_json(source).unwrap(), "[]");
    // A file that includes itself ends at the depth bound, a huge one at
    // the size cap.
    set_include_resolver(Some(Box::new(|path: &str| {
        Some(if path == "loop.iuml" {
            "!include loop.iuml\n".to_string()
        } else {
            "x".repeat(MAX_INCLUDED_BYTES + 1)
        })
    })));
    let looping = session
        .check("@startuml\n!include loop.iuml\nAlice -> Bob\n@enduml\n")
        .unwrap();
    assert!(looping.iter().any(|d| d["severity"] == "error"), "{looping:?}");
    let huge = session
        .check("@startuml\n!include huge.iuml\nAlice -> Bob\n@enduml\n")
        .unwrap();
    assert!(
        huge.iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("limited to")),
        "{huge:?}"
    );
    set_include_resolver(None);
}

#[test]
fn the_resolver_is_asked_again_only_for_a_source_that_reads_included_files() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let asked = Rc::new(RefCell::new(Vec::<String>::new()));
    let people = Rc::new(RefCell::new("participant Alice\n".to_string()));
    let (log, answer) = (asked.clone(), people.clone());
    set_include_resolver(Some(Box::new(move |path: &str| {
        log.borrow_mut().push(path.to_string());
        (path == "people.iuml").then(|| answer.borrow().clone())
    })));
    let mut session = Session::new();
    let including = "@startuml\n!include people.iuml\nAlice -> Bob\n@enduml\n";
    let participants = |session: &mut Session, source: &str| -> Vec<String> {
        let explained: serde_json::Value = serde_json::from_str(&session.explain_json(source).unwrap()).unwrap();
        explained["participants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(participants(&mut session, including), ["Alice", "Bob"]);
    assert!(asked.borrow().iter().all(|p| p == "people.iuml") && !asked.borrow().is_empty());
    // A source that includes nothing: the file read before is not asked again.
    asked.borrow_mut().clear();
    assert_eq!(session.check_json(VALID).unwrap(), "[]");
    assert!(asked.borrow().is_empty(), "{:?}", asked.borrow());
    // One that does: asked again, and a changed answer is seen.
    *people.borrow_mut() = "participant Carol\n".to_string();
    assert_eq!(participants(&mut session, including), ["Carol", "Alice", "Bob"]);
    assert!(asked.borrow().iter().any(|p| p == "people.iuml"));
    set_include_resolver(None);
}

#[test]
fn the_url_encoding_round_trips() {
    let encoded = encode_url(VALID);
    assert_eq!(decode_url(&encoded).unwrap(), VALID);
    // PlantUML's own link for "Bob -> Alice : hello" (its server's example).
    assert_eq!(
        decode_url("SyfFKj2rKt3CoKnELR1Io4ZDoSa70000").unwrap(),
        "Bob -> Alice : hello"
    );
    assert!(decode_url("!!!not an encoding").is_err());
}
