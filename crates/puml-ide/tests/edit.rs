//! Snapshot tests of structural edits: each line `KIND {json args}` of
//! `test-data/edit/NAME.edits` is applied on its own to `NAME.puml`; the
//! diff or the error goes to `NAME.out` (`UPDATE_EXPECT=1` refreshes).

use puml_ide::edit::{apply_edit, ArgValue, Edit};
use puml_ide::format::unified_diff;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn arg_value(value: &serde_json::Value) -> ArgValue {
    match value {
        serde_json::Value::Null => ArgValue::Null,
        serde_json::Value::Bool(b) => ArgValue::Bool(*b),
        serde_json::Value::Number(n) => n.as_i64().map_or(ArgValue::Text(n.to_string()), ArgValue::Number),
        serde_json::Value::String(s) => ArgValue::Text(s.clone()),
        serde_json::Value::Array(items) => ArgValue::List(items.iter().map(arg_value).collect()),
        serde_json::Value::Object(_) => ArgValue::Text(value.to_string()),
    }
}

#[test]
fn edit_fixtures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/edit");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test-data/edit exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "edits"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty());
    for script in &scripts {
        let source = std::fs::read_to_string(script.with_extension("puml")).unwrap();
        let mut out = String::new();
        for line in std::fs::read_to_string(script).unwrap().lines() {
            let (kind, json) = line.split_once(' ').unwrap_or((line, "{}"));
            out.push_str(&format!("### {line}\n"));
            let args: serde_json::Value = serde_json::from_str(json).expect("valid JSON in the fixture");
            let map: BTreeMap<String, ArgValue> = args
                .as_object()
                .map(|o| o.iter().map(|(k, v)| (k.clone(), arg_value(v))).collect())
                .unwrap_or_default();
            match Edit::parse(kind, &map).and_then(|edit| apply_edit(&source, &edit)) {
                Ok(result) => {
                    let (patched, skipped) = puml_syntax::apply_edits(&source, &result.edits);
                    assert_eq!((patched.as_str(), skipped), (result.source.as_str(), 0), "{line}");
                    out.push_str(&unified_diff(&source, &result.source, "before", "after"));
                    for d in &result.diagnostics {
                        out.push_str(&format!(
                            "diagnostic {} {}: {}\n",
                            d.severity.as_str(),
                            d.code,
                            d.message
                        ));
                    }
                }
                Err(e) => out.push_str(&format!("error: {e}\n")),
            }
            out.push('\n');
        }
        expect_test::expect_file![script.with_extension("out")].assert_eq(&out);
    }
}
