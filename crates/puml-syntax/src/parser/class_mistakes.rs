//! Class diagrams: the mistakes people and language models make, named.
//!
//! A line the class reading does not take is an error either way (PlantUML
//! fails on it); this module says which mistake it is — Mermaid's class
//! syntax, Java or Kotlin written as PlantUML, type arguments PlantUML
//! refuses, an arrow it does not know, several links on one line, a member
//! outside any body, a body written on one line — with the span of the
//! offending part and, where the intent is clear, a repair. Every repair
//! is checked with the class reading's own scanners before it is offered:
//! a repaired line that would not read is no repair. Each form and its
//! repair were settled with PlantUML 1.2026.8 (the `class-mistake` cases
//! of `test-data/grammar/class/cases.tsv`).

use super::class::{blanks, code_len, line_reads, name_at, quoted_len, stereotype_end, word_at, CLASS_KEYWORDS};
use crate::codes;

/// A recognised mistake on one line; offsets are byte offsets into the
/// line's content.
pub(crate) struct Mistake {
    pub(crate) code: &'static str,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) message: String,
    pub(crate) repair: Option<Repair>,
}

/// Edits of the line (`(start, end, new_text)`); `applicable` when
/// `--fix` may apply it without asking.
pub(crate) struct Repair {
    pub(crate) title: String,
    pub(crate) edits: Vec<(usize, usize, String)>,
    pub(crate) applicable: bool,
}

/// What a recogniser may know beyond the line.
pub(crate) struct Context<'c> {
    /// The line terminator to use when a repair splits the line.
    pub(crate) newline: &'c str,
    /// The last class-like element declared before the line (its alias
    /// when it has one).
    pub(crate) last_class: Option<String>,
    /// The elements written before the line.
    pub(crate) known: &'c rustc_hash::FxHashSet<String>,
}

/// Words Java, C#, Kotlin and TypeScript put before `class` that PlantUML
/// does not take (`abstract` and `static` it takes).
const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "final",
    "sealed",
    "open",
    "export",
    "default",
    "partial",
    "data",
];

/// Mermaid statements with no PlantUML counterpart on a line of their own.
const MERMAID_STATEMENTS: &[&str] = &["style", "classDef", "cssClass", "click", "callback", "link"];

/// The mistake `text` (a line the class reading refused) is, if one is known.
pub(crate) fn recognise(text: &str, ctx: &Context) -> Option<Mistake> {
    let lead = blanks(text, 0);
    let end = text.trim_end().len();
    if lead >= end {
        return None;
    }
    let recognisers: [&dyn Fn() -> Option<Mistake>; 11] = [
        &|| mermaid_line(text, lead, end, ctx),
        &|| mermaid_annotation(text, lead, end),
        &|| mermaid_note(text, lead, end, ctx),
        &|| mermaid_label(text, lead, end),
        &|| java_modifiers(text, lead),
        &|| java_relation(text, lead, end, ctx),
        &|| colon_inheritance(text, lead),
        &|| unbalanced_generic(text, lead, end),
        &|| one_line_body(text, lead, end, ctx),
        &|| member_outside(text, lead, end, ctx),
        &|| bad_link(text, lead, end, ctx),
    ];
    recognisers.iter().find_map(|r| r())
}

fn mistake(code: &'static str, start: usize, end: usize, message: impl Into<String>) -> Mistake {
    Mistake {
        code,
        start,
        end,
        message: message.into(),
        repair: None,
    }
}

impl Mistake {
    fn repair(mut self, title: impl Into<String>, edits: Vec<(usize, usize, String)>, applicable: bool) -> Mistake {
        self.repair = Some(Repair {
            title: title.into(),
            edits,
            applicable,
        });
        self
    }

    /// The line from `start` to `end` rewritten as `lines` (each checked
    /// with the class reading), indented as the line was.
    fn rewrite(self, text: &str, span: (usize, usize), title: &str, lines: &[String], ctx: &Context) -> Mistake {
        if lines.is_empty() || !lines.iter().all(|l| line_reads(l)) {
            return self;
        }
        let indent = &text[..blanks(text, 0)];
        let joined = lines.join(&format!("{}{indent}", ctx.newline));
        self.repair(title, vec![(span.0, span.1, joined)], true)
    }
}

/// The first word of `text[pos..]` (up to a blank) and its end.
fn word(text: &str, pos: usize) -> (&str, usize) {
    let len = text[pos..].find(char::is_whitespace).unwrap_or(text.len() - pos);
    (&text[pos..pos + len], pos + len)
}

/// `%%` comments, `direction LR`, `style`/`classDef`/`click`… lines.
fn mermaid_line(text: &str, lead: usize, end: usize, ctx: &Context) -> Option<Mistake> {
    let rest = &text[lead..end];
    if rest.starts_with("%%") {
        return Some(
            mistake(
                codes::CLASS_MERMAID_SYNTAX,
                lead,
                lead + 2,
                "`%%` starts a comment in Mermaid; PlantUML comments start with `'`",
            )
            .repair("Write the comment with `'`", vec![(lead, lead + 2, "'".into())], true),
        );
    }
    let (first, after) = word(text, lead);
    if first == "classDiagram" && after == end {
        let m = mistake(
            codes::MERMAID_HEADER,
            lead,
            end,
            "`classDiagram` is Mermaid's header; a PlantUML class diagram has none (convert a whole Mermaid diagram with `puml convert --from mermaid`)",
        );
        return Some(m.repair(
            "Remove the Mermaid header",
            vec![(0, text.len() + ctx.newline.len(), String::new())],
            true,
        ));
    }
    if first == "direction" {
        let (dir, dir_end) = word(text, blanks(text, after));
        if dir_end < end || dir.is_empty() {
            return None;
        }
        let (plantuml, exact) = match dir {
            "LR" => ("left to right direction", true),
            "TB" | "TD" => ("top to bottom direction", true),
            "RL" => ("left to right direction", false),
            "BT" => ("top to bottom direction", false),
            _ => return None,
        };
        let m = mistake(
            codes::CLASS_MERMAID_SYNTAX,
            lead,
            end,
            format!(
                "`direction {dir}` is Mermaid; PlantUML writes `{plantuml}`{}",
                if exact { "" } else { " (it has no reversed directions)" }
            ),
        );
        return Some(m.repair(format!("Write `{plantuml}`"), vec![(lead, end, plantuml.into())], exact));
    }
    if MERMAID_STATEMENTS.contains(&first) && after < end {
        let m = mistake(
            codes::CLASS_MERMAID_SYNTAX,
            lead,
            after,
            format!("`{first}` is a Mermaid statement that PlantUML does not have (colours go on the declaration: `class A #pink`)"),
        );
        return Some(m.repair(
            "Comment the Mermaid line out",
            vec![(lead, lead, "' (Mermaid, not PlantUML) ".into())],
            true,
        ));
    }
    None
}

/// `<<interface>> Shape`: Mermaid's annotation on a line of its own.
fn mermaid_annotation(text: &str, lead: usize, end: usize) -> Option<Mistake> {
    let close = stereotype_end(text, lead)?;
    let at = blanks(text, close);
    if at == end || at == close {
        return None;
    }
    let (_, name_end) = name_at(text, at)?;
    if name_end != end {
        return None;
    }
    let annotation = text[lead + 2..close - 2].trim();
    let name = &text[at..end];
    let declaration = match annotation.to_ascii_lowercase().as_str() {
        "interface" => format!("interface {name}"),
        "abstract" => format!("abstract class {name}"),
        "enumeration" | "enum" => format!("enum {name}"),
        _ => format!("class {name} <<{annotation}>>"),
    };
    let m = mistake(
        codes::CLASS_MERMAID_SYNTAX,
        lead,
        end,
        format!("`<<{annotation}>> {name}` is Mermaid's annotation; PlantUML writes `{declaration}`"),
    );
    Some(m.repair(format!("Write `{declaration}`"), vec![(lead, end, declaration)], true))
}

/// `note for A "text"`: Mermaid's note on a class.
fn mermaid_note(text: &str, lead: usize, end: usize, ctx: &Context) -> Option<Mistake> {
    if !word_at(text, lead, "note") {
        return None;
    }
    let at = blanks(text, lead + 4);
    if !word_at(text, at, "for") {
        return None;
    }
    let name_at_pos = blanks(text, at + 3);
    let (_, name_end) = name_at(text, name_at_pos)?;
    let name = text[name_at_pos..name_end].trim_matches('"');
    let note_at = blanks(text, name_end);
    let q = quoted_len(&text[note_at..]);
    if q == 0 || note_at + q != end {
        return None;
    }
    let body = &text[note_at + 1..end - 1];
    let plantuml = format!("note right of {name} : {body}");
    let m = mistake(
        codes::CLASS_MERMAID_SYNTAX,
        lead,
        end,
        format!("`note for {name}` is Mermaid; PlantUML writes `{plantuml}`"),
    );
    // PlantUML attaches a note only to an element written before it.
    let known = ctx.known.contains(name);
    Some(m.repair(format!("Write `{plantuml}`"), vec![(lead, end, plantuml)], known))
}

/// `class A["Label"]`: Mermaid's class label.
fn mermaid_label(text: &str, lead: usize, end: usize) -> Option<Mistake> {
    let (keyword, keyword_end) = word(text, lead);
    if !CLASS_KEYWORDS.contains(&keyword) {
        return None;
    }
    let at = blanks(text, keyword_end);
    let len = code_len(&text[at..]);
    if len == 0 || !text[at + len..].starts_with("[\"") || !text[..end].ends_with("\"]") || at + len + 4 > end {
        return None;
    }
    let name = &text[at..at + len];
    let label = &text[at + len + 2..end - 2];
    if label.contains('"') {
        return None;
    }
    let plantuml = format!("{keyword} \"{label}\" as {name}");
    let m = mistake(
        codes::CLASS_MERMAID_SYNTAX,
        at + len,
        end,
        format!("`{name}[\"…\"]` is Mermaid's class label; PlantUML writes `{plantuml}`"),
    );
    Some(m.repair(
        format!("Write `{plantuml}`"),
        vec![(lead, end, plantuml)],
        line_reads(&format!("{keyword} \"{label}\" as {name}")),
    ))
}

/// `public class A`, `final class A`: modifiers PlantUML does not take.
fn java_modifiers(text: &str, lead: usize) -> Option<Mistake> {
    let mut pos = lead;
    let mut words = Vec::new();
    loop {
        let (w, after) = word(text, pos);
        if !MODIFIERS.contains(&w) {
            break;
        }
        words.push(w);
        pos = blanks(text, after);
        if pos == after {
            return None;
        }
    }
    // The declaration after the modifiers may hold another mistake: the
    // next round of `--fix` repairs it.
    let (keyword, _) = word(text, pos);
    if words.is_empty() || (!CLASS_KEYWORDS.contains(&keyword) && keyword != "static") {
        return None;
    }
    let list = words.join(" ");
    let m = mistake(
        codes::CLASS_JAVA_SYNTAX,
        lead,
        pos,
        format!("PlantUML takes no `{list}` before a declaration (only `abstract` and `static`)"),
    );
    Some(m.repair(format!("Remove `{list}`"), vec![(lead, pos, String::new())], true))
}

/// `A extends B`, `A implements I, J`: inheritance written as a statement.
fn java_relation(text: &str, lead: usize, end: usize, ctx: &Context) -> Option<Mistake> {
    let (_, name_end) = name_at(text, lead)?;
    let at = blanks(text, name_end);
    if at == name_end {
        return None;
    }
    let (keyword, arrow) = if word_at(text, at, "extends") {
        ("extends", "<|--")
    } else if word_at(text, at, "implements") {
        ("implements", "<|..")
    } else {
        return None;
    };
    let name = &text[lead..name_end];
    if CLASS_KEYWORDS.contains(&name) {
        return None;
    }
    let supers: Vec<&str> = text[at + keyword.len()..end].split(',').map(str::trim).collect();
    if supers
        .iter()
        .any(|s| s.is_empty() || name_at(s, 0).is_none_or(|(_, e)| e != s.len()))
    {
        return None;
    }
    let lines: Vec<String> = supers.iter().map(|s| format!("{s} {arrow} {name}")).collect();
    let m = mistake(
        codes::CLASS_JAVA_SYNTAX,
        at,
        at + keyword.len(),
        format!(
            "`{keyword}` is read only in a declaration (`class {name} {keyword} …`); as a statement, PlantUML writes the link `{}`",
            lines[0]
        ),
    );
    Some(m.rewrite(text, (lead, end), "Write the inheritance as a link", &lines, ctx))
}

/// `class A : B` (Kotlin, C#, C++), `class A extends` with nothing after,
/// `class A extends B extends C`.
fn colon_inheritance(text: &str, lead: usize) -> Option<Mistake> {
    let (keyword, keyword_end) = word(text, lead);
    if !CLASS_KEYWORDS.contains(&keyword) {
        return None;
    }
    let end = text.trim_end().len();
    // A dangling `extends`/`implements` at the end.
    for dangling in ["extends", "implements"] {
        if text[..end].ends_with(dangling) {
            let start = end - dangling.len();
            let before = text[..start].trim_end().len();
            if start > keyword_end && before < start && line_reads(&text[..before]) {
                let m = mistake(
                    codes::CLASS_JAVA_SYNTAX,
                    start,
                    end,
                    format!("`{dangling}` names no class after it"),
                );
                return Some(m.repair(format!("Remove `{dangling}`"), vec![(before, end, String::new())], true));
            }
        }
    }
    // `extends B extends C`: PlantUML takes one `extends` with a list.
    for repeated in ["extends", "implements"] {
        let needle = format!(" {repeated} ");
        let Some(first) = text.find(&needle) else { continue };
        let Some(second) = text[first + needle.len()..]
            .find(&needle)
            .map(|s| s + first + needle.len())
        else {
            continue;
        };
        let repaired = format!("{}, {}", &text[..second], &text[second + needle.len()..]);
        if line_reads(&repaired) {
            let m = mistake(
                codes::CLASS_JAVA_SYNTAX,
                second + 1,
                second + 1 + repeated.len(),
                format!("a second `{repeated}`: PlantUML takes one, with the classes separated by commas"),
            );
            return Some(m.repair(
                format!("List the classes after one `{repeated}`"),
                vec![(second, second + needle.len(), ", ".into())],
                true,
            ));
        }
    }
    // `class A : B`.
    let colon = text[keyword_end..].find(" : ").map(|c| c + keyword_end)?;
    let supers = text.get(colon + 3..end).unwrap_or_default().trim();
    if supers.is_empty() {
        return None;
    }
    let repaired = format!("{} extends {}", &text[..colon], &text[colon + 3..]);
    if !line_reads(&repaired) {
        return None;
    }
    let m = mistake(
        codes::CLASS_JAVA_SYNTAX,
        colon + 1,
        colon + 2,
        "PlantUML writes inheritance in a declaration with `extends` (or `implements`), not `:`",
    );
    Some(m.repair("Write `extends`", vec![(colon, colon + 3, " extends ".into())], true))
}

/// Type arguments on a supertype where PlantUML refuses them: it takes
/// them only on a declaration that opens a body, and only on the last
/// class of an `extends`/`implements` list. Reported by the declaration
/// reading (the scanner reads the line), not by `recognise`.
pub(crate) fn generic_supertype(text: &str, generic: (usize, usize), opens_body: bool, ctx: &Context) -> Mistake {
    let (start, end) = generic;
    if !opens_body {
        let line_end = text.trim_end().len();
        let m = mistake(
            codes::CLASS_GENERIC,
            start,
            end,
            "PlantUML takes type arguments on a supertype only when the declaration opens a body (`{` at the end)",
        );
        let indent = &text[..blanks(text, 0)];
        let nl = ctx.newline;
        // `{}` on the line is no body for PlantUML: spread it over two lines.
        let trimmed = text[..line_end].trim_end_matches('}').trim_end();
        let (from, prefix) = match trimmed.strip_suffix('{') {
            Some(before) if text[..line_end].ends_with('}') => (before.trim_end().len(), " "),
            _ => (line_end, " "),
        };
        return m.repair(
            "Give the declaration an empty body",
            vec![(from, line_end, format!("{prefix}{{{nl}{indent}}}"))],
            true,
        );
    }
    let m = mistake(
        codes::CLASS_GENERIC,
        start,
        end,
        "PlantUML takes type arguments only on the last supertype of a list",
    );
    // The supertype with its arguments, and the rest of its list up to
    // the body's `{` or an `implements`.
    let item_start = text[..start]
        .rfind(|c: char| c.is_whitespace() || c == ',')
        .map_or(0, |i| i + 1);
    let Some(comma) = text[end..].find(',').filter(|&c| text[end..end + c].trim().is_empty()) else {
        return m;
    };
    let rest_start = end + comma + 1;
    let line_end = text.trim_end().len();
    let rest_end = [" {", " implements "]
        .iter()
        .filter_map(|stop| text[rest_start..line_end].find(stop))
        .min()
        .map_or(line_end, |e| rest_start + e);
    let rest = text[rest_start..rest_end].trim();
    if rest.is_empty() || rest.contains('<') {
        // Several supertypes with arguments: only one can keep them.
        return m.repair("Remove the type arguments", vec![(start, end, String::new())], false);
    }
    let item = &text[item_start..end];
    m.repair(
        "Move the supertype with type arguments to the end of the list",
        vec![(item_start, rest_end, format!("{rest}, {item}"))],
        true,
    )
}

/// `class A<T` (never closed) and `class A<T>>` (closed twice).
fn unbalanced_generic(text: &str, lead: usize, end: usize) -> Option<Mistake> {
    let (keyword, keyword_end) = word(text, lead);
    if !CLASS_KEYWORDS.contains(&keyword) {
        return None;
    }
    let name_start = blanks(text, keyword_end);
    let open = text.get(name_start..end)?.find('<').map(|o| o + name_start)?;
    if text[open..].starts_with("<<") || text[name_start..open].contains(char::is_whitespace) {
        return None;
    }
    let mut depth = 0i32;
    let mut close = None;
    for (i, c) in text[open..end].char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    match close {
        Some(close) if text[close..].starts_with('>') => {
            let m = mistake(
                codes::CLASS_GENERIC,
                close,
                close + 1,
                "this `>` closes no `<`: the type parameters end one `>` earlier",
            );
            let repaired = format!("{}{}", &text[..close], &text[close + 1..]);
            if line_reads(&repaired) {
                Some(m.repair("Remove the extra `>`", vec![(close, close + 1, String::new())], true))
            } else {
                Some(m)
            }
        }
        Some(_) => None,
        None => {
            let m = mistake(
                codes::CLASS_GENERIC,
                open,
                end,
                "the type parameters' `<` is never closed with `>`",
            );
            // Close before a body's `{`, else at the end.
            let at = if text[..end].ends_with('{') {
                text[..end - 1].trim_end().len()
            } else {
                end
            };
            let repaired = format!("{}>{}", &text[..at], &text[at..]);
            if line_reads(&repaired) {
                Some(m.repair("Close the type parameters", vec![(at, at, ">".into())], true))
            } else {
                Some(m)
            }
        }
    }
}

/// `class A { +int x }`: a body on the declaration's line; `class A {{`.
fn one_line_body(text: &str, lead: usize, end: usize, ctx: &Context) -> Option<Mistake> {
    let (keyword, keyword_end) = word(text, lead);
    if !CLASS_KEYWORDS.contains(&keyword) && keyword != "object" {
        return None;
    }
    let open = text[keyword_end..end].find('{').map(|o| o + keyword_end)?;
    let header = text[..open].trim_end();
    if text[open..end].starts_with("{{") && text[open + 2..end].trim().is_empty() {
        let m = mistake(codes::CLASS_BODY_ON_LINE, open, end, "a body opens with one `{`");
        if line_reads(header) {
            return Some(m.repair("Write one `{`", vec![(open, end, "{".into())], true));
        }
        return Some(m);
    }
    if !text[..end].ends_with('}') || !line_reads(header) {
        return None;
    }
    let inside = text[open + 1..end - 1].trim();
    if inside.is_empty() || inside.contains('{') || inside.contains('}') {
        return None;
    }
    let indent = &text[..lead];
    let nl = ctx.newline;
    let members: Vec<&str> = inside.split(';').map(str::trim).filter(|m| !m.is_empty()).collect();
    let mut body = String::from("{");
    for member in &members {
        body.push_str(&format!("{nl}{indent}  {member}"));
    }
    body.push_str(&format!("{nl}{indent}}}"));
    let m = mistake(
        codes::CLASS_BODY_ON_LINE,
        open,
        end,
        "PlantUML reads a body's members one per line, between a line ending with `{` and a line holding only `}`",
    );
    Some(m.repair("Write the body over lines", vec![(open, end, body)], true))
}

/// `+ name : int`, `{static} x`, `run()`: a member outside any body.
fn member_outside(text: &str, lead: usize, end: usize, ctx: &Context) -> Option<Mistake> {
    let rest = &text[lead..end];
    let first = rest.chars().next()?;
    let visibility = matches!(first, '+' | '-' | '#' | '~')
        && rest[1..]
            .trim_start()
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '{');
    let modifier = ["{static}", "{abstract}", "{field}", "{method}", "{classifier}"]
        .iter()
        .any(|m| rest.starts_with(m));
    let method = {
        let len = code_len(rest);
        len > 0 && rest[len..].starts_with('(') && rest.ends_with(')') && !rest[..len].contains(['.', ':'])
    };
    if !(visibility || modifier || method) {
        return None;
    }
    let m = mistake(
        codes::CLASS_MEMBER_OUTSIDE,
        lead,
        end,
        "a member outside any class body: write it inside the class's `{ … }`, or as `Class : member`",
    );
    match &ctx.last_class {
        Some(class) => {
            let line = format!("{class} : {rest}");
            let applicable = line_reads(&line);
            Some(m.repair(
                format!("Add it to `{class}` (`{class} : …`)"),
                vec![(lead, lead, format!("{class} : "))],
                applicable,
            ))
        }
        None => Some(m),
    }
}

/// Characters of a link's arrow (heads and bodies).
fn is_arrow_char(c: char) -> bool {
    matches!(
        c,
        '-' | '.' | '=' | '~' | '<' | '>' | '|' | '*' | 'o' | '#' | 'x' | '+' | '^' | '{' | '}' | '(' | ')'
    )
}

/// `A ~~> B` (an arrow PlantUML does not know), `A -- B -- C` and
/// `A, B --> C` (several links on one line).
fn bad_link(text: &str, lead: usize, end: usize, ctx: &Context) -> Option<Mistake> {
    // `A, B --> C`: several sources.
    let mut sources = Vec::new();
    let mut pos = lead;
    loop {
        let (_, name_end) = name_at(text, pos)?;
        sources.push(&text[pos..name_end]);
        let after = blanks(text, name_end);
        if text[after..].starts_with(',') {
            pos = blanks(text, after + 1);
        } else {
            pos = name_end;
            break;
        }
    }
    let arrow_start = blanks(text, pos);
    if arrow_start == pos || arrow_start >= end {
        return None;
    }
    let arrow_len = text[arrow_start..end]
        .find(|c: char| !is_arrow_char(c))
        .unwrap_or(end - arrow_start);
    let arrow = &text[arrow_start..arrow_start + arrow_len];
    if arrow_len < 2 || !arrow.contains(['-', '.', '=', '~']) {
        return None;
    }
    let tail = &text[arrow_start + arrow_len..end];
    if sources.len() > 1 {
        let lines: Vec<String> = sources.iter().map(|s| format!("{s} {arrow}{tail}")).collect();
        let m = mistake(
            codes::CLASS_CHAINED_LINK,
            lead,
            arrow_start,
            "a link has one element at each end: write one link per element",
        );
        return Some(m.rewrite(text, (lead, end), "Write one link per element", &lines, ctx));
    }
    let source = sources[0];
    // `A -- B -- C`: a second arrow after the target.
    let target_at = blanks(text, arrow_start + arrow_len);
    if let Some((_, target_end)) = name_at(text, target_at) {
        let second_at = blanks(text, target_end);
        if second_at > target_end && second_at < end {
            let second_len = text[second_at..end]
                .find(|c: char| !is_arrow_char(c))
                .unwrap_or(end - second_at);
            let second = &text[second_at..second_at + second_len];
            if second_len >= 2 && second.contains(['-', '.', '=']) {
                let target = &text[target_at..target_end];
                let lines = vec![
                    format!("{source} {arrow} {target}"),
                    format!("{target} {second}{}", &text[second_at + second_len..end]),
                ];
                let m = mistake(
                    codes::CLASS_CHAINED_LINK,
                    second_at,
                    second_at + second_len,
                    "PlantUML reads one link per line: write `A -- B` and `B -- C` on lines of their own",
                );
                return Some(m.rewrite(text, (lead, end), "Write one link per line", &lines, ctx));
            }
        }
    }
    // An arrow PlantUML does not know: try the nearest it does.
    let m = mistake(
        codes::CLASS_UNKNOWN_ARROW,
        arrow_start,
        arrow_start + arrow_len,
        format!("`{arrow}` is no arrow of a class diagram (bodies `--` `..` `==`, heads `<|` `*` `o` `>` `#` `x` `}}` `+` `^` and their mirrors)"),
    );
    // A wavy body is Mermaid's or a typo for a dotted one, a doubled head
    // (`|>>`) a slip; dropping another end character is only a guess.
    let doubled = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|a| chars.next() == Some(a))
    };
    let candidates = [
        (arrow.replace('~', "."), true),
        (arrow[..arrow.len() - 1].to_string(), doubled(&arrow[arrow.len() - 2..])),
        (arrow[1..].to_string(), doubled(&arrow[..2])),
    ];
    let found = candidates.into_iter().find(|(candidate, _)| {
        candidate != arrow
            && candidate.len() >= 2
            && line_reads(&format!(
                "{}{candidate}{}",
                &text[..arrow_start],
                &text[arrow_start + arrow_len..]
            ))
    });
    Some(match found {
        Some((candidate, applicable)) => {
            let title = format!("Write `{candidate}`");
            m.repair(
                title,
                vec![(arrow_start, arrow_start + arrow_len, candidate)],
                applicable,
            )
        }
        None => m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(known: &rustc_hash::FxHashSet<String>) -> Context<'_> {
        Context {
            newline: "\n",
            last_class: Some("A".into()),
            known,
        }
    }

    /// Every prefix of every line, with and without trailing blanks: a
    /// recogniser never panics (slicing past a trimmed end was one way).
    #[test]
    fn recognisers_never_panic_on_cut_lines() {
        let known = rustc_hash::FxHashSet::default();
        let ctx = context(&known);
        let lines = [
            "<<interface>> Shape",
            "class A { +int x ; + y }",
            "note for A \"text\"",
            "class Duck[\"Rubber duck\"]",
            "direction LR",
            "public final class A extends B<T>, C {",
            "A extends B, C",
            "class A : B",
            "class A extends B extends C",
            "class A<T<U>",
            "class A<T>>",
            "+ run() : void",
            "A, B --> C",
            "A -- B -- C : x",
            "A ~~> B",
            "%% é comment",
            "end",
            "classDiagram",
        ];
        for line in lines {
            for (cut, _) in line.char_indices().chain([(line.len(), ' ')]) {
                for tail in ["", " ", "\t ", " {", " }"] {
                    let text = format!("{}{tail}", &line[..cut]);
                    let _ = recognise(&text, &ctx);
                }
            }
        }
    }

    #[test]
    fn mistakes_are_named_with_their_span_and_repair() {
        let known = rustc_hash::FxHashSet::from_iter(["A".to_string()]);
        let ctx = context(&known);
        let cases = [
            (
                "<<interface>> Shape",
                codes::CLASS_MERMAID_SYNTAX,
                "<<interface>> Shape",
                Some("interface Shape"),
            ),
            ("public class A", codes::CLASS_JAVA_SYNTAX, "public ", Some("")),
            ("A ~~> B", codes::CLASS_UNKNOWN_ARROW, "~~>", Some("..>")),
            ("A --|>> B", codes::CLASS_UNKNOWN_ARROW, "--|>>", Some("--|>")),
            ("class A<T>>", codes::CLASS_GENERIC, ">", Some("")),
            ("+ x : int", codes::CLASS_MEMBER_OUTSIDE, "+ x : int", Some("A : ")),
            ("A -- B -- C", codes::CLASS_CHAINED_LINK, "--", Some("A -- B\nB -- C")),
        ];
        for (line, code, span, repair) in cases {
            let m = recognise(line, &ctx).unwrap_or_else(|| panic!("{line}: not recognised"));
            assert_eq!((m.code, &line[m.start..m.end]), (code, span), "{line}");
            let first_edit = m.repair.as_ref().map(|r| r.edits[0].2.as_str());
            assert_eq!(first_edit, repair, "{line}");
        }
        // A guess is offered, not applied.
        let guess = recognise("A -->o B", &ctx)
            .and_then(|m| m.repair)
            .expect("a suggestion");
        assert!(!guess.applicable);
    }
}
