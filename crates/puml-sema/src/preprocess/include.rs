//! Resolving `!include` targets, confined to the include root.
//!
//! Two checks, both required: the lexical path (after `.`/`..`) must lie
//! inside the root, and so must the canonical path (after symlinks), so that
//! neither `../../etc/passwd` nor a symlink pointing out of the root gets
//! through.

use super::FileLoader;
use std::path::{Component, Path, PathBuf};

/// What an include line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Local {
        path: String,
        /// `file!2` (0-based diagram index) or `file!NAME` (a `@startuml(id=NAME)`
        /// diagram, or the `!startsub NAME` part for `!includesub`).
        selector: Option<String>,
    },
    Url(String),
    /// `<C4/C4_Sequence>`: PlantUML's bundled standard library.
    Stdlib(String),
}

pub(crate) fn parse_target(text: &str) -> Target {
    let text = text.trim();
    if text.starts_with('<') && text.ends_with('>') && text.len() >= 2 {
        return Target::Stdlib(text[1..text.len() - 1].to_owned());
    }
    let unquoted = text;
    if is_url(unquoted) {
        return Target::Url(unquoted.to_owned());
    }
    // A selector follows the last `!` (file names with `!` are rare; PlantUML
    // reads them the same way).
    match unquoted.rsplit_once('!') {
        Some((path, selector)) if !path.is_empty() => Target::Local {
            path: path.trim().to_owned(),
            selector: Some(selector.trim().to_owned()),
        },
        _ => Target::Local {
            path: unquoted.to_owned(),
            selector: None,
        },
    }
}

pub(crate) fn is_url(text: &str) -> bool {
    let lower = text.trim_start().to_ascii_lowercase();
    ["http://", "https://", "ftp://", "file:", "data:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

/// Resolves `.` and `..` without touching the file system. `..` above the
/// start is kept so that the root check fails on it.
pub(crate) fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) | Some(Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

pub(crate) enum ResolveError {
    OutsideRoot,
    NotFound(String),
}

pub(crate) struct Resolved {
    /// The lexical path, as shown in diagnostics and the line map.
    pub display: PathBuf,
    pub canonical: PathBuf,
}

pub(crate) struct Root {
    lexical: PathBuf,
    canonical: PathBuf,
}

impl Root {
    pub fn new(dir: &Path, loader: &dyn FileLoader) -> Root {
        let lexical = normalize_lexically(&absolute(dir));
        let canonical = loader.canonicalize(&lexical).unwrap_or_else(|_| lexical.clone());
        Root { lexical, canonical }
    }

    pub fn resolve(&self, target: &str, base_dir: &Path, loader: &dyn FileLoader) -> Result<Resolved, ResolveError> {
        let target_path = Path::new(target);
        let joined = if target_path.is_absolute() {
            target_path.to_path_buf()
        } else {
            base_dir.join(target_path)
        };
        let lexical = normalize_lexically(&absolute(&joined));
        if !lexical.starts_with(&self.lexical) && !lexical.starts_with(&self.canonical) {
            return Err(ResolveError::OutsideRoot);
        }
        let canonical = loader
            .canonicalize(&lexical)
            .map_err(|e| ResolveError::NotFound(e.to_string()))?;
        if !canonical.starts_with(&self.canonical) {
            return Err(ResolveError::OutsideRoot);
        }
        Ok(Resolved {
            display: lexical,
            canonical,
        })
    }
}

/// Makes a relative path absolute against the current directory, so that
/// the root check compares like with like. Falls back to the path itself.
fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    match std::env::current_dir() {
        Ok(cwd) => cwd.join(path),
        Err(_) => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert_eq!(
            parse_target("a b.iuml"),
            Target::Local {
                path: "a b.iuml".into(),
                selector: None
            }
        );
        assert_eq!(
            parse_target("x.iuml!PART"),
            Target::Local {
                path: "x.iuml".into(),
                selector: Some("PART".into())
            }
        );
        assert_eq!(
            parse_target("<C4/C4_Sequence>"),
            Target::Stdlib("C4/C4_Sequence".into())
        );
        assert_eq!(parse_target("https://x/y.puml"), Target::Url("https://x/y.puml".into()));
    }

    #[test]
    fn lexical_normalization_keeps_escapes_visible() {
        assert_eq!(normalize_lexically(Path::new("/r/a/../b/./c")), PathBuf::from("/r/b/c"));
        assert_eq!(normalize_lexically(Path::new("/r/../../x")), PathBuf::from("/x"));
        assert_eq!(normalize_lexically(Path::new("../x")), PathBuf::from("../x"));
    }
}
