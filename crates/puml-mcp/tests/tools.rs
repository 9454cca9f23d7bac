//! Behaviour of each tool over the wire: every export format, the edit
//! kinds, pages and themes, and the error results.

mod common;

use common::{codes, is_error, structured, Session, LOGIN};
use serde_json::json;

const PAGES: &str = "@startuml\nA -> B : one\nnewpage\nA -> B : two\n@enduml\n";

async fn session(name: &str) -> (std::path::PathBuf, Session) {
    let root = common::workspace(name);
    let mut s = Session::start(&root).await;
    s.initialize().await;
    (root, s)
}

#[tokio::test]
async fn every_export_format_inline_and_written() {
    let (root, mut s) = session("tools-export").await;
    let cases = [
        ("svg", "utf-8", "svg"),
        ("png", "base64", "png"),
        ("pdf", "base64", "pdf"),
        ("puml", "utf-8", "puml"),
        ("ast-json", "utf-8", "json"),
        ("model-json", "utf-8", "json"),
        ("scene-json", "utf-8", "json"),
        ("txt", "utf-8", "txt"),
    ];
    for (format, encoding, ext) in cases {
        let r = s
            .call_result("puml_export", json!({"source": LOGIN, "format": format}))
            .await;
        assert!(!is_error(&r), "{format}: {r}");
        assert_eq!(structured(&r)["encoding"], encoding, "{format}");
        assert!(!structured(&r)["content"].as_str().unwrap().is_empty(), "{format}");
        let has_image = r["content"].as_array().unwrap().iter().any(|c| c["type"] == "image");
        assert_eq!(
            has_image,
            format == "png",
            "{format}: only PNG is image content (never SVG)"
        );
        let target = format!("out-{format}.{ext}");
        let r = s
            .call_result(
                "puml_export",
                json!({"path": "docs/login.puml", "format": format, "write": true, "outputPath": target}),
            )
            .await;
        assert_eq!(structured(&r)["path"], target.as_str(), "{format}: {r}");
        assert!(structured(&r)["content"].is_null());
        let written = std::fs::read(root.join(&target)).unwrap();
        assert_eq!(written.len() as u64, structured(&r)["bytes"].as_u64().unwrap());
    }
    let pdf = std::fs::read(root.join("out-pdf.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    let png = std::fs::read(root.join("out-png.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let r = s
        .call_result("puml_export", json!({"path": "broken.puml", "format": "model-json"}))
        .await;
    assert!(is_error(&r));
    assert!(codes(&r).iter().any(|c| c.starts_with('E')), "{r}");
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn render_svg_pages_themes_and_previews() {
    let (_root, mut s) = session("tools-render").await;
    let first = s.call_result("puml_render_svg", json!({"source": PAGES})).await;
    let second = s
        .call_result("puml_render_svg", json!({"source": PAGES, "page": 1}))
        .await;
    assert!(structured(&first)["svg"].as_str().unwrap().contains("one"));
    assert!(structured(&second)["svg"].as_str().unwrap().contains("two"));
    let r = s
        .call_result("puml_render_svg", json!({"source": PAGES, "page": 2}))
        .await;
    assert_eq!(codes(&r), ["M0009"], "{r}");
    assert!(structured(&r)["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("0 to 1"));
    let dark = s
        .call_result("puml_render_svg", json!({"source": LOGIN, "theme": "dark"}))
        .await;
    let plain = s.call_result("puml_render_svg", json!({"source": LOGIN})).await;
    assert_ne!(structured(&dark)["svg"], structured(&plain)["svg"]);
    let r = s
        .call_result("puml_render_svg", json!({"source": LOGIN, "theme": "neon"}))
        .await;
    assert_eq!(codes(&r), ["M0009"]);
    let r = s
        .call_result("puml_render_svg", json!({"source": LOGIN, "preview_png": true}))
        .await;
    let kinds: Vec<&str> = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "text", "image"]);
    assert!(structured(&plain)["width"].as_f64().unwrap() > 0.0);
    let r = s.call_result("puml_render_svg", json!({"path": "broken.puml"})).await;
    assert!(is_error(&r));
    assert_eq!(structured(&r)["svg"], "");
    assert!(codes(&r).iter().any(|c| c.starts_with('E')));
    let r = s
        .call_result("puml_render_svg", json!({"source": "no diagram here"}))
        .await;
    assert!(is_error(&r), "{r}");
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn render_file_infers_the_format() {
    let (root, mut s) = session("tools-render-file").await;
    for (name, magic) in [
        ("a.svg", &b"<svg"[..]),
        ("a.png", b"\x89PNG"),
        ("a.pdf", b"%PDF"),
        ("a.txt", b""),
    ] {
        let r = s
            .call_result(
                "puml_render_file",
                json!({"source": LOGIN, "output_path": name, "write": true}),
            )
            .await;
        assert_eq!(structured(&r)["ok"], true, "{name}: {r}");
        assert!(std::fs::read(root.join(name)).unwrap().starts_with(magic), "{name}");
    }
    let r = s
        .call_result(
            "puml_render_file",
            json!({"source": LOGIN, "output_path": "noext", "write": true}),
        )
        .await;
    assert_eq!(codes(&r), ["M0009"]);
    let r = s
        .call_result(
            "puml_render_file",
            json!({"source": LOGIN, "output_path": "b.png", "format": "svg", "write": true}),
        )
        .await;
    assert_eq!(codes(&r), ["M0003"], "the extension must fit the format");
    let r = s
        .call_result(
            "puml_render_file",
            json!({"path": "broken.puml", "output_path": "c.svg", "write": true}),
        )
        .await;
    assert!(is_error(&r));
    assert!(
        !root.join("c.svg").exists(),
        "nothing is written for an invalid diagram"
    );
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn every_edit_kind() {
    let (root, mut s) = session("tools-edit").await;
    let edits = [
        json!({"kind": "add_participant", "args": {"name": "Cache", "kind": "database", "after": "API"}}),
        json!({"kind": "add_message", "args": {"from": "API", "to": "DB", "label": "ping", "arrow": "->>", "after_line": 6}}),
        json!({"kind": "add_note", "args": {"text": "checks the password", "position": "right", "participants": ["API"], "after_line": 6}}),
        json!({"kind": "wrap_group", "args": {"kind": "alt", "label": "valid", "start_line": 6, "end_line": 7}}),
        json!({"kind": "rename_participant", "args": {"from": "API", "to": "Gateway"}}),
        json!({"kind": "change_theme", "args": {"theme": "plain"}}),
        json!({"kind": "remove_message", "args": {"line": 8}}),
        json!({"kind": "set_title", "args": {"title": "Login"}}),
    ];
    for edit in edits {
        let r = s
            .call_result("puml_apply_edit", json!({"source": LOGIN, "edit": edit}))
            .await;
        assert_eq!(structured(&r)["ok"], true, "{edit}: {r}");
        assert_ne!(structured(&r)["source"], LOGIN, "{edit}");
        assert!(structured(&r)["diff"].as_str().unwrap().starts_with("---"), "{edit}");
        let check = s
            .call_result("puml_check", json!({"source": structured(&r)["source"]}))
            .await;
        assert_eq!(structured(&check)["ok"], true, "{edit} produced an invalid diagram");
    }
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": LOGIN, "edit": {"kind": "rename_participant", "args": {"from": "Nobody", "to": "X"}}}),
        )
        .await;
    assert_eq!(codes(&r), ["M0010"]);
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": LOGIN, "edit": {"kind": "add_participant", "args": {"name": "Q", "kind": "spaceship"}}}),
        )
        .await;
    assert_eq!(codes(&r), ["M0010"]);
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"path": "docs/login.puml", "edit": {"kind": "set_title", "args": {"title": "Login"}}, "write": true, "outputPath": "docs/login.puml", "overwrite": true}),
        )
        .await;
    assert_eq!(structured(&r)["path"], "docs/login.puml", "{r}");
    assert!(std::fs::read_to_string(root.join("docs/login.puml"))
        .unwrap()
        .contains("title Login"));
    // An edit of a broken diagram is reported and not written.
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"path": "broken.puml", "edit": {"kind": "set_title", "args": {"title": "T"}}, "write": true, "outputPath": "fixed.puml"}),
        )
        .await;
    assert!(is_error(&r), "{r}");
    assert!(!root.join("fixed.puml").exists());
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn normalize_explain_lint_parse_on_good_and_bad_input() {
    let (_root, mut s) = session("tools-source").await;
    let r = s.call_result("puml_normalize", json!({"source": LOGIN})).await;
    assert_eq!(structured(&r)["patch"], json!([]));
    let r = s
        .call_result("puml_normalize", json!({"path": "broken.puml", "format": false}))
        .await;
    assert!(is_error(&r));
    let r = s.call_result("puml_explain", json!({"path": "broken.puml"})).await;
    assert!(is_error(&r));
    assert!(!structured(&r)["diagnostics"].as_array().unwrap().is_empty());
    // An activity diagram is explained by its lanes and nested steps.
    let activity = "@startuml\n|Shop|\nstart\n:Take order;\nif (in stock?) then (yes)\n  :Ship;\nelse (no)\n  :Refund;\nendif\nstop\n@enduml\n";
    let r = s.call_result("puml_explain", json!({"source": activity})).await;
    let explained = &structured(&r)["activity"];
    assert_eq!(explained["lanes"][0]["name"], "Shop", "{r}");
    assert_eq!(explained["actions"], 3, "{r}");
    assert_eq!(explained["decisions"], 1, "{r}");
    let steps = explained["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .any(|st| st["depth"] == 1 && st["text"].as_str().unwrap().contains("Ship")),
        "{r}"
    );
    let r = s.call_result("puml_explain", json!({"source": LOGIN})).await;
    assert!(structured(&r).get("activity").is_none(), "{r}");
    let long = "@startuml\nA -> B : this label is far too long to read comfortably in a rendered sequence diagram at all\n@enduml\n";
    let r = s.call_result("puml_lint_readability", json!({"source": long})).await;
    assert_eq!(structured(&r)["ok"], true);
    assert!(!structured(&r)["findings"].as_array().unwrap().is_empty(), "{r}");
    let r = s
        .call_result("puml_lint_readability", json!({"path": "broken.puml"}))
        .await;
    assert!(is_error(&r));
    let r = s.call_result("puml_parse", json!({"path": "docs/login.puml"})).await;
    assert_eq!(structured(&r)["ok"], true);
    let r = s
        .call_result(
            "puml_parse",
            json!({"source": "@startuml\nA -> B : x\n\"unterminated\n"}),
        )
        .await;
    let _ = structured(&r)["diagnostics"].as_array().unwrap();
    let r = s.call_result("puml_check", json!({"path": "notes.txt"})).await;
    assert_eq!(structured(&r)["ok"], false);
    let r = s.call_result("puml_check", json!({"path": "missing.puml"})).await;
    assert_eq!(codes(&r), ["M0002"]);
    let r = s.call_result("puml_check", json!({"path": "docs"})).await;
    assert_eq!(codes(&r), ["M0002"]);
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn many_diagnostics_are_capped() {
    let (_root, mut s) = session("tools-cap").await;
    let source = format!("@startuml\n{}@enduml\n", "end\n".repeat(800));
    let r = s.call_result("puml_check", json!({"source": source})).await;
    let diagnostics = structured(&r)["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() <= 501, "{}", diagnostics.len());
    if diagnostics.len() == 501 {
        assert!(diagnostics[500]["message"]
            .as_str()
            .unwrap()
            .contains("more diagnostics not shown"));
    }
    s.shutdown().await.unwrap();
}

const STATES: &str = "@startuml\n[*] --> Idle\nstate Busy {\n  [*] --> Load\n}\nIdle --> Busy\n@enduml\n";

#[tokio::test]
async fn state_diagram_edits() {
    let (_root, mut s) = session("tools-state").await;
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": STATES, "edit": {"kind": "add_state", "args": {"name": "Work", "parent": "Busy", "description": "does it"}}}),
        )
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    assert_eq!(
        structured(&r)["source"],
        "@startuml\n[*] --> Idle\nstate Busy {\n  [*] --> Load\n  state Work : does it\n}\nIdle --> Busy\n@enduml\n"
    );
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": STATES, "edit": {"kind": "add_transition", "args": {"from": "Load", "to": "[*]", "label": "loaded"}}}),
        )
        .await;
    assert_eq!(
        structured(&r)["source"],
        "@startuml\n[*] --> Idle\nstate Busy {\n  [*] --> Load\n  Load --> [*] : loaded\n}\nIdle --> Busy\n@enduml\n",
        "written in the composite that holds its end: {r}"
    );
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": STATES, "edit": {"kind": "add_transition", "args": {"from": "Idle", "to": "Nowhere"}}}),
        )
        .await;
    assert_eq!(codes(&r), ["M0010"]);
    s.shutdown().await.unwrap();
}

const DESCRIPTION: &str = "@startuml\nactor Customer\nrectangle Shop {\n  usecase \"Check out\" as CO\n  [Cart]\n}\nCustomer --> CO\n@enduml\n";

#[tokio::test]
async fn description_diagram_edits() {
    let (_root, mut s) = session("tools-description").await;
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": DESCRIPTION, "edit": {"kind": "add_element", "args": {"kind": "usecase", "name": "Pay online", "alias": "Pay", "parent": "Shop", "stereotype": "main"}}}),
        )
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    assert_eq!(
        structured(&r)["source"],
        "@startuml\nactor Customer\nrectangle Shop {\n  usecase \"Check out\" as CO\n  [Cart]\n  usecase \"Pay online\" as Pay <<main>>\n}\nCustomer --> CO\n@enduml\n"
    );
    // A new empty container inside a parent (checked VALID by PlantUML).
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": DESCRIPTION, "edit": {"kind": "add_element", "args": {"kind": "node", "name": "Back office", "alias": "BO", "parent": "Shop", "container": true}}}),
        )
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    assert_eq!(
        structured(&r)["source"],
        "@startuml\nactor Customer\nrectangle Shop {\n  usecase \"Check out\" as CO\n  [Cart]\n  node \"Back office\" as BO {\n  }\n}\nCustomer --> CO\n@enduml\n"
    );
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": DESCRIPTION, "edit": {"kind": "add_link", "args": {"from": "Cart", "to": "Check out", "arrow": "..>", "label": "fills"}}}),
        )
        .await;
    assert_eq!(
        structured(&r)["source"],
        "@startuml\nactor Customer\nrectangle Shop {\n  usecase \"Check out\" as CO\n  [Cart]\n  Cart ..> CO : fills\n}\nCustomer --> CO\n@enduml\n",
        "written in the container that holds both ends: {r}"
    );
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": DESCRIPTION, "edit": {"kind": "add_link", "args": {"from": "Customer", "to": "Nobody"}}}),
        )
        .await;
    assert_eq!(codes(&r), ["M0010"]);
    s.shutdown().await.unwrap();
}

const CLASSES: &str =
    "@startuml\nclass Customer\nclass Order\nCustomer --> Order : places\nOrder <|-- RushOrder\n@enduml\n";

#[tokio::test]
async fn class_diagram_edits_and_explain() {
    let (_root, mut s) = session("tools-class").await;
    let edits = [
        json!({"kind": "add_class", "args": {"name": "Invoice", "keyword": "interface"}}),
        json!({"kind": "add_member", "args": {"class": "Order", "member": "+total() : int"}}),
        json!({"kind": "add_relation", "args": {"from": "Order", "to": "Customer", "arrow": "*--", "label": "has"}}),
        json!({"kind": "remove_relation", "args": {"from": "Order", "to": "Customer"}}),
        json!({"kind": "rename_class", "args": {"from": "Order", "to": "Purchase"}}),
    ];
    for edit in edits {
        let r = s
            .call_result("puml_apply_edit", json!({"source": CLASSES, "edit": edit}))
            .await;
        assert_eq!(structured(&r)["ok"], true, "{edit}: {r}");
        assert_ne!(structured(&r)["source"], CLASSES, "{edit}");
    }
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": CLASSES, "edit": {"kind": "rename_class", "args": {"from": "Order", "to": "Purchase"}}}),
        )
        .await;
    assert_eq!(
        structured(&r)["source"],
        "@startuml\nclass Customer\nclass Purchase\nCustomer --> Purchase : places\nPurchase <|-- RushOrder\n@enduml\n",
        "every occurrence renamed"
    );
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": CLASSES, "edit": {"kind": "add_member", "args": {"class": "Nobody", "member": "x"}}}),
        )
        .await;
    assert_eq!(codes(&r), ["M0010"]);
    let r = s.call_result("puml_explain", json!({"source": CLASSES})).await;
    let class = &structured(&r)["class"];
    assert_eq!(class["elements"].as_array().map(Vec::len), Some(3), "{r}");
    assert_eq!(class["relations"][1]["from"], "RushOrder", "{r}");
    assert_eq!(class["relations"][1]["kind"], "extension", "{r}");
    assert_eq!(class["inheritance"][1]["name"], "RushOrder", "{r}");
}
