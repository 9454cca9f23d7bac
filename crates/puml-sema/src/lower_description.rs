//! Description statements → `description::DescriptionDiagram`.
//!
//! Elements are created on first use as PlantUML creates them: a declaration
//! makes an element of its keyword's shape (or its short form's: `[C]` a
//! component, `(U)` a use case, `:A:` an actor, `() I` an interface); a
//! link end that names nothing yet makes one of its short form's shape, an
//! actor for a plain or quoted name. A name is looked for in the open
//! container and the containers around it, then anywhere (a code is known
//! in the whole diagram); a new element belongs to the open container and
//! its qualified name is the containers' path before its code (`P.E`).
//! Containers are a stack of open ones (no recursion); a link end naming a
//! container links the container as a whole.

use crate::class::{
    ClassNote, ElementId, ElementStyle, LineStyle, Link, LinkEnd, LinkHead, LinkId, NoteSide, NoteTarget, Package,
    PackageId,
};
use crate::description::{DescriptionDiagram, DescriptionSourceMap, Element, Shape};
use crate::lower_class::{
    apply_element_color, body_text, floating_note_alias, label_and_arrow, parse_stereotype, split_arrow, unquote,
};
use puml_syntax::ast::{self, statement_range};
use puml_syntax::description_grammar as grammar;
use puml_syntax::{Diagnostic, SyntaxKind, SyntaxNode, TextRange, TextSize};
use rustc_hash::FxHashMap;
use SyntaxKind::*;

#[derive(Default)]
pub(crate) struct DescriptionLowering {
    diagram: DescriptionDiagram,
    map: DescriptionSourceMap,
    diagnostics: Vec<Diagnostic>,
    /// Open containers, innermost last (`None`: a `together` block).
    open: Vec<Option<PackageId>>,
    open_ranges: Vec<TextRange>,
    by_qualified: FxHashMap<String, ElementId>,
    by_code: FxHashMap<String, Vec<ElementId>>,
    containers_by_code: FxHashMap<String, PackageId>,
    notes_by_alias: FxHashMap<String, u32>,
    last_link: Option<LinkId>,
    last_element: Option<ElementId>,
    /// Elements a link made from a plain name (`foo --> [C]`).
    made_by_plain_name: Vec<ElementId>,
}

/// The shape a short form gives (`[C]`, `(U)`, `:A:`, `() I`).
fn short_form_shape(text: &str) -> Option<Shape> {
    match grammar::endpoint_code(text).1? {
        "component" => Some(Shape::Component),
        "usecase" => Some(Shape::Usecase),
        "actor" => Some(Shape::Actor),
        "interface" => Some(Shape::Interface),
        _ => None,
    }
}

/// Whether a name piece is a display (quoted or a short form) rather than a
/// plain code.
fn is_display(text: &str) -> bool {
    text.starts_with('"') || short_form_shape(text).is_some()
}

/// The text a display draws: `\n` stays for the layout; `<<device>>`
/// written in it is drawn `«device»`, as PlantUML draws it (corpus 029).
fn display_text(text: &str) -> String {
    let name = grammar::unwrap_name(text);
    if name.contains("<<") && name.contains(">>") {
        name.replace("<<", "«").replace(">>", "»")
    } else {
        name
    }
}

/// Where the name itself is written in a name token: inside its
/// brackets, parentheses, colons or quotes (`[Comp]` → `Comp`), so that a
/// rename replaces the name alone.
fn name_range(token: &ast::Tok<'_>) -> TextRange {
    let text = token.text;
    let name = grammar::unwrap_name(text);
    match text.find(name.as_str()).filter(|_| !name.is_empty()) {
        Some(at) => TextRange::at(
            token.range.start() + TextSize::from(at as u32),
            TextSize::from(name.len() as u32),
        ),
        None => token.range,
    }
}

/// A head of the description grammar's arrows that the class one lacks:
/// `0` a ball (lollipop), `(` a socket.
fn description_head(text: &str, class_head: LinkHead) -> LinkHead {
    match text {
        "0" | "(0" | "0)" => LinkHead::Circle,
        "(" | ")" => LinkHead::HalfCircle,
        _ => class_head,
    }
}

impl DescriptionLowering {
    fn current_container(&self) -> Option<PackageId> {
        self.open.iter().rev().find_map(|o| *o)
    }

    fn qualify(&self, code: &str) -> String {
        match self.current_container() {
            Some(c) => format!("{}.{code}", self.diagram.containers[c.index()].qualified_name),
            None => code.to_string(),
        }
    }

    /// The element `code` names from the open container: in it, the
    /// containers around it, then anywhere when only one element has it.
    fn lookup(&self, code: &str) -> Option<ElementId> {
        let mut container = self.current_container();
        while let Some(c) = container {
            let candidate = format!("{}.{code}", self.diagram.containers[c.index()].qualified_name);
            if let Some(&id) = self.by_qualified.get(&candidate) {
                return Some(id);
            }
            container = self.diagram.containers[c.index()].parent;
        }
        if let Some(&id) = self.by_qualified.get(code) {
            return Some(id);
        }
        self.by_code.get(code).and_then(|ids| ids.first().copied())
    }

    fn create(&mut self, code: String, shape: Shape, range: TextRange, declared: bool) -> ElementId {
        let qualified = self.qualify(&code);
        let id = ElementId(self.diagram.elements.len() as u32);
        self.by_code.entry(code.clone()).or_default().push(id);
        self.by_qualified.insert(qualified.clone(), id);
        self.diagram.elements.push(Element {
            shape,
            display: code.clone(),
            code,
            qualified_name: qualified,
            stereotypes: Vec::new(),
            style: ElementStyle::default(),
            container: self.current_container(),
            declared,
        });
        self.map.elements.push(range);
        self.map.element_references.push(vec![range]);
        id
    }

    /// One statement of the diagram: `green` with its significant tokens
    /// and its range (as [`ast::GreenStatement::significant_tokens_and_range`]
    /// gives them); `node` builds its cursor node for the readings that
    /// still walk one (elements and links are read from the tokens: the
    /// cursor API allocates a node for every token it hands out).
    pub(crate) fn statement(
        &mut self,
        green: ast::GreenStatement<'_>,
        tokens: &[ast::Tok<'_>],
        range: TextRange,
        node: &dyn Fn() -> SyntaxNode,
    ) {
        match green.kind() {
            DESC_ELEMENT => self.element(green, tokens, range, node),
            DESC_LINK => self.link(tokens, range),
            DESC_NOTE => self.note(&node()),
            DESC_CONTAINER_START => self.container(tokens, range),
            DESC_CONTAINER_END => {
                self.open.pop();
                self.open_ranges.pop();
            }
            DESC_OPTION => {
                let text = green.text().to_ascii_lowercase();
                let words: Vec<&str> = text.split_whitespace().collect();
                if words == ["left", "to", "right", "direction"] {
                    self.diagram.left_to_right = true;
                } else if words == ["top", "to", "bottom", "direction"] {
                    self.diagram.left_to_right = false;
                }
            }
            _ => {}
        }
    }

    /// The name pieces of a declaration (`first`, and the one after `as`),
    /// its stereotypes and style.
    fn declaration_parts<'t, 'a>(
        tokens: &'t [ast::Tok<'a>],
    ) -> (
        Option<&'t ast::Tok<'a>>,
        Option<&'t ast::Tok<'a>>,
        Vec<String>,
        ElementStyle,
    ) {
        let mut first = None;
        let mut alias = None;
        let mut after_as = false;
        let mut stereotypes = Vec::new();
        let mut style = ElementStyle::default();
        for token in tokens {
            match token.kind {
                KEYWORD if token.text.eq_ignore_ascii_case("as") => after_as = true,
                IDENT | STRING if after_as && alias.is_none() => alias = Some(token),
                IDENT | STRING if first.is_none() && !after_as => first = Some(token),
                STEREOTYPE => stereotypes.extend(parse_stereotype(token.text).1),
                COLOR => apply_element_color(&mut style, token.text),
                _ => {}
            }
        }
        (first, alias, stereotypes, style)
    }

    fn element(
        &mut self,
        green: ast::GreenStatement<'_>,
        tokens: &[ast::Tok<'_>],
        statement: TextRange,
        node: &dyn Fn() -> SyntaxNode,
    ) {
        let keyword_shape = tokens
            .first()
            .filter(|t| t.kind == KEYWORD)
            .and_then(|t| Shape::from_keyword(t.text));
        let (first, alias, stereotypes, style) = Self::declaration_parts(tokens);
        let Some(first) = first else { return };
        let first_text = first.text;
        let (code_token, display) = match alias {
            // `actor Admin as A`: PlantUML reads the plain word after `as`
            // as the code and the one before as the display, as it does
            // for `actor "Admin" as A`; `actor A as "Admin"` is the reverse.
            Some(alias) if is_display(first_text) || !alias.text.starts_with('"') => (alias, display_text(first_text)),
            Some(alias) => (first, display_text(alias.text)),
            // `["abc"]` declared shows `abc` (its code keeps the quotes;
            // in a link PlantUML shows them).
            None => {
                let display = display_text(first_text);
                let bracketed = first_text.starts_with(['[', '(']);
                let unquoted = display
                    .strip_prefix('"')
                    .and_then(|d| d.strip_suffix('"'))
                    .filter(|_| bracketed && display.len() >= 2);
                (first, unquoted.map_or(display.clone(), str::to_string))
            }
        };
        let shape = keyword_shape
            .or_else(|| short_form_shape(code_token.text))
            .or_else(|| short_form_shape(first_text))
            .unwrap_or(Shape::Usecase);
        let code = grammar::unwrap_name(code_token.text);
        // A multi-line element: its text is the lines inside its opener.
        let display = if green.child(BLOCK_END).is_some() {
            let node = node();
            let mut lines = Vec::new();
            let opened = tokens.iter().rev().find(|t| t.kind == TEXT && t.text.starts_with('"'));
            if let Some(opened) = opened {
                let head = opened.text.trim_start_matches('"');
                if !head.is_empty() {
                    lines.push(head.to_string());
                }
            }
            let body = body_text(&node);
            if !body.is_empty() {
                lines.push(body);
            }
            if let Some(end) = node.children().find(|n| n.kind() == BLOCK_END) {
                let closing = end.text().to_string();
                let closing = closing.trim().trim_end_matches([']', '"']).trim();
                if !closing.is_empty() {
                    lines.push(closing.to_string());
                }
            }
            lines.join("\n")
        } else {
            display
        };
        let range = name_range(code_token);
        let id = match self.lookup(&code) {
            Some(id) => {
                self.map.element_references[id.index()].push(range);
                // An element a link made is moved into the container that declares it.
                if !self.diagram.elements[id.index()].declared {
                    let qualified = self.qualify(&code);
                    let container = self.current_container();
                    let element = &mut self.diagram.elements[id.index()];
                    self.by_qualified.remove(&element.qualified_name);
                    element.container = container;
                    element.qualified_name = qualified.clone();
                    self.by_qualified.insert(qualified, id);
                }
                id
            }
            None => self.create(code, shape, range, true),
        };
        let element = &mut self.diagram.elements[id.index()];
        element.shape = shape;
        element.display = display;
        element.stereotypes = stereotypes;
        element.style = style;
        element.declared = true;
        self.map.elements[id.index()] = statement;
        self.last_element = Some(id);
    }

    fn container(&mut self, tokens: &[ast::Tok<'_>], range: TextRange) {
        let keyword = tokens
            .first()
            .filter(|t| t.kind == KEYWORD)
            .map(|t| t.text.to_ascii_lowercase())
            .unwrap_or_default();
        if keyword == "together" {
            self.open.push(None);
            self.open_ranges.push(range);
            return;
        }
        let (first, alias, stereotypes, style) = Self::declaration_parts(tokens);
        let (code, display, code_token) = match (first, alias) {
            (Some(first), Some(alias)) if is_display(first.text) || !alias.text.starts_with('"') => {
                (grammar::unwrap_name(alias.text), display_text(first.text), Some(alias))
            }
            (Some(first), Some(alias)) => (grammar::unwrap_name(first.text), display_text(alias.text), Some(first)),
            (Some(first), None) => (grammar::unwrap_name(first.text), display_text(first.text), Some(first)),
            (None, _) => (String::new(), String::new(), None),
        };
        let parent = self.current_container();
        let qualified = match parent {
            Some(p) if !code.is_empty() => format!("{}.{code}", self.diagram.containers[p.index()].qualified_name),
            _ => code.clone(),
        };
        let id = PackageId(self.diagram.containers.len() as u32);
        self.diagram.containers.push(Package {
            keyword,
            qualified_name: qualified,
            display,
            alias: alias.map(|a| grammar::unwrap_name(a.text)),
            stereotypes,
            style,
            parent,
        });
        self.map.containers.push(range);
        self.map.container_references.push(
            code_token
                .filter(|_| !code.is_empty())
                .map(name_range)
                .into_iter()
                .collect(),
        );
        self.diagram
            .containers_after_elements
            .push(self.diagram.elements.len() as u32);
        if !code.is_empty() {
            self.containers_by_code.entry(code).or_insert(id);
        }
        self.open.push(Some(id));
        self.open_ranges.push(range);
    }

    /// A name a link made from a plain word (and nothing declared or
    /// reshaped since) is an actor in a diagram with an actor or a use case
    /// anywhere, and an interface (a circle) otherwise, as PlantUML draws
    /// it (checked with the oracle: `[C] --> foo` draws a circle, with
    /// `(uc)` anywhere in the file an actor).
    fn plain_names_as_interfaces(&mut self) {
        let elements = &mut self.diagram.elements;
        let plain: Vec<ElementId> = self
            .made_by_plain_name
            .iter()
            .copied()
            .filter(|id| {
                elements
                    .get(id.index())
                    .is_some_and(|e| !e.declared && e.shape == Shape::Actor)
            })
            .collect();
        let has_actor_or_usecase = elements.iter().enumerate().any(|(i, e)| {
            matches!(
                e.shape,
                Shape::Actor | Shape::ActorBusiness | Shape::Usecase | Shape::UsecaseBusiness
            ) && !plain.iter().any(|id| id.index() == i)
        });
        if has_actor_or_usecase {
            return;
        }
        for id in plain {
            elements[id.index()].shape = Shape::Interface;
        }
    }

    /// A link end: a note's alias, a container's code, or an element
    /// (created when new).
    fn end_of(&mut self, token: &ast::Tok<'_>) -> LinkEnd {
        let text = token.text;
        let code = grammar::unwrap_name(text);
        if !is_display(text) || text.starts_with('"') {
            if let Some(&note) = self.notes_by_alias.get(&code) {
                return LinkEnd::Note(note);
            }
        }
        if let Some(id) = self.lookup(&code) {
            self.map.element_references[id.index()].push(name_range(token));
            // A link made it from its plain name (an actor); a short form
            // later gives it that form's shape (`c -> HTTP`, `() HTTP -> g`).
            let element = &mut self.diagram.elements[id.index()];
            if let Some(shape) = short_form_shape(text).filter(|_| !element.declared) {
                element.shape = shape;
            }
            return LinkEnd::Element(id);
        }
        if short_form_shape(text).is_none() {
            if let Some(&container) = self.containers_by_code.get(&code) {
                if let Some(references) = self.map.container_references.get_mut(container.index()) {
                    references.push(name_range(token));
                }
                return LinkEnd::Package(container);
            }
        }
        let shape = short_form_shape(text);
        let id = self.create(code, shape.unwrap_or(Shape::Actor), name_range(token), false);
        if shape.is_none() {
            self.made_by_plain_name.push(id);
        }
        LinkEnd::Element(id)
    }

    fn link(&mut self, tokens: &[ast::Tok<'_>], range: TextRange) {
        let Some(arrow_at) = tokens.iter().position(|t| t.kind == ARROW) else {
            return;
        };
        let before = &tokens[..arrow_at];
        let after = &tokens[arrow_at + 1..];
        let Some(from_token) = before.iter().find(|t| matches!(t.kind, IDENT | STRING)) else {
            return;
        };
        let from_label = before
            .iter()
            .filter(|t| t.kind == STRING)
            .find(|t| t.range != from_token.range)
            .map(|t| unquote(t.text));
        let colon = after.iter().position(|t| t.kind == COLON).unwrap_or(after.len());
        let ends: Vec<&ast::Tok<'_>> = after[..colon]
            .iter()
            .filter(|t| matches!(t.kind, IDENT | STRING))
            .collect();
        let Some(to_token) = ends.last().copied() else { return };
        let to_label = (ends.len() > 1).then(|| unquote(ends[0].text));
        let label_text = after[colon..]
            .iter()
            .find(|t| t.kind == TEXT)
            .map(|t| t.text.to_string());
        let color = after[..colon]
            .iter()
            .find(|t| t.kind == COLOR)
            .map(|t| t.text.to_string());
        let arrow = tokens[arrow_at].text;
        let parts = split_arrow(arrow);
        let is_body = |c: char| matches!(c, '-' | '.' | '=' | '~');
        let left = &arrow[..arrow.find(is_body).unwrap_or(0)];
        let right = &arrow[arrow.rfind(is_body).map_or(arrow.len(), |i| i + 1)..];
        let from = self.end_of(from_token);
        let to = self.end_of(to_token);
        let (label, label_arrow) = match label_text {
            Some(text) => {
                let (label, arrow) = label_and_arrow(&text);
                ((!label.is_empty()).then_some(label), arrow)
            }
            None => (None, None),
        };
        let mut link = Link {
            from,
            to,
            from_head: description_head(left, parts.from_head),
            to_head: description_head(right, parts.to_head),
            line: if arrow.contains('~') {
                LineStyle::Dotted
            } else {
                parts.line
            },
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
        let id = LinkId(self.diagram.links.len() as u32);
        self.diagram.links.push(link);
        self.map.links.push(range);
        self.last_link = Some(id);
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
        let target_token = if keywords.iter().any(|k| k == "of") {
            tokens
                .iter()
                .skip_while(|t| !(t.kind() == KEYWORD && t.text().eq_ignore_ascii_case("of")))
                .find(|t| matches!(t.kind(), IDENT | STRING))
        } else {
            None
        };
        let quoted = quoted.filter(|_| target_token.is_none_or(|t| t.kind() != STRING));
        let text = inline.or(quoted).unwrap_or_else(|| body_text(node));
        let target = if keywords.iter().any(|k| k == "link") {
            match self.last_link {
                Some(link) => NoteTarget::Link(link),
                None => NoteTarget::Floating { alias: None },
            }
        } else if let Some(token) = target_token {
            match self.end_of(&ast::Tok::from(token)) {
                LinkEnd::Element(element) => NoteTarget::Element {
                    element,
                    side: side.unwrap_or(NoteSide::Right),
                },
                LinkEnd::Package(package) => NoteTarget::Package {
                    package,
                    side: side.unwrap_or(NoteSide::Right),
                },
                _ => NoteTarget::Floating { alias: None },
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
            package: self.current_container(),
            created_after: (self.diagram.containers.len()
                + self.diagram.elements.len()
                + self.diagram.links.len()
                + 3 * self.diagram.notes.len()) as u32,
        });
        self.map.notes.push(statement_range(node));
    }

    pub(crate) fn finish(
        mut self,
        _end_offset: TextSize,
        _needs_newline: bool,
    ) -> (DescriptionDiagram, DescriptionSourceMap, Vec<Diagnostic>) {
        self.plain_names_as_interfaces();
        // PlantUML's description reading closes the containers left open
        // at the end of the block, silently.
        (self.diagram, self.map, self.diagnostics)
    }
}
