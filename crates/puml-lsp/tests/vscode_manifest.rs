//! The VS Code extension's manifest against the server's catalogues: the
//! `puml.theme` setting (and the preview's theme menu, which reads it)
//! lists exactly the themes the renderer draws, in its order, so the two
//! cannot drift apart.

use std::path::Path;

#[test]
fn the_theme_setting_lists_every_theme_the_renderer_draws() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../editors/vscode/package.json");
    let text = std::fs::read_to_string(&path).expect("the extension's package.json");
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    let listed: Vec<&str> = manifest["contributes"]["configuration"]["properties"]["puml.theme"]["enum"]
        .as_array()
        .expect("puml.theme has an enum")
        .iter()
        .map(|v| v.as_str().expect("theme names are strings"))
        .collect();
    let mut expected = vec![""];
    expected.extend(puml_ide::render::THEME_NAMES);
    assert_eq!(
        listed, expected,
        "editors/vscode/package.json's puml.theme enum must be \"\" then puml_ide::render::THEME_NAMES"
    );
    assert!(listed.contains(&"plain") && listed.contains(&"cerulean") && listed.len() > 40);
}
