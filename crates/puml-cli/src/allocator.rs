//! The process's allocator: the system's while `puml` works on one file on
//! the main thread, mimalloc (`puml_alloc::MiMalloc`) from the moment it
//! may work on several threads (`use_mimalloc`).
//!
//! Why both: glibc's allocator spent about a quarter of a corpus render in
//! malloc and free (many small, short-lived allocations on several
//! threads), and mimalloc's per-thread free lists take a fraction of that.
//! But a process that checks or renders one diagram and exits (what tools
//! running `puml` once per diagram pay for) spent a third of its page
//! faults in mimalloc's first arena and the free lists of its fresh pages
//! (`perf record -e page-faults`: 95 of 289), where the system allocator
//! grows one heap.
//!
//! A global allocator cannot be swapped once memory is handed out, so
//! both stay live: allocations go to the allocator chosen when they are
//! made, and a block goes back to the one that owns it (mimalloc knows its
//! own blocks; the check only runs once mimalloc has been chosen, so a
//! one-file process never makes it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

extern "C" {
    /// mimalloc's own answer to "is this one of my blocks?" (compiled into
    /// the library the `mimalloc` crate links; its Rust declaration sits
    /// behind a feature that would rebuild the library).
    fn mi_is_in_heap_region(p: *const std::ffi::c_void) -> bool;
}

/// Set once, never cleared: from then on new blocks come from mimalloc.
static MIMALLOC_CHOSEN: AtomicBool = AtomicBool::new(false);

/// New allocations come from mimalloc from now on. Call before starting
/// threads that allocate (a server, several files in parallel).
pub fn use_mimalloc() {
    MIMALLOC_CHOSEN.store(true, Ordering::Release);
}

pub struct Allocator;

fn mimalloc_chosen() -> bool {
    MIMALLOC_CHOSEN.load(Ordering::Acquire)
}

/// The addresses every block the system allocator handed out lies between
/// (`[SYSTEM_LOW, SYSTEM_HIGH)`, only ever widened): a block outside is
/// mimalloc's without asking mimalloc (its page map look-up on every free
/// was 3 % of a corpus check's instructions).
static SYSTEM_LOW: AtomicUsize = AtomicUsize::new(usize::MAX);
static SYSTEM_HIGH: AtomicUsize = AtomicUsize::new(0);

/// Widens the system's range to hold a block it just handed out. The
/// thread that later frees the block has received it from this one, so it
/// sees the range widened.
fn note_system_block(ptr: *mut u8, size: usize) -> *mut u8 {
    if !ptr.is_null() {
        let start = ptr as usize;
        let end = start.saturating_add(size.max(1));
        if start < SYSTEM_LOW.load(Ordering::Relaxed) {
            SYSTEM_LOW.fetch_min(start, Ordering::Relaxed);
        }
        if end > SYSTEM_HIGH.load(Ordering::Relaxed) {
            SYSTEM_HIGH.fetch_max(end, Ordering::Relaxed);
        }
    }
    ptr
}

/// Whether `ptr` is a block of mimalloc's. Before mimalloc is chosen no
/// block can be; after, one outside the system's range is, and inside it
/// mimalloc tells (a look-up in its page map, which answers no for any
/// address it did not hand out).
fn owned_by_mimalloc(ptr: *mut u8) -> bool {
    if !mimalloc_chosen() {
        return false;
    }
    let addr = ptr as usize;
    if addr < SYSTEM_LOW.load(Ordering::Relaxed) || addr >= SYSTEM_HIGH.load(Ordering::Relaxed) {
        return true;
    }
    // SAFETY: `mi_is_in_heap_region` only reads mimalloc's page map; any
    // address may be asked.
    unsafe { mi_is_in_heap_region(ptr.cast()) }
}

// SAFETY: every block is freed, resized or zero-allocated by the allocator
// that made it (`owned_by_mimalloc`), each of which is a correct
// `GlobalAlloc`; layouts are passed through unchanged.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mimalloc_chosen() {
            unsafe { puml_alloc::MiMalloc.alloc(layout) }
        } else {
            note_system_block(unsafe { System.alloc(layout) }, layout.size())
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mimalloc_chosen() {
            unsafe { puml_alloc::MiMalloc.alloc_zeroed(layout) }
        } else {
            note_system_block(unsafe { System.alloc_zeroed(layout) }, layout.size())
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if owned_by_mimalloc(ptr) {
            unsafe { puml_alloc::MiMalloc.dealloc(ptr, layout) }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A block stays with the allocator that made it.
        if owned_by_mimalloc(ptr) {
            unsafe { puml_alloc::MiMalloc.realloc(ptr, layout, new_size) }
        } else {
            note_system_block(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_go_back_to_the_allocator_that_made_them() {
        // The test binary runs on this allocator too: choosing mimalloc
        // here switches it for the tests after, as a server does. Blocks
        // made before are the system's, and stay so across a resize.
        let layout = Layout::from_size_align(64, 8).expect("layout");
        let allocator = Allocator;
        unsafe {
            let before = allocator.alloc(layout);
            assert!(!before.is_null());
            before.write_bytes(7, 64);
            use_mimalloc();
            assert!(!owned_by_mimalloc(before));
            let after = allocator.alloc_zeroed(layout);
            assert!(owned_by_mimalloc(after));
            assert_eq!(*after.add(63), 0);
            let grown = allocator.realloc(before, layout, 4096);
            assert!(!owned_by_mimalloc(grown));
            assert_eq!(*grown.add(63), 7);
            let after_grown = allocator.realloc(after, layout, 4096);
            assert!(owned_by_mimalloc(after_grown));
            allocator.dealloc(grown, Layout::from_size_align(4096, 8).expect("layout"));
            allocator.dealloc(after_grown, Layout::from_size_align(4096, 8).expect("layout"));
        }
    }
}
