//! Executes the directive tree: memory (variables, macros, functions),
//! includes, control flow, substitution in diagram lines, and the output
//! with its line map.

use super::builtins;
use super::codes;
use super::expr::{self, Arg, BinOp, Expr};
use super::include::{self, ResolveError, Root, Target};
use super::lines::{
    self, is_end_line, is_start_line, matching_paren, split_lines, split_top_level, Cond, Directive, FileId,
    FunctionKind, IncludeKind, LineRef, Node, Scope, SourceFile, StructureError, UserFunction,
};
use super::value::Value;
use super::{FileLoader, LineOrigin, PreprocessOptions, Preprocessed};
use puml_syntax::{Diagnostic, Related, Severity, TextEdit, TextRange, TextSize};
// Fx, not SipHash: every substituted line looks its names up (SipHash was
// a fifth of substituting one).
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Results of running a block: go on, leave a function with a value, or
/// stop everything (a global limit was hit).
enum Flow {
    Normal,
    Return(Value),
    /// A function's `!return` failed (already reported): the call fails.
    Failed(EvalError),
    Abort,
}

struct EvalError {
    code: &'static str,
    message: String,
    /// Already turned into a diagnostic where it happened.
    reported: bool,
}

impl EvalError {
    fn new(code: &'static str, message: impl Into<String>) -> EvalError {
        EvalError {
            code,
            message: message.into(),
            reported: false,
        }
    }
    fn expr(message: impl Into<String>) -> EvalError {
        EvalError::new(codes::BAD_EXPRESSION, message)
    }
}

/// Bound on the engine's own recursion (nested blocks, calls and expression
/// levels together). Real diagrams use a few dozen levels; at 300 the worst
/// input stays within a 1 MiB stack even in a debug build (see the
/// `deep_nesting_fits_a_small_stack` test).
const MAX_NESTING: usize = 300;

/// A file's text and line ranges, shared by every include of it.
type LoadedFile = (Rc<str>, Rc<[Range<usize>]>);

/// What part of the current line an error points at. The argument span
/// is only computed when an error is reported.
#[derive(Clone)]
enum Focus {
    Line,
    /// The expression of a directive (after its keyword or `=`).
    Argument,
    /// A byte range of the line, e.g. a call.
    Span(Range<usize>),
}

/// `%eval` can produce any number of distinct texts; the cache stops
/// growing here.
const MAX_CACHED_EXPRESSIONS: usize = 10_000;

/// How much larger than the output limit the expanded text may be when its
/// indentation is counted too (see `output_bytes_indented`).
const INDENTATION_ALLOWANCE: usize = 4;

struct Macro {
    params: Option<Vec<String>>,
    body: String,
}

struct Engine<'a> {
    options: &'a PreprocessOptions,
    loader: &'a dyn FileLoader,
    files: Vec<Rc<SourceFile>>,
    root: Option<Root>,

    globals: FxHashMap<String, Value>,
    macros: FxHashMap<String, Macro>,
    functions: FxHashMap<String, Rc<UserFunction>>,
    locals: Vec<FxHashMap<String, Value>>,
    /// A bit per class of the names ever defined as a variable (global or
    /// local), a macro or a function ([`name_bit`]): a word of a line whose
    /// bit is clear names none of them, and is copied without the look-ups
    /// (most words of an included style file are skinparam names).
    defined: u64,

    out_lines: Vec<String>,
    out_origins: Vec<LineOrigin>,
    /// Output of the procedures being called, innermost last.
    captures: Vec<Vec<String>>,
    output_bytes: usize,
    /// The same with the indentation: bounds memory (at most
    /// [`INDENTATION_ALLOWANCE`] times the limit) while the limit itself
    /// ignores indentation, so re-indenting a file never changes whether
    /// it fits.
    output_bytes_indented: usize,

    /// Canonical paths of the files being expanded (cycle detection).
    include_stack: Vec<PathBuf>,
    /// Canonical paths included so far in this diagram (`!include_once`).
    included: FxHashSet<PathBuf>,
    call_depth: usize,
    /// The lines (and call ranges) of the procedure/function calls being
    /// run, innermost last.
    call_sites: Vec<(LineRef, Option<Range<usize>>)>,
    /// Recursion depth of the engine itself (see `enter`).
    nesting: usize,
    steps: usize,
    aborted: bool,
    /// The line being executed, for diagnostics raised deep inside a call.
    current: LineRef,
    /// Byte range within the current line that errors should point at (the
    /// expression of a directive, the call in a diagram line).
    focus: Focus,
    random_state: u64,

    diagnostics: Vec<Diagnostic>,
    included_texts: Vec<(String, String)>,
    /// Parsed expressions by text (see `eval_text`).
    parsed: FxHashMap<String, Rc<Result<Expr, String>>>,
    /// Files read so far, by display path (or URL): each is read once.
    loaded: FxHashMap<String, LoadedFile>,
    reported: FxHashSet<(&'static str, FileId, u32, String)>,
}

pub(crate) fn run(text: &str, options: &PreprocessOptions, loader: &dyn FileLoader) -> Preprocessed {
    let main_dir = options
        .file_path
        .as_ref()
        .map(|p| p.parent().map(Path::to_path_buf).unwrap_or_default())
        .map(|p| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p
            }
        });
    let root_dir = options.include_root.clone().or_else(|| main_dir.clone());
    let root = root_dir.as_deref().map(|dir| Root::new(dir, loader));
    let main = SourceFile {
        name: None,
        text: Rc::from(text),
        lines: Rc::from(split_lines(text)),
        dir: main_dir.or(root_dir),
        canonical: options.file_path.as_ref().and_then(|p| loader.canonicalize(p).ok()),
        include_chain: Vec::new(),
    };
    let main_line_count = main.lines.len();
    let mut engine = Engine {
        options,
        loader,
        files: Vec::new(),
        root,
        globals: FxHashMap::default(),
        macros: FxHashMap::default(),
        functions: FxHashMap::default(),
        locals: Vec::new(),
        defined: 0,
        out_lines: Vec::new(),
        out_origins: Vec::new(),
        captures: Vec::new(),
        output_bytes: 0,
        output_bytes_indented: 0,
        include_stack: main.canonical.iter().cloned().collect(),
        included: FxHashSet::default(),
        call_depth: 0,
        call_sites: Vec::new(),
        nesting: 0,
        steps: 0,
        aborted: false,
        current: LineRef { file: 0, line: 0 },
        focus: Focus::Line,
        random_state: 0x9E37_79B9_7F4A_7C15,
        diagnostics: Vec::new(),
        included_texts: Vec::new(),
        loaded: FxHashMap::default(),
        parsed: FxHashMap::default(),
        reported: FxHashSet::default(),
    };
    let has_diagram_bounds = main.lines.iter().any(|r| is_start_line(main.text[r.clone()].trim()));
    let main = Rc::new(main);
    engine.files.push(main.clone());
    let mut structure_errors = Vec::new();
    let nodes = lines::parse_block(
        0,
        &main,
        0..main_line_count as u32,
        has_diagram_bounds,
        &mut structure_errors,
    );
    engine.report_structure(structure_errors);
    // A top-level `!return` was reported where it is; nothing else to do.
    engine.exec_nodes(&nodes);

    if engine.aborted {
        // Keep the diagram closed so that the parser does not add a
        // "missing @enduml" to the limit's own diagnostic.
        let last_main_line = engine
            .out_origins
            .iter()
            .rev()
            .find(|o| o.file.is_none())
            .map(|o| o.line as usize);
        let closing = (0..main_line_count)
            .rev()
            .find(|&line| is_end_line(main.line_text(line as u32).trim()));
        if let Some(line) = closing.filter(|&line| last_main_line.is_none_or(|last| line > last)) {
            engine.out_lines.push(main.line_text(line as u32).to_owned());
            engine.out_origins.push(LineOrigin {
                file: None,
                line: line as u32,
                verbatim: true,
            });
        }
    }
    let unchanged = engine.out_origins.len() == main_line_count
        && engine
            .out_origins
            .iter()
            .enumerate()
            .all(|(i, o)| o.file.is_none() && o.line as usize == i && o.verbatim);
    let text_out = if unchanged {
        text.to_owned()
    } else {
        let mut joined = engine.out_lines.join("\n");
        if text.ends_with('\n') && !engine.out_lines.is_empty() {
            joined.push('\n');
        }
        joined
    };
    let mut diagnostics = engine.diagnostics;
    // Main file first, in source order; then each included file.
    diagnostics.sort_by(|a, b| (&a.file, a.range.start()).cmp(&(&b.file, b.range.start())));
    Preprocessed {
        changed: text_out != text,
        text: text_out,
        lines: engine.out_origins,
        diagnostics,
        included: engine.included_texts,
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Length of the name at the start of `text`: `[$%]?[A-Za-z_][A-Za-z0-9_]*`,
/// 0 when there is none.
fn name_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let sigil = usize::from(matches!(bytes.first(), Some(b'$' | b'%')));
    match bytes.get(sigil) {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
        _ => return 0,
    }
    sigil + bytes[sigil..].iter().take_while(|b| is_word_byte(**b)).count()
}

/// Raw text arguments (unquoted procedures, macros): trimmed, with
/// surrounding double quotes removed.
fn raw_args(text: &str) -> Vec<String> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    split_top_level(text, ',')
        .into_iter()
        .map(|a| {
            let a = a.trim();
            a.strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .unwrap_or(a)
                .to_owned()
        })
        .collect()
}

impl Engine<'_> {
    // ---------------------------------------------------------------- output

    fn emit(&mut self, text: String, at: LineRef, verbatim: bool) {
        if self.aborted {
            return;
        }
        self.output_bytes += text.trim_start().len() + 1;
        self.output_bytes_indented += text.len() + 1;
        if self.output_bytes > self.options.max_output_bytes
            || self.output_bytes_indented > self.options.max_output_bytes.saturating_mul(INDENTATION_ALLOWANCE)
        {
            self.report(
                at,
                codes::OUTPUT_LIMIT,
                Severity::Error,
                format!(
                    "the preprocessed text exceeds {} bytes; expansion stopped here",
                    self.options.max_output_bytes
                ),
                None,
            );
            self.aborted = true;
            return;
        }
        if let Some(capture) = self.captures.last_mut() {
            capture.push(text);
            return;
        }
        let file = self.files[at.file].name.clone();
        self.out_lines.push(text);
        self.out_origins.push(LineOrigin {
            file,
            line: at.line,
            verbatim,
        });
    }

    /// Emits the (possibly multi-line) result of substituting line `at`.
    fn emit_substituted(&mut self, original: &str, result: String, at: LineRef) {
        if result == original {
            self.emit(result, at, true);
            return;
        }
        if result.trim().is_empty() {
            // A line that only called a procedure which printed nothing
            // leaves no line. Any other call (`%set_variable_value(…)`)
            // leaves an empty one, as PlantUML does; its indentation never
            // shows.
            if !self.calls_procedure(original) {
                self.emit(String::new(), at, false);
            }
            return;
        }
        for piece in result.split('\n') {
            let verbatim = piece == original;
            self.emit(piece.to_owned(), at, verbatim);
        }
    }

    /// Whether `line` starts with a call of a user procedure.
    fn calls_procedure(&self, line: &str) -> bool {
        let trimmed = line.trim_start();
        let name = trimmed[..trimmed
            .find(|c: char| c == '(' || c.is_whitespace())
            .unwrap_or(trimmed.len())]
            .trim();
        self.functions
            .get(name)
            .is_some_and(|f| f.kind != FunctionKind::Function)
    }

    // ----------------------------------------------------------- diagnostics

    fn span(&self, at: LineRef, within_line: Option<Range<usize>>) -> TextRange {
        let Some(file) = self.files.get(at.file) else {
            return TextRange::default();
        };
        let Some(line) = file.lines.get(at.line as usize) else {
            return TextRange::default();
        };
        let text = &file.text[line.clone()];
        let (start, end) = match within_line {
            Some(r) if r.start <= r.end && r.end <= text.len() => (r.start, r.end),
            _ => {
                let start = text.len() - text.trim_start().len();
                (start, text.trim_end().len().max(start))
            }
        };
        let to_size = |n: usize| TextSize::from(u32::try_from(line.start + n).unwrap_or(u32::MAX));
        TextRange::new(to_size(start), to_size(end))
    }

    fn report(
        &mut self,
        at: LineRef,
        code: &'static str,
        severity: Severity,
        message: String,
        within_line: Option<Range<usize>>,
    ) -> Option<&mut Diagnostic> {
        if !self.reported.insert((code, at.file, at.line, message.clone())) {
            return None;
        }
        let range = self.span(at, within_line);
        let mut diagnostic = Diagnostic::new(code, severity, range, message);
        // Inside a procedure or function: where it was called from.
        if let Some((call, call_focus)) = self.call_sites.last().cloned() {
            if call != at {
                diagnostic.related.push(Related {
                    file: self.files.get(call.file).and_then(|f| f.name.clone()),
                    range: self.span(call, call_focus),
                    message: "called from here".to_owned(),
                });
            }
        }
        if let Some(file) = self.files.get(at.file) {
            diagnostic.file = file.name.clone();
            for (includer, range) in &file.include_chain {
                diagnostic.related.push(Related {
                    file: includer.clone(),
                    range: *range,
                    message: "included from here".to_owned(),
                });
            }
        }
        self.diagnostics.push(diagnostic);
        self.diagnostics.last_mut()
    }

    fn error(&mut self, at: LineRef, error: EvalError) {
        if self.aborted || error.reported {
            return;
        }
        let focus = if at == self.current {
            self.focus_span(&self.focus, at)
        } else {
            None
        };
        self.report(at, error.code, Severity::Error, error.message, focus);
    }

    fn focus_span(&self, focus: &Focus, at: LineRef) -> Option<Range<usize>> {
        match focus {
            Focus::Line => None,
            Focus::Argument => self.argument_span(at),
            Focus::Span(range) => Some(range.clone()),
        }
    }

    /// The argument part of a directive line: after the keyword, or after
    /// `=` in an assignment.
    fn argument_span(&self, at: LineRef) -> Option<Range<usize>> {
        let text = self.files.get(at.file)?.line_text(at.line);
        let word = self.directive_word_span(at)?;
        let rest = &text[word.end..];
        let offset = match lines::directive_word(text) {
            Some((w, _))
                if w.starts_with('$')
                    || rest.trim_start().starts_with('$')
                    || rest.trim_start().starts_with('=')
                    || rest.trim_start().starts_with("?=") =>
            {
                match rest.find('=') {
                    Some(eq) if !rest[eq + 1..].starts_with('=') => word.end + eq + 1,
                    _ => word.end,
                }
            }
            _ => word.end,
        };
        let tail = &text[offset..];
        let start = offset + (tail.len() - tail.trim_start().len());
        let end = text.trim_end().len();
        (start < end).then_some(start..end)
    }

    fn report_structure(&mut self, errors: Vec<StructureError>) {
        for e in errors {
            let severity = if e.code == codes::UNCLOSED_BLOCK {
                Severity::Warning
            } else {
                Severity::Error
            };
            self.report(e.at, e.code, severity, e.message, None);
        }
    }

    /// Counts one unit of work; `false` (and a diagnostic) past the budget.
    fn step(&mut self) -> bool {
        self.charge(1)
    }

    /// Counts `units` of work (long scans cost more than one step).
    fn charge(&mut self, units: usize) -> bool {
        if self.aborted {
            return false;
        }
        self.steps = self.steps.saturating_add(units);
        if self.steps > self.options.max_steps {
            let at = self.current;
            self.report(
                at,
                codes::WORK_LIMIT,
                Severity::Error,
                format!(
                    "preprocessing did more than {} steps (runaway loop or recursion?); stopped here",
                    self.options.max_steps
                ),
                None,
            );
            self.aborted = true;
            return false;
        }
        true
    }

    fn line_text(&self, at: LineRef) -> String {
        self.files
            .get(at.file)
            .map(|f| f.line_text(at.line).to_owned())
            .unwrap_or_default()
    }

    // ---------------------------------------------------------------- memory

    fn lookup_var(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.locals.last().and_then(|scope| scope.get(name)) {
            return Some(v.clone());
        }
        self.globals.get(name).cloned()
    }

    fn set_var(&mut self, scope: Scope, name: &str, value: Value) {
        let local = match scope {
            Scope::Global => false,
            Scope::Local => !self.locals.is_empty(),
            // Inside a call: a local if it exists, else an existing global,
            // else a new local (PlantUML's rule).
            Scope::Default => match self.locals.last() {
                Some(scope) => scope.contains_key(name) || !self.globals.contains_key(name),
                None => false,
            },
        };
        self.defined |= name_bit(name);
        if local {
            if let Some(scope) = self.locals.last_mut() {
                scope.insert(name.to_owned(), value);
            }
        } else {
            self.globals.insert(name.to_owned(), value);
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || self.lookup_var(name).is_some() || self.functions.contains_key(name)
    }

    fn reset_memory(&mut self) {
        self.globals.clear();
        self.macros.clear();
        self.functions.clear();
        self.included.clear();
    }

    // ------------------------------------------------------------- execution

    fn exec_nodes(&mut self, nodes: &[Node]) -> Flow {
        if !self.enter() {
            return Flow::Abort;
        }
        let flow = self.exec_nodes_inner(nodes);
        self.nesting -= 1;
        flow
    }

    /// Counts one level of recursion (blocks, calls, expressions) against
    /// MAX_NESTING, which keeps the stack small whatever the input.
    fn enter(&mut self) -> bool {
        if self.nesting >= MAX_NESTING {
            let at = self.current;
            self.report(
                at,
                codes::CALL_DEPTH_LIMIT,
                Severity::Error,
                "blocks, calls and expressions are nested too deeply; expansion stopped here".to_owned(),
                None,
            );
            self.aborted = true;
            return false;
        }
        self.nesting += 1;
        true
    }

    fn exec_nodes_inner(&mut self, nodes: &[Node]) -> Flow {
        for node in nodes {
            if self.aborted {
                return Flow::Abort;
            }
            match self.exec_node(node) {
                Flow::Normal => {}
                other => return other,
            }
        }
        if self.aborted {
            Flow::Abort
        } else {
            Flow::Normal
        }
    }

    fn exec_node(&mut self, node: &Node) -> Flow {
        if !self.step() {
            return Flow::Abort;
        }
        match node {
            Node::Text(at) => {
                self.current = *at;
                self.focus = Focus::Line;
                let text = self.line_text(*at);
                let result = self.substitute(&text, true);
                self.emit_substituted(&text, result, *at);
                Flow::Normal
            }
            Node::Verbatim(at) => {
                let text = self.line_text(*at);
                self.emit(text, *at, true);
                Flow::Normal
            }
            Node::DiagramStart(at) => {
                self.reset_memory();
                let text = self.line_text(*at);
                self.emit(text, *at, true);
                Flow::Normal
            }
            Node::Directive(at, directive) => {
                self.current = *at;
                self.focus = Focus::Argument;
                self.exec_directive(*at, directive)
            }
            Node::If(arms) => {
                for arm in arms {
                    self.current = arm.at;
                    self.focus = Focus::Argument;
                    let taken = match &arm.cond {
                        None => true,
                        Some(cond) => self.eval_cond(arm.at, cond),
                    };
                    if taken {
                        return self.exec_nodes(&arm.body);
                    }
                }
                Flow::Normal
            }
            Node::While { at, end, cond, body } => {
                let mut iterations = 0usize;
                loop {
                    self.current = *at;
                    self.focus = Focus::Argument;
                    // Each round costs a step even with an empty body:
                    // nested loops multiply, and only the global budget
                    // bounds their product.
                    if !self.step() {
                        return Flow::Abort;
                    }
                    if !self.eval_expr_cond(*at, cond) {
                        return Flow::Normal;
                    }
                    iterations += 1;
                    if iterations > self.options.max_loop_iterations {
                        let limit = self.options.max_loop_iterations;
                        let message = format!(
                            "infinite loop? the !while at line {} ran {limit} times and was stopped",
                            at.line + 1
                        );
                        let report_at = end.unwrap_or(*at);
                        let while_range = self.span(*at, None);
                        let while_file = self.files[at.file].name.clone();
                        if let Some(d) = self.report(report_at, codes::LOOP_LIMIT, Severity::Error, message, None) {
                            d.related.insert(
                                0,
                                Related {
                                    file: while_file,
                                    range: while_range,
                                    message: "the loop".to_owned(),
                                },
                            );
                        }
                        return Flow::Normal;
                    }
                    match self.exec_nodes(body) {
                        Flow::Normal => {}
                        other => return other,
                    }
                }
            }
            Node::Foreach { at, var, list, body } => {
                self.current = *at;
                self.focus = Focus::Argument;
                let items = match self.eval_text(list) {
                    Ok(Value::Array(items)) => items,
                    // Over an object: its keys, as in PlantUML.
                    Ok(Value::Object(entries)) => entries.into_iter().map(|(k, _)| Value::Str(k)).collect(),
                    Ok(other) => vec![other],
                    Err(e) => {
                        self.error(*at, e);
                        return Flow::Normal;
                    }
                };
                if items.len() > self.options.max_loop_iterations {
                    let limit = self.options.max_loop_iterations;
                    self.error(
                        *at,
                        EvalError::new(
                            codes::LOOP_LIMIT,
                            format!("this !foreach has {} items; the limit is {limit}", items.len()),
                        ),
                    );
                    return Flow::Normal;
                }
                for item in items {
                    if !self.step() {
                        return Flow::Abort;
                    }
                    self.set_var(Scope::Default, var, item);
                    match self.exec_nodes(body) {
                        Flow::Normal => {}
                        other => return other,
                    }
                }
                Flow::Normal
            }
            Node::Define(function) => {
                if !function.name.is_empty() {
                    self.defined |= name_bit(&function.name);
                    self.functions.insert(function.name.clone(), function.clone());
                }
                Flow::Normal
            }
            Node::Sub { body, .. } => self.exec_nodes(body),
        }
    }

    fn eval_cond(&mut self, at: LineRef, cond: &Cond) -> bool {
        match cond {
            Cond::Defined(name) | Cond::NotDefined(name) if !lines::is_identifier(name.trim()) => {
                // PlantUML fails on anything but a bare name here.
                let word = if matches!(cond, Cond::Defined(_)) {
                    "ifdef"
                } else {
                    "ifndef"
                };
                self.error(
                    at,
                    EvalError::new(
                        codes::MALFORMED_DIRECTIVE,
                        format!("expected `!{word} NAME`, found `!{word} {}`", name.trim()),
                    ),
                );
                false
            }
            Cond::Defined(name) => self.is_defined(name.trim()),
            Cond::NotDefined(name) => !self.is_defined(name.trim()),
            Cond::Expr(text) => self.eval_expr_cond(at, text),
        }
    }

    fn eval_expr_cond(&mut self, at: LineRef, text: &str) -> bool {
        match self.eval_text(text) {
            Ok(v) => v.truthy(),
            Err(e) => {
                self.error(at, e);
                false
            }
        }
    }

    fn exec_directive(&mut self, at: LineRef, directive: &Directive) -> Flow {
        match directive {
            Directive::Assign {
                scope,
                name,
                if_unset,
                expr,
            } => {
                if *if_unset && self.lookup_var(name).is_some() {
                    return Flow::Normal;
                }
                match self.eval_text(expr) {
                    Ok(value) => self.set_var(*scope, name, value),
                    Err(e) => self.error(at, e),
                }
            }
            Directive::Define { name, params, body } => {
                // A plain macro's value is expanded once, here; a macro with
                // parameters is expanded at each use (as PlantUML does).
                let body = if params.is_none() {
                    self.substitute(body, false)
                } else {
                    body.clone()
                };
                self.defined |= name_bit(name);
                self.macros.insert(
                    name.clone(),
                    Macro {
                        params: params.clone(),
                        body,
                    },
                );
            }
            Directive::Undef(name) => {
                self.macros.remove(name);
                self.functions.remove(name);
                self.globals.remove(name);
            }
            Directive::Include { kind, target } => return self.include(at, *kind, target),
            Directive::Return(text) => {
                if self.call_depth == 0 {
                    self.error(
                        at,
                        EvalError::new(
                            codes::RETURN_OUTSIDE_FUNCTION,
                            "!return outside a !function; it only ends a function",
                        ),
                    );
                    return Flow::Normal;
                }
                if text.trim().is_empty() {
                    return Flow::Return(Value::Str(String::new()));
                }
                return match self.eval_text(text) {
                    Ok(v) => Flow::Return(v),
                    Err(mut e) => {
                        self.error(at, EvalError::new(e.code, e.message.clone()));
                        e.reported = true;
                        Flow::Failed(e)
                    }
                };
            }
            Directive::Log(text) => {
                let message = self.substitute(text, false);
                self.report(at, codes::LOG_MESSAGE, Severity::Info, format!("[log] {message}"), None);
            }
            Directive::Assert(text) => {
                let parts = split_top_level(text, ':');
                let cond = parts.first().copied().unwrap_or("");
                match self.eval_text(cond) {
                    Ok(v) if v.truthy() => {}
                    Ok(_) => {
                        let detail = if parts.len() > 1 {
                            let message_text = parts[1..].join(":");
                            match self.eval_text(&message_text) {
                                Ok(v) => format!(": {}", v.to_text()),
                                Err(_) => format!(": {}", message_text.trim()),
                            }
                        } else {
                            format!(": `{}` is false", cond.trim())
                        };
                        self.error(
                            at,
                            EvalError::new(codes::ASSERTION_FAILED, format!("assertion failed{detail}")),
                        );
                    }
                    Err(e) => self.error(at, e),
                }
            }
            Directive::KeepLine => {
                let text = self.line_text(at);
                self.focus = Focus::Line;
                let result = self.substitute(&text, true);
                self.emit_substituted(&text, result, at);
            }
            Directive::Ignore => {}
            Directive::Unsupported(word) => {
                let span = self.directive_word_span(at);
                self.report(
                    at,
                    codes::UNSUPPORTED_DIRECTIVE,
                    Severity::Error,
                    format!("{word} is not supported by puml"),
                    span,
                );
            }
            Directive::Unknown(word) => {
                let span = self.directive_word_span(at);
                let message = format!("unknown preprocessor directive `{word}`");
                let range = self.span(at, span.clone());
                if let Some(d) = self.report(at, codes::UNKNOWN_DIRECTIVE, Severity::Error, message, span) {
                    // Only for a new report: inside a loop the same line
                    // comes back on every round.
                    if let Some(better) = suggest_directive(word) {
                        d.message.push_str(&format!("; did you mean `{better}`?"));
                        let title = format!("replace with `{better}`");
                        let edits = vec![TextEdit::replace(range, better)];
                        // Only a change of case is sure enough to apply
                        // unasked; a typo fix is offered.
                        *d = if better.eq_ignore_ascii_case(word) || word == "!elif" {
                            d.clone().with_fix(title, edits)
                        } else {
                            d.clone().with_suggestion(title, edits)
                        };
                    }
                }
            }
            Directive::Malformed(message) => {
                self.error(at, EvalError::new(codes::MALFORMED_DIRECTIVE, message.clone()));
            }
        }
        Flow::Normal
    }

    fn directive_word_span(&self, at: LineRef) -> Option<Range<usize>> {
        let text = self.files.get(at.file)?.line_text(at.line);
        let start = text.find('!')?;
        let len = text[start + 1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len() - start - 1);
        Some(start..start + 1 + len)
    }

    // -------------------------------------------------------------- includes

    fn include(&mut self, at: LineRef, kind: IncludeKind, target_text: &str) -> Flow {
        let target_text = self.substitute(target_text, false);
        let trimmed_target = target_text.trim();
        if trimmed_target.len() >= 2 && trimmed_target.starts_with('"') && trimmed_target.ends_with('"') {
            // PlantUML reads the quotes as part of the file name and fails.
            let line = self.line_text(at);
            let span = line
                .find(trimmed_target)
                .map(|start| start..start + trimmed_target.len());
            let range = self.span(at, span.clone());
            let bare = trimmed_target[1..trimmed_target.len() - 1].to_owned();
            let message =
                format!("cannot include {trimmed_target}: PlantUML does not accept quotes around an include path");
            if let Some(d) = self.report(at, codes::INCLUDE_NOT_FOUND, Severity::Error, message, span) {
                *d = d
                    .clone()
                    .with_fix("remove the quotes", vec![TextEdit::replace(range, bare)]);
            }
            return Flow::Normal;
        }
        let target = match include::parse_target(&target_text) {
            Target::Local { path, .. } if kind == IncludeKind::Url => Target::Url(path),
            other => other,
        };
        match target {
            Target::Stdlib(name) => {
                self.error(
                    at,
                    EvalError::new(
                        codes::STDLIB_INCLUDE,
                        format!("cannot include <{name}>: the PlantUML standard library is not bundled with puml"),
                    ),
                );
                Flow::Normal
            }
            Target::Url(url) => {
                if !self.options.allow_url_includes {
                    self.error(
                        at,
                        EvalError::new(
                            codes::URL_INCLUDE_REFUSED,
                            format!(
                                "URL include of {url} refused: remote includes are off (allow_url_includes is not set)"
                            ),
                        ),
                    );
                    return Flow::Normal;
                }
                let cached = self.loaded.get(&url).map(|(text, _)| text.clone());
                match cached
                    .map(Ok)
                    .unwrap_or_else(|| self.loader.fetch_url(&url).map(Rc::from))
                {
                    Ok(text) => self.include_text(at, url, None, None, text, kind, None),
                    Err(e) => {
                        self.error(
                            at,
                            EvalError::new(codes::URL_INCLUDE_REFUSED, format!("cannot include {url}: {e}")),
                        );
                        Flow::Normal
                    }
                }
            }
            Target::Local { path, selector } => {
                let Some(root) = self.root.as_ref() else {
                    self.error(
                        at,
                        EvalError::new(
                            codes::NO_INCLUDE_ROOT,
                            format!(
                                "cannot include {path}: there is no file path or include root to resolve it against"
                            ),
                        ),
                    );
                    return Flow::Normal;
                };
                let base = self.files[at.file].dir.clone().unwrap_or_else(|| PathBuf::from("."));
                let resolved = match root.resolve(&path, &base, self.loader) {
                    Ok(r) => r,
                    Err(ResolveError::OutsideRoot) => {
                        self.error(
                            at,
                            EvalError::new(
                                codes::INCLUDE_OUTSIDE_ROOT,
                                format!("cannot include {path}: it lies outside the include root"),
                            ),
                        );
                        return Flow::Normal;
                    }
                    Err(ResolveError::NotFound(reason)) => {
                        self.error(
                            at,
                            EvalError::new(codes::INCLUDE_NOT_FOUND, format!("cannot include {path}: {reason}")),
                        );
                        return Flow::Normal;
                    }
                };
                if self.include_stack.contains(&resolved.canonical) {
                    self.error(
                        at,
                        EvalError::new(
                            codes::INCLUDE_CYCLE,
                            format!("{path} is already being included (include cycle); skipped"),
                        ),
                    );
                    return Flow::Normal;
                }
                if kind == IncludeKind::Once && self.included.contains(&resolved.canonical) {
                    return Flow::Normal;
                }
                let display = resolved.display.to_string_lossy().into_owned();
                let cached = self.loaded.get(&display).map(|(text, _)| text.clone());
                let text = match cached
                    .map(Ok)
                    .unwrap_or_else(|| self.loader.load(&resolved.canonical).map(Rc::from))
                {
                    Ok(text) => text,
                    Err(e) => {
                        self.error(
                            at,
                            EvalError::new(codes::INCLUDE_NOT_FOUND, format!("cannot include {path}: {e}")),
                        );
                        return Flow::Normal;
                    }
                };
                let dir = resolved.display.parent().map(Path::to_path_buf);
                self.include_text(at, display, dir, Some(resolved.canonical), text, kind, selector)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn include_text(
        &mut self,
        at: LineRef,
        name: String,
        dir: Option<PathBuf>,
        canonical: Option<PathBuf>,
        text: Rc<str>,
        kind: IncludeKind,
        selector: Option<String>,
    ) -> Flow {
        if text.len() > self.options.max_output_bytes {
            let limit = self.options.max_output_bytes;
            let message = format!(
                "{name} is {} bytes, more than the {limit}-byte output limit; skipped",
                text.len()
            );
            self.error(at, EvalError::new(codes::OUTPUT_LIMIT, message));
            return Flow::Normal;
        }
        // Reading and splitting the file costs in proportion to its size.
        if !self.charge(1 + text.len() / 256) {
            return Flow::Abort;
        }
        let depth = self
            .include_stack
            .len()
            .saturating_sub(usize::from(self.files[0].canonical.is_some()));
        if depth >= self.options.max_include_depth {
            let limit = self.options.max_include_depth;
            self.error(
                at,
                EvalError::new(
                    codes::INCLUDE_TOO_DEEP,
                    format!("includes are nested more than {limit} deep; {name} skipped"),
                ),
            );
            return Flow::Normal;
        }
        let includer = &self.files[at.file];
        let mut include_chain = vec![(includer.name.clone(), self.span(at, None))];
        include_chain.extend(includer.include_chain.iter().cloned());
        let lines = match self.loaded.get(&name) {
            Some((_, lines)) => lines.clone(),
            None => {
                let lines: Rc<[Range<usize>]> = Rc::from(split_lines(&text));
                self.loaded.insert(name.clone(), (text.clone(), lines.clone()));
                self.included_texts.push((name.clone(), text.to_string()));
                lines
            }
        };
        let file_id = self.files.len();
        let file = Rc::new(SourceFile {
            name: Some(name.clone()),
            text,
            lines,
            dir: dir.or_else(|| self.files[0].dir.clone()),
            canonical: canonical.clone(),
            include_chain,
        });
        self.files.push(file.clone());

        let mut structure_errors = Vec::new();
        let nodes = if kind == IncludeKind::Sub {
            let Some(part) = selector.filter(|s| !s.is_empty()) else {
                self.error(
                    at,
                    EvalError::new(
                        codes::MALFORMED_DIRECTIVE,
                        "!includesub needs a part name: `!includesub file!PART`",
                    ),
                );
                return Flow::Normal;
            };
            let all = lines::parse_block(file_id, &file, 0..file.lines.len() as u32, false, &mut structure_errors);
            let mut parts = Vec::new();
            collect_subs(&all, &part, &mut parts);
            if parts.is_empty() {
                self.error(
                    at,
                    EvalError::new(
                        codes::INCLUDE_PART_NOT_FOUND,
                        format!("the included file has no `!startsub {part}` … `!endsub` part"),
                    ),
                );
                return Flow::Normal;
            }
            parts
        } else {
            let region = match select_diagram(&file, selector.as_deref()) {
                Ok(region) => region,
                Err((message, fallback)) => {
                    // PlantUML 1.2026 ignores the selector: a warning, and
                    // the first diagram as PlantUML would take it.
                    let focus = self.focus_span(&self.focus, at);
                    self.report(at, codes::INCLUDE_SELECTOR_NOT_FOUND, Severity::Warning, message, focus);
                    fallback
                }
            };
            lines::parse_block(file_id, &file, region, false, &mut structure_errors)
        };
        self.report_structure(structure_errors);

        if let Some(c) = &canonical {
            self.include_stack.push(c.clone());
            self.included.insert(c.clone());
        }
        let flow = self.exec_nodes(&nodes);
        if canonical.is_some() {
            self.include_stack.pop();
        }
        match flow {
            Flow::Abort => Flow::Abort,
            _ => Flow::Normal,
        }
    }

    // ---------------------------------------------------------- substitution

    fn is_callable(&self, name: &str) -> bool {
        self.functions.contains_key(name)
            || self.macros.get(name).is_some_and(|m| m.params.is_some())
            || (name.starts_with('%') && builtins::is_builtin(name))
    }

    /// Substitutes variables, macros and calls in a diagram line.
    /// `is_line`: `text` is the current line itself, so a failing call can
    /// be pointed at.
    fn substitute(&mut self, text: &str, is_line: bool) -> String {
        // Nothing defined and no `%` (every builtin starts with one): no
        // name can be a variable, a macro or a call, so the text stays as
        // it is. Most files reach the preprocessor for an `!include` of
        // plain lines, each scanned word by word before this (1.2 % of
        // analysing the corpus).
        let nothing_defined = self.globals.is_empty()
            && self.macros.is_empty()
            && self.functions.is_empty()
            && self.locals.iter().all(FxHashMap::is_empty);
        if nothing_defined && !text.as_bytes().contains(&b'%') {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            if self.aborted {
                out.push_str(&text[i..]);
                break;
            }
            let c = bytes[i];
            let may_start = c == b'$'
                || c == b'%'
                || ((c.is_ascii_alphabetic() || c == b'_') && (i == 0 || !is_word_byte(bytes[i - 1])));
            let len = if may_start { name_len(&text[i..]) } else { 0 };
            if len > 0 {
                let name = &text[i..i + len];
                let after = i + len;
                // Not a builtin, and no variable, macro or function of its
                // class was ever defined: it stays as written.
                if c != b'%' && self.defined & name_bit(name) == 0 {
                    out.push_str(name);
                    i = after;
                    continue;
                }
                if bytes.get(after) == Some(&b'(') && self.is_callable(name) {
                    // Finding the `)` scans the rest of the line: charged, so
                    // that a line of many unclosed calls cannot take
                    // quadratic time unnoticed.
                    if !self.charge(1 + (text.len() - after) / 256) {
                        out.push_str(&text[i..]);
                        break;
                    }
                    if let Some(close) = matching_paren(text, after) {
                        if is_line {
                            self.focus = Focus::Span(i..close + 1);
                        }
                        let called = self.call_from_text(name, &text[after + 1..close]);
                        if is_line {
                            self.focus = Focus::Line;
                        }
                        // A failed call stays as written, arguments included
                        // (scanning inside it again would redo the failure).
                        out.push_str(called.as_deref().unwrap_or(&text[i..close + 1]));
                        i = close + 1;
                        continue;
                    }
                }
                if let Some(value) = self.lookup_var(name) {
                    let (value, used) = self.access_chain(value, &text[after..]);
                    if !self.charge(value.weight() / 256) {
                        out.push_str(&text[i..]);
                        break;
                    }
                    out.push_str(&value.to_text());
                    i = after + used;
                    continue;
                } else if let Some(Macro { params: None, body }) = self.macros.get(name) {
                    out.push_str(body);
                } else {
                    out.push_str(name);
                }
                i = after;
                continue;
            }
            // Copied up to where a name may start, in one piece (a
            // character at a time was most of the cost of an included
            // file's lines). Every byte that can start one is ASCII, so
            // the run ends on a character boundary.
            let mut end = i + 1;
            while end < bytes.len() {
                let b = bytes[end];
                let may_start_here =
                    b == b'$' || b == b'%' || ((b.is_ascii_alphabetic() || b == b'_') && !is_word_byte(bytes[end - 1]));
                if may_start_here {
                    break;
                }
                end += 1;
            }
            out.push_str(&text[i..end]);
            i = end;
        }
        out
    }

    /// Applies `.key` and `[index]` accessors written right after a JSON
    /// variable in a diagram line (`$data.peers[0]`); returns the value and
    /// the bytes of `rest` used. Anything else (`$file.txt` on a string)
    /// is left as text.
    fn access_chain(&mut self, mut value: Value, rest: &str) -> (Value, usize) {
        let bytes = rest.as_bytes();
        let mut used = 0;
        loop {
            let dangling_dot = used > 0 && bytes.get(used) == Some(&b'.') && name_len(&rest[used + 1..]) == 0;
            if dangling_dot {
                // `$data.name.` : PlantUML fails on the dot after an access.
                let at = self.current;
                let message = format!(
                    "expected a key name after `{}.`; remove the dot or add the key",
                    &rest[..used]
                );
                self.error(at, EvalError::expr(message));
                return (value, used);
            }
            if !matches!(value, Value::Array(_) | Value::Object(_)) {
                return (value, used);
            }
            match bytes.get(used) {
                Some(b'.') => {
                    let key_len = name_len(&rest[used + 1..]);
                    let key = &rest[used + 1..used + 1 + key_len];
                    if key_len == 0 || key.starts_with(['$', '%']) {
                        return (value, used);
                    }
                    match value.member(key) {
                        Some(next) => {
                            value = next;
                            used += 1 + key_len;
                        }
                        None => return (value, used),
                    }
                }
                Some(b'[') => {
                    let Some(close) = rest[used..].find(']').map(|c| used + c) else {
                        return (value, used);
                    };
                    let index = match self.eval_text(&rest[used + 1..close]) {
                        Ok(index) => index,
                        Err(_) => return (value, used),
                    };
                    match value.index(&index) {
                        Some(next) => {
                            value = next;
                            used = close + 1;
                        }
                        None => return (value, used),
                    }
                }
                _ => return (value, used),
            }
        }
    }

    /// A call written in a diagram line. `None` (after a diagnostic) leaves
    /// the text as it is.
    fn call_from_text(&mut self, name: &str, args_text: &str) -> Option<String> {
        if !self.step() {
            return None;
        }
        let at = self.current;
        let result = match self.functions.get(name).cloned() {
            Some(function) if function.unquoted || function.kind == FunctionKind::LongMacro => {
                // Raw text, in which variables are still replaced.
                let args = raw_args(args_text)
                    .iter()
                    .map(|a| (None, Value::Str(self.substitute(a, false))))
                    .collect();
                self.invoke(&function, args)
            }
            None if self.macros.get(name).is_some_and(|m| m.params.is_some()) => {
                let args: Vec<Value> = raw_args(args_text)
                    .iter()
                    .map(|a| Value::Str(self.substitute(a, false)))
                    .collect();
                self.expand_macro(name, args)
            }
            _ => match expr::parse_args(args_text) {
                Ok(args) => self.eval_call(name, &args),
                Err(message) => Err(EvalError::expr(format!("in the arguments of {name}: {message}"))),
            },
        };
        match result {
            Ok(value) => Some(value.to_text()),
            Err(e) => {
                self.error(at, e);
                None
            }
        }
    }

    // ------------------------------------------------------------ evaluation

    fn eval_text(&mut self, text: &str) -> Result<Value, EvalError> {
        // Loops evaluate the same texts again and again: parse each once.
        let parsed = match self.parsed.get(text) {
            Some(parsed) => parsed.clone(),
            None => {
                let parsed = Rc::new(expr::parse(text));
                if self.parsed.len() < MAX_CACHED_EXPRESSIONS {
                    self.parsed.insert(text.to_owned(), parsed.clone());
                }
                parsed
            }
        };
        match parsed.as_ref() {
            Ok(e) => self.eval(e),
            Err(m) => Err(EvalError::expr(format!("cannot read `{}`: {m}", text.trim()))),
        }
    }

    fn eval(&mut self, e: &Expr) -> Result<Value, EvalError> {
        if self.aborted || !self.enter() {
            return Err(EvalError::new(codes::WORK_LIMIT, "stopped"));
        }
        let result = self.eval_inner(e);
        self.nesting -= 1;
        result
    }

    /// One match arm per helper: the helpers' locals then stay out of the
    /// frame that every level of a deep expression pays for.
    fn eval_inner(&mut self, e: &Expr) -> Result<Value, EvalError> {
        match e {
            Expr::Int(n) => Ok(Value::Int(*n)),
            Expr::Str(s) => Ok(Value::Str(s.clone())),
            Expr::Raw(text) => Ok(Value::Raw(text.clone())),
            Expr::Name(name) => self.eval_name(name),
            Expr::Object(entries) => self.eval_object(entries),
            Expr::Member(base, key) => self.eval_member(base, key),
            Expr::Index(base, index) => self.eval_index(base, index),
            Expr::Array(items) => self.eval_array(items),
            Expr::Neg(inner) => self.eval_neg(inner),
            Expr::Binary(op, left, right) => self.eval_binary(*op, left, right),
            Expr::Call { name, args } => {
                if !self.step() {
                    return Err(EvalError::new(codes::WORK_LIMIT, "stopped"));
                }
                self.eval_call(name, args)
            }
        }
    }

    fn eval_name(&mut self, name: &str) -> Result<Value, EvalError> {
        Ok(match self.lookup_var(name) {
            Some(v) => {
                // Copying a large value costs in proportion to its size.
                if !self.charge(v.weight() / 256) {
                    return Err(EvalError::new(codes::WORK_LIMIT, "stopped"));
                }
                v
            }
            None => match self.macros.get(name) {
                Some(Macro { params: None, body }) => match body.trim().parse::<i64>() {
                    Ok(n) => Value::Int(n),
                    Err(_) => Value::Str(body.clone()),
                },
                _ => Value::Str(name.to_owned()),
            },
        })
    }

    fn eval_object(&mut self, entries: &[(String, Expr)]) -> Result<Value, EvalError> {
        let mut values: Vec<(String, Value)> = Vec::with_capacity(entries.len());
        for (key, item) in entries {
            let value = self.eval(item)?;
            match values.iter_mut().find(|(k, _)| k == key) {
                Some(slot) => slot.1 = value,
                None => values.push((key.clone(), value)),
            }
        }
        Ok(Value::Object(values))
    }

    fn eval_member(&mut self, base: &Expr, key: &str) -> Result<Value, EvalError> {
        let value = self.eval(base)?;
        value
            .member(key)
            .ok_or_else(|| EvalError::expr(format!("`.{key}` needs a JSON object, found \"{}\"", value.to_text())))
    }

    fn eval_index(&mut self, base: &Expr, index: &Expr) -> Result<Value, EvalError> {
        let value = self.eval(base)?;
        let index = self.eval(index)?;
        value.index(&index).ok_or_else(|| {
            EvalError::expr(format!(
                "cannot index \"{}\" with \"{}\"",
                value.to_text(),
                index.to_text()
            ))
        })
    }

    fn eval_array(&mut self, items: &[Expr]) -> Result<Value, EvalError> {
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            values.push(self.eval(item)?);
        }
        Ok(Value::Array(values))
    }

    fn eval_neg(&mut self, inner: &Expr) -> Result<Value, EvalError> {
        let v = self.eval(inner)?;
        v.as_int()
            .and_then(i64::checked_neg)
            .map(Value::Int)
            .ok_or_else(|| EvalError::expr(format!("cannot negate \"{}\"", v.to_text())))
    }

    fn eval_binary(&mut self, op: BinOp, left: &Expr, right: &Expr) -> Result<Value, EvalError> {
        let l = self.eval(left)?;
        let r = self.eval(right)?;
        self.binary(op, l, r)
    }

    fn binary(&mut self, op: BinOp, l: Value, r: Value) -> Result<Value, EvalError> {
        let ints = || Some((l.as_int()?, r.as_int()?));
        let arithmetic = |f: fn(i64, i64) -> Option<i64>, what: &str| -> Result<Value, EvalError> {
            let (a, b) = ints().ok_or_else(|| {
                EvalError::expr(format!(
                    "cannot {what} \"{}\" and \"{}\": both must be numbers",
                    l.to_text(),
                    r.to_text()
                ))
            })?;
            f(a, b)
                .map(Value::Int)
                .ok_or_else(|| EvalError::expr(format!("cannot {what} {a} and {b} (overflow or division by zero)")))
        };
        match op {
            BinOp::Add => match (&l, &r) {
                (Value::Int(a), Value::Int(b)) => a
                    .checked_add(*b)
                    .map(Value::Int)
                    .ok_or_else(|| EvalError::expr("integer overflow")),
                _ => {
                    let (a, b) = (l.to_text(), r.to_text());
                    if a.len() + b.len() > self.options.max_output_bytes {
                        self.aborted_by_size();
                        return Err(EvalError::new(codes::OUTPUT_LIMIT, "string too large"));
                    }
                    // Concatenation copies: long strings cost more.
                    if !self.charge((a.len() + b.len()) / 256) {
                        return Err(EvalError::new(codes::WORK_LIMIT, "stopped"));
                    }
                    Ok(Value::Str(a + &b))
                }
            },
            BinOp::Sub => arithmetic(i64::checked_sub, "subtract"),
            BinOp::Mul => arithmetic(i64::checked_mul, "multiply"),
            BinOp::Div => arithmetic(i64::checked_div, "divide"),
            BinOp::And => Ok(Value::bool(l.truthy() && r.truthy())),
            BinOp::Or => Ok(Value::bool(l.truthy() || r.truthy())),
            BinOp::Eq | BinOp::Ne => {
                let equal = match ints() {
                    Some((a, b)) if matches!(l, Value::Int(_)) || matches!(r, Value::Int(_)) => a == b,
                    _ => l.to_text() == r.to_text(),
                };
                Ok(Value::bool(equal == (op == BinOp::Eq)))
            }
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
                let ordering = match ints() {
                    Some((a, b)) => a.cmp(&b),
                    None => l.to_text().cmp(&r.to_text()),
                };
                Ok(Value::bool(match op {
                    BinOp::Lt => ordering.is_lt(),
                    BinOp::Gt => ordering.is_gt(),
                    BinOp::Le => ordering.is_le(),
                    _ => ordering.is_ge(),
                }))
            }
        }
    }

    fn aborted_by_size(&mut self) {
        let at = self.current;
        self.report(
            at,
            codes::OUTPUT_LIMIT,
            Severity::Error,
            format!(
                "a preprocessor string grew past {} bytes; expansion stopped here",
                self.options.max_output_bytes
            ),
            None,
        );
        self.aborted = true;
    }

    fn eval_call(&mut self, name: &str, args: &[Arg]) -> Result<Value, EvalError> {
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push((arg.name.clone(), self.eval(&arg.value)?));
        }
        if let Some(function) = self.functions.get(name).cloned() {
            return self.invoke(&function, values);
        }
        if self.macros.get(name).is_some_and(|m| m.params.is_some()) {
            return self.expand_macro(name, values.into_iter().map(|(_, v)| v).collect());
        }
        if name.starts_with('%') {
            let positional: Vec<Value> = values.into_iter().map(|(_, v)| v).collect();
            return self.builtin(name, positional);
        }
        Err(EvalError::new(
            codes::UNKNOWN_FUNCTION,
            format!("unknown function {name}(); define it with !function or !procedure first"),
        ))
    }

    fn builtin(&mut self, name: &str, args: Vec<Value>) -> Result<Value, EvalError> {
        let input_weight: usize = args.iter().map(Value::weight).sum();
        if !self.charge(input_weight / 256) {
            return Err(EvalError::new(codes::WORK_LIMIT, "stopped"));
        }
        if let Some(result) = builtins::call_pure(name, &args) {
            let value = result.map_err(EvalError::expr)?;
            // JSON builtins can double a value per call (`%json_merge($a, $a)`).
            if value.weight() > self.options.max_output_bytes {
                self.aborted_by_size();
                return Err(EvalError::new(codes::OUTPUT_LIMIT, "value too large"));
            }
            return Ok(value);
        }
        let text_arg = |i: usize| args.get(i).map(Value::to_text).unwrap_or_default();
        match name {
            "%variable_exists" => Ok(Value::bool(self.lookup_var(&text_arg(0)).is_some())),
            "%function_exists" => {
                let f = text_arg(0);
                Ok(Value::bool(
                    self.functions.contains_key(&f) || self.macros.contains_key(&f) || builtins::is_builtin(&f),
                ))
            }
            "%get_variable_value" => Ok(self.lookup_var(&text_arg(0)).unwrap_or(Value::Str(String::new()))),
            "%set_variable_value" => {
                let value = args.get(1).cloned().unwrap_or(Value::Str(String::new()));
                self.set_var(Scope::Global, &text_arg(0), value);
                Ok(Value::Str(String::new()))
            }
            "%call_user_func" | "%invoke_procedure" => {
                let target = text_arg(0);
                let rest = args.iter().skip(1).map(|v| (None, v.clone())).collect();
                match self.functions.get(&target).cloned() {
                    Some(function) => self.invoke(&function, rest),
                    None => Err(EvalError::new(
                        codes::UNKNOWN_FUNCTION,
                        format!("{name}: there is no function or procedure named {target}"),
                    )),
                }
            }
            "%eval" => {
                let text = text_arg(0);
                self.call_depth += 1;
                let result = if self.call_depth > self.options.max_call_depth {
                    Err(self.runaway("%eval calls nested too deeply (runaway recursion?)".to_owned()))
                } else {
                    self.eval_text(&text)
                };
                self.call_depth -= 1;
                result
            }
            "%date" => {
                let now = self.now();
                let when = args.get(1).and_then(Value::as_int).unwrap_or(now);
                let pattern = args.first().map(Value::to_text).filter(|p| !p.is_empty());
                Ok(Value::Str(builtins::format_date(pattern.as_deref(), when)))
            }
            "%now" => Ok(Value::Int(self.now())),
            "%version" => Ok(Value::Str(format!("puml {}", env!("CARGO_PKG_VERSION")))),
            // The environment and the file system stay private: a diagram
            // (perhaps from an untrusted source) must not read them.
            "%getenv" => Ok(Value::Str(String::new())),
            "%file_exists" => Ok(Value::bool(false)),
            "%filename" | "%filename_no_extension" | "%dirpath" => {
                let path = self.options.file_path.as_deref();
                let text = match name {
                    "%filename" => path.and_then(Path::file_name),
                    "%filename_no_extension" => path.and_then(Path::file_stem),
                    _ => None,
                };
                Ok(Value::Str(
                    text.map(|t| t.to_string_lossy().into_owned()).unwrap_or_default(),
                ))
            }
            "%random" => {
                // xorshift: deterministic, so that the same file always
                // preprocesses the same way.
                let mut x = self.random_state;
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                self.random_state = x;
                let bound = args
                    .first()
                    .and_then(Value::as_int)
                    .filter(|n| *n > 0)
                    .unwrap_or(1 << 31);
                let low = args.get(1).and_then(Value::as_int);
                Ok(Value::Int(match low {
                    Some(hi) if hi > bound => bound + (x % (hi - bound) as u64) as i64,
                    _ => (x % bound as u64) as i64,
                }))
            }
            "%get_current_theme" => Ok(Value::Str(String::new())),
            "%str2json" => {
                let text = text_arg(0);
                let parsed = expr::parse(&text)
                    .map_err(|m| EvalError::expr(format!("%str2json: \"{text}\" is not JSON: {m}")))?;
                if !is_json_literal(&parsed) {
                    return Err(EvalError::expr(format!("%str2json: \"{text}\" is not JSON")));
                }
                self.eval(&parsed)
            }
            "%feature" => Ok(Value::bool(false)),
            _ => {
                let hint = if builtins::NOT_IMPLEMENTED.contains(&name) {
                    format!("{name}() is a PlantUML builtin that puml does not implement")
                } else if name == "%defined" || name == "%is_defined" {
                    format!("PlantUML has no {name}(); use %variable_exists(\"$name\") or !ifdef NAME")
                } else {
                    format!("unknown builtin function {name}()")
                };
                Err(EvalError::new(codes::UNKNOWN_FUNCTION, hint))
            }
        }
    }

    fn now(&self) -> i64 {
        self.options.now.unwrap_or_else(clock_seconds)
    }

    /// Expands a `!define NAME(params) body` macro: the parameters are bound
    /// like variables (so they are replaced as whole words) and the body is
    /// substituted again, which also expands the variables and macros it
    /// names.
    fn expand_macro(&mut self, name: &str, args: Vec<Value>) -> Result<Value, EvalError> {
        let Some(Macro {
            params: Some(params),
            body,
        }) = self.macros.get(name)
        else {
            return Err(EvalError::new(codes::UNKNOWN_FUNCTION, format!("unknown macro {name}")));
        };
        let (params, body) = (params.clone(), body.clone());
        if args.len() > params.len() {
            return Err(EvalError::new(
                codes::BAD_CALL_ARGUMENTS,
                format!(
                    "the macro {name} takes {} argument(s), found {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        if self.call_depth >= self.options.max_call_depth {
            return Err(self.runaway(format!(
                "macro calls nested more than {} deep in {name} (a macro that uses itself?)",
                self.options.max_call_depth
            )));
        }
        let mut scope = FxHashMap::default();
        let mut args = args.into_iter();
        for param in params {
            self.defined |= name_bit(&param);
            scope.insert(param, args.next().unwrap_or(Value::Str(String::new())));
        }
        self.locals.push(scope);
        self.call_depth += 1;
        let expanded = self.substitute(&body, false);
        self.call_depth -= 1;
        self.locals.pop();
        Ok(Value::Str(expanded))
    }

    /// Reports runaway recursion where it happens and stops the expansion:
    /// letting each level fail and go on could take exponential time.
    fn runaway(&mut self, message: String) -> EvalError {
        let at = self.current;
        let focus = self.focus_span(&self.focus, at);
        self.report(at, codes::CALL_DEPTH_LIMIT, Severity::Error, message.clone(), focus);
        self.aborted = true;
        EvalError {
            code: codes::CALL_DEPTH_LIMIT,
            message,
            reported: true,
        }
    }

    /// Runs a user procedure or function with bound arguments.
    fn invoke(&mut self, function: &Rc<UserFunction>, args: Vec<(Option<String>, Value)>) -> Result<Value, EvalError> {
        let name = &function.name;
        if self.call_depth >= self.options.max_call_depth {
            return Err(self.runaway(format!(
                "calls nested more than {} deep in {name}() (runaway recursion?)",
                self.options.max_call_depth
            )));
        }
        let mut bound: Vec<Option<Value>> = vec![None; function.params.len()];
        let mut position = 0;
        for (arg_name, value) in args {
            let index = match arg_name {
                Some(n) => function
                    .params
                    .iter()
                    .position(|p| p.name == n || p.name.trim_start_matches('$') == n.trim_start_matches('$'))
                    .ok_or_else(|| {
                        EvalError::new(
                            codes::BAD_CALL_ARGUMENTS,
                            format!("{name}() has no parameter named {n}"),
                        )
                    })?,
                None => {
                    let index = position;
                    position += 1;
                    index
                }
            };
            match bound.get_mut(index) {
                Some(slot) => *slot = Some(value),
                None => {
                    return Err(EvalError::new(
                        codes::BAD_CALL_ARGUMENTS,
                        format!("{name}() takes {} argument(s), found more", function.params.len()),
                    ))
                }
            }
        }
        let mut scope = FxHashMap::default();
        for (param, value) in function.params.iter().zip(bound) {
            let value = match (value, &param.default) {
                (Some(v), _) => v,
                (None, Some(default)) => self.eval_text(default)?,
                (None, None) => {
                    return Err(EvalError::new(
                        codes::BAD_CALL_ARGUMENTS,
                        format!("{name}() is missing a value for its parameter {}", param.name),
                    ))
                }
            };
            self.defined |= name_bit(&param.name);
            scope.insert(param.name.clone(), value);
        }
        self.locals.push(scope);
        self.call_depth += 1;
        let (caller, caller_focus) = (self.current, std::mem::replace(&mut self.focus, Focus::Line));
        let call_span = self.focus_span(&caller_focus, caller);
        self.call_sites.push((caller, call_span));
        let is_procedure = function.kind != FunctionKind::Function;
        // A function's text lines are captured too, and dropped: PlantUML
        // ignores them.
        self.captures.push(Vec::new());
        let flow = self.exec_nodes(&function.body);
        let captured = self.captures.pop().filter(|_| is_procedure);
        self.call_depth -= 1;
        self.locals.pop();
        self.call_sites.pop();
        self.current = caller;
        self.focus = caller_focus;
        match flow {
            Flow::Abort => Err(EvalError::new(codes::WORK_LIMIT, "stopped")),
            Flow::Failed(e) => Err(e),
            Flow::Return(value) if !is_procedure => Ok(value),
            _ => Ok(Value::Str(captured.map(|lines| lines.join("\n")).unwrap_or_default())),
        }
    }
}

/// JSON is a subset of the expression language: literals only, no names,
/// calls or operators.
fn is_json_literal(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Str(_) | Expr::Raw(_) => true,
        Expr::Neg(inner) => matches!(**inner, Expr::Int(_) | Expr::Raw(_)),
        Expr::Array(items) => items.iter().all(is_json_literal),
        Expr::Object(entries) => entries.iter().all(|(_, v)| is_json_literal(v)),
        _ => false,
    }
}

fn collect_subs(nodes: &[Node], part: &str, out: &mut Vec<Node>) {
    for node in nodes {
        if let Node::Sub { name, body } = node {
            if name == part {
                out.extend(body.iter().cloned());
            } else {
                collect_subs(body, part, out);
            }
        }
    }
}

/// The lines of the diagram `selector` names in an included file (without
/// its `@startuml`/`@enduml`): the first one by default, `N` (0-based) or
/// an `id=NAME`. A file without `@startuml` is included whole.
fn select_diagram(file: &SourceFile, selector: Option<&str>) -> Result<Range<u32>, (String, Range<u32>)> {
    let mut blocks: Vec<(u32, u32, String)> = Vec::new();
    let mut open: Option<(u32, String)> = None;
    for (i, _) in file.lines.iter().enumerate() {
        let trimmed = file.line_text(i as u32).trim();
        if open.is_none() && is_start_line(trimmed) {
            open = Some((i as u32, trimmed.to_owned()));
        } else if is_end_line(trimmed) {
            if let Some((start, header)) = open.take() {
                blocks.push((start + 1, i as u32, header));
            }
        }
    }
    if let Some((start, header)) = open {
        blocks.push((start + 1, file.lines.len() as u32, header));
    }
    let whole = 0..file.lines.len() as u32;
    let first = blocks.first().map(|(s, e, _)| *s..*e).unwrap_or(whole.clone());
    let Some(selector) = selector.filter(|s| !s.is_empty()) else {
        return Ok(first);
    };
    if let Ok(index) = selector.parse::<usize>() {
        if blocks.is_empty() && index == 0 {
            return Ok(whole);
        }
        return blocks.get(index).map(|(s, e, _)| *s..*e).ok_or_else(|| {
            (
                format!(
                    "the included file has {} diagram(s); there is no diagram number {index} (counted from 0), so the first one is used",
                    blocks.len()
                ),
                first.clone(),
            )
        });
    }
    blocks
        .iter()
        .find(|(_, _, header)| {
            header.contains(&format!("id={selector}")) || header.split_whitespace().nth(1) == Some(selector)
        })
        .map(|(s, e, _)| *s..*e)
        .ok_or_else(|| {
            (
                format!("the included file has no diagram with id {selector}, so the first one is used"),
                first.clone(),
            )
        })
}

const KNOWN_DIRECTIVES: &[&str] = &[
    "!include",
    "!include_many",
    "!include_once",
    "!includesub",
    "!includeurl",
    "!define",
    "!definelong",
    "!enddefinelong",
    "!undef",
    "!if",
    "!ifdef",
    "!ifndef",
    "!elseif",
    "!else",
    "!endif",
    "!while",
    "!endwhile",
    "!foreach",
    "!endfor",
    "!procedure",
    "!endprocedure",
    "!function",
    "!endfunction",
    "!return",
    "!unquoted",
    "!local",
    "!global",
    "!log",
    "!assert",
    "!theme",
    "!pragma",
    "!startsub",
    "!endsub",
];

/// A known directive close to `word` (common slips, then edit distance 1–2).
fn suggest_directive(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    let common = match lower.as_str() {
        "!elif" | "!elsif" | "!else_if" => Some("!elseif"),
        "!fi" | "!end_if" | "!end" => Some("!endif"),
        "!endforeach" | "!end_for" | "!done" => Some("!endfor"),
        "!end_while" | "!wend" => Some("!endwhile"),
        "!endproc" | "!end_procedure" => Some("!endprocedure"),
        "!end_function" | "!endfunc" => Some("!endfunction"),
        "!var" | "!set" | "!let" => None,
        _ => None,
    };
    common.or_else(|| {
        KNOWN_DIRECTIVES
            .iter()
            .map(|k| (edit_distance(&lower, k), *k))
            .filter(|(d, _)| *d <= if lower.len() > 6 { 2 } else { 1 })
            .min_by_key(|(d, _)| *d)
            .map(|(_, k)| k)
    })
}

/// The bit of [`Engine::defined`] for a name: its first byte and its
/// length mixed into one of 64 classes (`$blue` and `skinparam` differ).
fn name_bit(name: &str) -> u64 {
    let first = usize::from(name.as_bytes().first().copied().unwrap_or(0));
    1 << ((first * 31 + name.len()) % 64)
}

/// Edit distance for directive suggestions; far-apart lengths (and long
/// words, which expanded text can make megabytes long) are never close.
fn edit_distance(a: &str, b: &str) -> usize {
    if a.len().abs_diff(b.len()) > 2 || a.len() > 40 {
        return usize::MAX;
    }
    puml_syntax::edit_distance(a, b)
}

/// Seconds since the Unix epoch, for `%date`/`%now` when the caller gave no
/// time. `wasm32-unknown-unknown` has no clock (`SystemTime::now` panics
/// there), so a WebAssembly build reads the epoch unless the caller set
/// [`PreprocessOptions::now`].
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn clock_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn clock_seconds() -> i64 {
    0
}
