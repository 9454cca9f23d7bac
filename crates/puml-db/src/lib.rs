//! The salsa database: one place where puml's phases become memoized,
//! incremental queries.
//!
//! Inputs: [`SourceFile`] (a path and its text; included files become
//! inputs on demand, the first time an `!include` reads them) and
//! [`Config`] (include root, URL-include opt-in, theme override).
//! Queries, each a thin wrapper over a pure function of the phase crates:
//! `parse` → `analysis` (preprocess + lower + diagnostics) → `document`
//! (the position-free model, a firewall: an edit that leaves the model equal
//! stops here) → `summary`, `scenes` (layout) → render (see `render_queries`).

mod render_queries;

pub use render_queries::scenes;

use puml_sema::model::Document;
use puml_sema::{Analysis, AnalysisOptions, FileLoader, FsLoader};
use puml_syntax::{Diagnostic, Parse};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: Option<PathBuf>,
    /// Shared (`Arc`): the editor side that produced the text, the
    /// remembered parse and every snapshot hold the same bytes, so an edit
    /// copies a 150 KB file once instead of once per holder.
    #[returns(ref)]
    pub text: Arc<str>,
}

#[salsa::input(debug)]
pub struct Config {
    #[returns(ref)]
    pub include_root: Option<PathBuf>,
    #[returns(copy)]
    pub allow_url_includes: bool,
    #[returns(ref)]
    pub theme: Option<String>,
}

#[salsa::db]
pub trait Db: salsa::Database {
    /// The input for a file read by `!include`, created on first use.
    fn included_file(&self, path: &Path) -> io::Result<SourceFile>;
    /// The parse of `text` for `file`: re-parses only the edited statement
    /// when the file's previous parse is remembered, then remembers this one.
    fn parse_with_memory(&self, file: SourceFile, text: &Arc<str>) -> Parse;
    /// The loader behind [`Db::included_file`], for path questions
    /// (canonical form, URLs) that do not read a file.
    fn include_loader(&self) -> &dyn FileLoader;
    /// The analysis of the file parsed as `parse`: derived from the file's
    /// previous analysis when the edit only changed one message's label,
    /// else `analyze()`; then remembered for the next edit.
    fn analysis_with_memory(
        &self,
        key: (SourceFile, Config),
        parse: &Parse,
        analyze: &dyn Fn() -> Analysis,
    ) -> Arc<Analysis>;
}

/// A file's last parse with the text it was made from (shared with the input).
type RememberedParse = (Arc<str>, Parse);

/// A file's last analysis with the parse it was made from.
type RememberedAnalysis = (Parse, Arc<Analysis>);

/// A parse or analysis an edit replaced.
enum Garbage {
    Parse(#[allow(dead_code)] RememberedParse),
    Analysis(#[allow(dead_code)] RememberedAnalysis),
}

/// Values an edit replaced, kept alive a little longer so that freeing them
/// (a walk over every node and event: a tenth of a label edit in a
/// 5,000-line file) happens off the path from an edit to its diagnostics.
/// Salsa frees a replaced memo at the revision after next; while a value
/// sits here that is a reference count going down, and the real free
/// happens when a consumer drops what [`Database::take_garbage`] hands out
/// (the language server does it after publishing diagnostics, off its
/// request path). A value is handed out only after a second call, when
/// salsa has let go of it. A consumer that never asks keeps a bounded
/// amount: past [`Retired::LIMIT`] values the oldest are freed in place.
#[derive(Default)]
struct Retired {
    /// Retired since the last `take_garbage`: salsa may still hold them.
    fresh: Vec<Garbage>,
    /// Retired before it: salsa has let go of them since.
    aged: Vec<Garbage>,
}

impl Retired {
    const LIMIT: usize = 8;
}

/// Replaced parses and analyses handed out by [`Database::take_garbage`]:
/// dropping this frees them (do it where the time does not matter).
#[must_use = "dropping the garbage frees it; drop it where the time does not matter"]
pub struct RetiredValues(#[allow(dead_code)] Vec<Garbage>);

/// The database. Cloning it gives a snapshot for another thread; a stale
/// snapshot stops with `salsa::Cancelled` at the next write.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    included: Arc<Mutex<HashMap<PathBuf, SourceFile>>>,
    /// The last parse of each file and its text. Not a salsa value: the
    /// result of `parse` does not depend on it (a re-parse equals a full
    /// parse), it only makes the next one cheaper.
    last_parses: Arc<Mutex<HashMap<SourceFile, RememberedParse>>>,
    /// The last analysis of each file (per configuration), for the same
    /// reason: a label edit derives the next one from it.
    last_analyses: Arc<Mutex<HashMap<(SourceFile, Config), RememberedAnalysis>>>,
    retired: Arc<Mutex<Retired>>,
    log: Option<Arc<Mutex<Vec<String>>>>,
    /// Reads included files (and decides which may be read): the file
    /// system by default; a consumer with a sandbox (the MCP server's
    /// roots) passes its own. Fixed for the database's lifetime.
    loader: Arc<dyn FileLoader + Send + Sync>,
}

impl Default for Database {
    fn default() -> Self {
        Database {
            storage: salsa::Storage::new(None),
            included: Default::default(),
            last_parses: Default::default(),
            last_analyses: Default::default(),
            retired: Default::default(),
            log: None,
            loader: Arc::new(FsLoader),
        }
    }
}

impl Database {
    /// A database that records which queries execute (for tests and
    /// `puml` debugging): see [`Database::take_log`].
    pub fn with_execution_log() -> Database {
        let log: Arc<Mutex<Vec<String>>> = Default::default();
        let sink = log.clone();
        Database {
            storage: salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
                if let salsa::EventKind::WillExecute { database_key } = event.kind {
                    if let Ok(mut log) = sink.lock() {
                        log.push(format!("{database_key:?}"));
                    }
                }
            }))),
            included: Default::default(),
            last_parses: Default::default(),
            last_analyses: Default::default(),
            retired: Default::default(),
            log: Some(log),
            loader: Arc::new(FsLoader),
        }
    }

    /// The same database reading includes through `loader`. Call it before
    /// the first query: files already read keep their text.
    pub fn with_loader(mut self, loader: Arc<dyn FileLoader + Send + Sync>) -> Database {
        self.loader = loader;
        self
    }

    /// The loader includes are read with.
    pub fn loader(&self) -> &(dyn FileLoader + Send + Sync) {
        &*self.loader
    }

    /// The queries executed since the last call, e.g. `parse(Id(0))`.
    pub fn take_log(&self) -> Vec<String> {
        self.log
            .as_ref()
            .and_then(|l| l.lock().ok().map(|mut l| std::mem::take(&mut *l)))
            .unwrap_or_default()
    }

    /// Drops what the database remembers of `file` outside salsa (its last
    /// parse and analysis, kept to make the next edit cheap), for a file
    /// that is closed or removed.
    pub fn forget(&self, file: SourceFile) {
        if let Ok(mut memory) = self.last_parses.lock() {
            memory.remove(&file);
        }
        if let Ok(mut memory) = self.last_analyses.lock() {
            memory.retain(|(remembered, _), _| *remembered != file);
        }
    }

    /// The replaced parses and analyses salsa no longer holds, for the
    /// caller to drop off its latency path (see `Retired`).
    pub fn take_garbage(&self) -> RetiredValues {
        let Ok(mut retired) = self.retired.lock() else {
            return RetiredValues(Vec::new());
        };
        let fresh = std::mem::take(&mut retired.fresh);
        RetiredValues(std::mem::replace(&mut retired.aged, fresh))
    }

    fn retire(&self, garbage: Garbage) {
        let Ok(mut retired) = self.retired.lock() else {
            return;
        };
        if retired.fresh.len() >= Retired::LIMIT {
            // Nobody collects: age in place (the oldest are freed here).
            let fresh = std::mem::take(&mut retired.fresh);
            let aged = std::mem::replace(&mut retired.aged, fresh);
            drop(retired);
            drop(aged);
            if let Ok(mut retired) = self.retired.lock() {
                retired.fresh.push(garbage);
            }
            return;
        }
        retired.fresh.push(garbage);
    }

    /// Re-reads every included file from disk; changed ones become new revisions.
    pub fn refresh_included_files(&mut self) {
        use salsa::Setter;
        let files: Vec<(PathBuf, SourceFile)> = match self.included.lock() {
            Ok(map) => map.iter().map(|(p, f)| (p.clone(), *f)).collect(),
            Err(_) => return,
        };
        for (path, file) in files {
            let text = self.loader.load(&path).unwrap_or_default();
            if **file.text(self) != *text {
                file.set_text(self).to(text.into());
            }
        }
    }
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn included_file(&self, path: &Path) -> io::Result<SourceFile> {
        let mut map = self
            .included
            .lock()
            .map_err(|_| io::Error::other("include table poisoned"))?;
        if let Some(file) = map.get(path) {
            return Ok(*file);
        }
        let text = self.loader.load(path)?;
        let file = SourceFile::new(self, Some(path.to_path_buf()), text.into());
        map.insert(path.to_path_buf(), file);
        Ok(file)
    }

    fn include_loader(&self) -> &dyn FileLoader {
        &*self.loader
    }

    fn analysis_with_memory(
        &self,
        key: (SourceFile, Config),
        parse: &Parse,
        analyze: &dyn Fn() -> Analysis,
    ) -> Arc<Analysis> {
        let derived = self.last_analyses.lock().ok().and_then(|memory| {
            let (old_parse, old) = memory.get(&key)?;
            puml_sema::reanalyze_label_edit(old_parse, old, parse)
        });
        let analysis = Arc::new(derived.unwrap_or_else(analyze));
        let replaced = self
            .last_analyses
            .lock()
            .ok()
            .and_then(|mut memory| memory.insert(key, (parse.clone(), analysis.clone())));
        if let Some(old) = replaced {
            self.retire(Garbage::Analysis(old));
        }
        analysis
    }

    fn parse_with_memory(&self, file: SourceFile, text: &Arc<str>) -> Parse {
        let Ok(mut memory) = self.last_parses.lock() else {
            return puml_syntax::parse(text);
        };
        let parse = match memory.get(&file) {
            Some((old_text, old_parse)) => old_parse.reparse(old_text, text),
            None => puml_syntax::parse(text),
        };
        // The text is shared with the input, not copied; the replaced
        // entry is retired rather than freed here (see `Retired`).
        if let Some(old) = memory.insert(file, (text.clone(), parse.clone())) {
            self.retire(Garbage::Parse(old));
        }
        parse
    }
}

/// Reads includes through the database, so that each included file is an
/// input and an edit to it re-runs exactly the queries that read it.
pub struct DbLoader<'a> {
    db: &'a dyn Db,
}

impl<'a> DbLoader<'a> {
    pub fn new(db: &'a dyn Db) -> DbLoader<'a> {
        DbLoader { db }
    }
}

impl FileLoader for DbLoader<'_> {
    fn load(&self, path: &Path) -> io::Result<String> {
        let file = self.db.included_file(path)?;
        Ok(file.text(self.db).to_string())
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.db.include_loader().canonicalize(path)
    }
    fn fetch_url(&self, url: &str) -> io::Result<String> {
        self.db.include_loader().fetch_url(url)
    }
}

/// `no_eq`: comparing a new tree with the old one costs a walk over both,
/// and after an edit they differ anyway (the text did).
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    db.parse_with_memory(file, file.text(db))
}

/// `no_eq`: ranges shift with almost every edit, so the comparison would
/// rarely pay; `document` below is the firewall. An edit inside one
/// message's label is derived from the previous analysis instead of
/// lowering the whole file again (see `puml_sema::reanalyze_label_edit`).
#[salsa::tracked(returns(deref), no_eq)]
pub fn analysis(db: &dyn Db, file: SourceFile, config: Config) -> Arc<Analysis> {
    let text = file.text(db);
    let parsed = parse(db, file);
    let analyze = || {
        let options = AnalysisOptions {
            file_path: file.path(db).clone(),
            include_root: config.include_root(db).clone(),
            allow_url_includes: config.allow_url_includes(db),
        };
        let loader = DbLoader { db };
        puml_sema::analyze_parsed(text, parsed, &options, &loader)
    };
    db.analysis_with_memory((file, config), parsed, &analyze)
}

/// The model alone: equal after edits that only move text, so the queries
/// below it are not re-run. Shared with `analysis` (an `Arc`), not copied.
#[salsa::tracked(returns(deref))]
pub fn document(db: &dyn Db, file: SourceFile, config: Config) -> Arc<Document> {
    analysis(db, file, config).document.clone()
}

#[salsa::tracked(returns(ref))]
pub fn diagnostics(db: &dyn Db, file: SourceFile, config: Config) -> Vec<Diagnostic> {
    analysis(db, file, config).diagnostics.clone()
}

/// Counts over the model, as `puml check` and `puml_check` report them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ModelSummary {
    pub diagrams: usize,
    pub participants: usize,
    pub events: usize,
    pub pages: usize,
}

#[salsa::tracked(returns(copy))]
pub fn summary(db: &dyn Db, file: SourceFile, config: Config) -> ModelSummary {
    let document = document(db, file, config);
    ModelSummary {
        diagrams: document.diagrams.len(),
        participants: document.diagrams.iter().map(|d| d.participants.len()).sum(),
        events: document.diagrams.iter().map(|d| d.events.len()).sum(),
        pages: document.diagrams.iter().map(|d| d.page_count()).sum(),
    }
}
