//! Activity statements → `activity::ActivityDiagram` (flat steps, lanes)
//! with its source map, and the block-balance checks: PlantUML accepts a
//! block left open at the end of the diagram (warnings here), and rejects a
//! closer that does not match the innermost open block (errors, on the
//! closer's line, where PlantUML reports them).

use crate::activity::*;
use crate::codes;
use puml_syntax::ast::{self, statement_range};
use puml_syntax::{Diagnostic, Fix, SyntaxKind, SyntaxNode, SyntaxToken, TextEdit, TextRange, TextSize};
use SyntaxKind::*;

/// An open block: what opened it and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    If,
    Switch,
    While,
    Repeat,
    Fork,
    Split,
    Container,
}

impl Block {
    fn name(self) -> &'static str {
        match self {
            Block::If => "if",
            Block::Switch => "switch",
            Block::While => "while",
            Block::Repeat => "repeat",
            Block::Fork => "fork",
            Block::Split => "split",
            Block::Container => "partition",
        }
    }
    /// The statement that closes it.
    fn closer(self) -> &'static str {
        match self {
            Block::If => "endif",
            Block::Switch => "endswitch",
            Block::While => "endwhile",
            Block::Repeat => "repeat while",
            Block::Fork => "end fork",
            Block::Split => "end split",
            Block::Container => "}",
        }
    }
}

#[derive(Default)]
pub(crate) struct ActivityLowering {
    pub(crate) diagram: ActivityDiagram,
    pub(crate) map: ActivitySourceMap,
    pub(crate) diagnostics: Vec<Diagnostic>,
    open: Vec<(Block, TextRange)>,
    /// Parallel to `open`: an `if` has had its `else`, a `switch` its first `case`.
    seen: Vec<bool>,
    current_lane: Option<LaneId>,
    /// The repair of the last action that swallowed statement lines (its
    /// first line lacks `;`, or it is a deprecated `#color:` action): the
    /// errors those lost lines cause downstream carry it, so `--fix`
    /// repairs the cause.
    swallow_fix: Option<Fix>,
    /// The whole lines of the last arrow statement (its removal's range).
    last_arrow_lines: Option<TextRange>,
}

/// Words that start an activity statement: an action line beginning with
/// one was almost certainly meant as its own statement.
const STATEMENT_WORDS: &[&str] = &[
    "start",
    "stop",
    "end",
    "kill",
    "detach",
    "break",
    "if",
    "else",
    "elseif",
    "endif",
    "while",
    "endwhile",
    "repeat",
    "backward",
    "fork",
    "split",
    "switch",
    "case",
    "endswitch",
    "partition",
    "group",
    "note",
];

/// Whether a continuation line of an action reads as a statement.
fn looks_like_statement(line: &str) -> bool {
    let t = line.trim();
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    t.starts_with(':')
        || (t.starts_with('|') && t.len() > 1)
        || t.starts_with("->")
        || t.starts_with("-[")
        || (STATEMENT_WORDS.contains(&word.as_str()) && t.len() >= word.len())
}

/// A parenthesised text without its parentheses, spaces kept.
fn paren_body(paren: &str) -> &str {
    let t = paren.trim();
    let t = t.strip_prefix('(').unwrap_or(t);
    t.strip_suffix(')').unwrap_or(t)
}

/// How many spaces stand inside a parenthesised text before and after it.
fn paren_spaces(paren: &str) -> (usize, usize) {
    let t = paren_body(paren);
    if t.trim().is_empty() {
        return (0, 0);
    }
    (t.len() - t.trim_start().len(), t.len() - t.trim_end().len())
}

fn inner(paren: &str) -> String {
    // A text over several lines (`then ([a` … `b])`): each line trimmed.
    paren_body(paren)
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

fn significant(node: &SyntaxNode) -> Vec<SyntaxToken> {
    ast::significant_tokens(node)
}

/// Lines of an action's text: everything after the `:` up to the
/// terminator, joined with `\n`, with the blanks PlantUML keeps (it draws
/// them: `: Display;` is wider than `:Display;`, its text shifted): the
/// first line's and the last line's all, and each continuation line's
/// beyond the indentation common to the raw lines (the first counted
/// from the start of its line, before the `:`; `test-data/activity-probes/
/// action_blanks_*`). Tabs in that indentation advance to PlantUML's tab
/// stops of eight blanks.
fn action_text(node: &SyntaxNode) -> String {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut inside = false;
    let mut terminated = false;
    // The blanks before the statement on its first line.
    let mut indent = String::new();
    let mut before_statement_ended = false;
    let mut bullet = false;
    for token in node.children_with_tokens().filter_map(|e| e.into_token()) {
        match token.kind() {
            COLON if !inside => inside = true,
            // `- text`: its text starts after the marker and one blank.
            KEYWORD if !inside && matches!(token.text(), "-" | "*") => {
                inside = true;
                bullet = true;
            }
            WHITESPACE if bullet && current.is_empty() => {}
            TERMINATOR => {
                terminated = true;
                break;
            }
            NEWLINE if inside => lines.push(std::mem::take(&mut current)),
            _ if inside => current.push_str(token.text()),
            WHITESPACE if !before_statement_ended => indent.push_str(token.text()),
            _ => before_statement_ended = true,
        }
    }
    // An unterminated action is its one line (its newline is no text).
    if terminated || lines.is_empty() {
        lines.push(current);
    }
    if bullet {
        // PlantUML reads `- text` from the line trimmed at its end.
        return lines[0].trim_end().to_string();
    }
    let Some((first, rest)) = lines.split_first() else {
        return String::new();
    };
    // PlantUML keeps a continuation line as written: its blanks beyond the
    // common indentation, and `\n` or `#` as text (corpus activity 009,
    // where a deprecated `#red:` runs on over lines).
    let blanks = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let common = rest
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| blanks(l))
        .chain(std::iter::once(indent.len()))
        .min()
        .unwrap_or(0);
    let mut text = expand_leading_tabs(first);
    for line in rest {
        text.push('\n');
        let kept = if line.trim().is_empty() {
            line.as_str()
        } else {
            line.get(common..).unwrap_or_else(|| line.trim_start())
        };
        // A backslash doubled is one backslash of text for the label reader.
        text.push_str(&expand_leading_tabs(kept).replace('\\', "\\\\"));
    }
    text
}

/// `line` with the tabs among its leading blanks written as the blanks up
/// to the next tab stop (every eight blanks, as PlantUML draws them).
fn expand_leading_tabs(line: &str) -> String {
    let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
    if !line[..lead].contains('\t') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in line[..lead].chars() {
        if c == '\t' {
            let to = (out.len() / 8 + 1) * 8;
            out.extend(std::iter::repeat_n(' ', to - out.len()));
        } else {
            out.push(c);
        }
    }
    out.push_str(&line[lead..]);
    out
}

/// An arrow's label: the text after the arrow, over the lines PlantUML
/// reads into it when the first has no `;` (`'` comment lines left out;
/// the first line trimmed, the others keeping their leading blanks, as
/// PlantUML draws them).
fn arrow_label(node: &SyntaxNode) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut comment_only = false;
    for token in node.children_with_tokens().filter_map(|e| e.into_token()) {
        match token.kind() {
            TEXT => current.push_str(token.text()),
            COMMENT => comment_only = current.is_empty(),
            NEWLINE => {
                if !comment_only {
                    lines.push(std::mem::take(&mut current));
                }
                current.clear();
                comment_only = false;
            }
            _ => {}
        }
    }
    if !comment_only && !current.is_empty() {
        lines.push(current);
    }
    let first = lines.first_mut()?;
    *first = first.trim().to_string();
    let label = lines.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n");
    (!label.trim().is_empty()).then_some(label)
}

/// The color written as `<<#color>>` after an action, and the other stereotypes.
fn stereotypes(node: &SyntaxNode) -> (Option<String>, Option<String>) {
    let mut color = None;
    let mut stereo = None;
    for t in ast::tokens_of(node, STEREOTYPE) {
        let text = t.text();
        let body = text.trim_start_matches("<<").trim_end_matches(">>").trim();
        if body.starts_with('#') {
            color = Some(body.to_string());
        } else if stereo.is_none() {
            stereo = Some(body.to_string());
        }
    }
    (color, stereo)
}

impl ActivityLowering {
    fn open_block(&mut self, block: (Block, TextRange)) {
        self.open.push(block);
        self.seen.push(false);
    }

    fn error(&mut self, code: &'static str, range: TextRange, message: impl Into<String>) {
        let diagnostic = Diagnostic::error(code, range, message.into());
        self.push_error(diagnostic);
    }

    /// An error, with the repair of a swallowing action before it first.
    fn push_error(&mut self, mut diagnostic: Diagnostic) {
        if let Some(fix) = &self.swallow_fix {
            diagnostic.fixes.insert(0, fix.clone());
        }
        self.diagnostics.push(diagnostic);
    }

    /// The last step that moves the flow (notes, arrows, lanes aside).
    fn last_flow_step(&self) -> Option<&Step> {
        self.diagram
            .steps
            .iter()
            .rev()
            .find(|s| !matches!(s, Step::Note(_) | Step::Arrow(_) | Step::Lane(_)))
    }

    /// A notice PlantUML prints above the diagram (each text once).
    fn notice(&mut self, text: String) {
        if !self.diagram.deprecation_notices.contains(&text) {
            self.diagram.deprecation_notices.push(text);
        }
    }

    fn push(&mut self, step: Step, range: TextRange) {
        self.diagram.steps.push(step);
        self.map.steps.push(range);
    }

    // A closer's `self.close(…)` reports and pops: it belongs in the arm's
    // body, not in a match guard.
    #[allow(clippy::collapsible_match)]
    pub(crate) fn statement(&mut self, node: &SyntaxNode) {
        let range = statement_range(node);
        let tokens = significant(node);
        let keywords: Vec<String> = tokens
            .iter()
            .filter(|t| t.kind() == KEYWORD)
            .map(|t| t.text().to_ascii_lowercase())
            .collect();
        let first_kw = keywords.first().cloned().unwrap_or_default();
        // A `switch` takes `case (…)` before anything else (notes aside).
        if self.open.last().is_some_and(|(b, _)| *b == Block::Switch)
            && self.seen.last() == Some(&false)
            && !matches!(
                node.kind(),
                CASE | END_SWITCH
                    | ACT_NOTE
                    | IF_START
                    | WHILE_START
                    | REPEAT_START
                    | FORK_START
                    | SWITCH_START
                    | CONTAINER_START
            )
            // A block opened before the first `case` fails at its closer instead.
            && self.open.last().is_some_and(|(b, _)| *b == Block::Switch)
        {
            if let Some(seen) = self.seen.last_mut() {
                *seen = true;
            }
            self.error(
                codes::ACTIVITY_MISPLACED,
                range,
                "a `switch` needs `case (…)` before its first step",
            );
        }
        match node.kind() {
            ACTION => {
                let action = self.action(node);
                self.push(Step::Action(action), range);
            }
            ACT_FLOW => {
                if matches!(first_kw.as_str(), "kill" | "detach")
                    && matches!(self.last_flow_step(), None | Some(Step::Start))
                {
                    self.error(
                        codes::ACTIVITY_MISPLACED,
                        range,
                        format!("`{first_kw}` ends the flow of a step: put it after an action (PlantUML: \"{first_kw} cannot be used here\")"),
                    );
                }
                let step = match first_kw.as_str() {
                    "start" => Step::Start,
                    "stop" => Step::Stop,
                    "end" => Step::End,
                    "kill" => Step::Kill,
                    "detach" => Step::Detach,
                    _ => Step::Break,
                };
                self.push(step, range);
            }
            IF_START => {
                let (condition, label) = condition_and_label(&tokens, "then");
                self.open_block((Block::If, range));
                self.push(
                    Step::IfStart {
                        condition,
                        then_label: label,
                        color: None,
                    },
                    range,
                );
            }
            ELSE_IF => {
                self.expect_top(&[Block::If], node, range, "elseif");
                if self.open.last().is_some_and(|(b, _)| *b == Block::If) && self.seen.last() == Some(&true) {
                    self.error(
                        codes::ACTIVITY_MISPLACED,
                        range,
                        "`elseif` after the `else` of its `if`",
                    );
                }
                let (condition, label) = condition_and_label(&tokens, "then");
                self.push(
                    Step::ElseIf {
                        condition,
                        then_label: label,
                    },
                    range,
                );
            }
            ACT_ELSE => {
                self.expect_top(&[Block::If], node, range, "else");
                if self.open.last().is_some_and(|(b, _)| *b == Block::If) {
                    if self.seen.last() == Some(&true) {
                        self.error(codes::ACTIVITY_MISPLACED, range, "a second `else` in one `if`");
                    }
                    if let Some(seen) = self.seen.last_mut() {
                        *seen = true;
                    }
                }
                self.push(
                    Step::Else {
                        label: label_of(&tokens),
                    },
                    range,
                );
            }
            END_IF => {
                if self.close(&[Block::If], node, range, "endif") {
                    self.push(Step::EndIf, range);
                }
            }
            SWITCH_START => {
                let condition = tokens
                    .iter()
                    .find(|t| t.kind() == PAREN)
                    .map(|t| inner(t.text()))
                    .unwrap_or_default();
                self.open_block((Block::Switch, range));
                self.push(Step::SwitchStart { condition }, range);
            }
            CASE => {
                self.expect_top(&[Block::Switch], node, range, "case");
                if let (Some((Block::Switch, _)), Some(seen)) = (self.open.last(), self.seen.last_mut()) {
                    *seen = true;
                }
                let label = label_of(&tokens).unwrap_or_default();
                let spaces = tokens
                    .iter()
                    .find(|t| t.kind() == PAREN)
                    .map_or((0, 0), |t| paren_spaces(t.text()));
                self.push(Step::Case { label, spaces }, range);
            }
            END_SWITCH => {
                if self.close(&[Block::Switch], node, range, "endswitch") {
                    self.push(Step::EndSwitch, range);
                }
            }
            WHILE_START => {
                let (condition, label) = condition_and_label(&tokens, "is");
                self.open_block((Block::While, range));
                self.push(Step::WhileStart { condition, label }, range);
            }
            END_WHILE => {
                if self.close(&[Block::While], node, range, "endwhile") {
                    self.push(
                        Step::EndWhile {
                            label: label_of(&tokens),
                        },
                        range,
                    );
                }
            }
            REPEAT_START => {
                let label = tokens.iter().any(|t| t.kind() == COLON).then(|| action_text(node));
                self.open_block((Block::Repeat, range));
                self.push(Step::RepeatStart { label }, range);
            }
            REPEAT_WHILE => {
                if self.close(&[Block::Repeat], node, range, "repeat while") {
                    let parens: Vec<(Option<String>, String)> = paren_after_keywords(&tokens);
                    let condition = parens.iter().find(|(k, _)| k.is_none()).map(|(_, p)| p.clone());
                    let is_label = parens
                        .iter()
                        .find(|(k, _)| k.as_deref() == Some("is"))
                        .map(|(_, p)| p.clone());
                    let not_label = parens
                        .iter()
                        .find(|(k, _)| k.as_deref() == Some("not"))
                        .map(|(_, p)| p.clone());
                    // PlantUML keeps the whole rest of the line, `;` too.
                    let back_label = tokens
                        .iter()
                        .skip_while(|t| t.kind() != ARROW)
                        .find(|t| t.kind() == TEXT)
                        .map(|t| t.text().trim().to_string())
                        .filter(|t| !t.is_empty());
                    self.push(
                        Step::RepeatWhile {
                            condition,
                            is_label,
                            not_label,
                            back_label,
                        },
                        range,
                    );
                }
            }
            BACKWARD => {
                self.expect_top(&[Block::Repeat, Block::While], node, range, "backward");
                let action = self.action(node);
                self.push(Step::Backward(action), range);
            }
            FORK_START => {
                let (block, step) = if first_kw == "split" {
                    (Block::Split, Step::SplitStart)
                } else {
                    (Block::Fork, Step::ForkStart)
                };
                self.open_block((block, range));
                self.push(step, range);
            }
            FORK_AGAIN => {
                let (block, step) = if first_kw == "split" {
                    (Block::Split, Step::SplitAgain)
                } else {
                    (Block::Fork, Step::ForkAgain)
                };
                self.expect_top(
                    &[block],
                    node,
                    range,
                    if block == Block::Split {
                        "split again"
                    } else {
                        "fork again"
                    },
                );
                self.push(step, range);
            }
            FORK_END => {
                let second = keywords.get(1).cloned().unwrap_or_default();
                let split = first_kw == "endsplit" || second == "split";
                let merge = second == "merge";
                let (block, what) = if split {
                    (Block::Split, "end split")
                } else {
                    (Block::Fork, if merge { "end merge" } else { "end fork" })
                };
                if self.close(&[block], node, range, what) {
                    let step = if split {
                        Step::EndSplit
                    } else {
                        // PlantUML draws the braces too (`end fork {and}`).
                        let label = ast::tokens_of(node, TEXT)
                            .next()
                            .map(|t| t.text().trim().to_string())
                            .filter(|t| !t.is_empty())
                            .map(|t| format!("{{{t}}}"));
                        Step::EndFork { merge, label }
                    };
                    self.push(step, range);
                }
            }
            SWIMLANE => self.swimlane(node, range),
            CONTAINER_START => {
                let kind = match first_kw.as_str() {
                    "group" => ContainerKind::Group,
                    "package" => ContainerKind::Package,
                    "rectangle" => ContainerKind::Rectangle,
                    "card" => ContainerKind::Card,
                    _ => ContainerKind::Partition,
                };
                let name = tokens
                    .iter()
                    .find(|t| matches!(t.kind(), TEXT | STRING))
                    .map(|t| t.text().trim().trim_matches('"').to_string())
                    .unwrap_or_default();
                let color = tokens.iter().find(|t| t.kind() == COLOR).map(|t| t.text().to_string());
                if !tokens.iter().any(|t| t.kind() == L_BRACE) {
                    self.notice(format!(
                        "You should use a bracket ({{) when defining your container '{first_kw}' {name}"
                    ));
                }
                self.open_block((Block::Container, range));
                self.push(Step::ContainerStart { kind, name, color }, range);
            }
            CONTAINER_END => {
                if first_kw == "end" {
                    self.notice("You should use a bracket (}) instead of 'end group'".to_string());
                }
                if self.close(&[Block::Container], node, range, "}") {
                    self.push(Step::ContainerEnd, range);
                }
            }
            ACT_ARROW => {
                let mut style = ArrowStyle::default();
                if let Some(arrow) = tokens.iter().find(|t| t.kind() == ARROW) {
                    let text = arrow.text();
                    if let (Some(open), Some(close)) = (text.find('['), text.rfind(']')) {
                        if open < close {
                            for part in text[open + 1..close].split([',', ';']) {
                                let part = part.trim();
                                match part.to_ascii_lowercase().as_str() {
                                    "dashed" => style.dashed = true,
                                    "dotted" => style.dotted = true,
                                    "bold" => style.bold = true,
                                    "hidden" => style.hidden = true,
                                    _ if part.starts_with('#') => {
                                        style.color.get_or_insert_with(|| part.to_string());
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                }
                style.label = arrow_label(node);
                self.check_arrow_label(node, &style);
                self.last_arrow_lines = Some(node.text_range());
                // Arrows in a row are one arrow to PlantUML: the last label
                // drawn, the first colour and line style kept (probes
                // `arrow_label_last_wins`, `arrow_unlabelled_after_labelled`,
                // `arrow_colour_first_wins`).
                if let Some(Step::Arrow(previous)) = self.diagram.steps.last_mut() {
                    previous.label = style.label.or(previous.label.take());
                    previous.color = previous.color.take().or(style.color);
                    previous.dashed |= style.dashed;
                    previous.dotted |= style.dotted;
                    previous.bold |= style.bold;
                    previous.hidden |= style.hidden;
                } else {
                    self.push(Step::Arrow(style), range);
                }
            }
            ACT_NOTE => {
                // A note that names no side is drawn on the left (PlantUML
                // 1.2026.8, probes `note_side_*`).
                let position = if keywords.iter().any(|k| k == "right") {
                    ActivityNotePosition::Right
                } else {
                    ActivityNotePosition::Left
                };
                let floating = keywords.iter().any(|k| k == "floating");
                let color = tokens.iter().find(|t| t.kind() == COLOR).map(|t| t.text().to_string());
                let text = match ast::body_lines(node) {
                    Some(lines) => lines.join("\n"),
                    None => ast::tokens_of(node, TEXT)
                        .next()
                        .map(|t| t.text().trim().to_string())
                        .unwrap_or_default(),
                };
                self.push(
                    Step::Note(ActivityNote {
                        position,
                        floating,
                        text,
                        color,
                    }),
                    node.text_range(),
                );
            }
            CONNECTOR => {
                let name = tokens
                    .iter()
                    .find(|t| t.kind() == PAREN)
                    .map(|t| inner(t.text()))
                    .unwrap_or_default();
                self.push(Step::Connector { name, color: None }, range);
            }
            _ => {}
        }
    }

    fn action(&mut self, node: &SyntaxNode) -> Action {
        self.check_swallowing(node);
        let (color, stereotype) = stereotypes(node);
        let shape = ast::tokens_of(node, TERMINATOR)
            .next()
            .and_then(|t| t.text().chars().next())
            .and_then(ActionShape::from_terminator)
            .unwrap_or(ActionShape::Plain);
        if let Some(color_token) = ast::tokens_of(node, COLOR).next() {
            // PlantUML 1.2026.8 still draws `#color:text…;` over several
            // lines, but uncoloured and with a notice above the diagram
            // that the form is deprecated (probes `deprecated_action_color`);
            // the colour belongs after the `;`.
            self.diagram
                .deprecated_action_colors
                .push(color_token.text().to_string());
            self.notice(format!(
                "This syntax is deprecated, you must add <<{}>> at the end of the line, after the ';'",
                color_token.text()
            ));
            let mut diagnostic = Diagnostic::warning(
                codes::DEPRECATED_ACTION_COLOR,
                color_token.text_range(),
                format!(
                    "`{}:` before an action is deprecated (PlantUML reads it as the start of a multi-line action and prints a notice): write `:text; <<{}>>`",
                    color_token.text(),
                    color_token.text()
                ),
            );
            // The first line as the action it was meant to be: `#c:text;`
            // → `:text; <<#c>>` (when it ends with `;`; a later line may
            // have closed the action PlantUML actually read).
            let first_line: String = node
                .children_with_tokens()
                .filter_map(|e| e.into_token())
                .take_while(|t| t.kind() != NEWLINE)
                .skip_while(|t| t.kind() == WHITESPACE)
                .map(|t| t.text().to_string())
                .collect();
            let trimmed = first_line.trim_end();
            if let Some(body) = trimmed
                .strip_prefix(color_token.text())
                .map(str::trim_start)
                .and_then(|b| b.strip_prefix(':'))
                .and_then(|b| b.strip_suffix(';'))
            {
                let start = color_token.text_range().start();
                let range = TextRange::at(start, TextSize::of(trimmed));
                diagnostic = diagnostic.with_fix(
                    format!("Write `:…; <<{}>>`", color_token.text()),
                    vec![TextEdit::replace(range, format!(":{body}; <<{}>>", color_token.text()))],
                );
            }
            self.diagnostics.push(diagnostic);
        }
        Action {
            text: action_text(node),
            shape,
            color,
            stereotype,
            lane: self.current_lane,
        }
    }

    /// An action over several lines whose later lines read as statements:
    /// PlantUML silently makes them text. Warn, and remember the repair.
    fn check_swallowing(&mut self, node: &SyntaxNode) {
        let text = node.text().to_string();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() < 2 || !lines[1..].iter().any(|l| looks_like_statement(l)) {
            return;
        }
        let colored = ast::tokens_of(node, COLOR).next();
        let start = node.text_range().start();
        let first = lines[0];
        let first_end = start + TextSize::of(first.trim_end());
        let fix = match &colored {
            // `#c:text;` → `:text; <<#c>>` (the W0210 repair).
            Some(color) if first.trim_end().ends_with(';') => {
                let body = first.trim().strip_prefix(color.text()).unwrap_or("").trim_start();
                let body = body.strip_prefix(':').unwrap_or(body);
                let body = body.strip_suffix(';').unwrap_or(body);
                Fix {
                    title: format!("Write `:…; <<{}>>`", color.text()),
                    edits: vec![TextEdit::replace(
                        TextRange::new(color.text_range().start(), first_end),
                        format!(":{body}; <<{}>>", color.text()),
                    )],
                    machine_applicable: true,
                }
            }
            Some(_) => return,
            None => Fix {
                title: "End the action with `;` on its first line".to_string(),
                edits: vec![TextEdit::insert(first_end, ";")],
                machine_applicable: true,
            },
        };
        if colored.is_none() {
            let mut diagnostic = Diagnostic::warning(
                codes::ACTION_SWALLOWS_LINES,
                TextRange::new(start + TextSize::of(first) - TextSize::of(first.trim_start()), first_end),
                format!(
                    "this action has no `;`, so the {} line(s) after it, up to the next `;`, are its text, not statements",
                    lines.len() - 1
                ),
            );
            diagnostic.fixes.push(fix.clone());
            self.diagnostics.push(diagnostic);
        }
        self.swallow_fix = Some(fix);
    }

    /// PlantUML's two surprising readings of arrow labels, drawn as it
    /// draws them and warned about: a label without `;` that runs on over
    /// lines reading as statements (they become label text), and a label
    /// that the next arrow's label replaces before any step (only the last
    /// is drawn).
    fn check_arrow_label(&mut self, node: &SyntaxNode, style: &ArrowStyle) {
        let text = node.text().to_string();
        let lines: Vec<&str> = text.lines().collect();
        let start = node.text_range().start();
        if lines.len() > 1 && lines[1..].iter().any(|l| looks_like_statement(l)) {
            let first = lines[0];
            let first_end = start + TextSize::of(first.trim_end());
            let lead = TextSize::of(first) - TextSize::of(first.trim_start());
            let fix = Fix {
                title: "End the arrow's label with `;` on its first line".to_string(),
                edits: vec![TextEdit::insert(first_end, ";")],
                machine_applicable: true,
            };
            let mut diagnostic = Diagnostic::warning(
                codes::ARROW_LABEL_SWALLOWS_LINES,
                TextRange::new(start + lead, first_end),
                format!(
                    "this arrow's label has no `;`, so the {} line(s) after it, up to the next `;`, are more label text, not statements",
                    lines.len() - 1
                ),
            );
            diagnostic.fixes.push(fix.clone());
            self.diagnostics.push(diagnostic);
            self.swallow_fix = Some(fix);
        }
        if style.label.is_none() {
            return;
        }
        let previous = self.diagram.steps.len().checked_sub(1);
        if let Some(index) = previous {
            if let Step::Arrow(ArrowStyle {
                label: Some(dropped), ..
            }) = &self.diagram.steps[index]
            {
                let range = self.map.steps[index];
                let mut diagnostic = Diagnostic::warning(
                    codes::ARROW_LABEL_DROPPED,
                    range,
                    format!(
                        "the next arrow's label replaces this one: PlantUML draws one arrow here, labelled with the last label only, so `{}` is not drawn",
                        dropped.lines().next().unwrap_or_default()
                    ),
                );
                diagnostic.fixes.push(Fix {
                    title: "Remove the arrow whose label is not drawn".to_string(),
                    edits: self.last_arrow_lines.map(TextEdit::delete).into_iter().collect(),
                    machine_applicable: false,
                });
                self.diagnostics.push(diagnostic);
            }
        }
    }

    fn swimlane(&mut self, node: &SyntaxNode, range: TextRange) {
        let tokens = significant(node);
        let color = tokens.iter().find(|t| t.kind() == COLOR).map(|t| t.text().to_string());
        // `|A|`, `|#c|A|`, `|#c|alias| Display`, `|alias| Display`.
        let total = tokens.iter().filter(|t| t.kind() == PIPE).count();
        let mut segments: [Option<String>; 4] = Default::default();
        let mut pipes = 0;
        for t in &tokens {
            match t.kind() {
                PIPE => pipes += 1,
                TEXT if pipes < 4 => {
                    let slot = segments[pipes].get_or_insert_with(String::new);
                    slot.push_str(t.text().trim());
                }
                _ => {}
            }
        }
        let (code, after) = if total >= 3 {
            (segments[2].clone().unwrap_or_default(), segments[3].clone())
        } else {
            (segments[1].clone().unwrap_or_default(), segments[2].clone())
        };
        let display = after.filter(|a| !a.is_empty()).unwrap_or_else(|| code.clone());
        if total >= 3 && color.is_none() {
            self.error(
                codes::ACTIVITY_MISPLACED,
                range,
                "a swimlane is `|Name|`, `|#color|Name|` or `|#color|alias| Name`",
            );
        }
        if self.diagram.lanes.is_empty() && self.diagram.steps.iter().any(|s| !matches!(s, Step::Note(_))) {
            self.error(
                codes::ACTIVITY_MISPLACED,
                range,
                "the first swimlane must come before the first step (PlantUML: \"This swimlane must be defined at the start of the diagram\")",
            );
        }
        let id = match self.diagram.lanes.iter().position(|l| l.code == code) {
            Some(i) => {
                let lane = &mut self.diagram.lanes[i];
                if color.is_some() {
                    lane.color = color;
                }
                if display != code {
                    lane.display = display;
                }
                LaneId(i as u32)
            }
            None => {
                self.diagram.lanes.push(Swimlane { code, display, color });
                self.map.lanes.push(range);
                LaneId((self.diagram.lanes.len() - 1) as u32)
            }
        };
        self.current_lane = Some(id);
        self.push(Step::Lane(id), range);
    }

    /// A middle statement (`else`, `case`, `fork again`) must be inside its
    /// block, the innermost one open.
    fn expect_top(&mut self, blocks: &[Block], node: &SyntaxNode, range: TextRange, what: &str) {
        if self.open.last().is_some_and(|(b, _)| blocks.contains(b)) {
            return;
        }
        let _ = node;
        let expected = blocks.first().copied().unwrap_or(Block::If);
        let message = match self.open.last() {
            Some((open, _)) => format!(
                "`{what}` belongs to `{}`, but the innermost open block is `{}` (close it with `{}` first)",
                expected.name(),
                open.name(),
                open.closer()
            ),
            None => format!(
                "`{what}` without `{}`: there is no open `{}` here",
                expected.name(),
                expected.name()
            ),
        };
        let mut diagnostic = Diagnostic::error(codes::ACTIVITY_UNBALANCED, range, message);
        if self.open.is_empty() && expected == Block::If && what == "else" {
            diagnostic = diagnostic.with_suggestion("Remove this `else`", vec![TextEdit::delete(node.text_range())]);
        }
        self.push_error(diagnostic);
    }

    /// A closer: pops its block, or reports what is wrong. Returns whether
    /// it closed something (a stray closer adds no step).
    fn close(&mut self, blocks: &[Block], node: &SyntaxNode, range: TextRange, what: &str) -> bool {
        if self.open.last().is_some_and(|(b, _)| blocks.contains(b)) {
            self.open.pop();
            self.seen.pop();
            return true;
        }
        let expected = blocks.first().copied().unwrap_or(Block::If);
        let keyword_range = ast::significant_tokens(node)
            .iter()
            .filter(|t| t.kind() == KEYWORD || t.kind() == R_BRACE)
            .map(|t| t.text_range())
            .reduce(|a, b| a.cover(b))
            .unwrap_or(range);
        let diagnostic = match self.open.last().copied() {
            Some((open, _))
                if matches!(
                    (open, expected),
                    (Block::Fork, Block::Split) | (Block::Split, Block::Fork)
                ) =>
            {
                Diagnostic::error(
                    codes::ACTIVITY_WRONG_CLOSER,
                    range,
                    format!(
                        "`{what}` closes a `{}`, but the open block is a `{}`",
                        expected.name(),
                        open.name()
                    ),
                )
                .with_fix(
                    format!("Write `{}`", open.closer()),
                    vec![TextEdit::replace(keyword_range, open.closer())],
                )
            }
            Some((open, _)) => Diagnostic::error(
                codes::ACTIVITY_UNBALANCED,
                range,
                format!(
                    "`{what}` closes a `{}`, but the innermost open block is `{}` (close it with `{}` first)",
                    expected.name(),
                    open.name(),
                    open.closer()
                ),
            ),
            None => Diagnostic::error(
                codes::ACTIVITY_UNBALANCED,
                range,
                format!(
                    "`{what}` without `{}`: there is no open `{}` here",
                    expected.name(),
                    expected.name()
                ),
            )
            .with_suggestion("Remove this line", vec![TextEdit::delete(node.text_range())]),
        };
        self.push_error(diagnostic);
        false
    }

    /// Blocks still open at the end: PlantUML closes them silently.
    pub(crate) fn finish(
        mut self,
        end_offset: TextSize,
        needs_newline: bool,
    ) -> (ActivityDiagram, ActivitySourceMap, Vec<Diagnostic>) {
        let mut closers = String::new();
        for (block, _) in self.open.iter().rev() {
            closers.push_str(block.closer());
            closers.push('\n');
        }
        let mut first = true;
        for (block, range) in self.open.iter().rev() {
            let mut diagnostic = Diagnostic::warning(
                codes::ACTIVITY_UNCLOSED,
                *range,
                format!(
                    "this `{}` is never closed by `{}` (PlantUML closes it at the end of the diagram)",
                    block.name(),
                    block.closer()
                ),
            );
            // One fix closes every open block, innermost first.
            if first {
                let text = if needs_newline {
                    format!("\n{closers}")
                } else {
                    closers.clone()
                };
                diagnostic = diagnostic.with_fix(
                    format!("Close with `{}`", block.closer()),
                    vec![TextEdit::insert(end_offset, text)],
                );
                first = false;
            }
            self.diagnostics.push(diagnostic);
        }
        (self.diagram, self.map, self.diagnostics)
    }
}

/// `(cond) KEYWORD (label)`: the condition (everything before `keyword`,
/// one parenthesised text read without its parentheses) and the label.
fn condition_and_label(tokens: &[SyntaxToken], keyword: &str) -> (String, Option<String>) {
    let split = tokens
        .iter()
        .position(|t| t.kind() == KEYWORD && t.text().eq_ignore_ascii_case(keyword))
        .unwrap_or(tokens.len());
    // Skip the leading keywords (`if`, `else if`, `while`).
    let start = tokens
        .iter()
        .position(|t| t.kind() != KEYWORD)
        .unwrap_or(tokens.len())
        .min(split);
    let before = &tokens[start..split];
    let is_keyword = |t: &SyntaxToken| {
        t.kind() == KEYWORD
            && ["is", "equals", "equal"]
                .iter()
                .any(|k| t.text().eq_ignore_ascii_case(k))
    };
    // `if (c) is (x) then`, nothing after: PlantUML reads the condition `c`
    // and the label `x` (grammar cases `if-is`).
    let then_last = split + 1 == tokens.len();
    if let ([cond, kw, label], true) = (before, then_last) {
        if cond.kind() == PAREN && is_keyword(kw) && label.kind() == PAREN && !inner(label.text()).is_empty() {
            return (inner(cond.text()), Some(inner(label.text())));
        }
    }
    let condition = match before {
        [single] if single.kind() == PAREN => inner(single.text()),
        // Otherwise its condition runs from the first `(` to the last `)`
        // (`if (c) is (x) then (y)`: `c) is (x`).
        [first, .., last] if first.kind() == PAREN && last.kind() == PAREN => {
            let joined = before
                .iter()
                .map(|t| t.text().to_string())
                .collect::<Vec<_>>()
                .join(" ");
            let trimmed = joined.trim();
            trimmed
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .unwrap_or(trimmed)
                .trim()
                .to_string()
        }
        _ => before
            .iter()
            .map(|t| t.text().to_string())
            .collect::<Vec<_>>()
            .join(" ")
            .trim()
            .to_string(),
    };
    let label = tokens
        .get(split + 1..)
        .and_then(|rest| rest.iter().find(|t| t.kind() == PAREN))
        .map(|t| inner(t.text()));
    (condition, label)
}

/// The label of `else (x)`, `endwhile (x)`, `case (x)`: its parenthesised
/// or bare text.
fn label_of(tokens: &[SyntaxToken]) -> Option<String> {
    tokens
        .iter()
        .find(|t| matches!(t.kind(), PAREN | TEXT))
        .map(|t| {
            if t.kind() == PAREN {
                inner(t.text())
            } else {
                t.text().trim().to_string()
            }
        })
        .filter(|t| !t.is_empty())
}

/// Each parenthesised text with the keyword before it (`None` right after the leading keywords).
fn paren_after_keywords(tokens: &[SyntaxToken]) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    let mut last_kw: Option<String> = None;
    let mut seen_paren = false;
    for t in tokens {
        match t.kind() {
            KEYWORD if seen_paren => last_kw = Some(t.text().to_ascii_lowercase()),
            PAREN => {
                out.push((last_kw.take(), inner(t.text())));
                seen_paren = true;
            }
            _ => {}
        }
    }
    out
}
