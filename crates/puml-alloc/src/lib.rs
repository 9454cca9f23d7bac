//! The global allocator of every puml binary, bench and profiling example
//! (`puml` itself switches to it from the system's, `puml-cli/src/allocator.rs`).
//!
//! It is mimalloc, asked the way the `mimalloc` crate's `MiMalloc` is not:
//! that one calls `mi_malloc_aligned` (and `mi_zalloc_aligned`,
//! `mi_realloc_aligned`) for every layout, whose alignment test, free-list
//! address check and extra call cost about 15,000 instructions of checking
//! one corpus diagram (callgrind, `puml-sema`'s `check_corpus` example).
//! mimalloc's plain blocks are already aligned to their size up to 16 bytes
//! (every block of 16 bytes or more to 16: its size classes are multiples of
//! 16 from there, and a page's first block starts on 16), the same promise
//! the C library's `malloc` makes, so a layout whose alignment is at most 16
//! and at most its size goes to the plain functions, as the standard
//! library's own `System` does with `malloc`; any other to the aligned ones.

#![cfg(not(target_arch = "wasm32"))]

use libmimalloc_sys::{mi_malloc, mi_realloc, mi_zalloc};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every plain mimalloc block of at least this size has
/// (`MI_MAX_ALIGN_SIZE`, `sizeof(max_align_t)` on the targets puml builds for).
const PLAIN_BLOCK_ALIGN: usize = 16;

/// Whether a plain block of `size` bytes is aligned enough for `align`.
#[inline]
fn plain_block_fits(size: usize, align: usize) -> bool {
    align <= PLAIN_BLOCK_ALIGN && align <= size
}

/// mimalloc as the global allocator, through its plain calls where they
/// give the alignment asked for.
pub struct MiMalloc;

// SAFETY: every block comes from mimalloc, aligned as its layout asks
// (`plain_block_fits`, otherwise mimalloc's aligned calls), and goes back
// to it through `mi_free` or `mi_realloc`, which take any block of its own.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain_block_fits(layout.size(), layout.align()) {
            // SAFETY: any size may be asked.
            unsafe { mi_malloc(layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain_block_fits(layout.size(), layout.align()) {
            // SAFETY: any size may be asked.
            unsafe { mi_zalloc(layout.size()).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain_block_fits(new_size, layout.align()) {
            // SAFETY: `ptr` is a live block of mimalloc's (the caller's
            // promise); the block returned is a plain one of `new_size`.
            unsafe { mi_realloc(ptr.cast::<c_void>(), new_size).cast() }
        } else {
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block is aligned as its layout asks, keeps its contents over a
    /// resize either way, and a zeroed block is zero, for sizes and
    /// alignments on both sides of the plain path's limit.
    #[test]
    fn blocks_are_aligned_as_asked_and_keep_their_bytes() {
        let allocator = MiMalloc;
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1usize, 3, 7, 8, 9, 15, 16, 17, 24, 33, 100, 1000, 70_000] {
                let layout = Layout::from_size_align(size, align).expect("layout");
                unsafe {
                    let zeroed = allocator.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0, "zalloc {size} aligned {align}");
                    assert!((0..size).all(|i| *zeroed.add(i) == 0));
                    allocator.dealloc(zeroed, layout);
                    for new_size in [size / 2 + 1, size * 3 + 5] {
                        let block = allocator.alloc(layout);
                        assert_eq!(block as usize % align, 0, "alloc {size} aligned {align}");
                        block.write_bytes(0xA5, size);
                        let kept = size.min(new_size);
                        let resized = allocator.realloc(block, layout, new_size);
                        assert_eq!(
                            resized as usize % align,
                            0,
                            "realloc {size}->{new_size} aligned {align}"
                        );
                        assert!((0..kept).all(|i| *resized.add(i) == 0xA5));
                        let resized_layout = Layout::from_size_align(new_size, align).expect("layout");
                        let back = allocator.realloc(resized, resized_layout, size);
                        assert_eq!(back as usize % align, 0, "realloc {new_size}->{size} aligned {align}");
                        assert!((0..kept).all(|i| *back.add(i) == 0xA5));
                        allocator.dealloc(back, layout);
                    }
                }
            }
        }
    }
}
