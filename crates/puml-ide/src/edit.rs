//! Structural edits: the engine behind `puml edit` and the MCP
//! `puml_apply_edit` tool. Each edit works on whole statements of the first
//! diagram, keeps every untouched line byte-for-byte, and either succeeds
//! with the new source, the minimal text edits and the new diagnostics, or
//! fails with a reason and changes nothing.
//!
//! Line numbers are 1-based lines of the source as given.

use crate::format::line_edits;
use crate::normalize::{is_header_statement, written_name};
use puml_sema::class::{ClassDiagram, ClassSourceMap, LinkEnd};
use puml_sema::model::{Diagram, DiagramSourceMap, GroupKind, ParticipantKind};
use puml_sema::{analyze, Analysis, AnalysisOptions, NoIncludes};
use puml_syntax::{Diagnostic, LineIndex, SyntaxKind, SyntaxNode, TextEdit, TextRange, TextSize};
use std::collections::BTreeMap;
use std::fmt;

mod descriptions;
mod states;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteSide {
    Left,
    Right,
    Over,
    Across,
}

impl NoteSide {
    pub fn from_name(name: &str) -> Option<NoteSide> {
        match name.to_ascii_lowercase().as_str() {
            "left" => Some(NoteSide::Left),
            "right" => Some(NoteSide::Right),
            "over" => Some(NoteSide::Over),
            "across" => Some(NoteSide::Across),
            _ => None,
        }
    }
}

/// One structural edit (the argument names are those of the MCP tool).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    AddParticipant {
        name: String,
        kind: Option<ParticipantKind>,
        alias: Option<String>,
        after: Option<String>,
    },
    AddMessage {
        from: String,
        to: String,
        label: String,
        arrow: Option<String>,
        after_line: Option<u32>,
        /// The line of the group's start statement: the message goes at the
        /// end of that group.
        in_group: Option<u32>,
    },
    AddNote {
        text: String,
        position: NoteSide,
        participants: Vec<String>,
        after_line: Option<u32>,
    },
    WrapGroup {
        kind: GroupKind,
        label: String,
        start_line: u32,
        end_line: u32,
        else_at: Vec<u32>,
    },
    RenameParticipant {
        from: String,
        to: String,
    },
    /// `None` (or an empty name) removes `!theme`.
    ChangeTheme {
        theme: Option<String>,
    },
    RemoveMessage {
        line: u32,
    },
    /// `None` (or empty) removes the title.
    SetTitle {
        title: Option<String>,
    },
    /// Class diagrams: declares `keyword name` (default `class`) before `@enduml`.
    AddClass {
        name: String,
        keyword: Option<String>,
    },
    /// Class diagrams: adds `Class : member` (the one-line member form).
    AddMember {
        class: String,
        member: String,
    },
    /// Class diagrams: adds `from arrow to : label` (default arrow `-->`).
    AddRelation {
        from: String,
        to: String,
        arrow: Option<String>,
        label: Option<String>,
    },
    /// Class diagrams: removes the first relation between `from` and `to`
    /// (written either way round).
    RemoveRelation {
        from: String,
        to: String,
    },
    /// Class diagrams: renames a class everywhere its name is written.
    RenameClass {
        from: String,
        to: String,
    },
    /// State diagrams: declares `state name [: description]`, at the top
    /// or inside the composite state `parent` (before its `}`).
    AddState {
        name: String,
        parent: Option<String>,
        description: Option<String>,
    },
    /// State diagrams: adds `from arrow to : label` (default arrow `-->`;
    /// `[*]` for a start or end) in the innermost composite holding both.
    AddTransition {
        from: String,
        to: String,
        arrow: Option<String>,
        label: Option<String>,
    },
    /// Description diagrams: declares `kind name [as alias] [<<stereotype>>]`
    /// (`kind` an element keyword: `actor`, `usecase`, `component`, `node`,
    /// …), at the top or inside the container `parent` (before its `}`).
    AddElement {
        kind: String,
        name: String,
        alias: Option<String>,
        parent: Option<String>,
        stereotype: Option<String>,
        /// An empty container `kind name {` … `}` instead of an element.
        container: bool,
    },
    /// Description diagrams: adds `from arrow to : label` (default arrow
    /// `-->`) in the innermost container holding both ends.
    AddLink {
        from: String,
        to: String,
        arrow: Option<String>,
        label: Option<String>,
    },
}

/// The edit kinds and their arguments (`?` marks optional ones).
pub const EDIT_KINDS: [(&str, &[&str]); 17] = [
    ("add_participant", &["name", "kind?", "alias?", "after?"]),
    (
        "add_message",
        &["from", "to", "label", "arrow?", "after_line?", "in_group?"],
    ),
    ("add_note", &["text", "position", "participants", "after_line?"]),
    ("wrap_group", &["kind", "label", "start_line", "end_line", "else_at?"]),
    ("rename_participant", &["from", "to"]),
    ("change_theme", &["theme"]),
    ("remove_message", &["line"]),
    ("set_title", &["title"]),
    ("add_class", &["name", "keyword?"]),
    ("add_member", &["class", "member"]),
    ("add_relation", &["from", "to", "arrow?", "label?"]),
    ("remove_relation", &["from", "to"]),
    ("rename_class", &["from", "to"]),
    ("add_state", &["name", "parent?", "description?"]),
    ("add_transition", &["from", "to", "arrow?", "label?"]),
    (
        "add_element",
        &["kind", "name", "alias?", "parent?", "stereotype?", "container?"],
    ),
    ("add_link", &["from", "to", "arrow?", "label?"]),
];

/// A protocol-neutral argument value, so that JSON (CLI, MCP) and other
/// front ends share one validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgValue {
    Null,
    Bool(bool),
    Number(i64),
    Text(String),
    List(Vec<ArgValue>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditResult {
    pub source: String,
    /// Minimal edits against the original source.
    pub edits: Vec<TextEdit>,
    /// Diagnostics of the edited source.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    UnknownKind(String),
    InvalidArgument {
        name: String,
        reason: String,
    },
    UnknownParticipant {
        name: String,
        known: Vec<String>,
    },
    NameCollision(String),
    LineOutOfRange(u32),
    SplitsGroup(String),
    WrongStatement {
        line: u32,
        expected: &'static str,
        found: String,
    },
    NoDiagram,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::UnknownKind(kind) => {
                let kinds: Vec<&str> = EDIT_KINDS.iter().map(|(k, _)| *k).collect();
                write!(f, "unknown edit kind `{kind}`; expected one of {}", kinds.join(", "))
            }
            EditError::InvalidArgument { name, reason } => write!(f, "argument `{name}`: {reason}"),
            EditError::UnknownParticipant { name, known } => {
                if known.is_empty() {
                    write!(f, "unknown participant `{name}`: the diagram has no participants")
                } else {
                    write!(
                        f,
                        "unknown participant `{name}`; known participants: {}",
                        known.join(", ")
                    )
                }
            }
            EditError::NameCollision(name) => write!(f, "a participant named `{name}` already exists"),
            EditError::LineOutOfRange(line) => write!(f, "line {line} is not a statement of the diagram"),
            EditError::SplitsGroup(why) => write!(f, "the range would split a block: {why}"),
            EditError::WrongStatement { line, expected, found } => {
                write!(f, "line {line} is {found}, not {expected}")
            }
            EditError::NoDiagram => write!(f, "the source has no `@startuml` diagram"),
        }
    }
}

impl std::error::Error for EditError {}

fn invalid(name: &str, reason: impl Into<String>) -> EditError {
    EditError::InvalidArgument {
        name: name.to_string(),
        reason: reason.into(),
    }
}

struct Args<'a> {
    map: &'a BTreeMap<String, ArgValue>,
}

impl Args<'_> {
    fn get(&self, name: &str) -> Option<&ArgValue> {
        self.map.get(name).filter(|v| **v != ArgValue::Null)
    }
    fn text(&self, name: &str) -> Result<String, EditError> {
        self.opt_text(name)?.ok_or_else(|| invalid(name, "is required"))
    }
    fn opt_text(&self, name: &str) -> Result<Option<String>, EditError> {
        match self.get(name) {
            None => Ok(None),
            Some(ArgValue::Text(t)) => Ok(Some(t.clone())),
            Some(ArgValue::Number(n)) => Ok(Some(n.to_string())),
            Some(_) => Err(invalid(name, "must be a string")),
        }
    }
    fn opt_bool(&self, name: &str) -> Result<Option<bool>, EditError> {
        match self.get(name) {
            None => Ok(None),
            Some(ArgValue::Bool(b)) => Ok(Some(*b)),
            Some(ArgValue::Text(t)) if t.trim() == "true" || t.trim() == "false" => Ok(Some(t.trim() == "true")),
            Some(_) => Err(invalid(name, "must be true or false")),
        }
    }
    fn line(&self, name: &str) -> Result<u32, EditError> {
        self.opt_line(name)?.ok_or_else(|| invalid(name, "is required"))
    }
    fn opt_line(&self, name: &str) -> Result<Option<u32>, EditError> {
        match self.get(name) {
            None => Ok(None),
            Some(ArgValue::Number(n)) if *n >= 1 && *n <= u32::MAX as i64 => Ok(Some(*n as u32)),
            Some(ArgValue::Text(t)) => match t.trim().parse::<u32>() {
                Ok(n) if n >= 1 => Ok(Some(n)),
                _ => Err(invalid(name, "must be a line number (1 or more)")),
            },
            Some(_) => Err(invalid(name, "must be a line number (1 or more)")),
        }
    }
    fn list(&self, name: &str) -> Result<Vec<ArgValue>, EditError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(ArgValue::List(items)) => Ok(items.clone()),
            Some(single) => Ok(vec![single.clone()]),
        }
    }
    fn check_known(&self, kind: &str, allowed: &[&str]) -> Result<(), EditError> {
        for key in self.map.keys() {
            if !allowed.iter().any(|a| a.trim_end_matches('?') == key) {
                return Err(invalid(
                    key,
                    format!("is not an argument of {kind} (expected {})", allowed.join(", ")),
                ));
            }
        }
        Ok(())
    }
}

impl Edit {
    /// Builds an edit from its kind name and arguments, with clear errors
    /// for unknown kinds, missing or mistyped arguments.
    pub fn parse(kind: &str, args: &BTreeMap<String, ArgValue>) -> Result<Edit, EditError> {
        let allowed = EDIT_KINDS
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, a)| *a)
            .ok_or_else(|| EditError::UnknownKind(kind.to_string()))?;
        let a = Args { map: args };
        a.check_known(kind, allowed)?;
        Ok(match kind {
            "add_participant" => Edit::AddParticipant {
                name: a.text("name")?,
                kind: match a.opt_text("kind")? {
                    None => None,
                    Some(k) => Some(ParticipantKind::from_keyword(&k).ok_or_else(|| {
                        let kinds: Vec<&str> = ParticipantKind::ALL.iter().map(|k| k.keyword()).collect();
                        invalid("kind", format!("`{k}` is not one of {}", kinds.join(", ")))
                    })?),
                },
                alias: a.opt_text("alias")?,
                after: a.opt_text("after")?,
            },
            "add_message" => Edit::AddMessage {
                from: a.text("from")?,
                to: a.text("to")?,
                label: a.opt_text("label")?.unwrap_or_default(),
                arrow: a.opt_text("arrow")?,
                after_line: a.opt_line("after_line")?,
                in_group: a.opt_line("in_group")?,
            },
            "add_note" => Edit::AddNote {
                text: a.text("text")?,
                position: {
                    let p = a.text("position")?;
                    NoteSide::from_name(&p)
                        .ok_or_else(|| invalid("position", format!("`{p}` is not one of left, right, over, across")))?
                },
                participants: a
                    .list("participants")?
                    .into_iter()
                    .map(|v| match v {
                        ArgValue::Text(t) => Ok(t),
                        _ => Err(invalid("participants", "must be a list of participant names")),
                    })
                    .collect::<Result<_, _>>()?,
                after_line: a.opt_line("after_line")?,
            },
            "wrap_group" => Edit::WrapGroup {
                kind: {
                    let k = a.text("kind")?;
                    GroupKind::from_keyword(&k).ok_or_else(|| {
                        invalid(
                            "kind",
                            format!("`{k}` is not one of alt, opt, loop, par, break, critical, group"),
                        )
                    })?
                },
                label: a.opt_text("label")?.unwrap_or_default(),
                start_line: a.line("start_line")?,
                end_line: a.line("end_line")?,
                else_at: a
                    .list("else_at")?
                    .into_iter()
                    .map(|v| match v {
                        ArgValue::Number(n) if n >= 1 && n <= u32::MAX as i64 => Ok(n as u32),
                        _ => Err(invalid("else_at", "must be a list of line numbers")),
                    })
                    .collect::<Result<_, _>>()?,
            },
            "rename_participant" => Edit::RenameParticipant {
                from: a.text("from")?,
                to: a.text("to")?,
            },
            "change_theme" => Edit::ChangeTheme {
                theme: a.opt_text("theme")?.filter(|t| !t.trim().is_empty()),
            },
            "remove_message" => Edit::RemoveMessage { line: a.line("line")? },
            "set_title" => Edit::SetTitle {
                title: a.opt_text("title")?.filter(|t| !t.trim().is_empty()),
            },
            "add_class" => Edit::AddClass {
                name: a.text("name")?,
                keyword: a.opt_text("keyword")?.filter(|k| !k.trim().is_empty()),
            },
            "add_member" => Edit::AddMember {
                class: a.text("class")?,
                member: a.text("member")?,
            },
            "add_relation" => Edit::AddRelation {
                from: a.text("from")?,
                to: a.text("to")?,
                arrow: a.opt_text("arrow")?.filter(|k| !k.trim().is_empty()),
                label: a.opt_text("label")?.filter(|k| !k.trim().is_empty()),
            },
            "remove_relation" => Edit::RemoveRelation {
                from: a.text("from")?,
                to: a.text("to")?,
            },
            "rename_class" => Edit::RenameClass {
                from: a.text("from")?,
                to: a.text("to")?,
            },
            "add_state" => Edit::AddState {
                name: a.text("name")?,
                parent: a.opt_text("parent")?.filter(|k| !k.trim().is_empty()),
                description: a.opt_text("description")?.filter(|k| !k.trim().is_empty()),
            },
            "add_transition" => Edit::AddTransition {
                from: a.text("from")?,
                to: a.text("to")?,
                arrow: a.opt_text("arrow")?.filter(|k| !k.trim().is_empty()),
                label: a.opt_text("label")?.filter(|k| !k.trim().is_empty()),
            },
            "add_element" => Edit::AddElement {
                kind: a.text("kind")?,
                name: a.text("name")?,
                alias: a.opt_text("alias")?.filter(|k| !k.trim().is_empty()),
                parent: a.opt_text("parent")?.filter(|k| !k.trim().is_empty()),
                stereotype: a.opt_text("stereotype")?.filter(|k| !k.trim().is_empty()),
                container: a.opt_bool("container")?.unwrap_or(false),
            },
            "add_link" => Edit::AddLink {
                from: a.text("from")?,
                to: a.text("to")?,
                arrow: a.opt_text("arrow")?.filter(|k| !k.trim().is_empty()),
                label: a.opt_text("label")?.filter(|k| !k.trim().is_empty()),
            },
            _ => return Err(EditError::UnknownKind(kind.to_string())),
        })
    }
}

/// Applies one edit to `source`.
pub fn apply_edit(source: &str, edit: &Edit) -> Result<EditResult, EditError> {
    let ctx = Context::new(source)?;
    let new_source = match edit {
        Edit::AddParticipant {
            name,
            kind,
            alias,
            after,
        } => ctx.add_participant(name, *kind, alias.as_deref(), after.as_deref())?,
        Edit::AddMessage {
            from,
            to,
            label,
            arrow,
            after_line,
            in_group,
        } => ctx.add_message(from, to, label, arrow.as_deref(), *after_line, *in_group)?,
        Edit::AddNote {
            text,
            position,
            participants,
            after_line,
        } => ctx.add_note(text, *position, participants, *after_line)?,
        Edit::WrapGroup {
            kind,
            label,
            start_line,
            end_line,
            else_at,
        } => ctx.wrap_group(*kind, label, *start_line, *end_line, else_at)?,
        Edit::RenameParticipant { from, to } => ctx.rename(from, to)?,
        Edit::ChangeTheme { theme } => ctx.change_theme(theme.as_deref())?,
        Edit::RemoveMessage { line } => ctx.remove_message(*line)?,
        Edit::SetTitle { title } => ctx.set_title(title.as_deref())?,
        Edit::AddClass { name, keyword } => ctx.add_class(name, keyword.as_deref())?,
        Edit::AddMember { class, member } => ctx.add_member(class, member)?,
        Edit::AddRelation { from, to, arrow, label } => {
            ctx.add_relation(from, to, arrow.as_deref(), label.as_deref())?
        }
        Edit::RemoveRelation { from, to } => ctx.remove_relation(from, to)?,
        Edit::RenameClass { from, to } => ctx.rename_class(from, to)?,
        Edit::AddState {
            name,
            parent,
            description,
        } => ctx.add_state(name, parent.as_deref(), description.as_deref())?,
        Edit::AddTransition { from, to, arrow, label } => {
            ctx.add_transition(from, to, arrow.as_deref(), label.as_deref())?
        }
        Edit::AddElement {
            kind,
            name,
            alias,
            parent,
            stereotype,
            container,
        } => ctx.add_element(
            kind,
            name,
            alias.as_deref(),
            parent.as_deref(),
            stereotype.as_deref(),
            *container,
        )?,
        Edit::AddLink { from, to, arrow, label } => ctx.add_link(from, to, arrow.as_deref(), label.as_deref())?,
    };
    let diagnostics = analyze(&new_source, &AnalysisOptions::default(), &NoIncludes).diagnostics;
    Ok(EditResult {
        edits: line_edits(source, &new_source),
        source: new_source,
        diagnostics,
    })
}

/// The first diagram's statements, with what the edits need to know.
struct Context<'a> {
    source: &'a str,
    index: LineIndex,
    analysis: Analysis,
    /// Direct children of the first DIAGRAM node that are statements.
    statements: Vec<SyntaxNode>,
    newline: &'static str,
}

impl<'a> Context<'a> {
    fn new(source: &'a str) -> Result<Context<'a>, EditError> {
        let parse = puml_syntax::parse(source);
        let diagram = parse
            .syntax()
            .children()
            .find(|n| n.kind() == SyntaxKind::DIAGRAM)
            .ok_or(EditError::NoDiagram)?;
        let statements = diagram.children().collect();
        Ok(Context {
            source,
            index: LineIndex::new(source),
            analysis: analyze(source, &AnalysisOptions::default(), &NoIncludes),
            statements,
            newline: if source.contains("\r\n") { "\r\n" } else { "\n" },
        })
    }

    fn diagram(&self) -> Option<(&Diagram, &DiagramSourceMap)> {
        let d = self.analysis.document.diagrams.first()?;
        let m = self.analysis.source_map.diagrams.first()?;
        Some((d, m))
    }

    fn known_names(&self) -> Vec<String> {
        self.diagram()
            .map(|(d, _)| d.participants.iter().map(|p| p.code.clone()).collect())
            .unwrap_or_default()
    }

    /// The participant whose code, alias or name is `name`.
    fn find_participant(&self, name: &str) -> Option<usize> {
        let (d, _) = self.diagram()?;
        d.participants
            .iter()
            .position(|p| p.code == name)
            .or_else(|| d.participants.iter().position(|p| p.name == name))
    }

    fn require_participant(&self, name: &str) -> Result<usize, EditError> {
        self.find_participant(name)
            .ok_or_else(|| EditError::UnknownParticipant {
                name: name.to_string(),
                known: self.known_names(),
            })
    }

    /// The endpoint text for a message: a participant's code, or an edge.
    fn endpoint(&self, name: &str) -> Result<String, EditError> {
        if matches!(name, "[" | "]" | "?") {
            return Ok(name.to_string());
        }
        let i = self.require_participant(name)?;
        let (d, _) = self.diagram().ok_or(EditError::NoDiagram)?;
        Ok(written_name(&d.participants[i].code))
    }

    fn kind_of(&self, node: &SyntaxNode) -> SyntaxKind {
        node.kind()
    }

    fn line_of(&self, offset: TextSize) -> u32 {
        self.index.line_col(self.source, offset).line
    }

    /// The statement that holds 1-based `line`.
    fn statement_at(&self, line: u32) -> Result<usize, EditError> {
        let start = self
            .index
            .offset(self.source, puml_syntax::LineCol { line, col: 1 })
            .ok_or(EditError::LineOutOfRange(line))?;
        self.statements
            .iter()
            .position(|s| {
                let r = s.text_range();
                r.start() <= start && start < r.end().max(r.start() + TextSize::from(1))
            })
            .filter(|&i| {
                !matches!(
                    self.kind_of(&self.statements[i]),
                    SyntaxKind::START_LINE | SyntaxKind::END_LINE
                )
            })
            .ok_or(EditError::LineOutOfRange(line))
    }

    /// Like `statement_at`, but `@startuml` counts too (inserting after it
    /// puts the new statement first).
    fn statement_or_start_at(&self, line: u32) -> Result<usize, EditError> {
        self.statement_at(line).or_else(|err| {
            self.statements
                .iter()
                .position(|s| s.kind() == SyntaxKind::START_LINE && self.line_of(s.text_range().start()) == line)
                .ok_or(err)
        })
    }

    fn indent_of(&self, node: &SyntaxNode) -> String {
        let start = usize::from(node.text_range().start());
        let line_start = self.source[..start].rfind('\n').map_or(0, |i| i + 1);
        self.source[line_start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    }

    /// Offset just after a statement (after its newline).
    fn after(&self, node: &SyntaxNode) -> TextSize {
        node.text_range().end()
    }

    /// Just after `@startuml` (the start of the diagram when it has none).
    fn after_start_line(&self) -> TextSize {
        match self.statements.first() {
            Some(s) if s.kind() == SyntaxKind::START_LINE => self.after(s),
            Some(s) => line_start_of(self.source, s.text_range().start()),
            None => TextSize::from(0),
        }
    }

    fn end_line_statement(&self) -> Option<&SyntaxNode> {
        self.statements.iter().find(|s| s.kind() == SyntaxKind::END_LINE)
    }

    /// Inserts `lines` (without terminators) at `offset`, which is the
    /// start of a line or the end of a statement.
    fn insert_lines(&self, offset: TextSize, lines: &[String]) -> String {
        let at = usize::from(offset).min(self.source.len());
        let mut block = String::new();
        if at > 0 && !self.source[..at].ends_with('\n') {
            block.push_str(self.newline);
        }
        for line in lines {
            block.push_str(line);
            block.push_str(self.newline);
        }
        let mut out = String::with_capacity(self.source.len() + block.len());
        out.push_str(&self.source[..at]);
        out.push_str(&block);
        out.push_str(&self.source[at..]);
        out
    }

    /// Where a new flow statement goes by default: before `@enduml` (or at
    /// the end), indented like the last statement at depth 0.
    fn end_of_flow(&self) -> (TextSize, String) {
        match self.end_line_statement() {
            Some(end) => (end.text_range().start(), String::new()),
            None => (TextSize::of(self.source), String::new()),
        }
    }

    /// Insertion point after the statement at `line`; statements that open
    /// a block put the new one inside it.
    fn after_line(&self, line: u32) -> Result<(TextSize, String), EditError> {
        let i = self.statement_or_start_at(line)?;
        let node = &self.statements[i];
        let mut indent = self.indent_of(node);
        if matches!(
            node.kind(),
            SyntaxKind::GROUP_START | SyntaxKind::ELSE | SyntaxKind::BOX_START
        ) {
            indent.push_str("  ");
        }
        Ok((self.after(node), indent))
    }

    /// Insertion point at the end of the group that starts at `line`.
    fn end_of_group(&self, line: u32) -> Result<(TextSize, String), EditError> {
        let i = self.statement_at(line)?;
        if self.statements[i].kind() != SyntaxKind::GROUP_START {
            return Err(EditError::WrongStatement {
                line,
                expected: "the start of a group (alt, loop, …)",
                found: describe(self.statements[i].kind()),
            });
        }
        let mut depth = 0usize;
        for node in &self.statements[i..] {
            match node.kind() {
                SyntaxKind::GROUP_START => depth += 1,
                SyntaxKind::END => {
                    depth -= 1;
                    if depth == 0 {
                        let mut indent = self.indent_of(&self.statements[i]);
                        indent.push_str("  ");
                        return Ok((node.text_range().start(), indent));
                    }
                }
                _ => {}
            }
        }
        Err(EditError::SplitsGroup(format!("the group at line {line} has no `end`")))
    }

    fn add_participant(
        &self,
        name: &str,
        kind: Option<ParticipantKind>,
        alias: Option<&str>,
        after: Option<&str>,
    ) -> Result<String, EditError> {
        if name.trim().is_empty() || name.contains(['\n', '\r']) {
            return Err(invalid("name", "must be a non-empty single line"));
        }
        if let Some(a) = alias {
            if !is_identifier(a) {
                return Err(invalid(
                    "alias",
                    format!("`{a}` must be an identifier (letters, digits, `_`)"),
                ));
            }
        }
        for candidate in std::iter::once(name).chain(alias) {
            if self.find_participant(candidate).is_some() {
                return Err(EditError::NameCollision(candidate.to_string()));
            }
        }
        let keyword = kind.unwrap_or(ParticipantKind::Participant).keyword();
        let declaration = match alias {
            Some(a) => format!("{keyword} \"{}\" as {a}", name.replace('"', "'")),
            None => format!("{keyword} {}", written_name(name)),
        };
        let (offset, indent) = match after {
            Some(after) => {
                let i = self.require_participant(after)?;
                let (d, map) = self.diagram().ok_or(EditError::NoDiagram)?;
                if !d.participants[i].declared {
                    return Err(invalid(
                        "after",
                        format!("`{after}` is not declared, so there is no declaration to insert after"),
                    ));
                }
                let range = map.participants.get(i).copied().ok_or(EditError::NoDiagram)?;
                let node = self
                    .statements
                    .iter()
                    .find(|s| s.text_range().contains_range(range) || range.contains_range(s.text_range()))
                    .ok_or(EditError::NoDiagram)?;
                (self.after(node), self.indent_of(node))
            }
            None => self.participant_block_end(),
        };
        Ok(self.insert_lines(offset, &[format!("{indent}{declaration}")]))
    }

    /// After the last top-level declaration (or box), else after the header
    /// statements that follow `@startuml`.
    fn participant_block_end(&self) -> (TextSize, String) {
        let mut box_depth = 0usize;
        let mut last = None;
        for node in &self.statements {
            match node.kind() {
                SyntaxKind::BOX_START => box_depth += 1,
                SyntaxKind::BOX_END => {
                    box_depth = box_depth.saturating_sub(1);
                    if box_depth == 0 {
                        last = Some(node);
                    }
                }
                SyntaxKind::PARTICIPANT if box_depth == 0 => last = Some(node),
                _ => {}
            }
        }
        if let Some(node) = last {
            return (self.after(node), self.indent_of(node));
        }
        let mut offset = self.after_start_line();
        for node in self
            .statements
            .iter()
            .skip_while(|s| s.kind() == SyntaxKind::START_LINE)
        {
            if is_header_statement(node.kind()) {
                offset = self.after(node);
            } else {
                break;
            }
        }
        (offset, String::new())
    }

    fn add_message(
        &self,
        from: &str,
        to: &str,
        label: &str,
        arrow: Option<&str>,
        after_line: Option<u32>,
        in_group: Option<u32>,
    ) -> Result<String, EditError> {
        let from = self.endpoint(from)?;
        let to = self.endpoint(to)?;
        let arrow = arrow.unwrap_or("->").trim();
        if puml_syntax::parse_arrow(arrow).is_none() {
            return Err(invalid(
                "arrow",
                format!("`{arrow}` is not an arrow (e.g. `->`, `-->`, `->>`, `->x`)"),
            ));
        }
        let (offset, indent) = match (after_line, in_group) {
            (Some(_), Some(_)) => return Err(invalid("in_group", "give either after_line or in_group, not both")),
            (Some(line), None) => self.after_line(line)?,
            (None, Some(line)) => self.end_of_group(line)?,
            (None, None) => self.end_of_flow(),
        };
        let label = one_line(label);
        let statement = if label.is_empty() {
            format!("{indent}{from} {arrow} {to}")
        } else {
            format!("{indent}{from} {arrow} {to} : {label}")
        };
        Ok(self.insert_lines(offset, &[statement]))
    }

    fn add_note(
        &self,
        text: &str,
        position: NoteSide,
        participants: &[String],
        after_line: Option<u32>,
    ) -> Result<String, EditError> {
        let codes: Vec<String> = participants
            .iter()
            .map(|p| self.endpoint(p))
            .collect::<Result<_, _>>()?;
        let header = match (position, codes.as_slice()) {
            (NoteSide::Across, []) => "note across".to_string(),
            (NoteSide::Across, _) => return Err(invalid("participants", "must be empty for a note across")),
            (NoteSide::Left, [one]) => format!("note left of {one}"),
            (NoteSide::Right, [one]) => format!("note right of {one}"),
            (NoteSide::Left | NoteSide::Right, _) => {
                return Err(invalid(
                    "participants",
                    "a left or right note needs exactly one participant",
                ))
            }
            (NoteSide::Over, []) => return Err(invalid("participants", "a note over needs one or more participants")),
            (NoteSide::Over, [one]) => format!("note over {one}"),
            (NoteSide::Over, [first, .., last]) => format!("note over {first}, {last}"),
        };
        let (offset, indent) = match after_line {
            Some(line) => self.after_line(line)?,
            None => self.end_of_flow(),
        };
        let text = text.replace("\r\n", "\n");
        let lines: Vec<String> = if text.contains('\n') {
            let mut lines = vec![format!("{indent}{header}")];
            lines.extend(text.lines().map(|l| format!("{indent}  {}", l.trim())));
            lines.push(format!("{indent}end note"));
            lines
        } else {
            vec![format!("{indent}{header} : {}", text.trim())]
        };
        Ok(self.insert_lines(offset, &lines))
    }

    fn wrap_group(
        &self,
        kind: GroupKind,
        label: &str,
        start_line: u32,
        end_line: u32,
        else_at: &[u32],
    ) -> Result<String, EditError> {
        if end_line < start_line {
            return Err(invalid("end_line", "must not be before start_line"));
        }
        let first = self.statement_at(start_line)?;
        let last = self.statement_at(end_line)?;
        let mut else_statements = Vec::new();
        for &line in else_at {
            let i = self.statement_at(line)?;
            if i <= first || i > last {
                return Err(invalid(
                    "else_at",
                    format!("line {line} is not inside the wrapped range after its first statement"),
                ));
            }
            else_statements.push(i);
        }
        // The range must hold whole blocks: every start closed inside it.
        let mut depth: Vec<SyntaxKind> = Vec::new();
        for (offset, node) in self.statements[first..=last].iter().enumerate() {
            let i = first + offset;
            let line = self.line_of(node.text_range().start());
            match block_role(node) {
                BlockRole::Open(k) => depth.push(k),
                BlockRole::Middle(k) => {
                    if depth.last() != Some(&k) {
                        return Err(EditError::SplitsGroup(format!(
                            "line {line} continues a block that starts before the range"
                        )));
                    }
                }
                BlockRole::Close(k) => {
                    if depth.pop() != Some(k) {
                        return Err(EditError::SplitsGroup(format!(
                            "line {line} closes a block that starts before the range"
                        )));
                    }
                }
                BlockRole::None => {}
            }
            if else_statements.contains(&i) && !depth.is_empty() {
                return Err(invalid("else_at", format!("line {line} is inside a nested block")));
            }
        }
        if !depth.is_empty() {
            return Err(EditError::SplitsGroup(
                "a block opened inside the range is closed after it".to_string(),
            ));
        }
        let indent = self.indent_of(&self.statements[first]);
        let keyword = kind.keyword();
        let label = one_line(label);
        let header = if label.is_empty() {
            format!("{indent}{keyword}")
        } else {
            format!("{indent}{keyword} {label}")
        };
        let start = usize::from(line_start_of(self.source, self.statements[first].text_range().start()));
        let end = usize::from(self.statements[last].text_range().end());
        let mut out = String::new();
        out.push_str(&self.source[..start]);
        out.push_str(&header);
        out.push_str(self.newline);
        for (offset, node) in self.statements[first..=last].iter().enumerate() {
            if else_statements.contains(&(first + offset)) {
                out.push_str(&format!("{indent}else{}", self.newline));
            }
            let from = if offset == 0 {
                start
            } else {
                usize::from(self.statements[first + offset - 1].text_range().end())
            };
            let to = usize::from(node.text_range().end());
            // Loose lines (comments, blank lines) between statements are
            // included with the statement that follows them.
            out.push_str(&indent_block(&self.source[from..to]));
        }
        if !out.ends_with('\n') {
            out.push_str(self.newline);
        }
        out.push_str(&format!("{indent}end{}", self.newline));
        out.push_str(&self.source[end..]);
        Ok(out)
    }

    /// The first diagram's class model, or why the edit does not apply.
    fn class_diagram(&self) -> Result<(&ClassDiagram, &ClassSourceMap), EditError> {
        let (d, map) = self.diagram().ok_or(EditError::NoDiagram)?;
        match (d.class.as_deref(), map.class.as_ref()) {
            (Some(class), Some(class_map)) => Ok((class, class_map)),
            _ => Err(invalid("kind", "the first diagram is not a class diagram")),
        }
    }

    /// The element named `name`: its qualified name, its alias, or (when
    /// one element alone has it) the last part of its qualified name.
    fn find_class(&self, name: &str) -> Result<Option<usize>, EditError> {
        let (class, _) = self.class_diagram()?;
        let name = name.trim();
        let exact = class
            .elements
            .iter()
            .position(|e| e.qualified_name == name || e.alias.as_deref() == Some(name));
        if exact.is_some() {
            return Ok(exact);
        }
        let last_part = |q: &str| q.rsplit(['.', ':']).next().unwrap_or(q).to_string();
        let matching: Vec<usize> = (0..class.elements.len())
            .filter(|i| last_part(&class.elements[*i].qualified_name) == name)
            .collect();
        Ok((matching.len() == 1).then(|| matching[0]))
    }

    fn require_class(&self, name: &str, argument: &str) -> Result<usize, EditError> {
        let (class, _) = self.class_diagram()?;
        self.find_class(name)?.ok_or_else(|| {
            let known: Vec<&str> = class.elements.iter().map(|e| e.qualified_name.as_str()).collect();
            invalid(
                argument,
                format!("unknown class `{name}`; known classes: {}", known.join(", ")),
            )
        })
    }

    fn add_class(&self, name: &str, keyword: Option<&str>) -> Result<String, EditError> {
        self.class_diagram()?;
        let name = name.trim();
        if !is_class_name(name) {
            return Err(invalid("name", CLASS_NAME_RULE));
        }
        if self.find_class(name)?.is_some() {
            return Err(invalid("name", format!("a class named `{name}` already exists")));
        }
        let keyword = keyword.map_or("class".to_string(), |k| k.trim().to_ascii_lowercase());
        if !CLASS_KEYWORDS.contains(&keyword.as_str()) {
            return Err(invalid(
                "keyword",
                format!("`{keyword}` is not one of {}", CLASS_KEYWORDS.join(", ")),
            ));
        }
        let (offset, _) = self.end_of_flow();
        Ok(self.insert_lines(offset, &[format!("{keyword} {name}")]))
    }

    fn add_member(&self, class_name: &str, member: &str) -> Result<String, EditError> {
        let i = self.require_class(class_name, "class")?;
        let member = member.trim();
        if member.is_empty() || member.contains(['\n', '\r']) {
            return Err(invalid("member", "must be a non-empty single line"));
        }
        let (class, _) = self.class_diagram()?;
        let (offset, _) = self.end_of_flow();
        let line = format!("{} : {member}", class.elements[i].qualified_name);
        Ok(self.insert_lines(offset, &[line]))
    }

    fn add_relation(
        &self,
        from: &str,
        to: &str,
        arrow: Option<&str>,
        label: Option<&str>,
    ) -> Result<String, EditError> {
        let from_index = self.require_class(from, "from")?;
        let to_index = self.require_class(to, "to")?;
        let arrow = arrow.unwrap_or("-->").trim();
        if !is_class_arrow(arrow) {
            return Err(invalid(
                "arrow",
                format!("`{arrow}` is not a relation arrow (e.g. <|-- *-- o-- --> ..> ..|> --)"),
            ));
        }
        let (class, _) = self.class_diagram()?;
        let mut line = format!(
            "{} {arrow} {}",
            class.elements[from_index].qualified_name, class.elements[to_index].qualified_name
        );
        if let Some(label) = label {
            if label.contains(['\n', '\r']) {
                return Err(invalid("label", "must be a single line"));
            }
            line.push_str(&format!(" : {}", label.trim()));
        }
        let (offset, _) = self.end_of_flow();
        Ok(self.insert_lines(offset, &[line]))
    }

    fn remove_relation(&self, from: &str, to: &str) -> Result<String, EditError> {
        let from_index = self.require_class(from, "from")?;
        let to_index = self.require_class(to, "to")?;
        let (class, map) = self.class_diagram()?;
        let ends = |link: &puml_sema::class::Link| match (link.from, link.to) {
            (LinkEnd::Element(a), LinkEnd::Element(b)) => Some((a.index(), b.index())),
            _ => None,
        };
        let found = class.links.iter().position(|link| {
            ends(link).is_some_and(|(a, b)| (a, b) == (from_index, to_index) || (b, a) == (from_index, to_index))
        });
        let range = found
            .and_then(|i| map.links.get(i))
            .ok_or_else(|| invalid("from", format!("there is no relation between `{from}` and `{to}`")))?;
        // The whole line (a link is one statement on one line; an
        // association class `(A, B) .. C` is not a link between A and B).
        let start = usize::from(line_start_of(self.source, range.start()));
        let end = self.source[usize::from(range.end())..]
            .find('\n')
            .map_or(self.source.len(), |n| usize::from(range.end()) + n + 1);
        let mut out = String::with_capacity(self.source.len());
        out.push_str(&self.source[..start]);
        out.push_str(&self.source[end..]);
        Ok(out)
    }

    fn rename_class(&self, from: &str, to: &str) -> Result<String, EditError> {
        let i = self.require_class(from, "from")?;
        let to = to.trim();
        if !is_class_name(to) || to.contains(['.', ':']) {
            return Err(invalid("to", CLASS_NAME_RULE));
        }
        if let Some(other) = self.find_class(to)? {
            if other != i {
                return Err(invalid("to", format!("a class named `{to}` already exists")));
            }
        }
        let (_, map) = self.class_diagram()?;
        let Some(first) = map.element_references.get(i).and_then(|r| r.first()) else {
            return Err(invalid("from", "the class is not written in this file"));
        };
        let element = crate::class_symbols::class_element_at(&self.analysis, self.source, first.start())
            .ok_or_else(|| invalid("from", "the class is not written in this file"))?;
        let edits =
            crate::class_symbols::rename_class_edits(self.source, &element, to).map_err(|e| invalid("to", e.0))?;
        Ok(puml_syntax::apply_edits(self.source, &edits).0)
    }

    fn rename(&self, from: &str, to: &str) -> Result<String, EditError> {
        let i = self.require_participant(from)?;
        let (d, map) = self.diagram().ok_or(EditError::NoDiagram)?;
        let p = &d.participants[i];
        if to.trim().is_empty() || to.contains(['\n', '\r', '"']) {
            return Err(invalid("to", "must be a non-empty single line without quotes"));
        }
        if let Some(other) = self.find_participant(to) {
            if other != i {
                return Err(EditError::NameCollision(to.to_string()));
            }
        }
        let mut edits = Vec::new();
        let renaming_code = p.code == from;
        if renaming_code {
            let new_code = written_name(to);
            if p.alias.is_some() && !is_identifier(to) {
                return Err(invalid("to", format!("the alias `{to}` must be an identifier")));
            }
            for range in map.participant_uses.get(i).into_iter().flatten() {
                let Some(text) = self.source.get(std::ops::Range::<usize>::from(*range)) else {
                    continue;
                };
                let unquoted = text.trim_matches('"');
                if unquoted == p.code {
                    edits.push(TextEdit::replace(*range, new_code.clone()));
                }
            }
        }
        // The display name in the declaration (`participant "Name" as A`),
        // or the name itself when it is also the code.
        if p.alias.is_some() && (p.name == from || !renaming_code) {
            if let Some(range) = map.participants.get(i) {
                if let Some(token) = self.string_token_in(*range, &p.name) {
                    edits.push(TextEdit::replace(token, format!("\"{to}\"")));
                }
            }
        }
        if edits.is_empty() {
            return Err(invalid("from", format!("no occurrence of `{from}` can be renamed")));
        }
        edits.sort_by_key(|e| e.range.start());
        edits.dedup_by_key(|e| e.range);
        let (out, _) = puml_syntax::apply_edits(self.source, &edits);
        Ok(out)
    }

    fn string_token_in(&self, range: TextRange, name: &str) -> Option<TextRange> {
        let node = self.statements.iter().find(|s| s.text_range().contains_range(range))?;
        node.descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == SyntaxKind::STRING && t.text().trim_matches('"') == name)
            .map(|t| t.text_range())
    }

    fn change_theme(&self, theme: Option<&str>) -> Result<String, EditError> {
        if let Some(t) = theme {
            if t.contains(['\n', '\r']) {
                return Err(invalid("theme", "must be a single line"));
            }
            // The source must stay valid for PlantUML, which loads only the
            // themes it ships (puml's own looks are chosen when rendering).
            if !puml_sema::themes::PLANTUML_THEMES.contains(&t.trim()) {
                return Err(invalid(
                    "theme",
                    "must be a theme PlantUML ships (plain, cerulean, mars, sketchy-outline, …; see E0230 in docs/diagnostics.md); puml's own looks (dark, sand, …) are chosen when rendering",
                ));
            }
        }
        let existing = self.statements.iter().find(|s| s.kind() == SyntaxKind::THEME);
        Ok(self.set_statement(existing, theme.map(|t| format!("!theme {}", t.trim()))))
    }

    fn set_title(&self, title: Option<&str>) -> Result<String, EditError> {
        let existing = self.statements.iter().find(|s| s.kind() == SyntaxKind::TITLE);
        let statement = title.map(|t| format!("title {}", one_line(t)));
        Ok(self.set_statement(existing, statement))
    }

    /// Replaces, inserts (after `@startuml` and any `!theme`) or removes a
    /// one-line setting statement.
    fn set_statement(&self, existing: Option<&SyntaxNode>, statement: Option<String>) -> String {
        match (existing, statement) {
            (Some(node), Some(text)) => {
                let range = node.text_range();
                let line = format!("{}{text}{}", self.indent_of(node), self.newline);
                let start = line_start_of(self.source, range.start());
                let (out, _) = puml_syntax::apply_edits(
                    self.source,
                    &[TextEdit::replace(TextRange::new(start, range.end()), line)],
                );
                out
            }
            (Some(node), None) => {
                let start = line_start_of(self.source, node.text_range().start());
                let (out, _) = puml_syntax::apply_edits(
                    self.source,
                    &[TextEdit::delete(TextRange::new(start, node.text_range().end()))],
                );
                out
            }
            (None, Some(text)) => {
                let mut offset = self.after_start_line();
                if let Some(theme) = self.statements.iter().find(|s| s.kind() == SyntaxKind::THEME) {
                    offset = offset.max(self.after(theme));
                }
                self.insert_lines(offset, &[text])
            }
            (None, None) => self.source.to_string(),
        }
    }

    fn remove_message(&self, line: u32) -> Result<String, EditError> {
        let i = self.statement_at(line)?;
        let node = &self.statements[i];
        if !matches!(node.kind(), SyntaxKind::MESSAGE | SyntaxKind::RETURN) {
            return Err(EditError::WrongStatement {
                line,
                expected: "a message",
                found: describe(node.kind()),
            });
        }
        let start = line_start_of(self.source, node.text_range().start());
        let (out, _) = puml_syntax::apply_edits(
            self.source,
            &[TextEdit::delete(TextRange::new(start, node.text_range().end()))],
        );
        Ok(out)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockRole {
    Open(SyntaxKind),
    Middle(SyntaxKind),
    Close(SyntaxKind),
    None,
}

fn block_role(node: &SyntaxNode) -> BlockRole {
    use SyntaxKind::*;
    match node.kind() {
        GROUP_START => BlockRole::Open(GROUP_START),
        ELSE => BlockRole::Middle(GROUP_START),
        END => BlockRole::Close(GROUP_START),
        BOX_START => BlockRole::Open(BOX_START),
        BOX_END => BlockRole::Close(BOX_START),
        PREPROC => {
            let directive = node
                .children_with_tokens()
                .filter_map(|e| e.into_token())
                .find(|t| t.kind() == DIRECTIVE)
                .map(|t| t.text().to_ascii_lowercase())
                .unwrap_or_default();
            match directive.as_str() {
                "!if" | "!ifdef" | "!ifndef" => BlockRole::Open(PREPROC),
                "!else" | "!elseif" => BlockRole::Middle(PREPROC),
                "!endif" => BlockRole::Close(PREPROC),
                _ => BlockRole::None,
            }
        }
        _ => BlockRole::None,
    }
}

fn describe(kind: SyntaxKind) -> String {
    use SyntaxKind::*;
    let what = match kind {
        MESSAGE => "a message",
        NOTE => "a note",
        PARTICIPANT => "a participant declaration",
        GROUP_START => "the start of a group",
        ELSE => "an `else`",
        END => "an `end`",
        REF => "a ref",
        ACTIVATE | DEACTIVATE => "an activation",
        ERROR_STATEMENT => "a line with a syntax error",
        _ => "another statement",
    };
    what.to_string()
}

fn is_identifier(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Labels are one line: real line breaks become PlantUML's `\n`.
fn one_line(text: &str) -> String {
    text.trim().replace("\r\n", "\\n").replace('\n', "\\n")
}

/// The keywords `add_class` declares with.
const CLASS_KEYWORDS: &[&str] = &[
    "class",
    "abstract class",
    "abstract",
    "interface",
    "enum",
    "annotation",
    "entity",
    "exception",
    "struct",
    "record",
    "protocol",
    "metaclass",
    "stereotype",
    "object",
];

const CLASS_NAME_RULE: &str = "must be a class name: no blanks, quotes, braces, angle brackets, parentheses or commas";

fn is_class_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '{' | '}' | '<' | '>' | '(' | ')' | ',' | '#'))
}

/// A relation arrow: one of PlantUML's heads on each side (`<|` `<` `*`
/// `o` `#` `x` `}` `+` `^`, the crow's feet, and their mirrors, or none)
/// around a `-` or `.` body, with an optional direction word (`-up->`).
fn is_class_arrow(arrow: &str) -> bool {
    const LEFT: &[&str] = &["", "<|", "<", "*", "o", "#", "x", "}", "+", "^", "|o", "||", "}o", "}|"];
    const RIGHT: &[&str] = &["", "|>", ">", "*", "o", "#", "x", "{", "+", "^", "o|", "||", "o{", "|{"];
    let (Some(first), Some(last)) = (arrow.find(['-', '.']), arrow.rfind(['-', '.'])) else {
        return false;
    };
    let (left, body, right) = (&arrow[..first], &arrow[first..=last], &arrow[last + 1..]);
    let body: String = ["up", "down", "left", "right", "u", "d", "l", "r"]
        .iter()
        .fold(body.to_string(), |b, word| b.replacen(word, "", 1));
    LEFT.contains(&left) && RIGHT.contains(&right) && (body.chars().all(|c| c == '-') || body.chars().all(|c| c == '.'))
}

fn line_start_of(text: &str, offset: TextSize) -> TextSize {
    let offset = usize::from(offset).min(text.len());
    TextSize::from(text[..offset].rfind('\n').map_or(0, |i| i + 1) as u32)
}

/// Adds one indentation level to every non-blank line of `text`.
fn indent_block(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            out.push_str("  ");
        }
        out.push_str(line);
    }
    out
}

/// Whether `arrow`, written in `probe` (a one-link diagram of a kind), is
/// read by the parser itself as exactly one `link_kind` statement without
/// error: how the structural edits decide which arrows they may write. A
/// head on the left (`<-`) is refused: the edits write `from` first.
fn arrow_reads_as_one_link(arrow: &str, probe: &str, link_kind: SyntaxKind) -> bool {
    if arrow.starts_with('<') || arrow.contains(char::is_whitespace) || arrow.is_empty() {
        return false;
    }
    let parse = puml_syntax::parse(probe);
    if !parse.errors().is_empty() {
        return false;
    }
    let root = puml_syntax::ast::Root { syntax: parse.syntax() };
    let Some(diagram) = root.diagrams().next() else {
        return false;
    };
    let links: Vec<_> = diagram.statements().filter(|s| s.kind() == link_kind).collect();
    links.len() == 1
        && !links[0]
            .descendants_with_tokens()
            .any(|t| t.kind() == SyntaxKind::ERROR_TOKEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "@startuml\nparticipant Alice\nparticipant \"Back End\" as API\nAlice -> API : login\nAPI --> Alice : ok\n@enduml\n";

    fn apply(kind: &str, json_like: &[(&str, ArgValue)]) -> Result<EditResult, EditError> {
        let args: BTreeMap<String, ArgValue> = json_like.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        apply_edit(BASE, &Edit::parse(kind, &args)?)
    }

    fn text(t: &str) -> ArgValue {
        ArgValue::Text(t.to_string())
    }

    #[test]
    fn add_participant_goes_to_the_declarations() {
        let r = apply("add_participant", &[("name", text("DB")), ("kind", text("database"))]).unwrap();
        assert_eq!(
            r.source,
            "@startuml\nparticipant Alice\nparticipant \"Back End\" as API\ndatabase DB\nAlice -> API : login\nAPI --> Alice : ok\n@enduml\n"
        );
        assert_eq!(r.edits.len(), 1);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let err = apply("add_participant", &[("name", text("Alice"))]).unwrap_err();
        assert_eq!(err, EditError::NameCollision("Alice".into()));
    }

    #[test]
    fn add_message_and_note() {
        let r = apply(
            "add_message",
            &[
                ("from", text("API")),
                ("to", text("Alice")),
                ("label", text("bye")),
                ("arrow", text("-->")),
            ],
        )
        .unwrap();
        assert!(r.source.ends_with("API --> Alice : bye\n@enduml\n"), "{}", r.source);
        let err = apply(
            "add_message",
            &[("from", text("Bob")), ("to", text("Alice")), ("label", text("x"))],
        )
        .unwrap_err();
        assert!(err.to_string().contains("unknown participant `Bob`"), "{err}");
        let r = apply(
            "add_note",
            &[
                ("text", text("two\nlines")),
                ("position", text("over")),
                ("participants", ArgValue::List(vec![text("Alice"), text("API")])),
                ("after_line", ArgValue::Number(4)),
            ],
        )
        .unwrap();
        assert!(
            r.source
                .contains("Alice -> API : login\nnote over Alice, API\n  two\n  lines\nend note\nAPI -->"),
            "{}",
            r.source
        );
    }

    #[test]
    fn wrap_group_and_validation() {
        let r = apply(
            "wrap_group",
            &[
                ("kind", text("alt")),
                ("label", text("success")),
                ("start_line", ArgValue::Number(4)),
                ("end_line", ArgValue::Number(5)),
                ("else_at", ArgValue::List(vec![ArgValue::Number(5)])),
            ],
        )
        .unwrap();
        assert!(
            r.source
                .contains("alt success\n  Alice -> API : login\nelse\n  API --> Alice : ok\nend\n@enduml"),
            "{}",
            r.source
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let nested = "@startuml\nalt x\nA -> B\nelse y\nB -> A\nend\n@enduml\n";
        let edit = Edit::WrapGroup {
            kind: GroupKind::Loop,
            label: String::new(),
            start_line: 3,
            end_line: 4,
            else_at: Vec::new(),
        };
        assert!(matches!(apply_edit(nested, &edit), Err(EditError::SplitsGroup(_))));
    }

    #[test]
    fn rename_alias_and_name() {
        let r = apply("rename_participant", &[("from", text("API")), ("to", text("Svc"))]).unwrap();
        assert_eq!(
            r.source,
            "@startuml\nparticipant Alice\nparticipant \"Back End\" as Svc\nAlice -> Svc : login\nSvc --> Alice : ok\n@enduml\n"
        );
        let r = apply(
            "rename_participant",
            &[("from", text("Back End")), ("to", text("Server"))],
        )
        .unwrap();
        assert!(r.source.contains("participant \"Server\" as API\n"), "{}", r.source);
        let r = apply("rename_participant", &[("from", text("Alice")), ("to", text("Carol"))]).unwrap();
        assert!(r.source.contains("participant Carol\nparticipant"), "{}", r.source);
        assert!(
            r.source.contains("Carol -> API : login\nAPI --> Carol : ok"),
            "{}",
            r.source
        );
        let err = apply("rename_participant", &[("from", text("Alice")), ("to", text("API"))]).unwrap_err();
        assert_eq!(err, EditError::NameCollision("API".into()));
    }

    #[test]
    fn theme_title_and_remove() {
        let r = apply("change_theme", &[("theme", text("plain"))]).unwrap();
        assert!(
            r.source.starts_with("@startuml\n!theme plain\nparticipant"),
            "{}",
            r.source
        );
        let again = apply_edit(&r.source, &Edit::ChangeTheme { theme: None }).unwrap();
        assert_eq!(again.source, BASE);
        let r = apply("set_title", &[("title", text("Login"))]).unwrap();
        assert!(r.source.starts_with("@startuml\ntitle Login\n"), "{}", r.source);
        let r = apply("remove_message", &[("line", ArgValue::Number(5))]).unwrap();
        assert!(!r.source.contains("API --> Alice"));
        let err = apply("remove_message", &[("line", ArgValue::Number(2))]).unwrap_err();
        assert_eq!(err.to_string(), "line 2 is a participant declaration, not a message");
    }

    #[test]
    fn argument_errors_are_clear() {
        let err = apply("add_message", &[("from", text("Alice"))]).unwrap_err();
        assert_eq!(err.to_string(), "argument `to`: is required");
        let err = apply("explode", &[]).unwrap_err();
        assert!(err.to_string().starts_with("unknown edit kind `explode`"));
        let err = apply("set_title", &[("title", text("x")), ("colour", text("red"))]).unwrap_err();
        assert!(
            err.to_string().contains("`colour`: is not an argument of set_title"),
            "{err}"
        );
        let err = apply_edit("' only a comment\n", &Edit::SetTitle { title: None }).unwrap_err();
        assert_eq!(err, EditError::NoDiagram);
    }
}
