//! The PlantUML preprocessor: a text-to-text pass that runs before parsing.
//!
//! It expands `!include` (local files, inside an include root only),
//! `!define` macros, `!$variables`, `!if`/`!while`/`!foreach`, user
//! procedures and functions and the `%` builtins, and keeps a line source
//! map so that every output line (and so every later diagnostic) points back
//! at the line it came from, also inside an included file.
//!
//! Everything is bounded (include depth, call depth, loop iterations, total
//! work, output size): no input makes it hang, overflow the stack or panic.
//! It never touches the network: URL includes go through
//! [`FileLoader::fetch_url`], and only when the caller opted in.

mod builtins;
pub mod codes;
mod colors;
mod engine;
mod expr;
mod include;
mod lines;
mod value;

#[cfg(test)]
mod tests;

use puml_syntax::Diagnostic;
use std::io;
use std::path::{Path, PathBuf};

/// Where the preprocessor reads included files from. Implementations decide
/// what is reachable; the preprocessor itself also refuses anything outside
/// the include root before it calls [`FileLoader::load`].
pub trait FileLoader {
    fn load(&self, path: &Path) -> io::Result<String>;

    /// Resolves symlinks, `.` and `..` so that the preprocessor can check
    /// that an include stays inside the root. In-memory loaders (tests, an
    /// editor's unsaved buffers) can override it with a lexical answer.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }

    /// Fetches a remote include. Only called when the caller set
    /// [`PreprocessOptions::allow_url_includes`]. puml ships no network
    /// client, so the default refuses.
    fn fetch_url(&self, url: &str) -> io::Result<String> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("remote includes are not available in puml (no network client): {url}"),
        ))
    }
}

/// Reads included files from the file system (files up to
/// [`FsLoader::MAX_FILE_BYTES`]).
pub struct FsLoader;

impl FsLoader {
    /// Far above any real include; keeps a stray `!include` of a huge file
    /// from being read at all.
    pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
}

impl FileLoader for FsLoader {
    fn load(&self, path: &Path) -> io::Result<String> {
        let len = std::fs::metadata(path)?.len();
        if len > Self::MAX_FILE_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the file is {len} bytes; includes are limited to {} bytes",
                    Self::MAX_FILE_BYTES
                ),
            ));
        }
        std::fs::read_to_string(path)
    }
}

/// Refuses every include.
pub struct NoIncludes;
impl FileLoader for NoIncludes {
    fn load(&self, _path: &Path) -> io::Result<String> {
        Err(io::Error::new(io::ErrorKind::PermissionDenied, "includes are disabled"))
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        Ok(include::normalize_lexically(path))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PreprocessOptions {
    /// Path of the main file; relative includes resolve against its
    /// directory. `None` for stdin or an editor buffer.
    pub file_path: Option<PathBuf>,
    /// Includes must resolve inside this directory. Default: the main
    /// file's directory. With neither set, local includes are refused.
    pub include_root: Option<PathBuf>,
    /// Lets `!includeurl` / `!include http…` reach [`FileLoader::fetch_url`].
    pub allow_url_includes: bool,
    pub max_include_depth: usize,
    pub max_output_bytes: usize,
    /// Maximum iterations of one `!while`/`!foreach` (PlantUML stops at 1000).
    pub max_loop_iterations: usize,
    /// Maximum nesting of procedure/function calls.
    pub max_call_depth: usize,
    /// Total work budget (directives executed, lines expanded, calls).
    pub max_steps: usize,
    /// Seconds since the Unix epoch for `%date`/`%now`; `None` reads the
    /// clock. Tests and reproducible builds set it.
    pub now: Option<i64>,
}

impl Default for PreprocessOptions {
    fn default() -> Self {
        PreprocessOptions {
            file_path: None,
            include_root: None,
            allow_url_includes: false,
            max_include_depth: 16,
            max_output_bytes: 8 * 1024 * 1024,
            max_loop_iterations: 1000,
            max_call_depth: 64,
            max_steps: 250_000,
            now: None,
        }
    }
}

/// Where one output line came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineOrigin {
    /// `None`: the main file; else the included file's resolved path (the
    /// same string as [`Diagnostic::file`]).
    pub file: Option<String>,
    /// 0-based line in that file. For lines produced by a procedure or a
    /// macro, the line of the call.
    pub line: u32,
    /// The output line's text equals the original line's text, so columns
    /// map 1:1.
    pub verbatim: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preprocessed {
    pub text: String,
    /// One entry per output line (the empty piece after a final newline is
    /// not a line).
    pub lines: Vec<LineOrigin>,
    pub diagnostics: Vec<Diagnostic>,
    /// `false` when `text` equals the input.
    pub changed: bool,
    /// `(path, text)` of every file included, in first-include order, with
    /// the path as in [`LineOrigin::file`] and [`Diagnostic::file`], so that
    /// callers can show and map lines without reading the files again.
    pub included: Vec<(String, String)>,
}

/// Runs the preprocessor over `text`.
pub fn preprocess(text: &str, options: &PreprocessOptions, loader: &dyn FileLoader) -> Preprocessed {
    if !needs_preprocessing(text) {
        return unchanged(text);
    }
    engine::run(text, options, loader)
}

/// [`preprocess`] for a text [`needs_preprocessing`] has already accepted
/// (the analysis asks first, to skip the options' copies): the scan is not
/// run a second time.
pub(crate) fn preprocess_needed(text: &str, options: &PreprocessOptions, loader: &dyn FileLoader) -> Preprocessed {
    engine::run(text, options, loader)
}

/// A cheap line scan: `true` when the text has a directive line (other than
/// `!theme`/`!pragma`, which the lowering reads itself) or a `%builtin(`
/// call. Without a directive no variable, macro or procedure can exist, so
/// nothing else could change.
pub fn needs_preprocessing(text: &str) -> bool {
    // A `!` matters only as a line's first non-blank character (a
    // directive), a `%` anywhere (a builtin call): one scan finds either,
    // and only their lines are looked at. (Two `memchr` passes, one per
    // byte, were 1.5 % of analysing the corpus, whose labels often hold a
    // `!`.) Both are ASCII, so every index found is a char boundary.
    let bytes = text.as_bytes();
    // The bounds of the line holding byte `at`.
    let line_of = |at: usize| {
        let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        (start, end)
    };
    let mut from = 0;
    while let Some(at) = find_bang_or_percent(bytes, from) {
        if bytes[at] == b'%' {
            let (start, end) = line_of(at);
            if line_needs_preprocessing(&text[start..end]) {
                return true;
            }
            // On to the next line: the whole line was looked at.
            from = end;
            continue;
        }
        from = at + 1;
        // Blanks back to the line's start make it a directive; ASCII blanks
        // are skipped by bytes, anything else decides through `trim_start`.
        let mut back = at;
        while back > 0 && matches!(bytes[back - 1], b' ' | b'\t') {
            back -= 1;
        }
        let first_on_line = match back.checked_sub(1).map(|i| bytes[i]) {
            None | Some(b'\n') => true,
            Some(b) if b.is_ascii() && !char::from(b).is_whitespace() => false,
            Some(_) => {
                let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                text[start..at].trim_start().is_empty()
            }
        };
        if first_on_line {
            let (start, end) = line_of(at);
            if line_needs_preprocessing(&text[start..end]) {
                return true;
            }
        }
    }
    false
}

/// The index of the first `!` or `%` at or after `from`. Sixteen bytes are
/// tested at a time as two words, with no branch per byte: `!` is 0x21 and
/// `%` 0x25, so with bit 2 set both read 0x25 and no other byte does, and a
/// word holds one when `(word | 0x04…) ^ 0x25…` has a zero byte (the usual
/// `(x - 0x01…) & !x & 0x80…` test, exact about whether there is one).
/// Only the block that holds one is searched byte by byte.
fn find_bang_or_percent(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const BIT2: u64 = u64::from_ne_bytes([0x04; 8]);
    const PERCENTS: u64 = u64::from_ne_bytes([b'%'; 8]);
    let wanted = |b: u8| b | 0x04 == b'%';
    let has_one = |word: &[u8]| {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let x = (u64::from_ne_bytes(eight) | BIT2) ^ PERCENTS;
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let rest = bytes.get(from..)?;
    let mut skipped = 0;
    for block in rest.chunks_exact(16) {
        if has_one(&block[..8]) | has_one(&block[8..]) != 0 {
            break;
        }
        skipped += 16;
    }
    rest[skipped..]
        .iter()
        .position(|&b| wanted(b))
        .map(|i| from + skipped + i)
}

/// Whether this one line makes a text need the preprocessor (see
/// [`needs_preprocessing`]).
pub(crate) fn line_needs_preprocessing(line: &str) -> bool {
    let trimmed = line.trim_start();
    if let Some(rest) = trimmed.strip_prefix('!') {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
            .to_ascii_lowercase();
        return word != "theme" && word != "pragma";
    }
    line.contains('%') && builtins::mentions_builtin_call(line)
}

fn unchanged(text: &str) -> Preprocessed {
    let count = lines::split_lines(text).len();
    Preprocessed {
        text: text.to_owned(),
        lines: (0..count)
            .map(|line| LineOrigin {
                file: None,
                line: line as u32,
                verbatim: true,
            })
            .collect(),
        diagnostics: Vec::new(),
        changed: false,
        included: Vec::new(),
    }
}
