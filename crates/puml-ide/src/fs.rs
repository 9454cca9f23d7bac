//! File-system helpers shared by the CLI and the servers: diagram discovery
//! and atomic writes. Nothing else in puml touches the disk for writing.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// File extensions recognised as diagram sources.
pub const DIAGRAM_EXTENSIONS: [&str; 4] = ["puml", "plantuml", "pu", "iuml"];

pub fn is_diagram_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| DIAGRAM_EXTENSIONS.iter().any(|d| d.eq_ignore_ascii_case(e)))
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, flushed and synced, then renamed over the target. A reader
/// sees either the old file or the new one, never a mix. For what the user
/// wrote (a source rewritten by `fmt`, `--fix`, an edit): the sync makes the
/// new text survive a crash right after the command returns.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_replacing(path, bytes, true)
}

/// Writes a generated artifact (a rendered SVG/PNG/PDF, an exported file)
/// atomically like [`write_atomic`], but syncs it to disk only when `sync`
/// is asked for: it can always be generated again, and a sync per output
/// file was a third of the time of rendering a directory.
pub fn write_generated(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    write_replacing(path, bytes, sync)
}

fn write_replacing(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    // Unique per call, not only per process: threads of one process (a
    // server, a parallel batch) may write beside each other.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tmp_name.push(format!(".puml-tmp-{}-{serial}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        if sync {
            file.sync_all()?;
        }
        if let Ok(meta) = std::fs::metadata(path) {
            let _ = std::fs::set_permissions(&tmp, meta.permissions());
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Expands CLI operands into diagram files: files as given, directories
/// searched recursively for [`DIAGRAM_EXTENSIONS`] (sorted, symlinked
/// directories not followed), and `*`/`?` globs in the last path component.
pub fn collect_diagram_files(operands: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for operand in operands {
        let text = operand.to_string_lossy();
        if text.contains('*') || text.contains('?') {
            let (dir, pattern) = match operand.parent() {
                Some(p) if !p.as_os_str().is_empty() => (p.to_path_buf(), operand.file_name()),
                _ => (PathBuf::from("."), operand.file_name()),
            };
            let pattern = pattern.map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
            let mut matched: Vec<PathBuf> = match std::fs::read_dir(&dir) {
                Ok(entries) => entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_file())
                    .filter(|p| {
                        p.file_name()
                            .is_some_and(|n| glob_match(&pattern, &n.to_string_lossy()))
                    })
                    .collect(),
                Err(e) => {
                    errors.push(format!("{}: {e}", dir.display()));
                    continue;
                }
            };
            matched.sort();
            if matched.is_empty() {
                errors.push(format!("{text}: no file matches"));
            }
            files.extend(matched);
        } else if operand.is_dir() {
            walk_dir(operand, &mut files, &mut errors);
        } else if operand.exists() {
            files.push(operand.clone());
        } else {
            errors.push(format!("{}: no such file or directory", operand.display()));
        }
    }
    (files, errors)
}

fn walk_dir(root: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let mut stack = vec![root.to_path_buf()];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                errors.push(format!("{}: {e}", dir.display()));
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(file_type) = entry.file_type() else { continue };
            if file_type.is_dir() {
                let hidden = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
                if !hidden && path.file_name().is_none_or(|n| n != "target" && n != "node_modules") {
                    stack.push(path);
                }
            } else if is_diagram_path(&path) && (file_type.is_file() || path.is_file()) {
                found.push(path);
            }
        }
    }
    found.sort();
    files.extend(found);
}

/// `*` matches any run of characters, `?` exactly one.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*.puml", "a.puml"));
        assert!(glob_match("a?c*", "abcdef"));
        assert!(!glob_match("*.puml", "a.pu"));
    }

    #[test]
    fn atomic_write_replaces_content() {
        let dir = std::env::temp_dir().join(format!("puml-fs-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("x.puml");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "two");
        let leftovers = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
