//! The structural edits of state diagrams: `add_state` declares a state
//! (at the top, or inside a composite state, before its `}`), and
//! `add_transition` writes `from --> to : label` in the innermost
//! composite that holds both ends (`[*]` is the start or end of the
//! composite the other end is in).

use super::{invalid, Context, EditError};
use puml_sema::state::{StateDiagram, StateId};
use puml_syntax::{ast, SyntaxKind, TextSize};

/// What a state's name may be: PlantUML's state names are letters,
/// digits and `_` (a display name with blanks goes in `state "…" as X`).
const STATE_NAME_RULE: &str = "must be a state name: letters, digits and `_` only";

fn is_state_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A transition arrow: `->`, `-->`, `--->`…, with at most one direction
/// word (`-up->`, `-l->`) and one `[#colour]`/`[dashed]` bracket, as
/// the state grammar reads it.
/// Decided by the parser itself: `A ARROW B` must read as one transition
/// of a state diagram, without error. The head on the left (`<-`) is
/// refused: the edit writes `from` first.
fn is_state_arrow(arrow: &str) -> bool {
    super::arrow_reads_as_one_link(
        arrow,
        &format!("@startuml\nstate A\nA {arrow} B\n@enduml\n"),
        SyntaxKind::STATE_LINK,
    )
}

impl Context<'_> {
    /// The first diagram's state model, or why the edit does not apply.
    fn state_diagram(&self) -> Result<&StateDiagram, EditError> {
        let (d, _) = self.diagram().ok_or(EditError::NoDiagram)?;
        d.state
            .as_deref()
            .ok_or_else(|| invalid("kind", "the first diagram is not a state diagram"))
    }

    /// The state named `name` (its name, or its qualified name `Outer.A`);
    /// pseudo-states (`[*]`, `[H]`) are not found by name.
    fn find_state(&self, name: &str) -> Result<Option<StateId>, EditError> {
        let state = self.state_diagram()?;
        let name = name.trim();
        Ok(state
            .states
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.name.starts_with('*'))
            .find(|(i, s)| s.name == name || state.qualified_name(StateId(*i as u32)) == name)
            .map(|(i, _)| StateId(i as u32)))
    }

    fn require_state(&self, name: &str, argument: &str) -> Result<StateId, EditError> {
        let state = self.state_diagram()?;
        self.find_state(name)?.ok_or_else(|| {
            let known: Vec<&str> = state
                .states
                .iter()
                .filter(|s| !s.name.starts_with('*'))
                .map(|s| s.name.as_str())
                .collect();
            invalid(
                argument,
                format!("unknown state `{}`; known states: {}", name.trim(), known.join(", ")),
            )
        })
    }

    /// Where a statement goes inside composite `parent` (before its `}`,
    /// indented one level deeper than the `}`), or at the top level
    /// (before `@enduml`).
    fn end_of_composite(&self, parent: Option<StateId>) -> Result<(TextSize, String), EditError> {
        let Some(parent) = parent else {
            return Ok(self.end_of_flow());
        };
        let state = self.state_diagram()?;
        let name = &state.states[parent.index()].name;
        // The composite's `{` and `}` are flat statements: match them with
        // a stack of the open composites' names.
        let mut open: Vec<Option<String>> = Vec::new();
        for node in &self.statements {
            match node.kind() {
                SyntaxKind::STATE_DECL => {
                    let tokens = ast::significant_tokens(node);
                    if tokens.iter().any(|t| t.kind() == SyntaxKind::L_BRACE) {
                        open.push(declared_code(&tokens));
                    }
                }
                SyntaxKind::BRACE_END => {
                    let closed = open.pop().flatten();
                    if closed.as_deref() == Some(name.as_str()) {
                        let indent = format!("{}  ", self.indent_of(node));
                        return Ok((super::line_start_of(self.source, node.text_range().start()), indent));
                    }
                }
                _ => {}
            }
        }
        Err(invalid(
            "parent",
            format!("the composite state `{name}` has no `}}` in this file"),
        ))
    }

    pub(super) fn add_state(
        &self,
        name: &str,
        inside: Option<&str>,
        description: Option<&str>,
    ) -> Result<String, EditError> {
        self.state_diagram()?;
        let name = name.trim();
        if !is_state_name(name) {
            return Err(invalid("name", STATE_NAME_RULE));
        }
        if self.find_state(name)?.is_some() {
            return Err(invalid("name", format!("a state named `{name}` already exists")));
        }
        let parent = inside.map(|p| self.require_state(p, "parent")).transpose()?;
        let mut line = format!("state {name}");
        if let Some(description) = description {
            if description.contains(['\n', '\r']) {
                return Err(invalid("description", "must be a single line"));
            }
            line.push_str(&format!(" : {}", description.trim()));
        }
        let (offset, indent) = self.end_of_composite(parent)?;
        Ok(self.insert_lines(offset, &[format!("{indent}{line}")]))
    }

    pub(super) fn add_transition(
        &self,
        from: &str,
        to: &str,
        arrow: Option<&str>,
        label: Option<&str>,
    ) -> Result<String, EditError> {
        let state = self.state_diagram()?;
        let end = |name: &str, argument: &str| -> Result<Option<StateId>, EditError> {
            if name.trim() == "[*]" {
                Ok(None)
            } else {
                self.require_state(name, argument).map(Some)
            }
        };
        let (from_id, to_id) = (end(from, "from")?, end(to, "to")?);
        if from_id.is_none() && to_id.is_none() {
            return Err(invalid("to", "a transition from `[*]` to `[*]` means nothing"));
        }
        let arrow = arrow.unwrap_or("-->").trim();
        if !is_state_arrow(arrow) {
            return Err(invalid(
                "arrow",
                format!("`{arrow}` is not a transition arrow (e.g. -> --> -up-> -[#red]-> -[dashed]->)"),
            ));
        }
        // The innermost composite holding both ends: a state is written in
        // its parent (`[*]` in the other end's).
        let parents = |id: Option<StateId>| -> Vec<Option<StateId>> {
            let mut chain = Vec::new();
            let mut at = id.and_then(|i| state.states[i.index()].parent);
            while let Some(p) = at {
                if chain.len() > state.states.len() {
                    break;
                }
                chain.push(Some(p));
                at = state.states[p.index()].parent;
            }
            chain.push(None);
            chain
        };
        let parent = match (from_id, to_id) {
            (Some(_), None) => parents(from_id)[0],
            (None, Some(_)) => parents(to_id)[0],
            _ => {
                let to_chain = parents(to_id);
                parents(from_id).into_iter().find(|p| to_chain.contains(p)).flatten()
            }
        };
        let written = |id: Option<StateId>| id.map_or("[*]".to_string(), |i| state.states[i.index()].name.clone());
        let mut line = format!("{} {arrow} {}", written(from_id), written(to_id));
        if let Some(label) = label {
            if label.contains(['\n', '\r']) {
                return Err(invalid("label", "must be a single line"));
            }
            line.push_str(&format!(" : {}", label.trim()));
        }
        let (offset, indent) = self.end_of_composite(parent)?;
        Ok(self.insert_lines(offset, &[format!("{indent}{line}")]))
    }
}

/// The code a `state` declaration names: its alias when the first name is
/// a quoted display (`state "Long" as L`), else the first name.
fn declared_code(tokens: &[puml_syntax::SyntaxToken]) -> Option<String> {
    let names: Vec<_> = tokens
        .iter()
        .take_while(|t| !matches!(t.kind(), SyntaxKind::COLON | SyntaxKind::L_BRACE))
        .filter(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::STRING))
        .collect();
    let first = names.first()?;
    let chosen = match names.get(1) {
        Some(alias) if first.kind() == SyntaxKind::STRING => alias,
        _ => first,
    };
    Some(chosen.text().trim_matches('"').to_string())
}
