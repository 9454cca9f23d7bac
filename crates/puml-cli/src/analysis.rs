//! The command line's way into the compiler: every input is a file of an
//! [`AnalysisHost`] (one host per input; in a batch, one per worker, each
//! file replacing the last: [`BatchHost`]).

use puml_ide::check::{decode_source, undecodable_report, CheckOptions, CheckReport};
use puml_ide::{Analysis, AnalysisHost, Cancellable, FileId, HostConfig};
use std::path::PathBuf;

/// A snapshot holding one file.
pub fn open(path: Option<PathBuf>, text: &str, include_root: Option<PathBuf>) -> (Analysis, FileId) {
    let config = HostConfig {
        include_root,
        ..HostConfig::default()
    };
    let (host, file) = puml_ide::AnalysisHost::single_file(path, text.to_string(), config);
    (host.analysis(), file)
}

/// A snapshot for the file `options` describes.
pub fn open_with(text: &str, options: &CheckOptions) -> (Analysis, FileId) {
    open(options.file_path.clone(), text, options.include_root.clone())
}

/// One worker's host in a batch: each input replaces the previous input's
/// file, so a worker creates one database for all its files and the
/// database holds the queries of one file at a time.
#[derive(Default)]
pub struct BatchHost {
    held: Option<(AnalysisHost, FileId)>,
}

impl BatchHost {
    /// A snapshot holding the file `options` describes. The previous
    /// snapshot must be dropped first: changing the host waits for it.
    pub fn open(&mut self, text: &str, options: &CheckOptions) -> (Analysis, FileId) {
        let config = HostConfig {
            include_root: options.include_root.clone(),
            ..HostConfig::default()
        };
        match &mut self.held {
            Some((host, file)) => {
                host.set_config(config);
                host.replace_file(*file, options.file_path.clone(), text.to_string());
                (host.analysis(), *file)
            }
            None => {
                let (host, file) = AnalysisHost::single_file(options.file_path.clone(), text.to_string(), config);
                let analysis = host.analysis();
                self.held = Some((host, file));
                (analysis, file)
            }
        }
    }

    /// Checks raw bytes; bytes that are not UTF-8 are one diagnostic.
    pub fn check_bytes(&mut self, bytes: &[u8], options: &CheckOptions) -> CheckReport {
        match decode_source(bytes) {
            Ok(text) => {
                let (analysis, file) = self.open(text, options);
                answer(analysis.check(file))
            }
            Err(diagnostic) => undecodable_report(bytes, &diagnostic),
        }
    }
}

/// The answer of a host no one else changes: it cannot be cancelled.
pub fn answer<T>(result: Cancellable<T>) -> T {
    match result {
        Ok(value) => value,
        Err(cancelled) => unreachable!("a host owned by one command is never changed under it: {cancelled}"),
    }
}

/// Checks raw bytes; bytes that are not UTF-8 are one diagnostic.
pub fn check_bytes(bytes: &[u8], options: &CheckOptions) -> CheckReport {
    BatchHost::default().check_bytes(bytes, options)
}

pub fn check_text(text: &str, options: &CheckOptions) -> CheckReport {
    let (analysis, file) = open_with(text, options);
    answer(analysis.check(file))
}
