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
    StagedWrite::stage(path, bytes, sync)?.commit()
}

/// The first half of an atomic write: the bytes are in a temporary file
/// beside the target, which [`StagedWrite::commit`] renames over the
/// target. Dropped without a commit, the temporary file is removed.
///
/// Split in two so a batch can create and fill its files on every core and
/// still give the targets their names in a fixed order on one thread
/// (`puml render DIR`: the first input naming an output keeps it): the
/// creation and the write are most of the time, the rename is short.
#[derive(Debug)]
pub struct StagedWrite {
    temporary: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl StagedWrite {
    /// Writes `bytes` to a new temporary file in `target`'s directory,
    /// synced when `sync` is asked for.
    pub fn stage(target: &Path, bytes: &[u8], sync: bool) -> io::Result<StagedWrite> {
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let file_name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(file_name);
        // Unique per call, not only per process: threads of one process (a
        // server, a parallel batch) may write beside each other.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let serial = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tmp_name.push(format!(".puml-tmp-{}-{serial}", std::process::id()));
        let staged = StagedWrite {
            temporary: dir.join(tmp_name),
            target: target.to_path_buf(),
            committed: false,
        };
        // From here on, a failure drops `staged`, which removes the file.
        let mut file = std::fs::File::create(&staged.temporary)?;
        file.write_all(bytes)?;
        if sync {
            file.sync_all()?;
        }
        Ok(staged)
    }

    /// The file this write replaces or creates.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames the temporary file over the target, keeping the permissions
    /// of a file it replaces.
    pub fn commit(mut self) -> io::Result<()> {
        if let Ok(meta) = std::fs::metadata(&self.target) {
            let _ = std::fs::set_permissions(&self.temporary, meta.permissions());
        }
        std::fs::rename(&self.temporary, &self.target)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for StagedWrite {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
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
        } else {
            // One `stat` answers both questions (a batch names every file).
            match std::fs::metadata(operand) {
                Ok(meta) if meta.is_dir() => walk_dir(operand, &mut files, &mut errors),
                Ok(_) => files.push(operand.clone()),
                Err(_) => errors.push(format!("{}: no such file or directory", operand.display())),
            }
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

    #[test]
    fn a_staged_write_touches_the_target_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("puml-fs-staged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("x.svg");
        std::fs::write(&target, "old").unwrap();
        let entries = || std::fs::read_dir(&dir).unwrap().count();

        let dropped = StagedWrite::stage(&target, b"abandoned", false).unwrap();
        assert_eq!(entries(), 2, "the bytes wait in a temporary file beside the target");
        drop(dropped);
        assert_eq!(entries(), 1, "an abandoned write leaves no temporary file");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");

        let staged = StagedWrite::stage(&target, b"new", false).unwrap();
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "old",
            "not before the commit"
        );
        assert_eq!(staged.target(), target.as_path());
        staged.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(entries(), 1);

        let nowhere = dir.join("missing-dir").join("y.svg");
        assert!(StagedWrite::stage(&nowhere, b"x", false).is_err());
        assert_eq!(entries(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
