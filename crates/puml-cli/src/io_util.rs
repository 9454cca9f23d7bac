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
            // `take` hides the file's size from `read_to_end`, which then
            // reads in doubling chunks from 32 bytes (six reads for a 2 KB
            // diagram); sized up front it is one read and the EOF probe.
            bytes.reserve_exact(meta.len() as usize + 1);
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

/// `items.iter().map(work)`, spread over every core (a shared work queue,
/// one item at a time); results come back in the order of `items`. Each
/// worker makes its state once (`new_state`) and passes it to every item
/// it takes, e.g. a host reused from file to file.
pub fn parallel_map<T: Sync, R: Send, S>(
    items: &[T],
    new_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    // One item (the common `puml check FILE`): no thread to start and no
    // core count to read (`available_parallelism` reads cgroup files), both
    // measurable in a one-diagram process's start-up.
    if items.len() <= 1 {
        let mut state = new_state();
        return items.iter().map(|item| work(&mut state, item)).collect();
    }
    crate::allocator::use_mimalloc();
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut indexed: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    let mut state = new_state();
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            break done;
                        };
                        done.push((index, work(&mut state, item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    indexed.sort_by_key(|(index, _)| *index);
    indexed.into_iter().map(|(_, result)| result).collect()
}
