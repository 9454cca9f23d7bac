//! Mermaid `sequenceDiagram` → puml.
//!
//! Pure text work: Mermaid's sequence language is line-oriented (a `;` ends a
//! statement too), so each statement is recognised on its own and mapped to
//! the closest idiomatic PlantUML. Every mapping that loses information is
//! reported as a warning carrying the 1-based Mermaid line.

use std::collections::HashMap;
use std::fmt;

/// The converted diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// A complete `@startuml … @enduml` document.
    pub source: String,
    pub warnings: Vec<ConversionWarning>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionWarning {
    /// 1-based line in the Mermaid input.
    pub line: u32,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvertError {
    /// The input holds no diagram at all.
    Empty,
    /// The input is another Mermaid diagram type (`flowchart`, `classDiagram`, …).
    NotSequenceDiagram { line: u32, found: String },
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Empty => write!(f, "the input is empty: expected a Mermaid `sequenceDiagram`"),
            ConvertError::NotSequenceDiagram { line, found } => write!(
                f,
                "line {line}: `{found}` is not a sequence diagram; only Mermaid sequenceDiagram can be converted"
            ),
        }
    }
}

impl std::error::Error for ConvertError {}

/// What an `end` closes, so that it can be written the PlantUML way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Group,
    Box,
}

struct Converter {
    out: Vec<String>,
    warnings: Vec<ConversionWarning>,
    /// Mermaid participant id → PlantUML code.
    codes: HashMap<String, String>,
    used_codes: Vec<String>,
    blocks: Vec<Block>,
    /// `destroy X` seen: PlantUML wants it after the next message.
    pending_destroy: Vec<(String, u32)>,
    title: Option<String>,
    line: u32,
}

/// Converts a Mermaid sequence diagram into puml source.
pub fn convert(text: &str) -> Result<Conversion, ConvertError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut index = 0;
    let mut front_title = None;
    // Front matter: `---` … `---` with an optional `title:`.
    while index < lines.len() && lines[index].trim().is_empty() {
        index += 1;
    }
    if index < lines.len() && lines[index].trim() == "---" {
        let mut end = index + 1;
        while end < lines.len() && lines[end].trim() != "---" {
            if let Some(rest) = lines[end].trim().strip_prefix("title:") {
                front_title = Some(unquote_yaml(rest.trim()));
            }
            end += 1;
        }
        index = (end + 1).min(lines.len());
    }
    let mut conv = Converter {
        out: Vec::new(),
        warnings: Vec::new(),
        codes: HashMap::new(),
        used_codes: Vec::new(),
        blocks: Vec::new(),
        pending_destroy: Vec::new(),
        title: front_title,
        line: 0,
    };
    // The header: skip blanks, comments and `%%{init}%%` directives.
    let mut header_found = false;
    while index < lines.len() {
        let trimmed = lines[index].trim();
        conv.line = index as u32 + 1;
        index += 1;
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("%%{") {
            conv.warn("Mermaid init directive dropped");
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix("%%") {
            conv.out.push(format!("'{comment}"));
            continue;
        }
        let first_word = trimmed.split_whitespace().next().unwrap_or("");
        if first_word == "sequenceDiagram" {
            let rest = trimmed["sequenceDiagram".len()..].trim();
            if !rest.is_empty() {
                conv.convert_statements(rest);
            }
            header_found = true;
            break;
        }
        return Err(ConvertError::NotSequenceDiagram {
            line: conv.line,
            found: first_word.to_string(),
        });
    }
    if !header_found {
        return Err(ConvertError::Empty);
    }
    let mut in_acc_descr_block = false;
    while index < lines.len() {
        conv.line = index as u32 + 1;
        let raw = lines[index];
        index += 1;
        // `accDescr { … }` spans lines; it is accessibility metadata only.
        if in_acc_descr_block {
            in_acc_descr_block = !raw.contains('}');
            continue;
        }
        let trimmed = raw.trim();
        if trimmed.starts_with("accDescr") && trimmed.contains('{') && !trimmed.contains('}') {
            conv.warn("accDescr (accessibility description) dropped");
            in_acc_descr_block = true;
            continue;
        }
        conv.convert_statements(trimmed);
    }
    conv.finish()
}

fn unquote_yaml(text: &str) -> String {
    let t = text.trim();
    if t.len() >= 2 && ((t.starts_with('"') && t.ends_with('"')) || (t.starts_with('\'') && t.ends_with('\''))) {
        t[1..t.len() - 1].to_string()
    } else {
        t.to_string()
    }
}

impl Converter {
    fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(ConversionWarning {
            line: self.line,
            message: message.into(),
        });
    }

    fn indent(&self) -> String {
        "  ".repeat(self.blocks.len())
    }

    fn emit(&mut self, statement: String) {
        let line = format!("{}{}", self.indent(), statement);
        self.out.push(line);
    }

    /// A physical line may hold several statements separated by `;`
    /// (Mermaid writes a literal semicolon as `#59;`).
    fn convert_statements(&mut self, line: &str) {
        if let Some(comment) = line.strip_prefix("%%") {
            let statement = format!("'{comment}");
            self.emit(statement);
            return;
        }
        for statement in split_statements(line) {
            let statement = statement.trim();
            if !statement.is_empty() {
                self.convert_statement(statement);
            }
        }
    }

    fn convert_statement(&mut self, statement: &str) {
        let (keyword, rest) = split_keyword(statement);
        match keyword.to_ascii_lowercase().as_str() {
            "participant" | "actor" => self.declare(statement, false),
            "create" => {
                let (next, _) = split_keyword(rest);
                if matches!(next.to_ascii_lowercase().as_str(), "participant" | "actor") {
                    self.declare(rest, true);
                } else {
                    self.unsupported(statement);
                }
            }
            "destroy" => {
                let name = rest.trim().to_string();
                self.pending_destroy.push((name, self.line));
            }
            "activate" | "deactivate" => {
                let code = self.code_for(rest.trim());
                self.emit(format!("{} {code}", keyword.to_ascii_lowercase()));
            }
            "note" => self.note(rest),
            "loop" | "alt" | "opt" | "par" | "critical" | "break" => {
                let label = rest.trim();
                let keyword = keyword.to_ascii_lowercase();
                self.emit(if label.is_empty() {
                    keyword
                } else {
                    format!("{keyword} {}", decode_text(label))
                });
                self.blocks.push(Block::Group);
            }
            "par_over" => {
                self.warn("`par_over` has no PlantUML equivalent: converted to `par`");
                let label = decode_text(rest.trim());
                self.emit(format!("par {label}").trim_end().to_string());
                self.blocks.push(Block::Group);
            }
            "else" | "and" | "option" => {
                if self.blocks.last() != Some(&Block::Group) {
                    self.warn(format!("`{keyword}` outside a group: dropped"));
                    return;
                }
                let label = decode_text(rest.trim());
                self.blocks.pop();
                self.emit(format!("else {label}").trim_end().to_string());
                self.blocks.push(Block::Group);
            }
            "rect" => {
                let color = css_color_to_puml(rest.trim());
                let statement = match &color {
                    Some(c) => format!("group {c}"),
                    None => "group".to_string(),
                };
                self.warn(format!(
                    "`rect {}` has no PlantUML equivalent: converted to `{statement}` (drawn with a `group` frame)",
                    rest.trim()
                ));
                self.emit(statement);
                self.blocks.push(Block::Group);
            }
            "box" => self.open_box(rest),
            "end" => match self.blocks.pop() {
                Some(Block::Group) => self.emit("end".to_string()),
                Some(Block::Box) => self.emit("end box".to_string()),
                None => self.warn("`end` without an open block: dropped"),
            },
            "autonumber" => {
                let args = rest.trim();
                // Mermaid's `autonumber off` is PlantUML's `autonumber stop`.
                let statement = if args.eq_ignore_ascii_case("off") {
                    "autonumber stop".to_string()
                } else {
                    format!("autonumber {args}").trim_end().to_string()
                };
                self.emit(statement);
            }
            "title" => {
                let text = rest.trim().trim_start_matches(':').trim();
                self.title = Some(decode_text(text));
            }
            "link" | "links" => self.warn(format!(
                "`{keyword}` (participant menu links) has no PlantUML equivalent: dropped"
            )),
            "properties" | "details" => self.warn(format!("`{keyword}` has no PlantUML equivalent: dropped")),
            _ if keyword.starts_with("accTitle") || keyword.starts_with("accDescr") => {
                self.warn("accessibility metadata (accTitle/accDescr) dropped")
            }
            _ => {
                if !self.message(statement) {
                    self.unsupported(statement);
                }
            }
        }
    }

    fn unsupported(&mut self, statement: &str) {
        self.warn(format!("not understood, kept as a comment: {statement}"));
        let comment = format!("' {statement}");
        self.emit(comment);
    }

    /// `participant A as Alice`, `actor B`, `participant D@{ "type": "database" }`.
    fn declare(&mut self, statement: &str, create: bool) {
        let (keyword, rest) = split_keyword(statement);
        let mut kind = keyword.to_ascii_lowercase();
        let mut rest = rest.trim().to_string();
        // Mermaid 11 metadata: `Name@{ "type" : "queue" }`.
        if let Some(at) = rest.find("@{") {
            let meta = rest[at..].to_string();
            rest = rest[..at].trim().to_string();
            if let Some(t) = metadata_type(&meta) {
                if matches!(
                    t.as_str(),
                    "participant" | "actor" | "boundary" | "control" | "entity" | "database" | "collections" | "queue"
                ) {
                    kind = t;
                } else {
                    self.warn(format!(
                        "participant type `{t}` has no PlantUML equivalent: drawn as {kind}"
                    ));
                }
            }
        }
        let (id, display) = match find_word(&rest, "as") {
            Some((before, after)) => (before.trim().to_string(), Some(decode_text(after.trim()))),
            None => (rest.trim().to_string(), None),
        };
        if id.is_empty() {
            self.unsupported(statement);
            return;
        }
        let code = self.new_code(&id);
        let prefix = if create { "create " } else { "" };
        let shown = display.unwrap_or_else(|| id.clone());
        let decl = if shown == code {
            format!("{prefix}{kind} {code}")
        } else {
            format!("{prefix}{kind} {} as {code}", quote(&shown))
        };
        self.emit(decl);
    }

    /// Registers a Mermaid id and returns its PlantUML code.
    fn new_code(&mut self, id: &str) -> String {
        if let Some(code) = self.codes.get(id) {
            return code.clone();
        }
        let mut code = sanitize_ident(id);
        let base = code.clone();
        let mut n = 2;
        while self.used_codes.contains(&code) {
            code = format!("{base}_{n}");
            n += 1;
        }
        self.codes.insert(id.to_string(), code.clone());
        self.used_codes.push(code.clone());
        code
    }

    /// The code of a participant used before (or implicitly, now). Names
    /// that are not plain identifiers are declared on first use so that
    /// messages can use a plain code.
    fn code_for(&mut self, id: &str) -> String {
        if let Some(code) = self.codes.get(id) {
            return code.clone();
        }
        let code = self.new_code(id);
        if code != id {
            let decl = format!("participant {} as {code}", quote(id));
            self.emit(decl);
        }
        code
    }

    fn note(&mut self, rest: &str) {
        let Some((place, text)) = rest.split_once(':') else {
            self.unsupported(&format!("note {rest}"));
            return;
        };
        let place = place.trim();
        let lower = place.to_ascii_lowercase();
        let text = decode_text(text.trim());
        let header = if let Some(target) = strip_prefix_ci(place, "left of") {
            let code = self.code_for(target.trim());
            format!("note left of {code}")
        } else if let Some(target) = strip_prefix_ci(place, "right of") {
            let code = self.code_for(target.trim());
            format!("note right of {code}")
        } else if lower.starts_with("over") {
            let targets = place[4..].trim();
            let codes: Vec<String> = targets
                .split(',')
                .map(|t| t.trim())
                .filter(|t| !t.is_empty())
                .map(|t| self.code_for(t))
                .collect();
            if codes.is_empty() {
                self.unsupported(&format!("note {rest}"));
                return;
            }
            format!("note over {}", codes.join(", "))
        } else {
            self.unsupported(&format!("note {rest}"));
            return;
        };
        self.emit(format!("{header} : {text}"));
    }

    /// `box Aqua Title`, `box rgb(1,2,3) Title`, `box transparent Title`, `box Title`.
    fn open_box(&mut self, rest: &str) {
        let rest = rest.trim();
        let (color, title) = split_box_color(rest);
        let color = match color {
            Some(c) if c.eq_ignore_ascii_case("transparent") => None,
            Some(c) => match css_color_to_puml(c) {
                Some(p) => Some(p),
                None => {
                    self.warn(format!("box color `{c}` cannot be expressed in PlantUML: dropped"));
                    None
                }
            },
            None => None,
        };
        let mut statement = String::from("box");
        if !title.is_empty() {
            statement.push(' ');
            statement.push_str(&quote(&decode_text(title)));
        }
        if let Some(c) = color {
            statement.push(' ');
            statement.push_str(&c);
        }
        self.emit(statement);
        self.blocks.push(Block::Box);
    }

    /// A message statement; returns false when `statement` is not one.
    fn message(&mut self, statement: &str) -> bool {
        let (head, label) = match statement.split_once(':') {
            Some((h, l)) => (h, Some(l.trim())),
            None => (statement, None),
        };
        let Some(found) = find_arrow(head) else {
            return false;
        };
        let from = head[..found.start].trim();
        let mut to = head[found.end..].trim();
        let mut activation = None;
        if let Some(t) = to.strip_prefix('+') {
            activation = Some("++");
            to = t.trim();
        } else if let Some(t) = to.strip_prefix('-') {
            activation = Some("--");
            to = t.trim();
        }
        if from.is_empty() || to.is_empty() {
            return false;
        }
        if to.starts_with('(') || from.ends_with(')') {
            self.warn("central connections `()` have no PlantUML equivalent: dropped");
            to = to.trim_start_matches("()").trim();
        }
        let puml_arrow = found.arrow.puml;
        if let Some(why) = found.arrow.lossy {
            self.warn(why);
        }
        let from_code = self.code_for(from);
        let to_code = self.code_for(to);
        let mut line = format!("{from_code} {puml_arrow} {to_code}");
        if let Some(a) = activation {
            line.push(' ');
            line.push_str(a);
        }
        if let Some(label) = label.map(decode_text).filter(|l| !l.is_empty()) {
            line.push_str(" : ");
            line.push_str(&label);
        }
        self.emit(line.trim_end().to_string());
        // Mermaid puts `destroy X` before the message that destroys X;
        // PlantUML draws the destruction where the statement is: after it.
        let pending = std::mem::take(&mut self.pending_destroy);
        for (name, _) in pending {
            let code = self.code_for(&name);
            self.emit(format!("destroy {code}"));
        }
        true
    }

    fn finish(mut self) -> Result<Conversion, ConvertError> {
        let pending = std::mem::take(&mut self.pending_destroy);
        for (name, line) in pending {
            self.line = line;
            self.warn(format!(
                "`destroy {name}` is not followed by a message: destroyed at the end"
            ));
            let code = self.code_for(&name);
            self.emit(format!("destroy {code}"));
        }
        while let Some(block) = self.blocks.pop() {
            self.warn("block not closed with `end`: closed at the end of the diagram");
            self.emit(
                match block {
                    Block::Group => "end",
                    Block::Box => "end box",
                }
                .to_string(),
            );
        }
        let mut source = String::from("@startuml\n");
        if let Some(title) = &self.title {
            source.push_str("title ");
            source.push_str(title);
            source.push('\n');
        }
        for line in &self.out {
            source.push_str(line);
            source.push('\n');
        }
        source.push_str("@enduml\n");
        Ok(Conversion {
            source,
            warnings: self.warnings,
        })
    }
}

struct MermaidArrow {
    mermaid: &'static str,
    puml: &'static str,
    /// Why the mapping is approximate, when it is.
    lossy: Option<&'static str>,
}

const fn exact(mermaid: &'static str, puml: &'static str) -> MermaidArrow {
    MermaidArrow {
        mermaid,
        puml,
        lossy: None,
    }
}

/// Every Mermaid arrow (11.x) and its PlantUML form. Half-head arrows keep
/// their head on the same side, as in Mermaid.
const MERMAID_ARROWS: [MermaidArrow; 26] = [
    exact("->>", "->"),
    exact("-->>", "-->"),
    exact("-)", "->>"),
    exact("--)", "-->>"),
    exact("-x", "->x"),
    exact("--x", "-->x"),
    exact("<<->>", "<->"),
    exact("<<-->>", "<-->"),
    MermaidArrow {
        mermaid: "->",
        puml: "->",
        lossy: Some("`->` (a line without arrowhead) has no PlantUML equivalent: drawn as `->`"),
    },
    MermaidArrow {
        mermaid: "-->",
        puml: "-->",
        lossy: Some("`-->` (a dotted line without arrowhead) has no PlantUML equivalent: drawn as `-->`"),
    },
    exact("-|\\", "-\\"),
    exact("-|/", "-/"),
    exact("-\\\\", "-\\\\"),
    exact("-//", "-//"),
    exact("--|\\", "--\\"),
    exact("--|/", "--/"),
    exact("--\\\\", "--\\\\"),
    exact("--//", "--//"),
    exact("/|-", "/-"),
    exact("\\|-", "\\-"),
    exact("//-", "//-"),
    exact("\\\\-", "\\\\-"),
    exact("/|--", "/--"),
    exact("\\|--", "\\--"),
    exact("//--", "//--"),
    exact("\\\\--", "\\\\--"),
];

struct FoundArrow {
    start: usize,
    end: usize,
    arrow: &'static MermaidArrow,
}

fn find_arrow(head: &str) -> Option<FoundArrow> {
    for (start, c) in head.char_indices() {
        if !matches!(c, '-' | '<' | '/' | '\\') {
            continue;
        }
        // The longest arrow at the first position where one starts.
        let best = MERMAID_ARROWS
            .iter()
            .filter(|a| head[start..].starts_with(a.mermaid))
            .max_by_key(|a| a.mermaid.len());
        if let Some(arrow) = best {
            return Some(FoundArrow {
                start,
                end: start + arrow.mermaid.len(),
                arrow,
            });
        }
    }
    None
}

/// Splits a line at the `;` that end statements, not at those closing a
/// Mermaid entity such as `#59;`.
fn split_statements(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut entity_start = None;
    for (i, c) in line.char_indices() {
        match c {
            '#' => entity_start = Some(i),
            ';' => {
                let is_entity = entity_start.is_some_and(|s| i > s + 1);
                if !is_entity {
                    parts.push(&line[start..i]);
                    start = i + 1;
                }
                entity_start = None;
            }
            c if c.is_ascii_alphanumeric() => {}
            _ => entity_start = None,
        }
    }
    parts.push(&line[start..]);
    parts
}

fn split_keyword(statement: &str) -> (&str, &str) {
    let statement = statement.trim_start();
    match statement.find(|c: char| c.is_whitespace()) {
        Some(i) => (&statement[..i], &statement[i..]),
        None => (statement, ""),
    }
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    if !head.eq_ignore_ascii_case(prefix) {
        return None;
    }
    let rest = &text[prefix.len()..];
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// Splits `A as Alice` at the first standalone word `word`.
fn find_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let mut search = 0;
    while let Some(pos) = text[search..].find(word) {
        let at = search + pos;
        let before_ok = at > 0 && text[..at].ends_with(char::is_whitespace);
        let after = &text[at + word.len()..];
        if before_ok && after.starts_with(char::is_whitespace) {
            return Some((&text[..at], after));
        }
        search = at + word.len();
    }
    None
}

/// `@{ "type" : "database", "alias": "x" }` → `database`.
fn metadata_type(meta: &str) -> Option<String> {
    let at = meta.find("type")?;
    let rest = &meta[at + 4..];
    let rest = rest.trim_start_matches(['"', '\'']).trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let value: String = rest
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!value.is_empty()).then(|| value.to_ascii_lowercase())
}

/// Mermaid escapes (`#59;`, `#quot;`, `<br>`) → PlantUML text (`;`, `"`, `\n`).
fn decode_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(['#', '<']) {
        out.push_str(&rest[..pos]);
        rest = &rest[pos..];
        if rest.starts_with('<') {
            let lower: String = rest.chars().take(6).collect::<String>().to_ascii_lowercase();
            let br = ["<br/>", "<br />", "<br>"].into_iter().find(|b| lower.starts_with(b));
            if let Some(b) = br {
                out.push_str("\\n");
                rest = &rest[b.len()..];
            } else {
                out.push('<');
                rest = &rest[1..];
            }
            continue;
        }
        // `#name;` or `#123;`
        let entity_end = rest[1..].find(';').map(|i| i + 1);
        let decoded = entity_end.and_then(|end| {
            let body = &rest[1..end];
            let ch = if let Ok(n) = body.parse::<u32>() {
                char::from_u32(n)
            } else {
                match body {
                    "quot" => Some('"'),
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "nbsp" => Some(' '),
                    "semi" => Some(';'),
                    "colon" => Some(':'),
                    "hash" | "num" => Some('#'),
                    _ => None,
                }
            };
            ch.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('#');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_plain_ident(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !text.starts_with(|c: char| c.is_ascii_digit())
}

/// A PlantUML identifier for a Mermaid id (`Alice Smith` → `Alice_Smith`).
fn sanitize_ident(id: &str) -> String {
    if is_plain_ident(id) {
        return id.to_string();
    }
    let mut code: String = id.chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).collect();
    while code.contains("__") {
        code = code.replace("__", "_");
    }
    let code = code.trim_matches('_').to_string();
    if code.is_empty() || code.starts_with(|c: char| c.is_ascii_digit()) {
        format!("P_{code}")
    } else {
        code
    }
}

fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "'"))
}

fn split_box_color(rest: &str) -> (Option<&str>, &str) {
    let lower = rest.to_ascii_lowercase();
    if lower.starts_with("rgb(") || lower.starts_with("rgba(") {
        if let Some(close) = rest.find(')') {
            return (Some(&rest[..=close]), rest[close + 1..].trim());
        }
    }
    let (word, after) = split_keyword(rest);
    if word.eq_ignore_ascii_case("transparent") || CSS_COLORS.iter().any(|c| c.eq_ignore_ascii_case(word)) {
        return (Some(word), after.trim());
    }
    if word.starts_with('#') && word.len() > 1 && word[1..].chars().all(|c| c.is_ascii_hexdigit()) {
        return (Some(word), after.trim());
    }
    (None, rest)
}

/// A CSS color as PlantUML writes it (`Aqua` → `#Aqua`, `rgb(1,2,3)` → `#010203`).
/// `transparent` is PlantUML's default box look, so it maps to no color.
fn css_color_to_puml(color: &str) -> Option<String> {
    if color.eq_ignore_ascii_case("transparent") {
        return None;
    }
    if color.starts_with('#') {
        return Some(color.to_string());
    }
    let lower = color.to_ascii_lowercase();
    if let Some(inner) = lower
        .strip_prefix("rgba(")
        .or_else(|| lower.strip_prefix("rgb("))
        .and_then(|s| s.strip_suffix(')'))
    {
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        if parts.len() < 3 {
            return None;
        }
        let mut hex = String::from("#");
        for part in &parts[..3] {
            let value: u8 = part.parse().ok()?;
            hex.push_str(&format!("{value:02X}"));
        }
        return Some(hex);
    }
    Some(format!("#{color}"))
}

/// CSS named colors; PlantUML knows the same names.
const CSS_COLORS: &[&str] = &[
    "AliceBlue",
    "AntiqueWhite",
    "Aqua",
    "Aquamarine",
    "Azure",
    "Beige",
    "Bisque",
    "Black",
    "BlanchedAlmond",
    "Blue",
    "BlueViolet",
    "Brown",
    "BurlyWood",
    "CadetBlue",
    "Chartreuse",
    "Chocolate",
    "Coral",
    "CornflowerBlue",
    "Cornsilk",
    "Crimson",
    "Cyan",
    "DarkBlue",
    "DarkCyan",
    "DarkGoldenRod",
    "DarkGray",
    "DarkGrey",
    "DarkGreen",
    "DarkKhaki",
    "DarkMagenta",
    "DarkOliveGreen",
    "DarkOrange",
    "DarkOrchid",
    "DarkRed",
    "DarkSalmon",
    "DarkSeaGreen",
    "DarkSlateBlue",
    "DarkSlateGray",
    "DarkSlateGrey",
    "DarkTurquoise",
    "DarkViolet",
    "DeepPink",
    "DeepSkyBlue",
    "DimGray",
    "DimGrey",
    "DodgerBlue",
    "FireBrick",
    "FloralWhite",
    "ForestGreen",
    "Fuchsia",
    "Gainsboro",
    "GhostWhite",
    "Gold",
    "GoldenRod",
    "Gray",
    "Grey",
    "Green",
    "GreenYellow",
    "HoneyDew",
    "HotPink",
    "IndianRed",
    "Indigo",
    "Ivory",
    "Khaki",
    "Lavender",
    "LavenderBlush",
    "LawnGreen",
    "LemonChiffon",
    "LightBlue",
    "LightCoral",
    "LightCyan",
    "LightGoldenRodYellow",
    "LightGray",
    "LightGrey",
    "LightGreen",
    "LightPink",
    "LightSalmon",
    "LightSeaGreen",
    "LightSkyBlue",
    "LightSlateGray",
    "LightSlateGrey",
    "LightSteelBlue",
    "LightYellow",
    "Lime",
    "LimeGreen",
    "Linen",
    "Magenta",
    "Maroon",
    "MediumAquaMarine",
    "MediumBlue",
    "MediumOrchid",
    "MediumPurple",
    "MediumSeaGreen",
    "MediumSlateBlue",
    "MediumSpringGreen",
    "MediumTurquoise",
    "MediumVioletRed",
    "MidnightBlue",
    "MintCream",
    "MistyRose",
    "Moccasin",
    "NavajoWhite",
    "Navy",
    "OldLace",
    "Olive",
    "OliveDrab",
    "Orange",
    "OrangeRed",
    "Orchid",
    "PaleGoldenRod",
    "PaleGreen",
    "PaleTurquoise",
    "PaleVioletRed",
    "PapayaWhip",
    "PeachPuff",
    "Peru",
    "Pink",
    "Plum",
    "PowderBlue",
    "Purple",
    "RebeccaPurple",
    "Red",
    "RosyBrown",
    "RoyalBlue",
    "SaddleBrown",
    "Salmon",
    "SandyBrown",
    "SeaGreen",
    "SeaShell",
    "Sienna",
    "Silver",
    "SkyBlue",
    "SlateBlue",
    "SlateGray",
    "SlateGrey",
    "Snow",
    "SpringGreen",
    "SteelBlue",
    "Tan",
    "Teal",
    "Thistle",
    "Tomato",
    "Turquoise",
    "Violet",
    "Wheat",
    "White",
    "WhiteSmoke",
    "Yellow",
    "YellowGreen",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_other_diagram_types() {
        let err = convert("flowchart TD\n  A --> B\n").unwrap_err();
        assert_eq!(
            err,
            ConvertError::NotSequenceDiagram {
                line: 1,
                found: "flowchart".into()
            }
        );
        assert!(err
            .to_string()
            .contains("only Mermaid sequenceDiagram can be converted"));
        assert_eq!(convert("\n%% nothing\n").unwrap_err(), ConvertError::Empty);
    }

    #[test]
    fn arrows_map_to_nearest_plantuml_forms() {
        let input = "sequenceDiagram\nA->>B: a\nA-->>B: b\nA-)B: c\nA--)B: d\nA-xB: e\nA--xB: f\nA->B: g\nA-->B: h\n";
        let conv = convert(input).unwrap();
        let body: Vec<&str> = conv.source.lines().collect();
        assert_eq!(
            &body[1..9],
            [
                "A -> B : a",
                "A --> B : b",
                "A ->> B : c",
                "A -->> B : d",
                "A ->x B : e",
                "A -->x B : f",
                "A -> B : g",
                "A --> B : h"
            ]
        );
        let warned: Vec<u32> = conv.warnings.iter().map(|w| w.line).collect();
        assert_eq!(warned, [8, 9]);
    }

    #[test]
    fn destroy_moves_after_its_message() {
        let conv = convert("sequenceDiagram\ncreate participant B\nA->>B: new\ndestroy B\nB-xA: bye\n").unwrap();
        assert_eq!(
            conv.source,
            "@startuml\ncreate participant B\nA -> B : new\nB ->x A : bye\ndestroy B\n@enduml\n"
        );
    }

    #[test]
    fn entities_and_line_breaks() {
        assert_eq!(decode_text("a#59; b<br/>c #quot;x#quot; #35;"), "a; b\\nc \"x\" #");
        assert_eq!(decode_text("#notentity"), "#notentity");
    }

    #[test]
    fn garbage_never_panics() {
        for input in [
            "sequenceDiagram\n-",
            "sequenceDiagram\n->>",
            "sequenceDiagram\nnote",
            "sequenceDiagram\nbox rgb(",
            "sequenceDiagram\nparticipant as",
            "sequenceDiagram\nA->>+",
            "sequenceDiagram\n#",
            "---\ntitle",
        ] {
            let _ = convert(input);
        }
    }
}
