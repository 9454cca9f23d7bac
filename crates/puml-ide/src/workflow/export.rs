//! Workflow → PlantUML activity diagram in the seed's style: swimlane
//! declarations, `start` with its `<<input>>` note, activities with YAML
//! notes, `if`/`elseif`/`else`, `fork`, `split` after a router, `repeat` and
//! `while` loops, `stop`.
//!
//! The graph is turned back into nested blocks: a branching node's blocks
//! close at the nearest node every branch reaches (the first common
//! successor in topological order). A graph that is not a nest of such
//! blocks (an edge jumping into another branch) has no activity-diagram
//! form and is refused, with the node that breaks it named.

use super::json::{quoted, JsonValue};
use super::model::{LoopKind, NodeData, NodeType, Workflow};

/// Nesting deeper than this is refused rather than recursed into.
const MAX_DEPTH: usize = 200;

pub fn export(workflow: &Workflow) -> Result<String, Vec<String>> {
    let g = Graph::new(workflow)?;
    let mut out = String::from("@startuml\n");
    if !workflow.title.trim().is_empty() {
        out.push_str(&format!("title {}\n", workflow.title.trim()));
    }
    out.push('\n');
    for agent in &workflow.agents {
        let color = agent
            .color
            .as_deref()
            .map(|c| format!("#{}|", c.trim_start_matches('#')))
            .unwrap_or_default();
        match &agent.label {
            Some(label) => out.push_str(&format!("|{color}{}| {label}\n", agent.name)),
            None => out.push_str(&format!("|{color}{}|\n", agent.name)),
        }
    }
    if !workflow.agents.is_empty() {
        out.push('\n');
    }
    let mut e = Emitter {
        wf: workflow,
        out,
        indent: 0,
        lane: workflow.agents.last().map(|a| a.name.clone()),
        emitted: vec![false; workflow.nodes.len()],
        repeat_open: vec![false; workflow.nodes.len()],
        fork_open: vec![false; workflow.nodes.len()],
        errors: Vec::new(),
        variables_written: false,
    };
    // The flow begins at `start`, else at the nodes nothing leads to;
    // several of those are the branches of a leading `fork`.
    let roots: Vec<usize> = match workflow
        .nodes
        .iter()
        .position(|n| n.node_type == NodeType::WorkflowStart)
    {
        Some(start) => vec![start],
        None => (0..workflow.nodes.len()).filter(|&n| g.preds[n] == 0).collect(),
    };
    if roots.len() == 1 {
        e.chain(&g, Some(roots[0]), None, 0);
    } else if roots.len() > 1 {
        let join = g.join(workflow, &roots);
        e.line("fork");
        for (k, &root) in roots.iter().enumerate() {
            if k > 0 {
                e.line("fork again");
            }
            e.indent += 1;
            e.chain(&g, Some(root), join, 1);
            e.indent -= 1;
        }
        e.line("end fork");
        e.chain(&g, join, None, 0);
    }
    let missing: Vec<&str> = (0..workflow.nodes.len())
        .filter(|&n| !e.emitted[n])
        .map(|n| workflow.nodes[n].id.as_str())
        .collect();
    if !missing.is_empty() && e.errors.is_empty() {
        e.errors.push(format!(
            "nodes not reachable from the start as nested blocks: {}",
            missing.join(", ")
        ));
    }
    if !e.errors.is_empty() {
        return Err(e.errors);
    }
    e.out.push_str("\n@enduml\n");
    Ok(e.out)
}

struct Graph {
    /// Out-edges per node in document order: `(target, handle)`.
    outs: Vec<Vec<(usize, String)>>,
    /// In-edges that are not loop edges, counted.
    preds: Vec<usize>,
    /// Their sources, in edge order.
    pred_lists: Vec<Vec<usize>>,
    /// `loop_into[n]`: the evaluator whose loop edge returns to `n`.
    loop_into: Vec<Option<usize>>,
    topo: Vec<usize>,
}

impl Graph {
    fn new(wf: &Workflow) -> Result<Graph, Vec<String>> {
        let n = wf.nodes.len();
        let mut index = std::collections::HashMap::new();
        let mut errors = Vec::new();
        for (i, node) in wf.nodes.iter().enumerate() {
            if index.insert(node.id.as_str(), i).is_some() {
                errors.push(format!("two nodes have the id `{}`", node.id));
            }
        }
        let mut outs = vec![Vec::new(); n];
        let mut preds = vec![0; n];
        let mut pred_lists = vec![Vec::new(); n];
        let mut loop_into = vec![None; n];
        for edge in &wf.edges {
            let (Some(&s), Some(&t)) = (index.get(edge.source.as_str()), index.get(edge.target.as_str())) else {
                errors.push(format!(
                    "the edge {} → {} names an unknown node",
                    edge.source, edge.target
                ));
                continue;
            };
            if is_loop_edge(wf, s, &edge.source_handle) {
                loop_into[t] = Some(s);
            } else {
                preds[t] += 1;
                pred_lists[t].push(s);
            }
            outs[s].push((t, edge.source_handle.clone()));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        // Kahn's order over the edges that are not loops.
        let mut indegree = preds.clone();
        let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).rev().collect();
        let mut topo = vec![usize::MAX; n];
        let mut next = 0;
        while let Some(i) = ready.pop() {
            topo[i] = next;
            next += 1;
            for (t, h) in outs[i].iter().rev() {
                if !is_loop_edge(wf, i, h) {
                    indegree[*t] -= 1;
                    if indegree[*t] == 0 {
                        ready.push(*t);
                    }
                }
            }
        }
        if next < n {
            let stuck: Vec<&str> = (0..n)
                .filter(|&i| topo[i] == usize::MAX)
                .map(|i| wf.nodes[i].id.as_str())
                .collect();
            return Err(vec![format!(
                "the workflow has a cycle that is not a repeat/while loop (through {})",
                stuck.join(", ")
            )]);
        }
        Ok(Graph {
            outs,
            preds,
            pred_lists,
            loop_into,
            topo,
        })
    }

    fn forward(&self, wf: &Workflow, n: usize) -> Vec<(usize, String)> {
        self.outs[n]
            .iter()
            .filter(|(_, h)| !is_loop_edge(wf, n, h))
            .cloned()
            .collect()
    }

    /// Every node reachable from `from` (itself included) without loops.
    fn reach(&self, wf: &Workflow, from: usize) -> Vec<bool> {
        let mut seen = vec![false; self.outs.len()];
        let mut todo = vec![from];
        seen[from] = true;
        while let Some(i) = todo.pop() {
            for (t, h) in &self.outs[i] {
                if !is_loop_edge(wf, i, h) && !seen[*t] {
                    seen[*t] = true;
                    todo.push(*t);
                }
            }
        }
        seen
    }

    /// Where branches starting at `starts` meet: the first node, in
    /// topological order, that all of them reach.
    fn join(&self, wf: &Workflow, starts: &[usize]) -> Option<usize> {
        let mut common: Option<Vec<bool>> = None;
        for &s in starts {
            let r = self.reach(wf, s);
            common = Some(match common {
                None => r,
                Some(c) => c.iter().zip(&r).map(|(a, b)| *a && *b).collect(),
            });
        }
        let common = common?;
        (0..common.len()).filter(|&i| common[i]).min_by_key(|&i| self.topo[i])
    }
}

fn is_loop_edge(wf: &Workflow, source: usize, handle: &str) -> bool {
    handle == "loop" && wf.nodes[source].node_type == NodeType::Evaluator
}

struct Emitter<'a> {
    wf: &'a Workflow,
    out: String,
    indent: usize,
    lane: Option<String>,
    emitted: Vec<bool>,
    repeat_open: Vec<bool>,
    /// Branch heads of a fork already being written.
    fork_open: Vec<bool>,
    errors: Vec<String>,
    variables_written: bool,
}

impl Emitter<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn chain(&mut self, g: &Graph, mut cur: Option<usize>, stop: Option<usize>, depth: usize) {
        if depth > MAX_DEPTH {
            let at = cur.map(|n| self.wf.nodes[n].id.as_str()).unwrap_or("");
            self.errors
                .push(format!("blocks nest deeper than {MAX_DEPTH} (at `{at}`)"));
            return;
        }
        let wf = self.wf;
        while let Some(n) = cur {
            if Some(n) == stop || !self.errors.is_empty() {
                return;
            }
            if let Some(e) = g.loop_into[n] {
                if !self.repeat_open[n] && wf.nodes[e].data.loop_kind != Some(LoopKind::While) {
                    self.repeat_open[n] = true;
                    self.line("repeat");
                    self.indent += 1;
                    self.chain(g, Some(n), Some(e), depth + 1);
                    self.indent -= 1;
                    let data = &wf.nodes[e].data;
                    let mut text = format!("repeat while ({})", condition_label(data));
                    if let Some(l) = &data.loop_label {
                        text.push_str(&format!(" is ({l})"));
                    }
                    self.line(&text);
                    if let Some(l) = &data.exit_label {
                        self.line(&format!("->{l};"));
                    }
                    if self.emitted[e] {
                        self.errors.push(format!("`{}` is reached twice", wf.nodes[e].id));
                        return;
                    }
                    self.emitted[e] = true;
                    cur = g.forward(wf, e).first().map(|(t, _)| *t);
                    continue;
                }
            }
            // A `fork` right after a block that ends in several exits
            // (`endif`, `end fork`): its branches share those exits as
            // predecessors, and no node stands for the fork itself.
            if g.preds[n] > 1 && !self.emitted[n] && !self.fork_open[n] {
                let siblings: Vec<usize> = (0..wf.nodes.len())
                    .filter(|&m| m != n && !self.emitted[m] && g.pred_lists[m] == g.pred_lists[n])
                    .collect();
                if !siblings.is_empty() {
                    let mut targets = vec![n];
                    targets.extend(siblings);
                    targets.sort_unstable();
                    for &t in &targets {
                        self.fork_open[t] = true;
                    }
                    let join = g.join(wf, &targets);
                    self.line("fork");
                    for (k, &t) in targets.iter().enumerate() {
                        if k > 0 {
                            self.line("fork again");
                        }
                        self.indent += 1;
                        if Some(t) != join {
                            self.chain(g, Some(t), join, depth + 1);
                        }
                        self.indent -= 1;
                    }
                    self.line("end fork");
                    cur = join;
                    continue;
                }
            }
            if self.emitted[n] {
                self.errors.push(format!(
                    "`{}` is reached from two places that are not branches of one block",
                    wf.nodes[n].id
                ));
                return;
            }
            self.emitted[n] = true;
            let node = &wf.nodes[n];
            let forward = g.forward(wf, n);
            match node.node_type {
                NodeType::Condition => {
                    cur = self.condition(g, n, depth);
                    continue;
                }
                NodeType::Evaluator => {
                    // Reached before its body: a `while` (a repeat's
                    // evaluator is reached through its body's first node).
                    let data = &node.data;
                    let mut text = format!("while ({})", condition_label(data));
                    if let Some(l) = &data.loop_label {
                        text.push_str(&format!(" is ({l})"));
                    }
                    self.line(&text);
                    let body = g.outs[n].iter().find(|(_, h)| h == "loop").map(|(t, _)| *t);
                    self.indent += 1;
                    self.chain(g, body, Some(n), depth + 1);
                    self.indent -= 1;
                    match &data.exit_label {
                        Some(l) => self.line(&format!("endwhile ({l})")),
                        None => self.line("endwhile"),
                    }
                    cur = forward.first().map(|(t, _)| *t);
                    continue;
                }
                NodeType::WorkflowStart => {
                    self.line("start");
                    if !self.variables_written && !wf.variables.is_empty() {
                        self.variables_written = true;
                        self.variables_note();
                    }
                }
                NodeType::Output => self.line("stop"),
                NodeType::PromptBlock | NodeType::Router | NodeType::Aggregator => self.activity(n),
            }
            match forward.len() {
                0 => cur = None,
                1 => cur = Some(forward[0].0),
                // The block's end, followed by a fork the enclosing chain
                // writes (see above).
                _ if stop.is_some_and(|s| forward.iter().any(|(t, _)| *t == s)) => cur = stop,
                _ => {
                    let split = node.node_type == NodeType::Router || forward.iter().any(|(_, h)| h != "output");
                    let (open, again, close) = if split {
                        ("split", "split again", "end split")
                    } else {
                        ("fork", "fork again", "end fork")
                    };
                    let targets: Vec<usize> = forward.iter().map(|(t, _)| *t).collect();
                    let join = g.join(wf, &targets);
                    self.line(open);
                    for (k, &t) in targets.iter().enumerate() {
                        if k > 0 {
                            self.line(again);
                        }
                        self.indent += 1;
                        if Some(t) != join {
                            self.chain(g, Some(t), join, depth + 1);
                        }
                        self.indent -= 1;
                    }
                    self.line(close);
                    cur = join;
                }
            }
        }
    }

    /// `if … elseif … else … endif`; answers where the flow goes on.
    fn condition(&mut self, g: &Graph, n: usize, depth: usize) -> Option<usize> {
        let wf = self.wf;
        let branch = |c: usize, handle: &str| g.outs[c].iter().find(|(_, h)| h == handle).map(|(t, _)| *t);
        let (t, f) = (branch(n, "true"), branch(n, "false"));
        let starts: Vec<usize> = [t, f].into_iter().flatten().collect();
        let join = g.join(wf, &starts);
        let data = &wf.nodes[n].data;
        self.line(&format!(
            "if ({}) then{}",
            condition_label(data),
            paren(&data.true_label)
        ));
        self.branch(g, t, join, depth);
        let mut current = n;
        let mut f = f;
        // A false branch that is only another condition reads as `elseif`.
        while let Some(next) = f {
            let node = &wf.nodes[next];
            let (nt, nf) = (branch(next, "true"), branch(next, "false"));
            let next_starts: Vec<usize> = [nt, nf].into_iter().flatten().collect();
            if Some(next) == join
                || node.node_type != NodeType::Condition
                || wf.nodes[current].data.false_label.is_some()
                || g.preds[next] != 1
                || self.emitted[next]
                || g.join(wf, &next_starts) != join
            {
                break;
            }
            self.emitted[next] = true;
            self.line(&format!(
                "elseif ({}) then{}",
                condition_label(&node.data),
                paren(&node.data.true_label)
            ));
            self.branch(g, nt, join, depth);
            current = next;
            f = nf;
        }
        let label = &wf.nodes[current].data.false_label;
        if f.is_some_and(|f| Some(f) != join) || label.is_some() {
            self.line(&format!("else{}", paren(label)));
            self.branch(g, f, join, depth);
        }
        self.line("endif");
        join
    }

    fn branch(&mut self, g: &Graph, start: Option<usize>, join: Option<usize>, depth: usize) {
        self.indent += 1;
        if start != join {
            self.chain(g, start, join, depth + 1);
        }
        self.indent -= 1;
    }

    fn activity(&mut self, n: usize) {
        let node = &self.wf.nodes[n];
        if let Some(agent) = &node.data.agent {
            if self.lane.as_ref() != Some(agent) {
                self.lane = Some(agent.clone());
                self.line(&format!("|{agent}|"));
            }
        }
        let label = node
            .data
            .label
            .replace('\n', &format!("\n{}", "  ".repeat(self.indent)));
        self.line(&format!(":{label};"));
        let kind = match node.node_type {
            NodeType::Router => "router",
            NodeType::Aggregator => "aggregator",
            _ => "prompt",
        };
        let d = &node.data;
        let annotated = node.node_type != NodeType::PromptBlock
            || d.template.is_some()
            || d.input.is_some()
            || d.output.is_some()
            || d.output_mode.is_some()
            || d.output_schema.is_some()
            || d.retries.is_some()
            || d.timeout.is_some();
        if !annotated {
            return;
        }
        let mut body = vec![format!("<<{kind}>>")];
        annotation_fields(d, node.node_type, &mut body);
        self.note(&body);
    }

    fn variables_note(&mut self) {
        let mut body = vec!["<<input>>".to_string(), "variables:".to_string()];
        for v in &self.wf.variables {
            body.push(format!("  - name: {}", scalar(&v.name)));
            if let Some(t) = &v.var_type {
                body.push(format!("    type: {}", scalar(t)));
            }
            if let Some(r) = v.required {
                body.push(format!("    required: {r}"));
            }
            if let Some(d) = &v.default {
                body.push(format!("    default: {}", d.to_compact()));
            }
            if let Some(t) = &v.description {
                body.push(format!("    description: {}", scalar(t)));
            }
        }
        self.note(&body);
    }

    fn note(&mut self, body: &[String]) {
        self.line("note right");
        self.indent += 1;
        for l in body {
            if l.is_empty() {
                self.out.push('\n');
            } else {
                self.line(l);
            }
        }
        self.indent -= 1;
        self.line("end note");
    }
}

fn annotation_fields(d: &NodeData, node_type: NodeType, body: &mut Vec<String>) {
    if node_type == NodeType::Aggregator {
        if let Some(s) = &d.strategy {
            body.push(format!("strategy: {}", scalar(s)));
        }
        let inputs: Vec<String> = d.inputs.iter().map(|i| flow_item(i)).collect();
        body.push(format!("inputs: [{}]", inputs.join(", ")));
        if let Some(s) = &d.output {
            body.push(format!("output: {}", scalar(s)));
        }
        if let Some(s) = &d.separator {
            body.push(format!("separator: {}", quoted(s)));
        }
        return;
    }
    if let Some(t) = &d.template {
        if t.contains('\n') {
            let content = t.trim_end_matches('\n');
            let trailing = t.len() - content.len();
            let chomp = match trailing {
                0 => "|-",
                1 => "|",
                _ => "|+",
            };
            body.push(format!("template: {chomp}"));
            for l in t
                .split('\n')
                .take(content.split('\n').count() + trailing.saturating_sub(1))
            {
                body.push(if l.is_empty() { String::new() } else { format!("  {l}") });
            }
        } else {
            body.push(format!("template: {}", scalar(t)));
        }
    }
    if let Some(s) = &d.input {
        body.push(format!("input: {}", template_scalar(s)));
    }
    if let Some(s) = &d.output {
        body.push(format!("output: {}", scalar(s)));
    }
    if let Some(s) = &d.output_mode {
        body.push(format!("outputMode: {}", scalar(s)));
    }
    if let Some(schema) = &d.output_schema {
        let compact = schema.to_compact();
        if compact.len() <= 60 || !matches!(schema, JsonValue::Object(_) | JsonValue::Array(_)) {
            body.push(format!("outputSchema: {compact}"));
        } else {
            let pretty = schema.to_pretty();
            let mut lines = pretty.lines();
            body.push(format!("outputSchema: {}", lines.next().unwrap_or("")));
            // The seed's style: content two spaces in, the closing bracket
            // under the key (YAML reads the flow collection across lines).
            body.extend(lines.map(str::to_string));
        }
    }
    if let Some(n) = d.retries {
        body.push(format!("retries: {n}"));
    }
    if let Some(n) = d.timeout {
        body.push(format!("timeout: {n}"));
    }
    if !d.routes.is_empty() {
        body.push("routes:".to_string());
        for r in &d.routes {
            body.push(format!("  - category: {}", quoted(&r.category)));
            body.push(format!("    target: {}", scalar(&r.target)));
        }
    }
}

/// ` (label)` or nothing.
fn paren(label: &Option<String>) -> String {
    label.as_ref().map(|l| format!(" ({l})")).unwrap_or_default()
}

/// What goes between the parentheses of `if`/`while`: the label as written,
/// else the expression with the seed's trailing `?`.
fn condition_label(data: &NodeData) -> String {
    if !data.label.trim().is_empty() {
        data.label.clone()
    } else {
        format!("{}?", data.expression.as_deref().unwrap_or(""))
    }
}

/// `{{a}}, {{b}}` is written plainly (import quotes such values before the
/// YAML is read); anything else as [`scalar`].
fn template_scalar(s: &str) -> String {
    if s.starts_with("{{") && !s.contains(['\n', '#', '\'']) && s == s.trim() {
        s.to_string()
    } else {
        scalar(s)
    }
}

fn flow_item(s: &str) -> String {
    if plain_ok(s) && !s.contains([',', '[', ']', '{', '}']) {
        s.to_string()
    } else {
        quoted(s)
    }
}

/// A YAML scalar that reads back as exactly `s`: plain when it is safe,
/// double-quoted (JSON escapes are YAML's) otherwise.
pub(crate) fn scalar(s: &str) -> String {
    if plain_ok(s) {
        s.to_string()
    } else {
        quoted(s)
    }
}

fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s != s.trim() || s.contains(['\n', '\r', '\t']) || s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    if ["true", "false", "null", "~", "yes", "no", "on", "off"].contains(&lower.as_str()) {
        return false;
    }
    // Anything YAML might read as a number keeps its quotes.
    let numeric = s
        .chars()
        .all(|c| c.is_ascii_digit() || "+-.eEoxXabcdfABCDF_".contains(c))
        && s.chars().any(|c| c.is_ascii_digit());
    !numeric && !lower.starts_with(".inf") && !lower.starts_with(".nan")
}
