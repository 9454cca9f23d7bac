//! Lowering of a state diagram's statements (see `puml_syntax`'s
//! `parser::state`) into a [`StateDiagram`] and its [`StateSourceMap`].
//!
//! States are created on first use, as PlantUML creates them: a name
//! already known anywhere in the diagram is that state; a new one lies in
//! the composite state open where it is first written (and in its current
//! concurrent region). `[*]` is the start (as a source) or the end (as a
//! target) of the open composite state, one of each per composite; `[H]`
//! and `[H*]` its history states. Composite states are flat statements: a
//! stack of open ones, bounded by the parser's nesting limit, never
//! recursion.

use crate::state::*;
use puml_syntax::ast::statement_range;
use puml_syntax::{Diagnostic, SyntaxKind, SyntaxNode, SyntaxToken, TextRange};
use rustc_hash::FxHashMap;
use SyntaxKind::*;

#[derive(Default)]
pub(crate) struct StateLowering {
    diagram: StateDiagram,
    map: StateSourceMap,
    diagnostics: Vec<Diagnostic>,
    /// Names → state.
    by_name: FxHashMap<String, StateId>,
    /// Floating notes' aliases.
    note_aliases: FxHashMap<String, u32>,
    /// The composite states open.
    open: Vec<StateId>,
    /// The last creation number given (see `State::serial`).
    serial: u32,
    /// The last concurrent region number given (`CONCn`).
    regions: u32,
    /// Creation numbers given ahead (see `number_declarations`): per
    /// declared name, per region separator in order, per floating note's
    /// alias.
    reserved_states: FxHashMap<String, u32>,
    reserved_regions: std::collections::VecDeque<u32>,
    reserved_notes: FxHashMap<String, u32>,
}

fn unquote(text: &str) -> String {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
        .to_string()
}

fn significant(node: &SyntaxNode) -> Vec<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia() && t.kind() != NEWLINE)
        .collect()
}

/// The name a `state` declaration gives (`state "Long" as L`, `state L as
/// "Long"`, `state L`), with the token naming it and the display name
/// when one is given.
fn declared_name(tokens: &[SyntaxToken]) -> Option<(String, (&SyntaxToken, Option<String>))> {
    let names: Vec<&SyntaxToken> = tokens
        .iter()
        .skip(1)
        .take_while(|t| matches!(t.kind(), IDENT | STRING | KEYWORD))
        .filter(|t| t.kind() != KEYWORD)
        .collect();
    let (code, display) = match names.as_slice() {
        [a, b] if a.kind() == STRING => (*b, Some(unquote(a.text()))),
        [a, b] => (*a, Some(unquote(b.text()))),
        [a] => (*a, None),
        _ => return None,
    };
    Some((unquote(code.text()), (code, display)))
}

fn direction_of(word: &str) -> Option<Direction> {
    let word = word.to_ascii_lowercase();
    if word.is_empty() {
        return None;
    }
    [
        ("up", Direction::Up),
        ("down", Direction::Down),
        ("left", Direction::Left),
        ("right", Direction::Right),
    ]
    .into_iter()
    .find(|(name, _)| name.starts_with(&word))
    .map(|(_, d)| d)
}

impl StateLowering {
    fn parent(&self) -> Option<StateId> {
        self.open.last().copied()
    }

    fn region(&self) -> u32 {
        self.parent()
            .and_then(|p| self.diagram.states.get(p.index()))
            .map_or(0, |p| p.region_separators.len() as u32)
    }

    fn next_serial(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }

    /// PlantUML reads a state diagram twice: its first pass creates what
    /// the `state` declarations, the region separators and the floating
    /// notes name, so those take the first creation numbers, in the order
    /// written, before everything else (observed: `state A` written after
    /// `X --> Y` is `ent0001` when it is the first declaration; a composite's
    /// `--` regions are numbered before the `[*]` inside it).
    pub(crate) fn number_declarations(&mut self, diagram: &SyntaxNode) {
        for node in diagram.children() {
            match node.kind() {
                STATE_DECL => {
                    if let Some((name, _)) = declared_name(&significant(&node)) {
                        if !self.reserved_states.contains_key(&name) {
                            let serial = self.next_serial();
                            self.reserved_states.insert(name, serial);
                        }
                    }
                }
                STATE_SEPARATOR => {
                    let serial = self.next_serial();
                    self.reserved_regions.push_back(serial);
                }
                STATE_NOTE => {
                    let tokens = significant(&node);
                    let floating = tokens
                        .iter()
                        .any(|t| t.kind() == KEYWORD && t.text().eq_ignore_ascii_case("as"));
                    if let Some(alias) = tokens.iter().rev().find(|t| t.kind() == IDENT).filter(|_| floating) {
                        let serial = self.next_serial();
                        self.reserved_notes.entry(alias.text().to_string()).or_insert(serial);
                    }
                }
                _ => {}
            }
        }
    }

    fn add_state(&mut self, name: &str, display: String, kind: StateKind, range: TextRange) -> StateId {
        let id = StateId(self.diagram.states.len() as u32);
        let serial = match self.reserved_states.remove(name) {
            Some(serial) => serial,
            None => self.next_serial(),
        };
        self.diagram.states.push(State {
            name: name.to_string(),
            display,
            kind,
            parent: self.parent(),
            region: self.region(),
            description: Vec::new(),
            stereotypes: Vec::new(),
            color: None,
            line_color: None,
            line_style: None,
            composite: false,
            region_separators: Vec::new(),
            serial,
            region_serials: Vec::new(),
        });
        self.map.states.push(range);
        self.map.state_references.push(Vec::new());
        self.by_name.insert(name.to_string(), id);
        id
    }

    /// The state a name designates, created in the open composite when new.
    fn state_named(&mut self, name: &str, range: TextRange, statement: TextRange) -> StateId {
        let id = match self.by_name.get(name) {
            Some(&id) => id,
            None => self.add_state(name, name.to_string(), StateKind::Normal, statement),
        };
        self.map.state_references[id.index()].push(range);
        id
    }

    /// `[*]`, `[H]`, `[H*]` of the open composite.
    fn pseudo_state(&mut self, text: &str, as_source: bool, statement: TextRange) -> StateId {
        let (tag, kind) = match text.to_ascii_uppercase().as_str() {
            "[H]" => ("*historical*", StateKind::History),
            "[H*]" => ("*deephistory*", StateKind::DeepHistory),
            _ if as_source => ("*start*", StateKind::Start),
            _ => ("*end*", StateKind::End),
        };
        // One of each per region: `*start*X` in X's first region,
        // `*start*CONC1` in the region after its first separator.
        let owner = match self.parent().map(|p| &self.diagram.states[p.index()]) {
            Some(parent) => match parent.region_serials.last() {
                Some(number) => format!("CONC{number}"),
                None => parent.name.clone(),
            },
            None => String::new(),
        };
        let name = format!("{tag}{owner}");
        match self.by_name.get(&name) {
            Some(&id) => id,
            None => self.add_state(&name, String::new(), kind, statement),
        }
    }

    pub(crate) fn statement(&mut self, node: &SyntaxNode) {
        let range = statement_range(node);
        match node.kind() {
            STATE_DECL => self.declaration(node, range),
            STATE_LINK => self.transition(node, range),
            STATE_DESC => {
                let tokens = significant(node);
                if let Some(name) = tokens.first() {
                    let id = self.state_named(name.text(), name.text_range(), range);
                    let text = tokens
                        .iter()
                        .find(|t| t.kind() == TEXT)
                        .map(|t| t.text().to_string())
                        .unwrap_or_default();
                    self.diagram.states[id.index()].description.push(text);
                }
            }
            STATE_SEPARATOR => {
                if let Some(parent) = self.parent() {
                    let side_by_side = node.text().to_string().trim() == "||";
                    // A region takes a creation number, and is named by a
                    // count of its own (`CONC1`, `CONC2`, …).
                    if self.reserved_regions.pop_front().is_none() {
                        self.next_serial();
                    }
                    self.regions += 1;
                    let number = self.regions;
                    let state = &mut self.diagram.states[parent.index()];
                    state.region_separators.push(side_by_side);
                    state.region_serials.push(number);
                }
            }
            BRACE_END => {
                self.open.pop();
            }
            STATE_OPTION => {
                let text = node.text().to_string().to_ascii_lowercase();
                self.diagram.left_to_right = text.contains("left to right");
            }
            HIDE_SHOW => {
                let text: Vec<String> = node
                    .text()
                    .to_string()
                    .to_ascii_lowercase()
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                if text.len() == 3 && text[1] == "empty" && text[2] == "description" {
                    self.diagram.hide_empty_description = text[0] == "hide";
                }
            }
            STATE_NOTE => self.note(node, range),
            _ => {}
        }
    }

    fn declaration(&mut self, node: &SyntaxNode, range: TextRange) {
        let tokens = significant(node);
        let Some((name, (code, display))) = declared_name(&tokens) else {
            return;
        };
        let id = match self.by_name.get(&name) {
            Some(&id) => id,
            None => {
                let shown = display.clone().unwrap_or_else(|| name.clone());
                self.add_state(&name, shown, StateKind::Normal, range)
            }
        };
        self.map.state_references[id.index()].push(code.text_range());
        let state = &mut self.diagram.states[id.index()];
        if let Some(display) = display {
            state.display = display;
        }
        let mut colours = 0;
        for token in &tokens {
            match token.kind() {
                STEREOTYPE => {
                    let inner = token.text().trim_start_matches("<<").trim_end_matches(">>").trim();
                    match StateKind::of_stereotype(inner) {
                        Some(kind) => state.kind = kind,
                        None => state.stereotypes.push(inner.to_string()),
                    }
                }
                COLOR => {
                    let text = token.text();
                    if let Some(line) = text.strip_prefix("##") {
                        let (style, colour) = match line.strip_prefix('[') {
                            Some(rest) => match rest.split_once(']') {
                                Some((style, colour)) => (Some(style.to_string()), colour),
                                None => (None, rest),
                            },
                            None => (None, line),
                        };
                        state.line_style = style;
                        state.line_color = (!colour.is_empty()).then(|| format!("#{colour}"));
                    } else if colours == 0 {
                        state.color = Some(text.to_string());
                        colours += 1;
                    }
                }
                TEXT => state.description.push(token.text().to_string()),
                L_BRACE => state.composite = true,
                _ => {}
            }
        }
        if self.diagram.states[id.index()].composite {
            self.open.push(id);
        }
    }

    fn transition(&mut self, node: &SyntaxNode, range: TextRange) {
        let tokens = significant(node);
        let Some(arrow_at) = tokens.iter().position(|t| t.kind() == ARROW) else {
            return;
        };
        let (Some(left), Some(right)) = (tokens.get(arrow_at.wrapping_sub(1)), tokens.get(arrow_at + 1)) else {
            return;
        };
        let arrow = tokens[arrow_at].text();
        let head_on_left = arrow.starts_with('<');
        let mut end = |token: &SyntaxToken, is_source: bool| {
            if token.kind() == KEYWORD {
                self.pseudo_state(token.text(), is_source, range)
            } else {
                self.state_named(token.text(), token.text_range(), range)
            }
        };
        // `A <- B` creates B first (observed: B is `ent0006`, A `ent0007`).
        let (from, to) = if head_on_left {
            let to = end(right, head_on_left);
            (end(left, !head_on_left), to)
        } else {
            (end(left, !head_on_left), end(right, head_on_left))
        };
        let label = tokens
            .iter()
            .skip(arrow_at + 2)
            .find(|t| t.kind() == TEXT)
            .map(|t| t.text().to_string());
        let (mut color, mut dashed, mut dotted, mut bold, mut hidden) = (None, false, false, false, false);
        let mut direction = None;
        let mut length = 0;
        let mut rest = arrow.trim_start_matches('<').trim_end_matches('>');
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('-') {
                length += 1;
                rest = after;
            } else if let Some(after) = rest.strip_prefix('[') {
                let (inside, after) = after.split_once(']').unwrap_or((after, ""));
                for part in inside.split(',') {
                    let part = part.trim();
                    match part.to_ascii_lowercase().as_str() {
                        "dashed" => dashed = true,
                        "dotted" => dotted = true,
                        "bold" => bold = true,
                        "hidden" => hidden = true,
                        _ if part.starts_with('#') => color = Some(part.to_string()),
                        _ => {}
                    }
                }
                rest = after;
            } else {
                let len = rest
                    .find(|c: char| !c.is_ascii_alphabetic())
                    .unwrap_or(rest.len())
                    .max(1);
                direction = direction_of(&rest[..len]).or(direction);
                rest = &rest[len.min(rest.len())..];
            }
        }
        // An inverted link (`-up->`, `-left->`, `<-`) takes a second
        // number before its own (PlantUML builds it, then its inverse).
        if head_on_left || matches!(direction, Some(Direction::Up | Direction::Left)) {
            self.next_serial();
        }
        let serial = self.next_serial();
        self.diagram.transitions.push(Transition {
            from,
            to,
            head_on_left,
            label,
            direction,
            length,
            color,
            dashed,
            dotted,
            bold,
            hidden,
            serial,
        });
        self.map.transitions.push(range);
    }

    fn note(&mut self, node: &SyntaxNode, range: TextRange) {
        let tokens = significant(node);
        let keyword = |word: &str| {
            tokens
                .iter()
                .any(|t| t.kind() == KEYWORD && t.text().eq_ignore_ascii_case(word))
        };
        let body: Vec<String> = node
            .children()
            .filter(|c| c.kind() == SyntaxKind::BODY)
            .flat_map(|b| {
                b.text()
                    .to_string()
                    .lines()
                    .map(|l| l.trim().to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        let inline = tokens.iter().find(|t| t.kind() == TEXT).map(|t| t.text().to_string());
        let color = tokens.iter().find(|t| t.kind() == COLOR).map(|t| t.text().to_string());
        let target = if keyword("link") {
            match self.diagram.transitions.len().checked_sub(1) {
                Some(last) => NoteTarget::Transition(last as u32),
                None => return,
            }
        } else if keyword("as") {
            let Some(alias) = tokens.iter().rev().find(|t| t.kind() == IDENT) else {
                return;
            };
            let text = tokens
                .iter()
                .find(|t| t.kind() == STRING)
                .map(|t| unquote(t.text()))
                .unwrap_or_default();
            self.note_aliases
                .insert(alias.text().to_string(), self.diagram.notes.len() as u32);
            self.push_note(
                NoteTarget::Floating {
                    alias: alias.text().to_string(),
                },
                text,
                color,
                range,
            );
            return;
        } else {
            let side = if keyword("left") {
                Direction::Left
            } else if keyword("top") {
                Direction::Up
            } else if keyword("bottom") {
                Direction::Down
            } else {
                Direction::Right
            };
            let Some(name) = tokens.iter().find(|t| t.kind() == IDENT) else {
                return;
            };
            let state = self.state_named(name.text(), name.text_range(), range);
            NoteTarget::State { state, side }
        };
        let text = inline.unwrap_or_else(|| body.join("\n"));
        self.push_note(target, text, color, range);
    }

    fn push_note(&mut self, target: NoteTarget, text: String, color: Option<String>, range: TextRange) {
        // Numbered at the end (see `finish`).
        self.diagram.notes.push(StateNote {
            target,
            text,
            color,
            parent: self.parent(),
            serial: 0,
        });
        self.map.notes.push(range);
    }

    pub(crate) fn finish(mut self) -> (StateDiagram, StateSourceMap, Vec<Diagnostic>) {
        let _ = &self.note_aliases;
        // PlantUML numbers the notes after every state and transition
        // (observed: `GMN4` for the one note of `state A`, a note, `A --> B`),
        // three numbers each (its name, its entity, its link).
        for index in 0..self.diagram.notes.len() {
            // A floating note was numbered in the first pass (its entity's
            // number; `serial` is its name's, one less).
            if let NoteTarget::Floating { alias } = &self.diagram.notes[index].target {
                if let Some(&entity) = self.reserved_notes.get(alias) {
                    self.diagram.notes[index].serial = entity - 1;
                    continue;
                }
            }
            let serial = self.next_serial();
            self.serial += 2;
            self.diagram.notes[index].serial = serial;
        }
        (self.diagram, self.map, self.diagnostics)
    }
}
