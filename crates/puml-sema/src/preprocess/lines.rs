//! Source files as lines, and the block structure of their directives.
//!
//! Each file is read once into a tree of [`Node`]s (`!if` arms, loop and
//! procedure bodies) so that execution never re-scans text to find the end
//! of a block, and structural mistakes (`!endif` without `!if`) are reported
//! once, where they are, whatever branch runs.

use super::codes;
use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

/// Byte ranges of the lines of `text`, without their terminators. The empty
/// piece after a final newline is not a line; an empty text has no line.
/// A UTF-8 byte order mark is not part of the first line.
pub(crate) fn split_lines(text: &str) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            let end = if i > start && bytes[i - 1] == b'\r' { i - 1 } else { i };
            lines.push(start..end);
            start = i + 1;
        }
    }
    if start < text.len() {
        lines.push(start..text.len());
    }
    lines
}

pub(crate) type FileId = usize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct LineRef {
    pub file: FileId,
    pub line: u32,
}

pub(crate) struct SourceFile {
    /// `None` for the main file.
    pub name: Option<String>,
    /// Shared with the include cache: a file included many times is held
    /// once.
    pub text: Rc<str>,
    pub lines: Rc<[Range<usize>]>,
    /// Directory that relative includes resolve against.
    pub dir: Option<PathBuf>,
    /// Canonical path, for cycle detection and `!include_once`.
    pub canonical: Option<PathBuf>,
    /// Where this file was included from, innermost first.
    pub include_chain: Vec<(Option<String>, text_size::TextRange)>,
}

impl SourceFile {
    pub fn line_text(&self, line: u32) -> &str {
        self.lines
            .get(line as usize)
            .map(|r| &self.text[r.clone()])
            .unwrap_or("")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Default,
    Local,
    Global,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IncludeKind {
    Normal,
    Many,
    Once,
    Sub,
    Url,
}

#[derive(Debug, Clone)]
pub(crate) enum Directive {
    Assign {
        scope: Scope,
        name: String,
        if_unset: bool,
        expr: String,
    },
    Define {
        name: String,
        params: Option<Vec<String>>,
        body: String,
    },
    Undef(String),
    Include {
        kind: IncludeKind,
        target: String,
    },
    Return(String),
    Log(String),
    Assert(String),
    /// `!theme`, `!pragma`: kept in the output (after variable substitution)
    /// for the lowering to read.
    KeepLine,
    /// Accepted and without effect on the output (`!dump_memory`, `!option`).
    Ignore,
    Unsupported(String),
    Unknown(String),
    Malformed(String),
}

#[derive(Debug, Clone)]
pub(crate) enum Cond {
    Expr(String),
    Defined(String),
    NotDefined(String),
}

#[derive(Debug, Clone)]
pub(crate) struct IfArm {
    pub at: LineRef,
    /// `None` for the `!else` arm.
    pub cond: Option<Cond>,
    pub body: Vec<Node>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FunctionKind {
    Procedure,
    Function,
    /// `!definelong NAME(a) … !enddefinelong`: a procedure whose arguments
    /// are raw text substituted as whole words.
    LongMacro,
}

#[derive(Debug, Clone)]
pub(crate) struct Param {
    pub name: String,
    pub default: Option<String>,
}

#[derive(Debug)]
pub(crate) struct UserFunction {
    pub name: String,
    pub kind: FunctionKind,
    pub unquoted: bool,
    pub params: Vec<Param>,
    pub body: Vec<Node>,
}

#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// A diagram line: variables, macros and calls are substituted.
    Text(LineRef),
    /// Copied unchanged: comments, lines outside `@startuml … @enduml`.
    Verbatim(LineRef),
    /// `@startuml` of the main file: each diagram starts with a fresh memory.
    DiagramStart(LineRef),
    Directive(LineRef, Directive),
    If(Vec<IfArm>),
    While {
        at: LineRef,
        /// The `!endwhile`, where PlantUML reports a runaway loop.
        end: Option<LineRef>,
        cond: String,
        body: Vec<Node>,
    },
    Foreach {
        at: LineRef,
        var: String,
        list: String,
        body: Vec<Node>,
    },
    Define(Rc<UserFunction>),
    Sub {
        name: String,
        body: Vec<Node>,
    },
}

/// A structural problem found while reading the blocks.
pub(crate) struct StructureError {
    pub at: LineRef,
    pub code: &'static str,
    pub message: String,
}

enum FrameKind {
    Root,
    If {
        done: Vec<IfArm>,
        head: LineRef,
        cond: Option<Cond>,
    },
    While {
        cond: String,
    },
    Foreach {
        var: String,
        list: String,
    },
    Def {
        name: String,
        kind: FunctionKind,
        unquoted: bool,
        params: Vec<Param>,
    },
    Sub {
        name: String,
    },
}

impl FrameKind {
    fn describe(&self) -> &'static str {
        match self {
            FrameKind::Root => "file",
            FrameKind::If { .. } => "!if",
            FrameKind::While { .. } => "!while",
            FrameKind::Foreach { .. } => "!foreach",
            FrameKind::Def {
                kind: FunctionKind::Procedure,
                ..
            } => "!procedure",
            FrameKind::Def {
                kind: FunctionKind::Function,
                ..
            } => "!function",
            FrameKind::Def {
                kind: FunctionKind::LongMacro,
                ..
            } => "!definelong",
            FrameKind::Sub { .. } => "!startsub",
        }
    }
    fn closer(&self) -> &'static str {
        match self {
            FrameKind::Root => "",
            FrameKind::If { .. } => "!endif",
            FrameKind::While { .. } => "!endwhile",
            FrameKind::Foreach { .. } => "!endfor",
            FrameKind::Def {
                kind: FunctionKind::Procedure,
                ..
            } => "!endprocedure",
            FrameKind::Def {
                kind: FunctionKind::Function,
                ..
            } => "!endfunction",
            FrameKind::Def {
                kind: FunctionKind::LongMacro,
                ..
            } => "!enddefinelong",
            FrameKind::Sub { .. } => "!endsub",
        }
    }
}

struct Frame {
    kind: FrameKind,
    at: LineRef,
    body: Vec<Node>,
}

/// Splits a directive line into its keyword (lowercased, without `!`) and
/// the rest. `None` when the line is not a directive.
pub(crate) fn directive_word(text: &str) -> Option<(String, &str)> {
    let rest = text.trim_start().strip_prefix('!')?;
    let word_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    // Case matters: PlantUML reads `!IF` as an unknown line.
    Some((rest[..word_len].to_owned(), &rest[word_len..]))
}

/// Reads lines `range` of `file` into nodes. `diagram_bounds`: the main
/// file's lines outside `@startuml … @enduml` are copied verbatim (PlantUML
/// never preprocesses them).
pub(crate) fn parse_block(
    file_id: FileId,
    file: &SourceFile,
    range: Range<u32>,
    diagram_bounds: bool,
    errors: &mut Vec<StructureError>,
) -> Vec<Node> {
    let mut stack: Vec<Frame> = vec![Frame {
        kind: FrameKind::Root,
        at: LineRef {
            file: file_id,
            line: range.start,
        },
        body: Vec::new(),
    }];
    let mut in_block_comment = false;
    let mut inside_diagram = !diagram_bounds;
    // Blocks opened past MAX_BLOCK_NESTING are not opened (one error);
    // their closers are then swallowed by this count.
    let mut too_deep = 0usize;
    let mut lines = range.clone();
    while let Some(line) = lines.next() {
        let at = LineRef { file: file_id, line };
        let text = file.line_text(line);
        let trimmed = text.trim();
        if in_block_comment {
            in_block_comment = !trimmed.contains("'/");
            push(&mut stack, Node::Verbatim(at));
            continue;
        }
        if !inside_diagram {
            if is_start_line(trimmed) {
                inside_diagram = true;
                push(&mut stack, Node::DiagramStart(at));
            } else {
                push(&mut stack, Node::Verbatim(at));
            }
            continue;
        }
        if diagram_bounds && is_end_line(trimmed) {
            inside_diagram = false;
            push(&mut stack, Node::Verbatim(at));
            continue;
        }
        if let Some(after) = trimmed.strip_prefix("/'") {
            in_block_comment = !after.contains("'/");
            push(&mut stack, Node::Verbatim(at));
            continue;
        }
        if trimmed.starts_with('\'') {
            push(&mut stack, Node::Verbatim(at));
            continue;
        }
        let Some((word, rest)) = directive_word(text) else {
            push(&mut stack, Node::Text(at));
            continue;
        };
        let rest_trimmed = rest.trim();
        if opens_block(&word, rest_trimmed) && (stack.len() > MAX_BLOCK_NESTING || too_deep > 0) {
            if too_deep == 0 {
                errors.push(StructureError {
                    at,
                    code: codes::MALFORMED_DIRECTIVE,
                    message: format!("blocks are nested more than {MAX_BLOCK_NESTING} deep; this one is ignored"),
                });
            }
            too_deep += 1;
            continue;
        }
        if too_deep > 0 && CLOSERS.contains(&word.as_str()) {
            too_deep -= 1;
            continue;
        }
        match word.as_str() {
            "if" => open(&mut stack, at, if_frame(at, Cond::Expr(rest_trimmed.to_owned()))),
            "ifdef" => open(&mut stack, at, if_frame(at, Cond::Defined(rest_trimmed.to_owned()))),
            "ifndef" => open(&mut stack, at, if_frame(at, Cond::NotDefined(rest_trimmed.to_owned()))),
            "elseif" | "else" => {
                let cond = (word == "elseif").then(|| Cond::Expr(rest_trimmed.to_owned()));
                match stack.last_mut() {
                    Some(Frame {
                        kind:
                            FrameKind::If {
                                done,
                                head,
                                cond: current,
                            },
                        body,
                        ..
                    }) => {
                        if current.is_none() {
                            errors.push(StructureError {
                                at,
                                code: codes::UNMATCHED_BLOCK_END,
                                message: format!("found !{word} after the !else of this !if; expected !endif"),
                            });
                            continue;
                        }
                        done.push(IfArm {
                            at: *head,
                            cond: current.take(),
                            body: std::mem::take(body),
                        });
                        *head = at;
                        *current = cond;
                    }
                    _ => errors.push(StructureError {
                        at,
                        code: codes::UNMATCHED_BLOCK_END,
                        message: format!("found !{word} with no open !if"),
                    }),
                }
            }
            "while" => open(
                &mut stack,
                at,
                FrameKind::While {
                    cond: rest_trimmed.to_owned(),
                },
            ),
            "foreach" => match parse_foreach(rest_trimmed) {
                Some((var, list)) => open(&mut stack, at, FrameKind::Foreach { var, list }),
                None => {
                    errors.push(StructureError {
                        at,
                        code: codes::MALFORMED_DIRECTIVE,
                        message: "expected `!foreach $item in <list>`".to_owned(),
                    });
                    // Still open a block so that its `!endfor` matches.
                    open(
                        &mut stack,
                        at,
                        FrameKind::Foreach {
                            var: "$_".to_owned(),
                            list: "[]".to_owned(),
                        },
                    );
                }
            },
            "procedure" | "function" | "unquoted" | "final" => {
                match parse_definition_header(&word, rest_trimmed) {
                    Ok(header) => {
                        let kind = FrameKind::Def {
                            name: header.name,
                            kind: header.kind,
                            unquoted: header.unquoted,
                            params: header.params,
                        };
                        if let Some(one_line) = header.one_line_return {
                            // `!function $f($x) !return $x * 2`
                            let mut frame = Frame {
                                kind,
                                at,
                                body: vec![Node::Directive(at, Directive::Return(one_line))],
                            };
                            let node = close_frame(&mut frame, None);
                            push(&mut stack, node);
                        } else {
                            open(&mut stack, at, kind);
                        }
                    }
                    Err(message) => {
                        errors.push(StructureError {
                            at,
                            code: codes::MALFORMED_DIRECTIVE,
                            message,
                        });
                        // Keep the body out of the output all the same.
                        open(
                            &mut stack,
                            at,
                            FrameKind::Def {
                                name: String::new(),
                                kind: if word == "function" {
                                    FunctionKind::Function
                                } else {
                                    FunctionKind::Procedure
                                },
                                unquoted: false,
                                params: Vec::new(),
                            },
                        );
                    }
                }
            }
            "definelong" => match parse_signature(rest_trimmed, false) {
                Ok((name, params, _)) => open(
                    &mut stack,
                    at,
                    FrameKind::Def {
                        name,
                        kind: FunctionKind::LongMacro,
                        unquoted: true,
                        params,
                    },
                ),
                Err(message) => {
                    errors.push(StructureError {
                        at,
                        code: codes::MALFORMED_DIRECTIVE,
                        message,
                    });
                    open(
                        &mut stack,
                        at,
                        FrameKind::Def {
                            name: String::new(),
                            kind: FunctionKind::LongMacro,
                            unquoted: true,
                            params: Vec::new(),
                        },
                    );
                }
            },
            "startsub" => open(
                &mut stack,
                at,
                FrameKind::Sub {
                    name: rest_trimmed.to_owned(),
                },
            ),
            w if CLOSERS.contains(&w) => close(&mut stack, at, &word, errors),
            _ => {
                let mut directive = parse_simple_directive(&word, rest_trimmed, text);
                // A JSON value may span lines: `!$data = {` … `}`.
                if let Directive::Assign { expr, .. } = &mut directive {
                    let mut continued = 0;
                    while bracket_depth(expr) > 0 && continued < MAX_CONTINUATION_LINES {
                        let Some(next) = lines.next() else { break };
                        expr.push('\n');
                        expr.push_str(file.line_text(next));
                        continued += 1;
                    }
                }
                push(&mut stack, Node::Directive(at, directive));
            }
        }
    }
    while stack.len() > 1 {
        if let Some(mut frame) = stack.pop() {
            errors.push(StructureError {
                at: frame.at,
                code: codes::UNCLOSED_BLOCK,
                message: format!(
                    "this {} is never closed; expected {} before the end of the file",
                    frame.kind.describe(),
                    frame.kind.closer()
                ),
            });
            let node = close_frame(&mut frame, None);
            push(&mut stack, node);
        }
    }
    stack.pop().map(|frame| frame.body).unwrap_or_default()
}

const MAX_BLOCK_NESTING: usize = 64;

/// A multi-line JSON value longer than this is cut (and then fails to parse).
const MAX_CONTINUATION_LINES: usize = 10_000;

/// Open `{`/`[` minus closed ones, outside strings.
fn bracket_depth(text: &str) -> i64 {
    let mut depth = 0i64;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
    }
    depth
}

const CLOSERS: &[&str] = &[
    "endif",
    "endwhile",
    "endfor",
    "endprocedure",
    "endfunction",
    "enddefinelong",
    "endsub",
];

/// Whether the directive opens a block (a one-line function does not).
fn opens_block(word: &str, rest: &str) -> bool {
    match word {
        "if" | "ifdef" | "ifndef" | "while" | "foreach" | "definelong" | "startsub" => true,
        "procedure" | "function" | "unquoted" | "final" => !rest.contains("!return") && !rest.contains(") return "),
        _ => false,
    }
}

pub(crate) fn is_start_line(trimmed: &str) -> bool {
    trimmed.starts_with('@') && trimmed.len() > 6 && trimmed.get(1..6).is_some_and(|w| w.eq_ignore_ascii_case("start"))
}

pub(crate) fn is_end_line(trimmed: &str) -> bool {
    trimmed.starts_with('@') && trimmed.len() > 4 && trimmed.get(1..4).is_some_and(|w| w.eq_ignore_ascii_case("end"))
}

fn if_frame(head: LineRef, cond: Cond) -> FrameKind {
    FrameKind::If {
        done: Vec::new(),
        head,
        cond: Some(cond),
    }
}

fn push(stack: &mut [Frame], node: Node) {
    if let Some(frame) = stack.last_mut() {
        frame.body.push(node);
    }
}

fn open(stack: &mut Vec<Frame>, at: LineRef, kind: FrameKind) {
    stack.push(Frame {
        kind,
        at,
        body: Vec::new(),
    });
}

fn close(stack: &mut Vec<Frame>, at: LineRef, word: &str, errors: &mut Vec<StructureError>) {
    let Some(top) = stack.last() else { return };
    let matches = match (&top.kind, word) {
        (FrameKind::If { .. }, "endif") => true,
        (FrameKind::While { .. }, "endwhile") => true,
        (FrameKind::Foreach { .. }, "endfor") => true,
        // PlantUML reads `!endfunction`, `!endprocedure` and
        // `!enddefinelong` as one directive.
        (FrameKind::Def { .. }, "endfunction" | "endprocedure" | "enddefinelong") => true,
        (FrameKind::Sub { .. }, "endsub") => true,
        _ => false,
    };
    if !matches {
        let message = if matches!(top.kind, FrameKind::Root) {
            format!("found !{word} with no open block")
        } else {
            format!(
                "found !{word} but the open block is the {} at line {}; expected {}",
                top.kind.describe(),
                top.at.line + 1,
                top.kind.closer()
            )
        };
        errors.push(StructureError {
            at,
            code: codes::UNMATCHED_BLOCK_END,
            message,
        });
        return;
    }
    if let Some(mut frame) = stack.pop() {
        let node = close_frame(&mut frame, Some(at));
        if let Node::Define(function) = &node {
            if function.kind == FunctionKind::Procedure {
                if let Some(line) = find_return(&function.body) {
                    errors.push(StructureError {
                        at: line,
                        code: codes::RETURN_OUTSIDE_FUNCTION,
                        message: format!(
                            "the procedure {} cannot use !return; declare it with !function to return a value",
                            function.name
                        ),
                    });
                }
            }
        }
        push(stack, node);
    }
}

fn close_frame(frame: &mut Frame, closed_at: Option<LineRef>) -> Node {
    let body = std::mem::take(&mut frame.body);
    let at = frame.at;
    match std::mem::replace(&mut frame.kind, FrameKind::Root) {
        FrameKind::Root => Node::Sub {
            name: String::new(),
            body,
        },
        FrameKind::If { mut done, head, cond } => {
            done.push(IfArm { at: head, cond, body });
            Node::If(done)
        }
        FrameKind::While { cond } => Node::While {
            at,
            end: closed_at,
            cond,
            body,
        },
        FrameKind::Foreach { var, list } => Node::Foreach { at, var, list, body },
        FrameKind::Def {
            name,
            kind,
            unquoted,
            params,
        } => Node::Define(Rc::new(UserFunction {
            name,
            kind,
            unquoted,
            params,
            body,
        })),
        FrameKind::Sub { name } => Node::Sub { name, body },
    }
}

fn find_return(nodes: &[Node]) -> Option<LineRef> {
    nodes.iter().find_map(|node| match node {
        Node::Directive(at, Directive::Return(_)) => Some(*at),
        Node::If(arms) => arms.iter().find_map(|arm| find_return(&arm.body)),
        Node::While { body, .. } | Node::Foreach { body, .. } | Node::Sub { body, .. } => find_return(body),
        _ => None,
    })
}

fn parse_foreach(rest: &str) -> Option<(String, String)> {
    let (var, list) = rest.split_once(" in ")?;
    let var = var.trim();
    if !is_identifier(var) {
        return None;
    }
    Some((var.to_owned(), list.trim().to_owned()))
}

/// `[$%]?[A-Za-z_][A-Za-z0-9_]*`
pub(crate) fn is_identifier(text: &str) -> bool {
    let body = text.strip_prefix('$').unwrap_or(text);
    let mut chars = body.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct DefinitionHeader {
    name: String,
    kind: FunctionKind,
    unquoted: bool,
    params: Vec<Param>,
    one_line_return: Option<String>,
}

fn parse_definition_header(word: &str, rest: &str) -> Result<DefinitionHeader, String> {
    // `!unquoted procedure`, `!final function`, `!unquoted final procedure` …
    let mut unquoted = word == "unquoted";
    let mut keyword = word.to_owned();
    let mut rest = rest;
    while keyword == "unquoted" || keyword == "final" {
        let trimmed = rest.trim_start();
        let end = trimmed.find(|c: char| c.is_whitespace()).unwrap_or(trimmed.len());
        keyword = trimmed[..end].to_owned();
        keyword = keyword.trim_start_matches('!').to_owned();
        rest = &trimmed[end..];
        unquoted |= keyword == "unquoted";
    }
    let kind = match keyword.as_str() {
        "procedure" => FunctionKind::Procedure,
        "function" => FunctionKind::Function,
        other => {
            return Err(format!(
                "expected `procedure` or `function` after `!{word}`, found `{other}`"
            ))
        }
    };
    let (name, params, tail) = parse_signature(rest.trim(), true)?;
    let tail = tail.trim();
    let one_line_return = if tail.is_empty() {
        None
    } else if let Some(expr) = tail.strip_prefix("!return").or_else(|| tail.strip_prefix("return ")) {
        Some(expr.trim().to_owned())
    } else {
        return Err(format!("unexpected `{tail}` after the parameter list"));
    };
    Ok(DefinitionHeader {
        name,
        kind,
        unquoted,
        params,
        one_line_return,
    })
}

/// `NAME(a, $b = default)` → name, params, text after `)`.
fn parse_signature(text: &str, allow_defaults: bool) -> Result<(String, Vec<Param>, String), String> {
    let Some(open) = text.find('(') else {
        return Err(format!("expected `NAME(parameters)`, found `{text}`"));
    };
    let name = text[..open].trim();
    if !is_identifier(name) {
        return Err(format!(
            "`{name}` is not a valid name (letters, digits, `_`, optionally starting with `$`)"
        ));
    }
    let Some(close) = matching_paren(text, open) else {
        return Err("the parameter list is not closed with `)`".to_owned());
    };
    let inner = &text[open + 1..close];
    let mut params = Vec::new();
    for piece in split_top_level(inner, ',') {
        let piece = piece.trim();
        if piece.is_empty() {
            if inner.trim().is_empty() {
                continue;
            }
            return Err("empty parameter in the parameter list".to_owned());
        }
        let (param, default) = match piece.split_once('=') {
            Some((p, d)) if allow_defaults => (p.trim(), Some(d.trim().to_owned())),
            _ => (piece, None),
        };
        if !is_identifier(param) {
            return Err(format!("`{param}` is not a valid parameter name"));
        }
        params.push(Param {
            name: param.to_owned(),
            default,
        });
    }
    Ok((name.to_owned(), params, text[close + 1..].to_owned()))
}

/// Index of the `)` matching the `(` at `open`, skipping quoted strings.
pub(crate) fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    for (i, b) in text.bytes().enumerate().skip(open) {
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            continue;
        }
        match b {
            b'"' => quote = Some(b),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (b == b')').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits on `sep` outside quotes and brackets.
pub(crate) fn split_top_level(text: &str, sep: char) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ if c == sep && depth == 0 => {
                pieces.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces
}

fn parse_simple_directive(word: &str, rest: &str, line: &str) -> Directive {
    match word {
        "include" | "include_many" | "include_once" | "includesub" | "includeurl" => {
            let kind = match word {
                "include_many" => IncludeKind::Many,
                "include_once" => IncludeKind::Once,
                "includesub" => IncludeKind::Sub,
                "includeurl" => IncludeKind::Url,
                _ => IncludeKind::Normal,
            };
            if rest.is_empty() {
                return Directive::Malformed(format!("`!{word}` needs a file name"));
            }
            Directive::Include {
                kind,
                target: rest.to_owned(),
            }
        }
        "define" => parse_define(rest),
        "undef" => {
            if is_identifier(rest) {
                Directive::Undef(rest.to_owned())
            } else {
                Directive::Malformed(format!("expected `!undef NAME`, found `!undef {rest}`"))
            }
        }
        "return" => Directive::Return(rest.to_owned()),
        "log" => Directive::Log(rest.to_owned()),
        "assert" => Directive::Assert(rest.to_owned()),
        "theme" | "pragma" => Directive::KeepLine,
        "dump_memory" | "option" => Directive::Ignore,
        "import" | "includedef" | "include_sprites" | "includedef_sprites" => {
            Directive::Unsupported(format!("!{word}"))
        }
        "local" | "global" => {
            let scope = if word == "local" { Scope::Local } else { Scope::Global };
            match parse_assignment(rest) {
                Some((name, if_unset, expr)) => Directive::Assign {
                    scope,
                    name,
                    if_unset,
                    expr,
                },
                // PlantUML has no declaration without a value.
                None => Directive::Malformed(format!("expected `!{word} $name = value`")),
            }
        }
        _ => {
            // `!$x = 1`, `!x ?= 2`
            let after_bang = line.trim_start().trim_start_matches('!');
            if let Some((name, if_unset, expr)) = parse_assignment(after_bang) {
                return Directive::Assign {
                    scope: Scope::Default,
                    name,
                    if_unset,
                    expr,
                };
            }
            Directive::Unknown(format!("!{word}"))
        }
    }
}

/// `$name = expr` / `$name ?= expr`.
fn parse_assignment(text: &str) -> Option<(String, bool, String)> {
    let eq = text.find('=')?;
    let (mut name, if_unset) = match text[..eq].strip_suffix('?') {
        Some(n) => (n, true),
        None => (&text[..eq], false),
    };
    name = name.trim();
    if text[eq + 1..].starts_with('=') || !is_identifier(name) {
        return None;
    }
    Some((name.to_owned(), if_unset, text[eq + 1..].trim().to_owned()))
}

fn parse_define(rest: &str) -> Directive {
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = &rest[..name_end];
    if !is_identifier(name) {
        return Directive::Malformed("expected `!define NAME [value]` or `!define NAME(params) value`".to_owned());
    }
    let after = &rest[name_end..];
    if after.starts_with('(') {
        let Some(close) = matching_paren(after, 0) else {
            return Directive::Malformed("the parameter list of this `!define` is not closed with `)`".to_owned());
        };
        let params: Vec<String> = split_top_level(&after[1..close], ',')
            .into_iter()
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
        if let Some(bad) = params.iter().find(|p| !is_identifier(p)) {
            return Directive::Malformed(format!("`{bad}` is not a valid macro parameter name"));
        }
        return Directive::Define {
            name: name.to_owned(),
            params: Some(params),
            body: after[close + 1..].trim().to_owned(),
        };
    }
    Directive::Define {
        name: name.to_owned(),
        params: None,
        body: after.trim().to_owned(),
    }
}
