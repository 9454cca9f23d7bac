//! Every resource and prompt over the wire; the example diagrams pass puml_check.

mod common;

use common::{structured, Session};
use serde_json::{json, Value};

async fn session(name: &str) -> (std::path::PathBuf, Session) {
    let root = common::workspace(name);
    let mut s = Session::start(&root).await;
    s.initialize().await;
    (root, s)
}

fn text_of(response: &Value) -> String {
    response["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {response}"))
        .to_string()
}

#[tokio::test]
async fn every_listed_resource_reads() {
    let (_root, mut s) = session("res-all").await;
    let list = s.request("resources/list", json!({})).await;
    let uris: Vec<String> = list["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(uris.len(), 22);
    for uri in &uris {
        let r = s.request("resources/read", json!({"uri": uri})).await;
        assert!(!text_of(&r).is_empty(), "{uri}");
    }
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn examples_pass_check_and_render() {
    let (_root, mut s) = session("res-examples").await;
    for name in ["hello", "login-flow", "async-job", "lifecycle", "shop-classes"] {
        let r = s
            .request("resources/read", json!({"uri": format!("puml://examples/{name}")}))
            .await;
        let source = text_of(&r);
        let check = s.call_result("puml_check", json!({"source": source})).await;
        assert_eq!(structured(&check)["ok"], true, "{name}: {check}");
        assert_eq!(structured(&check)["summary"]["warnings"], 0, "{name}: {check}");
        let svg = s.call_result("puml_render_svg", json!({"source": source})).await;
        assert_eq!(structured(&svg)["ok"], true, "{name}");
    }
    // The class example is also explained as a class diagram.
    let r = s
        .request("resources/read", json!({"uri": "puml://examples/shop-classes"}))
        .await;
    let source = text_of(&r);
    let check = s.call_result("puml_check", json!({"source": source})).await;
    assert_eq!(structured(&check)["summary"]["errors"], 0, "{check}");
    let explained = s.call_result("puml_explain", json!({"source": source})).await;
    assert_eq!(
        structured(&explained)["class"]["elements"].as_array().map(Vec::len),
        Some(5),
        "{explained}"
    );
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn syntax_resources_reflect_the_catalog() {
    let (_root, mut s) = session("res-syntax").await;
    let primitives = s.call_result("puml_list_primitives", json!({})).await;
    for category in ["arrows", "participants", "notes", "groups", "lifecycle", "styling"] {
        let r = s
            .request("resources/read", json!({"uri": format!("puml://syntax/{category}")}))
            .await;
        let text = text_of(&r);
        for primitive in structured(&primitives)[category].as_array().unwrap() {
            let name = primitive["name"].as_str().unwrap();
            assert!(text.contains(&format!("## {name}")), "{category} lacks {name}");
        }
    }
    let spec = text_of(&s.request("resources/read", json!({"uri": "puml://syntax/spec"})).await);
    assert!(spec.contains("# puml syntax reference"));
    for theme in ["default", "dark", "minimal"] {
        let text = text_of(
            &s.request("resources/read", json!({"uri": format!("puml://themes/{theme}")}))
                .await,
        );
        assert!(
            text.contains(&format!("!theme {theme}")) && text.contains("| background |"),
            "{theme}"
        );
    }
    for uri in [
        "puml://syntax/nope",
        "puml://examples/nope",
        "puml://themes/neon",
        "puml://project/diagrams?x=1",
    ] {
        let r = s.request("resources/read", json!({"uri": uri})).await;
        assert!(r["error"].is_object(), "{uri}");
    }
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn project_resources_list_check_and_read_files() {
    let (root, mut s) = session("res-project").await;
    std::fs::create_dir_all(root.join(".hidden")).unwrap();
    std::fs::write(root.join(".hidden/skip.puml"), "@startuml\n@enduml\n").unwrap();
    std::fs::create_dir_all(root.join("node_modules/x")).unwrap();
    std::fs::write(root.join("node_modules/x/skip.puml"), "@startuml\n@enduml\n").unwrap();
    std::fs::write(root.join("docs/extra.plantuml"), common::LOGIN).unwrap();
    let listing: Value = serde_json::from_str(&text_of(
        &s.request("resources/read", json!({"uri": "puml://project/diagrams"}))
            .await,
    ))
    .unwrap();
    let paths: Vec<&str> = listing["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["broken.puml", "docs/extra.plantuml", "docs/login.puml"]);
    assert_eq!(listing["next"], Value::Null);
    let page1: Value = serde_json::from_str(&text_of(
        &s.request("resources/read", json!({"uri": "puml://project/diagrams?page=1"}))
            .await,
    ))
    .unwrap();
    assert_eq!(page1["files"], json!([]));
    let diagnostics: Value = serde_json::from_str(&text_of(
        &s.request("resources/read", json!({"uri": "puml://project/diagnostics"}))
            .await,
    ))
    .unwrap();
    let files = diagnostics["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["path"], "broken.puml");
    assert_eq!(files[0]["ok"], false);
    assert_eq!(files[2]["ok"], true);
    let file = text_of(
        &s.request(
            "resources/read",
            json!({"uri": "puml://project/file/docs%2Flogin.puml"}),
        )
        .await,
    );
    assert_eq!(file, common::LOGIN);
    let file = text_of(
        &s.request("resources/read", json!({"uri": "puml://project/file/docs/login.puml"}))
            .await,
    );
    assert_eq!(file, common::LOGIN);
    for uri in [
        "puml://project/file/missing.puml",
        "puml://project/file/bad%zz",
        "puml://project/file/docs",
    ] {
        let r = s.request("resources/read", json!({"uri": uri})).await;
        assert!(r["error"].is_object(), "{uri}");
    }
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn every_prompt_with_every_argument_form() {
    let (_root, mut s) = session("prompts").await;
    let mermaid = "sequenceDiagram\n  Alice->>Bob: Hello\n  Bob-->>Alice: Hi\n";
    let cases = [
        (
            "write_sequence_diagram",
            json!({"description": "checkout", "style": "dark", "include_lifecycle": "true", "include_notes": "yes"}),
            "do not write `!theme dark`",
        ),
        (
            "write_sequence_diagram",
            json!({"description": "checkout", "include_lifecycle": "false", "include_notes": "0"}),
            "Repeat until ok is true",
        ),
        (
            "review_sequence_diagram",
            json!({"source": common::LOGIN, "strict": "true"}),
            "Strict review",
        ),
        (
            "review_sequence_diagram",
            json!({"source": common::LOGIN}),
            "Verdict: pass / needs changes / invalid",
        ),
        (
            "convert_to_puml",
            json!({"input": mermaid, "input_type": "mermaid"}),
            "Alice -> Bob",
        ),
        (
            "convert_to_puml",
            json!({"input": "flowchart TD\n A-->B\n", "input_type": "mermaid"}),
            "not a Mermaid sequence diagram",
        ),
        (
            "convert_to_puml",
            json!({"input": "@startuml\nA -> B\n@enduml", "input_type": "plantuml"}),
            "PlantUML already",
        ),
        (
            "convert_to_puml",
            json!({"input": "12:00 api GET /x", "input_type": "logs"}),
            "timestamp order",
        ),
        (
            "convert_to_puml",
            json!({"input": "paths: {}", "input_type": "openapi"}),
            "method and path",
        ),
        (
            "convert_to_puml",
            json!({"input": "fn main() {}", "input_type": "code"}),
            "execution order",
        ),
        (
            "convert_to_puml",
            json!({"input": "Alice asks Bob", "input_type": "prose"}),
            "actors and systems",
        ),
        (
            "explain_sequence_diagram",
            json!({"source": common::LOGIN}),
            "puml_explain",
        ),
    ];
    for (name, arguments, expected) in cases {
        let r = s
            .request("prompts/get", json!({"name": name, "arguments": arguments}))
            .await;
        let text = r["result"]["messages"][0]["content"]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {r}"));
        assert!(
            text.contains(expected),
            "{name} {arguments}: missing `{expected}` in\n{text}"
        );
    }
    let r = s.request("prompts/get", json!({"name": "nope"})).await;
    assert_eq!(r["error"]["code"], -32602);
    s.shutdown().await.unwrap();
}
