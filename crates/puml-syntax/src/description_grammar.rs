//! The line grammar of PlantUML's description reading (use case, component, deployment, `rectangle`
//! diagrams) as PlantUML's description grammar reads real files: element
//! declarations with a keyword (`actor "Long name" as A <<s>> #pink`,
//! `node "Server" as S {`), the short forms (`[Component]`, `(Use case)`,
//! `:Actor:`, `() Interface`, each with `as` aliases), links between them
//! with every arrow of the grammar (`-->`, `..>`, `-[#red,dashed]->`,
//! `-up->`, `--(0)--`, `<|--`, `~~>`), notes, containers opened with `{`,
//! and the multi-line forms (`component C [` … `]`, `usecase U as "text`
//! … `"`). Shared by the parser's description statements (`parser/description.rs`)
//! and `puml-sema`'s fallback reading (`other_kind.rs`), which it widens
//! (keeping its verdicts on the generated `fallback-*` cases) so that no real
//! file PlantUML draws gets a syntax error; a line it does not know still
//! stops it, so a sequence diagram's mistakes stay errors.

/// A colour check: whether `#name` is a colour PlantUML knows (the
/// colour table lives in `puml-sema`).
pub type IsColor<'a> = &'a dyn Fn(&str) -> bool;

/// Keywords declaring a description diagram's element (`actor/` and
/// `usecase/` are the business variants).
pub const KEYWORDS: &[&str] = &[
    "actor",
    "actor/",
    "usecase",
    "usecase/",
    "component",
    "interface",
    "node",
    "artifact",
    "database",
    "cloud",
    "folder",
    "frame",
    "file",
    "package",
    "queue",
    "stack",
    "storage",
    "card",
    "agent",
    "boundary",
    "control",
    "entity",
    "collections",
    "hexagon",
    "label",
    "person",
    "rectangle",
    "circle",
    "action",
    "process",
];

/// Keywords that open a container with `{` (`actor A {` is refused).
pub const CONTAINERS: &[&str] = &[
    "component",
    "database",
    "node",
    "folder",
    "frame",
    "cloud",
    "package",
    "queue",
    "storage",
    "artifact",
    "card",
    "file",
    "rectangle",
    "stack",
    "hexagon",
    "action",
    "process",
];

/// A container's name and options: names may hold `-` and `::` there
/// (`rectangle Use-A-Portal {`, `package a::b {`).
fn container_rest(rest: &str) -> bool {
    let rest = rest.trim();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '"' || c == '#' || c == '<')
        .unwrap_or(rest.len());
    if end > 0 && !rest.starts_with(['[', '(', ':']) {
        let plain = &rest[..end];
        if plain
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | ':' | '$'))
        {
            return declaration_rest(&format!("x{}", &rest[end..]), false);
        }
    }
    declaration_rest(rest, false)
}

/// How a multi-line form of the description grammar ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiLine {
    /// `component C [` … a line ending with `]`.
    Bracket,
    /// `usecase U as "text` … a line ending with `"`.
    Quote,
}

impl MultiLine {
    /// Whether `line` (trimmed) ends the form.
    pub fn closes(self, line: &str) -> bool {
        match self {
            MultiLine::Bracket => line.ends_with(']'),
            MultiLine::Quote => line.ends_with('"'),
        }
    }
}

/// `KEYWORD NAME [` or `KEYWORD NAME as "text` left open: an element whose
/// text spans lines.
pub fn multi_line_header(line: &str) -> Option<MultiLine> {
    let line = line.trim();
    let (keyword, rest) = split_keyword(line)?;
    // `actor/ A [` is refused (`usecase/ A [` is read).
    if keyword == "actor/" {
        return None;
    }
    if let Some(head) = rest.strip_suffix('[') {
        let head = head.trim_end();
        let head = head.strip_suffix(" as").unwrap_or(head).trim_end();
        return declaration_rest(head, true).then_some(MultiLine::Bracket);
    }
    // `usecase U as "Text` with the quote left open.
    if rest.matches('"').count() % 2 == 1 {
        let open = rest.find('"')?;
        let head = rest[..open].trim_end();
        let head = head.strip_suffix("as").map(str::trim_end)?;
        return (!head.is_empty() && declaration_rest(head, true)).then_some(MultiLine::Quote);
    }
    None
}

/// `KEYWORD … {`: a container (package, node, rectangle, …) whose lines
/// are statements of their own, up to `}`.
pub fn container_header(line: &str) -> bool {
    let line = line.trim();
    let Some(head) = line.strip_suffix('{') else {
        return false;
    };
    let head = head.trim_end();
    if head.eq_ignore_ascii_case("together") {
        return true;
    }
    match split_keyword(head) {
        Some((keyword, rest)) if CONTAINERS.contains(&keyword) => rest.is_empty() || container_rest(rest),
        // `[Component] {`, `actor A {` are no containers.
        _ => false,
    }
}

/// The description reading of one line: `Some(true)` for an element or a
/// link, `Some(false)` for a line it reads that makes no element (a note, a
/// setting), `None` when it stops there.
pub fn line(line: &str, is_color: IsColor) -> Option<bool> {
    line_form(line, is_color).map(|form| form != LineForm::NoElement)
}

/// What [`line`] read a line as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineForm {
    /// A line that makes no element (a blank, a comment, a note, a setting).
    NoElement,
    /// An element declared with its keyword or by a short form.
    Declaration,
    /// A link, and no declaration: [`declared`] is `None` for it and
    /// [`link_endpoints_of_link`] reads its endpoints.
    Link,
}

/// [`line`], saying which form read the line (the parser's reading then
/// need not try the others again).
pub fn line_form(line: &str, is_color: IsColor) -> Option<LineForm> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('\'') {
        return Some(LineForm::NoElement);
    }
    if setting(line) {
        return Some(LineForm::NoElement);
    }
    if note(line) {
        return Some(LineForm::NoElement);
    }
    if let Some((_, rest)) = split_keyword(line) {
        if declaration_rest(rest, true) {
            return Some(LineForm::Declaration);
        }
    }
    if short_declaration(line) {
        return Some(LineForm::Declaration);
    }
    // Neither declaration form reads the line, so `declared` (which asks
    // the same of it, the keyword's rest without even a bare keyword) has
    // none either.
    link(line, is_color).then_some(LineForm::Link)
}

/// The lines every description diagram reads besides its elements.
pub fn setting(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
    match (first.as_str(), words.len()) {
        ("title" | "header" | "footer" | "caption" | "mainframe", 2..) => true,
        ("skinparam", 3..) | ("hide" | "show" | "remove" | "restore", 2..) => true,
        ("scale", 2..) => crate::parser::legacy_activity::is_scale(&words),
        ("!pragma" | "!theme", 2..) => true,
        ("newpage", 1) => true,
        ("set", 3) => words[1].eq_ignore_ascii_case("separator") || words[1] == "namespaceSeparator",
        ("left" | "top", 4) => {
            let lower = line.to_ascii_lowercase();
            lower == "left to right direction" || lower == "top to bottom direction"
        }
        _ => false,
    }
}

/// `note left of A : text`, `note right : text`, `note "text" as N`,
/// `note on link : text`.
pub fn note(line: &str) -> bool {
    let Some(rest) = strip_word(line, "note") else {
        return false;
    };
    if let Some(after) = rest.strip_prefix('"') {
        let Some(close) = after.find('"') else {
            return false;
        };
        let tail = after[close + 1..].trim();
        return match strip_word(tail, "as") {
            Some(alias) => {
                let (alias, rest) = name(alias);
                !alias.is_empty() && options(rest)
            }
            None => options(tail),
        };
    }
    let position_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    let position = rest[..position_len].to_ascii_lowercase();
    if !matches!(position.as_str(), "left" | "right" | "top" | "bottom" | "on") {
        return false;
    }
    let mut rest = rest[position_len..].trim_start();
    if position == "on" {
        let Some(after) = strip_word(rest, "link") else {
            return false;
        };
        rest = after;
    } else if let Some(after) = strip_word(rest, "of") {
        let Some((_, after_target)) = endpoint(after) else {
            return false;
        };
        rest = after_target.trim_start();
    }
    // A colour or stereotype before the text.
    while rest.starts_with('#') || rest.starts_with("<<") {
        let end = rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest.starts_with(':')
}

/// The element a note is placed by (`note left of A`, one line or a
/// block), in the form [`names`] lists: PlantUML's description reading
/// refuses a note by an element it does not know yet.
/// `note left : text` (one line, placed by no named element): PlantUML
/// places it by the last element, so it needs one before it.
pub fn note_by_last_element(line: &str) -> bool {
    let Some(rest) = strip_word(line.trim(), "note") else {
        return false;
    };
    let position_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    matches!(
        rest[..position_len].to_ascii_lowercase().as_str(),
        "left" | "right" | "top" | "bottom"
    ) && note_target(line).is_none()
}

pub fn note_target(line: &str) -> Option<String> {
    let rest = strip_word(line.trim(), "note")?;
    let position_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    if !matches!(
        rest[..position_len].to_ascii_lowercase().as_str(),
        "left" | "right" | "top" | "bottom"
    ) {
        return None;
    }
    let after = strip_word(rest[position_len..].trim_start(), "of")?;
    let (_, tail) = endpoint(after)?;
    Some(unwrap_name(&after[..after.len() - tail.len()]))
}

/// The target of a block note (`note right of (Use)` alone on its line,
/// its text on the next lines up to `end note`).
pub fn note_block_target(line: &str) -> Option<String> {
    let target = note_target(line)?;
    let rest = line.trim();
    let of = rest.to_ascii_lowercase().find(" of ")?;
    let (_, tail) = endpoint(rest[of + 4..].trim_start())?;
    let tail = skip_stereotypes(tail.trim_start());
    (tail.is_empty() || (tail.starts_with('#') && !tail.contains(char::is_whitespace))).then_some(target)
}

/// The element a keyword declaration defines: its code (the alias, else
/// the name or display) and its type (the keyword, `actor/` as `actor`).
/// PlantUML refuses a declaration of a code that exists with another type
/// ("This element (B) is already defined"), or that a link created.
pub fn declared(line: &str) -> Option<(String, &'static str)> {
    let line = line.trim();
    if short_declaration(line) {
        return short_declared(line);
    }
    let (keyword, rest) = split_keyword(line)?;
    if !declaration_rest(rest, false) {
        return None;
    }
    let (_, after) = display_or_name(rest)?;
    let first = &rest[..rest.len() - after.len()];
    let after = skip_stereotypes(after.trim_start());
    let code = match strip_word(after, "as") {
        Some(alias) => {
            let (_, tail) = display_or_name(alias)?;
            unwrap_name(&alias[..alias.len() - tail.len()])
        }
        None => unwrap_name(first),
    };
    Some((code, keyword.trim_end_matches('/')))
}

/// `[A] as a`, `(Use) as (u)`, `:A:`, `"Text" as (u)`: the code and the
/// short form's type.
fn short_declared(line: &str) -> Option<(String, &'static str)> {
    let (first, rest) = if let Some(quoted) = line.strip_prefix('"') {
        let close = quoted.find('"')? + 2;
        (&line[..close], &line[close..])
    } else {
        let rest = short_form(line)?;
        (&line[..line.len() - rest.len()], rest)
    };
    let rest = skip_stereotypes(rest.trim_start());
    let (code, kind) = match strip_word(rest, "as") {
        Some(alias) => {
            let (_, tail) = display_or_name(alias)?;
            let alias = &alias[..alias.len() - tail.len()];
            let (code, alias_kind) = endpoint_code(alias);
            (code, endpoint_code(first).1.or(alias_kind))
        }
        None => endpoint_code(first),
    };
    Some((code, kind.unwrap_or("usecase")))
}

/// The code a container (`node "Nginx :80" as Nginx {`) is known by, for
/// the notes placed by it.
pub fn container_code(line: &str) -> Option<String> {
    let head = line.trim().strip_suffix('{')?.trim_end();
    let (_, rest) = split_keyword(head)?;
    let (_, after) = display_or_name(rest).or_else(|| {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        Some((false, &rest[end..]))
    })?;
    let first = &rest[..rest.len() - after.len()];
    let after = skip_stereotypes(after.trim_start());
    Some(match strip_word(after, "as") {
        Some(alias) => unwrap_name(alias.split_whitespace().next().unwrap_or("")),
        None => unwrap_name(first),
    })
}

/// `port P`, `portin "5173" as P1`: a port, which PlantUML reads only
/// inside a container (`component C {`, `node N {`).
pub fn port(line: &str) -> bool {
    let line = line.trim();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    is_port_keyword(&line[..end]) && declaration_rest(&line[end..], false)
}

fn is_port_keyword(word: &str) -> bool {
    ["port", "portin", "portout"]
        .iter()
        .any(|k| k.eq_ignore_ascii_case(word))
}

/// `port [A]`, `port (A)`, `port :A:`: a port with a short form, which
/// PlantUML reads outside containers too (`port A` it refuses there).
pub fn port_short_form(line: &str) -> bool {
    let line = line.trim();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    is_port_keyword(&line[..end]) && {
        let rest = line[end..].trim_start();
        short_form(rest).is_some_and(|tail| options(skip_stereotypes(tail.trim_start())))
    }
}

/// `actor/ A [`, `port A as "text`: a multi-line element PlantUML reads to
/// its closing line and refuses there.
pub fn refused_multi_line_header(line: &str) -> Option<MultiLine> {
    let line = line.trim();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let word = &line[..end];
    if !(word.eq_ignore_ascii_case("actor/") || is_port_keyword(word)) {
        return None;
    }
    multi_line_header(&format!("usecase{}", &line[end..]))
}

/// `note on link` alone on its line: a block note on the last link.
pub fn note_on_link_block(line: &str) -> bool {
    strip_word(line.trim(), "note")
        .is_some_and(|rest| strip_word(rest, "on").is_some_and(|rest| rest.eq_ignore_ascii_case("link")))
}

/// The endpoints of a link line the reading took: each code, with the type
/// its short form gives (`[A]` a component, `(A)` a use case, `:A:` an
/// actor, `() A` an interface), or none for a plain or quoted name.
pub fn link_endpoints(line: &str, is_color: IsColor) -> Vec<(String, Option<&'static str>)> {
    if !link(line.trim(), is_color) {
        return Vec::new();
    }
    link_endpoints_of_link(line)
}

/// [`link_endpoints`] of a line known to be a link ([`line_form`] said
/// [`LineForm::Link`]).
pub fn link_endpoints_of_link(line: &str) -> Vec<(String, Option<&'static str>)> {
    let line = line.trim();
    let mut out = Vec::new();
    let Some((_, rest)) = endpoint(line) else {
        return out;
    };
    out.push(endpoint_code(&line[..line.len() - rest.len()]));
    let rest = if rest.starts_with(char::is_whitespace) {
        skip_multiplicity(rest)
    } else {
        rest
    };
    let Some(rest) = arrow(rest.trim_start()) else {
        return out;
    };
    let rest = rest.trim_start();
    let rest = if rest.starts_with('"')
        && rest[1..].find('"').is_some_and(|close| {
            let tail = rest[close + 2..].trim_start();
            !tail.is_empty() && !tail.starts_with(':')
        }) {
        skip_multiplicity(rest)
    } else {
        rest
    };
    if let Some((_, tail)) = endpoint(rest) {
        out.push(endpoint_code(&rest[..rest.len() - tail.len()]));
    }
    out
}

pub fn endpoint_code(text: &str) -> (String, Option<&'static str>) {
    let text = text.trim();
    let kind = if text.starts_with("()") {
        Some("interface")
    } else if text.starts_with('[') {
        Some("component")
    } else if text.starts_with('(') {
        Some("usecase")
    } else if text.starts_with(':') {
        Some("actor")
    } else {
        None
    };
    (unwrap_name(text), kind)
}

/// A name without the brackets, parentheses, colons or quotes of its form.
/// Spaces inside brackets and parentheses are part of the name, as
/// PlantUML reads them (`(Foo )` and `(Foo)` are two use cases).
pub fn unwrap_name(text: &str) -> String {
    let text = text.trim();
    let text = text.strip_prefix("()").unwrap_or(text).trim();
    for (open, close) in [('[', ']'), ('(', ')'), (':', ':'), ('"', '"')] {
        if let Some(inner) = text.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            let keeps_spaces = matches!(open, '[' | '(') && !inner.trim().is_empty();
            return if keeps_spaces { inner } else { inner.trim() }.to_string();
        }
    }
    text.to_string()
}

/// The names a line mentions, for [`note_target`]: each plain name, and the
/// text of each quoted, bracketed, parenthesised or coloned display.
pub fn names(line: &str) -> Vec<String> {
    first_names(line, usize::MAX)
}

/// The first `limit` of [`names`] (a declaration's reading keeps two or
/// three: the names after them are not made).
pub fn first_names(line: &str, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line.trim();
    while let Some(c) = rest.chars().next().filter(|_| out.len() < limit) {
        let closer = match c {
            '"' => Some('"'),
            '[' => Some(']'),
            '(' => Some(')'),
            ':' => Some(':'),
            _ => None,
        };
        if let Some(close) = closer {
            if let Some(end) = rest[1..].find(close) {
                out.push(rest[1..1 + end].trim().to_string());
                rest = &rest[end + 2..];
                continue;
            }
        }
        let (word, after) = name(rest);
        if word.is_empty() {
            rest = &rest[c.len_utf8()..];
        } else {
            out.push(word.to_string());
            rest = after;
        }
    }
    out
}

/// The keyword at the start of `line` (any case), with the rest after it
/// and its blanks.
pub fn split_keyword(line: &str) -> Option<(&'static str, &str)> {
    let end = line.find(|c: char| c.is_whitespace()).unwrap_or(line.len());
    let word = &line[..end];
    let keyword = KEYWORDS.iter().find(|k| k.eq_ignore_ascii_case(word))?;
    Some((keyword, line[end..].trim_start()))
}

/// `word` (any case) and a blank at the start of `text`: the rest.
pub fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let head = text.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = &text[word.len()..];
    rest.starts_with(char::is_whitespace).then(|| rest.trim_start())
}

/// What follows a declaration's keyword: a name or a display (quoted,
/// `[bracketed]`, `(parenthesised)`, `:coloned:`), an optional `as` and the
/// other of the two, then options. With `allow_empty` a bare keyword reads
/// too (`rectangle {`).
pub fn declaration_rest(rest: &str, allow_empty: bool) -> bool {
    let rest = rest.trim();
    if rest.is_empty() {
        return allow_empty;
    }
    let Some((_, after)) = display_or_name(rest) else {
        return false;
    };
    let mut after = after.trim_start();
    // Stereotypes may stand before `as` (`node "S" <<device>> as S`).
    let before_as = after;
    after = skip_stereotypes(after);
    if let Some(alias) = strip_word(after, "as") {
        let Some((_, tail)) = display_or_name(alias) else {
            return false;
        };
        after = tail.trim_start();
    } else {
        after = before_as;
    }
    options(after)
}

pub fn skip_stereotypes(text: &str) -> &str {
    let mut rest = text;
    while let Some(after) = rest.strip_prefix("<<") {
        let Some(close) = after.find(">>") else {
            return rest;
        };
        rest = after[close + 2..].trim_start();
    }
    rest
}

/// The options after an element: stereotypes `<<s>>`, colours and styles
/// (`#pink`, `#pink;line:red;line.dashed`, `##[dashed]blue`), tags
/// (`$tag`), a link `[[url]]`, and a trailing description `: text` is not
/// one (the element's text goes in its display).
pub fn options(text: &str) -> bool {
    let mut rest = text.trim();
    let mut coloured = false;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<<").filter(|_| !coloured) {
            let Some(close) = after.find(">>") else {
                return false;
            };
            rest = after[close + 2..].trim_start();
        } else if let Some(after) = rest.strip_prefix("[[") {
            let Some(close) = after.find("]]") else {
                return false;
            };
            rest = after[close + 2..].trim_start();
        } else if rest.starts_with('#') || rest.starts_with('$') {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end < 2 {
                return false;
            }
            coloured = true;
            rest = rest[end..].trim_start();
        } else {
            return false;
        }
    }
    true
}

/// A display or a name at the start of `text`: `"Text"`, `[Text]`,
/// `(Text)`, `:Text:`, `() Name` or a plain name. Returns whether it is a
/// short form (`[…]`, `(…)`, `:…:`, `()`) and the rest.
pub fn display_or_name(text: &str) -> Option<(bool, &str)> {
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        return Some((false, &after[close + 1..]));
    }
    if let Some(rest) = short_form(text) {
        return Some((true, rest));
    }
    let (name, rest) = name(text);
    (!name.is_empty()).then_some((false, rest))
}

/// `[Component]`, `(Use case)`, `:Actor:`, `()Interface` / `() "Interface"`
/// at the start of `text`: the rest.
pub fn short_form(text: &str) -> Option<&str> {
    if let Some(after) = text.strip_prefix("()") {
        let after = after.trim_start();
        if let Some(quoted) = after.strip_prefix('"') {
            let close = quoted.find('"')?;
            return Some(&quoted[close + 1..]);
        }
        let (name, rest) = name(after);
        return (!name.is_empty()).then_some(rest);
    }
    for (open, close) in [('[', ']'), ('(', ')'), (':', ':')] {
        if let Some(after) = text.strip_prefix(open) {
            // `[*]` and `(*)` are a state's and a legacy activity's.
            if after.starts_with('*') {
                return None;
            }
            let end = after.find(close)?;
            if after[..end].trim().is_empty() || (open == ':' && after[..end].starts_with(char::is_whitespace)) {
                return None;
            }
            return Some(&after[end + 1..]);
        }
    }
    None
}

/// A plain name: letters (non-ASCII ones too), digits, `_`, `.`, `$`, `@`
/// (`A::b` and `A-b` are refused, as PlantUML's description reading does
/// outside containers).
pub fn name(text: &str) -> (&str, &str) {
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let ok = c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '@');
        if !ok {
            break;
        }
        end = i + c.len_utf8();
    }
    // A name never ends with dots (`A..B` is a link).
    let name = text[..end].trim_end_matches('.');
    (name, &text[name.len()..])
}

/// `[Component] as c`, `(Use case) as (uc) #pink`, `:Actor: as a`, `() I`,
/// `"Long text" as (uc)`: an element without a keyword.
pub fn short_declaration(line: &str) -> bool {
    if let Some(rest) = short_form(line) {
        let rest = rest.trim_start();
        let rest = skip_stereotypes(rest);
        if let Some(alias) = strip_word(rest, "as") {
            return display_or_name(alias).is_some_and(|(_, tail)| options(tail));
        }
        return options(rest);
    }
    // `"Text" as (uc)`, `"Text" as [c]`: a display naming a short form.
    // PlantUML's display pattern is greedy: `"A" --> "B" --> "C"` is one
    // element, its display running to the line's last quote.
    if let Some(after) = line.strip_prefix('"') {
        let (Some(first), Some(last)) = (after.find('"'), after.rfind('"')) else {
            return false;
        };
        return quoted_declaration(after, first) || (last != first && quoted_declaration(after, last));
    }
    false
}

/// Whether `line` reads as a declaration only through PlantUML's greedy
/// display (`"A" --> "B" --> "C"`, its display running to the last quote),
/// not through its first quoted text. PlantUML tries the link first: a line
/// that also reads as a link (`"A" - "B"`) is a link.
pub fn greedy_only_declaration(line: &str) -> bool {
    let Some(after) = line.trim().strip_prefix('"') else {
        return false;
    };
    let (Some(first), Some(last)) = (after.find('"'), after.rfind('"')) else {
        return false;
    };
    last != first && !quoted_declaration(after, first) && quoted_declaration(after, last)
}

/// `"Text"`, `"Text" as (uc)`, `"Text" as c #pink`: `after` is the line
/// after its opening quote, `close` the display's closing quote in it.
fn quoted_declaration(after: &str, close: usize) -> bool {
    let tail = after[close + 1..].trim_start();
    // `"Text"` alone is an element too.
    if tail.is_empty() {
        return close > 0;
    }
    let Some(alias) = strip_word(tail, "as") else {
        return false;
    };
    short_form(alias).is_some_and(options) || {
        let (alias, tail) = name(alias);
        !alias.is_empty() && options(tail)
    }
}

/// A link's endpoint: a short form, a quoted or plain name, `Name::port`.
pub fn endpoint(text: &str) -> Option<(bool, &str)> {
    if let Some(rest) = short_form(text) {
        return Some((true, rest));
    }
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        if close == 0 {
            return None;
        }
        return Some((false, &after[close + 1..]));
    }
    let (name, rest) = name(text);
    if name.is_empty() {
        // `...> X`: PlantUML's name pattern takes dots too and leaves the
        // arrow its last one (a link from the element `..`).
        let dots = text.len() - text.trim_start_matches('.').len();
        if dots >= 2 {
            return Some((false, &text[dots - 1..]));
        }
    }
    (!name.is_empty()).then_some((false, rest))
}

/// A quoted multiplicity beside an arrow (`A "1" --> "*" B`).
pub fn skip_multiplicity(text: &str) -> &str {
    let trimmed = text.trim_start();
    if let Some(after) = trimmed.strip_prefix('"') {
        if let Some(close) = after.find('"') {
            return after[close + 1..].trim_start();
        }
    }
    trimmed
}

/// `FROM ARROW TO [options] [: label]`.
pub fn link(line: &str, is_color: IsColor) -> bool {
    let Some((_, rest)) = endpoint(line) else {
        return false;
    };
    // `A "1" -- "n" B`: multiplicities need a blank before them.
    let rest = if rest.starts_with(char::is_whitespace) {
        skip_multiplicity(rest)
    } else {
        rest
    };
    let Some(rest) = arrow(rest.trim_start()) else {
        return false;
    };
    let rest = rest.trim_start();
    let rest = if rest.starts_with('"')
        && rest[1..].find('"').is_some_and(|close| {
            let tail = rest[close + 2..].trim_start();
            !tail.is_empty() && !tail.starts_with(':')
        }) {
        skip_multiplicity(rest)
    } else {
        rest
    };
    let Some((_, rest)) = endpoint(rest) else {
        return false;
    };
    let spaced = rest.starts_with(char::is_whitespace);
    let mut rest = rest.trim_start();
    // A colour or stereotype of the link, after a blank, or a known colour
    // glued to the name (`A --> B#red`; `A#b` is refused).
    if !spaced && !rest.is_empty() && !rest.starts_with(':') {
        let end = rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len());
        if !is_color(&rest[..end]) {
            return false;
        }
    }
    rest = skip_stereotypes(rest);
    while rest.starts_with('#') {
        let end = rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len());
        if end < 2 {
            return false;
        }
        rest = rest[end..].trim_start();
    }
    // A label is text after `:` (`A -- B :` alone is refused).
    rest.is_empty() || rest.strip_prefix(':').is_some_and(|label| !label.trim().is_empty())
}

/// Heads an arrow may start with (longest first).
/// A socket opens towards its element: `)-` on the left, `-(` on the right.
const LEFT_HEADS: &[&str] = &["<|", "<<", "<", "0)", "*", "o", "0", "#", "x", "+", "^", ")", "}", "{"];
/// Heads an arrow may end with (longest first).
const RIGHT_HEADS: &[&str] = &[
    "|>", ">>", ">", "(0", "\\\\", "//", "*", "o", "0", "#", "x", "+", "^", "(", "{", "}",
];

/// An arrow: `[head] body [head]`, the body a run of `-`, `.`, `=` or `~`
/// holding at most one `[style]` bracket, a direction word (`up`, `do`,
/// `left`, …) and a middle ball or socket (`-(0)-`, `-0)-`). Returns the
/// rest.
pub fn arrow(text: &str) -> Option<&str> {
    let left = LEFT_HEADS.iter().find(|h| text.starts_with(**h)).copied().unwrap_or("");
    let mut rest = &text[left.len()..];
    let is_body = |c: char| matches!(c, '-' | '.' | '=' | '~' | '\u{2013}');
    let mut body = 0;
    let mut styled = false;
    let mut directed = false;
    let mut middle = false;
    loop {
        let run = rest.len() - rest.trim_start_matches(is_body).len();
        if run > 0 {
            body += run;
            rest = &rest[run..];
            continue;
        }
        if body == 0 {
            break;
        }
        if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            if styled || after[..close].is_empty() || after[..close].contains(char::is_whitespace) {
                return None;
            }
            styled = true;
            rest = &after[close + 1..];
            continue;
        }
        if !directed {
            let len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
            let word = rest[..len].to_ascii_lowercase();
            if len > 0
                && ["up", "down", "left", "right"].iter().any(|d| d.starts_with(&word))
                && (rest[len..].starts_with(is_body) || rest[len..].starts_with('['))
            {
                directed = true;
                rest = &rest[len..];
                continue;
            }
        }
        if !middle {
            if let Some(m) = ["(0)", "(0", "0)", "(", ")", "0"]
                .iter()
                .find(|m| rest.starts_with(**m) && rest[m.len()..].starts_with(is_body))
            {
                middle = true;
                rest = &rest[m.len()..];
                continue;
            }
        }
        break;
    }
    if body == 0 {
        return None;
    }
    // A head of letters (`o`, `x`) only where a blank follows.
    let right = RIGHT_HEADS
        .iter()
        .find(|h| {
            rest.starts_with(**h)
                && (!h.starts_with(|c: char| c.is_ascii_alphanumeric())
                    || rest[h.len()..].is_empty()
                    || rest[h.len()..].starts_with(char::is_whitespace))
        })
        .copied()
        .unwrap_or("");
    rest = &rest[right.len()..];
    // More arrow characters after the head: no arrow PlantUML knows.
    if rest.starts_with(['-', '.', '=', '~', '>', '<', '|']) {
        return None;
    }
    Some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_real_declarations_and_links() {
        for text in [
            "actor \"Browser User\" as Browser",
            "rectangle \"Hospital Management System\" as HMS",
            "usecase \"Регистрация пользователя\" as Registration",
            "node \"Management Server\" <<device>> as Server",
            "[Client] as c",
            "[Navigateur Web] <<component>>",
            "(Configure simulation) as (config)",
            "(CU01\\nGérer\\ncours) as gc #lightblue",
            ":Main Admin: as Admin",
            "queue \"queue: campaigns\" as campaigns",
            "[\"abstract_check\"]",
            "user1 .> (Spawn Emissaries)",
            "Admin ---> (Use)",
            "Jeppe---> (hallo)",
            "signets -u- gq1",
            "[A] -[#red,dashed]-> [B] : calls",
            "A --(0)-- B",
            "A ..|> B",
            "\"3. User responds yes or no.\" as (Step 3)",
            "note right of Admin : hi",
            "note \"free\" as N1",
            "left to right direction",
        ] {
            assert_eq!(
                line(text, &|_| true),
                Some(!text.starts_with("note") && !text.starts_with("left")),
                "{text}"
            );
        }
    }

    #[test]
    fn refuses_what_is_no_description_line() {
        for text in [
            "foo bar",
            "activate A",
            "alt x",
            "A ->",
            "-> B",
            "A -> B hi",
            "end",
            "participant A",
        ] {
            assert_eq!(line(text, &|_| true), None, "{text}");
        }
    }

    #[test]
    fn knows_containers_and_multi_line_elements() {
        assert!(container_header("rectangle \"Fashion Store System\" {"));
        assert!(container_header("package \"capa\" as presentation{"));
        assert!(container_header("node \"S\" <<device>> as Server {"));
        assert!(container_header("rectangle Use-A-Portal{"));
        assert!(!container_header("foo {"));
        assert_eq!(
            multi_line_header("usecase Precondition as \"Preconditions"),
            Some(MultiLine::Quote)
        );
        assert_eq!(multi_line_header("component C ["), Some(MultiLine::Bracket));
        assert_eq!(multi_line_header("usecase \"x\" as U"), None);
    }
}
