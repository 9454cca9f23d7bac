//! Handing freed memory back to the system. The binaries allocate with
//! mimalloc, which keeps freed pages for reuse; after a burst of large
//! requests a long-running server would otherwise hold its peak. Asking it
//! to collect returns the pages no live allocation uses.

// Linked through `puml-alloc` (the binaries' global allocator, mimalloc).
use puml_alloc as _;

extern "C" {
    /// mimalloc's `void mi_collect(bool force)`.
    fn mi_collect(force: bool);
}

/// Returns the memory freed so far (this thread's and abandoned pages) to
/// the system. Cheap enough to call after each large request, too slow to
/// call after every request.
pub fn return_freed_memory() {
    // SAFETY: `mi_collect` takes no pointer and may be called on any thread
    // at any time; it only frees pages that hold no live allocation. Where
    // mimalloc is not the global allocator its heaps are empty and the call
    // does nothing.
    unsafe { mi_collect(true) }
}
