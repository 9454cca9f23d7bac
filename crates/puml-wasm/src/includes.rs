//! `!include` in the browser: there is no file system, so the caller may
//! hand over a resolver (a JavaScript function in the WebAssembly build)
//! that answers a path with the file's text. The preprocessor keeps its own
//! bounds (include depth, output size, total work); these add a cap on the
//! number of files one request may ask for and on each file's size, so a
//! resolver that answers every path with a large text cannot make a
//! request slow.

use puml_sema::{FileLoader, NoIncludes};
use std::cell::{Cell, RefCell};
use std::io;
use std::path::{Path, PathBuf};

/// Answers an include path (relative to the virtual root, `/` separated,
/// e.g. `parts/common.iuml`) with the file's text, or `None` when there is
/// no such file.
pub type IncludeResolver = Box<dyn Fn(&str) -> Option<String>>;

/// Files one request may load through the resolver.
pub const MAX_INCLUDE_LOADS: usize = 256;
/// Bytes of one included file.
pub const MAX_INCLUDED_BYTES: usize = 4 * 1024 * 1024;

thread_local! {
    // WebAssembly (without threads) runs one thread, and a JavaScript
    // function cannot cross threads; the loader the database holds must be
    // `Send + Sync`, so it carries no state and reads the resolver here.
    static RESOLVER: RefCell<Option<IncludeResolver>> = const { RefCell::new(None) };
    static LOADS: Cell<usize> = const { Cell::new(0) };
    /// Bumped by every [`set_include_resolver`], so a session knows that
    /// what it read through the old resolver is stale.
    static GENERATION: Cell<u64> = const { Cell::new(0) };
}

pub(crate) fn resolver_generation() -> u64 {
    GENERATION.with(Cell::get)
}

/// Sets (or, with `None`, removes) the resolver every session uses.
pub fn set_include_resolver(resolver: Option<IncludeResolver>) {
    RESOLVER.with(|slot| {
        // Called from inside the resolver itself, the slot is borrowed:
        // the running resolver stays.
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = resolver;
            GENERATION.with(|generation| generation.set(generation.get() + 1));
        }
    });
}

pub(crate) fn has_resolver() -> bool {
    RESOLVER.with(|slot| slot.try_borrow().map(|r| r.is_some()).unwrap_or(true))
}

/// Starts a request's load budget.
pub(crate) fn reset_budget() {
    LOADS.with(|loads| loads.set(0));
}

/// Reads includes through the resolver; paths are those of the virtual
/// file system the session sets up (root `/`).
pub(crate) struct ResolverLoader;

impl FileLoader for ResolverLoader {
    fn load(&self, path: &Path) -> io::Result<String> {
        let loads = LOADS.with(|loads| {
            loads.set(loads.get() + 1);
            loads.get()
        });
        if loads > MAX_INCLUDE_LOADS {
            return Err(io::Error::other(format!(
                "more than {MAX_INCLUDE_LOADS} included files in one request"
            )));
        }
        let relative = path.to_string_lossy();
        let relative = relative.trim_start_matches('/');
        let answer = RESOLVER.with(|slot| match slot.try_borrow() {
            Ok(slot) => match slot.as_ref() {
                Some(resolve) => Ok(resolve(relative)),
                None => Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    "no include resolver was given (see setIncludeResolver)",
                )),
            },
            Err(_) => Err(io::Error::other("the include resolver is being replaced")),
        })?;
        match answer {
            Some(text) if text.len() > MAX_INCLUDED_BYTES => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the file is {} bytes; includes are limited to {MAX_INCLUDED_BYTES} bytes",
                    text.len()
                ),
            )),
            Some(text) => Ok(text),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the include resolver has no file `{relative}`"),
            )),
        }
    }

    /// There is nothing to resolve symlinks against: `.` and `..` are
    /// folded lexically, so a path cannot climb above the root.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        NoIncludes.canonicalize(path)
    }
}
