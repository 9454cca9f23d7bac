//! Reading inputs for the CLI: files or stdin, as text, with a size limit.

use std::io::Read;
use std::path::Path;

/// Default maximum size of one input file (bytes). Overridable with
/// `PUML_MAX_BYTES` or the commands' `--max-bytes`.
pub const DEFAULT_MAX_BYTES: u64 = 8 * 1024 * 1024;

pub enum InputError {
    Io(String),
    TooLarge { size: u64, limit: u64 },
}

/// Reads `path` (or stdin for `-`) as raw bytes, refusing inputs over `limit`.
pub fn read_input_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| InputError::Io(format!("<stdin>: {e}")))?;
    } else {
        let file = std::fs::File::open(path).map_err(|e| InputError::Io(format!("{}: {e}", path.display())))?;
        if let Ok(meta) = file.metadata() {
            if meta.len() > limit {
                return Err(InputError::TooLarge {
                    size: meta.len(),
                    limit,
                });
            }
        }
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| InputError::Io(format!("{}: {e}", path.display())))?;
    }
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

pub fn max_bytes_from_env() -> u64 {
    std::env::var("PUML_MAX_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_BYTES)
}
