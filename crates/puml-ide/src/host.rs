//! The façade every consumer goes through: an [`AnalysisHost`] owns the
//! salsa database and applies changes; an [`Analysis`] is a snapshot of it
//! that answers questions. Every answer is a memoized query, so asking the
//! same question twice about the same revision costs a lookup, and an edit
//! re-runs only what read the edited text.
//!
//! The CLI, the MCP server and the language server hold a host and never
//! call a phase function (`puml_syntax::parse`, `puml_sema::analyze`,
//! `puml_layout::layout`) themselves; `tests/tidy.rs` checks it.
//!
//! Snapshots are cheap clones of the database. A snapshot taken before an
//! edit answers [`Cancelled`] as soon as the host applies the edit, so a
//! server drops stale work instead of finishing it.

use crate::check::{report_from_analysis, CheckOptions, CheckReport};
use crate::edit::{apply_edit, Edit, EditError, EditResult};
use crate::explain::{explain_all_analysis, Explanation};
use crate::fix::FixOutcome;
use crate::format::FormatOptions;
use crate::lint::{lint_analysis, LintOptions};
use crate::normalize::{normalize, NormalizeOptions, Normalized};
use crate::render::{
    encode, scenes_for_document, Format, PageScene, Region, RenderFailure, RenderOptions, RenderedPage, RenderedRegion,
};
use puml_db::{Config, Database, DbLoader, SourceFile};
use puml_sema::model::Document;
use puml_sema::FileLoader;
use puml_syntax::{Diagnostic, Parse, Severity, TextEdit, TextRange, TextSize};
use salsa::Setter;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, UnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file known to a host. Ids are never reused within one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A participant found under a cursor: where it is declared (or first
/// used) and every use of its name, as byte ranges of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParticipantRef {
    /// The identifier messages use (the alias if there is one).
    pub code: String,
    pub name: String,
    pub alias: Option<String>,
    pub kind: puml_sema::model::ParticipantKind,
    /// Declared with a participant statement (not only used).
    pub declared: bool,
    pub declaration: TextRange,
    pub uses: Vec<TextRange>,
    /// Declared in an included file: that file and the declaring statement's range there.
    pub included_declaration: Option<(PathBuf, TextRange)>,
    /// Uses written in included files (each spells the name there), in
    /// file then text order.
    pub included_uses: Vec<(PathBuf, TextRange)>,
}

/// The edits of a rename: this file's, and each included file's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    pub edits: Vec<TextEdit>,
    pub included: Vec<(PathBuf, Vec<TextEdit>)>,
}

/// A message's autonumber as drawn, with the statement it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageNumber {
    pub statement: TextRange,
    pub number: String,
}

/// A newer change to the host superseded the snapshot that was answering.
///
/// A change waits until every snapshot is dropped or has seen this: never
/// change a host while the same thread still holds one of its snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request was superseded by a newer edit")
    }
}

impl std::error::Error for Cancelled {}

pub type Cancellable<T> = Result<T, Cancelled>;

/// Settings that apply to every file of a host.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostConfig {
    /// `!include` reads only inside this directory (default: each file's own).
    pub include_root: Option<PathBuf>,
    pub allow_url_includes: bool,
    /// Theme used when a render request names none (the diagram's own
    /// `!theme` otherwise).
    pub theme: Option<String>,
}

/// The edit was outside the file or not on character boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EditOutOfBounds;

impl std::fmt::Display for EditOutOfBounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the edited range is outside the file or splits a character")
    }
}

impl std::error::Error for EditOutOfBounds {}

/// Owns the database; the only place where inputs change.
pub struct AnalysisHost {
    db: Database,
    files: Arc<HashMap<FileId, SourceFile>>,
    by_path: HashMap<PathBuf, FileId>,
    next_id: u32,
    config: Config,
    host_config: HostConfig,
    /// What an unknown or removed [`FileId`] reads as.
    empty: SourceFile,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::from_database(Database::default())
    }
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost::default()
    }

    /// A host whose `!include`s are read (and allowed or refused) by
    /// `loader`, e.g. a sandbox confined to some roots.
    pub fn with_loader(loader: Arc<dyn FileLoader + Send + Sync>) -> AnalysisHost {
        AnalysisHost::from_database(Database::default().with_loader(loader))
    }

    /// [`AnalysisHost::with_loader`] that also records the queries it
    /// executes (see [`AnalysisHost::take_execution_log`]).
    pub fn with_loader_and_execution_log(loader: Arc<dyn FileLoader + Send + Sync>) -> AnalysisHost {
        AnalysisHost::from_database(Database::with_execution_log().with_loader(loader))
    }

    /// A host that records the queries it executes (see
    /// [`AnalysisHost::take_execution_log`]); for tests and benchmarks.
    pub fn with_execution_log() -> AnalysisHost {
        AnalysisHost::from_database(Database::with_execution_log())
    }

    /// A host holding one file: the way in for one-shot consumers (a CLI
    /// run analyses each input once; a batch may keep a host per thread).
    pub fn single_file(path: Option<PathBuf>, text: String, config: HostConfig) -> (AnalysisHost, FileId) {
        let mut host = AnalysisHost::new();
        host.set_config(config);
        let file = host.add_file(path, text);
        (host, file)
    }

    fn from_database(db: Database) -> AnalysisHost {
        let config = Config::new(&db, None, false, None);
        let empty = SourceFile::new(&db, None, Arc::from(""));
        AnalysisHost {
            empty,
            db,
            files: Arc::default(),
            by_path: HashMap::new(),
            next_id: 0,
            config,
            host_config: HostConfig::default(),
        }
    }

    /// The queries executed since the last call, e.g. `parse(Id(0))`.
    pub fn take_execution_log(&self) -> Vec<String> {
        self.db.take_log()
    }

    /// A snapshot for answering questions (cheap; may move to another thread).
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
            files: self.files.clone(),
            config: self.config,
            empty: self.empty,
        }
    }

    pub fn config(&self) -> &HostConfig {
        &self.host_config
    }

    pub fn set_config(&mut self, config: HostConfig) {
        if config == self.host_config {
            return;
        }
        if config.include_root != self.host_config.include_root {
            self.config
                .set_include_root(&mut self.db)
                .to(config.include_root.clone());
        }
        if config.allow_url_includes != self.host_config.allow_url_includes {
            self.config
                .set_allow_url_includes(&mut self.db)
                .to(config.allow_url_includes);
        }
        if config.theme != self.host_config.theme {
            self.config.set_theme(&mut self.db).to(config.theme.clone());
        }
        self.host_config = config;
    }

    /// Adds a file (its path resolves relative `!include`s). A path already
    /// known gets its text replaced and keeps its id.
    /// Adds a file (a `String`, or an `Arc<str>` the caller keeps sharing).
    pub fn add_file(&mut self, path: Option<PathBuf>, text: impl Into<Arc<str>>) -> FileId {
        let text = text.into();
        if let Some(id) = path.as_ref().and_then(|p| self.by_path.get(p)).copied() {
            self.set_file_text(id, text);
            return id;
        }
        let id = FileId(self.next_id);
        self.next_id += 1;
        let input = SourceFile::new(&self.db, path.clone(), text);
        Arc::make_mut(&mut self.files).insert(id, input);
        if let Some(path) = path {
            self.by_path.insert(path, id);
        }
        id
    }

    /// The id of the file added with `path`.
    pub fn file_for_path(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path).copied()
    }

    /// Replaces a file's text. Setting the same text again is not a change
    /// (no query re-runs, snapshots stay valid). An `Arc<str>` is shared,
    /// not copied: an editor that keeps the text it hands over pays for one
    /// copy of the file per change, not one per holder.
    pub fn set_file_text(&mut self, file: FileId, text: impl Into<Arc<str>>) {
        let Some(input) = self.files.get(&file).copied() else {
            return;
        };
        let text = text.into();
        let old = input.text(&self.db);
        if !Arc::ptr_eq(old, &text) && **old != *text {
            input.set_text(&mut self.db).to(text);
        }
    }

    /// The parses and analyses that edits replaced and the database no
    /// longer needs: dropping the value frees them. A consumer with a
    /// latency path (the language server) takes them after answering and
    /// drops them off that path; one that never does keeps a bounded few.
    pub fn take_garbage(&self) -> puml_db::RetiredValues {
        self.db.take_garbage()
    }

    /// Replaces `range` (byte offsets) of a file's text with `replacement`.
    pub fn edit_file(&mut self, file: FileId, range: TextRange, replacement: &str) -> Result<(), EditOutOfBounds> {
        let Some(input) = self.files.get(&file).copied() else {
            return Err(EditOutOfBounds);
        };
        let old = input.text(&self.db);
        let (start, end) = (usize::from(range.start()), usize::from(range.end()));
        if end > old.len() || !old.is_char_boundary(start) || !old.is_char_boundary(end) {
            return Err(EditOutOfBounds);
        }
        let mut text = String::with_capacity(old.len() - (end - start) + replacement.len());
        text.push_str(&old[..start]);
        text.push_str(replacement);
        text.push_str(&old[end..]);
        self.set_file_text(file, text);
        Ok(())
    }

    /// Gives `file` another path and text: what removing it and adding a
    /// new file would do, but on the same input, so a batch that analyses
    /// many files one after another on one host keeps one file's queries in
    /// the database instead of every file's, and pays for one database.
    pub fn replace_file(&mut self, file: FileId, path: Option<PathBuf>, text: impl Into<Arc<str>>) {
        let Some(input) = self.files.get(&file).copied() else {
            return;
        };
        self.by_path.retain(|_, id| *id != file);
        if let Some(path) = &path {
            self.by_path.insert(path.clone(), file);
        }
        // The next parse is a fresh one, not an edit of the last file's.
        self.db.forget(input);
        if *input.path(&self.db) != path {
            input.set_path(&mut self.db).to(path);
        }
        self.set_file_text(file, text);
    }

    /// Forgets a file. Its id answers like an empty file from now on.
    pub fn remove_file(&mut self, file: FileId) {
        if let Some(input) = Arc::make_mut(&mut self.files).remove(&file) {
            self.by_path.retain(|_, id| *id != file);
            // The input itself stays in the database (salsa inputs live as
            // long as it); emptying it frees what its queries held.
            input.set_text(&mut self.db).to(Arc::from(""));
            self.db.forget(input);
        }
    }

    /// Re-reads every included file through the loader; changed ones become
    /// new revisions (for consumers that do not watch the file system).
    pub fn refresh_included_files(&mut self) {
        self.db.refresh_included_files();
    }
}

/// A consistent view of the host at one revision.
#[derive(Clone)]
pub struct Analysis {
    db: Database,
    files: Arc<HashMap<FileId, SourceFile>>,
    config: Config,
    empty: SourceFile,
}

impl Analysis {
    /// Runs `f` against the database, turning salsa's cancellation unwind
    /// into [`Cancelled`]. An unknown file answers as an empty one.
    fn with<T>(&self, file: FileId, f: impl FnOnce(&Database, SourceFile, Config) -> T + UnwindSafe) -> Cancellable<T> {
        let input = self.files.get(&file).copied().unwrap_or(self.empty);
        let db = AssertUnwindSafe(&self.db);
        let config = self.config;
        salsa::Cancelled::catch(move || f(*db, input, config)).map_err(|_| Cancelled)
    }

    pub fn files(&self) -> Vec<FileId> {
        let mut ids: Vec<FileId> = self.files.keys().copied().collect();
        ids.sort();
        ids
    }

    pub fn file_text(&self, file: FileId) -> Cancellable<String> {
        self.with(file, |db, input, _| input.text(db).to_string())
    }

    /// The file's text, shared with the database (no copy).
    pub fn shared_text(&self, file: FileId) -> Cancellable<Arc<str>> {
        self.with(file, |db, input, _| input.text(db).clone())
    }

    pub fn file_path(&self, file: FileId) -> Cancellable<Option<PathBuf>> {
        self.with(file, |db, input, _| input.path(db).clone())
    }

    /// The lossless syntax tree (shared green nodes: cloning is cheap).
    pub fn parse(&self, file: FileId) -> Cancellable<Parse> {
        self.with(file, |db, input, _| puml_db::parse(db, input).clone())
    }

    /// The preprocessor's `$variables`, procedures and functions, with their
    /// uses: this file's, and those the files it includes define (with
    /// their occurrences there).
    pub fn preprocessor_symbols(&self, file: FileId) -> Cancellable<Vec<crate::symbols::PreprocessorSymbol>> {
        self.with(file, |db, input, config| {
            let parse = puml_db::parse(db, input);
            let analysis = puml_db::analysis(db, input, config);
            if analysis.included_files.is_empty() {
                crate::symbols::preprocessor_symbols(parse)
            } else {
                crate::symbols::preprocessor_symbols_with_includes(parse, &analysis.included_files)
            }
        })
    }

    /// Each class diagram's range and element names.
    pub fn class_outlines(&self, file: FileId) -> Cancellable<Vec<crate::class_symbols::ClassOutline>> {
        self.with(file, move |db, input, config| {
            crate::class_symbols::class_outlines(puml_db::analysis(db, input, config))
        })
    }

    /// The class outlines completion at `offset` reads: `class_outlines`,
    /// or when no class or description diagram holds `offset` (a line
    /// being typed, `User -->`, can stop a description block from reading
    /// as one), those of the text with that line blanked (same offsets).
    pub fn completion_outlines(
        &self,
        file: FileId,
        offset: TextSize,
    ) -> Cancellable<Vec<crate::class_symbols::ClassOutline>> {
        self.with(file, move |db, input, config| {
            let outlines = crate::class_symbols::class_outlines(puml_db::analysis(db, input, config));
            // A block no reading accepts may still give an empty class
            // outline: read it without the typed line too.
            if outlines
                .iter()
                .any(|o| o.range.contains_inclusive(offset) && !o.elements.is_empty())
            {
                return outlines;
            }
            crate::class_symbols::outlines_without_line(input.text(db), offset)
                .filter(|found| {
                    found
                        .iter()
                        .any(|o| o.range.contains_inclusive(offset) && !o.elements.is_empty())
                })
                .unwrap_or(outlines)
        })
    }

    /// Each class diagram's structure as written: packages, elements and
    /// members with their ranges (the outline), and what folds.
    pub fn class_structures(&self, file: FileId) -> Cancellable<Vec<crate::class_outline::ClassStructure>> {
        self.with(file, |db, input, config| {
            crate::class_outline::class_structures_with_model(
                puml_db::parse(db, input),
                puml_db::analysis(db, input, config),
            )
        })
    }

    /// The class-diagram element whose name is written at `offset`, if any.
    pub fn class_element_at(
        &self,
        file: FileId,
        offset: TextSize,
    ) -> Cancellable<Option<crate::class_symbols::ClassElementRef>> {
        self.with(file, move |db, input, config| {
            let analysis = puml_db::analysis(db, input, config);
            crate::class_symbols::class_element_at(analysis, input.text(db), offset)
        })
    }

    /// The participant whose name or alias is at `offset`, if any.
    pub fn participant_at(&self, file: FileId, offset: TextSize) -> Cancellable<Option<ParticipantRef>> {
        self.participant_where(file, CursorIn::Here(offset))
    }

    /// The participant that `file` sees at `offset` of a file it includes
    /// (`path`, as [`ParticipantRef::included_uses`] names it): how a
    /// rename started inside an included file finds what it renames in
    /// each file that includes it.
    pub fn participant_at_in_include(
        &self,
        file: FileId,
        path: &Path,
        offset: TextSize,
    ) -> Cancellable<Option<ParticipantRef>> {
        self.participant_where(file, CursorIn::Include(path.to_path_buf(), offset))
    }

    /// Whether `file`'s analysis read the included file `path`.
    pub fn includes(&self, file: FileId, path: &Path) -> Cancellable<bool> {
        let wanted = path.to_string_lossy().into_owned();
        self.with(file, move |db, input, config| {
            included_file_text(&puml_db::analysis(db, input, config).included_files, &wanted).is_some()
        })
    }

    /// The paths of the files `file`'s analysis read through `!include`.
    pub fn included_paths(&self, file: FileId) -> Cancellable<Vec<PathBuf>> {
        self.with(file, move |db, input, config| {
            puml_db::analysis(db, input, config)
                .included_files
                .iter()
                .map(|(path, _)| PathBuf::from(path))
                .collect()
        })
    }

    fn participant_where(&self, file: FileId, cursor: CursorIn) -> Cancellable<Option<ParticipantRef>> {
        self.with(file, move |db, input, config| {
            let analysis = puml_db::analysis(db, input, config);
            for (diagram, map) in analysis.document.diagrams.iter().zip(&analysis.source_map.diagrams) {
                for (index, participant) in diagram.participants.iter().enumerate() {
                    let text = input.text(db);
                    // Ranges of names read from an included file index that
                    // file, not this one: keep those that spell the name here.
                    let spells_name = |range: &TextRange| {
                        text.get(usize::from(range.start())..usize::from(range.end()))
                            .map(|s| s.trim_matches('"'))
                            .is_some_and(|s| s == participant.code || s == participant.name)
                    };
                    let uses: Vec<TextRange> = map
                        .participant_uses
                        .get(index)
                        .map(|uses| uses.iter().copied().filter(|r| spells_name(r)).collect())
                        .unwrap_or_default();
                    if let CursorIn::Here(offset) = cursor {
                        if !uses.iter().any(|r| r.contains_inclusive(offset)) {
                            continue;
                        }
                    }
                    let statement = map.participants.get(index).copied().unwrap_or_default();
                    let declared_here = text
                        .get(usize::from(statement.start())..usize::from(statement.end()))
                        .and_then(|s| s.split_whitespace().next())
                        .is_some_and(|first| first.eq_ignore_ascii_case(participant.kind.keyword()));
                    // The declaration: the name inside the declaring
                    // statement, else (declared in an include, or only
                    // used) the first use in this file (none for a
                    // participant only included files name: that case
                    // answers below without a declaration here).
                    let declaration = uses
                        .iter()
                        .copied()
                        .find(|r| declared_here && statement.contains_range(*r))
                        .or_else(|| uses.first().copied())
                        .unwrap_or_default();
                    let declared = declared_here;
                    // A use in an included file counts only where the text
                    // the analysis read spells the name there.
                    let mut included_uses = Vec::new();
                    for (file, range) in map.included_participant_uses.get(index).into_iter().flatten() {
                        let spelled = text_at(&analysis.included_files, file, *range)
                            .map(|s| s.trim_matches('"'))
                            .is_some_and(|s| s == participant.code || s == participant.name);
                        if spelled {
                            included_uses.push((PathBuf::from(file), *range));
                        }
                    }
                    included_uses.sort_by(|a, b| (&a.0, a.1.start(), a.1.end()).cmp(&(&b.0, b.1.start(), b.1.end())));
                    included_uses.dedup();
                    if let CursorIn::Include(path, offset) = &cursor {
                        if !included_uses
                            .iter()
                            .any(|(file, r)| file == path && r.contains_inclusive(*offset))
                        {
                            continue;
                        }
                        if uses.is_empty() {
                            // Used only in included files: no range here.
                            return Some(ParticipantRef {
                                code: participant.code.clone(),
                                name: participant.name.clone(),
                                alias: participant.alias.clone(),
                                kind: participant.kind,
                                declared: false,
                                declaration: TextRange::default(),
                                uses,
                                included_declaration: None,
                                included_uses,
                            });
                        }
                    }
                    // The name inside the declaring statement, else the statement.
                    let included_declaration =
                        map.included_participants
                            .get(index)
                            .cloned()
                            .flatten()
                            .map(|(file, statement)| {
                                let file = PathBuf::from(file);
                                included_uses
                                    .iter()
                                    .find(|(path, range)| *path == file && statement.contains_range(*range))
                                    .cloned()
                                    .unwrap_or((file, statement))
                            });
                    return Some(ParticipantRef {
                        code: participant.code.clone(),
                        name: participant.name.clone(),
                        alias: participant.alias.clone(),
                        kind: participant.kind,
                        declared,
                        declaration,
                        uses,
                        included_declaration,
                        included_uses,
                    });
                }
            }
            None
        })
    }

    /// The text of a file that `file` includes, as its analysis read it
    /// (the ranges of [`ParticipantRef::included_uses`] index it).
    pub fn included_text(&self, file: FileId, path: &Path) -> Cancellable<Option<String>> {
        let wanted = path.to_string_lossy().into_owned();
        self.with(file, move |db, input, config| {
            included_file_text(&puml_db::analysis(db, input, config).included_files, &wanted).map(str::to_string)
        })
    }

    /// The autonumber of every numbered message, in text order.
    pub fn message_numbers(&self, file: FileId) -> Cancellable<Vec<MessageNumber>> {
        self.with(file, |db, input, config| {
            let analysis = puml_db::analysis(db, input, config);
            let mut numbers = Vec::new();
            for (diagram, map) in analysis.document.diagrams.iter().zip(&analysis.source_map.diagrams) {
                for (event, statement) in diagram.events.iter().zip(&map.events) {
                    if let puml_sema::model::Event::Message(message) = event {
                        if let Some(number) = &message.number {
                            numbers.push(MessageNumber {
                                statement: *statement,
                                number: number.to_string(),
                            });
                        }
                    }
                }
            }
            numbers
        })
    }

    /// The highlighted tokens (semantic highlighting), in text order.
    pub fn highlights(&self, file: FileId) -> Cancellable<Vec<crate::highlight::Highlight>> {
        self.with(file, |db, input, _| highlighted(db, input).clone())
    }

    /// Every diagnostic (syntax, preprocessor, semantic), with byte ranges.
    pub fn diagnostics(&self, file: FileId) -> Cancellable<Vec<Diagnostic>> {
        self.with(file, |db, input, config| {
            puml_db::diagnostics(db, input, config).clone()
        })
    }

    /// Diagnostics located by line and column, with the model summary.
    pub fn check(&self, file: FileId) -> Cancellable<CheckReport> {
        self.with(file, |db, input, config| check_report(db, input, config).clone())
    }

    /// The semantic model.
    pub fn document(&self, file: FileId) -> Cancellable<Document> {
        self.with(file, |db, input, config| puml_db::document(db, input, config).clone())
    }

    /// The file's first activity diagram read as an agent workflow (seed
    /// 001), with the diagram's own diagnostics first, then the annotation
    /// notes'. No workflow when the diagram has errors.
    pub fn workflow_import(&self, file: FileId) -> Cancellable<crate::workflow::WorkflowReport> {
        self.with(file, |db, input, config| workflow_imported(db, input, config).clone())
    }

    /// [`Analysis::workflow_import`]'s diagnostics, then the six rules of
    /// seed 001 (templates checked against `registry` when one is given).
    pub fn workflow_validate(
        &self,
        file: FileId,
        registry: Option<&crate::workflow::TemplateRegistry>,
    ) -> Cancellable<Vec<Diagnostic>> {
        let registry = registry.cloned();
        self.with(file, move |db, input, config| {
            let report = workflow_imported(db, input, config);
            let mut out = report.diagnostics.clone();
            if let Some(import) = &report.import {
                out.extend(crate::workflow::validate::validate(
                    import,
                    input.text(db),
                    registry.as_ref(),
                ));
            }
            out
        })
    }

    /// Pages over all diagrams of the file.
    pub fn page_count(&self, file: FileId) -> Cancellable<usize> {
        self.with(file, |db, input, config| puml_db::summary(db, input, config).pages)
    }

    /// The file repaired by its machine-applicable fixes, to a fixpoint.
    pub fn fix_all(&self, file: FileId) -> Cancellable<FixOutcome> {
        self.with(file, |db, input, config| fixed(db, input, config).clone())
    }

    /// The participants of every diagram (name, alias, kind, declaration
    /// line, messages sent and received): the small part of
    /// [`Analysis::explain`] that hover and completion need.
    pub fn participants(&self, file: FileId) -> Cancellable<Vec<crate::explain::ParticipantSummary>> {
        self.with(file, |db, input, config| {
            participant_summaries(db, input, config).clone()
        })
    }

    /// The structure of every activity diagram of the file (blocks with
    /// their openers, closers and nesting, swimlanes, multi-line steps),
    /// for outlines, folding and completion.
    pub fn activity_outlines(&self, file: FileId) -> Cancellable<Vec<crate::outline::ActivityOutline>> {
        self.with(file, |db, input, config| activity_outlined(db, input, config).clone())
    }

    /// One explanation per diagram.
    pub fn explain(&self, file: FileId) -> Cancellable<Vec<Explanation>> {
        self.with(file, |db, input, config| explanations(db, input, config).clone())
    }

    pub fn lint(&self, file: FileId, options: &LintOptions) -> Cancellable<Vec<Diagnostic>> {
        let options = options.clone();
        self.with(file, move |db, input, config| {
            if options == LintOptions::default() {
                default_lint(db, input, config).clone()
            } else {
                let analysis = puml_db::analysis(db, input, config);
                lint_analysis(input.text(db), analysis, &options)
            }
        })
    }

    pub fn format(&self, file: FileId, options: &FormatOptions) -> Cancellable<String> {
        let indent_width = options.indent_width;
        self.with(file, move |db, input, _| formatted(db, input, indent_width).clone())
    }

    /// Edits that format the statements on the 0-based lines
    /// `first_line..=last_line`; the rest of the file is left as it is.
    pub fn format_range(
        &self,
        file: FileId,
        first_line: u32,
        last_line: u32,
        options: &FormatOptions,
    ) -> Cancellable<Vec<TextEdit>> {
        let options = options.clone();
        self.with(file, move |db, input, _| {
            crate::format::format_range(input.text(db), first_line, last_line, &options)
        })
    }

    pub fn normalize(&self, file: FileId, options: &NormalizeOptions) -> Cancellable<Normalized> {
        let options = options.clone();
        self.with(file, move |db, input, _| normalize(input.text(db), &options))
    }

    /// Renames the participant `from` (its code or its display name)
    /// everywhere it is written: in this file through the structural-edit
    /// engine, and in the included files that declare or use it (each use
    /// there that spells the code gets the new one).
    pub fn rename_participant(&self, file: FileId, from: &str, to: &str) -> Cancellable<Result<Rename, EditError>> {
        let (from, to) = (from.to_string(), to.to_string());
        self.with(file, move |db, input, config| {
            let edit = Edit::RenameParticipant {
                from: from.clone(),
                to: to.clone(),
            };
            let here = apply_edit(input.text(db), &edit)?;
            let analysis = puml_db::analysis(db, input, config);
            let new_code = crate::normalize::written_name(&to);
            let mut included: std::collections::BTreeMap<PathBuf, Vec<TextEdit>> = Default::default();
            for (diagram, map) in analysis.document.diagrams.iter().zip(&analysis.source_map.diagrams) {
                for (index, participant) in diagram.participants.iter().enumerate() {
                    if participant.code != from {
                        continue;
                    }
                    for (path, range) in map.included_participant_uses.get(index).into_iter().flatten() {
                        let written = text_at(&analysis.included_files, path, *range).map(|s| s.trim_matches('"'));
                        if written == Some(participant.code.as_str()) {
                            included
                                .entry(PathBuf::from(path))
                                .or_default()
                                .push(TextEdit::replace(*range, new_code.clone()));
                        }
                    }
                }
            }
            let included = included
                .into_iter()
                .map(|(path, mut edits)| {
                    edits.sort_by_key(|e| (e.range.start(), e.range.end()));
                    edits.dedup_by_key(|e| e.range);
                    (path, edits)
                })
                .collect();
            Ok(Rename {
                edits: here.edits,
                included,
            })
        })
    }

    pub fn apply_edit(&self, file: FileId, edit: &Edit) -> Cancellable<Result<EditResult, EditError>> {
        let edit = edit.clone();
        self.with(file, move |db, input, _| apply_edit(input.text(db), &edit))
    }

    /// The laid-out pages (`options.page` selects one, 1-based). The
    /// options' `check` field is ignored: the host knows the file's path.
    pub fn scenes(&self, file: FileId, options: &RenderOptions) -> Cancellable<Result<Vec<PageScene>, RenderFailure>> {
        let options = options.clone();
        self.with(file, move |db, input, config| {
            let key = RenderKey::from_options(db, &options, Format::SceneJson);
            page_scenes(db, input, config, key).clone()
        })
    }

    /// Renders the file (every page, or `options.page`).
    pub fn render(
        &self,
        file: FileId,
        options: &RenderOptions,
    ) -> Cancellable<Result<Vec<RenderedPage>, RenderFailure>> {
        let options = options.clone();
        self.with(file, move |db, input, config| {
            let key = RenderKey::from_options(db, &options, options.format);
            rendered(db, input, config, key).clone()
        })
    }

    /// One page (`options.page`, 1-based; the first when `None`) drawn as
    /// SVG only inside `region` (diagram coordinates, clamped to the page):
    /// what a preview shows of a page many screens long. The region is
    /// cut from the memoized layout (`page_scenes`, shared with
    /// [`Analysis::render`] of the same options), so scrolling lays nothing
    /// out again; the cut
    /// itself is cheap and not memoized, so regions do not pile up in the
    /// database.
    pub fn render_region(
        &self,
        file: FileId,
        options: &RenderOptions,
        region: Region,
    ) -> Cancellable<Result<RenderedRegion, RenderFailure>> {
        let options = options.clone();
        self.with(file, move |db, input, config| {
            if options.format != Format::Svg {
                return Err(RenderFailure::BadRegion(format!(
                    "a region is drawn as SVG only, not {}",
                    options.format.name()
                )));
            }
            let key = RenderKey::from_options(db, &options, Format::SceneJson);
            let pages = page_scenes(db, input, config, key).as_ref().map_err(Clone::clone)?;
            let page = pages.first().ok_or(RenderFailure::NoDiagram)?;
            crate::render::render_region(page, region)
        })
    }
}

/// The render-relevant options, interned so that a render is a query.
#[salsa::interned(debug)]
struct RenderKey {
    format: Format,
    #[returns(ref)]
    theme: Option<String>,
    page: Option<usize>,
    scale_bits: u64,
    max_participants: usize,
    max_events: usize,
}

impl RenderKey<'_> {
    fn from_options<'db>(db: &'db dyn puml_db::Db, options: &RenderOptions, format: Format) -> RenderKey<'db> {
        RenderKey::new(
            db,
            format,
            options.theme.clone(),
            options.page,
            options.scale.to_bits(),
            options.max_participants,
            options.max_events,
        )
    }
}

#[salsa::tracked(returns(ref))]
fn check_report(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> CheckReport {
    report_from_analysis(file.text(db), puml_db::analysis(db, file, config))
}

#[salsa::tracked(returns(ref))]
fn fixed(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> FixOutcome {
    let text = file.text(db);
    let diagnostics = puml_db::diagnostics(db, file, config);
    if !diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return FixOutcome {
            source: text.to_string(),
            applied: 0,
            rounds: 0,
            errors_before: 0,
            errors_after: 0,
        };
    }
    let options = CheckOptions {
        file_path: file.path(db).clone(),
        include_root: config.include_root(db).clone(),
        allow_url_includes: config.allow_url_includes(db),
    };
    crate::fix::fix_all(text, &options, &DbLoader::new(db))
}

#[salsa::tracked(returns(ref))]
fn participant_summaries(
    db: &dyn puml_db::Db,
    file: SourceFile,
    config: Config,
) -> Vec<crate::explain::ParticipantSummary> {
    explanations(db, file, config)
        .iter()
        .flat_map(|e| e.participants.iter().cloned())
        .collect()
}

/// The workflow of the file's first activity diagram; a tracked query, so
/// import, validate and a later export of the same revision share it.
#[salsa::tracked(returns(ref))]
fn workflow_imported(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> crate::workflow::WorkflowReport {
    let analysis = puml_db::analysis(db, file, config);
    let mut diagnostics = analysis.diagnostics.clone();
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return crate::workflow::WorkflowReport {
            import: None,
            diagnostics,
        };
    }
    let found = analysis
        .document
        .diagrams
        .iter()
        .zip(&analysis.source_map.diagrams)
        .find_map(|(diagram, map)| Some((diagram, diagram.activity.as_deref()?, map.activity.as_ref()?)));
    let Some((diagram, activity, map)) = found else {
        diagnostics.push(Diagnostic {
            code: crate::workflow::codes::NOT_ACTIVITY,
            severity: Severity::Error,
            message: "no activity diagram here: a workflow is an activity diagram (`start`, `:activity;`, swimlanes `|Agent|`)".to_string(),
            file: None,
            range: analysis.source_map.diagrams.first().map(|d| d.range).unwrap_or_default(),
            related: Vec::new(),
            fixes: Vec::new(),
        });
        return crate::workflow::WorkflowReport {
            import: None,
            diagnostics,
        };
    };
    let import = crate::workflow::import::import(
        activity,
        map,
        diagram.title.as_deref(),
        diagram.name.as_deref(),
        file.text(db),
    );
    diagnostics.extend(import.diagnostics.iter().cloned());
    crate::workflow::WorkflowReport {
        import: Some(import),
        diagnostics,
    }
}

#[salsa::tracked(returns(ref))]
fn highlighted(db: &dyn puml_db::Db, file: SourceFile) -> Vec<crate::highlight::Highlight> {
    crate::highlight::highlights(puml_db::parse(db, file))
}

#[salsa::tracked(returns(ref))]
fn explanations(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> Vec<Explanation> {
    explain_all_analysis(file.text(db), puml_db::analysis(db, file, config))
}

#[salsa::tracked(returns(ref))]
fn activity_outlined(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> Vec<crate::outline::ActivityOutline> {
    crate::outline::activity_outlines(file.text(db), puml_db::analysis(db, file, config))
}

#[salsa::tracked(returns(ref))]
fn default_lint(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> Vec<Diagnostic> {
    lint_analysis(
        file.text(db),
        puml_db::analysis(db, file, config),
        &LintOptions::default(),
    )
}

#[salsa::tracked(returns(ref))]
fn formatted(db: &dyn puml_db::Db, file: SourceFile, indent_width: usize) -> String {
    crate::format::format(file.text(db), &FormatOptions { indent_width })
}

/// Layout depends on the model only (`document`), never on the text: an
/// edit inside a comment leaves the model equal and stops before here.
#[salsa::tracked(returns(ref))]
fn page_scenes<'db>(
    db: &'db dyn puml_db::Db,
    file: SourceFile,
    config: Config,
    key: RenderKey<'db>,
) -> Result<Vec<PageScene>, RenderFailure> {
    if has_errors(db, file, config) {
        let report = check_report(db, file, config);
        return Err(RenderFailure::Diagnostics(report.diagnostics.clone()));
    }
    let document = puml_db::document(db, file, config);
    if document.diagrams.iter().any(|d| d.other_kind.is_some()) {
        if let Some(refusal) = crate::render::other_kind_refusal(&check_report(db, file, config).diagnostics) {
            return Err(refusal);
        }
    }
    let options = RenderOptions {
        format: *key.format(db),
        theme: key.theme(db).clone().or_else(|| config.theme(db).clone()),
        page: *key.page(db),
        scale: f64::from_bits(*key.scale_bits(db)),
        check: CheckOptions::default(),
        max_participants: *key.max_participants(db),
        max_events: *key.max_events(db),
    };
    scenes_for_document(document, &options)
}

/// Whether the file has errors, as a query of its own: its answer (a bool)
/// stays equal through most edits, so what depends on it is not re-run.
#[salsa::tracked(returns(copy))]
fn has_errors(db: &dyn puml_db::Db, file: SourceFile, config: Config) -> bool {
    puml_db::diagnostics(db, file, config)
        .iter()
        .any(|d| d.severity == Severity::Error)
}

#[salsa::tracked(returns(ref))]
fn rendered<'db>(
    db: &'db dyn puml_db::Db,
    file: SourceFile,
    config: Config,
    key: RenderKey<'db>,
) -> Result<Vec<RenderedPage>, RenderFailure> {
    let scene_key = RenderKey::new(
        db,
        Format::SceneJson,
        key.theme(db).clone(),
        *key.page(db),
        *key.scale_bits(db),
        *key.max_participants(db),
        *key.max_events(db),
    );
    let pages = page_scenes(db, file, config, scene_key).clone()?;
    let format = *key.format(db);
    let scale = f64::from_bits(*key.scale_bits(db));
    pages
        .into_iter()
        .map(|page| {
            let bytes = encode(&page.scene, format, scale).map_err(RenderFailure::Render)?;
            Ok(RenderedPage {
                diagram: page.diagram,
                page: page.page,
                name: page.name,
                width: page.scene.width,
                height: page.scene.height,
                format,
                bytes,
            })
        })
        .collect()
}

/// The text of an included file as the analysis read it (`included`: its
/// `(path, text)` pairs); the ranges of the source map's included uses
/// index this text.
/// Where a cursor is: in the file asked about, or in one it includes.
enum CursorIn {
    Here(TextSize),
    Include(PathBuf, TextSize),
}

fn included_file_text<'a>(included: &'a [(String, String)], path: &str) -> Option<&'a str> {
    included
        .iter()
        .find(|(name, _)| name == path)
        .map(|(_, text)| text.as_str())
}

/// The text at `range` of the included file `path`.
fn text_at<'a>(included: &'a [(String, String)], path: &str, range: TextRange) -> Option<&'a str> {
    included_file_text(included, path)?.get(usize::from(range.start())..usize::from(range.end()))
}
