//! Protocol transcripts: the JSON-RPC lines exchanged with the server for
//! every request kind of the spec, snapshot-tested
//! (`UPDATE_EXPECT=1 cargo test -p puml-mcp` refreshes them).

mod common;

use common::{is_error, structured, Session, LOGIN};
use expect_test::expect_file;
use serde_json::{json, Value};

#[tokio::test]
async fn transcript_of_a_full_session() {
    let root = common::workspace("transcript");
    let mut s = Session::start(&root).await;

    s.transcript.push_str("## initialize\n");
    let init = s.initialize().await;
    assert_eq!(init["result"]["serverInfo"]["name"], "puml-mcp");
    assert!(init["result"]["capabilities"]["tools"].is_object());
    assert!(init["result"]["capabilities"]["resources"].is_object());
    assert!(init["result"]["capabilities"]["prompts"].is_object());

    s.transcript.push_str("\n## tools/list\n");
    let tools = s.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "puml_parse",
            "puml_check",
            "puml_render_svg",
            "puml_export",
            "puml_normalize",
            "puml_apply_edit",
            "puml_explain",
            "puml_list_primitives",
            "puml_lint_readability",
            "puml_render_file",
            "puml_workflow_import",
            "puml_workflow_export",
            "puml_workflow_validate"
        ]
    );

    s.transcript.push_str("\n## tools/call puml_parse\n");
    let r = s
        .call_result("puml_parse", json!({"source": "@startuml\nA -> B : hi\n@enduml\n"}))
        .await;
    assert_eq!(structured(&r)["ok"], true);
    assert_eq!(structured(&r)["ast"]["kind"], "ROOT");

    s.transcript.push_str("\n## tools/call puml_check (valid)\n");
    let r = s.call_result("puml_check", json!({"source": LOGIN})).await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    assert!(!is_error(&r));

    s.transcript.push_str("\n## tools/call puml_check (invalid, by path)\n");
    let r = s.call_result("puml_check", json!({"path": "broken.puml"})).await;
    assert_eq!(structured(&r)["ok"], false, "{r}");
    assert!(is_error(&r));

    s.transcript
        .push_str("\n## tools/call puml_check (fix: true returns the repaired source)\n");
    let broken = "@startuml\nrect rgb(200, 220, 255)\nAlice -) Bob: hi\nend\nactivate\n@enduml\n";
    let r = s
        .call_result("puml_check", json!({"source": broken, "fix": true}))
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    assert_eq!(
        structured(&r)["fixed_source"],
        "@startuml\ngroup\nAlice ->> Bob: hi\nend\nactivate Bob\n@enduml\n",
        "{r}"
    );
    assert_eq!(structured(&r)["fixes_applied"], 3, "{r}");

    s.transcript.push_str("\n## tools/call puml_render_svg\n");
    let r = s.call_result("puml_render_svg", json!({"source": LOGIN})).await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    assert!(
        structured(&r)["svg"].as_str().unwrap().starts_with("<svg")
            || structured(&r)["svg"].as_str().unwrap().starts_with("<?xml")
    );

    s.transcript
        .push_str("\n## tools/call puml_export (png inline: image content)\n");
    let r = s
        .call_result("puml_export", json!({"source": LOGIN, "format": "png"}))
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");
    let image = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .expect("image content");
    assert_eq!(image["mimeType"], "image/png");

    s.transcript.push_str("\n## tools/call puml_export (model-json)\n");
    let r = s
        .call_result("puml_export", json!({"source": LOGIN, "format": "model-json"}))
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");

    s.transcript.push_str("\n## tools/call puml_normalize\n");
    let r = s
        .call_result(
            "puml_normalize",
            json!({"source": "@startuml\nA->B:hi\n@enduml\n", "addExplicitParticipants": true}),
        )
        .await;
    assert_eq!(structured(&r)["ok"], true, "{r}");

    s.transcript.push_str("\n## tools/call puml_apply_edit\n");
    let r = s
        .call_result(
            "puml_apply_edit",
            json!({"source": LOGIN, "edit": {"kind": "rename_participant", "args": {"from": "API", "to": "Gateway"}}}),
        )
        .await;
    let _ = is_error(&r);

    s.transcript.push_str("\n## tools/call puml_explain\n");
    let r = s.call_result("puml_explain", json!({"source": LOGIN})).await;
    assert_eq!(structured(&r)["ok"], true, "{r}");

    s.transcript.push_str("\n## tools/call puml_list_primitives\n");
    let r = s.call_result("puml_list_primitives", json!({})).await;
    assert!(!structured(&r)["arrows"].as_array().unwrap().is_empty());

    s.transcript.push_str("\n## tools/call puml_lint_readability\n");
    let r = s.call_result("puml_lint_readability", json!({"source": LOGIN})).await;
    assert_eq!(structured(&r)["ok"], true, "{r}");

    s.transcript.push_str("\n## tools/call puml_render_file\n");
    let r = s
        .call_result(
            "puml_render_file",
            json!({"path": "docs/login.puml", "output_path": "docs/login.svg", "write": true}),
        )
        .await;
    assert_eq!(structured(&r)["output_path"], "docs/login.svg", "{r}");
    assert!(root.join("docs/login.svg").is_file());

    s.transcript
        .push_str("\n## tools/call invalid arguments (unknown field)\n");
    let r = s.call("puml_check", json!({"source": LOGIN, "sauce": 1})).await;
    assert_eq!(r["error"]["code"], -32602);

    s.transcript
        .push_str("\n## tools/call invalid arguments (wrong type)\n");
    let r = s.call("puml_check", json!({"source": 42})).await;
    assert_eq!(r["error"]["code"], -32602);

    s.transcript
        .push_str("\n## tools/call invalid arguments (neither source nor path)\n");
    let r = s.call("puml_check", json!({})).await;
    assert_eq!(r["error"]["code"], -32602);

    s.transcript.push_str("\n## tools/call unknown tool\n");
    let r = s.call("puml_exec", json!({"command": "ls"})).await;
    assert_eq!(r["error"]["code"], -32602);

    s.transcript.push_str("\n## resources/list\n");
    let r = s.request("resources/list", json!({})).await;
    assert_eq!(r["result"]["resources"].as_array().unwrap().len(), 22);

    s.transcript.push_str("\n## resources/templates/list\n");
    let r = s.request("resources/templates/list", json!({})).await;
    assert_eq!(
        r["result"]["resourceTemplates"][0]["uriTemplate"],
        "puml://project/file/{path}"
    );

    s.transcript.push_str("\n## resources/read\n");
    let r = s
        .request("resources/read", json!({"uri": "puml://examples/hello"}))
        .await;
    assert!(r["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .contains("@startuml"));
    let r = s
        .request("resources/read", json!({"uri": "puml://project/diagrams"}))
        .await;
    let listing: Value = serde_json::from_str(r["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(listing["total"], 2);

    s.transcript.push_str("\n## resources/read (unknown)\n");
    let r = s.request("resources/read", json!({"uri": "puml://nope"})).await;
    assert!(r["error"].is_object());

    s.transcript.push_str("\n## prompts/list\n");
    let r = s.request("prompts/list", json!({})).await;
    assert_eq!(r["result"]["prompts"].as_array().unwrap().len(), 6);

    s.transcript.push_str("\n## prompts/get\n");
    let r = s
        .request(
            "prompts/get",
            json!({"name": "write_sequence_diagram", "arguments": {"description": "login with browser, API and database", "style": "docs", "include_lifecycle": "true"}}),
        )
        .await;
    assert!(r["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .contains("puml_check"));

    s.transcript.push_str("\n## prompts/get (missing argument)\n");
    let r = s
        .request(
            "prompts/get",
            json!({"name": "review_sequence_diagram", "arguments": {}}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);

    s.transcript.push_str("\n## ping\n");
    let r = s.request("ping", json!({})).await;
    assert!(r["result"].is_object());

    s.transcript.push_str("\n## shutdown\n");
    s.shutdown().await.unwrap();

    expect_file!["../../../test-data/mcp/transcript.txt"].assert_eq(&s.transcript);
}

#[tokio::test]
async fn tool_schemas_are_snapshot_tested() {
    let root = common::workspace("schemas");
    let mut s = Session::start(&root).await;
    s.initialize().await;
    let tools = s.request("tools/list", json!({})).await;
    let tools = tools["result"]["tools"].as_array().unwrap();
    for tool in tools {
        let input = &tool["inputSchema"];
        assert_eq!(input["type"], "object", "{}", tool["name"]);
        assert_eq!(
            input["additionalProperties"], false,
            "{} must reject unknown fields",
            tool["name"]
        );
        assert!(
            tool["outputSchema"].is_object(),
            "{} has no output schema",
            tool["name"]
        );
        let name = tool["name"].as_str().unwrap();
        let schemas = json!({"inputSchema": tool["inputSchema"], "outputSchema": tool["outputSchema"], "annotations": tool["annotations"]});
        let pretty = serde_json::to_string_pretty(&schemas).unwrap() + "\n";
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../test-data/mcp/schemas")
            .join(format!("{name}.json"));
        expect_test::expect_file![path].assert_eq(&pretty);
    }
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn malformed_messages_do_not_stop_the_server() {
    let root = common::workspace("malformed");
    let mut s = Session::start(&root).await;
    s.initialize().await;
    // Unparsable input is ignored (there is no id to answer); JSON that is
    // not a valid message is an Invalid Request error.
    s.raw_no_reply("{this is not json").await;
    let r = s.raw(r#"{"jsonrpc":"2.0","id":99,"method":42}"#).await;
    assert!(r["error"].is_object(), "{r}");
    let r = s.call_result("puml_check", json!({"source": LOGIN})).await;
    assert_eq!(structured(&r)["ok"], true);
    s.shutdown().await.unwrap();
}
