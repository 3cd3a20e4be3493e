//! How the process uses memory: the allocator policy the binary and the
//! faces share. The binary allocates with mimalloc (see `src/main.rs`); without
//! it (tests, other binaries linking the library) these calls only touch
//! mimalloc's own unused state and change nothing that matters.
//!
//! Two kinds of process want different things. A one-shot command (`schema`,
//! `tools`, `call`, …) lives a few milliseconds: handing freed pages back to
//! the OS is wasted work, and so is zeroing 2 MiB transparent huge pages it
//! touches only a little of. A server (`serve`) lives for hours and should give
//! a start-up peak back.

/// mimalloc's `purge_delay` option (same number in its v2 and v3 option enums).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Stops the kernel backing this process's heap with transparent huge pages.
///
/// With THP on `always`, every fresh 2 MiB stretch of mimalloc's arena is a
/// huge page the kernel zeroes in full on first touch: a short command that
/// needs a few hundred KiB pays for whole huge pages (measured: ~0.4 ms of a
/// 4 ms `tools --json`, and 13 MB of the peak for 5,000 methods; BENCHMARKS.md).
/// `cli::main` calls it first thing; it applies to every later page fault.
/// The binary already did the same in a constructor that runs before
/// mimalloc's (`src/main.rs`): mimalloc's first allocations come before `main`.
pub fn avoid_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and changes a
    // flag of this process; failure (an old kernel) leaves THP as it was.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// For a one-shot command: keep freed pages until exit instead of returning
/// them to the OS (the exit itself returns everything at once; mimalloc's
/// purge at exit cost ~0.3 ms of a 4 ms command).
pub fn keep_freed_memory_until_exit() {
    // SAFETY: mi_option_set takes plain integers and only sets an option
    // that mimalloc reads on its next purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

/// For a long-running server: hands memory freed by a large transient
/// (loading the apps, a tools/list page, a catalog rebuild) back to the OS, so
/// a server that runs for hours does not sit on a start-up peak.
pub fn release_freed_memory() {
    // SAFETY: mi_collect takes no pointers; it only walks the allocator's own state.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// Asks the kernel to back the whole pages of `buf`'s spare capacity now,
/// in one call, before a read fills them: a first write to each page would
/// otherwise fault it in on its own, which costs more than twice as much
/// (1.65 µs against 0.73 µs a page on this project's CI machine,
/// BENCHMARKS.md "Start-up, sixth pass"). Only a hint: on an older kernel
/// (before 5.14) or elsewhere, nothing happens.
pub(crate) fn prefault_spare(buf: &mut Vec<u8>) {
    #[cfg(target_os = "linux")]
    {
        const MADV_POPULATE_WRITE: libc::c_int = 23;
        const PAGE: usize = 4096;
        let spare = buf.spare_capacity_mut();
        let start = spare.as_mut_ptr() as usize;
        let (first, end) = (
            start.next_multiple_of(PAGE),
            (start + spare.len()) / PAGE * PAGE,
        );
        if end > first {
            // SAFETY: the range is whole pages inside the Vec's own
            // allocation; populating them changes no byte the Vec holds.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, MADV_POPULATE_WRITE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}
