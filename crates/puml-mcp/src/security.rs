//! The fail-closed layer between a client and the file system: allowed
//! roots, path resolution, the write policy and the include loader.
//!
//! Every path a client names goes through [`Roots::resolve_existing`] or
//! [`Roots::resolve_write_target`]; nothing else in the server opens a file
//! a client chose.

use puml_sema::FileLoader;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Largest diagram source accepted, inline or read from disk.
pub const MAX_SOURCE_BYTES: usize = 1_000_000;
/// Largest text carried in one result field; larger results are truncated with a note.
pub const MAX_OUTPUT_BYTES: usize = 1_000_000;
/// Largest binary artifact (PNG/PDF) returned inline, before base64.
pub const MAX_BINARY_OUTPUT_BYTES: usize = 4_000_000;
/// Most diagnostics returned by one call; the rest are summarized.
pub const MAX_DIAGNOSTICS: usize = 500;

/// Why a client-named path or write was refused. The message is shown to
/// the client; it names the rule, never the content of anything outside the roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

/// Diagnostic codes of the MCP layer (documented in docs/mcp.md).
pub mod codes {
    /// A path leaves the allowed roots (`..`, absolute path outside, symlink escape).
    pub const PATH_OUTSIDE_ROOTS: &str = "M0001";
    /// A path does not exist or cannot be read.
    pub const PATH_UNREADABLE: &str = "M0002";
    /// A write was requested without `write: true` and an explicit target.
    pub const WRITE_NOT_ALLOWED: &str = "M0003";
    /// The write target exists and `overwrite: true` was not given.
    pub const WOULD_OVERWRITE: &str = "M0004";
    /// The write failed (I/O error), or the target is not a plain file name.
    pub const WRITE_FAILED: &str = "M0005";
    /// An input or output exceeds its size limit.
    pub const TOO_LARGE: &str = "M0006";
    /// The tool failed internally; the server recovered and keeps serving.
    pub const INTERNAL: &str = "M0007";
    /// A remote include was requested; puml never fetches over the network.
    pub const REMOTE_INCLUDE: &str = "M0008";
    /// The request cannot be served with the given arguments (e.g. a page that does not exist).
    pub const UNSUPPORTED: &str = "M0009";
    /// A structural edit cannot be applied (unknown participant, line out of range…).
    pub const EDIT_REJECTED: &str = "M0010";
}

/// The directories a client may read from and write to: canonical, absolute,
/// and never widened after start-up.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Roots {
    dirs: Vec<PathBuf>,
}

impl Roots {
    /// Canonicalizes each directory; fails on one that does not exist or is not a directory.
    pub fn new(dirs: &[PathBuf]) -> io::Result<Roots> {
        let mut canonical = Vec::new();
        for dir in dirs {
            let path = dir
                .canonicalize()
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
            if !path.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{}: not a directory", dir.display()),
                ));
            }
            if !canonical.contains(&path) {
                canonical.push(path);
            }
        }
        Ok(Roots { dirs: canonical })
    }

    /// No root at all: every path is refused.
    pub fn none() -> Roots {
        Roots { dirs: Vec::new() }
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// The roots left after a client's roots narrow these: each client root
    /// inside a server root is kept; a server root inside a client root is
    /// kept; everything else is dropped. The result is never wider than `self`.
    pub fn narrowed_by(&self, client_dirs: &[PathBuf]) -> Roots {
        let mut dirs = Vec::new();
        for client in client_dirs {
            let Ok(client) = client.canonicalize() else { continue };
            for server in &self.dirs {
                let kept = if client.starts_with(server) {
                    client.clone()
                } else if server.starts_with(&client) {
                    server.clone()
                } else {
                    continue;
                };
                if !dirs.contains(&kept) {
                    dirs.push(kept);
                }
            }
        }
        Roots { dirs }
    }

    /// True when the canonical `path` lies inside one of the roots.
    pub fn contains(&self, canonical: &Path) -> bool {
        self.dirs.iter().any(|root| canonical.starts_with(root))
    }

    /// Resolves a client-named path to an existing file inside the roots.
    /// Relative paths are taken from the first root under which they exist.
    pub fn resolve_existing(&self, requested: &str) -> Result<PathBuf, Refusal> {
        let relative = self.check_syntax(requested)?;
        let candidates: Vec<PathBuf> = match &relative {
            Some(rel) => self.dirs.iter().map(|root| root.join(rel)).collect(),
            None => vec![PathBuf::from(requested)],
        };
        let mut resolved = None;
        for candidate in &candidates {
            if let Ok(canonical) = candidate.canonicalize() {
                resolved = Some(canonical);
                break;
            }
        }
        let Some(canonical) = resolved else {
            return Err(Refusal::new(
                codes::PATH_UNREADABLE,
                format!("{requested}: no such file inside the allowed roots"),
            ));
        };
        if !self.contains(&canonical) {
            return Err(Refusal::new(
                codes::PATH_OUTSIDE_ROOTS,
                format!("{requested}: resolves outside the allowed roots (symbolic link?); refused"),
            ));
        }
        Ok(canonical)
    }

    /// Resolves a directory (e.g. an include root) inside the roots.
    pub fn resolve_dir(&self, requested: &str) -> Result<PathBuf, Refusal> {
        let path = self.resolve_existing(requested)?;
        if path.is_dir() {
            Ok(path)
        } else {
            Err(Refusal::new(
                codes::PATH_UNREADABLE,
                format!("{requested}: not a directory"),
            ))
        }
    }

    /// Resolves the target of a write: its directory must lie inside the
    /// roots (missing directories are created there, never outside and
    /// never through a symbolic link), its name must be a plain file name,
    /// and it must not be a symbolic link or a directory. An existing file
    /// is refused unless `overwrite` is set. Returns the absolute target and
    /// whether it exists.
    pub fn resolve_write_target(&self, requested: &str, overwrite: bool) -> Result<(PathBuf, bool), Refusal> {
        let relative = self.check_syntax(requested)?;
        let requested_path = match &relative {
            Some(rel) => match self.dirs.first() {
                Some(root) => root.join(rel),
                None => return Err(no_roots()),
            },
            None => PathBuf::from(requested),
        };
        let file_name = match requested_path.file_name() {
            Some(name) => name.to_owned(),
            None => {
                return Err(Refusal::new(
                    codes::WRITE_FAILED,
                    format!("{requested}: not a file name"),
                ))
            }
        };
        let parent = requested_path.parent().unwrap_or(Path::new("/"));
        let parent = self.writable_dir(requested, parent)?;
        let target = parent.join(file_name);
        let exists = match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(Refusal::new(
                    codes::PATH_OUTSIDE_ROOTS,
                    format!("{requested}: is a symbolic link; puml does not write through links"),
                ))
            }
            Ok(meta) if meta.is_dir() => {
                return Err(Refusal::new(
                    codes::WRITE_FAILED,
                    format!("{requested}: is a directory"),
                ))
            }
            Ok(_) => true,
            Err(_) => false,
        };
        if exists && !overwrite {
            return Err(Refusal::new(
                codes::WOULD_OVERWRITE,
                format!("{requested}: already exists; pass overwrite: true to replace it"),
            ));
        }
        Ok((target, exists))
    }

    /// The directory `dir` of a write target, canonical and inside the
    /// roots; missing directories are created one at a time, each checked
    /// again after creation (not a link, still inside the roots).
    fn writable_dir(&self, requested: &str, dir: &Path) -> Result<PathBuf, Refusal> {
        let outside = || {
            Refusal::new(
                codes::PATH_OUTSIDE_ROOTS,
                format!("{requested}: outside the allowed roots; refused"),
            )
        };
        let unreadable = || {
            Refusal::new(
                codes::PATH_UNREADABLE,
                format!("{requested}: its directory cannot be reached inside the allowed roots"),
            )
        };
        // The nearest existing ancestor decides where the path really is.
        let mut existing = dir.to_path_buf();
        let mut missing = Vec::new();
        while std::fs::symlink_metadata(&existing).is_err() {
            let Some(name) = existing.file_name().map(|n| n.to_owned()) else {
                return Err(unreadable());
            };
            missing.push(name);
            if !existing.pop() {
                return Err(unreadable());
            }
        }
        let mut current = existing.canonicalize().map_err(|_| unreadable())?;
        if !self.contains(&current) || !current.is_dir() {
            return Err(if self.contains(&current) {
                unreadable()
            } else {
                outside()
            });
        }
        for name in missing.iter().rev() {
            let next = current.join(name);
            match std::fs::create_dir(&next) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(Refusal::new(
                        codes::WRITE_FAILED,
                        format!("{requested}: cannot create {}: {e}", next.display()),
                    ))
                }
            }
            let is_plain_dir =
                std::fs::symlink_metadata(&next).is_ok_and(|m| m.is_dir() && !m.file_type().is_symlink());
            let canonical = next.canonicalize().map_err(|_| unreadable())?;
            if !is_plain_dir || !self.contains(&canonical) {
                return Err(outside());
            }
            current = canonical;
        }
        Ok(current)
    }

    /// Rejects empty paths, NUL bytes, `..` components and absolute paths
    /// outside the roots. Returns the relative path, or `None` for an
    /// absolute path that starts inside a root.
    fn check_syntax(&self, requested: &str) -> Result<Option<PathBuf>, Refusal> {
        if self.dirs.is_empty() {
            return Err(no_roots());
        }
        if requested.is_empty() || requested.contains('\0') {
            return Err(Refusal::new(
                codes::PATH_UNREADABLE,
                "the path is empty or contains a NUL byte",
            ));
        }
        let path = Path::new(requested);
        if path.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(Refusal::new(
                codes::PATH_OUTSIDE_ROOTS,
                format!("{requested}: `..` is not allowed in paths"),
            ));
        }
        if path.is_absolute() {
            if self.dirs.iter().any(|root| path.starts_with(root)) {
                return Ok(None);
            }
            return Err(Refusal::new(
                codes::PATH_OUTSIDE_ROOTS,
                format!("{requested}: absolute path outside the allowed roots; refused"),
            ));
        }
        let relative: PathBuf = path.components().filter(|c| !matches!(c, Component::CurDir)).collect();
        if relative.as_os_str().is_empty() {
            return Err(Refusal::new(
                codes::PATH_UNREADABLE,
                format!("{requested}: names no file"),
            ));
        }
        Ok(Some(relative))
    }

    /// Shows a canonical path relative to the root that holds it.
    pub fn display(&self, canonical: &Path) -> String {
        for root in &self.dirs {
            if let Ok(rel) = canonical.strip_prefix(root) {
                if self.dirs.len() == 1 {
                    return rel.display().to_string();
                }
                return canonical.display().to_string();
            }
        }
        canonical.display().to_string()
    }
}

fn no_roots() -> Refusal {
    Refusal::new(
        codes::PATH_OUTSIDE_ROOTS,
        "no workspace root is allowed (the client's roots do not overlap the server's --root directories)",
    )
}

/// Reads a client-named diagram file inside the roots, bounded in size.
pub fn read_source_file(roots: &Roots, requested: &str) -> Result<(PathBuf, String), Refusal> {
    let path = roots.resolve_existing(requested)?;
    if !path.is_file() {
        return Err(Refusal::new(codes::PATH_UNREADABLE, format!("{requested}: not a file")));
    }
    let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    if len > MAX_SOURCE_BYTES as u64 {
        return Err(too_large_input(len as usize));
    }
    let bytes = std::fs::read(&path).map_err(|e| Refusal::new(codes::PATH_UNREADABLE, format!("{requested}: {e}")))?;
    match puml_ide::check::decode_source(&bytes) {
        Ok(text) => Ok((path, text.to_string())),
        Err(diagnostic) => Err(Refusal::new(
            diagnostic.code,
            format!("{requested}: {}", diagnostic.message),
        )),
    }
}

pub fn too_large_input(len: usize) -> Refusal {
    Refusal::new(
        codes::TOO_LARGE,
        format!("the source is {len} bytes; the limit is {MAX_SOURCE_BYTES} bytes"),
    )
}

/// The `!include` loader handed to the analysis: local files only, and only
/// inside the roots; URLs are never fetched (puml has no network access),
/// whatever `allow_url_includes` says.
pub struct RootedLoader {
    roots: Roots,
}

impl RootedLoader {
    pub fn new(roots: Roots) -> RootedLoader {
        RootedLoader { roots }
    }
}

pub fn is_url(path: &Path) -> bool {
    let text = path.to_string_lossy();
    let lower = text.trim_start().to_ascii_lowercase();
    ["http:", "https:", "ftp:", "file:", "data:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

impl FileLoader for RootedLoader {
    fn load(&self, path: &Path) -> io::Result<String> {
        if is_url(path) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "remote includes are never fetched by the puml MCP server (no network access)",
            ));
        }
        let canonical = path.canonicalize()?;
        if !self.roots.contains(&canonical) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "the include lies outside the allowed roots",
            ));
        }
        let len = std::fs::metadata(&canonical)?.len();
        if len > MAX_SOURCE_BYTES as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the included file is larger than 1 MB",
            ));
        }
        std::fs::read_to_string(&canonical)
    }
}

/// Cuts `text` to at most `limit` bytes on a character boundary.
pub fn truncate_utf8(text: &mut String, limit: usize) -> bool {
    if text.len() <= limit {
        return false;
    }
    let mut cut = limit;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_tree(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("puml-mcp-sec-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root/sub")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("root/a.puml"), "@startuml\nA -> B\n@enduml\n").unwrap();
        std::fs::write(dir.join("outside/secret.puml"), "secret").unwrap();
        dir
    }

    #[test]
    fn relative_paths_resolve_inside_and_traversal_is_refused() {
        let dir = temp_tree("rel");
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        assert!(roots.resolve_existing("a.puml").is_ok());
        assert!(roots.resolve_existing("./a.puml").is_ok());
        let refused = roots.resolve_existing("../outside/secret.puml").unwrap_err();
        assert_eq!(refused.code, codes::PATH_OUTSIDE_ROOTS);
        let refused = roots.resolve_existing("sub/../a.puml").unwrap_err();
        assert_eq!(refused.code, codes::PATH_OUTSIDE_ROOTS);
        let missing = roots.resolve_existing("nope.puml").unwrap_err();
        assert_eq!(missing.code, codes::PATH_UNREADABLE);
        assert_eq!(roots.resolve_existing("").unwrap_err().code, codes::PATH_UNREADABLE);
        assert_eq!(roots.resolve_existing(".").unwrap_err().code, codes::PATH_UNREADABLE);
        assert_eq!(roots.resolve_existing("a\0b").unwrap_err().code, codes::PATH_UNREADABLE);
    }

    #[test]
    fn absolute_paths_must_start_inside_a_root() {
        let dir = temp_tree("abs");
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        let inside = roots.dirs()[0].join("a.puml");
        assert_eq!(roots.resolve_existing(&inside.to_string_lossy()).unwrap(), inside);
        let outside = dir.join("outside/secret.puml");
        let refused = roots.resolve_existing(&outside.to_string_lossy()).unwrap_err();
        assert_eq!(refused.code, codes::PATH_OUTSIDE_ROOTS);
        assert!(roots.resolve_existing("/etc/passwd").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn symlink_escapes_are_refused_for_reads_and_writes() {
        let dir = temp_tree("link");
        std::os::unix::fs::symlink(dir.join("outside/secret.puml"), dir.join("root/link.puml")).unwrap();
        std::os::unix::fs::symlink(dir.join("outside"), dir.join("root/linkdir")).unwrap();
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        assert_eq!(
            roots.resolve_existing("link.puml").unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
        assert_eq!(
            roots.resolve_existing("linkdir/secret.puml").unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
        assert_eq!(
            roots.resolve_write_target("link.puml", true).unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
        assert_eq!(
            roots.resolve_write_target("linkdir/new.svg", true).unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
        // A missing directory under a link that leaves the root is refused
        // before anything is created.
        assert_eq!(
            roots
                .resolve_write_target("linkdir/made/new.svg", true)
                .unwrap_err()
                .code,
            codes::PATH_OUTSIDE_ROOTS
        );
        assert!(!dir.join("outside/made").exists());
    }

    #[test]
    fn write_targets_need_overwrite_for_existing_files() {
        let dir = temp_tree("write");
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        let (target, exists) = roots.resolve_write_target("out.svg", false).unwrap();
        assert!(!exists);
        assert_eq!(target, roots.dirs()[0].join("out.svg"));
        assert_eq!(
            roots.resolve_write_target("a.puml", false).unwrap_err().code,
            codes::WOULD_OVERWRITE
        );
        assert!(roots.resolve_write_target("a.puml", true).unwrap().1);
        assert_eq!(
            roots.resolve_write_target("sub", true).unwrap_err().code,
            codes::WRITE_FAILED
        );
        // Missing directories inside the root are created.
        let (target, exists) = roots.resolve_write_target("missing/deeper/x.svg", false).unwrap();
        assert!(!exists);
        assert_eq!(target, roots.dirs()[0].join("missing/deeper/x.svg"));
        assert!(roots.dirs()[0].join("missing/deeper").is_dir());
        assert_eq!(
            roots.resolve_write_target("../x.svg", true).unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
        assert_eq!(
            roots.resolve_write_target("/tmp/x.svg", true).unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
    }

    #[test]
    fn client_roots_only_narrow() {
        let dir = temp_tree("narrow");
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        let narrowed = roots.narrowed_by(&[dir.join("root/sub"), dir.join("outside"), dir.join("does-not-exist")]);
        assert_eq!(narrowed.dirs(), &[dir.join("root/sub").canonicalize().unwrap()]);
        let wider = roots.narrowed_by(std::slice::from_ref(&dir));
        assert_eq!(wider.dirs(), roots.dirs());
        let disjoint = roots.narrowed_by(&[dir.join("outside")]);
        assert!(disjoint.is_empty());
        assert_eq!(
            disjoint.resolve_existing("a.puml").unwrap_err().code,
            codes::PATH_OUTSIDE_ROOTS
        );
        assert!(disjoint.resolve_write_target("a.svg", true).is_err());
    }

    #[test]
    fn missing_root_is_an_error() {
        let dir = temp_tree("missing");
        assert!(Roots::new(&[dir.join("nope")]).is_err());
        assert!(Roots::new(&[dir.join("root/a.puml")]).is_err());
        let twice = Roots::new(&[dir.join("root"), dir.join("root/.")]).unwrap();
        assert_eq!(twice.dirs().len(), 1);
    }

    #[test]
    fn loader_refuses_urls_and_files_outside() {
        let dir = temp_tree("loader");
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        let loader = RootedLoader::new(roots.clone());
        assert!(loader.load(&roots.dirs()[0].join("a.puml")).is_ok());
        assert!(loader.load(&dir.join("outside/secret.puml")).is_err());
        assert!(loader.load(Path::new("https://example.com/x.puml")).is_err());
        assert!(loader.load(Path::new("http://127.0.0.1/x.puml")).is_err());
        assert!(loader.load(&roots.dirs()[0].join("missing.puml")).is_err());
    }

    #[test]
    fn read_source_file_bounds_size_and_encoding() {
        let dir = temp_tree("read");
        std::fs::write(dir.join("root/big.puml"), vec![b'a'; MAX_SOURCE_BYTES + 1]).unwrap();
        std::fs::write(dir.join("root/bin.puml"), [0u8, 159, 146, 150]).unwrap();
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        assert!(read_source_file(&roots, "a.puml").is_ok());
        assert_eq!(read_source_file(&roots, "big.puml").unwrap_err().code, codes::TOO_LARGE);
        assert_eq!(
            read_source_file(&roots, "bin.puml").unwrap_err().code,
            puml_sema::codes::INVALID_UTF8
        );
        assert_eq!(
            read_source_file(&roots, "sub").unwrap_err().code,
            codes::PATH_UNREADABLE
        );
    }

    #[test]
    fn truncation_keeps_char_boundaries() {
        let mut text = "ééé".to_string();
        assert!(truncate_utf8(&mut text, 3));
        assert_eq!(text, "é");
        let mut short = "ab".to_string();
        assert!(!truncate_utf8(&mut short, 3));
    }

    #[test]
    fn display_is_root_relative() {
        let dir = temp_tree("display");
        let roots = Roots::new(&[dir.join("root")]).unwrap();
        assert_eq!(roots.display(&roots.dirs()[0].join("sub/x.puml")), "sub/x.puml");
        assert_eq!(roots.display(Path::new("/elsewhere")), "/elsewhere");
    }
}
