//! The JSON shapes of puml's reports, written once: `puml check --format
//! json`, `puml explain --format json`, `puml lint --format json` and the
//! WebAssembly build's `check`/`explain` all answer through these
//! functions, so a program that reads one reads them all.

use puml_ide::check::LineColDiagnostic;
use puml_ide::explain::Explanation;
use puml_syntax::{Diagnostic, LineIndex};
use serde_json::{json, Value};

/// One diagnostic located by line and column (1-based, Unicode scalar
/// values), with its fixes: the shape of `puml check --format json`'s
/// `files[].diagnostics[]`, shared by the MCP server and the agent skills.
pub fn diagnostic_json(d: &LineColDiagnostic) -> Value {
    let mut value = json!({
        "severity": d.severity.as_str(),
        "code": d.code,
        "message": d.message,
        "line": d.range.line,
        "column": d.range.column,
        "end_line": d.range.end_line,
        "end_column": d.range.end_column,
        "fixes": d.fixes.iter().map(|f| json!({
            "title": f.title,
            "edits": f.edits.iter().map(|e| json!({
                "line": e.range.line,
                "column": e.range.column,
                "end_line": e.range.end_line,
                "end_column": e.range.end_column,
                "new_text": e.new_text,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    if let Some(file) = &d.file {
        value["file"] = json!(file);
    }
    value
}

/// `diagnostics` (byte ranges into `text`) located and written as
/// [`diagnostic_json`] writes them.
pub fn diagnostics_json(text: &str, diagnostics: &[Diagnostic]) -> Vec<Value> {
    let index = LineIndex::new(text);
    diagnostics
        .iter()
        .map(|d| diagnostic_json(&puml_ide::check::locate(text, &index, d, &[])))
        .collect()
}

/// One diagram's explanation: the shape of `puml explain --format json`.
pub fn explanation_json(text: &str, e: &Explanation) -> Value {
    json!({
        "summary": e.summary,
        "title": e.title,
        "diagram_count": e.diagram_count,
        "diagram_index": e.diagram_index,
        "participants": e.participants.iter().map(|p| json!({
            "name": p.name,
            "alias": p.alias,
            "kind": p.kind.keyword(),
            "declared_line": p.declared_line,
            "messages_sent": p.messages_sent,
            "messages_received": p.messages_received,
        })).collect::<Vec<_>>(),
        "flow": e.flow.iter().map(|s| json!({
            "number": s.number,
            "line": s.line,
            "from": s.from,
            "to": s.to,
            "label": s.label,
            "arrow_kind": s.arrow_kind.as_str(),
            "group_path": s.group_path,
        })).collect::<Vec<_>>(),
        "groups": e.groups.iter().map(|g| json!({
            "kind": g.kind.keyword(),
            "label": g.label,
            "line": g.line,
            "depth": g.depth,
            "branches": g.branches.iter().map(|b| json!({
                "label": b.label,
                "line": b.line,
                "messages": b.messages,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "notes": e.notes.iter().map(|n| json!({
            "line": n.line,
            "position": n.position,
            "participants": n.participants,
            "text": n.text,
        })).collect::<Vec<_>>(),
        "activity": e.activity.as_ref().map(|a| json!({
            "lanes": a.lanes.iter().map(|l| json!({
                "name": l.name,
                "color": l.color,
                "line": l.line,
                "actions": l.actions,
            })).collect::<Vec<_>>(),
            "steps": a.steps.iter().map(|s| json!({
                "line": s.line,
                "depth": s.depth,
                "text": s.text,
                "lane": s.lane,
            })).collect::<Vec<_>>(),
            "actions": a.actions,
            "decisions": a.decisions,
            "loops": a.loops,
            "parallel": a.parallel,
        })),
        "class": e.class.as_ref().map(|c| json!({
            "elements": c.elements.iter().map(|el| json!({
                "name": el.name,
                "keyword": el.keyword,
                "line": el.line,
                "declared": el.declared,
                "members": el.members,
                "relations_out": el.relations_out,
                "relations_in": el.relations_in,
            })).collect::<Vec<_>>(),
            "relations": c.relations.iter().map(|r| json!({
                "line": r.line,
                "from": r.from,
                "to": r.to,
                "kind": r.kind,
                "label": r.label,
            })).collect::<Vec<_>>(),
            "inheritance": c.inheritance.iter().map(|l| json!({
                "depth": l.depth,
                "name": l.name,
            })).collect::<Vec<_>>(),
            "packages": c.packages,
        })),
        "diagnostics": diagnostics_json(text, &e.diagnostics),
    })
}

/// Every diagram's explanation as `puml explain --format json` prints it:
/// the first diagram's fields at the top level (one diagram is the common
/// case), every diagram under `diagrams` when there are more; `null` when
/// the text holds no diagram.
pub fn explanations_json(text: &str, explanations: &[Explanation]) -> Value {
    let Some(first) = explanations.first() else {
        return Value::Null;
    };
    let mut value = explanation_json(text, first);
    if explanations.len() > 1 {
        value["diagrams"] = Value::Array(explanations.iter().map(|e| explanation_json(text, e)).collect());
    }
    value
}
