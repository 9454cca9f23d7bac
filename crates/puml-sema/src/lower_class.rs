//! Lowering of a class diagram's statements (see `puml_syntax`'s
//! `parser::class`) into a [`ClassDiagram`] and its [`ClassSourceMap`].
//!
//! Elements are created on first use, as PlantUML creates them: a
//! declaration or a link end names an element by its qualified name (the
//! open packages' names joined with the separator, unless the name is
//! qualified already or names an element outside them). Packages are flat
//! statements: a stack of open ones, bounded by the input's lines, never
//! recursion.

use crate::class::*;
use puml_syntax::ast::{self, statement_range};
use puml_syntax::{Diagnostic, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use rustc_hash::FxHashMap;
use SyntaxKind::*;

/// What an open `{` belongs to.
enum Open {
    Package(PackageId),
    Together(Vec<ElementId>),
}

#[derive(Default)]
pub(crate) struct ClassLowering {
    pub(crate) diagram: ClassDiagram,
    pub(crate) map: ClassSourceMap,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Qualified names and aliases → element.
    by_name: FxHashMap<String, ElementId>,
    /// The last part of each qualified name → the elements that end so: a
    /// name found nowhere else names the one element ending with it.
    by_short_name: FxHashMap<String, Vec<ElementId>>,
    /// Qualified names and aliases → package.
    packages_by_name: FxHashMap<String, PackageId>,
    /// Floating notes' aliases → note index.
    notes_by_alias: FxHashMap<String, u32>,
    open: Vec<Open>,
    /// A `}` that closed nothing (an error once a statement follows it).
    stray_close: Option<(TextRange, TextRange)>,
    /// Parallel to `open`: where each block opened.
    open_ranges: Vec<TextRange>,
    last_element: Option<ElementId>,
    last_link: Option<LinkId>,
    /// Numbers of PlantUML's id counter the notes so far took: three for a
    /// note (its name, its entity, its link), two for a note on a member
    /// (`note left of A::m()`, drawn without a link of its own).
    numbers_taken_by_notes: u32,
}

pub(crate) fn unquote(text: &str) -> String {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
        .to_string()
}

fn kind_of_keyword(keyword: &str) -> ElementKind {
    match keyword {
        "abstract" | "abstract class" => ElementKind::AbstractClass,
        "interface" => ElementKind::Interface,
        "enum" => ElementKind::Enum,
        "annotation" => ElementKind::Annotation,
        "entity" => ElementKind::Entity,
        "exception" => ElementKind::Exception,
        "metaclass" => ElementKind::Metaclass,
        "protocol" => ElementKind::Protocol,
        "stereotype" => ElementKind::Stereotype,
        "struct" => ElementKind::Struct,
        "record" => ElementKind::Record,
        "circle" | "()" => ElementKind::Circle,
        "diamond" | "<>" => ElementKind::Diamond,
        "object" => ElementKind::Object,
        "map" => ElementKind::Map,
        "json" => ElementKind::Json,
        "class" | "static class" | "dataclass" => ElementKind::Class,
        _ => ElementKind::Mixed,
    }
}

/// A body line as a member: separators, visibility, modifiers.
/// `package`, `sep`, `name` in one string (a qualified name): three
/// copies into a string sized once, not the formatter.
fn joined(package: &str, sep: &str, name: &str) -> String {
    let mut out = String::with_capacity(package.len() + sep.len() + name.len());
    out.push_str(package);
    out.push_str(sep);
    out.push_str(name);
    out
}

/// Where `sep` last starts in `name`: a byte search for the one-byte
/// separators (`.`, the default, and most set ones), where a substring
/// search set up a searcher for every element created.
fn rfind_separator(name: &str, sep: &str) -> Option<usize> {
    match sep.as_bytes() {
        &[byte] => name.bytes().rposition(|b| b == byte),
        _ => name.rfind(sep),
    }
}

pub(crate) fn classify_member(line: &str) -> Option<Member> {
    // A line that starts and ends with printable ASCII has nothing to
    // trim: answered without the whitespace test of `trim` (most members).
    let plain = |b: Option<&u8>| b.is_some_and(|b| (b'!'..=b'~').contains(b));
    let text = if plain(line.as_bytes().first()) && plain(line.as_bytes().last()) {
        line
    } else {
        line.trim()
    };
    if text.is_empty() {
        return None;
    }
    for (mark, style) in [
        ("--", SeparatorStyle::Solid),
        ("..", SeparatorStyle::Dotted),
        ("==", SeparatorStyle::Double),
        ("__", SeparatorStyle::Thick),
    ] {
        if let Some(rest) = text.strip_prefix(mark) {
            let c = mark.chars().next().unwrap_or('-');
            let inner = rest.trim_start_matches(c);
            let inner = inner.trim_end_matches(c).trim();
            if rest.is_empty() || rest.chars().all(|x| x == c) || text.ends_with(mark) {
                let title = (!inner.is_empty()).then(|| inner.to_string());
                return Some(Member::Separator { style, title });
            }
        }
    }
    let mut rest = text;
    let (mut is_static, mut is_abstract, mut field, mut method) = (false, false, false, false);
    let mut visibility = None;
    // Modifiers and the visibility character, in any order at the start.
    // (A prefix compared without case, not the line lowercased: most
    // members have no modifier.)
    let starts = |rest: &str, modifier: &str| {
        rest.as_bytes()
            .get(..modifier.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(modifier.as_bytes()))
    };
    for _ in 0..6 {
        // Every modifier opens with a brace: most members have none.
        let brace = rest.starts_with('{');
        if brace && (starts(rest, "{static}") || starts(rest, "{classifier}")) {
            is_static = true;
            rest = rest[rest.find('}').map_or(0, |i| i + 1)..].trim_start();
        } else if brace && starts(rest, "{abstract}") {
            is_abstract = true;
            rest = rest[10..].trim_start();
        } else if brace && starts(rest, "{field}") {
            field = true;
            rest = rest[7..].trim_start();
        } else if brace && starts(rest, "{method}") {
            method = true;
            rest = rest[8..].trim_start();
        } else if visibility.is_none() && rest.len() > 1 {
            let v = match rest.as_bytes()[0] {
                b'-' => Some(Visibility::Private),
                b'#' => Some(Visibility::Protected),
                b'~' => Some(Visibility::Package),
                b'+' => Some(Visibility::Public),
                _ => None,
            };
            match v {
                Some(v) => {
                    visibility = Some(v);
                    rest = &rest[1..];
                }
                None => break,
            }
        } else {
            break;
        }
    }
    let is_method = method || (!field && rest.contains('('));
    Some(Member::Item(MemberItem {
        text: rest.to_string(),
        visibility,
        is_static,
        is_abstract,
        is_method,
    }))
}

/// `: owns >` → (`owns`, Right).
pub(crate) fn label_and_arrow(label: &str) -> (String, Option<LinkDirection>) {
    let t = label.trim();
    if let Some(rest) = t.strip_suffix('>').filter(|r| !r.ends_with('>') && !r.ends_with('-')) {
        return (rest.trim().to_string(), Some(LinkDirection::Right));
    }
    if let Some(rest) = t
        .strip_prefix('<')
        .filter(|r| !r.starts_with('<') && !r.starts_with('-'))
    {
        return (rest.trim().to_string(), Some(LinkDirection::Left));
    }
    if let Some(rest) = t.strip_prefix('>').filter(|r| !r.starts_with('>')) {
        return (rest.trim().to_string(), Some(LinkDirection::Right));
    }
    if let Some(rest) = t.strip_suffix('<').filter(|r| !r.ends_with('<')) {
        return (rest.trim().to_string(), Some(LinkDirection::Left));
    }
    (t.to_string(), None)
}

fn head_of(text: &str) -> LinkHead {
    match text.trim_start_matches('_').trim_end_matches('_') {
        "" => LinkHead::None,
        "<|" | "|>" | "<|:" | ":|>" | "<||" | "||>" | "[|" | "|]" => LinkHead::Triangle,
        "<" | ">" | ":>" | ":>>" => LinkHead::Arrow,
        "*" => LinkHead::Composition,
        "o" => LinkHead::Aggregation,
        "#" => LinkHead::Square,
        "x" => LinkHead::Cross,
        "}" | "{" => LinkHead::Crowfoot,
        "+" => LinkHead::Plus,
        "^" => LinkHead::OpenTriangle,
        "()" => LinkHead::Circle,
        "(" | ")" => LinkHead::HalfCircle,
        "|o" | "o|" => LinkHead::ZeroOrOne,
        "||" => LinkHead::ExactlyOne,
        "}o" | "o{" => LinkHead::ZeroOrMany,
        "}|" | "|{" => LinkHead::OneOrMany,
        _ => LinkHead::None,
    }
}

/// The parts of an arrow token.
pub(crate) struct ArrowParts {
    pub(crate) from_head: LinkHead,
    pub(crate) to_head: LinkHead,
    pub(crate) line: LineStyle,
    pub(crate) length: u32,
    pub(crate) direction: Option<LinkDirection>,
    pub(crate) styles: Vec<String>,
}

pub(crate) fn split_arrow(arrow: &str) -> ArrowParts {
    let is_body = |c: char| matches!(c, '-' | '.' | '=');
    let first = arrow.find(is_body).unwrap_or(0);
    let last = arrow.rfind(is_body).map_or(arrow.len(), |i| i + 1);
    let (left, middle, right) = (
        &arrow[..first],
        &arrow[first..last.max(first)],
        &arrow[last.max(first)..],
    );
    let mut styles = Vec::new();
    // The arrow without its `[…]` styles: the token itself when it has
    // none (most arrows), so no string is built for it.
    let plain: std::borrow::Cow<'_, str> = if middle.contains('[') {
        let mut plain = String::new();
        let mut rest = middle;
        while let Some(open) = rest.find('[') {
            plain.push_str(&rest[..open]);
            match rest[open..].find(']') {
                Some(close) => {
                    styles.extend(
                        rest[open + 1..open + close]
                            .split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty()),
                    );
                    rest = &rest[open + close + 1..];
                }
                None => {
                    rest = "";
                }
            }
        }
        plain.push_str(rest);
        plain.into()
    } else {
        middle.into()
    };
    // The body's characters (counted, and which kinds) and the direction
    // word's letters, lowercased, read in one pass without strings: a word
    // of more than five letters names no direction.
    let (mut body_len, mut dotted, mut bold) = (0usize, false, false);
    let (mut word, mut word_len) = ([0u8; 5], 0usize);
    for c in plain.chars() {
        if is_body(c) {
            body_len += 1;
            dotted |= c == '.';
            bold |= c == '=';
        } else if c.is_ascii_alphabetic() {
            if let Some(slot) = word.get_mut(word_len) {
                *slot = c.to_ascii_lowercase() as u8;
            }
            word_len += 1;
        }
    }
    let word: &[u8] = if word_len <= word.len() {
        &word[..word_len]
    } else {
        b"-"
    };
    let direction = match word {
        b"u" | b"up" => Some(LinkDirection::Up),
        b"d" | b"do" | b"down" => Some(LinkDirection::Down),
        b"l" | b"le" | b"left" => Some(LinkDirection::Left),
        b"r" | b"ri" | b"right" => Some(LinkDirection::Right),
        _ => None,
    };
    let line = if dotted {
        LineStyle::Dashed
    } else if bold {
        LineStyle::Bold
    } else {
        LineStyle::Solid
    };
    // PlantUML draws a left or right link on one rank whatever its length.
    let length = if matches!(direction, Some(LinkDirection::Left | LinkDirection::Right)) {
        1
    } else {
        body_len.max(1) as u32
    };
    ArrowParts {
        from_head: head_of(left),
        to_head: head_of(right),
        line,
        length,
        direction,
        styles,
    }
}

/// The text of a block's `BODY` lines, trimmed and joined with `\n`.
pub(crate) fn body_text(node: &SyntaxNode) -> String {
    node.children()
        .filter(|n| n.kind() == BODY)
        .flat_map(|body| {
            body.text()
                .to_string()
                .lines()
                .map(|l| l.trim().to_string())
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl ClassLowering {
    fn separator(&self) -> &str {
        self.diagram.separator.as_deref().unwrap_or(".")
    }

    fn current_package(&self) -> Option<PackageId> {
        self.open.iter().rev().find_map(|o| match o {
            Open::Package(id) => Some(*id),
            Open::Together(_) => None,
        })
    }

    /// The package named `qualified`, created with its parents when new.
    fn ensure_package(&mut self, qualified: &str, keyword: &str) -> PackageId {
        if let Some(&id) = self.packages_by_name.get(qualified) {
            return id;
        }
        let sep = self.separator().to_string();
        let (parent, display) = match (!sep.is_empty()).then(|| rfind_separator(qualified, &sep)).flatten() {
            Some(at) if at > 0 => {
                let parent_name = qualified[..at].to_string();
                (
                    Some(self.ensure_package(&parent_name, "package")),
                    qualified[at + sep.len()..].to_string(),
                )
            }
            _ => (self.current_package_for(qualified), qualified.to_string()),
        };
        let id = PackageId(self.diagram.packages.len() as u32);
        self.diagram.packages.push(Package {
            keyword: keyword.to_string(),
            qualified_name: qualified.to_string(),
            display,
            alias: None,
            stereotypes: Vec::new(),
            style: ElementStyle::default(),
            parent,
        });
        self.map.packages.push(TextRange::default());
        self.packages_by_name.insert(qualified.to_string(), id);
        id
    }

    /// The open package, unless `qualified` already starts with its name.
    fn current_package_for(&self, qualified: &str) -> Option<PackageId> {
        let current = self.current_package()?;
        let name = &self.diagram.packages[current.index()].qualified_name;
        (name != qualified).then_some(current)
    }

    /// The qualified name `name` gets when created in the open package: a
    /// name is relative to it (dotted or not) unless it starts with the
    /// separator.
    fn qualify(&self, name: &str) -> String {
        let sep = self.separator();
        if !sep.is_empty() {
            if let Some(absolute) = name.strip_prefix(sep) {
                return absolute.to_string();
            }
        }
        match self.current_package() {
            Some(pkg) if !sep.is_empty() => joined(&self.diagram.packages[pkg.index()].qualified_name, sep, name),
            _ => name.to_string(),
        }
    }

    /// An existing element `name` names from the open package: in it, in
    /// the packages around it, or at the top.
    fn lookup(&self, name: &str) -> Option<ElementId> {
        let sep = self.separator();
        if !sep.is_empty() {
            if let Some(absolute) = name.strip_prefix(sep) {
                return self.by_name.get(absolute).copied();
            }
            let mut package = self.current_package();
            while let Some(p) = package {
                let candidate = joined(&self.diagram.packages[p.index()].qualified_name, sep, name);
                if let Some(&id) = self.by_name.get(&candidate) {
                    return Some(id);
                }
                package = self.diagram.packages[p.index()].parent;
            }
        }
        if let Some(&id) = self.by_name.get(name) {
            return Some(id);
        }
        match self.by_short_name.get(name).map(Vec::as_slice) {
            Some(&[only]) => Some(only),
            _ => None,
        }
    }

    /// The element `name` refers to, created (as a class) when new.
    fn resolve(&mut self, name: &str, range: TextRange) -> ElementId {
        if let Some(id) = self.lookup(name) {
            self.map.element_references[id.index()].push(range);
            return id;
        }
        let qualified = self.qualify(name);
        self.create(qualified, ElementKind::Class, "class", range, false)
    }

    fn create(
        &mut self,
        qualified: String,
        kind: ElementKind,
        keyword: &str,
        range: TextRange,
        declared: bool,
    ) -> ElementId {
        // Where the last separator is and its length, read before the
        // package is made (no copy of the separator).
        let (split, sep_len) = {
            let sep = self.separator();
            (
                (!sep.is_empty()).then(|| rfind_separator(&qualified, sep)).flatten(),
                sep.len(),
            )
        };
        let (package, display) = match split {
            Some(at) if at > 0 => (
                Some(self.ensure_package(&qualified[..at], "package")),
                qualified[at + sep_len..].to_string(),
            ),
            _ => (self.current_package(), qualified.clone()),
        };
        let id = ElementId(self.diagram.elements.len() as u32);
        // Most short names are new: their list is made at its size (one
        // element), and a name already seen is not copied again.
        match self.by_short_name.get_mut(display.as_str()) {
            Some(ids) => ids.push(id),
            None => {
                self.by_short_name.insert(display.clone(), vec![id]);
            }
        }
        self.diagram.elements.push(Element {
            kind,
            keyword: keyword.to_string(),
            qualified_name: qualified.clone(),
            display,
            alias: None,
            generic: None,
            stereotypes: Vec::new(),
            spot: None,
            style: ElementStyle::default(),
            members: Vec::new(),
            package,
            declared,
            json: None,
        });
        self.map.elements.push(range);
        self.map.element_references.push(vec![range]);
        self.by_name.insert(qualified, id);
        if let Some(Open::Together(members)) = self.open.last_mut() {
            members.push(id);
        }
        id
    }

    /// One statement of the diagram: `green` with its significant tokens
    /// and its range (as [`ast::GreenStatement::significant_tokens_and_range`]
    /// gives them); `node` builds its cursor node for the readings that
    /// still walk one.
    pub(crate) fn statement(
        &mut self,
        green: ast::GreenStatement<'_>,
        tokens: &[ast::Tok<'_>],
        range: TextRange,
        node: &dyn Fn() -> SyntaxNode,
    ) {
        // PlantUML fails on a stray `}` only when a statement follows it.
        if let Some((range, line)) = self.stray_close.take() {
            self.diagnostics.push(
                Diagnostic::error(
                    crate::codes::CLASS_STRAY_CLOSE,
                    range,
                    "this `}` closes nothing: no package, namespace or `together` is open",
                )
                .with_fix("Remove the stray line", vec![puml_syntax::TextEdit::delete(line)]),
            );
        }
        match green.kind() {
            CLASS_DECL => self.declaration(green, tokens, range),
            MEMBER_LINE => self.member_line(&node()),
            CLASS_LINK => self.link(tokens, range),
            PACKAGE_START => self.package(&node()),
            TOGETHER_START => {
                self.open.push(Open::Together(Vec::new()));
                self.open_ranges.push(range);
            }
            BRACE_END => {
                self.open_ranges.pop();
                self.close_block(&node());
            }
            CLASS_NOTE => self.note(&node()),
            CLASS_OPTION => self.option(&node()),
            HIDE_SHOW => self.hide_show(&node()),
            _ => {}
        }
    }

    /// A `}`: the innermost open package or `together` ends.
    fn close_block(&mut self, node: &SyntaxNode) {
        match self.open.pop() {
            Some(Open::Together(members)) => {
                if !members.is_empty() {
                    self.diagram.together.push(members);
                }
            }
            Some(Open::Package(_)) => {}
            None => self.stray_close = Some((statement_range(node), node.text_range())),
        }
    }

    fn option(&mut self, node: &SyntaxNode) {
        let tokens = ast::significant_tokens(node);
        let words: Vec<String> = tokens.iter().map(|t| t.text().to_ascii_lowercase()).collect();
        match words.first().map(String::as_str) {
            Some("left") => self.diagram.left_to_right = true,
            Some("top") => self.diagram.left_to_right = false,
            Some("set") => {
                let value = tokens
                    .iter()
                    .find(|t| t.kind() == TEXT)
                    .map(|t| t.text().trim().to_string());
                self.diagram.separator = match value.as_deref() {
                    Some(v) if v.eq_ignore_ascii_case("none") => Some(String::new()),
                    Some(v) => Some(v.to_string()),
                    None => None,
                };
            }
            _ => {}
        }
    }

    fn hide_show(&mut self, node: &SyntaxNode) {
        let tokens = ast::significant_tokens(node);
        let Some(keyword) = tokens.first() else { return };
        let action = match keyword.text().to_ascii_lowercase().as_str() {
            "hide" => VisibilityAction::Hide,
            "show" => VisibilityAction::Show,
            "remove" => VisibilityAction::Remove,
            _ => VisibilityAction::Restore,
        };
        let text = tokens
            .iter()
            .find(|t| t.kind() == TEXT)
            .map(|t| t.text().trim().to_string())
            .unwrap_or_default();
        const WHATS: &[&str] = &[
            "empty members",
            "empty fields",
            "empty attributes",
            "empty methods",
            "members",
            "fields",
            "attributes",
            "methods",
            "circle",
            "circles",
            "stereotype",
            "stereotypes",
            "@unlinked",
            "unlinked",
            "private members",
            "empty description",
        ];
        let lower = text.to_ascii_lowercase();
        let (target, what) = match WHATS.iter().find(|w| lower.ends_with(*w)) {
            Some(w) => {
                let target = text[..text.len() - w.len()].trim();
                ((!target.is_empty()).then(|| target.to_string()), w.to_string())
            }
            None => (Some(text.clone()), String::new()),
        };
        self.diagram.visibility.push(VisibilityRule { action, what, target });
    }

    fn package(&mut self, node: &SyntaxNode) {
        let tokens = ast::significant_tokens(node);
        let keyword = tokens
            .first()
            .map(|t| t.text().to_ascii_lowercase())
            .unwrap_or_default();
        let mut name = None;
        let mut alias = None;
        let mut after_as = false;
        let mut stereotypes = Vec::new();
        let mut color = None;
        let mut has_brace = false;
        for token in tokens.iter().skip(1) {
            match token.kind() {
                KEYWORD if token.text().eq_ignore_ascii_case("as") => after_as = true,
                IDENT | STRING if after_as => alias = Some((unquote(token.text()), token.text_range())),
                IDENT | STRING => name = Some((unquote(token.text()), token.text_range())),
                STEREOTYPE => stereotypes.push(stereotype_text(token.text())),
                COLOR => color = Some(token.text().to_string()),
                L_BRACE => has_brace = true,
                _ => {}
            }
        }
        let (display, range) = name.unwrap_or_else(|| (String::new(), statement_range(node)));
        let code = alias.as_ref().map_or(display.clone(), |(a, _)| a.clone());
        let qualified = if self.separator().is_empty() || !code.contains(self.separator()) {
            match self.current_package() {
                Some(p) if !self.separator().is_empty() => {
                    format!(
                        "{}{}{}",
                        self.diagram.packages[p.index()].qualified_name,
                        self.separator(),
                        code
                    )
                }
                _ => code.clone(),
            }
        } else {
            code.clone()
        };
        let id = self.ensure_package(&qualified, &keyword);
        let package = &mut self.diagram.packages[id.index()];
        package.keyword = keyword;
        if alias.is_some() {
            package.display = display;
            package.alias = alias.map(|(a, _)| a);
        }
        package.stereotypes.extend(stereotypes);
        if let Some(c) = color {
            package.style.background = Some(c);
        }
        self.map.packages[id.index()] = range;
        if has_brace && !tokens.iter().any(|t| t.kind() == R_BRACE) {
            self.open.push(Open::Package(id));
            self.open_ranges.push(statement_range(node));
        }
    }

    /// A declaration, read from the green tree: the cursor API allocates a
    /// node for every token and child it hands out, and a body holds a
    /// node and a token or more per member.
    fn declaration(&mut self, statement: ast::GreenStatement<'_>, tokens: &[ast::Tok<'_>], range: TextRange) {
        let mut keyword = String::new();
        let mut names: Vec<(String, TextRange, bool)> = Vec::new();
        let mut generic = None;
        let mut stereotypes = Vec::new();
        let mut color = None;
        let mut extends: Vec<(String, TextRange, bool)> = Vec::new();
        let mut after_as = false;
        let mut inherit: Option<bool> = None;
        for token in tokens {
            let text = token.text;
            match token.kind {
                KEYWORD if names.is_empty() => {
                    if !keyword.is_empty() {
                        keyword.push(' ');
                    }
                    keyword.push_str(&text.to_ascii_lowercase());
                }
                KEYWORD if text.eq_ignore_ascii_case("as") => after_as = true,
                KEYWORD if text.eq_ignore_ascii_case("extends") => inherit = Some(false),
                KEYWORD if text.eq_ignore_ascii_case("implements") => inherit = Some(true),
                IDENT | STRING if inherit.is_some() => {
                    extends.push((unquote(text), token.range, inherit == Some(true)))
                }
                IDENT | STRING => names.push((text.to_string(), token.range, after_as)),
                GENERIC if inherit.is_none() => {
                    generic = Some(text.trim_start_matches('<').trim_end_matches('>').to_string());
                }
                STEREOTYPE => stereotypes.push(text.to_string()),
                COLOR => color = Some(text.to_string()),
                _ => {}
            }
        }
        if keyword.is_empty() {
            return;
        }
        let Some(first) = names.first().cloned() else { return };
        // `class "Display" as Code`, `class Code as "Display"`, `class Code`.
        let (code, display, alias_range) = match names.get(1) {
            Some(second) if first.0.starts_with('"') => (unquote(&second.0), Some(unquote(&first.0)), Some(second.1)),
            Some(second) => (first.0.clone(), Some(unquote(&second.0)), Some(first.1)),
            None => (unquote(&first.0), None, None),
        };
        let kind = kind_of_keyword(&keyword);
        let name_range = alias_range.unwrap_or(first.1);
        let existing = self.lookup(&code);
        let id = match existing {
            Some(id) => {
                self.map.element_references[id.index()].push(name_range);
                self.map.elements[id.index()] = range;
                id
            }
            None => {
                let qualified = self.qualify(&code);
                let id = self.create(qualified, kind, &keyword, name_range, true);
                self.map.elements[id.index()] = range;
                id
            }
        };
        {
            let element = &mut self.diagram.elements[id.index()];
            element.kind = kind;
            element.keyword = keyword.clone();
            element.declared = true;
            if let Some(display) = display {
                element.display = display;
                element.alias = Some(code.clone());
            }
            if generic.is_some() {
                element.generic = generic;
            }
            for stereo in &stereotypes {
                let (spot, names) = parse_stereotype(stereo);
                if spot.is_some() {
                    element.spot = spot;
                }
                element.stereotypes.extend(names);
            }
            if let Some(color) = color {
                apply_element_color(&mut element.style, &color);
            }
        }
        // Body members.
        let is_json = kind == ElementKind::Json;
        if let Some(body) = statement.child(CLASS_BODY) {
            if is_json {
                let text = body.text();
                self.diagram.elements[id.index()].json = Some(text.trim().to_string());
            } else {
                let mut line = String::new();
                // Room for every member at once (the list grew by doubling,
                // copied at each step).
                let count = body.child_nodes().filter(|n| n.kind() == CLASS_MEMBER).count();
                self.diagram.elements[id.index()].members.reserve(count);
                for member in body.child_nodes().filter(|n| n.kind() == CLASS_MEMBER) {
                    // The member's text pieces, copied once into one line.
                    line.clear();
                    for token in member.tokens().filter(|t| t.kind == TEXT) {
                        line.push_str(token.text);
                    }
                    if let Some(m) = classify_member(&line) {
                        self.diagram.elements[id.index()].members.push(m);
                    } else if !member.tokens().any(|t| t.kind == COMMENT)
                        && !member.child_nodes().any(|n| n.kind() == COMMENT)
                    {
                        self.diagram.elements[id.index()].members.push(Member::Blank);
                    }
                }
            }
        }
        for (name, range, implements) in extends {
            // An `implements` target named nowhere else is an interface
            // (PlantUML draws its spot "I").
            let parent = if implements && self.lookup(&name).is_none() {
                let qualified = self.qualify(&name);
                self.create(qualified, ElementKind::Interface, "interface", range, false)
            } else {
                self.resolve(&name, range)
            };
            let line = if implements && kind != ElementKind::Interface {
                LineStyle::Dashed
            } else {
                LineStyle::Solid
            };
            self.push_link(
                Link {
                    from: LinkEnd::Element(parent),
                    to: LinkEnd::Element(id),
                    from_head: LinkHead::Triangle,
                    to_head: LinkHead::None,
                    line,
                    length: 2,
                    direction: None,
                    hidden: false,
                    norank: false,
                    color: None,
                    thickness: None,
                    label: None,
                    label_arrow: None,
                    from_label: None,
                    to_label: None,
                },
                range,
            );
        }
        self.last_element = Some(id);
    }

    fn member_line(&mut self, node: &SyntaxNode) {
        let tokens = ast::significant_tokens(node);
        let Some(name) = tokens.iter().find(|t| matches!(t.kind(), IDENT | STRING)) else {
            return;
        };
        let id = self.resolve(&unquote(name.text()), name.text_range());
        let text = tokens
            .iter()
            .find(|t| t.kind() == TEXT)
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        if let Some(member) = classify_member(&text) {
            self.diagram.elements[id.index()].members.push(member);
        }
    }

    fn end_of(&mut self, token: &ast::Tok<'_>) -> LinkEnd {
        let text = token.text;
        if token.kind == PAREN {
            // `(A, B)`: the middle of the link between A and B.
            let inner = text.trim_start_matches('(').trim_end_matches(')');
            let mut parts = inner.split(',').map(|p| unquote(p.trim()));
            let (Some(a), Some(b)) = (parts.next(), parts.next()) else {
                return LinkEnd::Element(self.resolve(inner, token.range));
            };
            let a = self.resolve(&a, token.range);
            let b = self.resolve(&b, token.range);
            let existing = self.diagram.links.iter().position(|l| {
                (l.from == LinkEnd::Element(a) && l.to == LinkEnd::Element(b))
                    || (l.from == LinkEnd::Element(b) && l.to == LinkEnd::Element(a))
            });
            let link = match existing {
                Some(i) => LinkId(i as u32),
                None => self.push_link(plain_link(LinkEnd::Element(a), LinkEnd::Element(b)), token.range),
            };
            return LinkEnd::Link(link);
        }
        // Borrowed, not copied: most ends name an element met before.
        let name = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
        if let Some(&note) = self.notes_by_alias.get(name) {
            return LinkEnd::Note(note);
        }
        if let Some(&pkg) = self.packages_by_name.get(name) {
            if !self.by_name.contains_key(name) {
                return LinkEnd::Package(pkg);
            }
        }
        // `A::member`: PlantUML links A (at the member's row) unless an
        // element bears the whole name.
        if self.separator() != "::" && self.lookup(name).is_none() {
            if let Some(at) = name.rfind("::").filter(|&at| at > 0) {
                let range = TextRange::at(token.range.start(), (at as u32).into());
                return LinkEnd::Element(self.resolve(&name[..at], range));
            }
        }
        LinkEnd::Element(self.resolve(name, token.range))
    }

    fn push_link(&mut self, link: Link, range: TextRange) -> LinkId {
        let id = LinkId(self.diagram.links.len() as u32);
        self.diagram.links.push(link);
        self.map.links.push(range);
        self.last_link = Some(id);
        id
    }

    fn link(&mut self, tokens: &[ast::Tok<'_>], range: TextRange) {
        let Some(arrow_at) = tokens.iter().position(|t| t.kind == ARROW) else {
            return;
        };
        let before = &tokens[..arrow_at];
        let after = &tokens[arrow_at + 1..];
        let Some(from_token) = before.iter().find(|t| matches!(t.kind, IDENT | STRING | PAREN)) else {
            return;
        };
        let from_label = before
            .iter()
            .filter(|t| t.kind == STRING)
            .find(|t| t.range != from_token.range)
            .map(|t| unquote(t.text));
        let colon = after.iter().position(|t| t.kind == COLON).unwrap_or(after.len());
        // The ends after the arrow: the last is the target, a first one
        // before it its label (counted, not collected).
        let is_end = |t: &&ast::Tok<'_>| matches!(t.kind, IDENT | STRING | PAREN);
        let mut ends = after[..colon].iter().filter(is_end);
        let Some(first_end) = ends.next() else { return };
        let to_token = ends.next_back().unwrap_or(first_end);
        let to_label = (to_token.range != first_end.range).then(|| unquote(first_end.text));
        let label_text = after[colon.min(after.len())..]
            .iter()
            .find(|t| t.kind == TEXT)
            .map(|t| t.text);
        let color = after[..colon]
            .iter()
            .find(|t| t.kind == COLOR)
            .map(|t| t.text.to_string());
        let parts = split_arrow(tokens[arrow_at].text);
        let from = self.end_of(from_token);
        let to = self.end_of(to_token);
        let (label, label_arrow) = match label_text {
            Some(text) => {
                let (label, arrow) = label_and_arrow(text);
                ((!label.is_empty()).then_some(label), arrow)
            }
            None => (None, None),
        };
        let mut link = Link {
            from,
            to,
            from_head: parts.from_head,
            to_head: parts.to_head,
            line: parts.line,
            length: parts.length,
            direction: parts.direction,
            hidden: false,
            norank: false,
            color,
            thickness: None,
            label,
            label_arrow,
            from_label,
            to_label,
        };
        for style in &parts.styles {
            let lower = style.to_ascii_lowercase();
            match lower.as_str() {
                "hidden" => link.hidden = true,
                "norank" => link.norank = true,
                "dashed" => link.line = LineStyle::Dashed,
                "dotted" => link.line = LineStyle::Dotted,
                "bold" => link.line = LineStyle::Bold,
                "plain" => link.line = LineStyle::Solid,
                _ if lower.starts_with("thickness=") => link.thickness = lower[10..].trim().parse().ok(),
                _ if style.starts_with('#') => link.color = Some(style.clone()),
                _ => {}
            }
        }
        self.push_link(link, range);
    }

    fn note(&mut self, node: &SyntaxNode) {
        let tokens = ast::significant_tokens(node);
        let keywords: Vec<String> = tokens
            .iter()
            .filter(|t| t.kind() == KEYWORD)
            .map(|t| t.text().to_ascii_lowercase())
            .collect();
        let side = keywords.iter().find_map(|k| match k.as_str() {
            "left" => Some(NoteSide::Left),
            "right" => Some(NoteSide::Right),
            "top" => Some(NoteSide::Top),
            "bottom" => Some(NoteSide::Bottom),
            _ => None,
        });
        let color = tokens.iter().find(|t| t.kind() == COLOR).map(|t| t.text().to_string());
        let inline = tokens
            .iter()
            .skip_while(|t| t.kind() != COLON)
            .find(|t| t.kind() == TEXT)
            .map(|t| t.text().to_string());
        let quoted = tokens.iter().find(|t| t.kind() == STRING).map(|t| unquote(t.text()));
        let text = inline.or(quoted.clone()).unwrap_or_else(|| body_text(node));
        let on_link = keywords.iter().any(|k| k == "link");
        let mut on_member = false;
        let target = if on_link {
            match self.last_link {
                Some(link) => NoteTarget::Link(link),
                None => NoteTarget::Floating { alias: None },
            }
        } else if keywords.iter().any(|k| k == "of") {
            let Some(name) = tokens
                .iter()
                .find(|t| matches!(t.kind(), IDENT | STRING) && t.kind() != TEXT)
            else {
                return;
            };
            let raw = unquote(name.text());
            // `A::member`: the note is on A.
            on_member = raw.contains("::");
            let element_name = raw.split("::").next().unwrap_or(&raw).to_string();
            let name_range = TextRange::at(name.text_range().start(), (element_name.len() as u32).into());
            let element = self.resolve(&element_name, name_range);
            NoteTarget::Element {
                element,
                side: side.unwrap_or(NoteSide::Right),
            }
        } else if let Some(side) = side {
            match self.last_element {
                Some(element) => NoteTarget::Element { element, side },
                None => NoteTarget::Floating { alias: None },
            }
        } else {
            NoteTarget::Floating {
                alias: floating_note_alias(&tokens),
            }
        };
        let index = self.diagram.notes.len() as u32;
        if let NoteTarget::Floating { alias: Some(alias) } = &target {
            self.notes_by_alias.insert(alias.clone(), index);
        }
        self.diagram.notes.push(ClassNote {
            target,
            text,
            color,
            package: self.current_package(),
            created_after: (self.diagram.packages.len() + self.diagram.elements.len() + self.diagram.links.len())
                as u32
                + self.numbers_taken_by_notes,
        });
        self.numbers_taken_by_notes += if on_member { 2 } else { 3 };
        self.map.notes.push(statement_range(node));
    }

    pub(crate) fn finish(
        mut self,
        end_offset: TextSize,
        needs_newline: bool,
    ) -> (ClassDiagram, ClassSourceMap, Vec<Diagnostic>) {
        if let Some(open) = self.open.last() {
            let what = match open {
                Open::Package(_) => "package",
                Open::Together(_) => "together",
            };
            let closers = format!(
                "{}{}",
                if needs_newline { "\n" } else { "" },
                "}\n".repeat(self.open.len())
            );
            let opened_at = self.open_ranges.last().copied().unwrap_or(TextRange::empty(end_offset));
            self.diagnostics.push(
                Diagnostic::warning(
                    crate::codes::CLASS_UNCLOSED_GROUP,
                    opened_at,
                    format!("a `{what}` block is still open at the end of the diagram (PlantUML closes it there): close it with `}}`"),
                )
                .with_fix("Close the open blocks", vec![puml_syntax::TextEdit::insert(end_offset, closers)]),
            );
        }
        (self.diagram, self.map, self.diagnostics)
    }
}

fn plain_link(from: LinkEnd, to: LinkEnd) -> Link {
    Link {
        from,
        to,
        from_head: LinkHead::None,
        to_head: LinkHead::None,
        line: LineStyle::Solid,
        length: 2,
        direction: None,
        hidden: false,
        norank: false,
        color: None,
        thickness: None,
        label: None,
        label_arrow: None,
        from_label: None,
        to_label: None,
    }
}

/// `<<Foo>>` → `Foo`.
fn stereotype_text(text: &str) -> String {
    text.trim_start_matches("<<").trim_end_matches(">>").trim().to_string()
}

/// `<< (S,#FF7700) Singleton >>` → its spot and its names.
pub(crate) fn parse_stereotype(text: &str) -> (Option<Spot>, Vec<String>) {
    let inner = stereotype_text(text);
    let mut rest = inner.as_str();
    let mut spot = None;
    if let Some(after) = rest.strip_prefix('(') {
        if let Some(close) = after.find(')') {
            let mut parts = after[..close].split(',');
            let letter = parts.next().and_then(|l| l.trim().chars().next());
            let color = parts.next().map(|c| c.trim().to_string()).filter(|c| !c.is_empty());
            if let Some(letter) = letter {
                spot = Some(Spot { letter, color });
            }
            rest = after[close + 1..].trim();
        }
    }
    let names = rest
        .split(">><<")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    (spot, names)
}

/// `#pink;line:red;line.dashed;text:blue` and `##[dashed]blue`.
pub(crate) fn apply_element_color(style: &mut ElementStyle, color: &str) {
    if let Some(line) = color.strip_prefix("##") {
        let (dash, rest) = match line.strip_prefix('[') {
            Some(r) => match r.find(']') {
                Some(e) => (Some(&r[..e]), &r[e + 1..]),
                None => (None, line),
            },
            None => (None, line),
        };
        if !rest.is_empty() {
            style.line_color = Some(rest.to_string());
        }
        style.line_style = match dash {
            Some("dashed") => Some(LineStyle::Dashed),
            Some("dotted") => Some(LineStyle::Dotted),
            Some("bold") => Some(LineStyle::Bold),
            _ => style.line_style,
        };
        return;
    }
    for (index, part) in color.trim_start_matches('#').split(';').enumerate() {
        let lower = part.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("line:") {
            style.line_color = Some(part[5..].to_string()).filter(|_| !v.is_empty());
        } else if let Some(v) = lower.strip_prefix("text:") {
            style.text_color = Some(part[5..].to_string()).filter(|_| !v.is_empty());
        } else if let Some(v) = lower.strip_prefix("back:") {
            style.background = Some(part[5..].to_string()).filter(|_| !v.is_empty());
        } else if lower == "line.dashed" {
            style.line_style = Some(LineStyle::Dashed);
        } else if lower == "line.dotted" {
            style.line_style = Some(LineStyle::Dotted);
        } else if lower == "line.bold" {
            style.line_style = Some(LineStyle::Bold);
        } else if index == 0 && !part.is_empty() {
            style.background = Some(format!("#{part}"));
        }
    }
}

/// The alias of a floating note (`note "text" as N`): the name after `as`.
pub(crate) fn floating_note_alias(tokens: &[SyntaxToken]) -> Option<String> {
    tokens
        .iter()
        .skip_while(|t| !(t.kind() == KEYWORD && t.text().eq_ignore_ascii_case("as")))
        .find(|t| t.kind() == IDENT)
        .map(|t| t.text().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_split_into_heads_body_and_direction() {
        let a = split_arrow("<|--");
        assert_eq!(
            (a.from_head, a.to_head, a.length),
            (LinkHead::Triangle, LinkHead::None, 2)
        );
        let a = split_arrow("..>");
        assert_eq!((a.to_head, a.line), (LinkHead::Arrow, LineStyle::Dashed));
        let a = split_arrow("-up->");
        assert_eq!((a.direction, a.length), (Some(LinkDirection::Up), 2));
        let a = split_arrow("}o--o{");
        assert_eq!((a.from_head, a.to_head), (LinkHead::ZeroOrMany, LinkHead::ZeroOrMany));
        let a = split_arrow("-[#red,dashed,thickness=2]->");
        assert_eq!(a.styles, vec!["#red", "dashed", "thickness=2"]);
    }

    #[test]
    fn members_are_classified() {
        let Some(Member::Item(item)) = classify_member("{static} +count() : int") else {
            panic!()
        };
        assert!(item.is_static && item.is_method);
        assert_eq!(item.visibility, Some(Visibility::Public));
        assert_eq!(item.text, "count() : int");
        assert!(matches!(
            classify_member("-- title --"),
            Some(Member::Separator { style: SeparatorStyle::Solid, title: Some(t) }) if t == "title"
        ));
        assert!(matches!(classify_member(".."), Some(Member::Separator { .. })));
    }

    #[test]
    fn labels_carry_their_arrows() {
        assert_eq!(label_and_arrow("owns >"), ("owns".into(), Some(LinkDirection::Right)));
        assert_eq!(label_and_arrow("< owns"), ("owns".into(), Some(LinkDirection::Left)));
        assert_eq!(label_and_arrow("plain"), ("plain".into(), None));
    }
}
