//! The files that include a given one (the reverse of `!include`), for
//! references and renames started inside an included file: a participant
//! declared in `parts.iuml` is renamed in every diagram that includes it.
//!
//! An included file is not a diagram on its own: what its names mean is
//! known only in the files that include it. So the candidates (the editor's
//! open documents, then diagram files under the workspace roots, bounded in
//! number and size) are filtered by a cheap text test (an `!include` line
//! naming the file), analysed in a private [`AnalysisHost`] that reads
//! includes through the open documents first (unsaved text wins), and kept
//! when their analysis read the file. Each includer then answers through
//! the same features as a rename started in it.

use crate::edit::EditError;
use crate::host::{AnalysisHost, FileId, HostConfig};
use puml_sema::{FileLoader, FsLoader};
use puml_syntax::{TextEdit, TextRange, TextSize};
use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// At most this many files are read under the workspace roots.
pub const MAX_FILES: usize = 2_000;
/// Files larger than this are not read as candidates.
pub const MAX_BYTES: u64 = 1 << 20;
/// Directories never searched (build output, dependencies, VCS data).
const SKIPPED_DIRS: &[&str] = &["target", "node_modules", ".git", ".hg", ".svn"];

/// The diagram files under `roots` (the extensions the CLI and the
/// servers read, [`crate::fs::DIAGRAM_EXTENSIONS`], and `.wsd`), breadth first (an explicit queue, no
/// recursion), at most [`MAX_FILES`], each at most [`MAX_BYTES`].
pub fn candidate_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut queue: std::collections::VecDeque<PathBuf> = roots.iter().cloned().collect();
    let mut directories_seen = 0usize;
    while let Some(dir) = queue.pop_front() {
        directories_seen += 1;
        if directories_seen > MAX_FILES {
            break;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_ref()) {
                    queue.push_back(path);
                }
            } else if kind.is_file()
                && (crate::fs::is_diagram_path(&path) || is_wsd(&path))
                && entry.metadata().is_ok_and(|m| m.len() <= MAX_BYTES)
            {
                found.push(path);
                if found.len() >= MAX_FILES {
                    return found;
                }
            }
        }
    }
    found
}

/// `.wsd`: editors attach the language server to it too (docs/editors.md),
/// though the CLI does not search directories for it.
fn is_wsd(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wsd"))
}

/// Whether `text` has an `!include` line that may name `target` (its file
/// name appears on the line): the cheap test before an analysis decides.
pub fn may_include(text: &str, target: &Path) -> bool {
    let Some(name) = target.file_name().map(|n| n.to_string_lossy()) else {
        return false;
    };
    text.lines().any(|line| {
        let line = line.trim_start();
        line.get(..8).is_some_and(|head| head.eq_ignore_ascii_case("!include")) && line.contains(name.as_ref())
    })
}

/// Reads includes from the open documents first, then from disk.
struct OpenFirst {
    open: HashMap<PathBuf, Arc<str>>,
}

impl FileLoader for OpenFirst {
    fn load(&self, path: &Path) -> io::Result<String> {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match self.open.get(&key).or_else(|| self.open.get(path)) {
            Some(text) => Ok(text.to_string()),
            None => FsLoader.load(path),
        }
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        FsLoader.canonicalize(path)
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What [`Includers::preprocessor_references`] finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreprocessorReferences {
    /// With its `$` (`$greet`).
    pub name: String,
    /// The occurrence at the cursor, in the target.
    pub range: TextRange,
    /// Every occurrence, `(canonical file, range)`, sorted.
    pub occurrences: Vec<(PathBuf, TextRange)>,
}

/// Edits per file: canonical path, edits sorted by range.
pub type FileEdits = Vec<(PathBuf, Vec<TextEdit>)>;

/// The files that include one file, analysed.
pub struct Includers {
    host: AnalysisHost,
    /// Each includer with the path its analysis names the target by.
    files: Vec<(PathBuf, FileId, PathBuf)>,
}

impl Includers {
    /// The files among `open` (path and current text of each open
    /// document) and the diagram files under `roots` whose analysis reads
    /// `target`, directly or through another include.
    pub fn find(config: HostConfig, open: &[(PathBuf, Arc<str>)], roots: &[PathBuf], target: &Path) -> Includers {
        let target_key = canonical(target);
        let overlay: HashMap<PathBuf, Arc<str>> = open
            .iter()
            .map(|(path, text)| (canonical(path), text.clone()))
            .collect();
        let mut host = AnalysisHost::with_loader(Arc::new(OpenFirst { open: overlay.clone() }));
        host.set_config(config);
        let mut candidates: BTreeMap<PathBuf, Arc<str>> = BTreeMap::new();
        for (path, text) in &overlay {
            if *path != target_key && may_include(text, target) {
                candidates.insert(path.clone(), text.clone());
            }
        }
        for path in candidate_files(roots) {
            let key = canonical(&path);
            if key == target_key || candidates.contains_key(&key) || overlay.contains_key(&key) {
                continue;
            }
            if let Ok(text) = std::fs::read_to_string(&path) {
                if may_include(&text, target) {
                    candidates.insert(key, Arc::from(text));
                }
            }
        }
        let mut added = Vec::new();
        for (path, text) in candidates {
            let file = host.add_file(Some(path.clone()), text);
            added.push((path, file));
        }
        // The private host never changes after this: no answer below is
        // ever cancelled, so a cancellation reads as "not found".
        let analysis = host.analysis();
        let mut files = Vec::new();
        for (path, file) in added {
            let named = analysis
                .included_paths(file)
                .unwrap_or_default()
                .into_iter()
                .find(|included| canonical(included) == target_key);
            if let Some(named) = named {
                files.push((path, file, named));
            }
        }
        Includers { host, files }
    }

    /// The paths of the including files found.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.files.iter().map(|(path, _, _)| path.clone()).collect()
    }

    /// Every occurrence of the participant at `offset` of the target, in
    /// the including files and in every file they include (the target
    /// included): `(file, range)` sorted, without repeats.
    pub fn participant_references(&self, offset: TextSize) -> Vec<(PathBuf, TextRange)> {
        let analysis = self.host.analysis();
        let mut found = Vec::new();
        for (path, file, named) in &self.files {
            let Ok(Some(participant)) = analysis.participant_at_in_include(*file, named, offset) else {
                continue;
            };
            found.extend(participant.uses.iter().map(|r| (path.clone(), *r)));
            found.extend(participant.included_uses.iter().map(|(p, r)| (canonical(p), *r)));
        }
        found.sort_by(|a, b| (&a.0, a.1.start(), a.1.end()).cmp(&(&b.0, b.1.start(), b.1.end())));
        found.dedup();
        found
    }

    /// The participant at `offset` of the target renamed to `to` in every
    /// including file and every file they include: the edits per file
    /// (canonical paths), each file's sorted and without repeats (an
    /// included file read by two includers gets its edits once). `None`
    /// when no includer sees a participant there.
    pub fn rename_participant(&self, offset: TextSize, to: &str) -> Option<Result<FileEdits, EditError>> {
        let analysis = self.host.analysis();
        let mut edits: BTreeMap<PathBuf, Vec<TextEdit>> = BTreeMap::new();
        let mut any = false;
        for (path, file, named) in &self.files {
            let Ok(Some(participant)) = analysis.participant_at_in_include(*file, named, offset) else {
                continue;
            };
            any = true;
            let renamed = match analysis.rename_participant(*file, &participant.code, to) {
                Ok(Ok(renamed)) => renamed,
                Ok(Err(error)) => return Some(Err(error)),
                Err(_cancelled) => continue,
            };
            edits.entry(path.clone()).or_default().extend(renamed.edits);
            for (included, more) in renamed.included {
                edits.entry(canonical(&included)).or_default().extend(more);
            }
        }
        if !any {
            return None;
        }
        Some(Ok(edits
            .into_iter()
            .map(|(path, mut list)| {
                list.sort_by(|a, b| {
                    (a.range.start(), a.range.end(), &a.new_text).cmp(&(b.range.start(), b.range.end(), &b.new_text))
                });
                list.dedup();
                (path, list)
            })
            .collect()))
    }

    /// The range of the participant's name at `offset` of the target, as
    /// the first includer that sees one there reads it (what a rename
    /// started there replaces).
    pub fn participant_name_at(&self, offset: TextSize) -> Option<(String, TextRange)> {
        let analysis = self.host.analysis();
        for (_, file, named) in &self.files {
            let Ok(Some(participant)) = analysis.participant_at_in_include(*file, named, offset) else {
                continue;
            };
            let range = participant
                .included_uses
                .iter()
                .find(|(path, range)| path == named && range.contains_inclusive(offset))
                .map(|(_, range)| *range)?;
            return Some((participant.code, range));
        }
        None
    }

    /// The preprocessor name (`$variable`, procedure, function) at
    /// `offset` of the target, as the includers read it: its name, its
    /// range in the target, and every occurrence in the including files
    /// and every file they include (the target too), `(file, range)`
    /// sorted, without repeats. `None` when no includer reads a name
    /// there. An includer that defines the same name itself, before the
    /// include, reads its own: the occurrences follow each includer's
    /// reading, as a rename started in it would.
    pub fn preprocessor_references(&self, offset: TextSize) -> Option<PreprocessorReferences> {
        let analysis = self.host.analysis();
        let mut found: Option<PreprocessorReferences> = None;
        for (path, file, named) in &self.files {
            let Ok(symbols) = analysis.preprocessor_symbols(*file) else {
                continue;
            };
            let named_key = canonical(named);
            let here = |(p, range): &(PathBuf, TextRange)| {
                range.contains_inclusive(offset) && (p == named || canonical(p) == named_key)
            };
            let Some((symbol, range)) = symbols
                .iter()
                .find_map(|s| s.included_uses.iter().find(|u| here(u)).map(|(_, range)| (s, *range)))
            else {
                continue;
            };
            let entry = found.get_or_insert_with(|| PreprocessorReferences {
                name: symbol.name.clone(),
                range,
                occurrences: Vec::new(),
            });
            if entry.name != symbol.name {
                continue;
            }
            entry.occurrences.extend(symbol.uses.iter().map(|r| (path.clone(), *r)));
            entry
                .occurrences
                .extend(symbol.included_uses.iter().map(|(p, r)| (canonical(p), *r)));
        }
        let mut found = found?;
        found
            .occurrences
            .sort_by(|a, b| (&a.0, a.1.start(), a.1.end()).cmp(&(&b.0, b.1.start(), b.1.end())));
        found.occurrences.dedup();
        Some(found)
    }

    /// The text of `path` as the analyses read it (an including file, or a
    /// file one of them includes), for converting ranges to positions.
    pub fn text(&self, path: &Path) -> Option<String> {
        let analysis = self.host.analysis();
        let key = canonical(path);
        for (includer, file, _) in &self.files {
            if *includer == key {
                return analysis.file_text(*file).ok();
            }
        }
        for (_, file, _) in &self.files {
            for included in analysis.included_paths(*file).unwrap_or_default() {
                if canonical(&included) == key {
                    if let Ok(Some(text)) = analysis.included_text(*file, &included) {
                        return Some(text);
                    }
                }
            }
        }
        None
    }
}
