//! Syntax tree → model: resolves names, desugars lifecycle shorthands,
//! `return` and `autoactivate`, numbers messages, and reports the semantic
//! problems (unbalanced groups, `else` outside a group, nothing to
//! deactivate, …).

use crate::codes;
use crate::model::*;
use crate::preprocess::{self, FileLoader, PreprocessOptions};
use puml_syntax::ast::{self, significant_tokens, GreenStatement, Tok};
use puml_syntax::{Diagnostic, DiagramKind, Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextEdit, TextRange, TextSize};
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use SyntaxKind::*;

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct AnalysisOptions {
    pub file_path: Option<PathBuf>,
    pub include_root: Option<PathBuf>,
    pub allow_url_includes: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Shared: the database hands the same model to every query that asks
    /// for it instead of copying 5,000 events per edit.
    pub document: std::sync::Arc<Document>,
    pub source_map: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    /// `(path, text)` of every file pulled in by `!include`, so diagnostics
    /// inside them can be located by line and column.
    pub included_files: Vec<(String, String)>,
    /// The text went through the preprocessor (it has a directive line or
    /// a builtin call), so ranges were mapped back through its line map.
    pub preprocessed: bool,
}

pub fn analyze(text: &str, options: &AnalysisOptions, loader: &dyn FileLoader) -> Analysis {
    analyze_with(text, None, options, loader)
}

/// Analyzes an already parsed text. When the text uses the preprocessor,
/// the expanded text is parsed and lowered instead, and every range is
/// mapped back to the original lines.
pub fn analyze_parsed(text: &str, parse: &Parse, options: &AnalysisOptions, loader: &dyn FileLoader) -> Analysis {
    analyze_with(text, Some(parse), options, loader)
}

/// [`analyze_parsed`], parsing `text` only when its own tree is needed: a
/// text the preprocessor rewrites is lowered from the expanded text's tree,
/// so parsing it first would be wasted work.
fn analyze_with(text: &str, parsed: Option<&Parse>, options: &AnalysisOptions, loader: &dyn FileLoader) -> Analysis {
    let mut parsed_here = None;
    if preprocess::needs_preprocessing(text) {
        let pre_options = PreprocessOptions {
            file_path: options.file_path.clone(),
            include_root: options.include_root.clone(),
            allow_url_includes: options.allow_url_includes,
            ..PreprocessOptions::default()
        };
        let pre = preprocess::preprocess_needed(text, &pre_options, loader);
        if pre.changed {
            let expanded_parse = puml_syntax::parse(&pre.text);
            let (mut document, mut source_map, mut diagnostics) = lower_root(&expanded_parse);
            diagnostics.extend(overlong_lines(&pre.text));
            let mapper = LineMapper::new(text, &pre);
            let mut all: Vec<Diagnostic> = pre.diagnostics.clone();
            all.extend(expanded_parse.errors().iter().cloned());
            all.append(&mut diagnostics);
            crate::other_kind::recognize(&expanded_parse, &mut document, &mut source_map, &mut all);
            // Preprocessor diagnostics already point into their own files.
            let mut mapped: Vec<Diagnostic> = all
                .into_iter()
                .map(|d| {
                    if d.code.starts_with('P') {
                        d
                    } else {
                        mapper.map_diagnostic(d)
                    }
                })
                .collect();
            sort_and_dedup(&mut mapped);
            let source_map = mapper.map_source_map(source_map);
            let included_files = mapper.included_files();
            return Analysis {
                document: document.into(),
                source_map,
                diagnostics: mapped,
                included_files,
                preprocessed: true,
            };
        }
        let parse = parsed.unwrap_or_else(|| parsed_here.insert(puml_syntax::parse(text)));
        let (mut document, mut source_map, mut diagnostics) = lower_root(parse);
        diagnostics.extend(overlong_lines(text));
        let mut all: Vec<Diagnostic> = pre.diagnostics.clone();
        all.extend(parse.errors().iter().cloned());
        all.append(&mut diagnostics);
        crate::other_kind::recognize(parse, &mut document, &mut source_map, &mut all);
        sort_and_dedup(&mut all);
        return Analysis {
            document: document.into(),
            source_map,
            diagnostics: all,
            included_files: Vec::new(),
            preprocessed: true,
        };
    }
    let parse = parsed.unwrap_or_else(|| parsed_here.insert(puml_syntax::parse(text)));
    let (mut document, mut source_map, mut diagnostics) = lower_root(parse);
    diagnostics.extend(overlong_lines(text));
    let mut all: Vec<Diagnostic> = parse.errors().to_vec();
    all.append(&mut diagnostics);
    crate::other_kind::recognize(parse, &mut document, &mut source_map, &mut all);
    sort_and_dedup(&mut all);
    Analysis {
        document: document.into(),
        source_map,
        diagnostics: all,
        included_files: Vec::new(),
        preprocessed: false,
    }
}

fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| {
        (a.file.is_some(), a.range.start(), a.range.end(), a.code).cmp(&(
            b.file.is_some(),
            b.range.start(),
            b.range.end(),
            b.code,
        ))
    });
    diagnostics.dedup();
}

/// Maps ranges in the preprocessed text back to the file each line came
/// from (the main file, or an included one).
struct LineMapper<'a> {
    main: FileText<'a>,
    /// By path (a handful of files; Fx, not SipHash: every range mapped
    /// into an included file looks its file up twice).
    included: FxHashMap<&'a str, FileText<'a>>,
    expanded: &'a str,
    expanded_index: puml_syntax::LineIndex,
    lines: &'a [preprocess::LineOrigin],
}

/// A file's text, borrowed, and its line index, built the first time a
/// range maps into it: most diagnostics and items of a preprocessed text
/// come from the main file, and an included style file's index was built
/// (and its text copied) for nothing.
struct FileText<'a> {
    text: &'a str,
    index: std::cell::OnceCell<puml_syntax::LineIndex>,
}

impl<'a> FileText<'a> {
    fn new(text: &'a str) -> FileText<'a> {
        FileText {
            text,
            index: std::cell::OnceCell::new(),
        }
    }

    fn index(&self) -> &puml_syntax::LineIndex {
        self.index.get_or_init(|| puml_syntax::LineIndex::new(self.text))
    }
}

impl<'a> LineMapper<'a> {
    fn new(original: &'a str, pre: &'a preprocess::Preprocessed) -> LineMapper<'a> {
        let included: FxHashMap<&'a str, FileText<'a>> = pre
            .included
            .iter()
            .map(|(path, text)| (path.as_str(), FileText::new(text)))
            .collect();
        LineMapper {
            main: FileText::new(original),
            included,
            expanded: &pre.text,
            expanded_index: puml_syntax::LineIndex::new(&pre.text),
            lines: &pre.lines,
        }
    }

    fn included_files(&self) -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = self
            .included
            .iter()
            .map(|(path, file)| ((*path).to_owned(), file.text.to_owned()))
            .collect();
        files.sort();
        files
    }

    fn file(&self, name: Option<&str>) -> &FileText<'a> {
        name.and_then(|n| self.included.get(n)).unwrap_or(&self.main)
    }

    /// Maps an offset of the expanded text to `(file, offset in that file)`.
    /// The file's name is borrowed from the line map: it is copied only
    /// where a mapped item keeps it (a copy per mapping was most of mapping
    /// a preprocessed text's model back).
    fn map_offset(&self, offset: TextSize) -> (Option<&'a str>, TextSize) {
        let line = self.expanded_index.line_of(offset);
        let Some(origin) = self.lines.get(line).or(self.lines.last()) else {
            return (None, TextSize::from(0));
        };
        let file = origin.file.as_deref();
        let target = self.file(file);
        let Some(original_range) = target.index().line_range(target.text, origin.line as usize) else {
            return (file, TextSize::of(target.text));
        };
        if origin.verbatim {
            let expanded_line_start = self
                .expanded_index
                .line_range(self.expanded, line)
                .map(|r| r.start())
                .unwrap_or_default();
            let delta = offset.checked_sub(expanded_line_start).unwrap_or_default();
            (file, (original_range.start() + delta).min(original_range.end()))
        } else {
            (file, original_range.start())
        }
    }

    fn map_range(&self, range: TextRange) -> (Option<&'a str>, TextRange) {
        let (file, start) = self.map_offset(range.start());
        let (end_file, end) = self.map_offset(range.end());
        let target = self.file(file);
        let end = if end < start || end_file != file {
            let line = target.index().line_of(start);
            target
                .index()
                .line_range(target.text, line)
                .map(|r| r.end())
                .unwrap_or(start)
        } else {
            end
        };
        (file, TextRange::new(start, end.max(start)))
    }

    fn map_diagnostic(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        let (file, range) = self.map_range(diagnostic.range);
        diagnostic.range = range;
        let mut fixes_ok = file.is_none();
        diagnostic.file = file.map(str::to_owned);
        for fix in &mut diagnostic.fixes {
            for edit in &mut fix.edits {
                let (edit_file, mapped) = self.map_range(edit.range);
                fixes_ok &= edit_file.is_none() && self.is_verbatim_at(edit.range);
                edit.range = mapped;
            }
        }
        if !fixes_ok {
            diagnostic.fixes.clear();
        }
        for related in &mut diagnostic.related {
            let (file, mapped) = self.map_range(related.range);
            related.file = file.map(str::to_owned);
            related.range = mapped;
        }
        diagnostic
    }

    fn is_verbatim_at(&self, range: TextRange) -> bool {
        let line = self.expanded_index.line_of(range.start());
        self.lines.get(line).is_some_and(|o| o.verbatim && o.file.is_none())
    }

    /// Whether `range` of the expanded text was copied from an included
    /// file as written (not produced by a macro), so that it spells the same
    /// text there.
    fn is_verbatim_in_include(&self, range: TextRange) -> bool {
        let line = self.expanded_index.line_of(range.start());
        self.lines.get(line).is_some_and(|o| o.verbatim && o.file.is_some())
    }

    /// Source-map ranges must point into the main file: items from
    /// included files point at the start of the main file's diagram.
    fn map_source_map(&self, mut map: SourceMap) -> SourceMap {
        let fix = |r: &mut TextRange| {
            let (file, mapped) = self.map_range(*r);
            *r = if file.is_none() {
                mapped
            } else {
                TextRange::empty(TextSize::from(0))
            };
        };
        for diagram in &mut map.diagrams {
            fix(&mut diagram.range);
            // Where a participant is declared or used in an included file,
            // remembered with that file before the range is emptied here.
            diagram.included_participants = diagram
                .participants
                .iter()
                .map(|r| match self.map_range(*r) {
                    (Some(file), range) if self.is_verbatim_in_include(*r) => Some((file.to_owned(), range)),
                    _ => None,
                })
                .collect();
            diagram.included_participant_uses = diagram
                .participant_uses
                .iter()
                .map(|uses| {
                    uses.iter()
                        .filter(|r| self.is_verbatim_in_include(**r))
                        .filter_map(|r| match self.map_range(*r) {
                            (Some(file), range) => Some((file.to_owned(), range)),
                            (None, _) => None,
                        })
                        .collect()
                })
                .collect();
            diagram.participants.iter_mut().for_each(fix);
            diagram.participant_uses.iter_mut().flatten().for_each(fix);
            diagram.events.iter_mut().for_each(fix);
            if let Some(activity) = &mut diagram.activity {
                activity.steps.iter_mut().for_each(fix);
                activity.lanes.iter_mut().for_each(fix);
            }
        }
        map
    }
}

/// Longest line the renderer draws, in characters (the layout cuts longer
/// ones; kept equal to `puml_layout::creole::MAX_LINE_CHARS`, which this
/// crate cannot name).
pub const MAX_DRAWN_LINE_CHARS: usize = 2_000;

/// Whether some line of `text` (without its line break) has more than `limit` bytes.
fn has_line_longer_than(text: &[u8], limit: usize) -> bool {
    let mut line_start = 0;
    while text.len() - line_start > limit {
        // The bytes a line starting here would need beyond the limit.
        let window = &text[line_start..=line_start + limit];
        match window.iter().rposition(|&b| b == b'\n') {
            Some(last_break) => line_start += last_break + 1,
            None => return true,
        }
    }
    false
}

/// A warning for each line of `text` longer than the renderer draws.
fn overlong_lines(text: &str) -> Vec<Diagnostic> {
    // Most files are too short to hold such a line, and most long files
    // have none: a line of more than MAX_DRAWN_LINE_CHARS characters has
    // more than that many bytes, so a window that long with a line break
    // lets the scan jump to its last break (a few steps per 100 KB, where
    // walking every line cost ~8 % of an edit's re-analysis).
    if text.len() <= MAX_DRAWN_LINE_CHARS || !has_line_longer_than(text.as_bytes(), MAX_DRAWN_LINE_CHARS) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.len() > MAX_DRAWN_LINE_CHARS {
            if let Some((cut, _)) = content.char_indices().nth(MAX_DRAWN_LINE_CHARS) {
                out.push(Diagnostic::warning(
                    codes::LINE_CUT_WHEN_DRAWN,
                    TextRange::new(
                        TextSize::from((start + cut) as u32),
                        TextSize::from((start + content.len()) as u32),
                    ),
                    format!(
                        "this line is longer than {MAX_DRAWN_LINE_CHARS} characters; the drawing cuts it here \
                         (break it with `\\n`, or put the text in a note)"
                    ),
                ));
            }
        }
        start += line.len();
    }
    out
}

fn lower_root(parse: &Parse) -> (Document, SourceMap, Vec<Diagnostic>) {
    let root = parse.root();
    let mut document = Document::default();
    let mut source_map = SourceMap::default();
    let mut diagnostics = Vec::new();
    let decided = parse.diagram_kinds();
    for (index, diagram) in root.diagrams().enumerate() {
        let kind = decided.get(index).copied().unwrap_or_else(|| {
            if diagram.is_activity() {
                DiagramKind::Activity
            } else {
                DiagramKind::Sequence
            }
        });
        let mut lowering = DiagramLowering::new(&diagram, kind);
        lowering.run(&diagram);
        let (model, map, mut diags) = lowering.finish(&diagram);
        document.diagrams.push(model);
        source_map.diagrams.push(map);
        diagnostics.append(&mut diags);
    }
    if document.diagrams.is_empty() {
        diagnostics.push(Diagnostic::warning(
            codes::NO_DIAGRAM,
            TextRange::empty(TextSize::from(0)),
            "the file contains no diagram: write `@startuml`, the statements, then `@enduml`",
        ));
    }
    (document, source_map, diagnostics)
}

#[derive(Clone)]
struct OpenGroup {
    range: TextRange,
    /// An `else` outside any group opens one of these, so that a stray
    /// `end` after it is not a second error: `(index of the else's
    /// diagnostic, range of the else keyword, range of its whole line)`.
    /// Its fix is chosen by what follows: an `end` → the `else` meant `alt`;
    /// none → remove the `else`.
    stray_else: Option<(usize, TextRange, TextRange)>,
}

#[derive(Clone, Default)]
struct AutoNumber {
    enabled: bool,
    /// A numbering was started (`autonumber …`): only then can it resume or increase a level.
    started: bool,
    /// `autonumber resume` with nothing started: PlantUML fails on the next message.
    resume_without_start: Option<TextRange>,
    /// Dotted levels, e.g. `[1, 2, 3]` for `1.2.3`; the last one increments.
    current: Vec<u64>,
    step: u64,
    format: Option<String>,
}

struct DiagramLowering {
    diagram: Diagram,
    map: DiagramSourceMap,
    diagnostics: Vec<Diagnostic>,
    by_code: FxHashMap<String, ParticipantId>,
    /// The arrows read so far, as written: a diagram writes the same few
    /// arrows again and again (`->`, `-->`), and reading one cost more than
    /// finding it here.
    arrows: Vec<(String, puml_syntax::ArrowSyntax)>,
    groups: Vec<OpenGroup>,
    open_box: Option<(usize, TextRange)>,
    box_stack: Vec<(usize, TextRange)>,
    /// Activation depth per participant.
    active: Vec<u32>,
    /// Most recent activations, for `deactivate` without a name.
    activation_order: Vec<ParticipantId>,
    /// `(caller, callee)` of messages that activated their target, for `return`.
    calls: Vec<(Endpoint, ParticipantId)>,
    autoactivate: bool,
    autonumber: AutoNumber,
    /// Where [`DiagramLowering::next_number`] writes a number.
    number_text: String,
    pending_creates: Vec<ParticipantId>,
    /// The last `create` line while its message is still to come.
    pending_create_line: Option<TextRange>,
    /// A message or an activation happened: PlantUML hangs a deactivation
    /// or a destruction on one, and refuses them before any.
    lifeline_started: bool,
    last_message: Option<usize>,
    /// Where the statement being lowered starts (its line, indentation included).
    statement_start: TextSize,
    /// Per participant: the start of the line that introduced it.
    first_use_line_start: Vec<TextSize>,
    /// Per participant: its place in the left-to-right order (a counter
    /// value; re-declaring it inside a box moves it to the end, as PlantUML).
    sequence: Vec<u32>,
    next_sequence: u32,
    /// Set when the block is an activity diagram: its statements go there,
    /// the shared ones (title, skinparam, …) to the sequence fields.
    activity: Option<crate::lower_activity::ActivityLowering>,
    /// Set when the block is a class diagram, likewise.
    class: Option<crate::lower_class::ClassLowering>,
    /// Set when the block is a description diagram, likewise.
    description: Option<crate::lower_description::DescriptionLowering>,
    /// Set when the block is a state diagram, likewise.
    state: Option<crate::lower_state::StateLowering>,
    /// Set when the block is a legacy activity diagram, likewise.
    legacy: Option<crate::lower_legacy_activity::LegacyLowering>,
    /// A class or description diagram met `newpage`: PlantUML draws only
    /// the page before it, so what follows is not lowered (W0252).
    past_first_page: bool,
}

impl DiagramLowering {
    fn new(diagram: &ast::Diagram, kind: DiagramKind) -> DiagramLowering {
        // About one event per statement in a sequence diagram: room for
        // them up front (the other kinds keep their own models).
        let expected_events = if kind == DiagramKind::Sequence {
            diagram.syntax.green().children().len()
        } else {
            0
        };
        DiagramLowering {
            diagram: Diagram {
                name: diagram.name(),
                events: Events::with_capacity(expected_events),
                ..Diagram::default()
            },
            map: DiagramSourceMap {
                range: diagram.syntax.text_range(),
                events: Vec::with_capacity(expected_events),
                ..DiagramSourceMap::default()
            },
            diagnostics: Vec::new(),
            by_code: FxHashMap::default(),
            arrows: Vec::new(),
            groups: Vec::new(),
            open_box: None,
            box_stack: Vec::new(),
            active: Vec::new(),
            activation_order: Vec::new(),
            calls: Vec::new(),
            autoactivate: false,
            autonumber: AutoNumber {
                step: 1,
                ..AutoNumber::default()
            },
            number_text: String::new(),
            pending_creates: Vec::new(),
            pending_create_line: None,
            lifeline_started: false,
            last_message: None,
            statement_start: TextSize::from(0),
            past_first_page: false,
            first_use_line_start: Vec::new(),
            sequence: Vec::new(),
            next_sequence: 0,
            activity: (kind == DiagramKind::Activity).then(crate::lower_activity::ActivityLowering::default),
            class: (kind == DiagramKind::Class).then(crate::lower_class::ClassLowering::default),
            description: (kind == DiagramKind::Description)
                .then(crate::lower_description::DescriptionLowering::default),
            state: (kind == DiagramKind::State).then(crate::lower_state::StateLowering::default),
            legacy: (kind == DiagramKind::LegacyActivity).then(crate::lower_legacy_activity::LegacyLowering::default),
        }
    }

    fn push_event(&mut self, event: Event, range: TextRange) {
        self.diagram.events.push(event);
        self.map.events.push(range);
    }

    fn run(&mut self, diagram: &ast::Diagram) {
        // The statements' green data, not cursors: a cursor per statement
        // was an allocation and a free for each (1.5 % of analysing the
        // corpus); the few statements that still read a cursor get theirs
        // on demand (`statement_node`).
        let green = diagram.syntax.green();
        let whole = GreenStatement {
            green: &green,
            start: diagram.syntax.text_range().start(),
        };
        if let Some(state) = &mut self.state {
            state.number_declarations(&diagram.syntax);
        }
        // One token buffer for every statement: a vector per statement was
        // an allocation and a free for each.
        let mut tokens = Vec::with_capacity(64);
        for child in whole.child_nodes() {
            if !matches!(child.kind(), START_LINE | END_LINE) {
                let range = significant_tokens_and_range(&child, &mut tokens);
                self.statement(&diagram.syntax, child, &tokens, range);
            }
        }
    }

    /// PlantUML rejects unknown color names; it reports a block's colors
    /// at the block's last line, so that is where the error goes.
    fn check_colors(&mut self, green: &GreenStatement, tokens: &[Tok]) {
        if green.kind().is_activity_statement() {
            self.check_activity_colors(green);
            return;
        }
        // A class diagram's colours take more forms (`#back;line:red`,
        // `##[dashed]blue`, `[#red,dashed]`): the class lowering reads them.
        if self.class.is_some() && (green.kind().is_class_statement() || green.kind() == HIDE_SHOW) {
            return;
        }
        if self.description.is_some() && (green.kind().is_description_statement() || green.kind() == HIDE_SHOW) {
            return;
        }
        if self.state.is_some() && green.kind().is_state_statement() {
            return;
        }
        // PlantUML's legacy grammar takes a colour word as written (an
        // unknown one is drawn black, never refused).
        if self.legacy.is_some() && green.kind().is_legacy_activity_statement() {
            return;
        }
        // A byte search: asked of every message's arrow, two or three bytes
        // long, where `str::contains`'s searcher costs several times it.
        let colored =
            |kind: SyntaxKind, text: &str| kind == COLOR || (kind == ARROW && text.as_bytes().contains(&b'#'));
        let any_color =
            tokens.iter().any(|t| colored(t.kind, t.text)) || (green.has_child_nodes() && green.any_token(colored));
        if !any_color {
            return;
        }
        let block_end = green.child(BLOCK_END).map(|n| n.range());
        // The tokens below the statement, blanks included, matter only where
        // a colour can be refused as a gradient (the token before it
        // decides); elsewhere a statement without child nodes has all its
        // colours among `tokens`, and the walk that copies every token was
        // most of checking a coloured line.
        let walked;
        let below: &[Tok] = if matches!(green.kind(), ACTIVATE | MESSAGE | GROUP_START) || green.has_child_nodes() {
            walked = green.descendant_tokens();
            &walked
        } else {
            tokens
        };
        for (index, &token) in below.iter().enumerate().filter(|(_, t)| t.kind == COLOR) {
            if let Some(first) = refused_gradient(green.kind(), below, index) {
                let range = token.range;
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::UNKNOWN_COLOR,
                        range,
                        format!("PlantUML takes one color here, not the gradient `{}`", token.text),
                    )
                    .with_fix(
                        format!("Use `{first}`"),
                        vec![TextEdit::replace(range, first.to_string())],
                    ),
                );
                continue;
            }
            if crate::colors::is_valid_color(token.text) {
                continue;
            }
            let color_range = token.range;
            let mut diagnostic = Diagnostic::error(
                codes::UNKNOWN_COLOR,
                block_end.unwrap_or(color_range),
                format!(
                    "`{}` is not a color PlantUML knows (use a name like `#LightBlue` or a hex value like `#A0C4FF`)",
                    token.text
                ),
            );
            if block_end.is_some() {
                diagnostic = diagnostic.with_related(color_range, "the color is set here");
            }
            if let Some(closest) = crate::colors::closest_color(token.text) {
                diagnostic = diagnostic.with_fix(
                    format!("Use `#{closest}`"),
                    vec![TextEdit::replace(color_range, format!("#{closest}"))],
                );
            }
            self.diagnostics.push(diagnostic);
        }
        // Arrow styles carry colors inside the arrow token.
        for token in tokens.iter().filter(|t| t.kind == ARROW) {
            if let Some(arrow) = puml_syntax::parse_arrow(token.text) {
                for style in arrow.styles.iter().filter(|s| s.starts_with('#')) {
                    if !crate::colors::is_valid_color(style) {
                        // The closest known color, or else no color at all.
                        let closest = crate::colors::closest_color(style);
                        let replacement = closest.as_ref().map(|c| format!("#{c}")).unwrap_or_default();
                        let repaired = token
                            .text
                            .replacen(style.as_str(), &replacement, 1)
                            .replace("[,", "[")
                            .replace(",]", "]")
                            .replace("[]", "");
                        let title = match &closest {
                            Some(c) => format!("Use `#{c}`"),
                            None => "Remove the unknown color".to_string(),
                        };
                        self.diagnostics.push(
                            Diagnostic::error(
                                codes::UNKNOWN_COLOR,
                                token.range,
                                format!("`{style}` is not a color PlantUML knows"),
                            )
                            .with_fix(title, vec![TextEdit::replace(token.range, repaired)]),
                        );
                    }
                }
            }
        }
    }

    /// `!theme NAME [from …]` as PlantUML loads it: a name it does not
    /// ship is an error; a shipped theme puml does not draw, or one read
    /// from elsewhere, a warning (the diagram gets puml's default look).
    fn check_theme(&mut self, node: &SyntaxNode, text: &str, name: &str) {
        let Some(token) = ast::tokens_of(node, TEXT).next() else {
            return;
        };
        let name_range = TextRange::at(token.text_range().start(), TextSize::of(name));
        let from_elsewhere = text
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| w.eq_ignore_ascii_case("from"));
        if from_elsewhere {
            self.diagnostics.push(Diagnostic::warning(
                codes::THEME_NOT_DRAWN,
                node.text_range(),
                format!("puml does not read themes from files or URLs: `{name}` is not applied, the diagram is drawn with puml's default look"),
            ));
            return;
        }
        // puml draws every theme PlantUML ships (the sketchy ones with straight lines).
        if crate::themes::PLANTUML_THEMES.contains(&name) {
            return;
        }
        let line = full_line_range(node);
        let mut diagnostic = Diagnostic::error(
            codes::UNKNOWN_THEME,
            name_range,
            format!("PlantUML has no theme `{name}` (\"Cannot load theme\"); its themes include `plain`, `cerulean`, `mars`, `sketchy-outline`, … (all 44 in docs/diagnostics.md, E0230)"),
        );
        match crate::themes::closest_theme(name) {
            Some(closest) => {
                diagnostic = diagnostic
                    .with_fix(format!("Use `{closest}`"), vec![TextEdit::replace(name_range, closest)])
                    .with_suggestion("Remove the `!theme` line", vec![TextEdit::delete(line)]);
            }
            None => {
                diagnostic = diagnostic.with_fix("Remove the `!theme` line", vec![TextEdit::delete(line)]);
            }
        }
        self.diagnostics.push(diagnostic);
    }

    /// Reports what PlantUML silently ignores in a `<style>` block: unknown
    /// selectors and properties (with the closest known name as a fix) and
    /// blocks never closed.
    fn check_style(&mut self, node: &SyntaxNode, text: &str) {
        let base = node.text_range().start();
        let (_, issues) = crate::style::parse_sheet(text);
        for issue in issues {
            let (Ok(start), Ok(end)) = (u32::try_from(issue.range.start), u32::try_from(issue.range.end)) else {
                continue;
            };
            let range = TextRange::new(base + TextSize::from(start), base + TextSize::from(end));
            let code = match issue.kind {
                crate::style::StyleIssueKind::UnknownSelector => codes::UNKNOWN_STYLE_SELECTOR,
                crate::style::StyleIssueKind::UnknownProperty => codes::UNKNOWN_STYLE_PROPERTY,
                crate::style::StyleIssueKind::Unclosed => codes::UNCLOSED_STYLE_BLOCK,
            };
            let mut diagnostic = Diagnostic::warning(code, range, issue.message);
            if let Some(closest) = issue.closest {
                diagnostic = diagnostic.with_fix(format!("Use `{closest}`"), vec![TextEdit::replace(range, closest)]);
            }
            self.diagnostics.push(diagnostic);
        }
    }

    /// Colours of activity statements, where PlantUML checks them: a
    /// swimlane's, a note's (on its header line), `<<#color>>` after an
    /// action, an arrow's styles (`,` or `;` between them). The deprecated
    /// `#color:` before an action is not checked (PlantUML does not).
    fn check_activity_colors(&mut self, green: &GreenStatement) {
        let mut found: Vec<(String, TextRange, bool)> = Vec::new();
        let kind = green.kind();
        for token in green.descendant_tokens() {
            match token.kind {
                COLOR if kind != ACTION && kind != CONNECTOR => found.push((token.text.to_string(), token.range, true)),
                STEREOTYPE if kind == ACTION => {
                    let body = token.text.trim_start_matches("<<").trim_end_matches(">>").trim();
                    if body.starts_with('#') {
                        found.push((body.to_string(), token.range, false));
                    }
                }
                ARROW => {
                    let text = token.text;
                    if let (Some(open), Some(close)) = (text.find('['), text.rfind(']')) {
                        if open < close {
                            for part in text[open + 1..close].split([',', ';']) {
                                if part.trim().starts_with('#') {
                                    found.push((part.trim().to_string(), token.range, false));
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        // PlantUML reports a block note's colour at its last line.
        let block_end = green.child(BLOCK_END).map(|n| n.range());
        for (color, range, whole_token) in found {
            if crate::colors::is_valid_color(&color) {
                continue;
            }
            let mut diagnostic = Diagnostic::error(
                codes::UNKNOWN_COLOR,
                block_end.unwrap_or(range),
                format!("`{color}` is not a color PlantUML knows (use a name like `#LightBlue` or a hex value like `#A0C4FF`)"),
            );
            if let Some(closest) = crate::colors::closest_color(&color) {
                let edit = if whole_token {
                    TextEdit::replace(range, format!("#{closest}"))
                } else {
                    let text = green
                        .text()
                        .get(usize::from(range.start() - green.start)..usize::from(range.end() - green.start))
                        .unwrap_or_default()
                        .replacen(&color, &format!("#{closest}"), 1);
                    TextEdit::replace(range, text)
                };
                diagnostic = diagnostic.with_fix(format!("Use `#{closest}`"), vec![edit]);
            }
            self.diagnostics.push(diagnostic);
        }
    }

    fn statement(&mut self, diagram: &SyntaxNode, green: GreenStatement, tokens: &[Tok], range: TextRange) {
        let node = || statement_node(diagram, &green);
        self.statement_start = green.start;
        self.check_colors(&green, tokens);
        if self.class.is_some() || self.description.is_some() {
            if self.past_first_page {
                return;
            }
            if green.kind() == NEWPAGE {
                self.past_first_page = true;
                self.diagnostics.push(
                    Diagnostic::warning(
                        codes::LATER_PAGES_NOT_DRAWN,
                        range,
                        "PlantUML draws only the first page of a class or description diagram: nothing after this `newpage` is drawn (split the pages into `@startuml` blocks of their own to draw them)",
                    )
                    .with_suggestion(
                        "Draw the rest as a diagram of its own",
                        vec![TextEdit::replace(range, "@enduml\n@startuml".to_string())],
                    ),
                );
                return;
            }
        }
        if let Some(class) = &mut self.class {
            if green.kind().is_class_statement() || matches!(green.kind(), HIDE_SHOW | NEWPAGE) {
                class.statement(green, tokens, range, &node);
                return;
            }
        }
        if let Some(description) = &mut self.description {
            if green.kind().is_description_statement() || matches!(green.kind(), HIDE_SHOW | NEWPAGE) {
                description.statement(green, tokens, range, &node);
                return;
            }
        }
        if let Some(state) = &mut self.state {
            if green.kind().is_state_statement() || matches!(green.kind(), HIDE_SHOW | BRACE_END) {
                state.statement(&node());
                return;
            }
        }
        if let Some(legacy) = &mut self.legacy {
            if green.kind().is_legacy_activity_statement() || green.kind() == BRACE_END {
                legacy.statement(&node());
                return;
            }
        }
        match green.kind() {
            PARTICIPANT => self.participant_declaration(&green, tokens, range, false),
            CREATE => self.participant_declaration(&green, tokens, range, true),
            MESSAGE => self.message(&green, tokens, range),
            RETURN => self.return_(&green, range),
            ACTIVATE | DEACTIVATE | DESTROY => self.lifecycle(&green, tokens, range),
            AUTOACTIVATE => {
                let text = text_after_keyword(&green).to_ascii_lowercase();
                self.autoactivate = text.trim() != "off";
            }
            NOTE => self.note(&green, tokens, range),
            REF => self.reference(&green, tokens, range),
            GROUP_START => self.group_start(&green, tokens, range),
            ELSE => self.else_(&green, tokens, range),
            END => self.end(&green, range),
            BOX_START => self.box_start(&node(), range),
            BOX_END => self.box_end(&green, range),
            DIVIDER => {
                // PlantUML takes what lies between the first two and the
                // last two `=`: further `=`s belong to the text (`=== x ==`
                // is the heading `= x`).
                let written = green.text();
                let inner = written
                    .trim()
                    .strip_prefix("==")
                    .and_then(|rest| rest.strip_suffix("=="))
                    .map(str::to_string);
                let (text, spaced) = match inner {
                    Some(inner) => (inner.trim().to_string(), inner.ends_with([' ', '\t'])),
                    None => (token_text(&green, TEXT).unwrap_or_default(), false),
                };
                self.push_event(Event::Divider { text, spaced }, range);
            }
            DELAY => {
                let text = token_text(&green, TEXT).filter(|t| !t.is_empty());
                self.push_event(Event::Delay { text }, range);
            }
            SPACE => {
                let pixels = token_text(&green, NUMBER).and_then(|n| n.parse().ok());
                self.push_event(Event::Space { pixels }, range);
            }
            NEWPAGE => {
                let title = token_text(&green, TEXT).filter(|t| !t.is_empty());
                self.push_event(Event::NewPage { title }, range);
            }
            AUTONUMBER => self.autonumber(&green, range),
            TITLE => self.diagram.title = Some(unquoted(block_or_line_text(&green))),
            CAPTION => self.diagram.caption = Some(unquoted(block_or_line_text(&green))),
            MAINFRAME => self.diagram.mainframe = Some(block_or_line_text(&green)),
            HEADER | FOOTER => {
                let align = tokens.iter().find_map(|t| HorizontalAlign::from_keyword(t.text));
                let decoration = Decoration {
                    text: unquoted(block_or_line_text(&green)),
                    align,
                };
                if green.kind() == HEADER {
                    self.diagram.header = Some(decoration);
                } else {
                    self.diagram.footer = Some(decoration);
                }
            }
            LEGEND => self.legend(&green, tokens),
            HIDE_SHOW => {
                let keyword = leading_keyword(tokens);
                let what = text_after_keyword(&green).to_ascii_lowercase();
                let value = keyword == "hide";
                match what.trim() {
                    "footbox" => self.diagram.settings.hide_footbox = value,
                    "unlinked" => self.diagram.settings.hide_unlinked = value,
                    _ => {}
                }
            }
            SKINPARAM => self.skinparam(&green, tokens),
            STYLE => {
                // Runs of whitespace mean nothing inside a style block;
                // without them the model does not change when the block is
                // re-indented or re-spaced.
                let text = green.text();
                let lines: Vec<String> = text
                    .lines()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                    .collect();
                self.diagram.settings.styles.push(StyleBlock {
                    text: lines.join("\n").trim().to_string(),
                    after_skinparams: self.diagram.settings.skinparams.len(),
                });
                self.check_style(&node(), &text);
            }
            THEME => {
                let text = text_after_keyword(&green);
                let name = text.split_whitespace().next().unwrap_or("").to_string();
                if !name.is_empty() {
                    self.check_theme(&node(), &text, &name);
                    self.diagram.settings.theme = Some(name);
                }
            }
            PRAGMA => {
                let text = text_after_keyword(&green);
                let mut words = text.split_whitespace();
                let key = words.next().unwrap_or("").to_ascii_lowercase();
                let value = words.collect::<Vec<_>>().join(" ");
                if key == "teoz" {
                    self.diagram.settings.teoz = value.trim().eq_ignore_ascii_case("true");
                } else if !key.is_empty() {
                    self.diagram.settings.pragmas.push((key, value));
                }
            }
            // A Mermaid `rect` (reported by the parser) still opens a
            // group for the `end` that closes it: one mistake, one error.
            // Likewise an activity `if (…) then` and a misspelt group
            // keyword (`atl`), whose fixes turn them into groups.
            kind if kind.is_activity_statement() => {
                if let Some(activity) = &mut self.activity {
                    activity.statement(&node());
                }
            }
            ERROR_STATEMENT if self.activity.is_none() && opens_group_when_repaired(&node()) => {
                self.groups.push(OpenGroup {
                    range,
                    stray_else: None,
                });
                self.push_event(
                    Event::GroupStart(Group {
                        kind: GroupKind::Group,
                        label: None,
                        secondary: None,
                        label_trailing_blanks: 0,
                        frame_color: None,
                        color: None,
                    }),
                    range,
                );
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------ participants

    /// The participant `token` names, made (as `kind_if_new`) when it is
    /// new. Inlined for the usual case, a participant met before; the rest
    /// is out of line (its frame cost a fifth of resolving a known name).
    #[inline]
    fn resolve(&mut self, token: Tok, kind_if_new: ParticipantKind) -> ParticipantId {
        if let Some(&id) = self.by_code.get(participant_name(&token)) {
            self.map.participant_uses[id.index()].push(token.range);
            return id;
        }
        self.resolve_unknown(token, kind_if_new)
    }

    /// [`DiagramLowering::resolve`] for a name not among the codes.
    #[inline(never)]
    fn resolve_unknown(&mut self, token: Tok, kind_if_new: ParticipantKind) -> ParticipantId {
        let range = token.range;
        let code = token.name();
        // A quoted display name used instead of the alias resolves to the
        // participant it names.
        if let Some(id) = self
            .diagram
            .participants
            .iter()
            .position(|p| p.alias.is_some() && p.name == code)
        {
            let id = ParticipantId(id as u32);
            self.map.participant_uses[id.index()].push(range);
            return id;
        }
        self.new_participant(
            Participant {
                kind: kind_if_new,
                code: code.clone(),
                name: code.clone(),
                alias: None,
                display: code,
                order: None,
                stereotype: None,
                color: None,
                url: None,
                declared: false,
                in_box: self.open_box.map(|(b, _)| b),
                created: false,
                destroyed: false,
            },
            range,
        )
    }

    fn new_participant(&mut self, participant: Participant, range: TextRange) -> ParticipantId {
        if self.diagram.participants.is_empty() {
            // Room for the handful of participants most diagrams have, in
            // each list kept per participant (grown one by one, each list
            // was reallocated two or three times).
            const EXPECTED: usize = 8;
            self.by_code.reserve(EXPECTED);
            self.diagram.participants.reserve(EXPECTED);
            self.map.participants.reserve(EXPECTED);
            self.map.participant_uses.reserve(EXPECTED);
            self.first_use_line_start.reserve(EXPECTED);
            self.sequence.reserve(EXPECTED);
            self.active.reserve(EXPECTED);
        }
        let id = ParticipantId(self.diagram.participants.len() as u32);
        self.by_code.insert(participant.code.clone(), id);
        if let Some(b) = participant.in_box {
            self.diagram.boxes[b].participants.push(id);
        }
        self.diagram.participants.push(participant);
        self.map.participants.push(range);
        // Room for the uses most participants have (growing from one
        // use, a vector per participant was copied a few times).
        let mut uses = Vec::with_capacity(8);
        uses.push(range);
        self.map.participant_uses.push(uses);
        self.first_use_line_start.push(self.statement_start);
        self.sequence.push(self.next_sequence);
        self.next_sequence += 1;
        self.active.push(0);
        id
    }

    fn participant_declaration(&mut self, green: &GreenStatement, tokens: &[Tok], decl_range: TextRange, create: bool) {
        let mut kind = ParticipantKind::Participant;
        let mut names: Vec<Tok> = Vec::new();
        let mut stereotypes: Vec<String> = Vec::new();
        let mut color = None;
        let mut url = None;
        let mut order = None;
        let mut after_as = false;
        let mut expect_order = false;
        for token in tokens {
            match token.kind {
                KEYWORD => {
                    let word = token.text;
                    if let Some(k) = ParticipantKind::from_keyword(word) {
                        kind = k;
                    } else if word.eq_ignore_ascii_case("as") {
                        after_as = true;
                    } else if word.eq_ignore_ascii_case("order") {
                        expect_order = true;
                    }
                }
                IDENT | STRING => names.push(*token),
                NUMBER if expect_order => order = token.text.parse().ok(),
                STEREOTYPE => stereotypes.push(token.text.to_string()),
                COLOR => color = Some(token.text.to_string()),
                URL => url = Some(token.text.trim_start_matches("[[").trim_end_matches("]]").to_string()),
                _ => {}
            }
        }
        let _ = after_as;
        let multi = green.child(MULTILINE_NAME);
        let multiline_display = multi
            .as_ref()
            .and_then(GreenStatement::body_lines)
            .map(|lines| lines.join("\n"));
        // Options after the closing `]` (`] as X #color`).
        for token in multi.iter().flat_map(|multi| multi.tokens()) {
            match token.kind {
                IDENT | STRING => names.push(token),
                STEREOTYPE => stereotypes.push(token.text.to_string()),
                COLOR => color = Some(token.text.to_string()),
                _ => {}
            }
        }
        let Some(first) = names.first().copied() else {
            return;
        };
        let second = names.get(1).copied();
        let quoted = |t: &Tok| t.kind == STRING;
        let first_name = participant_name(&first).to_string();
        let (code, display, alias) = match &second {
            None => (first_name.clone(), first_name.clone(), None),
            Some(second) => {
                let second_name = participant_name(second).to_string();
                if quoted(&first) || !quoted(second) {
                    // `participant "Long" as L`, `participant A as B`.
                    (second_name.clone(), first_name.clone(), Some(second_name))
                } else {
                    // `participant L as "Long"`.
                    (first_name.clone(), second_name.clone(), Some(second_name))
                }
            }
        };
        let name = first_name;
        let code_token = match &second {
            Some(second) if quoted(&first) || !quoted(second) => *second,
            _ => first,
        };
        let multiline = multiline_display.is_some();
        let display = multiline_display.unwrap_or(display);
        let stereotype = parse_stereotypes(&stereotypes);
        if let Some(&id) = self.by_code.get(&code) {
            // PlantUML keeps an existing participant's kind, name and color
            // when it is declared again; the declaration only moves it to
            // the end of the order, into the open `box` or out of its box
            // (declaring participants again inside a box is a common idiom).
            let bare = second.is_none()
                && kind == ParticipantKind::Participant
                && !multiline
                && stereotype.is_none()
                && color.is_none()
                && url.is_none()
                && order.is_none();
            let existing = &mut self.diagram.participants[id.index()];
            let was_declared = existing.declared;
            existing.declared = true;
            existing.created |= create;
            let old_box = existing.in_box;
            // `create A` of a participant declared in a box leaves it there
            // (PlantUML draws its head inside the box, probe `create_in_box`).
            let new_box = if create && was_declared {
                old_box
            } else {
                self.open_box.map(|(b, _)| b)
            };
            existing.in_box = new_box;
            let box_changed = old_box != new_box;
            if let Some(old) = old_box.filter(|_| box_changed) {
                self.diagram.boxes[old].participants.retain(|&p| p != id);
            }
            if let Some(new) = new_box.filter(|_| box_changed) {
                self.diagram.boxes[new].participants.push(id);
            }
            // `create A` of a known participant leaves it where it is in the
            // order (PlantUML draws its head in its column, probes); a
            // declaration moves it to the end.
            if !create {
                self.sequence[id.index()] = self.next_sequence;
                self.next_sequence += 1;
            }
            self.map.participant_uses[id.index()].push(code_token.range);
            if create {
                // `create A` of an existing participant still needs its
                // message next; a full re-declaration (`create participant
                // A`) does not (PlantUML's verdicts).
                self.pending_creates.push(id);
                let kind_written = tokens
                    .iter()
                    .any(|t| t.kind == KEYWORD && ParticipantKind::from_keyword(t.text).is_some());
                if !kind_written {
                    self.pending_create_line = Some(decl_range);
                }
                return;
            }
            if bare && (box_changed || !was_declared) {
                return;
            }
            let first_range = self.map.participants[id.index()];
            let line = green.full_range();
            let (diagnostic_code, message, related, fix_title, fix) = if was_declared {
                (
                    codes::DUPLICATE_PARTICIPANT,
                    format!(
                        "participant `{code}` is declared twice; PlantUML keeps the first declaration's kind, name and color, and only moves `{code}` here in the order"
                    ),
                    "first declared here",
                    "Remove this declaration",
                    vec![TextEdit::delete(line)],
                )
            } else {
                let first_line_start = self.first_use_line_start[id.index()];
                (
                    codes::DECLARED_AFTER_USE,
                    format!(
                        "`{code}` is declared after its first use; PlantUML ignores this declaration's kind, name and color, and only moves `{code}` here in the order"
                    ),
                    "first used here",
                    "Move the declaration above the first use",
                    vec![
                        TextEdit::insert(first_line_start, line_text_with_newline(green)),
                        TextEdit::delete(line),
                    ],
                )
            };
            let mut diagnostic =
                Diagnostic::warning(diagnostic_code, decl_range, message).with_related(first_range, related);
            // Removing or moving the line would also undo the box change it made.
            if !box_changed {
                diagnostic = diagnostic.with_suggestion(fix_title, fix);
            }
            self.diagnostics.push(diagnostic);
            return;
        }
        let id = self.new_participant(
            Participant {
                kind,
                code,
                name,
                alias,
                display,
                order,
                stereotype,
                color,
                url,
                declared: true,
                in_box: self.open_box.map(|(b, _)| b),
                created: create,
                destroyed: false,
            },
            decl_range,
        );
        // Its first use is the name, not the whole declaration
        // `new_participant` just recorded.
        if let Some(first_use) = self.map.participant_uses[id.index()].first_mut() {
            *first_use = code_token.range;
        }
        if create {
            self.pending_creates.push(id);
            self.pending_create_line = Some(decl_range);
        }
    }

    // ------------------------------------------------------------ messages

    fn endpoint(&mut self, token: Option<Tok>, side: Side) -> Option<Endpoint> {
        let token = token?;
        Some(match token.kind {
            L_BRACKET | R_BRACKET => Endpoint::Edge { side, short: false },
            QUESTION => Endpoint::Edge { side, short: true },
            IDENT | STRING => Endpoint::Participant {
                id: self.resolve(token, ParticipantKind::Participant),
            },
            _ => return None,
        })
    }

    /// teoz `{start} <-> {end} : label` (anchors on both sides, no
    /// participant): a duration event. Returns whether the line was one.
    fn duration(&mut self, tokens: &[Tok], arrow_index: usize, range: TextRange) -> bool {
        let anchor_name = |t: &Tok| t.text.trim_start_matches('{').trim_end_matches('}').trim().to_string();
        let before = &tokens[..arrow_index];
        if before
            .iter()
            .any(|t| matches!(t.kind, IDENT | STRING | L_BRACKET | QUESTION))
        {
            return false;
        }
        let Some(from_anchor) = before.iter().find(|t| t.kind == ANCHOR).map(anchor_name) else {
            return false;
        };
        let after = &tokens[arrow_index + 1..];
        let Some(to_anchor) = after
            .iter()
            .take_while(|t| t.kind != COLON)
            .find(|t| t.kind == ANCHOR)
            .map(anchor_name)
        else {
            return false;
        };
        let label = after
            .iter()
            .position(|t| t.kind == COLON)
            .and_then(|i| after.get(i + 1))
            .filter(|t| t.kind == TEXT)
            .map(|t| t.text.to_string())
            .unwrap_or_default();
        self.push_event(
            Event::Duration {
                from_anchor,
                to_anchor,
                label,
            },
            range,
        );
        true
    }

    fn message(&mut self, green: &GreenStatement, tokens: &[Tok], range: TextRange) {
        let Some(arrow_index) = tokens.iter().position(|t| t.kind == ARROW) else {
            return;
        };
        if let Some(resume) = self.autonumber.resume_without_start.take() {
            self.resume_without_start(resume, Some(range));
        }
        if self.duration(tokens, arrow_index, range) {
            return;
        }
        let parallel = tokens.iter().take(arrow_index).any(|t| t.kind == AMP);
        let anchor = tokens
            .iter()
            .take(arrow_index)
            .find(|t| t.kind == ANCHOR)
            .map(|t| t.text.trim_start_matches('{').trim_end_matches('}').to_string());
        let left = tokens[..arrow_index]
            .iter()
            .find(|t| matches!(t.kind, IDENT | STRING | L_BRACKET | QUESTION))
            .copied();
        let after = &tokens[arrow_index + 1..];
        let right_end = after
            .iter()
            .position(|t| matches!(t.kind, COLON | LIFECYCLE))
            .unwrap_or(after.len());
        let mut right_names = after[..right_end]
            .iter()
            .filter(|t| matches!(t.kind, IDENT | STRING | R_BRACKET | QUESTION))
            .copied();
        let mut right = right_names.next();
        // `A --> "Long name" as L`: the second name is the alias.
        let inline_alias = right_names.next();
        let Some(arrow) = self.arrow(tokens[arrow_index].text) else {
            return;
        };
        let slant = tokens
            .get(arrow_index + 1)
            .filter(|t| t.kind == SLANT)
            .and_then(|t| t.text.trim_start_matches('(').trim_end_matches(')').trim().parse().ok());

        // No sender: a message from outside, as PlantUML draws `-> B`.
        // The sender comes first in the order, before a participant the
        // message declares (`temp --> "Long name" as L`: temp, then L).
        let left_endpoint = self.endpoint(left, Side::Left).or(Some(Endpoint::Edge {
            side: Side::Left,
            short: false,
        }));
        if let (Some(alias), Some(display)) = (inline_alias, right) {
            if !self.by_code.contains_key(alias.name_str()) {
                let code = alias.name();
                let display_text = display.name();
                self.new_participant(
                    Participant {
                        kind: ParticipantKind::Participant,
                        code: code.clone(),
                        name: display_text.clone(),
                        alias: Some(code),
                        display: display_text,
                        order: None,
                        stereotype: None,
                        color: None,
                        url: None,
                        declared: false,
                        in_box: self.open_box.map(|(b, _)| b),
                        created: false,
                        destroyed: false,
                    },
                    alias.range,
                );
            }
            right = Some(alias);
        }

        // `A ->` without a receiver runs to the diagram's right edge, like
        // `A ->]` (PlantUML, probes `message_without_target*`).
        let right_endpoint = self.endpoint(right, Side::Right).or(Some(Endpoint::Edge {
            side: Side::Right,
            short: false,
        }));
        let (Some(left_endpoint), Some(right_endpoint)) = (left_endpoint, right_endpoint) else {
            return;
        };
        let mut model_arrow = Arrow {
            tail_head: Head::NONE,
            head: Head::FILLED,
            line: match arrow.line {
                puml_syntax::LineSyntax::Solid => LineStyle::Solid,
                puml_syntax::LineSyntax::Dotted => LineStyle::Dotted,
            },
            color: None,
            bold: false,
            written_reversed: false,
        };
        let left_head = Head {
            shape: head_shape(arrow.left_head),
            circle: arrow.left_circle,
        };
        let right_head = Head {
            shape: head_shape(arrow.right_head),
            circle: arrow.right_circle,
        };
        let (from, to) = if arrow.points_left() {
            model_arrow.head = left_head;
            model_arrow.tail_head = right_head;
            model_arrow.written_reversed = true;
            (right_endpoint, left_endpoint)
        } else {
            model_arrow.head = right_head;
            model_arrow.tail_head = left_head;
            (left_endpoint, right_endpoint)
        };
        for style in &arrow.styles {
            let lower = style.to_ascii_lowercase();
            if style.starts_with('#') {
                model_arrow.color = Some(style.clone());
            } else if lower == "bold" {
                model_arrow.bold = true;
            } else if lower == "dashed" || lower == "dotted" {
                model_arrow.line = LineStyle::Dotted;
            } else if lower == "hidden" {
                model_arrow.line = LineStyle::Hidden;
            } else if lower == "plain" {
                model_arrow.line = LineStyle::Solid;
            }
        }
        // Shared straight from the token's text (a `String` first was a
        // second allocation and copy per message).
        let label: std::sync::Arc<str> = after
            .iter()
            .position(|t| t.kind == COLON)
            .and_then(|i| after.get(i + 1))
            .filter(|t| t.kind == TEXT)
            .map_or("", |t| t.text)
            .into();

        // Lifecycle shorthands, each with an optional color.
        let mut lifecycle: Vec<(String, Option<String>)> = Vec::new();
        for (i, token) in after.iter().enumerate() {
            if token.kind == LIFECYCLE {
                let color = after.get(i + 1).filter(|t| t.kind == COLOR).map(|t| t.text.to_string());
                lifecycle.push((token.text.to_string(), color));
            }
        }
        let to_id = to.participant();
        let from_id = from.participant();
        if let Some(create_line) = self.pending_create_line.take() {
            if !to_id.is_some_and(|target| self.pending_creates.contains(&target)) {
                let created: Vec<String> = self
                    .pending_creates
                    .iter()
                    .map(|id| format!("`{}`", self.diagram.participants[id.index()].code))
                    .collect();
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::CREATE_WITHOUT_MESSAGE,
                        range,
                        format!(
                            "after `create`, the next message must go to {} (PlantUML: \"After create command, you have to send a message\")",
                            created.join(" or ")
                        ),
                    )
                    .with_related(create_line, "the `create` line"),
                );
                self.pending_creates.clear();
            }
        }
        self.lifeline_started = true;
        if let Some(target) = to_id {
            if lifecycle.iter().any(|(l, _)| l == "**") {
                self.diagram.participants[target.index()].created = true;
                self.push_event(Event::Create { participant: target }, range);
            } else if let Some(pos) = self.pending_creates.iter().position(|&p| p == target) {
                self.pending_creates.remove(pos);
                self.push_event(Event::Create { participant: target }, range);
            }
        }
        let number = self.next_number();
        let is_reply = model_arrow.line == LineStyle::Dotted;
        // A lost message (`->x`) reaches nobody: `autoactivate` opens no
        // bar on its target (PlantUML 1.2026.8, self and other targets).
        let is_lost = model_arrow.head.shape == HeadShape::Cross;
        self.push_event(
            Event::Message(Message {
                from: from.clone(),
                to: to.clone(),
                arrow: model_arrow,
                label,
                number,
                slant,
                parallel,
                anchor,
                is_return: false,
            }),
            range,
        );
        self.last_message = Some(self.diagram.events.len() - 1);
        let mut activated_target = false;
        for (shorthand, color) in &lifecycle {
            match shorthand.as_str() {
                "++" => {
                    if let Some(target) = to_id {
                        self.activate(target, color.clone(), range);
                        self.calls.push((from.clone(), target));
                        activated_target = true;
                    }
                }
                "--" => {
                    if let Some(source) = from_id {
                        self.deactivate(source, range, green);
                    }
                }
                "!!" => {
                    if let Some(target) = to_id {
                        self.destroy(target, range);
                    }
                }
                _ => {}
            }
        }
        if self.autoactivate && lifecycle.is_empty() {
            if is_reply {
                if let Some(source) = from_id {
                    if self.active.get(source.index()).copied().unwrap_or(0) > 0 {
                        self.deactivate(source, range, green);
                    }
                }
            } else if let Some(target) = to_id {
                if !activated_target && !is_lost {
                    self.activate(target, None, range);
                    self.calls.push((from, target));
                }
            }
        }
    }

    /// `puml_syntax::parse_arrow(text)`, remembered for the arrows without
    /// styles (a copy of those allocates nothing).
    fn arrow(&mut self, text: &str) -> Option<puml_syntax::ArrowSyntax> {
        const REMEMBERED: usize = 16;
        if let Some((_, arrow)) = self.arrows.iter().find(|(written, _)| written == text) {
            return Some(arrow.clone());
        }
        let arrow = puml_syntax::parse_arrow(text)?;
        if arrow.styles.is_empty() && self.arrows.len() < REMEMBERED {
            self.arrows.push((text.to_string(), arrow.clone()));
        }
        Some(arrow)
    }

    /// The next message's number, shared as the model keeps it. Without a
    /// format it is written into a buffer kept from one message to the next
    /// and copied once into its `Arc` (a `String` first was a second
    /// allocation and copy per numbered message).
    fn next_number(&mut self) -> Option<std::sync::Arc<str>> {
        if !self.autonumber.enabled {
            return None;
        }
        let numbers = &self.autonumber.current;
        let formatted: std::sync::Arc<str> = match &self.autonumber.format {
            Some(format) => {
                apply_number_format(format, numbers, &mut self.number_text);
                self.number_text.as_str().into()
            }
            None => {
                let text = &mut self.number_text;
                text.clear();
                for (i, &n) in numbers.iter().enumerate() {
                    if i > 0 {
                        text.push('.');
                    }
                    push_decimal(text, n);
                }
                text.as_str().into()
            }
        };
        if let Some(last) = self.autonumber.current.last_mut() {
            *last = last.saturating_add(self.autonumber.step);
        }
        Some(formatted)
    }

    fn autonumber(&mut self, green: &GreenStatement, range: TextRange) {
        let text = text_after_keyword(green);
        if let Some(problem) = autonumber_problem(&text, self.autonumber.started) {
            self.diagnostics.push(
                Diagnostic::error(codes::BAD_AUTONUMBER, range, problem)
                    .with_fix("Comment the line out", vec![TextEdit::insert(range.start(), "' ")]),
            );
            return;
        }
        let mut words = split_args(&text).into_iter().peekable();
        let first = words.peek().cloned().unwrap_or_default().to_ascii_lowercase();
        match first.as_str() {
            "stop" => {
                self.autonumber.enabled = false;
                return;
            }
            "resume" => {
                words.next();
                if !self.autonumber.started {
                    self.autonumber.resume_without_start = Some(range);
                }
                self.autonumber.enabled = true;
                if self.autonumber.current.is_empty() {
                    self.autonumber.current = vec![1];
                }
            }
            "inc" => {
                words.next();
                let level = words.next().unwrap_or_default().to_ascii_lowercase();
                let depth = if level == "a" { 0 } else { 1 };
                if self.autonumber.current.len() > depth {
                    self.autonumber.current[depth] += 1;
                    for later in self.autonumber.current.iter_mut().skip(depth + 1) {
                        *later = 1;
                    }
                }
                return;
            }
            _ => {
                self.autonumber.enabled = true;
                self.autonumber.started = true;
                self.autonumber.current = vec![1];
                self.autonumber.step = 1;
                self.autonumber.format = None;
            }
        }
        let mut numbers_seen = 0;
        for word in words {
            if word.starts_with('"') {
                self.autonumber.format = Some(ast::unquote(&word));
            } else if word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                if numbers_seen == 0 && first != "resume" {
                    self.autonumber.current = word.split('.').filter_map(|n| n.parse().ok()).collect();
                    if self.autonumber.current.is_empty() {
                        self.autonumber.current = vec![1];
                    }
                } else {
                    self.autonumber.step = word.parse().unwrap_or(1);
                }
                numbers_seen += 1;
            } else {
                self.autonumber.format = Some(word);
            }
        }
    }

    fn return_(&mut self, green: &GreenStatement, range: TextRange) {
        let label = token_text(green, TEXT).unwrap_or_default();
        let (from, to, callee) = if let Some((caller, callee)) = self.calls.pop() {
            (Endpoint::Participant { id: callee }, caller, Some(callee))
        } else if let Some(Event::Message(last)) = self.last_message.and_then(|i| self.diagram.events.get(i)) {
            (last.to.clone(), last.from.clone(), None)
        } else {
            // Nothing to answer: keep the line as a comment that says why.
            self.diagnostics.push(
                Diagnostic::error(
                    codes::RETURN_WITHOUT_CALL,
                    range,
                    "`return` has no message to return from: it answers the most recent activating message",
                )
                .with_fix(
                    "Comment the line out",
                    vec![TextEdit::insert(
                        range.start(),
                        "' nothing to return from (commented out by puml --fix): ",
                    )],
                ),
            );
            return;
        };
        let number = self.next_number();
        self.push_event(
            Event::Message(Message {
                from,
                to,
                arrow: Arrow {
                    tail_head: Head::NONE,
                    head: Head::FILLED,
                    line: LineStyle::Dotted,
                    color: None,
                    bold: false,
                    written_reversed: false,
                },
                label: label.into(),
                number,
                slant: None,
                parallel: false,
                anchor: None,
                is_return: true,
            }),
            range,
        );
        if let Some(callee) = callee {
            if self.active.get(callee.index()).copied().unwrap_or(0) > 0 {
                self.deactivate(callee, range, green);
            }
        }
    }

    // ------------------------------------------------------------ activations

    fn activate(&mut self, id: ParticipantId, color: Option<String>, range: TextRange) {
        self.lifeline_started = true;
        self.active[id.index()] += 1;
        self.activation_order.push(id);
        self.push_event(Event::Activate { participant: id, color }, range);
    }

    /// `deactivate`/`destroy` before any message or activation: PlantUML
    /// has nothing to hang them on ("You cannot deactivate here").
    fn refuse_before_first_message(&mut self, what: &str, range: TextRange, green: &GreenStatement) -> bool {
        if self.lifeline_started {
            return false;
        }
        self.diagnostics.push(
            Diagnostic::error(
                codes::LIFELINE_BEFORE_MESSAGE,
                range,
                format!("`{what}` before the first message: PlantUML has nothing to attach it to (\"You cannot deactivate here\")"),
            )
            .with_fix("Remove this line", vec![TextEdit::delete(green.full_range())]),
        );
        true
    }

    fn deactivate(&mut self, id: ParticipantId, range: TextRange, green: &GreenStatement) {
        if self.refuse_before_first_message("deactivate", range, green) {
            return;
        }
        if self.active[id.index()] == 0 {
            let code = self.diagram.participants[id.index()].code.clone();
            let full = green.full_range();
            self.diagnostics.push(
                Diagnostic::warning(
                    codes::DEACTIVATE_INACTIVE,
                    range,
                    format!("`{code}` is not active here, so there is nothing to deactivate"),
                )
                .with_suggestion(
                    "Remove this line",
                    if green.kind() == DEACTIVATE {
                        vec![TextEdit::delete(full)]
                    } else {
                        vec![]
                    },
                ),
            );
            return;
        }
        self.active[id.index()] -= 1;
        if let Some(pos) = self.activation_order.iter().rposition(|&p| p == id) {
            self.activation_order.remove(pos);
        }
        if let Some(pos) = self.calls.iter().rposition(|(_, callee)| *callee == id) {
            self.calls.remove(pos);
        }
        self.push_event(Event::Deactivate { participant: id }, range);
    }

    fn destroy(&mut self, id: ParticipantId, range: TextRange) {
        self.diagram.participants[id.index()].destroyed = true;
        while self.active[id.index()] > 0 {
            self.active[id.index()] -= 1;
            self.push_event(Event::Deactivate { participant: id }, range);
        }
        self.activation_order.retain(|&p| p != id);
        self.push_event(Event::Destroy { participant: id }, range);
    }

    fn lifecycle(&mut self, green: &GreenStatement, tokens: &[Tok], range: TextRange) {
        let name = tokens.iter().find(|t| matches!(t.kind, IDENT | STRING)).copied();
        let color = tokens.iter().find(|t| t.kind == COLOR).map(|t| t.text.to_string());
        match green.kind() {
            ACTIVATE => {
                if let Some(name) = name {
                    let id = self.resolve(name, ParticipantKind::Participant);
                    // `A -> B` then `activate B`: `return` in B answers A.
                    if let Some(Event::Message(last)) = self.last_message.and_then(|i| self.diagram.events.get(i)) {
                        if last.to.participant() == Some(id) {
                            let caller = last.from.clone();
                            self.calls.push((caller, id));
                        }
                    }
                    self.activate(id, color, range);
                }
            }
            DEACTIVATE => match name {
                Some(name) => {
                    let id = self.resolve(name, ParticipantKind::Participant);
                    self.deactivate(id, range, green);
                }
                None => match self.activation_order.last().copied() {
                    Some(id) => self.deactivate(id, range, green),
                    None => self.diagnostics.push(
                        Diagnostic::error(
                            codes::NOTHING_TO_DEACTIVATE,
                            range,
                            "`deactivate` without a name deactivates the last activated participant, but none is active",
                        )
                        .with_fix("Remove this line", vec![TextEdit::delete(green.full_range())]),
                    ),
                },
            },
            _ => {
                if let Some(name) = name {
                    let id = self.resolve(name, ParticipantKind::Participant);
                    if !self.refuse_before_first_message("destroy", range, green) {
                        self.destroy(id, range);
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------ notes, refs

    fn note(&mut self, green: &GreenStatement, tokens: &[Tok], range: TextRange) {
        let shape = match tokens.iter().find(|t| t.kind == KEYWORD).map(|t| t.text) {
            Some(k) if k.eq_ignore_ascii_case("hnote") => NoteShape::Hexagon,
            Some(k) if k.eq_ignore_ascii_case("rnote") => NoteShape::Rectangle,
            _ => NoteShape::Note,
        };
        let aligned = tokens.iter().any(|t| matches!(t.kind, SLASH | AMP));
        let parallel = tokens.iter().any(|t| t.kind == AMP);
        const POSITIONS: [&str; 6] = ["left", "right", "over", "across", "top", "bottom"];
        let position_word = tokens
            .iter()
            .filter(|t| t.kind == KEYWORD)
            .find_map(|t| POSITIONS.into_iter().find(|p| t.text.eq_ignore_ascii_case(p)));
        // The first two participants named are what the note needs (every
        // name is resolved, in order): kept in place, not in two vectors
        // allocated for each note.
        let mut ids: [Option<ParticipantId>; 2] = [None, None];
        let names = tokens
            .iter()
            .take_while(|t| t.kind != COLON)
            .filter(|t| matches!(t.kind, IDENT | STRING));
        for (index, name) in names.enumerate() {
            let code = participant_name(name);
            let known = self.by_code.contains_key(code)
                || self
                    .diagram
                    .participants
                    .iter()
                    .any(|p| p.alias.is_some() && p.name == code);
            if !known {
                self.diagnostics.push(Diagnostic::warning(
                    codes::NOTE_UNKNOWN_PARTICIPANT,
                    name.range,
                    format!("the note names `{code}`, which no message or declaration has introduced; it becomes a new participant"),
                ));
            }
            let id = self.resolve(*name, ParticipantKind::Participant);
            if let Some(slot) = ids.get_mut(index) {
                *slot = Some(id);
            }
        }
        let color = tokens
            .iter()
            .take_while(|t| t.kind != COLON)
            .find(|t| t.kind == COLOR)
            .map(|t| t.text.to_string());
        let position = match position_word {
            Some("left") => NotePosition::Left { of: ids[0] },
            Some("right") => NotePosition::Right { of: ids[0] },
            Some("over") => match ids[0] {
                Some(first) => NotePosition::Over { first, last: ids[1] },
                None => return,
            },
            Some("across") => NotePosition::Across,
            // `note top`/`note bottom` annotate the last message; puml draws
            // them as its other message notes (beside the arrow).
            Some("top") | Some("bottom") => NotePosition::Left { of: None },
            _ => return,
        };
        let text = note_text(green);
        self.push_event(
            Event::Note(Note {
                position,
                shape,
                text,
                color,
                aligned,
                parallel,
            }),
            range,
        );
    }

    fn reference(&mut self, green: &GreenStatement, tokens: &[Tok], range: TextRange) {
        let names: Vec<Tok> = tokens
            .iter()
            .take_while(|t| t.kind != COLON)
            .filter(|t| matches!(t.kind, IDENT | STRING))
            .copied()
            .collect();
        let participants = names
            .iter()
            .map(|n| self.resolve(*n, ParticipantKind::Participant))
            .collect();
        let color = tokens
            .iter()
            .take_while(|t| t.kind != COLON)
            .find(|t| t.kind == COLOR)
            .map(|t| t.text.to_string());
        let text = block_or_line_text(green);
        self.push_event(
            Event::Ref(Reference {
                participants,
                text,
                color,
            }),
            range,
        );
    }

    // ------------------------------------------------------------ groups, boxes

    fn group_start(&mut self, green: &GreenStatement, tokens: &[Tok], range: TextRange) {
        let keyword = tokens.first().map(|t| t.text.to_ascii_lowercase()).unwrap_or_default();
        let kind = if keyword == "par2" {
            GroupKind::Par
        } else {
            GroupKind::from_keyword(&keyword).unwrap_or(GroupKind::Group)
        };
        // `alt#Gold #LightBlue text`: a color glued to the keyword is the
        // frame's, a separate one the background.
        let mut frame_color = None;
        let mut color = None;
        let keyword_end = tokens.first().map(|t| t.range.end());
        for token in tokens.iter().filter(|t| t.kind == COLOR) {
            if Some(token.range.start()) == keyword_end {
                frame_color = Some(token.text.to_string());
            } else {
                color = Some(token.text.to_string());
            }
        }
        let text = token_text(green, TEXT).unwrap_or_default();
        let (label, secondary, label_trailing_blanks) = if kind == GroupKind::Group {
            split_secondary(&text)
        } else {
            (Some(text.clone()).filter(|t| !t.is_empty()), None, 0)
        };
        self.groups.push(OpenGroup {
            range,
            stray_else: None,
        });
        self.push_event(
            Event::GroupStart(Group {
                kind,
                label,
                secondary,
                label_trailing_blanks,
                frame_color,
                color,
            }),
            range,
        );
    }

    fn else_(&mut self, green: &GreenStatement, tokens: &[Tok], range: TextRange) {
        if self.groups.is_empty() {
            self.diagnostics.push(Diagnostic::error(
                codes::ELSE_OUTSIDE_GROUP,
                range,
                "`else` outside a group: it must come between `alt` (or `par`, `critical`…) and its `end`",
            ));
            let keyword = tokens.first().map_or(range, |t| t.range);
            self.groups.push(OpenGroup {
                range,
                stray_else: Some((self.diagnostics.len() - 1, keyword, green.full_range())),
            });
            let label = token_text(green, TEXT).filter(|t| !t.is_empty());
            self.push_event(
                Event::GroupStart(Group {
                    kind: GroupKind::Alt,
                    label,
                    secondary: None,
                    label_trailing_blanks: 0,
                    frame_color: None,
                    color: None,
                }),
                range,
            );
            return;
        }
        let color = tokens.iter().find(|t| t.kind == COLOR).map(|t| t.text.to_string());
        let label = token_text(green, TEXT).filter(|t| !t.is_empty());
        self.push_event(Event::GroupElse { label, color }, range);
    }

    fn end(&mut self, green: &GreenStatement, range: TextRange) {
        let popped = self.groups.pop();
        if let Some(OpenGroup {
            stray_else: Some((index, keyword, _)),
            ..
        }) = popped
        {
            self.diagnostics[index] = self.diagnostics[index].clone().with_fix(
                "Replace `else` with `alt` (this `end` closes it)",
                vec![TextEdit::replace(keyword, "alt")],
            );
        }
        if popped.is_none() {
            let full = green.full_range();
            let words = text_after_keyword(green).to_ascii_lowercase();
            if let Some(block) = ["note", "hnote", "rnote", "ref"]
                .into_iter()
                .find(|b| words.trim() == *b)
            {
                self.diagnostics.push(
                    Diagnostic::error(
                        puml_syntax::codes::STRAY_BLOCK_END,
                        range,
                        format!("`end {block}` with no {block} open (and no group for it to close)"),
                    )
                    .with_fix("Remove this line", vec![TextEdit::delete(full)]),
                );
                return;
            }
            self.diagnostics.push(
                Diagnostic::error(
                    codes::END_WITHOUT_GROUP,
                    range,
                    "`end` with no open group (PlantUML: \"Cannot create group\"); an earlier `end` may have closed the group this one was meant for",
                )
                .with_fix("Remove this `end`", vec![TextEdit::delete(full)]),
            );
            return;
        }
        self.push_event(Event::GroupEnd, range);
    }

    fn box_start(&mut self, node: &SyntaxNode, range: TextRange) {
        let tokens = significant_tokens(node);
        let title_token = tokens.iter().find(|t| matches!(t.kind(), STRING | TEXT));
        let color = tokens.iter().find(|t| t.kind() == COLOR).map(|t| t.text().to_string());
        let title = title_token.map(|t| match (t.kind(), color.is_some()) {
            // PlantUML keeps the blanks between an unquoted title and its
            // colour (`box Model #pink`): they count in the title's width.
            (TEXT, true) => unquoted_title_with_blanks(t),
            _ => ast::unquote(t.text()),
        });
        // Nested boxes are accepted (teoz draws them); a participant belongs
        // to the innermost open box.
        let parent = self.box_stack.last().map(|&(b, _)| b);
        self.diagram.boxes.push(ParticipantBox {
            title,
            color,
            participants: Vec::new(),
            parent,
        });
        self.box_stack.push((self.diagram.boxes.len() - 1, range));
        self.open_box = self.box_stack.last().copied();
    }

    fn box_end(&mut self, green: &GreenStatement, range: TextRange) {
        self.open_box = None;
        if self.box_stack.pop().is_none() {
            self.diagnostics.push(
                Diagnostic::error(
                    codes::END_BOX_WITHOUT_BOX,
                    range,
                    "`end box` without a `box` before it (PlantUML: \"Missing starting box\")",
                )
                .with_fix("Remove this `end box`", vec![TextEdit::delete(green.full_range())]),
            );
        }
        self.open_box = self.box_stack.last().copied();
    }

    // ------------------------------------------------------------ settings

    fn legend(&mut self, green: &GreenStatement, tokens: &[Tok]) {
        let mut vertical = None;
        let mut horizontal = None;
        for token in tokens.iter().filter(|t| t.kind == KEYWORD) {
            match token.text.to_ascii_lowercase().as_str() {
                "top" => vertical = Some(VerticalAlign::Top),
                "bottom" => vertical = Some(VerticalAlign::Bottom),
                "left" => horizontal = Some(HorizontalAlign::Left),
                "right" => horizontal = Some(HorizontalAlign::Right),
                "center" => horizontal = Some(HorizontalAlign::Center),
                _ => {}
            }
        }
        self.diagram.legend = Some(Legend {
            text: block_or_line_text(green),
            vertical,
            horizontal,
        });
    }

    fn skinparam(&mut self, green: &GreenStatement, tokens: &[Tok]) {
        let keyword = leading_keyword(tokens);
        if keyword.eq_ignore_ascii_case("scale") {
            if let Some(scale) = Scale::parse(&text_after_keyword(green)) {
                self.diagram.settings.scale = Some(scale);
            }
            return;
        }
        if keyword.eq_ignore_ascii_case("skin") {
            let name = text_after_keyword(green).trim().to_ascii_lowercase();
            self.diagram.settings.skin = Some(name).filter(|n| !n.is_empty());
            return;
        }
        if keyword != "skinparam" && keyword != "skinparamlocked" {
            return;
        }
        // The text after the keyword, borrowed from its token (a copy of
        // it was an allocation per skinparam line).
        let head_token = green.tokens().find(|t| t.kind == TEXT);
        let head = head_token.map_or("", |t| t.text.trim());
        match green.child(BODY) {
            None if !tokens.iter().any(|t| t.kind == L_BRACE) => {
                let (key, value) = split_at_first_blank(head);
                let key = key.to_ascii_lowercase();
                let value = value.unwrap_or("").trim().to_string();
                if !key.is_empty() {
                    if let Some(text) = head_token {
                        let blanks = text.text.len() - text.text.trim_start().len();
                        let name = &text.text.trim_start()[..key.len()];
                        self.check_skinparam_name("", name, text.range.start() + TextSize::from(blanks as u32));
                    }
                    self.diagram.settings.skinparams.push((key, value));
                }
            }
            _ => {
                let mut prefixes = vec![head.trim().to_ascii_lowercase()];
                for (line, line_start) in skinparam_body_lines(green) {
                    let blanks = line.len() - line.trim_start().len();
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('\'') {
                        continue;
                    }
                    if let Some(prefix) = line.strip_suffix('{') {
                        prefixes.push(prefix.trim().to_ascii_lowercase());
                        continue;
                    }
                    if line.starts_with('}') {
                        if prefixes.len() > 1 {
                            prefixes.pop();
                        }
                        continue;
                    }
                    let (key, value) = split_at_first_blank(line);
                    let key = key.to_ascii_lowercase();
                    let value = value.unwrap_or("").trim().to_string();
                    let full_key: String = prefixes
                        .iter()
                        .map(|p| p.as_str())
                        .chain(std::iter::once(key.as_str()))
                        .collect();
                    let prefix_len = full_key.len() - key.len();
                    let name = &line[..key.len()];
                    let at = line_start + TextSize::from(blanks as u32);
                    self.check_skinparam_name(&full_key[..prefix_len], name, at);
                    self.diagram.settings.skinparams.push((full_key, value));
                }
            }
        }
    }

    /// W0234: a skin parameter a sequence diagram does not read. `prefix`
    /// is the part of the name the enclosing blocks give (lower case),
    /// `name` the line's own name as written at `at`. The fix renames it
    /// to the name PlantUML reads, when that name can be written on this
    /// line (it starts with the blocks' prefix, or the block is `sequence`).
    fn check_skinparam_name(&mut self, prefix: &str, name: &str, at: TextSize) {
        if self.activity.is_some()
            || self.class.is_some()
            || self.description.is_some()
            || self.state.is_some()
            || self.legacy.is_some()
        {
            return;
        }
        // The name as written, after the blocks' prefix (`sequenceArrowColr`),
        // without a stereotype (`…Color<<S>>`), which the fix keeps.
        let name = crate::skinparams::before_stereotype(name);
        // A block's stereotype (`skinparam participant<<S>> { … }`) is no
        // part of the name either. (Most skinparams are in no block, or in
        // one without a stereotype: no string is built for them.)
        let prefix: std::borrow::Cow<'_, str> = if prefix.contains('<') {
            prefix
                .split("<<")
                .enumerate()
                .fold(String::new(), |mut out, (i, piece)| {
                    out.push_str(if i == 0 {
                        piece
                    } else {
                        piece.split_once(">>").map_or("", |(_, after)| after)
                    });
                    out
                })
                .into()
        } else {
            prefix.into()
        };
        let prefix = prefix.as_ref();
        let written: std::borrow::Cow<'_, str> = if prefix.is_empty() {
            name.into()
        } else {
            // Pushed, not `format!`ted: most names in blocks come here, and
            // the formatting machinery cost several times the copy.
            let mut joined = String::with_capacity(prefix.len() + name.len());
            joined.push_str(prefix);
            joined.push_str(name);
            joined.into()
        };
        let Some(issue) = crate::skinparams::check_sequence_skinparam(&written) else {
            return;
        };
        let Ok(len) = u32::try_from(name.len()) else {
            return;
        };
        let range = TextRange::at(at, TextSize::from(len));
        let mut diagnostic = Diagnostic::warning(codes::IGNORED_SKINPARAM, range, issue.message);
        let own = issue.instead.and_then(|instead| {
            let starts = instead.len() > prefix.len() && instead[..prefix.len()].eq_ignore_ascii_case(prefix);
            if starts {
                Some(&instead[prefix.len()..])
            } else {
                // In `skinparam sequence { … }` an unprefixed name reads as
                // the prefixed one, which PlantUML reads too.
                let unprefixed = !instead.to_ascii_lowercase().starts_with("sequence");
                (prefix == "sequence" && unprefixed).then_some(instead)
            }
        });
        if let Some(own) = own {
            // Keep the stereotype written after the name (`…Color<<S>>`).
            diagnostic = diagnostic.with_fix(format!("Use `{own}`"), vec![TextEdit::replace(range, own)]);
        }
        self.diagnostics.push(diagnostic);
    }

    /// `autonumber resume` with no numbering started: PlantUML accepts the
    /// line and fails on the next message (or on the line itself when no
    /// message follows); the error goes where PlantUML reports it.
    fn resume_without_start(&mut self, resume: TextRange, message: Option<TextRange>) {
        let at = message.unwrap_or(resume);
        let diagnostic = Diagnostic::error(
            codes::BAD_AUTONUMBER,
            at,
            "`autonumber resume` has no numbering to resume: start one with `autonumber` first (PlantUML fails on the next message)",
        )
        .with_related(resume, "the `autonumber resume` line")
        .with_fix("Start the numbering here", vec![TextEdit::replace(resume, "autonumber")]);
        self.diagnostics.push(diagnostic);
    }

    fn finish(mut self, diagram: &ast::Diagram) -> (Diagram, DiagramSourceMap, Vec<Diagnostic>) {
        if let Some(resume) = self.autonumber.resume_without_start.take() {
            self.resume_without_start(resume, None);
        }
        self.check_duration_anchors();
        if self.diagram.events.is_empty() {
            // No piece reserved for events that never came.
            self.diagram.events = Events::default();
            self.map.events = Vec::new();
        }
        let end_offset = diagram
            .end_line()
            .map(|n| n.text_range().start())
            .unwrap_or_else(|| diagram.syntax.text_range().end());
        let needs_newline_before = diagram.end_line().is_none() && {
            // Read from the last token: the whole diagram's text was
            // copied here (1.6 % of analysing the corpus, whose few
            // diagrams without `@enduml` are long).
            let green = diagram.syntax.green();
            let whole = GreenStatement {
                green: &green,
                start: diagram.syntax.text_range().start(),
            };
            !whole.ends_with_newline() && !diagram.syntax.text().is_empty()
        };
        for group in self.groups.iter().rev() {
            if let Some((index, _, line)) = group.stray_else {
                self.diagnostics[index] = self.diagnostics[index]
                    .clone()
                    .with_fix("Remove this `else`", vec![TextEdit::delete(line)]);
                continue;
            }
            let insert = if needs_newline_before { "\nend\n" } else { "end\n" };
            self.diagnostics.push(
                Diagnostic::warning(
                    codes::UNCLOSED_GROUP,
                    group.range,
                    "this group is never closed by `end` (PlantUML closes it at the end of the diagram)",
                )
                .with_fix("Close the group with `end`", vec![TextEdit::insert(end_offset, insert)]),
            );
        }
        for &(_, range) in self.box_stack.iter().rev() {
            self.diagnostics.push(
                Diagnostic::warning(codes::UNCLOSED_BOX, range, "this `box` is never closed by `end box`").with_fix(
                    "Close the box with `end box`",
                    vec![TextEdit::insert(end_offset, "end box\n")],
                ),
            );
        }
        self.apply_order();
        if let Some(class) = self.class.take() {
            let (model, map, mut diagnostics) = class.finish(end_offset, needs_newline_before);
            self.diagram.class = Some(Box::new(model));
            self.map.class = Some(map);
            self.diagnostics.append(&mut diagnostics);
        }
        if let Some(description) = self.description.take() {
            let (model, map, mut diagnostics) = description.finish(end_offset, needs_newline_before);
            self.diagram.description = Some(Box::new(model));
            self.map.description = Some(map);
            self.diagnostics.append(&mut diagnostics);
        }
        if let Some(state) = self.state.take() {
            let (model, map, mut diagnostics) = state.finish();
            self.diagram.state = Some(Box::new(model));
            self.map.state = Some(map);
            self.diagnostics.append(&mut diagnostics);
        }
        if let Some(legacy) = self.legacy.take() {
            let (model, map) = legacy.finish();
            self.diagram.legacy_activity = Some(Box::new(model));
            self.map.legacy_activity = Some(map);
        }
        if let Some(activity) = self.activity.take() {
            let (model, map, mut diagnostics) = activity.finish(end_offset, needs_newline_before);
            self.diagram.activity = Some(Box::new(model));
            self.map.activity = Some(map);
            self.diagnostics.append(&mut diagnostics);
        }
        (self.diagram, self.map, self.diagnostics)
    }

    /// `{a} <-> {b}` needs messages anchored `{a}` and `{b}` somewhere in
    /// the diagram; PlantUML silently draws nothing otherwise.
    fn check_duration_anchors(&mut self) {
        let anchors: Vec<&str> = self
            .diagram
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Message(m) => m.anchor.as_deref(),
                _ => None,
            })
            .collect();
        let mut missing = Vec::new();
        for (index, event) in self.diagram.events.iter().enumerate() {
            if let Event::Duration {
                from_anchor, to_anchor, ..
            } = event
            {
                for anchor in [from_anchor, to_anchor] {
                    if !anchors.contains(&anchor.as_str()) {
                        missing.push((anchor.clone(), self.map.events[index]));
                    }
                }
            }
        }
        for (anchor, range) in missing {
            self.diagnostics.push(Diagnostic::warning(
                codes::UNKNOWN_ANCHOR,
                range,
                format!("no message is anchored `{{{anchor}}}`, so PlantUML draws nothing for this duration"),
            ));
        }
    }

    /// `order N` sorts participants, then their declaration sequence; ids in
    /// events are remapped.
    fn apply_order(&mut self) {
        let moved = self.sequence.windows(2).any(|pair| pair[0] > pair[1]);
        if !moved && self.diagram.participants.iter().all(|p| p.order.is_none()) {
            return;
        }
        let mut indices: Vec<usize> = (0..self.diagram.participants.len()).collect();
        indices.sort_by_key(|&i| (self.diagram.participants[i].order.unwrap_or(0), self.sequence[i]));
        let mut new_id = vec![0u32; indices.len()];
        for (new, &old) in indices.iter().enumerate() {
            new_id[old] = new as u32;
        }
        let remap = |id: &mut ParticipantId| id.0 = new_id[id.index()];
        let old_participants = std::mem::take(&mut self.diagram.participants);
        let old_ranges = std::mem::take(&mut self.map.participants);
        let old_uses = std::mem::take(&mut self.map.participant_uses);
        for &old in &indices {
            self.diagram.participants.push(old_participants[old].clone());
            self.map.participants.push(old_ranges[old]);
            self.map.participant_uses.push(old_uses[old].clone());
        }
        for b in &mut self.diagram.boxes {
            b.participants.iter_mut().for_each(remap);
        }
        let remap_endpoint = |e: &mut Endpoint| {
            if let Endpoint::Participant { id } = e {
                id.0 = new_id[id.index()];
            }
        };
        for event in &mut self.diagram.events {
            match event {
                Event::Message(m) => {
                    remap_endpoint(&mut m.from);
                    remap_endpoint(&mut m.to);
                }
                Event::Note(n) => match &mut n.position {
                    NotePosition::Left { of: Some(id) } | NotePosition::Right { of: Some(id) } => remap(id),
                    NotePosition::Over { first, last } => {
                        remap(first);
                        if let Some(l) = last {
                            remap(l);
                        }
                    }
                    _ => {}
                },
                Event::Ref(r) => r.participants.iter_mut().for_each(remap),
                Event::Create { participant }
                | Event::Activate { participant, .. }
                | Event::Deactivate { participant }
                | Event::Destroy { participant } => remap(participant),
                _ => {}
            }
        }
    }
}

fn head_shape(head: puml_syntax::HeadSyntax) -> HeadShape {
    use puml_syntax::HeadSyntax as H;
    match head {
        H::None => HeadShape::None,
        H::Filled => HeadShape::Filled,
        H::Open => HeadShape::Open,
        H::HalfUpper => HeadShape::HalfUpper,
        H::HalfLower => HeadShape::HalfLower,
        H::HalfUpperOpen => HeadShape::HalfUpperOpen,
        H::HalfLowerOpen => HeadShape::HalfLowerOpen,
        H::Cross => HeadShape::Cross,
    }
}

fn parse_stereotypes(raw: &[String]) -> Option<Stereotype> {
    if raw.is_empty() {
        return None;
    }
    let mut labels = Vec::new();
    let mut spot = None;
    for text in raw {
        let inner = text.trim_start_matches("<<").trim_end_matches(">>").trim();
        let mut rest = inner;
        if let Some(after_paren) = inner.strip_prefix('(') {
            if let Some(close) = after_paren.find(')') {
                let spec = &after_paren[..close];
                let mut parts = spec.splitn(2, ',');
                let ch = parts.next().and_then(|c| c.trim().chars().next());
                let color = parts.next().map(|c| c.trim().to_string()).filter(|c| !c.is_empty());
                if let Some(ch) = ch {
                    spot = Some((ch, color));
                }
                rest = after_paren[close + 1..].trim();
            }
        }
        if !rest.is_empty() {
            labels.push(rest.to_string());
        }
    }
    Some(Stereotype { labels, spot })
}

/// `Label [secondary]` → (`Label`, `secondary`, the blanks between them).
fn split_secondary(text: &str) -> (Option<String>, Option<String>, usize) {
    let trimmed = text.trim();
    if trimmed.ends_with(']') {
        if let Some(open) = trimmed.rfind('[') {
            let before = trimmed[..open].trim_start();
            let label = before.trim_end().to_string();
            let blanks = if label.is_empty() {
                0
            } else {
                before[label.len()..].chars().count()
            };
            let secondary = trimmed[open + 1..trimmed.len() - 1].trim().to_string();
            return (
                Some(label).filter(|l| !l.is_empty()),
                Some(secondary).filter(|s| !s.is_empty()),
                blanks,
            );
        }
    }
    (Some(trimmed.to_string()).filter(|l| !l.is_empty()), None, 0)
}

/// Applies a PlantUML autonumber format: the first run of `0`/`#` is the
/// number (zero-padded to the run's count of `0`); without such a run the
/// number is appended. HTML-ish tags are kept for the renderer.
/// Java's `DecimalFormat`, as far as autonumber formats use it: the first
/// run of `0`/`#` is the number (as many digits as zeros), `'…'` quotes
/// literal text and `''` is a quote.
/// `n` in decimal, as `write!(out, "{n}")` writes it, without the
/// formatting machinery (every numbered message asks for one).
fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits: copied as one run (a character at a time, each was
    // encoded and the string grown for it).
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// The number `numbers` written as `format` says, into `out` (emptied
/// first): the buffer the caller keeps from one message to the next, so
/// that a formatted number costs no allocation of its own.
fn apply_number_format(format: &str, numbers: &[u64], out: &mut String) {
    out.clear();
    // `{n:0width$}` joined with `.`, written without the formatter (every
    // numbered message of a diagram with a format comes here).
    let number = |out: &mut String, width: usize| {
        for (i, &n) in numbers.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            let start = out.len();
            push_decimal(out, n);
            let digits = out.len() - start;
            for _ in digits..width {
                out.insert(start, '0');
            }
        }
    };
    let mut chars = format.chars().peekable();
    let mut quoted = false;
    let mut placed = false;
    while let Some(c) = chars.next() {
        if c == '\'' {
            if chars.peek() == Some(&'\'') {
                chars.next();
                out.push('\'');
            } else {
                quoted = !quoted;
            }
            continue;
        }
        if !quoted && !placed && (c == '0' || c == '#') {
            let mut zeros = usize::from(c == '0');
            while let Some(&next) = chars.peek().filter(|&&n| n == '0' || n == '#') {
                zeros += usize::from(next == '0');
                chars.next();
            }
            number(out, zeros);
            placed = true;
            continue;
        }
        out.push(c);
    }
    if !placed {
        number(out, 0);
    }
}

/// Splits autonumber arguments, keeping `"…"` together.
/// Why PlantUML rejects an `autonumber` line (its text after the keyword),
/// or `None`. The forms it reads: `[start] [step] ["format"]` (start may be
/// dotted, `1.1.1`), `stop`, `resume [step] ["format"]`, and `inc A|B`
/// once a numbering has started.
fn autonumber_problem(text: &str, started: bool) -> Option<String> {
    let words = split_args(text);
    let is_number = |w: &str| {
        !w.is_empty()
            && w.split('.')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    };
    let is_integer = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let is_format = |w: &str| w.len() >= 2 && w.starts_with('"') && w.ends_with('"');
    let first = words.first().map(|w| w.to_ascii_lowercase());
    let rest: &[String] = words.get(1..).unwrap_or(&[]);
    match first.as_deref() {
        None => None,
        Some("stop") if rest.is_empty() => None,
        Some("stop") => Some("`autonumber stop` takes nothing after it".into()),
        Some("inc") => match rest {
            [level] if level.eq_ignore_ascii_case("a") || level.eq_ignore_ascii_case("b") => (!started)
                .then(|| "`autonumber inc` needs a numbering started before it (`autonumber 1.1.1`)".to_string()),
            _ => Some("`autonumber inc` takes `A` or `B`".into()),
        },
        Some("resume") => match rest {
            [] => None,
            [step] if is_integer(step) || is_format(step) => None,
            [step, format] if is_integer(step) && is_format(format) => None,
            _ => Some("PlantUML reads `autonumber resume [step] [\"format\"]` only".into()),
        },
        Some(_) => {
            let ok = match words.as_slice() {
                [one] => is_number(one) || is_format(one),
                [start, two] => is_number(start) && (is_integer(two) || is_format(two)),
                [start, step, format] => is_number(start) && is_integer(step) && is_format(format),
                _ => false,
            };
            (!ok).then(|| {
                "PlantUML reads `autonumber [start] [step] [\"format\"]`, `autonumber stop`, `autonumber resume` and `autonumber inc A|B` only".to_string()
            })
        }
    }
}

fn split_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    for c in text.chars() {
        match c {
            '"' => {
                current.push(c);
                in_quotes = !in_quotes;
            }
            c if c.is_whitespace() && !in_quotes => {
                if !current.is_empty() {
                    args.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        args.push(current);
    }
    args
}

/// [`GreenStatement::significant_tokens_and_range`] into a buffer the
/// caller keeps from one statement to the next: the statement's direct
/// tokens that carry meaning, and its range without the leading and
/// trailing blanks.
fn significant_tokens_and_range<'a>(green: &GreenStatement<'a>, tokens: &mut Vec<Tok<'a>>) -> TextRange {
    tokens.clear();
    let mut solid: Option<(TextSize, TextSize)> = None;
    let mut has_nodes = false;
    let mut offset = green.start;
    for child in green.green.children() {
        let start = offset;
        offset += child.text_len();
        match child {
            puml_syntax::NodeOrToken::Token(token) => {
                let kind = SyntaxKind::from_raw(token.kind().0);
                let range = TextRange::at(start, token.text_len());
                if !matches!(kind, WHITESPACE | NEWLINE) {
                    match &mut solid {
                        Some((_, last)) => *last = range.end(),
                        None => solid = Some((range.start(), range.end())),
                    }
                    if !kind.is_trivia() {
                        tokens.push(Tok {
                            kind,
                            text: token.text(),
                            range,
                        });
                    }
                }
            }
            puml_syntax::NodeOrToken::Node(_) => has_nodes = true,
        }
    }
    if has_nodes {
        return green.range();
    }
    match solid {
        Some((start, end)) if start < end => TextRange::new(start, end),
        _ => TextRange::empty(green.start),
    }
}

fn token_text(green: &GreenStatement, kind: SyntaxKind) -> Option<String> {
    green
        .tokens()
        .find(|t| t.kind == kind)
        .map(|t| t.text.trim().to_string())
}

/// Each line of a `skinparam … { … }` block's body with the offset where
/// it starts.
fn skinparam_body_lines(green: &GreenStatement) -> Vec<(String, TextSize)> {
    let mut lines: Vec<(String, TextSize)> = Vec::new();
    let Some(body) = green.child(BODY) else {
        return lines;
    };
    let mut open = false;
    for token in body.tokens() {
        if token.kind == NEWLINE {
            open = false;
            continue;
        }
        match lines.last_mut() {
            Some((text, _)) if open => text.push_str(token.text),
            _ => {
                lines.push((token.text.to_string(), token.range.start()));
                open = true;
            }
        }
    }
    lines
}

/// The text after the leading keyword (and directive) of a one-line statement.
fn text_after_keyword(green: &GreenStatement) -> String {
    let mut texts = green.tokens().filter(|t| t.kind == TEXT);
    let mut joined = texts.next().map(|t| t.text.to_string()).unwrap_or_default();
    for t in texts {
        joined.push(' ');
        joined.push_str(t.text);
    }
    joined
}

/// A statement's text: its block body lines joined with `\n`, or the text on its line.
fn block_or_line_text(green: &GreenStatement) -> String {
    match green.body_line_ranges() {
        // PlantUML drops a block's comment lines (`' …`) before reading it.
        Some((text, lines)) => join_body_lines(&text, lines, |line| line.trim_end()),
        None => token_text(green, TEXT).unwrap_or_default(),
    }
}

/// A title, caption, header or footer written whole in double quotes
/// (`title "Flow"`): PlantUML draws it without them, and keeps quotes that
/// do not enclose the whole text (`title "Flow" v2`, a lone `"Flow`).
fn unquoted(text: String) -> String {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if !inner.contains('\n') => inner.to_string(),
        _ => text,
    }
}

/// `token.name_str()` (the name without blanks around it and without its
/// quotes), looking at the ends first: a name with no blank at either end
/// needs no trimming (which decodes characters from both ends: a sixth of
/// resolving a participant).
fn participant_name<'a>(token: &Tok<'a>) -> &'a str {
    let text = token.text;
    let solid = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && !char::from(b).is_whitespace());
    let bytes = text.as_bytes();
    if !(solid(bytes.first()) && solid(bytes.last())) {
        return token.name_str();
    }
    if text.len() >= 2 && bytes[0] == b'"' && bytes[text.len() - 1] == b'"' {
        &text[1..text.len() - 1]
    } else {
        text
    }
}

/// `line.len() - line.trim_start().len()`, counting ASCII blanks by bytes
/// and falling back to the character reading only where one is followed
/// by another kind of blank.
fn leading_blanks(line: &str) -> usize {
    let bytes = line.as_bytes();
    let ascii = bytes.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    match bytes.get(ascii) {
        Some(&b) if b.is_ascii() && char::from(b).is_whitespace() => line.len() - line.trim_start().len(),
        Some(&b) if !b.is_ascii() => line.len() - line.trim_start().len(),
        _ => ascii,
    }
}

/// A note's text: a block keeps its lines' trailing blanks, which PlantUML
/// counts in the note's width (a one-line note's are dropped).
fn note_text(green: &GreenStatement) -> String {
    match green.child(BODY) {
        Some(body) => note_body_text(&body),
        None => token_text(green, TEXT).unwrap_or_default(),
    }
}

/// What `join_body_lines` makes of [`GreenStatement::body_line_ranges`]
/// for a note (blank lines empty, comment lines left out), in one pass
/// over the body's tokens and one over its lines: each line's indentation
/// is measured once (the general reading measured it three times and
/// copied the body twice; notes were a tenth of lowering).
fn note_body_text(body: &GreenStatement) -> String {
    struct Line {
        start: usize,
        end: usize,
        /// Bytes of leading blanks; `end - start` for a blank line.
        indent: usize,
    }
    let mut text = String::with_capacity(usize::from(body.green.text_len()));
    let mut lines: Vec<Line> = Vec::new();
    let mut line_start = 0;
    let close = |text: &str, start: usize| Line {
        start,
        end: text.len(),
        indent: leading_blanks(&text[start..]),
    };
    for token in body.tokens() {
        if token.kind == NEWLINE {
            lines.push(close(&text, line_start));
            line_start = text.len();
        } else {
            text.push_str(token.text);
        }
    }
    if !text[line_start..].trim().is_empty() {
        lines.push(close(&text, line_start));
    }
    let is_blank = |line: &Line| line.indent == line.end - line.start;
    let common = lines
        .iter()
        .filter(|line| !is_blank(line))
        .map(|line| line.indent)
        .min()
        .unwrap_or(0);
    let mut out = String::with_capacity(text.len());
    let mut first = true;
    for line in &lines {
        let blank = is_blank(line);
        // PlantUML drops a block's comment lines (`' …`) before reading it.
        if !blank && text[line.start + line.indent..].starts_with('\'') {
            continue;
        }
        if !first {
            out.push('\n');
        }
        first = false;
        if !blank {
            let start = line.start + common.min(line.indent);
            out.push_str(text[start..line.end].trim_end_matches(['\r', '\n']));
        }
    }
    out
}

/// A block's body lines (ranges in `text`) joined with `\n`, comment lines
/// (`' …`) left out and each line passed through `shape`; one string built
/// (this was a string per line, a vector and a join: 2.6 % of analysing
/// the corpus).
fn join_body_lines(text: &str, lines: Vec<std::ops::Range<usize>>, shape: impl Fn(&str) -> &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut first = true;
    for line in lines {
        let line = shape(&text[line]);
        if line.trim_start().starts_with('\'') {
            continue;
        }
        if !first {
            out.push('\n');
        }
        first = false;
        out.push_str(line);
    }
    out
}

/// The first keyword of a statement, lowercased (`ast::leading_keyword`
/// over the statement's significant tokens).
fn leading_keyword(tokens: &[Tok]) -> String {
    tokens
        .iter()
        .find(|t| t.kind == KEYWORD)
        .map(|t| t.text.to_ascii_lowercase())
        .unwrap_or_default()
}

/// The cursor node of a statement of `diagram`, for the few readings that
/// still walk cursors: found by its range (a binary search over the
/// diagram's children), else by a walk over them.
fn statement_node(diagram: &SyntaxNode, green: &GreenStatement) -> SyntaxNode {
    let full = green.full_range();
    diagram
        .child_or_token_at_range(full)
        .and_then(|element| element.into_node())
        .filter(|node| node.text_range() == full && node.kind() == green.kind())
        .or_else(|| diagram.children().find(|node| node.text_range() == full))
        // Unreachable (the statement is one of the diagram's children); a
        // node is still better than a panic.
        .unwrap_or_else(|| diagram.clone())
}

/// The whole line(s) of a statement including its newline, for deletions.
fn full_line_range(node: &SyntaxNode) -> TextRange {
    node.text_range()
}

/// A statement's text, ending in a newline even on the file's last line.
fn line_text_with_newline(green: &GreenStatement) -> String {
    let mut text = green.text();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// An error statement (all one error token) that the parser's fix turns
/// into a group start: Mermaid's `rect`, activity's `if (…) then`, a
/// misspelt group keyword such as `atl`.
fn opens_group_when_repaired(node: &SyntaxNode) -> bool {
    let text = node.text().to_string();
    let Some(word) = text
        .split(|c: char| c.is_whitespace() || c == '(')
        .find(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
    else {
        return false;
    };
    match word.as_str() {
        "rect" => true,
        "if" => text.to_ascii_lowercase().contains("then"),
        _ => puml_syntax::closest_keyword(&word).is_some_and(|k| puml_syntax::keywords::GROUP_KEYWORDS.contains(&k)),
    }
}

/// An unquoted `box` title with the blanks that follow it up to the colour
/// (`box Model   #pink` gives `"Model   "`).
fn unquoted_title_with_blanks(title: &SyntaxToken) -> String {
    let mut text = title.text().trim_start().to_string();
    let mut next = title.next_token();
    while let Some(token) = next.filter(|t| t.kind() == WHITESPACE) {
        text.push_str(token.text());
        next = token.next_token();
    }
    text
}

/// The first colour of a gradient written where PlantUML 1.2026.8 takes a
/// single colour (a syntax error, observed): an activation bar's
/// (`activate A #red-blue`, `A -> B ++ #red-blue`) and a group frame's
/// (`alt#red-blue`). `None` for a single colour or where a gradient is
/// drawn (participants, notes, boxes).
///
/// `below` is every token of the statement, `index` the colour's place
/// among them (a token before the statement is always a line's end, which
/// neither test accepts, so looking no further back changes nothing).
fn refused_gradient<'t>(statement: SyntaxKind, below: &[Tok<'t>], index: usize) -> Option<&'t str> {
    let text = below[index].text;
    let earlier = &below[..index];
    let adjacent = earlier.last().map(|t| t.kind);
    let before = earlier.iter().rev().find(|t| t.kind != WHITESPACE);
    let refused = match statement {
        ACTIVATE => true,
        MESSAGE => before.is_some_and(|t| t.kind == LIFECYCLE),
        // `alt#red-blue`: the frame's colour, written against the keyword.
        GROUP_START => adjacent == Some(KEYWORD),
        _ => false,
    };
    if !refused {
        return None;
    }
    let body = text.strip_prefix('#')?;
    let at = body.find(['/', '-', '|', '\\'])?;
    crate::colors::is_valid_color(text).then(|| &text[..at + 1])
}
/// `text` split at its first whitespace character, as
/// `text.splitn(2, char::is_whitespace)` splits it: the part before, and
/// what follows that character, if there is one. Bytes while the text is
/// ASCII: the character split decoded every character of every skinparam
/// line.
fn split_at_first_blank(text: &str) -> (&str, Option<&str>) {
    let bytes = text.as_bytes();
    // The ASCII whitespace characters are tab to carriage return (vertical
    // tab among them, which `u8::is_ascii_whitespace` leaves out) and space.
    match bytes
        .iter()
        .position(|&b| matches!(b, b'\t'..=b'\r' | b' ') || !b.is_ascii())
    {
        None => (text, None),
        // An ASCII byte is a character of its own: both cuts are boundaries.
        Some(at) if bytes[at].is_ascii() => (&text[..at], Some(&text[at + 1..])),
        Some(_) => {
            let mut parts = text.splitn(2, char::is_whitespace);
            (parts.next().unwrap_or(""), parts.next())
        }
    }
}

#[cfg(test)]
mod blank_split_tests {
    #[test]
    fn the_byte_split_cuts_where_the_character_split_cuts() {
        let pieces = [
            "", " ", "\t", "\u{b}", "\u{c}", "\r", "\n", "\u{1c}", "\u{85}", "\u{a0}", "\u{3000}", "é", "a", "Arrow",
        ];
        let mut asked = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}x{b}{c}y{a}");
                    let mut parts = text.splitn(2, char::is_whitespace);
                    let expected = (parts.next().unwrap_or(""), parts.next());
                    assert_eq!(super::split_at_first_blank(&text), expected, "{text:?}");
                    asked += 1;
                }
            }
        }
        assert!(asked > 2_000, "only {asked}");
    }
}

#[cfg(test)]
mod decimal_tests {
    #[test]
    fn push_decimal_writes_what_format_writes() {
        for n in [0, 1, 9, 10, 99, 100, 12345, 1 << 40, u64::MAX - 1, u64::MAX] {
            let mut out = String::from("x");
            super::push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn number_formats_pad_as_format_pads() {
        for (format, numbers, expected) in [
            ("000", &[7u64][..], "007"),
            ("0", &[12], "12"),
            ("##", &[3, 4], "3.4"),
            ("'x'00'y'", &[5, 123], "x05.123y"),
            ("<b>[000]", &[1, 2, 3], "<b>[001.002.003]"),
        ] {
            // Into a buffer holding an earlier number, as lowering keeps it.
            let mut out = String::from("stale");
            super::apply_number_format(format, numbers, &mut out);
            assert_eq!(out, expected, "{format}");
        }
    }
}

#[cfg(test)]
mod long_line_tests {
    use super::has_line_longer_than;

    #[test]
    fn the_jumping_scan_agrees_with_measuring_every_line() {
        let naive = |text: &str, limit: usize| text.split('\n').any(|line| line.len() > limit);
        let mut seed = 7u64;
        for _ in 0..2_000 {
            let mut text = String::new();
            for _ in 0..(seed % 40) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(&"x".repeat((seed >> 33) as usize % 14));
                text.push(if seed.is_multiple_of(5) { '\r' } else { '\n' });
            }
            for limit in [0, 1, 5, 9, 12, 13, 30] {
                assert_eq!(
                    has_line_longer_than(text.as_bytes(), limit),
                    naive(&text, limit),
                    "{text:?} {limit}"
                );
            }
        }
    }
}

#[cfg(test)]
mod skinparam_name_tests {
    use crate::{analyze, AnalysisOptions, NoIncludes};

    /// (line text at the warning, fix replacement) of every W0234.
    fn ignored(source: &str) -> Vec<(String, Option<String>)> {
        let analysis = analyze(source, &AnalysisOptions::default(), &NoIncludes);
        analysis
            .diagnostics
            .iter()
            .filter(|d| d.code == crate::codes::IGNORED_SKINPARAM)
            .map(|d| {
                let written = source[usize::from(d.range.start())..usize::from(d.range.end())].to_string();
                let fix = d
                    .fixes
                    .first()
                    .and_then(|f| f.edits.first())
                    .map(|e| e.new_text.clone());
                (written, fix)
            })
            .collect()
    }

    #[test]
    fn names_a_sequence_diagram_ignores_are_reported_where_written() {
        let source = "@startuml\nskinparam LifeLineBorderColor red\nskinparam ParticipantBackgroudColor<<S>> red\n\
                      skinparam sequence {\n  ArrowColr red\n  LifeLineBorderColor blue\n}\n\
                      skinparam ClassFontColor red\nskinparam ArrowColor red\n\
                      skinparam participant<<S>> {\n  BackgroundColor red\n  FontSize 12\n}\nAlice -> Bob : hi\n@enduml\n";
        assert_eq!(
            ignored(source),
            vec![
                (
                    "LifeLineBorderColor".to_string(),
                    Some("sequenceLifeLineBorderColor".to_string())
                ),
                (
                    "ParticipantBackgroudColor".to_string(),
                    Some("ParticipantBackgroundColor".to_string())
                ),
                ("ArrowColr".to_string(), Some("ArrowColor".to_string())),
                ("ClassFontColor".to_string(), None),
            ]
        );
        // Activity diagrams are not judged by the sequence list.
        assert!(ignored("@startuml\nskinparam ClassFontColor red\nstart\n:a;\nstop\n@enduml\n").is_empty());
    }
}
