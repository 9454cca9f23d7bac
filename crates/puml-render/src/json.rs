//! Scene → JSON (the geometry, for tools and tests).

use puml_layout::Scene;

/// Pretty-printed JSON of the scene; deterministic (field order is fixed).
pub fn to_scene_json(scene: &Scene) -> String {
    let mut text = serde_json::to_string_pretty(scene).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}
