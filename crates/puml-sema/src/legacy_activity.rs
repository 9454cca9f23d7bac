//! Legacy activity diagrams (`(*) --> "First"`, `"First" -->[yes] "Second"`,
//! `if "c" then` … `else` … `endif`, `===B1===` bars, notes, partitions):
//! the model, and its reading from a block's lines.
//!
//! The block is one PlantUML reads with its legacy activity grammar (the
//! fallback reading of `other_kind.rs` decided it, line by line); this
//! module builds what that grammar builds, as PlantUML 1.2026.8 builds it
//! (observed in its `svek.dot` and SVG): activities created on first use,
//! in that order; `(*)` the one start (as a source) or the one end (as a
//! target); an arrow without a source leaves the last activity; `if`
//! makes a diamond, linked from the last activity with the condition as
//! the arrow's head label, and `else` goes back to it; a note is placed
//! by the last activity. Work is linear in the lines; no recursion.

/// Index of a node in [`LegacyActivityDiagram::nodes`].
pub type NodeIndex = usize;

/// A legacy activity diagram: its nodes in creation order, links, notes
/// and partitions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LegacyActivityDiagram {
    pub nodes: Vec<LegacyNode>,
    pub links: Vec<LegacyLink>,
    pub notes: Vec<LegacyNote>,
    pub partitions: Vec<LegacyPartition>,
    /// `left to right direction`.
    pub left_to_right: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LegacyNodeKind {
    /// `(*)` as a source: the start disc.
    Start,
    /// `(*)` as a target: the end bullseye.
    End,
    /// `"text"`, `"text" as A`, `A`: a rounded box.
    Action,
    /// `if "c" then`: a diamond.
    Branch,
    /// `===B1===`: a synchronisation bar.
    Bar,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LegacyNode {
    pub kind: LegacyNodeKind,
    /// How later lines name it: the alias, the quoted text, the bar's
    /// name; `start`, `end`, `#N` for a branch.
    pub code: String,
    /// The text drawn (`\n` breaks lines).
    pub display: String,
    /// `#pink` after the activity.
    pub color: Option<String>,
    /// The partition it was created in.
    pub partition: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum LegacyDirection {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LegacyLink {
    pub from: NodeIndex,
    pub to: NodeIndex,
    /// `-->[label]`.
    pub label: Option<String>,
    /// The branch condition, drawn at the arrow's head (into the diamond).
    pub head_label: Option<String>,
    /// Dashes (or dots) in the arrow: `->` 1, `-->` 2.
    pub length: u32,
    pub direction: Option<LegacyDirection>,
    /// `..>`.
    pub dotted: bool,
    /// `-[#red]->`.
    pub color: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LegacyNote {
    /// The activity it is placed by.
    pub node: NodeIndex,
    pub side: LegacyDirection,
    pub text: String,
    pub color: Option<String>,
    /// How many nodes and links existed when it was written: where its
    /// node and edge come in the graph PlantUML hands to dot.
    pub nodes_before: usize,
    pub links_before: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LegacyPartition {
    pub name: String,
    pub parent: Option<usize>,
    pub color: Option<String>,
}

/// Nesting bound for `if` and `partition` (deeper ones are read flat).
const MAX_DEPTH: usize = 256;

/// One activity reference on a line.
#[derive(Debug, PartialEq)]
enum Activity {
    Star,
    Bar(String),
    Named {
        code: String,
        display: String,
    },
    /// `--> if "c" then` as a target: a new diamond with its condition.
    Branch(String),
}

/// A link line cut into its pieces.
#[derive(Debug)]
struct LinkLine {
    source: Option<Activity>,
    length: u32,
    dotted: bool,
    direction: Option<LegacyDirection>,
    color: Option<String>,
    label: Option<String>,
    target: Activity,
    target_color: Option<String>,
}

impl LegacyActivityDiagram {
    fn find(&self, code: &str, kind: LegacyNodeKind) -> Option<NodeIndex> {
        self.nodes.iter().position(|n| n.kind == kind && n.code == code)
    }

    fn add(&mut self, kind: LegacyNodeKind, code: String, display: String, partition: Option<usize>) -> NodeIndex {
        self.nodes.push(LegacyNode {
            kind,
            code,
            display,
            color: None,
            partition,
        });
        self.nodes.len() - 1
    }

    fn node_for(&mut self, activity: &Activity, as_target: bool, partition: Option<usize>) -> NodeIndex {
        match activity {
            Activity::Star => {
                let (kind, code) = if as_target {
                    (LegacyNodeKind::End, "end")
                } else {
                    (LegacyNodeKind::Start, "start")
                };
                self.find(code, kind)
                    .unwrap_or_else(|| self.add(kind, code.to_string(), String::new(), partition))
            }
            Activity::Bar(name) => self
                .find(name, LegacyNodeKind::Bar)
                .unwrap_or_else(|| self.add(LegacyNodeKind::Bar, name.clone(), String::new(), partition)),
            Activity::Named { code, display } => self
                .find(code, LegacyNodeKind::Action)
                .unwrap_or_else(|| self.add(LegacyNodeKind::Action, code.clone(), display.clone(), partition)),
            Activity::Branch(_) => {
                let code = format!("#{}", self.nodes.len());
                self.add(LegacyNodeKind::Branch, code, String::new(), partition)
            }
        }
    }
}

/// Where a legacy activity diagram's items were written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LegacyActivitySourceMap {
    /// Per node: every occurrence of it (the first is where it was created;
    /// a branch's is its `if`).
    pub node_references: Vec<Vec<puml_syntax::TextRange>>,
    /// Per link: its statement.
    pub links: Vec<puml_syntax::TextRange>,
    /// Per note: its statement.
    pub notes: Vec<puml_syntax::TextRange>,
    /// Per partition: its `partition … {` line.
    pub partitions: Vec<puml_syntax::TextRange>,
}

/// Builds the model statement by statement, as PlantUML's legacy grammar
/// does: the last activity, the open branches and partitions carried from
/// one statement to the next.
#[derive(Debug, Default)]
pub struct LegacyBuilder {
    model: LegacyActivityDiagram,
    last: Option<NodeIndex>,
    branches: Vec<NodeIndex>,
    partitions: Vec<usize>,
}

impl LegacyBuilder {
    /// `left to right direction`.
    pub fn left_to_right(&mut self) {
        self.model.left_to_right = true;
    }

    /// Whether a note would be placed (an activity came before it).
    pub fn has_last(&self) -> bool {
        self.last.is_some()
    }

    /// A note: its header line (`note right: text` or `note left`) and,
    /// for a block, its body lines. Whether it was placed (an activity came
    /// before it).
    pub fn note<'l>(&mut self, header: &str, body: impl IntoIterator<Item = &'l str>) -> bool {
        let Some((side, inline, color)) = note_header(header.trim()) else {
            return false;
        };
        let Some(node) = self.last else {
            return false;
        };
        let text = match inline {
            Some(text) => text.to_string(),
            None => body.into_iter().map(str::trim).collect::<Vec<_>>().join("\n"),
        };
        self.model.notes.push(LegacyNote {
            node,
            side,
            text,
            color,
            nodes_before: self.model.nodes.len(),
            links_before: self.model.links.len(),
        });
        true
    }

    /// `partition P {`: whether it was read.
    pub fn partition(&mut self, line: &str) -> bool {
        let Some((name, color)) = partition_header(line.trim()) else {
            return false;
        };
        self.model.partitions.push(LegacyPartition {
            name,
            parent: self.partitions.last().copied(),
            color,
        });
        if self.partitions.len() < MAX_DEPTH {
            self.partitions.push(self.model.partitions.len() - 1);
        }
        true
    }

    /// `}` closing a partition.
    pub fn close_partition(&mut self) {
        self.partitions.pop();
    }

    /// `if "c" then`: the new diamond, linked from the last activity.
    pub fn branch(&mut self, line: &str) -> Option<NodeIndex> {
        let condition = branch_header(line.trim())?;
        let from = self.last?;
        let partition = self.partitions.last().copied();
        let code = format!("#{}", self.model.nodes.len());
        let diamond = self.model.add(LegacyNodeKind::Branch, code, String::new(), partition);
        self.model.links.push(LegacyLink {
            from,
            to: diamond,
            label: None,
            head_label: (!condition.is_empty()).then(|| condition.to_string()),
            length: 2,
            direction: None,
            dotted: false,
            color: None,
        });
        if self.branches.len() < MAX_DEPTH {
            self.branches.push(diamond);
        }
        self.last = Some(diamond);
        Some(diamond)
    }

    /// `else`: back to the open branch's diamond.
    pub fn else_(&mut self) {
        if let Some(&diamond) = self.branches.last() {
            self.last = Some(diamond);
        }
    }

    /// `endif`.
    pub fn endif(&mut self) {
        self.branches.pop();
    }

    /// A link line: its source and target nodes, `None` when it makes no link.
    pub fn link(&mut self, line: &str) -> Option<(NodeIndex, NodeIndex)> {
        let link = link_line(line.trim())?;
        let partition = self.partitions.last().copied();
        let from = match &link.source {
            Some(source) => self.model.node_for(source, false, partition),
            None => self.last?,
        };
        let to = self.model.node_for(&link.target, true, partition);
        if let Some(color) = link.target_color {
            self.model.nodes[to].color = Some(color);
        }
        let head_label = match &link.target {
            Activity::Branch(condition) => {
                if self.branches.len() < MAX_DEPTH {
                    self.branches.push(to);
                }
                (!condition.is_empty()).then(|| condition.clone())
            }
            _ => None,
        };
        self.model.links.push(LegacyLink {
            from,
            to,
            label: link.label,
            head_label,
            length: link.length,
            direction: link.direction,
            dotted: link.dotted,
            color: link.color,
        });
        self.last = Some(to);
        Some((from, to))
    }

    pub fn finish(self) -> LegacyActivityDiagram {
        self.model
    }
}

/// Builds the model from the block's lines (after its `@startuml` line).
/// Lines it does not know (titles, skinparams, comments, …) are left to
/// the rest of lowering; the fallback reading has already checked that
/// PlantUML reads every line. (The parser's legacy statements are lowered
/// by `lower_legacy_activity.rs` through the same [`LegacyBuilder`]; this
/// reading serves the blocks only the fallback recogniser takes.)
pub fn read<'a>(lines: impl IntoIterator<Item = &'a str>) -> LegacyActivityDiagram {
    let mut builder = LegacyBuilder::default();
    let mut lines = lines.into_iter();
    while let Some(raw) = lines.next() {
        let line = raw.trim();
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("@enduml") {
            break;
        }
        if line.is_empty() || line.starts_with('\'') {
            continue;
        }
        // Multi-line forms of the shared statements: skipped to their end.
        if line.starts_with("/'") && !line[2..].contains("'/") {
            skip_until(&mut lines, |l| l.contains("'/"));
            continue;
        }
        if lower.starts_with("skinparam") && line.ends_with('{') {
            skip_until(&mut lines, |l| l.trim() == "}");
            continue;
        }
        if lower == "<style>" {
            skip_until(&mut lines, |l| l.trim().eq_ignore_ascii_case("</style>"));
            continue;
        }
        if let Some(end) = ["title", "header", "footer", "legend"]
            .into_iter()
            .find(|w| lower == *w || (*w == "legend" && lower.starts_with("legend ")))
        {
            skip_until(&mut lines, |l| {
                let l = l.trim().to_ascii_lowercase();
                l == format!("end {end}") || l == format!("end{end}")
            });
            continue;
        }
        if lower == "left to right direction" {
            builder.left_to_right();
            continue;
        }
        if let Some((_, inline, _)) = note_header(line) {
            let mut body = Vec::new();
            if inline.is_none() {
                for l in lines.by_ref() {
                    if is_end_note(l) {
                        break;
                    }
                    body.push(l);
                }
            }
            builder.note(line, body);
            continue;
        }
        if builder.partition(line) {
            continue;
        }
        if line == "}" {
            builder.close_partition();
            continue;
        }
        if branch_header(line).is_some() {
            builder.branch(line);
            continue;
        }
        if lower == "else" {
            builder.else_();
            continue;
        }
        if let Some(branch) = else_if(line) {
            builder.else_();
            builder.branch(branch);
            continue;
        }
        if lower == "endif" || lower.split_whitespace().eq(["end", "if"]) {
            builder.endif();
            continue;
        }
        builder.link(line);
    }
    builder.finish()
}

fn skip_until<'a>(lines: &mut impl Iterator<Item = &'a str>, end: impl Fn(&str) -> bool) {
    for l in lines.by_ref() {
        if end(l) {
            break;
        }
    }
}

fn is_end_note(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    l == "end note" || l == "endnote"
}

/// `note right: text`, `note left #pink`, `note top`, `note bottom`: the
/// side, the one-line text (`None` for a block), the colour.
fn note_header(line: &str) -> Option<(LegacyDirection, Option<&str>, Option<String>)> {
    let rest = strip_word(line, "note")?;
    let (head, inline) = match rest.find(':') {
        Some(colon) => (&rest[..colon], Some(rest[colon + 1..].trim())),
        None => (rest, None),
    };
    let mut words = head.split_whitespace();
    let side = match words.next()?.to_ascii_lowercase().as_str() {
        "right" => LegacyDirection::Right,
        "left" => LegacyDirection::Left,
        "top" | "up" => LegacyDirection::Up,
        "bottom" | "down" => LegacyDirection::Down,
        _ => return None,
    };
    let color = words.find(|w| w.starts_with('#')).map(str::to_string);
    Some((side, inline, color))
}

/// `partition P {`, `partition "Long name" #pink {`.
fn partition_header(line: &str) -> Option<(String, Option<String>)> {
    let rest = strip_word(line, "partition")?;
    let rest = rest.strip_suffix('{')?.trim();
    let (name, rest) = match rest.strip_prefix('"') {
        Some(after) => {
            let close = after.find('"')?;
            (after[..close].to_string(), after[close + 1..].trim())
        }
        None => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (rest[..end].to_string(), rest[end..].trim())
        }
    };
    if name.is_empty() {
        return None;
    }
    let color = rest.split_whitespace().find(|w| w.starts_with('#')).map(str::to_string);
    Some((name, color))
}

/// `if "condition" then`, `if condition then`, `if "condition"`, `if
/// then`: the condition (empty for none).
fn branch_header(line: &str) -> Option<&str> {
    let rest = strip_word(line, "if")?;
    if rest.is_empty() {
        return None;
    }
    let rest = if rest.eq_ignore_ascii_case("then") {
        ""
    } else {
        match rest.len().checked_sub(4) {
            Some(at) if rest.is_char_boundary(at) && rest[at..].eq_ignore_ascii_case("then") => rest[..at].trim_end(),
            _ => rest,
        }
    };
    // `if "" then`: a diamond without a condition.
    Some(rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(rest))
}

/// `else if "c" then`: the `if` part.
pub(crate) fn else_if(line: &str) -> Option<&str> {
    let rest = strip_word(line.trim(), "else")?;
    branch_header(rest).map(|_| rest)
}

/// `word rest` (case-insensitive word): the rest, trimmed.
fn strip_word<'l>(line: &'l str, word: &str) -> Option<&'l str> {
    let head = line.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = &line[word.len()..];
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace) || rest.starts_with(':')) {
        return None;
    }
    Some(rest.trim())
}

/// `[SOURCE] ARROW [[label]] TARGET [#colour] [<<s>>]`.
fn link_line(line: &str) -> Option<LinkLine> {
    let (source, rest) = match activity(line, false) {
        Some((activity, rest)) => (Some(activity), rest.trim_start()),
        None => (None, line),
    };
    let (length, dotted, direction, color, rest) = arrow(rest)?;
    let rest = rest.trim_start();
    let (label, rest) = match rest.strip_prefix('[') {
        Some(after) => {
            let close = after.find(']')?;
            (Some(after[..close].trim().to_string()), after[close + 1..].trim_start())
        }
        None => (None, rest),
    };
    if let Some(condition) = branch_header(rest) {
        return Some(LinkLine {
            source,
            length,
            dotted,
            direction,
            color,
            label: label.filter(|l| !l.is_empty()),
            target: Activity::Branch(condition.to_string()),
            target_color: None,
        });
    }
    let (target, rest) = activity(rest, true)?;
    let target_color = rest
        .split_whitespace()
        .find(|w| w.starts_with('#') && w.len() > 1)
        .map(str::to_string);
    Some(LinkLine {
        source,
        length,
        dotted,
        direction,
        color,
        label: label.filter(|l| !l.is_empty()),
        target,
        target_color,
    })
}

/// A plain name as an arrow's target: the rest of the line (PlantUML
/// draws `--> browser  serve the box` and `--> queue.enqueue(null)` as
/// one activity each), but for a trailing `#colour` or `<<stereotype>>`,
/// which is the returned rest. The blanks around a `:` are read as one
/// on each side, as the formatter writes a message's (`B: text` and `B :
/// text` are one activity), so formatting keeps the diagram.
fn plain_target(text: &str) -> (Activity, &str) {
    let mut end = text.trim_end().len();
    loop {
        let head = text[..end].trim_end();
        let Some(space) = head.rfind(char::is_whitespace) else {
            break;
        };
        let last = &head[space + 1..];
        if (last.starts_with('#') && last.len() > 1) || (last.starts_with("<<") && last.ends_with(">>")) {
            end = space;
        } else {
            break;
        }
    }
    let name = text[..end].trim();
    let display = match name.split_once(':') {
        Some((before, after)) if !after.trim().is_empty() => format!("{} : {}", before.trim_end(), after.trim_start()),
        Some((before, _)) => format!("{} :", before.trim_end()),
        None => name.to_string(),
    };
    (
        Activity::Named {
            code: display.clone(),
            display,
        },
        &text[end..],
    )
}

/// An activity at the start of `text`, and the rest. `as_target`: a
/// plain name is [`plain_target`]; as a source it stops at a blank or the
/// arrow.
fn activity(text: &str, as_target: bool) -> Option<(Activity, &str)> {
    if let Some(rest) = text.strip_prefix("(*)").or_else(|| text.strip_prefix("(*top)")) {
        return Some((Activity::Star, rest));
    }
    if text.starts_with("==") {
        let after = text.trim_start_matches('=');
        let close = after.find('=')?;
        let name = after[..close].trim();
        let rest = after[close..].trim_start_matches('=');
        return (!name.is_empty()).then(|| (Activity::Bar(name.to_string()), rest));
    }
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        let display = after[..close].to_string();
        let rest = &after[close + 1..];
        if let Some(alias) = strip_word(rest.trim_start(), "as") {
            let end = alias
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(alias.len());
            if end > 0 {
                let code = alias[..end].to_string();
                return Some((Activity::Named { code, display }, &alias[end..]));
            }
        }
        return Some((
            Activity::Named {
                code: display.clone(),
                display,
            },
            rest,
        ));
    }
    if !text.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    if as_target {
        return Some(plain_target(text));
    }
    let end = {
        let mut end = text.len();
        for (at, c) in text.char_indices() {
            if c.is_whitespace() || c == '-' || text[at..].starts_with("..") {
                end = at;
                break;
            }
        }
        end
    };
    let name = text[..end].to_string();
    Some((
        Activity::Named {
            code: name.clone(),
            display: name,
        },
        &text[end..],
    ))
}

type Arrow<'t> = (u32, bool, Option<LegacyDirection>, Option<String>, &'t str);

fn is_arrow_body(c: char) -> bool {
    c == '-' || c == '.'
}

/// `-->`, `->`, `..>`, `-.->`, `-up->`, `-[#red]->`, `-up[#red]->`: its
/// length (the body characters), whether dotted (a `.` in it), its
/// direction, its colour, and the rest.
fn arrow(text: &str) -> Option<Arrow<'_>> {
    let mut rest = text.trim_start_matches(is_arrow_body);
    let lead = &text[..text.len() - rest.len()];
    if lead.is_empty() {
        return None;
    }
    let mut body = lead.to_string();
    let mut direction = None;
    let mut color = None;
    let len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    if len > 0 {
        let word = rest[..len].to_ascii_lowercase();
        direction = [
            ("up", LegacyDirection::Up),
            ("down", LegacyDirection::Down),
            ("left", LegacyDirection::Left),
            ("right", LegacyDirection::Right),
        ]
        .into_iter()
        .find(|(d, _)| d.starts_with(&word))
        .map(|(_, dir)| dir);
        direction?;
        rest = &rest[len..];
    }
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']')?;
        color = after[..close]
            .split(',')
            .map(str::trim)
            .find(|p| p.starts_with('#'))
            .map(str::to_string);
        rest = &after[close + 1..];
    }
    let tail = rest.trim_start_matches(is_arrow_body);
    body.push_str(&rest[..rest.len() - tail.len()]);
    let rest = tail.strip_prefix('>')?;
    Some((body.chars().count() as u32, body.contains('.'), direction, color, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> LegacyActivityDiagram {
        read(text.lines())
    }

    #[test]
    fn reads_activities_links_branches_and_notes() {
        let model = read_text(
            "(*) --> \"First\"\n\"First\" -->[yes] \"Second\"\nif \"cond\" then\n  -->[true] \"A\"\n  --> ===B1===\nelse\n  -right-> \"B\" as b #pink\nendif\n===B1=== --> \"C\"\n\"C\" --> (*)\nnote right: hello\n",
        );
        let kinds: Vec<_> = model.nodes.iter().map(|n| (n.kind, n.code.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (LegacyNodeKind::Start, "start"),
                (LegacyNodeKind::Action, "First"),
                (LegacyNodeKind::Action, "Second"),
                (LegacyNodeKind::Branch, "#3"),
                (LegacyNodeKind::Action, "A"),
                (LegacyNodeKind::Bar, "B1"),
                (LegacyNodeKind::Action, "b"),
                (LegacyNodeKind::Action, "C"),
                (LegacyNodeKind::End, "end"),
            ]
        );
        let links: Vec<_> = model.links.iter().map(|l| (l.from, l.to)).collect();
        assert_eq!(links, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (3, 6), (5, 7), (7, 8)]);
        assert_eq!(model.links[2].head_label.as_deref(), Some("cond"));
        assert_eq!(model.links[1].label.as_deref(), Some("yes"));
        assert_eq!(model.links[5].direction, Some(LegacyDirection::Right));
        assert_eq!(model.nodes[6].color.as_deref(), Some("#pink"));
        assert_eq!(model.nodes[6].display, "B");
        assert_eq!(model.notes.len(), 1);
        assert_eq!(model.notes[0].node, 8);
    }

    #[test]
    fn reads_lengths_partitions_and_block_notes() {
        let model = read_text("(*) --> if \"t\" then\n-->[yes] \"A\"\nelse\n--> queue.join()\nendif\n==B== --> (*)\n");
        let kinds: Vec<_> = model.nodes.iter().map(|n| (n.kind, n.code.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (LegacyNodeKind::Start, "start"),
                (LegacyNodeKind::Branch, "#1"),
                (LegacyNodeKind::Action, "A"),
                (LegacyNodeKind::Action, "queue.join()"),
                (LegacyNodeKind::Bar, "B"),
                (LegacyNodeKind::End, "end"),
            ]
        );
        assert_eq!(model.links[0].head_label.as_deref(), Some("t"));
        assert_eq!((model.links[2].from, model.links[2].to), (1, 3));
        let model = read_text("A -> B:  do it\nA -> browser  serve the box #pink\n");
        let displays: Vec<_> = model.nodes.iter().map(|n| n.display.as_str()).collect();
        assert_eq!(displays, ["A", "B : do it", "browser  serve the box"]);
        assert_eq!(model.nodes[2].color.as_deref(), Some("#pink"));
        let model = read_text("partition P {\n(*) -> \"A\"\nnote left\n  one\n  two\nend note\n}\n\"A\" ..> (*)\n");
        assert_eq!(model.partitions.len(), 1);
        assert_eq!(model.nodes[0].partition, Some(0));
        assert_eq!(model.nodes[2].partition, None);
        assert_eq!(model.links[0].length, 1);
        assert!(model.links[1].dotted);
        assert_eq!(model.notes[0].text, "one\ntwo");
        assert_eq!(model.notes[0].side, LegacyDirection::Left);
    }
}
