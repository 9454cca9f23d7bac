//! Answers that need only an analysis result and the text: symbols,
//! hover, completion, definitions, references and folding ranges.

use crate::text::{word_at, LineTable};
use puml_ide::class_outline::{ClassStructure, ClassSymbolKind};
use puml_ide::explain::{Explanation, ParticipantSummary};
use puml_ide::highlight::{Highlight, HighlightClass};
use puml_ide::outline::{ActivityBlock, ActivityBlockKind, ActivityOutline};
use puml_sema::activity::ContainerKind;
use puml_syntax::{TextRange, TextSize};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, FoldingRange, FoldingRangeKind, Position, Range,
    SelectionRange, SemanticToken, SemanticTokenType, SemanticTokensEdit, SemanticTokensLegend, SymbolKind,
};

/// The participant a word names (by name or alias), over every diagram.
pub fn participant<'a>(participants: &'a [ParticipantSummary], word: &str) -> Option<&'a ParticipantSummary> {
    participants
        .iter()
        .find(|p| p.name == word || p.alias.as_deref() == Some(word))
}

fn line_range(table: &LineTable<'_>, text: &str, line_1based: u32) -> Range {
    let line = line_1based.saturating_sub(1);
    let start = table.offset(Position::new(line, 0));
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    Range::new(table.position(start), table.position(end))
}

/// The outline: per diagram, a sequence diagram's declared participants
/// and groups, or an activity diagram's swimlanes and blocks (nested).
/// A symbol with `detail` whose range and selection are `range`, without
/// children (they are added where there are any).
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelled out
fn symbol(name: String, detail: String, kind: SymbolKind, range: Range) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail: Some(detail),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: None,
    }
}

pub fn document_symbols(
    text: &str,
    explanations: &[Explanation],
    outlines: &[ActivityOutline],
    classes: &[ClassStructure],
) -> Vec<DocumentSymbol> {
    let table = LineTable::new(text);
    let mut symbols = Vec::new();
    for explanation in explanations {
        if let Some(outline) = outlines.iter().find(|o| o.diagram_index == explanation.diagram_index) {
            symbols.extend(activity_symbols(text, &table, outline));
            continue;
        }
        for p in &explanation.participants {
            let Some(line) = p.declared_line else {
                continue;
            };
            let range = line_range(&table, text, line);
            let detail = match &p.alias {
                Some(alias) => format!("{} as {alias}", p.kind.keyword()),
                None => p.kind.keyword().to_string(),
            };
            symbols.push(symbol(p.name.clone(), detail, SymbolKind::OBJECT, range));
        }
        for group in &explanation.groups {
            let range = line_range(&table, text, group.line);
            let label = group.label.clone().unwrap_or_default();
            symbols.push(symbol(
                format!("{} {label}", group.kind.keyword()).trim().to_string(),
                format!("{} branch(es)", group.branches.len()),
                SymbolKind::NAMESPACE,
                range,
            ));
        }
    }
    if !classes.is_empty() {
        for structure in classes {
            symbols.extend(class_symbols(&table, structure));
        }
        // Each diagram's symbols in the order of the text.
        symbols.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    }
    symbols
}

/// Packages, elements and members of one class diagram, nested as the
/// outline nests them (built bottom-up, without recursion; deeper than
/// `MAX_SYMBOL_DEPTH` listed beside their ancestor at that depth).
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelled out
fn class_symbols(table: &LineTable<'_>, structure: &ClassStructure) -> Vec<DocumentSymbol> {
    let shown_parent = |index: usize| -> Option<usize> {
        let mut parent = structure.symbols.get(index)?.parent;
        while let Some(p) = parent {
            if structure.symbols[p].depth < MAX_SYMBOL_DEPTH {
                return Some(p);
            }
            parent = structure.symbols[p].parent;
        }
        None
    };
    let mut children: Vec<Vec<DocumentSymbol>> = vec![Vec::new(); structure.symbols.len()];
    let mut roots = Vec::new();
    for (index, item) in structure.symbols.iter().enumerate().rev() {
        let mut own = std::mem::take(&mut children[index]);
        own.reverse();
        let lower = item.detail.to_ascii_lowercase();
        let kind = match item.kind {
            ClassSymbolKind::Package if lower.starts_with("namespace") => SymbolKind::NAMESPACE,
            ClassSymbolKind::Package => SymbolKind::PACKAGE,
            ClassSymbolKind::Element if lower.starts_with("interface") => SymbolKind::INTERFACE,
            ClassSymbolKind::Element if lower.starts_with("enum") => SymbolKind::ENUM,
            ClassSymbolKind::Element if lower.starts_with("struct") || lower.starts_with("entity") => {
                SymbolKind::STRUCT
            }
            ClassSymbolKind::Element
                if lower.starts_with("object") || lower.starts_with("map") || lower.starts_with("json") =>
            {
                SymbolKind::OBJECT
            }
            // A description diagram's elements, by their shape's keyword.
            ClassSymbolKind::Element if lower.starts_with("component") => SymbolKind::MODULE,
            ClassSymbolKind::Element if lower.starts_with("usecase") => SymbolKind::EVENT,
            ClassSymbolKind::Element if lower.starts_with("actor") || lower.starts_with("person") => SymbolKind::OBJECT,
            ClassSymbolKind::Element => SymbolKind::CLASS,
            ClassSymbolKind::Field
                if item
                    .parent
                    .is_some_and(|p| structure.symbols[p].detail.to_ascii_lowercase().starts_with("enum")) =>
            {
                SymbolKind::ENUM_MEMBER
            }
            ClassSymbolKind::Field => SymbolKind::FIELD,
            ClassSymbolKind::Method => SymbolKind::METHOD,
            // A state machine's states: no closer kind in the protocol.
            ClassSymbolKind::State => SymbolKind::OBJECT,
            // A legacy activity diagram's activities and bars: steps run.
            ClassSymbolKind::Activity => SymbolKind::FUNCTION,
        };
        let symbol = DocumentSymbol {
            name: if item.name.is_empty() {
                "?".to_string()
            } else {
                item.name.clone()
            },
            detail: (!item.detail.is_empty()).then(|| item.detail.clone()),
            kind,
            tags: None,
            deprecated: None,
            range: table.range(item.range),
            selection_range: table.range(item.selection),
            children: (!own.is_empty()).then_some(own),
        };
        match shown_parent(index) {
            Some(parent) if parent < index => children[parent].push(symbol),
            _ => roots.push(symbol),
        }
    }
    roots.reverse();
    roots
}

/// Markdown for a class-diagram element (a state, a description diagram's
/// element): its keyword and name, stereotypes, the package or container
/// it is in, members, and the relations (transitions, links) going out of
/// it and coming into it.
pub fn class_hover(element: &puml_ide::class_symbols::ClassElementRef) -> String {
    let mut out = format!("**{}** `{}`", element.keyword, element.qualified_name);
    if element.display != element.qualified_name && !element.qualified_name.ends_with(&element.display) {
        out.push_str(&format!(" (shown as \"{}\")", element.display));
    }
    if !element.stereotypes.is_empty() {
        let stereotypes: Vec<String> = element.stereotypes.iter().map(|s| format!("`<<{s}>>`")).collect();
        out.push_str(&format!(" {}", stereotypes.join(" ")));
    }
    out.push_str("\n\n");
    if let Some(container) = &element.container {
        out.push_str(&format!("In `{container}`.\n\n"));
    }
    // A state's members are its description lines, its relations its
    // transitions; a description element has links and no members.
    let relations = if element.keyword == "state" {
        "Transitions"
    } else if element.in_description {
        "Links"
    } else {
        "Relations"
    };
    if !element.in_description {
        let members = if element.keyword == "state" {
            "description line(s)"
        } else {
            "member(s)"
        };
        out.push_str(&format!("{} {members}", element.members.len()));
        if !element.members.is_empty() {
            out.push(':');
            for member in element.members.iter().take(HOVER_MEMBERS) {
                out.push_str(&format!("\n- `{member}`"));
            }
            if element.members.len() > HOVER_MEMBERS {
                out.push_str(&format!("\n- … {} more", element.members.len() - HOVER_MEMBERS));
            }
        }
        out.push_str("\n\n");
    }
    let list = |names: &[String]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    out.push_str(&format!(
        "{relations} out ({}): {}",
        element.relations_out.len(),
        list(&element.relations_out)
    ));
    out.push_str(&format!(
        "\n\n{relations} in ({}): {}",
        element.relations_in.len(),
        list(&element.relations_in)
    ));
    out
}

/// At most this many members are listed in a class's hover.
const HOVER_MEMBERS: usize = 20;

/// Markdown for the word under the cursor: a participant, or a keyword of
/// the primitive catalog (in an activity diagram, its activity keywords,
/// closers and middles included).
pub fn hover(
    text: &str,
    offset: usize,
    participants: &[ParticipantSummary],
    outlines: &[ActivityOutline],
) -> Option<(String, usize, usize)> {
    let (start, word) = word_at(text, offset)?;
    let end = start + word.len();
    let activity = activity_at(outlines, offset);
    let in_activity = activity.is_some();
    if let Some(outline) = activity {
        let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
        if let Some(mut markdown) = activity_hover(word, &text[line_start..line_end]) {
            if let Some(pairing) = block_pairing(text, outline, line_start, line_end) {
                markdown.push_str("\n\n");
                markdown.push_str(&pairing);
            }
            return Some((markdown, start, end));
        }
    }
    if let Some(p) = participant(participants, word).filter(|_| !in_activity) {
        let mut out = format!("**{}** `{}`", p.kind.keyword(), p.name);
        if let Some(alias) = &p.alias {
            out.push_str(&format!(" (alias `{alias}`)"));
        }
        out.push_str("\n\n");
        let declaration_here = p.declared_line.is_some_and(|line| {
            text.lines()
                .nth(line.saturating_sub(1) as usize)
                .is_some_and(|l| l.contains(&p.name) || p.alias.as_deref().is_some_and(|a| l.contains(a)))
        });
        match p.declared_line {
            Some(line) if declaration_here => out.push_str(&format!("Declared on line {line}. ")),
            Some(_) => out.push_str("Declared in an included file. "),
            None => out.push_str("Not declared: created by its first use. "),
        }
        out.push_str(&format!(
            "Sends {} message(s), receives {}.",
            p.messages_sent, p.messages_received
        ));
        return Some((out, start, end));
    }
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    if text[line_start..start].trim().eq_ignore_ascii_case("skinparam") {
        if let Some((name, kind)) = puml_ide::skinparams::find(word) {
            return Some((format!("**skinparam {name}**: {}", kind.describe()), start, end));
        }
    }
    let primitive = puml_ide::primitives::catalog()
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(word) || keyword(p) == Some(word))?;
    Some((
        format!(
            "**{}**: {}\n\n```plantuml\n{}\n```",
            primitive.name, primitive.meaning, primitive.syntax
        ),
        start,
        end,
    ))
}

/// The keyword a primitive's syntax starts with (`alt`, `note`, `!theme`…),
/// if it starts with one rather than a placeholder.
fn keyword(primitive: &puml_ide::primitives::Primitive) -> Option<&'static str> {
    let first = primitive.syntax.split_whitespace().next()?;
    let word = first.trim_start_matches(['!', '@']);
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase())).then_some(first)
}

const PARTICIPANT_KINDS: &[&str] = &[
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
];

/// Completions at `offset`: participant names where a participant is
/// expected (after an arrow, `note over`, `activate`…), statement keywords
/// at the start of a line.
/// In an activity diagram: lane names after `|`, else at the start of a
/// line the closer of the innermost open block, its middles (`else`,
/// `case`, `fork again`…) and the activity keywords.
pub fn completions(
    text: &str,
    offset: usize,
    participants: &[ParticipantSummary],
    outlines: &[ActivityOutline],
) -> Vec<CompletionItem> {
    let line_start = text[..offset.min(text.len())].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..offset.min(text.len())];
    let typed = before.trim_start();
    let mut items = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let lower = typed.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("skinparam ") {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let naming = words.is_empty() || (words.len() == 1 && !rest.ends_with(' '));
        if naming {
            for (name, kind) in puml_ide::skinparams::SKINPARAMS {
                items.push(CompletionItem {
                    label: name.to_string(),
                    kind: Some(CompletionItemKind::PROPERTY),
                    detail: Some(kind.describe()),
                    ..CompletionItem::default()
                });
            }
        } else if let Some((_, kind)) = puml_ide::skinparams::find(words[0]) {
            let values: &[&str] = match kind {
                puml_ide::skinparams::ValueKind::Boolean => &["true", "false"],
                puml_ide::skinparams::ValueKind::Choice(words) => words,
                _ => &[],
            };
            for value in values {
                items.push(CompletionItem {
                    label: value.to_string(),
                    kind: Some(CompletionItemKind::VALUE),
                    ..CompletionItem::default()
                });
            }
        }
        return items;
    }
    if lower.starts_with("!theme") && typed.contains(' ') {
        for theme in puml_ide::render::THEME_NAMES {
            items.push(CompletionItem {
                label: theme.to_string(),
                kind: Some(CompletionItemKind::ENUM_MEMBER),
                ..CompletionItem::default()
            });
        }
        return items;
    }
    if let Some(dollar) = typed.rfind('$') {
        if !typed[dollar..].contains(char::is_whitespace) {
            for (name, detail) in preprocessor_names(text) {
                if seen.insert(name.clone()) {
                    items.push(CompletionItem {
                        label: name,
                        kind: Some(CompletionItemKind::FUNCTION),
                        detail: Some(detail),
                        ..CompletionItem::default()
                    });
                }
            }
            return items;
        }
    }
    match diagram_kind_at(outlines, offset) {
        CompletionKind::Activity(outline) => activity_completions(text, typed, line_start, outline),
        CompletionKind::Sequence => sequence_completions(text, typed, line_start, participants),
    }
}

/// The relation arrows offered after a class name and a space.
const CLASS_ARROWS: &[(&str, &str)] = &[
    ("<|--", "extension"),
    ("*--", "composition"),
    ("o--", "aggregation"),
    ("-->", "association"),
    ("..>", "dependency"),
    ("..|>", "implementation"),
    ("--", "link"),
];

/// The keywords a class-diagram line starts with.
const CLASS_KEYWORDS: &[&str] = &[
    "class",
    "abstract class",
    "interface",
    "enum",
    "annotation",
    "entity",
    "object",
    "package",
    "namespace",
    "note",
    "hide",
    "show",
    "together",
    "left to right direction",
    "skinparam",
    "title",
];

/// The link arrows offered after a description element's name and a space
/// (each checked VALID between `[A]`/`[B]` and `(U)`/`:Act:` by PlantUML).
const DESCRIPTION_ARROWS: &[(&str, &str)] = &[
    ("-->", "link"),
    ("->", "short link (drawn sideways)"),
    ("..>", "dependency (dotted)"),
    ("--", "line without head"),
    ("..", "dotted line without head"),
    ("-up->", "link drawn upwards"),
    ("-down->", "link drawn downwards"),
    ("-left->", "link drawn to the left"),
    ("-right->", "link drawn to the right"),
    ("--0", "provides an interface (lollipop)"),
    ("--(", "requires an interface (socket)"),
    ("-[#red]->", "coloured link"),
    ("-[dashed]->", "dashed link"),
    ("-[hidden]-", "invisible link (layout only)"),
];

/// The element keywords of description diagrams, by the diagram kind they
/// fit (use case, component, deployment), then every other keyword of the
/// description grammar (`puml_syntax::description_grammar::KEYWORDS`), then
/// the other statements.
const USECASE_KEYWORDS: &[&str] = &["actor", "usecase", "actor/", "usecase/", "rectangle", "package"];
const COMPONENT_KEYWORDS: &[&str] = &[
    "component",
    "interface",
    "port",
    "portin",
    "portout",
    "package",
    "frame",
];
const DEPLOYMENT_KEYWORDS: &[&str] = &[
    "node", "artifact", "database", "cloud", "folder", "frame", "file", "queue", "stack", "storage",
];
const DESCRIPTION_STATEMENTS: &[&str] = &["note", "together", "left to right direction", "skinparam", "title"];

/// A description diagram's keywords, those that fit it first: the keyword
/// lists holding a keyword its elements already use lead (a use case
/// diagram is offered `actor`, `usecase` first).
fn description_keywords(outline: &puml_ide::class_symbols::ClassOutline) -> Vec<CompletionItem> {
    let used = |list: &[&str]| {
        outline
            .elements
            .iter()
            .any(|(_, keyword)| list.contains(&keyword.as_str()))
    };
    let mut lists = [USECASE_KEYWORDS, COMPONENT_KEYWORDS, DEPLOYMENT_KEYWORDS];
    // A stable sort: fitting lists first, else the order above.
    lists.sort_by_key(|list| !used(list));
    let mut seen = std::collections::BTreeSet::new();
    lists
        .iter()
        .flat_map(|list| list.iter())
        .chain(puml_syntax::description_grammar::KEYWORDS)
        .chain(DESCRIPTION_STATEMENTS)
        .filter(|k| seen.insert(**k))
        .enumerate()
        .map(|(rank, keyword)| CompletionItem {
            label: keyword.to_string(),
            kind: Some(CompletionItemKind::KEYWORD),
            // Kept in this order after the element names.
            sort_text: Some(format!("1{rank:03}")),
            ..CompletionItem::default()
        })
        .collect()
}

/// Completion inside a class diagram (`None` elsewhere, or where the
/// general completion applies): at a line start its element names and
/// keywords; after a name and a space the relation arrows; after an arrow
/// the element names.
pub fn class_completions(
    text: &str,
    offset: usize,
    classes: &[puml_ide::class_symbols::ClassOutline],
) -> Option<Vec<CompletionItem>> {
    let offset = offset.min(text.len());
    let outline = classes
        .iter()
        .find(|c| usize::from(c.range.start()) <= offset && offset <= usize::from(c.range.end()))?;
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let typed = text[line_start..offset].trim_start();
    if outline.legacy_activity {
        return legacy_completions(typed, outline);
    }
    let words: Vec<&str> = typed.split_whitespace().collect();
    let ends_in_blank = typed.ends_with(char::is_whitespace);
    let names = || -> Vec<CompletionItem> {
        outline
            .elements
            .iter()
            .map(|(name, keyword)| CompletionItem {
                label: name.clone(),
                kind: Some(CompletionItemKind::CLASS),
                detail: Some(keyword.clone()),
                ..CompletionItem::default()
            })
            .collect()
    };
    let is_arrow = |word: &str| {
        (word.contains("--") || word.contains("..") || word.contains("-") && word.len() > 1)
            && word
                .chars()
                .all(|c| "<>|*o.-#x}{+^=()[]".contains(c) || c.is_ascii_alphabetic())
            && !word.chars().all(|c| c.is_ascii_alphabetic())
    };
    match (words.len(), ends_in_blank) {
        (0, _) | (1, false) => {
            if typed.starts_with(['@', '!', '\'', '/']) {
                return None;
            }
            let mut items = names();
            if outline.description {
                items.extend(description_keywords(outline));
                return Some(items);
            }
            items.extend(CLASS_KEYWORDS.iter().map(|k| CompletionItem {
                label: k.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                ..CompletionItem::default()
            }));
            Some(items)
        }
        (1, true) if outline.description && is_description_keyword(words[0]) => None,
        (1, true) if outline.elements.iter().any(|(name, _)| name == words[0]) || !is_keyword(words[0]) => {
            Some(arrow_items(if outline.description {
                DESCRIPTION_ARROWS
            } else {
                CLASS_ARROWS
            }))
        }
        (2, true) | (3, false) if is_arrow(words[1]) => Some(names()),
        _ => None,
    }
}
/// Completion items for a diagram kind's arrows, each with its meaning.
fn arrow_items(arrows: &[(&str, &str)]) -> Vec<CompletionItem> {
    arrows
        .iter()
        .map(|(arrow, detail)| CompletionItem {
            label: arrow.to_string(),
            kind: Some(CompletionItemKind::OPERATOR),
            detail: Some(detail.to_string()),
            ..CompletionItem::default()
        })
        .collect()
}

/// The arrows offered after a legacy activity's name and a space (each
/// form of the legacy grammar `cargo xtask grammar-probe --legacy` found
/// VALID).
const LEGACY_ARROWS: &[(&str, &str)] = &[
    ("-->", "link"),
    ("->", "short link (drawn sideways)"),
    ("..>", "dotted link"),
    ("-up->", "link drawn upwards"),
    ("-down->", "link drawn downwards"),
    ("-left->", "link drawn to the left"),
    ("-right->", "link drawn to the right"),
    ("-[#red]->", "coloured link"),
    ("-->[label]", "link with a label"),
];

/// The statements a legacy activity diagram's line starts with besides a
/// link: an arrow from the last activity, a branch and its parts, a
/// partition, a note beside the last activity.
const LEGACY_KEYWORDS: &[(&str, &str)] = &[
    ("-->", "link from the last activity"),
    ("if", "branch: `if \"condition\" then`"),
    ("else", "the other branch of the open `if`"),
    ("endif", "closes the open `if`"),
    ("partition", "partition: `partition Name {` … `}`"),
    ("note", "note beside the last activity: `note right: text`"),
];

/// Whether `word` is a legacy activity arrow (`-->`, `-up->`,
/// `-[#red]->`, `-->[label]`): a run of `-`/`.` with a `>`.
fn is_legacy_arrow(word: &str) -> bool {
    word.starts_with(['-', '.']) && word.contains('>')
}

/// Completion inside a legacy activity diagram (`(*) --> "First"`): after
/// an arrow the activities, bars and `(*)`; after an activity and a space
/// the arrows; at a line start the activities and bars (a link's source),
/// `(*)` and the statement keywords; `None` where the general completion
/// applies (`skinparam`, `!theme`, preprocessor lines).
fn legacy_completions(typed: &str, outline: &puml_ide::class_symbols::ClassOutline) -> Option<Vec<CompletionItem>> {
    if typed.starts_with(['@', '!', '\'', '/']) {
        return None;
    }
    let words: Vec<&str> = typed.split_whitespace().collect();
    let ends_in_blank = typed.ends_with(char::is_whitespace);
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("skinparam") || w.eq_ignore_ascii_case("title"))
    {
        return None;
    }
    let targets = || -> Vec<CompletionItem> {
        outline
            .elements
            .iter()
            .map(|(name, keyword)| CompletionItem {
                label: name.clone(),
                kind: Some(if keyword == "bar" {
                    CompletionItemKind::OPERATOR
                } else {
                    CompletionItemKind::CLASS
                }),
                detail: Some(keyword.clone()),
                sort_text: Some(format!("0{name}")),
                ..CompletionItem::default()
            })
            .chain(std::iter::once(CompletionItem {
                label: "(*)".to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some("the start (as a source) or the end (as a target)".to_string()),
                sort_text: Some("1000".to_string()),
                ..CompletionItem::default()
            }))
            .collect()
    };
    // The word being written (none after a blank) and the words before it.
    let (before, _writing) = if ends_in_blank {
        (&words[..], None)
    } else {
        match words.split_last() {
            Some((last, before)) => (before, Some(*last)),
            None => (&words[..], None),
        }
    };
    // After an arrow: its target.
    if before.last().is_some_and(|w| is_legacy_arrow(w)) {
        return Some(targets());
    }
    // After an activity (or `(*)`) and a blank: the arrows.
    let source = typed.trim();
    if ends_in_blank && (source == "(*)" || outline.elements.iter().any(|(name, _)| name == source)) {
        return Some(arrow_items(LEGACY_ARROWS));
    }
    match before {
        // A line's first word: a link's source or a statement.
        [] => {
            let mut items = targets();
            items.extend(
                LEGACY_KEYWORDS
                    .iter()
                    .enumerate()
                    .map(|(rank, (keyword, detail))| CompletionItem {
                        label: keyword.to_string(),
                        kind: Some(CompletionItemKind::KEYWORD),
                        detail: Some(detail.to_string()),
                        sort_text: Some(format!("2{rank:03}")),
                        ..CompletionItem::default()
                    }),
            );
            Some(items)
        }
        _ => Some(Vec::new()),
    }
}

fn is_description_keyword(word: &str) -> bool {
    puml_sema::description::Shape::from_keyword(word).is_some()
        || DESCRIPTION_STATEMENTS.iter().any(|k| {
            k.split(' ')
                .next()
                .is_some_and(|first| first.eq_ignore_ascii_case(word))
        })
}

fn is_keyword(word: &str) -> bool {
    CLASS_KEYWORDS.iter().any(|k| {
        k.split(' ')
            .next()
            .is_some_and(|first| first.eq_ignore_ascii_case(word))
    })
}

/// Which completion applies where the cursor is: each diagram kind offers
/// what its lines start with. Class diagrams get a variant (and a function
/// beside [`sequence_completions`]) when their reading lands.
enum CompletionKind<'a> {
    Sequence,
    Activity(&'a ActivityOutline),
}

fn diagram_kind_at(outlines: &[ActivityOutline], offset: usize) -> CompletionKind<'_> {
    match activity_at(outlines, offset) {
        Some(outline) => CompletionKind::Activity(outline),
        None => CompletionKind::Sequence,
    }
}

/// The arrows offered after a participant and a space, most used first.
const SEQUENCE_ARROWS: &[(&str, &str)] = &[
    ("->", "synchronous message"),
    ("-->", "reply (dashed)"),
    ("->>", "asynchronous message (thin head)"),
    ("-->>", "dashed asynchronous message"),
    ("<-", "message from the right"),
    ("<--", "reply from the right"),
    ("<->", "both ways"),
    ("->x", "lost message"),
    ("->o", "message ending in a circle"),
    ("-\\", "half arrow (upper)"),
    ("-/", "half arrow (lower)"),
];

/// The statement keywords' rank against the participants' at the start of
/// a line: participants first once the diagram has messages (most lines
/// then start with a participant), keywords first in an empty diagram.
const RANK_CLOSER: &str = "0";
const RANK_FIRST: &str = "1";
const RANK_SECOND: &str = "2";

/// How a participant is written where a statement names it: its alias, or
/// its name (quoted when it is not one word).
fn written_participant(p: &ParticipantSummary) -> String {
    let name = p.alias.as_deref().unwrap_or(&p.name);
    if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// The participant a statement's first word names (by name, alias or
/// quoted name).
fn names_participant(participants: &[ParticipantSummary], word: &str) -> bool {
    let unquoted = word.trim_matches('"');
    participants
        .iter()
        .any(|p| p.name == unquoted || p.alias.as_deref() == Some(unquoted))
}

fn sequence_completions(
    text: &str,
    typed: &str,
    line_start: usize,
    participants: &[ParticipantSummary],
) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let participant_items = |rank: &str, seen: &mut std::collections::BTreeSet<String>| {
        let mut found = Vec::new();
        for p in participants {
            let label = written_participant(p);
            if seen.insert(label.clone()) {
                let how = if p.declared_line.is_some() { "" } else { " (implicit)" };
                found.push(CompletionItem {
                    label: label.clone(),
                    kind: Some(CompletionItemKind::VARIABLE),
                    detail: Some(format!("{} {}{how}", p.kind.keyword(), p.name)),
                    sort_text: Some(format!("{rank}{label}")),
                    ..CompletionItem::default()
                });
            }
        }
        found
    };
    let expects_participant = typed.contains("->")
        || typed.contains("<-")
        || [
            "note over",
            "note left of",
            "note right of",
            "activate",
            "deactivate",
            "destroy",
            "create",
            "ref over",
        ]
        .iter()
        .any(|k| typed.starts_with(k) && typed.len() > k.len() && typed[k.len()..].starts_with([' ', '\t']));
    if expects_participant {
        return participant_items(RANK_FIRST, &mut seen);
    }
    // After a participant and a space: the arrows.
    if let Some((first, rest)) = typed.split_once([' ', '\t']) {
        if rest.trim().is_empty() && names_participant(participants, first) {
            for (index, (arrow, meaning)) in SEQUENCE_ARROWS.iter().enumerate() {
                items.push(CompletionItem {
                    label: arrow.to_string(),
                    kind: Some(CompletionItemKind::OPERATOR),
                    detail: Some(meaning.to_string()),
                    sort_text: Some(format!("{index:02}")),
                    ..CompletionItem::default()
                });
            }
        }
        return items;
    }
    if typed.contains(char::is_whitespace) {
        return items;
    }
    // The start of a line: the closer of the open block, the participants
    // and the statement keywords.
    if let Some(closer) = open_block_closer(&text[..line_start]) {
        seen.insert(closer.to_string());
        items.push(CompletionItem {
            label: closer.to_string(),
            kind: Some(CompletionItemKind::KEYWORD),
            detail: Some("closes the open block".to_string()),
            preselect: Some(true),
            sort_text: Some(format!("{RANK_CLOSER}{closer}")),
            ..CompletionItem::default()
        });
    }
    let has_messages = participants.iter().any(|p| p.messages_sent > 0);
    let (participant_rank, keyword_rank) = if has_messages {
        (RANK_FIRST, RANK_SECOND)
    } else {
        (RANK_SECOND, RANK_FIRST)
    };
    let named = participant_items(participant_rank, &mut seen);
    let mut keywords = Vec::new();
    for kind in PARTICIPANT_KINDS {
        if seen.insert(kind.to_string()) {
            keywords.push(CompletionItem {
                label: kind.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some("participant declaration".to_string()),
                sort_text: Some(format!("{keyword_rank}{kind}")),
                ..CompletionItem::default()
            });
        }
    }
    for primitive in puml_ide::primitives::catalog() {
        // Activity diagrams have their own completion (`activity_completions`).
        if primitive.category == puml_ide::primitives::Category::Activity {
            continue;
        }
        let Some(keyword) = keyword(primitive) else {
            continue;
        };
        if seen.insert(keyword.to_string()) {
            keywords.push(CompletionItem {
                label: keyword.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(primitive.meaning.to_string()),
                sort_text: Some(format!("{keyword_rank}{keyword}")),
                ..CompletionItem::default()
            });
        }
    }
    if has_messages {
        items.extend(named);
        items.extend(keywords);
    } else {
        items.extend(keywords);
        items.extend(named);
    }
    items
}

/// `$names` the preprocessor defines in `text`: procedures, functions and
/// variables, with the line that defines each.
pub fn preprocessor_names(text: &str) -> Vec<(String, String)> {
    let mut names = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let lower = trimmed.to_ascii_lowercase();
        let rest = [
            "!procedure ",
            "!unquoted procedure ",
            "!function ",
            "!unquoted function ",
            "!global ",
            "!local ",
        ]
        .iter()
        .find_map(|p| lower.starts_with(p).then(|| &trimmed[p.len()..]))
        .or_else(|| trimmed.strip_prefix('!').filter(|r| r.starts_with('$')));
        let Some(rest) = rest else {
            continue;
        };
        let rest = rest.trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| *c == '$' || c.is_alphanumeric() || *c == '_')
            .collect();
        if name.starts_with('$') && name.len() > 1 {
            names.push((name, trimmed.to_string()));
        }
    }
    names
}

/// The `$name(` call around `offset` on its line, with the index of the
/// argument the cursor is in.
pub fn call_at(text: &str, offset: usize) -> Option<(String, u32)> {
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..offset];
    let mut depth = 0i32;
    let mut commas = 0u32;
    for (at, ch) in before.char_indices().rev() {
        match ch {
            ')' => depth += 1,
            ',' if depth == 0 => commas += 1,
            '(' if depth == 0 => {
                let head = &before[..at];
                let name: String = head
                    .chars()
                    .rev()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                return name.starts_with('$').then_some((name, commas));
            }
            '(' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The closer the innermost block open before `text`'s end waits for.
pub fn open_block_closer(text: &str) -> Option<&'static str> {
    let mut stack: Vec<&'static str> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let lower = line.to_ascii_lowercase();
        if let Some(top) = stack.last() {
            let squashed = lower.replace(' ', "");
            if squashed == top.replace(' ', "") || (*top == "end" && (lower == "end" || lower.starts_with("end "))) {
                stack.pop();
                continue;
            }
            if *top == "'/" {
                continue;
            }
        }
        if let Some(closer) = opener(line) {
            stack.push(closer);
        }
    }
    stack.last().copied()
}

/// Block openers and the closers they wait for.
fn opener(line: &str) -> Option<&'static str> {
    let first = line.split_whitespace().next()?;
    let lower = first.to_ascii_lowercase();
    match lower.as_str() {
        "alt" | "opt" | "loop" | "par" | "par2" | "break" | "critical" | "group" | "box" => Some("end"),
        "note" | "hnote" | "rnote" if !line.contains(':') => Some("end note"),
        "ref" if !line.contains(':') => Some("end ref"),
        "legend" => Some("endlegend"),
        _ if line.starts_with("/'") && !line.contains("'/") => Some("'/"),
        _ => None,
    }
}

/// Folding ranges for groups, boxes, block notes and refs, legends and
/// block comments; in activity diagrams, for every block (an unclosed one
/// folds to the end of its diagram), multi-line actions and block notes.
pub fn folding_ranges(text: &str, outlines: &[ActivityOutline], classes: &[ClassStructure]) -> Vec<FoldingRange> {
    let table = LineTable::new(text);
    // Diagrams whose blocks the model or the tree gives (activity, class):
    // the text scan adds only comments and legends there.
    let activity_lines: Vec<(u32, u32)> = outlines
        .iter()
        .map(|o| o.range)
        .chain(classes.iter().map(|c| c.range))
        .map(|range| (line_of(&table, range.start()), line_of(&table, range.end())))
        .collect();
    let mut stack: Vec<(u32, &'static str)> = Vec::new();
    let mut ranges = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = number as u32;
        let in_activity = activity_lines
            .iter()
            .any(|(first, last)| *first <= number && number <= *last);
        if let Some((start, closer)) = stack.last().copied() {
            let closes = if closer == "'/" {
                line.contains("'/")
            } else {
                let lower = line.to_ascii_lowercase();
                lower == closer
                    || (closer == "end" && (lower == "end" || lower.starts_with("end ") && lower != "end note"))
                    || (closer != "end" && lower.replace(' ', "") == closer.replace(' ', ""))
            };
            if closes {
                stack.pop();
                if number > start {
                    ranges.push(FoldingRange {
                        start_line: start,
                        start_character: None,
                        end_line: number,
                        end_character: None,
                        kind: Some(if closer == "'/" {
                            FoldingRangeKind::Comment
                        } else {
                            FoldingRangeKind::Region
                        }),
                        collapsed_text: None,
                    });
                }
                continue;
            }
            if closer == "'/" {
                continue;
            }
        }
        // In an activity diagram the model gives the blocks and notes; the
        // text only its comments and legends.
        let opened = opener(line).filter(|closer| !in_activity || matches!(*closer, "'/" | "endlegend"));
        if let Some(closer) = opened {
            stack.push((number, closer));
        }
    }
    for outline in outlines {
        let last = body_end(text, outline.range);
        for block in &outline.blocks {
            let start = line_of(&table, block.opener.start());
            let end = line_of(&table, block.closer.map_or(last, |c| c.start()));
            push_region(&mut ranges, start, end);
        }
        for step in &outline.multiline_steps {
            push_region(
                &mut ranges,
                line_of(&table, step.start()),
                line_of(&table, trimmed_end(text, *step)),
            );
        }
    }
    for structure in classes {
        for fold in &structure.folds {
            push_region(&mut ranges, line_of(&table, fold.start()), line_of(&table, fold.end()));
        }
    }
    ranges
}

fn push_region(ranges: &mut Vec<FoldingRange>, start_line: u32, end_line: u32) {
    if end_line > start_line {
        ranges.push(FoldingRange {
            start_line,
            start_character: None,
            end_line,
            end_character: None,
            kind: Some(FoldingRangeKind::Region),
            collapsed_text: None,
        });
    }
}

fn line_of(table: &LineTable<'_>, offset: TextSize) -> u32 {
    table.position(usize::from(offset)).line
}

/// The end of `range` without the line break and blanks that close it.
fn trimmed_end(text: &str, range: TextRange) -> TextSize {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()).min(text.len()));
    let kept = text.get(start..end).map_or(0, |s| s.trim_end().len());
    TextSize::from((start + kept) as u32)
}

/// Where the last line of a diagram before its `@end…` line ends: an
/// unclosed block reaches there.
fn body_end(text: &str, diagram: TextRange) -> TextSize {
    let start = usize::from(diagram.start());
    let end = usize::from(trimmed_end(text, diagram));
    let Some(body) = text.get(start..end) else {
        return diagram.end();
    };
    let last_line_start = body.rfind('\n').map_or(0, |n| n + 1);
    let last_line = body[last_line_start..].trim();
    if last_line.starts_with("@end") && last_line_start > 0 {
        let before = body[..last_line_start - 1].trim_end_matches('\r').len();
        return TextSize::from((start + before) as u32);
    }
    TextSize::from(end as u32)
}

/// The activity diagram `offset` lies in.
pub fn activity_at(outlines: &[ActivityOutline], offset: usize) -> Option<&ActivityOutline> {
    let offset = TextSize::from(u32::try_from(offset).unwrap_or(u32::MAX));
    outlines.iter().find(|o| o.contains(offset))
}

/// Blocks nested deeper than this are listed beside their ancestor at this
/// depth: the protocol's nested symbols are serialised recursively.
const MAX_SYMBOL_DEPTH: usize = 32;

/// Swimlanes and blocks of one activity diagram, blocks nested by the
/// model's pairing (built bottom-up, without recursion).
fn activity_symbols(text: &str, table: &LineTable<'_>, outline: &ActivityOutline) -> Vec<DocumentSymbol> {
    let mut top: Vec<(TextSize, DocumentSymbol)> = outline
        .lanes
        .iter()
        .map(|lane| {
            let range = table.range(TextRange::new(lane.range.start(), trimmed_end(text, lane.range)));
            (
                lane.range.start(),
                symbol(lane.name.clone(), "swimlane".to_string(), SymbolKind::OBJECT, range),
            )
        })
        .collect();
    let last = body_end(text, outline.range);
    // The parent each block is listed under (depth-capped).
    let mut shown_parent: Vec<Option<usize>> = Vec::with_capacity(outline.blocks.len());
    for block in &outline.blocks {
        let parent = block.parent.and_then(|p| {
            let ancestor = outline.blocks.get(p)?;
            if ancestor.depth < MAX_SYMBOL_DEPTH {
                Some(p)
            } else {
                shown_parent.get(p).copied().flatten()
            }
        });
        shown_parent.push(parent);
    }
    let mut children: Vec<Vec<DocumentSymbol>> = vec![Vec::new(); outline.blocks.len()];
    let mut roots: Vec<(TextSize, DocumentSymbol)> = Vec::new();
    for (index, block) in outline.blocks.iter().enumerate().rev() {
        let mut own = children.get_mut(index).map(std::mem::take).unwrap_or_default();
        own.reverse();
        let symbol = block_symbol(text, table, block, last, own);
        match shown_parent.get(index).copied().flatten() {
            Some(parent) if parent < index => {
                if let Some(list) = children.get_mut(parent) {
                    list.push(symbol);
                }
            }
            _ => roots.push((block.opener.start(), symbol)),
        }
    }
    roots.reverse();
    top.extend(roots);
    top.sort_by_key(|(at, _)| *at);
    top.into_iter().map(|(_, symbol)| symbol).collect()
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelled out
fn block_symbol(
    text: &str,
    table: &LineTable<'_>,
    block: &ActivityBlock,
    diagram_end: TextSize,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let opener_end = trimmed_end(text, block.opener);
    let end = block
        .closer
        .map_or(diagram_end, |c| trimmed_end(text, c))
        .max(opener_end);
    let selection_range = table.range(TextRange::new(block.opener.start(), opener_end));
    let name = match (block.kind, block.label.is_empty()) {
        (kind, true) => kind.keyword().to_string(),
        (ActivityBlockKind::Container(_), false) => format!("{} {}", block.kind.keyword(), block.label),
        (kind, false) => format!("{} ({})", kind.keyword(), block.label),
    };
    let kind = match block.kind {
        ActivityBlockKind::If | ActivityBlockKind::Switch => SymbolKind::ENUM,
        ActivityBlockKind::While | ActivityBlockKind::Repeat => SymbolKind::OPERATOR,
        ActivityBlockKind::Fork | ActivityBlockKind::Split => SymbolKind::STRUCT,
        ActivityBlockKind::Container(ContainerKind::Package) => SymbolKind::PACKAGE,
        ActivityBlockKind::Container(_) => SymbolKind::NAMESPACE,
    };
    DocumentSymbol {
        name,
        detail: Some(match block.closer {
            Some(_) => format!("… {}", block.closer_text),
            None => format!("never closed by `{}`", block.closer_text),
        }),
        kind,
        tags: None,
        deprecated: None,
        range: Range::new(selection_range.start, table.position(usize::from(end))),
        selection_range,
        children: (!children.is_empty()).then_some(children),
    }
}

/// The activity keywords offered at the start of a line, each with the
/// catalog primitive that explains it.
const ACTIVITY_KEYWORDS: &[(&str, &str)] = &[
    ("start", "start and stop"),
    ("stop", "start and stop"),
    ("end", "start and stop"),
    ("kill", "start and stop"),
    ("detach", "start and stop"),
    ("if", "if"),
    ("switch", "switch"),
    ("while", "while"),
    ("repeat", "repeat"),
    ("fork", "fork"),
    ("split", "split"),
    ("partition", "partition"),
    ("group", "partition"),
    ("package", "partition"),
    ("rectangle", "partition"),
    ("card", "partition"),
    ("note", "activity note"),
    ("floating note", "activity note"),
    ("title", "title"),
    ("header", "header/footer"),
    ("footer", "header/footer"),
    ("caption", "caption"),
    ("legend", "legend"),
    ("scale", "scale"),
    ("skinparam", "skinparam"),
    ("!theme", "theme"),
];

fn meaning_of(primitive: &str) -> Option<String> {
    puml_ide::primitives::catalog()
        .iter()
        .find(|p| p.name == primitive)
        .map(|p| p.meaning.to_string())
}

fn keyword_item(label: &str, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        detail,
        ..CompletionItem::default()
    }
}

fn activity_completions(text: &str, typed: &str, line_start: usize, outline: &ActivityOutline) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    if let Some(rest) = typed.strip_prefix('|') {
        if !rest.contains('|') {
            // The line being typed reads as a lane too: not offered.
            let line_end = text[line_start..].find('\n').map_or(text.len(), |n| line_start + n);
            let typed_here = |lane: &&puml_ide::outline::ActivityLane| {
                (line_start..=line_end).contains(&usize::from(lane.range.start()))
            };
            for lane in outline.lanes.iter().filter(|lane| !typed_here(lane)) {
                if !lane.code.is_empty() && seen.insert(lane.code.clone()) {
                    items.push(CompletionItem {
                        label: lane.code.clone(),
                        kind: Some(CompletionItemKind::VARIABLE),
                        detail: Some(format!("swimlane {}", lane.name)),
                        insert_text: Some(format!("{}|", lane.code)),
                        ..CompletionItem::default()
                    });
                }
            }
        }
        return items;
    }
    if typed.contains(char::is_whitespace) {
        return items;
    }
    let at = TextSize::from(u32::try_from(line_start).unwrap_or(u32::MAX));
    // Inside the text of a multi-line action or note: text, not statements.
    if outline
        .multiline_steps
        .iter()
        .any(|step| step.start() < at && at < trimmed_end(text, *step))
    {
        return items;
    }
    let open = outline.open_blocks_at(at);
    if let Some(innermost) = open.last() {
        if innermost.closer.is_none() {
            let mut closers = vec![innermost.closer_text];
            if innermost.kind == ActivityBlockKind::Fork {
                closers.push(if innermost.closer_text == "end merge" {
                    "end fork"
                } else {
                    "end merge"
                });
            }
            for closer in closers {
                if seen.insert(closer.to_string()) {
                    let mut item =
                        keyword_item(closer, Some(format!("closes the open `{}`", innermost.kind.keyword())));
                    item.preselect = Some(items.is_empty());
                    items.push(item);
                }
            }
        }
        for middle in innermost.kind.middles() {
            if seen.insert(middle.to_string()) {
                items.push(keyword_item(
                    middle,
                    Some(format!("a branch of the open `{}`", innermost.kind.keyword())),
                ));
            }
        }
    }
    if open
        .iter()
        .any(|b| matches!(b.kind, ActivityBlockKind::While | ActivityBlockKind::Repeat))
        && seen.insert("break".to_string())
    {
        items.push(keyword_item("break", meaning_of("break")));
    }
    for (keyword, primitive) in ACTIVITY_KEYWORDS {
        if seen.insert(keyword.to_string()) {
            items.push(keyword_item(keyword, meaning_of(primitive)));
        }
    }
    for primitive in puml_ide::primitives::catalog() {
        if primitive.category != puml_ide::primitives::Category::Preprocessor {
            continue;
        }
        if let Some(keyword) = keyword(primitive) {
            if seen.insert(keyword.to_string()) {
                items.push(keyword_item(keyword, Some(primitive.meaning.to_string())));
            }
        }
    }
    items
}

/// For an opener or closer on the line `line_start..line_end`: where the
/// other end of its block is, as the model pairs them.
fn block_pairing(text: &str, outline: &ActivityOutline, line_start: usize, line_end: usize) -> Option<String> {
    let on_line = |range: TextRange| (line_start..=line_end).contains(&usize::from(range.start()));
    let line_number = |at: TextSize| text.get(..usize::from(at)).map_or(0, |t| t.matches('\n').count()) + 1;
    let name = |block: &ActivityBlock| match block.label.is_empty() {
        true => format!("`{}`", block.kind.keyword()),
        false => format!("`{}` ({})", block.kind.keyword(), block.label),
    };
    if let Some(block) = outline.blocks.iter().rev().find(|b| on_line(b.opener)) {
        return Some(match block.closer {
            Some(closer) => format!("This {} closes on line {}.", name(block), line_number(closer.start())),
            None => format!(
                "This {} is never closed: PlantUML closes it at the end of the diagram.",
                name(block)
            ),
        });
    }
    let block = outline.blocks.iter().find(|b| b.closer.is_some_and(on_line))?;
    Some(format!(
        "Closes the {} of line {}.",
        name(block),
        line_number(block.opener.start())
    ))
}

/// Hover for an activity keyword (`word`, on `line`): the primitive it
/// belongs to, what it does and what closes its block.
fn activity_hover(word: &str, line: &str) -> Option<String> {
    let word = word.to_ascii_lowercase();
    let line = line.trim().to_ascii_lowercase();
    let squashed: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let container_closer = if line.contains('{') { "}" } else { "end group" };
    let (primitive, closer) = match word.as_str() {
        "if" | "elseif" | "else" | "endif" => ("if", Some("endif")),
        "while" if squashed.starts_with("repeat") => ("repeat", Some("repeat while")),
        "while" | "endwhile" => ("while", Some("endwhile")),
        "repeat" | "backward" => ("repeat", Some("repeat while")),
        "switch" | "case" | "endswitch" => ("switch", Some("endswitch")),
        "fork" | "merge" | "endfork" => ("fork", Some("end fork` or `end merge")),
        "split" | "endsplit" => ("split", Some("end split")),
        "again" if squashed.starts_with("split") => ("split", Some("end split")),
        "again" => ("fork", Some("end fork` or `end merge")),
        "partition" | "group" | "package" | "rectangle" | "card" => ("partition", Some(container_closer)),
        "note" | "floating" => ("activity note", (!line.contains(':')).then_some("end note")),
        "break" => ("break", None),
        "start" | "stop" | "kill" | "detach" => ("start and stop", None),
        "end" => match squashed.as_str() {
            s if s.starts_with("end fork") || s.starts_with("end merge") => ("fork", Some("end fork` or `end merge")),
            s if s.starts_with("end split") => ("split", Some("end split")),
            s if s.starts_with("end group") => ("partition", Some("end group")),
            s if s.starts_with("end note") => ("activity note", Some("end note")),
            s if s.starts_with("end if") => ("if", Some("endif")),
            s if s.starts_with("end while") => ("while", Some("endwhile")),
            _ => ("start and stop", None),
        },
        _ => return None,
    };
    let found = puml_ide::primitives::catalog()
        .iter()
        .find(|p| p.category == puml_ide::primitives::Category::Activity && p.name == primitive)?;
    let mut out = format!("**{}** (activity): {}", found.name, found.meaning);
    if let Some(closer) = closer {
        out.push_str(&format!(" Closed by `{closer}`."));
    }
    out.push_str(&format!("\n\n```plantuml\n{}\n```", found.syntax));
    Some(out)
}

/// The token types, in the order of [`HighlightClass::ALL`] minus plain text
/// (label text keeps the editor's default colour).
pub fn semantic_legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: HighlightClass::ALL.iter().filter_map(|c| token_type(*c)).collect(),
        token_modifiers: Vec::new(),
    }
}

fn token_type(class: HighlightClass) -> Option<SemanticTokenType> {
    Some(match class {
        HighlightClass::Comment => SemanticTokenType::COMMENT,
        HighlightClass::Keyword => SemanticTokenType::KEYWORD,
        HighlightClass::Directive => SemanticTokenType::MACRO,
        HighlightClass::Participant => SemanticTokenType::VARIABLE,
        HighlightClass::String => SemanticTokenType::STRING,
        HighlightClass::Arrow => SemanticTokenType::OPERATOR,
        HighlightClass::Color => SemanticTokenType::ENUM_MEMBER,
        HighlightClass::Stereotype => SemanticTokenType::DECORATOR,
        HighlightClass::Number => SemanticTokenType::NUMBER,
        HighlightClass::Text => return None,
        HighlightClass::ClassName => SemanticTokenType::CLASS,
        HighlightClass::Package => SemanticTokenType::NAMESPACE,
        HighlightClass::Field => SemanticTokenType::PROPERTY,
        HighlightClass::Method => SemanticTokenType::METHOD,
        HighlightClass::Modifier => SemanticTokenType::MODIFIER,
        HighlightClass::Generic => SemanticTokenType::TYPE_PARAMETER,
    })
}

/// Encodes highlights as LSP semantic tokens (relative lines and UTF-16
/// columns); a token over several lines becomes one per line.
pub fn semantic_tokens(text: &str, highlights: &[Highlight]) -> Vec<SemanticToken> {
    let legend = semantic_legend();
    let table = LineTable::new(text);
    let mut tokens = Vec::new();
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for highlight in highlights {
        let Some(kind) = token_type(highlight.class) else {
            continue;
        };
        let index = legend.token_types.iter().position(|t| *t == kind).unwrap_or(0) as u32;
        let (start, end) = (usize::from(highlight.range.start()), usize::from(highlight.range.end()));
        let mut piece_start = start;
        for piece in text[start..end].split_inclusive('\n') {
            let piece_text = piece.trim_end_matches(['\n', '\r']);
            let length = piece_text.encode_utf16().count() as u32;
            let position = table.position(piece_start);
            piece_start += piece.len();
            if length == 0 {
                continue;
            }
            let delta_line = position.line - last_line;
            let delta_start = if delta_line == 0 {
                position.character - last_start
            } else {
                position.character
            };
            tokens.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: index,
                token_modifiers_bitset: 0,
            });
            last_line = position.line;
            last_start = position.character;
        }
    }
    tokens
}

/// The one edit that turns `old` into `new` (common prefix and suffix
/// kept), in the integer units LSP counts (5 per token).
pub fn token_delta(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    if prefix == old.len() && prefix == new.len() {
        return None;
    }
    Some(SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: ((old.len() - prefix - suffix) * 5) as u32,
        data: Some(new[prefix..new.len() - suffix].to_vec()),
    })
}

/// `!include` / `!includesub` targets: byte range of the path and the path.
pub fn include_targets(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let lower = trimmed.to_ascii_lowercase();
        if let Some(directive) = ["!include_many", "!include_once", "!includesub", "!include"]
            .iter()
            .find(|d| lower.starts_with(**d))
        {
            let rest = &trimmed[directive.len()..];
            let target = rest.trim().trim_end_matches(['\r', '\n']);
            let target = target.split('!').next().unwrap_or(target).trim();
            let target = target.trim_start_matches('<').trim_end_matches('>');
            let is_url = target.contains("://");
            if !target.is_empty() && !is_url {
                if let Some(at) = line.find(target) {
                    let _ = indent;
                    out.push((offset + at, offset + at + target.len(), target.to_string()));
                }
            }
        }
        offset += line.len();
    }
    out
}

/// Word → line → each enclosing block → the whole text.
pub fn selection_range(
    text: &str,
    table: &LineTable<'_>,
    folds: &[FoldingRange],
    position: Position,
) -> SelectionRange {
    let offset = table.offset(position);
    let mut ranges: Vec<Range> = Vec::new();
    if let Some((start, word)) = word_at(text, offset) {
        ranges.push(Range::new(table.position(start), table.position(start + word.len())));
    }
    let line_start = table.offset(Position::new(position.line, 0));
    let line_end = text[line_start..].find('\n').map_or(text.len(), |n| line_start + n);
    ranges.push(Range::new(table.position(line_start), table.position(line_end)));
    let mut enclosing: Vec<&FoldingRange> = folds
        .iter()
        .filter(|f| f.start_line <= position.line && position.line <= f.end_line)
        .collect();
    enclosing.sort_by_key(|f| f.end_line - f.start_line);
    for fold in enclosing {
        let start = table.offset(Position::new(fold.start_line, 0));
        let end_start = table.offset(Position::new(fold.end_line, 0));
        let end = text[end_start..].find('\n').map_or(text.len(), |n| end_start + n);
        ranges.push(Range::new(table.position(start), table.position(end)));
    }
    ranges.push(Range::new(Position::new(0, 0), table.position(text.len())));
    ranges.dedup();
    let mut parent: Option<Box<SelectionRange>> = None;
    for range in ranges.into_iter().rev() {
        parent = Some(Box::new(SelectionRange { range, parent }));
    }
    parent.map(|b| *b).unwrap_or(SelectionRange {
        range: Range::new(position, position),
        parent: None,
    })
}

#[cfg(test)]
mod tests {
    fn class_outlines_of(text: &str) -> Vec<puml_ide::class_symbols::ClassOutline> {
        let mut host = puml_ide::AnalysisHost::new();
        let file = host.add_file(None, text.to_string());
        host.analysis().class_outlines(file).expect("not cancelled")
    }

    /// What the server reads: the outlines with the typed line blanked
    /// when it stops the block from reading as a class or description one.
    fn completion_outlines_of(text: &str, offset: usize) -> Vec<puml_ide::class_symbols::ClassOutline> {
        let mut host = puml_ide::AnalysisHost::new();
        let file = host.add_file(None, text.to_string());
        host.analysis()
            .completion_outlines(file, puml_syntax::TextSize::from(offset as u32))
            .expect("not cancelled")
    }

    const CLASSES: &str = "@startuml\nclass Car\ninterface Engine\nCar \nCar *-- \n\n@enduml\n";

    fn labels_at(text: &str, line: usize, column: usize) -> Option<Vec<String>> {
        let offset = text.split_inclusive('\n').take(line).map(str::len).sum::<usize>() + column;
        class_completions(text, offset, &completion_outlines_of(text, offset))
            .map(|items| items.into_iter().map(|i| i.label).collect())
    }

    #[test]
    fn class_completion_offers_names_and_keywords_then_arrows_then_names() {
        let start = labels_at(CLASSES, 5, 0).expect("inside a class diagram");
        assert!(
            start.contains(&"Car".to_string()) && start.contains(&"Engine".to_string()),
            "{start:?}"
        );
        assert!(start.contains(&"interface".to_string()), "{start:?}");
        let arrows = labels_at(CLASSES, 3, 4).expect("after a name");
        assert_eq!(arrows, vec!["<|--", "*--", "o--", "-->", "..>", "..|>", "--"]);
        let after_arrow = labels_at(CLASSES, 4, 8).expect("after an arrow");
        assert_eq!(after_arrow, vec!["Car", "Engine"]);
        // Outside the class diagram (the `@startuml` line's end is inside
        // its range, but a sequence file has no class outline).
        assert!(class_completions(
            "@startuml\nA -> B\n@enduml\n",
            10,
            &class_outlines_of("@startuml\nA -> B\n@enduml\n")
        )
        .is_none());
    }

    /// A use case diagram, `{}` where the cursor's line goes.
    const DESCRIPTION: &str =
        "@startuml\nactor User\nrectangle Shop <<system>> {\n  (Buy) as B\n  [Cart]\n}\n{}\n@enduml\n";

    /// The labels offered at the end of `typed` written on the cursor's line.
    fn description_labels(typed: &str) -> Option<Vec<String>> {
        let text = DESCRIPTION.replace("{}", typed);
        labels_at(&text, 6, typed.len())
    }

    #[test]
    fn description_completion_offers_names_fitting_keywords_then_arrows_then_names() {
        let start = description_labels("").expect("inside a description diagram");
        // Elements by the code a link names them with (`Shop.Cart` in a
        // link would be a new element for PlantUML).
        assert!(
            start.contains(&"User".to_string()) && start.contains(&"Cart".to_string()),
            "{start:?}"
        );
        // A use case diagram's keywords come first among the keywords.
        let keywords: Vec<&String> = start.iter().skip(3).collect();
        assert_eq!(
            keywords[..2],
            [&"actor".to_string(), &"usecase".to_string()],
            "{start:?}"
        );
        assert!(start.contains(&"node".to_string()) && !start.contains(&"class".to_string()));
        // The half-written line stops the block from reading as a
        // description diagram: completion reads it without that line.
        let arrows = description_labels("User ").expect("after a name");
        assert!(
            arrows.starts_with(&["-->".to_string(), "->".to_string(), "..>".to_string()]),
            "{arrows:?}"
        );
        assert!(arrows.contains(&"-up->".to_string()) && arrows.contains(&"--0".to_string()));
        let after_arrow = description_labels("User --> ").expect("after an arrow");
        assert_eq!(after_arrow, vec!["User", "B", "Cart"]);
        // After an element keyword and a blank: a new name, nothing to offer.
        assert!(description_labels("actor ").is_none());
    }

    #[test]
    fn description_outline_hover_and_folds() {
        let text = "@startuml\nactor User\nrectangle Shop <<system>> {\n  (Buy) as B <<main>>\n  [Cart]\n}\nUser --> B\nB ..> [Cart]\n@enduml\n";
        let (host, file) = puml_ide::AnalysisHost::single_file(None, text.to_string(), Default::default());
        let analysis = host.analysis();
        let explanations = analysis.explain(file).expect("not cancelled");
        let classes = analysis.class_structures(file).expect("not cancelled");
        let symbols = document_symbols(text, &explanations, &[], &classes);
        let got: Vec<String> = symbols
            .iter()
            .map(|s| {
                let inner: Vec<String> = s
                    .children
                    .as_deref()
                    .unwrap_or_default()
                    .iter()
                    .map(|c| format!("{}:{:?}:{}", c.name, c.kind, c.detail.clone().unwrap_or_default()))
                    .collect();
                format!("{}:{:?}[{}]", s.name, s.kind, inner.join(","))
            })
            .collect();
        assert_eq!(
            got,
            [
                "User:Object[]",
                "Shop:Package[B:Event:usecase <<main>>,Cart:Module:component]"
            ],
            "{symbols:?}"
        );
        let folds: Vec<(u32, u32)> = folding_ranges(text, &[], &classes)
            .iter()
            .map(|f| (f.start_line, f.end_line))
            .collect();
        assert_eq!(folds, vec![(2, 5)]);
        let offset = puml_syntax::TextSize::from(text.find("B ..>").unwrap() as u32);
        let element = analysis.class_element_at(file, offset).unwrap().expect("B");
        let markdown = class_hover(&element);
        assert!(
            markdown.starts_with("**usecase** `Shop.B` (shown as \"Buy\") `<<main>>`\n\nIn `Shop`."),
            "{markdown}"
        );
        assert!(markdown.contains("Links out (1): `Shop.Cart`"), "{markdown}");
        assert!(markdown.contains("Links in (1): `User`"), "{markdown}");
        assert!(!markdown.contains("member"), "{markdown}");
    }

    #[test]
    fn class_hover_lists_kind_members_and_relations() {
        let text = "@startuml\nclass Car {\n  +drive()\n}\nCar *-- Wheel\nDriver --> Car\n@enduml\n";
        let mut host = puml_ide::AnalysisHost::new();
        let file = host.add_file(None, text.to_string());
        let offset = puml_syntax::TextSize::from(text.find("Car *--").unwrap() as u32);
        let element = host.analysis().class_element_at(file, offset).unwrap().expect("Car");
        let markdown = class_hover(&element);
        assert!(markdown.starts_with("**class** `Car`"), "{markdown}");
        assert!(markdown.contains("1 member(s):\n- `+drive()`"), "{markdown}");
        assert!(markdown.contains("Relations out (1): `Wheel`"), "{markdown}");
        assert!(markdown.contains("Relations in (1): `Driver`"), "{markdown}");
    }

    use super::*;

    const SOURCE: &str = "@startuml\nparticipant Alice as A\nA -> Bob : hi\nalt ok\n  Bob -> A\nelse no\n  note over A\n    text\n  end note\nend\n/' a\n b '/\n@enduml\n";

    fn explain() -> Vec<Explanation> {
        vec![puml_ide::explain::explain(SOURCE)]
    }

    fn participants(text: &str) -> Vec<ParticipantSummary> {
        puml_ide::explain::explain(text).participants
    }

    #[test]
    fn completion_knows_skinparams_themes_blocks_and_procedures() {
        let labels = |text: &str| -> Vec<String> {
            let at = text.find('|').expect("cursor");
            let text = text.replacen('|', "", 1);
            completions(&text, at, &[], &[]).into_iter().map(|c| c.label).collect()
        };
        assert!(labels("skinparam Arr|").contains(&"ArrowColor".to_string()));
        assert_eq!(labels("skinparam Shadowing |"), vec!["true", "false"]);
        assert!(labels("!theme |").contains(&"plain".to_string()));
        assert_eq!(labels("alt x\n  A -> B\n|")[0], "end");
        assert_eq!(labels("loop\nalt x\nend\n|")[0], "end");
        assert_ne!(labels("alt x\nend\n|")[0], "end");
        assert_eq!(
            labels("!procedure $greet($who)\n!$count = 1\nA -> B : $gr|"),
            vec!["$greet", "$count"]
        );
        let hover_text = "skinparam ArrowColor red";
        let (markdown, _, _) = hover(hover_text, 12, &[], &[]).expect("hover");
        assert!(markdown.contains("a color"), "{markdown}");
    }

    #[test]
    fn calls_of_procedures() {
        let text = "!procedure $pair($a, $b)\n$pair(1, f(2), 3)\n";
        let call = text.find("3)").expect("third");
        assert_eq!(call_at(text, call), Some(("$pair".to_string(), 2)));
        assert_eq!(call_at(text, text.find("f(2)").expect("f") + 2), None);
    }

    #[test]
    fn semantic_tokens_are_relative_and_utf16() {
        let text = "@startuml\nÄ -> Bob : hi\n@enduml\n";
        let parse_highlights = {
            let (host, file) = puml_ide::AnalysisHost::single_file(None, text.to_string(), Default::default());
            host.analysis().highlights(file).expect("not cancelled")
        };
        let tokens = semantic_tokens(text, &parse_highlights);
        let flat: Vec<(u32, u32, u32)> = tokens.iter().map(|t| (t.delta_line, t.delta_start, t.length)).collect();
        // @startuml; Ä (1 unit); -> at column 2; Bob at 5; @enduml.
        assert_eq!(flat, vec![(0, 0, 9), (1, 0, 1), (0, 2, 2), (0, 3, 3), (1, 0, 7)]);
        let mut changed = tokens.clone();
        changed[3].length = 4;
        let edit = token_delta(&tokens, &changed).expect("a change");
        assert_eq!((edit.start, edit.delete_count), (15, 5));
        assert!(token_delta(&tokens, &tokens).is_none());
    }

    #[test]
    fn include_targets_and_selection_ranges() {
        let text = "@startuml\n  !include parts/a.iuml\n!include <C4/C4>\n!include https://x/y.puml\n@enduml\n";
        let targets = include_targets(text);
        assert_eq!(targets.len(), 2, "{targets:?}");
        assert_eq!(&text[targets[0].0..targets[0].1], "parts/a.iuml");
        let table = LineTable::new(SOURCE);
        let folds = folding_ranges(SOURCE, &[], &[]);
        let selection = selection_range(SOURCE, &table, &folds, Position::new(4, 4));
        let mut lines = Vec::new();
        let mut at = Some(&selection);
        while let Some(s) = at {
            lines.push((s.range.start.line, s.range.end.line));
            at = s.parent.as_deref();
        }
        assert_eq!(lines, vec![(4, 4), (4, 4), (3, 9), (0, 13)]);
    }

    #[test]
    fn folds_groups_notes_and_comments() {
        let folds: Vec<(u32, u32)> = folding_ranges(SOURCE, &[], &[])
            .iter()
            .map(|f| (f.start_line, f.end_line))
            .collect();
        assert_eq!(folds, vec![(6, 8), (3, 9), (10, 11)]);
    }

    #[test]
    fn symbols_list_declared_participants_and_groups() {
        let symbols = document_symbols(SOURCE, &explain(), &[], &[]);
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["Alice", "alt ok"]);
        assert_eq!(symbols[0].range.start.line, 1);
    }

    #[test]
    fn hover_names_a_participant_by_alias() {
        let at = SOURCE.find("A -> Bob").expect("message");
        let (markdown, start, end) = hover(SOURCE, at, &participants(SOURCE), &[]).expect("hover");
        assert!(
            markdown.contains("`Alice`") && markdown.contains("alias `A`"),
            "{markdown}"
        );
        assert!(markdown.contains("Sends 1 message(s), receives 1"), "{markdown}");
        assert_eq!((start, end), (at, at + 1));
    }

    #[test]
    fn completion_offers_participants_after_an_arrow() {
        let text = "@startuml\nparticipant Alice as A\nA -> \n@enduml\n";
        let at = text.find("A -> ").expect("arrow") + 5;
        let labels: Vec<String> = completions(text, at, &participants(text), &[])
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert_eq!(labels, vec!["A"]);
        let keywords = completions(text, text.find("@enduml").expect("end"), &[], &[]);
        assert!(keywords.iter().any(|c| c.label == "participant"));
        assert!(keywords.iter().any(|c| c.label == "alt"));
    }

    /// Labels offered at `|`, in the order an editor shows them (by
    /// `sort_text`, else label).
    fn ranked(marked: &str) -> Vec<String> {
        let at = marked.find('|').expect("cursor");
        let text = marked.replacen('|', "", 1);
        let mut items = completions(&text, at, &participants(&text), &[]);
        items.sort_by(|a, b| {
            let key = |c: &CompletionItem| c.sort_text.clone().unwrap_or_else(|| c.label.clone());
            key(a).cmp(&key(b))
        });
        items.into_iter().map(|c| c.label).collect()
    }

    #[test]
    fn line_starts_offer_participants_first_once_there_are_messages() {
        let labels = ranked(
            "@startuml
participant \"Web Shop\" as W
W -> Bob : hi
|
@enduml
",
        );
        // The declared (by alias) and the implicit participant, then keywords.
        assert_eq!(labels[..2], ["Bob", "W"], "{labels:?}");
        assert!(labels[2..].contains(&"participant".to_string()), "{labels:?}");
        assert!(labels[2..].contains(&"alt".to_string()), "{labels:?}");
        // Without messages the keywords come first, the participants after.
        let labels = ranked(
            "@startuml
participant \"Web Shop\"
|
@enduml
",
        );
        assert_eq!(labels.last().map(String::as_str), Some("\"Web Shop\""), "{labels:?}");
        assert!(labels.iter().position(|l| l == "participant") < labels.iter().position(|l| l == "\"Web Shop\""));
        // The closer of an open block still comes first.
        let labels = ranked(
            "@startuml
A -> B
alt x
  A -> B
|
@enduml
",
        );
        assert_eq!(labels[..3], ["end", "A", "B"], "{labels:?}");
    }

    #[test]
    fn arrows_after_a_participant_and_participants_after_note_and_activate() {
        let text = "@startuml
participant Alice as A
A -> Bob : hi
|
@enduml
";
        let at = |line: &str| ranked(&text.replace('|', line));
        assert_eq!(at("A |")[..3], ["->", "-->", "->>"]);
        assert_eq!(at("Bob |")[0], "->");
        assert!(at("Carol |").is_empty(), "not a participant: nothing to offer");
        for line in [
            "note over |",
            "note left of |",
            "note right of |",
            "activate |",
            "deactivate |",
            "destroy |",
        ] {
            assert_eq!(at(line), ["A", "Bob"], "{line}");
        }
        assert_eq!(at("note over A, |"), ["A", "Bob"]);
    }

    const CLASS_OUTLINE: &str = "@startuml\npackage shop {\n  interface Shape {\n    + area() : double\n  }\n  enum Color {\n    RED\n  }\n}\nclass Circle\nnote top of Circle\n  two\n  lines\nend note\n/' a\n  comment '/\n@enduml\n";

    #[test]
    fn class_outline_nests_packages_elements_and_members_and_folds_bodies() {
        let (host, file) = puml_ide::AnalysisHost::single_file(None, CLASS_OUTLINE.to_string(), Default::default());
        let analysis = host.analysis();
        let explanations = analysis.explain(file).expect("not cancelled");
        let classes = analysis.class_structures(file).expect("not cancelled");
        let symbols = document_symbols(CLASS_OUTLINE, &explanations, &[], &classes);
        let shape = |s: &DocumentSymbol| -> String {
            let children = s.children.as_deref().unwrap_or_default();
            let inner: Vec<String> = children
                .iter()
                .map(|c| {
                    let grand: Vec<String> = c
                        .children
                        .as_deref()
                        .unwrap_or_default()
                        .iter()
                        .map(|g| format!("{}:{:?}", g.name, g.kind))
                        .collect();
                    format!("{}:{:?}[{}]", c.name, c.kind, grand.join(","))
                })
                .collect();
            format!("{}:{:?}[{}]", s.name, s.kind, inner.join(","))
        };
        let got: Vec<String> = symbols.iter().map(shape).collect();
        assert_eq!(
            got,
            [
                "shop:Package[Shape:Interface[area() : double:Method],Color:Enum[RED:EnumMember]]",
                "Circle:Class[]"
            ],
            "{symbols:?}"
        );
        let folds: Vec<(u32, u32)> = folding_ranges(CLASS_OUTLINE, &[], &classes)
            .iter()
            .map(|f| (f.start_line, f.end_line))
            .collect();
        for expected in [(1, 8), (2, 4), (5, 7), (10, 13), (14, 15)] {
            assert!(folds.contains(&expected), "{expected:?} in {folds:?}");
        }
        // The block note is folded once (by the tree, not also by the text scan).
        assert_eq!(folds.iter().filter(|f| **f == (10, 13)).count(), 1, "{folds:?}");
        // Class names, members and modifiers are semantic tokens.
        let legend = semantic_legend();
        let tokens = semantic_tokens(CLASS_OUTLINE, &analysis.highlights(file).expect("not cancelled"));
        let kinds: Vec<&SemanticTokenType> = tokens
            .iter()
            .map(|t| &legend.token_types[t.token_type as usize])
            .collect();
        for kind in [
            SemanticTokenType::CLASS,
            SemanticTokenType::NAMESPACE,
            SemanticTokenType::METHOD,
            SemanticTokenType::PROPERTY,
            SemanticTokenType::MODIFIER,
        ] {
            assert!(kinds.contains(&&kind), "{kind:?} in {kinds:?}");
        }
    }

    const ACTIVITY: &str = "@startuml\n|Shop|\nstart\npartition Billing {\nif (paid?) then (yes)\n  while (more?)\n    :Pack\n    item;\n  endwhile\nelse (no)\n  fork\n    :A;\n  fork again\n    :B;\n  end merge\nendif\n}\n:Done;\nnote right\n  a note\nend note\n|Courier|\n:Ship;\nstop\n@enduml\n";

    fn outlines(text: &str) -> Vec<ActivityOutline> {
        let (host, file) = puml_ide::AnalysisHost::single_file(None, text.to_string(), Default::default());
        host.analysis().activity_outlines(file).expect("not cancelled")
    }

    fn activity_symbols_of(text: &str) -> Vec<DocumentSymbol> {
        let (host, file) = puml_ide::AnalysisHost::single_file(None, text.to_string(), Default::default());
        let analysis = host.analysis();
        let explanations = analysis.explain(file).expect("not cancelled");
        let outlines = analysis.activity_outlines(file).expect("not cancelled");
        document_symbols(text, &explanations, &outlines, &[])
    }

    fn folds(text: &str) -> Vec<(u32, u32)> {
        folding_ranges(text, &outlines(text), &[])
            .iter()
            .map(|f| (f.start_line, f.end_line))
            .collect()
    }

    /// `§` marks the cursor.
    fn activity_labels(marked: &str) -> Vec<String> {
        let at = marked.find('§').expect("cursor");
        let text = marked.replacen('§', "", 1);
        completions(&text, at, &[], &outlines(&text))
            .into_iter()
            .map(|c| c.label)
            .collect()
    }

    #[test]
    fn activity_blocks_multiline_actions_and_notes_fold() {
        assert_eq!(
            folds(ACTIVITY),
            vec![(3, 16), (4, 15), (5, 8), (10, 14), (6, 7), (18, 20)]
        );
        // Unclosed blocks fold to the last line before `@enduml`, or to the
        // end of the text; a stray closer folds nothing.
        assert_eq!(
            folds("@startuml\nstart\nif (a) then\n  :x;\n  while (b)\n    :y;\n@enduml\n"),
            vec![(2, 5), (4, 5)]
        );
        assert_eq!(folds("@startuml\nstart\nendif\nif (a) then\n:x;\n"), vec![(3, 4)]);
        // A comment inside an activity diagram still folds.
        assert_eq!(folds("@startuml\nstart\n/' a\n b '/\nstop\n@enduml\n"), vec![(2, 3)]);
    }

    #[test]
    fn selection_grows_through_the_enclosing_activity_blocks() {
        let table = LineTable::new(ACTIVITY);
        let folds = folding_ranges(ACTIVITY, &outlines(ACTIVITY), &[]);
        let selection = selection_range(ACTIVITY, &table, &folds, Position::new(11, 5));
        let mut lines = Vec::new();
        let mut at = Some(&selection);
        while let Some(s) = at {
            lines.push((s.range.start.line, s.range.end.line));
            at = s.parent.as_deref();
        }
        assert_eq!(lines, vec![(11, 11), (11, 11), (10, 14), (4, 15), (3, 16), (0, 25)]);
    }

    #[test]
    fn activity_outline_has_lanes_and_nested_blocks() {
        let symbols = activity_symbols_of(ACTIVITY);
        let names = |list: &[DocumentSymbol]| list.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&symbols), vec!["Shop", "partition Billing", "Courier"]);
        let partition = &symbols[1];
        assert_eq!((partition.range.start.line, partition.range.end.line), (3, 16));
        assert_eq!(partition.selection_range.end.line, 3);
        let inside = partition.children.as_deref().expect("children");
        assert_eq!(names(inside), vec!["if (paid?)"]);
        let branches = inside[0].children.as_deref().expect("children");
        assert_eq!(names(branches), vec!["while (more?)", "fork"]);
        assert_eq!((branches[1].range.start.line, branches[1].range.end.line), (10, 14));
        assert_eq!(branches[1].detail.as_deref(), Some("… end merge"));
    }

    #[test]
    fn deep_activity_nesting_is_listed_flat_past_the_cap() {
        let depth = 200;
        let text = format!(
            "@startuml\nstart\n{}:x;\n{}stop\n@enduml\n",
            "if (a) then\n".repeat(depth),
            "endif\n".repeat(depth)
        );
        let symbols = activity_symbols_of(&text);
        let (mut levels, mut at, mut widest) = (0, symbols.first(), 0);
        while let Some(symbol) = at {
            levels += 1;
            let children = symbol.children.as_deref().unwrap_or_default();
            widest = widest.max(children.len());
            at = children.first();
        }
        assert_eq!(levels, MAX_SYMBOL_DEPTH + 1);
        assert_eq!(widest, depth - MAX_SYMBOL_DEPTH);
        assert_eq!(folds(&text).len(), depth);
    }

    #[test]
    fn activity_completion_offers_the_innermost_closer_first() {
        let labels = activity_labels("@startuml\nstart\nif (a) then\n  :x;\n  §\n@enduml\n");
        assert_eq!(labels[..3], ["endif", "else", "elseif"]);
        assert!(labels.contains(&"while".to_string()) && labels.contains(&"fork".to_string()));
        assert!(!labels
            .iter()
            .any(|l| l == "participant" || l == "alt" || l == "end fork"));
        // A keyword half typed on the line does not change the answer.
        let labels = activity_labels("@startuml\nstart\nif (a) then\n  :x;\n  en§\n@enduml\n");
        assert_eq!(labels[..3], ["endif", "else", "elseif"]);
        let labels = activity_labels("@startuml\nstart\nfork\n  :a;\n§\n@enduml\n");
        assert_eq!(labels[..3], ["end fork", "end merge", "fork again"]);
        // The innermost open block is the `while`; `endif` is a stray closer there.
        let labels = activity_labels("@startuml\nstart\nif (a) then\nwhile (b)\n:x;\n§\nendif\n@enduml\n");
        assert_eq!(labels[..2], ["endwhile", "break"]);
        // A block closed further down: its branches, not its closer.
        let labels = activity_labels("@startuml\nstart\nswitch (k)\ncase (1)\n:x;\n§\nendswitch\n@enduml\n");
        assert_eq!(labels[0], "case");
        assert!(!labels.contains(&"endswitch".to_string()));
        // Inside a multi-line action: nothing; on the line after it: keywords.
        assert!(activity_labels("@startuml\nstart\n:first line\n§\nlast line;\n@enduml\n").is_empty());
        assert_eq!(
            activity_labels("@startuml\nstart\n:first line\nlast line;\n§\n@enduml\n")[0],
            "start"
        );
        // Outside any block: the activity keywords, no closer, no `break`.
        let labels = activity_labels("@startuml\nstart\n§\n@enduml\n");
        assert_eq!(labels[0], "start");
        assert!(!labels.iter().any(|l| l == "break" || l == "else"));
    }

    #[test]
    fn activity_completion_names_lanes_after_a_bar() {
        let labels = activity_labels("@startuml\n|Shop|\nstart\n|#pink|Courier| Delivery\n:x;\n|§\n@enduml\n");
        assert_eq!(labels, vec!["Shop", "Courier"]);
    }

    #[test]
    fn activity_hover_explains_closers_and_middles() {
        let text = "@startuml\nstart\nif (a) then\n:x;\nelse\nfork\n:y;\nend fork\nendif\nstop\n@enduml\n";
        let outlines = outlines(text);
        let hover_at = |needle: &str| {
            let at = text.find(needle).expect("needle");
            hover(text, at, &[], &outlines).map(|(markdown, _, _)| markdown)
        };
        let endif = hover_at("endif").expect("hover");
        assert!(
            endif.starts_with("**if** (activity)") && endif.contains("Closed by `endif`"),
            "{endif}"
        );
        let else_hover = hover_at("else").expect("hover");
        assert!(else_hover.starts_with("**if**"), "{else_hover}");
        let end_fork = hover_at("end fork").expect("hover");
        assert!(
            end_fork.starts_with("**fork**") && end_fork.contains("Closed by `end fork`"),
            "{end_fork}"
        );
        assert!(endif.contains("Closes the `if` (a) of line 3."), "{endif}");
        let opening = hover_at("if (a)").expect("hover");
        assert!(opening.contains("This `if` (a) closes on line 9."), "{opening}");
        assert!(end_fork.contains("Closes the `fork` of line 6."), "{end_fork}");
        let stop = hover_at("stop").expect("hover");
        assert!(stop.starts_with("**start and stop**"), "{stop}");
    }

    /// Every activity probe of the repository, whole and cut at every line:
    /// folds run forward, symbols nest inside their parents, completion and
    /// hover answer everywhere without panicking.
    #[test]
    fn activity_features_hold_on_every_probe_and_every_prefix() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
        let mut sources = Vec::new();
        for dir in ["activity-layout", "activity-styles", "grammar/activity"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for entry in entries.flatten() {
                if entry.path().extension().is_some_and(|e| e == "puml") {
                    sources.push(std::fs::read_to_string(entry.path()).expect("probe"));
                }
            }
        }
        assert!(sources.len() >= 10, "probes found: {}", sources.len());
        let mut outlined = 0;
        for source in &sources {
            let cuts = source.match_indices('\n').map(|(at, _)| at + 1);
            for cut in std::iter::once(source.len()).chain(cuts) {
                let text = &source[..cut];
                let found = outlines(text);
                outlined += usize::from(!found.is_empty());
                for fold in folding_ranges(text, &found, &[]) {
                    assert!(fold.end_line > fold.start_line, "{fold:?} in {text}");
                }
                let mut pending: Vec<DocumentSymbol> = activity_symbols_of(text);
                while let Some(symbol) = pending.pop() {
                    for child in symbol.children.unwrap_or_default() {
                        assert!(
                            symbol.range.start <= child.range.start && child.range.end <= symbol.range.end,
                            "{} does not hold {} in {text}",
                            symbol.name,
                            child.name
                        );
                        pending.push(child);
                    }
                }
                let offsets = text.char_indices().map(|(at, _)| at).step_by(7).chain([text.len()]);
                for offset in offsets {
                    let _ = completions(text, offset, &[], &found);
                    let _ = hover(text, offset, &[], &found);
                }
            }
        }
        assert!(outlined > 100, "outlined prefixes: {outlined}");
    }
}
