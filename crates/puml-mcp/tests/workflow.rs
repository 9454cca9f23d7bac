//! The agent-workflow tools over the wire: import, export and validate of
//! every workflow example (round trip included), the template registry,
//! and the same path sandbox as every other tool.

mod common;

use common::{codes, is_error, structured, Session};
use serde_json::{json, Value};

async fn session(name: &str) -> (std::path::PathBuf, Session) {
    let root = common::workspace(name);
    let mut s = Session::start(&root).await;
    s.initialize().await;
    (root, s)
}

async fn example(s: &mut Session, name: &str) -> String {
    let r = s
        .request(
            "resources/read",
            json!({"uri": format!("puml://workflow/examples/{name}")}),
        )
        .await;
    r["result"]["contents"][0]["text"].as_str().unwrap().to_string()
}

fn without_spans(workflow: &Value) -> Value {
    let mut w = workflow.clone();
    for node in w["nodes"].as_array_mut().unwrap() {
        node.as_object_mut().unwrap().remove("span");
    }
    w
}

#[tokio::test]
async fn examples_import_validate_and_round_trip() {
    let (_root, mut s) = session("wf-examples").await;
    for name in ["code-review", "support-router", "refine-loop", "parallel-research"] {
        let source = example(&mut s, name).await;
        let v = s.call_result("puml_workflow_validate", json!({"source": source})).await;
        assert_eq!(structured(&v)["ok"], true, "{name}: {v}");
        assert_eq!(structured(&v)["templatesChecked"], false);
        let r = s.call_result("puml_workflow_import", json!({"source": source})).await;
        assert!(!is_error(&r), "{name}: {r}");
        let workflow = structured(&r)["workflow"].clone();
        assert!(workflow["nodes"][0]["span"]["end"].as_u64().unwrap() > 0);
        let e = s
            .call_result("puml_workflow_export", json!({"workflow": workflow}))
            .await;
        let exported = structured(&e)["source"].as_str().unwrap().to_string();
        let again = s.call_result("puml_workflow_import", json!({"source": exported})).await;
        assert_eq!(
            without_spans(&structured(&again)["workflow"]),
            without_spans(&workflow),
            "{name}: import(export(w)) != w"
        );
    }
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn registry_paths_and_errors() {
    let (root, mut s) = session("wf-registry").await;
    let source = example(&mut s, "support-router").await;
    std::fs::create_dir_all(root.join("templates")).unwrap();
    for id in [
        "request-classifier",
        "tech-support",
        "billing-support",
        "general-support",
    ] {
        std::fs::write(root.join("templates").join(format!("{id}.md")), "prompt").unwrap();
    }
    let v = s
        .call_result(
            "puml_workflow_validate",
            json!({"source": source, "templates": "templates"}),
        )
        .await;
    assert_eq!(structured(&v)["ok"], true, "{v}");
    assert_eq!(structured(&v)["templatesChecked"], true);
    std::fs::remove_file(root.join("templates/billing-support.md")).unwrap();
    let v = s
        .call_result(
            "puml_workflow_validate",
            json!({"source": source, "templates": "templates"}),
        )
        .await;
    assert_eq!(codes(&v), ["F0203"], "{v}");
    // The sandbox: a registry or a workflow file outside the roots is refused.
    let v = s
        .call_result(
            "puml_workflow_validate",
            json!({"source": source, "templates": "../../etc"}),
        )
        .await;
    assert_eq!(codes(&v), ["M0001"], "{v}");
    let e = s
        .call_result("puml_workflow_export", json!({"workflowPath": "/etc/passwd"}))
        .await;
    assert_eq!(codes(&e), ["M0001"], "{e}");
    // A workflow file inside the roots is read; bad JSON is F0002.
    std::fs::write(root.join("w.json"), "{\"nodes\": 3}").unwrap();
    let e = s
        .call_result("puml_workflow_export", json!({"workflowPath": "w.json"}))
        .await;
    assert_eq!(codes(&e), ["F0002"], "{e}");
    let v = s.call_result("puml_workflow_validate", json!({"path": "w.json"})).await;
    assert_eq!(codes(&v), ["F0002"], "{v}");
    // A sequence diagram is no workflow.
    let r = s
        .call_result("puml_workflow_import", json!({"source": common::LOGIN}))
        .await;
    assert_eq!(codes(&r), ["F0001"], "{r}");
    let bad = s
        .call("puml_workflow_validate", json!({"source": source, "bogus": 1}))
        .await;
    assert!(bad["error"].is_object(), "{bad}");
    s.shutdown().await.unwrap();
}
