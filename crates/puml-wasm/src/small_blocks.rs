//! Free lists of small blocks in front of the wasm32 heap.
//!
//! Layout and SVG writing allocate and free many small strings, vectors
//! and boxes (natively mimalloc answers them from per-size free lists in a
//! few instructions). On wasm32 every one of them went through talc's
//! general allocator (binning, splitting and coalescing chunks), and V8
//! runs that code as plain calls. [`SmallBlocks`] keeps a free list per
//! size class (multiples of [`GRAIN`] bytes up to [`LARGEST_SMALL`]): an
//! allocation of a small size pops the head of its class's list, a free
//! pushes the block back; only an empty list asks the inner allocator, and
//! blocks larger than that (or more aligned) go to it directly. A freed
//! small block stays in its class's list (the module's memory never shrinks
//! anyway), so the memory held is at most the peak of each class's live
//! blocks.
//!
//! It is not thread-safe: it is only the global allocator where there are
//! no threads (wasm32 without atomics); its `Sync` is declared there only.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// The class granularity and the alignment every small block has.
pub const GRAIN: usize = 8;

/// The largest size served from the free lists.
pub const LARGEST_SMALL: usize = 256;

const CLASSES: usize = LARGEST_SMALL / GRAIN;

/// A free list per small size class, over `inner` (see the module docs).
pub struct SmallBlocks<A> {
    inner: A,
    /// The first free block of each class; each free block's first word
    /// points at the next (null ends the list).
    heads: UnsafeCell<[*mut u8; CLASSES]>,
}

// SAFETY: only where the program has one thread (wasm32 without atomics):
// no two calls ever run at once.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<A: Sync> Sync for SmallBlocks<A> {}

impl<A> SmallBlocks<A> {
    pub const fn new(inner: A) -> Self {
        SmallBlocks {
            inner,
            heads: UnsafeCell::new([ptr::null_mut(); CLASSES]),
        }
    }
}

/// The class index of a layout the free lists serve, `None` for the rest.
#[inline]
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size();
    if size == 0 || size > LARGEST_SMALL || layout.align() > GRAIN {
        return None;
    }
    Some((size - 1) / GRAIN)
}

/// The layout a class's blocks are allocated with from the inner allocator.
#[inline]
fn class_layout(class: usize) -> Layout {
    // SAFETY: (class + 1) * GRAIN is at most LARGEST_SMALL, and GRAIN is a
    // power of two.
    unsafe { Layout::from_size_align_unchecked((class + 1) * GRAIN, GRAIN) }
}

impl<A: GlobalAlloc> SmallBlocks<A> {
    /// Pops a block of `class` off its list, or allocates one.
    #[inline]
    unsafe fn take(&self, class: usize) -> *mut u8 {
        // SAFETY: single-threaded (see the `Sync` impl); `class < CLASSES`.
        let head = unsafe { &mut (*self.heads.get())[class] };
        let block = *head;
        if block.is_null() {
            return unsafe { self.inner.alloc(class_layout(class)) };
        }
        // SAFETY: a free block holds the next pointer in its first word
        // (blocks are GRAIN-aligned and at least GRAIN bytes).
        *head = unsafe { (block as *mut *mut u8).read() };
        block
    }

    /// Pushes `block` onto the list of `class`.
    #[inline]
    unsafe fn give(&self, class: usize, block: *mut u8) {
        // SAFETY: as in `take`; the caller gives up `block`.
        unsafe {
            let head = &mut (*self.heads.get())[class];
            (block as *mut *mut u8).write(*head);
            *head = block;
        }
    }
}

// SAFETY: every block handed out is either a fresh allocation of the inner
// allocator (at least the asked size, GRAIN-aligned for small classes) or
// a block of the same class that was freed and is not in use; blocks are
// given back to the list of the class they were taken from, since
// `dealloc` and `realloc` receive the layout the block was allocated with.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallBlocks<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class_of(layout) {
            Some(class) => unsafe { self.take(class) },
            None => unsafe { self.inner.alloc(layout) },
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class_of(layout) {
            Some(class) => {
                let block = unsafe { self.take(class) };
                if !block.is_null() {
                    unsafe { ptr::write_bytes(block, 0, layout.size()) };
                }
                block
            }
            None => unsafe { self.inner.alloc_zeroed(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        match class_of(layout) {
            Some(class) => unsafe { self.give(class, block) },
            None => unsafe { self.inner.dealloc(block, layout) },
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size` with this alignment is a
        // valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let (old_class, new_class) = (class_of(layout), class_of(new_layout));
        if old_class.is_none() && new_class.is_none() {
            // Both large: the inner allocator may grow it in place.
            return unsafe { self.inner.realloc(block, layout, new_size) };
        }
        if old_class.is_some() && old_class == new_class {
            return block;
        }
        let moved = unsafe { self.alloc(new_layout) };
        if !moved.is_null() {
            unsafe {
                ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn a_freed_small_block_is_reused_by_its_class_only() {
        let blocks = SmallBlocks::new(System);
        unsafe {
            let a = blocks.alloc(layout(20, 4));
            blocks.dealloc(a, layout(20, 4));
            // 17..=24 bytes share the class; 25 does not.
            let b = blocks.alloc(layout(24, 8));
            assert_eq!(a, b);
            let c = blocks.alloc(layout(17, 1));
            assert_ne!(c, b);
            blocks.dealloc(b, layout(24, 8));
            let d = blocks.alloc(layout(25, 8));
            assert_ne!(d, b);
            blocks.dealloc(c, layout(17, 1));
            blocks.dealloc(d, layout(25, 8));
        }
    }

    #[test]
    fn large_and_overaligned_blocks_bypass_the_lists() {
        let blocks = SmallBlocks::new(System);
        assert_eq!(class_of(layout(LARGEST_SMALL, 8)), Some(CLASSES - 1));
        assert_eq!(class_of(layout(LARGEST_SMALL + 1, 8)), None);
        assert_eq!(class_of(layout(16, 16)), None);
        unsafe {
            let big = blocks.alloc(layout(4096, 8));
            blocks.dealloc(big, layout(4096, 8));
            assert!((*blocks.heads.get()).iter().all(|head| head.is_null()));
        }
    }

    #[test]
    fn realloc_keeps_the_contents_across_classes_and_sizes() {
        let blocks = SmallBlocks::new(System);
        unsafe {
            let mut size = 1;
            let mut block = blocks.alloc(layout(size, 1));
            block.write(7);
            // Grow through every small class and past them, then shrink back.
            let sizes: Vec<usize> = (2..=600).chain((1..600).rev()).collect();
            for new_size in sizes {
                block = blocks.realloc(block, layout(size, 1), new_size);
                assert!(!block.is_null());
                assert_eq!(block.read(), 7, "at {size} -> {new_size}");
                size = new_size;
            }
            blocks.dealloc(block, layout(size, 1));
        }
    }

    #[test]
    fn zeroed_blocks_are_zero_even_when_reused() {
        let blocks = SmallBlocks::new(System);
        unsafe {
            let a = blocks.alloc(layout(32, 8));
            ptr::write_bytes(a, 0xAB, 32);
            blocks.dealloc(a, layout(32, 8));
            let b = blocks.alloc_zeroed(layout(32, 8));
            assert_eq!(a, b);
            assert!(std::slice::from_raw_parts(b, 32).iter().all(|&byte| byte == 0));
            blocks.dealloc(b, layout(32, 8));
        }
    }
}
