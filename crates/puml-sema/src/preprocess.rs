//! The preprocessor (in progress).
use std::io;
use std::path::Path;

pub trait FileLoader {
    fn load(&self, path: &Path) -> io::Result<String>;
}

pub struct FsLoader;
impl FileLoader for FsLoader {
    fn load(&self, path: &Path) -> io::Result<String> {
        std::fs::read_to_string(path)
    }
}

pub struct NoIncludes;
impl FileLoader for NoIncludes {
    fn load(&self, _path: &Path) -> io::Result<String> {
        Err(io::Error::new(io::ErrorKind::PermissionDenied, "includes are disabled"))
    }
}
