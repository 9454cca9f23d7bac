//! Workflow JSON (seed 001) as plain Rust data: `title`, `nodes`, `edges`,
//! `variables`, `agents`. [`Workflow::to_json`] and [`Workflow::from_json`]
//! are the only translation to and from the JSON shape that
//! `docs/workflow.schema.json` describes.

use super::json::JsonValue;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Workflow {
    pub title: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub variables: Vec<Variable>,
    pub agents: Vec<Agent>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeType {
    WorkflowStart,
    PromptBlock,
    Router,
    Aggregator,
    Condition,
    Evaluator,
    Output,
}

impl NodeType {
    pub const ALL: [NodeType; 7] = [
        NodeType::WorkflowStart,
        NodeType::PromptBlock,
        NodeType::Router,
        NodeType::Aggregator,
        NodeType::Condition,
        NodeType::Evaluator,
        NodeType::Output,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NodeType::WorkflowStart => "workflowStart",
            NodeType::PromptBlock => "promptBlock",
            NodeType::Router => "router",
            NodeType::Aggregator => "aggregator",
            NodeType::Condition => "condition",
            NodeType::Evaluator => "evaluator",
            NodeType::Output => "output",
        }
    }

    pub fn parse(s: &str) -> Option<NodeType> {
        NodeType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// `repeat … repeat while` (test after the body) or `while … endwhile`
/// (test before it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoopKind {
    Repeat,
    While,
}

impl LoopKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LoopKind::Repeat => "repeat",
            LoopKind::While => "while",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: String,
    pub node_type: NodeType,
    pub data: NodeData,
}

/// Every node's `data`; which fields a type uses is in `docs/workflows.md`.
/// Absent fields are not written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeData {
    /// The activity text, the condition as written, `Start`, `Output`.
    pub label: String,
    /// The swimlane (agent) the activity is drawn in.
    pub agent: Option<String>,
    pub template: Option<String>,
    pub input: Option<String>,
    pub output: Option<String>,
    pub output_mode: Option<String>,
    pub output_schema: Option<JsonValue>,
    pub retries: Option<i64>,
    pub timeout: Option<i64>,
    pub routes: Vec<Route>,
    pub strategy: Option<String>,
    pub inputs: Vec<String>,
    pub separator: Option<String>,
    /// Condition and evaluator: the label without its trailing `?`.
    pub expression: Option<String>,
    pub true_label: Option<String>,
    pub false_label: Option<String>,
    pub loop_kind: Option<LoopKind>,
    pub loop_label: Option<String>,
    pub exit_label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub category: String,
    pub target: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub source: String,
    pub target: String,
    /// `output`, `true`, `false`, a router's category, or `loop`.
    pub source_handle: String,
    pub target_handle: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub var_type: Option<String>,
    pub required: Option<bool>,
    pub default: Option<JsonValue>,
    pub description: Option<String>,
}

/// How a swimlane name resolves to an agent at run time (seed 001,
/// "Agent Resolution").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resolution {
    Role,
    Id,
    Capability,
}

impl Resolution {
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Role => "role",
            Resolution::Id => "id",
            Resolution::Capability => "capability",
        }
    }

    /// `Agent_abc123` names an instance, `capability:x` a capability,
    /// anything else a role.
    pub fn for_name(name: &str) -> Resolution {
        if name.starts_with("Agent_") {
            Resolution::Id
        } else if name.to_ascii_lowercase().starts_with("capability:") {
            Resolution::Capability
        } else {
            Resolution::Role
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    /// The swimlane's identifier (`|Name|`, or the alias of `|#c|alias| Name`).
    pub name: String,
    /// What the swimlane header shows, when it differs from `name`.
    pub label: Option<String>,
    pub color: Option<String>,
    pub resolution: Resolution,
}

impl Workflow {
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The Workflow JSON document. `spans`, when given, adds each node's
    /// source range (`span: {start, end}`, byte offsets) for diagnostics
    /// and editors; it is never part of the workflow's meaning.
    pub fn to_json(&self, spans: Option<&[(u32, u32)]>) -> JsonValue {
        let nodes = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let mut fields = vec![
                    ("id".to_string(), JsonValue::str(&node.id)),
                    ("type".to_string(), JsonValue::str(node.node_type.as_str())),
                    ("data".to_string(), node.data.to_json()),
                ];
                if let Some((start, end)) = spans.and_then(|s| s.get(i)) {
                    fields.push((
                        "span".to_string(),
                        JsonValue::Object(vec![
                            ("start".to_string(), JsonValue::Number(start.to_string())),
                            ("end".to_string(), JsonValue::Number(end.to_string())),
                        ]),
                    ));
                }
                JsonValue::Object(fields)
            })
            .collect();
        let edges = self
            .edges
            .iter()
            .map(|e| {
                JsonValue::Object(vec![
                    ("source".to_string(), JsonValue::str(&e.source)),
                    ("target".to_string(), JsonValue::str(&e.target)),
                    ("sourceHandle".to_string(), JsonValue::str(&e.source_handle)),
                    ("targetHandle".to_string(), JsonValue::str(&e.target_handle)),
                ])
            })
            .collect();
        let variables = self
            .variables
            .iter()
            .map(|v| {
                let mut f = vec![("name".to_string(), JsonValue::str(&v.name))];
                opt_str(&mut f, "type", &v.var_type);
                if let Some(r) = v.required {
                    f.push(("required".to_string(), JsonValue::Bool(r)));
                }
                if let Some(d) = &v.default {
                    f.push(("default".to_string(), d.clone()));
                }
                opt_str(&mut f, "description", &v.description);
                JsonValue::Object(f)
            })
            .collect();
        let agents = self
            .agents
            .iter()
            .map(|a| {
                let mut f = vec![("name".to_string(), JsonValue::str(&a.name))];
                opt_str(&mut f, "label", &a.label);
                opt_str(&mut f, "color", &a.color);
                f.push(("resolution".to_string(), JsonValue::str(a.resolution.as_str())));
                JsonValue::Object(f)
            })
            .collect();
        JsonValue::Object(vec![
            ("title".to_string(), JsonValue::str(&self.title)),
            ("nodes".to_string(), JsonValue::Array(nodes)),
            ("edges".to_string(), JsonValue::Array(edges)),
            ("variables".to_string(), JsonValue::Array(variables)),
            ("agents".to_string(), JsonValue::Array(agents)),
        ])
    }

    /// Reads a Workflow JSON document; every problem is one message naming
    /// where it is (`nodes[3].data.retries`). Unknown fields are ignored
    /// (`span` among them).
    pub fn from_json(value: &JsonValue) -> Result<Workflow, Vec<String>> {
        let mut errors = Vec::new();
        let mut workflow = Workflow::default();
        let JsonValue::Object(_) = value else {
            return Err(vec!["the document is not a JSON object".to_string()]);
        };
        match value.get("title") {
            Some(JsonValue::String(s)) => workflow.title = s.clone(),
            None | Some(JsonValue::Null) => {}
            Some(_) => errors.push("title: expected a string".to_string()),
        }
        for (i, node) in array(value, "nodes", &mut errors).iter().enumerate() {
            let at = format!("nodes[{i}]");
            let id = req_str(node, "id", &at, &mut errors);
            let node_type = match node.get("type").and_then(JsonValue::as_str) {
                Some(t) => match NodeType::parse(t) {
                    Some(t) => t,
                    None => {
                        errors.push(format!(
                            "{at}.type: unknown node type `{t}` (expected one of {})",
                            NodeType::ALL.map(|t| t.as_str()).join(", ")
                        ));
                        continue;
                    }
                },
                None => {
                    errors.push(format!("{at}.type: missing"));
                    continue;
                }
            };
            let data = match node.get("data") {
                Some(d @ JsonValue::Object(_)) => NodeData::from_json(d, &format!("{at}.data"), &mut errors),
                None => NodeData::default(),
                Some(_) => {
                    errors.push(format!("{at}.data: expected an object"));
                    NodeData::default()
                }
            };
            workflow.nodes.push(Node { id, node_type, data });
        }
        for (i, edge) in array(value, "edges", &mut errors).iter().enumerate() {
            let at = format!("edges[{i}]");
            let source = req_str(edge, "source", &at, &mut errors);
            let target = req_str(edge, "target", &at, &mut errors);
            let source_handle = opt(edge, "sourceHandle", &at, &mut errors).unwrap_or_else(|| "output".to_string());
            let target_handle = opt(edge, "targetHandle", &at, &mut errors).unwrap_or_else(|| "input".to_string());
            workflow.edges.push(Edge {
                source,
                target,
                source_handle,
                target_handle,
            });
        }
        for (i, var) in array(value, "variables", &mut errors).iter().enumerate() {
            let at = format!("variables[{i}]");
            let name = req_str(var, "name", &at, &mut errors);
            let required = match var.get("required") {
                Some(JsonValue::Bool(b)) => Some(*b),
                None => None,
                Some(_) => {
                    errors.push(format!("{at}.required: expected true or false"));
                    None
                }
            };
            workflow.variables.push(Variable {
                name,
                var_type: opt(var, "type", &at, &mut errors),
                required,
                default: var.get("default").cloned(),
                description: opt(var, "description", &at, &mut errors),
            });
        }
        for (i, agent) in array(value, "agents", &mut errors).iter().enumerate() {
            let at = format!("agents[{i}]");
            let name = req_str(agent, "name", &at, &mut errors);
            let resolution = match agent.get("resolution").and_then(JsonValue::as_str) {
                Some("role") => Resolution::Role,
                Some("id") => Resolution::Id,
                Some("capability") => Resolution::Capability,
                None => Resolution::for_name(&name),
                Some(other) => {
                    errors.push(format!("{at}.resolution: `{other}` is not role, id or capability"));
                    Resolution::Role
                }
            };
            workflow.agents.push(Agent {
                label: opt(agent, "label", &at, &mut errors),
                color: opt(agent, "color", &at, &mut errors),
                name,
                resolution,
            });
        }
        if errors.is_empty() {
            Ok(workflow)
        } else {
            Err(errors)
        }
    }
}

impl NodeData {
    fn to_json(&self) -> JsonValue {
        let mut f = vec![("label".to_string(), JsonValue::str(&self.label))];
        opt_str(&mut f, "agent", &self.agent);
        opt_str(&mut f, "template", &self.template);
        opt_str(&mut f, "input", &self.input);
        opt_str(&mut f, "output", &self.output);
        opt_str(&mut f, "outputMode", &self.output_mode);
        if let Some(schema) = &self.output_schema {
            f.push(("outputSchema".to_string(), schema.clone()));
        }
        if let Some(n) = self.retries {
            f.push(("retries".to_string(), JsonValue::Number(n.to_string())));
        }
        if let Some(n) = self.timeout {
            f.push(("timeout".to_string(), JsonValue::Number(n.to_string())));
        }
        if !self.routes.is_empty() {
            let routes = self
                .routes
                .iter()
                .map(|r| {
                    JsonValue::Object(vec![
                        ("category".to_string(), JsonValue::str(&r.category)),
                        ("target".to_string(), JsonValue::str(&r.target)),
                    ])
                })
                .collect();
            f.push(("routes".to_string(), JsonValue::Array(routes)));
        }
        opt_str(&mut f, "strategy", &self.strategy);
        if !self.inputs.is_empty() {
            f.push((
                "inputs".to_string(),
                JsonValue::Array(self.inputs.iter().map(JsonValue::str).collect()),
            ));
        }
        opt_str(&mut f, "separator", &self.separator);
        opt_str(&mut f, "expression", &self.expression);
        opt_str(&mut f, "trueLabel", &self.true_label);
        opt_str(&mut f, "falseLabel", &self.false_label);
        if let Some(kind) = self.loop_kind {
            f.push(("loop".to_string(), JsonValue::str(kind.as_str())));
        }
        opt_str(&mut f, "loopLabel", &self.loop_label);
        opt_str(&mut f, "exitLabel", &self.exit_label);
        JsonValue::Object(f)
    }

    fn from_json(value: &JsonValue, at: &str, errors: &mut Vec<String>) -> NodeData {
        let int = |key: &str, errors: &mut Vec<String>| match value.get(key) {
            None => None,
            Some(v) => match v.as_i64() {
                Some(n) => Some(n),
                None => {
                    errors.push(format!("{at}.{key}: expected an integer"));
                    None
                }
            },
        };
        let mut routes = Vec::new();
        if let Some(list) = value.get("routes") {
            match list.as_array() {
                Some(items) => {
                    for (i, r) in items.iter().enumerate() {
                        let here = format!("{at}.routes[{i}]");
                        routes.push(Route {
                            category: req_str(r, "category", &here, errors),
                            target: req_str(r, "target", &here, errors),
                        });
                    }
                }
                None => errors.push(format!("{at}.routes: expected an array")),
            }
        }
        let mut inputs = Vec::new();
        if let Some(list) = value.get("inputs") {
            match list.as_array() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        match item.as_str() {
                            Some(s) => inputs.push(s.to_string()),
                            None => errors.push(format!("{at}.inputs[{i}]: expected a string")),
                        }
                    }
                }
                None => errors.push(format!("{at}.inputs: expected an array")),
            }
        }
        let loop_kind = match value.get("loop").and_then(JsonValue::as_str) {
            Some("repeat") => Some(LoopKind::Repeat),
            Some("while") => Some(LoopKind::While),
            None => None,
            Some(other) => {
                errors.push(format!("{at}.loop: `{other}` is not repeat or while"));
                None
            }
        };
        NodeData {
            label: opt(value, "label", at, errors).unwrap_or_default(),
            agent: opt(value, "agent", at, errors),
            template: opt(value, "template", at, errors),
            input: opt(value, "input", at, errors),
            output: opt(value, "output", at, errors),
            output_mode: opt(value, "outputMode", at, errors),
            output_schema: value.get("outputSchema").cloned(),
            retries: int("retries", errors),
            timeout: int("timeout", errors),
            routes,
            strategy: opt(value, "strategy", at, errors),
            inputs,
            separator: opt(value, "separator", at, errors),
            expression: opt(value, "expression", at, errors),
            true_label: opt(value, "trueLabel", at, errors),
            false_label: opt(value, "falseLabel", at, errors),
            loop_kind,
            loop_label: opt(value, "loopLabel", at, errors),
            exit_label: opt(value, "exitLabel", at, errors),
        }
    }
}

fn opt_str(fields: &mut Vec<(String, JsonValue)>, key: &str, value: &Option<String>) {
    if let Some(v) = value {
        fields.push((key.to_string(), JsonValue::str(v)));
    }
}

fn array<'a>(value: &'a JsonValue, key: &str, errors: &mut Vec<String>) -> &'a [JsonValue] {
    match value.get(key) {
        None => &[],
        Some(v) => match v.as_array() {
            Some(items) => items,
            None => {
                errors.push(format!("{key}: expected an array"));
                &[]
            }
        },
    }
}

fn req_str(value: &JsonValue, key: &str, at: &str, errors: &mut Vec<String>) -> String {
    match value.get(key) {
        Some(JsonValue::String(s)) => s.clone(),
        Some(_) => {
            errors.push(format!("{at}.{key}: expected a string"));
            String::new()
        }
        None => {
            errors.push(format!("{at}.{key}: missing"));
            String::new()
        }
    }
}

fn opt(value: &JsonValue, key: &str, at: &str, errors: &mut Vec<String>) -> Option<String> {
    match value.get(key) {
        Some(JsonValue::String(s)) => Some(s.clone()),
        None | Some(JsonValue::Null) => None,
        Some(_) => {
            errors.push(format!("{at}.{key}: expected a string"));
            None
        }
    }
}
