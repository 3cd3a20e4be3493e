//! The `calimcp` binary: everything lives in the library; see `calimcp::cli`.

// The mapping allocates many small JSON maps; mimalloc makes that (and freeing
// them) several times cheaper than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Turns transparent huge pages off for the process before mimalloc runs
/// (`cli::main` asks again; that call came too late). mimalloc asks for
/// huge pages on its arena (`MADV_HUGEPAGE`) and its first allocations come
/// from Rust's runtime before `main`: each start then faulted in two 2 MiB
/// huge pages, zeroed in full: about half of what `--version` cost over
/// a hello-world (BENCHMARKS.md, issue 34). A constructor of priority 100
/// runs before mimalloc's own (101) and before the runtime.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static THP_OFF_BEFORE_THE_ALLOCATOR: extern "C" fn() = {
    extern "C" fn thp_off() {
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and sets a
        // flag of this process; failure (an old kernel) leaves THP as it was.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
        // mimalloc's first arena: 32 MiB instead of 1 GiB. Its bitmaps are
        // sized for the arena and written at start (~40 page faults for
        // 1 GiB); further arenas come as needed, larger every 8. Only the
        // default changes: MIMALLOC_ARENA_RESERVE still wins.
        const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;
        // SAFETY: sets an option's default value (plain integers), before
        // mimalloc reads its options.
        unsafe {
            libmimalloc_sys::mi_option_set_default(MI_OPTION_ARENA_RESERVE, 32 * 1024);
        }
    }
    thp_off
};

fn main() -> std::process::ExitCode {
    calimcp::cli::main()
}
