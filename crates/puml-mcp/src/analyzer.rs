//! The server's one analysis host: every tool, resource and REST call asks
//! it, so a file checked, rendered and edited in one session is parsed once
//! per revision, and a repeated request is a lookup.
//!
//! A host reads `!include`s through a [`RootedLoader`], so there is one host
//! per set of roots in force (a client may narrow the server's roots); in
//! practice that is one host for the server's lifetime. Files read from
//! disk are keyed by path; sources passed inline share a small pool of
//! slots keyed by their text, so memory stays bounded however many
//! different sources a client sends.

use crate::security::{RootedLoader, Roots};
use puml_ide::check::{CheckOptions, CheckReport};
use puml_ide::{Analysis, AnalysisHost, Cancellable, FileId, HostConfig};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// Inline sources remembered per host (least recently used goes first).
const INLINE_SLOTS: usize = 32;
/// Hosts remembered (one per distinct set of roots).
const MAX_HOSTS: usize = 4;
/// A request cancelled this many times by concurrent edits is answered by
/// a private host instead, so it cannot starve.
const MAX_ATTEMPTS: usize = 4;

struct Slot {
    host: AnalysisHost,
    /// Inline sources: text hash → file, most recently used last.
    inline: Vec<(u64, FileId)>,
}

#[derive(Default)]
pub struct Analyzer {
    hosts: Mutex<HashMap<Roots, Slot>>,
    /// Hosts record the queries they execute (tests and benchmarks).
    log_queries: bool,
}

/// The analyzer of this process.
pub fn shared() -> &'static Analyzer {
    static ANALYZER: OnceLock<Analyzer> = OnceLock::new();
    ANALYZER.get_or_init(Analyzer::default)
}

/// What a tool needs to analyse a source: the analyzer and the roots its
/// includes are confined to.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub analyzer: &'a Analyzer,
    pub roots: &'a Roots,
}

impl Sources<'_> {
    /// Answers `query` about `text`, seen as the file `options` describes.
    pub fn run<T>(&self, text: &str, options: &CheckOptions, query: impl Fn(&Analysis, FileId) -> Cancellable<T>) -> T {
        self.analyzer.run(self.roots, text, options, query)
    }

    pub fn check(&self, text: &str, options: &CheckOptions) -> CheckReport {
        self.run(text, options, |analysis, file| analysis.check(file))
    }
}

impl Analyzer {
    /// An analyzer whose hosts record the queries they execute.
    pub fn with_execution_log() -> Analyzer {
        Analyzer {
            log_queries: true,
            ..Analyzer::default()
        }
    }

    /// The queries the host for `roots` executed since the last call.
    pub fn take_execution_log(&self, roots: &Roots) -> Vec<String> {
        self.hosts
            .lock()
            .ok()
            .and_then(|hosts| hosts.get(roots).map(|slot| slot.host.take_execution_log()))
            .unwrap_or_default()
    }

    pub fn run<T>(
        &self,
        roots: &Roots,
        text: &str,
        options: &CheckOptions,
        query: impl Fn(&Analysis, FileId) -> Cancellable<T>,
    ) -> T {
        for _ in 0..MAX_ATTEMPTS {
            let Some((analysis, file)) = self.open(roots, text, options) else {
                break;
            };
            // The snapshot is dropped before the next attempt takes the lock:
            // a change waits for every snapshot, so holding one there would
            // deadlock.
            if let Ok(answer) = query(&analysis, file) {
                return answer;
            }
        }
        let mut host = AnalysisHost::with_loader(Arc::new(RootedLoader::new(roots.clone())));
        host.set_config(host_config(options));
        let file = host.add_file(options.file_path.clone(), text.to_string());
        let analysis = host.analysis();
        match query(&analysis, file) {
            Ok(answer) => answer,
            Err(cancelled) => unreachable!("a private host is never changed: {cancelled}"),
        }
    }

    /// Puts `text` into the host for `roots` and takes a snapshot; `None`
    /// when the lock is poisoned (a private host answers then).
    fn open(&self, roots: &Roots, text: &str, options: &CheckOptions) -> Option<(Analysis, FileId)> {
        let mut hosts = self.hosts.lock().ok()?;
        if !hosts.contains_key(roots) && hosts.len() >= MAX_HOSTS {
            hosts.clear();
        }
        let log_queries = self.log_queries;
        let slot = hosts.entry(roots.clone()).or_insert_with(|| {
            let loader = Arc::new(RootedLoader::new(roots.clone()));
            Slot {
                host: if log_queries {
                    AnalysisHost::with_loader_and_execution_log(loader)
                } else {
                    AnalysisHost::with_loader(loader)
                },
                inline: Vec::new(),
            }
        });
        slot.host.set_config(host_config(options));
        let file = match &options.file_path {
            Some(path) => slot.host.add_file(Some(path.clone()), text.to_string()),
            None => slot.inline_file(text),
        };
        Some((slot.host.analysis(), file))
    }
}

impl Slot {
    fn inline_file(&mut self, text: &str) -> FileId {
        let mut hasher = DefaultHasher::new();
        text.hash(&mut hasher);
        let key = hasher.finish();
        if let Some(at) = self.inline.iter().position(|(k, _)| *k == key) {
            let (_, file) = self.inline.remove(at);
            self.inline.push((key, file));
            // Equal text is no change; a hash collision replaces the text.
            self.host.set_file_text(file, text.to_string());
            return file;
        }
        let file = if self.inline.len() >= INLINE_SLOTS {
            let (_, file) = self.inline.remove(0);
            self.host.set_file_text(file, text.to_string());
            file
        } else {
            self.host.add_file(None, text.to_string())
        };
        self.inline.push((key, file));
        file
    }
}

fn host_config(options: &CheckOptions) -> HostConfig {
    HostConfig {
        include_root: options.include_root.clone(),
        allow_url_includes: options.allow_url_includes,
        theme: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_inline_check_is_answered_from_the_same_file() {
        let roots = Roots::new(&[std::env::temp_dir()]).expect("temp dir is a root");
        let analyzer = Analyzer::default();
        let options = CheckOptions::default();
        let text = "@startuml\nA -> B : hi\n@enduml\n";
        let first = analyzer.run(&roots, text, &options, |a, f| Ok((f, a.check(f)?)));
        let second = analyzer.run(&roots, text, &options, |a, f| Ok((f, a.check(f)?)));
        assert_eq!(first, second);
        let other = analyzer.run(&roots, "@startuml\nA -> C\n@enduml\n", &options, |_, f| Ok(f));
        assert_ne!(other, first.0);
    }

    #[test]
    fn a_repeated_request_executes_no_query() {
        let roots = Roots::new(&[std::env::temp_dir()]).expect("temp dir is a root");
        let analyzer = Analyzer::with_execution_log();
        let options = CheckOptions::default();
        let text = "@startuml\nA -> B : hi\nB --> A : ok\n@enduml\n";
        let svg = puml_ide::render::RenderOptions::default();
        let ask = || {
            let report = analyzer.run(&roots, text, &options, |a, f| a.check(f));
            let pages = analyzer.run(&roots, text, &options, |a, f| a.render(f, &svg));
            let explained = analyzer.run(&roots, text, &options, |a, f| a.explain(f));
            (report, pages.map(|p| p.len()).ok(), explained.len())
        };
        let first = ask();
        let log = analyzer.take_execution_log(&roots);
        assert!(log.iter().any(|q| q.starts_with("parse(")), "{log:?}");
        assert_eq!(ask(), first);
        assert_eq!(analyzer.take_execution_log(&roots), Vec::<String>::new());
        // The same text from a file path is a file of its own: analysed once.
        let on_disk = CheckOptions {
            file_path: Some(std::env::temp_dir().join("analyzer-log.puml")),
            ..CheckOptions::default()
        };
        analyzer.run(&roots, text, &on_disk, |a, f| a.check(f));
        assert!(!analyzer.take_execution_log(&roots).is_empty());
        analyzer.run(&roots, text, &on_disk, |a, f| a.check(f));
        assert!(analyzer.take_execution_log(&roots).is_empty());
    }

    #[test]
    fn inline_slots_are_bounded() {
        let roots = Roots::new(&[std::env::temp_dir()]).expect("temp dir is a root");
        let analyzer = Analyzer::default();
        let options = CheckOptions::default();
        let mut files = std::collections::BTreeSet::new();
        for i in 0..(INLINE_SLOTS * 3) {
            let text = format!("@startuml\nA -> B : {i}\n@enduml\n");
            let (file, ok) = analyzer.run(&roots, &text, &options, |a, f| Ok((f, a.check(f)?.ok())));
            assert!(ok);
            files.insert(file);
        }
        assert_eq!(files.len(), INLINE_SLOTS);
    }
}
